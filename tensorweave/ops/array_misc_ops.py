"""Array ops of their own kind: Bitcast, EnsureShape, LinSpace, UnravelIndex, ShapeN, GuaranteeConst,
ParallelConcat, and the Python-level `repeat` and `parallel_stack` built on them and on other ops."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape, as_shape
from .array_helpers import _INDEX_DTYPES, _check_dtype, _dims, _fmt, _invalid, _merge_dims, _outputs_list, _value

__all__ = ["bitcast", "ensure_shape", "lin_space", "linspace", "unravel_index", "shape_n", "guarantee_const",
           "parallel_stack", "repeat"]


# ---- Bitcast ------------------------------------------------------------------------------------------
_BITCAST_TYPES = tuple(getattr(dtypes, n) for n in ("float16", "float32", "float64", "int64", "int32", "uint8",
                                                     "uint16", "uint32", "uint64", "int8", "int16", "complex64",
                                                     "complex128") if hasattr(dtypes, n))
_BITCAST_NAMES = ("bfloat16, float16, float32, float64, int64, int32, uint8, uint16, uint32, uint64, int8, int16, "
                  "complex64, complex128, qint8, quint8, qint16, quint16, qint32")


def _check_bitcast_type(dt, arg):
    if dt not in _BITCAST_TYPES:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (arg, dt.name, _BITCAST_NAMES))


def _bitcast_infer(op):
    x = op._inputs[0]
    out = op._attrs["type"]
    src, dst = x._dtype.size, out.size
    xd = _dims(x)
    if src == dst:
        return [(out, xd)]
    if src > dst:
        return [(out, None if xd is None else xd + (src // dst,))]
    if xd is None:
        return [(out, None)]
    if not xd:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    if xd[-1] is not None and xd[-1] != dst // src:
        raise ValueError("Cannot bitcast from %d to %d due to shape. %d does not match %d"
                         % (x._dtype.as_datatype_enum, out.as_datatype_enum, xd[-1], dst // src))
    return [(out, xd[:-1])]


def _bitcast_kernel(xp, x, type):  # noqa: A002
    dst = np.dtype(type.as_numpy_dtype)
    src = x.dtype
    if src.itemsize == dst.itemsize:
        return np.ascontiguousarray(x).view(dst)
    if src.itemsize > dst.itemsize:
        return np.ascontiguousarray(x).reshape(x.shape + (1,)).view(dst)
    if x.ndim == 0 or x.shape[-1] != dst.itemsize // src.itemsize:
        raise _invalid("Cannot bitcast from %d to %d" % (dtypes.as_dtype(src).as_datatype_enum, type.as_datatype_enum))
    return np.ascontiguousarray(x).view(dst).reshape(x.shape[:-1])


register_op("Bitcast", infer=_bitcast_infer, kernel=_bitcast_kernel)


def bitcast(input, type, name=None):  # noqa: A002
    """Bitcasts a tensor from one type to another without copying data.

    With input element size `s_in` and output element size `s_out` (bytes): equal sizes keep the
    shape; `s_in > s_out` adds a last dimension of `s_in / s_out`; `s_in < s_out` requires the last
    dimension to be `s_out / s_in` and removes it. Bytes are reinterpreted in the machine's
    (little-endian) order, as TF on x86/ARM.

    Args:
      input: A numeric `Tensor` (not bool or string).
      type: The output `DType` (numeric, not bool or string).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `type`.

    Raises:
      TypeError: If either dtype is not bitcastable.
      ValueError: If the static shape cannot be bitcast.
      InvalidArgumentError: At run time, if the actual shape cannot be bitcast.
    """
    x = ops.convert_to_tensor(input, name="input")
    out = dtypes.as_dtype(type)
    _check_bitcast_type(x.dtype, "input")
    _check_bitcast_type(out, "type")
    return ops.apply_op("Bitcast", [x], {"type": out}, name=name)


# ---- EnsureShape ------------------------------------------------------------------------------------------
def _shape_tuple(shape):
    """A shape attribute as a tuple (None: unknown rank): a TensorShape in graphs, a tuple when read
    back from a GraphDef."""
    return shape.as_tuple() if isinstance(shape, TensorShape) else (None if shape is None else tuple(shape))


def _ensure_shape_infer(op):
    x = op._inputs[0]
    want = _shape_tuple(op._attrs["shape"])
    return [(x._dtype, _merge_dims(_dims(x), want))]


def _compatible(want, got):
    return want is None or (len(want) == len(got) and all(w is None or w == g for w, g in zip(want, got)))


def _ensure_shape_kernel(xp, x, shape):
    shape = _shape_tuple(shape)
    if not _compatible(shape, x.shape):
        raise _invalid("Shape of tensor %s is not compatible with expected shape %s." % (_fmt(x.shape), _fmt(shape)))
    return x


register_op("EnsureShape", infer=_ensure_shape_infer, kernel=_ensure_shape_kernel, grad=lambda op, grad: [grad],
            gpu=True)


def ensure_shape(x, shape, name=None):
    """Updates the shape of a tensor and checks at runtime that the shape holds.

    Args:
      x: A `Tensor`.
      shape: A `TensorShape` (or list; None dimensions are unconstrained) the shape of `x` must be
        compatible with.
      name: A name for this operation (optional). Defaults to "EnsureShape".

    Returns:
      `x` unchanged, with the static shape merged with `shape`.

    Raises:
      ValueError: If the static shape of `x` is incompatible with `shape`.
      InvalidArgumentError: At run time, if the shape of `x` is incompatible with `shape`.
    """
    want = as_shape(shape) if not isinstance(shape, TensorShape) else shape
    x = ops.convert_to_tensor(x, name="x")
    return ops.apply_op("EnsureShape", [x], {"shape": want}, name=name or "EnsureShape")


# ---- LinSpace --------------------------------------------------------------------------------------------
_LINSPACE_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


def _scalar(t):
    d = _dims(t)
    if d is not None and len(d) != 0:
        raise ValueError("Shape must be rank 0 but is rank %d" % len(d))


def _lin_space_infer(op):
    start, stop, num = op._inputs
    for t, arg in ((start, "start"), (stop, "stop")):
        if t._dtype not in _LINSPACE_TYPES:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: "
                            "bfloat16, float16, float32, float64" % (arg, t._dtype.name))
    if stop._dtype is not start._dtype:
        raise TypeError("Input 'stop' of 'LinSpace' Op has type %s that does not match type %s of argument 'start'."
                        % (stop._dtype.name, start._dtype.name))
    _check_dtype(num, _INDEX_DTYPES, "num", "LinSpace")
    for t in (start, stop, num):
        _scalar(t)
    n = _value(num)
    if n is None:
        return [(start._dtype, (None,))]
    if int(n) <= 0:
        raise ValueError("Requires num > 0: %d" % int(n))
    return [(start._dtype, (int(n),))]


def _lin_space_kernel(xp, start, stop, num):
    for v, what in ((start, "start"), (stop, "stop"), (num, "num")):
        if np.ndim(v) != 0:
            raise _invalid("%s must be a scalar, not shape %s" % (what, _fmt(np.shape(v))))
    n = int(num)
    if n <= 0:
        raise _invalid("Requires num > 0: %d" % n)
    dt = np.asarray(start).dtype
    start, stop = dt.type(start), dt.type(stop)
    if n == 1:
        return np.array([start], dt)
    step = dt.type((stop - start) / dt.type(n - 1))
    out = (start + step * np.arange(n, dtype=dt)).astype(dt)
    out[-1] = stop
    return out


register_op("LinSpace", infer=_lin_space_infer, kernel=_lin_space_kernel, grad=NO_GRADIENT)


def lin_space(start, stop, num, name=None):
    """Generates `num` evenly-spaced values from `start` to `stop` inclusive (TF1's LinSpace op).

    With `step = (stop - start) / (num - 1)`, the values are `start + i * step` for `i < num - 1`
    and exactly `stop` last (one value, `start`, when `num` is 1).

    Args:
      start: A 0-D float16/float32/float64 `Tensor`, the first value.
      stop: A 0-D `Tensor` of the same type, the last value.
      num: A 0-D int32/int64 `Tensor`, the number of values (> 0).
      name: A name for the operation (optional).

    Returns:
      A 1-D `Tensor` of the type of `start`, with `num` values.

    Raises:
      TypeError: For integer `start`/`stop` or mismatched types.
      ValueError: For non-scalar arguments or a static `num <= 0`.
      InvalidArgumentError: At run time, if `num <= 0`.
    """
    start = ops.convert_to_tensor(start, name="start")
    stop = ops.convert_to_tensor(stop, name="stop", preferred_dtype=start.dtype)
    num = ops.convert_to_tensor(num, name="num", preferred_dtype=dtypes.int32)
    return ops.apply_op("LinSpace", [start, stop, num], {}, name=name or "LinSpace")


linspace = lin_space


# ---- UnravelIndex ----------------------------------------------------------------------------------------
def _unravel_infer(op):
    indices, dims = op._inputs
    _check_dtype(indices, _INDEX_DTYPES, "indices", "UnravelIndex")
    if dims._dtype is not indices._dtype:
        raise TypeError("Input 'dims' of 'UnravelIndex' Op has type %s that does not match type %s of argument "
                        "'indices'." % (dims._dtype.name, indices._dtype.name))
    dd = _dims(dims)
    if dd is not None and len(dd) != 1:
        raise ValueError("Shape must be rank 1 but is rank %d" % len(dd))
    idd = _dims(indices)
    n = None if dd is None else dd[0]
    if idd is None:
        return [(indices._dtype, None)]
    if not idd:
        return [(indices._dtype, (n,))]
    size = None if None in idd else int(np.prod(idd, dtype=np.int64))
    return [(indices._dtype, (n, size))]


def _unravel_kernel(xp, indices, dims):
    if indices.ndim > 1:
        raise _invalid('The indices can only be scalar or vector, got "%s"' % _fmt(indices.shape))
    if dims.ndim != 1:
        raise _invalid('The indices can only be 1-D, got "%s"' % _fmt(dims.shape))
    for i, d in enumerate(dims.tolist()):
        if d == 0:
            raise _invalid("Input dims cannot contain a dim of zero, but dims contains zero at index %d" % i)
        if d < 0:
            raise _invalid("Input dims cannot be negative. Got dim = %d at index %d" % (d, i))
    total = int(np.prod(dims.astype(np.int64), dtype=np.int64))
    if (indices >= total).any():
        raise _invalid("index is out of bound as with dims")
    idx = indices.astype(np.int64)
    strides = np.ones(len(dims), np.int64)
    for i in range(len(dims) - 2, -1, -1):
        strides[i] = strides[i + 1] * int(dims[i + 1])
    # C++'s truncating division and remainder (negative indices are not checked, as TF).
    q = np.where(idx[None] < 0, -((-idx[None]) // strides.reshape((-1,) + (1,) * idx.ndim)),
                 idx[None] // strides.reshape((-1,) + (1,) * idx.ndim))
    out = np.fmod(q, dims.astype(np.int64).reshape((-1,) + (1,) * idx.ndim))
    return out.astype(indices.dtype)


register_op("UnravelIndex", infer=_unravel_infer, kernel=_unravel_kernel, grad=NO_GRADIENT)


def unravel_index(indices, dims, name=None):
    """Converts an array of flat indices into a tuple of coordinate arrays (row-major).

    Args:
      indices: A 0-D or 1-D int32/int64 `Tensor` of flat indices into an array of shape `dims`.
      dims: A 1-D `Tensor` of the same type: the shape of the array the indices index into.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `indices`: shape `[len(dims)]` for a scalar index, else
      `[len(dims), len(indices)]`, row `i` holding the coordinates along dimension `i`.

    Raises:
      TypeError: If the dtypes differ or are not int32/int64.
      InvalidArgumentError: At run time, for an index out of range, zero or negative dims, or
        indices of rank > 1.
    """
    indices = ops.convert_to_tensor(indices, name="indices", preferred_dtype=dtypes.int32)
    dims = ops.convert_to_tensor(dims, name="dims", preferred_dtype=indices.dtype) if not ops.is_tensor(dims) \
        else dims
    return ops.apply_op("UnravelIndex", [indices, dims], {}, name=name)


# ---- ShapeN -------------------------------------------------------------------------------------------------
def _shape_n_infer(op):
    out = op._attrs["out_type"]
    result = []
    for t in op._inputs:
        d = _dims(t)
        result.append((out, (None if d is None else len(d),)))
    return result


def _shape_n_kernel(xp, *xs, out_type):
    out = tuple(np.array(x.shape, dtype=out_type.as_numpy_dtype) for x in xs)
    return out[0] if len(out) == 1 else out


register_op("ShapeN", infer=_shape_n_infer, kernel=_shape_n_kernel, grad=NO_GRADIENT)


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """Returns the shapes of tensors.

    Args:
      input: A list of at least 1 `Tensor` object with the same type.
      out_type: The output type, int32 (default) or int64.
      name: A name for the operation (optional).

    Returns:
      A list with the same length as `input`: each tensor's shape as a 1-D `Tensor` of `out_type`.

    Raises:
      TypeError: If `out_type` is not int32/int64 or the tensors' types differ.
      ValueError: If `input` is empty.
    """
    from .array_helpers import _convert_same_dtype
    out_type = dtypes.as_dtype(out_type)
    if out_type not in _INDEX_DTYPES:
        raise TypeError("Value passed to parameter 'out_type' has DataType %s not in list of allowed values: "
                        "int32, int64" % out_type.name)
    if not isinstance(input, (list, tuple)):
        raise TypeError("Expected list for 'input' argument to 'ShapeN' Op, not %r." % (input,))
    if len(input) < 1:
        raise ValueError("List argument 'input' to 'ShapeN' Op with length 0 shorter than minimum length 1.")
    tensors = _convert_same_dtype(list(input), "input", "ShapeN")
    return _outputs_list(ops.apply_op("ShapeN", tensors, {"out_type": out_type}, name=name))


# ---- GuaranteeConst --------------------------------------------------------------------------------------------
register_op("GuaranteeConst", infer=lambda op: [(op._inputs[0]._dtype, _dims(op._inputs[0]))],
            kernel=lambda xp, x: x, gpu=True)


def guarantee_const(input, name=None):  # noqa: A002
    """Promise to the TF runtime that the input tensor is a constant (an identity here: the value is
    returned unchanged). TF defines no gradient for it.

    Args:
      input: A `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the value of `input`.
    """
    return ops.apply_op("GuaranteeConst", [ops.convert_to_tensor(input, name="input")], {}, name=name)


# ---- ParallelConcat ----------------------------------------------------------------------------------------------
def _parallel_concat_infer(op):
    want = _shape_tuple(op._attrs["shape"])
    dt = op._inputs[0]._dtype
    if want is None:
        return [(dt, None)]
    if want and want[0] is not None and want[0] != len(op._inputs):
        raise ValueError("Dimension 0 in both shapes must be equal, but are %d and %d." % (want[0], len(op._inputs)))
    for t in op._inputs:
        _merge_dims(_dims(t), (1,) + tuple(want[1:]))
    return [(dt, (len(op._inputs),) + tuple(want[1:]))]


def _parallel_concat_kernel(xp, *values, shape):
    shape = _shape_tuple(shape)
    for v in values:
        if v.ndim == 0 or v.shape[0] != 1 or (shape is not None and not _compatible(shape[1:], v.shape[1:])):
            raise _invalid("ParallelConcat: each value must have shape %s, got %s"
                           % (_fmt((1,) + tuple(shape[1:]) if shape is not None else None), _fmt(v.shape)))
    return xp.concatenate(values, axis=0)


register_op("ParallelConcat", infer=_parallel_concat_infer, kernel=_parallel_concat_kernel, gpu=True)


def parallel_stack(values, name="parallel_stack"):
    """Stacks a list of rank-`R` tensors into one rank-`(R+1)` tensor in parallel (graph mode only).

    Unlike `stack`, the shapes of all values must be fully known statically (the result's shape is
    fixed when the graph is built), and TF defines no gradient for it.

    Args:
      values: A list of `Tensor` objects with the same shape and type.
      name: A name for this operation (optional).

    Returns:
      A `Tensor` with the same type as `values`, of shape `[len(values)] + values[0].shape`.

    Raises:
      RuntimeError: If executed in eager mode.
      ValueError: If the values' static shapes are incompatible.
    """
    from .array_shape_ops import expand_dims
    if ops.get_default_graph()._eager:
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    with ops.name_scope(name):
        value_t = ops.convert_to_tensor(values[0])
        value_shape = value_t.shape
        output_shape = TensorShape([len(values)]).concatenate(value_shape)
        expanded = [expand_dims(ops.convert_to_tensor(v, dtype=value_t.dtype), 0) for v in values]
        return ops.apply_op("ParallelConcat", expanded, {"shape": output_shape})


# ---- repeat ---------------------------------------------------------------------------------------------------------
def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Repeats the elements of `input` along `axis` (as `np.repeat`).

    Args:
      input: An N-D `Tensor`.
      repeats: A 0-D or 1-D int32 `Tensor`: the number of repetitions of each element (broadcast to
        the size of `axis`).
      axis: An int, the axis along which to repeat; None flattens `input` first.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the shape of `input` except along `axis` (`sum(repeats)` elements there); 1-D if
      `axis` is None.

    Raises:
      ValueError: If `repeats` has rank > 1 or a static size incompatible with the axis.
    """
    from .array_join_ops import concat
    from .array_select_ops import boolean_mask, sequence_mask
    from .array_shape_ops import broadcast_to, expand_dims, reshape
    from .array_slice_ops import slice as slice_
    from .core_ops import shape
    from .math_ops import cast
    from .math_reduce_ops import reduce_max
    with ops.name_scope(name, "Repeat", [input, repeats]):
        data = ops.convert_to_tensor(input, name="input")
        repeats = ops.convert_to_tensor(repeats, name="repeats", preferred_dtype=dtypes.int32)
        if repeats.dtype is not dtypes.int32:
            repeats = cast(repeats, dtypes.int32)
        if axis is None:
            data = reshape(data, [-1])
            axis = 0
        data.shape.with_rank_at_least(1)
        axis = int(axis)
        ndims = data.shape.ndims
        if repeats.shape.ndims is not None and repeats.shape.ndims > 1:
            raise ValueError("Shape %s must have rank at most 1" % (repeats.shape,))
        if ndims is not None and axis < 0:
            axis += ndims
        if repeats.shape.ndims == 1 and ndims is not None:
            rs = repeats.shape.dims[0].value
            ds = data.shape.dims[axis].value
            if rs is not None and ds is not None and rs != 1 and rs != ds:
                raise ValueError("Dimensions %d and %d are not compatible" % (ds, rs))
        # Move the axis first: data becomes [n, rest...].
        if ndims is None:
            raise ValueError("repeat needs a known rank of `input`")
        perm = [axis] + [i for i in range(ndims) if i != axis]
        from .array_permute_ops import transpose
        moved = transpose(data, perm) if axis != 0 else data
        moved_shape = shape(moved)
        n = moved_shape[0]
        reps = broadcast_to(reshape(repeats, [-1]), expand_dims(n, 0)) if repeats.shape.ndims != 0 \
            else broadcast_to(repeats, expand_dims(n, 0))
        max_rep = reduce_max(concat([reps, [0]], 0))
        # [n, max_rep, rest...]: each element tiled max_rep times, then the first reps[i] kept.
        tiled = broadcast_to(expand_dims(moved, 1),
                             concat([slice_(moved_shape, [0], [1]), expand_dims(max_rep, 0), moved_shape[1:]], 0))
        mask = sequence_mask(reps, max_rep)
        out = boolean_mask(tiled, mask)
        if axis != 0:
            inv = [0] * ndims
            for i, p in enumerate(perm):
                inv[p] = i
            out = transpose(out, inv)
        return out
