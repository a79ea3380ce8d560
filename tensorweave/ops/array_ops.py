"""Array ops: creating, reshaping, slicing, joining, gathering and scattering tensors, plus
`Tensor.__getitem__` and the auto-packing of lists that hold tensors.

The family is split into modules of one kind of op each: `array_helpers` (shared helpers),
`array_shape_ops` (fill/zeros/ones, range, reshape, size/rank, squeeze, expand_dims, broadcast_to),
`array_join_ops` (concat, stack, split, tile, auto-packing), `array_slice_ops` (slice, strided_slice,
`Tensor.__getitem__`), `array_gather_ops` (gather, gather_nd, scatter_nd, one_hot), `array_permute_ops`
(transpose, pad, reverse) and `array_select_ops` (where, unique, boolean_mask, sequence_mask, meshgrid,
top_k). This module re-exports their public names (and `shape`, from `core_ops`); importing it
registers the whole family.
"""

from .array_gather_ops import gather, gather_nd, one_hot, scatter_nd  # noqa: F401
from .array_helpers import newaxis  # noqa: F401
from .array_join_ops import concat, split, stack, tile, unstack  # noqa: F401
from .array_permute_ops import invert_permutation, pad, reverse, reverse_sequence, reverse_v2, transpose  # noqa: F401
from .array_select_ops import TopKV2, Unique, boolean_mask, meshgrid, sequence_mask, top_k, unique, where, where_v2  # noqa: F401
from .array_shape_ops import (  # noqa: F401
    broadcast_dynamic_shape,
    broadcast_static_shape,
    broadcast_to,
    expand_dims,
    fill,
    ones,
    range,
    rank,
    reshape,
    size,
    squeeze,
    zeros,
)
from .array_slice_ops import slice, strided_slice  # noqa: F401
from .core_ops import shape  # noqa: F401
