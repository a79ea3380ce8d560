"""Running one op at once: the op's registered `infer` validates the inputs and gives the output
dtypes, its kernel computes the values, and active tapes record it."""

import numpy as np

from ..framework import dtypes, errors, ops, registry
from ..platform import fpstate
from . import context, tape
from .tensor import EagerTensor, VariableHandle, make, make_variant

__all__ = ["execute_op", "execute_like"]

_NO_SITE = ("<eager>", 0)


def _record(op_type, inputs, attrs, name, graph, grad_type, op_def=None):
    """An Operation record of an eager op: what infer, stateful kernels, tapes and gradient
    functions see (`inputs`, `outputs`, `get_attr`, `type`, `name`, `graph`)."""
    op = ops.Operation.__new__(ops.Operation)
    op._graph = graph
    op._name = name.rstrip("/") if name else op_type
    op._type = op_type
    op._inputs = inputs
    op._attrs = attrs
    op._op_def = op_def
    op._site = _NO_SITE
    op._grad_type = grad_type
    op._control_inputs = op._control_outputs = ()
    op._device = ""
    op._id = 0
    op._outputs = ()
    return op


def execute_op(op_type, inputs, attrs, name=None, grad_type=None):
    """Runs the op `op_type` on eager `inputs` and returns its record (outputs in `_outputs`).

    Raises:
      RuntimeError: If the default graph is not eager (an eager tensor used while building a graph),
        or for a Placeholder.
      TypeError: If an input is a graph tensor.
      tf.errors.OpError: If the op rejects its inputs or its kernel fails (InvalidArgumentError for
        bad shapes or dtypes), with "[Op:<type>]" in the message, as TF.
    """
    graph = ops.get_default_graph()
    if not graph._eager:
        raise RuntimeError("Attempting to capture an EagerTensor without building a function.")
    if op_type == "Placeholder":
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    for t in inputs:
        if not isinstance(t, EagerTensor):
            raise TypeError("An op outside of the function building code is being passed a \"Graph\" tensor (%s, "
                            "input of %s)." % (t, op_type))
    op_def = registry.get_op_def(op_type)
    if tape._stack and op_def.records_for_gradient:  # the gradient is built after the op ran
        attrs = dict(attrs, _record=True)
    if grad_type is None and graph._gradient_override_map:
        grad_type = graph._gradient_override_map.get(op_type)
    op = _record(op_type, inputs, attrs, name, graph, grad_type, op_def)
    try:
        specs = op_def.infer(op)
    except (ValueError, TypeError) as e:
        raise _error(errors.InvalidArgumentError(None, op, str(e)), op, name) from e
    refs = op_def.ref_inputs
    if refs:
        args = []
        for i, t in enumerate(inputs):
            if i in refs:
                if not isinstance(t, VariableHandle):
                    raise TypeError("'%s' requires a variable (reference) input, got %r" % (op_type, t))
                args.append(t._key)
            else:
                args.append(t._value)
    else:
        args = [t._value for t in inputs]
    kw = attrs
    for k in attrs:
        if k[0] == "_":
            kw = {k: v for k, v in attrs.items() if k[0] != "_"}
            break
    ctx = context._context
    try:
        with fpstate.quiet():
            if op_def.stateful:
                st = ctx.op_state
                saved = st._scratch
                st._scratch = {}
                try:
                    out = op_def.kernel(ctx, op, *args, **kw)
                finally:
                    st._scratch = saved
            else:
                out = op_def.kernel(np, *args, **kw)
    except Exception as e:
        raise _error(e, op, name) from errors.cause_of(e)
    n = len(specs)
    if n == 1:
        op._outputs = [_wrap(out, specs[0])]
    elif n:
        op._outputs = [_wrap(v, s) for v, s in zip(out, specs)]
    if tape._stack:
        tape.record(op)
    return op


def execute_like(op, inputs):
    """Runs a graph op's type and attributes eagerly on `inputs` (interpreting a traced graph)."""
    return execute_op(op._type, inputs, op._attrs, None, op._grad_type)


def _wrap(value, spec):
    dt, shape = spec
    if dt is dtypes.variant:
        return make_variant(value, dt, shape)
    if type(value) is not np.ndarray:
        value = np.asarray(value, dtype=object if dt is dtypes.string else dt.as_numpy_dtype)
    return make(value, dt)


def _error(exc, op, name):
    """The tf.errors class for a kernel's (or infer's) exception, its message ending in
    "[Op:<type>]" (and " name: <name>" for a named op), as TF's eager errors."""
    err = errors.wrap_kernel_error(exc, None)
    msg = "%s [Op:%s]" % (err.message, op._type)
    if name and name.rstrip("/"):
        msg += " name: %s" % name.rstrip("/")
    return type(err)(None, op, msg)
