"""Math ops: element-wise binary arithmetic with broadcasting (add, subtract, multiply, the
divisions, pow, maximum/minimum, ...), comparisons and logical ops."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import NO_GRADIENT, register_op
from . import core_ops
from .math_helpers import (
    _ALL,
    _BOOL,
    _COMPLEX,
    _FLOAT,
    _FLOAT_COMPLEX,
    _INT32_64,
    _NUMERIC,
    _REAL,
    _TRANSCENDENTAL,
    _binary,
    _broadcast_infer,
    _check_dtype,
    _check_int_divisor,
    _compare_infer,
    _convert_same,
    _is_python_value,
    _no_kernel,
    _op_scope,
)


# ---- element-wise binary ops ---------------------------------------------------------------
def _needed(op):
    """(x wanted, y wanted): False for an input whose gradient nobody needs (`op.skip_input_indices`)."""
    skip = op.skip_input_indices
    return (True, True) if not skip else (0 not in skip, 1 not in skip)


def _add_grad(op, grad):
    """d(x + y) = (grad, grad), each summed over the axes it was broadcast along."""
    x, y = op._inputs
    nx, ny = _needed(op)
    return [core_ops.unbroadcast(grad, x) if nx else None, core_ops.unbroadcast(grad, y) if ny else None]


def _sub_grad(op, grad):
    """d(x - y) = (grad, -grad), each summed over its broadcast axes."""
    x, y = op._inputs
    nx, ny = _needed(op)
    return [core_ops.unbroadcast(grad, x) if nx else None, core_ops.unbroadcast(negative(grad), y) if ny else None]


def _mul_grad(op, grad):
    """d(x * y) = (grad * conj(y), conj(x) * grad), each summed over its broadcast axes."""
    x, y = op._inputs
    nx, ny = _needed(op)
    return [core_ops.unbroadcast(multiply(grad, _conj(y)), x) if nx else None,
            core_ops.unbroadcast(multiply(_conj(x), grad), y) if ny else None]


def _real_div_grad(op, grad):
    """d(x / y) = (grad / y, -grad * x / y^2), each summed over its broadcast axes."""
    x, y = (_conj(t) for t in op._inputs)
    nx, ny = _needed(op)
    gx = core_ops.unbroadcast(realdiv(grad, y), op._inputs[0]) if nx else None
    gy = core_ops.unbroadcast(multiply(grad, realdiv(realdiv(negative(x), y), y)), op._inputs[1]) if ny else None
    return [gx, gy]


def _div_no_nan_grad(op, grad):
    """d div_no_nan(x, y) = (div_no_nan(grad, y), grad * div_no_nan(-x / y, y))."""
    x, y = (_conj(t) for t in op._inputs)
    gx = div_no_nan(grad, y)
    gy = multiply(grad, div_no_nan(div_no_nan(negative(x), y), y))
    return [core_ops.unbroadcast(gx, op._inputs[0]), core_ops.unbroadcast(gy, op._inputs[1])]


def _floor_mod_grad(op, grad):
    """d floormod(x, y) = (grad, -grad * floor(x / y)), each summed over its broadcast axes."""
    x, y = op._inputs
    gy = multiply(grad, negative(floor_div(x, y)))
    return [core_ops.unbroadcast(grad, x), core_ops.unbroadcast(gy, y)]


def _pow_grad(op, grad):
    """d x^y = (grad * y * x^(y-1), grad * x^y * log(x)), with log(x) taken as 0 where x <= 0."""
    from .array_ops import where
    x, y = op._inputs
    if x.dtype.is_integer:
        return [None, None]  # integers are not differentiable (TF's tf.gradients gives None)
    z = op._outputs[0]
    gx = multiply(grad, multiply(y, pow(x, subtract(y, 1))))
    mask = not_equal(x, 0) if x.dtype.is_complex else greater(x, 0)
    safe_x = where(mask, x, core_ops.ones_like(x))
    log_x = where(mask, log(safe_x), core_ops.zeros_like(x))
    gy = multiply(grad, multiply(_conj(z), _conj(log_x)))
    return [core_ops.unbroadcast(gx, x), core_ops.unbroadcast(gy, y)]


def _max_min_grad(selector):
    def grad_fn(op, grad):
        from .array_ops import where
        x, y = op._inputs
        xmask = selector(x, y)
        zeros = core_ops.zeros_like(grad)
        gx = where(xmask, grad, zeros)
        gy = where(xmask, zeros, grad)
        return [core_ops.unbroadcast(gx, x), core_ops.unbroadcast(gy, y)]
    return grad_fn


_maximum_grad = _max_min_grad(lambda x, y: greater_equal(x, y))
_maximum_grad.__doc__ = "d max(x, y) = grad to x where x >= y, else to y."
_minimum_grad = _max_min_grad(lambda x, y: less_equal(x, y))
_minimum_grad.__doc__ = "d min(x, y) = grad to x where x <= y, else to y."


def _squared_difference_grad(op, grad):
    """d (x - y)^2 = (2 grad (x - y), -2 grad (x - y)), each summed over its broadcast axes."""
    x, y = op._inputs
    gx = multiply(multiply(2, grad), subtract(x, y))
    return [core_ops.unbroadcast(gx, x), core_ops.unbroadcast(negative(gx), y)]


def _atan2_grad(op, grad):
    """d atan2(y, x) = (grad x / (x^2 + y^2), -grad y / (x^2 + y^2))."""
    y, x = op._inputs
    grad_inv = realdiv(grad, add(square(x), square(y)))
    return [core_ops.unbroadcast(multiply(x, grad_inv), y), core_ops.unbroadcast(multiply(negative(y), grad_inv), x)]


def _floor_div_kernel(xp, x, y):
    if x.dtype.kind == "c":
        raise _no_kernel("FloorDiv", x.dtype, _REAL)
    _check_int_divisor(x, y)
    return xp.floor_divide(x, y) if x.dtype.kind in "iu" else xp.floor(x / y)


def _floor_mod_kernel(xp, x, y):
    _check_int_divisor(x, y)
    if x.dtype.kind in "iu":
        return xp.mod(x, y)
    t = xp.fmod(x, y)  # TF's float floor-mod keeps fmod's sign of zero
    return xp.where((t != 0) & ((y < 0) != (t < 0)), t + y, t)


def _truncate_div_kernel(xp, x, y):
    if x.dtype.kind == "c":
        raise _no_kernel("TruncateDiv", x.dtype, _REAL)
    _check_int_divisor(x, y)
    if x.dtype.kind not in "iu":
        return xp.trunc(x / y)
    q = xp.floor_divide(x, y)
    return q + ((q * y != x) & ((x < 0) != (y < 0))).astype(q.dtype)


def _truncate_mod_kernel(xp, x, y):
    if x.dtype.itemsize == 2 and x.dtype.kind == "f":
        raise _no_kernel("TruncateMod", x.dtype, (dtypes.float32, dtypes.float64) + _INT32_64)
    _check_int_divisor(x, y)
    return xp.fmod(x, y)


def _real_div_kernel(xp, x, y):
    if x.dtype.kind in "iu":  # TF's RealDiv has kernels for floating point and complex types only
        raise _no_kernel("RealDiv", x.dtype, _FLOAT_COMPLEX)
    return x / y


def _pow_kernel(xp, x, y):
    try:
        return xp.power(x, y)
    except ValueError:  # NumPy: "Integers to negative integer powers are not allowed."
        if x.dtype.kind in "iu" and bool((y < 0).any()):
            raise errors.InvalidArgumentError(None, None, "Integers to negative integer powers are not allowed") \
                from None
        raise


def _div_no_nan_kernel(xp, x, y):
    return xp.where(y == 0, xp.zeros((), x.dtype), x / xp.where(y == 0, xp.ones((), y.dtype), y))


def _squared_difference_kernel(xp, x, y):
    d = x - y
    return d * xp.conj(d) if d.dtype.kind == "c" else d * d


def _add_kernel(xp, x, y):
    return x + y  # object arrays (strings) concatenate element-wise


# Broadcasting binary ops: (op type, kernel, gradient). Kernels use Python operators where they
# mean the same ufunc: on NumPy scalars they take a fast path (~30 ns instead of ~1 us).
_OPERATOR_EXPR = {"Add": "({0} + {1})", "AddV2": "({0} + {1})", "Sub": "({0} - {1})", "Mul": "({0} * {1})",
                  "Less": "({0} < {1})", "LessEqual": "({0} <= {1})", "Greater": "({0} > {1})",
                  "GreaterEqual": "({0} >= {1})", "LogicalAnd": "({0} & {1})", "LogicalOr": "({0} | {1})"}


# ---- inline expressions of the divisions, min/max and comparisons ----------------------------
# The compiled plan writes these instead of the kernel call (a while loop's body over scalars is
# mostly such ops). Each equals its kernel: same values, dtype and errors. An expression with a
# Python conditional needs scalar inputs (NumPy scalars or 0-d arrays): it is given only when every
# input is statically a scalar, otherwise the kernel runs.
def _scalar_inputs(op):
    return all(t._shape._dims == () for t in op._inputs)


def _int_division_by_zero():
    raise errors.InvalidArgumentError(None, None, "Integer division by zero")  # as _check_int_divisor


def _truncate_div_int(x, y):
    """C's integer `x / y` (toward zero) of two integer scalars, as `_truncate_div_kernel`."""
    if not y:
        _int_division_by_zero()
    q = x // y
    if (x < 0) ^ (y < 0) and q * y != x:  # `^`: NumPy's bools have no fast `!=`
        q += 1
    return q


def _truncate_mod_int(x, y):
    """C's integer `x % y` (the sign of `x`) of two integer scalars, as `_truncate_mod_kernel`."""
    if not y:
        _int_division_by_zero()
    r = x % y  # the sign of y; |r| < |y|, so r - y cannot overflow
    if r and (x < 0) ^ (y < 0):
        r -= y
    return r


_ZERO = {"zero": _int_division_by_zero}


def _kind(op):
    """The inputs' type as a NumPy dtype kind ("f", "i" for all integers, "c", "b"), or None."""
    dt = op._inputs[0]._dtype
    if dt.is_quantized:
        return None
    return "f" if dt.is_floating else "i" if dt.is_integer else "c" if dt.is_complex else "b" if dt.is_bool else None


def _floor_div_inline(op):
    kind = _kind(op)
    if kind == "f":
        return "XP.floor({0} / {1})"
    if kind == "i" and _scalar_inputs(op):
        return "({0} // {1} if {1} else {zero}())", _ZERO
    return None


def _floor_mod_inline(op):
    kind = _kind(op)
    if not _scalar_inputs(op):
        return None
    if kind == "i":
        return "({0} % {1} if {1} else {zero}())", _ZERO
    if kind == "f":
        # NumPy's scalar `%` is the kernel's floor-mod except for a zero result, which takes the
        # sign of y there and fmod's (x's) here; a zero result means x is finite, so x * 0 is it.
        return "({0} % {1} or {0} * 0)"
    return None


def _truncate_div_inline(op):
    kind = _kind(op)
    if kind == "f":
        return "XP.trunc({0} / {1})"
    if kind == "i" and _scalar_inputs(op):
        return "{div}({0}, {1})", {"div": _truncate_div_int}
    return None


def _truncate_mod_inline(op):
    kind = _kind(op)
    if kind == "f" and op._inputs[0]._dtype is not dtypes.float16:  # no float16 kernel in TF
        return "XP.fmod({0}, {1})"
    if kind == "i" and _scalar_inputs(op):
        return "{mod}({0}, {1})", {"mod": _truncate_mod_int}
    return None


def _real_div_inline(op):
    return "({0} / {1})" if _kind(op) in ("f", "c") else None  # integers: no kernel (the kernel raises)


def _max_min_inline(ufunc, compare):
    def inline(op):
        if not _scalar_inputs(op):
            return "XP.%s({0}, {1})" % ufunc
        if _kind(op) != "f":
            return "({0} if {0} %s {1} else {1})" % compare
        # As the ufunc: a NaN operand is the result, and of equal values (zeros of two signs) the
        # ufunc returns y, except for float16 (computed in float32), where it returns x.
        takes_x = compare + "=" if op._inputs[0]._dtype is dtypes.float16 else compare
        return "({0} if {0} %s {1} or {0} != {0} else {1})" % takes_x
    return inline


def _equality_inline(operator):
    template = "({0} %s {1})" % operator
    xor = "({0} ^ {1})" if operator == "!=" else ("({0} ^ {1} ^ {true})", {"true": np.True_})

    def inline(op):
        kind = _kind(op)
        if kind == "b":  # NumPy's bool scalars compare through the ufunc (~1 us), `^` is fast
            return xor
        # String tensors are object arrays: their `==` is not always the ufunc's element-wise one.
        return template if kind in ("i", "f", "c") else None
    return inline


_INLINE = dict(_OPERATOR_EXPR, FloorDiv=_floor_div_inline, FloorMod=_floor_mod_inline,
               TruncateDiv=_truncate_div_inline, TruncateMod=_truncate_mod_inline, RealDiv=_real_div_inline,
               Maximum=_max_min_inline("maximum", ">"), Minimum=_max_min_inline("minimum", "<"),
               Equal=_equality_inline("=="), NotEqual=_equality_inline("!="))
# The `ufunc` trait: the ufunc the kernel (and inline expression) calls on arrays.
_UFUNC = {"Add": "add", "AddV2": "add", "Sub": "subtract", "Mul": "multiply", "Maximum": "maximum",
          "Minimum": "minimum", "RealDiv": lambda op: "divide" if _kind(op) in ("f", "c") else None}
for _op_type, _kernel, _grad in [
        ("Add", _add_kernel, _add_grad),
        ("AddV2", _add_kernel, _add_grad),
        ("Sub", lambda xp, x, y: x - y, _sub_grad),
        ("Mul", lambda xp, x, y: x * y, _mul_grad),
        ("RealDiv", _real_div_kernel, _real_div_grad),
        ("DivNoNan", _div_no_nan_kernel, _div_no_nan_grad),
        ("FloorDiv", _floor_div_kernel, NO_GRADIENT),
        ("FloorMod", _floor_mod_kernel, _floor_mod_grad),
        ("TruncateDiv", _truncate_div_kernel, NO_GRADIENT),
        ("TruncateMod", _truncate_mod_kernel, NO_GRADIENT),
        ("Pow", _pow_kernel, _pow_grad),
        ("Maximum", lambda xp, x, y: xp.maximum(x, y), _maximum_grad),
        ("Minimum", lambda xp, x, y: xp.minimum(x, y), _minimum_grad),
        ("SquaredDifference", _squared_difference_kernel, _squared_difference_grad),
        ("Atan2", lambda xp, y, x: xp.arctan2(y, x), _atan2_grad)]:
    register_op(_op_type, infer=_broadcast_infer, kernel=_kernel, grad=_grad, inline=_INLINE.get(_op_type),
                gpu=True, elementwise=True, transcendental=_op_type in _TRANSCENDENTAL, ufunc=_UFUNC.get(_op_type))


def _binary_op(func_name, op_type, allowed, summary, default_name=None, returns_bool=False):
    """The public constructor `func_name(x, y, name=None)` of broadcasting binary op `op_type`
    (`_binary`), with a TF-style docstring made of `summary` and the `allowed` dtypes."""
    def fn(x, y, name=None):
        return _binary(op_type, x, y, name, allowed, default_name)

    fn.__name__ = fn.__qualname__ = func_name
    fn.__module__ = __name__
    fn.__doc__ = ("%s\n\n    Args:\n      x: A `Tensor` of type %s.\n      y: A `Tensor` of the same type as `x` "
                  "(Python values are converted to it).\n      name: A name for the operation (optional).\n\n"
                  "    Returns:\n      %s\n\n    Raises:\n      TypeError: If the dtypes of `x` and `y` differ or are "
                  "not among those listed.\n      ValueError: If the shapes of `x` and `y` cannot be broadcast.\n"
                  % (summary, ", ".join(d.name for d in allowed),
                     "A `Tensor` of type bool." if returns_bool else "A `Tensor`. Has the same type as `x`."))
    return fn


add = _binary_op("add", "Add", _NUMERIC + (dtypes.string,), "Returns x + y element-wise, with broadcasting.")


def _add_v2(x, y, name=None):
    """`x + y` for the `+` operator (op type AddV2, as TF 1.15; Add for strings)."""
    with _op_scope(name, "AddV2", [x, y]) as scope:
        x, y = _convert_same([x, y], ("x", "y"), "AddV2")
        if x.dtype is dtypes.string:
            return ops.apply_op("Add", [x, y], name=scope)
        _check_dtype(x, _NUMERIC)
        return ops.apply_op("AddV2", [x, y], name=scope)


subtract = _binary_op("subtract", "Sub", _NUMERIC, "Returns x - y element-wise, with broadcasting.")
multiply = _binary_op("multiply", "Mul", _NUMERIC, "Returns x * y element-wise, with broadcasting.")
_NO_KERNEL_NOTE = ("\n\n    As in TF, %s are accepted but have no kernel: running the op on them raises "
                   "InvalidArgumentError.")
realdiv = _binary_op("realdiv", "RealDiv", _NUMERIC, "Returns x / y element-wise, with broadcasting."
                     + _NO_KERNEL_NOTE % "integer types")
floor_div = _binary_op("floor_div", "FloorDiv", _NUMERIC, "Returns floor(x / y) element-wise (the FloorDiv op)."
                       + _NO_KERNEL_NOTE % "complex types")
floordiv = _binary_op("floordiv", "FloorDiv", _NUMERIC,
                      "Divides `x / y` element-wise, rounding toward the most negative integer (Python's `//`)."
                      + _NO_KERNEL_NOTE % "complex types", default_name="floordiv")
floormod = _binary_op("floormod", "FloorMod", _REAL,
                      "Returns the element-wise remainder of `x // y`, with the sign of `y` (Python's `%`).")
mod = floormod
truncatediv = _binary_op("truncatediv", "TruncateDiv", _NUMERIC, "Returns x / y element-wise, rounded toward zero."
                         + _NO_KERNEL_NOTE % "complex types")
truncatemod = _binary_op("truncatemod", "TruncateMod", _FLOAT + _INT32_64,
                         "Returns the element-wise remainder of division rounded toward zero (C's `fmod`)."
                         + _NO_KERNEL_NOTE % "float16 tensors")


def _true_div_cast(dtype):
    """The floating point type TF's true division computes integers of `dtype` in (None: `dtype` itself)."""
    if dtype in (dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16):
        return dtypes.float32
    if dtype in (dtypes.int32, dtypes.int64):
        return dtypes.float64
    return None


# The types `div_no_nan` accepts, in the order TF's message lists them.
_DIV_NO_NAN_TYPES = ((dtypes.uint8, dtypes.int8, dtypes.uint16, dtypes.int16, dtypes.int32, dtypes.int64)
                     + _FLOAT_COMPLEX)


def div_no_nan(x, y, name=None):
    """Computes a safe divide which returns 0 if `y` (denominator) is zero.

    Integer inputs are divided in floating point, as `truediv` does (int8/int16/uint8/uint16 in
    float32, int32/int64 in float64).

    Args:
      x: A `Tensor` of a numeric type.
      y: A `Tensor` of the same type as `x` (Python values are converted to it).
      name: A name for the operation (optional).

    Returns:
      The element-wise value of `x / y`, 0 where `y` is 0 (floating point for integer inputs).

    Raises:
      TypeError: If `x` and `y` have different dtypes, or a dtype that is not numeric.
      ValueError: If the shapes of `x` and `y` cannot be broadcast.
    """
    with _op_scope(name, "div_no_nan", [x, y]) as scope:
        if _is_python_value(x) and not _is_python_value(y):
            y = ops.convert_to_tensor(y, name="y")
            x = ops.convert_to_tensor(x, name="x", preferred_dtype=y.dtype)
        else:
            x = ops.convert_to_tensor(x, name="x")
            y = ops.convert_to_tensor(y, name="y", preferred_dtype=x.dtype)
        if x.dtype is not y.dtype:
            raise TypeError("`x` and `y` must have the same dtype, got %r != %r." % (x.dtype, y.dtype))
        if x.dtype not in _DIV_NO_NAN_TYPES:
            raise TypeError("Invalid dtype %r in tf.math.divide_no_nan. Expected one of {%s}."
                            % (x.dtype, ", ".join(repr(d) for d in _DIV_NO_NAN_TYPES)))
        dt = _true_div_cast(x.dtype)
        if dt is not None:
            x = cast(x, dt)
            y = cast(y, dt)
        return ops.apply_op("DivNoNan", [x, y], name=scope)


def truediv(x, y, name=None):
    """Divides x / y elementwise, always producing floating point results (Python 3 division).

    int8/int16/uint8/uint16 inputs are cast to float32, int32/int64 to float64 first.

    Args:
      x: A numeric `Tensor`.
      y: A `Tensor` of the same type as `x`.
      name: A name for the operation (optional).

    Returns:
      `x / y` evaluated in floating point.

    Raises:
      TypeError: If `x` and `y` have different dtypes.
    """
    with _op_scope(name, "truediv", [x, y]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", preferred_dtype=x.dtype)
        if x.dtype is not y.dtype:
            raise TypeError("x and y must have the same dtype, got %r != %r" % (x.dtype, y.dtype))
        _check_dtype(x, _NUMERIC)
        dt = _true_div_cast(x.dtype)
        if dt is not None:
            x = cast(x, dt)
            y = cast(y, dt)
        return ops.apply_op("RealDiv", [x, y], name=scope)


def divide(x, y, name=None):
    """Computes Python style division of `x` by `y` (`x / y`: true division).

    Raises:
      TypeError: If `x` and `y` have different dtypes.
    """
    return truediv(x, y, name=name)


def div(x, y, name=None):
    """Divides x / y elementwise using Python 2 rules: floor division for integers, true division
    for floating point (deprecated in TF in favour of truediv/floordiv).

    Args:
      x: A numeric `Tensor`.
      y: A `Tensor` of the same type as `x`.
      name: A name for the operation (optional).

    Returns:
      `x / y` returns the quotient of x and y.

    Raises:
      TypeError: If `x` and `y` have different dtypes.
    """
    with _op_scope(name, "div", [x, y]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", preferred_dtype=x.dtype)
        if x.dtype is not y.dtype:
            raise TypeError("x and y must have the same dtype, got %r != %r" % (x.dtype, y.dtype))
        _check_dtype(x, _NUMERIC)
        op_type = "RealDiv" if x.dtype.is_floating or x.dtype.is_complex else "FloorDiv"
        return ops.apply_op(op_type, [x, y], name=scope)


pow = _binary_op("pow", "Pow", _FLOAT + (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64) + _COMPLEX,
                 "Computes the power of one value to another: x^y element-wise, with broadcasting.")
maximum = _binary_op("maximum", "Maximum", _REAL, "Returns the element-wise max of x and y, with broadcasting.")
minimum = _binary_op("minimum", "Minimum", _REAL, "Returns the element-wise min of x and y, with broadcasting.")
squared_difference = _binary_op("squared_difference", "SquaredDifference", _FLOAT + _INT32_64 + _COMPLEX,
                                "Returns (x - y)(x - y) element-wise, with broadcasting.")


def atan2(y, x, name=None):
    """Computes arctangent of `y/x` element-wise, respecting the signs of the arguments.

    Raises:
      TypeError: If the dtypes differ or are not floating point.
    """
    return _binary("Atan2", y, x, name, _FLOAT, names=("y", "x"))


def scalar_mul(scalar, x, name=None):
    """Multiplies a scalar by a `Tensor` or `IndexedSlices`.

    Args:
      scalar: A 0-D scalar `Tensor` or value, converted to `x`'s dtype.
      x: A `Tensor` or `IndexedSlices`.
      name: A name for the operation (optional).

    Returns:
      `scalar * x` of the same type (`Tensor` or `IndexedSlices`) as `x`.

    Raises:
      ValueError: If `scalar` is not a 0-D scalar.
    """
    scalar = ops.convert_to_tensor(scalar, dtype=x.dtype, name="scalar")
    if scalar.shape.ndims != 0:
        raise ValueError("Only scalar multiply works, got shape %s" % scalar.shape)
    if isinstance(x, IndexedSlices):
        return IndexedSlices(multiply(scalar, x.values, name), x.indices, x.dense_shape)
    return multiply(scalar, x, name)


# ---- comparisons and logical ops -----------------------------------------------------------
_COMPARE_UFUNC = {"Equal": "equal", "NotEqual": "not_equal", "Less": "less", "LessEqual": "less_equal",
                  "Greater": "greater", "GreaterEqual": "greater_equal", "LogicalAnd": "logical_and",
                  "LogicalOr": "logical_or"}
for _op_type, _kernel in [
        ("Equal", lambda xp, x, y: xp.equal(x, y)),
        ("NotEqual", lambda xp, x, y: xp.not_equal(x, y)),
        ("Less", lambda xp, x, y: x < y),
        ("LessEqual", lambda xp, x, y: x <= y),
        ("Greater", lambda xp, x, y: x > y),
        ("GreaterEqual", lambda xp, x, y: x >= y),
        ("LogicalAnd", lambda xp, x, y: xp.logical_and(x, y)),
        ("LogicalOr", lambda xp, x, y: xp.logical_or(x, y))]:
    register_op(_op_type, infer=_compare_infer, kernel=_kernel, grad=NO_GRADIENT, inline=_INLINE.get(_op_type),
                gpu=True, elementwise=True, ufunc=_COMPARE_UFUNC[_op_type])


equal = _binary_op("equal", "Equal", _ALL,
                   "Returns the truth value of (x == y) element-wise, with broadcasting.", returns_bool=True)
not_equal = _binary_op("not_equal", "NotEqual", _ALL,
                       "Returns the truth value of (x != y) element-wise, with broadcasting.", returns_bool=True)
less = _binary_op("less", "Less", _REAL,
                  "Returns the truth value of (x < y) element-wise, with broadcasting.", returns_bool=True)
less_equal = _binary_op("less_equal", "LessEqual", _REAL,
                        "Returns the truth value of (x <= y) element-wise, with broadcasting.", returns_bool=True)
greater = _binary_op("greater", "Greater", _REAL,
                     "Returns the truth value of (x > y) element-wise, with broadcasting.", returns_bool=True)
greater_equal = _binary_op("greater_equal", "GreaterEqual", _REAL,
                           "Returns the truth value of (x >= y) element-wise, with broadcasting.", returns_bool=True)
logical_and = _binary_op("logical_and", "LogicalAnd", _BOOL,
                         "Returns the truth value of x AND y element-wise, with broadcasting.", returns_bool=True)
logical_or = _binary_op("logical_or", "LogicalOr", _BOOL,
                        "Returns the truth value of x OR y element-wise, with broadcasting.", returns_bool=True)


def logical_xor(x, y, name="LogicalXor"):
    """Returns the truth value of x XOR y element-wise: (x | y) & ~(x & y).

    Raises:
      TypeError: If the inputs are not bool.
    """
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


# Names from modules of the family that also import names of this one (a cycle): bound here,
# after this module's own names exist, and only called at run time.
from .math_unary_ops import _conj, cast, log, logical_not, negative, square  # noqa: E402
