"""Bucketize (TF's `math_ops._bucketize`): the index of the bucket of each element given sorted
boundaries; the bucketing op of `tf.feature_column.bucketized_column`."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["bucketize"]

_TYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


def _infer(op):
    return [(dtypes.int32, op.inputs[0].shape)]


def _kernel(xp, input, boundaries):  # noqa: A002 (TF's argument name)
    # Element i goes to bucket j where boundaries[j-1] <= x < boundaries[j] (std::upper_bound); NaN past the end.
    return np.searchsorted(np.asarray(boundaries, dtype=np.float64), input.astype(np.float64),
                           side="right").astype(np.int32)


register_op("Bucketize", infer=_infer, kernel=_kernel, grad=NO_GRADIENT)


def bucketize(input, boundaries, name=None):  # noqa: A002
    """Buckets `input` by `boundaries`: element `x` becomes the number of boundaries `<= x`.

    Args:
      input: A Tensor of int32, int64, float32 or float64.
      boundaries: A sorted list of floats.
      name: A name for the operation (default "Bucketize").

    Returns:
      An int32 Tensor of `input`'s shape.

    Raises:
      TypeError: If `input`'s dtype is not one of those.
      InvalidArgumentError: If `boundaries` is not sorted.
    """
    with ops.name_scope(name, "Bucketize", [input]) as scope:
        input = ops.convert_to_tensor(input, name="input")
        if input.dtype.base_dtype not in _TYPES:
            raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: %s"
                            % (input.dtype.name, ", ".join(t.name for t in _TYPES)))
        boundaries = [float(b) for b in boundaries]
        if any(b > a for a, b in zip(boundaries[1:], boundaries[:-1])):
            raise errors.InvalidArgumentError(None, None, "Bucketize: Expected sorted boundaries")
        return ops.apply_op("Bucketize", [input], {"boundaries": boundaries}, name=scope)
