"""`tf.bitwise`: bitwise operations of integer tensors (each defined in `ops.math_bitwise_ops`)."""

from .ops.math_bitwise_ops import bitwise_and, bitwise_or, bitwise_xor, invert, left_shift, right_shift

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]
