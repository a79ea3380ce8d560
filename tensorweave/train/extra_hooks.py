"""`tf.train.GlobalStepWaiterHook` (TF1's basic_session_run_hooks): delays a worker's training until
the global step reaches a value."""

import os
import time

from .. import tf_logging as logging
from . import training_util
from .session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["GlobalStepWaiterHook", "ProfilerHook"]


class GlobalStepWaiterHook(SessionRunHook):
    """Delays execution until the global step reaches `wait_until_step`.

    Used to gradually start workers in distributed settings: before its first run, the hook polls
    the global step (every 0.5 s) until it is at least `wait_until_step`; later runs go ahead at once.

    Args:
      wait_until_step: An int: the global step to wait for (<= 0: no wait).

    Raises:
      RuntimeError (from `begin`): If the graph has no global step.
    """

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False
        self._global_step_tensor = training_util.get_global_step()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use _GlobalStepWaiterHook.")

    def before_run(self, run_context):
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        logging.info("Waiting for global step %d before starting training.", self._wait_until_step)
        last_logged_step = 0
        while True:
            current_step = run_context.session.run(self._global_step_tensor)
            if current_step >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if current_step - last_logged_step > 1000:
                logging.info("Waiting for global step %d before starting training. Current step is %d.",
                             self._wait_until_step, current_step)
                last_logged_step = current_step
            time.sleep(0.5)


class ProfilerHook(SessionRunHook):
    """Traces a run every N steps or seconds and writes it as a Chrome trace, `timeline-<step>.json` in
    `output_dir` (open it in chrome://tracing), and as run metadata in the directory's event file.

    Args:
      save_steps: Trace every this many steps (give exactly one of `save_steps` and `save_secs`).
      save_secs: Trace every this many seconds.
      output_dir: The directory of the trace files.
      show_dataflow: Passed to `Timeline.generate_chrome_trace_format`.
      show_memory: Passed to `Timeline.generate_chrome_trace_format`.

    Raises:
      ValueError: If both or neither of `save_steps` and `save_secs` are given.
      RuntimeError (from `begin`): If the graph has no global step.
    """

    def __init__(self, save_steps=None, save_secs=None, output_dir="", show_dataflow=True, show_memory=False):
        from .basic_session_run_hooks import SecondOrStepTimer
        self._output_file = os.path.join(output_dir, "timeline-{}.json")
        self._output_dir = output_dir
        self._show_dataflow = show_dataflow
        self._show_memory = show_memory
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._file_writer = None

    def begin(self):
        from ..summary.writer import FileWriterCache
        self._next_step = None
        self._global_step_tensor = training_util.get_global_step()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use ProfilerHook.")
        self._file_writer = FileWriterCache.get(self._output_dir)

    def before_run(self, run_context):
        from ..client.config import RunOptions
        self._request_summary = self._next_step is not None and self._timer.should_trigger_for_step(self._next_step)
        options = RunOptions(trace_level=RunOptions.FULL_TRACE) if self._request_summary else None
        return SessionRunArgs({"global_step": self._global_step_tensor}, options=options)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results["global_step"]
        if self._next_step is None:
            # No trace until N steps or seconds have passed.
            self._timer.update_last_triggered_step(stale_global_step)
        global_step = stale_global_step + 1
        if self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
            self._timer.update_last_triggered_step(global_step)
            self._save(global_step, self._output_file.format(global_step), run_values.run_metadata.step_stats)
            self._file_writer.add_run_metadata(run_values.run_metadata, "step_%d" % global_step)
        self._next_step = global_step + 1

    def _save(self, step, save_path, step_stats):
        from ..client.timeline import Timeline
        from ..platform import gfile
        logging.info("Saving timeline for %d into '%s'.", step, save_path)
        trace = Timeline(step_stats).generate_chrome_trace_format(show_dataflow=self._show_dataflow,
                                                                  show_memory=self._show_memory)
        gfile.atomic_write(save_path, trace.encode("utf-8"))
