"""Convolution layers: Conv1D/2D/3D, Conv2DTranspose/Conv3DTranspose, SeparableConv1D/2D, DepthwiseConv2D,
UpSampling1D/2D/3D, ZeroPadding1D/2D/3D, Cropping1D/2D/3D and LocallyConnected1D/2D; 'channels_last' or
'channels_first' (the ops take NCHW-style layouts directly)."""

import itertools
import numbers

from ...ops.array_misc_ops import repeat as _repeat
from ...ops.array_permute_ops import pad
from .. import _tf as tf
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .core import _serialize, _weights_config


def _tuple(value, n, name):
    if isinstance(value, numbers.Integral):
        return (value,) * n
    try:
        value = tuple(value)
    except TypeError:
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s" % (name, n, value)) \
            from None
    if len(value) != n or not all(isinstance(v, numbers.Integral) for v in value):
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s" % (name, n, value))
    return tuple(int(v) for v in value)


def _check_format(data_format):
    """Normalizes a Keras `data_format` (None: `image_data_format()`).

    Raises:
      ValueError: For a value other than 'channels_first' / 'channels_last'.
    """
    value = K.image_data_format() if data_format is None else data_format
    normalized = str(value).lower()
    if normalized not in ("channels_first", "channels_last"):
        raise ValueError('The `data_format` argument must be one of "channels_first", "channels_last". '
                         'Received: ' + str(value))
    return normalized


def _check_padding(padding, allow_causal=False):
    normalized = str(padding).lower()
    allowed = ("valid", "same", "causal") if allow_causal else ("valid", "same")
    if normalized not in allowed:
        raise ValueError("The `padding` argument must be one of %s. Received: %s"
                         % (", ".join("'%s'" % a for a in allowed), padding))
    return normalized


def _op_format(rank, data_format):
    """The TF op layout of a rank-`rank` Keras layout ('NHWC'-style)."""
    space = {1: "W", 2: "HW", 3: "DHW"}[rank]
    return "NC" + space if data_format == "channels_first" else "N" + space + "C"


def _full(values, data_format):
    """Per-spatial-axis values as the op's list for all axes (1 for batch and channels)."""
    return [1, 1] + list(values) if data_format == "channels_first" else [1] + list(values) + [1]


def _spatial(dims, data_format):
    """The spatial entries of a full shape list."""
    return list(dims[2:]) if data_format == "channels_first" else list(dims[1:-1])


def _with_spatial(batch, channels, space, data_format):
    if data_format == "channels_first":
        return [batch, channels] + list(space)
    return [batch] + list(space) + [channels]


def _channel_axis(data_format):
    return 1 if data_format == "channels_first" else -1


def _conv_length(length, size, padding, stride, dilation=1):
    if length is None:
        return None
    size = size + (size - 1) * (dilation - 1)
    out = length if padding in ("same", "causal") else length - size + 1
    return (out + stride - 1) // stride


def _deconv_length(length, size, padding, stride, output_padding=None, dilation=1):
    """As Keras' `deconv_output_length`; `length` may be an int, None or a scalar tensor."""
    if length is None:
        return None
    size = size + (size - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return length * stride + max(size - stride, 0)
        return length * stride
    pad_ = size // 2 if padding == "same" else 0
    return (length - 1) * stride + size - 2 * pad_ + output_padding


def _add_bias(outputs, bias, rank, data_format):
    if data_format == "channels_first" and rank == 1:
        return outputs + tf.reshape(bias, (1, -1, 1))
    return tf.nn.bias_add(outputs, bias, data_format="NCHW" if data_format == "channels_first" else "NHWC")


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
        self.padding = _check_padding(padding, allow_causal=True)
        if self.padding == "causal" and rank != 1:
            raise ValueError("Causal padding is only supported for `Conv1D` and `SeparableConv1D`.")
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

    def _input_channels(self, input_shape):
        channels = tf.TensorShape(input_shape).as_list()[_channel_axis(self.data_format)]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        return channels

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        self.kernel = self.add_weight("kernel", shape=self.kernel_size + (channels, self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={_channel_axis(self.data_format): channels})
        self.built = True

    def _finish(self, outputs):
        if self.use_bias:
            outputs = _add_bias(outputs, self.bias, self.rank, self.data_format)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def call(self, inputs):
        padding = self.padding.upper()
        first = self.data_format == "channels_first"
        if self.padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            inputs = pad(inputs, [[0, 0], [0, 0], [left, 0]] if first else [[0, 0], [left, 0], [0, 0]])
            padding = "VALID"
        if self.rank == 1:
            # As TF's conv1d: a 2-D convolution over an inserted unit rows axis.
            axis = 2 if first else 1
            fmt = "NCHW" if first else "NHWC"
            outputs = tf.nn.conv2d(tf.expand_dims(inputs, axis), tf.expand_dims(self.kernel, 0),
                                   _full((1, self.strides[0]), self.data_format), padding,
                                   data_format=fmt, dilations=_full((1, self.dilation_rate[0]), self.data_format))
            outputs = tf.squeeze(outputs, [axis])
        else:
            conv = tf.nn.conv2d if self.rank == 2 else tf.nn.conv3d
            outputs = conv(inputs, self.kernel, _full(self.strides, self.data_format), padding,
                           data_format=_op_format(self.rank, self.data_format),
                           dilations=_full(self.dilation_rate, self.data_format))
        return self._finish(outputs)

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [_conv_length(d, self.kernel_size[i], self.padding, self.strides[i], self.dilation_rate[i])
                 for i, d in enumerate(_spatial(shape, self.data_format))]
        return tf.TensorShape(_with_spatial(shape[0], self.filters, space, self.data_format))

    def get_config(self):
        from .. import activations
        config = {"filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
                  "padding": self.padding, "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                  "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                  **_weights_config(self)}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class Conv1D(_Conv):
    """1D convolution over `(batch, steps, channels)` inputs (`(batch, channels, steps)` for
    'channels_first').

    Args:
      filters: Number of output channels.
      kernel_size: An int or 1-tuple, the window length.
      strides: An int or 1-tuple.
      padding: 'valid', 'same' or 'causal' (left padding only: outputs never see later steps).
      data_format: 'channels_last' (default) or 'channels_first'.
      dilation_rate: An int or 1-tuple.
      activation, use_bias, *_initializer, *_regularizer, *_constraint: As in `Dense`.

    Raises:
      ValueError: On a bad `padding`/`data_format`, or input of rank other than 3.
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, **kwargs):
        super().__init__(1, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, **kwargs)


class Conv2D(_Conv):
    """2D convolution over `(batch, rows, cols, channels)` inputs (`(batch, channels, rows, cols)` for
    'channels_first').

    Args:
      filters: Number of output channels.
      kernel_size: An int or 2-tuple, the window height and width.
      strides: An int or 2-tuple.
      padding: 'valid' or 'same'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      dilation_rate: An int or 2-tuple.
      activation, use_bias, *_initializer, *_regularizer, *_constraint: As in `Dense`.

    Raises:
      ValueError: On a bad `padding`/`data_format`, or input of rank other than 4.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), **kwargs):
        super().__init__(2, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, **kwargs)


class Conv3D(_Conv):
    """3D convolution over `(batch, depth, rows, cols, channels)` inputs (`(batch, channels, depth, rows,
    cols)` for 'channels_first'); the kernel has shape `kernel_size + (in_channels, filters)`.

    Args:
      filters: Number of output channels.
      kernel_size: An int or 3-tuple.
      strides: An int or 3-tuple.
      padding: 'valid' or 'same'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      dilation_rate: An int or 3-tuple.
      activation, use_bias, *_initializer, *_regularizer, *_constraint: As in `Dense`.

    Raises:
      ValueError: On a bad `padding`/`data_format`, or input of rank other than 5.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1, 1), **kwargs):
        super().__init__(3, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, **kwargs)


Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution3D = Conv3D


class DepthwiseConv2D(Conv2D):
    """Depthwise 2D convolution: each input channel is convolved with `depth_multiplier` filters.

    Args:
      kernel_size: An int or 2-tuple.
      strides: An int or 2-tuple.
      padding: 'valid' or 'same'.
      depth_multiplier: Output channels per input channel.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
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
        channels = tf.TensorShape(input_shape).as_list()[_channel_axis(self.data_format)]
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
        self.input_spec = InputSpec(ndim=4, axes={_channel_axis(self.data_format): channels})
        self.built = True

    def call(self, inputs):
        outputs = tf.nn.depthwise_conv2d(inputs, self.depthwise_kernel, _full(self.strides, self.data_format),
                                         self.padding.upper(), rate=self.dilation_rate,
                                         data_format=_op_format(2, self.data_format))
        return self._finish(outputs)

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [_conv_length(d, self.kernel_size[i], self.padding, self.strides[i], self.dilation_rate[i])
                 for i, d in enumerate(_spatial(shape, self.data_format))]
        channels = shape[_channel_axis(self.data_format)]
        channels = None if channels is None else channels * self.depth_multiplier
        return tf.TensorShape(_with_spatial(shape[0], channels, space, self.data_format))

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


def _repeat_axis(x, rep, axis):
    """Repeats each entry of `x` `rep` times along `axis`, keeping the static shape."""
    if rep == 1:
        return x
    static = x.shape.as_list()
    out = _repeat(x, rep, axis=axis)
    static[axis] = None if static[axis] is None else static[axis] * rep
    out.set_shape(static)
    return out


class _UpSampling(Layer):
    """Repeats the entries of each spatial axis `size[i]` times (nearest neighbour)."""

    def __init__(self, rank, size, data_format, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.size = _tuple(size, rank, "size")
        self.data_format = _check_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs):
        offset = 2 if self.data_format == "channels_first" else 1
        for i, rep in enumerate(self.size):
            inputs = _repeat_axis(inputs, rep, offset + i)
        return inputs

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [None if d is None else d * s for d, s in zip(_spatial(shape, self.data_format), self.size)]
        return tf.TensorShape(_with_spatial(shape[0], shape[_channel_axis(self.data_format)], space,
                                            self.data_format))

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format})
        return config


class UpSampling1D(_UpSampling):
    """Repeats each step of `(batch, steps, features)` inputs `size` times.

    Args:
      size: The repetition factor (int).
    """

    def __init__(self, size=2, **kwargs):
        super().__init__(1, size, "channels_last", **kwargs)
        self.size = int(size)

    def call(self, inputs):
        return _repeat_axis(inputs, self.size, 1)

    def compute_output_shape(self, input_shape):
        b, steps, c = tf.TensorShape(input_shape).as_list()
        return tf.TensorShape([b, None if steps is None else steps * self.size, c])

    def get_config(self):
        config = Layer.get_config(self)
        config["size"] = self.size
        return config


class UpSampling2D(_UpSampling):
    """Upsamples the rows and columns of 4D inputs by integer factors.

    Args:
      size: An int or 2-tuple of row/column factors.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      interpolation: 'nearest' (repeats rows and columns) or 'bilinear' (half-pixel centers, as TF 1.15's
        `backend.resize_images`, which calls `resize_images_v2`).

    Raises:
      ValueError: For another interpolation.
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(2, size, data_format, **kwargs)
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError("`interpolation` argument should be one of `\"nearest\"` or `\"bilinear\"`.")
        self.interpolation = interpolation

    def call(self, inputs):
        if self.interpolation == "nearest":
            return super().call(inputs)
        return K.resize_images(inputs, self.size[0], self.size[1], self.data_format, interpolation="bilinear")

    def get_config(self):
        config = super().get_config()
        config["interpolation"] = self.interpolation
        return config


class UpSampling3D(_UpSampling):
    """Repeats the entries of the three spatial axes of 5D inputs.

    Args:
      size: An int or 3-tuple of factors.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
    """

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(3, size, data_format, **kwargs)


def _pairs(value, n, name, what):
    """An int, n ints (symmetric) or n pairs -> n (before, after) pairs, as Keras' padding/cropping layers."""
    if isinstance(value, int):
        return ((value, value),) * n
    if not hasattr(value, "__len__"):
        raise ValueError("`%s` should be either an int, a tuple of %d ints, or a tuple of %d tuples of 2 ints. "
                         "Found: %s" % (name, n, n, value))
    value = tuple(value)
    if len(value) != n:
        raise ValueError("`%s` should have %d elements. Found: %s" % (name, n, value))
    ordinal = ("1st", "2nd", "3rd")
    return tuple(_tuple(v, 2, "%s entry of %s" % (ordinal[i], what)) for i, v in enumerate(value))


class _SpatialMargins(Layer):
    """Shared by padding and cropping: per spatial axis a (before, after) pair, kept in the
    attribute `_ARG` (the constructor argument's name) and added to (`_SIGN` 1) or taken from
    (-1) each spatial size."""

    _ARG = _SIGN = None

    def __init__(self, rank, margins, data_format, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        setattr(self, self._ARG, margins)
        self.data_format = _check_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def _pairs(self):
        margins = getattr(self, self._ARG)
        return margins if self.rank > 1 else (margins,)

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [None if d is None else d + self._SIGN * (p[0] + p[1])
                 for d, p in zip(_spatial(shape, self.data_format), self._pairs())]
        return tf.TensorShape(_with_spatial(shape[0], shape[_channel_axis(self.data_format)], space,
                                            self.data_format))

    def get_config(self):
        config = super().get_config()
        config[self._ARG] = getattr(self, self._ARG)
        if self.rank > 1:
            config["data_format"] = self.data_format
        return config


class _Padding(_SpatialMargins):
    """Shared zero padding of the spatial axes."""

    _ARG, _SIGN = "padding", 1

    def call(self, inputs):
        pads = [list(p) for p in self._pairs()]
        return pad(inputs, _with_spatial([0, 0], [0, 0], pads, self.data_format))


class ZeroPadding1D(_Padding):
    """Pads the steps axis of `(batch, steps, features)` inputs with zeros.

    Args:
      padding: An int (both sides) or a pair `(left, right)`.
    """

    def __init__(self, padding=1, **kwargs):
        super().__init__(1, _tuple(padding, 2, "padding"), "channels_last", **kwargs)


class ZeroPadding2D(_Padding):
    """Pads the rows and columns of 4D inputs with zeros.

    Args:
      padding: An int, 2 ints (symmetric), or ((top, bottom), (left, right)).
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Raises:
      ValueError: For a malformed `padding`.
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(2, _pairs(padding, 2, "padding", "padding"), data_format, **kwargs)


class ZeroPadding3D(_Padding):
    """Pads the three spatial axes of 5D inputs with zeros.

    Args:
      padding: An int, 3 ints (symmetric), or 3 pairs `(before, after)`.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Raises:
      ValueError: For a malformed `padding`.
    """

    def __init__(self, padding=(1, 1, 1), data_format=None, **kwargs):
        super().__init__(3, _pairs(padding, 3, "padding", "padding"), data_format, **kwargs)


class _Cropping(_SpatialMargins):
    """Shared cropping of the spatial axes."""

    _ARG, _SIGN = "cropping", -1

    def call(self, inputs):
        slices = [slice(b, -a if a else None) for b, a in self._pairs()]
        return inputs[tuple(_with_spatial(slice(None), slice(None), slices, self.data_format))]


class Cropping1D(_Cropping):
    """Crops the steps axis of `(batch, steps, features)` inputs.

    Args:
      cropping: An int (both sides) or a pair `(start, end)`.
    """

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(1, _tuple(cropping, 2, "cropping"), "channels_last", **kwargs)


class Cropping2D(_Cropping):
    """Crops the rows and columns of 4D inputs.

    Args:
      cropping: An int, 2 ints (symmetric), or ((top, bottom), (left, right)).
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Raises:
      ValueError: For a malformed `cropping`.
    """

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(2, _pairs(cropping, 2, "cropping", "cropping"), data_format, **kwargs)


class Cropping3D(_Cropping):
    """Crops the three spatial axes of 5D inputs.

    Args:
      cropping: An int, 3 ints (symmetric), or 3 pairs `(start, end)`.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Raises:
      ValueError: For a malformed `cropping`.
    """

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(3, _pairs(cropping, 3, "cropping", "cropping"), data_format, **kwargs)


class _SeparableMixin:
    """The weights, arguments and config shared by SeparableConv1D/2D."""

    def _init_separable(self, depth_multiplier, depthwise_initializer, pointwise_initializer,
                        depthwise_regularizer, pointwise_regularizer, depthwise_constraint, pointwise_constraint):
        from .. import constraints, initializers, regularizers
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", shape=(1,) * self.rank + (channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = self.add_weight("bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={_channel_axis(self.data_format): channels})
        self.built = True

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


class SeparableConv1D(_SeparableMixin, Conv1D):
    """Depthwise-separable 1D convolution: a depthwise convolution, then a pointwise (size 1) one.

    Args:
      filters: Number of output channels.
      kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias: As in `Conv1D`
        ('causal' padding included).
      depth_multiplier: Depthwise output channels per input channel.
      depthwise_initializer, pointwise_initializer, bias_initializer: Initializers.
      depthwise_regularizer, pointwise_regularizer, bias_regularizer, activity_regularizer: Optional.
      depthwise_constraint, pointwise_constraint, bias_constraint: Optional.
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, bias_constraint=bias_constraint, **kwargs)
        self._init_separable(depth_multiplier, depthwise_initializer, pointwise_initializer, depthwise_regularizer,
                             pointwise_regularizer, depthwise_constraint, pointwise_constraint)

    def call(self, inputs):
        first = self.data_format == "channels_first"
        padding = self.padding.upper()
        if self.padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            inputs = pad(inputs, [[0, 0], [0, 0], [left, 0]] if first else [[0, 0], [left, 0], [0, 0]])
            padding = "VALID"
        axis = 2 if first else 1
        outputs = tf.nn.separable_conv2d(tf.expand_dims(inputs, axis), tf.expand_dims(self.depthwise_kernel, 0),
                                         tf.expand_dims(self.pointwise_kernel, 0),
                                         _full((1, self.strides[0]), self.data_format), padding,
                                         rate=(1, self.dilation_rate[0]), data_format=_op_format(2, self.data_format))
        return self._finish(tf.squeeze(outputs, [axis]))


class SeparableConv2D(_SeparableMixin, Conv2D):
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
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, bias_constraint=bias_constraint, **kwargs)
        self._init_separable(depth_multiplier, depthwise_initializer, pointwise_initializer, depthwise_regularizer,
                             pointwise_regularizer, depthwise_constraint, pointwise_constraint)

    def call(self, inputs):
        outputs = tf.nn.separable_conv2d(inputs, self.depthwise_kernel, self.pointwise_kernel,
                                         _full(self.strides, self.data_format), self.padding.upper(),
                                         rate=self.dilation_rate, data_format=_op_format(2, self.data_format))
        return self._finish(outputs)


class _ConvTranspose(_Conv):
    """Shared transposed N-D convolution (N = 2, 3); the kernel has shape `kernel_size + (filters, in)`."""

    def __init__(self, rank, filters, kernel_size, strides, padding, output_padding, data_format, dilation_rate,
                 **kwargs):
        # Not super(): the public subclasses also derive from Conv2D/Conv3D (as in Keras), whose
        # __init__ has another signature.
        _Conv.__init__(self, rank, filters, kernel_size, strides=strides, padding=padding,
                       data_format=data_format, dilation_rate=dilation_rate, **kwargs)
        self.output_padding = output_padding
        if output_padding is not None:
            self.output_padding = _tuple(output_padding, rank, "output_padding")
            for stride, out_pad in zip(self.strides, self.output_padding):
                if out_pad >= stride:
                    raise ValueError("Stride " + str(self.strides) + " must be greater than output padding " +
                                     str(self.output_padding))

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        self.kernel = self.add_weight("kernel", shape=self.kernel_size + (self.filters, channels),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={_channel_axis(self.data_format): channels})
        self.built = True

    def _lengths(self, lengths):
        out_pad = self.output_padding or (None,) * self.rank
        return [_deconv_length(d, self.kernel_size[i], self.padding, self.strides[i], out_pad[i],
                               self.dilation_rate[i]) for i, d in enumerate(lengths)]

    def call(self, inputs):
        static = inputs.shape.as_list()
        dynamic = tf.shape(inputs)
        offset = 2 if self.data_format == "channels_first" else 1
        lengths = [static[offset + i] if static[offset + i] is not None else dynamic[offset + i]
                   for i in range(self.rank)]
        output_shape = tf.stack(_with_spatial(dynamic[0], self.filters, self._lengths(lengths), self.data_format))
        transpose = tf.nn.conv2d_transpose if self.rank == 2 else tf.nn.conv3d_transpose
        outputs = transpose(inputs, self.kernel, output_shape, _full(self.strides, self.data_format),
                            padding=self.padding.upper(), data_format=_op_format(self.rank, self.data_format),
                            dilations=_full(self.dilation_rate, self.data_format))
        outputs.set_shape(self.compute_output_shape(inputs.shape))
        return self._finish(outputs)

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = self._lengths(_spatial(shape, self.data_format))
        return tf.TensorShape(_with_spatial(shape[0], self.filters, space, self.data_format))

    def get_config(self):
        config = super().get_config()
        config["output_padding"] = self.output_padding
        return config


class Conv2DTranspose(_ConvTranspose, Conv2D):
    """Transposed 2D convolution ("deconvolution"); the kernel has shape `(rows, cols, filters, in)`.

    Args:
      filters, kernel_size, strides, padding, data_format, activation, use_bias, *_initializer,
      *_regularizer, *_constraint: As in `Conv2D`.
      output_padding: An int or 2-tuple, the extra rows/columns added to one side of the output (each
        less than the stride), or None to infer the output size.
      dilation_rate: An int or 2-tuple.

    Raises:
      ValueError: If an output padding is not less than its stride.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None,
                 data_format=None, dilation_rate=(1, 1), **kwargs):
        super().__init__(2, filters, kernel_size, strides, padding, output_padding, data_format, dilation_rate,
                         **kwargs)


class Conv3DTranspose(_ConvTranspose, Conv3D):
    """Transposed 3D convolution; the kernel has shape `(depth, rows, cols, filters, in)`.

    Args:
      filters, kernel_size, strides, padding, data_format, activation, use_bias, *_initializer,
      *_regularizer, *_constraint: As in `Conv3D`.
      output_padding: An int or 3-tuple (each less than the stride), or None to infer the output size.
      dilation_rate: An int or 3-tuple.

    Raises:
      ValueError: If an output padding is not less than its stride.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", output_padding=None,
                 data_format=None, dilation_rate=(1, 1, 1), **kwargs):
        super().__init__(3, filters, kernel_size, strides, padding, output_padding, data_format, dilation_rate,
                         **kwargs)


Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D


class _LocallyConnected(Layer):
    """Shared N-D locally-connected layer (implementation 1): a convolution whose weights are not shared
    between output positions. The kernel has shape `(output positions, window size * channels, filters)`
    and the bias `output spatial shape + (filters,)`."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None, activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, implementation=1, **kwargs):
        from .. import activations, constraints, initializers, regularizers
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        self.filters = int(filters)
        self.kernel_size = _tuple(kernel_size, rank, "kernel_size")
        self.strides = _tuple(strides, rank, "strides")
        self.padding = _check_padding(padding)
        if self.padding != "valid":
            raise ValueError("Invalid border mode for %s (only \"valid\" is supported): %s"
                             % (type(self).__name__, padding))
        if implementation != 1:
            raise NotImplementedError("%s supports only implementation=1; got %r."
                                      % (type(self).__name__, implementation))
        self.data_format = _check_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.implementation = implementation
        self.input_spec = InputSpec(ndim=rank + 2)

    def build(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        channels = dims[_channel_axis(self.data_format)]
        space = _spatial(dims, self.data_format)
        if channels is None or None in space:
            raise ValueError("%s needs fully-defined spatial and channel dimensions. Found shape: %s"
                             % (type(self).__name__, dims))
        self.output_shape_ = tuple(_conv_length(d, k, "valid", s)
                                   for d, k, s in zip(space, self.kernel_size, self.strides))
        if min(self.output_shape_) <= 0:
            raise ValueError("One of the dimensions in the output is <= 0 due to downsampling in %s. Consider "
                             "increasing the input size. Received input shape %s which would produce output "
                             "shape with a zero or negative value in a dimension." % (self.name, dims))
        if self.rank == 1:
            self.output_length = self.output_shape_[0]
        else:
            self.output_row, self.output_col = self.output_shape_
        positions = 1
        for d in self.output_shape_:
            positions *= d
        window = 1
        for k in self.kernel_size:
            window *= k
        self.kernel = self.add_weight("kernel", shape=(positions, window * channels, self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", shape=self.output_shape_ + (self.filters,),
                                    initializer=self.bias_initializer, regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={_channel_axis(self.data_format): channels})
        self.built = True

    def call(self, inputs):
        feature_dim = self.kernel.shape.as_list()[1]
        first = self.data_format == "channels_first"
        xs = []
        for position in itertools.product(*[range(d) for d in self.output_shape_]):
            window = [slice(p * s, p * s + k) for p, s, k in zip(position, self.strides, self.kernel_size)]
            index = [slice(None)] + ([slice(None)] + window if first else window + [slice(None)])
            # The window's features in memory order: (taps, channels), or (channels, taps) for channels_first.
            xs.append(tf.reshape(inputs[tuple(index)], (1, -1, feature_dim)))
        output = tf.matmul(tf.concat(xs, 0), self.kernel)
        output = tf.reshape(output, self.output_shape_ + (-1, self.filters))
        n = self.rank
        spatial = list(range(n))
        output = tf.transpose(output, [n, n + 1] + spatial if first else [n] + spatial + [n + 1])
        if self.use_bias:
            bias_shape = self.output_shape_ + (self.filters,)
            # As Keras' bias_add of a bias of rank > 1: reshaped (not transposed) for channels_first.
            shape = (1, self.filters) + self.output_shape_ if first else (1,) + bias_shape
            output = output + tf.reshape(self.bias, shape)
        if self.activation is not None:
            output = self.activation(output)
        return output

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [_conv_length(d, k, "valid", s)
                 for d, k, s in zip(_spatial(shape, self.data_format), self.kernel_size, self.strides)]
        return tf.TensorShape(_with_spatial(shape[0], self.filters, space, self.data_format))

    def get_config(self):
        from .. import activations
        config = super().get_config()
        config.update({"filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
                       "padding": self.padding, "data_format": self.data_format,
                       "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                       **_weights_config(self),
                       "implementation": self.implementation})
        return config


class LocallyConnected1D(_LocallyConnected):
    """Locally-connected layer for `(batch, steps, channels)` inputs: like `Conv1D` with unshared weights.

    Args:
      filters: Number of output channels.
      kernel_size: An int or 1-tuple, the window length.
      strides: An int or 1-tuple.
      padding: Only 'valid'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      activation, use_bias, *_initializer, *_regularizer, *_constraint: As in `Dense`.
      implementation: Only 1 (the kernel of shape `(output_length, kernel_size * channels, filters)`).

    Raises:
      ValueError: For another padding, or an input without fully-defined steps and channels.
      NotImplementedError: For implementation 2 or 3.
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, **kwargs):
        super().__init__(1, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         **kwargs)


class LocallyConnected2D(_LocallyConnected):
    """Locally-connected layer for 4D inputs: like `Conv2D` with unshared weights.

    Args:
      filters: Number of output channels.
      kernel_size: An int or 2-tuple.
      strides: An int or 2-tuple.
      padding: Only 'valid'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      activation, use_bias, *_initializer, *_regularizer, *_constraint: As in `Dense`.
      implementation: Only 1 (the kernel of shape `(output rows * cols, rows * cols * channels, filters)`).

    Raises:
      ValueError: For another padding, or an input without fully-defined spatial and channel dimensions.
      NotImplementedError: For implementation 2 or 3.
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, **kwargs):
        super().__init__(2, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         **kwargs)
