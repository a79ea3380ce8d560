"""Convolutional recurrent layers (TF 1.15's `tf.keras.layers`): `ConvRNN2D`, the base of recurrent layers
whose cells convolve images, and `ConvLSTM2D` with its cell `ConvLSTM2DCell`.

The time loop is `K.rnn`, as for `layers/recurrent.py`; the states are images `(batch, rows, cols, filters)`
(or channels first), and the weights are laid out as TF 1.15's (`kernel` `(rows, cols, in, 4 * filters)`,
`recurrent_kernel` `(rows, cols, filters, 4 * filters)`, `bias`; gates i, f, c, o), so values map 1:1.
"""

import numpy as np

from ...ops.array_shape_ops import zeros
from .. import _tf as tf
from .. import activations, constraints, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .convolutional import _check_format, _check_padding, _conv_length, _tuple
from .core import _serialize
from .recurrent import RNN, DropoutRNNCellMixin, _reset_dropout_masks

__all__ = ["ConvLSTM2D", "ConvLSTM2DCell", "ConvRNN2D"]


class ConvRNN2D(RNN):
    """Base class of convolutional-recurrent layers: runs a convolutional `cell` over the time steps of a 5D
    input `(samples, time, rows, cols, channels)` (or `(samples, time, channels, rows, cols)`).

    Args:
      cell: A cell with `filters`, `kernel_size`, `strides`, `padding`, `data_format`, `dilation_rate`,
        `state_size` (one channel count per state) and `input_conv`, such as `ConvLSTM2DCell`.
      return_sequences: Whether to return all the outputs `(samples, time, ...)` or the last.
      return_state: Whether to also return the final states.
      go_backwards: Whether to process the sequence backwards (and return the reversed sequence).
      stateful: Whether the final states of a batch are the initial states of the next batch (needs a fixed
        batch size and image size).
      unroll: Must be False.
      **kwargs: Base `Layer` arguments.

    Raises:
      TypeError: for `unroll=True` or a list of cells (neither is possible in TF 1.15).
    """

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, **kwargs):
        if unroll:
            raise TypeError("Unrolling isn't possible with convolutional RNNs.")
        if isinstance(cell, (list, tuple)):
            raise TypeError("It is not possible at the moment to stack convolutional cells.")
        if kwargs.get("time_major"):
            raise NotImplementedError("`time_major` is not supported by convolutional RNNs.")
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll, **kwargs)
        self.input_spec = [InputSpec(ndim=5)]

    def _state_shape(self, input_shape):
        """The shape `(batch, rows, cols, filters)` (or channels first) of each state for a 5D input shape."""
        cell = self.cell
        dims = list(input_shape)
        rows, cols = (dims[3], dims[4]) if cell.data_format == "channels_first" else (dims[2], dims[3])
        rows = _conv_length(rows, cell.kernel_size[0], cell.padding, cell.strides[0], cell.dilation_rate[0])
        cols = _conv_length(cols, cell.kernel_size[1], cell.padding, cell.strides[1], cell.dilation_rate[1])
        if cell.data_format == "channels_first":
            return [dims[0], cell.filters, rows, cols]
        return [dims[0], rows, cols, cell.filters]

    def compute_output_shape(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = tf.TensorShape(input_shape).as_list()
        state = self._state_shape(dims)
        output = tf.TensorShape(state[:1] + [dims[1]] + state[1:] if self.return_sequences else state)
        if self.return_state:
            return [output] + [tf.TensorShape(state) for _ in range(len(self.states))]
        return output

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = tf.TensorShape(input_shape).as_list()
        if len(dims) != 5:
            raise ValueError("Input 0 of layer " + self.name + " is incompatible with the layer: expected ndim=5, "
                             "found ndim=" + str(len(dims)) + ". Full shape received: " + str(dims))
        batch_size = dims[0] if self.stateful else None
        self.input_spec = [InputSpec(shape=(batch_size, None) + tuple(dims[2:5]))]
        if isinstance(self.cell, Layer) and not self.cell.built:
            if self.cell._dtype is None:
                self.cell._dtype = self._dtype
            self.cell.build(tuple([dims[0]] + dims[2:]))
            self.cell.built = True
        if self.stateful:
            self.reset_states()
        self.built = True

    def get_initial_state(self, inputs):
        """Zero states shaped like the cell's output for `inputs` (as TF: a convolution of zeros)."""
        initial_state = K.sum(K.zeros_like(inputs), axis=1)
        shape = list(self.cell.kernel_shape)
        shape[-1] = self.cell.filters
        initial_state = self.cell.input_conv(initial_state, zeros(tuple(shape), dtype=inputs.dtype),
                                             padding=self.cell.padding)
        return [initial_state for _ in range(len(self.states))]

    def reset_states(self, states=None):
        """Resets the state variables of a stateful layer to zeros, or to `states`.

        Args:
          states: Optional NumPy array(s), one per state, shaped like the layer's states.

        Raises:
          AttributeError: If the layer is not stateful.
          ValueError: If the batch or image size is unknown, or `states` do not match the layer's states.
        """
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        spec = None if not self.input_spec or self.input_spec[0] is None else self.input_spec[0].shape
        shape = None if spec is None else self._state_shape(spec)
        if shape is None or None in shape:
            raise ValueError("If a RNN is stateful, it needs to know its batch size. Specify the batch size of your "
                             "input tensors: \n- If using a Sequential model, specify the batch size by passing a "
                             "`batch_input_shape` argument to your first layer.\n- If using the functional API, "
                             "specify the time dimension by passing a `batch_shape` argument to your Input layer."
                             "\nThe same thing goes for the number of rows and columns.")
        shape = tuple(shape)
        n = len(self.states)
        if self._states is None:
            self._states = [K.zeros(shape, dtype=self._dtype or K.floatx()) for _ in range(n)]
        if states is None:
            K.batch_set_value([(var, np.zeros(shape)) for var in self._states])
            return
        if not isinstance(states, (list, tuple)):
            states = [states]
        if len(states) != n:
            raise ValueError("Layer " + self.name + " expects " + str(n) + " states, but it received " +
                             str(len(states)) + " state values. Input received: " + str(states))
        pairs = []
        for index, (value, var) in enumerate(zip(states, self._states)):
            value = np.asarray(value)
            if value.shape != shape:
                raise ValueError("State " + str(index) + " is incompatible with layer " + self.name +
                                 ": expected shape=" + str(shape) + ", found shape=" + str(value.shape))
            pairs.append((var, value))
        K.batch_set_value(pairs)


class ConvLSTM2DCell(DropoutRNNCellMixin, Layer):
    """The cell of `ConvLSTM2D`: an LSTM whose input and recurrent transformations are convolutions.

    Args:
      filters: The number of output filters (the channels of the output and the states).
      kernel_size: An integer or a pair, the convolution window.
      strides: An integer or a pair, the strides of the input convolution.
      padding: 'valid' or 'same' (the recurrent convolution is always 'same' with stride 1).
      data_format: 'channels_last' (default: `image_data_format()`) or 'channels_first'.
      dilation_rate: An integer or a pair, the dilation of the input convolution.
      activation: Activation of the cell input and output (default tanh).
      recurrent_activation: Activation of the gates (default hard_sigmoid).
      use_bias: Whether to add a bias.
      kernel_initializer, recurrent_initializer, bias_initializer: Initializers (default glorot_uniform,
        orthogonal, zeros).
      unit_forget_bias: Whether the forget gate's bias starts at 1.
      kernel_regularizer, recurrent_regularizer, bias_regularizer: Optional regularizers.
      kernel_constraint, recurrent_constraint, bias_constraint: Optional constraints.
      dropout: Fraction of the input channels dropped in training (one mask per gate for all steps).
      recurrent_dropout: Fraction of the recurrent state dropped in training.

    Raises:
      ValueError: for a bad `kernel_size`, `strides`, `dilation_rate`, `padding` or `data_format`.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1),
                 activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.,
                 recurrent_dropout=0., **kwargs):
        super().__init__(**kwargs)
        self.filters = filters
        self.kernel_size = _tuple(kernel_size, 2, "kernel_size")
        self.strides = _tuple(strides, 2, "strides")
        self.padding = _check_padding(padding)
        self.data_format = _check_format(data_format)
        self.dilation_rate = _tuple(dilation_rate, 2, "dilation_rate")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = unit_forget_bias
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1., max(0., dropout))
        self.recurrent_dropout = min(1., max(0., recurrent_dropout))
        self._dropout_mask = None
        self._recurrent_dropout_mask = None
        self.state_size = (self.filters, self.filters)

    def build(self, input_shape):
        channel_axis = 1 if self.data_format == "channels_first" else -1
        input_dim = tf.TensorShape(input_shape).as_list()[channel_axis]
        if input_dim is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.kernel_shape = self.kernel_size + (input_dim, self.filters * 4)
        self.kernel = self.add_weight(shape=self.kernel_shape, initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(shape=self.kernel_size + (self.filters, self.filters * 4),
                                                initializer=self.recurrent_initializer, name="recurrent_kernel",
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        if self.use_bias:
            bias_initializer = self.bias_initializer
            if self.unit_forget_bias:
                base, filters = self.bias_initializer, self.filters

                def bias_initializer(shape, dtype=None, partition_info=None):
                    return tf.concat([tf.convert_to_tensor(base((filters,), dtype=dtype)),
                                      tf.constant(np.ones(filters), dtype=dtype),
                                      tf.convert_to_tensor(base((filters * 2,), dtype=dtype))], 0)
            self.bias = self.add_weight(shape=(self.filters * 4,), name="bias", initializer=bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None
        self.built = True

    def call(self, inputs, states, training=None):
        h_tm1, c_tm1 = states[0], states[1]
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=4)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=4)
        x_in = [inputs * m for m in dp_mask] if 0 < self.dropout < 1 else [inputs] * 4
        h_in = [h_tm1 * m for m in rec_dp_mask] if 0 < self.recurrent_dropout < 1 else [h_tm1] * 4
        f = self.filters
        z = []
        for gate in range(4):
            bias = self.bias[gate * f:(gate + 1) * f] if self.use_bias else None
            x = self.input_conv(x_in[gate], self.kernel[:, :, :, gate * f:(gate + 1) * f], bias, padding=self.padding)
            z.append(x + self.recurrent_conv(h_in[gate], self.recurrent_kernel[:, :, :, gate * f:(gate + 1) * f]))
        i = self.recurrent_activation(z[0])
        forget = self.recurrent_activation(z[1])
        c = forget * c_tm1 + i * self.activation(z[2])
        o = self.recurrent_activation(z[3])
        h = o * self.activation(c)
        return h, [h, c]

    def input_conv(self, x, w, b=None, padding="valid"):
        """The input convolution (the cell's strides and dilation), plus `b` if given."""
        conv_out = K.conv2d(x, w, strides=self.strides, padding=padding, data_format=self.data_format,
                            dilation_rate=self.dilation_rate)
        if b is not None:
            conv_out = K.bias_add(conv_out, b, data_format=self.data_format)
        return conv_out

    def recurrent_conv(self, x, w):
        """The recurrent convolution: stride 1, 'same' padding."""
        return K.conv2d(x, w, strides=(1, 1), padding="same", data_format=self.data_format)

    def get_config(self):
        config = {
            "filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
            "padding": self.padding, "data_format": self.data_format, "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "unit_forget_bias": self.unit_forget_bias,
            "kernel_regularizer": _serialize(regularizers, self.kernel_regularizer),
            "recurrent_regularizer": _serialize(regularizers, self.recurrent_regularizer),
            "bias_regularizer": _serialize(regularizers, self.bias_regularizer),
            "kernel_constraint": _serialize(constraints, self.kernel_constraint),
            "recurrent_constraint": _serialize(constraints, self.recurrent_constraint),
            "bias_constraint": _serialize(constraints, self.bias_constraint),
            "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


_CELL_ARGS = ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "activation",
              "recurrent_activation", "use_bias", "kernel_initializer", "recurrent_initializer", "bias_initializer",
              "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
              "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout")


class ConvLSTM2D(ConvRNN2D):
    """Convolutional LSTM (Shi et al., 2015): an LSTM whose input and recurrent transformations are
    convolutions, over inputs `(samples, time, rows, cols, channels)` (or `(samples, time, channels, rows,
    cols)` with 'channels_first').

    Args:
      filters, kernel_size, strides, padding, data_format, dilation_rate, activation, recurrent_activation,
        use_bias, kernel_initializer, recurrent_initializer, bias_initializer, unit_forget_bias,
        kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint, recurrent_constraint,
        bias_constraint, dropout, recurrent_dropout: As `ConvLSTM2DCell`.
      activity_regularizer: Optional regularizer of the output.
      return_sequences: Whether to return all the outputs `(samples, time, rows', cols', filters)` or the last.
      go_backwards: Whether to process the sequence backwards.
      stateful: Whether the final states of a batch are the initial states of the next batch.
      **kwargs: Base `Layer` arguments, and `return_state`.

    Call arguments:
      inputs: A 5D tensor.
      mask: Optional boolean `(samples, time)`: masked steps keep the states and repeat the output.
      training: Whether dropout applies (default: the learning phase).
      initial_state: Optional list of the 2 initial states `[h, c]`.

    Raises:
      ValueError: for bad cell arguments, or an input that is not 5D.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1),
                 activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                 return_sequences=False, go_backwards=False, stateful=False, dropout=0., recurrent_dropout=0.,
                 **kwargs):
        kwargs.pop("cell", None)
        cell = ConvLSTM2DCell(filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,
                              data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                              recurrent_activation=recurrent_activation, use_bias=use_bias,
                              kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
                              bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
                              kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
                              bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                              recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint,
                              dropout=dropout, recurrent_dropout=recurrent_dropout, dtype=kwargs.get("dtype"))
        super().__init__(cell, return_sequences=return_sequences, go_backwards=go_backwards, stateful=stateful,
                         **kwargs)
        self.activity_regularizer = regularizers.get(activity_regularizer)

    def call(self, inputs, mask=None, training=None, initial_state=None):
        _reset_dropout_masks(self.cell)
        return super().call(inputs, mask=mask, training=training, initial_state=initial_state)

    def __getattr__(self, name):
        cell = self.__dict__.get("cell")
        if cell is not None and name in _CELL_ARGS:
            return getattr(cell, name)
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def get_config(self):
        config = {k: v for k, v in self.cell.get_config().items() if k in _CELL_ARGS}
        config["activity_regularizer"] = _serialize(regularizers, self.activity_regularizer)
        base = super().get_config()
        del base["cell"]
        return dict(list(base.items()) + list(config.items()))

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Re-creates the layer from `get_config()`."""
        return cls(**config)
