"""The functions of `tf.ragged`: `constant`, `constant_value`, `range`, `stack`, `boolean_mask`,
`map_flat_values`, `row_splits_to_segment_ids`, `segment_ids_to_row_splits`. They compose existing
ops (and "RaggedRange") around `RaggedTensor`; nothing here registers a new op type."""

import builtins

import numpy as np

from ..framework import dtypes, ops
from ..framework.constant_op import constant as _constant
from . import ragged_conversion_ops
from .ragged_tensor import (
    RaggedTensor,
    RaggedTensorValue,
    _check,
    _convert_values,
    _is_eager,
    _ops,
    _splits_dtype,
    is_ragged,
    row_splits_to_segment_ids,
    segment_ids_to_row_splits,
)

__all__ = ["boolean_mask", "constant", "constant_value", "map_flat_values", "placeholder", "range",
           "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack", "stack_dynamic_partitions"]


# ---- constant / constant_value -------------------------------------------------------------------
def _is_list(x):
    return isinstance(x, (list, tuple)) or (not isinstance(x, (str, bytes)) and np.ndim(x) != 0)


def _scalar_and_max_depth(pylist):
    if _is_list(pylist):
        scalar_depth, max_depth = None, 1
        for child in pylist:
            d, m = _scalar_and_max_depth(child)
            if d is not None:
                if scalar_depth is not None and scalar_depth != d + 1:
                    raise ValueError("all scalar values must have the same nesting depth")
                scalar_depth = d + 1
            max_depth = max(max_depth, m + 1)
        return scalar_depth, max_depth
    return 0, 0


def _default_inner_shape(pylist, ragged_rank):
    def inner(item):
        if not _is_list(item):
            return ()
        if len(item) > 0:
            return (len(item),) + inner(item[0])
        return (0,)

    def check(item, shape):
        nested = _is_list(item)
        if nested != bool(shape):
            raise ValueError("inner values have inconsistent shape")
        if nested:
            if shape[0] != len(item):
                raise ValueError("inner values have inconsistent shape")
            for child in item:
                check(child, shape[1:])

    flat = pylist
    for dim in builtins.range(ragged_rank):
        if not all(_is_list(v) for v in flat):
            raise ValueError("pylist has scalar values depth %d, but ragged_rank=%d requires scalar value depth "
                             "greater than %d" % (dim + 1, ragged_rank, ragged_rank))
        flat = sum((list(v) for v in flat), [])
    shape = inner(flat)
    check(flat, shape)
    return shape[1:]


def _constant_value(ragged_factory, inner_factory, pylist, dtype, ragged_rank, inner_shape):
    if is_ragged(pylist):
        raise TypeError("pylist may not be a RaggedTensor or RaggedTensorValue.")
    if not _is_list(pylist):
        if ragged_rank is not None and ragged_rank != 0:
            raise ValueError("Invalid pylist=%r: incompatible with ragged_rank=%d" % (pylist, ragged_rank))
        if inner_shape is not None and inner_shape:
            raise ValueError("Invalid pylist=%r: incompatible with dim(inner_shape)=%d" % (pylist, len(inner_shape)))
        return inner_factory(pylist, dtype, ())
    if ragged_rank is not None and ragged_rank < 0:
        raise ValueError("Invalid ragged_rank=%r: must be nonnegative" % ragged_rank)
    scalar_depth, max_depth = _scalar_and_max_depth(pylist)
    if scalar_depth is not None:
        if max_depth > scalar_depth:
            raise ValueError("Invalid pylist=%r: empty list nesting is greater than scalar value nesting" % (pylist,))
        if ragged_rank is not None and max_depth < ragged_rank:
            raise ValueError("Invalid pylist=%r, max depth smaller than ragged_rank=%d" % (pylist, ragged_rank))
    if inner_shape is not None and ragged_rank is not None:
        expected = ragged_rank + len(inner_shape) + 1
        if (scalar_depth is not None and expected != scalar_depth) or (scalar_depth is None and expected < max_depth):
            raise ValueError("Invalid pylist=%r: incompatible with ragged_rank=%d and dim(inner_shape)=%d"
                             % (pylist, ragged_rank, len(inner_shape)))
    if ragged_rank == 0 or (ragged_rank is None and (max_depth < 2 or (
            inner_shape is not None and max_depth - len(inner_shape) < 2))):
        return inner_factory(pylist, dtype, inner_shape)
    if inner_shape is None:
        inner_shape = () if ragged_rank is None else _default_inner_shape(pylist, ragged_rank)
    inner_shape = tuple(inner_shape)
    if ragged_rank is None:
        ragged_rank = max(1, (max_depth if scalar_depth is None else scalar_depth) - 1 - (
            0 if scalar_depth is None else len(inner_shape)))
    nested_splits, values = [], pylist
    for dim in builtins.range(ragged_rank):
        splits, flat = [0], []
        for row in values:
            splits.append(splits[-1] + len(row))
            flat.extend(row)
        nested_splits.append(splits)
        values = flat
    values = inner_factory(values, dtype, (len(values),) + inner_shape)
    for splits in reversed(nested_splits):
        values = ragged_factory(values, splits)
    return values


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=dtypes.int64):
    """A constant `RaggedTensor` from a nested Python list (TF's `tf.ragged.constant`).

    Example: `tf.ragged.constant([[1, 2], [3], []])` has ragged_rank 1 and row splits `[0, 2, 3, 3]`.

    Args:
      pylist: A nested list or tuple of scalars (all at one depth) or a scalar.
      dtype: The values' dtype (default: inferred as `tf.constant` does).
      ragged_rank: The number of ragged dimensions (default: depth - 1 - len(inner_shape)).
      inner_shape: The shape of the innermost uniform values (default: ()).
      name: A name for the operation (optional).
      row_splits_dtype: int64 (default) or int32.

    Returns:
      A `RaggedTensor` (a `Tensor` when the result has no ragged dimension).

    Raises:
      ValueError: If the scalars are at different depths or the arguments do not fit `pylist`.
    """
    sdt = _splits_dtype(row_splits_dtype)

    def ragged_factory(values, splits):
        return RaggedTensor.from_row_splits(values, _constant(np.array(splits, sdt.as_numpy_dtype), dtype=sdt),
                                            validate=False)

    def inner_factory(values, dtype, shape):
        if isinstance(values, (list, tuple)) and not values and dtype is None:
            dtype = dtypes.float32
        return _constant(values, dtype=dtype, shape=shape)

    with ops.name_scope(name, "RaggedConstant"):
        return _constant_value(ragged_factory, inner_factory, pylist, dtype, ragged_rank, inner_shape)


def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None, row_splits_dtype="int64"):
    """A `RaggedTensorValue` (NumPy arrays) from a nested Python list (TF's `tf.ragged.constant_value`);
    the arguments are those of `tf.ragged.constant`. Values take NumPy's dtype inference.

    Returns:
      A `RaggedTensorValue`, or a NumPy array when the result has no ragged dimension.

    Raises:
      ValueError: If the scalars are at different depths or the arguments do not fit `pylist`.
    """
    if dtype is not None and isinstance(dtype, dtypes.DType):
        dtype = dtype.as_numpy_dtype
    sdt = np.dtype(dtypes.as_dtype(row_splits_dtype).as_numpy_dtype)
    if sdt not in (np.int32, np.int64):
        raise ValueError("row_splits_dtype must be int32 or int64")

    def ragged_factory(values, splits):
        return RaggedTensorValue(values, np.array(splits, dtype=sdt))

    def inner_factory(values, dtype, shape):
        return np.reshape(np.array(values, dtype=dtype), shape)

    return _constant_value(ragged_factory, inner_factory, pylist, dtype, ragged_rank, inner_shape)


# ---- range ---------------------------------------------------------------------------------------
def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):  # noqa: A001
    """Ragged ranges: row `i` is `range(starts[i], limits[i], deltas[i])` (TF's `tf.ragged.range`,
    op "RaggedRange"); scalar arguments broadcast to the others' length.

    Args:
      starts: Scalar or vector: the first values (or the limits when `limits` is None, starting at 0).
      limits: Scalar or vector: the exclusive limits.
      deltas: Scalar or vector: the steps (nonzero).
      dtype: The values' dtype (default: inferred, int32 for Python ints).
      name: A name for the operation (optional).
      row_splits_dtype: int64 (default) or int32.

    Returns:
      A `RaggedTensor` of ragged_rank 1.

    Raises:
      InvalidArgumentError: At run time, for a zero delta or vectors of different lengths.
    """
    sdt = _splits_dtype(row_splits_dtype)
    if limits is None:
        starts, limits = 0, starts
    with ops.name_scope(name, "RaggedRange", [starts, limits, deltas]):
        if dtype is None:
            probe = [v for v in (starts, limits, deltas) if isinstance(v, ops.Tensor)]
            if probe:
                dtype = probe[0].dtype
            else:
                kinds = [np.asarray(v).dtype.kind for v in (starts, limits, deltas)]
                dtype = dtypes.float32 if "f" in kinds else dtypes.int32
        args = [v if isinstance(v, ops.Tensor) else ops.convert_to_tensor(v, dtype=dtype, name=n)
                for v, n in ((starts, "starts"), (limits, "limits"), (deltas, "deltas"))]
        splits, values = ragged_conversion_ops.ragged_range(*args, row_splits_dtype=sdt)
        return RaggedTensor.from_row_splits(values, splits, validate=False)


# ---- placeholder ---------------------------------------------------------------------------------
def placeholder(dtype, ragged_rank, value_shape=None, name=None):
    """A `RaggedTensor` of placeholders, fed a `RaggedTensorValue` (TF's `tf.ragged.placeholder`):
    `sess.run(..., {rt: tf.ragged.constant_value([[1, 2], [3]])})`.

    Args:
      dtype: The values' dtype.
      ragged_rank: The number of ragged dimensions (>= 1).
      value_shape: The shape of each value (default scalar values).
      name: A name for the operation (optional).

    Returns:
      A `RaggedTensor` whose flat values (shape `[None] + value_shape`) and int64 row splits are
      placeholders.

    Raises:
      ValueError: If `ragged_rank` < 1.
    """
    from .core_ops import placeholder as _placeholder
    if ragged_rank < 1:
        raise ValueError("ragged_rank must be at least 1, got %r" % (ragged_rank,))
    if value_shape is None:
        value_shape = []
    value_shape = list(value_shape.as_list() if hasattr(value_shape, "as_list") else value_shape)
    with ops.name_scope(name, "RaggedPlaceholder", []):
        result = _placeholder(dtype, [None] + value_shape, name="flat_values")
        for i in reversed(builtins.range(ragged_rank)):
            splits = _placeholder(dtypes.int64, [None], name="row_splits_%d" % i)
            result = RaggedTensor(result, splits, internal=True)
        return result


# ---- stack ---------------------------------------------------------------------------------------
def _concat_rows(parts):
    """Concatenates ragged tensors of one ragged rank along axis 0 (graph ops)."""
    array_ops, _ = _ops()
    if not isinstance(parts[0], RaggedTensor):
        return array_ops.concat(parts, axis=0)
    splits, offset = [parts[0].row_splits], parts[0].row_splits[-1]
    for p in parts[1:]:
        splits.append(p.row_splits[1:] + offset)
        offset = offset + p.row_splits[-1]
    values = _concat_rows([p.values for p in parts])
    return RaggedTensor(values, array_ops.concat(splits, axis=0), internal=True)


def stack(values, axis=0, name=None):
    """Stacks tensors and ragged tensors of one rank and dtype (any sizes) into a `RaggedTensor`
    (TF's `tf.ragged.stack`): input `i` becomes row `i` of the result.

    Args:
      values: A non-empty list of `Tensor`s (rank >= 1) and `RaggedTensor`s.
      axis: The axis to stack along; only 0.
      name: A name for the operation (optional).

    Returns:
      A `RaggedTensor` of rank `R + 1`.

    Raises:
      ValueError: If `values` is empty or the ranks/dtypes differ.
      NotImplementedError: For an `axis` other than 0, or ragged inputs of different ragged ranks.
    """
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError("rt_inputs may not be empty.")
    if axis != 0:
        raise NotImplementedError("tf.ragged.stack: axis=%r (only axis=0 is supported)" % (axis,))
    array_ops, math_ops = _ops()
    with ops.name_scope(name, "RaggedConcat", values):
        parts = [_convert_values(v) for v in values]
        if len({p.dtype for p in parts}) != 1:
            raise ValueError("Input tensors have incompatible dtypes: %s" % [p.dtype.name for p in parts])
        ranks = {p.shape.ndims for p in parts}
        if len(ranks - {None}) > 1:
            raise ValueError("Input tensors must have the same rank")
        ragged = [p for p in parts if isinstance(p, RaggedTensor)]
        rr = max([p.ragged_rank for p in ragged], default=0)
        # TF 2.21: dense vectors stack with int32 splits; otherwise the splits are int64 (or the inputs').
        sdt = ragged[0].row_splits_dtype if ragged else (dtypes.int32 if ranks == {1} else dtypes.int64)
        rows = []
        for p in parts:
            if isinstance(p, RaggedTensor):
                if p.ragged_rank != rr:
                    raise NotImplementedError("tf.ragged.stack of RaggedTensors of different ragged ranks")
                rows.append(p)
            elif p.shape.ndims == 1 or rr == 0:
                rows.append(p)
            else:
                rows.append(RaggedTensor.from_tensor(p, ragged_rank=rr, row_splits_dtype=sdt))
        nrows = [p.nrows(out_type=sdt) if isinstance(p, RaggedTensor) else array_ops.shape(p, out_type=sdt)[0]
                 for p in rows]
        outer = array_ops.concat([array_ops.zeros([1], sdt), math_ops.cumsum(array_ops.stack(nrows))], axis=0)
        return RaggedTensor.from_row_splits(_concat_rows(rows), outer, validate=False)


# ---- boolean_mask --------------------------------------------------------------------------------
def boolean_mask(data, mask, name=None):
    """The elements of `data` where `mask` is True, keeping the dimensions of `mask` (TF's
    `tf.ragged.boolean_mask`): for a mask of rank `k` the result has ragged_rank `k - 1`.

    Example: `boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, False, True]])` is
    `[[1, 3], [6]]`.

    Args:
      data: A `Tensor` or `RaggedTensor`.
      mask: A bool `Tensor` whose shape is a prefix of `data`'s, or a `RaggedTensor` with `data`'s
        row partition.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` (mask of rank 1 on a `Tensor`) or `RaggedTensor`.

    Raises:
      ValueError: If `mask` is not bool or has an unknown rank.
    """
    array_ops, math_ops = _ops()
    with ops.name_scope(name, "RaggedMask", [data, mask]):
        data = _convert_values(data)
        mask = _convert_values(mask)
        if mask.dtype is not dtypes.bool_:
            raise ValueError("mask must have dtype bool.")
        if isinstance(mask, RaggedTensor):
            if not isinstance(data, RaggedTensor) or mask.ragged_rank != data.ragged_rank:
                raise ValueError("mask and data must have the same ragged rank")
            if isinstance(mask.values, RaggedTensor):
                raise NotImplementedError("tf.ragged.boolean_mask with a mask of ragged_rank > 1")
            inner = boolean_mask(data.values, mask.values)
            from .segment_ops import unsorted_segment_sum
            counts = unsorted_segment_sum(math_ops.cast(mask.values, data.row_splits_dtype),
                                                   mask.value_rowids(), mask.nrows())
            return RaggedTensor.from_row_lengths(inner, counts, validate=False)
        k = mask.shape.ndims
        if k is None:
            raise ValueError("mask.shape.ndims must be known statically.")
        if isinstance(data, RaggedTensor):
            if k != 1:
                raise NotImplementedError("tf.ragged.boolean_mask of a RaggedTensor with a dense mask of rank %d" % k)
            keep = array_ops.reshape(array_ops.where(mask), [-1])
            return _gather_rows(data, keep)
        if k == 1:
            return array_ops.boolean_mask(data, mask)
        flat = array_ops.boolean_mask(data, mask)
        sdt = dtypes.int64
        shape = array_ops.shape(mask, out_type=sdt)
        lengths = math_ops.reduce_sum(math_ops.cast(array_ops.reshape(mask, array_ops.concat([[-1], shape[-1:]], 0)),
                                                    sdt), axis=1)
        result = RaggedTensor.from_row_lengths(flat, lengths, validate=False)
        for d in reversed(list(np.arange(k - 2))):
            n = shape[int(d) + 1]
            total = math_ops.reduce_prod(shape[:int(d) + 2])
            result = RaggedTensor.from_row_splits(result, math_ops.range(0, total + 1, n), validate=False)
        return result


# ---- stack_dynamic_partitions --------------------------------------------------------------------
def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Groups the rows of `data` by partition (TF's `tf.ragged.stack_dynamic_partitions`): row `i`
    of the result holds, in their original order, the `data[j]` with `partitions[j] == i`.

    Args:
      data: A `Tensor` or `RaggedTensor`.
      partitions: An int32/int64 scalar or vector (one partition per row of `data`) in
        `[0, num_partitions)`.
      num_partitions: An int scalar: the number of rows of the result.
      name: A name for the operation (optional).

    Returns:
      A `RaggedTensor` with `num_partitions` rows.

    Raises:
      ValueError: If the rank of `partitions` is unknown.
      NotImplementedError: For `partitions` of rank > 1.
      InvalidArgumentError: At run time, for a partition out of range.
    """
    from . import check_ops
    from .math_sort_ops import argsort
    array_ops, math_ops = _ops()
    with ops.name_scope(name, "SegmentStack", [data, partitions, num_partitions]):
        data = _convert_values(data, "data")
        sdt = data.row_splits_dtype if isinstance(data, RaggedTensor) else None
        partitions = partitions if isinstance(partitions, ops.Tensor) else ops.convert_to_tensor(
            partitions, name="partitions", preferred_dtype=sdt)
        if sdt is not None:
            partitions = math_ops.cast(partitions, sdt)
        num = math_ops.cast(ops.convert_to_tensor(num_partitions, name="num_partitions",
                                                  preferred_dtype=partitions.dtype), partitions.dtype)
        rank = partitions.shape.ndims
        if rank is None:
            raise ValueError("partitions must have known rank.")
        if rank == 0:
            return RaggedTensor.from_value_rowids(array_ops.stack([data]), array_ops.stack([partitions]), nrows=num,
                                                  validate=False)
        if rank > 1:
            raise NotImplementedError("tf.ragged.stack_dynamic_partitions with partitions of rank %d" % rank)
        permutation = argsort(partitions, stable=True)
        rowids = array_ops.gather(partitions, permutation)
        values = _gather_rows(data, permutation)
        if _is_eager(rowids, partitions, num):
            p = np.asarray(partitions.numpy())
            _check(p < int(num.numpy()), "partitions must be less than num_partitions")
            _check(p >= 0, "partitions must be non-negative.")
            return RaggedTensor.from_value_rowids(values, rowids, nrows=num, validate=False)
        checks = [check_ops.assert_less(rowids[-1:], num, message="partitions must be less than num_partitions"),
                  check_ops.assert_non_negative(partitions, message="partitions must be non-negative.")]
        with ops.control_dependencies(checks):
            return RaggedTensor.from_value_rowids(values, rowids, nrows=num, validate=False)


def _gather_rows(data, indices):
    """Rows `indices` of a `Tensor` or `RaggedTensor` (graph ops)."""
    array_ops, math_ops = _ops()
    if not isinstance(data, RaggedTensor):
        return array_ops.gather(data, indices)
    indices = math_ops.cast(indices, data.row_splits_dtype)
    starts = array_ops.gather(data.row_splits[:-1], indices)
    limits = array_ops.gather(data.row_splits[1:], indices)
    lengths = limits - starts
    # The value positions of the chosen rows, in order: ragged.range(starts, limits).
    positions = range(starts, limits, 1, dtype=data.row_splits_dtype).flat_values
    inner = _gather_rows(data.values, positions)
    return RaggedTensor.from_row_lengths(inner, lengths, validate=False)


# ---- map_flat_values -----------------------------------------------------------------------------
def map_flat_values(op, *args, **kwargs):
    """Applies `op` to the flat values of the `RaggedTensor` arguments and returns a `RaggedTensor`
    with their row partition (TF's `tf.ragged.map_flat_values`): e.g.
    `map_flat_values(tf.ones_like, rt)` or `map_flat_values(tf.multiply, rt, rt)`.

    Args:
      op: A function of tensors returning a `Tensor` with as many rows as the flat values.
      *args: Arguments for `op`; `RaggedTensor`s (also inside lists, tuples, dicts) are replaced by
        their flat values.
      **kwargs: Keyword arguments for `op`, treated the same way.

    Returns:
      A `RaggedTensor` (or `op`'s plain result when no argument is ragged).

    Raises:
      ValueError: If the ragged arguments have different ragged ranks.
    """
    found = []

    def replace(x):
        if isinstance(x, RaggedTensor):
            found.append(x)
            return x.flat_values
        if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
            return type(x)(replace(v) for v in x)
        if isinstance(x, dict):
            return {k: replace(v) for k, v in x.items()}
        return x

    new_args = replace(list(args))
    new_kwargs = replace(kwargs)
    if not found:
        return op(*new_args, **new_kwargs)
    if len({r.ragged_rank for r in found}) != 1:
        raise ValueError("Input RaggedTensors have mismatched ragged ranks")
    out = op(*new_args, **new_kwargs)
    return found[0].with_flat_values(out)
