"""Connectionist temporal classification: `tf.nn.ctc_loss` (the CTCLoss op with its gradient),
`tf.nn.ctc_greedy_decoder`, `tf.nn.ctc_beam_search_decoder` and their v2 forms, and
`tf.nn.ctc_unique_labels`.

The kernels follow TensorFlow's (tensorflow/core/util/ctc/): the loss runs the forward-backward
recursions in log space over the label sequence with blanks (blank = `num_classes - 1`), on the
softmax of the logits, within TF's time window, and adds log probabilities as TF's `LogSumExp`
does (`max + log1pf(expf(min - max))`: single precision for the correction term, also for
float64); the gradient with respect to the logits is the op's second output. The beam search
decoder is TF's prefix beam search with the default scorer: a tree of label prefixes with blank
and non-blank log probabilities, the best `beam_width` leaves kept at each time step, extended in
order of probability. `PreventGradient` (an identity whose gradient is an error) guards the second
derivative of the loss, as in TF.
"""

import heapq

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor

__all__ = ["ctc_loss", "ctc_loss_v2", "ctc_greedy_decoder", "ctc_beam_search_decoder",
           "ctc_beam_search_decoder_v2", "ctc_unique_labels"]

_FLOATS = (dtypes.float32, dtypes.float64)
_NEG_INF = -np.inf


# ---- static checks -----------------------------------------------------------------------------
def _fmt(dims):
    if dims is None:
        return "?"
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)


def _shapes_suffix(op):
    return " for '%s' (op: '%s') with input shapes: %s." % (
        op.name, op.type, ", ".join(_fmt(t._shape.as_tuple()) for t in op._inputs))


def _rank(op, t, rank):
    dims = t._shape.as_tuple()
    if dims is not None and len(dims) != rank:
        raise ValueError("Shape must be rank %d but is rank %d%s" % (rank, len(dims), _shapes_suffix(op)))
    return dims if dims is not None else (None,) * rank


def _merge(op, a, b):
    if a is not None and b is not None and a != b:
        raise ValueError("Dimensions must be equal, but are %d and %d%s" % (a, b, _shapes_suffix(op)))
    return a if a is not None else b


def _check_dtype(op, t, allowed, arg):
    if t._dtype not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (arg, t._dtype.name, ", ".join(d.name for d in allowed)))


def _check_min(op, name, minimum=1):
    v = op._attrs[name]
    if v < minimum:
        raise ValueError("Attr '%s' of '%s' Op passed %d less than minimum %d." % (name, op.type, v, minimum))


def _input(value, dtype, name):
    """Converts an argument to a tensor of `dtype`: integer arrays/lists of another integer dtype are
    converted (as TF's op wrappers convert NumPy arguments); tensors must already have it."""
    if ops.is_tensor(value) or isinstance(value, SparseTensor):
        return ops.convert_to_tensor(value, name=name)
    arr = np.asarray(value)
    if dtype.is_integer and arr.dtype.kind in "iu" and arr.dtype != dtype.as_numpy_dtype:
        arr = arr.astype(dtype.as_numpy_dtype)
    return ops.convert_to_tensor(arr, dtype=dtype, name=name)


# ---- TF's log-space arithmetic -------------------------------------------------------------------
def _lse(a, b):
    """TF's `ctc::LogSumExp` elementwise: `max + log1pf(expf(min - max))`, with -inf as log zero."""
    a = np.asarray(a)
    b = np.asarray(b)
    with np.errstate(invalid="ignore", over="ignore"):
        hi = np.where(a > b, a, b)
        lo = np.where(a > b, b, a)
        corr = np.log1p(np.exp((lo - hi).astype(np.float32)))
        out = hi + corr.astype(a.dtype)
    out = np.where(a == _NEG_INF, b, np.where(b == _NEG_INF, a, out))
    return out.astype(a.dtype, copy=False)


# ---- CTCLoss -----------------------------------------------------------------------------------
def _ctc_loss_infer(op):
    inputs, indices, values, seq_len = op._inputs
    _check_dtype(op, inputs, _FLOATS, "T")
    _check_dtype(op, indices, (dtypes.int64,), "labels_indices")
    _check_dtype(op, values, (dtypes.int32,), "labels_values")
    _check_dtype(op, seq_len, (dtypes.int32,), "sequence_length")
    in_dims = _rank(op, inputs, 3)
    idx_dims = _rank(op, indices, 2)
    val_dims = _rank(op, values, 1)
    seq_dims = _rank(op, seq_len, 1)
    _merge(op, idx_dims[0], val_dims[0])
    batch = _merge(op, in_dims[1], seq_dims[0])
    return [(inputs._dtype, (batch,)), (inputs._dtype, (in_dims[0], batch, in_dims[2]))]


def _sparse_labels(indices, values, batch_size):
    """The label sequence of each batch row from the SparseTensor components, validated as TF's
    `SparseTensor::IndicesValid` with dense shape `[batch_size, max(indices[:, 1]) + 1]`."""
    n = indices.shape[0]
    max_len = int(indices[:, 1].max()) + 1 if n else 0
    shape = (batch_size, max_len)
    rows = indices.tolist()
    for i, idx in enumerate(rows):
        if not all(0 <= v < s for v, s in zip(idx, shape)):
            raise errors.InvalidArgumentError(
                None, None, "label SparseTensor is not valid: indices[%d] = %s is out of bounds: need 0 <= index < %s"
                % (i, _fmt(idx), _fmt(shape)))
        if i:
            prev = rows[i - 1]
            if idx < prev:
                raise errors.InvalidArgumentError(
                    None, None, "label SparseTensor is not valid: indices[%d] = %s is out of order. Many sparse ops "
                    "require sorted indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n"
                    % (i, _fmt(idx)))
            if idx == prev:
                raise errors.InvalidArgumentError(
                    None, None, "label SparseTensor is not valid: indices[%d] = %s is repeated" % (i, _fmt(idx)))
    labels = [[] for _ in range(batch_size)]
    for idx, v in zip(rows, values.tolist()):
        labels[idx[0]].append(int(v))
    return labels


def _l_prime(label, b, num_classes, seq_len_b, collapse, ignore_longer):
    """TF's `PopulateLPrimes` for one batch row: the label sequence with blanks around each label."""
    if not label:
        raise errors.InvalidArgumentError(None, None, "Labels length is zero in batch %d" % b)
    blank = num_classes - 1
    seen = []
    finished = False
    for i, v in enumerate(label):
        if i == 0 or not collapse or v != label[i - 1]:
            if v >= num_classes - 1:
                finished = True
            else:
                if finished:
                    raise errors.InvalidArgumentError(
                        None, None, "Saw a non-null label (index >= num_classes - 1) following a null label, batch: "
                        "%d num_classes: %d labels: %s labels seen so far: %s"
                        % (b, num_classes, ",".join(map(str, label)), ",".join(map(str, seen))))
                seen.append(v)
    for v in seen:
        if v < 0:
            raise errors._invalid_argument("All labels must be nonnegative integers, batch: %d labels: %s"
                                           % (b, ",".join(map(str, seen))))
    if not ignore_longer and len(label) > seq_len_b:
        raise errors.InvalidArgumentError(
            None, None, "Not enough time for target transition sequence (required: %d, available: %d)%dYou can turn "
            "this error into a warning by using the flag ignore_longer_outputs_than_inputs"
            % (len(label), seq_len_b, b))
    lp = [blank]
    for v in seen:
        lp += [v, blank]
    return np.asarray(lp, np.int64)


def _softmax_columns(x):
    """[T, C] logits -> the softmax of each row, as TF computes it (shifted by the row maximum)."""
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)


def _forward(lp, log_y, merge, blank):
    """log alpha [U, T] (TF's `CalculateForwardVariables`)."""
    u_len, t_len = len(lp), log_y.shape[0]
    alpha = np.full((u_len, t_len), _NEG_INF, log_y.dtype)
    alpha[0, 0] = log_y[0, blank]
    if u_len > 1:
        alpha[1, 0] = log_y[0, lp[1]]
    self_ok = np.logical_or(merge, lp == blank)
    skip_ok = np.zeros(u_len, bool)
    if u_len > 2:
        skip_ok[2:] = (lp[2:] != blank) & ~(merge & (lp[2:] == lp[:-2]))
    for t in range(1, t_len):
        lo, hi = max(0, u_len - 2 * (t_len - t)), min(u_len, 2 * (t + 1))
        if lo >= hi:
            continue
        prev = alpha[:, t - 1]
        s = np.where(self_ok, prev, _NEG_INF).astype(log_y.dtype)
        s[1:] = _lse(s[1:], prev[:-1])
        if u_len > 2:
            s[2:] = np.where(skip_ok[2:], _lse(s[2:], prev[:-2]), s[2:])
        alpha[lo:hi, t] = log_y[t, lp[lo:hi]] + s[lo:hi]
    return alpha


def _backward(lp, log_y, merge, blank):
    """log beta [U, T] (TF's `CalculateBackwardVariables`)."""
    u_len, t_len = len(lp), log_y.shape[0]
    beta = np.full((u_len, t_len), _NEG_INF, log_y.dtype)
    beta[max(0, u_len - 2):, t_len - 1] = 0
    self_ok = np.logical_or(merge, lp == blank)
    skip_ok = np.zeros(u_len, bool)
    if u_len > 2:
        skip_ok[:-2] = (lp[:-2] != blank) & ~(merge & (lp[:-2] == lp[2:]))
    for t in range(t_len - 2, -1, -1):
        lo, hi = max(0, u_len - 2 * (t_len - t)), min(u_len, 2 * (t + 1))
        if lo >= hi:
            continue
        nb = beta[:, t + 1] + log_y[t + 1, lp]
        s = np.where(self_ok, nb, _NEG_INF).astype(log_y.dtype)
        s[:-1] = _lse(s[:-1], nb[1:])
        if u_len > 2:
            s[:-2] = np.where(skip_ok[:-2], _lse(s[:-2], nb[2:]), s[:-2])
        beta[lo:hi, t] = s[lo:hi]
    return beta


def _ctc_loss_kernel(xp, inputs, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False,
                     ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False):
    inv = errors._invalid_argument
    if inputs.ndim != 3:
        raise inv("inputs is not a 3-Tensor")
    if sequence_length.ndim != 1:
        raise inv("sequence_length is not a vector")
    if labels_indices.ndim != 2:
        raise inv("labels_indices is not a matrix")
    if labels_indices.shape[1] <= 1:
        raise inv("labels_indices second dimension must be >= 1. Received %d" % labels_indices.shape[1])
    if labels_values.ndim != 1:
        raise inv("labels_values is not a vector")
    max_time, batch_size, num_classes = inputs.shape
    if max_time == 0:
        raise inv("Max time or first dimension of input cannot be 0.")
    if sequence_length.shape[0] != batch_size:
        raise inv("len(sequence_length) != batch_size.  len(sequence_length):  %d batch_size: %d"
                  % (sequence_length.shape[0], batch_size))
    if labels_indices.shape[0] != labels_values.shape[0]:
        raise inv("labels_indices and labels_values must contain the same number of rows, but saw shapes: %s vs. %s"
                  % (_fmt(labels_indices.shape), _fmt(labels_values.shape)))
    if batch_size == 0:
        raise inv("batch_size must not be 0")
    if labels_indices.shape[1] != 2:
        raise inv("labels_indices must have 2 columns (batch, time), but has %d" % labels_indices.shape[1])
    seq_len = [int(v) for v in sequence_length.tolist()]
    for b, v in enumerate(seq_len):
        if v > max_time:
            raise inv("sequence_length(%d) <= %d" % (b, max_time))
    labels = _sparse_labels(labels_indices, labels_values, batch_size)
    for b, v in enumerate(seq_len):
        if v < 0:
            raise inv("seq_len(%d) < 0" % b)
    l_primes = [_l_prime(labels[b], b, num_classes, seq_len[b], preprocess_collapse_repeated,
                         ignore_longer_outputs_than_inputs) for b in range(batch_size)]
    blank = num_classes - 1
    loss = np.zeros(batch_size, inputs.dtype)
    grad = np.zeros(inputs.shape, inputs.dtype)
    for b in range(batch_size):
        t_len = seq_len[b]
        if t_len == 0 or (ignore_longer_outputs_than_inputs and len(labels[b]) > t_len):
            continue
        lp = l_primes[b]
        y = _softmax_columns(inputs[:t_len, b, :])
        with np.errstate(divide="ignore", invalid="ignore"):
            log_y = np.log(y)
        alpha = _forward(lp, log_y, ctc_merge_repeated, blank)
        beta = _backward(lp, log_y, ctc_merge_repeated, blank)
        ab = alpha + beta
        log_p = np.asarray(_NEG_INF, inputs.dtype)
        for u in range(len(lp)):
            log_p = _lse(log_p, ab[u, 0])
        loss[b] = -log_p
        if log_p == _NEG_INF:
            grad[:t_len, b, :] = y
            continue
        prob_sum = np.full((num_classes, t_len), _NEG_INF, inputs.dtype)
        for u, label in enumerate(lp.tolist()):
            prob_sum[label] = _lse(prob_sum[label], ab[u])
        with np.errstate(invalid="ignore", over="ignore"):
            neg = np.exp((prob_sum - log_p).astype(np.float32)).astype(inputs.dtype)
        grad[:t_len, b, :] = y - neg.T
    return loss, grad


def _ctc_loss_grad(op, grad_loss, _):
    from . import array_ops
    grad = prevent_gradient(op.outputs[1], message="Currently there is no way to take the second  derivative of "
                            "ctc_loss due to the fused implementation's interaction  with tf.gradients()")
    return [array_ops.expand_dims(grad_loss, -1) * grad, None, None, None]


register_op("CTCLoss", infer=_ctc_loss_infer, kernel=_ctc_loss_kernel, grad=_ctc_loss_grad)


# ---- PreventGradient ---------------------------------------------------------------------------
def _prevent_gradient_grad(op, grad):
    raise LookupError("Gradient explicitly disabled. Reason: %s" % op.get_attr("message"))


register_op("PreventGradient", infer=lambda op: [(op._inputs[0]._dtype, op._inputs[0]._shape.as_tuple())],
            kernel=lambda xp, x, message="": x, grad=_prevent_gradient_grad, gpu=True, alias_of=0)


def prevent_gradient(input, message="", name=None):  # noqa: A002
    """An identity op whose gradient raises an error (TF's `array_ops.prevent_gradient`).

    Args:
      input: A `Tensor`.
      message: A string: the reason given in the error.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the value of `input`; asking `tf.gradients` through it raises `LookupError`.
    """
    return ops.apply_op("PreventGradient", [ops.convert_to_tensor(input, name="input")], {"message": str(message)},
                        name=name or "PreventGradient")


def ctc_loss(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False,
             ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False, time_major=True, logits=None):
    """Computes the CTC (Connectionist Temporal Classification) loss.

    The loss of each batch element is `-log p(labels | inputs)`, summed over all alignments of the
    label sequence with blanks (class `num_classes - 1`) to the `sequence_length` time steps, with
    the softmax of `inputs` as per-step class probabilities.

    Args:
      labels: An `int32` `SparseTensor` with `labels.indices[i, :] == [b, t]` meaning
        `labels.values[i]` is the label of batch `b` at position `t`; values in
        `[0, num_classes - 1)` (a value `>= num_classes - 1` ends the sequence).
      inputs: The logits, a 3-D float `Tensor` of shape `[max_time, batch_size, num_classes]`
        (`[batch_size, max_time, num_classes]` if `time_major` is False).
      sequence_length: A 1-D `int32` vector of size `[batch_size]`: the sequence lengths.
      preprocess_collapse_repeated: If True, repeated labels are collapsed before the loss.
      ctc_merge_repeated: If False, repeated non-blank outputs count as separate labels (no
        merging during the alignment).
      ignore_longer_outputs_than_inputs: If True, sequences whose label is longer than their
        input get a loss and gradient of 0 instead of an error.
      time_major: The layout of `inputs`.
      logits: An alias for `inputs` (deprecated).

    Returns:
      A 1-D float `Tensor` of size `[batch_size]`: the negative log probabilities.

    Raises:
      TypeError: If `labels` is not a `SparseTensor`.
      ValueError: If both `inputs` and `logits` are given.
      InvalidArgumentError: At run time, for invalid labels or lengths (TF's messages).
    """
    if not isinstance(labels, SparseTensor):
        raise TypeError("Expected labels (first argument) to be a SparseTensor")
    if inputs is not None and logits is not None:
        raise ValueError("Cannot specify both 'logits' and 'inputs'")
    if logits is not None:
        inputs = logits
    from . import array_ops
    inputs = ops.convert_to_tensor(inputs, name="inputs")
    if not time_major:
        inputs = array_ops.transpose(inputs, [1, 0, 2])
    loss, _ = _ctc_loss_op(inputs, labels, sequence_length, preprocess_collapse_repeated, ctc_merge_repeated,
                           ignore_longer_outputs_than_inputs)
    return loss


def _ctc_loss_op(inputs, labels, sequence_length, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False, name=None):
    if sequence_length is None:
        raise ValueError("Tried to convert 'sequence_length' to a tensor and failed. Error: None values not "
                         "supported.")
    args = [ops.convert_to_tensor(inputs, name="inputs"), _input(labels.indices, dtypes.int64, "labels_indices"),
            _input(labels.values, dtypes.int32, "labels_values"),
            _input(sequence_length, dtypes.int32, "sequence_length")]
    attrs = {"preprocess_collapse_repeated": bool(preprocess_collapse_repeated),
             "ctc_merge_repeated": bool(ctc_merge_repeated),
             "ignore_longer_outputs_than_inputs": bool(ignore_longer_outputs_than_inputs)}
    return ops.apply_op("CTCLoss", args, attrs, name=name or "CTCLoss")


def _get_dim(tensor, i):
    from . import array_ops
    dims = tensor.shape.as_list() if tensor.shape.ndims is not None else None
    if dims is not None and dims[i] is not None:
        return dims[i]
    return array_ops.shape(tensor)[i]


def ctc_loss_v2(labels, logits, label_length, logit_length, logits_time_major=True, unique=None, blank_index=None,
                name=None):
    """Computes the CTC loss (TF 2's argument order), for sparse or dense labels.

    Args:
      labels: A `SparseTensor` of labels, or a dense `int` `Tensor` `[batch_size, max_label_length]`.
      logits: A float `Tensor` `[frames, batch_size, num_labels]` (`[batch_size, frames,
        num_labels]` if `logits_time_major` is False).
      label_length: A `[batch_size]` `Tensor` of label lengths (dense labels; None for sparse ones).
      logit_length: A `[batch_size]` `Tensor` of logit lengths.
      logits_time_major: The layout of `logits`.
      unique: Ignored (an optimization of TF's dense computation; the result is the same).
      blank_index: The class of the blank label; required for sparse labels; negative values
        count from `num_labels`. Default for dense labels: 0.
      name: A name for this op's name scope (optional).

    Returns:
      A 1-D float `Tensor` `[batch_size]`: the negative log probabilities.

    Raises:
      ValueError: If `labels` is sparse and `blank_index` is None.
      InvalidArgumentError: At run time, for a label sequence of length 0 or longer than its
        logits (TF's dense computation gives a loss there; this one raises TF's sparse error).
    """
    from . import array_ops, math_ops
    del unique
    with ops.name_scope(name, "ctc_loss", [labels, logits, label_length, logit_length]):
        logits = ops.convert_to_tensor(logits, name="logits")
        if not isinstance(labels, SparseTensor):
            labels = ops.convert_to_tensor(labels, name="labels")
            if blank_index is None:
                blank_index = 0
            label_length = ops.convert_to_tensor(label_length, name="label_length")
            mask = array_ops.sequence_mask(label_length, _get_dim(labels, 1))
            indices = math_ops.cast(array_ops.where(mask), dtypes.int64)
            values = math_ops.cast(array_ops.gather_nd(labels, indices), dtypes.int32)
            dense_shape = math_ops.cast(array_ops.shape(labels), dtypes.int64)
            labels = SparseTensor(indices, values, dense_shape)
        elif blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when labels is a SparseTensor.")
        if not logits_time_major:
            logits = array_ops.transpose(logits, [1, 0, 2])
        num_classes = _get_dim(logits, 2)
        if blank_index < 0:
            if not isinstance(num_classes, int):
                raise ValueError("A negative blank_index needs a statically known number of classes.")
            blank_index += num_classes
        if not isinstance(num_classes, int) or blank_index != num_classes - 1:
            logits = array_ops.concat([logits[:, :, :blank_index], logits[:, :, blank_index + 1:],
                                       logits[:, :, blank_index:blank_index + 1]], axis=2)
            values = math_ops.cast(labels.values, dtypes.int32)
            labels = SparseTensor(labels.indices, array_ops.where(values < blank_index, values, values - 1),
                                  labels.dense_shape)
        loss, _ = _ctc_loss_op(logits, labels, logit_length)
        return loss


# ---- decoders: validation and output -----------------------------------------------------------
def _decoder_infer(op, n_paths):
    inputs, seq_len = op._inputs
    _check_dtype(op, inputs, _FLOATS, "T")
    _check_dtype(op, seq_len, (dtypes.int32,), "sequence_length")
    in_dims = _rank(op, inputs, 3)
    seq_dims = _rank(op, seq_len, 1)
    batch = _merge(op, in_dims[1], seq_dims[0])
    return ([(dtypes.int64, (None, 2))] * n_paths + [(dtypes.int64, (None,))] * n_paths
            + [(dtypes.int64, (2,))] * n_paths + [(inputs._dtype, (batch, n_paths))])


def _validate_decoder_inputs(inputs, sequence_length):
    if inputs.ndim != 3:
        raise errors._invalid_argument("inputs is not a 3-Tensor")
    if inputs.size == 0:
        raise errors._invalid_argument("inputs must not be empty")
    if sequence_length.ndim != 1:
        raise errors._invalid_argument("sequence_length is not a vector")
    max_time, batch_size = inputs.shape[:2]
    if sequence_length.shape[0] != batch_size:
        raise errors.FailedPreconditionError(
            None, None, "len(sequence_length) != batch_size.  len(sequence_length):  %d batch_size: %d"
            % (sequence_length.shape[0], batch_size))
    seq_len = [int(v) for v in sequence_length.tolist()]
    for b, v in enumerate(seq_len):
        if not v <= max_time:
            raise errors.FailedPreconditionError(None, None, "sequence_length(%d) <= %d" % (b, max_time))
    return seq_len


def _store_sequences(sequences, batch_size):
    """TF's `StoreAllDecodedSequences` for one path: (indices [n, 2], values [n], shape [2])."""
    indices = [(b, t) for b, seq in enumerate(sequences) for t in range(len(seq))]
    values = [v for seq in sequences for v in seq]
    n = len(values)
    return (np.asarray(indices, np.int64).reshape(n, 2), np.asarray(values, np.int64).reshape(n),
            np.asarray([batch_size, max([len(s) for s in sequences] + [0])], np.int64))


# ---- CTCGreedyDecoder --------------------------------------------------------------------------
def _greedy_infer(op):
    return _decoder_infer(op, 1)


def _greedy_kernel(xp, inputs, sequence_length, merge_repeated=False, blank_index=-1):
    seq_len = _validate_decoder_inputs(inputs, sequence_length)
    max_time, batch_size, num_classes = inputs.shape
    if not -num_classes <= blank_index < num_classes:
        raise errors._invalid_argument("blank_index expected to be between %d and %d but was %d"
                                       % (-num_classes, num_classes - 1, blank_index))
    if blank_index < 0:
        blank_index += num_classes
    # The first maximum of each row (a NaN is never greater, as TF's loop).
    best = inputs[:, :, 0].copy()
    arg = np.zeros(best.shape, np.int64)
    for c in range(1, num_classes):
        with np.errstate(invalid="ignore"):
            upd = inputs[:, :, c] > best
        best = np.where(upd, inputs[:, :, c], best)
        arg[upd] = c
    log_prob = np.zeros((batch_size, 1), inputs.dtype)
    seqs = []
    for b in range(batch_size):
        acc = inputs.dtype.type(0)
        seq = []
        prev = -1
        for t in range(seq_len[b]):
            acc = acc + -best[t, b]
            c = int(arg[t, b])
            if c != blank_index and not (merge_repeated and c == prev):
                seq.append(c)
            prev = c
        log_prob[b, 0] = acc
        seqs.append(seq)
    return _store_sequences(seqs, batch_size) + (log_prob,)


register_op("CTCGreedyDecoder", infer=_greedy_infer, kernel=_greedy_kernel, grad=NO_GRADIENT)


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Performs greedy decoding on the logits given in `inputs`.

    At each time step the most likely class (the first one on ties) is taken; with
    `merge_repeated`, repeated classes are merged, then blanks are removed.

    Args:
      inputs: A 3-D float `Tensor` `[max_time, batch_size, num_classes]`: the logits.
      sequence_length: A 1-D `int32` vector `[batch_size]`: the sequence lengths.
      merge_repeated: Whether to merge repeated classes in the output.
      blank_index: The class of the blank (default `num_classes - 1`; negative values count from
        `num_classes`).

    Returns:
      A tuple `(decoded, neg_sum_logits)`: `decoded` a one-element list of `SparseTensor`
      (`int64` values, dense shape `[batch_size, max_decoded_length]`), `neg_sum_logits` a float
      `[batch_size, 1]` `Tensor`: minus the sum of each step's largest logit.

    Raises:
      FailedPreconditionError: At run time, if a sequence length exceeds `max_time` or the
        batch sizes differ.
    """
    outputs = ops.apply_op("CTCGreedyDecoder", [ops.convert_to_tensor(inputs, name="inputs"),
                                                _input(sequence_length, dtypes.int32, "sequence_length")],
                           {"merge_repeated": bool(merge_repeated),
                            "blank_index": -1 if blank_index is None else int(blank_index)}, name="CTCGreedyDecoder")
    indices, values, shape, log_probabilities = outputs
    return [SparseTensor(indices, values, shape)], log_probabilities


# ---- CTCBeamSearchDecoder ----------------------------------------------------------------------
class _Prob:
    __slots__ = ("total", "blank", "label")

    def __init__(self, neg_inf):
        self.total = self.blank = self.label = neg_inf

    def reset(self, neg_inf):
        self.total = self.blank = self.label = neg_inf

    def copy_from(self, other):
        self.total, self.blank, self.label = other.total, other.blank, other.label


class _Entry:
    __slots__ = ("parent", "label", "children", "oldp", "newp")

    def __init__(self, parent, label, neg_inf):
        self.parent = parent
        self.label = label
        self.children = {}
        self.oldp = _Prob(neg_inf)
        self.newp = _Prob(neg_inf)

    def label_seq(self, merge_repeated):
        labels = []
        prev = -1
        c = self
        while c.parent is not None:
            if not merge_repeated or c.label != prev:
                labels.append(c.label)
            prev = c.label
            c = c.parent
        return labels[::-1]


def _scalar_lse(a, b, neg_inf, f32):
    """TF's `LogSumExp` on two scalars of the kernel's dtype."""
    if a == neg_inf:
        return b
    if b == neg_inf:
        return a
    hi, lo = (a, b) if a > b else (b, a)
    return hi + type(hi)(np.log1p(np.exp(f32(lo - hi))))


def _beam_search_one(x, beam_width, blank, neg_inf):
    """TF's `CTCBeamSearchDecoder` (default scorer, no label selection) over the [T, C] logits `x`
    of one batch element; returns the leaves, best first.

    The leaves are a min-heap on their total log probability (TF's `TopN`): a new prefix enters
    when the beam is not full or when it beats the worst leaf, which is then dropped (its
    probabilities reset, as TF). Once the beam is full, a branch's extensions that cannot beat the
    worst leaf are skipped without being created; TF creates and resets them, which only matters
    for an existing inactive child's `oldp` (reset as TF does)."""
    f32 = np.float32
    zero = x.dtype.type(0)
    n_labels = x.shape[1] - 1
    root = _Entry(None, -1, neg_inf)
    root.newp.total = zero
    root.newp.blank = zero
    leaves = [root]
    counter = [0]

    def push(heap, e):
        counter[0] += 1
        heapq.heappush(heap, (e.newp.total, counter[0], e))

    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for t in range(x.shape[0]):
            raw = x[t]
            max_coeff = raw.max()
            norm_offset = max_coeff + np.log(np.cumsum(np.exp(raw - max_coeff))[-1])  # summed in order, as TF
            shifted_arr = (raw - norm_offset)[:n_labels]
            shifted = list(raw - norm_offset)
            blank_logit = raw[blank]
            branches = sorted(leaves, key=lambda e: e.newp.total, reverse=True)
            heap = []
            for b in branches:
                b.oldp.copy_from(b.newp)
            for b in branches:
                p = b.parent
                if p is not None:
                    if p.newp.total != neg_inf:
                        previous = p.oldp.blank if b.label == p.label else p.oldp.total
                        b.newp.label = _scalar_lse(b.newp.label, previous, neg_inf, f32)
                    b.newp.label = b.newp.label + shifted[b.label]
                b.newp.blank = b.oldp.total + blank_logit - norm_offset
                b.newp.total = _scalar_lse(b.newp.blank, b.newp.label, neg_inf, f32)
                push(heap, b)
            for b in branches:
                total = b.oldp.total
                if not (total > neg_inf and (len(heap) < beam_width or total > heap[0][0])):
                    continue
                values = shifted_arr + b.oldp.total
                if 0 <= b.label < n_labels:
                    values[b.label] = shifted[b.label] + b.oldp.blank
                label = 0
                children = b.children
                while label < n_labels:
                    if len(heap) == beam_width:
                        # Full: only the labels that beat the worst leaf now can enter (it only rises);
                        # TF visits the others too and resets their inactive children (their `oldp`
                        # may still hold a value: a branch dropped from the beam earlier in this step).
                        rest = np.nonzero(values[label:] > heap[0][0])[0]
                        nxt = label + int(rest[0]) if rest.size else n_labels
                        for skipped, c in children.items():
                            if label <= skipped < nxt and c.newp.total == neg_inf:
                                c.oldp.reset(neg_inf)
                        if nxt == n_labels:
                            break
                        label = nxt
                    c = children.get(label)
                    if c is None or c.newp.total == neg_inf:
                        v = values[label]
                        if v > neg_inf and (len(heap) < beam_width or v > heap[0][0]):
                            if c is None:
                                c = children[label] = _Entry(b, label, neg_inf)
                            c.newp.blank = neg_inf
                            c.newp.label = v
                            c.newp.total = v
                            if len(heap) == beam_width:
                                heapq.heappop(heap)[2].newp.reset(neg_inf)
                            push(heap, c)
                        elif c is not None:
                            c.oldp.reset(neg_inf)
                    label += 1
            leaves = [item[2] for item in heap]
    return sorted(leaves, key=lambda e: e.newp.total, reverse=True)


def _beam_kernel(xp, inputs, sequence_length, beam_width, top_paths, merge_repeated=True):
    seq_len = _validate_decoder_inputs(inputs, sequence_length)
    max_time, batch_size, num_classes = inputs.shape
    neg_inf = inputs.dtype.type(_NEG_INF)
    log_prob = np.zeros((batch_size, top_paths), inputs.dtype)
    paths = [[] for _ in range(top_paths)]
    for b in range(batch_size):
        leaves = _beam_search_one(inputs[:max(seq_len[b], 0), b, :], beam_width, num_classes - 1, neg_inf)
        if top_paths > beam_width:
            raise errors._invalid_argument("requested more paths than the beam width.")
        if top_paths > len(leaves):
            raise errors._invalid_argument("Less leaves in the beam search than requested.")
        for i in range(top_paths):
            paths[i].append(leaves[i].label_seq(merge_repeated))
            log_prob[b, i] = leaves[i].newp.total
    stored = [_store_sequences(p, batch_size) for p in paths]
    return tuple([s[0] for s in stored] + [s[1] for s in stored] + [s[2] for s in stored] + [log_prob])


def _beam_infer(op):
    _check_min(op, "beam_width")
    _check_min(op, "top_paths")
    return _decoder_infer(op, op._attrs["top_paths"])


register_op("CTCBeamSearchDecoder", infer=_beam_infer, kernel=_beam_kernel, grad=NO_GRADIENT)


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=True):
    """Performs beam search decoding on the logits given in `inputs`.

    TF's prefix beam search: the `beam_width` most probable label prefixes are kept at each time
    step; the result is the `top_paths` best of them. With `merge_repeated` (TF 1's default),
    repeated labels of a decoded path are merged even when a blank separated them, as in TF.

    Args:
      inputs: A 3-D float `Tensor` `[max_time, batch_size, num_classes]`: the logits.
      sequence_length: A 1-D `int32` vector `[batch_size]`: the sequence lengths.
      beam_width: An int >= 1: the beam width.
      top_paths: An int >= 1: the number of decoded paths returned (<= `beam_width`).
      merge_repeated: Whether to merge repeated labels in the output.

    Returns:
      A tuple `(decoded, log_probabilities)`: `decoded` a list of `top_paths` `SparseTensor`
      (`int64` values, dense shape `[batch_size, max_decoded_length[j]]`), `log_probabilities` a
      float `[batch_size, top_paths]` `Tensor` with the log probability of each path.

    Raises:
      ValueError: If `beam_width` or `top_paths` is less than 1.
      InvalidArgumentError: At run time, if `top_paths` exceeds `beam_width` or the beam has
        fewer leaves than `top_paths`.
    """
    top_paths = int(top_paths)
    outputs = ops.apply_op("CTCBeamSearchDecoder", [ops.convert_to_tensor(inputs, name="inputs"),
                                                    _input(sequence_length, dtypes.int32, "sequence_length")],
                           {"beam_width": int(beam_width), "top_paths": top_paths,
                            "merge_repeated": bool(merge_repeated)}, name="CTCBeamSearchDecoder")
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    indices, values = outputs[:top_paths], outputs[top_paths:2 * top_paths]
    shapes, log_probabilities = outputs[2 * top_paths:3 * top_paths], outputs[-1]
    return [SparseTensor(i, v, s) for i, v, s in zip(indices, values, shapes)], log_probabilities


def ctc_beam_search_decoder_v2(inputs, sequence_length, beam_width=100, top_paths=1):
    """Performs beam search decoding on the logits given in `inputs` (TF 2's form: repeated labels
    are not merged, `merge_repeated=False`).

    Args:
      inputs: A 3-D float `Tensor` `[max_time, batch_size, num_classes]`: the logits.
      sequence_length: A 1-D `int32` vector `[batch_size]`: the sequence lengths.
      beam_width: An int >= 1: the beam width.
      top_paths: An int >= 1: the number of decoded paths returned (<= `beam_width`).

    Returns:
      A tuple `(decoded, log_probabilities)` as `ctc_beam_search_decoder`.

    Raises:
      ValueError: If `beam_width` or `top_paths` is less than 1.
    """
    return ctc_beam_search_decoder(inputs, sequence_length, beam_width=beam_width, top_paths=top_paths,
                                   merge_repeated=False)


# ---- ctc_unique_labels ---------------------------------------------------------------------------
def ctc_unique_labels(labels, name=None):
    """Gets the unique labels and their indices of each row of a batch of label sequences.

    Args:
      labels: A `[batch_size, max_label_length]` `Tensor` of labels.
      name: A name for this op's name scope (optional).

    Returns:
      A tuple `(unique_labels, unique_indices)`: `unique_labels` an `int64` `Tensor`
      `[batch_size, max_label_length]` with the distinct labels of each row in order of first
      appearance, padded with 0; `unique_indices` an `int32` `Tensor` of the same shape giving, for
      each label, its position in `unique_labels`.
    """
    from . import array_ops, array_select_ops, math_ops
    from .functional_ops import map_fn
    with ops.name_scope(name, "ctc_unique_labels", [labels]):
        labels = ops.convert_to_tensor(labels, name="labels")

        def _unique(x):
            u = array_select_ops.unique(x)
            y = array_ops.pad(u.y, [[0, _get_dim(u.idx, 0) - _get_dim(u.y, 0)]])
            y = math_ops.cast(y, dtypes.int64)
            return [y, u.idx]

        return map_fn(_unique, labels, dtype=[dtypes.int64, dtypes.int32])
