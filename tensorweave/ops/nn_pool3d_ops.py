"""3-D pooling: MaxPool3D, AvgPool3D and their gradients MaxPool3DGrad, MaxPool3DGradGrad and
AvgPool3DGrad (`tf.nn.max_pool3d`, `tf.nn.avg_pool3d`).

Kernels reduce over the window taps of the channels-last input, one vectorised NumPy operation
per tap. MaxPool3D follows TF's CPU rule (each output starts at the dtype's lowest finite value and
takes each window element, in row-major order, greater than the one held: NaN never wins, of -0 and
+0 the first stays). MaxPool3DGrad, as TF's 3-D kernel, gives each window's gradient to every
element of the window equal to its pooled value (ties share it), and MaxPool3DGradGrad takes, for
each window, the incoming gradient at the first (row-major) of those elements (0 where none is).
Average pooling divides by the number of non-padding elements of each window.
"""

import numpy as np

from ..framework import ops
from ..framework.registry import register_op
from .core_ops import shape as _shape_of
from .core_ops import zeros_like
from .nn_conv3d_ops import (
    _from_last,
    _from_last_dims,
    _geometry_nd,
    _padded_nd,
    _sizes_arg,
    _spatial,
    _static_rank,
    _static_sizes_arg,
    _tap_nd,
    _taps_nd,
    _to_last,
    _to_last_dims,
    _unpadded_nd,
)
from .nn_conv_geometry import (
    _FLOAT_TYPES,
    _check_types,
    _convert,
    _get_sequence,
    _int_list_attr,
    _invalid,
    _lowest,
    _string_attr,
)

__all__ = ["avg_pool3d", "max_pool3d"]

_FORMATS = ("NDHWC", "NCDHW")
_MAX_TYPES_NAMES = "float16, bfloat16, float32"
_AVG_TYPES_NAMES = "float16, bfloat16, float32, float64"


def _pool3d_attrs(op_type, ksize, strides, padding, data_format):
    padding = _string_attr(padding, "padding", op_type, ("SAME", "VALID"))
    data_format = _string_attr(data_format, "data_format", op_type, _FORMATS)
    ksize = _int_list_attr(ksize, "ksize", op_type)
    strides = _int_list_attr(strides, "strides", op_type)
    for name, values in (("ksize", ksize), ("strides", strides)):
        if len(values) < 5:
            raise ValueError("Attr '%s' of '%s' Op passed list of length %d less than minimum 5."
                             % (name, op_type, len(values)))
        if len(values) != 5:
            raise ValueError("%s: %s must be 5 values, got %d" % (op_type, name, len(values)))
    return {"ksize": ksize, "strides": strides, "padding": padding, "data_format": data_format}


def pool_geometry_nd(shape_last, ksize, strides, padding, data_format, static=False):
    """The window geometry of an N-d pooling (run-time checks of TF's pooling kernels)."""
    if not static:
        c = 1 if data_format.startswith("NC") else len(ksize) - 1
        if ksize[0] != 1 or strides[0] != 1:
            raise _invalid("Pooling is not yet supported on the batch dimension.")
        if ksize[c] != 1 or strides[c] != 1:
            raise _invalid("Pooling is not yet supported on the depth dimension.")
    k, s = _spatial(ksize, data_format), _spatial(strides, data_format)
    return _geometry_nd(shape_last, k, s, (1,) * len(k), padding, static)


def _pool_static(op, x):
    a = op._attrs
    fmt = a["data_format"]
    xd = _to_last_dims(_static_rank(x, 5), fmt)
    g = pool_geometry_nd(xd, a["ksize"], a["strides"], a["padding"], fmt, static=True)
    return _from_last_dims((xd[0],) + g.out + (xd[4],), fmt)


def _check_rank5(**arrays):
    for name, a in arrays.items():
        if a.ndim != 5:
            raise _invalid("%s must be 5-dimensional" % name)


def max_pool_nd(x, g):
    """TF's CPU max pooling of channels-last `x`: the lowest finite value, replaced by each window
    element (row-major) greater than the one held."""
    low = x.dtype.type(_lowest(x.dtype))
    xpad = _padded_nd(x, g, np.nan if x.dtype.kind == "f" else low)
    out = np.full((g.n,) + g.out + (g.c,), low, x.dtype)
    for tap in _taps_nd(g):
        t = _tap_nd(xpad, tap, g)
        np.copyto(out, t, where=t > out)
    return out


def avg_counts_nd(g, dtype):
    """The number of non-padding elements of each window, broadcastable to (*out, 1)."""
    if not any(g.before) and not any(g.after):
        return np.asarray(int(np.prod(g.k)), dtype)
    count = np.ones((), np.int64)
    for axis, (size, k, s, o, b) in enumerate(zip(g.sizes, g.k, g.s, g.out, g.before)):
        start = np.arange(o) * s - b
        n = np.minimum(start + k, size) - np.maximum(start, 0)
        shape = [1] * len(g.k)
        shape[axis] = o
        count = count * n.reshape(shape)
    return count.astype(dtype)[..., None]


def avg_pool_nd(x, g):
    acc = np.float32 if x.dtype == np.float16 else x.dtype
    xpad = _padded_nd(x, g)
    out = np.zeros((g.n,) + g.out + (g.c,), acc)
    for tap in _taps_nd(g):
        out += _tap_nd(xpad, tap, g)
    out /= avg_counts_nd(g, acc)
    return out.astype(x.dtype, copy=False)


def avg_pool_grad_nd(dy, g):
    acc = np.float32 if dy.dtype == np.float16 else dy.dtype
    share = dy.astype(acc) / avg_counts_nd(g, acc)
    padded = tuple(s + b + a for s, b, a in zip(g.sizes, g.before, g.after))
    dxp = np.zeros((g.n,) + padded + (g.c,), acc)
    for tap in _taps_nd(g):
        view = _tap_nd(dxp, tap, g)
        view += share
    return _unpadded_nd(dxp, g).astype(dy.dtype, copy=False)


def _equal_masks(x, y, g):
    """Yields (tap, mask): where tap `tap` of each window is an input element equal to the window's
    pooled value `y`."""
    fill = np.nan if x.dtype.kind == "f" else None
    if fill is None:
        # Integer padding: mark it with a mask of valid positions instead of a value.
        valid = _padded_nd(np.ones(x.shape, bool), g)
        xpad = _padded_nd(x, g)
    else:
        valid = None
        xpad = _padded_nd(x, g, fill)
    for tap in _taps_nd(g):
        m = _tap_nd(xpad, tap, g) == y
        if valid is not None:
            m &= _tap_nd(valid, tap, g)
        yield tap, m


# ---- MaxPool3D -------------------------------------------------------------------------------------
def _pool3d_infer(type_names):
    def infer(op):
        x = op._inputs[0]
        if x.dtype not in _FLOAT_TYPES:
            raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: %s"
                            % (x.dtype.name, type_names))
        return [(x.dtype, _pool_static(op, x))]
    return infer


def _pool3d_kernel(pool_nd):
    def kernel(xp, x, ksize, strides, padding, data_format):
        _check_rank5(tensor_in=x)
        x = _to_last(x, data_format)
        g = pool_geometry_nd(x.shape, ksize, strides, padding, data_format)
        return _from_last(pool_nd(x, g), data_format)
    return kernel


def _max_pool3d_grad(op, grad):
    return [ops.apply_op("MaxPool3DGrad", [op._inputs[0], op._outputs[0], grad], dict(op._attrs))]


register_op("MaxPool3D", infer=_pool3d_infer(_MAX_TYPES_NAMES), kernel=_pool3d_kernel(max_pool_nd),
            grad=_max_pool3d_grad)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Performs 3-D max pooling on the input.

    Args:
      input: A 5-D `Tensor` of type float16, float32 (or float64) laid out as `data_format`.
      ksize: An int or list of 1, 3 or 5 ints: the window size per dimension.
      strides: An int or list of 1, 3 or 5 ints: the window stride per dimension.
      padding: `"SAME"` or `"VALID"`; padded elements never win.
      data_format: `"NDHWC"` (default) or `"NCDHW"`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `input`, the max pooled output.

    Raises:
      ValueError: For bad attributes or a window larger than the input with VALID padding.
      TypeError: For an unsupported dtype.
    """
    return _pool3d("MaxPool3D", input, ksize, strides, padding, data_format, name)


def _pool3d(op_type, value, ksize, strides, padding, data_format, name):
    data_format = data_format or "NDHWC"
    channel_index = 1 if data_format.startswith("NC") else 4
    ksize = _get_sequence(ksize, 3, channel_index, "ksize")
    strides = _get_sequence(strides, 3, channel_index, "strides")
    attrs = _pool3d_attrs(op_type, ksize, strides, padding, data_format)
    return ops.apply_op(op_type, [_convert(value, "input")], attrs, name=name)


# ---- MaxPool3DGrad / MaxPool3DGradGrad ------------------------------------------------------------
def _max_pool3d_grad_infer(op):
    x, y, dy = op._inputs
    _check_types(op, [("orig_input", x), ("orig_output", y), ("grad", dy)], _FLOAT_TYPES, _MAX_TYPES_NAMES)
    _static_rank(y, 5)
    _static_rank(dy, 5)
    return [(dy.dtype, _static_rank(x, 5))]


def _pool_grad_setup(x, y, dy, ksize, strides, padding, data_format, what):
    _check_rank5(orig_input=x, orig_output=y, grad=dy)
    x, y, dy = (_to_last(a, data_format) for a in (x, y, dy))
    g = pool_geometry_nd(x.shape, ksize, strides, padding, data_format)
    want = (g.n,) + g.out + (g.c,)
    if y.shape != want or dy.shape != (want if what == "grad" else x.shape):
        raise _invalid("Expected orig_output shape %s and grad shape %s, got %s and %s"
                       % (list(want), list(want if what == "grad" else x.shape), list(y.shape), list(dy.shape)))
    return x, y, dy, g


def _max_pool3d_grad_kernel(xp, x, y, dy, ksize, strides, padding, data_format):
    x, y, dy, g = _pool_grad_setup(x, y, dy, ksize, strides, padding, data_format, "grad")
    padded = tuple(s + b + a for s, b, a in zip(g.sizes, g.before, g.after))
    dxp = np.zeros((g.n,) + padded + (g.c,), dy.dtype)
    zero = dy.dtype.type(0)
    for tap, m in _equal_masks(x, y, g):
        view = _tap_nd(dxp, tap, g)
        view += np.where(m, dy, zero)
    return _from_last(_unpadded_nd(dxp, g), data_format)


def _max_pool3d_grad_grad(op, grad):
    x, y, _ = op._inputs
    return [zeros_like(x), zeros_like(y), ops.apply_op("MaxPool3DGradGrad", [x, y, grad], dict(op._attrs))]


register_op("MaxPool3DGrad", infer=_max_pool3d_grad_infer, kernel=_max_pool3d_grad_kernel,
            grad=_max_pool3d_grad_grad)


def _max_pool3d_grad_grad_infer(op):
    x, y, ddx = op._inputs
    _check_types(op, [("orig_input", x), ("orig_output", y), ("grad", ddx)], _FLOAT_TYPES, _MAX_TYPES_NAMES)
    _static_rank(x, 5)
    _static_rank(ddx, 5)
    return [(x.dtype, _static_rank(y, 5))]


def _max_pool3d_grad_grad_kernel(xp, x, y, ddx, ksize, strides, padding, data_format):
    x, y, ddx, g = _pool_grad_setup(x, y, ddx, ksize, strides, padding, data_format, "gradgrad")
    gpad = _padded_nd(ddx, g)
    out = np.zeros(y.shape, ddx.dtype)
    pending = np.ones(y.shape, bool)
    for tap, m in _equal_masks(x, y, g):
        m &= pending
        np.copyto(out, _tap_nd(gpad, tap, g), where=m)
        pending &= ~m
    return _from_last(out, data_format)


def _max_pool3d_grad_grad_grad(op, grad):
    x, y, _ = op._inputs
    return [zeros_like(x), zeros_like(y), ops.apply_op("MaxPool3DGrad", [x, y, grad], dict(op._attrs))]


register_op("MaxPool3DGradGrad", infer=_max_pool3d_grad_grad_infer, kernel=_max_pool3d_grad_grad_kernel,
            grad=_max_pool3d_grad_grad_grad)


# ---- AvgPool3D / AvgPool3DGrad --------------------------------------------------------------------
def _avg_pool3d_grad(op, grad):
    return [ops.apply_op("AvgPool3DGrad", [_shape_of(op._inputs[0]), grad], dict(op._attrs))]


register_op("AvgPool3D", infer=_pool3d_infer(_AVG_TYPES_NAMES), kernel=_pool3d_kernel(avg_pool_nd),
            grad=_avg_pool3d_grad)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Performs 3-D average pooling on the input: each output is the mean of its window's
    non-padding elements.

    Args:
      input: A 5-D floating `Tensor` laid out as `data_format`.
      ksize: An int or list of 1, 3 or 5 ints: the window size per dimension.
      strides: An int or list of 1, 3 or 5 ints: the window stride per dimension.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NDHWC"` (default) or `"NCDHW"`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `input`, the average pooled output.

    Raises:
      ValueError: For bad attributes or a window larger than the input with VALID padding.
      TypeError: For an unsupported dtype.
    """
    return _pool3d("AvgPool3D", input, ksize, strides, padding, data_format, name)


def _avg_pool3d_grad_infer(op):
    sizes, dy = op._inputs
    if dy.dtype not in _FLOAT_TYPES:
        raise TypeError("Value passed to parameter 'grad' has DataType %s not in list of allowed values: %s"
                        % (dy.dtype.name, _AVG_TYPES_NAMES))
    _static_rank(dy, 5)
    return [(dy.dtype, _static_sizes_arg(sizes, "orig_input_shape", 5))]


def _avg_pool3d_grad_kernel(xp, orig_input_shape, dy, ksize, strides, padding, data_format):
    in_last = _to_last_dims(_sizes_arg(orig_input_shape, "orig_input_shape", 5), data_format)
    _check_rank5(grad=dy)
    dy = _to_last(dy, data_format)
    g = pool_geometry_nd(in_last, ksize, strides, padding, data_format)
    want = (g.n,) + g.out + (g.c,)
    if dy.shape != want:
        raise _invalid("Expected grad shape to be %s, got %s" % (list(want), list(dy.shape)))
    return _from_last(avg_pool_grad_nd(dy, g), data_format)


def _avg_pool3d_grad_grad(op, grad):
    return [None, ops.apply_op("AvgPool3D", [grad], dict(op._attrs))]


register_op("AvgPool3DGrad", infer=_avg_pool3d_grad_infer, kernel=_avg_pool3d_grad_kernel,
            grad=_avg_pool3d_grad_grad)
