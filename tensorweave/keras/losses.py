"""tf.keras.losses: Keras 2 loss functions (as TF 1.15 had them) and the `Loss` classes.

The functions take `(y_true, y_pred)` and return per-sample losses (a reduction over the last axis);
the classes weight them by `sample_weight` and reduce them (`SUM_OVER_BATCH_SIZE` by default).
"""

from ..framework import ops
from ..ops import array_ops, clip_ops, math_ops, nn_ops
from . import backend

__all__ = ["BinaryCrossentropy", "CategoricalCrossentropy", "CategoricalHinge", "CosineSimilarity", "Hinge",
           "Huber", "KLDivergence", "LogCosh", "Loss", "MeanAbsoluteError", "MeanAbsolutePercentageError",
           "MeanSquaredError", "MeanSquaredLogarithmicError", "Poisson", "Reduction", "SparseCategoricalCrossentropy",
           "SquaredHinge", "binary_crossentropy", "categorical_crossentropy", "categorical_hinge", "cosine",
           "cosine_proximity", "cosine_similarity", "deserialize", "get", "hinge", "huber_loss", "kld",
           "kullback_leibler_divergence", "logcosh", "mae", "mape", "mean_absolute_error",
           "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error", "mse", "msle",
           "poisson", "serialize", "sparse_categorical_crossentropy", "squared_hinge"]

def _epsilon():
    return backend.epsilon()


def _pair(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = math_ops.cast(ops.convert_to_tensor(y_true), y_pred.dtype)
    return y_true, y_pred


def _const(v, t):
    return ops.convert_to_tensor(v, dtype=t.dtype.base_dtype)


def mean_squared_error(y_true, y_pred):
    """Mean squared error over the last axis: `mean(square(y_pred - y_true), -1)`."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.squared_difference(y_pred, y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """Mean absolute error over the last axis: `mean(abs(y_pred - y_true), -1)`."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.abs(y_pred - y_true), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """`100 * mean(abs((y_true - y_pred) / max(abs(y_true), epsilon)), -1)`."""
    y_true, y_pred = _pair(y_true, y_pred)
    diff = math_ops.abs((y_true - y_pred) / math_ops.maximum(math_ops.abs(y_true), _const(_epsilon(), y_true)))
    return 100. * math_ops.reduce_mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    """`mean(square(log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1)), -1)`."""
    y_true, y_pred = _pair(y_true, y_pred)
    eps = _const(_epsilon(), y_pred)
    first_log = math_ops.log(math_ops.maximum(y_pred, eps) + 1.)
    second_log = math_ops.log(math_ops.maximum(y_true, eps) + 1.)
    return math_ops.reduce_mean(math_ops.squared_difference(first_log, second_log), axis=-1)


def _maybe_convert_labels(y_true):
    """Converts binary labels in {0, 1} to {-1, 1} (when all of them are 0 or 1)."""
    are_zeros = math_ops.equal(y_true, 0)
    are_ones = math_ops.equal(y_true, 1)
    is_binary = math_ops.reduce_all(math_ops.logical_or(are_zeros, are_ones))
    return array_ops.where(array_ops.fill(array_ops.shape(y_true), is_binary), 2. * y_true - 1., y_true)


def squared_hinge(y_true, y_pred):
    """`mean(square(max(1 - y_true * y_pred, 0)), -1)`; 0/1 labels are mapped to -1/1."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return math_ops.reduce_mean(math_ops.square(math_ops.maximum(1. - y_true * y_pred, 0.)), axis=-1)


def hinge(y_true, y_pred):
    """`mean(max(1 - y_true * y_pred, 0), -1)`; 0/1 labels are mapped to -1/1."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return math_ops.reduce_mean(math_ops.maximum(1. - y_true * y_pred, 0.), axis=-1)


def categorical_hinge(y_true, y_pred):
    """`max(0, max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1)` over the last axis."""
    y_true, y_pred = _pair(y_true, y_pred)
    pos = math_ops.reduce_sum(y_true * y_pred, axis=-1)
    neg = math_ops.reduce_max((1. - y_true) * y_pred, axis=-1)
    return math_ops.maximum(neg - pos + 1., _const(0., y_pred))


def huber_loss(y_true, y_pred, delta=1.0):
    """Huber loss: `0.5 * x ** 2` for `|x| <= delta`, else `delta * |x| - 0.5 * delta ** 2` (mean, -1)."""
    y_true, y_pred = _pair(y_true, y_pred)
    error = y_pred - y_true
    abs_error = math_ops.abs(error)
    quadratic = math_ops.minimum(abs_error, _const(delta, y_pred))
    linear = abs_error - quadratic
    return math_ops.reduce_mean(0.5 * quadratic * quadratic + delta * linear, axis=-1)


def logcosh(y_true, y_pred):
    """Logarithm of the hyperbolic cosine of the prediction error, averaged over the last axis."""
    y_true, y_pred = _pair(y_true, y_pred)
    x = y_pred - y_true
    return math_ops.reduce_mean(x + nn_ops.softplus(-2. * x) - math_ops.cast(math_ops.log(2.), x.dtype), axis=-1)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
    """Categorical crossentropy between one-hot `y_true` and probabilities (or logits) `y_pred`.

    Args:
      y_true: One-hot targets.
      y_pred: Predicted probabilities (`from_logits=False`) or logits.
      from_logits: Whether `y_pred` holds logits.
      label_smoothing: Float in [0, 1]; targets become `y_true * (1 - ls) + ls / num_classes`.

    Returns:
      Per-sample losses.
    """
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        num_classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + (label_smoothing / num_classes)
    return backend.categorical_crossentropy(y_true, y_pred, from_logits=from_logits)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    """Categorical crossentropy with integer targets.

    Args:
      y_true: Integer class ids (shape of `y_pred` without its last axis, or with a trailing 1).
      y_pred: Predicted probabilities (`from_logits=False`) or logits.
      from_logits: Whether `y_pred` holds logits.
      axis: The class axis (only -1 is supported).

    Returns:
      Per-sample losses.

    Raises:
      ValueError: For an `axis` other than the last one.
    """
    return backend.sparse_categorical_crossentropy(ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred),
                                                   from_logits=from_logits, axis=axis)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
    """Binary crossentropy averaged over the last axis.

    Args:
      y_true: Targets in [0, 1].
      y_pred: Predicted probabilities (`from_logits=False`) or logits.
      from_logits: Whether `y_pred` holds logits.
      label_smoothing: Float in [0, 1]; targets become `y_true * (1 - ls) + 0.5 * ls`.

    Returns:
      Per-sample losses.
    """
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return math_ops.reduce_mean(backend.binary_crossentropy(y_true, y_pred, from_logits), axis=-1)


def kullback_leibler_divergence(y_true, y_pred):
    """`sum(y_true * log(y_true / y_pred), -1)`, both clipped to `[epsilon, 1]`."""
    y_true, y_pred = _pair(y_true, y_pred)
    eps = _const(_epsilon(), y_pred)
    one = _const(1., y_pred)
    y_true = clip_ops.clip_by_value(y_true, eps, one)
    y_pred = clip_ops.clip_by_value(y_pred, eps, one)
    return math_ops.reduce_sum(y_true * math_ops.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    """`mean(y_pred - y_true * log(y_pred + epsilon), -1)`."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(y_pred - y_true * math_ops.log(y_pred + _epsilon()), axis=-1)


def cosine_proximity(y_true, y_pred, axis=-1):
    """Negative cosine similarity: `-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)`."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = nn_ops.l2_normalize(y_true, axis=axis)
    y_pred = nn_ops.l2_normalize(y_pred, axis=axis)
    return -math_ops.reduce_sum(y_true * y_pred, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence
cosine = cosine_similarity = cosine_proximity


class Reduction:
    """Types of loss reduction (`tf.keras.losses.Reduction`)."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError("Invalid Reduction Key %s." % key)


def _weight_and_reduce(losses, sample_weight, reduction):
    losses = ops.convert_to_tensor(losses)
    if sample_weight is not None:
        sample_weight = math_ops.cast(ops.convert_to_tensor(sample_weight), losses.dtype)
        lr, wr = losses.shape.ndims, sample_weight.shape.ndims
        if lr is not None and wr is not None:
            if wr == lr + 1 and sample_weight.shape.as_list()[-1] == 1:
                sample_weight = array_ops.squeeze(sample_weight, [-1])
            elif lr == wr + 1 and losses.shape.as_list()[-1] == 1:
                losses = array_ops.squeeze(losses, [-1])
            while sample_weight.shape.ndims < losses.shape.ndims and sample_weight.shape.ndims > 0:
                sample_weight = array_ops.expand_dims(sample_weight, -1)
        losses = losses * sample_weight
    if reduction == Reduction.NONE:
        return losses
    total = math_ops.reduce_sum(losses)
    if reduction == Reduction.SUM:
        return total
    return math_ops.div_no_nan(total, math_ops.cast(array_ops.size(losses), losses.dtype))


class Loss:
    """Loss base class: `loss(y_true, y_pred, sample_weight=None)` returns the weighted, reduced loss.

    Args:
      reduction: One of `Reduction` (`AUTO` means `SUM_OVER_BATCH_SIZE`).
      name: Optional name for the op.
    """

    def __init__(self, reduction=Reduction.AUTO, name=None):
        Reduction.validate(reduction)
        self.reduction = reduction
        self.name = name

    def __call__(self, y_true, y_pred, sample_weight=None):
        scope = self.name or self.__class__.__name__
        with ops.name_scope(scope):
            losses = self.call(y_true, y_pred)
            reduction = Reduction.SUM_OVER_BATCH_SIZE if self.reduction == Reduction.AUTO else self.reduction
            return _weight_and_reduce(losses, sample_weight, reduction)

    def call(self, y_true, y_pred):
        raise NotImplementedError("Must be implemented in subclasses.")

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """Wraps a loss function `fn(y_true, y_pred, **kwargs)` in the `Loss` class."""

    def __init__(self, fn, reduction=Reduction.AUTO, name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = dict(self._fn_kwargs)
        config.update(super().get_config())
        return config


def _wrapper(class_name, fn, default_name, doc, **defaults):
    params = list(defaults)

    def __init__(self, *args, reduction=Reduction.AUTO, name=default_name, **kwargs):
        kw = dict(defaults)
        for key, value in zip(params, args):
            kw[key] = value
        for key, value in kwargs.items():
            if key not in kw:
                raise TypeError("%s got an unexpected keyword argument '%s'" % (class_name, key))
            kw[key] = value
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **kw)

    return type(class_name, (LossFunctionWrapper,), {"__init__": __init__, "__doc__": doc})


MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error",
                            "Computes the mean of squares of errors between labels and predictions.")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error",
                             "Computes the mean of absolute differences between labels and predictions.")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error",
                                       "Computes the mean absolute percentage error.")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error",
                                       "Computes the mean squared logarithmic error.")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                              "Computes the binary crossentropy (args: from_logits, label_smoothing).",
                              from_logits=False, label_smoothing=0)
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy, "categorical_crossentropy",
                                   "Computes the categorical crossentropy (args: from_logits, label_smoothing).",
                                   from_logits=False, label_smoothing=0)
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                         "sparse_categorical_crossentropy",
                                         "Computes the crossentropy with integer labels (arg: from_logits).",
                                         from_logits=False)
Hinge = _wrapper("Hinge", hinge, "hinge", "Computes the hinge loss.")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge", "Computes the squared hinge loss.")
CategoricalHinge = _wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge",
                            "Computes the categorical hinge loss.")
Poisson = _wrapper("Poisson", poisson, "poisson", "Computes the Poisson loss.")
LogCosh = _wrapper("LogCosh", logcosh, "logcosh", "Computes the logarithm of the hyperbolic cosine of the error.")
KLDivergence = _wrapper("KLDivergence", kullback_leibler_divergence, "kullback_leibler_divergence",
                        "Computes the Kullback-Leibler divergence.")
Huber = _wrapper("Huber", huber_loss, "huber_loss", "Computes the Huber loss (arg: delta).", delta=1.0)
CosineSimilarity = _wrapper("CosineSimilarity", cosine_proximity, "cosine_similarity",
                            "Computes the negative cosine similarity (arg: axis).", axis=-1)

_FUNCTIONS = {name: globals()[name] for name in __all__ if name not in ("get", "serialize", "deserialize",
                                                                        "Reduction", "Loss")}


def serialize(loss):
    """Returns the name of a loss function, or `{"class_name", "config"}` for a `Loss` instance."""
    if isinstance(loss, Loss):
        return {"class_name": loss.__class__.__name__, "config": loss.get_config()}
    return loss.__name__


def deserialize(name, custom_objects=None):
    """Returns the loss function (or `Loss` instance) for a name or config dict.

    Raises:
      ValueError: `Unknown loss function:<name>` for an unknown identifier.
    """
    if isinstance(name, dict):
        cls_name = name["class_name"]
        cls = (custom_objects or {}).get(cls_name) or _FUNCTIONS.get(cls_name)
        if not isinstance(cls, type):
            raise ValueError("Unknown loss function: " + str(cls_name))
        return cls.from_config(dict(name.get("config", {})))
    obj = (custom_objects or {}).get(name) or _FUNCTIONS.get(name)
    if obj is None:
        raise ValueError("Unknown loss function:" + str(name))
    return obj


def get(identifier):
    """Returns a loss from None, a name, a config dict or a callable.

    Raises:
      ValueError: If `identifier` cannot be interpreted.
    """
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret loss function identifier: " + str(identifier))
