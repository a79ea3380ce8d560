"""Parsing ops: `tf.parse_example`, `tf.parse_single_example` (serialized `tf.train.Example` protos to
dense tensors and `SparseTensor`s) and `tf.decode_raw`.

The feature configurations (`FixedLenFeature`, `VarLenFeature`, `FixedLenSequenceFeature`) are TF's
namedtuples. Examples are decoded with protobuf (the `data` extra), which is imported when a parse op
first runs.
"""

import collections
import math
import re

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.constant_op import constant
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape, as_shape

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "VarLenFeature", "decode_raw", "parse_example",
           "parse_single_example"]


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """Configuration for parsing a variable-length input feature (into a `SparseTensor`).

    Fields:
      dtype: Data type of input (`tf.float32`, `tf.int64` or `tf.string`).
    """

    __slots__ = ()


class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """Configuration for parsing a fixed-length input feature (into a dense `Tensor`).

    To treat sparse input as dense, provide a `default_value`; otherwise the parse functions fail on
    any example missing this feature.

    Fields:
      shape: Shape of input data.
      dtype: Data type of input.
      default_value: Value to be used if an example is missing this feature. It must be compatible
        with `dtype` and of the specified `shape`.
    """

    __slots__ = ()

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """Configuration for parsing a variable-length input feature into a dense `Tensor`.

    Parsing a single `Example` gives static shape `[None] + shape`; parsing a batch gives
    `[batch_size, None] + shape`, shorter examples padded with `default_value`.

    Fields:
      shape: Shape of input data for dimension 2 and higher. First dimension is of variable length.
      dtype: Data type of input.
      allow_missing: Whether to allow this feature to be missing (required True for `Example`s).
      default_value: Scalar value used to pad a batch to its longest example; defaults to "" for
        strings and 0 otherwise.
    """

    __slots__ = ()

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


_PARSE_DTYPES = (dtypes.float32, dtypes.int64, dtypes.string)
# TensorFlow's DataTypeString, used in its parse error messages.
_TF_TYPE_NAME = {dtypes.float32: "float", dtypes.int64: "int64", dtypes.string: "string"}
_KIND_DTYPE = {"bytes_list": dtypes.string, "float_list": dtypes.float32, "int64_list": dtypes.int64}
_KIND_TYPE_STR = {"bytes_list": "bytes", "float_list": "float", "int64_list": "int64"}


def _check_parse_dtypes(types, arg):
    for t in types:
        if t not in _PARSE_DTYPES:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: float32, "
                            "int64, string" % (arg, t.name))


class _ParseParams:
    """The raw parameters of the parse ops, validated as TF's `_ParseOpParams.from_features`."""

    def __init__(self, features):
        self.sparse_keys, self.sparse_types = [], []
        self.dense_keys, self.dense_types, self.dense_shapes, self.dense_defaults = [], [], [], {}
        for key in sorted(features):
            feature = features[key]
            if isinstance(feature, VarLenFeature):
                if not feature.dtype:
                    raise ValueError("Missing type for feature %s." % key)
                self.sparse_keys.append(key)
                self.sparse_types.append(dtypes.as_dtype(feature.dtype))
            elif isinstance(feature, FixedLenFeature):
                if not feature.dtype:
                    raise ValueError("Missing type for feature %s." % key)
                if feature.shape is None:
                    raise ValueError("Missing shape for feature %s." % key)
                shape = as_shape(feature.shape)
                if feature.shape and shape.ndims and shape.as_tuple()[0] is None:
                    raise ValueError("First dimension of shape for feature %s unknown. Consider using "
                                     "FixedLenSequenceFeature." % key)
                if not shape.is_fully_defined():
                    raise ValueError("All dimensions of shape for feature %s need to be known but received %s."
                                     % (key, str(feature.shape)))
                self._add_dense(key, feature, shape)
            elif isinstance(feature, FixedLenSequenceFeature):
                if not feature.dtype:
                    raise ValueError("Missing type for feature %s." % key)
                if feature.shape is None:
                    raise ValueError("Missing shape for feature %s." % key)
                if not feature.allow_missing:
                    raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
                self._add_dense(key, feature, TensorShape([None]).concatenate(as_shape(feature.shape)))
            else:
                raise ValueError("Unsupported %s %s." % (type(feature).__name__, feature))
        _check_parse_dtypes(self.sparse_types, "sparse_types")
        _check_parse_dtypes(self.dense_types, "Tdense")

    def _add_dense(self, key, feature, shape):
        self.dense_keys.append(key)
        self.dense_types.append(dtypes.as_dtype(feature.dtype))
        self.dense_shapes.append(shape.as_tuple())
        self.dense_defaults[key] = feature.default_value

    def dense_default_tensors(self):
        """One tensor per dense key: the default value (empty if required) or a variable-length padding scalar."""
        from . import array_ops
        out = []
        for key, shape, dtype in zip(self.dense_keys, self.dense_shapes, self.dense_types):
            value = self.dense_defaults[key]
            safe_key = re.sub(r"[^A-Za-z0-9_.\-/]", "_", key)
            if shape and shape[0] is None:
                if value is None:
                    out.append(ops.convert_to_tensor("" if dtype is dtypes.string else 0, dtype=dtype))
                else:
                    value = ops.convert_to_tensor(value, dtype=dtype, name="padding_" + safe_key)
                    out.append(array_ops.reshape(value, []))
            elif value is None:
                out.append(constant([], dtype=dtype))
            elif isinstance(value, ops.Tensor):
                out.append(value)
            else:
                value = ops.convert_to_tensor(value, dtype=dtype, name="key_" + safe_key)
                out.append(array_ops.reshape(value, list(shape)))
        return out

    def attrs(self):
        return {"sparse_keys": tuple(self.sparse_keys), "sparse_types": tuple(self.sparse_types),
                "dense_keys": tuple(self.dense_keys), "dense_types": tuple(self.dense_types),
                "dense_shapes": tuple(self.dense_shapes)}


# ---- the shared kernel ---------------------------------------------------------------------------
def _shape_str(shape):
    return "[%s]" % ",".join("?" if d is None else str(d) for d in shape)


def _feature_values(feature):
    """The (kind, values) of a `tf.train.Feature`; kind None for a feature with no list set."""
    kind = feature.WhichOneof("kind")
    if kind is None:
        return None, None
    values = getattr(feature, kind).value
    if kind == "bytes_list":
        arr = np.empty(len(values), dtype=object)
        arr[:] = list(values)
        return kind, arr
    return kind, np.array(values, dtype=np.float32 if kind == "float_list" else np.int64)


_EXAMPLE_CLASS = []


def _example_class():
    """(tf.train.Example's message class, protobuf's DecodeError), imported on first use."""
    if not _EXAMPLE_CLASS:
        from google.protobuf.message import DecodeError

        from .example_proto import message_classes
        _EXAMPLE_CLASS.extend([message_classes()["Example"], DecodeError])
    return _EXAMPLE_CLASS


def _parse_examples(serialized, names, defaults, single, sparse_keys, sparse_types, dense_keys, dense_types,
                    dense_shapes):
    """Parses serialized Examples; returns (sparse [(indices, values, shape)], dense [array])."""
    example_cls, decode_error = _example_class()
    batch = len(serialized)
    sparse = [[] for _ in sparse_keys]
    dense = [[] for _ in dense_keys]
    strides = [math.prod(s[1:] if s and s[0] is None else s) for s in dense_shapes]
    for i, record in enumerate(serialized):
        name = "<unknown>" if not len(names) else names[i].decode("utf-8", "replace")

        def where(key, index=i, name=name):
            return "Key: %s.  " % key if single else "Name: %s, Key: %s, Index: %d.  " % (name, key, index)

        try:
            fmap = example_cls.FromString(bytes(record)).features.feature
        except decode_error:
            raise errors.InvalidArgumentError(None, None, "Could not parse example input, value: '%s'"
                                              % bytes(record).decode("latin-1")) from None
        for k, (key, dtype) in enumerate(zip(sparse_keys, sparse_types)):
            kind, values = _feature_values(fmap[key]) if key in fmap else (None, None)
            if kind is not None and _KIND_DTYPE[kind] is not dtype:
                raise errors.InvalidArgumentError(None, None, where(key) + "Data types don't match. Expected type: %s"
                                                  % _TF_TYPE_NAME[dtype] + (", Actual type: %s" % _TF_TYPE_NAME[
                                                      _KIND_DTYPE[kind]] if single else ""))
            sparse[k].append(values if kind is not None else np.empty(0, dtype.as_numpy_dtype))
        for d, (key, dtype, shape) in enumerate(zip(dense_keys, dense_types, dense_shapes)):
            kind, values = _feature_values(fmap[key]) if key in fmap else (None, None)
            varlen = bool(shape) and shape[0] is None
            if kind is not None and _KIND_DTYPE[kind] is not dtype:
                raise errors.InvalidArgumentError(None, None, where(key) + "Data types don't match. Data type: %s but "
                                                  "expected type: %s" % (_TF_TYPE_NAME[_KIND_DTYPE[kind]],
                                                                         _TF_TYPE_NAME[dtype]))
            if varlen:
                if kind is None:
                    values = np.empty(0, dtype.as_numpy_dtype)
                elif strides[d] == 0 or len(values) % strides[d]:
                    if single:
                        raise errors.InvalidArgumentError(None, None, where(key) + "Can't parse serialized Example.")
                    raise errors.InvalidArgumentError(
                        None, None, where(key) + "Number of %s values is not a multiple of stride length. Saw %d "
                        "values but output shape is: %s" % (_KIND_TYPE_STR[kind], len(values), _shape_str(shape)))
                dense[d].append(values.reshape((-1,) + tuple(shape[1:])))
                continue
            if kind is None:
                if defaults[d].size == 0 and strides[d] != 0:
                    prefix = "" if single else "Name: %s, " % name
                    raise errors.InvalidArgumentError(None, None, "%sFeature: %s (data type: %s) is required but "
                                                      "could not be found." % (prefix, key, _TF_TYPE_NAME[dtype]))
                dense[d].append(np.reshape(defaults[d], shape))
                continue
            if len(values) != strides[d]:
                if single:
                    raise errors.InvalidArgumentError(None, None, where(key) + "Can't parse serialized Example.")
                raise errors.InvalidArgumentError(
                    None, None, where(key) + "Number of %s values != expected.  Values size: %d but output shape: %s"
                    % (_KIND_TYPE_STR[kind], len(values), _shape_str(shape)))
            dense[d].append(values.reshape(shape))

    sparse_out = []
    for k, dtype in enumerate(sparse_types):
        per = sparse[k]
        lengths = np.array([len(v) for v in per], dtype=np.int64)
        values = np.concatenate(per) if per else np.empty(0, dtype.as_numpy_dtype)
        values = values.astype(dtype.as_numpy_dtype, copy=False)
        within = np.concatenate([np.arange(n, dtype=np.int64) for n in lengths]) if per else np.empty(0, np.int64)
        longest = int(lengths.max()) if len(lengths) else 0
        if single:
            sparse_out.append((within.reshape(-1, 1), values, np.array([longest], dtype=np.int64)))
        else:
            rows = np.repeat(np.arange(batch, dtype=np.int64), lengths)
            sparse_out.append((np.stack([rows, within], axis=1), values, np.array([batch, longest], dtype=np.int64)))

    dense_out = []
    for d, (dtype, shape) in enumerate(zip(dense_types, dense_shapes)):
        npdt = dtype.as_numpy_dtype
        if single:
            dense_out.append(np.asarray(dense[d][0], dtype=npdt))
        elif shape and shape[0] is None:
            longest = max((len(v) for v in dense[d]), default=0)
            out = np.full((batch, longest) + tuple(shape[1:]), defaults[d], dtype=npdt)
            for i, v in enumerate(dense[d]):
                out[i, :len(v)] = v
            dense_out.append(out)
        else:
            out = np.empty((batch,) + tuple(shape), dtype=npdt)
            for i, v in enumerate(dense[d]):
                out[i] = v
            dense_out.append(out)
    return sparse_out, dense_out


def _flatten_outputs(sparse_out, dense_out):
    outs = [s[0] for s in sparse_out] + [s[1] for s in sparse_out] + [s[2] for s in sparse_out] + dense_out
    return outs[0] if len(outs) == 1 else tuple(outs)


def _parse_infer(op, batch_dims):
    a = op._attrs
    sparse = [(dtypes.int64, (None, len(batch_dims) + 1)) for _ in a["sparse_keys"]]
    sparse += [(t, (None,)) for t in a["sparse_types"]]
    sparse += [(dtypes.int64, (len(batch_dims) + 1,)) for _ in a["sparse_keys"]]
    return sparse + [(t, batch_dims + tuple(s)) for t, s in zip(a["dense_types"], a["dense_shapes"])]


def _check_string_input(t, arg, op_type):
    if t.dtype is not dtypes.string:
        raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of string."
                        % (arg, op_type, t.dtype.name))


# ---- ParseExample ----------------------------------------------------------------------------------
def _parse_example_infer(op):
    serialized, names = op._inputs[:2]
    _check_string_input(serialized, "serialized", "ParseExample")
    for t in (serialized, names):
        r = t.shape.ndims
        if r is not None and r != 1:
            raise ValueError("Shape must be rank 1 but is rank %d for '%s' (op: 'ParseExample')" % (r, op.name))
    batch = serialized.shape.as_tuple()
    return _parse_infer(op, (None,) if batch is None else batch)


def _parse_example_kernel(xp, serialized, names, *defaults, sparse_keys, sparse_types, dense_keys, dense_types,
                          dense_shapes):
    if len(names) and len(names) != len(serialized):
        raise errors.InvalidArgumentError(None, None, "Expected len(names) == len(serialized), but got: %d vs. %d"
                                          % (len(names), len(serialized)))
    return _flatten_outputs(*_parse_examples(serialized.reshape(-1), names.reshape(-1), defaults, False,
                                             sparse_keys, sparse_types, dense_keys, dense_types, dense_shapes))


register_op("ParseExample", infer=_parse_example_infer, kernel=_parse_example_kernel, grad=NO_GRADIENT)


def _build_outputs(outs, params):
    outs = outs if isinstance(outs, list) else [outs]
    ns = len(params.sparse_keys)
    result = {}
    for k, key in enumerate(params.sparse_keys):
        result[key] = SparseTensor(outs[k], outs[ns + k], outs[2 * ns + k])
    for d, key in enumerate(params.dense_keys):
        result[key] = outs[3 * ns + d]
    return result


def parse_example(serialized, features, name=None, example_names=None):
    """Parses `Example` protos into a `dict` of tensors.

    Each `VarLenFeature` maps to a `SparseTensor` whose indices are `[batch, index]` and whose dense
    shape is `[batch_size, longest]`. Each `FixedLenFeature` `df` maps to a `Tensor` of shape
    `(batch_size,) + df.shape`; examples missing it take `df.default_value` (with no default the
    feature is required). Each `FixedLenSequenceFeature` `df` (with `allow_missing=True`) maps to a
    `Tensor` of shape `(batch_size, None) + df.shape`, padded with `df.default_value`.

    For example, with `features={"kw": tf.VarLenFeature(tf.string), "age": tf.FixedLenFeature([],
    tf.int64, default_value=-1)}` and two examples `{kw: ["knit", "big"], age: [0]}` and `{kw:
    ["emmy"]}`, the result is `{"kw": SparseTensor(indices=[[0, 0], [0, 1], [1, 0]], values=["knit",
    "big", "emmy"], dense_shape=[2, 2]), "age": [0, -1]}`.

    Args:
      serialized: A vector (1-D Tensor) of strings, a batch of binary serialized `Example` protos.
      features: A `dict` mapping feature keys to `FixedLenFeature`, `VarLenFeature` and
        `FixedLenSequenceFeature` values.
      name: A name for this operation (optional).
      example_names: A vector (1-D Tensor) of strings (optional), the names of the serialized protos
        (used in error messages).

    Returns:
      A `dict` mapping feature keys to `Tensor` and `SparseTensor` values.

    Raises:
      ValueError: If any feature is invalid.
      TypeError: If a feature's dtype is not float32, int64 or string.
      tf.errors.InvalidArgumentError: At run time, for a required feature that is missing (the message
        names the key), a value count that does not fit the shape, mismatched types or a corrupt proto.
    """
    if not features:
        raise ValueError("Missing: features was %s." % features)
    from .sparse_feature_ops import expand_sparse_features, merge_sparse_features
    params = _ParseParams(expand_sparse_features(features))
    with ops.name_scope(name, "ParseExample", [serialized, example_names]) as scope:
        serialized = ops.convert_to_tensor(serialized, name="serialized")
        names = ops.convert_to_tensor([] if example_names is None else example_names, dtype=dtypes.string,
                                      name="names")
        defaults = params.dense_default_tensors()
        outs = ops.apply_op("ParseExample", [serialized, names] + defaults, params.attrs(), name=scope)
        return merge_sparse_features(features, _build_outputs(outs, params))


# ---- ParseSingleExample ----------------------------------------------------------------------------
def _parse_single_example_infer(op):
    _check_string_input(op._inputs[0], "serialized", "ParseSingleExample")
    return _parse_infer(op, ())


def _parse_single_example_kernel(xp, serialized, *defaults, sparse_keys, sparse_types, dense_keys, dense_types,
                                 dense_shapes):
    if serialized.ndim != 0:
        raise errors.InvalidArgumentError(None, None, "Expected serialized to be a scalar, got shape: %s"
                                          % _shape_str(serialized.shape))
    return _flatten_outputs(*_parse_examples(serialized.reshape(-1), (), defaults, True, sparse_keys, sparse_types,
                                             dense_keys, dense_types, dense_shapes))


register_op("ParseSingleExample", infer=_parse_single_example_infer, kernel=_parse_single_example_kernel,
            grad=NO_GRADIENT)


def parse_single_example(serialized, features, name=None, example_names=None):
    """Parses a single `Example` proto.

    Like `parse_example` without the batch dimension: a `FixedLenFeature` gives a `Tensor` of exactly
    its `shape`, a `FixedLenSequenceFeature` one of shape `[None] + shape`, and a `VarLenFeature` a
    `SparseTensor` with indices `[index]` and dense shape `[num_values]`.

    Args:
      serialized: A scalar string Tensor, a single serialized Example.
      features: A `dict` mapping feature keys to `FixedLenFeature`, `VarLenFeature` or
        `FixedLenSequenceFeature` values.
      name: A name for this operation (optional).
      example_names: (Optional) A scalar string Tensor, the associated name (unused).

    Returns:
      A `dict` mapping feature keys to `Tensor` and `SparseTensor` values.

    Raises:
      ValueError: If any feature is invalid, or `serialized` is not a scalar.
      TypeError: If a feature's dtype is not float32, int64 or string.
      tf.errors.InvalidArgumentError: At run time, for a required feature that is missing (the message
        names the key), a value count that does not fit the shape, mismatched types or a corrupt proto.
    """
    if not features:
        raise ValueError("Missing features.")
    from .sparse_feature_ops import expand_sparse_features, merge_sparse_features
    params = _ParseParams(expand_sparse_features(features))
    with ops.name_scope(name, "ParseSingleExample", [serialized, example_names]) as scope:
        serialized = ops.convert_to_tensor(serialized, name="serialized")
        if serialized.shape.ndims is not None and serialized.shape.ndims != 0:
            raise ValueError("Input serialized must be a scalar")
        defaults = params.dense_default_tensors()
        outs = ops.apply_op("ParseSingleExample", [serialized] + defaults, params.attrs(), name=scope)
        return merge_sparse_features(features, _build_outputs(outs, params))


# ---- DecodeRaw -------------------------------------------------------------------------------------
_DECODE_RAW_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint16, dtypes.uint8,
                     dtypes.int16, dtypes.int8, dtypes.int64, dtypes.complex64, dtypes.complex128, dtypes.bool_)
_TF_NAMES = {dtypes.float16: "half", dtypes.float32: "float", dtypes.float64: "double"}


def _decode_raw_infer(op):
    _check_string_input(op._inputs[0], "bytes", "DecodeRaw")
    s = op._inputs[0].shape.as_tuple()
    return [(op._attrs["out_type"], None if s is None else s + (None,))]


def _decode_raw_kernel(xp, data, out_type, little_endian):
    dt = np.dtype(out_type.as_numpy_dtype).newbyteorder("<" if little_endian else ">")
    flat = [bytes(b) for b in data.reshape(-1)]
    width = len(flat[0]) if flat else 0
    for i, b in enumerate(flat):
        if len(b) != width:
            raise errors.InvalidArgumentError(None, None, "DecodeRaw requires input strings to all be the same size, "
                                              "but element %d has size %d != %d" % (i, len(b), width))
    if width % dt.itemsize:
        raise errors.InvalidArgumentError(None, None, "Input to DecodeRaw has length %d that is not a multiple of %d, "
                                          "the size of %s" % (width, dt.itemsize,
                                                              _TF_NAMES.get(out_type, out_type.name)))
    out = np.frombuffer(b"".join(flat), dtype=dt).astype(dt.newbyteorder("="))
    return out.reshape(data.shape + (width // dt.itemsize,))


register_op("DecodeRaw", infer=_decode_raw_infer, kernel=_decode_raw_kernel, grad=NO_GRADIENT)


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):  # noqa: A002
    """Reinterprets the bytes of a string as a vector of numbers.

    Args:
      input_bytes: A `Tensor` of type `string`; all elements must have the same length.
      out_type: A `tf.DType` from: half, float32, float64, int32, uint16, uint8, int16, int8, int64,
        complex64, complex128, bool.
      little_endian: Whether the input bytes are in little-endian order (ignored for one-byte types).
      name: A name for the operation (optional).
      bytes: Deprecated alias of `input_bytes`.

    Returns:
      A `Tensor` of type `out_type` and shape `input_bytes.shape + [length / out_type.size]`.

    Raises:
      ValueError: If both or neither of `input_bytes` and `bytes` are given.
      TypeError: If `out_type` is not supported.
      tf.errors.InvalidArgumentError: At run time, if the strings differ in length or a length is not a
        multiple of the element size.
    """
    if (input_bytes is None) == (bytes is None):
        raise ValueError("Cannot specify both 'input_bytes' and 'bytes'." if input_bytes is not None
                         else "Must specify exactly one of 'input_bytes' and 'bytes'.")
    if input_bytes is None:
        input_bytes = bytes
    if out_type is None:
        raise TypeError("decode_raw() missing required argument: 'out_type'")
    out_type = dtypes.as_dtype(out_type)
    if out_type not in _DECODE_RAW_TYPES:
        raise TypeError("Value passed to parameter 'out_type' has DataType %s not in list of allowed values: %s"
                        % (out_type.name, ", ".join(d.name for d in _DECODE_RAW_TYPES)))
    with ops.name_scope(name, "DecodeRaw", [input_bytes]) as scope:
        input_bytes = ops.convert_to_tensor(input_bytes, name="bytes")
        return ops.apply_op("DecodeRaw", [input_bytes], {"out_type": out_type, "little_endian": bool(little_endian)},
                            name=scope)
