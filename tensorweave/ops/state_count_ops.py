"""CountUpTo: increments an integer variable until it reaches a limit (TF1's `tf.count_up_to`)."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from .state_ops import _freeze, _ref_tensor

__all__ = ["count_up_to"]


def _count_up_to_infer(op):
    ref = op._inputs[0]
    if ref._dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'ref' has DataType %s not in list of allowed values: int32, int64"
                        % ref._dtype.name)
    d = ref._shape.as_tuple()
    if d is not None and len(d) != 0:
        raise ValueError("Shape must be rank 0 but is rank %d" % len(d))
    return [(ref._dtype, ())]


def _count_up_to_kernel(ctx, op, key, limit):
    with ctx.lock:  # read and increment atomically: several input threads may count one epoch variable
        old = ctx.read_variable(key, op)
        if np.ndim(old) != 0:
            raise errors.InvalidArgumentError(None, op, "input is not a scalar: %s" % (list(np.shape(old)),))
        if old >= limit:
            raise errors.OutOfRangeError(None, op, "Reached limit of %d" % limit)
        ctx.variables[key] = _freeze(np.asarray(old + old.dtype.type(1), dtype=old.dtype))
    return np.asarray(old).copy()


register_op("CountUpTo", infer=_count_up_to_infer, kernel=_count_up_to_kernel, grad=NO_GRADIENT, stateful=True,
            ref_inputs=(0,))


def count_up_to(ref, limit, name=None):
    """Increments `ref` until it reaches `limit`.

    Args:
      ref: A scalar int32/int64 variable (a `Variable` or its reference tensor).
      limit: An int. If incrementing `ref` would bring it above `limit`, the run raises
        `OutOfRangeError`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the variable's type: a copy of the value before the increment.

    Raises:
      TypeError: If `ref` is not an int32/int64 variable.
      ValueError: If `ref` is not a scalar.
      OutOfRangeError: At run time, when the value is already `limit`.
    """
    r = _ref_tensor(ref)
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)):
        raise TypeError("Expected int for argument 'limit' not %r." % (limit,))
    return ops.apply_op("CountUpTo", [r], {"limit": int(limit)}, name=name)
