"""BatchNormalization and LayerNormalization (Keras 2 semantics, graph mode)."""

from .. import _tf as tf
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .core import _serialize


class BatchNormalization(Layer):
    """Normalizes activations over the batch (training) or with moving statistics (inference).

    In the training phase the batch mean/variance normalize the inputs and the moving statistics are
    updated with `moving = moving * momentum + batch * (1 - momentum)` (registered with `add_update`, so
    `fit` runs them); otherwise the moving statistics are used. As tf-keras' fused path, 4-D inputs
    normalized over axis 1 or 3 update the moving variance with the unbiased batch variance.

    Args:
      axis: The features axis (default -1).
      momentum: Momentum of the moving average.
      epsilon: Added to the variance.
      center, scale: Whether to use `beta` / `gamma`.
      beta_initializer, gamma_initializer, moving_mean_initializer, moving_variance_initializer: Initializers.
      beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint: Optional.

    Raises:
      ValueError: If the features axis has an unknown size.
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 **kwargs):
        from .. import constraints, initializers, regularizers
        super().__init__(**kwargs)
        self.axis = axis
        self.momentum = momentum
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True

    def build(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        ndim = len(dims)
        axis = self.axis if self.axis >= 0 else ndim + self.axis
        if axis < 0 or axis >= ndim:
            raise ValueError("Invalid axis: %d" % self.axis)
        if dims[axis] is None:
            raise ValueError("Axis %d of input tensor should have a defined dimension but the layer received an "
                             "input with shape %s." % (self.axis, dims))
        self._axis = axis
        size = dims[axis]
        self.input_spec = InputSpec(ndim=ndim, axes={self.axis: size})
        self.gamma = self.add_weight("gamma", shape=(size,), initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint) \
            if self.scale else None
        self.beta = self.add_weight("beta", shape=(size,), initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint) \
            if self.center else None
        self.moving_mean = self.add_weight("moving_mean", shape=(size,), initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", shape=(size,),
                                               initializer=self.moving_variance_initializer, trainable=False)
        self.built = True

    def call(self, inputs, training=None):
        if training is None:
            training = K.learning_phase()
        ndim = inputs.shape.ndims
        reduction = [i for i in range(ndim) if i != self._axis]
        broadcast = [1] * ndim
        broadcast[self._axis] = -1

        def shaped(v):
            return None if v is None else (v if self._axis == ndim - 1 else tf.reshape(v, broadcast))

        mean, variance = tf.nn.moments(inputs, reduction)
        train_out = tf.nn.batch_normalization(inputs, shaped(mean), shaped(variance), shaped(self.beta),
                                              shaped(self.gamma), self.epsilon)
        test_out = tf.nn.batch_normalization(inputs, shaped(self.moving_mean), shaped(self.moving_variance),
                                             shaped(self.beta), shaped(self.gamma), self.epsilon)
        if training is False or training == 0:
            return test_out
        # Moving statistics: unchanged outside the training phase.
        new_mean = K.in_train_phase(mean, self.moving_mean, training=training)
        batch_var = variance
        if ndim == 4 and self._axis in (1, 3):
            # Keras takes the fused kernel here, whose moving variance uses the unbiased batch variance.
            channels = float(inputs.shape.as_list()[self._axis])
            count = tf.cast(tf.reduce_prod(tf.shape(inputs)), variance.dtype) / channels
            batch_var = variance * count / tf.maximum(count - 1.0, 1.0)
        new_var = K.in_train_phase(batch_var, self.moving_variance, training=training)
        m = self.momentum
        self.add_update([(self.moving_mean, self.moving_mean * m + new_mean * (1.0 - m)),
                         (self.moving_variance, self.moving_variance * m + new_var * (1.0 - m))])
        return K.in_train_phase(train_out, test_out, training=training)

    def compute_output_shape(self, input_shape):
        return tf.TensorShape(input_shape)

    def get_config(self):
        from .. import constraints, initializers, regularizers
        config = {"axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon, "center": self.center,
                  "scale": self.scale, "beta_initializer": initializers.serialize(self.beta_initializer),
                  "gamma_initializer": initializers.serialize(self.gamma_initializer),
                  "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
                  "moving_variance_initializer": initializers.serialize(self.moving_variance_initializer),
                  "beta_regularizer": _serialize(regularizers, self.beta_regularizer),
                  "gamma_regularizer": _serialize(regularizers, self.gamma_regularizer),
                  "beta_constraint": _serialize(constraints, self.beta_constraint),
                  "gamma_constraint": _serialize(constraints, self.gamma_constraint)}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class LayerNormalization(Layer):
    """Normalizes each example over `axis`: `(x - mean) / sqrt(variance + epsilon) * gamma + beta`.

    Args:
      axis: An int or list of ints, the axes to normalize over (default -1).
      epsilon: Added to the variance.
      center, scale: Whether to use `beta` / `gamma`.
      beta_initializer, gamma_initializer, beta_regularizer, gamma_regularizer, beta_constraint,
      gamma_constraint: As in `BatchNormalization`.

    Raises:
      ValueError: If a normalized axis is out of range or has an unknown size.
    """

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        from .. import constraints, initializers, regularizers
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else axis
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True

    def build(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        ndim = len(dims)
        axes = self.axis if isinstance(self.axis, list) else [self.axis]
        axes = sorted(a + ndim if a < 0 else a for a in axes)
        for a in axes:
            if a < 0 or a >= ndim:
                raise ValueError("Invalid axis: %d" % a)
            if dims[a] is None:
                raise ValueError("Axis %d of the input should have a defined dimension; got shape %s." % (a, dims))
        self._axes = axes
        shape = tuple(dims[a] for a in axes)
        self.gamma = self.add_weight("gamma", shape=shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint) \
            if self.scale else None
        self.beta = self.add_weight("beta", shape=shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint) \
            if self.center else None
        self.built = True

    def call(self, inputs):
        ndim = inputs.shape.ndims
        broadcast = [1] * ndim
        for a in self._axes:
            broadcast[a] = inputs.shape.as_list()[a]

        def shaped(v):
            return None if v is None else tf.reshape(v, broadcast)

        mean, variance = tf.nn.moments(inputs, self._axes, keep_dims=True)
        return tf.nn.batch_normalization(inputs, mean, variance, shaped(self.beta), shaped(self.gamma),
                                         self.epsilon)

    def compute_output_shape(self, input_shape):
        return tf.TensorShape(input_shape)

    def get_config(self):
        from .. import constraints, initializers, regularizers
        config = {"axis": self.axis, "epsilon": self.epsilon, "center": self.center, "scale": self.scale,
                  "beta_initializer": initializers.serialize(self.beta_initializer),
                  "gamma_initializer": initializers.serialize(self.gamma_initializer),
                  "beta_regularizer": _serialize(regularizers, self.beta_regularizer),
                  "gamma_regularizer": _serialize(regularizers, self.gamma_regularizer),
                  "beta_constraint": _serialize(constraints, self.beta_constraint),
                  "gamma_constraint": _serialize(constraints, self.gamma_constraint)}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))
