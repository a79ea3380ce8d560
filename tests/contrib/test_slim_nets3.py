"""tf.contrib.slim.nets.mobilenet_v1 and .lenet against the TensorFlow models repository's
`research/slim/nets/mobilenet_v1.py` and `lenet.py` on tf-slim 1.1 / TF 2.21 (goldens recorded by
tests/data/make_slim_nets3_tf.py over the cases of tests/data/slim_nets3_cases.py): variable names and
shapes, end points (names, order and static shapes), the logits with the same deterministic weights, a
tf-slim-written checkpoint restoring into the same network, and the errors a user can hit."""

import collections
import types

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.contrib.slim as slim
from tensorweave.contrib.slim.nets import lenet, mobilenet_v1
from tests.contrib.slim_goldens import Goldens
from tests.data import slim_nets3_cases as cases

G = Goldens("slim_nets3", cases, types.SimpleNamespace(mobilenet_v1=mobilenet_v1, lenet=lenet), "Predictions")


@pytest.mark.parametrize("case", cases.CASES)
def test_logits_variables_end_points(case):
    G.check_case(case)


def test_restore_tf_slim_checkpoint():
    """A checkpoint written by tf-slim's saver restores into tensorweave's network and gives TF's logits."""
    G.check_checkpoint_restore()


def test_training_batch_norm_updates():
    """is_training=True normalizes with the batch moments and its update ops move the moving averages by
    (1 - decay) towards them."""
    decay = 0.9
    with tf.Graph().as_default():
        x = tf.constant(cases.image((2, 16, 16, 3), 40))
        with slim.arg_scope(mobilenet_v1.mobilenet_v1_arg_scope(batch_norm_decay=decay)):
            net, end_points = mobilenet_v1.mobilenet_v1_base(x, final_endpoint="Conv2d_0", depth_multiplier=0.25)
        assert list(end_points) == ["Conv2d_0"] and net.shape.as_list() == [2, 8, 8, 8]
        weights = tf.global_variables()[0]
        assert weights.op.name == "MobilenetV1/Conv2d_0/weights"
        conv = tf.nn.conv2d(x, weights, [1, 2, 2, 1], "SAME")
        mean_var = [v for v in tf.global_variables() if v.op.name.endswith("moving_mean")][0]
        with tf.Session() as sess:
            cases.set_vars(tf, sess)
            mm0, conv_v = sess.run([mean_var, conv])
            out, _ = sess.run([net, tf.get_collection(tf.GraphKeys.UPDATE_OPS)])
            mm1 = sess.run(mean_var)
            values = {v.op.name: sess.run(v) for v in tf.global_variables()}
    mean, var = conv_v.mean((0, 1, 2)), conv_v.var((0, 1, 2))
    np.testing.assert_allclose(mm1, mm0 * decay + mean * (1 - decay), rtol=1e-4, atol=1e-5)
    gamma, beta = values["MobilenetV1/Conv2d_0/BatchNorm/gamma"], values["MobilenetV1/Conv2d_0/BatchNorm/beta"]
    want = np.clip((conv_v - mean) / np.sqrt(var + 0.001) * gamma + beta, 0.0, 6.0)
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)


def test_arg_scope_options():
    with tf.Graph().as_default():  # is_training=None: batch_norm keeps its own default (training, update ops)
        with slim.arg_scope(mobilenet_v1.mobilenet_v1_arg_scope(is_training=None)):
            mobilenet_v1.mobilenet_v1_base(tf.zeros([1, 16, 16, 3]), final_endpoint="Conv2d_1_pointwise")
        assert len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)) == 6
        assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 2  # not the depthwise weights
    with tf.Graph().as_default():  # no normalizer: the convolutions get biases
        with slim.arg_scope(mobilenet_v1.mobilenet_v1_arg_scope(normalizer_fn=None, weight_decay=0.0)):
            mobilenet_v1.mobilenet_v1_base(tf.zeros([1, 16, 16, 3]), final_endpoint="Conv2d_1_depthwise")
        assert [v.op.name for v in tf.global_variables()] == [
            "MobilenetV1/Conv2d_0/weights", "MobilenetV1/Conv2d_0/biases",
            "MobilenetV1/Conv2d_1_depthwise/depthwise_weights", "MobilenetV1/Conv2d_1_depthwise/biases"]
        assert tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES) == []


def test_reuse_and_unknown_sizes():
    with tf.Graph().as_default():
        x = tf.constant(cases.image((1, 32, 32, 3)))
        with slim.arg_scope(mobilenet_v1.mobilenet_v1_arg_scope(is_training=False)):
            a, _ = mobilenet_v1.mobilenet_v1_025(x, num_classes=3, is_training=False, scope="net")
            n = len(tf.global_variables())
            b, _ = mobilenet_v1.mobilenet_v1_025(x, num_classes=3, is_training=False, reuse=True, scope="net")
        assert len(tf.global_variables()) == n
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            va, vb = sess.run([a, b])
    np.testing.assert_allclose(va, vb, rtol=1e-6)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, None, None, 3])
        assert mobilenet_v1._reduced_kernel_size_for_small_input(x, [7, 7]) == [7, 7]
        assert mobilenet_v1._reduced_kernel_size_for_small_input(tf.zeros([1, 3, 9, 2]), [7, 7]) == [3, 7]
        logits, end_points = mobilenet_v1.mobilenet_v1(x, num_classes=2, depth_multiplier=0.25)
        assert end_points["AvgPool_1a"].shape.as_list() == [None, None, None, 256]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(logits, {x: np.zeros((2, 224, 224, 3), np.float32)}).shape == (2, 2)


def test_public_names():
    import tensorweave.contrib.slim.nets as nets
    assert nets.mobilenet_v1 is mobilenet_v1 and nets.lenet is lenet
    assert mobilenet_v1.mobilenet_v1.default_image_size == 224 and lenet.lenet.default_image_size == 28
    for fn, dm in ((mobilenet_v1.mobilenet_v1_075, 0.75), (mobilenet_v1.mobilenet_v1_050, 0.5),
                   (mobilenet_v1.mobilenet_v1_025, 0.25)):
        assert fn.keywords == {"depth_multiplier": dm} and fn.__name__ == "mobilenet_v1"
    defs = mobilenet_v1.MOBILENETV1_CONV_DEFS
    assert len(defs) == 14 and defs[0] == mobilenet_v1.Conv(kernel=[3, 3], stride=2, depth=32)
    assert [d.stride for d in defs] == [2, 1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1]
    assert [d.depth for d in defs[1:]] == [64, 128, 128, 256, 256] + [512] * 6 + [1024, 1024]


def test_errors():
    Other = collections.namedtuple("Other", ["kernel", "stride", "depth"])
    with tf.Graph().as_default():
        x = tf.zeros([1, 32, 32, 3])
        with pytest.raises(ValueError, match="^Unknown final endpoint Conv2d_14$"):
            mobilenet_v1.mobilenet_v1_base(x, final_endpoint="Conv2d_14")
        with pytest.raises(ValueError, match="^depth_multiplier is not greater than zero.$"):
            mobilenet_v1.mobilenet_v1(x, depth_multiplier=0.0)
        with pytest.raises(ValueError, match="^depth_multiplier is not greater than zero.$"):
            mobilenet_v1.mobilenet_v1_base(x, depth_multiplier=-1.0)
        with pytest.raises(ValueError, match="^Only allowed output_stride values are 8, 16, 32.$"):
            mobilenet_v1.mobilenet_v1_base(x, output_stride=4)
        with pytest.raises(ValueError, match="^Unknown convolution type Other for layer 1$"):
            mobilenet_v1.mobilenet_v1_base(x, conv_defs=[mobilenet_v1.Conv([3, 3], 2, 8), Other([3, 3], 1, 8)],
                                           scope="other")
        with pytest.raises(ValueError, match="^Unknown final endpoint Conv2d_13_pointwise$"):
            mobilenet_v1.mobilenet_v1(x, conv_defs=[mobilenet_v1.Conv([3, 3], 2, 8)], scope="short")
        with pytest.raises(ValueError, match="^Invalid input tensor rank, expected 4, was: 3$"):
            mobilenet_v1.mobilenet_v1(tf.zeros([32, 32, 3]))
