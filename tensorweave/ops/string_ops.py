"""String ops of TF's checkpoint graphs: "StringJoin" (`tf.strings.join`) and "StaticRegexFullMatch"
(`tf.strings.regex_full_match` with a constant pattern). TF's sharded `Saver` builds both (the
temporary directory of a save: `StringJoin([prefix, Select(StaticRegexFullMatch(prefix, "^s3://.*"),
".part", "_temp/part")])`), so a SavedModel or meta graph written by TensorFlow uses them."""

import re

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape

__all__ = ["string_join", "static_regex_full_match"]


def _as_bytes(x):
    return x if isinstance(x, bytes) else str(x).encode("utf-8")


def _text(b):
    """UTF-8 bytes as text for regular expressions (invalid bytes kept as surrogate escapes)."""
    return b.decode("utf-8", "surrogateescape")


def _bytes(text):
    return text.encode("utf-8", "surrogateescape")


# RE2's POSIX classes (ASCII), which Python's `re` lacks.
_POSIX = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7f", "blank": "\\t ",
          "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9", "graph": "!-~", "lower": "a-z", "print": " -~",
          "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\v\\f\\r ", "upper": "A-Z", "word": "0-9A-Za-z_",
          "xdigit": "0-9A-Fa-f"}


def _re2_to_python(p):
    """RE2 syntax as Python's: POSIX classes spelled out; what RE2 rejects (back references,
    lookaround) rejected too."""
    out, i = [], 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            if p[i + 1] in "123456789":
                raise re.error("invalid escape sequence: \\%s" % p[i + 1])
            out.append(p[i:i + 2])
            i += 2
            continue
        if p.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
            raise re.error("invalid perl operator: %s" % p[i:i + 3])
        if p.startswith("[:", i):
            j = p.find(":]", i + 2)
            if j > 0 and p[i + 2:j] in _POSIX:
                out.append(_POSIX[p[i + 2:j]])
                i = j + 2
                continue
        out.append(c)
        i += 1
    return "".join(out)


def re2_compile(pattern):
    """A Python regular expression standing for RE2's `pattern`, matched against text (UTF-8 code
    points, as RE2 does) with ASCII-only `\\w`, `\\d`, `\\s` and `\\b` and POSIX classes (RE2's
    defaults). Known differences: `(?i)` folds ASCII letters only, `$` also matches before a final
    newline, and `\\p{..}` classes are not supported.

    Raises:
      re.error: If `pattern` is invalid (or uses what RE2 rejects: back references, lookaround).
    """
    return re.compile(_re2_to_python(_text(_as_bytes(pattern))), re.ASCII)


def _string_array(values, shape):
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out.reshape(shape)


# ---- StringJoin --------------------------------------------------------------------------------
def _join_infer(op):
    if any(t.dtype is not dtypes.string for t in op._inputs):
        raise TypeError("Tensors in list passed to 'inputs' of 'StringJoin' Op have types [%s] that do not match "
                        "expected type string." % ", ".join(t.dtype.name for t in op._inputs))
    shape = TensorShape([])
    for t in op._inputs:
        if t.shape.ndims != 0:
            if shape.ndims == 0:
                shape = t.shape
            else:
                shape = shape.merge_with(t.shape)
    return [(dtypes.string, shape.as_tuple())]


def _join_kernel(xp, *inputs, separator=""):
    arrays = [np.asarray(x, dtype=object) for x in inputs]
    shape = ()
    for a in arrays:
        if a.ndim:
            if shape and a.shape != shape:
                raise errors.InvalidArgumentError(None, None, "Input shapes do not match: [%s] vs. [%s]" % (
                    ",".join(map(str, shape)), ",".join(map(str, a.shape))))
            shape = a.shape
    sep = _as_bytes(separator)
    n = int(np.prod(shape)) if shape else 1
    flat = [a.reshape(-1) if a.ndim else None for a in arrays]
    values = [sep.join(_as_bytes(f[i] if f is not None else a[()]) for f, a in zip(flat, arrays)) for i in range(n)]
    return _string_array(values, shape)


register_op("StringJoin", infer=_join_infer, kernel=_join_kernel, grad=NO_GRADIENT)


def string_join(inputs, separator="", name=None):
    """Joins the strings of `inputs` elementwise (TF's `tf.strings.join`, op "StringJoin").

    Args:
      inputs: A list of string tensors of one shape, or scalars (broadcast).
      separator: The string put between the joined strings.
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` of the inputs' shape.

    Raises:
      TypeError: If an input is not a string tensor.
      ValueError: If the inputs' static shapes differ.
    """
    with ops.name_scope(name, "StringJoin", inputs) as scope:
        tensors = [x if isinstance(x, ops.Tensor) else ops.convert_to_tensor(x, dtype=dtypes.string) for x in inputs]
        return ops.apply_op("StringJoin", tensors, {"separator": separator}, name=scope)


# ---- StaticRegexFullMatch ----------------------------------------------------------------------
def _match_infer(op):
    if op._inputs[0].dtype is not dtypes.string:
        raise TypeError("Input 'input' of 'StaticRegexFullMatch' Op has type %s that does not match expected type "
                        "of string." % op._inputs[0].dtype.name)
    try:
        re2_compile(op._attrs["pattern"])
    except re.error as e:
        raise ValueError("Invalid pattern: %s, error: %s" % (op._attrs["pattern"], e)) from None
    return [(dtypes.bool_, op._inputs[0].shape.as_tuple())]


def _match_kernel(xp, x, pattern):
    regex = re2_compile(pattern)
    a = np.asarray(x, dtype=object)
    out = np.array([regex.fullmatch(_text(_as_bytes(v))) is not None for v in a.reshape(-1)], dtype=bool)
    return out.reshape(a.shape)


register_op("StaticRegexFullMatch", infer=_match_infer, kernel=_match_kernel, grad=NO_GRADIENT)


def static_regex_full_match(input, pattern, name=None):  # noqa: A002 (TF's argument name)
    """Whether each string of `input` matches the regular expression `pattern` in full (TF's op
    "StaticRegexFullMatch"; Python's `re` syntax stands for RE2's, which agree on common patterns;
    strings are matched as UTF-8 text, as RE2 does).

    Args:
      input: A string `Tensor`.
      pattern: The regular expression (a Python string).
      name: A name for the operation (optional).

    Returns:
      A bool `Tensor` of the shape of `input`.

    Raises:
      TypeError: If `input` is not a string tensor.
      ValueError: If `pattern` is not a valid regular expression.
    """
    with ops.name_scope(name, "StaticRegexFullMatch", [input]) as scope:
        x = input if isinstance(input, ops.Tensor) else ops.convert_to_tensor(input, dtype=dtypes.string)
        return ops.apply_op("StaticRegexFullMatch", [x], {"pattern": pattern}, name=scope)
