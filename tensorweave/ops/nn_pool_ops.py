"""Pooling ops: MaxPool, MaxPoolGrad, MaxPoolGradGrad, AvgPool, AvgPoolGrad (max_pool, avg_pool,
max_pool_grad and their 2-D aliases)."""

import numpy as np

from ..framework import ops
from ..framework.registry import register_op
from . import _conv_jit
from .core_ops import shape as _shape_of
from .core_ops import zeros_like
from .nn_conv2d_ops import _avg_pool_grad_xp, _avg_pool_xp, _max_pool_grad_xp, _max_pool_xp
from .nn_conv_geometry import (
    _FLOAT_NAMES,
    _FLOAT_TYPES,
    _MAX_POOL_NAMES,
    _MAX_POOL_TYPES,
    _avg_counts,
    _check_4d,
    _check_types,
    _convert,
    _deprecated_lookup,
    _first_max_masks,
    _first_zero_signs,
    _from_nhwc,
    _get_sequence,
    _invalid,
    _lowest,
    _masked,
    _max_pool_routing,
    _padded,
    _pool_attrs,
    _pool_geometry,
    _pool_over_batch,
    _pool_padded,
    _pool_static,
    _shape_arg,
    _static_dims,
    _static_shape_arg,
    _tap,
    _taps,
    _to_nhwc,
    _to_nhwc_dims,
)


# ---- MaxPool ---------------------------------------------------------------------------------
def _max_pool_infer(op):
    x = op._inputs[0]
    if x.dtype not in _MAX_POOL_TYPES:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: %s"
                        % (x.dtype.name, _MAX_POOL_NAMES))
    return [(x.dtype, _pool_static(op, _static_dims(x, 4)))]


def _max_pool_tiles(x, g, maximum):
    """Max pooling of windows that tile the input (stride = window, no padding before): each
    window's rows are whole runs of KW*C values, so NumPy takes maxima of long runs, then of taps."""
    n, c = x.shape[0], x.shape[3]
    r = x[:, :g.oh * g.kh, :g.ow * g.kw].reshape(n, g.oh, g.kh, g.ow, g.kw * c)
    rows = maximum(r[:, :, 0], r[:, :, 1]) if g.kh > 1 else r[:, :, 0].copy()
    for i in range(2, g.kh):
        maximum(rows, r[:, :, i], out=rows)
    taps = rows.reshape(n, g.oh, g.ow, g.kw, c)
    if g.kw == 1:
        return taps[:, :, :, 0]
    out = maximum(taps[:, :, :, 0], taps[:, :, :, 1])
    for j in range(2, g.kw):
        maximum(out, taps[:, :, :, j], out=out)
    return out


def max_pool_nhwc(x, g):
    """TF's CPU MaxPool of NHWC `x` (geometry `g`): each output starts at the dtype's lowest finite
    value and takes each window element (row-major) greater than the one it holds. So NaN never wins,
    a window of only NaN and -inf gives the lowest finite value, and of -0 and +0 the first one stays.
    Float32/float64 C-contiguous arrays run the numba loop when numba is there; the NumPy forms below
    give its values bitwise."""
    if _conv_jit.usable(x):
        out = np.empty((g.n, g.oh, g.ow, g.c), x.dtype)
        _pool_over_batch(g, lambda b0, b1: _conv_jit.max_pool(x, out, b0, b1, g))
        return out
    low = x.dtype.type(_lowest(x.dtype))
    if x.dtype == np.float16:
        # NumPy's float16 max is a slow scalar loop: TF's rule itself, tap by tap, is faster.
        xpad = _padded(x, g, low)
        out = np.full((g.n, g.oh, g.ow, g.c), low, x.dtype)
        for i, j in _taps(g):
            t = _tap(xpad, i, j, g)
            out = np.where(out < t, t, out)
        return out
    floats = x.dtype.kind == "f"
    maximum = np.fmax if floats else np.maximum  # fmax: NaN never wins
    if g.kh == g.sh and g.kw == g.sw and not (g.pt or g.pl) and g.oh * g.kh <= g.h and g.ow * g.kw <= g.w:
        out, xpad = _max_pool_tiles(x, g, maximum), x
    else:
        xpad = _pool_padded(x, g)
        out = None
        for i, j in _taps(g):
            t = _tap(xpad, i, j, g)
            if out is None:
                out = t.copy()
            else:
                maximum(out, t, out=out)
    if floats:
        np.fmax(out, low, out=out)  # NaN (no other element) and -inf give the lowest finite value
        _first_zero_signs(out, xpad, g)
    return out


def _max_pool_kernel(xp, x, ksize, strides, padding, data_format):
    _check_4d(tensor_in=x)
    x = _to_nhwc(x, data_format)
    g = _pool_geometry(x.shape, ksize, strides, padding, data_format)
    return _from_nhwc(max_pool_nhwc(x, g), data_format)


def _max_pool_grad(op, grad):
    """d max_pool(x) = the output gradient routed to the (first) max of each window: MaxPoolGrad."""
    return [ops.apply_op("MaxPoolGrad", [op._inputs[0], op._outputs[0], grad], dict(op._attrs))]


register_op("MaxPool", infer=_max_pool_infer, kernel=_max_pool_kernel, grad=_max_pool_grad, gpu=_max_pool_xp)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    """Performs max pooling on the input: each output is the max of a `ksize` window.

    Args:
      value: A 4-D `Tensor` laid out as `data_format`.
      ksize: An int or list of 1, 2 or 4 ints: the window size per dimension.
      strides: An int or list of 1, 2 or 4 ints: the window stride per dimension.
      padding: `"SAME"` or `"VALID"`; padded elements never win.
      data_format: `"NHWC"` (default) or `"NCHW"`.
      name: Optional name for the operation.
      input: Alias for `value`.

    Returns:
      A `Tensor` of the type of `value`, the max pooled output.

    Raises:
      ValueError: For a bad padding/data_format/ksize/strides, a zero ksize, or a window larger
        than the input with VALID padding.
    """
    value = _deprecated_lookup("input", input, "value", value)
    with ops.name_scope(name, "MaxPool", [value]) as name:
        return _pool("MaxPool", value, ksize, strides, padding, data_format, name)


def _pool(op_type, value, ksize, strides, padding, data_format, name):
    data_format = data_format or "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    ksize = _get_sequence(ksize, 2, channel_index, "ksize")
    strides = _get_sequence(strides, 2, channel_index, "strides")
    if any(v == 0 for v in ksize):
        raise ValueError("ksize cannot be zero.")
    attrs = _pool_attrs(op_type, ksize, strides, padding, data_format)
    return ops.apply_op(op_type, [_convert(value, "input")], attrs, name=name)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """`max_pool` with TF 2's argument name `input` (see `max_pool`)."""
    return max_pool(input, ksize, strides, padding, data_format=data_format, name=name)


# ---- MaxPoolGrad / MaxPoolGradGrad ------------------------------------------------------------
def _max_pool_grad_infer(op):
    x, y, dy = op._inputs
    _check_types(op, [("orig_input", x), ("orig_output", y), ("grad", dy)], _MAX_POOL_TYPES, _MAX_POOL_NAMES)
    xd = _static_dims(x, 4)
    _static_dims(y, 4)
    _static_dims(dy, 4)
    return [(x.dtype, xd)]


def _max_pool_grad_kernel(xp, x, y, dy, ksize, strides, padding, data_format):
    return max_pool_grad(x, y, dy, ksize, strides, padding, data_format)


def max_pool_grad(x, y, dy, ksize, strides, padding, data_format, relu=False):
    """MaxPoolGrad's kernel, as TF's CPU kernel: zeros, plus each window's `dy` at the input its
    argmax picks (`_max_pool_routing`: the first element of the window, replaced by each later one
    greater than the one held; `y` only fixes the shapes). Inputs that no window picks get +0 even
    for an inf or NaN `dy`. With `relu` (windows that do not overlap only), also ReluGrad by the
    mask `x > 0` (x being the ReLU's output the pool read): the two ops' values, bitwise, in one pass
    (the compiler's `fuse_relu_pool_grads` uses it)."""
    _check_4d(tensor_in=x, tensor_out=y, out_backprop=dy)
    x, y, dy = (_to_nhwc(a, data_format) for a in (x, y, dy))
    g = _pool_geometry(x.shape, ksize, strides, padding, data_format)
    if dy.shape != (g.n, g.oh, g.ow, g.c) or y.shape != dy.shape:
        raise _invalid("Expected orig_output and grad shapes to be %s, got %s and %s"
                       % (list((g.n, g.oh, g.ow, g.c)), list(y.shape), list(dy.shape)))
    disjoint = g.sh >= g.kh and g.sw >= g.kw
    if relu and not disjoint:
        raise ValueError("the ReLU mask is folded in for windows that do not overlap only")
    if disjoint and _conv_jit.usable(x, y, dy):
        # Every input is written when the windows tile it exactly; else the gaps stay zero.
        tiled = (g.sh == g.kh and g.sw == g.kw and g.oh * g.kh - g.pt >= g.h and g.ow * g.kw - g.pl >= g.w)
        dx = (np.empty if tiled else np.zeros)(x.shape, dy.dtype)
        _pool_over_batch(g, lambda b0, b1: _conv_jit.max_pool_grad(x, dy, dx, b0, b1, g, relu))
        return _from_nhwc(dx, data_format)
    dxp = np.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, g.c), dy.dtype)

    def work(b0, b1):
        block, dyb = dxp[b0:b1], dy[b0:b1]
        positive, masks = _max_pool_routing(x[b0:b1], g)
        if disjoint:
            # Each input takes at most one window's gradient: written as TF's `0 + dy`.
            dyb = dyb + dy.dtype.type(0)
            if relu:
                # ReluGrad's `grad * (x > 0)` of the routed values (each window's chosen element);
                # an inf or NaN gradient times 0 is NaN, as there.
                with np.errstate(invalid="ignore"):
                    dyb *= positive
        # Overlapping windows add up at an input: TF adds in the order of the outputs, which is the
        # reverse order of the taps (a later tap of a window reaches an input from an earlier window).
        for (i, j), m in (masks() if disjoint else reversed(list(masks()))):
            view = _tap(block, i, j, g)
            if disjoint:
                _masked(dyb, m, out=view)
            else:
                view += _masked(dyb, m)

    _pool_over_batch(g, work)
    return _from_nhwc(dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w], data_format)


def _max_pool_grad_grad(op, grad):
    """Linear in its grad input (adjoint: MaxPoolGradGrad(x, y, g)); piecewise constant in x and y."""
    x, y, _ = op._inputs
    return [zeros_like(x), zeros_like(y),
            ops.apply_op("MaxPoolGradGrad", [x, y, grad], dict(op._attrs))]


register_op("MaxPoolGrad", infer=_max_pool_grad_infer, kernel=_max_pool_grad_kernel, grad=_max_pool_grad_grad,
            gpu=_max_pool_grad_xp)


def _max_pool_grad_grad_infer(op):
    x, y, dy = op._inputs
    _check_types(op, [("orig_input", x), ("orig_output", y), ("grad", dy)], _MAX_POOL_TYPES, _MAX_POOL_NAMES)
    _static_dims(x, 4)
    _static_dims(dy, 4)
    return [(x.dtype, _static_dims(y, 4))]


def _max_pool_grad_grad_kernel(xp, x, y, ddx, ksize, strides, padding, data_format):
    """TF's CPU MaxPoolGradGrad: each output takes `ddx` at its window's first element equal to
    `orig_output` (0 where none is: a window of NaN and -inf, whose max pool is the lowest value)."""
    _check_4d(orig_input=x, orig_output=y, grad=ddx)
    x, y, ddx = (_to_nhwc(a, data_format) for a in (x, y, ddx))
    g = _pool_geometry(x.shape, ksize, strides, padding, data_format)
    gpad = _padded(ddx, g)
    out = np.zeros(y.shape, ddx.dtype)
    for (i, j), m in _first_max_masks(x, y, g):
        out += _masked(_tap(gpad, i, j, g), m)
    return _from_nhwc(out, data_format)


def _max_pool_grad_grad_grad(op, grad):
    """MaxPoolGradGrad is linear in its last input: its adjoint is MaxPoolGrad(x, y, grad)."""
    x, y, _ = op._inputs
    return [zeros_like(x), zeros_like(y), ops.apply_op("MaxPoolGrad", [x, y, grad], dict(op._attrs))]


register_op("MaxPoolGradGrad", infer=_max_pool_grad_grad_infer, kernel=_max_pool_grad_grad_kernel,
            grad=_max_pool_grad_grad_grad)


# ---- AvgPool / AvgPoolGrad --------------------------------------------------------------------
def _avg_pool_infer(op):
    x = op._inputs[0]
    if x.dtype not in _FLOAT_TYPES:
        raise TypeError("Value passed to parameter 'value' has DataType %s not in list of allowed values: %s"
                        % (x.dtype.name, _FLOAT_NAMES))
    return [(x.dtype, _pool_static(op, _static_dims(x, 4)))]


def _avg_pool_kernel(xp, x, ksize, strides, padding, data_format):
    _check_4d(tensor_in=x)
    x = _to_nhwc(x, data_format)
    g = _pool_geometry(x.shape, ksize, strides, padding, data_format)
    xpad = _padded(x, g)
    acc = np.float32 if x.dtype == np.float16 else x.dtype
    out = None
    for i, j in _taps(g):
        t = _tap(xpad, i, j, g)
        if out is None:
            out = t.astype(acc)
        else:
            out += t
    out /= _avg_counts(g, acc)
    return _from_nhwc(out.astype(x.dtype, copy=False), data_format)


def _avg_pool_grad(op, grad):
    """d avg_pool(x) = each output gradient spread evenly over its window's valid inputs: AvgPoolGrad."""
    return [ops.apply_op("AvgPoolGrad", [_shape_of(op._inputs[0]), grad], dict(op._attrs))]


register_op("AvgPool", infer=_avg_pool_infer, kernel=_avg_pool_kernel, grad=_avg_pool_grad, gpu=_avg_pool_xp)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    """Performs average pooling on the input: each output is the mean of a `ksize` window, over
    its non-padding elements only (SAME padding never dilutes the mean).

    Args:
      value: A 4-D floating `Tensor` laid out as `data_format`.
      ksize: An int or list of 1, 2 or 4 ints: the window size per dimension.
      strides: An int or list of 1, 2 or 4 ints: the window stride per dimension.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NHWC"` (default) or `"NCHW"`.
      name: Optional name for the operation.
      input: Alias for `value`.

    Returns:
      A `Tensor` with the same type as `value`, the average pooled output.

    Raises:
      ValueError: For a bad padding/data_format/ksize/strides or a window larger than the input
        with VALID padding.
    """
    value = _deprecated_lookup("input", input, "value", value)
    with ops.name_scope(name, "AvgPool", [value]) as name:
        return _pool("AvgPool", value, ksize, strides, padding, data_format, name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """`avg_pool` with TF 2's argument name `input` (see `avg_pool`)."""
    return avg_pool(input, ksize, strides, padding, data_format=data_format, name=name)


def _avg_pool_grad_infer(op):
    sizes, dy = op._inputs
    if dy.dtype not in _FLOAT_TYPES:
        raise TypeError("Value passed to parameter 'grad' has DataType %s not in list of allowed values: %s"
                        % (dy.dtype.name, _FLOAT_NAMES))
    _static_dims(dy, 4)
    return [(dy.dtype, _static_shape_arg(sizes, "orig_input_shape"))]


def _avg_pool_grad_kernel(xp, orig_input_shape, dy, ksize, strides, padding, data_format):
    in_nhwc = _to_nhwc_dims(_shape_arg(orig_input_shape, "orig_input_shape"), data_format)
    dy = _to_nhwc(dy, data_format)
    g = _pool_geometry(in_nhwc, ksize, strides, padding, data_format)
    if dy.shape != (g.n, g.oh, g.ow, g.c):
        raise _invalid("Expected grad shape to be %s, got %s" % (list((g.n, g.oh, g.ow, g.c)), list(dy.shape)))
    acc = np.float32 if dy.dtype == np.float16 else dy.dtype
    share = dy / _avg_counts(g, acc)
    dxp = np.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, g.c), acc)
    for i, j in _taps(g):
        view = _tap(dxp, i, j, g)
        view += share
    dx = dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w].astype(dy.dtype, copy=False)
    return _from_nhwc(dx, data_format)


def _avg_pool_grad_grad(op, grad):
    """AvgPoolGrad is linear in its grad input; its adjoint is avg_pool(grad)."""
    return [None, ops.apply_op("AvgPool", [grad], dict(op._attrs))]


register_op("AvgPoolGrad", infer=_avg_pool_grad_infer, kernel=_avg_pool_grad_kernel, grad=_avg_pool_grad_grad,
            gpu=_avg_pool_grad_xp, host_inputs=(0,))
