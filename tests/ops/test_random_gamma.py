"""tf.random_gamma / tf.random_poisson and RandomGammaGrad: distributions, shapes, seeds, gradients
(RandomGammaGrad values recorded from TensorFlow: tests/data/make_random_tf.py)."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tensorweave.ops import random_gamma_ops

_TF = np.load(pathlib.Path(__file__).parents[1] / "data" / "random_tf.npz")


def test_gamma_grad_matches_tf():
    a, x = _TF["gamma_grad_alpha"], _TF["gamma_grad_sample"]
    with tf.Graph().as_default(), tf.Session() as s:
        got = s.run(_gamma_grad(tf.constant(a), tf.constant(x)))
        np.testing.assert_allclose(got, _TF["gamma_grad_f64"], rtol=1e-13, atol=0)
        got32 = s.run(_gamma_grad(tf.constant(a.astype(np.float32)), tf.constant(x.astype(np.float32))))
        assert got32.dtype == np.float32
        np.testing.assert_allclose(got32, _TF["gamma_grad_f32"], rtol=3e-6, atol=0)
        special = s.run(_gamma_grad(tf.constant([-1.0, 0.0, np.nan, 1.0, np.inf, 2.0], tf.float64),
                                    tf.constant([1.0, 1.0, 1.0, np.inf, 1.0, np.nan], tf.float64)))
        np.testing.assert_array_equal(special, _TF["gamma_grad_special"])
        assert np.signbit(special[3]) == np.signbit(_TF["gamma_grad_special"][3])


def _gamma_grad(alpha, sample):
    from tensorweave.framework import ops
    return ops.apply_op("RandomGammaGrad", [alpha, sample], {})


def test_gamma_grad_broadcasts_and_checks_types():
    with tf.Graph().as_default():
        assert _gamma_grad(tf.zeros([3, 1]), tf.zeros([2])).shape.as_list() == [3, 2]
        with pytest.raises(TypeError, match="float16"):
            _gamma_grad(tf.zeros([2], tf.float16), tf.zeros([2], tf.float16))


def test_gamma_shape_dtype_and_ops():
    with tf.Graph().as_default():
        g = tf.random_gamma([3, 2], [[1., 2.], [3., 4.]], beta=[1., 2.])
        assert g.shape.as_list() == [3, 2, 2, 2] and g.dtype == tf.float32
        assert "RandomGamma" in [op.type for op in g.graph.get_operations()]
        g64 = tf.random.gamma([4], 2.0, dtype=tf.float64)
        assert g64.shape.as_list() == [4] and g64.dtype == tf.float64
        n = tf.placeholder(tf.int32, [2])
        assert tf.random.gamma(n, tf.placeholder(tf.float32, [None])).shape.as_list() == [None, None, None]
        with pytest.raises(ValueError):
            tf.random.gamma([3], 1, dtype=tf.int32)


def test_gamma_statistics_and_special_alphas():
    with tf.Graph().as_default(), tf.Session() as s:
        alpha = np.array([0.3, 1.0, 4.0, 50.0], np.float32)
        beta = np.array([[2.0], [0.5]], np.float32)
        x = s.run(tf.random.gamma([20000], alpha, beta, seed=1))
        assert x.shape == (20000, 2, 4)
        mean, var = x.mean(axis=0), x.var(axis=0)
        np.testing.assert_allclose(mean, alpha / beta, rtol=0.05)
        np.testing.assert_allclose(var, alpha / beta ** 2, rtol=0.1)
        for dt in (tf.float16, tf.float64):
            y = s.run(tf.random.gamma([5000], 3.0, dtype=dt, seed=2))
            assert y.dtype == dt.as_numpy_dtype and abs(float(y.astype(np.float64).mean()) - 3.0) < 0.15
        z = s.run(tf.random.gamma([3], [0.0, -1.0], seed=1))
        # alpha 0 gives 0, clipped to the smallest normal float; a negative alpha gives NaN (as TF).
        np.testing.assert_array_equal(z[:, 0], np.full(3, np.finfo(np.float32).tiny, np.float32))
        assert np.isnan(z[:, 1]).all()


def test_gamma_seeds():
    def run(graph_seed, op_seed):
        with tf.Graph().as_default() as g:
            if graph_seed is not None:
                tf.set_random_seed(graph_seed)
            r = tf.random.gamma([5], 2.0, seed=op_seed)
            with tf.Session(graph=g) as s:
                return s.run(r), s.run(r)
    a1, a2 = run(None, 7)
    b1, _ = run(None, 7)
    np.testing.assert_array_equal(a1, b1)
    assert not np.array_equal(a1, a2)
    c1, _ = run(3, None)
    d1, _ = run(3, None)
    np.testing.assert_array_equal(c1, d1)


def test_gamma_gradient_is_implicit_reparameterization():
    with tf.Graph().as_default(), tf.Session() as s:
        a = tf.constant([0.5, 2.0, 9.0])
        b = tf.constant(2.0)
        x = tf.random.gamma([4000], a, b, seed=5)
        ga, gb = tf.gradients(tf.reduce_mean(x, axis=0), [a, b])
        types = [op.type for op in x.graph.get_operations()]
        assert "RandomGammaGrad" in types
        ga_v, gb_v = s.run([ga, gb])
        # E[x] = a / b: d/da = 1 / b; d/db (summed over a) = -sum(a) / b^2.
        np.testing.assert_allclose(ga_v, np.full(3, 0.5), rtol=0.06)
        np.testing.assert_allclose(gb_v, -11.5 / 4.0, rtol=0.06)
        # Each sample's gradient is RandomGammaGrad(alpha, sample) / beta exactly.
        raw = x.op.inputs[1].op.inputs[0]
        g_raw = tf.gradients(raw, a)[0]
        samples, g = s.run([raw, g_raw])
        want = random_gamma_ops._random_gamma_grad_kernel(np, np.array([0.5, 2.0, 9.0], np.float32), samples)
        np.testing.assert_allclose(g, want.sum(axis=0), rtol=1e-5)


def test_gamma_grad_reference_by_inverse_cdf():
    """d sample / d alpha at a fixed CDF value, by central differences of SciPy's inverse."""
    from scipy import special
    a = np.array([0.2, 0.7, 1.5, 3.0, 30.0, 300.0])
    x = np.array([0.01, 2.0, 1.0, 6.0, 25.0, 310.0])
    u = special.gammainc(a, x)
    h = 1e-5 * a
    ref = (special.gammaincinv(a + h, u) - special.gammaincinv(a - h, u)) / (2 * h)
    got = random_gamma_ops._random_gamma_grad_kernel(np, a, x)
    np.testing.assert_allclose(got, ref, rtol=1e-6)


def test_gamma_eager():
    with context.eager_mode():
        v = tf.random.gamma([10], [1.0, 2.0], seed=3).numpy()
    assert v.shape == (10, 2) and (v > 0).all()


def test_poisson():
    with tf.Graph().as_default(), tf.Session() as s:
        p = tf.random_poisson([1.0, 5.0, 40.0], [20000], seed=2)
        assert p.op.type == "RandomPoissonV2" and p.dtype == tf.float32 and p.shape.as_list() == [20000, 3]
        v = s.run(p)
        np.testing.assert_allclose(v.mean(axis=0), [1.0, 5.0, 40.0], rtol=0.03)
        np.testing.assert_allclose(v.var(axis=0), [1.0, 5.0, 40.0], rtol=0.06)
        assert (v == np.round(v)).all()
        i = tf.random.poisson(tf.constant([3, 5], tf.int64), [2, 4], seed=1, dtype=tf.int32)
        assert i.dtype == tf.int32 and i.shape.as_list() == [2, 4, 2]
        assert s.run(i).dtype == np.int32
        z = s.run(tf.random.poisson([0.0, -1.0], [5], seed=1))
        np.testing.assert_array_equal(z, np.zeros((5, 2), np.float32))
        lam = tf.placeholder(tf.float64)
        assert tf.random.poisson(lam, [3]).shape.ndims is None
        with pytest.raises(TypeError):
            tf.random.poisson([1.0], [2], dtype=tf.string)


def test_poisson_has_no_gradient():
    with tf.Graph().as_default():
        lam = tf.constant([3.0, 5.0])
        p = tf.random.poisson(lam, [2], seed=1)
        with pytest.raises(LookupError):
            tf.gradients(p, lam)
        assert tf.gradients(p, tf.constant(1.0)) == [None]

