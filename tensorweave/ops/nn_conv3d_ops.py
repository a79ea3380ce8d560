"""3-D convolution: Conv3D and its two backprops (Conv3DBackpropInputV2, Conv3DBackpropFilterV2),
with `tf.nn.conv3d`, `conv3d_backprop_filter(_v2)` and `conv3d_transpose`; and the N-d window
geometry the family's 3-D and N-d ops share (`nn_pool3d_ops`, `nn_conv_nd_ops`).

Kernels work channels-last (NDHWC; an NCDHW tensor is handled as a transposed view). Conv3D is
im2col (the padded input seen through a strided view with one row per output voxel, copied into a
`(N*OD*OH*OW, KD*KH*KW*C)` matrix) times the filter as a `(KD*KH*KW*C, O)` matrix; the input
backprop is the output gradient times the transposed filter (one matmul into a column matrix),
added tap by tap where each tap reads the input; the filter backprop is the transposed patch matrix times the
output gradient. Large inputs split the batch over the intra-op threads. The geometry is TF's:
SAME gives `ceil(in / stride)` outputs with the odd padding unit at the end, VALID
`ceil((in - (k - 1) * dilation) / stride)`.
"""

import collections

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..framework import dtypes, errors, ops, tensor_util
from ..framework.registry import register_op
from ..framework.tensor_shape import as_shape
from ..kernels.shard import shard
from ..platform import threads
from .core_ops import shape as _shape_of
from .nn_conv_geometry import (
    _FLOAT_NAMES,
    _FLOAT_TYPES,
    _check_types,
    _convert,
    _deprecated_lookup,
    _get_sequence,
    _int_list_attr,
    _invalid,
    _matmul,
    _merge,
    _out_size,
    _string_attr,
)
from .nn_conv_geometry import _static_dims as _static_rank

__all__ = ["conv3d", "conv3d_backprop_filter", "conv3d_backprop_filter_v2", "conv3d_transpose"]

_FORMATS_3D = ("NDHWC", "NCDHW")


# ---- shared: N-d geometry (channels last) --------------------------------------------------------
_GeomN = collections.namedtuple("_GeomN", "n sizes c k s d out before after")


def _spatial(values, data_format):
    """The spatial entries of an `n + 2`-value attribute in `data_format` order."""
    return tuple(values[2:]) if data_format.startswith("NC") else tuple(values[1:-1])


def _to_last_dims(d, data_format):
    return tuple(d) if not data_format.startswith("NC") else (d[0],) + tuple(d[2:]) + (d[1],)


def _from_last_dims(d, data_format):
    return tuple(d) if not data_format.startswith("NC") else (d[0], d[-1]) + tuple(d[1:-1])


def _to_last(x, data_format):
    if not data_format.startswith("NC"):
        return x
    return x.transpose((0,) + tuple(range(2, x.ndim)) + (1,))


def _from_last(x, data_format):
    if not data_format.startswith("NC"):
        return x
    return x.transpose((0, x.ndim - 1) + tuple(range(1, x.ndim - 1)))


def _geometry_nd(shape_last, k, s, d, padding, static=False, explicit=None):
    """The window geometry of an N-d convolution/pooling of a channels-last input shape; unknown
    sizes give None entries. `explicit`: the (before, after) pairs of EXPLICIT padding."""
    n, sizes, c = shape_last[0], tuple(shape_last[1:-1]), shape_last[-1]
    out, before, after = [], [], []
    pairs = explicit if explicit is not None else [(0, 0)] * len(sizes)
    for size, ki, si, di, (pb, pa) in zip(sizes, k, s, d, pairs):
        o, b, a = _out_size(size, ki, si, di, padding, pb, pa, static)
        out.append(o)
        before.append(b)
        after.append(a)
    return _GeomN(n, sizes, c, tuple(k), tuple(s), tuple(d), tuple(out), tuple(before), tuple(after))


def _padded_nd(x, g, value=0):
    """`x` (channels last) with the geometry's spatial padding (no copy when there is none)."""
    if not any(g.before) and not any(g.after):
        return x
    shape = (x.shape[0],) + tuple(s + b + a for s, b, a in zip(g.sizes, g.before, g.after)) + (x.shape[-1],)
    out = np.zeros(shape, x.dtype) if value == 0 else np.full(shape, value, x.dtype)
    out[(slice(None),) + tuple(slice(b, b + s) for b, s in zip(g.before, g.sizes))] = x
    return out


def _unpadded_nd(xp, g):
    return xp[(slice(None),) + tuple(slice(b, b + s) for b, s in zip(g.before, g.sizes))]


def _taps_nd(g):
    return list(np.ndindex(*g.k))


def _tap_nd(xp, tap, g):
    """The (N, *out, C) view of the padded input that filter tap `tap` reads."""
    idx = [slice(None)]
    for t, o, s, d in zip(tap, g.out, g.s, g.d):
        r = t * d
        idx.append(slice(r, r + (o - 1) * s + 1, s))
    return xp[tuple(idx)]


def _im2col_nd(x, g):
    """The (N*prod(out), prod(k)*C) patch matrix of channels-last `x`."""
    xp = _padded_nd(x, g)
    st = xp.strides
    m = len(g.k)
    shape = (xp.shape[0],) + g.out + g.k + (xp.shape[-1],)
    strides = ((st[0],) + tuple(st[1 + i] * g.s[i] for i in range(m)) + tuple(st[1 + i] * g.d[i] for i in range(m))
               + (st[-1],))
    col = as_strided(xp, shape, strides, writeable=False)
    return col.reshape(xp.shape[0] * int(np.prod(g.out, dtype=np.int64)), -1)


def _over_batch_nd(g, per_item, work):
    shard(g.n, max(1, int(per_item) // 50), work, max_parallelism=threads.gemm_shards())


def _static_sizes_arg(t, arg, rank):
    """The static dims given by a 1-D int32 shape tensor (partially known values allowed)."""
    if t.dtype is not dtypes.int32:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: int32"
                        % (arg, t.dtype.name))
    _static_rank(t, 1)
    try:
        s = tensor_util.constant_value_as_shape(t)
    except ValueError:
        s = as_shape(None)
    if s.ndims is None:
        return (None,) * rank
    if s.ndims != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, s.ndims))
    return s.as_tuple()


def _sizes_arg(sizes, what, rank):
    sizes = np.asarray(sizes)
    if sizes.shape != (rank,):
        raise _invalid("%s must be a 1-D tensor of %d elements, got shape %s" % (what, rank, list(sizes.shape)))
    return tuple(int(v) for v in sizes)


# ---- Conv3D attributes and checks ------------------------------------------------------------------
def _conv3d_attrs(op_type, strides, padding, data_format, dilations):
    padding = _string_attr(padding, "padding", op_type, ("SAME", "VALID"))
    data_format = _string_attr(data_format, "data_format", op_type, _FORMATS_3D)
    strides = _int_list_attr(strides, "strides", op_type)
    dilations = _int_list_attr(dilations, "dilations", op_type)
    for name, values in (("strides", strides), ("dilations", dilations)):
        if len(values) < 5:
            raise ValueError("Attr '%s' of '%s' Op passed list of length %d less than minimum 5."
                             % (name, op_type, len(values)))
        if len(values) != 5:
            raise ValueError("%s: %s must be 5 values, got %d" % (op_type, name, len(values)))
    return {"strides": strides, "padding": padding, "data_format": data_format, "dilations": dilations}


def _check_batch_depth_5(attrs):
    """Run-time checks of TF's 3-D convolution kernels: unit strides/dilations on batch and depth."""
    c = 1 if attrs["data_format"] == "NCDHW" else 4
    for name in ("strides", "dilations"):
        values = attrs[name]
        if values[0] != 1 or values[c] != 1:
            raise errors.UnimplementedError(None, None, "Current implementation does not yet support %s in the "
                                            "batch and depth dimensions." % name)


def _geometry_3d(shape_last, fshape, attrs, static=False):
    fmt = attrs["data_format"]
    if not static:
        _check_batch_depth_5(attrs)
    return _geometry_nd(shape_last, fshape[:3], _spatial(attrs["strides"], fmt), _spatial(attrs["dilations"], fmt),
                        attrs["padding"], static)


def _check_depth(c, fc, static, op_name="Conv3D"):
    if c is None or fc is None:
        return
    if fc == 0 or c % fc:
        msg = "Depth of input (%d) is not a multiple of input depth of filter (%d)" % (c, fc)
        if static:
            raise ValueError(msg)
        raise _invalid("%s: %s" % (op_name, msg))
    if c != fc:
        # Grouped 3-D convolutions (input depth a multiple of the filter's) are not supported here.
        err = ValueError if static else _invalid
        raise err("%s: input depth (%d) must equal the filter's input depth (%d): grouped 3-D convolution is not "
                  "supported" % (op_name, c, fc))


def _check_dy(op_name, dy_shape, g, o):
    want = (g.n,) + g.out + (o,)
    if len(dy_shape) != len(want):
        raise _invalid("%s: out_backprop must be %d-dimensional" % (op_name, len(want)))
    for dim in range(1, len(want) - 1):
        if dy_shape[dim] != want[dim]:
            i = dim - 1
            raise _invalid("%s: Size of out_backprop doesn't match computed: actual = %d, computed = %d "
                           "spatial_dim: %d input: %d filter: %d output: %d stride: %d dilation: %d"
                           % (op_name, dy_shape[dim], want[dim], dim, g.sizes[i], g.k[i], dy_shape[dim], g.s[i],
                              g.d[i]))
    if tuple(dy_shape) != want:
        raise _invalid("%s: out_backprop has shape %s, but the convolution's output shape is %s"
                       % (op_name, list(dy_shape), list(want)))


def _attrs_of(op):
    return {k: op._attrs[k] for k in ("strides", "padding", "data_format", "dilations")}


# ---- Conv3D ----------------------------------------------------------------------------------------
def _conv3d_infer(op):
    x, f = op._inputs
    _check_types(op, [("input", x), ("filter", f)], _FLOAT_TYPES, _FLOAT_NAMES)
    fmt = op._attrs["data_format"]
    xd = _to_last_dims(_static_rank(x, 5), fmt)
    fd = _static_rank(f, 5)
    _check_depth(xd[4], fd[3], True)
    g = _geometry_3d(xd, fd, op._attrs, static=True)
    return [(x.dtype, _from_last_dims((xd[0],) + g.out + (fd[4],), fmt))]


def conv3d_nd_kernel(x, f, g):
    """The convolution of channels-last `x` (N, *spatial, C) with `f` (*k, C, O) for geometry `g`."""
    o = f.shape[-1]
    fm = f.reshape(-1, o)
    out = np.empty((g.n,) + g.out + (o,), x.dtype)

    def work(b0, b1):
        cols = _im2col_nd(x[b0:b1], g)
        _matmul(cols, fm, out=out[b0:b1].reshape(-1, o))

    _over_batch_nd(g, int(np.prod(g.out)) * f.size, work)
    return out


def _conv3d_kernel(xp, x, f, strides, padding, data_format, dilations):
    if x.ndim != 5 or f.ndim != 5:
        raise _invalid("input and filter must be 5-dimensional: %s %s" % (list(x.shape), list(f.shape)))
    x = _to_last(x, data_format)
    _check_depth(x.shape[4], f.shape[3], False)
    attrs = {"strides": strides, "padding": padding, "data_format": data_format, "dilations": dilations}
    g = _geometry_3d(x.shape, f.shape, attrs)
    return _from_last(conv3d_nd_kernel(x, f, g), data_format)


def _conv3d_grad(op, grad):
    """d/dx = Conv3DBackpropInputV2(shape(x), f, g); d/df = Conv3DBackpropFilterV2(x, shape(f), g)."""
    x, f = op._inputs
    attrs = _attrs_of(op)
    return [ops.apply_op("Conv3DBackpropInputV2", [_shape_of(x), f, grad], dict(attrs)),
            ops.apply_op("Conv3DBackpropFilterV2", [x, _shape_of(f), grad], dict(attrs))]


register_op("Conv3D", infer=_conv3d_infer, kernel=_conv3d_kernel, grad=_conv3d_grad)


def conv3d(input, filter=None, strides=None, padding=None, data_format="NDHWC",  # noqa: A002
           dilations=[1, 1, 1, 1, 1], name=None, filters=None):  # noqa: A002 (TF's argument names)
    """Computes a 3-D convolution given 5-D `input` and `filter` tensors.

    For NDHWC input `[batch, in_depth, in_height, in_width, in_channels]` and filter
    `[filter_depth, filter_height, filter_width, in_channels, out_channels]`, each output voxel is
    the sum over the filter taps and input channels of the (padded, dilated) input window times
    the filter.

    Args:
      input: A `Tensor` of type float16, float32 or float64, rank 5, laid out as `data_format`.
      filter: A `Tensor` of the same type, `[filter_depth, filter_height, filter_width,
        in_channels, out_channels]`.
      strides: A list of 5 ints (`strides[0] = strides[4] = 1` for NDHWC): the window stride per
        dimension.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NDHWC"` (default) or `"NCDHW"`.
      dilations: A list of 5 ints, the dilation factor per dimension (batch and depth 1).
      name: A name for the operation (optional).
      filters: Alias for `filter`.

    Returns:
      A `Tensor` of the type of `input`, laid out as `data_format`.

    Raises:
      ValueError: For a bad padding, data_format or strides/dilations list, a channel count
        mismatch, or an input smaller than the (dilated) filter with VALID padding.
      TypeError: For an unsupported dtype or mismatched input and filter dtypes.
    """
    filter = _deprecated_lookup("filters", filters, "filter", filter)  # noqa: A001
    attrs = _conv3d_attrs("Conv3D", strides, padding, data_format, dilations)
    x = _convert(input, "input")
    f = _convert(filter, "filter", x)
    return ops.apply_op("Conv3D", [x, f], attrs, name=name)


# ---- Conv3DBackpropInputV2 -----------------------------------------------------------------------
def _conv3d_backprop_input_infer(op):
    sizes, f, dy = op._inputs
    _check_types(op, [("filter", f), ("out_backprop", dy)], _FLOAT_TYPES, _FLOAT_NAMES)
    fmt = op._attrs["data_format"]
    dims = _to_last_dims(_static_sizes_arg(sizes, "input_sizes", 5), fmt)
    fd = _static_rank(f, 5)
    dyd = _to_last_dims(_static_rank(dy, 5), fmt)
    out = (_merge(dims[0], dyd[0]),) + tuple(dims[1:4]) + (_merge(dims[4], fd[3]),)
    return [(f.dtype, _from_last_dims(out, fmt))]


# The most memory one batch block's column matrix of an input backprop may take (else: tap by tap).
_MAX_COL_BYTES = 128 << 20


def conv3d_input_grad_nd(dy, f, g, dtype):
    """The input gradient (N, *sizes, C) of a channels-last N-d convolution: the column matrix
    `dy @ f^T` (one BLAS call, (N*out, taps*C)) added tap by tap where each tap reads the (padded)
    input; for very large blocks, `dy @ f[tap]^T` per tap instead."""
    o, c = f.shape[-1], f.shape[-2]
    taps = _taps_nd(g)
    padded = tuple(s + b + a for s, b, a in zip(g.sizes, g.before, g.after))
    dxp = np.zeros((g.n,) + padded + (c,), dtype)
    fm = np.ascontiguousarray(f.reshape(-1, o).T)
    per_item = int(np.prod(g.out)) * len(taps) * c * np.dtype(dtype).itemsize

    def work(b0, b1):
        dy2 = dy[b0:b1].reshape(-1, o)
        block = dxp[b0:b1]
        if per_item * (b1 - b0) <= _MAX_COL_BYTES:
            col = _matmul(dy2, fm).reshape((b1 - b0,) + g.out + (len(taps), c))
            for t, tap in enumerate(taps):
                view = _tap_nd(block, tap, g)
                view += col[..., t, :]
            return
        for t, tap in enumerate(taps):
            view = _tap_nd(block, tap, g)
            view += _matmul(dy2, fm[:, t * c:(t + 1) * c]).reshape(view.shape)

    _over_batch_nd(g, int(np.prod(g.out)) * f.size, work)
    return _unpadded_nd(dxp, g)


def _conv3d_backprop_input_kernel(xp, input_sizes, f, dy, strides, padding, data_format, dilations):
    in_last = _to_last_dims(_sizes_arg(input_sizes, "input_sizes", 5), data_format)
    if f.ndim != 5 or dy.ndim != 5:
        raise _invalid("Conv3DBackpropInputOp: filter and out_backprop must be 5-dimensional")
    dy = _to_last(dy, data_format)
    if in_last[4] != f.shape[3]:
        raise _invalid("Conv3DBackpropInputOp: input and filter must have the same depth: %d vs %d"
                       % (in_last[4], f.shape[3]))
    attrs = {"strides": strides, "padding": padding, "data_format": data_format, "dilations": dilations}
    g = _geometry_3d(in_last, f.shape, attrs)
    _check_dy("Conv3DBackpropInputOp", dy.shape, g, f.shape[4])
    return _from_last(conv3d_input_grad_nd(dy, f, g, dy.dtype), data_format)


def _conv3d_backprop_input_grad(op, grad):
    """Bilinear in (f, dy): d/df = Conv3DBackpropFilterV2(g, shape(f), dy), d/ddy = conv3d(g, f)."""
    _, f, dy = op._inputs
    attrs = _attrs_of(op)
    return [None,
            ops.apply_op("Conv3DBackpropFilterV2", [grad, _shape_of(f), dy], dict(attrs)),
            ops.apply_op("Conv3D", [grad, f], dict(attrs))]


register_op("Conv3DBackpropInputV2", infer=_conv3d_backprop_input_infer, kernel=_conv3d_backprop_input_kernel,
            grad=_conv3d_backprop_input_grad)


def conv3d_backprop_input_v2(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                             data_format="NDHWC", dilations=[1, 1, 1, 1, 1], name=None):
    """Computes the gradients of 3-D convolution with respect to the input (`Conv3DBackpropInputV2`).

    Args:
      input_sizes: An int32 1-D `Tensor` of 5 elements, the shape of the convolution's input.
      filter: The convolution's filter, `[depth, height, width, in_channels, out_channels]`.
      out_backprop: The gradient w.r.t. the convolution's output, laid out as `data_format`.
      strides: A list of 5 ints, the convolution's strides.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NDHWC"` (default) or `"NCDHW"`.
      dilations: A list of 5 ints, the convolution's dilations.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `input_sizes` and the type of `filter`.

    Raises:
      ValueError: For bad attributes.
      InvalidArgumentError: At run time, if `out_backprop` does not have the convolution's output shape.
    """
    attrs = _conv3d_attrs("Conv3DBackpropInputV2", strides, padding, data_format, dilations)
    sizes = ops.convert_to_tensor(input_sizes, dtype=dtypes.int32, name="input_sizes")
    f = _convert(filter, "filter")
    dy = _convert(out_backprop, "out_backprop", f)
    return ops.apply_op("Conv3DBackpropInputV2", [sizes, f, dy], attrs, name=name)


# ---- Conv3DBackpropFilterV2 ----------------------------------------------------------------------
def _conv3d_backprop_filter_infer(op):
    x, sizes, dy = op._inputs
    _check_types(op, [("input", x), ("out_backprop", dy)], _FLOAT_TYPES, _FLOAT_NAMES)
    fmt = op._attrs["data_format"]
    dims = _static_sizes_arg(sizes, "filter_sizes", 5)
    c = _to_last_dims(_static_rank(x, 5), fmt)[4]
    o = _to_last_dims(_static_rank(dy, 5), fmt)[4]
    return [(x.dtype, tuple(dims[:3]) + (_merge(dims[3], c), _merge(dims[4], o)))]


def conv3d_filter_grad_nd(x, dy, g, fshape):
    """The filter gradient `fshape` of a channels-last N-d convolution: patches^T @ dy."""
    o = fshape[-1]
    parts = {}

    def work(b0, b1):
        parts[b0] = _matmul(_im2col_nd(x[b0:b1], g).T, dy[b0:b1].reshape(-1, o))

    _over_batch_nd(g, int(np.prod(g.out)) * int(np.prod(fshape)), work)
    blocks = [parts[k] for k in sorted(parts)] or [np.zeros((int(np.prod(fshape[:-1])), o), dy.dtype)]
    dw = blocks[0]
    for b in blocks[1:]:
        dw = dw + b
    return dw.reshape(fshape)


def _conv3d_backprop_filter_kernel(xp, x, filter_sizes, dy, strides, padding, data_format, dilations):
    fshape = _sizes_arg(filter_sizes, "filter_sizes", 5)
    if x.ndim != 5 or dy.ndim != 5:
        raise _invalid("Conv3DBackpropFilterOp: input and out_backprop must be 5-dimensional")
    x, dy = _to_last(x, data_format), _to_last(dy, data_format)
    if x.shape[4] != fshape[3]:
        raise _invalid("Conv3DBackpropFilterOp: input and filter must have the same depth: %d vs %d"
                       % (x.shape[4], fshape[3]))
    attrs = {"strides": strides, "padding": padding, "data_format": data_format, "dilations": dilations}
    g = _geometry_3d(x.shape, fshape, attrs)
    _check_dy("Conv3DBackpropFilterOp", dy.shape, g, fshape[4])
    return conv3d_filter_grad_nd(x, dy, g, fshape)


def _conv3d_backprop_filter_grad(op, grad):
    """Bilinear in (x, dy): d/dx = Conv3DBackpropInputV2(shape(x), g, dy), d/ddy = conv3d(x, g)."""
    x, _, dy = op._inputs
    attrs = _attrs_of(op)
    return [ops.apply_op("Conv3DBackpropInputV2", [_shape_of(x), grad, dy], dict(attrs)),
            None,
            ops.apply_op("Conv3D", [x, grad], dict(attrs))]


register_op("Conv3DBackpropFilterV2", infer=_conv3d_backprop_filter_infer, kernel=_conv3d_backprop_filter_kernel,
            grad=_conv3d_backprop_filter_grad)


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                              data_format="NDHWC", dilations=[1, 1, 1, 1, 1], name=None):
    """Computes the gradients of 3-D convolution with respect to the filter (`Conv3DBackpropFilterV2`).

    Args:
      input: The convolution's input, laid out as `data_format`.
      filter_sizes: An int32 1-D `Tensor` of 5 elements, the filter's shape
        `[depth, height, width, in_channels, out_channels]`.
      out_backprop: The gradient w.r.t. the convolution's output, laid out as `data_format`.
      strides: A list of 5 ints, the convolution's strides.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NDHWC"` (default) or `"NCDHW"`.
      dilations: A list of 5 ints, the convolution's dilations.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `filter_sizes` and the type of `input`.

    Raises:
      ValueError: For bad attributes.
      InvalidArgumentError: At run time, if `out_backprop` does not have the convolution's output shape.
    """
    attrs = _conv3d_attrs("Conv3DBackpropFilterV2", strides, padding, data_format, dilations)
    x = _convert(input, "input")
    sizes = ops.convert_to_tensor(filter_sizes, dtype=dtypes.int32, name="filter_sizes")
    dy = _convert(out_backprop, "out_backprop", x)
    return ops.apply_op("Conv3DBackpropFilterV2", [x, sizes, dy], attrs, name=name)


conv3d_backprop_filter = conv3d_backprop_filter_v2


def conv3d_transpose(value, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NDHWC", name=None, input=None, filters=None, dilations=None):  # noqa: A002
    """The transpose of `conv3d` (its gradient w.r.t. the input), sometimes called "deconvolution".

    Args:
      value: A 5-D `Tensor` laid out as `data_format`, with `in_channels` channels.
      filter: A 5-D `Tensor` `[depth, height, width, output_channels, in_channels]`.
      output_shape: A 1-D int32 `Tensor` (or list) of 5 elements, the output's shape.
      strides: An int or list of 1, 3 or 5 ints: the strides of the transposed conv3d.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NDHWC"` (default) or `"NCDHW"`.
      name: Optional name for the returned tensor.
      input: Alias for `value`.
      filters: Alias for `filter`.
      dilations: An int or list of 1, 3 or 5 ints (default 1).

    Returns:
      A `Tensor` with the same type as `value`, of shape `output_shape`.

    Raises:
      ValueError: For bad attributes or an `output_shape` that is not of 5 elements.
      InvalidArgumentError: At run time, if `output_shape` is not consistent with `value`'s shape.
    """
    value = _deprecated_lookup("input", input, "value", value)
    filter = _deprecated_lookup("filters", filters, "filter", filter)  # noqa: A001
    with ops.name_scope(name, "conv3d_transpose", [value, filter, output_shape]) as name:
        return conv_transpose_nd(value, filter, output_shape, strides, padding, data_format, dilations, 3, name)


def conv_transpose_nd(value, filter, output_shape, strides, padding, data_format, dilations, n,  # noqa: A002
                      name):
    """Conv3DBackpropInputV2 (n = 3) or Conv2DBackpropInput (n = 2) of `value` for a transposed convolution."""
    value = _convert(value, "value")
    filter = _convert(filter, "filter", value)  # noqa: A001
    data_format = data_format or ("NDHWC" if n == 3 else "NHWC")
    channel_index = 1 if data_format.startswith("NC") else n + 1
    strides = _get_sequence(strides, n, channel_index, "strides")
    dilations = _get_sequence(dilations, n, channel_index, "dilations")
    fdims, vdims = filter.shape.as_tuple(), value.shape.as_tuple()
    vc = None if vdims is None or len(vdims) != n + 2 else vdims[channel_index]
    fc = None if fdims is None or len(fdims) != n + 2 else fdims[n + 1]
    if vc is not None and fc is not None and vc != fc:
        raise ValueError("input channels does not match filter's input channels, {} != {}".format(vc, fc))
    out = ops.convert_to_tensor(output_shape, dtype=dtypes.int32, name="output_shape")
    if not out.shape.is_compatible_with(as_shape([n + 2])):
        raise ValueError("output_shape must have shape ({},), got {}".format(n + 2, out.shape))
    if n == 3:
        attrs = _conv3d_attrs("Conv3DBackpropInputV2", strides, padding, data_format, dilations)
        return ops.apply_op("Conv3DBackpropInputV2", [out, filter, value], attrs, name=name)
    from .nn_conv2d_ops import conv2d_transpose
    return conv2d_transpose(value, filter, out, strides, padding, data_format=data_format, dilations=dilations,
                            name=name)
