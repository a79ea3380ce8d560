"""`tf.contrib.slim.evaluation` (on `tf.contrib.training`'s evaluation helpers): evaluate a
checkpoint once (`evaluate_once`) or each new checkpoint of a directory (`evaluation_loop`) by
restoring it in a `MonitoredSession`, running `eval_op` `num_evals` times (counted by the local
"eval_step" variable) and returning the value of `final_op`, optionally writing `summary_op` to
`logdir` at the end, as TF 1.15."""

import math
import time

from ... import tf_logging as logging
from ...framework import dtypes, ops
from ...train.basic_loops import checkpoints_iterator
from ...train.basic_session_run_hooks import FinalOpsHook
from ...train.session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["StopAfterNEvalsHook", "SummaryAtEndHook", "checkpoints_iterator", "evaluate_once", "evaluate_repeatedly",
           "evaluation_loop", "get_or_create_eval_step", "wait_for_new_checkpoint"]

_USE_DEFAULT = 0


def wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1, timeout=None):
    """Waits until a new checkpoint file is found.

    Args:
      checkpoint_dir: The directory in which checkpoints are saved.
      last_checkpoint: The last checkpoint path used or `None` if we're expecting a checkpoint
        for the first time.
      seconds_to_sleep: The number of seconds to sleep for before looking for a new checkpoint.
      timeout: The maximum number of seconds to wait. If left as `None`, then the process will
        wait indefinitely.

    Returns:
      a new checkpoint path, or None if the timeout was reached.
    """
    from ...train.checkpoint_management import latest_checkpoint
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


def get_or_create_eval_step():
    """Gets or creates the eval step `Tensor`: the local int64 variable "eval_step" (also in the
    EVAL_STEP collection) counting the evaluation batches run.

    Returns:
      A `Tensor` representing a counter for the evaluation step.

    Raises:
      ValueError: If multiple `Tensors` have been added to the `tf.GraphKeys.EVAL_STEP` collection.
    """
    from ...ops import init_ops
    from ...variable_scopes import get_variable
    eval_steps = ops.get_collection(ops.GraphKeys.EVAL_STEP)
    if len(eval_steps) == 1:
        return eval_steps[0]
    if len(eval_steps) > 1:
        raise ValueError("Multiple tensors added to tf.GraphKeys.EVAL_STEP")
    return get_variable("eval_step", shape=[], dtype=dtypes.int64, initializer=init_ops.zeros_initializer(),
                        trainable=False, collections=[ops.GraphKeys.LOCAL_VARIABLES, ops.GraphKeys.EVAL_STEP])


class StopAfterNEvalsHook(SessionRunHook):
    """Run hook used by the evaluation routines to run the `eval_ops` N times."""

    def __init__(self, num_evals, log_progress=True):
        """Constructs the run hook.

        Args:
          num_evals: The number of evaluations to run for. if set to None, will iterate the
            dataset until all inputs are exhausted.
          log_progress: Whether to log evaluation progress, defaults to True.
        """
        self._num_evals = num_evals
        self._evals_completed = None
        self._log_progress = log_progress
        self._log_frequency = 1 if (num_evals is None or num_evals < 20) else math.floor(num_evals / 10.)

    def _set_evals_completed_tensor(self, updated_eval_step):
        self._evals_completed = updated_eval_step

    def before_run(self, run_context):
        return SessionRunArgs({"evals_completed": self._evals_completed})

    def after_run(self, run_context, run_values):
        evals_completed = run_values.results["evals_completed"]
        if self._log_progress:
            if self._num_evals is None:
                logging.info("Evaluation [%d]", evals_completed)
            elif (evals_completed % self._log_frequency) == 0 or self._num_evals == evals_completed:
                logging.info("Evaluation [%d/%d]", evals_completed, self._num_evals)
        if self._num_evals is not None and evals_completed >= self._num_evals:
            run_context.request_stop()


class SummaryAtEndHook(SessionRunHook):
    """A run hook that saves a summary (at the global step) with the results of evaluation."""

    def __init__(self, log_dir=None, summary_writer=None, summary_op=None, feed_dict=None):
        """Constructs the Summary Hook.

        Args:
          log_dir: The directory where the summary events are saved to. Used only when
            `summary_writer` is not specified.
          summary_writer: A `tf.compat.v1.summary.FileWriter` to write summary events with.
          summary_op: The summary op to run. If left as `None`, then all summaries in the
            tf.GraphKeys.SUMMARIES collection are used.
          feed_dict: An optional feed dictionary to use when evaluating the summaries.

        Raises:
          ValueError: If both `log_dir` and `summary_writer` are `None`.
        """
        self._summary_op = summary_op
        self._replace_summary_op = summary_op is None
        self._feed_dict = feed_dict
        self._summary_writer = summary_writer
        self._log_dir = log_dir
        if self._log_dir is None and self._summary_writer is None:
            raise ValueError("One of log_dir or summary_writer should be used.")
        self._global_step = None

    def begin(self):
        from ... import summary
        from ...train.training_util import get_or_create_global_step
        if self._replace_summary_op:
            self._summary_op = summary.merge_all()
        self._global_step = get_or_create_global_step()

    def after_create_session(self, session, coord):
        from ...summary import FileWriterCache
        if self._summary_writer is None and self._log_dir:
            self._summary_writer = FileWriterCache.get(self._log_dir)

    def end(self, session):
        from ...train.training_util import global_step
        step = global_step(session, self._global_step)
        summary_str = session.run(self._summary_op, self._feed_dict)
        if self._summary_writer:
            self._summary_writer.add_summary(summary_str, step)
            self._summary_writer.flush()


def _add_eval_step(eval_ops, hooks):
    from ...ops.state_ops import assign_add
    eval_step = get_or_create_eval_step()
    if eval_ops is None:
        return None
    update_eval_step = assign_add(eval_step, 1, use_locking=True)
    for h in hooks:
        if isinstance(h, StopAfterNEvalsHook):
            h._set_evals_completed_tensor(update_eval_step)
    if isinstance(eval_ops, dict):
        eval_ops = dict(eval_ops)
        eval_ops["update_eval_step"] = update_eval_step
    elif isinstance(eval_ops, (tuple, list)):
        eval_ops = list(eval_ops) + [update_eval_step]
    else:
        eval_ops = [eval_ops, update_eval_step]
    return eval_ops


def _run_checkpoint(checkpoint_path, master, scaffold, eval_ops, feed_dict, hooks, config):
    from ...train.monitored_session import ChiefSessionCreator, MonitoredSession
    session_creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_filename_with_path=checkpoint_path,
                                          master=master, config=config)
    with MonitoredSession(session_creator=session_creator, hooks=hooks) as session:
        if eval_ops is not None:
            while not session.should_stop():
                session.run(eval_ops, feed_dict)


def _slim_hooks(num_evals, logdir, summary_op, summary_op_feed_dict, hooks):
    from ... import summary
    if summary_op is _USE_DEFAULT:
        summary_op = summary.merge_all()
    all_hooks = [StopAfterNEvalsHook(num_evals)]
    if summary_op is not None:
        all_hooks.append(SummaryAtEndHook(log_dir=logdir, summary_op=summary_op, feed_dict=summary_op_feed_dict))
    if hooks is not None:
        all_hooks.extend(hooks)
    return all_hooks


def evaluate_repeatedly(checkpoint_dir, master="", scaffold=None, eval_ops=None, feed_dict=None, final_ops=None,
                        final_ops_feed_dict=None, eval_interval_secs=60, hooks=None, config=None,
                        max_number_of_evaluations=None, timeout=None, timeout_fn=None):
    """Repeatedly searches for a checkpoint in `checkpoint_dir` and evaluates it.

    Args:
      checkpoint_dir: The directory where checkpoints are stored.
      master: The address of the TensorFlow master.
      scaffold: An tf.compat.v1.train.Scaffold instance for initializing variables and restoring
        variables.
      eval_ops: A single `Tensor`, a list of `Tensors` or a dictionary of names to `Tensors`,
        which is run until the session is requested to stop, commonly done by a
        `StopAfterNEvalsHook`.
      feed_dict: The feed dictionary to use when executing the `eval_ops`.
      final_ops: A single `Tensor`, a list of `Tensors` or a dictionary of names to `Tensors`.
      final_ops_feed_dict: A feed dictionary to use when evaluating `final_ops`.
      eval_interval_secs: The minimum number of seconds between evaluations.
      hooks: List of `tf.estimator.SessionRunHook` callbacks which are run inside the evaluation
        loop.
      config: An instance of `tf.compat.v1.ConfigProto` that will be used to configure the
        `Session`. If left as `None`, the default will be used.
      max_number_of_evaluations: The maximum times to run the evaluation. If left as `None`,
        then evaluation runs indefinitely.
      timeout: The maximum number of seconds to wait between checkpoints. If left as `None`,
        then the process will wait indefinitely.
      timeout_fn: Optional function to call after a timeout. If the function returns True, then
        it means that no new checkpoints will be generated and the iterator will exit.

    Returns:
      The fetched values of `final_ops` or `None` if `final_ops` is `None`.
    """
    hooks = list(hooks or [])
    eval_ops = _add_eval_step(eval_ops, hooks)
    final_ops_hook = FinalOpsHook(final_ops, final_ops_feed_dict)
    hooks.append(final_ops_hook)
    num_evaluations = 0
    for checkpoint_path in checkpoints_iterator(checkpoint_dir, min_interval_secs=eval_interval_secs,
                                                timeout=timeout, timeout_fn=timeout_fn):
        logging.info("Starting evaluation at " + time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime()))
        _run_checkpoint(checkpoint_path, master, scaffold, eval_ops, feed_dict, hooks, config)
        logging.info("Finished evaluation at " + time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime()))
        num_evaluations += 1
        if max_number_of_evaluations is not None and num_evaluations >= max_number_of_evaluations:
            return final_ops_hook.final_ops_values
    return final_ops_hook.final_ops_values


def evaluate_once(master, checkpoint_path, logdir, num_evals=1, initial_op=None, initial_op_feed_dict=None,
                  eval_op=None, eval_op_feed_dict=None, final_op=None, final_op_feed_dict=None,
                  summary_op=_USE_DEFAULT, summary_op_feed_dict=None, variables_to_restore=None,
                  session_config=None, hooks=None):
    """Evaluates the model at the given checkpoint path.

    Args:
      master: The BNS address of the TensorFlow master.
      checkpoint_path: The path to a checkpoint to use for evaluation.
      logdir: The directory where the TensorFlow summaries are written to.
      num_evals: The number of times to run `eval_op`.
      initial_op: An operation run at the beginning of evaluation.
      initial_op_feed_dict: A feed dictionary to use when executing `initial_op`.
      eval_op: A operation run `num_evals` times.
      eval_op_feed_dict: The feed dictionary to use when executing the `eval_op`.
      final_op: An operation to execute after all of the `eval_op` executions. The value of
        `final_op` is returned.
      final_op_feed_dict: A feed dictionary to use when executing `final_op`.
      summary_op: The summary_op to evaluate after running TF-Slims metric ops. By default the
        summary_op is set to tf.compat.v1.summary.merge_all().
      summary_op_feed_dict: An optional feed dictionary to use when running the `summary_op`.
      variables_to_restore: A list of TensorFlow variables to restore during evaluation. If the
        argument is left as `None` then slim.variables.GetVariablesToRestore() is used.
      session_config: An instance of `tf.compat.v1.ConfigProto` that will be used to configure
        the `Session`. If left as `None`, the default will be used.
      hooks: A list of additional `SessionRunHook` objects to pass during the evaluation.

    Returns:
      The value of `final_op` or `None` if `final_op` is `None`.
    """
    from ...train.monitored_session import Scaffold
    from ...train.saver import Saver
    all_hooks = _slim_hooks(num_evals, logdir, summary_op, summary_op_feed_dict, hooks)
    saver = Saver(variables_to_restore) if variables_to_restore is not None else None
    scaffold = Scaffold(init_op=initial_op, init_feed_dict=initial_op_feed_dict, saver=saver)
    eval_ops = _add_eval_step(eval_op, all_hooks)
    final_ops_hook = FinalOpsHook(final_op, final_op_feed_dict)
    all_hooks.append(final_ops_hook)
    logging.info("Starting evaluation at " + time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime()))
    _run_checkpoint(checkpoint_path, master, scaffold, eval_ops, eval_op_feed_dict, all_hooks, session_config)
    logging.info("Finished evaluation at " + time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime()))
    return final_ops_hook.final_ops_values


def evaluation_loop(master, checkpoint_dir, logdir, num_evals=1, initial_op=None, initial_op_feed_dict=None,
                    init_fn=None, eval_op=None, eval_op_feed_dict=None, final_op=None, final_op_feed_dict=None,
                    summary_op=_USE_DEFAULT, summary_op_feed_dict=None, variables_to_restore=None,
                    eval_interval_secs=60, max_number_of_evaluations=None, session_config=None, timeout=None,
                    timeout_fn=None, hooks=None):
    """Runs TF-Slim's Evaluation Loop: evaluates each new checkpoint of `checkpoint_dir`.

    Args:
      master: The BNS address of the TensorFlow master.
      checkpoint_dir: The directory where checkpoints are stored.
      logdir: The directory where the TensorFlow summaries are written to.
      num_evals: The number of times to run `eval_op`.
      initial_op: An operation run at the beginning of evaluation.
      initial_op_feed_dict: A feed dictionary to use when executing `initial_op`.
      init_fn: An optional callable to be executed after `init_op` is called. The callable must
        accept one argument, the session being initialized.
      eval_op: A operation run `num_evals` times.
      eval_op_feed_dict: The feed dictionary to use when executing the `eval_op`.
      final_op: An operation to execute after all of the `eval_op` executions. The value of
        `final_op` is returned.
      final_op_feed_dict: A feed dictionary to use when executing `final_op`.
      summary_op: The summary_op to evaluate after running TF-Slims metric ops. By default the
        summary_op is set to tf.compat.v1.summary.merge_all().
      summary_op_feed_dict: An optional feed dictionary to use when running the `summary_op`.
      variables_to_restore: A list of TensorFlow variables to restore during evaluation. If the
        argument is left as `None` then slim.variables.GetVariablesToRestore() is used.
      eval_interval_secs: The minimum number of seconds between evaluations.
      max_number_of_evaluations: the max number of iterations of the evaluation. If the value is
        left as 'None', the evaluation continues indefinitely.
      session_config: An instance of `tf.compat.v1.ConfigProto` that will be used to configure
        the `Session`. If left as `None`, the default will be used.
      timeout: The maximum amount of time to wait between checkpoints. If left as `None`, then
        the process will wait indefinitely.
      timeout_fn: Optional function to call after a timeout. If the function returns True, then
        it means that no new checkpoints will be generated and the iterator will exit.
      hooks: A list of additional `SessionRunHook` objects to pass during repeated evaluations.

    Returns:
      The value of `final_op` or `None` if `final_op` is `None`.
    """
    from ...train.monitored_session import Scaffold
    from ...train.saver import Saver
    all_hooks = _slim_hooks(num_evals, logdir, summary_op, summary_op_feed_dict, hooks)
    saver = Saver(variables_to_restore) if variables_to_restore is not None else None
    scaffold = Scaffold(init_op=initial_op, init_feed_dict=initial_op_feed_dict, init_fn=init_fn, saver=saver)
    return evaluate_repeatedly(checkpoint_dir, master=master, scaffold=scaffold, eval_ops=eval_op,
                               feed_dict=eval_op_feed_dict, final_ops=final_op, final_ops_feed_dict=final_op_feed_dict,
                               eval_interval_secs=eval_interval_secs, hooks=all_hooks, config=session_config,
                               max_number_of_evaluations=max_number_of_evaluations, timeout=timeout,
                               timeout_fn=timeout_fn)
