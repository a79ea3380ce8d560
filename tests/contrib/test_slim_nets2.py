"""tf.contrib.slim.nets.inception_v2 and .overfeat against tf-slim 1.1's `nets` on TF 2.21 (goldens recorded
by tests/data/make_slim_nets2_tf.py over the cases of tests/data/slim_nets2_cases.py): variable names and
shapes, end points (names, order and static shapes), the logits with the same deterministic weights, a
tf-slim-written checkpoint restoring into the same network, and the errors a user can hit."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.contrib.slim as slim
from tensorweave.contrib.slim.nets import inception_v2, overfeat
from tests.data import slim_nets2_cases as cases

DATA = os.path.join(os.path.dirname(__file__), "..", "data")

with open(os.path.join(DATA, "slim_nets2_tf.json")) as _f:
    META = json.load(_f)
LOGITS = np.load(os.path.join(DATA, "slim_nets2_tf.npz"))


class _Nets:
    pass


NETS = _Nets()
NETS.inception_v2, NETS.overfeat = inception_v2, overfeat


def shape_str(t):
    return ",".join("?" if d is None else str(d) for d in t.shape.as_list())


def check_structure(case, logits, end_points):
    meta = META[case]
    assert [[v.op.name, v.shape.as_list()] for v in tf.global_variables()] == meta["variables"]
    assert [[k, shape_str(v)] for k, v in end_points.items()] == meta["end_points"]
    assert shape_str(logits) == meta["logits_shape"]
    assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == meta["n_reg_losses"]
    assert len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)) == meta["n_update_ops"]


def assert_logits(got, case):
    want = LOGITS[case]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * float(np.abs(want).max()))


@pytest.mark.parametrize("case", cases.CASES)
def test_logits_variables_end_points(case):
    with tf.Graph().as_default():
        logits, end_points = cases.build(case, slim, NETS, tf)
        check_structure(case, logits, end_points)
        with tf.Session() as sess:
            cases.set_vars(tf, sess)
            out = sess.run(logits)
            if "Predictions" in end_points:
                np.testing.assert_allclose(sess.run(end_points["Predictions"]).sum(-1), 1.0, rtol=1e-5)
    assert_logits(out, case)


def test_restore_tf_slim_checkpoint():
    """A checkpoint written by tf-slim's saver restores into tensorweave's network and gives TF's logits."""
    path = os.path.join(DATA, "slim_nets2_checkpoint", "model.ckpt")
    for restore in ("saver", "assign_from_checkpoint_fn"):
        with tf.Graph().as_default():
            logits, _ = cases.build(cases.CKPT_CASE, slim, NETS, tf)
            with tf.Session() as sess:
                if restore == "saver":
                    tf.train.Saver().restore(sess, path)
                else:
                    sess.run(tf.global_variables_initializer())
                    slim.assign_from_checkpoint_fn(path, slim.get_variables_to_restore())(sess)
                assert_logits(sess.run(logits), cases.CKPT_CASE)


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
