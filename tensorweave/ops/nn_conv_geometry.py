"""Convolution and pooling ops: what the family shares: attribute checks (strides, padding,
data_format, dilations), window geometry (TF's SAME/VALID/EXPLICIT output sizes and paddings, im2col
taps, work split over the batch), the convolution's input gradient (per-tap GEMMs, one GEMM and a
col2im, Winograd F(2x2, 3x3)) and the pooling windows (first-max masks, average counts)."""

import collections
import numbers

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..framework import dtypes, errors, ops, tensor_util
from ..framework.errors import _invalid_argument as _invalid
from ..framework.tensor_shape import as_shape
from ..kernels.shard import shard
from ..platform import threads
from . import _conv_jit

_FLOAT_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64)
_FLOAT_NAMES = "float16, bfloat16, float32, float64"
_MAX_POOL_TYPES = _FLOAT_TYPES + (dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.int16, dtypes.int8,
                                  dtypes.uint16)
_MAX_POOL_NAMES = "float16, bfloat16, float32, float64, int32, int64, uint8, int16, int8, uint16, qint8"


# ---- shared: attribute checks ----------------------------------------------------------------

def _check_4d(**arrays):
    """A pooling kernel's inputs must be 4-D (TF's "tensor_in must be 4-dimensional")."""
    for name, a in arrays.items():
        if a.ndim != 4:
            raise _invalid("%s must be 4-dimensional" % name)


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


def _apply_input_filter_backprop(op_type, attrs, input, filter, out_backprop, name):  # noqa: A002
    """Applies a backprop op whose inputs are `(input, filter, out_backprop)`, converted like `input`."""
    x = _convert(input, "input")
    return ops.apply_op(op_type, [x, _convert(filter, "filter", x), _convert(out_backprop, "out_backprop", x)],
                        attrs, name=name)


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
    n, c = x.shape[0], x.shape[3]
    if c >= 16 and _conv_jit.usable(x):
        # One pass straight from the unpadded input (padding taps written as zeros). Measured faster
        # than the strided copy from 16 channels on, slower below.
        col = np.empty((n, g.oh, g.ow, g.kh, g.kw, c), x.dtype)
        _conv_jit.im2col(x, col, 0, g)
        return col.reshape(n * g.oh * g.ow, g.kh * g.kw * c)
    xp = _padded(x, g)
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
    dy2 = dy.reshape(n * g.oh * g.ow, o)
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
        _matmul(dy2, ft[base], out=dx.reshape(n * g.h * g.w, g.c))
    for i, j, (p0, p1, r0), (q0, q1, s0) in taps:
        product = _matmul(dy2, ft[i, j]).reshape(n, g.oh, g.ow, g.c)[:, p0:p1, q0:q1]
        dx[:, r0:r0 + (p1 - p0 - 1) * g.sh + 1:g.sh, s0:s0 + (q1 - q0 - 1) * g.sw + 1:g.sw] += product


# The bytes of patch matrix a col2im works on at a time: small enough to stay in cache between the
# GEMM that writes it and the loop that adds it up.
COL2IM_CHUNK_BYTES = 1 << 20


def _input_grad_by_col2im(dy, fm, g, dx, b0, chunked):
    """Writes into `dx[b0:b0 + len(dy)]` (NHWC, C-contiguous) the input gradient for the NHWC output
    gradient `dy` and the filter as an (O, KH*KW*C) matrix `fm`: one GEMM to the patch-matrix
    gradient, then the numba col2im (float32/float64 only, see `_conv_jit.usable`). `chunked`: a few
    images at a time, so the patch matrix stays in cache between the two; else one GEMM for all (for
    BLAS running on several threads, which splits one large GEMM well and many small ones badly)."""
    n, o = dy.shape[0], dy.shape[3]
    k = g.kh * g.kw * g.c
    step = max(1, n)
    if chunked:
        step = max(1, min(n, COL2IM_CHUNK_BYTES // max(1, g.oh * g.ow * k * dy.itemsize)))
    buf = np.empty((step, g.oh, g.ow, g.kh, g.kw, g.c), dy.dtype)
    for s0 in range(0, n, step):
        s1 = min(s0 + step, n)
        col = buf[:s1 - s0]
        rows = (s1 - s0) * g.oh * g.ow
        _matmul(dy[s0:s1].reshape(rows, o), fm, out=col.reshape(rows, k))
        _conv_jit.col2im(col, dx, b0 + s0, g)


# Winograd F(2x2, 3x3): the filter transform G (the input's B^T and the output's A^T are in the loops).
_WINOGRAD_G = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.0, 0.0, 1.0]])
# The bytes of transformed tiles (input and product) a chunk of the Winograd input gradient keeps.
WINOGRAD_CHUNK_BYTES = 2 << 20


def _winograd_input_grad_applies(g, o):
    """Whether the input gradient runs by Winograd F(2x2, 3x3) (`_input_grad_by_winograd`): a 3x3
    filter at stride 1 without dilation, padding of at most 2 before (so the gradient is a
    convolution of `dy`), 32 or more channels both ways and 2x2 tiles that cover the input with at
    most 10% to spare. Measured there 1.3-1.5x faster than the patch-matrix GEMM and col2im (the
    16 GEMMs do 4/9 of the multiplications); slower on small images (7x7: a third of the tiles'
    outputs dropped) and about even with 16 channels."""
    th, tw = (g.h + 1) // 2, (g.w + 1) // 2
    return (g.kh == g.kw == 3 and g.sh == g.sw == 1 and g.dh == g.dw == 1 and g.pt <= 2 and g.pl <= 2
            and min(g.c, o) >= 32 and 40 * th * tw <= 11 * g.h * g.w)


def _winograd_filter(f):
    """The (16, I, O) transform G f G^T of a (3, 3, I, O) filter, computed in float64."""
    u = np.einsum("ai,ijco,bj->abco", _WINOGRAD_G, f.astype(np.float64), _WINOGRAD_G, optimize=True)
    return u.reshape(16, f.shape[2], f.shape[3]).astype(f.dtype)


def _one_blas_thread_per_block():
    """Whether GEMMs run on one BLAS thread each (batch blocks over the intra-op threads, or one thread
    in all), as cache-sized pieces and Winograd's many small GEMMs want; else BLAS runs several."""
    return threads.gemm_shards() > 1 or threads.intra_op_threads() == 1


def _input_grad_by_winograd(dy, u, g, dx):
    """Writes into `dx` (NHWC, C-contiguous, the rows of `dy`) the input gradient of a 3x3 stride-1
    convolution: the convolution of `dy` with the filter flipped and transposed, whose transform is
    `u` (`_winograd_filter`), by Winograd F(2x2, 3x3): per 4x4 tile of `dy`, 16 GEMMs of the
    transformed tiles with `u` and the 2x2 output transform (numba loops; float32/float64 only), a
    few images at a time so the transformed tiles stay in cache. For one BLAS thread: its many
    small GEMMs gain little from more."""
    n, o, c = dy.shape[0], dy.shape[3], g.c
    th, tw = (g.h + 1) // 2, (g.w + 1) // 2
    tiles = th * tw
    pt, pl = 2 - g.pt, 2 - g.pl
    step = max(1, min(n, WINOGRAD_CHUNK_BYTES // max(1, 16 * tiles * (o + c) * dy.itemsize)))
    v = m = None
    for s0 in range(0, n, step):
        s1 = min(s0 + step, n)
        if v is None or v.shape[1] != (s1 - s0) * tiles:
            v = np.empty((16, (s1 - s0) * tiles, o), dy.dtype)
            m = np.empty((16, (s1 - s0) * tiles, c), dy.dtype)
        _conv_jit.winograd_input(dy, v, s0, s0, s1, th, tw, pt, pl)
        np.matmul(v, u, out=m)
        _conv_jit.winograd_output(m, dx, s0, s0, s1, th, tw)


def _over_batch(g, o, work):
    """Runs `work(b0, b1)` over batch blocks on the intra-op threads (inline for small convolutions;
    in one block when BLAS itself runs several threads, see `threads.gemm_shards`)."""
    # About 50 multiply-adds per nanosecond-unit of shard's cost model.
    shard(g.n, max(1, g.oh * g.ow * g.kh * g.kw * g.c * o // 50), work, max_parallelism=threads.gemm_shards())


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
    """What TF's CPU max pooling starts each output at (Eigen's NumTraits::lowest): the dtype's lowest
    finite value, so a window of only NaN and -inf pools to it."""
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _tap_valid(g, i, j):
    """(OH, OW, 1) bool: the windows whose tap (i, j) is an input element, not padding; None when
    every window's is."""
    rows = np.arange(g.oh) * g.sh + i * g.dh - g.pt
    cols = np.arange(g.ow) * g.sw + j * g.dw - g.pl
    rv, cv = (rows >= 0) & (rows < g.h), (cols >= 0) & (cols < g.w)
    if rv.all() and cv.all():
        return None
    return (rv[:, None] & cv[None, :])[:, :, None]


def _first_valid_taps(g):
    """{tap: mask}: each window's first non-padding tap in row-major order (padding only precedes it
    at the top and left), with the (OH, OW, 1) bool mask of the windows it is first in (None: all)."""
    i0 = np.maximum(g.pt - np.arange(g.oh) * g.sh, 0)
    j0 = np.maximum(g.pl - np.arange(g.ow) * g.sw, 0)
    out = {}
    for i in np.unique(i0).tolist():
        for j in np.unique(j0).tolist():
            m = ((i0 == i)[:, None] & (j0 == j)[None, :])[:, :, None]
            out[(i, j)] = None if m.all() else m
    return out


def _pool_padded(x, g, xp=np):
    """`x` padded for max pooling: NaN for floats (never equal, never greater), else the lowest value."""
    value = np.nan if x.dtype.kind == "f" else _lowest(x.dtype)
    if xp is np:
        return _padded(x, g, value)
    if not (g.pt or g.pb or g.pl or g.pr):
        return x
    n, h, w, c = x.shape
    out = xp.full((n, h + g.pt + g.pb, w + g.pl + g.pr, c), value, dtype=x.dtype)
    out[:, g.pt:g.pt + h, g.pl:g.pl + w] = x
    return out


def _first_max_masks(x, y, g, xpad=None, xp=np):
    """Yields (tap, mask): for each window tap in row-major order, where that tap is the first
    non-padding element of its window equal to `y` (TF's MaxPoolGradGrad: no mask is set where no
    element equals it). `xpad`: `x` already padded by `_pool_padded`."""
    if xpad is None:
        xpad = _pool_padded(x, g, xp)
    floats = x.dtype.kind == "f"
    taps = _taps(g)
    unrouted = None
    for k, (i, j) in enumerate(taps):
        m = _tap(xpad, i, j, g) == y
        valid = None if floats else _tap_valid(g, i, j)  # NaN padding never equals; integer padding may
        if valid is not None:
            m &= xp.asarray(valid)
        if unrouted is None:
            if len(taps) > 1:
                unrouted = ~m
        else:
            m &= unrouted
            if k + 1 < len(taps):
                unrouted ^= m
        yield (i, j), m


def _max_pool_routing(x, g, xp=np):
    """TF's MaxPoolGrad choice of one input per window (its CPU kernel recomputes the pool with an
    argmax and ignores `orig_output`): the window's first non-padding element, replaced by each later
    element greater than the one held. That is the first element equal to the max of the window's
    non-NaN elements, unless the first element is NaN (nothing compares greater than NaN).

    Returns (positive, masks): `positive`, bool of the output's shape, says where the chosen element
    is > 0; `masks()` yields (tap, mask) in row-major tap order, each output set in exactly one mask.
    """
    floats = x.dtype.kind == "f"
    if x.dtype == np.float16:
        x = x.astype(np.float32)  # NumPy's float16 loops are slow; float32 holds each float16 exactly
    xpad = _pool_padded(x, g, xp)
    taps = _taps(g)
    peak = None  # the max of each window's non-NaN elements (NaN when there are none)
    for i, j in taps:
        t = _tap(xpad, i, j, g)
        if peak is None:
            peak = t.copy()
        elif floats:
            xp.fmax(peak, t, out=peak)
        else:
            xp.maximum(peak, t, out=peak)
    firsts = _first_valid_taps(g)
    nan_first = None  # windows whose first element is NaN: it keeps the gradient
    if floats:
        first = None  # each window's first element (the masks of `firsts` partition the windows)
        for (i, j), fm in firsts.items():
            t = _tap(xpad, i, j, g)
            first = t if fm is None or first is None else xp.where(xp.asarray(fm), t, first)
        nan_first = xp.isnan(first)
        if not nan_first.any():
            nan_first = None
    positive = peak > 0
    if nan_first is not None:
        positive &= ~nan_first

    def masks():
        unrouted = None if nan_first is None else ~nan_first
        for k, (i, j) in enumerate(taps):
            m = _tap(xpad, i, j, g) == peak
            valid = None if floats else _tap_valid(g, i, j)
            if valid is not None:
                m &= xp.asarray(valid)
            if unrouted is None:
                if len(taps) > 1:
                    unrouted = ~m
            else:
                m &= unrouted
                if k + 1 < len(taps):
                    unrouted ^= m
            if nan_first is not None and (i, j) in firsts:
                fm = firsts[(i, j)]
                m |= nan_first if fm is None else nan_first & xp.asarray(fm)
            yield (i, j), m

    return positive, masks


def _first_zero_signs(out, xpad, g):
    """Sets the sign of each zero in the max pool `out` to that of its window's first zero (row-major):
    TF keeps the first of equal values, and NumPy's max of -0 and +0 may give either."""
    bits = np.dtype("i%d" % out.dtype.itemsize)
    zeros = out == 0
    if not zeros.any():
        return
    neg_zero = np.iinfo(bits).min  # the bits of -0.0
    if not (xpad.view(bits) == neg_zero).any():
        return  # no -0 in the input: every zero is +0
    negative = np.zeros(out.shape, bool)
    pending = zeros.copy()
    for i, j in _taps(g):
        t = _tap(xpad, i, j, g)
        hit = pending & (t == 0)
        negative |= hit & np.signbit(t)
        pending &= ~hit
    out[zeros] = 0
    out[negative] = -out.dtype.type(0)


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
