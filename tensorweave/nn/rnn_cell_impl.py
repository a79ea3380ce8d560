"""The TF1 RNN cells of `tf.nn.rnn_cell` (TF 1.15's `rnn_cell_impl`).

A cell is a `tf.layers.Layer` called as `cell(inputs, state, scope=None) -> (output, new_state)`.
Its variables are made on the first call, under the cell's variable scope (`rnn/basic_lstm_cell/kernel`,
`rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias`, ...), so the names and shapes are TF's and a TF
checkpoint of the same model restores into it. Later calls reuse them. Every step is one matmul of the
concatenated `[inputs, state]` with the cell's kernel, as in TF.
"""

import collections
import hashlib
import inspect
import numbers

from ..framework import dtypes, ops, tensor_util
from ..framework.tensor_shape import TensorShape, as_shape, dimension_value
from ..layers.base import InputSpec, Layer
from ..layers.core import _activation
from ..ops import array_ops, clip_ops, init_ops, math_ops, nest, nn_ops, random_ops
from ..variable_scopes import get_variable_scope, variable_scope
from ..variables import trainable_variables

_BIAS_VARIABLE_NAME = "bias"
_WEIGHTS_VARIABLE_NAME = "kernel"

ASSERT_LIKE_RNNCELL_ERROR_REGEXP = "is not an RNNCell"


def _hasattr(obj, attr_name):
    try:
        getattr(obj, attr_name)
    except AttributeError:
        return False
    return True


def assert_like_rnncell(cell_name, cell):
    """Raises a TypeError if `cell` does not behave like an RNNCell.

    Args:
      cell_name: The argument's name, for the message.
      cell: The object that should behave like an RNNCell.

    Raises:
      TypeError: If `cell` lacks `output_size`, `state_size`, `zero_state`/`get_initial_state`, or
        is not callable.
    """
    conditions = [_hasattr(cell, "output_size"), _hasattr(cell, "state_size"),
                  _hasattr(cell, "get_initial_state") or _hasattr(cell, "zero_state"), callable(cell)]
    errors = ["'output_size' property is missing", "'state_size' property is missing",
              "either 'zero_state' or 'get_initial_state' method is required", "is not callable"]
    if not all(conditions):
        errors = [error for error, cond in zip(errors, conditions) if not cond]
        raise TypeError("The argument {!r} ({}) is not an RNNCell: {}.".format(cell_name, cell, ", ".join(errors)))


def _concat(prefix, suffix, static=False):
    """Concatenates two size specifications (int, TensorShape or Tensor).

    Returns a Python list with possibly unknown dimensions when `static`, else an int32 `Tensor`.

    Raises:
      ValueError: If a tensor is not a scalar or vector, or a static part is unknown when a tensor
        is asked for.
    """
    if ops.is_tensor(prefix):
        p = prefix
        p_static = tensor_util.constant_value(prefix)
        if p_static is None and p.shape.ndims == 0:
            p_static = [None]
        elif p_static is None and p.shape.ndims == 1 and dimension_value(p.shape[0]) is not None:
            p_static = [None] * dimension_value(p.shape[0])
        if p.shape.ndims == 0:
            p = array_ops.expand_dims(p, 0)
        elif p.shape.ndims != 1:
            raise ValueError("prefix tensor must be either a scalar or vector, but saw tensor: %s" % p)
    else:
        p = as_shape(prefix)
        p_static = p.as_list() if p.ndims is not None else None
        p = ops.convert_to_tensor(p.as_list(), dtype=dtypes.int32) if p.is_fully_defined() else None
    if ops.is_tensor(suffix):
        s = suffix
        s_static = tensor_util.constant_value(suffix)
        if s.shape.ndims == 0:
            s = array_ops.expand_dims(s, 0)
        elif s.shape.ndims != 1:
            raise ValueError("suffix tensor must be either a scalar or vector, but saw tensor: %s" % s)
    else:
        s = as_shape(suffix)
        s_static = s.as_list() if s.ndims is not None else None
        s = ops.convert_to_tensor(s.as_list(), dtype=dtypes.int32) if s.is_fully_defined() else None
    if static:
        p_shape = TensorShape(None if p_static is None else [int(x) if x is not None else None
                                                              for x in _as_list(p_static)])
        s_shape = TensorShape(None if s_static is None else [int(x) if x is not None else None
                                                              for x in _as_list(s_static)])
        shape = p_shape.concatenate(s_shape)
        return shape.as_list() if shape.ndims is not None else None
    if p is None or s is None:
        raise ValueError("Provided a prefix or suffix of None: %s and %s" % (prefix, suffix))
    return array_ops.concat((p, s), 0)


def _as_list(value):
    if hasattr(value, "tolist"):
        value = value.tolist()
    return value if isinstance(value, (list, tuple)) else [value]


def _zero_state_tensors(state_size, batch_size, dtype):
    """Zeros of shape `[batch_size] + s` for each `s` in the nested `state_size`."""

    def get_state_shape(s):
        c = _concat(batch_size, s)
        size = array_ops.zeros(c, dtype=dtype)
        c_static = _concat(batch_size, s, static=True)
        if c_static is not None:
            size.set_shape(c_static)
        return size

    return nest.map_structure(get_state_shape, state_size)


def _check_supported_dtypes(dtype):
    if dtype is None:
        return
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_complex):
        raise ValueError("RNN cell only supports floating point inputs, but saw dtype: %s" % dtype)


def _check_rnn_cell_input_dtypes(inputs):
    for t in nest.flatten(inputs):
        _check_supported_dtypes(getattr(t, "dtype", None))


def _initializer(initializer):
    """Resolves an initializer argument: None, a callable/initializer, or a Keras name."""
    if initializer is None or callable(initializer):
        return initializer
    if isinstance(initializer, str):
        table = {"zeros": init_ops.zeros_initializer, "ones": init_ops.ones_initializer,
                 "glorot_uniform": init_ops.glorot_uniform_initializer,
                 "glorot_normal": init_ops.glorot_normal_initializer,
                 "orthogonal": init_ops.orthogonal_initializer}
        if initializer in table:
            return table[initializer]()
    raise ValueError("Could not interpret initializer identifier: " + str(initializer))


class RNNCell(Layer):
    """Abstract object representing an RNN cell (`tf.nn.rnn_cell.RNNCell`).

    Every `RNNCell` has the properties `state_size` and `output_size` and implements
    `call(inputs, state) -> (output, next_state)`. Variables made with `tf.get_variable` inside
    `call` are created on the first call, in the cell's variable scope, and reused afterwards.

    Args:
      trainable: Whether the cell's variables are trainable.
      name: The cell's name (its variable scope); default: the snake-cased class name.
      dtype: The cell's dtype; default: the dtype of the first inputs.
    """

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        super().__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)
        self._is_tf_rnn_cell = True
        self._rnncell_scope = None

    def __call__(self, inputs, state, scope=None):
        """Runs this RNN cell on `inputs`, starting from `state`.

        Args:
          inputs: `2-D` tensor with shape `[batch_size, input_size]`.
          state: A `2-D` tensor `[batch_size, self.state_size]` if `state_size` is an integer, else a
            (nested) tuple of tensors `[batch_size, s]` for each `s` in `self.state_size`.
          scope: VariableScope for the created subgraph; defaults to the class name.

        Returns:
          A pair `(output, new_state)`: output `[batch_size, self.output_size]`, and the new state
          with the structure of `state`.

        Raises:
          ValueError: On a variable reuse conflict or inputs that do not match the cell.
        """
        if scope is not None:
            with variable_scope(scope, custom_getter=self._rnn_get_variable) as scope:
                return self._layer_call(inputs, state, scope=scope)
        if self._rnncell_scope is None:
            self._rnncell_scope = get_variable_scope()
        with variable_scope(self._rnncell_scope, custom_getter=self._rnn_get_variable,
                            auxiliary_name_scope=False):
            return self._layer_call(inputs, state)

    def add_weight(self, name, shape, *args, **kwargs):
        """`tf.layers.Layer.add_weight`; a cell built explicitly before its first call gets its
        variable scope here, as TF's layers do.

        Returns:
          The variable.
        """
        self._set_scope(None)
        return super().add_weight(name, shape, *args, **kwargs)

    add_variable = add_weight

    def _rnn_get_variable(self, getter, *args, **kwargs):
        variable = getter(*args, **kwargs)
        trainable = any(variable is v for v in trainable_variables())
        if trainable and all(variable is not v for v in self._trainable_weights):
            self._trainable_weights.append(variable)
        elif not trainable and all(variable is not v for v in self._non_trainable_weights):
            self._non_trainable_weights.append(variable)
        return variable

    def _layer_call(self, inputs, state, scope=None, **kwargs):
        """`tf.layers.Layer.__call__` with the state as a second argument."""
        from ..layers.base import _add_elements_to_collection, _assert_input_compatibility
        if not ops.is_tensor(inputs) and not nest.is_nested(inputs):
            inputs = ops.convert_to_tensor(inputs)
        if ops.is_tensor(inputs):
            _assert_input_compatibility(self.input_spec, inputs, self.name)
        self._set_scope(scope)
        reuse = True if self.built else self._reuse
        with variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as vs:
            self._current_scope = vs
            with ops.name_scope(vs.original_name_scope or None):
                if not self.built:
                    flat = nest.flatten(inputs)
                    if self._dtype is None and flat and hasattr(flat[0], "dtype"):
                        self._dtype = dtypes.as_dtype(flat[0].dtype).base_dtype
                    self.build(nest.map_structure(lambda x: x.shape, inputs))
                    self.built = True
                if self._call_has_scope_arg():
                    kwargs["scope"] = vs
                outputs = self.call(inputs, state, **kwargs)
        _add_elements_to_collection(self._updates, ops.GraphKeys.UPDATE_OPS)
        return outputs

    def _call_has_scope_arg(self):
        try:
            return "scope" in inspect.signature(self.call).parameters
        except (TypeError, ValueError):
            return False

    @property
    def state_size(self):
        """size(s) of state(s) used by this cell: an int, a TensorShape, or a tuple of them."""
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        """Integer or TensorShape: size of outputs produced by this cell."""
        raise NotImplementedError("Abstract method")

    def build(self, _):
        """Cells that make their variables in `call` need no build step."""

    def call(self, inputs, state):
        """The cell's step: `(output, next_state)`."""
        raise NotImplementedError("Abstract method")

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """The zero state for `inputs` (their batch size and dtype), or for `batch_size` and `dtype`.

        Args:
          inputs: Optional tensor whose first dimension is the batch size.
          batch_size: int or scalar tensor.
          dtype: The state's dtype.

        Returns:
          The zero state (see `zero_state`).

        Raises:
          ValueError: If `batch_size`/`dtype` disagree with `inputs`, or are missing.
        """
        if inputs is not None:
            inputs = ops.convert_to_tensor(inputs, name="inputs")
            if batch_size is not None:
                static_batch_size = tensor_util.constant_value(batch_size) if ops.is_tensor(batch_size) \
                    else batch_size
                if dimension_value(inputs.shape[0]) != static_batch_size:
                    raise ValueError("batch size from input tensor is different from the input param. Input "
                                     "tensor batch: {}, batch_size: {}".format(dimension_value(inputs.shape[0]),
                                                                               batch_size))
            if dtype is not None and inputs.dtype != dtypes.as_dtype(dtype):
                raise ValueError("dtype from input tensor is different from the input param. Input tensor "
                                 "dtype: {}, dtype: {}".format(inputs.dtype, dtype))
            batch_size = dimension_value(inputs.shape[0]) or array_ops.shape(inputs)[0]
            dtype = inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError("batch_size and dtype cannot be None while constructing initial state: "
                             "batch_size={}, dtype={}".format(batch_size, dtype))
        return self.zero_state(batch_size, dtype)

    def zero_state(self, batch_size, dtype):
        """Returns zero-filled state tensor(s).

        Args:
          batch_size: int, float, or unit Tensor representing the batch size.
          dtype: the data type to use for the state.

        Returns:
          A tensor `[batch_size, state_size]` of zeros if `state_size` is an int or TensorShape, else
          a nested tuple of such tensors with the structure of `state_size` (an `LSTMStateTuple` for
          LSTM cells).
        """
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            return _zero_state_tensors(self.state_size, batch_size, dtype)


class LayerRNNCell(RNNCell):
    """An `RNNCell` that acts exactly as a `tf.layers.Layer`: it makes its variables in `build`,
    and `call` does not use `tf.get_variable`."""

    def __call__(self, inputs, state, scope=None, *args, **kwargs):
        """Runs this RNN cell on `inputs`, starting from `state` (see `RNNCell.__call__`).

        Args:
          inputs: `2-D` tensor with shape `[batch_size, input_size]`.
          state: The cell's state (a tensor or a tuple of tensors).
          scope: optional cell scope.
          *args: Additional positional arguments for `call`.
          **kwargs: Additional keyword arguments for `call`.

        Returns:
          A pair `(output, new_state)`.

        Raises:
          ValueError: On a variable reuse conflict or inputs that do not match the cell.
        """
        return self._layer_call(inputs, state, scope=scope, *args, **kwargs)


class _NumUnitsSizeMixin:
    """For cells whose `state_size` and `output_size` are both `self._num_units`."""

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units


class _LSTMTupleSizeMixin:
    """For LSTM cells with an `LSTMStateTuple(num_units, num_units)` state and `num_units` outputs."""

    @property
    def state_size(self):
        return LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self):
        return self._num_units


class _StoredSizeMixin:
    """For cells that compute `self._state_size` and `self._output_size` in `__init__`."""

    @property
    def state_size(self):
        return self._state_size

    @property
    def output_size(self):
        return self._output_size


class _WrappedCellMixin:
    """For wrappers holding their cell as `self._cell`: its `state_size`, `output_size` and zero state."""

    @property
    def state_size(self):
        return self._cell.state_size

    @property
    def output_size(self):
        return self._cell.output_size

    def zero_state(self, batch_size, dtype):
        """The wrapped cell's zero state."""
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)


def _static_input_size(inputs_shape):
    """The static depth of a rank-2 input shape.

    Raises:
      ValueError: If the shape is not rank 2 or its depth is unknown.
    """
    input_size = dimension_value(TensorShape(inputs_shape).with_rank(2)[1])
    if input_size is None:
        raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
    return input_size


def _lstm_sizes(num_units, num_proj, state_is_tuple=True):
    """`(state_size, output_size)` of an LSTM cell whose output is projected to `num_proj` when that
    is truthy: `LSTMStateTuple(num_units, output_size)`, or their sum for a concatenated state."""
    output_size = num_proj or num_units
    return (LSTMStateTuple(num_units, output_size) if state_is_tuple else num_units + output_size), output_size


def _need_known_depth(inputs_shape):
    inputs_shape = TensorShape(inputs_shape)
    depth = dimension_value(inputs_shape[-1]) if inputs_shape.ndims else None
    if depth is None:
        shape = tuple(inputs_shape.as_list()) if inputs_shape.ndims is not None else None
        raise ValueError("Expected inputs.shape[-1] to be known, saw shape: %s" % (shape,))
    return depth


class BasicRNNCell(_NumUnitsSizeMixin, LayerRNNCell):
    """The most basic RNN cell: `output = new_state = activation([inputs, state] @ kernel + bias)`.

    Args:
      num_units: int, The number of units in the RNN cell.
      activation: Nonlinearity to use (callable or Keras name). Default: `tanh`.
      reuse: (optional) Whether to reuse variables in an existing scope.
      name: String, the name of the layer.
      dtype: Default dtype of the layer (default: the dtype of the first input).
      **kwargs: Common layer attributes, like `trainable`.

    Raises:
      ValueError: If `dtype` is not a floating point or complex type.
    """

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        _check_supported_dtypes(self.dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = _activation(activation) if activation else math_ops.tanh

    def build(self, inputs_shape):
        input_depth = _need_known_depth(inputs_shape)
        _check_supported_dtypes(self.dtype)
        self._kernel = self.add_weight(_WEIGHTS_VARIABLE_NAME, shape=[input_depth + self._num_units, self._num_units])
        self._bias = self.add_weight(_BIAS_VARIABLE_NAME, shape=[self._num_units],
                                     initializer=init_ops.zeros_initializer(dtype=self._dtype))
        self.built = True

    def call(self, inputs, state):
        """Most basic RNN: output = new_state = act(W * input + U * state + B)."""
        _check_rnn_cell_input_dtypes([inputs, state])
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, state], 1), self._kernel)
        gate_inputs = nn_ops.bias_add(gate_inputs, self._bias)
        output = self._activation(gate_inputs)
        return output, output


class GRUCell(_NumUnitsSizeMixin, LayerRNNCell):
    """Gated Recurrent Unit cell (Cho et al., 2014).

    `r, u = sigmoid([x, h] @ gates/kernel + gates/bias)`, `c = act([x, r * h] @ candidate/kernel +
    candidate/bias)`, `new_h = u * h + (1 - u) * c`.

    Args:
      num_units: int, The number of units in the GRU cell.
      activation: Nonlinearity to use. Default: `tanh`.
      reuse: (optional) Whether to reuse variables in an existing scope.
      kernel_initializer: (optional) The initializer for the weight matrices.
      bias_initializer: (optional) The initializer for the biases (default: ones for the gates,
        zeros for the candidate).
      name: String, the name of the layer.
      dtype: Default dtype of the layer.
      **kwargs: Common layer attributes, like `trainable`.

    Raises:
      ValueError: If `dtype` is not a floating point or complex type.
    """

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None, bias_initializer=None,
                 name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        _check_supported_dtypes(self.dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = _activation(activation) if activation else math_ops.tanh
        self._kernel_initializer = _initializer(kernel_initializer)
        self._bias_initializer = _initializer(bias_initializer)

    def build(self, inputs_shape):
        input_depth = _need_known_depth(inputs_shape)
        _check_supported_dtypes(self.dtype)
        n = self._num_units
        self._gate_kernel = self.add_weight("gates/%s" % _WEIGHTS_VARIABLE_NAME, shape=[input_depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            "gates/%s" % _BIAS_VARIABLE_NAME, shape=[2 * n],
            initializer=(self._bias_initializer if self._bias_initializer is not None
                         else init_ops.constant_initializer(1.0, dtype=self._dtype)))
        self._candidate_kernel = self.add_weight("candidate/%s" % _WEIGHTS_VARIABLE_NAME,
                                                 shape=[input_depth + n, n], initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(
            "candidate/%s" % _BIAS_VARIABLE_NAME, shape=[n],
            initializer=(self._bias_initializer if self._bias_initializer is not None
                         else init_ops.zeros_initializer(dtype=self._dtype)))
        self.built = True

    def call(self, inputs, state):
        """Gated recurrent unit (GRU) with nunits cells."""
        _check_rnn_cell_input_dtypes([inputs, state])
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, state], 1), self._gate_kernel)
        gate_inputs = nn_ops.bias_add(gate_inputs, self._gate_bias)
        value = math_ops.sigmoid(gate_inputs)
        r, u = array_ops.split(value=value, num_or_size_splits=2, axis=1)
        r_state = r * state
        candidate = math_ops.matmul(array_ops.concat([inputs, r_state], 1), self._candidate_kernel)
        candidate = nn_ops.bias_add(candidate, self._candidate_bias)
        c = self._activation(candidate)
        new_h = u * state + (1 - u) * c
        return new_h, new_h


_LSTMStateTuple = collections.namedtuple("LSTMStateTuple", ("c", "h"))


class LSTMStateTuple(_LSTMStateTuple):
    """Tuple used by LSTM Cells for `state_size`, `zero_state`, and output state: `(c, h)`, in that
    order, where `c` is the hidden (memory) state and `h` the output. Only used when
    `state_is_tuple=True`."""
    __slots__ = ()

    @property
    def dtype(self):
        """The dtype of both parts.

        Raises:
          TypeError: If `c` and `h` have different dtypes.
        """
        (c, h) = self
        if c.dtype != h.dtype:
            raise TypeError("Inconsistent internal state: %s vs %s" % (str(c.dtype), str(h.dtype)))
        return c.dtype


class BasicLSTMCell(LayerRNNCell):
    """Basic LSTM recurrent network cell (no peepholes, clipping or projection).

    `i, j, f, o = split([x, h] @ kernel + bias, 4)`; `new_c = c * sigmoid(f + forget_bias) +
    sigmoid(i) * act(j)`; `new_h = act(new_c) * sigmoid(o)`.

    Args:
      num_units: int, The number of units in the LSTM cell.
      forget_bias: float, The bias added to forget gates.
      state_is_tuple: If True, states are `LSTMStateTuple(c, h)`; if False, `c` and `h` are
        concatenated along the column axis.
      activation: Activation function of the inner states. Default: `tanh`.
      reuse: (optional) Whether to reuse variables in an existing scope.
      name: String, the name of the layer.
      dtype: Default dtype of the layer.
      **kwargs: Common layer attributes, like `trainable`.

    Raises:
      ValueError: If `dtype` is not a floating point or complex type.
    """

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        _check_supported_dtypes(self.dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation) if activation else math_ops.tanh

    @property
    def state_size(self):
        return (LSTMStateTuple(self._num_units, self._num_units) if self._state_is_tuple else 2 * self._num_units)

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        input_depth = _need_known_depth(inputs_shape)
        _check_supported_dtypes(self.dtype)
        self._kernel = self.add_weight(_WEIGHTS_VARIABLE_NAME,
                                       shape=[input_depth + self._num_units, 4 * self._num_units])
        self._bias = self.add_weight(_BIAS_VARIABLE_NAME, shape=[4 * self._num_units],
                                     initializer=init_ops.zeros_initializer(dtype=self._dtype))
        self.built = True

    def call(self, inputs, state):
        """Long short-term memory cell (LSTM).

        Args:
          inputs: `2-D` tensor with shape `[batch_size, input_size]`.
          state: An `LSTMStateTuple` of `[batch_size, num_units]` tensors if `state_is_tuple`, else a
            `[batch_size, 2 * num_units]` tensor.

        Returns:
          A pair `(new_h, new_state)`.
        """
        _check_rnn_cell_input_dtypes([inputs, state])
        sigmoid = math_ops.sigmoid
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = array_ops.split(value=state, num_or_size_splits=2, axis=1)
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, h], 1), self._kernel)
        gate_inputs = nn_ops.bias_add(gate_inputs, self._bias)
        i, j, f, o = array_ops.split(value=gate_inputs, num_or_size_splits=4, axis=1)
        forget_bias_tensor = ops.convert_to_tensor(self._forget_bias, dtype=f.dtype)
        new_c = math_ops.add(math_ops.multiply(c, sigmoid(math_ops.add(f, forget_bias_tensor))),
                             math_ops.multiply(sigmoid(i), self._activation(j)))
        new_h = math_ops.multiply(self._activation(new_c), sigmoid(o))
        if self._state_is_tuple:
            new_state = LSTMStateTuple(new_c, new_h)
        else:
            new_state = array_ops.concat([new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(_StoredSizeMixin, LayerRNNCell):
    """Long short-term memory unit (LSTM) recurrent network cell, with optional peepholes
    (`w_f_diag`, `w_i_diag`, `w_o_diag`), cell clipping and a projection (`projection/kernel`).

    Args:
      num_units: int, The number of units in the LSTM cell.
      use_peepholes: bool, set True to enable diagonal/peephole connections.
      cell_clip: (optional) float; the cell state is clipped to `[-cell_clip, cell_clip]` before
        the output activation.
      initializer: (optional) The initializer of the weight and projection matrices.
      num_proj: (optional) int, the output dimensionality of the projection; None: no projection.
      proj_clip: (optional) float; the projected output is clipped to `[-proj_clip, proj_clip]`.
      num_unit_shards: Deprecated; only None or 1 is supported.
      num_proj_shards: Deprecated; only None or 1 is supported.
      forget_bias: The bias added to the forget gate.
      state_is_tuple: If True, states are `LSTMStateTuple(c, m)`; if False, concatenated.
      activation: Activation function of the inner states. Default: `tanh`.
      reuse: (optional) Whether to reuse variables in an existing scope.
      name: String, the name of the layer.
      dtype: Default dtype of the layer.
      **kwargs: Common layer attributes, like `trainable`.

    Raises:
      NotImplementedError: For `num_unit_shards` or `num_proj_shards` above 1 (partitioned
        variables).
      ValueError: If `dtype` is not a floating point or complex type.
    """

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None, num_proj=None,
                 proj_clip=None, num_unit_shards=None, num_proj_shards=None, forget_bias=1.0, state_is_tuple=True,
                 activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        _check_supported_dtypes(self.dtype)
        for arg, value in (("num_unit_shards", num_unit_shards), ("num_proj_shards", num_proj_shards)):
            if value not in (None, 1):
                raise NotImplementedError("LSTMCell: %s=%r needs partitioned variables, which tensorweave does not "
                                          "support; use None or 1." % (arg, value))
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = _initializer(initializer)
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._num_unit_shards = num_unit_shards
        self._num_proj_shards = num_proj_shards
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation) if activation else math_ops.tanh
        self._state_size, self._output_size = _lstm_sizes(num_units, num_proj, state_is_tuple)

    def build(self, inputs_shape):
        input_depth = _need_known_depth(inputs_shape)
        _check_supported_dtypes(self.dtype)
        h_depth = self._num_units if self._num_proj is None else self._num_proj
        self._kernel = self.add_weight(_WEIGHTS_VARIABLE_NAME, shape=[input_depth + h_depth, 4 * self._num_units],
                                       initializer=self._initializer)
        self._bias = self.add_weight(_BIAS_VARIABLE_NAME, shape=[4 * self._num_units],
                                     initializer=init_ops.zeros_initializer(dtype=self._dtype))
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", shape=[self._num_units], initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", shape=[self._num_units], initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", shape=[self._num_units], initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight("projection/%s" % _WEIGHTS_VARIABLE_NAME,
                                                shape=[self._num_units, self._num_proj], initializer=self._initializer)
        self.built = True

    def call(self, inputs, state):
        """Runs one step of LSTM.

        Args:
          inputs: input Tensor, 2-D, `[batch, input_size]`.
          state: an `LSTMStateTuple(c, m)` if `state_is_tuple`, else a `[batch, state_size]` tensor.

        Returns:
          A pair `(m, new_state)`; `m` is `[batch, num_proj or num_units]`.

        Raises:
          ValueError: If the input size cannot be inferred from the static shape of `inputs`.
        """
        _check_rnn_cell_input_dtypes([inputs, state])
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        sigmoid = math_ops.sigmoid
        if self._state_is_tuple:
            (c_prev, m_prev) = state
        else:
            c_prev = array_ops.slice(state, [0, 0], [-1, self._num_units])
            m_prev = array_ops.slice(state, [0, self._num_units], [-1, num_proj])
        _static_input_size(inputs.shape)
        lstm_matrix = math_ops.matmul(array_ops.concat([inputs, m_prev], 1), self._kernel)
        lstm_matrix = nn_ops.bias_add(lstm_matrix, self._bias)
        i, j, f, o = array_ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
        if self._use_peepholes:
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev
                 + sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = clip_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = math_ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = clip_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else array_ops.concat([c, m], 1)
        return m, new_state


# ---- wrappers --------------------------------------------------------------------------------
class _RNNCellWrapper(RNNCell):
    """Base of the cell wrappers: calling the wrapper calls the wrapped cell's `__call__` (so the
    variables are the wrapped cell's, named by its own scope) with the wrapper's logic around it."""

    def __init__(self, cell, *args, **kwargs):
        super().__init__(*args, **kwargs)
        assert_like_rnncell("cell", cell)
        self.cell = cell

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        raise NotImplementedError

    def __call__(self, inputs, state, scope=None):
        """Runs the wrapped cell's step with the wrapper's logic (see `RNNCell.__call__`).

        Args:
          inputs: A tensor with the wrapped cell's input.
          state: A tensor or tuple of tensors with the wrapped cell's state.
          scope: VariableScope for the subgraph created in the wrapped cell's `__call__`.

        Returns:
          A pair `(output, new_state)`.
        """
        return self._call_wrapped_cell(inputs, state, cell_call_fn=self.cell.__call__, scope=scope)

    @property
    def wrapped_cell(self):
        return self.cell

    @property
    def state_size(self):
        return self.cell.state_size

    @property
    def output_size(self):
        return self.cell.output_size

    @property
    def trainable_weights(self):
        return list(getattr(self.cell, "trainable_weights", [])) if self.trainable else []

    @property
    def non_trainable_weights(self):
        return list(getattr(self.cell, "non_trainable_weights", []))

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    def zero_state(self, batch_size, dtype):
        """The wrapped cell's zero state (see `RNNCell.zero_state`)."""
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)


def _default_dropout_state_filter_visitor(substate):
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    if nest.is_tensor_array(substate):
        return False
    return True


def _get_traverse_shallow_structure(traverse_fn, structure):
    """TF's `nest.get_traverse_shallow_structure`: the bool structure `traverse_fn` describes."""
    to_traverse = traverse_fn(structure)
    if not nest.is_nested(structure):
        if not isinstance(to_traverse, bool):
            raise TypeError("traverse_fn returned structure: %s for non-structure: %s" % (to_traverse, structure))
        return to_traverse
    level_traverse = []
    if isinstance(to_traverse, bool):
        if not to_traverse:
            return False
        for branch in nest._children(structure):
            level_traverse.append(_get_traverse_shallow_structure(traverse_fn, branch))
    elif not nest.is_nested(to_traverse):
        raise TypeError("traverse_fn returned a non-bool scalar: %s for input: %s" % (to_traverse, structure))
    else:
        nest.assert_same_structure(structure, to_traverse, check_types=False)
        for t, branch in zip(nest._children(to_traverse), nest._children(structure)):
            if not isinstance(t, bool):
                raise TypeError("traverse_fn didn't return a depth=1 structure of bools.  saw: %s  for structure: "
                                "%s" % (to_traverse, structure))
            level_traverse.append(_get_traverse_shallow_structure(traverse_fn, branch) if t else False)
    if isinstance(structure, dict):
        return type(structure)((k, v) for k, v in zip(sorted(structure), level_traverse))
    if hasattr(structure, "_fields"):
        return type(structure)(*level_traverse)
    return type(structure)(level_traverse)


def _enumerated_map_structure_up_to(shallow_structure, map_fn, *args):
    """Applies `map_fn(index, *leaves)` to the leaves of `args` down to `shallow_structure`."""
    flat = [nest.flatten_up_to(shallow_structure, a) for a in args]
    results = [map_fn(i, *xs) for i, xs in enumerate(zip(*flat))]
    return nest.pack_sequence_as(shallow_structure, results)


class DropoutWrapper(_RNNCellWrapper):
    """Adds dropout to the inputs, outputs and/or states of the given cell.

    With `variational_recurrent=True` the same dropout mask is used at every time step (Gal and
    Ghahramani, 2016); otherwise a fresh mask is drawn at each step. By default the memory (`c`) part
    of an `LSTMStateTuple` is never dropped.

    Args:
      cell: an RNNCell.
      input_keep_prob: unit Tensor or float in [0, 1]; a constant 1 adds no input dropout.
      output_keep_prob: unit Tensor or float in [0, 1]; a constant 1 adds no output dropout.
      state_keep_prob: unit Tensor or float in [0, 1], for the outgoing states the
        `dropout_state_filter_visitor` selects; a constant 1 adds no state dropout.
      variational_recurrent: Python bool: one dropout pattern for all time steps per run call.
      input_size: (optional) (nested tuple of) TensorShape: the depth(s) of the inputs; required
        when `variational_recurrent` and `input_keep_prob < 1`.
      dtype: (optional) the dtype of inputs, states and outputs; required when
        `variational_recurrent`.
      seed: (optional) integer, the randomness seed.
      dropout_state_filter_visitor: (optional) function of a level of the state returning a bool or
        a depth-1 structure of bools: which parts of the state are dropped.
      **kwargs: keyword arguments for the base layer.

    Raises:
      TypeError: if `cell` is not an `RNNCell`, or `dropout_state_filter_visitor` is not callable.
      ValueError: if a keep probability is not in [0, 1], or `variational_recurrent` lacks `dtype`
        or `input_size`.
    """

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and not callable(dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable")
        self._dropout_state_filter = dropout_state_filter_visitor or _default_dropout_state_filter_visitor
        with ops.name_scope("DropoutWrapperInit"):
            for prob, attr in [(input_keep_prob, "input_keep_prob"), (state_keep_prob, "state_keep_prob"),
                               (output_keep_prob, "output_keep_prob")]:
                tensor_prob = ops.convert_to_tensor(prob)
                const_prob = tensor_util.constant_value(tensor_prob)
                if const_prob is not None:
                    if const_prob < 0 or const_prob > 1:
                        raise ValueError("Parameter %s must be between 0 and 1: %d" % (attr, const_prob))
                    setattr(self, "_%s" % attr, float(const_prob))
                else:
                    setattr(self, "_%s" % attr, tensor_prob)
        self._variational_recurrent = variational_recurrent
        self._input_size = input_size
        self._seed = seed
        self._recurrent_input_noise = None
        self._recurrent_state_noise = None
        self._recurrent_output_noise = None
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")

            def batch_noise(s, inner_seed):
                shape = [1] + as_shape(s).as_list()
                return random_ops.random_uniform(shape, seed=inner_seed, dtype=dtype)

            if not isinstance(self._input_keep_prob, numbers.Real) or self._input_keep_prob < 1.0:
                if input_size is None:
                    raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or is unknown, "
                                     "input_size must be provided")
                self._recurrent_input_noise = _enumerated_map_structure_up_to(
                    input_size, lambda i, s: batch_noise(s, inner_seed=self._gen_seed("input", i)), input_size)
            self._recurrent_state_noise = _enumerated_map_structure_up_to(
                cell.state_size, lambda i, s: batch_noise(s, inner_seed=self._gen_seed("state", i)), cell.state_size)
            self._recurrent_output_noise = _enumerated_map_structure_up_to(
                cell.output_size, lambda i, s: batch_noise(s, inner_seed=self._gen_seed("output", i)),
                cell.output_size)

    def _gen_seed(self, salt_prefix, index):
        if self._seed is None:
            return None
        salt = "%s_%d" % (salt_prefix, index)
        string = (str(self._seed) + salt).encode("utf-8")
        return int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF

    def build(self, inputs_shape):
        self.cell.build(inputs_shape)
        self.built = True

    def _variational_recurrent_dropout_value(self, unused_index, value, noise, keep_prob):
        random_tensor = keep_prob + noise
        binary_tensor = math_ops.floor(random_tensor)
        ret = math_ops.divide(value, keep_prob) * binary_tensor
        ret.set_shape(value.shape)
        return ret

    def _dropout(self, values, salt_prefix, recurrent_noise, keep_prob, shallow_filtered_substructure=None):
        if shallow_filtered_substructure is None:
            shallow_filtered_substructure = values
        if not self._variational_recurrent:
            def dropout(i, do_dropout, v):
                if not isinstance(do_dropout, bool) or do_dropout:
                    return nn_ops.dropout(v, keep_prob=keep_prob, seed=self._gen_seed(salt_prefix, i))
                return v
            return _enumerated_map_structure_up_to(shallow_filtered_substructure, dropout,
                                                   shallow_filtered_substructure, values)

        def dropout(i, do_dropout, v, n):
            if not isinstance(do_dropout, bool) or do_dropout:
                return self._variational_recurrent_dropout_value(i, v, n, keep_prob)
            return v
        return _enumerated_map_structure_up_to(shallow_filtered_substructure, dropout,
                                               shallow_filtered_substructure, values, recurrent_noise)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        def _should_dropout(p):
            return (not isinstance(p, float)) or p < 1

        if _should_dropout(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._recurrent_input_noise, self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if _should_dropout(self._state_keep_prob):
            shallow = _get_traverse_shallow_structure(self._dropout_state_filter, new_state)
            new_state = self._dropout(new_state, "state", self._recurrent_state_noise, self._state_keep_prob,
                                      shallow)
        if _should_dropout(self._output_keep_prob):
            output = self._dropout(output, "output", self._recurrent_output_noise, self._output_keep_prob)
        return output, new_state


class ResidualWrapper(_RNNCellWrapper):
    """RNNCell wrapper that adds the cell's inputs to its outputs.

    Args:
      cell: An instance of `RNNCell`.
      residual_fn: (Optional) `(inputs, outputs) -> outputs` of the residual network; default: their
        elementwise sum (the structures and shapes must match).
      **kwargs: keyword arguments for the base layer.
    """

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)

        def assert_shape_match(inp, out):
            inp.shape.assert_is_compatible_with(out.shape)

        def default_residual_fn(inputs, outputs):
            nest.assert_same_structure(inputs, outputs)
            nest.map_structure(assert_shape_match, inputs, outputs)
            return nest.map_structure(lambda inp, out: inp + out, inputs, outputs)

        res_outputs = (self._residual_fn or default_residual_fn)(inputs, outputs)
        return (res_outputs, new_state)


class DeviceWrapper(_RNNCellWrapper):
    """Runs the wrapped cell's ops (and its zero state) under `tf.device(device)`.

    Args:
      cell: An instance of `RNNCell`.
      device: A device string or function, for `tf.device`.
      **kwargs: keyword arguments for the base layer.
    """

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def zero_state(self, batch_size, dtype):
        """The wrapped cell's zero state, made on the device."""
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            with ops.device(self._device):
                return self.cell.zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        with ops.device(self._device):
            return cell_call_fn(inputs, state, **kwargs)


class MultiRNNCell(RNNCell):
    """RNN cell composed sequentially of multiple simple cells (variable scopes `cell_0`, `cell_1`, ...).

    Args:
      cells: list of RNNCells that will be composed in this order.
      state_is_tuple: If True, states are n-tuples (`n = len(cells)`); if False, all concatenated
        along the column axis.

    Raises:
      ValueError: if cells is empty, or a cell has a tuple state while `state_is_tuple` is False.
      TypeError: if `cells` is not a list or tuple.
    """

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not nest.is_nested(cells):
            raise TypeError("cells must be a list or tuple, but saw: %s." % (cells,))
        self._cells = cells
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple:
            if any(nest.is_nested(c.state_size) for c in self._cells):
                raise ValueError("Some cells return tuples of states, but the flag state_is_tuple is not set.  "
                                 "State sizes are: %s" % str([c.state_size for c in self._cells]))

    @property
    def state_size(self):
        if self._state_is_tuple:
            return tuple(cell.state_size for cell in self._cells)
        return sum(cell.state_size for cell in self._cells)

    @property
    def output_size(self):
        return self._cells[-1].output_size

    def zero_state(self, batch_size, dtype):
        """The cells' zero states (a tuple), or their concatenation (see `RNNCell.zero_state`)."""
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
            return super().zero_state(batch_size, dtype)

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        weights = []
        for cell in self._cells:
            if isinstance(cell, Layer):
                weights += cell.trainable_weights
        return weights

    @property
    def non_trainable_weights(self):
        weights = []
        for cell in self._cells:
            if isinstance(cell, Layer):
                weights += cell.non_trainable_weights
        if not self.trainable:
            trainable = []
            for cell in self._cells:
                if isinstance(cell, Layer):
                    trainable += cell.trainable_weights
            return trainable + weights
        return weights

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    def call(self, inputs, state):
        """Run this multi-layer cell on inputs, starting from state."""
        cur_state_pos = 0
        cur_inp = inputs
        new_states = []
        for i, cell in enumerate(self._cells):
            with variable_scope("cell_%d" % i):
                if self._state_is_tuple:
                    if not nest.is_nested(state):
                        raise ValueError("Expected state to be a tuple of length %d, but received: %s"
                                         % (len(self.state_size), state))
                    cur_state = state[i]
                else:
                    cur_state = array_ops.slice(state, [0, cur_state_pos], [-1, cell.state_size])
                    cur_state_pos += cell.state_size
                cur_inp, new_state = cell(cur_inp, cur_state)
                new_states.append(new_state)
        new_states = tuple(new_states) if self._state_is_tuple else array_ops.concat(new_states, 1)
        return cur_inp, new_states
