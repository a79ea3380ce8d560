"""Neural-network ops: activations, softmax, bias_add, losses, cross entropies, dropout, moments,
in_top_k.

Kernels are the numerically stable ones TF uses (shift by the max before exponentiating, the
`max(x, 0) - x * z + log(1 + exp(-|x|))` logistic loss), so large logits give exact results.
Gradient kernels (ReluGrad, ...) are ops of their own, differentiable again, as in TF.
"""

import numbers

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape, as_shape
from . import _npfast
from .core_ops import same_as_input, stop_gradient, zeros_like
from .random_ops import random_uniform

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
    register_op(_t, infer=_pair_infer, kernel=_k, grad=_g)


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


# (op type, infer, kernel, gradient)
_ACTIVATION_OPS = [
    ("Relu", _real_infer, lambda xp, x: _npfast.relu(x), _relu_grad),
    ("Relu6", _real_infer, lambda xp, x: np.minimum(np.maximum(x, np.zeros((), x.dtype)), np.asarray(6, x.dtype)),
     _relu6_grad),
    ("Elu", _float_infer, _elu_kernel, _elu_grad),
    ("Selu", _float_infer, _selu_kernel, _selu_grad),
    ("Softplus", _float_infer, _softplus_kernel, _softplus_grad),
    ("Softsign", _float_infer, lambda xp, x: x / (1 + np.abs(x)), _softsign_grad),
]
for _t, _i, _k, _g in _ACTIVATION_OPS:
    register_op(_t, infer=_i, kernel=_k, grad=_g)


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
    return np.where(x > 0, x, x * np.asarray(alpha, x.dtype))


def _leaky_relu_grad(op, grad):
    """d leaky_relu(x)/dx = 1 for x > 0, else alpha."""
    return [ops.apply_op("LeakyReluGrad", [grad, op._inputs[0]], {"alpha": op._attrs["alpha"]})]


register_op("LeakyRelu", infer=_float_infer, kernel=_leaky_relu_kernel, grad=_leaky_relu_grad)


def _leaky_relu_grad_kernel(xp, g, x, alpha):
    return np.where(x > 0, g, g * np.asarray(alpha, g.dtype))


def _leaky_relu_grad_grad(op, grad):
    """LeakyReluGrad(g, x) is linear in g; constant in x almost everywhere."""
    x = op._inputs[1]
    return [ops.apply_op("LeakyReluGrad", [grad, x], {"alpha": op._attrs["alpha"]}), zeros_like(x)]


register_op("LeakyReluGrad", infer=_pair_infer, kernel=_leaky_relu_grad_kernel, grad=_leaky_relu_grad_grad)


def leaky_relu(features, alpha=0.2, name=None):
    """Computes the Leaky ReLU activation: `features` where positive, `alpha * features` elsewhere.

    Args:
      features: A `Tensor` of pre-activation values; integers are cast to float32.
      alpha: Slope of the activation function at x < 0.
      name: A name for the operation (optional).

    Returns:
      The activation value.
    """
    with ops.name_scope(name, "LeakyRelu", [features, alpha]) as name:
        features = ops.convert_to_tensor(features, name="features")
        if features.dtype.is_integer:
            from . import math_ops
            features = math_ops.cast(features, dtypes.float32)
        if isinstance(alpha, np.ndarray):
            alpha = alpha.item()
        return ops.apply_op("LeakyRelu", [features], {"alpha": float(alpha)}, name=name)


# ---- Softmax / LogSoftmax --------------------------------------------------------------------
def _softmax_infer(op):
    t = op._inputs[0]
    _check_dtype(t, True, "logits")
    if t.shape.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    return same_as_input(op)


def _softmax_kernel(xp, logits):
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _softmax_grad(op, grad):
    """d softmax: (g - sum(g * s, -1)) * s, with s = softmax(x)."""
    from . import math_ops
    s = op._outputs[0]
    sum_channels = math_ops.reduce_sum(math_ops.multiply(grad, s), -1, keepdims=True)
    return [math_ops.multiply(math_ops.subtract(grad, sum_channels), s)]


register_op("Softmax", infer=_softmax_infer, kernel=_softmax_kernel, grad=_softmax_grad)


def _log_softmax_kernel(xp, logits):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _log_softmax_grad(op, grad):
    """d log_softmax: g - sum(g, -1) * softmax(x)."""
    from . import math_ops
    s = math_ops.exp(op._outputs[0])
    return [math_ops.subtract(grad, math_ops.multiply(math_ops.reduce_sum(grad, -1, keepdims=True), s))]


register_op("LogSoftmax", infer=_softmax_infer, kernel=_log_softmax_kernel, grad=_log_softmax_grad)


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


# ---- BiasAdd / BiasAddGrad -------------------------------------------------------------------
def _channel_axis(data_format, rank):
    return 1 if data_format == "NCHW" else rank - 1


def _bias_add_infer(op):
    value, bias = op._inputs
    if value.dtype is not bias.dtype:
        raise TypeError("Input 'bias' of 'BiasAdd' Op has type %s that does not match type %s of argument "
                        "'value'." % (bias.dtype.name, value.dtype.name))
    if bias.shape.ndims not in (None, 1):
        raise ValueError("Shape must be rank 1 but is rank %d" % bias.shape.ndims)
    b = bias.shape.as_tuple()[0] if bias.shape.ndims == 1 else None
    vdims = value.shape.as_tuple()
    if vdims is None:
        return [(value.dtype, None)]
    if len(vdims) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(vdims))
    c = _channel_axis(op._attrs["data_format"], len(vdims))
    if vdims[c] is not None and b is not None and vdims[c] != b:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (vdims[c], b))
    out = list(vdims)
    out[c] = vdims[c] if vdims[c] is not None else b
    return [(value.dtype, tuple(out))]


def _bias_add_kernel(xp, value, bias, data_format):
    if data_format == "NCHW":
        return value + bias.reshape((-1,) + (1,) * (value.ndim - 2))
    return value + bias


def _bias_add_grad(op, grad):
    """d(x + b)/dx = 1; d/db sums the gradient over every axis but the channel axis."""
    return [grad, ops.apply_op("BiasAddGrad", [grad], {"data_format": op._attrs["data_format"]})]


register_op("BiasAdd", infer=_bias_add_infer, kernel=_bias_add_kernel, grad=_bias_add_grad)


def _bias_add_grad_infer(op):
    g = op._inputs[0]
    dims = g.shape.as_tuple()
    if dims is None:
        return [(g.dtype, (None,))]
    if len(dims) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(dims))
    return [(g.dtype, (dims[_channel_axis(op._attrs["data_format"], len(dims))],))]


def _bias_add_grad_kernel(xp, out_backprop, data_format):
    c = _channel_axis(data_format, out_backprop.ndim)
    return out_backprop.sum(axis=tuple(i for i in range(out_backprop.ndim) if i != c))


def _bias_add_grad_grad(op, grad):
    """BiasAddGrad is a sum over non-channel axes: its gradient broadcasts back along them."""
    g = op._inputs[0]
    if op._attrs["data_format"] == "NCHW":
        from . import array_ops
        rank = g.shape.ndims
        if rank is None:
            raise ValueError("The rank of the BiasAddGrad input must be known to differentiate it.")
        grad = array_ops.reshape(grad, [-1] + [1] * (rank - 2))
    return [ops.apply_op("BroadcastLike", [grad, g])]


register_op("BiasAddGrad", infer=_bias_add_grad_infer, kernel=_bias_add_grad_kernel, grad=_bias_add_grad_grad)


def bias_add(value, bias, data_format=None, name=None):
    """Adds `bias` to `value` along its channel dimension (the last one, or dimension 1 for "NC...").

    Args:
      value: A `Tensor` of rank at least 2.
      bias: A 1-D `Tensor` whose size matches the channel dimension of `value`.
      data_format: A string: "NHWC" (default; any "N...C") or "NCHW" (any "NC...").
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type as `value`.

    Raises:
      ValueError: If `data_format` is not of the form "N...C" or "NC...", or on bad shapes.
    """
    with ops.name_scope(name, "BiasAdd", [value, bias]) as name:
        if data_format is None:
            data_format = "NHWC"
        elif data_format.startswith("NC"):
            data_format = "NCHW"
        elif data_format.startswith("N") and data_format.endswith("C"):
            data_format = "NHWC"
        else:
            raise ValueError("data_format must be of the form `N...C` or `NC...`")
        value = ops.convert_to_tensor(value, name="input")
        bias = ops.convert_to_tensor(bias, dtype=value.dtype, name="bias")
        return ops.apply_op("BiasAdd", [value, bias], {"data_format": data_format}, name=name)


def xw_plus_b(x, weights, biases, name=None):
    """Computes `matmul(x, weights) + biases`.

    Args:
      x: a 2D tensor. Dimensions typically: batch, in_units.
      weights: a 2D tensor. Dimensions typically: in_units, out_units.
      biases: a 1D tensor. Dimensions: out_units.
      name: A name for the operation (optional); default "xw_plus_b".

    Returns:
      A 2-D Tensor computing `matmul(x, weights) + biases`.
    """
    from . import math_ops
    with ops.name_scope(name, "xw_plus_b", [x, weights, biases]) as name:
        x = ops.convert_to_tensor(x, name="x")
        weights = ops.convert_to_tensor(weights, name="weights")
        biases = ops.convert_to_tensor(biases, name="biases")
        mm = math_ops.matmul(x, weights)
        return bias_add(mm, biases, name=name)


def relu_layer(x, weights, biases, name=None):
    """Computes `relu(matmul(x, weights) + biases)`.

    Args:
      x: a 2D tensor. Dimensions typically: batch, in_units.
      weights: a 2D tensor. Dimensions typically: in_units, out_units.
      biases: a 1D tensor. Dimensions: out_units.
      name: A name for the operation (optional); default "relu_layer".

    Returns:
      A 2-D Tensor computing `relu(matmul(x, weights) + biases)`.
    """
    from . import math_ops
    with ops.name_scope(name, "relu_layer", [x, weights, biases]) as name:
        x = ops.convert_to_tensor(x, name="x")
        weights = ops.convert_to_tensor(weights, name="weights")
        biases = ops.convert_to_tensor(biases, name="biases")
        xw_plus_b_v1 = bias_add(math_ops.matmul(x, weights), biases)
        return relu(xw_plus_b_v1, name=name)


# ---- L2Loss ----------------------------------------------------------------------------------
def _l2_loss_infer(op):
    _check_dtype(op._inputs[0], True, "t")
    return [(op._inputs[0].dtype, ())]


def _l2_loss_kernel(xp, t):
    v = t.reshape(-1)
    r = v.dot(v) / 2  # ndarray.dot: matmul's result at half its call cost
    return r if r.dtype == t.dtype else r.astype(t.dtype)


def _l2_loss_grad(op, grad):
    """d(sum(x**2) / 2)/dx = x."""
    from . import math_ops
    return [math_ops.multiply(op._inputs[0], grad)]


register_op("L2Loss", infer=_l2_loss_infer, kernel=_l2_loss_kernel, grad=_l2_loss_grad)


def l2_loss(t, name=None):
    """Computes half the L2 norm of a tensor without the sqrt: `sum(t ** 2) / 2`.

    Args:
      t: A floating `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A scalar `Tensor`. Has the same type as `t`.
    """
    return ops.apply_op("L2Loss", [ops.convert_to_tensor(t, name="t")], name=name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """Normalizes along dimension `axis` using an L2 norm:
    `x / sqrt(max(sum(x**2, axis), epsilon))`.

    Args:
      x: A `Tensor`.
      axis: Dimension(s) along which to normalize (default: all).
      epsilon: A lower bound value for the norm; `sqrt(epsilon)` is used as the divisor if
        `norm < sqrt(epsilon)`.
      name: A name for this operation (optional).
      dim: Deprecated alias for axis.

    Returns:
      A `Tensor` with the same shape as `x`.

    Raises:
      ValueError: If both `axis` and `dim` are given.
    """
    from . import math_ops
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'dim' and 'axis'")
        axis = dim
    with ops.name_scope(name, "l2_normalize", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        square_sum = math_ops.reduce_sum(math_ops.square(x), axis, keepdims=True)
        x_inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, x_inv_norm, name=name)


# ---- SoftmaxCrossEntropyWithLogits -----------------------------------------------------------
def _xent_infer(op):
    features, labels = op._inputs
    _check_dtype(features, True)
    if labels.dtype is not features.dtype:
        raise TypeError("Input 'labels' of 'SoftmaxCrossEntropyWithLogits' Op has type %s that does not match "
                        "type %s of argument 'features'." % (labels.dtype.name, features.dtype.name))
    fs, ls = features.shape, labels.shape
    if fs.ndims is not None and ls.ndims is not None and fs.ndims != ls.ndims:
        raise ValueError("Shapes must be equal rank, but are %d and %d" % (fs.ndims, ls.ndims))
    if fs.ndims is not None and ls.ndims is not None:
        for a, b in zip(fs.as_tuple(), ls.as_tuple()):
            if a is not None and b is not None and a != b:
                raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))
    shape = fs.merge_with(ls)
    if shape.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    dims = shape.as_tuple()
    return [(features.dtype, None if dims is None else dims[:-1]), (features.dtype, dims)]


def _xent_kernel(xp, features, labels):
    shifted = features - features.max(axis=-1, keepdims=True)
    log_sum = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    loss = (labels * (log_sum - shifted)).sum(axis=-1)
    backprop = np.exp(shifted - log_sum) - labels
    return np.asarray(loss, features.dtype), backprop


def _xent_second_order(grad, grad_grad, logits):
    """The logits gradient plus the term from the backprop output: J_softmax^T gg."""
    from . import math_ops
    if _is_zero(grad_grad):
        return grad
    s = ops.apply_op("Softmax", [logits])
    inner = math_ops.reduce_sum(math_ops.multiply(grad_grad, s), -1, keepdims=True)
    return math_ops.add(grad, math_ops.multiply(math_ops.subtract(grad_grad, inner), s))


def _xent_grad(op, grad_loss, grad_grad):
    """d loss/d logits = g * (softmax(logits) - labels); d loss/d labels = -g * log_softmax(logits);
    the backprop output adds softmax's Jacobian term for logits and -gg for labels."""
    from . import array_ops, math_ops
    g = array_ops.expand_dims(grad_loss, -1)
    logits = op._inputs[0]
    grad = _xent_second_order(math_ops.multiply(g, op._outputs[1]), grad_grad, logits)
    grad_labels = math_ops.multiply(g, math_ops.negative(ops.apply_op("LogSoftmax", [logits])))
    if not _is_zero(grad_grad):
        grad_labels = math_ops.subtract(grad_labels, grad_grad)
    return [grad, grad_labels]


register_op("SoftmaxCrossEntropyWithLogits", infer=_xent_infer, kernel=_xent_kernel, grad=_xent_grad)


def _ensure_xent_args(name, sentinel, labels, logits):
    if sentinel is not None:
        raise ValueError("Only call `%s` with named arguments (labels=..., logits=..., ...)" % name)
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")


def _move_axis_to_end(t, axis, rank):
    from . import array_ops
    perm = [i for i in range(rank) if i != axis] + [axis]
    return array_ops.transpose(t, perm)


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """Computes softmax cross entropy between `logits` and `labels`; gradients flow into both.

    `loss = -sum(labels * log_softmax(logits), axis)`, computed stably
    (`softmax_cross_entropy_with_logits_v2(labels=[.5, .5], logits=[1000., 0.])` is 500).

    Args:
      labels: Each vector along the class dimension should hold a valid probability distribution.
      logits: Unscaled log probabilities.
      axis: The class dimension. Defaulted to -1 which is the last dimension.
      name: A name for the operation (optional).
      dim: Deprecated alias for axis.

    Returns:
      A `Tensor` of the type of `logits` and the shape of `labels` without the class dimension.

    Raises:
      ValueError: On shape mismatch, or if both `axis` and `dim` are given.
    """
    axis = _axis_arg(axis, dim)
    with ops.name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        if labels.dtype is not logits.dtype:
            from . import math_ops
            labels = math_ops.cast(labels, logits.dtype)
        rank = logits.shape.ndims
        if rank is not None and axis != -1 and axis != rank - 1:
            if not -rank <= axis < rank:
                raise ValueError("axis %d is out of range for logits of rank %d" % (axis, rank))
            logits = _move_axis_to_end(logits, axis % rank, rank)
            labels = _move_axis_to_end(labels, axis % rank, rank)
        elif rank is None and axis != -1:
            raise ValueError("The rank of `logits` must be known to use axis %s" % axis)
        cost, _ = ops.apply_op("SoftmaxCrossEntropyWithLogits", [logits, labels], name=name)
        return cost


def softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, dim=-1, name=None,  # noqa: N803
                                      axis=None):
    """Computes softmax cross entropy between `logits` and `labels` (TF1's deprecated version):
    backpropagation happens only into `logits` (`labels` go through `stop_gradient`).

    Args:
      _sentinel: Used to prevent positional parameters. Internal, do not use.
      labels: Each vector along the class dimension should hold a valid probability distribution.
      logits: Unscaled log probabilities.
      dim: The class dimension. Defaulted to -1 which is the last dimension.
      name: A name for the operation (optional).
      axis: Alias for dim.

    Returns:
      A `Tensor` of the type of `logits` and the shape of `labels` without the class dimension.

    Raises:
      ValueError: If called with positional arguments, without labels or logits, or on shape
        mismatch.
    """
    if axis is not None:
        if dim != -1:
            raise ValueError("Cannot specify both 'dim' and 'axis'")
        dim = axis
    _ensure_xent_args("softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    with ops.name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as name:
        labels = stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=dim, name=name)


# ---- SparseSoftmaxCrossEntropyWithLogits -----------------------------------------------------
def _sparse_xent_infer(op):
    features, labels = op._inputs
    _check_dtype(features, True)
    if labels.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'labels' has DataType %s not in list of allowed values: "
                        "int32, int64" % labels.dtype.name)
    fdims = features.shape.as_tuple()
    ldims = labels.shape.as_tuple()
    if fdims is None:
        return [(features.dtype, ldims), (features.dtype, None if ldims is None else ldims + (None,))]
    shape = as_shape(fdims[:-1]).merge_with(labels.shape).as_tuple()
    return [(features.dtype, shape), (features.dtype, shape + fdims[-1:])]


def _sparse_xent_kernel(xp, features, labels):
    num_classes = features.shape[-1]
    bad = (labels < 0) | (labels >= num_classes)
    if bad.any():
        raise errors.InvalidArgumentError(
            None, None, "Received a label value of %d which is outside the valid range of [0, %d).  Label values: %s"
            % (labels[bad].flat[0], num_classes, " ".join(str(v) for v in labels.ravel())))
    shifted = features - features.max(axis=-1, keepdims=True)
    log_sum = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(shifted, labels[..., None].astype(np.intp), axis=-1)
    loss = (log_sum - picked)[..., 0]
    backprop = np.exp(shifted - log_sum)
    np.put_along_axis(backprop, labels[..., None].astype(np.intp),
                      np.take_along_axis(backprop, labels[..., None].astype(np.intp), axis=-1) - 1, axis=-1)
    return np.asarray(loss, features.dtype), backprop


def _sparse_xent_grad(op, grad_loss, grad_grad):
    """d loss/d logits = g * (softmax(logits) - onehot(labels)) [+ softmax's Jacobian term from the
    backprop output]; labels are integers (no gradient)."""
    from . import array_ops, math_ops
    g = array_ops.expand_dims(grad_loss, -1)
    grad = _xent_second_order(math_ops.multiply(g, op._outputs[1]), grad_grad, op._inputs[0])
    return [grad, None]


register_op("SparseSoftmaxCrossEntropyWithLogits", infer=_sparse_xent_infer, kernel=_sparse_xent_kernel,
            grad=_sparse_xent_grad)


def sparse_softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):  # noqa: N803
    """Computes sparse softmax cross entropy between `logits` and integer class `labels`.

    Args:
      _sentinel: Used to prevent positional parameters. Internal, do not use.
      labels: `Tensor` of shape `[d_0, ..., d_{r-1}]` and dtype `int32` or `int64`; each entry
        must be an index in `[0, num_classes)` (others raise InvalidArgumentError at run time).
      logits: Unscaled log probabilities of shape `[d_0, ..., d_{r-1}, num_classes]`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape as `labels` and of the same type as `logits` with the loss.

    Raises:
      ValueError: If logits are scalars, or the rank of the labels is not the rank of the
        logits minus one, or their shapes disagree.
    """
    _ensure_xent_args("sparse_softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    with ops.name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
        labels = ops.convert_to_tensor(labels)
        logits = ops.convert_to_tensor(logits)
        lshape, fshape = labels.shape, logits.shape
        if fshape.ndims == 0:
            raise ValueError("Logits cannot be scalars - received shape %s." % fshape)
        if fshape.ndims is not None and lshape.ndims is not None and lshape.ndims != fshape.ndims - 1:
            raise ValueError("Rank mismatch: Rank of labels (received %s) should equal rank of logits minus 1 "
                             "(received %s)." % (lshape.ndims, fshape.ndims))
        outer = None if fshape.ndims is None else as_shape(fshape.as_tuple()[:-1])
        if lshape.is_fully_defined() and outer is not None and outer.is_fully_defined() and lshape != outer:
            raise ValueError("Shape mismatch: The shape of labels (received %s) should equal the shape of logits "
                             "except for the last dimension (received %s)." % (lshape, fshape))
        cost, _ = ops.apply_op("SparseSoftmaxCrossEntropyWithLogits", [logits, labels], name=name)
        return cost


# ---- composite losses and statistics ---------------------------------------------------------
def sigmoid_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):  # noqa: N803
    """Computes sigmoid cross entropy given `logits`, in TF's overflow-free form
    `max(x, 0) - x * z + log(1 + exp(-abs(x)))` for logits `x` and labels `z`.

    Args:
      _sentinel: Used to prevent positional parameters. Internal, do not use.
      labels: A `Tensor` of the same type and shape as `logits`.
      logits: A `Tensor` of type `float32` or `float64`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape as `logits` with the componentwise logistic losses.

    Raises:
      ValueError: If `logits` and `labels` do not have the same shape.
    """
    from . import array_ops, math_ops
    _ensure_xent_args("sigmoid_cross_entropy_with_logits", _sentinel, labels, logits)
    with ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        try:
            labels.shape.merge_with(logits.shape)
        except ValueError:
            raise ValueError("logits and labels must have the same shape (%s vs %s)"
                             % (logits.shape, labels.shape)) from None
        zeros = zeros_like(logits)
        cond = math_ops.greater_equal(logits, zeros)
        relu_logits = array_ops.where(cond, logits, zeros)
        neg_abs_logits = array_ops.where(cond, math_ops.negative(logits), logits)
        return math_ops.add(math_ops.subtract(relu_logits, math_ops.multiply(logits, labels)),
                            math_ops.log1p(math_ops.exp(neg_abs_logits)), name=name)


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None, targets=None):
    """Computes a weighted sigmoid cross entropy, where positive labels weigh `pos_weight` times
    more: `(1 - z) * x + (1 + (q - 1) * z) * (log(1 + exp(-abs(x))) + max(-x, 0))` for logits `x`,
    labels `z` and `q = pos_weight` (the overflow-free form of TF).

    Args:
      labels: A `Tensor` of the same type and shape as `logits`.
      logits: A `Tensor` of type `float32` or `float64`.
      pos_weight: A coefficient to use on the positive examples.
      name: A name for the operation (optional).
      targets: Deprecated alias for labels.

    Returns:
      A `Tensor` of the same shape as `logits` with the componentwise weighted logistic losses.

    Raises:
      ValueError: If `logits` and `labels` do not have the same shape, or both `labels` and
        `targets` are given.
    """
    from . import math_ops
    if targets is not None:
        if labels is not None:
            raise ValueError("Cannot specify both 'targets' and 'labels'")
        labels = targets
    with ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        try:
            labels.shape.merge_with(logits.shape)
        except ValueError:
            raise ValueError("logits and labels must have the same shape (%s vs %s)"
                             % (logits.shape, labels.shape)) from None
        weight_minus_one = math_ops.subtract(pos_weight, 1.0) if ops.is_tensor(pos_weight) else pos_weight - 1
        log_weight = math_ops.add(1.0, math_ops.multiply(weight_minus_one, labels))
        softplus_neg = math_ops.add(math_ops.log1p(math_ops.exp(math_ops.negative(math_ops.abs(logits)))),
                                    relu(math_ops.negative(logits)))
        return math_ops.add(math_ops.multiply(math_ops.subtract(1.0, labels), logits),
                            math_ops.multiply(log_weight, softplus_neg), name=name)


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """Batch normalization: `scale * (x - mean) / sqrt(variance + variance_epsilon) + offset`,
    computed as `x * inv + (offset - mean * inv)` with `inv = scale * rsqrt(variance + eps)`.

    Args:
      x: Input `Tensor` of arbitrary dimensionality.
      mean: A mean `Tensor` (broadcastable to `x`).
      variance: A variance `Tensor` (broadcastable to `x`).
      offset: An offset `Tensor` (beta), or None.
      scale: A scale `Tensor` (gamma), or None.
      variance_epsilon: A small float number to avoid dividing by 0.
      name: A name for this operation (optional).

    Returns:
      The normalized, scaled, offset tensor.
    """
    from . import math_ops
    with ops.name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        x = ops.convert_to_tensor(x, name="x")
        inv = math_ops.rsqrt(math_ops.add(variance, variance_epsilon))
        if scale is not None:
            inv = math_ops.multiply(inv, scale)
        shift = math_ops.subtract(offset, math_ops.multiply(mean, inv)) if offset is not None else \
            math_ops.negative(math_ops.multiply(mean, inv))
        return math_ops.add(math_ops.multiply(x, math_ops.cast(inv, x.dtype)), math_ops.cast(shift, x.dtype))


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """Calculates the mean and variance of `x` over `axes`.

    The variance is `mean((x - stop_gradient(mean))**2)`, as in TF.

    Args:
      x: A `Tensor`.
      axes: Array of ints. Axes along which to compute mean and variance.
      shift: Not used in the current implementation (as in TF).
      name: Name used to scope the operations that compute the moments.
      keep_dims: Deprecated alias for `keepdims`.
      keepdims: Produce moments with the same dimensionality as the input.

    Returns:
      Two `Tensor` objects: `mean` and `variance`.

    Raises:
      ValueError: If both `keepdims` and `keep_dims` are given.
    """
    from . import array_ops, math_ops
    if keep_dims is not None:
        if keepdims is not None:
            raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
        keepdims = keep_dims
    with ops.name_scope(name, "moments", [x, axes]):
        x = ops.convert_to_tensor(x, name="x")
        y = math_ops.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
        mean = math_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = math_ops.reduce_mean(math_ops.squared_difference(y, stop_gradient(mean)), axes, keepdims=True,
                                        name="variance")
        if not keepdims:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if x.dtype == dtypes.float16:
            return math_ops.cast(mean, dtypes.float16), math_ops.cast(variance, dtypes.float16)
        return mean, variance


# ---- dropout ---------------------------------------------------------------------------------
def _noise_shape(x, noise_shape):
    if noise_shape is None:
        from .core_ops import shape
        return shape(x)
    try:
        ns = as_shape(noise_shape)
    except (TypeError, ValueError):
        return noise_shape
    xd = x.shape.as_tuple()
    nd = ns.as_tuple()
    if xd is not None and nd is not None and len(xd) == len(nd):
        return [d if n is None and d is not None else n for d, n in zip(xd, nd)]
    return noise_shape


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """Computes dropout: each element of `x` is zeroed with probability `rate = 1 - keep_prob`,
    and the kept ones are scaled by `1 / keep_prob`, so that the expected sum is unchanged.

    Args:
      x: A floating point tensor.
      keep_prob: (deprecated) The probability that each element is kept; alias for `1 - rate`.
      noise_shape: A 1-D integer `Tensor`, the shape of the random keep/drop flags; it must
        broadcast to the shape of `x` (dimensions of size 1 are kept or dropped together).
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: A name for this operation (optional).
      rate: The probability that each element of `x` is discarded.

    Returns:
      A Tensor of the same shape as `x`.

    Raises:
      ValueError: If `rate` is not in `[0, 1)` (i.e. `keep_prob` not in `(0, 1]`), both or neither
        of `keep_prob` and `rate` are given, or `x` is not a floating point tensor.
    """
    from . import math_ops
    if keep_prob is not None:
        if rate is not None:
            raise ValueError("Cannot specify both 'keep_prob' and 'rate'")
        if ops.is_tensor(keep_prob):
            rate = math_ops.subtract(1.0, keep_prob)
        else:
            try:
                rate = 1.0 - keep_prob
            except TypeError:
                raise ValueError("keep_prob must be a floating point number or Tensor (got %r)" % (keep_prob,)) \
                    from None
    if rate is None:
        raise ValueError("You must provide a rate to dropout.")
    with ops.name_scope(name, "dropout", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        if not x.dtype.is_floating:
            raise ValueError("x has to be a floating point tensor since it's going to be scaled. Got a %s tensor "
                             "instead." % x.dtype)
        if isinstance(rate, numbers.Real) and not 0 <= rate < 1:
            raise ValueError("rate must be a scalar tensor or a float in the range [0, 1), got %g" % rate)
        if isinstance(rate, numbers.Real) and rate == 0:
            return x
        rate = ops.convert_to_tensor(rate, dtype=x.dtype, name="rate")
        rate.shape.assert_is_compatible_with(TensorShape(()))
        if rate.op.type == "Const" and rate.op.get_attr("value") == 0:
            return x
        noise_shape = _noise_shape(x, noise_shape)
        keep_prob = math_ops.subtract(1.0, rate)
        random_tensor = math_ops.add(keep_prob, random_uniform(noise_shape, seed=seed, dtype=x.dtype))
        binary_tensor = math_ops.floor(random_tensor)
        ret = math_ops.multiply(math_ops.divide(x, keep_prob), binary_tensor, name=name)
        ret.set_shape(x.shape)
        return ret


# ---- InTopKV2 --------------------------------------------------------------------------------
def _in_top_k_infer(op):
    predictions, targets, k = op._inputs
    if predictions.dtype is not dtypes.float32:
        raise TypeError("Value passed to parameter 'predictions' has DataType %s not in list of allowed values: "
                        "float32" % predictions.dtype.name)
    if targets.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'targets' has DataType %s not in list of allowed values: "
                        "int32, int64" % targets.dtype.name)
    if k.dtype is not targets.dtype:
        raise TypeError("Input 'k' of 'InTopKV2' Op has type %s that does not match type %s of argument 'targets'."
                        % (k.dtype.name, targets.dtype.name))
    pd, td, kd = predictions.shape.as_tuple(), targets.shape.as_tuple(), k.shape.as_tuple()
    for dims, rank in ((pd, 2), (td, 1), (kd, 0)):
        if dims is not None and len(dims) != rank:
            raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(dims)))
    batch = None if pd is None else pd[0]
    if td is not None:
        if batch is not None and td[0] is not None and batch != td[0]:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (batch, td[0]))
        batch = td[0] if batch is None else batch
    return [(dtypes.bool_, (batch,))]


def _in_top_k_kernel(xp, predictions, targets, k):
    n, num_classes = predictions.shape
    if targets.shape != (n,):
        raise errors.InvalidArgumentError(None, None, "First dimension of predictions %d must match length of "
                                          "targets %d" % (n, targets.shape[0]))
    valid = (targets >= 0) & (targets < num_classes)
    target_pred = predictions[np.arange(n), np.where(valid, targets, 0).astype(np.intp)]
    valid &= np.isfinite(target_pred) & np.isfinite(predictions).all(axis=1)
    more_probable = (predictions > target_pred[:, None]).sum(axis=1)
    return valid & (more_probable < int(k))


register_op("InTopKV2", infer=_in_top_k_infer, kernel=_in_top_k_kernel, grad=NO_GRADIENT)


def in_top_k(predictions, targets, k, name=None):
    """Says whether the targets are in the top `K` predictions.

    `out[i]` is true iff fewer than `k` classes have a prediction strictly greater than
    `predictions[i, targets[i]]`: classes tied at the top-k boundary all count as in the top k.
    A target out of range, or a row with a non-finite prediction, gives false.

    Args:
      predictions: A `Tensor` of type `float32`, a `batch_size` x `classes` tensor.
      targets: A `Tensor` of type `int32` or `int64`, a `batch_size` vector of class ids.
      k: An `int` (or 0-D `Tensor` of the type of `targets`), the number of top elements to look at.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `bool` of shape `[batch_size]`.

    Raises:
      ValueError: If the ranks are not 2 and 1 or the batch sizes differ.
      TypeError: If `predictions` is not float32 or `targets` not int32/int64.
    """
    with ops.name_scope(name, "in_top_k"):
        predictions = ops.convert_to_tensor(predictions, name="predictions")
        targets = ops.convert_to_tensor(targets, name="targets", preferred_dtype=dtypes.int32)
        k = ops.convert_to_tensor(k, name="k", preferred_dtype=targets.dtype)
        return ops.apply_op("InTopKV2", [predictions, targets, k], name=name)
