"""Array ops that move data between the batch, space and depth dimensions: SpaceToBatchND,
BatchToSpaceND, DepthToSpace and SpaceToDepth, with TF1's wrappers (`space_to_batch_nd`,
`batch_to_space_nd`, `space_to_batch`, `batch_to_space`, `depth_to_space`, `space_to_depth`,
`required_space_to_batch_paddings`, `nn.with_space_to_batch`)."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .array_helpers import _INDEX_DTYPES, _check_dtype, _dims, _fmt, _invalid, _prange, _value

__all__ = ["space_to_batch_nd", "batch_to_space_nd", "space_to_batch", "batch_to_space", "depth_to_space",
           "space_to_depth", "required_space_to_batch_paddings", "with_space_to_batch"]


# ---- shared static helpers ------------------------------------------------------------------------
def _rank_check(dims, rank, exact=False):
    if dims is None:
        return
    if exact and len(dims) != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(dims)))
    if not exact and len(dims) < rank:
        raise ValueError("Shape must be at least rank %d but is rank %d" % (rank, len(dims)))


def _block_and_pairs(op, op_type, pair_arg):
    """Static checks shared by SpaceToBatchND/BatchToSpaceND: the number of block dimensions M (or
    None), the block values and the [M, 2] pairs (paddings or crops) when known."""
    x, block, pairs = op._inputs
    _check_dtype(block, _INDEX_DTYPES, "block_shape", op_type)
    _check_dtype(pairs, _INDEX_DTYPES, pair_arg, op_type)
    bd, pd = _dims(block), _dims(pairs)
    _rank_check(bd, 1, exact=True)
    _rank_check(pd, 2, exact=True)
    m = bd[0] if bd is not None else None
    if pd is not None:
        if pd[1] is not None and pd[1] != 2:
            raise ValueError("Dimension 1 in both shapes must be equal, but are %d and 2. Shapes are %s and [?,2]."
                             % (pd[1], _fmt(pd)))
        if m is None:
            m = pd[0]
        elif pd[0] is not None and pd[0] != m:
            raise ValueError("Dimension 0 in both shapes must be equal, but are %d and %d. Shapes are %s and [%d,2]."
                             % (pd[0], m, _fmt(pd), m))
    if m is not None:
        _rank_check(_dims(x), m + 1)
    bv, pv = _value(block), _value(pairs)
    bv = None if bv is None else [int(v) for v in np.reshape(bv, -1)]
    pv = None if pv is None else np.asarray(pv, np.int64).reshape(-1, 2)
    if bv is not None:
        for i, b in enumerate(bv):
            if b < 1:
                raise ValueError("block_shape must be positive, got %d at index %d" % (b, i))
    if pv is not None and (pv < 0).any():
        raise ValueError("%s must be non-negative" % ("Paddings" if pair_arg == "paddings" else "Crops"))
    return m, bv, pv


def _divisible(size, by):
    if size % by:
        raise ValueError("Dimension size must be evenly divisible by %d but is %d" % (by, size))
    return size // by


# ---- SpaceToBatchND ----------------------------------------------------------------------------------
def _space_to_batch_infer(op):
    x = op._inputs[0]
    m, bv, pv = _block_and_pairs(op, "SpaceToBatchND", "paddings")
    xd = _dims(x)
    if xd is None or m is None:
        return [(x._dtype, None)]
    out = list(xd)
    out[0] = None if bv is None or xd[0] is None else xd[0] * int(np.prod(bv, dtype=np.int64))
    for i in _prange(m):
        d = xd[i + 1]
        if bv is None or pv is None or d is None:
            out[i + 1] = None
        else:
            out[i + 1] = _divisible(d + int(pv[i, 0]) + int(pv[i, 1]), bv[i])
    return [(x._dtype, tuple(out))]


def _check_block(block, m_from, what):
    if block.ndim != 1:
        raise _invalid("block_shape must be one-dimensional")
    for i, b in enumerate(block.tolist()):
        if b < 1:
            raise _invalid("All values in block_shape must be positive, got value, %d at index %d." % (b, i))
    if what.ndim != 2 or what.shape != (block.shape[0], 2):
        raise _invalid("%s should have shape [%d, 2] instead of %s" % (m_from, block.shape[0], _fmt(what.shape)))


def _space_to_batch_kernel(xp, x, block, paddings):
    block = np.asarray(block, np.int64)
    paddings = np.asarray(paddings, np.int64)
    _check_block(block, "paddings", paddings)
    m = block.shape[0]
    if x.ndim < m + 1:
        raise _invalid("input rank should be >= %d instead of %d" % (m + 1, x.ndim))
    if (paddings < 0).any():
        raise _invalid("Paddings must be non-negative")
    bs = [int(b) for b in block]
    padded = [x.shape[i + 1] + int(paddings[i, 0]) + int(paddings[i, 1]) for i in _prange(m)]
    for i in _prange(m):
        if padded[i] % bs[i]:
            raise _invalid("padded_shape[%d]=%d is not divisible by block_shape[%d]=%d" % (i, padded[i], i, bs[i]))
    if paddings.any():
        x = xp.pad(x, [(0, 0)] + [(int(p0), int(p1)) for p0, p1 in paddings] + [(0, 0)] * (x.ndim - m - 1))
    batch, rest = x.shape[0], x.shape[m + 1:]
    split = [batch]
    for i in _prange(m):
        split += [padded[i] // bs[i], bs[i]]
    y = x.reshape(split + list(rest))
    # [B, s1, b1, ..., sM, bM, R...] -> [b1, ..., bM, B, s1, ..., sM, R...]
    perm = [2 + 2 * i for i in _prange(m)] + [0] + [1 + 2 * i for i in _prange(m)] \
        + list(_prange(1 + 2 * m, y.ndim))
    y = xp.transpose(y, perm)
    return xp.ascontiguousarray(y).reshape([batch * int(np.prod(bs, dtype=np.int64))]
                                           + [padded[i] // bs[i] for i in _prange(m)] + list(rest))


def _space_to_batch_grad(op, grad):
    _, block, paddings = op._inputs
    return [batch_to_space_nd(grad, block, paddings), None, None]


# ---- BatchToSpaceND ----------------------------------------------------------------------------------
def _batch_to_space_infer(op):
    x = op._inputs[0]
    m, bv, cv = _block_and_pairs(op, "BatchToSpaceND", "crops")
    xd = _dims(x)
    if xd is None or m is None:
        return [(x._dtype, None)]
    out = list(xd)
    if bv is None or xd[0] is None:
        out[0] = None
    else:
        b0 = xd[0]
        for b in bv:
            b0 = _divisible(b0, b)
        out[0] = b0
    for i in _prange(m):
        d = xd[i + 1]
        if bv is None or cv is None or d is None:
            out[i + 1] = None
        else:
            size = d * bv[i] - int(cv[i, 0]) - int(cv[i, 1])
            if size < 0:
                raise ValueError("Negative dimension size caused by subtracting crops from %d" % (d * bv[i]))
            out[i + 1] = size
    return [(x._dtype, tuple(out))]


def _batch_to_space_kernel(xp, x, block, crops):
    block = np.asarray(block, np.int64)
    crops = np.asarray(crops, np.int64)
    _check_block(block, "crops", crops)
    m = block.shape[0]
    if x.ndim < m + 1:
        raise _invalid("input rank should be >= %d instead of %d" % (m + 1, x.ndim))
    if (crops < 0).any():
        raise _invalid("Crops must be non-negative")
    bs = [int(b) for b in block]
    prod = int(np.prod(bs, dtype=np.int64))
    if x.shape[0] % prod:
        raise _invalid("Input batch dimension (%d) is not divisible by product of block sizes (%d)"
                       % (x.shape[0], prod))
    full = [x.shape[i + 1] * bs[i] for i in _prange(m)]
    for i in _prange(m):
        cropped = full[i] - int(crops[i, 0]) - int(crops[i, 1])
        if cropped < 0:
            raise _invalid("cropped_shape[%d]=%d must be non-negative" % (i, cropped))
    batch, rest = x.shape[0] // prod, x.shape[m + 1:]
    y = x.reshape(bs + [batch] + list(x.shape[1:]))
    # [b1, ..., bM, B, s1, ..., sM, R...] -> [B, s1, b1, ..., sM, bM, R...]
    perm = [m]
    for i in _prange(m):
        perm += [m + 1 + i, i]
    perm += list(_prange(2 * m + 1, y.ndim))
    y = xp.ascontiguousarray(xp.transpose(y, perm)).reshape([batch] + full + list(rest))
    index = (slice(None),) + tuple(slice(int(c0), f - int(c1)) for (c0, c1), f in zip(crops, full))
    return xp.ascontiguousarray(y[index])


def _batch_to_space_grad(op, grad):
    _, block, crops = op._inputs
    return [space_to_batch_nd(grad, block, crops), None, None]


register_op("SpaceToBatchND", infer=_space_to_batch_infer, kernel=_space_to_batch_kernel, grad=_space_to_batch_grad,
            gpu=True, host_inputs=(1, 2))
register_op("BatchToSpaceND", infer=_batch_to_space_infer, kernel=_batch_to_space_kernel, grad=_batch_to_space_grad,
            gpu=True, host_inputs=(1, 2))


def _index_args(block_shape, pairs, pair_name):
    """Converts block_shape and paddings/crops to int tensors (int32 unless given as int64 tensors)."""
    block = ops.convert_to_tensor(block_shape, name="block_shape", preferred_dtype=dtypes.int32)
    pairs = ops.convert_to_tensor(pairs, name=pair_name, preferred_dtype=dtypes.int32)
    return block, pairs


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """SpaceToBatch for N-D tensors of type T.

    Zero-pads the `M` spatial dimensions `input.shape[1:M + 1]` by `paddings`, divides each into
    blocks of `block_shape`, and moves the block positions into the batch dimension: the result has
    shape `[batch * prod(block_shape), padded_shape[1] / block_shape[0], ...,
    padded_shape[M] / block_shape[M - 1]] + input.shape[M + 1:]`.

    Args:
      input: An N-D `Tensor` with shape `[batch] + spatial_shape + remaining_shape` (spatial rank `M`).
      block_shape: A 1-D int32/int64 `Tensor` of shape `[M]`, all values >= 1.
      paddings: A 2-D int32/int64 `Tensor` of shape `[M, 2]`, all values >= 0: the zero padding
        at the start and end of each spatial dimension.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same type as `input`.

    Raises:
      ValueError: For static shapes or values that cannot work (ranks, divisibility).
      InvalidArgumentError: At run time, for the same conditions on the actual values.
    """
    x = ops.convert_to_tensor(input, name="input")
    block, pads = _index_args(block_shape, paddings, "paddings")
    return ops.apply_op("SpaceToBatchND", [x, block, pads], {}, name=name)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    """BatchToSpace for N-D tensors of type T: the inverse of `space_to_batch_nd`.

    Splits the batch dimension into `prod(block_shape)` blocks, interleaves them into the `M` spatial
    dimensions `input.shape[1:M + 1]` and crops the result by `crops`.

    Args:
      input: An N-D `Tensor` with shape `[batch] + spatial_shape + remaining_shape`; `batch` must be
        divisible by `prod(block_shape)`.
      block_shape: A 1-D int32/int64 `Tensor` of shape `[M]`, all values >= 1.
      crops: A 2-D int32/int64 `Tensor` of shape `[M, 2]`, all values >= 0: the amount to crop from
        the start and end of each spatial dimension.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same type as `input`.

    Raises:
      ValueError: For static shapes or values that cannot work.
      InvalidArgumentError: At run time, for the same conditions on the actual values.
    """
    x = ops.convert_to_tensor(input, name="input")
    block, crops = _index_args(block_shape, crops, "crops")
    return ops.apply_op("BatchToSpaceND", [x, block, crops], {}, name=name)


def _block_size(block_size, block_shape, fn):
    if block_shape is not None:
        if block_size is not None:
            raise ValueError("Cannot specify both 'block_shape' and 'block_size'")
        return block_shape
    if block_size is None:
        raise TypeError("%s() missing required argument: 'block_size'" % fn)
    return block_size


def _set_rank_4(t):
    t.set_shape(t.shape.with_rank(4))
    return t


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002
    """SpaceToBatch for 4-D tensors (TF1's signature): `space_to_batch_nd` with the square block
    `[block_size, block_size]` over the two spatial dimensions of an NHWC tensor.

    Args:
      input: A 4-D `Tensor` with shape `[batch, height, width, depth]`.
      paddings: A 2-D int32/int64 `Tensor` of shape `[2, 2]`.
      block_size: An int >= 1 (`block_shape` is a deprecated alias).
      name: A name for the operation (optional).
      block_shape: Deprecated alias of `block_size`.

    Returns:
      A 4-D `Tensor` of the same type as `input`.

    Raises:
      ValueError: If `input` is not 4-D, or for sizes that cannot work.
    """
    block_size = _block_size(block_size, block_shape, "space_to_batch")
    result = space_to_batch_nd(input, np.array([block_size, block_size], dtype=np.int64), paddings, name=name)
    return _set_rank_4(result)


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """BatchToSpace for 4-D tensors (TF1's signature): `batch_to_space_nd` with the square block
    `[block_size, block_size]`.

    Args:
      input: A 4-D `Tensor` with shape `[batch * block_size * block_size, height, width, depth]`.
      crops: A 2-D int32/int64 `Tensor` of shape `[2, 2]`.
      block_size: An int >= 1.
      name: A name for the operation (optional).
      block_shape: Deprecated alias of `block_size`.

    Returns:
      A 4-D `Tensor` of the same type as `input`.

    Raises:
      ValueError: If `input` is not 4-D, or for sizes that cannot work.
    """
    block_size = _block_size(block_size, block_shape, "batch_to_space")
    result = batch_to_space_nd(input, np.array([block_size, block_size], dtype=np.int64), crops, name=name)
    return _set_rank_4(result)


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """Calculates the paddings (and crops) that make `input_shape` divisible by `block_shape`.

    Returns `paddings` and `crops` with `paddings[i, 0] = base_paddings[i, 0]`,
    `0 <= paddings[i, 1] - base_paddings[i, 1] < block_shape[i]`,
    `(input_shape[i] + paddings[i, 0] + paddings[i, 1]) % block_shape[i] == 0`,
    `crops[i, 0] = 0` and `crops[i, 1] = paddings[i, 1] - base_paddings[i, 1]`.

    Args:
      input_shape: An int32 `Tensor` of shape `[N]`.
      block_shape: An int32 `Tensor` of shape `[N]`.
      base_paddings: Optional int32 `Tensor` of shape `[N, 2]` (default zeros).
      name: A name scope (optional).

    Returns:
      `(paddings, crops)`: int32 `Tensor`s of shape `[N, 2]`.

    Raises:
      ValueError: If the shapes of the arguments are not as described.
    """
    from .array_join_ops import stack
    from .array_shape_ops import zeros
    from .math_binary_ops import add, floormod, subtract
    with ops.name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
        input_shape = ops.convert_to_tensor(input_shape, dtype=dtypes.int32, name="input_shape")
        block_shape = ops.convert_to_tensor(block_shape, dtype=dtypes.int32, name="block_shape")
        block_shape.shape.assert_is_fully_defined()
        block_shape.shape.assert_has_rank(1)
        num_block_dims = block_shape.shape.dims[0].value
        if num_block_dims == 0:
            return zeros([0, 2], dtypes.int32), zeros([0, 2], dtypes.int32)
        input_shape.shape.assert_is_compatible_with([num_block_dims])
        if base_paddings is not None:
            base_paddings = ops.convert_to_tensor(base_paddings, dtype=dtypes.int32, name="base_paddings")
            base_paddings.shape.assert_is_compatible_with([num_block_dims, 2])
        else:
            base_paddings = zeros([num_block_dims, 2], dtypes.int32)
        const_block = _value(block_shape)
        const_input = _value(input_shape)
        const_base = _value(base_paddings)
        if const_block is not None and const_input is not None and const_base is not None:
            block_shape, input_shape, base_paddings = const_block, const_input, const_base
            pad_start = base_paddings[:, 0]
            orig_pad_end = base_paddings[:, 1]
            full = input_shape + pad_start + orig_pad_end
            pad_end_extra = (block_shape - full % block_shape) % block_shape
            pad_end = orig_pad_end + pad_end_extra
            paddings = np.stack([pad_start, pad_end], axis=1).astype(np.int32)
            crops = np.stack([np.zeros_like(pad_end_extra), pad_end_extra], axis=1).astype(np.int32)
            return (ops.convert_to_tensor(paddings, name="paddings"), ops.convert_to_tensor(crops, name="crops"))
        pad_start = base_paddings[:, 0]
        orig_pad_end = base_paddings[:, 1]
        full = add(add(input_shape, pad_start), orig_pad_end)
        pad_end_extra = floormod(subtract(block_shape, floormod(full, block_shape)), block_shape)
        pad_end = add(orig_pad_end, pad_end_extra)
        paddings = stack([[pad_start[i], pad_end[i]] for i in _prange(num_block_dims)], name="paddings")
        crops = stack([[0, pad_end_extra[i]] for i in _prange(num_block_dims)], name="crops")
        return paddings, crops


# ---- DepthToSpace / SpaceToDepth ------------------------------------------------------------------------
_FORMATS = ("NHWC", "NCHW")


def _check_block_size(block_size, op_type):
    if isinstance(block_size, bool) or not isinstance(block_size, (int, np.integer)):
        raise TypeError("Expected int for argument 'block_size' not %r." % (block_size,))
    if block_size < 2:
        raise ValueError("Attr 'block_size' of '%s' Op passed %d less than minimum 2." % (op_type, block_size))
    return int(block_size)


def _check_format(data_format, op_type):
    if isinstance(data_format, bytes):
        data_format = data_format.decode()
    if data_format == "NCHW_VECT_C":
        raise NotImplementedError("%s: data_format NCHW_VECT_C (quantized int8 layout) is not supported" % op_type)
    if data_format not in _FORMATS:
        raise ValueError("Value for attr 'data_format' of \"%s\" is not in the list of allowed values: "
                         "\"NHWC\", \"NCHW\", \"NCHW_VECT_C\"" % (data_format,))
    return data_format


def _layout(dims, data_format):
    """(batch, height, width, channels) positions of a 4-D layout."""
    return (0, 1, 2, 3) if data_format == "NHWC" else (0, 2, 3, 1)


def _depth_to_space_infer(op):
    x = op._inputs[0]
    xd = _dims(x)
    _rank_check(xd, 4, exact=True)
    if xd is None:
        return [(x._dtype, (None,) * 4)]
    b = op._attrs["block_size"]
    n, h, w, c = _layout(xd, op._attrs["data_format"])
    out = [None] * 4
    out[n] = xd[n]
    out[h] = None if xd[h] is None else xd[h] * b
    out[w] = None if xd[w] is None else xd[w] * b
    out[c] = None if xd[c] is None else _divisible(xd[c], b * b)
    return [(x._dtype, tuple(out))]


def _space_to_depth_infer(op):
    x = op._inputs[0]
    xd = _dims(x)
    _rank_check(xd, 4, exact=True)
    if xd is None:
        return [(x._dtype, (None,) * 4)]
    b = op._attrs["block_size"]
    n, h, w, c = _layout(xd, op._attrs["data_format"])
    out = [None] * 4
    out[n] = xd[n]
    out[h] = None if xd[h] is None else _divisible(xd[h], b)
    out[w] = None if xd[w] is None else _divisible(xd[w], b)
    out[c] = None if xd[c] is None else xd[c] * b * b
    return [(x._dtype, tuple(out))]


def _depth_to_space_kernel(xp, x, block_size, data_format):
    if x.ndim != 4:
        raise _invalid("Input rank should be: 4 instead of: %d" % x.ndim)
    b = block_size
    if data_format == "NHWC":
        n, h, w, c = x.shape
        if c % (b * b):
            raise _invalid("Input depth dimension %d should be divisible by: %d" % (c, b * b))
        y = xp.transpose(x.reshape(n, h, w, b, b, c // (b * b)), (0, 1, 3, 2, 4, 5))
        return xp.ascontiguousarray(y).reshape(n, h * b, w * b, c // (b * b))
    n, c, h, w = x.shape
    if c % (b * b):
        raise _invalid("Input depth dimension %d should be divisible by: %d" % (c, b * b))
    y = xp.transpose(x.reshape(n, b, b, c // (b * b), h, w), (0, 3, 4, 1, 5, 2))
    return xp.ascontiguousarray(y).reshape(n, c // (b * b), h * b, w * b)


def _space_to_depth_kernel(xp, x, block_size, data_format):
    if x.ndim != 4:
        raise _invalid("Input rank should be: 4 instead of: %d" % x.ndim)
    b = block_size
    if data_format == "NHWC":
        n, h, w, c = x.shape
    else:
        n, c, h, w = x.shape
    if h % b or w % b:
        raise _invalid("Image width %d and height %d should be divisible by block_size: %d" % (w, h, b))
    if data_format == "NHWC":
        y = xp.transpose(x.reshape(n, h // b, b, w // b, b, c), (0, 1, 3, 2, 4, 5))
        return xp.ascontiguousarray(y).reshape(n, h // b, w // b, b * b * c)
    y = xp.transpose(x.reshape(n, c, h // b, b, w // b, b), (0, 3, 5, 1, 2, 4))
    return xp.ascontiguousarray(y).reshape(n, b * b * c, h // b, w // b)


def _depth_to_space_grad(op, grad):
    return [space_to_depth(grad, op._attrs["block_size"], data_format=op._attrs["data_format"])]


def _space_to_depth_grad(op, grad):
    return [depth_to_space(grad, op._attrs["block_size"], data_format=op._attrs["data_format"])]


register_op("DepthToSpace", infer=_depth_to_space_infer, kernel=_depth_to_space_kernel, grad=_depth_to_space_grad,
            gpu=True)
register_op("SpaceToDepth", infer=_space_to_depth_infer, kernel=_space_to_depth_kernel, grad=_space_to_depth_grad,
            gpu=True)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """DepthToSpace for tensors of type T: rearranges depth into `block_size x block_size` spatial blocks.

    With NHWC, `output[n, h * b + i, w * b + j, c] = input[n, h, w, (i * b + j) * C_out + c]` where
    `b = block_size` and `C_out = depth / b**2` (NCHW moves the same elements in its own layout).

    Args:
      input: A 4-D `Tensor` whose depth is divisible by `block_size ** 2`.
      block_size: An int >= 2.
      name: A name for the operation (optional).
      data_format: "NHWC" (default) or "NCHW".

    Returns:
      A `Tensor` of the same type as `input`.

    Raises:
      ValueError: If `block_size < 2`, `input` is not 4-D, or the depth is not divisible (static).
      InvalidArgumentError: At run time, for the same conditions on the actual shape.
    """
    b = _check_block_size(block_size, "DepthToSpace")
    fmt = _check_format(data_format, "DepthToSpace")
    x = ops.convert_to_tensor(input, name="input")
    return ops.apply_op("DepthToSpace", [x], {"block_size": b, "data_format": fmt}, name=name)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """SpaceToDepth for tensors of type T: moves `block_size x block_size` spatial blocks into depth.

    The inverse of `depth_to_space`: with NHWC,
    `output[n, h, w, (i * b + j) * C + c] = input[n, h * b + i, w * b + j, c]`.

    Args:
      input: A 4-D `Tensor` whose height and width are divisible by `block_size`.
      block_size: An int >= 2.
      name: A name for the operation (optional).
      data_format: "NHWC" (default) or "NCHW".

    Returns:
      A `Tensor` of the same type as `input`.

    Raises:
      ValueError: If `block_size < 2`, `input` is not 4-D, or height/width are not divisible (static).
      InvalidArgumentError: At run time, for the same conditions on the actual shape.
    """
    b = _check_block_size(block_size, "SpaceToDepth")
    fmt = _check_format(data_format, "SpaceToDepth")
    x = ops.convert_to_tensor(input, name="input")
    return ops.apply_op("SpaceToDepth", [x], {"block_size": b, "data_format": fmt}, name=name)


# ---- with_space_to_batch ----------------------------------------------------------------------------------
def _base_paddings(filter_shape, num_spatial_dims, rate):
    """The "SAME" padding of a filter dilated by `rate`: (k - 1) * rate split with the extra at the end."""
    from .array_join_ops import stack
    from .math_binary_ops import floordiv, multiply, subtract
    if not ops.is_tensor(filter_shape) and not ops.is_tensor(rate):
        spatial = np.asarray(filter_shape)[:num_spatial_dims].astype(np.int64)
        extra = (spatial - 1) * np.asarray(rate, np.int64)
        start = extra // 2
        return np.stack([start, extra - start], axis=1).astype(np.int32)
    spatial = filter_shape[:num_spatial_dims]
    extra = multiply(subtract(spatial, 1), rate)
    start = floordiv(extra, 2)
    end = subtract(extra, start)
    return stack([[start[i], end[i]] for i in _prange(num_spatial_dims)])


def _adjust(orig, fill_value, spatial_dims):
    """`orig` ([num_spatial_dims, ...]) spread over dimensions 1..max(spatial_dims), `fill_value` in gaps."""
    from .array_join_ops import concat
    const = _value(orig) if ops.is_tensor(orig) else np.asarray(orig)
    base = const if const is not None else orig
    fill_dims = list(np.shape(const)[1:]) if const is not None else orig.shape.as_list()[1:]
    dtype = np.asarray(const).dtype if const is not None else orig.dtype.as_numpy_dtype
    parts = []
    prev = 0
    i = 0
    while i < len(spatial_dims):
        start_i = i
        if spatial_dims[i] > 1:
            parts.append(np.full([spatial_dims[i] - 1 - prev] + fill_dims, fill_value, dtype=dtype))
        while i + 1 < len(spatial_dims) and spatial_dims[i + 1] == spatial_dims[i] + 1:
            i += 1
        parts.append(base[start_i:i + 1])
        prev = spatial_dims[i]
        i += 1
    if const is not None:
        return np.concatenate(parts)
    return concat(parts, 0)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    """Performs `op` on the space-to-batch representation of `input` (a dilated operation).

    With `dilation_rate` all ones this is `op(input, num_spatial_dims, padding)`. Otherwise `input`
    is zero-padded (for "SAME", by the padding of a filter of `filter_shape` dilated by
    `dilation_rate`, then to a multiple of `dilation_rate`), converted with `space_to_batch_nd`,
    `op(converted, num_spatial_dims, "VALID")` runs, and `batch_to_space_nd` converts the result
    back (cropping the extra padding).

    Args:
      input: A `Tensor` of rank at least `max(spatial_dims) + 1`.
      dilation_rate: An int32 `Tensor` of shape `[num_spatial_dims]`, all values >= 1.
      padding: "VALID" or "SAME".
      op: A function `op(converted_input, num_spatial_dims, padding)` returning a `Tensor`.
      filter_shape: The filter's shape (needed for "SAME"): its first `num_spatial_dims` entries are
        the spatial filter sizes.
      spatial_dims: A monotonically increasing sequence of positive ints: the spatial dimensions
        (default: the dimensions after the batch, or after the channels for an "NC..." format).
      data_format: A string; one starting with "NC" puts the channels before the spatial dimensions.

    Returns:
      The output of `op` mapped back to the original space.

    Raises:
      ValueError: For a bad `dilation_rate`, `spatial_dims`, `padding`, input rank, or "SAME" without
        `filter_shape`.
    """
    from .array_join_ops import stack
    from .core_ops import shape as shape_of
    x = ops.convert_to_tensor(input, name="input")
    rate = ops.convert_to_tensor(dilation_rate, dtypes.int32, name="dilation_rate")
    if rate.shape.ndims not in (None, 1):
        raise ValueError("`dilation_rate.shape.rank` must be 1. Received: dilation_rate=%s of rank %d"
                         % (rate, rate.shape.ndims))
    if not rate.shape.is_fully_defined():
        raise ValueError("`dilation_rate.shape` must be fully defined. Received: dilation_rate=%s" % rate)
    num_spatial_dims = rate.shape.dims[0].value
    start_dim = 2 if data_format is not None and data_format.startswith("NC") else 1
    if spatial_dims is None:
        spatial_dims = list(_prange(start_dim, num_spatial_dims + start_dim))
    orig_spatial_dims = list(spatial_dims)
    spatial_dims = sorted(set(int(d) for d in orig_spatial_dims))
    if spatial_dims != orig_spatial_dims or any(d < 1 for d in spatial_dims):
        raise ValueError("`spatial_dims` must be a monotonically increasing sequence of positive integers. "
                         "Received: spatial_dims=%s" % (orig_spatial_dims,))
    expected_rank = spatial_dims[-1] if start_dim == 2 else spatial_dims[-1] + 1
    if x.shape.ndims is not None and x.shape.ndims < expected_rank:
        raise ValueError("`input.shape.rank` must be at least %d. Received: input.shape=%s with rank %d"
                         % (expected_rank, x.shape, x.shape.ndims))
    const_rate = _value(rate)
    rate_or_const = rate
    if const_rate is not None:
        rate_or_const = np.asarray(const_rate)
        if np.any(rate_or_const < 1):
            raise ValueError("`dilation_rate` must be positive. Received: dilation_rate=%s" % (list(rate_or_const),))
        if np.all(rate_or_const == 1):
            return op(x, num_spatial_dims, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`. Received: filter_shape=None "
                             "and padding=SAME")
        fs = ops.convert_to_tensor(filter_shape, name="filter_shape")
        const_fs = _value(fs)
        base = _base_paddings(const_fs if const_fs is not None else fs, num_spatial_dims, rate_or_const)
    elif padding == "VALID":
        base = np.zeros([num_spatial_dims, 2], np.int32)
    else:
        raise ValueError("Invalid padding method %r" % (padding,))
    dims = x.shape.as_list() if x.shape.ndims is not None else None
    spatial_shape = [dims[i] for i in spatial_dims] if dims is not None else None
    if spatial_shape is None or None in spatial_shape:
        full = shape_of(x)
        spatial_shape = stack([full[i] for i in spatial_dims])
    paddings, crops = required_space_to_batch_paddings(spatial_shape, rate, base_paddings=base)
    block = _adjust(const_rate if const_rate is not None else rate, 1, spatial_dims)
    paddings = _adjust(paddings, 0, spatial_dims)
    crops = _adjust(crops, 0, spatial_dims)
    converted = space_to_batch_nd(x, block, paddings)
    result = op(converted, num_spatial_dims, "VALID")
    return batch_to_space_nd(result, block, crops)
