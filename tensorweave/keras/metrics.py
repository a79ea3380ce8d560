"""tf.keras.metrics: Keras 2 metric functions and the stateful metric classes (TF 1.15).

The functions take `(y_true, y_pred)` and return per-sample values; the classes accumulate them in
variables (`update_state`), report `result()` and are zeroed by `reset_states()`.
"""

import numpy as np

from ..framework import dtypes, ops
from ..ops import array_ops, core_ops, math_ops, nn_ops, state_ops
from ..variables import Variable
from .losses import (
    binary_crossentropy,
    categorical_crossentropy,
    categorical_hinge,
    cosine_proximity,
    hinge,
    kld,
    kullback_leibler_divergence,
    logcosh,
    mae,
    mape,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
    mse,
    msle,
    poisson,
    sparse_categorical_crossentropy,
    squared_hinge,
)

__all__ = ["AUC", "Accuracy", "BinaryAccuracy", "BinaryCrossentropy", "CategoricalAccuracy", "CategoricalCrossentropy",
           "Mean", "MeanAbsoluteError", "MeanMetricWrapper", "MeanSquaredError", "Metric",
           "SparseCategoricalAccuracy", "SparseCategoricalCrossentropy", "SparseTopKCategoricalAccuracy", "Sum",
           "TopKCategoricalAccuracy", "accuracy", "binary_accuracy", "binary_crossentropy", "categorical_accuracy",
           "categorical_crossentropy", "categorical_hinge", "cosine_proximity", "deserialize", "get", "hinge",
           "kld", "kullback_leibler_divergence", "logcosh", "mae", "mape", "mean_absolute_error",
           "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error", "mse", "msle",
           "poisson", "serialize", "sparse_categorical_accuracy", "sparse_categorical_crossentropy",
           "sparse_top_k_categorical_accuracy", "squared_hinge", "top_k_categorical_accuracy"]

_FLOATX = dtypes.float32


def _session():
    try:
        from . import backend
        return backend.get_session()
    except (ImportError, AttributeError):
        sess = ops.get_default_session()
        if sess is None:
            raise ValueError("No default session is registered; run inside `with tf.Session():`")
        return sess


def accuracy(y_true, y_pred):
    """1.0 where `y_true == y_pred` (element-wise), else 0.0."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = math_ops.cast(ops.convert_to_tensor(y_true), y_pred.dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), _FLOATX)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """Mean over the last axis of `y_true == (y_pred > threshold)`."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = math_ops.cast(ops.convert_to_tensor(y_true), y_pred.dtype)
    y_pred = math_ops.cast(y_pred > math_ops.cast(threshold, y_pred.dtype), y_pred.dtype)
    return math_ops.reduce_mean(math_ops.cast(math_ops.equal(y_true, y_pred), _FLOATX), axis=-1)


def categorical_accuracy(y_true, y_pred):
    """1.0 where `argmax(y_true, -1) == argmax(y_pred, -1)`, else 0.0."""
    return math_ops.cast(math_ops.equal(math_ops.argmax(y_true, axis=-1), math_ops.argmax(y_pred, axis=-1)),
                         _FLOATX)


def _squeeze_sparse_labels(y_true, y_pred):
    y_true = ops.convert_to_tensor(y_true)
    y_pred = ops.convert_to_tensor(y_pred)
    if y_true.shape.ndims is not None and y_pred.shape.ndims is not None and \
            y_true.shape.ndims == y_pred.shape.ndims:
        y_true = array_ops.squeeze(y_true, [-1])
    return y_true, y_pred


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the integer label `y_true` equals `argmax(y_pred, -1)`, else 0.0."""
    y_true, y_pred = _squeeze_sparse_labels(y_true, y_pred)
    y_pred = math_ops.argmax(y_pred, axis=-1)
    if y_pred.dtype != y_true.dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), _FLOATX)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the one-hot target is among the `k` largest predictions, else 0.0."""
    y_pred = ops.convert_to_tensor(y_pred)
    return math_ops.cast(nn_ops.in_top_k(y_pred, math_ops.cast(math_ops.argmax(y_true, axis=-1), dtypes.int32), k),
                         _FLOATX)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the integer target is among the `k` largest predictions, else 0.0."""
    y_true, y_pred = _squeeze_sparse_labels(y_true, y_pred)
    labels = math_ops.cast(array_ops.reshape(y_true, [-1]), dtypes.int32)
    return math_ops.cast(nn_ops.in_top_k(y_pred, labels, k), _FLOATX)


class Metric:
    """Base class of the stateful metrics.

    Args:
      name: Name of the metric (and prefix of its variables).
      dtype: Data type of the result (float32).
    """

    def __init__(self, name=None, dtype=None, **kwargs):
        self.name = name or type(self).__name__.lower()
        self._dtype = dtypes.as_dtype(dtype or _FLOATX)
        self._weights = []

    @property
    def dtype(self):
        return self._dtype

    @property
    def variables(self):
        """The state variables."""
        return list(self._weights)

    weights = variables

    def add_weight(self, name, shape=(), initializer="zeros", dtype=None):
        """Adds a non-trainable state variable initialized to zeros."""
        dtype = dtypes.as_dtype(dtype or self._dtype)
        with ops.name_scope(self.name + "/"):
            var = Variable(np.zeros(shape, dtype.as_numpy_dtype), trainable=False, name=name, dtype=dtype)
        self._weights.append(var)
        return var

    def __call__(self, *args, **kwargs):
        """Updates the state and returns the result tensor (computed after the update)."""
        update_op = self.update_state(*args, **kwargs)
        with ops.control_dependencies([update_op]):
            return core_ops.identity(self.result())

    def reset_states(self):
        """Sets all state variables to zero (in the Keras/default session)."""
        sess = _session()
        for v in self._weights:
            v.load(np.zeros(v.shape.as_list(), v.dtype.base_dtype.as_numpy_dtype), sess)

    def update_state(self, *args, **kwargs):
        raise NotImplementedError("Must be implemented in subclasses.")

    def result(self):
        raise NotImplementedError("Must be implemented in subclasses.")

    def get_config(self):
        return {"name": self.name, "dtype": self._dtype.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class _Reduce(Metric):
    _mean = True

    def __init__(self, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_weight("total")
        if self._mean:
            self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        """Accumulates `values` (weighted by `sample_weight`); returns the update op."""
        values = math_ops.cast(ops.convert_to_tensor(values), self._dtype)
        if sample_weight is not None:
            sample_weight = math_ops.cast(ops.convert_to_tensor(sample_weight), self._dtype)
            vr, wr = values.shape.ndims, sample_weight.shape.ndims
            if vr is not None and wr is not None:
                if wr == vr + 1 and sample_weight.shape.as_list()[-1] == 1:
                    sample_weight = array_ops.squeeze(sample_weight, [-1])
                elif vr == wr + 1 and values.shape.as_list()[-1] == 1:
                    values = array_ops.squeeze(values, [-1])
                while 0 < sample_weight.shape.ndims < values.shape.ndims:
                    sample_weight = array_ops.expand_dims(sample_weight, -1)
            sample_weight = sample_weight + core_ops.zeros_like(values)
            values = values * sample_weight
        update_total = state_ops.assign_add(self.total, math_ops.reduce_sum(values))
        if not self._mean:
            return update_total
        if sample_weight is None:
            num = math_ops.cast(array_ops.size(values), self._dtype)
        else:
            num = math_ops.reduce_sum(sample_weight)
        with ops.control_dependencies([update_total]):
            return state_ops.assign_add(self.count, num)

    def result(self):
        if not self._mean:
            return core_ops.identity(self.total)
        return math_ops.div_no_nan(self.total, self.count)


class Sum(_Reduce):
    """Computes the (weighted) sum of the given values."""

    _mean = False

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)


class Mean(_Reduce):
    """Computes the (weighted) mean of the given values: `total / count`."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)


class MeanMetricWrapper(Mean):
    """Wraps a per-sample function `fn(y_true, y_pred, **kwargs)` as a stateful mean metric."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Accumulates `fn(y_true, y_pred)`; returns the update op."""
        matches = self._fn(y_true, y_pred, **self._fn_kwargs)
        return super().update_state(matches, sample_weight=sample_weight)

    def get_config(self):
        config = dict(self._fn_kwargs)
        config.update(super().get_config())
        return config


def _wrapper(class_name, fn, default_name, doc, **defaults):
    params = list(defaults)

    def __init__(self, *args, name=default_name, dtype=None, **kwargs):
        kw = dict(defaults)
        for key, value in zip(params, args):
            kw[key] = value
        for key, value in kwargs.items():
            if key not in kw:
                raise TypeError("%s got an unexpected keyword argument '%s'" % (class_name, key))
            kw[key] = value
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **kw)

    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc})


Accuracy = _wrapper("Accuracy", accuracy, "accuracy", "How often predictions equal labels.")
BinaryAccuracy = _wrapper("BinaryAccuracy", binary_accuracy, "binary_accuracy",
                          "How often predictions (thresholded at `threshold`) match binary labels.", threshold=0.5)
CategoricalAccuracy = _wrapper("CategoricalAccuracy", categorical_accuracy, "categorical_accuracy",
                               "How often the prediction's argmax matches the one-hot label's.")
SparseCategoricalAccuracy = _wrapper("SparseCategoricalAccuracy", sparse_categorical_accuracy,
                                     "sparse_categorical_accuracy",
                                     "How often the prediction's argmax matches the integer label.")
TopKCategoricalAccuracy = _wrapper("TopKCategoricalAccuracy", top_k_categorical_accuracy,
                                   "top_k_categorical_accuracy", "How often the one-hot target is in the top `k`.",
                                   k=5)
SparseTopKCategoricalAccuracy = _wrapper("SparseTopKCategoricalAccuracy", sparse_top_k_categorical_accuracy,
                                         "sparse_top_k_categorical_accuracy",
                                         "How often the integer target is in the top `k`.", k=5)
MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error",
                            "The mean of the squared errors.")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error",
                             "The mean of the absolute errors.")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                              "The mean binary crossentropy.", from_logits=False, label_smoothing=0)
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy, "categorical_crossentropy",
                                   "The mean categorical crossentropy.", from_logits=False, label_smoothing=0)
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                         "sparse_categorical_crossentropy",
                                         "The mean sparse categorical crossentropy.", from_logits=False, axis=-1)

class AUC(Metric):
    """Approximates the area under the ROC or PR curve with `num_thresholds` confusion matrices.

    Args:
      num_thresholds: Number of thresholds (> 1) used to discretize the curve.
      curve: "ROC" or "PR".
      summation_method: "interpolation" (trapezoids; for PR the Davis & Goadrich interpolation),
        "minoring" or "majoring".
      name: Name of the metric.
      thresholds: Optional explicit thresholds in [0, 1] (then `num_thresholds` is ignored).
      dtype: Data type of the result.

    Raises:
      ValueError: For `num_thresholds <= 1`, an unknown `curve` or `summation_method`, or a
        threshold outside [0, 1].
    """

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None,
                 thresholds=None, dtype=None):
        if str(curve).upper() not in ("ROC", "PR"):
            raise ValueError('Invalid curve: "{}". Valid options are: "[\'ROC\', \'PR\']"'.format(curve))
        if str(summation_method).lower() not in ("interpolation", "minoring", "majoring"):
            raise ValueError('Invalid summation method: "{}". Valid options are: '
                             '"[\'interpolation\', \'majoring\', \'minoring\']"'.format(summation_method))
        self.curve = str(curve).upper()
        self.summation_method = str(summation_method).lower()
        super().__init__(name=name or "auc", dtype=dtype)
        if thresholds is not None:
            thresholds = sorted(float(t) for t in thresholds)
            if any(t < 0 or t > 1 for t in thresholds):
                raise ValueError("Threshold values must be in [0, 1]. Invalid values: {}".format(thresholds))
            self.num_thresholds = len(thresholds) + 2
        else:
            if num_thresholds <= 1:
                raise ValueError("`num_thresholds` must be > 1.")
            self.num_thresholds = num_thresholds
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        eps = 1e-7
        self.thresholds = [0.0 - eps] + list(thresholds) + [1.0 + eps]
        n = self.num_thresholds
        self.true_positives = self.add_weight("true_positives", shape=(n,))
        self.true_negatives = self.add_weight("true_negatives", shape=(n,))
        self.false_positives = self.add_weight("false_positives", shape=(n,))
        self.false_negatives = self.add_weight("false_negatives", shape=(n,))

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Accumulates the confusion matrices at each threshold; returns the update op."""
        y_pred = math_ops.cast(array_ops.reshape(ops.convert_to_tensor(y_pred), [1, -1]), self._dtype)
        labels = math_ops.cast(array_ops.reshape(ops.convert_to_tensor(y_true), [1, -1]), dtypes.bool_)
        thresh = ops.convert_to_tensor(np.array(self.thresholds, self._dtype.as_numpy_dtype).reshape(-1, 1))
        pred_pos = math_ops.greater(y_pred, thresh)
        pred_neg = math_ops.logical_not(pred_pos)
        label_neg = math_ops.logical_not(labels)
        if sample_weight is None:
            weights = None
        else:
            weights = array_ops.reshape(math_ops.cast(ops.convert_to_tensor(sample_weight), self._dtype), [1, -1])
            weights = weights + core_ops.zeros_like(y_pred)

        def count(a, b):
            hits = math_ops.cast(math_ops.logical_and(a, b), self._dtype)
            if weights is not None:
                hits = hits * weights
            return math_ops.reduce_sum(hits, axis=1)

        return core_ops.group(
            state_ops.assign_add(self.true_positives, count(labels, pred_pos)),
            state_ops.assign_add(self.false_positives, count(label_neg, pred_pos)),
            state_ops.assign_add(self.true_negatives, count(label_neg, pred_neg)),
            state_ops.assign_add(self.false_negatives, count(labels, pred_neg)))

    def _interpolate_pr_auc(self):
        n = self.num_thresholds
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        dtp = tp[:n - 1] - tp[1:]
        p = tp + fp
        dp = p[:n - 1] - p[1:]
        prec_slope = math_ops.div_no_nan(dtp, math_ops.maximum(dp, 0.))
        intercept = tp[1:] - prec_slope * p[1:]
        safe_p_ratio = array_ops.where(
            math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
            math_ops.div_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0.)), core_ops.ones_like(p[1:]))
        return math_ops.reduce_sum(math_ops.div_no_nan(prec_slope * (dtp + intercept * math_ops.log(safe_p_ratio)),
                                                       math_ops.maximum(tp[1:] + fn[1:], 0.)))

    def result(self):
        """The area under the curve (a scalar tensor)."""
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc()
        n = self.num_thresholds
        tp, fp = self.true_positives, self.false_positives
        recall = math_ops.div_no_nan(tp, tp + self.false_negatives)
        if self.curve == "ROC":
            x = math_ops.div_no_nan(fp, fp + self.true_negatives)
            y = recall
        else:
            x = recall
            y = math_ops.div_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[:n - 1] + y[1:]) / 2.
        elif self.summation_method == "minoring":
            heights = math_ops.minimum(y[:n - 1], y[1:])
        else:
            heights = math_ops.maximum(y[:n - 1], y[1:])
        return math_ops.reduce_sum((x[:n - 1] - x[1:]) * heights)

    def get_config(self):
        config = {"num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method}
        config.update(super().get_config())
        return config


acc = ACC = accuracy
bce = BCE = binary_crossentropy
cosine = cosine_proximity
_OBJECTS = {name: globals()[name] for name in __all__ if name not in ("get", "serialize", "deserialize")}
_OBJECTS.update({"acc": accuracy, "cosine": cosine_proximity, "MSE": mse, "MAE": mae, "MAPE": mape, "MSLE": msle,
                 "KLD": kld})


def serialize(metric):
    """Returns the name of a metric function, or `{"class_name", "config"}` for a `Metric`."""
    if isinstance(metric, Metric):
        return {"class_name": metric.__class__.__name__, "config": metric.get_config()}
    return metric.__name__


def deserialize(config, custom_objects=None):
    """Returns the metric function (or `Metric` instance) for a name or config dict.

    Raises:
      ValueError: `Unknown metric function:<name>` for an unknown identifier.
    """
    if isinstance(config, dict):
        name = config["class_name"]
        cls = (custom_objects or {}).get(name) or _OBJECTS.get(name)
        if not isinstance(cls, type):
            raise ValueError("Unknown metric function: " + str(name))
        return cls.from_config(dict(config.get("config", {})))
    obj = (custom_objects or {}).get(config) or _OBJECTS.get(config)
    if obj is None:
        raise ValueError("Unknown metric function:" + str(config))
    return obj


def get(identifier):
    """Returns a metric from a name, a config dict or a callable.

    Raises:
      ValueError: If `identifier` cannot be interpreted.
    """
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret metric function identifier: " + str(identifier))
