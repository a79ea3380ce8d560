"""`tf.contrib.slim.queues`: a context manager running the graph's queue runners."""

import contextlib
import threading

from ...framework import ops

__all__ = ["NestedQueueRunnerError", "QueueRunners"]

_queue_runner_lock = threading.Lock()


class NestedQueueRunnerError(Exception):
    """Raised when `QueueRunners` contexts are nested."""


@contextlib.contextmanager
def QueueRunners(session):  # noqa: N802 (TF's name)
    """Creates a context manager that handles starting and stopping queue runners: the threads of
    the QUEUE_RUNNERS collection run in `session` inside the block and are stopped (and joined)
    when it ends.

    Args:
      session: the currently running session.

    Yields:
      a context in which queues are run.

    Raises:
      NestedQueueRunnerError: if a QueueRunners context is nested within another.
    """
    from ...train.coordinator import Coordinator
    if not _queue_runner_lock.acquire(False):
        raise NestedQueueRunnerError("QueueRunners cannot be nested")
    coord = Coordinator()
    threads = []
    for qr in ops.get_collection(ops.GraphKeys.QUEUE_RUNNERS):
        threads.extend(qr.create_threads(session, coord=coord, daemon=True, start=True))
    try:
        yield
    finally:
        coord.request_stop()
        try:
            coord.join(threads, stop_grace_period_secs=120)
        except RuntimeError:
            session.close()
        _queue_runner_lock.release()
