"""TF1's raw-op spellings that old programs still call: `tf.arg_max` and `tf.arg_min` (the ArgMax and
ArgMin ops with a required `dimension`)."""

from ..framework import dtypes
from . import math_ops


def arg_max(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002 (TF's name)
    """Returns the index with the largest value across a dimension of a tensor (TF1's `tf.arg_max`,
    the raw ArgMax op: `tf.argmax` with a required `dimension`).

    Args:
      input: A real `Tensor`.
      dimension: The axis to reduce across (an int32 or int64 scalar), in `[-rank, rank)`.
      output_type: int32 or int64 (default).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `output_type`.

    Raises:
      ValueError: If the axis is out of range.
    """
    return math_ops.argmax(input, axis=dimension, name=name, output_type=output_type)


def arg_min(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002 (TF's name)
    """Returns the index with the smallest value across a dimension of a tensor (TF1's `tf.arg_min`,
    the raw ArgMin op: `tf.argmin` with a required `dimension`).

    Args:
      input: A real `Tensor`.
      dimension: The axis to reduce across (an int32 or int64 scalar), in `[-rank, rank)`.
      output_type: int32 or int64 (default).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `output_type`.

    Raises:
      ValueError: If the axis is out of range.
    """
    return math_ops.argmin(input, axis=dimension, name=name, output_type=output_type)
