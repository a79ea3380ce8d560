"""`tf.contrib.crf`: a linear-chain conditional random field layer (TF 1.15's `contrib/crf/python/ops/crf.py`).

Scores of a tag sequence `y` for unary potentials `inputs` `[batch, max_seq_len, num_tags]` and a
transition matrix `[num_tags, num_tags]` are `sum_t inputs[t, y_t] + sum_t transitions[y_t, y_t+1]`
over each sequence's length; the log-normaliser sums over all tag sequences with a forward recursion
run by `dynamic_rnn`, and `crf_decode` finds the best sequence (Viterbi) in the graph.
"""

import numpy as _np

from ..framework import dtypes as _dtypes
from ..framework import ops as _ops
from ..framework.constant_op import constant as _constant
from ..framework.tensor_shape import dimension_value as _dimension_value
from ..layers.utils import smart_cond as _smart_cond
from ..nn.rnn import dynamic_rnn as _dynamic_rnn
from ..nn.rnn_cell_impl import RNNCell as _RNNCell
from ..ops import array_ops as _array_ops
from ..ops import core_ops as _core_ops
from ..ops import math_ops as _math_ops
from ..ops.array_shape_ops import range as _range
from ..variable_scopes import get_variable as _get_variable

__all__ = ["CrfDecodeBackwardRnnCell", "CrfDecodeForwardRnnCell", "CrfForwardRnnCell", "crf_binary_score",
           "crf_decode", "crf_log_likelihood", "crf_log_norm", "crf_multitag_sequence_score",
           "crf_sequence_score", "crf_unary_score", "viterbi_decode"]


def _is_single_step(t):
    """`True`/`False` when the time dimension of `t` is statically known, else a boolean tensor."""
    n = _dimension_value(t.shape[1]) if t.shape.ndims is not None else None
    if n is not None:
        return n == 1
    return _math_ops.equal(_array_ops.shape(t)[1], 1)


def crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params):
    """Computes the unnormalized score for a tag sequence.

    Args:
      inputs: A [batch_size, max_seq_len, num_tags] tensor of unary potentials.
      tag_indices: A [batch_size, max_seq_len] int tensor of tag indices to score.
      sequence_lengths: A [batch_size] vector of true sequence lengths.
      transition_params: A [num_tags, num_tags] transition matrix.

    Returns:
      sequence_scores: A [batch_size] vector of unnormalized sequence scores.
    """
    inputs = _ops.convert_to_tensor(inputs)
    tag_indices = _ops.convert_to_tensor(tag_indices)
    sequence_lengths = _ops.convert_to_tensor(sequence_lengths)
    transition_params = _ops.convert_to_tensor(transition_params)

    def _single_seq_fn():
        batch_size = _array_ops.shape(inputs, out_type=tag_indices.dtype)[0]
        example_inds = _array_ops.reshape(_range(batch_size, dtype=tag_indices.dtype), [-1, 1])
        sequence_scores = _array_ops.gather_nd(_array_ops.squeeze(inputs, [1]),
                                              _array_ops.concat([example_inds, tag_indices], axis=1))
        return _array_ops.where(_math_ops.less_equal(sequence_lengths, 0), _core_ops.zeros_like(sequence_scores),
                               sequence_scores)

    def _multi_seq_fn():
        unary_scores = crf_unary_score(tag_indices, sequence_lengths, inputs)
        binary_scores = crf_binary_score(tag_indices, sequence_lengths, transition_params)
        return unary_scores + binary_scores

    return _smart_cond(_is_single_step(inputs), _single_seq_fn, _multi_seq_fn)


def crf_multitag_sequence_score(inputs, tag_bitmap, sequence_lengths, transition_params):
    """Computes the unnormalized score of all tag sequences matching `tag_bitmap`.

    Args:
      inputs: A [batch_size, max_seq_len, num_tags] tensor of unary potentials.
      tag_bitmap: A [batch_size, max_seq_len, num_tags] boolean tensor: the allowed tags at each step.
      sequence_lengths: A [batch_size] vector of true sequence lengths.
      transition_params: A [num_tags, num_tags] transition matrix.

    Returns:
      sequence_scores: A [batch_size] vector of the log-sum-exp of the allowed sequences' scores.
    """
    inputs = _ops.convert_to_tensor(inputs)
    tag_bitmap = _ops.convert_to_tensor(tag_bitmap, dtype=_dtypes.bool_)
    filtered_inputs = _array_ops.where(tag_bitmap, inputs,
                                      _array_ops.fill(_array_ops.shape(inputs), _constant(float("-inf"), inputs.dtype)))

    def _single_seq_fn():
        filtered = _array_ops.squeeze(filtered_inputs, [1])
        return _math_ops.reduce_logsumexp(filtered, axis=[1])

    def _multi_seq_fn():
        return crf_log_norm(inputs=filtered_inputs, sequence_lengths=sequence_lengths,
                            transition_params=transition_params)

    return _smart_cond(_is_single_step(inputs), _single_seq_fn, _multi_seq_fn)


def crf_log_norm(inputs, sequence_lengths, transition_params):
    """Computes the normalization for a CRF.

    Args:
      inputs: A [batch_size, max_seq_len, num_tags] tensor of unary potentials.
      sequence_lengths: A [batch_size] vector of true sequence lengths.
      transition_params: A [num_tags, num_tags] transition matrix.

    Returns:
      log_norm: A [batch_size] vector of normalizers for a CRF (0 for sequences of length <= 0).
    """
    inputs = _ops.convert_to_tensor(inputs)
    sequence_lengths = _ops.convert_to_tensor(sequence_lengths)
    first_input = _array_ops.slice(inputs, [0, 0, 0], [-1, 1, -1])
    first_input = _array_ops.squeeze(first_input, [1])

    def _single_seq_fn():
        log_norm = _math_ops.reduce_logsumexp(first_input, [1])
        return _array_ops.where(_math_ops.less_equal(sequence_lengths, 0), _core_ops.zeros_like(log_norm), log_norm)

    def _multi_seq_fn():
        rest_of_input = _array_ops.slice(inputs, [0, 1, 0], [-1, -1, -1])
        forward_cell = CrfForwardRnnCell(transition_params)
        sequence_lengths_less_one = _math_ops.maximum(_constant(0, dtype=sequence_lengths.dtype),
                                                     sequence_lengths - 1)
        _, alphas = _dynamic_rnn(cell=forward_cell, inputs=rest_of_input, sequence_length=sequence_lengths_less_one,
                                initial_state=first_input, dtype=inputs.dtype)
        log_norm = _math_ops.reduce_logsumexp(alphas, [1])
        return _array_ops.where(_math_ops.less_equal(sequence_lengths, 0), _core_ops.zeros_like(log_norm), log_norm)

    return _smart_cond(_is_single_step(inputs), _single_seq_fn, _multi_seq_fn)


def crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None):
    """Computes the log-likelihood of tag sequences in a CRF.

    Args:
      inputs: A [batch_size, max_seq_len, num_tags] tensor of unary potentials.
      tag_indices: A [batch_size, max_seq_len] int tensor of tag indices.
      sequence_lengths: A [batch_size] vector of true sequence lengths.
      transition_params: A [num_tags, num_tags] transition matrix; if None, the variable
        "transitions" is created with `get_variable` (default initializer).

    Returns:
      log_likelihood: A [batch_size] tensor of the log-likelihoods of `tag_indices`.
      transition_params: The [num_tags, num_tags] transition matrix used.
    """
    inputs = _ops.convert_to_tensor(inputs)
    num_tags = _dimension_value(inputs.shape[2])
    if transition_params is None:
        transition_params = _get_variable("transitions", [num_tags, num_tags])
    sequence_scores = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
    log_norm = crf_log_norm(inputs, sequence_lengths, transition_params)
    return sequence_scores - log_norm, transition_params


def crf_unary_score(tag_indices, sequence_lengths, inputs):
    """Computes the unary scores of tag sequences.

    Args:
      tag_indices: A [batch_size, max_seq_len] int tensor of tag indices.
      sequence_lengths: A [batch_size] vector of true sequence lengths.
      inputs: A [batch_size, max_seq_len, num_tags] tensor of unary potentials.

    Returns:
      unary_scores: A [batch_size] vector of unary scores.
    """
    inputs = _ops.convert_to_tensor(inputs)
    tag_indices = _ops.convert_to_tensor(tag_indices)
    batch_size = _array_ops.shape(inputs)[0]
    max_seq_len = _array_ops.shape(inputs)[1]
    num_tags = _array_ops.shape(inputs)[2]
    flattened_inputs = _array_ops.reshape(inputs, [-1])
    offsets = _array_ops.expand_dims(_range(batch_size) * max_seq_len * num_tags, 1)
    offsets += _array_ops.expand_dims(_range(max_seq_len) * num_tags, 0)
    if tag_indices.dtype == _dtypes.int64:
        offsets = _math_ops.cast(offsets, _dtypes.int64)
    flattened_tag_indices = _array_ops.reshape(offsets + tag_indices, [-1])
    unary_scores = _array_ops.reshape(_array_ops.gather(flattened_inputs, flattened_tag_indices),
                                     [batch_size, max_seq_len])
    masks = _array_ops.sequence_mask(sequence_lengths, maxlen=_array_ops.shape(tag_indices)[1],
                                    dtype=inputs.dtype)
    return _math_ops.reduce_sum(unary_scores * masks, 1)


def crf_binary_score(tag_indices, sequence_lengths, transition_params):
    """Computes the binary (transition) scores of tag sequences.

    Args:
      tag_indices: A [batch_size, max_seq_len] int tensor of tag indices.
      sequence_lengths: A [batch_size] vector of true sequence lengths.
      transition_params: A [num_tags, num_tags] matrix of binary potentials.

    Returns:
      binary_scores: A [batch_size] vector of binary scores.
    """
    tag_indices = _ops.convert_to_tensor(tag_indices)
    transition_params = _ops.convert_to_tensor(transition_params)
    num_tags = _dimension_value(transition_params.shape[0])
    if num_tags is None:
        num_tags = _math_ops.cast(_array_ops.shape(transition_params)[0], tag_indices.dtype)
    num_transitions = _array_ops.shape(tag_indices)[1] - 1
    start_tag_indices = _array_ops.slice(tag_indices, [0, 0], _array_ops.stack([-1, num_transitions]))
    end_tag_indices = _array_ops.slice(tag_indices, [0, 1], _array_ops.stack([-1, num_transitions]))
    flattened_transition_indices = start_tag_indices * num_tags + end_tag_indices
    flattened_transition_params = _array_ops.reshape(transition_params, [-1])
    binary_scores = _array_ops.gather(flattened_transition_params, flattened_transition_indices)
    masks = _array_ops.sequence_mask(sequence_lengths, maxlen=_array_ops.shape(tag_indices)[1],
                                    dtype=transition_params.dtype)
    truncated_masks = _array_ops.slice(masks, [0, 1], [-1, -1])
    return _math_ops.reduce_sum(binary_scores * truncated_masks, 1)


class _CrfTransitionCell(_RNNCell):
    """A cell stepping over `num_tags` scores with a [num_tags, num_tags] `transition_params` matrix."""

    def __init__(self, transition_params):
        super().__init__()
        transition_params = _ops.convert_to_tensor(transition_params)
        self._transition_params = _array_ops.expand_dims(transition_params, 0)
        self._num_tags = _dimension_value(transition_params.shape[0])

    @property
    def state_size(self):
        return self._num_tags

    @property
    def output_size(self):
        return self._num_tags

    def _transition_scores(self, state):
        """`[batch, num_tags, num_tags]`: the score of each previous tag `i` plus `T[i, j]`."""
        return _array_ops.expand_dims(state, 2) + self._transition_params


class CrfForwardRnnCell(_CrfTransitionCell):
    """The forward-algorithm step of a linear-chain CRF: `alpha' = x + logsumexp_i(alpha_i + T[i, :])`.

    Args:
      transition_params: A [num_tags, num_tags] matrix of binary potentials.
    """

    def __call__(self, inputs, state, scope=None):
        """Returns `(new_alphas, new_alphas)` for the [batch, num_tags] `inputs` and `state`."""
        transition_scores = self._transition_scores(state)
        new_alphas = inputs + _math_ops.reduce_logsumexp(transition_scores, [1])
        return new_alphas, new_alphas


def viterbi_decode(score, transition_params):
    """Decodes the highest scoring sequence of tags outside of TensorFlow (NumPy).

    Args:
      score: A [seq_len, num_tags] matrix of unary potentials.
      transition_params: A [num_tags, num_tags] matrix of binary potentials.

    Returns:
      viterbi: A list of `seq_len` integers: the highest scoring tag indices.
      viterbi_score: A float: the score of the Viterbi sequence.
    """
    score = _np.asarray(score)
    transition_params = _np.asarray(transition_params)
    trellis = _np.zeros_like(score)
    backpointers = _np.zeros_like(score, dtype=_np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        v = _np.expand_dims(trellis[t - 1], 1) + transition_params
        trellis[t] = score[t] + _np.max(v, 0)
        backpointers[t] = _np.argmax(v, 0)
    viterbi = [_np.argmax(trellis[-1])]
    for bp in reversed(backpointers[1:]):
        viterbi.append(bp[viterbi[-1]])
    viterbi.reverse()
    viterbi_score = _np.max(trellis[-1])
    return viterbi, viterbi_score


class CrfDecodeForwardRnnCell(_CrfTransitionCell):
    """The forward Viterbi step: the new best scores and the int32 backpointers.

    Args:
      transition_params: A [num_tags, num_tags] matrix of binary potentials.
    """

    def __call__(self, inputs, state, scope=None):
        """Returns `(backpointers, new_state)` for the [batch, num_tags] `inputs` and `state`."""
        transition_scores = self._transition_scores(state)
        new_state = inputs + _math_ops.reduce_max(transition_scores, [1])
        backpointers = _math_ops.cast(_math_ops.argmax(transition_scores, 1), dtype=_dtypes.int32)
        return backpointers, new_state


class CrfDecodeBackwardRnnCell(_RNNCell):
    """The backward Viterbi step: follows the backpointers from the current tag.

    Args:
      num_tags: The number of tags.
    """

    def __init__(self, num_tags):
        super().__init__()
        self._num_tags = num_tags

    @property
    def state_size(self):
        return 1

    @property
    def output_size(self):
        return 1

    def __call__(self, inputs, state, scope=None):
        """Returns `(new_tags, new_tags)`, both [batch, 1], for backpointers `inputs` [batch, num_tags]."""
        state = _array_ops.squeeze(state, axis=[1])
        batch_size = _array_ops.shape(inputs)[0]
        b_indices = _range(batch_size)
        indices = _array_ops.stack([b_indices, state], axis=1)
        new_tags = _array_ops.expand_dims(_array_ops.gather_nd(inputs, indices), axis=-1)
        return new_tags, new_tags


def crf_decode(potentials, transition_params, sequence_length):
    """Decodes the highest scoring sequence of tags in TensorFlow.

    Args:
      potentials: A [batch_size, max_seq_len, num_tags] tensor of unary potentials.
      transition_params: A [num_tags, num_tags] matrix of binary potentials.
      sequence_length: A [batch_size] vector of true sequence lengths.

    Returns:
      decode_tags: A [batch_size, max_seq_len] int32 tensor of the highest scoring tag indices.
      best_score: A [batch_size] tensor of the scores of `decode_tags`.
    """
    potentials = _ops.convert_to_tensor(potentials)
    sequence_length = _ops.convert_to_tensor(sequence_length)

    def _single_seq_fn():
        squeezed_potentials = _array_ops.squeeze(potentials, [1])
        decode_tags = _array_ops.expand_dims(_math_ops.argmax(squeezed_potentials, axis=1), 1)
        best_score = _math_ops.reduce_max(squeezed_potentials, axis=1)
        return _math_ops.cast(decode_tags, dtype=_dtypes.int32), best_score

    def _multi_seq_fn():
        num_tags = _dimension_value(potentials.shape[2])
        crf_fwd_cell = CrfDecodeForwardRnnCell(transition_params)
        initial_state = _array_ops.slice(potentials, [0, 0, 0], [-1, 1, -1])
        initial_state = _array_ops.squeeze(initial_state, axis=[1])
        inputs = _array_ops.slice(potentials, [0, 1, 0], [-1, -1, -1])
        sequence_length_less_one = _math_ops.maximum(_constant(0, dtype=sequence_length.dtype), sequence_length - 1)
        backpointers, last_score = _dynamic_rnn(crf_fwd_cell, inputs=inputs, sequence_length=sequence_length_less_one,
                                               initial_state=initial_state, time_major=False, dtype=_dtypes.int32)
        backpointers = _array_ops.reverse_sequence(backpointers, sequence_length_less_one, seq_axis=1)
        crf_bwd_cell = CrfDecodeBackwardRnnCell(num_tags)
        initial_state = _math_ops.cast(_math_ops.argmax(last_score, axis=1), dtype=_dtypes.int32)
        initial_state = _array_ops.expand_dims(initial_state, axis=-1)
        decode_tags, _ = _dynamic_rnn(crf_bwd_cell, inputs=backpointers, sequence_length=sequence_length_less_one,
                                     initial_state=initial_state, time_major=False, dtype=_dtypes.int32)
        decode_tags = _array_ops.squeeze(decode_tags, axis=[2])
        decode_tags = _array_ops.concat([initial_state, decode_tags], axis=1)
        decode_tags = _array_ops.reverse_sequence(decode_tags, sequence_length, seq_axis=1)
        best_score = _math_ops.reduce_max(last_score, axis=1)
        return decode_tags, best_score

    return _smart_cond(_is_single_step(potentials), _single_seq_fn, _multi_seq_fn)
