"""Counting values into a sparse result: DenseCountSparseOutput and SparseCountSparseOutput
(`tf.sparse.bincount`)."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue, convert_to_sparse_tensor
from .sparse_core_ops import _dims, _dtype, _fmt, _rank, _shape_str, _sparse_dims

__all__ = ["sparse_bincount"]

_VALUE_TYPES = (dtypes.int32, dtypes.int64)
_OUT_TYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


def _count_specs(op, rank):
    out = op._attrs["output_type"]
    if op._inputs[-1]._dtype is not out:
        raise TypeError("Input 'weights' of '%s' Op has type %s that does not match expected type of %s."
                        % (op._type, op._inputs[-1]._dtype.name, out.name))
    _dtype(op._inputs[-1], _OUT_TYPES, "output_type", op)
    return [(dtypes.int64, (None, rank)), (out, (None,)), (dtypes.int64, (rank,))]


def _counts(batches, values, weights, num_batches, is_1d, minlength, maxlength, binary_output, out_dtype):
    """TF's count kernels from the batch of each value: (indices, counts, dense_shape)."""
    if values.size and (values < 0).any():
        raise _invalid("Input values must all be non-negative")
    use_weights = weights.size > 0
    keep = (values < maxlength) if maxlength >= 0 else np.ones(values.shape, bool)
    per_batch = [dict() for _ in range(num_batches)]
    max_value = 0
    for k in np.flatnonzero(keep).tolist():
        b, v = int(batches[k]), int(values[k])
        counts = per_batch[b]
        if binary_output:
            counts[v] = 1
        elif use_weights:
            counts[v] = counts.get(v, out_dtype.type(0)) + weights[k]
        else:
            counts[v] = counts.get(v, 0) + 1
        max_value = max(max_value, v)
    size = maxlength if maxlength > 0 else max(max_value + 1, minlength)
    ind, vals = [], []
    for b, counts in enumerate(per_batch):
        for v in sorted(counts):
            ind.append([v] if is_1d else [b, v])
            vals.append(counts[v])
    rank = 1 if is_1d else 2
    shape = [size] if is_1d else [num_batches, size]
    return (np.array(ind, np.int64).reshape(-1, rank), np.array(vals, out_dtype).reshape(-1),
            np.array(shape, np.int64))


# ---- DenseCountSparseOutput ------------------------------------------------------------------------------
def _dense_infer(op):
    values, weights = op._inputs
    _dtype(values, _VALUE_TYPES, "values", op)
    d, w = _dims(values), _dims(weights)
    if d is not None and w is not None and not (len(w) == 1 and w[0] == 0):
        if len(d) != len(w):
            raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(w), len(d)))
        for i, (x, y) in enumerate(zip(w, d)):
            if x is not None and y is not None and x != y:
                raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s and %s."
                                 % (i, x, y, _fmt(w), _fmt(d)))
    rank = None if d is None or len(d) not in (1, 2) else len(d)
    return _count_specs(op, rank)


def _dense_kernel(xp, values, weights, minlength, maxlength, binary_output, output_type):
    if values.ndim not in (1, 2):
        raise _invalid("Input must be a 1 or 2-dimensional tensor. Got: %s" % _shape_str(values))
    if weights.size and weights.shape != values.shape:
        raise _invalid("Weights and values must have the same shape. Weight shape: %s; values shape: %s"
                       % (_shape_str(weights), _shape_str(values)))
    is_1d = values.ndim == 1
    num_batches = 1 if is_1d else values.shape[0]
    per = values.shape[-1] if values.ndim else 1
    batches = np.zeros(values.size, np.int64) if is_1d else np.repeat(np.arange(num_batches), per)
    return _counts(batches, values.reshape(-1), weights.reshape(-1), num_batches, is_1d, minlength, maxlength,
                   binary_output, np.dtype(output_type.as_numpy_dtype))


register_op("DenseCountSparseOutput", infer=_dense_infer, kernel=_dense_kernel, grad=NO_GRADIENT)


# ---- SparseCountSparseOutput -----------------------------------------------------------------------------
def _sparse_infer(op):
    _, r = _sparse_dims(op, 0, names=("indices", "values", "dense_shape"))
    _dtype(op._inputs[1], _VALUE_TYPES, "values", op)
    _rank(op._inputs[3], 1, op, "weights")
    return _count_specs(op, r if r in (1, 2) else None)


def _sparse_kernel(xp, indices, values, dense_shape, weights, minlength, maxlength, binary_output, output_type):
    if np.ndim(indices) != 2 or np.ndim(values) != 1 or np.ndim(dense_shape) != 1:
        raise _invalid("Invalid sparse tensor: indices %s, values %s, dense_shape %s"
                       % (_shape_str(indices), _shape_str(values), _shape_str(dense_shape)))
    rank = dense_shape.shape[0]
    if rank not in (1, 2):
        raise _invalid("Input must be a 1 or 2-dimensional tensor. Got: %s" % _shape_str(dense_shape))
    if weights.size and weights.shape != values.shape:
        raise _invalid("Weights and values must have the same shape. Weight shape: %s; values shape: %s"
                       % (_shape_str(weights), _shape_str(values)))
    is_1d = rank == 1
    num_batches = 1 if is_1d else int(dense_shape[0])
    batches = np.zeros(values.shape[0], np.int64) if is_1d else indices[:, 0].astype(np.int64)
    if batches.size and ((batches < 0) | (batches >= num_batches)).any():
        raise _invalid("Indices value along the first dimension must be in [0, %d)" % num_batches)
    return _counts(batches, values, weights, num_batches, is_1d, minlength, maxlength, binary_output,
                   np.dtype(output_type.as_numpy_dtype))


register_op("SparseCountSparseOutput", infer=_sparse_infer, kernel=_sparse_kernel, grad=NO_GRADIENT)


# ---- tf.sparse.bincount -------------------------------------------------------------------------------------
def sparse_bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False, name=None):
    """Count the number of times an integer value appears in a tensor.

    With `axis=0` every value of the input counts in one bin vector; with `axis=-1` each row (the first
    index of a rank-2 input) has its own counts. The result is a `SparseTensor` holding the nonzero bins
    in order: dense shape `[maxlength]` if `maxlength` is given, else `[max(max(values) + 1, minlength)]`
    (with a leading batch dimension for `axis=-1`); values `>= maxlength` are ignored.

    Args:
      values: A Tensor or SparseTensor whose values should be counted (int32 or int64, non-negative).
      weights: If not None, a Tensor (or SparseTensor with the same indices as a sparse `values`) of the same
        shape as `values`: each value adds its weight instead of 1.
      axis: The axis to slice over: 0 (flatten) or -1 (count per row).
      minlength: If given, skips `values` that are greater than or equal to `minlength`, and ensures that
        the output has a `dense_shape` of at least `minlength` in the inner dimension.
      maxlength: If given, skips `values` that are greater than or equal to `maxlength`, and ensures that
        the output has a `dense_shape` of at most `maxlength` in the inner dimension.
      binary_output: If True, this op will output 1 instead of the number of times a token appears
        (equivalent to one_hot + reduce_any instead of one_hot + reduce_add). Defaults to False.
      name: A name for this op.

    Returns:
      A SparseTensor with `output.shape = values.shape[:axis] + [N]`, where `N` is the output size described
      above.

    Raises:
      ValueError: For an `axis` other than 0 and -1, or `weights` with `binary_output`.
      NotImplementedError: For a `RaggedTensor` input.
    """
    from . import array_ops
    if type(values).__name__ == "RaggedTensor" or type(weights).__name__ == "RaggedTensor":
        raise NotImplementedError("tf.sparse.bincount of a RaggedTensor is not supported")
    with ops.name_scope(name, "count", [values, weights]):
        if isinstance(values, SparseTensorValue):
            values = convert_to_sparse_tensor(values)
        if not isinstance(values, SparseTensor):
            values = ops.convert_to_tensor(values, name="values")
        if weights is not None:
            if isinstance(weights, SparseTensorValue):
                weights = convert_to_sparse_tensor(weights)
            if not isinstance(weights, SparseTensor):
                weights = ops.convert_to_tensor(weights, name="weights")
        if weights is not None and binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only "
                             "one.")
        if axis is None:
            axis = 0
        if axis not in (0, -1):
            raise ValueError("Unsupported value for argument axis=%s. Only 0 and -1 are currently supported."
                             % axis)
        attrs = {"minlength": -1 if minlength is None else int(minlength),
                 "maxlength": -1 if maxlength is None else int(maxlength), "binary_output": bool(binary_output)}
        if axis == 0:
            if isinstance(values, SparseTensor):
                if isinstance(weights, SparseTensor):
                    weights = weights.values
                values = values.values
            else:
                if weights is not None:
                    weights = array_ops.reshape(weights, [-1])
                values = array_ops.reshape(values, [-1])
        if isinstance(weights, SparseTensor):
            weights = weights.values
        if weights is None:
            weights = ops.convert_to_tensor(np.zeros(0, values.dtype.as_numpy_dtype))
        attrs["output_type"] = weights.dtype
        if isinstance(values, SparseTensor):
            out = ops.apply_op("SparseCountSparseOutput", [values.indices, values.values, values.dense_shape,
                                                           weights], attrs)
        else:
            out = ops.apply_op("DenseCountSparseOutput", [values, weights], attrs)
        return SparseTensor(*out)
