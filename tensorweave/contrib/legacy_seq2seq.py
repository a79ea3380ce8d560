"""`tf.contrib.legacy_seq2seq`: TF 1.x's static (list-of-tensors) sequence-to-sequence models.

The functions build unrolled graphs over Python lists of `[batch_size, ...]` tensors, one per
time step, with TF 1.15's variable scopes and names so that TF1 checkpoints restore:

* `rnn_decoder` (scope `rnn_decoder`), `basic_rnn_seq2seq` (`basic_rnn_seq2seq/rnn/...` for the
  encoder, a deep copy of the cell, and `basic_rnn_seq2seq/rnn_decoder/...`), `tied_rnn_seq2seq`
  (`combined_tied_rnn_seq2seq/tied_rnn_seq2seq/...`, one cell for both);
* `embedding_rnn_decoder` (`embedding`), `embedding_rnn_seq2seq` (encoder
  `rnn/embedding_wrapper/...`, decoder `embedding_rnn_decoder/...` with an
  `output_projection_wrapper` unless `output_projection` is given), `embedding_tied_rnn_seq2seq`;
* `attention_decoder` (`AttnW_<h>`, `AttnV_<h>`, the input projection `kernel`/`bias` directly in
  the decoder scope, `Attention_<h>/kernel`, `Attention_<h>/bias`,
  `AttnOutputProjection/kernel`, `AttnOutputProjection/bias`), `embedding_attention_decoder`,
  `embedding_attention_seq2seq`;
* `sequence_loss_by_example`, `sequence_loss` and `model_with_buckets`.

`feed_previous` may be a Python bool or a scalar bool tensor; for a tensor both decoders are built
(the feeding one first, the other reusing its variables) and `tf.cond` picks one.
"""

import copy as _copy

from ..framework import dtypes as _dtypes
from ..framework import ops as _ops
from ..framework.tensor_shape import dimension_value as _dimension_value
from ..nn.rnn_cell_impl import RNNCell as _RNNCell
from ..nn.rnn_static import static_rnn as _static_rnn
from ..ops import array_ops as _array_ops
from ..ops import control_flow_ops as _control_flow_ops
from ..ops import core_ops as _core_ops
from ..ops import embedding_ops as _embedding_ops
from ..ops import math_ops as _math_ops
from ..ops import nest as _nest
from ..ops import nn_conv2d_ops as _nn_conv2d_ops
from ..ops import nn_ops as _nn_ops
from ..variable_scopes import get_variable as _get_variable
from ..variable_scopes import get_variable_scope as _get_variable_scope
from ..variable_scopes import variable_scope as _variable_scope
from .rnn import EmbeddingWrapper as _EmbeddingWrapper
from .rnn import OutputProjectionWrapper as _OutputProjectionWrapper
from .rnn import _Linear

__all__ = ["attention_decoder", "basic_rnn_seq2seq", "embedding_attention_decoder", "embedding_attention_seq2seq",
           "embedding_rnn_decoder", "embedding_rnn_seq2seq", "embedding_tied_rnn_seq2seq", "model_with_buckets",
           "one2many_rnn_seq2seq", "rnn_decoder", "sequence_loss", "sequence_loss_by_example", "tied_rnn_seq2seq"]


def _linear(args, output_size):
    """`concat(args) @ kernel + bias` with `kernel`/`bias` of the current variable scope."""
    return _Linear(args, output_size, True)(args)


def _extract_argmax_and_embed(embedding, output_projection=None, update_embedding=True):
    """Returns a loop_function that feeds back the embedding of the previous output's argmax.

    Args:
      embedding: embedding tensor for symbols.
      output_projection: None or a pair (W, B). If provided, each fed previous output will
        first be multiplied by W and added B.
      update_embedding: Boolean; if False, the gradients will not propagate through the
        embeddings.

    Returns:
      A loop function `(prev, i) -> next input`.
    """

    def loop_function(prev, _):
        if output_projection is not None:
            prev = _nn_ops.xw_plus_b(prev, output_projection[0], output_projection[1])
        prev_symbol = _math_ops.argmax(prev, 1)
        emb_prev = _embedding_ops.embedding_lookup(embedding, prev_symbol)
        if not update_embedding:
            emb_prev = _core_ops.stop_gradient(emb_prev)
        return emb_prev

    return loop_function


def _state_to_list(state):
    return _nest.flatten(state) if _nest.is_nested(state) else [state]


def _cond_decoders(feed_previous, build, outputs_len, structure):
    """Builds `build(True)` and `build(False)` (reusing variables) and selects one with `tf.cond`.

    Returns the outputs list and the state packed like `structure`.
    """

    def decoder(feed_previous_bool):
        reuse = None if feed_previous_bool else True
        with _variable_scope(_get_variable_scope(), reuse=reuse):
            outputs, state = build(feed_previous_bool)
            return list(outputs) + _state_to_list(state)

    outputs_and_state = _control_flow_ops.cond(feed_previous, lambda: decoder(True), lambda: decoder(False))
    outputs_and_state = list(outputs_and_state)
    state_list = outputs_and_state[outputs_len:]
    state = state_list[0]
    if _nest.is_nested(structure):
        state = _nest.pack_sequence_as(structure, state_list)
    return outputs_and_state[:outputs_len], state


def _check_projection(output_projection, num_symbols, dtype, check_weights=True):
    if output_projection is None:
        return
    if check_weights:
        proj_weights = _ops.convert_to_tensor(output_projection[0], dtype=dtype)
        proj_weights.shape.assert_is_compatible_with([None, num_symbols])
    proj_biases = _ops.convert_to_tensor(output_projection[1], dtype=dtype)
    proj_biases.shape.assert_is_compatible_with([num_symbols])


def rnn_decoder(decoder_inputs, initial_state, cell, loop_function=None, scope=None):
    """RNN decoder for the sequence-to-sequence model.

    Args:
      decoder_inputs: A list of 2D Tensors [batch_size x input_size].
      initial_state: 2D Tensor with shape [batch_size x cell.state_size].
      cell: rnn_cell.RNNCell defining the cell function and size.
      loop_function: If not None, this function will be applied to the i-th output in order to
        generate the i+1-st input, and decoder_inputs will be ignored, except for the first element
        ("GO" symbol). It is called as `loop_function(prev, i)` with `prev` the 2D Tensor
        [batch_size x output_size] and `i` the step; it returns the next input.
      scope: VariableScope for the created subgraph; defaults to "rnn_decoder".

    Returns:
      A tuple of the form (outputs, state), where:
        outputs: A list of the same length as decoder_inputs of 2D Tensors with shape
          [batch_size x output_size] containing generated outputs.
        state: The state of each cell at the final time-step, a 2D Tensor of shape
          [batch_size x cell.state_size].
    """
    with _variable_scope(scope or "rnn_decoder"):
        state = initial_state
        outputs = []
        prev = None
        for i, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with _variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            if i > 0:
                _get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def basic_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, dtype=_dtypes.float32, scope=None):
    """Basic RNN sequence-to-sequence model.

    Runs an RNN (a deep copy of `cell`) over encoder_inputs into a state vector, then runs the
    decoder, initialized with that state, on decoder_inputs.

    Args:
      encoder_inputs: A list of 2D Tensors [batch_size x input_size].
      decoder_inputs: A list of 2D Tensors [batch_size x input_size].
      cell: tf.nn.rnn_cell.RNNCell defining the cell function and size.
      dtype: The dtype of the initial state of the RNN cell (default: tf.float32).
      scope: VariableScope for the created subgraph; default: "basic_rnn_seq2seq".

    Returns:
      A tuple of the form (outputs, state), where:
        outputs: A list of the same length as decoder_inputs of 2D Tensors with shape
          [batch_size x output_size] containing the generated outputs.
        state: The state of each decoder cell in the final time-step.
    """
    with _variable_scope(scope or "basic_rnn_seq2seq"):
        enc_cell = _copy.deepcopy(cell)
        _, enc_state = _static_rnn(enc_cell, encoder_inputs, dtype=dtype)
        return rnn_decoder(decoder_inputs, enc_state, cell)


def tied_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, loop_function=None, dtype=_dtypes.float32, scope=None):
    """RNN sequence-to-sequence model with the same cell (and parameters) for encoder and decoder.

    Args:
      encoder_inputs: A list of 2D Tensors [batch_size x input_size].
      decoder_inputs: A list of 2D Tensors [batch_size x input_size].
      cell: tf.nn.rnn_cell.RNNCell defining the cell function and size.
      loop_function: If not None, applied to the i-th output to generate the i+1-st input (see
        rnn_decoder).
      dtype: The dtype of the initial state of the rnn cell (default: tf.float32).
      scope: VariableScope name for the created subgraph; default: "tied_rnn_seq2seq".

    Returns:
      A tuple of the form (outputs, state), where:
        outputs: A list of the same length as decoder_inputs of 2D Tensors with shape
          [batch_size x output_size] containing the generated outputs.
        state: The state of each decoder cell in each time-step.
    """
    with _variable_scope("combined_tied_rnn_seq2seq"):
        scope = scope or "tied_rnn_seq2seq"
        _, enc_state = _static_rnn(cell, encoder_inputs, dtype=dtype, scope=scope)
        _get_variable_scope().reuse_variables()
        return rnn_decoder(decoder_inputs, enc_state, cell, loop_function=loop_function, scope=scope)


def embedding_rnn_decoder(decoder_inputs, initial_state, cell, num_symbols, embedding_size, output_projection=None,
                          feed_previous=False, update_embedding_for_previous=True, scope=None):
    """RNN decoder with embedding and a pure-decoding option.

    Args:
      decoder_inputs: A list of 1D batch-sized int32 Tensors (decoder inputs).
      initial_state: 2D Tensor [batch_size x cell.state_size].
      cell: tf.nn.rnn_cell.RNNCell defining the cell function.
      num_symbols: Integer, how many symbols come into the embedding.
      embedding_size: Integer, the length of the embedding vector for each symbol.
      output_projection: None or a pair (W, B) of output projection weights and biases; W has
        shape [output_size x num_symbols] and B has shape [num_symbols]; if provided and
        feed_previous=True, each fed previous output will first be multiplied by W and added B.
      feed_previous: Boolean; if True, only the first of decoder_inputs will be used (the "GO"
        symbol), and all other decoder inputs will be generated by taking the argmax of the
        previous output and embedding it.
      update_embedding_for_previous: Boolean; if False and feed_previous=True, only the embedding
        for the first symbol of decoder_inputs (the "GO" symbol) will be updated by
        back propagation.
      scope: VariableScope for the created subgraph; defaults to "embedding_rnn_decoder".

    Returns:
      A tuple of the form (outputs, state), where:
        outputs: A list of the same length as decoder_inputs of 2D Tensors. The output is of shape
          [batch_size x cell.output_size] when output_projection is not None (and represents the
          dense representation of predicted tokens). It is of shape [batch_size x num_symbols]
          when output_projection is None.
        state: The state of each decoder cell in each time-step.

    Raises:
      ValueError: When output_projection has the wrong shape.
    """
    with _variable_scope(scope or "embedding_rnn_decoder") as vs:
        _check_projection(output_projection, num_symbols, vs.dtype)
        embedding = _get_variable("embedding", [num_symbols, embedding_size])
        loop_function = (_extract_argmax_and_embed(embedding, output_projection, update_embedding_for_previous)
                         if feed_previous else None)
        emb_inp = [_embedding_ops.embedding_lookup(embedding, i) for i in decoder_inputs]
        return rnn_decoder(emb_inp, initial_state, cell, loop_function=loop_function)


def embedding_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, num_encoder_symbols, num_decoder_symbols,
                          embedding_size, output_projection=None, feed_previous=False, dtype=None, scope=None):
    """Embedding RNN sequence-to-sequence model.

    Embeds encoder_inputs with a newly created embedding (`rnn/embedding_wrapper/embedding`), runs
    an RNN (a deep copy of `cell`) over them, then runs `embedding_rnn_decoder` initialized with
    the last encoder state on the embedded decoder_inputs.

    Args:
      encoder_inputs: A list of 1D int32 Tensors of shape [batch_size].
      decoder_inputs: A list of 1D int32 Tensors of shape [batch_size].
      cell: tf.nn.rnn_cell.RNNCell defining the cell function and size.
      num_encoder_symbols: Integer; number of symbols on the encoder side.
      num_decoder_symbols: Integer; number of symbols on the decoder side.
      embedding_size: Integer, the length of the embedding vector for each symbol.
      output_projection: None or a pair (W, B) of output projection weights and biases; W has
        shape [output_size x num_decoder_symbols] and B has shape [num_decoder_symbols]; if
        provided and feed_previous=True, each fed previous output will first be multiplied by W
        and added B.
      feed_previous: Boolean or scalar Boolean Tensor; if True, only the first of decoder_inputs
        will be used (the "GO" symbol), and all other decoder inputs will be taken from previous
        outputs (as in embedding_rnn_decoder). If False, decoder_inputs are used as given (the
        standard decoder case).
      dtype: The dtype of the initial state for both the encoder and encoder rnn cells (default:
        tf.float32).
      scope: VariableScope for the created subgraph; defaults to "embedding_rnn_seq2seq"

    Returns:
      A tuple of the form (outputs, state), where:
        outputs: A list of the same length as decoder_inputs of 2D Tensors. The output is of shape
          [batch_size x cell.output_size] when output_projection is not None (and represents the
          dense representation of predicted tokens). It is of shape [batch_size x
          num_decoder_symbols] when output_projection is None.
        state: The state of each decoder cell in each time-step.
    """
    with _variable_scope(scope or "embedding_rnn_seq2seq") as vs:
        if dtype is not None:
            vs.set_dtype(dtype)
        else:
            dtype = vs.dtype

        encoder_cell = _EmbeddingWrapper(_copy.deepcopy(cell), embedding_classes=num_encoder_symbols,
                                        embedding_size=embedding_size)
        _, encoder_state = _static_rnn(encoder_cell, encoder_inputs, dtype=dtype)

        if output_projection is None:
            cell = _OutputProjectionWrapper(cell, num_decoder_symbols)

        if isinstance(feed_previous, bool):
            return embedding_rnn_decoder(decoder_inputs, encoder_state, cell, num_decoder_symbols, embedding_size,
                                         output_projection=output_projection, feed_previous=feed_previous)

        def build(feed_previous_bool):
            return embedding_rnn_decoder(decoder_inputs, encoder_state, cell, num_decoder_symbols, embedding_size,
                                         output_projection=output_projection, feed_previous=feed_previous_bool,
                                         update_embedding_for_previous=False)

        return _cond_decoders(feed_previous, build, len(decoder_inputs), encoder_state)


def one2many_rnn_seq2seq(encoder_inputs, decoder_inputs_dict, enc_cell, dec_cells_dict, num_encoder_symbols,
                         num_decoder_symbols_dict, embedding_size, feed_previous=False, dtype=None, scope=None):
    """One-to-many RNN sequence-to-sequence model (multi-task).

    One encoder (`rnn/embedding_wrapper/...`) feeds several decoders: for each key `name` of
    decoder_inputs_dict an `embedding_rnn_decoder` in scope `one2many_decoder_<name>` over its cell
    wrapped in an output projection to `num_decoder_symbols_dict[name]` symbols, initialized with
    the last encoder state.

    Args:
      encoder_inputs: A list of 1D int32 Tensors of shape [batch_size].
      decoder_inputs_dict: A dictionary mapping decoder name (string) to the corresponding
        decoder_inputs; each decoder_inputs is a list of 1D Tensors of shape [batch_size]; num
        decoders is defined as len(decoder_inputs_dict).
      enc_cell: tf.nn.rnn_cell.RNNCell defining the encoder cell function and size.
      dec_cells_dict: A dictionary mapping decoder name (string) to an instance of
        tf.nn.rnn_cell.RNNCell.
      num_encoder_symbols: Integer; number of symbols on the encoder side.
      num_decoder_symbols_dict: A dictionary mapping decoder name (string) to an integer
        specifying number of symbols for the corresponding decoder.
      embedding_size: Integer, the length of the embedding vector for each symbol.
      feed_previous: Boolean or scalar Boolean Tensor; if True, only the first of decoder_inputs
        will be used (the "GO" symbol), and all other decoder inputs will be taken from previous
        outputs (as in embedding_rnn_decoder). If False, decoder_inputs are used as given.
      dtype: The dtype of the initial state for both the encoder and encoder rnn cells (default:
        tf.float32).
      scope: VariableScope for the created subgraph; defaults to "one2many_rnn_seq2seq"

    Returns:
      A tuple of the form (outputs_dict, state_dict), where:
        outputs_dict: A mapping from decoder name (string) to a list of the same length as
          decoder_inputs_dict[name]; each element in the list is a 2D Tensors with shape
          [batch_size x num_decoder_symbol_list[name]] containing the generated outputs.
        state_dict: A mapping from decoder name (string) to the final state of the corresponding
          decoder RNN; it is a 2D Tensor of shape [batch_size x cell.state_size].

    Raises:
      TypeError: if enc_cell or any of the dec_cells are not instances of RNNCell.
      ValueError: if len(dec_cells) != len(decoder_inputs_dict).
    """
    if not isinstance(enc_cell, _RNNCell):
        raise TypeError("enc_cell is not an RNNCell: %s" % type(enc_cell))
    if set(dec_cells_dict) != set(decoder_inputs_dict):
        raise ValueError("keys of dec_cells_dict != keys of decodre_inputs_dict")  # TF 1.15's message
    for dec_cell in dec_cells_dict.values():
        if not isinstance(dec_cell, _RNNCell):
            raise TypeError("dec_cell is not an RNNCell: %s" % type(dec_cell))

    outputs_dict = {}
    state_dict = {}
    with _variable_scope(scope or "one2many_rnn_seq2seq", dtype=dtype) as vs:
        dtype = vs.dtype
        enc_cell = _EmbeddingWrapper(enc_cell, embedding_classes=num_encoder_symbols, embedding_size=embedding_size)
        _, encoder_state = _static_rnn(enc_cell, encoder_inputs, dtype=dtype)

        for name, decoder_inputs in decoder_inputs_dict.items():
            num_decoder_symbols = num_decoder_symbols_dict[name]
            with _variable_scope("one2many_decoder_" + str(name)):
                dec_cell = _OutputProjectionWrapper(dec_cells_dict[name], num_decoder_symbols)
                if isinstance(feed_previous, bool):
                    outputs, state = embedding_rnn_decoder(decoder_inputs, encoder_state, dec_cell,
                                                           num_decoder_symbols, embedding_size,
                                                           feed_previous=feed_previous)
                else:
                    def build(feed_previous_bool, decoder_inputs=decoder_inputs, dec_cell=dec_cell,
                              num_decoder_symbols=num_decoder_symbols):
                        return embedding_rnn_decoder(decoder_inputs, encoder_state, dec_cell, num_decoder_symbols,
                                                     embedding_size, feed_previous=feed_previous_bool)

                    outputs, state = _cond_decoders(feed_previous, build, len(decoder_inputs), encoder_state)
            outputs_dict[name] = outputs
            state_dict[name] = state
    return outputs_dict, state_dict


def embedding_tied_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, num_symbols, embedding_size,
                               num_decoder_symbols=None, output_projection=None, feed_previous=False, dtype=None,
                               scope=None):
    """Embedding RNN sequence-to-sequence model with tied (shared) parameters.

    One `embedding` `[num_symbols, embedding_size]` embeds both encoder_inputs and decoder_inputs,
    and `tied_rnn_seq2seq` runs the same cell (wrapped in an output projection to
    `num_decoder_symbols`, or `num_symbols`, unless `output_projection` is given) for both.

    Args:
      encoder_inputs: A list of 1D int32 Tensors of shape [batch_size].
      decoder_inputs: A list of 1D int32 Tensors of shape [batch_size].
      cell: tf.nn.rnn_cell.RNNCell defining the cell function and size.
      num_symbols: Integer; number of symbols for both encoder and decoder.
      embedding_size: Integer, the length of the embedding vector for each symbol.
      num_decoder_symbols: Integer; number of output symbols for decoder. If provided, the
        decoder output is over symbols 0 to num_decoder_symbols - 1, else 0 to num_symbols - 1.
        Note that this assumes that the vocabulary is set up such that the first
        num_decoder_symbols of num_symbols are part of decoding.
      output_projection: None or a pair (W, B) of output projection weights and biases; W has
        shape [output_size x num_symbols] and B has shape [num_symbols]; if provided and
        feed_previous=True, each fed previous output will first be multiplied by W and added B.
      feed_previous: Boolean or scalar Boolean Tensor; if True, only the first of decoder_inputs
        will be used (the "GO" symbol), and all other decoder inputs will be taken from previous
        outputs (as in embedding_rnn_decoder). If False, decoder_inputs are used as given.
      dtype: The dtype to use for the initial RNN states (default: tf.float32).
      scope: VariableScope for the created subgraph; defaults to "embedding_tied_rnn_seq2seq".

    Returns:
      A tuple of the form (outputs, state), where:
        outputs: A list of the same length as decoder_inputs of 2D Tensors with shape
          [batch_size x output_symbols] containing the generated outputs where output_symbols =
          num_decoder_symbols if num_decoder_symbols is not None otherwise output_symbols =
          num_symbols.
        state: The state of each decoder cell at the final time-step.

    Raises:
      ValueError: When output_projection has the wrong shape.
    """
    _check_projection(output_projection, num_symbols, dtype)

    with _variable_scope(scope or "embedding_tied_rnn_seq2seq", dtype=dtype) as vs:
        dtype = vs.dtype
        embedding = _get_variable("embedding", [num_symbols, embedding_size], dtype=dtype)
        emb_encoder_inputs = [_embedding_ops.embedding_lookup(embedding, x) for x in encoder_inputs]
        emb_decoder_inputs = [_embedding_ops.embedding_lookup(embedding, x) for x in decoder_inputs]

        output_symbols = num_symbols if num_decoder_symbols is None else num_decoder_symbols
        if output_projection is None:
            cell = _OutputProjectionWrapper(cell, output_symbols)

        if isinstance(feed_previous, bool):
            loop_function = _extract_argmax_and_embed(embedding, output_projection, True) if feed_previous else None
            return tied_rnn_seq2seq(emb_encoder_inputs, emb_decoder_inputs, cell, loop_function=loop_function,
                                    dtype=dtype)

        def build(feed_previous_bool):
            loop_function = (_extract_argmax_and_embed(embedding, output_projection, False)
                             if feed_previous_bool else None)
            return tied_rnn_seq2seq(emb_encoder_inputs, emb_decoder_inputs, cell, loop_function=loop_function,
                                    dtype=dtype)

        # The state's structure is the cell's zero state's.
        batch_size = _dimension_value(encoder_inputs[0].shape[0])
        if batch_size is None:
            batch_size = _array_ops.shape(encoder_inputs[0])[0]
        zero_state = cell.zero_state(batch_size, dtype)
        return _cond_decoders(feed_previous, build, len(decoder_inputs), zero_state)


def attention_decoder(decoder_inputs, initial_state, attention_states, cell, output_size=None, num_heads=1,
                      loop_function=None, dtype=None, scope=None, initial_state_attention=False):
    """RNN decoder with attention for the sequence-to-sequence model.

    Each step's cell input is a linear map (`kernel`, `bias`) of the step input and the previous
    attention reads; each head `h` attends over `attention_states` with
    `v_h^T tanh(conv1x1(hidden, AttnW_h) + linear_h(state))` (`AttnV_h`, `Attention_h/kernel`,
    `Attention_h/bias`) and the output is a linear map of the cell output and the new reads
    (`AttnOutputProjection/kernel`, `.../bias`). "Grammar as a Foreign Language",
    https://arxiv.org/abs/1412.7449.

    Args:
      decoder_inputs: A list of 2D Tensors [batch_size x input_size].
      initial_state: 2D Tensor [batch_size x cell.state_size].
      attention_states: 3D Tensor [batch_size x attn_length x attn_size].
      cell: tf.nn.rnn_cell.RNNCell defining the cell function and size.
      output_size: Size of the output vectors; if None, we use cell.output_size.
      num_heads: Number of attention heads that read from attention_states.
      loop_function: If not None, this function will be applied to i-th output in order to
        generate i+1-th input, and decoder_inputs will be ignored, except for the first element
        ("GO" symbol). See rnn_decoder.
      dtype: The dtype to use for the RNN initial state (default: tf.float32).
      scope: VariableScope for the created subgraph; default: "attention_decoder".
      initial_state_attention: If False (default), initial attentions are zero. If True,
        initialize the attentions from the initial state and attention states -- useful when we
        wish to resume decoding from a previously stored decoder state and attention states.

    Returns:
      A tuple of the form (outputs, state), where:
        outputs: A list of the same length as decoder_inputs of 2D Tensors of shape
          [batch_size x output_size].
        state: The state of each decoder cell the final time-step, a 2D Tensor of shape
          [batch_size x cell.state_size].

    Raises:
      ValueError: when num_heads is not positive, there are no inputs, shapes of
        attention_states are not set, or input size cannot be inferred from the input.
    """
    if not decoder_inputs:
        raise ValueError("Must provide at least 1 input to attention decoder.")
    if num_heads < 1:
        raise ValueError("With less than 1 heads, use a non-attention decoder.")
    if _dimension_value(attention_states.shape[2]) is None:
        raise ValueError("Shape[2] of attention_states must be known: %s" % attention_states.shape)
    if output_size is None:
        output_size = cell.output_size

    with _variable_scope(scope or "attention_decoder", dtype=dtype) as vs:
        dtype = vs.dtype
        batch_size = _array_ops.shape(decoder_inputs[0])[0]
        attn_length = _dimension_value(attention_states.shape[1])
        if attn_length is None:
            attn_length = _array_ops.shape(attention_states)[1]
        attn_size = _dimension_value(attention_states.shape[2])

        # W1 * h_t over all encoder positions as a 1x1 convolution.
        hidden = _array_ops.reshape(attention_states, [-1, attn_length, 1, attn_size])
        hidden_features = []
        v = []
        attention_vec_size = attn_size
        for a in range(num_heads):
            k = _get_variable("AttnW_%d" % a, [1, 1, attn_size, attention_vec_size], dtype=dtype)
            hidden_features.append(_nn_conv2d_ops.conv2d(hidden, k, [1, 1, 1, 1], "SAME"))
            v.append(_get_variable("AttnV_%d" % a, [attention_vec_size], dtype=dtype))

        state = initial_state

        def attention(query):
            """Reads of each head from hidden, weighted by softmax(v^T tanh(features + W2 query))."""
            ds = []
            if _nest.is_nested(query):
                query_list = _nest.flatten(query)
                for q in query_list:
                    if q.shape.ndims is not None and q.shape.ndims != 2:
                        raise ValueError("Attention query parts must be 2D, got shape %s" % q.shape)
                query = _array_ops.concat(query_list, 1)
            for head in range(num_heads):
                with _variable_scope("Attention_%d" % head):
                    y = _linear(query, attention_vec_size)
                    y = _array_ops.reshape(y, [-1, 1, 1, attention_vec_size])
                    y = _math_ops.cast(y, dtype)
                    s = _math_ops.reduce_sum(v[head] * _math_ops.tanh(hidden_features[head] + y), [2, 3])
                    weights = _math_ops.cast(_nn_ops.softmax(_math_ops.cast(s, _dtypes.float32)), dtype)
                    d = _math_ops.reduce_sum(_array_ops.reshape(weights, [-1, attn_length, 1, 1]) * hidden, [1, 2])
                    ds.append(_array_ops.reshape(d, [-1, attn_size]))
            return ds

        outputs = []
        prev = None
        batch_attn_size = _array_ops.stack([batch_size, attn_size])
        attns = [_array_ops.zeros(batch_attn_size, dtype=dtype) for _ in range(num_heads)]
        for a in attns:
            a.set_shape([None, attn_size])
        if initial_state_attention:
            attns = attention(initial_state)
        for i, inp in enumerate(decoder_inputs):
            if i > 0:
                _get_variable_scope().reuse_variables()
            if loop_function is not None and prev is not None:
                with _variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            input_size = _dimension_value(inp.shape.with_rank(2)[1])
            if input_size is None:
                raise ValueError("Could not infer input size from input: %s" % inp.name)

            inputs = [_math_ops.cast(e, dtype) for e in [inp] + attns]
            x = _linear(inputs, input_size)
            cell_output, state = cell(x, state)
            if i == 0 and initial_state_attention:
                with _variable_scope(_get_variable_scope(), reuse=True):
                    attns = attention(state)
            else:
                attns = attention(state)

            with _variable_scope("AttnOutputProjection"):
                cell_output = _math_ops.cast(cell_output, dtype)
                output = _linear([cell_output] + attns, output_size)
            if loop_function is not None:
                prev = output
            outputs.append(output)

    return outputs, state


def embedding_attention_decoder(decoder_inputs, initial_state, attention_states, cell, num_symbols, embedding_size,
                                num_heads=1, output_size=None, output_projection=None, feed_previous=False,
                                update_embedding_for_previous=True, dtype=None, scope=None,
                                initial_state_attention=False):
    """RNN decoder with embedding and attention and a pure-decoding option.

    Args:
      decoder_inputs: A list of 1D batch-sized int32 Tensors (decoder inputs).
      initial_state: 2D Tensor [batch_size x cell.state_size].
      attention_states: 3D Tensor [batch_size x attn_length x attn_size].
      cell: tf.nn.rnn_cell.RNNCell defining the cell function.
      num_symbols: Integer, how many symbols come into the embedding.
      embedding_size: Integer, the length of the embedding vector for each symbol.
      num_heads: Number of attention heads that read from attention_states.
      output_size: Size of the output vectors; if None, use output_size.
      output_projection: None or a pair (W, B) of output projection weights and biases; B has
        shape [num_symbols] and W has shape [output_size x num_symbols]; if provided and
        feed_previous=True, each fed previous output will first be multiplied by W and added B.
      feed_previous: Boolean; if True, only the first of decoder_inputs will be used (the "GO"
        symbol), and all other decoder inputs will be generated by taking the argmax of the
        previous output and embedding it.
      update_embedding_for_previous: Boolean; if False and feed_previous=True, only the embedding
        for the first symbol of decoder_inputs (the "GO" symbol) will be updated by back
        propagation.
      dtype: The dtype to use for the RNN initial states (default: tf.float32).
      scope: VariableScope for the created subgraph; defaults to "embedding_attention_decoder".
      initial_state_attention: If False (default), initial attentions are zero. If True,
        initialize the attentions from the initial state and attention states.

    Returns:
      A tuple of the form (outputs, state), where:
        outputs: A list of the same length as decoder_inputs of 2D Tensors with shape
          [batch_size x output_size] containing the generated outputs.
        state: The state of each decoder cell at the final time-step, a 2D Tensor of shape
          [batch_size x cell.state_size].

    Raises:
      ValueError: When output_projection has the wrong shape.
    """
    if output_size is None:
        output_size = cell.output_size
    _check_projection(output_projection, num_symbols, dtype, check_weights=False)

    with _variable_scope(scope or "embedding_attention_decoder", dtype=dtype):
        embedding = _get_variable("embedding", [num_symbols, embedding_size])
        loop_function = (_extract_argmax_and_embed(embedding, output_projection, update_embedding_for_previous)
                         if feed_previous else None)
        emb_inp = [_embedding_ops.embedding_lookup(embedding, i) for i in decoder_inputs]
        return attention_decoder(emb_inp, initial_state, attention_states, cell, output_size=output_size,
                                 num_heads=num_heads, loop_function=loop_function,
                                 initial_state_attention=initial_state_attention)


def embedding_attention_seq2seq(encoder_inputs, decoder_inputs, cell, num_encoder_symbols, num_decoder_symbols,
                                embedding_size, num_heads=1, output_projection=None, feed_previous=False, dtype=None,
                                scope=None, initial_state_attention=False):
    """Embedding sequence-to-sequence model with attention.

    Embeds encoder_inputs (`rnn/embedding_wrapper/embedding`) and runs an RNN (a deep copy of
    `cell`) over them, keeping every encoder output for attention; then runs
    `embedding_attention_decoder` initialized with the last encoder state on the embedded
    decoder_inputs, attending over the encoder outputs.

    Args:
      encoder_inputs: A list of 1D int32 Tensors of shape [batch_size].
      decoder_inputs: A list of 1D int32 Tensors of shape [batch_size].
      cell: tf.nn.rnn_cell.RNNCell defining the cell function and size.
      num_encoder_symbols: Integer; number of symbols on the encoder side.
      num_decoder_symbols: Integer; number of symbols on the decoder side.
      embedding_size: Integer, the length of the embedding vector for each symbol.
      num_heads: Number of attention heads that read from attention_states.
      output_projection: None or a pair (W, B) of output projection weights and biases; W has
        shape [output_size x num_decoder_symbols] and B has shape [num_decoder_symbols]; if
        provided and feed_previous=True, each fed previous output will first be multiplied by W
        and added B.
      feed_previous: Boolean or scalar Boolean Tensor; if True, only the first of decoder_inputs
        will be used (the "GO" symbol), and all other decoder inputs will be taken from previous
        outputs (as in embedding_rnn_decoder). If False, decoder_inputs are used as given.
      dtype: The dtype of the initial RNN state (default: tf.float32).
      scope: VariableScope for the created subgraph; defaults to "embedding_attention_seq2seq".
      initial_state_attention: If False (default), initial attentions are zero. If True,
        initialize the attentions from the initial state and attention states.

    Returns:
      A tuple of the form (outputs, state), where:
        outputs: A list of the same length as decoder_inputs of 2D Tensors with shape
          [batch_size x num_decoder_symbols] containing the generated outputs.
        state: The state of each decoder cell at the final time-step, a 2D Tensor of shape
          [batch_size x cell.state_size].
    """
    with _variable_scope(scope or "embedding_attention_seq2seq", dtype=dtype) as vs:
        dtype = vs.dtype
        encoder_cell = _EmbeddingWrapper(_copy.deepcopy(cell), embedding_classes=num_encoder_symbols,
                                        embedding_size=embedding_size)
        encoder_outputs, encoder_state = _static_rnn(encoder_cell, encoder_inputs, dtype=dtype)

        top_states = [_array_ops.reshape(e, [-1, 1, cell.output_size]) for e in encoder_outputs]
        attention_states = _array_ops.concat(top_states, 1)

        output_size = None
        if output_projection is None:
            cell = _OutputProjectionWrapper(cell, num_decoder_symbols)
            output_size = num_decoder_symbols

        if isinstance(feed_previous, bool):
            return embedding_attention_decoder(decoder_inputs, encoder_state, attention_states, cell,
                                               num_decoder_symbols, embedding_size, num_heads=num_heads,
                                               output_size=output_size, output_projection=output_projection,
                                               feed_previous=feed_previous,
                                               initial_state_attention=initial_state_attention)

        def build(feed_previous_bool):
            return embedding_attention_decoder(decoder_inputs, encoder_state, attention_states, cell,
                                               num_decoder_symbols, embedding_size, num_heads=num_heads,
                                               output_size=output_size, output_projection=output_projection,
                                               feed_previous=feed_previous_bool, update_embedding_for_previous=False,
                                               initial_state_attention=initial_state_attention)

        return _cond_decoders(feed_previous, build, len(decoder_inputs), encoder_state)


def sequence_loss_by_example(logits, targets, weights, average_across_timesteps=True, softmax_loss_function=None,
                             name=None):
    """Weighted cross-entropy loss for a sequence of logits (per example).

    Args:
      logits: List of 2D Tensors of shape [batch_size x num_decoder_symbols].
      targets: List of 1D batch-sized int32 Tensors of the same length as logits.
      weights: List of 1D batch-sized float-Tensors of the same length as logits.
      average_across_timesteps: If set, divide the returned cost by the total label weight.
      softmax_loss_function: Function (labels, logits) -> loss-batch to be used instead of the
        standard softmax (the default if this is None). **Note that to avoid confusion, it is
        required for the function to accept named arguments.**
      name: Optional name for this operation, default: "sequence_loss_by_example".

    Returns:
      1D batch-sized float Tensor: The log-perplexity for each sequence.

    Raises:
      ValueError: If len(logits) is different from len(targets) or len(weights).
    """
    if len(targets) != len(logits) or len(weights) != len(logits):
        raise ValueError("Lengths of logits, weights, and targets must be the same %d, %d, %d."
                         % (len(logits), len(weights), len(targets)))
    with _ops.name_scope(name, "sequence_loss_by_example", list(logits) + list(targets) + list(weights)):
        log_perp_list = []
        for logit, target, weight in zip(logits, targets, weights):
            if softmax_loss_function is None:
                target = _array_ops.reshape(target, [-1])
                crossent = _nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logit)
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            log_perp_list.append(crossent * weight)
        log_perps = _core_ops.add_n(log_perp_list)
        if average_across_timesteps:
            total_size = _core_ops.add_n(list(weights))
            total_size += 1e-12  # Avoids division by 0 for all-0 weights.
            log_perps /= total_size
    return log_perps


def sequence_loss(logits, targets, weights, average_across_timesteps=True, average_across_batch=True,
                  softmax_loss_function=None, name=None):
    """Weighted cross-entropy loss for a sequence of logits, batch-collapsed.

    Args:
      logits: List of 2D Tensors of shape [batch_size x num_decoder_symbols].
      targets: List of 1D batch-sized int32 Tensors of the same length as logits.
      weights: List of 1D batch-sized float-Tensors of the same length as logits.
      average_across_timesteps: If set, divide the returned cost by the total label weight.
      average_across_batch: If set, divide the returned cost by the batch size.
      softmax_loss_function: Function (labels, logits) -> loss-batch to be used instead of the
        standard softmax (the default if this is None). **Note that to avoid confusion, it is
        required for the function to accept named arguments.**
      name: Optional name for this operation, defaults to "sequence_loss".

    Returns:
      A scalar float Tensor: The average log-perplexity per symbol (weighted).

    Raises:
      ValueError: If len(logits) is different from len(targets) or len(weights).
    """
    with _ops.name_scope(name, "sequence_loss", list(logits) + list(targets) + list(weights)):
        cost = _math_ops.reduce_sum(sequence_loss_by_example(
            logits, targets, weights, average_across_timesteps=average_across_timesteps,
            softmax_loss_function=softmax_loss_function))
        if average_across_batch:
            batch_size = _array_ops.shape(targets[0])[0]
            return cost / _math_ops.cast(batch_size, cost.dtype)
        return cost


def model_with_buckets(encoder_inputs, decoder_inputs, targets, weights, buckets, seq2seq,
                       softmax_loss_function=None, per_example_loss=False, name=None):
    """Creates a sequence-to-sequence model with support for bucketing.

    The seq2seq argument is a function that defines a sequence-to-sequence model, e.g.,
    `seq2seq = lambda x, y: basic_rnn_seq2seq(x, y, rnn_cell.GRUCell(24))`. It is called once per
    bucket on the first `bucket[0]` encoder inputs and `bucket[1]` decoder inputs, every bucket
    after the first reusing the first's variables.

    Args:
      encoder_inputs: A list of Tensors to feed the encoder; first seq2seq input.
      decoder_inputs: A list of Tensors to feed the decoder; second seq2seq input.
      targets: A list of 1D batch-sized int32 Tensors (desired output sequence).
      weights: List of 1D batch-sized float-Tensors to weight the targets.
      buckets: A list of pairs of (input size, output size) for each bucket.
      seq2seq: A sequence-to-sequence model function; it takes 2 input that agree with
        encoder_inputs and decoder_inputs, and returns a pair consisting of outputs and states
        (as, e.g., basic_rnn_seq2seq).
      softmax_loss_function: Function (labels, logits) -> loss-batch to be used instead of the
        standard softmax (the default if this is None). **Note that to avoid confusion, it is
        required for the function to accept named arguments.**
      per_example_loss: Boolean. If set, the returned loss will be a batch-sized tensor of losses
        for each sequence in the batch. If unset, it will be a scalar with the averaged loss from
        all examples.
      name: Optional name for this operation, defaults to "model_with_buckets".

    Returns:
      A tuple of the form (outputs, losses), where:
        outputs: The outputs for each bucket. Its j'th element consists of a list of 2D Tensors.
          The shape of output tensors can be either [batch_size x output_size] or
          [batch_size x num_decoder_symbols] depending on the seq2seq model used.
        losses: List of scalar Tensors, representing losses for each bucket, or, if
          per_example_loss is set, a list of 1D batch-sized float Tensors.

    Raises:
      ValueError: If length of encoder_inputs, targets, or weights is smaller than the largest
        (last) bucket.
    """
    if len(encoder_inputs) < buckets[-1][0]:
        raise ValueError("Length of encoder_inputs (%d) must be at least that of last bucket (%d)."
                         % (len(encoder_inputs), buckets[-1][0]))
    if len(targets) < buckets[-1][1]:
        raise ValueError("Length of targets (%d) must be at least that of last bucket (%d)."
                         % (len(targets), buckets[-1][1]))
    if len(weights) < buckets[-1][1]:
        raise ValueError("Length of weights (%d) must be at least that of last bucket (%d)."
                         % (len(weights), buckets[-1][1]))

    all_inputs = list(encoder_inputs) + list(decoder_inputs) + list(targets) + list(weights)
    losses = []
    outputs = []
    with _ops.name_scope(name, "model_with_buckets", all_inputs):
        for j, bucket in enumerate(buckets):
            with _variable_scope(_get_variable_scope(), reuse=True if j > 0 else None):
                bucket_outputs, _ = seq2seq(encoder_inputs[:bucket[0]], decoder_inputs[:bucket[1]])
                outputs.append(bucket_outputs)
                loss_fn = sequence_loss_by_example if per_example_loss else sequence_loss
                losses.append(loss_fn(outputs[-1], targets[:bucket[1]], weights[:bucket[1]],
                                      softmax_loss_function=softmax_loss_function))
    return outputs, losses
