"""The ops every other module needs: placeholders, identity, stop_gradient, zeros/ones_like,
add_n (gradient aggregation), no_op/group and the broadcast-gradient reduction."""

import math

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op, register_rewrite
from ..framework.tensor_shape import as_shape


def same_as_input(op):
    """Shape/dtype inference for ops whose single output matches input 0."""
    t = op._inputs[0]
    return [(t._dtype, t._shape.as_tuple())]


# ---- Placeholder ------------------------------------------------------------------------------
def _placeholder_infer(op):
    return [(op._attrs["dtype"], op._attrs["shape"])]


def _placeholder_kernel(ctx, op, dtype, shape):
    raise errors.InvalidArgumentError(
        None, op, "You must feed a value for placeholder tensor '%s' with dtype %s%s" % (
            op.name, _tf_type_name(dtype),
            "" if shape is None else " and shape [%s]" % ",".join("?" if d is None else str(d) for d in shape)))


def _tf_type_name(dtype):
    """TF's C++ name of a DType, as its error messages print it ("float", "double", ...)."""
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


register_op("Placeholder", infer=_placeholder_infer, kernel=_placeholder_kernel, grad=NO_GRADIENT,
            stateful=True, placeholder=True)


def placeholder(dtype, shape=None, name=None):
    """Inserts a placeholder for a tensor that must always be fed, as `tf.placeholder`.

    Args:
      dtype: The element type.
      shape: The static shape (None: unknown rank; None entries: unknown sizes).
      name: Op name.

    Returns:
      A `Tensor`; running anything that needs it without feeding it raises InvalidArgumentError.
    """
    shape = as_shape(shape).as_tuple()
    return ops.apply_op("Placeholder", [], {"dtype": dtypes.as_dtype(dtype), "shape": shape}, name=name)


def _pwd_infer(op):
    return [(op._inputs[0]._dtype, op._attrs["shape"])]


register_op("PlaceholderWithDefault", infer=_pwd_infer, kernel=lambda xp, x, shape: x,
            grad=lambda op, grad: [grad], gpu=True, alias_of=0, placeholder=True)


def placeholder_with_default(input, shape, name=None):  # noqa: A002 (TF's argument name)
    """A placeholder that produces `input` when it is not fed.

    Raises:
      ValueError: If `input`'s shape is not compatible with `shape`.
    """
    x = ops.convert_to_tensor(input)
    shape = as_shape(shape)
    if not x.shape.is_compatible_with(shape):
        raise ValueError("Shapes %s and %s are incompatible" % (x.shape, shape))
    return ops.apply_op("PlaceholderWithDefault", [x], {"shape": shape.as_tuple()}, name=name)


# ---- Identity / StopGradient -----------------------------------------------------------------
register_op("Identity", infer=same_as_input, kernel=lambda xp, x: x, grad=lambda op, grad: [grad], gpu=True,
            alias_of=0)


def identity(input, name=None):  # noqa: A002
    """Returns a tensor with the same value as `input` (a new op, so control dependencies apply)."""
    return ops.apply_op("Identity", [ops.convert_to_tensor(input)], name=name)


register_op("StopGradient", infer=same_as_input, kernel=lambda xp, x: x, grad=NO_GRADIENT, gpu=True, alias_of=0)


def stop_gradient(input, name=None):  # noqa: A002
    """Passes `input` through; `tf.gradients` treats it as a constant."""
    return ops.apply_op("StopGradient", [ops.convert_to_tensor(input)], name=name)


# ---- ZerosLike / OnesLike --------------------------------------------------------------------
def _filled_like(value):
    def kernel(xp, x):
        out = xp.empty(x.shape, x.dtype)  # empty + fill: both C calls, unlike np.ones_like
        out.fill(value)
        return out
    return kernel


def _filled_static_value(value):
    return lambda op, dims: np.full(dims, value, dtype=op._outputs[0].dtype.as_numpy_dtype)


register_op("ZerosLike", infer=same_as_input, kernel=_filled_like(0), grad=NO_GRADIENT, gpu=True, shape_inputs=(0,),
            static_value=_filled_static_value(0))
register_op("OnesLike", infer=same_as_input, kernel=_filled_like(1), grad=NO_GRADIENT, gpu=True, shape_inputs=(0,),
            static_value=_filled_static_value(1))


def _filled_tensor_like(op_type, default_name, tensor, dtype, name):
    if dtype is None and name is None and type(tensor) in ops._EAGER_TYPES:
        d = ops._eager_default()
        if d is not None and not d._name_stack:  # executing eagerly: straight to the kernel
            return ops._eager_run_typed[0](op_type, [tensor], None, tensor._dtype, default_name + "/")
    t = ops.convert_to_tensor(tensor)
    with ops.name_scope(name, default_name, [t]) as scope:
        out = ops.apply_op(op_type, [t], name=scope if dtype is None else None)
        if dtype is not None and dtypes.as_dtype(dtype) is not t.dtype:
            from .math_ops import cast
            out = cast(out, dtype, name=scope)
    return out


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    """A tensor of zeros with the shape (and dtype, unless given) of `tensor`."""
    return _filled_tensor_like("ZerosLike", "zeros_like", tensor, dtype, name)


def ones_like(tensor, dtype=None, name=None, optimize=True):
    """A tensor of ones with the shape (and dtype, unless given) of `tensor`."""
    return _filled_tensor_like("OnesLike", "ones_like", tensor, dtype, name)


# ---- AddN ------------------------------------------------------------------------------------
def _add_n_infer(op):
    shape = as_shape(None)
    dt = op._inputs[0]._dtype
    for t in op._inputs:
        if t._dtype is not dt:
            raise TypeError("AddN inputs must all have the same dtype, got %s and %s" % (dt.name, t._dtype.name))
        shape = shape.merge_with(t._shape)
    return [(dt, shape.as_tuple())]


def _add_n_kernel(xp, *xs):
    if len(xs) == 1:
        return xs[0]
    out = xs[0] + xs[1]
    for x in xs[2:]:
        out += x
    return out


register_op("AddN", infer=_add_n_infer, kernel=_add_n_kernel,
            grad=lambda op, grad: [grad] * len(op._inputs),
            inline=lambda op: "({0} + {1})" if len(op._inputs) == 2 else None, gpu=True)


def add_n(inputs, name=None):
    """Adds all input tensors element-wise (same shape and dtype).

    Raises:
      ValueError: If `inputs` is empty or not a list.
    """
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("inputs must be a list of at least one Tensor/IndexedSlices with the same dtype and "
                         "shape")
    inputs = [ops.convert_to_tensor(x) for x in inputs]
    if len(inputs) == 1:
        return inputs[0] if not name else identity(inputs[0], name=name)
    return ops.apply_op("AddN", inputs, name=name)


# ---- NoOp / group ----------------------------------------------------------------------------
register_op("NoOp", infer=lambda op: [], kernel=lambda xp: None, grad=NO_GRADIENT, gpu=True)


def no_op(name=None):
    """An op that does nothing; useful as a control-dependency anchor."""
    return ops.apply_op("NoOp", [], name=name)


def group(*inputs, **kwargs):
    """An op (NoOp) that runs all `inputs` (tensors or ops, nested lists allowed).

    Raises:
      TypeError: On unknown keyword arguments.
    """
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError("Unknown keyword arguments: " + ", ".join(kwargs))
    flat = []
    stack = list(inputs)[::-1]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(list(x)[::-1])
        elif isinstance(x, dict):
            stack.extend(list(x.values())[::-1])
        elif x is not None:
            flat.append(x)
    g = ops._graph_of(flat)
    with g.name_scope(name or "group_deps") as scope:
        with g.control_dependencies(flat):
            return g._create_op("NoOp", [], {}, name=scope)


# ---- gradient of broadcasting --------------------------------------------------------------
def _sum_to_infer(op):
    return [(op._inputs[0]._dtype, op._inputs[1]._shape.as_tuple())]


def _sum_to_kernel(xp, grad, like):
    """Sums `grad` over the axes broadcasting added or stretched, giving `like`'s shape."""
    shape = like.shape
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape) if d == 1 and grad.shape[i + lead] != 1)
    k = len(axes)
    if k >= 2 and axes[-1] == k - 1 and grad.size and grad.dtype.itemsize >= 4 and grad.flags.c_contiguous:
        # Leading axes summed onto short rows (a bias gradient's channels): NumPy adds row by row in
        # inner loops as long as a row; folding the last summed axis into the row makes them long.
        inner = grad.size // math.prod(grad.shape[:k])
        if inner < _LONG_ROW:
            m = grad.shape[k - 1]
            rows = grad.reshape(-1, m * inner).sum(axis=0, dtype=grad.dtype)
            return rows.reshape(m, inner).sum(axis=0, dtype=grad.dtype).reshape(shape)
    out = grad.sum(axis=axes, keepdims=True, dtype=grad.dtype) if axes else grad
    return out.reshape(shape)


_LONG_ROW = 256


def _sum_to_grad(op, grad):
    """d/dg sum_to(g) = broadcast of the incoming gradient back to g's shape."""
    return [ops.apply_op("BroadcastLike", [grad, op._inputs[0]]), None]


register_op("SumToShapeOf", infer=_sum_to_infer, kernel=_sum_to_kernel, grad=_sum_to_grad, gpu=True,
            shape_inputs=(1,))


@register_rewrite("simplify", "SumToShapeOf")
def _drop_sum_to_own_shape(step, plan):
    """Nothing to sum when the gradient already has the target's static shape (both fully known)."""
    g, like = (x._shape.as_tuple() for x in step.op._inputs)
    return step.args[0] if g is not None and None not in g and g == like else None


def _broadcast_like_kernel(xp, x, like):
    out = xp.empty(like.shape, x.dtype)  # an assignment broadcasts as broadcast_to(...).copy() does, in one call
    out[...] = x
    return out


def _broadcast_like_grad(op, grad):
    """d/dx broadcast(x) = sum of the gradient over the broadcast axes."""
    return [ops.apply_op("SumToShapeOf", [grad, op._inputs[0]]), None]


register_op("BroadcastLike", infer=lambda op: [(op._inputs[0]._dtype, op._inputs[1]._shape.as_tuple())],
            kernel=_broadcast_like_kernel, grad=_broadcast_like_grad, gpu=True, shape_inputs=(1,))


def unbroadcast(grad, x):
    """Reduces a gradient computed for a broadcast result back to the shape of input `x`.

    Emits no op when the static shapes prove no broadcasting happened.
    """
    if grad is None:
        return None
    if type(grad) in ops._EAGER_TYPES and type(x) in ops._EAGER_TYPES and grad._value.shape == x._value.shape:
        return grad  # eager values of one shape: nothing was broadcast
    gs, xs = grad.shape.as_tuple(), x.shape.as_tuple()
    if gs is not None and gs == xs and None not in gs:
        return grad
    return ops.apply_op("SumToShapeOf", [grad, x])


# ---- Shape ---------------------------------------------------------------------------------
def _shape_infer(op):
    s = op._inputs[0]._shape.as_tuple()
    return [(op._attrs["out_type"], (None if s is None else len(s),))]


# A shape is host data, on any device (the output is a NumPy array).
register_op("Shape", infer=_shape_infer,
            kernel=lambda xp, x, out_type: np.array(x.shape, dtype=out_type.as_numpy_dtype),
            grad=NO_GRADIENT, gpu=True, shape_inputs=(0,), on_host=True,
            static_value=lambda op, dims: np.asarray(dims, dtype=op._attrs["out_type"].as_numpy_dtype))


def shape(input, name=None, out_type=dtypes.int32, optimize=True):  # noqa: A002
    """The dynamic shape of `input` as a 1-D int32 (or `out_type`) tensor; a constant when the
    static shape is fully defined (and `optimize`), as TF does."""
    x = ops.convert_to_tensor(input)
    out_type = dtypes.as_dtype(out_type)
    dims = x.shape.as_tuple()
    if optimize and dims is not None and None not in dims:
        from ..framework.constant_op import constant
        return constant(list(dims), dtype=out_type, name=name or "Shape")
    return ops.apply_op("Shape", [x], {"out_type": out_type}, name=name)


# ---- IdentityN -------------------------------------------------------------------------------
register_op("IdentityN", infer=lambda op: [(t._dtype, t._shape.as_tuple()) for t in op._inputs],
            kernel=lambda xp, *xs: xs, grad=lambda op, *grads: list(grads), gpu=True)


def identity_n(input, name=None):  # noqa: A002
    """Returns a list of tensors with the same values as the list `input`."""
    return list(ops.apply_op("IdentityN", [ops.convert_to_tensor(x) for x in input], name=name) or [])
