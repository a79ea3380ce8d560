"""`tf.contrib.rnn`: TF1's RNN cells and static RNNs, plus the contrib-only cells.

The core cells (`BasicLSTMCell`, `LSTMCell`, `GRUCell`, `MultiRNNCell`, the wrappers, ...) are the
`tf.nn.rnn_cell` classes themselves, as in TF 1.15. Contrib adds `LSTMBlockCell` (LSTMCell's math
without projection, variables `lstm_cell/kernel` and `lstm_cell/bias`), `LSTMBlockFusedCell` (the
whole sequence as one `BlockLSTM` op), `GRUBlockCell` (`w_ru`,
`b_ru`, `w_c`, `b_c`) and `GRUBlockCellV2` (GRUCell's names), `LayerNormBasicLSTMCell`,
`AttentionCellWrapper`, `EmbeddingWrapper`, `InputProjectionWrapper`, `OutputProjectionWrapper` and
`stack_bidirectional_rnn`.
"""

import math as _math

from ..framework import dtypes as _dtypes
from ..framework import ops as _ops
from ..framework.tensor_shape import dimension_value as _dimension_value
from ..layers.base import InputSpec as _InputSpec
from ..layers.base import Layer as _Layer
from ..nn.rnn import _best_effort_input_batch_size, _check_stacked_cells, _transpose_batch_time
from ..nn.rnn_cell_impl import (
    BasicLSTMCell,
    BasicRNNCell,
    DeviceWrapper,
    DropoutWrapper,
    GRUCell,
    LayerRNNCell,
    LSTMCell,
    LSTMStateTuple,
    MultiRNNCell,
    ResidualWrapper,
    RNNCell,
    _check_rnn_cell_input_dtypes,
    _LSTMTupleSizeMixin,
    _WrappedCellMixin,
)
from ..nn.rnn_cell_impl import assert_like_rnncell as _assert_like_rnncell
from ..nn.rnn_static import static_bidirectional_rnn, static_rnn, static_state_saving_rnn
from ..ops import array_ops as _array_ops
from ..ops import clip_ops as _clip_ops
from ..ops import core_ops as _core_ops
from ..ops import init_ops as _init_ops
from ..ops import math_ops as _math_ops
from ..ops import nn_conv2d_ops as _nn_conv2d_ops
from ..ops import nn_ops as _nn_ops
from ..variable_scopes import get_variable as _get_variable
from ..variable_scopes import get_variable_scope as _get_variable_scope
from ..variable_scopes import variable_scope as _variable_scope
from . import rnn_cells_extra as _rnn_cells_extra
from .rnn_cells_extra import (  # noqa: F401
    Conv1DLSTMCell,
    Conv2DLSTMCell,
    Conv3DLSTMCell,
    ConvLSTMCell,
    CoupledInputForgetGateLSTMCell,
    FusedRNNCell,
    FusedRNNCellAdaptor,
    GLSTMCell,
    HighwayWrapper,
    IndRNNCell,
    IndyGRUCell,
    IndyLSTMCell,
    IntersectionRNNCell,
    LayerNormLSTMCell,
    NASCell,
    PhasedLSTMCell,
    SRUCell,
    TimeReversedFusedRNN,
    UGRNNCell,
)

__all__ = ["AttentionCellWrapper", "BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper",
           "EmbeddingWrapper", "GRUBlockCell", "GRUBlockCellV2", "GRUCell", "InputProjectionWrapper", "LSTMBlockCell",
           "LSTMBlockFusedCell", "LSTMBlockWrapper",
           "LSTMCell", "LSTMStateTuple", "LayerNormBasicLSTMCell", "LayerRNNCell", "MultiRNNCell",
           "OutputProjectionWrapper", "RNNCell", "ResidualWrapper", "best_effort_input_batch_size",
           "stack_bidirectional_rnn", "static_bidirectional_rnn", "static_rnn", "static_state_saving_rnn",
           "transpose_batch_time"] + _rnn_cells_extra.__all__


def _add_lstm_block_weights(layer, input_size):
    """The LSTMBlock weights of `layer`: "kernel" `[input_size + n, 4 n]`, "bias" `[4 n]` (zeros) and,
    with peepholes, "w_i_diag", "w_f_diag" and "w_o_diag" `[n]`."""
    n = layer._num_units
    layer._kernel = layer.add_weight("kernel", [input_size + n, n * 4])
    layer._bias = layer.add_weight("bias", [n * 4], initializer=_init_ops.constant_initializer(0.0))
    if layer._use_peephole:
        layer._w_i_diag = layer.add_weight("w_i_diag", [n])
        layer._w_f_diag = layer.add_weight("w_f_diag", [n])
        layer._w_o_diag = layer.add_weight("w_o_diag", [n])


class LSTMBlockCell(_LSTMTupleSizeMixin, LayerRNNCell):
    """Basic LSTM recurrent network cell (TF's monolithic `LSTMBlockCell` op, here composed of ops).

    `i, ci, f, o = split([x, h] @ kernel + bias, 4)`; `cs = tanh(ci) * sigmoid(i [+ cs_prev * w_i_diag]) +
    cs_prev * sigmoid(f + forget_bias [+ cs_prev * w_f_diag])`, clipped to `cell_clip` when it is
    positive; `h = tanh(cs) * sigmoid(o [+ cs * w_o_diag])`. The weights are compatible with
    `tf.nn.rnn_cell.LSTMCell` in the same variable scope. As TF's kernel, the gradient treats a
    clipped cell state as unclipped.

    Args:
      num_units: int, The number of units in the LSTM cell.
      forget_bias: float, The bias added to forget gates.
      cell_clip: An optional `float`; None means no clipping.
      use_peephole: Whether to use peephole connections or not.
      dtype: the variable dtype of this layer. Default to tf.float32.
      reuse: (optional) Whether to reuse variables in an existing scope.
      name: String, the name of the layer; default "lstm_cell".
    """

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False, dtype=None, reuse=None,
                 name="lstm_cell"):
        super().__init__(_reuse=reuse, dtype=dtype, name=name)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._use_peephole = use_peephole
        self._cell_clip = cell_clip if cell_clip is not None else -1
        self.input_spec = _InputSpec(ndim=2)

    def build(self, inputs_shape):
        if not _dimension_value(inputs_shape[1]):
            raise ValueError("Expecting inputs_shape[1] to be set: %s" % str(inputs_shape))
        input_size = _dimension_value(inputs_shape[1])
        _add_lstm_block_weights(self, input_size)
        self.built = True

    def call(self, inputs, state):
        """Long short-term memory cell (LSTM).

        Raises:
          ValueError: If `state` is not a pair.
        """
        if len(state) != 2:
            raise ValueError("Expecting state to be a tuple with length 2.")
        _check_rnn_cell_input_dtypes([inputs, state])
        cs_prev, h_prev = state
        sigmoid = _math_ops.sigmoid
        icfo = _nn_ops.bias_add(_math_ops.matmul(_array_ops.concat([inputs, h_prev], 1), self._kernel), self._bias)
        i, ci, f, o = _array_ops.split(value=icfo, num_or_size_splits=4, axis=1)
        if self._use_peephole:
            i = sigmoid(i + cs_prev * self._w_i_diag)
            f = sigmoid(f + self._forget_bias + cs_prev * self._w_f_diag)
        else:
            i = sigmoid(i)
            f = sigmoid(f + self._forget_bias)
        cs = _math_ops.tanh(ci) * i + cs_prev * f
        if self._cell_clip > 0:
            # TF's LSTMBlockCell gradient treats the clipped cell state as unclipped
            clipped = _clip_ops.clip_by_value(cs, -self._cell_clip, self._cell_clip)
            cs = cs + _core_ops.stop_gradient(clipped - cs)
        o = sigmoid(o + cs * self._w_o_diag) if self._use_peephole else sigmoid(o)
        h = _math_ops.tanh(cs) * o
        return h, LSTMStateTuple(cs, h)


class LSTMBlockWrapper(_Layer):
    """Base of the fused LSTMs: a layer run on a whole `[time, batch, input]` sequence at once.

    `__call__(inputs, initial_state=None, dtype=None, sequence_length=None)` returns `(outputs,
    LSTMStateTuple(c, h))`; past each sequence's end the outputs are zero and the final state is the
    state at its last step (the initial state for length 0). Subclasses define `num_units` and
    `_call_cell`.
    """

    @property
    def num_units(self):
        """Number of units in this cell (output dimension)."""
        raise NotImplementedError

    def _call_cell(self, inputs, initial_cell_state, initial_output, dtype, sequence_length):
        """Runs the LSTM over `inputs`; returns the `[time, batch, num_units]` cell states and outputs."""
        raise NotImplementedError

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
        """Runs this LSTM on `inputs`, starting from `initial_state`.

        Args:
          inputs: `3-D` tensor `[time_len, batch_size, input_size]` or a list of `time_len` tensors
            `[batch_size, input_size]`.
          initial_state: a tuple `(initial_cell_state, initial_output)` of `[batch_size, num_units]`
            tensors; default: zeros of `dtype`.
          dtype: The data type for the initial state and expected output.
          sequence_length: An int32/int64 vector `[batch_size]` with values in `[0, time_len]`;
            defaults to `time_len` for each element.
          scope: `VariableScope` for the created subgraph; defaults to the layer's name.

        Returns:
          A pair `(outputs, final_state)`: `[time_len, batch_size, num_units]` outputs (a list when
          `inputs` is a list) and an `LSTMStateTuple(cell_state, output)`.

        Raises:
          ValueError: in case of shape mismatches, or neither `initial_state` nor `dtype`.
        """
        is_list = isinstance(inputs, list)
        if is_list:
            inputs = _array_ops.stack(inputs)
        outputs, final_state = _Layer.__call__(self, inputs, initial_state=initial_state, dtype=dtype,
                                              sequence_length=sequence_length, scope=scope)
        if is_list:
            outputs = _array_ops.unstack(outputs)
        return outputs, final_state

    def call(self, inputs, initial_state=None, dtype=None, sequence_length=None):
        inputs_shape = inputs.shape.with_rank(3)
        if not _dimension_value(inputs_shape[2]):
            raise ValueError("Expecting inputs_shape[2] to be set: %s" % inputs_shape)
        batch_size = _dimension_value(inputs_shape[1])
        if batch_size is None:
            batch_size = _array_ops.shape(inputs)[1]
        time_len = _dimension_value(inputs_shape[0])
        if time_len is None:
            time_len = _array_ops.shape(inputs)[0]
        if initial_state is None:
            if dtype is None:
                raise ValueError("Either initial_state or dtype needs to be specified")
            z = _array_ops.zeros(_array_ops.stack([batch_size, self.num_units]), dtype=dtype)
            initial_state = z, z
        else:
            if len(initial_state) != 2:
                raise ValueError("Expecting initial_state to be a tuple with length 2 or None")
            if dtype is None:
                dtype = initial_state[0].dtype
        if sequence_length is not None:
            sequence_length = _ops.convert_to_tensor(sequence_length)
        initial_cell_state, initial_output = initial_state
        cell_states, outputs = self._call_cell(inputs, initial_cell_state, initial_output, dtype, sequence_length)
        if sequence_length is not None:
            mask = _array_ops.transpose(_array_ops.sequence_mask(sequence_length, time_len, dtype=dtype), [1, 0])
            mask = _array_ops.tile(_array_ops.expand_dims(mask, -1), [1, 1, self.num_units])
            outputs *= mask
            mod_cell_states = _array_ops.concat([_array_ops.expand_dims(initial_cell_state, 0), cell_states], 0)
            mod_outputs = _array_ops.concat([_array_ops.expand_dims(initial_output, 0), outputs], 0)
            final_cell_state = self._gather_states(mod_cell_states, sequence_length, batch_size)
            final_output = self._gather_states(mod_outputs, sequence_length, batch_size)
        else:
            final_cell_state = cell_states[-1]
            final_output = outputs[-1]
        return outputs, LSTMStateTuple(final_cell_state, final_output)

    def _gather_states(self, data, indices, batch_size):
        """`out[i, j] = data[indices[i], i, j]`."""
        indices = _math_ops.cast(indices, _dtypes.int32)
        mod_indices = indices * batch_size + _array_ops.range(batch_size)
        return _array_ops.gather(_array_ops.reshape(data, [-1, self.num_units]), mod_indices)


class LSTMBlockFusedCell(LSTMBlockWrapper):
    """LSTM over a whole sequence as one `BlockLSTM` op (LSTMBlockCell's equations); variables
    `kernel`, `bias` (and `w_i_diag`, `w_f_diag`, `w_o_diag` with peepholes) in the layer's scope,
    named as `tf.nn.rnn_cell.LSTMCell`'s.

    Args:
      num_units: int, The number of units in the LSTM cell.
      forget_bias: float, The bias added to forget gates.
      cell_clip: clip the cell to this value; default: no clipping.
      use_peephole: Whether to use peephole connections or not.
      reuse: (optional) Whether to reuse variables in an existing scope.
      dtype: the dtype of variables of this layer.
      name: String, the name of the layer; default "lstm_fused_cell".
    """

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False, reuse=None, dtype=None,
                 name="lstm_fused_cell"):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._cell_clip = cell_clip if cell_clip is not None else -1
        self._use_peephole = use_peephole
        self.input_spec = _InputSpec(ndim=3)

    @property
    def num_units(self):
        return self._num_units

    def build(self, input_shape):
        input_size = _dimension_value(input_shape[2])
        _add_lstm_block_weights(self, input_size)
        self.built = True

    def _call_cell(self, inputs, initial_cell_state=None, initial_output=None, dtype=None, sequence_length=None):
        from ..ops import rnn_fused_ops
        time_len = _dimension_value(inputs.shape.with_rank(3)[0])
        if time_len is None:
            time_len = _array_ops.shape(inputs)[0]
        if self._use_peephole:
            wci, wcf, wco = self._w_i_diag, self._w_f_diag, self._w_o_diag
        else:
            wci = wcf = wco = _array_ops.zeros([self._num_units], dtype=dtype)
        if sequence_length is None:
            max_seq_len = _math_ops.cast(time_len, _dtypes.int64)
        else:
            max_seq_len = _math_ops.cast(_math_ops.reduce_max(sequence_length), _dtypes.int64)
        _, cs, _, _, _, _, h = rnn_fused_ops.block_lstm(
            seq_len_max=max_seq_len, x=inputs, cs_prev=initial_cell_state, h_prev=initial_output, w=self._kernel,
            b=self._bias, wci=wci, wcf=wcf, wco=wco, forget_bias=self._forget_bias, cell_clip=self._cell_clip,
            use_peephole=self._use_peephole)
        return cs, h


class GRUBlockCell(LayerRNNCell):
    """Block GRU cell (TF's `GRUBlockCell` op, here composed of ops); variables `w_ru`, `b_ru`
    (initialized to 1), `w_c`, `b_c` (initialized to 0).

    `r, u = sigmoid([x, h] @ w_ru + b_ru)`; `c = tanh([x, r * h] @ w_c + b_c)`;
    `h_new = (1 - u) * c + u * h`.

    Args:
      num_units: int, The number of units in the GRU cell.
      cell_size: int, The old (deprecated) name for `num_units`.
      reuse: (optional) Whether to reuse variables in an existing scope.
      name: String, the name of the layer; default "gru_cell".

    Raises:
      ValueError: if both cell_size and num_units are not None; or both are None.
    """

    _names = ("w_ru", "b_ru", "w_c", "b_c")

    def __init__(self, num_units=None, cell_size=None, reuse=None, name="gru_cell"):
        super().__init__(_reuse=reuse, name=name)
        if (cell_size is None) == (num_units is None):
            raise ValueError("Exactly one of num_units or cell_size must be provided.")
        if num_units is None:
            num_units = cell_size
        self._cell_size = num_units
        self.input_spec = _InputSpec(ndim=2)

    @property
    def state_size(self):
        return self._cell_size

    @property
    def output_size(self):
        return self._cell_size

    def build(self, input_shape):
        input_size = _dimension_value(input_shape[1])
        if input_size is None:
            raise ValueError("Expecting input_size to be set.")
        n = self._cell_size
        w_ru, b_ru, w_c, b_c = self._names
        self._gate_kernel = self.add_weight(w_ru, [input_size + n, n * 2])
        self._gate_bias = self.add_weight(b_ru, [n * 2], initializer=_init_ops.constant_initializer(1.0))
        self._candidate_kernel = self.add_weight(w_c, [input_size + n, n])
        self._candidate_bias = self.add_weight(b_c, [n], initializer=_init_ops.constant_initializer(0.0))
        self.built = True

    def call(self, inputs, h_prev):
        """GRU cell.

        Raises:
          ValueError: If `h_prev`'s second dimension is not the cell size.
        """
        cell_size = _dimension_value(h_prev.shape.with_rank(2)[1])
        if cell_size != self._cell_size:
            raise ValueError("Shape of h_prev[1] incorrect: cell_size %i vs %s" % (self._cell_size, cell_size))
        _check_rnn_cell_input_dtypes([inputs, h_prev])
        ru = _math_ops.sigmoid(_nn_ops.bias_add(_math_ops.matmul(_array_ops.concat([inputs, h_prev], 1),
                                                              self._gate_kernel), self._gate_bias))
        r, u = _array_ops.split(value=ru, num_or_size_splits=2, axis=1)
        c = _math_ops.tanh(_nn_ops.bias_add(_math_ops.matmul(_array_ops.concat([inputs, h_prev * r], 1),
                                                          self._candidate_kernel), self._candidate_bias))
        new_h = (1 - u) * c + u * h_prev
        return new_h, new_h


class GRUBlockCellV2(GRUBlockCell):
    """`GRUBlockCell` with `tf.nn.rnn_cell.GRUCell`'s variable names (`gates/kernel`, `gates/bias`,
    `candidate/kernel`, `candidate/bias`)."""

    _names = ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias")


class LayerNormBasicLSTMCell(_LSTMTupleSizeMixin, RNNCell):
    """LSTM unit with layer normalization (Ba et al., 2016) and recurrent dropout (Semeniuta et al.,
    2016).

    The four gate pre-activations (and the new cell state) are layer-normalized, each with its own
    `gamma`/`beta` (scopes `input`, `transform`, `forget`, `output`, `state`); with layer
    normalization the linear map has no bias.

    Args:
      num_units: int, The number of units in the LSTM cell.
      forget_bias: float, The bias added to forget gates.
      input_size: Deprecated and unused.
      activation: Activation function of the inner states.
      layer_norm: If `True`, layer normalization will be applied.
      norm_gain: float, The layer normalization gain initial value.
      norm_shift: float, The layer normalization shift initial value.
      dropout_keep_prob: unit Tensor or float between 0 and 1: the recurrent dropout keep probability
        of the candidate; a float 1.0 means no dropout.
      dropout_prob_seed: (optional) integer, the randomness seed.
      reuse: (optional) Whether to reuse variables in an existing scope.
    """

    def __init__(self, num_units, forget_bias=1.0, input_size=None, activation=_math_ops.tanh, layer_norm=True,
                 norm_gain=1.0, norm_shift=0.0, dropout_keep_prob=1.0, dropout_prob_seed=None, reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._activation = activation
        self._forget_bias = forget_bias
        self._keep_prob = dropout_keep_prob
        self._seed = dropout_prob_seed
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift
        self._reuse = reuse

    def _norm(self, inp, scope, dtype=_dtypes.float32):
        shape = inp.shape[-1:]
        with _variable_scope(scope):
            gamma = _get_variable("gamma", shape=shape, initializer=_init_ops.constant_initializer(self._norm_gain),
                                 dtype=dtype)
            beta = _get_variable("beta", shape=shape, initializer=_init_ops.constant_initializer(self._norm_shift),
                                dtype=dtype)
            mean, variance = _nn_ops.moments(inp, [1], keep_dims=True)
            return _nn_ops.batch_normalization(inp, mean, variance, offset=beta, scale=gamma,
                                              variance_epsilon=1e-12)

    def _linear(self, args):
        out_size = 4 * self._num_units
        proj_size = args.shape[-1]
        dtype = args.dtype
        weights = _get_variable("kernel", [proj_size, out_size], dtype=dtype)
        out = _math_ops.matmul(args, weights)
        if not self._layer_norm:
            bias = _get_variable("bias", [out_size], dtype=dtype)
            out = _nn_ops.bias_add(out, bias)
        return out

    def call(self, inputs, state):
        """LSTM cell with layer normalization and recurrent dropout."""
        c, h = state
        args = _array_ops.concat([inputs, h], 1)
        concat = self._linear(args)
        dtype = args.dtype
        i, j, f, o = _array_ops.split(value=concat, num_or_size_splits=4, axis=1)
        if self._layer_norm:
            i = self._norm(i, "input", dtype=dtype)
            j = self._norm(j, "transform", dtype=dtype)
            f = self._norm(f, "forget", dtype=dtype)
            o = self._norm(o, "output", dtype=dtype)
        g = self._activation(j)
        if (not isinstance(self._keep_prob, float)) or self._keep_prob < 1:
            g = _nn_ops.dropout(g, keep_prob=self._keep_prob, seed=self._seed)
        new_c = c * _math_ops.sigmoid(f + self._forget_bias) + _math_ops.sigmoid(i) * g
        if self._layer_norm:
            new_c = self._norm(new_c, "state", dtype=dtype)
        new_h = self._activation(new_c) * _math_ops.sigmoid(o)
        return new_h, LSTMStateTuple(new_c, new_h)


class _Linear:
    """`concat(args) @ kernel (+ bias)` with the variables `kernel` and `bias` of the current variable
    scope (TF's `core_rnn_cell._Linear`)."""

    def __init__(self, args, output_size, build_bias, bias_initializer=None, kernel_initializer=None):
        self._is_sequence = isinstance(args, (list, tuple))
        args = list(args) if self._is_sequence else [args]
        total_arg_size = 0
        for shape in [a.shape for a in args]:
            if shape.ndims != 2:
                raise ValueError("linear is expecting 2D arguments: %s" % shape)
            if _dimension_value(shape[1]) is None:
                raise ValueError("linear expects shape[1] to be provided for shape %s, but saw %s"
                                 % (shape, shape[1]))
            total_arg_size += _dimension_value(shape[1])
        dtype = args[0].dtype
        self._build_bias = build_bias
        self._weights = _get_variable("kernel", [total_arg_size, output_size], dtype=dtype,
                                     initializer=kernel_initializer)
        if build_bias:
            if bias_initializer is None:
                bias_initializer = _init_ops.constant_initializer(0.0, dtype=dtype)
            self._biases = _get_variable("bias", [output_size], dtype=dtype, initializer=bias_initializer)

    def __call__(self, args):
        if not self._is_sequence:
            args = [args]
        if len(args) == 1:
            res = _math_ops.matmul(args[0], self._weights)
        else:
            res = _math_ops.matmul(_array_ops.concat(args, 1), self._weights)
        if self._build_bias:
            res = _nn_ops.bias_add(res, self._biases)
        return res


class AttentionCellWrapper(RNNCell):
    """Basic attention cell wrapper (Cheng et al., 2016, https://arxiv.org/abs/1601.06733): the cell
    attends over its last `attn_length` outputs.

    The state is `(cell_state, attns, attn_states)`; the inputs are first mapped with the previous
    attention (`kernel`, `bias`), the attention uses `attention/attn_w`, `attention/attn_v`,
    `attention/kernel`, `attention/bias`, and the output is a projection of the cell output and the
    new attention (`attn_output_projection/kernel`, `.../bias`).

    Args:
      cell: an RNNCell, an attention is added to it.
      attn_length: integer, the size of an attention window.
      attn_size: integer, the size of an attention vector. Equal to cell.output_size by default.
      attn_vec_size: integer, the number of convolutional features calculated on attention state
        and a size of the hidden layer built from base cell state. Equal to attn_size by default.
      input_size: integer, the size of a hidden linear layer, built from inputs and attention.
        Derived from the input tensor by default.
      state_is_tuple: If True, accepted and returned states are tuples; if False, concatenated.
      reuse: (optional) Whether to reuse variables in an existing scope.

    Raises:
      TypeError: if cell is not an RNNCell.
      ValueError: if cell returns a state tuple but the flag `state_is_tuple` is `False` or if
        attn_length is zero or less.
    """

    def __init__(self, cell, attn_length, attn_size=None, attn_vec_size=None, input_size=None, state_is_tuple=True,
                 reuse=None):
        from ..ops import nest
        super().__init__(_reuse=reuse)
        _assert_like_rnncell("cell", cell)
        if nest.is_nested(cell.state_size) and not state_is_tuple:
            raise ValueError("Cell returns tuple of states, but the flag state_is_tuple is not set. State size is: %s"
                             % str(cell.state_size))
        if attn_length <= 0:
            raise ValueError("attn_length should be greater than zero, got %s" % str(attn_length))
        if attn_size is None:
            attn_size = cell.output_size
        if attn_vec_size is None:
            attn_vec_size = attn_size
        self._state_is_tuple = state_is_tuple
        self._cell = cell
        self._attn_vec_size = attn_vec_size
        self._input_size = input_size
        self._attn_size = attn_size
        self._attn_length = attn_length
        self._reuse = reuse
        self._linear1 = None
        self._linear2 = None
        self._linear3 = None

    @property
    def state_size(self):
        size = (self._cell.state_size, self._attn_size, self._attn_size * self._attn_length)
        if self._state_is_tuple:
            return size
        return sum(list(size))

    @property
    def output_size(self):
        return self._attn_size

    def call(self, inputs, state):
        """Long short-term memory cell with attention (LSTMA)."""
        from ..ops import nest
        if self._state_is_tuple:
            state, attns, attn_states = state
        else:
            states = state
            state = _array_ops.slice(states, [0, 0], [-1, self._cell.state_size])
            attns = _array_ops.slice(states, [0, self._cell.state_size], [-1, self._attn_size])
            attn_states = _array_ops.slice(states, [0, self._cell.state_size + self._attn_size],
                                          [-1, self._attn_size * self._attn_length])
        attn_states = _array_ops.reshape(attn_states, [-1, self._attn_length, self._attn_size])
        input_size = self._input_size
        if input_size is None:
            input_size = inputs.shape.as_list()[1]
        if self._linear1 is None:
            self._linear1 = _Linear([inputs, attns], input_size, True)
        inputs = self._linear1([inputs, attns])
        cell_output, new_state = self._cell(inputs, state)
        new_state_cat = _array_ops.concat(nest.flatten(new_state), 1) if self._state_is_tuple else new_state
        new_attns, new_attn_states = self._attention(new_state_cat, attn_states)
        with _variable_scope("attn_output_projection"):
            if self._linear2 is None:
                self._linear2 = _Linear([cell_output, new_attns], self._attn_size, True)
            output = self._linear2([cell_output, new_attns])
        new_attn_states = _array_ops.concat([new_attn_states, _array_ops.expand_dims(output, 1)], 1)
        new_attn_states = _array_ops.reshape(new_attn_states, [-1, self._attn_length * self._attn_size])
        new_state = (new_state, new_attns, new_attn_states)
        if not self._state_is_tuple:
            new_state = _array_ops.concat(list(new_state), 1)
        return output, new_state

    def _attention(self, query, attn_states):
        with _variable_scope("attention"):
            k = _get_variable("attn_w", [1, 1, self._attn_size, self._attn_vec_size])
            v = _get_variable("attn_v", [self._attn_vec_size])
            hidden = _array_ops.reshape(attn_states, [-1, self._attn_length, 1, self._attn_size])
            hidden_features = _nn_conv2d_ops.conv2d(hidden, k, [1, 1, 1, 1], "SAME")
            if self._linear3 is None:
                self._linear3 = _Linear(query, self._attn_vec_size, True)
            y = self._linear3(query)
            y = _array_ops.reshape(y, [-1, 1, 1, self._attn_vec_size])
            s = _math_ops.reduce_sum(v * _math_ops.tanh(hidden_features + y), [2, 3])
            a = _nn_ops.softmax(s)
            d = _math_ops.reduce_sum(_array_ops.reshape(a, [-1, self._attn_length, 1, 1]) * hidden, [1, 2])
            new_attns = _array_ops.reshape(d, [-1, self._attn_size])
            new_attn_states = _array_ops.slice(attn_states, [0, 1, 0], [-1, -1, -1])
            return new_attns, new_attn_states


class EmbeddingWrapper(_WrappedCellMixin, RNNCell):
    """Embeds the cell's integer inputs (`[batch]` or `[batch, 1]` ids) with a variable `embedding`
    `[embedding_classes, embedding_size]` before calling the cell.

    Args:
      cell: an RNNCell, an embedding will be put before its inputs.
      embedding_classes: integer, how many symbols will be embedded.
      embedding_size: integer, the size of the vectors we embed into.
      initializer: an initializer to use when creating the embedding; default: the variable
        scope's, else uniform in [-sqrt(3), sqrt(3)].
      reuse: (optional) Whether to reuse variables in an existing scope.

    Raises:
      TypeError: if cell is not an RNNCell.
      ValueError: if embedding_classes is not positive.
    """

    def __init__(self, cell, embedding_classes, embedding_size, initializer=None, reuse=None):
        super().__init__(_reuse=reuse)
        _assert_like_rnncell("cell", cell)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError("Both embedding_classes and embedding_size must be > 0: %d, %d."
                             % (embedding_classes, embedding_size))
        self._cell = cell
        self._embedding_classes = embedding_classes
        self._embedding_size = embedding_size
        self._initializer = initializer

    def call(self, inputs, state):
        """Run the cell on embedded inputs."""
        from ..ops import embedding_ops
        if self._initializer:
            initializer = self._initializer
        elif _get_variable_scope().initializer:
            initializer = _get_variable_scope().initializer
        else:
            sqrt3 = _math.sqrt(3)
            initializer = _init_ops.random_uniform_initializer(-sqrt3, sqrt3)
        data_type = state[0].dtype if isinstance(state, tuple) else state.dtype
        embedding = _get_variable("embedding", [self._embedding_classes, self._embedding_size],
                                 initializer=initializer, dtype=data_type)
        embedded = embedding_ops.embedding_lookup(embedding, _array_ops.reshape(inputs, [-1]))
        return self._cell(embedded, state)


class InputProjectionWrapper(_WrappedCellMixin, RNNCell):
    """Projects the inputs linearly (`kernel`, `bias` in the wrapper's scope, optional activation)
    before calling the cell.

    Args:
      cell: an RNNCell, a projection of inputs is added before it.
      num_proj: Python integer.  The dimension to project to.
      activation: (optional) an optional activation function.
      input_size: Deprecated and unused.
      reuse: (optional) Whether to reuse variables in an existing scope.

    Raises:
      TypeError: if cell is not an RNNCell.
    """

    def __init__(self, cell, num_proj, activation=None, input_size=None, reuse=None):
        super().__init__(_reuse=reuse)
        _assert_like_rnncell("cell", cell)
        self._cell = cell
        self._num_proj = num_proj
        self._activation = activation
        self._linear = None

    def call(self, inputs, state):
        """Run the input projection and then the cell."""
        if self._linear is None:
            self._linear = _Linear(inputs, self._num_proj, True)
        projected = self._linear(inputs)
        if self._activation:
            projected = self._activation(projected)
        return self._cell(projected, state)


class OutputProjectionWrapper(_WrappedCellMixin, RNNCell):
    """Projects the cell's outputs linearly to `output_size` (`kernel`, `bias` in the wrapper's
    scope, optional activation).

    Args:
      cell: an RNNCell, a projection to output_size is added to it.
      output_size: integer, the size of the output after projection.
      activation: (optional) an optional activation function.
      reuse: (optional) Whether to reuse variables in an existing scope.

    Raises:
      TypeError: if cell is not an RNNCell.
      ValueError: if output_size is not positive.
    """

    def __init__(self, cell, output_size, activation=None, reuse=None):
        super().__init__(_reuse=reuse)
        _assert_like_rnncell("cell", cell)
        if output_size < 1:
            raise ValueError("Parameter output_size must be > 0: %d." % output_size)
        self._cell = cell
        self._output_size = output_size
        self._activation = activation
        self._linear = None

    @property
    def output_size(self):
        return self._output_size

    def call(self, inputs, state):
        """Run the cell and output projection on inputs, starting from state."""
        output, res_state = self._cell(inputs, state)
        if self._linear is None:
            self._linear = _Linear(output, self._output_size, True)
        projected = self._linear(output)
        if self._activation:
            projected = self._activation(projected)
        return projected, res_state


def stack_bidirectional_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None, initial_states_bw=None, dtype=None,
                            sequence_length=None, scope=None):
    """Creates a bidirectional recurrent neural network of several layers: each layer's
    `static_bidirectional_rnn` (scope `cell_<i>`) reads the concatenated outputs of the layer below.

    Args:
      cells_fw: List of instances of RNNCell, one per layer, for the forward direction.
      cells_bw: List of instances of RNNCell, one per layer, for the backward direction.
      inputs: A length T list of inputs, each a tensor of shape [batch_size, input_size].
      initial_states_fw: (optional) A list of the initial states (one per layer) for the forward RNN.
      initial_states_bw: (optional) Same as for `initial_states_fw`, for `cells_bw`.
      dtype: (optional) The data type for the initial state. Required if either of the initial
        states are not provided.
      sequence_length: (optional) An int32/int64 vector, size `[batch_size]`, containing the actual
        lengths for each of the sequences.
      scope: VariableScope for the created subgraph; defaults to "stack_bidirectional_rnn".

    Returns:
      A tuple (outputs, output_state_fw, output_state_bw): outputs is a length `T` list of the
      depth-concatenated forward and backward outputs of the last layer; the final states of each
      layer's forward and backward RNNs, as tuples.

    Raises:
      ValueError: If the cell lists are empty, not lists, of different lengths, or the initial states
        do not match them.
    """
    _check_stacked_cells(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw = []
    states_bw = []
    prev_layer = inputs
    with _variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            initial_state_fw = initial_states_fw[i] if initial_states_fw else None
            initial_state_bw = initial_states_bw[i] if initial_states_bw else None
            with _variable_scope("cell_%d" % i) as cell_scope:
                prev_layer, state_fw, state_bw = static_bidirectional_rnn(
                    cell_fw, cell_bw, prev_layer, initial_state_fw=initial_state_fw,
                    initial_state_bw=initial_state_bw, sequence_length=sequence_length, dtype=dtype,
                    scope=cell_scope)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)


def transpose_batch_time(x):
    """Transposes the batch and time dimensions of a Tensor (rank < 2 is returned as is), keeping as
    much of the static shape as possible.

    Args:
      x: A Tensor.

    Returns:
      x transposed along the first two dimensions.
    """
    return _transpose_batch_time(x)


def best_effort_input_batch_size(flat_input):
    """The batch size of time-major inputs: the static one when some input knows it, else the
    dynamic batch size of the first input.

    Args:
      flat_input: An iterable of time major input Tensors of shape `[max_time, batch_size, ...]`.

    Returns:
      The batch size as a Python integer, or a scalar int32 Tensor.

    Raises:
      ValueError: if an input has rank below 2.
    """
    return _best_effort_input_batch_size(flat_input)


from ..nn.rnn import stack_bidirectional_dynamic_rnn  # noqa: E402

__all__ += ["stack_bidirectional_dynamic_rnn"]
