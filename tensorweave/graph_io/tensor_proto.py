"""`TensorProto` <-> NumPy, with TensorFlow's semantics (`tf.make_tensor_proto`, `tf.make_ndarray`)."""

import math

import numpy as np

from ..framework import dtypes, errors, ops
from ..ops.summary_ops import proto_module

__all__ = ["make_tensor_proto", "make_ndarray", "MAX_ELEMENTS"]

# A TensorProto read from a file may claim any shape: more elements than this is refused before
# anything is allocated (2**31, TF's int32 element count limit of a serialized constant).
MAX_ELEMENTS = 2 ** 31

# The repeated field holding each dtype's values when there is no tensor_content.
_VAL_FIELD = {getattr(dtypes, name): field for name, field in (
    ("float16", "half_val"), ("float32", "float_val"), ("float64", "double_val"), ("int32", "int_val"),
    ("uint8", "int_val"), ("int16", "int_val"), ("int8", "int_val"), ("uint16", "int_val"), ("int64", "int64_val"),
    ("uint32", "uint32_val"), ("uint64", "uint64_val"), ("bool", "bool_val"), ("complex64", "scomplex_val"),
    ("complex128", "dcomplex_val"), ("string", "string_val")) if hasattr(dtypes, name)}


def _messages():
    return proto_module("tensor_pb2", "tf.make_tensor_proto")


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """Creates a `TensorProto` from a Python value or NumPy array.

    Numeric values are stored in `tensor_content` (little-endian raw bytes), strings in `string_val`,
    as TensorFlow does. A scalar given with a larger `shape` is stored once in the typed value field
    (`float_val`, ...), which readers repeat to fill the shape.

    Args:
      values: A Python scalar, list or NumPy array.
      dtype: Optional `tf.DType` (default: inferred from `values`).
      shape: Optional list of ints: the tensor's shape.
      verify_shape: If true, `values` must already have `shape`.
      allow_broadcast: If true, `values` may be broadcast to `shape`.

    Returns:
      A `TensorProto` (`tensorboard.compat.proto.tensor_pb2`).

    Raises:
      TypeError: If `values` cannot be converted to `dtype`.
      ValueError: If `values` does not fit `shape`.
      ImportError: If the `tensorboard` extra is not installed.
    """
    tensor_pb2 = _messages()
    dtype = dtypes.as_dtype(dtype) if dtype is not None else None
    if isinstance(values, ops.Tensor):
        raise TypeError("Expected any non-tensor type, got a tensor instead.")
    if dtype is dtypes.string or (dtype is None and _is_strings(values)):
        arr = np.array(values, dtype=object)
        dtype = dtypes.string
    else:
        try:
            arr = np.array(values, dtype=dtype.as_numpy_dtype if dtype is not None else None)
        except (TypeError, ValueError) as e:
            raise TypeError("Failed to convert object of type %s to Tensor. Contents: %s. (%s)"
                            % (type(values), values, e)) from None
        if dtype is None:
            if arr.dtype == object:
                raise TypeError("Failed to convert object of type %s to Tensor. Contents: %s. Consider casting "
                                "elements to a supported type." % (type(values), values))
            if arr.dtype == np.int64 and not isinstance(values, np.ndarray) and _fits_int32(arr):
                arr = arr.astype(np.int32)
            elif arr.dtype == np.float64 and not isinstance(values, (np.ndarray, np.generic)):
                arr = arr.astype(np.float32)
            try:
                dtype = dtypes.as_dtype(arr.dtype)
            except TypeError:
                raise TypeError("Failed to convert object of type %s to Tensor. Contents: %s. Consider casting "
                                "elements to a supported type." % (type(values), values)) from None
    if shape is not None:
        shape = [int(d) for d in shape]
        count = math.prod(shape)
        if verify_shape and list(arr.shape) != shape:
            raise TypeError("Expected Tensor's shape: %s, got %s." % (tuple(shape), arr.shape))
    else:
        shape, count = list(arr.shape), arr.size
    proto = tensor_pb2.TensorProto(dtype=dtype.as_datatype_enum)
    for d in shape:
        proto.tensor_shape.dim.add(size=d)
    if list(arr.shape) != shape:
        if allow_broadcast:
            try:
                arr = np.broadcast_to(arr, shape)
            except ValueError:
                raise ValueError("Cannot broadcast %s to shape %s" % (arr.shape, shape)) from None
        elif arr.size == 1:
            _set_values(proto, dtype, arr.reshape(-1))
            return proto
        elif arr.size != count:
            raise ValueError("Too many elements provided. Needed at most %d, but received %d" % (count, arr.size))
        else:
            arr = arr.reshape(shape)
    if dtype is dtypes.string:
        _set_values(proto, dtype, arr.reshape(-1))
    else:
        proto.tensor_content = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()
    return proto


def _is_strings(values):
    v = values
    while isinstance(v, (list, tuple)) and v:
        v = v[0]
    return isinstance(v, (str, bytes)) or (isinstance(values, np.ndarray) and values.dtype.kind in "OSU")


def _fits_int32(arr):
    return arr.size == 0 or (arr.min() >= -2 ** 31 and arr.max() < 2 ** 31)


def _set_values(proto, dtype, flat):
    field = getattr(proto, _VAL_FIELD[dtype])
    if dtype is dtypes.string:
        field.extend(v if isinstance(v, bytes) else str(v).encode("utf-8") for v in flat)
    elif dtype is dtypes.float16:
        field.extend(int(x) for x in np.asarray(flat, dtype.as_numpy_dtype).view(np.uint16))
    elif dtype.is_complex:
        for x in flat:
            field.extend([float(x.real), float(x.imag)])
    else:
        field.extend(flat.tolist())


def make_ndarray(tensor):
    """Creates a NumPy array from a `TensorProto` (or a constant: an ndarray or a Const tensor).

    Args:
      tensor: A `TensorProto`.

    Returns:
      A NumPy array with the tensor's contents.

    Raises:
      TypeError: If the proto's dtype is not supported.
      tf.errors.InvalidArgumentError: If the proto is damaged: its content disagrees with its shape,
        or its shape is invalid or claims more than `MAX_ELEMENTS` elements (checked before anything
        of that size is allocated).
    """
    if isinstance(tensor, (ops.Tensor, np.ndarray, np.generic)):
        from ..framework.tensor_util import make_ndarray as constant_ndarray
        return constant_ndarray(tensor)
    shape = [d.size for d in tensor.tensor_shape.dim]
    if any(d < 0 for d in shape):
        raise errors.InvalidArgumentError(None, None, "TensorProto has an invalid shape %s" % shape)
    count = math.prod(shape)
    if count > MAX_ELEMENTS:
        raise errors.InvalidArgumentError(None, None, "TensorProto claims %d elements (shape %s), more than %d"
                                          % (count, shape, MAX_ELEMENTS))
    try:
        dtype = dtypes.as_dtype(tensor.dtype)
    except TypeError:
        dtype = None
    if dtype is None or dtype not in _VAL_FIELD:
        raise TypeError("Unsupported tensor type: %s" % tensor.dtype)
    if dtype is dtypes.string:
        values = list(tensor.string_val)
        out = np.empty(count, dtype=object)
        if values:
            if len(values) > count:
                raise _damaged(len(values), count)
            out[:len(values)] = values
            out[len(values):] = values[-1]
        else:
            out[:] = b""
        return out.reshape(shape)
    npdt = np.dtype(dtype.as_numpy_dtype)
    if tensor.tensor_content:
        content = tensor.tensor_content
        if len(content) != count * npdt.itemsize:
            raise errors.InvalidArgumentError(None, None, "TensorProto of shape %s and dtype %s holds %d bytes of "
                                              "content, not %d" % (shape, dtype.name, len(content),
                                                                   count * npdt.itemsize))
        return np.frombuffer(content, dtype=npdt.newbyteorder("<")).astype(npdt).reshape(shape)
    values = getattr(tensor, _VAL_FIELD[dtype])
    if dtype is dtypes.float16:
        flat = np.array(values, dtype=np.uint16).view(npdt)
    elif dtype.is_complex:
        pairs = np.array(values, dtype=npdt.type(0).real.dtype)
        if pairs.size % 2:
            raise errors.InvalidArgumentError(None, None, "TensorProto of dtype %s holds an odd number of parts"
                                              % dtype.name)
        flat = pairs[0::2] + 1j * pairs[1::2]
    else:
        flat = np.array(values, dtype=npdt)
    if flat.size > count:
        raise _damaged(flat.size, count)
    if flat.size == count:
        return flat.astype(npdt).reshape(shape)
    out = np.zeros(count, dtype=npdt)
    if flat.size:
        out[:flat.size] = flat
        out[flat.size:] = flat[-1]
    return out.reshape(shape)


def _damaged(got, count):
    return errors.InvalidArgumentError(None, None, "TensorProto holds %d values for %d elements" % (got, count))
