"""Advanced activation layers: LeakyReLU, PReLU, ELU, ThresholdedReLU, Softmax, ReLU."""

from .. import _tf as tf
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .core import _serialize


class LeakyReLU(Layer):
    """Leaky rectified linear unit: `x` for `x > 0`, `alpha * x` otherwise.

    Args:
      alpha: The slope for negative inputs (float >= 0, default 0.3).
    """

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha = float(alpha)

    def call(self, inputs):
        return K.relu(inputs, alpha=self.alpha)

    def get_config(self):
        config = super().get_config()
        config["alpha"] = float(self.alpha)
        return config


class PReLU(Layer):
    """Parametric rectified linear unit: `x` for `x > 0`, `alpha * x` otherwise, with a learned `alpha`
    of the input's shape without the batch axis (size 1 along `shared_axes`).

    Args:
      alpha_initializer: Initializer of the `alpha` weight (default zeros).
      alpha_regularizer: Optional regularizer of `alpha`.
      alpha_constraint: Optional constraint of `alpha`.
      shared_axes: An int or list of ints (1-based, the batch axis being 0): the axes along which one
        `alpha` is shared, e.g. `[1, 2]` for one slope per channel of `(batch, rows, cols, channels)`.

    Raises:
      ValueError: If an input dimension (other than a shared one) is unknown when building.
    """

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        from .. import constraints, initializers, regularizers
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        elif not isinstance(shared_axes, (list, tuple)):
            self.shared_axes = [shared_axes]
        else:
            self.shared_axes = list(shared_axes)

    def build(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        param_shape = list(dims[1:])
        if self.shared_axes is not None:
            for i in self.shared_axes:
                if not 1 <= i < len(dims):
                    raise ValueError("PReLU `shared_axes` entries must be in [1, %d) for inputs of rank %d; got %s."
                                     % (len(dims), len(dims), self.shared_axes))
                param_shape[i - 1] = 1
        if None in param_shape:
            raise ValueError("The dimensions of the inputs to `PReLU` should be defined (or shared with "
                             "`shared_axes`). Found shape %s." % (dims,))
        self.alpha = self.add_weight("alpha", shape=param_shape, initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)
        axes = {}
        if self.shared_axes:
            for i in range(1, len(dims)):
                if i not in self.shared_axes:
                    axes[i] = dims[i]
        self.input_spec = InputSpec(ndim=len(dims), axes=axes)
        self.built = True

    def call(self, inputs):
        pos = tf.nn.relu(inputs)
        neg = -self.alpha * tf.nn.relu(-inputs)
        return pos + neg

    def get_config(self):
        from .. import constraints, initializers, regularizers
        config = super().get_config()
        config.update({"alpha_initializer": initializers.serialize(self.alpha_initializer),
                       "alpha_regularizer": _serialize(regularizers, self.alpha_regularizer),
                       "alpha_constraint": _serialize(constraints, self.alpha_constraint),
                       "shared_axes": self.shared_axes})
        return config


class ELU(Layer):
    """Exponential linear unit: `x` for `x > 0`, `alpha * (exp(x) - 1)` otherwise.

    Args:
      alpha: The scale of the negative part (default 1.0).
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha = float(alpha)

    def call(self, inputs):
        return K.elu(inputs, self.alpha)

    def get_config(self):
        config = super().get_config()
        config["alpha"] = float(self.alpha)
        return config


class ThresholdedReLU(Layer):
    """Thresholded rectified linear unit: `x` for `x > theta`, 0 otherwise.

    Args:
      theta: The threshold (float, default 1.0).
    """

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.theta = float(theta)

    def call(self, inputs):
        dt = inputs.dtype.base_dtype
        return inputs * tf.cast(tf.greater(inputs, tf.constant(self.theta, dt)), dt)

    def get_config(self):
        config = super().get_config()
        config["theta"] = float(self.theta)
        return config


class Softmax(Layer):
    """Softmax activation along `axis`.

    Args:
      axis: The axis the normalization is applied on (default -1).
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.axis = axis

    def call(self, inputs):
        return K.softmax(inputs, axis=self.axis)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


class ReLU(Layer):
    """Rectified linear unit: `max_value` for `x >= max_value`, `x` for `threshold <= x < max_value`,
    `negative_slope * (x - threshold)` otherwise.

    Args:
      max_value: Optional cap of the output (float >= 0).
      negative_slope: The slope below `threshold` (float >= 0, default 0).
      threshold: The threshold (float, default 0).

    Raises:
      ValueError: If `max_value` or `negative_slope` is negative.
    """

    def __init__(self, max_value=None, negative_slope=0, threshold=0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError("max_value of Relu layer cannot be negative value: " + str(max_value))
        if negative_slope < 0.0:
            raise ValueError("negative_slope of Relu layer cannot be negative value: " + str(negative_slope))
        self.supports_masking = True
        self.max_value = None if max_value is None else float(max_value)
        self.negative_slope = float(negative_slope)
        self.threshold = float(threshold)

    def call(self, inputs):
        return K.relu(inputs, alpha=self.negative_slope, max_value=self.max_value, threshold=self.threshold)

    def get_config(self):
        config = super().get_config()
        config.update({"max_value": self.max_value, "negative_slope": self.negative_slope,
                       "threshold": self.threshold})
        return config
