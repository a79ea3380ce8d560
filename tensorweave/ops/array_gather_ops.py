"""Array ops that gather and scatter by index: gather, gather_nd, scatter_nd, one_hot."""

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape
from .array_helpers import (
    _INDEX_DTYPES,
    _check_dtype,
    _dims,
    _fmt,
    _index_tensor,
    _index_tensors,
    _int_list,
    _invalid,
    _prange,
    _value,
    _with_rank,
    _with_rank_at_least,
)
from .core_ops import shape


# ---- GatherV2 --------------------------------------------------------------------------------
def _gather_infer(op):
    """TF's GatherV2 shape function: params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]
    (the batch dimensions are not merged; the kernel checks that they agree)."""
    params, indices, axis_t = op._inputs
    _check_dtype(indices, _INDEX_DTYPES, "indices", "GatherV2")
    _check_dtype(axis_t, _INDEX_DTYPES, "axis", "GatherV2")
    _with_rank_at_least(_dims(params), 1)
    _with_rank(axis_t, 0)
    batch_dims = op._attrs.get("batch_dims", 0)
    pd, idd = _dims(params), _dims(indices)
    av = _value(axis_t)
    if av is None:
        if pd is None or idd is None:
            return [(params._dtype, None)]
        b = batch_dims + len(idd) if batch_dims < 0 else batch_dims
        return [(params._dtype, (None,) * (len(pd) + len(idd) - 1 - b))]
    a = int(av)
    _with_rank_at_least(pd, -a if a < 0 else a + 1)
    if idd is not None:
        _with_rank_at_least(idd, abs(batch_dims))
    if pd is None or idd is None:
        return [(params._dtype, None)]
    b = batch_dims + len(idd) if batch_dims < 0 else batch_dims
    _with_rank_at_least(pd, b + 1)
    a %= len(pd)
    return [(params._dtype, pd[:a] + idd[b:] + pd[a + 1:])]


def _check_indices(indices, limit):
    bad = (indices < 0) | (indices >= limit)
    if bad.any():
        pos = np.unravel_index(int(np.argmax(bad.reshape(-1))), indices.shape)
        raise _invalid("indices[%s] = %d is not in [0, %d)" % (",".join(str(int(p)) for p in pos),
                                                               int(indices[pos]), limit))


def _gather_kernel(xp, params, indices, axis, batch_dims=0):
    a = int(axis)
    if params.ndim < 1:
        raise _invalid("params must be at least 1 dimensional")
    if not -params.ndim <= a < params.ndim:
        raise _invalid("Expected axis in the range [%d, %d), but got %d" % (-params.ndim, params.ndim, a))
    a %= params.ndim
    if batch_dims == 0:
        _check_indices(indices, params.shape[a])
        return xp.take(params, indices, axis=a)
    b = int(batch_dims)
    if not -indices.ndim <= b <= indices.ndim:
        raise _invalid("Expected batch_dims in the range [%d, %d], but got %d" % (-indices.ndim, indices.ndim, b))
    if b < 0:
        b += indices.ndim
    if b >= params.ndim:
        raise _invalid("batch_dims (%d) must be less than rank(params) (%d)." % (b, params.ndim))
    if a < b:
        raise _invalid("batch_dims (%d) must be less than or equal to axis (%d)." % (b, a))
    for i in _prange(b):
        if params.shape[i] != indices.shape[i]:
            raise _invalid("params.shape[%d]: %d should be equal to indices.shape[%d]: %d"
                           % (i, params.shape[i], i, indices.shape[i]))
    out_shape = params.shape[:a] + indices.shape[b:] + params.shape[a + 1:]
    if indices.size == 0:
        return xp.zeros(out_shape, dtype=params.dtype)
    gather_size = params.shape[a]
    _check_indices(indices, gather_size)
    batch = int(np.prod(params.shape[:b], dtype=np.int64))
    outer = int(np.prod(params.shape[b:a], dtype=np.int64))
    inner = int(np.prod(params.shape[a + 1:], dtype=np.int64))
    flat = params.reshape(batch, outer, gather_size, inner)
    idx = indices.reshape(batch, 1, -1, 1)
    return xp.take_along_axis(flat, idx, axis=2).reshape(out_shape)


def _gather_grad(op, grad):
    """d/dparams gather(params, i) = grad's slices summed at rows i (an IndexedSlices for axis 0)."""
    params, indices, axis_t = op._inputs
    if op._attrs.get("batch_dims", 0):
        return [_batch_gather_grad(params, indices, axis_t, op._attrs["batch_dims"], grad), None, None]
    params_shape = shape(params)
    indices_size = expand_dims(size(indices), 0)
    axis_static = tensor_util.constant_value(axis_t)
    grad = ops.convert_to_tensor(grad)
    if axis_static is not None and int(axis_static) == 0:
        values = reshape(grad, concat([indices_size, params_shape[1:]], 0))
        return [IndexedSlices(values, reshape(indices, indices_size), params_shape), None, None]
    # Other axes: move the gathered axis first, scatter the rows there, and move it back.
    r = params._shape.ndims
    if axis_static is not None and r is not None:
        a = int(axis_static) % r
        outer, inner = params_shape[:a], params_shape[a + 1:]
        perm = [a] + list(_prange(a)) + list(_prange(a + 1, r))
    else:
        outer, inner = params_shape[:axis_t], params_shape[axis_t:][1:]
        a = size(outer)
        perm = concat([expand_dims(a, 0), range(0, a), range(a, rank(params))[1:]], 0)
    values = transpose(reshape(grad, concat([outer, indices_size, inner], 0)), perm)
    dense = ops.convert_to_tensor(IndexedSlices(values, reshape(indices, [-1]), gather(params_shape, perm)))
    return [transpose(dense, invert_permutation(perm)), None, None]


def _batch_gather_grad(params, indices, axis_t, batch_dims, grad):
    """The params gradient of a gather with batch dimensions: with params seen as [B, O, G, I] (batch,
    outer, gathered axis, inner sizes) and the gradient as [B, O, N, I], each batch's N gradient rows
    are summed onto its G rows (as TF's unsorted_segment_sum over batch-offset indices)."""
    from .math_binary_ops import add, floormod, multiply
    from .math_ops import cast
    from .math_reduce_ops import reduce_prod
    params_shape = shape(params)
    r, ri = params._shape.ndims, indices._shape.ndims
    b = batch_dims
    if b < 0:
        b = b + ri if ri is not None else add(b, rank(indices))
    axis_static = tensor_util.constant_value(axis_t)
    if axis_static is not None and r is not None:
        a = int(axis_static) % r
        a1 = a + 1
    else:
        a = floormod(cast(axis_t, dtypes.int32), rank(params))
        a1 = add(a, 1)
    dims = [reduce_prod(params_shape[:b]), reduce_prod(params_shape[b:a]), params_shape[a],
            reduce_prod(params_shape[a1:])]
    batch, outer, gathered, inner = dims
    n = reduce_prod(shape(indices)[b:])
    values = reshape(ops.convert_to_tensor(grad), stack([batch, outer, n, inner]))
    values = reshape(transpose(values, [0, 2, 1, 3]), stack([multiply(batch, n), outer, inner]))
    offsets = multiply(range(0, batch), gathered)
    flat = reshape(add(reshape(indices, stack([batch, n])), expand_dims(cast(offsets, indices.dtype), 1)), [-1])
    dense = ops.convert_to_tensor(IndexedSlices(values, flat, stack([multiply(batch, gathered), outer, inner])))
    dense = transpose(reshape(dense, stack([batch, gathered, outer, inner])), [0, 2, 1, 3])
    return reshape(dense, params_shape)


register_op("GatherV2", infer=_gather_infer, kernel=_gather_kernel, grad=_gather_grad, gpu=True, host_inputs=(2,))


def _make_int(v, arg_name):
    """An int attribute's value as TF's op wrappers convert it (`int(v)`; None: the default 0)."""
    if v is None:
        return 0
    if isinstance(v, (str, bytes)) or ops.is_tensor(v):
        raise TypeError("Expected int for argument '%s' not %r." % (arg_name, v))
    try:
        return int(v)
    except (TypeError, ValueError):
        raise TypeError("Expected int for argument '%s' not %r." % (arg_name, v)) from None


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """Gathers slices from `params` axis `axis` according to `indices`.

    With `batch_dims = b`, the first `b` dimensions of `params` and `indices` are batch dimensions
    (they must be equal) and each batch gathers from its own slice of `params`:
    `result[i1..ib, ...] = gather(params[i1..ib], indices[i1..ib], axis=axis - b)`.

    Args:
      params: The `Tensor` from which to gather values (rank at least `axis + 1`).
      indices: An int32/int64 `Tensor` of indices in `[0, params.shape[axis])`.
      validate_indices: Deprecated, does nothing (indices are always validated).
      name: A name for the operation (optional).
      axis: The axis in `params` to gather `indices` from (default: `batch_dims`). A constant axis of 0
        gathers without batch dimensions (as TF's `tf.gather`, which then ignores `batch_dims`).
      batch_dims: An int, the number of leading batch dimensions (negative: counted from the end of
        `indices`' dimensions). Must be `<= axis` (after normalization) and `< rank(params)`.

    Returns:
      A `Tensor` of shape `params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]`.

    Raises:
      ValueError: If `axis` or `batch_dims` is out of range for the static ranks.
      TypeError: If `batch_dims` is not an int.
      InvalidArgumentError: At run time, for an index out of range, batch dimensions that differ, or
        `batch_dims` out of range for the actual ranks.
    """
    del validate_indices
    if axis is None:
        axis = batch_dims
    params = ops.convert_to_tensor(params, name="params")
    indices = _index_tensor(indices, name="indices")
    axis = _index_tensor(axis, name="axis")
    axis_value = tensor_util.constant_value(axis)
    batch_dims = 0 if axis_value is not None and int(axis_value) == 0 else _make_int(batch_dims, "batch_dims")
    return ops.apply_op("GatherV2", [params, indices, axis], {"batch_dims": batch_dims}, name=name)


# ---- GatherNd / ScatterNd --------------------------------------------------------------------
def _gather_nd_infer(op):
    params, indices = op._inputs
    _check_dtype(indices, _INDEX_DTYPES, "indices", "GatherNd")
    pd, idd = _dims(params), _dims(indices)
    _with_rank_at_least(idd, 1)
    if idd is None or idd[-1] is None or pd is None:
        return [(params._dtype, None)]
    k = idd[-1]
    if k > len(pd):
        raise ValueError("indices.shape[-1] must be <= params.rank, but saw indices shape: %s and params shape: %s"
                         % (_fmt(idd), _fmt(pd)))
    return [(params._dtype, idd[:-1] + pd[k:])]


def _check_nd_indices(indices, limits, what):
    k = len(limits)
    if not k:
        return
    flat = indices.reshape(-1, k)
    bad = np.any((flat < 0) | (flat >= np.asarray(limits, dtype=np.int64)), axis=1)
    if bad.any():
        i = int(np.argmax(bad))
        pos = np.unravel_index(i, indices.shape[:-1])
        raise _invalid("indices[%s] = [%s] does not index into %s" % (
            ",".join(str(int(p)) for p in pos), ", ".join(str(int(v)) for v in flat[i]), what))


def _gather_nd_kernel(xp, params, indices):
    k = indices.shape[-1]
    if k > params.ndim:
        raise _invalid("index innermost dimension length must be <= params rank; saw: %d vs. %d" % (k, params.ndim))
    _check_nd_indices(indices, params.shape[:k], "param shape %s" % _fmt(params.shape))
    if k == 0:
        return xp.broadcast_to(params, indices.shape[:-1] + params.shape).copy()
    return params[tuple(xp.moveaxis(indices, -1, 0))]


def _gather_nd_grad(op, grad):
    """d/dparams gather_nd(params, indices) = scatter_nd(indices, grad, shape(params))."""
    params, indices = op._inputs
    return [scatter_nd(indices, grad, shape(params, out_type=indices.dtype)), None]


register_op("GatherNd", infer=_gather_nd_infer, kernel=_gather_nd_kernel, grad=_gather_nd_grad)


def gather_nd(params, indices, name=None, batch_dims=0):
    """Gathers slices from `params` into a tensor with shape given by `indices`.

    `indices[..., :]` holds index tuples into the first `indices.shape[-1]` dimensions of `params`.
    With `batch_dims = b`, the first `b` dimensions of `params` and `indices` are batch dimensions
    and the index tuples index into `params[i1..ib]`:
    `result[i1..ib, ...] = gather_nd(params[i1..ib], indices[i1..ib])`.

    Args:
      params: A `Tensor`.
      indices: An int32/int64 `Tensor`.
      name: A name for the operation (optional).
      batch_dims: An int (or a constant scalar `Tensor`): the number of batch dimensions, `>= 0`,
        less than the ranks of `params` and `indices`.

    Returns:
      A `Tensor` of shape `indices.shape[:-1] + params.shape[batch_dims + indices.shape[-1]:]`.

    Raises:
      TypeError: If `batch_dims` is not an int.
      ValueError: If `batch_dims` is negative or not less than the static ranks of `params` and
        `indices`.
      InvalidArgumentError: At run time, for an index tuple out of range (for `batch_dims > 0`, the
        message shows the tuple with the batch coordinates in front, as TF's).
    """
    if ops.is_tensor(batch_dims):
        value = tensor_util.constant_value(batch_dims)
        batch_dims = batch_dims if value is None else value
    if batch_dims is not None and not ops.is_tensor(batch_dims) and not isinstance(batch_dims, (str, bytes)):
        try:
            batch_dims = int(batch_dims)
        except (TypeError, ValueError):
            pass
    if batch_dims == 0 and isinstance(batch_dims, int):
        params = ops.convert_to_tensor(params, name="params")
        return ops.apply_op("GatherNd", [params, _index_tensor(indices, name="indices")], name=name)
    return _batch_gather_nd(params, indices, batch_dims, name)


def _batch_gather_nd(params, indices, batch_dims, name):
    """gather_nd with `batch_dims > 0`, built as TF builds it: each index tuple gets its batch
    coordinates in front (a meshgrid of the batch dimensions), and one GatherNd runs on `params`."""
    from .array_select_ops import meshgrid
    from .math_ops import cast
    from .math_reduce_ops import reduce_prod
    with ops.name_scope(name, "BatchGatherND", [params, indices]):
        indices = _index_tensor(indices, name="indices")
        params = ops.convert_to_tensor(params, name="params")
        if not isinstance(batch_dims, int):
            raise TypeError("Argument `batch_dims` must be an int; got %s" % (batch_dims,))
        if batch_dims < 0:
            raise ValueError("tf.gather_nd does not allow negative batch_dims.")
        params_ndims, indices_ndims = params.shape.ndims, indices.shape.ndims
        if indices_ndims is not None and batch_dims >= indices_ndims:
            raise ValueError("Argument `batch_dims` = %d must be less than rank(`indices`) = %d"
                             % (batch_dims, indices_ndims))
        if params_ndims is not None and batch_dims >= params_ndims:
            raise ValueError("Argument `batch_dims` = %d must be less than rank(`params`) = %d"
                             % (batch_dims, params_ndims))
        params_shape = shape(params)
        indices_shape = shape(indices)
        batch_shape = params_shape[:batch_dims]
        batch_size = reduce_prod(batch_shape, [0])
        index_internal_ndims = rank(indices) - batch_dims - 1
        indices_internal_shape = indices_shape[batch_dims:-1]
        dim_ranges = [cast(range(0, d, 1), indices.dtype) for d in unstack(batch_shape, num=batch_dims)]
        flat_list = [reshape(x, [-1]) for x in meshgrid(*dim_ranges, indexing="ij")]
        index_grid = transpose(stack(flat_list, axis=0))
        grid_shape = shape(index_grid)
        index_grid = reshape(index_grid, concat([grid_shape[:1], fill(expand_dims(index_internal_ndims, 0), 1),
                                                 grid_shape[1:]], 0))
        index_grid = tile(index_grid, concat([[1], indices_internal_shape, [1]], 0))
        flat_indices = reshape(indices, concat([expand_dims(batch_size, 0), indices_shape[batch_dims:]], 0))
        out = ops.apply_op("GatherNd", [params, concat([index_grid, flat_indices], -1)])
        out = reshape(out, concat([batch_shape, shape(out)[1:]], 0))
        # The static shape: batch dims (of both inputs) + indices' inner dims + params' trailing dims.
        pd, idd = params.shape, indices.shape
        if pd.ndims is not None and idd.ndims is not None and idd[-1].value is not None:
            k = idd[-1].value
            if batch_dims + k <= pd.ndims:
                out.set_shape(pd[:batch_dims].merge_with(idd[:batch_dims]).concatenate(idd[batch_dims:-1])
                              .concatenate(pd[batch_dims + k:]))
        return out


def _scatter_nd_infer(op):
    indices, updates, shp = op._inputs
    _check_dtype(indices, _INDEX_DTYPES, "indices", "ScatterNd")
    if shp._dtype is not indices._dtype:
        raise TypeError("Input 'shape' of 'ScatterNd' Op has type %s that does not match type %s of argument "
                        "'indices'." % (shp._dtype.name, indices._dtype.name))
    _with_rank(shp, 1)
    out = tensor_util._static_shape(shp).as_tuple()
    idd, ud = _dims(indices), _dims(updates)
    _with_rank_at_least(idd, 1)
    if out is not None and idd is not None and ud is not None and idd[-1] is not None:
        k = idd[-1]
        outer = len(idd) - 1
        if k > len(out):
            raise ValueError("Output must have rank at least indices.shape[-1] = %d, got %s" % (k, _fmt(out)))
        if not TensorShape(ud[:outer]).is_compatible_with(idd[:-1]) or len(ud) < outer:
            raise ValueError("The outer %d dimensions of indices.shape=%s must match the outer %d dimensions of "
                             "updates.shape=%s" % (outer, _fmt(idd), outer, _fmt(ud)))
        if not TensorShape(ud[outer:]).is_compatible_with(out[k:]):
            raise ValueError("The inner %d dimensions of output.shape=%s must match the inner %d dimensions of "
                             "updates.shape=%s" % (len(out) - k, _fmt(out), len(ud) - outer, _fmt(ud)))
    return [(updates._dtype, out)]


def _scatter_nd_kernel(xp, indices, updates, shape):
    out_shape = tuple(_int_list(shape))
    k = indices.shape[-1]
    if k > len(out_shape) or updates.shape != indices.shape[:-1] + out_shape[k:]:
        raise _invalid("Must have updates.shape = indices.shape[:-1] + shape[indices.shape[-1]:], got "
                       "updates.shape %s, indices.shape %s, shape: %s" % (_fmt(updates.shape), _fmt(indices.shape),
                                                                          _fmt(out_shape)))
    _check_nd_indices(indices, out_shape[:k], "shape %s" % _fmt(out_shape))
    out = xp.zeros(out_shape, dtype=updates.dtype)
    if k == 0:
        out += updates.reshape((-1,) + out_shape).sum(axis=0, dtype=updates.dtype)
    else:
        xp.add.at(out, tuple(xp.moveaxis(indices, -1, 0)), updates)
    return out


def _scatter_nd_grad(op, grad):
    """d/dupdates scatter_nd(indices, updates) = gather_nd(grad, indices)."""
    return [None, gather_nd(grad, op._inputs[0]), None]


register_op("ScatterNd", infer=_scatter_nd_infer, kernel=_scatter_nd_kernel, grad=_scatter_nd_grad)


def scatter_nd(indices, updates, shape, name=None):
    """Scatters `updates` into a new zero tensor of `shape` at `indices` (repeated indices add up).

    Args:
      indices: An int32/int64 `Tensor` of index tuples.
      updates: A `Tensor` of shape `indices.shape[:-1] + shape[indices.shape[-1]:]`.
      shape: A 1-D `Tensor` (same dtype as `indices`): the shape of the output.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the type of `updates` and the given shape.

    Raises:
      ValueError: If the static shapes don't fit together.
      InvalidArgumentError: At run time, for an index tuple out of range.
    """
    updates = ops.convert_to_tensor(updates, name="updates")
    indices, shp = _index_tensors([indices, shape], ["indices", "shape"])
    return ops.apply_op("ScatterNd", [indices, updates, shp], name=name)


# ---- OneHot ----------------------------------------------------------------------------------
def _one_hot_infer(op):
    indices, depth, on, off = op._inputs
    _check_dtype(indices, (dtypes.uint8, dtypes.int32, dtypes.int64), "indices", "OneHot")
    _check_dtype(depth, (dtypes.int32,), "depth", "OneHot")
    if on._dtype is not off._dtype:
        raise TypeError("Input 'off_value' of 'OneHot' Op has type %s that does not match type %s of argument "
                        "'on_value'." % (off._dtype.name, on._dtype.name))
    for t in (depth, on, off):
        _with_rank(t, 0)
    axis = op._attrs["axis"]
    dims = _dims(indices)
    if dims is None:
        return [(on._dtype, None)]
    r = len(dims)
    if not (axis == -1 or 0 <= axis <= r):
        raise ValueError("Expected axis to be -1 or between [0, %d).  But received: %d" % (r + 1, axis))
    dv = _value(depth)
    d = None if dv is None else int(dv)
    if d is not None and d < 0:
        raise ValueError("depth must be non-negative, got: %d" % d)
    a = r if axis == -1 else axis
    return [(on._dtype, dims[:a] + (d,) + dims[a:])]


def _one_hot_kernel(xp, indices, depth, on_value, off_value, axis):
    depth = int(depth)
    if depth < 0:
        raise _invalid("depth must be non-negative, got: %d" % depth)
    out = xp.where(indices[..., None] == xp.arange(depth), on_value, off_value).astype(on_value.dtype, copy=False)
    return out if axis == -1 else xp.moveaxis(out, -1, axis)


register_op("OneHot", infer=_one_hot_infer, kernel=_one_hot_kernel, grad=NO_GRADIENT, gpu=True, host_inputs=(1,))


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """Returns a one-hot tensor: `on_value` where `indices[...] == j`, `off_value` elsewhere.

    Args:
      indices: A `Tensor` of indices (uint8/int32/int64); out-of-range indices give all `off_value`.
      depth: A scalar defining the depth of the one hot dimension.
      on_value: A scalar defining the value to fill in output when `indices[j] = i` (default: 1).
      off_value: A scalar defining the value to fill in output when `indices[j] != i` (default: 0).
      axis: The axis to fill (default: -1, a new inner-most axis).
      dtype: The data type of the output tensor (default: that of on/off_value, else float32).
      name: A name for the operation (optional).

    Returns:
      The one-hot `Tensor`.

    Raises:
      TypeError: If dtype of either `on_value` or `off_value` don't match `dtype`, or each other.
    """
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    values = [v for v in (indices, depth, on_value, off_value) if ops.is_tensor(v)]
    with ops.name_scope(name, "one_hot", values) as scope:
        on_exists, off_exists = on_value is not None, off_value is not None
        if on_exists:
            on_value = ops.convert_to_tensor(on_value, name="on_value")
        if off_exists:
            off_value = ops.convert_to_tensor(off_value, name="off_value")
        on_dtype = on_value.dtype if on_exists else None
        off_dtype = off_value.dtype if off_exists else None
        if on_exists or off_exists:
            if dtype is not None:
                if on_exists and on_dtype is not dtype:
                    raise TypeError("dtype {0} of on_value does not match dtype parameter {1}".format(on_dtype, dtype))
                if off_exists and off_dtype is not dtype:
                    raise TypeError("dtype {0} of off_value does not match dtype parameter {1}".format(off_dtype,
                                                                                                     dtype))
            else:
                dtype = on_dtype if on_exists else off_dtype
        elif dtype is None:
            dtype = dtypes.float32
        if not on_exists:
            on_value = ops.convert_to_tensor(1, dtype, name="on_value")
            on_dtype = dtype
        if not off_exists:
            off_value = ops.convert_to_tensor(0, dtype, name="off_value")
            off_dtype = dtype
        if on_dtype is not off_dtype:
            raise TypeError("dtype {0} of on_value does not match dtype {1} of off_value".format(on_dtype, off_dtype))
        indices = ops.convert_to_tensor(indices, name="indices")
        depth = ops.convert_to_tensor(depth, name="depth", preferred_dtype=dtypes.int32)
        return ops.apply_op("OneHot", [indices, depth, on_value, off_value],
                            {"axis": -1 if axis is None else int(axis)}, name=scope)


# Names from modules of the family that also import names of this one (a cycle): bound here,
# after this module's own names exist, and only called at run time.
from .array_join_ops import concat, stack, tile, unstack  # noqa: E402
from .array_permute_ops import invert_permutation, transpose  # noqa: E402
from .array_shape_ops import expand_dims, fill, range, rank, reshape, size  # noqa: E402
