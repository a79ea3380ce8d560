"""`tf.contrib.slim.learning`: `create_train_op` (a loss tensor that also runs the update ops and
one optimizer step) and `train` (the TF1 slim training loop on a `tf.train.Supervisor`: initializes
or restores from `logdir`, runs `train_op` until `number_of_steps`, saves summaries and
checkpoints periodically and a final checkpoint), as TF 1.15."""

import sys
import time

from ... import tf_logging as logging
from ...framework import errors, ops

__all__ = ["add_gradients_summaries", "clip_gradient_norms", "create_train_op", "multiply_gradients", "train",
           "train_step"]

_USE_GLOBAL_STEP = 0
_USE_DEFAULT = 0


def _is_indexed_slices(grad):
    from ...framework.indexed_slices import IndexedSlices
    return isinstance(grad, IndexedSlices)


def clip_gradient_norms(gradients_to_variables, max_norm):
    """Clips the gradients by the given value (each by its own norm, `tf.clip_by_norm`).

    Args:
      gradients_to_variables: A list of gradient to variable pairs (tuples).
      max_norm: the maximum norm value.

    Returns:
      A list of clipped gradient to variable pairs.
    """
    from ...framework.indexed_slices import IndexedSlices
    from ...ops.clip_ops import clip_by_norm
    clipped = []
    for grad, var in gradients_to_variables:
        if grad is not None:
            if _is_indexed_slices(grad):
                grad = IndexedSlices(clip_by_norm(grad.values, max_norm), grad.indices, grad.dense_shape)
            else:
                grad = clip_by_norm(grad, max_norm)
        clipped.append((grad, var))
    return clipped


def multiply_gradients(grads_and_vars, gradient_multipliers):
    """Multiply specified gradients.

    Args:
      grads_and_vars: A list of gradient to variable pairs (tuples).
      gradient_multipliers: A map from either `Variables` or `Variable` op names to the
        coefficient by which the associated gradient should be scaled.

    Returns:
      The updated list of gradient to variable pairs.

    Raises:
      ValueError: If `grads_and_vars` is not a list or if `gradient_multipliers` is empty or None
        or if `gradient_multipliers` is not a dictionary, or a multiplied gradient is None.
    """
    from ...framework.constant_op import constant
    from ...framework.indexed_slices import IndexedSlices
    if not isinstance(grads_and_vars, list):
        raise ValueError("`grads_and_vars` must be a list.")
    if not gradient_multipliers:
        raise ValueError("`gradient_multipliers` is empty.")
    if not isinstance(gradient_multipliers, dict):
        raise ValueError("`gradient_multipliers` must be a dict.")
    result = []
    for grad, var in grads_and_vars:
        key = var if var in gradient_multipliers else var.op.name
        if key in gradient_multipliers:
            if grad is None:
                raise ValueError("Requested multiple of `None` gradient.")
            multiplier = gradient_multipliers[key]
            if not ops.is_tensor(multiplier):
                multiplier = constant(multiplier, dtype=grad.dtype)
            if _is_indexed_slices(grad):
                grad = IndexedSlices(grad.values * multiplier, grad.indices, grad.dense_shape)
            else:
                grad = grad * multiplier
        result.append((grad, var))
    return result


def add_gradients_summaries(grads_and_vars):
    """Add histogram ("<var>/gradient") and scalar norm ("<var>/gradient_norm") summaries for the
    gradients.

    Args:
      grads_and_vars: A list of gradient to variable pairs (tuples).

    Returns:
      The list of created summaries.
    """
    from ... import summary
    from ...ops.clip_ops import global_norm
    summaries = []
    for grad, var in grads_and_vars:
        if grad is not None:
            values = grad.values if _is_indexed_slices(grad) else grad
            summaries.append(summary.histogram(var.op.name + "/gradient", values))
            summaries.append(summary.scalar(var.op.name + "/gradient_norm", global_norm([values])))
        else:
            logging.info("Var %s has no gradient", var.op.name)
    return summaries


def create_train_op(total_loss, optimizer, global_step=_USE_GLOBAL_STEP, update_ops=None, variables_to_train=None,
                    clip_gradient_norm=0, summarize_gradients=False, gate_gradients=1, aggregation_method=None,
                    colocate_gradients_with_ops=False, gradient_multipliers=None, check_numerics=True):
    """Creates an operation that evaluates the gradients and returns the loss.

    The returned tensor is `total_loss` (checked for inf/nan) computed after the `update_ops`
    (default: the UPDATE_OPS collection, e.g. batch_norm's moving averages) and after one
    `optimizer.apply_gradients` step on `variables_to_train` (gradients scaled by
    `gradient_multipliers`, then clipped to `clip_gradient_norm`); it is added to the TRAIN_OP
    collection.

    Args:
      total_loss: A `Tensor` representing the total loss.
      optimizer: A tf.Optimizer to use for computing the gradients.
      global_step: A `Tensor` representing the global step variable. If left as
        `_USE_GLOBAL_STEP`, then `tf.train.get_or_create_global_step()` is used.
      update_ops: An optional list of updates to execute. If `update_ops` is `None`, then the
        update ops are set to the contents of the `tf.GraphKeys.UPDATE_OPS` collection.
      variables_to_train: an optional list of variables to train. If None, it will default to all
        tf.compat.v1.trainable_variables().
      clip_gradient_norm: If greater than 0 then the gradients would be clipped by it.
      summarize_gradients: Whether or not add summaries for each gradient.
      gate_gradients: How to gate the computation of gradients. See tf.Optimizer.
      aggregation_method: Specifies the method used to combine gradient terms.
      colocate_gradients_with_ops: Whether or not to try colocating the gradients with the ops
        that generated them.
      gradient_multipliers: A dictionary of either `Variables` or `Variable` op names to the
        coefficient by which the associated gradient should be scaled.
      check_numerics: Whether or not we apply check_numerics.

    Returns:
      A `Tensor` that when evaluated, computes the gradients and returns the total loss value.

    Raises:
      ValueError: If there are no variables to train, or one is not trainable.
    """
    def transform_grads_fn(grads):
        if gradient_multipliers:
            with ops.name_scope("multiply_grads"):
                grads = multiply_gradients(grads, gradient_multipliers)
        if clip_gradient_norm > 0:
            with ops.name_scope("clip_grads"):
                grads = clip_gradient_norms(grads, clip_gradient_norm)
        return grads

    return _create_train_op(total_loss, optimizer, global_step, update_ops, variables_to_train, transform_grads_fn,
                            summarize_gradients, gate_gradients, aggregation_method, colocate_gradients_with_ops,
                            check_numerics)


def _create_train_op(total_loss, optimizer, global_step, update_ops, variables_to_train, transform_grads_fn,
                     summarize_gradients, gate_gradients, aggregation_method, colocate_gradients_with_ops,
                     check_numerics):
    """`tf.contrib.training.create_train_op` (see there), which slim's `create_train_op` calls with its
    gradient multipliers and clipping as `transform_grads_fn`, as in TF 1.x."""
    from ...ops import core_ops
    from ...ops.numerics import check_numerics as _check_numerics
    from ...train.training_util import get_or_create_global_step
    from ...variables import trainable_variables
    if global_step is _USE_GLOBAL_STEP:
        global_step = get_or_create_global_step()
    global_update_ops = ops.get_collection(ops.GraphKeys.UPDATE_OPS)
    update_ops = list(global_update_ops) if update_ops is None else list(update_ops)
    if any(all(op is not u for u in update_ops) for op in global_update_ops):
        logging.warning("update_ops in create_train_op does not contain all the update_ops in GraphKeys.UPDATE_OPS")
    if update_ops:
        with ops.control_dependencies(update_ops):
            barrier = core_ops.no_op(name="update_barrier")
        with ops.control_dependencies([barrier]):
            total_loss = core_ops.identity(total_loss)
    trainable = trainable_variables()
    if variables_to_train is None:
        variables_to_train = trainable
    else:
        for v in variables_to_train:
            if all(v is not t for t in trainable):
                raise ValueError("Variable %s is not trainable." % v.op.name)
    if not variables_to_train:
        raise ValueError("No variables to train.")
    grads = optimizer.compute_gradients(total_loss, variables_to_train, gate_gradients=gate_gradients,
                                        aggregation_method=aggregation_method,
                                        colocate_gradients_with_ops=colocate_gradients_with_ops)
    if transform_grads_fn:
        grads = transform_grads_fn(grads)
    if summarize_gradients:
        with ops.name_scope("summarize_grads"):
            add_gradients_summaries(grads)
    grad_updates = optimizer.apply_gradients(grads, global_step=global_step)
    with ops.name_scope("train_op"):
        if check_numerics:
            total_loss = _check_numerics(total_loss, "LossTensor is inf or nan")
        with ops.control_dependencies([grad_updates]):
            train_op = core_ops.identity(total_loss)
    train_ops = ops.get_collection_ref(ops.GraphKeys.TRAIN_OP)
    if all(train_op is not t for t in train_ops):
        train_ops.append(train_op)
    return train_op


def train_step(sess, train_op, global_step, train_step_kwargs):
    """Function that takes a gradient step and specifies whether to stop.

    Args:
      sess: The current session.
      train_op: An `Operation` that evaluates the gradients and returns the total loss.
      global_step: A `Tensor` representing the global training step.
      train_step_kwargs: A dictionary of keyword arguments ("should_stop", "should_log" tensors).

    Returns:
      The total loss and a boolean indicating whether or not to stop training.
    """
    start_time = time.time()
    total_loss, np_global_step = sess.run([train_op, global_step])
    time_elapsed = time.time() - start_time
    if "should_log" in train_step_kwargs and sess.run(train_step_kwargs["should_log"]):
        logging.info("global step %d: loss = %.4f (%.3f sec/step)", np_global_step, total_loss, time_elapsed)
    should_stop = bool(sess.run(train_step_kwargs["should_stop"])) if "should_stop" in train_step_kwargs else False
    return total_loss, should_stop


def _wait_for_step(sess, global_step, step):
    from ...train.training_util import global_step as read_step
    while read_step(sess, global_step) < step:
        time.sleep(1.0)


def train(train_op, logdir, train_step_fn=train_step, train_step_kwargs=_USE_DEFAULT, log_every_n_steps=1,
          graph=None, master="", is_chief=True, global_step=None, number_of_steps=None, init_op=_USE_DEFAULT,
          init_feed_dict=None, local_init_op=_USE_DEFAULT, init_fn=None, ready_op=_USE_DEFAULT,
          summary_op=_USE_DEFAULT, save_summaries_secs=600, summary_writer=_USE_DEFAULT, startup_delay_steps=0,
          saver=None, save_interval_secs=600, sync_optimizer=None, session_config=None, session_wrapper=None,
          trace_every_n_steps=None, ignore_live_threads=False):
    """Runs a training loop using a TensorFlow supervisor.

    When `logdir` holds a checkpoint, training resumes from it; otherwise the variables are
    initialized (`init_op`) and `init_fn(sess)` is called. `train_op` is run until the global
    step reaches `number_of_steps` (or the input raises `OutOfRangeError`), summaries and
    checkpoints are written every `save_summaries_secs` / `save_interval_secs`, and a final
    checkpoint is saved to `logdir`.

    Args:
      train_op: A `Tensor` that, when executed, will apply the gradients and return the loss value.
      logdir: The directory where training logs are written to. If None, model checkpoints and
        summaries will not be written.
      train_step_fn: The function to call in order to execute a single gradient step. The
        function must have take exactly four arguments: the current session, the `train_op`
        `Tensor`, a global step `Tensor` and a dictionary.
      train_step_kwargs: A dictionary which is passed to the `train_step_fn`. By default, two
        `Boolean`, scalar ops called "should_stop" and "should_log" are provided.
      log_every_n_steps: The frequency, in terms of global steps, that the loss and global step
        are logged.
      graph: The graph to pass to the supervisor. If no graph is supplied the default graph is
        used.
      master: The address of the tensorflow master.
      is_chief: Specifies whether or not the training is being run by the primary replica during
        replica training.
      global_step: The `Tensor` representing the global step. If left as `None`, then
        training_util.get_or_create_global_step(), that is, tf.contrib.framework.global_step() is
        used.
      number_of_steps: The max number of gradient steps to take during training, as measured by
        'global_step': training will stop if global_step is greater than 'number_of_steps'. If
        the value is left as None, training proceeds indefinitely.
      init_op: The initialization operation. If left to its default value, then the session is
        initialized by calling `tf.compat.v1.global_variables_initializer()`.
      init_feed_dict: A feed dictionary to use when executing the `init_op`.
      local_init_op: The local initialization operation. If left to its default value, then the
        session is initialized by calling `tf.compat.v1.local_variables_initializer()` and
        `tf.compat.v1.tables_initializer()`.
      init_fn: An optional callable to be executed after `init_op` is called. The callable must
        accept one argument, the session being initialized.
      ready_op: Operation to check if the model is ready to use. If left to its default value,
        then the session checks for readiness by calling
        `tf.compat.v1.report_uninitialized_variables()`.
      summary_op: The summary operation (default: `tf.summary.merge_all()`).
      save_summaries_secs: How often, in seconds, to save summaries.
      summary_writer: `SummaryWriter` to use. Can be `None` to indicate that no summaries should
        be written. If unset, we create a SummaryWriter.
      startup_delay_steps: The number of steps to wait for before beginning. Note that this must
        be 0 if a sync_optimizer is supplied.
      saver: Saver to save checkpoints. If None, a default one will be created and used.
      save_interval_secs: How often, in seconds, to save the model to `logdir`.
      sync_optimizer: Only None is supported (no `SyncReplicasOptimizer`).
      session_config: An instance of `tf.compat.v1.ConfigProto` that will be used to configure the
        `Session`. If left as `None`, the default will be used.
      session_wrapper: A function that takes a `tf.compat.v1.Session` object as the only
        argument and returns a wrapped session object that has the same methods that the original
        object has, or `None`.
      trace_every_n_steps: Only None is supported (no timeline traces).
      ignore_live_threads: If `True` ignores threads that remain running after a grace period
        when stopping the supervisor, instead of raising a RuntimeError.

    Returns:
      the value of the loss function after training.

    Raises:
      ValueError: if `train_op` is empty or if `startup_delay_steps` is non-zero when
        `sync_optimizer` is supplied, if `number_of_steps` is negative, or if
        `trace_every_n_steps` is not `None` and no `logdir` is provided.
      NotImplementedError: For a `sync_optimizer` or `trace_every_n_steps`.
    """
    from ... import summary
    from ...framework.constant_op import constant
    from ...ops import math_ops
    from ...ops.core_ops import group
    from ...train.saver import Saver
    from ...train.supervisor import Supervisor
    from ...train.training_util import get_or_create_global_step
    from ...variables import global_variables_initializer, local_variables_initializer, report_uninitialized_variables
    if train_op is None:
        raise ValueError("train_op cannot be None.")
    if logdir is None:
        if summary_op != _USE_DEFAULT:
            raise ValueError("Cannot provide summary_op because logdir=None")
        if saver is not None:
            raise ValueError("Cannot provide saver because logdir=None")
        if trace_every_n_steps is not None:
            raise ValueError("Cannot provide trace_every_n_steps because logdir=None")
    if sync_optimizer is not None:
        raise NotImplementedError("slim.learning.train: sync_optimizer is not supported by tensorweave.")
    if trace_every_n_steps is not None:
        raise NotImplementedError("slim.learning.train: trace_every_n_steps is not supported by tensorweave.")
    if number_of_steps is not None and number_of_steps <= 0:
        raise ValueError("`number_of_steps` must be either None or a positive number.")
    graph = graph or ops.get_default_graph()
    with graph.as_default():
        if global_step is None:
            global_step = get_or_create_global_step()
        saver = saver or Saver()
        with ops.name_scope("init_ops"):
            if init_op is _USE_DEFAULT:
                init_op = global_variables_initializer()
            if ready_op is _USE_DEFAULT:
                ready_op = report_uninitialized_variables()
            if local_init_op is _USE_DEFAULT:
                from ...ops.lookup_ops import tables_initializer
                local_init_op = group(local_variables_initializer(), tables_initializer())
        if summary_op is _USE_DEFAULT:
            summary_op = summary.merge_all()
        if summary_writer is _USE_DEFAULT:
            summary_writer = Supervisor.USE_DEFAULT
        if train_step_kwargs is _USE_DEFAULT:
            with ops.name_scope("train_step"):
                train_step_kwargs = {}
                if number_of_steps:
                    train_step_kwargs["should_stop"] = math_ops.greater_equal(global_step, number_of_steps)
                else:
                    train_step_kwargs["should_stop"] = constant(False)
                if log_every_n_steps > 0:
                    train_step_kwargs["should_log"] = math_ops.equal(math_ops.mod(global_step, log_every_n_steps), 0)
    sv = Supervisor(graph=graph, is_chief=is_chief, logdir=logdir, init_op=init_op, init_feed_dict=init_feed_dict,
                    local_init_op=local_init_op, ready_op=ready_op, summary_op=summary_op,
                    summary_writer=summary_writer, global_step=global_step, saver=saver,
                    save_summaries_secs=save_summaries_secs, save_model_secs=save_interval_secs, init_fn=init_fn)
    if summary_writer is not None:
        train_step_kwargs["summary_writer"] = sv.summary_writer
    total_loss = None
    should_retry = True
    while should_retry:
        try:
            should_retry = False
            with sv.managed_session(master, start_standard_services=False, config=session_config) as sess:
                logging.info("Starting Session.")
                if session_wrapper is not None:
                    sess = session_wrapper(sess)
                if is_chief:
                    if logdir:
                        sv.start_standard_services(sess)
                elif startup_delay_steps > 0:
                    _wait_for_step(sess, global_step, min(startup_delay_steps, number_of_steps or sys.maxsize))
                threads = sv.start_queue_runners(sess)
                logging.info("Starting Queues.")
                try:
                    while not sv.should_stop():
                        total_loss, should_stop = train_step_fn(sess, train_op, global_step, train_step_kwargs)
                        if should_stop:
                            logging.info("Stopping Training.")
                            sv.request_stop()
                            break
                except errors.OutOfRangeError as e:
                    logging.info("Caught OutOfRangeError. Stopping Training. %s", e)
                if logdir and sv.is_chief:
                    # The service threads are joined before the final save (TF saves first): a
                    # periodic save still running must not finish after it and leave an older
                    # checkpoint as the directory's latest.
                    sv.stop(threads, close_summary_writer=True, ignore_live_threads=ignore_live_threads)
                    logging.info("Finished training! Saving model to disk.")
                    sv.saver.save(sess, sv.save_path, global_step=sv.global_step)
        except errors.AbortedError:
            logging.info("Retrying training!")
            should_retry = True
    return total_loss
