"""Math ops: the bitwise operations of integer tensors (`tf.bitwise`: BitwiseAnd, BitwiseOr,
BitwiseXor, Invert, LeftShift, RightShift). None is differentiable."""

from ..framework import dtypes, ops
from ..framework.registry import NO_GRADIENT, register_op
from . import core_ops
from .math_helpers import _binary, _broadcast_infer, _check_dtype, _op_scope

# The integer types TF's bitwise ops take (TF's uint32/uint64 do not exist here).
_BITWISE = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16)


def _clamped_shift(xp, x, y):
    """The shift amounts `y` as TF's kernels use them: clamped to `[0, bits - 1]`."""
    return xp.clip(y, 0, x.dtype.itemsize * 8 - 1)


def _left_shift_kernel(xp, x, y):
    # Left shifts wrap around as TF's (which shift the unsigned representation).
    return xp.left_shift(x, _clamped_shift(xp, x, y))


def _right_shift_kernel(xp, x, y):
    return xp.right_shift(x, _clamped_shift(xp, x, y))  # arithmetic for signed types, as TF's


def _shift_inline(operator):
    """The shift of scalars with the amount clamped as `_clamped_shift` does (in a conditional: the
    clamped amount is `y` itself or a Python int, which keeps `x`'s dtype)."""
    def inline(op):
        if not all(t._shape._dims == () for t in op._inputs):
            return None
        top = op._inputs[0]._dtype.size * 8 - 1
        return "({0} %s ({1} if 0 <= {1} <= %d else 0 if {1} < 0 else %d))" % (operator, top, top)
    return inline


_BITWISE_EXPR = {"BitwiseAnd": "({0} & {1})", "BitwiseOr": "({0} | {1})", "BitwiseXor": "({0} ^ {1})",
                 "LeftShift": _shift_inline("<<"), "RightShift": _shift_inline(">>")}
for _op_type, _kernel in [
        ("BitwiseAnd", lambda xp, x, y: x & y),
        ("BitwiseOr", lambda xp, x, y: x | y),
        ("BitwiseXor", lambda xp, x, y: x ^ y),
        ("LeftShift", _left_shift_kernel),
        ("RightShift", _right_shift_kernel)]:
    register_op(_op_type, infer=_broadcast_infer, kernel=_kernel, grad=NO_GRADIENT, inline=_BITWISE_EXPR.get(_op_type),
                gpu=True, elementwise=True)
register_op("Invert", infer=core_ops.same_as_input, kernel=lambda xp, x: xp.invert(x), grad=NO_GRADIENT,
            inline="(~{0})", gpu=True, elementwise=True)


def _bitwise_binary(func_name, op_type, summary):
    """The public constructor `func_name(x, y, name=None)` of bitwise op `op_type`."""
    def fn(x, y, name=None):
        return _binary(op_type, x, y, name, _BITWISE)

    fn.__name__ = fn.__qualname__ = func_name
    fn.__module__ = __name__
    fn.__doc__ = ("%s\n\n    Args:\n      x: A `Tensor` of type int8, int16, int32, int64, uint8 or uint16.\n"
                  "      y: A `Tensor` of the same type as `x` (Python values are converted to it).\n"
                  "      name: A name for the operation (optional).\n\n    Returns:\n      A `Tensor`. Has the same "
                  "type as `x`.\n\n    Raises:\n      TypeError: If the dtypes of `x` and `y` differ or are not "
                  "integer types.\n      ValueError: If the shapes of `x` and `y` cannot be broadcast.\n" % summary)
    return fn


bitwise_and = _bitwise_binary("bitwise_and", "BitwiseAnd",
                              "Elementwise computes the bitwise AND of `x` and `y`, with broadcasting.")
bitwise_or = _bitwise_binary("bitwise_or", "BitwiseOr",
                             "Elementwise computes the bitwise OR of `x` and `y`, with broadcasting.")
bitwise_xor = _bitwise_binary("bitwise_xor", "BitwiseXor",
                              "Elementwise computes the bitwise XOR of `x` and `y`, with broadcasting.")
left_shift = _bitwise_binary(
    "left_shift", "LeftShift", "Elementwise computes the bitwise left-shift of `x` by `y` bits, with broadcasting.\n\n"
    "    Shift amounts below 0 count as 0 and amounts of the type's width or more as its width - 1,\n"
    "    as TF's kernels clamp them; bits shifted out are lost (the result wraps around).")
right_shift = _bitwise_binary(
    "right_shift", "RightShift", "Elementwise computes the bitwise right-shift of `x` by `y` bits, with "
    "broadcasting.\n\n    The shift is arithmetic for signed types (the sign bit is copied) and logical for "
    "unsigned\n    ones. Shift amounts are clamped to `[0, width - 1]`, as TF's kernels do.")


def invert(x, name=None):
    """Flips all bits of `x` element-wise (`~x`).

    Args:
      x: A `Tensor` of type int8, int16, int32, int64, uint8 or uint16.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `x`.

    Raises:
      TypeError: If `x` is not of an integer type.
    """
    with _op_scope(name, "Invert", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        _check_dtype(x, _BITWISE)
        return ops.apply_op("Invert", [x], name=scope)
