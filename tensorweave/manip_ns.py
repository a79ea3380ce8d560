"""`tf.manip`: TF1's namespace of tensor-manipulation ops (aliases of the top-level names)."""

from .ops.array_ops import gather_nd, reshape, reverse, scatter_nd, tile
from .ops.array_space_ops import batch_to_space_nd, space_to_batch_nd
from .ops.math_sort_ops import roll

__all__ = ["batch_to_space_nd", "gather_nd", "reshape", "reverse", "roll", "scatter_nd", "space_to_batch_nd", "tile"]
