"""N-D FFTs: tf.fftnd/ifftnd/rfftnd/irfftnd (raw ops FFTND, IFFTND, RFFTND, IRFFTND) and the
tf.signal wrappers (default axes and lengths, norm). TensorFlow 2.21 has GPU kernels only for these ops,
so the references are explicit DFT matrix products (no np.fft); signatures, defaults and build-time
behaviour follow TF 2.21's Python functions."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tests.ops.op_table.rows_misc_io import _dft, _fit, _irfft

_RNG = np.random.RandomState(0)
_X = (_RNG.randn(2, 3, 4) + 1j * _RNG.randn(2, 3, 4))
_CASES = [([3, 4], [1, 2]), ([2, 2], [1, 2]), ([5, 6], [0, 2]), ([3, 5], [-1, 0]), ([4], [1]), ([2, 3, 5], [0, 1, 2])]


@pytest.mark.parametrize("fl,axes", _CASES)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_raw_ops_values(fl, axes, dtype):
    x = _X.astype(dtype)
    ax = [a % 3 for a in axes]
    tol = 2e-5 if dtype == np.complex64 else 1e-12
    real = np.float32 if dtype == np.complex64 else np.float64
    with tf.Graph().as_default():
        outs = [tf.fftnd(x, fl, axes), tf.ifftnd(x, fl, axes),
                tf.rfftnd(x.real, fl, axes, Tcomplex=tf.as_dtype(dtype)),
                tf.irfftnd(x, fl, axes, Treal=tf.as_dtype(real))]
        with tf.Session() as sess:
            got = sess.run(outs)
    half = _dft(_fit(x.real, fl, ax), ax)
    half = np.take(half, np.arange(fl[-1] // 2 + 1), axis=ax[-1])
    want = [_dft(_fit(x, fl, ax), ax), _dft(_fit(x, fl, ax), ax, inverse=True), half, _irfft(x, fl, ax)]
    for t, g, w in zip(outs, got, want):
        assert t.shape.as_list() == list(g.shape) == list(w.shape)
        assert g.dtype == t.dtype.as_numpy_dtype
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 10)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_signal_wrappers_defaults_and_norm(norm):
    x = _X.astype(np.complex64)
    n_all, n12 = 24.0, 12.0
    scale = {"backward": (1, 1), None: (1, 1), "ortho": (np.sqrt, np.sqrt), "forward": (lambda n: n, lambda n: n)}
    fwd = 1.0 if scale[norm][0] == 1 else 1.0 / scale[norm][0](n_all)
    inv12 = 1.0 if scale[norm][1] == 1 else scale[norm][1](n12)
    with tf.Graph().as_default():
        a = tf.signal.fftnd(x, norm=norm)
        b = tf.signal.ifftnd(x, axes=[2, 1], norm=norm)
        c = tf.signal.rfftnd(x.real.astype(np.float32), fft_length=[4, 6], axes=[1, 2], norm=norm)
        d = tf.signal.irfftnd(x[:, :, :3], axes=[1, 2], norm=norm)
        with tf.Session() as sess:
            ga, gb, gc, gd = sess.run([a, b, c, d])
    np.testing.assert_allclose(ga, _dft(x, [0, 1, 2]) * fwd, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(gb, _dft(x, [2, 1], inverse=True) * inv12, rtol=2e-5, atol=2e-5)
    n46 = 24.0
    cf = 1.0 if scale[norm][0] == 1 else 1.0 / scale[norm][0](n46)
    np.testing.assert_allclose(gc, _dft(_fit(x.real, [4, 6], [1, 2]), [1, 2])[..., :4] * cf, rtol=2e-5, atol=2e-5)
    # irfftnd's default length on the last axis is 2 * (3 - 1) = 4.
    assert gd.shape == (2, 3, 4) and gd.dtype == np.float32
    inv = 1.0 if scale[norm][1] == 1 else scale[norm][1](12.0)
    np.testing.assert_allclose(gd, _irfft(x[:, :, :3], [3, 4], [1, 2]) * inv, rtol=2e-5, atol=2e-5)


def test_signal_wrapper_types():
    with tf.Graph().as_default():
        assert tf.signal.fftnd(np.zeros((2, 3), np.float32)).dtype == tf.complex64
        # As TF 2.21: NumPy values convert with the preferred dtype (float32 / complex64); tensors keep theirs.
        assert tf.signal.rfftnd(np.zeros((2, 3), np.float64)).dtype == tf.complex64
        assert tf.signal.fftnd(np.zeros((2, 3), np.complex128)).dtype == tf.complex64
        assert tf.signal.fftnd(np.zeros((2, 3), np.int32)).dtype == tf.complex64
        assert tf.signal.rfftnd(tf.constant(np.zeros((2, 3)))).dtype == tf.complex128
        assert tf.signal.irfftnd(tf.constant(np.zeros((2, 3), np.complex128))).dtype == tf.float64
        with pytest.raises(ValueError, match="RFFT requires tf.float32 or tf.float64 inputs"):
            tf.signal.rfftnd(tf.constant(np.zeros((2, 3), np.complex64)))
        with pytest.raises(ValueError, match="IRFFT requires tf.complex64 or tf.complex128 inputs"):
            tf.signal.irfftnd(tf.constant(np.zeros((2, 3), np.float32)))
        with pytest.raises(ValueError, match="Invalid norm value"):
            tf.signal.fftnd(np.zeros((2, 3), np.complex64), norm="bad")
        with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
            tf.signal.fftnd(np.complex64(1))


def test_static_shapes():
    with tf.Graph().as_default():
        ph = tf.placeholder(tf.complex64, [None, 3, None])
        assert tf.fftnd(ph, [3, 4], [1, 2]).shape.as_list() == [None, 3, 4]
        assert tf.fftnd(ph, tf.placeholder(tf.int32, [2]), [1, 2]).shape.as_list() == [None, None, None]
        assert tf.fftnd(ph, [3, 4], tf.placeholder(tf.int32, [2])).shape.as_list() == [None, None, None]
        assert tf.fftnd(tf.placeholder(tf.complex64), [3, 4], [1, 2]).shape.ndims is None
        assert tf.rfftnd(tf.placeholder(tf.float32, [2, None, 5]), [4, 6], [1, 2]).shape.as_list() == [2, 4, 4]
        assert tf.irfftnd(tf.placeholder(tf.complex64, [2, 3, 5]), [4, 6], [0, 1]).shape.as_list() == [4, 6, 5]
        # The wrappers' default lengths keep the statically known sizes.
        assert tf.signal.fftnd(ph, axes=[1, 2]).shape.as_list() == [None, 3, None]
        assert tf.signal.irfftnd(ph, axes=[0, 1]).shape.as_list() == [None, 4, None]
        assert tf.signal.rfftnd(tf.placeholder(tf.float32, [None, 6]), axes=[0, 1]).shape.as_list() == [None, 4]
        with tf.Session() as sess:
            got = sess.run([tf.signal.fftnd(ph, axes=[1, 2]), tf.signal.irfftnd(ph, axes=[0, 1])],
                           {ph: np.ones((2, 3, 4), np.complex64)})
            assert [g.shape for g in got] == [(2, 3, 4), (2, 4, 4)]
        x = np.zeros((2, 3, 4), np.complex64)
        with pytest.raises(ValueError, match="fft_length and axes must have the same length, got 3 and 2"):
            tf.fftnd(x, [3, 4, 5], [1, 2])
        with pytest.raises(ValueError, match="out of range for a tensor of rank 3"):
            tf.fftnd(x, [3, 4], [1, 5])
        with pytest.raises(ValueError, match="axes must be distinct"):
            tf.fftnd(x, [3, 4], [1, -2])
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
            tf.fftnd(x, [[3, 4]], [1, 2])
        with pytest.raises(TypeError, match="'Tcomplex' has DataType float32"):
            tf.fftnd(x.real, [3, 4], [1, 2])
        with pytest.raises(TypeError, match="'Tcomplex' has DataType float32"):
            tf.rfftnd(x.real, [3, 4], [1, 2], Tcomplex=tf.float32)


@pytest.mark.parametrize("fl,axes,message", [
    ([3, 4, 5], [1, 2], "FFTND: fft_length and axes must have the same length, got 3 and 2"),
    ([3], [4], "FFTND: axes\\[0\\] = 4 is out of range for a tensor of rank 3"),
    ([3, 3], [1, 1], "FFTND: axes must be distinct, got \\[1, 1\\]"),
    ([-1], [0], "FFTND: fft_length\\[0\\] must >= 0, but got: -1"),
    ([], [], "FFTND: axes must not be empty")])
def test_runtime_errors(fl, axes, message):
    with tf.Graph().as_default():
        f, a = tf.placeholder(tf.int32), tf.placeholder(tf.int32)
        y = tf.fftnd(np.zeros((2, 3, 4), np.complex64), f, a)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match=message):
                sess.run(y, {f: fl, a: axes})


def test_empty_and_zero_lengths():
    with tf.Graph().as_default():
        z = np.zeros((2, 0, 3), np.complex64)
        outs = [tf.fftnd(z, [2, 3], [1, 2]), tf.fftnd(z, [0, 3], [1, 2]), tf.rfftnd(z.real, [2, 3], [1, 2]),
                tf.irfftnd(z, [2, 3], [1, 2]), tf.signal.fftnd(z, axes=[1, 2])]
        with tf.Session() as sess:
            got = sess.run(outs)
    assert [g.shape for g in got] == [(2, 2, 3), (2, 0, 3), (2, 2, 2), (2, 2, 3), (2, 0, 3)]
    assert all(not np.any(g) for g in got)


def _complex_of(t, w):
    return tf.complex(t, t * w)


@pytest.mark.parametrize("build", [
    lambda t: tf.real(tf.fftnd(_complex_of(t, 0.3), [3, 3], [0, 2])) * 1.1 + tf.imag(tf.fftnd(_complex_of(t, 0.3),
                                                                                                [3, 3], [0, 2])),
    lambda t: tf.imag(tf.ifftnd(_complex_of(t, -1.0), [1, 5], [0, 2])),
    lambda t: tf.rfftnd(t, [3, 5], [2, 1], Tcomplex=tf.complex128) * tf.constant(1.3 - 0.7j, tf.complex128),
    lambda t: tf.rfftnd(t, [2, 4], [0, 1], Tcomplex=tf.complex128) * tf.constant(0.5 - 0.25j, tf.complex128),
    lambda t: tf.irfftnd(_complex_of(t, 0.5), [4, 6], [1, 0], Treal=tf.float64),
    lambda t: tf.irfftnd(_complex_of(t, -0.7), [2, 5], [0, 2], Treal=tf.float64),
    lambda t: tf.signal.irfftnd(tf.signal.rfftnd(t, norm="ortho") * tf.constant(1.5 + 0.5j, tf.complex128),
                                norm="ortho"),
])
def test_gradients_numerically(build):
    x = np.random.RandomState(3).randn(2, 3, 4)
    with tf.Graph().as_default():
        xt = tf.constant(x)
        y = build(xt)
        if y.dtype.is_complex:
            y = tf.real(y) + 0.3 * tf.imag(y)
        with tf.Session():
            err = tf.test.compute_gradient_error(xt, [2, 3, 4], y, y.shape.as_list())
    assert err < 1e-8


def test_eager_matches_graph():
    x = _X.astype(np.complex64)
    with tf.Graph().as_default():
        y = tf.signal.fftnd(x, axes=[0, 2], norm="ortho")
        r = tf.irfftnd(x, [3, 6], [1, 2])
        with tf.Session() as sess:
            gy, gr = sess.run([y, r])
    with context.eager_mode():
        np.testing.assert_array_equal(tf.signal.fftnd(x, axes=[0, 2], norm="ortho").numpy(), gy)
        np.testing.assert_array_equal(tf.irfftnd(x, [3, 6], [1, 2]).numpy(), gr)
