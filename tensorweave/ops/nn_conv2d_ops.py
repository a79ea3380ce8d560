"""Convolution ops: Conv2D and its two backprops (Conv2DBackpropInput, Conv2DBackpropFilter),
the composites conv2d_transpose, conv1d and atrous_conv2d, and the accelerator kernels of the
family's convolutions and poolings."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from ..framework.tensor_shape import as_shape
from . import _conv_jit, _npfast
from .core_ops import shape as _shape_of
from .nn_conv_geometry import (
    _FLOAT_NAMES,
    _FLOAT_TYPES,
    _avg_counts,
    _check_4d,
    _check_backprop_shape,
    _check_batch_depth,
    _check_types,
    _conv_attrs,
    _conv_grad_attrs,
    _conv_static,
    _convert,
    _convert_padding,
    _deprecated_lookup,
    _from_nhwc,
    _from_nhwc_dims,
    _geometry,
    _get_sequence,
    _im2col,
    _input_grad_by_col2im,
    _input_grad_by_taps,
    _input_grad_by_winograd,
    _invalid,
    _lowest,
    _matmul,
    _max_pool_routing,
    _merge,
    _one_blas_thread_per_block,
    _over_batch,
    _pool_geometry,
    _shape_arg,
    _static_dims,
    _static_shape_arg,
    _tap,
    _taps,
    _to_nhwc,
    _to_nhwc_dims,
    _winograd_filter,
    _winograd_input_grad_applies,
)
from .nn_ops import relu_kernel


# ---- accelerator kernels ---------------------------------------------------------------------
# The ops' kernels on an accelerator (`gpu=` of their records): the same geometry and checks over
# `xp`, with im2col/col2im instead of the CPU kernels' NumPy-specific paths (as_strided views,
# BLAS `out=`, numba loops, intra-op sharding).
def _padded_xp(xp, x, g, value=0):
    if not (g.pt or g.pb or g.pl or g.pr):
        return x
    n, h, w, c = x.shape
    out = xp.full((n, h + g.pt + g.pb, w + g.pl + g.pr, c), value, dtype=x.dtype)
    out[:, g.pt:g.pt + h, g.pl:g.pl + w] = x
    return out


def _im2col_xp(xp, x, g):
    """The (N*OH*OW, KH*KW*C) patch matrix of NHWC `x`, one slice per filter tap."""
    xpad = _padded_xp(xp, x, g)
    cols = xp.stack([_tap(xpad, i, j, g) for i, j in _taps(g)], axis=3)
    return cols.reshape(g.n * g.oh * g.ow, g.kh * g.kw * g.c)


def _col2im_xp(xp, col, g, dtype):
    col = col.reshape(g.n, g.oh, g.ow, g.kh, g.kw, g.c)
    dxp = xp.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, g.c), dtype)
    for i, j in _taps(g):
        view = _tap(dxp, i, j, g)
        view += col[:, :, :, i, j]
    return dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w]


def _conv2d_setup(x, f, strides, padding, explicit_paddings, data_format, dilations):
    """Conv2D's checks: (`x` as NHWC, its window geometry)."""
    _check_batch_depth(strides, data_format, "strides")
    _check_batch_depth(dilations, data_format, "dilations")
    x = _to_nhwc(x, data_format)
    if x.shape[3] != f.shape[2]:
        raise _invalid("input and filter must have the same depth: %d vs %d" % (x.shape[3], f.shape[2]))
    return x, _geometry(x.shape, f.shape[0], f.shape[1], strides, dilations, padding, explicit_paddings, data_format)


def _backprop_input_setup(input_sizes, f, dy, strides, padding, explicit_paddings, data_format, dilations):
    """Conv2DBackpropInput's checks: (`dy` as NHWC, the geometry of the convolution)."""
    _check_batch_depth(strides, data_format, "strides")
    _check_batch_depth(dilations, data_format, "dilations")
    in_nhwc = _to_nhwc_dims(_shape_arg(input_sizes, "input_sizes"), data_format)
    dy = _to_nhwc(dy, data_format)
    if in_nhwc[3] != f.shape[2]:
        raise _invalid("Conv2DCustomBackpropInput: input and filter must have the same depth")
    g = _geometry(in_nhwc, f.shape[0], f.shape[1], strides, dilations, padding, explicit_paddings, data_format)
    _check_backprop_shape("Conv2DCustomBackpropInput", dy.shape, g, f.shape[3])
    return dy, g


def _backprop_filter_setup(x, filter_sizes, dy, strides, padding, explicit_paddings, data_format, dilations):
    """Conv2DBackpropFilter's checks: (`x` and `dy` as NHWC, the geometry, the filter's (KH, KW, C, O))."""
    _check_batch_depth(strides, data_format, "strides")
    _check_batch_depth(dilations, data_format, "dilations")
    sizes = kh, kw, c, o = _shape_arg(filter_sizes, "filter_sizes")
    x = _to_nhwc(x, data_format)
    dy = _to_nhwc(dy, data_format)
    if x.shape[3] != c:
        raise _invalid("Conv2DCustomBackpropFilter: input and filter must have the same depth: %d vs %d"
                       % (x.shape[3], c))
    g = _geometry(x.shape, kh, kw, strides, dilations, padding, explicit_paddings, data_format)
    _check_backprop_shape("Conv2DCustomBackpropFilter", dy.shape, g, o)
    return x, dy, g, sizes


def _conv2d_xp(xp, x, f, strides, padding, explicit_paddings, data_format, dilations, use_cudnn_on_gpu):
    x, g = _conv2d_setup(x, f, strides, padding, explicit_paddings, data_format, dilations)
    out = _matmul(_im2col_xp(xp, x, g), f.reshape(-1, f.shape[3]))
    return _from_nhwc(out.reshape(g.n, g.oh, g.ow, f.shape[3]), data_format)


def _conv2d_backprop_input_xp(xp, input_sizes, f, dy, strides, padding, explicit_paddings, data_format, dilations,
                              use_cudnn_on_gpu):
    dy, g = _backprop_input_setup(input_sizes, f, dy, strides, padding, explicit_paddings, data_format, dilations)
    o = f.shape[3]
    col = _matmul(dy.reshape(-1, o), f.reshape(-1, o).T)
    return _from_nhwc(_col2im_xp(xp, col, g, dy.dtype), data_format)


def _conv2d_backprop_filter_xp(xp, x, filter_sizes, dy, strides, padding, explicit_paddings, data_format, dilations,
                               use_cudnn_on_gpu):
    x, dy, g, (kh, kw, c, o) = _backprop_filter_setup(x, filter_sizes, dy, strides, padding, explicit_paddings,
                                                      data_format, dilations)
    return _matmul(_im2col_xp(xp, x, g).T, dy.reshape(-1, o)).reshape(kh, kw, c, o)


def _max_pool_xp(xp, x, ksize, strides, padding, data_format):
    """TF's CPU MaxPool rule, tap by tap (see `nn_pool_ops.max_pool_nhwc`): the lowest finite value,
    replaced by each window element greater than the one held."""
    _check_4d(tensor_in=x)
    x = _to_nhwc(x, data_format)
    g = _pool_geometry(x.shape, ksize, strides, padding, data_format)
    low = x.dtype.type(_lowest(x.dtype))
    xpad = _padded_xp(xp, x, g, low)
    out = xp.full((g.n, g.oh, g.ow, g.c), low, dtype=x.dtype)
    for i, j in _taps(g):
        t = _tap(xpad, i, j, g)
        out = xp.where(out < t, t, out)
    return _from_nhwc(out, data_format)


def _max_pool_grad_xp(xp, x, y, dy, ksize, strides, padding, data_format):
    _check_4d(tensor_in=x, tensor_out=y, out_backprop=dy)
    x, y, dy = (_to_nhwc(a, data_format) for a in (x, y, dy))
    g = _pool_geometry(x.shape, ksize, strides, padding, data_format)
    if dy.shape != (g.n, g.oh, g.ow, g.c) or y.shape != dy.shape:
        raise _invalid("Expected orig_output and grad shapes to be %s, got %s and %s"
                       % (list((g.n, g.oh, g.ow, g.c)), list(y.shape), list(dy.shape)))
    dxp = xp.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, g.c), dy.dtype)
    _, masks = _max_pool_routing(x, g, xp)
    for (i, j), m in reversed(list(masks())):  # TF adds overlapping windows' gradients in output order
        view = _tap(dxp, i, j, g)
        view += xp.where(m, dy, 0)
    return _from_nhwc(dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w], data_format)


def _avg_pool_xp(xp, x, ksize, strides, padding, data_format):
    _check_4d(tensor_in=x)
    x = _to_nhwc(x, data_format)
    g = _pool_geometry(x.shape, ksize, strides, padding, data_format)
    xpad = _padded_xp(xp, x, g)
    acc = np.float32 if x.dtype == np.float16 else x.dtype
    out = None
    for i, j in _taps(g):
        t = _tap(xpad, i, j, g)
        out = t.astype(acc) if out is None else out + t
    out = out / xp.asarray(_avg_counts(g, acc))
    return _from_nhwc(out.astype(x.dtype, copy=False), data_format)


def _avg_pool_grad_xp(xp, orig_input_shape, dy, ksize, strides, padding, data_format):
    in_nhwc = _to_nhwc_dims(_shape_arg(orig_input_shape, "orig_input_shape"), data_format)
    dy = _to_nhwc(dy, data_format)
    g = _pool_geometry(in_nhwc, ksize, strides, padding, data_format)
    if dy.shape != (g.n, g.oh, g.ow, g.c):
        raise _invalid("Expected grad shape to be %s, got %s" % (list((g.n, g.oh, g.ow, g.c)), list(dy.shape)))
    acc = np.float32 if dy.dtype == np.float16 else dy.dtype
    share = dy / xp.asarray(_avg_counts(g, acc))
    dxp = xp.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, g.c), acc)
    for i, j in _taps(g):
        view = _tap(dxp, i, j, g)
        view += share
    dx = dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w].astype(dy.dtype, copy=False)
    return _from_nhwc(dx, data_format)


# ---- Conv2D ----------------------------------------------------------------------------------
def _conv2d_infer(op):
    x, f = op._inputs
    _check_types(op, [("input", x), ("filter", f)], _FLOAT_TYPES, _FLOAT_NAMES)
    fmt = op._attrs["data_format"]
    out = _conv_static(op, _static_dims(x, 4), _static_dims(f, 4), fmt)
    return [(x.dtype, _from_nhwc_dims(out, fmt))]


def _conv2d_kernel(xp, x, f, strides, padding, explicit_paddings, data_format, dilations, use_cudnn_on_gpu):
    return conv2d_bias_relu(x, f, None, False, strides, padding, explicit_paddings, data_format, dilations)


# A patch matrix of at most NARROW_GEMM_COLUMNS columns (a first layer's few channels) is multiplied
# in pieces of rows of about NARROW_GEMM_BYTES (patches and output), which stay in cache: its GEMMs
# then run about 1.3x (filter gradient) to 1.6x (convolution and epilogue) faster (measured; wider
# patch matrices gain nothing).
NARROW_GEMM_BYTES = 400 << 10
NARROW_GEMM_COLUMNS = 32


def _narrow_gemm_rows(k, o, dtype):
    """The rows per piece of a GEMM of a K-column patch matrix into O columns, or None for one
    piece (float32/float64 only: float16 goes through float32 piece by piece in `_matmul`)."""
    if k > NARROW_GEMM_COLUMNS or dtype not in (np.float32, np.float64):
        return None
    return max(1, NARROW_GEMM_BYTES // max(1, (k + o) * np.dtype(dtype).itemsize))


# The most patch-matrix memory a convolution keeps for its filter gradient (`keep_patches`).
MAX_KEPT_PATCHES = 64 << 20


class Patches:
    """The patch matrices a Conv2D built per batch block, for a Conv2DBackpropFilter of the same
    input and geometry (`conv2d_bias_relu(keep_patches=True)`)."""

    __slots__ = ("geometry", "blocks")

    def __init__(self, geometry):
        self.geometry = geometry
        self.blocks = {}


def conv2d_bias_relu(x, f, bias, relu, strides, padding, explicit_paddings, data_format, dilations,
                     keep_patches=False):
    """Conv2D's kernel, optionally followed by `+ bias` (over channels) and ReLU applied to each
    batch block of the output while it is in cache: the values of the separate Add and Relu ops,
    bitwise (the compiler's `fuse_conv_epilogues` uses it).

    With `keep_patches`, returns `(output, Patches or None)`: the patch matrices, unless they take
    more than `MAX_KEPT_PATCHES` bytes (the compiler's `share_conv_patches` hands them to the
    filter gradient)."""
    x, g = _conv2d_setup(x, f, strides, padding, explicit_paddings, data_format, dilations)
    o = f.shape[3]
    k = g.kh * g.kw * g.c
    fm = f.reshape(k, o)
    out = np.empty((g.n, g.oh, g.ow, o), x.dtype)
    jit_epilogue = relu and _conv_jit.usable(out) if bias is None else _conv_jit.usable(out, bias)
    kept = None
    if keep_patches and g.n * g.oh * g.ow * g.kh * g.kw * g.c * x.itemsize <= MAX_KEPT_PATCHES:
        kept = Patches(g)
    step = _narrow_gemm_rows(k, o, out.dtype)

    def work(b0, b1):
        block = out[b0:b1]
        cols = _im2col(x[b0:b1], g)
        if kept is not None:
            kept.blocks[b0, b1] = cols
        rows = block.reshape((b1 - b0) * g.oh * g.ow, o)
        for s0 in range(0, len(rows), step or max(1, len(rows))):
            part = rows[s0:s0 + step] if step else rows
            _matmul(cols[s0:s0 + len(part)], fm, out=part)
            if jit_epilogue:  # on each piece of rows while it is in cache
                _conv_jit.bias_relu(part, bias, relu)
        if jit_epilogue:
            return
        if bias is not None:
            _npfast.add_channels(block, bias)
        if relu:
            relu_kernel(np, block, out=block)

    _over_batch(g, o, work)
    out = _from_nhwc(out, data_format)
    return (out, kept) if keep_patches else out


def _conv2d_grad(op, grad):
    """d/dx conv2d(x, f) = Conv2DBackpropInput(shape(x), f, g); d/df = Conv2DBackpropFilter(x, shape(f), g)."""
    x, f = op._inputs
    attrs = _conv_grad_attrs(op)
    return [ops.apply_op("Conv2DBackpropInput", [_shape_of(x), f, grad], dict(attrs)),
            ops.apply_op("Conv2DBackpropFilter", [x, _shape_of(f), grad], dict(attrs))]


register_op("Conv2D", infer=_conv2d_infer, kernel=_conv2d_kernel, grad=_conv2d_grad, gpu=_conv2d_xp)


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True, data_format="NHWC",  # noqa: A002
           dilations=[1, 1, 1, 1], name=None, filters=None):  # noqa: A002 (TF's argument names)
    """Computes a 2-D convolution given 4-D `input` and `filter` tensors.

    For NHWC input `[batch, in_height, in_width, in_channels]` and filter
    `[filter_height, filter_width, in_channels, out_channels]`:

        output[b, i, j, k] = sum_{di, dj, q} input[b, strides[1] * i + dilations[1] * di,
                                                  strides[2] * j + dilations[2] * dj, q]
                                             * filter[di, dj, q, k]

    over the padded input.

    Args:
      input: A `Tensor` of type float16, float32 or float64, rank 4, laid out as `data_format`.
      filter: A `Tensor` of the same type, `[filter_height, filter_width, in_channels, out_channels]`.
      strides: An int or list of 1, 2 or 4 ints: the stride of the sliding window per dimension
        (batch and depth strides must be 1).
      padding: `"SAME"`, `"VALID"`, or a list of 4 `[before, after]` pairs (explicit padding, zero for
        the batch and depth dimensions).
      use_cudnn_on_gpu: Unused (kept for TF's signature).
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: An int or list of 1, 2 or 4 ints: the dilation factor per dimension.
      name: A name for the operation (optional).
      filters: Alias for `filter`.

    Returns:
      A `Tensor` of the type of `input`, laid out as `data_format`.

    Raises:
      ValueError: For a bad padding, data_format or strides/dilations length, a channel count
        mismatch between `input` and `filter`, or an input smaller than the (dilated) filter with
        VALID padding.
      TypeError: For an unsupported dtype or mismatched input and filter dtypes.
    """
    filter = _deprecated_lookup("filters", filters, "filter", filter)  # noqa: A001
    padding, explicit = _convert_padding(padding)
    data_format = data_format or "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    strides = _get_sequence(strides, 2, channel_index, "strides")
    dilations = _get_sequence(dilations, 2, channel_index, "dilations")
    attrs = _conv_attrs("Conv2D", strides, padding, explicit, data_format, dilations)
    attrs["use_cudnn_on_gpu"] = bool(use_cudnn_on_gpu)
    x = _convert(input, "input")
    f = _convert(filter, "filter", x)
    return ops.apply_op("Conv2D", [x, f], attrs, name=name)


# ---- Conv2DBackpropInput ---------------------------------------------------------------------
def _conv2d_backprop_input_infer(op):
    sizes, f, dy = op._inputs
    _check_types(op, [("filter", f), ("out_backprop", dy)], _FLOAT_TYPES, _FLOAT_NAMES)
    _static_dims(sizes, 1)
    fmt = op._attrs["data_format"]
    dims = _static_shape_arg(sizes, "input_sizes")
    fd = _static_dims(f, 4)
    dyd = _static_dims(dy, 4)
    n, h, w, c = _to_nhwc_dims(dims, fmt)
    c = _merge(c, fd[2])
    n = _merge(n, _to_nhwc_dims(dyd, fmt)[0])
    return [(f.dtype, _from_nhwc_dims((n, h, w, c), fmt))]


def _conv2d_backprop_input_kernel(xp, input_sizes, f, dy, strides, padding, explicit_paddings, data_format,
                                  dilations, use_cudnn_on_gpu):
    dy, g = _backprop_input_setup(input_sizes, f, dy, strides, padding, explicit_paddings, data_format, dilations)
    o = f.shape[3]
    dx = np.empty((g.n, g.h, g.w, g.c), dy.dtype)
    if _conv_jit.usable(dx):
        dy = np.ascontiguousarray(dy)
        # One BLAS thread (batch blocks on the intra-op threads, or one thread in all): cache-sized
        # chunks, by Winograd where it applies. BLAS on several threads (one block): one large GEMM
        # to the patch-matrix gradient, which they split well (measured: faster than Winograd's
        # small GEMMs there, and than splitting the loops over the intra-op threads as well, whose
        # threads then compete with BLAS's own).
        chunked = _one_blas_thread_per_block()
        if chunked and _winograd_input_grad_applies(g, o):
            u = _winograd_filter(f[::-1, ::-1].transpose(0, 1, 3, 2))

            def work(b0, b1):
                _input_grad_by_winograd(dy[b0:b1], u, g, dx[b0:b1])
        else:
            # One GEMM to the patch-matrix gradient and a col2im loop: about half the time of nine
            # per-tap GEMMs with strided adds.
            fm = np.ascontiguousarray(f.reshape(g.kh * g.kw * g.c, o).T)

            def work(b0, b1):
                _input_grad_by_col2im(dy[b0:b1], fm, g, dx, b0, chunked)
    else:
        ft = np.ascontiguousarray(f.transpose(0, 1, 3, 2))

        def work(b0, b1):
            _input_grad_by_taps(dy[b0:b1], ft, g, dx[b0:b1])

    _over_batch(g, o, work)
    return _from_nhwc(dx, data_format)


def _conv2d_backprop_input_grad(op, grad):
    """Bilinear in (f, dy): d/df = Conv2DBackpropFilter(g, shape(f), dy), d/ddy = conv2d(g, f)."""
    _, f, dy = op._inputs
    attrs = _conv_grad_attrs(op)
    return [None,
            ops.apply_op("Conv2DBackpropFilter", [grad, _shape_of(f), dy], dict(attrs)),
            ops.apply_op("Conv2D", [grad, f], dict(attrs))]


register_op("Conv2DBackpropInput", infer=_conv2d_backprop_input_infer, kernel=_conv2d_backprop_input_kernel,
            grad=_conv2d_backprop_input_grad, gpu=_conv2d_backprop_input_xp, host_inputs=(0,))


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None, padding=None,  # noqa: A002
                          use_cudnn_on_gpu=True, data_format="NHWC", dilations=[1, 1, 1, 1], name=None,
                          filters=None):
    """Computes the gradients of convolution with respect to the input.

    Args:
      input_sizes: An int32 1-D `Tensor` of 4 elements, the shape of the convolution's input.
      filter: The convolution's filter, `[filter_height, filter_width, in_channels, out_channels]`.
      out_backprop: The gradient w.r.t. the convolution's output, laid out as `data_format`.
      strides: A list of 4 ints, the convolution's strides.
      padding: `"SAME"`, `"VALID"`, or a list of 4 `[before, after]` pairs.
      use_cudnn_on_gpu: Unused (kept for TF's signature).
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: A list of 4 ints, the convolution's dilations.
      name: A name for the operation (optional).
      filters: Alias for `filter`.

    Returns:
      A `Tensor` of shape `input_sizes` and the type of `filter`.

    Raises:
      ValueError: For a bad padding, data_format or strides/dilations length.
      InvalidArgumentError: At run time, if `out_backprop` does not have the convolution's output shape.
    """
    filter = _deprecated_lookup("filters", filters, "filter", filter)  # noqa: A001
    padding, explicit = _convert_padding(padding)
    attrs = _conv_attrs("Conv2DBackpropInput", strides, padding, explicit, data_format, dilations)
    attrs["use_cudnn_on_gpu"] = bool(use_cudnn_on_gpu)
    sizes = ops.convert_to_tensor(input_sizes, dtype=dtypes.int32, name="input_sizes")
    f = _convert(filter, "filter")
    dy = _convert(out_backprop, "out_backprop", f)
    return ops.apply_op("Conv2DBackpropInput", [sizes, f, dy], attrs, name=name)


# ---- Conv2DBackpropFilter --------------------------------------------------------------------
def _conv2d_backprop_filter_infer(op):
    x, sizes, dy = op._inputs
    _check_types(op, [("input", x), ("out_backprop", dy)], _FLOAT_TYPES, _FLOAT_NAMES)
    _static_dims(sizes, 1)
    dims = _static_shape_arg(sizes, "filter_sizes")
    c = _to_nhwc_dims(_static_dims(x, 4), op._attrs["data_format"])[3]
    o = _to_nhwc_dims(_static_dims(dy, 4), op._attrs["data_format"])[3]
    return [(x.dtype, (dims[0], dims[1], _merge(dims[2], c), _merge(dims[3], o)))]


def _conv2d_backprop_filter_kernel(xp, x, filter_sizes, dy, strides, padding, explicit_paddings, data_format,
                                   dilations, use_cudnn_on_gpu, patches=None):
    """`patches`: a Conv2D's `Patches` of the same `x`; blocks of the same geometry are reused."""
    x, dy, g, (kh, kw, c, o) = _backprop_filter_setup(x, filter_sizes, dy, strides, padding, explicit_paddings,
                                                      data_format, dilations)
    parts = {}
    kept = patches.blocks if patches is not None and patches.geometry == g else {}
    step = _narrow_gemm_rows(kh * kw * c, o, dy.dtype)

    def work(b0, b1):
        cols = kept.get((b0, b1))
        if cols is None:
            cols = _im2col(x[b0:b1], g)
        d = dy[b0:b1].reshape((b1 - b0) * g.oh * g.ow, o)
        if step is None or len(d) <= step:
            parts[b0] = _matmul(cols.T, d)
            return
        acc = _matmul(cols[:step].T, d[:step])
        for s0 in range(step, len(d), step):
            acc += _matmul(cols[s0:s0 + step].T, d[s0:s0 + step])
        parts[b0] = acc

    _over_batch(g, o, work)
    blocks = [parts[k] for k in sorted(parts)] or [np.zeros((kh * kw * c, o), dy.dtype)]
    dw = blocks[0]
    for b in blocks[1:]:
        dw = dw + b
    return dw.reshape(kh, kw, c, o)


def _conv2d_backprop_filter_grad(op, grad):
    """Bilinear in (x, dy): d/dx = Conv2DBackpropInput(shape(x), g, dy), d/ddy = conv2d(x, g)."""
    x, _, dy = op._inputs
    attrs = _conv_grad_attrs(op)
    return [ops.apply_op("Conv2DBackpropInput", [_shape_of(x), grad, dy], dict(attrs)),
            None,
            ops.apply_op("Conv2D", [x, grad], dict(attrs))]


register_op("Conv2DBackpropFilter", infer=_conv2d_backprop_filter_infer, kernel=_conv2d_backprop_filter_kernel,
            grad=_conv2d_backprop_filter_grad, gpu=_conv2d_backprop_filter_xp, host_inputs=(1,))


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                           data_format="NHWC", dilations=[1, 1, 1, 1], name=None):
    """Computes the gradients of convolution with respect to the filter.

    Args:
      input: The convolution's input, laid out as `data_format`.
      filter_sizes: An int32 1-D `Tensor` of 4 elements, the filter's shape
        `[filter_height, filter_width, in_channels, out_channels]`.
      out_backprop: The gradient w.r.t. the convolution's output, laid out as `data_format`.
      strides: A list of 4 ints, the convolution's strides.
      padding: `"SAME"`, `"VALID"`, or a list of 4 `[before, after]` pairs.
      use_cudnn_on_gpu: Unused (kept for TF's signature).
      data_format: `"NHWC"` (default) or `"NCHW"`.
      dilations: A list of 4 ints, the convolution's dilations.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `filter_sizes` and the type of `input`.

    Raises:
      ValueError: For a bad padding, data_format or strides/dilations length.
      InvalidArgumentError: At run time, if `out_backprop` does not have the convolution's output shape.
    """
    padding, explicit = _convert_padding(padding)
    attrs = _conv_attrs("Conv2DBackpropFilter", strides, padding, explicit, data_format, dilations)
    attrs["use_cudnn_on_gpu"] = bool(use_cudnn_on_gpu)
    x = _convert(input, "input")
    sizes = ops.convert_to_tensor(filter_sizes, dtype=dtypes.int32, name="filter_sizes")
    dy = _convert(out_backprop, "out_backprop", x)
    return ops.apply_op("Conv2DBackpropFilter", [x, sizes, dy], attrs, name=name)


# ---- composites: conv2d_transpose, conv1d, atrous_conv2d --------------------------------------
def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NHWC", name=None, input=None, filters=None, dilations=None):  # noqa: A002
    """The transpose of `conv2d` (the gradient of conv2d w.r.t. its input), sometimes called
    "deconvolution".

    Args:
      value: A 4-D `Tensor` laid out as `data_format`, with `in_channels` channels.
      filter: A 4-D `Tensor` `[height, width, output_channels, in_channels]` (the filter of the
        conv2d this transposes).
      output_shape: A 1-D int32 `Tensor` (or list) of 4 elements, the output's shape.
      strides: An int or list of 1, 2 or 4 ints: the strides of the transposed conv2d.
      padding: `"SAME"` or `"VALID"`.
      data_format: `"NHWC"` (default) or `"NCHW"`.
      name: Optional name for the returned tensor.
      input: Alias for `value`.
      filters: Alias for `filter`.
      dilations: An int or list of 1, 2 or 4 ints (default 1).

    Returns:
      A `Tensor` with the same type as `value`, of shape `output_shape`.

    Raises:
      ValueError: If the input and filter channel counts differ, `output_shape` is not of shape
        (4,) or does not match the filter's output channels, or `padding` is not SAME/VALID.
      InvalidArgumentError: At run time, if `output_shape` is not consistent with `value`'s shape.
    """
    value = _deprecated_lookup("input", input, "value", value)
    filter = _deprecated_lookup("filters", filters, "filter", filter)  # noqa: A001
    with ops.name_scope(name, "conv2d_transpose", [value, filter, output_shape]) as name:
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError("data_format has to be either NCHW or NHWC.")
        value = _convert(value, "value")
        filter = _convert(filter, "filter", value)  # noqa: A001
        axis = 3 if data_format == "NHWC" else 1
        vdims, fdims = value.shape.as_tuple(), filter.shape.as_tuple()
        vc = None if vdims is None or len(vdims) != 4 else vdims[axis]
        fc = None if fdims is None or len(fdims) != 4 else fdims[3]
        if vc is not None and fc is not None and vc != fc:
            raise ValueError("input channels does not match filter's input channels, {} != {}".format(vc, fc))
        output_shape_ = ops.convert_to_tensor(output_shape, dtype=dtypes.int32, name="output_shape")
        if not output_shape_.shape.is_compatible_with(as_shape([4])):
            raise ValueError("output_shape must have shape (4,), got {}".format(output_shape_.shape))
        if isinstance(output_shape, (list, tuple, np.ndarray)):
            oc = fdims[2] if fdims is not None and len(fdims) == 4 else None
            if oc is not None and int(output_shape[axis]) != oc:
                raise ValueError("output_shape does not match filter's output channels, {} != {}"
                                 .format(output_shape[axis], oc))
        if padding != "VALID" and padding != "SAME":
            raise ValueError("padding must be either VALID or SAME: {}".format(padding))
        channel_index = 1 if data_format.startswith("NC") else 3
        strides = _get_sequence(strides, 2, channel_index, "strides")
        dilations = _get_sequence(dilations, 2, channel_index, "dilations")
        attrs = _conv_attrs("Conv2DBackpropInput", strides, padding, [], data_format, dilations)
        attrs["use_cudnn_on_gpu"] = True
        return ops.apply_op("Conv2DBackpropInput", [output_shape_, filter, value], attrs, name=name)


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None, data_format=None,
           name=None, input=None, dilations=None):  # noqa: A002
    """Computes a 1-D convolution of a 3-D input and filter, as a conv2d over a height of 1.

    Args:
      value: A 3-D `Tensor` `[batch, in_width, in_channels]` ("NWC") or `[batch, in_channels,
        in_width]` ("NCW").
      filters: A 3-D `Tensor` `[filter_width, in_channels, out_channels]` of the same type.
      stride: An int or list of 1 or 3 ints, the stride of the window.
      padding: `"SAME"` or `"VALID"`.
      use_cudnn_on_gpu: Unused (kept for TF's signature).
      data_format: `"NWC"` (default) or `"NCW"`.
      name: A name for the operation (optional).
      input: Alias for `value`.
      dilations: An int or list of 1 or 3 ints, the dilation rate.

    Returns:
      A `Tensor` of the type of `value`.

    Raises:
      ValueError: If `data_format` is invalid (and for conv2d's errors).
    """
    from . import array_ops
    value = _deprecated_lookup("input", input, "value", value)
    with ops.name_scope(name, "conv1d", [value, filters]) as name:
        if data_format is None or data_format in ("NHWC", "NWC"):
            data_format, spatial_start_dim, channel_index = "NHWC", 1, 2
        elif data_format in ("NCHW", "NCW"):
            data_format, spatial_start_dim, channel_index = "NCHW", 2, 1
        else:
            raise ValueError('data_format must be "NWC" or "NCW".')
        strides = [1] + _get_sequence(stride, 1, channel_index, "stride")
        dilations = [1] + _get_sequence(dilations, 1, channel_index, "dilations")
        value = array_ops.expand_dims(_convert(value, "value"), spatial_start_dim)
        filters = array_ops.expand_dims(_convert(filters, "filters", value), 0)
        result = conv2d(value, filters, strides, padding, use_cudnn_on_gpu=use_cudnn_on_gpu is not False,
                        data_format=data_format, dilations=dilations)
        return array_ops.squeeze(result, [spatial_start_dim], name=name)


def atrous_conv2d(value, filters, rate, padding, name=None):
    """Atrous (dilated) 2-D convolution: conv2d with `dilations = rate` and unit strides.

    Args:
      value: A 4-D NHWC `Tensor`.
      filters: A 4-D `Tensor` `[filter_height, filter_width, in_channels, out_channels]`.
      rate: A positive int, the dilation rate in height and width.
      padding: `"SAME"` or `"VALID"`.
      name: Optional name for the returned tensor.

    Returns:
      A `Tensor` with the same type as `value`.

    Raises:
      ValueError: If `rate` is less than 1 (and for conv2d's errors).
    """
    if rate < 1:
        raise ValueError("rate {} cannot be less than one".format(rate))
    return conv2d(value, filters, [1, 1, 1, 1], padding, dilations=[1, rate, rate, 1], name=name)
