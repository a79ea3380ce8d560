"""`tf.contrib.seq2seq.BeamSearchDecoder` and `tile_batch` (TF 1.15's `beam_search_decoder.py`).

Each step runs the cell on `batch_size * beam_width` rows, adds the step's log-softmax to each
beam's log probability (a finished beam only continues with `end_token`, at no cost), divides by the
length penalty `((5 + length) / 6) ** length_penalty_weight` (GNMT), keeps the `beam_width` best of
the `beam_width * vocab_size` continuations of each batch entry (`top_k`: the lower flat index on
ties), and reorders the cell state by the chosen parent beams. At step 0 only the first beam is
live (the others start finished with log probability -inf). `finalize` follows the parent ids back
with `gather_tree` to give `predicted_ids` `[batch_size, max_time, beam_width]` (batch major).
"""

import collections

import numpy as np

from ...framework import dtypes, ops, tensor_util
from ...framework.tensor_shape import TensorShape, as_shape, dimension_value
from ...layers.base import Layer
from ...nn.rnn_cell_impl import assert_like_rnncell
from ...ops import array_ops, check_ops, embedding_ops, math_ops, nest, nn_ops
from ...ops.array_shape_ops import range as _range
from ...ops.control_flow_ops import cond
from ...ops.seq2seq_ops import gather_tree
from .basic_decoder import _cell_output_size
from .decoder import Decoder

__all__ = ["BeamSearchDecoderOutput", "BeamSearchDecoderState", "BeamSearchDecoder", "FinalBeamSearchDecoderOutput",
           "tile_batch", "gather_tree_from_array"]


class BeamSearchDecoderState(collections.namedtuple("BeamSearchDecoderState", (
        "cell_state", "log_probs", "finished", "lengths", "accumulated_attention_probs"))):
    """The state of a `BeamSearchDecoder`: the cell state, each beam's log probability, finished flag
    and length (`[batch_size, beam_width]`), and the accumulated attention (unused: `()`)."""


class BeamSearchDecoderOutput(collections.namedtuple("BeamSearchDecoderOutput",
                                                     ("scores", "predicted_ids", "parent_ids"))):
    """One beam search step's output: each new beam's score, token id and parent beam."""


class FinalBeamSearchDecoderOutput(collections.namedtuple("FinalBeamDecoderOutput",
                                                          ["predicted_ids", "beam_search_decoder_output"])):
    """Final outputs returned by the beam search after all decoding is finished.

    Args:
      predicted_ids: The final prediction. A tensor of shape `[batch_size, T, beam_width]` (or
        `[T, batch_size, beam_width]` if `output_time_major` is True). Beams are ordered from
        best to worst.
      beam_search_decoder_output: An instance of `BeamSearchDecoderOutput` that describes the
        state of the beam search.
    """


def _tile_batch(t, multiplier):
    t = ops.convert_to_tensor(t, name="t")
    shape_t = array_ops.shape(t)
    if t.shape.ndims is None or t.shape.ndims < 1:
        raise ValueError("t must have statically known rank")
    tiling = [1] * (t.shape.ndims + 1)
    tiling[1] = multiplier
    batch = dimension_value(t.shape[0])
    tiled_static_batch_size = batch * multiplier if batch is not None else None
    tiled = array_ops.tile(array_ops.expand_dims(t, 1), tiling)
    tiled = array_ops.reshape(tiled, array_ops.concat(([shape_t[0] * multiplier], shape_t[1:]), 0))
    tiled.set_shape(TensorShape([tiled_static_batch_size]).concatenate(t.shape[1:]))
    return tiled


def tile_batch(t, multiplier, name=None):
    """Tile the batch dimension of a (possibly nested structure of) tensor(s) t.

    For each tensor t in a (possibly nested structure) of tensors, this function takes a tensor t
    shaped `[batch_size, s0, s1, ...]` composed of minibatch entries `t[0], ..., t[batch_size - 1]`
    and tiles it to have a shape `[batch_size * multiplier, s0, s1, ...]` composed of minibatch
    entries `t[0], t[0], ..., t[1], t[1], ...` where each minibatch entry is repeated `multiplier`
    times.

    Args:
      t: `Tensor` shaped `[batch_size, ...]`.
      multiplier: Python int.
      name: Name scope for any created operations.

    Returns:
      A (possibly nested structure of) `Tensor` shaped `[batch_size * multiplier, ...]`.

    Raises:
      ValueError: if tensor(s) `t` do not have a statically known rank or the rank is < 1.
    """
    flat_t = nest.flatten(t)
    with ops.name_scope(name, "tile_batch", flat_t + [multiplier]):
        return nest.map_structure(lambda t_: _tile_batch(t_, multiplier), t)


def gather_tree_from_array(t, parent_ids, sequence_length):
    """Calculates the full beams for `TensorArray`s.

    Args:
      t: A stacked `TensorArray` of size `max_time` that contains `Tensor`s of shape
        `[batch_size, beam_width, s]` or `[batch_size * beam_width, s]` where `s` is the depth
        shape.
      parent_ids: The parent ids of shape `[max_time, batch_size, beam_width]`.
      sequence_length: The sequence length of shape `[batch_size, beam_width]`.

    Returns:
      A `Tensor` which is a stacked `TensorArray` of the same size and type as `t` and where beams
      are sorted in each `Tensor` according to `parent_ids`.
    """
    max_time = dimension_value(parent_ids.shape[0]) or array_ops.shape(parent_ids)[0]
    batch_size = dimension_value(parent_ids.shape[1]) or array_ops.shape(parent_ids)[1]
    beam_width = dimension_value(parent_ids.shape[2]) or array_ops.shape(parent_ids)[2]

    beam_ids = array_ops.expand_dims(array_ops.expand_dims(_range(beam_width), 0), 0)
    beam_ids = array_ops.tile(beam_ids, array_ops.stack([max_time, batch_size, 1]))
    max_sequence_lengths = math_ops.cast(math_ops.reduce_max(sequence_length, axis=1), dtypes.int32)
    sorted_beam_ids = gather_tree(step_ids=beam_ids, parent_ids=parent_ids, max_sequence_lengths=max_sequence_lengths,
                                  end_token=beam_width + 1)
    in_bound_steps = array_ops.transpose(array_ops.sequence_mask(sequence_length, maxlen=max_time), perm=[2, 0, 1])
    sorted_beam_ids = array_ops.where(in_bound_steps, sorted_beam_ids, beam_ids)

    time_ind = array_ops.tile(array_ops.reshape(_range(max_time), [-1, 1, 1]),
                              array_ops.stack([1, batch_size, beam_width]))
    batch_ind = array_ops.tile(array_ops.reshape(_range(batch_size), [-1, 1, 1]),
                               array_ops.stack([1, max_time, beam_width]))
    batch_ind = array_ops.transpose(batch_ind, perm=[1, 0, 2])
    indices = array_ops.stack([time_ind, batch_ind, sorted_beam_ids], -1)

    final_shape = array_ops.shape(t)
    gather_from = array_ops.reshape(t, array_ops.stack([max_time, batch_size, beam_width, -1]))
    ordered = array_ops.gather_nd(gather_from, indices)
    ordered = array_ops.reshape(ordered, final_shape)
    ordered.set_shape(t.shape)
    return ordered


def _check_ndims(t):
    if t.shape.ndims is None:
        raise ValueError("Expected tensor (%s) to have known rank, but ndims == None." % t)


def _as_shape(s):
    if ops.is_tensor(s):
        s = tensor_util.constant_value(s)
        if s is None:
            return TensorShape(None)
        s = np.asarray(s)
        return TensorShape([int(s)]) if s.ndim == 0 else TensorShape([int(d) for d in s])
    return TensorShape([s]) if isinstance(s, (int, np.integer)) else as_shape(s)


class BeamSearchDecoder(Decoder):
    """BeamSearch sampling decoder.

    **NOTE** If you are using the `BeamSearchDecoder` with a cell wrapped in `AttentionWrapper`,
    then you must ensure that the encoder output has been tiled to `beam_width` via `tile_batch`
    (NOT `tf.tile`), the `batch_size` argument passed to the `zero_state` method of this wrapper is
    equal to `true_batch_size * beam_width`, and the initial state created with `zero_state` above
    contains a `cell_state` value containing properly tiled final state from the encoder.

    Args:
      cell: An `RNNCell` instance.
      embedding: A callable that takes a vector tensor of `ids` (argmax ids), or the `params`
        argument for `embedding_lookup`.
      start_tokens: `int32` vector shaped `[batch_size]`, the start tokens.
      end_token: `int32` scalar, the token that marks end of decoding.
      initial_state: A (possibly nested tuple of...) tensors and TensorArrays, rows
        `batch_size * beam_width`.
      beam_width: Python integer, the number of beams.
      output_layer: (Optional) An instance of `tf.layers.Layer`, i.e., `tf.layers.Dense`. Optional
        layer to apply to the RNN output prior to storing the result or sampling.
      length_penalty_weight: Float weight to penalize length. Disabled with 0.0.
      coverage_penalty_weight: Float weight to penalize the coverage of source sentence. Only 0.0
        (disabled) is supported.
      reorder_tensor_arrays: If `True`, `TensorArray`s' elements within the cell state will be
        reordered according to the beam search path. If the `TensorArray` can be reordered, the
        stacked form will be returned. Otherwise, the `TensorArray` will be returned as is.

    Raises:
      TypeError: if `cell` is not an instance of `RNNCell`, or `output_layer` is not an instance
        of `tf.layers.Layer`.
      ValueError: If `start_tokens` is not a vector or `end_token` is not a scalar.
      NotImplementedError: If `coverage_penalty_weight` is not 0.
    """

    def __init__(self, cell, embedding, start_tokens, end_token, initial_state, beam_width, output_layer=None,
                 length_penalty_weight=0.0, coverage_penalty_weight=0.0, reorder_tensor_arrays=True):
        assert_like_rnncell("cell", cell)
        if output_layer is not None and not isinstance(output_layer, Layer):
            raise TypeError("output_layer must be a Layer, received: %s" % type(output_layer))
        if tensor_util.constant_value(ops.convert_to_tensor(coverage_penalty_weight)) != 0:
            raise NotImplementedError("BeamSearchDecoder: coverage_penalty_weight other than 0.0 is not supported.")
        self._cell = cell
        self._output_layer = output_layer
        self._reorder_tensor_arrays = reorder_tensor_arrays
        if callable(embedding):
            self._embedding_fn = embedding
        else:
            self._embedding_fn = lambda ids: embedding_ops.embedding_lookup(embedding, ids)
        self._start_tokens = ops.convert_to_tensor(start_tokens, dtype=dtypes.int32, name="start_tokens")
        if self._start_tokens.shape.ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = ops.convert_to_tensor(end_token, dtype=dtypes.int32, name="end_token")
        if self._end_token.shape.ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = array_ops.size(self._start_tokens)
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._coverage_penalty_weight = coverage_penalty_weight
        self._initial_cell_state = nest.map_structure(self._maybe_split_batch_beams, initial_state,
                                                      self._cell.state_size)
        self._start_tokens = array_ops.tile(array_ops.expand_dims(self._start_tokens, 1), [1, self._beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens)
        self._finished = array_ops.one_hot(array_ops.zeros(array_ops.reshape(self._batch_size, [1]),
                                                           dtype=dtypes.int32),
                                           depth=self._beam_width, on_value=False, off_value=True, dtype=dtypes.bool_)

    @property
    def batch_size(self):
        return self._batch_size

    def _rnn_output_size(self):
        return _cell_output_size(self._cell, self._output_layer)

    @property
    def tracks_own_finished(self):
        """The BeamSearchDecoder shuffles its beams and their finished state, so dynamic_decode
        takes the finished flags from the decoder."""
        return True

    @property
    def output_size(self):
        return BeamSearchDecoderOutput(scores=TensorShape([self._beam_width]),
                                       predicted_ids=TensorShape([self._beam_width]),
                                       parent_ids=TensorShape([self._beam_width]))

    @property
    def output_dtype(self):
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        return BeamSearchDecoderOutput(scores=nest.map_structure(lambda _: dtype, self._rnn_output_size()),
                                       predicted_ids=dtypes.int32, parent_ids=dtypes.int32)

    def initialize(self, name=None):
        """Initialize the decoder: `(finished, start_inputs, initial_state)`."""
        finished, start_inputs = self._finished, self._start_inputs
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        log_probs = array_ops.one_hot(
            array_ops.zeros(array_ops.reshape(self._batch_size, [1]), dtype=dtypes.int32), depth=self._beam_width,
            on_value=ops.convert_to_tensor(0.0, dtype=dtype), off_value=ops.convert_to_tensor(-np.inf, dtype=dtype),
            dtype=dtype)
        initial_state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state, log_probs=log_probs, finished=finished,
            lengths=array_ops.zeros(array_ops.stack([self._batch_size, self._beam_width]), dtype=dtypes.int64),
            accumulated_attention_probs=())
        return (finished, start_inputs, initial_state)

    def finalize(self, outputs, final_state, sequence_lengths):
        """Finalize and return the predicted_ids.

        Args:
          outputs: An instance of BeamSearchDecoderOutput.
          final_state: An instance of BeamSearchDecoderState. Passed through to the output.
          sequence_lengths: An `int64` tensor shaped `[batch_size, beam_width]`. The sequence
            lengths determined for each beam during decode. **NOTE** These are ignored; the
            updated sequence lengths are stored in `final_state.lengths`.

        Returns:
          outputs: An instance of `FinalBeamSearchDecoderOutput` where the predicted_ids are the
            result of calling _gather_tree.
          final_state: The same input instance of `BeamSearchDecoderState`.
        """
        del sequence_lengths
        max_sequence_lengths = math_ops.cast(math_ops.reduce_max(final_state.lengths, axis=1), dtypes.int32)
        predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                                    max_sequence_lengths=max_sequence_lengths, end_token=self._end_token)
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(cell_state=nest.map_structure(
                lambda t: self._maybe_sort_array_beams(t, outputs.parent_ids, final_state.lengths),
                final_state.cell_state))
        outputs = FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs, predicted_ids=predicted_ids)
        return outputs, final_state

    def _merge_batch_beams(self, t, s=None):
        s = _as_shape(s)
        t_shape = array_ops.shape(t)
        static_batch_size = tensor_util.constant_value(self._batch_size)
        batch_size_beam_width = None if static_batch_size is None else int(static_batch_size) * self._beam_width
        reshaped_t = array_ops.reshape(t, array_ops.concat(
            (array_ops.reshape(self._batch_size * self._beam_width, [1]), t_shape[2:]), 0))
        reshaped_t.set_shape(TensorShape([batch_size_beam_width]).concatenate(s))
        return reshaped_t

    def _split_batch_beams(self, t, s=None):
        s = _as_shape(s)
        t_shape = array_ops.shape(t)
        reshaped_t = array_ops.reshape(t, array_ops.concat(
            (array_ops.stack([self._batch_size, self._beam_width]), t_shape[1:]), 0))
        static_batch_size = tensor_util.constant_value(self._batch_size)
        expected = TensorShape([None if static_batch_size is None else int(static_batch_size),
                                self._beam_width]).concatenate(s)
        if not reshaped_t.shape.is_compatible_with(expected):
            raise ValueError("Unexpected behavior when reshaping between beam width and batch size.  The reshaped "
                             "tensor has shape: %s.  We expected it to have shape (batch_size, beam_width, depth) == "
                             "%s.  Perhaps you forgot to create a zero_state with "
                             "batch_size=encoder_batch_size * beam_width?" % (reshaped_t.shape, expected))
        reshaped_t.set_shape(expected)
        return reshaped_t

    def _maybe_split_batch_beams(self, t, s):
        if nest.is_tensor_array(t):
            return t
        _check_ndims(t)
        if t.shape.ndims >= 1:
            return self._split_batch_beams(t, s)
        return t

    def _maybe_merge_batch_beams(self, t, s):
        if nest.is_tensor_array(t):
            return t
        _check_ndims(t)
        if t.shape.ndims >= 2:
            return self._merge_batch_beams(t, s)
        return t

    def _maybe_sort_array_beams(self, t, parent_ids, sequence_length):
        """Sorts the beams of a `TensorArray` in the cell state by the beam search's parents."""
        if not nest.is_tensor_array(t):
            return t
        stacked = t.stack()
        shape = stacked.shape
        if shape.ndims is None or shape.ndims < 2:
            return t
        static_batch_size = tensor_util.constant_value(self._batch_size)
        rows = dimension_value(shape[1])
        if rows is not None and static_batch_size is not None and rows != int(static_batch_size) * self._beam_width:
            return t
        check = check_ops.assert_equal(array_ops.shape(stacked)[1], self._batch_size * self._beam_width,
                                       message="TensorArray reordering expects elements to be reshapable to "
                                               "[batch_size, beam_size, -1] which is incompatible with the dynamic "
                                               "shape of the TensorArray elements.")
        with ops.control_dependencies([check]):
            return gather_tree_from_array(stacked, parent_ids, sequence_length)

    def step(self, time, inputs, state, name=None):
        """Perform a decoding step: `(beam_search_output, beam_search_state, next_inputs, finished)`."""
        with ops.name_scope(name, "BeamSearchDecoderStep", (time,)):
            cell_state = state.cell_state
            inputs = nest.map_structure(lambda inp: self._merge_batch_beams(inp, s=inp.shape[2:]), inputs)
            cell_state = nest.map_structure(self._maybe_merge_batch_beams, cell_state, self._cell.state_size)
            cell_outputs, next_cell_state = self._cell(inputs, cell_state)
            cell_outputs = nest.map_structure(lambda out: self._split_batch_beams(out, out.shape[1:]), cell_outputs)
            next_cell_state = nest.map_structure(self._maybe_split_batch_beams, next_cell_state,
                                                 self._cell.state_size)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            beam_search_output, beam_search_state = _beam_search_step(
                time=time, logits=cell_outputs, next_cell_state=next_cell_state, beam_state=state,
                batch_size=self._batch_size, beam_width=self._beam_width, end_token=self._end_token,
                length_penalty_weight=self._length_penalty_weight)
            finished = beam_search_state.finished
            sample_ids = beam_search_output.predicted_ids
            next_inputs = cond(math_ops.reduce_all(finished), lambda: self._start_inputs,
                               lambda: self._embedding_fn(sample_ids))
        return (beam_search_output, beam_search_state, next_inputs, finished)


def _beam_search_step(time, logits, next_cell_state, beam_state, batch_size, beam_width, end_token,
                      length_penalty_weight):
    """One step of beam search: the new beams, their scores, parents, lengths and cell states."""
    static_batch_size = tensor_util.constant_value(batch_size)
    static_batch_size = None if static_batch_size is None else int(static_batch_size)
    prediction_lengths = beam_state.lengths
    previously_finished = beam_state.finished
    not_finished = math_ops.logical_not(previously_finished)

    step_log_probs = nn_ops.log_softmax(logits)
    step_log_probs = _mask_probs(step_log_probs, end_token, previously_finished)
    total_probs = array_ops.expand_dims(beam_state.log_probs, 2) + step_log_probs

    vocab_size = dimension_value(logits.shape[-1]) or array_ops.shape(logits)[-1]
    lengths_to_add = array_ops.one_hot(indices=array_ops.fill(array_ops.stack([batch_size, beam_width]), end_token),
                                       depth=vocab_size, on_value=np.int64(0), off_value=np.int64(1),
                                       dtype=dtypes.int64)
    add_mask = math_ops.cast(not_finished, dtypes.int64)
    lengths_to_add *= array_ops.expand_dims(add_mask, 2)
    new_prediction_lengths = lengths_to_add + array_ops.expand_dims(prediction_lengths, 2)

    scores = _get_scores(log_probs=total_probs, sequence_lengths=new_prediction_lengths,
                         length_penalty_weight=length_penalty_weight)
    scores_flat = array_ops.reshape(scores, array_ops.stack([batch_size, -1]))

    next_beam_scores, word_indices = array_ops.top_k(scores_flat, k=beam_width)
    next_beam_scores.set_shape([static_batch_size, beam_width])
    word_indices.set_shape([static_batch_size, beam_width])

    next_beam_probs = _tensor_gather_helper(gather_indices=word_indices, gather_from=total_probs,
                                            batch_size=batch_size, range_size=beam_width * vocab_size,
                                            gather_shape=[-1], name="next_beam_probs")
    raw_next_word_ids = math_ops.mod(word_indices, vocab_size, name="next_beam_word_ids")
    next_word_ids = math_ops.cast(raw_next_word_ids, dtypes.int32)
    next_beam_ids = math_ops.cast(math_ops.floordiv(word_indices, vocab_size), dtypes.int32,
                                  name="next_beam_parent_ids")

    previously_finished = _tensor_gather_helper(gather_indices=next_beam_ids, gather_from=previously_finished,
                                                batch_size=batch_size, range_size=beam_width, gather_shape=[-1])
    next_finished = math_ops.logical_or(previously_finished, math_ops.equal(next_word_ids, end_token),
                                        name="next_beam_finished")

    lengths_to_add = math_ops.cast(math_ops.logical_not(previously_finished), dtypes.int64)
    next_prediction_len = _tensor_gather_helper(gather_indices=next_beam_ids, gather_from=beam_state.lengths,
                                                batch_size=batch_size, range_size=beam_width, gather_shape=[-1])
    next_prediction_len += lengths_to_add

    next_cell_state = nest.map_structure(
        lambda gather_from: _maybe_tensor_gather_helper(
            gather_indices=next_beam_ids, gather_from=gather_from, batch_size=batch_size, range_size=beam_width,
            gather_shape=[batch_size * beam_width, -1]),
        next_cell_state)

    next_state = BeamSearchDecoderState(cell_state=next_cell_state, log_probs=next_beam_probs,
                                        lengths=next_prediction_len, finished=next_finished,
                                        accumulated_attention_probs=())
    output = BeamSearchDecoderOutput(scores=next_beam_scores, predicted_ids=next_word_ids, parent_ids=next_beam_ids)
    return output, next_state


def _get_scores(log_probs, sequence_lengths, length_penalty_weight):
    """The log probabilities divided by the length penalty."""
    length_penalty_ = _length_penalty(sequence_lengths=sequence_lengths, penalty_factor=length_penalty_weight)
    if isinstance(length_penalty_, float):
        return log_probs / length_penalty_
    return log_probs / math_ops.cast(length_penalty_, dtype=log_probs.dtype)


def _length_penalty(sequence_lengths, penalty_factor):
    """The GNMT length penalty `((5 + length) / 6) ** penalty_factor` (https://arxiv.org/abs/1609.08144);
    1.0 when `penalty_factor` is statically 0."""
    penalty_factor = ops.convert_to_tensor(penalty_factor, name="penalty_factor")
    penalty_factor.set_shape(())
    static_penalty = tensor_util.constant_value(penalty_factor)
    if static_penalty is not None and static_penalty == 0:
        return 1.0
    penalty_factor = math_ops.cast(penalty_factor, dtypes.float32)
    return ((5. + math_ops.cast(sequence_lengths, dtypes.float32)) ** penalty_factor / (5. + 1.) ** penalty_factor)


def _mask_probs(probs, eos_token, finished):
    """Finished beams put all their probability on `eos_token` (log 0 there, dtype.min elsewhere)."""
    vocab_size = array_ops.shape(probs)[2]
    finished_row = array_ops.one_hot(eos_token, vocab_size, dtype=probs.dtype,
                                     on_value=ops.convert_to_tensor(0., dtype=probs.dtype),
                                     off_value=ops.convert_to_tensor(probs.dtype.min, dtype=probs.dtype))
    finished_probs = array_ops.tile(array_ops.reshape(finished_row, [1, 1, -1]),
                                    array_ops.concat([array_ops.shape(finished), [1]], 0))
    finished_mask = array_ops.tile(array_ops.expand_dims(finished, 2), array_ops.stack([1, 1, vocab_size]))
    return array_ops.where(finished_mask, finished_probs, probs)


def _maybe_tensor_gather_helper(gather_indices, gather_from, batch_size, range_size, gather_shape):
    if nest.is_tensor_array(gather_from):
        return gather_from
    _check_ndims(gather_from)
    if gather_from.shape.ndims >= len(gather_shape):
        return _tensor_gather_helper(gather_indices=gather_indices, gather_from=gather_from, batch_size=batch_size,
                                     range_size=range_size, gather_shape=gather_shape)
    return gather_from


def _tensor_gather_helper(gather_indices, gather_from, batch_size, range_size, gather_shape, name=None):
    """Gathers the entries `gather_indices` (per batch entry, among `range_size`) of `gather_from`."""
    with ops.name_scope(name, "tensor_gather_helper"):
        range_ = array_ops.expand_dims(_range(batch_size) * range_size, 1)
        gather_indices = array_ops.reshape(gather_indices + range_, [-1])
        output = array_ops.gather(array_ops.reshape(gather_from, array_ops.stack(gather_shape)), gather_indices)
        final_shape = array_ops.shape(gather_from)[:1 + len(gather_shape)]
        static_batch_size = tensor_util.constant_value(batch_size)
        static_batch_size = None if static_batch_size is None else int(static_batch_size)
        final_static_shape = TensorShape([static_batch_size]).concatenate(gather_from.shape[1:1 + len(gather_shape)])
        output = array_ops.reshape(output, final_shape, name="output")
        output.set_shape(final_static_shape)
        return output
