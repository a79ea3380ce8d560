"""Which op types an accelerator runs, and how.

`ACCELERATOR_KERNELS` maps an op type to a `DeviceKernel`: the op's registered kernel when that is
written against `xp` alone, or a kernel written here when the registered one calls NumPy directly
(on a device array NumPy either fails or copies to the host). It also names the inputs the kernel
reads in host memory: shapes, axes and sizes, TF's `HostMemory` inputs, which are small and read
element by element. Op types missing from the table (stateful ops: variables, random numbers,
py_func, queues, summaries; string ops) run on the CPU only.

Rules for a kernel here (what CuPy accepts): no `np.asarray`/`np.array` of a device array, no NumPy
array (not even 0-d) mixed into an operation with device arrays (NumPy scalars and Python numbers
are fine), no `out=` into a NumPy array.
"""

import numpy as np

from ..framework import dtypes, errors

__all__ = ["DeviceKernel", "HOST_KERNEL", "ACCELERATOR_KERNELS", "accelerator_kernel", "DEVICE_DTYPES"]


class DeviceKernel:
    """How one op type runs on an accelerator.

    Attributes:
      kernel: The pure kernel `(xp, *arrays, **attrs)`, or None for the op's registered kernel.
      host_inputs: Input positions (negative counts from the end) the kernel reads as NumPy arrays.
      shape_inputs: Input positions of which only the shape and dtype are read: left where they are.
      on_host: The op is accepted on the device but computes on the host from small inputs (TF's
        kernels whose inputs and outputs are all in host memory): its inputs other than
        `shape_inputs` are copied to the host, and its outputs are NumPy arrays.
    """

    __slots__ = ("kernel", "host_inputs", "shape_inputs", "on_host")

    def __init__(self, kernel=None, host_inputs=(), shape_inputs=(), on_host=False):
        self.kernel = kernel
        self.host_inputs = frozenset(host_inputs)
        self.shape_inputs = frozenset(shape_inputs)
        self.on_host = on_host

    def input_place(self, i, n):
        """Where input `i` of `n` must be: "host", "device" or "any"."""
        if i in self.shape_inputs or i - n in self.shape_inputs:
            return "any"
        if self.on_host or i in self.host_inputs or i - n in self.host_inputs:
            return "host"
        return "device"


# What host (NumPy) devices run every op with.
HOST_KERNEL = DeviceKernel()

DEVICE_DTYPES = frozenset({
    dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128, dtypes.int8,
    dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.bool_})


def accelerator_kernel(op):
    """The `DeviceKernel` of `op` on an accelerator, or None when its type or one of its dtypes has
    none (strings, variants and resources live on the host)."""
    k = ACCELERATOR_KERNELS.get(op._type)
    if k is None:
        return None
    n = len(op._inputs)
    for i, t in enumerate(op._inputs):
        if t._dtype not in DEVICE_DTYPES and k.input_place(i, n) == "device":
            return None
    if not k.on_host and any(t._dtype not in DEVICE_DTYPES for t in op._outputs):
        return None
    return k


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


# ---- activations ----------------------------------------------------------------------------------
def _zero(x):
    return x.dtype.type(0)


def _relu(xp, x):
    return xp.maximum(x, _zero(x))


def _relu6(xp, x):
    return xp.minimum(xp.maximum(x, _zero(x)), x.dtype.type(6))


def _leaky_relu(xp, x, alpha):
    return xp.where(x > 0, x, x * x.dtype.type(alpha))


def _leaky_relu_grad(xp, g, x, alpha):
    return xp.where(x > 0, g, g * g.dtype.type(alpha))


# ---- softmax and cross entropy ---------------------------------------------------------------------
def _xent(xp, features, labels):
    shifted = features - features.max(axis=-1, keepdims=True)
    log_sum = xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))
    loss = (labels * (log_sum - shifted)).sum(axis=-1)
    backprop = xp.exp(shifted - log_sum) - labels
    return loss.astype(features.dtype, copy=False), backprop


def _sparse_xent(xp, features, labels):
    n = features.shape[-1]
    if ((labels < 0) | (labels >= n)).any():
        values = labels.ravel().tolist()
        bad = next(v for v in values if not 0 <= v < n)
        raise _invalid("Received a label value of %d which is outside the valid range of [0, %d).  Label values: %s"
                       % (bad, n, " ".join(str(v) for v in values)))
    shifted = features - features.max(axis=-1, keepdims=True)
    log_sum = xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))
    picked = xp.take_along_axis(shifted, labels[..., None].astype(np.int64), axis=-1)
    loss = (log_sum - picked)[..., 0]
    # Subtracting the one-hot labels: x - 0.0 is x, so only the label's entry changes.
    backprop = xp.exp(shifted - log_sum) - (labels[..., None] == xp.arange(n))
    return loss.astype(features.dtype, copy=False), backprop.astype(features.dtype, copy=False)


# ---- reductions --------------------------------------------------------------------------------------
def _axes(axes):
    from ..ops.math_ops import _axis_tuple
    return _axis_tuple(axes)


def _sum(xp, x, axes, keep_dims):
    if x.dtype == np.float16:
        return xp.sum(x, axis=_axes(axes), dtype=np.float32, keepdims=keep_dims).astype(np.float16)
    return xp.sum(x, axis=_axes(axes), dtype=x.dtype, keepdims=keep_dims)


def _extreme(name, lowest):
    def kernel(xp, x, axes, keep_dims):
        ax = _axes(axes)
        if x.size == 0:  # the identity of an empty reduction, computed on the host from the shape alone
            from ..ops.math_ops import _extreme_identity
            empty = np.empty(x.shape, x.dtype)
            return xp.asarray(getattr(np, name)(empty, axis=ax, keepdims=keep_dims,
                                                initial=_extreme_identity(x.dtype, lowest)))
        return getattr(xp, name)(x, axis=ax, keepdims=keep_dims)
    return kernel


def _arg_extreme(name):
    def kernel(xp, x, dimension, output_type):
        return getattr(xp, name)(x, axis=int(dimension.reshape(-1)[0])).astype(output_type.as_numpy_dtype)
    return kernel


# ---- array ops -------------------------------------------------------------------------------------
def _pack(xp, *values, axis, N):
    from ..ops.array_ops import _fmt
    for i, v in enumerate(values[1:], 1):
        if v.shape != values[0].shape:
            raise _invalid("Shapes of all inputs must match: values[0].shape = %s != values[%d].shape = %s"
                           % (_fmt(values[0].shape), i, _fmt(v.shape)))
    return xp.stack(values, axis=axis)


def _fill(xp, dims, value):
    from ..ops.array_ops import _int_list
    dims = _int_list(dims)
    for d in dims:
        if d < 0:
            raise _invalid("Dimension %d must be >= 0" % d)
    return xp.full(dims, value[()], dtype=value.dtype)


# ---- convolution and pooling (NHWC inside; the geometry and checks are nn_conv_ops') ---------------
def _conv():
    from ..ops import nn_conv_ops
    return nn_conv_ops


def _padded(xp, x, g, value=0):
    if not (g.pt or g.pb or g.pl or g.pr):
        return x
    n, h, w, c = x.shape
    out = xp.full((n, h + g.pt + g.pb, w + g.pl + g.pr, c), value, dtype=x.dtype)
    out[:, g.pt:g.pt + h, g.pl:g.pl + w] = x
    return out


def _im2col(xp, x, g):
    """The (N*OH*OW, KH*KW*C) patch matrix of NHWC `x`, one slice per filter tap."""
    cv = _conv()
    xpad = _padded(xp, x, g)
    cols = xp.stack([cv._tap(xpad, i, j, g) for i, j in cv._taps(g)], axis=3)
    return cols.reshape(g.n * g.oh * g.ow, g.kh * g.kw * g.c)


def _col2im(xp, col, g, dtype):
    cv = _conv()
    col = col.reshape(g.n, g.oh, g.ow, g.kh, g.kw, g.c)
    dxp = xp.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, g.c), dtype)
    for i, j in cv._taps(g):
        view = cv._tap(dxp, i, j, g)
        view += col[:, :, :, i, j]
    return dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w]


def _conv2d(xp, x, f, strides, padding, explicit_paddings, data_format, dilations, use_cudnn_on_gpu):
    cv = _conv()
    cv._check_batch_depth(strides, data_format, "strides")
    cv._check_batch_depth(dilations, data_format, "dilations")
    x = cv._to_nhwc(x, data_format)
    if x.shape[3] != f.shape[2]:
        raise _invalid("input and filter must have the same depth: %d vs %d" % (x.shape[3], f.shape[2]))
    g = cv._geometry(x.shape, f.shape[0], f.shape[1], strides, dilations, padding, explicit_paddings, data_format)
    out = cv._matmul(_im2col(xp, x, g), f.reshape(-1, f.shape[3]))
    return cv._from_nhwc(out.reshape(g.n, g.oh, g.ow, f.shape[3]), data_format)


def _conv2d_backprop_input(xp, input_sizes, f, dy, strides, padding, explicit_paddings, data_format, dilations,
                           use_cudnn_on_gpu):
    cv = _conv()
    cv._check_batch_depth(strides, data_format, "strides")
    cv._check_batch_depth(dilations, data_format, "dilations")
    in_nhwc = cv._to_nhwc_dims(cv._shape_arg(input_sizes, "input_sizes"), data_format)
    dy = cv._to_nhwc(dy, data_format)
    if in_nhwc[3] != f.shape[2]:
        raise _invalid("Conv2DCustomBackpropInput: input and filter must have the same depth")
    g = cv._geometry(in_nhwc, f.shape[0], f.shape[1], strides, dilations, padding, explicit_paddings, data_format)
    cv._check_backprop_shape("Conv2DCustomBackpropInput", dy.shape, g, f.shape[3])
    o = f.shape[3]
    col = cv._matmul(dy.reshape(-1, o), f.reshape(-1, o).T)
    return cv._from_nhwc(_col2im(xp, col, g, dy.dtype), data_format)


def _conv2d_backprop_filter(xp, x, filter_sizes, dy, strides, padding, explicit_paddings, data_format, dilations,
                            use_cudnn_on_gpu):
    cv = _conv()
    cv._check_batch_depth(strides, data_format, "strides")
    cv._check_batch_depth(dilations, data_format, "dilations")
    kh, kw, c, o = cv._shape_arg(filter_sizes, "filter_sizes")
    x = cv._to_nhwc(x, data_format)
    dy = cv._to_nhwc(dy, data_format)
    if x.shape[3] != c:
        raise _invalid("Conv2DCustomBackpropFilter: input and filter must have the same depth: %d vs %d"
                       % (x.shape[3], c))
    g = cv._geometry(x.shape, kh, kw, strides, dilations, padding, explicit_paddings, data_format)
    cv._check_backprop_shape("Conv2DCustomBackpropFilter", dy.shape, g, o)
    return cv._matmul(_im2col(xp, x, g).T, dy.reshape(-1, o)).reshape(kh, kw, c, o)


def _max_pool(xp, x, ksize, strides, padding, data_format):
    cv = _conv()
    x = cv._to_nhwc(x, data_format)
    g = cv._pool_geometry(x.shape, ksize, strides, padding, data_format)
    xpad = _padded(xp, x, g, cv._lowest(x.dtype))
    out = None
    for i, j in cv._taps(g):
        t = cv._tap(xpad, i, j, g)
        out = t.copy() if out is None else xp.maximum(out, t)
    return cv._from_nhwc(out, data_format)


def _first_max_masks(xp, x, y, g):
    """(tap, mask) per window tap, as nn_conv_ops computes them, over `x` padded on the device."""
    cv = _conv()
    xpad = _padded(xp, x, g, np.nan if x.dtype.kind == "f" else cv._lowest(x.dtype))
    return cv._first_max_masks(x, y, g, xpad)


def _max_pool_grad(xp, x, y, dy, ksize, strides, padding, data_format):
    cv = _conv()
    x, y, dy = (cv._to_nhwc(a, data_format) for a in (x, y, dy))
    g = cv._pool_geometry(x.shape, ksize, strides, padding, data_format)
    if dy.shape != (g.n, g.oh, g.ow, g.c) or y.shape != dy.shape:
        raise _invalid("Expected orig_output and grad shapes to be %s, got %s and %s"
                       % (list((g.n, g.oh, g.ow, g.c)), list(y.shape), list(dy.shape)))
    dxp = xp.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, g.c), dy.dtype)
    for (i, j), m in _first_max_masks(xp, x, y, g):
        view = cv._tap(dxp, i, j, g)
        view += xp.where(m, dy, 0)
    return cv._from_nhwc(dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w], data_format)


def _avg_pool(xp, x, ksize, strides, padding, data_format):
    cv = _conv()
    x = cv._to_nhwc(x, data_format)
    g = cv._pool_geometry(x.shape, ksize, strides, padding, data_format)
    xpad = _padded(xp, x, g)
    acc = np.float32 if x.dtype == np.float16 else x.dtype
    out = None
    for i, j in cv._taps(g):
        t = cv._tap(xpad, i, j, g)
        out = t.astype(acc) if out is None else out + t
    out = out / xp.asarray(cv._avg_counts(g, acc))
    return cv._from_nhwc(out.astype(x.dtype, copy=False), data_format)


def _avg_pool_grad(xp, orig_input_shape, dy, ksize, strides, padding, data_format):
    cv = _conv()
    in_nhwc = cv._to_nhwc_dims(cv._shape_arg(orig_input_shape, "orig_input_shape"), data_format)
    dy = cv._to_nhwc(dy, data_format)
    g = cv._pool_geometry(in_nhwc, ksize, strides, padding, data_format)
    if dy.shape != (g.n, g.oh, g.ow, g.c):
        raise _invalid("Expected grad shape to be %s, got %s" % (list((g.n, g.oh, g.ow, g.c)), list(dy.shape)))
    acc = np.float32 if dy.dtype == np.float16 else dy.dtype
    share = dy / xp.asarray(cv._avg_counts(g, acc))
    dxp = xp.zeros((g.n, g.h + g.pt + g.pb, g.w + g.pl + g.pr, g.c), acc)
    for i, j in cv._taps(g):
        view = cv._tap(dxp, i, j, g)
        view += share
    dx = dxp[:, g.pt:g.pt + g.h, g.pl:g.pl + g.w].astype(dy.dtype, copy=False)
    return cv._from_nhwc(dx, data_format)


# ---- host-memory ops: computed on the host from shapes -----------------------------------------------
def _shape(xp, x, out_type):
    return np.array(x.shape, dtype=out_type.as_numpy_dtype)


def _size(xp, x, out_type):
    return np.asarray(x.size, dtype=out_type.as_numpy_dtype)


def _rank(xp, x):
    return np.asarray(x.ndim, dtype=np.int32)


def _table():
    t = {}
    same = DeviceKernel()
    # Elementwise ops and others whose registered kernels use `xp` only.
    for name in ("Abs Acos Acosh Asin Asinh Atan Atanh Ceil Conj Cos Cosh Exp Expm1 Floor IsFinite IsInf IsNan Log "
                 "Log1p LogicalNot Neg Reciprocal Rint Round Rsqrt Sigmoid Sign Sin Sinh Sqrt Square Tan Tanh Cast "
                 "ComplexAbs EluGrad ReluGrad Relu6Grad Elu Selu SeluGrad Softplus SoftplusGrad Softsign "
                 "SoftsignGrad Softmax LogSoftmax "
                 "Add AddV2 Sub Mul RealDiv DivNoNan FloorDiv FloorMod TruncateDiv TruncateMod Maximum Minimum Pow "
                 "Atan2 SquaredDifference Equal NotEqual Greater GreaterEqual Less LessEqual LogicalAnd LogicalOr "
                 "AddN BiasAdd BiasAddGrad MatMul BatchMatMulV2 L2Loss Squeeze Unpack Select SelectV2 IdentityN "
                 "Identity StopGradient Snapshot PlaceholderWithDefault NoOp Const").split():
        t[name] = same
    # Only the shape of the second input is read.
    t["SumToShapeOf"] = t["BroadcastLike"] = DeviceKernel(shape_inputs=(1,))
    t["ZerosLike"] = t["OnesLike"] = DeviceKernel(shape_inputs=(0,))
    # Registered kernels over `xp`, with shape/axis inputs in host memory.
    for name, host in [("Mean", (1,)), ("Prod", (1,)), ("All", (1,)), ("Any", (1,)), ("Reshape", (1,)),
                       ("ExpandDims", (1,)), ("Transpose", (1,)), ("ConcatV2", (-1,)), ("Split", (0,)),
                       ("Tile", (1,)), ("GatherV2", (2,)), ("StridedSlice", (1, 2, 3)),
                       ("StridedSliceGrad", (0, 1, 2, 3)), ("Slice", (1, 2)), ("Pad", (1,)), ("BroadcastTo", (1,)),
                       ("OneHot", (1,))]:
        t[name] = DeviceKernel(host_inputs=host)
    # Kernels written here.
    for name, k in [("Relu", _relu), ("Relu6", _relu6), ("LeakyRelu", _leaky_relu),
                    ("LeakyReluGrad", _leaky_relu_grad), ("SoftmaxCrossEntropyWithLogits", _xent),
                    ("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent), ("Pack", _pack),
                    ("Conv2D", _conv2d), ("MaxPool", _max_pool), ("MaxPoolGrad", _max_pool_grad),
                    ("AvgPool", _avg_pool)]:
        t[name] = DeviceKernel(k)
    for name, k, host in [("Sum", _sum, (1,)), ("Max", _extreme("max", True), (1,)),
                          ("Min", _extreme("min", False), (1,)), ("ArgMax", _arg_extreme("argmax"), (1,)),
                          ("ArgMin", _arg_extreme("argmin"), (1,)), ("Fill", _fill, (0, 1)),
                          ("Conv2DBackpropInput", _conv2d_backprop_input, (0,)),
                          ("Conv2DBackpropFilter", _conv2d_backprop_filter, (1,)),
                          ("AvgPoolGrad", _avg_pool_grad, (0,))]:
        t[name] = DeviceKernel(k, host_inputs=host)
    # Shape arithmetic stays in host memory.
    t["Shape"] = DeviceKernel(_shape, shape_inputs=(0,), on_host=True)
    t["Size"] = DeviceKernel(_size, shape_inputs=(0,), on_host=True)
    t["Rank"] = DeviceKernel(_rank, shape_inputs=(0,), on_host=True)
    for name in ("BroadcastArgs", "Range", "ConcatOffset", "InvertPermutation"):
        t[name] = DeviceKernel(on_host=True)
    return t


ACCELERATOR_KERNELS = _table()
