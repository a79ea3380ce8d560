"""`tf.estimator.train_and_evaluate` with `TrainSpec` and `EvalSpec` (TF 1.x, local mode): trains,
evaluating (and exporting) after checkpoint saves at most every `throttle_secs`, and once more at
the end of training."""

import collections
import os
import time

from .. import tf_logging as logging
from ..framework import ops
from ..train.basic_session_run_hooks import CheckpointSaverListener, SecondOrStepTimer
from ..train.session_run_hook import SessionRunHook
from .estimator import Estimator
from .exporter import Exporter

__all__ = ["EvalSpec", "TrainSpec", "train_and_evaluate"]


def _validate_hooks(hooks):
    hooks = tuple(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError("All hooks must be `SessionRunHook` instances, given: {}".format(hook))
    return hooks


def _validate_exporters(exporters):
    if exporters is None:
        return ()
    if isinstance(exporters, Exporter):
        exporters = [exporters]
    unique_names = []
    try:
        for exporter in exporters:
            if not isinstance(exporter, Exporter):
                raise TypeError("`exporters` must be an Exporter, an iterable of Exporter, or `None`, found "
                                "%s." % exporter)
            if not exporter.name:
                full_list_of_names = [e.name for e in exporters]
                raise ValueError("An Exporter cannot have a name that is `None` or empty. All exporter names:"
                                 " %s" % full_list_of_names)
            if not isinstance(exporter.name, str):
                raise ValueError("An Exporter must have a string name. Given: %s" % type(exporter.name))
            if exporter.name in unique_names:
                full_list_of_names = [e.name for e in exporters]
                raise ValueError("`exporters` must have unique names. Such a name cannot be `None`. All exporter "
                                 "names: %s" % full_list_of_names)
            unique_names.append(exporter.name)
    except TypeError:
        raise TypeError("`exporters` must be an Exporter, an iterable of Exporter, or `None`, found %s."
                        % exporters) from None
    return tuple(exporters)


class TrainSpec(collections.namedtuple("TrainSpec", ["input_fn", "max_steps", "hooks"])):
    """Configuration for the "train" part for the `train_and_evaluate` call.

    Args:
      input_fn: A function that provides input data for training as minibatches.
      max_steps: Int. Positive number of total steps for which to train model. If `None`, train
        forever.
      hooks: Iterable of `tf.train.SessionRunHook` objects to run on all workers during training.

    Raises:
      ValueError: If any of the input arguments is invalid.
      TypeError: If any of the arguments is not of the expected type.
    """

    def __new__(cls, input_fn, max_steps=None, hooks=None):
        if not callable(input_fn):
            raise TypeError("`input_fn` must be callable, given: {}".format(input_fn))
        if max_steps is not None and max_steps <= 0:
            raise ValueError("Must specify max_steps > 0, given: {}".format(max_steps))
        return super().__new__(cls, input_fn=input_fn, max_steps=max_steps, hooks=_validate_hooks(hooks))


class EvalSpec(collections.namedtuple("EvalSpec", ["input_fn", "steps", "name", "hooks", "exporters",
                                                   "start_delay_secs", "throttle_secs"])):
    """Configuration for the "eval" part for the `train_and_evaluate` call.

    Args:
      input_fn: A function that constructs the input data for evaluation.
      steps: Int. Positive number of steps for which to evaluate model. If `None`, evaluates until
        `input_fn` raises an end-of-input exception.
      name: String. Name of the evaluation if user needs to run multiple evaluations on different
        data sets.
      hooks: Iterable of `tf.train.SessionRunHook` objects to run during evaluation.
      exporters: Iterable of `Exporter`s, or a single one, or `None`.
      start_delay_secs: Int. Start evaluating after waiting for this many seconds (distributed
        mode only; unused locally).
      throttle_secs: Int. Do not re-evaluate unless the last evaluation was started at least this
        many seconds ago.

    Raises:
      ValueError: If any of the input arguments is invalid.
      TypeError: If any of the arguments is not of the expected type.
    """

    def __new__(cls, input_fn, steps=100, name=None, hooks=None, exporters=None, start_delay_secs=120,
                throttle_secs=600):
        if not callable(input_fn):
            raise TypeError("`input_fn` must be callable, given: {}".format(input_fn))
        if steps is not None and steps <= 0:
            raise ValueError("Must specify steps > 0, given: {}".format(steps))
        if name is not None and not isinstance(name, str):
            raise TypeError("`name` must be string, given: {}".format(name))
        if start_delay_secs < 0:
            raise ValueError("Must specify start_delay_secs >= 0, given: {}".format(start_delay_secs))
        if throttle_secs < 0:
            raise ValueError("Must specify throttle_secs >= 0, given: {}".format(throttle_secs))
        return super().__new__(cls, input_fn=input_fn, steps=steps, name=name, hooks=_validate_hooks(hooks),
                               exporters=_validate_exporters(exporters), start_delay_secs=start_delay_secs,
                               throttle_secs=throttle_secs)


class _Evaluator:
    """Evaluates the latest checkpoint once, then runs the exporters."""

    def __init__(self, estimator, eval_spec, max_training_steps):
        self._estimator = estimator
        self._eval_spec = eval_spec
        self._max_training_steps = max_training_steps
        self._previous_ckpt_path = None

    def evaluate_and_export(self):
        latest_ckpt_path = self._estimator.latest_checkpoint()
        if not latest_ckpt_path:
            logging.warning("Estimator is not trained yet. Will start an evaluation when a checkpoint is ready.")
            return None, []
        if latest_ckpt_path == self._previous_ckpt_path:
            logging.warning("No new checkpoint ready for evaluation. Skip the current evaluation pass as "
                            "evaluation results are expected to be same for the same checkpoint.")
            return None, []
        metrics = self._estimator.evaluate(input_fn=self._eval_spec.input_fn, steps=self._eval_spec.steps,
                                           name=self._eval_spec.name, checkpoint_path=latest_ckpt_path,
                                           hooks=self._eval_spec.hooks)
        if not metrics:
            raise RuntimeError("Internal error: `Estimator.evaluate` should never return empty metrics.")
        if ops.GraphKeys.GLOBAL_STEP not in metrics:
            raise RuntimeError("Internal error: `Estimator.evaluate` result should have `global_step` in result. "
                               "Given {}".format(metrics))
        is_the_final_export = (metrics[ops.GraphKeys.GLOBAL_STEP] >= self._max_training_steps
                               if self._max_training_steps else False)
        export_results = []
        for exporter in self._eval_spec.exporters:
            export_path = os.path.join(self._estimator.model_dir, "export", exporter.name)
            export_results.append(exporter.export(estimator=self._estimator, export_path=export_path,
                                                  checkpoint_path=latest_ckpt_path, eval_result=metrics,
                                                  is_the_final_export=is_the_final_export))
        self._previous_ckpt_path = latest_ckpt_path
        return metrics, export_results


class _NewCheckpointListenerForEvaluate(CheckpointSaverListener):
    """Evaluates after checkpoint saves (not the first one), at most every `eval_throttle_secs`."""

    def __init__(self, evaluator, eval_throttle_secs):
        self._evaluator = evaluator
        self._eval_throttle_secs = eval_throttle_secs
        self.eval_result = None
        self.export_results = None

    def begin(self):
        self._timer = SecondOrStepTimer(every_secs=self._eval_throttle_secs)
        self._is_first_run = True

    def _evaluate(self, global_step_value):
        self._timer.update_last_triggered_step(global_step_value)
        metrics, export_results = self._evaluator.evaluate_and_export()
        if metrics is not None:
            self.eval_result, self.export_results = metrics, export_results

    def after_save(self, session, global_step_value):
        if self._is_first_run:  # the model is not trained yet
            self._is_first_run = False
            return False
        if self._timer.should_trigger_for_step(global_step_value):
            self._evaluate(global_step_value)
        else:
            logging.info("Skip the current checkpoint eval due to throttle secs ({} secs).".format(
                self._eval_throttle_secs))
        return False

    def end(self, session, global_step_value):
        if global_step_value != self._timer.last_triggered_step():
            self._evaluate(global_step_value)


def train_and_evaluate(estimator, train_spec, eval_spec):
    """Train and evaluate the `estimator` (TF 1.x's local mode).

    Trains with `train_spec` until `max_steps` (or the end of its input); after each checkpoint
    save (as `estimator.config` configures them) evaluates with `eval_spec` if at least
    `throttle_secs` passed since the last evaluation, running the exporters after each
    evaluation; evaluates once more at the end of training unless the last checkpoint was just
    evaluated.

    Args:
      estimator: An `Estimator` instance to train and evaluate.
      train_spec: A `TrainSpec` instance to specify the training specification.
      eval_spec: A `EvalSpec` instance to specify the evaluation and export specification.

    Returns:
      A tuple of the result of the `evaluate` call to the `Estimator` and the export results using
      the specified `Exporter`s (`(None, None)` when the config saves no checkpoints).

    Raises:
      TypeError: If the arguments are not an `Estimator`, a `TrainSpec` and an `EvalSpec`.
      ValueError: If `eval_spec.throttle_secs` is not positive, or the config names a cluster.
    """
    if not isinstance(estimator, Estimator):
        raise TypeError("`estimator` must have type `tf.estimator.Estimator`. Got: {}".format(type(estimator)))
    if not isinstance(train_spec, TrainSpec):
        raise TypeError("`train_spec` must have type `tf.estimator.TrainSpec`. Got: {}".format(type(train_spec)))
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError("`eval_spec` must have type `tf.estimator.EvalSpec`. Got: {}".format(type(eval_spec)))
    config = estimator.config
    if getattr(config, "cluster_spec", None) and getattr(config.cluster_spec, "as_dict", lambda: {})():
        raise ValueError("tensorweave's train_and_evaluate runs in local mode only (no cluster_spec).")
    if eval_spec.throttle_secs <= 0:
        raise ValueError("eval_spec.throttle_secs should be positive, given: {}.It is used do determine how long "
                         "each training iteration should go when train and evaluate locally.".format(
                             eval_spec.throttle_secs))
    logging.info("Start train and evaluate loop. The evaluate will happen after every checkpoint. Checkpoint "
                 "frequency is determined based on RunConfig arguments: save_checkpoints_steps {} or "
                 "save_checkpoints_secs {}.".format(config.save_checkpoints_steps, config.save_checkpoints_secs))
    evaluator = _Evaluator(estimator, eval_spec, train_spec.max_steps)
    listener_for_eval = _NewCheckpointListenerForEvaluate(evaluator, eval_spec.throttle_secs)
    start = time.time()
    estimator.train(input_fn=train_spec.input_fn, max_steps=train_spec.max_steps, hooks=list(train_spec.hooks),
                    saving_listeners=[listener_for_eval])
    logging.info("Finished train and evaluate in %.1f secs.", time.time() - start)
    return listener_for_eval.eval_result, listener_for_eval.export_results
