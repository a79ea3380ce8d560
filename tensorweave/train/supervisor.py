"""`tf.train.Supervisor`: TF1's legacy training helper (training/supervisor.py). It initializes or
restores the model through a `SessionManager`, and on the chief runs the standard services: a
thread that checkpoints every `save_model_secs`, one that writes the summaries every
`save_summaries_secs`, and one that writes the steps per second of the global step."""

import contextlib
import os
import time

from .. import tf_logging as logging
from ..framework import dtypes, ops
from . import coordinator, training_util
from . import saver as saver_mod
from .session_manager import SessionManager

__all__ = ["Supervisor"]


def _session_log(status, checkpoint_path=None):
    from ..summary import SessionLog
    log = SessionLog(status=getattr(SessionLog, status))
    if checkpoint_path is not None:
        log.checkpoint_path = checkpoint_path
    return log


class Supervisor:
    """A training helper that checkpoints models and computes summaries (`tf.train.Supervisor`).

        sv = tf.train.Supervisor(logdir="/tmp/mydir")
        with sv.managed_session() as sess:
            while not sv.should_stop():
                sess.run(train_op)

    Arguments left at `Supervisor.USE_DEFAULT` are taken from the graph's collections or created
    (and added to the collection): `ready_op` (`report_uninitialized_variables()`), `init_op`
    (`global_variables_initializer()`), `local_init_op` (local variables and tables initializers),
    `saver` (a `Saver` when there are global variables), `summary_op` (`summary.merge_all()`),
    `global_step` (the tensor "global_step:0" if it is an integer). Pass None to go without one.
    The constructor finalizes the graph.

    Args:
      graph: The graph the model is in (default: the default graph).
      ready_op: A 1-D string tensor listing the uninitialized variables; None skips the check.
      ready_for_local_init_op: Like `ready_op`, checked before `local_init_op` runs.
      is_chief: Whether this is the chief task (it initializes the model and runs the services).
      init_op: Initializes the model when no checkpoint restores it.
      init_feed_dict: Feeds for `init_op`.
      local_init_op: Run in every new session.
      logdir: Directory of the checkpoints and event files (None: no services).
      summary_op: The summaries to compute every `save_summaries_secs`.
      saver: The `Saver` that checkpoints.
      global_step: The integer global step tensor.
      save_summaries_secs: Seconds between summaries (0 or None: none).
      save_model_secs: Seconds between checkpoints (0 or None: none).
      recovery_wait_secs: Seconds between checks while waiting for a model other tasks initialize.
      stop_grace_secs: Grace period for the threads to stop after `stop()`.
      checkpoint_basename: The name of the checkpoint files in `logdir`.
      session_manager: The `SessionManager` to use (default: one built from the ops above).
      summary_writer: The `FileWriter` of the summaries (default: one on `logdir`).
      init_fn: Called as `init_fn(sess)` after `init_op`.
      local_init_run_options: `RunOptions` for `local_init_op`.

    Raises:
      RuntimeError: When executing eagerly.
      ValueError: On a non-chief task, if a variable has no device set.
    """

    USE_DEFAULT = 0

    def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT, is_chief=True,
                 init_op=USE_DEFAULT, init_feed_dict=None, local_init_op=USE_DEFAULT, logdir=None,
                 summary_op=USE_DEFAULT, saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120, checkpoint_basename="model.ckpt",
                 session_manager=None, summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
        from ..eager.context import executing_eagerly
        if executing_eagerly():
            raise RuntimeError("Supervisors are incompatible with eager execution.")
        if graph is None:
            graph = ops.get_default_graph()
        with graph.as_default():
            self._init_ready_op(ready_op=ready_op, ready_for_local_init_op=ready_for_local_init_op)
            self._init_init_op(init_op=init_op, init_feed_dict=init_feed_dict)
            self._init_local_init_op(local_init_op=local_init_op)
            self._init_saver(saver=saver)
            self._init_summary_op(summary_op=summary_op)
            self._init_global_step(global_step=global_step)
        self._graph = graph
        self._is_chief = is_chief
        self._coord = coordinator.Coordinator()
        self._recovery_wait_secs = recovery_wait_secs
        self._stop_grace_secs = stop_grace_secs
        self._init_fn = init_fn
        self._local_init_run_options = local_init_run_options
        self._logdir = None
        self._save_summaries_secs = None
        self._save_model_secs = None
        self._save_path = None
        self._summary_writer = None
        self._graph_added_to_summary = False
        if self._is_chief:
            self._logdir = logdir
            self._save_summaries_secs = save_summaries_secs
            self._save_model_secs = save_model_secs
            if self._logdir:
                self._save_path = os.path.join(self._logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                if self._logdir:
                    from ..summary import FileWriter
                    self._summary_writer = FileWriter(self._logdir)
            else:
                self._summary_writer = summary_writer
        self._init_session_manager(session_manager=session_manager)
        self._verify_setup()
        graph.finalize()

    # ---- defaults -------------------------------------------------------------------------------
    def _init_session_manager(self, session_manager=None):
        if session_manager is None:
            self._session_manager = SessionManager(
                local_init_op=self._local_init_op, ready_op=self._ready_op,
                ready_for_local_init_op=self._ready_for_local_init_op, graph=self._graph,
                recovery_wait_secs=self._recovery_wait_secs, local_init_run_options=self._local_init_run_options)
        else:
            self._session_manager = session_manager

    @staticmethod
    def _get_first_op_from_collection(key):
        op_list = ops.get_collection(key)
        if len(op_list) > 1:
            logging.info("Found %d %s operations. Returning the first one.", len(op_list), key)
        return op_list[0] if op_list else None

    def _init_ready_op(self, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT):
        from .. import variables
        if ready_op is Supervisor.USE_DEFAULT:
            ready_op = self._get_first_op_from_collection(ops.GraphKeys.READY_OP)
            if ready_op is None:
                ready_op = variables.report_uninitialized_variables()
                ops.add_to_collection(ops.GraphKeys.READY_OP, ready_op)
        self._ready_op = ready_op
        if ready_for_local_init_op is Supervisor.USE_DEFAULT:
            ready_for_local_init_op = self._get_first_op_from_collection(ops.GraphKeys.READY_FOR_LOCAL_INIT_OP)
        self._ready_for_local_init_op = ready_for_local_init_op

    def _init_init_op(self, init_op=USE_DEFAULT, init_feed_dict=None):
        from .. import variables
        if init_op is Supervisor.USE_DEFAULT:
            init_op = self._get_first_op_from_collection(ops.GraphKeys.INIT_OP)
            if init_op is None:
                init_op = variables.global_variables_initializer()
                ops.add_to_collection(ops.GraphKeys.INIT_OP, init_op)
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict

    def _init_local_init_op(self, local_init_op=USE_DEFAULT):
        from .. import variables
        from ..ops.core_ops import group
        from ..ops.lookup_ops import tables_initializer
        if local_init_op is Supervisor.USE_DEFAULT:
            local_init_op = self._get_first_op_from_collection(ops.GraphKeys.LOCAL_INIT_OP)
            if local_init_op is None:
                local_init_op = group(variables.local_variables_initializer(), tables_initializer())
                ops.add_to_collection(ops.GraphKeys.LOCAL_INIT_OP, local_init_op)
        self._local_init_op = local_init_op

    def _init_saver(self, saver=USE_DEFAULT):
        from .. import variables
        if saver is Supervisor.USE_DEFAULT:
            saver = self._get_first_op_from_collection(ops.GraphKeys.SAVERS)
            if saver is None and variables.global_variables():
                saver = saver_mod.Saver()
                ops.add_to_collection(ops.GraphKeys.SAVERS, saver)
        self._saver = saver

    def _init_summary_op(self, summary_op=USE_DEFAULT):
        from ..summary import merge_all
        if summary_op is Supervisor.USE_DEFAULT:
            summary_op = self._get_first_op_from_collection(ops.GraphKeys.SUMMARY_OP)
            if summary_op is None:
                summary_op = merge_all()
                if summary_op is not None:
                    ops.add_to_collection(ops.GraphKeys.SUMMARY_OP, summary_op)
        self._summary_op = summary_op

    def _init_global_step(self, global_step=USE_DEFAULT):
        if global_step is Supervisor.USE_DEFAULT:
            global_step = self._get_first_op_from_collection(ops.GraphKeys.GLOBAL_STEP)
            if global_step is None:
                global_step = self._default_global_step_tensor()
                if global_step is not None:
                    ops.add_to_collection(ops.GraphKeys.GLOBAL_STEP, global_step)
        self._global_step = global_step

    @staticmethod
    def _default_global_step_tensor():
        try:
            gs = ops.get_default_graph().get_tensor_by_name("global_step:0")
        except (KeyError, ValueError):
            return None
        if gs.dtype.base_dtype in (dtypes.int32, dtypes.int64):
            return gs
        logging.warning("Found 'global_step' is not an int type: %s", gs.dtype)
        return None

    def _verify_setup(self):
        if not self._is_chief:
            for op in self._graph.get_operations():
                if op.type in ("Variable", "VariableV2") and not op.device:
                    raise ValueError("When using replicas, all Variables must have their device set: %s" % op)

    # ---- properties -----------------------------------------------------------------------------
    @property
    def is_chief(self):
        """Whether this is the chief task."""
        return self._is_chief

    @property
    def session_manager(self):
        """The `SessionManager`."""
        return self._session_manager

    @property
    def coord(self):
        """The `Coordinator` of the threads the supervisor starts."""
        return self._coord

    @property
    def init_op(self):
        return self._init_op

    @property
    def init_feed_dict(self):
        return self._init_feed_dict

    @property
    def ready_op(self):
        return self._ready_op

    @property
    def ready_for_local_init_op(self):
        return self._ready_for_local_init_op

    @property
    def summary_writer(self):
        """The `FileWriter` of the summaries (None when there is none)."""
        return self._summary_writer

    @property
    def summary_op(self):
        return self._summary_op

    @property
    def save_summaries_secs(self):
        return self._save_summaries_secs

    @property
    def global_step(self):
        return self._global_step

    @property
    def saver(self):
        return self._saver

    @property
    def save_model_secs(self):
        return self._save_model_secs

    @property
    def save_path(self):
        """The checkpoint prefix: `logdir/checkpoint_basename`."""
        return self._save_path

    # ---- sessions and services ---------------------------------------------------------------------
    def _write_graph(self):
        from ..graph_io import write_graph
        if self._logdir:
            write_graph(self._graph, self._logdir, "graph.pbtxt")
        if self._summary_writer and not self._graph_added_to_summary:
            self._summary_writer.add_graph(self._graph)
            self._summary_writer.add_meta_graph(saver_mod.export_meta_graph(
                graph=self._graph, saver_def=self._saver.saver_def if self._saver else None))
            self._graph_added_to_summary = True

    def start_standard_services(self, sess):
        """Starts the checkpoint, summary and step-counter threads (those the arguments ask for).

        Args:
          sess: A Session.

        Returns:
          The list of threads started (None when there is no `logdir`).

        Raises:
          RuntimeError: If not the chief.
        """
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. "
                               "Because only chief supervisors can write events.")
        if not self._logdir:
            logging.warning("Standard services need a 'logdir' passed to the SessionManager")
            return None
        if self._global_step is not None and self._summary_writer:
            current_step = training_util.global_step(sess, self._global_step)
            self._summary_writer.add_session_log(_session_log("START"), current_step)
        threads = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                threads.append(SVSummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(SVStepCounterThread(self, sess))
        if self.saver and self._save_model_secs:
            threads.append(SVTimerCheckpointThread(self, sess))
        for t in threads:
            t.start()
        return threads

    def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False, max_wait_secs=7200,
                                    start_standard_services=True):
        """Creates a Session: the chief restores the latest checkpoint of `logdir` or initializes the
        model (then writes the graph and starts the services); other tasks wait for a ready model.
        Queue runners are started too when `start_standard_services`.

        Args:
          master: The TensorFlow master ("" for in-process).
          config: `ConfigProto` of the Session.
          wait_for_checkpoint: Whether the chief waits for a checkpoint to appear.
          max_wait_secs: How long to wait.
          start_standard_services: Whether to start the standard services and queue runners.

        Returns:
          A Session.
        """
        self._coord.clear_stop()
        if self._summary_writer:
            self._summary_writer.reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self.init_op, saver=self.saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config,
                init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                logging.info("Starting standard services.")
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config, max_wait_secs=max_wait_secs)
        if start_standard_services:
            logging.info("Starting queue runners.")
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess, queue_runners=None):
        """Starts the threads of `queue_runners` (default: the graph's QUEUE_RUNNERS collection),
        registered with the supervisor's coordinator.

        Args:
          sess: A Session.
          queue_runners: A list of `QueueRunner`s.

        Returns:
          The list of threads started.
        """
        if queue_runners is None:
            queue_runners = self._graph.get_collection(ops.GraphKeys.QUEUE_RUNNERS)
        threads = []
        for qr in queue_runners:
            threads.extend(qr.create_threads(sess, coord=self._coord, daemon=True, start=True))
        return threads

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """Starts a `LooperThread` calling `target(*args, **kwargs)` every `timer_interval_secs`
        until the supervisor's coordinator stops.

        Args:
          timer_interval_secs: Seconds between calls.
          target: A callable.
          args: Positional arguments of `target`.
          kwargs: Keyword arguments of `target`.

        Returns:
          The started thread.
        """
        looper = coordinator.LooperThread(self._coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Requests a stop and joins the threads (default: every thread the coordinator knows),
        re-raising an exception one of them reported; then closes the summary writer.

        Args:
          threads: The threads to join besides the registered ones.
          close_summary_writer: Whether to write a STOP session log and close the summary writer.
          ignore_live_threads: If True, threads still running after `stop_grace_secs` only log a warning.

        Raises:
          RuntimeError: If threads are still running after the grace period (and not ignored).
        """
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer:
                self._summary_writer.add_session_log(_session_log("STOP"))
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex=None):
        """Requests that the threads stop (`ex`: an exception to re-raise from `stop()`)."""
        self._coord.request_stop(ex=ex)

    def should_stop(self):
        """Whether a stop was requested."""
        return self._coord.should_stop()

    def stop_on_exception(self):
        """A context manager that requests a stop when its body raises."""
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        """Blocks until a stop is requested."""
        self._coord.wait_for_stop()

    def summary_computed(self, sess, summary, global_step=None):
        """Writes `summary` (a serialized or parsed `Summary`) at `global_step` (default: the global
        step's value in `sess`).

        Raises:
          RuntimeError: If there is no summary writer.
        """
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self.global_step is not None:
            global_step = training_util.global_step(sess, self.global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True, close_summary_writer=True):
        """A context manager giving a Session from `prepare_or_wait_for_session()`; on exit it stops
        the services and threads (re-raising what made them stop, except `OutOfRangeError`) and
        closes the Session.

        Args:
          master: The TensorFlow master.
          config: `ConfigProto` of the Session.
          start_standard_services: Whether to start the standard services and queue runners.
          close_summary_writer: Whether to close the summary writer on exit.

        Yields:
          A Session.
        """
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(master=master, config=config,
                                                    start_standard_services=start_standard_services)
            yield sess
        except Exception as e:  # noqa: BLE001 - reported to the coordinator, re-raised by stop()
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    try:
                        sess.close()
                    except Exception:  # noqa: BLE001 - as TF: a failed close is ignored
                        pass


class SVSummaryThread(coordinator.LooperThread):
    """Computes `summary_op` every `save_summaries_secs` and writes it at the global step."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv = sv
        self._sess = sess

    def run_loop(self):
        if self._sv.global_step is not None:
            summary_strs, global_step = self._sess.run([self._sv.summary_op, self._sv.global_step])
        else:
            summary_strs = self._sess.run(self._sv.summary_op)
            global_step = None
        if self._sv.summary_writer:
            logging.info("Recording summary at step %s.", global_step)
            self._sv.summary_writer.add_summary(summary_strs, global_step)


class SVStepCounterThread(coordinator.LooperThread):
    """Writes the global step's steps per second ("<global step op name>/sec") every `save_summaries_secs`."""

    def __init__(self, sv, sess, step_counter=None):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv = sv
        self._sess = sess
        self._last_time = 0.0
        self._last_step = 0
        self._step_counter = sv.global_step if step_counter is None else step_counter
        self._summary_tag = "%s/sec" % self._step_counter.op.name

    def start_loop(self):
        self._last_time = time.time()
        self._last_step = training_util.global_step(self._sess, self._step_counter)

    def run_loop(self):
        from ..summary import Summary
        current_step = training_util.global_step(self._sess, self._step_counter)
        added_steps = current_step - self._last_step
        self._last_step = current_step
        current_time = time.time()
        elapsed_time = current_time - self._last_time
        self._last_time = current_time
        steps_per_sec = added_steps / elapsed_time if elapsed_time > 0.0 else float("inf")
        summary = Summary(value=[Summary.Value(tag=self._summary_tag, simple_value=steps_per_sec)])
        if self._sv.summary_writer:
            self._sv.summary_writer.add_summary(summary, current_step)
        logging.info("%s: %g", self._summary_tag, steps_per_sec)


class SVTimerCheckpointThread(coordinator.LooperThread):
    """Saves a checkpoint to `save_path` every `save_model_secs`."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_model_secs)
        self._sv = sv
        self._sess = sess

    def run_loop(self):
        logging.info("Saving checkpoint to path %s", self._sv.save_path)
        self._sv.saver.save(self._sess, self._sv.save_path, global_step=self._sv.global_step)
        if self._sv.summary_writer and self._sv.global_step is not None:
            current_step = training_util.global_step(self._sess, self._sv.global_step)
            self._sv.summary_writer.add_session_log(_session_log("CHECKPOINT", self._sv.save_path), current_step)
