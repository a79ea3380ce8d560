"""`tf.summary.FileWriter` and `tf.summary.FileWriterCache`: TensorBoard event files.

An event file is `<logdir>/events.out.tfevents.<seconds>.<hostname>[suffix]`, a stream of TFRecord-framed
`Event` protocol buffers that starts with a `file_version: "brain.Event:2"` event. Events go through a
bounded queue to a background thread that appends them to the file; the file is flushed every
`flush_secs`, on `flush()`, and on `close()`. Writers still open when the interpreter exits are closed
then (an `atexit` hook), so that nothing queued is lost on a normal exit. A writer garbage-collected
without `close()` has its thread write what is queued, close the file and end (the thread refers
to the file and the queue only, never to the writer).
"""

import atexit
import os
import queue
import socket
import threading
import time
import warnings
import weakref

from ..framework import errors, ops
from ..ops.summary_ops import proto_module, require_extra
from ..platform import gfile
from .graph_def import graph_to_graph_def

__all__ = ["EventFileWriter", "FileWriter", "FileWriterCache"]

_FEATURE = "tf.summary.FileWriter"
_FILE_VERSION = "brain.Event:2"


class _EventsFile:
    """TF's EventsWriter: the file is created on first use and starts with the file_version event; a file
    deleted under a running writer is started anew. An existing name (same second and host) is never
    truncated: a counter is appended instead."""

    def __init__(self, prefix, suffix):
        self._prefix = prefix
        self._suffix = suffix or ""
        self._file = None
        self.path = None

    def init_if_needed(self):
        if self._file is not None:
            if gfile.exists(self.path):
                return
            self._file.close()
            self._file = None
        event_pb2 = proto_module("event_pb2", _FEATURE)
        now = int(time.time())
        base = "%s.out.tfevents.%010d.%s%s" % (self._prefix, now, socket.gethostname(), self._suffix)
        path, n = base, 0
        while True:
            try:
                f = gfile.open_raw(path, "xb", os_errors=True)
                break
            except (FileExistsError, errors.AlreadyExistsError):
                n += 1
                path = "%s.%d" % (base, n)
        self._file, self.path = f, path
        self._append(event_pb2.Event(wall_time=now, file_version=_FILE_VERSION))
        self._file.flush()

    def _append(self, event):
        from ..io.tf_record import encode_record
        self._file.write(encode_record(event.SerializeToString()))

    def write_event(self, event):
        self.init_if_needed()
        self._append(event)

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.flush()
            if gfile.is_local(self.path):
                os.fsync(self._file.fileno())
            self._file.close()
            self._file = None


# Writer threads still running, closed by the atexit hook.
_live_workers = set()
_live_lock = threading.Lock()


class _Worker(threading.Thread):
    """Takes events from the queue and appends them to the file; flushes every `flush_secs`."""

    _FLUSH = object()
    _CLOSE = object()

    def __init__(self, events_file, max_queue, flush_secs):
        super().__init__(name="EventFileWriter", daemon=True)
        self._file = events_file
        self._queue = queue.Queue(max(int(max_queue), 0))
        self._flush_secs = float(flush_secs)
        self._abandoned = False
        self.failure = None

    def abandon(self):
        """Asks the thread to write what is queued, close the file and end, without waiting (the
        writer was garbage-collected: this may run on any thread, this one included)."""
        self._abandoned = True
        try:
            self._queue.put_nowait(self._CLOSE)
        except queue.Full:  # the thread is draining the queue: it sees `_abandoned` when it is empty
            pass

    def run(self):
        next_flush = time.time() + self._flush_secs
        try:
            while True:
                if self._abandoned and self._queue.empty():
                    self._file.close()
                    return
                try:
                    item = self._queue.get(timeout=max(0.0, next_flush - time.time()))
                except queue.Empty:
                    self._file.flush()
                    next_flush = time.time() + self._flush_secs
                    continue
                if item is self._CLOSE:
                    self._file.close()
                    return
                if isinstance(item, tuple) and item[0] is self._FLUSH:
                    self._file.flush()
                    item[1].set()
                    continue
                self._file.write_event(item)
                if time.time() > next_flush:
                    self._file.flush()
                    next_flush = time.time() + self._flush_secs
        except Exception as e:  # reported by the next add_event/flush/close
            self.failure = e
        finally:
            with _live_lock:
                _live_workers.discard(self)

    def put(self, item):
        """Queues `item`, waiting while the queue is full; raises what stopped the thread, if it died."""
        while True:
            if not self.is_alive():
                raise self.failure or RuntimeError("The event writer thread has stopped.")
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def flush(self):
        done = threading.Event()
        self.put((self._FLUSH, done))
        while not done.wait(0.1):
            if not self.is_alive():
                break
        if self.failure is not None:
            raise self.failure

    def close(self):
        if self.is_alive():
            self.flush()
            self.put(self._CLOSE)
        self.join()
        if self.failure is not None:
            raise self.failure


@atexit.register
def _close_live_writers():
    with _live_lock:
        workers = list(_live_workers)
    for w in workers:
        try:
            w.close()
        except Exception:  # nothing left to report to at exit
            pass


class EventFileWriter:
    """Writes `Event` protocol buffers to an event file in `logdir`, from a background thread.

    Args:
      logdir: The directory where the event file is written (created if missing).
      max_queue: How many events may wait in the queue before `add_event` blocks.
      flush_secs: How often, in seconds, the file is flushed.
      filename_suffix: Appended to the file name; when given the file is created at once (as TF).

    Raises:
      ImportError: If the `tensorboard` extra is not installed.
    """

    def __init__(self, logdir, max_queue=10, flush_secs=120, filename_suffix=None):
        proto_module("event_pb2", _FEATURE)
        require_extra("crc32c", _FEATURE)
        self._logdir = os.fspath(logdir)
        if isinstance(self._logdir, bytes):
            self._logdir = self._logdir.decode("utf-8")
        gfile.makedirs(self._logdir)
        self._max_queue = max_queue
        self._flush_secs = flush_secs
        self._file = _EventsFile(gfile.join(self._logdir, "events"), filename_suffix)
        if filename_suffix:
            self._file.init_if_needed()
        self._closed = True
        self._initialize()

    def _initialize(self):
        self._worker = _Worker(self._file, self._max_queue, self._flush_secs)
        with _live_lock:
            _live_workers.add(self._worker)
        self._worker.start()
        weakref.finalize(self, self._worker.abandon)  # a writer dropped without close()
        self._closed = False

    def get_logdir(self):
        """Returns the directory where event file will be written."""
        return self._logdir

    def get_filename(self):
        """The path of the current event file, or None before the first event."""
        return self._file.path

    def reopen(self):
        """Reopens the EventFileWriter after `close()`; later events go to a new event file.

        Does nothing if the EventFileWriter was not closed.
        """
        if self._closed:
            self._initialize()

    def add_event(self, event):
        """Adds an event to the event file (nothing happens once closed).

        Args:
          event: An `Event` protocol buffer.
        """
        if not self._closed:
            self._put(event)

    def _put(self, item):
        try:
            self._worker.put(item)
        except Exception:
            self._closed = True
            raise

    def flush(self):
        """Writes all pending events to the event file (to the operating system's buffers)."""
        if not self._closed:
            try:
                self._worker.flush()
            except Exception:
                self._closed = True
                raise

    def close(self):
        """Flushes the event file to disk and closes the file. Call this method when you do not need
        the summary writer anymore."""
        if not self._closed:
            self._closed = True
            self._worker.close()


def _event(**fields):
    return proto_module("event_pb2", _FEATURE).Event(**fields)


class FileWriter:
    """Writes `Summary` protocol buffers to event files.

    The `FileWriter` class provides a mechanism to create an event file in a given directory and add
    summaries and events to it. The class updates the file contents asynchronously. This allows a
    training program to call methods to add data to the file directly from the training loop, without
    slowing down training.

    Args:
      logdir: A string. Directory where event file will be written.
      graph: A `Graph` object, such as `sess.graph`; written at once with its meta graph.
      max_queue: Integer. Size of the queue for pending events and summaries.
      flush_secs: Number. How often, in seconds, to flush the pending events and summaries to disk.
      graph_def: DEPRECATED: Use the `graph` argument instead.
      filename_suffix: A string. Every event file's name is suffixed with `filename_suffix`.
      session: Accepted for compatibility; the events are written directly by this writer.

    Raises:
      RuntimeError: If called with eager execution enabled.
      ImportError: If the `tensorboard` extra is not installed.
    """

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None, filename_suffix=None,
                 session=None):
        from ..eager import context
        if context.executing_eagerly():
            raise RuntimeError("v1.summary.FileWriter is not compatible with eager execution. Use "
                               "`tf.summary.create_file_writer`, or a `with v1.Graph().as_default():` context")
        self.event_writer = EventFileWriter(logdir, max_queue, flush_secs, filename_suffix)
        self._closed = False
        self._session_run_tags = {}
        # Only the first value of each tag keeps its SummaryMetadata (as TF, to save space).
        self._seen_summary_tags = set()
        if graph is not None or graph_def is not None:
            true_graph_def = self._graph_def_of(graph, graph_def)
            self._add_event(_event(graph_def=true_graph_def.SerializeToString()), None)
            meta_graph_pb2 = proto_module("meta_graph_pb2", _FEATURE)
            self.add_meta_graph(meta_graph_pb2.MetaGraphDef(graph_def=true_graph_def))

    def __enter__(self):
        """Make usable with "with" statement."""
        return self

    def __exit__(self, unused_type, unused_value, unused_traceback):
        """Make usable with "with" statement."""
        self.close()

    def get_logdir(self):
        """Returns the directory where event file will be written."""
        return self.event_writer.get_logdir()

    def _warn_if_event_writer_is_closed(self):
        if self._closed:
            warnings.warn("Attempting to use a closed FileWriter. The operation will be a noop unless the "
                          "FileWriter is explicitly reopened.")

    def _add_event(self, event, step):
        self._warn_if_event_writer_is_closed()
        event.wall_time = time.time()
        if step is not None:
            event.step = int(step)
        self.event_writer.add_event(event)

    def add_summary(self, summary, global_step=None):
        """Adds a `Summary` protocol buffer to the event file.

        This method wraps the provided summary in an `Event` protocol buffer and adds it to the event
        file. You can pass the result of evaluating any summary op, using `tf.Session.run` or
        `tf.Tensor.eval`, to this function. Alternatively, you can pass a `tf.Summary` protocol buffer
        that you populate with your own data.

        Args:
          summary: A `Summary` protocol buffer, optionally serialized as a string.
          global_step: Number. Optional global step value to record with the summary.

        Raises:
          TypeError: If `summary` is neither.
        """
        summary_pb2 = proto_module("summary_pb2", _FEATURE)
        if isinstance(summary, bytes):
            summary = summary_pb2.Summary.FromString(summary)
        elif isinstance(summary, summary_pb2.Summary):
            copy = summary_pb2.Summary()
            copy.CopyFrom(summary)
            summary = copy
        else:
            raise TypeError("summary must be a Summary protocol buffer or its serialization (bytes), got %s"
                            % type(summary).__name__)
        for value in summary.value:
            if not value.HasField("metadata"):
                continue
            if value.tag in self._seen_summary_tags:
                value.ClearField("metadata")
                continue
            self._seen_summary_tags.add(value.tag)
        self._add_event(_event(summary=summary), global_step)

    def add_session_log(self, session_log, global_step=None):
        """Adds a `SessionLog` protocol buffer to the event file.

        This method wraps the provided session in an `Event` protocol buffer and adds it to the event
        file.

        Args:
          session_log: A `SessionLog` protocol buffer.
          global_step: Number. Optional global step value to record with the summary.
        """
        self._add_event(_event(session_log=session_log), global_step)

    @staticmethod
    def _graph_def_of(graph, graph_def):
        graph_pb2 = proto_module("graph_pb2", _FEATURE)
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        if isinstance(graph, ops.Graph) or isinstance(graph_def, ops.Graph):
            return graph_to_graph_def(graph if isinstance(graph, ops.Graph) else graph_def, add_shapes=True)
        if isinstance(graph, graph_pb2.GraphDef):
            return graph
        if isinstance(graph_def, graph_pb2.GraphDef):
            return graph_def
        raise TypeError("The passed graph must be an instance of `Graph` or the deprecated `GraphDef`")

    def add_graph(self, graph, global_step=None, graph_def=None):
        """Adds a `Graph` to the event file.

        The graph described by the protocol buffer will be displayed by TensorBoard. Most users pass a
        graph in the constructor instead.

        Args:
          graph: A `Graph` object, such as `sess.graph`.
          global_step: Number. Optional global step counter to record with the graph.
          graph_def: DEPRECATED. Use the `graph` parameter instead.

        Raises:
          ValueError: If both graph and graph_def are passed to the method.
          TypeError: If the graph is neither a `Graph` nor a `GraphDef`.
        """
        true_graph_def = self._graph_def_of(graph, graph_def)
        self._add_event(_event(graph_def=true_graph_def.SerializeToString()), global_step)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        """Adds a `MetaGraphDef` to the event file.

        The `MetaGraphDef` allows running the given graph via `saver.import_meta_graph()`.

        Args:
          meta_graph_def: A `MetaGraphDef` object, often as returned by `saver.export_meta_graph()`.
          global_step: Number. Optional global step counter to record with the graph.

        Raises:
          TypeError: If both `meta_graph_def` is not an instance of `MetaGraphDef`.
        """
        if not hasattr(meta_graph_def, "SerializeToString"):
            raise TypeError("meta_graph_def must be type MetaGraphDef, saw type: %s" % type(meta_graph_def))
        self._add_event(_event(meta_graph_def=meta_graph_def.SerializeToString()), global_step)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """Adds a metadata information for a single session.run() call.

        Args:
          run_metadata: A `RunMetadata` protobuf object.
          tag: The tag name for this metadata.
          global_step: Number. Optional global step counter to record with the StepStats.

        Raises:
          ValueError: If the provided tag was already used for this type of event.
        """
        if tag in self._session_run_tags:
            raise ValueError("The provided tag was already used for this event type")
        self._session_run_tags[tag] = True
        if hasattr(run_metadata, "SerializeToString"):
            serialized = run_metadata.SerializeToString()
        else:
            # tensorweave's RunMetadata: its partition graphs are the only part with a protobuf form.
            config_pb2 = proto_module("config_pb2", _FEATURE)
            proto = config_pb2.RunMetadata()
            for g in getattr(run_metadata, "partition_graphs", None) or ():
                if isinstance(g, ops.Graph):
                    proto.partition_graphs.add().CopyFrom(graph_to_graph_def(g))
            serialized = proto.SerializeToString()
        event_pb2 = proto_module("event_pb2", _FEATURE)
        tagged = event_pb2.TaggedRunMetadata(tag=tag, run_metadata=serialized)
        self._add_event(_event(tagged_run_metadata=tagged), global_step)

    def add_event(self, event):
        """Adds an event to the event file.

        Args:
          event: An `Event` protocol buffer.
        """
        self._warn_if_event_writer_is_closed()
        self.event_writer.add_event(event)

    def flush(self):
        """Flushes the event file to disk.

        Call this method to make sure that all pending events have been written to disk.
        """
        self._warn_if_event_writer_is_closed()
        self.event_writer.flush()

    def close(self):
        """Flushes the event file to disk and close the file.

        Call this method when you do not need the summary writer anymore.
        """
        self.event_writer.close()
        self._closed = True

    def reopen(self):
        """Reopens the EventFileWriter.

        Can be called after `close()` to add more events in the same directory. The events will go into
        a new events file. Does nothing if the EventFileWriter was not closed.
        """
        self.event_writer.reopen()
        self._closed = False


class FileWriterCache:
    """Cache for file writers.

    This class caches file writers, one per directory.
    """

    _cache = {}
    _lock = threading.RLock()

    @staticmethod
    def clear():
        """Clear cached summary writers. Currently only used for unit tests."""
        with FileWriterCache._lock:
            for item in FileWriterCache._cache.values():
                item.close()
            FileWriterCache._cache = {}

    @staticmethod
    def get(logdir):
        """Returns the FileWriter for the specified directory.

        Args:
          logdir: str, name of the directory.

        Returns:
          A `FileWriter`, created with the default graph the first time.
        """
        with FileWriterCache._lock:
            if logdir not in FileWriterCache._cache:
                FileWriterCache._cache[logdir] = FileWriter(logdir, graph=ops.get_default_graph())
            return FileWriterCache._cache[logdir]
