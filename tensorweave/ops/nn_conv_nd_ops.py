"""N-d dispatching convolution and pooling functions of `tf.nn` (they compose existing ops):
`convolution`, `conv_transpose`, `conv1d_transpose`, `atrous_conv2d_transpose`, `pool`,
`avg_pool1d`, `max_pool1d`, `avg_pool_v2`, `max_pool_v2`, and the public aliases
`depthwise_conv2d_backprop_input`/`_filter` of the native depthwise backprops."""

import collections.abc

import numpy as np

from ..framework import ops
from ..framework.tensor_shape import as_shape
from . import array_ops
from .nn_conv2d_ops import conv1d, conv2d, conv2d_backprop_input, conv2d_transpose
from .nn_conv3d_ops import conv3d, conv3d_transpose
from .nn_conv_geometry import _convert, _deprecated_lookup, _get_sequence
from .nn_depthwise_ops import (
    depthwise_conv2d_native_backprop_filter as depthwise_conv2d_backprop_filter,
)
from .nn_depthwise_ops import (
    depthwise_conv2d_native_backprop_input as depthwise_conv2d_backprop_input,
)
from .nn_pool3d_ops import avg_pool3d, max_pool3d
from .nn_pool_ops import avg_pool, max_pool

__all__ = ["convolution", "conv_transpose", "conv1d_transpose", "atrous_conv2d_transpose", "pool", "avg_pool1d",
           "max_pool1d", "avg_pool_v2", "max_pool_v2", "depthwise_conv2d_backprop_input",
           "depthwise_conv2d_backprop_filter"]

_ = (depthwise_conv2d_backprop_filter, depthwise_conv2d_backprop_input)  # re-exported


def _rank(t):
    return t.shape.ndims


def _as_2d_format(data_format):
    """A 1-D op's `data_format` ("NWC" or "NCW") done in 2-D: (2-D format, the height dimension that
    is inserted, channel index of the 1-D format)."""
    if data_format is None or data_format == "NWC":
        return "NHWC", 1, 2
    if data_format == "NCW":
        return "NCHW", 2, 1
    raise ValueError("`data_format` must be 'NWC' or 'NCW'. Received: data_format=%s" % data_format)


# ---- convolution -----------------------------------------------------------------------------------
def convolution(input, filter=None, padding=None, strides=None, dilation_rate=None, name=None,  # noqa: A002
                data_format=None, filters=None, dilations=None):  # noqa: A002
    """Computes sums of N-D convolutions (actually cross-correlation), N = 1, 2 or 3.

    Dispatches on the filter's rank to `conv1d`, `conv2d` or `conv3d`, with `dilation_rate` as the
    convolution's dilations.

    Args:
      input: An (N+2)-D `Tensor` laid out as `data_format`.
      filter: An (N+2)-D `Tensor` `spatial_filter_shape + [in_channels, out_channels]`.
      padding: `"SAME"` or `"VALID"`.
      strides: Optional int or sequence of N ints >= 1 (default 1).
      dilation_rate: Optional int or sequence of N ints >= 1 (default 1).
      name: Optional name for the returned tensor.
      data_format: A string or None: channels last (default: "NWC", "NHWC", "NDHWC") or
        channels first ("NCW", "NCHW", "NCDHW").
      filters: Alias for `filter`.
      dilations: Alias for `dilation_rate`.

    Returns:
      A `Tensor` of the type of `input`.

    Raises:
      ValueError: If the ranks are unknown or not 3, 4 or 5, or strides > 1 come with
        dilation_rate > 1 (and for the convolution's own errors).
    """
    filter = _deprecated_lookup("filters", filters, "filter", filter)  # noqa: A001
    dilation_rate = _deprecated_lookup("dilations", dilations, "dilation_rate", dilation_rate)
    with ops.name_scope(name, "convolution", [input, filter]) as name:
        x = _convert(input, "input")
        f = _convert(filter, "filter", x)
        if _rank(f) is not None:
            n = _rank(f) - 2
        elif _rank(x) is not None:
            n = _rank(x) - 2
        else:
            raise ValueError("Rank of convolution must be known. Received: input=%s of rank None and filters=%s of "
                             "rank None" % (x, f))
        if not 1 <= n <= 3:
            raise ValueError("`filters.shape.rank` must be 3, 4 or 5. Received: filters.shape=%s of rank %d"
                             % (f.shape, n + 2))
        channel_index = 1 if data_format is not None and data_format.startswith("NC") else n + 1
        strides = _get_sequence(strides, n, channel_index, "strides")
        dilations = _get_sequence(dilation_rate, n, channel_index, "dilations")
        spatial_s = strides[2:] if channel_index == 1 else strides[1:-1]
        spatial_d = dilations[2:] if channel_index == 1 else dilations[1:-1]
        if any(d != 1 for d in spatial_d):
            _strides_and_dilation_rate(n, spatial_s, spatial_d)
        if n == 1:
            return conv1d(x, f, strides, padding, data_format=data_format, dilations=dilations, name=name)
        if n == 2:
            return conv2d(x, f, strides, padding, data_format=data_format or "NHWC", dilations=dilations, name=name)
        return conv3d(x, f, strides, padding, data_format=data_format or "NDHWC", dilations=dilations, name=name)


# ---- transposed convolutions -------------------------------------------------------------------------
def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose of `conv1d` (its gradient w.r.t. the input).

    Args:
      input: A 3-D `Tensor` `[batch, in_width, in_channels]` ("NWC") or `[batch, in_channels,
        in_width]` ("NCW").
      filters: A 3-D `Tensor` `[filter_width, output_channels, in_channels]`.
      output_shape: A 1-D `Tensor` (or list) of 3 elements, the output's shape.
      strides: An int or list of 1 or 3 ints, the stride.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NWC"` (default) or `"NCW"`.
      dilations: An int or list of 1 or 3 ints (default 1).
      name: Optional name for the returned tensor.

    Returns:
      A `Tensor` of the type of `input`, of shape `output_shape`.

    Raises:
      ValueError: For a bad `data_format` (and conv2d_backprop_input's errors).
    """
    with ops.name_scope(name, "conv1d_transpose", [input, filters, output_shape]) as name:
        data_format, spatial_start_dim, channel_index = _as_2d_format(data_format)
        strides = [1] + _get_sequence(strides, 1, channel_index, "stride")
        dilations = [1] + _get_sequence(dilations, 1, channel_index, "dilations")
        x = array_ops.expand_dims(_convert(input, "input"), spatial_start_dim)
        f = array_ops.expand_dims(_convert(filters, "filters", x), 0)
        if isinstance(output_shape, ops.Tensor):
            out = output_shape
        else:
            out = list(output_shape)
        out = array_ops.concat([out[:spatial_start_dim], [1], out[spatial_start_dim:]], 0)
        result = conv2d_backprop_input(out, f, x, strides, padding, data_format=data_format, dilations=dilations)
        return array_ops.squeeze(result, [spatial_start_dim], name=name)


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """The transpose of `convolution`: dispatches on the length of `output_shape` to
    `conv1d_transpose`, `conv2d_transpose` or `conv3d_transpose`.

    Args:
      input: An (N+2)-D `Tensor` laid out as `data_format`.
      filters: An (N+2)-D `Tensor` `spatial_filter_shape + [output_channels, in_channels]`.
      output_shape: A 1-D `Tensor` or sequence of N+2 elements, the output's shape.
      strides: An int or list of 1, N or N+2 ints.
      padding: `"SAME"` or `"VALID"`.
      data_format: A string or None (channels last by default).
      dilations: An int or list of 1, N or N+2 ints (default 1).
      name: Optional name for the returned tensor.

    Returns:
      A `Tensor` of the type of `input`.

    Raises:
      ValueError: If `output_shape` is not of length 3, 4 or 5.
    """
    with ops.name_scope(name, "conv_transpose", [input, filters, output_shape]) as name:
        if isinstance(output_shape, ops.Tensor):
            n = output_shape.shape.as_tuple()[0] if output_shape.shape.ndims == 1 else None
            if n is None:
                raise ValueError("`output_shape` must be a tensor of known length")
            n -= 2
        elif isinstance(output_shape, collections.abc.Sized):
            n = len(output_shape) - 2
        else:
            raise ValueError("`output_shape` must be a tensor or sized collection")
        if not 1 <= n <= 3:
            raise ValueError("`output_shape` must be of length 3, 4 or 5. Received: output_shape=%s of length %d"
                             % (output_shape, n + 2))
        if n == 1:
            return conv1d_transpose(input, filters, output_shape, strides, padding=padding,
                                    data_format=data_format or "NWC", dilations=dilations, name=name)
        if n == 2:
            return conv2d_transpose(input, filters, output_shape, strides, padding=padding,
                                    data_format=data_format or "NHWC", dilations=dilations, name=name)
        return conv3d_transpose(input, filters, output_shape, strides, padding=padding,
                                data_format=data_format or "NDHWC", dilations=dilations, name=name)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of `atrous_conv2d` (its gradient w.r.t. the input): `conv2d_transpose` with
    unit strides and dilation `rate`.

    Args:
      value: A 4-D NHWC `Tensor` with `in_channels` channels.
      filters: A 4-D `Tensor` `[filter_height, filter_width, out_channels, in_channels]`.
      output_shape: A 1-D `Tensor` (or list) of 4 elements, the output's shape.
      rate: A positive int, the dilation rate.
      padding: `"SAME"` or `"VALID"`.
      name: Optional name for the returned tensor.

    Returns:
      A `Tensor` of the type of `value`.

    Raises:
      ValueError: If the channel counts differ, `rate` < 1, `padding` is not SAME/VALID or
        `output_shape` is not of 4 elements.
    """
    with ops.name_scope(name, "atrous_conv2d_transpose", [value, filters]) as name:
        value = _convert(value, "value")
        filters = _convert(filters, "filters", value)
        vd, fd = value.shape.as_tuple(), filters.shape.as_tuple()
        vc = vd[3] if vd is not None and len(vd) == 4 else None
        fc = fd[3] if fd is not None and len(fd) == 4 else None
        if vc is not None and fc is not None and vc != fc:
            raise ValueError("`value` channel count must be compatible with `filters` input channel count. Received: "
                             "value.shape=%s with channel count %d and filters.shape=%s with input channel count %d."
                             % (value.shape, vc, filters.shape, fc))
        if rate < 1:
            raise ValueError("`rate` cannot be less than one. Received: rate=%s" % (rate,))
        if padding not in ("SAME", "VALID"):
            raise ValueError("`padding` must be either 'VALID' or 'SAME'. Received: padding=%s" % (padding,))
        out = ops.convert_to_tensor(output_shape, name="output_shape")
        if not out.shape.is_compatible_with(as_shape([4])):
            raise ValueError("`output_shape` must have shape (4,). Received: output_shape=%s" % (out.shape,))
        return conv2d_transpose(value, filters, out, [1, 1, 1, 1], padding=padding, data_format="NHWC",
                                dilations=[1, int(rate), int(rate), 1], name=name)


# ---- pooling -----------------------------------------------------------------------------------------
def _pool1d(fn, input, ksize, strides, padding, data_format, name, scope):  # noqa: A002
    fmt, expanding_dim, channel_index = _as_2d_format(data_format)
    ksize = [1] + _get_sequence(ksize, 1, channel_index, "ksize")
    strides = [1] + _get_sequence(strides, 1, channel_index, "strides")
    with ops.name_scope(name, scope, [input]) as name:
        x = array_ops.expand_dims(_convert(input, "input"), expanding_dim)
        result = fn(x, ksize, strides, padding, data_format=fmt)
        return array_ops.squeeze(result, [expanding_dim], name=name)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Performs 1-D average pooling (an `avg_pool` over a height of 1).

    Args:
      input: A 3-D `Tensor` laid out as `data_format`.
      ksize: An int or list of 1 or 3 ints: the window size.
      strides: An int or list of 1 or 3 ints: the window stride.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NWC"` (default) or `"NCW"`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `input`.

    Raises:
      ValueError: For a bad `data_format` (and avg_pool's errors).
    """
    return _pool1d(avg_pool, input, ksize, strides, padding, data_format, name, "AvgPool1D")


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Performs 1-D max pooling (a `max_pool` over a height of 1).

    Args:
      input: A 3-D `Tensor` laid out as `data_format`.
      ksize: An int or list of 1 or 3 ints: the window size.
      strides: An int or list of 1 or 3 ints: the window stride.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NWC"` (default) or `"NCW"`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `input`.

    Raises:
      ValueError: For a bad `data_format` (and max_pool's errors).
    """
    return _pool1d(max_pool, input, ksize, strides, padding, data_format, name, "MaxPool1d")


def _pool_v2(kind, input, ksize, strides, padding, data_format, name):  # noqa: A002
    x = _convert(input, "input")
    if x.shape.ndims is not None:
        n = x.shape.ndims - 2
    elif data_format is not None:
        n = len(data_format) - 2
    else:
        raise ValueError("`input` must have a static shape or a data format. Received: input.shape=%s and "
                         "data_format=%s" % (x.shape, data_format))
    if not 1 <= n <= 3:
        raise ValueError("`input.shape.rank` must be 3, 4 or 5. Received: input.shape=%s of rank %d"
                         % (x.shape, n + 2))
    channel_index = n + 1 if data_format is None else (1 if data_format.startswith("NC") else n + 1)
    ksize = _get_sequence(ksize, n, channel_index, "ksize")
    strides = _get_sequence(strides, n, channel_index, "strides")
    if n == 1:
        fn = avg_pool1d if kind == "AVG" else max_pool1d
        return fn(x, ksize, strides, padding, data_format=data_format or "NWC", name=name)
    if n == 2:
        fn = avg_pool if kind == "AVG" else max_pool
        return fn(x, ksize, strides, padding, data_format=data_format or "NHWC", name=name)
    fn = avg_pool3d if kind == "AVG" else max_pool3d
    return fn(x, ksize, strides, padding, data_format=data_format or "NDHWC", name=name)


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """Performs N-D average pooling (N = 1, 2 or 3 from the input's rank).

    Args:
      input: A `Tensor` of rank N+2 laid out as `data_format`.
      ksize: An int or list of 1, N or N+2 ints: the window size.
      strides: An int or list of 1, N or N+2 ints: the window stride.
      padding: `"SAME"` or `"VALID"`.
      data_format: A string or None (channels last by default).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `input`.

    Raises:
      ValueError: If the rank is unknown without a data format, or not 3, 4 or 5.
    """
    return _pool_v2("AVG", input, ksize, strides, padding, data_format, name)


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """Performs N-D max pooling (N = 1, 2 or 3 from the input's rank).

    Args:
      input: A `Tensor` of rank N+2 laid out as `data_format`.
      ksize: An int or list of 1, N or N+2 ints: the window size.
      strides: An int or list of 1, N or N+2 ints: the window stride.
      padding: `"SAME"` or `"VALID"`.
      data_format: A string or None (channels last by default).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `input`.

    Raises:
      ValueError: If the rank is unknown without a data format, or not 3, 4 or 5.
    """
    return _pool_v2("MAX", input, ksize, strides, padding, data_format, name)


def _strides_and_dilation_rate(num_spatial_dims, strides, dilation_rate):
    """TF's `_get_strides_and_dilation_rate`: the checked lists (default all ones)."""
    if dilation_rate is None:
        dilation_rate = [1] * num_spatial_dims
    elif len(dilation_rate) != num_spatial_dims:
        raise ValueError("`len(dilation_rate)` should be %d. Received: dilation_rate=%s of length %d"
                         % (num_spatial_dims, dilation_rate, len(dilation_rate)))
    dilation_rate = [int(r) for r in dilation_rate]
    if any(r < 1 for r in dilation_rate):
        raise ValueError("all values of `dilation_rate` must be positive. Received: dilation_rate=%s"
                         % np.asarray(dilation_rate, np.int32))
    if strides is None:
        strides = [1] * num_spatial_dims
    elif len(strides) != num_spatial_dims:
        raise ValueError("`len(strides)` should be %d. Received: strides=%s of length %d"
                         % (num_spatial_dims, strides, len(strides)))
    strides = [int(s) for s in strides]
    if any(s < 1 for s in strides):
        raise ValueError("all values of `strides` must be positive. Received: strides=%s"
                         % np.asarray(strides, np.int32))
    if any(s > 1 for s in strides) and any(r > 1 for r in dilation_rate):
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides=%s "
                         "and dilation_rate=%s" % (np.asarray(strides, np.int32), np.asarray(dilation_rate, np.int32)))
    return strides, dilation_rate


def pool(input, window_shape, pooling_type, padding, dilation_rate=None, strides=None, name=None,  # noqa: A002
         data_format=None, dilations=None):
    """Performs an N-D pooling operation (N = 1, 2 or 3), dilated windows included.

    Args:
      input: A `Tensor` of rank N+2 laid out as `data_format`.
      window_shape: A sequence of N ints >= 1.
      pooling_type: `"AVG"` or `"MAX"`.
      padding: `"SAME"` or `"VALID"`.
      dilation_rate: Optional sequence of N ints >= 1 (default 1); > 1 only with `padding="VALID"`
        and unit strides.
      strides: Optional sequence of N ints >= 1 (default 1), not larger than `window_shape`.
      name: Optional name scope.
      data_format: A string or None (channels last by default).
      dilations: Alias for `dilation_rate`.

    Returns:
      A `Tensor` of the type of `input`.

    Raises:
      ValueError: For bad argument lengths or values, as TF's `pool`.
    """
    from .array_space_ops import with_space_to_batch
    dilation_rate = _deprecated_lookup("dilations", dilations, "dilation_rate", dilation_rate)
    with ops.name_scope(name, "%s_pool" % (pooling_type.lower()), [input]) as scope:
        x = _convert(input, "input")
        num_spatial_dims = len(window_shape)
        if num_spatial_dims < 1 or num_spatial_dims > 3:
            raise ValueError("`len(window_shape)` must be 1, 2, or 3. Received: window_shape=%s of length %d"
                             % (window_shape, num_spatial_dims))
        if x.shape.ndims is not None and x.shape.ndims != num_spatial_dims + 2:
            raise ValueError("Shape %s must have rank %d" % (x.shape, num_spatial_dims + 2))
        strides, dilation_rate = _strides_and_dilation_rate(num_spatial_dims, strides, dilation_rate)
        if padding == "SAME" and any(r > 1 for r in dilation_rate):
            raise ValueError("pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. Received: "
                             "padding=%s and dilation_rate=%s" % (padding, np.asarray(dilation_rate, np.int32)))
        if any(s > w for s, w in zip(strides, window_shape)):
            raise ValueError("`strides` > `window_shape` not supported due to inconsistency between CPU and GPU "
                             "implementations. Received: strides=%s and window_shape=%s"
                             % (np.asarray(strides, np.int32), window_shape))
        if pooling_type not in ("MAX", "AVG"):
            raise ValueError("%d-D %s pooling is not supported." % (num_spatial_dims, pooling_type))
        channels_first = data_format is not None and data_format.startswith("NC")
        if channels_first:
            window = [1, 1] + list(window_shape)
            adj_strides = [1, 1] + list(strides)
            spatial_dims = list(range(2, num_spatial_dims + 2))
        else:
            window = [1] + list(window_shape) + [1]
            adj_strides = [1] + list(strides) + [1]
            spatial_dims = list(range(1, num_spatial_dims + 1))
        if num_spatial_dims == 1:
            if data_format is None or data_format == "NWC":
                fmt = "NHWC"
            elif data_format == "NCW":
                fmt = "NCHW"
            else:
                raise ValueError("data_format must be either 'NWC' or 'NCW'. Received: data_format=%s"
                                 % data_format)
            window, adj_strides = [1] + window, [1] + adj_strides
        else:
            fmt = data_format
        if num_spatial_dims == 3:
            fn = max_pool3d if pooling_type == "MAX" else avg_pool3d
            fmt = fmt or "NDHWC"
        else:
            fn = max_pool if pooling_type == "MAX" else avg_pool
            fmt = fmt or "NHWC"

        def op(converted, _, converted_padding):
            if num_spatial_dims == 1:
                converted = array_ops.expand_dims(converted, spatial_dims[0])
            result = fn(converted, window, adj_strides, converted_padding, data_format=fmt, name=scope)
            if num_spatial_dims == 1:
                result = array_ops.squeeze(result, [spatial_dims[0]])
            return result

        return with_space_to_batch(x, dilation_rate, padding, op, filter_shape=window_shape,
                                   spatial_dims=spatial_dims)
