"""`tf.custom_gradient`: a function returning `(y, grad_fn)` gets `grad_fn` as its gradient. In graph
mode through an IdentityN op whose gradient is overridden; when executing eagerly the eager graph
records the results on the active tapes with `grad_fn` as their gradient (`EagerGraph._custom_gradient`,
`eager/backprop.py`)."""

import functools
import inspect
import itertools

from ..framework import ops
from ..framework.registry import RegisterGradient
from ..ops import core_ops

_ids = itertools.count()


def custom_gradient(f):
    """Decorator: `f(*xs)` returns `(ys, grad_fn)`; `grad_fn(*dys)` returns the gradients for `xs`.

    Example:
      @tf.custom_gradient
      def log1pexp(x):
          e = tf.exp(x)
          def grad(dy):
              return dy * (1 - 1 / (1 + e))
          return tf.log(1 + e), grad

    Raises:
      TypeError: If `f` does not return a `(result, grad_fn)` pair.
      ValueError: If `grad_fn` returns a different number of gradients than `f` has inputs.
    """

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        if ops.get_default_graph()._eager:
            return ops.get_default_graph()._custom_gradient(f, args, kwargs)
        args = [ops.convert_to_tensor(a) for a in args]
        out = f(*args, **kwargs)
        if not isinstance(out, tuple) or len(out) != 2 or not callable(out[1]):
            raise TypeError("A function decorated with tf.custom_gradient must return (result, grad_fn).")
        result, grad_fn = out
        is_list = isinstance(result, (list, tuple))
        flat = [ops.convert_to_tensor(r) for r in (result if is_list else [result])]
        n = len(flat)
        wants_vars = "variables" in inspect.signature(grad_fn).parameters
        name = "CustomGradient-%d" % next(_ids)

        @RegisterGradient(name)
        def _grad(op, *grads):
            dys = grads[:n]
            in_grads = grad_fn(*dys, variables=[]) if wants_vars else grad_fn(*dys)
            if wants_vars:
                in_grads = in_grads[0]
            in_grads = list(in_grads) if isinstance(in_grads, (list, tuple)) else [in_grads]
            if len(in_grads) != len(args):
                raise ValueError("custom_gradient function expected to return %d gradients, but returned %d "
                                 "instead." % (len(args), len(in_grads)))
            return [None] * n + in_grads

        g = ops.get_default_graph()
        with g.gradient_override_map({"IdentityN": name}):
            outs = core_ops.identity_n(flat + args)
        outs = outs[:n]
        if is_list:
            return type(result)(outs) if isinstance(result, tuple) else outs
        return outs[0]

    return wrapped
