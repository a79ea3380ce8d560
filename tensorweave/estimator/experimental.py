"""`tf.estimator.experimental` (TF 1.x): early-stopping hooks that read the evaluation metrics
from the event files of `<model_dir>/eval`, and the logit function builders of the canned DNN and
linear models."""

import collections
import operator
import os

from .. import tf_logging as logging
from ..framework import dtypes, ops
from ..train.basic_session_run_hooks import SecondOrStepTimer
from ..train.session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["InMemoryEvaluatorHook", "dnn_logit_fn_builder", "linear_logit_fn_builder", "make_early_stopping_hook",
           "stop_if_higher_hook", "stop_if_lower_hook", "stop_if_no_decrease_hook", "stop_if_no_increase_hook"]

_EVENT_FILE_GLOB_PATTERN = "events.out.tfevents.*"
_STOP_VAR_NAME = "signal_early_stopping"


def _eval_dir(estimator, eval_dir):
    return eval_dir or os.path.join(estimator.model_dir, "eval")


def _summaries(eval_dir):
    from ..platform import gfile
    from ..train.summary_iterator import summary_iterator
    if gfile.exists(eval_dir):
        for event_file in sorted(gfile.glob(os.path.join(eval_dir, _EVENT_FILE_GLOB_PATTERN))):
            yield from summary_iterator(event_file)


def read_eval_metrics(eval_dir):
    """The evaluation metrics written to the event files of `eval_dir`, by global step.

    Args:
      eval_dir: Directory containing summary files with eval metrics.

    Returns:
      A `dict` with global steps mapping to `dict` of metric names and values, in step order.
    """
    eval_metrics_dict = collections.defaultdict(dict)
    for event in _summaries(eval_dir):
        if not event.HasField("summary"):
            continue
        metrics = {v.tag: v.simple_value for v in event.summary.value if v.HasField("simple_value")}
        if metrics:
            eval_metrics_dict[event.step].update(metrics)
    return collections.OrderedDict(sorted(eval_metrics_dict.items(), key=lambda t: t[0]))


def _get_or_create_stop_var():
    from ..ops.init_ops import constant_initializer
    from ..variable_scopes import AUTO_REUSE, get_variable, variable_scope
    with variable_scope(name_or_scope="", reuse=AUTO_REUSE):
        return get_variable(name=_STOP_VAR_NAME, shape=[], dtype=dtypes.bool_,
                            initializer=constant_initializer(False), collections=[ops.GraphKeys.GLOBAL_VARIABLES],
                            trainable=False)


class _StopOnPredicateHook(SessionRunHook):
    """Hook that requests stop when `should_stop_fn` returns `True`."""

    def __init__(self, should_stop_fn, run_every_secs=60, run_every_steps=None):
        if not callable(should_stop_fn):
            raise TypeError("`should_stop_fn` must be callable.")
        self._should_stop_fn = should_stop_fn
        self._timer = SecondOrStepTimer(every_secs=run_every_secs, every_steps=run_every_steps)
        self._global_step_tensor = None
        self._stop_var = None
        self._stop_op = None

    def begin(self):
        from ..ops.state_ops import assign
        from ..train.training_util import get_global_step
        self._global_step_tensor = get_global_step()
        self._stop_var = _get_or_create_stop_var()
        self._stop_op = assign(self._stop_var, True)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        global_step = run_values.results
        if self._timer.should_trigger_for_step(global_step):
            self._timer.update_last_triggered_step(global_step)
            if self._should_stop_fn():
                logging.info("Requesting early stopping at global step %d", global_step)
                run_context.session.run(self._stop_op)
                run_context.request_stop()


def make_early_stopping_hook(estimator, should_stop_fn, run_every_secs=60, run_every_steps=None):
    """Creates early-stopping hook.

    Returns a `SessionRunHook` that stops training when `should_stop_fn` returns `True`.

    Usage example:

        estimator = ...
        hook = early_stopping.make_early_stopping_hook(estimator, should_stop_fn=make_stop_fn(...))
        train_spec = tf.estimator.TrainSpec(..., hooks=[hook])
        tf.estimator.train_and_evaluate(estimator, train_spec, ...)

    Args:
      estimator: A `tf.estimator.Estimator` instance.
      should_stop_fn: `callable`, function that takes no arguments and returns a `bool`. If the
        function returns `True`, stopping will be initiated by the chief.
      run_every_secs: If specified, calls `should_stop_fn` at an interval of `run_every_secs`
        seconds. Either this or `run_every_steps` must be set.
      run_every_steps: If specified, calls `should_stop_fn` every `run_every_steps` steps. Either
        this or `run_every_secs` must be set.

    Returns:
      A `SessionRunHook` that periodically executes `should_stop_fn` and initiates early stopping
      if the function returns `True`.

    Raises:
      TypeError: If `estimator` is not of type `tf.estimator.Estimator`.
      ValueError: If both `run_every_secs` and `run_every_steps` are set.
    """
    from .estimator import Estimator
    if not isinstance(estimator, Estimator):
        raise TypeError("`estimator` must have type `tf.estimator.Estimator`. Got: {}".format(type(estimator)))
    if run_every_secs is not None and run_every_steps is not None:
        raise ValueError("Only one of `run_every_secs` and `run_every_steps` must be set.")
    return _StopOnPredicateHook(should_stop_fn, run_every_secs, run_every_steps)


def _stop_if_threshold_crossed_hook(estimator, metric_name, threshold, higher_is_better, eval_dir, min_steps,
                                    run_every_secs, run_every_steps):
    eval_dir = _eval_dir(estimator, eval_dir)
    is_lhs_better = operator.gt if higher_is_better else operator.lt
    greater_or_lesser = "greater than" if higher_is_better else "less than"

    def stop_if_threshold_crossed_fn():
        for step, metrics in read_eval_metrics(eval_dir).items():
            if step < min_steps:
                continue
            val = metrics[metric_name]
            if is_lhs_better(val, threshold):
                logging.info('At step %s, metric "%s" has value %s which is %s the configured threshold (%s) for '
                             "early stopping.", step, metric_name, val, greater_or_lesser, threshold)
                return True
        return False

    return make_early_stopping_hook(estimator, stop_if_threshold_crossed_fn, run_every_secs, run_every_steps)


def _stop_if_no_metric_improvement_hook(estimator, metric_name, max_steps_without_improvement, higher_is_better,
                                        eval_dir, min_steps, run_every_secs, run_every_steps):
    eval_dir = _eval_dir(estimator, eval_dir)
    is_lhs_better = operator.gt if higher_is_better else operator.lt
    increase_or_decrease = "increase" if higher_is_better else "decrease"

    def stop_if_no_metric_improvement_fn():
        best_val = best_val_step = None
        for step, metrics in read_eval_metrics(eval_dir).items():
            if step < min_steps:
                continue
            val = metrics[metric_name]
            if best_val is None or is_lhs_better(val, best_val):
                best_val, best_val_step = val, step
            if step - best_val_step >= max_steps_without_improvement:
                logging.info('No %s in metric "%s" for %s steps, which is greater than or equal to max steps (%s) '
                             "configured for early stopping.", increase_or_decrease, metric_name,
                             step - best_val_step, max_steps_without_improvement)
                return True
        return False

    return make_early_stopping_hook(estimator, stop_if_no_metric_improvement_fn, run_every_secs, run_every_steps)


def stop_if_higher_hook(estimator, metric_name, threshold, eval_dir=None, min_steps=0, run_every_secs=60,
                        run_every_steps=None):
    """Creates hook to stop if the given metric is higher than the threshold.

    Args:
      estimator: A `tf.estimator.Estimator` instance.
      metric_name: `str`, metric to track. "loss", "accuracy", etc.
      threshold: Numeric threshold for the given metric.
      eval_dir: If set, directory containing summary files with eval metrics. By default,
        `<model_dir>/eval` is used.
      min_steps: `int`, stop is never requested if global step is less than this value.
      run_every_secs: If specified, calls `should_stop_fn` at an interval of `run_every_secs`
        seconds.
      run_every_steps: If specified, calls `should_stop_fn` every `run_every_steps` steps.

    Returns:
      An early-stopping hook of type `SessionRunHook` that periodically checks if the given metric
      is higher than specified threshold and initiates early stopping if true.
    """
    return _stop_if_threshold_crossed_hook(estimator, metric_name, threshold, True, eval_dir, min_steps,
                                           run_every_secs, run_every_steps)


def stop_if_lower_hook(estimator, metric_name, threshold, eval_dir=None, min_steps=0, run_every_secs=60,
                       run_every_steps=None):
    """Creates hook to stop if the given metric is lower than the threshold.

    Args:
      estimator: A `tf.estimator.Estimator` instance.
      metric_name: `str`, metric to track. "loss", "accuracy", etc.
      threshold: Numeric threshold for the given metric.
      eval_dir: If set, directory containing summary files with eval metrics (default
        `<model_dir>/eval`).
      min_steps: `int`, stop is never requested if global step is less than this value.
      run_every_secs: If specified, calls `should_stop_fn` at an interval of `run_every_secs`
        seconds.
      run_every_steps: If specified, calls `should_stop_fn` every `run_every_steps` steps.

    Returns:
      An early-stopping hook of type `SessionRunHook`.
    """
    return _stop_if_threshold_crossed_hook(estimator, metric_name, threshold, False, eval_dir, min_steps,
                                           run_every_secs, run_every_steps)


def stop_if_no_increase_hook(estimator, metric_name, max_steps_without_increase, eval_dir=None, min_steps=0,
                             run_every_secs=60, run_every_steps=None):
    """Creates hook to stop if metric does not increase within given max steps.

    Args:
      estimator: A `tf.estimator.Estimator` instance.
      metric_name: `str`, metric to track. "loss", "accuracy", etc.
      max_steps_without_increase: `int`, maximum number of training steps with no increase in the
        given metric.
      eval_dir: If set, directory containing summary files with eval metrics (default
        `<model_dir>/eval`).
      min_steps: `int`, stop is never requested if global step is less than this value.
      run_every_secs: If specified, calls `should_stop_fn` at an interval of `run_every_secs`
        seconds.
      run_every_steps: If specified, calls `should_stop_fn` every `run_every_steps` steps.

    Returns:
      An early-stopping hook of type `SessionRunHook`.
    """
    return _stop_if_no_metric_improvement_hook(estimator, metric_name, max_steps_without_increase, True, eval_dir,
                                               min_steps, run_every_secs, run_every_steps)


def stop_if_no_decrease_hook(estimator, metric_name, max_steps_without_decrease, eval_dir=None, min_steps=0,
                             run_every_secs=60, run_every_steps=None):
    """Creates hook to stop if metric does not decrease within given max steps.

    Args:
      estimator: A `tf.estimator.Estimator` instance.
      metric_name: `str`, metric to track. "loss", "accuracy", etc.
      max_steps_without_decrease: `int`, maximum number of training steps with no decrease in the
        given metric.
      eval_dir: If set, directory containing summary files with eval metrics (default
        `<model_dir>/eval`).
      min_steps: `int`, stop is never requested if global step is less than this value.
      run_every_secs: If specified, calls `should_stop_fn` at an interval of `run_every_secs`
        seconds.
      run_every_steps: If specified, calls `should_stop_fn` every `run_every_steps` steps.

    Returns:
      An early-stopping hook of type `SessionRunHook`.
    """
    return _stop_if_no_metric_improvement_hook(estimator, metric_name, max_steps_without_decrease, False, eval_dir,
                                               min_steps, run_every_secs, run_every_steps)


def dnn_logit_fn_builder(units, hidden_units, feature_columns, activation_fn, dropout, input_layer_partitioner,
                         batch_norm):
    """Function builder for a dnn logit_fn (the network of `DNNClassifier`/`DNNRegressor`).

    Args:
      units: An int indicating the dimension of the logit layer.
      hidden_units: Iterable of integer number of hidden units per layer.
      feature_columns: Iterable of `feature_column._FeatureColumn` model inputs.
      activation_fn: Activation function applied to each layer.
      dropout: When not `None`, the probability we will drop out a given coordinate.
      input_layer_partitioner: Must be `None` (variables are not partitioned).
      batch_norm: Whether to use batch normalization after each hidden layer.

    Returns:
      A `logit_fn(features, mode)` returning the logits `Tensor` (variables `hiddenlayer_<i>/...`
      and `logits/...` in the current variable scope; the canned estimators call it in `dnn`).

    Raises:
      ValueError: If units is not an int.
    """
    from .canned._common import _check_partitioner
    from .canned.dnn import _dnn_logits
    if not isinstance(units, int):
        raise ValueError("units must be an int.  Given type: {}".format(type(units)))
    _check_partitioner(input_layer_partitioner, "input_layer_partitioner")

    def dnn_logit_fn(features, mode):
        return _dnn_logits(features, mode, units, list(hidden_units), feature_columns, activation_fn, dropout,
                           batch_norm)

    return dnn_logit_fn


def linear_logit_fn_builder(units, feature_columns, sparse_combiner="sum"):
    """Function builder for a linear logit_fn (the model of `LinearClassifier`/`LinearRegressor`).

    Args:
      units: An int indicating the dimension of the logit layer.
      feature_columns: An iterable containing all the feature columns used by the model.
      sparse_combiner: A string specifying how to reduce if a categorical column is multivalent.
        One of "mean", "sqrtn", and "sum".

    Returns:
      A `logit_fn(features)` returning the logits `Tensor` (variables under `linear_model/` in
      the current variable scope).
    """
    from .canned.linear import _linear_logits

    def linear_logit_fn(features):
        return _linear_logits(features, units, feature_columns, sparse_combiner)

    return linear_logit_fn


class _FeedVariablesHook(SessionRunHook):
    """Overwrites the evaluation graph's global variables with the training session's values."""

    def __init__(self, values):
        self._values = values

    def begin(self):
        from ..ops.core_ops import group, placeholder
        from ..ops.state_ops import assign
        self._feeds = {}
        assigns = []
        for var in ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES):
            if var.name in self._values:
                ph = placeholder(var.dtype.base_dtype, shape=var.shape)
                self._feeds[ph] = self._values[var.name]
                assigns.append(assign(var, ph))
        self._op = group(*assigns)

    def after_create_session(self, session, coord):
        session.run(self._op, feed_dict=self._feeds)


class InMemoryEvaluatorHook(SessionRunHook):
    """Hook to run evaluation in training without a checkpoint
    (`tf.estimator.experimental.InMemoryEvaluatorHook`).

    Every `every_n_iter` training steps, before the first step and at the end of training, the
    estimator evaluates `input_fn` with the training session's current variable values (not
    the last checkpoint); the results go to the summaries of `<model_dir>/eval[_<name>]`.

    Example:

        def train_input_fn():
          ...
          return train_dataset

        def eval_input_fn():
          ...
          return eval_dataset

        estimator = tf.estimator.DNNClassifier(...)

        evaluator = tf.estimator.experimental.InMemoryEvaluatorHook(
            estimator, eval_input_fn)
        estimator.train(train_input_fn, hooks=[evaluator])

    Args:
      estimator: A `tf.estimator.Estimator` instance to call evaluate.
      input_fn: Equivalent to the `input_fn` arg to `estimator.evaluate`.
      steps: Equivalent to the `steps` arg to `estimator.evaluate`.
      hooks: Equivalent to the `hooks` arg to `estimator.evaluate`.
      name: Equivalent to the `name` arg to `estimator.evaluate`.
      every_n_iter: `int`, runs the evaluator once every N training iteration.

    Raises:
      ValueError: if `every_n_iter` is non-positive or it's not a single machine training.
    """

    def __init__(self, estimator, input_fn, steps=None, hooks=None, name=None, every_n_iter=100):
        if every_n_iter is None or every_n_iter <= 0:
            raise ValueError("invalid every_n_iter=%s." % every_n_iter)
        self._estimator = estimator
        self._input_fn = input_fn
        self._steps = steps
        self._name = name
        self._every_n_iter = every_n_iter
        self._hooks = list(hooks or [])
        self._timer = SecondOrStepTimer(every_steps=every_n_iter)
        self._eval_results = []

    def begin(self):
        self._timer.reset()
        self._iter_count = 0

    def after_create_session(self, session, coord):
        """Runs a first evaluation, showing the eval metrics before training."""
        self._evaluate(session)

    def _evaluate(self, train_session):
        variables = {v.name: v for v in ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES)}
        values = train_session.run(variables)
        results = self._estimator.evaluate(self._input_fn, steps=self._steps, name=self._name,
                                           hooks=self._hooks + [_FeedVariablesHook(values)])
        self._eval_results.append(results)
        self._timer.update_last_triggered_step(self._iter_count)

    def after_run(self, run_context, run_values):
        self._iter_count += 1
        if self._timer.should_trigger_for_step(self._iter_count):
            self._evaluate(run_context.session)

    def end(self, session):
        self._evaluate(session)
