"""Math ops: Cumsum / Cumprod, `accumulate_n`, and the arithmetic/comparison operators of
`tf.Tensor` (bound when this module is imported)."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from . import core_ops
from .math_binary_ops import (
    _add_v2,
    floordiv,
    floormod,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_or,
    logical_xor,
    multiply,
    pow,
    realdiv,
    subtract,
    truediv,
)
from .math_bitwise_ops import bitwise_and, bitwise_or, bitwise_xor, invert
from .math_helpers import _NUMERIC, _check_dtype, _const_value, _dims_text, _op_scope
from .math_matmul_ops import matmul
from .math_unary_ops import abs, cast, logical_not, negative


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
        if np.ndim(axis):
            raise errors.InvalidArgumentError(None, None, "ScanOp: axis must be a scalar, not %s"
                                              % _dims_text(np.shape(axis)))
        a = int(axis)
        if not -x.ndim <= a < x.ndim:
            raise errors.InvalidArgumentError(None, None, "ScanOp: Expected scan axis in the range [%d, %d), but got "
                                              "%d" % (-x.ndim, x.ndim, a))
        a %= x.ndim
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


def _mul(x, y, name=None):
    """`x * y` as TF's operator: bool operands are multiplied as int32 and the product cast back to bool."""
    if x.dtype is dtypes.bool_ or y.dtype is dtypes.bool_:
        return cast(multiply(cast(x, dtypes.int32), cast(y, dtypes.int32), name=name), dtypes.bool_)
    return multiply(x, y, name=name)


def _and(x, y, name=None):
    """`x & y` as TF's operator: logical for bool tensors, bitwise (a BitwiseAnd in the scope) otherwise."""
    return logical_and(x, y, name=name) if x.dtype is dtypes.bool_ else bitwise_and(x, y)


def _or(x, y, name=None):
    """`x | y` as TF's operator: logical for bool tensors, bitwise otherwise."""
    return logical_or(x, y, name=name) if x.dtype is dtypes.bool_ else bitwise_or(x, y)


def _xor(x, y, name=None):
    """`x ^ y` as TF's operator: logical for bool tensors, bitwise otherwise."""
    return logical_xor(x, y, name=name) if x.dtype is dtypes.bool_ else bitwise_xor(x, y)


def _invert(x):
    """`~x` as TF's operator: logical not of a bool tensor, bitwise inversion otherwise."""
    return logical_not(x) if x.dtype is dtypes.bool_ else invert(x)


_NUMERIC_SET = frozenset(_NUMERIC)
for _name, _fn, _op_name, _direct in [
        ("add", _add_v2, "add", ("AddV2", _NUMERIC_SET)),
        ("sub", subtract, "sub", ("Sub", _NUMERIC_SET)),
        ("mul", _mul, "mul", ("Mul", _NUMERIC_SET))]:
    setattr(ops.Tensor, "__%s__" % _name, _binary_operator(_fn, _op_name, False, _direct))
    setattr(ops.Tensor, "__r%s__" % _name, _binary_operator(_fn, _op_name, True))

for _name, _fn, _op_name in [
        ("truediv", truediv, "truediv"),
        ("floordiv", floordiv, "floordiv"),
        ("mod", floormod, "mod"),
        ("pow", pow, "pow"),
        ("matmul", matmul, "matmul"),
        ("and", _and, "and"),
        ("or", _or, "or"),
        ("xor", _xor, "xor")]:
    setattr(ops.Tensor, "__%s__" % _name, _binary_operator(_fn, _op_name, False))
    setattr(ops.Tensor, "__r%s__" % _name, _binary_operator(_fn, _op_name, True))

ops.Tensor.__lt__ = lambda x, y: less(x, y)
ops.Tensor.__le__ = lambda x, y: less_equal(x, y)
ops.Tensor.__gt__ = lambda x, y: greater(x, y)
ops.Tensor.__ge__ = lambda x, y: greater_equal(x, y)
ops.Tensor.__neg__ = lambda x: negative(x)
ops.Tensor.__abs__ = lambda x: abs(x)
ops.Tensor.__invert__ = _invert
