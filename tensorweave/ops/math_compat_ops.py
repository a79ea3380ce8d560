"""TF1's raw-op spellings that old programs still call: `tf.arg_max` and `tf.arg_min` (the ArgMax and
ArgMin ops with a required `dimension`)."""

from ..framework import dtypes
from . import math_ops


def _raw_arg(func_name, target, extreme, op_type):
    """TF1's `func_name` (raw op `op_type`): `target` (`math_ops.argmax` or `argmin`) with a required
    `dimension`; `extreme` ("largest" or "smallest") words its docstring."""
    def fn(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002 (TF's name)
        return target(input, axis=dimension, name=name, output_type=output_type)

    fn.__name__ = fn.__qualname__ = func_name
    fn.__doc__ = """Returns the index with the %s value across a dimension of a tensor (TF1's `tf.%s`,
    the raw %s op: `tf.%s` with a required `dimension`).

    Args:
      input: A real `Tensor`.
      dimension: The axis to reduce across (an int32 or int64 scalar), in `[-rank, rank)`.
      output_type: int32 or int64 (default).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `output_type`.

    Raises:
      ValueError: If the axis is out of range.
    """ % (extreme, func_name, op_type, target.__name__)
    return fn


arg_max = _raw_arg("arg_max", math_ops.argmax, "largest", "ArgMax")
arg_min = _raw_arg("arg_min", math_ops.argmin, "smallest", "ArgMin")
