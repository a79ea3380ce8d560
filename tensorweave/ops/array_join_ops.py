"""Array ops that join and split tensors: concat, stack/unstack, split, tile, and the
auto-packing of lists that hold tensors (a Pack op, registered as a tensor conversion)."""

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.constant_op import constant
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import Dimension
from .array_helpers import (
    _INDEX_DTYPES,
    _check_dtype,
    _check_same_dtype,
    _convert_same_dtype,
    _dims,
    _fmt,
    _index_tensor,
    _int_list,
    _invalid,
    _math,
    _merge_dims,
    _outputs_list,
    _prange,
    _pslice,
    _to_shape_tensor,
    _value,
    _with_rank,
)
from .core_ops import identity, shape


# ---- ConcatV2 / ConcatOffset -----------------------------------------------------------------
def _concat_infer(op):
    values, axis_t = op._inputs[:-1], op._inputs[-1]
    _check_same_dtype(values, "ConcatV2")
    _check_dtype(axis_t, _INDEX_DTYPES, "axis", "ConcatV2")
    _with_rank(axis_t, 0)
    shapes = [_dims(v) for v in values]
    ranks = {len(s) for s in shapes if s is not None}
    r = next((len(s) for s in shapes if s is not None), None)
    if r == 0:
        raise ValueError("Can't concatenate scalars (use tf.stack instead)")
    if len(ranks) > 1:
        raise ValueError("Shape must be rank %d but is rank %d" % (r, next(k for k in ranks if k != r)))
    axis = _value(axis_t)
    dt = values[0]._dtype
    if r is None:
        return [(dt, None)]
    if axis is None:
        return [(dt, (None,) * r)]
    a = int(axis)
    if not -r <= a < r:
        raise ValueError("ConcatOp : Expected concatenating dimensions in the range [%d, %d), but got %d" % (-r, r, a))
    a %= r
    out = [None] * r
    total = 0
    first = None
    for s in shapes:
        if s is None:
            total = None
            continue
        first = first or s
        for i in _prange(r):
            if i != a and s[i] is not None:
                if out[i] is not None and out[i] != s[i]:
                    raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s "
                                     "and %s." % (i, out[i], s[i], _fmt(first), _fmt(s)))
                out[i] = s[i]
        total = None if total is None or s[a] is None else total + s[a]
    out[a] = total
    return [(dt, tuple(out))]


def _concat_kernel(xp, *args, N):
    values, axis = args[:-1], int(args[-1])
    r = values[0].ndim
    if not -r <= axis < r:
        raise _invalid("ConcatOp : Expected concatenating dimensions in the range [%d, %d), but got %d"
                       % (-r, r, axis))
    a = axis % r
    s0 = values[0].shape
    for i, v in enumerate(values[1:], 1):
        if v.ndim != r:
            raise _invalid("ConcatOp : Ranks of all input tensors should match: shape[0] = %s vs. shape[%d] = %s"
                           % (_fmt(s0), i, _fmt(v.shape)))
        if v.shape[:a] != s0[:a] or v.shape[a + 1:] != s0[a + 1:]:
            raise _invalid("ConcatOp : Dimensions of inputs should match: shape[0] = %s vs. shape[%d] = %s"
                           % (_fmt(s0), i, _fmt(v.shape)))
    return xp.concatenate(values, axis=a)


def _concat_grad(op, grad):
    """d/dx_i concat(xs) = the slice of grad at x_i's offset along the axis."""
    values, axis = op._inputs[:-1], op._inputs[-1]
    shapes = [shape(v) for v in values]
    offsets = _outputs_list(ops.apply_op("ConcatOffset", [axis] + shapes))
    grad = ops.convert_to_tensor(grad)
    return [slice(grad, o, s) for o, s in zip(offsets, shapes)] + [None]


register_op("ConcatV2", infer=_concat_infer, kernel=_concat_kernel, grad=_concat_grad, gpu=True, host_inputs=(-1,))


def _concat_offset_infer(op):
    return [(t._dtype, _dims(t)) for t in op._inputs[1:]]


def _concat_offset_kernel(xp, axis, *shapes):
    r = len(shapes[0])
    a = int(axis) % r if r else 0
    out, offset = [], 0
    for s in shapes:
        o = np.zeros(r, dtype=s.dtype)
        o[a] = offset
        offset += int(s[a])
        out.append(o)
    return out[0] if len(out) == 1 else tuple(out)


register_op("ConcatOffset", infer=_concat_offset_infer, kernel=_concat_offset_kernel, grad=NO_GRADIENT,
            gpu=True, on_host=True)


def concat(values, axis, name="concat"):
    """Concatenates tensors along one dimension.

    Args:
      values: A list of `Tensor` objects or a single `Tensor`.
      axis: 0-D int32 `Tensor`: the dimension along which to concatenate (negative counts from
        the end).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` resulting from concatenation of the input tensors.

    Raises:
      ValueError: If the static ranks or non-concatenated dimensions do not match, or `axis` is
        out of range.
    """
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        with ops.name_scope(name) as scope:
            a = ops.convert_to_tensor(axis, name="concat_dim", dtype=dtypes.int32)
            a.get_shape().assert_has_rank(0)
            del scope
            return identity(values[0], name=name)
    values = _convert_same_dtype(list(values), "values", "ConcatV2")
    return ops.apply_op("ConcatV2", values + [_index_tensor(axis, name="axis")], {"N": len(values)}, name=name)


# ---- Pack / Unpack ---------------------------------------------------------------------------
def _pack_infer(op):
    values = op._inputs
    _check_same_dtype(values, "Pack")
    s = None
    for v in values:
        s = _merge_dims(s, _dims(v)) if s is not None else _dims(v)
    axis = op._attrs["axis"]
    if s is None:
        return [(values[0]._dtype, None)]
    r = len(s) + 1
    if not -r <= axis < r:
        raise ValueError("Invalid axis: %d; must be in [%d,%d)" % (axis, -r, r))
    axis %= r
    return [(values[0]._dtype, s[:axis] + (len(values),) + s[axis:])]


def _pack_kernel(xp, *values, axis, N):
    if xp is np:
        try:
            # np.array stacks on a new leading axis in C; moving it to `axis` is a cheap view. (Not for
            # strings: np.array nests 0-d object arrays instead of stacking them.)
            out = np.array(values) if values[0].dtype != object else np.stack(values)
            if out.ndim == values[0].ndim + 1 and out.dtype == values[0].dtype:
                a = axis % out.ndim
                return out if a == 0 else out.transpose(
                    tuple(_prange(1, a + 1)) + (0,) + tuple(_prange(a + 1, out.ndim)))
        except ValueError:  # ragged: re-raised below with TF's message
            pass
    for i, v in enumerate(values[1:], 1):
        if v.shape != values[0].shape:
            raise _invalid("Shapes of all inputs must match: values[0].shape = %s != values[%d].shape = %s"
                           % (_fmt(values[0].shape), i, _fmt(v.shape)))
    return xp.stack(values, axis=axis)


def _pack_grad(op, grad):
    """d/dx_i stack(xs) = unstack(grad)[i]."""
    return unstack(grad, num=op._attrs["N"], axis=op._attrs["axis"])


register_op("Pack", infer=_pack_infer, kernel=_pack_kernel, grad=_pack_grad, gpu=True)


def stack(values, axis=0, name="stack"):
    """Stacks a list of rank-`R` tensors into one rank-`(R+1)` tensor.

    Args:
      values: A list of `Tensor` objects with the same shape and type.
      axis: An `int`. The axis to stack along. Negative values wrap around.
      name: A name for this operation (optional).

    Returns:
      A stacked `Tensor` with the same type as `values`.

    Raises:
      ValueError: If `axis` is out of the range [-(R+1), R+1) or the shapes differ.
    """
    if axis == 0:
        try:
            return ops.convert_to_tensor(values, name=name)
        except (TypeError, ValueError):
            pass
    first = ops.convert_to_tensor(values[0])
    s = _dims(first)
    if s is not None:
        r = len(s) + 1
        if axis < -r or axis >= r:
            raise ValueError("axis = %d not in [%d, %d)" % (axis, -r, r))
    values = _convert_same_dtype(list(values), "values", "Pack")
    return ops.apply_op("Pack", values, {"axis": int(axis), "N": len(values)}, name=name)


def _unpack_infer(op):
    x = op._inputs[0]
    num, axis = op._attrs["num"], op._attrs["axis"]
    s = _dims(x)
    if s is None:
        return [(x._dtype, None)] * num
    r = len(s)
    if not -r <= axis < r:
        raise ValueError("Invalid axis: %d; must be in [%d,%d)" % (axis, -r, r))
    axis %= r
    if s[axis] is not None and s[axis] != num:
        raise ValueError("Dimension must be %d but is %d" % (num, s[axis]))
    return [(x._dtype, s[:axis] + s[axis + 1:])] * num


def _unpack_kernel(xp, x, num, axis):
    a = axis % x.ndim
    if x.shape[a] != num:
        raise _invalid("Input shape axis %d must equal %d, got shape %s" % (axis, num, _fmt(x.shape)))
    lead = (_pslice(None),) * a
    outs = [x[lead + (i,)] for i in _prange(num)]
    return outs[0] if num == 1 else tuple(outs)


def _unpack_grad(op, *grads):
    """d/dx unstack(x) = stack(grads)."""
    return [stack(list(grads), axis=op._attrs["axis"])]


register_op("Unpack", infer=_unpack_infer, kernel=_unpack_kernel, grad=_unpack_grad, gpu=True)


def unstack(value, num=None, axis=0, name="unstack"):
    """Unpacks the given dimension of a rank-`R` tensor into rank-`(R-1)` tensors.

    Args:
      value: A rank `R > 0` `Tensor` to be unstacked.
      num: An `int`. The length of the dimension `axis`. Automatically inferred if `None`.
      axis: An `int`. The axis to unstack along. Negative values wrap around.
      name: A name for the operation (optional).

    Returns:
      The list of `Tensor` objects unstacked from `value`.

    Raises:
      ValueError: If `num` is unspecified and cannot be inferred, or `axis` is out of range.
    """
    value = ops.convert_to_tensor(value)
    if num is None:
        s = value.get_shape()
        if s.ndims is not None:
            if axis < -s.ndims or axis >= s.ndims:
                raise ValueError("axis = %d not in [%d, %d)" % (axis, -s.ndims, s.ndims))
            num = s.as_tuple()[axis]
        if num is None:
            raise ValueError("Cannot infer num from shape %s" % s)
    return _outputs_list(ops.apply_op("Unpack", [value], {"num": int(num), "axis": int(axis)}, name=name))


# ---- Split / SplitV --------------------------------------------------------------------------
def _split_axis(axis_t, dims):
    """The static, non-negative split axis, or None when unknown."""
    v = _value(axis_t)
    if v is None or dims is None:
        return None
    a = int(v)
    r = len(dims)
    if not -r <= a < r:
        raise ValueError("Shape must be at least rank %d but is rank %d" % ((a + 1) if a >= 0 else -a, r))
    return a % r


def _split_infer(op):
    axis_t, x = op._inputs
    _check_dtype(axis_t, (dtypes.int32,), "split_dim", "Split")
    n = op._attrs["num_split"]
    dims = _dims(x)
    a = _split_axis(axis_t, dims)
    if dims is None:
        return [(x._dtype, None)] * n
    if a is None:
        return [(x._dtype, (None,) * len(dims))] * n
    d = dims[a]
    if d is not None:
        if d % n:
            raise ValueError("Dimension size must be evenly divisible by %d but is %d" % (n, d))
        d //= n
    return [(x._dtype, dims[:a] + (d,) + dims[a + 1:])] * n


def _split_kernel(xp, axis, x, num_split):
    axis = int(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _invalid("-input rank(-%d) <= split_dim < input rank (%d), but got %d" % (x.ndim, x.ndim, axis))
    a = axis % x.ndim
    if x.shape[a] % num_split:
        raise _invalid("Number of ways to split should evenly divide the split dimension, but got split_dim %d "
                       "(size = %d) and num_split %d" % (axis, x.shape[a], num_split))
    outs = xp.split(x, num_split, axis=a)
    return outs[0] if num_split == 1 else tuple(outs)


def _split_grad(op, *grads):
    """d/dx split(x) = concat(grads) along the split axis."""
    return [None, concat(list(grads), op._inputs[0])]


register_op("Split", infer=_split_infer, kernel=_split_kernel, grad=_split_grad, gpu=True, host_inputs=(0,))


def _split_sizes(sizes, dim):
    """Resolves a -1 in split sizes against the dimension; raises ValueError on mismatch."""
    neg = [i for i, s in enumerate(sizes) if s == -1]
    if len(neg) > 1:
        raise ValueError("Only one dimensions can have a value of -1. Second one found at dimension %d" % neg[1])
    if dim is None:
        return [None if s == -1 else s for s in sizes]
    total = sum(s for s in sizes if s != -1)
    if (not neg and total != dim) or (neg and total > dim):
        raise ValueError("Determined shape must either match input shape along split_dim exactly if fully "
                         "specified, or be less than the size of the input along split_dim if not fully "
                         "specified.  Got: %d" % total)
    return [dim - total if s == -1 else s for s in sizes]


def _split_v_infer(op):
    x, sizes_t, axis_t = op._inputs
    _check_dtype(sizes_t, _INDEX_DTYPES, "size_splits", "SplitV")
    _check_dtype(axis_t, (dtypes.int32,), "split_dim", "SplitV")
    n = op._attrs["num_split"]
    dims = _dims(x)
    a = _split_axis(axis_t, dims)
    sizes = _value(sizes_t)
    if sizes is not None and np.size(sizes) != n:
        raise ValueError("Dimension must be %d but is %d" % (n, np.size(sizes)))
    if dims is None:
        return [(x._dtype, None)] * n
    if a is None:
        return [(x._dtype, (None,) * len(dims))] * n
    if sizes is None:
        return [(x._dtype, dims[:a] + (None,) + dims[a + 1:])] * n
    resolved = _split_sizes(_int_list(sizes), dims[a])
    return [(x._dtype, dims[:a] + (s,) + dims[a + 1:]) for s in resolved]


def _split_v_kernel(xp, x, size_splits, axis, num_split):
    axis = int(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _invalid("-input rank(-%d) <= split_dim < input rank (%d), but got %d" % (x.ndim, x.ndim, axis))
    a = axis % x.ndim
    try:
        sizes = _split_sizes(_int_list(size_splits), x.shape[a])
    except ValueError as e:
        raise _invalid(str(e)) from None
    if any(s < 0 for s in sizes):
        raise _invalid("Split sizes must be non-negative (or -1), got %s" % sizes)
    outs = xp.split(x, np.cumsum(sizes)[:-1], axis=a)
    return outs[0] if num_split == 1 else tuple(outs)


def _split_v_grad(op, *grads):
    """d/dx split(x, sizes) = concat(grads) along the split axis."""
    return [concat(list(grads), op._inputs[2]), None, None]


register_op("SplitV", infer=_split_v_infer, kernel=_split_v_kernel, grad=_split_v_grad)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits a tensor into sub tensors.

    Args:
      value: The `Tensor` to split.
      num_or_size_splits: Either an integer (the number of equal splits along `axis`) or a 1-D
        integer `Tensor`/list with the sizes of the splits (one may be -1, meaning the rest).
      axis: A scalar int32 `Tensor`: the dimension along which to split, in `[-rank, rank)`.
      num: Optional, the number of outputs when it cannot be inferred from `num_or_size_splits`.
      name: A name for the operation (optional).

    Returns:
      A list of `Tensor`s.

    Raises:
      ValueError: If `num` is unspecified and cannot be inferred, or the sizes don't fit.
    """
    value = ops.convert_to_tensor(value)
    if isinstance(num_or_size_splits, (int, Dimension)) and not isinstance(num_or_size_splits, bool):
        n = int(num_or_size_splits)
        if n < 1:
            raise ValueError("Value for attr 'num_split' of %d must be at least minimum 1" % n)
        return _outputs_list(ops.apply_op("Split", [_index_tensor(axis, name="split_dim"), value],
                                          {"num_split": n}, name=name))
    size_splits = _index_tensor(num_or_size_splits)
    if size_splits._shape.ndims == 0:
        raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
                         "Argument provided: %s" % (num_or_size_splits,))
    if num is None:
        s = _dims(size_splits)
        if s:
            num = s[0]
        if num is None:
            raise ValueError("Cannot infer num from shape %s" % (num_or_size_splits,))
    return _outputs_list(ops.apply_op("SplitV", [value, size_splits, _index_tensor(axis, name="split_dim")],
                                      {"num_split": int(num)}, name=name))


# ---- Tile ------------------------------------------------------------------------------------
def _tile_infer(op):
    x, multiples = op._inputs
    _check_dtype(multiples, _INDEX_DTYPES, "multiples", "Tile")
    _with_rank(multiples, 1)
    dims = _dims(x)
    mult = tensor_util._static_shape(multiples).as_tuple()
    if dims is None:
        return [(x._dtype, None if mult is None else (None,) * len(mult))]
    if mult is None:
        return [(x._dtype, (None,) * len(dims))]
    if len(mult) != len(dims):
        raise ValueError("Shape must be rank %d but is rank %d" % (len(dims), len(mult)))
    return [(x._dtype, tuple(None if d is None or m is None else d * m for d, m in zip(dims, mult)))]


def _tile_kernel(xp, x, multiples):
    mult = _int_list(multiples)
    if len(mult) != x.ndim:
        raise _invalid("Expected multiples argument to be a vector of length %d but got length %d"
                       % (x.ndim, len(mult)))
    for i, m in enumerate(mult):
        if m < 0:
            raise _invalid("Expected multiples[%d] >= 0, but got %d" % (i, m))
    return xp.tile(x, mult) if x.ndim else x.copy()


def _tile_grad(op, grad):
    """d/dx tile(x, m) = grad reshaped to [m0, d0, m1, d1, ...] and summed over the m axes."""
    x, multiples = op._inputs
    input_shape = shape(x, out_type=multiples.dtype)
    split_shape = reshape(transpose(stack([multiples, input_shape])), [-1])
    axes = range(0, size(split_shape), 2)
    input_grad = _math().reduce_sum(reshape(grad, split_shape), axes)
    input_grad.set_shape(x.get_shape())
    return [input_grad, None]


register_op("Tile", infer=_tile_infer, kernel=_tile_kernel, grad=_tile_grad, gpu=True, host_inputs=(1,))


def tile(input, multiples, name=None):  # noqa: A002
    """Constructs a tensor by tiling a given tensor `multiples[i]` times along dimension i.

    Args:
      input: A `Tensor`.
      multiples: A 1-D int32/int64 `Tensor` whose length is the rank of `input`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the type of `input`.

    Raises:
      ValueError: If the length of `multiples` is not the rank of `input`.
    """
    x = ops.convert_to_tensor(input, name="input")
    return ops.apply_op("Tile", [x, _to_shape_tensor(multiples, name="multiples")], name=name)


# ---- auto-packing of lists holding tensors -----------------------------------------------------
def _flatten(value):
    stack_ = [value]
    while stack_:
        v = stack_.pop()
        if isinstance(v, (list, tuple)):
            stack_.extend(v)
        else:
            yield v


def _dtype_from_nested_lists(values):
    for v in values:
        if ops.is_tensor(v):
            return v.dtype
        if isinstance(v, (list, tuple)):
            d = _dtype_from_nested_lists(v)
            if d is not None:
                return d
    return None


def _autopacking_helper(list_or_tuple, dtype, name):
    """Packs a (nested) list holding tensors into one tensor with Pack ops, converting the other
    elements to `dtype`."""
    must_pack = False
    converted = []
    with ops.name_scope(name) as scope:
        for i, elem in enumerate(list_or_tuple):
            if ops.is_tensor(elem):
                if elem.dtype is not dtype:
                    raise TypeError("Cannot convert a list containing a tensor of dtype %s to %s (Tensor is: %r)"
                                    % (elem.dtype, dtype, elem))
                converted.append(ops.convert_to_tensor(elem))
                must_pack = True
            elif isinstance(elem, (list, tuple)):
                c = _autopacking_helper(elem, dtype, str(i))
                must_pack = must_pack or isinstance(c, ops.Tensor)
                converted.append(c)
            else:
                converted.append(elem)
        if not must_pack:
            return converted
        elems = [e if isinstance(e, ops.Tensor) else constant(e, dtype=dtype, name=str(i))
                 for i, e in enumerate(converted)]
        return ops.apply_op("Pack", elems, {"axis": 0, "N": len(elems)}, name=scope)


def _autopacking_conversion_function(v, dtype=None, name=None, as_ref=False):
    """Tensor conversion for lists/tuples holding tensors (as TF's auto-packing): a Pack op."""
    if as_ref or not any(ops.is_tensor(e) for e in _flatten(v)):
        return NotImplemented
    inferred = _dtype_from_nested_lists(v)
    if dtype is None:
        dtype = inferred
    else:
        dtype = dtypes.as_dtype(dtype)
        if dtype is not inferred:
            v = _cast_nested(v, dtype)
    return _autopacking_helper(v, dtype, name or "packed")


def _cast_nested(v, dtype):
    if isinstance(v, (list, tuple)):
        return [_cast_nested(e, dtype) for e in v]
    if ops.is_tensor(v) and v.dtype is not dtype:
        return _math().cast(v, dtype)
    return v


ops.register_tensor_conversion_function((list, tuple), _autopacking_conversion_function, 99)


# Names from modules of the family that also import names of this one (a cycle): bound here,
# after this module's own names exist, and only called at run time.
from .array_permute_ops import transpose  # noqa: E402
from .array_shape_ops import range, reshape, size  # noqa: E402
from .array_slice_ops import slice  # noqa: E402
