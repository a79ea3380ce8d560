"""Basic `SessionRunHook`s: stop at a step, log tensors, save checkpoints and summaries, NaN checks."""

import os
import time

import numpy as np

from .. import tf_logging as logging
from ..framework import ops
from . import training_util
from .session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["CheckpointSaverHook", "CheckpointSaverListener", "FeedFnHook", "FinalOpsHook", "LoggingTensorHook",
           "NanLossDuringTrainingError", "NanTensorHook", "SecondOrStepTimer", "StepCounterHook", "StopAtStepHook",
           "SummarySaverHook"]


class SecondOrStepTimer:
    """Timer that triggers at most once every N seconds or once every N steps.

    Args:
      every_secs: Trigger at most once every this many seconds.
      every_steps: Trigger once every this many steps.

    Raises:
      ValueError: If both or neither of `every_secs` and `every_steps` are given, or one is negative.
    """

    def __init__(self, every_secs=None, every_steps=None):
        self.reset()
        self._every_secs = every_secs
        self._every_steps = every_steps
        if self._every_secs is None and self._every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if self._every_secs is not None and self._every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")

    def reset(self):
        """Forgets the last trigger."""
        self._last_triggered_step = None
        self._last_triggered_time = None

    def should_trigger_for_step(self, step):
        """Returns True if the timer should trigger for the given step."""
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and time.time() >= self._last_triggered_time + self._every_secs:
            return True
        if self._every_steps is not None and step >= self._last_triggered_step + self._every_steps:
            return True
        return False

    def update_last_triggered_step(self, step):
        """Records a trigger at `step`; returns (elapsed seconds, elapsed steps) since the last one, or Nones."""
        current_time = time.time()
        if self._last_triggered_time is None:
            elapsed_secs = None
            elapsed_steps = None
        else:
            elapsed_secs = current_time - self._last_triggered_time
            elapsed_steps = step - self._last_triggered_step
        self._last_triggered_time = current_time
        self._last_triggered_step = step
        return (elapsed_secs, elapsed_steps)

    def last_triggered_step(self):
        """The step of the last trigger (None before the first)."""
        return self._last_triggered_step


def _as_graph_element(obj):
    """The tensor or operation `obj` names in the default graph."""
    graph = ops.get_default_graph()
    if not isinstance(obj, str):
        if not hasattr(obj, "graph") or obj.graph is not graph:
            raise ValueError("Passed %s should have graph attribute that is equal to current graph %s."
                             % (obj, graph))
        return obj
    if ":" in obj:
        element = graph.as_graph_element(obj)
    else:
        element = graph.as_graph_element(obj + ":0")
        try:
            graph.as_graph_element(obj + ":1")
        except (KeyError, ValueError):
            pass
        else:
            raise ValueError("Name %s is ambiguous, as this `Operation` has multiple outputs (at least 2)." % obj)
    return element


def _require_global_step(hook_name):
    global_step_tensor = training_util.get_global_step()
    if global_step_tensor is None:
        raise RuntimeError("Global step should be created to use %s." % hook_name)
    return global_step_tensor


class StopAtStepHook(SessionRunHook):
    """Hook that requests stop at a specified step.

    Args:
      num_steps: Number of steps to execute (counted from the global step when the session is created).
      last_step: Step after which to stop.

    Raises:
      ValueError: If one of the arguments is invalid.
    """

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        if num_steps is not None and num_steps < 0:
            raise ValueError("Number of steps must be >= 0.")
        self._num_steps = num_steps
        self._last_step = last_step

    def begin(self):
        self._global_step_tensor = _require_global_step("StopAtStepHook")

    def after_create_session(self, session, coord):
        global_step = session.run(self._global_step_tensor)
        if self._last_step is None:
            self._last_step = global_step + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        global_step = run_values.results + 1
        if global_step >= self._last_step:
            # The fetched value is read before the train op ran: check the step actually reached.
            step = run_context.session.run(self._global_step_tensor)
            if step >= self._last_step:
                run_context.request_stop()


class LoggingTensorHook(SessionRunHook):
    """Prints the given tensors every N local steps, every N seconds, or at end.

    The tensors are logged with `tf.logging.info` as `tag = value` pairs.

    Args:
      tensors: `dict` that maps string-valued tags to tensors/tensor names, or `iterable` of
        tensors/tensor names.
      every_n_iter: `int`, print the values of `tensors` once every N local steps taken on the
        current worker.
      every_n_secs: `int` or `float`, print the values of `tensors` once every N seconds.
      at_end: `bool` specifying whether to print the values of `tensors` at the end of the run.
      formatter: function, takes dict of `tag`->`Tensor` values and returns a string. If `None` uses
        default printing all tensors.

    Raises:
      ValueError: if `every_n_iter` is non-positive.
    """

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False, formatter=None):
        only_log_at_end = at_end and (every_n_iter is None) and (every_n_secs is None)
        if not only_log_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError("invalid every_n_iter=%s." % every_n_iter)
        if not isinstance(tensors, dict):
            self._tag_order = list(tensors)
            tensors = {item: item for item in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors = tensors
        self._formatter = formatter
        self._timer = (_NeverTriggerTimer() if only_log_at_end
                       else SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter))
        self._log_at_end = at_end

    def begin(self):
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(tensor) for (tag, tensor) in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        if self._should_trigger:
            return SessionRunArgs(self._current_tensors)
        return None

    def _log_tensors(self, tensor_values):
        original = np.get_printoptions()
        np.set_printoptions(suppress=True)
        elapsed_secs, _ = self._timer.update_last_triggered_step(self._iter_count)
        try:
            if self._formatter:
                logging.info(self._formatter(tensor_values))
            else:
                stats = ", ".join("%s = %s" % (tag, tensor_values[tag]) for tag in self._tag_order)
                if elapsed_secs is not None:
                    logging.info("%s (%.3f sec)", stats, elapsed_secs)
                else:
                    logging.info("%s", stats)
        finally:
            np.set_printoptions(**original)

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class _NeverTriggerTimer(SecondOrStepTimer):
    """Timer that never triggers."""

    def __init__(self):
        self.reset()

    def should_trigger_for_step(self, step):
        return False


class CheckpointSaverListener:
    """Interface for listeners that take action before or after checkpoint save.

    `after_save` may return True to request that training stop.
    """

    def begin(self):
        """Called once before the session is created."""

    def before_save(self, session, global_step_value):
        """Called before each checkpoint save."""

    def after_save(self, session, global_step_value):
        """Called after each checkpoint save; returning True requests a stop."""

    def end(self, session, global_step_value):
        """Called at the end of the session."""


class CheckpointSaverHook(SessionRunHook):
    """Saves checkpoints every N steps or seconds.

    Args:
      checkpoint_dir: `str`, base directory for the checkpoint files.
      save_secs: `int`, save every N secs.
      save_steps: `int`, save every N steps.
      saver: `Saver` object, used for saving.
      checkpoint_basename: `str`, base name for the checkpoint files.
      scaffold: `Scaffold`, use to get saver object.
      listeners: List of `CheckpointSaverListener` subclass instances. Used for callbacks that run
        immediately before or after this hook saves the checkpoint.

    Raises:
      ValueError: One of `save_steps` or `save_secs` should be set; not both `saver` and `scaffold`.
    """

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None):
        logging.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver = saver
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []
        self._steps_per_run = 1

    def begin(self):
        from ..summary.writer import FileWriterCache
        self._summary_writer = FileWriterCache.get(self._checkpoint_dir)
        self._global_step_tensor = _require_global_step("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        global_step = session.run(self._global_step_tensor)
        self._summary_writer.add_graph(ops.get_default_graph())
        # The checkpoint of the initial state is saved when the session is created (as TF).
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                self._timer.update_last_triggered_step(global_step)
                if self._save(run_context.session, global_step):
                    run_context.request_stop()

    def end(self, session):
        last_step = session.run(self._global_step_tensor)
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)

    def _save(self, session, step):
        """Saves the latest checkpoint; returns True if a listener requested a stop."""
        from ..summary.messages import SessionLog
        logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
        for listener in self._listeners:
            listener.before_save(session, step)
        self._get_saver().save(session, self._save_path, global_step=step)
        self._summary_writer.add_session_log(
            SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._save_path), step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                logging.info("A CheckpointSaverListener requested that training be stopped. listener: %s",
                             listener)
                should_stop = True
        return should_stop

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = ops.get_collection(ops.GraphKeys.SAVERS)
        if not savers:
            raise RuntimeError("No items in collection {}. Please add a saver to the collection or provide a "
                               "saver or scaffold.".format(ops.GraphKeys.SAVERS))
        if len(savers) > 1:
            raise RuntimeError("More than one item in collection {}. Please indicate which one to use by passing "
                               "it to the constructor.".format(ops.GraphKeys.SAVERS))
        self._saver = savers[0]
        return savers[0]


class StepCounterHook(SessionRunHook):
    """Hook that counts steps per second (logged and written as a `global_step/sec` summary).

    Args:
      every_n_steps: Count every N steps.
      every_n_secs: Count at most every N seconds.
      output_dir: Directory for the summary (a cached `FileWriter`).
      summary_writer: A `FileWriter` to write the summary to.

    Raises:
      ValueError: If not exactly one of `every_n_steps` and `every_n_secs` is given.
    """

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None, summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._steps_per_run = 1

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            from ..summary.writer import FileWriterCache
            self._summary_writer = FileWriterCache.get(self._output_dir)
        self._global_step_tensor = _require_global_step("StepCounterHook")
        self._summary_tag = self._global_step_tensor.op.name + "/sec"

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(global_step)
                if elapsed_time is not None and elapsed_time > 0:
                    steps_per_sec = elapsed_steps / elapsed_time
                    if self._summary_writer is not None:
                        from ..summary.messages import Summary
                        summary = Summary(value=[Summary.Value(tag=self._summary_tag, simple_value=steps_per_sec)])
                        self._summary_writer.add_summary(summary, global_step)
                    logging.info("%s: %g", self._summary_tag, steps_per_sec)


class NanLossDuringTrainingError(RuntimeError):
    """Raised by `NanTensorHook` when the loss is NaN."""

    def __str__(self):
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Monitors the loss tensor and stops training if loss is NaN.

    Can either fail with exception or just stop training.

    Args:
      loss_tensor: `Tensor`, the loss tensor.
      fail_on_nan_loss: `bool`, whether to raise exception when loss is NaN.
    """

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            failure_message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                logging.error(failure_message)
                raise NanLossDuringTrainingError
            logging.warning(failure_message)
            run_context.request_stop()


class SummarySaverHook(SessionRunHook):
    """Saves summaries every N steps or seconds.

    Args:
      save_steps: `int`, save summaries every N steps. Exactly one of `save_secs` and `save_steps`
        should be set.
      save_secs: `int`, save summaries every N seconds.
      output_dir: `string`, the directory to save the summaries to. Only used if no `summary_writer`
        is supplied.
      summary_writer: `SummaryWriter`. If `None` and an `output_dir` was passed, one will be created
        accordingly.
      scaffold: `Scaffold` to get summary_op if it's not provided.
      summary_op: `Tensor` of type `string` containing the serialized `Summary` protocol buffer or a
        list of `Tensor`. They are most likely an output by TF summary methods like
        `tf.summary.scalar` or `tf.summary.merge_all`.

    Raises:
      ValueError: Exactly one of scaffold or summary_op should be set.
    """

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None, scaffold=None,
                 summary_op=None):
        if (scaffold is None and summary_op is None) or (scaffold is not None and summary_op is not None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            from ..summary.writer import FileWriterCache
            self._summary_writer = FileWriterCache.get(self._output_dir)
        self._next_step = None
        self._global_step_tensor = _require_global_step("SummarySaverHook")

    def before_run(self, run_context):
        self._request_summary = self._next_step is None or self._timer.should_trigger_for_step(self._next_step)
        requests = {"global_step": self._global_step_tensor}
        if self._request_summary:
            summary_op = self._get_summary_op()
            if summary_op is not None:
                requests["summary"] = summary_op
        return SessionRunArgs(requests)

    def after_run(self, run_context, run_values):
        if not self._summary_writer:
            return
        from ..summary.messages import SessionLog
        stale_global_step = run_values.results["global_step"]
        global_step = stale_global_step + 1
        if self._next_step is None or self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
        if self._next_step is None:
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START), global_step)
        if self._request_summary:
            self._timer.update_last_triggered_step(global_step)
            for summary in run_values.results.get("summary", []):
                self._summary_writer.add_summary(summary, global_step)
        self._next_step = global_step + 1

    def end(self, session=None):
        if self._summary_writer:
            self._summary_writer.flush()

    def _get_summary_op(self):
        summary_op = self._scaffold.summary_op if self._scaffold is not None else self._summary_op
        if summary_op is None:
            return None
        if not isinstance(summary_op, list):
            return [summary_op]
        return summary_op


class FinalOpsHook(SessionRunHook):
    """A hook which evaluates `Tensors` at the end of a session.

    Args:
      final_ops: A single `Tensor`, a list of `Tensors` or a dictionary of names to `Tensors`.
      final_ops_feed_dict: A feed dictionary to use when running `final_ops`.
    """

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        """The values of `final_ops` computed at the end (None before)."""
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is not None:
            self._final_ops_values = session.run(self._final_ops, feed_dict=self._final_ops_feed_dict)


class FeedFnHook(SessionRunHook):
    """Runs `feed_fn` and sets the `feed_dict` accordingly.

    Args:
      feed_fn: function that takes no arguments and returns `dict` of `Tensor` to feed.
    """

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class ProgressBarHook(SessionRunHook):
    """Shows a tqdm progress bar with the loss and steps/s (the `progress` extra).

    Estimator.train adds it when standard error is a terminal; elsewhere training logs lines.

    Args:
      loss: The loss tensor shown on the bar.
      total_steps: The global step training stops at (None: unknown).
      steps: Or the number of steps this run trains (the bar ends at the starting step + steps).
      stream: Where the bar is drawn (default sys.stderr).

    Raises:
      ImportError: If tqdm is missing (naming the extra).
    """

    def __init__(self, loss, total_steps=None, steps=None, stream=None):
        try:
            from tqdm import tqdm
        except ImportError:
            raise ImportError("The training progress bar needs tqdm: pip install 'tensorweave[progress]'") from None
        self._tqdm = tqdm
        self._loss = loss
        self._total = total_steps
        self._steps = steps
        self._stream = stream
        self._bar = None
        self._last = 0

    def begin(self):
        self._global_step = training_util.get_global_step()

    def after_create_session(self, session, coord):
        self._last = int(session.run(self._global_step))
        total = self._total if self._total is not None else (
            self._last + self._steps if self._steps is not None else None)
        self._bar = self._tqdm(total=total, initial=self._last, unit="step", file=self._stream,
                               dynamic_ncols=True, leave=True)

    def before_run(self, run_context):
        return SessionRunArgs({"loss": self._loss, "step": self._global_step})

    def after_run(self, run_context, run_values):
        step = int(run_values.results["step"])
        self._bar.update(max(step - self._last, 0))
        self._last = step
        self._bar.set_postfix(loss="%.4g" % float(run_values.results["loss"]), refresh=False)

    def end(self, session):
        if self._bar is not None:
            # The step fetched with the last train op is the one before its increment: bring the bar
            # to the final global step (600/600, not 599/600).
            step = int(session.run(self._global_step))
            self._bar.update(max(step - self._last, 0))
            self._last = step
            self._bar.close()
            self._bar = None


def progress_bar_hook_if_terminal(loss, total_steps=None, steps=None):
    """A ProgressBarHook when stderr is a terminal and tqdm is installed, else None (log lines)."""
    import sys
    if not getattr(sys.stderr, "isatty", lambda: False)():
        return None
    try:
        return ProgressBarHook(loss, total_steps, steps)
    except ImportError as e:
        logging.info("%s", e)
        return None
