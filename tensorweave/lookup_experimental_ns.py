"""`tf.lookup.experimental`: mutable lookup tables."""

from .ops.lookup_ops import MutableHashTable

__all__ = ["MutableHashTable"]
