"""A `tf.estimator` implementation of tensor_forest (TF 1.15's `tf.contrib.tensor_forest.client.random_forest`).

`TensorForestEstimator(params)` trains, evaluates and predicts with a `RandomForestGraphs` forest
through `tf.estimator.Estimator` (`train` / `evaluate` / `predict`; TF 1.15's contrib.learn
`fit(x=..., y=...)` interface is not provided). Its model function is TF 1.15's for the core
estimator (`get_model_fn(..., output_type=ESTIMATOR_SPEC)`):

- the forest's inference output is the head's logits: the averaged class probabilities for more
  than two classes (so the multi-class head's "probabilities" are their softmax, as in TF), for two
  classes `log(p1 / (1 - p1))` of the class-1 probability `p1` (both clipped at 1e-6), so the binary
  head's "probabilities" are the forest's; for regression the trees' mean prediction, the head's
  "predictions";
- the heads are TF's canned ones with `SUM_OVER_NONZERO_WEIGHTS` loss reduction (binary logistic,
  multi-class softmax, regression of `label_dimension=params.num_outputs`), the weight column being
  `weights_name`;
- a TRAIN step runs the forest's training graph (after its inference) and increments the global
  step; training stops early through `TensorForestLossHook` once the head's loss has not improved by
  `early_stopping_loss_threshold` (a fraction) for `early_stopping_rounds` steps, which is what
  happens once the forest stops growing;
- predictions also hold "prediction_variance" for regression (the variance of the trees'
  predictions), "tree_paths" with `params.inference_tree_paths`, and the `keys_name` feature.

Features are one dense float Tensor [batch_size, num_features], or a dict of dense Tensors whose
columns are concatenated in sorted key order (a [batch_size] value is one column), as TF's
`data_ops.ParseDataTensorOrDict` does for dense input.
"""

from .... import tf_logging as logging
from ....estimator.canned import head as head_lib
from ....estimator.estimator import Estimator
from ....estimator.model_fn import ModeKeys
from ....framework import dtypes, ops
from ....framework.sparse_tensor import SparseTensor
from ....losses.losses_impl import Reduction
from ....ops import array_ops, core_ops, math_ops, state_ops
from ....ops.summary_ops import scalar
from ....train import training_util
from ....train.session_run_hook import SessionRunArgs, SessionRunHook
from ..python import tensor_forest

__all__ = ["EPSILON", "KEYS_NAME", "LOSS_NAME", "TREE_PATHS_PREDICTION_KEY", "TensorForestEstimator",
           "TensorForestLossHook", "TensorForestRunOpAtEndHook", "VARIANCE_PREDICTION_KEY", "get_model_fn"]

KEYS_NAME = "keys"
LOSS_NAME = "rf_training_loss"
TREE_PATHS_PREDICTION_KEY = "tree_paths"
VARIANCE_PREDICTION_KEY = "prediction_variance"
EPSILON = 0.000001


class TensorForestRunOpAtEndHook(SessionRunHook):
    """Runs a dict of {name: op} when the session ends, logging each result (in sorted name order)."""

    def __init__(self, op_dict):
        self._ops = op_dict

    def end(self, session):
        for name in sorted(self._ops.keys()):
            logging.info("{0}: {1}".format(name, session.run(self._ops[name])))


class TensorForestLossHook(SessionRunHook):
    """Requests a stop when the loss stops decreasing.

    Args:
      early_stopping_rounds: How many steps the loss may go without improving before training stops.
      early_stopping_loss_threshold: The fraction of the best loss by which a new loss must be lower
        to count as an improvement.
      loss_op: The loss Tensor (default: the graph's "rf_training_loss" op).
    """

    def __init__(self, early_stopping_rounds, early_stopping_loss_threshold=None, loss_op=None):
        self.early_stopping_rounds = early_stopping_rounds
        self.early_stopping_loss_threshold = early_stopping_loss_threshold or 0.0
        self.loss_op = loss_op
        self.min_loss = None
        self.last_step = -1
        # How many steps the loss has gone without improving.
        self.steps = 0

    def before_run(self, run_context):
        loss = (self.loss_op if self.loss_op is not None
                else run_context.session.graph.get_operation_by_name(LOSS_NAME).outputs[0])
        return SessionRunArgs({"global_step": training_util.get_global_step(), "current_loss": loss})

    def after_run(self, run_context, run_values):
        current_loss = run_values.results["current_loss"]
        current_step = run_values.results["global_step"]
        self.steps += 1
        # The global step going backwards (a restart from a checkpoint) starts the count afresh.
        if self.last_step == -1 or self.last_step > current_step:
            logging.info("TensorForestLossHook resetting last_step.")
            self.last_step = current_step
            self.steps = 0
            self.min_loss = None
            return
        self.last_step = current_step
        if self.min_loss is None or current_loss < self.min_loss - self.min_loss * self.early_stopping_loss_threshold:
            self.min_loss = current_loss
            self.steps = 0
        if self.steps > self.early_stopping_rounds:
            logging.info("TensorForestLossHook requesting stop.")
            run_context.request_stop()


def _default_head(params, weights_name, name=None):
    reduction = Reduction.SUM_OVER_NONZERO_WEIGHTS
    if params.regression:
        return head_lib._RegressionHead(label_dimension=params.num_outputs, weight_column=weights_name,
                                        loss_reduction=reduction, name=name)
    if params.num_classes == 2:
        return head_lib._BinaryLogisticHead(weight_column=weights_name, loss_reduction=reduction, name=name)
    return head_lib._MultiClassHead(params.num_classes, weight_column=weights_name, loss_reduction=reduction,
                                    name=name)


def _dense_features(features):
    """One float32 [batch_size, num_features] matrix of dense `features` (a Tensor or a dict of them)."""
    if not isinstance(features, dict):
        features = {"features": features}
    columns = []
    for key in sorted(features):
        value = features[key]
        if isinstance(value, SparseTensor):
            raise NotImplementedError("tensorweave's TensorForestEstimator takes dense features only; feature %r is "
                                      "a SparseTensor" % (key,))
        value = ops.convert_to_tensor(value)
        if value.dtype == dtypes.string:
            raise TypeError("feature %r is a string Tensor; TensorForestEstimator takes numeric features" % (key,))
        value = math_ops.cast(value, dtypes.float32)
        if value.shape.ndims == 1:
            value = array_ops.expand_dims(value, 1)
        elif value.shape.ndims != 2:
            raise ValueError("feature %r must be a vector or a matrix, got shape %s" % (key, value.shape))
        columns.append(value)
    return columns[0] if len(columns) == 1 else array_ops.concat(columns, 1)


def get_model_fn(params, graph_builder_class, device_assigner, weights_name=None, model_head=None, keys_name=None,
                 early_stopping_rounds=100, early_stopping_loss_threshold=0.001, num_trainers=1, trainer_id=0,
                 report_feature_importances=False, local_eval=False, head_scope=None):
    """The `model_fn(features, labels, mode)` of a forest estimator.

    Args:
      params: A filled `ForestHParams`.
      graph_builder_class: The class building the forest's graphs (`RandomForestGraphs`).
      device_assigner: Passed to `graph_builder_class` (except in PREDICT mode and, with
        `local_eval`, in EVAL mode).
      weights_name: The feature holding example weights (used by the training graph and the head).
      model_head: The head computing loss, metrics and predictions (default: from `params`).
      keys_name: The feature passed through into the predictions.
      early_stopping_rounds: Steps without loss improvement before training stops (falsy: never).
      early_stopping_loss_threshold: The fraction by which the loss must improve.
      num_trainers: Number of training jobs the trees are split among.
      trainer_id: Which trainer this one is.
      report_feature_importances: Whether to log the feature importances when training ends.
      local_eval: Whether to ignore `device_assigner` in EVAL mode.
      head_scope: Unused (TF's contrib.learn heads' scope).

    Returns:
      The model function.
    """
    if model_head is None:
        model_head = _default_head(params, weights_name)

    def _model_fn(features, labels, mode):
        if not isinstance(features, dict):
            features = {"features": features}
        features = dict(features)
        weights = features.pop(weights_name) if weights_name and weights_name in features else None
        keys = features.pop(keys_name) if keys_name and keys_name in features else None
        data = _dense_features(features)
        dev_assn = device_assigner
        if mode == ModeKeys.PREDICT or (local_eval and mode == ModeKeys.EVAL):
            dev_assn = None
        graph_builder = graph_builder_class(params, device_assigner=dev_assn)
        logits, tree_paths, regression_variance = graph_builder.inference_graph(data)
        scalar("average_tree_size", graph_builder.average_size())
        if not params.regression and params.num_classes == 2:
            # The forest's class-1 probability as a logit, clipped: a probability may be 0 or 1.
            class_1_probs = array_ops.slice(logits, [0, 1], [-1, 1])
            logits = math_ops.log(math_ops.maximum(
                class_1_probs / math_ops.maximum(1.0 - class_1_probs, EPSILON), EPSILON))
        training_graph = None
        if labels is not None and mode == ModeKeys.TRAIN:
            with ops.control_dependencies([logits.op]):
                training_graph = core_ops.group(
                    graph_builder.training_graph(data, labels, input_weights=weights, num_trainers=num_trainers,
                                                 trainer_id=trainer_id),
                    state_ops.assign_add(training_util.get_global_step(), 1))
        if weights is not None:
            features[weights_name] = weights

        def _train_fn(unused_loss):
            return training_graph

        spec = model_head.create_estimator_spec(features=features, mode=mode, logits=logits, labels=labels,
                                                train_op_fn=_train_fn)
        predictions = dict(spec.predictions)
        if params.inference_tree_paths:
            predictions[TREE_PATHS_PREDICTION_KEY] = tree_paths
        if regression_variance is not None:
            predictions[VARIANCE_PREDICTION_KEY] = regression_variance
        if keys is not None:
            predictions[keys_name] = keys
        training_hooks = list(spec.training_hooks)
        if report_feature_importances:
            training_hooks.append(TensorForestRunOpAtEndHook(
                {"1: feature_importances": graph_builder.feature_importances()}))
        if early_stopping_rounds and mode == ModeKeys.TRAIN:
            training_hooks.append(TensorForestLossHook(
                early_stopping_rounds, early_stopping_loss_threshold=early_stopping_loss_threshold,
                loss_op=spec.loss))
        return spec._replace(predictions=predictions, training_hooks=tuple(training_hooks))

    return _model_fn


class TensorForestEstimator(Estimator):
    """An estimator that can train and evaluate a random forest.

    Example:

    ```python
    params = tf.contrib.tensor_forest.python.tensor_forest.ForestHParams(
        num_classes=2, num_features=40, num_trees=10, max_nodes=1000)
    estimator = TensorForestEstimator(params, model_dir=model_dir)
    estimator.train(input_fn=input_fn_train)
    estimator.evaluate(input_fn=input_fn_eval)
    results = list(estimator.predict(input_fn=input_fn_predict))
    prob0 = results[0][eval_metrics.INFERENCE_PROB_NAME]
    prediction0 = results[0][eval_metrics.INFERENCE_PRED_NAME]
    ```
    """

    def __init__(self, params, device_assigner=None, model_dir=None,
                 graph_builder_class=tensor_forest.RandomForestGraphs, config=None, weights_name=None,
                 keys_name=None, feature_engineering_fn=None, early_stopping_rounds=100,
                 early_stopping_loss_threshold=0.001, num_trainers=1, trainer_id=0, report_feature_importances=False,
                 local_eval=False, version=None, head=None):
        """Initializes a TensorForestEstimator instance.

        Args:
          params: ForestHParams object that holds random forest hyperparameters (filled here).
          device_assigner: Passed to `graph_builder_class` (tensorweave places every op on the host).
          model_dir: Directory to save model parameters, graph, etc.
          graph_builder_class: The class that builds the forest's graphs (`RandomForestGraphs`).
          config: `RunConfig` object to configure the runtime settings.
          weights_name: The feature holding example weights.
          keys_name: A feature passed through into the predictions.
          feature_engineering_fn: `fn(features, labels) -> (features, labels)` applied to the
            input_fn's output before the model.
          early_stopping_rounds: Training stops once the loss has not improved for this many steps
            (100 by default; a falsy value disables the hook).
          early_stopping_loss_threshold: The fraction by which the loss must improve.
          num_trainers: Number of training jobs, which partition the trees among them.
          trainer_id: Which trainer this instance is.
          report_feature_importances: If True, log the feature importances when training ends.
          local_eval: If True, don't use a device assigner for eval.
          version: Unused.
          head: A head computing losses, metrics and predictions; None makes one from `params`.

        Raises:
          ValueError: If `params` cannot make a forest (see `ForestHParams.fill`).
        """
        params = params.fill()
        model_fn = get_model_fn(params, graph_builder_class, device_assigner, model_head=head,
                                weights_name=weights_name, keys_name=keys_name,
                                early_stopping_rounds=early_stopping_rounds,
                                early_stopping_loss_threshold=early_stopping_loss_threshold, num_trainers=num_trainers,
                                trainer_id=trainer_id, report_feature_importances=report_feature_importances,
                                local_eval=local_eval)
        if feature_engineering_fn is not None:
            inner = model_fn

            def model_fn(features, labels, mode):
                features, labels = feature_engineering_fn(features, labels)
                return inner(features, labels, mode)

        super().__init__(model_fn=model_fn, model_dir=model_dir, config=config)
