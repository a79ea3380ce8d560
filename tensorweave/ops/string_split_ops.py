"""Splitting strings into tokens: "StringSplit" (`tf.string_split`: a set of delimiter characters)
and "StringSplitV2" (`tf.strings.split`: a separator string, or runs of whitespace). Both return
the tokens as a `SparseTensor`'s components (indices, values, dense shape); none has a gradient."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor
from .string_ops import _as_bytes, _string_array

__all__ = ["string_split", "string_split_v2", "split"]

_ASCII_SPACE = b" \t\n\v\f\r"


def _split_infer(op):
    x, sep = op._inputs
    names = ("input", "delimiter") if op._type == "StringSplit" else ("input", "sep")
    for t, arg in zip((x, sep), names):
        if t.dtype is not dtypes.string:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of string."
                            % (arg, op._type, t.dtype.name))
    if x.shape.ndims not in (None, 1):
        raise ValueError("Shape must be rank 1 but is rank %d" % x.shape.ndims)
    if sep.shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % sep.shape.ndims)
    return [(dtypes.int64, (None, 2)), (dtypes.string, (None,)), (dtypes.int64, (2,))]


def _sparse_parts(tokens):
    indices = [(i, j) for i, row in enumerate(tokens) for j in range(len(row))]
    values = [t for row in tokens for t in row]
    width = max((len(r) for r in tokens), default=0)
    idx = np.array(indices, np.int64).reshape(-1, 2)
    return idx, _string_array(values, (len(values),)), np.array([len(tokens), width], np.int64)


def _check_vector(x, op_type):
    a = np.asarray(x, dtype=object)
    if a.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "input must be a vector, got shape: %s" % list(a.shape))
    return a


def _split_v1_kernel(xp, x, delimiter, skip_empty=True):
    a = _check_vector(x, "StringSplit")
    delim = _as_bytes(np.asarray(delimiter, dtype=object)[()])
    tokens = []
    for s in a:
        s = _as_bytes(s)
        if not s:
            row = []
        elif not delim:
            row = [s[i:i + 1] for i in range(len(s))]
        else:
            row, cur = [], bytearray()
            for c in s:
                if c in delim:
                    row.append(bytes(cur))
                    cur = bytearray()
                else:
                    cur.append(c)
            row.append(bytes(cur))
            if skip_empty:
                row = [t for t in row if t]
        tokens.append(row)
    return _sparse_parts(tokens)


def _split_v2_kernel(xp, x, sep, maxsplit=-1):
    a = _check_vector(x, "StringSplitV2")
    sep = _as_bytes(np.asarray(sep, dtype=object)[()])
    tokens = []
    for s in a:
        s = _as_bytes(s)
        if sep:
            tokens.append(s.split(sep, maxsplit))
        else:
            tokens.append(_whitespace_split(s, maxsplit))
    return _sparse_parts(tokens)


def _whitespace_split(s, maxsplit):
    """Runs of ASCII whitespace separate tokens; after `maxsplit` splits the rest is one token."""
    out, i, n = [], 0, len(s)
    while True:
        while i < n and s[i] in _ASCII_SPACE:
            i += 1
        if i >= n:
            return out
        if 0 <= maxsplit <= len(out):
            out.append(s[i:])
            return out
        j = i
        while j < n and s[j] not in _ASCII_SPACE:
            j += 1
        out.append(s[i:j])
        i = j


register_op("StringSplit", infer=_split_infer, kernel=_split_v1_kernel, grad=NO_GRADIENT)
register_op("StringSplitV2", infer=_split_infer, kernel=_split_v2_kernel, grad=NO_GRADIENT)


def _as_strings(x, name):
    return x if isinstance(x, ops.Tensor) else ops.convert_to_tensor(x, dtype=dtypes.string, name=name)


def _with_ragged(sparse, result_type, nrows_from):
    if result_type == "SparseTensor":
        return sparse
    if result_type == "RaggedTensor":
        from .ragged_tensor import from_sparse_2d
        return from_sparse_2d(sparse)
    raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor", name=None):
    """Splits each string of the vector `source` at any of the characters of `sep` (TF's
    `tf.string_split`, op "StringSplit").

    `sep` is a set of single-byte delimiters (default: a space); an empty `sep` splits each string
    into its bytes. The result's row `i` holds the tokens of `source[i]`.

    Args:
      source: A 1-D string `Tensor`.
      sep: A scalar string: the delimiter characters (default " ").
      skip_empty: Whether to drop empty tokens.
      delimiter: The deprecated name of `sep`.
      result_type: "SparseTensor" (the default) or "RaggedTensor".
      name: A name for the operation (optional).

    Returns:
      A `SparseTensor` of shape `[len(source), max tokens]` (or a `RaggedTensor`).

    Raises:
      ValueError: If `source` is not a vector, or both `sep` and `delimiter` are given.
    """
    if delimiter is not None:
        if sep is not None:
            raise ValueError("Cannot specify both 'sep' and 'delimiter'.")
        sep = delimiter
    if sep is None:
        sep = " "
    with ops.name_scope(name, "StringSplit", [source]):
        x = _as_strings(source, "source")
        d = _as_strings(sep, "delimiter")
        idx, vals, shape = ops.apply_op("StringSplit", [x, d], {"skip_empty": bool(skip_empty)}, name="StringSplit")
        return _with_ragged(SparseTensor(idx, vals, shape), result_type, x)


def string_split_v2(source, sep=None, maxsplit=-1, name=None):
    """Splits each string of the vector `source` at the separator string `sep` (TF's op
    "StringSplitV2"); the parts as a `SparseTensor`.

    With `sep` None or empty, runs of ASCII whitespace separate tokens and leading/trailing
    whitespace gives no empty token; otherwise every occurrence of `sep` splits ("a,,b" gives "a",
    "", "b", and "" one empty token).

    Args:
      source: A 1-D string `Tensor`.
      sep: A scalar string, or None.
      maxsplit: The most splits per string (-1: no limit); the rest stays in the last token.
      name: A name for the operation (optional).

    Returns:
      A `SparseTensor` of shape `[len(source), max tokens]`.

    Raises:
      ValueError: If `source` is not a vector.
    """
    with ops.name_scope(name, "StringSplit", [source]):
        x = _as_strings(source, "source")
        s = _as_strings("" if sep is None else sep, "sep")
        idx, vals, shape = ops.apply_op("StringSplitV2", [x, s], {"maxsplit": int(maxsplit)}, name="StringSplit")
        return SparseTensor(idx, vals, shape)


def split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor", source=None, name=None):  # noqa: A002
    """Splits each string of `input` at `sep` (TF 1.x's `tf.strings.split`, op "StringSplitV2").

    Args:
      input: A string `Tensor` (a scalar counts as a vector of one string; N-D and ragged inputs
        split their innermost strings; an unknown rank is taken as a vector, as TF does) or
        `RaggedTensor`.
      sep: A scalar string separator, or None for runs of whitespace.
      maxsplit: The most splits per string (-1: no limit).
      result_type: "SparseTensor" (the default in TF 1.x) or "RaggedTensor".
      source: The deprecated name of `input`.
      name: A name for the operation (optional).

    Returns:
      A `SparseTensor` (or `RaggedTensor`) of rank `input.rank + 1` whose innermost rows hold the
      parts of the strings.

    Raises:
      ValueError: If `result_type` is invalid, or both `input` and `source` are given.
    """
    if source is not None:
        if input is not None:
            raise ValueError("Cannot specify both 'input' and 'source'.")
        input = source
    if result_type not in ("SparseTensor", "RaggedTensor"):
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
    from .ragged_tensor import RaggedTensor
    with ops.name_scope(name, "StringSplit", [input]):
        if not isinstance(input, RaggedTensor):
            input = _as_strings(input, "input")
            if input.shape.ndims == 0:
                from .array_ops import expand_dims
                input = expand_dims(input, 0)
        if isinstance(input, RaggedTensor) or (input.shape.ndims or 1) > 1:
            # N-D input (TF's ragged string_split_v2): the strings split below the innermost axis.
            rt = input if isinstance(input, RaggedTensor) else RaggedTensor.from_tensor(
                input, ragged_rank=input.shape.ndims - 1)
            from .array_ops import reshape
            parts = split(reshape(rt.flat_values, [-1]), sep=sep, maxsplit=maxsplit, result_type="RaggedTensor")
            result = rt.with_flat_values(parts)
            return result.to_sparse() if result_type == "SparseTensor" else result
        return _with_ragged(string_split_v2(input, sep=sep, maxsplit=maxsplit), result_type, input)
