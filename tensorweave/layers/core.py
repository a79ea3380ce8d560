"""`tf.layers` core layers: `Dense`/`dense`, `Flatten`/`flatten` and `Dropout`/`dropout`."""

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape, dimension_value
from ..ops import init_ops, nn_ops
from .base import InputSpec, Layer
from .utils import normalize_data_format, smart_cond


def _activation(activation):
    """Resolves an activation: None, a callable, or a Keras name ("relu", "sigmoid", ...).

    Raises:
      ValueError: For an unknown name.
    """
    if activation is None or callable(activation):
        return activation
    from ..ops import math_ops
    table = {"linear": None, "relu": nn_ops.relu, "relu6": nn_ops.relu6, "elu": nn_ops.elu, "selu": nn_ops.selu,
             "softplus": nn_ops.softplus, "softsign": nn_ops.softsign, "softmax": nn_ops.softmax,
             "sigmoid": math_ops.sigmoid, "tanh": math_ops.tanh}
    if activation not in table:
        raise ValueError("Unknown activation function:" + str(activation))
    return table[activation]


class Dense(Layer):
    """Densely-connected layer: `outputs = activation(inputs @ kernel + bias)`.

    For inputs of rank > 2 the kernel is applied to the last axis (a tensordot).

    Args:
      units: Integer, dimensionality of the output space.
      activation: Activation function (callable or name); None means linear.
      use_bias: Whether the layer uses a bias.
      kernel_initializer: Initializer for the kernel (default: the variable scope's, else
        glorot_uniform).
      bias_initializer: Initializer for the bias (default zeros).
      kernel_regularizer: Optional `variable -> loss` for the kernel (REGULARIZATION_LOSSES).
      bias_regularizer: Optional regularizer for the bias.
      activity_regularizer: Optional regularizer for the output (divided by the batch size).
      kernel_constraint: Optional projection applied by optimizers to the kernel.
      bias_constraint: Optional projection applied by optimizers to the bias.
      trainable: Whether the variables go into TRAINABLE_VARIABLES.
      name: The layer's name, also its variable scope.
      dtype: The variables' dtype (default: the first inputs' dtype).
    """

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        self.activation = _activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.input_spec = InputSpec(min_ndim=2)
        self.kernel = None
        self.bias = None

    def build(self, input_shape):
        """Creates "kernel" [last_dim, units] and "bias" [units].

        Raises:
          TypeError: If the layer's dtype is not floating point.
          ValueError: If the last dimension of the inputs is undefined.
        """
        dtype = self._dtype or dtypes.float32
        if not (dtype.is_floating or dtype.is_complex):
            raise TypeError("Unable to build `Dense` layer with non-floating point dtype %s" % (dtype,))
        last_dim = dimension_value(TensorShape(input_shape)[-1])
        if last_dim is None:
            raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})
        self.kernel = self.add_weight("kernel", shape=[last_dim, self.units], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
                                      dtype=dtype, trainable=True)
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.units], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        dtype=dtype, trainable=True)
        self.built = True

    def call(self, inputs):
        from ..ops import math_ops
        rank = inputs.shape.ndims
        if rank is not None and rank > 2:
            outputs = math_ops.tensordot(inputs, self.kernel, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape.as_list()[:-1] + [self.units])
        else:
            if inputs.dtype is not self._dtype:
                inputs = math_ops.cast(inputs, self._dtype)
            outputs = math_ops.matmul(inputs, self.kernel)
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        """`input_shape` with the last dimension replaced by `units`.

        Raises:
          ValueError: If the last dimension is undefined.
        """
        input_shape = TensorShape(input_shape).with_rank_at_least(2)
        if dimension_value(input_shape[-1]) is None:
            raise ValueError("The innermost dimension of input_shape must be defined, but saw: %s" % input_shape)
        return input_shape[:-1].concatenate(self.units)


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
          reuse=None):
    """Functional interface for the densely-connected layer:
    `outputs = activation(inputs @ kernel + bias)`, with variables "<scope>/kernel" and
    "<scope>/bias" where the scope is `name` or a unique "dense", "dense_1", ...

    Args:
      inputs: Tensor input (rank >= 2, last dimension defined).
      units: Integer, dimensionality of the output space.
      activation: Activation function (callable or name); None means linear.
      use_bias: Boolean, whether the layer uses a bias.
      kernel_initializer: Initializer for the kernel (default glorot_uniform, or the scope's).
      bias_initializer: Initializer for the bias (default zeros).
      kernel_regularizer: Optional regularizer for the kernel.
      bias_regularizer: Optional regularizer for the bias.
      activity_regularizer: Optional regularizer for the output.
      kernel_constraint: Optional projection for the kernel.
      bias_constraint: Optional projection for the bias.
      trainable: Boolean, if True also add the variables to TRAINABLE_VARIABLES.
      name: String, the name of the layer (its variable scope).
      reuse: Boolean (or tf.AUTO_REUSE), whether to reuse the weights of a previous layer by the
        same name.

    Returns:
      Output tensor with the shape of `inputs` except the last dimension, which is `units`.

    Raises:
      ValueError: On bad input ranks/shapes or variable reuse conflicts.
    """
    layer = Dense(units, activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                  bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                  bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
                  name=name, _scope=name, _reuse=reuse)
    return layer.apply(inputs)


class Flatten(Layer):
    """Flattens an input to rank 2 `[batch, -1]`, keeping the batch axis.

    An input of unknown rank is reshaped to `[shape[0], -1]` (static shape `[None, None]`), as TF's
    Keras does; the rank is then checked when the graph runs.

    Args:
      data_format: "channels_last" (default) or "channels_first"; for the latter the channel axis
        is moved last first (for inputs of known rank), so that the order of features matches
        "channels_last" models.
      name: The layer's name.

    Raises:
      ValueError: For an invalid `data_format`.
    """

    _unknown_rank_ok = True  # reshaped to [shape[0], -1] (a channels_first input is not transposed)

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        from ..ops import array_ops
        rank = inputs.shape.ndims
        if self.data_format == "channels_first" and rank is not None and rank > 1:
            inputs = array_ops.transpose(inputs, perm=[0] + list(range(2, rank)) + [1])
        batch = dimension_value(inputs.shape[0])
        outputs = array_ops.reshape(inputs, (batch if batch else array_ops.shape(inputs)[0], -1))
        if rank is not None:
            outputs.set_shape(self.compute_output_shape(inputs.shape))
        return outputs

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        if not dims:
            return TensorShape([1])
        rest = dims[1:]
        flat = int(_prod(rest)) if all(d is not None for d in rest) else None
        return TensorShape([dims[0], flat])


def _prod(values):
    out = 1
    for v in values:
        out *= v
    return out


def flatten(inputs, name=None, data_format="channels_last"):
    """Flattens an input tensor while preserving the batch axis (axis 0).

    Args:
      inputs: Tensor input, of rank >= 1.
      name: The name of the layer (string).
      data_format: "channels_last" (default) or "channels_first".

    Returns:
      A rank-2 tensor `[batch, prod(other dims)]`.

    Raises:
      ValueError: For an input of unknown rank or an invalid `data_format`.
    """
    layer = Flatten(name=name, data_format=data_format)
    return layer.apply(inputs)


class Dropout(Layer):
    """Applies dropout in training: zeroes inputs with probability `rate` and scales the kept ones
    by `1 / (1 - rate)`; at inference it is the identity.

    Args:
      rate: The dropout rate, between 0 and 1 (0.1 drops 10% of the inputs).
      noise_shape: Shape of the binary keep mask, broadcast against the inputs; `None` entries
        take the inputs' dimension.
      seed: A Python integer used to create random seeds (with the graph seed).
      name: The layer's name.
    """

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def _get_noise_shape(self, inputs):
        from ..ops import array_ops
        if self.noise_shape is None:
            return None
        dynamic = array_ops.shape(inputs)
        return array_ops.stack([dynamic[i] if value is None else value for i, value in enumerate(self.noise_shape)])

    def call(self, inputs, training=False):
        from ..ops import core_ops

        def dropped_inputs():
            return nn_ops.dropout(inputs, noise_shape=self._get_noise_shape(inputs), seed=self.seed, rate=self.rate)

        return smart_cond(training, dropped_inputs, lambda: core_ops.identity(inputs))

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """Applies Dropout to the input.

    Args:
      inputs: Tensor input.
      rate: The dropout rate, between 0 and 1.
      noise_shape: 1D shape of the binary dropout mask, broadcast against the inputs.
      seed: A Python integer used to create random seeds.
      training: A Python boolean or a scalar bool tensor: whether to return the output in
        training mode (apply dropout) or in inference mode (return the input untouched).
      name: The name of the layer (string).

    Returns:
      Output tensor, of the shape of `inputs`.

    Raises:
      ValueError: If `rate` is not in `[0, 1)` or the inputs are not floating point.
    """
    layer = Dropout(rate, noise_shape=noise_shape, seed=seed, name=name)
    return layer.apply(inputs, training=training)
