"""`tf.keras.estimator.model_to_estimator`: a compiled Keras model as a `tf.estimator.Estimator`."""

import logging

import numpy as np

from ..estimator.estimator import Estimator
from ..estimator.export import PredictOutput
from ..estimator.model_fn import EstimatorSpec, ModeKeys
from ..framework import ops
from ..metrics.metrics_impl import mean as _streaming_mean
from ..train.monitored_session import Scaffold
from ..train.training_util import get_or_create_global_step
from . import backend as K
from . import optimizers
from .engine.input_layer import Input
from .engine.training import Model, TFOptimizer

__all__ = ["model_to_estimator"]

_DEFAULT_SERVING_KEY = "serving_default"


def _ordered(obj, names, obj_name, order_name):
    """The tensors of `obj` (a tensor, a list, or a dict covering `names`) in the order of `names`."""
    if obj is None:
        return None
    if isinstance(obj, (list, tuple)):
        return [ops.convert_to_tensor(x) for x in obj]
    if isinstance(obj, dict):
        missing = set(names) - set(obj)
        if missing:
            raise KeyError("The dictionary passed into {obj_name} does not cover requested {order_name} keys defined "
                           "in the keras model.\n\tExpected keys: {expected}\n\t{obj_name} keys: {keys}\n\tMissed "
                           "keys: {missing}".format(obj_name=obj_name, order_name=order_name, expected=set(names),
                                                    keys=set(obj), missing=missing))
        return [ops.convert_to_tensor(obj[k]) for k in names]
    return [ops.convert_to_tensor(obj)]


def _clone_optimizer(optimizer, global_step):
    """A fresh optimizer (from `optimizer`, a `TFOptimizer` or a Keras optimizer's serialized config)
    counting its steps in `global_step`."""
    if isinstance(optimizer, TFOptimizer):
        return TFOptimizer(optimizer.optimizer, iterations=global_step)
    clone = optimizers.deserialize(optimizer)
    clone._iterations = global_step
    return clone


class _KerasModelFn:
    """The `model_fn` rebuilding `keras_model` (from its config) on the estimator's features."""

    def __init__(self, keras_model, custom_objects, initial_weights):
        self._config = keras_model.get_config()
        self._class = type(keras_model)
        self._custom_objects = custom_objects
        self._input_names = list(keras_model.input_names)
        self._output_names = list(keras_model.output_names)
        # Serialized now: the config's values are read from the Keras session.
        self._optimizer = keras_model.optimizer if isinstance(keras_model.optimizer, TFOptimizer) else \
            optimizers.serialize(keras_model.optimizer)
        self._compile_args = dict(loss=keras_model.loss, metrics=keras_model._compile_metrics,
                                  loss_weights=keras_model.loss_weights,
                                  sample_weight_mode=keras_model.sample_weight_mode,
                                  weighted_metrics=keras_model._compile_weighted_metrics)
        self._initial_weights = initial_weights

    def _build(self, features, labels, mode):
        K.set_learning_phase(1 if mode == ModeKeys.TRAIN else 0)  # for the estimator's graph only
        if isinstance(features, dict) and set(features) == {"features", "sample_weights"}:
            raise NotImplementedError("Sample weights given as features['sample_weights'] are not supported by "
                                      "model_to_estimator.")
        names = self._input_names if isinstance(features, dict) else None
        tensors = _ordered(features, names, "features", "inputs")
        if len(tensors) != len(self._input_names):
            raise ValueError("The Keras model has %d inputs %s, but the features hold %d tensors."
                             % (len(self._input_names), self._input_names, len(tensors)))
        network = self._class.from_config(self._config, custom_objects=self._custom_objects)
        inputs = [Input(tensor=t, name=n) for t, n in zip(tensors, self._input_names)]
        outputs = network(inputs if len(inputs) > 1 else inputs[0])
        model = Model(inputs, outputs)
        # The clone's outputs come from the rebuilt network: name them as the Keras model's outputs,
        # which `loss` / `metrics` dicts and the predictions are keyed by.
        model.output_names = list(self._output_names)
        model.input_names = list(self._input_names)
        if mode != ModeKeys.PREDICT:
            targets = _ordered(labels, self._output_names if isinstance(labels, dict) else None, "labels",
                               "outputs")
            if targets is None:
                raise ValueError("The estimator's input_fn must give labels to train or evaluate the Keras model.")
            model.compile(_clone_optimizer(self._optimizer, get_or_create_global_step()), target_tensors=targets,
                          **self._compile_args)
        return model, network

    def __call__(self, features, labels, mode):
        model, network = self._build(features, labels, mode)
        predictions = dict(zip(self._output_names, model.outputs))
        loss = train_op = eval_metric_ops = None
        if mode != ModeKeys.PREDICT:
            loss = model.total_loss
            batch = ops.convert_to_tensor(K.cast(K.shape(model.outputs[0])[0], K.floatx()))
            names = model.metrics_names[1 + (len(model.outputs) if len(model.outputs) > 1 else 0):]
            eval_metric_ops = {name: _streaming_mean(value, weights=batch, name=name)
                               for name, value in zip(names, model._metric_tensors)}
        if mode == ModeKeys.TRAIN:
            model._make_train_function()
            train_op = model.train_function.updates_op
        weights, values = list(network.weights), self._initial_weights

        def init_fn(scaffold, session):
            for w, v in zip(weights, values):
                w.load(v, session)

        return EstimatorSpec(mode=mode, predictions=predictions, loss=loss, train_op=train_op,
                             eval_metric_ops=eval_metric_ops,
                             export_outputs={_DEFAULT_SERVING_KEY: PredictOutput(predictions)},
                             scaffold=Scaffold(init_fn=init_fn))


def model_to_estimator(keras_model=None, keras_model_path=None, custom_objects=None, model_dir=None, config=None):
    """Constructs an `Estimator` instance from a compiled Keras model.

    The estimator's `model_fn` rebuilds the model from its config on the features (a tensor, a list
    in the order of `keras_model.inputs`, or a dict keyed by the Keras input names), compiles it with
    the Keras model's loss, metrics and a fresh copy of its optimizer counting steps in the global
    step, with the labels as targets (a tensor, a list, or a dict keyed by the output names). The
    Keras model's current weights initialize the estimator's variables when `model_dir` has no
    checkpoint yet. Predictions are a dict keyed by the output names; evaluation reports the loss
    and each compiled metric, averaged over the samples.

    Args:
      keras_model: A compiled Keras model (functional or `Sequential`).
      keras_model_path: Path to a compiled Keras model saved in HDF5 by `model.save` (needs
        `tf.keras.models.load_model`).
      custom_objects: Dict of custom objects needed to rebuild the model from its config.
      model_dir: Directory of the estimator's checkpoints (default: `config.model_dir`, or a temp
        directory).
      config: A `tf.estimator.RunConfig`.

    Returns:
      A `tf.estimator.Estimator`.

    Raises:
      ValueError: If neither or both of `keras_model` and `keras_model_path` are given, or the model
        is not compiled, or is a subclassed model.
      NotImplementedError: For `keras_model_path` when `tf.keras.models.load_model` is not available.
    """
    if keras_model is None and not keras_model_path:
        raise ValueError("Either `keras_model` or `keras_model_path` needs to be provided.")
    if keras_model is not None and keras_model_path:
        raise ValueError("Please specity either `keras_model` or `keras_model_path`, but not both.")
    if keras_model is None:
        from . import models
        load_model = getattr(models, "load_model", None)
        if load_model is None:
            raise NotImplementedError("model_to_estimator(keras_model_path=...) needs tf.keras.models.load_model, "
                                      "which is not available; pass the loaded model as `keras_model`.")
        logging.info("Loading models from %s", keras_model_path)
        keras_model = load_model(keras_model_path, custom_objects=custom_objects)
    if not getattr(keras_model, "optimizer", None):
        raise ValueError("The given keras model has not been compiled yet. Please compile the model with "
                         "`model.compile()` before calling `model_to_estimator()`.")
    if not keras_model._is_graph_network:
        raise ValueError("model_to_estimator needs a functional or Sequential Keras model; a subclassed model "
                         "cannot be rebuilt from its config.")
    initial_weights = [np.asarray(w) for w in keras_model.get_weights()]
    return Estimator(_KerasModelFn(keras_model, custom_objects, initial_weights), model_dir=model_dir, config=config)
