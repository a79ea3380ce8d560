"""Convolution ops: DepthwiseConv2dNative and its two backprops, depthwise_conv2d and
separable_conv2d."""

import numbers

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .core_ops import shape as _shape_of
from .nn_conv2d_ops import conv2d
from .nn_conv_geometry import (
    _FLOAT_NAMES,
    _FLOAT_TYPES,
    _check_backprop_shape,
    _check_batch_depth,
    _check_types,
    _conv_attrs,
    _conv_static,
    _convert,
    _convert_padding,
    _deprecated_lookup,
    _from_nhwc,
    _from_nhwc_dims,
    _geometry,
    _int_list_attr,
    _invalid,
    _merge,
    _padded,
    _shape_arg,
    _static_dims,
    _static_shape_arg,
    _tap,
    _taps,
    _to_nhwc,
    _to_nhwc_dims,
)


# ---- DepthwiseConv2dNative -------------------------------------------------------------------
def _depthwise_infer(op):
    x, f = op._inputs
    _check_types(op, [("input", x), ("filter", f)], _FLOAT_TYPES, _FLOAT_NAMES)
    fmt = op._attrs["data_format"]
    fd = _static_dims(f, 4)
    n, oh, ow, _ = _conv_static(op, _static_dims(x, 4), fd, fmt)
    c = _merge(_to_nhwc_dims(_static_dims(x, 4), fmt)[3], fd[2])
    o = None if c is None or fd[3] is None else c * fd[3]
    return [(x.dtype, _from_nhwc_dims((n, oh, ow, o), fmt))]


def _depthwise_kernel(xp, x, f, strides, padding, explicit_paddings, data_format, dilations):
    _check_batch_depth(strides, data_format, "strides")
    x = _to_nhwc(x, data_format)
    kh, kw, c, m = f.shape
    if x.shape[3] != c:
        raise _invalid("input and filter must have the same depth: %d vs %d" % (x.shape[3], c))
    g = _geometry(x.shape, kh, kw, strides, dilations, padding, explicit_paddings, data_format)
    xpad = _padded(x, g)
    out = np.zeros((g.n, g.oh, g.ow, c, m), x.dtype)
    tmp = np.empty_like(out)
    for i, j in _taps(g):
        np.multiply(_tap(xpad, i, j, g)[..., None], f[i, j], out=tmp)
        out += tmp
    return _from_nhwc(out.reshape(g.n, g.oh, g.ow, c * m), data_format)


def _depthwise_grad(op, grad):
    """d/dx = DepthwiseConv2dNativeBackpropInput(shape(x), f, g); d/df = ...BackpropFilter(x, shape(f), g)."""
    x, f = op._inputs
    attrs = _depthwise_grad_attrs(op)
    return [ops.apply_op("DepthwiseConv2dNativeBackpropInput", [_shape_of(x), f, grad], dict(attrs)),
            ops.apply_op("DepthwiseConv2dNativeBackpropFilter", [x, _shape_of(f), grad], dict(attrs))]


def _depthwise_grad_attrs(op):
    return {k: op._attrs[k] for k in ("strides", "padding", "explicit_paddings", "data_format", "dilations")}


register_op("DepthwiseConv2dNative", infer=_depthwise_infer, kernel=_depthwise_kernel, grad=_depthwise_grad)


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC", dilations=[1, 1, 1, 1],  # noqa: A002
                            name=None):
    """Computes a 2-D depthwise convolution: each input channel `k` is convolved with its own
    `channel_multiplier` filters, giving output channels `k * channel_multiplier + q`.

    Args:
      input: A 4-D `Tensor` laid out as `data_format`.
      filter: A `Tensor` `[filter_height, filter_width, in_channels, channel_multiplier]`.
      strides: A list of 4 ints (batch and depth strides must be 1).
      padding: `"SAME"`, `"VALID"`, or a list of 4 `[before, after]` pairs.
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: A list of 4 ints.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `input` with `in_channels * channel_multiplier` channels.

    Raises:
      ValueError: For bad attributes or a channel count mismatch.
    """
    padding, explicit = _convert_padding(padding)
    attrs = _conv_attrs("DepthwiseConv2dNative", strides, padding, explicit, data_format, dilations)
    x = _convert(input, "input")
    f = _convert(filter, "filter", x)
    return ops.apply_op("DepthwiseConv2dNative", [x, f], attrs, name=name)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None, data_format=None,  # noqa: A002
                     dilations=None):
    """Depthwise 2-D convolution: `in_channels` separate convolutions of depth 1, each producing
    `channel_multiplier` channels:

        output[b, i, j, k * channel_multiplier + q] = sum_{di, dj}
            filter[di, dj, k, q] * input[b, strides[1] * i + rate[0] * di, strides[2] * j + rate[1] * dj, k]

    Args:
      input: 4-D with shape according to `data_format`.
      filter: 4-D with shape `[filter_height, filter_width, in_channels, channel_multiplier]`.
      strides: 1-D of size 4. The stride of the sliding window for each dimension of `input`.
      padding: `"SAME"` or `"VALID"`.
      rate: 1-D of size 2 (or an int): the dilation rate; if greater than 1, strides must be 1.
      name: A name for this operation (optional).
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: Alias for `rate`.

    Returns:
      A 4-D `Tensor` with shape according to `data_format`, e.g. for "NHWC"
      `[batch, out_height, out_width, in_channels * channel_multiplier]`.

    Raises:
      ValueError: For bad attributes, a channel count mismatch, or `rate > 1` with strides > 1.
    """
    rate = _deprecated_lookup("dilations", dilations, "rate", rate)
    data_format = data_format or "NHWC"
    with ops.name_scope(name, "depthwise", [input, filter]) as name:
        rate = [1, 1] if rate is None else ([int(rate)] * 2 if isinstance(rate, numbers.Integral) else list(rate))
        if len(rate) != 2:
            raise ValueError("rate must be of length 2, got %d" % len(rate))
        if any(r < 1 for r in rate):
            raise ValueError("dilation_rate must be positive")
        strides = _int_list_attr(strides, "strides", "DepthwiseConv2dNative")
        if any(r > 1 for r in rate) and any(s > 1 for s in strides):
            raise ValueError("strides > 1 not supported in conjunction with dilation_rate > 1")
        dilations = [1, 1] + rate if data_format == "NCHW" else [1] + rate + [1]
        return depthwise_conv2d_native(input, filter, strides, padding, data_format=data_format,
                                       dilations=dilations, name=name)


def _depthwise_backprop_input_infer(op):
    sizes, f, dy = op._inputs
    _check_types(op, [("filter", f), ("out_backprop", dy)], _FLOAT_TYPES, _FLOAT_NAMES)
    fmt = op._attrs["data_format"]
    n, h, w, c = _to_nhwc_dims(_static_shape_arg(sizes, "input_sizes"), fmt)
    return [(f.dtype, _from_nhwc_dims((n, h, w, _merge(c, _static_dims(f, 4)[2])), fmt))]


def _depthwise_backprop_input_kernel(xp, input_sizes, f, dy, strides, padding, explicit_paddings, data_format,
                                     dilations):
    in_nhwc = _to_nhwc_dims(_shape_arg(input_sizes, "input_sizes"), data_format)
    kh, kw, c, m = f.shape
    out_dtype, acc = _accumulation(dy.dtype)
    # C-contiguous NHWC in the accumulation dtype: the sums do not depend on the fed arrays' layout.
    dy = np.ascontiguousarray(_to_nhwc(dy, data_format), dtype=acc)
    f = np.ascontiguousarray(f, dtype=acc)
    g = _geometry(in_nhwc, kh, kw, strides, dilations, padding, explicit_paddings, data_format)
    _check_backprop_shape("DepthwiseConv2dNativeBackpropInput", dy.shape, g, c * m)
    dy = dy.reshape(g.n, g.oh, g.ow, c, m)
    dxp = np.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, c), acc)
    for i, j in _taps(g):
        view = _tap(dxp, i, j, g)
        view += np.einsum("nhwcm,cm->nhwc", dy, f[i, j])
    dx = dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w].astype(out_dtype, copy=False)
    return _from_nhwc(dx, data_format)


def _depthwise_backprop_input_grad(op, grad):
    """Bilinear in (f, dy): d/df = DepthwiseConv2dNativeBackpropFilter(g, shape(f), dy), d/ddy = depthwise(g, f)."""
    _, f, dy = op._inputs
    attrs = _depthwise_grad_attrs(op)
    return [None,
            ops.apply_op("DepthwiseConv2dNativeBackpropFilter", [grad, _shape_of(f), dy], dict(attrs)),
            ops.apply_op("DepthwiseConv2dNative", [grad, f], dict(attrs))]


register_op("DepthwiseConv2dNativeBackpropInput", infer=_depthwise_backprop_input_infer,
            kernel=_depthwise_backprop_input_kernel, grad=_depthwise_backprop_input_grad)


def _depthwise_backprop_filter_infer(op):
    x, sizes, dy = op._inputs
    _check_types(op, [("input", x), ("out_backprop", dy)], _FLOAT_TYPES, _FLOAT_NAMES)
    dims = _static_shape_arg(sizes, "filter_sizes")
    c = _to_nhwc_dims(_static_dims(x, 4), op._attrs["data_format"])[3]
    return [(x.dtype, (dims[0], dims[1], _merge(dims[2], c), dims[3]))]


def _depthwise_backprop_filter_kernel(xp, x, filter_sizes, dy, strides, padding, explicit_paddings, data_format,
                                      dilations):
    kh, kw, c, m = _shape_arg(filter_sizes, "filter_sizes")
    out_dtype, acc = _accumulation(x.dtype)
    # C-contiguous NHWC in the accumulation dtype: the sums do not depend on the fed arrays' layout.
    x = np.ascontiguousarray(_to_nhwc(x, data_format), dtype=acc)
    dy = np.ascontiguousarray(_to_nhwc(dy, data_format), dtype=acc)
    g = _geometry(x.shape, kh, kw, strides, dilations, padding, explicit_paddings, data_format)
    _check_backprop_shape("DepthwiseConv2dNativeBackpropFilter", dy.shape, g, c * m)
    dy = dy.reshape(g.n, g.oh, g.ow, c, m)
    xpad = _padded(x, g)
    df = np.empty((kh, kw, c, m), acc)
    for i, j in _taps(g):
        df[i, j] = np.einsum("nhwc,nhwcm->cm", _tap(xpad, i, j, g), dy)
    return df.astype(out_dtype, copy=False)


def _accumulation(dtype):
    """(result dtype, dtype the sums run in): float16 sums in float32 and rounds once, as TF's CPU
    kernels accumulate half precision."""
    return dtype, (np.dtype(np.float32) if dtype == np.float16 else dtype)


def _depthwise_backprop_filter_grad(op, grad):
    """Bilinear in (x, dy): d/dx = DepthwiseConv2dNativeBackpropInput(shape(x), g, dy), d/ddy = depthwise(x, g)."""
    x, _, dy = op._inputs
    attrs = _depthwise_grad_attrs(op)
    return [ops.apply_op("DepthwiseConv2dNativeBackpropInput", [_shape_of(x), grad, dy], dict(attrs)),
            None,
            ops.apply_op("DepthwiseConv2dNative", [x, grad], dict(attrs))]


register_op("DepthwiseConv2dNativeBackpropFilter", infer=_depthwise_backprop_filter_infer,
            kernel=_depthwise_backprop_filter_kernel, grad=_depthwise_backprop_filter_grad)


def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                           data_format="NHWC", dilations=[1, 1, 1, 1], name=None):
    """Computes the gradients of depthwise convolution with respect to the input.

    Args:
      input_sizes: An int32 1-D `Tensor` of 4 elements, the shape of the convolution's input.
      filter: The filter, `[filter_height, filter_width, in_channels, depthwise_multiplier]`.
      out_backprop: The gradient w.r.t. the convolution's output, laid out as `data_format`.
      strides: A list of 4 ints, the convolution's strides.
      padding: `"SAME"`, `"VALID"`, or a list of 4 `[before, after]` pairs.
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: A list of 4 ints, the convolution's dilations.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `input_sizes` and the type of `filter`.

    Raises:
      ValueError: For bad attributes.
    """
    padding, explicit = _convert_padding(padding)
    attrs = _conv_attrs("DepthwiseConv2dNativeBackpropInput", strides, padding, explicit, data_format, dilations)
    sizes = ops.convert_to_tensor(input_sizes, dtype=dtypes.int32, name="input_sizes")
    f = _convert(filter, "filter")
    dy = _convert(out_backprop, "out_backprop", f)
    return ops.apply_op("DepthwiseConv2dNativeBackpropInput", [sizes, f, dy], attrs, name=name)


def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                            data_format="NHWC", dilations=[1, 1, 1, 1], name=None):
    """Computes the gradients of depthwise convolution with respect to the filter.

    Args:
      input: The convolution's input, laid out as `data_format`.
      filter_sizes: An int32 1-D `Tensor` of 4 elements, the filter's shape.
      out_backprop: The gradient w.r.t. the convolution's output, laid out as `data_format`.
      strides: A list of 4 ints, the convolution's strides.
      padding: `"SAME"`, `"VALID"`, or a list of 4 `[before, after]` pairs.
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: A list of 4 ints, the convolution's dilations.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `filter_sizes` and the type of `input`.

    Raises:
      ValueError: For bad attributes.
    """
    padding, explicit = _convert_padding(padding)
    attrs = _conv_attrs("DepthwiseConv2dNativeBackpropFilter", strides, padding, explicit, data_format, dilations)
    x = _convert(input, "input")
    sizes = ops.convert_to_tensor(filter_sizes, dtype=dtypes.int32, name="filter_sizes")
    dy = _convert(out_backprop, "out_backprop", x)
    return ops.apply_op("DepthwiseConv2dNativeBackpropFilter", [x, sizes, dy], attrs, name=name)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, rate=None, name=None,  # noqa: A002
                     data_format=None, dilations=None):
    """2-D convolution with separable filters: a depthwise convolution followed by a 1x1
    (pointwise) convolution mixing the channels.

    Args:
      input: 4-D `Tensor` with shape according to `data_format`.
      depthwise_filter: 4-D `Tensor` `[filter_height, filter_width, in_channels, channel_multiplier]`.
      pointwise_filter: 4-D `Tensor` `[1, 1, channel_multiplier * in_channels, out_channels]`.
      strides: 1-D of size 4, the strides of the depthwise convolution.
      padding: `"SAME"` or `"VALID"`.
      rate: 1-D of size 2 (or an int): the dilation rate of the depthwise convolution.
      name: A name for this operation (optional).
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: Alias for `rate`.

    Returns:
      A 4-D `Tensor` with shape according to `data_format`.

    Raises:
      ValueError: If the pointwise filter is not `[1, 1, ...]` (and for the convolutions' errors).
    """
    with ops.name_scope(name, "separable_conv2d", [input, depthwise_filter, pointwise_filter]) as name:
        x = _convert(input, "input")
        depthwise_filter = _convert(depthwise_filter, "depthwise_filter", x)
        pointwise_filter = _convert(pointwise_filter, "pointwise_filter", x)
        _static_dims(depthwise_filter, 4)
        pd = _static_dims(pointwise_filter, 4)
        if pd[0] not in (None, 1) or pd[1] not in (None, 1):
            raise ValueError("Pointwise filter must be [1, 1, ...], got %s" % (pointwise_filter.shape,))
        depthwise = depthwise_conv2d(x, depthwise_filter, strides, padding, rate=rate, name="depthwise",
                                     data_format=data_format, dilations=dilations)
        return conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], padding="VALID", data_format=data_format or "NHWC",
                      name=name)
