"""`tf.contrib.metrics` streaming metrics (= `tf.contrib.slim.metrics`), as TF 1.15: each
`streaming_*` is the `tf.metrics` function of the same quantity with TF1 contrib's argument order
(`predictions` before `labels`), returning `(value_tensor, update_op)` over local variables."""

from ...framework import dtypes

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
    in_top_k = math_ops.cast(nn.in_top_k(predictions, labels, k), dtypes.float32)
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
    if not (labels.dtype.is_integer or labels.dtype in (dtypes.bool_, dtypes.string)):
        raise ValueError("Labels should have bool, integer, or string dtype, not %r" % labels.dtype)
    if not labels.dtype.is_compatible_with(predictions.dtype):
        raise ValueError("Dtypes of predictions and labels should match. Given: predictions (%r) and labels (%r)"
                         % (predictions.dtype, labels.dtype))
    with ops.name_scope(name, "accuracy", values=[predictions, labels]):
        is_correct = math_ops.cast(math_ops.equal(predictions, labels), dtypes.float32)
        if weights is not None:
            is_correct = math_ops.multiply(is_correct, weights)
            num_values = math_ops.multiply(weights, core_ops.ones_like(is_correct))
            return math_ops.divide(math_ops.reduce_sum(is_correct), math_ops.reduce_sum(num_values))
        return math_ops.reduce_mean(is_correct)


__all__ += ["accuracy"]
