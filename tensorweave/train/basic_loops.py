"""`tf.train.basic_train_loop` (TF1's training/basic_loops.py) and `tf.train.checkpoints_iterator`
(training/checkpoint_utils.py, TF 1.15 semantics)."""

import time

from .. import tf_logging as logging
from ..framework import errors
from .checkpoint_management import latest_checkpoint

__all__ = ["basic_train_loop", "checkpoints_iterator"]


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Basic loop to train a model: calls `train_step_fn(session, *args, **kwargs)` in a
    `supervisor.managed_session(master)` until the supervisor should stop. The loop starts over (a
    new managed session) when a step raises `tf.errors.AbortedError`.

    Args:
      supervisor: The `tf.train.Supervisor` that runs the training services.
      train_step_fn: Callable running one training step.
      args: Optional positional arguments passed to `train_step_fn`.
      kwargs: Optional keyword arguments passed to `train_step_fn`.
      master: The TensorFlow master ("" for in-process).
    """
    if args is None:
        args = []
    if kwargs is None:
        kwargs = {}
    should_retry = True
    while should_retry:
        try:
            should_retry = False
            with supervisor.managed_session(master) as sess:
                while not supervisor.should_stop():
                    train_step_fn(sess, *args, **kwargs)
        except errors.AbortedError:
            # Always re-run on AbortedError: it indicates a restart of a distributed server.
            should_retry = True


def _wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1, timeout=None):
    """The latest checkpoint of `checkpoint_dir` once it is not `last_checkpoint`, or None after `timeout`."""
    logging.info("Waiting for new checkpoint at %s", checkpoint_dir)
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        checkpoint_path = latest_checkpoint(checkpoint_dir)
        if checkpoint_path is None or checkpoint_path == last_checkpoint:
            if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
                return None
            time.sleep(seconds_to_sleep)
        else:
            logging.info("Found new checkpoint at %s", checkpoint_path)
            return checkpoint_path


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Continuously yields new checkpoint files as they appear.

    The iterator only looks for a new checkpoint (the latest of `checkpoint_dir`, once per second)
    when control returns to it, so it can miss checkpoints written in between. Between two yields
    at least `min_interval_secs` pass.

    When no new checkpoint appears within `timeout` seconds: without `timeout_fn` the iterator
    ends; otherwise it calls `timeout_fn()` and ends if that returns True, else keeps waiting.

    Args:
      checkpoint_dir: The directory in which checkpoints are saved.
      min_interval_secs: The minimum number of seconds between yielding checkpoints.
      timeout: The maximum number of seconds to wait between checkpoints (None: forever).
      timeout_fn: Optional function called after a timeout; True ends the iteration.

    Yields:
      String paths to the latest checkpoint files as they arrive.
    """
    checkpoint_path = None
    while True:
        new_checkpoint_path = _wait_for_new_checkpoint(checkpoint_dir, checkpoint_path, timeout=timeout)
        if new_checkpoint_path is None:
            if not timeout_fn:
                logging.info("Timed-out waiting for a checkpoint.")
                return
            if timeout_fn():
                return
            continue
        start = time.time()
        checkpoint_path = new_checkpoint_path
        yield checkpoint_path
        time_to_next_eval = start + min_interval_secs - time.time()
        if time_to_next_eval > 0:
            time.sleep(time_to_next_eval)
