"""Math ops: NextAfter (`nextafter`), CumulativeLogsumexp (`cumulative_logsumexp`), EuclideanNorm
(`reduce_euclidean_norm`), HistogramFixedWidth (`histogram_fixed_width`, `_bins`), MulNoNan
(`multiply_no_nan`), and the compositions `reciprocal_no_nan` and `confusion_matrix`."""

import numpy as np

from ..framework import dtypes, errors, ops, tensor_util
from ..framework.registry import NO_GRADIENT, register_op
from . import core_ops
from .array_select_ops import where_v2
from .math_binary_ops import greater, less, multiply, realdiv, subtract, truediv
from .math_helpers import (
    _FLOAT,
    _FLOAT_COMPLEX,
    _NUMERIC,
    _broadcast_infer,
    _check_dtype,
    _convert_same,
    _dims_text,
    _op_scope,
)
from .math_reduce_ops import _checking_axes, _expand_reduced, _reduce, _reduce_infer
from .math_scan_ops import _cum_infer
from .math_unary_ops import exp, log, negative

_F32_F64 = (dtypes.float32, dtypes.float64)


# ---- NextAfter ------------------------------------------------------------------------------------
def _next_after_grad(op, grad):
    """TF's gradient: ones for `x1`, zeros for `x2`, each summed over its broadcast axes."""
    x1, x2 = op._inputs
    return [core_ops.unbroadcast(grad, x1), core_ops.unbroadcast(multiply(core_ops.zeros_like(grad), grad), x2)]


register_op("NextAfter", infer=_broadcast_infer, kernel=lambda xp, x1, x2: xp.nextafter(x1, x2),
            grad=_next_after_grad, gpu=True, elementwise=True)


def nextafter(x1, x2, name=None):
    """Returns the next representable value of `x1` in the direction of `x2`, element-wise.

    Args:
      x1: A `Tensor` of type float32 or float64.
      x2: A `Tensor` of the same type as `x1` (broadcast against it).
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `x1`.

    Raises:
      TypeError: If the dtypes differ or are not float32/float64.
    """
    with _op_scope(name, "NextAfter", [x1, x2]) as scope:
        x1, x2 = _convert_same([x1, x2], ("x1", "x2"), "NextAfter")
        _check_dtype(x1, _F32_F64, "x1")
        return ops.apply_op("NextAfter", [x1, x2], name=scope)


# ---- CumulativeLogsumexp --------------------------------------------------------------------------
def _cum_logsumexp_kernel(xp, x, axis, exclusive, reverse):
    if np.ndim(axis):
        raise errors.InvalidArgumentError(None, None, "ScanOp: axis must be a scalar, not %s"
                                          % _dims_text(np.shape(axis)))
    a = int(axis)
    if not -x.ndim <= a < x.ndim:
        raise errors.InvalidArgumentError(None, None, "ScanOp: Expected scan axis in the range [%d, %d), but got %d"
                                          % (-x.ndim, x.ndim, a))
    a %= x.ndim
    work = x.astype(np.float32) if x.dtype == np.float16 else x
    if reverse:
        work = np.flip(work, a)
    with np.errstate(invalid="ignore"):
        out = np.logaddexp.accumulate(work, axis=a) if work.shape[a] else work.copy()
    if exclusive and work.shape[a]:
        lead = np.full(work.shape[:a] + (1,) + work.shape[a + 1:], -np.inf, dtype=work.dtype)
        out = np.concatenate([lead, np.take(out, np.arange(work.shape[a] - 1), axis=a)], axis=a)
    if reverse:
        out = np.flip(out, a)
    return np.ascontiguousarray(out).astype(x.dtype, copy=False)


def _cum_logsumexp_grad(op, grad):
    """TF's gradient: the positive and negative parts of `grad` accumulated in log space the other way."""
    x, axis = op._inputs
    out = op._outputs[0]
    exclusive, reverse = op._attrs["exclusive"], op._attrs["reverse"]
    lowest = ops.convert_to_tensor(grad.dtype.min, dtype=grad.dtype)
    zero = ops.convert_to_tensor(0, dtype=grad.dtype)
    log_pos = where_v2(greater(grad, zero), log(grad), lowest)
    log_neg = where_v2(less(grad, zero), log(negative(grad)), lowest)
    pos = exp(cumulative_logsumexp(subtract(log_pos, out), axis, exclusive=exclusive, reverse=not reverse) + x)
    neg = exp(cumulative_logsumexp(subtract(log_neg, out), axis, exclusive=exclusive, reverse=not reverse) + x)
    return [subtract(pos, neg), None]


register_op("CumulativeLogsumexp", infer=_cum_infer, kernel=_cum_logsumexp_kernel, grad=_cum_logsumexp_grad)


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """Computes the cumulative log-sum-exp of `x` along `axis` (`log(cumsum(exp(x)))`, stably).

    `exclusive=True` starts from -inf; `reverse=True` accumulates from the end.

    Args:
      x: A `Tensor` of type float16, float32 or float64.
      axis: A scalar int32 `Tensor` or int (default 0), in `[-rank(x), rank(x))`.
      exclusive: If `True`, perform the exclusive accumulation.
      reverse: If `True`, accumulate in reverse.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type and shape as `x`.

    Raises:
      TypeError: If `x` is not a float tensor.
    """
    with _op_scope(name, "CumulativeLogsumexp", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        _check_dtype(x, _FLOAT)
        axis = axis if isinstance(axis, ops.Tensor) else ops.convert_to_tensor(axis, dtype=dtypes.int32, name="axis")
        return ops.apply_op("CumulativeLogsumexp", [x, axis], {"exclusive": bool(exclusive),
                                                               "reverse": bool(reverse)}, name=scope)


# ---- EuclideanNorm --------------------------------------------------------------------------------
def _euclidean_norm_kernel(xp, x, axes, keep_dims):
    axis = tuple(int(a) for a in np.ravel(axes))
    if x.dtype.kind == "c":
        return xp.sqrt(xp.sum(x * xp.conj(x), axis=axis, keepdims=keep_dims)).astype(x.dtype)
    if x.dtype.kind in "iu":
        squares = xp.sum(x * x, axis=axis, keepdims=keep_dims, dtype=x.dtype)
        return xp.sqrt(squares.astype(np.float64)).astype(x.dtype)
    work = x.astype(np.float32) if x.dtype == np.float16 else x
    return xp.sqrt(xp.sum(work * work, axis=axis, keepdims=keep_dims)).astype(x.dtype)


def _euclidean_norm_grad(op, grad):
    """d ||x|| = x / (||x|| / grad), the norm and grad broadcast back over the reduced axes."""
    x = op._inputs[0]
    out = _expand_reduced(op._outputs[0], op)
    return [truediv(x, realdiv(out, _expand_reduced(grad, op))), None]


register_op("EuclideanNorm", infer=_reduce_infer, kernel=_checking_axes(_euclidean_norm_kernel),
            grad=_euclidean_norm_grad, gpu=True, host_inputs=(1,))


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """Computes the Euclidean norm of elements across dimensions of a tensor: `sqrt(sum(|x|^2))`.

    Integer inputs give the integer part of the norm, as TF.

    Args:
      input_tensor: The tensor to reduce (numeric).
      axis: The dimensions to reduce: None (all), an int, a list of ints or an int32 `Tensor`.
      keepdims: If true, retains reduced dimensions with length 1.
      name: A name for the operation (optional).

    Returns:
      The reduced tensor, of the same dtype as `input_tensor`.

    Raises:
      ValueError: If an axis is out of range.
      TypeError: If `input_tensor` has an unsupported dtype.
    """
    return _reduce("EuclideanNorm", input_tensor, axis, keepdims, name, None, None, _NUMERIC)


# ---- HistogramFixedWidth (histogram_fixed_width, histogram_fixed_width_bins) ----------------------
_HIST_TYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


def _histogram_infer(op):
    values, value_range, nbins = op._inputs
    _check_dtype(values, _HIST_TYPES, "values")
    if value_range._dtype is not values._dtype:
        raise TypeError("Input 'value_range' of 'HistogramFixedWidth' Op has type %s that does not match type %s of "
                        "argument 'values'." % (value_range._dtype.name, values._dtype.name))
    if nbins._dtype is not dtypes.int32:
        raise TypeError("Input 'nbins' of 'HistogramFixedWidth' Op has type %s that does not match expected type of "
                        "int32." % nbins._dtype.name)
    if op._attrs["dtype"] not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: int32, "
                        "int64" % op._attrs["dtype"].name)
    r = value_range._shape.as_tuple()
    if r is not None:
        if len(r) != 1:
            raise ValueError("Shape must be rank 1 but is rank %d" % len(r))
        if r[0] is not None and r[0] != 2:
            raise ValueError("Dimension must be 2 but is %d" % r[0])
    n = nbins._shape.as_tuple()
    if n is not None and len(n) != 0:
        raise ValueError("Shape must be rank 0 but is rank %d" % len(n))
    value = tensor_util._static_value(nbins)
    return [(op._attrs["dtype"], (None if value is None else int(value),))]


def _histogram_kernel(xp, values, value_range, nbins, dtype):
    n = int(nbins)
    if n <= 0:
        raise errors.InvalidArgumentError(None, None, "nbins should be a positive number, but got '%d'" % n)
    lo, hi = value_range[0], value_range[1]
    if not lo < hi:
        raise errors.InvalidArgumentError(None, None, "value_range should satisfy value_range[0] < value_range[1], "
                                          "but got '[%g, %g]'" % (lo, hi))
    if values.dtype.kind == "f" and np.isnan(values).any():
        raise errors.InvalidArgumentError(None, None, "Histogram values must not contain NaN")
    step = (float(hi) - float(lo)) / n
    index = np.clip(np.floor((values.astype(np.float64).reshape(-1) - float(lo)) / step), 0, n - 1).astype(np.int64)
    return np.bincount(index, minlength=n).astype(dtype.as_numpy_dtype)


register_op("HistogramFixedWidth", infer=_histogram_infer, kernel=_histogram_kernel, grad=NO_GRADIENT)


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Returns the histogram of `values` in `nbins` equal bins over `value_range`.

    Values below `value_range[0]` count in the first bin, values at or above `value_range[1]` in
    the last.

    Args:
      values: A numeric `Tensor` (int32, int64, float32, float64).
      value_range: A `Tensor` of shape [2] and the type of `values`: `[low, high)`.
      nbins: A scalar int32 `Tensor`: the number of bins (> 0).
      dtype: `tf.int32` (default) or `tf.int64`: the type of the counts.
      name: A name for the operation (optional).

    Returns:
      A 1-D `Tensor` of `dtype` with `nbins` counts.

    Raises:
      InvalidArgumentError: At run time, if `nbins <= 0`, the range is empty, or a value is NaN.
    """
    with ops.name_scope(name, "histogram_fixed_width", [values, value_range, nbins]) as scope:
        values = ops.convert_to_tensor(values, name="values")
        value_range = ops.convert_to_tensor(value_range, name="value_range", preferred_dtype=values.dtype)
        nbins = ops.convert_to_tensor(nbins, name="nbins", preferred_dtype=dtypes.int32)
        return ops.apply_op("HistogramFixedWidth", [values, value_range, nbins], {"dtype": dtypes.as_dtype(dtype)},
                            name=scope)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Returns the bin index of each value, for `nbins` equal bins over `value_range` (as TF builds it).

    Args:
      values: A numeric `Tensor`.
      value_range: A `Tensor` of shape [2] and the type of `values`: `[low, high)`.
      nbins: A scalar int32 `Tensor`: the number of bins.
      dtype: The type of the indices (default `tf.int32`).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `dtype` with the shape of `values`: indices in `[0, nbins)`.
    """
    from .array_shape_ops import reshape
    from .clip_ops import clip_by_value
    from .math_unary_ops import cast, floor
    with ops.name_scope(name, "histogram_fixed_width_bins", [values, value_range, nbins]):
        values = ops.convert_to_tensor(values, name="values")
        shape = core_ops.shape(values)
        values = reshape(values, [-1])
        value_range = ops.convert_to_tensor(value_range, name="value_range")
        nbins = ops.convert_to_tensor(nbins, dtype=dtypes.int32, name="nbins")
        nbins_float = cast(nbins, values.dtype)
        scaled = truediv(subtract(values, value_range[0]), subtract(value_range[1], value_range[0]),
                         name="scaled_values")
        indices = floor(multiply(nbins_float, scaled), name="indices")
        indices = cast(clip_by_value(indices, 0, subtract(nbins_float, ops.convert_to_tensor(1, dtype=values.dtype))),
                       dtype)
        return reshape(indices, shape)


# ---- confusion_matrix (a composition, as TF builds it) ---------------------------------------------
def _remove_squeezable_dimensions(labels, predictions):
    """TF's `remove_squeezable_dimensions` (expected rank difference 0)."""
    from .array_shape_ops import rank, squeeze
    from .control_flow_ops import cond
    from .math_binary_ops import equal
    with ops.name_scope(None, "remove_squeezable_dimensions", [labels, predictions]):
        predictions = ops.convert_to_tensor(predictions)
        labels = ops.convert_to_tensor(labels)
        p_shape, l_shape = predictions.get_shape(), labels.get_shape()
        p_rank, l_rank = p_shape.ndims, l_shape.ndims
        if l_rank is not None and p_rank is not None:
            rank_diff = p_rank - l_rank
            if rank_diff == 1 and p_shape.dims[-1].is_compatible_with(1):
                predictions = squeeze(predictions, [-1])
            elif rank_diff == -1 and l_shape.dims[-1].is_compatible_with(1):
                labels = squeeze(labels, [-1])
            return labels, predictions
        rank_diff = subtract(rank(predictions), rank(labels))
        if p_rank is None or p_shape.dims[-1].is_compatible_with(1):
            p = predictions
            predictions = cond(equal(1, rank_diff), lambda: squeeze(p, [-1]), lambda: p)
        if l_rank is None or l_shape.dims[-1].is_compatible_with(1):
            lab = labels
            labels = cond(equal(-1, rank_diff), lambda: squeeze(lab, [-1]), lambda: lab)
        return labels, predictions


def confusion_matrix(labels, predictions, num_classes=None, dtype=dtypes.int32, name=None, weights=None):
    """Computes the confusion matrix from predictions and labels.

    Rows are real labels, columns predictions; entry `[i, j]` counts (or sums the `weights` of) the
    examples with label `i` predicted as `j`. Built as TF builds it (a `scatter_nd` of ones or weights).

    Args:
      labels: 1-D `Tensor` of real labels (non-negative integers).
      predictions: 1-D `Tensor` of predictions, of the same shape.
      num_classes: The number of labels; if None, one more than the largest label or prediction.
      dtype: The type of the result (default `tf.int32`).
      name: A name for the operation (optional).
      weights: An optional `Tensor` of the shape of `predictions`: the weight of each example.

    Returns:
      A `Tensor` of type `dtype` and shape `[n, n]`, `n` the number of classes.

    Raises:
      ValueError: If `weights` has an incompatible shape.
      InvalidArgumentError: At run time, if a label or prediction is negative or not below `num_classes`.
    """
    from .array_gather_ops import scatter_nd
    from .array_join_ops import stack
    from .check_ops import _with_dependencies, assert_less, assert_non_negative
    from .math_binary_ops import add, maximum
    from .math_reduce_ops import reduce_max
    from .math_unary_ops import cast
    with ops.name_scope(name, "confusion_matrix", (predictions, labels, num_classes, weights)):
        labels, predictions = _remove_squeezable_dimensions(ops.convert_to_tensor(labels, name="labels"),
                                                            ops.convert_to_tensor(predictions, name="predictions"))
        predictions = cast(predictions, dtypes.int64)
        labels = cast(labels, dtypes.int64)
        labels = _with_dependencies([assert_non_negative(labels, message="`labels` contains negative values")], labels)
        predictions = _with_dependencies(
            [assert_non_negative(predictions, message="`predictions` contains negative values")], predictions)
        if num_classes is None:
            num_classes = add(maximum(reduce_max(predictions), reduce_max(labels)),
                              ops.convert_to_tensor(1, dtype=dtypes.int64))
        else:
            num_classes_int64 = cast(num_classes, dtypes.int64)
            labels = _with_dependencies([assert_less(labels, num_classes_int64, message="`labels` out of bound")],
                                        labels)
            predictions = _with_dependencies(
                [assert_less(predictions, num_classes_int64, message="`predictions` out of bound")], predictions)
        if weights is not None:
            weights = ops.convert_to_tensor(weights, name="weights")
            predictions.get_shape().assert_is_compatible_with(weights.get_shape())
            weights = cast(weights, dtype)
        shape = stack([num_classes, num_classes])
        indices = stack([labels, predictions], axis=1)
        values = core_ops.ones_like(predictions, dtype) if weights is None else weights
        return scatter_nd(indices=indices, updates=values, shape=cast(shape, dtypes.int64))


# ---- MulNoNan (multiply_no_nan), reciprocal_no_nan -------------------------------------------------
def _mul_no_nan_kernel(xp, x, y):
    with np.errstate(all="ignore"):
        return xp.where(y == 0, xp.zeros((), x.dtype), x * y).astype(x.dtype, copy=False)


def _mul_no_nan_grad(op, grad):
    """(mul_no_nan(grad, y), mul_no_nan(x, grad)), each summed over its broadcast axes."""
    x, y = op._inputs
    gx = ops.apply_op("MulNoNan", [grad, y])
    gy = ops.apply_op("MulNoNan", [x, grad])
    return [core_ops.unbroadcast(gx, x), core_ops.unbroadcast(gy, y)]


register_op("MulNoNan", infer=_broadcast_infer, kernel=_mul_no_nan_kernel, grad=_mul_no_nan_grad, gpu=True,
            elementwise=True)


def multiply_no_nan(x, y, name=None):
    """Computes `x * y` element-wise, 0 where `y` is 0 even if `x` is infinite or NaN.

    Args:
      x: A float or complex `Tensor`.
      y: A `Tensor` of the same type as `x` (broadcast against it).
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `x`.

    Raises:
      TypeError: If the dtypes differ or are not float/complex.
    """
    with ops.name_scope(name, "multiply_no_nan", [x, y]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        _check_dtype(x, _FLOAT_COMPLEX)
        return ops.apply_op("MulNoNan", [x, y], name=scope)


def reciprocal_no_nan(x, name=None):
    """Computes `1 / x` element-wise, 0 where `x` is 0 (`div_no_nan(1, x)`, as TF builds it).

    Args:
      x: A float or complex `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same type as `x`.

    Raises:
      TypeError: If `x` is not a float or complex tensor.
    """
    with ops.name_scope(name, "reciprocal_no_nan", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        _check_dtype(x, _FLOAT_COMPLEX)
        one = ops.convert_to_tensor(1, dtype=x.dtype.base_dtype, name="one")
        return ops.apply_op("DivNoNan", [one, x], name=scope)
