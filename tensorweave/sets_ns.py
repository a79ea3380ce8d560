"""`tf.sets`: set operations over the last dimension of dense or sparse tensors."""

from .ops.set_ops import set_difference, set_intersection, set_size, set_union
from .ops.set_ops import set_difference as difference
from .ops.set_ops import set_intersection as intersection
from .ops.set_ops import set_size as size
from .ops.set_ops import set_union as union

__all__ = ["difference", "intersection", "size", "union", "set_difference", "set_intersection", "set_size",
           "set_union"]
