"""`tf.math.special` ops: the Bessel functions BesselJ0/J1, BesselY0/Y1, BesselK0/K0e/K1/K1e and Dawsn,
Expint, FresnelCos, FresnelSin, Spence, with TF's gradients (tensorflow/python/ops/math_grad.py).

Kernels are SciPy's `scipy.special` (imported on first use: the `[special]` extra), computed in
float64 and rounded to the input's type, with TF's (Eigen's) values outside the functions' domains
written out: the K functions are +inf and the Y functions -inf for x < 0, Expint is NaN for x < 0
and at +inf, float16/float32 BesselY1 is NaN at 0, Dawsn is +0 at -0 and positive below -1e9 (the
sign Cephes' large-argument branch drops). Dawsn, Expint, FresnelCos/Sin and Spence have no float16
kernel in TF (InvalidArgumentError at run time, as there)."""

import math

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from . import core_ops
from .array_select_ops import where_v2
from .math_binary_ops import equal, multiply, realdiv, subtract
from .math_helpers import _FLOAT, _check_dtype, _no_kernel, _op_scope
from .math_special_ops import _special
from .math_unary_ops import cos, exp, log, negative, reciprocal, sin, square

_F32_F64 = (dtypes.float32, dtypes.float64)


def _fresnel_cos(special, x):
    return special.fresnel(x)[1]


def _fresnel_sin(special, x):
    return special.fresnel(x)[0]


def _scipy(name):
    def f(special, x):
        return getattr(special, name)(x)
    return f


def _neg_is(value):
    def fixup(x, out):
        return np.where(x < 0, value, out)
    return fixup


def _y1_fixup(x, out):
    out = np.where(x < 0, -np.inf, out)
    if x.dtype != np.float64:  # Eigen's single-precision Y1 gives NaN at 0
        out = np.where(x == 0, np.nan, out)
    return out


def _dawsn_fixup(x, out):
    out = np.where(x < -1e9, -out, out)  # Cephes returns 1 / (2 |x|) there, without the sign
    return np.where(x == 0, 0.0, out)


def _expint_fixup(x, out):
    return np.where((x < 0) | np.isposinf(x), np.nan, out)


def _kernel(op_type, fn, fixup, half):
    def kernel(xp, x):
        if x.dtype == np.float16 and not half:
            raise _no_kernel(op_type, x.dtype, (dtypes.float64, dtypes.float32))
        with np.errstate(all="ignore"):
            out = np.asarray(fn(_special(), x.astype(np.float64)))
            if fixup is not None:
                out = fixup(x, out)
        return out.astype(x.dtype)
    return kernel


def _one(dtype, value):
    return ops.convert_to_tensor(value, dtype=dtype)


# ---- gradients (TF's math_grad.py) --------------------------------------------------------------
def _j0_grad(op, grad):
    """d j0(x) = -j1(x)."""
    return [multiply(grad, negative(bessel_j1(op._inputs[0])))]


def _j1_grad(op, grad):
    """d j1(x) = j0(x) - j1(x) / x, 0.5 at x == 0."""
    x, y = op._inputs[0], op._outputs[0]
    dy = where_v2(equal(x, _one(x.dtype, 0)), _one(x.dtype, 0.5), subtract(bessel_j0(x), realdiv(y, x)))
    return [multiply(grad, dy)]


def _y0_grad(op, grad):
    """d y0(x) = -y1(x)."""
    return [multiply(grad, negative(bessel_y1(op._inputs[0])))]


def _y1_grad(op, grad):
    """d y1(x) = y0(x) - y1(x) / x."""
    x, y = op._inputs[0], op._outputs[0]
    return [multiply(grad, subtract(bessel_y0(x), realdiv(y, x)))]


def _k0_grad(op, grad):
    """d k0(x) = -k1(x)."""
    return [multiply(grad, negative(bessel_k1(op._inputs[0])))]


def _k0e_grad(op, grad):
    """d k0e(x) = k0e(x) - k1e(x)."""
    x, y = op._inputs[0], op._outputs[0]
    return [multiply(grad, subtract(y, bessel_k1e(x)))]


def _k1_grad(op, grad):
    """d k1(x) = -k0(x) - k1(x) / x."""
    x, y = op._inputs[0], op._outputs[0]
    return [multiply(grad, subtract(negative(bessel_k0(x)), realdiv(y, x)))]


def _k1e_grad(op, grad):
    """d k1e(x) = k1e(x) (1 - 1 / x) - k0e(x)."""
    x, y = op._inputs[0], op._outputs[0]
    return [multiply(grad, subtract(multiply(y, subtract(_one(x.dtype, 1), reciprocal(x))), bessel_k0e(x)))]


def _dawsn_grad(op, grad):
    """d dawsn(x) = 1 - 2 x dawsn(x)."""
    x, y = op._inputs[0], op._outputs[0]
    return [multiply(grad, subtract(_one(x.dtype, 1), multiply(_one(x.dtype, 2), multiply(x, y))))]


def _expint_grad(op, grad):
    """d Ei(x) = exp(x) / x."""
    x = op._inputs[0]
    return [multiply(grad, realdiv(exp(x), x))]


def _fresnel_cos_grad(op, grad):
    """d C(x) = cos(pi / 2 x^2)."""
    x = op._inputs[0]
    return [multiply(grad, cos(multiply(_one(x.dtype, math.pi / 2), square(x))))]


def _fresnel_sin_grad(op, grad):
    """d S(x) = sin(pi / 2 x^2)."""
    x = op._inputs[0]
    return [multiply(grad, sin(multiply(_one(x.dtype, math.pi / 2), square(x))))]


def _spence_grad(op, grad):
    """d spence(x) = log(x) / (1 - x), -1 at x == 1."""
    x = op._inputs[0]
    partial = realdiv(log(x), subtract(_one(x.dtype, 1), x))
    partial = where_v2(equal(x, _one(x.dtype, 1)), negative(core_ops.ones_like(x)), partial)
    return [multiply(grad, partial)]


# (op type, function name, SciPy evaluation, fixup, gradient, float16 kernel, doc)
_UNARY = [
    ("BesselJ0", "bessel_j0", _scipy("j0"), None, _j0_grad, True,
     "Computes the Bessel function of the first kind of order 0, `j0(x)`, element-wise."),
    ("BesselJ1", "bessel_j1", _scipy("j1"), None, _j1_grad, True,
     "Computes the Bessel function of the first kind of order 1, `j1(x)`, element-wise."),
    ("BesselY0", "bessel_y0", _scipy("y0"), _neg_is(-np.inf), _y0_grad, True,
     "Computes the Bessel function of the second kind of order 0, `y0(x)`, element-wise (-inf for x <= 0)."),
    ("BesselY1", "bessel_y1", _scipy("y1"), _y1_fixup, _y1_grad, True,
     "Computes the Bessel function of the second kind of order 1, `y1(x)`, element-wise (-inf for x < 0)."),
    ("BesselK0", "bessel_k0", _scipy("k0"), _neg_is(np.inf), _k0_grad, True,
     "Computes the modified Bessel function of the second kind of order 0, `k0(x)`, element-wise (+inf for "
     "x <= 0)."),
    ("BesselK0e", "bessel_k0e", _scipy("k0e"), _neg_is(np.inf), _k0e_grad, True,
     "Computes the exponentially scaled modified Bessel function `exp(x) * k0(x)` element-wise (+inf for x <= 0)."),
    ("BesselK1", "bessel_k1", _scipy("k1"), _neg_is(np.inf), _k1_grad, True,
     "Computes the modified Bessel function of the second kind of order 1, `k1(x)`, element-wise (+inf for "
     "x <= 0)."),
    ("BesselK1e", "bessel_k1e", _scipy("k1e"), _neg_is(np.inf), _k1e_grad, True,
     "Computes the exponentially scaled modified Bessel function `exp(x) * k1(x)` element-wise (+inf for x <= 0)."),
    ("Dawsn", "dawsn", _scipy("dawsn"), _dawsn_fixup, _dawsn_grad, False,
     "Computes Dawson's integral `exp(-x^2) * int_0^x exp(t^2) dt` element-wise."),
    ("Expint", "expint", _scipy("expi"), _expint_fixup, _expint_grad, False,
     "Computes the exponential integral `Ei(x)` element-wise (NaN for x < 0 and at +inf, as TF)."),
    ("FresnelCos", "fresnel_cos", _fresnel_cos, None, _fresnel_cos_grad, False,
     "Computes the Fresnel cosine integral `C(x) = int_0^x cos(pi t^2 / 2) dt` element-wise."),
    ("FresnelSin", "fresnel_sin", _fresnel_sin, None, _fresnel_sin_grad, False,
     "Computes the Fresnel sine integral `S(x) = int_0^x sin(pi t^2 / 2) dt` element-wise."),
    ("Spence", "spence", _scipy("spence"), None, _spence_grad, False,
     "Computes Spence's integral `int_1^x log(t) / (1 - t) dt` element-wise (NaN for x < 0)."),
]


def _make_unary(op_type, func_name, fn, fixup, grad, half, doc):
    register_op(op_type, infer=core_ops.same_as_input, kernel=_kernel(op_type, fn, fixup, half), grad=grad,
                elementwise=True, transcendental=True)

    def f(x, name=None):
        _special()  # SciPy missing: the ImportError naming the extra, when the op is built
        with _op_scope(name, func_name, [x]):
            x = ops.convert_to_tensor(x, name="x")
            _check_dtype(x, _FLOAT)
            return ops.apply_op(op_type, [x], name=op_type)

    f.__name__ = f.__qualname__ = func_name
    f.__module__ = __name__
    f.__doc__ = ("%s\n\n    Kernel: SciPy's `scipy.special` (the `[special]` extra), with TF's values outside the "
                 "domain.\n\n    Args:\n      x: A `Tensor` of type float16, float32 or float64%s.\n"
                 "      name: A name for the operation (optional).\n\n"
                 "    Returns:\n      A `Tensor`. Has the same type as `x`.\n\n    Raises:\n      TypeError: If `x` "
                 "has another dtype.\n      ImportError: If SciPy is not installed.\n"
                 % (doc, "" if half else " (float16 has no kernel: InvalidArgumentError at run time, as TF)"))
    return f


(bessel_j0, bessel_j1, bessel_y0, bessel_y1, bessel_k0, bessel_k0e, bessel_k1, bessel_k1e, dawsn, expint,
 fresnel_cos, fresnel_sin, spence) = (_make_unary(*row) for row in _UNARY)
