"""Segment reductions: SegmentSum/Mean/Prod/Min/Max (sorted ids), UnsortedSegmentSum/Prod/Min/Max
(with the `unsorted_segment_mean`/`unsorted_segment_sqrt_n` compositions TF builds from them)."""

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.registry import NO_GRADIENT, register_op
from .array_gather_ops import gather
from .array_helpers import _INDEX_DTYPES, _check_dtype, _dims, _fmt, _invalid, _with_rank
from .array_join_ops import concat
from .array_select_ops import where, where_v2
from .array_shape_ops import ones, reshape
from .core_ops import ones_like, shape, zeros_like
from .math_binary_ops import divide, equal, greater, greater_equal, logical_and, maximum, multiply, truediv
from .math_unary_ops import cast, sqrt

_REAL = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
         dtypes.uint8, dtypes.uint16)
_NUMERIC = _REAL + (dtypes.complex64, dtypes.complex128)


def _reducer(kind):
    """(NumPy ufunc, identity of an empty unsorted segment) for one reduction kind and dtype."""
    def init(dt):
        if kind == "sum":
            return 0
        if kind == "prod":
            return 1
        info = np.finfo(dt) if dt.kind == "f" else np.iinfo(dt)
        return info.max if kind == "min" else info.min
    ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum}[kind]
    return ufunc, init


def _mean(total, count, dt):
    """Sums divided by counts in `dt` (integers: C++ division, rounding toward zero)."""
    count = count.reshape(count.shape + (1,) * (total.ndim - 1))
    if dt.kind in "iu":
        q = total // count
        return (q + ((total - q * count != 0) & (total < 0))).astype(dt)
    return (total / count.astype(dt)).astype(dt)


# ---- sorted segment reductions -------------------------------------------------------------------
def _segment_infer(op_type, allowed):
    def infer(op):
        data, ids = op._inputs
        _check_dtype(data, allowed, "data", op_type)
        _check_dtype(ids, _INDEX_DTYPES, "segment_ids", op_type)
        _with_rank(ids, 1)
        dd = _dims(data)
        if dd is not None and len(dd) < 1:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        return [(data._dtype, None if dd is None else (None,) + dd[1:])]
    return infer


def _check_sorted(ids, n):
    """TF's checks of sorted segment ids, in its kernel's order (run by run)."""
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    u = ids[starts]
    bad_order = np.r_[u[1:] < u[:-1], False]
    bad_range = (u < 0) | (u >= n)
    bad = bad_order | bad_range
    if bad.any():
        k = int(np.argmax(bad))
        if bad_order[k]:
            raise _invalid("segment ids are not increasing")
        raise _invalid("Segment id %d out of range [0, %d), possibly because 'segment_ids' input is not sorted."
                       % (u[k], n))
    return starts, u


def _float_min_max_runs(kind, data, starts, n):
    """TF's float min/max of each run: its kernels fold `acc = acc if acc < x else x` (min; `>` for max)
    in row order, so a NaN is taken, the next value replaces it, and of equal values (-0.0 and 0.0)
    the later one wins. The result: the min/max of the rows after the run's last NaN (NaN if the run
    ends with one), with the sign of a zero result from the last of those zeros."""
    isnan = np.isnan(data)
    count = np.cumsum(isnan, axis=0)
    ends = np.r_[starts[1:], n] - 1
    run = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, n]))
    valid = (count == count[ends][run]) & ~isnan
    fill = np.inf if kind == "min" else -np.inf
    ufunc = np.minimum if kind == "min" else np.maximum
    out = ufunc.reduceat(np.where(valid, data, fill), starts, axis=0).astype(data.dtype)
    out = np.where(np.logical_or.reduceat(valid, starts, axis=0), out, np.nan).astype(data.dtype)
    zero = valid & (data == 0)
    if zero.any():
        rows = np.arange(n).reshape((n,) + (1,) * (data.ndim - 1))
        last = np.maximum.reduceat(np.where(zero, rows, -1), starts, axis=0)
        flat_last = np.maximum(last, 0)
        sign = np.signbit(np.take_along_axis(data, flat_last, axis=0))
        fix = (last >= 0) & (out == 0)
        out = np.where(fix, np.where(sign, -0.0, 0.0).astype(data.dtype), out)
    return out


def _reduce_runs(ufunc, kind, data, starts, n):
    """Each run of rows `data[starts[k]:starts[k + 1]]` reduced; sums and products accumulate in row
    order in the data's dtype (`ufunc.at` is unbuffered and ordered), as TF's kernels."""
    if kind in ("min", "max") and data.size:
        if data.dtype.kind == "f":
            return _float_min_max_runs(kind, data, starts, n)
        return ufunc.reduceat(data, starts, axis=0)
    run = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, n]))
    acc = np.full((len(starts),) + data.shape[1:], 1 if kind == "prod" else 0, dtype=data.dtype)
    ufunc.at(acc, run, data)
    return acc


def _segment_kernel(kind):
    ufunc, _ = _reducer(kind)

    def kernel(xp, data, segment_ids):
        ids = np.asarray(segment_ids)
        if data.ndim < 1 or ids.shape[0] != data.shape[0]:
            raise _invalid("segment_ids should be the same size as dimension 0 of input.")
        n = int(ids[-1]) + 1 if ids.size else 0
        if n < 0:
            raise _invalid("segment ids must be >= 0")
        out = np.zeros((n,) + data.shape[1:], dtype=data.dtype)
        if ids.size == 0:
            return out
        starts, u = _check_sorted(ids, n)
        red = _reduce_runs(ufunc, kind, data, starts, ids.size)
        if kind == "mean":
            red = _mean(red, np.diff(np.r_[starts, ids.size]), data.dtype)
        elif kind == "prod":
            out[...] = 1
        out[u] = red
        return out
    return kernel


def _segment_sum_grad(op, grad):
    return [gather(grad, op._inputs[1]), None]


def _segment_mean_grad(op, grad):
    data, ids = op._inputs
    ones_shape = concat([shape(ids), ones_like(shape(data))[1:]], 0)
    counts = segment_sum(ones(ones_shape, dtype=grad.dtype), ids)
    return [gather(divide(grad, counts), ids), None]


def _segment_prod_grad(op, grad):
    data, ids = op._inputs
    is_zero = equal(data, 0)
    num_zeros = segment_sum(cast(is_zero, dtypes.int32), ids)
    grad = where_v2(greater(num_zeros, 1), zeros_like(grad), grad)
    non_zero_data = where_v2(is_zero, ones_like(data), data)
    non_zero_prod = segment_prod(non_zero_data, ids)
    gathered_prod = gather(op.outputs[0], ids)
    gathered_non_zero_prod = gather(non_zero_prod, ids)
    partial = where_v2(is_zero, gathered_non_zero_prod, truediv(gathered_prod, non_zero_data))
    return [multiply(gather(grad, ids), partial), None]


def _segment_min_max_grad(op, grad):
    data, ids = op._inputs
    zeros = zeros_like(data)
    is_selected = equal(data, gather(op.outputs[0], ids))
    num_selected = segment_sum(cast(is_selected, grad.dtype), ids)
    gathered = gather(divide(grad, num_selected), ids)
    return [where(is_selected, gathered, zeros), None]


for _kind, _allowed, _grad in (("Sum", _NUMERIC, _segment_sum_grad), ("Mean", _NUMERIC, _segment_mean_grad),
                               ("Prod", _NUMERIC, _segment_prod_grad), ("Min", _REAL, _segment_min_max_grad),
                               ("Max", _REAL, _segment_min_max_grad)):
    register_op("Segment" + _kind, infer=_segment_infer("Segment" + _kind, _allowed),
                kernel=_segment_kernel(_kind.lower()), grad=_grad)


def _segment(op_type, data, segment_ids, name):
    data = ops.convert_to_tensor(data, name="data")
    segment_ids = ops.convert_to_tensor(segment_ids, name="segment_ids", preferred_dtype=dtypes.int32)
    return ops.apply_op(op_type, [data, segment_ids], name=name)


_SEGMENT_DOC = """Computes the {what} along segments of a tensor.

    `output[i] = {formula}` over the `j` with `segment_ids[j] == i`; a segment id that does not
    occur gives {empty}.

    Args:
      data: A `Tensor` of rank at least 1 ({dtypes}).
      segment_ids: A 1-D int32/int64 `Tensor` of size `data.shape[0]`, sorted (non-decreasing) and
        non-negative.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `data`'s dtype and shape `[segment_ids[-1] + 1] + data.shape[1:]` (the first
      dimension is only known at run time).

    Raises:
      TypeError: If a dtype is not supported.
      ValueError: If `segment_ids` is not 1-D or `data` is a scalar.
      InvalidArgumentError: At run time, if the ids are not sorted, negative, or not of size
        `data.shape[0]`.
    """


def segment_sum(data, segment_ids, name=None):
    return _segment("SegmentSum", data, segment_ids, name)


def segment_mean(data, segment_ids, name=None):
    return _segment("SegmentMean", data, segment_ids, name)


def segment_prod(data, segment_ids, name=None):
    return _segment("SegmentProd", data, segment_ids, name)


def segment_min(data, segment_ids, name=None):
    return _segment("SegmentMin", data, segment_ids, name)


def segment_max(data, segment_ids, name=None):
    return _segment("SegmentMax", data, segment_ids, name)


for _f, _what, _formula, _empty, _dt in (
        (segment_sum, "sum", "sum_j data[j]", "0", "numeric"),
        (segment_mean, "mean", "sum_j data[j] / N", "0 (integers: the sum divided rounding toward zero)", "numeric"),
        (segment_prod, "product", "prod_j data[j]", "1", "numeric"),
        (segment_min, "minimum", "min_j data[j]", "0", "real"),
        (segment_max, "maximum", "max_j data[j]", "0", "real")):
    _f.__doc__ = _SEGMENT_DOC.format(what=_what, formula=_formula, empty=_empty, dtypes=_dt)


# ---- unsorted segment reductions -----------------------------------------------------------------
def _unsorted_infer(op_type, allowed):
    def infer(op):
        data, ids, num = op._inputs
        _check_dtype(data, allowed, "data", op_type)
        _check_dtype(ids, _INDEX_DTYPES, "segment_ids", op_type)
        _check_dtype(num, _INDEX_DTYPES, "num_segments", op_type)
        _with_rank(num, 0)
        dd, idd = _dims(data), _dims(ids)
        nv = tensor_util._static_value(num)
        n = None if nv is None else int(nv)
        if dd is None or idd is None:
            return [(data._dtype, None)]
        if len(dd) < len(idd):
            raise ValueError("Shape must be at least rank %d but is rank %d" % (len(idd), len(dd)))
        for a, b in zip(dd, idd):
            if a is not None and b is not None and a != b:
                raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))
        return [(data._dtype, (n,) + dd[len(idd):])]
    return infer


def _unsorted_kernel(kind):
    ufunc, init = _reducer(kind)

    def kernel(xp, data, segment_ids, num_segments):
        ids = np.asarray(segment_ids)
        n = int(num_segments)
        if n < 0:
            raise _invalid("Input num_segments == %d must not be negative." % n)
        if data.shape[:ids.ndim] != ids.shape:
            raise _invalid("data.shape = %s does not start with segment_ids.shape = %s"
                           % (_fmt(data.shape), _fmt(ids.shape)))
        flat = ids.reshape(-1)
        bad = flat >= n
        if bad.any():
            i = int(np.argmax(bad))
            raise _invalid("segment_ids[%d] = %d is out of range [0, %d)" % (i, flat[i], n))
        inner = data.shape[ids.ndim:]
        out = np.full((n,) + inner, init(data.dtype), dtype=data.dtype)
        keep = flat >= 0
        rows = data.reshape((flat.size,) + inner)[keep]
        if kind in ("min", "max") and data.dtype.kind == "f" and rows.size:
            order = np.argsort(flat[keep], kind="stable")  # each segment's rows together, in order
            seg = flat[keep][order]
            starts = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
            out[seg[starts]] = _float_min_max_runs(kind, rows[order], starts, seg.size)
        else:
            ufunc.at(out, flat[keep], rows)
        return out
    return kernel


def _gather_drop_negatives(params, ids, zero_clipped_indices=None, is_positive=None):
    """TF's helper: params gathered at max(ids, 0), zero where ids < 0."""
    if zero_clipped_indices is None:
        zero_clipped_indices = maximum(ids, zeros_like(ids))
    gathered = gather(params, zero_clipped_indices)
    if is_positive is None:
        is_positive = greater_equal(ids, 0)
        is_positive_shape = shape(is_positive)
        from .array_shape_ops import rank
        from .math_binary_ops import subtract
        extra = ones(reshape(subtract(rank(gathered), rank(is_positive)), [1]), dtype=is_positive_shape.dtype)
        is_positive = reshape(is_positive, concat([is_positive_shape, extra], 0))
        is_positive = logical_and(is_positive, ones_like(gathered, dtype=dtypes.bool_))
    return where(is_positive, gathered, zeros_like(gathered)), zero_clipped_indices, is_positive


def _unsorted_sum_grad(op, grad):
    return [_gather_drop_negatives(grad, op._inputs[1])[0], None, None]


def _unsorted_min_max_grad(op, grad):
    data, ids, num = op._inputs
    gathered_outputs, zero_clipped, is_positive = _gather_drop_negatives(op.outputs[0], ids)
    is_selected = logical_and(equal(data, gathered_outputs), is_positive)
    num_selected = unsorted_segment_sum(cast(is_selected, grad.dtype), ids, num)
    gathered, _, _ = _gather_drop_negatives(divide(grad, num_selected), None, zero_clipped, is_positive)
    return [where(is_selected, gathered, zeros_like(gathered)), None, None]


def _unsorted_prod_grad(op, grad):
    data, ids, num = op._inputs
    is_zero = equal(data, 0)
    num_zeros = unsorted_segment_sum(cast(is_zero, dtypes.int32), ids, num)
    grad = where(greater(num_zeros, 1), zeros_like(grad), grad)
    non_zero_data = where(is_zero, ones_like(data), data)
    non_zero_prod = unsorted_segment_prod(non_zero_data, ids, num)
    zero_clipped = maximum(ids, zeros_like(ids))
    gathered_prod = gather(op.outputs[0], zero_clipped)
    gathered_non_zero_prod = gather(non_zero_prod, zero_clipped)
    partial = where(is_zero, gathered_non_zero_prod, truediv(gathered_prod, data))
    gathered_grad = _gather_drop_negatives(grad, ids, zero_clipped)[0]
    return [multiply(gathered_grad, partial), None, None]


for _kind, _allowed, _grad in (("Sum", _NUMERIC, _unsorted_sum_grad), ("Prod", _NUMERIC, _unsorted_prod_grad),
                               ("Min", _REAL, _unsorted_min_max_grad), ("Max", _REAL, _unsorted_min_max_grad)):
    register_op("UnsortedSegment" + _kind, infer=_unsorted_infer("UnsortedSegment" + _kind, _allowed),
                kernel=_unsorted_kernel(_kind.lower()), grad=_grad)


def _unsorted(op_type, data, segment_ids, num_segments, name):
    data = ops.convert_to_tensor(data, name="data")
    segment_ids = ops.convert_to_tensor(segment_ids, name="segment_ids", preferred_dtype=dtypes.int32)
    num_segments = ops.convert_to_tensor(num_segments, name="num_segments", preferred_dtype=dtypes.int32)
    return ops.apply_op(op_type, [data, segment_ids, num_segments], name=name)


_UNSORTED_DOC = """Computes the {what} along segments of a tensor, in any id order.

    `output[i, ...] = {formula}` over the index tuples `j` with `segment_ids[j] == i`; negative ids
    are dropped; a segment with no entries gives {empty}.

    Args:
      data: A `Tensor` ({dtypes}).
      segment_ids: An int32/int64 `Tensor` whose shape is a prefix of `data.shape`.
      num_segments: A scalar int32/int64 `Tensor`: the number of segments.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[num_segments] + data.shape[rank(segment_ids):]`{rtype}.

    Raises:
      TypeError: If a dtype is not supported.
      ValueError: If the static shapes don't fit together.
      InvalidArgumentError: At run time, for an id `>= num_segments`, a negative `num_segments`, or
        shapes that don't fit.
    """


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    return _unsorted("UnsortedSegmentSum", data, segment_ids, num_segments, name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    return _unsorted("UnsortedSegmentProd", data, segment_ids, num_segments, name)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    return _unsorted("UnsortedSegmentMin", data, segment_ids, num_segments, name)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    return _unsorted("UnsortedSegmentMax", data, segment_ids, num_segments, name)


def _unsorted_segment_n(data, segment_ids, num_segments):
    """The entries per segment (at least 1), shaped to broadcast against the segment sums."""
    from .array_shape_ops import rank
    from .math_binary_ops import subtract
    num_segments = ops.convert_to_tensor(num_segments, preferred_dtype=dtypes.int32)
    n = unsorted_segment_sum(ones(shape(segment_ids), dtype=data.dtype), segment_ids, num_segments)
    extra = ones(reshape(subtract(rank(data), rank(segment_ids)), [1]), dtype=num_segments.dtype)
    n = reshape(n, concat([reshape(num_segments, [1]), extra], 0))
    return maximum(n, ones_like(n))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    with ops.name_scope(name, "UnsortedSegmentMean"):
        data = ops.convert_to_tensor(data)
        segment_ids = ops.convert_to_tensor(segment_ids, preferred_dtype=dtypes.int32)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        summed = unsorted_segment_sum(data, segment_ids, num_segments)
        return truediv(summed, n)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    with ops.name_scope(name, "UnsortedSegmentSqrtN"):
        data = ops.convert_to_tensor(data)
        segment_ids = ops.convert_to_tensor(segment_ids, preferred_dtype=dtypes.int32)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        summed = unsorted_segment_sum(data, segment_ids, num_segments)
        return truediv(summed, sqrt(n))


for _f, _what, _formula, _empty, _dt, _rt in (
        (unsorted_segment_sum, "sum", "sum_j data[j, ...]", "0", "numeric", " and `data`'s dtype"),
        (unsorted_segment_prod, "product", "prod_j data[j, ...]", "1", "numeric", " and `data`'s dtype"),
        (unsorted_segment_min, "minimum", "min_j data[j, ...]", "the dtype's largest finite value", "real",
         " and `data`'s dtype"),
        (unsorted_segment_max, "maximum", "max_j data[j, ...]", "the dtype's lowest finite value", "real",
         " and `data`'s dtype"),
        (unsorted_segment_mean, "mean", "sum_j data[j, ...] / N", "0", "numeric",
         " (integer data: float64, as TF's true division)"),
        (unsorted_segment_sqrt_n, "sum divided by sqrt(N)", "sum_j data[j, ...] / sqrt(N)", "0", "float or complex",
         "")):
    _f.__doc__ = _UNSORTED_DOC.format(what=_what, formula=_formula, empty=_empty, dtypes=_dt, rtype=_rt)

__all__ = ["segment_sum", "segment_mean", "segment_prod", "segment_min", "segment_max", "unsorted_segment_sum",
           "unsorted_segment_prod", "unsorted_segment_min", "unsorted_segment_max", "unsorted_segment_mean",
           "unsorted_segment_sqrt_n"]


# ---- sparse segment reductions -------------------------------------------------------------------
_SPARSE_KINDS = {"SparseSegmentSum": ("sum", _REAL), "SparseSegmentMean": ("mean", _REAL[:3]),
                 "SparseSegmentSqrtN": ("sqrt_n", _REAL[:3])}


def _sparse_infer(op_type, allowed, with_num):
    def infer(op):
        data, indices, ids = op._inputs[:3]
        _check_dtype(data, allowed, "data", op_type)
        _check_dtype(indices, _INDEX_DTYPES, "indices", op_type)
        _check_dtype(ids, _INDEX_DTYPES, "segment_ids", op_type)
        _with_rank(indices, 1)
        _with_rank(ids, 1)
        a, b = _dims(indices), _dims(ids)
        if a is not None and b is not None and None not in (a[0], b[0]) and a[0] != b[0]:
            raise ValueError("Dimension 0 in both shapes must be equal, but are %d and %d. Shapes are [%d] and [%d]."
                             % (a[0], b[0], a[0], b[0]))
        n = None
        if with_num:
            num = op._inputs[3]
            _check_dtype(num, _INDEX_DTYPES, "num_segments", op_type)
            _with_rank(num, 0)
            nv = tensor_util._static_value(num)
            n = None if nv is None else int(nv)
        dd = _dims(data)
        if dd is not None and len(dd) < 1:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        return [(data._dtype, None if dd is None else (n,) + dd[1:])]
    return infer


def _sparse_kernel(kind, with_num):
    def kernel(xp, data, indices, segment_ids, num_segments=None):
        idx, ids = np.asarray(indices), np.asarray(segment_ids)
        if idx.shape[0] != ids.shape[0]:
            raise _invalid("segment_ids and indices should have same size.")
        if with_num:
            n = int(num_segments)
            if ids.size and int(ids.max()) >= n:
                raise _invalid("segment ids must be < num_segments")
        else:
            n = int(ids[-1]) + 1 if ids.size else 0
            if n < 0:
                raise _invalid("segment ids must be >= 0")
        bad = (idx < 0) | (idx >= data.shape[0])
        if bad.any():
            i = int(np.argmax(bad))
            raise _invalid("Bad: indices[%d] == %d out of range [0, %d)" % (i, idx[i], data.shape[0]))
        out = np.zeros((n,) + data.shape[1:], dtype=data.dtype)
        if ids.size == 0:
            return out
        starts, u = _check_sorted(ids, n)
        rows = data[idx]
        red = _reduce_runs(np.add, "sum", rows, starts, ids.size)
        counts = np.diff(np.r_[starts, ids.size]).reshape((-1,) + (1,) * (data.ndim - 1))
        # TF multiplies the sums by 1/N or 1/sqrt(N), computed in the data's dtype.
        if kind == "mean":
            red = red * (np.ones((), data.dtype) / counts.astype(data.dtype))
        elif kind == "sqrt_n":
            red = red * (np.ones((), data.dtype) / np.sqrt(counts.astype(data.dtype)))
        out[u] = red
        return out
    return kernel


def _sparse_grad(kind):
    def grad_fn(op, grad):
        from .array_shape_ops import rank
        from .math_binary_ops import subtract
        from .math_unary_ops import rsqrt
        data, indices, ids = op._inputs[:3]
        values = gather(grad, ids)
        if kind != "sum":
            counts = segment_sum(ones(shape(ids), dtype=grad.dtype), ids)
            w = gather(counts, ids)
            w = truediv(ones_like(w), w) if kind == "mean" else rsqrt(w)
            extra = ones(reshape(subtract(rank(data), 1), [1]), dtype=dtypes.int32)
            values = multiply(values, reshape(w, concat([shape(ids), extra], 0)))
        dense = unsorted_segment_sum(values, indices, shape(data)[0])
        return [dense, None, None] + [None] * (len(op._inputs) - 3)
    return grad_fn


for _op_type, (_kind, _allowed) in _SPARSE_KINDS.items():
    register_op(_op_type, infer=_sparse_infer(_op_type, _allowed, False), kernel=_sparse_kernel(_kind, False),
                grad=_sparse_grad(_kind))
    register_op(_op_type + "WithNumSegments", infer=_sparse_infer(_op_type + "WithNumSegments", _allowed, True),
                kernel=_sparse_kernel(_kind, True), grad=_sparse_grad(_kind))


def _sparse_segment(op_type, data, indices, segment_ids, name, num_segments):
    data = ops.convert_to_tensor(data, name="data")
    indices = ops.convert_to_tensor(indices, name="indices", preferred_dtype=dtypes.int32)
    segment_ids = ops.convert_to_tensor(segment_ids, name="segment_ids", preferred_dtype=dtypes.int32)
    if num_segments is None:
        return ops.apply_op(op_type, [data, indices, segment_ids], name=name)
    num_segments = ops.convert_to_tensor(num_segments, name="num_segments", preferred_dtype=dtypes.int32)
    return ops.apply_op(op_type + "WithNumSegments", [data, indices, segment_ids, num_segments], name=name)


_SPARSE_DOC = """Computes the {what} along sparse segments of a tensor: the rows `data[indices]` reduced
    by the sorted `segment_ids`.

    `output[i] = {formula}` over the `k` with `segment_ids[k] == i`; a segment with no rows gives 0.

    Args:
      data: A `Tensor` of rank at least 1 ({dtypes}).
      indices: A 1-D int32/int64 `Tensor`: rows of `data`, in `[0, data.shape[0])`.
      segment_ids: A 1-D int32/int64 `Tensor` of `indices`' size, sorted and non-negative.
      name: A name for the operation (optional).
      num_segments: An optional scalar int32/int64 `Tensor`: the number of output rows (default
        `segment_ids[-1] + 1`; then the ops `...WithNumSegments`).

    Returns:
      A `Tensor` of `data`'s dtype and shape `[N] + data.shape[1:]`.

    Raises:
      TypeError: If a dtype is not supported.
      ValueError: If the static shapes don't fit together.
      InvalidArgumentError: At run time, for unsorted or out-of-range ids or indices.
    """


def sparse_segment_sum(data, indices, segment_ids, name=None, num_segments=None):
    return _sparse_segment("SparseSegmentSum", data, indices, segment_ids, name, num_segments)


def sparse_segment_mean(data, indices, segment_ids, name=None, num_segments=None):
    return _sparse_segment("SparseSegmentMean", data, indices, segment_ids, name, num_segments)


def sparse_segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None):
    return _sparse_segment("SparseSegmentSqrtN", data, indices, segment_ids, name, num_segments)


for _f, _what, _formula, _dt in (
        (sparse_segment_sum, "sum", "sum_k data[indices[k]]", "real"),
        (sparse_segment_mean, "mean", "sum_k data[indices[k]] / N", "float"),
        (sparse_segment_sqrt_n, "sum divided by sqrt(N)", "sum_k data[indices[k]] / sqrt(N)", "float")):
    _f.__doc__ = _SPARSE_DOC.format(what=_what, formula=_formula, dtypes=_dt)

__all__ += ["sparse_segment_sum", "sparse_segment_mean", "sparse_segment_sqrt_n"]


# ---- Bincount --------------------------------------------------------------------------------------
_BINCOUNT_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


def _bincount_infer(op):
    arr, size, weights = op._inputs
    _check_dtype(arr, (dtypes.int32,), "arr", "Bincount")
    _check_dtype(size, (dtypes.int32,), "size", "Bincount")
    _check_dtype(weights, _BINCOUNT_DTYPES, "weights", "Bincount")
    _with_rank(size, 0)
    sv = tensor_util._static_value(size)
    if sv is not None and int(sv) < 0:
        raise ValueError("size (%d) must be non-negative" % int(sv))
    return [(weights._dtype, (None if sv is None else int(sv),))]


def _bincount_kernel(xp, arr, size, weights):
    n = int(size)
    if n < 0:
        raise _invalid("size (%d) must be non-negative" % n)
    flat = np.asarray(arr).reshape(-1)
    if flat.size and int(flat.min()) < 0:
        raise _invalid("Input arr must be non-negative!")
    w = np.asarray(weights)
    if w.size and w.size != flat.size:
        raise _invalid("Input indices and weights must have the same size.")
    keep = flat < n  # values >= size are not counted
    out = np.zeros(n, dtype=w.dtype)
    np.add.at(out, flat[keep], w.reshape(-1)[keep] if w.size else np.ones((), w.dtype))
    return out


register_op("Bincount", infer=_bincount_infer, kernel=_bincount_kernel, grad=NO_GRADIENT)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None):
    """Counts the occurrences of each value in an integer array.

    `output[i]` is the number of times `i` occurs in `arr` (with `weights`: the sum of the weights at
    those positions). The output has length `max(arr) + 1` (0 for an empty `arr`), raised to
    `minlength` and capped at `maxlength`; values at or above the length are not counted.

    Args:
      arr: An int32 `Tensor` of non-negative values (any shape).
      weights: An optional `Tensor` of `arr`'s shape (int32, int64, float32 or float64).
      minlength: An optional minimum output length.
      maxlength: An optional maximum output length.
      dtype: The output dtype when `weights` is None.
      name: A name for the operation (optional).

    Returns:
      A 1-D `Tensor` of `weights`' dtype (or `dtype`).

    Raises:
      InvalidArgumentError: At run time, for a negative value in `arr` or `weights` of another size.
    """
    from ..framework import constant_op as _const
    from .array_shape_ops import size as _size
    from .math_binary_ops import minimum
    from .math_reduce_ops import reduce_max
    with ops.name_scope(name, "bincount", [arr, weights, minlength, maxlength]):
        arr = ops.convert_to_tensor(arr, name="arr", dtype=dtypes.int32)
        nonempty = greater(_size(arr), 0)
        output_size = multiply(cast(nonempty, dtypes.int32), reduce_max(arr) + 1)
        if minlength is not None:
            output_size = maximum(ops.convert_to_tensor(minlength, name="minlength", dtype=dtypes.int32),
                                  output_size)
        if maxlength is not None:
            output_size = minimum(ops.convert_to_tensor(maxlength, name="maxlength", dtype=dtypes.int32),
                                  output_size)
        if weights is not None:
            weights = ops.convert_to_tensor(weights, name="weights")
        else:
            weights = _const.constant([], dtypes.as_dtype(dtype))
        return ops.apply_op("Bincount", [reshape(arr, [-1]), output_size, reshape(weights, [-1])])


__all__ += ["bincount"]
