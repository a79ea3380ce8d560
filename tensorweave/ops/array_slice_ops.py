"""Array ops that slice: slice, strided_slice (and its gradient) and `Tensor.__getitem__`
(bound when this module is imported)."""

import numbers
import sys

import numpy as np

from ..framework import dtypes, errors, ops, tensor_util
from ..framework.constant_op import constant
from ..framework.registry import NOT_CONSTANT, register_op
from ..framework.tensor_shape import Dimension
from .array_helpers import (
    _INDEX_DTYPES,
    _check_dtype,
    _dims,
    _fmt,
    _index_tensors,
    _int_list,
    _invalid,
    _math,
    _merge_dims,
    _prange,
    _pslice,
    _value,
    _with_rank,
    newaxis,
)
from .core_ops import ones_like, shape


# ---- Slice -----------------------------------------------------------------------------------
def _slice_infer(op):
    x, begin, sz = op._inputs
    _check_dtype(begin, _INDEX_DTYPES, "begin", "Slice")
    if sz._dtype is not begin._dtype:
        raise TypeError("Input 'size' of 'Slice' Op has type %s that does not match type %s of argument 'begin'."
                        % (sz._dtype.name, begin._dtype.name))
    _with_rank(begin, 1)
    _with_rank(sz, 1)
    dims = _dims(x)
    n = next((s[0] for s in (_dims(begin), _dims(sz)) if s is not None and s[0] is not None), None)
    for s in (_dims(begin), _dims(sz)):
        if s is not None and s[0] is not None and (s[0] != n or dims is not None and s[0] != len(dims)):
            raise ValueError("Expected begin and size arguments to be 1-D tensors of size %d, but got shapes %s "
                             "and %s instead." % (len(dims) if dims is not None else n, _fmt(_dims(begin)),
                                                  _fmt(_dims(sz))))
    r = len(dims) if dims is not None else n
    if r is None:
        return [(x._dtype, None)]
    b, s = _value(begin), _value(sz)
    if s is None:
        partial = tensor_util._static_shape(sz).as_tuple()
        return [(x._dtype, (None,) * r if partial is None else partial)]
    s = _int_list(s)
    b = None if b is None else _int_list(b)
    out = []
    for i in _prange(r):
        d = None if dims is None else dims[i]
        if b is not None and d is not None:
            if not 0 <= b[i] <= d:
                raise ValueError("Expected begin[%d] in [0, %d], but got %d" % (i, d, b[i]))
            if s[i] != -1 and not 0 <= b[i] + s[i] <= d:
                raise ValueError("Expected size[%d] in [0, %d], but got %d" % (i, d - b[i], s[i]))
        if s[i] == -1:
            out.append(None if b is None or d is None else d - b[i])
        elif s[i] < -1:
            raise ValueError("Expected size[%d] >= -1, but got %d" % (i, s[i]))
        else:
            out.append(s[i])
    return [(x._dtype, tuple(out))]


def _slice_kernel(xp, x, begin, size):
    b, s = _int_list(begin), _int_list(size)
    if len(b) != x.ndim or len(s) != x.ndim:
        raise _invalid("Expected begin and size arguments to be 1-D tensors of size %d, but got shapes %s and %s "
                       "instead." % (x.ndim, _fmt(np.shape(begin)), _fmt(np.shape(size))))
    idx = []
    for i, d in enumerate(x.shape):
        e = d if s[i] == -1 else b[i] + s[i]
        if not 0 <= b[i] <= d:
            raise _invalid("Expected begin[%d] in [0, %d], but got %d" % (i, d, b[i]))
        if not (0 <= s[i] and e <= d or s[i] == -1):
            raise _invalid("Expected size[%d] in [0, %d], but got %d" % (i, d - b[i], s[i]))
        idx.append(_pslice(b[i], e))
    return x[tuple(idx)]


def _slice_grad(op, grad):
    """d/dx slice(x, b, s) = grad padded by b before and shape(x) - s - b after."""
    x, begin = op._inputs[0], op._inputs[1]
    before = reshape(begin, [-1, 1])
    after = reshape(_math().subtract(_math().subtract(shape(x, out_type=begin.dtype),
                                                      shape(op._outputs[0], out_type=begin.dtype)), begin), [-1, 1])
    return [pad(grad, concat([before, after], 1)), None, None]


register_op("Slice", infer=_slice_infer, kernel=_slice_kernel, grad=_slice_grad, gpu=True, host_inputs=(1, 2))


def slice(input_, begin, size, name=None):  # noqa: A001 (TF's name)
    """Extracts a slice of `size` elements starting at `begin` from a tensor.

    Args:
      input_: A `Tensor`.
      begin: An int32/int64 `Tensor` (or list): the starting location for each dimension.
      size: An int32/int64 `Tensor` (or list): the number of elements per dimension; -1 means
        all remaining elements.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type as `input_`.

    Raises:
      ValueError: If the static begin/size are out of range.
    """
    x = ops.convert_to_tensor(input_, name="input")
    begin, size = _index_tensors([begin, size], ["begin", "size"])
    return ops.apply_op("Slice", [x, begin, size], name=name)


# ---- StridedSlice / StridedSliceGrad / Tensor.__getitem__ ---------------------------------------
_ELLIPSIS, _NEWAXIS, _SHRINK, _RANGE = "ellipsis", "newaxis", "shrink", "range"
_FULL_RANGE = (_RANGE, 0, 0, 1, True, True)
_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _sparse_spec(begin, end, strides, masks):
    """The slice spec as items `(kind, ...)`; range items are `(kind, begin, end, stride, begin_masked,
    end_masked)` and shrink items `(kind, index)`, with None for statically unknown begin/end values."""
    items = []
    seen_ellipsis = False
    for i in _prange(len(strides)):
        bit = 1 << i
        if masks["ellipsis_mask"] & bit:
            if seen_ellipsis:
                raise ValueError("Multiple ellipses in slice spec not allowed")
            seen_ellipsis = True
            items.append((_ELLIPSIS,))
        elif masks["new_axis_mask"] & bit:
            items.append((_NEWAXIS,))
        else:
            b = None if begin is None else int(begin[i])
            e = None if end is None else int(end[i])
            st = int(strides[i])
            if st == 0:
                raise ValueError("strides[%d] must be non-zero" % i)
            if masks["shrink_axis_mask"] & bit:
                items.append((_SHRINK, b))
            else:
                items.append((_RANGE, b, e, st, bool(masks["begin_mask"] & bit), bool(masks["end_mask"] & bit)))
    return items, seen_ellipsis


def _dense_spec(items, has_ellipsis, rank):
    """Pairs each item with the input dimension it applies to (None for new axes), expanding the
    (explicit or implicit trailing) ellipsis into full ranges."""
    consumed = sum(1 for it in items if it[0] in (_SHRINK, _RANGE))
    out = []
    d = 0
    for it in items:
        if it[0] == _ELLIPSIS:
            for _ in _prange(rank - consumed):
                out.append((_FULL_RANGE, d))
                d += 1
        elif it[0] == _NEWAXIS:
            out.append((it, None))
        else:
            out.append((it, d))
            d += 1
    if d > rank:
        raise ValueError("Index out of range using input dim %d; input has only %d dims" % (d - 1, rank))
    while d < rank:
        out.append((_FULL_RANGE, d))
        d += 1
    return out


def _strided_index(in_shape, begin, end, strides, masks):
    """The NumPy basic index equal to a strided slice of an array of shape `in_shape`.

    Raises:
      InvalidArgumentError: For zero strides, bad ellipses or out-of-bounds shrink indices.
    """
    if not len(begin) == len(end) == len(strides):
        raise _invalid("Expected begin, end, and strides to be 1D equal size tensors, but got shapes %s, %s, and %s "
                       "instead." % (_fmt(np.shape(begin)), _fmt(np.shape(end)), _fmt(np.shape(strides))))
    try:
        items, has_ellipsis = _sparse_spec(_int_list(begin), _int_list(end), _int_list(strides), masks)
        dense = _dense_spec(items, has_ellipsis, len(in_shape))
    except ValueError as e:
        raise _invalid(str(e)) from None
    idx = []
    for it, d in dense:
        if it[0] == _NEWAXIS:
            idx.append(None)
        elif it[0] == _SHRINK:
            if not -in_shape[d] <= it[1] < in_shape[d]:
                raise _invalid("slice index %d of dimension %d out of bounds." % (it[1], d))
            idx.append(it[1])
        else:
            _, b, e, st, bm, em = it
            idx.append(_pslice(None if bm else b, None if em else e, st))
    return tuple(idx) + (Ellipsis,)


def _check_slice_args(op, first):
    args = op._inputs[first:first + 3]
    lengths = []
    for t, n in zip(args, ("begin", "end", "strides")):
        _check_dtype(t, _INDEX_DTYPES, n, op._type)
        _with_rank(t, 1)
        if t._dtype is not args[0]._dtype:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument 'begin'."
                            % (n, op._type, t._dtype.name, args[0]._dtype.name))
        lengths.append(_dims(t))
    n = None
    for s in lengths:
        n = _merge_dims(n, s) if n is not None else s
    return None if n is None else n[0]


def _strided_slice_infer(op):
    x, begin, end, strides = op._inputs
    n = _check_slice_args(op, 1)
    dims = _dims(x)
    sv = _value(strides)
    if dims is None or n is None or sv is None:
        return [(x._dtype, None)]
    items, has_ellipsis = _sparse_spec(_value(begin), _value(end), _int_list(sv),
                                       {k: op._attrs[k] for k in _MASKS})
    out = []
    for it, d in _dense_spec(items, has_ellipsis, len(dims)):
        if it[0] == _NEWAXIS:
            out.append(1)
            continue
        dim = dims[d]
        if it[0] == _SHRINK:
            if it[1] is not None and dim is not None and not -dim <= it[1] < dim:
                raise ValueError("slice index %d of dimension %d out of bounds." % (it[1], d))
            continue
        _, b, e, st, bm, em = it
        if dim is None:
            out.append(None)
        elif (bm or b is not None) and (em or e is not None):
            out.append(len(_prange(*_pslice(None if bm else b, None if em else e, st).indices(dim))))
        elif bm and em:
            out.append(dim)
        else:
            out.append(None)
    return [(x._dtype, tuple(out))]


def _strided_slice_kernel(xp, x, begin, end, strides, **masks):
    return x[_strided_index(x.shape, begin, end, strides, masks)]


def _strided_slice_grad(op, grad):
    """d/dx x[spec] = zeros of x's shape with grad written at x[spec]."""
    x, begin, end, strides = op._inputs
    dx = ops.apply_op("StridedSliceGrad", [shape(x, out_type=begin.dtype), begin, end, strides,
                                           ops.convert_to_tensor(grad)], {k: op._attrs[k] for k in _MASKS})
    return [dx, None, None, None]


def _strided_slice_specialize(op, consts):
    """With constant begin/end/strides and a fully known input shape, the index is computed once."""
    _, begin, end, strides = consts
    dims = op._inputs[0]._shape.as_tuple()
    if any(c is NOT_CONSTANT for c in (begin, end, strides)) or dims is None or None in dims:
        return None
    try:
        idx = _strided_index(dims, begin, end, strides, {k: op._attrs[k] for k in _MASKS})
    except errors.OpError:  # the general kernel raises it at run time, naming the op
        return None
    return lambda xp, x: x[idx]


register_op("StridedSlice", infer=_strided_slice_infer, kernel=_strided_slice_kernel, grad=_strided_slice_grad,
            specialize=_strided_slice_specialize, gpu=True, host_inputs=(1, 2, 3))


def _strided_slice_grad_infer(op):
    shp, dy = op._inputs[0], op._inputs[4]
    _check_slice_args(op, 1)
    return [(dy._dtype, tensor_util._static_shape(shp).as_tuple())]


def _strided_slice_grad_kernel(xp, shape, begin, end, strides, dy, **masks):
    out = xp.zeros(_int_list(shape), dtype=dy.dtype)
    out[_strided_index(out.shape, begin, end, strides, masks)] = dy
    return out


def _strided_slice_grad_grad(op, grad):
    """d/ddy strided_slice_grad(dy) = strided_slice(grad)."""
    _, begin, end, strides, _ = op._inputs
    return [None, None, None, None, strided_slice(grad, begin, end, strides, **{k: op._attrs[k] for k in _MASKS})]


register_op("StridedSliceGrad", infer=_strided_slice_grad_infer, kernel=_strided_slice_grad_kernel,
            grad=_strided_slice_grad_grad, gpu=True, host_inputs=(0, 1, 2, 3))


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, var=None, name=None):
    """Extracts a strided slice of a tensor (generalized Python array indexing).

    Args:
      input_: A `Tensor`.
      begin: An int32/int64 `Tensor`: where each slice spec entry starts.
      end: An int32/int64 `Tensor`: where each slice spec entry ends (exclusive).
      strides: An int32/int64 `Tensor` of non-zero steps (default: ones).
      begin_mask: Bit i set: ignore `begin[i]` and use the fullest possible range.
      end_mask: Bit i set: ignore `end[i]` and use the fullest possible range.
      ellipsis_mask: Bit i set: entry i is an ellipsis (`...`).
      new_axis_mask: Bit i set: entry i inserts a new dimension of size 1 (`tf.newaxis`).
      shrink_axis_mask: Bit i set: entry i takes the single index `begin[i]` and removes the dimension.
      var: The variable corresponding to `input_` or None.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` the same type as `input_`.

    Raises:
      ValueError: If a statically known shrink index is out of bounds or a stride is zero.
    """
    x = ops.convert_to_tensor(input_, name="input")
    if strides is None:
        strides = ones_like(begin)
    begin, end, strides = _index_tensors([begin, end, strides], ["begin", "end", "strides"])
    attrs = {"begin_mask": int(begin_mask), "end_mask": int(end_mask), "ellipsis_mask": int(ellipsis_mask),
             "new_axis_mask": int(new_axis_mask), "shrink_axis_mask": int(shrink_axis_mask)}
    return ops.apply_op("StridedSlice", [x, begin, end, strides], attrs, name=name)


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 "
                     "tensors are valid indices")


def _check_index(idx):
    """Raises TypeError unless `idx` is an int, a Dimension or a scalar int32/int64 tensor."""
    if isinstance(idx, (numbers.Integral, Dimension)):
        return
    dtype = getattr(idx, "dtype", None)
    try:
        dtype = None if dtype is None else dtypes.as_dtype(dtype)
    except TypeError:
        dtype = None
    if dtype not in _INDEX_DTYPES or (ops.is_tensor(idx) and idx.shape.ndims not in (None, 0)):
        raise TypeError(_SLICE_TYPE_ERROR + ", got {!r}".format(idx))


def _slice_helper(tensor, slice_spec, var=None):
    """`tensor[slice_spec]`: ints, negative indices, slices with (negative) steps, `...`,
    `tf.newaxis`, scalar int tensors, or a boolean mask.

    Raises:
      TypeError: For an unsupported index type.
      ValueError: If a statically known index is out of bounds.
    """
    if isinstance(slice_spec, bool) or (ops.is_tensor(slice_spec) and slice_spec.dtype is dtypes.bool_) or (
            isinstance(slice_spec, np.ndarray) and slice_spec.dtype == bool):
        return boolean_mask(tensor=tensor, mask=slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
    for index, s in enumerate(slice_spec):
        bit = 1 << index
        if isinstance(s, Dimension):
            s = s.value
        if isinstance(s, _pslice):
            s = _pslice(*(v.value if isinstance(v, Dimension) else v for v in (s.start, s.stop, s.step)))
            if s.start is not None and (ops.is_tensor(s.start) or s.start != _MAXSIZE):
                _check_index(s.start)
                begin.append(s.start)
            else:
                begin.append(0)
                begin_mask |= bit
            if s.stop is not None and (ops.is_tensor(s.stop) or s.stop != _MAXSIZE):
                _check_index(s.stop)
                end.append(s.stop)
            else:
                end.append(0)
                end_mask |= bit
            if s.step is not None:
                _check_index(s.step)
                strides.append(s.step)
            else:
                strides.append(1)
        elif s is Ellipsis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            ellipsis_mask |= bit
        elif s is newaxis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            new_axis_mask |= bit
        else:
            _check_index(s)
            begin.append(s)
            # The kernel ignores `end` of a shrunk dimension (it uses begin + 1).
            end.append(s if ops.is_tensor(s) else int(s) + 1)
            strides.append(1)
            shrink_axis_mask |= bit
    values = [tensor] + [v for v in begin + end + strides if ops.is_tensor(v)]
    with ops.name_scope(None, "strided_slice", values) as scope:
        if begin:
            packed = [stack(v) for v in (begin, end, strides)]
            if any(p.dtype is dtypes.int64 for p in packed):
                packed = [p if p.dtype is dtypes.int64 else _math().cast(p, dtypes.int64) for p in packed]
            packed_begin, packed_end, packed_strides = packed
        else:
            packed_begin = packed_end = packed_strides = constant(np.zeros([0], np.int32))
        return strided_slice(tensor, packed_begin, packed_end, packed_strides, begin_mask=begin_mask,
                             end_mask=end_mask, shrink_axis_mask=shrink_axis_mask, new_axis_mask=new_axis_mask,
                             ellipsis_mask=ellipsis_mask, var=var, name=scope)


_MAXSIZE = sys.maxsize
ops.Tensor.__getitem__ = _slice_helper


# Names from modules of the family that also import names of this one (a cycle): bound here,
# after this module's own names exist, and only called at run time.
from .array_join_ops import concat, stack  # noqa: E402
from .array_permute_ops import pad  # noqa: E402
from .array_select_ops import boolean_mask  # noqa: E402
from .array_shape_ops import reshape  # noqa: E402
