"""Core Keras layers: Dense, Activation, Dropout, Flatten, Reshape, Permute, RepeatVector, Lambda, Masking."""

import numpy as np

from .. import _tf as tf
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer


def _serialize(module, value):
    return module.serialize(value) if value is not None else None


def _weights_config(layer):
    """The config entries of a layer's kernel and bias initializers, regularizers (with the activity
    regularizer) and constraints, in Keras' order."""
    from .. import constraints, initializers, regularizers
    return {"kernel_initializer": initializers.serialize(layer.kernel_initializer),
            "bias_initializer": initializers.serialize(layer.bias_initializer),
            "kernel_regularizer": _serialize(regularizers, layer.kernel_regularizer),
            "bias_regularizer": _serialize(regularizers, layer.bias_regularizer),
            "activity_regularizer": _serialize(regularizers, layer.activity_regularizer),
            "kernel_constraint": _serialize(constraints, layer.kernel_constraint),
            "bias_constraint": _serialize(constraints, layer.bias_constraint)}


class Dense(Layer):
    """A densely-connected layer: `activation(dot(inputs, kernel) + bias)`.

    Args:
      units: Output dimension.
      activation: Activation name or function (default: linear).
      use_bias: Whether to add a bias.
      kernel_initializer, bias_initializer: Initializers (default glorot_uniform, zeros).
      kernel_regularizer, bias_regularizer, activity_regularizer: Optional regularizers.
      kernel_constraint, bias_constraint: Optional constraints.
      **kwargs: Base `Layer` arguments (name, input_shape, ...).

    Raises:
      ValueError: If the last input dimension is unknown when building.
    """

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        from .. import activations, constraints, initializers, regularizers
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.supports_masking = True
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape):
        input_shape = tf.TensorShape(input_shape)
        last = input_shape[-1].value if hasattr(input_shape[-1], "value") else input_shape[-1]
        if last is None:
            raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last})
        self.kernel = self.add_weight("kernel", shape=[last, self.units], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", shape=[self.units], initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.built = True

    def call(self, inputs):
        rank = K.ndim(inputs)
        if rank is not None and rank > 2:
            outputs = tf.tensordot(inputs, self.kernel, [[rank - 1], [0]])
        else:
            outputs = tf.matmul(inputs, self.kernel)
        if self.use_bias:
            outputs = tf.nn.bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        return tf.TensorShape(input_shape)[:-1].concatenate([self.units])

    def get_config(self):
        from .. import activations
        config = {"units": self.units, "activation": activations.serialize(self.activation),
                  "use_bias": self.use_bias,
                  **_weights_config(self)}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class Activation(Layer):
    """Applies an activation function.

    Args:
      activation: Activation name or function.
    """

    def __init__(self, activation, **kwargs):
        from .. import activations
        super().__init__(**kwargs)
        self.supports_masking = True
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        from .. import activations
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config


class Dropout(Layer):
    """Randomly sets a fraction `rate` of inputs to 0 in training (scaling the rest), identity otherwise.

    Args:
      rate: Fraction of the inputs to drop, in [0, 1).
      noise_shape: Optional shape of the binary mask (broadcast over the inputs).
      seed: Optional random seed.
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        self.supports_masking = True

    def _get_noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        symbolic = tf.shape(inputs)
        return tf.stack([symbolic[i] if d is None else d for i, d in enumerate(self.noise_shape)])

    def call(self, inputs, training=None):
        if training is None:
            training = K.learning_phase()
        if 0.0 < self.rate < 1.0:
            def dropped():
                return tf.nn.dropout(inputs, rate=self.rate, noise_shape=self._get_noise_shape(inputs),
                                     seed=self.seed)
            return K.in_train_phase(dropped, lambda: tf.identity(inputs), training=training)
        return inputs

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed})
        return config


class Flatten(Layer):
    """Flattens all axes but the batch axis.

    Args:
      data_format: 'channels_last' (default) or 'channels_first'.
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or K.image_data_format()
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        if self.data_format == "channels_first" and K.ndim(inputs) > 2:
            perm = [0] + list(range(2, K.ndim(inputs))) + [1]
            inputs = tf.transpose(inputs, perm)
        shape = K.int_shape(inputs)
        if shape is not None and len(shape) == 1:
            return tf.expand_dims(inputs, 1)
        if shape is not None and all(d is not None for d in shape[1:]):
            return tf.reshape(inputs, [-1, int(np.prod(shape[1:]))])
        return tf.reshape(inputs, tf.stack([tf.shape(inputs)[0], -1]))

    def compute_output_shape(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        rest = dims[1:]
        return tf.TensorShape([dims[0], int(np.prod(rest)) if all(d is not None for d in rest) else None])

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


class Reshape(Layer):
    """Reshapes the inputs (batch axis kept) to `target_shape`; one entry may be -1.

    Args:
      target_shape: The shape without the batch axis.

    Raises:
      ValueError: If the total size does not match.
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def _fix_unknown_dimension(self, input_shape, output_shape):
        output_shape = list(output_shape)
        msg = "total size of new array must be unchanged"
        known, unknown = 1, None
        for index, dim in enumerate(output_shape):
            if dim < 0:
                if unknown is None:
                    unknown = index
                else:
                    raise ValueError("Can only specify one unknown dimension.")
            else:
                known *= dim
        original = int(np.prod(input_shape, dtype=int))
        if unknown is not None:
            if known == 0 or original % known != 0:
                raise ValueError(msg)
            output_shape[unknown] = original // known
        elif original != known:
            raise ValueError(msg)
        return output_shape

    def compute_output_shape(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        if None in dims[1:]:
            return tf.TensorShape([dims[0]] + [d if d != -1 else None for d in self.target_shape])
        return tf.TensorShape([dims[0]] + self._fix_unknown_dimension(dims[1:], self.target_shape))

    def call(self, inputs):
        shape = K.int_shape(inputs)
        if shape is not None and None not in shape[1:]:
            self._fix_unknown_dimension(shape[1:], self.target_shape)
        return tf.reshape(inputs, tf.stack([tf.shape(inputs)[0]] + list(self.target_shape))) \
            if shape is None or shape[0] is None else tf.reshape(inputs, (shape[0],) + self.target_shape)

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config


class Permute(Layer):
    """Permutes the non-batch axes: `dims` is a 1-indexed permutation, e.g. `(2, 1)`.

    Raises:
      ValueError: If `dims` is not a permutation of 1..n.
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError("Invalid permutation `dims` for Permute Layer: %s. The set of indices in `dims` must "
                             "be consecutive and start from 1." % (dims,))
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs):
        return tf.transpose(inputs, perm=(0,) + self.dims)

    def compute_output_shape(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        return tf.TensorShape([dims[0]] + [dims[d] for d in self.dims])

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config


class RepeatVector(Layer):
    """Repeats a `(batch, features)` input `n` times: `(batch, n, features)`.

    Args:
      n: The repetition count.
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return K.repeat(inputs, self.n)

    def compute_output_shape(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        return tf.TensorShape([dims[0], self.n, dims[1]])

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config


class Lambda(Layer):
    """Wraps an arbitrary expression `function(inputs, **arguments)` as a layer.

    Args:
      function: The function to apply.
      output_shape: Optional output shape (or function of the input shape), for documentation.
      mask: Must be None (masking is not supported).
      arguments: Optional dict of keyword arguments for `function`.

    Raises:
      ValueError: If `mask` is given.
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        if mask is not None:
            raise ValueError("Lambda masks are not supported.")
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self._output_shape = output_shape

    def call(self, inputs, mask=None, training=None):
        import inspect
        arguments = dict(self.arguments)
        params = inspect.signature(self.function).parameters
        if "mask" in params:
            arguments["mask"] = mask
        if "training" in params:
            arguments["training"] = training
        return self.function(inputs, **arguments)

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return input_shape
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        dims = tf.TensorShape(input_shape).as_list()
        return tf.TensorShape([dims[0]] + list(self._output_shape))

    def get_config(self):
        config = super().get_config()
        if getattr(self.function, "__name__", "<lambda>") == "<lambda>" or \
                getattr(self.function, "__closure__", None):
            function, function_type = _func_dump(self.function), "lambda"
        else:
            function, function_type = self.function.__name__, "function"
        output_shape, output_shape_type = self._output_shape, "raw"
        if callable(output_shape):
            output_shape, output_shape_type = _func_dump(output_shape), "lambda"
        config.update({"function": function, "function_type": function_type, "output_shape": output_shape,
                       "output_shape_type": output_shape_type, "arguments": self.arguments})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=True):
        """Re-creates the layer; named functions are looked up in `custom_objects` and the global
        custom objects. A Python lambda is stored as marshalled bytecode: rebuilding it runs code from
        the config, so it is refused unless the caller passes `safe_mode=False` (as tf-keras does).

        Args:
          config: The dict `get_config` returned.
          custom_objects: Optional dict of names to functions.
          safe_mode: If True (default), refuse to rebuild lambdas from bytecode.

        Raises:
          ValueError: If a named function cannot be found, or the config holds a lambda and
            `safe_mode` is True.
        """
        config = dict(config)
        function_type = config.pop("function_type", "function")
        output_shape_type = config.pop("output_shape_type", "raw")
        if safe_mode and "lambda" in (function_type, output_shape_type):
            raise ValueError("Requested the deserialization of a Lambda layer with a Python `lambda` inside it. "
                             "This carries a potential risk of arbitrary code execution and thus it is disallowed "
                             "by default. If you trust the source of the config, pass `safe_mode=False` to "
                             "`Lambda.from_config` to allow Lambda layer loading.")
        if function_type == "lambda":
            config["function"] = _func_load(config["function"])
        elif isinstance(config["function"], str):
            from ..utils.generic_utils import get_custom_objects
            objects = dict(get_custom_objects())
            objects.update(custom_objects or {})
            if config["function"] not in objects:
                raise ValueError("Unknown function in Lambda layer: " + config["function"])
            config["function"] = objects[config["function"]]
        if output_shape_type == "lambda":
            config["output_shape"] = _func_load(config["output_shape"])
        return cls(**config)


class Masking(Layer):
    """Masks the time steps whose features all equal `mask_value`: it zeroes them and outputs a mask
    `(batch, time)` that mask-consuming layers downstream (e.g. recurrent layers) skip.

    Args:
      mask_value: The padding value.
    """

    def __init__(self, mask_value=0., **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        from ...ops.math_binary_ops import not_equal
        from ...ops.math_reduce_ops import reduce_any
        return reduce_any(not_equal(inputs, tf.cast(self.mask_value, inputs.dtype)), axis=-1)

    def call(self, inputs):
        from ...ops.math_binary_ops import not_equal
        from ...ops.math_reduce_ops import reduce_any
        keep = reduce_any(not_equal(inputs, tf.cast(self.mask_value, inputs.dtype)), axis=-1, keepdims=True)
        return inputs * tf.cast(keep, inputs.dtype)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["mask_value"] = self.mask_value
        return config


def _func_dump(func):
    import codecs
    import marshal
    code = codecs.encode(marshal.dumps(func.__code__), "base64").decode("ascii")
    closure = tuple(c.cell_contents for c in func.__closure__) if func.__closure__ else None
    return code, func.__defaults__, closure


def _func_load(code, defaults=None, closure=None):
    import codecs
    import marshal
    import types
    if isinstance(code, (tuple, list)):
        code, defaults, closure = code
        if isinstance(defaults, list):
            defaults = tuple(defaults)
    raw = marshal.loads(codecs.decode(code.encode("ascii"), "base64"))
    cells = tuple(types.CellType(v) for v in closure) if closure is not None else None
    return types.FunctionType(raw, globals(), name=raw.co_name, argdefs=defaults, closure=cells)
