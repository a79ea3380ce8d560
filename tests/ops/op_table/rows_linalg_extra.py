"""Op-table rows of tensorweave/ops/linalg_matfn_ops.py (Lu, MatrixSquareRoot, MatrixLogarithm),
linalg_tridiag_ops.py (TridiagonalSolve, TridiagonalMatMul), linalg_complex_ops.py (Complex, Real, Imag,
Angle) and math_bessel_ops.py (the tf.math.special functions); see harness.py for the row API.

References: SciPy's LAPACK LU and its `sqrtm`/`logm` (a complex Schur method, not the kernels' real one),
dense NumPy solves of the tridiagonal systems, explicit Python loops over complex elements, and for the
special functions other SciPy routines than the kernels' (AMOS `jv`/`yv`/`kv`/`kve` for the Cephes
`j0`... the kernels call, `erfi` for Dawson's integral) or long-double power series (Ei, Fresnel,
dilogarithm). TF's values at NaN, the infinities, zero and outside the domains (recorded from TF, see
tests/data/make_linalg_special_tf.py) are written out here."""

import math

import numpy as np
import scipy.linalg
import scipy.special

import tensorweave as tf
from tests.ops.op_table.harness import COMPLEX, FLOATS, Row, rand
from tests.ops.op_table.rows_linalg import NO_HALF, _per_matrix

LD = np.longdouble
F32_64 = (np.float32, np.float64)
TRIDIAG_TYPES = (np.float32, np.float64) + COMPLEX
LOOSE = {np.float32: 2e-5, np.complex64: 2e-5}


def _empties(dt):
    return [[np.zeros((0, 0), dt)], [np.zeros((2, 0, 0), dt)]]


# ---- Lu / MatrixSquareRoot / MatrixLogarithm -------------------------------------------------------
def _lu_ref(a):
    def one(m):
        p, low, up = scipy.linalg.lu(m)
        return np.tril(low, -1) + up, np.argmax(p, axis=0)
    a = np.asarray(a)
    if a.shape[-1] == 0:
        return [a.copy(), np.zeros(a.shape[:-1], np.int32)]
    packed = _per_matrix(lambda m: one(m)[0], a)
    perm = _per_matrix(lambda m: one(m)[1], a, out_dtype=np.int32)
    return [packed, perm]


def _general(shape):
    def inputs(dt, rng):
        return (rand(rng, shape, dt),)
    return inputs


def _spd(shape):
    def inputs(dt, rng):
        a = rand(rng, shape, np.complex128 if np.dtype(dt).kind == "c" else np.float64, -1.0, 1.0)
        m = a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])
        return (m.astype(dt),)
    return inputs


def _sqrtm_ref(a):
    return _per_matrix(lambda m: scipy.linalg.sqrtm(m).astype(m.dtype), a)


def _logm_ref(a):
    if np.asarray(a).size == 0:
        return np.asarray(a).copy()
    return _per_matrix(scipy.linalg.logm, a)


def _near_identity(shape):
    def inputs(dt, rng):
        return ((rand(rng, shape, dt, -0.5, 0.5) + 2 * np.eye(shape[-1])).astype(dt),)
    return inputs


# ---- tridiagonal ---------------------------------------------------------------------------------
def _dense_tridiag(d):
    n = d.shape[-1]
    out = np.zeros(d.shape[:-2] + (n, n), d.dtype)
    for idx in np.ndindex(*d.shape[:-2]):
        for i in range(n):
            out[idx + (i, i)] = d[idx + (1, i)]
            if i + 1 < n:
                out[idx + (i, i + 1)] = d[idx + (0, i)]
                out[idx + (i + 1, i)] = d[idx + (2, i + 1)]
    return out


def _tri_inputs(shape, k, dominant=True):
    def inputs(dt, rng):
        d = rand(rng, shape[:-2] + (3, shape[-1]), dt)
        if dominant:
            d[..., 1, :] += 4
        return d.astype(dt), rand(rng, shape[:-2] + (shape[-1], k), dt)
    return inputs


def _tri_solve_ref(d, r):
    if np.asarray(r).size == 0:
        return np.zeros(np.asarray(r).shape, np.asarray(d).dtype)
    return _per_matrix(lambda m, b: np.linalg.solve(m, b), _dense_tridiag(d), r).astype(d.dtype)


def _tri_matmul_ref(d, r):
    dense = _dense_tridiag(d).astype(np.complex128 if d.dtype.kind == "c" else np.float64)
    return (dense @ r).astype(d.dtype)


def _tri_special(dt):
    return [[np.zeros((3, 0), dt), np.zeros((0, 2), dt)], [np.zeros((2, 3, 4), dt), np.zeros((2, 4, 0), dt)]]


# ---- complex parts -------------------------------------------------------------------------------
def _complex_special(dt):
    vals = [complex(a, b) for a in (np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0) for b in (np.inf, 0.0, -0.0, -2.0)]
    return [[np.array(vals, dt)], [np.zeros(0, dt)]]


def _parts_ref(part):
    def ref(z):
        z = np.asarray(z)
        real = np.float32 if z.dtype == np.complex64 else np.float64
        vals = [part(complex(v)) for v in z.ravel()]
        return np.array(vals, real).reshape(z.shape)
    return ref


def _complex_ref(x, y):
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    out = np.zeros(x.shape, np.complex64 if x.dtype == np.float32 else np.complex128)
    for idx in np.ndindex(*x.shape):
        out[idx] = complex(float(x[idx]), float(y[idx]))
    return out


def _one_complex(dt, rng):
    return (rand(rng, (3, 4), dt),)


# ---- tf.math.special -----------------------------------------------------------------------------
def _conventions(f, table, neg=None, half_zero=None):
    """A reference: `f` (float64 -> float64, vectorized) on the finite non-special inputs; `table` maps
    "nan", "inf", "-inf", "0", "-0" to TF's values there; `neg` is TF's value for x < 0 (None: `f`);
    `half_zero` TF's value at +-0 in float16/float32 (None: the table's)."""
    def ref(x):
        x = np.asarray(x)
        x64 = x.astype(np.float64)
        out = np.empty(x.shape, np.float64)
        for idx in np.ndindex(*x.shape):
            v = x64[idx]
            if np.isnan(v):
                key = "nan"
            elif np.isinf(v):
                key = "inf" if v > 0 else "-inf"
            elif v == 0:
                key = "-0" if np.signbit(v) else "0"
            else:
                key = None
            if key is not None:
                out[idx] = table[key]
                if key in ("0", "-0") and half_zero is not None and x.dtype != np.float64:
                    out[idx] = half_zero
            elif neg is not None and v < 0:
                out[idx] = neg
            else:
                with np.errstate(all="ignore"):
                    out[idx] = float(f(v))
        return out.astype(x.dtype)
    return ref


_NAN = float("nan")
_INF = float("inf")


def _ei_series(x):
    """Ei(x) = gamma + ln x + sum x^k / (k k!), x > 0, in long double."""
    x = LD(x)
    total, term = LD(0), LD(1)
    for k in range(1, 400):
        term = term * x / k
        total += term / k
        if abs(term / k) < abs(total) * LD(1e-22):
            break
    return float(LD(np.euler_gamma) + np.log(x) + total)


def _fresnel_series(x, sine):
    """C(x) or S(x) by their power series in long double (|x| <= 3)."""
    x = LD(x)
    h = LD(math.pi) / 2
    total = LD(0)
    for n in range(200):
        if sine:
            term = (-1) ** n * h ** (2 * n + 1) * x ** (4 * n + 3) / (LD(math.factorial(2 * n + 1)) * (4 * n + 3))
        else:
            term = (-1) ** n * h ** (2 * n) * x ** (4 * n + 1) / (LD(math.factorial(2 * n)) * (4 * n + 1))
        total += term
        if n > 5 and abs(term) < LD(1e-25):
            break
    return float(total)


def _li2(y):
    """The dilogarithm Li2(y) for real y <= 1 (series with the inversion and reflection formulas)."""
    y = LD(y)
    pi2_6 = LD(math.pi) ** 2 / 6
    if y == 1:
        return pi2_6
    if y < -1:
        return -pi2_6 - np.log(-y) ** 2 / 2 - _li2(1 / y)
    if y > 0.5:
        return pi2_6 - np.log(y) * np.log1p(-y) - _li2(1 - y)
    total, k = LD(0), 1
    while k < 5000:
        term = y ** k / (LD(k) * k)
        total += term
        if abs(term) < LD(1e-24):
            break
        k += 1
    return total


def _spence(x):
    return float(_li2(1 - x))


def _sp(name, order):
    fn = getattr(scipy.special, name)
    return lambda v: fn(order, v)


_PI2_6 = math.pi ** 2 / 6
_SPECIAL = [
    # (op type, function, reference, TF's values at nan/+-inf/+-0, x<0 value, float16/32 value at 0, inputs, dtypes)
    ("BesselJ0", "bessel_j0", _sp("jv", 0), {"nan": _NAN, "inf": _NAN, "-inf": _NAN, "0": 1.0, "-0": 1.0}, None, None,
     (-6.0, 6.0), FLOATS),
    ("BesselJ1", "bessel_j1", _sp("jv", 1), {"nan": _NAN, "inf": _NAN, "-inf": _NAN, "0": 0.0, "-0": -0.0}, None,
     None, (-6.0, 6.0), FLOATS),
    ("BesselY0", "bessel_y0", _sp("yv", 0), {"nan": _NAN, "inf": _NAN, "-inf": -_INF, "0": -_INF, "-0": -_INF},
     -_INF, None, (0.5, 6.0), FLOATS),
    ("BesselY1", "bessel_y1", _sp("yv", 1), {"nan": _NAN, "inf": _NAN, "-inf": -_INF, "0": -_INF, "-0": -_INF},
     -_INF, _NAN, (0.5, 6.0), FLOATS),
    ("BesselK0", "bessel_k0", _sp("kv", 0), {"nan": _NAN, "inf": 0.0, "-inf": _INF, "0": _INF, "-0": _INF}, _INF,
     None, (0.5, 6.0), FLOATS),
    ("BesselK0e", "bessel_k0e", _sp("kve", 0), {"nan": _NAN, "inf": 0.0, "-inf": _INF, "0": _INF, "-0": _INF}, _INF,
     None, (0.5, 6.0), FLOATS),
    ("BesselK1", "bessel_k1", _sp("kv", 1), {"nan": _NAN, "inf": 0.0, "-inf": _INF, "0": _INF, "-0": _INF}, _INF,
     None, (0.5, 6.0), FLOATS),
    ("BesselK1e", "bessel_k1e", _sp("kve", 1), {"nan": _NAN, "inf": 0.0, "-inf": _INF, "0": _INF, "-0": _INF}, _INF,
     None, (0.5, 6.0), FLOATS),
    ("Dawsn", "dawsn", lambda v: math.sqrt(math.pi) / 2 * math.exp(-v * v) * scipy.special.erfi(v),
     {"nan": _NAN, "inf": 0.0, "-inf": 0.0, "0": 0.0, "-0": 0.0}, None, None, (-4.0, 4.0), F32_64),
    ("Expint", "expint", _ei_series, {"nan": _NAN, "inf": _NAN, "-inf": _NAN, "0": -_INF, "-0": -_INF}, _NAN, None,
     (0.5, 6.0), F32_64),
    ("FresnelCos", "fresnel_cos", lambda v: _fresnel_series(v, False),
     {"nan": _NAN, "inf": 0.5, "-inf": -0.5, "0": 0.0, "-0": 0.0}, None, None, (-2.0, 2.0), F32_64),
    ("FresnelSin", "fresnel_sin", lambda v: _fresnel_series(v, True),
     {"nan": _NAN, "inf": 0.5, "-inf": -0.5, "0": 0.0, "-0": 0.0}, None, None, (-2.0, 2.0), F32_64),
    ("Spence", "spence", _spence, {"nan": _NAN, "inf": _NAN, "-inf": _NAN, "0": _PI2_6, "-0": _PI2_6}, _NAN, None,
     (0.2, 1.8), F32_64),
]


def _special_row(op_type, func, f, table, neg, half_zero, rng_range, dts):
    lo, hi = rng_range
    return Row(op_type, getattr(tf.math.special, func), _conventions(f, table, neg, half_zero),
               lambda dt, rng: (rand(rng, (3, 4), dt, lo, hi),), dtypes=dts,
               rtol={np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-11},
               atol={np.float16: 2e-3, np.float32: 1e-6, np.float64: 1e-13},
               grad_inputs=lambda rng: (rand(rng, (3, 4), np.float64, lo, hi),))


ROWS = [
    Row("Lu", lambda a: list(tf.linalg.lu(a)), _lu_ref, _general((2, 4, 4)), dtypes=NO_HALF, special=_empties,
        rtol=LOOSE, atol=LOOSE, grad=None,
        note="TF registers no gradient for Lu (LookupError, tested in tests/ops/test_linalg_matfn_ops.py)"),
    Row("MatrixSquareRoot", tf.linalg.sqrtm, _sqrtm_ref, _spd((2, 3, 3)), dtypes=NO_HALF, special=_empties,
        rtol=LOOSE, atol=LOOSE, grad_tol=1e-6),
    Row("MatrixLogarithm", tf.linalg.logm, _logm_ref, _near_identity((2, 3, 3)), dtypes=COMPLEX, special=_empties,
        rtol=LOOSE, atol=LOOSE, grad=None,
        note="complex only and TF registers no gradient (LookupError, tested in test_linalg_matfn_ops.py)"),
    Row("TridiagonalSolve", tf.linalg.tridiagonal_solve, _tri_solve_ref, _tri_inputs((2, 5, 5), 2),
        dtypes=TRIDIAG_TYPES, special=_tri_special, rtol=LOOSE, atol=LOOSE),
    Row("TridiagonalSolve", lambda d, r: tf.linalg.tridiagonal_solve(d, r, partial_pivoting=False), _tri_solve_ref,
        _tri_inputs((4, 4), 1), dtypes=TRIDIAG_TYPES, special=_tri_special, rtol=LOOSE, atol=LOOSE,
        name="TridiagonalSolve-thomas"),
    Row("TridiagonalSolve", tf.linalg.tridiagonal_solve, _tri_solve_ref, _tri_inputs((6, 6), 3, dominant=False),
        dtypes=(np.float64, np.complex128), special=False, name="TridiagonalSolve-pivoting"),
    Row("TridiagonalSolve", lambda d, r: tf.linalg.tridiagonal_solve(d, r, perturb_singular=True), _tri_solve_ref,
        _tri_inputs((2, 4, 4), 2), dtypes=TRIDIAG_TYPES, special=_tri_special, rtol=LOOSE, atol=LOOSE,
        name="TridiagonalSolve-perturb"),
    Row("TridiagonalMatMul", tf.linalg.tridiagonal_matmul, _tri_matmul_ref, _tri_inputs((2, 5, 5), 3),
        dtypes=TRIDIAG_TYPES, special=_tri_special),
    Row("Real", tf.math.real, _parts_ref(lambda v: v.real), _one_complex, dtypes=COMPLEX, special=_complex_special,
        grad=None, note="complex input: the float64 gradient check does not apply (tested in test_linalg_matfn_ops)"),
    Row("Imag", tf.math.imag, _parts_ref(lambda v: v.imag), _one_complex, dtypes=COMPLEX, special=_complex_special,
        grad=None, note="complex input: the float64 gradient check does not apply (tested in test_linalg_matfn_ops)"),
    Row("Angle", tf.math.angle, _parts_ref(lambda v: math.atan2(v.imag, v.real)), _one_complex, dtypes=COMPLEX,
        special=_complex_special, grad=None,
        note="complex input: the float64 gradient check does not apply (tested in test_linalg_matfn_ops)"),
    Row("Complex", tf.complex, _complex_ref, lambda dt, rng: (rand(rng, (3, 4), dt), rand(rng, (4,), dt)),
        dtypes=F32_64, grad=None,
        note="complex output: the float64 gradient check does not apply (tested in test_linalg_matfn_ops)"),
] + [_special_row(*spec) for spec in _SPECIAL]
