"""Sparse arithmetic: SparseTensorDenseMatMul, SparseReduceSum(Sparse), SparseReduceMax(Sparse),
SparseSoftmax, SparseSparseMaximum/Minimum, SparseDenseCwiseMul/Div/Add and EditDistance, with the
public functions (`tf.sparse.matmul`, `tf.sparse.reduce_sum`, `tf.sparse.softmax`, `tf.edit_distance`,
`tf.sparse_matmul`, ...)."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue, convert_to_sparse_tensor
from .sparse_core_ops import (
    _NUMERIC,
    _REAL_NUMERIC,
    _check_same_shape,
    _check_sparse,
    _dims,
    _dtype,
    _keys,
    _lex_order,
    _merge,
    _merged_entries,
    _rank,
    _same_dtype,
    _shape_str,
    _sparse_dims,
    _static_shape_value,
)

__all__ = ["sparse_tensor_dense_matmul", "sparse_reduce_sum", "sparse_reduce_sum_sparse", "sparse_reduce_max",
           "sparse_reduce_max_sparse", "sparse_softmax", "sparse_maximum", "sparse_minimum", "edit_distance",
           "sparse_matmul", "sparse_dense_cwise_add", "sparse_dense_cwise_mul", "sparse_dense_cwise_div"]

# ---- SparseTensorDenseMatMul ------------------------------------------------------------------------
_MATMUL_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.complex64,
                 dtypes.complex128)


def _matmul_infer(op):
    _sparse_dims(op, 0, index_types=(dtypes.int32, dtypes.int64), names=("a_indices", "a_values", "a_shape"))
    a_val, a_shape, b = op._inputs[1], op._inputs[2], op._inputs[3]
    _dtype(a_val, _MATMUL_TYPES, "T", op)
    _same_dtype(op, b, "b", a_val, "a_values")
    ds = _dims(a_shape)
    if ds is not None and ds[0] is not None and ds[0] != 2:
        raise ValueError("Dimension must be 2 but is %d" % ds[0])
    db = _rank(b, 2, op, "b")
    adj_a, adj_b = op._attrs["adjoint_a"], op._attrs["adjoint_b"]
    sv = _static_shape_value(a_shape)
    rows = inner_a = None
    if sv is not None and len(sv) == 2:
        rows, inner_a = (sv[1], sv[0]) if adj_a else (sv[0], sv[1])
    cols = inner_b = None
    if db is not None:
        inner_b, cols = (db[1], db[0]) if adj_b else (db[0], db[1])
    if inner_a is not None and inner_b is not None and inner_a != inner_b:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (inner_a, inner_b))
    return [(a_val._dtype, (rows, cols))]


def _matmul_kernel(xp, a_indices, a_values, a_shape, b, adjoint_a, adjoint_b):
    if np.ndim(a_shape) != 1 or a_shape.shape[0] != 2:
        raise _invalid("Tensor 'a_shape' is not a vector of length 2: shape %s" % _shape_str(a_shape))
    if np.ndim(b) != 2:
        raise _invalid("Tensor 'b' is not a matrix")
    if np.ndim(a_indices) != 2 or a_indices.shape[1] != 2:
        raise _invalid("Tensor 'a_indices' is not a matrix with 2 columns: shape %s" % _shape_str(a_indices))
    if np.ndim(a_values) != 1:
        raise _invalid("Tensor 'a_values' is not a vector")
    nnz = a_indices.shape[0]
    if a_values.shape[0] != nnz:
        raise _invalid("Number of rows of a_indices does not match number of entries in a_values")
    out_rows = int(a_shape[1] if adjoint_a else a_shape[0])
    inner = int(a_shape[0] if adjoint_a else a_shape[1])
    bb = np.conj(b.T) if adjoint_b else b
    if bb.shape[0] != inner:
        raise _invalid("Cannot multiply A and B because inner dimension does not match: %d vs. %d.  Did you forget "
                       "a transpose?  Dimensions of A: [%d, %d).  Dimensions of B: %s"
                       % (inner, bb.shape[0], int(a_shape[0]), int(a_shape[1]), _shape_str(b)))
    out = np.zeros((out_rows, bb.shape[1]), b.dtype)
    if nnz == 0:
        return out
    m = a_indices[:, 1 if adjoint_a else 0].astype(np.int64)
    k = a_indices[:, 0 if adjoint_a else 1].astype(np.int64)
    bad = np.nonzero((k < 0) | (k >= inner))[0]
    if len(bad):
        i = int(bad[0])
        raise _invalid("k (%d) from index[%d,%d] out of bounds (>=%d)" % (k[i], i, 0 if adjoint_a else 1, inner))
    bad = np.nonzero((m < 0) | (m >= out_rows))[0]
    if len(bad):
        i = int(bad[0])
        raise _invalid("m (%d) from index[%d,%d] out of bounds (>=%d)" % (m[i], i, 1 if adjoint_a else 0, out_rows))
    vals = np.conj(a_values) if adjoint_a else a_values
    np.add.at(out, m, (vals[:, None] * bb[k]).astype(b.dtype))
    return out


def _matmul_grad(op, grad):
    from . import array_ops, math_ops
    a_indices, a_values, a_shape, b = op._inputs
    adj_a, adj_b = op._attrs["adjoint_a"], op._attrs["adjoint_b"]
    b_grad = ops.apply_op("SparseTensorDenseMatMul", [a_indices, a_values, a_shape, grad],
                          {"adjoint_a": not adj_a, "adjoint_b": False})
    if adj_b:
        b_grad = array_ops.transpose(b_grad, conjugate=True)
    rows = a_indices[:, 0]
    cols = a_indices[:, 1]
    parts_a = array_ops.gather(grad, cols if adj_a else rows)
    parts_b = array_ops.gather(array_ops.transpose(b) if adj_b else b, rows if adj_a else cols)
    ex = array_ops.expand_dims
    if not adj_a and not adj_b:
        g = math_ops.matmul(ex(parts_a, -2), ex(parts_b, -2), adjoint_b=True)
    elif adj_a and not adj_b:
        g = math_ops.matmul(ex(parts_a, -1), ex(parts_b, -1), adjoint_a=True)
    elif not adj_a and adj_b:
        g = math_ops.matmul(ex(parts_a, -2), ex(parts_b, -1))
    else:
        g = math_ops.matmul(ex(parts_a, -1), ex(parts_b, -2), adjoint_a=True, adjoint_b=True)
    return [None, array_ops.squeeze(g, axis=[-2, -1]), None, b_grad]


register_op("SparseTensorDenseMatMul", infer=_matmul_infer, kernel=_matmul_kernel, grad=_matmul_grad)


def sparse_tensor_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """Multiply SparseTensor (or dense Matrix) (of rank 2) "A" by dense matrix "B".

    `output = op(A) @ op(B)` where `op` is the (conjugate) transpose when the matching `adjoint_*` flag is
    set. Either operand may be the `SparseTensor` (when `b` is sparse, the product is computed as the
    transpose of `op(B)^T @ op(A)^T`).

    Args:
      sp_a: SparseTensor (or dense Matrix) A, of rank 2.
      b: dense Matrix (or SparseTensor) B, with the same dtype as sp_a.
      adjoint_a: Use the adjoint of A in the matrix multiply. If A is complex, this is transpose(conj(A)).
        Otherwise it's transpose(A).
      adjoint_b: Use the adjoint of B in the matrix multiply. If B is complex, this is transpose(conj(B)).
        Otherwise it's transpose(B).
      name: A name prefix for the returned tensors (optional)

    Returns:
      A dense matrix (pseudo-code in dense np.matrix notation):
        `A = A.H if adjoint_a else A`, `B = B.H if adjoint_b else B`, `return A*B`

    Raises:
      TypeError: If the operands' dtypes differ.
      ValueError: If the static shapes do not multiply.
    """
    from . import array_ops
    if isinstance(b, (SparseTensor, SparseTensorValue)):
        if adjoint_a != adjoint_b:
            return array_ops.transpose(sparse_tensor_dense_matmul(b, sp_a, adjoint_a, adjoint_b))
        return array_ops.transpose(sparse_tensor_dense_matmul(b, sp_a, adjoint_a=not adjoint_a,
                                                              adjoint_b=not adjoint_b))
    sp_a = convert_to_sparse_tensor(sp_a)
    with ops.name_scope(name, "SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, b]) as scope:
        b = ops.convert_to_tensor(b, name="b")
        return ops.apply_op("SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, sp_a.dense_shape, b],
                            {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}, name=scope)


def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """Multiply matrix "a" by matrix "b" (TF's `SparseMatMul`: dense inputs with sparsity hints).

    The inputs are dense matrices; `a_is_sparse`/`b_is_sparse` are only hints about how many zeros they
    hold, so the result is `matmul(a, b)` (as float32, the type `SparseMatMul` returns).

    Args:
      a: A float32 or bfloat16 `Tensor`.
      b: A float32 or bfloat16 `Tensor`.
      transpose_a: An optional `bool`. Defaults to `False`.
      transpose_b: An optional `bool`. Defaults to `False`.
      a_is_sparse: An optional `bool`. Defaults to `False` (a hint only).
      b_is_sparse: An optional `bool`. Defaults to `False` (a hint only).
      name: A name for the operation (optional).

    Returns:
      A float32 `Tensor`.

    Raises:
      TypeError: If an input is not float32.
    """
    from . import math_ops
    with ops.name_scope(name, "SparseMatMul", [a, b]) as scope:
        a = ops.convert_to_tensor(a, name="a", dtype=dtypes.float32)
        b = ops.convert_to_tensor(b, name="b", dtype=dtypes.float32)
        return math_ops.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=scope)


# ---- SparseReduceSum / SparseReduceMax (+ Sparse) ------------------------------------------------------
def _reduce_infer(sparse_out, allowed):
    def infer(op):
        _sparse_dims(op, 0, names=("input_indices", "input_values", "input_shape"))
        val, shp, axes = op._inputs[1], op._inputs[2], op._inputs[3]
        _dtype(val, allowed, "T", op)
        _dtype(axes, (dtypes.int32,), "reduction_axes", op)
        da = _dims(axes)
        if da is not None and len(da) > 1:
            raise ValueError("Shape must be at most rank 1 but is rank %d" % len(da))
        keep = op._attrs["keep_dims"]
        sv, av = _static_shape_value(shp), _static_shape_value(axes)
        out = None
        if sv is not None and av is not None:
            r = len(sv)
            if all(-r <= a < r for a in av):  # else the kernel raises TF's run-time error
                red = {a % r for a in av}
                out = tuple(1 if i in red else d for i, d in enumerate(sv)) if keep else tuple(
                    d for i, d in enumerate(sv) if i not in red)
        if sparse_out:
            r = None if out is None else len(out)
            return [(dtypes.int64, (None, r)), (val._dtype, (None,)), (dtypes.int64, (r,))]
        return [(val._dtype, out)]
    return infer


def _groups(indices, shape, axes):
    """The reduced tensor's groups: (kept dims, reordered entry positions, group starts, group keys)."""
    r = shape.shape[0]
    red = set()
    for a in np.reshape(axes, -1).tolist():
        if not -r <= a < r:
            raise _invalid("Invalid reduction dimension %d, for input with %d dimensions." % (a, r))
        red.add(a % r)
    kept = [i for i in range(r) if i not in red]
    perm = kept + sorted(red)
    order = _lex_order(indices[:, perm]) if r else np.arange(indices.shape[0])
    key = indices[order][:, kept]
    n = len(order)
    if n == 0:
        starts = np.zeros(0, np.int64)
    elif kept:
        change = (key[1:] != key[:-1]).any(axis=1)
        starts = np.flatnonzero(np.r_[True, change])
    else:
        starts = np.zeros(1, np.int64)
    return red, kept, order, starts, key[starts] if n else key


def _reduce_values(kind, values, order, starts):
    v = values[order]
    if len(starts) == 0:
        return v[:0]
    if kind == "sum":
        return np.add.reduceat(v, starts).astype(values.dtype)
    if v.dtype.kind == "f":
        return _float_max_runs(v, starts)
    return np.maximum.reduceat(v, starts)


def _float_max_runs(v, starts):
    """TF's float max of each run: Eigen folds `acc = (x < acc) ? acc : x` in order, so a NaN is taken,
    the next value replaces it, and of equal values (-0.0 and 0.0) the later one wins: the max of the
    values after the run's last NaN (NaN if the run ends with one), the sign of a zero result from the
    last of those zeros."""
    n = len(v)
    isnan = np.isnan(v)
    count = np.cumsum(isnan)
    ends = np.r_[starts[1:], n] - 1
    run = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, n]))
    valid = (count == count[ends][run]) & ~isnan
    out = np.maximum.reduceat(np.where(valid, v, -np.inf), starts).astype(v.dtype)
    out = np.where(np.logical_or.reduceat(valid, starts), out, np.nan).astype(v.dtype)
    zero = valid & (v == 0)
    if zero.any():
        last = np.maximum.reduceat(np.where(zero, np.arange(n), -1), starts)
        sign = np.signbit(v[np.maximum(last, 0)])
        fix = (last >= 0) & (out == 0)
        out = np.where(fix, np.where(sign, -0.0, 0.0).astype(v.dtype), out)
    return out


def _reduce_kernel(kind, sparse_out):
    def kernel(xp, input_indices, input_values, input_shape, reduction_axes, keep_dims):
        _check_sparse(input_indices, input_values, input_shape)
        shape = input_shape.astype(np.int64)
        red, kept, order, starts, gkeys = _groups(input_indices, input_shape, reduction_axes)
        vals = _reduce_values(kind, input_values, order, starts)
        out_dims = [1 if i in red else int(d) for i, d in enumerate(shape)] if keep_dims else [
            int(shape[i]) for i in kept]
        if sparse_out:
            out_ind = np.zeros((len(starts), len(out_dims)), np.int64)
            if keep_dims:
                out_ind[:, kept] = gkeys
            else:
                out_ind[:, :] = gkeys
            return out_ind, vals, np.asarray(out_dims, np.int64)
        kept_shape = [int(shape[i]) for i in kept]
        out = np.zeros(int(np.prod(kept_shape, dtype=np.int64)), input_values.dtype)  # TF's setZero()
        if len(starts):
            strides = [int(np.prod(kept_shape[i + 1:], dtype=np.int64)) for i in range(len(kept))]
            flat = (gkeys.astype(np.int64) * np.asarray(strides, np.int64)).sum(axis=1) if kept else np.zeros(
                len(starts), np.int64)
            bad = np.nonzero((flat < 0) | (flat >= out.size))[0]
            if len(bad):
                raise errors.InternalError(None, None, "Obtained a write index of %d which is outside of bounds of "
                                           "[0, %d)" % (flat[bad[0]], out.size))
            out[flat] = vals
        return out.reshape(out_dims)
    return kernel


def _reduced_shape(shape, axes):
    """`shape` with the reduced `axes` set to 1 (TF's math_ops.reduced_shape), as int64 ops."""
    from . import array_ops, math_ops
    rank = array_ops.size(shape)
    axes = math_ops.floormod(math_ops.add(array_ops.reshape(axes, [-1]), rank), rank)
    hit = math_ops.reduce_any(math_ops.equal(array_ops.expand_dims(array_ops.range(rank), 1),
                                             array_ops.expand_dims(axes, 0)), axis=1)
    return array_ops.where_v2(hit, ops.convert_to_tensor(1, dtypes.int64), shape)


def _reduce_sum_grad(op, out_grad):
    from . import array_ops, math_ops
    sp_indices, _, sp_shape, axes = op._inputs
    kept_dims = _reduced_shape(sp_shape, axes)
    g = array_ops.reshape(out_grad, kept_dims)
    scale = math_ops.floordiv(sp_shape, kept_dims)
    return [None, array_ops.gather_nd(g, math_ops.floordiv(sp_indices, scale)), None, None]


register_op("SparseReduceSum", infer=_reduce_infer(False, _NUMERIC), kernel=_reduce_kernel("sum", False),
            grad=_reduce_sum_grad)
register_op("SparseReduceSumSparse", infer=_reduce_infer(True, _NUMERIC), kernel=_reduce_kernel("sum", True))
register_op("SparseReduceMax", infer=_reduce_infer(False, _REAL_NUMERIC), kernel=_reduce_kernel("max", False))
register_op("SparseReduceMaxSparse", infer=_reduce_infer(True, _REAL_NUMERIC), kernel=_reduce_kernel("max", True))


def _reduction_axes(sp_input, axis):
    if axis is None:
        r = sp_input.get_shape().ndims
        if r is not None:
            return ops.convert_to_tensor(np.arange(r, dtype=np.int32))
        from . import array_ops
        return array_ops.range(0, array_ops.size(sp_input.dense_shape, out_type=dtypes.int32))
    return ops.convert_to_tensor(axis, dtype=dtypes.int32)


def _reduce_args(axis, keepdims, reduction_axes, keep_dims):
    if axis is not None and reduction_axes is not None:
        raise ValueError("Cannot specify both 'axis' and 'reduction_axes'")
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
    axis = reduction_axes if axis is None else axis
    keepdims = keep_dims if keepdims is None else keepdims
    return axis, bool(keepdims)


def _sparse_reduce(op_type, sp_input, axis, keepdims, reduction_axes, keep_dims, sparse_out, name=None):
    axis, keepdims = _reduce_args(axis, keepdims, reduction_axes, keep_dims)
    sp_input = convert_to_sparse_tensor(sp_input)
    out = ops.apply_op(op_type, [sp_input.indices, sp_input.values, sp_input.dense_shape,
                                 _reduction_axes(sp_input, axis)], {"keep_dims": keepdims}, name=name)
    return SparseTensor(*out) if sparse_out else out


def sparse_reduce_sum(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """Computes the sum of elements across dimensions of a SparseTensor.

    Like `tf.reduce_sum` of the dense tensor (missing entries are zeros): the result is dense. The sums
    run over the entries in canonical order. `axis` None reduces every dimension.

    Args:
      sp_input: The SparseTensor to reduce. Should have numeric type.
      axis: The dimensions to reduce; list or scalar. If `None` (the default), reduces all dimensions.
      keepdims: If true, retain reduced dimensions with length 1.
      reduction_axes: Deprecated name of `axis`.
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      The reduced Tensor.

    Raises:
      ValueError: If both a name and its deprecated alias are given.
    """
    return _sparse_reduce("SparseReduceSum", sp_input, axis, keepdims, reduction_axes, keep_dims, False)


def sparse_reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """Computes the sum of elements across dimensions of a SparseTensor, as a `SparseTensor`.

    Same as `tf.sparse.reduce_sum`, but only the positions that receive at least one entry are in the
    result (in canonical order).

    Args:
      sp_input: The SparseTensor to reduce. Should have numeric type.
      axis: The dimensions to reduce; list or scalar. If `None` (the default), reduces all dimensions.
      keepdims: If true, retain reduced dimensions with length 1.
      reduction_axes: Deprecated name of axis.
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      The reduced SparseTensor.

    Raises:
      ValueError: If both a name and its deprecated alias are given.
    """
    return _sparse_reduce("SparseReduceSumSparse", sp_input, axis, keepdims, reduction_axes, keep_dims, True)


def sparse_reduce_max(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """Computes the max of elements across dimensions of a SparseTensor.

    Only the present entries take part (implicit zeros never count); a position of the result that no
    entry reaches is 0. A NaN among a group's values is replaced by the next value (TF's fold order).

    Args:
      sp_input: The SparseTensor to reduce. Should have real numeric type.
      axis: The dimensions to reduce; list or scalar. If `None` (the default), reduces all dimensions.
      keepdims: If true, retain reduced dimensions with length 1.
      reduction_axes: Deprecated name of `axis`.
      keep_dims:  Deprecated alias for `keepdims`.

    Returns:
      The reduced Tensor.

    Raises:
      ValueError: If both a name and its deprecated alias are given.
    """
    return _sparse_reduce("SparseReduceMax", sp_input, axis, keepdims, reduction_axes, keep_dims, False)


def sparse_reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """Computes the max of elements across dimensions of a SparseTensor, as a `SparseTensor`.

    Same as `tf.sparse.reduce_max`, but only the positions that receive at least one entry are in the
    result (in canonical order).

    Args:
      sp_input: The SparseTensor to reduce. Should have real numeric type.
      axis: The dimensions to reduce; list or scalar. If `None` (the default), reduces all dimensions.
      keepdims: If true, retain reduced dimensions with length 1.
      reduction_axes: Deprecated name of axis.
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      The reduced SparseTensor.

    Raises:
      ValueError: If both a name and its deprecated alias are given.
    """
    return _sparse_reduce("SparseReduceMaxSparse", sp_input, axis, keepdims, reduction_axes, keep_dims, True)


# ---- SparseSoftmax ------------------------------------------------------------------------------------
def _softmax_infer(op):
    n, r = _sparse_dims(op, 0, names=("sp_indices", "sp_values", "sp_shape"))
    _dtype(op._inputs[1], (dtypes.float16, dtypes.float32, dtypes.float64), "T", op)
    return [(op._inputs[1]._dtype, (n,))]


def _softmax_kernel(xp, sp_indices, sp_values, sp_shape):
    _check_sparse(sp_indices, sp_values, sp_shape, ("sp_indices", "sp_values", "sp_shape"))
    if sp_shape.shape[0] < 2:
        raise _invalid("Input should have rank >= 2, but received shape: %s"
                       % " ".join(str(int(d)) for d in sp_shape))
    n = sp_values.shape[0]
    if n == 0:
        return sp_values.copy()
    # TF reorders the entries canonically and writes the results in that order.
    order = _lex_order(sp_indices)
    sp_indices, sp_values = sp_indices[order], sp_values[order]
    lead = sp_indices[:, :-1]
    change = (lead[1:] != lead[:-1]).any(axis=1)
    starts = np.flatnonzero(np.r_[True, change])
    run = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, n]))
    with np.errstate(invalid="ignore", over="ignore"):
        mx = np.maximum.reduceat(sp_values, starts)
        e = np.exp(sp_values - mx[run])
        s = np.add.reduceat(e, starts)
        return (e / s[run]).astype(sp_values.dtype)


def _softmax_grad(op, grad):
    from . import math_ops
    indices, _, shape = op._inputs
    out_vals = op._outputs[0]
    product = SparseTensor(indices, out_vals * grad, shape)
    sum_reduced = math_ops.negative(sparse_reduce_sum(product, [-1], keepdims=True))
    sp_sum = ops.apply_op("SparseDenseCwiseAdd", [indices, grad, shape, sum_reduced])
    return [None, sp_sum * out_vals, None]


register_op("SparseSoftmax", infer=_softmax_infer, kernel=_softmax_kernel, grad=_softmax_grad)


def sparse_softmax(sp_input, name=None):
    """Applies softmax to a batched N-D `SparseTensor`.

    The softmax runs over the last dimension: over each run of consecutive entries sharing all indices but
    the last (the input should be in canonical order, see `tf.sparse.reorder`); implicit zeros do not take
    part. The result has the input's indices and shape.

    Args:
      sp_input: N-D `SparseTensor`, where `N >= 2`.
      name: optional name of the operation.

    Returns:
      output: N-D `SparseTensor` representing the results.
    """
    sp_input = convert_to_sparse_tensor(sp_input)
    with ops.name_scope(name, "SparseSoftmax", [sp_input.indices, sp_input.values]) as scope:
        out = ops.apply_op("SparseSoftmax", [sp_input.indices, sp_input.values, sp_input.dense_shape], name=scope)
        return SparseTensor(sp_input.indices, out, sp_input.dense_shape)


# ---- SparseSparseMaximum / Minimum ----------------------------------------------------------------------
def _sparse_sparse_infer(op):
    _, ra = _sparse_dims(op, 0, names=("a_indices", "a_values", "a_shape"))
    _, rb = _sparse_dims(op, 3, names=("b_indices", "b_values", "b_shape"))
    _dtype(op._inputs[1], _REAL_NUMERIC, "T", op)
    _same_dtype(op, op._inputs[4], "b_values", op._inputs[1], "a_values")
    r = ra if ra is not None else rb
    return [(dtypes.int64, (None, r)), (op._inputs[1]._dtype, (None,))]


def _sparse_sparse_kernel(fn):
    def kernel(xp, a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        _check_sparse(a_indices, a_values, a_shape, ("a_indices", "a_values", "a_shape"))
        _check_sparse(b_indices, b_values, b_shape, ("b_indices", "b_values", "b_shape"))
        _check_same_shape(a_shape, b_shape)
        out_ind, av, bv, _, _ = _merged_entries(a_indices, a_values, b_indices, b_values)
        return out_ind, fn(av, bv).astype(a_values.dtype)
    return kernel


def _no_sparse_sparse_grad(op, *grads):
    raise NotImplementedError("Gradient for %s is not implemented." % op._type)


register_op("SparseSparseMaximum", infer=_sparse_sparse_infer, kernel=_sparse_sparse_kernel(np.maximum),
            grad=_no_sparse_sparse_grad)
register_op("SparseSparseMinimum", infer=_sparse_sparse_infer, kernel=_sparse_sparse_kernel(np.minimum),
            grad=_no_sparse_sparse_grad)


def _sparse_sparse(op_type, sp_a, sp_b, name):
    sp_a = convert_to_sparse_tensor(sp_a)
    sp_b = convert_to_sparse_tensor(sp_b)
    with ops.name_scope(name, op_type, [sp_a.indices, sp_a.values, sp_b.indices, sp_b.values]) as scope:
        ind, val = ops.apply_op(op_type, [sp_a.indices, sp_a.values, sp_a.dense_shape, sp_b.indices, sp_b.values,
                                          sp_b.dense_shape], name=scope)
    return SparseTensor(ind, val, sp_a.dense_shape)


def sparse_maximum(sp_a, sp_b, name=None):
    """Returns the element-wise max of two SparseTensors.

    Assumes the two SparseTensors have the same shape, i.e., no broadcasting, and both are in canonical
    order. An entry present in only one operand is compared with an implicit zero.

    Args:
      sp_a: a `SparseTensor` operand whose dtype is real, and indices lexicographically ordered.
      sp_b: the other `SparseTensor` operand with the same requirements (and the same shape).
      name: optional name of the operation.

    Returns:
      output: the output SparseTensor.
    """
    return _sparse_sparse("SparseSparseMaximum", sp_a, sp_b, name)


def sparse_minimum(sp_a, sp_b, name=None):
    """Returns the element-wise min of two SparseTensors.

    Assumes the two SparseTensors have the same shape, i.e., no broadcasting, and both are in canonical
    order. An entry present in only one operand is compared with an implicit zero.

    Args:
      sp_a: a `SparseTensor` operand whose dtype is real, and indices lexicographically ordered.
      sp_b: the other `SparseTensor` operand with the same requirements (and the same shape).
      name: optional name of the operation.

    Returns:
      output: the output SparseTensor.
    """
    return _sparse_sparse("SparseSparseMinimum", sp_a, sp_b, name)


# ---- SparseDenseCwiseMul / Div / Add ---------------------------------------------------------------------
def _cwise_infer(op):
    n, _ = _sparse_dims(op, 0, names=("sp_indices", "sp_values", "sp_shape"))
    _dtype(op._inputs[1], _NUMERIC, "T", op)
    _same_dtype(op, op._inputs[3], "dense", op._inputs[1], "sp_values")
    return [(op._inputs[1]._dtype, (n,))]


def _cwise_kernel(kind):
    def kernel(xp, sp_indices, sp_values, sp_shape, dense):
        _check_sparse(sp_indices, sp_values, sp_shape, ("sp_indices", "sp_values", "sp_shape"))
        shape = [int(d) for d in sp_shape]
        ds = list(dense.shape)
        ok = len(ds) <= len(shape) and all(d == s or d == 1 for d, s in zip(ds[::-1], shape[::-1]))
        if not ok:
            raise _invalid("SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible shapes: "
                           "[%s] vs. [%s]" % (",".join(map(str, shape)), ",".join(map(str, ds))))
        b = np.broadcast_to(dense, shape)
        idx = sp_indices.astype(np.int64)
        if idx.size:
            bad = ((idx < 0) | (idx >= np.asarray(shape, np.int64)[None, :])).any(axis=1)
            if bad.any():
                raise _invalid("Provided indices are out-of-bounds w.r.t. dense side with broadcasted shape")
        d = b[tuple(idx.T)] if shape else np.broadcast_to(b, (idx.shape[0],))
        if kind == "mul":
            return (sp_values * d).astype(sp_values.dtype)
        if kind == "add":
            return (sp_values + d).astype(sp_values.dtype)
        if (dense == 0).any():
            raise _invalid("SparseDenseCwiseDiv cannot divide by zero,but input dense tensor contains zero ")
        if sp_values.dtype.kind in "iu":
            q = np.abs(sp_values) // np.abs(d)
            return (np.sign(sp_values) * np.sign(d) * q).astype(sp_values.dtype)
        with np.errstate(invalid="ignore"):
            return (sp_values / d).astype(sp_values.dtype)
    return kernel


def _cwise_mul_div_grad(is_mul):
    def grad_fn(op, grad):
        from . import array_ops, math_ops
        from .core_ops import zeros_like
        x_indices, x_values, x_shape, y = op._inputs
        y_shape = math_ops.cast(array_ops.shape(y), dtypes.int64)
        num_added = array_ops.expand_dims(array_ops.size(x_shape) - array_ops.size(y_shape), 0)
        augmented = array_ops.concat([array_ops.ones(num_added, dtypes.int64), y_shape], 0)
        scaling = math_ops.floordiv(x_shape, augmented)
        scaled = math_ops.floordiv(x_indices, scaling)
        scaled = array_ops.slice(scaled, array_ops.concat([[0], num_added], 0), [-1, -1])
        dense_vals = array_ops.gather_nd(y, scaled)
        if is_mul:
            dx = grad * dense_vals
            dy_val = grad * x_values
        else:
            dx = grad / dense_vals
            dy_val = grad * (-x_values / math_ops.square(dense_vals))
        dy = ops.apply_op("SparseTensorDenseAdd", [scaled, dy_val, y_shape, zeros_like(y)])
        return [None, dx, None, dy]
    return grad_fn


def _cwise_add_grad(op, grad):
    raise NotImplementedError("Gradient for SparseDenseCwiseAdd is not implemented.")


register_op("SparseDenseCwiseMul", infer=_cwise_infer, kernel=_cwise_kernel("mul"), grad=_cwise_mul_div_grad(True))
register_op("SparseDenseCwiseDiv", infer=_cwise_infer, kernel=_cwise_kernel("div"), grad=_cwise_mul_div_grad(False))
register_op("SparseDenseCwiseAdd", infer=_cwise_infer, kernel=_cwise_kernel("add"), grad=_cwise_add_grad)


def _cwise(op_type, sp_t, dense_t, name):
    sp_t = convert_to_sparse_tensor(sp_t)
    dense_t = ops.convert_to_tensor(dense_t, dtype=sp_t.dtype)
    out = ops.apply_op(op_type, [sp_t.indices, sp_t.values, sp_t.dense_shape, dense_t], name=name)
    return SparseTensor(sp_t.indices, out, sp_t.dense_shape)


def sparse_dense_cwise_add(sp_t, dense_t, name=None):
    """Adds a dense tensor, broadcast to the sparse shape, to the values of a `SparseTensor`.

    Only the present entries change (implicit zeros stay implicit).

    Args:
      sp_t: A `SparseTensor`.
      dense_t: A dense `Tensor` broadcastable to `sp_t`'s shape (dense to sparse only).
      name: A name for the operation (optional).

    Returns:
      A `SparseTensor` with `sp_t`'s indices and shape.
    """
    return _cwise("SparseDenseCwiseAdd", sp_t, dense_t, name)


def sparse_dense_cwise_mul(sp_t, dense_t, name=None):
    """Multiplies the values of a `SparseTensor` by a dense tensor broadcast to the sparse shape.

    Args:
      sp_t: A `SparseTensor`.
      dense_t: A dense `Tensor` broadcastable to `sp_t`'s shape (dense to sparse only).
      name: A name for the operation (optional).

    Returns:
      A `SparseTensor` with `sp_t`'s indices and shape.
    """
    return _cwise("SparseDenseCwiseMul", sp_t, dense_t, name)


def sparse_dense_cwise_div(sp_t, dense_t, name=None):
    """Divides the values of a `SparseTensor` by a dense tensor broadcast to the sparse shape.

    Args:
      sp_t: A `SparseTensor`.
      dense_t: A dense `Tensor` broadcastable to `sp_t`'s shape (dense to sparse only).
      name: A name for the operation (optional).

    Returns:
      A `SparseTensor` with `sp_t`'s indices and shape.
    """
    return _cwise("SparseDenseCwiseDiv", sp_t, dense_t, name)


# ---- EditDistance ---------------------------------------------------------------------------------------
def _edit_infer(op):
    _, rh = _sparse_dims(op, 0, names=("hypothesis_indices", "hypothesis_values", "hypothesis_shape"))
    _, rt = _sparse_dims(op, 3, names=("truth_indices", "truth_values", "truth_shape"))
    _same_dtype(op, op._inputs[4], "truth_values", op._inputs[1], "hypothesis_values")
    r = _merge(rh, rt, op)
    hv, tv = _static_shape_value(op._inputs[2]), _static_shape_value(op._inputs[5])
    if hv is not None and tv is not None and len(hv) == len(tv):
        return [(dtypes.float32, tuple(max(a, b) for a, b in zip(hv[:-1], tv[:-1])))]
    return [(dtypes.float32, None if r is None else (None,) * (r - 1))]


def _levenshtein(s, t):
    if not s:
        return len(t)
    if not t:
        return len(s)
    prev = list(range(len(t) + 1))
    for i, a in enumerate(s, 1):
        cur = [i] + [0] * len(t)
        for j, b in enumerate(t, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a != b))
        prev = cur
    return prev[-1]


def _runs(indices, values):
    """Runs of consecutive entries sharing all indices but the last: [(group index tuple, values)]."""
    out = []
    lead = _keys(indices[:, :-1])
    vals = values.tolist()
    for k, key in enumerate(lead):
        if out and out[-1][0] == key:
            out[-1][1].append(vals[k])
        else:
            out.append((key, [vals[k]]))
    return out


def _edit_kernel(xp, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values,
                 truth_shape, normalize):
    _check_sparse(hypothesis_indices, hypothesis_values, hypothesis_shape,
                  ("hypothesis_indices", "hypothesis_values", "hypothesis_shape"))
    _check_sparse(truth_indices, truth_values, truth_shape, ("truth_indices", "truth_values", "truth_shape"))
    if hypothesis_shape.shape[0] != truth_shape.shape[0]:
        raise _invalid("hypothesis and truth must have the same rank: %d vs. %d"
                       % (hypothesis_shape.shape[0], truth_shape.shape[0]))
    if hypothesis_shape.shape[0] < 1:
        raise _invalid("Input SparseTensors must have rank at least 1.")
    out_shape = [max(int(a), int(b)) for a, b in zip(hypothesis_shape[:-1], truth_shape[:-1])]
    size = int(np.prod(out_shape, dtype=np.int64))
    strides = [int(np.prod(out_shape[i + 1:], dtype=np.int64)) for i in range(len(out_shape))]
    out = np.zeros(size, np.float32)

    def put(key, value):
        loc = sum(i * s for i, s in zip(key, strides))
        if not 0 <= loc < size:
            raise _invalid("Got an inner product %d which would require writing to outside of the buffer for the "
                           "output tensor (max elements %d)" % (loc, size))
        out[loc] = value
    hyp, truth = _runs(hypothesis_indices, hypothesis_values), _runs(truth_indices, truth_values)
    i = j = 0
    while i < len(hyp) and j < len(truth):
        (hk, hs), (tk, ts) = hyp[i], truth[j]
        if hk == tk:
            d = float(_levenshtein(hs, ts))
            put(hk, d / len(ts) if normalize else d)
            i += 1
            j += 1
        elif hk > tk:
            put(tk, 1.0 if normalize else len(ts))
            j += 1
        else:
            put(hk, np.inf if normalize else len(hs))
            i += 1
    for hk, hs in hyp[i:]:
        put(hk, np.inf if normalize else len(hs))
    for tk, ts in truth[j:]:
        put(tk, 1.0 if normalize else len(ts))
    return out.reshape(out_shape)


register_op("EditDistance", infer=_edit_infer, kernel=_edit_kernel, grad=NO_GRADIENT)


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """Computes the Levenshtein distance between sequences.

    The sequences are the runs of consecutive entries sharing all indices but the last one (the inputs
    should be in canonical order).
    With `normalize`, each distance is divided by the truth's length (a hypothesis with no truth gives
    inf, a truth with no hypothesis 1.0).

    Args:
      hypothesis: A `SparseTensor` containing hypothesis sequences.
      truth: A `SparseTensor` containing truth sequences.
      normalize: A `bool`. If `True`, normalizes the Levenshtein distance by length of `truth.`
      name: A name for the operation (optional).

    Returns:
      A dense `Tensor` with rank `R - 1`, where R is the rank of the `SparseTensor` inputs `hypothesis` and
      `truth`.

    Raises:
      TypeError: If either `hypothesis` or `truth` are not a `SparseTensor`.
    """
    if not isinstance(hypothesis, (SparseTensor, SparseTensorValue)):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, (SparseTensor, SparseTensorValue)):
        raise TypeError("Truth must be a SparseTensor.")
    hypothesis = convert_to_sparse_tensor(hypothesis)
    truth = convert_to_sparse_tensor(truth)
    return ops.apply_op("EditDistance", [hypothesis.indices, hypothesis.values, hypothesis.dense_shape,
                                         truth.indices, truth.values, truth.dense_shape],
                        {"normalize": bool(normalize)}, name=name)

