"""tf.random.stateless_*: TF's Philox values bit for bit (tests/data/random_tf.npz, recorded by
tests/data/make_random_tf.py), static shapes, errors, eager."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tensorweave.ops import random_philox
from tests.data import random_cases

_TF = np.load(pathlib.Path(__file__).parents[1] / "data" / "random_tf.npz")
SEEDS = [(1, 2), (-5, 123456789012), (0, 0), (2 ** 31 - 1, -2 ** 31)]
_FNS = {"uniform": tf.random.stateless_uniform, "normal": tf.random.stateless_normal,
        "truncated": tf.random.stateless_truncated_normal}


def _seed(i):
    seed = SEEDS[i]
    return tf.constant(seed, tf.int64 if abs(seed[1]) >= 2 ** 31 else tf.int32)


def _same_bits(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("kind", sorted(_FNS))
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_values_match_tf_bit_for_bit(kind, dtype):
    with tf.Graph().as_default(), tf.Session() as s:
        for i in range(len(SEEDS)):
            for shape in ([1], [7], [5, 13]):
                key = "%s_%d_%s_%s" % (kind, i, dtype, "x".join(map(str, shape)))
                _same_bits(s.run(_FNS[kind](shape, _seed(i), dtype=dtype)), _TF[key])


def test_scaled_values_match_tf():
    with tf.Graph().as_default(), tf.Session() as s:
        for i in range(len(SEEDS)):
            _same_bits(s.run(tf.random.stateless_uniform([9], _seed(i), minval=-2.0, maxval=3.0)),
                       _TF["uniform_scaled_%d" % i])
            _same_bits(s.run(tf.random.stateless_normal([9], _seed(i), mean=1.5, stddev=0.5, dtype=tf.float64)),
                       _TF["normal_scaled_%d" % i])


def test_int_values_match_tf():
    with tf.Graph().as_default(), tf.Session() as s:
        for i in range(len(SEEDS)):
            for dt, lo, hi in ((tf.int32, -5, 17), (tf.int64, -3, 2 ** 40), (tf.int32, -2 ** 31, 2 ** 31 - 1)):
                r = tf.random.stateless_uniform([21], _seed(i), minval=lo, maxval=hi, dtype=dt)
                assert r.op.type == "StatelessRandomUniformInt"
                _same_bits(s.run(r), _TF["int_%d_%s_%d_%d" % (i, dt.name, lo, hi)])


def test_op_types_and_python_seed():
    with tf.Graph().as_default():
        assert tf.random.stateless_normal([2], [1, 2]).op.inputs[0].op.inputs[0].op.type == "StatelessRandomNormal"
        t = tf.random.stateless_truncated_normal([2], [1, 2])
        assert "StatelessTruncatedNormal" in [op.type for op in t.graph.get_operations()]
        u = tf.random.stateless_uniform([3], [1, 2])
        assert "StatelessRandomUniform" in [op.type for op in u.graph.get_operations()]
        with tf.Session() as s:
            # A Python seed with a value beyond int32 is an int64 tensor, as TF converts it.
            _same_bits(s.run(tf.random.stateless_uniform([1], [-5, 123456789012])), _TF["uniform_1_float32_1"])


def test_values_do_not_change_between_runs_and_are_pure():
    with tf.Graph().as_default(), tf.Session() as s:
        r = tf.random.stateless_normal([4, 3], [7, 9])
        a, b = s.run(r), s.run(r)
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(s.run(tf.random.stateless_normal([4, 3], [7, 9])), a)
        assert not np.array_equal(s.run(tf.random.stateless_normal([4, 3], [7, 10])), a)


def test_eager_matches_graph():
    with context.eager_mode():
        e = tf.random.stateless_truncated_normal([5, 13], tf.constant([1, 2]), dtype=tf.float64).numpy()
    _same_bits(e, _TF["truncated_0_float64_5x13"])


def test_static_shapes():
    with tf.Graph().as_default():
        assert tf.random.stateless_uniform([2, 3], [1, 2]).shape.as_list() == [2, 3]
        n = tf.placeholder(tf.int32, [])
        assert tf.random.stateless_normal([n, 3], [1, 2]).shape.as_list() == [None, 3]
        v = tf.placeholder(tf.int32, [3])
        assert tf.random.stateless_normal(v, [1, 2]).shape.as_list() == [None, None, None]
        u = tf.placeholder(tf.int32)
        r = tf.random.stateless_truncated_normal(u, [1, 2])
        assert r.shape.ndims is None
        seed = tf.placeholder(tf.int64, [None])
        r2 = tf.random.stateless_uniform([4], seed, minval=0, maxval=10, dtype=tf.int64)
        assert r2.shape.as_list() == [4] and r2.dtype == tf.int64
        with tf.Session() as s:
            assert s.run(r, {u: [2, 2]}).shape == (2, 2)
            got = s.run(r2, {seed: [-5, 123456789012]})
            assert got.shape == (4,) and got.min() >= 0 and got.max() < 10


def test_static_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimension must be 2 but is 3"):
            tf.random.stateless_uniform([2], [1, 2, 3])
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
            tf.random.stateless_uniform([2], [[1, 2]])
        with pytest.raises(TypeError, match="'seed' has DataType float32"):
            tf.random.stateless_uniform([2], [1.0, 2.0])
        with pytest.raises(ValueError, match="Must specify maxval for integer dtype"):
            tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32)
        with pytest.raises(ValueError, match="Invalid dtype"):
            tf.random.stateless_uniform([2], [1, 2], dtype=tf.uint8)
        with pytest.raises(TypeError, match="'dtype' has DataType int32"):
            tf.random.stateless_normal([2], [1, 2], dtype=tf.int32)
        with pytest.raises(ValueError, match="Shape must be rank 0"):
            tf.random.stateless_uniform([2], [1, 2], minval=[1, 2], maxval=5, dtype=tf.int32)


def test_runtime_errors():
    with tf.Graph().as_default(), tf.Session() as s:
        seed = tf.placeholder(tf.int32, [None])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\], not \[3\]"):
            s.run(tf.random.stateless_uniform([2], seed), {seed: [1, 2, 3]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval: 5 >= 5"):
            s.run(tf.random.stateless_uniform([2], [1, 2], minval=5, maxval=5, dtype=tf.int32))
        shape = tf.placeholder(tf.int32, [1])
        with pytest.raises(tf.errors.InvalidArgumentError, match="must be >= 0"):
            s.run(tf.random.stateless_normal(shape, [1, 2]), {shape: [-1]})


def test_no_gradient():
    with tf.Graph().as_default():
        m = tf.constant(1.0)
        r = tf.random.stateless_normal([3], [1, 2], mean=m)
        rnd = r.op.inputs[0].op.inputs[0]
        assert tf.gradients(rnd, m) == [None]


def test_empty_and_large_counts():
    with tf.Graph().as_default(), tf.Session() as s:
        assert s.run(tf.random.stateless_normal([0, 3], [1, 2])).shape == (0, 3)
        big = s.run(tf.random.stateless_truncated_normal([20001], [3, 4], dtype=tf.float64))
        assert np.all(np.abs(big) < 2) and abs(big.mean()) < 0.03


def test_philox_known_answer():
    # The Random123 known-answer test of Philox4x32-10: counter 0, key 0.
    got = random_philox.blocks((0, 0), (0, 0, 0, 0), 1)[0]
    np.testing.assert_array_equal(got, np.array([0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8], np.uint32))
    # Counter carries across the 128 bits.
    c = random_philox.skip((0xFFFFFFFF, 0xFFFFFFFF, 0, 0), 1)
    assert c == (0, 0, 1, 0)
    np.testing.assert_array_equal(random_philox.blocks((1, 2), (0xFFFFFFFF, 0xFFFFFFFF, 0, 0), 2)[1],
                                  random_philox.blocks((1, 2), c, 1)[0])


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint64"])
def test_full_range_ints_match_tf(dtype):
    with tf.Graph().as_default(), tf.Session() as s:
        for i in range(len(SEEDS)):
            r = tf.random.stateless_uniform([3, 7], _seed(i), minval=None, maxval=None, dtype=dtype)
            assert r.op.type == "StatelessRandomUniformFullInt" and r.shape.as_list() == [3, 7]
            _same_bits(s.run(r), _TF["full_int_%d_%s" % (i, dtype)])
        with pytest.raises(ValueError, match="Invalid dtype"):
            tf.random.stateless_uniform([2], [1, 2], minval=0, maxval=5, dtype=tf.uint32)


def test_split_and_fold_in_match_tf():
    with tf.Graph().as_default(), tf.Session() as s:
        for i in range(len(SEEDS)):
            split = tf.random.split(_seed(i), 3)
            assert split.shape.as_list() == [3, 2]
            _same_bits(s.run(split), _TF["split_%d" % i])
            _same_bits(s.run(tf.random.fold_in(_seed(i), 7)), _TF["fold_in_%d" % i])
            folded = tf.random.experimental.stateless_fold_in(_seed(i), tf.constant(-9, tf.int64))
            _same_bits(s.run(folded), _TF["fold_in64_%d" % i])
        np.testing.assert_array_equal(s.run(tf.random.experimental.stateless_split([1, 2], 3)), _TF["split_0"])
        with pytest.raises(NotImplementedError, match="alg='threefry'"):
            tf.random.split([1, 2], alg="threefry")


def test_stateless_dropout_matches_tf():
    x = _TF["dropout_x"]
    with tf.Graph().as_default(), tf.Session() as s:
        d = tf.nn.experimental.stateless_dropout(x, 0.4, seed=[1, 2])
        assert d.shape.as_list() == [3, 4]
        _same_bits(s.run(d), _TF["dropout_04"])
        _same_bits(s.run(tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2], noise_shape=[1, 4])),
                   _TF["dropout_noise"])
        _same_bits(s.run(tf.nn.experimental.stateless_dropout(x, tf.constant(0.3), seed=[1, 2])),
                   _TF["dropout_tensor"])
        _same_bits(s.run(tf.nn.experimental.stateless_dropout(x.astype(np.float64), 0.25, seed=[5, 6])),
                   _TF["dropout_f64"])
        g = tf.nn.experimental.general_dropout(
            x, 0.4, uniform_sampler=lambda shape, dtype: tf.random.stateless_uniform(shape, [3, 4], dtype=dtype))
        _same_bits(s.run(g), _TF["dropout_general"])
        xt = tf.constant(x)
        assert tf.nn.experimental.stateless_dropout(xt, 0.0, seed=[1, 2]) is xt
        with pytest.raises(ValueError, match=r"`rate` must be a scalar tensor or a float in the range \[0, 1\)"):
            tf.nn.experimental.stateless_dropout(x, 1.0, seed=[1, 2])
        with pytest.raises(ValueError, match="must be a floating point tensor"):
            tf.nn.experimental.stateless_dropout(np.ones(3, np.int32), 0.5, seed=[1, 2])
        # The gradient flows to x through the kept elements.
        gx = tf.gradients(tf.reduce_sum(tf.nn.experimental.stateless_dropout(xt, 0.4, seed=[1, 2])), xt)[0]
        np.testing.assert_allclose(s.run(gx), np.where(_TF["dropout_04"] != 0, 1 / 0.6, 0.0).astype(np.float32),
                                   rtol=1e-6)


POISSON_CASES = random_cases.poisson_cases(tf)


@pytest.mark.parametrize("case", sorted(POISSON_CASES))
def test_stateless_poisson_matches_tf(case):
    shape, seed, lam, dt = POISSON_CASES[case]
    with tf.Graph().as_default(), tf.Session() as s:
        r = tf.random.stateless_poisson(shape, seed, lam, dtype=dt)
        assert r.op.type == "StatelessRandomPoisson" and r.shape.as_list() == shape and r.dtype == dt
        _same_bits(s.run(r), _TF["poisson_" + case])


def test_stateless_poisson_statistics_and_errors():
    with tf.Graph().as_default(), tf.Session() as s:
        v = s.run(tf.random.stateless_poisson([20000, 3], [4, 2], [0.7, 12.0, 300.0], dtype=tf.float64))
        np.testing.assert_allclose(v.mean(axis=0), [0.7, 12.0, 300.0], rtol=0.02)
        np.testing.assert_allclose(v.var(axis=0), [0.7, 12.0, 300.0], rtol=0.05)
        assert tf.random.stateless_poisson([3], [1, 2], 2.0).dtype == tf.int32
        with pytest.raises(tf.errors.InvalidArgumentError, match="must end with broadcasted shape"):
            s.run(tf.random.stateless_poisson([3, 2], [1, 2], [1.0, 2.0, 3.0]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="no sample within the output type's range"):
            s.run(tf.random.stateless_poisson([2], [1, 2], 1e6, dtype=tf.float16))
        assert np.isnan(s.run(tf.random.stateless_poisson([2], [1, 2], np.nan, dtype=tf.float32))).all()
        with pytest.raises(TypeError):
            tf.random.stateless_poisson([2], [1, 2], 1.0, dtype=tf.string)


GAMMA_CASES = random_cases.gamma_cases(tf)


@pytest.mark.parametrize("case", sorted(GAMMA_CASES))
def test_stateless_gamma_matches_tf(case):
    shape, seed, alpha, beta, dt = GAMMA_CASES[case]
    with tf.Graph().as_default(), tf.Session() as s:
        r = tf.random.stateless_gamma(shape, seed, alpha, beta, dtype=dt)
        assert "StatelessRandomGammaV2" in [op.type for op in r.graph.get_operations()]
        assert r.shape.as_list() == shape and r.dtype == dt
        _same_bits(s.run(r), _TF["gamma_" + case])


def test_stateless_gamma_gradient_statistics_and_errors():
    with tf.Graph().as_default(), tf.Session() as s:
        a = tf.constant([0.5, 2.0], tf.float64)
        g = tf.random.stateless_gamma([3, 2], [4, 5], a, dtype=tf.float64)
        np.testing.assert_allclose(s.run(tf.gradients(tf.reduce_sum(g), a)[0]), _TF["gamma_grad"], rtol=1e-12)
        v = s.run(tf.random.stateless_gamma([20000, 3], [7, 7], [0.4, 1.0, 6.0], dtype=tf.float64))
        np.testing.assert_allclose(v.mean(axis=0), [0.4, 1.0, 6.0], rtol=0.03)
        np.testing.assert_allclose(v.var(axis=0), [0.4, 1.0, 6.0], rtol=0.06)
        with pytest.raises(tf.errors.InvalidArgumentError, match="must end with broadcasted shape"):
            s.run(tf.random.stateless_gamma([3, 2], [1, 2], [1.0, 2.0, 3.0]))
        with pytest.raises(ValueError):
            tf.random.stateless_gamma([3], [1, 2], 1.0, dtype=tf.int32)


BINOMIAL_CASES = random_cases.binomial_cases(tf)


@pytest.mark.parametrize("case", sorted(BINOMIAL_CASES))
def test_stateless_binomial_matches_tf(case):
    shape, seed, counts, probs, dt = BINOMIAL_CASES[case]
    with tf.Graph().as_default(), tf.Session() as s:
        r = tf.random.stateless_binomial(shape, seed, counts, probs, output_dtype=dt)
        assert r.op.type == "StatelessRandomBinomial" and r.shape.as_list() == shape and r.dtype == dt
        got, want = s.run(r), _TF["binomial_" + case]
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_stateless_binomial_statistics_and_errors():
    with tf.Graph().as_default(), tf.Session() as s:
        v = s.run(tf.random.stateless_binomial([20000, 3], [2, 3], [8.0, 60.0, 200.0], [0.3, 0.5, 0.9],
                                               output_dtype=tf.float64))
        np.testing.assert_allclose(v.mean(axis=0), [2.4, 30.0, 180.0], rtol=0.02)
        np.testing.assert_allclose(v.var(axis=0), [1.68, 15.0, 18.0], rtol=0.06)
        with pytest.raises(tf.errors.InvalidArgumentError, match="must end with broadcasted shape"):
            s.run(tf.random.stateless_binomial([3, 2], [1, 2], [1.0, 2.0, 3.0], 0.5))
        with pytest.raises(TypeError):
            tf.random.stateless_binomial([2], [1, 2], tf.constant(3), tf.constant(0.5))


def test_stateless_shuffle_matches_tf():
    with tf.Graph().as_default(), tf.Session() as s:
        r = tf.random.experimental.stateless_shuffle(tf.range(10), [1, 2])
        types = [op.type for op in r.graph.get_operations()]
        assert "StatelessRandomGetKeyCounter" in types and r.op.type == "StatelessShuffle"
        _same_bits(s.run(r), _TF["shuffle_perm10"])
        _same_bits(s.run(tf.random.experimental.stateless_shuffle(np.arange(12.0).reshape(6, 2),
                                                                  tf.constant([-5, 123456789012], tf.int64))),
                   _TF["shuffle_rows"])
        _same_bits(s.run(tf.random.experimental.stateless_shuffle(np.arange(1000), [3, 4])), _TF["shuffle_1000"])
        assert s.run(tf.random.experimental.stateless_shuffle(np.array(5.0), [1, 2])) == 5.0
        strs = s.run(tf.random.experimental.stateless_shuffle(tf.constant(["a", "b", "c"]), [1, 2]))
        assert strs.tolist() == [b"b", b"c", b"a"]  # TF's order
        x = tf.constant([1.0, 2.0, 3.0])
        with pytest.raises(LookupError):
            tf.gradients(tf.random.experimental.stateless_shuffle(x, [1, 2]), x)
        with pytest.raises(NotImplementedError, match="threefry"):
            tf.random.experimental.stateless_shuffle(x, [1, 2], alg="threefry")
        with pytest.raises(ValueError, match="unsupported value bogus"):
            tf.random.experimental.stateless_shuffle(x, [1, 2], alg="bogus")


def test_get_key_counter_matches_tf():
    from tensorweave.framework import ops
    with tf.Graph().as_default(), tf.Session() as s:
        for i, seed in enumerate(([1, 2], [-5, 123456789012])):
            key, counter = ops.apply_op("StatelessRandomGetKeyCounter", [tf.constant(seed, tf.int64)], {})
            assert key.shape.as_list() == [1] and counter.shape.as_list() == [2] and key.dtype == tf.uint64
            k, c = s.run([key, counter])
            _same_bits(k, _TF["key_%d" % i])
            _same_bits(c, _TF["counter_%d" % i])
