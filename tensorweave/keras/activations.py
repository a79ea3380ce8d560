"""tf.keras.activations: the Keras 2 (TF 1.15) activation functions."""

from ..ops import array_ops, math_ops, nn_ops  # noqa: F401

__all__ = ["deserialize", "elu", "exponential", "get", "hard_sigmoid", "linear", "relu", "selu", "serialize",
           "sigmoid", "softmax", "softplus", "softsign", "tanh"]


def softmax(x, axis=-1):
    """Softmax activation along `axis`.

    Args:
      x: Input tensor.
      axis: Integer, axis along which the softmax normalization is applied.

    Returns:
      Tensor, output of the softmax transformation.

    Raises:
      ValueError: In case `dim(x) == 1`.
    """
    x = _tensor(x)
    ndim = x.shape.ndims
    if ndim == 2:
        return nn_ops.softmax(x)
    if ndim is not None and ndim > 2:
        e = math_ops.exp(x - math_ops.reduce_max(x, axis=axis, keepdims=True))
        s = math_ops.reduce_sum(e, axis=axis, keepdims=True)
        return e / s
    if ndim is None:
        return nn_ops.softmax(x, axis=axis)
    raise ValueError("Cannot apply softmax to a tensor that is 1D. Received input: %s" % (x,))


def elu(x, alpha=1.0):
    """Exponential linear unit: `x` if `x > 0`, else `alpha * (exp(x) - 1)`."""
    res = nn_ops.elu(x)
    if alpha == 1:
        return res
    return array_ops.where(_tensor(x) > 0, res, alpha * res)


def selu(x):
    """Scaled exponential linear unit (Klambauer et al., 2017)."""
    return nn_ops.selu(x)


def softplus(x):
    """Softplus activation: `log(exp(x) + 1)`."""
    return nn_ops.softplus(x)


def softsign(x):
    """Softsign activation: `x / (abs(x) + 1)`."""
    return nn_ops.softsign(x)


def relu(x, alpha=0., max_value=None, threshold=0):
    """Rectified linear unit, with Keras 2's `alpha`, `max_value` and `threshold` options.

    Returns `max_value` for `x >= max_value`, `x` for `threshold <= x < max_value` and
    `alpha * (x - threshold)` otherwise.

    Args:
      x: Input tensor.
      alpha: Slope of the negative part.
      max_value: Saturation threshold (None: unbounded).
      threshold: Threshold below which values are damped or set to zero.

    Returns:
      A tensor.
    """
    x = _tensor(x)
    if alpha != 0.:
        if max_value is None and threshold == 0:
            return nn_ops.leaky_relu(x, alpha=alpha)
        if threshold != 0:
            negative_part = nn_ops.relu(-x + threshold)
        else:
            negative_part = nn_ops.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * math_ops.cast(math_ops.greater(x, threshold), x.dtype)
    elif max_value == 6:
        x = nn_ops.relu6(x)
        clip_max = False
    else:
        x = nn_ops.relu(x)
    if clip_max:
        x = math_ops.minimum(x, math_ops.cast(max_value, x.dtype))
        x = math_ops.maximum(x, math_ops.cast(0., x.dtype))
    if alpha != 0.:
        x = x - math_ops.cast(alpha, x.dtype) * negative_part
    return x


def tanh(x):
    """Hyperbolic tangent activation."""
    return math_ops.tanh(x)


def sigmoid(x):
    """Sigmoid activation: `1 / (1 + exp(-x))`."""
    return math_ops.sigmoid(x)


def exponential(x):
    """Exponential activation: `exp(x)`."""
    return math_ops.exp(x)


def hard_sigmoid(x):
    """Hard sigmoid (Keras 2): `clip(0.2 * x + 0.5, 0, 1)`."""
    x = _tensor(x)
    x = 0.2 * x + 0.5
    return math_ops.minimum(math_ops.maximum(x, math_ops.cast(0., x.dtype)), math_ops.cast(1., x.dtype))


def linear(x):
    """Linear (identity) activation."""
    return x


def _tensor(x):
    from ..framework import ops
    return ops.convert_to_tensor(x)


def serialize(activation):
    """Returns the name of an activation function."""
    if hasattr(activation, "get_config"):
        return {"class_name": activation.__class__.__name__, "config": activation.get_config()}
    return activation.__name__


def deserialize(name, custom_objects=None):
    """Returns the activation function called `name`.

    Raises:
      ValueError: `Unknown activation function:<name>` if it is not one.
    """
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    fn = globals().get(name) if name in __all__ and name not in ("get", "serialize", "deserialize") else None
    if fn is None:
        raise ValueError("Unknown activation function:" + str(name))
    return fn


def get(identifier):
    """Returns the activation function for `identifier` (None -> linear, a name, or a callable).

    Raises:
      ValueError: If `identifier` is neither a known name nor callable.
    """
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret activation function identifier: " + str(identifier))
