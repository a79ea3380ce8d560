"""More of TF 1.15's `tf.contrib.rnn` cells (contrib/rnn/python/ops/rnn_cell.py), re-exported by
`tensorweave.contrib.rnn`: `NASCell`, `UGRNNCell`, `IntersectionRNNCell`, `SRUCell`, `IndRNNCell`,
`IndyGRUCell`, `IndyLSTMCell`, `ConvLSTMCell` (`Conv1DLSTMCell`, `Conv2DLSTMCell`,
`Conv3DLSTMCell`), `CoupledInputForgetGateLSTMCell`, `GLSTMCell`, `LayerNormLSTMCell`,
`PhasedLSTMCell` and `HighwayWrapper`, with TF's variable names, and the fused-RNN interface `FusedRNNCell`,
`FusedRNNCellAdaptor`, `TimeReversedFusedRNN`.
"""

from ..framework import ops
from ..framework.tensor_shape import TensorShape, dimension_value
from ..layers.base import InputSpec
from ..nn.rnn_cell_impl import (
    LayerRNNCell,
    LSTMStateTuple,
    RNNCell,
    _lstm_sizes,
    _LSTMTupleSizeMixin,
    _NumUnitsSizeMixin,
    _static_input_size,
    _StoredSizeMixin,
    _WrappedCellMixin,
    assert_like_rnncell,
)
from ..ops import array_ops, clip_ops, core_ops, init_ops, math_ops, nest, nn_ops
from ..variable_scopes import get_variable, get_variable_scope, variable_scope

__all__ = ["Conv1DLSTMCell", "Conv2DLSTMCell", "Conv3DLSTMCell", "ConvLSTMCell", "CoupledInputForgetGateLSTMCell",
           "FusedRNNCell", "FusedRNNCellAdaptor", "GLSTMCell", "HighwayWrapper", "IndRNNCell", "IndyGRUCell",
           "IndyLSTMCell", "IntersectionRNNCell", "LayerNormLSTMCell", "NASCell", "PhasedLSTMCell", "SRUCell",
           "TimeReversedFusedRNN", "UGRNNCell"]


def _linear(*args, **kwargs):
    from .rnn import _Linear
    return _Linear(*args, **kwargs)


def _input_depth(inputs_shape):
    depth = dimension_value(inputs_shape[1])
    if depth is None:
        raise ValueError("Expected inputs.shape[-1] to be known, saw shape: %s" % inputs_shape)
    return depth


def _uniform_pm1(dtype):
    return init_ops.random_uniform_initializer(minval=-1, maxval=1, dtype=dtype)


class NASCell(_StoredSizeMixin, LayerRNNCell):
    """Neural Architecture Search (NAS) recurrent network cell (Zoph and Le, 2017); variables
    `kernel`, `recurrent_kernel` (`bias` with `use_bias`, `projection_weights` with `num_proj`).

    Args:
      num_units: int, The number of units in the NAS cell.
      num_proj: (optional) int, The output dimensionality for the projection matrices.
      use_bias: (optional) bool, If True then use biases within the cell.
      reuse: (optional) Whether to reuse variables in an existing scope.
      **kwargs: Additional keyword arguments (name, dtype, ...).
    """

    _NAS_BASE = 8

    def __init__(self, num_units, num_proj=None, use_bias=False, reuse=None, **kwargs):
        super().__init__(_reuse=reuse, **kwargs)
        self._num_units = num_units
        self._num_proj = num_proj
        self._use_bias = use_bias
        if num_proj is not None:
            self._state_size = LSTMStateTuple(num_units, num_proj)
            self._output_size = num_proj
        else:
            self._state_size = LSTMStateTuple(num_units, num_units)
            self._output_size = num_units

    def build(self, inputs_shape):
        input_size = _static_input_size(inputs_shape)
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        self.recurrent_kernel = self.add_weight("recurrent_kernel", [num_proj, self._NAS_BASE * self._num_units])
        self.kernel = self.add_weight("kernel", [input_size, self._NAS_BASE * self._num_units])
        if self._use_bias:
            self.bias = self.add_weight("bias", shape=[self._NAS_BASE * self._num_units],
                                        initializer=init_ops.zeros_initializer)
        if self._num_proj is not None:
            self.projection_weights = self.add_weight("projection_weights", [self._num_units, self._num_proj])
        self.built = True

    def call(self, inputs, state):
        """Run one step of NAS Cell."""
        sigmoid, tanh, relu = math_ops.sigmoid, math_ops.tanh, nn_ops.relu
        (c_prev, m_prev) = state
        m_matrix = math_ops.matmul(m_prev, self.recurrent_kernel)
        inputs_matrix = math_ops.matmul(inputs, self.kernel)
        if self._use_bias:
            m_matrix = nn_ops.bias_add(m_matrix, self.bias)
        m = array_ops.split(axis=1, num_or_size_splits=self._NAS_BASE, value=m_matrix)
        x = array_ops.split(axis=1, num_or_size_splits=self._NAS_BASE, value=inputs_matrix)
        layer1_0 = sigmoid(x[0] + m[0])
        layer1_1 = relu(x[1] + m[1])
        layer1_2 = sigmoid(x[2] + m[2])
        layer1_3 = relu(x[3] * m[3])
        layer1_4 = tanh(x[4] + m[4])
        layer1_5 = sigmoid(x[5] + m[5])
        layer1_6 = tanh(x[6] + m[6])
        layer1_7 = sigmoid(x[7] + m[7])
        l2_0 = tanh(layer1_0 * layer1_1)
        l2_1 = tanh(layer1_2 + layer1_3)
        l2_2 = tanh(layer1_4 * layer1_5)
        l2_3 = sigmoid(layer1_6 + layer1_7)
        l2_0 = tanh(l2_0 + c_prev)
        new_c = l2_0 * l2_1
        l3_1 = tanh(l2_2 + l2_3)
        new_m = tanh(new_c * l3_1)
        if self._num_proj is not None:
            new_m = math_ops.matmul(new_m, self.projection_weights)
        return new_m, LSTMStateTuple(new_c, new_m)


class UGRNNCell(_NumUnitsSizeMixin, RNNCell):
    """Update Gate RNN cell (Collins et al., 2017): `g, c = split([x, h] @ kernel + bias)`;
    `new_h = sigmoid(g + forget_bias) * h + (1 - sigmoid(g + forget_bias)) * act(c)`.

    Args:
      num_units: int, The number of units in the UGRNN cell.
      initializer: (optional) The initializer to use for the weight matrices.
      forget_bias: (optional) float, The initial bias of the forget gate.
      activation: (optional) Activation function of the inner states. Default is `tf.tanh`.
      reuse: (optional) Whether to reuse variables in an existing scope.
    """

    def __init__(self, num_units, initializer=None, forget_bias=1.0, activation=math_ops.tanh, reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._initializer = initializer
        self._forget_bias = forget_bias
        self._activation = activation
        self._linear = None

    def call(self, inputs, state):
        """Run one step of UGRNN.

        Raises:
          ValueError: If input size cannot be inferred from inputs via static shape inference.
        """
        _static_input_size(inputs.shape)
        with variable_scope(get_variable_scope(), initializer=self._initializer, auxiliary_name_scope=False):
            cell_inputs = array_ops.concat([inputs, state], 1)
            if self._linear is None:
                self._linear = _linear(cell_inputs, 2 * self._num_units, True)
            rnn_matrix = self._linear(cell_inputs)
            g_act, c_act = array_ops.split(axis=1, num_or_size_splits=2, value=rnn_matrix)
            c = self._activation(c_act)
            g = math_ops.sigmoid(g_act + self._forget_bias)
            new_state = g * state + (1.0 - g) * c
        return new_state, new_state


class IntersectionRNNCell(_NumUnitsSizeMixin, RNNCell):
    """Intersection RNN (+RNN) cell (Collins et al., 2017), with coupled recurrent and depth gates.

    Args:
      num_units: int, The number of units in the +RNN cell.
      num_in_proj: (optional) int, the input projection size (set to `num_units` for a first layer
        whose input size differs).
      initializer: (optional) The initializer to use for the weight matrices.
      forget_bias: (optional) float, The initial bias of the forget gates.
      y_activation: (optional) Activation function of the states passed through depth.
      reuse: (optional) Whether to reuse variables in an existing scope.
    """

    def __init__(self, num_units, num_in_proj=None, initializer=None, forget_bias=1.0, y_activation=nn_ops.relu,
                 reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._initializer = initializer
        self._forget_bias = forget_bias
        self._num_input_proj = num_in_proj
        self._y_activation = y_activation
        self._linear1 = None
        self._linear2 = None

    def call(self, inputs, state):
        """Run one step of the Intersection RNN.

        Raises:
          ValueError: If the input size is unknown, or differs from `num_units` without
            `num_in_proj`.
        """
        input_size = _static_input_size(inputs.shape)
        with variable_scope(get_variable_scope(), initializer=self._initializer, auxiliary_name_scope=False):
            if input_size != self._num_units:
                if self._num_input_proj:
                    with variable_scope("in_projection"):
                        if self._linear1 is None:
                            self._linear1 = _linear(inputs, self._num_units, True)
                        inputs = self._linear1(inputs)
                else:
                    raise ValueError("Must have input size == output size for Intersection RNN. To fix, "
                                     "num_in_proj should be set to num_units at cell init.")
            n = self._num_units
            cell_inputs = array_ops.concat([inputs, state], 1)
            if self._linear2 is None:
                self._linear2 = _linear(cell_inputs, 4 * n, True)
            rnn_matrix = self._linear2(cell_inputs)
            gh_act, h_act, gy_act, y_act = array_ops.split(rnn_matrix, 4, axis=1)
            h = math_ops.tanh(h_act)
            y = self._y_activation(y_act)
            gh = math_ops.sigmoid(gh_act + self._forget_bias)
            gy = math_ops.sigmoid(gy_act + self._forget_bias)
            new_state = gh * state + (1.0 - gh) * h
            new_y = gy * inputs + (1.0 - gy) * y
        return new_y, new_state


class SRUCell(_NumUnitsSizeMixin, LayerRNNCell):
    """Simple Recurrent Unit (Lei et al., 2017): `x_bar, f, r, x_tx = split(x @ kernel, 4)`;
    `c = f * c_prev + (1 - f) * x_bar`, `h = r * act(c) + (1 - r) * x_tx` with `f, r` the sigmoid
    of their pre-activations plus `bias`.

    Args:
      num_units: int, The number of units in the SRU cell.
      activation: Nonlinearity to use. Default: `tanh`.
      reuse: (optional) Whether to reuse variables in an existing scope.
      name: (optional) String, the name of the layer.
      **kwargs: Additional keyword arguments.
    """

    def __init__(self, num_units, activation=None, reuse=None, name=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, **kwargs)
        self._num_units = num_units
        self._activation = activation or math_ops.tanh
        self.input_spec = InputSpec(ndim=2)

    def build(self, inputs_shape):
        input_depth = _input_depth(inputs_shape)
        self._kernel = self.add_weight("kernel", shape=[input_depth, 4 * self._num_units])
        self._bias = self.add_weight("bias", shape=[2 * self._num_units], initializer=init_ops.zeros_initializer)
        self.built = True

    def call(self, inputs, state):
        """Simple recurrent unit (SRU) with num_units cells."""
        u = math_ops.matmul(inputs, self._kernel)
        x_bar, f_intermediate, r_intermediate, x_tx = array_ops.split(value=u, num_or_size_splits=4, axis=1)
        f_r = math_ops.sigmoid(nn_ops.bias_add(array_ops.concat([f_intermediate, r_intermediate], 1), self._bias))
        f, r = array_ops.split(value=f_r, num_or_size_splits=2, axis=1)
        c = f * state + (1.0 - f) * x_bar
        h = r * self._activation(c) + (1.0 - r) * x_tx
        return h, c


class IndRNNCell(_NumUnitsSizeMixin, LayerRNNCell):
    """Independently Recurrent Neural Network cell (Li et al., 2018): `act(x @ kernel_w + h *
    kernel_u + bias)`, `kernel_u` `[1, num_units]` initialized uniformly in [-1, 1].

    Args:
      num_units: int, The number of units in the RNN cell.
      activation: Nonlinearity to use. Default: `tanh`.
      reuse: (optional) Whether to reuse variables in an existing scope.
      name: String, the name of the layer.
      dtype: Default dtype of the layer.
    """

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = activation or math_ops.tanh

    def build(self, inputs_shape):
        input_depth = _input_depth(inputs_shape)
        self._kernel_w = self.add_weight("kernel_w", shape=[input_depth, self._num_units])
        self._kernel_u = self.add_weight("kernel_u", shape=[1, self._num_units], initializer=_uniform_pm1(self._dtype))
        self._bias = self.add_weight("bias", shape=[self._num_units],
                                     initializer=init_ops.zeros_initializer(dtype=self._dtype))
        self.built = True

    def call(self, inputs, state):
        """IndRNN: output = new_state = act(W * input + u * state + B)."""
        gate_inputs = math_ops.matmul(inputs, self._kernel_w) + state * self._kernel_u
        output = self._activation(nn_ops.bias_add(gate_inputs, self._bias))
        return output, output


class IndyGRUCell(_NumUnitsSizeMixin, LayerRNNCell):
    """Independently Gated Recurrent Unit cell: GRUCell with the recurrent matrices replaced by
    per-unit vectors (`gates/kernel_u`, `candidate/kernel_u`).

    Args:
      num_units: int, The number of units in the GRU cell.
      activation: Nonlinearity to use. Default: `tanh`.
      reuse: (optional) Whether to reuse variables in an existing scope.
      kernel_initializer: (optional) The initializer of the input weight matrices.
      bias_initializer: (optional) The initializer of the biases.
      name: String, the name of the layer.
      dtype: Default dtype of the layer.
    """

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None, bias_initializer=None,
                 name=None, dtype=None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = activation or math_ops.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    def build(self, inputs_shape):
        d = _input_depth(inputs_shape)
        n = self._num_units
        self._gate_kernel_w = self.add_weight("gates/kernel_w", shape=[d, 2 * n], initializer=self._kernel_initializer)
        self._gate_kernel_u = self.add_weight("gates/kernel_u", shape=[1, 2 * n], initializer=_uniform_pm1(self._dtype))
        self._gate_bias = self.add_weight(
            "gates/bias", shape=[2 * n], initializer=(self._bias_initializer if self._bias_initializer is not None
                                                      else init_ops.constant_initializer(1.0, dtype=self._dtype)))
        self._candidate_kernel_w = self.add_weight("candidate/kernel", shape=[d, n],
                                                   initializer=self._kernel_initializer)
        self._candidate_kernel_u = self.add_weight("candidate/kernel_u", shape=[1, n],
                                                   initializer=_uniform_pm1(self._dtype))
        self._candidate_bias = self.add_weight(
            "candidate/bias", shape=[n], initializer=(self._bias_initializer if self._bias_initializer is not None
                                                      else init_ops.zeros_initializer(dtype=self._dtype)))
        self.built = True

    def call(self, inputs, state):
        """Recurrently independent Gated Recurrent Unit (GRU) with nunits cells."""
        gate_inputs = math_ops.matmul(inputs, self._gate_kernel_w) + array_ops.tile(state, [1, 2]) * \
            self._gate_kernel_u
        value = math_ops.sigmoid(nn_ops.bias_add(gate_inputs, self._gate_bias))
        r, u = array_ops.split(value=value, num_or_size_splits=2, axis=1)
        candidate = math_ops.matmul(inputs, self._candidate_kernel_w) + r * state * self._candidate_kernel_u
        c = self._activation(nn_ops.bias_add(candidate, self._candidate_bias))
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class IndyLSTMCell(_LSTMTupleSizeMixin, LayerRNNCell):
    """Basic IndyLSTM cell: BasicLSTMCell with the recurrent matrix replaced by a per-unit vector
    (`kernel_u`), over `kernel_w` for the inputs.

    Args:
      num_units: int, The number of units in the LSTM cell.
      forget_bias: float, The bias added to forget gates.
      activation: Activation function of the inner states. Default: `tanh`.
      reuse: (optional) Whether to reuse variables in an existing scope.
      kernel_initializer: (optional) The initializer of the input weight matrix.
      bias_initializer: (optional) The initializer of the bias.
      name: String, the name of the layer.
      dtype: Default dtype of the layer.
    """

    def __init__(self, num_units, forget_bias=1.0, activation=None, reuse=None, kernel_initializer=None,
                 bias_initializer=None, name=None, dtype=None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._activation = activation or math_ops.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    def build(self, inputs_shape):
        d = _input_depth(inputs_shape)
        n = self._num_units
        self._kernel_w = self.add_weight("kernel_w", shape=[d, 4 * n], initializer=self._kernel_initializer)
        self._kernel_u = self.add_weight("kernel_u", shape=[1, 4 * n], initializer=_uniform_pm1(self._dtype))
        self._bias = self.add_weight("bias", shape=[4 * n], initializer=(
            self._bias_initializer if self._bias_initializer is not None
            else init_ops.zeros_initializer(dtype=self._dtype)))
        self.built = True

    def call(self, inputs, state):
        """Independent Long short-term memory cell (IndyLSTM)."""
        c, h = state
        gate_inputs = math_ops.matmul(inputs, self._kernel_w) + array_ops.tile(h, [1, 4]) * self._kernel_u
        gate_inputs = nn_ops.bias_add(gate_inputs, self._bias)
        i, j, f, o = array_ops.split(value=gate_inputs, num_or_size_splits=4, axis=1)
        forget_bias = ops.convert_to_tensor(self._forget_bias, dtype=f.dtype)
        new_c = c * math_ops.sigmoid(f + forget_bias) + math_ops.sigmoid(i) * self._activation(j)
        new_h = self._activation(new_c) * math_ops.sigmoid(o)
        return new_h, LSTMStateTuple(new_c, new_h)


def _conv(args, filter_size, num_features, bias, bias_start=0.0):
    """SAME convolution of the concatenated `args` with `kernel` (+ `biases`)."""
    from ..ops import nn_conv2d_ops, nn_conv3d_ops, nn_conv_ops
    total_arg_size_depth = 0
    shapes = [a.shape.as_list() for a in args]
    shape_length = len(shapes[0])
    for shape in shapes:
        if len(shape) not in [3, 4, 5]:
            raise ValueError("Conv Linear expects 3D, 4D or 5D arguments: %s" % str(shapes))
        if len(shape) != len(shapes[0]):
            raise ValueError("Conv Linear expects all args to be of same Dimension: %s" % str(shapes))
        total_arg_size_depth += shape[-1]
    dtype = args[0].dtype
    if shape_length == 3:
        conv_op, strides = nn_conv_ops.conv1d, 1
    elif shape_length == 4:
        conv_op, strides = nn_conv2d_ops.conv2d, [1] * 4
    else:
        conv_op, strides = nn_conv3d_ops.conv3d, [1] * 5
    kernel = get_variable("kernel", filter_size + [total_arg_size_depth, num_features], dtype=dtype)
    x = args[0] if len(args) == 1 else array_ops.concat(axis=shape_length - 1, values=args)
    res = conv_op(x, kernel, strides, padding="SAME")
    if not bias:
        return res
    bias_term = get_variable("biases", [num_features], dtype=dtype,
                             initializer=init_ops.constant_initializer(bias_start, dtype=dtype))
    return res + bias_term


class ConvLSTMCell(_StoredSizeMixin, RNNCell):
    """Convolutional LSTM cell (Shi et al., 2015): the LSTM gates are SAME convolutions of the
    concatenated input and hidden state (`kernel`, `biases`).

    Args:
      conv_ndims: Convolution dimensionality (1, 2 or 3).
      input_shape: Shape of the input as int tuple, excluding the batch size.
      output_channels: int, number of output channels of the conv LSTM.
      kernel_shape: Shape of kernel as an int tuple (of size 1, 2 or 3).
      use_bias: (bool) Use bias in convolutions.
      skip_connection: If set to `True`, concatenate the input to the output of the conv LSTM.
      forget_bias: Forget bias.
      initializers: Unused.
      name: Name of the module.

    Raises:
      ValueError: If `input_shape` is incompatible with `conv_ndims`.
    """

    def __init__(self, conv_ndims, input_shape, output_channels, kernel_shape, use_bias=True,
                 skip_connection=False, forget_bias=1.0, initializers=None, name="conv_lstm_cell"):
        super().__init__(name=name)
        if conv_ndims != len(input_shape) - 1:
            raise ValueError("Invalid input_shape {} for conv_ndims={}.".format(input_shape, conv_ndims))
        self._conv_ndims = conv_ndims
        self._input_shape = list(input_shape)
        self._output_channels = output_channels
        self._kernel_shape = list(kernel_shape)
        self._use_bias = use_bias
        self._forget_bias = forget_bias
        self._skip_connection = skip_connection
        self._total_output_channels = output_channels
        if self._skip_connection:
            self._total_output_channels += self._input_shape[-1]
        state_size = TensorShape(self._input_shape[:-1] + [self._output_channels])
        self._state_size = LSTMStateTuple(state_size, state_size)
        self._output_size = TensorShape(self._input_shape[:-1] + [self._total_output_channels])

    def call(self, inputs, state, scope=None):
        cell, hidden = state
        new_hidden = _conv([inputs, hidden], self._kernel_shape, 4 * self._output_channels, self._use_bias)
        input_gate, new_input, forget_gate, output_gate = array_ops.split(
            value=new_hidden, num_or_size_splits=4, axis=self._conv_ndims + 1)
        new_cell = math_ops.sigmoid(forget_gate + self._forget_bias) * cell
        new_cell += math_ops.sigmoid(input_gate) * math_ops.tanh(new_input)
        output = math_ops.tanh(new_cell) * math_ops.sigmoid(output_gate)
        if self._skip_connection:
            output = array_ops.concat([output, inputs], axis=-1)
        return output, LSTMStateTuple(new_cell, output)


class Conv1DLSTMCell(ConvLSTMCell):
    """1D Convolutional LSTM recurrent network cell (see `ConvLSTMCell`).

    Args:
      name: Name of the module.
      **kwargs: `ConvLSTMCell`'s arguments but `conv_ndims`.
    """

    def __init__(self, name="conv_1d_lstm_cell", **kwargs):
        super().__init__(conv_ndims=1, name=name, **kwargs)


class Conv2DLSTMCell(ConvLSTMCell):
    """2D Convolutional LSTM recurrent network cell (see `ConvLSTMCell`).

    Args:
      name: Name of the module.
      **kwargs: `ConvLSTMCell`'s arguments but `conv_ndims`.
    """

    def __init__(self, name="conv_2d_lstm_cell", **kwargs):
        super().__init__(conv_ndims=2, name=name, **kwargs)


class Conv3DLSTMCell(ConvLSTMCell):
    """3D Convolutional LSTM recurrent network cell (see `ConvLSTMCell`).

    Args:
      name: Name of the module.
      **kwargs: `ConvLSTMCell`'s arguments but `conv_ndims`.
    """

    def __init__(self, name="conv_3d_lstm_cell", **kwargs):
        super().__init__(conv_ndims=3, name=name, **kwargs)


def _layer_norm(inp, gain, shift, scope, dtype=None):
    """contrib's `layer_norm` over the last axis with `scope/gamma`, `scope/beta` (epsilon 1e-12)."""
    shape = inp.shape[-1:]
    with variable_scope(scope):
        kwargs = {} if dtype is None else {"dtype": dtype}
        gamma = get_variable("gamma", shape=shape, initializer=init_ops.constant_initializer(gain), **kwargs)
        beta = get_variable("beta", shape=shape, initializer=init_ops.constant_initializer(shift), **kwargs)
        mean, variance = nn_ops.moments(inp, [1], keep_dims=True)
        return nn_ops.batch_normalization(inp, mean, variance, offset=beta, scale=gamma, variance_epsilon=1e-12)


class CoupledInputForgetGateLSTMCell(_StoredSizeMixin, RNNCell):
    """LSTM whose input gate is `1 - forget gate` (Greff et al.), with optional peepholes (`W_F_diag`,
    `W_O_diag`), projection (`W_P_0`) and layer normalization; weights `W_0` and bias `B`.

    Args:
      num_units: int, The number of units in the LSTM cell.
      use_peepholes: bool, set True to enable diagonal/peephole connections.
      initializer: (optional) The initializer to use for the weight and projection matrices.
      num_proj: (optional) int, The output dimensionality for the projection matrices.
      proj_clip: (optional) A float value; the projected values are clipped to it.
      num_unit_shards: How to split the weight matrix; only 1 is supported.
      num_proj_shards: How to split the projection matrix; only 1 is supported.
      forget_bias: The bias added to the forget gate.
      state_is_tuple: If True, states are `LSTMStateTuple(c, m)`; if False, concatenated.
      activation: Activation function of the inner states.
      reuse: (optional) Whether to reuse variables in an existing scope.
      layer_norm: If `True`, layer normalization will be applied.
      norm_gain: float, The layer normalization gain initial value.
      norm_shift: float, The layer normalization shift initial value.

    Raises:
      NotImplementedError: For `num_unit_shards` or `num_proj_shards` above 1.
    """

    def __init__(self, num_units, use_peepholes=False, initializer=None, num_proj=None, proj_clip=None,
                 num_unit_shards=1, num_proj_shards=1, forget_bias=1.0, state_is_tuple=True,
                 activation=math_ops.tanh, reuse=None, layer_norm=False, norm_gain=1.0, norm_shift=0.0):
        super().__init__(_reuse=reuse)
        if num_unit_shards != 1 or num_proj_shards != 1:
            raise NotImplementedError("CoupledInputForgetGateLSTMCell: num_unit_shards/num_proj_shards above 1 "
                                      "(sharded variables) are not supported.")
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift
        self._state_size, self._output_size = _lstm_sizes(num_units, num_proj, state_is_tuple)

    def call(self, inputs, state):
        """Run one step of LSTM.

        Raises:
          ValueError: If input size cannot be inferred from inputs via static shape inference.
        """
        sigmoid = math_ops.sigmoid
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        if self._state_is_tuple:
            (c_prev, m_prev) = state
        else:
            c_prev = array_ops.slice(state, [0, 0], [-1, self._num_units])
            m_prev = array_ops.slice(state, [0, self._num_units], [-1, num_proj])
        dtype = inputs.dtype
        input_size = _static_input_size(inputs.shape)
        concat_w = get_variable("W_0", [input_size + num_proj, 3 * self._num_units], dtype=dtype)
        b = get_variable("B", shape=[3 * self._num_units], initializer=init_ops.zeros_initializer(), dtype=dtype)
        lstm_matrix = math_ops.matmul(array_ops.concat([inputs, m_prev], 1), concat_w)
        if not self._layer_norm:
            lstm_matrix = nn_ops.bias_add(lstm_matrix, b)
        j, f, o = array_ops.split(value=lstm_matrix, num_or_size_splits=3, axis=1)
        if self._layer_norm:
            j = _layer_norm(j, self._norm_gain, self._norm_shift, "transform")
            f = _layer_norm(f, self._norm_gain, self._norm_shift, "forget")
            o = _layer_norm(o, self._norm_gain, self._norm_shift, "output")
        if self._use_peepholes:
            w_f_diag = get_variable("W_F_diag", shape=[self._num_units], dtype=dtype)
            w_o_diag = get_variable("W_O_diag", shape=[self._num_units], dtype=dtype)
            f_act = sigmoid(f + self._forget_bias + w_f_diag * c_prev)
        else:
            f_act = sigmoid(f + self._forget_bias)
        c = f_act * c_prev + (1 - f_act) * self._activation(j)
        if self._layer_norm:
            c = _layer_norm(c, self._norm_gain, self._norm_shift, "state")
        if self._use_peepholes:
            m = sigmoid(o + w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            concat_w_proj = get_variable("W_P_0", [self._num_units, self._num_proj], dtype=dtype)
            m = math_ops.matmul(m, concat_w_proj)
            if self._proj_clip is not None:
                m = clip_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else array_ops.concat([c, m], 1)
        return m, new_state


class GLSTMCell(_StoredSizeMixin, RNNCell):
    """Group LSTM cell (Kuchaiev and Ginsburg, 2017): one LSTM sub-cell per group of the inputs and
    outputs (`group<k>/kernel`), biases `bias_i`, `bias_j`, `bias_f`, `bias_o`, optional
    `projection/kernel`.

    Args:
      num_units: int, The number of units in the G-LSTM cell.
      initializer: (optional) The initializer to use for the weight and projection matrices.
      num_proj: (optional) int, The output dimensionality for the projection matrices.
      number_of_groups: (optional) int, number of groups to use.
      forget_bias: Biases of the forget gate.
      activation: Activation function of the inner states.
      reuse: (optional) Whether to reuse variables in an existing scope.

    Raises:
      ValueError: If `num_units` or `num_proj` is not divisible by `number_of_groups`.
    """

    def __init__(self, num_units, initializer=None, num_proj=None, number_of_groups=1, forget_bias=1.0,
                 activation=math_ops.tanh, reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._initializer = initializer
        self._num_proj = num_proj
        self._forget_bias = forget_bias
        self._activation = activation
        self._number_of_groups = number_of_groups
        if self._num_units % self._number_of_groups != 0:
            raise ValueError("num_units must be divisible by number_of_groups")
        if self._num_proj:
            if self._num_proj % self._number_of_groups != 0:
                raise ValueError("num_proj must be divisible by number_of_groups")
            self._group_shape = [self._num_proj // number_of_groups, self._num_units // number_of_groups]
        else:
            self._group_shape = [self._num_units // number_of_groups, self._num_units // number_of_groups]
        self._state_size, self._output_size = _lstm_sizes(num_units, num_proj)
        self._linear1 = [None] * number_of_groups
        self._linear2 = None

    def call(self, inputs, state):
        """Run one step of G-LSTM.

        Raises:
          ValueError: If the input size is unknown or not divisible by the number of groups.
        """
        (c_prev, m_prev) = state
        input_size = dimension_value(inputs.shape[1])
        if input_size is None:
            raise ValueError("input size must be statically known")
        if input_size % self._number_of_groups != 0:
            raise ValueError("input size (%d) must be divisible by number_of_groups (%d)"
                             % (input_size, self._number_of_groups))
        input_group_size = input_size // self._number_of_groups
        dtype = inputs.dtype
        with variable_scope(get_variable_scope(), initializer=self._initializer, auxiliary_name_scope=False):
            parts = [[], [], [], []]
            for group_id in range(self._number_of_groups):
                with variable_scope("group%d" % group_id):
                    x_g_id = array_ops.concat(
                        [array_ops.slice(inputs, [0, group_id * input_group_size], [-1, input_group_size]),
                         array_ops.slice(m_prev, [0, group_id * self._group_shape[0]], [-1, self._group_shape[0]])],
                        axis=1)
                    linear = self._linear1[group_id]
                    if linear is None:
                        linear = _linear(x_g_id, 4 * self._group_shape[1], False)
                        self._linear1[group_id] = linear
                    for part, piece in zip(parts, array_ops.split(linear(x_g_id), 4, 1)):
                        part.append(piece)
            biases = [get_variable(name="bias_" + k, shape=[self._num_units], dtype=dtype,
                                   initializer=init_ops.constant_initializer(0.0, dtype=dtype)) for k in "ijfo"]
            i, j, f, o = [nn_ops.bias_add(array_ops.concat(p, axis=1), bias) for p, bias in zip(parts, biases)]
        c = math_ops.sigmoid(f + self._forget_bias) * c_prev + math_ops.sigmoid(i) * math_ops.tanh(j)
        m = math_ops.sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            with variable_scope("projection"):
                if self._linear2 is None:
                    self._linear2 = _linear(m, self._num_proj, False)
                m = self._linear2(m)
        return m, LSTMStateTuple(c, m)


class HighwayWrapper(_WrappedCellMixin, RNNCell):
    """Adds a highway connection between the cell's inputs and outputs (Srivastava et al., 2015):
    `out = x * carry + cell_out * transform`, `carry = sigmoid(x @ carry_w + carry_b)` and
    `transform = 1 - carry` (or its own `transform_w`, `transform_b`).

    Args:
      cell: An instance of `RNNCell`.
      couple_carry_transform_gates: boolean, should the Carry and Transform gate be coupled.
      carry_bias_init: float, carry gates bias initialization.

    Raises:
      TypeError: if cell is not an RNNCell.
    """

    def __init__(self, cell, couple_carry_transform_gates=True, carry_bias_init=1.0):
        super().__init__()
        assert_like_rnncell("cell", cell)
        self._cell = cell
        self._couple_carry_transform_gates = couple_carry_transform_gates
        self._carry_bias_init = carry_bias_init

    def _highway(self, inp, out):
        input_size = dimension_value(inp.shape.with_rank(2)[1])
        carry_weight = get_variable("carry_w", [input_size, input_size], dtype=inp.dtype)
        carry_bias = get_variable("carry_b", [input_size], dtype=inp.dtype,
                                  initializer=init_ops.constant_initializer(self._carry_bias_init))
        carry = math_ops.sigmoid(nn_ops.bias_add(math_ops.matmul(inp, carry_weight), carry_bias))
        if self._couple_carry_transform_gates:
            transform = 1 - carry
        else:
            transform_weight = get_variable("transform_w", [input_size, input_size], dtype=inp.dtype)
            transform_bias = get_variable("transform_b", [input_size], dtype=inp.dtype,
                                          initializer=init_ops.constant_initializer(-self._carry_bias_init))
            transform = math_ops.sigmoid(nn_ops.bias_add(math_ops.matmul(inp, transform_weight), transform_bias))
        return inp * carry + out * transform

    def __call__(self, inputs, state, scope=None):
        """Runs the cell and adds the highway connection from its inputs to its outputs.

        Args:
          inputs: cell inputs.
          state: cell state.
          scope: optional cell scope.

        Returns:
          Tuple of cell outputs and new state.

        Raises:
          TypeError: If cell inputs and outputs have different structure (type).
          ValueError: If cell inputs and outputs have different structure (value).
        """
        outputs, new_state = self._cell(inputs, state, scope=scope)
        nest.assert_same_structure(inputs, outputs)
        nest.map_structure(lambda inp, out: inp.shape.assert_is_compatible_with(out.shape), inputs, outputs)
        res_outputs = nest.map_structure(self._highway, inputs, outputs)
        return (res_outputs, new_state)



class FusedRNNCell:
    """Abstract object representing a fused RNN cell: called once on a whole time-major sequence as
    `cell(inputs, initial_state=None, dtype=None, sequence_length=None, scope=None) -> (outputs,
    final_state)`."""

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
        """Runs the RNN on `inputs` (`[time_len, batch_size, input_size]` or a list of
        `[batch_size, input_size]` tensors).

        Raises:
          NotImplementedError: Always (subclasses implement it).
        """
        raise NotImplementedError("Abstract method")


class FusedRNNCellAdaptor(FusedRNNCell):
    """Adapts an `RNNCell` to the `FusedRNNCell` interface: `static_rnn` over the time steps, or
    `dynamic_rnn(time_major=True)` with `use_dynamic_rnn`.

    Args:
      cell: an instance of a subclass of a `RNNCell`.
      use_dynamic_rnn: whether to use dynamic (or static) RNN.
    """

    def __init__(self, cell, use_dynamic_rnn=False):
        self._cell = cell
        self._use_dynamic_rnn = use_dynamic_rnn

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
        """Runs the cell over `inputs`; the outputs are a list when `inputs` is a list, else a
        `[time_len, batch_size, output_size]` tensor.

        Args:
          inputs: `[time_len, batch_size, input_size]` tensor or a list of `[batch_size, input_size]`.
          initial_state: (optional) The cell's initial state.
          dtype: (optional) The dtype of the state when `initial_state` is None.
          sequence_length: (optional) int32/int64 vector `[batch_size]`.
          scope: VariableScope of the RNN (default "rnn").

        Returns:
          A pair `(outputs, final_state)`.
        """
        from ..nn.rnn import dynamic_rnn
        is_list = isinstance(inputs, list)
        if self._use_dynamic_rnn:
            if is_list:
                inputs = array_ops.stack(inputs)
            outputs, state = dynamic_rnn(self._cell, inputs, sequence_length=sequence_length,
                                         initial_state=initial_state, dtype=dtype, time_major=True, scope=scope)
            if is_list:
                outputs = array_ops.unstack(outputs)
        else:
            from ..nn.rnn_static import static_rnn
            if not is_list:
                inputs = array_ops.unstack(inputs)
            outputs, state = static_rnn(self._cell, inputs, initial_state=initial_state, dtype=dtype,
                                        sequence_length=sequence_length, scope=scope)
            if not is_list:
                outputs = array_ops.stack(outputs)
        return outputs, state


class TimeReversedFusedRNN(FusedRNNCell):
    """Runs a `FusedRNNCell` backwards in time: the inputs are reversed (each sequence up to its
    length when `sequence_length` is given for tensor inputs), and so are the outputs.

    Args:
      cell: an instance of `FusedRNNCell`.
    """

    def __init__(self, cell):
        self._cell = cell

    def _reverse(self, t, lengths):
        if isinstance(t, list):
            return list(reversed(t))
        if lengths is None:
            return array_ops.reverse(t, [0])
        return array_ops.reverse_sequence(t, lengths, 0, 1)

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
        """Runs the wrapped fused cell on the time-reversed inputs (see `FusedRNNCellAdaptor`).

        Args:
          inputs: `[time_len, batch_size, input_size]` tensor or a list of `[batch_size, input_size]`.
          initial_state: (optional) The cell's initial state.
          dtype: (optional) The dtype of the state when `initial_state` is None.
          sequence_length: (optional) int32/int64 vector `[batch_size]`.
          scope: VariableScope of the RNN.

        Returns:
          A pair `(outputs, final_state)`, the outputs in the original time order.
        """
        inputs = self._reverse(inputs, sequence_length)
        outputs, state = self._cell(inputs, initial_state=initial_state, dtype=dtype,
                                    sequence_length=sequence_length, scope=scope)
        return self._reverse(outputs, sequence_length), state


class LayerNormLSTMCell(_StoredSizeMixin, RNNCell):
    """LSTM cell with optional layer normalization (Ba et al., 2016) of the gate pre-activations and
    the cell state, peepholes, cell clipping and projection; variables `kernel`, `bias` (not added
    when normalizing), `<gate>/gamma`, `<gate>/beta`, `w_f_diag`, `w_i_diag`, `w_o_diag`,
    `projection/kernel`.

    Args:
      num_units: int, The number of units in the LSTM cell.
      use_peepholes: bool, set True to enable diagonal/peephole connections.
      cell_clip: (optional) A float value; the cell state is clipped to it.
      initializer: (optional) The initializer to use for the weight and projection matrices.
      num_proj: (optional) int, The output dimensionality for the projection matrices.
      proj_clip: (optional) A float value; the projected values are clipped to it.
      forget_bias: The bias added to the forget gate.
      activation: Activation function of the inner states. Default: `tanh`.
      layer_norm: If `True`, layer normalization will be applied.
      norm_gain: float, The layer normalization gain initial value.
      norm_shift: float, The layer normalization shift initial value.
      reuse: (optional) Whether to reuse variables in an existing scope.
    """

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None, num_proj=None,
                 proj_clip=None, forget_bias=1.0, activation=None, layer_norm=False, norm_gain=1.0, norm_shift=0.0,
                 reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._activation = activation or math_ops.tanh
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift
        self._state_size, self._output_size = _lstm_sizes(num_units, num_proj)

    def _linear(self, args, output_size, bias, layer_norm=False):
        args = args if isinstance(args, (list, tuple)) else [args]
        total = 0
        for a in args:
            if a.shape.ndims != 2:
                raise ValueError("linear is expecting 2D arguments: %s" % [x.shape for x in args])
            if dimension_value(a.shape[1]) is None:
                raise ValueError("linear expects shape[1] to be provided for shape %s, but saw %s"
                                 % (a.shape, a.shape[1]))
            total += dimension_value(a.shape[1])
        dtype = args[0].dtype
        weights = get_variable("kernel", [total, output_size], dtype=dtype)
        res = math_ops.matmul(args[0] if len(args) == 1 else array_ops.concat(args, 1), weights)
        if not bias:
            return res
        biases = get_variable("bias", [output_size], dtype=dtype,
                              initializer=init_ops.constant_initializer(0.0, dtype=dtype))
        return res if layer_norm else nn_ops.bias_add(res, biases)

    def call(self, inputs, state):
        """Run one step of LSTM.

        Raises:
          ValueError: If input size cannot be inferred from inputs via static shape inference.
        """
        sigmoid = math_ops.sigmoid
        (c_prev, m_prev) = state
        dtype = inputs.dtype
        _static_input_size(inputs.shape)
        gain, shift = self._norm_gain, self._norm_shift
        with variable_scope(get_variable_scope(), initializer=self._initializer, auxiliary_name_scope=False):
            lstm_matrix = self._linear([inputs, m_prev], 4 * self._num_units, bias=True, layer_norm=self._layer_norm)
            i, j, f, o = array_ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
            if self._layer_norm:
                i = _layer_norm(i, gain, shift, "input")
                j = _layer_norm(j, gain, shift, "transform")
                f = _layer_norm(f, gain, shift, "forget")
                o = _layer_norm(o, gain, shift, "output")
            if self._use_peepholes:
                w_f_diag = get_variable("w_f_diag", shape=[self._num_units], dtype=dtype)
                w_i_diag = get_variable("w_i_diag", shape=[self._num_units], dtype=dtype)
                w_o_diag = get_variable("w_o_diag", shape=[self._num_units], dtype=dtype)
                c = (sigmoid(f + self._forget_bias + w_f_diag * c_prev) * c_prev
                     + sigmoid(i + w_i_diag * c_prev) * self._activation(j))
            else:
                c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
            if self._layer_norm:
                c = _layer_norm(c, gain, shift, "state")
            if self._cell_clip is not None:
                c = clip_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
            if self._use_peepholes:
                m = sigmoid(o + w_o_diag * c) * self._activation(c)
            else:
                m = sigmoid(o) * self._activation(c)
            if self._num_proj is not None:
                with variable_scope("projection"):
                    m = self._linear(m, self._num_proj, bias=False)
                if self._proj_clip is not None:
                    m = clip_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        return m, LSTMStateTuple(c, m)


def _random_exp_initializer(minval, maxval, seed=None, dtype=None):
    """Values `exp(U(log(minval), log(maxval)))`."""
    from ..framework import dtypes
    from ..ops import random_ops
    dtype = dtype or dtypes.float32

    def _initializer(shape, dtype=dtype, partition_info=None):
        return math_ops.exp(random_ops.random_uniform(shape, math_ops.log(minval), math_ops.log(maxval), dtype,
                                                      seed=seed))
    return _initializer


class PhasedLSTMCell(_LSTMTupleSizeMixin, RNNCell):
    """Phased LSTM cell (Neil et al., 2016): an LSTM whose updates are gated by a per-unit periodic
    time gate (`period`, `phase`, `ratio_on`). Its inputs are a pair `(time [batch, 1], features)`.

    Args:
      num_units: int, The number of units in the Phased LSTM cell.
      use_peepholes: bool, set True to enable peephole connections.
      leak: float or scalar float Tensor with value in [0, 1]. Leak applied during training.
      ratio_on: float or scalar float Tensor with value in [0, 1]. Ratio of the period during which
        the gates are open.
      trainable_ratio_on: bool, whether ratio_on is trainable.
      period_init_min: float or scalar float Tensor > 0: minimum initial period
        (periods are drawn from `e^U(log(period_init_min), log(period_init_max))`).
      period_init_max: float or scalar float Tensor > period_init_min: maximum initial period.
      reuse: (optional) Whether to reuse variables in an existing scope.
    """

    def __init__(self, num_units, use_peepholes=False, leak=0.001, ratio_on=0.1, trainable_ratio_on=True,
                 period_init_min=1.0, period_init_max=1000.0, reuse=None):
        super().__init__(_reuse=reuse, autocast=False)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._leak = leak
        self._ratio_on = ratio_on
        self._trainable_ratio_on = trainable_ratio_on
        self._period_init_min = period_init_min
        self._period_init_max = period_init_max
        self._linear1 = None
        self._linear2 = None
        self._linear3 = None

    def _mod(self, x, y):
        """Modulo function that propagates x gradients."""
        return core_ops.stop_gradient(math_ops.floormod(x, y) - x) + x

    def _get_cycle_ratio(self, time, phase, period):
        from ..framework import dtypes
        phase_casted = math_ops.cast(phase, dtype=time.dtype)
        period_casted = math_ops.cast(period, dtype=time.dtype)
        cycle_ratio = self._mod(time - phase_casted, period_casted) / period_casted
        return math_ops.cast(cycle_ratio, dtype=dtypes.float32)

    def call(self, inputs, state):
        """Phased LSTM Cell.

        Args:
          inputs: A pair `(time, x)`: time `[batch, 1]` (float32 or float64) and features
            `[batch, features_size]` (float32).
          state: `LSTMStateTuple`, state from previous timestep.

        Returns:
          A pair `(new_h, LSTMStateTuple(new_c, new_h))`.
        """
        (c_prev, h_prev) = state
        (time, x) = inputs
        in_mask_gates = [x, h_prev] + ([c_prev] if self._use_peepholes else [])
        with variable_scope("mask_gates"):
            if self._linear1 is None:
                self._linear1 = _linear(in_mask_gates, 2 * self._num_units, True)
            mask_gates = math_ops.sigmoid(self._linear1(in_mask_gates))
            input_gate, forget_gate = array_ops.split(axis=1, num_or_size_splits=2, value=mask_gates)
        with variable_scope("new_input"):
            if self._linear2 is None:
                self._linear2 = _linear([x, h_prev], self._num_units, True)
            new_input = math_ops.tanh(self._linear2([x, h_prev]))
        new_c = c_prev * forget_gate + input_gate * new_input
        in_out_gate = [x, h_prev] + ([new_c] if self._use_peepholes else [])
        with variable_scope("output_gate"):
            if self._linear3 is None:
                self._linear3 = _linear(in_out_gate, self._num_units, True)
            output_gate = math_ops.sigmoid(self._linear3(in_out_gate))
        new_h = math_ops.tanh(new_c) * output_gate
        period = get_variable("period", [self._num_units],
                              initializer=_random_exp_initializer(self._period_init_min, self._period_init_max))
        phase = get_variable("phase", [self._num_units],
                             initializer=init_ops.random_uniform_initializer(0., period.initial_value))
        ratio_on = get_variable("ratio_on", [self._num_units],
                                initializer=init_ops.constant_initializer(self._ratio_on),
                                trainable=self._trainable_ratio_on)
        cycle_ratio = self._get_cycle_ratio(time, phase, period)
        k_up = 2 * cycle_ratio / ratio_on
        k_down = 2 - k_up
        k_closed = self._leak * cycle_ratio
        k = array_ops.where(cycle_ratio < ratio_on, k_down, k_closed)
        k = array_ops.where(cycle_ratio < 0.5 * ratio_on, k_up, k)
        new_c = k * new_c + (1 - k) * c_prev
        new_h = k * new_h + (1 - k) * h_prev
        return new_h, LSTMStateTuple(new_c, new_h)
