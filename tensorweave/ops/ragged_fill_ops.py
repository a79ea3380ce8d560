"""Filling the empty rows of a ragged vector: "RaggedFillEmptyRows" (`tf.ragged_fill_empty_rows`) and
its gradient "RaggedFillEmptyRowsGrad" (`tf.ragged_fill_empty_rows_grad`), TF's ragged analogue of
`SparseFillEmptyRows`: the values grouped by row (stably), each empty row given one `default_value`."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op

__all__ = ["ragged_fill_empty_rows", "ragged_fill_empty_rows_grad"]


def _rank(t, rank):
    if t.shape.ndims not in (None, rank):
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, t.shape.ndims))


def _fill_infer(op):
    rowids, values, nrows, default = op._inputs
    for t, arg in ((rowids, "value_rowids"), (nrows, "nrows")):
        if t.dtype is not dtypes.int64:
            raise TypeError("Input '%s' of 'RaggedFillEmptyRows' Op has type %s that does not match expected type of "
                            "int64." % (arg, t.dtype.name))
    if default.dtype is not values.dtype:
        raise TypeError("Input 'default_value' of 'RaggedFillEmptyRows' Op has type %s that does not match type %s "
                        "of argument 'values'." % (default.dtype.name, values.dtype.name))
    _rank(rowids, 1)
    _rank(values, 1)
    _rank(nrows, 0)
    _rank(default, 0)
    return [(dtypes.int64, (None,)), (values.dtype, (None,)), (dtypes.bool_, (None,)),
            (dtypes.int64, rowids.shape.as_tuple())]


def _fill_kernel(xp, rowids, values, nrows, default_value):
    rowids = np.asarray(rowids, np.int64)
    values = np.asarray(values)
    n = int(nrows)
    for k, r in enumerate(rowids):
        if not 0 <= r < n:
            raise errors.InvalidArgumentError(None, None, "indices(%d, 0) is invalid: %d >= %d" % (k, int(r), n))
    counts = np.bincount(rowids, minlength=n) if rowids.size else np.zeros(n, np.int64)
    empty = counts == 0
    per_row = np.maximum(counts, 1)
    starts = np.concatenate([[0], np.cumsum(per_row)[:-1]]).astype(np.int64) if n else np.zeros(0, np.int64)
    total = int(per_row.sum())
    out_rowids = np.repeat(np.arange(n, dtype=np.int64), per_row)
    out_values = np.empty(total, values.dtype)
    if total:
        out_values[starts[empty]] = default_value
    order = np.argsort(rowids, kind="stable")
    reverse = np.empty(rowids.size, np.int64)
    rank_in_row = np.arange(rowids.size) - np.concatenate([[0], np.cumsum(counts)[:-1]])[rowids[order]] \
        if rowids.size else np.zeros(0, np.int64)
    reverse[order] = starts[rowids[order]] + rank_in_row
    out_values[reverse] = values
    return out_rowids, out_values, empty, reverse


def _fill_grad(op, grad_rowids, grad_values, grad_empty, grad_reverse):
    if grad_values is None:
        return [None] * 4
    d_values, d_default = ops.apply_op("RaggedFillEmptyRowsGrad", [op.outputs[3], grad_values])
    return [None, d_values, None, d_default]


register_op("RaggedFillEmptyRows", infer=_fill_infer, kernel=_fill_kernel, grad=_fill_grad)


def _fill_grad_infer(op):
    reverse, grad = op._inputs
    if reverse.dtype is not dtypes.int64:
        raise TypeError("Input 'reverse_index_map' of 'RaggedFillEmptyRowsGrad' Op has type %s that does not match "
                        "expected type of int64." % reverse.dtype.name)
    _rank(reverse, 1)
    _rank(grad, 1)
    return [(grad.dtype, reverse.shape.as_tuple()), (grad.dtype, ())]


def _fill_grad_kernel(xp, reverse, grad):
    reverse = np.asarray(reverse, np.int64)
    grad = np.asarray(grad)
    if reverse.size and (reverse.min() < 0 or reverse.max() >= grad.shape[0]):
        raise errors.InvalidArgumentError(None, None, "Elements in reverse index must be in [0, %d) but got %d"
                                          % (grad.shape[0], int(reverse.max())))
    d_values = grad[reverse]
    return d_values, np.asarray(grad.sum(dtype=grad.dtype) - d_values.sum(dtype=grad.dtype), grad.dtype)


register_op("RaggedFillEmptyRowsGrad", infer=_fill_grad_infer, kernel=_fill_grad_kernel)


def ragged_fill_empty_rows(value_rowids, values, nrows, default_value, name=None):
    """Gives every empty row of a ragged vector one `default_value` (TF's `tf.ragged_fill_empty_rows`,
    op "RaggedFillEmptyRows").

    Args:
      value_rowids: An int64 vector: the row of each value (in `[0, nrows)`).
      values: A vector of values.
      nrows: An int64 scalar: the number of rows.
      default_value: A scalar of the values' dtype.
      name: A name for the operation (optional).

    Returns:
      A tuple `(output_value_rowids, output_values, empty_row_indicator, reverse_index_map)`: the
      values grouped by row (stably) with one `default_value` per empty row, whether each row was
      empty, and where each input value went.

    Raises:
      InvalidArgumentError: At run time, for a row id outside `[0, nrows)`.
    """
    with ops.name_scope(name, "RaggedFillEmptyRows", [value_rowids, values, nrows, default_value]) as scope:
        rowids = ops.convert_to_tensor(value_rowids, dtype=dtypes.int64, name="value_rowids")
        vals = ops.convert_to_tensor(values, name="values")
        n = ops.convert_to_tensor(nrows, dtype=dtypes.int64, name="nrows")
        default = ops.convert_to_tensor(default_value, dtype=vals.dtype, name="default_value")
        return tuple(ops.apply_op("RaggedFillEmptyRows", [rowids, vals, n, default], name=scope))


def ragged_fill_empty_rows_grad(reverse_index_map, grad_values, name=None):
    """The gradient of `ragged_fill_empty_rows` (op "RaggedFillEmptyRowsGrad").

    Args:
      reverse_index_map: The int64 `reverse_index_map` output of the forward op.
      grad_values: The gradient with respect to its `output_values`.
      name: A name for the operation (optional).

    Returns:
      A tuple `(d_values, d_default_value)`: `grad_values[reverse_index_map]`, and the sum of the
      gradient over the filled positions.
    """
    with ops.name_scope(name, "RaggedFillEmptyRowsGrad", [reverse_index_map, grad_values]) as scope:
        rev = ops.convert_to_tensor(reverse_index_map, dtype=dtypes.int64, name="reverse_index_map")
        grad = ops.convert_to_tensor(grad_values, name="grad_values")
        return tuple(ops.apply_op("RaggedFillEmptyRowsGrad", [rev, grad], name=scope))
