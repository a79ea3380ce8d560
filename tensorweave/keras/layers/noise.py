"""Noise and spatial-dropout layers: GaussianNoise, GaussianDropout, AlphaDropout, SpatialDropout1D/2D/3D.

All of them act only in the training phase and are the identity at inference."""

import math

from ...ops.math_binary_ops import greater_equal
from .. import _tf as tf
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .core import Dropout

# SELU's constants (Klambauer et al., 2017).
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


class GaussianNoise(Layer):
    """Adds zero-centered Gaussian noise of standard deviation `stddev` in training.

    Args:
      stddev: The standard deviation of the noise.
      seed: Optional random seed.
    """

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.stddev = stddev
        self.seed = seed

    def call(self, inputs, training=None):
        def noised():
            return inputs + tf.random_normal(tf.shape(inputs), mean=0.0, stddev=self.stddev,
                                             dtype=inputs.dtype.base_dtype, seed=self.seed)
        return K.in_train_phase(noised, lambda: tf.identity(inputs), training=training)

    def get_config(self):
        config = super().get_config()
        config.update({"stddev": self.stddev, "seed": self.seed})
        return config


class GaussianDropout(Layer):
    """Multiplies the inputs by Gaussian noise of mean 1 and standard deviation
    `sqrt(rate / (1 - rate))` in training.

    Args:
      rate: The drop probability of the equivalent `Dropout` (0 < rate < 1; otherwise the layer is the
        identity).
      seed: Optional random seed.
    """

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.rate = rate
        self.seed = seed

    def call(self, inputs, training=None):
        if 0 < self.rate < 1:
            stddev = math.sqrt(self.rate / (1.0 - self.rate))

            def noised():
                return inputs * tf.random_normal(tf.shape(inputs), mean=1.0, stddev=stddev,
                                                 dtype=inputs.dtype.base_dtype, seed=self.seed)
            return K.in_train_phase(noised, lambda: tf.identity(inputs), training=training)
        return inputs

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed})
        return config


class AlphaDropout(Layer):
    """Dropout that keeps the mean and variance of its inputs (for SELU networks): dropped entries are set
    to SELU's negative saturation value, then an affine map restores the statistics, in training.

    Args:
      rate: The drop probability (0 < rate < 1; otherwise the layer is the identity).
      noise_shape: Optional shape of the binary keep mask (broadcast over the inputs); None entries take
        the inputs' size.
      seed: Optional random seed.
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs, training=None):
        if 0.0 < self.rate < 1.0:
            rate = self.rate

            def dropped():
                dt = inputs.dtype.base_dtype
                noise_shape = tf.shape(inputs)
                if self.noise_shape:
                    noise_shape = tf.stack([noise_shape[i] if d is None else d
                                            for i, d in enumerate(self.noise_shape)])
                alpha_p = -_SELU_ALPHA * _SELU_SCALE
                kept = tf.cast(greater_equal(tf.random_uniform(noise_shape, dtype=dt, seed=self.seed),
                                                tf.constant(rate, dt)), dt)
                a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
                b = -a * alpha_p * rate
                x = inputs * kept + alpha_p * (1 - kept)
                return a * x + b
            return K.in_train_phase(dropped, lambda: tf.identity(inputs), training=training)
        return inputs

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed})
        return config


def _check_data_format(data_format):
    data_format = K.image_data_format() if data_format is None else data_format
    if data_format not in {"channels_last", "channels_first"}:
        raise ValueError('data_format must be in {"channels_last", "channels_first"}')
    return data_format


class SpatialDropout1D(Dropout):
    """Dropout of whole feature maps of `(batch, steps, channels)` inputs: one keep/drop decision per
    sample and channel, shared by all steps, in training.

    Args:
      rate: The fraction of channels to drop.
    """

    def __init__(self, rate, **kwargs):
        super().__init__(rate, **kwargs)
        self.input_spec = InputSpec(ndim=3)

    def _get_noise_shape(self, inputs):
        shape = tf.shape(inputs)
        return tf.stack([shape[0], 1, shape[2]])


class _SpatialDropoutMaps(Dropout):
    """Dropout of whole `_RANK`-D feature maps: one keep/drop decision per sample and channel."""

    _RANK = None

    def __init__(self, rate, data_format=None, **kwargs):
        super().__init__(rate, **kwargs)
        self.data_format = _check_data_format(data_format)
        self.input_spec = InputSpec(ndim=self._RANK + 2)

    def _get_noise_shape(self, inputs):
        shape = tf.shape(inputs)
        if self.data_format == "channels_first":
            return tf.stack([shape[0], shape[1]] + [1] * self._RANK)
        return tf.stack([shape[0]] + [1] * self._RANK + [shape[self._RANK + 1]])

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


class SpatialDropout2D(_SpatialDropoutMaps):
    """Dropout of whole 2D feature maps: one keep/drop decision per sample and channel, in training.

    Args:
      rate: The fraction of channels to drop.
      data_format: 'channels_last' (default: `image_data_format()`) or 'channels_first'.

    Raises:
      ValueError: For another `data_format`.
    """

    _RANK = 2


class SpatialDropout3D(_SpatialDropoutMaps):
    """Dropout of whole 3D feature maps: one keep/drop decision per sample and channel, in training.

    Args:
      rate: The fraction of channels to drop.
      data_format: 'channels_last' (default: `image_data_format()`) or 'channels_first'.

    Raises:
      ValueError: For another `data_format`.
    """

    _RANK = 3
