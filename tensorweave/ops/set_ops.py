"""Set operations over the last dimension: DenseToDenseSetOperation, DenseToSparseSetOperation,
SparseToSparseSetOperation and SetSize (`tf.sets`)."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor
from .sparse_core_ops import (
    _check_sparse,
    _dims,
    _dtype,
    _fmt,
    _keys,
    _same_dtype,
    _sparse_dims,
    _validate_indices,
    _vec,
)

__all__ = ["set_size", "set_intersection", "set_union", "set_difference"]

_SET_TYPES = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.string)
_OPERATIONS = ("a-b", "b-a", "intersection", "union")


# ---- kernel helpers --------------------------------------------------------------------------------
def _dense_groups(x):
    """{group index tuple: set of values} over every group of a dense input (rank >= 2)."""
    if x.ndim < 2:
        raise _invalid("Expected at least 2D argument, got %s." % _vec(x.shape))
    groups = {}
    flat = x.reshape(int(np.prod(x.shape[:-1], dtype=np.int64)), x.shape[-1])
    for key, row in zip(np.ndindex(*x.shape[:-1]), flat.tolist()):
        groups[key] = set(row)
    return groups


def _sparse_groups(indices, values, shape, validate_indices, what):
    """{group index tuple: set of values} of a sparse input; TF's checks of its indices."""
    _check_sparse(indices, values, shape, ("%s_indices" % what, "%s_values" % what, "%s_shape" % what))
    if shape.shape[0] < 2:
        raise _invalid("Invalid rank %d." % shape.shape[0])
    keys = _keys(indices)
    if validate_indices:
        _validate_indices(indices, shape)
    groups = {}
    for key, v in zip(keys, values.tolist()):
        groups.setdefault(key[:-1], set()).add(v)
    return groups


def _combine(op_name, a, b):
    if op_name == "a-b":
        return a - b
    if op_name == "b-a":
        return b - a
    if op_name == "intersection":
        return a & b
    return a | b


def _set_result(ga, gb, group_shape, set_operation, dtype):
    if set_operation not in _OPERATIONS:
        raise _invalid("Invalid set_operation %s." % set_operation)
    results = []
    max_size = 0
    for key in np.ndindex(*group_shape):
        r = _combine(set_operation, ga.get(key, set()), gb.get(key, set()))
        if r:
            s = sorted(r)
            results.append((key, s))
            max_size = max(max_size, len(s))
    n = sum(len(s) for _, s in results)
    rank = len(group_shape) + 1
    ind = np.zeros((n, rank), np.int64)
    vals = np.empty(n, dtype)
    k = 0
    for key, s in results:
        for j, v in enumerate(s):
            ind[k, :-1] = key
            ind[k, -1] = j
            vals[k] = v
            k += 1
    return ind, vals, np.asarray(list(group_shape) + [max_size], np.int64)


def _check_group_shapes(a, b):
    if len(a) != len(b) or any(x != y for x, y in zip(a, b)):
        raise _invalid("Shape mismatch: group shapes %s vs %s." % (_vec(a), _vec(b)))


def _out_specs(dtype, rank):
    return [(dtypes.int64, (None, rank)), (dtype, (None,)), (dtypes.int64, (rank,))]


def _dense_rank(t):
    d = _dims(t)
    if d is not None and len(d) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(d))
    return None if d is None else len(d)


# ---- DenseToDenseSetOperation ------------------------------------------------------------------------
def _d2d_infer(op):
    a, b = op._inputs
    _dtype(a, _SET_TYPES, "T", op)
    _same_dtype(op, b, "set2", a, "set1")
    ra, rb = _dense_rank(a), _dense_rank(b)
    if ra is not None and rb is not None:
        if ra != rb:
            raise ValueError("Shapes must be equal rank, but are %d and %d" % (ra - 1, rb - 1))
        da, db = _dims(a)[:-1], _dims(b)[:-1]
        for i, (x, y) in enumerate(zip(da, db)):
            if x is not None and y is not None and x != y:
                raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s and %s."
                                 % (i, x, y, _fmt(da), _fmt(db)))
    return _out_specs(a._dtype, ra if ra is not None else rb)


def _d2d_kernel(xp, set1, set2, set_operation, validate_indices):
    ga, gb = _dense_groups(set1), _dense_groups(set2)
    if set1.ndim != set2.ndim:
        raise _invalid("Mismatched rank %d vs %d." % (set1.ndim, set2.ndim))
    _check_group_shapes(set1.shape[:-1], set2.shape[:-1])
    return _set_result(ga, gb, set1.shape[:-1], set_operation, set1.dtype)


register_op("DenseToDenseSetOperation", infer=_d2d_infer, kernel=_d2d_kernel, grad=NO_GRADIENT)


# ---- DenseToSparseSetOperation -----------------------------------------------------------------------
def _d2s_infer(op):
    a = op._inputs[0]
    _dtype(a, _SET_TYPES, "T", op)
    _, rb = _sparse_dims(op, 1, names=("set2_indices", "set2_values", "set2_shape"))
    if op._inputs[2]._dtype is not a._dtype:
        raise TypeError("Input 'set2_values' of 'DenseToSparseSetOperation' Op has type %s that does not match "
                        "type %s of argument 'set1'." % (op._inputs[2]._dtype.name, a._dtype.name))
    ra = _dense_rank(a)
    return _out_specs(a._dtype, ra if ra is not None else rb)


def _d2s_kernel(xp, set1, set2_indices, set2_values, set2_shape, set_operation, validate_indices):
    ga = _dense_groups(set1)
    gb = _sparse_groups(set2_indices, set2_values, set2_shape, validate_indices, "set2")
    if set1.ndim != set2_shape.shape[0]:
        raise _invalid("Mismatched rank %d vs %d." % (set1.ndim, set2_shape.shape[0]))
    _check_group_shapes(set1.shape[:-1], set2_shape[:-1].tolist())
    return _set_result(ga, gb, set1.shape[:-1], set_operation, set1.dtype)


register_op("DenseToSparseSetOperation", infer=_d2s_infer, kernel=_d2s_kernel, grad=NO_GRADIENT)


# ---- SparseToSparseSetOperation ----------------------------------------------------------------------
def _s2s_infer(op):
    _, ra = _sparse_dims(op, 0, names=("set1_indices", "set1_values", "set1_shape"))
    _, rb = _sparse_dims(op, 3, names=("set2_indices", "set2_values", "set2_shape"))
    _dtype(op._inputs[1], _SET_TYPES, "T", op)
    _same_dtype(op, op._inputs[4], "set2_values", op._inputs[1], "set1_values")
    return _out_specs(op._inputs[1]._dtype, ra if ra is not None else rb)


def _s2s_kernel(xp, set1_indices, set1_values, set1_shape, set2_indices, set2_values, set2_shape, set_operation,
                validate_indices):
    ga = _sparse_groups(set1_indices, set1_values, set1_shape, validate_indices, "set1")
    gb = _sparse_groups(set2_indices, set2_values, set2_shape, validate_indices, "set2")
    if set1_shape.shape[0] != set2_shape.shape[0]:
        raise _invalid("Mismatched rank %d vs %d." % (set1_shape.shape[0], set2_shape.shape[0]))
    _check_group_shapes(set1_shape[:-1].tolist(), set2_shape[:-1].tolist())
    return _set_result(ga, gb, set1_shape[:-1].tolist(), set_operation, set1_values.dtype)


register_op("SparseToSparseSetOperation", infer=_s2s_infer, kernel=_s2s_kernel, grad=NO_GRADIENT)


# ---- SetSize -------------------------------------------------------------------------------------------
def _size_infer(op):
    _, r = _sparse_dims(op, 0, names=("set_indices", "set_values", "set_shape"))
    _dtype(op._inputs[1], _SET_TYPES, "T", op)
    from .sparse_core_ops import _static_shape_value
    sv = _static_shape_value(op._inputs[2])
    if sv is not None:
        return [(dtypes.int32, tuple(sv[:-1]))]
    return [(dtypes.int32, None if r is None else (None,) * (r - 1))]


def _size_kernel(xp, set_indices, set_values, set_shape, validate_indices):
    groups = _sparse_groups(set_indices, set_values, set_shape, validate_indices, "set")
    out = np.zeros([int(d) for d in set_shape[:-1]], np.int32)
    for key, s in groups.items():
        if all(0 <= k < d for k, d in zip(key, out.shape)):
            out[key] = len(s)
    return out


register_op("SetSize", infer=_size_infer, kernel=_size_kernel, grad=NO_GRADIENT)


# ---- public functions ----------------------------------------------------------------------------------
def _to_tensor_or_sparse(x, name):
    from .sparse_core_ops import convert_to_tensor_or_sparse_tensor
    return convert_to_tensor_or_sparse_tensor(x, name=name)


def _convert_pair(a, b):
    a = _to_tensor_or_sparse(a, "a")
    if a.dtype not in _SET_TYPES:
        raise TypeError("'a' has invalid dtype `%s` not in supported dtypes: `%s`."
                        % (a.dtype.name, [d.name for d in _SET_TYPES]))
    b = _to_tensor_or_sparse(b, "b")
    if b.dtype is not a.dtype:
        raise TypeError("Types don't match, %s vs %s." % (a.dtype.name, b.dtype.name))
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        return b, a, True
    return a, b, False


def _set_operation(a, b, set_operation, validate_indices):
    attrs = {"set_operation": set_operation, "validate_indices": bool(validate_indices)}
    if isinstance(a, SparseTensor):
        out = ops.apply_op("SparseToSparseSetOperation", [a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                          b.dense_shape], attrs)
    elif isinstance(b, SparseTensor):
        out = ops.apply_op("DenseToSparseSetOperation", [a, b.indices, b.values, b.dense_shape], attrs)
    else:
        out = ops.apply_op("DenseToDenseSetOperation", [a, b], attrs)
    return SparseTensor(*out)


def set_size(a, validate_indices=True):
    """Compute number of unique elements along last dimension of `a`.

    Args:
      a: `SparseTensor`, with indices sorted in row-major order.
      validate_indices: Whether to validate the order and range of sparse indices in `a`.

    Returns:
      `int32` `Tensor` of set sizes. For `a` ranked `n`, this is a `Tensor` with rank `n-1`, and the same 1st
      `n-1` dimensions as `a`. Each value is the number of unique elements in the corresponding `[0...n-1]`
      dimension of `a`.

    Raises:
      TypeError: If `a` is an invalid types.
    """
    a = _to_tensor_or_sparse(a, "a")
    if not isinstance(a, SparseTensor):
        raise TypeError("Expected `SparseTensor`, got %s." % a)
    if a.values.dtype not in _SET_TYPES:
        raise TypeError("Invalid dtype `%s` not in supported dtypes: `%s`."
                        % (a.values.dtype.name, [d.name for d in _SET_TYPES]))
    return ops.apply_op("SetSize", [a.indices, a.values, a.dense_shape], {"validate_indices": bool(validate_indices)})


def set_intersection(a, b, validate_indices=True):
    """Compute set intersection of elements in last dimension of `a` and `b`.

    All but the last dimension of `a` and `b` must match. The result holds, for each group, the sorted
    values present in both.

    Args:
      a: `Tensor` or `SparseTensor` of the same type as `b`. If sparse, indices must be sorted in row-major
        order.
      b: `Tensor` or `SparseTensor` of the same type as `a`. If sparse, indices must be sorted in row-major
        order.
      validate_indices: Whether to validate the order and range of sparse indices in `a` and `b`.

    Returns:
      A `SparseTensor` whose shape is the same rank as `a` and `b`, and all but the last dimension the same.
      Elements along the last dimension contain the intersections.

    Raises:
      TypeError: For an unsupported dtype or operands of different dtypes.
    """
    a, b, _ = _convert_pair(a, b)
    return _set_operation(a, b, "intersection", validate_indices)


def set_difference(a, b, aminusb=True, validate_indices=True):
    """Compute set difference of elements in last dimension of `a` and `b`.

    All but the last dimension of `a` and `b` must match. The result holds, for each group, the sorted
    values of `a` not in `b` (or of `b` not in `a` with `aminusb=False`).

    Args:
      a: `Tensor` or `SparseTensor` of the same type as `b`. If sparse, indices must be sorted in row-major
        order.
      b: `Tensor` or `SparseTensor` of the same type as `a`. If sparse, indices must be sorted in row-major
        order.
      aminusb: Whether to subtract `b` from `a`, vs vice versa.
      validate_indices: Whether to validate the order and range of sparse indices in `a` and `b`.

    Returns:
      A `SparseTensor` whose shape is the same rank as `a` and `b`, and all but the last dimension the same.
      Elements along the last dimension contain the differences.

    Raises:
      TypeError: For an unsupported dtype or operands of different dtypes.
    """
    a, b, flipped = _convert_pair(a, b)
    if flipped:
        aminusb = not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


def set_union(a, b, validate_indices=True):
    """Compute set union of elements in last dimension of `a` and `b`.

    All but the last dimension of `a` and `b` must match. The result holds, for each group, the sorted
    values present in either.

    Args:
      a: `Tensor` or `SparseTensor` of the same type as `b`. If sparse, indices must be sorted in row-major
        order.
      b: `Tensor` or `SparseTensor` of the same type as `a`. If sparse, indices must be sorted in row-major
        order.
      validate_indices: Whether to validate the order and range of sparse indices in `a` and `b`.

    Returns:
      A `SparseTensor` whose shape is the same rank as `a` and `b`, and all but the last dimension the same.
      Elements along the last dimension contain the unions.

    Raises:
      TypeError: For an unsupported dtype or operands of different dtypes.
    """
    a, b, _ = _convert_pair(a, b)
    return _set_operation(a, b, "union", validate_indices)
