"""Op-table rows of tensorweave/ops/math_ops.py (see harness.py for the row API).

References compute in long double (`hp`), with Python integers for integer division, or with NumPy
functions given explicit dtypes; none calls the kernels' helpers."""

import itertools
import math

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops as tf_ops
from tests.ops.op_table.harness import (
    BOOL,
    COMPLEX,
    FLOATS,
    INTS,
    NUMERIC,
    REALS,
    SIGNED_INTS,
    UNSIGNED_INTS,
    Row,
    hp,
    rand,
    special_values,
)

LD = np.longdouble


# ---- helpers ---------------------------------------------------------------------------------------
def _one(shape=(3, 4), lo=-2.0, hi=2.0):
    """inputs: one array of `shape` with values in [lo, hi)."""
    return lambda dt, rng: [rand(rng, shape, dt, lo, hi)]


def _two(sx=(3, 4), sy=(4,), xlo=-2.0, xhi=2.0, ylo=-2.0, yhi=2.0):
    """inputs: two broadcasting arrays."""
    return lambda dt, rng: [rand(rng, sx, dt, xlo, xhi), rand(rng, sy, dt, ylo, yhi)]


def _small(dt, rng, shape):
    """Values in {-1, 0, 1} ({False, True} for bool): many equal pairs for comparisons."""
    v = rng.randint(-1, 2, size=shape)
    return (v > 0) if np.dtype(dt).kind == "b" else v.astype(dt)


def _pairs(vals_x, vals_y, keep=lambda a, b: True):
    """Two 1-D arrays running through the pairs of `vals_x` x `vals_y` that `keep` accepts."""
    pairs = [(a, b) for a, b in itertools.product(vals_x, vals_y) if keep(a, b)]
    return [np.array([p[0] for p in pairs], vals_x.dtype), np.array([p[1] for p in pairs], vals_y.dtype)]


def _without_nan(dt):
    """Special cases: the default grid without NaN (for ops whose NaN result TF leaves unspecified)."""
    v = special_values(dt)
    if v.dtype.kind == "f":
        v = v[~np.isnan(v)]
    return v


def _special_unary_no_nan(dt):
    return [[_without_nan(dt)], [np.zeros(0, dt)]]


def _special_binary_no_nan(dt):
    v = _without_nan(dt)
    return [_pairs(v, v), [np.zeros(0, dt), np.zeros(0, dt)]]


def _wrap_int(values, dt):
    """Python ints wrapped into integer dtype `dt` (two's complement, as TF's kernels)."""
    info = np.iinfo(dt)
    span = 1 << info.bits
    flat = values.ravel().tolist() if isinstance(values, np.ndarray) else list(values)
    shape = values.shape if isinstance(values, np.ndarray) else (len(flat),)
    return np.array([((int(v) - int(info.min)) % span) + int(info.min) for v in flat], dtype=dt).reshape(shape)


def _int_binary(f):
    """Reference of an integer binary op computed on Python ints, elementwise with broadcasting."""
    def ref(x, y):
        bx, by = np.broadcast_arrays(x, y)
        return _wrap_int([f(int(a), int(b)) for a, b in zip(bx.ravel(), by.ravel())], x.dtype).reshape(bx.shape)
    return ref


def _py_binary(f, dtype):
    """Reference applying Python function `f` to each pair of broadcast elements."""
    def ref(x, y):
        bx, by = np.broadcast_arrays(x, y)
        return np.array([f(a, b) for a, b in zip(bx.ravel(), by.ravel())], dtype).reshape(bx.shape)
    return ref


def _by_kind(float_ref, int_ref):
    """A reference choosing by the first input's dtype kind."""
    return lambda x, *rest: (int_ref if x.dtype.kind in "iu" else float_ref)(x, *rest)


def _int_division_special(dt):
    """Special cases for a division op: floats: the full grid; ints: every pair with a non-zero
    divisor except min / -1 (overflow, undefined in TF)."""
    dt = np.dtype(dt)
    v = special_values(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return [_pairs(v, v, lambda a, b: b != 0 and not (a == info.min and b == -1)),
                [np.zeros(0, dt), np.zeros(0, dt)]]
    return [_pairs(v, v), [np.zeros(0, dt), np.zeros(0, dt)]]


def _nonzero_divisor(sx=(3, 4), sy=(4,)):
    def inputs(dt, rng):
        y = rand(rng, sy, dt, 1, 5) * np.where(rng.rand(*sy) < 0.5, -1, 1).astype(dt)
        return [rand(rng, sx, dt, -9, 9), y]
    return inputs


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _erf_series(x):
    """erf by its Taylor series in long double (|x| <= 3 here), +-1 at +-inf, NaN at NaN."""
    x = np.asarray(x, LD)
    out = np.empty_like(x)
    for i, v in enumerate(x.ravel()):
        if np.isnan(v) or v == 0:
            out.flat[i] = v
        elif np.isinf(v) or abs(v) > 6:
            out.flat[i] = np.sign(v)
        else:
            term, s, n = v, v, 0
            while abs(term) > LD(1e-25) * max(abs(s), LD(1e-300)) or n < 3:
                n += 1
                term = term * (-v * v) / n
                s += term / (2 * n + 1)
            out.flat[i] = 2 / np.sqrt(LD(np.pi)) * s
    return out


def _rne(x):
    """Round half to even, from floor and the fraction (sign of zero not asserted)."""
    f = np.floor(x)
    d = x - f
    odd = np.fmod(f, 2) != 0
    return np.where(d > 0.5, f + 1, np.where(d < 0.5, f, np.where(odd, f + 1, f)))


def _sign_ref(x):
    if x.dtype.kind == "c":
        m = np.abs(x)
        return np.where(m == 0, 0, x / np.where(m == 0, 1, m))
    return (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)


def _abs_ref(x):
    return np.copysign(x, 1) if x.dtype.kind == "f" else np.where(x < 0, x * np.array(-1, x.dtype), x)


# ---- element-wise unary ------------------------------------------------------------------------
_FC = FLOATS + COMPLEX


def _unary(op_type, fn, ref, lo=-2.0, hi=2.0, dtypes=_FC, **kw):
    return Row(op_type, fn, ref, _one(lo=lo, hi=hi), dtypes=dtypes, **kw)


UNARY = [
    _unary("Neg", tf.negative, lambda x: x * np.array(-1, x.dtype), dtypes=NUMERIC, grad=[0]),
    _unary("Abs", tf.abs, _abs_ref, dtypes=REALS, grad_inputs=lambda rng: [rand(rng, (3, 4), np.float64, 0.1, 2)
                                                                         * np.sign(rng.randn(3, 4))]),
    Row("ComplexAbs", tf.abs, lambda z: np.hypot(z.real.astype(LD), z.imag.astype(LD)).astype(z.real.dtype),
        _one(), dtypes=COMPLEX, grad=None, note="complex input: the float64 gradient check does not apply"),
    Row("Conj", tf.conj, lambda z: np.array([complex(v.real, -v.imag) for v in z.ravel()], z.dtype).reshape(z.shape),
        _one(), dtypes=COMPLEX, grad=None, note="complex input: the float64 gradient check does not apply",
        special=lambda dt: [[np.array([complex(a, b) for a in (np.nan, np.inf, -0.0, 1.0) for b in (np.inf, 0.0, -0.0)],
                                      dt)], [np.zeros(0, dt)]]),
    # TF's Sign (Eigen) maps NaN to 0 in some versions and NaN in others, and -0.0 to +0.0: neither
    # is asserted.
    _unary("Sign", tf.sign, _sign_ref, dtypes=NUMERIC, special=_special_unary_no_nan, signed_zeros=False),
    _unary("Square", tf.square, lambda x: x * x if x.dtype.kind != "f" else hp(lambda v: v * v)(x), dtypes=NUMERIC),
    _unary("Sqrt", tf.sqrt, hp(np.sqrt), lo=0.1),
    _unary("Rsqrt", tf.rsqrt, hp(lambda v: 1 / np.sqrt(v)), lo=0.1),
    _unary("Reciprocal", tf.reciprocal, hp(lambda v: 1 / v), lo=0.2),
    _unary("Exp", tf.exp, hp(np.exp)),
    _unary("Log", tf.log, hp(np.log), lo=0.1),
    _unary("Log1p", tf.log1p, hp(np.log1p), lo=-0.9),
    _unary("Expm1", tf.expm1, hp(np.expm1)),
    _unary("Sin", tf.sin, hp(np.sin)),
    _unary("Cos", tf.cos, hp(np.cos)),
    _unary("Tan", tf.tan, hp(np.tan), lo=-1.2, hi=1.2),
    _unary("Asin", tf.asin, hp(np.arcsin), lo=-0.9, hi=0.9),
    _unary("Acos", tf.acos, hp(np.arccos), lo=-0.9, hi=0.9),
    _unary("Atan", tf.atan, hp(np.arctan)),
    _unary("Sinh", tf.sinh, hp(np.sinh)),
    _unary("Cosh", tf.cosh, hp(np.cosh)),
    _unary("Asinh", tf.asinh, hp(np.arcsinh)),
    _unary("Acosh", tf.acosh, hp(np.arccosh), lo=1.1, hi=3.0),
    _unary("Atanh", tf.atanh, hp(np.arctanh), lo=-0.9, hi=0.9),
    _unary("Tanh", tf.tanh, hp(np.tanh)),
    _unary("Sigmoid", tf.sigmoid, hp(lambda v: 1 / (1 + np.exp(-v)))),
    _unary("Erf", tf.erf, hp(_erf_series), dtypes=FLOATS),
    _unary("Erfc", tf.erfc, hp(lambda v: 1 - _erf_series(v)), dtypes=FLOATS, signed_zeros=False),
    _unary("Floor", tf.floor, hp(np.floor), dtypes=FLOATS, grad=False),
    _unary("Ceil", tf.ceil, hp(lambda v: -np.floor(-v)), dtypes=FLOATS, grad=False),
    # No float16 Rint kernel in TF (test_math_fidelity.py checks the error).
    _unary("Rint", tf.rint, hp(_rne), lo=-4, hi=4, dtypes=(np.float32, np.float64), grad=False, signed_zeros=False),
    # TF's Round (Eigen's round-half-to-even from floor) gives +0.0 for -0.4; NumPy gives -0.0: the
    # sign of a zero result is not asserted.
    _unary("Round", tf.round, hp(_rne), lo=-4, hi=4, dtypes=FLOATS, grad=False, signed_zeros=False),
    Row("IsNan", tf.is_nan, lambda x: x != x, _one(), grad=False),
    Row("IsInf", tf.is_inf, lambda x: (x == np.inf) | (x == -np.inf), _one(), grad=False),
    Row("IsFinite", tf.is_finite, lambda x: (x == x) & (x != np.inf) & (x != -np.inf), _one(), grad=False),
    Row("LogicalNot", tf.logical_not, lambda x: x == np.False_, _one(), dtypes=BOOL, grad=False),
]


# ---- element-wise binary -----------------------------------------------------------------------
def _floor_mod_float(x, y):
    t = np.fmod(x, y)
    return np.where((t != 0) & ((y < 0) != (t < 0)), t + y, t)


def _div_no_nan_ints(x, y):
    """div_no_nan of integers: the quotient in float32 for 8 and 16 bit types, float64 for others."""
    out = np.float32 if x.dtype.itemsize <= 2 else np.float64
    bx, by = np.broadcast_arrays(x, y)
    return np.array([0.0 if b == 0 else int(a) / int(b) for a, b in zip(bx.ravel(), by.ravel())],
                    out).reshape(bx.shape)


def _div_no_nan(x, y):
    bx, by = np.broadcast_arrays(x, y)
    out = np.zeros(bx.shape, x.dtype)
    nz = by != 0
    out[nz] = bx[nz] / by[nz]
    return out


def _pow_int_special(dt):
    v = special_values(dt)
    e = np.array([0, 1, 2, 3, 62], dt)
    return [_pairs(v, e), [np.zeros(0, dt), np.zeros(0, dt)]]


def _pow_inputs(dt, rng):
    if np.dtype(dt).kind in "iu":
        return [rand(rng, (3, 4), dt, -5, 6), rand(rng, (4,), dt, 0, 4)]
    return [rand(rng, (3, 4), dt, 0.2, 2.0), rand(rng, (4,), dt, -2.0, 2.0)]


_ARITH = FLOATS + INTS + COMPLEX

BINARY = [
    Row("Add", tf.add, _by_kind(hp(lambda x, y: x + y), _int_binary(lambda a, b: a + b)), _two(), dtypes=_ARITH),
    Row("AddV2", lambda x, y: x + y, _by_kind(hp(lambda x, y: x + y), _int_binary(lambda a, b: a + b)), _two(),
        dtypes=_ARITH),
    Row("Sub", tf.subtract, _by_kind(hp(lambda x, y: x - y), _int_binary(lambda a, b: a - b)), _two(), dtypes=_ARITH),
    Row("Mul", tf.multiply, _by_kind(hp(lambda x, y: x * y), _int_binary(lambda a, b: a * b)), _two(), dtypes=_ARITH),
    # TF registers RealDiv kernels for floating point and complex types only (integers: the error
    # test_math_fidelity.py checks).
    Row("RealDiv", tf.realdiv, hp(lambda x, y: x / y), _nonzero_divisor(), dtypes=FLOATS + COMPLEX,
        special=_int_division_special, grad_tol=1e-4),
    Row("DivNoNan", tf.div_no_nan, hp(_div_no_nan), _nonzero_divisor(), dtypes=FLOATS + COMPLEX, grad_tol=1e-4),
    # Integers are divided in float32 (8 and 16 bits) or float64, as truediv.
    Row("DivNoNan", tf.div_no_nan, _div_no_nan_ints, _two(xlo=-9, xhi=9, ylo=-3, yhi=3),
        dtypes=SIGNED_INTS + UNSIGNED_INTS, name="DivNoNan-ints", grad=False),
    Row("FloorDiv", tf.floor_div, _by_kind(hp(lambda x, y: np.floor(x / y)), _int_binary(lambda a, b: a // b)),
        _nonzero_divisor(), dtypes=REALS, special=_int_division_special, grad=False),
    Row("FloorMod", tf.floormod, _by_kind(hp(_floor_mod_float), _int_binary(lambda a, b: a % b)),
        _nonzero_divisor(), dtypes=REALS, special=_int_division_special, grad=[0]),
    Row("TruncateDiv", tf.truncatediv, _by_kind(hp(lambda x, y: np.trunc(x / y)), _int_binary(_trunc_div)),
        _nonzero_divisor(), dtypes=REALS, special=_int_division_special, grad=False),
    # No float16 TruncateMod kernel in TF (test_math_fidelity.py checks the error).
    Row("TruncateMod", tf.truncatemod, _by_kind(hp(np.fmod), _int_binary(lambda a, b: a - b * _trunc_div(a, b))),
        _nonzero_divisor(), dtypes=(np.float32, np.float64) + INTS, special=_int_division_special, grad=False),
    Row("Pow", tf.pow, _by_kind(hp(np.power), _int_binary(lambda a, b: pow(a, b, 1 << 64))), _pow_inputs,
        dtypes=FLOATS + INTS + COMPLEX,
        special=lambda dt: _pow_int_special(dt) if np.dtype(dt).kind in "iu" else [
            _pairs(special_values(dt), special_values(dt)), [np.zeros(0, dt)] * 2] if dt.kind == "f" else [],
        rtol={np.float32: 1e-5, np.complex64: 1e-5}),
    Row("Pow", tf.pow, _int_binary(lambda a, b: pow(a, b, 1 << 64)), _pow_inputs, dtypes=(np.int8, np.int16),
        special=_pow_int_special, name="Pow-small-ints", grad=False),
    # TF 1.x's CPU Maximum/Minimum (std::max) give an order-dependent result for NaN and keep the first
    # operand of a -0.0/+0.0 tie: neither is asserted.
    Row("Maximum", tf.maximum, lambda x, y: np.where(x >= y, x, np.broadcast_to(y, np.broadcast(x, y).shape)),
        _two(), dtypes=REALS, special=_special_binary_no_nan, signed_zeros=False),
    Row("Minimum", tf.minimum, lambda x, y: np.where(x <= y, x, np.broadcast_to(y, np.broadcast(x, y).shape)),
        _two(), dtypes=REALS, special=_special_binary_no_nan, signed_zeros=False),
    Row("SquaredDifference", tf.squared_difference,
        _by_kind(hp(lambda x, y: (x - y) * np.conj(x - y)), _int_binary(lambda a, b: (a - b) ** 2)), _two(),
        dtypes=_ARITH),
    Row("Atan2", tf.atan2, hp(np.arctan2), _two(), dtypes=FLOATS),
]

_CMP = FLOATS + INTS


def _cmp_inputs(dt, rng):
    return [_small(dt, rng, (3, 4)), _small(dt, rng, (4,))]


COMPARE = [
    Row("Equal", tf.equal, lambda x, y: x == y, _cmp_inputs, dtypes=_CMP + COMPLEX + BOOL, grad=False),
    Row("NotEqual", tf.not_equal, lambda x, y: x != y, _cmp_inputs, dtypes=_CMP + COMPLEX + BOOL, grad=False),
    Row("Less", tf.less, lambda x, y: x < y, _cmp_inputs, dtypes=_CMP, grad=False),
    Row("LessEqual", tf.less_equal, lambda x, y: x <= y, _cmp_inputs, dtypes=_CMP, grad=False),
    Row("Greater", tf.greater, lambda x, y: x > y, _cmp_inputs, dtypes=_CMP, grad=False),
    Row("GreaterEqual", tf.greater_equal, lambda x, y: x >= y, _cmp_inputs, dtypes=_CMP, grad=False),
    Row("LogicalAnd", tf.logical_and, _py_binary(lambda a, b: bool(a) and bool(b), bool), _cmp_inputs, dtypes=BOOL,
        grad=False),
    Row("LogicalOr", tf.logical_or, lambda x, y: ~(~x & ~y), _cmp_inputs, dtypes=BOOL, grad=False),
]


# ---- bitwise ----------------------------------------------------------------------------------------
_BITWISE = SIGNED_INTS + UNSIGNED_INTS


def _shift_ref(left):
    """LeftShift/RightShift on Python ints: the shift clamped to [0, bits - 1], as TF's kernels."""
    def ref(x, y):
        bits = np.iinfo(x.dtype).bits
        return _int_binary(lambda a, b: a << min(max(b, 0), bits - 1) if left else a >> min(max(b, 0), bits - 1))(
            x, y)
    return ref


def _shift_inputs(dt, rng):
    return [rand(rng, (3, 4), dt, -100, 100), rand(rng, (4,), dt, -3, 70)]


def _invert_ref(x):
    return _wrap_int([~int(v) for v in x.ravel()], x.dtype).reshape(x.shape)


_BIG = dict(xlo=-100, xhi=100, ylo=-100, yhi=100)
BITWISE = [
    Row("BitwiseAnd", tf.bitwise.bitwise_and, _int_binary(lambda a, b: a & b), _two(**_BIG), dtypes=_BITWISE,
        grad=False),
    Row("BitwiseAnd", lambda x, y: x & y, _int_binary(lambda a, b: a & b), _two(**_BIG), dtypes=(np.int32, np.uint8),
        grad=False, special=False, name="BitwiseAnd-operator"),
    Row("BitwiseOr", tf.bitwise.bitwise_or, _int_binary(lambda a, b: a | b), _two(**_BIG), dtypes=_BITWISE,
        grad=False),
    Row("BitwiseXor", tf.bitwise.bitwise_xor, _int_binary(lambda a, b: a ^ b), _two(**_BIG), dtypes=_BITWISE,
        grad=False),
    Row("Invert", tf.bitwise.invert, _invert_ref, _one(lo=-100, hi=100), dtypes=_BITWISE, grad=False),
    Row("Invert", lambda x: ~x, _invert_ref, _one(lo=-100, hi=100), dtypes=(np.int64, np.uint16), grad=False,
        special=False, name="Invert-operator"),
    Row("LeftShift", tf.bitwise.left_shift, _shift_ref(True), _shift_inputs, dtypes=_BITWISE, grad=False),
    Row("RightShift", tf.bitwise.right_shift, _shift_ref(False), _shift_inputs, dtypes=_BITWISE, grad=False),
]


# ---- Cast ----------------------------------------------------------------------------------------
def _cast_to(dtype):
    return lambda x: tf.cast(x, dtype)


def _trunc_to_int32(x):
    return np.array([int(v) for v in np.ravel(x).astype(np.float64)], np.int32).reshape(x.shape)


CAST = [
    Row("Cast", _cast_to(tf.int32), _trunc_to_int32, _one(lo=-50, hi=50), name="Cast-float-to-int32",
        special=lambda dt: [[np.array([-0.0, 0.0, 0.5, -0.5, 2.99, -2.99, 1000.0], dt)], [np.zeros(0, dt)]],
        grad=False),
    Row("Cast", _cast_to(tf.float32),
        lambda x: np.array([float(v) for v in np.ravel(x)], np.float32).reshape(x.shape),
        _one(lo=-50, hi=50), dtypes=(np.float16, np.float64) + INTS + BOOL, name="Cast-to-float32",
        grad=[0], grad_delta=1e-2, grad_tol=1e-4,
        grad_inputs=lambda rng: [rand(rng, (3, 4), np.float64)]),
    Row("Cast", _cast_to(tf.float16),
        lambda x: np.array([float(v) for v in np.ravel(x)], np.float64).astype(np.float16).reshape(x.shape),
        _one(lo=-50, hi=50), dtypes=(np.float32, np.float64), name="Cast-to-float16",
        special=lambda dt: [[np.array([np.nan, np.inf, -np.inf, -0.0, 1e5, -1e5, 1e-8], dt)]], grad=None,
        note="float16 output: the float64 gradient check does not apply"),
    Row("Cast", _cast_to(tf.bool), lambda x: np.array([v != 0 for v in np.ravel(x)], bool).reshape(x.shape),
        lambda dt, rng: [_small(dt, rng, (3, 4))], dtypes=FLOATS + INTS, name="Cast-to-bool", grad=False,
        special=lambda dt: [[special_values(dt)], [np.zeros(0, dt)]]),
    Row("Cast", _cast_to(tf.float64), lambda z: np.array([v.real for v in np.ravel(z)], np.float64).reshape(z.shape),
        _one(), dtypes=COMPLEX, name="Cast-complex-to-float64", grad=None,
        note="complex input: the float64 gradient check does not apply"),
    Row("Cast", _cast_to(tf.complex128), lambda x: x.astype(np.float64) + 0j, _one(), dtypes=FLOATS,
        name="Cast-to-complex128", grad=None, note="complex output: the float64 gradient check does not apply"),
]


# ---- matmul / einsum ----------------------------------------------------------------------------
def _mm(a, b):
    """Matrix product by explicit sums in long double (batch dims broadcast)."""
    a = np.asarray(a)
    up = (lambda v: v.astype(np.clongdouble if v.dtype.kind == "c" else LD)) if a.dtype.kind in "fc" else (
        lambda v: v.astype(object))
    prod = (up(a)[..., :, :, None] * up(np.asarray(b))[..., None, :, :])
    s = prod.sum(-2) if prod.shape[-2] else np.zeros(prod.shape[:-3] + prod.shape[-3:-2] + prod.shape[-1:], LD)
    if a.dtype.kind in "iu":
        return _wrap_int(s, a.dtype)
    return np.asarray(s).astype(a.dtype)


def _t(m):
    return np.swapaxes(m, -1, -2)


def _mat_inputs(sa, sb):
    return lambda dt, rng: [rand(rng, sa, dt), rand(rng, sb, dt)]


def _mat_special(sa, sb, empty):
    def special(dt):
        a = np.ones(sa, dt)
        b = np.ones(sb, dt)
        cases = [[np.zeros(s, dt) for s in empty]]
        if np.dtype(dt).kind == "f":
            a.flat[0] = np.nan
            b.flat[-1] = np.inf
            cases.append([a, b])
        return cases
    return special


_MM_TOL = {np.float16: 1e-2}
MATMUL = [
    Row("MatMul", tf.matmul, _mm, _mat_inputs((3, 4), (4, 2)), dtypes=FLOATS + INTS + COMPLEX, rtol=_MM_TOL,
        atol=_MM_TOL, special=_mat_special((3, 4), (4, 2), [(2, 0), (0, 3)]), unknown_rank=False,
        note="unknown rank: tf.matmul builds BatchMatMulV2 (as TF), covered by that row"),
    Row("MatMul", lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True), lambda a, b: _mm(_t(a), _t(b)),
        _mat_inputs((4, 3), (2, 4)), name="MatMul-transposed", rtol=_MM_TOL, atol=_MM_TOL,
        special=_mat_special((4, 3), (2, 4), [(0, 3), (2, 0)]), unknown_rank=False,
        note="unknown rank: tf.matmul builds BatchMatMulV2 (as TF), covered by that row"),
    Row("BatchMatMulV2", tf.matmul, _mm, _mat_inputs((2, 3, 4), (4, 2)), dtypes=FLOATS + (np.int16,) + INTS + COMPLEX,
        rtol=_MM_TOL, atol=_MM_TOL, special=_mat_special((2, 3, 4), (4, 2), [(0, 3, 4), (4, 2)])),
    Row("BatchMatMulV2", lambda a, b: tf.matmul(a, b, adjoint_a=True, adjoint_b=True),
        lambda a, b: _mm(np.conj(_t(a)), np.conj(_t(b))), _mat_inputs((2, 1, 4, 3), (3, 2, 4)),
        dtypes=FLOATS + COMPLEX, name="BatchMatMulV2-adjoint-broadcast", rtol=_MM_TOL, atol=_MM_TOL, special=False),
]


def _einsum_ref(eq):
    """Einsum by explicit loops over every label's range, in long double."""
    ins, out = eq.split("->")
    ins = ins.split(",")

    def ref(*arrays):
        sizes = {}
        for spec, a in zip(ins, arrays):
            for c, n in zip(spec, a.shape):
                sizes[c] = n
        labels = sorted(sizes)
        res = np.zeros([sizes[c] for c in out], LD)
        for idx in itertools.product(*[range(sizes[c]) for c in labels]):
            pos = dict(zip(labels, idx))
            term = LD(1)
            for spec, a in zip(ins, arrays):
                term *= LD(a[tuple(pos[c] for c in spec)])
            res[tuple(pos[c] for c in out)] += term
        return res.astype(arrays[0].dtype)
    return ref


EINSUM = [
    Row("Einsum", lambda a, b: tf.einsum("ij,jk->ik", a, b), _einsum_ref("ij,jk->ik"), _mat_inputs((3, 4), (4, 2)),
        rtol=_MM_TOL, atol=_MM_TOL, special=lambda dt: [[np.zeros((3, 0), dt), np.zeros((0, 2), dt)]]),
    Row("Einsum", lambda a, b: tf.einsum("bij,bkj->bki", a, b), _einsum_ref("bij,bkj->bki"),
        _mat_inputs((2, 3, 4), (2, 2, 4)), name="Einsum-batch", rtol=_MM_TOL, atol=_MM_TOL, special=False),
    Row("Einsum", lambda a: tf.einsum("ii->i", a), _einsum_ref("ii->i"), _one((3, 3)), name="Einsum-diagonal",
        special=False),
    Row("Einsum", lambda a: tf.einsum("ijk->kj", a), _einsum_ref("ijk->kj"), _one((2, 3, 4)), name="Einsum-sum",
        special=False),
]


# ---- reductions ----------------------------------------------------------------------------------
def _axes(x, axis):
    return tuple(range(x.ndim)) if axis is None else tuple(a % x.ndim for a in np.atleast_1d(axis))


def _reduce_ref(kind, axis, keepdims=False):
    """A reduction reference: long double for floats, Python ints (wrapped) for ints, loops for bools."""
    def ref(x, *unused_axis_input):
        axes = _axes(x, axis)
        keep = [a for a in range(x.ndim) if a not in axes]
        t = np.transpose(x, keep + list(axes))
        kshape = [x.shape[a] for a in keep]
        n = int(np.prod([x.shape[a] for a in axes]))
        rows = t.reshape(int(np.prod(kshape)), n)
        out = []
        for r in rows:
            if x.dtype.kind == "b":
                vals = [bool(v) for v in r]
                out.append(all(vals) if kind == "all" else any(vals))
                continue
            vals = [int(v) for v in r] if x.dtype.kind in "iu" else [LD(v) if x.dtype.kind == "f" else
                                                                      np.clongdouble(v) for v in r]
            if kind == "sum":
                out.append(sum(vals, start=0))
            elif kind == "prod":
                out.append(math.prod(vals))
            elif kind == "mean":
                if x.dtype.kind in "iu":
                    out.append(_trunc_div(sum(vals), n) if n else 0)
                else:
                    out.append(sum(vals, start=LD(0)) / n if n else LD(np.nan))
            elif kind in ("max", "min"):
                if not vals:
                    lowest = np.iinfo(x.dtype).min if x.dtype.kind in "iu" else -np.inf
                    highest = np.iinfo(x.dtype).max if x.dtype.kind in "iu" else np.inf
                    out.append(lowest if kind == "max" else highest)
                elif any(v != v for v in vals):
                    out.append(LD(np.nan))
                else:
                    out.append(max(vals) if kind == "max" else min(vals))
        if x.dtype.kind in "iu":
            res = _wrap_int(out, x.dtype) if out else np.zeros(0, x.dtype)
        else:
            res = np.array(out, dtype=object).astype(x.dtype) if out else np.zeros(0, x.dtype)
        res = res.reshape(kshape)
        if keepdims:
            res = np.expand_dims(res, axes)
        return res
    return ref


_RED_TOL = {np.float16: 5e-3, np.complex64: 1e-5, np.float32: 1e-5}


def _reduce_special(axis_shape=(3, 0)):
    def special(dt):
        dt = np.dtype(dt)
        cases = [[np.zeros(axis_shape, dt)], [np.zeros((0, 4), dt)]]
        if dt.kind == "f":
            cases.append([np.array([[np.nan, 1, 2, 3], [np.inf, 1, -np.inf, 0], [np.inf, 2, 3, 1]], dt)])
        return cases
    return special


def _grad_in(shape):
    """float64 inputs without ties (max/min gradients are not defined at ties)."""
    def g(rng):
        n = int(np.prod(shape))
        return [rng.permutation(4 * n)[:n].reshape(shape).astype(np.float64) / 8 - 1]
    return g


def _pick(dtypes, wanted):
    got = tuple(d for d in dtypes if d in wanted)
    return got or dtypes[:1]


def _reductions(op_type, fn, kind, dtypes, grad=True, distinct=False):
    """Rows of one reduction: one axis, two axes with keepdims, every axis, and a fed axis."""
    def gi(shape, extra=()):
        return {"grad_inputs": lambda rng: _grad_in(shape)(rng) + list(extra)} if distinct else {}
    common = dict(rtol=_RED_TOL, atol=_RED_TOL, signed_zeros=False)
    return [
        Row(op_type, lambda x: fn(x, 1), _reduce_ref(kind, 1), _one(), dtypes=dtypes, special=_reduce_special(),
            grad=grad, **gi((3, 4)), **common),
        Row(op_type, lambda x: fn(x, [0, -1], keepdims=True), _reduce_ref(kind, [0, -1], True), _one((2, 3, 4)),
            dtypes=_pick(dtypes, (np.float32, np.int32)), special=False, name=op_type + "-keepdims", grad=grad,
            **gi((2, 3, 4)), **common),
        Row(op_type, lambda x: fn(x), _reduce_ref(kind, None), _one((2, 3)),
            dtypes=_pick(dtypes, (np.float64, np.int64)), special=False, name=op_type + "-all-axes", grad=grad,
            **gi((2, 3)), **common),
        # The axis fed at run time: the static shape cannot be known.
        Row(op_type, lambda x, a: fn(x, a), _reduce_ref(kind, [0]), lambda dt, rng: [
            rand(rng, (3, 4), dt), np.array([0], np.int32)], dtypes=_pick(dtypes, (np.float64,)), special=False,
            static_known=False, name=op_type + "-fed-axis", grad=[0] if grad else False, **common,
            grad_fn=lambda x, a: tf.reshape(fn(x, a), [4]), **gi((3, 4), [np.array([0], np.int32)])),
    ]


def _near_the_limits(dt, rng):
    """Values within 8 of the type's largest and smallest: their sums overflow the type."""
    info = np.iinfo(dt)
    hi = rand(rng, (3, 4), dt, int(info.max) - 8, int(info.max))
    lo = rand(rng, (3, 4), dt, int(info.min), int(info.min) + 8)
    return [np.where(rng.rand(3, 4) < 0.5, hi, lo)]


REDUCE_SMALL_INTS = [
    # TF accumulates integer means in 64 bits (no overflow) and truncates toward zero.
    Row("Mean", lambda x: tf.reduce_mean(x, 1), _reduce_ref("mean", 1), _near_the_limits,
        dtypes=(np.int8, np.int16, np.int32, np.uint8, np.uint16), special=False, grad=False, name="Mean-small-ints"),
]

REDUCE = (
    _reductions("Sum", tf.reduce_sum, "sum", FLOATS + INTS + COMPLEX)
    + _reductions("Mean", tf.reduce_mean, "mean", FLOATS + INTS + COMPLEX)
    + _reductions("Prod", tf.reduce_prod, "prod", FLOATS + INTS + COMPLEX)
    + _reductions("Max", tf.reduce_max, "max", FLOATS + INTS, distinct=True)
    + _reductions("Min", tf.reduce_min, "min", FLOATS + INTS, distinct=True)
    + _reductions("Any", tf.reduce_any, "any", BOOL, grad=False)
    + _reductions("All", tf.reduce_all, "all", BOOL, grad=False)
)


# ---- arg max/min, cumulative ops, gradient ops ----------------------------------------------------
def _arg_ref(kind, axis, out_dtype):
    """TF's CPU arg max/min (Eigen's): from index 0 holding the type's lowest value (highest for
    min), move to each strictly greater (smaller) value: the first extreme wins, a NaN never does."""
    def ref(x):
        a = axis % x.ndim
        t = np.moveaxis(x, a, -1)
        flat = t.reshape(-1, x.shape[a])
        if x.dtype.kind == "b":
            start = kind == "min"
        else:
            info = np.iinfo(x.dtype) if x.dtype.kind in "iu" else np.finfo(x.dtype)
            start = info.min if kind == "max" else info.max
        out = []
        for r in flat:
            best, index = start, 0
            for i, v in enumerate(r):
                if (v > best) if kind == "max" else (v < best):
                    best, index = v, i
            out.append(index)
        return np.array(out, out_dtype).reshape(t.shape[:-1])
    return ref


def _arg_special(dt):
    dt = np.dtype(dt)
    cases = [[np.zeros((0, 3), dt)], [np.array([[1, 1, 0], [0, 1, 1]], dt)]]
    if dt.kind == "f":
        cases.append([np.array([[np.inf, 1, np.inf], [-np.inf, -np.inf, -0.0]], dt)])
        cases.append([np.array([[1, np.nan, 3], [np.nan, 1, 3], [np.nan, np.nan, np.nan], [3, np.nan, 1],
                                [np.nan, -np.inf, -np.inf], [np.nan, np.inf, np.inf]], dt)])
    return cases


ARG = [
    Row("ArgMax", lambda x: tf.argmax(x, 1), _arg_ref("max", 1, np.int64), _one(), dtypes=REALS + BOOL, grad=False,
        special=_arg_special),
    Row("ArgMax", lambda x: tf.argmax(x, 0, output_type=tf.int32), _arg_ref("max", 0, np.int32), _one((3, 4, 2)),
        dtypes=(np.float32, np.int64), grad=False, special=False, name="ArgMax-int32"),
    Row("ArgMin", lambda x: tf.argmin(x, 1), _arg_ref("min", 1, np.int64), _one(), dtypes=REALS + BOOL, grad=False,
        special=_arg_special),
    Row("ArgMin", lambda x: tf.argmin(x, -1, output_type=tf.int32), _arg_ref("min", -1, np.int32), _one((2, 3, 4)),
        dtypes=(np.float64, np.int32), grad=False, special=False, name="ArgMin-int32"),
]


def _cum_ref(kind, axis, exclusive=False, reverse=False):
    def ref(x):
        a = axis % x.ndim
        t = np.moveaxis(x, a, -1)
        flat = t.reshape(int(np.prod(t.shape[:-1])), x.shape[a])
        out = np.zeros(flat.shape, x.dtype)
        for j, r in enumerate(flat):
            vals = list(r[::-1] if reverse else r)
            vals = [int(v) for v in vals] if x.dtype.kind in "iu" else [LD(v) if x.dtype.kind == "f" else
                                                                          np.clongdouble(v) for v in vals]
            acc = 0 if kind == "sum" else 1
            res = []
            for v in vals:
                if exclusive:
                    res.append(acc)
                acc = acc + v if kind == "sum" else acc * v
                if not exclusive:
                    res.append(acc)
            res = res[::-1] if reverse else res
            out[j] = _wrap_int(res, x.dtype) if x.dtype.kind in "iu" else np.array(res).astype(x.dtype)
        return np.moveaxis(out.reshape(t.shape), -1, a)
    return ref


def _cum_special(dt):
    dt = np.dtype(dt)
    cases = [[np.zeros((0, 3), dt)], [np.zeros((3, 0), dt)]]
    if dt.kind == "f":
        cases.append([np.array([[1, np.nan, 2], [np.inf, 1, -np.inf], [0.0, -0.0, 2]], dt)])
    return cases


_CUM = FLOATS + INTS + COMPLEX
CUMULATIVE = [
    Row("Cumsum", lambda x: tf.cumsum(x, 1), _cum_ref("sum", 1), _one(), dtypes=_CUM, rtol=_RED_TOL, atol=_RED_TOL,
        special=_cum_special, signed_zeros=False),
    Row("Cumsum", lambda x: tf.cumsum(x, 0, exclusive=True, reverse=True), _cum_ref("sum", 0, True, True),
        _one(), dtypes=(np.float32, np.float64, np.int32), rtol=_RED_TOL, atol=_RED_TOL, special=False,
        name="Cumsum-exclusive-reverse"),
    Row("Cumprod", lambda x: tf.cumprod(x, 1), _cum_ref("prod", 1), _one(lo=0.5), dtypes=_CUM, rtol=_RED_TOL,
        atol=_RED_TOL, special=_cum_special, signed_zeros=False),
    Row("Cumprod", lambda x: tf.cumprod(x, -1, exclusive=True, reverse=True), _cum_ref("prod", -1, True, True),
        _one(lo=0.5), dtypes=(np.float32, np.float64, np.int64), rtol=_RED_TOL, atol=_RED_TOL, special=False,
        name="Cumprod-exclusive-reverse"),
]

# The gradient ops of tanh and sigmoid (built by tf.gradients; made here with their op type).
def _no_gradient_where_dy_is_0(f):
    """A gradient op's reference: `f(y, dy)`, and +0 where dy is 0 (TF's SqrtGrad, RsqrtGrad and
    ReciprocalGrad), in long double."""
    return hp(lambda y, dy: np.where(dy == 0, 0, f(y, dy)))


def _grad_op_special(dt):
    dt = np.dtype(dt)
    if dt.kind != "f":
        return []
    y = np.array([0.0, 0.0, -0.0, 1.0, np.inf, np.nan, 2.0, 0.0], dt)
    dy = np.array([0.0, 1.0, 0.0, 0.0, 0.0, 0.0, np.nan, -0.0], dt)
    return [[y, dy], [np.zeros(0, dt), np.zeros(0, dt)]]


GRAD_OPS = [
    Row("SqrtGrad", lambda y, dy: tf_ops.apply_op("SqrtGrad", [y, dy]),
        _no_gradient_where_dy_is_0(lambda y, dy: 0.5 * dy / np.conj(y)), _two((3, 4), (3, 4), 0.5, 2.0, -1.0, 1.0),
        dtypes=FLOATS + COMPLEX, special=_grad_op_special),
    Row("RsqrtGrad", lambda y, dy: tf_ops.apply_op("RsqrtGrad", [y, dy]),
        _no_gradient_where_dy_is_0(lambda y, dy: -0.5 * dy * np.conj(y) ** 3),
        _two((3, 4), (3, 4), 0.5, 2.0, -1.0, 1.0), dtypes=FLOATS + COMPLEX, special=_grad_op_special),
    Row("ReciprocalGrad", lambda y, dy: tf_ops.apply_op("ReciprocalGrad", [y, dy]),
        _no_gradient_where_dy_is_0(lambda y, dy: -dy * np.conj(y) ** 2), _two((3, 4), (3, 4), 0.5, 2.0, -1.0, 1.0),
        dtypes=FLOATS + COMPLEX, special=_grad_op_special),
    Row("TanhGrad", lambda y, dy: tf_ops.apply_op("TanhGrad", [y, dy]), hp(lambda y, dy: dy * np.conj(1 - y * y)),
        _two((3, 4), (3, 4), -0.9, 0.9), dtypes=FLOATS + COMPLEX, special=False),
    Row("SigmoidGrad", lambda y, dy: tf_ops.apply_op("SigmoidGrad", [y, dy]),
        hp(lambda y, dy: dy * np.conj(y * (1 - y))),
        _two((3, 4), (3, 4), 0.1, 0.9), dtypes=FLOATS + COMPLEX, special=False),
]

ROWS = (UNARY + BINARY + COMPARE + BITWISE + CAST + MATMUL + EINSUM + REDUCE + REDUCE_SMALL_INTS + ARG + CUMULATIVE
        + GRAD_OPS)
