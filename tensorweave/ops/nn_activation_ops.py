"""Neural-network ops: activations (relu, relu6, elu, selu, softplus, softsign, leaky_relu),
their gradient ops, softmax and log_softmax, and the dtype checks the nn ops share."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from . import _npfast
from .core_ops import same_as_input, zeros_like

_FLOAT_NAMES = "float16, bfloat16, float32, float64"
_REAL_NAMES = "float32, float64, int32, uint8, int16, int8, int64, bfloat16, uint16, float16, uint32, uint64"


def _check_dtype(t, floating_only, param="features"):
    dt = t.dtype
    if floating_only and not dt.is_floating or not (dt.is_floating or dt.is_integer):
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (param, dt.name, _FLOAT_NAMES if floating_only else _REAL_NAMES))


def _float_infer(op):
    _check_dtype(op._inputs[0], True)
    return same_as_input(op)


def _real_infer(op):
    _check_dtype(op._inputs[0], False)
    return same_as_input(op)


def _pair_infer(op):
    """Gradient ops `(gradients, features)`: same dtype, compatible shapes."""
    g, f = op._inputs
    if g.dtype is not f.dtype:
        raise TypeError("Input 'features' of '%s' Op has type %s that does not match type %s of argument "
                        "'gradients'." % (op.type, f.dtype.name, g.dtype.name))
    return [(g.dtype, g.shape.merge_with(f.shape).as_tuple())]


def _is_zero(t):
    return t is None or getattr(t, "op", None) is not None and t.op.type == "ZerosLike"


# ---- activation gradient ops ---------------------------------------------------------------
_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_ALPHA = 1.6732632423543772848170429916717


def _relu_grad_grad(op, grad):
    """ReluGrad(g, y) is linear in g with mask y > 0; constant in y almost everywhere."""
    return [ops.apply_op("ReluGrad", [grad, op._inputs[1]]), zeros_like(op._inputs[1])]


def _relu6_grad_grad(op, grad):
    """Relu6Grad(g, x) is linear in g with mask 0 < x < 6; constant in x almost everywhere."""
    return [ops.apply_op("Relu6Grad", [grad, op._inputs[1]]), zeros_like(op._inputs[1])]


def _elu_grad_grad(op, grad):
    """EluGrad(g, y) = g * (y + 1) for y < 0 else g: d/dg = EluGrad(., y), d/dy = g for y < 0."""
    from . import array_ops, math_ops
    y = op._inputs[1]
    return [ops.apply_op("EluGrad", [grad, y]),
            array_ops.where(math_ops.less(y, 0), math_ops.multiply(grad, op._inputs[0]), zeros_like(y))]


def _selu_grad_grad(op, grad):
    """SeluGrad(g, y) = g * (y + scale * alpha) for y < 0 else g * scale: d/dy = g for y < 0."""
    from . import array_ops, math_ops
    y = op._inputs[1]
    return [ops.apply_op("SeluGrad", [grad, y]),
            array_ops.where(math_ops.less(y, 0), math_ops.multiply(grad, op._inputs[0]), zeros_like(y))]


def _softplus_grad_grad(op, grad):
    """SoftplusGrad(g, x) = g * sigmoid(x): d/dx = g * sigmoid'(x) = g / (exp(-x) + 2 + exp(x))."""
    from . import math_ops
    dy, x = op._inputs
    d2x = math_ops.divide(math_ops.multiply(grad, dy),
                          math_ops.add(math_ops.add(math_ops.exp(math_ops.negative(x)), 2.0), math_ops.exp(x)))
    return [ops.apply_op("SoftplusGrad", [grad, x]), d2x]


def _softsign_grad_grad(op, grad):
    """SoftsignGrad(g, x) = g / (1 + |x|)^2: d/dx = -2 g sign(x) / (1 + |x|)^3."""
    from . import math_ops
    dy, x = op._inputs
    denom = math_ops.add(math_ops.abs(x), 1.0)
    d2x = math_ops.multiply(math_ops.multiply(grad, dy),
                            math_ops.divide(math_ops.multiply(-2.0, math_ops.sign(x)),
                                            math_ops.multiply(denom, math_ops.square(denom))))
    return [ops.apply_op("SoftsignGrad", [grad, x]), d2x]


def _sigmoid(x):
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def _softsign_grad_kernel(xp, g, x):
    d = 1 + np.abs(x)
    return g / (d * d)


# (op type, kernel(g, x), gradient): each is `(gradients, features_or_outputs) -> backprops`. ReluGrad and
# Relu6Grad multiply by the mask as TF's kernels do (a NaN gradient stays NaN where the mask is 0).
_ACTIVATION_GRAD_OPS = [
    ("ReluGrad", lambda xp, g, y: g * (y > 0), _relu_grad_grad),
    ("Relu6Grad", lambda xp, g, x: g * ((x > 0) & (x < 6)), _relu6_grad_grad),
    ("EluGrad", lambda xp, g, y: np.where(y < 0, g * (y + 1), g), _elu_grad_grad),
    ("SeluGrad", lambda xp, g, y: np.where(y < 0, g * (y + _SELU_SCALE * _SELU_ALPHA), g * _SELU_SCALE),
     _selu_grad_grad),
    ("SoftplusGrad", lambda xp, g, x: g * _sigmoid(x), _softplus_grad_grad),
    ("SoftsignGrad", _softsign_grad_kernel, _softsign_grad_grad),
]
for _t, _k, _g in _ACTIVATION_GRAD_OPS:
    register_op(_t, infer=_pair_infer, kernel=_k, grad=_g, gpu=True, elementwise=True)


# ---- activations -----------------------------------------------------------------------------
def _relu_grad(op, grad):
    """d relu(x)/dx = 1 where relu(x) > 0."""
    return [ops.apply_op("ReluGrad", [grad, op._outputs[0]])]


def _relu6_grad(op, grad):
    """d relu6(x)/dx = 1 where 0 < x < 6."""
    return [ops.apply_op("Relu6Grad", [grad, op._inputs[0]])]


def _elu_grad(op, grad):
    """d elu(x)/dx = elu(x) + 1 for x < 0, else 1."""
    return [ops.apply_op("EluGrad", [grad, op._outputs[0]])]


def _selu_grad(op, grad):
    """d selu(x)/dx = selu(x) + scale * alpha for x < 0, else scale."""
    return [ops.apply_op("SeluGrad", [grad, op._outputs[0]])]


def _softplus_grad(op, grad):
    """d softplus(x)/dx = sigmoid(x)."""
    return [ops.apply_op("SoftplusGrad", [grad, op._inputs[0]])]


def _softsign_grad(op, grad):
    """d softsign(x)/dx = 1 / (1 + |x|)^2."""
    return [ops.apply_op("SoftsignGrad", [grad, op._inputs[0]])]


def _softplus_kernel(xp, x):
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


def _elu_kernel(xp, x):
    return np.where(x < 0, np.expm1(np.minimum(x, 0)), x)


def _selu_kernel(xp, x):
    return np.where(x < 0, (_SELU_SCALE * _SELU_ALPHA) * np.expm1(np.minimum(x, 0)), _SELU_SCALE * x)


def relu_kernel(xp, x, out=None):
    """ReLU, `max(x, 0)` in x's dtype: NaN stays NaN. The one definition of its values: the Relu op
    and the fused convolution epilogue call it; the numba loops (`_conv_jit`) apply
    `relu_scalar`, checked bitwise against it."""
    if xp is np:
        return _npfast.relu(x, out=out)
    return xp.maximum(x, x.dtype.type(0), out=out)


def relu_scalar(v, zero):
    """`relu_kernel` of one element `v` (`zero` is 0 in v's dtype), for compiled loops."""
    return v if v > zero or v != v else zero


def relu_grad_scalar(g, y, zero):
    """ReluGrad of one element: `g * (y > 0)` as its kernel computes it (a NaN or inf `g` times 0 is NaN)."""
    return g if y > zero else g * zero


# (op type, infer, kernel, gradient)
_ACTIVATION_OPS = [
    ("Relu", _real_infer, relu_kernel, _relu_grad),
    ("Relu6", _real_infer, lambda xp, x: xp.minimum(xp.maximum(x, x.dtype.type(0)), x.dtype.type(6)), _relu6_grad),
    ("Elu", _float_infer, _elu_kernel, _elu_grad),
    ("Selu", _float_infer, _selu_kernel, _selu_grad),
    ("Softplus", _float_infer, _softplus_kernel, _softplus_grad),
    ("Softsign", _float_infer, lambda xp, x: x / (1 + np.abs(x)), _softsign_grad),
]
for _t, _i, _k, _g in _ACTIVATION_OPS:
    register_op(_t, infer=_i, kernel=_k, grad=_g, gpu=True, elementwise=True,
                transcendental=_t in ("Elu", "Selu", "Softplus"))


def relu(features, name=None):
    """Computes rectified linear: `max(features, 0)`.

    Args:
      features: A real-valued `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `features`.
    """
    return ops.apply_op("Relu", [ops.convert_to_tensor(features, name="features")], name=name)


def relu6(features, name=None):
    """Computes Rectified Linear 6: `min(max(features, 0), 6)`.

    Args:
      features: A real-valued `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type as `features`.
    """
    with ops.name_scope(name, "Relu6", [features]) as name:
        features = ops.convert_to_tensor(features, name="features")
        return ops.apply_op("Relu6", [features], name=name)


def elu(features, name=None):
    """Computes exponential linear: `exp(features) - 1` if < 0, `features` otherwise.

    Args:
      features: A floating `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `features`.
    """
    return ops.apply_op("Elu", [ops.convert_to_tensor(features, name="features")], name=name)


def selu(features, name=None):
    """Computes scaled exponential linear: `scale * alpha * (exp(features) - 1)` if < 0,
    `scale * features` otherwise, with TF's `alpha` and `scale` constants.

    Args:
      features: A floating `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `features`.
    """
    return ops.apply_op("Selu", [ops.convert_to_tensor(features, name="features")], name=name)


def softplus(features, name=None):
    """Computes softplus: `log(exp(features) + 1)`, without overflow for large inputs.

    Args:
      features: A floating `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `features`.
    """
    return ops.apply_op("Softplus", [ops.convert_to_tensor(features, name="features")], name=name)


def softsign(features, name=None):
    """Computes softsign: `features / (abs(features) + 1)`.

    Args:
      features: A floating `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `features`.
    """
    return ops.apply_op("Softsign", [ops.convert_to_tensor(features, name="features")], name=name)


# ---- LeakyRelu -------------------------------------------------------------------------------
def _leaky_relu_kernel(xp, x, alpha):
    return xp.where(x > 0, x, x * x.dtype.type(alpha))


def _leaky_relu_grad(op, grad):
    """d leaky_relu(x)/dx = 1 for x > 0, else alpha."""
    return [ops.apply_op("LeakyReluGrad", [grad, op._inputs[0]], {"alpha": op._attrs["alpha"]})]


register_op("LeakyRelu", infer=_float_infer, kernel=_leaky_relu_kernel, grad=_leaky_relu_grad, gpu=True,
            elementwise=True)


def _leaky_relu_grad_kernel(xp, g, x, alpha):
    return xp.where(x > 0, g, g * g.dtype.type(alpha))


def _leaky_relu_grad_grad(op, grad):
    """LeakyReluGrad(g, x) is linear in g; constant in x almost everywhere."""
    x = op._inputs[1]
    return [ops.apply_op("LeakyReluGrad", [grad, x], {"alpha": op._attrs["alpha"]}), zeros_like(x)]


register_op("LeakyReluGrad", infer=_pair_infer, kernel=_leaky_relu_grad_kernel, grad=_leaky_relu_grad_grad, gpu=True,
            elementwise=True)


def leaky_relu(features, alpha=0.2, name=None):
    """Computes the Leaky ReLU activation: `features` where positive, `alpha * features` elsewhere.

    Args:
      features: A `Tensor` of pre-activation values; integers are cast to float32.
      alpha: Slope of the activation function at x < 0: a Python float (a float32 attribute, as TF
        stores it, so float64 features see `float32(alpha)`).
      name: A name for the operation (optional).

    Returns:
      The activation value.

    Raises:
      TypeError: If `alpha` is not a float (a Tensor, a string).
    """
    with ops.name_scope(name, "LeakyRelu", [features, alpha]) as name:
        features = ops.convert_to_tensor(features, name="features")
        if features.dtype.is_integer:
            from . import math_ops
            features = math_ops.cast(features, dtypes.float32)
        if isinstance(alpha, np.ndarray):
            alpha = alpha.item()
        return ops.apply_op("LeakyRelu", [features], {"alpha": _float32_attr(alpha, "alpha")}, name=name)


def _float32_attr(v, arg_name):
    """A float attribute's value as TF stores it: converted with float(), rounded to float32.

    Raises:
      TypeError: If `v` does not convert to a float (a Tensor, a string).
    """
    if ops.is_tensor(v) or isinstance(v, (str, bytes)):
        raise TypeError("Expected float for argument '%s' not %r." % (arg_name, v))
    try:
        return float(np.float32(float(v)))
    except (TypeError, ValueError):
        raise TypeError("Expected float for argument '%s' not %r." % (arg_name, v)) from None


# ---- Softmax / LogSoftmax --------------------------------------------------------------------
def _softmax_infer(op):
    t = op._inputs[0]
    _check_dtype(t, True, "logits")
    if t.shape.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    return same_as_input(op)


def _softmax_kernel(xp, logits):
    if logits.shape[-1] == 0:
        return logits.copy()  # no classes: an empty result (no max to shift by)
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _softmax_grad(op, grad):
    """d softmax: (g - sum(g * s, -1)) * s, with s = softmax(x)."""
    from . import math_ops
    s = op._outputs[0]
    sum_channels = math_ops.reduce_sum(math_ops.multiply(grad, s), -1, keepdims=True)
    return [math_ops.multiply(math_ops.subtract(grad, sum_channels), s)]


register_op("Softmax", infer=_softmax_infer, kernel=_softmax_kernel, grad=_softmax_grad, gpu=True)


def _log_softmax_kernel(xp, logits):
    if logits.shape[-1] == 0:
        return logits.copy()
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _log_softmax_grad(op, grad):
    """d log_softmax: g - sum(g, -1) * softmax(x)."""
    from . import math_ops
    s = math_ops.exp(op._outputs[0])
    return [math_ops.subtract(grad, math_ops.multiply(math_ops.reduce_sum(grad, -1, keepdims=True), s))]


register_op("LogSoftmax", infer=_softmax_infer, kernel=_log_softmax_kernel, grad=_log_softmax_grad, gpu=True)


def _last_axis_perm(rank, axis):
    """The permutation swapping `axis` with the last axis (its own inverse)."""
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return perm


def _softmax(logits, op_type, axis, name):
    logits = ops.convert_to_tensor(logits)
    ndims = logits.shape.ndims
    if axis == -1 or axis == (ndims if ndims is not None else 0) - 1:
        return ops.apply_op(op_type, [logits], name=name)
    if ndims is None:
        raise ValueError("The rank of `logits` must be known to apply %s along axis %s" % (op_type, axis))
    if not -ndims <= axis < ndims:
        raise errors.InvalidArgumentError(
            None, None, "Dimension (%d) must be in the range [%d, %d) where %d is the number of dimensions in the "
            "input." % (axis, -ndims, ndims, ndims))
    from . import array_ops
    perm = _last_axis_perm(ndims, axis % ndims)
    out = ops.apply_op(op_type, [array_ops.transpose(logits, perm)])
    out = array_ops.transpose(out, perm, name=name)
    out.set_shape(logits.shape)
    return out


def _axis_arg(axis, dim):
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'dim' and 'axis'")
        return dim
    return -1 if axis is None else axis


def softmax(logits, axis=None, name=None, dim=None):
    """Computes softmax activations: `exp(logits) / reduce_sum(exp(logits), axis)`, computed stably.

    Args:
      logits: A non-empty floating `Tensor`.
      axis: The dimension softmax is performed on; default -1 (the last dimension).
      name: A name for the operation (optional).
      dim: Deprecated alias for `axis`.

    Returns:
      A `Tensor`. Has the same type and shape as `logits`.

    Raises:
      InvalidArgumentError: If `axis` is beyond the last dimension of `logits`.
      ValueError: If both `axis` and `dim` are given.
    """
    return _softmax(logits, "Softmax", _axis_arg(axis, dim), name)


def log_softmax(logits, axis=None, name=None, dim=None):
    """Computes log softmax activations: `logits - log(reduce_sum(exp(logits), axis))`, stably.

    Args:
      logits: A non-empty floating `Tensor`.
      axis: The dimension softmax is performed on; default -1 (the last dimension).
      name: A name for the operation (optional).
      dim: Deprecated alias for `axis`.

    Returns:
      A `Tensor`. Has the same type and shape as `logits`.

    Raises:
      InvalidArgumentError: If `axis` is beyond the last dimension of `logits`.
      ValueError: If both `axis` and `dim` are given.
    """
    return _softmax(logits, "LogSoftmax", _axis_arg(axis, dim), name)
