"""Pooling layers (channels_last): Max/AveragePooling1D/2D, GlobalMax/GlobalAveragePooling1D/2D."""

from .. import _tf as tf
from ..engine.base_layer import InputSpec, Layer
from .convolutional import _check_format, _conv_length, _tuple


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
        self.padding = padding.lower()
        if self.padding not in ("valid", "same"):
            raise ValueError("The `padding` argument must be one of 'valid', 'same'. Received: %s" % padding)
        self.data_format = _check_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs):
        pool = tf.nn.max_pool if self.kind == "max" else tf.nn.avg_pool
        if self.rank == 1:
            x = tf.expand_dims(inputs, 1)
            out = pool(x, [1, 1, self.pool_size[0], 1], [1, 1, self.strides[0], 1], self.padding.upper())
            return tf.squeeze(out, [1])
        return pool(inputs, [1] + list(self.pool_size) + [1], [1] + list(self.strides) + [1],
                    self.padding.upper())

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        space = [_conv_length(shape[1 + i], self.pool_size[i], self.padding, self.strides[i])
                 for i in range(self.rank)]
        return tf.TensorShape([shape[0]] + space + [shape[-1]])

    def get_config(self):
        config = {"pool_size": self.pool_size, "padding": self.padding, "strides": self.strides,
                  "data_format": self.data_format}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class MaxPooling1D(_Pooling):
    """Max pooling over `(batch, steps, features)` inputs.

    Args:
      pool_size: Window length (int).
      strides: Stride (default: `pool_size`).
      padding: 'valid' or 'same'.
      data_format: Only 'channels_last'.
    """

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last", **kwargs):
        super().__init__(1, "max", pool_size, strides, padding, data_format, **kwargs)


class AveragePooling1D(_Pooling):
    """Average pooling over `(batch, steps, features)` inputs; arguments as `MaxPooling1D`."""

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last", **kwargs):
        super().__init__(1, "avg", pool_size, strides, padding, data_format, **kwargs)


class MaxPooling2D(_Pooling):
    """Max pooling over `(batch, rows, cols, channels)` inputs.

    Args:
      pool_size: An int or 2-tuple window size.
      strides: An int or 2-tuple (default: `pool_size`).
      padding: 'valid' or 'same'.
      data_format: Only 'channels_last'.
    """

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(2, "max", pool_size, strides, padding, data_format, **kwargs)


class AveragePooling2D(_Pooling):
    """Average pooling over `(batch, rows, cols, channels)` inputs; arguments as `MaxPooling2D`."""

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(2, "avg", pool_size, strides, padding, data_format, **kwargs)


class _GlobalPooling(Layer):
    """Reduces all spatial axes with max or mean."""

    def __init__(self, rank, kind, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.kind = kind
        self.data_format = _check_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs):
        reduce = tf.reduce_max if self.kind == "max" else tf.reduce_mean
        return reduce(inputs, axis=list(range(1, self.rank + 1)))

    def compute_output_shape(self, input_shape):
        shape = tf.TensorShape(input_shape).as_list()
        return tf.TensorShape([shape[0], shape[-1]])

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


class GlobalMaxPooling1D(_GlobalPooling):
    """Max over the steps axis of `(batch, steps, features)` inputs."""

    def __init__(self, data_format="channels_last", **kwargs):
        super().__init__(1, "max", data_format, **kwargs)


class GlobalAveragePooling1D(_GlobalPooling):
    """Mean over the steps axis of `(batch, steps, features)` inputs."""

    def __init__(self, data_format="channels_last", **kwargs):
        super().__init__(1, "avg", data_format, **kwargs)


class GlobalMaxPooling2D(_GlobalPooling):
    """Max over the spatial axes of `(batch, rows, cols, channels)` inputs."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(2, "max", data_format, **kwargs)


class GlobalAveragePooling2D(_GlobalPooling):
    """Mean over the spatial axes of `(batch, rows, cols, channels)` inputs."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(2, "avg", data_format, **kwargs)


MaxPool1D, AvgPool1D, MaxPool2D, AvgPool2D = MaxPooling1D, AveragePooling1D, MaxPooling2D, AveragePooling2D
GlobalMaxPool1D, GlobalAvgPool1D = GlobalMaxPooling1D, GlobalAveragePooling1D
GlobalMaxPool2D, GlobalAvgPool2D = GlobalMaxPooling2D, GlobalAveragePooling2D
