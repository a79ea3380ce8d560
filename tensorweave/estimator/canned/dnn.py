"""TF 1.x's canned deep neural network estimators: `DNNClassifier`, `DNNRegressor` (variables
`dnn/hiddenlayer_<i>/kernel|bias`, `dnn/logits/kernel|bias`, embeddings under
`dnn/input_from_feature_columns/input_layer/`; default optimizer Adagrad with learning rate 0.05)."""

import operator

from ...ops.nn_activation_ops import relu
from ..model_fn import ModeKeys
from . import head as head_lib
from ._common import _CannedEstimator, _check_feature_columns, _check_features, _check_partitioner, _values
from .optimizers import get_optimizer_instance

__all__ = ["DNNClassifier", "DNNRegressor"]

_LEARNING_RATE = 0.05


def _add_hidden_layer_summary(value, tag):
    from ...ops.nn_misc_ops import zero_fraction
    from ...ops.summary_ops import histogram, scalar
    scalar("%s/fraction_of_zero_values" % tag, zero_fraction(value))
    histogram("%s/activation" % tag, value)


def _dense(net, units, activation_fn):
    from ...ops import math_matmul_ops
    from ...ops.init_ops import glorot_uniform_initializer, zeros_initializer
    from ...ops.nn_layer_ops import bias_add
    from ...variable_scopes import get_variable
    n_in = net.shape.as_list()[-1]
    kernel = get_variable("kernel", shape=[n_in, units], initializer=glorot_uniform_initializer())
    bias = get_variable("bias", shape=[units], initializer=zeros_initializer())
    out = bias_add(math_matmul_ops.matmul(net, kernel), bias)
    return activation_fn(out) if activation_fn is not None else out


def _dnn_logits(features, mode, units, hidden_units, feature_columns, activation_fn, dropout, batch_norm):
    """The logits of a DNN, built in the current variable scope (TF's `dnn_logit_fn_builder`)."""
    from ...feature_column.layers import input_layer
    from ...layers.core import dropout as dropout_layer
    from ...layers.normalization import batch_normalization
    from ...variable_scopes import variable_scope
    is_training = mode == ModeKeys.TRAIN
    with variable_scope("input_from_feature_columns"):
        net = input_layer(features, feature_columns)
    for layer_id, num_hidden_units in enumerate(hidden_units):
        with variable_scope("hiddenlayer_%d" % layer_id, values=(net,)) as scope:
            net = _dense(net, num_hidden_units, activation_fn)
            if dropout is not None and is_training:
                net = dropout_layer(net, rate=dropout, training=True)
            if batch_norm:
                net = batch_normalization(net, momentum=0.999, trainable=True, training=is_training,
                                          name="batchnorm_%d" % layer_id)
        _add_hidden_layer_summary(net, scope.name)
    with variable_scope("logits", values=(net,)) as scope:
        logits = _dense(net, units, None)
    _add_hidden_layer_summary(logits, scope.name)
    return logits


def _dnn_model_fn(features, labels, mode, head, hidden_units, feature_columns, optimizer="Adagrad",
                  activation_fn=relu, dropout=None, config=None, batch_norm=False):
    from ...variable_scopes import variable_scope
    _check_features(features)
    optimizer = get_optimizer_instance(optimizer, learning_rate=_LEARNING_RATE)
    with variable_scope("dnn", values=_values(features)):
        logits = _dnn_logits(features, mode, head.logits_dimension, hidden_units, feature_columns,
                             activation_fn, dropout, batch_norm)
        return head.create_estimator_spec(features=features, mode=mode, labels=labels, optimizer=optimizer,
                                          logits=logits)


def _check_hidden_units(hidden_units):
    if hidden_units is None:
        raise ValueError("hidden_units must be defined.")
    try:
        hidden_units = [operator.index(units) for units in hidden_units]
    except TypeError:
        raise ValueError("hidden_units must be positive integers. Given: {}".format(hidden_units)) from None
    if any(units <= 0 for units in hidden_units):
        raise ValueError("hidden_units must be positive integers. Given: {}".format(hidden_units))
    return hidden_units


class DNNClassifier(_CannedEstimator):
    """A classifier for TensorFlow DNN models (`tf.estimator.DNNClassifier`, TF 1.x).

    Fully connected hidden layers (`activation_fn`, glorot-uniform kernels) over the
    `input_layer` of `feature_columns`, then a logits layer; the loss is sigmoid cross entropy
    for two classes, softmax cross entropy for more, reduced with `loss_reduction`.

    Args:
      hidden_units: Iterable of number hidden units per layer, e.g. `[64, 32]`.
      feature_columns: An iterable containing all the feature columns used by the model (dense
        columns: numeric, bucketized, embedding, indicator).
      model_dir: Directory to save model parameters, graph and etc.
      n_classes: Number of label classes. Defaults to 2, namely binary classification. Must be > 1.
      weight_column: A string or a `numeric_column` defining the feature column representing
        example weights.
      label_vocabulary: A list of strings: the possible label values (labels are then strings);
        without it labels are integer class ids (or floats in [0, 1] for 2 classes).
      optimizer: An instance of `tf.Optimizer`, a callable returning one, or one of 'Adagrad',
        'Adam', 'Ftrl', 'RMSProp', 'SGD' (learning rate 0.05). Defaults to Adagrad.
      activation_fn: Activation function applied to each layer. Defaults to `tf.nn.relu`
        (`None`: no activation, as TF).
      dropout: When not `None`, the probability we will drop out a given coordinate (training).
      input_layer_partitioner: Must be `None` (variables are not partitioned).
      config: `RunConfig` object to configure the runtime settings.
      warm_start_from: A checkpoint path or directory, or a `WarmStartSettings`, to warm-start
        the trainable variables from.
      loss_reduction: One of `tf.losses.Reduction` except `NONE`. Defaults to `SUM`.
      batch_norm: Whether to use batch normalization after each hidden layer.

    Raises:
      ValueError: For invalid `hidden_units`, `n_classes`, `feature_columns` or `loss_reduction`.
    """

    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, optimizer="Adagrad", activation_fn=relu, dropout=None,
                 input_layer_partitioner=None, config=None, warm_start_from=None, loss_reduction="weighted_sum",
                 batch_norm=False):
        _check_partitioner(input_layer_partitioner, "input_layer_partitioner")
        if n_classes is None or n_classes < 2:
            raise ValueError("n_classes must be > 1: %s." % n_classes)
        hidden_units = _check_hidden_units(hidden_units)
        feature_columns = _check_feature_columns(feature_columns)
        head = head_lib._binary_logistic_or_multi_class_head(n_classes, weight_column, label_vocabulary,
                                                             loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _dnn_model_fn(features, labels, mode, head, hidden_units, feature_columns, optimizer,
                                 activation_fn, dropout, config, batch_norm)

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class DNNRegressor(_CannedEstimator):
    """A regressor for TensorFlow DNN models (`tf.estimator.DNNRegressor`, TF 1.x): the network of
    `DNNClassifier` with `label_dimension` outputs and a mean squared error loss.

    Args:
      hidden_units: Iterable of number hidden units per layer.
      feature_columns: An iterable containing all the feature columns used by the model.
      model_dir: Directory to save model parameters, graph and etc.
      label_dimension: Number of regression targets per example.
      weight_column: A string or a `numeric_column` defining the example weights.
      optimizer: An instance of `tf.Optimizer`, a callable returning one, or an optimizer name
        (learning rate 0.05). Defaults to Adagrad.
      activation_fn: Activation function applied to each layer. Defaults to `tf.nn.relu`
        (`None`: no activation, as TF).
      dropout: When not `None`, the probability we will drop out a given coordinate.
      input_layer_partitioner: Must be `None`.
      config: `RunConfig` object to configure the runtime settings.
      warm_start_from: A checkpoint path or directory, or a `WarmStartSettings`.
      loss_reduction: One of `tf.losses.Reduction` except `NONE`. Defaults to `SUM`.
      batch_norm: Whether to use batch normalization after each hidden layer.

    Raises:
      ValueError: For invalid arguments.
    """

    def __init__(self, hidden_units, feature_columns, model_dir=None, label_dimension=1, weight_column=None,
                 optimizer="Adagrad", activation_fn=relu, dropout=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction="weighted_sum", batch_norm=False):
        _check_partitioner(input_layer_partitioner, "input_layer_partitioner")
        hidden_units = _check_hidden_units(hidden_units)
        feature_columns = _check_feature_columns(feature_columns)
        head = head_lib._regression_head(weight_column=weight_column, label_dimension=label_dimension,
                                         loss_reduction=loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _dnn_model_fn(features, labels, mode, head, hidden_units, feature_columns, optimizer,
                                 activation_fn, dropout, config, batch_norm)

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)

