"""`tf.metrics`: streaming metrics, as TF 1.x's `metrics_impl`.

Each metric returns `(value, update_op)`. Its accumulators are float local variables (in the
LOCAL_VARIABLES and METRIC_VARIABLES collections, initialized by
`tf.local_variables_initializer()`); running `update_op` adds one batch to them and returns the
updated metric, and `value` reads the metric from the accumulators without changing them.
"""

import numpy as np

from .. import variable_scopes as vs
from ..framework import dtypes, ops
from ..ops import array_ops, check_ops, core_ops, math_ops, state_ops
from ..variables import Variable

__all__ = ["accuracy", "auc", "false_negatives", "false_negatives_at_thresholds", "false_positives",
           "false_positives_at_thresholds", "mean", "mean_absolute_error", "mean_iou", "mean_per_class_accuracy",
           "mean_relative_error", "mean_squared_error", "mean_tensor", "percentage_below", "precision",
           "precision_at_thresholds", "recall", "recall_at_thresholds", "root_mean_squared_error",
           "true_negatives", "true_negatives_at_thresholds", "true_positives", "true_positives_at_thresholds"]

METRIC_VARIABLES = getattr(ops.GraphKeys, "METRIC_VARIABLES", "metric_variables")


def _check_graph_mode(name):
    from ..eager.context import executing_eagerly
    if executing_eagerly():
        raise RuntimeError("tf.metrics.%s is not supported when eager execution is enabled." % name)


def metric_variable(shape, dtype, validate_shape=True, name=None):
    """A zero-initialized, non-trainable local variable in the METRIC_VARIABLES collection."""
    dtype = dtypes.as_dtype(dtype)
    return Variable(lambda: array_ops.zeros(shape, dtype), trainable=False,
                    collections=[ops.GraphKeys.LOCAL_VARIABLES, METRIC_VARIABLES], validate_shape=validate_shape,
                    name=name)


def _add_to_collections(collections, value):
    if collections:
        ops.add_to_collections(collections, value)


# ---- shapes and weights -------------------------------------------------------------------------
def _remove_squeezable_label_dims(labels, predictions, expected_rank_diff=0):
    """Squeezes a trailing size-1 dimension of whichever of labels/predictions has one rank too many."""
    labels = ops.convert_to_tensor(labels)
    predictions = ops.convert_to_tensor(predictions)
    pr, lr = predictions.shape.ndims, labels.shape.ndims
    if pr is not None and lr is not None:
        diff = pr - lr
        if diff == expected_rank_diff + 1 and predictions.shape.as_list()[-1] in (None, 1):
            predictions = array_ops.squeeze(predictions, [-1])
        elif diff == expected_rank_diff - 1 and labels.shape.as_list()[-1] in (None, 1):
            labels = array_ops.squeeze(labels, [-1])
    return labels, predictions


def _remove_squeezable_dimensions(predictions, labels, weights):
    """TF's metrics helper: squeeze labels/predictions to the same rank, then weights to match."""
    predictions = ops.convert_to_tensor(predictions)
    if labels is not None:
        labels, predictions = _remove_squeezable_label_dims(labels, predictions)
        predictions.shape.assert_is_compatible_with(labels.shape)
    if weights is None:
        return predictions, labels, None
    weights = ops.convert_to_tensor(weights)
    wr, pr = weights.shape.ndims, predictions.shape.ndims
    if wr == 0:
        return predictions, labels, weights
    if pr is not None and wr is not None:
        if wr - pr == 1:
            weights = array_ops.squeeze(weights, [-1])
        elif pr - wr == 1:
            weights = array_ops.expand_dims(weights, [-1])
    return predictions, labels, weights


_BROADCAST_ERROR = "weights can not be broadcast to values."


def _broadcast_weights(weights, values):
    """`weights` (rank 0 or the rank of `values`, each dimension 1 or equal) times ones like `values`.

    Raises:
      ValueError: If the static shapes cannot be broadcast that way.
    """
    with ops.name_scope(None, "broadcast_weights", (weights, values)) as scope:
        values = ops.convert_to_tensor(values, name="values")
        weights = ops.convert_to_tensor(weights, dtype=values.dtype, name="weights")
        ws, vs_ = weights.shape, values.shape
        if ws.is_fully_defined() and vs_.is_fully_defined() and ws.is_compatible_with(vs_):
            return weights
        if ws.ndims is not None and ws.ndims != 0 and vs_.ndims is not None:
            if ws.ndims != vs_.ndims:
                raise ValueError("%s values.rank=%s. weights.rank=%s. values.shape=%s. weights.shape=%s."
                                 % (_BROADCAST_ERROR, vs_.ndims, ws.ndims, vs_, ws))
            for i, (w, v) in enumerate(zip(ws.as_list(), vs_.as_list())):
                if w is not None and v is not None and w not in (1, v):
                    raise ValueError("%s Mismatch at dim %s. values.shape=%s weights.shape=%s."
                                     % (_BROADCAST_ERROR, i, vs_, ws))
        return math_ops.multiply(weights, core_ops.ones_like(values), name=scope)


def _after(values):
    """Control inputs ordering an update after `values` are computed. A placeholder is left out:
    TF drops control edges from a fed placeholder, which this runtime would run instead."""
    return [] if values.op.type == "Placeholder" else [values]


# ---- mean and the metrics built on it -----------------------------------------------------------
def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """Computes the (weighted) mean of `values` over all batches seen.

    Creates the local variables `total` and `count`; `update_op` adds `sum(values * weights)` to
    `total` and `sum(weights)` to `count`, and returns `total / count` (0 when `count` is 0).

    Args:
      values: A `Tensor` of any shape.
      weights: Optional `Tensor` of rank 0 or the rank of `values`, broadcastable to it.
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Variable scope name (default "mean").

    Returns:
      `(mean, update_op)`: float32 scalars.

    Raises:
      ValueError: If `weights` cannot be broadcast to `values`.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("mean")
    with vs.variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, dtypes.float32)
        total = metric_variable([], dtypes.float32, name="total")
        count = metric_variable([], dtypes.float32, name="count")
        if weights is None:
            num_values = math_ops.cast(array_ops.size(values), dtypes.float32)
        else:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = _broadcast_weights(math_ops.cast(weights, dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.reduce_sum(weights)
        update_total_op = state_ops.assign_add(total, math_ops.reduce_sum(values))
        with ops.control_dependencies(_after(values)):
            update_count_op = state_ops.assign_add(count, num_values)
        mean_t = math_ops.div_no_nan(total, math_ops.maximum(count, 0.0), name="value")
        update_op = math_ops.div_no_nan(update_total_op, math_ops.maximum(update_count_op, 0.0), name="update_op")
        _add_to_collections(metrics_collections, mean_t)
        _add_to_collections(updates_collections, update_op)
        return mean_t, update_op


def accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """How often `predictions` equals `labels`: the (weighted) mean of `predictions == labels`.

    Args:
      labels: The ground truth, a `Tensor` whose shape matches `predictions`.
      predictions: The predicted values (cast to the labels' dtype if they differ).
      weights: Optional `Tensor` of rank 0 or the rank of `labels`, broadcastable to it.
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Variable scope name (default "accuracy").

    Returns:
      `(accuracy, update_op)`: float32 scalars.

    Raises:
      ValueError: If the shapes of `predictions`, `labels` (and `weights`) are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("accuracy")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    predictions.shape.assert_is_compatible_with(labels.shape)
    if labels.dtype is not predictions.dtype:
        predictions = math_ops.cast(predictions, labels.dtype)
    is_correct = math_ops.cast(math_ops.equal(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                        name=None):
    """The (weighted) mean of `|predictions - labels|`.

    Returns:
      `(mean_absolute_error, update_op)`: float32 scalars.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("mean_absolute_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    absolute_errors = math_ops.abs(predictions - labels)
    return mean(absolute_errors, weights, metrics_collections, updates_collections, name or "mean_absolute_error")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                       name=None):
    """The (weighted) mean of `(labels - predictions)**2`.

    Returns:
      `(mean_squared_error, update_op)`: float32 scalars.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("mean_squared_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    squared_error = math_ops.squared_difference(labels, predictions)
    return mean(squared_error, weights, metrics_collections, updates_collections, name or "mean_squared_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                            name=None):
    """The square root of the (weighted) mean squared error.

    Returns:
      `(root_mean_squared_error, update_op)`: float32 scalars.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("root_mean_squared_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    mse, update_mse_op = mean(math_ops.squared_difference(labels, predictions), weights, None, None,
                              name or "root_mean_squared_error")
    rmse = math_ops.sqrt(mse)
    update_rmse_op = math_ops.sqrt(update_mse_op)
    _add_to_collections(metrics_collections, rmse)
    _add_to_collections(updates_collections, update_rmse_op)
    return rmse, update_rmse_op


def mean_relative_error(labels, predictions, normalizer, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The (weighted) mean of `|predictions - labels| / normalizer` (0 where `normalizer` is 0).

    Returns:
      `(mean_relative_error, update_op)`: float32 scalars.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("mean_relative_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    predictions, normalizer = _remove_squeezable_label_dims(predictions, normalizer)
    predictions.shape.assert_is_compatible_with(normalizer.shape)
    relative_errors = array_ops.where(math_ops.equal(normalizer, 0.0), core_ops.zeros_like(labels),
                                      math_ops.divide(math_ops.abs(labels - predictions), normalizer))
    return mean(relative_errors, weights, metrics_collections, updates_collections, name or "mean_relative_error")


def percentage_below(values, threshold, weights=None, metrics_collections=None, updates_collections=None,
                     name=None):
    """The (weighted) fraction of `values` below `threshold`.

    Returns:
      `(percentage, update_op)`: float32 scalars.

    Raises:
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("percentage_below")
    is_below = math_ops.cast(math_ops.less(values, threshold), dtypes.float32)
    return mean(is_below, weights, metrics_collections, updates_collections, name or "percentage_below_threshold")


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The element-wise (weighted) mean of `values` over batches: a tensor of `values`' shape.

    Returns:
      `(mean, update_op)`: float32 tensors shaped like `values` (fully defined shape required).

    Raises:
      ValueError: If `weights` cannot be broadcast to `values`.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("mean_tensor")
    with vs.variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, dtypes.float32)
        total = metric_variable(values.shape, dtypes.float32, name="total_tensor")
        count = metric_variable(values.shape, dtypes.float32, name="count_tensor")
        num_values = core_ops.ones_like(values)
        if weights is not None:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = _broadcast_weights(math_ops.cast(weights, dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.multiply(num_values, weights)
        update_total_op = state_ops.assign_add(total, values)
        with ops.control_dependencies(_after(values)):
            update_count_op = state_ops.assign_add(count, num_values)
        mean_t = math_ops.div_no_nan(total, math_ops.maximum(count, 0.0), name="value")
        update_op = math_ops.div_no_nan(update_total_op, math_ops.maximum(update_count_op, 0.0), name="update_op")
        _add_to_collections(metrics_collections, mean_t)
        _add_to_collections(updates_collections, update_op)
        return mean_t, update_op


# ---- counts of conditions: precision and recall -------------------------------------------------
def _count_condition(values, weights=None, metrics_collections=None, updates_collections=None):
    """Sums `weights` (default 1) where the bool `values` are true, into a local `count`."""
    check_ops.assert_type(values, dtypes.bool_)
    count = metric_variable([], dtypes.float32, name="count")
    values = math_ops.cast(values, dtypes.float32)
    if weights is not None:
        weights = ops.convert_to_tensor(weights)
        if weights.shape.ndims not in (None, 0) and values.shape.ndims is not None and \
                weights.shape.ndims != values.shape.ndims:
            raise ValueError("weights can not be broadcast to values. values.rank=%d. weights.rank=%d."
                             % (values.shape.ndims, weights.shape.ndims))
        weights = math_ops.cast(weights, dtypes.float32)
        values = math_ops.multiply(values, weights)
    value_tensor = core_ops.identity(count)
    update_op = state_ops.assign_add(count, math_ops.reduce_sum(values))
    _add_to_collections(metrics_collections, value_tensor)
    _add_to_collections(updates_collections, update_op)
    return value_tensor, update_op


def _bool_inputs(labels, predictions, weights):
    return _remove_squeezable_dimensions(math_ops.cast(predictions, dtypes.bool_),
                                         math_ops.cast(labels, dtypes.bool_), weights)


def _make_count_metric(metric_name, label_value, prediction_value):
    def metric(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
        _check_graph_mode(metric_name)
        with vs.variable_scope(name, metric_name, (predictions, labels, weights)):
            predictions, labels, weights = _bool_inputs(labels, predictions, weights)
            is_case = math_ops.logical_and(math_ops.equal(labels, label_value),
                                           math_ops.equal(predictions, prediction_value))
            return _count_condition(is_case, weights, metrics_collections, updates_collections)
    metric.__name__ = metric_name
    metric.__doc__ = """Sums the weights of the cases where `labels` is %s and `predictions` is %s (both cast to bool).

    Args:
      labels: The ground truth, cast to bool.
      predictions: The predictions, cast to bool.
      weights: Optional `Tensor` of rank 0 or the rank of `labels`, broadcastable to it.
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Variable scope name (default "%s").

    Returns:
      `(value, update_op)`: float32 scalars.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """ % (label_value, prediction_value, metric_name)
    return metric


true_positives = _make_count_metric("true_positives", True, True)
false_positives = _make_count_metric("false_positives", False, True)
false_negatives = _make_count_metric("false_negatives", True, False)
true_negatives = _make_count_metric("true_negatives", False, False)


def _safe_ratio(num, other, name):
    """num / (num + other), or 0 where the denominator is 0."""
    den = num + other
    return array_ops.where(math_ops.greater(den, 0.0), math_ops.divide(num, den), 0.0, name=name)


def precision(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) precision `tp / (tp + fp)` of the bool-cast `predictions` (0 with no positives).

    Creates the local variables `true_positives/count` and `false_positives/count`.

    Returns:
      `(precision, update_op)`: float32 scalars.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    return _count_ratio("precision", false_positives, labels, predictions, weights, metrics_collections,
                        updates_collections, name)


def recall(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) recall `tp / (tp + fn)` of the bool-cast `predictions` (0 with no positive labels).

    Creates the local variables `true_positives/count` and `false_negatives/count`.

    Returns:
      `(recall, update_op)`: float32 scalars.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    return _count_ratio("recall", false_negatives, labels, predictions, weights, metrics_collections,
                        updates_collections, name)


def _count_ratio(metric, other_count, labels, predictions, weights, metrics_collections, updates_collections, name):
    """`tp / (tp + other)` with its update op, for precision (other: fp) and recall (other: fn)."""
    _check_graph_mode(metric)
    with vs.variable_scope(name, metric, (predictions, labels, weights)):
        predictions, labels, weights = _bool_inputs(labels, predictions, weights)
        tp, tp_update = true_positives(labels, predictions, weights)
        other, other_update = other_count(labels, predictions, weights)
        value = _safe_ratio(tp, other, "value")
        update_op = _safe_ratio(tp_update, other_update, "update_op")
        _add_to_collections(metrics_collections, value)
        _add_to_collections(updates_collections, update_op)
        return value, update_op


# ---- thresholded counts: AUC ----------------------------------------------------------------------
_CONFUSION_NAMES = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives",
                    "fp": "false_positives"}


def _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights=None, includes=None):
    """Per-threshold weighted counts: tp[i] = weight of positive labels with prediction > thresholds[i], etc.

    Returns:
      `(values, update_ops)`: dicts keyed "tp", "fn", "tn", "fp" of `[len(thresholds)]` variables
      and of the ops adding one batch to them.

    Raises:
      ValueError: If `includes` has an invalid key, or shapes are incompatible.
    """
    all_includes = ("tp", "fn", "tn", "fp")
    if includes is None:
        includes = all_includes
    for key in includes:
        if key not in all_includes:
            raise ValueError("Invalid key: %s." % key)
    predictions = ops.convert_to_tensor(predictions)
    with ops.control_dependencies([
            check_ops.assert_greater_equal(predictions, math_ops.cast(0.0, predictions.dtype),
                                           message="predictions must be in [0, 1]"),
            check_ops.assert_less_equal(predictions, math_ops.cast(1.0, predictions.dtype),
                                        message="predictions must be in [0, 1]")]):
        predictions, labels, weights = _remove_squeezable_dimensions(
            math_ops.cast(predictions, dtypes.float32), math_ops.cast(labels, dtypes.bool_), weights)
    num_thresholds = len(thresholds)
    predictions_2d = array_ops.reshape(predictions, [-1, 1])
    labels_2d = array_ops.reshape(math_ops.cast(labels, dtypes.bool_), [1, -1])
    num_predictions = predictions_2d.shape.as_list()[0]
    if num_predictions is None:
        num_predictions = core_ops.shape(predictions_2d)[0]
    thresh_tiled = array_ops.tile(array_ops.expand_dims(ops.convert_to_tensor(
        np.asarray(thresholds, dtype=np.float32)), [1]), array_ops.stack([1, num_predictions]))
    pred_is_pos = math_ops.greater(array_ops.tile(array_ops.transpose(predictions_2d), [num_thresholds, 1]),
                                   thresh_tiled)
    pred_is_neg = math_ops.logical_not(pred_is_pos)
    label_is_pos = array_ops.tile(labels_2d, [num_thresholds, 1])
    label_is_neg = math_ops.logical_not(label_is_pos)
    weights_tiled = None
    if weights is not None:
        weights = _broadcast_weights(math_ops.cast(weights, dtypes.float32), predictions)
        weights_tiled = array_ops.tile(array_ops.reshape(weights, [1, -1]), [num_thresholds, 1])
        thresh_tiled.shape.assert_is_compatible_with(weights_tiled.shape)
    cases = {"tp": (label_is_pos, pred_is_pos), "fn": (label_is_pos, pred_is_neg),
             "tn": (label_is_neg, pred_is_neg), "fp": (label_is_neg, pred_is_pos)}
    values, update_ops = {}, {}
    for key in all_includes:
        if key not in includes:
            continue
        var = metric_variable([num_thresholds], dtypes.float32, name=_CONFUSION_NAMES[key])
        is_case = math_ops.cast(math_ops.logical_and(*cases[key]), dtypes.float32)
        if weights_tiled is not None:
            is_case = is_case * weights_tiled
        update_ops[key] = state_ops.assign_add(var, math_ops.reduce_sum(is_case, 1))
        values[key] = var
    return values, update_ops


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None, updates_collections=None,
        curve="ROC", name=None, summation_method="trapezoidal", thresholds=None):
    """The approximate area under the ROC or precision-recall curve, a Riemann sum over thresholds.

    Creates the local variables `true_positives`, `false_negatives`, `true_negatives` and
    `false_positives` of shape `[num_thresholds]`, counted at the thresholds
    `[-1e-7, 1/(n-1), ..., (n-2)/(n-1), 1 + 1e-7]` (or `[-1e-7] + sorted(thresholds) + [1 + 1e-7]`).

    Args:
      labels: The ground truth, cast to bool; shape matching `predictions`.
      predictions: Floats in [0, 1] (checked at run time).
      weights: Optional `Tensor` of rank 0 or the rank of `labels`, broadcastable to it.
      num_thresholds: The number of thresholds.
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      curve: "ROC" or "PR".
      name: Variable scope name (default "auc").
      summation_method: "trapezoidal", "careful_interpolation" (Davis & Goadrich's interpolation
        for PR), "minoring" or "majoring".
      thresholds: Optional explicit thresholds in [0, 1] (then `num_thresholds` is ignored).

    Returns:
      `(auc, update_op)`: float32 scalars.

    Raises:
      ValueError: If `curve` or `summation_method` is invalid, or the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("auc")
    from .. import tf_logging as logging
    with vs.variable_scope(name, "auc", (labels, predictions, weights)):
        if curve != "ROC" and curve != "PR":
            raise ValueError("curve must be either ROC or PR, %s unknown" % curve)
        kepsilon = 1e-7
        if thresholds is not None:
            thresholds = sorted(thresholds)
            num_thresholds = len(thresholds) + 2
        else:
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        thresholds = [0.0 - kepsilon] + list(thresholds) + [1.0 + kepsilon]
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights)
        epsilon = 1.0e-6
        n = num_thresholds

        def interpolate_pr_auc(tp, fp, fn):
            dtp = tp[:n - 1] - tp[1:]
            p = tp + fp
            prec_slope = math_ops.div_no_nan(dtp, math_ops.maximum(p[:n - 1] - p[1:], 0.0), name="prec_slope")
            intercept = tp[1:] - math_ops.multiply(prec_slope, p[1:])
            safe_p_ratio = array_ops.where(
                math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
                math_ops.div_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0.0), name="recall_relative_ratio"),
                core_ops.ones_like(p[1:]))
            return math_ops.reduce_sum(
                math_ops.div_no_nan(prec_slope * (dtp + intercept * math_ops.log(safe_p_ratio)),
                                    math_ops.maximum(tp[1:] + fn[1:], 0.0), name="pr_auc_increment"),
                name="interpolate_pr_auc")

        def compute_auc(tp, fn, tn, fp, name):
            if curve == "PR":
                if summation_method == "trapezoidal":
                    logging.warning("Trapezoidal rule is known to produce incorrect PR-AUCs; please switch to "
                                    "\"careful_interpolation\" instead.")
                elif summation_method == "careful_interpolation":
                    return interpolate_pr_auc(tp, fp, fn)
            rec = math_ops.divide(tp + epsilon, tp + fn + epsilon)
            if curve == "ROC":
                x = math_ops.divide(fp, fp + tn + epsilon)
                y = rec
            else:
                x = rec
                y = math_ops.divide(tp + epsilon, tp + fp + epsilon)
            if summation_method in ("trapezoidal", "careful_interpolation"):
                heights = (y[:n - 1] + y[1:]) / 2.0
            elif summation_method == "minoring":
                heights = math_ops.minimum(y[:n - 1], y[1:])
            elif summation_method == "majoring":
                heights = math_ops.maximum(y[:n - 1], y[1:])
            else:
                raise ValueError("Invalid summation_method: %s" % summation_method)
            return math_ops.reduce_sum(math_ops.multiply(x[:n - 1] - x[1:], heights), name=name)

        auc_value = compute_auc(values["tp"], values["fn"], values["tn"], values["fp"], "value")
        update_op = compute_auc(update_ops["tp"], update_ops["fn"], update_ops["tn"], update_ops["fp"], "update_op")
        _add_to_collections(metrics_collections, auc_value)
        _add_to_collections(updates_collections, update_op)
        return auc_value, update_op


def _make_at_thresholds_metric(metric_name, key):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None, updates_collections=None,
               name=None):
        _check_graph_mode(metric_name)
        with vs.variable_scope(name, metric_name, (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights,
                                                                 includes=(key,))
            value = core_ops.identity(values[key])
            _add_to_collections(metrics_collections, value)
            _add_to_collections(updates_collections, update_ops[key])
            return value, update_ops[key]
    metric.__name__ = metric_name
    metric.__doc__ = """The weighted number of %s at each of `thresholds` (prediction > threshold is positive).

    Returns:
      `(value, update_op)`: float32 tensors of shape `[len(thresholds)]`.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """ % _CONFUSION_NAMES[key].replace("_", " ")
    return metric


true_positives_at_thresholds = _make_at_thresholds_metric("true_positives_at_thresholds", "tp")
false_positives_at_thresholds = _make_at_thresholds_metric("false_positives_at_thresholds", "fp")
false_negatives_at_thresholds = _make_at_thresholds_metric("false_negatives_at_thresholds", "fn")
true_negatives_at_thresholds = _make_at_thresholds_metric("true_negatives_at_thresholds", "tn")


def _ratio_at_thresholds(metric_name, other_key, labels, predictions, thresholds, weights, metrics_collections,
                         updates_collections, name):
    _check_graph_mode(metric_name)
    with vs.variable_scope(name, metric_name, (predictions, labels, weights)):
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights,
                                                             includes=("tp", other_key))
        epsilon = 1e-7
        value = math_ops.divide(values["tp"], epsilon + values["tp"] + values[other_key], name="value")
        update_op = math_ops.divide(update_ops["tp"], epsilon + update_ops["tp"] + update_ops[other_key],
                                    name="update_op")
        _add_to_collections(metrics_collections, value)
        _add_to_collections(updates_collections, update_op)
        return value, update_op


def precision_at_thresholds(labels, predictions, thresholds, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """Precision `tp / (tp + fp + 1e-7)` at each of `thresholds`.

    Returns:
      `(precision, update_op)`: float32 tensors of shape `[len(thresholds)]`.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    return _ratio_at_thresholds("precision_at_thresholds", "fp", labels, predictions, thresholds, weights,
                                metrics_collections, updates_collections, name)


def recall_at_thresholds(labels, predictions, thresholds, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """Recall `tp / (tp + fn + 1e-7)` at each of `thresholds`.

    Returns:
      `(recall, update_op)`: float32 tensors of shape `[len(thresholds)]`.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    return _ratio_at_thresholds("recall_at_thresholds", "fn", labels, predictions, thresholds, weights,
                                metrics_collections, updates_collections, name)


# ---- confusion-matrix metrics ----------------------------------------------------------------------
def _flatten(t):
    return array_ops.reshape(t, [-1]) if t.shape.ndims is None or t.shape.ndims > 1 else t


def _confusion_matrix(labels, predictions, num_classes, weights, dtype):
    """cm[i, j] = total weight of examples with label i predicted as j (labels, predictions in [0, n))."""
    checks = [check_ops.assert_non_negative(labels, message="`labels` contains negative values"),
              check_ops.assert_non_negative(predictions, message="`predictions` contains negative values"),
              check_ops.assert_less(labels, math_ops.cast(num_classes, labels.dtype),
                                    message="`labels` out of bound"),
              check_ops.assert_less(predictions, math_ops.cast(num_classes, predictions.dtype),
                                    message="`predictions` out of bound")]
    with ops.control_dependencies(checks):
        label_rows = array_ops.one_hot(labels, num_classes, dtype=dtype)
    pred_rows = array_ops.one_hot(predictions, num_classes, dtype=dtype)
    if weights is not None:
        label_rows = label_rows * array_ops.expand_dims(math_ops.cast(weights, dtype), 1)
    return math_ops.matmul(label_rows, pred_rows, transpose_a=True)


def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None, updates_collections=None,
             name=None):
    """The mean intersection-over-union over the classes that occur (in labels or predictions).

    IoU of class c = cm[c, c] / (sum of row c + sum of column c - cm[c, c]) with `cm` the streaming
    confusion matrix (labels as rows), accumulated in the float64 local variable
    `total_confusion_matrix`. Labels, predictions and weights are flattened.

    Args:
      labels: Integer class ids, shape matching `predictions`.
      predictions: Integer class ids in [0, num_classes).
      num_classes: The number of classes.
      weights: Optional weights broadcastable to `labels`.
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Variable scope name (default "mean_iou").

    Returns:
      `(mean_iou, update_op)`: a float32 scalar, and the op updating the confusion matrix (whose
      value is the float64 `[num_classes, num_classes]` matrix, as in TF).

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("mean_iou")
    with vs.variable_scope(name, "mean_iou", (predictions, labels, weights)):
        predictions = ops.convert_to_tensor(predictions)
        labels = ops.convert_to_tensor(labels)
        predictions.shape.assert_is_compatible_with(labels.shape)
        total_cm = metric_variable([num_classes, num_classes], dtypes.float64, name="total_confusion_matrix")
        predictions = _flatten(math_ops.cast(predictions, dtypes.int64))
        labels = _flatten(math_ops.cast(labels, dtypes.int64))
        if weights is not None:
            weights = ops.convert_to_tensor(weights)
            if weights.shape.ndims != 0:
                weights = _flatten(weights)
            weights = _broadcast_weights(math_ops.cast(weights, dtypes.float64),
                                         math_ops.cast(labels, dtypes.float64))
        current_cm = _confusion_matrix(labels, predictions, num_classes, weights, dtypes.float64)
        update_op = state_ops.assign_add(total_cm, current_cm)
        sum_over_row = math_ops.cast(math_ops.reduce_sum(total_cm, 0), dtypes.float32)
        sum_over_col = math_ops.cast(math_ops.reduce_sum(total_cm, 1), dtypes.float32)
        cm_diag = math_ops.cast(math_ops.reduce_sum(total_cm * np.eye(num_classes), 1), dtypes.float32)
        denominator = sum_over_row + sum_over_col - cm_diag
        num_valid_entries = math_ops.reduce_sum(math_ops.cast(math_ops.not_equal(denominator, 0.0), dtypes.float32))
        denominator = array_ops.where(math_ops.greater(denominator, 0.0), denominator,
                                      core_ops.ones_like(denominator))
        iou = math_ops.divide(cm_diag, denominator)
        mean_iou_v = array_ops.where(math_ops.greater(num_valid_entries, 0.0),
                                     math_ops.reduce_sum(iou, name="mean_iou") / num_valid_entries, 0.0)
        _add_to_collections(metrics_collections, mean_iou_v)
        _add_to_collections(updates_collections, update_op)
        return mean_iou_v, update_op


def mean_per_class_accuracy(labels, predictions, num_classes, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """The mean over classes of the per-class accuracy (correct / total for each label class).

    Creates the local variables `total` and `count` of shape `[num_classes]`.

    Returns:
      `(mean_accuracy, update_op)`: a float32 scalar, and the op returning the per-class accuracies.

    Raises:
      ValueError: If the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("mean_per_class_accuracy")
    with vs.variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = _flatten(math_ops.cast(labels, dtypes.int64))
        predictions = _flatten(ops.convert_to_tensor(predictions))
        predictions.shape.assert_is_compatible_with(labels.shape)
        total = metric_variable([num_classes], dtypes.float32, name="total")
        count = metric_variable([num_classes], dtypes.float32, name="count")
        ones = core_ops.ones_like(labels, dtype=dtypes.float32)
        if labels.dtype is not predictions.dtype:
            predictions = math_ops.cast(predictions, labels.dtype)
        is_correct = math_ops.cast(math_ops.equal(predictions, labels), dtypes.float32)
        if weights is not None:
            weights = _flatten(math_ops.cast(weights, dtypes.float32))
            is_correct = is_correct * weights
            ones = ones * weights
        label_rows = array_ops.one_hot(labels, num_classes, dtype=dtypes.float32)
        per_label_total = math_ops.reduce_sum(label_rows * array_ops.expand_dims(ones, 1), 0)
        per_label_correct = math_ops.reduce_sum(label_rows * array_ops.expand_dims(is_correct, 1), 0)
        update_total_op = state_ops.assign_add(total, per_label_total)
        update_count_op = state_ops.assign_add(count, per_label_correct)
        per_class = math_ops.div_no_nan(count, math_ops.maximum(total, 0.0))
        mean_accuracy_v = math_ops.reduce_mean(per_class, name="mean_accuracy")
        update_op = math_ops.div_no_nan(update_count_op, math_ops.maximum(update_total_op, 0.0), name="update_op")
        _add_to_collections(metrics_collections, mean_accuracy_v)
        _add_to_collections(updates_collections, update_op)
        return mean_accuracy_v, update_op
