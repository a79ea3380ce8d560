"""Unicode ops of `tf.strings`: "UnicodeDecode", "UnicodeDecodeWithOffsets", "UnicodeEncode" and
"UnicodeTranscode", with the Python functions `unicode_decode(_with_offsets)`, `unicode_encode`,
`unicode_split(_with_offsets)` and `unicode_transcode` that shape their results as TF does
(ragged tensors for the variable number of characters).

Encodings: UTF-8, UTF-16-BE, UTF-32-BE (both directions) and ISO-8859-1 (input only). The decoders
are written here so that invalid input follows ICU's rule (the one TF uses): each maximal prefix of
a valid sequence becomes one error (replaced, dropped, or an error with `errors="strict"`).
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from .ragged_tensor import RaggedTensor
from .string_ops import _as_bytes, _string_array

__all__ = ["unicode_decode", "unicode_decode_with_offsets", "unicode_encode", "unicode_split",
           "unicode_split_with_offsets", "unicode_transcode"]

_INPUT_ENCODINGS = {"UTF-8": "utf8", "UTF8": "utf8", "UTF-16-BE": "utf16", "UTF16-BE": "utf16", "UTF-16BE": "utf16",
                    "UTF-32-BE": "utf32", "UTF32-BE": "utf32", "UTF-32BE": "utf32", "ISO-8859-1": "latin1",
                    "LATIN1": "latin1", "ISO_8859-1": "latin1"}
_OUTPUT_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")
_ERRORS = ("strict", "replace", "ignore")

# Second-byte ranges of UTF-8 lead bytes (Unicode Table 3-7); later bytes are 80..BF.
_LEAD = {}
for _b in range(0xC2, 0xE0):
    _LEAD[_b] = (1, 0x80, 0xBF)
for _b in range(0xE0, 0xF0):
    _LEAD[_b] = (2, 0xA0 if _b == 0xE0 else 0x80, 0x9F if _b == 0xED else 0xBF)
for _b in range(0xF0, 0xF5):
    _LEAD[_b] = (3, 0x90 if _b == 0xF0 else 0x80, 0x8F if _b == 0xF4 else 0xBF)


def _decode_utf8(s):
    """[(code point or None for an invalid sequence, byte start)]."""
    out, i, n = [], 0, len(s)
    while i < n:
        b = s[i]
        if b < 0x80:
            out.append((b, i))
            i += 1
            continue
        lead = _LEAD.get(b)
        if lead is None:
            out.append((None, i))
            i += 1
            continue
        more, lo, hi = lead
        j = i + 1
        cp = b & (0x3F >> more)
        ok = True
        for k in range(more):
            if j >= n:
                ok = False
                break
            c = s[j]
            if not ((lo <= c <= hi) if k == 0 else (0x80 <= c <= 0xBF)):
                ok = False
                break
            cp = (cp << 6) | (c & 0x3F)
            j += 1
        out.append((cp if ok else None, i))
        i = j
    return out


def _decode_utf16(s):
    out, i, n = [], 0, len(s)
    while i < n:
        if i + 1 >= n:
            out.append((None, i))
            break
        u = (s[i] << 8) | s[i + 1]
        if 0xD800 <= u <= 0xDBFF:
            if i + 3 < n:
                v = (s[i + 2] << 8) | s[i + 3]
                if 0xDC00 <= v <= 0xDFFF:
                    out.append((0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00), i))
                    i += 4
                    continue
            out.append((None, i))
            i += 2
            continue
        out.append((None if 0xDC00 <= u <= 0xDFFF else u, i))
        i += 2
    return out


def _decode_utf32(s):
    out = []
    for i in range(0, len(s), 4):
        if i + 4 > len(s):
            out.append((None, i))
            break
        u = int.from_bytes(s[i:i + 4], "big")
        out.append((None if u > 0x10FFFF or 0xD800 <= u <= 0xDFFF else u, i))
    return out


_DECODERS = {"utf8": _decode_utf8, "utf16": _decode_utf16, "utf32": _decode_utf32,
             "latin1": lambda s: [(b, i) for i, b in enumerate(s)]}


def _is_control(cp):
    return cp < 0x20  # TF replaces C0 controls only (0x7F stays)


def _decoder(encoding):
    key = _INPUT_ENCODINGS.get(str(encoding).upper())
    if key is None:
        raise errors.InvalidArgumentError(None, None, "Could not create converter for input encoding: %s" % encoding)
    return _DECODERS[key]


def _decode_all(x, input_encoding, errors_mode, replacement_char, replace_control_characters):
    decode = _decoder(input_encoding)
    rows, starts = [], []
    for v in np.asarray(x, dtype=object).reshape(-1):
        chars, offs = [], []
        for cp, start in decode(_as_bytes(v)):
            if cp is None:
                if errors_mode == "strict":
                    raise errors.InvalidArgumentError(None, None, "Invalid formatting on input string")
                if errors_mode == "ignore":
                    continue
                cp = replacement_char
            elif replace_control_characters and _is_control(cp):
                cp = replacement_char
            chars.append(cp)
            offs.append(start)
        rows.append(chars)
        starts.append(offs)
    return rows, starts


def _check_decode_attrs(op):
    x = op._inputs[0]
    if x.dtype is not dtypes.string:
        raise TypeError("Input 'input' of '%s' Op has type %s that does not match expected type of string."
                        % (op._type, x.dtype.name))
    if op._attrs["errors"] not in _ERRORS:
        raise ValueError("Value for attr 'errors' of \"%s\" is not in the list of allowed values: \"strict\", "
                         "\"replace\", \"ignore\"" % op._attrs["errors"])
    dims = x.shape.as_tuple()
    n = None if dims is None or None in dims else int(np.prod(dims, dtype=np.int64))
    sdt = dtypes.as_dtype(op._attrs.get("Tsplits", dtypes.int64))
    return [(sdt, (None if n is None else n + 1,)), (dtypes.int32, (None,))]


def _decode_kernel(with_offsets):
    def kernel(xp, x, input_encoding, errors="replace", replacement_char=0xFFFD, replace_control_characters=False,
               Tsplits=dtypes.int64):  # noqa: N803 (TF's attribute name)
        rows, starts = _decode_all(x, input_encoding, errors, replacement_char, replace_control_characters)
        splits = np.concatenate([[0], np.cumsum([len(r) for r in rows], dtype=np.int64)]).astype(
            dtypes.as_dtype(Tsplits).as_numpy_dtype)
        chars = np.array([c for r in rows for c in r], np.int32)
        if with_offsets:
            return splits, chars, np.array([o for r in starts for o in r], np.int64)
        return splits, chars
    return kernel


def _decode_offsets_infer(op):
    return _check_decode_attrs(op) + [(dtypes.int64, (None,))]


register_op("UnicodeDecode", infer=_check_decode_attrs, kernel=_decode_kernel(False), grad=NO_GRADIENT)
register_op("UnicodeDecodeWithOffsets", infer=_decode_offsets_infer, kernel=_decode_kernel(True), grad=NO_GRADIENT)


def _decode(input, input_encoding, errors, replacement_char, replace_control_characters, with_offsets,  # noqa: A002
            name):
    from . import array_ops
    op_type = "UnicodeDecodeWithOffsets" if with_offsets else "UnicodeDecode"
    with ops.name_scope(name, op_type, [input]):
        if not isinstance(input, RaggedTensor):
            input = input if isinstance(input, ops.Tensor) else ops.convert_to_tensor(input, dtype=dtypes.string)
        ndims = input.shape.ndims
        if ndims is None:
            raise ValueError("Rank of `input` must be statically known.")
        if ndims > 1 and not isinstance(input, RaggedTensor):
            input = RaggedTensor.from_tensor(input, ragged_rank=ndims - 1)
        flat = array_ops.reshape(input.flat_values if isinstance(input, RaggedTensor) else input, [-1])
        outs = ops.apply_op(op_type, [flat], {"input_encoding": input_encoding, "errors": errors,
                                              "replacement_char": int(replacement_char),
                                              "replace_control_characters": bool(replace_control_characters),
                                              "Tsplits": dtypes.int64}, name=op_type)
        splits, chars = outs[0], outs[1]
        if ndims == 0:
            return (chars, outs[2]) if with_offsets else chars
        result = RaggedTensor.from_row_splits(chars, splits, validate=False)
        offsets = RaggedTensor.from_row_splits(outs[2], splits, validate=False) if with_offsets else None
        if ndims > 1:
            result = input.with_flat_values(result)
            offsets = input.with_flat_values(offsets) if with_offsets else None
        return (result, offsets) if with_offsets else result


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """Decodes each string of `input` into its Unicode code points (TF's `tf.strings.unicode_decode`,
    op "UnicodeDecode").

    Args:
      input: A string `Tensor` (or `RaggedTensor`) of statically known rank.
      input_encoding: "UTF-8", "UTF-16-BE", "UTF-32-BE" or "ISO-8859-1".
      errors: What an invalid sequence becomes: "replace" (`replacement_char`, the default),
        "ignore" (nothing) or "strict" (an InvalidArgumentError).
      replacement_char: The code point of replacements (default U+FFFD).
      replace_control_characters: Whether C0/C1 control characters are replaced too.
      name: A name for the operation (optional).

    Returns:
      An int32 `Tensor` for a scalar `input`, else a `RaggedTensor` of shape `input.shape + [None]`.

    Raises:
      ValueError: If the rank of `input` is not statically known.
      InvalidArgumentError: At run time, for an unsupported encoding or invalid input under "strict".
    """
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters, False, name)


def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                                replace_control_characters=False, name=None):
    """`unicode_decode` plus the byte offset where each character starts (TF's
    `tf.strings.unicode_decode_with_offsets`, op "UnicodeDecodeWithOffsets").

    Returns:
      A tuple `(codepoints, start_offsets)` of int32 and int64 (ragged) tensors of one shape.

    Raises:
      ValueError: If the rank of `input` is not statically known.
      InvalidArgumentError: At run time, for an unsupported encoding or invalid input under "strict".
    """
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters, True, name)


# ---- UnicodeEncode -------------------------------------------------------------------------------
def _valid_cp(cp):
    return 0 <= cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF


def _encode_cp(cp, encoding):
    if encoding == "UTF-8":
        return chr(cp).encode("utf-8")
    if encoding == "UTF-16-BE":
        return chr(cp).encode("utf-16-be")
    return cp.to_bytes(4, "big")


def _encode_chars(chars, output_encoding, errors_mode, replacement_char):
    parts = []
    for cp in chars:
        cp = int(cp)
        if not _valid_cp(cp):
            if errors_mode == "strict":
                raise errors.InvalidArgumentError(None, None, "Code point is out of range for Unicode, or is a "
                                                  "surrogate.")
            if errors_mode == "ignore":
                continue
            cp = replacement_char
        parts.append(_encode_cp(cp, output_encoding))
    return b"".join(parts)


def _check_output_encoding(encoding):
    if encoding not in _OUTPUT_ENCODINGS:
        raise ValueError("Attr 'output_encoding' of 'UnicodeTranscode' Op passed string '%s' not in: \"UTF-8\", "
                         "\"UTF-16-BE\", \"UTF-32-BE\"." % (encoding,))


def _encode_infer(op):
    values, splits = op._inputs
    if values.dtype is not dtypes.int32:
        raise TypeError("Input 'input_values' of 'UnicodeEncode' Op has type %s that does not match expected type of "
                        "int32." % values.dtype.name)
    if splits.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'input_splits' has DataType %s not in list of allowed values: "
                        "int32, int64" % splits.dtype.name)
    _check_output_encoding(op._attrs["output_encoding"])
    for t, arg in ((values, "input_values"), (splits, "input_splits")):
        if t.shape.ndims not in (None, 1):
            raise ValueError("Shape must be rank 1 but is rank %d" % t.shape.ndims)
    d = splits.shape.as_tuple()
    return [(dtypes.string, (None if d is None or d[0] is None else d[0] - 1,))]


def _encode_kernel(xp, values, splits, output_encoding, errors="replace", replacement_char=0xFFFD,
                   Tsplits=None):  # noqa: N803 (TF's attribute name)
    values, splits = np.asarray(values), np.asarray(splits)
    if splits.size == 0 or splits[0] != 0 or np.any(np.diff(splits) < 0) or splits[-1] != values.size:
        raise errors.InvalidArgumentError(None, None, "Invalid input_splits for UnicodeEncode")
    if errors == "replace" and not _valid_cp(int(replacement_char)):
        raise errors.InvalidArgumentError(None, None, "Invalid replacement_char: %d" % replacement_char)
    out = [_encode_chars(values[splits[i]:splits[i + 1]], output_encoding, errors, int(replacement_char))
           for i in range(len(splits) - 1)]
    return _string_array(out, (len(out),))


register_op("UnicodeEncode", infer=_encode_infer, kernel=_encode_kernel, grad=NO_GRADIENT)


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Encodes rows of Unicode code points as strings (TF's `tf.strings.unicode_encode`, op
    "UnicodeEncode"): the innermost dimension of `input` is joined into one string.

    Args:
      input: An int32 `Tensor` (rank >= 1) or `RaggedTensor` of code points.
      output_encoding: "UTF-8", "UTF-16-BE" or "UTF-32-BE".
      errors: What an invalid code point becomes: "replace" (`replacement_char`), "ignore" or
        "strict" (an InvalidArgumentError).
      replacement_char: The code point of replacements (default U+FFFD).
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` (or `RaggedTensor`) of rank `input.rank - 1`.

    Raises:
      ValueError: If `input` is a scalar or `output_encoding` is not supported.
      InvalidArgumentError: At run time, for an invalid code point under "strict".
    """
    from . import array_ops
    _check_output_encoding(output_encoding)
    with ops.name_scope(name, "UnicodeEncode", [input]):
        if isinstance(input, RaggedTensor):
            if input.flat_values.shape.ndims is not None and input.flat_values.shape.ndims > 1:
                return input.with_flat_values(unicode_encode(input.flat_values, output_encoding, errors,
                                                             replacement_char))
            if input.ragged_rank > 1:
                return input.with_values(unicode_encode(input.values, output_encoding, errors, replacement_char))
            return ops.apply_op("UnicodeEncode", [input.values, input.row_splits],
                                {"output_encoding": output_encoding, "errors": errors,
                                 "replacement_char": int(replacement_char), "Tsplits": input.row_splits.dtype},
                                name="UnicodeEncode")
        x = input if isinstance(input, ops.Tensor) else ops.convert_to_tensor(input, dtype=dtypes.int32)
        ndims = x.shape.ndims
        if ndims is None:
            raise ValueError("Rank of `input` must be statically known.")
        if ndims == 0:
            raise ValueError("input_ must have a rank of at least 1")
        if ndims > 1:
            shape = array_ops.shape(x, out_type=dtypes.int64)
            flat = array_ops.reshape(x, array_ops.stack([-1, array_ops.shape(x)[-1]]))
            out = unicode_encode(RaggedTensor.from_tensor(flat), output_encoding, errors, replacement_char)
            result = array_ops.reshape(out, shape[:-1])
            static = x.shape.as_list()[:-1]
            result.set_shape(static) if hasattr(result, "set_shape") else None
            return result
        splits = array_ops.stack([ops.convert_to_tensor(np.int64(0)), array_ops.shape(x, out_type=dtypes.int64)[0]])
        out = unicode_encode(RaggedTensor.from_row_splits(x, splits, validate=False), output_encoding, errors,
                             replacement_char)
        return array_ops.reshape(out, [])


# ---- UnicodeTranscode ----------------------------------------------------------------------------
def _transcode_infer(op):
    x = op._inputs[0]
    if x.dtype is not dtypes.string:
        raise TypeError("Input 'input' of 'UnicodeTranscode' Op has type %s that does not match expected type of "
                        "string." % x.dtype.name)
    _check_output_encoding(op._attrs["output_encoding"])
    return [(dtypes.string, x.shape.as_tuple())]


def _transcode_kernel(xp, x, input_encoding, output_encoding, errors="replace", replacement_char=0xFFFD,
                      replace_control_characters=False):
    a = np.asarray(x, dtype=object)
    rows, _ = _decode_all(a, input_encoding, errors, replacement_char, replace_control_characters)
    return _string_array([_encode_chars(r, output_encoding, errors, replacement_char) for r in rows], a.shape)


register_op("UnicodeTranscode", infer=_transcode_infer, kernel=_transcode_kernel, grad=NO_GRADIENT)


def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                      replace_control_characters=False, name=None):
    """Re-encodes each string from `input_encoding` to `output_encoding` (TF's
    `tf.strings.unicode_transcode`, op "UnicodeTranscode").

    Args:
      input: A string `Tensor`.
      input_encoding: "UTF-8", "UTF-16-BE", "UTF-32-BE" or "ISO-8859-1".
      output_encoding: "UTF-8", "UTF-16-BE" or "UTF-32-BE".
      errors: "replace" (default), "ignore" or "strict", for invalid input.
      replacement_char: The code point of replacements (default U+FFFD).
      replace_control_characters: Whether C0/C1 control characters are replaced too.
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the shape of `input`.

    Raises:
      ValueError: If `output_encoding` is not supported.
      InvalidArgumentError: At run time, for an unsupported input encoding or invalid input under
        "strict".
    """
    _check_output_encoding(output_encoding)
    with ops.name_scope(name, "UnicodeTranscode", [input]) as scope:
        x = input if isinstance(input, ops.Tensor) else ops.convert_to_tensor(input, dtype=dtypes.string)
        return ops.apply_op("UnicodeTranscode", [x], {
            "input_encoding": input_encoding, "output_encoding": output_encoding, "errors": errors,
            "replacement_char": int(replacement_char),
            "replace_control_characters": bool(replace_control_characters)}, name=scope)


# ---- unicode_split -------------------------------------------------------------------------------
def _split_chars(codepoints, encoding, errors, replacement_char):
    """Each code point of a (ragged) int32 tensor as a one-character string."""
    from . import array_ops
    out_encoding = encoding if encoding in _OUTPUT_ENCODINGS else "UTF-8"
    if isinstance(codepoints, RaggedTensor):
        flat = codepoints.flat_values
        chars = unicode_encode(array_ops.expand_dims(flat, -1), out_encoding, errors, replacement_char)
        return codepoints.with_flat_values(chars)
    return unicode_encode(array_ops.expand_dims(codepoints, -1), out_encoding, errors, replacement_char)


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Splits each string of `input` into its characters (TF's `tf.strings.unicode_split`), each
    re-encoded in `input_encoding` (invalid sequences become the encoded `replacement_char`).

    Args:
      input: A string `Tensor` of statically known rank.
      input_encoding: "UTF-8", "UTF-16-BE" or "UTF-32-BE".
      errors: "replace" (default), "ignore" or "strict".
      replacement_char: The code point of replacements (default U+FFFD).
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` (scalar `input`) or `RaggedTensor` of shape `input.shape + [None]`.
    """
    with ops.name_scope(name, "UnicodeSplit", [input]):
        codepoints = _decode(input, input_encoding, errors, replacement_char, False, False, None)
        return _split_chars(codepoints, input_encoding, errors, replacement_char)


def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                               name=None):
    """`unicode_split` plus the byte offset where each character starts (TF's
    `tf.strings.unicode_split_with_offsets`).

    Returns:
      A tuple `(chars, start_offsets)` (string and int64, ragged unless `input` is a scalar).
    """
    with ops.name_scope(name, "UnicodeSplitWithOffsets", [input]):
        codepoints, offsets = _decode(input, input_encoding, errors, replacement_char, False, True, None)
        return _split_chars(codepoints, input_encoding, errors, replacement_char), offsets
