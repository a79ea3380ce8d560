"""Serialized tensors: SerializeTensor / ParseTensor (a `TensorProto` as a string, bytes as TF's
`Tensor::AsProtoTensorContent` writes them) and the sparse forms SerializeSparse, SerializeManySparse,
DeserializeManySparse (each sparse tensor as three serialized `TensorProto`s: indices, values, shape).

The `TensorProto` wire format is written and read here directly (no protobuf dependency): fields
dtype (1), tensor_shape (2: dims (2) of size (1)), tensor_content (4) and, when reading, the typed
value fields (`float_val` ...) TF's `Tensor::FromProto` accepts, a short list repeating its last value."""

import base64
import struct

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor, convert_to_sparse_tensor
from .sparse_core_ops import _check_sparse, _dtype, _rank, _shape_str, _sparse_dims, _validate_indices

__all__ = ["serialize_tensor", "parse_tensor", "serialize_sparse", "serialize_many_sparse",
           "deserialize_many_sparse"]

_SERIALIZABLE = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16, dtypes.int32,
                 dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64, dtypes.bool_,
                 dtypes.complex64, dtypes.complex128, dtypes.string)
_BY_ENUM = {d.as_datatype_enum: d for d in _SERIALIZABLE}


# ---- TensorProto wire format ------------------------------------------------------------------------------
def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field_bytes(number, payload):
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def encode_tensor(array, dtype):
    """The serialized `TensorProto` of `array` (NumPy) of `dtype`, as TF's `AsProtoTensorContent`."""
    array = np.asarray(array)
    shape = b"".join(_field_bytes(2, (_varint(1 << 3) + _varint(int(d))) if d else b"") for d in array.shape)
    out = _varint(1 << 3) + _varint(dtype.as_datatype_enum) + _field_bytes(2, shape)
    if dtype is dtypes.string:
        for v in array.reshape(-1).tolist():
            out += _field_bytes(8, v if isinstance(v, bytes) else str(v).encode("utf-8"))
    else:
        content = np.ascontiguousarray(array, dtype=np.dtype(dtype.as_numpy_dtype).newbyteorder("<")).tobytes()
        if content:
            out += _field_bytes(4, content)
    return out


def _read_varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, pos


def _fields(buf):
    """(field number, wire type, value) of a serialized message: ints for varints and fixed widths
    (as raw bytes for fixed), bytes for length-delimited fields."""
    pos = 0
    n = len(buf)
    while pos < n:
        key, pos = _read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        elif wire == 2:
            length, pos = _read_varint(buf, pos)
            value, pos = buf[pos:pos + length], pos + length
        else:
            raise ValueError("unsupported wire type %d" % wire)
        if pos > n:
            raise ValueError("truncated message")
        yield number, wire, value


def _signed(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


# value field number -> (element kind, dtypes it holds)
_VAL_FIELDS = {5: "f32", 6: "f64", 7: "int", 9: "f32", 10: "int64", 11: "bool", 12: "f64", 13: "half",
               16: "uint32", 17: "uint64"}


def _val_elements(kind, wire, value):
    """The elements of one value field occurrence (packed or not)."""
    if kind in ("f32", "f64"):
        width, fmt = (4, "<f") if kind == "f32" else (8, "<d")
        data = value
        return [struct.unpack(fmt, data[k:k + width])[0] for k in range(0, len(data), width)]
    if wire == 2:
        out, pos = [], 0
        while pos < len(value):
            v, pos = _read_varint(value, pos)
            out.append(v)
        return out
    return [value]


def decode_tensor(buf):
    """(DType, NumPy array) of a serialized `TensorProto`.

    Raises:
      ValueError: For bytes that are no valid `TensorProto` of a supported dtype.
    """
    dtype_enum, dims, content, strings, vals, val_kind = 0, [], None, [], [], None
    for number, wire, value in _fields(bytes(buf)):
        if number == 1 and wire == 0:
            dtype_enum = value
        elif number == 2 and wire == 2:
            for num2, w2, v2 in _fields(value):
                if num2 == 2 and w2 == 2:
                    size = 0
                    for num3, w3, v3 in _fields(v2):
                        if num3 == 1 and w3 == 0:
                            size = _signed(v3, 64)
                    dims.append(size)
                elif num2 == 3 and w2 == 0 and v2:
                    raise ValueError("a TensorProto of unknown rank")
        elif number == 4 and wire == 2:
            content = value
        elif number == 8 and wire == 2:
            strings.append(value)
        elif number in _VAL_FIELDS:
            val_kind = _VAL_FIELDS[number]
            vals.extend(_val_elements(val_kind, wire, value))
        elif number in (14, 15):
            raise ValueError("resource and variant TensorProtos are not supported")
    dtype = _BY_ENUM.get(dtype_enum)
    if dtype is None:
        raise ValueError("unsupported dtype enum %d" % dtype_enum)
    if any(d < 0 for d in dims):
        raise ValueError("negative dimension")
    count = int(np.prod(dims, dtype=np.int64)) if dims else 1
    if count > 2 ** 31:
        raise ValueError("too many elements")
    if dtype is dtypes.string:
        if len(strings) != count:
            raise ValueError("wrong number of strings")
        out = np.empty(count, object)
        out[:] = strings
        return dtype, out.reshape(dims)
    npdt = np.dtype(dtype.as_numpy_dtype)
    if content is not None and (content or not vals):
        if len(content) != count * npdt.itemsize:
            raise ValueError("tensor_content holds %d bytes, %d expected" % (len(content), count * npdt.itemsize))
        return dtype, np.frombuffer(content, npdt.newbyteorder("<")).astype(npdt).reshape(dims)
    if dtype.is_complex:
        vals = [complex(vals[k], vals[k + 1]) for k in range(0, len(vals) - 1, 2)]
    elif val_kind == "half":
        vals = list(np.array(vals, np.uint16).view(np.float16))
    elif dtype in (dtypes.int8, dtypes.int16, dtypes.int32):
        vals = [_signed(v, 32) for v in vals]
    elif dtype is dtypes.int64:
        vals = [_signed(v, 64) for v in vals]
    if len(vals) > count:
        raise ValueError("more values than elements")
    out = np.zeros(count, npdt)
    if vals:
        out[:len(vals)] = np.array(vals).astype(npdt)
        out[len(vals):] = out[len(vals) - 1]
    return dtype, out.reshape(dims)


def _tf_name(dt):
    """A dtype as TF's DataTypeString names it in kernel messages."""
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dt.name, dt.name)


def _string_scalar(b):
    out = np.empty((), object)
    out[()] = b
    return out


# ---- SerializeTensor / ParseTensor ------------------------------------------------------------------------
def _serialize_tensor_infer(op):
    _dtype(op._inputs[0], _SERIALIZABLE, "T", op)
    return [(dtypes.string, ())]


def _serialize_tensor_kernel(xp, tensor):
    dt = dtypes.string if tensor.dtype == object else dtypes.as_dtype(tensor.dtype)
    return _string_scalar(encode_tensor(tensor, dt))


register_op("SerializeTensor", infer=_serialize_tensor_infer, kernel=_serialize_tensor_kernel, grad=NO_GRADIENT)


def _parse_tensor_infer(op):
    _dtype(op._inputs[0], (dtypes.string,), "serialized", op)
    _rank(op._inputs[0], 0, op, "serialized")
    return [(op._attrs["out_type"], None)]


def _parse_tensor_kernel(xp, serialized, out_type):
    if np.ndim(serialized) != 0:
        raise _invalid("Expected `serialized` to be a scalar, got shape: %s" % _shape_str(serialized))
    try:
        dt, arr = decode_tensor(serialized[()])
    except ValueError:
        raise _invalid("Could not parse `serialized` as TensorProto, base64: %s"
                       % base64.b64encode(serialized[()]).decode("ascii")) from None
    if dt is not out_type:
        raise _invalid("Type mismatch between parsed tensor (%s) and dtype (%s)" % (_tf_name(dt), _tf_name(out_type)))
    return arr


register_op("ParseTensor", infer=_parse_tensor_infer, kernel=_parse_tensor_kernel, grad=NO_GRADIENT)


def serialize_tensor(tensor, name=None):
    """Transforms a Tensor into a serialized TensorProto proto.

    Args:
      tensor: A `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `string`: the serialized `TensorProto` (the bytes TensorFlow writes).
    """
    return ops.apply_op("SerializeTensor", [ops.convert_to_tensor(tensor, name="tensor")], name=name)


def parse_tensor(serialized, out_type, name=None):
    """Transforms a serialized tensorflow.TensorProto proto into a Tensor.

    Args:
      serialized: A `Tensor` of type `string`. A scalar string containing a serialized TensorProto proto.
      out_type: A `tf.DType`. The type of the serialized tensor. The provided type must match the type of
        the serialized tensor and no implicit conversion will take place.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `out_type`.

    Raises:
      tf.errors.InvalidArgumentError: At run time, for bytes that are no `TensorProto` or of another dtype.
    """
    serialized = ops.convert_to_tensor(serialized, dtype=dtypes.string, name="serialized")
    return ops.apply_op("ParseTensor", [serialized], {"out_type": dtypes.as_dtype(out_type)}, name=name)


# ---- SerializeSparse / SerializeManySparse ------------------------------------------------------------------
def _check_out_type(op):
    if op._attrs["out_type"] is not dtypes.string:
        raise TypeError("Value passed to parameter 'out_type' has DataType %s not in list of allowed values: string"
                        % op._attrs["out_type"].name)


def _serialize_sparse_infer(op):
    _sparse_dims(op, 0, names=("sparse_indices", "sparse_values", "sparse_shape"))
    _dtype(op._inputs[1], _SERIALIZABLE, "T", op)
    _check_out_type(op)
    return [(dtypes.string, (3,))]


def _triple(indices, values, shape):
    dt = dtypes.string if values.dtype == object else dtypes.as_dtype(values.dtype)
    out = np.empty(3, object)
    out[0] = encode_tensor(np.asarray(indices, np.int64), dtypes.int64)
    out[1] = encode_tensor(values, dt)
    out[2] = encode_tensor(np.asarray(shape, np.int64), dtypes.int64)
    return out


def _serialize_sparse_kernel(xp, sparse_indices, sparse_values, sparse_shape, out_type):
    _check_sparse(sparse_indices, sparse_values, sparse_shape, ("sparse_indices", "sparse_values", "sparse_shape"))
    return _triple(sparse_indices, sparse_values, sparse_shape)


register_op("SerializeSparse", infer=_serialize_sparse_infer, kernel=_serialize_sparse_kernel, grad=NO_GRADIENT)


def _serialize_many_infer(op):
    _sparse_dims(op, 0, names=("sparse_indices", "sparse_values", "sparse_shape"))
    _dtype(op._inputs[1], _SERIALIZABLE, "T", op)
    _check_out_type(op)
    from .sparse_core_ops import _static_shape_value
    sv = _static_shape_value(op._inputs[2])
    return [(dtypes.string, (None if not sv else sv[0], 3))]


def _serialize_many_kernel(xp, sparse_indices, sparse_values, sparse_shape, out_type):
    _check_sparse(sparse_indices, sparse_values, sparse_shape, ("sparse_indices", "sparse_values", "sparse_shape"))
    rank = sparse_shape.shape[0]
    _validate_indices(sparse_indices, sparse_shape)
    if rank <= 1:
        raise _invalid("Rank of input SparseTensor should be > 1, but saw rank: %d" % rank)
    n = int(sparse_shape[0])
    out = np.empty((n, 3), object)
    blank = _triple(np.zeros((0, rank - 1), np.int64), sparse_values[:0], sparse_shape[1:])
    out[:] = blank
    batch = sparse_indices[:, 0]
    k, total = 0, batch.shape[0]
    while k < total:
        b = int(batch[k])
        end = k
        while end < total and batch[end] == b:
            end += 1
        if not 0 <= b < n:
            raise _invalid("Received unexpected column 0 value in input SparseTensor: %d < 0 or >= N (= %d)" % (b, n))
        out[b] = _triple(sparse_indices[k:end, 1:], sparse_values[k:end], sparse_shape[1:])
        k = end
    return out


register_op("SerializeManySparse", infer=_serialize_many_infer, kernel=_serialize_many_kernel, grad=NO_GRADIENT)


def _serialize(op_type, sp_input, name, out_type):
    out_type = dtypes.as_dtype(out_type)
    if out_type is not dtypes.string:
        raise NotImplementedError("out_type=%s (variant): only string serializations are supported"
                                  % out_type.name)
    sp_input = convert_to_sparse_tensor(sp_input)
    return ops.apply_op(op_type, [sp_input.indices, sp_input.values, sp_input.dense_shape], {"out_type": out_type},
                        name=name)


def serialize_sparse(sp_input, name=None, out_type=dtypes.string):
    """Serialize a `SparseTensor` into a 3-vector (1-D `Tensor`) object.

    Args:
      sp_input: The input `SparseTensor`.
      name: A name prefix for the returned tensors (optional).
      out_type: The `dtype` to use for serialization (only `tf.string`).

    Returns:
      A 3-vector (1-D `Tensor`), with each column representing the serialized `SparseTensor`'s indices,
      values, and shape (respectively).

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
      NotImplementedError: For `out_type=tf.variant`.
    """
    return _serialize("SerializeSparse", sp_input, name, out_type)


def serialize_many_sparse(sp_input, name=None, out_type=dtypes.string):
    """Serialize `N`-minibatch `SparseTensor` into an `[N, 3]` `Tensor`.

    The `SparseTensor` must have rank `R` greater than 1, and the first dimension is treated as the
    minibatch dimension: row `i` of the result serializes the entries of minibatch entry `i` (as a rank
    `R-1` sparse tensor; the entries of one minibatch entry must be adjacent, as in canonical order).

    Args:
      sp_input: The input rank `R` `SparseTensor`.
      name: A name prefix for the returned tensors (optional).
      out_type: The `dtype` to use for serialization (only `tf.string`).

    Returns:
      A matrix (2-D `Tensor`) with `N` rows and `3` columns. Each column represents serialized
      `SparseTensor`'s indices, values, and shape (respectively).

    Raises:
      TypeError: If `sp_input` is not a `SparseTensor`.
      NotImplementedError: For `out_type=tf.variant`.
    """
    return _serialize("SerializeManySparse", sp_input, name, out_type)


# ---- DeserializeManySparse -----------------------------------------------------------------------------------
def _deserialize_many_infer(op):
    s = op._inputs[0]
    _dtype(s, (dtypes.string,), "serialized_sparse", op)
    d = _rank(s, 2, op, "serialized_sparse")
    if d is not None and d[1] is not None and d[1] != 3:
        raise ValueError("Dimension must be 3 but is %d" % d[1])
    return [(dtypes.int64, (None, None)), (op._attrs["dtype"], (None,)), (dtypes.int64, (None,))]


def _parse_part(buf, want, i, j, what):
    try:
        dt, arr = decode_tensor(buf)
    except ValueError:
        raise _invalid("Could not parse serialized_sparse[%d, %d]" % (i, j)) from None
    if dt is not want:
        raise _invalid("Requested SparseTensor of type %s but SparseTensor[%d].%s.dtype() == %s"
                       % (_tf_name(want), i, what, _tf_name(dt)))
    return arr


def _deserialize_many_kernel(xp, serialized_sparse, dtype):
    if np.ndim(serialized_sparse) != 2 or serialized_sparse.shape[1] != 3:
        raise _invalid("Serialized sparse should be a matrix with 3 columns but received shape %s"
                       % _shape_str(serialized_sparse))
    n = serialized_sparse.shape[0]
    if n == 0:
        raise _invalid("Must have at least 1 serialized SparseTensor, but has a matrix of shape [0,3]")
    parts = []
    rank = None
    for i in range(n):
        ind = _parse_part(serialized_sparse[i, 0], dtypes.int64, i, 0, "indices")
        val = _parse_part(serialized_sparse[i, 1], dtype, i, 1, "values")
        shp = _parse_part(serialized_sparse[i, 2], dtypes.int64, i, 2, "shape")
        if ind.ndim != 2 or val.ndim != 1 or shp.ndim != 1 or ind.shape[0] != val.shape[0] or (
                ind.shape[1] != shp.shape[0]):
            raise _invalid("Invalid SparseTensor at serialized_sparse[%d]: indices %s, values %s, shape %s"
                           % (i, _shape_str(ind), _shape_str(val), _shape_str(shp)))
        if rank is None:
            rank = shp.shape[0]
        elif shp.shape[0] != rank:
            raise _invalid("Inconsistent shape across SparseTensors: rank prior to SparseTensor[%d] was: %d but "
                           "rank of SparseTensor[%d] is: %d" % (i, rank, i, shp.shape[0]))
        parts.append((ind, val, shp))
    shape = np.zeros(rank + 1, np.int64)
    shape[0] = n
    for _, _, shp in parts:
        shape[1:] = np.maximum(shape[1:], shp)
    indices = np.concatenate([np.concatenate([np.full((len(ind), 1), i, np.int64), ind.astype(np.int64)], axis=1)
                              for i, (ind, _, _) in enumerate(parts)])
    values = np.concatenate([val for _, val, _ in parts]).astype(dtype.as_numpy_dtype)
    return indices, values, shape


register_op("DeserializeManySparse", infer=_deserialize_many_infer, kernel=_deserialize_many_kernel,
            grad=NO_GRADIENT)


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """Deserialize and concatenate `SparseTensors` from a serialized minibatch.

    The input `serialized_sparse` must be a string matrix of shape `[N x 3]` where `N` is the minibatch
    size and the rows correspond to packed outputs of `serialize_sparse`. The ranks of the original
    `SparseTensor` objects must all match. The result has a leading minibatch dimension of size `N`; its
    other dimensions are the maxima of the inputs' dimensions; entries keep their order, row by row.

    Args:
      serialized_sparse: 2-D `Tensor` of type `string` of shape `[N, 3]`.
      dtype: The `dtype` of the serialized `SparseTensor` objects.
      rank: (optional) Python int, the rank of the `SparseTensor` objects.
      name: A name prefix for the returned tensors (optional)

    Returns:
      A `SparseTensor` representing the deserialized `SparseTensor`s, concatenated along the
      `SparseTensor`s' first dimension.

    Raises:
      tf.errors.InvalidArgumentError: At run time, for malformed rows, ranks that differ or another dtype.
    """
    serialized_sparse = ops.convert_to_tensor(serialized_sparse, dtype=dtypes.string, name="serialized_sparse")
    ind, val, shape = ops.apply_op("DeserializeManySparse", [serialized_sparse], {"dtype": dtypes.as_dtype(dtype)},
                                   name=name)
    if rank is not None:
        ind.set_shape([None, rank])
        shape.set_shape([rank])
    return SparseTensor(ind, val, shape)

