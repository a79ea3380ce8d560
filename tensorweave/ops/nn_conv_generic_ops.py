"""TF 2's generic convolution op `Conv` (`tf.conv`: 2-D or 3-D, extra batch dimensions, channels first
or last, explicit padding, groups) and the filter-tensor backprops Conv2DBackpropInputV2 /
Conv2DBackpropFilterV2 (`tf.conv2d_backprop_input_v2` / `tf.conv2d_backprop_filter_v2`: as
Conv2DBackpropInput / Conv2DBackpropFilter with the shape taken from the `input` / `filter` tensor).
TF registers no gradient for any of them."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .nn_conv2d_ops import _conv2d_backprop_filter_kernel, _conv2d_backprop_input_kernel
from .nn_conv3d_ops import _geometry_nd, conv3d_nd_kernel
from .nn_conv_geometry import (
    _FLOAT_TYPES,
    _apply_input_filter_backprop,
    _check_types,
    _conv_attrs,
    _convert,
    _int_list_attr,
    _invalid,
    _merge,
    _static_dims,
    _string_attr,
)

__all__ = ["conv", "conv2d_backprop_input_v2", "conv2d_backprop_filter_v2"]

_CONV_TYPES = _FLOAT_TYPES + (dtypes.int32,)
_CONV_NAMES = "float16, bfloat16, float32, float64, int32"


# ---- Conv ----------------------------------------------------------------------------------------------
def _conv_op_attrs(strides, padding, explicit_paddings, data_format, dilations, batch_dims, groups):
    padding = _string_attr(padding, "padding", "Conv", ("SAME", "VALID", "EXPLICIT"))
    data_format = _string_attr(data_format, "data_format", "Conv", ("CHANNELS_FIRST", "CHANNELS_LAST"))
    strides = _int_list_attr(strides, "strides", "Conv")
    dilations = _int_list_attr(dilations, "dilations", "Conv")
    explicit_paddings = _int_list_attr(explicit_paddings, "explicit_paddings", "Conv")
    if padding != "EXPLICIT" and explicit_paddings:
        raise ValueError("explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT")
    if any(p < 0 for p in explicit_paddings):
        raise ValueError("All explicit padding values must be nonnegative, got %s" % explicit_paddings)
    if int(batch_dims) < 0:
        raise ValueError("Batch dims must be non-negative.")
    if int(groups) < 1:
        raise ValueError("groups must be positive, got %d" % int(groups))
    return {"strides": strides, "padding": padding, "explicit_paddings": explicit_paddings,
            "data_format": data_format, "dilations": dilations, "batch_dims": int(batch_dims), "groups": int(groups)}


def _conv_layout(attrs, filter_rank):
    """(strides, dilations, explicit pairs) over the spatial dimensions, checked against the rank."""
    n = filter_rank - 2
    first = attrs["data_format"] == "CHANNELS_FIRST"
    strides = attrs["strides"]
    dilations = attrs["dilations"] or [1] * filter_rank
    for name, values in (("strides", strides), ("dilations", dilations)):
        if len(values) != filter_rank:
            raise ValueError("%s must have %d entries for a %d-D convolution, got %d"
                             % (name, filter_rank, n, len(values)))
        if any(v < 1 for v in values):
            raise ValueError("%s must be positive, got %s" % (name, values))
    spatial = slice(2, None) if first else slice(1, -1)
    pairs = None
    if attrs["padding"] == "EXPLICIT":
        ep = attrs["explicit_paddings"]
        if len(ep) != 2 * filter_rank:
            raise ValueError("explicit_paddings attribute must contain %d values, but got: %d"
                             % (2 * filter_rank, len(ep)))
        all_pairs = [(ep[2 * i], ep[2 * i + 1]) for i in range(filter_rank)]
        pairs = all_pairs[spatial]
    return strides[spatial], dilations[spatial], pairs


def _conv_infer(op):
    x, f = op._inputs
    _check_types(op, [("input", x), ("filter", f)], _CONV_TYPES, _CONV_NAMES)
    a = op._attrs
    xd, fd = x._shape.as_tuple(), f._shape.as_tuple()
    if xd is None or fd is None:
        return [(x.dtype, None)]
    b = a["batch_dims"]
    standard = len(xd) - (b - 1)
    if standard not in (4, 5):
        raise ValueError("Input tensor must be rank 4 or 5, excluding extra batch dimensions, but got: %d" % standard)
    if len(fd) not in (4, 5):
        raise ValueError("Filter tensor must be rank 4 or 5, but got: %d" % len(fd))
    if len(fd) != standard:
        raise ValueError("Input tensor rank must be the same as filter rank.")
    strides, dilations, pairs = _conv_layout(a, len(fd))
    first = a["data_format"] == "CHANNELS_FIRST"
    batch = tuple(xd[:b])
    rest = xd[b:]
    c, sizes = (rest[0], rest[1:]) if first else (rest[-1], rest[:-1])
    fc = fd[-2]
    if c is not None and fc is not None:
        if fc == 0 or c % fc:
            raise ValueError("Depth of input (%d) is not a multiple of input depth of filter (%d)" % (c, fc))
        if c // fc != a["groups"]:
            raise ValueError("Depth of input (%d) divided by the input depth of filter (%d) must equal groups (%d)"
                             % (c, fc, a["groups"]))
    if fd[-1] is not None and fd[-1] % a["groups"]:
        raise ValueError("Output depth must be evenly divisible by number of groups: %d vs %d"
                         % (fd[-1], a["groups"]))
    g = _geometry_nd((None,) + tuple(sizes) + (c,), fd[:-2], strides, dilations, a["padding"], static=True,
                     explicit=pairs)
    o = fd[-1]
    out = batch + ((o,) + g.out if first else g.out + (o,))
    return [(x.dtype, out)]


def _conv_kernel(xp, x, f, strides, padding, explicit_paddings, data_format, dilations, batch_dims, groups):
    attrs = {"strides": strides, "padding": padding, "explicit_paddings": explicit_paddings,
             "data_format": data_format, "dilations": dilations}
    if f.ndim not in (4, 5) or x.ndim - (batch_dims - 1) != f.ndim:
        raise _invalid("input (rank %d with %d batch dimensions) and filter (rank %d) do not match"
                       % (x.ndim, batch_dims, f.ndim))
    sp_strides, sp_dilations, pairs = _conv_layout(attrs, f.ndim)
    batch = x.shape[:batch_dims]
    x1 = x.reshape((int(np.prod(batch, dtype=np.int64)),) + x.shape[batch_dims:])
    first = data_format == "CHANNELS_FIRST"
    if first:
        x1 = np.moveaxis(x1, 1, -1)
    c, fc, o = x1.shape[-1], f.shape[-2], f.shape[-1]
    if fc == 0 or c % fc or c // fc != groups or o % groups:
        raise _invalid("input depth %d, filter input depth %d, output depth %d and groups %d do not match"
                       % (c, fc, o, groups))
    g = _geometry_nd(x1.shape, f.shape[:-2], sp_strides, sp_dilations, padding, explicit=pairs)
    if groups == 1:
        out = conv3d_nd_kernel(np.ascontiguousarray(x1), f, g)
    else:
        og = o // groups
        parts = []
        for k in range(groups):
            xg = np.ascontiguousarray(x1[..., k * fc:(k + 1) * fc])
            gk = g._replace(c=fc)
            parts.append(conv3d_nd_kernel(xg, np.ascontiguousarray(f[..., k * og:(k + 1) * og]), gk))
        out = np.concatenate(parts, axis=-1)
    if first:
        out = np.moveaxis(out, -1, 1)
    return np.ascontiguousarray(out).reshape(tuple(batch) + out.shape[1:])


register_op("Conv", infer=_conv_infer, kernel=_conv_kernel)


def conv(input, filter, strides, padding, explicit_paddings=[], data_format="CHANNELS_LAST",  # noqa: A002
         dilations=[], batch_dims=1, groups=1, name=None):  # noqa: A002
    """Computes a 2-D or 3-D convolution (TF's generic `Conv` op), with optional extra batch
    dimensions and grouped filters.

    Args:
      input: A `Tensor` of type float16, float32, float64 or int32, of rank `batch_dims + N + 1`
        (N = 2 or 3 spatial dimensions), channels last or first per `data_format`.
      filter: A `Tensor` of the same type `spatial_filter_shape + [in_channels / groups,
        out_channels]`.
      strides: A list of N + 2 ints, the stride per dimension of the (single-batch) input.
      padding: `"SAME"`, `"VALID"` or `"EXPLICIT"`.
      explicit_paddings: With `"EXPLICIT"`, 2 * (N + 2) ints: the (before, after) padding per dimension.
      data_format: `"CHANNELS_LAST"` (default) or `"CHANNELS_FIRST"`.
      dilations: A list of N + 2 ints (default: all 1).
      batch_dims: The number of leading batch dimensions (default 1).
      groups: The number of filter groups (in_channels / filter in_channels).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `input`.

    Raises:
      ValueError: For bad ranks, attributes or channel counts.
      TypeError: For an unsupported dtype.
    """
    attrs = _conv_op_attrs(strides, padding, explicit_paddings, data_format, dilations, batch_dims, groups)
    x = _convert(input, "input")
    f = _convert(filter, "filter", x)
    return ops.apply_op("Conv", [x, f], attrs, name=name)


# ---- Conv2DBackpropInputV2 / Conv2DBackpropFilterV2 ----------------------------------------------------------
def _v2_attrs(op_type, strides, padding, use_cudnn_on_gpu, explicit_paddings, data_format, dilations):
    from .nn_conv_geometry import _convert_padding
    if isinstance(padding, (list, tuple)):
        padding, explicit_paddings = _convert_padding(padding)
    attrs = _conv_attrs(op_type, strides, padding, list(explicit_paddings), data_format, dilations)
    attrs["use_cudnn_on_gpu"] = bool(use_cudnn_on_gpu)
    return attrs


def _v2_infer(which):
    def infer(op):
        x, f, dy = op._inputs
        _check_types(op, [("input", x), ("filter", f), ("out_backprop", dy)], _FLOAT_TYPES,
                     "float16, bfloat16, float32, float64")
        xd, fd = _static_dims(x, 4), _static_dims(f, 4)
        _static_dims(dy, 4)
        if which == "input":
            c = 3 if op._attrs["data_format"] == "NHWC" else 1
            xd = tuple(_merge(d, fd[2]) if i == c else d for i, d in enumerate(xd))
            return [(x.dtype, xd)]
        return [(x.dtype, fd)]
    return infer


def _input_v2_kernel(xp, x, f, dy, strides, padding, explicit_paddings, data_format, dilations, use_cudnn_on_gpu):
    return _conv2d_backprop_input_kernel(xp, np.asarray(x.shape, np.int32), f, dy, strides, padding,
                                         explicit_paddings, data_format, dilations, use_cudnn_on_gpu)


def _filter_v2_kernel(xp, x, f, dy, strides, padding, explicit_paddings, data_format, dilations, use_cudnn_on_gpu):
    return _conv2d_backprop_filter_kernel(xp, x, np.asarray(f.shape, np.int32), dy, strides, padding,
                                          explicit_paddings, data_format, dilations, use_cudnn_on_gpu)


register_op("Conv2DBackpropInputV2", infer=_v2_infer("input"), kernel=_input_v2_kernel)
register_op("Conv2DBackpropFilterV2", infer=_v2_infer("filter"), kernel=_filter_v2_kernel)


def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                             explicit_paddings=[], data_format="NHWC", dilations=[1, 1, 1, 1], name=None):
    """Computes the gradients of convolution with respect to the input, the input's shape taken
    from the `input` tensor itself (`Conv2DBackpropInputV2`).

    Args:
      input: A 4-D `Tensor`: the convolution's input (only its shape is used).
      filter: The convolution's filter `[height, width, in_channels, out_channels]`.
      out_backprop: The gradient w.r.t. the convolution's output, laid out as `data_format`.
      strides: A list of 4 ints.
      padding: `"SAME"`, `"VALID"` or `"EXPLICIT"` (with `explicit_paddings`).
      use_cudnn_on_gpu: Unused (kept for TF's signature).
      explicit_paddings: With `"EXPLICIT"`, 8 ints.
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: A list of 4 ints.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the shape and type of `input`.

    Raises:
      ValueError: For bad attributes.
      InvalidArgumentError: At run time, if `out_backprop` does not have the convolution's output shape.
    """
    attrs = _v2_attrs("Conv2DBackpropInputV2", strides, padding, use_cudnn_on_gpu, explicit_paddings, data_format,
                      dilations)
    return _apply_input_filter_backprop("Conv2DBackpropInputV2", attrs, input, filter, out_backprop, name)


def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                              explicit_paddings=[], data_format="NHWC", dilations=[1, 1, 1, 1], name=None):
    """Computes the gradients of convolution with respect to the filter, the filter's shape taken
    from the `filter` tensor itself (`Conv2DBackpropFilterV2`).

    Args:
      input: The convolution's 4-D input, laid out as `data_format`.
      filter: A 4-D `Tensor`: the convolution's filter (only its shape is used).
      out_backprop: The gradient w.r.t. the convolution's output, laid out as `data_format`.
      strides: A list of 4 ints.
      padding: `"SAME"`, `"VALID"` or `"EXPLICIT"` (with `explicit_paddings`).
      use_cudnn_on_gpu: Unused (kept for TF's signature).
      explicit_paddings: With `"EXPLICIT"`, 8 ints.
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: A list of 4 ints.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the shape and type of `filter`.

    Raises:
      ValueError: For bad attributes.
      InvalidArgumentError: At run time, if `out_backprop` does not have the convolution's output shape.
    """
    attrs = _v2_attrs("Conv2DBackpropFilterV2", strides, padding, use_cudnn_on_gpu, explicit_paddings, data_format,
                      dilations)
    return _apply_input_filter_backprop("Conv2DBackpropFilterV2", attrs, input, filter, out_backprop, name)
