"""TF 1.x's baseline estimators: `BaselineClassifier`, `BaselineRegressor` — a model that ignores
the features and learns one bias per output (`baseline/bias`; default optimizer Ftrl with
learning rate 0.3), so that it predicts the (logit of the) label distribution."""

from ...framework import dtypes, ops
from ...framework.sparse_tensor import SparseTensor
from . import head as head_lib
from ._common import _CannedEstimator
from .optimizers import get_optimizer_instance

__all__ = ["BaselineClassifier", "BaselineRegressor"]

_LEARNING_RATE = 0.3


def _baseline_logits(features, num_outputs, weight_column=None):
    """`bias * ones([batch_size, num_outputs])`, the batch size taken from the features."""
    from ...ops import array_ops, check_ops, core_ops, math_binary_ops, math_unary_ops
    from ...ops.init_ops import zeros_initializer
    from ...variable_scopes import get_variable, variable_scope
    if not isinstance(features, dict):
        features = {"": features}
    weight_key = getattr(weight_column, "key", weight_column)
    size_checks = []
    batch_size = None
    for key, feature in features.items():
        if key == weight_key:
            continue
        if isinstance(feature, SparseTensor):
            first_dim = math_unary_ops.cast(feature.dense_shape[0], dtypes.int32)
        else:
            first_dim = core_ops.shape(ops.convert_to_tensor(feature))[0]
        if batch_size is None:
            batch_size = first_dim
        else:
            size_checks.append(check_ops.assert_equal(batch_size, first_dim))
    if batch_size is None:
        raise ValueError("features must hold at least one feature besides the weight column.")
    with ops.control_dependencies(size_checks):
        with variable_scope("baseline"):
            bias = get_variable("bias", shape=[num_outputs], initializer=zeros_initializer())
            return math_binary_ops.multiply(bias, array_ops.ones(array_ops.stack([batch_size, num_outputs])))


def _baseline_model_fn(features, labels, mode, head, optimizer, weight_column=None, config=None):
    from ...train.training_util import get_global_step
    del config
    logits = _baseline_logits(features, head.logits_dimension, weight_column)

    def train_op_fn(loss):
        opt = get_optimizer_instance(optimizer, learning_rate=_LEARNING_RATE)
        return opt.minimize(loss, global_step=get_global_step())

    return head.create_estimator_spec(features=features, labels=labels, mode=mode, logits=logits,
                                      train_op_fn=train_op_fn)


class BaselineClassifier(_CannedEstimator):
    """A classifier that can establish a simple baseline (`tf.estimator.BaselineClassifier`, TF 1.x).

    It ignores feature values and learns to predict the average value of each label: for single
    label problems the probability distribution of the classes as seen in the labels.

    Args:
      model_dir: Directory to save model parameters, graph and etc.
      n_classes: Number of label classes. Defaults to 2. Must be > 1.
      weight_column: A string or a `numeric_column` defining the example weights.
      label_vocabulary: A list of strings: the possible label values.
      optimizer: An `Optimizer`, a callable returning one, or an optimizer name (learning rate
        0.3). Defaults to 'Ftrl'.
      config: `RunConfig` object to configure the runtime settings.
      loss_reduction: One of `tf.losses.Reduction` except `NONE`. Defaults to `SUM`.

    Raises:
      ValueError: If `n_classes` < 2.
    """

    def __init__(self, model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None, optimizer="Ftrl",
                 config=None, loss_reduction="weighted_sum"):
        if n_classes is None or n_classes < 2:
            raise ValueError("n_classes must be > 1: %s." % n_classes)
        head = head_lib._binary_logistic_or_multi_class_head(n_classes, weight_column, label_vocabulary,
                                                             loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _baseline_model_fn(features, labels, mode, head, optimizer, weight_column, config)

        super().__init__(_model_fn, model_dir=model_dir, config=config)


class BaselineRegressor(_CannedEstimator):
    """A regressor that can establish a simple baseline (`tf.estimator.BaselineRegressor`, TF 1.x):
    it ignores feature values and learns to predict the average value of each label.

    Args:
      model_dir: Directory to save model parameters, graph and etc.
      label_dimension: Number of regression targets per example.
      weight_column: A string or a `numeric_column` defining the example weights.
      optimizer: An `Optimizer`, a callable returning one, or an optimizer name (learning rate
        0.3). Defaults to 'Ftrl'.
      config: `RunConfig` object to configure the runtime settings.
      loss_reduction: One of `tf.losses.Reduction` except `NONE`. Defaults to `SUM`.

    Raises:
      ValueError: For an invalid `label_dimension` or `loss_reduction`.
    """

    def __init__(self, model_dir=None, label_dimension=1, weight_column=None, optimizer="Ftrl", config=None,
                 loss_reduction="weighted_sum"):
        head = head_lib._regression_head(weight_column=weight_column, label_dimension=label_dimension,
                                         loss_reduction=loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _baseline_model_fn(features, labels, mode, head, optimizer, weight_column, config)

        super().__init__(_model_fn, model_dir=model_dir, config=config)
