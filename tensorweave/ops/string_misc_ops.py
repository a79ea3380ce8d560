"""More string ops of `tf.strings`: "StringNGrams" (`ngrams`), "StringFormat" (`format`), and
`bytes_split` (a composition of "StringSplit" with an empty delimiter). None has a gradient."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from .logging_ops import summarize_value
from .ragged_tensor import RaggedTensor
from .string_ops import _as_bytes, _string_array

__all__ = ["bytes_split", "ngrams", "string_format"]


# ---- StringNGrams --------------------------------------------------------------------------------
def _ngrams_infer(op):
    data, splits = op._inputs
    if data.dtype is not dtypes.string:
        raise TypeError("Input 'data' of 'StringNGrams' Op has type %s that does not match expected type of string."
                        % data.dtype.name)
    if splits.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'data_splits' has DataType %s not in list of allowed values: "
                        "int32, int64" % splits.dtype.name)
    for t in (data, splits):
        if t.shape.ndims not in (None, 1):
            raise ValueError("Shape must be rank 1 but is rank %d" % t.shape.ndims)
    return [(dtypes.string, (None,)), (splits.dtype, splits.shape.as_tuple())]


def _ngrams_kernel(xp, data, splits, separator, ngram_widths, left_pad, right_pad, pad_width,
                   preserve_short_sequences):
    data = [_as_bytes(v) for v in np.asarray(data, dtype=object).reshape(-1)]
    splits = np.asarray(splits)
    if splits.size == 0 or splits[0] != 0 or np.any(np.diff(splits) < 0) or splits[-1] != len(data):
        raise errors.InvalidArgumentError(None, None, "Invalid split value in data_splits")
    sep, lp, rp = _as_bytes(separator), _as_bytes(left_pad), _as_bytes(right_pad)

    def pad_of(width):
        return min(width - 1 if pad_width < 0 else pad_width, width - 1)

    def count(length, width):
        return max(0, length + 2 * pad_of(width) - width + 1)

    def create(tokens, num, width):
        pw = pad_of(width)
        out = []
        for k in range(num):
            left = max(0, pw - k)
            right = max(0, pw - (num - (k + 1)))
            used = width - (left + right)
            start = 0 if left > 0 else k - pw
            parts = [lp] * left + tokens[start:start + max(used, 0)] + [rp] * right
            out.append(sep.join(parts))
        return out

    values, out_splits = [], [0]
    for i in range(len(splits) - 1):
        tokens = data[int(splits[i]):int(splits[i + 1])]
        row = []
        for w in ngram_widths:
            row.extend(create(tokens, count(len(tokens), w), w))
        if preserve_short_sequences and not row and tokens:
            row = create(tokens, 1, len(tokens) + 2 * pad_width)
        values.extend(row)
        out_splits.append(out_splits[-1] + len(row))
    return _string_array(values, (len(values),)), np.array(out_splits, splits.dtype)


register_op("StringNGrams", infer=_ngrams_infer, kernel=_ngrams_kernel, grad=NO_GRADIENT)


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None, preserve_short_sequences=False,
           name=None):
    """The n-grams of each row of strings (TF's `tf.strings.ngrams`, op "StringNGrams").

    Args:
      data: A string `Tensor` or `RaggedTensor` (rank >= 1); n-grams are formed along the last axis.
      ngram_width: An int or list of ints: the n-gram sizes (all, in order, for each row).
      separator: The string between the tokens of an n-gram.
      pad_values: None (no padding), a string (both sides) or a pair (left, right).
      padding_width: How many pad values on each side (default: `width - 1`); needs `pad_values`.
      preserve_short_sequences: Whether a non-empty row too short for any n-gram gives one n-gram of
        all its tokens (with the padding).
      name: A name for the operation (optional).

    Returns:
      A `RaggedTensor` of n-grams (a `Tensor` for `Tensor` input).

    Raises:
      ValueError: For `padding_width` < 1, `padding_width` without `pad_values`, a bad `pad_values`,
        or `data` of rank 0 or unknown rank.
    """
    from . import array_ops
    widths = [int(ngram_width)] if isinstance(ngram_width, (int, np.integer)) else [int(w) for w in ngram_width]
    if padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    if padding_width is not None and pad_values is None:
        raise ValueError("pad_values must be provided if padding_width is set.")
    if pad_values is not None and isinstance(pad_values, (list, tuple)):
        if len(pad_values) != 2 or not all(isinstance(p, (str, bytes)) for p in pad_values):
            raise ValueError("pad_values must be a string, tuple of strings, or None.")
    elif pad_values is not None and not isinstance(pad_values, (str, bytes)):
        raise ValueError("pad_values must be a string, tuple of strings, or None.")
    with ops.name_scope(name, "StringNGrams", [data]):
        if not isinstance(data, RaggedTensor):
            data = data if isinstance(data, ops.Tensor) else ops.convert_to_tensor(data, dtype=dtypes.string)
        to_tensor = isinstance(data, ops.Tensor)
        if to_tensor:
            if data.shape.ndims is None:
                raise ValueError("Rank of data must be known.")
            if data.shape.ndims == 0:
                raise ValueError("Data must have rank>0")
            dense_shape = array_ops.concat([array_ops.shape(data)[:-1], [-1]], axis=0)
            if data.shape.ndims == 1:
                rt = RaggedTensor.from_row_splits(data, array_ops.stack([ops.convert_to_tensor(np.int64(0)),
                                                                         array_ops.shape(data, out_type=dtypes.int64)[
                                                                             0]]), validate=False)
                return ngrams(rt, widths, separator, pad_values, padding_width, preserve_short_sequences)[0]
            data = RaggedTensor.from_tensor(data, ragged_rank=data.shape.ndims - 1)
        if data.ragged_rank > 1:
            out = data.with_values(ngrams(data.values, widths, separator, pad_values, padding_width,
                                          preserve_short_sequences))
            return array_ops.reshape(out.flat_values, dense_shape) if to_tensor else out
        if pad_values is None:
            pads, width = ("", ""), 0
        else:
            pads = tuple(pad_values) if isinstance(pad_values, (list, tuple)) else (pad_values, pad_values)
            width = -1 if padding_width is None else int(padding_width)
        values, splits = ops.apply_op("StringNGrams", [data.flat_values, data.row_splits], {
            "separator": separator, "ngram_widths": widths, "left_pad": pads[0], "right_pad": pads[1],
            "pad_width": width, "preserve_short_sequences": bool(preserve_short_sequences)}, name="StringNGrams")
        out = RaggedTensor.from_row_splits(values, splits, validate=False)
        return array_ops.reshape(out.flat_values, dense_shape) if to_tensor else out


# ---- bytes_split ---------------------------------------------------------------------------------
def bytes_split(input, name=None):  # noqa: A002
    """Splits each string into its bytes (TF's `tf.strings.bytes_split`).

    Args:
      input: A string `Tensor` or `RaggedTensor` of statically known rank.
      name: A name for the operation (optional).

    Returns:
      A string `Tensor` for a scalar, else a `RaggedTensor` of shape `input.shape + [None]`.

    Raises:
      ValueError: If the rank of `input` is not known.
    """
    from . import array_ops
    from .string_split_ops import string_split
    with ops.name_scope(name, "BytesSplit", [input]):
        if isinstance(input, RaggedTensor):
            return input.with_flat_values(bytes_split(input.flat_values))
        x = input if isinstance(input, ops.Tensor) else ops.convert_to_tensor(input, dtype=dtypes.string)
        rank = x.shape.ndims
        if rank is None:
            raise ValueError("input must have a statically-known rank.")
        if rank == 0:
            return bytes_split(array_ops.stack([x])).values
        if rank == 1:
            return string_split(x, sep="", skip_empty=False, result_type="RaggedTensor")
        return bytes_split(RaggedTensor.from_tensor(x, ragged_rank=rank - 1))


# ---- StringFormat --------------------------------------------------------------------------------
def _format_infer(op):
    template, placeholder = op._attrs["template"], op._attrs["placeholder"]
    if template.count(placeholder) != len(op._inputs):
        raise ValueError("num placeholders in template and num inputs must match: %d vs. %d"
                         % (template.count(placeholder), len(op._inputs)))
    return [(dtypes.string, ())]


def _format_kernel(xp, *inputs, template, placeholder, summarize):
    pieces = template.split(placeholder)
    out = [pieces[0]]
    for t, piece in zip(inputs, pieces[1:]):
        out.append(summarize_value(np.asarray(t), summarize, print_v2=True))
        out.append(piece)
    return np.array("".join(out).encode("utf-8"), dtype=object)


register_op("StringFormat", infer=_format_infer, kernel=_format_kernel, grad=NO_GRADIENT)


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """Formats tensors into a string (TF's `tf.strings.format`, op "StringFormat"): each
    `placeholder` in `template` becomes the next tensor printed as `tf.print` prints it (the first
    and last `summarize` entries of each dimension; -1: all).

    Args:
      template: A Python string with one `placeholder` per input.
      inputs: A tensor or a list of tensors.
      placeholder: The placeholder text (default "{}").
      summarize: Entries printed at each end of each dimension.
      name: A name for the operation (optional).

    Returns:
      A scalar string `Tensor`.

    Raises:
      ValueError: If the numbers of placeholders and inputs differ.
    """
    if isinstance(inputs, (ops.Tensor, np.ndarray)) or not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    if template.count(placeholder) != len(inputs):
        raise ValueError("%s placeholder(s) in template does not match %s tensor(s) provided as input"
                         % (template.count(placeholder), len(inputs)))
    with ops.name_scope(name, "StringFormat", inputs) as scope:
        tensors = [t if isinstance(t, ops.Tensor) else ops.convert_to_tensor(t) for t in inputs]
        return ops.apply_op("StringFormat", tensors, {"template": template, "placeholder": placeholder,
                                                      "summarize": int(summarize)}, name=scope)
