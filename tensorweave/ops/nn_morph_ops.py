"""Morphological and argmax pooling ops: Dilation2D with its backprops (Dilation2DBackpropInput,
Dilation2DBackpropFilter), `tf.nn.dilation2d` (TF1 signature, with `rates`) and `erosion2d`;
MaxPoolWithArgmax with its gradient MaxPoolGradWithArgmax (`tf.nn.max_pool_with_argmax`).

Both families pick one element per window, as TF's CPU kernels do, tap by tap over the window in
row-major order:
- Dilation2D: each output starts at the dtype's lowest finite value and takes each in-bounds
  `input + filter` value greater than the one held (NaN never wins). Its backprops add each output
  gradient at the element (input) or filter tap chosen; a window where nothing was chosen sends it
  to its first in-bounds input position (clamped window start) and to filter tap (0, 0).
- MaxPoolWithArgmax: each output takes its window's first in-bounds element (even NaN), replaced by
  each later element greater than the one held; argmax is that element's flat index
  `((b * height + y) * width + x) * channels + c` (without `b` unless `include_batch_in_index`).
The scatters of the backprops are `np.add.at` in output order (TF's accumulation order).
"""

import collections

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .nn_conv_geometry import (
    _FLOAT_TYPES,
    _apply_input_filter_backprop,
    _convert,
    _deprecated_lookup,
    _geometry,
    _int_list_attr,
    _invalid,
    _lowest,
    _merge,
    _padded,
    _static_dims,
    _string_attr,
    _tap,
    _tap_valid,
    _taps,
)

__all__ = ["dilation2d", "erosion2d", "max_pool_with_argmax"]

_REAL_TYPES = _FLOAT_TYPES + (dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.int16, dtypes.int8, dtypes.uint16)
_REAL_NAMES = "float32, float64, int32, uint8, int16, int8, int64, bfloat16, uint16, float16, uint32, uint64"


def _check_real(t, arg):
    if t.dtype not in _REAL_TYPES:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (arg, t.dtype.name, _REAL_NAMES))


def _check_same(op, named):
    first_name, first = named[0]
    for arg, t in named[1:]:
        if t.dtype is not first.dtype:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument '%s'."
                            % (arg, op.type, t.dtype.name, first.dtype.name, first_name))


def _window_choice(x, g, add=None, first_wins=False):
    """Each window's chosen tap over NHWC `x`: (values (N, OH, OW, C), tap index, -1 where none).

    `add`: (KH, KW, C) values added to each tap (Dilation2D's filter). `first_wins`: the first
    in-bounds element is taken whatever its value (MaxPoolWithArgmax); else the lowest finite value
    is the starting point (Dilation2D)."""
    xpad = _padded(x, g)
    low = x.dtype.type(_lowest(x.dtype))
    out = np.full((x.shape[0], g.oh, g.ow, x.shape[3]), low, x.dtype)
    best = np.full(out.shape, -1, np.int64)
    with np.errstate(over="ignore", invalid="ignore"):
        for k, (i, j) in enumerate(_taps(g)):
            v = _tap(xpad, i, j, g)
            if add is not None:
                v = v + add[i, j]
            upd = v > out
            if first_wins:
                upd |= best < 0
            valid = _tap_valid(g, i, j)
            if valid is not None:
                upd &= valid
            np.copyto(out, v, where=upd)
            best[upd] = k
    return out, best


def _chosen_positions(best, g):
    """(rows, cols) of the input element each window's chosen tap reads; for windows with none,
    the clamped window start."""
    k = np.maximum(best, 0)
    ti, tj = k // g.kw, k % g.kw
    oh = np.arange(g.oh)[None, :, None, None]
    ow = np.arange(g.ow)[None, None, :, None]
    h_beg, w_beg = oh * g.sh - g.pt, ow * g.sw - g.pl
    rows = np.where(best >= 0, h_beg + ti * g.dh, np.maximum(h_beg, 0))
    cols = np.where(best >= 0, w_beg + tj * g.dw, np.maximum(w_beg, 0))
    return rows, cols


# ---- Dilation2D ------------------------------------------------------------------------------------
def _dilation_attrs(op_type, strides, rates, padding):
    padding = _string_attr(padding, "padding", op_type, ("SAME", "VALID"))
    strides = _int_list_attr(strides, "strides", op_type)
    rates = _int_list_attr(rates, "rates", op_type)
    for name, values in (("strides", strides), ("rates", rates)):
        if len(values) < 4:
            raise ValueError("Attr '%s' of '%s' Op passed list of length %d less than minimum 4."
                             % (name, op_type, len(values)))
        if len(values) != 4:
            raise ValueError("Dilation2D requires the %s attribute to contain 4 values, but got: %d"
                             % ("stride" if name == "strides" else "rates", len(values)))
    return {"strides": strides, "rates": rates, "padding": padding}


def _dilation_geometry(x_shape, f_shape, strides, rates, padding, static=False):
    kh, kw = f_shape[0], f_shape[1]
    return _geometry(x_shape, kh, kw, strides, rates, padding, [], "NHWC", static=static)


def _dilation_static(op):
    x, f = op._inputs[0], op._inputs[1]
    xd, fd = _static_dims(x, 4), _static_dims(f, 3)
    c = _merge(xd[3], fd[2])
    if xd[3] is not None and fd[2] is not None and xd[3] != fd[2]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (xd[3], fd[2]))
    a = op._attrs
    g = _dilation_geometry((xd[0], xd[1], xd[2], c), fd, a["strides"], a["rates"], a["padding"], static=True)
    return xd, fd, (xd[0], g.oh, g.ow, c)


def _dilation_setup(x, f, strides, rates, padding, dy=None):
    if strides[0] != 1 or strides[3] != 1:
        raise _unimplemented("Stride is only supported across spatial dimensions.")
    if rates[0] != 1 or rates[3] != 1:
        raise _unimplemented("Rate is only supported across spatial dimensions.")
    if x.ndim != 4:
        raise _invalid("input must be 4-dimensional%s" % list(x.shape))
    if f.ndim != 3:
        raise _invalid("filter must be 3-dimensional: %s" % list(f.shape))
    if x.shape[3] != f.shape[2]:
        raise _invalid("input and filter must have the same depth: %d vs %d" % (x.shape[3], f.shape[2]))
    g = _dilation_geometry(x.shape, f.shape, strides, rates, padding)
    if dy is not None and dy.shape != (x.shape[0], g.oh, g.ow, x.shape[3]):
        raise _invalid("out_backprop has incompatible size.")
    return g


def _unimplemented(msg):
    from ..framework import errors
    return errors.UnimplementedError(None, None, msg)


def _dilation_infer(op):
    x, f = op._inputs
    _check_real(x, "input")
    _check_same(op, [("input", x), ("filter", f)])
    return [(x.dtype, _dilation_static(op)[2])]


def _dilation_kernel(xp, x, f, strides, rates, padding):
    g = _dilation_setup(x, f, strides, rates, padding)
    return _window_choice(x, g, add=f)[0]


def _dilation_grad(op, grad):
    x, f = op._inputs
    attrs = dict(op._attrs)
    return [ops.apply_op("Dilation2DBackpropInput", [x, f, grad], dict(attrs)),
            ops.apply_op("Dilation2DBackpropFilter", [x, f, grad], dict(attrs))]


register_op("Dilation2D", infer=_dilation_infer, kernel=_dilation_kernel, grad=_dilation_grad)


def _dilation_backprop_infer(which):
    def infer(op):
        x, f, dy = op._inputs
        _check_real(x, "input")
        _check_same(op, [("input", x), ("filter", f), ("out_backprop", dy)])
        xd, fd, _ = _dilation_static(op)
        _static_dims(dy, 4)
        return [(x.dtype, xd if which == "input" else fd)]
    return infer


def _dilation_backprop_input_kernel(xp, x, f, dy, strides, rates, padding):
    g = _dilation_setup(x, f, strides, rates, padding, dy)
    _, best = _window_choice(x, g, add=f)
    rows, cols = _chosen_positions(best, g)
    n, h, w, c = x.shape
    b = np.arange(n)[:, None, None, None]
    d = np.arange(c)[None, None, None, :]
    flat = ((b * h + rows) * w + cols) * c + d
    dx = np.zeros(x.size, dy.dtype)
    np.add.at(dx, flat.reshape(-1), dy.reshape(-1))
    return dx.reshape(x.shape)


def _dilation_backprop_filter_kernel(xp, x, f, dy, strides, rates, padding):
    g = _dilation_setup(x, f, strides, rates, padding, dy)
    _, best = _window_choice(x, g, add=f)
    c = x.shape[3]
    flat = np.maximum(best, 0) * c + np.arange(c)
    df = np.zeros(f.size, dy.dtype)
    np.add.at(df, flat.reshape(-1), dy.reshape(-1))
    return df.reshape(f.shape)


register_op("Dilation2DBackpropInput", infer=_dilation_backprop_infer("input"),
            kernel=_dilation_backprop_input_kernel)
register_op("Dilation2DBackpropFilter", infer=_dilation_backprop_infer("filter"),
            kernel=_dilation_backprop_filter_kernel)


def dilation2d(input, filter=None, strides=None, rates=None, padding=None, name=None,  # noqa: A002
               filters=None, dilations=None):  # noqa: A002
    """Computes the grayscale dilation of 4-D `input` and 3-D `filter` tensors.

    `output[b, y, x, c] = max_{dy, dx} input[b, strides[1] * y + rates[1] * dy,
    strides[2] * x + rates[2] * dx, c] + filter[dy, dx, c]` over the in-bounds window elements.

    Args:
      input: A 4-D `Tensor` `[batch, in_height, in_width, depth]` of a real type.
      filter: A 3-D `Tensor` `[filter_height, filter_width, depth]` of the same type.
      strides: A list of 4 ints `[1, stride_height, stride_width, 1]`.
      rates: A list of 4 ints `[1, rate_height, rate_width, 1]`: the input stride for atrous
        morphological dilation.
      padding: `"SAME"` or `"VALID"`.
      name: A name for the operation (optional).
      filters: Alias for `filter`.
      dilations: Alias for `rates`.

    Returns:
      A 4-D `Tensor` of the type of `input`.

    Raises:
      ValueError: For bad attributes, a depth mismatch, or a window larger than the input with
        VALID padding.
      TypeError: For an unsupported dtype or mismatched dtypes.
    """
    filter = _deprecated_lookup("filters", filters, "filter", filter)  # noqa: A001
    rates = _deprecated_lookup("dilations", dilations, "rates", rates)
    attrs = _dilation_attrs("Dilation2D", strides, rates, padding)
    x = _convert(input, "input")
    f = _convert(filter, "filter", x)
    return ops.apply_op("Dilation2D", [x, f], attrs, name=name)


def dilation2d_backprop_input(input, filter, out_backprop, strides, rates, padding, name=None):  # noqa: A002
    """The gradient of `dilation2d` w.r.t. its input (`Dilation2DBackpropInput`).

    Args:
      input: The dilation's 4-D input.
      filter: The dilation's 3-D filter.
      out_backprop: The gradient w.r.t. the dilation's output.
      strides: A list of 4 ints.
      rates: A list of 4 ints.
      padding: `"SAME"` or `"VALID"`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the shape and type of `input`.

    Raises:
      ValueError: For bad attributes.
    """
    attrs = _dilation_attrs("Dilation2DBackpropInput", strides, rates, padding)
    return _apply_input_filter_backprop("Dilation2DBackpropInput", attrs, input, filter, out_backprop, name)


def dilation2d_backprop_filter(input, filter, out_backprop, strides, rates, padding, name=None):  # noqa: A002
    """The gradient of `dilation2d` w.r.t. its filter (`Dilation2DBackpropFilter`).

    Args:
      input: The dilation's 4-D input.
      filter: The dilation's 3-D filter.
      out_backprop: The gradient w.r.t. the dilation's output.
      strides: A list of 4 ints.
      rates: A list of 4 ints.
      padding: `"SAME"` or `"VALID"`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the shape and type of `filter`.

    Raises:
      ValueError: For bad attributes.
    """
    attrs = _dilation_attrs("Dilation2DBackpropFilter", strides, rates, padding)
    return _apply_input_filter_backprop("Dilation2DBackpropFilter", attrs, input, filter, out_backprop, name)


def erosion2d(value, kernel, strides, rates, padding, name=None):
    """Computes the grayscale erosion of 4-D `value` and 3-D `kernel` tensors: by duality,
    `-dilation2d(-value, reverse(kernel, [0, 1]))`.

    Args:
      value: A 4-D `Tensor` `[batch, in_height, in_width, depth]`.
      kernel: A 3-D `Tensor` `[kernel_height, kernel_width, depth]` of the same type.
      strides: A list of 4 ints `[1, stride_height, stride_width, 1]`.
      rates: A list of 4 ints `[1, rate_height, rate_width, 1]`.
      padding: `"SAME"` or `"VALID"`.
      name: A name for the operation (optional).

    Returns:
      A 4-D `Tensor` of the type of `value`.

    Raises:
      ValueError: If `value` depth does not match `kernel`'s shape or for bad attributes.
    """
    from .array_permute_ops import reverse_v2
    from .math_unary_ops import negative
    with ops.name_scope(name, "erosion2d", [value, kernel]) as name:
        return negative(dilation2d(negative(value), reverse_v2(kernel, [0, 1]), strides=strides, rates=rates,
                                   padding=padding, name=name))


# ---- MaxPoolWithArgmax -----------------------------------------------------------------------------
def _argmax_attrs(op_type, ksize, strides, padding, targmax, include_batch_in_index):
    padding = _string_attr(padding, "padding", op_type, ("SAME", "VALID"))
    ksize = _int_list_attr(ksize, "ksize", op_type)
    strides = _int_list_attr(strides, "strides", op_type)
    for name, values in (("ksize", ksize), ("strides", strides)):
        if len(values) < 4:
            raise ValueError("Attr '%s' of '%s' Op passed list of length %d less than minimum 4."
                             % (name, op_type, len(values)))
        if len(values) != 4:
            raise ValueError("MaxPool%s requires the %s attribute to contain 4 values, but got: %d"
                             % ("" if op_type == "MaxPoolWithArgmax" else op_type[7:],
                                "stride" if name == "strides" else name, len(values)))
    targmax = dtypes.as_dtype(targmax)
    if targmax not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'Targmax' has DataType %s not in list of allowed values: int32, "
                        "int64" % targmax.name)
    return {"ksize": ksize, "strides": strides, "padding": padding, "Targmax": targmax,
            "include_batch_in_index": bool(include_batch_in_index)}


def _argmax_geometry(shape, ksize, strides, padding, static=False):
    if not static:
        if ksize[0] != 1 or strides[0] != 1:
            raise _unimplemented("Pooling is not yet supported on the batch dimension.")
        if ksize[3] != 1 or strides[3] != 1:
            raise _unimplemented("Depthwise max pooling is currently only implemented for CPU devices.")
    return _geometry(shape, ksize[1], ksize[2], strides, [1, 1, 1, 1], padding, [], "NHWC", static=static)


def _argmax_static(op, x):
    xd = _static_dims(x, 4)
    a = op._attrs
    g = _argmax_geometry(xd, a["ksize"], a["strides"], a["padding"], static=True)
    return xd, (xd[0], g.oh, g.ow, xd[3])


def _max_pool_with_argmax_infer(op):
    x = op._inputs[0]
    _check_real(x, "input")
    out = _argmax_static(op, x)[1]
    return [(x.dtype, out), (op._attrs["Targmax"], out)]


def _flat_argmax(x_shape, best, g, include_batch):
    rows, cols = _chosen_positions(best, g)
    n, h, w, c = x_shape
    d = np.arange(c)[None, None, None, :]
    idx = (rows * w + cols) * c + d
    if include_batch:
        idx = idx + np.arange(n)[:, None, None, None] * (h * w * c)
    return idx


def _max_pool_with_argmax_kernel(xp, x, ksize, strides, padding, Targmax, include_batch_in_index):  # noqa: N803
    if x.ndim != 4:
        raise _invalid("tensor_in must be 4-dimensional")
    g = _argmax_geometry(x.shape, ksize, strides, padding)
    out, best = _window_choice(x, g, first_wins=True)
    idx = _flat_argmax(x.shape, best, g, include_batch_in_index)
    return out, idx.astype(Targmax.as_numpy_dtype)


def _max_pool_with_argmax_grad(op, grad, unused_argmax_grad):
    a = op._attrs
    attrs = {k: a[k] for k in ("ksize", "strides", "padding", "include_batch_in_index")}
    return [ops.apply_op("MaxPoolGradWithArgmax", [op._inputs[0], grad, op._outputs[1]], attrs)]


register_op("MaxPoolWithArgmax", infer=_max_pool_with_argmax_infer, kernel=_max_pool_with_argmax_kernel,
            grad=_max_pool_with_argmax_grad)


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", Targmax=None,  # noqa: A002,N803
                         name=None, output_dtype=None, include_batch_in_index=False):
    """Performs max pooling on the input and outputs both the max values and their indices.

    The index of `input[b, y, x, c]` is `(y * width + x) * channels + c`, plus
    `b * height * width * channels` with `include_batch_in_index`. Each window's value is its first
    element, replaced by each later element greater than the one held (the first of equal maxima
    wins; padding never does).

    Args:
      input: A 4-D NHWC `Tensor` of a real type.
      ksize: A list of 4 ints: the window size per dimension.
      strides: A list of 4 ints: the window stride per dimension.
      padding: `"SAME"` or `"VALID"`.
      data_format: Only `"NHWC"`.
      Targmax: The index dtype, `tf.int32` or `tf.int64` (default).
      name: A name for the operation (optional).
      output_dtype: Alias for `Targmax`.
      include_batch_in_index: Whether the flat index includes the batch.

    Returns:
      A tuple `(output, argmax)`: the pooled values (type of `input`) and their flat indices.

    Raises:
      ValueError: For a data_format other than NHWC or bad attributes.
      TypeError: For a bad dtype or `Targmax`.
    """
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. Received: data_format=%s"
                         % data_format)
    targmax = _deprecated_lookup("output_dtype", output_dtype, "Targmax", Targmax)
    if targmax is None:
        targmax = dtypes.int64
    attrs = _argmax_attrs("MaxPoolWithArgmax", ksize, strides, padding, targmax, include_batch_in_index)
    out, argmax = ops.apply_op("MaxPoolWithArgmax", [_convert(input, "input")], attrs, name=name)
    return MaxPoolWithArgmax(out, argmax)


MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


# ---- MaxPoolGradWithArgmax ---------------------------------------------------------------------------
def _argmax_index(argmax, n, per_batch, include_batch, total):
    idx = argmax.astype(np.int64)
    if not include_batch:
        idx = idx + (np.arange(n) * per_batch).reshape((n,) + (1,) * (idx.ndim - 1))
    flat = idx.reshape(-1)
    bad = (flat < 0) | (flat >= total)
    if bad.any():
        raise _invalid("Received argmax index %d out of range [0, %d)" % (int(flat[bad][0]), total))
    return flat


def _grad_with_argmax_infer(op):
    x, dy, argmax = op._inputs
    _check_real(x, "input")
    _check_same(op, [("input", x), ("grad", dy)])
    if argmax.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'argmax' has DataType %s not in list of allowed values: int32, "
                        "int64" % argmax.dtype.name)
    xd, out = _argmax_static(op, x)
    _static_dims(dy, 4)
    _static_dims(argmax, 4)
    return [(x.dtype, xd)]


def _grad_with_argmax_kernel(xp, x, dy, argmax, ksize, strides, padding, include_batch_in_index):
    if x.ndim != 4:
        raise _invalid("tensor_in must be 4-dimensional")
    g = _argmax_geometry(x.shape, ksize, strides, padding)
    want = (x.shape[0], g.oh, g.ow, x.shape[3])
    if dy.shape != want or argmax.shape != want:
        raise _invalid("Expected grad and argmax shapes to be %s, got %s and %s"
                       % (list(want), list(dy.shape), list(argmax.shape)))
    n = x.shape[0]
    flat = _argmax_index(argmax, n, x.size // max(n, 1), include_batch_in_index, x.size)
    dx = np.zeros(x.size, dy.dtype)
    np.add.at(dx, flat, dy.reshape(-1))
    return dx.reshape(x.shape)


# TF registers no gradient for MaxPoolGradWithArgmax (and no CPU kernel for MaxPoolGradGradWithArgmax).
register_op("MaxPoolGradWithArgmax", infer=_grad_with_argmax_infer, kernel=_grad_with_argmax_kernel)
