"""Ragged-tensor kernels: "RaggedTensorToTensor" (`RaggedTensor.to_tensor`, row-splits partitions),
"RaggedTensorToSparse" (`RaggedTensor.to_sparse`) and "RaggedRange" (`tf.ragged.range`).

A ragged tensor is its flat values plus one row-splits vector per ragged dimension; these kernels
take them as separate inputs, as TF's ops do. "RaggedTensorToTensor" is differentiable with respect
to the values and the default value, as in TF; the others are not."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from .math_helpers import _const_value

__all__ = ["ragged_range", "ragged_tensor_to_sparse", "ragged_tensor_to_tensor"]

_SPLIT_TYPES = (dtypes.int32, dtypes.int64)


def _check_splits(splits, op_type):
    for s in splits:
        if s.dtype not in _SPLIT_TYPES:
            raise TypeError("Value passed to parameter 'row_splits' of '%s' has DataType %s not in list of allowed "
                            "values: int32, int64" % (op_type, s.dtype.name))
        if s.shape.ndims not in (None, 1):
            raise ValueError("Shape must be rank 1 but is rank %d" % s.shape.ndims)


def _validate_splits(splits, nvals):
    """TF's checks of a row-splits chain (InvalidArgumentError when broken)."""
    for k, s in enumerate(splits):
        s = np.asarray(s)
        n = nvals if k == len(splits) - 1 else len(splits[k + 1]) - 1
        if s.size == 0 or s[0] != 0:
            raise errors.InvalidArgumentError(None, None, "First value of ragged splits must be 0.")
        if np.any(np.diff(s) < 0):
            raise errors.InvalidArgumentError(None, None, "Ragged splits must be sorted in ascending order.")
        if s[-1] != n:
            raise errors.InvalidArgumentError(None, None, "Final value of ragged splits must match the length of "
                                              "the corresponding values: %d vs %d." % (int(s[-1]), n))


def _positions(splits):
    """For every flat value: its index along each ragged dimension (an int64 array [nvals, ragged_rank+1])."""
    s0 = np.asarray(splits[0], np.int64)
    idx = np.arange(len(s0) - 1, dtype=np.int64).reshape(-1, 1)
    for s in splits:
        s = np.asarray(s, np.int64)
        n = int(s[-1])
        j = np.arange(n, dtype=np.int64)
        parent = np.searchsorted(s[1:], j, side="right")
        idx = np.concatenate([idx[parent], (j - s[parent]).reshape(-1, 1)], axis=1)
    return idx


def _max_lengths(splits):
    out = [len(splits[0]) - 1]
    for s in splits:
        d = np.diff(np.asarray(s, np.int64))
        out.append(int(d.max()) if d.size else 0)
    return out


# ---- RaggedTensorToTensor ------------------------------------------------------------------------
def _to_tensor_infer(op):
    shape, values, default = op._inputs[:3]
    splits = op._inputs[3:]
    _check_splits(splits, "RaggedTensorToTensor")
    if default.dtype is not values.dtype:
        raise TypeError("Input 'default_value' of 'RaggedTensorToTensor' Op has type %s that does not match type %s "
                        "of argument 'values'." % (default.dtype.name, values.dtype.name))
    vdims = values.shape.as_tuple()
    n0 = splits[0].shape.as_tuple()
    lead = None if n0 is None or n0[0] is None else n0[0] - 1
    if vdims is None:
        return [(values.dtype, None)]
    out = [lead] + [None] * len(splits) + list(vdims[1:])
    given = _const_value(shape)
    if given is not None and np.ndim(given) == 1:
        given = [int(d) for d in given]
        if len(given) != len(out):
            raise ValueError("rt_input.shape and shape=%s are incompatible: rt_input.rank = %d but shape.rank = %d"
                             % (given, len(out), len(given)))
        out = [g if g >= 0 else o for g, o in zip(given, out)]
    return [(values.dtype, tuple(out))]


def _to_tensor_kernel(xp, shape, values, default, *splits, row_partition_types=()):
    values = np.asarray(values)
    splits = [np.asarray(s) for s in splits]
    _validate_splits(splits, values.shape[0])
    dims = _max_lengths(splits) + list(values.shape[1:])
    shape = np.asarray(shape)
    if shape.ndim == 1:
        if len(shape) != len(dims):
            raise errors.InvalidArgumentError(None, None, "shape must have rank %d, got %d" % (len(dims), len(shape)))
        for i, d in enumerate(shape):
            if d >= 0:
                if i > len(splits) and d != dims[i]:
                    raise errors.InvalidArgumentError(None, None, "Incompatible inner dimension %d: %d vs %d"
                                                      % (i, int(d), dims[i]))
                dims[i] = int(d)
    default = np.asarray(default, values.dtype)
    try:
        out = np.empty(dims, dtype=values.dtype)
        out[...] = np.broadcast_to(default, dims[len(splits) + 1:]) if default.ndim else default
    except ValueError:
        raise errors.InvalidArgumentError(None, None, "Unable to broadcast default_value of shape %s to tensor of "
                                          "shape %s" % (list(default.shape), dims)) from None
    idx = _positions(splits)
    k = len(splits) + 1
    keep = np.all(idx < np.asarray(dims[:k], np.int64), axis=1) if len(idx) else np.zeros(0, bool)
    out[tuple(idx[keep].T)] = values[keep]
    return out


def _to_tensor_grad(op, grad):
    """d/dvalues: the gradient at each value's position (0 where `shape` truncated it away);
    d/ddefault_value: the gradient summed over the padding positions, reduced to its shape."""
    from . import array_ops, math_ops
    from .array_gather_ops import gather_nd
    from .core_ops import ones_like
    _, values, default = op._inputs[:3]
    splits = list(op._inputs[3:])
    rr = len(splits)
    nvals = array_ops.shape(values, out_type=dtypes.int64)[:1]
    idx = ops.apply_op("RaggedTensorToSparse", splits + [array_ops.zeros(nvals, dtypes.int32)],
                       {"RAGGED_RANK": rr})[0]
    dims = array_ops.shape(grad, out_type=dtypes.int64)[:rr + 1]
    inside = math_ops.reduce_all(math_ops.less(idx, dims), axis=1)
    safe = idx * array_ops.expand_dims(math_ops.cast(inside, dtypes.int64), 1)
    gathered = gather_nd(grad, safe)
    inner_ones = ones_like(array_ops.shape(values)[1:])
    keep = array_ops.reshape(math_ops.cast(inside, grad.dtype), array_ops.concat([[-1], inner_ones], 0))
    values_grad = gathered * keep
    padding = math_ops.reduce_sum(grad, axis=list(range(rr + 1))) - math_ops.reduce_sum(values_grad, axis=0)
    default_grad = ops.apply_op("SumToShapeOf", [padding, default])
    return [None, values_grad, default_grad] + [None] * rr


register_op("RaggedTensorToTensor", infer=_to_tensor_infer, kernel=_to_tensor_kernel, grad=_to_tensor_grad)


def ragged_tensor_to_tensor(flat_values, nested_row_splits, default_value=None, shape=None, name=None):
    """The dense tensor of a ragged tensor given by its parts (op "RaggedTensorToTensor"): rows are
    padded with `default_value` (zero/"" by default) to the longest row of each ragged dimension, or
    padded/truncated to `shape`.

    Args:
      flat_values: The flat values `Tensor`.
      nested_row_splits: A list of row-splits vectors (outermost first).
      default_value: A value broadcastable to `flat_values.shape[1:]` (default zero).
      shape: An optional shape (int64 vector; -1 or None entries take the natural size).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the values' dtype.
    """
    with ops.name_scope(name, "RaggedToTensor", [flat_values] + list(nested_row_splits)):
        values = ops.convert_to_tensor(flat_values, name="flat_values")
        if default_value is None:
            default_value = np.zeros((), values.dtype.as_numpy_dtype) if values.dtype is not dtypes.string else b""
        default = ops.convert_to_tensor(default_value, dtype=values.dtype, name="default_value")
        if shape is None:
            shape_t = ops.convert_to_tensor(np.array(-1, np.int64), name="shape")
        elif isinstance(shape, ops.Tensor):
            shape_t = shape
        else:
            dims = shape.as_list() if hasattr(shape, "as_list") else list(shape)
            shape_t = ops.convert_to_tensor(np.array([-1 if d is None else int(d) for d in dims], np.int64),
                                            name="shape")
        splits = [ops.convert_to_tensor(s, name="row_splits") for s in nested_row_splits]
        return ops.apply_op("RaggedTensorToTensor", [shape_t, values, default] + splits,
                            {"row_partition_types": ["ROW_SPLITS"] * len(splits)}, name="RaggedTensorToTensor")


# ---- RaggedTensorToSparse ------------------------------------------------------------------------
def _to_sparse_infer(op):
    splits = op._inputs[:-1]
    values = op._inputs[-1]
    _check_splits(splits, "RaggedTensorToSparse")
    v = values.shape.as_tuple()
    rank = None if v is None else len(splits) + len(v)
    return [(dtypes.int64, (None, rank)), (values.dtype, (None,)), (dtypes.int64, (rank,))]


def _to_sparse_kernel(xp, *inputs, RAGGED_RANK=None):  # noqa: N803 (TF's attribute name)
    splits = [np.asarray(s) for s in inputs[:-1]]
    values = np.asarray(inputs[-1])
    _validate_splits(splits, values.shape[0])
    idx = _positions(splits)
    inner = values.shape[1:]
    if inner:
        inner_idx = np.array(list(np.ndindex(*inner)), np.int64).reshape(-1, len(inner))
        m = inner_idx.shape[0]
        idx = np.concatenate([np.repeat(idx, m, axis=0), np.tile(inner_idx, (idx.shape[0], 1))], axis=1)
    dense_shape = np.array(_max_lengths(splits) + list(inner), np.int64)
    return idx.astype(np.int64), values.reshape(-1), dense_shape


register_op("RaggedTensorToSparse", infer=_to_sparse_infer, kernel=_to_sparse_kernel, grad=NO_GRADIENT)


def ragged_tensor_to_sparse(nested_row_splits, flat_values, name=None):
    """The `(indices, values, dense_shape)` of a ragged tensor's `SparseTensor` (op
    "RaggedTensorToSparse"); dense inner dimensions of `flat_values` become sparse dimensions too."""
    with ops.name_scope(name, "RaggedToSparse", [flat_values] + list(nested_row_splits)):
        splits = [ops.convert_to_tensor(s) for s in nested_row_splits]
        return ops.apply_op("RaggedTensorToSparse", splits + [ops.convert_to_tensor(flat_values)],
                            {"RAGGED_RANK": len(splits)}, name="RaggedTensorToSparse")


# ---- RaggedRange ---------------------------------------------------------------------------------
_RANGE_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


def _range_infer(op):
    starts, limits, deltas = op._inputs
    for t, arg in ((starts, "starts"), (limits, "limits"), (deltas, "deltas")):
        if t.dtype not in _RANGE_TYPES:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                            % (arg, t.dtype.name, ", ".join(d.name for d in _RANGE_TYPES)))
        if t.dtype is not starts.dtype:
            raise TypeError("Input '%s' of 'RaggedRange' Op has type %s that does not match type %s of argument "
                            "'starts'." % (arg, t.dtype.name, starts.dtype.name))
        if t.shape.ndims is not None and t.shape.ndims > 1:
            raise ValueError("Shape must be at most rank 1 but is rank %d" % t.shape.ndims)
    n = None
    for t in (starts, limits, deltas):
        d = t.shape.as_tuple()
        if d is not None and len(d) == 1 and d[0] is not None:
            n = d[0]
    all_scalar = all(t.shape.ndims == 0 for t in (starts, limits, deltas))
    rows = 1 if all_scalar else n
    return [(dtypes.as_dtype(op._attrs["Tsplits"]), (None if rows is None else rows + 1,)), (starts.dtype, (None,))]


def _range_kernel(xp, starts, limits, deltas, Tsplits=dtypes.int64):  # noqa: N803 (TF's attribute name)
    arrays = [np.asarray(a) for a in (starts, limits, deltas)]
    sizes = {a.shape[0] for a in arrays if a.ndim == 1}
    if len(sizes) > 1:
        raise errors.InvalidArgumentError(None, None, "starts, limits, and deltas must have the same shape")
    n = sizes.pop() if sizes else 1
    s, lim, d = [np.broadcast_to(a, (n,)) for a in arrays]
    rows, lengths = [], []
    for a, b, c in zip(s, lim, d):
        if c == 0:
            raise errors.InvalidArgumentError(None, None, "Requires delta != 0")
        if (c > 0 and b > a) or (c < 0 and b < a):
            if arrays[0].dtype.kind in "iu":
                size = (abs(int(b) - int(a)) + abs(int(c)) - 1) // abs(int(c))
            else:
                size = int(np.ceil(abs((float(b) - float(a)) / float(c))))
        else:
            size = 0
        rows.append(a + np.arange(size, dtype=arrays[0].dtype) * c if size else np.zeros(0, arrays[0].dtype))
        lengths.append(size)
    splits = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(dtypes.as_dtype(Tsplits).as_numpy_dtype)
    values = np.concatenate(rows).astype(arrays[0].dtype) if rows else np.zeros(0, arrays[0].dtype)
    return splits, values


register_op("RaggedRange", infer=_range_infer, kernel=_range_kernel, grad=NO_GRADIENT)


def ragged_range(starts, limits, deltas, row_splits_dtype=dtypes.int64, name=None):
    """The `(row_splits, values)` of `tf.ragged.range` (op "RaggedRange")."""
    return ops.apply_op("RaggedRange", [starts, limits, deltas], {"Tsplits": dtypes.as_dtype(row_splits_dtype)},
                        name=name or "RaggedRange")
