"""Pooling layers: Max/AveragePooling1D/2D/3D, GlobalMax/GlobalAveragePooling1D/2D/3D;
'channels_last' or 'channels_first'."""

from .. import _tf as tf
from ..engine.base_layer import InputSpec, Layer
from .convolutional import (
    _channel_axis,
    _check_format,
    _check_padding,
    _conv_length,
    _full,
    _op_format,
    _spatial,
    _tuple,
    _with_spatial,
)


class _Pooling(Layer):
    """Shared N-D pooling (1-D pooling runs as 2-D over an inserted unit axis)."""

    def __init__(self, rank, kind, pool_size, strides, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.kind = kind
        if strides is None:
            strides = pool_size
        self.pool_size = _tuple(pool_size, rank, "pool_size")
        self.strides = _tuple(strides, rank, "strides")
        self.padding = _check_padding(padding)
        self.data_format = _check_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs):
        padding = self.padding.upper()
        if self.rank == 1:
            pool = tf.nn.max_pool if self.kind == "max" else tf.nn.avg_pool
            axis = 2 if self.data_format == "channels_first" else 1
            out = pool(tf.expand_dims(inputs, axis), _full((1, self.pool_size[0]), self.data_format),
                       _full((1, self.strides[0]), self.data_format), padding,
                       data_format=_op_format(2, self.data_format))
            return tf.squeeze(out, [axis])
        if self.rank == 2:
            pool = tf.nn.max_pool if self.kind == "max" else tf.nn.avg_pool
        else:
            pool = tf.nn.max_pool3d if self.kind == "max" else tf.nn.avg_pool3d
        return pool(inputs, _full(self.pool_size, self.data_format), _full(self.strides, self.data_format),
                    padding, data_format=_op_format(self.rank, self.data_format))

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [_conv_length(d, self.pool_size[i], self.padding, self.strides[i])
                 for i, d in enumerate(_spatial(shape, self.data_format))]
        return tf.TensorShape(_with_spatial(shape[0], shape[_channel_axis(self.data_format)], space,
                                            self.data_format))

    def get_config(self):
        config = {"pool_size": self.pool_size, "padding": self.padding, "strides": self.strides,
                  "data_format": self.data_format}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class MaxPooling1D(_Pooling):
    """Max pooling over `(batch, steps, features)` inputs (`(batch, features, steps)` for
    'channels_first').

    Args:
      pool_size: Window length (int).
      strides: Stride (default: `pool_size`).
      padding: 'valid' or 'same'.
      data_format: 'channels_last' (default) or 'channels_first'.
    """

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last", **kwargs):
        super().__init__(1, "max", pool_size, strides, padding, data_format, **kwargs)


class AveragePooling1D(_Pooling):
    """Average pooling over `(batch, steps, features)` inputs; arguments as `MaxPooling1D`."""

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last", **kwargs):
        super().__init__(1, "avg", pool_size, strides, padding, data_format, **kwargs)


class MaxPooling2D(_Pooling):
    """Max pooling over 4D inputs.

    Args:
      pool_size: An int or 2-tuple window size.
      strides: An int or 2-tuple (default: `pool_size`).
      padding: 'valid' or 'same'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
    """

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(2, "max", pool_size, strides, padding, data_format, **kwargs)


class AveragePooling2D(_Pooling):
    """Average pooling over 4D inputs; arguments as `MaxPooling2D`."""

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(2, "avg", pool_size, strides, padding, data_format, **kwargs)


class MaxPooling3D(_Pooling):
    """Max pooling over 5D inputs `(batch, depth, rows, cols, channels)` (channels second for
    'channels_first').

    Args:
      pool_size: An int or 3-tuple window size.
      strides: An int or 3-tuple (default: `pool_size`).
      padding: 'valid' or 'same'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
    """

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(3, "max", pool_size, strides, padding, data_format, **kwargs)


class AveragePooling3D(_Pooling):
    """Average pooling over 5D inputs; arguments as `MaxPooling3D`."""

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(3, "avg", pool_size, strides, padding, data_format, **kwargs)


class _GlobalPooling(Layer):
    """Reduces all spatial axes with max or mean."""

    def __init__(self, rank, kind, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.kind = kind
        self.data_format = _check_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def _axes(self):
        offset = 2 if self.data_format == "channels_first" else 1
        return list(range(offset, offset + self.rank))

    def call(self, inputs):
        reduce = tf.reduce_max if self.kind == "max" else tf.reduce_mean
        return reduce(inputs, axis=self._axes())

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        return tf.TensorShape([shape[0], shape[_channel_axis(self.data_format)]])

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


class GlobalMaxPooling1D(_GlobalPooling):
    """Max over the steps axis of `(batch, steps, features)` inputs (`(batch, features, steps)` for
    'channels_first')."""

    def __init__(self, data_format="channels_last", **kwargs):
        super().__init__(1, "max", data_format, **kwargs)


class GlobalAveragePooling1D(_GlobalPooling):
    """Mean over the steps axis of `(batch, steps, features)` inputs (`(batch, features, steps)` for
    'channels_first'); with a `(batch, steps)` mask, the mean of the unmasked steps."""

    def __init__(self, data_format="channels_last", **kwargs):
        super().__init__(1, "avg", data_format, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        steps_axis = self._axes()[0]
        if mask is None:
            return tf.reduce_mean(inputs, axis=steps_axis)
        mask = tf.cast(mask, inputs.dtype.base_dtype)
        mask = tf.expand_dims(mask, 2 if self.data_format == "channels_last" else 1)
        inputs = inputs * mask
        return tf.reduce_sum(inputs, axis=steps_axis) / tf.reduce_sum(mask, axis=steps_axis)

    def compute_mask(self, inputs, mask=None):
        """The output is not masked: returns None."""
        return None


class GlobalMaxPooling2D(_GlobalPooling):
    """Max over the spatial axes of 4D inputs."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(2, "max", data_format, **kwargs)


class GlobalAveragePooling2D(_GlobalPooling):
    """Mean over the spatial axes of 4D inputs."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(2, "avg", data_format, **kwargs)


class GlobalMaxPooling3D(_GlobalPooling):
    """Max over the spatial axes of 5D inputs."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(3, "max", data_format, **kwargs)


class GlobalAveragePooling3D(_GlobalPooling):
    """Mean over the spatial axes of 5D inputs."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(3, "avg", data_format, **kwargs)


MaxPool1D, AvgPool1D, MaxPool2D, AvgPool2D = MaxPooling1D, AveragePooling1D, MaxPooling2D, AveragePooling2D
MaxPool3D, AvgPool3D = MaxPooling3D, AveragePooling3D
GlobalMaxPool1D, GlobalAvgPool1D = GlobalMaxPooling1D, GlobalAveragePooling1D
GlobalMaxPool2D, GlobalAvgPool2D = GlobalMaxPooling2D, GlobalAveragePooling2D
GlobalMaxPool3D, GlobalAvgPool3D = GlobalMaxPooling3D, GlobalAveragePooling3D
