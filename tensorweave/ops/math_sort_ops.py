"""Math ops: sorting, ordering and set ops: `sort` / `argsort` (built from TopKV2 as TF builds them), Roll
(`roll`), LowerBound / UpperBound (`searchsorted`), UniqueWithCounts and ListDiff (`setdiff1d`)."""

import collections

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _dims, _fmt, _with_rank
from .array_join_ops import concat
from .array_permute_ops import transpose
from .array_select_ops import top_k
from .array_shape_ops import range as _range
from .array_shape_ops import rank as _rank
from .array_shape_ops import reshape
from .core_ops import shape as _shape
from .math_binary_ops import add, subtract
from .math_unary_ops import negative

_INDEX = (dtypes.int32, dtypes.int64)


def _check_index_dtype(t, param):
    if t._dtype not in _INDEX:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: int32, int64"
                        % (param, t._dtype.name))


# ---- sort / argsort ---------------------------------------------------------------------------
def _descending_sort(values, axis, return_argsort):
    """TF's `_descending_sort`: top_k over the last axis, the sorted axis moved there and back."""
    k = _shape(values)[axis]
    static_rank = values.shape.ndims
    if axis == -1 or axis + 1 == static_rank:
        top_k_input, transposition = values, None
    else:
        if static_rank is not None:
            if axis < 0:
                axis += static_rank
            transposition = ops.convert_to_tensor(
                np.r_[np.arange(axis), [static_rank - 1], np.arange(axis + 1, static_rank - 1), [axis]].astype(
                    np.int32), name="transposition")
        else:
            rank = _rank(values)
            axis_t = add(rank, axis) if axis < 0 else ops.convert_to_tensor(axis, dtypes.int32)
            last = subtract(rank, 1)
            transposition = concat([_range(axis_t), reshape(last, [1]), _range(add(axis_t, 1), last),
                                    reshape(axis_t, [1])], 0)
        top_k_input = transpose(values, transposition)
    values, indices = top_k(top_k_input, k)
    out = indices if return_argsort else values
    if transposition is not None:
        out = transpose(out, transposition)
    return out


def _ascending_sort(values, axis, return_argsort):
    """TF's `_ascending_sort`: the descending sort of an order-reversing map of the values
    (`max - x` for unsigned types, `-x - 1` for signed ones, so the minimum does not overflow)."""
    dtype = values.dtype
    if dtype.is_unsigned:
        offset = ops.convert_to_tensor(dtype.max, dtype=dtype)
        out = _descending_sort(subtract(offset, values), axis, return_argsort)
        return out if return_argsort else subtract(offset, out)
    if dtype.is_integer:
        one = ops.convert_to_tensor(1, dtype=dtype)
        out = _descending_sort(subtract(negative(values), one), axis, return_argsort)
        return out if return_argsort else subtract(negative(out), one)
    out = _descending_sort(negative(values), axis, return_argsort)
    return out if return_argsort else negative(out)


_SORT_IMPL = {"ASCENDING": _ascending_sort, "DESCENDING": _descending_sort}


def _sort_or_argsort(values, axis, direction, return_argsort):
    if direction not in _SORT_IMPL:
        raise ValueError("Argument `direction` should be one of %s. Received: direction=%s"
                         % (", ".join(sorted(_SORT_IMPL)), direction))
    axis = ops.convert_to_tensor(axis, name="axis")
    axis_static = tensor_util.constant_value(axis)
    if axis.shape.ndims not in (None, 0) or axis_static is None:
        raise ValueError("Argument `axis` must be a constant scalar. Received: axis=%s." % (axis,))
    values = ops.convert_to_tensor(values, name="values")
    return _SORT_IMPL[direction](values, int(axis_static), return_argsort)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """Sorts a tensor along one axis.

    Built from `TopKV2` as TF builds it; ties keep their order, NaN sorts as TF's top_k ranks it.

    Args:
      values: 1-D or higher numeric `Tensor`.
      axis: The axis along which to sort (a constant scalar). The default is -1, the last axis.
      direction: `'ASCENDING'` or `'DESCENDING'`.
      name: Optional name for the operation.

    Returns:
      A `Tensor` with the same dtype and shape as `values`, sorted along `axis`.

    Raises:
      ValueError: If `axis` is not a constant scalar, or `direction` is invalid.
    """
    with ops.name_scope(name, "sort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """Returns the indices of a tensor that give its sorted order along an axis.

    Equal values keep their order (the sort is stable whatever `stable` says, as in TF).

    Args:
      values: 1-D or higher numeric `Tensor`.
      axis: The axis along which to sort (a constant scalar). The default is -1, the last axis.
      direction: `'ASCENDING'` or `'DESCENDING'`.
      stable: Accepted for compatibility; the order is always stable.
      name: Optional name for the operation.

    Returns:
      An int32 `Tensor` with the same shape as `values`: the indices that sort each slice along `axis`.

    Raises:
      ValueError: If `axis` is not a constant scalar, or `direction` is invalid.
    """
    del stable
    with ops.name_scope(name, "argsort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=True)


# ---- Roll -------------------------------------------------------------------------------------
def _roll_infer(op):
    x, shift, axis = op._inputs
    _check_index_dtype(shift, "Tshift")
    _check_index_dtype(axis, "Taxis")
    dims = _dims(x)
    if dims is not None and len(dims) < 1:
        raise ValueError("Shape must be at least rank 1 but is rank %d" % len(dims))
    s, a = _dims(shift), _dims(axis)
    for d in (s, a):
        if d is not None and len(d) > 1:
            raise ValueError("Shape must be at most rank 1 but is rank %d" % len(d))
    if s is not None and a is not None and len(s) == 1 and len(a) == 1 and None not in (s[0], a[0]) and s[0] != a[0]:
        raise ValueError("Dimension 0 in both shapes must be equal, but are %d and %d. Shapes are %s and %s."
                         % (s[0], a[0], _fmt(s), _fmt(a)))
    return [(x._dtype, dims)]


def _roll_kernel(xp, x, shift, axis):
    if x.ndim < 1:
        raise _invalid("input must be 1-D or higher")
    if np.ndim(shift) > 1:
        raise _invalid("shift must be a scalar or a 1-D vector. Found: %s" % _fmt(np.shape(shift)))
    if np.ndim(axis) > 1:
        raise _invalid("axis must be a scalar or a 1-D vector. Found: %s" % _fmt(np.shape(axis)))
    shifts = [int(v) for v in np.reshape(np.asarray(shift), -1)]
    axes = [int(v) for v in np.reshape(np.asarray(axis), -1)]
    if len(shifts) != len(axes):
        raise _invalid("shift and axis must have the same size")
    total = [0] * x.ndim
    for s, a in zip(shifts, axes):
        if a < 0:
            a += x.ndim
        if not 0 <= a < x.ndim:
            raise _invalid("axis %d is out of range" % a)
        total[a] += s
    moved = [(s, a) for a, s in enumerate(total) if x.shape[a] and s % x.shape[a]]
    if not moved:
        return x.copy()
    return xp.roll(x, tuple(s for s, _ in moved), tuple(a for _, a in moved))


def _roll_grad(op, grad):
    """The gradient of a roll is the roll back: roll(grad, -shift, axis)."""
    shift, axis = op._inputs[1], op._inputs[2]
    return [roll(grad, negative(shift), axis), None, None]


register_op("Roll", infer=_roll_infer, kernel=_roll_kernel, grad=_roll_grad, gpu=True, host_inputs=(1, 2))


def roll(input, shift, axis, name=None):  # noqa: A002 (TF's name)
    """Rolls the elements of a tensor along an axis.

    Elements shifted past the last position reappear at the first. Several axes may be rolled at
    once; shifts of a repeated axis add up.

    Args:
      input: A `Tensor` of rank >= 1.
      shift: An int32 or int64 scalar or 1-D `Tensor`: the shift of each axis in `axis` (negative
        shifts roll the other way).
      axis: An int32 or int64 scalar or 1-D `Tensor` of the same size as `shift`: the axes to roll.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type and shape as `input`.

    Raises:
      ValueError: If the static shapes of `shift` and `axis` disagree, or `input` is a scalar.
      InvalidArgumentError: At run time, if an axis is out of range or the sizes disagree.
    """
    with ops.name_scope(name, "Roll", [input, shift, axis]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        shift = ops.convert_to_tensor(shift, name="shift", preferred_dtype=dtypes.int32)
        axis = ops.convert_to_tensor(axis, name="axis", preferred_dtype=dtypes.int32)
        return ops.apply_op("Roll", [x, shift, axis], name=scope)


# ---- LowerBound / UpperBound (searchsorted) ---------------------------------------------------
def _bound_infer(op):
    sorted_inputs, values = op._inputs
    if op._attrs["out_type"] not in _INDEX:
        raise TypeError("Value passed to parameter 'out_type' has DataType %s not in list of allowed values: int32, "
                        "int64" % op._attrs["out_type"].name)
    if sorted_inputs._dtype is not values._dtype:
        raise TypeError("Input 'values' of '%s' Op has type %s that does not match type %s of argument "
                        "'sorted_inputs'." % (op.type, values._dtype.name, sorted_inputs._dtype.name))
    _with_rank(sorted_inputs, 2)
    _with_rank(values, 2)
    return [(op._attrs["out_type"], _dims(values))]


def _bound_kernel(side):
    def kernel(xp, sorted_inputs, values, out_type):
        if sorted_inputs.ndim != 2:
            raise _invalid("Shape must be rank 2 but is rank %d for `sorted_inputs` argument" % sorted_inputs.ndim)
        if values.ndim != 2:
            raise _invalid("Shape must be rank 2 but is rank %d for `values` argument" % values.ndim)
        if sorted_inputs.shape[0] != values.shape[0]:
            raise _invalid("Leading dim_size of both tensors must match.")
        out = xp.empty(values.shape, dtype=out_type.as_numpy_dtype)
        for i in range(values.shape[0]):
            out[i] = xp.searchsorted(sorted_inputs[i], values[i], side=side)
        return out
    return kernel


register_op("LowerBound", infer=_bound_infer, kernel=_bound_kernel("left"), grad=NO_GRADIENT, gpu=True)
register_op("UpperBound", infer=_bound_infer, kernel=_bound_kernel("right"), grad=NO_GRADIENT, gpu=True)


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Searches for where values should go in a sorted sequence (along its innermost axis).

    As TF does, the leading dimensions are flattened into one: the op runs `LowerBound`
    (`side='left'`) or `UpperBound` (`side='right'`) on 2-D tensors, reshaped back to `values`' shape.

    Args:
      sorted_sequence: N-D `Tensor` sorted along its innermost axis.
      values: N-D `Tensor` of the same type, with the same leading N-1 dimensions.
      side: `'left'`: the index of the first element >= the value; `'right'`: of the first > it.
      out_type: The output type (`int32` or `int64`).
      name: Optional name for the operation.

    Returns:
      A `Tensor` of `out_type` with the shape of `values`.

    Raises:
      ValueError: If `side` is neither 'left' nor 'right'.
      InvalidArgumentError: At run time, if the leading dimensions differ.
    """
    sorted_sequence = ops.convert_to_tensor(sorted_sequence, name="sorted_sequence")
    values = ops.convert_to_tensor(values, name="values", preferred_dtype=sorted_sequence.dtype)
    if side not in ("left", "right"):
        raise ValueError("Argument `side` must be either 'right' or 'left'. Received: `side` = '%s'." % (side,))
    sequence_size = _shape(sorted_sequence)[-1]
    values_size = _shape(values)[-1]
    sorted_2d = reshape(sorted_sequence, [-1, sequence_size])
    values_2d = reshape(values, [-1, values_size])
    out = ops.apply_op("UpperBound" if side == "right" else "LowerBound", [sorted_2d, values_2d],
                       {"out_type": dtypes.as_dtype(out_type)}, name=name)
    return reshape(out, _shape(values))


# ---- UniqueWithCounts / ListDiff (unique_with_counts, setdiff1d) ------------------------------
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])
ListDiff = collections.namedtuple("ListDiff", ["out", "idx"])


def _check_out_idx(op):
    if op._attrs["out_idx"] not in _INDEX:
        raise TypeError("Value passed to parameter 'out_idx' has DataType %s not in list of allowed values: int32, "
                        "int64" % op._attrs["out_idx"].name)


def _unique_with_counts_infer(op):
    x = op._inputs[0]
    _check_out_idx(op)
    _with_rank(x, 1)
    out_idx = op._attrs["out_idx"]
    return [(x._dtype, (None,)), (out_idx, _dims(x) or (None,)), (out_idx, (None,))]


def _unique_with_counts_kernel(xp, x, out_idx):
    if x.ndim != 1:
        raise _invalid("unique expects a 1D vector.")
    values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first, kind="stable")  # TF: in order of first occurrence
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    dt = out_idx.as_numpy_dtype
    return values[order], position[inverse.reshape(-1)].astype(dt), counts[order].astype(dt)


register_op("UniqueWithCounts", infer=_unique_with_counts_infer, kernel=_unique_with_counts_kernel, grad=NO_GRADIENT)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """Finds the unique elements of a 1-D tensor (in order of first occurrence) and how often each occurs.

    Args:
      x: A 1-D `Tensor`.
      out_idx: `tf.int32` (default) or `tf.int64`: the type of `idx` and `count`.
      name: A name for the operation (optional).

    Returns:
      A tuple of `Tensor` objects (y, idx, count): the unique values, the index of each element of
      `x` in `y` (`x == gather(y, idx)`), and the number of occurrences of each value of `y`.

    Raises:
      ValueError: If `x` is statically not 1-D.
    """
    x = ops.convert_to_tensor(x, name="x")
    y, idx, count = ops.apply_op("UniqueWithCounts", [x], {"out_idx": dtypes.as_dtype(out_idx)}, name=name)
    return UniqueWithCounts(y, idx, count)


def _list_diff_infer(op):
    x, y = op._inputs
    _check_out_idx(op)
    if x._dtype is not y._dtype:
        raise TypeError("Input 'y' of 'ListDiff' Op has type %s that does not match type %s of argument 'x'."
                        % (y._dtype.name, x._dtype.name))
    _with_rank(x, 1)
    _with_rank(y, 1)
    return [(x._dtype, (None,)), (op._attrs["out_idx"], (None,))]


def _list_diff_kernel(xp, x, y, out_idx):
    if x.ndim != 1:
        raise _invalid("x should be a 1D vector.")
    if y.ndim != 1:
        raise _invalid("y should be a 1D vector.")
    keep = np.flatnonzero(~np.isin(x, y))
    return x[keep], keep.astype(out_idx.as_numpy_dtype)


register_op("ListDiff", infer=_list_diff_infer, kernel=_list_diff_kernel, grad=NO_GRADIENT)


def setdiff1d(x, y, index_dtype=dtypes.int32, name=None):
    """Computes the difference between two lists of numbers: the elements of `x` not in `y`.

    The result keeps the order of `x` (duplicates included); `idx` holds their positions in `x`.

    Args:
      x: A 1-D `Tensor`.
      y: A 1-D `Tensor` of the same type: the values to remove.
      index_dtype: `tf.int32` (default) or `tf.int64`: the type of `idx`.
      name: A name for the operation (optional).

    Returns:
      A tuple of `Tensor` objects (out, idx) with `out == gather(x, idx)`.

    Raises:
      ValueError: If `x` or `y` is statically not 1-D.
      TypeError: If their dtypes differ.
    """
    x = ops.convert_to_tensor(x, name="x")
    y = ops.convert_to_tensor(y, name="y", preferred_dtype=x.dtype)
    out, idx = ops.apply_op("ListDiff", [x, y], {"out_idx": dtypes.as_dtype(index_dtype)}, name=name)
    return ListDiff(out, idx)
