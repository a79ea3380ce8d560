"""Elementwise string ops of `tf.strings`: "StringLength", "StringLower", "StringUpper", "StringStrip",
"Substr", "RegexReplace"/"StaticRegexReplace", "RegexFullMatch", "AsString", "StringToNumber",
"EncodeBase64" and "DecodeBase64".

Strings are NumPy object arrays of `bytes`. Regular expressions use Python's `re` for RE2's syntax
(they agree on the common patterns; RE2's rewrite `\\0`..`\\9` is translated). None of these ops
has a gradient.
"""

import base64
import binascii
import math
import re

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from .math_helpers import _broadcast_shapes
from .string_ops import _as_bytes, _bytes, _string_array, _text, re2_compile, static_regex_full_match

__all__ = ["as_string", "decode_base64", "encode_base64", "lower", "regex_full_match", "regex_replace",
           "string_length", "string_strip", "string_to_number", "substr", "upper"]


# ---- helpers -------------------------------------------------------------------------------------
def _string_tensor(x, name="input"):
    if isinstance(x, ops.Tensor):
        return x
    return ops.convert_to_tensor(x, dtype=dtypes.string, name=name)


def _check_string(op, index=0, arg="input"):
    t = op._inputs[index]
    if t.dtype is not dtypes.string:
        raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of string."
                        % (arg, op._type, t.dtype.name))
    return t


def _map_strings(x, fn, out_dtype=object):
    """`fn` applied to every string of the object array `x`, keeping its shape."""
    a = np.asarray(x, dtype=object)
    flat = [fn(_as_bytes(v)) for v in a.reshape(-1)]
    if out_dtype is object:
        return _string_array(flat, a.shape)
    return np.array(flat, dtype=out_dtype).reshape(a.shape)


def _same_shape_infer(out_dtype=None, arg="input"):
    def infer(op):
        t = _check_string(op, 0, arg)
        return [(out_dtype or dtypes.string, t.shape.as_tuple())]
    return infer


def _is_trail(b):
    return (b & 0xC0) == 0x80


# ---- StringLength --------------------------------------------------------------------------------
def _length_kernel(xp, x, unit="BYTE"):
    if unit == "UTF8_CHAR":
        return _map_strings(x, lambda s: sum(1 for b in s if not _is_trail(b)), np.int32)
    return _map_strings(x, len, np.int32)


def _check_unit(unit, op_type):
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError("Value for attr 'unit' of \"%s\" is not in the list of allowed values: \"BYTE\", "
                         "\"UTF8_CHAR\"; NodeDef: {{node %s}}" % (unit, op_type))


register_op("StringLength", infer=_same_shape_infer(dtypes.int32), kernel=_length_kernel, grad=NO_GRADIENT)


def string_length(input, name=None, unit="BYTE"):  # noqa: A002 (TF's argument name)
    """The length of each string of `input` (TF's `tf.strings.length`, op "StringLength").

    Args:
      input: A string `Tensor`.
      name: A name for the operation (optional).
      unit: "BYTE" (the default) counts bytes; "UTF8_CHAR" counts UTF-8 characters (every byte that
        is not a continuation byte `0b10xxxxxx`, so invalid UTF-8 still gets a count).

    Returns:
      An int32 `Tensor` of the shape of `input`.

    Raises:
      TypeError: If `input` is not a string tensor.
      ValueError: If `unit` is not "BYTE" or "UTF8_CHAR".
    """
    _check_unit(unit, "StringLength")
    with ops.name_scope(name, "StringLength", [input]) as scope:
        return ops.apply_op("StringLength", [_string_tensor(input)], {"unit": unit}, name=scope)


# ---- StringLower / StringUpper -------------------------------------------------------------------
_ASCII_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
_ASCII_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _case_kernel(upper):
    def kernel(xp, x, encoding=""):
        if encoding:
            def fn(s):
                u = s.decode("utf-8", "replace")  # ICU: each invalid sequence becomes U+FFFD
                return (u.upper() if upper else u.lower()).encode("utf-8")
        else:
            table = _ASCII_UPPER if upper else _ASCII_LOWER

            def fn(s):
                return s.translate(table)
        return _map_strings(x, fn)
    return kernel


register_op("StringLower", infer=_same_shape_infer(), kernel=_case_kernel(False), grad=NO_GRADIENT)
register_op("StringUpper", infer=_same_shape_infer(), kernel=_case_kernel(True), grad=NO_GRADIENT)


def _case(op_type, input, name, encoding):  # noqa: A002
    if encoding not in ("", "utf-8"):
        raise errors.InvalidArgumentError(None, None, "encoding must be '' or 'utf-8', got %r" % (encoding,))
    with ops.name_scope(name, op_type, [input]) as scope:
        return ops.apply_op(op_type, [_string_tensor(input)], {"encoding": encoding}, name=scope)


def lower(input, encoding="", name=None):  # noqa: A002
    """Converts the strings of `input` to lowercase (TF's `tf.strings.lower`, op "StringLower").

    Args:
      input: A string `Tensor`.
      encoding: "" (the default): only the ASCII letters change; "utf-8": the strings are decoded
        as UTF-8 and every cased character is mapped (Unicode's full case mapping).
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the shape of `input`.

    Raises:
      TypeError: If `input` is not a string tensor.
      InvalidArgumentError: If `encoding` is neither "" nor "utf-8" (under "utf-8", invalid UTF-8
        sequences become U+FFFD, as with TF's ICU conversion).
    """
    return _case("StringLower", input, name, encoding)


def upper(input, encoding="", name=None):  # noqa: A002
    """Converts the strings of `input` to uppercase (TF's `tf.strings.upper`, op "StringUpper").

    Args:
      input: A string `Tensor`.
      encoding: "" (ASCII letters only) or "utf-8" (Unicode's full case mapping: "ß" becomes "SS").
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the shape of `input`.

    Raises:
      TypeError: If `input` is not a string tensor.
      InvalidArgumentError: If `encoding` is neither "" nor "utf-8" (under "utf-8", invalid UTF-8
        sequences become U+FFFD, as with TF's ICU conversion).
    """
    return _case("StringUpper", input, name, encoding)


# ---- StringStrip ---------------------------------------------------------------------------------
_ASCII_SPACE = b" \t\n\v\f\r"


def _strip_kernel(xp, x):
    return _map_strings(x, lambda s: s.strip(_ASCII_SPACE))


register_op("StringStrip", infer=_same_shape_infer(), kernel=_strip_kernel, grad=NO_GRADIENT)


def string_strip(input, name=None):  # noqa: A002
    """Removes leading and trailing ASCII whitespace (TF's `tf.strings.strip`, op "StringStrip").

    Args:
      input: A string `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the shape of `input`.

    Raises:
      TypeError: If `input` is not a string tensor.
    """
    with ops.name_scope(name, "StringStrip", [input]) as scope:
        return ops.apply_op("StringStrip", [_string_tensor(input)], name=scope)


# ---- Substr --------------------------------------------------------------------------------------
def _substr_infer(op):
    x = _check_string(op)
    pos, length = op._inputs[1], op._inputs[2]
    for t, arg in ((pos, "pos"), (length, "len")):
        if t.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: int32, "
                            "int64" % (arg, t.dtype.name))
    if pos.dtype is not length.dtype:
        raise TypeError("Input 'len' of 'Substr' Op has type %s that does not match type %s of argument 'pos'."
                        % (length.dtype.name, pos.dtype.name))
    ps, ls = pos.shape.as_tuple(), length.shape.as_tuple()
    if ps is not None and ls is not None:
        if len(ps) != len(ls):
            raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(ps), len(ls)))
        for a, b in zip(ps, ls):
            if a is not None and b is not None and a != b:
                raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))
        ps = tuple(a if a is not None else b for a, b in zip(ps, ls))
    elif ps is None:
        ps = ls
    return [(dtypes.string, _broadcast_shapes(x.shape.as_tuple(), ps))]


def _forward_chars(s, n, pos):
    """TF's ForwardNUTF8CharPositions: (new byte position, whether n characters were passed)."""
    count = 0
    while count < n and pos < len(s):
        pos += 1
        while pos < len(s) and _is_trail(s[pos]):
            pos += 1
        count += 1
    return pos, count == n


def _back_chars(s, n, pos):
    count = 0
    while count < n and pos > 0:
        pos -= 1
        while pos > 0 and _is_trail(s[pos]):
            pos -= 1
        count += 1
    return pos, count == n


def _substr_kernel(xp, x, pos, length, unit="BYTE"):
    x = np.asarray(x, dtype=object)
    pos, length = np.asarray(pos), np.asarray(length)
    if pos.shape != length.shape:
        raise errors.InvalidArgumentError(None, None, "pos and len should have the same shape, got: %s vs. %s"
                                          % (list(pos.shape), list(length.shape)))
    try:
        shape = np.broadcast_shapes(x.shape, pos.shape)
    except ValueError:
        raise errors.InvalidArgumentError(None, None, "Incompatible shapes: %s vs. %s" % (
            list(x.shape), list(pos.shape))) from None
    xs = np.broadcast_to(x, shape).reshape(-1)
    ps = np.broadcast_to(pos, shape).reshape(-1)
    ls = np.broadcast_to(length, shape).reshape(-1)
    out = []
    for i, (s, p, n) in enumerate(zip(xs, ps, ls)):
        s, p, n = _as_bytes(s), int(p), int(n)
        if unit == "UTF8_CHAR":
            if p >= 0:
                start, ok = _forward_chars(s, p, 0)
            else:
                start, ok = _back_chars(s, -p, len(s))
            if not ok:
                raise errors.InvalidArgumentError(None, None, "pos %d out of range for string at index %d" % (p, i))
            end, _ = _forward_chars(s, n, start)
            out.append(s[start:end])
        else:
            start = p + len(s) if p < 0 else p
            if not 0 <= start <= len(s):
                raise errors.InvalidArgumentError(None, None, "pos %d out of range for string b'%s' at index %d"
                                                  % (p, s.decode("utf-8", "replace"), i))
            out.append(s[start:] if n < 0 else s[start:start + n])
    return _string_array(out, shape)


register_op("Substr", infer=_substr_infer, kernel=_substr_kernel, grad=NO_GRADIENT)


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002 (TF's argument names)
    """Substrings of `input` (TF's `tf.strings.substr` / `tf.substr`, op "Substr").

    `pos` and `len` have one shape; they broadcast with `input` (NumPy's rules). A negative `pos`
    counts from the end of the string; a `len` past the end stops there (a negative one, in "BYTE"
    units, means "to the end").

    Args:
      input: A string `Tensor`.
      pos: An int32 or int64 `Tensor`: the first position of each substring.
      len: A `Tensor` of `pos`'s dtype and shape: the length of each substring.
      name: A name for the operation (optional).
      unit: "BYTE" (the default) or "UTF8_CHAR": what `pos` and `len` count.

    Returns:
      A string `Tensor` of the broadcast shape.

    Raises:
      TypeError: If the dtypes are not as described.
      ValueError: If the static shapes do not broadcast or `unit` is invalid.
      InvalidArgumentError: At run time, if a position is out of range for its string.
    """
    _check_unit(unit, "Substr")
    with ops.name_scope(name, "Substr", [input, pos, len]) as scope:
        x = _string_tensor(input)
        p = pos if isinstance(pos, ops.Tensor) else ops.convert_to_tensor(pos, name="pos", preferred_dtype=dtypes.int32)
        n = len if isinstance(len, ops.Tensor) else ops.convert_to_tensor(len, name="len", dtype=p.dtype)
        return ops.apply_op("Substr", [x, p, n], {"unit": unit}, name=scope)


# ---- RegexReplace / StaticRegexReplace / RegexFullMatch ------------------------------------------
def _compile(pattern):
    try:
        return re2_compile(pattern)
    except re.error as e:
        raise errors.InvalidArgumentError(None, None, "Invalid pattern: %s, error: %s" % (
            _as_bytes(pattern).decode("utf-8", "replace"), e)) from None


def _rewrite_fn(regex, rewrite):
    """RE2's rewrite string (`\\0`..`\\9` groups, `\\\\` a backslash) as a `re.sub` replacement, or None
    when it names a group the pattern lacks (RE2 then leaves the string unchanged). As in RE2, a
    bad escape ends the rewrite there."""
    rewrite = _text(_as_bytes(rewrite))
    parts, i, lit = [], 0, ""
    while i < len(rewrite):
        c = rewrite[i]
        if c == "\\":
            nxt = rewrite[i + 1:i + 2]
            if nxt in "0123456789" and nxt:
                g = int(nxt)
                if g > regex.groups:
                    return None
                parts.append(lit)
                lit = ""
                parts.append(g)
                i += 2
                continue
            if nxt == "\\":
                lit += "\\"
                i += 2
                continue
            break
        lit += c
        i += 1
    parts.append(lit)

    def fn(m):
        return "".join(p if isinstance(p, str) else (m.group(p) or "") for p in parts)
    return fn


def _replace_all(x, pattern, rewrite, replace_global):
    regex = _compile(pattern)
    fn = _rewrite_fn(regex, rewrite)
    if fn is None:
        return _map_strings(x, lambda s: s)
    count = 0 if replace_global else 1
    return _map_strings(x, lambda s: _bytes(regex.sub(fn, _text(s), count=count)))


def _regex_replace_infer(op):
    x = _check_string(op)
    for i, arg in ((1, "pattern"), (2, "rewrite")):
        t = _check_string(op, i, arg)
        if t.shape.ndims not in (None, 0):
            raise ValueError("Shape must be rank 0 but is rank %d" % t.shape.ndims)
    return [(dtypes.string, x.shape.as_tuple())]


def _regex_replace_kernel(xp, x, pattern, rewrite, replace_global=True):
    return _replace_all(x, np.asarray(pattern, dtype=object)[()], np.asarray(rewrite, dtype=object)[()],
                        replace_global)


def _static_replace_infer(op):
    x = _check_string(op)
    return [(dtypes.string, x.shape.as_tuple())]


def _static_replace_kernel(xp, x, pattern, rewrite, replace_global=True):
    return _replace_all(x, pattern, rewrite, replace_global)


register_op("RegexReplace", infer=_regex_replace_infer, kernel=_regex_replace_kernel, grad=NO_GRADIENT)
register_op("StaticRegexReplace", infer=_static_replace_infer, kernel=_static_replace_kernel, grad=NO_GRADIENT)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Replaces the matches of a regular expression (TF's `tf.strings.regex_replace`).

    With `pattern` and `rewrite` given as Python strings the op is "StaticRegexReplace" (they are
    attributes); with tensors it is "RegexReplace".

    Args:
      input: A string `Tensor`.
      pattern: A scalar string (or string `Tensor`): the regular expression (RE2 syntax; Python's
        `re` module evaluates it, which agrees with RE2 on the common constructs).
      rewrite: A scalar string: the replacement, where `\\1`..`\\9` insert a group and `\\0` the
        whole match (a group the pattern lacks leaves the strings unchanged, as RE2 does).
      replace_global: Whether to replace every match (True) or only the first.
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the shape of `input`.

    Raises:
      TypeError: If an input is not a string tensor.
      InvalidArgumentError: At run time, if the pattern is invalid.
    """
    with ops.name_scope(name, "RegexReplace", [input]) as scope:
        x = _string_tensor(input)
        if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
            return ops.apply_op("StaticRegexReplace", [x], {"pattern": pattern, "rewrite": rewrite,
                                                             "replace_global": bool(replace_global)}, name=scope)
        p = _string_tensor(pattern, "pattern")
        r = _string_tensor(rewrite, "rewrite")
        return ops.apply_op("RegexReplace", [x, p, r], {"replace_global": bool(replace_global)}, name=scope)


def _full_match_infer(op):
    x = _check_string(op)
    p = _check_string(op, 1, "pattern")
    if p.shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % p.shape.ndims)
    return [(dtypes.bool_, x.shape.as_tuple())]


def _full_match_kernel(xp, x, pattern):
    regex = _compile(np.asarray(pattern, dtype=object)[()])
    return _map_strings(x, lambda s: regex.fullmatch(_text(s)) is not None, np.bool_)


register_op("RegexFullMatch", infer=_full_match_infer, kernel=_full_match_kernel, grad=NO_GRADIENT)


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each string of `input` matches `pattern` in full (TF's `tf.strings.regex_full_match`).

    A Python string `pattern` builds "StaticRegexFullMatch" (an attribute); a tensor builds
    "RegexFullMatch".

    Args:
      input: A string `Tensor`.
      pattern: A scalar string or string `Tensor`: the regular expression (RE2 syntax, evaluated by
        Python's `re`).
      name: A name for the operation (optional).

    Returns:
      A bool `Tensor` of the shape of `input`.

    Raises:
      TypeError: If an input is not a string tensor.
      InvalidArgumentError: At run time, if the pattern is invalid.
    """
    if isinstance(pattern, (str, bytes)):
        return static_regex_full_match(input, pattern, name=name)
    with ops.name_scope(name, "RegexFullMatch", [input, pattern]) as scope:
        return ops.apply_op("RegexFullMatch", [_string_tensor(input), _string_tensor(pattern, "pattern")], name=scope)


# ---- AsString ------------------------------------------------------------------------------------
_AS_STRING_TYPES = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16,
                    dtypes.complex64, dtypes.complex128, dtypes.float32, dtypes.float64, dtypes.float16,
                    dtypes.bool_)


def _as_string_infer(op):
    x = op._inputs[0]
    if x.dtype not in _AS_STRING_TYPES:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: %s"
                        % (x.dtype.name, ", ".join(d.name for d in _AS_STRING_TYPES)))
    return [(dtypes.string, x.shape.as_tuple())]


def _c_format(spec, v):
    """C's printf of one float with glibc's spelling of inf/nan (`-nan`, no zero padding)."""
    v = float(v)
    if math.isfinite(v):
        return spec % v
    spec = spec.replace("0", "") if spec[1:2] == "0" else spec
    text = spec % (math.copysign(math.inf, v))
    return text.replace("inf", "nan") if math.isnan(v) else text


def _as_string_kernel(xp, x, precision=-1, scientific=False, shortest=False, width=-1, fill=""):
    x = np.asarray(x)
    kind = x.dtype.kind
    if scientific and shortest:
        raise errors.InvalidArgumentError(None, None, "Cannot select both scientific and shortest notation")
    if len(fill) > 1:
        raise errors.InvalidArgumentError(None, None, "Fill string must be one or fewer characters")
    if fill and fill not in " +-0#":
        raise errors.InvalidArgumentError(None, None, "Fill argument not supported: \"%s\"" % fill)
    if precision > -1 and kind not in "fc":
        raise errors.InvalidArgumentError(None, None, "precision not supported for datatype %s"
                                          % dtypes.as_dtype(x.dtype).name)
    spec = "%" + fill + ("%d" % width if width > -1 else "") + (".%d" % precision if precision > -1 else "")
    if kind == "b":
        vals = ["true" if v else "false" for v in x.reshape(-1)]  # TF ignores width and fill here
    elif kind in "iu":
        vals = [(spec + "d") % int(v) for v in x.reshape(-1)]
    else:
        spec += "g" if shortest else "e" if scientific else "f"
        if kind == "c":
            vals = ["(%s,%s)" % (_c_format(spec, v.real), _c_format(spec, v.imag)) for v in x.reshape(-1)]
        else:
            vals = [_c_format(spec, v) for v in x.reshape(-1)]
    return _string_array([v.encode("ascii") for v in vals], x.shape)


register_op("AsString", infer=_as_string_infer, kernel=_as_string_kernel, grad=NO_GRADIENT)


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """Converts each number of `input` to a string (TF's `tf.as_string`, op "AsString").

    The text is C's `printf` of the value: `%d` for integers, `%f` (`%e` with `scientific`, `%g`
    with `shortest`) for floats, `(re,im)` for complex numbers, `true`/`false` for bools.

    Args:
      input: A numeric or bool `Tensor`.
      precision: The number of digits after the point for floats (-1: printf's default).
      scientific: Use scientific notation (floats).
      shortest: Use the shortest of fixed and scientific notation (floats).
      width: The minimum width of each string (-1: none).
      fill: The printf flag padding to `width`: "" (spaces on the left), "0", " ", "+", "-" or "#".
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the shape of `input`.

    Raises:
      TypeError: If the dtype of `input` is not supported.
      InvalidArgumentError: At run time, for `scientific` with `shortest`, a `precision` for a
        non-float dtype, or an unsupported `fill`.
    """
    with ops.name_scope(name, "AsString", [input]) as scope:
        x = input if isinstance(input, ops.Tensor) else ops.convert_to_tensor(input)
        return ops.apply_op("AsString", [x], {"precision": int(precision), "scientific": bool(scientific),
                                              "shortest": bool(shortest), "width": int(width), "fill": fill},
                            name=scope)


# ---- StringToNumber ------------------------------------------------------------------------------
_TO_NUMBER_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
_DEC_FLOAT = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_HEX_FLOAT = re.compile(rb"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?\Z")
_SPECIAL_FLOAT = re.compile(rb"([+-]?)(inf|infinity|nan)\Z", re.IGNORECASE)
_INT = re.compile(rb"[+-]?[0-9]+\Z")


def _parse_float(s):
    """absl's SimpleAtof: a decimal or hexadecimal float, inf/infinity/nan, ASCII whitespace around."""
    t = s.strip(_ASCII_SPACE)
    if _DEC_FLOAT.match(t):
        return float(t)
    if _HEX_FLOAT.match(t):
        sign = -1.0 if t[:1] == b"-" else 1.0
        body = t.lstrip(b"+-").decode("ascii")
        if "p" not in body.lower():
            body += "p0"
        return sign * float.fromhex(body)
    m = _SPECIAL_FLOAT.match(t)
    if m:
        value = math.nan if m.group(2).lower() == b"nan" else math.inf
        return -value if m.group(1) == b"-" else value
    return None


def _to_number_kernel(xp, x, out_type=dtypes.float32):
    out_type = dtypes.as_dtype(out_type)
    npdt = out_type.as_numpy_dtype
    a = np.asarray(x, dtype=object)
    out = np.empty(a.shape, npdt)
    flat = out.reshape(-1)
    for i, v in enumerate(a.reshape(-1)):
        s = _as_bytes(v)
        if out_type.is_floating:
            f = _parse_float(s)
            if f is not None:
                with np.errstate(over="ignore"):
                    flat[i] = npdt(f)
                continue
        else:
            t = s.strip(_ASCII_SPACE)
            if _INT.match(t):
                k = int(t)
                info = np.iinfo(npdt)
                if info.min <= k <= info.max:
                    flat[i] = k
                    continue
        raise errors.InvalidArgumentError(None, None, "StringToNumberOp could not correctly convert string: %s"
                                          % s.decode("utf-8", "replace"))
    return out


def _to_number_infer(op):
    x = _check_string(op, 0, "string_tensor")
    return [(dtypes.as_dtype(op._attrs["out_type"]), x.shape.as_tuple())]


register_op("StringToNumber", infer=_to_number_infer, kernel=_to_number_kernel, grad=NO_GRADIENT)


def string_to_number(string_tensor=None, out_type=dtypes.float32, name=None, input=None):  # noqa: A002
    """Converts each string to a number (TF's `tf.strings.to_number` / `tf.string_to_number`).

    Floats accept decimal and hexadecimal notation and inf/infinity/nan (any case); integers only
    decimal digits with an optional sign; surrounding ASCII whitespace is ignored.

    Args:
      string_tensor: A string `Tensor`.
      out_type: float32 (the default), float64, int32 or int64.
      name: A name for the operation (optional).
      input: TF 1.x's alias of `string_tensor`.

    Returns:
      A `Tensor` of `out_type` and the shape of the input.

    Raises:
      TypeError: If `out_type` is not allowed or the input is not a string tensor.
      InvalidArgumentError: At run time, if a string is not a number of `out_type` (or out of its
        integer range).
    """
    if input is not None:
        if string_tensor is not None:
            raise ValueError("Cannot specify both 'string_tensor' and 'input'.")
        string_tensor = input
    out_type = dtypes.as_dtype(out_type)
    if out_type not in _TO_NUMBER_TYPES:
        raise TypeError("Value passed to parameter 'out_type' has DataType %s not in list of allowed values: %s"
                        % (out_type.name, ", ".join(d.name for d in _TO_NUMBER_TYPES)))
    with ops.name_scope(name, "StringToNumber", [string_tensor]) as scope:
        return ops.apply_op("StringToNumber", [_string_tensor(string_tensor, "string_tensor")],
                            {"out_type": out_type}, name=scope)


# ---- EncodeBase64 / DecodeBase64 -----------------------------------------------------------------
def _encode_kernel(xp, x, pad=False):
    def fn(s):
        out = base64.urlsafe_b64encode(s)
        return out if pad else out.rstrip(b"=")
    return _map_strings(x, fn)


_B64_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _decode_one(s):
    body = s.rstrip(b"=")
    if len(s) - len(body) > 2 or (len(s) - len(body) and len(s) % 4):
        raise errors.InvalidArgumentError(None, None, "Invalid character found in base64.")
    if len(body) % 4 == 1:
        raise errors.InvalidArgumentError(None, None, "Base64 string length cannot be 1 modulo 4.")
    if any(c not in _B64_CHARS for c in body):
        raise errors.InvalidArgumentError(None, None, "Invalid character found in base64.")
    try:
        return base64.urlsafe_b64decode(body + b"=" * (-len(body) % 4))
    except binascii.Error:
        raise errors.InvalidArgumentError(None, None, "Invalid character found in base64.") from None


def _decode_kernel(xp, x):
    return _map_strings(x, _decode_one)


register_op("EncodeBase64", infer=_same_shape_infer(), kernel=_encode_kernel, grad=NO_GRADIENT)
register_op("DecodeBase64", infer=_same_shape_infer(), kernel=_decode_kernel, grad=NO_GRADIENT)


def encode_base64(input, pad=False, name=None):  # noqa: A002
    """Encodes strings in web-safe base64 (TF's `tf.io.encode_base64`, op "EncodeBase64"): the
    alphabet uses `-` and `_` for `+` and `/`.

    Args:
      input: A string `Tensor`.
      pad: Whether to end each encoding with `=` padding to a multiple of 4 characters.
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the shape of `input`.

    Raises:
      TypeError: If `input` is not a string tensor.
    """
    with ops.name_scope(name, "EncodeBase64", [input]) as scope:
        return ops.apply_op("EncodeBase64", [_string_tensor(input)], {"pad": bool(pad)}, name=scope)


def decode_base64(input, name=None):  # noqa: A002
    """Decodes web-safe base64 strings, padded or not (TF's `tf.io.decode_base64`, op "DecodeBase64").

    Args:
      input: A string `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the shape of `input`.

    Raises:
      TypeError: If `input` is not a string tensor.
      InvalidArgumentError: At run time, for a character outside the web-safe alphabet or a length
        of 1 modulo 4.
    """
    with ops.name_scope(name, "DecodeBase64", [input]) as scope:
        return ops.apply_op("DecodeBase64", [_string_tensor(input)], name=scope)
