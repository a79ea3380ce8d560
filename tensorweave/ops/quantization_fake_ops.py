"""Fake quantization (`tf.quantization.fake_quant_*`): FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars,
FakeQuantWithMinMaxVarsPerChannel and their gradient ops, as TF's kernels compute them in float32.

The range `[min, max]` is first nudged so that 0.0 is exactly representable (TF's `Nudge`): with
`quant_min = 1 if narrow_range else 0` and `quant_max = 2**num_bits - 1`, `scale = (max - min) /
(quant_max - quant_min)`, the zero point `quant_min - min / scale` is clamped to the code range and
rounded half away from zero, and `nudged_min/max = (quant_min/max - zero_point) * scale`. Inputs are
clamped to the nudged range and rounded to the nearest level: `floor((x - nudged_min) * inv_scale -
quant_zero + 0.5) * scale` (the Vars op divides by `scale` instead of multiplying by `inv_scale`, as
TF's does; both bitwise TF's). A range with `min == max == 0` (Vars ops) gives zeros, and its
gradient passes everything to the input.

The gradients are TF's straight-through estimators: the incoming gradient where the input lies in
the nudged range (inclusive), and for the Vars ops the sums of the gradient below the range (w.r.t.
`min`) and above it (w.r.t. `max`), per channel for the PerChannel op. TF registers no gradient for
the gradient ops themselves."""

import collections

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _merge_dims

__all__ = ["fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient", "fake_quant_with_min_max_vars",
           "fake_quant_with_min_max_vars_gradient", "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient"]

_F32 = np.float32

FakeQuantWithMinMaxVarsGradient = collections.namedtuple(
    "FakeQuantWithMinMaxVarsGradient", ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])
FakeQuantWithMinMaxVarsPerChannelGradient = collections.namedtuple(
    "FakeQuantWithMinMaxVarsPerChannelGradient", ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])


def c_float(v):
    """A float as TF's StrCat prints it (shortest of %.6g / %.9g that round-trips in float32)."""
    v = _F32(v)
    s = "%.6g" % v
    return s if _F32(s) == v else "%.9g" % v


# ---- TF's arithmetic ------------------------------------------------------------------------------
def _quant_bounds(num_bits, narrow_range):
    if not 2 <= num_bits <= 16:
        raise _invalid("num_bits must be between 2 and 16, inclusive")
    return (1 if narrow_range else 0), (1 << num_bits) - 1


def _round_away(v):
    """std::round of a float32 scalar (half away from zero), exactly."""
    r = np.floor(abs(v))
    if abs(v) - r >= 0.5:
        r += 1
    return _F32(np.copysign(r, v))


def nudge(mn, mx, quant_min, quant_max):
    """TF's `Nudge`: (nudged_min, nudged_max, scale, inv_scale) as float32 scalars."""
    with np.errstate(all="ignore"):
        mn, mx = _F32(mn), _F32(mx)
        qmin, qmax = _F32(quant_min), _F32(quant_max)
        scale = _F32((mx - mn) / (qmax - qmin))
        inv = _F32((qmax - qmin) / (mx - mn))
        zp_from_min = _F32(qmin - mn / scale)
        if zp_from_min < qmin:
            zp = quant_min
        elif zp_from_min > qmax:
            zp = quant_max
        elif np.isnan(zp_from_min):
            zp = 0  # TF's cast of NaN to uint16 (x86: 0); every result is NaN anyway
        else:
            zp = int(_round_away(zp_from_min))
        return _F32((qmin - _F32(zp)) * scale), _F32((qmax - _F32(zp)) * scale), scale, inv


def _fake_quant(x, mn, mx, quant_min, quant_max, divide):
    """One range's fake quantization of the float32 array `x`."""
    nmin, nmax, scale, inv = nudge(mn, mx, quant_min, quant_max)
    with np.errstate(all="ignore"):
        quant_zero = _F32(np.floor(_F32(-nmin * inv) + _F32(0.5)))
        shifted = np.maximum(np.minimum(x, nmax), nmin) - nmin
        steps = shifted / scale if divide else shifted * inv
        return (np.floor(steps - quant_zero + _F32(0.5)) * scale).astype(_F32, copy=False)


def _in_range_grads(g, x, mn, mx, quant_min, quant_max, zero_zero):
    """(input backprop, below mask, above mask) for one range; None masks for TF's 0/0 range."""
    if zero_zero and mn == 0 and mx == 0:
        return g.copy(), None, None
    nmin, nmax, _, _ = nudge(mn, mx, quant_min, quant_max)
    with np.errstate(all="ignore"):
        inside = ((x >= nmin) & (x <= nmax)).astype(_F32)
        return g * inside, (x < nmin).astype(_F32), (x > nmax).astype(_F32)


def _masked_sum(g, mask, axis=None):
    if mask is None:
        return _F32(0) if axis is None else np.zeros(g.shape[1], _F32)
    with np.errstate(all="ignore"):
        return np.asarray((g * mask).sum(axis=axis, dtype=_F32), _F32)


# ---- static inference -------------------------------------------------------------------------
def _check_f32(t, arg):
    if t.dtype is not dtypes.float32:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: float32"
                        % (arg, t.dtype.name))


def _rank_is(t, rank):
    d = t._shape.as_tuple()
    if d is not None and len(d) != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(d)))
    return d


def _infer_args(op):
    _check_f32(op._inputs[0], "inputs")
    return [(dtypes.float32, op._inputs[0]._shape)]


def _infer_args_grad(op):
    g, x = op._inputs
    _check_f32(g, "gradients")
    _check_f32(x, "inputs")
    return [(dtypes.float32, _merge_dims(g._shape.as_tuple(), x._shape.as_tuple()))]


def _infer_vars(op):
    x, mn, mx = op._inputs
    for t, arg in ((x, "inputs"), (mn, "min"), (mx, "max")):
        _check_f32(t, arg)
    _rank_is(mn, 0)
    _rank_is(mx, 0)
    return [(dtypes.float32, x._shape)]


def _infer_vars_grad(op):
    g, x, mn, mx = op._inputs
    for t, arg in ((g, "gradients"), (x, "inputs"), (mn, "min"), (mx, "max")):
        _check_f32(t, arg)
    shape = _merge_dims(g._shape.as_tuple(), x._shape.as_tuple())
    _rank_is(mn, 0)
    _rank_is(mx, 0)
    return [(dtypes.float32, shape), (dtypes.float32, ()), (dtypes.float32, ())]


def _channel_dims(x_dims, mn, mx, max_rank=None):
    if x_dims is not None:
        if len(x_dims) < 1:
            raise ValueError("Shape must be at least rank 1 but is rank %d" % len(x_dims))
        if max_rank is not None and len(x_dims) > max_rank:
            raise ValueError("Shape must be at most rank %d but is rank %d" % (max_rank, len(x_dims)))
    depth = None if x_dims is None else x_dims[-1]
    for t in (mn, mx):
        d = _rank_is(t, 1)
        if d is not None and d[0] is not None:
            if depth is not None and depth != d[0]:
                raise ValueError("Dimensions must be equal, but are %d and %d" % (depth, d[0]))
            depth = d[0]
    return depth


def _infer_channel(op):
    x, mn, mx = op._inputs
    for t, arg in ((x, "inputs"), (mn, "min"), (mx, "max")):
        _check_f32(t, arg)
    _channel_dims(x._shape.as_tuple(), mn, mx)
    return [(dtypes.float32, x._shape)]


def _infer_channel_grad(op):
    g, x, mn, mx = op._inputs
    for t, arg in ((g, "gradients"), (x, "inputs"), (mn, "min"), (mx, "max")):
        _check_f32(t, arg)
    gd = g._shape.as_tuple()
    if gd is not None and len(gd) > 4:
        raise ValueError("Shape must be at most rank 4 but is rank %d" % len(gd))
    shape = _merge_dims(gd, x._shape.as_tuple())
    depth = _channel_dims(shape, mn, mx, max_rank=4)
    return [(dtypes.float32, shape), (dtypes.float32, (depth,)), (dtypes.float32, (depth,))]


# ---- kernels ----------------------------------------------------------------------------------
def _args_kernel(xp, x, min=-6.0, max=6.0, num_bits=8, narrow_range=False):  # noqa: A002 (TF's attribute names)
    if not _F32(min) < _F32(max):
        raise _invalid("min has to be smaller than max, was: %s >= %s" % (c_float(min), c_float(max)))
    qmin, qmax = _quant_bounds(num_bits, narrow_range)
    return _fake_quant(np.asarray(x, _F32), min, max, qmin, qmax, divide=False)


def _same_size(g, x):
    if g.shape != x.shape:
        raise _invalid("gradient and input must be the same size")


def _args_grad_kernel(xp, g, x, min=-6.0, max=6.0, num_bits=8, narrow_range=False):  # noqa: A002
    if not _F32(min) < _F32(max):
        raise _invalid("min has to be smaller than max, was: %s >= %s" % (c_float(min), c_float(max)))
    qmin, qmax = _quant_bounds(num_bits, narrow_range)
    _same_size(g, x)
    return _in_range_grads(g, x, min, max, qmin, qmax, zero_zero=False)[0]


def _scalar_range(mn, mx):
    for name, t in (("min", mn), ("max", mx)):
        if np.ndim(t) != 0:
            raise _invalid("`%s` must be rank 0 but is rank %d" % (name, np.ndim(t)))
    return _F32(mn), _F32(mx)


def _vars_kernel(xp, x, mn, mx, num_bits=8, narrow_range=False):
    qmin, qmax = _quant_bounds(num_bits, narrow_range)
    mn, mx = _scalar_range(mn, mx)
    if mn == 0 and mx == 0:
        return np.zeros_like(x)
    return _fake_quant(x, mn, mx, qmin, qmax, divide=True)


def _vars_grad_kernel(xp, g, x, mn, mx, num_bits=8, narrow_range=False):
    qmin, qmax = _quant_bounds(num_bits, narrow_range)
    _same_size(g, x)
    mn, mx = _scalar_range(mn, mx)
    dx, below, above = _in_range_grads(g, x, mn, mx, qmin, qmax, zero_zero=True)
    return dx, _masked_sum(g, below), _masked_sum(g, above)


def _channel_ranges(x, mn, mx, check_rank=True):
    depth = x.shape[-1] if x.ndim else 1
    for name, t in (("min", mn), ("max", mx)):
        if check_rank and np.ndim(t) != 1:
            raise _invalid("`%s` must be rank 1 but is rank %d" % (name, np.ndim(t)))
        if np.shape(t)[0] != depth:
            raise _invalid("%s has incorrect size, expected %d was %d" % (name, depth, np.shape(t)[0]))
    return np.asarray(mn, _F32), np.asarray(mx, _F32)


def _channel_kernel(xp, x, mn, mx, num_bits=8, narrow_range=False):
    qmin, qmax = _quant_bounds(num_bits, narrow_range)
    mn, mx = _channel_ranges(x, mn, mx)
    flat = x.reshape(-1, x.shape[-1])
    out = np.empty_like(flat)
    for i in range(flat.shape[1]):
        if mn[i] == 0 and mx[i] == 0:
            out[:, i] = 0
        else:
            out[:, i] = _fake_quant(flat[:, i], mn[i], mx[i], qmin, qmax, divide=False)
    return out.reshape(x.shape)


def _channel_grad_kernel(xp, g, x, mn, mx, num_bits=8, narrow_range=False):
    qmin, qmax = _quant_bounds(num_bits, narrow_range)
    _same_size(g, x)
    mn, mx = _channel_ranges(x, mn, mx, check_rank=False)
    gf, xf = g.reshape(-1, x.shape[-1]), x.reshape(-1, x.shape[-1])
    dx = np.empty_like(gf)
    dmin, dmax = np.zeros(gf.shape[1], _F32), np.zeros(gf.shape[1], _F32)
    for i in range(gf.shape[1]):
        d, below, above = _in_range_grads(gf[:, i], xf[:, i], mn[i], mx[i], qmin, qmax, zero_zero=True)
        dx[:, i] = d
        dmin[i], dmax[i] = _masked_sum(gf[:, i], below), _masked_sum(gf[:, i], above)
    return dx.reshape(x.shape), dmin, dmax


# ---- gradients --------------------------------------------------------------------------------
def _bits(op):
    """The op's num_bits and narrow_range (TF's defaults where an imported graph leaves them out)."""
    return {"num_bits": op._attrs.get("num_bits", 8), "narrow_range": op._attrs.get("narrow_range", False)}


def _args_grad(op, grad):
    attrs = dict(_bits(op), min=op._attrs.get("min", -6.0), max=op._attrs.get("max", 6.0))
    return [ops.apply_op("FakeQuantWithMinMaxArgsGradient", [grad, op._inputs[0]], attrs)]


def _vars_grad(op, grad):
    return list(ops.apply_op("FakeQuantWithMinMaxVarsGradient", [grad] + list(op._inputs), _bits(op)))


def _channel_grad(op, grad):
    return list(ops.apply_op("FakeQuantWithMinMaxVarsPerChannelGradient", [grad] + list(op._inputs), _bits(op)))


register_op("FakeQuantWithMinMaxArgs", infer=_infer_args, kernel=_args_kernel, grad=_args_grad)
register_op("FakeQuantWithMinMaxArgsGradient", infer=_infer_args_grad, kernel=_args_grad_kernel, grad=NO_GRADIENT)
register_op("FakeQuantWithMinMaxVars", infer=_infer_vars, kernel=_vars_kernel, grad=_vars_grad)
register_op("FakeQuantWithMinMaxVarsGradient", infer=_infer_vars_grad, kernel=_vars_grad_kernel, grad=NO_GRADIENT)
register_op("FakeQuantWithMinMaxVarsPerChannel", infer=_infer_channel, kernel=_channel_kernel, grad=_channel_grad)
register_op("FakeQuantWithMinMaxVarsPerChannelGradient", infer=_infer_channel_grad, kernel=_channel_grad_kernel,
            grad=NO_GRADIENT)


# ---- public API -------------------------------------------------------------------------------
def _f32(value, name):
    return ops.convert_to_tensor(value, dtype=dtypes.float32, name=name)


def _bits_attrs(num_bits, narrow_range):
    return {"num_bits": int(num_bits), "narrow_range": bool(narrow_range)}


def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8, narrow_range=False, name=None):  # noqa: A002
    """Fake-quantizes the float32 `inputs` to `num_bits` levels in the nudged range `[min, max]`.

    The range is nudged so that 0.0 is a level; inputs are clamped to the nudged range and rounded
    to the nearest of its `2**num_bits` levels (`2**num_bits - 1` with `narrow_range`).

    Args:
      inputs: A float32 `Tensor`.
      min: A float: the low end of the range (default -6).
      max: A float: the high end of the range (default 6); `min < max`.
      num_bits: An int in [2, 16]: the quantization bit width (default 8).
      narrow_range: A bool: whether to leave out the lowest code (default False).
      name: A name for the operation (optional).

    Returns:
      A float32 `Tensor` of `inputs`' shape.

    Raises:
      TypeError: If `inputs` is not float32.
      InvalidArgumentError: (at run time, as TF) if `min >= max` or `num_bits` is out of range.
    """
    x = _f32(inputs, "inputs")
    attrs = dict(_bits_attrs(num_bits, narrow_range), min=float(min), max=float(max))
    return ops.apply_op("FakeQuantWithMinMaxArgs", [x], attrs, name=name)


def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6, num_bits=8,  # noqa: A002
                                          narrow_range=False, name=None):
    """Computes the gradient of a FakeQuantWithMinMaxArgs operation: `gradients` where `inputs` lies
    in the nudged range (inclusive), 0 elsewhere.

    Args:
      gradients: A float32 `Tensor`: the gradients above the FakeQuantWithMinMaxArgs operation.
      inputs: A float32 `Tensor` of the same shape: the values passed to it.
      min: A float (default -6).
      max: A float (default 6).
      num_bits: An int in [2, 16] (default 8).
      narrow_range: A bool (default False).
      name: A name for the operation (optional).

    Returns:
      A float32 `Tensor`: the backpropagated gradients.

    Raises:
      ValueError: If the shapes of `gradients` and `inputs` differ statically.
      InvalidArgumentError: (at run time) for bad attributes or different shapes.
    """
    g = _f32(gradients, "gradients")
    x = _f32(inputs, "inputs")
    attrs = dict(_bits_attrs(num_bits, narrow_range), min=float(min), max=float(max))
    return ops.apply_op("FakeQuantWithMinMaxArgsGradient", [g, x], attrs, name=name)


def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8, narrow_range=False, name=None):  # noqa: A002
    """Fake-quantizes the float32 `inputs` with the range given by the float32 scalars `min` and `max`
    (typically variables trained with the straight-through gradient). See
    `fake_quant_with_min_max_args`.

    Args:
      inputs: A float32 `Tensor`.
      min: A float32 scalar `Tensor`.
      max: A float32 scalar `Tensor`.
      num_bits: An int in [2, 16] (default 8).
      narrow_range: A bool (default False).
      name: A name for the operation (optional).

    Returns:
      A float32 `Tensor` of `inputs`' shape.

    Raises:
      ValueError: If `min` or `max` is not a scalar.
      InvalidArgumentError: (at run time) if `num_bits` is out of range.
    """
    attrs = _bits_attrs(num_bits, narrow_range)
    return ops.apply_op("FakeQuantWithMinMaxVars", [_f32(inputs, "inputs"), _f32(min, "min"), _f32(max, "max")],
                        attrs, name=name)


def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max, num_bits=8,  # noqa: A002
                                          narrow_range=False, name=None):
    """Computes the gradients of a FakeQuantWithMinMaxVars operation.

    Args:
      gradients: A float32 `Tensor`: the gradients above the FakeQuantWithMinMaxVars operation.
      inputs: A float32 `Tensor` of the same shape.
      min: A float32 scalar `Tensor`.
      max: A float32 scalar `Tensor`.
      num_bits: An int in [2, 16] (default 8).
      narrow_range: A bool (default False).
      name: A name for the operation (optional).

    Returns:
      A tuple `(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max)`: `gradients` where the input
      lies in the nudged range, and the sums of `gradients` below and above it.

    Raises:
      ValueError: For statically bad shapes.
      InvalidArgumentError: (at run time) for bad attributes or shapes.
    """
    attrs = _bits_attrs(num_bits, narrow_range)
    outs = ops.apply_op("FakeQuantWithMinMaxVarsGradient", [_f32(gradients, "gradients"), _f32(inputs, "inputs"),
                                                            _f32(min, "min"), _f32(max, "max")], attrs, name=name)
    return FakeQuantWithMinMaxVarsGradient(*outs)


def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8, narrow_range=False,  # noqa: A002
                                             name=None):
    """Fake-quantizes the float32 `inputs` per channel (the last dimension) with the ranges given by
    the float32 vectors `min` and `max` of that dimension's size.

    Args:
      inputs: A float32 `Tensor` of rank >= 1.
      min: A float32 vector `Tensor`.
      max: A float32 vector `Tensor`.
      num_bits: An int in [2, 16] (default 8).
      narrow_range: A bool (default False).
      name: A name for the operation (optional).

    Returns:
      A float32 `Tensor` of `inputs`' shape.

    Raises:
      ValueError: For statically bad shapes.
      InvalidArgumentError: (at run time) for bad attributes or shapes.
    """
    attrs = _bits_attrs(num_bits, narrow_range)
    return ops.apply_op("FakeQuantWithMinMaxVarsPerChannel",
                        [_f32(inputs, "inputs"), _f32(min, "min"), _f32(max, "max")], attrs, name=name)


def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max, num_bits=8,  # noqa: A002
                                                      narrow_range=False, name=None):
    """Computes the gradients of a FakeQuantWithMinMaxVarsPerChannel operation.

    Args:
      gradients: A float32 `Tensor` of rank 1 to 4: the gradients above the operation.
      inputs: A float32 `Tensor` of the same shape.
      min: A float32 vector `Tensor` of the last dimension's size.
      max: A float32 vector `Tensor` of the last dimension's size.
      num_bits: An int in [2, 16] (default 8).
      narrow_range: A bool (default False).
      name: A name for the operation (optional).

    Returns:
      A tuple `(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max)`, the last two per channel.

    Raises:
      ValueError: For statically bad shapes.
      InvalidArgumentError: (at run time) for bad attributes or shapes.
    """
    attrs = _bits_attrs(num_bits, narrow_range)
    outs = ops.apply_op("FakeQuantWithMinMaxVarsPerChannelGradient",
                        [_f32(gradients, "gradients"), _f32(inputs, "inputs"), _f32(min, "min"), _f32(max, "max")],
                        attrs, name=name)
    return FakeQuantWithMinMaxVarsPerChannelGradient(*outs)

