"""tf.contrib.slim.losses (= tf.contrib.losses), slim.metrics streaming metrics and
tf.contrib.layers.optimize_loss against tf-slim goldens (tests/data/make_slim_goldens.py)."""

import os

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.contrib.slim as slim
from tests.data import slim_cases as cases

G = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "slim_goldens.npz"))


def test_losses_values_and_collection():
    with tf.Graph().as_default():
        outs = cases.losses(slim, tf)
        assert len(slim.losses.get_losses()) == G["losses_n"]
        assert outs["hinge"].shape.as_list() == [4, 3]
        with tf.Session() as sess:
            vals = sess.run(outs)
        for k, v in vals.items():
            np.testing.assert_allclose(v, G["loss_" + k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_losses_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="You must specify 'axis'"):
            slim.losses.cosine_distance(tf.ones([2, 3]), tf.ones([2, 3]))
        with pytest.raises(ValueError, match="`weights` cannot be None"):
            slim.losses.compute_weighted_loss(tf.ones([2]), weights=None)
        with pytest.raises(ValueError):
            slim.losses.mean_squared_error(tf.ones([2, 3]), tf.ones([2, 4]))


def test_streaming_metrics():
    with tf.Graph().as_default():
        p, lab, wt, metrics = cases.streaming_metrics(slim, tf)
        M = slim.metrics
        names_to_values, names_to_updates = M.aggregate_metric_map(metrics)
        values, updates = M.aggregate_metrics(*metrics.values())
        assert len(values) == len(updates) == len(metrics)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            for i in range(2):
                feed = {p: G["metric_feed_p%d" % i], lab: G["metric_feed_l%d" % i], wt: G["metric_feed_w%d" % i]}
                sess.run(list(names_to_updates.values()), feed)
            got = sess.run(names_to_values)
        for k, v in got.items():
            np.testing.assert_allclose(v, G["metric_" + k], rtol=1e-5, atol=1e-6, err_msg=k)
        with pytest.raises(ValueError, match="Expected at least one"):
            M.aggregate_metrics()


def test_streaming_recall_at_k():
    with tf.Graph().as_default():
        pred = tf.constant([[0.1, 0.5, 0.4], [0.7, 0.2, 0.1], [0.2, 0.3, 0.5]])
        value, update = slim.metrics.streaming_recall_at_k(pred, tf.constant([2, 0, 0]), 2)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run(update)
            np.testing.assert_allclose(sess.run(value), 2 / 3, rtol=1e-6)


def test_optimize_loss():
    with tf.Graph().as_default():
        w, loss, gs, train_op, train_op2 = cases.optimize_loss(slim, tf)
        assert [v.op.name for v in tf.global_variables() if "learning_rate" in v.op.name] == [
            "OptimizeLoss/learning_rate", "Opt2/learning_rate"]
        assert len(tf.get_collection(tf.GraphKeys.SUMMARIES)) == len(G["optloss_summaries"])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_allclose(sess.run(train_op), G["optloss_loss0"], rtol=1e-5)
            np.testing.assert_allclose(sess.run(w), G["optloss_w1"], rtol=1e-5)
            np.testing.assert_allclose(sess.run(train_op2), G["optloss_loss1"], rtol=1e-5)
            np.testing.assert_allclose(sess.run(train_op2), G["optloss_loss2"], rtol=1e-5)
            w3, step = sess.run([w, gs])
        np.testing.assert_allclose(w3, G["optloss_w3"], rtol=1e-5)
        assert step == G["optloss_gs"]
        with pytest.raises(ValueError, match="Optimizer name should be one of"):
            slim.optimize_loss(loss, gs, 0.1, "Nope")
        with pytest.raises(ValueError, match="Summaries should be one of"):
            slim.optimize_loss(loss, gs, 0.1, "SGD", summaries=["weights"])
        with pytest.raises(ValueError, match="Invalid learning_rate"):
            slim.optimize_loss(loss, gs, -0.1, "SGD")


def test_summarize_helpers():
    with tf.Graph().as_default():
        x = tf.constant([[-1.0, 2.0], [7.0, 0.5]])
        act = tf.nn.relu6(x, name="act")
        tf.add_to_collection(tf.GraphKeys.ACTIVATIONS, act)
        summaries = slim.summarize_activations()
        assert len(summaries) == 1
        tags = sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES))
        assert tags == ["act/activation", "act/sixes", "act/zeros"]
        s1, s2, s3 = slim.summarize_tensors([tf.constant(1.0, name="c"), x, tf.constant(True)])
        assert s3 is None
        with tf.Session() as sess:
            merged = sess.run(tf.summary.merge_all())
        assert isinstance(merged, bytes) and b"act/zeros" in merged and b"c_summary" in merged


def test_non_streaming_accuracy():
    with tf.Graph().as_default():
        p = tf.constant([1, 2, 3, 4])
        lab = tf.constant([1, 0, 3, 0])
        a = slim.metrics.accuracy(p, lab)
        b = slim.metrics.accuracy(p, lab, weights=tf.constant([1.0, 0.0, 3.0, 4.0]))
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run([a, b]), [0.5, 0.5])
        with pytest.raises(ValueError, match="Labels should have bool, integer, or string dtype"):
            slim.metrics.accuracy(tf.constant([1.0]), tf.constant([1.0]))
        with pytest.raises(ValueError, match="Dtypes of predictions and labels should match"):
            slim.metrics.accuracy(tf.constant([1.0]), tf.constant([1]))


def test_more_streaming_metrics():
    with tf.Graph().as_default():
        values, updates = slim.metrics.aggregate_metric_map(cases.more_metrics(slim, tf))
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run(updates)
            got = sess.run(values)
    for k, v in got.items():
        np.testing.assert_allclose(v, G["metric2_" + k], rtol=1e-5, atol=1e-6, err_msg=k)


@pytest.mark.parametrize("kind", ["class", "instance", "callable", "tensor_lr"])
def test_optimize_loss_optimizer_forms(kind):
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0]))
        v = tf.get_variable("v", initializer=tf.constant(3.0))
        loss = tf.reduce_sum(w * w) + v * v
        gs = tf.train.get_or_create_global_step()
        lr = 0.1
        if kind == "class":
            opt = tf.train.GradientDescentOptimizer
        elif kind == "instance":
            opt = tf.train.GradientDescentOptimizer(0.1)
        elif kind == "callable":
            opt = lambda learning_rate: tf.train.GradientDescentOptimizer(learning_rate)  # noqa: E731
        else:
            opt, lr = "SGD", tf.constant(0.1)
        train = slim.optimize_loss(loss, gs, lr, opt, gradient_multipliers={"v:0": 0.0}, summaries=[],
                                   increment_global_step=(kind != "instance"))
        assert tf.get_collection(tf.GraphKeys.SUMMARIES) == []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_allclose(sess.run(train), 14.0)
            got_w, got_v, step = sess.run([w, v, gs])
        np.testing.assert_allclose(got_w, [0.8, -1.6], rtol=1e-6)
        assert got_v == 3.0 and step == (0 if kind == "instance" else 1)


def test_optimize_loss_clip_callable_and_noise():
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0]))
        loss = tf.reduce_sum(w * w)
        gs = tf.train.get_or_create_global_step()
        halve = lambda gv: [(g * 0.5, v) for g, v in gv]  # noqa: E731
        train = slim.optimize_loss(loss, gs, 0.1, "SGD", clip_gradients=halve)
        noisy = slim.optimize_loss(loss, gs, 0.0, "SGD", gradient_noise_scale=1.0, name="noisy")
        with pytest.raises(ValueError, match="Unknown type"):
            slim.optimize_loss(loss, gs, 0.1, "SGD", clip_gradients=1)
        with pytest.raises(ValueError, match="Learning rate is None"):
            slim.optimize_loss(loss, gs, None, "SGD")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            np.testing.assert_allclose(sess.run(w), [0.9, -1.8], rtol=1e-6)
            sess.run(noisy)  # learning rate 0: the noise changes nothing
            np.testing.assert_allclose(sess.run(w), [0.9, -1.8], rtol=1e-6)
