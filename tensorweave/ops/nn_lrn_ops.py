"""Local response normalization: the LRN op and its gradient LRNGrad (TF's exact formula)."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .array_helpers import _dims, _fmt, _invalid

__all__ = ["local_response_normalization", "lrn"]

_LRN_TYPES = (dtypes.float16, dtypes.float32)


def _check_lrn_type(t, arg):
    if t._dtype not in _LRN_TYPES:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: "
                        "float16, bfloat16, float32" % (arg, t._dtype.name))


def _rank4(t):
    d = _dims(t)
    if d is not None and len(d) != 4:
        raise ValueError("Shape must be rank 4 but is rank %d" % len(d))
    return d


def _lrn_infer(op):
    x = op._inputs[0]
    _check_lrn_type(x, "input")
    d = _rank4(x)
    return [(x._dtype, d if d is not None else (None,) * 4)]


def _window_sum(xp, sq, r):
    """sum(sq[..., d - r : d + r + 1]) along the last axis (the window clipped at the edges)."""
    depth = sq.shape[-1]
    out = xp.zeros_like(sq)
    for off in range(-min(r, depth), min(r, depth) + 1):
        if off >= 0:
            out[..., :depth - off] += sq[..., off:]
        else:
            out[..., -off:] += sq[..., :depth + off]
    return out


def _lrn_norm(xp, x, depth_radius, bias, alpha):
    xf = x.astype(np.float32)
    return xf, bias + alpha * _window_sum(xp, xf * xf, depth_radius)


def _lrn_kernel(xp, x, depth_radius, bias, alpha, beta):
    if x.ndim != 4:
        raise _invalid("in must be 4-dimensional")
    xf, norm = _lrn_norm(xp, x, depth_radius, bias, alpha)
    return (xf * norm ** np.float32(-beta)).astype(x.dtype)


def _lrn_grad_infer(op):
    g, x, y = op._inputs
    for t, arg in ((g, "input_grads"), (x, "input_image"), (y, "output_image")):
        _check_lrn_type(t, arg)
    if not g._dtype is x._dtype is y._dtype:
        raise TypeError("Inputs to LRNGrad must all have the same dtype")
    d = None
    for t in (g, x, y):
        td = _rank4(t)
        if td is not None:
            if d is not None and any(a is not None and b is not None and a != b for a, b in zip(d, td)):
                raise ValueError("Shapes %s and %s are not compatible" % (_fmt(d), _fmt(td)))
            d = td if d is None else tuple(a if a is not None else b for a, b in zip(d, td))
    return [(g._dtype, d if d is not None else (None,) * 4)]


def _lrn_grad_kernel(xp, g, x, y, depth_radius, bias, alpha, beta):
    if g.ndim != 4 or x.ndim != 4 or y.ndim != 4:
        raise _invalid("inputs must be 4-dimensional")
    if not g.shape == x.shape == y.shape:
        raise _invalid("input_grads, input_image, and out_image should have the same shape")
    xf, norm = _lrn_norm(xp, x, depth_radius, bias, alpha)
    gf, yf = g.astype(np.float32), y.astype(np.float32)
    # dx_k = g_k * norm_k^-beta - 2 alpha beta x_k sum_{|j - k| <= r} g_j y_j / norm_j
    dx = gf * norm ** np.float32(-beta)
    dx -= np.float32(2 * alpha * beta) * xf * _window_sum(xp, gf * yf / norm, depth_radius)
    return dx.astype(g.dtype)


def _lrn_grad(op, grad):
    x = op._inputs[0]
    return [ops.apply_op("LRNGrad", [grad, x, op._outputs[0]], dict(op._attrs))]


_ATTRS = ("depth_radius", "bias", "alpha", "beta")
register_op("LRN", infer=_lrn_infer, kernel=_lrn_kernel, grad=_lrn_grad, gpu=True)
register_op("LRNGrad", infer=_lrn_grad_infer, kernel=_lrn_grad_kernel, gpu=True)


def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):  # noqa: A002
    """Local Response Normalization over the last (depth) dimension of a 4-D tensor.

    Each vector `input[a, b, c, :]` is normalized independently:

        sqr_sum[a, b, c, d] = sum(input[a, b, c, d - depth_radius : d + depth_radius + 1] ** 2)
        output = input / (bias + alpha * sqr_sum) ** beta

    Args:
      input: A 4-D float32/float16 `Tensor`.
      depth_radius: An int >= 0, the half-width of the 1-D normalization window (default 5).
      bias: A float offset (usually positive, to avoid dividing by 0; default 1).
      alpha: A float scale factor (default 1).
      beta: A float exponent (default 0.5).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `input`.

    Raises:
      TypeError: If `input` is not float32/float16 (TF has no float64 LRN kernel).
      ValueError: If `input` is not 4-D.
      InvalidArgumentError: At run time, if the value is not 4-D.
    """
    x = ops.convert_to_tensor(input, name="input")
    if isinstance(depth_radius, bool) or not isinstance(depth_radius, (int, np.integer)):
        raise TypeError("Expected int for argument 'depth_radius' not %r." % (depth_radius,))
    attrs = {"depth_radius": int(depth_radius), "bias": float(bias), "alpha": float(alpha), "beta": float(beta)}
    return ops.apply_op("LRN", [x], attrs, name=name)


lrn = local_response_normalization
