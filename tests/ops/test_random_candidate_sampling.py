"""Candidate samplers and compute_accidental_hits: expected counts bit for bit TensorFlow's where they
are deterministic (tests/data/random_tf.npz, recorded by tests/data/make_random_tf.py), TF's
formula where they depend on the number of draws, the samples' distribution and uniqueness."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tensorweave.ops import candidate_sampling_ops as cs

_TF = np.load(pathlib.Path(__file__).parents[1] / "data" / "random_tf.npz")
TC = _TF["sampler_true_classes"]
UNIGRAMS = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
SAMPLERS = {
    "uniform": lambda tc, u, n: tf.nn.uniform_candidate_sampler(tc, 2, n, u, 10, seed=3),
    "log_uniform": lambda tc, u, n: tf.nn.log_uniform_candidate_sampler(tc, 2, n, u, 10, seed=3),
    "fixed": lambda tc, u, n: tf.nn.fixed_unigram_candidate_sampler(tc, 2, n, u, 10, unigrams=UNIGRAMS,
                                                                    distortion=0.75, seed=3),
    "fixed_reserved": lambda tc, u, n: tf.nn.fixed_unigram_candidate_sampler(tc, 2, n, u, 12, unigrams=UNIGRAMS,
                                                                             num_reserved_ids=2, seed=3),
    "fixed_shard": lambda tc, u, n: tf.nn.fixed_unigram_candidate_sampler(
        np.array([[0, 2]], np.int64), 2, n, u, 5, unigrams=UNIGRAMS, num_shards=2, shard=1, seed=3),
}


def _prob(kind, v):
    """An independent reference of each sampler's base probability (float64)."""
    v = np.asarray(v, np.float64)
    if kind == "uniform":
        return np.full(v.shape, 0.1)
    if kind == "log_uniform":
        return np.log((v + 2) / (v + 1)) / np.log(11.0)
    if kind == "fixed":
        w = np.array(UNIGRAMS) ** 0.75
        return w[v.astype(int)] / w.sum()
    if kind == "fixed_reserved":
        w = np.r_[0.0, 0.0, UNIGRAMS]
        return w[v.astype(int)] / w.sum()
    w = np.array(UNIGRAMS[1::2])  # shard 1 of 2: ids 1, 3, 5, ...
    return np.where((v >= 0) & (v < 5), w[np.clip(v.astype(int), 0, 4)], 0) / w.sum()


@pytest.mark.parametrize("kind", sorted(SAMPLERS))
def test_non_unique_expected_counts_match_tf_bit_for_bit(kind):
    with tf.Graph().as_default(), tf.Session() as s:
        tc = TC if kind != "fixed_shard" else np.array([[0, 2]], np.int64)
        for j, n in enumerate((4, 4, 4, 5)):
            sampled, true_count, sampled_count = s.run(SAMPLERS[kind](tc, False, n))
            want = _TF["sampler_%s_False_%d_true" % (kind, j)]
            assert true_count.dtype == np.float32 and sampled.dtype == np.int64
            np.testing.assert_array_equal(true_count, want)
            np.testing.assert_allclose(true_count, _prob(kind, tc) * n, rtol=1e-6)
            np.testing.assert_allclose(sampled_count, _prob(kind, sampled) * n, rtol=1e-6)


@pytest.mark.parametrize("kind", sorted(SAMPLERS))
def test_unique_expected_count_formula_matches_tf(kind):
    """TF's unique runs: its counts are 1 - (1 - p)^num_tries for one num_tries; our helper gives
    TF's float32 values exactly for that num_tries where p is the float32 of a double (the uniform
    and log-uniform samplers; the unigram weights are float32 sums in TF)."""
    exact = kind in ("uniform", "log_uniform")

    def same(a, b):
        return np.array_equal(a, b) if exact else np.allclose(a, b, rtol=1e-6, atol=0)

    tc = TC if kind != "fixed_shard" else np.array([[0, 2]], np.int64)
    for j in range(4):
        sampled = _TF["sampler_%s_True_%d_sampled" % (kind, j)]
        true_tf = _TF["sampler_%s_True_%d_true" % (kind, j)]
        sampled_tf = _TF["sampler_%s_True_%d_sampled_count" % (kind, j)]
        assert len(set(sampled.tolist())) == sampled.size
        p_s = _prob(kind, sampled).astype(np.float32)
        p_t = _prob(kind, tc).astype(np.float32)
        matches = [n for n in range(sampled.size, 400)
                   if same(cs._expected_count(p_s, sampled.size, n), sampled_tf)]
        assert matches, "no number of draws reproduces TF's counts"
        n = matches[0]
        assert same(cs._expected_count(p_t, sampled.size, n), true_tf)
        np.testing.assert_allclose(true_tf, 1 - (1 - _prob(kind, tc)) ** n if n > sampled.size
                                   else _prob(kind, tc) * n, rtol=2e-6)


@pytest.mark.parametrize("kind", sorted(SAMPLERS))
def test_unique_samples(kind):
    with tf.Graph().as_default(), tf.Session() as s:
        tc = TC if kind != "fixed_shard" else np.array([[0, 2]], np.int64)
        r = SAMPLERS[kind](tc, True, 4)
        for _ in range(5):
            sampled, true_count, sampled_count = s.run(r)
            assert len(set(sampled.tolist())) == 4
            range_max = {"fixed_reserved": 12, "fixed_shard": 5}.get(kind, 10)
            assert sampled.min() >= 0 and sampled.max() < range_max
            p = _prob(kind, sampled)
            # One number of draws n >= 4 explains every count: 4 p when no draw was rejected.
            ns = [n for n in range(4, 2000) if np.allclose(sampled_count, 1 - (1 - p) ** n if n > 4 else 4 * p,
                                                             rtol=2e-6, atol=0)]
            assert ns
            n = ns[0]
            np.testing.assert_allclose(true_count, 1 - (1 - _prob(kind, tc)) ** n if n > 4 else 4 * _prob(kind, tc),
                                       rtol=2e-6)


@pytest.mark.parametrize("kind", ["uniform", "log_uniform", "fixed", "fixed_reserved"])
def test_sample_distribution(kind):
    with tf.Graph().as_default(), tf.Session() as s:
        sampled = s.run(SAMPLERS[kind](TC, False, 40000)[0])
        range_max = 12 if kind == "fixed_reserved" else 10
        freq = np.bincount(sampled, minlength=range_max) / sampled.size
        np.testing.assert_allclose(freq, _prob(kind, np.arange(range_max)), atol=0.01)


def test_learned_unigram_counts_true_classes_between_runs():
    with tf.Graph().as_default(), tf.Session() as s:
        r = tf.nn.learned_unigram_candidate_sampler(TC, 2, 4, False, 10, seed=3)
        assert r.sampled_candidates.op.type == "LearnedUnigramCandidateSampler"
        for j in range(3):
            _, true_count, sampled_count = s.run(r)
            np.testing.assert_array_equal(true_count, _TF["learned_%d_true" % j])
        # A new session starts from uniform counts again.
        with tf.Session() as s2:
            np.testing.assert_array_equal(s2.run(r.true_expected_count), _TF["learned_0_true"])


def test_log_uniform_large_range_matches_tf():
    big = np.array([[0, 1, 100, 99999]], np.int64)
    with tf.Graph().as_default(), tf.Session() as s:
        got = s.run(tf.nn.log_uniform_candidate_sampler(big, 4, 3, False, 100000, seed=3).true_expected_count)
    np.testing.assert_array_equal(got, _TF["log_uniform_big_true"])


def test_all_candidate_sampler():
    with tf.Graph().as_default(), tf.Session() as s:
        r = tf.random.all_candidate_sampler(TC, 2, 10, True)
        assert [t.shape.as_list() for t in r] == [[10], [3, 2], [10]]
        sampled, true_count, sampled_count = s.run(r)
        np.testing.assert_array_equal(sampled, np.arange(10))
        np.testing.assert_array_equal(true_count, np.ones((3, 2), np.float32))
        np.testing.assert_array_equal(sampled_count, np.ones(10, np.float32))


def test_fixed_unigram_vocab_file(tmp_path):
    path = tmp_path / "vocab.csv"
    path.write_text("".join("w%d,%g\n" % (i, w) for i, w in enumerate(UNIGRAMS)))
    with tf.Graph().as_default(), tf.Session() as s:
        a = tf.nn.fixed_unigram_candidate_sampler(TC, 2, 4, False, 10, vocab_file=str(path), distortion=0.75)
        np.testing.assert_array_equal(s.run(a.true_expected_count), _TF["sampler_fixed_False_0_true"])
        bad = tmp_path / "bad.csv"
        bad.write_text("a,1\nb,x\n")
        with pytest.raises(tf.errors.InvalidArgumentError, match="Wrong vocabulary format at line: b,x"):
            s.run(tf.nn.fixed_unigram_candidate_sampler(TC, 2, 4, False, 2, vocab_file=str(bad)))


def test_static_shapes_and_errors():
    with tf.Graph().as_default(), tf.Session() as s:
        ph = tf.placeholder(tf.int64, [None, 2])
        r = tf.nn.log_uniform_candidate_sampler(ph, 2, 4, True, 10)
        assert [t.shape.as_list() for t in r] == [[4], [None, 2], [4]]
        assert [t.dtype for t in r] == [tf.int64, tf.float32, tf.float32]
        r2 = tf.random.uniform_candidate_sampler(tf.placeholder(tf.int64), 2, 4, True, 10)
        assert r2.true_expected_count.shape.as_list() == [None, 2]
        with pytest.raises(ValueError, match="Attr 'range_max' of 'UniformCandidateSampler' Op passed 0 less than "
                                             "minimum 1"):
            tf.nn.uniform_candidate_sampler(TC, 2, 4, True, 0)
        with pytest.raises(TypeError, match="has type int32 that does not match expected type of int64"):
            tf.nn.uniform_candidate_sampler(tf.constant([[1]]), 1, 4, True, 10)
        with pytest.raises(ValueError, match="Shape must be rank 2"):
            tf.nn.uniform_candidate_sampler(tf.constant([1], tf.int64), 1, 4, True, 10)
        with pytest.raises(tf.errors.InvalidArgumentError, match="true_classes must have num_true columns, "
                                                                 "expected: 2 was: 3"):
            s.run(tf.nn.uniform_candidate_sampler(TC, 3, 4, True, 10))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Sampler's range is too small"):
            s.run(tf.nn.uniform_candidate_sampler(TC, 2, 11, True, 10))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Must provide either vocab_file or unigrams"):
            s.run(tf.nn.fixed_unigram_candidate_sampler(TC, 2, 4, True, 10))
        with pytest.raises(tf.errors.InvalidArgumentError, match="must be equal to weights size"):
            s.run(tf.nn.fixed_unigram_candidate_sampler(TC, 2, 4, True, 9, unigrams=UNIGRAMS))


def test_compute_accidental_hits_matches_tf():
    tc = np.array([[1, 5], [2, 7], [0, 3], [5, 5]], np.int64)
    with tf.Graph().as_default(), tf.Session() as s:
        r = tf.nn.compute_accidental_hits(tc, np.array([5, 0, 1, 9, 5], np.int64), 2)
        assert [t.shape.as_list() for t in r] == [[None], [None], [None]]
        assert [t.dtype for t in r] == [tf.int32, tf.int64, tf.float32]
        got = s.run(r)
        for k, v in zip(("indices", "ids", "weights"), got):
            np.testing.assert_array_equal(v, _TF["hits_" + k])
            assert v.dtype == _TF["hits_" + k].dtype
        with pytest.raises(tf.errors.InvalidArgumentError, match="batch_size \\* num_true matrix"):
            s.run(tf.nn.compute_accidental_hits(tc, np.array([5], np.int64), 3))


def test_eager_and_no_gradient():
    with context.eager_mode():
        r = tf.nn.uniform_candidate_sampler(TC, 2, 4, True, 10, seed=1)
        assert len(set(r.sampled_candidates.numpy().tolist())) == 4
    with tf.Graph().as_default():
        x = tf.constant(TC)
        r = tf.nn.uniform_candidate_sampler(x, 2, 4, True, 10)
        assert tf.gradients(r.true_expected_count, x) == [None]
