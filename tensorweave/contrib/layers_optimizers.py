"""`tf.contrib.layers.optimize_loss` and the `summarize_*` helpers, as TF 1.15's
`tensorflow/contrib/layers/python/layers/{optimizers,summaries}.py`."""

import functools
import re

from ..framework import dtypes, ops

__all__ = ["OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "optimize_loss", "summarize_activation",
           "summarize_activations", "summarize_biases", "summarize_collection", "summarize_tensor",
           "summarize_tensors", "summarize_variables", "summarize_weights"]


def _train():
    from .. import train
    return train


OPTIMIZER_CLS_NAMES = {
    "Adagrad": lambda learning_rate: _train().AdagradOptimizer(learning_rate),
    "Adam": lambda learning_rate: _train().AdamOptimizer(learning_rate),
    "Ftrl": lambda learning_rate: _train().FtrlOptimizer(learning_rate),
    "Momentum": lambda learning_rate: _train().MomentumOptimizer(learning_rate, momentum=0.9),
    "RMSProp": lambda learning_rate: _train().RMSPropOptimizer(learning_rate),
    "SGD": lambda learning_rate: _train().GradientDescentOptimizer(learning_rate),
}

OPTIMIZER_SUMMARIES = ["learning_rate", "loss", "gradients", "gradient_norm", "global_gradient_norm"]


def _is_indexed_slices(value):
    from ..framework.indexed_slices import IndexedSlices
    return isinstance(value, IndexedSlices)


def _clip_gradients_by_norm(grads_and_vars, clip_gradients):
    from ..ops.clip_ops import clip_by_global_norm
    gradients, variables = zip(*grads_and_vars)
    clipped, _ = clip_by_global_norm(gradients, clip_gradients)
    return list(zip(clipped, variables))


def _add_scaled_noise_to_gradients(grads_and_vars, gradient_noise_scale):
    from ..ops import random_ops
    result = []
    for gradient, variable in grads_and_vars:
        if gradient is None:
            result.append((None, variable))
            continue
        shape = gradient.dense_shape if _is_indexed_slices(gradient) else gradient.get_shape()
        result.append((gradient + random_ops.truncated_normal(shape) * gradient_noise_scale, variable))
    return result


def _multiply_gradients(grads_and_vars, gradient_multipliers):
    from ..framework.indexed_slices import IndexedSlices
    from ..ops import math_ops
    result = []
    for grad, var in grads_and_vars:
        if grad is not None and (var in gradient_multipliers or var.name in gradient_multipliers):
            multiplier = gradient_multipliers[var if var in gradient_multipliers else var.name]
            if _is_indexed_slices(grad):
                grad = IndexedSlices(grad.values * multiplier, grad.indices, grad.dense_shape)
            else:
                grad = grad * math_ops.cast(multiplier, grad.dtype)
        result.append((grad, var))
    return result


def optimize_loss(loss, global_step, learning_rate, optimizer, gradient_noise_scale=None, gradient_multipliers=None,
                  clip_gradients=None, learning_rate_decay_fn=None, update_ops=None, variables=None, name=None,
                  summaries=None, colocate_gradients_with_ops=False, increment_global_step=True):
    """Given loss and parameters for optimizer, returns a training op.

    Runs the `update_ops` (default: UPDATE_OPS) before the loss, creates the optimizer (a name
    from `OPTIMIZER_CLS_NAMES`, an `Optimizer` subclass or instance, or a function of the
    learning rate), computes gradients, optionally adds noise, multiplies and clips them (by
    global norm for a float `clip_gradients`), adds the requested summaries and applies one step;
    the returned tensor is the loss computed after the update. A float `learning_rate` becomes
    the non-trainable variable "<name>/learning_rate" (scope "OptimizeLoss").

    Args:
      loss: Scalar `Tensor`.
      global_step: Scalar int `Tensor`, step counter to update on each step unless
        `increment_global_step` is `False`. If not supplied, it will be fetched from the default
        graph (see `tf.compat.v1.train.get_global_step` for details).
      learning_rate: float or `Tensor`, magnitude of update per each training step. Can be `None`.
      optimizer: string, class or optimizer instance, used as trainer.
      gradient_noise_scale: float or None, adds 0-mean normal noise scaled by this value.
      gradient_multipliers: dict of variables or variable names to floats. If present, gradients
        for specified variables will be multiplied by given constant.
      clip_gradients: float, callable or `None`. If a float is provided, a global clipping is
        applied to prevent the norm of the gradient from exceeding this value. A callable maps the
        list of (gradient, variable) pairs.
      learning_rate_decay_fn: function, takes `learning_rate` and `global_step` `Tensor`s,
        returns `Tensor`.
      update_ops: list of update `Operation`s to execute at each step. If `None`, uses elements
        of UPDATE_OPS collection.
      variables: list of variables to optimize or `None` to use all trainable variables.
      name: The name for this operation is used to scope operations and summaries.
      summaries: List of internal quantities to visualize on tensorboard. If not set, the loss,
        the learning rate, and the global norm of the gradients will be reported. The complete
        list of possible values is in OPTIMIZER_SUMMARIES.
      colocate_gradients_with_ops: If True, try colocating gradients with the corresponding op.
      increment_global_step: Whether to increment `global_step`.

    Returns:
      Training op.

    Raises:
      ValueError: if:
          * `loss` is an invalid type or shape.
          * `global_step` is an invalid type or shape.
          * `learning_rate` is an invalid type or value.
          * `optimizer` has the wrong type.
          * `clip_gradients` is neither float nor callable.
          * `learning_rate` and `learning_rate_decay_fn` are supplied, but no `global_step` is
            available.
          * `gradients` is empty.
    """
    from .. import summary
    from ..ops import core_ops, init_ops
    from ..ops.clip_ops import global_norm
    from ..train.optimizer import Optimizer
    from ..train.training_util import assert_global_step, get_global_step
    from ..variable_scopes import get_variable, variable_scope
    from ..variables import trainable_variables
    loss = ops.convert_to_tensor(loss)
    if loss.get_shape().ndims != 0:
        raise ValueError("Expected scalar shape for %s, saw shape: %s." % (loss.name, loss.get_shape()))
    if global_step is None:
        global_step = get_global_step()
    else:
        assert_global_step(global_step)
    with variable_scope(name, "OptimizeLoss", [loss, global_step]):
        if update_ops is None:
            update_ops = ops.get_collection(ops.GraphKeys.UPDATE_OPS)
        if update_ops:
            with ops.control_dependencies(list(update_ops)):
                loss = core_ops.identity(loss)
        lr = None
        if learning_rate is not None:
            if ops.is_tensor(learning_rate) and learning_rate.get_shape().ndims == 0:
                lr = learning_rate
            elif isinstance(learning_rate, float):
                if learning_rate < 0.0:
                    raise ValueError("Invalid learning_rate %s." % learning_rate)
                lr = get_variable("learning_rate", [], trainable=False,
                                  initializer=init_ops.constant_initializer(learning_rate))
            else:
                raise ValueError("Learning rate should be 0d Tensor or float. Got %s of type %s"
                                 % (str(learning_rate), str(type(learning_rate))))
        if summaries is None:
            summaries = ["loss", "learning_rate", "global_gradient_norm"]
        else:
            for summ in summaries:
                if summ not in OPTIMIZER_SUMMARIES:
                    raise ValueError("Summaries should be one of [%s], you provided %s."
                                     % (", ".join(OPTIMIZER_SUMMARIES), summ))
        if learning_rate is not None and learning_rate_decay_fn is not None:
            if global_step is None:
                raise ValueError("global_step is required for learning_rate_decay_fn.")
            lr = learning_rate_decay_fn(lr, global_step)
            if "learning_rate" in summaries:
                summary.scalar("learning_rate", lr)
        if isinstance(optimizer, str):
            if lr is None:
                raise ValueError("Learning rate is None, but should be specified if optimizer is string (%s)."
                                 % optimizer)
            if optimizer not in OPTIMIZER_CLS_NAMES:
                raise ValueError("Optimizer name should be one of [%s], you provided %s."
                                 % (", ".join(OPTIMIZER_CLS_NAMES), optimizer))
            opt = OPTIMIZER_CLS_NAMES[optimizer](learning_rate=lr)
        elif isinstance(optimizer, type) and issubclass(optimizer, Optimizer):
            if lr is None:
                raise ValueError("Learning rate is None, but should be specified if optimizer is class (%s)."
                                 % optimizer)
            opt = optimizer(learning_rate=lr)
        elif isinstance(optimizer, Optimizer):
            opt = optimizer
        elif callable(optimizer):
            opt = optimizer(lr) if learning_rate is not None else optimizer()
            if not isinstance(opt, Optimizer):
                raise ValueError("Unrecognized optimizer: function should return subclass of Optimizer. Got %s."
                                 % str(opt))
        else:
            raise ValueError("Unrecognized optimizer: should be string, subclass of Optimizer, instance of "
                             "subclass of Optimizer or function with one argument. Got %s." % str(optimizer))
        if variables is None:
            variables = trainable_variables()
        gradients = opt.compute_gradients(loss, variables, colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gradient_noise_scale is not None:
            gradients = _add_scaled_noise_to_gradients(gradients, gradient_noise_scale)
        if gradient_multipliers is not None:
            gradients = _multiply_gradients(gradients, gradient_multipliers)
            if not gradients:
                raise ValueError("Empty list of (gradient, var) pairs encountered. This is most likely to be caused "
                                 "by an improper value of gradient_multipliers.")
        if "global_gradient_norm" in summaries or "gradient_norm" in summaries:
            summary.scalar("global_norm/gradient_norm", global_norm(list(zip(*gradients))[0]))
        if isinstance(clip_gradients, float):
            gradients = _clip_gradients_by_norm(gradients, clip_gradients)
        elif callable(clip_gradients):
            gradients = clip_gradients(gradients)
        elif clip_gradients is not None:
            raise ValueError("Unknown type %s for clip_gradients" % type(clip_gradients))
        if "loss" in summaries:
            summary.scalar("loss", loss)
        for gradient, variable in gradients:
            values = gradient.values if _is_indexed_slices(gradient) else gradient
            if values is not None:
                var_name = variable.name.replace(":", "_")
                if "gradients" in summaries:
                    summary.histogram("gradients/%s" % var_name, values)
                if "gradient_norm" in summaries:
                    summary.scalar("gradient_norm/%s" % var_name, global_norm([values]))
        if clip_gradients is not None and ("global_gradient_norm" in summaries or "gradient_norm" in summaries):
            summary.scalar("global_norm/clipped_gradient_norm", global_norm(list(zip(*gradients))[0]))
        grad_updates = opt.apply_gradients(gradients, global_step=global_step if increment_global_step else None,
                                           name="train")
        with ops.control_dependencies([grad_updates]):
            return core_ops.identity(loss)


# ---- summaries --------------------------------------------------------------------------------------------
def _add_scalar_summary(tensor, tag=None):
    from .. import summary
    tensor.get_shape().assert_has_rank(0)
    return summary.scalar(tag or "%s_summary" % tensor.op.name, tensor)


def _add_histogram_summary(tensor, tag=None):
    from .. import summary
    return summary.histogram(tag or "%s_summary" % tensor.op.name, tensor)


def summarize_activation(op):
    """Summarize an activation: a histogram "<op>/activation", plus the fraction of zeros
    ("<op>/zeros") for ReLU, Softplus and ReLU6 and of sixes ("<op>/sixes") for ReLU6.

    Args:
      op: The tensor to summarize (assumed to be a layer activation).

    Returns:
      The summary op created to summarize `op`.
    """
    from ..ops import math_ops
    if op.op.type in ("Relu", "Softplus", "Relu6"):
        x = op.op.inputs[0]
        _add_scalar_summary(math_ops.reduce_mean(math_ops.cast(math_ops.less(x, math_ops.cast(0.0, x.dtype)),
                                                               dtypes.float32)), "%s/zeros" % op.op.name)
    if op.op.type == "Relu6":
        x = op.op.inputs[0]
        _add_scalar_summary(math_ops.reduce_mean(math_ops.cast(math_ops.greater(x, math_ops.cast(6.0, x.dtype)),
                                                               dtypes.float32)), "%s/sixes" % op.op.name)
    return _add_histogram_summary(op, "%s/activation" % op.op.name)


def summarize_tensor(tensor, tag=None):
    """Summarize a tensor using a suitable summary type: a scalar summary for a scalar, else a
    histogram (tag "<op name>_summary" by default); None for string and bool tensors.

    Args:
      tensor: The tensor to summarize
      tag: The tag to use, if None then use tensor's op's name.

    Returns:
      The summary op created or None for string tensors.
    """
    if tensor.dtype.base_dtype in (dtypes.string, dtypes.bool_):
        return None
    if tensor.get_shape().ndims == 0:
        return _add_scalar_summary(tensor, tag)
    return _add_histogram_summary(tensor, tag)


def summarize_tensors(tensors, summarizer=summarize_tensor):
    """Summarize a set of tensors with `summarizer`.

    Args:
      tensors: The tensors (or variables) to summarize.
      summarizer: The function creating one summary.

    Returns:
      The list of summary ops.
    """
    return [summarizer(tensor) for tensor in tensors]


def summarize_collection(collection, name_filter=None, summarizer=summarize_tensor):
    """Summarize the tensors of a graph collection whose op names match `name_filter` (`re.match`).

    Args:
      collection: The collection name.
      name_filter: An optional regular expression.
      summarizer: The function creating one summary.

    Returns:
      The list of summary ops.
    """
    tensors = [t for t in ops.get_collection(collection) if name_filter is None or re.match(name_filter, t.op.name)]
    return summarize_tensors(tensors, summarizer)


summarize_variables = functools.partial(summarize_collection, ops.GraphKeys.GLOBAL_VARIABLES)
summarize_weights = functools.partial(summarize_collection, ops.GraphKeys.WEIGHTS)
summarize_biases = functools.partial(summarize_collection, ops.GraphKeys.BIASES)


def summarize_activations(name_filter=None, summarizer=summarize_activation):
    """Summarize the activations in the ACTIVATIONS collection (`summarize_activation` each).

    Args:
      name_filter: An optional regular expression on the op names.
      summarizer: The function creating the summaries of one activation.

    Returns:
      The list of summary ops.
    """
    return summarize_collection(ops.GraphKeys.ACTIVATIONS, name_filter, summarizer)
