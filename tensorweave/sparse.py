"""`tf.sparse`: sparse tensors."""

from .framework.sparse_tensor import SparseTensor, SparseTensorValue
from .ops.sparse_ops import sparse_tensor_to_dense as to_dense

__all__ = ["SparseTensor", "SparseTensorValue", "to_dense"]
