"""tf.contrib.slim.nets.inception_v2 and .overfeat against tf-slim 1.1's `nets` on TF 2.21 (goldens recorded
by tests/data/make_slim_nets2_tf.py over the cases of tests/data/slim_nets2_cases.py): variable names and
shapes, end points (names, order and static shapes), the logits with the same deterministic weights, a
tf-slim-written checkpoint restoring into the same network, and the errors a user can hit."""

import types

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib.slim.nets import inception_v2, overfeat
from tests.contrib.slim_goldens import Goldens
from tests.data import slim_nets2_cases as cases

G = Goldens("slim_nets2", cases, types.SimpleNamespace(inception_v2=inception_v2, overfeat=overfeat), "Predictions")


@pytest.mark.parametrize("case", cases.CASES)
def test_logits_variables_end_points(case):
    G.check_case(case)


def test_restore_tf_slim_checkpoint():
    """A checkpoint written by tf-slim's saver restores into tensorweave's network and gives TF's logits."""
    G.check_checkpoint_restore()


def test_reuse_and_final_endpoints():
    with tf.Graph().as_default():
        x = tf.constant(cases.image((1, 32, 32, 3)))
        a, _ = inception_v2.inception_v2(x, num_classes=3, is_training=False, depth_multiplier=0.05, min_depth=2,
                                         scope="net")
        n = len(tf.global_variables())
        b, _ = inception_v2.inception_v2(x, num_classes=3, is_training=False, depth_multiplier=0.05, min_depth=2,
                                         reuse=True, scope="net")
        assert len(tf.global_variables()) == n
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            va, vb = sess.run([a, b])
    np.testing.assert_allclose(va, vb, rtol=1e-6)
    with tf.Graph().as_default():
        net, end_points = inception_v2.inception_v2_base(tf.zeros([1, 64, 64, 3]), final_endpoint="Conv2d_1a_7x7")
        assert list(end_points) == ["Conv2d_1a_7x7"] and net.shape.as_list() == [1, 32, 32, 64]
        assert [v.op.name for v in tf.global_variables()] == [
            "InceptionV2/Conv2d_1a_7x7/depthwise_weights", "InceptionV2/Conv2d_1a_7x7/pointwise_weights",
            "InceptionV2/Conv2d_1a_7x7/biases"]
        # depthwise multiplier min(int(64 / 3), 8) = 8
        assert tf.global_variables()[0].shape.as_list() == [7, 7, 3, 8]


def test_public_names():
    import tensorweave.contrib.slim.nets as nets
    assert nets.inception_v2 is inception_v2 and nets.overfeat is overfeat
    assert nets.inception.inception_v2 is inception_v2.inception_v2
    assert nets.inception.inception_v2_base is inception_v2.inception_v2_base
    assert inception_v2.inception_v2.default_image_size == 224 and overfeat.overfeat.default_image_size == 231


def test_errors():
    with tf.Graph().as_default():
        x = tf.zeros([1, 64, 64, 3])
        with pytest.raises(ValueError, match="Unknown final endpoint Mixed_9z"):
            inception_v2.inception_v2_base(x, final_endpoint="Mixed_9z")
        with pytest.raises(ValueError, match="depth_multiplier is not greater than zero."):
            inception_v2.inception_v2(x, depth_multiplier=0.0)
        with pytest.raises(ValueError, match="depth_multiplier is not greater than zero."):
            inception_v2.inception_v2_base(x, depth_multiplier=-1.0)
    with tf.Graph().as_default():
        with pytest.raises(ValueError):  # fc6 is a 'VALID' 6x6 convolution over pool5's output: 64x64 is too small
            overfeat.overfeat(tf.zeros([1, 64, 64, 3]), num_classes=10)
