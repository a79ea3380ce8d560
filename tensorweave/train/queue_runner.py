"""`tf.train.QueueRunner`, `add_queue_runner` and `start_queue_runners` (TF's
`training/queue_runner_impl.py`): threads that run enqueue ops in a Session."""

import threading
import weakref

from .. import tf_logging as logging
from ..framework import errors, ops
from ..framework.ops import GraphKeys

__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners"]


class QueueRunner:
    """Holds a list of enqueue operations for a queue, each to be run in a thread.

    `create_threads()` starts one thread per enqueue op; each runs its op in a loop until the queue
    is closed (an `OutOfRangeError` or `CancelledError`, the `queue_closed_exception_types`), and
    the last one to finish runs `close_op`. Other errors are reported to the coordinator (or
    logged and raised in the thread, and kept in `exceptions_raised`), and `cancel_op` is run
    when the coordinator requests a stop.

    Args:
      queue: A `Queue`.
      enqueue_ops: List of enqueue ops to run in threads later.
      close_op: Op to close the queue. Pending enqueue ops are preserved.
      cancel_op: Op to close the queue and cancel pending enqueue ops.
      queue_closed_exception_types: Optional tuple of Exception types that indicate that the queue
        has been closed when raised during an enqueue operation. Defaults to
        `(tf.errors.OutOfRangeError, tf.errors.CancelledError)`.
      queue_runner_def: A `QueueRunnerDef` to rebuild the runner from (its ops looked up by name in the
        default graph), instead of the other arguments.
      import_scope: The name scope prepended to the names of `queue_runner_def`.

    Raises:
      ValueError: If both `queue_runner_def` and `queue` are specified, or neither.
    """

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        if queue_runner_def:
            if queue or enqueue_ops:
                raise ValueError("queue_runner_def and queue are mutually exclusive.")
            self._init_from_proto(queue_runner_def, import_scope)
            return
        if not queue:
            raise ValueError("Queue is a required argument")
        if not enqueue_ops:
            raise ValueError("Enqueue ops is a required argument")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        self._close_op = close_op
        self._cancel_op = cancel_op
        if queue_closed_exception_types is not None:
            if not isinstance(queue_closed_exception_types, tuple) or not queue_closed_exception_types or \
                    not all(isinstance(t, type) and issubclass(t, errors.OpError)
                            for t in queue_closed_exception_types):
                raise TypeError("queue_closed_exception_types, when provided, must be a tuple of tf.error types, "
                                "but saw: %s" % (queue_closed_exception_types,))
            self._queue_closed_exception_types = queue_closed_exception_types
        else:
            self._queue_closed_exception_types = (errors.OutOfRangeError, errors.CancelledError)
        if self._close_op is None:
            self._close_op = self._queue.close()
        if self._cancel_op is None:
            self._cancel_op = self._queue.close(cancel_pending_enqueues=True)
        self._lock = threading.Lock()
        # A weak dictionary: a session that goes away takes its counts with it.
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    @property
    def queue(self):
        """The queue the enqueue ops fill."""
        return self._queue

    @property
    def enqueue_ops(self):
        """The enqueue ops, one thread each."""
        return self._enqueue_ops

    @property
    def close_op(self):
        """The op that closes the queue once every enqueue thread ended (pending enqueues kept)."""
        return self._close_op

    @property
    def cancel_op(self):
        """The op that closes the queue and cancels pending enqueues when the coordinator stops."""
        return self._cancel_op

    @property
    def queue_closed_exception_types(self):
        """The exception types that mean the queue was closed (a thread then ends quietly)."""
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self):
        """Exceptions raised but not handled by the `QueueRunner` threads (when no coordinator is given)."""
        return self._exceptions_raised

    @property
    def name(self):
        """The string name of the underlying Queue."""
        return self._queue.name

    def _run(self, sess, enqueue_op, coord=None):
        decremented = False
        try:
            # Make a cached callable from the `enqueue_op` to decrease the Python overhead.
            enqueue_callable = sess.make_callable(enqueue_op)
            while True:
                if coord and coord.should_stop():
                    break
                try:
                    enqueue_callable()
                except self._queue_closed_exception_types:
                    # This exception indicates that a queue was closed.
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0:
                            try:
                                sess.run(self._close_op)
                            except Exception as e:  # Intentionally ignore errors from close_op.
                                logging.vlog(1, "Ignored exception: %s", str(e))
                        return
        except Exception as e:
            # This catches all other exceptions.
            if coord:
                coord.request_stop(e)
            else:
                logging.error("Exception in QueueRunner: %s", str(e))
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            # Make sure we account for all terminations: normal or errors.
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess, cancel_op, coord):
        coord.wait_for_stop()
        try:
            sess.run(cancel_op)
        except Exception as e:
            logging.vlog(1, "Ignored exception: %s", str(e))

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """Create threads to run the enqueue ops for the given session.

        This method requires a session in which the graph was launched. It creates a list of threads,
        optionally starting them. There is one thread for each op passed in `enqueue_ops`, plus,
        when `coord` is given, one that runs `cancel_op` once the coordinator requests a stop.
        If threads are still running from a previous call with the same session, no new ones are
        created.

        Args:
          sess: A `Session`.
          coord: Optional `Coordinator` object for reporting errors and checking stop conditions.
          daemon: Boolean. If `True` make the threads daemon threads.
          start: Boolean. If `True` starts the threads. If `False` the caller must call `start()`.

        Returns:
          A list of threads.
        """
        with self._lock:
            try:
                if self._runs_per_session[sess] > 0:
                    # Already started: no new threads to return.
                    return []
            except KeyError:
                # We haven't seen this session yet.
                pass
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        ret_threads = [threading.Thread(target=self._run, args=(sess, op, coord)) for op in self._enqueue_ops]
        if coord:
            name = "QueueRunnerThread-{}".format(self.name)
            ret_threads.append(threading.Thread(target=self._close_on_stop, args=(sess, self._cancel_op, coord),
                                                name=name))
        for t in ret_threads:
            if coord:
                coord.register_thread(t)
            if daemon:
                t.daemon = True
            if start:
                t.start()
        return ret_threads

    def _init_from_proto(self, queue_runner_def, import_scope):
        from ..framework.ops import get_default_graph

        def element(name):
            return g.as_graph_element(import_scope.rstrip("/") + "/" + name if import_scope else name)

        g = get_default_graph()
        self._queue = element(queue_runner_def.queue_name)
        self._enqueue_ops = [element(n) for n in queue_runner_def.enqueue_op_name]
        self._close_op = element(queue_runner_def.close_op_name)
        self._cancel_op = element(queue_runner_def.cancel_op_name)
        types = [errors.exception_type_from_error_code(c) for c in queue_runner_def.queue_closed_exception_types]
        self._queue_closed_exception_types = tuple(types) or (errors.OutOfRangeError,)
        self._lock = threading.Lock()
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    def to_proto(self, export_scope=None):
        """This runner as a `QueueRunnerDef` (names relative to `export_scope`), or None when its queue is
        outside that scope."""
        from .queue_runner_proto import QueueRunnerDef

        def name(x):
            n = x.name
            if not export_scope:
                return n
            scope = export_scope.rstrip("/") + "/"
            return n[len(scope):] if n.startswith(scope) else None

        queue_name = name(self._queue_handle())
        if queue_name is None:
            return None
        return QueueRunnerDef(queue_name=queue_name, enqueue_op_name=[name(op) for op in self._enqueue_ops],
                              close_op_name=name(self._close_op), cancel_op_name=name(self._cancel_op),
                              queue_closed_exception_types=[errors.error_code_from_exception_type(t)
                                                            for t in self._queue_closed_exception_types])

    def _queue_handle(self):
        """The queue's handle op, from a Queue object or as rebuilt from a proto."""
        handle = getattr(self._queue, "queue_ref", self._queue)
        return getattr(handle, "op", handle)

    @staticmethod
    def from_proto(queue_runner_def, import_scope=None):
        """A `QueueRunner` rebuilt from `queue_runner_def` in the default graph."""
        return QueueRunner(queue_runner_def=queue_runner_def, import_scope=import_scope)


def add_queue_runner(qr, collection=GraphKeys.QUEUE_RUNNERS):
    """Adds a `QueueRunner` to a collection in the graph.

    When building a complex model that uses many queues it is often difficult to gather all the
    queue runners that need to be run. This convenience function allows you to add a queue runner
    to a well known collection in the graph. The companion method `start_queue_runners()` can be
    used to start threads for all the collected queue runners.

    Args:
      qr: A `QueueRunner`.
      collection: A `GraphKey` specifying the graph collection to add the queue runner to.
        Defaults to `GraphKeys.QUEUE_RUNNERS`.
    """
    ops.add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True, collection=GraphKeys.QUEUE_RUNNERS):
    """Starts all queue runners collected in the graph.

    This is a companion method to `add_queue_runner()`. It just starts threads for all queue
    runners collected in the graph. It returns the list of all threads.

    Args:
      sess: `Session` used to run the queue ops. Defaults to the default session.
      coord: Optional `Coordinator` for coordinating the started threads.
      daemon: Whether the threads should be marked as `daemons`, meaning they don't block program exit.
      start: Set to `False` to only create the threads, not start them.
      collection: A `GraphKey` specifying the graph collection to get the queue runners from.
        Defaults to `GraphKeys.QUEUE_RUNNERS`.

    Raises:
      ValueError: if `sess` is None and there isn't any default session.
      TypeError: if `sess` is not a `tf.Session` object.

    Returns:
      A list of threads.
    """
    if sess is None:
        sess = ops.get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. Use `with "
                             "sess.as_default()` or pass an explicit session to tf.start_queue_runners(sess=sess)")
    if sess.__class__.__name__ in ("MonitoredSession", "SingularMonitoredSession"):
        return []  # (as TF: a monitored session starts the queue runners itself)
    if not hasattr(sess, "run") or not hasattr(sess, "graph"):
        raise TypeError("sess must be a `tf.Session` object. Given class: {}".format(sess.__class__))
    with sess.graph.as_default():
        threads = []
        for qr in ops.get_collection(collection):
            threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
