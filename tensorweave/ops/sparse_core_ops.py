"""Sparse tensors, restructured: SparseReorder, SparseReshape, SparseAdd (+ SparseAddGrad),
SparseTensorDenseAdd, SparseConcat, SparseSlice (+ SparseSliceGrad), SparseSplit, SparseFillEmptyRows
(+ SparseFillEmptyRowsGrad), and the `tf.sparse` functions built on them or composed of dense ops
(`retain`, `reset_shape`, `transpose`, `expand_dims`, `eye`, `from_dense`, `merge`, `to_indicator`).

Ops that take a sparse tensor take its three component tensors (indices, values, dense_shape) as
TF's raw ops do; the public functions take `SparseTensor`s."""

import numbers

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue, convert_to_sparse_tensor
from .array_helpers import _dims, _fmt  # noqa: F401 (_fmt: re-exported to the sparse op modules)

__all__ = ["sparse_reorder", "sparse_reshape", "sparse_add", "sparse_concat", "sparse_slice", "sparse_split",
           "sparse_fill_empty_rows", "sparse_retain", "sparse_reset_shape", "sparse_transpose", "sparse_expand_dims",
           "sparse_eye", "from_dense", "sparse_merge", "sparse_to_indicator", "convert_to_tensor_or_sparse_tensor",
           "sparse_mask", "sparse_placeholder"]


# ---- static helpers (shared by the sparse op modules) -------------------------------------------
def _rank(t, rank, op, what=None):
    """`t`'s static dims, checked to have rank `rank` (TF's shape-function message)."""
    d = _dims(t)
    if d is not None and len(d) != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(d)))
    return d


def _dtype(t, allowed, arg, op):
    if t._dtype not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (arg, t._dtype.name, ", ".join(d.name for d in allowed)))


def _merge(a, b, op):
    if a is None:
        return b
    if b is not None and a != b:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))
    return a


def _sparse_dims(op, i, index_types=(dtypes.int64,), names=("indices", "values", "shape")):
    """Checks the sparse operand at inputs i, i+1, i+2 of `op`; returns (nnz, rank) (None where unknown)."""
    ind, val, shp = op._inputs[i:i + 3]
    _dtype(ind, index_types, names[0], op)
    _dtype(shp, (dtypes.int64,), names[2], op)
    di = _rank(ind, 2, op, names[0])
    dv = _rank(val, 1, op, names[1])
    ds = _rank(shp, 1, op, names[2])
    n = _merge(None if di is None else di[0], None if dv is None else dv[0], op)
    r = _merge(None if di is None else di[1], None if ds is None else ds[0], op)
    return n, r


def _same_dtype(op, t, name, like, like_name):
    """TF's TypeError for input `name` of `op` whose dtype is not that of the argument `like_name`."""
    if t._dtype is not like._dtype:
        raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument '%s'."
                        % (name, op._type, t._dtype.name, like._dtype.name, like_name))


def _static_shape_value(t):
    v = tensor_util.constant_value(t)
    return None if v is None else [int(x) for x in np.reshape(v, -1)]


# ---- kernel helpers ------------------------------------------------------------------------------
def _shape_str(a):
    return "[%s]" % ",".join(str(int(d)) for d in np.shape(a))


def _check_sparse(indices, values, shape, what=("input_indices", "input_values", "input_shape")):
    """TF's kernel checks of one sparse operand: a matrix, a vector and a vector that agree."""
    if np.ndim(indices) != 2:
        raise _invalid("%s should be a matrix but received shape %s" % (what[0], _shape_str(indices)))
    if np.ndim(values) != 1:
        raise _invalid("%s should be a vector but received shape %s" % (what[1], _shape_str(values)))
    if np.ndim(shape) != 1:
        raise _invalid("%s should be a vector but received shape %s" % (what[2], _shape_str(shape)))
    if indices.shape[0] != values.shape[0]:
        raise _invalid("Number of elements in %s and %s do not match: %d vs. %d"
                       % (what[0], what[1], indices.shape[0], values.shape[0]))
    if indices.shape[1] != shape.shape[0]:
        raise _invalid("Number of dimensions in %s and %s do not match: %d vs. %d"
                       % (what[0], what[2], indices.shape[1], shape.shape[0]))


def _lex_order(indices):
    """The stable permutation sorting the rows of `indices` lexicographically."""
    if indices.shape[1] == 0:
        return np.arange(indices.shape[0])
    return np.lexsort(indices.T[::-1])


def _lex_cmp_rows(a, b):
    """Elementwise lexicographic comparison of two equally long lists of rows: -1, 0 or 1."""
    if a.shape[1] == 0:
        return np.zeros(a.shape[0], np.int64)
    d = np.sign(a.astype(np.int64) - b.astype(np.int64))
    first = np.argmax(d != 0, axis=1)
    return d[np.arange(d.shape[0]), first]


def _strictly_sorted(indices):
    if indices.shape[0] < 2:
        return True
    return bool((_lex_cmp_rows(indices[:-1], indices[1:]) < 0).all())


def _validate_indices(indices, shape):
    """TF's `SparseTensor::IndicesValid`: every index in bounds, strictly increasing in row-major order."""
    bounds = [int(d) for d in shape]
    keys = _keys(indices)
    for i, key in enumerate(keys):
        if any(k < 0 or k >= b for k, b in zip(key, bounds)):
            raise _invalid("indices[%d] = %s is out of bounds: need 0 <= index < %s" % (i, _vec(key), _vec(bounds)))
        if i and keys[i - 1] >= key:
            if keys[i - 1] == key:
                raise _invalid("indices[%d] = %s is repeated" % (i, _vec(key)))
            raise _invalid("indices[%d] = %s is out of order. Many sparse ops require sorted indices.\n    Use "
                           "`tf.sparse.reorder` to create a correctly ordered copy.\n\n" % (i, _vec(key)))


def _row_keys(indices):
    """Rows of non-negative indices as 1-D bytes keys that sort as the rows do (big-endian)."""
    rows = np.ascontiguousarray(indices.astype(">i8"))
    return rows.view(np.dtype((np.void, 8 * rows.shape[1]))).reshape(-1) if rows.shape[1] else np.zeros(
        rows.shape[0], np.dtype((np.void, 1)))


def _keys(indices):
    return [tuple(r) for r in indices.tolist()]


# ---- SparseReorder ---------------------------------------------------------------------------------
def _reorder_infer(op):
    n, r = _sparse_dims(op, 0, names=("input_indices", "input_values", "input_shape"))
    return [(dtypes.int64, (n, r)), (op._inputs[1]._dtype, (n,))]


def _reorder_kernel(xp, input_indices, input_values, input_shape):
    _check_sparse(input_indices, input_values, input_shape)
    perm = _lex_order(input_indices)
    return input_indices[perm].astype(np.int64), input_values[perm]


def _reorder_grad(op, _unused_indices_grad, values_grad):
    from . import array_ops
    input_indices, _, input_shape = op._inputs
    entries = array_ops.range(array_ops.shape(input_indices)[0])
    idx, order = ops.apply_op("SparseReorder", [input_indices, entries, input_shape])
    return [None, array_ops.gather(values_grad, array_ops.invert_permutation(order)), None]


register_op("SparseReorder", infer=_reorder_infer, kernel=_reorder_kernel, grad=_reorder_grad)


def sparse_reorder(sp_input, name=None):
    """Reorders a `SparseTensor` into the canonical, row-major ordering.

    Sparse ops such as `tf.sparse.add` and `tf.sparse.to_dense` need their inputs in this order (the
    lexicographic order of the indices); the reordered tensor has the same shape and dense value.

    Args:
      sp_input: The input `SparseTensor`.
      name: A name prefix for the returned tensors (optional).

    Returns:
      A `SparseTensor` with the same shape and non-empty values, in canonical ordering.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
    """
    sp_input = convert_to_sparse_tensor(sp_input)
    ind, val = ops.apply_op("SparseReorder", [sp_input.indices, sp_input.values, sp_input.dense_shape], name=name)
    shape = sp_input.get_shape()
    if shape.is_fully_defined():
        return SparseTensor(ind, val, shape.as_list())
    from .core_ops import identity
    return SparseTensor(ind, val, identity(sp_input.dense_shape))


# ---- SparseReshape ---------------------------------------------------------------------------------
def _reshape_infer(op):
    ind, shp, new = op._inputs
    for t, arg in ((ind, "input_indices"), (shp, "input_shape"), (new, "new_shape")):
        _dtype(t, (dtypes.int64,), arg, op)
    di = _rank(ind, 2, op, "input_indices")
    ds = _rank(shp, 1, op, "input_shape")
    dn = _rank(new, 1, op, "new_shape")
    _merge(None if di is None else di[1], None if ds is None else ds[0], op)
    r = None if dn is None else dn[0]
    return [(dtypes.int64, (None if di is None else di[0], r)), (dtypes.int64, (r,))]


def _reshape_kernel(xp, input_indices, input_shape, new_shape):
    if np.ndim(input_indices) != 2:
        raise _invalid("Input indices should be a matrix but received shape %s" % _shape_str(input_indices))
    if np.ndim(input_shape) != 1:
        raise _invalid("Input shape should be a vector but received shape %s" % _shape_str(input_shape))
    if np.ndim(new_shape) != 1:
        raise _invalid("Target shape should be a vector but received shape %s" % _shape_str(new_shape))
    if input_indices.shape[1] != input_shape.shape[0]:
        raise _invalid("Input tensor rank must match input shape length; got %d vs. %d"
                       % (input_indices.shape[1], input_shape.shape[0]))
    in_shape = [int(d) for d in input_shape]
    dense_size = int(np.prod(in_shape, dtype=np.int64))
    out = [int(d) for d in new_shape]
    unknown = -1
    product = 1
    for i, d in enumerate(out):
        if d == -1:
            if unknown != -1:
                raise _invalid("only one output dimension may be -1, not both %d and %d" % (unknown, i))
            unknown = i
        elif d < 0:
            raise _invalid("size %d must be non-negative, not %d" % (i, d))
        else:
            product *= d
    fmt = "[%s]" % ",".join(str(d) for d in in_shape), "[%s]" % ",".join(str(1 if d == -1 else d) for d in out)
    if unknown != -1:
        if product == 0:
            raise _invalid("reshape cannot infer the missing input size for an empty tensor unless all specified "
                           "input sizes are non-zero")
        missing = dense_size // product
        if product * missing != dense_size:
            raise _invalid("Input to reshape is a SparseTensor with %d dense values, but the requested shape "
                           "requires a multiple of %d. input_shape=%s output_shape=%s"
                           % (dense_size, product, fmt[0], fmt[1]))
        out[unknown] = missing
    elif product != dense_size:
        raise _invalid("Input to reshape is a tensor with %d dense values, but the requested shape has %d. "
                       "input_shape=%s output_shape=%s" % (dense_size, product, fmt[0], fmt[1]))
    n = input_indices.shape[0]
    out_shape = np.asarray(out, np.int64)
    if in_shape == out:
        return input_indices.astype(np.int64), out_shape
    if n == 0:
        return np.zeros((0, len(out)), np.int64), out_shape
    in_strides = np.cumprod([1] + in_shape[::-1][:-1])[::-1].astype(np.int64) if in_shape else np.zeros(0, np.int64)
    linear = (input_indices.astype(np.int64) * in_strides).sum(axis=1) if in_shape else np.zeros(n, np.int64)
    out_idx = np.zeros((n, len(out)), np.int64)
    for j in range(len(out) - 1, -1, -1):
        if out[j]:
            out_idx[:, j] = linear % out[j]
            linear = linear // out[j]
    return out_idx, out_shape


register_op("SparseReshape", infer=_reshape_infer, kernel=_reshape_kernel, grad=NO_GRADIENT)


def sparse_reshape(sp_input, shape, name=None):
    """Reshapes a `SparseTensor` to represent values in a new dense shape.

    Same as `tf.reshape` on the dense tensor: the indices are recomputed with the row-major order of
    both shapes. At most one dimension of `shape` may be -1 (inferred from the number of dense elements).

    Args:
      sp_input: The input `SparseTensor`.
      shape: A 1-D (vector) int64 `Tensor` specifying the new dense shape.
      name: A name prefix for the returned tensors (optional).

    Returns:
      A `SparseTensor` with the same non-empty values but with indices calculated by the new dense shape.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
      ValueError: If the argument `shape` requests a `SparseTensor` with a different number of elements
        than `sp_input` (when both are statically known), or infers more than one dimension.
    """
    from .core_ops import identity
    from .math_unary_ops import cast
    sp_input = convert_to_sparse_tensor(sp_input)
    shape = cast(shape, dtypes.int64)
    with ops.name_scope(name, "SparseReshape", [sp_input]) as scope:
        ind, out_shape = ops.apply_op("SparseReshape", [sp_input.indices, sp_input.dense_shape, shape], name=scope)
        user = _static_shape_value(shape)
        in_shape = sp_input.get_shape()
        if user is not None and in_shape.is_fully_defined():
            if sum(d == -1 for d in user) > 1:
                raise ValueError("At most one dimension can be inferred (-1). Found: %s" % np.asarray(user))
            in_size = int(np.prod(in_shape.as_list(), dtype=np.int64))
            const = list(user)
            if user.count(-1) == 1 and 0 not in user:
                rest = [d for d in user if d != -1]
                const[user.index(-1)] = int(in_size // int(np.prod(rest, dtype=np.int64)))
            if -1 not in const:
                size = int(np.prod(const, dtype=np.int64))
                if size != in_size:
                    raise ValueError("Cannot reshape a tensor with %d elements to shape %s (%d elements)."
                                     % (in_size, [None if d == -1 else d for d in user], size))
                out_shape = ops.convert_to_tensor(np.asarray(const, np.int64))
        return SparseTensor(ind, identity(sp_input.values), out_shape)


# ---- SparseAdd / SparseAddGrad / SparseTensorDenseAdd ---------------------------------------------
_REAL_NUMERIC = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.int16, dtypes.int8,
                 dtypes.uint16, dtypes.float16)
_NUMERIC = _REAL_NUMERIC + (dtypes.complex64, dtypes.complex128)


def _add_infer(op):
    na, ra = _sparse_dims(op, 0, names=("a_indices", "a_values", "a_shape"))
    nb, rb = _sparse_dims(op, 3, names=("b_indices", "b_values", "b_shape"))
    a_val, b_val, thresh = op._inputs[1], op._inputs[4], op._inputs[6]
    _dtype(a_val, _NUMERIC, "T", op)
    _same_dtype(op, b_val, "b_values", a_val, "a_values")
    if thresh._dtype is not a_val._dtype.real_dtype:
        raise TypeError("Input 'thresh' of 'SparseAdd' Op has type %s that does not match expected type of %s."
                        % (thresh._dtype.name, a_val._dtype.real_dtype.name))
    _rank(thresh, 0, op, "thresh")
    r = ra if ra is not None else rb
    return [(dtypes.int64, (None, r)), (a_val._dtype, (None,)), (dtypes.int64, (r,))]


def _merge_sorted(a_ind, b_ind):
    """TF's merge of two index lists (sorted or not, as its kernel walks them): arrays `(ia, ib)`, one
    entry per output entry, the position of the entry in `a` and in `b` (-1 where absent)."""
    na, nb = a_ind.shape[0], b_ind.shape[0]
    if _strictly_sorted(a_ind) and _strictly_sorted(b_ind):
        both = np.concatenate([a_ind, b_ind]).astype(np.int64)
        tag = np.r_[np.zeros(na, np.int64), np.ones(nb, np.int64)]
        src = np.r_[np.arange(na), np.arange(nb)]
        order = np.lexsort((tag,) + tuple(both.T[::-1])) if both.shape[1] else np.argsort(tag, kind="stable")
        rows, tag, src = both[order], tag[order], src[order]
        n = len(order)
        same_next = np.zeros(n, bool)
        if n > 1:
            same_next[:-1] = _lex_cmp_rows(rows[:-1], rows[1:]) == 0
        pair = same_next & (tag == 0)  # an a-entry followed by the equal b-entry: one output entry
        absorbed = np.r_[False, pair[:-1]] if n else pair
        keep = ~absorbed
        ia = np.where(tag == 0, src, -1)
        ib = np.where(tag == 1, src, -1)
        ib[pair] = src[np.flatnonzero(pair) + 1]
        return ia[keep], ib[keep]
    ka, kb = _keys(a_ind), _keys(b_ind)
    i = j = 0
    ia, ib = [], []
    while i < na and j < nb:
        if ka[i] < kb[j]:
            ia.append(i)
            ib.append(-1)
            i += 1
        elif ka[i] == kb[j]:
            ia.append(i)
            ib.append(j)
            i += 1
            j += 1
        else:
            ia.append(-1)
            ib.append(j)
            j += 1
    ia += list(range(i, na)) + [-1] * (nb - j)
    ib += [-1] * (na - i) + list(range(j, nb))
    return np.asarray(ia, np.int64), np.asarray(ib, np.int64)


def _merged_entries(a_indices, a_values, b_indices, b_values):
    """The merged indices and the aligned values of `a` and `b` (zero where absent), with the masks."""
    ia, ib = _merge_sorted(a_indices, b_indices)
    has_a, has_b = ia >= 0, ib >= 0
    out_ind = np.empty((len(ia), a_indices.shape[1]), np.int64)
    out_ind[has_a] = a_indices[ia[has_a]]
    out_ind[~has_a] = b_indices[ib[~has_a]]
    av = np.zeros(len(ia), a_values.dtype)
    bv = np.zeros(len(ia), a_values.dtype)
    av[has_a] = a_values[ia[has_a]]
    bv[has_b] = b_values[ib[has_b]]
    return out_ind, av, bv, has_a, has_b


def _check_same_shape(a_shape, b_shape):
    if a_shape.shape[0] != b_shape.shape[0]:
        raise _invalid("Operands do not have the same ranks; got shapes: %s and %s"
                       % (_vec(a_shape), _vec(b_shape)))
    for i, (x, y) in enumerate(zip(a_shape.tolist(), b_shape.tolist())):
        if x != y:
            raise _invalid("Operands' shapes do not match: got %d and %d for dimension %d" % (x, y, i))


def _vec(v):
    return "[%s]" % ",".join(str(int(x)) for x in np.reshape(v, -1))


def _add_kernel(xp, a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    what = ("a_indices", "a_values", "a_shape")
    _check_sparse(a_indices, a_values, a_shape, what)
    _check_sparse(b_indices, b_values, b_shape, ("b_indices", "b_values", "b_shape"))
    if a_indices.shape[1] != b_indices.shape[1]:
        raise _invalid("Input indices must have the same dimension, got %d and %d"
                       % (a_indices.shape[1], b_indices.shape[1]))
    if np.ndim(thresh) != 0:
        raise _invalid("The magnitude threshold must be a scalar: got shape %s" % _shape_str(thresh))
    _check_same_shape(a_shape, b_shape)
    out_ind, av, bv, has_a, has_b = _merged_entries(a_indices, a_values, b_indices, b_values)
    both = has_a & has_b
    out_val = np.where(both, av + bv, np.where(has_a, av, bv)).astype(a_values.dtype)
    keep = ~both | (thresh <= np.abs(out_val))
    return out_ind[keep], out_val[keep], a_shape.astype(np.int64)


def _add_grad(op, *grads):
    a_ind, a_val, _, b_ind, b_val, _, _ = op._inputs
    ga, gb = ops.apply_op("SparseAddGrad", [grads[1], a_ind, b_ind, op._outputs[0]])
    return [None, ga, None, None, gb, None, None]


register_op("SparseAdd", infer=_add_infer, kernel=_add_kernel, grad=_add_grad)


def _add_grad_infer(op):
    bp, a_ind, b_ind, s_ind = op._inputs
    _rank(bp, 1, op, "backprop_val_grad")
    da = _rank(a_ind, 2, op, "a_indices")
    db = _rank(b_ind, 2, op, "b_indices")
    _rank(s_ind, 2, op, "sum_indices")
    return [(bp._dtype, (None if da is None else da[0],)), (bp._dtype, (None if db is None else db[0],))]


def _add_grad_kernel(xp, backprop_val_grad, a_indices, b_indices, sum_indices):
    for t, what in ((a_indices, "a_indices"), (b_indices, "b_indices"), (sum_indices, "sum_indices")):
        if np.ndim(t) != 2:
            raise _invalid("Input %s should be a matrix but received shape: %s" % (what, _shape_str(t)))
    if np.ndim(backprop_val_grad) != 1:
        raise _invalid("Input backprop_val_grad should be a vector but received shape: %s"
                       % _shape_str(backprop_val_grad))
    if not (a_indices.shape[1] == b_indices.shape[1] == sum_indices.shape[1]):
        raise _invalid("The densified operands should have the same ndims; for A, B, sum got: %d %d %d"
                       % (a_indices.shape[1], b_indices.shape[1], sum_indices.shape[1]))
    if backprop_val_grad.shape[0] != sum_indices.shape[0]:
        raise _invalid("# elements of backprop_val_grad and # rows of sum_indices should match (#nnz of sum): "
                       "got %d and %d" % (backprop_val_grad.shape[0], sum_indices.shape[0]))
    ga = np.zeros(a_indices.shape[0], backprop_val_grad.dtype)
    gb = np.zeros(b_indices.shape[0], backprop_val_grad.dtype)
    if all(_strictly_sorted(t) and (t >= 0).all() for t in (a_indices, b_indices, sum_indices)):
        # Sorted operands (the usual case): TF's walk gives each entry the gradient of the equal sum entry.
        skeys = _row_keys(sum_indices)
        for idx, g in ((a_indices, ga), (b_indices, gb)):
            keys = _row_keys(idx)
            pos = np.minimum(np.searchsorted(skeys, keys), max(len(skeys) - 1, 0))
            hit = (skeys[pos] == keys) if len(skeys) else np.zeros(len(keys), bool)
            g[hit] = backprop_val_grad[pos[hit]]
        return ga, gb
    ka, kb, ks = _keys(a_indices), _keys(b_indices), _keys(sum_indices)
    i = j = k = 0
    ns = len(ks)
    while i < len(ka) and j < len(kb) and k < ns:
        if ka[i] < kb[j]:
            if ka[i] == ks[k]:
                ga[i] = backprop_val_grad[k]
                k += 1
            i += 1
        elif ka[i] == kb[j]:
            if ka[i] == ks[k]:
                ga[i] = gb[j] = backprop_val_grad[k]
                k += 1
            i += 1
            j += 1
        else:
            if kb[j] == ks[k]:
                gb[j] = backprop_val_grad[k]
                k += 1
            j += 1
    while i < len(ka) and k < ns:
        if ka[i] == ks[k]:
            ga[i] = backprop_val_grad[k]
            k += 1
        i += 1
    while j < len(kb) and k < ns:
        if kb[j] == ks[k]:
            gb[j] = backprop_val_grad[k]
            k += 1
        j += 1
    return ga, gb


register_op("SparseAddGrad", infer=_add_grad_infer, kernel=_add_grad_kernel, grad=NO_GRADIENT)


def _dense_add_infer(op):
    _sparse_dims(op, 0, index_types=(dtypes.int32, dtypes.int64), names=("a_indices", "a_values", "a_shape"))
    a_val, b = op._inputs[1], op._inputs[3]
    _dtype(a_val, _NUMERIC, "T", op)
    _same_dtype(op, b, "b", a_val, "a_values")
    _same_dtype(op, op._inputs[2], "a_shape", op._inputs[0], "a_indices")
    return [(b._dtype, _dims(b))]


def _dense_add_kernel(xp, a_indices, a_values, a_shape, b):
    _check_sparse(a_indices, a_values, a_shape, ("a_indices", "a_values", "a_shape"))
    if a_shape.shape[0] != b.ndim:
        raise _invalid("Dimension mismatch: expected ndims of the dense tensor to be %d, got %d"
                       % (a_shape.shape[0], b.ndim))
    for d, (x, y) in enumerate(zip(a_shape.tolist(), b.shape)):
        if x != y:
            raise _invalid("Dimension %d does not equal (no broadcasting is supported): sparse side %d vs dense side "
                           "%d" % (d, x, y))
    out = np.array(b, copy=True)
    if a_indices.shape[0]:
        bad = (a_indices < 0) | (a_indices >= np.asarray(b.shape)[None, :])
        if bad.any():
            i, d = (int(v) for v in np.argwhere(bad)[0])
            raise _invalid("Sparse tensor has an invalid index on dimension %d: a_indices(%d,%d) = %d, dense tensor "
                           "shape: %s" % (d, i, d, a_indices[i, d], " ".join(str(x) for x in b.shape)))
        np.add.at(out, tuple(a_indices.T), a_values)
    return out


def _dense_add_grad(op, grad):
    from . import array_ops
    return [None, array_ops.gather_nd(grad, op._inputs[0]), None, grad]


register_op("SparseTensorDenseAdd", infer=_dense_add_infer, kernel=_dense_add_kernel, grad=_dense_add_grad)


def sparse_add(a, b, threshold=None, thresh=None):
    """Adds two tensors, at least one of each is a `SparseTensor`.

    Sparse + sparse gives a `SparseTensor` (both inputs in canonical order, see `tf.sparse.reorder`);
    entries present in both are summed, and such a sum is kept only if its magnitude is at least
    `threshold`. Sparse + dense gives a dense `Tensor`.

    Args:
      a: The first operand; `SparseTensor` or `Tensor`.
      b: The second operand; `SparseTensor` or `Tensor`. At least one operand must be sparse.
      threshold: An optional 0-D `Tensor` (defaults to 0): the magnitude threshold for the sums.
      thresh: Deprecated alias of `threshold`.

    Returns:
      A `SparseTensor` or a `Tensor`, representing the sum.

    Raises:
      TypeError: If both `a` and `b` are `Tensor`s.
      ValueError: If both `threshold` and `thresh` are given.
    """
    if threshold is not None and thresh is not None:
        raise ValueError("Cannot specify both 'threshold' and 'thresh'")
    threshold = thresh if threshold is None else threshold
    if threshold is None:
        threshold = 0
    sparse_classes = (SparseTensor, SparseTensorValue)
    if not any(isinstance(x, sparse_classes) for x in (a, b)):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?")
    if all(isinstance(x, sparse_classes) for x in (a, b)):
        a = convert_to_sparse_tensor(a)
        b = convert_to_sparse_tensor(b)
        threshold = ops.convert_to_tensor(threshold, dtype=a.values.dtype.real_dtype, name="threshold")
        ind, val, shape = ops.apply_op("SparseAdd", [a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                     b.dense_shape, threshold])
        sa, sb = a.get_shape(), b.get_shape()
        sa.assert_is_compatible_with(sb)
        static = sa.merge_with(sb)
        if static.is_fully_defined():
            shape = static.as_list()
        return SparseTensor(ind, val, shape)
    if isinstance(b, sparse_classes):
        a, b = b, a
    a = convert_to_sparse_tensor(a)
    b = ops.convert_to_tensor(b, dtype=a.dtype)
    return ops.apply_op("SparseTensorDenseAdd", [a.indices, a.values, a.dense_shape, b])


# ---- SparseConcat ----------------------------------------------------------------------------------
def _concat_infer(op):
    n = op._attrs["N"]
    inds, vals, shps = op._inputs[:n], op._inputs[n:2 * n], op._inputs[2 * n:]
    total, rank = 0, None
    for k in range(n):
        _dtype(inds[k], (dtypes.int64,), "indices", op)
        _dtype(shps[k], (dtypes.int64,), "shapes", op)
        di = _rank(inds[k], 2, op, "indices")
        dv = _rank(vals[k], 1, op, "values")
        ds = _rank(shps[k], 1, op, "shapes")
        if vals[k]._dtype is not vals[0]._dtype:
            raise TypeError("Expected %s for argument 'values', got %s." % (vals[0]._dtype.name,
                                                                             vals[k]._dtype.name))
        nk = _merge(None if di is None else di[0], None if dv is None else dv[0], op)
        rank = _merge(rank, None if di is None else di[1], op)
        rank = _merge(rank, None if ds is None else ds[0], op)
        total = None if total is None or nk is None else total + nk
    return [(dtypes.int64, (total, rank)), (vals[0]._dtype, (total,)), (dtypes.int64, (rank,))]


def _concat_kernel(xp, *arrays, concat_dim, N):
    inds, vals, shps = arrays[:N], arrays[N:2 * N], arrays[2 * N:]
    for k in range(N):
        if np.ndim(inds[k]) != 2:
            raise _invalid("Input indices should be a matrix but received shape %s at position %d"
                           % (_shape_str(inds[k]), k))
        if np.ndim(vals[k]) != 1:
            raise _invalid("Input values should be a vector but received shape %s at position %d"
                           % (_shape_str(vals[k]), k))
        if np.ndim(shps[k]) != 1:
            raise _invalid("Input shapes should be a vector but received shape %s at position %d"
                           % (_shape_str(shps[k]), k))
    rank = shps[0].shape[0]
    if not -rank <= concat_dim < rank:
        raise _invalid("Concat dimension must be in range [%d, %d), got %d" % (-rank, rank, concat_dim))
    dim = concat_dim % rank
    for k in range(1, N):
        if shps[k].shape[0] != rank:
            raise _invalid("Ranks of all input tensors must match: expected %d but got %d at position %d"
                           % (rank, shps[k].shape[0], k))
        for j in range(rank):
            if j != dim and shps[k][j] != shps[0][j]:
                raise _invalid("Input shapes must match: expected %d for dimension %d but got %d at position %d"
                               % (shps[0][j], j, shps[k][j], k))
    for k in range(N):
        _check_sparse(inds[k], vals[k], shps[k], ("indices", "values", "shapes"))
    out_shape = shps[0].astype(np.int64).copy()
    out_shape[dim] = sum(int(s[dim]) for s in shps)
    parts, offset = [], 0
    for k in range(N):
        idx = inds[k].astype(np.int64).copy()
        idx[:, dim] += offset
        offset += int(shps[k][dim])
        parts.append(idx)
    idx = np.concatenate(parts) if parts else np.zeros((0, rank), np.int64)
    val = np.concatenate(vals)
    perm = _lex_order(idx)
    return idx[perm], val[perm], out_shape


register_op("SparseConcat", infer=_concat_infer, kernel=_concat_kernel, grad=NO_GRADIENT)


def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
    """Concatenates a list of `SparseTensor` along the specified dimension.

    The result is in canonical (row-major) order. With `expand_nonconcat_dim`, the inputs may differ in
    their other dimensions: each is first taken to have the maximum of every other dimension.

    Args:
      axis: Dimension to concatenate along (a Python int; negative counts from the end).
      sp_inputs: List of `SparseTensor` to concatenate.
      name: A name prefix for the returned tensors (optional).
      expand_nonconcat_dim: Whether to allow the expansion in the non-concat dimensions.
      concat_dim: The old (deprecated) name for `axis`.
      expand_nonconcat_dims: Alias for `expand_nonconcat_dim`.

    Returns:
      A `SparseTensor` with the concatenated output.

    Raises:
      TypeError: If `sp_inputs` is not a list of `SparseTensor`.
      ValueError: If both `axis` and `concat_dim` are given.
    """
    if expand_nonconcat_dims is not None:
        expand_nonconcat_dim = expand_nonconcat_dims
    if axis is not None and concat_dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'concat_dim'")
    axis = concat_dim if axis is None else axis
    if not isinstance(sp_inputs, list):
        raise TypeError("Inputs must be a list")
    if not all(isinstance(s, (SparseTensor, SparseTensorValue)) for s in sp_inputs):
        raise TypeError("All inputs must be SparseTensors")
    sp_inputs = [convert_to_sparse_tensor(s) for s in sp_inputs]
    if len(sp_inputs) == 1:
        return sp_inputs[0]
    from . import array_ops, math_ops
    inds = [s.indices for s in sp_inputs]
    vals = [s.values for s in sp_inputs]
    shapes = [s.dense_shape for s in sp_inputs]
    if expand_nonconcat_dim:
        max_shape = math_ops.reduce_max(array_ops.concat([array_ops.reshape(s, [1, -1]) for s in shapes], 0), 0)
        shapes = [array_ops.concat([max_shape[:axis], s[-1:] if axis == -1 else s[axis:axis + 1],
                                    [] if axis == -1 else max_shape[axis + 1:]], 0) for s in shapes]
    ind, val, out_shape = ops.apply_op("SparseConcat", inds + vals + shapes,
                                       {"concat_dim": int(axis), "N": len(sp_inputs)}, name=name)
    in_shapes = [s.get_shape() for s in sp_inputs]
    if all(s.is_fully_defined() for s in in_shapes):
        dims = [s.as_list() for s in in_shapes]
        static = [max(d[j] for d in dims) for j in range(len(dims[0]))] if expand_nonconcat_dim else list(dims[0])
        static[axis] = sum(d[axis] for d in dims)
        out_shape = ops.convert_to_tensor(np.asarray(static, np.int64))
    return SparseTensor(ind, val, out_shape)


# ---- SparseSlice / SparseSliceGrad -------------------------------------------------------------------
def _slice_infer(op):
    n, r = _sparse_dims(op, 0)
    for t, arg in ((op._inputs[3], "start"), (op._inputs[4], "size")):
        _dtype(t, (dtypes.int64,), arg, op)
        d = _rank(t, 1, op, arg)
        r = _merge(r, None if d is None else d[0], op)
    return [(dtypes.int64, (None, r)), (op._inputs[1]._dtype, (None,)), (dtypes.int64, (r,))]


def _slice_mask(indices, start, size):
    end = start + size
    return ((indices >= start[None, :]) & (indices < end[None, :])).all(axis=1)


def _slice_kernel(xp, indices, values, shape, start, size):
    _check_sparse(indices, values, shape, ("input_indices", "input_values", "input_shape"))
    rank = shape.shape[0]
    if np.ndim(start) != 1 or np.ndim(size) != 1:
        raise _invalid("Input start and size should be vectors but received shapes %s and %s"
                       % (_shape_str(start), _shape_str(size)))
    if start.shape[0] != rank:
        raise _invalid("Expected start to be a vector of length %d but got length %d" % (rank, start.shape[0]))
    if size.shape[0] != rank:
        raise _invalid("Expected size to be a vector of length %d but got length %d" % (rank, size.shape[0]))
    start = start.astype(np.int64)
    size = size.astype(np.int64)
    shape = shape.astype(np.int64)
    out_shape = np.maximum(np.minimum(start + size, shape) - start, 0)
    if rank == 0:
        return indices.astype(np.int64), values, out_shape
    keep = _slice_mask(indices, start, np.minimum(size, np.maximum(shape - start, 0)))
    return (indices[keep] - start[None, :]).astype(np.int64), values[keep], out_shape


def _slice_grad(op, *grads):
    g = ops.apply_op("SparseSliceGrad", [grads[1], op._inputs[0], op._inputs[3], op._outputs[0]])
    return [None, g, None, None, None]


register_op("SparseSlice", infer=_slice_infer, kernel=_slice_kernel, grad=_slice_grad)


def _slice_grad_infer(op):
    bp, ind, start, out_ind = op._inputs
    _rank(bp, 1, op, "backprop_val_grad")
    d = _rank(ind, 2, op, "input_indices")
    _rank(start, 1, op, "input_start")
    _rank(out_ind, 2, op, "output_indices")
    return [(bp._dtype, (None if d is None else d[0],))]


def _slice_grad_kernel(xp, backprop_val_grad, input_indices, input_start, output_indices):
    if np.ndim(input_indices) != 2 or np.ndim(output_indices) != 2:
        raise _invalid("input_indices and output_indices should be matrices but received shapes: %s and %s"
                       % (_shape_str(input_indices), _shape_str(output_indices)))
    if np.ndim(backprop_val_grad) != 1:
        raise _invalid("backprop_val_grad should be a vector but received shape: %s"
                       % _shape_str(backprop_val_grad))
    if input_indices.shape[1] != output_indices.shape[1]:
        raise _invalid("The input and output should have the same ndims: got: %d and %d"
                       % (input_indices.shape[1], output_indices.shape[1]))
    if output_indices.shape[0] > input_indices.shape[0]:
        raise _invalid("# rows of output_indices should be not greater than of input_indices, got %d and %d"
                       % (output_indices.shape[0], input_indices.shape[0]))
    if backprop_val_grad.shape[0] != output_indices.shape[0]:
        raise _invalid("# elements of backprop_val_grad and # rows of output_indices should match (#nnz of "
                       "sum): got %d and %d" % (backprop_val_grad.shape[0], output_indices.shape[0]))
    out = np.zeros(input_indices.shape[0], backprop_val_grad.dtype)
    shifted = input_indices.astype(np.int64) - input_start.astype(np.int64)[None, :]
    ks, ko = _keys(shifted), _keys(output_indices)
    j = 0
    for i, key in enumerate(ks):
        if j < len(ko) and key == ko[j]:
            out[i] = backprop_val_grad[j]
            j += 1
    if j != len(ko):
        raise _invalid("Elements of backprop_val_grad aren't all propagated. Num elements: %d, used: %d"
                       % (len(ko), j))
    return out


register_op("SparseSliceGrad", infer=_slice_grad_infer, kernel=_slice_grad_kernel, grad=NO_GRADIENT)


def sparse_slice(sp_input, start, size, name=None):
    """Slices a `SparseTensor` based on the `start` and `size`.

    Entries with `start <= index < start + size` (in every dimension) are kept, shifted by `start`; the
    result's dense shape is the slice clipped to the input's shape.

    Args:
      sp_input: The `SparseTensor` to split.
      start: 1-D. tensor represents the start of the slice.
      size: 1-D. tensor represents the size of the slice.
      name: A name for the operation (optional).

    Returns:
      A `SparseTensor` objects resulting from splicing.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
    """
    sp_input = convert_to_sparse_tensor(sp_input)
    start = ops.convert_to_tensor(start, dtypes.int64)
    size = ops.convert_to_tensor(size, dtypes.int64)
    with ops.name_scope(name, "SparseSlice", [sp_input]) as scope:
        ind, val, shape = ops.apply_op("SparseSlice", [sp_input.indices, sp_input.values, sp_input.dense_shape,
                                                       start, size], name=scope)
        return SparseTensor(ind, val, shape)


# ---- SparseSplit -----------------------------------------------------------------------------------
def _split_infer(op):
    _dtype(op._inputs[0], (dtypes.int64,), "split_dim", op)
    _rank(op._inputs[0], 0, op, "split_dim")
    _, r = _sparse_dims(op, 1)
    k = op._attrs["num_split"]
    vt = op._inputs[2]._dtype
    return [(dtypes.int64, (None, r))] * k + [(vt, (None,))] * k + [(dtypes.int64, (r,))] * k


def _split_kernel(xp, split_dim, indices, values, shape, num_split):
    _check_sparse(indices, values, shape, ("input_indices", "input_values", "input_shape"))
    rank = shape.shape[0]
    d = int(split_dim)
    if not -rank <= d < rank:
        raise _invalid("Input axis should be in range [%d, %d), got %d" % (-rank, rank, d))
    d %= rank
    dim = int(shape[d])
    if not 1 <= num_split <= dim:
        raise _invalid("Input num_split should be between 1 and the splitting dimension size (%d), got %d"
                       % (dim, num_split))
    base, extra = divmod(dim, num_split)
    sizes = [base + 1 if k < extra else base for k in range(num_split)]
    starts = np.cumsum([0] + sizes[:-1])
    piece = np.searchsorted(np.cumsum(sizes), indices[:, d], side="right")
    out_i, out_v, out_s = [], [], []
    for k in range(num_split):
        m = piece == k
        idx = indices[m].astype(np.int64).copy()
        idx[:, d] -= starts[k]
        s = shape.astype(np.int64).copy()
        s[d] = sizes[k]
        out_i.append(idx)
        out_v.append(values[m])
        out_s.append(s)
    return tuple(out_i + out_v + out_s)


register_op("SparseSplit", infer=_split_infer, kernel=_split_kernel, grad=None)


def sparse_split(keyword_required=None, sp_input=None, num_split=None, axis=None, name=None, split_dim=None):
    """Split a `SparseTensor` into `num_split` tensors along `axis`.

    If `sp_input.dense_shape[axis]` is not an integer multiple of `num_split`, the first
    `shape[axis] % num_split` pieces get one extra slice along `axis`.

    Args:
      keyword_required: Python 2 standin for * (temporary for argument reorder); must not be given.
      sp_input: The `SparseTensor` to split.
      num_split: A Python integer. The number of ways to split.
      axis: A 0-D `int32` `Tensor`. The dimension along which to split.
      name: A name for the operation (optional).
      split_dim: Deprecated old name for axis.

    Returns:
      `num_split` `SparseTensor` objects resulting from splitting `value`.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
      ValueError: If the deprecated `split_dim` and `axis` are both non None, or an argument is missing.
    """
    if keyword_required is not None:
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if axis is not None and split_dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'split_dim'")
    axis = split_dim if axis is None else axis
    if axis is None:
        raise ValueError("axis is required")
    sp_input = convert_to_sparse_tensor(sp_input)
    axis = ops.convert_to_tensor(axis, dtypes.int64)
    outs = ops.apply_op("SparseSplit", [axis, sp_input.indices, sp_input.values, sp_input.dense_shape],
                        {"num_split": int(num_split)}, name=name)
    if isinstance(outs, ops.Tensor):
        outs = [outs]
    k = int(num_split)
    return [SparseTensor(outs[i], outs[k + i], outs[2 * k + i]) for i in range(k)]


# ---- SparseFillEmptyRows / SparseFillEmptyRowsGrad -----------------------------------------------
def _fill_infer(op):
    _, r = _sparse_dims(op, 0, names=("indices", "values", "dense_shape"))
    val, default = op._inputs[1], op._inputs[3]
    _rank(default, 0, op, "default_value")
    _same_dtype(op, default, "default_value", val, "values")
    dn = _dims(op._inputs[1])
    shape_v = _static_shape_value(op._inputs[2])
    rows = None if shape_v is None or not shape_v else shape_v[0]
    return [(dtypes.int64, (None, r)), (val._dtype, (None,)), (dtypes.bool_, (rows,)),
            (dtypes.int64, (None if dn is None else dn[0],))]


def _fill_kernel(xp, indices, values, dense_shape, default_value):
    if np.ndim(dense_shape) != 1:
        raise _invalid("dense_shape must be a vector, saw: %s" % _shape_str(dense_shape))
    if np.ndim(indices) != 2:
        raise _invalid("indices must be a matrix, saw: %s" % _shape_str(indices))
    if np.ndim(values) != 1:
        raise _invalid("values must be a vector, saw: %s" % _shape_str(values))
    if np.ndim(default_value) != 0:
        raise _invalid("default_value must be a scalar, saw: %s" % _shape_str(default_value))
    if indices.shape[0] != values.shape[0]:
        raise _invalid("The length of `values` (%d) must match the first dimension of `indices` (%d)."
                       % (values.shape[0], indices.shape[0]))
    if indices.shape[1] != dense_shape.shape[0]:
        raise _invalid("The length of `dense_shape` (%d) must match the second dimension of `indices` (%d)."
                       % (dense_shape.shape[0], indices.shape[1]))
    n = indices.shape[0]
    rank = dense_shape.shape[0]
    if rank == 0:
        raise _invalid("dense_shape must be a vector of length >= 1, saw: []")
    rows = int(dense_shape[0])
    if rows == 0:
        if n:
            raise _invalid("Received SparseTensor with dense_shape[0] = 0 but indices.shape[0] = %d" % n)
        return (np.zeros((0, rank), np.int64), values[:0], np.zeros(0, bool), np.zeros(0, np.int64))
    row = indices[:, 0].astype(np.int64)
    bad = np.nonzero((row < 0) | (row >= rows))[0]
    if len(bad):
        i = int(bad[0])
        raise _invalid("indices(%d, 0) is invalid: %d >= %d" % (i, row[i], rows))
    counts = np.bincount(row, minlength=rows)
    empty = counts == 0
    per_row = np.maximum(counts, 1)
    row_start = np.r_[0, np.cumsum(per_row)[:-1]]
    total = int(per_row.sum())
    out_ind = np.zeros((total, rank), np.int64)
    out_val = np.empty(total, values.dtype)
    # Entries keep their input order within a row (a stable sort by row).
    order = np.argsort(row, kind="stable")
    rank_in_row = np.arange(n) - np.r_[0, np.cumsum(counts)[:-1]][row[order]]
    pos = np.empty(n, np.int64)
    pos[order] = row_start[row[order]] + rank_in_row
    out_ind[pos] = indices
    out_val[pos] = values
    e = np.nonzero(empty)[0]
    out_ind[row_start[e], 0] = e
    out_val[row_start[e]] = default_value
    return out_ind, out_val, empty, pos


def _fill_grad(op, _g_ind, g_val, _g_empty, _g_map):
    dv, dd = ops.apply_op("SparseFillEmptyRowsGrad", [op._outputs[3], g_val])
    return [None, dv, None, dd]


register_op("SparseFillEmptyRows", infer=_fill_infer, kernel=_fill_kernel, grad=_fill_grad)


def _fill_grad_infer(op):
    rim, g = op._inputs
    _dtype(rim, (dtypes.int64,), "reverse_index_map", op)
    d = _rank(rim, 1, op, "reverse_index_map")
    _rank(g, 1, op, "grad_values")
    return [(g._dtype, d), (g._dtype, ())]


def _fill_grad_kernel(xp, reverse_index_map, grad_values):
    if np.ndim(reverse_index_map) != 1:
        raise _invalid("reverse_index_map must be a vector, saw: %s" % _shape_str(reverse_index_map))
    if np.ndim(grad_values) != 1:
        raise _invalid("grad_values must be a vector, saw: %s" % _shape_str(grad_values))
    m = grad_values.shape[0]
    bad = np.nonzero((reverse_index_map < 0) | (reverse_index_map >= m))[0]
    if len(bad):
        i = int(bad[0])
        raise _invalid("Elements in reverse index must be in [0, %d) but got %d" % (m, reverse_index_map[i]))
    d_values = grad_values[reverse_index_map]
    visited = np.zeros(m, bool)
    visited[reverse_index_map] = True
    d_default = np.add.reduce(grad_values[~visited], dtype=grad_values.dtype) if m else grad_values.dtype.type(0)
    return d_values, np.asarray(d_default, grad_values.dtype)


register_op("SparseFillEmptyRowsGrad", infer=_fill_grad_infer, kernel=_fill_grad_kernel, grad=NO_GRADIENT)


def sparse_fill_empty_rows(sp_input, default_value, name=None):
    """Fills empty rows in the input 2-D (or higher) `SparseTensor` with a default value.

    For each row `r` of the dense shape with no entry, an entry `[r, 0, ..., 0]` with value `default_value`
    is added; the result is ordered by row (entries of one row keep their order).

    Args:
      sp_input: A `SparseTensor` with shape `[N, M]`.
      default_value: The value to fill for empty rows, with the same type as `sp_input.`
      name: A name prefix for the returned tensors (optional)

    Returns:
      sp_ordered_output: A `SparseTensor` with shape `[N, M]`, and with all empty rows filled in with
        `default_value`.
      empty_row_indicator: A bool vector of length `N` indicating whether each input row was empty.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
    """
    sp_input = convert_to_sparse_tensor(sp_input)
    with ops.name_scope(name, "SparseFillEmptyRows", [sp_input]):
        default_value = ops.convert_to_tensor(default_value, dtype=sp_input.values.dtype)
        ind, val, empty, _ = ops.apply_op("SparseFillEmptyRows", [sp_input.indices, sp_input.values,
                                                                  sp_input.dense_shape, default_value])
        return SparseTensor(ind, val, sp_input.dense_shape), empty


# ---- compositions ----------------------------------------------------------------------------------
def sparse_retain(sp_input, to_retain):
    """Retains specified non-empty values within a `SparseTensor`.

    Args:
      sp_input: The input `SparseTensor` with `N` non-empty elements.
      to_retain: A bool vector of length `N` with `M` true values.

    Returns:
      A `SparseTensor` with the same shape as the input and `M` non-empty elements corresponding to the
      true positions in `to_retain`.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
      ValueError: If `to_retain` is not a vector or its length does not match the number of values.
    """
    from . import array_ops
    from .core_ops import identity
    sp_input = convert_to_sparse_tensor(sp_input)
    to_retain = ops.convert_to_tensor(to_retain)
    retain_shape = to_retain.get_shape()
    retain_shape.assert_has_rank(1)
    vs = sp_input.values.get_shape()
    if vs.ndims is not None:
        vs[0].assert_is_compatible_with(retain_shape[0])
    where_true = array_ops.reshape(array_ops.where_v2(to_retain), [-1])
    return SparseTensor(array_ops.gather(sp_input.indices, where_true), array_ops.gather(sp_input.values, where_true),
                        identity(sp_input.dense_shape))


def sparse_reset_shape(sp_input, new_shape=None):
    """Resets the shape of a `SparseTensor` with indices and values unchanged.

    With `new_shape` None, the shape becomes the tight bounding box of the indices (`max(index) + 1` per
    dimension); else `new_shape`, which must have the same rank and no dimension smaller than the input's.

    Args:
      sp_input: The input `SparseTensor`.
      new_shape: None or a vector representing the new shape for the returned `SparseTensor`.

    Returns:
      A `SparseTensor` indices and values unchanged from `sp_input`; its shape is `new_shape` if provided,
      else the tight bounding box.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
      ValueError: If `new_shape` represents a tensor with a different rank from that of `sp_input` (if
        shapes are known when graph is constructed), or a dimension is smaller than the input's.
      tf.errors.InvalidArgumentError: At run time, in those cases when not known statically.
    """
    from . import array_ops, check_ops, math_ops
    from .core_ops import identity, ones_like
    sp_input = convert_to_sparse_tensor(sp_input)
    in_indices = identity(sp_input.indices)
    in_values = identity(sp_input.values)
    in_shape = identity(sp_input.dense_shape)
    if new_shape is None:
        low = math_ops.reduce_max(in_indices, axis=0)
        out = math_ops.maximum(ops.convert_to_tensor(0, dtype=dtypes.int64),
                               math_ops.add(low, ones_like(in_shape)))
    else:
        out = ops.convert_to_tensor(new_shape)
        out.get_shape().assert_has_rank(1)
        out = math_ops.cast(out, dtypes.int64)
        if out.get_shape().ndims is not None:
            out.get_shape()[0].assert_is_compatible_with(in_shape.get_shape()[0])
        const = tensor_util.constant_value(out)
        if const is not None and sp_input.get_shape().is_fully_defined():
            in_const = np.array(sp_input.get_shape().as_list())
            if not np.all(in_const <= const):
                raise ValueError("Requested new_shape should have dimension sizes >= sp_input.shape.  Found "
                                 "new_shape (%s), sp_input.shape (%s)." % (in_const, const))
            out = ops.convert_to_tensor(np.asarray(const, np.int64))
        else:
            with ops.control_dependencies([check_ops.assert_equal(array_ops.shape(in_shape), array_ops.shape(out))]):
                out = identity(out)
            with ops.control_dependencies([check_ops.assert_less_equal(in_shape, out)]):
                out = identity(out)
    return SparseTensor(in_indices, in_values, out)


def sparse_transpose(sp_input, perm=None, name=None):
    """Transposes a `SparseTensor`.

    The dimensions are permuted by `perm` (default: reversed), and the result reordered canonically.

    Args:
      sp_input: The input `SparseTensor`.
      perm: A permutation of the dimensions of `sp_input`.
      name: A name prefix for the returned tensors (optional).

    Returns:
      A transposed `SparseTensor`.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
    """
    from . import array_ops
    sp_input = convert_to_sparse_tensor(sp_input)
    with ops.name_scope(name, "SparseTranspose", [sp_input]):
        if perm is None:
            if sp_input.shape.ndims is not None:
                rank = sp_input.shape.ndims
                perm = rank - 1 - np.arange(0, rank, 1)
            else:
                rank = array_ops.shape(sp_input.dense_shape)[0]
                perm = rank - 1 - array_ops.range(0, rank, 1)
        indices = sp_input.indices
        t_ind = array_ops.transpose(array_ops.gather(array_ops.transpose(indices), perm))
        perm_ = tensor_util.constant_value(ops.convert_to_tensor(perm))
        if perm_ is not None and sp_input.get_shape().is_fully_defined():
            old = sp_input.get_shape().as_list()
            t_shape = [old[int(p)] for p in perm_]
        else:
            t_shape = array_ops.gather(sp_input.dense_shape, perm)
        return sparse_reorder(SparseTensor(t_ind, sp_input.values, t_shape))


def sparse_expand_dims(sp_input, axis=None, name=None):
    """Returns a tensor with a length 1 axis inserted at index `axis`.

    Args:
      sp_input: A `SparseTensor`.
      axis: 0-D (scalar). Specifies the dimension index at which to expand the shape of `input`. Must be in
        the range `[-rank(sp_input) - 1, rank(sp_input)]`. Defaults to -1.
      name: The name of the output `SparseTensor`.

    Returns:
      A `SparseTensor` with the same data as `sp_input`, but its shape has an additional dimension of size 1
      added.

    Raises:
      TypeError: If `axis` is neither an integer nor a Tensor.
    """
    from . import array_ops
    sp_input = convert_to_sparse_tensor(sp_input)
    rank = sp_input.dense_shape.get_shape()[0].value
    if rank is None:
        rank = array_ops.shape(sp_input.dense_shape)[0]
    axis = -1 if axis is None else axis
    with ops.name_scope(name, "expand_dims", [sp_input]):
        if isinstance(axis, numbers.Integral) and not isinstance(axis, bool):
            axis = ops.convert_to_tensor(axis, name="axis", dtype=dtypes.int32)
        elif not isinstance(axis, ops.Tensor):
            raise TypeError("axis must be an integer value in range [-rank(sp_input) - 1, rank(sp_input)]")
        axis = array_ops.where_v2(axis >= 0, axis, axis + rank + 1)
        n = array_ops.shape(sp_input.indices)[0]
        new_index = array_ops.zeros(array_ops.stack([n, 1]), dtype=dtypes.int64)
        before = array_ops.slice(sp_input.indices, [0, 0], array_ops.stack([-1, axis]))
        after = array_ops.slice(sp_input.indices, array_ops.stack([0, axis]), [-1, -1])
        indices = array_ops.concat([before, new_index, after], axis=1)
        shape_before = array_ops.slice(sp_input.dense_shape, array_ops.reshape(0, [1]), array_ops.reshape(axis, [1]))
        shape_after = array_ops.slice(sp_input.dense_shape, array_ops.reshape(axis, [1]), [-1])
        new_shape = ops.convert_to_tensor([1], name="new_shape", dtype=dtypes.int64)
        shape = array_ops.concat([shape_before, new_shape, shape_after], axis=0)
        return SparseTensor(indices, sp_input.values, shape)


def sparse_eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """Creates a two-dimensional sparse tensor with ones along the diagonal.

    Args:
      num_rows: Non-negative integer or `int32` scalar `tensor` giving the number of rows in the resulting
        matrix.
      num_columns: Optional non-negative integer or `int32` scalar `tensor` giving the number of columns in
        the resulting matrix. Defaults to `num_rows`.
      dtype: The type of element in the resulting `Tensor`.
      name: A name for this `Op`. Defaults to "eye".

    Returns:
      A `SparseTensor` of shape [num_rows, num_columns] with ones along the diagonal.
    """
    from . import array_ops, math_ops
    with ops.name_scope(name, "eye", [num_rows, num_columns]):
        num_rows = math_ops.cast(ops.convert_to_tensor(num_rows, name="num_rows"), dtypes.int64)
        num_columns = num_rows if num_columns is None else math_ops.cast(
            ops.convert_to_tensor(num_columns, name="num_columns"), dtypes.int64)
        diag_size = math_ops.minimum(num_rows, num_columns)
        diag_range = array_ops.range(diag_size, dtype=dtypes.int64)
        return SparseTensor(array_ops.stack([diag_range, diag_range], axis=1),
                            array_ops.ones(array_ops.reshape(diag_size, [1]), dtype=dtypes.as_dtype(dtype)),
                            array_ops.stack([num_rows, num_columns]))


def from_dense(tensor, name=None):
    """Converts a dense tensor into a sparse tensor.

    Only elements not equal to zero will be present in the result (in row-major order).

    Args:
      tensor: A `Tensor` to be converted to a `SparseTensor`.
      name: Optional name for the op.

    Returns:
      The `SparseTensor`.
    """
    from . import array_ops, math_ops
    from .core_ops import zeros_like
    with ops.name_scope(name, "dense_to_sparse"):
        tensor = ops.convert_to_tensor(tensor)
        indices = array_ops.where_v2(math_ops.not_equal(tensor, zeros_like(tensor)))
        values = array_ops.gather_nd(tensor, indices)
        shape = array_ops.shape(tensor, out_type=dtypes.int64)
        return SparseTensor(indices, values, shape)


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """Combines a batch of feature ids and values into a single `SparseTensor`.

    The last dimension of `sp_ids` is replaced by the ids themselves (each of `vocab_size` possible): the
    result has `indices[i] = [*sp_ids.indices[i][:-1], sp_ids.values[i]]` and `values = sp_values.values`,
    with dense shape `[*sp_ids.dense_shape[:-1], vocab_size]`. A list of `sp_ids` (and of `vocab_size`)
    gives one id dimension each.

    Args:
      sp_ids: A single `SparseTensor` with `values` property of type `int32` or `int64` or a Python list of
        such `SparseTensor`s or a list thereof.
      sp_values: A `SparseTensor` of any type.
      vocab_size: A scalar `Tensor` of type `int64` holding the vocabulary size. Or a list of vocab sizes.
      name: A name prefix for the returned tensors (optional)
      already_sorted: A boolean to specify whether the per-batch values in `sp_values` are already sorted.
        If so skip sorting, False by default (optional).

    Returns:
      A `SparseTensor` compactly representing a batch of feature ids and values, useful for passing to
      functions that expect such a `SparseTensor`.

    Raises:
      TypeError: If `sp_values` is not a `SparseTensor`. Or if `sp_ids` is neither a `SparseTensor` nor a
        list thereof. Or if `vocab_size` is not a `Tensor` or a Python int and `sp_ids` is a `SparseTensor`.
        Or if `vocab_size` is not a or list thereof and `sp_ids` is a list.
      ValueError: If `sp_ids` and `vocab_size` are lists of different lengths.
    """
    from . import array_ops, math_ops
    if isinstance(sp_ids, (SparseTensor, SparseTensorValue)):
        sp_ids = [sp_ids]
        if not (isinstance(vocab_size, ops.Tensor) or isinstance(vocab_size, numbers.Integral)):
            raise TypeError("vocab_size has to be a Tensor or Python int. Found %s" % type(vocab_size))
        vocab_size = [vocab_size]
    else:
        if not isinstance(sp_ids, (list, tuple)):
            raise TypeError("sp_ids has to be a SparseTensor or list thereof. Found %s" % type(sp_ids))
        if not isinstance(vocab_size, (list, tuple)):
            raise TypeError("vocab_size has to be a list of Tensors or Python ints. Found %s" % type(vocab_size))
        for dim in vocab_size:
            if not (isinstance(dim, ops.Tensor) or isinstance(dim, numbers.Integral)):
                raise TypeError("vocab_size has to be a list of Tensors or Python ints. Found %s" % type(dim))
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    with ops.name_scope(name, "SparseMerge", [sp_ids, sp_values]):
        sp_ids = [convert_to_sparse_tensor(s) for s in sp_ids]
        sp_values = convert_to_sparse_tensor(sp_values)
        ids = []
        for s in sp_ids:
            v = s.values
            if s.dtype != dtypes.int64:
                v = math_ops.cast(v, dtypes.int64)
            ids.append(array_ops.expand_dims(v, axis=1))
        vocab_size = [math_ops.cast(ops.convert_to_tensor(x), dtypes.int64) for x in vocab_size]
        keep = sp_ids[0].indices[:, :-1]
        new_indices = array_ops.concat([keep] + ids, 1)
        new_shape = array_ops.concat([sp_ids[0].dense_shape[:-1], array_ops.stack(vocab_size)], 0)
        result = SparseTensor(new_indices, sp_values.values, new_shape)
        if already_sorted:
            return result
        sorted_result = sparse_reorder(result)
        return SparseTensor(sorted_result.indices, sorted_result.values, new_shape)


def sparse_to_indicator(sp_input, vocab_size, name=None):
    """Converts a `SparseTensor` of ids into a dense bool indicator tensor.

    The last dimension of `sp_input.indices` is discarded and replaced with the values of `sp_input`:
    `output[b_0, ..., b_{n-2}, id] = True` for each id of batch position `b`.

    Args:
      sp_input: A `SparseTensor` with `values` property of type `int32` or `int64`.
      vocab_size: A scalar int64 Tensor (or Python int) containing the new size of the last dimension,
        `all(0 <= sp_input.values < vocab_size)`.
      name: A name prefix for the returned tensors (optional)

    Returns:
      A dense bool indicator tensor representing the indices with specified value.

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
    """
    from . import array_ops
    from .sparse_ops import sparse_tensor_to_dense
    sp_input = convert_to_sparse_tensor(sp_input)
    with ops.name_scope(name, "SparseToIndicator", [sp_input]) as scope:
        n = array_ops.shape(sp_input.indices)[0]
        new_values = array_ops.fill(array_ops.expand_dims(n, 0), True)
        sp_values = SparseTensor(sp_input.indices, new_values, sp_input.dense_shape)
        sp_new = sparse_merge(sp_input, sp_values, vocab_size, scope)
        return sparse_tensor_to_dense(sp_new, default_value=False, validate_indices=False, name=scope)


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    """Converts value to a `SparseTensor` or `Tensor`.

    Args:
      value: A `SparseTensor`, `SparseTensorValue`, or an object whose type has a registered `Tensor`
        conversion function.
      dtype: Optional element type for the returned tensor. If missing, the type is inferred from the type
        of `value`.
      name: Optional name to use if a new `Tensor` is created.

    Returns:
      A `SparseTensor` or `Tensor` based on `value`.

    Raises:
      RuntimeError: If result type is incompatible with `dtype`.
    """
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, SparseTensorValue):
        value = SparseTensor.from_value(value)
    if isinstance(value, SparseTensor):
        if dtype and not dtype.is_compatible_with(value.dtype):
            raise RuntimeError("Sparse dtype: requested = %s, actual = %s" % (dtype.name, value.dtype.name))
        return value
    return ops.convert_to_tensor(value, dtype=dtype, name=name)


def sparse_mask(a, mask_indices, name=None):
    """Masks elements of `IndexedSlices`.

    Given an `IndexedSlices` instance `a`, returns another `IndexedSlices` that contains a subset of the
    slices of `a`: those whose indices are not in `mask_indices`.

    Args:
      a: An `IndexedSlices` instance.
      mask_indices: Indices of elements to mask.
      name: A name for the operation (optional).

    Returns:
      The masked `IndexedSlices` instance.
    """
    from ..framework.indexed_slices import IndexedSlices
    from .array_gather_ops import gather
    from .math_sort_ops import setdiff1d
    with ops.name_scope(name, "sparse_mask", [a, mask_indices]) as scope:
        out_indices, to_gather = setdiff1d(a.indices, mask_indices)
        out_values = gather(a.values, to_gather, name=scope)
        return IndexedSlices(out_values, out_indices, a.dense_shape)


# ---- sparse_placeholder -------------------------------------------------------------------------------------
class _SparsePlaceholder(SparseTensor):
    """The `SparseTensor` of `tf.sparse_placeholder`: `Session.run` feeds it a `SparseTensorValue` or an
    `(indices, values, dense_shape)` triple, fed to its three component tensors."""

    def __init__(self, indices, values, dense_shape, static_shape):
        super().__init__(indices, values, dense_shape)
        self._static_shape = static_shape

    @property
    def shape(self):
        """The static dense shape given to `sparse_placeholder` (merged with what `dense_shape` tells)."""
        return self._static_shape.merge_with(super().shape) if self._static_shape.ndims is not None else (
            super().shape)


def sparse_placeholder(dtype, shape=None, name=None):
    """Inserts a placeholder for a sparse tensor that will be always fed.

    Feed it with a `tf.SparseTensorValue` (or a tuple `(indices, values, dense_shape)`):

      x = tf.sparse.placeholder(tf.float32)
      y = tf.sparse.reduce_sum(x)
      sess.run(y, feed_dict={x: tf.SparseTensorValue([[0, 0], [1, 2]], [1.0, 2.0], [3, 4])})

    Args:
      dtype: The type of `values` elements in the tensor to be fed.
      shape: The shape of the tensor to be fed (optional). If the shape is not specified, you can feed a
        sparse tensor of any shape. Given, it is the static shape, and `dense_shape` defaults to it (-1 for
        its unknown dimensions).
      name: A name for prefixing the operations (optional).

    Returns:
      A `SparseTensor` that may be used as a handle for feeding a value, but not evaluated directly.

    Raises:
      RuntimeError: if eager execution is enabled
    """
    from ..framework.tensor_shape import TensorShape
    from .core_ops import placeholder, placeholder_with_default
    if ops.get_default_graph()._eager:
        raise RuntimeError("`sparse_placeholder` is not compatible with eager execution.")
    shape_name = (name + "/shape") if name is not None else None
    if shape is None:
        rank, static = None, TensorShape(None)
        dense_shape = placeholder(dtypes.int64, shape=[None], name=shape_name)
    elif isinstance(shape, ops.Tensor):
        rank, static = shape.get_shape()[0].value, tensor_util.constant_value_as_shape(shape)
        dense_shape = placeholder_with_default(shape, shape=shape.shape, name=shape_name)
    else:
        static = TensorShape(shape)
        dims = [-1 if d is None else d for d in static.as_list()]
        rank = len(dims)
        default = ops.convert_to_tensor(np.asarray(dims, np.int64),
                                        name=(name + "/shape_default") if name is not None else None)
        dense_shape = placeholder_with_default(default, shape=[rank], name=shape_name)
    values = placeholder(dtype, shape=[None], name=(name + "/values") if name is not None else None)
    indices = placeholder(dtypes.int64, shape=[None, rank], name=(name + "/indices") if name is not None else None)
    return _SparsePlaceholder(indices, values, dense_shape, static)
