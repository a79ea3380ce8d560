"""TF 1.x's canned linear estimators: `LinearClassifier`, `LinearRegressor` (variables
`linear/linear_model/<column>/weights` and `linear/linear_model/bias_weights`; default optimizer
Ftrl with learning rate 0.2)."""

import math

from . import head as head_lib
from ._common import _CannedEstimator, _check_feature_columns, _check_features, _check_partitioner, _values
from .optimizers import get_optimizer_instance

__all__ = ["LinearClassifier", "LinearRegressor"]

_LEARNING_RATE = 0.2


def _linear_learning_rate(num_linear_feature_columns):
    """The default Ftrl learning rate: min(0.2, 1/sqrt(num_linear_feature_columns))."""
    default_learning_rate = 1. / math.sqrt(num_linear_feature_columns)
    return min(_LEARNING_RATE, default_learning_rate)


def _compute_fraction_of_zero(variables):
    from ...ops import core_ops
    from ...ops.nn_misc_ops import zero_fraction
    all_weight_vars = [v for vs in variables for v in vs]
    if not all_weight_vars:
        return None
    sizes = [float(v.shape.num_elements()) for v in all_weight_vars]
    total = sum(sizes)
    fractions = [zero_fraction(v) * (size / total) for v, size in zip(all_weight_vars, sizes)]
    return core_ops.add_n(fractions)


def _linear_logits(features, units, feature_columns, sparse_combiner):
    """The logits of a linear model in the current variable scope (TF's `linear_logit_fn_builder`)."""
    from ...feature_column.layers import linear_model
    from ...ops.summary_ops import histogram, scalar
    cols_to_vars = {}
    logits = linear_model(features, feature_columns, units=units, sparse_combiner=sparse_combiner,
                          cols_to_vars=cols_to_vars)
    bias = cols_to_vars.pop("bias")
    if units > 1:
        histogram("bias", bias[0])
    else:
        scalar("bias", bias[0][0])
    fraction = _compute_fraction_of_zero(list(cols_to_vars.values()))
    if fraction is not None:
        scalar("fraction_of_zero_weights", fraction)
    return logits


def _linear_model_fn(features, labels, mode, head, feature_columns, optimizer, config, sparse_combiner="sum"):
    from ...variable_scopes import variable_scope
    _check_features(features)
    with variable_scope("linear", values=_values(features)):
        logits = _linear_logits(features, head.logits_dimension, feature_columns, sparse_combiner)
        if not optimizer:
            from ...train.optimizers import FtrlOptimizer
            optimizer = FtrlOptimizer(learning_rate=_linear_learning_rate(len(feature_columns)))
        optimizer = get_optimizer_instance(optimizer, learning_rate=_LEARNING_RATE)
        return head.create_estimator_spec(features=features, mode=mode, labels=labels, optimizer=optimizer,
                                          logits=logits)


def _check_sparse_combiner(sparse_combiner):
    if sparse_combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError("sparse_combiner must be one of 'mean', 'sqrtn' or 'sum', got {}".format(sparse_combiner))


class LinearClassifier(_CannedEstimator):
    """Linear classifier model (`tf.estimator.LinearClassifier`, TF 1.x): logistic regression for
    two classes, softmax regression for more, over dense and categorical feature columns.

    Args:
      feature_columns: An iterable containing all the feature columns used by the model.
      model_dir: Directory to save model parameters, graph and etc.
      n_classes: Number of label classes. Defaults to 2. Must be > 1.
      weight_column: A string or a `numeric_column` defining the example weights.
      label_vocabulary: A list of strings: the possible label values.
      optimizer: An instance of `tf.Optimizer`, a callable returning one, or one of 'Adagrad',
        'Adam', 'Ftrl', 'RMSProp', 'SGD' (learning rate 0.2). Defaults to 'Ftrl'; `None` means FTRL
        with learning rate min(0.2, 1/sqrt(len(feature_columns))).
      config: `RunConfig` object to configure the runtime settings.
      partitioner: Must be `None` (variables are not partitioned).
      warm_start_from: A checkpoint path or directory, or a `WarmStartSettings`.
      loss_reduction: One of `tf.losses.Reduction` except `NONE`. Defaults to `SUM`.
      sparse_combiner: How categorical columns with several ids combine them: 'mean', 'sqrtn' or
        'sum' (default).

    Raises:
      ValueError: For invalid arguments.
    """

    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None,
                 optimizer="Ftrl", config=None, partitioner=None, warm_start_from=None,
                 loss_reduction="weighted_sum", sparse_combiner="sum"):
        _check_partitioner(partitioner, "partitioner")
        _check_sparse_combiner(sparse_combiner)
        if n_classes is None or n_classes < 2:
            raise ValueError("n_classes must be > 1: %s." % n_classes)
        feature_columns = _check_feature_columns(feature_columns)
        if not feature_columns:
            raise ValueError("feature_columns must not be empty.")
        head = head_lib._binary_logistic_or_multi_class_head(n_classes, weight_column, label_vocabulary,
                                                             loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _linear_model_fn(features, labels, mode, head, feature_columns, optimizer, config,
                                    sparse_combiner)

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class LinearRegressor(_CannedEstimator):
    """An estimator for TensorFlow linear regression problems (`tf.estimator.LinearRegressor`,
    TF 1.x): the weighted sum of the feature columns, trained with a mean squared error loss.

    Args:
      feature_columns: An iterable containing all the feature columns used by the model.
      model_dir: Directory to save model parameters, graph and etc.
      label_dimension: Number of regression targets per example.
      weight_column: A string or a `numeric_column` defining the example weights.
      optimizer: An instance of `tf.Optimizer`, a callable returning one, or an optimizer name
        (learning rate 0.2). Defaults to 'Ftrl'; `None` means FTRL with learning rate
        min(0.2, 1/sqrt(len(feature_columns))).
      config: `RunConfig` object to configure the runtime settings.
      partitioner: Must be `None`.
      warm_start_from: A checkpoint path or directory, or a `WarmStartSettings`.
      loss_reduction: One of `tf.losses.Reduction` except `NONE`. Defaults to `SUM`.
      sparse_combiner: 'mean', 'sqrtn' or 'sum' (default) for categorical columns.

    Raises:
      ValueError: For invalid arguments.
    """

    def __init__(self, feature_columns, model_dir=None, label_dimension=1, weight_column=None, optimizer="Ftrl",
                 config=None, partitioner=None, warm_start_from=None, loss_reduction="weighted_sum",
                 sparse_combiner="sum"):
        _check_partitioner(partitioner, "partitioner")
        _check_sparse_combiner(sparse_combiner)
        feature_columns = _check_feature_columns(feature_columns)
        if not feature_columns:
            raise ValueError("feature_columns must not be empty.")
        head = head_lib._regression_head(weight_column=weight_column, label_dimension=label_dimension,
                                         loss_reduction=loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _linear_model_fn(features, labels, mode, head, feature_columns, optimizer, config,
                                    sparse_combiner)

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)
