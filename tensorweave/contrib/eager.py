"""`tf.contrib.eager`: eager execution helpers under their TF1 contrib names: the tape-based
gradient functions (`implicit_gradients`, `gradients_function`, ...) and `Iterator`."""

import inspect as _inspect

from ..data.dataset_base import Dataset as _Dataset
from ..data.iterator_ops import EagerIterator as _EagerIterator
from ..eager.backprop import GradientTape
from ..eager.context import enable_eager_execution, executing_eagerly
from ..eager.function import defun
from ..framework import ops as _ops
from ..gradients.custom_gradient import custom_gradient
from ..ops import core_ops as _core_ops
from ..ops import nest as _nest
from ..variables import Variable


def in_eager_mode():
    """Whether ops run eagerly (`tf.contrib.eager.in_eager_mode`, an alias of `executing_eagerly`)."""
    return executing_eagerly()


def num_gpus():
    """The number of GPUs eager ops can use: always 0 (kernels run on the CPU with NumPy)."""
    return 0


# ---- gradients of Python functions ------------------------------------------------------------------
def implicit_value_and_gradients(f):
    """Returns a function that computes `f` and its gradients with respect to the trainable variables
    it reads (TF1's `tfe.implicit_value_and_gradients`).

    Example:

        def loss(x):
            return w * x
        val_grad = tf.contrib.eager.implicit_value_and_gradients(loss)
        value, grads_and_vars = val_grad(3.0)   # value 3 * w, [(3.0, w)]

    Args:
      f: A function returning a tensor (or a nest of tensors, whose sum is differentiated).

    Returns:
      A function taking `f`'s arguments and returning `(value, [(gradient, variable), ...])`, the
      variables in the order `f` first read them.

    Raises (when the returned function is called):
      ValueError: If `f` returns None, or reads no trainable variable.
    """
    def grad_fn(*args, **kwds):
        with GradientTape() as tape:
            end_node = f(*args, **kwds)
            if end_node is None:
                raise ValueError("Cannot differentiate a function that returns None; did you forget to return a "
                                 "value from {}?".format(getattr(f, "__name__", f)))
        variables = list(tape.watched_variables())
        if not variables:
            raise ValueError("No trainable variables were accessed while the function was being computed.")
        grads = tape.gradient(_nest.flatten(end_node), variables)
        return end_node, list(zip(grads, variables))

    return grad_fn


def implicit_gradients(f):
    """Returns a function that computes the gradients of `f` with respect to the trainable variables
    it reads (TF1's `tfe.implicit_gradients`).

    Args:
      f: A function returning a tensor (or a nest of tensors, whose sum is differentiated).

    Returns:
      A function taking `f`'s arguments and returning a list of `(gradient, variable)` pairs, ready
      for `Optimizer.apply_gradients`.

    Raises (when the returned function is called):
      ValueError: If `f` returns None, or reads no trainable variable.
    """
    def grad_fn(*args, **kwds):
        return implicit_value_and_gradients(f)(*args, **kwds)[1]

    return grad_fn


def _parameter_positions(f, params, param_args):
    """The positions of the arguments of `f` to differentiate."""
    try:
        spec = _inspect.getfullargspec(f)
        args = spec.args
    except TypeError as e:
        if params is None:
            return range(len(param_args))
        if all(isinstance(x, int) for x in params):
            return params
        raise ValueError("Either callable provided is not a function or could not inspect its arguments by name: "
                         "%s. Original error: %s" % (f, e)) from None
    if params is None:
        if not args:
            return range(len(param_args))
        if args[0] == "self":
            return range(len(args) - 1)
        return range(len(args))
    if all(isinstance(x, str) for x in params):
        return [args.index(n) for n in params]
    if all(isinstance(x, int) for x in params):
        return params
    raise ValueError("params must be all strings or all integers; got %s." % (params,))


def value_and_gradients_function(f, params=None):
    """Returns a function that computes `f` and its gradients with respect to its arguments (TF1's
    `tfe.value_and_gradients_function`).

    Args:
      f: The function to differentiate. If it returns a nest of tensors, their sum is differentiated.
      params: The arguments to differentiate: a list of parameter names or of positions (default:
        all of them).

    Returns:
      A function taking `f`'s positional arguments (and an optional keyword argument `dy`, the
      gradients of `f`'s outputs, default ones) and returning `(value, gradients)`, one gradient
      (or None) per differentiated argument.

    Raises (when the returned function is called):
      ValueError: If `f` returns None, is given other keyword arguments, or `params` mixes names and
        positions.
    """
    def decorated(*args, **kwds):
        dy = kwds.pop("dy", None)
        if kwds:
            raise ValueError("Functions to be differentiated cannot receive keyword arguments.")
        positions = list(_parameter_positions(f, params, args))
        with GradientTape(persistent=True) as tape:
            args = [_ops.convert_to_tensor(a) if i in positions else a for i, a in enumerate(args)]
            seen = set()
            for i in positions:  # the same tensor passed twice gets two gradients
                if id(args[i]) in seen:
                    args[i] = _core_ops.identity(args[i])
                seen.add(id(args[i]))
            sources = [args[i] for i in positions]
            for s in sources:
                tape.watch(s)
            result = f(*args)
            if result is None:
                raise ValueError("Cannot differentiate a function that returns None; did you forget to return a "
                                 "value from {}?".format(getattr(f, "__name__", f)))
            result = _nest.pack_sequence_as(result, [_core_ops.identity(x) for x in _nest.flatten(result)])
        if dy is not None:
            dy = [_ops.convert_to_tensor(x) for x in _nest.flatten(dy)]
        grads = tape.gradient(_nest.flatten(result), sources, output_gradients=dy)
        return result, list(grads)

    return decorated


def gradients_function(f, params=None):
    """Returns a function that computes the gradients of `f` with respect to its arguments (TF1's
    `tfe.gradients_function`).

    Example:

        grad = tf.contrib.eager.gradients_function(lambda x: x * x)
        grad(3.0)   # [6.0]

    Args:
      f: The function to differentiate. If it returns a nest of tensors, their sum is differentiated.
      params: The arguments to differentiate: a list of parameter names or of positions (default:
        all of them).

    Returns:
      A function taking `f`'s positional arguments (and an optional keyword argument `dy`) and
      returning the list of gradients, one per differentiated argument.

    Raises (when the returned function is called):
      ValueError: As `value_and_gradients_function`.
    """
    def decorated(*args, **kwds):
        return value_and_gradients_function(f, params=params)(*args, **kwds)[1]

    return decorated


# ---- Iterator ------------------------------------------------------------------------------------------
class Iterator(_EagerIterator):
    """An iterator over a `tf.data.Dataset` in eager mode (TF1's `tf.contrib.eager.Iterator`): Python
    iteration, `next()` and `get_next()` give the elements as eager tensors.

    Args:
      dataset: A `tf.data.Dataset`.

    Raises:
      RuntimeError: When eager execution is not enabled.
      TypeError: If `dataset` is not a `tf.data.Dataset`.
    """

    def __init__(self, dataset):
        if not executing_eagerly():
            raise RuntimeError("tf.contrib.eager.Iterator objects can only be used when eager execution is enabled, "
                               "use tf.data.Dataset.make_initializable_iterator or "
                               "tf.data.Dataset.make_one_shot_iterator for graph construction")
        if not isinstance(dataset, _Dataset):
            raise TypeError("dataset must be a tf.data.Dataset, got %r" % (dataset,))
        super().__init__(dataset)


__all__ = ["GradientTape", "Iterator", "Variable", "custom_gradient", "defun", "enable_eager_execution",
           "executing_eagerly", "gradients_function", "implicit_gradients", "implicit_value_and_gradients",
           "in_eager_mode", "num_gpus", "value_and_gradients_function"]
