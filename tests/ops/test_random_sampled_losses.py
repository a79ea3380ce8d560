"""tf.nn.nce_loss / tf.nn.sampled_softmax_loss against TensorFlow's values and gradients, with given
sampled values (tests/data/random_tf.npz, recorded by tests/data/make_random_tf.py), and with the
default log-uniform sampler."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tests.data import random_cases

_TF = np.load(pathlib.Path(__file__).parents[1] / "data" / "random_tf.npz")


@pytest.mark.parametrize("kind", ["nce", "softmax"])
@pytest.mark.parametrize("num_true", [1, 2])
@pytest.mark.parametrize("hits", [False, True])
@pytest.mark.parametrize("part", ["one", "mod", "div"])
def test_loss_and_gradients_match_tf(kind, num_true, hits, part):
    w, b, x = _TF["loss_w"], _TF["loss_b"], _TF["loss_x"]
    labels = _TF["loss_labels_%d" % num_true]
    sv = (_TF["loss_sampled"], _TF["loss_true_count_%d" % num_true], _TF["loss_sampled_count"])
    with tf.Graph().as_default(), tf.Session() as s:
        loss, grads = random_cases.sampled_loss(tf, w, b, x, labels, sv, kind, num_true, hits, part)
        assert loss.dtype == tf.float32
        vals = s.run([loss] + grads)
    key = "loss_%s_%d_%s_%s" % (kind, num_true, hits, part)
    for k, v in zip(("", "_dw", "_db", "_dx"), vals):
        np.testing.assert_allclose(v, _TF[key + k], rtol=2e-6, atol=2e-6, err_msg=key + k)


def test_accidental_hit_changes_the_loss():
    # Removing hits changes exactly the rows whose label is also a sampled class (row 0 at least).
    a, b = _TF["loss_softmax_1_False_one"], _TF["loss_softmax_1_True_one"]
    hit = np.isin(_TF["loss_labels_1"][:, 0], _TF["loss_sampled"])
    assert hit[0]
    np.testing.assert_array_equal(a != b, hit)


def test_default_sampler_and_training_step():
    with tf.Graph().as_default(), tf.Session() as s:
        tf.set_random_seed(1)
        w = tf.Variable(_TF["loss_w"])
        bias = tf.Variable(_TF["loss_b"])
        labels = tf.placeholder(tf.int64, [None, 1])
        x = tf.placeholder(tf.float32, [None, 4])
        nce = tf.reduce_mean(tf.nn.nce_loss(w, bias, labels, x, num_sampled=3, num_classes=10))
        sm = tf.reduce_mean(tf.nn.sampled_softmax_loss(w, bias, labels, x, num_sampled=3, num_classes=10))
        assert nce.shape.as_list() == [] and sm.shape.as_list() == []
        ops_types = {op.type for op in nce.graph.get_operations()}
        assert {"LogUniformCandidateSampler", "ComputeAccidentalHits"} <= ops_types
        step = tf.train.GradientDescentOptimizer(0.5).minimize(nce + sm)
        s.run(tf.global_variables_initializer())
        feed = {labels: [[1], [2], [3]], x: _TF["loss_x"]}
        first = s.run([nce, sm], feed)
        assert all(np.isfinite(first)) and first[0] > 0 and first[1] > 0
        for _ in range(30):
            s.run(step, feed)
        last = s.run([nce, sm], feed)
        assert last[0] < first[0] and last[1] < first[1]
