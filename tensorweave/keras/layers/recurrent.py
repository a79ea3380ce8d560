"""Keras 2 recurrent layers (TF 1.15's `tf.keras.layers`): `RNN` and the cells `SimpleRNNCell`,
`GRUCell`, `LSTMCell` and `StackedRNNCells`, with the layers `SimpleRNN`, `GRU` and `LSTM`.

The time loop is `K.rnn` (a `while_loop` over `TensorArray`s), so the number of time steps may be
unknown until run time. Weights are named and laid out as TF 1.15's (`kernel`, `recurrent_kernel`,
`bias`; LSTM gates i, f, c, o; GRU gates z, r, h), so values map 1:1 to tf-keras.
"""

import numpy as np

from .. import _tf as tf
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer, is_keras_tensor
from ..utils.generic_utils import has_arg
from .core import _serialize

__all__ = ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "SimpleRNN", "SimpleRNNCell", "StackedRNNCells"]


# ---- helpers ----------------------------------------------------------------------------------
def _is_multiple_state(state_size):
    """Whether a cell's `state_size` lists several states (a TensorShape is one state)."""
    return hasattr(state_size, "__len__") and not isinstance(state_size, tf.TensorShape)


def _flat_state_sizes(state_size):
    if _is_multiple_state(state_size):
        out = []
        for size in state_size:
            out.extend(_flat_state_sizes(size))
        return out
    return [state_size]


def _dims(size):
    return tf.TensorShape(size).as_list() if not isinstance(size, int) else [size]


def _zero_state(batch_size, state_size, dtype):
    """Zero tensors `(batch_size, *size)` for each flat state size (a list)."""
    from ...ops.array_shape_ops import zeros
    states = []
    for size in _flat_state_sizes(state_size):
        if tf.is_tensor(batch_size):
            shape = tf.stack([batch_size] + _dims(size))
        else:
            shape = [batch_size] + _dims(size)
        states.append(zeros(shape, dtype=dtype))
    return states


def _serialize_layer(layer):
    return {"class_name": type(layer).__name__, "config": layer.get_config()}


def _deserialize_layer(config, custom_objects=None):
    """A layer from `{'class_name', 'config'}`: custom objects first, then `tf.keras.layers`.

    Raises:
      ValueError: For an unknown class name.
    """
    from .. import layers as layers_module
    from ..utils.generic_utils import deserialize_keras_object
    module_objects = {k: v for k, v in vars(layers_module).items() if isinstance(v, type)}
    return deserialize_keras_object(config, module_objects=module_objects, custom_objects=custom_objects,
                                    printable_module_name="layer")


def _generate_dropout_mask(ones, rate, training=None, count=1):
    def dropped_inputs():
        return K.dropout(ones, rate)

    if count > 1:
        return [K.in_train_phase(dropped_inputs, ones, training=training) for _ in range(count)]
    return K.in_train_phase(dropped_inputs, ones, training=training)


class DropoutRNNCellMixin:
    """Creates a cell's dropout masks once per RNN call and reuses them at every time step.

    `K.rnn` calls the step function once outside its loop (on the first time step), so the masks
    are created there and every step (inside the loop) uses the same masks.
    """

    def reset_dropout_mask(self):
        """Forgets the cached input dropout mask (the RNN layer calls it before each loop)."""
        self._dropout_mask = None

    def reset_recurrent_dropout_mask(self):
        """Forgets the cached recurrent dropout mask."""
        self._recurrent_dropout_mask = None

    def get_dropout_mask_for_cell(self, inputs, training, count=1):
        """The (cached) input dropout mask(s), or None without dropout.

        Args:
          inputs: The step input `(batch, features)`; the mask has its shape.
          training: Whether dropout applies (a bool or a boolean tensor; None: the learning phase).
          count: How many independent masks to make (one per gate).
        """
        if self.dropout == 0:
            return None
        if getattr(self, "_dropout_mask", None) is None:
            self._dropout_mask = _generate_dropout_mask(tf.ones_like(inputs), self.dropout, training, count)
        return self._dropout_mask

    def get_recurrent_dropout_mask_for_cell(self, inputs, training, count=1):
        """The (cached) recurrent dropout mask(s) shaped like the state `inputs`, or None."""
        if self.recurrent_dropout == 0:
            return None
        if getattr(self, "_recurrent_dropout_mask", None) is None:
            self._recurrent_dropout_mask = _generate_dropout_mask(tf.ones_like(inputs), self.recurrent_dropout,
                                                                  training, count)
        return self._recurrent_dropout_mask


def _cell_config(cell, extra):
    from .. import activations, constraints, initializers, regularizers
    config = {"units": cell.units, "activation": activations.serialize(cell.activation)}
    if hasattr(cell, "recurrent_activation"):
        config["recurrent_activation"] = activations.serialize(cell.recurrent_activation)
    config.update({
        "use_bias": cell.use_bias,
        "kernel_initializer": initializers.serialize(cell.kernel_initializer),
        "recurrent_initializer": initializers.serialize(cell.recurrent_initializer),
        "bias_initializer": initializers.serialize(cell.bias_initializer)})
    config.update(extra)
    config.update({
        "kernel_regularizer": _serialize(regularizers, cell.kernel_regularizer),
        "recurrent_regularizer": _serialize(regularizers, cell.recurrent_regularizer),
        "bias_regularizer": _serialize(regularizers, cell.bias_regularizer),
        "kernel_constraint": _serialize(constraints, cell.kernel_constraint),
        "recurrent_constraint": _serialize(constraints, cell.recurrent_constraint),
        "bias_constraint": _serialize(constraints, cell.bias_constraint),
        "dropout": cell.dropout, "recurrent_dropout": cell.recurrent_dropout})
    return config


class _BaseCell(DropoutRNNCellMixin, Layer):
    """The arguments and weights shared by the built-in cells."""

    _GATES = 1

    def __init__(self, units, activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
                 kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
                 recurrent_constraint, bias_constraint, dropout, recurrent_dropout, **kwargs):
        from .. import activations, constraints, initializers, regularizers
        super().__init__(**kwargs)
        if int(units) <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a positive integer, got "
                             + str(units) + ".")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
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

    def _build_weights(self, input_shape, bias_shape=None, bias_initializer=None):
        input_dim = tf.TensorShape(input_shape).as_list()[-1]
        if input_dim is None:
            raise ValueError("The last dimension of the inputs to `" + type(self).__name__ +
                             "` should be defined. Found `None`.")
        n = self.units * self._GATES
        self.kernel = self.add_weight("kernel", shape=(input_dim, n), initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight("recurrent_kernel", shape=(self.units, n),
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=bias_shape or (n,),
                                        initializer=bias_initializer or self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None
        self.built = True

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """Zero states for a batch: a tensor, or a list of tensors for several states.

        Args:
          inputs: Optional input tensor giving the batch size (axis 0) and dtype.
          batch_size: The batch size (int or scalar tensor), when `inputs` is None.
          dtype: The states' dtype, when `inputs` is None.
        """
        if inputs is not None:
            batch_size = tf.shape(inputs)[0]
            dtype = inputs.dtype
        states = _zero_state(batch_size, self.state_size, dtype or K.floatx())
        return states if _is_multiple_state(self.state_size) else states[0]


class SimpleRNNCell(_BaseCell):
    """The cell of a fully-connected RNN: `h_t = activation(x_t . kernel + h_{t-1} . recurrent_kernel + bias)`.

    Args:
      units: Positive integer, the output and state size.
      activation: Activation (default tanh).
      use_bias: Whether to add a bias.
      kernel_initializer, recurrent_initializer, bias_initializer: Initializers (default
        glorot_uniform, orthogonal, zeros).
      kernel_regularizer, recurrent_regularizer, bias_regularizer: Optional regularizers.
      kernel_constraint, recurrent_constraint, bias_constraint: Optional constraints.
      dropout: Fraction of the inputs dropped in training (one mask for all time steps).
      recurrent_dropout: Fraction of the recurrent state dropped in training.

    Raises:
      ValueError: If `units` is not positive.
    """

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0., recurrent_dropout=0., **kwargs):
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer,
                         bias_initializer, kernel_regularizer, recurrent_regularizer, bias_regularizer,
                         kernel_constraint, recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                         **kwargs)
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape):
        self._build_weights(input_shape)

    def call(self, inputs, states, training=None):
        prev_output = states[0] if isinstance(states, (list, tuple)) else states
        dp_mask = self.get_dropout_mask_for_cell(inputs, training)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(prev_output, training)
        h = K.dot(inputs * dp_mask if dp_mask is not None else inputs, self.kernel)
        if self.bias is not None:
            h = K.bias_add(h, self.bias)
        if rec_dp_mask is not None:
            prev_output = prev_output * rec_dp_mask
        output = h + K.dot(prev_output, self.recurrent_kernel)
        if self.activation is not None:
            output = self.activation(output)
        return output, ([output] if isinstance(states, (list, tuple)) else output)

    def get_config(self):
        config = _cell_config(self, {})
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class GRUCell(_BaseCell):
    """The cell of a gated recurrent unit (TF 1.15 `tf.keras.layers.GRUCell`; gates z, r, h).

    With `reset_after=False` (default, as TF 1.15) the reset gate multiplies the previous state
    before the recurrent kernel; with `reset_after=True` (CuDNN-compatible) it multiplies the
    recurrent product, and the bias has shape `(2, 3 * units)` (input and recurrent biases).

    Args:
      units: Positive integer, the output and state size.
      activation: Activation of the candidate state (default tanh).
      recurrent_activation: Activation of the gates (default hard_sigmoid).
      use_bias, initializers, regularizers, constraints, dropout, recurrent_dropout: As
        `SimpleRNNCell`.
      implementation: 1 (one dropout mask per gate) or 2 (one mask shared by the gates).
      reset_after: Where the reset gate applies (see above).

    Raises:
      ValueError: If `units` is not positive or `implementation` is not 1 or 2.
    """

    _GATES = 3

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.,
                 recurrent_dropout=0., implementation=1, reset_after=False, **kwargs):
        from .. import activations
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer,
                         bias_initializer, kernel_regularizer, recurrent_regularizer, bias_regularizer,
                         kernel_constraint, recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                         **kwargs)
        if implementation not in (1, 2):
            raise ValueError("`implementation` must be 1 or 2, got " + str(implementation) + ".")
        self.recurrent_activation = activations.get(recurrent_activation)
        self.implementation = implementation
        self.reset_after = reset_after
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape):
        self._build_weights(input_shape, bias_shape=(2, 3 * self.units) if self.reset_after else None)

    def call(self, inputs, states, training=None):
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        u = self.units
        dp = self.get_dropout_mask_for_cell(inputs, training, count=3)
        rec_dp = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=3)
        if dp is not None and self.implementation == 2:
            dp = [dp[0]] * 3
        if rec_dp is not None and self.implementation == 2:
            rec_dp = [rec_dp[0]] * 3
        x_in = [inputs * m for m in dp] if dp is not None else [inputs] * 3
        h_in = [h_tm1 * m for m in rec_dp] if rec_dp is not None else [h_tm1] * 3
        if self.use_bias:
            input_bias, recurrent_bias = (self.bias[0], self.bias[1]) if self.reset_after else (self.bias, None)
        x_z = K.dot(x_in[0], self.kernel[:, :u])
        x_r = K.dot(x_in[1], self.kernel[:, u:2 * u])
        x_h = K.dot(x_in[2], self.kernel[:, 2 * u:])
        if self.use_bias:
            x_z = K.bias_add(x_z, input_bias[:u])
            x_r = K.bias_add(x_r, input_bias[u:2 * u])
            x_h = K.bias_add(x_h, input_bias[2 * u:])
        recurrent_z = K.dot(h_in[0], self.recurrent_kernel[:, :u])
        recurrent_r = K.dot(h_in[1], self.recurrent_kernel[:, u:2 * u])
        if self.reset_after and self.use_bias:
            recurrent_z = K.bias_add(recurrent_z, recurrent_bias[:u])
            recurrent_r = K.bias_add(recurrent_r, recurrent_bias[u:2 * u])
        z = self.recurrent_activation(x_z + recurrent_z)
        r = self.recurrent_activation(x_r + recurrent_r)
        if self.reset_after:
            recurrent_h = K.dot(h_in[2], self.recurrent_kernel[:, 2 * u:])
            if self.use_bias:
                recurrent_h = K.bias_add(recurrent_h, recurrent_bias[2 * u:])
            recurrent_h = r * recurrent_h
        else:
            recurrent_h = K.dot(r * h_in[2], self.recurrent_kernel[:, 2 * u:])
        hh = self.activation(x_h + recurrent_h)
        h = z * h_tm1 + (1 - z) * hh
        return h, ([h] if isinstance(states, (list, tuple)) else h)

    def get_config(self):
        config = _cell_config(self, {})
        config.update({"implementation": self.implementation, "reset_after": self.reset_after})
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class LSTMCell(_BaseCell):
    """The cell of a long short-term memory layer (TF 1.15 `tf.keras.layers.LSTMCell`; gates i, f, c, o).

    Its state is `[h, c]`; `h = o * activation(c)` is also the output.

    Args:
      units: Positive integer, the output and state size.
      activation: Activation of the cell input and output (default tanh).
      recurrent_activation: Activation of the gates (default hard_sigmoid).
      use_bias, initializers, regularizers, constraints, dropout, recurrent_dropout: As
        `SimpleRNNCell`.
      unit_forget_bias: Whether the forget gate's bias starts at 1 (the rest from `bias_initializer`).
      implementation: 1 (one dropout mask per gate) or 2 (one mask shared by the gates).

    Raises:
      ValueError: If `units` is not positive or `implementation` is not 1 or 2.
    """

    _GATES = 4

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.,
                 recurrent_dropout=0., implementation=1, **kwargs):
        from .. import activations
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer,
                         bias_initializer, kernel_regularizer, recurrent_regularizer, bias_regularizer,
                         kernel_constraint, recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                         **kwargs)
        if implementation not in (1, 2):
            raise ValueError("`implementation` must be 1 or 2, got " + str(implementation) + ".")
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias
        self.implementation = implementation
        self.state_size = [self.units, self.units]
        self.output_size = self.units

    def build(self, input_shape):
        bias_initializer = None
        if self.use_bias and self.unit_forget_bias:
            base = self.bias_initializer
            units = self.units

            def bias_initializer(shape, dtype=None, partition_info=None):
                ones = tf.constant(np.ones(units), dtype=dtype)
                return tf.concat([tf.convert_to_tensor(base((units,), dtype=dtype)), ones,
                                  tf.convert_to_tensor(base((2 * units,), dtype=dtype))], 0)
        self._build_weights(input_shape, bias_initializer=bias_initializer)

    def call(self, inputs, states, training=None):
        h_tm1, c_tm1 = states[0], states[1]
        u = self.units
        dp = self.get_dropout_mask_for_cell(inputs, training, count=4)
        rec_dp = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=4)
        if dp is not None and self.implementation == 2:
            dp = [dp[0]] * 4
        if rec_dp is not None and self.implementation == 2:
            rec_dp = [rec_dp[0]] * 4
        x_in = [inputs * m for m in dp] if dp is not None else [inputs] * 4
        h_in = [h_tm1 * m for m in rec_dp] if rec_dp is not None else [h_tm1] * 4
        z = []
        for gate in range(4):
            x = K.dot(x_in[gate], self.kernel[:, gate * u:(gate + 1) * u])
            if self.use_bias:
                x = K.bias_add(x, self.bias[gate * u:(gate + 1) * u])
            z.append(x + K.dot(h_in[gate], self.recurrent_kernel[:, gate * u:(gate + 1) * u]))
        i = self.recurrent_activation(z[0])
        f = self.recurrent_activation(z[1])
        c = f * c_tm1 + i * self.activation(z[2])
        o = self.recurrent_activation(z[3])
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self):
        config = _cell_config(self, {"unit_forget_bias": self.unit_forget_bias})
        config["implementation"] = self.implementation
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class StackedRNNCells(Layer):
    """Cells run one after the other at each time step, as one cell (the input of each cell is the
    output of the previous one; the states are those of all cells, in order).

    Args:
      cells: A list of RNN cells.

    Raises:
      ValueError: If a cell has no `call` method or no `state_size`.
    """

    def __init__(self, cells, **kwargs):
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError("All cells must have a `call` method. received cells:", cells)
            if "state_size" not in dir(cell):
                raise ValueError("All cells must have a `state_size` attribute. received cells:", cells)
        if kwargs.pop("reverse_state_order", False):
            raise NotImplementedError("StackedRNNCells(reverse_state_order=True) is not supported.")
        super().__init__(**kwargs)
        self.cells = list(cells)

    @property
    def state_size(self):
        """The state sizes of the cells, in order (a tuple)."""
        return tuple(c.state_size for c in self.cells)

    @property
    def output_size(self):
        """The output size of the last cell."""
        last = self.cells[-1]
        if getattr(last, "output_size", None) is not None:
            return last.output_size
        return last.state_size[0] if _is_multiple_state(last.state_size) else last.state_size

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """The flat list of the cells' zero states."""
        states = []
        for cell in self.cells:
            fn = getattr(cell, "get_initial_state", None)
            if fn is not None:
                state = fn(inputs=inputs, batch_size=batch_size, dtype=dtype)
                states.extend(state if isinstance(state, (list, tuple)) else [state])
            else:
                if inputs is not None:
                    batch_size, dtype = tf.shape(inputs)[0], inputs.dtype
                states.extend(_zero_state(batch_size, cell.state_size, dtype))
        return states

    def build(self, input_shape):
        input_shape = tuple(tf.TensorShape(input_shape).as_list())
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                if cell._dtype is None:
                    cell._dtype = self._dtype
                with tf.name_scope(cell.name):
                    cell.build(input_shape)
                    cell.built = True
            if getattr(cell, "output_size", None) is not None:
                output_dim = cell.output_size
            elif _is_multiple_state(cell.state_size):
                output_dim = cell.state_size[0]
            else:
                output_dim = cell.state_size
            input_shape = (input_shape[0],) + tuple(_dims(output_dim))
        self.built = True

    def call(self, inputs, states, training=None, **kwargs):
        states = list(states) if isinstance(states, (list, tuple)) else [states]
        new_states = []
        for cell in self.cells:
            n = len(_flat_state_sizes(cell.state_size))
            cell_states, states = states[:n], states[n:]
            cell_kwargs = dict(kwargs)
            if has_arg(cell.call, "training"):
                cell_kwargs["training"] = training
            inputs, cell_new = cell.call(inputs, cell_states, **cell_kwargs)
            new_states.extend(cell_new if isinstance(cell_new, (list, tuple)) else [cell_new])
        return inputs, new_states

    def get_config(self):
        config = {"cells": [_serialize_layer(cell) for cell in self.cells]}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Re-creates the stacked cells from `get_config()`."""
        config = dict(config)
        cells = [_deserialize_layer(c, custom_objects=custom_objects) for c in config.pop("cells")]
        return cls(cells, **config)


def _reset_dropout_masks(cell):
    if isinstance(cell, DropoutRNNCellMixin):
        cell.reset_dropout_mask()
        cell.reset_recurrent_dropout_mask()
    for sub in getattr(cell, "cells", []):
        _reset_dropout_masks(sub)


class RNN(Layer):
    """Base class of recurrent layers: runs `cell` over the time steps of its input.

    Args:
      cell: An RNN cell (`call(input_t, states)` -> `(output_t, new_states)`, `state_size`, optional
        `output_size` and `get_initial_state`), or a list of cells (stacked with `StackedRNNCells`).
      return_sequences: Whether to return the outputs of all steps `(batch, time, units)` or the last.
      return_state: Whether to also return the final states (the output is then a list).
      go_backwards: Whether to process the sequence backwards (and return the reversed sequence).
      stateful: Whether the final states of a batch are the initial states of the next batch
        (requires a fixed batch size: `batch_input_shape` / `batch_size` / an `Input(batch_shape)`).
      unroll: Accepted; the loop is the same symbolic loop (it requires a known number of steps).
      time_major: Whether inputs and outputs are `(time, batch, ...)`.
      zero_output_for_mask: Whether masked steps output zeros instead of the previous output.
      **kwargs: Base `Layer` arguments; `input_dim`/`input_length` give `input_shape`.

    Call arguments:
      inputs: A tensor `(batch, time, ...)`, or a list `[inputs, *initial_states]`.
      mask: Optional boolean `(batch, time)`: masked steps keep the states and repeat the output.
      training: Whether dropout applies (default: the learning phase).
      initial_state: Optional list of initial state tensors.

    Raises:
      ValueError: If `cell` has no `call` method or `state_size`.
    """

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, time_major=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell):
            raise ValueError("`cell` should have a `call` method. The RNN was passed:", cell)
        if "state_size" not in dir(cell):
            raise ValueError("The RNN cell should have an attribute `state_size` (tuple of integers, one integer "
                             "per RNN state).")
        self.zero_output_for_mask = kwargs.pop("zero_output_for_mask", False)
        if kwargs.pop("num_constants", 0):
            raise NotImplementedError("RNN `constants` are not supported.")
        if "input_shape" not in kwargs and ("input_dim" in kwargs or "input_length" in kwargs):
            kwargs["input_shape"] = (kwargs.pop("input_length", None), kwargs.pop("input_dim", None))
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.time_major = time_major
        self.supports_masking = True
        self.input_spec = None
        self._states = None

    @property
    def states(self):
        """The state variables of a stateful layer (a list; entries None before it is built)."""
        if self._states is None:
            return [None] * len(_flat_state_sizes(self.cell.state_size))
        return self._states

    @states.setter
    def states(self, states):
        self._states = states

    def compute_output_shape(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = tf.TensorShape(input_shape).as_list()
        batch, time = (dims[1], dims[0]) if self.time_major else (dims[0], dims[1])
        output_size = getattr(self.cell, "output_size", None)
        if output_size is None:
            output_size = _flat_state_sizes(self.cell.state_size)[0]
        if self.return_sequences:
            lead = [time, batch] if self.time_major else [batch, time]
            output_shape = tf.TensorShape(lead + _dims(output_size))
        else:
            output_shape = tf.TensorShape([batch] + _dims(output_size))
        if self.return_state:
            return [output_shape] + [tf.TensorShape([batch] + _dims(s))
                                     for s in _flat_state_sizes(self.cell.state_size)]
        return output_shape

    def compute_mask(self, inputs, mask):
        if isinstance(mask, list):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None for _ in self.states]
        return output_mask

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = tf.TensorShape(input_shape).as_list()
        if len(dims) < 3:
            raise ValueError("Input 0 of layer " + self.name + " is incompatible with the layer: expected "
                             "min_ndim=3, found ndim=" + str(len(dims)) + ". Full shape received: " + str(dims))
        batch_index, time_index = (1, 0) if self.time_major else (0, 1)
        spec = list(dims)
        if not self.stateful:
            spec[batch_index] = None
        spec[time_index] = None
        if self.input_spec is not None:
            self.input_spec[0] = InputSpec(shape=tuple(spec))
        else:
            self.input_spec = [InputSpec(shape=tuple(spec))]
        step_input_shape = tuple(dims[1:]) if self.time_major else (dims[0],) + tuple(dims[2:])
        if isinstance(self.cell, Layer) and not self.cell.built:
            if self.cell._dtype is None:
                self.cell._dtype = self._dtype
            self.cell.build(step_input_shape)
            self.cell.built = True
        if self.stateful:
            self.reset_states()
        self.built = True

    def get_initial_state(self, inputs):
        """Zero initial states for `inputs` (a flat list of tensors)."""
        batch_size = tf.shape(inputs)[1 if self.time_major else 0]
        fn = getattr(self.cell, "get_initial_state", None)
        if fn is not None:
            state = fn(inputs=None, batch_size=batch_size, dtype=inputs.dtype)
        else:
            state = _zero_state(batch_size, self.cell.state_size, inputs.dtype)
        return list(state) if isinstance(state, (list, tuple)) else [state]

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        """Applies the layer; `initial_state` may be given here or as `[inputs, *states]`.

        Raises:
          NotImplementedError: If `constants` are given.
          ValueError: If `initial_state` mixes Keras and non-Keras tensors.
        """
        if constants is not None:
            raise NotImplementedError("RNN `constants` are not supported.")
        if isinstance(inputs, list):
            if initial_state is not None:
                raise ValueError("Pass the initial state either in the inputs list or as `initial_state`, "
                                 "not both.")
            if len(inputs) > 1:
                initial_state = inputs[1:]
            inputs = inputs[0]
        if initial_state is not None and not isinstance(initial_state, (list, tuple)):
            initial_state = [initial_state]
        if initial_state is None:
            return super().__call__(inputs, **kwargs)
        initial_state = list(initial_state)
        keras_flags = {is_keras_tensor(s) for s in initial_state}
        if len(keras_flags) > 1:
            raise ValueError("The initial state or constants of an RNN layer cannot be specified with a mix of "
                             "Keras tensors and non-Keras tensors (a \"Keras tensor\" is a tensor that was "
                             "returned by a Keras layer, or by `Input`)")
        if keras_flags == {True}:
            # The states become inputs of the node, so functional models see the connection.
            own_spec = self.input_spec[:1] if self.input_spec else [None]
            self.input_spec = list(own_spec) + [None] * len(initial_state)
            try:
                return super().__call__([inputs] + initial_state, **kwargs)
            finally:
                self.input_spec = self.input_spec[:1] if self.input_spec[0] is not None else None
        kwargs["initial_state"] = initial_state
        return super().__call__(inputs, **kwargs)

    def _process_inputs(self, inputs, initial_state):
        if isinstance(inputs, list):
            initial_state = inputs[1:] or None
            inputs = inputs[0]
        if self.stateful:
            stored = [tf.identity(s) for s in self.states]
            if initial_state is not None:
                # The recorded states win once they are not all zeros (as Keras).
                any_set = tf.reduce_sum(tf.add_n([tf.reduce_sum(tf.abs(s)) for s in stored])) > 0
                given = list(initial_state)
                initial_state = [tf.cond(any_set, lambda s=s: s, lambda g=g: tf.cast(g, s.dtype))
                                 for s, g in zip(stored, given)]
            else:
                initial_state = stored
        elif initial_state is None:
            initial_state = self.get_initial_state(inputs)
        initial_state = list(initial_state)
        if len(initial_state) != len(self.states):
            raise ValueError("Layer has " + str(len(self.states)) + " states but was passed " +
                             str(len(initial_state)) + " initial states.")
        return inputs, [tf.cast(s, inputs.dtype) if s.dtype.base_dtype != inputs.dtype.base_dtype else s
                        for s in initial_state]

    def call(self, inputs, mask=None, training=None, initial_state=None):
        inputs, initial_state = self._process_inputs(inputs, initial_state)
        _reset_dropout_masks(self.cell)
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        timesteps = K.int_shape(inputs)[0 if self.time_major else 1]
        if self.unroll and timesteps is None:
            raise ValueError("Cannot unroll a RNN if the time dimension is undefined. \n"
                             "- If using a Sequential model, specify the time dimension by passing an "
                             "`input_shape` or `batch_input_shape` argument to your first layer. If your first "
                             "layer is an Embedding, you can also use the `input_length` argument.\n"
                             "- If using the functional API, specify the time dimension by passing a `shape` or "
                             "`batch_shape` argument to your Input layer.")
        cell_kwargs = {"training": training} if has_arg(self.cell.call, "training") else {}

        def step(step_inputs, states):
            states = list(states)
            cell_states = states if _is_multiple_state(self.cell.state_size) or \
                isinstance(self.cell, Layer) else states[0]
            output, new_states = self.cell.call(step_inputs, cell_states, **cell_kwargs)
            if not isinstance(new_states, (list, tuple)):
                new_states = [new_states]
            return output, list(new_states)

        last_output, outputs, states = K.rnn(step, inputs, initial_state, go_backwards=self.go_backwards,
                                             mask=mask, unroll=self.unroll, input_length=timesteps,
                                             time_major=self.time_major,
                                             zero_output_for_mask=self.zero_output_for_mask)
        if self.stateful:
            self.add_update([tf.assign(var, tf.cast(state, var.dtype)) for var, state in zip(self.states, states)])
        output = outputs if self.return_sequences else last_output
        if self.return_state:
            return [output] + list(states)
        return output

    def reset_states(self, states=None):
        """Resets the state variables of a stateful layer to zeros, or to `states`.

        Args:
          states: Optional NumPy array(s), one per state, shaped `(batch_size, state_size)`.

        Raises:
          AttributeError: If the layer is not stateful.
          ValueError: If the batch size is unknown, or `states` do not match the layer's states.
        """
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        spec_shape = None if not self.input_spec or self.input_spec[0] is None else self.input_spec[0].shape
        batch_size = None if spec_shape is None else spec_shape[1 if self.time_major else 0]
        if not batch_size:
            raise ValueError("If a RNN is stateful, it needs to know its batch size. Specify the batch size of "
                             "your input tensors: \n- If using a Sequential model, specify the batch size by "
                             "passing a `batch_input_shape` argument to your first layer.\n- If using the "
                             "functional API, specify the batch size by passing a `batch_shape` argument to "
                             "your Input layer.")
        sizes = _flat_state_sizes(self.cell.state_size)
        dtype = self._dtype or K.floatx()
        if self._states is None:
            self._states = [K.zeros([batch_size] + _dims(size), dtype=dtype) for size in sizes]
        if states is None:
            K.batch_set_value([(var, np.zeros([batch_size] + _dims(size)))
                               for var, size in zip(self._states, sizes)])
            return
        if not isinstance(states, (list, tuple)):
            states = [states]
        if len(states) != len(self._states):
            raise ValueError("Layer " + self.name + " expects " + str(len(self._states)) + " states, but it "
                             "received " + str(len(states)) + " state values. Input received: " + str(states))
        pairs = []
        for index, (value, var) in enumerate(zip(states, self._states)):
            value = np.asarray(value)
            expected = tuple(K.int_shape(var))
            if value.shape != expected:
                raise ValueError("State " + str(index) + " is incompatible with layer " + self.name +
                                 ": expected shape=" + str(expected) + ", found shape=" + str(value.shape))
            pairs.append((var, value))
        K.batch_set_value(pairs)

    def get_config(self):
        config = {"return_sequences": self.return_sequences, "return_state": self.return_state,
                  "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": self.unroll,
                  "time_major": self.time_major}
        if self.zero_output_for_mask:
            config["zero_output_for_mask"] = self.zero_output_for_mask
        config["cell"] = _serialize_layer(self.cell)
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Re-creates the layer (and its cell) from `get_config()`."""
        config = dict(config)
        cell = _deserialize_layer(config.pop("cell"), custom_objects=custom_objects)
        return cls(cell, **config)


_CELL_PROPERTIES = ("units", "activation", "use_bias", "kernel_initializer", "recurrent_initializer",
                    "bias_initializer", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
                    "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout")


class _CellLayer(RNN):
    """An `RNN` with a built-in cell, whose arguments it exposes and serializes flat."""

    _CELL = None
    _CELL_NAME = None
    _EXTRA = ()

    def __init__(self, cell_args, activity_regularizer=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, **kwargs):
        from .. import regularizers
        kwargs.pop("cell", None)
        cell = self._CELL(dtype=kwargs.get("dtype"), trainable=kwargs.get("trainable", True),
                          name=self._CELL_NAME, **cell_args)
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll, **kwargs)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.input_spec = [InputSpec(ndim=3)]

    def call(self, inputs, mask=None, training=None, initial_state=None):
        return super().call(inputs, mask=mask, training=training, initial_state=initial_state)

    def __getattr__(self, name):
        cell = self.__dict__.get("cell")
        if cell is not None and (name in _CELL_PROPERTIES or name in type(self)._EXTRA):
            return getattr(cell, name)
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def get_config(self):
        from .. import regularizers
        config = {k: v for k, v in self.cell.get_config().items() if k not in ("name", "trainable", "dtype")}
        config["activity_regularizer"] = _serialize(regularizers, self.activity_regularizer)
        base = super().get_config()
        del base["cell"]
        return dict(list(base.items()) + list(config.items()))

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Re-creates the layer from `get_config()`."""
        return cls(**config)


class SimpleRNN(_CellLayer):
    """A fully-connected RNN whose output is fed back as its input: `SimpleRNNCell` in an `RNN`.

    Args:
      units: Positive integer, the output size.
      activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
      kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
      recurrent_constraint, bias_constraint, dropout, recurrent_dropout: As `SimpleRNNCell`.
      activity_regularizer: Optional regularizer of the outputs.
      return_sequences, return_state, go_backwards, stateful, unroll: As `RNN`.
      **kwargs: Base `Layer` arguments.

    Raises:
      ValueError: If `units` is not positive; at call time, for an input whose rank is not 3.
    """

    _CELL = SimpleRNNCell
    _CELL_NAME = "simple_rnn_cell"

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.,
                 recurrent_dropout=0., return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, **kwargs):
        kwargs.pop("implementation", None)
        cell_args = dict(units=units, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                         recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
                         kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
                         bias_constraint=bias_constraint, dropout=dropout, recurrent_dropout=recurrent_dropout)
        super().__init__(cell_args, activity_regularizer, return_sequences, return_state, go_backwards, stateful,
                         unroll, **kwargs)


class GRU(_CellLayer):
    """Gated recurrent unit (TF 1.15 `tf.keras.layers.GRU`): `GRUCell` in an `RNN`.

    Args:
      units: Positive integer, the output size.
      activation, recurrent_activation, use_bias, initializers, regularizers, constraints, dropout,
      recurrent_dropout, implementation, reset_after: As `GRUCell` (`reset_after=False` by default).
      activity_regularizer: Optional regularizer of the outputs.
      return_sequences, return_state, go_backwards, stateful, unroll: As `RNN`.
      **kwargs: Base `Layer` arguments.

    Raises:
      ValueError: If `units` is not positive; at call time, for an input whose rank is not 3.
    """

    _CELL = GRUCell
    _CELL_NAME = "gru_cell"
    _EXTRA = ("recurrent_activation", "implementation", "reset_after")

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0., recurrent_dropout=0., implementation=1, return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, unroll=False, reset_after=False,
                 **kwargs):
        cell_args = dict(units=units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
                         bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                         recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint,
                         dropout=dropout, recurrent_dropout=recurrent_dropout, implementation=implementation,
                         reset_after=reset_after)
        super().__init__(cell_args, activity_regularizer, return_sequences, return_state, go_backwards, stateful,
                         unroll, **kwargs)


class LSTM(_CellLayer):
    """Long short-term memory layer (TF 1.15 `tf.keras.layers.LSTM`): `LSTMCell` in an `RNN`.

    Args:
      units: Positive integer, the output size.
      activation, recurrent_activation, use_bias, initializers, unit_forget_bias, regularizers,
      constraints, dropout, recurrent_dropout, implementation: As `LSTMCell`.
      activity_regularizer: Optional regularizer of the outputs.
      return_sequences, return_state, go_backwards, stateful, unroll: As `RNN` (with `return_state`
      the states are `[h, c]`).
      **kwargs: Base `Layer` arguments.

    Raises:
      ValueError: If `units` is not positive; at call time, for an input whose rank is not 3.
    """

    _CELL = LSTMCell
    _CELL_NAME = "lstm_cell"
    _EXTRA = ("recurrent_activation", "unit_forget_bias", "implementation")

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0., recurrent_dropout=0., implementation=1, return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, unroll=False, **kwargs):
        cell_args = dict(units=units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
                         unit_forget_bias=unit_forget_bias, kernel_regularizer=kernel_regularizer,
                         recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
                         kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
                         bias_constraint=bias_constraint, dropout=dropout, recurrent_dropout=recurrent_dropout,
                         implementation=implementation)
        super().__init__(cell_args, activity_regularizer, return_sequences, return_state, go_backwards, stateful,
                         unroll, **kwargs)
