"""Convolution layers (channels_last): Conv1D, Conv2D, DepthwiseConv2D, UpSampling2D, ZeroPadding2D,
Cropping2D."""

from ...ops.array_permute_ops import pad
from .. import _tf as tf
from ..engine.base_layer import InputSpec, Layer
from .core import _serialize


def _tuple(value, n, name):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) != n:
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s" % (name, n, value))
    return value


def _check_format(data_format):
    data_format = (data_format or "channels_last").lower()
    if data_format != "channels_last":
        raise NotImplementedError("tensorweave Keras convolution/pooling layers support only "
                                  "data_format='channels_last'; got %r." % data_format)
    return data_format


def _conv_length(length, size, padding, stride, dilation=1):
    if length is None:
        return None
    size = size + (size - 1) * (dilation - 1)
    out = length if padding == "same" else length - size + 1
    return (out + stride - 1) // stride


class _Conv(Layer):
    """Shared N-D convolution: `activation(conv(inputs, kernel) + bias)`."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        from .. import activations, constraints, initializers, regularizers
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        self.filters = int(filters)
        self.kernel_size = _tuple(kernel_size, rank, "kernel_size")
        self.strides = _tuple(strides, rank, "strides")
        self.padding = padding.lower()
        if self.padding not in ("valid", "same"):
            raise ValueError("The `padding` argument must be one of 'valid', 'same'. Received: %s" % padding)
        self.data_format = _check_format(data_format)
        self.dilation_rate = _tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(ndim=rank + 2)

    def build(self, input_shape):
        input_shape = tf.TensorShape(input_shape)
        channels = input_shape.as_list()[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.kernel = self.add_weight("kernel", shape=self.kernel_size + (channels, self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={-1: channels})
        self.built = True

    def call(self, inputs):
        padding = self.padding.upper()
        if self.rank == 1:
            # As TF's conv1d: a 2-D convolution over an inserted unit rows axis.
            outputs = tf.nn.conv2d(tf.expand_dims(inputs, 1), tf.expand_dims(self.kernel, 0),
                                   [1, 1, self.strides[0], 1], padding, dilations=[1, 1, self.dilation_rate[0], 1])
            outputs = tf.squeeze(outputs, [1])
        else:
            outputs = tf.nn.conv2d(inputs, self.kernel, [1] + list(self.strides) + [1], padding,
                                   dilations=[1] + list(self.dilation_rate) + [1])
        if self.use_bias:
            outputs = tf.nn.bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [_conv_length(shape[1 + i], self.kernel_size[i], self.padding, self.strides[i],
                              self.dilation_rate[i]) for i in range(self.rank)]
        return tf.TensorShape([shape[0]] + space + [self.filters])

    def get_config(self):
        from .. import activations, constraints, initializers, regularizers
        config = {"filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
                  "padding": self.padding, "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                  "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                  "kernel_initializer": initializers.serialize(self.kernel_initializer),
                  "bias_initializer": initializers.serialize(self.bias_initializer),
                  "kernel_regularizer": _serialize(regularizers, self.kernel_regularizer),
                  "bias_regularizer": _serialize(regularizers, self.bias_regularizer),
                  "activity_regularizer": _serialize(regularizers, self.activity_regularizer),
                  "kernel_constraint": _serialize(constraints, self.kernel_constraint),
                  "bias_constraint": _serialize(constraints, self.bias_constraint)}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class Conv1D(_Conv):
    """1D convolution over `(batch, steps, channels)` inputs.

    Args:
      filters: Number of output channels.
      kernel_size: An int or 1-tuple, the window length.
      strides: An int or 1-tuple.
      padding: 'valid' or 'same'.
      data_format: Only 'channels_last'.
      dilation_rate: An int or 1-tuple.
      activation, use_bias, *_initializer, *_regularizer, *_constraint: As in `Dense`.

    Raises:
      ValueError: On input of rank other than 3.
      NotImplementedError: For `channels_first`.
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, **kwargs):
        super().__init__(1, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, **kwargs)


class Conv2D(_Conv):
    """2D convolution over `(batch, rows, cols, channels)` inputs.

    Args:
      filters: Number of output channels.
      kernel_size: An int or 2-tuple, the window height and width.
      strides: An int or 2-tuple.
      padding: 'valid' or 'same'.
      data_format: Only 'channels_last'.
      dilation_rate: An int or 2-tuple.
      activation, use_bias, *_initializer, *_regularizer, *_constraint: As in `Dense`.

    Raises:
      ValueError: On input of rank other than 4.
      NotImplementedError: For `channels_first`.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), **kwargs):
        super().__init__(2, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, **kwargs)


Convolution1D = Conv1D
Convolution2D = Conv2D


class DepthwiseConv2D(Conv2D):
    """Depthwise 2D convolution: each input channel is convolved with `depth_multiplier` filters.

    Args:
      kernel_size: An int or 2-tuple.
      strides: An int or 2-tuple.
      padding: 'valid' or 'same'.
      depth_multiplier: Output channels per input channel.
      data_format: Only 'channels_last'.
      activation, use_bias: As in `Conv2D`.
      depthwise_initializer, depthwise_regularizer, depthwise_constraint: For `depthwise_kernel`.
      bias_initializer, bias_regularizer, activity_regularizer, bias_constraint: As in `Conv2D`.
    """

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 activation=None, use_bias=True, depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        from .. import constraints, initializers, regularizers
        super().__init__(1, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         activation=activation, use_bias=use_bias, bias_initializer=bias_initializer,
                         bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                         bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)

    def build(self, input_shape):
        channels = tf.TensorShape(input_shape).as_list()[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs to `DepthwiseConv2D` should be defined. "
                             "Found `None`.")
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.bias = self.add_weight("bias", shape=(channels * self.depth_multiplier,),
                                    initializer=self.bias_initializer, regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.input_spec = InputSpec(ndim=4, axes={-1: channels})
        self.built = True

    def call(self, inputs):
        outputs = tf.nn.depthwise_conv2d(inputs, self.depthwise_kernel, [1] + list(self.strides) + [1],
                                         self.padding.upper())
        if self.use_bias:
            outputs = tf.nn.bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [_conv_length(shape[1 + i], self.kernel_size[i], self.padding, self.strides[i]) for i in range(2)]
        channels = None if shape[-1] is None else shape[-1] * self.depth_multiplier
        return tf.TensorShape([shape[0]] + space + [channels])

    def get_config(self):
        from .. import constraints, initializers, regularizers
        config = super().get_config()
        for key in ("filters", "kernel_initializer", "kernel_regularizer", "kernel_constraint"):
            config.pop(key)
        config.update({"depth_multiplier": self.depth_multiplier,
                       "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
                       "depthwise_regularizer": _serialize(regularizers, self.depthwise_regularizer),
                       "depthwise_constraint": _serialize(constraints, self.depthwise_constraint)})
        return config


class UpSampling2D(Layer):
    """Repeats the rows and columns of `(batch, rows, cols, channels)` inputs (nearest neighbour).

    Args:
      size: An int or 2-tuple of row/column factors.
      data_format: Only 'channels_last'.
      interpolation: Only 'nearest'.

    Raises:
      NotImplementedError: For other interpolations or `channels_first`.
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.size = _tuple(size, 2, "size")
        self.data_format = _check_format(data_format)
        if interpolation != "nearest":
            raise NotImplementedError("UpSampling2D supports only interpolation='nearest'; got %r."
                                      % interpolation)
        self.interpolation = interpolation
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        _, h, w, c = inputs.shape.as_list()
        if h is None or w is None or c is None:
            raise ValueError("UpSampling2D needs static rows, cols and channels; got %s." % inputs.shape.as_list())
        sh, sw = self.size
        x = tf.reshape(inputs, [-1, h, 1, w, 1, c])
        x = tf.tile(x, [1, 1, sh, 1, sw, 1])
        return tf.reshape(x, [-1, h * sh, w * sw, c])

    def compute_output_shape(self, input_shape):
        b, h, w, c = tf.TensorShape(input_shape).as_list()
        return tf.TensorShape([b, None if h is None else h * self.size[0], None if w is None else w * self.size[1],
                               c])

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format, "interpolation": self.interpolation})
        return config


def _pairs(value, name):
    if isinstance(value, int):
        return ((value, value), (value, value))
    value = tuple(value)
    if len(value) != 2:
        raise ValueError("`%s` should have two elements. Found: %s" % (name, value))
    return tuple((v, v) if isinstance(v, int) else tuple(int(i) for i in v) for v in value)


class ZeroPadding2D(Layer):
    """Pads the rows and columns of `(batch, rows, cols, channels)` inputs with zeros.

    Args:
      padding: An int, 2 ints (symmetric), or ((top, bottom), (left, right)).
      data_format: Only 'channels_last'.
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pairs(padding, "padding")
        self.data_format = _check_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        return pad(inputs, [[0, 0], list(self.padding[0]), list(self.padding[1]), [0, 0]])

    def compute_output_shape(self, input_shape):
        b, h, w, c = tf.TensorShape(input_shape).as_list()
        (t, bo), (le, r) = self.padding
        return tf.TensorShape([b, None if h is None else h + t + bo, None if w is None else w + le + r, c])

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding, "data_format": self.data_format})
        return config


class Cropping2D(Layer):
    """Crops the rows and columns of `(batch, rows, cols, channels)` inputs.

    Args:
      cropping: An int, 2 ints (symmetric), or ((top, bottom), (left, right)).
      data_format: Only 'channels_last'.
    """

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, "cropping")
        self.data_format = _check_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        (t, b), (le, r) = self.cropping
        return inputs[:, t:(-b if b else None), le:(-r if r else None), :]

    def compute_output_shape(self, input_shape):
        n, h, w, c = tf.TensorShape(input_shape).as_list()
        (t, b), (le, r) = self.cropping
        return tf.TensorShape([n, None if h is None else h - t - b, None if w is None else w - le - r, c])

    def get_config(self):
        config = super().get_config()
        config.update({"cropping": self.cropping, "data_format": self.data_format})
        return config


class SeparableConv2D(Conv2D):
    """Depthwise-separable 2D convolution: a depthwise convolution, then a 1x1 pointwise one.

    Args:
      filters: Number of output channels.
      kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias: As in `Conv2D`.
      depth_multiplier: Depthwise output channels per input channel.
      depthwise_initializer, pointwise_initializer, bias_initializer: Initializers.
      depthwise_regularizer, pointwise_regularizer, bias_regularizer, activity_regularizer: Optional.
      depthwise_constraint, pointwise_constraint, bias_constraint: Optional.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, pointwise_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, **kwargs):
        from .. import constraints, initializers, regularizers
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    def build(self, input_shape):
        channels = tf.TensorShape(input_shape).as_list()[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", shape=(1, 1, channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = self.add_weight("bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.input_spec = InputSpec(ndim=4, axes={-1: channels})
        self.built = True

    def call(self, inputs):
        outputs = tf.nn.separable_conv2d(inputs, self.depthwise_kernel, self.pointwise_kernel,
                                         [1] + list(self.strides) + [1], self.padding.upper(),
                                         rate=self.dilation_rate)
        if self.use_bias:
            outputs = tf.nn.bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def get_config(self):
        from .. import constraints, initializers, regularizers
        config = super().get_config()
        for key in ("kernel_initializer", "kernel_regularizer", "kernel_constraint"):
            config.pop(key)
        config.update({"depth_multiplier": self.depth_multiplier,
                       "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
                       "pointwise_initializer": initializers.serialize(self.pointwise_initializer),
                       "depthwise_regularizer": _serialize(regularizers, self.depthwise_regularizer),
                       "pointwise_regularizer": _serialize(regularizers, self.pointwise_regularizer),
                       "depthwise_constraint": _serialize(constraints, self.depthwise_constraint),
                       "pointwise_constraint": _serialize(constraints, self.pointwise_constraint)})
        return config


def _deconv_length(length, size, padding, stride):
    if length is None:
        return None
    return length * stride if padding == "same" else (length - 1) * stride + size


class Conv2DTranspose(Conv2D):
    """Transposed 2D convolution ("deconvolution"); the kernel has shape `(rows, cols, filters, in)`.

    Args:
      filters, kernel_size, strides, padding, data_format, activation, use_bias, *_initializer,
      *_regularizer, *_constraint: As in `Conv2D`.
      output_padding: Must be None.
      dilation_rate: Must be 1.

    Raises:
      NotImplementedError: For `output_padding`, dilation or `channels_first`.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None,
                 data_format=None, dilation_rate=(1, 1), **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, **kwargs)
        if output_padding is not None:
            raise NotImplementedError("Conv2DTranspose supports only output_padding=None.")
        if self.dilation_rate != (1, 1):
            raise NotImplementedError("Conv2DTranspose supports only dilation_rate=(1, 1).")
        self.output_padding = output_padding

    def build(self, input_shape):
        channels = tf.TensorShape(input_shape).as_list()[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.kernel = self.add_weight("kernel", shape=self.kernel_size + (self.filters, channels),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.input_spec = InputSpec(ndim=4, axes={-1: channels})
        self.built = True

    def call(self, inputs):
        _, h, w, _ = self.compute_output_shape(inputs.shape).as_list()
        if h is None or w is None:
            raise ValueError("Conv2DTranspose needs static rows and cols; got %s." % inputs.shape.as_list())
        output_shape = tf.stack([tf.shape(inputs)[0], h, w, self.filters])
        outputs = tf.nn.conv2d_transpose(inputs, self.kernel, output_shape, [1] + list(self.strides) + [1],
                                         padding=self.padding.upper())
        outputs = tf.reshape(outputs, [-1, h, w, self.filters])
        if self.use_bias:
            outputs = tf.nn.bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [_deconv_length(shape[1 + i], self.kernel_size[i], self.padding, self.strides[i]) for i in range(2)]
        return tf.TensorShape([shape[0]] + space + [self.filters])

    def get_config(self):
        config = super().get_config()
        config["output_padding"] = self.output_padding
        return config


Convolution2DTranspose = Conv2DTranspose
SeparableConvolution2D = SeparableConv2D
