"""Normalization ops: FusedBatchNorm and its gradient (fused_batch_norm)."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .core_ops import zeros_like
from .nn_conv_geometry import (
    _FLOAT_NAMES,
    _FLOAT_TYPES,
    _check_types,
    _invalid,
    _merge,
    _static_dims,
    _string_attr,
    _to_nhwc_dims,
)


# ---- FusedBatchNorm ----------------------------------------------------------------------------
def _bn_axes(data_format):
    return ((0, 1, 2), (1, 1, 1, -1)) if data_format == "NHWC" else ((0, 2, 3), (1, -1, 1, 1))


def _bn_param_type(x):
    return dtypes.float32 if x.dtype is dtypes.float16 else x.dtype


def _fused_bn_infer(op):
    x, scale, offset, mean, var = op._inputs
    if x.dtype not in _FLOAT_TYPES:
        raise TypeError("Value passed to parameter 'x' has DataType %s not in list of allowed values: "
                        "float16, bfloat16, float32" % x.dtype.name)
    u = _bn_param_type(x)
    for arg, t in (("scale", scale), ("offset", offset), ("mean", mean), ("variance", var)):
        if t.dtype is not u:
            raise TypeError("Input '%s' of 'FusedBatchNorm' Op has type %s that does not match expected type %s."
                            % (arg, t.dtype.name, u.name))
    xd = _static_dims(x, 4)
    c = _to_nhwc_dims(xd, op._attrs["data_format"])[3]
    for arg, t in (("scale", scale), ("offset", offset)):
        (d,) = _static_dims(t, 1)
        if c is not None and d is not None and c != d:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (c, d))
        c = _merge(c, d)
    for t in (mean, var):
        _static_dims(t, 1)
    return [(x.dtype, xd)] + [(u, (c,))] * 4


def _fused_bn_kernel(xp, x, scale, offset, mean, variance, epsilon, data_format, is_training):
    axes, bshape = _bn_axes(data_format)
    c = x.shape[3 if data_format == "NHWC" else 1]
    u = scale.dtype
    xf = x.astype(u, copy=False)
    for arg, t in (("scale", scale), ("offset", offset)):
        if t.shape != (c,):
            raise _invalid("%s must have the same number of elements as the channels of x, got %d and %d"
                           % (arg, t.size, c))
    if x.size == 0 and (is_training or (mean.shape == (c,) and variance.shape == (c,))):
        # As TF: no statistics from no data (NaN batch mean and variance, in inference too).
        nan = np.full(c, np.nan, u)
        return x.copy(), nan, nan, nan, nan
    if is_training:
        n = x.size // c if c else 0
        m = xf.mean(axis=axes)
        centered = xf - m.reshape(bshape)
        v = np.square(centered).mean(axis=axes)
        batch_var = v * np.asarray(n / max(n - 1, 1), u)
    else:
        for arg, t in (("mean", mean), ("variance", variance)):
            if t.shape != (c,):
                raise _invalid("When is_training=false, %s must have the same number of elements as the channels "
                               "of x, got %d and %d" % (arg, t.size, c))
        m, v, batch_var = mean, variance, variance
        centered = xf - m.reshape(bshape)
    scaled = (1 / np.sqrt(v + np.asarray(epsilon, u))) * scale
    y = centered * scaled.reshape(bshape) + offset.reshape(bshape)
    return y.astype(x.dtype, copy=False), m.astype(u, copy=False), batch_var.astype(u, copy=False), \
        m.astype(u, copy=False), v.astype(u, copy=False)


def _fused_bn_grad(op, grad_y, *unused):
    """d/d(x, scale, offset) = FusedBatchNormGrad(g_y, x, scale, saved stats); batch stats outputs ignored (TF)."""
    x, scale = op._inputs[0], op._inputs[1]
    if grad_y is None:
        grad_y = zeros_like(op._outputs[0])
    dx, dscale, doffset, _, _ = ops.apply_op(
        "FusedBatchNormGrad", [grad_y, x, scale, op._outputs[3], op._outputs[4]], dict(op._attrs))
    return [dx, dscale, doffset, None, None]


register_op("FusedBatchNorm", infer=_fused_bn_infer, kernel=_fused_bn_kernel, grad=_fused_bn_grad)


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC",
                     is_training=True, name=None):
    """Batch normalization of a 4-D tensor over all axes but the channel one.

    `y = scale * (x - mean) / sqrt(variance + epsilon) + offset`, with the batch's own mean and
    (biased) variance when `is_training`, else the given population `mean` and `variance`.

    Args:
      x: Input `Tensor` of 4 dimensions.
      scale: A `Tensor` of 1 dimension for scaling.
      offset: A `Tensor` of 1 dimension for bias.
      mean: A `Tensor` of 1 dimension for population mean used for inference.
      variance: A `Tensor` of 1 dimension for population variance used for inference.
      epsilon: A small float number added to the variance of x (at least 1.001e-5, as TF).
      data_format: The data format for x. Either "NHWC" (default) or "NCHW".
      is_training: A bool value to specify if the operation is used for training or inference.
      name: A name for this operation (optional).

    Returns:
      y: A 4D Tensor for the normalized, scaled, offsetted x.
      batch_mean: A 1D Tensor for the mean of x (the given `mean` in inference; NaN for an empty
        batch, as TF).
      batch_var: A 1D Tensor for the variance of x with Bessel's correction `n / (n - 1)` (the
        given `variance` in inference; NaN for an empty batch).

    Raises:
      ValueError: If mean or variance is not None when is_training is True.
    """
    from ..framework.constant_op import constant
    x = ops.convert_to_tensor(x, name="input")
    scale = ops.convert_to_tensor(scale, name="scale")
    offset = ops.convert_to_tensor(offset, name="offset")
    if is_training and (mean is not None or variance is not None):
        raise ValueError("Both 'mean' and 'variance' must be None if is_training is True.")
    u = _bn_param_type(x)
    if mean is None:
        mean = constant([], dtype=u)
    if variance is None:
        variance = constant([], dtype=u)
    mean = ops.convert_to_tensor(mean, name="mean", preferred_dtype=u)
    variance = ops.convert_to_tensor(variance, name="variance", preferred_dtype=u)
    epsilon = max(float(epsilon), 1.001e-5)
    data_format = _string_attr(data_format, "data_format", "FusedBatchNorm", ("NHWC", "NCHW"))
    y, batch_mean, batch_var, _, _ = ops.apply_op(
        "FusedBatchNorm", [x, scale, offset, mean, variance],
        {"epsilon": epsilon, "data_format": data_format, "is_training": bool(is_training)}, name=name)
    return y, batch_mean, batch_var


def _fused_bn_grad_infer(op):
    dy, x, scale, m, v = op._inputs
    _check_types(op, [("y_backprop", dy), ("x", x)], _FLOAT_TYPES, _FLOAT_NAMES)
    xd = _static_dims(x, 4)
    (c,) = _static_dims(scale, 1)
    u = _bn_param_type(x)
    return [(x.dtype, xd), (u, (c,)), (u, (c,)), (u, (0,)), (u, (0,))]


def _fused_bn_grad_kernel(xp, dy, x, scale, saved_mean, saved_var, epsilon, data_format, is_training):
    axes, bshape = _bn_axes(data_format)
    u = scale.dtype
    if x.size == 0:  # as TF: zero scale and offset gradients for an empty batch
        zero, empty = np.zeros(scale.shape, u), np.zeros((0,), u)
        return np.zeros(x.shape, x.dtype), zero, zero, empty, empty
    dyf = dy.astype(u, copy=False)
    centered = x.astype(u, copy=False) - saved_mean.reshape(bshape)
    inv = 1 / np.sqrt(saved_var + np.asarray(epsilon, u))
    offset_backprop = dyf.sum(axis=axes)
    dy_xc = (dyf * centered).sum(axis=axes)
    scale_backprop = dy_xc * inv
    if is_training:
        n = x.size // scale.size if scale.size else 1
        mean_dy = (offset_backprop / n).reshape(bshape)
        mean_dy_xc = (dy_xc / n).reshape(bshape)
        dx = (scale * inv).reshape(bshape) * (dyf - mean_dy - centered * (mean_dy_xc * (inv * inv).reshape(bshape)))
    else:
        dx = dyf * (scale * inv).reshape(bshape)
    empty = np.zeros((0,), u)
    return dx.astype(x.dtype, copy=False), scale_backprop.astype(u, copy=False), \
        offset_backprop.astype(u, copy=False), empty, empty


def _bn_grad_composite(grad_y, x, scale, pop_mean, pop_var, epsilon, data_format, is_training):
    """FusedBatchNormGrad's math as differentiable ops (in training the statistics are
    recomputed from x, so that their dependence on x is differentiated too)."""
    from . import array_ops, math_ops
    from .core_ops import stop_gradient
    axes, _ = _bn_axes(data_format)
    axes = list(axes)
    keep = data_format != "NHWC"
    if keep:
        scale = array_ops.reshape(scale, [1, -1, 1, 1])
    if is_training:
        mean_grad_y = math_ops.reduce_mean(grad_y, axes, keepdims=keep)
        mean_x = math_ops.reduce_mean(x, axes, keepdims=keep)
        var_x = math_ops.reduce_mean(math_ops.squared_difference(x, stop_gradient(mean_x)), axes, keepdims=keep)
        grad_y_offset = math_ops.subtract(grad_y, mean_grad_y)
        x_offset = math_ops.subtract(x, mean_x)
        mean = math_ops.reduce_mean(math_ops.multiply(grad_y, x_offset), axes, keepdims=keep)
        var_eps = math_ops.add(var_x, epsilon)
        grad_x = math_ops.multiply(
            math_ops.multiply(scale, math_ops.rsqrt(var_eps)),
            math_ops.subtract(grad_y_offset, math_ops.multiply(math_ops.reciprocal(var_eps),
                                                               math_ops.multiply(mean, x_offset))))
        grad_scale = math_ops.multiply(math_ops.rsqrt(var_eps),
                                       math_ops.reduce_sum(math_ops.multiply(grad_y, x_offset), axes, keepdims=keep))
    else:
        if keep:
            pop_mean = array_ops.reshape(pop_mean, [1, -1, 1, 1])
            pop_var = array_ops.reshape(pop_var, [1, -1, 1, 1])
        var_rsqrt = math_ops.rsqrt(math_ops.add(pop_var, epsilon))
        grad_scale = math_ops.reduce_sum(
            math_ops.multiply(grad_y, math_ops.multiply(math_ops.subtract(x, pop_mean), var_rsqrt)), axes,
            keepdims=keep)
        grad_x = math_ops.multiply(grad_y, math_ops.multiply(scale, var_rsqrt))
    grad_offset = math_ops.reduce_sum(grad_y, axes, keepdims=keep)
    if keep:
        grad_scale = array_ops.reshape(grad_scale, [-1])
        grad_offset = array_ops.reshape(grad_offset, [-1])
    return grad_x, grad_scale, grad_offset


def _fused_bn_grad_grad(op, *grads):
    """Second order: tf.gradients of FusedBatchNormGrad's math (as ops) w.r.t. grad_y, x and scale."""
    from ..framework.graph_gradients import gradients
    grad_y, x, scale, m, v = op._inputs
    a = op._attrs
    outs = _bn_grad_composite(grad_y, x, scale, m, v, a["epsilon"], a["data_format"], a["is_training"])
    pairs = [(o, g) for o, g in zip(outs, grads[:3]) if g is not None]
    if not pairs:
        return [None] * 5
    # grad_y, x and scale are independent variables here (grad_y itself may depend on x).
    wrt = [grad_y, x, scale]
    dgy, dx, dscale = gradients([o for o, _ in pairs], wrt, grad_ys=[g for _, g in pairs], stop_gradients=wrt)
    return [dgy, dx, dscale, None, None]


register_op("FusedBatchNormGrad", infer=_fused_bn_grad_infer, kernel=_fused_bn_grad_kernel,
            grad=_fused_bn_grad_grad)


# ---- FusedBatchNormV3: TF's current form (what TF 2.x GraphDefs hold) ----------------------------
def _fused_bn_v3_infer(op):
    outs = _fused_bn_infer(op)
    return outs + [(outs[1][0], (0,))]


def _fused_bn_v3_kernel(xp, x, scale, offset, mean, variance, epsilon, data_format, is_training,
                        exponential_avg_factor=1.0):
    y, m, v, saved_m, saved_v = _fused_bn_kernel(xp, x, scale, offset, mean, variance, epsilon, data_format,
                                                 is_training)
    if is_training and exponential_avg_factor != 1.0 and mean.size == m.size and variance.size == v.size:
        f = np.asarray(exponential_avg_factor, m.dtype)
        m, v = (1 - f) * mean + f * m, (1 - f) * variance + f * v
    return y, m, v, saved_m, saved_v, np.zeros((0,), saved_m.dtype)


def _fused_bn_v3_grad(op, grad_y, *unused):
    return _fused_bn_grad(op, grad_y)


# Same semantics as FusedBatchNorm, with TF's sixth output (an empty reserve space) and the
# exponential_avg_factor of the running statistics in training.
register_op("FusedBatchNormV3", infer=_fused_bn_v3_infer, kernel=_fused_bn_v3_kernel, grad=_fused_bn_v3_grad)
