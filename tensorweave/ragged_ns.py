"""`tf.ragged`: ragged tensors (`RaggedTensor` in `ops.ragged_tensor`, the functions in
`ops.ragged_factory_ops`)."""

from .ops.ragged_cross_ops import cross, cross_hashed
from .ops.ragged_factory_ops import (  # noqa: A004
                                     boolean_mask,
                                     constant,
                                     constant_value,
                                     map_flat_values,
                                     placeholder,
                                     range,
                                     row_splits_to_segment_ids,
                                     segment_ids_to_row_splits,
                                     stack,
                                     stack_dynamic_partitions,
)
from .ops.ragged_tensor import RaggedTensorValue

__all__ = ["RaggedTensorValue", "boolean_mask", "constant", "constant_value", "cross", "cross_hashed",
           "map_flat_values", "placeholder", "range", "row_splits_to_segment_ids", "segment_ids_to_row_splits",
           "stack", "stack_dynamic_partitions"]
