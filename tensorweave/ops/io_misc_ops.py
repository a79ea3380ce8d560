"""Small I/O ops: `tf.io.decode_compressed` (DecodeCompressed: ZLIB/GZIP strings), `tf.io.decode_json_example`
(DecodeJSONExample: the JSON text of `tf.train.Example` protos to their binary serialization, through
protobuf's `json_format`, the `data` extra) and `tf.timestamp` (Timestamp: the wall-clock time when the op
runs, a stateful float64 scalar)."""

import re
import time
import zlib

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["decode_compressed", "decode_json_example", "timestamp"]


def _string_input(value, param, op_type):
    """`value` as a string tensor, with TF's TypeErrors for other dtypes."""
    if isinstance(value, ops.Tensor):
        if value.dtype != dtypes.string:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of string."
                            % (param, op_type, value.dtype.name))
        return value
    try:
        t = ops.convert_to_tensor(value, dtype_hint=dtypes.string, name=param)
    except (TypeError, ValueError):
        t = None
    if t is not None and t.dtype == dtypes.string:
        return t
    first = value
    while isinstance(first, (list, tuple)) and first:
        first = first[0]
    if isinstance(first, np.ndarray) and first.size:
        first = first.reshape(-1)[0]
    raise TypeError("Expected string passed to parameter '%s' of op '%s', got %r of type '%s' instead. Error: "
                    "Expected string, but got %r of type '%s'." % (param, op_type, value, type(value).__name__,
                                                                  first, type(first).__name__))


def _same_shape_infer(op):
    x = op._inputs[0]
    return [(dtypes.string, x._shape.as_tuple())]


def _object_like(shape, values):
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out.reshape(shape)


# ---- DecodeCompressed --------------------------------------------------------------------------------
_WBITS = {"ZLIB": zlib.MAX_WBITS, "GZIP": 16 + zlib.MAX_WBITS}


def _inflate(data, wbits):
    out = []
    while True:
        d = zlib.decompressobj(wbits)
        try:
            out.append(d.decompress(data))
            out.append(d.flush())
        except zlib.error as e:
            m = re.match(r"Error (-?\d+) while (?:decompressing data|flushing)(?:: (.*))?", str(e))
            code, why = (m.group(1), m.group(2) or "") if m else ("-3", str(e))
            raise errors.DataLossError(None, None, "inflate() failed with error %s: %s" % (code, why)) from None
        data = d.unused_data
        if not d.eof or not data or wbits == _WBITS["ZLIB"]:  # TF: gzip members follow each other; zlib stops
            return b"".join(out)


def _decode_compressed_kernel(xp, data, compression_type):
    if compression_type not in ("", "ZLIB", "GZIP"):
        raise errors.InvalidArgumentError(None, None, "Only ZLIB, GZIP or NONE are supported compressions")
    flat = [bytes(b) for b in data.reshape(-1)]
    if compression_type == "":
        return _object_like(data.shape, flat)
    return _object_like(data.shape, [_inflate(b, _WBITS[compression_type]) for b in flat])


register_op("DecodeCompressed", infer=_same_shape_infer, kernel=_decode_compressed_kernel, grad=NO_GRADIENT)


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002 (TF's argument name)
    """Decompresses strings.

    Each element of `bytes` is decompressed; the output has the shape of `bytes`. As TensorFlow's
    kernel: concatenated GZIP members are decompressed one after the other, bytes after a ZLIB stream
    are ignored, and a truncated stream gives what it decodes to (no error).

    Args:
      bytes: A `Tensor` of type `string`, any shape.
      compression_type: One of "" (no compression: the strings are returned as they are), "ZLIB" or
        "GZIP".
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `string` and the shape of `bytes`.

    Raises:
      TypeError: If `bytes` is not a string tensor.
      tf.errors.InvalidArgumentError: At run time, for another `compression_type`.
      tf.errors.DataLossError: At run time, for data that is not a valid stream of that type.
    """
    with ops.name_scope(name, "DecodeCompressed", [bytes]) as scope:
        x = _string_input(bytes, "bytes", "DecodeCompressed")
        return ops.apply_op("DecodeCompressed", [x], {"compression_type": str(compression_type or "")}, name=scope)


# ---- DecodeJSONExample -----------------------------------------------------------------------------
_JSON = []


def _json_tools():
    if not _JSON:
        try:
            from google.protobuf import json_format
        except ImportError:
            raise ImportError("tf.io.decode_json_example needs protobuf: pip install 'tensorweave[data]'") from None
        from .example_proto import message_classes
        _JSON.extend([json_format, message_classes()["Example"]])
    return _JSON


def _decode_json_example_kernel(xp, json_examples):
    json_format, example_cls = _json_tools()
    out = []
    for b in json_examples.reshape(-1):
        text = bytes(b).decode("utf-8", "replace") if isinstance(b, (bytes, np.bytes_)) else str(b)
        head = text.lstrip()[:1]
        if head and head != "{":  # protobuf's C++ parser (TF's) wants an object; Python's takes any JSON
            raise errors.InvalidArgumentError(None, None, "Error while parsing JSON: invalid JSON in "
                                              "type.googleapis.com/tensorflow.Example: unexpected character: "
                                              "'%s'; expected '{'" % head)
        try:
            msg = json_format.Parse(text, example_cls())
        except (json_format.ParseError, ValueError, TypeError) as e:
            raise errors.InvalidArgumentError(None, None, "Error while parsing JSON: %s" % e) from None
        out.append(msg.SerializeToString())
    return _object_like(json_examples.shape, out)


register_op("DecodeJSONExample", infer=_same_shape_infer, kernel=_decode_json_example_kernel, grad=NO_GRADIENT)


def decode_json_example(json_examples, name=None):
    """Converts JSON-encoded `tf.train.Example` records to binary protocol buffer strings.

    The JSON is protobuf's JSON mapping of `tf.train.Example` (field names in lowerCamelCase or as in
    the proto; bytes as base64; int64 values as numbers or strings), e.g.
    `'{"features": {"feature": {"a": {"int64List": {"value": ["1", "2"]}}}}}'`. The output can be fed to
    `tf.io.parse_example`.

    Args:
      json_examples: A string `Tensor` (any shape) of JSON-encoded `Example` records.
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the same shape: each record's binary serialization.

    Raises:
      TypeError: If `json_examples` is not a string tensor.
      ImportError: At run time, if protobuf (`tensorweave[data]`) is not installed.
      tf.errors.InvalidArgumentError: At run time, for text that is not such JSON.
    """
    with ops.name_scope(name, "DecodeJSONExample", [json_examples]) as scope:
        x = _string_input(json_examples, "json_examples", "DecodeJSONExample")
        return ops.apply_op("DecodeJSONExample", [x], name=scope)


# ---- Timestamp -------------------------------------------------------------------------------------
def _timestamp_infer(op):
    return [(dtypes.float64, ())]


def _timestamp_kernel(ctx, op):
    return np.float64(time.time())


register_op("Timestamp", infer=_timestamp_infer, kernel=_timestamp_kernel, grad=NO_GRADIENT, stateful=True)


def timestamp(name=None):
    """Provides the time since the epoch in seconds, when the op runs.

    The op is stateful: each run (and each evaluation in a loop) reads the clock again, and it is never
    constant-folded.

    Args:
      name: A name for the operation (optional).

    Returns:
      A scalar `Tensor` of type `float64`: seconds since 1970-01-01 00:00 UTC, with microsecond resolution.
    """
    return ops.apply_op("Timestamp", [], name=name or "Timestamp")
