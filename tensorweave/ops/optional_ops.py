"""Optional values (TF's `gen_optional_ops` and `IteratorGetNextAsOptional`): a scalar `tf.variant`
holding either nothing or a tuple of component tensors.

- "OptionalFromValue": an optional holding its inputs.
- "OptionalNone": an empty optional.
- "OptionalHasValue": whether an optional holds a value (a `tf.bool` scalar).
- "OptionalGetValue": the components an optional holds (`InvalidArgumentError` if it is empty).
- "IteratorGetNextAsOptional": the next element of an iterator as an optional, empty at the end of
  the data (instead of `OutOfRangeError`).

A variant's value is a 0-d object array whose item is None (empty) or the tuple of component arrays.
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from . import iterator_ops

__all__ = ["iterator_get_next_as_optional", "optional_from_value", "optional_get_value", "optional_has_value",
           "optional_none"]


def _variant(value):
    out = np.empty((), dtype=object)
    out[()] = value
    return out


def _held(op, optional):
    if not isinstance(optional, np.ndarray) or optional.dtype != object or optional.shape != ():
        raise errors.InvalidArgumentError(None, op, "Input tensor must be a scalar DT_VARIANT tensor containing an "
                                          "Optional.")
    return optional[()]


def _variant_infer(op):
    return [(dtypes.variant, ())]


def _check_variant_input(op):
    t = op._inputs[0]
    if t.dtype != dtypes.variant:
        raise TypeError("Input 'optional' of '%s' Op has type %s that does not match expected type of variant."
                        % (op._type, t.dtype.name))
    if t._shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % t._shape.ndims)


# ---- OptionalFromValue / OptionalNone -----------------------------------------------------------
def _from_value_kernel(xp, *components):
    return _variant(tuple(np.asarray(c) for c in components))


def _from_value_grad(op, grad):
    specs = [(t.dtype, t._shape.as_tuple()) for t in op._inputs]
    outs = optional_get_value(grad, specs)
    return [outs] if isinstance(outs, ops.Tensor) else list(outs)


register_op("OptionalFromValue", infer=_variant_infer, kernel=_from_value_kernel, grad=_from_value_grad)
register_op("OptionalNone", infer=_variant_infer, kernel=lambda xp: _variant(None), grad=NO_GRADIENT)


def optional_from_value(components, name=None):
    """A scalar variant holding `components` (a list of tensors)."""
    return ops.apply_op("OptionalFromValue", [ops.convert_to_tensor(c) for c in components], {},
                        name=name or "OptionalFromValue")


def optional_none(name=None):
    """A scalar variant holding no value."""
    return ops.apply_op("OptionalNone", [], {}, name=name or "OptionalNone")


# ---- OptionalHasValue / OptionalGetValue --------------------------------------------------------
def _has_value_infer(op):
    _check_variant_input(op)
    return [(dtypes.bool_, ())]


def _has_value_kernel(ctx, op, optional):
    return np.array(_held(op, optional) is not None)


# Stateful: an optional from an iterator must not be folded (or shared between runs) by the compiler.
register_op("OptionalHasValue", infer=_has_value_infer, kernel=_has_value_kernel, grad=NO_GRADIENT, stateful=True)


def optional_has_value(optional, name=None):
    """A `tf.bool` scalar: whether `optional` holds a value."""
    return ops.apply_op("OptionalHasValue", [optional], {}, name=name or "OptionalHasValue")


def _get_value_infer(op):
    _check_variant_input(op)
    return list(op._attrs["output_specs"])


def _get_value_kernel(ctx, op, optional, output_specs):
    value = _held(op, optional)
    if value is None:
        raise errors.InvalidArgumentError(None, op, "The optional variant does not have a value.")
    if len(value) != len(output_specs):
        raise errors.InvalidArgumentError(None, op, "The expected number of components (%d) does not match the "
                                          "number of components in the optional (%d)." % (len(output_specs),
                                                                                          len(value)))
    return value[0] if len(value) == 1 else tuple(value)


def _get_value_grad(op, *grads):
    from . import core_ops
    grads = [g if g is not None else core_ops.zeros_like(o) for g, o in zip(grads, op._outputs)]
    return [optional_from_value(grads)]


register_op("OptionalGetValue", infer=_get_value_infer, kernel=_get_value_kernel, grad=_get_value_grad,
            stateful=True)


def optional_get_value(optional, output_specs, name=None):
    """The components `optional` holds (`output_specs`: a `(dtype, shape)` per component)."""
    return ops.apply_op("OptionalGetValue", [optional], {"output_specs": list(output_specs)},
                        name=name or "OptionalGetValue")


# ---- IteratorGetNextAsOptional ------------------------------------------------------------------
def _next_as_optional_kernel(ctx, op, handle, output_specs):
    st = ctx.op_state.get((iterator_ops._STATE_KEY, iterator_ops._handle_key(handle)))
    if st is None:
        raise errors.FailedPreconditionError(
            None, op, "GetNext() failed because the iterator has not been initialized. Ensure that you have run the "
            "initializer operation for this iterator before getting the next element.")
    el = st.get_next()
    return _variant(None if el is None else tuple(np.asarray(v) for v in el))


register_op("IteratorGetNextAsOptional", infer=_variant_infer, kernel=_next_as_optional_kernel, grad=NO_GRADIENT,
            stateful=True)


def iterator_get_next_as_optional(handle, output_specs, name=None):
    """The next element of the iterator `handle` names, as an optional (empty at the end)."""
    return ops.apply_op("IteratorGetNextAsOptional", [handle], {"output_specs": list(output_specs)},
                        name=name or "IteratorGetNextAsOptional")
