"""TF 1.x's wide-and-deep estimators: `DNNLinearCombinedClassifier`, `DNNLinearCombinedRegressor`.

The logits are the sum of a DNN's (`dnn/...`, default optimizer Adagrad with learning rate 0.001)
and a linear model's (`linear/linear_model/...`, default optimizer Ftrl with learning rate
min(0.005, 1/sqrt(number of linear columns))); each optimizer updates its own part.
"""

import math

from ...framework import ops
from ...ops.nn_activation_ops import relu
from . import head as head_lib
from ._common import _CannedEstimator, _check_feature_columns, _check_features, _check_partitioner, _values
from .dnn import _add_hidden_layer_summary, _check_hidden_units, _dnn_logits
from .linear import _check_sparse_combiner, _linear_logits
from .optimizers import get_optimizer_instance

__all__ = ["DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor"]

_DNN_LEARNING_RATE = 0.001
_LINEAR_LEARNING_RATE = 0.005


def _linear_learning_rate(num_linear_feature_columns):
    """The default linear learning rate: min(0.005, 1/sqrt(num_linear_feature_columns))."""
    default_learning_rate = 1. / math.sqrt(num_linear_feature_columns)
    return min(_LINEAR_LEARNING_RATE, default_learning_rate)


def _dnn_linear_combined_model_fn(features, labels, mode, head, linear_feature_columns=None,
                                  linear_optimizer="Ftrl", dnn_feature_columns=None, dnn_optimizer="Adagrad",
                                  dnn_hidden_units=None, dnn_activation_fn=relu, dnn_dropout=None, config=None,
                                  batch_norm=False, linear_sparse_combiner="sum"):
    from ...ops import core_ops, state_ops
    from ...train.training_util import get_global_step
    from ...variable_scopes import variable_scope
    _check_features(features)
    if not linear_feature_columns and not dnn_feature_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    dnn_logits = linear_logits = None
    if dnn_feature_columns:
        dnn_optimizer = get_optimizer_instance(dnn_optimizer, learning_rate=_DNN_LEARNING_RATE)
        if not dnn_hidden_units:
            raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is specified.")
        with variable_scope("dnn", values=_values(features)) as scope:
            dnn_absolute_scope = scope.name
            dnn_logits = _dnn_logits(features, mode, head.logits_dimension, dnn_hidden_units, dnn_feature_columns,
                                     dnn_activation_fn, dnn_dropout, batch_norm)
    if linear_feature_columns:
        linear_optimizer = get_optimizer_instance(
            linear_optimizer, learning_rate=_linear_learning_rate(len(linear_feature_columns)))
        with variable_scope("linear", values=_values(features)) as scope:
            linear_absolute_scope = scope.name
            linear_logits = _linear_logits(features, head.logits_dimension, linear_feature_columns,
                                           linear_sparse_combiner)
            _add_hidden_layer_summary(linear_logits, scope.name)
    if dnn_logits is not None and linear_logits is not None:
        logits = dnn_logits + linear_logits
    elif dnn_logits is not None:
        logits = dnn_logits
    else:
        logits = linear_logits

    def _train_op_fn(loss):
        train_ops = []
        global_step = get_global_step()
        if dnn_logits is not None:
            train_ops.append(dnn_optimizer.minimize(
                loss, var_list=ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES, scope=dnn_absolute_scope)))
        if linear_logits is not None:
            train_ops.append(linear_optimizer.minimize(
                loss, var_list=ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES, scope=linear_absolute_scope)))
        train_op = core_ops.group(*train_ops)
        with ops.control_dependencies([train_op]):
            return state_ops.assign_add(global_step, 1).op

    return head.create_estimator_spec(features=features, mode=mode, labels=labels, train_op_fn=_train_op_fn,
                                      logits=logits)


def _check_combined(linear_feature_columns, dnn_feature_columns, dnn_hidden_units, linear_sparse_combiner):
    linear_feature_columns = _check_feature_columns(linear_feature_columns, "linear_feature_columns")
    dnn_feature_columns = _check_feature_columns(dnn_feature_columns, "dnn_feature_columns")
    if not linear_feature_columns and not dnn_feature_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    _check_sparse_combiner(linear_sparse_combiner)
    if dnn_feature_columns:
        if not dnn_hidden_units:
            raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is specified.")
        dnn_hidden_units = _check_hidden_units(dnn_hidden_units)
    return linear_feature_columns, dnn_feature_columns, dnn_hidden_units


class DNNLinearCombinedClassifier(_CannedEstimator):
    """An estimator for TensorFlow Linear and DNN joined classification models (wide-n-deep;
    `tf.estimator.DNNLinearCombinedClassifier`, TF 1.x).

    Args:
      model_dir: Directory to save model parameters, graph and etc.
      linear_feature_columns: The feature columns of the linear part.
      linear_optimizer: An `Optimizer`, a callable returning one, or an optimizer name (learning
        rate min(0.005, 1/sqrt(len(linear_feature_columns)))) for the linear part. Defaults to Ftrl.
      dnn_feature_columns: The (dense) feature columns of the deep part.
      dnn_optimizer: An `Optimizer`, a callable returning one, or an optimizer name (learning rate
        0.001) for the deep part. Defaults to Adagrad.
      dnn_hidden_units: List of hidden units per layer.
      dnn_activation_fn: Activation function applied to each layer. Defaults to `tf.nn.relu`
        (`None`: no activation, as TF).
      dnn_dropout: When not None, the probability we will drop out a given coordinate.
      n_classes: Number of label classes. Defaults to 2. Must be > 1.
      weight_column: A string or a `numeric_column` defining the example weights.
      label_vocabulary: A list of strings: the possible label values.
      input_layer_partitioner: Must be `None`.
      config: RunConfig object to configure the runtime settings.
      warm_start_from: A checkpoint path or directory, or a `WarmStartSettings`.
      loss_reduction: One of `tf.losses.Reduction` except `NONE`. Defaults to `SUM`.
      batch_norm: Whether to use batch normalization after each hidden layer.
      linear_sparse_combiner: 'mean', 'sqrtn' or 'sum' (default) for categorical columns of the
        linear part.

    Raises:
      ValueError: If both linear_feature_columns and dnn_features_columns are empty, or another
        argument is invalid.
    """

    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None, dnn_activation_fn=relu,
                 dnn_dropout=None, n_classes=2, weight_column=None, label_vocabulary=None,
                 input_layer_partitioner=None, config=None, warm_start_from=None, loss_reduction="weighted_sum",
                 batch_norm=False, linear_sparse_combiner="sum"):
        _check_partitioner(input_layer_partitioner, "input_layer_partitioner")
        linear_feature_columns, dnn_feature_columns, dnn_hidden_units = _check_combined(
            linear_feature_columns, dnn_feature_columns, dnn_hidden_units, linear_sparse_combiner)
        if n_classes is None or n_classes < 2:
            raise ValueError("n_classes must be > 1: %s." % n_classes)
        head = head_lib._binary_logistic_or_multi_class_head(n_classes, weight_column, label_vocabulary,
                                                             loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _dnn_linear_combined_model_fn(
                features, labels, mode, head, linear_feature_columns, linear_optimizer, dnn_feature_columns,
                dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout, config, batch_norm,
                linear_sparse_combiner)

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class DNNLinearCombinedRegressor(_CannedEstimator):
    """An estimator for TensorFlow Linear and DNN joined models for regression (wide-n-deep;
    `tf.estimator.DNNLinearCombinedRegressor`, TF 1.x).

    Args:
      model_dir: Directory to save model parameters, graph and etc.
      linear_feature_columns: The feature columns of the linear part.
      linear_optimizer: Optimizer (or name, or callable) of the linear part. Defaults to Ftrl.
      dnn_feature_columns: The (dense) feature columns of the deep part.
      dnn_optimizer: Optimizer (or name, or callable) of the deep part. Defaults to Adagrad.
      dnn_hidden_units: List of hidden units per layer.
      dnn_activation_fn: Activation function applied to each layer. Defaults to `tf.nn.relu`
        (`None`: no activation, as TF).
      dnn_dropout: When not None, the probability we will drop out a given coordinate.
      label_dimension: Number of regression targets per example.
      weight_column: A string or a `numeric_column` defining the example weights.
      input_layer_partitioner: Must be `None`.
      config: RunConfig object to configure the runtime settings.
      warm_start_from: A checkpoint path or directory, or a `WarmStartSettings`.
      loss_reduction: One of `tf.losses.Reduction` except `NONE`. Defaults to `SUM`.
      batch_norm: Whether to use batch normalization after each hidden layer.
      linear_sparse_combiner: 'mean', 'sqrtn' or 'sum' (default).

    Raises:
      ValueError: If both linear_feature_columns and dnn_features_columns are empty, or another
        argument is invalid.
    """

    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None, dnn_activation_fn=relu,
                 dnn_dropout=None, label_dimension=1, weight_column=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction="weighted_sum", batch_norm=False,
                 linear_sparse_combiner="sum"):
        _check_partitioner(input_layer_partitioner, "input_layer_partitioner")
        linear_feature_columns, dnn_feature_columns, dnn_hidden_units = _check_combined(
            linear_feature_columns, dnn_feature_columns, dnn_hidden_units, linear_sparse_combiner)
        head = head_lib._regression_head(weight_column=weight_column, label_dimension=label_dimension,
                                         loss_reduction=loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _dnn_linear_combined_model_fn(
                features, labels, mode, head, linear_feature_columns, linear_optimizer, dnn_feature_columns,
                dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout, config, batch_norm,
                linear_sparse_combiner)

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)
