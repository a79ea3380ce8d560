"""Math ops: element-wise arithmetic with broadcasting, unary functions, matmul/tensordot/einsum,
reductions, arg-max/min, cumulative sums and products, casts, comparisons, logical ops, and the
arithmetic/comparison operators of `tf.Tensor`."""

import math
import numbers
import string

import numpy as np

from ..framework import dtypes, errors, ops, tensor_util
from ..framework.constant_op import constant
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import NO_GRADIENT, register_op
from . import core_ops

_FLOAT = (dtypes.float16, dtypes.float32, dtypes.float64)
_COMPLEX = (dtypes.complex64, dtypes.complex128)
_INT = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16)
_REAL = _FLOAT + _INT
_NUMERIC = _REAL + _COMPLEX
_FLOAT_COMPLEX = _FLOAT + _COMPLEX
_BOOL = (dtypes.bool_,)
_ALL = _NUMERIC + (dtypes.bool_, dtypes.string)


# ---- helpers shared by every op of the family ---------------------------------------------
class _op_scope:  # noqa: N801 (used like a function in `with`)
    """Enters the graph of `values` and the op's name scope (gives the scope, ending in "/")."""

    __slots__ = ("_default", "_scope")

    def __init__(self, name, default_name, values):
        g = ops._graph_of(values)
        self._default = g.as_default()
        self._scope = g.name_scope(default_name if name is None else name)

    def __enter__(self):
        self._default.__enter__()
        try:
            return self._scope.__enter__()
        except BaseException:
            self._default.__exit__(None, None, None)
            raise

    def __exit__(self, *exc):
        self._scope.__exit__(*exc)
        self._default.__exit__(*exc)


def _is_python_value(v):
    if type(v) is ops.Tensor:
        return False
    return isinstance(v, (numbers.Number, str, bytes, list, tuple, np.ndarray, np.generic))


def _convert_same(values, names, op_type):
    """Converts inputs sharing one dtype attribute as TF's op_def_library does: Python and NumPy
    values take the dtype of the first tensor among them.

    Raises:
      TypeError: If the tensors' dtypes differ.
    """
    if len(values) == 2 and type(values[0]) is ops.Tensor and type(values[1]) is ops.Tensor:
        if values[0]._dtype is values[1]._dtype:  # the common case: nothing to convert
            return list(values)
    out = [None] * len(values)
    dt = None
    for i, v in enumerate(values):
        if not _is_python_value(v):
            out[i] = ops.convert_to_tensor(v, name=names[i])
            dt = dt or out[i].dtype
    for i, v in enumerate(values):
        if out[i] is None:
            out[i] = ops.convert_to_tensor(v, name=names[i], preferred_dtype=dt)
            dt = dt or out[i].dtype
    for i in range(1, len(out)):
        if out[i].dtype is not out[0].dtype:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument '%s'."
                            % (names[i], op_type, out[i].dtype.name, out[0].dtype.name, names[0]))
    return out


def _check_dtype(t, allowed, param="x"):
    """Raises TypeError, as TF's op_def_library, if `t`'s dtype is not in `allowed`."""
    if t.dtype not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (param, t.dtype.name, ", ".join(d.name for d in allowed)))


def _broadcast_shapes(a, b):
    """The static shape of broadcasting shapes `a` and `b` (tuples of ints/None, or None).

    Raises:
      ValueError: If two known dimensions differ and neither is 1.
    """
    if a is None or b is None:
        return None
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        da = a[-i] if i <= len(a) else 1
        db = b[-i] if i <= len(b) else 1
        if da == 1:
            out.append(db)
        elif db == 1 or db is None:
            out.append(da)
        elif da is None or da == db:
            out.append(db)
        else:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (da, db))
    return tuple(reversed(out))


def _broadcast_infer(op):
    x, y = op._inputs
    return [(x._dtype, _broadcast_shapes(x._shape.as_tuple(), y._shape.as_tuple()))]


def _compare_infer(op):
    x, y = op._inputs
    return [(dtypes.bool_, _broadcast_shapes(x._shape.as_tuple(), y._shape.as_tuple()))]


def _const_value(t):
    """The value of `t` when shape inference can compute it (a constant subgraph), else None."""
    return tensor_util._static_value(t)


def _check_int_divisor(y):
    if y.dtype.kind in "iu" and not np.all(y):
        raise errors.InvalidArgumentError(None, None, "Integer division by zero")


def _conj(t):
    return conj(t) if t.dtype.is_complex else t


def _binary(op_type, x, y, name, allowed, default_name=None, names=("x", "y")):
    """Converts `x`, `y` to one dtype, checks it, and adds the broadcasting binary op."""
    with _op_scope(name, default_name or op_type, [x, y]) as scope:
        x, y = _convert_same([x, y], names, op_type)
        _check_dtype(x, allowed, names[0])
        return ops.apply_op(op_type, [x, y], name=scope)


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
    _check_int_divisor(y)
    return xp.floor_divide(x, y) if x.dtype.kind in "iu" else xp.floor(x / y)


def _floor_mod_kernel(xp, x, y):
    _check_int_divisor(y)
    if x.dtype.kind in "iu":
        return xp.mod(x, y)
    t = xp.fmod(x, y)  # TF's float floor-mod keeps fmod's sign of zero
    return xp.where((t != 0) & ((y < 0) != (t < 0)), t + y, t)


def _truncate_div_kernel(xp, x, y):
    _check_int_divisor(y)
    if x.dtype.kind not in "iu":
        return xp.trunc(x / y)
    q = xp.floor_divide(x, y)
    return q + ((q * y != x) & ((x < 0) != (y < 0))).astype(q.dtype)


def _truncate_mod_kernel(xp, x, y):
    _check_int_divisor(y)
    return xp.fmod(x, y)


def _real_div_kernel(xp, x, y):
    return _truncate_div_kernel(xp, x, y) if x.dtype.kind in "iu" else x / y


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
                  "GreaterEqual": "({0} >= {1})"}
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
        ("Pow", lambda xp, x, y: xp.power(x, y), _pow_grad),
        ("Maximum", lambda xp, x, y: xp.maximum(x, y), _maximum_grad),
        ("Minimum", lambda xp, x, y: xp.minimum(x, y), _minimum_grad),
        ("SquaredDifference", _squared_difference_kernel, _squared_difference_grad),
        ("Atan2", lambda xp, y, x: xp.arctan2(y, x), _atan2_grad)]:
    register_op(_op_type, infer=_broadcast_infer, kernel=_kernel, grad=_grad, inline=_OPERATOR_EXPR.get(_op_type))


def add(x, y, name=None):
    """Returns x + y element-wise, with broadcasting.

    Args:
      x: A `Tensor` (numeric or string).
      y: A `Tensor` of the same type as `x` (Python values are converted to it).
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `x`.

    Raises:
      TypeError: If the dtypes differ or are not supported.
      ValueError: If the shapes cannot be broadcast.
    """
    return _binary("Add", x, y, name, _NUMERIC + (dtypes.string,))


def _add_v2(x, y, name=None):
    """`x + y` for the `+` operator (op type AddV2, as TF 1.15; Add for strings)."""
    with _op_scope(name, "AddV2", [x, y]) as scope:
        x, y = _convert_same([x, y], ("x", "y"), "AddV2")
        if x.dtype is dtypes.string:
            return ops.apply_op("Add", [x, y], name=scope)
        _check_dtype(x, _NUMERIC)
        return ops.apply_op("AddV2", [x, y], name=scope)


def subtract(x, y, name=None):
    """Returns x - y element-wise, with broadcasting.

    Args:
      x: A numeric `Tensor`.
      y: A `Tensor` of the same type as `x`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `x`.

    Raises:
      TypeError: If the dtypes differ or are not numeric.
      ValueError: If the shapes cannot be broadcast.
    """
    return _binary("Sub", x, y, name, _NUMERIC)


def multiply(x, y, name=None):
    """Returns x * y element-wise, with broadcasting.

    Args:
      x: A numeric `Tensor`.
      y: A `Tensor` of the same type as `x`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `x`.

    Raises:
      TypeError: If the dtypes differ or are not numeric.
      ValueError: If the shapes cannot be broadcast.
    """
    return _binary("Mul", x, y, name, _NUMERIC)


def realdiv(x, y, name=None):
    """Returns x / y element-wise for real types (integers truncate), with broadcasting.

    Raises:
      TypeError: If the dtypes differ or are not numeric.
    """
    return _binary("RealDiv", x, y, name, _NUMERIC)


def div_no_nan(x, y, name=None):
    """Returns x / y element-wise, 0 where y is 0.

    Raises:
      TypeError: If the dtypes differ or are not floating point or complex.
    """
    return _binary("DivNoNan", x, y, name, _FLOAT_COMPLEX, default_name="div_no_nan")


def floor_div(x, y, name=None):
    """Returns floor(x / y) element-wise (the FloorDiv op).

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("FloorDiv", x, y, name, _REAL)


def floordiv(x, y, name=None):
    """Divides `x / y` element-wise, rounding toward the most negative integer (Python's `//`).

    Args:
      x: A real `Tensor`.
      y: A `Tensor` of the same type as `x`.
      name: A name for the operation (optional).

    Returns:
      `x // y` (floor(x / y) for floating point).

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("FloorDiv", x, y, name, _REAL, default_name="floordiv")


def floormod(x, y, name=None):
    """Returns the element-wise remainder of `x // y`, with the sign of `y` (Python's `%`).

    Args:
      x: A real `Tensor`.
      y: A `Tensor` of the same type as `x`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `x`.

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("FloorMod", x, y, name, _REAL)


mod = floormod


def truncatediv(x, y, name=None):
    """Returns x / y element-wise, rounded toward zero.

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("TruncateDiv", x, y, name, _REAL)


def truncatemod(x, y, name=None):
    """Returns the element-wise remainder of division rounded toward zero (C's `fmod`).

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("TruncateMod", x, y, name, _REAL)


def _true_div_cast(dtype):
    if dtype in (dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16):
        return dtypes.float32
    if dtype in (dtypes.int32, dtypes.int64):
        return dtypes.float64
    return None


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


def pow(x, y, name=None):  # noqa: A001 (TF's name)
    """Computes the power of one value to another: x^y element-wise, with broadcasting.

    Args:
      x: A `Tensor` of type float16, float32, float64, int32, int64, complex64 or complex128.
      y: A `Tensor` of the same type as `x`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`.

    Raises:
      TypeError: If the dtypes differ or are not supported.
    """
    return _binary("Pow", x, y, name, _FLOAT + (dtypes.int32, dtypes.int64) + _COMPLEX)


def maximum(x, y, name=None):
    """Returns the element-wise max of x and y, with broadcasting.

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("Maximum", x, y, name, _REAL)


def minimum(x, y, name=None):
    """Returns the element-wise min of x and y, with broadcasting.

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("Minimum", x, y, name, _REAL)


def squared_difference(x, y, name=None):
    """Returns (x - y)(x - y) element-wise, with broadcasting.

    Raises:
      TypeError: If the dtypes differ or are not numeric.
    """
    return _binary("SquaredDifference", x, y, name, _NUMERIC)


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
for _op_type, _kernel in [
        ("Equal", lambda xp, x, y: xp.equal(x, y)),
        ("NotEqual", lambda xp, x, y: xp.not_equal(x, y)),
        ("Less", lambda xp, x, y: x < y),
        ("LessEqual", lambda xp, x, y: x <= y),
        ("Greater", lambda xp, x, y: x > y),
        ("GreaterEqual", lambda xp, x, y: x >= y),
        ("LogicalAnd", lambda xp, x, y: xp.logical_and(x, y)),
        ("LogicalOr", lambda xp, x, y: xp.logical_or(x, y))]:
    register_op(_op_type, infer=_compare_infer, kernel=_kernel, grad=NO_GRADIENT, inline=_OPERATOR_EXPR.get(_op_type))


def equal(x, y, name=None):
    """Returns the truth value of (x == y) element-wise, with broadcasting.

    Args:
      x: A `Tensor` (any type, including bool and string).
      y: A `Tensor` of the same type as `x`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type bool.

    Raises:
      TypeError: If the dtypes differ.
    """
    return _binary("Equal", x, y, name, _ALL)


def not_equal(x, y, name=None):
    """Returns the truth value of (x != y) element-wise, with broadcasting.

    Raises:
      TypeError: If the dtypes differ.
    """
    return _binary("NotEqual", x, y, name, _ALL)


def less(x, y, name=None):
    """Returns the truth value of (x < y) element-wise, with broadcasting.

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("Less", x, y, name, _REAL)


def less_equal(x, y, name=None):
    """Returns the truth value of (x <= y) element-wise, with broadcasting.

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("LessEqual", x, y, name, _REAL)


def greater(x, y, name=None):
    """Returns the truth value of (x > y) element-wise, with broadcasting.

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("Greater", x, y, name, _REAL)


def greater_equal(x, y, name=None):
    """Returns the truth value of (x >= y) element-wise, with broadcasting.

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
    """
    return _binary("GreaterEqual", x, y, name, _REAL)


def logical_and(x, y, name=None):
    """Returns the truth value of x AND y element-wise, with broadcasting.

    Raises:
      TypeError: If the inputs are not bool.
    """
    return _binary("LogicalAnd", x, y, name, _BOOL)


def logical_or(x, y, name=None):
    """Returns the truth value of x OR y element-wise, with broadcasting.

    Raises:
      TypeError: If the inputs are not bool.
    """
    return _binary("LogicalOr", x, y, name, _BOOL)


def logical_xor(x, y, name="LogicalXor"):
    """Returns the truth value of x XOR y element-wise: (x | y) & ~(x & y).

    Raises:
      TypeError: If the inputs are not bool.
    """
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


# ---- element-wise unary ops ----------------------------------------------------------------
# Unary kernels that are one NumPy ufunc call: the compiled plan calls the ufunc directly.
_UNARY_INLINE = {op: "XP.%s({0})" % (fn or op.lower()) for op, fn in {
    "Abs": None, "Sign": None, "Square": None, "Sqrt": None, "Exp": None, "Log": None, "Log1p": None,
    "Expm1": None, "Sin": None, "Cos": None, "Tan": None, "Asin": "arcsin", "Acos": "arccos", "Atan": "arctan",
    "Sinh": None, "Cosh": None, "Asinh": "arcsinh", "Acosh": "arccosh", "Atanh": "arctanh", "Tanh": None,
    "Floor": None, "Ceil": None, "Rint": None, "Round": None}.items()}
_UNARY_INLINE["Neg"] = "(-{0})"


def _unary(op_type, kernel, grad, allowed, doc):
    """Registers a same-shape, same-dtype unary op and returns its public constructor."""
    register_op(op_type, infer=core_ops.same_as_input, kernel=kernel, grad=grad, inline=_UNARY_INLINE.get(op_type))

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
    """d sqrt(x) = grad * 0.5 / conj(y)."""
    y = op._outputs[0]
    return [realdiv(multiply(grad, 0.5), _conj(y))]


def _rsqrt_grad(op, grad):
    """d x^-1/2 = grad * -0.5 conj(y)^3."""
    y = _conj(op._outputs[0])
    return [multiply(grad, multiply(-0.5, multiply(square(y), y)))]


def _reciprocal_grad(op, grad):
    """d (1/x) = -grad * conj(y)^2."""
    return [multiply(negative(grad), square(_conj(op._outputs[0])))]


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


def _tanh_grad_grad(op, grad):
    """TanhGrad(y, dy) = dy (1 - y^2): d/dy = -2 grad dy conj(y), d/ddy = TanhGrad(y, grad)."""
    y, dy = (_conj(t) for t in op._inputs)
    return [multiply(multiply(grad, -2.0), multiply(dy, y)), ops.apply_op("TanhGrad", [op._inputs[0], grad])]


def _sigmoid_grad_grad(op, grad):
    """SigmoidGrad(y, dy) = dy y (1 - y): d/dy = grad dy (1 - 2y), d/ddy = SigmoidGrad(y, grad)."""
    y, dy = (_conj(t) for t in op._inputs)
    gb = multiply(grad, dy)
    return [subtract(gb, multiply(multiply(gb, 2.0), y)), ops.apply_op("SigmoidGrad", [op._inputs[0], grad])]


register_op("TanhGrad", infer=core_ops.same_as_input, kernel=_tanh_grad_kernel, grad=_tanh_grad_grad)
register_op("SigmoidGrad", infer=core_ops.same_as_input, kernel=_sigmoid_grad_kernel, grad=_sigmoid_grad_grad)


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


negative = _unary("Neg", lambda xp, x: -x, _neg_grad, _NUMERIC,
                  "Computes numerical negative value element-wise: y = -x.")
_abs_real = _unary("Abs", lambda xp, x: xp.abs(x), _abs_grad, _REAL,
                   "Computes the absolute value of a tensor: y = |x|.")
sign = _unary("Sign", lambda xp, x: xp.sign(x), _zero_grad, _NUMERIC,
              "Returns an element-wise indication of the sign of a number: -1, 0 or 1 (x/|x| for complex).")
square = _unary("Square", lambda xp, x: xp.square(x), _square_grad, _NUMERIC,
                "Computes square of x element-wise: y = x * x.")
sqrt = _unary("Sqrt", lambda xp, x: xp.sqrt(x), _sqrt_grad, _FLOAT_COMPLEX,
              "Computes square root of x element-wise.")
rsqrt = _unary("Rsqrt", lambda xp, x: 1 / xp.sqrt(x), _rsqrt_grad, _FLOAT_COMPLEX,
               "Computes reciprocal of square root of x element-wise: y = 1 / sqrt(x).")
reciprocal = _unary("Reciprocal", lambda xp, x: 1 / x, _reciprocal_grad, _FLOAT_COMPLEX,
                    "Computes the reciprocal of x element-wise: y = 1 / x.")
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
              "Returns element-wise integer closest to x, halves to even.")
_round_float = _unary("Round", lambda xp, x: xp.round(x), _no_grad, _FLOAT_COMPLEX,
                      "Rounds the values of a tensor to the nearest integer, element-wise (banker's rounding).")


def abs(x, name=None):  # noqa: A001 (TF's name)
    """Computes the absolute value of a tensor: |x| (the magnitude, as float, for complex x).

    Args:
      x: A numeric `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same type as `x` (its real type for complex `x`).

    Raises:
      TypeError: If `x` is not numeric.
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
            grad=_complex_abs_grad)


def round(x, name=None):  # noqa: A001 (TF's name)
    """Rounds the values of a tensor to the nearest integer, element-wise; halves go to the
    nearest even integer (banker's rounding). Integer tensors are returned unchanged.

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


register_op("Conj", infer=core_ops.same_as_input, kernel=lambda xp, x: xp.conj(x), grad=_conj_grad)


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
    register_op(_op_type, infer=_bool_unary_infer, kernel=_kernel, grad=NO_GRADIENT)


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
def _cast_infer(op):
    return [(op._attrs["DstT"], op._inputs[0]._shape.as_tuple())]


def _cast_kernel(xp, x, SrcT, DstT, Truncate):  # noqa: N803 (TF's attr names)
    if SrcT is dtypes.string or DstT is dtypes.string:
        raise errors.UnimplementedError(None, None, "Cast %s to %s is not supported" % (SrcT.name, DstT.name))
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


register_op("Cast", infer=_cast_infer, kernel=_cast_kernel, grad=_cast_grad)


def cast(x, dtype, name=None):
    """Casts a tensor (or the values of an `IndexedSlices`) to a new type.

    Floating point to integer casts truncate toward zero; complex to real drops the imaginary part.
    A `Tensor` that already has type `dtype` is returned as is.

    Args:
      x: A `Tensor`, `IndexedSlices` or value.
      dtype: The destination type.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` (or `IndexedSlices`) of type `dtype`.

    Raises:
      TypeError: If `dtype` is not a valid type.
    """
    base = dtypes.as_dtype(dtype)
    if isinstance(x, ops.Tensor) and x.dtype is base:
        return x
    with _op_scope(name, "Cast", [x]) as scope:
        if isinstance(x, IndexedSlices):
            return IndexedSlices(cast(x.values, base, name=scope), x.indices, x.dense_shape)
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


# ---- MatMul / BatchMatMulV2 ----------------------------------------------------------------
def _matmul_dims(a, b, ta, tb):
    m, k1 = (a[-1], a[-2]) if ta else (a[-2], a[-1])
    k2, n = (b[-1], b[-2]) if tb else (b[-2], b[-1])
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (k1, k2))
    return m, n


def _matmul_infer(op):
    a, b = op._inputs
    sa, sb = a._shape.as_tuple(), b._shape.as_tuple()
    for s in (sa, sb):
        if s is not None and len(s) != 2:
            raise ValueError("Shape must be rank 2 but is rank %d" % len(s))
    sa = sa or (None, None)
    sb = sb or (None, None)
    return [(a._dtype, _matmul_dims(sa, sb, op._attrs["transpose_a"], op._attrs["transpose_b"]))]


def _matmul_kernel(xp, a, b, transpose_a, transpose_b):
    return xp.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


def _matmul_grad(op, grad):
    """dC = grad: dA = grad B^T, dB = A^T grad (transposes swapped as the op's flags say)."""
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    a, b = (_conj(t) for t in op._inputs)
    if not ta and not tb:
        ga, gb = (grad, b, False, True), (a, grad, True, False)
    elif not ta and tb:
        ga, gb = (grad, b, False, False), (grad, a, True, False)
    elif ta and not tb:
        ga, gb = (b, grad, False, True), (a, grad, False, False)
    else:
        ga, gb = (b, grad, True, True), (grad, a, True, True)
    na, nb = _needed(op)
    return [_mat_mul(*ga) if na else None, _mat_mul(*gb) if nb else None]


def _matmul_inline(op):
    return "({0}%s @ {1}%s)" % (".T" if op._attrs["transpose_a"] else "", ".T" if op._attrs["transpose_b"] else "")


register_op("MatMul", infer=_matmul_infer, kernel=_matmul_kernel, grad=_matmul_grad, inline=_matmul_inline)


def _mat_mul(a, b, transpose_a, transpose_b):
    return ops.apply_op("MatMul", [a, b], {"transpose_a": transpose_a, "transpose_b": transpose_b})


def _batch_matmul_infer(op):
    a, b = op._inputs
    sa, sb = a._shape.as_tuple(), b._shape.as_tuple()
    for s in (sa, sb):
        if s is not None and len(s) < 2:
            raise ValueError("Shape must be at least rank 2 but is rank %d" % len(s))
    m, n = _matmul_dims(sa or (None, None), sb or (None, None), op._attrs["adj_x"], op._attrs["adj_y"])
    if sa is None or sb is None:
        return [(a._dtype, None)]
    return [(a._dtype, _broadcast_shapes(sa[:-2], sb[:-2]) + (m, n))]


def _adjoint(xp, x):
    x = xp.swapaxes(x, -1, -2)
    return xp.conj(x) if x.dtype.kind == "c" else x


def _batch_matmul_kernel(xp, a, b, adj_x, adj_y):
    for i, x in enumerate((a, b)):
        if x.ndim < 2:
            raise errors.InvalidArgumentError(None, None, "In[%d] ndims must be >= 2: %d" % (i, x.ndim))
    if adj_x:
        a = _adjoint(xp, a)
    if adj_y:
        b = _adjoint(xp, b)
    return a @ b


def _batch_mat_mul(a, b, adj_x, adj_y):
    return ops.apply_op("BatchMatMulV2", [a, b], {"adj_x": adj_x, "adj_y": adj_y})


def _batch_matmul_grad(op, grad):
    """dC = grad: dX = grad Y^H, dY = X^H grad (adjoints swapped as the op's flags say), each
    summed over the batch axes it was broadcast along."""
    x, y = op._inputs
    ax, ay = op._attrs["adj_x"], op._attrs["adj_y"]
    if not ax and not ay:
        gx, gy = _batch_mat_mul(grad, y, False, True), _batch_mat_mul(x, grad, True, False)
    elif not ax:
        gx, gy = _batch_mat_mul(grad, y, False, False), _batch_mat_mul(grad, x, True, False)
    elif not ay:
        gx, gy = _batch_mat_mul(y, grad, False, True), _batch_mat_mul(x, grad, False, False)
    else:
        gx, gy = _batch_mat_mul(y, grad, True, True), _batch_mat_mul(grad, x, True, True)
    return [core_ops.unbroadcast(gx, x), core_ops.unbroadcast(gy, y)]


def _batch_matmul_inline(op):
    """`@` with the adjoints as axis swaps (complex adjoints also conjugate: the kernel does that).
    Operands of unknown rank go through the kernel, which rejects rank < 2 as TF does."""
    if op._outputs[0].dtype.is_complex and (op._attrs["adj_x"] or op._attrs["adj_y"]):
        return None
    if any(t._shape._dims is None for t in op._inputs):
        return None
    return "({0}%s @ {1}%s)" % tuple(".swapaxes(-1, -2)" if op._attrs[a] else "" for a in ("adj_x", "adj_y"))


register_op("BatchMatMulV2", infer=_batch_matmul_infer, kernel=_batch_matmul_kernel, grad=_batch_matmul_grad,
            inline=_batch_matmul_inline)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, name=None):
    """Multiplies matrix `a` by matrix `b`, producing `a` * `b`.

    Inputs of rank > 2 (or unknown rank) are batches of matrices: the inner two dimensions are
    multiplied and the outer (batch) dimensions broadcast.

    Args:
      a: A `Tensor` of type float16, float32, float64, int32, int64, complex64 or complex128 and rank >= 2.
      b: A `Tensor` with the same type as `a`.
      transpose_a: If `True`, `a` is transposed before multiplication.
      transpose_b: If `True`, `b` is transposed before multiplication.
      adjoint_a: If `True`, `a` is conjugated and transposed before multiplication.
      adjoint_b: If `True`, `b` is conjugated and transposed before multiplication.
      a_is_sparse: Accepted for compatibility (a hint only).
      b_is_sparse: Accepted for compatibility (a hint only).
      name: Name for the operation (optional).

    Returns:
      A `Tensor` of the same type as `a` and `b`.

    Raises:
      ValueError: If transpose_a and adjoint_a, or transpose_b and adjoint_b are both set to True,
        or the shapes are incompatible.
      TypeError: If the dtypes differ or are not supported.
    """
    with _op_scope(name, "MatMul", [a, b]) as scope:
        if transpose_a and adjoint_a:
            raise ValueError("Only one of transpose_a and adjoint_a can be True.")
        if transpose_b and adjoint_b:
            raise ValueError("Only one of transpose_b and adjoint_b can be True.")
        a, b = _convert_same([a, b], ("a", "b"), "MatMul")
        _check_dtype(a, _FLOAT + (dtypes.int32, dtypes.int64) + _COMPLEX, "a")
        ra, rb = a.shape.ndims, b.shape.ndims
        if ra is not None and rb is not None and ra <= 2 and rb <= 2:
            if adjoint_a:
                a, transpose_a = conj(a), True
            if adjoint_b:
                b, transpose_b = conj(b), True
            return ops.apply_op("MatMul", [a, b], {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b)},
                                name=scope)
        if transpose_a:
            a, adjoint_a = conj(a), True
        if transpose_b:
            b, adjoint_b = conj(b), True
        return ops.apply_op("BatchMatMulV2", [a, b], {"adj_x": bool(adjoint_a), "adj_y": bool(adjoint_b)},
                            name=scope)


# ---- Einsum / tensordot --------------------------------------------------------------------
def _split_spec(spec):
    """'ab...c' -> ['a', 'b', '...', 'c']."""
    out = []
    i = 0
    while i < len(spec):
        if spec.startswith("...", i):
            out.append("...")
            i += 3
        elif spec[i] in string.ascii_letters:
            out.append(spec[i])
            i += 1
        else:
            raise ValueError("Invalid character %r in einsum equation %r" % (spec[i], spec))
    if out.count("...") > 1:
        raise ValueError("Einsum subscripts may contain at most one ellipsis, got %r" % spec)
    return out


def _parse_einsum(equation, n):
    """(input label lists, output label list) of an einsum equation, the output made explicit.

    Raises:
      ValueError: If the equation is malformed or does not have `n` inputs.
    """
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    ins = [_split_spec(s) for s in lhs.split(",")]
    if len(ins) != n:
        raise ValueError("Expected %d input tensors for equation %r but got %d" % (len(ins), equation, n))
    if arrow:
        out = _split_spec(rhs)
    else:
        counts = {}
        for s in ins:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out = (["..."] if "..." in counts else []) + sorted(c for c, k in counts.items() if k == 1 and c != "...")
    seen = {c for s in ins for c in s}
    for c in out:
        if c not in seen:
            raise ValueError("Output subscript %r does not appear in the input subscripts of %r" % (c, equation))
        if c != "..." and out.count(c) > 1:
            raise ValueError("Output subscript %r appears more than once in %r" % (c, equation))
    return ins, out


def _join_spec(labels):
    return "".join(labels)


def _einsum_infer(op):
    ins, out = _parse_einsum(op._attrs["equation"], len(op._inputs))
    dims = {}
    ell = ()
    for labels, t in zip(ins, op._inputs):
        shape = t._shape.as_tuple()
        n_named = len(labels) - ("..." in labels)
        if shape is None:
            if "..." in labels:
                ell = None
            continue
        if len(shape) < n_named or ("..." not in labels and len(shape) != n_named):
            raise ValueError("Einsum subscripts %r do not match the rank %d of input %s"
                             % (_join_spec(labels), len(shape), t.name))
        pos = 0
        for c in labels:
            if c == "...":
                k = len(shape) - n_named
                if ell is not None:
                    ell = _broadcast_shapes(ell, shape[pos:pos + k])
                pos += k
                continue
            d = shape[pos]
            pos += 1
            prev = dims.get(c)
            if prev is not None and d is not None and prev != d:
                raise ValueError("Expected dimension %d for subscript %r of input %s but got %d"
                                 % (prev, c, t.name, d))
            if prev is None:
                dims[c] = d
    result = []
    for c in out:
        if c == "...":
            if ell is None:
                return [(op._inputs[0]._dtype, None)]
            result.extend(ell)
        else:
            result.append(dims.get(c))
    return [(op._inputs[0]._dtype, tuple(result))]


def _einsum_kernel(xp, *arrays, equation):
    out = xp.einsum(equation, *arrays, optimize=len(arrays) > 2)
    return out if out.flags.owndata else out.copy()  # a pure permutation is a view of the input


def _einsum_grad(op, grad):
    """d einsum(x_1..x_n) / dx_k = einsum of grad with the other operands, producing x_k's
    subscripts (diagonal subscripts through identity matrices, missing ones through ones)."""
    ins, out = _parse_einsum(op._attrs["equation"], len(op._inputs))
    used = {c for s in ins for c in s}
    fresh = [c for c in string.ascii_letters if c not in used]
    grads = []
    for k, xk in enumerate(op._inputs):
        specs = [out] + [s for j, s in enumerate(ins) if j != k]
        operands = [grad] + [_conj(t) for j, t in enumerate(op._inputs) if j != k]
        target = []
        shape = xk._shape.as_tuple()
        for pos, c in enumerate(ins[k]):
            if c == "..." or c not in target:
                target.append(c)
                continue
            # A repeated subscript (a diagonal): give it a fresh label tied to c by an identity matrix.
            size = None if shape is None or "..." in ins[k] else shape[pos]
            if size is None:
                raise NotImplementedError("The gradient of einsum %r needs the static size of the repeated "
                                          "subscript %r" % (op._attrs["equation"], c))
            new = fresh.pop(0)
            target.append(new)
            specs.append([c, new])
            with xk.graph.as_default():
                operands.append(constant(np.eye(size, dtype=xk.dtype.as_numpy_dtype)))
        present = {c for s in specs for c in s}
        if any(c not in present for c in target):
            specs.append(target)
            operands.append(core_ops.ones_like(xk))
        eq = ",".join(_join_spec(s) for s in specs) + "->" + _join_spec(target)
        g = ops.apply_op("Einsum", operands, {"equation": eq})
        grads.append(core_ops.unbroadcast(g, xk))
    return grads


register_op("Einsum", infer=_einsum_infer, kernel=_einsum_kernel, grad=_einsum_grad)


def einsum(equation, *inputs, **kwargs):
    """A generalized contraction between tensors of arbitrary dimension (Einstein summation).

    Args:
      equation: A str describing the contraction, e.g. "ij,jk->ik" (the output may be implicit,
        "..." stands for broadcast dimensions).
      *inputs: The input tensors, all of one numeric type.
      **kwargs: `name`: A name for the operation (optional).

    Returns:
      The contracted `Tensor`, with shape determined by `equation`.

    Raises:
      ValueError: If `equation` is malformed or the shapes do not match it.
      TypeError: If an unknown keyword argument is given or the dtypes differ.
    """
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError("invalid keyword arguments for this function: " + ", ".join(sorted(kwargs)))
    with _op_scope(name, "einsum", list(inputs)) as scope:
        tensors = _convert_same(list(inputs), ["inputs"] * len(inputs), "Einsum")
        for t in tensors:
            _check_dtype(t, _NUMERIC, "inputs")
        ins, out = _parse_einsum(equation, len(tensors))
        eq = ",".join(_join_spec(s) for s in ins) + "->" + _join_spec(out)
        return ops.apply_op("Einsum", tensors, {"equation": eq}, name=scope)


def _tensordot_axes(axes, ra, rb, a):
    """The contracted axes of `a` and `b`, as two lists of non-negative ints."""
    if isinstance(axes, ops.Tensor):
        value = _const_value(axes)
        if value is None:
            raise ValueError("tensordot needs 'axes' known at graph construction time, got %s" % axes)
        axes = value.tolist()
    if isinstance(axes, (numbers.Integral, np.integer)):
        n = int(axes)
        if n < 0:
            raise ValueError("'axes' must be at least 0.")
        if n > ra:
            raise ValueError("'axes' must not be larger than the number of dimensions of tensor %s." % a)
        if n > rb:
            raise ValueError("'axes' must not be larger than the number of dimensions of tensor %s." % a)
        return list(range(ra - n, ra)), list(range(n))
    if not isinstance(axes, (list, tuple)) or len(axes) != 2:
        raise ValueError("'axes' must be an integer or have length 2.")
    a_axes, b_axes = ([int(v)] if isinstance(v, (numbers.Integral, np.integer)) else [int(i) for i in v]
                      for v in axes)
    if len(a_axes) != len(b_axes):
        raise ValueError("Different number of contraction axes 'a' and 'b', %d != %d." % (len(a_axes), len(b_axes)))
    for lst, r in ((a_axes, ra), (b_axes, rb)):
        for i, v in enumerate(lst):
            if not -r <= v < r:
                raise ValueError("Axis %d is out of range for a tensor of rank %d" % (v, r))
            lst[i] = v % r
    return a_axes, b_axes


def tensordot(a, b, axes, name=None):
    """Tensor contraction of a and b along specified axes (and outer product for axes=0).

    Args:
      a: `Tensor` of type float32 or float64 (any numeric type).
      b: `Tensor` with the same type as `a`.
      axes: Either a scalar N (contract the last N axes of `a` with the first N of `b`) or a pair
        of lists of axes (or ints) to contract in `a` and `b`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the free axes of `a` followed by the free axes of `b`.

    Raises:
      ValueError: If the shapes of `a`, `b`, and `axes` are incompatible, or the ranks are unknown.
    """
    with _op_scope(name, "Tensordot", [a, b, axes]) as scope:
        a, b = _convert_same([a, b], ("a", "b"), "Tensordot")
        ra, rb = a.shape.ndims, b.shape.ndims
        if ra is None or rb is None:
            raise ValueError("tensordot needs inputs of known rank, got shapes %s and %s" % (a.shape, b.shape))
        a_axes, b_axes = _tensordot_axes(axes, ra, rb, a)
        letters = iter(string.ascii_letters)
        sa = [next(letters) for _ in range(ra)]
        sb = [None] * rb
        for i, j in zip(a_axes, b_axes):
            sb[j] = sa[i]
        sb = [c or next(letters) for c in sb]
        out = [c for i, c in enumerate(sa) if i not in a_axes] + [c for j, c in enumerate(sb) if j not in b_axes]
        eq = "%s,%s->%s" % ("".join(sa), "".join(sb), "".join(out))
        return ops.apply_op("Einsum", [a, b], {"equation": eq}, name=scope)


# ---- reductions ----------------------------------------------------------------------------
def _static_axes(axes_t, rank):
    """The reduction axes as sorted non-negative ints when known at graph construction, else None.

    Raises:
      ValueError: If a constant axis is out of range for the known rank.
    """
    value = _const_value(axes_t)
    if value is None:
        return None
    axes = [int(a) for a in np.ravel(value)]
    if rank is None:
        return axes if all(a >= 0 for a in axes) else None
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError("Invalid reduction dimension %d for input with %d dimensions." % (a, rank))
    return sorted({a % rank for a in axes}) if rank else []


def _reduce_infer(op):
    x, axes_t = op._inputs
    keep = op._attrs["keep_dims"]
    shape = x._shape.as_tuple()
    if op._attrs.get("_all_axes") and not keep:
        return [(x._dtype, ())]
    rank = None if shape is None else len(shape)
    axes = _static_axes(axes_t, rank)
    if rank is None:
        return [(x._dtype, None)]
    if axes is None:
        return [(x._dtype, (None,) * rank if keep else None)]
    if keep:
        return [(x._dtype, tuple(1 if i in axes else d for i, d in enumerate(shape)))]
    return [(x._dtype, tuple(d for i, d in enumerate(shape) if i not in axes))]


def _axis_tuple(axes):
    return tuple(int(a) for a in np.ravel(axes))


def _sum_kernel(xp, x, axes, keep_dims):
    if x.dtype == np.float16:
        return xp.add.reduce(x, axis=_axis_tuple(axes), dtype=np.float32, keepdims=keep_dims).astype(np.float16)
    # The ufunc's reduce directly: ndarray.sum's Python wrapper costs more than a small sum itself.
    return xp.add.reduce(x, axis=_axis_tuple(axes), dtype=x.dtype, keepdims=keep_dims)


def _prod_kernel(xp, x, axes, keep_dims):
    if x.dtype == np.float16:
        return xp.prod(x, axis=_axis_tuple(axes), dtype=np.float32, keepdims=keep_dims).astype(np.float16)
    return xp.prod(x, axis=_axis_tuple(axes), dtype=x.dtype, keepdims=keep_dims)


def _mean_kernel(xp, x, axes, keep_dims):
    ax = _axis_tuple(axes)
    if x.dtype.kind in "iu":
        total = xp.sum(x, axis=ax, dtype=x.dtype, keepdims=keep_dims)
        count = max(int(np.prod([x.shape[a] for a in ax], dtype=np.int64)), 1)
        # Integer means truncate toward zero, as TF's C++ division.
        q = xp.abs(total.astype(np.int64)) // count * xp.sign(total.astype(np.int64))
        return q.astype(x.dtype)
    return xp.mean(x, axis=ax, keepdims=keep_dims).astype(x.dtype, copy=False)


def _extreme_identity(dtype, lowest):
    """What max (lowest=True) or min of an empty reduction gives: TF's lowest or highest value."""
    if dtype.kind == "f":
        return -np.inf if lowest else np.inf
    info = np.iinfo(dtype)
    return info.min if lowest else info.max


def _extreme_kernel(fn, lowest):
    def kernel(xp, x, axes, keep_dims):
        ax = _axis_tuple(axes)
        if x.size == 0:
            return fn(x, axis=ax, keepdims=keep_dims, initial=_extreme_identity(x.dtype, lowest))
        return fn(x, axis=ax, keepdims=keep_dims)
    return kernel


def _expand_reduced(value, op):
    """`value`, shaped like the output of reduction `op`, broadcast back to the input's shape."""
    x, axes_t = op._inputs
    if op._attrs["keep_dims"] or op._attrs.get("_all_axes"):
        return ops.apply_op("BroadcastLike", [value, x])
    rank = x._shape.ndims
    axes = _static_axes(axes_t, rank) if rank is not None else None
    if axes is not None:
        if axes == list(range(len(axes))):
            return ops.apply_op("BroadcastLike", [value, x])
        letters = string.ascii_letters[:rank]
        kept = "".join(c for i, c in enumerate(letters) if i not in axes)
        return ops.apply_op("Einsum", [value, core_ops.ones_like(x)], {"equation": "%s,%s->%s" % (
            kept, letters, letters)})
    # Axes (or rank) known only at run time: reshape to the kept-dims shape, then broadcast.
    with x.graph.as_default():
        return _expand_reduced_dynamic(value, x, axes_t)


def _expand_reduced_dynamic(value, x, axes_t):
    from . import array_ops
    sx = core_ops.shape(x)
    ones = core_ops.ones_like(sx)
    positions = cumsum(ones, exclusive=True)
    r = reduce_sum(ones)
    axes_mod = floormod(array_ops.reshape(cast(axes_t, dtypes.int32), [1, -1]), r)
    mask = reduce_any(equal(array_ops.reshape(positions, [-1, 1]), axes_mod), axis=1)
    kept_shape = subtract(sx, multiply(subtract(sx, 1), cast(mask, dtypes.int32)))
    return ops.apply_op("BroadcastLike", [array_ops.reshape(value, kept_shape), x])


def _sum_grad(op, grad):
    """d sum(x) = grad broadcast back over the reduced axes."""
    return [_expand_reduced(grad, op), None]


def _mean_grad(op, grad):
    """d mean(x) = grad broadcast back over the reduced axes, divided by the reduced count."""
    x, y = op._inputs[0], op._outputs[0]
    sum_grad = _expand_reduced(grad, op)
    sx, sy = x._shape, y._shape
    if sx.is_fully_defined() and sy.is_fully_defined():
        factor = sx.num_elements() // max(sy.num_elements(), 1)
    else:
        factor = floor_div(reduce_prod(core_ops.shape(x)), maximum(reduce_prod(core_ops.shape(y)), 1))
        factor = cast(factor, grad.dtype)
    return [realdiv(sum_grad, factor), None]


def _max_min_reduce_grad(op, grad):
    """d max(x) = grad split equally among the elements equal to the max (same for min)."""
    x, axes_t = op._inputs
    y = _expand_reduced(op._outputs[0], op)
    indicators = cast(equal(y, x), grad.dtype)
    count = ops.apply_op("Sum", [indicators, axes_t], dict(op._attrs))
    return [multiply(realdiv(indicators, _expand_reduced(count, op)), _expand_reduced(grad, op)), None]


def _prod_except_self(x, axes):
    """For each element, the product of the other elements over `axes` (exact with zeros)."""
    a = axes[-1]
    own = multiply(cumprod(x, a, exclusive=True), cumprod(x, a, exclusive=True, reverse=True))
    if len(axes) == 1:
        return own
    return multiply(own, _prod_except_self(reduce_prod(x, a, keepdims=True), axes[:-1]))


def _prod_grad(op, grad):
    """d prod(x) / dx_i = grad * (product of the other reduced elements)."""
    x, axes_t = op._inputs
    g = _expand_reduced(grad, op)
    rank = x._shape.ndims
    axes = _static_axes(axes_t, rank) if rank is not None else None
    if op._attrs.get("_all_axes") and rank is not None:
        axes = list(range(rank))
    if axes is None:
        # Axes known only at run time: the quotient form (not defined where x is 0).
        return [realdiv(multiply(g, _expand_reduced(op._outputs[0], op)), x), None]
    if not axes:
        return [g, None]
    return [multiply(g, _conj(_prod_except_self(x, axes))), None]


for _op_type, _kernel, _grad in [
        ("Sum", _sum_kernel, _sum_grad),
        ("Mean", _mean_kernel, _mean_grad),
        ("Prod", _prod_kernel, _prod_grad),
        ("Max", _extreme_kernel(np.max, True), _max_min_reduce_grad),
        ("Min", _extreme_kernel(np.min, False), _max_min_reduce_grad),
        ("Any", lambda xp, x, axes, keep_dims: xp.any(x, axis=_axis_tuple(axes), keepdims=keep_dims),
         NO_GRADIENT),
        ("All", lambda xp, x, axes, keep_dims: xp.all(x, axis=_axis_tuple(axes), keepdims=keep_dims),
         NO_GRADIENT)]:
    register_op(_op_type, infer=_reduce_infer, kernel=_kernel,
                grad=_grad)


def _deprecated_lookup(new_name, new_value, old_name, old_value):
    if old_value is not None:
        if new_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'" % (old_name, new_name))
        return old_value
    return new_value


def _reduction_axes(x, axis):
    """The reduction-indices tensor for `axis` (None: every axis)."""
    if axis is None:
        rank = x.shape.ndims
        if rank is not None:
            return constant(np.arange(rank, dtype=np.int32), name="Const")
        return cumsum(core_ops.ones_like(core_ops.shape(x)), exclusive=True)
    if isinstance(axis, ops.Tensor):
        return axis
    if isinstance(axis, (list, tuple)) and not axis:
        axis = np.zeros(0, np.int32)
    return ops.convert_to_tensor(axis, dtype=dtypes.int32, name="reduction_indices")


def _reduce(op_type, input_tensor, axis, keepdims, name, reduction_indices, keep_dims, allowed):
    axis = _deprecated_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = bool(keepdims) if keepdims is not None else False
    with _op_scope(name, op_type, [input_tensor]) as scope:
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        _check_dtype(x, allowed, "input")
        attrs = {"keep_dims": keepdims}
        if axis is None:
            attrs["_all_axes"] = True
        return ops.apply_op(op_type, [x, _reduction_axes(x, axis)], attrs, name=scope)


_REDUCE_DOC = """Computes the %s of elements across dimensions of a tensor.

    Reduces `input_tensor` along the dimensions given in `axis`. Unless `keepdims` is true, the
    rank of the tensor is reduced by 1 for each entry in `axis`; otherwise the reduced dimensions
    are retained with length 1. If `axis` is None, all dimensions are reduced and a tensor with a
    single element is returned.%s

    Args:
      input_tensor: The tensor to reduce (%s).
      axis: The dimensions to reduce: None (all), an int, a list of ints or an int32 `Tensor`,
        each in `[-rank(input_tensor), rank(input_tensor))`.
      keepdims: If true, retains reduced dimensions with length 1.
      name: A name for the operation (optional).
      reduction_indices: The old (deprecated) name for axis.
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      The reduced tensor, of the same dtype as `input_tensor`.

    Raises:
      ValueError: If both `axis` and `reduction_indices` (or `keepdims` and `keep_dims`) are
        given, or an axis is out of range.
      TypeError: If `input_tensor` has an unsupported dtype.
    """


def reduce_sum(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    return _reduce("Sum", input_tensor, axis, keepdims, name, reduction_indices, keep_dims, _NUMERIC)


def reduce_mean(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    return _reduce("Mean", input_tensor, axis, keepdims, name, reduction_indices, keep_dims, _NUMERIC)


def reduce_prod(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    return _reduce("Prod", input_tensor, axis, keepdims, name, reduction_indices, keep_dims, _NUMERIC)


def reduce_max(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    return _reduce("Max", input_tensor, axis, keepdims, name, reduction_indices, keep_dims, _REAL)


def reduce_min(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    return _reduce("Min", input_tensor, axis, keepdims, name, reduction_indices, keep_dims, _REAL)


def reduce_any(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    return _reduce("Any", input_tensor, axis, keepdims, name, reduction_indices, keep_dims, _BOOL)


def reduce_all(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    return _reduce("All", input_tensor, axis, keepdims, name, reduction_indices, keep_dims, _BOOL)


reduce_sum.__doc__ = _REDUCE_DOC % ("sum", "", "numeric")
reduce_mean.__doc__ = _REDUCE_DOC % ("mean", " Integer means truncate toward zero, as in TF.", "numeric")
reduce_prod.__doc__ = _REDUCE_DOC % ("product", "", "numeric")
reduce_max.__doc__ = _REDUCE_DOC % ("maximum", " The maximum of an empty set is -inf (the lowest integer).",
                                    "real")
reduce_min.__doc__ = _REDUCE_DOC % ("minimum", " The minimum of an empty set is inf (the largest integer).",
                                    "real")
reduce_any.__doc__ = _REDUCE_DOC % ('"logical or"', "", "bool")
reduce_all.__doc__ = _REDUCE_DOC % ('"logical and"', "", "bool")


def reduce_logsumexp(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """Computes log(sum(exp(elements across dimensions of a tensor))), stably: the maximum is
    subtracted before exponentiating (infinite maxima are handled as TF does).

    Args:
      input_tensor: The floating point tensor to reduce.
      axis: The dimensions to reduce (None: all).
      keepdims: If true, retains reduced dimensions with length 1.
      name: A name for the operation (optional).
      reduction_indices: The old (deprecated) name for axis.
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      The reduced tensor.

    Raises:
      ValueError: If both `axis` and `reduction_indices` are given.
    """
    axis = _deprecated_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = bool(_deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    with _op_scope(name, "ReduceLogSumExp", [input_tensor]) as scope:
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        _check_dtype(x, _FLOAT, "input")
        lo, hi = constant(x.dtype.min, dtype=x.dtype), constant(x.dtype.max, dtype=x.dtype)

        def shift(keep):
            # The max, clamped to finite values: exp(x - shift) then never sees inf - inf.
            return core_ops.stop_gradient(minimum(maximum(reduce_max(x, axis, keepdims=keep), lo), hi))

        total = reduce_sum(exp(subtract(x, shift(True))), axis, keepdims=keepdims)
        return add(log(total), shift(keepdims), name=scope)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Computes the variance of elements across dimensions of a tensor: mean((x - mean(x))^2).

    Args:
      input_tensor: The floating point tensor to reduce.
      axis: The dimensions to reduce (None: all).
      keepdims: If true, retains reduced dimensions with length 1.
      name: A name scope for the associated operations (optional).

    Returns:
      The reduced tensor, of the same dtype as the input.
    """
    with _op_scope(name, "reduce_variance", [input_tensor]):
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        means = reduce_mean(x, axis=axis, keepdims=True)
        return reduce_mean(square(subtract(x, means)), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Computes the standard deviation of elements across dimensions of a tensor: sqrt(variance).

    Args:
      input_tensor: The floating point tensor to reduce.
      axis: The dimensions to reduce (None: all).
      keepdims: If true, retains reduced dimensions with length 1.
      name: A name scope for the associated operations (optional).

    Returns:
      The reduced tensor, of the same dtype as the input.
    """
    with _op_scope(name, "reduce_std", [input_tensor]):
        return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def count_nonzero(input_tensor, axis=None, keepdims=None, dtype=dtypes.int64, name=None, reduction_indices=None,
                  keep_dims=None):
    """Computes number of nonzero elements across dimensions of a tensor.

    Args:
      input_tensor: The tensor to reduce (numeric or bool).
      axis: The dimensions to reduce (None: all).
      keepdims: If true, retains reduced dimensions with length 1.
      dtype: The output dtype; defaults to int64.
      name: A name for the operation (optional).
      reduction_indices: The old (deprecated) name for axis.
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      The reduced tensor (number of nonzero values).
    """
    axis = _deprecated_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = bool(_deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    with _op_scope(name, "count_nonzero", [input_tensor]) as scope:
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        zero = constant(False if x.dtype.is_bool else "" if x.dtype is dtypes.string else 0, dtype=x.dtype)
        return cast(reduce_sum(cast(not_equal(x, zero), dtypes.int64), axis=axis, keepdims=keepdims), dtype,
                    name=scope)


# ---- ArgMax / ArgMin -----------------------------------------------------------------------
def _arg_infer(op):
    x, dim = op._inputs
    shape = x._shape.as_tuple()
    value = _const_value(dim)
    if shape is None:
        return [(op._attrs["output_type"], None)]
    rank = len(shape)
    if value is None:
        return [(op._attrs["output_type"], (None,) * max(rank - 1, 0))]
    a = int(np.ravel(value)[0])
    if not -rank <= a < rank:
        raise ValueError("Expected dimension in the range [%d, %d), but got %d" % (-rank, rank, a))
    a %= rank
    return [(op._attrs["output_type"], shape[:a] + shape[a + 1:])]


def _arg_kernel(fn):
    def kernel(xp, x, dimension, output_type):
        return fn(x, axis=int(np.ravel(dimension)[0])).astype(output_type.as_numpy_dtype)
    return kernel


register_op("ArgMax", infer=_arg_infer, kernel=_arg_kernel(np.argmax), grad=NO_GRADIENT)
register_op("ArgMin", infer=_arg_infer, kernel=_arg_kernel(np.argmin), grad=NO_GRADIENT)


def _arg(op_type, input, axis, name, dimension, output_type):  # noqa: A002
    axis = _deprecated_lookup("axis", axis, "dimension", dimension)
    if axis is None:
        axis = 0
    output_type = dtypes.as_dtype(output_type)
    if output_type not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'output_type' has DataType %s not in list of allowed values: "
                        "int32, int64" % output_type.name)
    with _op_scope(name, op_type, [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        _check_dtype(x, _REAL, "input")
        dim = axis if isinstance(axis, ops.Tensor) else ops.convert_to_tensor(axis, dtype=dtypes.int32,
                                                                              name="dimension")
        return ops.apply_op(op_type, [x, dim], {"output_type": output_type}, name=scope)


def argmax(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002 (TF's name)
    """Returns the index with the largest value across an axis of a tensor (the first on ties).

    Args:
      input: A real `Tensor`.
      axis: The axis to reduce across (default 0), in `[-rank(input), rank(input))`.
      name: A name for the operation (optional).
      dimension: The old (deprecated) name for axis.
      output_type: int32 or int64 (default).

    Returns:
      A `Tensor` of type `output_type`.

    Raises:
      ValueError: If both `axis` and `dimension` are given, or the axis is out of range.
    """
    return _arg("ArgMax", input, axis, name, dimension, output_type)


def argmin(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002 (TF's name)
    """Returns the index with the smallest value across an axis of a tensor (the first on ties).

    Args:
      input: A real `Tensor`.
      axis: The axis to reduce across (default 0), in `[-rank(input), rank(input))`.
      name: A name for the operation (optional).
      dimension: The old (deprecated) name for axis.
      output_type: int32 or int64 (default).

    Returns:
      A `Tensor` of type `output_type`.

    Raises:
      ValueError: If both `axis` and `dimension` are given, or the axis is out of range.
    """
    return _arg("ArgMin", input, axis, name, dimension, output_type)


# ---- Cumsum / Cumprod ----------------------------------------------------------------------
def _cum_infer(op):
    x, axis = op._inputs
    shape = x._shape.as_tuple()
    if axis._shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % axis._shape.ndims)
    value = _const_value(axis)
    if shape is not None and value is not None and not -len(shape) <= int(value) < max(len(shape), 1):
        raise ValueError("axis %d is out of range for a tensor of rank %d" % (int(value), len(shape)))
    return [(x._dtype, shape)]


def _cum_kernel(fn, identity):
    def kernel(xp, x, axis, exclusive, reverse):
        a = int(axis) % max(x.ndim, 1)
        if reverse:
            x = xp.flip(x, a)
        if x.dtype == np.float16:
            out = fn(x, axis=a, dtype=np.float32).astype(np.float16)
        else:
            out = fn(x, axis=a, dtype=x.dtype)
        if exclusive and x.shape[a]:
            lead = xp.full(x.shape[:a] + (1,) + x.shape[a + 1:], identity, dtype=x.dtype)
            body = out[tuple(slice(0, -1) if i == a else slice(None) for i in range(x.ndim))]
            out = xp.concatenate([lead, body], axis=a)
        if reverse:
            out = xp.flip(out, a)
        return out
    return kernel


def _cumsum_grad(op, grad):
    """d cumsum(x) = cumsum(grad) in the opposite direction."""
    axis = op._inputs[1]
    return [cumsum(grad, axis, exclusive=op._attrs["exclusive"], reverse=not op._attrs["reverse"]), None]


def _cumprod_grad(op, grad):
    """d cumprod(x) = cumsum(cumprod(x) * grad) in the opposite direction, divided by x (TF's
    formula: undefined where x is 0)."""
    x, axis = op._inputs
    exclusive, reverse = op._attrs["exclusive"], op._attrs["reverse"]
    prod = cumprod(x, axis, exclusive=exclusive, reverse=reverse)
    out = cumsum(multiply(prod, grad), axis, exclusive=exclusive, reverse=not reverse)
    return [realdiv(out, x), None]


register_op("Cumsum", infer=_cum_infer, kernel=_cum_kernel(np.cumsum, 0), grad=_cumsum_grad)
register_op("Cumprod", infer=_cum_infer, kernel=_cum_kernel(np.cumprod, 1), grad=_cumprod_grad)


def _cumulative(op_type, x, axis, exclusive, reverse, name):
    with _op_scope(name, op_type, [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        _check_dtype(x, _NUMERIC)
        axis = axis if isinstance(axis, ops.Tensor) else ops.convert_to_tensor(axis, dtype=dtypes.int32,
                                                                              name="axis")
        return ops.apply_op(op_type, [x, axis], {"exclusive": bool(exclusive), "reverse": bool(reverse)},
                            name=scope)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Compute the cumulative sum of the tensor `x` along `axis`.

    `exclusive=True` starts from 0 (`[a, b, c] -> [0, a, a + b]`); `reverse=True` sums from the end
    (`[a, b, c] -> [a + b + c, b + c, c]`).

    Args:
      x: A numeric `Tensor`.
      axis: A scalar int32 `Tensor` or int (default 0), in `[-rank(x), rank(x))`.
      exclusive: If `True`, perform exclusive cumsum.
      reverse: If `True`, perform the sum in reverse.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type and shape as `x`.
    """
    return _cumulative("Cumsum", x, axis, exclusive, reverse, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Compute the cumulative product of the tensor `x` along `axis`.

    `exclusive=True` starts from 1 (`[a, b, c] -> [1, a, a * b]`); `reverse=True` multiplies from the
    end (`[a, b, c] -> [a * b * c, b * c, c]`).

    Args:
      x: A numeric `Tensor`.
      axis: A scalar int32 `Tensor` or int (default 0), in `[-rank(x), rank(x))`.
      exclusive: If `True`, perform exclusive cumprod.
      reverse: If `True`, perform the product in reverse.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type and shape as `x`.
    """
    return _cumulative("Cumprod", x, axis, exclusive, reverse, name)


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """Returns the element-wise sum of a list of tensors (as `add_n`).

    Args:
      inputs: A list of `Tensor` objects, each with same shape and type.
      shape: Expected shape of elements of `inputs` (optional).
      tensor_dtype: Expected data type of `inputs` (optional).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of same shape and type as the elements of `inputs`.

    Raises:
      ValueError: If `inputs` don't all have same shape and dtype or the shape cannot be inferred.
    """
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    inputs = [ops.convert_to_tensor(x) for x in inputs]
    if not all(x.dtype is inputs[0].dtype for x in inputs):
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) is not inputs[0].dtype:
        raise TypeError("tensor_dtype is {}, but input is of type {}".format(tensor_dtype, inputs[0].dtype))
    if shape is not None:
        for x in inputs:
            x.shape.merge_with(shape)
    return core_ops.add_n(inputs, name=name)


# ---- Tensor operators ----------------------------------------------------------------------
def _binary_operator(fn, op_name, reflected, direct=None):
    """`Tensor.__op__` / `__rop__` as TF's binary_op_wrapper: the other operand is converted to
    the tensor's dtype inside a name scope named `op_name`. `direct`: (op type, allowed dtypes)
    of an op `fn` adds as is, added here without `fn` entering the same graph and scope again."""
    def adds_directly(x, y, g):
        return (direct is not None and type(x) is ops.Tensor and type(y) is ops.Tensor and y._dtype is x._dtype
                and x._dtype in direct[1] and x._op._graph is g and y._op._graph is g)

    def forward(x, y):
        g = ops._graph_for(x.graph)  # inside a cond branch or loop body: that function graph
        if g is ops.get_default_graph() and adds_directly(x, y, g):
            return g._create_op(direct[0], [x, y], {}, op_name)._outputs[0]  # the scope's unique name
        with g.as_default(), g.name_scope(op_name) as scope:
            if not isinstance(y, ops.Tensor):
                try:
                    y = ops.convert_to_tensor(y, preferred_dtype=x.dtype, name="y")
                except TypeError:
                    if hasattr(type(y), "__r%s__" % op_name):
                        return NotImplemented
                    raise
            if adds_directly(x, y, g):
                return ops.apply_op(direct[0], [x, y], name=scope)
            return fn(x, y, name=scope)

    def reverse(y, x):
        g = ops._graph_for(y.graph)
        with g.as_default(), g.name_scope(op_name) as scope:
            x = ops.convert_to_tensor(x, dtype=y.dtype, name="x")
            return fn(x, y, name=scope)

    return reverse if reflected else forward


_NUMERIC_SET = frozenset(_NUMERIC)
for _name, _fn, _op_name, _direct in [
        ("add", _add_v2, "add", ("AddV2", _NUMERIC_SET)),
        ("sub", subtract, "sub", ("Sub", _NUMERIC_SET)),
        ("mul", multiply, "mul", ("Mul", _NUMERIC_SET))]:
    setattr(ops.Tensor, "__%s__" % _name, _binary_operator(_fn, _op_name, False, _direct))
    setattr(ops.Tensor, "__r%s__" % _name, _binary_operator(_fn, _op_name, True))

for _name, _fn, _op_name in [
        ("truediv", truediv, "truediv"),
        ("floordiv", floordiv, "floordiv"),
        ("mod", floormod, "mod"),
        ("pow", pow, "pow"),
        ("matmul", matmul, "matmul"),
        ("and", logical_and, "and"),
        ("or", logical_or, "or"),
        ("xor", logical_xor, "xor")]:
    setattr(ops.Tensor, "__%s__" % _name, _binary_operator(_fn, _op_name, False))
    setattr(ops.Tensor, "__r%s__" % _name, _binary_operator(_fn, _op_name, True))

ops.Tensor.__lt__ = lambda x, y: less(x, y)
ops.Tensor.__le__ = lambda x, y: less_equal(x, y)
ops.Tensor.__gt__ = lambda x, y: greater(x, y)
ops.Tensor.__ge__ = lambda x, y: greater_equal(x, y)
ops.Tensor.__neg__ = lambda x: negative(x)
ops.Tensor.__abs__ = lambda x: abs(x)
ops.Tensor.__invert__ = lambda x: logical_not(x)
