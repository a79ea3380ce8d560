"""`tf.sparse`: sparse tensors."""

from .framework.sparse_tensor import SparseTensor, SparseTensorValue
from .ops.segment_ops import sparse_segment_mean as segment_mean
from .ops.segment_ops import sparse_segment_sqrt_n as segment_sqrt_n
from .ops.segment_ops import sparse_segment_sum as segment_sum
from .ops.sparse_ops import sparse_tensor_to_dense as to_dense

__all__ = ["SparseTensor", "SparseTensorValue", "to_dense"]
__all__ += ["segment_mean", "segment_sqrt_n", "segment_sum"]
