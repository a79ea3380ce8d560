"""Joining strings along dimensions: "ReduceJoin" (`tf.strings.reduce_join`) and
"UnsortedSegmentJoin" (`tf.strings.unsorted_segment_join`). Neither has a gradient."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from .math_helpers import _const_value
from .string_ops import _as_bytes, _string_array

__all__ = ["reduce_join", "unsorted_segment_join"]


# ---- ReduceJoin ----------------------------------------------------------------------------------
def _reduction_axes(axes, rank, error, check_duplicates=True):
    out = []
    for a in np.reshape(axes, -1):
        a = int(a)
        if not -rank <= a < rank:
            raise error("Invalid reduction dimension %d for input with %d dimensions." % (a, rank))
        if a % rank in out and check_duplicates:
            raise error("Duplicate reduction dimension %d" % a)
        out.append(a % rank)
    return out


def _reduce_join_infer(op):
    x, axes = op._inputs
    if x.dtype is not dtypes.string:
        raise TypeError("Input 'inputs' of 'ReduceJoin' Op has type %s that does not match expected type of string."
                        % x.dtype.name)
    if axes.dtype is not dtypes.int32:
        raise TypeError("Input 'reduction_indices' of 'ReduceJoin' Op has type %s that does not match expected type "
                        "of int32." % axes.dtype.name)
    dims = x.shape.as_tuple()
    keep = op._attrs["keep_dims"]
    value = _const_value(axes)
    if dims is None:
        return [(dtypes.string, None)]
    if value is None:
        return [(dtypes.string, (None,) * len(dims) if keep else None)]
    reduced = _reduction_axes(value, len(dims), ValueError, check_duplicates=False)
    if len(set(reduced)) != len(reduced):
        return [(dtypes.string, (None,) * len(dims) if keep else None)]
    if keep:
        return [(dtypes.string, tuple(1 if i in reduced else d for i, d in enumerate(dims)))]
    return [(dtypes.string, tuple(d for i, d in enumerate(dims) if i not in reduced))]


def _reduce_join_kernel(xp, x, axes, keep_dims=False, separator=""):
    a = np.asarray(x, dtype=object)
    reduced = _reduction_axes(axes, a.ndim, lambda m: errors.InvalidArgumentError(None, None, m))
    kept = [i for i in range(a.ndim) if i not in reduced]
    # The first listed axis varies fastest in the joined order (TF: reduce_join(a, [0, 1]) == "acbd").
    t = np.transpose(a, kept + list(reversed(reduced)))
    kept_shape = tuple(a.shape[i] for i in kept)
    rows = t.reshape(int(np.prod(kept_shape, dtype=np.int64)), -1) if t.size else np.empty(
        (int(np.prod(kept_shape, dtype=np.int64)), 0), dtype=object)
    sep = _as_bytes(separator)
    out = _string_array([sep.join(_as_bytes(v) for v in r) for r in rows], kept_shape)
    if keep_dims:
        out = out.reshape(tuple(1 if i in reduced else d for i, d in enumerate(a.shape)))
    return out


register_op("ReduceJoin", infer=_reduce_join_infer, kernel=_reduce_join_kernel, grad=NO_GRADIENT)


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None, reduction_indices=None,
                keepdims=None):
    """Joins the strings of `inputs` along `axis` (TF's `tf.strings.reduce_join` / `tf.reduce_join`,
    op "ReduceJoin").

    Over several axes the first one listed varies fastest: with `a = [["a", "b"], ["c", "d"]]`,
    `reduce_join(a, [0, 1])` is "acbd" and `reduce_join(a)` (all axes, last first) "abcd". An empty
    reduced dimension joins to "".

    Args:
      inputs: A string `Tensor`.
      axis: An int or list of ints (int32 `Tensor`): the axes to join; None: all, last first.
      keep_dims: Whether to keep the reduced axes with length 1 (TF 1.x's name of `keepdims`).
      separator: The string put between joined strings.
      name: A name for the operation (optional).
      reduction_indices: The old name of `axis`.
      keepdims: Alias of `keep_dims`.

    Returns:
      A string `Tensor`.

    Raises:
      ValueError: If an axis is out of range or repeated (statically known), or both an argument and
        its alias are given.
      InvalidArgumentError: The same at run time.
    """
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'.")
    keep = bool(keepdims if keepdims is not None else keep_dims)
    if reduction_indices is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'reduction_indices'.")
        axis = reduction_indices
    with ops.name_scope(None, "ReduceJoin", [inputs, axis]):
        x = inputs if isinstance(inputs, ops.Tensor) else ops.convert_to_tensor(inputs, dtype=dtypes.string)
        if axis is None:
            if x.shape.ndims is not None:
                axes = ops.convert_to_tensor(np.arange(x.shape.ndims - 1, -1, -1, dtype=np.int32))
            else:
                from . import array_ops, math_ops
                axes = math_ops.range(array_ops.rank(x) - 1, -1, -1)
        else:
            axes = axis if isinstance(axis, ops.Tensor) else ops.convert_to_tensor(axis, dtype=dtypes.int32,
                                                                                   name="reduction_indices")
        return ops.apply_op("ReduceJoin", [x, axes], {"keep_dims": keep, "separator": separator},
                            name=name or "ReduceJoin")


# ---- UnsortedSegmentJoin -------------------------------------------------------------------------
def _segment_join_infer(op):
    x, ids, num = op._inputs
    if x.dtype is not dtypes.string:
        raise TypeError("Input 'inputs' of 'UnsortedSegmentJoin' Op has type %s that does not match expected type "
                        "of string." % x.dtype.name)
    for t, arg in ((ids, "Tindices"), (num, "Tnumsegments")):
        if t.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: int32, "
                            "int64" % (arg, t.dtype.name))
    xd, idd = x.shape.as_tuple(), ids.shape.as_tuple()
    n = _const_value(num)
    if xd is None or idd is None:
        return [(dtypes.string, None)]
    if len(idd) > len(xd):
        raise ValueError("Shape must be at least rank %d but is rank %d" % (len(idd), len(xd)))
    for i, (a, b) in enumerate(zip(xd, idd)):
        if a is not None and b is not None and a != b:
            raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d" % (i, a, b))
    lead = None if n is None else int(np.asarray(n))
    return [(dtypes.string, (lead,) + tuple(xd[len(idd):]))]


def _segment_join_kernel(xp, x, ids, num, separator=""):
    a = np.asarray(x, dtype=object)
    ids = np.asarray(ids)
    n = int(np.asarray(num))
    if a.shape[:ids.ndim] != ids.shape:
        raise errors.InvalidArgumentError(None, None, "segment_ids.shape = %s does not match input shape %s"
                                          % (list(ids.shape), list(a.shape)))
    inner = a.shape[ids.ndim:]
    size = int(np.prod(inner, dtype=np.int64))
    rows = a.reshape(ids.size, size)
    parts = [[] for _ in range(n)]
    for k, s in enumerate(ids.reshape(-1)):
        s = int(s)
        if not 0 <= s < n:
            raise errors.InvalidArgumentError(None, None, "segment_ids are not allowed to exceed num_segments or to "
                                              "have negative values.")
        parts[s].append(rows[k])
    sep = _as_bytes(separator)
    out = []
    for p in parts:
        out.extend(sep.join(_as_bytes(r[j]) for r in p) for j in range(size))
    return _string_array(out, (n,) + inner)


register_op("UnsortedSegmentJoin", infer=_segment_join_infer, kernel=_segment_join_kernel, grad=NO_GRADIENT)


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """Joins the strings of `inputs` by segment (TF's `tf.strings.unsorted_segment_join`, op
    "UnsortedSegmentJoin"): output `[i]` joins, in order, every `inputs[j]` with `segment_ids[j] == i`
    (segments without strings are "").

    Args:
      inputs: A string `Tensor`.
      segment_ids: An int32/int64 `Tensor` whose shape is a prefix of `inputs`'s.
      num_segments: An int32/int64 scalar: the number of segments.
      separator: The string put between joined strings.
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of shape `[num_segments] + inputs.shape[segment_ids.ndim:]`.

    Raises:
      InvalidArgumentError: At run time, if an id is negative or >= `num_segments`, or the shapes do not
        match.
    """
    with ops.name_scope(name, "UnsortedSegmentJoin", [inputs, segment_ids, num_segments]) as scope:
        x = inputs if isinstance(inputs, ops.Tensor) else ops.convert_to_tensor(inputs, dtype=dtypes.string)
        ids = segment_ids if isinstance(segment_ids, ops.Tensor) else ops.convert_to_tensor(
            segment_ids, preferred_dtype=dtypes.int32, name="segment_ids")
        num = num_segments if isinstance(num_segments, ops.Tensor) else ops.convert_to_tensor(
            num_segments, preferred_dtype=dtypes.int32, name="num_segments")
        return ops.apply_op("UnsortedSegmentJoin", [x, ids, num], {"separator": separator}, name=scope)
