"""`tf.train.MonitoredSession` and friends: sessions that initialize or restore, run hooks, and stop cleanly."""

import os

from .. import tf_logging as logging
from ..framework import errors, ops
from . import basic_session_run_hooks, coordinator, queue_runner
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunValues

__all__ = ["ChiefSessionCreator", "MonitoredSession", "MonitoredTrainingSession", "Scaffold", "SessionCreator",
           "SingularMonitoredSession", "WorkerSessionCreator"]

USE_DEFAULT = object()


class Scaffold:
    """Structure to create or gather pieces commonly needed to train a model.

    When you build a model for training you usually need ops to initialize variables, a `Saver` to
    checkpoint them, an op to collect summaries for the visualizer, and so on. Pieces not given are
    created (or taken from the graph collections) by `finalize()`, which also finalizes the graph.

    Args:
      init_op: Optional op for initializing variables.
      init_feed_dict: Optional session feed dictionary to use when running the init_op.
      init_fn: Optional function to use to initialize the model after running the init_op. Will be
        called as `init_fn(scaffold, session)`.
      ready_op: Optional op to verify that the variables are initialized. Must return an empty 1D
        string tensor when the variables are initialized, or a non-empty 1D string tensor listing
        the names of the non-initialized variables.
      ready_for_local_init_op: Optional op to verify that the global variables are initialized and
        `local_init_op` can be run.
      local_init_op: Optional op to initialize local variables.
      summary_op: Optional op to gather all summaries. Must return a scalar string tensor containing
        a serialized `Summary` proto.
      saver: Optional `tf.train.Saver` object to use to save and restore variables.
      copy_from_scaffold: Optional scaffold object to copy fields from. Its fields will be
        overwritten by the provided fields in this function.
    """

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None, ready_for_local_init_op=None,
                 local_init_op=None, summary_op=None, saver=None, copy_from_scaffold=None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            init_op = init_op if init_op is not None else copy_from_scaffold.init_op
            init_feed_dict = init_feed_dict if init_feed_dict is not None else copy_from_scaffold.init_feed_dict
            init_fn = init_fn if init_fn is not None else copy_from_scaffold._user_init_fn
            ready_op = ready_op if ready_op is not None else copy_from_scaffold.ready_op
            ready_for_local_init_op = (ready_for_local_init_op if ready_for_local_init_op is not None
                                       else copy_from_scaffold.ready_for_local_init_op)
            local_init_op = local_init_op if local_init_op is not None else copy_from_scaffold.local_init_op
            summary_op = summary_op if summary_op is not None else copy_from_scaffold.summary_op
            saver = saver if saver is not None else copy_from_scaffold.saver
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._local_init_op = local_init_op
        self._summary_op = summary_op
        self._saver = saver

    def finalize(self):
        """Creates the missing operations and finalizes the graph (once)."""
        from .. import variables
        from ..ops import resources
        from ..ops.array_ops import concat
        from ..ops.core_ops import group
        from ..ops.lookup_ops import tables_initializer
        from ..summary import merge_all
        from .saver import _get_saver_or_default
        shared, local = resources.shared_resources(), resources.local_resources()
        # TF's defaults also (re)create the registered resources (a tensor_forest's trees) and report
        # the uninitialized ones; without any, the ops stay the plain variable ones.
        if self._init_op is None:
            self._init_op = Scaffold.get_or_default(
                "init_op", ops.GraphKeys.INIT_OP,
                lambda: group(variables.global_variables_initializer(), resources.initialize_resources(shared))
                if shared else variables.global_variables_initializer())
        if self._ready_op is None:
            self._ready_op = Scaffold.get_or_default(
                "ready_op", ops.GraphKeys.READY_OP,
                lambda: concat([variables.report_uninitialized_variables(),
                                resources.report_uninitialized_resources()], 0)
                if shared or local else variables.report_uninitialized_variables())
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = Scaffold.get_or_default(
                "ready_for_local_init_op", ops.GraphKeys.READY_FOR_LOCAL_INIT_OP,
                lambda: variables.report_uninitialized_variables(variables.global_variables()))
        if self._local_init_op is None:
            self._local_init_op = Scaffold.get_or_default(
                "local_init_op", ops.GraphKeys.LOCAL_INIT_OP,
                lambda: group(variables.local_variables_initializer(), tables_initializer(),
                              *([resources.initialize_resources(local)] if local else [])))
        if self._summary_op is None:
            self._summary_op = Scaffold.get_or_default("summary_op", ops.GraphKeys.SUMMARY_OP, merge_all)
        if self._saver is None:
            self._saver = _get_saver_or_default()
        ops.get_default_graph().finalize()
        logging.info("Graph was finalized.")
        return self

    @property
    def init_fn(self):
        return self._init_fn

    @property
    def init_op(self):
        return self._init_op

    @property
    def ready_op(self):
        return self._ready_op

    @property
    def ready_for_local_init_op(self):
        return self._ready_for_local_init_op

    @property
    def local_init_op(self):
        return self._local_init_op

    @property
    def summary_op(self):
        return self._summary_op

    @property
    def saver(self):
        return self._saver

    @property
    def init_feed_dict(self):
        return self._init_feed_dict

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        """Get from cache or create a default operation (stored in the collection `collection_key`)."""
        elements = ops.get_collection(collection_key)
        if elements:
            if len(elements) > 1:
                raise RuntimeError("More than one item in the collection \"%s\". Please indicate which one to use "
                                   "by passing it to the tf.Scaffold constructor as:  tf.Scaffold(%s=item to use)"
                                   % (collection_key, arg_name))
            return elements[0]
        op = default_constructor()
        if op is not None:
            ops.add_to_collection(collection_key, op)
        return op


class SessionCreator:
    """A factory for tf.Session."""

    def create_session(self):
        raise NotImplementedError("create_session is not implemented for {}.".format(self))


def _not_ready(sess, ready_op):
    """The names `ready_op` reports as uninitialized (empty list when ready)."""
    if ready_op is None:
        return []
    names = sess.run(ready_op)
    return [n.decode() if isinstance(n, bytes) else str(n) for n in getattr(names, "flat", names)]


class ChiefSessionCreator(SessionCreator):
    """Creates a tf.Session for a chief: restores the latest checkpoint or initializes the variables.

    Args:
      scaffold: A `Scaffold` used for gathering or building supportive ops. If not specified a
        default one is created. It's used to finalize the graph.
      master: `String` representation of the TensorFlow master to use.
      config: `ConfigProto` proto used to configure the session.
      checkpoint_dir: A string. Optional path to a directory where to restore variables.
      checkpoint_filename_with_path: Full file name path to the checkpoint file.

    Raises:
      ValueError: If both `checkpoint_dir` and `checkpoint_filename_with_path` are given.
    """

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and checkpoint_filename_with_path.")
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path
        self._scaffold = scaffold or Scaffold()
        self._master = master
        self._config = config

    def create_session(self):
        from ..client.session import Session
        from .checkpoint_management import latest_checkpoint
        self._scaffold.finalize()
        sess = Session(self._master, graph=ops.get_default_graph(), config=self._config)
        ckpt = self._checkpoint_filename_with_path
        if ckpt is None and self._checkpoint_dir and os.path.isdir(self._checkpoint_dir):
            ckpt = latest_checkpoint(self._checkpoint_dir)
        if ckpt is not None:
            self._scaffold.saver.restore(sess, ckpt)
        else:
            if self._scaffold.init_op is not None:
                sess.run(self._scaffold.init_op, feed_dict=self._scaffold.init_feed_dict)
            if self._scaffold.init_fn is not None:
                self._scaffold.init_fn(sess)
        not_ready = _not_ready(sess, self._scaffold.ready_for_local_init_op)
        if not_ready:
            raise RuntimeError("Init operations did not make model ready for local_init. Init op: %s, init fn: %s, "
                               "error: Variables not initialized: %s"
                               % (self._scaffold.init_op, self._scaffold.init_fn, ", ".join(not_ready)))
        if self._scaffold.local_init_op is not None:
            sess.run(self._scaffold.local_init_op)
        not_ready = _not_ready(sess, self._scaffold.ready_op)
        if not_ready:
            raise RuntimeError("Init operations did not make model ready. Init op: %s, init fn: %s, local_init_op: "
                               "%s, error: Variables not initialized: %s"
                               % (self._scaffold.init_op, self._scaffold.init_fn, self._scaffold.local_init_op,
                                  ", ".join(not_ready)))
        return sess


class WorkerSessionCreator(ChiefSessionCreator):
    """Creates a tf.Session for a worker (with one process, the worker initializes like the chief)."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        super().__init__(scaffold=scaffold, master=master, config=config)
        self._max_wait_secs = max_wait_secs


def _copy_run_options(options):
    from ..client.config import RunOptions
    copy = RunOptions()
    for k in RunOptions._fields:
        setattr(copy, k, getattr(options, k))
    return copy


def _merge_run_options(options, incoming):
    """Merges a hook's RunOptions into `options` as TF's MonitoredSession does (the larger trace level and
    timeout; either flag)."""
    options.trace_level = max(options.trace_level, incoming.trace_level)
    options.timeout_in_ms = max(options.timeout_in_ms, incoming.timeout_in_ms)
    options.output_partition_graphs = options.output_partition_graphs or incoming.output_partition_graphs
    options.report_tensor_allocations_upon_oom = (options.report_tensor_allocations_upon_oom
                                                  or incoming.report_tensor_allocations_upon_oom)


class _MonitoredSession:
    """Session wrapper running hooks around `run` (the common part of the monitored sessions)."""

    def __init__(self, session_creator, hooks, should_recover=False, stop_grace_period_secs=120):
        self._hooks = list(hooks or [])
        for h in self._hooks:
            h.begin()
        self._session_creator = session_creator
        self._sess = None
        self._should_stop = False
        self._closed = False
        self._sess = session_creator.create_session()
        # As TF's _CoordinatedSessionCreator: the graph's queue runners run under a coordinator.
        self._stop_grace_period_secs = stop_grace_period_secs
        self._coord = coordinator.Coordinator(clean_stop_exception_types=[])
        if self._sess.graph.get_collection(ops.GraphKeys.QUEUE_RUNNERS):
            queue_runner.start_queue_runners(sess=self._sess, coord=self._coord)
        for h in self._hooks:
            h.after_create_session(self._sess, self._coord)

    @property
    def graph(self):
        """The graph that was launched in this session."""
        return None if self._sess is None else self._sess.graph

    def _tf_sess(self):
        return self._sess

    def should_stop(self):
        """True once a hook requested a stop, the input was exhausted, or the session was closed."""
        return self._should_stop or self._closed or self._coord.should_stop()

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Run ops in the monitored session, calling the hooks before and after.

        Args:
          fetches: Same as `tf.Session.run()`.
          feed_dict: Same as `tf.Session.run()`.
          options: Same as `tf.Session.run()`.
          run_metadata: Same as `tf.Session.run()`.

        Returns:
          Same as `tf.Session.run()`.

        Raises:
          RuntimeError: If called after a stop was requested.
        """
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        from ..client.config import RunMetadata, RunOptions
        run_context = SessionRunContext(original_args=SessionRunArgs(fetches, feed_dict), session=self._sess)
        actual_fetches = {"caller": fetches}
        # As TF: the hooks' RunOptions merge into the caller's, and every run records RunMetadata for them.
        options = _copy_run_options(options) if options is not None else RunOptions()
        feed_dict = self._call_hook_before_run(run_context, actual_fetches, feed_dict, options)
        run_metadata = run_metadata if run_metadata is not None else RunMetadata()
        try:
            outputs = self._sess.run(actual_fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)
        except errors.OutOfRangeError:
            self._should_stop = True
            raise
        for hook in self._hooks:
            hook.after_run(run_context, SessionRunValues(results=outputs[hook] if hook in outputs else None,
                                                         options=options, run_metadata=run_metadata))
        self._should_stop = self._should_stop or run_context.stop_requested
        return outputs["caller"]

    def _call_hook_before_run(self, run_context, fetch_dict, user_feed_dict, options):
        hook_feeds = {}
        for hook in self._hooks:
            request = hook.before_run(run_context)
            if request is not None:
                if request.fetches is not None:
                    fetch_dict[hook] = request.fetches
                if request.options is not None:
                    _merge_run_options(options, request.options)
                if request.feed_dict:
                    overlap = set(hook_feeds) & set(request.feed_dict)
                    if overlap:
                        raise RuntimeError("Same tensor is fed by two hooks.Conflict(s): %s"
                                           % sorted(map(str, overlap)))
                    hook_feeds.update(request.feed_dict)
        if not hook_feeds:
            return user_feed_dict
        if not user_feed_dict:
            return hook_feeds
        overlap = set(hook_feeds) & set(user_feed_dict)
        if overlap:
            raise RuntimeError("Same tensor is fed by a SessionRunHook and user.Conflict(s): %s"
                               % sorted(map(str, overlap)))
        feed_dict = dict(user_feed_dict)
        feed_dict.update(hook_feeds)
        return feed_dict

    def close(self):
        """Calls the hooks' `end` and closes the session."""
        self._close_internal(None)

    def _close_internal(self, exception_type=None):
        if self._closed:
            return
        try:
            if not exception_type:
                for h in self._hooks:
                    h.end(self._sess)
        finally:
            self._closed = True
            self._coord.request_stop()
            try:  # stops the queue runners (TF's _CoordinatedSession.close), re-raising their errors
                self._coord.join(stop_grace_period_secs=self._stop_grace_period_secs, ignore_live_threads=True)
            finally:
                self._sess.close()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type in (errors.OutOfRangeError, StopIteration):
            exception_type = None
        self._close_internal(exception_type)
        return exception_type is None


class MonitoredSession(_MonitoredSession):
    """Session-like object that handles initialization, recovery and hooks.

    Example usage:

    ```python
    saver_hook = CheckpointSaverHook(...)
    summary_hook = SummarySaverHook(...)
    with MonitoredSession(session_creator=ChiefSessionCreator(...),
                          hooks=[saver_hook, summary_hook]) as sess:
      while not sess.should_stop():
        sess.run(train_op)
    ```

    Initialization: the hooks' `begin`, then `scaffold.finalize()`, then a session is created that
    restores the latest checkpoint of `checkpoint_dir` or runs the init op, then `after_create_session`.
    An `OutOfRangeError` or `StopIteration` raised in the `with` block stops the session quietly.

    Args:
      session_creator: A factory object to create session. Typically a `ChiefSessionCreator` which
        is the default one.
      hooks: An iterable of `SessionRunHook' objects.
      stop_grace_period_secs: Accepted for compatibility (no threads are joined).
    """

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator or ChiefSessionCreator(), hooks, should_recover=True,
                         stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """Session-like object for single-process training, with `raw_session()` access.

    Args:
      hooks: An iterable of `SessionRunHook' objects.
      scaffold: A `Scaffold` used for gathering or building supportive ops.
      master: `String` representation of the TensorFlow master to use.
      config: `ConfigProto` proto used to configure the session.
      checkpoint_dir: A string. Optional path to a directory where to restore variables.
      stop_grace_period_secs: Accepted for compatibility.
      checkpoint_filename_with_path: A string. Optional path to a checkpoint file from which to
        restore variables.
    """

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        session_creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config,
                                              checkpoint_dir=checkpoint_dir,
                                              checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(session_creator, hooks, should_recover=False,
                         stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self):
        """Returns underlying `TensorFlow.Session` object."""
        return self._tf_sess()


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None,  # noqa: N802 (TF's name)
                             hooks=None, chief_only_hooks=None, save_checkpoint_secs=USE_DEFAULT,
                             save_summaries_steps=USE_DEFAULT, save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100, max_wait_secs=7200,
                             save_checkpoint_steps=USE_DEFAULT, summary_dir=None):
    """Creates a `MonitoredSession` for training.

    For a chief, this utility sets proper session initializer/restorer. It also creates hooks
    related to checkpoint and summary saving. For workers, this utility sets proper session creator
    which waits for the chief to initialize/restore.

    Args:
      master: `String` the TensorFlow master to use.
      is_chief: If `True`, it will take care of initialization and recovery the underlying
        TensorFlow session. If `False`, it will wait on a chief to initialize or recover the
        TensorFlow session.
      checkpoint_dir: A string. Optional path to a directory where to restore variables.
      scaffold: A `Scaffold` used for gathering or building supportive ops. If not specified, a
        default one is created. It's used to finalize the graph.
      hooks: Optional list of `SessionRunHook` objects.
      chief_only_hooks: list of `SessionRunHook` objects. Activate these hooks if `is_chief==True`,
        ignore otherwise.
      save_checkpoint_secs: The frequency, in seconds, that a checkpoint is saved using a default
        checkpoint saver. If both `save_checkpoint_steps` and `save_checkpoint_secs` are set to
        `None`, then the default checkpoint saver isn't used. If both are provided, then only
        `save_checkpoint_secs` is used. Default 600.
      save_summaries_steps: The frequency, in number of global steps, that the summaries are
        written to disk using a default summary saver. If both `save_summaries_steps` and
        `save_summaries_secs` are set to `None`, then the default summary saver isn't used. Default
        100.
      save_summaries_secs: The frequency, in secs, that the summaries are written to disk using a
        default summary saver. Default not enabled.
      config: an instance of `tf.ConfigProto` proto used to configure the session.
      stop_grace_period_secs: Accepted for compatibility.
      log_step_count_steps: The frequency, in number of global steps, that the global step/sec is
        logged.
      max_wait_secs: Accepted for compatibility.
      save_checkpoint_steps: The frequency, in number of global steps, that a checkpoint is saved
        using a default checkpoint saver.
      summary_dir: A string. Optional path to a directory where to save summaries. If None,
        checkpoint_dir is used instead.

    Returns:
      A `MonitoredSession` object.
    """
    if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs is USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps is USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_steps = None

    scaffold = scaffold or Scaffold()
    if not is_chief:
        return MonitoredSession(session_creator=WorkerSessionCreator(scaffold=scaffold, master=master, config=config),
                                hooks=hooks or [], stop_grace_period_secs=stop_grace_period_secs)
    all_hooks = list(chief_only_hooks or [])
    session_creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir, master=master,
                                          config=config)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(basic_session_run_hooks.StepCounterHook(output_dir=summary_dir,
                                                                     every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(basic_session_run_hooks.SummarySaverHook(
                scaffold=scaffold, save_steps=save_summaries_steps, save_secs=save_summaries_secs,
                output_dir=summary_dir))
    if checkpoint_dir:
        if (save_checkpoint_secs and save_checkpoint_secs > 0) or (save_checkpoint_steps and save_checkpoint_steps > 0):
            all_hooks.append(basic_session_run_hooks.CheckpointSaverHook(
                checkpoint_dir, save_steps=save_checkpoint_steps, save_secs=save_checkpoint_secs, scaffold=scaffold))
    all_hooks.extend(hooks or [])
    return MonitoredSession(session_creator=session_creator, hooks=all_hooks,
                            stop_grace_period_secs=stop_grace_period_secs)
