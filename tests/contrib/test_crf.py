"""`tf.contrib.crf` (TF 1.15 semantics; TF 2.21 has no contrib and tensorflow_addons is not installed):
every expected value comes from a NumPy brute-force enumeration of all tag sequences, independent of
the forward/Viterbi recursions under test."""

import itertools

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib import crf


def _score(x, tags, trans, length):
    s = sum(x[t, tags[t]] for t in range(length))
    s += sum(trans[tags[t], tags[t + 1]] for t in range(length - 1))
    return s


def _brute(x, trans, length):
    """(log_norm, best_tags, best_score) over all tag sequences of `length`."""
    num_tags = x.shape[1]
    scores = {seq: _score(x, seq, trans, length) for seq in itertools.product(range(num_tags), repeat=length)}
    vals = np.array(list(scores.values()))
    best = max(scores, key=scores.get)
    return np.log(np.sum(np.exp(vals))), list(best), scores[best]


@pytest.fixture
def data():
    rng = np.random.RandomState(0)
    x = rng.randn(3, 4, 3).astype(np.float32)
    trans = rng.randn(3, 3).astype(np.float32)
    tags = rng.randint(0, 3, size=(3, 4)).astype(np.int32)
    lengths = np.array([4, 2, 1], np.int32)
    return x, trans, tags, lengths


def test_scores_and_log_norm_vs_enumeration(data):
    x, trans, tags, lengths = data
    with tf.Graph().as_default(), tf.Session() as sess:
        ll, tp = crf.crf_log_likelihood(tf.constant(x), tf.constant(tags), tf.constant(lengths), tf.constant(trans))
        seq = crf.crf_sequence_score(x, tags, lengths, trans)
        unary = crf.crf_unary_score(tags, lengths, x)
        binary = crf.crf_binary_score(tags, lengths, trans)
        norm = crf.crf_log_norm(x, lengths, trans)
        ll_v, seq_v, un_v, bi_v, norm_v = sess.run([ll, seq, unary, binary, norm])
    for b in range(3):
        n = lengths[b]
        log_z, _, _ = _brute(x[b], trans, n)
        assert np.isclose(seq_v[b], _score(x[b], tags[b], trans, n), atol=1e-5)
        assert np.isclose(un_v[b], sum(x[b, t, tags[b, t]] for t in range(n)), atol=1e-5)
        assert np.isclose(bi_v[b], sum(trans[tags[b, t], tags[b, t + 1]] for t in range(n - 1)), atol=1e-5)
        assert np.isclose(norm_v[b], log_z, atol=1e-5)
        assert np.isclose(ll_v[b], _score(x[b], tags[b], trans, n) - log_z, atol=1e-5)


def test_decode_vs_enumeration(data):
    x, trans, _, lengths = data
    with tf.Graph().as_default(), tf.Session() as sess:
        tags, best = sess.run(crf.crf_decode(tf.constant(x), tf.constant(trans), tf.constant(lengths)))
    assert tags.dtype == np.int32 and tags.shape == (3, 4)
    for b in range(3):
        n = lengths[b]
        _, best_tags, best_score = _brute(x[b], trans, n)
        assert list(tags[b, :n]) == best_tags
        assert np.isclose(best[b], best_score, atol=1e-5)
        v, vs = crf.viterbi_decode(x[b, :n], trans)
        assert list(v) == best_tags and np.isclose(vs, best_score, atol=1e-5)


def test_single_step_and_zero_length():
    x = np.array([[[1.0, 3.0, 2.0]], [[0.5, -1.0, 0.0]]], np.float32)
    trans = np.eye(3, dtype=np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        ll, _ = crf.crf_log_likelihood(x, np.array([[2], [0]], np.int32), np.array([1, 0], np.int32), trans)
        tags, best = crf.crf_decode(x, trans, np.array([1, 1], np.int32))
        ll_v, tags_v, best_v = sess.run([ll, tags, best])
    lse = np.log(np.sum(np.exp(x[0, 0])))
    np.testing.assert_allclose(ll_v, [2.0 - lse, 0.0], atol=1e-6)
    np.testing.assert_array_equal(tags_v, [[1], [0]])
    np.testing.assert_allclose(best_v, [3.0, 0.5])


def test_transitions_variable_and_gradient(data):
    x, trans, tags, lengths = data
    x64 = x.astype(np.float64)
    with tf.Graph().as_default(), tf.Session() as sess:
        with tf.variable_scope("crf_layer"):  # as TF 1.15: a float32 get_variable("transitions")
            _, tp32 = crf.crf_log_likelihood(tf.constant(x), tf.constant(tags), tf.constant(lengths))
        assert tp32.op.name == "crf_layer/transitions" and tp32.get_shape().as_list() == [3, 3]
        assert tp32.dtype.base_dtype == tf.float32
        inp = tf.placeholder(tf.float64, [3, 4, 3])
        tp = tf.Variable(trans.astype(np.float64), name="t64")
        ll, _ = crf.crf_log_likelihood(inp, tf.constant(tags), tf.constant(lengths), tp)
        loss = -tf.reduce_sum(ll)
        g_x, g_t = tf.gradients(loss, [inp, tp])
        sess.run(tf.global_variables_initializer())
        tv = sess.run(tp)
        gx, gt = sess.run([g_x, g_t], {inp: x64})

        def f(xv, tvv):
            total = 0.0
            for b in range(3):
                total -= _score(xv[b], tags[b], tvv, lengths[b]) - _brute(xv[b], tvv, lengths[b])[0]
            return total

    eps = 1e-6
    num_x = np.zeros_like(x64)
    for idx in np.ndindex(x64.shape):
        d = np.zeros_like(x64)
        d[idx] = eps
        num_x[idx] = (f(x64 + d, tv) - f(x64 - d, tv)) / (2 * eps)
    num_t = np.zeros_like(tv)
    for idx in np.ndindex(tv.shape):
        d = np.zeros_like(tv)
        d[idx] = eps
        num_t[idx] = (f(x64, tv + d) - f(x64, tv - d)) / (2 * eps)
    np.testing.assert_allclose(gx, num_x, atol=1e-5)
    np.testing.assert_allclose(gt, num_t, atol=1e-4)


def test_multitag_sequence_score(data):
    x, trans, tags, lengths = data
    bitmap = np.zeros((3, 4, 3), bool)
    bitmap[:, :, 0] = True
    bitmap[np.arange(3)[:, None], np.arange(4)[None, :], tags] = True
    with tf.Graph().as_default(), tf.Session() as sess:
        v = sess.run(crf.crf_multitag_sequence_score(x, bitmap, lengths, trans))
    for b in range(3):
        n = lengths[b]
        allowed = [s for s in itertools.product(range(3), repeat=n) if all(bitmap[b, t, s[t]] for t in range(n))]
        ref = np.log(sum(np.exp(_score(x[b], s, trans, n)) for s in allowed))
        assert np.isclose(v[b], ref, atol=1e-5)


def test_namespace():
    assert tf.contrib.crf.crf_log_likelihood is crf.crf_log_likelihood
