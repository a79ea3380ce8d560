"""`tf.contrib.seq2seq.sequence_loss` against a NumPy cross-entropy (TF 1.15's formulas: "average"
divides by the summed weights, "sum" by the count of non-zero weights, 0 where that is 0)."""

import numpy as np
import pytest

import tensorweave as tf

B, T, C = 2, 3, 5
RNG = np.random.RandomState(0)
LOGITS = RNG.randn(B, T, C).astype(np.float32)
TARGETS = RNG.randint(0, C, (B, T)).astype(np.int32)
WEIGHTS = np.array([[1.0, 0.5, 0.0], [2.0, 0.0, 0.0]], np.float32)


def _xent():
    x = LOGITS.astype(np.float64)
    lse = np.log(np.exp(x).sum(-1))
    picked = np.take_along_axis(x, TARGETS[..., None].astype(np.int64), -1)[..., 0]
    return (lse - picked) * WEIGHTS


def _nnz(axis=None):
    return np.count_nonzero(WEIGHTS, axis=axis)


def _loss(**kw):
    with tf.Graph().as_default():
        out = tf.contrib.seq2seq.sequence_loss(tf.constant(LOGITS), tf.constant(TARGETS), tf.constant(WEIGHTS), **kw)
        return out, tf.Session().run(out)


def _div(num, den):
    """`num / den`, 0 where `den` is 0 (TF's div_no_nan)."""
    den = np.asarray(den, np.float64)
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


NO_AVG = {"average_across_timesteps": False, "average_across_batch": False}


@pytest.mark.parametrize("kw,expected", [
    ({}, lambda: _div(_xent().sum(), WEIGHTS.sum())),
    ({"average_across_timesteps": False}, lambda: _div(_xent().sum(0), WEIGHTS.sum(0))),
    ({"average_across_batch": False}, lambda: _div(_xent().sum(1), WEIGHTS.sum(1))),
    (NO_AVG, _xent),
    (dict(NO_AVG, sum_over_timesteps=True, sum_over_batch=True), lambda: _div(_xent().sum(), _nnz())),
    (dict(NO_AVG, sum_over_batch=True), lambda: _div(_xent().sum(0), _nnz(0))),
    (dict(NO_AVG, sum_over_timesteps=True), lambda: _div(_xent().sum(1), _nnz(1))),
    ({"average_across_timesteps": False, "sum_over_timesteps": True}, lambda: _div(_xent().sum(0), WEIGHTS.sum(0))),
])
def test_values(kw, expected):
    out, got = _loss(**kw)
    want = np.asarray(expected(), np.float64)
    assert got.dtype == np.float32
    assert got.shape == want.shape == tuple(out.shape.as_list())
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_zero_weights_give_zero():
    with tf.Graph().as_default():
        out = tf.contrib.seq2seq.sequence_loss(LOGITS, TARGETS, np.zeros((B, T), np.float32))
        assert tf.Session().run(out) == 0.0


def test_softmax_loss_function_and_gradient():
    seen = {}

    def loss_fn(labels, logits):
        seen["shapes"] = (labels.shape.as_list(), logits.shape.as_list())
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits) * 2.0

    with tf.Graph().as_default():
        logits = tf.constant(LOGITS)
        out = tf.contrib.seq2seq.sequence_loss(logits, TARGETS, WEIGHTS, softmax_loss_function=loss_fn)
        (grad,) = tf.gradients(out, [logits])
        got, g = tf.Session().run([out, grad])
    assert seen["shapes"] == ([B * T], [B * T, C])
    np.testing.assert_allclose(got, 2 * _xent().sum() / WEIGHTS.sum(), rtol=1e-5)
    p = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
    want = 2 * (p - np.eye(C)[TARGETS]) * WEIGHTS[..., None] / WEIGHTS.sum()
    np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6)


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Logits must be a"):
            tf.contrib.seq2seq.sequence_loss(LOGITS[0], TARGETS, WEIGHTS)
        with pytest.raises(ValueError, match="Targets must be a"):
            tf.contrib.seq2seq.sequence_loss(LOGITS, TARGETS[0], WEIGHTS)
        with pytest.raises(ValueError, match="Weights must be a"):
            tf.contrib.seq2seq.sequence_loss(LOGITS, TARGETS, WEIGHTS[0])
        with pytest.raises(ValueError, match="average_across_timesteps and sum_over_timesteps"):
            tf.contrib.seq2seq.sequence_loss(LOGITS, TARGETS, WEIGHTS, sum_over_timesteps=True)
        with pytest.raises(ValueError, match="average_across_batch and sum_over_batch"):
            tf.contrib.seq2seq.sequence_loss(LOGITS, TARGETS, WEIGHTS, sum_over_batch=True)
