"""Convolution, pooling and fused batch normalization: `tf.nn.conv2d` (and its two backprops),
`conv2d_transpose`, `conv1d`, `depthwise_conv2d`, `max_pool`, `avg_pool`, `fused_batch_norm`.

Kernels work in NHWC (an NCHW tensor is handled as a transposed view). A convolution is im2col
(the padded input seen through a strided view with one row per output pixel, copied once into a
`(N*OH*OW, KH*KW*C)` matrix) times the filter as a `(KH*KW*C, O)` matrix: one BLAS call. Its
input backprop is one matmul per filter tap (the output gradient times that tap's filter slice)
added where the tap reads the input; its filter backprop is one matmul of the transposed columns
with the output gradient (the compiler can hand it the forward's columns: `Patches`). Pooling
reduces over the taps of the window, one vectorised op per tap, or with numba installed (the
`[jit]` extra) one loop over the windows (`_conv_jit`, same values bitwise); so does MaxPoolGrad,
which, like TF's, gives each window's gradient to its first max and +0 to every other input.
Large convolutions split the batch over the intra-op threads (`tensorweave.kernels.shard`; NumPy
releases the GIL in im2col copies and BLAS calls); the filter backprop then adds the blocks'
partial sums, which may round differently from one big matmul (as TF's own sharded kernels do).
Window geometry is TF's: SAME gives `ceil(in / stride)` outputs and puts the odd padding unit at
the end; VALID gives `ceil((in - (k - 1) * dilation) / stride)`.
Gradient kernels (Conv2DBackpropInput, MaxPoolGrad, ...) are ops of their own, differentiable
again, as in TF.
"""

import collections
import numbers

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..framework import dtypes, errors, ops, tensor_util
from ..framework.registry import register_op
from ..framework.tensor_shape import as_shape
from ..kernels.shard import shard
from . import _conv_jit, _npfast
from .core_ops import shape as _shape_of
from .core_ops import zeros_like

_FLOAT_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64)
_FLOAT_NAMES = "float16, bfloat16, float32, float64"
_MAX_POOL_TYPES = _FLOAT_TYPES + (dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.int16, dtypes.int8,
                                  dtypes.uint16)
_MAX_POOL_NAMES = "float16, bfloat16, float32, float64, int32, int64, uint8, int16, int8, uint16, qint8"


# ---- shared: attribute checks ----------------------------------------------------------------
def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _get_sequence(value, n, channel_index, name):
    """TF's `_get_sequence`: an int or a list of 1, `n` or `n + 2` ints as the `n + 2` values of a
    strides/dilations/ksize attribute (1 for the batch and channel dimensions)."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, (list, tuple)):
        value = list(value)
    elif isinstance(value, (numbers.Integral, np.integer)) or not hasattr(value, "__len__"):
        value = [value]
    else:
        value = list(value)
    if len(value) == n + 2:
        return [int(v) for v in value]
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError("{} should be of length 1, {} or {} but was {}".format(name, n, n + 2, len(value)))
    value = [int(v) for v in value]
    return [1, 1] + value if channel_index == 1 else [1] + value + [1]


def _int_list_attr(value, name, op_type):
    if not isinstance(value, (list, tuple)):
        raise TypeError("Expected list for '%s' argument to '%s' Op, not %r." % (name, op_type, value))
    return [int(v) for v in value]


def _string_attr(value, name, op_type, allowed):
    """op_def_library's checks of a string attribute with allowed values."""
    if isinstance(value, bytes):
        value = value.decode()
    if not isinstance(value, str):
        raise TypeError("Expected string for argument '%s' not %r." % (name, value))
    if value not in allowed:
        raise ValueError("Attr '%s' of '%s' Op passed string '%s' not in: \"%s\"."
                         % (name, op_type, value, '", "'.join(allowed)))
    return value


def _convert_padding(padding):
    """TF's `convert_padding`: a list of 4 `[before, after]` pairs means EXPLICIT padding."""
    if padding == "EXPLICIT":
        raise ValueError("'EXPLICIT' is not a valid value for the padding parameter. To use explicit padding, the "
                         "padding parameter must be a list.")
    if isinstance(padding, (list, tuple)):
        explicit = []
        for i, pair in enumerate(padding):
            if not isinstance(pair, (list, tuple)):
                raise ValueError("When padding is a list, each element of padding must be a list/tuple of size 2. "
                                 "Element with index %d of padding is not a list/tuple" % i)
            if len(pair) != 2:
                raise ValueError("When padding is a list, each element of padding must be a list/tuple of size 2. "
                                 "Element with index %d of padding has size %d" % (i, len(pair)))
            explicit.extend(int(p) for p in pair)
        if len(padding) != 4:
            raise ValueError("When padding is a list, it must be of size 4. Got padding of size: %d" % len(padding))
        return "EXPLICIT", explicit
    return padding, []


def _conv_attrs(op_type, strides, padding, explicit_paddings, data_format, dilations):
    """The attributes of a Conv2D-like op, validated as op_def_library and the shape function do."""
    padding = _string_attr(padding, "padding", op_type, ("SAME", "VALID", "EXPLICIT"))
    data_format = _string_attr(data_format, "data_format", op_type, ("NHWC", "NCHW"))
    strides = _int_list_attr(strides, "strides", op_type)
    dilations = _int_list_attr(dilations, "dilations", op_type)
    if len(strides) != 4:
        raise ValueError("%s on data format %s requires the stride attribute to contain 4 values, but got: %d"
                         % (op_type, data_format, len(strides)))
    if len(dilations) != 4:
        raise ValueError("%s requires the dilation attribute to contain 4 values, but got: %d"
                         % (op_type, len(dilations)))
    if padding == "EXPLICIT":
        if len(explicit_paddings) != 8:
            raise ValueError("explicit_paddings attribute must contain 8 values, but got: %d" % len(explicit_paddings))
        if any(p < 0 for p in explicit_paddings):
            raise ValueError("All explicit padding values must be nonnegative, got [%s]"
                             % ", ".join(str(p) for p in explicit_paddings))
        c = 3 if data_format == "NHWC" else 1
        if explicit_paddings[0] or explicit_paddings[1] or explicit_paddings[2 * c] or explicit_paddings[2 * c + 1]:
            raise ValueError("Nonzero explicit padding in the batch or depth dimensions is not supported")
    elif explicit_paddings:
        raise ValueError("explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT")
    return {"strides": strides, "padding": padding, "explicit_paddings": list(explicit_paddings),
            "data_format": data_format, "dilations": dilations}


def _check_types(op, named, allowed, allowed_names):
    """All inputs `named` ((arg, tensor) pairs) share one dtype from `allowed`."""
    first_name, first = named[0]
    if first.dtype not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (first_name, first.dtype.name, allowed_names))
    for arg, t in named[1:]:
        if t.dtype is not first.dtype:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument '%s'."
                            % (arg, op.type, t.dtype.name, first.dtype.name, first_name))


def _deprecated_lookup(new_name, new_value, old_name, old_value):
    if new_value is not None:
        if old_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'" % (old_name, new_name))
        return new_value
    return old_value


def _convert(value, name, like=None):
    if like is None:
        return ops.convert_to_tensor(value, name=name)
    return ops.convert_to_tensor(value, name=name, preferred_dtype=like.dtype)


# ---- shared: window geometry ----------------------------------------------------------------
def _hw(values, data_format):
    """The (height, width) entries of a 4-value attribute in `data_format` order."""
    return (values[1], values[2]) if data_format == "NHWC" else (values[2], values[3])


def _static_dims(t, rank):
    d = t._shape.as_tuple()
    if d is None:
        return (None,) * rank
    if len(d) != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(d)))
    return d


def _to_nhwc_dims(d, data_format):
    return d if data_format == "NHWC" else (d[0], d[2], d[3], d[1])


def _from_nhwc_dims(d, data_format):
    return tuple(d) if data_format == "NHWC" else (d[0], d[3], d[1], d[2])


def _to_nhwc(x, data_format):
    return x if data_format == "NHWC" else x.transpose(0, 2, 3, 1)


def _from_nhwc(x, data_format):
    return x if data_format == "NHWC" else x.transpose(0, 3, 1, 2)


def _out_size(size, k, stride, dilation, padding, before, after, static):
    """TF's windowed output size of one spatial dimension and its (pad_before, pad_after).

    `static`: raise ValueError (graph construction) rather than InvalidArgumentError (run time).
    Returns (None, None, None) for an unknown size.
    """
    err = ValueError if static else _invalid
    if stride < 1:
        raise err("Stride must be > 0, but got %d" % stride)
    if dilation < 1:
        raise err("Dilation rate must be >= 1, but got %d" % dilation)
    if size is None or k is None:
        return None, None, None
    ek = (k - 1) * dilation + 1
    if padding == "SAME":
        out = (size + stride - 1) // stride
        total = max((out - 1) * stride + ek - size, 0)
        return out, total // 2, total - total // 2
    if padding == "VALID":
        before = after = 0
    padded = size + before + after
    if padded < ek:
        if static:
            raise ValueError("Negative dimension size caused by subtracting %d from %d" % (ek, padded))
        raise _invalid("Computed output size would be negative: %d [input_size: %d, effective_filter_size: %d, "
                       "stride: %d]" % ((padded - ek + stride) // stride - 1, padded, ek, stride))
    return (padded - ek + stride) // stride, before, after


_Geom = collections.namedtuple("_Geom", "n h w c kh kw sh sw dh dw oh ow pt pb pl pr")


def _geometry(in_nhwc, kh, kw, strides, dilations, padding, explicit_paddings, data_format, static=False):
    """The full window geometry of a 2-D convolution or pooling of an NHWC input shape."""
    n, h, w, c = in_nhwc
    sh, sw = _hw(strides, data_format)
    dh, dw = _hw(dilations, data_format)
    if padding == "EXPLICIT":
        (pt, pb), (pl, pr) = _hw([explicit_paddings[i:i + 2] for i in range(0, 8, 2)], data_format)
    else:
        pt = pb = pl = pr = 0
    oh, pt, pb = _out_size(h, kh, sh, dh, padding, pt, pb, static)
    ow, pl, pr = _out_size(w, kw, sw, dw, padding, pl, pr, static)
    return _Geom(n, h, w, c, kh, kw, sh, sw, dh, dw, oh, ow, pt, pb, pl, pr)


def _check_batch_depth(values, data_format, what):
    c = 3 if data_format == "NHWC" else 1
    if values[0] != 1 or values[c] != 1:
        raise _invalid("Current implementation does not yet support %s in the batch and depth dimensions." % what)


def _padded(x, g, value=0):
    """`x` (NHWC) with the geometry's spatial padding (no copy when there is none)."""
    if not (g.pt or g.pb or g.pl or g.pr):
        return x
    n, h, w, c = x.shape
    shape = (n, h + g.pt + g.pb, w + g.pl + g.pr, c)
    out = np.zeros(shape, x.dtype) if value == 0 else np.full(shape, value, x.dtype)
    out[:, g.pt:g.pt + h, g.pl:g.pl + w] = x
    return out


def _tap(xp, i, j, g):
    """The (N, OH, OW, C) view of the padded input that filter tap (i, j) multiplies."""
    r, q = i * g.dh, j * g.dw
    return xp[:, r:r + (g.oh - 1) * g.sh + 1:g.sh, q:q + (g.ow - 1) * g.sw + 1:g.sw]


def _taps(g):
    return [(i, j) for i in range(g.kh) for j in range(g.kw)]


def _im2col(x, g):
    """The (N*OH*OW, KH*KW*C) patch matrix of NHWC `x` (a transposed view for few channels)."""
    xp = _padded(x, g)
    n, c = xp.shape[0], xp.shape[3]
    if c <= 2:
        # Few channels: one contiguous row per tap and channel, built by whole-plane copies; the
        # matrix is its transpose, which BLAS multiplies without a copy.
        col = np.empty((g.kh, g.kw, c, n, g.oh, g.ow), x.dtype)
        for i, j in _taps(g):
            tap = _tap(xp, i, j, g)
            for k in range(c):
                col[i, j, k] = tap[..., k]
        return col.reshape(g.kh * g.kw * c, n * g.oh * g.ow).T
    s = xp.strides
    col = as_strided(xp, (n, g.oh, g.ow, g.kh, g.kw, c),
                     (s[0], s[1] * g.sh, s[2] * g.sw, s[1] * g.dh, s[2] * g.dw, s[3]), writeable=False)
    return col.reshape(n * g.oh * g.ow, g.kh * g.kw * c)


def _tap_range(k, stride, dilation, pad, size, out):
    """The outputs [lo, hi) whose filter tap `k` reads inside [0, size), and the first input read."""
    first = k * dilation - pad
    lo = max(0, -(first // stride)) if first < 0 else 0
    hi = min(out, (size - 1 - first) // stride + 1) if size > first else 0
    return lo, max(lo, hi), first + lo * stride


def _input_grad_by_taps(dy, ft, g, dx):
    """Writes into `dx` (NHWC, C-contiguous) the input gradient for output gradient `dy` and the filter
    as (KH, KW, O, C): for each tap, `dy @ filter[tap]^T` added where that tap reads the input. Each
    product is contiguous in (OW, C), so the additions run long inner loops (a patch-matrix col2im
    strides by KH*KW*C). A tap that reads every input exactly once (stride 1, SAME's centre) writes its
    product straight into `dx`; otherwise `dx` starts at zero."""
    n, o = dy.shape[0], dy.shape[3]
    dy2 = dy.reshape(-1, o)
    taps = []
    base = None
    for i, j in _taps(g):
        rows, cols = _tap_range(i, g.sh, g.dh, g.pt, g.h, g.oh), _tap_range(j, g.sw, g.dw, g.pl, g.w, g.ow)
        full = (g.sh == g.sw == 1 and rows == (0, g.h, 0) and cols == (0, g.w, 0) and g.oh == g.h
                and g.ow == g.w)
        if base is None and full:
            base = (i, j)
        elif rows[1] > rows[0] and cols[1] > cols[0]:
            taps.append((i, j, rows, cols))
    if base is None:
        dx[...] = 0
    else:
        _matmul(dy2, ft[base], out=dx.reshape(-1, g.c))
    for i, j, (p0, p1, r0), (q0, q1, s0) in taps:
        product = _matmul(dy2, ft[i, j]).reshape(n, g.oh, g.ow, g.c)[:, p0:p1, q0:q1]
        dx[:, r0:r0 + (p1 - p0 - 1) * g.sh + 1:g.sh, s0:s0 + (q1 - q0 - 1) * g.sw + 1:g.sw] += product


def _over_batch(g, o, work):
    """Runs `work(b0, b1)` over batch blocks on the intra-op threads (inline for small convolutions)."""
    # About 50 multiply-adds per nanosecond-unit of shard's cost model.
    shard(g.n, max(1, g.oh * g.ow * g.kh * g.kw * g.c * o // 50), work)


def _matmul(a, b, out=None):
    """`a @ b` (float16 in float32, as TF's CPU kernels), into the 2-D array `out` when given."""
    if a.dtype == np.float16:
        r = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
        if out is None:
            return r
        out[...] = r
        return out
    return np.matmul(a, b, out=out)


def _shape_arg(sizes, what):
    sizes = np.asarray(sizes)
    if sizes.shape != (4,):
        raise _invalid("%s must be a 1-D tensor of 4 elements, got shape %s" % (what, list(sizes.shape)))
    return tuple(int(v) for v in sizes)


def _check_backprop_shape(op_name, dy_shape, g, o):
    expected = (g.n, g.oh, g.ow, o)
    for dim, (got, want) in enumerate(zip(dy_shape, expected)):
        if got != want:
            if dim in (1, 2):
                size, k, s, d = (g.h, g.kh, g.sh, g.dh) if dim == 1 else (g.w, g.kw, g.sw, g.dw)
                raise _invalid("%s: Size of out_backprop doesn't match computed: actual = %d, computed = %d "
                               "spatial_dim: %d input: %d filter: %d output: %d stride: %d dilation: %d"
                               % (op_name, got, want, dim, size, k, got, s, d))
            raise _invalid("%s: out_backprop has shape %s, expected %s" % (op_name, list(dy_shape), list(expected)))


def _conv_static(op, x_dims, f_dims, data_format):
    """Static NHWC output dims of a convolution of `x_dims` (data_format order) with HWIO `f_dims`."""
    a = op._attrs
    n, h, w, c = _to_nhwc_dims(x_dims, data_format)
    kh, kw, fc, o = f_dims
    if c is not None and fc is not None and c != fc:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (c, fc))
    g = _geometry((n, h, w, c), kh, kw, a["strides"], a["dilations"], a["padding"], a["explicit_paddings"],
                  data_format, static=True)
    return n, g.oh, g.ow, o


def _static_shape_arg(t, arg):
    """The static dims given by a 1-D int32 shape tensor (partially known values allowed)."""
    if t.dtype is not dtypes.int32:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: int32"
                        % (arg, t.dtype.name))
    try:
        s = tensor_util.constant_value_as_shape(t)
    except ValueError:
        s = as_shape(None)
    if s.ndims is None:
        return (None,) * 4
    if s.ndims != 4:
        raise ValueError("Shape must be rank 4 but is rank %d" % s.ndims)
    return s.as_tuple()


def _conv_grad_attrs(op):
    return {k: op._attrs[k] for k in ("strides", "padding", "explicit_paddings", "data_format", "dilations",
                                       "use_cudnn_on_gpu")}


def _merge(a, b):
    return b if a is None else a


# ---- Conv2D ----------------------------------------------------------------------------------
def _conv2d_infer(op):
    x, f = op._inputs
    _check_types(op, [("input", x), ("filter", f)], _FLOAT_TYPES, _FLOAT_NAMES)
    fmt = op._attrs["data_format"]
    out = _conv_static(op, _static_dims(x, 4), _static_dims(f, 4), fmt)
    return [(x.dtype, _from_nhwc_dims(out, fmt))]


def _conv2d_kernel(xp, x, f, strides, padding, explicit_paddings, data_format, dilations, use_cudnn_on_gpu):
    return conv2d_bias_relu(x, f, None, False, strides, padding, explicit_paddings, data_format, dilations)


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
    _check_batch_depth(strides, data_format, "strides")
    _check_batch_depth(dilations, data_format, "dilations")
    x = _to_nhwc(x, data_format)
    if x.shape[3] != f.shape[2]:
        raise _invalid("input and filter must have the same depth: %d vs %d" % (x.shape[3], f.shape[2]))
    g = _geometry(x.shape, f.shape[0], f.shape[1], strides, dilations, padding, explicit_paddings, data_format)
    o = f.shape[3]
    fm = f.reshape(-1, o)
    out = np.empty((g.n, g.oh, g.ow, o), x.dtype)
    jit_epilogue = relu and _conv_jit.usable(out) if bias is None else _conv_jit.usable(out, bias)
    kept = None
    if keep_patches and g.n * g.oh * g.ow * g.kh * g.kw * g.c * x.itemsize <= MAX_KEPT_PATCHES:
        kept = Patches(g)

    def work(b0, b1):
        block = out[b0:b1]
        cols = _im2col(x[b0:b1], g)
        if kept is not None:
            kept.blocks[b0, b1] = cols
        _matmul(cols, fm, out=block.reshape(-1, o))
        if jit_epilogue:
            _conv_jit.bias_relu(block, bias, relu)
            return
        if bias is not None:
            _npfast.add_channels(block, bias)
        if relu:
            _npfast.relu(block, out=block)

    _over_batch(g, o, work)
    out = _from_nhwc(out, data_format)
    return (out, kept) if keep_patches else out


def _conv2d_grad(op, grad):
    """d/dx conv2d(x, f) = Conv2DBackpropInput(shape(x), f, g); d/df = Conv2DBackpropFilter(x, shape(f), g)."""
    x, f = op._inputs
    attrs = _conv_grad_attrs(op)
    return [ops.apply_op("Conv2DBackpropInput", [_shape_of(x), f, grad], dict(attrs)),
            ops.apply_op("Conv2DBackpropFilter", [x, _shape_of(f), grad], dict(attrs))]


register_op("Conv2D", infer=_conv2d_infer, kernel=_conv2d_kernel, grad=_conv2d_grad)


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
    _check_batch_depth(strides, data_format, "strides")
    _check_batch_depth(dilations, data_format, "dilations")
    in_nhwc = _to_nhwc_dims(_shape_arg(input_sizes, "input_sizes"), data_format)
    dy = _to_nhwc(dy, data_format)
    if in_nhwc[3] != f.shape[2]:
        raise _invalid("Conv2DCustomBackpropInput: input and filter must have the same depth")
    g = _geometry(in_nhwc, f.shape[0], f.shape[1], strides, dilations, padding, explicit_paddings, data_format)
    _check_backprop_shape("Conv2DCustomBackpropInput", dy.shape, g, f.shape[3])
    o = f.shape[3]
    ft = np.ascontiguousarray(f.transpose(0, 1, 3, 2))
    dx = np.empty((g.n, g.h, g.w, g.c), dy.dtype)

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
            grad=_conv2d_backprop_input_grad)


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
    _check_batch_depth(strides, data_format, "strides")
    _check_batch_depth(dilations, data_format, "dilations")
    kh, kw, c, o = _shape_arg(filter_sizes, "filter_sizes")
    x = _to_nhwc(x, data_format)
    dy = _to_nhwc(dy, data_format)
    if x.shape[3] != c:
        raise _invalid("Conv2DCustomBackpropFilter: input and filter must have the same depth: %d vs %d"
                       % (x.shape[3], c))
    g = _geometry(x.shape, kh, kw, strides, dilations, padding, explicit_paddings, data_format)
    _check_backprop_shape("Conv2DCustomBackpropFilter", dy.shape, g, o)
    parts = {}
    kept = patches.blocks if patches is not None and patches.geometry == g else {}

    def work(b0, b1):
        cols = kept.get((b0, b1))
        if cols is None:
            cols = _im2col(x[b0:b1], g)
        parts[b0] = _matmul(cols.T, dy[b0:b1].reshape(-1, o))

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
            grad=_conv2d_backprop_filter_grad)


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
    dy = _to_nhwc(dy, data_format)
    g = _geometry(in_nhwc, kh, kw, strides, dilations, padding, explicit_paddings, data_format)
    _check_backprop_shape("DepthwiseConv2dNativeBackpropInput", dy.shape, g, c * m)
    dy = dy.reshape(g.n, g.oh, g.ow, c, m)
    dxp = np.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, c), dy.dtype)
    for i, j in _taps(g):
        view = _tap(dxp, i, j, g)
        view += np.einsum("nhwcm,cm->nhwc", dy, f[i, j])
    return _from_nhwc(dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w], data_format)


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
    x = _to_nhwc(x, data_format)
    dy = _to_nhwc(dy, data_format)
    g = _geometry(x.shape, kh, kw, strides, dilations, padding, explicit_paddings, data_format)
    _check_backprop_shape("DepthwiseConv2dNativeBackpropFilter", dy.shape, g, c * m)
    dy = dy.reshape(g.n, g.oh, g.ow, c, m)
    xpad = _padded(x, g)
    df = np.empty((kh, kw, c, m), x.dtype)
    for i, j in _taps(g):
        df[i, j] = np.einsum("nhwc,nhwcm->cm", _tap(xpad, i, j, g), dy)
    return df


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


# ---- pooling: shared ------------------------------------------------------------------------
def _pool_attrs(op_type, ksize, strides, padding, data_format):
    padding = _string_attr(padding, "padding", op_type, ("SAME", "VALID"))
    data_format = _string_attr(data_format, "data_format", op_type, ("NHWC", "NCHW"))
    ksize = _int_list_attr(ksize, "ksize", op_type)
    strides = _int_list_attr(strides, "strides", op_type)
    base = op_type.replace("Grad", "")
    if len(strides) != 4:
        raise ValueError("%s requires the stride attribute to contain 4 values, but got: %d" % (base, len(strides)))
    if len(ksize) != 4:
        raise ValueError("%s requires the ksize attribute to contain 4 values, but got: %d" % (base, len(ksize)))
    return {"ksize": ksize, "strides": strides, "padding": padding, "data_format": data_format}


def _pool_static(op, x_dims):
    a = op._attrs
    fmt = a["data_format"]
    n, h, w, c = _to_nhwc_dims(x_dims, fmt)
    kh, kw = _hw(a["ksize"], fmt)
    g = _geometry((n, h, w, c), kh, kw, a["strides"], [1, 1, 1, 1], a["padding"], [], fmt, static=True)
    return _from_nhwc_dims((n, g.oh, g.ow, c), fmt)


def _pool_geometry(shape_nhwc, ksize, strides, padding, data_format):
    c = 3 if data_format == "NHWC" else 1
    if ksize[0] != 1 or strides[0] != 1:
        raise errors.UnimplementedError(None, None, "Pooling is not yet supported on the batch dimension.")
    if ksize[c] != 1 or strides[c] != 1:
        raise errors.UnimplementedError(None, None, "Non-spatial pooling is not yet supported. Volunteers? :)")
    kh, kw = _hw(ksize, data_format)
    return _geometry(shape_nhwc, kh, kw, strides, [1, 1, 1, 1], padding, [], data_format)


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _first_max_masks(x, y, g, xpad=None):
    """Yields (tap, mask): for each window tap in row-major order, where that tap is the first
    element of its window equal to the window's max `y` (TF's choice among ties). `xpad`: `x`
    already padded (by a device backend), else padded here."""
    if xpad is None:
        xpad = _padded(x, g, np.nan if x.dtype.kind == "f" else _lowest(x.dtype))
    taps = _taps(g)
    unrouted = None
    for k, (i, j) in enumerate(taps):
        m = _tap(xpad, i, j, g) == y
        if unrouted is None:
            if len(taps) > 1:
                unrouted = ~m
        else:
            m &= unrouted
            if k + 1 < len(taps):
                unrouted ^= m
        yield (i, j), m


def _masked(values, m, out=None):
    """`values` where the bool mask `m` is set, else +0 (into `out` when given): an AND with the mask's
    bits, as fast as multiplying by it, without `inf * 0 = NaN` or `-x * 0 = -0` where `m` is unset."""
    bits = np.dtype("i%d" % values.dtype.itemsize)
    r = np.bitwise_and(values.view(bits), np.negative(m.view(np.int8)), out=None if out is None else out.view(bits))
    return r.view(values.dtype)


def _pool_over_batch(g, work):
    """Runs `work(b0, b1)` over batch blocks on the intra-op threads (inline for small inputs)."""
    shard(g.n, max(1, g.oh * g.ow * g.kh * g.kw * g.c // 8), work)


def _avg_counts(g, dtype):
    """The number of non-padding elements of each window, (OH, OW, 1), or a scalar."""
    if not (g.pt or g.pb or g.pl or g.pr):
        return np.asarray(g.kh * g.kw, dtype)
    rows = np.arange(g.oh) * g.sh - g.pt
    cols = np.arange(g.ow) * g.sw - g.pl
    ch = np.minimum(rows + g.kh, g.h) - np.maximum(rows, 0)
    cw = np.minimum(cols + g.kw, g.w) - np.maximum(cols, 0)
    return (ch[:, None] * cw[None, :]).astype(dtype)[:, :, None]


# ---- MaxPool ---------------------------------------------------------------------------------
def _max_pool_infer(op):
    x = op._inputs[0]
    if x.dtype not in _MAX_POOL_TYPES:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: %s"
                        % (x.dtype.name, _MAX_POOL_NAMES))
    return [(x.dtype, _pool_static(op, _static_dims(x, 4)))]


def _max_pool_tiles(x, g):
    """Max pooling of windows that tile the input (stride = window, no padding before): each
    window's rows are whole runs of KW*C values, so NumPy takes maxima of long runs, then of taps."""
    n, c = x.shape[0], x.shape[3]
    r = x[:, :g.oh * g.kh, :g.ow * g.kw].reshape(n, g.oh, g.kh, g.ow, g.kw * c)
    rows = np.maximum(r[:, :, 0], r[:, :, 1]) if g.kh > 1 else r[:, :, 0].copy()
    for i in range(2, g.kh):
        np.maximum(rows, r[:, :, i], out=rows)
    taps = rows.reshape(n, g.oh, g.ow, g.kw, c)
    if g.kw == 1:
        return taps[:, :, :, 0]
    out = np.maximum(taps[:, :, :, 0], taps[:, :, :, 1])
    for j in range(2, g.kw):
        np.maximum(out, taps[:, :, :, j], out=out)
    return out


def _max_pool_kernel(xp, x, ksize, strides, padding, data_format):
    x = _to_nhwc(x, data_format)
    g = _pool_geometry(x.shape, ksize, strides, padding, data_format)
    if g.kh == g.sh and g.kw == g.sw and not (g.pt or g.pl) and g.oh * g.kh <= g.h and g.ow * g.kw <= g.w:
        return _from_nhwc(_max_pool_tiles(x, g), data_format)
    if _conv_jit.usable(x):
        out = np.empty((g.n, g.oh, g.ow, g.c), x.dtype)
        _pool_over_batch(g, lambda b0, b1: _conv_jit.max_pool(x, out, b0, b1, g))
        return _from_nhwc(out, data_format)
    xpad = _padded(x, g, _lowest(x.dtype))
    out = None
    for i, j in _taps(g):
        t = _tap(xpad, i, j, g)
        if out is None:
            out = t.copy()
        else:
            np.maximum(out, t, out=out)
    return _from_nhwc(out, data_format)


def _max_pool_grad(op, grad):
    """d max_pool(x) = the output gradient routed to the (first) max of each window: MaxPoolGrad."""
    return [ops.apply_op("MaxPoolGrad", [op._inputs[0], op._outputs[0], grad], dict(op._attrs))]


register_op("MaxPool", infer=_max_pool_infer, kernel=_max_pool_kernel, grad=_max_pool_grad)


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
    """MaxPoolGrad's kernel: zeros, plus each window's `dy` at the window's first max (TF's values:
    an inf or NaN `dy` stays out of the other inputs). With `relu` (windows that do not overlap
    only), also ReluGrad by the mask `x > 0` (x being the ReLU's output the pool read): the two ops'
    values, bitwise, in one pass (the compiler's `fuse_relu_pool_grads` uses it)."""
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
        _pool_over_batch(g, lambda b0, b1: _conv_jit.max_pool_grad(x, y, dy, dx, b0, b1, g, relu))
        return _from_nhwc(dx, data_format)
    dxp = np.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, g.c), dy.dtype)

    def work(b0, b1):
        block, dyb = dxp[b0:b1], dy[b0:b1]
        if disjoint:
            # Each input takes at most one window's gradient: written as TF's `0 + dy`.
            dyb = dyb + dy.dtype.type(0)
            if relu:
                # A routed element equals its window's max, so the ReLU mask x > 0 there is y > 0:
                # applied to dy once (ReluGrad's `grad * mask` of the routed values, bitwise).
                dyb *= y[b0:b1] > 0
        for (i, j), m in _first_max_masks(x[b0:b1], y[b0:b1], g):
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


register_op("MaxPoolGrad", infer=_max_pool_grad_infer, kernel=_max_pool_grad_kernel, grad=_max_pool_grad_grad)


def _max_pool_grad_grad_infer(op):
    x, y, dy = op._inputs
    _check_types(op, [("orig_input", x), ("orig_output", y), ("grad", dy)], _MAX_POOL_TYPES, _MAX_POOL_NAMES)
    _static_dims(x, 4)
    _static_dims(dy, 4)
    return [(x.dtype, _static_dims(y, 4))]


def _max_pool_grad_grad_kernel(xp, x, y, ddx, ksize, strides, padding, data_format):
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


register_op("AvgPool", infer=_avg_pool_infer, kernel=_avg_pool_kernel, grad=_avg_pool_grad)


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


register_op("AvgPoolGrad", infer=_avg_pool_grad_infer, kernel=_avg_pool_grad_kernel, grad=_avg_pool_grad_grad)


# ---- FusedBatchNorm ----------------------------------------------------------------------------
def _bn_axes(data_format):
    return ((0, 1, 2), (1, 1, 1, -1)) if data_format == "NHWC" else ((0, 2, 3), (1, -1, 1, 1))


def _bn_param_type(x):
    return dtypes.float32 if x.dtype is dtypes.float16 else x.dtype


def _fused_bn_infer(op):
    x, scale, offset, mean, var = op._inputs
    if x.dtype not in _FLOAT_TYPES:
        raise TypeError("Value passed to parameter 'x' has DataType %s not in list of allowed values: "
                        "float16, bfloat16, float32" % x.dtype.name)
    u = _bn_param_type(x)
    for arg, t in (("scale", scale), ("offset", offset), ("mean", mean), ("variance", var)):
        if t.dtype is not u:
            raise TypeError("Input '%s' of 'FusedBatchNorm' Op has type %s that does not match expected type %s."
                            % (arg, t.dtype.name, u.name))
    xd = _static_dims(x, 4)
    c = _to_nhwc_dims(xd, op._attrs["data_format"])[3]
    for arg, t in (("scale", scale), ("offset", offset)):
        (d,) = _static_dims(t, 1)
        if c is not None and d is not None and c != d:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (c, d))
        c = _merge(c, d)
    for t in (mean, var):
        _static_dims(t, 1)
    return [(x.dtype, xd)] + [(u, (c,))] * 4


def _fused_bn_kernel(xp, x, scale, offset, mean, variance, epsilon, data_format, is_training):
    axes, bshape = _bn_axes(data_format)
    c = x.shape[3 if data_format == "NHWC" else 1]
    u = scale.dtype
    xf = x.astype(u, copy=False)
    for arg, t in (("scale", scale), ("offset", offset)):
        if t.shape != (c,):
            raise _invalid("%s must have the same number of elements as the channels of x, got %d and %d"
                           % (arg, t.size, c))
    if is_training:
        n = x.size // c if c else 0
        m = xf.mean(axis=axes)
        centered = xf - m.reshape(bshape)
        v = np.square(centered).mean(axis=axes)
        batch_var = v * np.asarray(n / max(n - 1, 1), u)
    else:
        for arg, t in (("mean", mean), ("variance", variance)):
            if t.shape != (c,):
                raise _invalid("When is_training=false, %s must have the same number of elements as the channels "
                               "of x, got %d and %d" % (arg, t.size, c))
        m, v, batch_var = mean, variance, variance
        centered = xf - m.reshape(bshape)
    scaled = (1 / np.sqrt(v + np.asarray(epsilon, u))) * scale
    y = centered * scaled.reshape(bshape) + offset.reshape(bshape)
    return y.astype(x.dtype, copy=False), m.astype(u, copy=False), batch_var.astype(u, copy=False), \
        m.astype(u, copy=False), v.astype(u, copy=False)


def _fused_bn_grad(op, grad_y, *unused):
    """d/d(x, scale, offset) = FusedBatchNormGrad(g_y, x, scale, saved stats); batch stats outputs ignored (TF)."""
    x, scale = op._inputs[0], op._inputs[1]
    if grad_y is None:
        grad_y = zeros_like(op._outputs[0])
    dx, dscale, doffset, _, _ = ops.apply_op(
        "FusedBatchNormGrad", [grad_y, x, scale, op._outputs[3], op._outputs[4]], dict(op._attrs))
    return [dx, dscale, doffset, None, None]


register_op("FusedBatchNorm", infer=_fused_bn_infer, kernel=_fused_bn_kernel, grad=_fused_bn_grad)


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC",
                     is_training=True, name=None):
    """Batch normalization of a 4-D tensor over all axes but the channel one.

    `y = scale * (x - mean) / sqrt(variance + epsilon) + offset`, with the batch's own mean and
    (biased) variance when `is_training`, else the given population `mean` and `variance`.

    Args:
      x: Input `Tensor` of 4 dimensions.
      scale: A `Tensor` of 1 dimension for scaling.
      offset: A `Tensor` of 1 dimension for bias.
      mean: A `Tensor` of 1 dimension for population mean used for inference.
      variance: A `Tensor` of 1 dimension for population variance used for inference.
      epsilon: A small float number added to the variance of x (at least 1.001e-5, as TF).
      data_format: The data format for x. Either "NHWC" (default) or "NCHW".
      is_training: A bool value to specify if the operation is used for training or inference.
      name: A name for this operation (optional).

    Returns:
      y: A 4D Tensor for the normalized, scaled, offsetted x.
      batch_mean: A 1D Tensor for the mean of x (the given `mean` in inference).
      batch_var: A 1D Tensor for the variance of x with Bessel's correction `n / (n - 1)` (the
        given `variance` in inference).

    Raises:
      ValueError: If mean or variance is not None when is_training is True.
    """
    from ..framework.constant_op import constant
    x = ops.convert_to_tensor(x, name="input")
    scale = ops.convert_to_tensor(scale, name="scale")
    offset = ops.convert_to_tensor(offset, name="offset")
    if is_training and (mean is not None or variance is not None):
        raise ValueError("Both 'mean' and 'variance' must be None if is_training is True.")
    u = _bn_param_type(x)
    if mean is None:
        mean = constant([], dtype=u)
    if variance is None:
        variance = constant([], dtype=u)
    mean = ops.convert_to_tensor(mean, name="mean", preferred_dtype=u)
    variance = ops.convert_to_tensor(variance, name="variance", preferred_dtype=u)
    epsilon = max(float(epsilon), 1.001e-5)
    data_format = _string_attr(data_format, "data_format", "FusedBatchNorm", ("NHWC", "NCHW"))
    y, batch_mean, batch_var, _, _ = ops.apply_op(
        "FusedBatchNorm", [x, scale, offset, mean, variance],
        {"epsilon": epsilon, "data_format": data_format, "is_training": bool(is_training)}, name=name)
    return y, batch_mean, batch_var


def _fused_bn_grad_infer(op):
    dy, x, scale, m, v = op._inputs
    _check_types(op, [("y_backprop", dy), ("x", x)], _FLOAT_TYPES, _FLOAT_NAMES)
    xd = _static_dims(x, 4)
    (c,) = _static_dims(scale, 1)
    u = _bn_param_type(x)
    return [(x.dtype, xd), (u, (c,)), (u, (c,)), (u, (0,)), (u, (0,))]


def _fused_bn_grad_kernel(xp, dy, x, scale, saved_mean, saved_var, epsilon, data_format, is_training):
    axes, bshape = _bn_axes(data_format)
    u = scale.dtype
    dyf = dy.astype(u, copy=False)
    centered = x.astype(u, copy=False) - saved_mean.reshape(bshape)
    inv = 1 / np.sqrt(saved_var + np.asarray(epsilon, u))
    offset_backprop = dyf.sum(axis=axes)
    dy_xc = (dyf * centered).sum(axis=axes)
    scale_backprop = dy_xc * inv
    if is_training:
        n = x.size // scale.size if scale.size else 1
        mean_dy = (offset_backprop / n).reshape(bshape)
        mean_dy_xc = (dy_xc / n).reshape(bshape)
        dx = (scale * inv).reshape(bshape) * (dyf - mean_dy - centered * (mean_dy_xc * (inv * inv).reshape(bshape)))
    else:
        dx = dyf * (scale * inv).reshape(bshape)
    empty = np.zeros((0,), u)
    return dx.astype(x.dtype, copy=False), scale_backprop.astype(u, copy=False), \
        offset_backprop.astype(u, copy=False), empty, empty


def _bn_grad_composite(grad_y, x, scale, pop_mean, pop_var, epsilon, data_format, is_training):
    """FusedBatchNormGrad's math as differentiable ops (in training the statistics are
    recomputed from x, so that their dependence on x is differentiated too)."""
    from . import array_ops, math_ops
    from .core_ops import stop_gradient
    axes, _ = _bn_axes(data_format)
    axes = list(axes)
    keep = data_format != "NHWC"
    if keep:
        scale = array_ops.reshape(scale, [1, -1, 1, 1])
    if is_training:
        mean_grad_y = math_ops.reduce_mean(grad_y, axes, keepdims=keep)
        mean_x = math_ops.reduce_mean(x, axes, keepdims=keep)
        var_x = math_ops.reduce_mean(math_ops.squared_difference(x, stop_gradient(mean_x)), axes, keepdims=keep)
        grad_y_offset = math_ops.subtract(grad_y, mean_grad_y)
        x_offset = math_ops.subtract(x, mean_x)
        mean = math_ops.reduce_mean(math_ops.multiply(grad_y, x_offset), axes, keepdims=keep)
        var_eps = math_ops.add(var_x, epsilon)
        grad_x = math_ops.multiply(
            math_ops.multiply(scale, math_ops.rsqrt(var_eps)),
            math_ops.subtract(grad_y_offset, math_ops.multiply(math_ops.reciprocal(var_eps),
                                                               math_ops.multiply(mean, x_offset))))
        grad_scale = math_ops.multiply(math_ops.rsqrt(var_eps),
                                       math_ops.reduce_sum(math_ops.multiply(grad_y, x_offset), axes, keepdims=keep))
    else:
        if keep:
            pop_mean = array_ops.reshape(pop_mean, [1, -1, 1, 1])
            pop_var = array_ops.reshape(pop_var, [1, -1, 1, 1])
        var_rsqrt = math_ops.rsqrt(math_ops.add(pop_var, epsilon))
        grad_scale = math_ops.reduce_sum(
            math_ops.multiply(grad_y, math_ops.multiply(math_ops.subtract(x, pop_mean), var_rsqrt)), axes,
            keepdims=keep)
        grad_x = math_ops.multiply(grad_y, math_ops.multiply(scale, var_rsqrt))
    grad_offset = math_ops.reduce_sum(grad_y, axes, keepdims=keep)
    if keep:
        grad_scale = array_ops.reshape(grad_scale, [-1])
        grad_offset = array_ops.reshape(grad_offset, [-1])
    return grad_x, grad_scale, grad_offset


def _fused_bn_grad_grad(op, *grads):
    """Second order: tf.gradients of FusedBatchNormGrad's math (as ops) w.r.t. grad_y, x and scale."""
    from ..gradients.gradients_impl import gradients
    grad_y, x, scale, m, v = op._inputs
    a = op._attrs
    outs = _bn_grad_composite(grad_y, x, scale, m, v, a["epsilon"], a["data_format"], a["is_training"])
    pairs = [(o, g) for o, g in zip(outs, grads[:3]) if g is not None]
    if not pairs:
        return [None] * 5
    # grad_y, x and scale are independent variables here (grad_y itself may depend on x).
    wrt = [grad_y, x, scale]
    dgy, dx, dscale = gradients([o for o, _ in pairs], wrt, grad_ys=[g for _, g in pairs], stop_gradients=wrt)
    return [dgy, dx, dscale, None, None]


register_op("FusedBatchNormGrad", infer=_fused_bn_grad_infer, kernel=_fused_bn_grad_kernel,
            grad=_fused_bn_grad_grad)
