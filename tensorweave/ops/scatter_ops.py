"""Scatter ops on tensors: TensorScatterUpdate/Add/Sub (`tf.tensor_scatter_nd_*`): a copy of `tensor`
with the slices at `indices` replaced by, or combined with, `updates`."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape
from .array_gather_ops import _check_nd_indices, gather_nd
from .array_helpers import _INDEX_DTYPES, _check_dtype, _dims, _fmt, _invalid, _with_rank_at_least
from .core_ops import shape, zeros_like
from .math_unary_ops import negative

_NUMERIC = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
            dtypes.uint8, dtypes.uint16, dtypes.complex64, dtypes.complex128)


def _dims_msg(what_a, a, lo_a, hi_a, what_b, b, lo_b, hi_b):
    sa, sb = a[lo_a:hi_a], b[lo_b:hi_b]
    detail = ("Shapes must be equal rank, but are %d and %d" % (len(sa), len(sb)) if len(sa) != len(sb) else
              next("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s and %s."
                   % (i, x, y, _fmt(sa), _fmt(sb)) for i, (x, y) in enumerate(zip(sa, sb))
                   if x is not None and y is not None and x != y))
    return ("Dimensions [%d,%d) of %s[shape=%s] = %s must match dimensions [%d,%d) of %s[shape=%s] = %s: %s"
            % (lo_a, hi_a, what_a, _fmt(a), _fmt(sa), lo_b, hi_b, what_b, _fmt(b), _fmt(sb), detail))


def _tensor_scatter_infer(op_type):
    def infer(op):
        tensor, indices, updates = op._inputs
        _check_dtype(indices, _INDEX_DTYPES, "indices", op_type)
        if op_type in ("TensorScatterMax", "TensorScatterMin"):
            _check_dtype(tensor, _NUMERIC[:9], "tensor", op_type)
        elif not op_type.endswith("Update"):
            _check_dtype(tensor, _NUMERIC, "tensor", op_type)
        if updates._dtype is not tensor._dtype:
            raise TypeError("Input 'updates' of '%s' Op has type %s that does not match type %s of argument "
                            "'tensor'." % (op_type, updates._dtype.name, tensor._dtype.name))
        out, idd, ud = _dims(tensor), _dims(indices), _dims(updates)
        _with_rank_at_least(idd, 1)
        if out is not None and idd is not None and ud is not None and idd[-1] is not None:
            k, outer = idd[-1], len(idd) - 1
            if k > len(out):
                raise ValueError("Output must have rank at least indices.shape[-1] = %d, got %s" % (k, _fmt(out)))
            if len(ud) < outer or not TensorShape(ud[:outer]).is_compatible_with(idd[:-1]):
                raise ValueError(_dims_msg("indices", idd, 0, outer, "updates", ud, 0, outer))
            if not TensorShape(ud[outer:]).is_compatible_with(out[k:]):
                raise ValueError(_dims_msg("input", out, k, len(out), "updates", ud, outer, len(ud)))
        return [(tensor._dtype, out)]
    return infer


def _tensor_scatter_kernel(kind):
    def kernel(xp, tensor, indices, updates):
        idx = np.asarray(indices)
        k = idx.shape[-1] if idx.ndim else 0
        outer = idx.shape[:-1]
        if idx.ndim < 1 or k > tensor.ndim:
            raise _invalid("Output must have rank at least indices.shape[-1] = %d, got %s" % (k, _fmt(tensor.shape)))
        if updates.shape[:len(outer)] != outer:
            raise _invalid("Outer dimensions of indices and update must match. Indices shape: %s, updates shape:%s"
                           % (_fmt(idx.shape), _fmt(updates.shape)))
        if k == 0 and int(np.prod(outer)) > 0:
            raise _invalid("Indices and updates specified for empty output shape")
        if updates.shape[len(outer):] != tensor.shape[k:]:
            raise _invalid("The inner %d dimensions of output.shape=%s must match the inner %d dimensions of "
                           "updates.shape=%s" % (tensor.ndim - k, _fmt(tensor.shape), updates.ndim - len(outer),
                                                 _fmt(updates.shape)))
        _check_nd_indices(idx, tensor.shape[:k], "shape %s" % _fmt(tensor.shape))
        out = np.array(tensor, copy=True)
        flat = idx.reshape(-1, k)
        vals = updates.reshape((flat.shape[0],) + tensor.shape[k:])
        where = tuple(flat.T)
        if kind == "update":
            for i in range(flat.shape[0]):  # in order: the last update of a repeated index wins
                out[tuple(flat[i])] = vals[i]
        elif kind == "add":
            np.add.at(out, where, vals)
        elif kind == "sub":
            np.subtract.at(out, where, vals)
        else:
            combine = _COMBINE[kind]
            for i in range(flat.shape[0]):
                key = tuple(flat[i])
                out[key] = combine(out[key], vals[i])
        return out
    return kernel


def _update_grad(op, grad):
    indices = op._inputs[1]
    return [tensor_scatter_nd_update(grad, indices, zeros_like(op._inputs[2])), None, gather_nd(grad, indices)]


def _add_grad(op, grad):
    return [grad, None, gather_nd(grad, op._inputs[1])]


def _sub_grad(op, grad):
    return [grad, None, negative(gather_nd(grad, op._inputs[1]))]


def _min_max_grad(op, grad):
    """TF's gradient: shared equally between the tensor's value and the updates equal to the result."""
    from .array_gather_ops import scatter_nd
    from .math_binary_ops import add, divide, equal, multiply
    from .math_unary_ops import cast
    x, indices, y = op._inputs
    output = op.outputs[0]
    x_indicators = cast(equal(x, output), grad.dtype)
    y_indicators = cast(equal(y, gather_nd(output, indices)), grad.dtype)
    ys_indicators = scatter_nd(indices, y_indicators, shape(x, out_type=indices.dtype))
    indicators = add(x_indicators, ys_indicators)
    x_grad = divide(multiply(grad, x_indicators), indicators)
    y_grad = multiply(gather_nd(divide(grad, indicators), indices), y_indicators)
    return [x_grad, None, y_grad]


for _kind, _grad in (("Update", _update_grad), ("Add", _add_grad), ("Sub", _sub_grad), ("Max", _min_max_grad),
                     ("Min", _min_max_grad)):
    register_op("TensorScatter" + _kind, infer=_tensor_scatter_infer("TensorScatter" + _kind),
                kernel=_tensor_scatter_kernel(_kind.lower()), grad=_grad)


def _tensor_scatter(op_type, tensor, indices, updates, name):
    tensor = ops.convert_to_tensor(tensor, name="tensor")
    indices = ops.convert_to_tensor(indices, name="indices", preferred_dtype=_INDEX_DTYPES[0])
    updates = ops.convert_to_tensor(updates, name="updates", dtype=None if ops.is_tensor(updates) else tensor.dtype)
    return ops.apply_op(op_type, [tensor, indices, updates], name=name)


_DOC = """Returns a copy of `tensor` with the slices at `indices` {what} `updates`.

    `indices[..., :k]` are index tuples into the first `k = indices.shape[-1]` dimensions of
    `tensor`; `updates` has shape `indices.shape[:-1] + tensor.shape[k:]`.{dups}

    Args:
      tensor: The `Tensor` to copy.
      indices: An int32/int64 `Tensor` of index tuples.
      updates: A `Tensor` of `tensor`'s dtype.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `tensor`'s dtype and shape.

    Raises:
      TypeError: If the dtypes don't fit.
      ValueError: If the static shapes don't fit together.
      InvalidArgumentError: At run time, for an index tuple out of range or shapes that don't fit.
    """


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    return _tensor_scatter("TensorScatterUpdate", tensor, indices, updates, name)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    return _tensor_scatter("TensorScatterAdd", tensor, indices, updates, name)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    return _tensor_scatter("TensorScatterSub", tensor, indices, updates, name)


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    return _tensor_scatter("TensorScatterMax", tensor, indices, updates, name)


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    return _tensor_scatter("TensorScatterMin", tensor, indices, updates, name)


tensor_scatter_nd_max.__doc__ = _DOC.format(what="replaced by their element-wise maximum with",
                                            dups=" Repeated indices all count.")
tensor_scatter_nd_min.__doc__ = _DOC.format(what="replaced by their element-wise minimum with",
                                            dups=" Repeated indices all count.")
tensor_scatter_nd_update.__doc__ = _DOC.format(what="replaced by", dups=" A repeated index takes its last update.")
tensor_scatter_nd_add.__doc__ = _DOC.format(what="plus", dups=" Repeated indices add up.")
tensor_scatter_nd_sub.__doc__ = _DOC.format(what="minus", dups=" Repeated indices subtract each update.")
tensor_scatter_update = tensor_scatter_nd_update
tensor_scatter_add = tensor_scatter_nd_add
tensor_scatter_sub = tensor_scatter_nd_sub

__all__ = ["tensor_scatter_nd_update", "tensor_scatter_nd_add", "tensor_scatter_nd_sub", "tensor_scatter_nd_max",
           "tensor_scatter_nd_min", "tensor_scatter_update",
           "tensor_scatter_add", "tensor_scatter_sub"]


# ---- scatter updates of variables (ref inputs) ---------------------------------------------------------
_REAL = _NUMERIC[:9]
_ALL = None  # every dtype


def _var_scatter_infer(op_type, allowed):
    def infer(op):
        ref, indices, updates = op._inputs
        _check_dtype(indices, _INDEX_DTYPES, "indices", op_type)
        if allowed is not None:
            _check_dtype(ref, allowed, "ref", op_type)
        rd, idd, ud = _dims(ref), _dims(indices), _dims(updates)
        if ud == () or rd is None or idd is None or ud is None:
            return [(ref._dtype, rd)]
        want = idd + rd[1:]
        if len(want) != len(ud):
            raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(ud), len(want)))
        for i, (a, b) in enumerate(zip(ud, want)):
            if a is not None and b is not None and a != b:
                raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s and %s."
                                 % (i, a, b, _fmt(ud), _fmt(want)))
        return [(ref._dtype, rd)]
    return infer


def _trunc_divide(a, b):
    """C++ division: integers round toward zero (a zero divisor gives 0 instead of trapping)."""
    if a.dtype.kind not in "iu":
        return a / b
    with np.errstate(all="ignore"):
        q = np.where(b == 0, 0, np.abs(a) // np.where(b == 0, 1, np.abs(b)))
        return np.where((a < 0) != (b < 0), -q, q).astype(a.dtype)


# TF's min/max updates keep the old value unless the update is strictly smaller/larger (a NaN update
# changes nothing; a NaN value stays).
_COMBINE = {"update": lambda a, b: b, "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": _trunc_divide,
            "min": lambda a, b: np.where(b < a, b, a), "max": lambda a, b: np.where(b > a, b, a)}


def _var_scatter_kernel(kind):
    combine = _COMBINE[kind]

    def kernel(ctx, op, key, indices, updates, use_locking):
        from .state_ops import _freeze
        old = ctx.read_variable(key, op)
        idx = np.asarray(indices)
        if old.ndim < 1:
            raise _invalid("Parameter must be at least a vector, got shape %s" % _fmt(old.shape))
        want = idx.shape + old.shape[1:]
        if updates.shape != want and updates.ndim != 0:
            raise _invalid("Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got "
                           "updates.shape %s, indices.shape %s, params.shape %s"
                           % (_fmt(updates.shape), _fmt(idx.shape), _fmt(old.shape)))
        flat = idx.reshape(-1)
        bad = (flat < 0) | (flat >= old.shape[0])
        if bad.any():
            i = int(np.argmax(bad))
            raise _invalid("indices[%d] = %d is not in [0, %d)" % (i, flat[i], old.shape[0]))
        vals = np.broadcast_to(updates, want).reshape((flat.size,) + old.shape[1:])
        new = np.array(old, copy=True)
        for i, row in zip(flat, vals):  # in order, so repeated indices combine (or overwrite) one by one
            new[i] = combine(new[i], row)
        new = _freeze(new)
        ctx.variables[key] = new
        return new
    return kernel


def _var_scatter_nd_kernel(kind):
    combine = _COMBINE[kind]
    check = _tensor_scatter_kernel("update")

    def kernel(ctx, op, key, indices, updates, use_locking):
        from .state_ops import _freeze
        old = ctx.read_variable(key, op)
        idx = np.asarray(indices)
        check(np, old, idx, updates)  # TensorScatter's shape and index checks and messages
        k = idx.shape[-1]
        new = np.array(old, copy=True)
        for i, row in zip(idx.reshape(-1, k), updates.reshape((-1,) + old.shape[k:])):
            where = tuple(int(v) for v in i)
            new[where] = combine(new[where], row)
        new = _freeze(new)
        ctx.variables[key] = new
        return new
    return kernel


_VAR_KINDS = {"Update": _ALL, "Add": _NUMERIC, "Sub": _NUMERIC, "Mul": _NUMERIC, "Div": _NUMERIC, "Min": _REAL,
              "Max": _REAL}
for _kind, _allowed in _VAR_KINDS.items():
    register_op("Scatter" + _kind, infer=_var_scatter_infer("Scatter" + _kind, _allowed),
                kernel=_var_scatter_kernel(_kind.lower()), grad=NO_GRADIENT, stateful=True, ref_inputs=(0,))
for _kind in ("Update", "Add", "Sub"):
    register_op("ScatterNd" + _kind, infer=_tensor_scatter_infer("ScatterNd" + _kind),
                kernel=_var_scatter_nd_kernel(_kind.lower()), grad=NO_GRADIENT, stateful=True, ref_inputs=(0,))


def _var_scatter(op_type, ref, indices, updates, use_locking, name):
    from .state_ops import _ref_tensor
    r = _ref_tensor(ref)
    if isinstance(updates, ops.Tensor) and updates.dtype is not r.dtype:
        raise TypeError("Input 'updates' of '%s' Op has type %s that does not match type %s of argument 'ref'."
                        % (op_type, updates.dtype.name, r.dtype.name))
    updates = ops.convert_to_tensor(updates, name="updates", dtype=r.dtype)
    indices = ops.convert_to_tensor(indices, name="indices", preferred_dtype=_INDEX_DTYPES[0])
    return ops.apply_op(op_type, [r, indices, updates], {"use_locking": bool(use_locking)}, name=name)


_VAR_DOC = """{summary}

    {body}

    Args:
      ref: A `Variable` (reference).
      indices: An int32/int64 `Tensor` of {what}.
      updates: A `Tensor` of `ref`'s dtype, of shape {ushape}.
      use_locking: A `bool` (accepted; updates in a session never run concurrently here).
      name: A name for the operation (optional).

    Returns:
      The variable's new value (a `Tensor` of `ref`'s dtype and shape).

    Raises:
      TypeError: If `ref` is not a variable or the dtypes don't fit.
      ValueError: If the static shapes don't fit together.
      InvalidArgumentError: At run time, for an index out of range or shapes that don't fit.
    """
_ROWS_BODY = ("`ref[indices[i], ...] = {expr}` for each `i` in order (repeated indices {dups}).")


def _make_var_scatter(kind, expr, dups):
    op_type = "Scatter" + kind.capitalize()

    def fn(ref, indices, updates, use_locking=kind == "update", name=None):
        return _var_scatter(op_type, ref, indices, updates, use_locking, name)
    fn.__name__ = "scatter_" + kind
    fn.__doc__ = _VAR_DOC.format(summary="Applies sparse `%s` updates to rows of a variable." % kind,
                                 body=_ROWS_BODY.format(expr=expr, dups=dups), what="row indices of `ref`",
                                 ushape="`indices.shape + ref.shape[1:]` (or a scalar, applied to every row)")
    return fn


scatter_update = _make_var_scatter("update", "updates[i, ...]", "keep the last update")
scatter_add = _make_var_scatter("add", "ref[...] + updates[i, ...]", "all add")
scatter_sub = _make_var_scatter("sub", "ref[...] - updates[i, ...]", "all subtract")
scatter_mul = _make_var_scatter("mul", "ref[...] * updates[i, ...]", "all multiply")
scatter_div = _make_var_scatter("div", "ref[...] / updates[i, ...]", "all divide; integers round toward zero")
scatter_min = _make_var_scatter("min", "minimum(ref[...], updates[i, ...])", "all count")
scatter_max = _make_var_scatter("max", "maximum(ref[...], updates[i, ...])", "all count")


def _make_var_scatter_nd(kind, expr, dups):
    op_type = "ScatterNd" + kind.capitalize()

    def fn(ref, indices, updates, use_locking=kind == "update", name=None):
        return _var_scatter(op_type, ref, indices, updates, use_locking, name)
    fn.__name__ = "scatter_nd_" + kind
    fn.__doc__ = _VAR_DOC.format(
        summary="Applies sparse `%s` updates to slices of a variable, addressed by index tuples." % kind,
        body="`ref[indices[i]] = %s` for each index tuple `i` in order (repeated indices %s)." % (expr, dups),
        what="index tuples into the first `indices.shape[-1]` dimensions of `ref`",
        ushape="`indices.shape[:-1] + ref.shape[indices.shape[-1]:]`")
    return fn


scatter_nd_update = _make_var_scatter_nd("update", "updates[i]", "keep the last update")
scatter_nd_add = _make_var_scatter_nd("add", "ref[indices[i]] + updates[i]", "all add")
scatter_nd_sub = _make_var_scatter_nd("sub", "ref[indices[i]] - updates[i]", "all subtract")

__all__ += ["scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_min", "scatter_max",
            "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub"]
