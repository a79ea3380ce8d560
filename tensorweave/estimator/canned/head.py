"""The heads of TF 1.x's canned estimators (`tensorflow_estimator/python/estimator/canned/head.py`):
given logits, a head makes the predictions, the loss, the train op, the evaluation metrics and
the export signatures of an `EstimatorSpec`.

* binary classification: sigmoid cross entropy, predictions `logits`, `logistic`, `probabilities`,
  `class_ids`, `classes`; metrics `accuracy`, `accuracy_baseline`, `auc`, `auc_precision_recall`,
  `average_loss`, `label/mean`, `precision`, `prediction/mean`, `recall`;
* multi-class classification: sparse softmax cross entropy, predictions `logits`,
  `probabilities`, `class_ids`, `classes`; metrics `accuracy`, `average_loss`;
* regression: mean squared error, predictions `predictions`; metrics `average_loss`,
  `label/mean`, `prediction/mean`.

The training loss is reduced with `loss_reduction` (TF 1.x's canned default: `SUM`); the
Estimator adds `loss` (the mean of that per-batch loss) and `global_step` to the metrics.
"""

import numpy as np

from ...framework import dtypes, ops
from ...framework.sparse_tensor import SparseTensor
from ..model_fn import EstimatorSpec, ModeKeys

__all__ = ["MetricKeys", "PredictionKeys"]

_DEFAULT_SERVING_KEY = "serving_default"
_CLASSIFY_SERVING_KEY = "classification"
_REGRESS_SERVING_KEY = "regression"
_PREDICT_SERVING_KEY = "predict"


class MetricKeys:
    """The names of the canned estimators' evaluation metrics."""

    LOSS = "loss"
    LOSS_MEAN = "average_loss"
    LOSS_REGULARIZATION = "regularization_loss"
    ACCURACY = "accuracy"
    PRECISION = "precision"
    RECALL = "recall"
    ACCURACY_BASELINE = "accuracy_baseline"
    AUC = "auc"
    AUC_PR = "auc_precision_recall"
    LABEL_MEAN = "label/mean"
    PREDICTION_MEAN = "prediction/mean"
    ACCURACY_AT_THRESHOLD = "accuracy/positive_threshold_%g"
    PRECISION_AT_THRESHOLD = "precision/positive_threshold_%g"
    RECALL_AT_THRESHOLD = "recall/positive_threshold_%g"


class PredictionKeys:
    """The names of the canned estimators' predictions."""

    CLASSES = "classes"
    CLASS_IDS = "class_ids"
    LOGISTIC = "logistic"
    LOGITS = "logits"
    PREDICTIONS = "predictions"
    PROBABILITIES = "probabilities"


def _summary_key(head_name, val):
    return "%s/%s" % (val, head_name) if head_name else val


def _check_loss_reduction(loss_reduction):
    from ...losses.losses_impl import Reduction
    if loss_reduction not in Reduction.all() or loss_reduction == Reduction.NONE:
        raise ValueError("Invalid loss_reduction: {}".format(loss_reduction))


def _check_dense_labels_match_logits_and_reshape(labels, logits, expected_labels_dimension):
    """Labels as a dense `[D0, ... DN, expected_labels_dimension]` tensor (a `[D0, ... DN]` one is
    expanded)."""
    from ...ops import array_ops, core_ops
    if labels is None:
        raise ValueError("You must provide a labels Tensor. Given: None. Suggested troubleshooting steps: Check "
                         "that your data contain your label feature. Check that your input_fn properly parses and "
                         "returns labels.")
    with ops.name_scope(None, "labels", (labels, logits)) as scope:
        if isinstance(labels, SparseTensor):
            raise ValueError("SparseTensor labels are not supported. labels must be a Tensor of shape "
                             "[D0, D1, ..., DN, {}], e.g. [batch_size, {}]. Suggested Fix (1): Check the label "
                             "feature in your data. Each example must contain {} value(s). If not, your choice of "
                             "label was probably incorrect. Suggested Fix (2): In your input_fn, use "
                             "tf.sparse_tensor_to_dense() to turn labels into a Tensor.".format(
                                 expected_labels_dimension, expected_labels_dimension, expected_labels_dimension))
        labels = ops.convert_to_tensor(labels)
        if labels.shape.ndims is not None and logits.shape.ndims is not None \
                and labels.shape.ndims == logits.shape.ndims - 1:
            labels = array_ops.expand_dims(labels, -1)
        if labels.shape.ndims is not None:
            if labels.shape.ndims < 2:
                raise ValueError("labels shape must be [D0, D1, ... DN, {}]. Given shape: {}".format(
                    expected_labels_dimension, labels.shape))
            last = labels.shape.as_list()[-1]
            if last is not None and last != expected_labels_dimension:
                raise ValueError("Mismatched label shape. Expected labels dimension={}.  Received {}. Suggested "
                                 "Fix: If your classifier expects one-hot encoding label, check your n_classes "
                                 "argument to the estimator and/or the shape of your label. Otherwise, check the "
                                 "shape of your label.".format(expected_labels_dimension, last))
        return core_ops.identity(labels, name=scope)


def _check_logits_final_dim(logits, expected_logits_dimension):
    from ...ops import math_unary_ops
    with ops.name_scope(None, "logits", (logits,)):
        logits = math_unary_ops.cast(ops.convert_to_tensor(logits), dtypes.float32)
        static = logits.shape
        if static.ndims is not None:
            if static.ndims < 2:
                raise ValueError("logits shape must be [D0, D1, ... DN, logits_dimension], got %s." % (static,))
            last = static.as_list()[-1]
            if last is not None and last != expected_logits_dimension:
                raise ValueError("logits shape must be [D0, D1, ... DN, logits_dimension], got %s." % (static,))
        return logits


def _get_weights_and_check_match_logits(features, weight_column, logits):
    """The example weights (`1.` without a weight column), shaped `[D0, ... DN, 1]`."""
    from ...feature_column.columns import _LazyBuilder, _NumericColumn, numeric_column
    from ...ops import array_ops, math_unary_ops
    if weight_column is None:
        return 1.
    with ops.name_scope(None, "weights", values=tuple(features.values()) + (logits,)):
        if isinstance(weight_column, str):
            weight_column = numeric_column(key=weight_column, shape=(1,))
        if not isinstance(weight_column, _NumericColumn):
            raise TypeError("Weight column must be either a string or _NumericColumn. Given type: {}.".format(
                type(weight_column)))
        weights = weight_column._get_dense_tensor(_LazyBuilder(features))
        if not (weights.dtype.is_floating or weights.dtype.is_integer):
            raise ValueError("Weight column should be castable to float. Given dtype: {}".format(weights.dtype))
        weights = math_unary_ops.cast(weights, dtypes.float32, name="weights")
        if weights.shape.ndims is not None and logits.shape.ndims is not None \
                and weights.shape.ndims == logits.shape.ndims - 1:
            weights = array_ops.expand_dims(weights, -1)
        return weights


def _assert_range(labels, n_classes, message=None):
    from ...ops import check_ops, core_ops
    with ops.name_scope(None, "assert_range", (labels,)):
        assert_less = check_ops.assert_less_equal(labels, ops.convert_to_tensor(n_classes - 1, dtype=labels.dtype),
                                                  message=message or "Labels must <= n_classes - 1")
        assert_greater = check_ops.assert_non_negative(labels, message=message or "Labels must >= 0")
        with ops.control_dependencies((assert_less, assert_greater)):
            return core_ops.identity(labels)


def _vocab_to_ids(labels, label_vocabulary):
    from ...ops import lookup_ops
    vocab = np.array([v.encode() if isinstance(v, str) else v for v in label_vocabulary], dtype=object)
    with ops.name_scope(None, "class_id_lookup"):
        init = lookup_ops.KeyValueTensorInitializer(vocab, np.arange(len(vocab), dtype=np.int64),
                                                    key_dtype=dtypes.string, value_dtype=dtypes.int64)
        table = lookup_ops.StaticHashTable(init, -1)
    return table.lookup(labels)


def _ids_to_vocab(class_ids, label_vocabulary):
    """The vocabulary strings of `class_ids` (TF looks them up in an index-to-string table; the ids
    of an argmax are always in range, so gathering from the vocabulary gives the same strings)."""
    from ...ops.array_gather_ops import gather
    vocab = np.array([v.encode() if isinstance(v, str) else v for v in label_vocabulary], dtype=object)
    with ops.name_scope(None, "class_string_lookup", (class_ids,)):
        return gather(ops.convert_to_tensor(vocab, dtype=dtypes.string), class_ids)


def _class_ids_and_classes(logits, label_vocabulary):
    """The argmax class ids `[batch_size, 1]` of `logits`, and their vocabulary strings (or decimal strings)."""
    from ...ops import array_ops, math_reduce_ops
    from ...ops.string_basic_ops import as_string
    class_ids = math_reduce_ops.argmax(logits, axis=-1, name=PredictionKeys.CLASS_IDS)
    class_ids = array_ops.expand_dims(class_ids, axis=-1)
    if label_vocabulary:
        return class_ids, _ids_to_vocab(class_ids, label_vocabulary)
    return class_ids, as_string(class_ids, name="str_classes")


def _classification_output(scores, n_classes, label_vocabulary=None):
    from ...ops import array_ops, core_ops
    from ...ops.string_basic_ops import as_string
    from ..export import ClassificationOutput
    batch_size = core_ops.shape(scores)[0]
    if label_vocabulary:
        export_class_list = ops.convert_to_tensor(
            np.array([v.encode() if isinstance(v, str) else v for v in label_vocabulary], dtype=object),
            dtype=dtypes.string)
    else:
        export_class_list = as_string(array_ops.range(n_classes))
    classes = array_ops.tile(array_ops.expand_dims(export_class_list, 0), array_ops.stack([batch_size, 1]))
    return ClassificationOutput(scores=scores, classes=classes)


def _broadcast(weights, values):
    """The weights as a tensor of `values`'s shape (`None` for no weights)."""
    from ...ops import core_ops
    if weights is None:
        return None
    if isinstance(weights, float):
        return core_ops.ones_like(values) * weights
    return weights * core_ops.ones_like(values)


def _mean_metric(values, weights, name):
    from ...metrics import metrics_impl
    from ...ops import math_unary_ops
    with ops.name_scope(name, values=(values,)) as scope:
        values = math_unary_ops.cast(values, dtypes.float32)
        return metrics_impl.mean(values, weights=_broadcast(weights, values), name=scope)


def _accuracy_baseline(labels_mean):
    from ...ops import math_binary_ops
    with ops.name_scope(None, "accuracy_baseline", labels_mean):
        value, update_op = labels_mean
        return (math_binary_ops.maximum(value, 1. - value, name="value"),
                math_binary_ops.maximum(update_op, 1. - update_op, name="update_op"))


def _auc(labels, predictions, weights=None, curve="ROC", name=None):
    from ...metrics import metrics_impl
    with ops.name_scope(name, "auc", (predictions, labels)) as scope:
        return metrics_impl.auc(labels=labels, predictions=predictions, weights=_broadcast(weights, predictions),
                                curve=curve, name=scope)


def _append_update_ops(train_op):
    from ...ops import core_ops
    update_ops = ops.get_collection(ops.GraphKeys.UPDATE_OPS)
    if update_ops:
        return core_ops.group(train_op, *update_ops)
    return train_op


class _Head:
    """A canned estimator's head (see the module docstring)."""

    def __init__(self, weight_column=None, loss_reduction="weighted_sum", name=None):
        _check_loss_reduction(loss_reduction)
        self._weight_column = weight_column
        self._loss_reduction = loss_reduction
        self._name = name

    @property
    def name(self):
        return self._name

    def _training_loss(self, unweighted_loss, weights):
        from ...losses.losses_impl import compute_weighted_loss
        return compute_weighted_loss(unweighted_loss, weights=weights, reduction=self._loss_reduction)

    def _train_spec(self, predictions, training_loss, unreduced_loss, weights, optimizer, train_op_fn,
                    regularization_losses):
        from ...losses.losses_impl import Reduction
        from ...ops import core_ops, math_reduce_ops
        from ...ops.summary_ops import scalar
        from ...train.training_util import get_global_step
        if regularization_losses:
            regularization_loss = core_ops.add_n(list(regularization_losses))
            loss = core_ops.add_n([training_loss, regularization_loss])
        else:
            regularization_loss = None
            loss = training_loss
        if optimizer is not None:
            if train_op_fn is not None:
                raise ValueError("train_op_fn and optimizer cannot both be set.")
            train_op = optimizer.minimize(loss, global_step=get_global_step())
        elif train_op_fn is not None:
            train_op = train_op_fn(loss)
        else:
            raise ValueError("train_op_fn and optimizer cannot both be None.")
        train_op = _append_update_ops(train_op)
        mean_loss = None
        if self._loss_reduction == Reduction.SUM:
            example_weight_sum = math_reduce_ops.reduce_sum(weights * core_ops.ones_like(unreduced_loss))
            mean_loss = training_loss / example_weight_sum
        with ops.name_scope(""):
            scalar(_summary_key(self._name, MetricKeys.LOSS), loss)
            if mean_loss is not None:
                scalar(_summary_key(self._name, MetricKeys.LOSS_MEAN), mean_loss)
            if regularization_loss is not None:
                scalar(_summary_key(self._name, MetricKeys.LOSS_REGULARIZATION), regularization_loss)
        return EstimatorSpec(mode=ModeKeys.TRAIN, predictions=predictions, loss=loss, train_op=train_op)

    @staticmethod
    def _regularized(training_loss, regularization_losses):
        from ...ops import core_ops
        if regularization_losses:
            regularization_loss = core_ops.add_n(list(regularization_losses))
            return core_ops.add_n([training_loss, regularization_loss]), regularization_loss
        return training_loss, None

    def _add_regularization_metric(self, metric_ops, regularization_loss):
        from ...metrics import metrics_impl
        if regularization_loss is not None:
            metric_ops[_summary_key(self._name, MetricKeys.LOSS_REGULARIZATION)] = metrics_impl.mean(
                regularization_loss, name=MetricKeys.LOSS_REGULARIZATION)


class _BinaryLogisticHead(_Head):
    """Binary classification with `sigmoid_cross_entropy_with_logits`."""

    def __init__(self, weight_column=None, thresholds=None, label_vocabulary=None, loss_reduction="weighted_sum",
                 name=None):
        super().__init__(weight_column, loss_reduction, name)
        thresholds = tuple(thresholds) if thresholds else ()
        if label_vocabulary is not None and not isinstance(label_vocabulary, (list, tuple)):
            raise TypeError("label_vocabulary should be a list or tuple. Given type: {}".format(
                type(label_vocabulary)))
        for threshold in thresholds:
            if threshold <= 0.0 or threshold >= 1.0:
                raise ValueError("thresholds not in (0, 1): {}.".format((thresholds,)))
        self._thresholds = thresholds
        self._label_vocabulary = label_vocabulary

    @property
    def logits_dimension(self):
        return 1

    def create_loss(self, features, mode, logits, labels):
        """The training loss, unreduced loss, weights and processed labels."""
        from ...ops import math_unary_ops
        from ...ops.nn_loss_ops import sigmoid_cross_entropy_with_logits
        labels = _check_dense_labels_match_logits_and_reshape(labels, logits, 1)
        if self._label_vocabulary is not None:
            if labels.dtype != dtypes.string:
                raise ValueError("Labels dtype should be string if there is a vocabulary. Instead got {}".format(
                    labels.dtype))
            labels = _vocab_to_ids(labels, self._label_vocabulary)
        elif labels.dtype == dtypes.string:
            raise ValueError("Labels dtype should be integer or float if there is no vocabulary. Instead got "
                             "{}".format(labels.dtype))
        labels = math_unary_ops.cast(labels, dtypes.float32)
        labels = _assert_range(labels, 2)
        unweighted_loss = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
        weights = _get_weights_and_check_match_logits(features, self._weight_column, logits)
        return self._training_loss(unweighted_loss, weights), unweighted_loss, weights, labels

    def _eval_metric_ops(self, labels, logistic, class_ids, weights, unreduced_loss, regularization_loss):
        from ...metrics import metrics_impl
        from ...ops import array_ops, math_binary_ops, math_unary_ops
        keys = MetricKeys
        w = None if isinstance(weights, float) else weights
        with ops.name_scope(None, "metrics", (labels, logistic, class_ids, unreduced_loss)):
            labels_mean = _mean_metric(labels, w, keys.LABEL_MEAN)
            metric_ops = {
                _summary_key(self._name, keys.LOSS_MEAN): metrics_impl.mean(
                    unreduced_loss, weights=_broadcast(w, unreduced_loss), name=keys.LOSS_MEAN),
                _summary_key(self._name, keys.ACCURACY): metrics_impl.accuracy(
                    labels=labels, predictions=class_ids, weights=w, name=keys.ACCURACY),
                _summary_key(self._name, keys.PRECISION): metrics_impl.precision(
                    labels=labels, predictions=class_ids, weights=w, name=keys.PRECISION),
                _summary_key(self._name, keys.RECALL): metrics_impl.recall(
                    labels=labels, predictions=class_ids, weights=w, name=keys.RECALL),
                _summary_key(self._name, keys.PREDICTION_MEAN): _mean_metric(logistic, w, keys.PREDICTION_MEAN),
                _summary_key(self._name, keys.LABEL_MEAN): labels_mean,
                _summary_key(self._name, keys.ACCURACY_BASELINE): _accuracy_baseline(labels_mean),
                _summary_key(self._name, keys.AUC): _auc(labels, logistic, w, name=keys.AUC),
                _summary_key(self._name, keys.AUC_PR): _auc(labels, logistic, w, curve="PR", name=keys.AUC_PR),
            }
            self._add_regularization_metric(metric_ops, regularization_loss)
            for threshold in self._thresholds:
                predicted = math_unary_ops.cast(math_binary_ops.greater_equal(logistic, threshold), dtypes.float32)
                key = keys.ACCURACY_AT_THRESHOLD % threshold
                metric_ops[_summary_key(self._name, key)] = metrics_impl.accuracy(
                    labels=labels, predictions=predicted, weights=w, name=key)
                for key, fn in ((keys.PRECISION_AT_THRESHOLD % threshold, metrics_impl.precision_at_thresholds),
                                (keys.RECALL_AT_THRESHOLD % threshold, metrics_impl.recall_at_thresholds)):
                    value, update = fn(labels=labels, predictions=logistic, thresholds=(threshold,),
                                       weights=_broadcast(w, logistic), name=key)
                    metric_ops[_summary_key(self._name, key)] = (array_ops.squeeze(value),
                                                                 array_ops.squeeze(update))
        return metric_ops

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None, train_op_fn=None,
                              regularization_losses=None):
        """The `EstimatorSpec` of `mode` for these logits.

        Args:
          features: Input `dict` of `Tensor` or `SparseTensor` objects.
          mode: Estimator's `ModeKeys`.
          logits: logits `Tensor` with shape `[batch_size, 1]`.
          labels: Labels `Tensor` of shape `[batch_size, 1]` or `[batch_size]` (required in TRAIN
            and EVAL).
          optimizer: `Optimizer` instance to optimize the loss in TRAIN mode.
          train_op_fn: Function that takes a scalar loss `Tensor` and returns `train_op` (used if
            `optimizer` is `None`).
          regularization_losses: Scalar losses added to the training loss.

        Returns:
          `EstimatorSpec`.

        Raises:
          ValueError: If both or neither of `train_op_fn` and `optimizer` are given in TRAIN mode.
        """
        from ...ops import array_ops, core_ops, math_unary_ops
        from ...ops.nn_activation_ops import softmax
        from ..export import PredictOutput, RegressionOutput
        keys = PredictionKeys
        with ops.name_scope(self._name, "head"):
            with ops.name_scope(None, "predictions", (logits,)):
                logits = _check_logits_final_dim(logits, 1)
                logistic = math_unary_ops.sigmoid(logits, name=keys.LOGISTIC)
                two_class_logits = array_ops.concat((core_ops.zeros_like(logits), logits), axis=-1,
                                                    name="two_class_logits")
                probabilities = softmax(two_class_logits, name=keys.PROBABILITIES)
                class_ids, classes = _class_ids_and_classes(two_class_logits, self._label_vocabulary)
                predictions = {keys.LOGITS: logits, keys.LOGISTIC: logistic, keys.PROBABILITIES: probabilities,
                               keys.CLASS_IDS: class_ids, keys.CLASSES: classes}
            if mode == ModeKeys.PREDICT:
                classifier_output = _classification_output(probabilities, 2, self._label_vocabulary)
                return EstimatorSpec(mode=ModeKeys.PREDICT, predictions=predictions, export_outputs={
                    _DEFAULT_SERVING_KEY: classifier_output, _CLASSIFY_SERVING_KEY: classifier_output,
                    _REGRESS_SERVING_KEY: RegressionOutput(value=logistic),
                    _PREDICT_SERVING_KEY: PredictOutput(predictions)})
            training_loss, unreduced_loss, weights, processed_labels = self.create_loss(features, mode, logits,
                                                                                        labels)
            if mode == ModeKeys.EVAL:
                loss, regularization_loss = self._regularized(training_loss, regularization_losses)
                return EstimatorSpec(mode=ModeKeys.EVAL, predictions=predictions, loss=loss,
                                     eval_metric_ops=self._eval_metric_ops(
                                         processed_labels, logistic, class_ids, weights, unreduced_loss,
                                         regularization_loss))
            return self._train_spec(predictions, training_loss, unreduced_loss, weights, optimizer, train_op_fn,
                                    regularization_losses)


class _MultiClassHead(_Head):
    """Multi-class classification with sparse softmax cross entropy."""

    def __init__(self, n_classes, weight_column=None, label_vocabulary=None, loss_reduction="weighted_sum",
                 name=None):
        if n_classes is None or n_classes <= 2:
            raise ValueError("n_classes must be > 2: %s." % n_classes)
        if label_vocabulary is not None and not isinstance(label_vocabulary, (list, tuple)):
            raise ValueError("label_vocabulary should be a list or a tuple. Given type: {}".format(
                type(label_vocabulary)))
        super().__init__(weight_column, loss_reduction, name)
        self._n_classes = n_classes
        self._label_vocabulary = label_vocabulary

    @property
    def logits_dimension(self):
        return self._n_classes

    def _label_ids(self, labels):
        if self._label_vocabulary is None:
            if not labels.dtype.is_integer:
                raise ValueError("Labels dtype should be integer. Instead got {}.".format(labels.dtype))
            label_ids = labels
        else:
            if labels.dtype != dtypes.string:
                raise ValueError("Labels dtype should be string if there is a vocabulary. Instead got {}".format(
                    labels.dtype))
            label_ids = _vocab_to_ids(labels, self._label_vocabulary)
        return _assert_range(label_ids, self._n_classes)

    def create_loss(self, features, mode, logits, labels):
        """The training loss, unreduced loss, weights and label ids."""
        from ...losses.losses_impl import Reduction, sparse_softmax_cross_entropy
        from ...ops import array_ops
        labels = _check_dense_labels_match_logits_and_reshape(labels, logits, 1)
        label_ids = self._label_ids(labels)
        unweighted_loss = sparse_softmax_cross_entropy(labels=label_ids, logits=logits, reduction=Reduction.NONE)
        unweighted_loss = array_ops.expand_dims(unweighted_loss, axis=-1)
        weights = _get_weights_and_check_match_logits(features, self._weight_column, logits)
        return self._training_loss(unweighted_loss, weights), unweighted_loss, weights, label_ids

    def _eval_metric_ops(self, labels, class_ids, weights, unreduced_loss, regularization_loss):
        from ...metrics import metrics_impl
        keys = MetricKeys
        w = None if isinstance(weights, float) else weights
        with ops.name_scope(None, "metrics", (labels, class_ids, unreduced_loss)):
            metric_ops = {
                _summary_key(self._name, keys.LOSS_MEAN): metrics_impl.mean(
                    unreduced_loss, weights=_broadcast(w, unreduced_loss), name=keys.LOSS_MEAN),
                _summary_key(self._name, keys.ACCURACY): metrics_impl.accuracy(
                    labels=labels, predictions=class_ids, weights=w, name=keys.ACCURACY),
            }
            self._add_regularization_metric(metric_ops, regularization_loss)
        return metric_ops

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None, train_op_fn=None,
                              regularization_losses=None):
        """The `EstimatorSpec` of `mode` for these logits (see `_BinaryLogisticHead`).

        Args:
          features: Input `dict` of `Tensor` or `SparseTensor` objects.
          mode: Estimator's `ModeKeys`.
          logits: logits `Tensor` with shape `[batch_size, n_classes]`.
          labels: Integer or string labels `[batch_size, 1]` or `[batch_size]`.
          optimizer: `Optimizer` instance to optimize the loss in TRAIN mode.
          train_op_fn: Function that takes a scalar loss `Tensor` and returns `train_op`.
          regularization_losses: Scalar losses added to the training loss.

        Returns:
          `EstimatorSpec`.

        Raises:
          ValueError: If both or neither of `train_op_fn` and `optimizer` are given in TRAIN mode.
        """
        from ...ops.nn_activation_ops import softmax
        from ..export import PredictOutput
        keys = PredictionKeys
        with ops.name_scope(self._name, "head"):
            logits = _check_logits_final_dim(logits, self._n_classes)
            with ops.name_scope(None, "predictions", (logits,)):
                class_ids, classes = _class_ids_and_classes(logits, self._label_vocabulary)
                probabilities = softmax(logits, name=keys.PROBABILITIES)
                predictions = {keys.LOGITS: logits, keys.PROBABILITIES: probabilities, keys.CLASS_IDS: class_ids,
                               keys.CLASSES: classes}
            if mode == ModeKeys.PREDICT:
                classifier_output = _classification_output(probabilities, self._n_classes, self._label_vocabulary)
                return EstimatorSpec(mode=ModeKeys.PREDICT, predictions=predictions, export_outputs={
                    _DEFAULT_SERVING_KEY: classifier_output, _CLASSIFY_SERVING_KEY: classifier_output,
                    _PREDICT_SERVING_KEY: PredictOutput(predictions)})
            training_loss, unreduced_loss, weights, label_ids = self.create_loss(features, mode, logits, labels)
            if mode == ModeKeys.EVAL:
                loss, regularization_loss = self._regularized(training_loss, regularization_losses)
                return EstimatorSpec(mode=ModeKeys.EVAL, predictions=predictions, loss=loss,
                                     eval_metric_ops=self._eval_metric_ops(label_ids, class_ids, weights,
                                                                           unreduced_loss, regularization_loss))
            return self._train_spec(predictions, training_loss, unreduced_loss, weights, optimizer, train_op_fn,
                                    regularization_losses)


class _RegressionHead(_Head):
    """Regression with the mean squared error."""

    def __init__(self, label_dimension=1, weight_column=None, loss_reduction="weighted_sum", name=None):
        if label_dimension < 1:
            raise ValueError("Invalid label_dimension %s." % label_dimension)
        super().__init__(weight_column, loss_reduction, name)
        self._logits_dimension = label_dimension

    @property
    def logits_dimension(self):
        return self._logits_dimension

    def create_loss(self, features, mode, logits, labels):
        """The training loss, unreduced loss, weights and float labels."""
        from ...losses.losses_impl import Reduction, mean_squared_error
        from ...ops import math_unary_ops
        labels = _check_dense_labels_match_logits_and_reshape(labels, logits, self._logits_dimension)
        labels = math_unary_ops.cast(labels, dtypes.float32)
        unweighted_loss = mean_squared_error(labels=labels, predictions=logits, reduction=Reduction.NONE)
        weights = _get_weights_and_check_match_logits(features, self._weight_column, logits)
        return self._training_loss(unweighted_loss, weights), unweighted_loss, weights, labels

    def _eval_metric_ops(self, predicted_value, labels, weights, unreduced_loss, regularization_loss):
        from ...metrics import metrics_impl
        keys = MetricKeys
        w = None if isinstance(weights, float) else weights
        metric_ops = {
            _summary_key(self._name, keys.LOSS_MEAN): metrics_impl.mean(
                unreduced_loss, weights=_broadcast(w, unreduced_loss)),
            _summary_key(self._name, keys.PREDICTION_MEAN): _mean_metric(predicted_value, w, keys.PREDICTION_MEAN),
            _summary_key(self._name, keys.LABEL_MEAN): metrics_impl.mean(labels, weights=_broadcast(w, labels)),
        }
        self._add_regularization_metric(metric_ops, regularization_loss)
        return metric_ops

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None, train_op_fn=None,
                              regularization_losses=None):
        """The `EstimatorSpec` of `mode` for these logits (see `_BinaryLogisticHead`).

        Args:
          features: Input `dict` of `Tensor` or `SparseTensor` objects.
          mode: Estimator's `ModeKeys`.
          logits: logits `Tensor` with shape `[batch_size, label_dimension]`.
          labels: Labels `[batch_size, label_dimension]` (or `[batch_size]` when it is 1).
          optimizer: `Optimizer` instance to optimize the loss in TRAIN mode.
          train_op_fn: Function that takes a scalar loss `Tensor` and returns `train_op`.
          regularization_losses: Scalar losses added to the training loss.

        Returns:
          `EstimatorSpec`.

        Raises:
          ValueError: If both or neither of `train_op_fn` and `optimizer` are given in TRAIN mode.
        """
        from ..export import PredictOutput, RegressionOutput
        with ops.name_scope(self._name, "head"):
            logits = _check_logits_final_dim(logits, self._logits_dimension)
            predicted_value = logits
            predictions = {PredictionKeys.PREDICTIONS: predicted_value}
            if mode == ModeKeys.PREDICT:
                regression_output = RegressionOutput(value=predicted_value)
                return EstimatorSpec(mode=ModeKeys.PREDICT, predictions=predictions, export_outputs={
                    _DEFAULT_SERVING_KEY: regression_output, _REGRESS_SERVING_KEY: regression_output,
                    _PREDICT_SERVING_KEY: PredictOutput(predictions)})
            training_loss, unreduced_loss, weights, labels = self.create_loss(features, mode, logits, labels)
            if mode == ModeKeys.EVAL:
                loss, regularization_loss = self._regularized(training_loss, regularization_losses)
                return EstimatorSpec(mode=ModeKeys.EVAL, predictions=predictions, loss=loss,
                                     eval_metric_ops=self._eval_metric_ops(predicted_value, labels, weights,
                                                                           unreduced_loss, regularization_loss))
            return self._train_spec(predictions, training_loss, unreduced_loss, weights, optimizer, train_op_fn,
                                    regularization_losses)


def _binary_logistic_or_multi_class_head(n_classes, weight_column, label_vocabulary, loss_reduction):
    """The classification head of a canned classifier: binary for `n_classes == 2`."""
    if n_classes == 2:
        return _BinaryLogisticHead(weight_column=weight_column, label_vocabulary=label_vocabulary,
                                   loss_reduction=loss_reduction)
    return _MultiClassHead(n_classes, weight_column=weight_column, label_vocabulary=label_vocabulary,
                           loss_reduction=loss_reduction)


def _regression_head(weight_column=None, label_dimension=1, loss_reduction="weighted_sum"):
    return _RegressionHead(label_dimension=label_dimension, weight_column=weight_column,
                           loss_reduction=loss_reduction)
