"""Math ops: element-wise unary functions (negative, abs, exp, log, the trigonometric and
hyperbolic functions, rounding, conj, is_nan/is_inf/is_finite, logical_not) and Cast."""

import math

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor
from . import core_ops
from .math_helpers import (
    _BOOL,
    _COMPLEX,
    _FLOAT,
    _FLOAT_COMPLEX,
    _NUMERIC,
    _SIGNED,
    _SIGNED_REAL,
    _TRANSCENDENTAL,
    _check_dtype,
    _no_kernel,
    _op_scope,
)

# ---- element-wise unary ops ----------------------------------------------------------------
# Unary kernels that are one NumPy ufunc call: the compiled plan calls the ufunc directly.
_UNARY_INLINE = {op: "XP.%s({0})" % (fn or op.lower()) for op, fn in {
    "Abs": None, "Sign": None, "Square": None, "Sqrt": None, "Exp": None, "Log": None, "Log1p": None,
    "Expm1": None, "Sin": None, "Cos": None, "Tan": None, "Asin": "arcsin", "Acos": "arccos", "Atan": "arctan",
    "Sinh": None, "Cosh": None, "Asinh": "arcsinh", "Acosh": "arccosh", "Atanh": "arctanh", "Tanh": None,
    "Floor": None, "Ceil": None, "Rint": None, "Round": None}.items()}
_UNARY_INLINE["Neg"] = "(-{0})"
# Python's abs() and `*` are the same ufuncs on arrays and take NumPy's scalar fast path on scalars.
_UNARY_INLINE["Abs"] = "abs({0})"
# (complex: the ufunc's own product, whose rounding an x * x need not share)
_UNARY_INLINE["Square"] = lambda op: "XP.square({0})" if op._inputs[0]._dtype.is_complex else "({0} * {0})"

# Types TF's op definition allows but registers no CPU kernel for: the kernel raises TF's error
# (and the compiled plan calls the kernel, not the inline expression, for them).
_NO_KERNEL = {"Rint": (dtypes.float16,), "Round": _COMPLEX,
              "Reciprocal": (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)}


def _inline_unless_no_kernel(op_type):
    template = _UNARY_INLINE.get(op_type)
    missing = _NO_KERNEL.get(op_type)
    if template is None or missing is None:
        return template
    return lambda op: None if op._inputs[0]._dtype in missing else template


def _ufunc_of(op_type):
    """The `ufunc` trait: the NumPy ufunc the inline expression calls (none for the types without a kernel)."""
    template = _UNARY_INLINE.get(op_type)
    name = {"Neg": "negative", "Abs": "absolute", "Square": "square"}.get(op_type)
    if name is None and isinstance(template, str) and template.startswith("XP."):
        name = template[3:template.index("(")]
    if name is None or not isinstance(getattr(np, name, None), np.ufunc):
        return None
    missing = _NO_KERNEL.get(op_type)
    if missing is None:
        return name
    return lambda op: None if op._inputs[0]._dtype in missing else name


def _kernel_types(op_type, kernel, allowed):
    """`kernel`, raising TF's InvalidArgumentError for the types of `_NO_KERNEL[op_type]`."""
    missing = _NO_KERNEL.get(op_type)
    if missing is None:
        return kernel
    missing_np = frozenset(np.dtype(d.as_numpy_dtype) for d in missing)
    registered = tuple(d for d in allowed if d not in missing)

    def checked(xp, x):
        if x.dtype in missing_np:
            raise _no_kernel(op_type, x.dtype, registered)
        return kernel(xp, x)
    return checked


# Unary kernels that call Python's math module per element: they run on the host only.
_HOST_ONLY_UNARY = frozenset({"Erf", "Erfc"})


def _conj(t):
    return conj(t) if t.dtype.is_complex else t


def _unary(op_type, kernel, grad, allowed, doc):
    """Registers a same-shape, same-dtype unary op and returns its public constructor."""
    register_op(op_type, infer=core_ops.same_as_input, kernel=_kernel_types(op_type, kernel, allowed), grad=grad,
                inline=_inline_unless_no_kernel(op_type), gpu=op_type not in _HOST_ONLY_UNARY, elementwise=True,
                transcendental=op_type in _TRANSCENDENTAL, ufunc=_ufunc_of(op_type))

    def fn(x, name=None):
        if name is None and type(x) is ops.Tensor and x._op._graph is ops.get_default_graph():
            # A tensor of the default graph needs no conversion inside the scope: the op takes the
            # scope's unique name directly.
            _check_dtype(x, allowed)
            return ops.apply_op(op_type, [x])
        with _op_scope(name, op_type, [x]) as scope:
            x = ops.convert_to_tensor(x, name="x")
            _check_dtype(x, allowed)
            return ops.apply_op(op_type, [x], name=scope)

    fn.__name__ = fn.__qualname__ = "negative" if op_type == "Neg" else op_type.lower()
    fn.__doc__ = ("%s\n\n    Args:\n      x: A `Tensor` of type %s.\n      name: A name for the operation (optional)."
                  "\n\n    Returns:\n      A `Tensor`. Has the same type as `x`.\n\n    Raises:\n      TypeError: "
                  "If `x` has another dtype.\n" % (doc, ", ".join(d.name for d in allowed)))
    return fn


def _sigmoid_kernel(xp, x):
    e = xp.exp(-xp.abs(x))
    return xp.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


def _sigmoid_complex_kernel(xp, x):
    return 1 / (1 + xp.exp(-x))


def _erf_kernel(fn):
    f = np.frompyfunc(fn, 1, 1)
    return lambda xp, x: np.asarray(f(x.astype(np.float64)), dtype=np.float64).astype(x.dtype)


def _neg_grad(op, grad):
    """d(-x) = -grad."""
    return [negative(grad)]


def _abs_grad(op, grad):
    """d|x| = grad * sign(x)."""
    return [multiply(grad, sign(op._inputs[0]))]


def _zero_grad(op, grad):
    """The derivative is zero almost everywhere: zeros shaped like x."""
    return [core_ops.zeros_like(op._inputs[0])]


def _square_grad(op, grad):
    """d x^2 = grad * 2 conj(x)."""
    x = op._inputs[0]
    return [multiply(grad, multiply(2, _conj(x)))]


def _sqrt_grad(op, grad):
    """d sqrt(x) = grad * 0.5 / conj(y), one SqrtGrad op as in TF (0 where grad is 0)."""
    return [ops.apply_op("SqrtGrad", [op._outputs[0], grad])]


def _rsqrt_grad(op, grad):
    """d x^-1/2 = grad * -0.5 conj(y)^3, one RsqrtGrad op as in TF (0 where grad is 0)."""
    return [ops.apply_op("RsqrtGrad", [op._outputs[0], grad])]


def _reciprocal_grad(op, grad):
    """d (1/x) = -grad * conj(y)^2, one ReciprocalGrad op as in TF (0 where grad is 0)."""
    return [ops.apply_op("ReciprocalGrad", [op._outputs[0], grad])]


def _exp_grad(op, grad):
    """d e^x = grad * conj(y)."""
    return [multiply(grad, _conj(op._outputs[0]))]


def _log_grad(op, grad):
    """d log(x) = grad / conj(x)."""
    return [multiply(grad, reciprocal(_conj(op._inputs[0])))]


def _log1p_grad(op, grad):
    """d log(1 + x) = grad / (1 + conj(x))."""
    x = _conj(op._inputs[0])
    return [multiply(grad, reciprocal(add(1, x)))]


def _expm1_grad(op, grad):
    """d (e^x - 1) = grad * e^conj(x)."""
    return [multiply(grad, exp(_conj(op._inputs[0])))]


def _sin_grad(op, grad):
    """d sin(x) = grad * cos(conj(x))."""
    return [multiply(grad, cos(_conj(op._inputs[0])))]


def _cos_grad(op, grad):
    """d cos(x) = -grad * sin(conj(x))."""
    return [negative(multiply(grad, sin(_conj(op._inputs[0]))))]


def _tan_grad(op, grad):
    """d tan(x) = grad / cos(conj(x))^2."""
    return [multiply(grad, square(reciprocal(cos(_conj(op._inputs[0])))))]


def _asin_grad(op, grad):
    """d asin(x) = grad / sqrt(1 - x^2)."""
    x = _conj(op._inputs[0])
    return [multiply(grad, rsqrt(subtract(1, square(x))))]


def _acos_grad(op, grad):
    """d acos(x) = -grad / sqrt(1 - x^2)."""
    x = _conj(op._inputs[0])
    return [negative(multiply(grad, rsqrt(subtract(1, square(x)))))]


def _atan_grad(op, grad):
    """d atan(x) = grad / (1 + x^2)."""
    x = _conj(op._inputs[0])
    return [multiply(grad, reciprocal(add(1, square(x))))]


def _sinh_grad(op, grad):
    """d sinh(x) = grad * cosh(conj(x))."""
    return [multiply(grad, cosh(_conj(op._inputs[0])))]


def _cosh_grad(op, grad):
    """d cosh(x) = grad * sinh(conj(x))."""
    return [multiply(grad, sinh(_conj(op._inputs[0])))]


def _asinh_grad(op, grad):
    """d asinh(x) = grad / cosh(conj(y))."""
    return [realdiv(grad, cosh(_conj(op._outputs[0])))]


def _acosh_grad(op, grad):
    """d acosh(x) = grad / sinh(conj(y))."""
    return [realdiv(grad, sinh(_conj(op._outputs[0])))]


def _atanh_grad(op, grad):
    """d atanh(x) = grad / (1 - x^2)."""
    x = _conj(op._inputs[0])
    return [multiply(grad, reciprocal(subtract(1, square(x))))]


def _tanh_grad(op, grad):
    """d tanh(x) = grad * (1 - conj(y)^2), one TanhGrad op as in TF."""
    return [ops.apply_op("TanhGrad", [op._outputs[0], grad])]


def _sigmoid_grad(op, grad):
    """d sigmoid(x) = grad * conj(y) * (1 - conj(y)), one SigmoidGrad op as in TF."""
    return [ops.apply_op("SigmoidGrad", [op._outputs[0], grad])]


def _conj_array(xp, a):
    return xp.conj(a) if a.dtype.kind == "c" else a


def _tanh_grad_kernel(xp, y, dy):
    y = _conj_array(xp, y)
    return dy * (1 - y * y)


def _sigmoid_grad_kernel(xp, y, dy):
    y = _conj_array(xp, y)
    return dy * (y * (1 - y))


def _zero_where_no_gradient(xp, dy, out):
    """`out`, +0 where the upstream gradient `dy` is 0: TF's SqrtGrad, RsqrtGrad and ReciprocalGrad
    give 0 there even where `y` is 0 or infinite (`tf.where(c, tf.sqrt(x), 0)` at x = 0)."""
    return xp.where(dy == 0, xp.zeros((), out.dtype), out)


def _sqrt_grad_kernel(xp, y, dy):
    return _zero_where_no_gradient(xp, dy, (0.5 * dy) / _conj_array(xp, y))


def _rsqrt_grad_kernel(xp, y, dy):
    y = _conj_array(xp, y)
    return _zero_where_no_gradient(xp, dy, -0.5 * (dy * y) * (y * y))


def _reciprocal_grad_kernel(xp, y, dy):
    y = _conj_array(xp, y)
    return _zero_where_no_gradient(xp, dy, -y * y * dy)


def _sqrt_grad_grad(op, grad):
    """SqrtGrad(a, b) = 0.5 b / conj(a): d/da = -conj(grad / a) * out, d/db = 0.5 grad / a (TF's rule)."""
    a = op._inputs[0]
    ga = realdiv(grad, a)
    return [multiply(negative(_conj(ga)), op._outputs[0]), multiply(ga, 0.5)]


def _rsqrt_grad_grad(op, grad):
    """RsqrtGrad(a, b) = -0.5 b conj(a)^3: d/da = -1.5 conj(grad) b conj(a)^2, d/db = RsqrtGrad(conj(a), grad)."""
    a, b = op._inputs
    ca = _conj(a)
    return [multiply(multiply(multiply(_conj(grad), -1.5), b), square(ca)), ops.apply_op("RsqrtGrad", [ca, grad])]


def _reciprocal_grad_grad(op, grad):
    """ReciprocalGrad(a, b) = -b conj(a)^2: d/da = -2 conj(grad) b conj(a), d/db = ReciprocalGrad(conj(a), grad)."""
    a, b = op._inputs
    ca = _conj(a)
    return [multiply(multiply(multiply(_conj(grad), -2.0), b), ca), ops.apply_op("ReciprocalGrad", [ca, grad])]


for _op_type, _kernel, _grad in [("SqrtGrad", _sqrt_grad_kernel, _sqrt_grad_grad),
                                 ("RsqrtGrad", _rsqrt_grad_kernel, _rsqrt_grad_grad),
                                 ("ReciprocalGrad", _reciprocal_grad_kernel, _reciprocal_grad_grad)]:
    register_op(_op_type, infer=core_ops.same_as_input, kernel=_kernel, grad=_grad, gpu=True, elementwise=True)


def _tanh_grad_grad(op, grad):
    """TanhGrad(y, dy) = dy (1 - y^2): d/dy = -2 grad dy conj(y), d/ddy = TanhGrad(y, grad)."""
    y, dy = (_conj(t) for t in op._inputs)
    return [multiply(multiply(grad, -2.0), multiply(dy, y)), ops.apply_op("TanhGrad", [op._inputs[0], grad])]


def _sigmoid_grad_grad(op, grad):
    """SigmoidGrad(y, dy) = dy y (1 - y): d/dy = grad dy (1 - 2y), d/ddy = SigmoidGrad(y, grad)."""
    y, dy = (_conj(t) for t in op._inputs)
    gb = multiply(grad, dy)
    return [subtract(gb, multiply(multiply(gb, 2.0), y)), ops.apply_op("SigmoidGrad", [op._inputs[0], grad])]


register_op("TanhGrad", infer=core_ops.same_as_input, kernel=_tanh_grad_kernel, grad=_tanh_grad_grad,
            elementwise=True)
register_op("SigmoidGrad", infer=core_ops.same_as_input, kernel=_sigmoid_grad_kernel, grad=_sigmoid_grad_grad,
            elementwise=True)


def _erf_grad(op, grad):
    """d erf(x) = grad * 2/sqrt(pi) * e^(-x^2)."""
    x = op._inputs[0]
    return [multiply(grad, multiply(2 / math.sqrt(math.pi), exp(negative(square(x)))))]


def _erfc_grad(op, grad):
    """d erfc(x) = -grad * 2/sqrt(pi) * e^(-x^2)."""
    x = op._inputs[0]
    return [multiply(grad, multiply(-2 / math.sqrt(math.pi), exp(negative(square(x)))))]


def _no_grad(op, grad):
    """Piecewise constant: no gradient (None), as TF."""
    return [None]


negative = _unary("Neg", lambda xp, x: -x, _neg_grad, _SIGNED,
                  "Computes numerical negative value element-wise: y = -x.")
_abs_real = _unary("Abs", lambda xp, x: xp.abs(x), _abs_grad, _SIGNED_REAL,
                   "Computes the absolute value of a tensor: y = |x|.")
sign = _unary("Sign", lambda xp, x: xp.sign(x), _zero_grad, _SIGNED,
              "Returns an element-wise indication of the sign of a number: -1, 0 or 1 (x/|x| for complex).")
square = _unary("Square", lambda xp, x: xp.square(x), _square_grad, _NUMERIC,
                "Computes square of x element-wise: y = x * x.")
sqrt = _unary("Sqrt", lambda xp, x: xp.sqrt(x), _sqrt_grad, _FLOAT_COMPLEX,
              "Computes square root of x element-wise.")
rsqrt = _unary("Rsqrt", lambda xp, x: 1 / xp.sqrt(x), _rsqrt_grad, _FLOAT_COMPLEX,
               "Computes reciprocal of square root of x element-wise: y = 1 / sqrt(x).")
reciprocal = _unary("Reciprocal", lambda xp, x: 1 / x, _reciprocal_grad, _SIGNED,
                    "Computes the reciprocal of x element-wise: y = 1 / x.\n\n    As in TF, integer tensors are "
                    "accepted but have no kernel: running the op raises InvalidArgumentError.")
exp = _unary("Exp", lambda xp, x: xp.exp(x), _exp_grad, _FLOAT_COMPLEX,
             "Computes exponential of x element-wise: y = e^x.")
log = _unary("Log", lambda xp, x: xp.log(x), _log_grad, _FLOAT_COMPLEX,
             "Computes natural logarithm of x element-wise.")
log1p = _unary("Log1p", lambda xp, x: xp.log1p(x), _log1p_grad, _FLOAT_COMPLEX,
               "Computes natural logarithm of (1 + x) element-wise.")
expm1 = _unary("Expm1", lambda xp, x: xp.expm1(x), _expm1_grad, _FLOAT_COMPLEX,
               "Computes exponential of x - 1 element-wise: y = e^x - 1.")
sin = _unary("Sin", lambda xp, x: xp.sin(x), _sin_grad, _FLOAT_COMPLEX, "Computes sine of x element-wise.")
cos = _unary("Cos", lambda xp, x: xp.cos(x), _cos_grad, _FLOAT_COMPLEX, "Computes cos of x element-wise.")
tan = _unary("Tan", lambda xp, x: xp.tan(x), _tan_grad, _FLOAT_COMPLEX, "Computes tan of x element-wise.")
asin = _unary("Asin", lambda xp, x: xp.arcsin(x), _asin_grad, _FLOAT_COMPLEX,
              "Computes the trigonometric inverse sine of x element-wise.")
acos = _unary("Acos", lambda xp, x: xp.arccos(x), _acos_grad, _FLOAT_COMPLEX,
              "Computes acos of x element-wise.")
atan = _unary("Atan", lambda xp, x: xp.arctan(x), _atan_grad, _FLOAT_COMPLEX,
              "Computes the trigonometric inverse tangent of x element-wise.")
sinh = _unary("Sinh", lambda xp, x: xp.sinh(x), _sinh_grad, _FLOAT_COMPLEX,
              "Computes hyperbolic sine of x element-wise.")
cosh = _unary("Cosh", lambda xp, x: xp.cosh(x), _cosh_grad, _FLOAT_COMPLEX,
              "Computes hyperbolic cosine of x element-wise.")
asinh = _unary("Asinh", lambda xp, x: xp.arcsinh(x), _asinh_grad, _FLOAT_COMPLEX,
               "Computes inverse hyperbolic sine of x element-wise.")
acosh = _unary("Acosh", lambda xp, x: xp.arccosh(x), _acosh_grad, _FLOAT_COMPLEX,
               "Computes inverse hyperbolic cosine of x element-wise.")
atanh = _unary("Atanh", lambda xp, x: xp.arctanh(x), _atanh_grad, _FLOAT_COMPLEX,
               "Computes inverse hyperbolic tangent of x element-wise.")
tanh = _unary("Tanh", lambda xp, x: xp.tanh(x), _tanh_grad, _FLOAT_COMPLEX,
              "Computes hyperbolic tangent of x element-wise.")
sigmoid = _unary("Sigmoid", lambda xp, x: (_sigmoid_complex_kernel if x.dtype.kind == "c" else _sigmoid_kernel)(xp, x),
                 _sigmoid_grad, _FLOAT_COMPLEX, "Computes sigmoid of x element-wise: y = 1 / (1 + exp(-x)).")
erf = _unary("Erf", _erf_kernel(math.erf), _erf_grad, _FLOAT, "Computes the Gauss error function of x element-wise.")
erfc = _unary("Erfc", _erf_kernel(math.erfc), _erfc_grad, _FLOAT,
              "Computes the complementary error function of x element-wise.")
floor = _unary("Floor", lambda xp, x: xp.floor(x), _no_grad, _FLOAT,
               "Returns element-wise largest integer not greater than x.")
ceil = _unary("Ceil", lambda xp, x: xp.ceil(x), _no_grad, _FLOAT,
              "Returns element-wise smallest integer not less than x.")
rint = _unary("Rint", lambda xp, x: xp.rint(x), _no_grad, _FLOAT,
              "Returns element-wise integer closest to x, halves to even.\n\n    As in TF, float16 has no "
              "kernel: running the op on it raises InvalidArgumentError.")
_round_float = _unary("Round", lambda xp, x: xp.round(x), _no_grad, _FLOAT_COMPLEX,
                      "Rounds the values of a tensor to the nearest integer, element-wise (banker's rounding).")


def abs(x, name=None):  # noqa: A001 (TF's name)
    """Computes the absolute value of a tensor: |x| (the magnitude, as float, for complex x).

    Args:
      x: A `Tensor` of type float16, float32, float64, int8, int16, int32, int64, complex64 or
        complex128 (TF has no Abs of unsigned types).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same type as `x` (its real type for complex `x`).

    Raises:
      TypeError: If `x` has another type.
    """
    with _op_scope(name, "Abs", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            return ops.apply_op("ComplexAbs", [x], {"Tout": x.dtype.real_dtype}, name=scope)
        return _abs_real(x, name=scope)


def _complex_abs_grad(op, grad):
    """d|z| = grad * z / |z| (0 where z = 0)."""
    x = op._inputs[0]
    return [div_no_nan(multiply(cast(grad, x.dtype), x), cast(op._outputs[0], x.dtype))]


register_op("ComplexAbs", infer=lambda op: [(op._attrs["Tout"], op._inputs[0]._shape.as_tuple())],
            kernel=lambda xp, x, Tout: xp.abs(x).astype(Tout.as_numpy_dtype, copy=False),
            grad=_complex_abs_grad, gpu=True)


def round(x, name=None):  # noqa: A001 (TF's name)
    """Rounds the values of a tensor to the nearest integer, element-wise; halves go to the
    nearest even integer (banker's rounding). Integer tensors are returned unchanged; complex ones
    build a Round op that, as in TF, has no kernel (running it raises InvalidArgumentError).

    Args:
      x: A numeric `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape and type as `x`.
    """
    x = ops.convert_to_tensor(x, name="x")
    if x.dtype.is_integer:
        return x
    return _round_float(x, name=name)


def _conj_grad(op, grad):
    """d conj(z) = conj(grad)."""
    return [conj(grad)]


register_op("Conj", infer=core_ops.same_as_input, kernel=lambda xp, x: xp.conj(x), grad=_conj_grad, gpu=True)


def conj(x, name=None):
    """Returns the complex conjugate of `x` (`x` itself for real types).

    Args:
      x: A `Tensor`.
      name: A name for the operation (optional).

    Returns:
      The conjugate, same dtype.

    Raises:
      TypeError: If `x` is not numeric.
    """
    with _op_scope(name, "Conj", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            return ops.apply_op("Conj", [x], name=scope)
        if x.dtype.is_floating or x.dtype.is_integer:
            return x
        raise TypeError("Expected numeric tensor, got dtype %r" % x.dtype)


def _bool_unary_infer(op):
    return [(dtypes.bool_, op._inputs[0]._shape.as_tuple())]


for _op_type, _kernel in [
        ("IsNan", lambda xp, x: xp.isnan(x)),
        ("IsInf", lambda xp, x: xp.isinf(x)),
        ("IsFinite", lambda xp, x: xp.isfinite(x)),
        ("LogicalNot", lambda xp, x: xp.logical_not(x))]:
    register_op(_op_type, infer=_bool_unary_infer, kernel=_kernel, grad=NO_GRADIENT, gpu=True, elementwise=True,
                ufunc={"IsNan": "isnan", "IsInf": "isinf", "IsFinite": "isfinite"}.get(_op_type, "logical_not"),
                # logical_not of bools; NumPy's bool scalars take the fast path for `^`, not for `~`
                inline=("({0} ^ {true})", {"true": np.True_}) if _op_type == "LogicalNot" else None)


def _bool_unary(op_type, x, name, allowed):
    with _op_scope(name, op_type, [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        _check_dtype(x, allowed)
        return ops.apply_op(op_type, [x], name=scope)


def is_nan(x, name=None):
    """Returns which elements of x are NaN (a bool tensor).

    Raises:
      TypeError: If `x` is not floating point.
    """
    return _bool_unary("IsNan", x, name, _FLOAT)


def is_inf(x, name=None):
    """Returns which elements of x are +/-Inf (a bool tensor).

    Raises:
      TypeError: If `x` is not floating point.
    """
    return _bool_unary("IsInf", x, name, _FLOAT)


def is_finite(x, name=None):
    """Returns which elements of x are finite (a bool tensor).

    Raises:
      TypeError: If `x` is not floating point.
    """
    return _bool_unary("IsFinite", x, name, _FLOAT)


def logical_not(x, name=None):
    """Returns the truth value of NOT x element-wise.

    Raises:
      TypeError: If `x` is not bool.
    """
    return _bool_unary("LogicalNot", x, name, _BOOL)


# ---- Cast ----------------------------------------------------------------------------------
_TF_NAMES = {dtypes.float16: "half", dtypes.float32: "float", dtypes.float64: "double"}  # DataTypeString


def _cast_infer(op):
    return [(op._attrs["DstT"], op._inputs[0]._shape.as_tuple())]


def _cast_kernel(xp, x, SrcT, DstT, Truncate):  # noqa: N803 (TF's attr names)
    if SrcT is dtypes.string or DstT is dtypes.string:
        raise errors.UnimplementedError(None, None, "Cast %s to %s is not supported"
                                        % (_TF_NAMES.get(SrcT, SrcT.name), _TF_NAMES.get(DstT, DstT.name)))
    if x.dtype.kind == "c" and not DstT.is_complex:
        x = x.real
    return x.astype(DstT.as_numpy_dtype)


def _cast_grad(op, grad):
    """d cast(x) = cast(grad) back to x's type when both types are floating/complex, else None."""
    src = op._inputs[0].dtype
    dst = grad.dtype
    if (src.is_floating or src.is_complex) and (dst.is_floating or dst.is_complex):
        return [cast(grad, src)]
    return [None]


def _cast_inline(op):
    """The kernel's `x.astype(dtype)`, where it is just that; as faster operators with the same
    result where there is one (`astype` of a NumPy scalar costs ~0.6 us, a scalar operator ~0.1 us):
    `x != 0` to bool, `x * 1` of the target type where NumPy's promotion gives that type from
    non-complex types (the value converted as `astype` does, and multiplied by 1 exactly)."""
    src, dst = op._attrs["SrcT"], op._attrs["DstT"]
    if any(t is dtypes.string or t.is_quantized or not t.is_numpy_compatible for t in (src, dst)):
        return None
    if src.is_complex and not dst.is_complex:
        return None
    s, d = np.dtype(src.as_numpy_dtype), np.dtype(dst.as_numpy_dtype)
    if d.kind == "b":
        return "({0} != {zero})", {"zero": s.type(0)}
    if s.kind in "biuf" and d.kind in "iuf" and np.result_type(s, d) == d:
        return "({0} * {one})", {"one": d.type(1)}
    return "{0}.astype({dtype})", {"dtype": d}


register_op("Cast", infer=_cast_infer, kernel=_cast_kernel, grad=_cast_grad, gpu=True, elementwise=True,
            inline=_cast_inline)


def cast(x, dtype, name=None):
    """Casts a tensor (or the values of an `IndexedSlices` or `SparseTensor`) to a new type.

    Floating point to integer casts truncate toward zero; complex to real drops the imaginary part.
    A `Tensor` that already has type `dtype` is returned as is.

    Args:
      x: A `Tensor`, `IndexedSlices`, `SparseTensor` or value.
      dtype: The destination type.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` (or `IndexedSlices`, `SparseTensor`) of type `dtype`.

    Raises:
      TypeError: If `dtype` is not a valid type.
    """
    base = dtypes.as_dtype(dtype)
    if isinstance(x, ops.Tensor) and x.dtype is base:
        return x
    with _op_scope(name, "Cast", [x]) as scope:
        if isinstance(x, IndexedSlices):
            return IndexedSlices(cast(x.values, base, name=scope), x.indices, x.dense_shape)
        if isinstance(x, SparseTensor):
            return SparseTensor(x.indices, cast(x.values, base, name=scope), x.dense_shape)
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype is base:
            return x
        return ops.apply_op("Cast", [x], {"SrcT": x.dtype, "DstT": base, "Truncate": False}, name=scope)


def to_float(x, name="ToFloat"):
    """Casts a tensor to type float32."""
    return cast(x, dtypes.float32, name=name)


def to_double(x, name="ToDouble"):
    """Casts a tensor to type float64."""
    return cast(x, dtypes.float64, name=name)


def to_int32(x, name="ToInt32"):
    """Casts a tensor to type int32."""
    return cast(x, dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
    """Casts a tensor to type int64."""
    return cast(x, dtypes.int64, name=name)


def saturate_cast(value, dtype, name=None):
    """Performs a safe saturating cast of `value` to `dtype`: values outside the range of `dtype`
    are clamped to its min/max before casting.

    Args:
      value: A `Tensor`.
      dtype: The desired output `DType`.
      name: A name for the operation (optional).

    Returns:
      `value` safely cast to `dtype`.
    """
    with _op_scope(name, "saturate_cast", [value]) as scope:
        value = ops.convert_to_tensor(value, name="value")
        dtype = dtypes.as_dtype(dtype)
        if value.dtype.min < dtype.min:
            value = maximum(value, ops.convert_to_tensor(dtype.min, dtype=value.dtype, name="min"))
        if value.dtype.max > dtype.max:
            value = minimum(value, ops.convert_to_tensor(dtype.max, dtype=value.dtype, name="max"))
        return cast(value, dtype, name=scope)


# Names from modules of the family that also import names of this one (a cycle): bound here,
# after this module's own names exist, and only called at run time.
from .math_binary_ops import add, div_no_nan, maximum, minimum, multiply, realdiv, subtract  # noqa: E402
