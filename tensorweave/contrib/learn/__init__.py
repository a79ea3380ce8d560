"""`tf.contrib.learn`: the seed-era `RunConfig`, `Experiment` and `learn_runner.run` over `tf.estimator`,
`ModeKeys`, and the `preprocessing` (vocabulary/byte processors) and `datasets` (local CSV readers) modules."""

import inspect as _inspect
import types as _types

from ...estimator import Estimator as _Estimator
from ...estimator.run_config import RunConfig as _CoreRunConfig

from . import datasets, preprocessing

__all__ = ["RunConfig", "Experiment", "ModeKeys", "datasets", "learn_runner", "preprocessing"]


class ModeKeys:
    """The modes of a contrib.learn model function: `TRAIN`, `EVAL` and `INFER` (TF 1.x's values)."""

    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"


class RunConfig(_CoreRunConfig):
    """`tf.contrib.learn.RunConfig`: the same settings as `tf.estimator.RunConfig`."""


class Experiment:
    """Trains and evaluates an Estimator on input functions, as `tf.contrib.learn.Experiment`.

    Args:
      estimator: A `tf.estimator.Estimator`.
      train_input_fn, eval_input_fn: Input functions.
      eval_metrics: Must be None with a core Estimator (use `eval_metric_ops` in the EstimatorSpec).
      train_steps: Training stops at this global step (None: until the input ends).
      eval_steps: Evaluation batches (None: until the input ends).
      train_monitors, eval_hooks: Hooks for training and evaluation.
      min_eval_frequency, eval_delay_secs, ...: Accepted for compatibility.

    Raises:
      ValueError: If `estimator` is not an Estimator, or `eval_metrics` is given.
    """

    def __init__(self, estimator, train_input_fn, eval_input_fn, eval_metrics=None, train_steps=None,
                 eval_steps=100, train_monitors=None, eval_hooks=None, local_eval_frequency=None,
                 eval_delay_secs=120, continuous_eval_throttle_secs=60, min_eval_frequency=None,
                 delay_workers_by_global_step=False, export_strategies=None, train_steps_per_iteration=None,
                 checkpoint_and_export=False, saving_listeners=None, check_interval_secs=5):
        if not isinstance(estimator, _Estimator):
            raise ValueError("`estimator` must be a tf.estimator.Estimator, got %r" % (estimator,))
        if eval_metrics:
            raise ValueError("`eval_metrics` must be `None` with `tf.estimator.Estimator`. Use `eval_metric_ops` in "
                             "`tf.estimator.EstimatorSpec` instead.")
        self._estimator = estimator
        self._train_input_fn = train_input_fn
        self._eval_input_fn = eval_input_fn
        self._train_steps = train_steps
        self._eval_steps = eval_steps
        self._train_monitors = list(train_monitors or [])
        self._eval_hooks = list(eval_hooks or [])

    @property
    def estimator(self):
        return self._estimator

    @property
    def train_steps(self):
        return self._train_steps

    @property
    def eval_steps(self):
        return self._eval_steps

    def train(self, delay_secs=None):
        """Trains until `train_steps` (a global step); returns the Estimator."""
        return self._estimator.train(self._train_input_fn, max_steps=self._train_steps, hooks=self._train_monitors)

    def evaluate(self, delay_secs=None, name=None):
        """Evaluates the latest checkpoint; returns the metrics dict."""
        return self._estimator.evaluate(self._eval_input_fn, steps=self._eval_steps, hooks=self._eval_hooks,
                                        name=name)

    def train_and_evaluate(self):
        """Trains, then evaluates; returns `(eval_result, export_results)` as TF (no exports here)."""
        self.train()
        return self.evaluate(), []

    def test(self):
        """A quick check: one training step and one evaluation batch."""
        self._estimator.train(self._train_input_fn, steps=1, hooks=self._train_monitors)
        return self._estimator.evaluate(self._eval_input_fn, steps=1, hooks=self._eval_hooks)


def _run(experiment_fn, output_dir=None, schedule=None, run_config=None, hparams=None):
    """Builds the Experiment with `experiment_fn` and runs its `schedule` method.

    `experiment_fn(run_config, hparams)` (or the older `experiment_fn(output_dir)`) returns the
    Experiment; `schedule` names one of its methods (default "train_and_evaluate").

    Returns:
      What the schedule method returns.

    Raises:
      ValueError: If both or neither of `output_dir` and `run_config` fit the function, or the
        schedule names no method of the Experiment.
    """
    if output_dir is not None and run_config is not None:
        raise ValueError("output_dir and run_config cannot be set at the same time.")
    if run_config is not None or len(_inspect.signature(experiment_fn).parameters) == 2:
        experiment = experiment_fn(run_config or RunConfig(model_dir=output_dir), hparams)
    else:
        experiment = experiment_fn(output_dir)
    if not isinstance(experiment, Experiment):
        raise TypeError("Experiment builder did not return an Experiment instance, got %s instead."
                        % type(experiment).__name__)
    schedule = schedule or "train_and_evaluate"
    task = getattr(experiment, schedule, None)
    if schedule.startswith("_") or not callable(task):
        raise ValueError("Schedule references non-existent task %s" % schedule)
    return task()


learn_runner = _types.SimpleNamespace(run=_run)
