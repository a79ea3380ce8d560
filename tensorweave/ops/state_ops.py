"""Variable ops: VariableV2 (reads the session's value), Assign/AssignAdd/AssignSub, initialization
checks. Values live in the Session (`ctx.variables[op_name]`), never in the graph."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import ALL_INPUTS, NO_GRADIENT, register_op
from ..framework.tensor_shape import as_shape
from .core_ops import same_as_input


def _freeze(value):
    """Stored values are read-only so kernels and fetches can share them without copying (NumPy
    scalars are immutable already)."""
    if isinstance(value, np.generic):
        return value
    if value.flags.writeable:
        value = np.array(value, copy=True)
        value.flags.writeable = False
    return value


# ---- VariableV2 --------------------------------------------------------------------------------
def _variable_kernel(ctx, op, shape, dtype, container, shared_name):
    try:
        return ctx.variables[op._name]
    except KeyError:
        raise errors.FailedPreconditionError(None, op, "Attempting to use uninitialized value %s" % op._name) \
            from None


register_op("VariableV2", infer=lambda op: [(op._attrs["dtype"], op._attrs["shape"])], kernel=_variable_kernel,
            grad=NO_GRADIENT, stateful=True, variable_read=True)


def variable_op_v2(shape, dtype, name="Variable", container="", shared_name=""):
    """Creates a VariableV2 op: its output reads the variable's value in the running session."""
    return ops.apply_op("VariableV2", [], {"shape": as_shape(shape).as_tuple(), "dtype": dtypes.as_dtype(dtype),
                                           "container": container, "shared_name": shared_name}, name=name)


def _ref_tensor(ref):
    if hasattr(ref, "_ref"):
        return ref._ref()
    if isinstance(ref, ops.Tensor) and ref.op.type == "VariableV2":
        return ref
    raise TypeError("'%s' requires a variable (reference) input, got %r" % ("Assign", ref))


# ---- Assign ------------------------------------------------------------------------------------
def _assign_infer(op):
    ref, value = op._inputs
    shape = value._shape
    if op._attrs["validate_shape"]:
        if not ref._shape.is_compatible_with(value._shape):
            raise ValueError("Shapes %s and %s are incompatible" % (ref._shape, value._shape))
        shape = ref._shape.merge_with(value._shape)
    return [(ref._dtype, shape.as_tuple())]


def _assign_kernel(ctx, op, key, value, validate_shape, use_locking):
    if validate_shape:
        want = op._inputs[0]._shape.as_tuple()
        if want is not None and want != value.shape and (len(want) != value.ndim or any(d is not None and d != s
                                                               for d, s in zip(want, value.shape))):
            raise errors.InvalidArgumentError(
                None, op, "Assign requires shapes of both tensors to match. lhs shape= %s rhs shape= %s"
                % (list(want), list(value.shape)))
    value = _freeze(value)
    ctx.variables[key] = value
    return value


register_op("Assign", infer=_assign_infer, kernel=_assign_kernel, grad=NO_GRADIENT, stateful=True,
            ref_inputs=(0,))


def _value_for(op_type, r, value):
    """Converts `value` to the variable's dtype; a tensor of another dtype is a TypeError, as TF."""
    if isinstance(value, ops.Tensor) and value.dtype is not r.dtype:
        raise TypeError("Input 'value' of '%s' Op has type %s that does not match type %s of argument 'ref'."
                        % (op_type, value.dtype.name, r.dtype.name))
    return ops.convert_to_tensor(value, dtype=r.dtype)


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """Stores `value` in the variable `ref`; the result is the new value.

    Raises:
      ValueError: If `validate_shape` and the static shapes are incompatible.
      TypeError: If `ref` is not a variable, or `value` is a tensor of another dtype.
    """
    r = _ref_tensor(ref)
    v = _value_for("Assign", r, value)
    return ops.apply_op("Assign", [r, v], {"validate_shape": True if validate_shape is None else validate_shape,
                                           "use_locking": bool(use_locking)}, name=name)


def _update_kernel(fn):
    def kernel(ctx, op, key, value, use_locking):
        old = ctx.read_variable(key, op)
        new = fn(old, value)
        if new.shape != old.shape:
            raise errors.InvalidArgumentError(None, op, "Update of variable %s changes its shape from %s to %s"
                                              % (key, old.shape, new.shape))
        new = _freeze(new.astype(old.dtype, copy=False))
        ctx.variables[key] = new
        return new
    return kernel


def _update_infer(op):
    ref, value = op._inputs
    if not ref._shape.is_compatible_with(value._shape) and value._shape.ndims != 0:
        raise ValueError("Shapes %s and %s are incompatible" % (ref._shape, value._shape))
    return [(ref._dtype, ref._shape.as_tuple())]


register_op("AssignAdd", infer=_update_infer, kernel=_update_kernel(lambda a, b: a + b), grad=NO_GRADIENT,
            stateful=True, ref_inputs=(0,))
register_op("AssignSub", infer=_update_infer, kernel=_update_kernel(lambda a, b: a - b), grad=NO_GRADIENT,
            stateful=True, ref_inputs=(0,))


def assign_add(ref, value, use_locking=None, name=None):
    """Adds `value` to the variable `ref`; the result is the new value."""
    r = _ref_tensor(ref)
    return ops.apply_op("AssignAdd", [r, _value_for("AssignAdd", r, value)],
                        {"use_locking": bool(use_locking)}, name=name)


def assign_sub(ref, value, use_locking=None, name=None):
    """Subtracts `value` from the variable `ref`; the result is the new value."""
    r = _ref_tensor(ref)
    return ops.apply_op("AssignSub", [r, _value_for("AssignSub", r, value)],
                        {"use_locking": bool(use_locking)}, name=name)


# ---- initialization checks ------------------------------------------------------------------
register_op("IsVariableInitialized", infer=lambda op: [(dtypes.bool_, ())],
            kernel=lambda ctx, op, key, dtype: np.bool_(key in ctx.variables), grad=NO_GRADIENT,
            stateful=True, ref_inputs=(0,))


def is_variable_initialized(ref, name=None):
    """A scalar bool: whether the variable has a value in the running session."""
    r = _ref_tensor(ref)
    return ops.apply_op("IsVariableInitialized", [r], {"dtype": r.dtype}, name=name)


def _report_kernel(ctx, op, *keys):
    return np.array([k.encode() for k in keys if k not in ctx.variables], dtype=object)


register_op("ReportUninitializedVariables", infer=lambda op: [(dtypes.string, (None,))], kernel=_report_kernel,
            grad=NO_GRADIENT, stateful=True, ref_inputs=ALL_INPUTS)


def _report_op(refs, name):
    g = refs[0].graph if refs else ops.get_default_graph()
    op = g._create_op("ReportUninitializedVariables", list(refs), {}, name)
    return op._outputs[0]


register_op("RefRead", infer=lambda op: [(op._inputs[0].dtype, op._inputs[0].shape.as_tuple())],
            kernel=lambda ctx, op, key: ctx.read_variable(key, op), grad=lambda op, grad: [grad], stateful=True,
            ref_inputs=(0,))


register_op("VariableOrInitial", infer=same_as_input,
            kernel=lambda ctx, op, key, init: ctx.variables.get(key, init), grad=NO_GRADIENT, stateful=True,
            ref_inputs=(0,))
