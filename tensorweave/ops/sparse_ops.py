"""Ops that densify the framework's sparse values: "SparseToDense" (`tf.sparse_to_dense`,
`tf.sparse_tensor_to_dense` of a `tf.SparseTensor`) and "IndexedSlicesToDense" (what
`convert_to_tensor` of a `tf.IndexedSlices`, a sparse gradient, runs)."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from ..framework.sparse_tensor import convert_to_sparse_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import constant_value_as_shape

__all__ = ["sparse_tensor_to_dense", "sparse_to_dense"]


# ---- IndexedSlicesToDense ----------------------------------------------------------------------
def _densify_infer(op):
    v = op._inputs[0]._shape.as_tuple()
    return [(op._inputs[0]._dtype, None if v is None else (None,) + v[1:])]


def _densify_kernel(xp, values, indices, dense_shape):
    out = xp.zeros(tuple(int(d) for d in dense_shape), dtype=values.dtype)
    xp.add.at(out, indices, values)
    return out


def _densify_grad(op, grad):
    """d/dvalues densify(values, indices) = gather(grad, indices)."""
    from . import array_ops
    return [array_ops.gather(grad, op._inputs[1]), None, None]


register_op("IndexedSlicesToDense", infer=_densify_infer, kernel=_densify_kernel, grad=_densify_grad)


# ---- SparseToDense -----------------------------------------------------------------------------
_INDEX_TYPES = (dtypes.int32, dtypes.int64)


def _sparse_to_dense_infer(op):
    indices, output_shape, values, default = op._inputs
    for t, arg in ((indices, "Tindices"), (output_shape, "Tindices")):
        if t.dtype not in _INDEX_TYPES:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: int32, "
                            "int64" % (arg, t.dtype.name))
    if indices.dtype is not output_shape.dtype:
        raise TypeError("Input 'output_shape' of 'SparseToDense' Op has type %s that does not match type %s of "
                        "argument 'sparse_indices'." % (output_shape.dtype.name, indices.dtype.name))
    if default.dtype is not values.dtype:
        raise TypeError("Input 'default_value' of 'SparseToDense' Op has type %s that does not match type %s of "
                        "argument 'sparse_values'." % (default.dtype.name, values.dtype.name))
    for t, ranks in ((indices, (0, 1, 2)), (output_shape, (0, 1)), (values, (0, 1)), (default, (0,))):
        r = t.shape.ndims
        if r is not None and r not in ranks:
            raise ValueError("Shape must be rank %s but is rank %d for 'SparseToDense'"
                             % (" or ".join(str(k) for k in ranks), r))
    out = constant_value_as_shape(output_shape) if output_shape.shape.ndims == 1 else TensorShape(None)
    return [(values.dtype, out.as_tuple())]


def _format_index(idx):
    return ",".join(str(int(i)) for i in idx)


def _sparse_to_dense_kernel(xp, indices, output_shape, values, default_value, validate_indices):
    shape = tuple(int(d) for d in np.reshape(output_shape, -1))
    rank = len(shape)
    idx = np.reshape(indices, (-1, rank)) if np.ndim(indices) < 2 else np.asarray(indices)
    if idx.shape[1] != rank:
        raise errors.InvalidArgumentError(None, None, "sparse_indices should be a scalar, vector, or matrix, got "
                                          "shape %s, output_shape has %d dims" % (list(np.shape(indices)), rank))
    n = idx.shape[0]
    if np.ndim(values) == 1 and np.shape(values)[0] != n:
        raise errors.InvalidArgumentError(None, None, "sparse_values has incorrect shape %s, should be [] or [%d]"
                                          % (list(np.shape(values)), n))
    bounds = np.asarray(shape, dtype=np.int64)
    bad = np.nonzero(((idx < 0) | (idx >= bounds)).any(axis=1))[0] if n else []
    if len(bad):
        i = int(bad[0])
        raise errors.InvalidArgumentError(None, None, "indices[%d] = [%s] is out of bounds: need 0 <= index < [%s]"
                                          % (i, _format_index(idx[i]), _format_index(shape)))
    flat = np.ravel_multi_index(tuple(idx.T), shape) if rank else np.zeros(n, dtype=np.int64)
    if validate_indices and n > 1:
        step = np.diff(flat)
        if (step <= 0).any():
            i = int(np.nonzero(step <= 0)[0][0]) + 1
            if step[i - 1] == 0:
                raise errors.InvalidArgumentError(None, None, "indices[%d] = [%s] is repeated"
                                                  % (i, _format_index(idx[i])))
            raise errors.InvalidArgumentError(
                None, None, "indices[%d] = [%s] is out of order. Many sparse ops require sorted indices.\n    Use "
                "`tf.sparse.reorder` to create a correctly ordered copy.\n\n" % (i, _format_index(idx[i])))
    out = np.full(int(np.prod(shape, dtype=np.int64)), default_value, dtype=values.dtype)
    out[flat] = values
    return out.reshape(shape)


def _sparse_to_dense_grad(op, grad):
    """d/dvalues = gather_nd(grad, indices); d/ddefault = sum(grad) - sum(d/dvalues)."""
    from . import array_ops, math_ops
    indices, output_shape, values, _ = op._inputs
    rank = output_shape.shape.as_tuple()
    if indices.shape.ndims is not None and indices.shape.ndims < 2 and rank and rank[0] is not None:
        indices = array_ops.reshape(indices, [-1, rank[0]])
    values_grad = array_ops.gather_nd(grad, indices)
    default_grad = math_ops.reduce_sum(grad) - math_ops.reduce_sum(values_grad)
    if values.shape.ndims == 0:
        values_grad = math_ops.reduce_sum(values_grad)
    return [None, None, values_grad, default_grad]


register_op("SparseToDense", infer=_sparse_to_dense_infer, kernel=_sparse_to_dense_kernel,
            grad=_sparse_to_dense_grad)


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0, validate_indices=True, name=None):
    """Converts a sparse representation into a dense tensor.

    `dense[sparse_indices[i]] = sparse_values[i]` (or the scalar `sparse_values` everywhere indexed), every
    other element being `default_value`.

    Args:
      sparse_indices: 0-D, 1-D, or 2-D int32/int64 `Tensor` of indices.
      output_shape: 1-D `Tensor` (same dtype as `sparse_indices`), the shape of the dense output.
      sparse_values: 0-D or 1-D `Tensor` of values.
      default_value: 0-D `Tensor` of the same type, for the unspecified indices (default 0).
      validate_indices: If True, indices are checked to be sorted lexicographically without repeats.
      name: A name for the operation (optional).

    Returns:
      A dense `Tensor` of shape `output_shape`, with `sparse_values`' dtype.

    Raises:
      tf.errors.InvalidArgumentError: At run time, for out-of-bounds, unsorted or repeated indices.
    """
    with ops.name_scope(name, "SparseToDense", [sparse_indices, output_shape, sparse_values, default_value]) as scope:
        sparse_values = ops.convert_to_tensor(sparse_values, name="sparse_values")
        sparse_indices = ops.convert_to_tensor(sparse_indices, name="sparse_indices", preferred_dtype=dtypes.int32)
        output_shape = ops.convert_to_tensor(output_shape, name="output_shape", dtype=sparse_indices.dtype)
        default_value = ops.convert_to_tensor(default_value, name="default_value", dtype=sparse_values.dtype)
        return ops.apply_op("SparseToDense", [sparse_indices, output_shape, sparse_values, default_value],
                            {"validate_indices": bool(validate_indices)}, name=scope)


def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """Converts a `SparseTensor` into a dense tensor.

    Example: for `sp_input` of dense shape `[3, 5]` with values `a` at `[0, 1]`, `b` at `[0, 3]` and
    `c` at `[2, 0]`, the result is

      [[x a x b x]
       [x x x x x]
       [c x x x x]]

    where `x` is `default_value`.

    Args:
      sp_input: The input `SparseTensor` (or `SparseTensorValue`).
      default_value: Scalar value to set for indices not specified in `sp_input`. Defaults to zero (`b""` for
        strings).
      validate_indices: If True, indices are checked to be sorted lexicographically without repeats.
      name: A name prefix for the returned tensors (optional).

    Returns:
      A dense tensor with shape `sp_input.dense_shape` and the values of `sp_input`.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
    """
    sp_input = convert_to_sparse_tensor(sp_input)
    if default_value is None:
        default_value = b"" if sp_input.dtype is dtypes.string else np.zeros((), sp_input.dtype.as_numpy_dtype)
    return sparse_to_dense(sp_input.indices, sp_input.dense_shape, sp_input.values, default_value=default_value,
                           validate_indices=validate_indices, name=name)
