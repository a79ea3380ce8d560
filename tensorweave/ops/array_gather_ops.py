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
    params, indices, axis_t = op._inputs
    _check_dtype(indices, _INDEX_DTYPES, "indices", "GatherV2")
    _check_dtype(axis_t, _INDEX_DTYPES, "axis", "GatherV2")
    _with_rank(axis_t, 0)
    pd, idd = _dims(params), _dims(indices)
    av = _value(axis_t)
    if pd is None or idd is None:
        return [(params._dtype, None)]
    if av is None:
        return [(params._dtype, (None,) * (len(pd) + len(idd) - 1))]
    a = int(av)
    if not -len(pd) <= a < len(pd):
        raise ValueError("Shape must be at least rank %d but is rank %d" % (a + 1 if a >= 0 else -a, len(pd)))
    a %= len(pd)
    return [(params._dtype, pd[:a] + idd + pd[a + 1:])]


def _check_indices(indices, limit):
    bad = (indices < 0) | (indices >= limit)
    if bad.any():
        pos = np.unravel_index(int(np.argmax(bad.reshape(-1))), indices.shape)
        raise _invalid("indices[%s] = %d is not in [0, %d)" % (",".join(str(int(p)) for p in pos),
                                                               int(indices[pos]), limit))


def _gather_kernel(xp, params, indices, axis, batch_dims):
    a = int(axis)
    if not -params.ndim <= a < params.ndim:
        raise _invalid("Expected axis in the range [%d, %d), but got %d" % (-params.ndim, params.ndim, a))
    a %= params.ndim
    _check_indices(indices, params.shape[a])
    return xp.take(params, indices, axis=a)


def _gather_grad(op, grad):
    """d/dparams gather(params, i) = grad's slices summed at rows i (an IndexedSlices for axis 0)."""
    params, indices, axis_t = op._inputs
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


register_op("GatherV2", infer=_gather_infer, kernel=_gather_kernel, grad=_gather_grad, gpu=True, host_inputs=(2,))


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """Gathers slices from `params` axis `axis` according to `indices`.

    Args:
      params: The `Tensor` from which to gather values (rank at least `axis + 1`).
      indices: An int32/int64 `Tensor` of indices in `[0, params.shape[axis])`.
      validate_indices: Deprecated, does nothing (indices are always validated).
      name: A name for the operation (optional).
      axis: The axis in `params` to gather `indices` from (default 0).
      batch_dims: Must be 0.

    Returns:
      A `Tensor` of shape `params.shape[:axis] + indices.shape + params.shape[axis + 1:]`.

    Raises:
      ValueError: If `axis` is out of range, or `batch_dims` is not 0.
      InvalidArgumentError: At run time, for an index out of range.
    """
    del validate_indices
    if batch_dims != 0:
        raise ValueError("gather with batch_dims=%r is not supported" % (batch_dims,))
    params = ops.convert_to_tensor(params, name="params")
    indices = _index_tensor(indices, name="indices")
    axis = _index_tensor(0 if axis is None else axis, name="axis")
    return ops.apply_op("GatherV2", [params, indices, axis], {"batch_dims": 0}, name=name)


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

    Args:
      params: A `Tensor`.
      indices: An int32/int64 `Tensor`.
      name: A name for the operation (optional).
      batch_dims: Must be 0.

    Returns:
      A `Tensor` of shape `indices.shape[:-1] + params.shape[indices.shape[-1]:]`.

    Raises:
      InvalidArgumentError: At run time, for an index tuple out of range.
    """
    if batch_dims != 0:
        raise ValueError("gather_nd with batch_dims=%r is not supported" % (batch_dims,))
    params = ops.convert_to_tensor(params, name="params")
    return ops.apply_op("GatherNd", [params, _index_tensor(indices, name="indices")], name=name)


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
from .array_join_ops import concat  # noqa: E402
from .array_permute_ops import invert_permutation, transpose  # noqa: E402
from .array_shape_ops import expand_dims, range, rank, reshape, size  # noqa: E402
