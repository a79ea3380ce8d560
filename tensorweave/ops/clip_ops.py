"""Clipping: `clip_by_value`, `clip_by_norm`, `global_norm` and `clip_by_global_norm`, built from
math ops as in TF 1.x (so their gradients come from those ops)."""

import collections.abc

from ..framework import ops
from ..framework.constant_op import constant
from ..framework.indexed_slices import IndexedSlices
from . import array_ops, core_ops, math_helpers, math_ops


def _values(t, name):
    return ops.convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name=name)


def _like(t, values):
    """`values` wrapped back into an IndexedSlices when `t` was one."""
    return IndexedSlices(values, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else values


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clips tensor values to a specified min and max: values below `clip_value_min` become
    `clip_value_min`, values above `clip_value_max` become `clip_value_max`. The gradient flows to
    `t` where `clip_value_min <= t <= clip_value_max`, and to the bounds elsewhere.

    Args:
      t: A `Tensor` or `IndexedSlices`.
      clip_value_min: A 0-D (scalar) `Tensor`, or a `Tensor` with the same shape as `t`.
      clip_value_max: A 0-D (scalar) `Tensor`, or a `Tensor` with the same shape as `t`.
      name: A name for the operation (optional).

    Returns:
      A clipped `Tensor` or `IndexedSlices`.

    Raises:
      ValueError: If the clip tensors would trigger array broadcasting that would make the returned
        tensor larger than the input.
    """
    with math_helpers._op_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as scope:
        values = _values(t, "t")
        t_min = math_ops.minimum(values, clip_value_max)
        values.shape.merge_with(t_min.shape)
        t_max = math_ops.maximum(t_min, clip_value_min, name=scope)
        values.shape.merge_with(t_max.shape)
    return _like(t, t_max)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Clips tensor values to a maximum L2-norm: `t * clip_norm / max(l2norm(t), clip_norm)`,
    the norm taken over `axes` (all dimensions by default).

    Args:
      t: A `Tensor` or `IndexedSlices`.
      clip_norm: A 0-D (scalar) `Tensor` > 0. A maximum clipping value.
      axes: A 1-D (vector) `Tensor` of type int32 containing the dimensions to use for computing
        the L2-norm. If `None` (the default), uses all dimensions.
      name: A name for the operation (optional).

    Returns:
      A clipped `Tensor` or `IndexedSlices`.

    Raises:
      ValueError: If the norm would broadcast the result beyond the shape of `t`.
    """
    with math_helpers._op_scope(name, "clip_by_norm", [t, clip_norm]) as scope:
        values = _values(t, "t")
        l2sum = math_ops.reduce_sum(values * values, axes, keepdims=True)
        pred = l2sum > 0
        # Two selects, so that the gradient is not NaN where l2sum is 0.
        l2sum_safe = array_ops.where(pred, l2sum, core_ops.ones_like(l2sum))
        l2norm = array_ops.where(pred, math_ops.sqrt(l2sum_safe), l2sum)
        intermediate = values * clip_norm
        values.shape.merge_with(intermediate.shape)
        clipped = core_ops.identity(intermediate / math_ops.maximum(l2norm, clip_norm), name=scope)
    return _like(t, clipped)


def _check_sequence(t_list):
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError("t_list should be a sequence")
    return list(t_list)


def global_norm(t_list, name=None):
    """Computes the global norm of multiple tensors: sqrt(sum(l2norm(t)**2 for t in t_list)).
    `None` entries are ignored; `IndexedSlices` count their values.

    Args:
      t_list: A tuple or list of mixed `Tensors`, `IndexedSlices`, or None.
      name: A name for the operation (optional).

    Returns:
      A 0-D (scalar) `Tensor` of the type of the inputs.

    Raises:
      TypeError: If `t_list` is not a sequence.
    """
    t_list = _check_sequence(t_list)
    with math_helpers._op_scope(name, "global_norm", [t for t in t_list if t is not None]) as scope:
        values = [_values(t, "t_%d" % i) for i, t in enumerate(t_list) if t is not None]
        if not values:
            return constant(0.0, name=scope)
        half_squared = [math_ops.reduce_sum(math_ops.square(v)) / 2 for v in values]
        total = core_ops.add_n(half_squared)
        return math_ops.sqrt(total * 2, name="global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Clips values of multiple tensors by the ratio of the sum of their norms:
    `t_list[i] * clip_norm / max(global_norm, clip_norm)`. If the global norm is infinite or NaN,
    all clipped values are NaN.

    Args:
      t_list: A tuple or list of mixed `Tensors`, `IndexedSlices`, or None.
      clip_norm: A 0-D (scalar) `Tensor` > 0. The clipping ratio.
      use_norm: A 0-D (scalar) `Tensor` of type `float` (optional). The global norm to use. If not
        provided, `global_norm()` is used to compute the norm.
      name: A name for the operation (optional).

    Returns:
      list_clipped: A list of `Tensors` of the same type as `list_t` (None entries stay None).
      global_norm: A 0-D (scalar) `Tensor` representing the global norm.

    Raises:
      TypeError: If `t_list` is not a sequence.
    """
    t_list = _check_sequence(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    present = [t for t in t_list if t is not None]
    with math_helpers._op_scope(name, "clip_by_global_norm", present + [clip_norm]) as scope:
        one = constant(1.0, dtype=use_norm.dtype)
        scale_for_finite = clip_norm * math_ops.minimum(one / use_norm, one / clip_norm)
        # use_norm - use_norm is 0 for a finite norm and NaN otherwise.
        scale = scale_for_finite + (use_norm - use_norm)
        clipped = []
        for i, t in enumerate(t_list):
            if t is None:
                clipped.append(None)
                continue
            v = _values(t, "t_%d" % i)
            clipped.append(_like(t, core_ops.identity(v * scale, name="%s_%d" % (scope.rstrip("/"), i))))
    return clipped, use_norm
