"""`tf.contrib.metrics` streaming metrics (= `tf.contrib.slim.metrics`), as TF 1.15: each
`streaming_*` is the `tf.metrics` function of the same quantity with TF1 contrib's argument order
(`predictions` before `labels`), returning `(value_tensor, update_op)` over local variables; the
contrib-only metrics (`streaming_concat`, `streaming_covariance`, `streaming_dynamic_auc`,
`cohen_kappa`, `f1_score`, `auc_using_histogram`, ...) and the `set_*` ops complete TF 1.15's
documented list (`__all__`). Helper modules are imported under private names so that the namespace
holds only that list."""

from ...framework import dtypes as _dtypes

__all__ = ["aggregate_metric_map", "aggregate_metrics", "streaming_accuracy", "streaming_auc",
           "streaming_false_negatives", "streaming_false_positives", "streaming_mean", "streaming_mean_absolute_error",
           "streaming_mean_cosine_distance", "streaming_mean_iou", "streaming_mean_relative_error",
           "streaming_mean_squared_error", "streaming_mean_tensor", "streaming_percentage_less",
           "streaming_precision", "streaming_precision_at_thresholds", "streaming_recall", "streaming_recall_at_k",
           "streaming_recall_at_thresholds", "streaming_root_mean_squared_error",
           "streaming_sensitivity_at_specificity", "streaming_sparse_precision_at_k", "streaming_sparse_recall_at_k",
           "streaming_specificity_at_sensitivity", "streaming_true_negatives", "streaming_true_positives"]


def _metrics():
    from ... import metrics
    return metrics


_COMMON_DOC = """
    Args:
      predictions: The predicted values, a `Tensor` (see `tf.metrics.{tf}`).
      labels: The ground truth values, a `Tensor` whose dimensions match `predictions`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      metrics_collections: An optional list of collections that the metric value should be added
        to.
      updates_collections: An optional list of collections that the update op should be added to.
      name: An optional variable_scope name.

    Returns:
      value: The metric's current value (a `Tensor`).
      update_op: An operation that accumulates the batch's statistics and returns the value.

    Raises:
      ValueError: If `predictions` and `labels` have mismatched shapes, or if `weights` is not
        `None` and its shape doesn't match `predictions`, or if either `metrics_collections` or
        `updates_collections` are not a list or tuple.
    """


def _pred_label_metric(tf_name, summary):
    def metric(predictions, labels, weights=None, metrics_collections=None, updates_collections=None, name=None):
        return getattr(_metrics(), tf_name)(labels=labels, predictions=predictions, weights=weights,
                                            metrics_collections=metrics_collections,
                                            updates_collections=updates_collections, name=name)

    metric.__name__ = metric.__qualname__ = "streaming_" + tf_name
    metric.__doc__ = summary + "\n" + _COMMON_DOC.replace("{tf}", tf_name)
    return metric


streaming_accuracy = _pred_label_metric("accuracy", "Calculates how often `predictions` matches `labels`.")
streaming_precision = _pred_label_metric(
    "precision", "Computes the precision of the predictions with respect to the labels.")
streaming_recall = _pred_label_metric("recall", "Computes the recall of the predictions with respect to the labels.")
streaming_true_positives = _pred_label_metric("true_positives", "Sum the weights of true positives.")
streaming_true_negatives = _pred_label_metric("true_negatives", "Sum the weights of true negatives.")
streaming_false_positives = _pred_label_metric("false_positives", "Sum the weights of false positives.")
streaming_false_negatives = _pred_label_metric("false_negatives", "Sum the weights of false negatives.")
streaming_mean_absolute_error = _pred_label_metric(
    "mean_absolute_error", "Computes the mean absolute error between the labels and predictions.")
streaming_mean_squared_error = _pred_label_metric(
    "mean_squared_error", "Computes the mean squared error between the labels and predictions.")
streaming_root_mean_squared_error = _pred_label_metric(
    "root_mean_squared_error", "Computes the root mean squared error between the labels and predictions.")


def streaming_mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """Computes the (weighted) mean of the given values (`tf.metrics.mean`).

    Args:
      values: A `Tensor` of arbitrary dimensions.
      weights: `Tensor` whose rank is either 0, or the same rank as `values`, and must be
        broadcastable to `values`.
      metrics_collections: An optional list of collections that `mean` should be added to.
      updates_collections: An optional list of collections that `update_op` should be added to.
      name: An optional variable_scope name.

    Returns:
      mean: A `Tensor` representing the current mean, the value of `total` divided by `count`.
      update_op: An operation that increments the `total` and `count` variables appropriately and
        whose value matches `mean`.

    Raises:
      ValueError: If `weights` is not `None` and its shape doesn't match `values`, or if either
        `metrics_collections` or `updates_collections` are not a list or tuple.
    """
    return _metrics().mean(values, weights=weights, metrics_collections=metrics_collections,
                           updates_collections=updates_collections, name=name)


def streaming_mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """Computes the element-wise (weighted) mean of the given tensors (`tf.metrics.mean_tensor`).

    Args:
      values: A `Tensor` of arbitrary dimensions.
      weights: `Tensor` whose rank is either 0, or the same rank as `values`, and must be
        broadcastable to `values`.
      metrics_collections: An optional list of collections that `mean` should be added to.
      updates_collections: An optional list of collections that `update_op` should be added to.
      name: An optional variable_scope name.

    Returns:
      mean: A float `Tensor` representing the current mean, the value of `total` divided by `count`.
      update_op: An operation that increments the `total` and `count` variables appropriately and
        whose value matches `mean`.

    Raises:
      ValueError: If `weights` is not `None` and its shape doesn't match `values`.
    """
    return _metrics().mean_tensor(values, weights=weights, metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=name)


def streaming_auc(predictions, labels, weights=None, num_thresholds=200, metrics_collections=None,
                  updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal"):
    """Computes the approximate AUC via a Riemann sum (`tf.metrics.auc`).

    Args:
      predictions: A floating point `Tensor` of arbitrary shape and whose values are in the range
        `[0, 1]`.
      labels: A `bool` `Tensor` whose shape matches `predictions`.
      weights: `Tensor` whose rank is either 0, or the same rank as `labels`.
      num_thresholds: The number of thresholds to use when discretizing the roc curve.
      metrics_collections: An optional list of collections that `auc` should be added to.
      updates_collections: An optional list of collections that `update_op` should be added to.
      curve: Specifies the name of the curve to be computed, 'ROC' [default] or 'PR' for the
        Precision-Recall-curve.
      name: An optional variable_scope name.
      summation_method: 'trapezoidal', 'careful_interpolation', 'minoring' or 'majoring'.

    Returns:
      auc: A scalar `Tensor` representing the current area-under-curve.
      update_op: An operation that increments the accumulators and whose value matches `auc`.

    Raises:
      ValueError: If `predictions` and `labels` have mismatched shapes, or if `weights` is not
        `None` and its shape doesn't match `predictions`.
    """
    return _metrics().auc(labels=labels, predictions=predictions, weights=weights, num_thresholds=num_thresholds,
                          metrics_collections=metrics_collections, updates_collections=updates_collections,
                          curve=curve, name=name, summation_method=summation_method)


def streaming_mean_relative_error(predictions, labels, normalizer, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """Computes the mean relative error `|predictions - labels| / normalizer`
    (`tf.metrics.mean_relative_error`).

    Args:
      predictions: A `Tensor` of arbitrary shape.
      labels: A `Tensor` of the same shape as `predictions`.
      normalizer: A `Tensor` of the same shape as `predictions`.
      weights: Optional `Tensor` indicating the frequency with which an example is sampled.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: An optional variable_scope name.

    Returns:
      mean_relative_error: A `Tensor` representing the current mean.
      update_op: An operation that increments the accumulators and whose value matches the mean.

    Raises:
      ValueError: If the shapes mismatch.
    """
    return _metrics().mean_relative_error(labels=labels, predictions=predictions, normalizer=normalizer,
                                          weights=weights, metrics_collections=metrics_collections,
                                          updates_collections=updates_collections, name=name)


def streaming_mean_cosine_distance(predictions, labels, dim, weights=None, metrics_collections=None,
                                   updates_collections=None, name=None):
    """Computes the cosine distance between the labels and predictions
    (`tf.metrics.mean_cosine_distance`).

    Args:
      predictions: A `Tensor` of the same shape as `labels`.
      labels: A `Tensor` of arbitrary shape (unit-normalized along `dim`).
      dim: The dimension along which the cosine distance is computed.
      weights: An optional `Tensor` whose shape is broadcastable to `predictions`.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: An optional variable_scope name.

    Returns:
      mean_distance: A `Tensor` representing the current mean.
      update_op: An operation that increments the accumulators and whose value matches it.

    Raises:
      ValueError: If the shapes mismatch.
    """
    return _metrics().mean_cosine_distance(labels, predictions, dim, weights=weights,
                                           metrics_collections=metrics_collections,
                                           updates_collections=updates_collections, name=name)


def streaming_mean_iou(predictions, labels, num_classes, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    """Calculate per-step mean Intersection-Over-Union (`tf.metrics.mean_iou`).

    Args:
      predictions: A `Tensor` of prediction results for semantic labels.
      labels: A `Tensor` of ground truth labels with shape [batch size] and of type `int32` or
        `int64`.
      num_classes: The possible number of labels the prediction task can have.
      weights: An optional `Tensor` whose shape is broadcastable to `predictions`.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: An optional variable_scope name.

    Returns:
      mean_iou: A `Tensor` representing the mean intersection-over-union.
      update_op: An operation that increments the confusion matrix.

    Raises:
      ValueError: If the shapes mismatch.
    """
    return _metrics().mean_iou(labels, predictions, num_classes, weights=weights,
                               metrics_collections=metrics_collections, updates_collections=updates_collections,
                               name=name)


def streaming_percentage_less(values, threshold, weights=None, metrics_collections=None, updates_collections=None,
                              name=None):
    """Computes the percentage of values less than the given threshold (`tf.metrics.percentage_below`).

    Args:
      values: A numeric `Tensor` of arbitrary size.
      threshold: A scalar threshold.
      weights: An optional `Tensor` whose shape is broadcastable to `values`.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: An optional variable_scope name.

    Returns:
      percentage: A `Tensor` representing the current mean.
      update_op: An operation that increments the accumulators.

    Raises:
      ValueError: If `weights` is not `None` and its shape doesn't match `values`.
    """
    return _metrics().percentage_below(values, threshold, weights=weights, metrics_collections=metrics_collections,
                                       updates_collections=updates_collections, name=name)


def streaming_precision_at_thresholds(predictions, labels, thresholds, weights=None, metrics_collections=None,
                                      updates_collections=None, name=None):
    """Computes precision values for different `thresholds` on `predictions`
    (`tf.metrics.precision_at_thresholds`).

    Args:
      predictions: A floating point `Tensor` of arbitrary shape and whose values are in `[0, 1]`.
      labels: A `bool` `Tensor` whose shape matches `predictions`.
      thresholds: A python list or tuple of float thresholds in `[0, 1]`.
      weights: `Tensor` whose rank is either 0, or the same rank as `labels`.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: An optional variable_scope name.

    Returns:
      precision: A float `Tensor` of shape `[len(thresholds)]`.
      update_op: An operation that increments the accumulators.

    Raises:
      ValueError: If the shapes mismatch.
    """
    return _metrics().precision_at_thresholds(labels, predictions, thresholds, weights=weights,
                                              metrics_collections=metrics_collections,
                                              updates_collections=updates_collections, name=name)


def streaming_recall_at_thresholds(predictions, labels, thresholds, weights=None, metrics_collections=None,
                                   updates_collections=None, name=None):
    """Computes various recall values for different `thresholds` on `predictions`
    (`tf.metrics.recall_at_thresholds`).

    Args:
      predictions: A floating point `Tensor` of arbitrary shape and whose values are in `[0, 1]`.
      labels: A `bool` `Tensor` whose shape matches `predictions`.
      thresholds: A python list or tuple of float thresholds in `[0, 1]`.
      weights: `Tensor` whose rank is either 0, or the same rank as `labels`.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: An optional variable_scope name.

    Returns:
      recall: A float `Tensor` of shape `[len(thresholds)]`.
      update_op: An operation that increments the accumulators.

    Raises:
      ValueError: If the shapes mismatch.
    """
    return _metrics().recall_at_thresholds(labels, predictions, thresholds, weights=weights,
                                           metrics_collections=metrics_collections,
                                           updates_collections=updates_collections, name=name)


def streaming_sensitivity_at_specificity(predictions, labels, specificity, weights=None, num_thresholds=200,
                                         metrics_collections=None, updates_collections=None, name=None):
    """Computes the sensitivity at a given specificity (`tf.metrics.sensitivity_at_specificity`).

    Args:
      predictions: A floating point `Tensor` of arbitrary shape and whose values are in `[0, 1]`.
      labels: A `bool` `Tensor` whose shape matches `predictions`.
      specificity: A scalar value in range `[0, 1]`.
      weights: `Tensor` whose rank is either 0, or the same rank as `labels`.
      num_thresholds: The number of thresholds to use for matching the given specificity.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: An optional variable_scope name.

    Returns:
      sensitivity: A scalar `Tensor`.
      update_op: An operation that increments the accumulators.

    Raises:
      ValueError: If the shapes mismatch or `specificity` is not in [0, 1].
    """
    return _metrics().sensitivity_at_specificity(labels, predictions, specificity, weights=weights,
                                                 num_thresholds=num_thresholds,
                                                 metrics_collections=metrics_collections,
                                                 updates_collections=updates_collections, name=name)


def streaming_specificity_at_sensitivity(predictions, labels, sensitivity, weights=None, num_thresholds=200,
                                         metrics_collections=None, updates_collections=None, name=None):
    """Computes the specificity at a given sensitivity (`tf.metrics.specificity_at_sensitivity`).

    Args:
      predictions: A floating point `Tensor` of arbitrary shape and whose values are in `[0, 1]`.
      labels: A `bool` `Tensor` whose shape matches `predictions`.
      sensitivity: A scalar value in range `[0, 1]`.
      weights: `Tensor` whose rank is either 0, or the same rank as `labels`.
      num_thresholds: The number of thresholds to use for matching the given sensitivity.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: An optional variable_scope name.

    Returns:
      specificity: A scalar `Tensor`.
      update_op: An operation that increments the accumulators.

    Raises:
      ValueError: If the shapes mismatch or `sensitivity` is not in [0, 1].
    """
    return _metrics().specificity_at_sensitivity(labels, predictions, sensitivity, weights=weights,
                                                 num_thresholds=num_thresholds,
                                                 metrics_collections=metrics_collections,
                                                 updates_collections=updates_collections, name=name)


def streaming_recall_at_k(predictions, labels, k, weights=None, metrics_collections=None, updates_collections=None,
                          name=None):
    """Computes the recall@k of the predictions with respect to dense labels: the (weighted) mean
    of `tf.nn.in_top_k(predictions, labels, k)`.

    Args:
      predictions: A float `Tensor` of dimension [batch_size, num_classes].
      labels: A `Tensor` of dimension [batch_size] whose type is in `int32`, `int64`.
      k: The number of top elements to look at for computing recall.
      weights: `Tensor` whose rank is either 0, or the same rank as `labels`.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: An optional variable_scope name.

    Returns:
      recall_at_k: A `Tensor` representing the recall@k.
      update_op: An operation that increments the accumulators.

    Raises:
      ValueError: If the shapes mismatch.
    """
    from ... import nn
    from ...ops import math_ops
    in_top_k = math_ops.cast(nn.in_top_k(predictions, labels, k), _dtypes.float32)
    return streaming_mean(in_top_k, weights, metrics_collections, updates_collections, name or "recall_at_%d" % k)


def streaming_sparse_precision_at_k(predictions, labels, k, class_id=None, weights=None, metrics_collections=None,
                                    updates_collections=None, name=None):
    """Computes precision@k of the predictions with respect to sparse labels
    (`tf.metrics.precision_at_k`).

    Args:
      predictions: Float `Tensor` with shape [D1, ... DN, num_classes].
      labels: `int64` `Tensor` or `SparseTensor` with shape [D1, ... DN, num_labels] or
        [D1, ... DN].
      k: Integer, k for @k metric.
      class_id: Integer class ID for which we want binary metrics.
      weights: `Tensor` whose rank is either 0, or n-1.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: Name of new update operation, and namespace for other dependent ops.

    Returns:
      precision: Scalar `float64` `Tensor`.
      update_op: `Operation` that increments the accumulators.

    Raises:
      ValueError: If the shapes mismatch.
    """
    return _metrics().precision_at_k(labels, predictions, k, class_id=class_id, weights=weights,
                                     metrics_collections=metrics_collections,
                                     updates_collections=updates_collections, name=name)


def streaming_sparse_recall_at_k(predictions, labels, k, class_id=None, weights=None, metrics_collections=None,
                                 updates_collections=None, name=None):
    """Computes recall@k of the predictions with respect to sparse labels (`tf.metrics.recall_at_k`).

    Args:
      predictions: Float `Tensor` with shape [D1, ... DN, num_classes].
      labels: `int64` `Tensor` or `SparseTensor` with shape [D1, ... DN, num_labels] or
        [D1, ... DN].
      k: Integer, k for @k metric.
      class_id: Integer class ID for which we want binary metrics.
      weights: `Tensor` whose rank is either 0, or n-1.
      metrics_collections: An optional list of collections for the value.
      updates_collections: An optional list of collections for the update op.
      name: Name of new update operation, and namespace for other dependent ops.

    Returns:
      recall: Scalar `float64` `Tensor`.
      update_op: `Operation` that increments the accumulators.

    Raises:
      ValueError: If the shapes mismatch.
    """
    return _metrics().recall_at_k(labels, predictions, k, class_id=class_id, weights=weights,
                                  metrics_collections=metrics_collections, updates_collections=updates_collections,
                                  name=name)


def aggregate_metrics(*value_update_tuples):
    """Aggregates the metric value tensors and update ops into two lists.

    Args:
      *value_update_tuples: a variable number of tuples, each of which contain the pair of
        (value_tensor, update_op) from a streaming metric.

    Returns:
      A list of value `Tensor` objects and a list of update ops.

    Raises:
      ValueError: if `value_update_tuples` is empty.
    """
    if not value_update_tuples:
        raise ValueError("Expected at least one value_tensor/update_op pair")
    value_ops, update_ops = zip(*value_update_tuples)
    return list(value_ops), list(update_ops)


def aggregate_metric_map(names_to_tuples):
    """Aggregates the metric names to tuple dictionary into two dictionaries.

    Args:
      names_to_tuples: a map of metric names to tuples, each of which contain the pair of
        (value_tensor, update_op) from a streaming metric.

    Returns:
      A dictionary from metric names to value ops and a dictionary from metric names to update
      ops.
    """
    metric_names = names_to_tuples.keys()
    value_ops, update_ops = zip(*names_to_tuples.values())
    return dict(zip(metric_names, value_ops)), dict(zip(metric_names, update_ops))


def accuracy(predictions, labels, weights=None, name=None):
    """Computes the percentage of times that predictions matches labels (not streaming): the
    (weighted) mean of `predictions == labels`.

    Args:
      predictions: the predicted values, a `Tensor` whose dtype and shape matches 'labels'.
      labels: the ground truth values, a `Tensor` of any shape and bool, integer, or string dtype.
      weights: None or `Tensor` of float values to reweight the accuracy.
      name: A name for the operation (optional).

    Returns:
      Accuracy `Tensor`.

    Raises:
      ValueError: if dtypes don't match or if dtype is not bool, integer, or string.
    """
    from ...framework import ops
    from ...ops import core_ops, math_ops
    predictions = ops.convert_to_tensor(predictions)
    labels = ops.convert_to_tensor(labels)
    if not (labels.dtype.is_integer or labels.dtype in (_dtypes.bool_, _dtypes.string)):
        raise ValueError("Labels should have bool, integer, or string dtype, not %r" % labels.dtype)
    if not labels.dtype.is_compatible_with(predictions.dtype):
        raise ValueError("Dtypes of predictions and labels should match. Given: predictions (%r) and labels (%r)"
                         % (predictions.dtype, labels.dtype))
    with ops.name_scope(name, "accuracy", values=[predictions, labels]):
        is_correct = math_ops.cast(math_ops.equal(predictions, labels), _dtypes.float32)
        if weights is not None:
            is_correct = math_ops.multiply(is_correct, weights)
            num_values = math_ops.multiply(weights, core_ops.ones_like(is_correct))
            return math_ops.divide(math_ops.reduce_sum(is_correct), math_ops.reduce_sum(num_values))
        return math_ops.reduce_mean(is_correct)


__all__ += ["accuracy"]


# ---- TF 1.15 contrib-only metrics ---------------------------------------------------------------------
_EPSILON = 1e-7


def _lib():
    """The lower-layer modules the contrib metrics are built from (imported on use: this module is
    loaded while `tensorweave.metrics` may still be initialising)."""
    from types import SimpleNamespace

    from ... import variable_scopes
    from ...framework import ops
    from ...metrics import metrics_at_k, metrics_impl
    from ...ops import array_ops, check_ops, control_flow_ops, core_ops, math_ops, state_ops
    return SimpleNamespace(vs=variable_scopes, ops=ops, impl=metrics_impl, at_k=metrics_at_k, array_ops=array_ops,
                           check_ops=check_ops, cf=control_flow_ops, core_ops=core_ops, math_ops=math_ops,
                           state_ops=state_ops)


def _add(collections, value):
    if collections:
        _lib().ops.add_to_collections(collections, value)


def _confusion_at_thresholds(predictions, labels, thresholds, weights=None, includes=None):
    """TF 1.15 contrib's `_streaming_confusion_matrix_at_thresholds`: float32 per-threshold counts
    (`tp[i]`: weight of positive labels whose prediction is above `thresholds[i]`, ...), without the
    `[0, 1]` range check of the core version.

    Returns:
      `(values, update_ops)`: dicts keyed by `includes` ("tp", "fn", "tn", "fp").

    Raises:
      ValueError: If `includes` has an invalid key or the shapes are incompatible.
    """
    import numpy as np
    lib = _lib()
    ao, mo = lib.array_ops, lib.math_ops
    all_includes = ("tp", "fn", "tn", "fp")
    includes = all_includes if includes is None else includes
    for key in includes:
        if key not in all_includes:
            raise ValueError("Invalid key: %s." % key)
    predictions, labels, weights = lib.impl._remove_squeezable_dimensions(predictions, labels, weights)
    predictions.shape.assert_is_compatible_with(labels.shape)
    num_thresholds = len(thresholds)
    predictions_2d = ao.reshape(mo.cast(predictions, _dtypes.float32), [-1, 1])
    labels_2d = ao.reshape(mo.cast(labels, _dtypes.bool_), [1, -1])
    num_predictions = predictions_2d.shape.as_list()[0]
    if num_predictions is None:
        num_predictions = lib.core_ops.shape(predictions_2d)[0]
    thresh_tiled = ao.tile(ao.expand_dims(lib.ops.convert_to_tensor(np.asarray(thresholds, np.float32)), [1]),
                           ao.stack([1, num_predictions]))
    pred_is_pos = mo.greater(ao.tile(ao.transpose(predictions_2d), [num_thresholds, 1]), thresh_tiled)
    pred_is_neg = mo.logical_not(pred_is_pos)
    label_is_pos = ao.tile(labels_2d, [num_thresholds, 1])
    label_is_neg = mo.logical_not(label_is_pos)
    weights_tiled = None
    if weights is not None:
        weights = lib.impl._broadcast_weights(mo.cast(weights, _dtypes.float32),
                                              mo.cast(predictions, _dtypes.float32))
        weights_tiled = ao.tile(ao.reshape(weights, [1, -1]), [num_thresholds, 1])
        thresh_tiled.shape.assert_is_compatible_with(weights_tiled.shape)
    cases = {"tp": (label_is_pos, pred_is_pos), "fn": (label_is_pos, pred_is_neg),
             "tn": (label_is_neg, pred_is_neg), "fp": (label_is_neg, pred_is_pos)}
    names = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives", "fp": "false_positives"}
    values, update_ops = {}, {}
    for key in all_includes:
        if key not in includes:
            continue
        var = lib.impl.metric_variable([num_thresholds], _dtypes.float32, name=names[key])
        is_case = mo.cast(mo.logical_and(*cases[key]), _dtypes.float32)
        if weights_tiled is not None:
            is_case = is_case * weights_tiled
        update_ops[key] = lib.state_ops.assign_add(var, mo.reduce_sum(is_case, 1))
        values[key] = var
    return values, update_ops


def _count_at_thresholds(key, doc_name):
    def metric(predictions, labels, thresholds, weights=None):
        values, update_ops = _confusion_at_thresholds(predictions, labels, thresholds, weights=weights,
                                                      includes=(key,))
        return values[key], update_ops[key]

    metric.__name__ = metric.__qualname__ = "streaming_%s_at_thresholds" % doc_name
    metric.__doc__ = """Sums the weights of the %s at each of `thresholds` (a prediction above a
    threshold counts as positive).

    Args:
      predictions: A floating point `Tensor` of arbitrary shape.
      labels: A `Tensor` whose shape matches `predictions`, cast to `bool`.
      thresholds: A python list or tuple of float thresholds.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.

    Returns:
      value: A float32 local variable of shape `[len(thresholds)]` holding the counts.
      update_op: An operation adding one batch to the counts and returning them.

    Raises:
      ValueError: If `predictions` and `labels` have mismatched shapes, or `weights` cannot be
        broadcast to them.
    """ % doc_name.replace("_", " ")
    return metric


streaming_true_positives_at_thresholds = _count_at_thresholds("tp", "true_positives")
streaming_false_negatives_at_thresholds = _count_at_thresholds("fn", "false_negatives")
streaming_false_positives_at_thresholds = _count_at_thresholds("fp", "false_positives")
streaming_true_negatives_at_thresholds = _count_at_thresholds("tn", "true_negatives")


def _rate(kind, predictions, labels, weights, metrics_collections, updates_collections, name):
    """false positive (kind "fpr": fp / (fp + tn)) or false negative ("fnr": fn / (fn + tp)) rate, 0
    while the denominator is 0."""
    lib = _lib()
    mo, ao = lib.math_ops, lib.array_ops
    scope = "false_positive_rate" if kind == "fpr" else "false_negative_rate"
    with lib.vs.variable_scope(name, scope, (predictions, labels, weights)):
        predictions, labels, weights = lib.impl._remove_squeezable_dimensions(
            mo.cast(predictions, _dtypes.bool_), mo.cast(labels, _dtypes.bool_), weights)
        m = _metrics()
        if kind == "fpr":
            num, num_update = m.false_positives(labels, predictions, weights)
            other, other_update = m.true_negatives(labels, predictions, weights)
        else:
            num, num_update = m.false_negatives(labels, predictions, weights)
            other, other_update = m.true_positives(labels, predictions, weights)

        def ratio(a, b, op_name):
            return ao.where(mo.greater(a + b, 0.0), mo.divide(a, a + b), 0.0, name=op_name)

        value = ratio(num, other, "value")
        update_op = ratio(num_update, other_update, "update_op")
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


def streaming_false_positive_rate(predictions, labels, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """Computes the false positive rate `fp / (fp + tn)` of `predictions` with respect to `labels`
    (both cast to bool; 0 while `fp + tn` is 0).

    Args:
      predictions: The predicted values, a `Tensor` of arbitrary dimensions, cast to `bool`.
      labels: The ground truth values, a `Tensor` whose dimensions match `predictions`, cast to `bool`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      metrics_collections: An optional list of collections the rate should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "false_positive_rate").

    Returns:
      false_positive_rate: Scalar float32 `Tensor`.
      update_op: An operation that increments the `false_positives` and `true_negatives` variables
        and whose value matches `false_positive_rate`.

    Raises:
      ValueError: If `predictions` and `labels` have mismatched shapes, or `weights` cannot be
        broadcast to them.
    """
    return _rate("fpr", predictions, labels, weights, metrics_collections, updates_collections, name)


def streaming_false_negative_rate(predictions, labels, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """Computes the false negative rate `fn / (fn + tp)` of `predictions` with respect to `labels`
    (both cast to bool; 0 while `fn + tp` is 0).

    Args:
      predictions: The predicted values, a `Tensor` of arbitrary dimensions, cast to `bool`.
      labels: The ground truth values, a `Tensor` whose dimensions match `predictions`, cast to `bool`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      metrics_collections: An optional list of collections the rate should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "false_negative_rate").

    Returns:
      false_negative_rate: Scalar float32 `Tensor`.
      update_op: An operation that increments the `false_negatives` and `true_positives` variables
        and whose value matches `false_negative_rate`.

    Raises:
      ValueError: If `predictions` and `labels` have mismatched shapes, or `weights` cannot be
        broadcast to them.
    """
    return _rate("fnr", predictions, labels, weights, metrics_collections, updates_collections, name)


def _rate_at_thresholds(kind, predictions, labels, thresholds, weights, metrics_collections, updates_collections,
                        name):
    lib = _lib()
    scope = "false_positive_rate_at_thresholds" if kind == "fpr" else "false_negative_rate_at_thresholds"
    keys = ("fp", "tn") if kind == "fpr" else ("fn", "tp")
    with lib.vs.variable_scope(name, scope, (predictions, labels, weights)):
        values, update_ops = _confusion_at_thresholds(predictions, labels, thresholds, weights, includes=keys)

        def rate(a, b, op_name):
            return lib.math_ops.divide(a, _EPSILON + a + b, name="%s_%s" % (kind, op_name))

        value = rate(values[keys[0]], values[keys[1]], "value")
        update_op = rate(update_ops[keys[0]], update_ops[keys[1]], "update_op")
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


def streaming_false_positive_rate_at_thresholds(predictions, labels, thresholds, weights=None,
                                                metrics_collections=None, updates_collections=None, name=None):
    """Computes the false positive rate `fp / (fp + tn + 1e-7)` at each of `thresholds`.

    Args:
      predictions: A floating point `Tensor` of arbitrary shape, values in `[0, 1]`.
      labels: A `Tensor` whose shape matches `predictions`, cast to `bool`.
      thresholds: A python list or tuple of float thresholds.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      metrics_collections: An optional list of collections the rates should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "false_positive_rate_at_thresholds").

    Returns:
      false_positive_rate: A float32 `Tensor` of shape `[len(thresholds)]`.
      update_op: An operation that increments the counts and whose value matches the rates.

    Raises:
      ValueError: If `predictions` and `labels` have mismatched shapes, or `weights` cannot be
        broadcast to them.
    """
    return _rate_at_thresholds("fpr", predictions, labels, thresholds, weights, metrics_collections,
                               updates_collections, name)


def streaming_false_negative_rate_at_thresholds(predictions, labels, thresholds, weights=None,
                                                metrics_collections=None, updates_collections=None, name=None):
    """Computes the false negative rate `fn / (fn + tp + 1e-7)` at each of `thresholds`.

    Args:
      predictions: A floating point `Tensor` of arbitrary shape, values in `[0, 1]`.
      labels: A `Tensor` whose shape matches `predictions`, cast to `bool`.
      thresholds: A python list or tuple of float thresholds.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      metrics_collections: An optional list of collections the rates should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "false_negative_rate_at_thresholds").

    Returns:
      false_negative_rate: A float32 `Tensor` of shape `[len(thresholds)]`.
      update_op: An operation that increments the counts and whose value matches the rates.

    Raises:
      ValueError: If `predictions` and `labels` have mismatched shapes, or `weights` cannot be
        broadcast to them.
    """
    return _rate_at_thresholds("fnr", predictions, labels, thresholds, weights, metrics_collections,
                               updates_collections, name)


def _curve_thresholds(num_thresholds):
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]


def streaming_curve_points(labels=None, predictions=None, weights=None, num_thresholds=200,
                           metrics_collections=None, updates_collections=None, curve="ROC", name=None):
    """Computes the points of the ROC or precision-recall curve at `num_thresholds` thresholds spread
    evenly over `[0, 1]` (the first just below 0, the last just above 1).

    ROC points are `(fp / (fp + tn + 1e-6), (tp + 1e-6) / (tp + fn + 1e-6))`; PR points are
    `(recall, precision)` with `(tp + 1e-6) / (tp + fn + 1e-6)` and `(tp + 1e-6) / (tp + fp + 1e-6)`.

    Args:
      labels: A `Tensor` whose shape matches `predictions`, cast to `bool`.
      predictions: A floating point `Tensor` of arbitrary shape, values in `[0, 1]`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      num_thresholds: The number of thresholds (points).
      metrics_collections: An optional list of collections the points should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      curve: 'ROC' (default) or 'PR'.
      name: An optional variable_scope name (default "curve_points").

    Returns:
      points: A float32 `Tensor` of shape `[num_thresholds, 2]`.
      update_op: An operation that increments the four count variables.

    Raises:
      ValueError: If `curve` is not 'ROC' or 'PR', or the shapes mismatch.
    """
    lib = _lib()
    mo = lib.math_ops
    with lib.vs.variable_scope(name, "curve_points", (labels, predictions, weights)):
        if curve != "ROC" and curve != "PR":
            raise ValueError("curve must be either ROC or PR, %s unknown" % (curve,))
        values, update_ops = _confusion_at_thresholds(predictions, labels, _curve_thresholds(num_thresholds),
                                                      weights)
        eps = 1.0e-6
        tp, fn, tn, fp = values["tp"], values["fn"], values["tn"], values["fp"]
        rec = mo.divide(tp + eps, tp + fn + eps)
        if curve == "ROC":
            xs, ys = mo.divide(fp, fp + tn + eps), rec
        else:
            xs, ys = rec, mo.divide(tp + eps, tp + fp + eps)
        points = lib.array_ops.stack([xs, ys], axis=1)
        update_op = lib.core_ops.group(*[update_ops[k] for k in ("tp", "fn", "tn", "fp")])
        _add(metrics_collections, points)
        _add(updates_collections, update_op)
        return points, update_op


def streaming_concat(values, axis=0, max_size=None, metrics_collections=None, updates_collections=None, name=None):
    """Concatenates `values` along `axis` across batches.

    Creates the local variables `array` (the values so far, concatenated along the first axis) and
    `size` (their number). Once `max_size` values are held, further values are dropped.

    Args:
      values: `Tensor` to concatenate. Its rank and its size along every axis but `axis` must be
        statically known.
      axis: Optional integer axis to concatenate along.
      max_size: Optional integer maximum size of the result along `axis`.
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "streaming_concat").

    Returns:
      value: A `Tensor` of the concatenated values.
      update_op: An operation that appends the batch and returns the new size along `axis` (int32).

    Raises:
      ValueError: If `values` has no static rank, `axis` is out of range, or another axis has no
        static size.
    """
    lib = _lib()
    ao, mo = lib.array_ops, lib.math_ops
    with lib.vs.variable_scope(name, "streaming_concat", (values,)):
        values = lib.ops.convert_to_tensor(values)
        if values.shape.ndims is None:
            raise ValueError("`values` must have known statically known rank")
        ndim = values.shape.ndims
        if axis < 0:
            axis += ndim
        if not 0 <= axis < ndim:
            raise ValueError("axis = %r not in [0, %r)" % (axis, ndim))
        dims = values.shape.as_list()
        fixed_shape = [d for n, d in enumerate(dims) if n != axis]
        if any(d is None for d in fixed_shape):
            raise ValueError("all dimensions of `values` other than the dimension to concatenate along must have "
                             "statically known size")
        array = lib.impl.metric_variable([0] + fixed_shape, values.dtype, validate_shape=False, name="array")
        size = lib.impl.metric_variable([], _dtypes.int32, name="size")
        to_front = [axis] + [n for n in range(ndim) if n != axis]
        back = [0 if n == axis else n + 1 if n < axis else n for n in range(ndim)]
        stored = lib.core_ops.identity(array)
        stored.set_shape([None] + fixed_shape)
        value = ao.transpose(stored[:size], back, name="concat")
        batch_values = ao.transpose(values, to_front)
        if max_size is not None:
            batch_size = mo.maximum(mo.minimum(lib.core_ops.shape(batch_values)[0], max_size - size), 0)
            batch_values = batch_values[:batch_size]
        append = lib.state_ops.assign(array, ao.concat([array, batch_values], 0), validate_shape=False)
        with lib.ops.control_dependencies([append]):
            update_op = lib.state_ops.assign(size, lib.core_ops.shape(append, out_type=_dtypes.int32)[0])
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


def streaming_covariance(predictions, labels, weights=None, metrics_collections=None, updates_collections=None,
                         name=None):
    """Computes the unbiased sample covariance between `predictions` and `labels` across batches.

    Creates the float32 local variables `count`, `mean_prediction`, `mean_label` and `comoment`; a
    batch `B` merges into the running state `A` by
    `C_AB = C_A + C_B + (E[x_A] - E[x_B]) * (E[y_A] - E[y_B]) * n_A * n_B / n_AB`, and the value is
    `comoment / (count - 1)` (NaN while `count <= 1`). `weights` are frequency weights.

    Args:
      predictions: A `Tensor` of arbitrary size.
      labels: A `Tensor` of the same size as `predictions`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "covariance").

    Returns:
      covariance: A float32 scalar `Tensor`, `comoment / (count - 1)`.
      update_op: An operation that updates the local variables and returns the new covariance.

    Raises:
      ValueError: If `labels` and `predictions` have incompatible shapes, or `weights` cannot be
        broadcast to them.
    """
    lib = _lib()
    mo, ao, so = lib.math_ops, lib.array_ops, lib.state_ops
    with lib.vs.variable_scope(name, "covariance", (predictions, labels, weights)):
        predictions, labels, weights = lib.impl._remove_squeezable_dimensions(predictions, labels, weights)
        predictions.shape.assert_is_compatible_with(labels.shape)
        predictions = mo.cast(predictions, _dtypes.float32)
        labels = mo.cast(labels, _dtypes.float32)
        count_ = lib.impl.metric_variable([], _dtypes.float32, name="count")
        mean_prediction = lib.impl.metric_variable([], _dtypes.float32, name="mean_prediction")
        mean_label = lib.impl.metric_variable([], _dtypes.float32, name="mean_label")
        comoment = lib.impl.metric_variable([], _dtypes.float32, name="comoment")
        if weights is None:
            batch_count = mo.cast(ao.size(labels), _dtypes.float32)
            weighted_predictions, weighted_labels = predictions, labels
        else:
            weights = lib.impl._broadcast_weights(mo.cast(weights, _dtypes.float32), labels)
            batch_count = mo.reduce_sum(weights)
            weighted_predictions = mo.multiply(predictions, weights)
            weighted_labels = mo.multiply(labels, weights)
        update_count = so.assign_add(count_, batch_count)
        prev_count = update_count - batch_count
        batch_mean_prediction = mo.div_no_nan(mo.reduce_sum(weighted_predictions), batch_count)
        delta_mean_prediction = mo.div_no_nan((batch_mean_prediction - mean_prediction) * batch_count, update_count)
        update_mean_prediction = so.assign_add(mean_prediction, delta_mean_prediction)
        prev_mean_prediction = update_mean_prediction - delta_mean_prediction
        batch_mean_label = mo.div_no_nan(mo.reduce_sum(weighted_labels), batch_count)
        delta_mean_label = mo.div_no_nan((batch_mean_label - mean_label) * batch_count, update_count)
        update_mean_label = so.assign_add(mean_label, delta_mean_label)
        prev_mean_label = update_mean_label - delta_mean_label
        coresiduals = (predictions - batch_mean_prediction) * (labels - batch_mean_label)
        batch_comoment = mo.reduce_sum(coresiduals if weights is None else coresiduals * weights)
        delta_comoment = batch_comoment + (prev_mean_prediction - batch_mean_prediction) * (
            prev_mean_label - batch_mean_label) * (prev_count * batch_count / update_count)
        update_comoment = so.assign_add(comoment, delta_comoment)

        def cov(n, c, op_name):
            return ao.where(mo.less_equal(n, 1.0), float("nan"), mo.truediv(c, n - 1), name=op_name)

        covariance = cov(count_, comoment, "covariance")
        # the updated values are the assign results (a variable read here could run before the updates)
        update_op = cov(update_count, update_comoment, "update_op")
    _add(metrics_collections, covariance)
    _add(updates_collections, update_op)
    return covariance, update_op


def streaming_pearson_correlation(predictions, labels, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """Computes the Pearson correlation `cov(p, l) / (sqrt(var(p)) * sqrt(var(l)))` across batches,
    from three `streaming_covariance` metrics (scopes `covariance`, `variance_predictions`,
    `variance_labels`). `weights` are frequency weights.

    Args:
      predictions: A `Tensor` of arbitrary size.
      labels: A `Tensor` of the same size as `predictions`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "pearson_r").

    Returns:
      pearson_r: A float32 scalar `Tensor`.
      update_op: An operation that updates the three covariances and returns the new correlation.

    Raises:
      ValueError: If `labels` and `predictions` have incompatible shapes, or `weights` cannot be
        broadcast to them.
    """
    lib = _lib()
    mo = lib.math_ops
    with lib.vs.variable_scope(name, "pearson_r", (predictions, labels, weights)):
        predictions, labels, weights = lib.impl._remove_squeezable_dimensions(predictions, labels, weights)
        predictions.shape.assert_is_compatible_with(labels.shape)
        if weights is not None:
            weights = lib.impl._broadcast_weights(mo.cast(weights, _dtypes.float32),
                                                  mo.cast(labels, _dtypes.float32))
        cov, update_cov = streaming_covariance(predictions, labels, weights=weights, name="covariance")
        var_p, update_var_p = streaming_covariance(predictions, predictions, weights=weights,
                                                   name="variance_predictions")
        var_l, update_var_l = streaming_covariance(labels, labels, weights=weights, name="variance_labels")
        pearson_r = mo.truediv(cov, mo.multiply(mo.sqrt(var_p), mo.sqrt(var_l)), name="pearson_r")
        update_op = mo.truediv(update_cov, mo.multiply(mo.sqrt(update_var_p), mo.sqrt(update_var_l)),
                               name="update_op")
    _add(metrics_collections, pearson_r)
    _add(updates_collections, update_op)
    return pearson_r, update_op


def _compute_dynamic_auc(labels, predictions, curve="ROC", weights=None):
    """The exact area under the ROC or PR curve of the 1-D int64 `labels` and float64 `predictions`,
    every distinct prediction a threshold (trapezoids; 0 when all labels are equal)."""
    lib = _lib()
    mo, ao, core = lib.math_ops, lib.array_ops, lib.core_ops
    from ...ops.array_select_ops import top_k
    from ...ops.math_sort_ops import unique_with_counts
    size = ao.size(predictions)
    if weights is None:
        weights = core.ones_like(labels, dtype=_dtypes.float64)
    total_weight = mo.reduce_sum(weights)
    zeros = core.zeros_like(weights)
    total_positive = mo.reduce_sum(ao.where(mo.greater(labels, 0), weights, zeros))

    def area():
        ordered_predictions, indices = top_k(predictions, k=size)
        ordered_labels = ao.gather(labels, indices)
        ordered_weights = ao.gather(weights, indices)
        _, _, counts = unique_with_counts(ordered_predictions)
        splits = mo.cast(ao.pad(mo.cumsum(counts), [[1, 0]]), _dtypes.int32)
        ozeros = core.zeros_like(ordered_weights)

        def cum_at_splits(x):
            return ao.gather(ao.pad(mo.cumsum(x), [[1, 0]]), splits)

        true_positives = cum_at_splits(ao.where(mo.greater(ordered_labels, 0), ordered_weights, ozeros))
        if curve == "ROC":
            false_positives = cum_at_splits(ao.where(mo.less(ordered_labels, 1), ordered_weights, ozeros))
            x = mo.truediv(false_positives, total_weight - total_positive)
            y = mo.truediv(true_positives, total_positive)
        else:
            x = mo.truediv(true_positives, total_positive)
            positives = cum_at_splits(ordered_weights)
            y = ao.where(mo.greater(splits, 0), mo.div_no_nan(true_positives, positives),
                         core.ones_like(true_positives))
        heights = (y[1:] + y[:-1]) / 2.0
        widths = mo.abs(x[1:] - x[:-1])
        return mo.reduce_sum(heights * widths)

    trivial = mo.logical_or(mo.equal(total_positive, 0.0), mo.equal(total_positive, total_weight))
    return lib.cf.cond(trivial, lambda: lib.ops.convert_to_tensor(0.0, _dtypes.float64), area)


def streaming_dynamic_auc(labels, predictions, curve="ROC", metrics_collections=(), updates_collections=(),
                          name=None, weights=None):
    """Computes the exact AUC, every distinct prediction seen so far a threshold.

    The labels, predictions (and weights) of all batches are kept (`streaming_concat`), so memory
    grows with the evaluation. The value is 0 while all labels seen are equal.

    Args:
      labels: A `Tensor` of 0/1 ground truth labels with the shape of `predictions`, castable to int64.
      predictions: A `Tensor` of predictions castable to float64 (flattened).
      curve: 'ROC' (default) or 'PR'.
      metrics_collections: An optional iterable of collections the value should be added to.
      updates_collections: An optional iterable of collections `update_op` should be added to.
      name: An optional variable_scope name (default "dynamic_auc").
      weights: Optional non-negative `Tensor` of the shape of `predictions`, castable to float64.

    Returns:
      auc: A float64 scalar `Tensor`.
      update_op: An operation that appends the batch to the accumulated values.

    Raises:
      ValueError: If `curve` is not 'ROC' or 'PR', or `labels` and `predictions` have mismatched
        shapes.
      InvalidArgumentError: When `update_op` runs on a label that is not 0 or 1.
    """
    if curve not in ("PR", "ROC"):
        raise ValueError("curve must be either ROC or PR, %s unknown" % curve)
    lib = _lib()
    mo, ao, core = lib.math_ops, lib.array_ops, lib.core_ops
    with lib.vs.variable_scope(name, default_name="dynamic_auc"):
        labels = lib.ops.convert_to_tensor(labels)
        predictions = lib.ops.convert_to_tensor(predictions)
        labels.shape.assert_is_compatible_with(predictions.shape)
        predictions = ao.reshape(mo.cast(predictions, _dtypes.float64), [-1])
        labels = ao.reshape(mo.cast(labels, _dtypes.int64), [-1])
        with lib.ops.control_dependencies([
                lib.check_ops.assert_greater_equal(labels, core.zeros_like(labels),
                                                   message="labels must be 0 or 1, at least one is <0"),
                lib.check_ops.assert_less_equal(labels, core.ones_like(labels),
                                                message="labels must be 0 or 1, at least one is >1")]):
            preds_accum, update_preds = streaming_concat(predictions, name="concat_preds")
            labels_accum, update_labels = streaming_concat(labels, name="concat_labels")
            if weights is not None:
                weights = ao.reshape(mo.cast(weights, _dtypes.float64), [-1])
                weights_accum, update_weights = streaming_concat(weights, name="concat_weights")
                update_op = lib.core_ops.group(update_labels, update_preds, update_weights)
            else:
                weights_accum = None
                update_op = lib.core_ops.group(update_labels, update_preds)
            auc = _compute_dynamic_auc(labels_accum, preds_accum, curve=curve, weights=weights_accum)
        _add(updates_collections, update_op)
        _add(metrics_collections, auc)
        return auc, update_op


def precision_recall_at_equal_thresholds(labels, predictions, weights=None, num_thresholds=None, use_locking=None,
                                         name=None):
    """Precision-recall data at `num_thresholds` evenly spaced thresholds in `[0, 1]`, in O(T + N).

    Each prediction falls in bucket `floor(p * (num_thresholds - 1))`; `tp[i]`/`fp[i]` are the
    (weighted) positive/negative labels with a prediction in a bucket `>= i` (i.e. `p >= t_i`), and
    `tn = fp[0] - fp`, `fn = tp[0] - tp`, `precision = tp / max(1e-7, tp + fp)`,
    `recall = tp / max(1e-7, tp + fn)`. Counts accumulate in float64 local variables `tp_buckets`
    and `fp_buckets`.

    Args:
      labels: A bool `Tensor` whose shape matches `predictions`.
      predictions: A floating point `Tensor` of arbitrary shape with values in `[0, 1]`.
      weights: Optional `Tensor` broadcastable to `predictions`, multiplied with the counts.
      num_thresholds: Optional number of thresholds (>= 2); default 201.
      use_locking: Accepted for compatibility (updates are atomic here).
      name: Optional variable_scope name (default "precision_recall_at_equal_thresholds").

    Returns:
      result: A namedtuple `PrecisionRecallData(tp, fp, tn, fn, precision, recall, thresholds)` of
        `[num_thresholds]` tensors of `predictions`' dtype.
      update_op: An op that accumulates a batch.

    Raises:
      TypeError: If `labels` is not bool.
      ValueError: If the shapes mismatch.
      InvalidArgumentError: When `update_op` runs on predictions outside `[0, 1]`.
    """
    import collections
    lib = _lib()
    mo, ao, core = lib.math_ops, lib.array_ops, lib.core_ops
    data = collections.namedtuple("PrecisionRecallData", ["tp", "fp", "tn", "fn", "precision", "recall",
                                                          "thresholds"])
    num_thresholds = 201 if num_thresholds is None else num_thresholds
    weights = 1.0 if weights is None else weights
    labels = lib.ops.convert_to_tensor(labels)
    predictions = lib.ops.convert_to_tensor(predictions)
    lib.check_ops.assert_type(labels, _dtypes.bool_)
    with lib.vs.variable_scope(name, "precision_recall_at_equal_thresholds", (labels, predictions, weights)):
        with lib.ops.control_dependencies([
                lib.check_ops.assert_greater_equal(predictions, mo.cast(0.0, predictions.dtype),
                                                   message="predictions must be in [0, 1]"),
                lib.check_ops.assert_less_equal(predictions, mo.cast(1.0, predictions.dtype),
                                                message="predictions must be in [0, 1]")]):
            predictions, labels, weights = lib.impl._remove_squeezable_dimensions(predictions, labels, weights)
        predictions.shape.assert_is_compatible_with(labels.shape)
        agg = _dtypes.float64
        f_labels = mo.cast(labels, agg)
        weights = mo.cast(weights, agg)
        true_labels = ao.reshape(f_labels * weights * core.ones_like(f_labels), [-1])
        false_labels = ao.reshape((1.0 - f_labels) * weights * core.ones_like(f_labels), [-1])
        flat_predictions = ao.reshape(predictions, [-1])
        bucket_indices = mo.cast(mo.floor(flat_predictions * (num_thresholds - 1)), _dtypes.int32)
        with lib.ops.name_scope("variables"):
            tp_buckets = lib.impl.metric_variable([num_thresholds], agg, name="tp_buckets")
            fp_buckets = lib.impl.metric_variable([num_thresholds], agg, name="fp_buckets")
        from ...ops.scatter_ops import scatter_add
        with lib.ops.name_scope("update_op"):
            update_tp = scatter_add(tp_buckets, bucket_indices, true_labels)
            update_fp = scatter_add(fp_buckets, bucket_indices, false_labels)
        tp = mo.cumsum(tp_buckets, reverse=True, name="tp")
        fp = mo.cumsum(fp_buckets, reverse=True, name="fp")
        tn = fp[0] - fp
        fn = tp[0] - tp
        eps = lib.ops.convert_to_tensor(1e-7, dtype=agg)
        precision = tp / mo.maximum(eps, tp + fp)
        recall = tp / mo.maximum(eps, tp + fn)
        out = predictions.dtype

        def cast(t):
            return mo.cast(t, out)

        from ...ops.array_misc_ops import lin_space
        result = data(tp=cast(tp), fp=cast(fp), tn=cast(tn), fn=cast(fn), precision=cast(precision),
                      recall=cast(recall), thresholds=cast(lin_space(0.0, 1.0, num_thresholds)))
        return result, lib.core_ops.group(update_tp, update_fp)


def _check_rate_arg(arg, value):
    if not 0 <= value <= 1:
        raise ValueError("`%s` must be in the range [0, 1]." % arg)


def recall_at_precision(labels, predictions, precision, weights=None, num_thresholds=200, metrics_collections=None,
                        updates_collections=None, name=None):
    """Computes the recall at the threshold whose precision is closest to `precision`.

    Thresholds: `num_thresholds` evenly spaced in `[0, 1]` (the ends moved out by 1e-7); precisions are
    `tp / (tp + fp + 1e-7)` and the recall `tp / (tp + fn + 1e-7)` at the first threshold of minimal
    `|precision_t - precision|`.

    Args:
      labels: The ground truth values, a `Tensor` whose dimensions match `predictions`, cast to `bool`.
      predictions: A floating point `Tensor` of arbitrary shape, values in `[0, 1]`.
      precision: A scalar value in range `[0, 1]`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      num_thresholds: The number of thresholds to use for matching the given `precision`.
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "recall_at_precision").

    Returns:
      recall: A float32 scalar `Tensor`.
      update_op: An operation that increments the counts and whose value matches `recall`.

    Raises:
      ValueError: If `precision` is not in `[0, 1]` or the shapes mismatch.
    """
    _check_rate_arg("precision", precision)
    lib = _lib()
    mo = lib.math_ops
    with lib.vs.variable_scope(name, "recall_at_precision", (predictions, labels, weights)):
        thresholds = [i * 1.0 / (num_thresholds - 1) for i in range(1, num_thresholds - 1)]
        thresholds = [0.0 - _EPSILON] + thresholds + [1.0 + _EPSILON]
        values, update_ops = _confusion_at_thresholds(predictions, labels, thresholds, weights)

        def compute(tp, fp, fn, op_name):
            precisions = mo.divide(tp, tp + fp + _EPSILON)
            idx = mo.argmin(mo.abs(precisions - precision), 0, output_type=_dtypes.int32)
            return mo.divide(tp[idx], tp[idx] + fn[idx] + _EPSILON, name=op_name)

        value = compute(values["tp"], values["fp"], values["fn"], "value")
        update_op = compute(update_ops["tp"], update_ops["fp"], update_ops["fn"], "update_op")
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


def precision_at_recall(labels, predictions, target_recall, weights=None, num_thresholds=200,
                        metrics_collections=None, updates_collections=None, name=None):
    """Computes the precision at the largest threshold whose recall is at least `target_recall`.

    Recalls are `tp / (tp + fn + 1e-7)` at `num_thresholds` evenly spaced thresholds; the precision
    is `(tp + 1e-7) / (tp + fp + 1e-7)` at index `count(recall >= target_recall) - 1`.

    Args:
      labels: The ground truth values, a `Tensor` whose dimensions match `predictions`, cast to `bool`.
      predictions: A floating point `Tensor` of arbitrary shape, values in `[0, 1]`.
      target_recall: A scalar value in range `[0, 1]`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      num_thresholds: The number of thresholds to use for matching the given recall.
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "precision_at_recall").

    Returns:
      precision: A float32 scalar `Tensor`.
      update_op: An operation that increments the counts and whose value matches `precision`.

    Raises:
      ValueError: If `target_recall` is not in `[0, 1]` or the shapes mismatch.
      RuntimeError: If eager execution is enabled.
    """
    lib = _lib()
    lib.impl._check_graph_mode("precision_at_recall")
    if target_recall < 0 or target_recall > 1:
        raise ValueError("`target_recall` must be in the range [0, 1].")
    mo = lib.math_ops
    with lib.vs.variable_scope(name, "precision_at_recall", (predictions, labels, weights)):
        values, update_ops = _confusion_at_thresholds(predictions, labels, _curve_thresholds(num_thresholds),
                                                      weights)

        def compute(tp, fp, fn, op_name):
            recalls = mo.divide(tp, tp + fn + _EPSILON)
            idx = mo.reduce_sum(mo.cast(mo.greater_equal(recalls, target_recall), _dtypes.int64)) - 1
            return mo.divide(tp[idx] + _EPSILON, tp[idx] + fp[idx] + _EPSILON, name=op_name)

        value = compute(values["tp"], values["fp"], values["fn"], "value")
        update_op = compute(update_ops["tp"], update_ops["fp"], update_ops["fn"], "update_op")
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


def streaming_sparse_average_precision_at_k(predictions, labels, k, weights=None, metrics_collections=None,
                                            updates_collections=None, name=None):
    """Computes the mean average precision@k of `predictions` with respect to sparse `labels`
    (`tf.metrics.average_precision_at_k`).

    Args:
      predictions: Float `Tensor` with shape [D1, ... DN, num_classes].
      labels: `int64` `Tensor` or `SparseTensor` with shape [D1, ... DN, num_labels] or [D1, ... DN];
        values outside `[0, num_classes)` are ignored.
      k: Integer, the average precision is over ranks `[1, k]`.
      weights: `Tensor` whose rank is either 0, or n-1, broadcastable to [D1, ... DN].
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: Name of new update operation, and namespace for other dependent ops.

    Returns:
      mean_average_precision: Scalar float64 `Tensor`.
      update: An operation that increments the local variables `total` and `max`.

    Raises:
      ValueError: If `k` < 1 or the ranks do not fit.
    """
    return _metrics().average_precision_at_k(labels, predictions, k, weights=weights,
                                             metrics_collections=metrics_collections,
                                             updates_collections=updates_collections, name=name)


def streaming_sparse_average_precision_at_top_k(top_k_predictions, labels, weights=None, metrics_collections=None,
                                                updates_collections=None, name=None):
    """Computes the mean average precision@k of the given top-k class ids with respect to sparse
    `labels`, `k` being the last dimension of `top_k_predictions`.

    Args:
      top_k_predictions: Integer `Tensor` with shape [D1, ... DN, k] of predicted class ids; the
        last dimension must be statically known.
      labels: `int64` `Tensor` or `SparseTensor` with shape [D1, ... DN, num_labels] or [D1, ... DN].
      weights: `Tensor` whose rank is either 0, or n-1, broadcastable to [D1, ... DN].
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: Name of new update operation, and namespace for other dependent ops.

    Returns:
      mean_average_precision: Scalar float64 `Tensor`.
      update: An operation that increments the local variables `total` and `max`.

    Raises:
      ValueError: If the last dimension of `top_k_predictions` is not set.
    """
    return _lib().at_k._streaming_sparse_average_precision_at_top_k(
        labels, top_k_predictions, weights=weights, metrics_collections=metrics_collections,
        updates_collections=updates_collections, name=name)


def streaming_sparse_precision_at_top_k(top_k_predictions, labels, class_id=None, weights=None,
                                        metrics_collections=None, updates_collections=None, name=None):
    """Computes precision@k of the given top-k class ids with respect to sparse `labels`
    (`tf.metrics.precision_at_top_k`).

    Args:
      top_k_predictions: Integer `Tensor` with shape [D1, ... DN, k] of predicted class ids.
      labels: `int64` `Tensor` or `SparseTensor` with shape [D1, ... DN, num_labels] or [D1, ... DN].
      class_id: Integer class ID for which we want binary metrics.
      weights: `Tensor` whose rank is either 0, or n-1, broadcastable to [D1, ... DN].
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: Name of new update operation, and namespace for other dependent ops.

    Returns:
      precision: Scalar float64 `Tensor`.
      update_op: An operation that increments the true and false positive counts.

    Raises:
      ValueError: If the ranks do not fit.
    """
    lib = _lib()
    with lib.ops.name_scope(name, lib.at_k._at_k_name("precision", class_id=class_id),
                            (top_k_predictions, labels, weights)) as scope:
        return lib.at_k.precision_at_top_k(labels, top_k_predictions, class_id=class_id, weights=weights,
                                           metrics_collections=metrics_collections,
                                           updates_collections=updates_collections, name=scope)


def sparse_recall_at_top_k(labels, top_k_predictions, class_id=None, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """Computes recall@k of the given top-k class ids with respect to sparse `labels`
    (`tf.metrics.recall_at_top_k`).

    Args:
      labels: `int64` `Tensor` or `SparseTensor` with shape [D1, ... DN, num_labels] or [D1, ... DN].
      top_k_predictions: Integer `Tensor` with shape [D1, ... DN, k] of predicted class ids.
      class_id: Integer class ID for which we want binary metrics.
      weights: `Tensor` whose rank is either 0, or n-1, broadcastable to [D1, ... DN].
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: Name of new update operation, and namespace for other dependent ops.

    Returns:
      recall: Scalar float64 `Tensor`.
      update_op: An operation that increments the true positive and false negative counts.

    Raises:
      ValueError: If the ranks do not fit.
    """
    lib = _lib()
    with lib.ops.name_scope(name, lib.at_k._at_k_name("recall", class_id=class_id),
                            (top_k_predictions, labels, weights)) as scope:
        return lib.at_k.recall_at_top_k(labels, top_k_predictions, class_id=class_id, weights=weights,
                                        metrics_collections=metrics_collections,
                                        updates_collections=updates_collections, name=scope)


def count(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """Computes the number of examples seen, or the sum of their `weights`.

    Args:
      values: A `Tensor` of arbitrary dimensions; only its shape is used.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `values`, and must be
        broadcastable to `values`.
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "count").

    Returns:
      count: The float32 local variable `count`.
      update_op: An operation that adds the batch's count and returns the new count.

    Raises:
      ValueError: If `weights` cannot be broadcast to `values`.
    """
    lib = _lib()
    mo = lib.math_ops
    with lib.vs.variable_scope(name, "count", (values, weights)):
        values = lib.ops.convert_to_tensor(values)
        count_ = lib.impl.metric_variable([], _dtypes.float32, name="count")
        if weights is None:
            num_values = mo.cast(lib.array_ops.size(values), _dtypes.float32)
        else:
            _, _, weights = lib.impl._remove_squeezable_dimensions(values, None, weights)
            weights = lib.impl._broadcast_weights(mo.cast(weights, _dtypes.float32),
                                                  mo.cast(values, _dtypes.float32))
            num_values = mo.reduce_sum(weights)
        with lib.ops.control_dependencies(lib.impl._after(values)):
            update_op = lib.state_ops.assign_add(count_, num_values)
        _add(metrics_collections, count_)
        _add(updates_collections, update_op)
        return count_, update_op


def cohen_kappa(labels, predictions_idx, num_classes, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """Calculates Cohen's kappa `(sum(po) - sum(pe)) / (N - sum(pe))` of the streamed confusion
    matrix, with `pe = pe_row * pe_col / N`.

    Creates the local variables `po` (diagonal), `pe_row` and `pe_col` (column and row totals),
    int64 without weights or with integer weights, else float32.

    Args:
      labels: 1-D `Tensor` (or `[N, 1]`) of int16, int32 or int64 class labels in `[0, num_classes)`.
      predictions_idx: 1-D `Tensor` of predicted class indices, of the same type as `labels`.
      num_classes: The possible number of labels (>= 2).
      weights: Optional `Tensor` whose shape matches `predictions_idx`.
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "cohen_kappa").

    Returns:
      kappa: Scalar float64 `Tensor`.
      update_op: An operation that increments `po`, `pe_row` and `pe_col` and returns the new kappa.

    Raises:
      ValueError: If `num_classes` < 2, `labels` has rank > 2, or the shapes mismatch.
      RuntimeError: If eager execution is enabled.
    """
    lib = _lib()
    from ...eager.context import executing_eagerly
    if executing_eagerly():
        raise RuntimeError("tf.contrib.metrics.cohen_kappa is not supported when eager execution is enabled.")
    if num_classes < 2:
        raise ValueError("`num_classes` must be >= 2.Found: {}".format(num_classes))
    mo, ao = lib.math_ops, lib.array_ops
    from ...ops.math_misc_ops import confusion_matrix as _cm
    with lib.vs.variable_scope(name, "cohen_kappa", (labels, predictions_idx, weights)):
        labels = lib.ops.convert_to_tensor(labels)
        if labels.shape.ndims is not None and labels.shape.ndims > 2:
            raise ValueError("Shape %s must have rank at most 2" % labels.shape)
        if labels.shape.ndims == 2:
            labels = ao.squeeze(labels, axis=[-1])
        predictions_idx, labels, weights = lib.impl._remove_squeezable_dimensions(predictions_idx, labels, weights)
        predictions_idx.shape.assert_is_compatible_with(labels.shape)
        stat_dtype = _dtypes.int64 if weights is None or weights.dtype.is_integer else _dtypes.float32
        po = lib.impl.metric_variable((num_classes,), stat_dtype, name="po")
        pe_row = lib.impl.metric_variable((num_classes,), stat_dtype, name="pe_row")
        pe_col = lib.impl.metric_variable((num_classes,), stat_dtype, name="pe_col")
        table = _cm(labels, predictions_idx, num_classes=num_classes, weights=weights, dtype=stat_dtype,
                    name="counts_in_table")
        from ...ops.linalg_diag_ops import diag_part
        update_po = lib.state_ops.assign_add(po, diag_part(table))
        update_pe_row = lib.state_ops.assign_add(pe_row, mo.reduce_sum(table, axis=0))
        update_pe_col = lib.state_ops.assign_add(pe_col, mo.reduce_sum(table, axis=1))

        def kappa_of(po_, row, col, op_name):
            po_sum = mo.reduce_sum(po_)
            total = mo.reduce_sum(row)
            if row.dtype.is_integer:  # TF's truediv of int64 counts is float64
                row, col, total = (mo.cast(row, _dtypes.float64), mo.cast(col, _dtypes.float64),
                                   mo.cast(total, _dtypes.float64))
            pe_sum = mo.reduce_sum(mo.div_no_nan(row * col, total))
            po_sum, pe_sum, total = (mo.cast(po_sum, _dtypes.float64), mo.cast(pe_sum, _dtypes.float64),
                                     mo.cast(total, _dtypes.float64))
            return mo.div_no_nan(po_sum - pe_sum, total - pe_sum, name=op_name)

        kappa = kappa_of(po, pe_row, pe_col, "value")
        update_op = kappa_of(update_po, update_pe_row, update_pe_col, "update_op")
        _add(metrics_collections, kappa)
        _add(updates_collections, update_op)
        return kappa, update_op


def confusion_matrix(labels, predictions, num_classes=None, dtype=_dtypes.int32, name=None, weights=None):
    """Computes the confusion matrix from `predictions` and `labels` (`tf.confusion_matrix`): rows
    are real labels, columns predicted labels.

    Args:
      labels: 1-D `Tensor` of real labels.
      predictions: 1-D `Tensor` of predictions for the classification task.
      num_classes: The possible number of labels (default: one more than the largest label or prediction).
      dtype: Data type of the confusion matrix.
      name: Scope name.
      weights: An optional `Tensor` whose shape matches `predictions`.

    Returns:
      A `[num_classes, num_classes]` `Tensor` of type `dtype`.

    Raises:
      ValueError: If `predictions` and `labels` are not 1-D or their shapes mismatch.
    """
    from ...ops.math_misc_ops import confusion_matrix as _cm
    return _cm(labels, predictions, num_classes=num_classes, dtype=dtype, name=name, weights=weights)


def f1_score(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
             updates_collections=None, name=None):
    """Computes the best F1 score over `num_thresholds` evenly spaced thresholds.

    At each threshold `precision = tp / (1e-7 + tp + fp)`, `recall = tp / (1e-7 + tp + fn)` and
    `f1 = 2 * precision * recall / (precision + recall + 1e-7)`; the value is the maximum.

    Args:
      labels: A `Tensor` whose shape matches `predictions`, cast to `bool`.
      predictions: A floating point `Tensor` of arbitrary shape, values in `[0, 1]`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      num_thresholds: The number of thresholds.
      metrics_collections: An optional list of collections the value should be added to.
      updates_collections: An optional list of collections `update_op` should be added to.
      name: An optional variable_scope name (default "f1").

    Returns:
      f1_score: A float32 scalar `Tensor`, the best F1 score across thresholds.
      update_op: An operation that increments the counts and whose value matches `f1_score`.

    Raises:
      ValueError: If the shapes mismatch.
      InvalidArgumentError: When `update_op` runs on predictions outside `[0, 1]`.
    """
    lib = _lib()
    mo = lib.math_ops
    with lib.vs.variable_scope(name, "f1", (labels, predictions, weights)):
        predictions, labels, weights = lib.impl._remove_squeezable_dimensions(predictions, labels, weights)
        values, update_ops = lib.impl._confusion_matrix_at_thresholds(
            labels, predictions, _curve_thresholds(num_thresholds), weights, includes=("tp", "fp", "fn"))

        def best_f1(tp, fp, fn, op_name):
            precision = mo.divide(tp, _EPSILON + tp + fp, name="precision_" + op_name)
            recall = mo.divide(tp, _EPSILON + tp + fn, name="recall_" + op_name)
            return mo.reduce_max(2.0 * precision * recall / (precision + recall + _EPSILON))

        value = best_f1(values["tp"], values["fp"], values["fn"], "value")
        update_op = best_f1(update_ops["tp"], update_ops["fp"], update_ops["fn"], "update")
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


def auc_using_histogram(boolean_labels, scores, score_range, nbins=100, collections=None, check_shape=True,
                        name=None):
    """AUC estimated from accumulated histograms of the scores of the `True` and the `False` records
    (Bouckaert's "Efficient AUC learning curve calculation", bins from high to low scores).

    Args:
      boolean_labels: 1-D boolean `Tensor`, `True` for records in class.
      scores: 1-D numeric `Tensor`, same shape as `boolean_labels`.
      score_range: `Tensor` of shape `[2]`, same dtype as `scores`: the min/max expected score
        (scores outside are clipped into the end bins).
      nbins: Integer number of bins.
      collections: Graph collections of the two int64 histogram variables (default
        `[GraphKeys.LOCAL_VARIABLES]`).
      check_shape: If `True`, check at run time that labels and scores have rank 1.
      name: A name for this op (default "auc_using_histogram").

    Returns:
      auc: float32 scalar `Tensor`, the AUC of the accumulated histograms.
      update_op: An `Operation` adding the batch to the histograms.

    Raises:
      ValueError: If `boolean_labels` is not bool.
      InvalidArgumentError: When `update_op` runs on inputs of rank other than 1 (with `check_shape`).
    """
    lib = _lib()
    mo, ao, core = lib.math_ops, lib.array_ops, lib.core_ops
    from ...ops.logging_ops import Assert
    from ...ops.math_misc_ops import histogram_fixed_width
    if collections is None:
        collections = [lib.ops.GraphKeys.LOCAL_VARIABLES]
    with lib.vs.variable_scope(name, "auc_using_histogram", [boolean_labels, scores, score_range]):
        boolean_labels = lib.ops.convert_to_tensor(boolean_labels, name="boolean_labels")
        scores = lib.ops.convert_to_tensor(scores, name="scores")
        boolean_labels, scores = lib.impl._remove_squeezable_label_dims(boolean_labels, scores)
        score_range = lib.ops.convert_to_tensor(score_range, name="score_range")
        if boolean_labels.dtype != _dtypes.bool_:
            raise ValueError("Argument boolean_labels should have dtype bool.  Found: %s" % boolean_labels.dtype)
        if check_shape:
            checks = [Assert(mo.equal(1, ao.rank(boolean_labels)),
                             ["Argument boolean_labels should have rank 1.  Found: ", boolean_labels.name,
                              core.shape(boolean_labels)]),
                      Assert(mo.equal(1, ao.rank(scores)),
                             ["Argument scores should have rank 1.  Found: ", scores.name, core.shape(scores)])]
            with lib.ops.control_dependencies(checks):
                boolean_labels = core.identity(boolean_labels)
                scores = core.identity(scores)
        with lib.vs.variable_scope(None, "make_auc_histograms"):
            hist_true = histogram_fixed_width(ao.boolean_mask(scores, boolean_labels), score_range, nbins=nbins,
                                              dtype=_dtypes.int64, name="hist_true")
            hist_false = histogram_fixed_width(ao.boolean_mask(scores, mo.logical_not(boolean_labels)),
                                               score_range, nbins=nbins, dtype=_dtypes.int64, name="hist_false")
        with lib.vs.variable_scope(None, "hist_accumulate"):
            from ...ops.init_ops import zeros_initializer
            hist_true_acc = lib.vs.get_variable("hist_true_acc", shape=[nbins], dtype=_dtypes.int64,
                                                initializer=zeros_initializer(), collections=collections,
                                                trainable=False)
            hist_false_acc = lib.vs.get_variable("hist_false_acc", shape=[nbins], dtype=_dtypes.int64,
                                                 initializer=zeros_initializer(), collections=collections,
                                                 trainable=False)
            update_op = lib.core_ops.group(lib.state_ops.assign_add(hist_true_acc, hist_true),
                                     lib.state_ops.assign_add(hist_false_acc, hist_false), name="update_op")
        normed_true = mo.truediv(hist_true_acc, mo.reduce_sum(hist_true_acc))
        normed_false = mo.truediv(hist_false_acc, mo.reduce_sum(hist_false_acc))
        delta_y = mo.cast(ao.reverse(normed_true, [0]), _dtypes.float32)
        delta_x = mo.cast(ao.reverse(normed_false, [0]), _dtypes.float32)
        y = mo.cumsum(delta_y)
        first_trap = delta_x[0] * y[0] / 2.0
        other_traps = delta_x[1:] * (y[1:] + y[:nbins - 1]) / 2.0
        auc = mo.add(first_trap, mo.reduce_sum(other_traps), name="auc")
        return auc, update_op


def set_difference(a, b, aminusb=True, validate_indices=True):
    """Computes the set difference of elements in the last dimension of `a` and `b` (`tf.sets.set_difference`).

    Args:
      a: `Tensor` or `SparseTensor` of the same type as `b`; its last dimension holds the sets.
      b: `Tensor` or `SparseTensor` of the same type as `a`, with the same leading dimensions.
      aminusb: Whether to subtract `b` from `a`, vs vice versa.
      validate_indices: Whether to validate the order and range of sparse indices.

    Returns:
      A `SparseTensor` of the same rank as `a` and `b`, whose last dimension holds the differences.

    Raises:
      TypeError: If the inputs have different or unsupported types.
      ValueError: If the ranks mismatch.
    """
    from ...ops.set_ops import set_difference as _f
    return _f(a, b, aminusb=aminusb, validate_indices=validate_indices)


def set_intersection(a, b, validate_indices=True):
    """Computes the set intersection of elements in the last dimension of `a` and `b`
    (`tf.sets.set_intersection`).

    Args:
      a: `Tensor` or `SparseTensor` of the same type as `b`; its last dimension holds the sets.
      b: `Tensor` or `SparseTensor` of the same type as `a`, with the same leading dimensions.
      validate_indices: Whether to validate the order and range of sparse indices.

    Returns:
      A `SparseTensor` of the same rank as `a` and `b`, whose last dimension holds the intersections.

    Raises:
      TypeError: If the inputs have different or unsupported types.
      ValueError: If the ranks mismatch.
    """
    from ...ops.set_ops import set_intersection as _f
    return _f(a, b, validate_indices=validate_indices)


def set_union(a, b, validate_indices=True):
    """Computes the set union of elements in the last dimension of `a` and `b` (`tf.sets.set_union`).

    Args:
      a: `Tensor` or `SparseTensor` of the same type as `b`; its last dimension holds the sets.
      b: `Tensor` or `SparseTensor` of the same type as `a`, with the same leading dimensions.
      validate_indices: Whether to validate the order and range of sparse indices.

    Returns:
      A `SparseTensor` of the same rank as `a` and `b`, whose last dimension holds the unions.

    Raises:
      TypeError: If the inputs have different or unsupported types.
      ValueError: If the ranks mismatch.
    """
    from ...ops.set_ops import set_union as _f
    return _f(a, b, validate_indices=validate_indices)


def set_size(a, validate_indices=True):
    """Computes the number of unique elements along the last dimension of `a` (`tf.sets.set_size`).

    Args:
      a: `SparseTensor` whose last dimension holds the sets.
      validate_indices: Whether to validate the order and range of sparse indices.

    Returns:
      An int32 `Tensor` of rank `rank(a) - 1` with the set sizes.

    Raises:
      TypeError: If `a` is not a `SparseTensor`.
    """
    from ...ops.set_ops import set_size as _f
    return _f(a, validate_indices=validate_indices)


__all__ += ["auc_using_histogram", "cohen_kappa", "confusion_matrix", "count", "f1_score", "precision_at_recall",
            "precision_recall_at_equal_thresholds", "recall_at_precision", "set_difference", "set_intersection",
            "set_size", "set_union", "sparse_recall_at_top_k", "streaming_concat", "streaming_covariance",
            "streaming_curve_points", "streaming_dynamic_auc", "streaming_false_negative_rate",
            "streaming_false_negative_rate_at_thresholds", "streaming_false_negatives_at_thresholds",
            "streaming_false_positive_rate", "streaming_false_positive_rate_at_thresholds",
            "streaming_false_positives_at_thresholds", "streaming_pearson_correlation",
            "streaming_sparse_average_precision_at_k", "streaming_sparse_average_precision_at_top_k",
            "streaming_sparse_precision_at_top_k", "streaming_true_negatives_at_thresholds",
            "streaming_true_positives_at_thresholds"]


def _compute_placement_auc(labels, predictions, weights, alpha, logit_transformation, is_valid):
    """AUC with an asymptotically normal confidence interval from placement values (DeLong & DeLong
    1988, in Sun & Xu's 2014 form); `[0, 0, 0]` unless `is_valid`."""
    import collections
    lib = _lib()
    mo, ao = lib.math_ops, lib.array_ops
    from ...ops.array_select_ops import top_k
    from ...ops.math_special_ops import ndtri
    from ...ops.segment_ops import segment_sum
    auc_data = collections.namedtuple("AucData", ["auc", "lower", "upper"])
    wdt = weights.dtype
    size = ao.size(predictions, out_type=_dtypes.int32)
    total_0 = mo.reduce_sum(mo.cast(1 - labels, wdt) * weights)
    total_1 = mo.reduce_sum(mo.cast(labels, wdt) * weights)
    _, indices = top_k(predictions, k=size, sorted=True)
    indices = ao.reverse(indices, [0])
    ordered_predictions = ao.gather(predictions, indices)
    ordered_labels = ao.gather(labels, indices)
    ordered_weights = ao.gather(weights, indices)
    _, segmented = ao.unique(ordered_predictions)
    labels_true = mo.cast(ordered_labels, wdt)
    labels_false = 1.0 - labels_true
    weights_for_true = ordered_weights * labels_true
    weights_for_false = ordered_weights * labels_false
    # each label's placement counts the weight of the opposite label below it (ties count half)
    totals_for_true = segment_sum(weights_for_false, segmented)
    totals_for_false = segment_sum(weights_for_true, segmented)
    cum_for_true = mo.cumsum(totals_for_true, exclusive=True)
    cum_for_false = mo.cumsum(totals_for_false, exclusive=True)
    eps = _EPSILON
    placements_true = (cum_for_true + totals_for_true / 2.0) / (mo.reduce_sum(totals_for_true) + eps)
    placements_false = (cum_for_false + totals_for_false / 2.0) / (mo.reduce_sum(totals_for_false) + eps)
    placements = (ao.gather(placements_true, segmented) * labels_true
                  + ao.gather(placements_false, segmented) * labels_false)
    placements_0 = placements * labels_false
    weights_0 = ordered_weights * labels_false
    placements_1 = placements * labels_true
    weights_1 = ordered_weights * labels_true
    auc_0 = mo.reduce_sum(weights_0 * (1.0 - placements_0)) / (total_0 + eps)
    auc_1 = mo.reduce_sum(weights_1 * placements_1) / (total_1 + eps)
    auc = ao.where(mo.less(total_0, total_1), auc_1, auc_0)
    var_0 = mo.reduce_sum(weights_0 * mo.square(1.0 - placements_0 - auc_0)) / (total_0 - 1.0 + eps)
    var_1 = mo.reduce_sum(weights_1 * mo.square(placements_1 - auc_1)) / (total_1 - 1.0 + eps)
    std_err = mo.sqrt(var_0 / (total_0 + eps) + var_1 / (total_1 + eps))
    z_value = mo.cast(ndtri(lib.ops.convert_to_tensor((1.0 - alpha) / 2.0, _dtypes.float32)), wdt)
    if logit_transformation:
        estimate = mo.log(auc / (1.0 - auc + eps))
        logit_err = std_err / (auc * (1.0 - auc + eps))

        def inv_logit(x):
            return 1.0 / (1.0 + mo.exp(-x) + eps)

        lower_ = inv_logit(estimate + z_value * logit_err)
        upper_ = inv_logit(estimate - z_value * logit_err)
    else:
        lower_ = auc + z_value * std_err
        upper_ = auc - z_value * std_err
    degenerate = mo.logical_or(mo.equal(auc, 1.0), mo.equal(auc, 0.0))
    lower = ao.where(degenerate, auc, lower_)
    upper = ao.where(degenerate, auc, upper_)
    trivial = lib.ops.convert_to_tensor(0.0, wdt)
    return auc_data(*lib.cf.cond(is_valid, lambda: [auc, lower, upper], lambda: [trivial] * 3))


def auc_with_confidence_intervals(labels, predictions, weights=None, alpha=0.95, logit_transformation=True,
                                  metrics_collections=(), updates_collections=(), name=None):
    """Computes the AUC and its asymptotically normal confidence interval from placement values,
    over all values seen (kept in memory with `streaming_concat`).

    A batch is only accumulated when its total weight is at least 1; the result is `[0, 0, 0]` unless
    the batch being run has labels 0 and 1 and a total weight of at least 1 (TF 1.15's validity test).

    Args:
      labels: A `Tensor` of 0/1 ground truth labels with the shape of `predictions`, castable to int64.
      predictions: A `Tensor` of predictions castable to float64 (flattened).
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`.
      alpha: Confidence interval level, in (0, 1).
      logit_transformation: Whether to compute the interval on the logit scale (keeping it in [0, 1]).
      metrics_collections: An optional iterable of collections the value should be added to.
      updates_collections: An optional iterable of collections `update_op` should be added to.
      name: An optional variable_scope name (default "auc_with_confidence_intervals").

    Returns:
      auc: A namedtuple `AucData(auc, lower, upper)` of scalar `Tensor`s of the weights' dtype.
      update_op: An operation that appends the batch to the accumulated values.

    Raises:
      ValueError: If `alpha` is not in (0, 1) or the shapes mismatch.
      InvalidArgumentError: When run on a label that is not 0 or 1.
    """
    if not 0 < alpha < 1:
        raise ValueError("alpha must be between 0 and 1; currently %.02f" % alpha)
    lib = _lib()
    mo, ao, core = lib.math_ops, lib.array_ops, lib.core_ops
    predictions = lib.ops.convert_to_tensor(predictions)
    labels = lib.ops.convert_to_tensor(labels)
    if weights is None:
        weights = core.ones_like(predictions)
    with lib.vs.variable_scope(name, default_name="auc_with_confidence_intervals",
                               values=[labels, predictions, weights]):
        predictions, labels, weights = lib.impl._remove_squeezable_dimensions(predictions, labels, weights)
        total_weight = mo.reduce_sum(weights)
        weights = ao.reshape(weights, [-1])
        predictions = ao.reshape(mo.cast(predictions, _dtypes.float64), [-1])
        labels = ao.reshape(mo.cast(labels, _dtypes.int64), [-1])
        with lib.ops.control_dependencies([
                lib.check_ops.assert_greater_equal(labels, core.zeros_like(labels),
                                                   message="labels must be 0 or 1, at least one is <0"),
                lib.check_ops.assert_less_equal(labels, core.ones_like(labels),
                                                message="labels must be 0 or 1, at least one is >1")]):
            at_least_1 = mo.greater_equal(total_weight, 1.0)
            # a batch of total weight < 1 appends nothing: its slices are cut to length 0
            keep = ao.where(at_least_1, ao.size(labels), 0)
            preds_accum, update_preds = streaming_concat(predictions[:keep], name="concat_preds")
            labels_accum, update_labels = streaming_concat(labels[:keep], name="concat_labels")
            weights_accum, update_weights = streaming_concat(weights[:keep], name="concat_weights")
            update_op = lib.core_ops.group(update_labels, update_preds, update_weights)
            all_labels_0_1 = mo.logical_and(mo.equal(mo.reduce_min(labels), 0), mo.equal(mo.reduce_max(labels), 1))
            is_valid = mo.logical_and(all_labels_0_1, at_least_1)
            auc = _compute_placement_auc(labels_accum, preds_accum, weights_accum, alpha=alpha,
                                         logit_transformation=logit_transformation, is_valid=is_valid)
        _add(updates_collections, update_op)
        _add(metrics_collections, auc)
        return auc, update_op


__all__ += ["auc_with_confidence_intervals"]
