"""Op-table rows of tensorweave/ops/spectral_ops.py (see harness.py for the row API).

References are DFTs written as explicit complex128 matrix products (O(n^2), no `np.fft`), with the
Hermitian extension of the inverse real transforms built by hand, cast to the op's dtype.
float32/complex64 results are computed by TF in single precision, hence the tolerances."""

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import COMPLEX, Row, rand

_REAL = (np.float32, np.float64)
_TOL = {"complex64": 2e-5, "float32": 2e-5, "complex128": 1e-12, "float64": 1e-12}
_C_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}
_R_OF = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}


def _dft(x, axes, inverse):
    """The DFT as an explicit matrix product per axis (independent of np.fft)."""
    out = x.astype(np.complex128)
    for ax in axes:
        n = out.shape[ax]
        k = np.arange(n)
        m = np.exp((2j if inverse else -2j) * np.pi * np.outer(k, k) / max(n, 1))
        if inverse:
            m = m / max(n, 1)
        out = np.moveaxis(np.tensordot(np.moveaxis(out, ax, -1), m, axes=([-1], [0])), -1, ax)
    return out


def _c2c_ref(rank, inverse):
    def ref(x):
        return _dft(x, range(x.ndim - rank, x.ndim), inverse).astype(x.dtype)
    return ref


def _rfft_ref(fl):
    rank = len(fl)

    def ref(x):
        lead = x.ndim - rank
        x = x[(slice(None),) * lead + tuple(slice(0, n) for n in fl)]
        pad = [(0, 0)] * lead + [(0, n - d) for n, d in zip(fl, x.shape[lead:])]
        y = _dft(np.pad(x, pad), range(lead, x.ndim), False)
        return y[..., :fl[-1] // 2 + 1].astype(_C_OF[x.dtype])
    return ref


def _irfft_ref(fl):
    rank = len(fl)

    def ref(y):
        lead = y.ndim - rank
        y = y[(slice(None),) * lead + tuple(slice(0, n) for n in fl[:-1]) + (slice(0, fl[-1] // 2 + 1),)]
        # The Hermitian extension along the last axis, then a full inverse DFT's real part.
        n = fl[-1]
        full = np.zeros(y.shape[:-1] + (n,), np.complex128)
        full[..., :y.shape[-1]] = y
        z = _dft(full, range(lead, y.ndim - 1), True)  # inverse over the other axes first
        z[..., 0] = z[..., 0].real
        if n % 2 == 0 and n // 2 < y.shape[-1]:
            z[..., n // 2] = z[..., n // 2].real
        k = np.arange(1, (n + 1) // 2)
        z[..., n - k] = np.conj(z[..., k])
        return _dft(z, [y.ndim - 1], True).real.astype(_R_OF[y.dtype])
    return ref


def _cin(*shape):
    return lambda dt, rng: [rand(rng, shape, dt)]


def _c2c_special(*shape):
    def special(dt):
        bad = np.zeros(shape, dt)
        bad.flat[0] = np.nan
        return [(np.zeros(shape[:-1] + (0,), dt),), (np.zeros((0,) + shape[1:], dt),), (bad,)]
    return special


def _via_real(fn):
    """grad_fn: a real function of float64 (re, im) parts through `fn`, for the float64 gradient check."""
    w = np.array([0.7 - 0.2j, -1.1 + 0.4j, 0.3 + 0.9j, 1.3 - 0.5j])

    def g(re, im):
        z = tf.cast(re, tf.complex128) + tf.cast(im, tf.complex128) * tf.constant(1j, tf.complex128)
        y = fn(z) * tf.constant(w[:z.shape[-1].value], tf.complex128)
        return tf.signal.irfft(y, [z.shape[-1].value])
    return g


def _re_im(*shape):
    return lambda rng: [rng.uniform(-1, 1, shape), rng.uniform(-1, 1, shape)]


_C2C = [("FFT", tf.signal.fft, 1, False, (3, 4)), ("IFFT", tf.signal.ifft, 1, True, (3, 4)),
        ("FFT2D", tf.signal.fft2d, 2, False, (2, 3, 4)), ("IFFT2D", tf.signal.ifft2d, 2, True, (2, 3, 4)),
        ("FFT3D", tf.signal.fft3d, 3, False, (2, 3, 2, 4)), ("IFFT3D", tf.signal.ifft3d, 3, True, (2, 3, 2, 4))]

ROWS = [
    Row(op, fn, _c2c_ref(rank, inv), _cin(*shape), dtypes=COMPLEX, rtol=_TOL, atol=_TOL, special=_c2c_special(*shape),
        grad=[0, 1], grad_fn=_via_real(fn), grad_inputs=_re_im(*shape), signed_zeros=False)
    for op, fn, rank, inv, shape in _C2C
]


def _real_row(op, fn, fl, in_shape, inverse, name=None):
    if inverse:
        inputs = _cin(*in_shape)
        ref = _irfft_ref(fl)
        dts = COMPLEX
        return Row(op, lambda y: fn(y, fl), ref, inputs, dtypes=dts, rtol=_TOL, atol=_TOL, special=False, name=name,
                   grad=[0, 1], grad_inputs=_re_im(*in_shape), grad_fn=_irfft_grad_fn(fn, fl))
    return Row(op, lambda x: fn(x, fl), _rfft_ref(fl), lambda dt, rng: [rand(rng, in_shape, dt)], dtypes=_REAL,
               rtol=_TOL, atol=_TOL, special=False, name=name, grad_fn=_rfft_grad_fn(fn, fl))


def _rfft_grad_fn(fn, fl):
    def g(x):
        y = fn(x, fl)
        w = np.linspace(0.3, 1.7, y.shape[-1].value) + 1j * np.linspace(-0.8, 0.6, y.shape[-1].value)
        return tf.signal.irfft(y * tf.constant(w, tf.complex128), [y.shape[-1].value * 2 - 2 or 1])
    return g


def _irfft_grad_fn(fn, fl):
    w = np.array([0.7 - 0.2j, -1.1 + 0.4j, 0.3 + 0.9j, 1.3 - 0.5j, 0.2 + 0.1j])

    def g(re, im):
        z = tf.cast(re, tf.complex128) + tf.cast(im, tf.complex128) * tf.constant(1j, tf.complex128)
        return fn(z * tf.constant(w[:z.shape[-1].value], tf.complex128), fl)
    return g


ROWS += [
    _real_row("RFFT", tf.signal.rfft, [6], (3, 6), False),
    _real_row("RFFT", tf.signal.rfft, [5], (2, 5), False, name="RFFT-odd"),
    _real_row("RFFT", tf.signal.rfft, [4], (2, 7), False, name="RFFT-crop"),
    _real_row("RFFT", tf.signal.rfft, [8], (2, 5), False, name="RFFT-pad"),
    _real_row("RFFT2D", tf.signal.rfft2d, [3, 4], (2, 3, 4), False),
    _real_row("RFFT3D", tf.signal.rfft3d, [2, 3, 4], (2, 3, 4), False),
    _real_row("IRFFT", tf.signal.irfft, [6], (3, 4), True),
    _real_row("IRFFT", tf.signal.irfft, [7], (2, 4), True, name="IRFFT-odd"),
    _real_row("IRFFT", tf.signal.irfft, [4], (2, 5), True, name="IRFFT-crop"),
    _real_row("IRFFT", tf.signal.irfft, [8], (2, 2), True, name="IRFFT-pad"),
    _real_row("IRFFT2D", tf.signal.irfft2d, [3, 4], (2, 3, 3), True),
    _real_row("IRFFT3D", tf.signal.irfft3d, [2, 3, 6], (2, 3, 4), True),
]
