"""`tf.train.SessionManager`: creates a Session that is restored from the latest checkpoint or initialized,
runs the local init op, and checks the model is ready (as TF 1.x's session_manager)."""

import time

import numpy as np

from .. import tf_logging as logging
from ..framework import errors, ops
from .checkpoint_management import get_checkpoint_state

__all__ = ["SessionManager"]


def _maybe_name(obj):
    if obj is None:
        return None
    return getattr(obj, "name", "<no name for %s>" % type(obj))


def _ready(op, sess, msg):
    """(True, None) when `op` (a report of uninitialized variables) reports none, else (False, why)."""
    if op is None:
        return True, None
    try:
        value = sess.run(op)
    except errors.FailedPreconditionError as e:
        if "uninitialized" not in str(e):
            logging.warning("%s : error [%s]", msg, str(e))
            raise
        return False, str(e)
    value = None if value is None else np.asarray(value)
    if value is None or value.dtype == np.int32 or value.size == 0:
        return True, None
    names = ", ".join(v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in value.flat)
    return False, "Variables not initialized: " + names


class SessionManager:
    """Creates Sessions restored from a checkpoint or initialized, and waits for models other processes
    initialize (`tf.train.SessionManager`).

        sm = tf.train.SessionManager()
        sess = sm.prepare_session("", init_op=init, saver=saver, checkpoint_dir=ckpt_dir)

    Args:
      local_init_op: Run after every Session is created (tables, local variables), once
        `ready_for_local_init_op` reports the model ready for it.
      ready_op: Reports uninitialized variables as a string tensor (empty when the model is ready);
        None skips the check.
      ready_for_local_init_op: Like `ready_op`, checked before `local_init_op` runs.
      graph: The graph the Sessions run (default: the default graph).
      recovery_wait_secs: Seconds between checks while waiting for a checkpoint or a ready model.
      local_init_run_options: `RunOptions` for running `local_init_op`.
      local_init_feed_dict: Feeds for running `local_init_op`.

    Raises:
      ValueError: If `ready_for_local_init_op` is given without `local_init_op`.
    """

    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None, graph=None,
                 recovery_wait_secs=30, local_init_run_options=None, local_init_feed_dict=None):
        if graph is None:
            graph = ops.get_default_graph()
        self._local_init_op = local_init_op
        self._local_init_feed_dict = local_init_feed_dict
        self._local_init_run_options = local_init_run_options
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph
        self._recovery_wait_secs = recovery_wait_secs
        self._target = None
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError("If you pass a ready_for_local_init_op you must also pass a local_init_op , "
                             "ready_for_local_init_op [%s]" % ready_for_local_init_op)

    def _new_session(self, master, config):
        from ..client.session import Session
        self._target = master
        return Session(master, graph=self._graph, config=config)

    def _restore_checkpoint(self, master, saver=None, checkpoint_dir=None, checkpoint_filename_with_path=None,
                            wait_for_checkpoint=False, max_wait_secs=7200, config=None):
        sess = self._new_session(master, config)
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and checkpoint_filename_with_path.")
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return sess, False
        if checkpoint_filename_with_path:
            saver.restore(sess, checkpoint_filename_with_path)
            return sess, True
        wait_time = 0
        ckpt = get_checkpoint_state(checkpoint_dir)
        while not ckpt or not ckpt.model_checkpoint_path:
            if wait_for_checkpoint and wait_time < max_wait_secs:
                logging.info("Waiting for checkpoint to be available.")
                time.sleep(self._recovery_wait_secs)
                wait_time += self._recovery_wait_secs
                ckpt = get_checkpoint_state(checkpoint_dir)
            else:
                return sess, False
        saver.restore(sess, ckpt.model_checkpoint_path)
        saver.recover_last_checkpoints(list(ckpt.all_model_checkpoint_paths))
        return sess, True

    def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False, max_wait_secs=7200,
                        config=None, init_feed_dict=None, init_fn=None):
        """Creates a Session restored from the latest checkpoint (of `checkpoint_dir`, or the named file)
        or, when there is none, initialized by `init_op` and `init_fn`; then runs the local init op and
        checks the model is ready.

        Args:
          master: The TensorFlow master ("" for in-process).
          init_op: Run when no checkpoint is restored.
          saver: The `Saver` that restores.
          checkpoint_dir: The directory whose latest checkpoint is restored.
          checkpoint_filename_with_path: A checkpoint path to restore instead.
          wait_for_checkpoint: Wait (up to `max_wait_secs`) for a checkpoint to appear.
          max_wait_secs: How long to wait for a checkpoint.
          config: `ConfigProto` of the Session.
          init_feed_dict: Feeds for `init_op`.
          init_fn: Called with the Session after `init_op`.

        Returns:
          The Session.

        Raises:
          RuntimeError: If nothing restores or initializes the model, or it is not ready afterwards.
          ValueError: If both `checkpoint_dir` and `checkpoint_filename_with_path` are given.
        """
        sess, restored = self._restore_checkpoint(master, saver, checkpoint_dir=checkpoint_dir,
                                                  checkpoint_filename_with_path=checkpoint_filename_with_path,
                                                  wait_for_checkpoint=wait_for_checkpoint,
                                                  max_wait_secs=max_wait_secs, config=config)
        if not restored:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        ok, msg = self._try_run_local_init_op(sess)
        if not ok:
            raise RuntimeError("Init operations did not make model ready for local_init.  Init op: %s, init fn: %s, "
                               "error: %s" % (_maybe_name(init_op), init_fn, msg))
        ok, msg = self._model_ready(sess)
        if not ok:
            raise RuntimeError("Init operations did not make model ready.  Init op: %s, init fn: %s, local_init_op: "
                               "%s, error: %s" % (_maybe_name(init_op), init_fn, self._local_init_op, msg))
        return sess

    def recover_session(self, master, saver=None, checkpoint_dir=None, checkpoint_filename_with_path=None,
                        wait_for_checkpoint=False, max_wait_secs=7200, config=None):
        """Creates a Session and restores the latest checkpoint if there is one (never initializes).

        Returns:
          (sess, restored): `restored` is True when a checkpoint was restored and the model is ready.

        Raises:
          ValueError: If both `checkpoint_dir` and `checkpoint_filename_with_path` are given.
        """
        sess, restored = self._restore_checkpoint(master, saver, checkpoint_dir=checkpoint_dir,
                                                  checkpoint_filename_with_path=checkpoint_filename_with_path,
                                                  wait_for_checkpoint=wait_for_checkpoint,
                                                  max_wait_secs=max_wait_secs, config=config)
        ok, msg = self._try_run_local_init_op(sess)
        if not restored:
            return sess, False
        source = checkpoint_dir or checkpoint_filename_with_path
        if not ok:
            logging.info("Restoring model from %s did not make model ready for local init: %s", source, msg)
            return sess, False
        ok, msg = self._model_ready(sess)
        if not ok:
            logging.info("Restoring model from %s did not make model ready: %s", source, msg)
            return sess, False
        logging.info("Restored model from %s", source)
        return sess, True

    def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
        """Creates Sessions until one finds the model ready (initialized by another process).

        Args:
          master: The TensorFlow master.
          config: `ConfigProto` of the Session.
          max_wait_secs: How long to keep trying (None: forever).

        Returns:
          A Session on the ready model.

        Raises:
          tf.errors.DeadlineExceededError: If the model is not ready in time.
        """
        if max_wait_secs is None:
            max_wait_secs = float("Inf")
        deadline = time.time() + max_wait_secs
        while True:
            sess = self._new_session(master, config)
            not_ready_msg = None
            ok, not_ready_local_msg = self._try_run_local_init_op(sess)
            if ok:
                ok, not_ready_msg = self._model_ready(sess)
                if ok:
                    return sess
            sess.close()
            if deadline - time.time() - self._recovery_wait_secs < 0:
                raise errors.DeadlineExceededError(None, None, "Session was not ready after waiting %d secs." %
                                                   (max_wait_secs,))
            logging.info("Waiting for model to be ready.  Ready_for_local_init_op:  %s, ready: %s",
                         not_ready_local_msg, not_ready_msg)
            time.sleep(self._recovery_wait_secs)

    def _try_run_local_init_op(self, sess):
        if self._local_init_op is None:
            return True, None
        ok, msg = _ready(self._ready_for_local_init_op, sess, "Model not ready for local init")
        if not ok:
            return False, msg
        logging.info("Running local_init_op.")
        sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict, options=self._local_init_run_options)
        logging.info("Done running local_init_op.")
        return True, None

    def _model_ready(self, sess):
        return _ready(self._ready_op, sess, "Model not ready")
