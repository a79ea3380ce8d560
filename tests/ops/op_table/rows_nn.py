"""Op-table rows of tensorweave/ops/nn_ops.py and tensorweave/ops/nn_conv_ops.py (see harness.py for
the row API).

References are independent of the kernels: activations and softmaxes are their textbook formulas in
long double (`hp`); convolutions, depthwise convolutions and their backprops are direct loops over
output pixels and filter taps in float64 (each output reads input `(i * stride + tap * dilation -
pad_before)`, TF's documented SAME/VALID geometry), not patch matrices; pooling visits each window's
in-bounds elements (max: the first maximum in row-major order takes the gradient, as TF routes it);
batch-norm gradients are complex-step derivatives of the float64 forward reference.

Gradient ops (ReluGrad, Conv2DBackpropInput via the gradient, MaxPoolGrad, ...) are built as TF users
build them: `tf.gradients` of the forward op in a graph, a `tf.GradientTape` eagerly (`_vjp`), or
their public `tf.nn` function where one exists.
"""

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import FLOATS, INTS, Row, hp, rand

LD = np.longdouble
F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717


# ---- helpers ---------------------------------------------------------------------------------------
def _vjp(build, xs, dys):
    """Gradients of `build(*xs)` w.r.t. `xs` for output gradients `dys`: `tf.gradients` in a graph,
    a `tf.GradientTape` eagerly (nested calls give second-order gradients in both modes)."""
    xs, dys = list(xs), list(dys)
    if tf.executing_eagerly():
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            ys = build(*xs)
        return tape.gradient(ys if isinstance(ys, (list, tuple)) else [ys], xs, output_gradients=dys)
    return tf.gradients(build(*xs), xs, grad_ys=dys)


def _away(rng, shape, dt, kinks=(0.0,), lo=-3.0, hi=3.0, gap=0.1):
    """Random values of `dt` in [lo, hi), at least `gap` away from every kink (finite differences)."""
    v = rng.uniform(lo, hi, shape)
    for k in kinks:
        near = np.abs(v - k) < gap
        v[near] = k + np.where(v[near] >= k, gap, -gap) * 2
    return v.astype(dt)


def _param_dtype(dt):
    """FusedBatchNorm's scale/offset/statistics dtype: float32 for a float16 input."""
    return F32 if dt == F16 else dt


# ---- activations (element-wise) -------------------------------------------------------------------
def _relu_ref(x):
    # TF: max(features, 0); NaN stays NaN; -0 gives +0 (the max's zero).
    return np.where(np.isnan(x) | (x > 0), x, np.zeros((), x.dtype))


def _activation_inputs(kinks=(0.0,)):
    def inputs(dt, rng):
        if dt.kind in "iu":
            return [rand(rng, (3, 4), dt, -8, 9)]
        return [_away(rng, (3, 4), dt, kinks, -8.0, 8.0)]
    return inputs


def _grad_inputs(kinks=(0.0,)):
    """inputs of an activation gradient row: (output gradient g, features x)."""
    return lambda dt, rng: [rand(rng, (3, 4), dt), _away(rng, (3, 4), dt, kinks, -8.0, 8.0)]


# max(-0.0, 0) is either zero in TF (Eigen's scalar max keeps -0, its SSE max gives +0); tensorweave's
# np.maximum gives +0 for float32/float64 and -0 for float16.
RELU_ZERO = "the sign of relu(-0.0) is backend-dependent in TF"

ACTIVATION_ROWS = [
    Row("Relu", tf.nn.relu, _relu_ref, _activation_inputs(), dtypes=FLOATS + INTS, signed_zeros=False,
        note=RELU_ZERO),
    Row("Relu6", tf.nn.relu6, lambda x: np.where(np.isnan(x), x, np.minimum(_relu_ref(x), x.dtype.type(6))),
        _activation_inputs((0.0, 6.0)), dtypes=FLOATS + INTS, signed_zeros=False, note=RELU_ZERO),
    Row("Elu", tf.nn.elu, hp(lambda x: np.where(x < 0, np.exp(x) - 1, x)), _activation_inputs()),
    Row("Selu", tf.nn.selu,
        hp(lambda x: np.where(x < 0, LD(SELU_SCALE) * LD(SELU_ALPHA) * (np.exp(x) - 1), LD(SELU_SCALE) * x)),
        _activation_inputs()),
    Row("Softplus", tf.nn.softplus, hp(lambda x: np.logaddexp(LD(0), x)), _activation_inputs(),
        rtol={np.float32: 4e-6}),
    # softsign(+-inf) is inf / inf = NaN in TF (features / (|features| + 1)), kept here.
    Row("Softsign", tf.nn.softsign, hp(lambda x: x / (np.abs(x) + 1)), _activation_inputs()),
    Row("LeakyRelu", lambda x: tf.nn.leaky_relu(x, alpha=0.1),
        hp(lambda x: np.where(x > 0, x, x * LD(np.float32(0.1)))), _activation_inputs(),
        rtol={np.float32: 4e-6}, note="alpha=0.1: a float32 attribute (float64 inputs see float32(0.1), as TF's)"),
    Row("LeakyRelu", tf.nn.leaky_relu, hp(lambda x: np.where(x > 0, x, x * LD(np.float32(0.2)))),
        _activation_inputs(), name="LeakyRelu-default-alpha", rtol={np.float32: 4e-6}),
]

# Gradient ops, from TF's kernels' definitions: g * (y > 0), g * (0 < x < 6), y < 0 ? g * (y + 1) : g with
# y = elu(x) = exp(x) - 1, ..., g / (1 + exp(-x)), g / (1 + |x|)^2, x > 0 ? g : alpha * g.
ACTIVATION_GRAD_ROWS = [
    Row("ReluGrad", lambda g, x: _vjp(tf.nn.relu, [x], [g])[0],
        lambda g, x: (g * (x > 0).astype(g.dtype)).astype(g.dtype), _grad_inputs()),
    Row("Relu6Grad", lambda g, x: _vjp(tf.nn.relu6, [x], [g])[0],
        lambda g, x: (g * ((x > 0) & (x < 6)).astype(g.dtype)).astype(g.dtype), _grad_inputs((0.0, 6.0))),
    Row("EluGrad", lambda g, x: _vjp(tf.nn.elu, [x], [g])[0], hp(lambda g, x: np.where(x < 0, g * np.exp(x), g)),
        _grad_inputs()),
    Row("SeluGrad", lambda g, x: _vjp(tf.nn.selu, [x], [g])[0],
        hp(lambda g, x: np.where(x < 0, g * LD(SELU_SCALE) * LD(SELU_ALPHA) * np.exp(x), g * LD(SELU_SCALE))),
        _grad_inputs(), rtol={np.float32: 4e-6}),
    Row("SoftplusGrad", lambda g, x: _vjp(tf.nn.softplus, [x], [g])[0], hp(lambda g, x: g / (np.exp(-x) + 1)),
        _grad_inputs(), rtol={np.float32: 4e-6}),
    Row("SoftsignGrad", lambda g, x: _vjp(tf.nn.softsign, [x], [g])[0], hp(lambda g, x: g / (np.abs(x) + 1) ** 2),
        _grad_inputs(), rtol={np.float32: 4e-6}),
    Row("LeakyReluGrad", lambda g, x: _vjp(lambda t: tf.nn.leaky_relu(t, alpha=0.2), [x], [g])[0],
        hp(lambda g, x: np.where(x > 0, g, g * LD(np.float32(0.2)))), _grad_inputs()),
]


# ---- softmax, log softmax, cross entropies --------------------------------------------------------
def _softmax(x, axis=-1):
    if x.shape[axis] == 0:
        return x.copy()
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax(x, axis=-1):
    if x.shape[axis] == 0:
        return x.copy()
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def _softmax_special(dt):
    inf, nan = np.inf, np.nan
    return [
        # -inf logits get probability 0; +inf or NaN in a row make it NaN (TF's shifted formula).
        [np.array([[-inf, 0, 1], [inf, 0, 1], [nan, 0, 1], [-inf, -inf, -inf], [-0.0, 0.0, -0.0]], dt)],
        # Large logits do not overflow.
        [np.array([[1000, 0, -1000], [-1000, -1000, -999]], dt) if dt != F16 else
         np.array([[30000, 0, -30000], [-30000, -30000, -29000]], dt)],
        [np.zeros((0, 3), dt)],
        [np.zeros((2, 0), dt)],  # no classes: an empty result
    ]


def _softmax_inputs(shape):
    return lambda dt, rng: [rand(rng, shape, dt, -3, 3)]


def _xent_inputs(dt, rng):
    labels = _softmax(rng.uniform(-2, 2, (3, 5))).astype(dt)
    return [labels, rand(rng, (3, 5), dt, -3, 3)]


def _xent_ref(labels, logits):
    labels, logits = labels.astype(LD), logits.astype(LD)
    return (labels * -_log_softmax(logits)).sum(-1)  # TF's sum(labels * (log_sum - shifted)): +0 when empty


def _xent_special(dt):
    inf, nan = np.inf, np.nan
    big = 1000 if dt != F16 else 30000  # logits - max stays finite in float16
    labels = np.array([[0.5, 0.5, 0], [0, 1, 0], [0.25, 0.25, 0.5], [0, 0, 1], [1, 0, 0]], dt)
    logits = np.array([[big, 0, -big], [big, 0, 0], [-inf, 0, 1], [nan, 0, 1], [0, 0, inf]], dt)
    return [[labels, logits], [np.zeros((0, 3), dt), np.zeros((0, 3), dt)],
            [np.zeros((2, 0), dt), np.zeros((2, 0), dt)]]  # no classes: a zero loss per row


def _xent_backprop(labels, logits, g):
    """The logits gradient `g * (softmax(logits) - labels)` (the op's backprop output)."""
    return _vjp(lambda t: tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=t), [logits], [g])[0]


def _sparse_inputs(label_dt):
    def inputs(dt, rng):
        return [rng.randint(0, 5, size=(4,)).astype(label_dt), rand(rng, (4, 5), dt, -3, 3)]
    return inputs


def _sparse_ref(labels, logits):
    ls = _log_softmax(logits.astype(LD))
    return (-ls[np.arange(len(labels)), labels]).astype(logits.dtype)


def _sparse_special(dt):
    inf, nan = np.inf, np.nan
    big = 1000 if dt != F16 else 30000  # logits - max stays finite in float16
    logits = np.array([[big, 0, -big], [-inf, 0, 1], [-inf, 0, 1], [nan, 0, 1], [0, inf, 0]], dt)
    # Out-of-range labels raise InvalidArgumentError on the CPU (tests/ops/test_nn_ops.py).
    return [[np.array([1, 0, 1, 2, 0], np.int32), logits], [np.zeros((0,), np.int32), np.zeros((0, 3), dt)],
            [np.zeros((0,), np.int32), np.zeros((0, 0), dt)]]


def _sparse_backprop_ref(labels, logits, g):
    p = _softmax(logits.astype(LD))
    p[np.arange(len(labels)), labels] -= 1
    return (g.astype(LD)[:, None] * p).astype(logits.dtype)


SOFTMAX_ROWS = [
    Row("Softmax", tf.nn.softmax, hp(_softmax), _softmax_inputs((3, 5)), special=_softmax_special),
    Row("Softmax", lambda x: tf.nn.softmax(x, axis=1), hp(lambda x: _softmax(x, 1)), _softmax_inputs((2, 3, 4)),
        special=False, unknown_rank=False, name="Softmax-axis1",
        note="a non-last axis needs a known rank (transposes)"),
    Row("LogSoftmax", tf.nn.log_softmax, hp(_log_softmax), _softmax_inputs((3, 5)), special=_softmax_special),
    Row("LogSoftmax", tf.nn.log_softmax, hp(_log_softmax), _softmax_inputs((2, 3, 4)), special=False,
        name="LogSoftmax-3d"),
    Row("SoftmaxCrossEntropyWithLogits",
        lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x),
        lambda z, x: _xent_ref(z, x).astype(x.dtype), _xent_inputs, special=_xent_special,
        rtol={np.float16: 5e-3}),
    Row("SoftmaxCrossEntropyWithLogits", _xent_backprop,
        lambda z, x, g: (g.astype(LD)[:, None] * (_softmax(x.astype(LD)) - z)).astype(x.dtype),
        lambda dt, rng: _xent_inputs(dt, rng) + [rand(rng, (3,), dt)], special=False,
        name="SoftmaxCrossEntropyWithLogits-backprop"),
    Row("SparseSoftmaxCrossEntropyWithLogits",
        lambda z, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x), _sparse_ref,
        _sparse_inputs(np.int32), special=_sparse_special, rtol={np.float16: 5e-3}),
    Row("SparseSoftmaxCrossEntropyWithLogits",
        lambda z, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x), _sparse_ref,
        _sparse_inputs(np.int64), special=False, name="SparseSoftmaxCrossEntropyWithLogits-int64",
        rtol={np.float16: 5e-3}),
    Row("SparseSoftmaxCrossEntropyWithLogits",
        lambda z, x, g: _vjp(lambda t: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=t),
                             [x], [g])[0],
        _sparse_backprop_ref, lambda dt, rng: _sparse_inputs(np.int32)(dt, rng) + [rand(rng, (4,), dt)],
        special=False, name="SparseSoftmaxCrossEntropyWithLogits-backprop"),
]


# ---- bias add, L2 loss, in_top_k ------------------------------------------------------------------
def _bias_shape(shape, fmt):
    c = 1 if fmt == "NCHW" else len(shape) - 1
    return c, tuple(shape[c] if i == c else 1 for i in range(len(shape)))


def _bias_add_row(shape, fmt, name):
    c, bshape = _bias_shape(shape, fmt)

    def ref(x, b):
        return (x.astype(LD) + b.astype(LD).reshape(bshape)).astype(x.dtype) if x.dtype.kind == "f" else \
            (x + b.reshape(bshape)).astype(x.dtype)

    def special(dt):
        if dt.kind != "f":
            return []
        x = np.full(shape, 1.5, dt)
        flat = x.reshape(-1)
        flat[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.0, -0.0]
        b = np.resize(np.array([-0.0, np.inf, 2.0, -np.inf], dt), shape[c])
        empty = list(shape)
        empty[0] = 0
        return [[x, b], [np.zeros(empty, dt), b]]

    return Row("BiasAdd", lambda x, b: tf.nn.bias_add(x, b, data_format=fmt), ref,
               lambda dt, rng: [rand(rng, shape, dt, -4, 4), rand(rng, (shape[c],), dt, -4, 4)],
               dtypes=FLOATS + INTS, special=special, name=name, unknown_rank=fmt == "NHWC",
               note="" if fmt == "NHWC" else "NCHW needs the rank to find the channel axis")


def _bias_add_grad_row(shape, fmt, name):
    c, _ = _bias_shape(shape, fmt)
    axes = tuple(i for i in range(len(shape)) if i != c)

    def fn(g, b):
        return _vjp(lambda t: tf.nn.bias_add(tf.zeros_like(g), t, data_format=fmt), [b], [g])[0]

    def special(dt):
        g = np.full(shape, 0.5, dt)
        g.reshape(-1)[:4] = [np.nan, np.inf, -0.0, -0.0]
        empty = list(shape)
        empty[0] = 0
        return [[g, np.zeros(shape[c], dt)], [np.zeros(empty, dt), np.zeros(shape[c], dt)]]

    return Row("BiasAddGrad", fn, lambda g, b: g.astype(LD).sum(axis=axes).astype(g.dtype),
               lambda dt, rng: [rand(rng, shape, dt, -2, 2), rand(rng, (shape[c],), dt)], special=special,
               grad=[0], name=name, rtol={np.float16: 5e-3}, atol={np.float16: 1e-2},
               unknown_rank=fmt == "NHWC", note="" if fmt == "NHWC" else "NCHW needs the rank")


def _in_top_k_ref(k):
    def ref(pred, targets, *k_input):
        kk = int(k_input[0]) if k_input else k
        out = []
        for row, t in zip(pred, targets):
            if not 0 <= t < len(row) or not np.isfinite(row).all():
                out.append(False)
            else:
                out.append(sum(1 for v in row if v > row[t]) < kk)
        return np.array(out, dtype=bool)
    return ref


def _in_top_k_inputs(dt, rng):
    pred = rng.randint(0, 4, size=(6, 5)).astype(dt)  # many ties at the boundary
    return [pred, rng.randint(0, 5, size=(6,)).astype(np.int32)]


def _in_top_k_special(dt):
    inf, nan = np.inf, np.nan
    pred = np.array([[1, 2, 3], [nan, 0, 0], [inf, 0, 1], [0, -inf, 0], [1, 1, 1], [3, 2, 1], [0, 0, 0]], dt)
    return [[pred, np.array([2, 1, 0, 0, 2, -1, 3], np.int32)], [np.zeros((0, 3), dt), np.zeros((0,), np.int32)]]


OTHER_NN_ROWS = [
    _bias_add_row((2, 3, 2, 4), "NHWC", "BiasAdd-NHWC"),
    _bias_add_row((2, 3, 2, 4), "NCHW", "BiasAdd-NCHW"),
    _bias_add_row((5, 3), "NHWC", "BiasAdd-2d"),
    _bias_add_grad_row((2, 3, 2, 4), "NHWC", "BiasAddGrad-NHWC"),
    _bias_add_grad_row((2, 3, 2, 4), "NCHW", "BiasAddGrad-NCHW"),
    Row("L2Loss", tf.nn.l2_loss, hp(lambda x: (x * x).sum() / 2), lambda dt, rng: [rand(rng, (3, 4), dt)],
        rtol={np.float16: 5e-3}),
    Row("InTopKV2", lambda p, t: tf.nn.in_top_k(p, t, 2), _in_top_k_ref(2), _in_top_k_inputs, dtypes=(np.float32,),
        special=_in_top_k_special, grad=False, grad_inputs=lambda rng: _in_top_k_inputs(F32, rng)),
    Row("InTopKV2", lambda p, t, k: tf.nn.in_top_k(p, t, k), _in_top_k_ref(None),
        lambda dt, rng: _in_top_k_inputs(dt, rng) + [np.array(3, np.int32)], dtypes=(np.float32,), special=False,
        grad=False, grad_inputs=lambda rng: _in_top_k_inputs(F32, rng) + [np.array(1, np.int32)],
        name="InTopKV2-k-tensor"),
]


# ---- convolution references (direct loops, float64) ------------------------------------------------
def _geom(size, k, stride, dilation, padding):
    """TF's documented window geometry of one spatial dimension: (output size, padding before).
    `padding` is "SAME", "VALID" or an explicit (before, after) pair."""
    ek = (k - 1) * dilation + 1
    if padding == "SAME":
        out = -(-size // stride)
        return out, max((out - 1) * stride + ek - size, 0) // 2
    before, after = (0, 0) if padding == "VALID" else padding
    return (size + before + after - ek) // stride + 1, before


def _nhwc(x, fmt):
    return x if fmt == "NHWC" else np.transpose(x, (0, 2, 3, 1))


def _from_nhwc(x, fmt):
    return x if fmt == "NHWC" else np.transpose(x, (0, 3, 1, 2))


def _hw_padding(padding, fmt):
    """The (height, width) paddings of a "SAME"/"VALID" string or 4 explicit pairs in `fmt` order."""
    if isinstance(padding, str):
        return padding, padding
    h, w = (1, 2) if fmt == "NHWC" else (2, 3)
    return tuple(padding[h]), tuple(padding[w])


def _out_hw(h, w, kh, kw, p):
    return _geom(h, kh, p.s[0], p.d[0], p.ph)[0], _geom(w, kw, p.s[1], p.d[1], p.pw)[0]


def _taps(h, w, kh, kw, p):
    """(i, j, di, dj, r, q): output (i, j) reads input (r, q) through filter tap (di, dj), in bounds."""
    oh, pt = _geom(h, kh, p.s[0], p.d[0], p.ph)
    ow, pl = _geom(w, kw, p.s[1], p.d[1], p.pw)
    for i in range(oh):
        for j in range(ow):
            for di in range(kh):
                for dj in range(kw):
                    r, q = i * p.s[0] + di * p.d[0] - pt, j * p.s[1] + dj * p.d[1] - pl
                    if 0 <= r < h and 0 <= q < w:
                        yield i, j, di, dj, r, q


class ConvParams:
    """One convolution/pooling configuration: spatial strides `s`, dilations `d`, padding, format."""

    def __init__(self, fmt, padding, s=(1, 1), d=(1, 1), k=None):
        self.fmt, self.padding, self.s, self.d, self.k = fmt, padding, tuple(s), tuple(d), k
        self.ph, self.pw = _hw_padding(padding, fmt)

    def attr(self, hw):
        """A 4-value attribute in this format's order (1 for batch and channels)."""
        return [1, hw[0], hw[1], 1] if self.fmt == "NHWC" else [1, 1, hw[0], hw[1]]

    def tf_padding(self):
        return self.padding if isinstance(self.padding, str) else [list(p) for p in self.padding]

    def shape(self, nhwc):
        """An NHWC shape in this format's order."""
        n, h, w, c = nhwc
        return (n, h, w, c) if self.fmt == "NHWC" else (n, c, h, w)


def ref_conv2d(p):
    def ref(x, f):
        xn, f64 = _nhwc(x.astype(F64), p.fmt), f.astype(F64)
        n, h, w, _ = xn.shape
        kh, kw, _, o = f.shape
        out = np.zeros((n,) + _out_hw(h, w, kh, kw, p) + (o,))
        for i, j, di, dj, r, q in _taps(h, w, kh, kw, p):
            out[:, i, j] += xn[:, r, q] @ f64[di, dj]
        return _from_nhwc(out, p.fmt).astype(x.dtype)
    return ref


def ref_conv2d_backprop_input(p):
    def ref(x, f, dy):
        n, h, w, c = _nhwc(x, p.fmt).shape
        dyn, f64 = _nhwc(dy.astype(F64), p.fmt), f.astype(F64)
        kh, kw = f.shape[:2]
        dx = np.zeros((n, h, w, c))
        for i, j, di, dj, r, q in _taps(h, w, kh, kw, p):
            dx[:, r, q] += dyn[:, i, j] @ f64[di, dj].T
        return _from_nhwc(dx, p.fmt).astype(f.dtype)
    return ref


def ref_conv2d_backprop_filter(p):
    def ref(x, f, dy):
        xn, dyn = _nhwc(x.astype(F64), p.fmt), _nhwc(dy.astype(F64), p.fmt)
        kh, kw = f.shape[:2]
        df = np.zeros(f.shape)
        for i, j, di, dj, r, q in _taps(xn.shape[1], xn.shape[2], kh, kw, p):
            df[di, dj] += xn[:, r, q].T @ dyn[:, i, j]
        return df.astype(x.dtype)
    return ref


def ref_depthwise(p):
    def ref(x, f):
        xn, f64 = _nhwc(x.astype(F64), p.fmt), f.astype(F64)
        n, h, w, c = xn.shape
        kh, kw, _, m = f.shape
        oh, ow = _out_hw(h, w, kh, kw, p)
        out = np.zeros((n, oh, ow, c, m))
        for i, j, di, dj, r, q in _taps(h, w, kh, kw, p):
            out[:, i, j] += xn[:, r, q, :, None] * f64[di, dj]
        return _from_nhwc(out.reshape(n, oh, ow, c * m), p.fmt).astype(x.dtype)
    return ref


def ref_depthwise_backprop_input(p):
    def ref(x, f, dy):
        n, h, w, c = _nhwc(x, p.fmt).shape
        kh, kw, _, m = f.shape
        dyn, f64 = _nhwc(dy.astype(F64), p.fmt), f.astype(F64)
        dyn = dyn.reshape(dyn.shape[:3] + (c, m))
        dx = np.zeros((n, h, w, c))
        for i, j, di, dj, r, q in _taps(h, w, kh, kw, p):
            dx[:, r, q] += (dyn[:, i, j] * f64[di, dj]).sum(-1)
        return _from_nhwc(dx, p.fmt).astype(f.dtype)
    return ref


def ref_depthwise_backprop_filter(p):
    def ref(x, f, dy):
        xn, dyn = _nhwc(x.astype(F64), p.fmt), _nhwc(dy.astype(F64), p.fmt)
        kh, kw, c, m = f.shape
        dyn = dyn.reshape(dyn.shape[:3] + (c, m))
        df = np.zeros(f.shape)
        for i, j, di, dj, r, q in _taps(xn.shape[1], xn.shape[2], kh, kw, p):
            df[di, dj] += (xn[:, r, q, :, None] * dyn[:, i, j]).sum(0)
        return df.astype(x.dtype)
    return ref


# ---- convolution rows ----------------------------------------------------------------------------
# (name, params, NHWC input shape, filter shape): formats, paddings (SAME's odd unit at the end,
# explicit pairs), strides and dilations.
CONV_CASES = [
    ("NHWC-SAME-s2", ConvParams("NHWC", "SAME", s=(2, 2)), (2, 5, 4, 2), (3, 2, 2, 3)),
    ("NCHW-VALID-d2", ConvParams("NCHW", "VALID", d=(2, 1)), (2, 6, 5, 2), (2, 3, 2, 3)),
    ("NHWC-EXPLICIT-s21", ConvParams("NHWC", [[0, 0], [1, 0], [2, 1], [0, 0]], s=(2, 1)), (1, 4, 3, 3),
     (2, 3, 3, 2)),
    ("NHWC-SAME-d2", ConvParams("NHWC", "SAME", d=(1, 2)), (1, 4, 5, 2), (2, 3, 2, 1)),
]
CONV_TOL = dict(rtol={np.float16: 1e-2, np.float32: 1e-5}, atol={np.float16: 1e-2, np.float32: 1e-5})


def _out_nhwc(p, x_nhwc, f_shape, depthwise=False):
    n, h, w, c = x_nhwc
    o = c * f_shape[3] if depthwise else f_shape[3]
    return (n,) + _out_hw(h, w, f_shape[0], f_shape[1], p) + (o,)


def _conv_special(p, x_nhwc, f_shape, depthwise, which):
    """NaN/inf in the data input (finite filters: padding zeros times an infinite tap are NaN, which
    TF leaves to the backend), and an empty batch. `which`: "fwd" (x, f) or "bpi"/"bpf" (x, f, dy)."""
    def special(dt):
        x = np.linspace(-1, 1, int(np.prod(x_nhwc))).reshape(x_nhwc).astype(dt)
        x[0, 0, 0, 0], x[-1, -1, -1, -1], x[0, -1, 0, 0] = np.nan, np.inf, -np.inf
        f = np.linspace(-1, 0.5, int(np.prod(f_shape))).reshape(f_shape).astype(dt)
        dy = np.linspace(-1, 1, int(np.prod(_out_nhwc(p, x_nhwc, f_shape, depthwise)))).reshape(
            _out_nhwc(p, x_nhwc, f_shape, depthwise)).astype(dt)
        empty = (0,) + tuple(x_nhwc[1:])
        dy_empty = np.zeros(_out_nhwc(p, empty, f_shape, depthwise), dt)
        if which == "fwd":
            return [[_from_nhwc(x, p.fmt), f], [np.zeros(p.shape(empty), dt), f]]
        dy_special = dy.copy()
        dy_special.reshape(-1)[[0, -1, 3]] = [np.nan, np.inf, -np.inf]
        xs = _from_nhwc(np.where(np.isfinite(x), x, 0.5).astype(dt), p.fmt) if which == "bpi" else \
            _from_nhwc(x, p.fmt)
        # NCHW cases are fed as transposed views of NHWC data: the kernels' sums must not depend on the layout.
        return [[xs, f, _from_nhwc(dy_special if which == "bpi" else dy, p.fmt)],
                [np.zeros(p.shape(empty), dt), f, _from_nhwc(dy_empty, p.fmt)]]
    return special


def _conv_inputs(p, x_nhwc, f_shape, depthwise=False, with_dy=False):
    def inputs(dt, rng):
        arrays = [rand(rng, p.shape(x_nhwc), dt), rand(rng, f_shape, dt)]
        if with_dy:
            arrays.append(rand(rng, p.shape(_out_nhwc(p, x_nhwc, f_shape, depthwise)), dt))
        return arrays
    return inputs


def _conv_rows():
    rows = []
    for tag, p, x_nhwc, f_shape in CONV_CASES:
        depthwise_f = f_shape[:3] + (min(f_shape[3], 2),)
        strides, dilations, padding = p.attr(p.s), p.attr(p.d), p.tf_padding()
        kw = dict(strides=strides, padding=padding, data_format=p.fmt, dilations=dilations)
        rows += [
            Row("Conv2D", lambda x, f, kw=kw: tf.nn.conv2d(x, f, **kw), ref_conv2d(p),
                _conv_inputs(p, x_nhwc, f_shape), special=_conv_special(p, x_nhwc, f_shape, False, "fwd"),
                name="Conv2D-" + tag, **CONV_TOL),
            Row("Conv2DBackpropInput",
                lambda x, f, dy, kw=kw: tf.nn.conv2d_backprop_input(tf.shape(x), f, dy, **kw),
                ref_conv2d_backprop_input(p), _conv_inputs(p, x_nhwc, f_shape, with_dy=True),
                special=_conv_special(p, x_nhwc, f_shape, False, "bpi"), grad=[1, 2],
                name="Conv2DBackpropInput-" + tag, **CONV_TOL),
            Row("Conv2DBackpropFilter",
                lambda x, f, dy, kw=kw: tf.nn.conv2d_backprop_filter(x, tf.shape(f), dy, **kw),
                ref_conv2d_backprop_filter(p), _conv_inputs(p, x_nhwc, f_shape, with_dy=True),
                special=_conv_special(p, x_nhwc, f_shape, False, "bpf"), grad=[0, 2],
                name="Conv2DBackpropFilter-" + tag, **CONV_TOL),
        ]
        if tag.startswith("NHWC-SAME-d2") or tag.startswith("NCHW"):
            # The gradient path builds the backprops too (shape(x) and shape(f) as their size inputs).
            rows.append(Row("Conv2DBackpropInput",
                            lambda x, f, dy, kw=kw: _vjp(lambda t: tf.nn.conv2d(t, f, **kw), [x], [dy])[0],
                            ref_conv2d_backprop_input(p), _conv_inputs(p, x_nhwc, f_shape, with_dy=True),
                            special=False, grad=[1, 2], name="Conv2DBackpropInput-via-gradient-" + tag, **CONV_TOL))
        if isinstance(p.padding, str) and (p.s == (1, 1) or p.d == (1, 1)):
            rows += [
                Row("DepthwiseConv2dNative", lambda x, f, kw=kw: tf.nn.depthwise_conv2d_native(x, f, **kw),
                    ref_depthwise(p), _conv_inputs(p, x_nhwc, depthwise_f),
                    special=_conv_special(p, x_nhwc, depthwise_f, True, "fwd"),
                    name="DepthwiseConv2dNative-" + tag, **CONV_TOL),
                Row("DepthwiseConv2dNativeBackpropInput",
                    lambda x, f, dy, kw=kw: tf.nn.depthwise_conv2d_native_backprop_input(tf.shape(x), f, dy, **kw),
                    ref_depthwise_backprop_input(p), _conv_inputs(p, x_nhwc, depthwise_f, True, True),
                    special=_conv_special(p, x_nhwc, depthwise_f, True, "bpi"), grad=[1, 2],
                    name="DepthwiseConv2dNativeBackpropInput-" + tag, **CONV_TOL),
                Row("DepthwiseConv2dNativeBackpropFilter",
                    lambda x, f, dy, kw=kw: tf.nn.depthwise_conv2d_native_backprop_filter(x, tf.shape(f), dy, **kw),
                    ref_depthwise_backprop_filter(p), _conv_inputs(p, x_nhwc, depthwise_f, True, True),
                    special=_conv_special(p, x_nhwc, depthwise_f, True, "bpf"), grad=[0, 2],
                    name="DepthwiseConv2dNativeBackpropFilter-" + tag, **CONV_TOL),
            ]
    return rows


# ---- pooling references ----------------------------------------------------------------------------
def _windows(h, w, p):
    """(i, j, [(r, q), ...]): each output's in-bounds window elements, row-major."""
    oh, pt = _geom(h, p.k[0], p.s[0], 1, p.ph)
    ow, pl = _geom(w, p.k[1], p.s[1], 1, p.pw)
    for i in range(oh):
        for j in range(ow):
            rows = [r for r in range(i * p.s[0] - pt, i * p.s[0] - pt + p.k[0]) if 0 <= r < h]
            cols = [q for q in range(j * p.s[1] - pl, j * p.s[1] - pl + p.k[1]) if 0 <= q < w]
            yield i, j, [(r, q) for r in rows for q in cols]


def _pool_out(p, nhwc):
    n, h, w, c = nhwc
    return (n,) + _out_hw(h, w, p.k[0], p.k[1], ConvParams(p.fmt, p.padding, p.s)) + (c,)


def _tf_max(vals):
    """TF's CPU MaxPool of one window: the lowest finite value, replaced by each element greater than
    the one held (NaN never is; of -0 and +0 the first stays)."""
    best = np.finfo(vals[0].dtype).min if vals[0].dtype.kind == "f" else np.iinfo(vals[0].dtype).min
    for v in vals:
        if best < v:
            best = v
    return best


def _tf_argmax(xn, b, ch, win):
    """The element TF's MaxPoolGrad routes a window's gradient to: the first one, replaced by each later
    one greater than the one held (a NaN held is never replaced)."""
    k = 0
    for i, (r, q) in enumerate(win):
        if xn[b, r, q, ch] > xn[b, win[k][0], win[k][1], ch]:
            k = i
    return win[k]


def ref_max_pool(p):
    def ref(x):
        xn = _nhwc(x, p.fmt)
        out = np.zeros(_pool_out(p, xn.shape), x.dtype)
        for i, j, win in _windows(xn.shape[1], xn.shape[2], p):
            for b in range(xn.shape[0]):
                for ch in range(xn.shape[3]):
                    out[b, i, j, ch] = _tf_max([xn[b, r, q, ch] for r, q in win])
        return _from_nhwc(out, p.fmt)
    return ref


def ref_max_pool_grad(p):
    def ref(x, dy):
        xn, dyn = _nhwc(x, p.fmt), _nhwc(dy.astype(F64), p.fmt)
        dx = np.zeros(xn.shape)
        for i, j, win in _windows(xn.shape[1], xn.shape[2], p):
            for b in range(xn.shape[0]):
                for ch in range(xn.shape[3]):
                    r, q = _tf_argmax(xn, b, ch, win)
                    dx[b, r, q, ch] += dyn[b, i, j, ch]
        return _from_nhwc(dx, p.fmt).astype(x.dtype)
    return ref


def ref_max_pool_grad_grad(p):
    """TF's MaxPoolGradGrad: ddx at each window's first element equal to the pooled value (0 if none)."""
    def ref(x, dy, ddx):
        xn, ddn = _nhwc(x, p.fmt), _nhwc(ddx, p.fmt)
        out = np.zeros(_pool_out(p, xn.shape), x.dtype)
        for i, j, win in _windows(xn.shape[1], xn.shape[2], p):
            for b in range(xn.shape[0]):
                for ch in range(xn.shape[3]):
                    y = _tf_max([xn[b, r, q, ch] for r, q in win])
                    hits = [(r, q) for r, q in win if xn[b, r, q, ch] == y]
                    out[b, i, j, ch] = ddn[b, hits[0][0], hits[0][1], ch] if hits else 0
        return _from_nhwc(out, p.fmt)
    return ref


def ref_avg_pool(p):
    def ref(x):
        xn = _nhwc(x.astype(F64), p.fmt)
        out = np.zeros(_pool_out(p, xn.shape))
        for i, j, win in _windows(xn.shape[1], xn.shape[2], p):
            out[:, i, j] = sum(xn[:, r, q] for r, q in win) / len(win)  # padding never counts
        return _from_nhwc(out, p.fmt).astype(x.dtype)
    return ref


def ref_avg_pool_grad(p):
    def ref(x, dy):
        xn, dyn = _nhwc(x, p.fmt), _nhwc(dy.astype(F64), p.fmt)
        dx = np.zeros(xn.shape)
        for i, j, win in _windows(xn.shape[1], xn.shape[2], p):
            for r, q in win:
                dx[:, r, q] += dyn[:, i, j] / len(win)
        return _from_nhwc(dx, p.fmt).astype(dy.dtype)
    return ref


# ---- pooling rows ----------------------------------------------------------------------------------
POOL_CASES = [
    ("NHWC-SAME-k32-s21", ConvParams("NHWC", "SAME", s=(2, 1), k=(3, 2)), (2, 5, 4, 2)),
    ("NCHW-VALID-k2-s2", ConvParams("NCHW", "VALID", s=(2, 2), k=(2, 2)), (2, 5, 4, 3)),
    ("NHWC-SAME-k3-s1", ConvParams("NHWC", "SAME", s=(1, 1), k=(3, 3)), (1, 3, 4, 2)),
]


def _distinct(p, nhwc):
    """Distinct values 0.1 apart, shuffled (no ties: the max is differentiable there)."""
    def make(dt, rng):
        n = int(np.prod(nhwc))
        values = (rng.permutation(n) - n // 2) * 0.1
        return values.reshape(p.shape(nhwc)).astype(dt)
    return make


def _pool_special(p, nhwc, n_extra, max_pool):
    """Infinities and NaN in the pooled input (and its gradient inputs); for max pooling also windows of
    only NaN, -inf and +-0 (TF's CPU kernel: NaN never wins, the lowest finite value when nothing else
    is there, the first of -0 and +0); an empty batch."""
    def special(dt):
        if dt.kind != "f":  # integer max pooling: the extremes of the dtype (padding never wins)
            info = np.iinfo(dt)
            return [[np.resize(np.array([info.min, info.max, 0, -1, 1, info.min], dt), p.shape(nhwc))]]
        x = _distinct(p, nhwc)(dt, np.random.RandomState(1))
        flat = x.reshape(-1)
        flat[[0, 5, 7, 9]] = [np.inf, -np.inf, -np.inf, np.nan]
        out_shape = p.shape(_pool_out(p, nhwc))
        extra = []
        for _ in range(n_extra):
            e = np.linspace(-1, 1, int(np.prod(out_shape))).reshape(out_shape).astype(dt)
            e.reshape(-1)[[1, 2, 4]] = [np.inf, np.nan, -0.0]
            extra.append(e)
        empty = (0,) + tuple(nhwc[1:])
        cases = [[x] + extra, [np.zeros(p.shape(empty), dt)] + [np.zeros(p.shape(_pool_out(p, empty)), dt)] * n_extra]
        if max_pool:
            odd = np.resize(np.array([np.nan, -np.inf, -0.0, np.nan, 0.0, -np.inf, np.nan, 1.0, -0.0], dt),
                            p.shape(nhwc))
            cases.append([odd] + extra)
        return cases
    return special


def _pool_grad_grad_special(p, nhwc):
    def special(dt):
        rng = np.random.RandomState(2)
        out_shape = p.shape(_pool_out(p, nhwc))
        return [case[:1] + [rand(rng, out_shape, dt), rand(rng, p.shape(nhwc), dt)]
                for case in _pool_special(p, nhwc, 0, True)(dt)[::2]]
    return special


def _pool_rows():
    rows = []
    for tag, p, nhwc in POOL_CASES:
        kw = dict(ksize=p.attr(p.k), strides=p.attr(p.s), padding=p.padding, data_format=p.fmt)
        out_shape = p.shape(_pool_out(p, nhwc))

        def one(dt, rng, p=p, nhwc=nhwc):
            return [_distinct(p, nhwc)(dt, rng)]

        def with_dy(dt, rng, p=p, nhwc=nhwc, out_shape=out_shape):
            return [_distinct(p, nhwc)(dt, rng), rand(rng, out_shape, dt)]

        rows += [
            Row("MaxPool", lambda x, kw=kw: tf.nn.max_pool(x, **kw), ref_max_pool(p), one,
                dtypes=FLOATS + (np.int32,), special=_pool_special(p, nhwc, 0, True), name="MaxPool-" + tag,
                grad_inputs=lambda rng, p=p, nhwc=nhwc: [_distinct(p, nhwc)(F64, rng)]),
            Row("AvgPool", lambda x, kw=kw: tf.nn.avg_pool(x, **kw), ref_avg_pool(p), one,
                special=_pool_special(p, nhwc, 0, False), name="AvgPool-" + tag, rtol={np.float32: 4e-6}),
            Row("MaxPoolGrad", lambda x, dy, kw=kw: _vjp(lambda t: tf.nn.max_pool(t, **kw), [x], [dy])[0],
                ref_max_pool_grad(p), with_dy, special=_pool_special(p, nhwc, 1, True), name="MaxPoolGrad-" + tag),
            Row("AvgPoolGrad", lambda x, dy, kw=kw: _vjp(lambda t: tf.nn.avg_pool(t, **kw), [x], [dy])[0],
                ref_avg_pool_grad(p), with_dy, special=_pool_special(p, nhwc, 1, False), grad=[1],
                name="AvgPoolGrad-" + tag, rtol={np.float32: 4e-6}),
            Row("MaxPoolGradGrad",
                lambda x, dy, ddx, kw=kw: _vjp(
                    lambda d: _vjp(lambda t: tf.nn.max_pool(t, **kw), [x], [d])[0], [dy], [ddx])[0],
                ref_max_pool_grad_grad(p),
                lambda dt, rng, p=p, nhwc=nhwc, out_shape=out_shape: [
                    _distinct(p, nhwc)(dt, rng), rand(rng, out_shape, dt), rand(rng, p.shape(nhwc), dt)],
                special=_pool_grad_grad_special(p, nhwc), grad=[0, 2], name="MaxPoolGradGrad-" + tag),
        ]
    # Ties (integer-valued inputs): the gradient goes to each window's first maximum, in row-major order.
    p = ConvParams("NHWC", "SAME", s=(1, 2), k=(2, 3))
    kw = dict(ksize=p.attr(p.k), strides=p.attr(p.s), padding=p.padding, data_format=p.fmt)
    nhwc = (2, 4, 5, 2)
    out_shape = _pool_out(p, nhwc)

    def ties(dt, rng):
        return [rng.randint(0, 3, nhwc).astype(dt), rand(rng, out_shape, dt)]

    rows += [
        Row("MaxPoolGrad", lambda x, dy: _vjp(lambda t: tf.nn.max_pool(t, **kw), [x], [dy])[0],
            ref_max_pool_grad(p), ties, special=False, grad=[1], name="MaxPoolGrad-ties"),
        Row("MaxPoolGradGrad",
            lambda x, dy, ddx: _vjp(lambda d: _vjp(lambda t: tf.nn.max_pool(t, **kw), [x], [d])[0], [dy], [ddx])[0],
            ref_max_pool_grad_grad(p), lambda dt, rng: ties(dt, rng) + [rand(rng, nhwc, dt)], special=False,
            grad=[2], name="MaxPoolGradGrad-ties"),
    ]
    return rows


# ---- fused batch norm --------------------------------------------------------------------------------
def _bn_forward(x, scale, offset, eps, fmt, mean=None, var=None):
    """Batch norm over all axes but the channel one; with the batch's statistics when `mean` is None.
    Works on complex arrays (no abs, no conj): complex-step differentiation below."""
    xn = _nhwc(x, fmt)
    n = xn.size // xn.shape[3] if xn.shape[3] else 0
    if mean is None:
        with np.errstate(invalid="ignore", divide="ignore"):  # an empty batch: NaN statistics
            mean = xn.sum(axis=(0, 1, 2)) / n
            var = ((xn - mean) ** 2).sum(axis=(0, 1, 2)) / n
        batch_var = var * n / (n - 1) if n > 1 else var * np.nan
    else:
        batch_var = var
    y = (xn - mean) / np.sqrt(var + eps) * scale + offset
    return _from_nhwc(y, fmt), mean, batch_var


def _complex_step_vjp(f, args, wrt, dy, h=1e-30):
    """sum(dy * d f / d args[wrt]) by complex-step differentiation (exact to rounding)."""
    base = [np.asarray(a, np.complex128) for a in args]
    grad = np.zeros(base[wrt].shape)
    for idx in np.ndindex(grad.shape):
        pert = list(base)
        pert[wrt] = base[wrt].copy()
        pert[wrt][idx] += 1j * h
        grad[idx] = (f(*pert).imag / h * dy).sum()
    return grad


BN_EPS = 0.001


def _bn_inputs(p, nhwc, training, with_dy=False):
    def inputs(dt, rng):
        u = _param_dtype(dt)
        c = nhwc[3]
        arrays = [rand(rng, p.shape(nhwc), dt, -2, 3), rand(rng, (c,), u, 0.5, 2), rand(rng, (c,), u)]
        if not training:
            arrays += [rand(rng, (c,), u, -0.5, 0.5), rand(rng, (c,), u, 0.5, 2)]
        if with_dy:
            arrays.append(rand(rng, p.shape(nhwc), dt))
        return arrays
    return inputs


def _bn_fn(p, training):
    def fn(x, scale, offset, *stats):
        if training:
            return list(tf.nn.fused_batch_norm(x, scale, offset, epsilon=BN_EPS, data_format=p.fmt))
        return list(tf.nn.fused_batch_norm(x, scale, offset, stats[0], stats[1], epsilon=BN_EPS,
                                           data_format=p.fmt, is_training=False))
    return fn


def _bn_v3_fn(p, training):
    """FusedBatchNormV3 (the op TF 2.x GraphDefs hold): y, batch mean and variance as FusedBatchNorm."""
    def fn(x, scale, offset, *stats):
        outs = tf.get_default_graph().create_op(
            "FusedBatchNormV3", [x, scale, offset, stats[0], stats[1]],
            attrs={"epsilon": BN_EPS, "data_format": p.fmt, "is_training": training}).outputs
        return list(outs[:3])
    return fn


def _bn_ref(p, training):
    def ref(x, scale, offset, *stats):
        u = scale.dtype
        if x.size == 0:  # TF: NaN batch statistics for an empty batch, in inference too
            nan = np.full(scale.shape, np.nan, u)
            return [x.copy(), nan, nan]
        mean, var = (stats[0].astype(F64), stats[1].astype(F64)) if not training else (None, None)
        y, m, v = _bn_forward(x.astype(F64), scale.astype(F64), offset.astype(F64), BN_EPS, p.fmt, mean, var)
        return [y.astype(x.dtype), m.astype(u), v.astype(u)]
    return ref


def _bn_special(p, nhwc, training):
    def special(dt):
        u = _param_dtype(dt)
        c = nhwc[3]
        x = np.linspace(-1, 2, int(np.prod(nhwc))).reshape(p.shape(nhwc)).astype(dt)
        xn = _nhwc(x, p.fmt)
        xn[0, 0, 0, 0] = np.nan  # channel 0's statistics (training) or its element (inference) are NaN
        xn[0, 0, 1, 1 % c] = np.inf
        stats = [] if training else [np.zeros(c, u), np.ones(c, u)]
        cases = [[x, np.ones(c, u), np.zeros(c, u)] + stats]
        # An empty batch: no statistics (NaN mean and variance, as TF, also in inference).
        cases.append([np.zeros(p.shape((0,) + tuple(nhwc[1:])), dt), np.ones(c, u), np.zeros(c, u)] + stats)
        return cases
    return special


def _bn_grad_fn(p, training):
    def fn(x, scale, offset, *rest):
        dy = rest[-1]
        stats = rest[:-1]
        return _vjp(lambda a, b, o: _bn_fn(p, training)(a, b, o, *stats)[0], [x, scale, offset], [dy])
    return fn


def _bn_grad_ref(p, training):
    def ref(x, scale, offset, *rest):
        dy = rest[-1].astype(F64)
        stats = [s.astype(F64) for s in rest[:-1]]

        def y_of(a, b, o):
            return _bn_forward(a, b, o, BN_EPS, p.fmt, *(stats or [None, None]))[0]
        args = [x.astype(F64), scale.astype(F64), offset.astype(F64)]
        grads = [_complex_step_vjp(y_of, args, k, dy) for k in range(3)]
        return [grads[0].astype(x.dtype), grads[1].astype(scale.dtype), grads[2].astype(scale.dtype)]
    return ref


BN_TOL = dict(rtol={np.float16: 1e-2, np.float32: 2e-5}, atol={np.float16: 1e-2, np.float32: 2e-5})


def _bn_rows():
    nhwc_p, nchw_p = ConvParams("NHWC", "VALID"), ConvParams("NCHW", "VALID")
    shape = (2, 3, 2, 3)
    return [
        # Training: the batch mean/variance outputs have no gradient in TF (only y's is propagated), so
        # the numerical gradient check of this row is w.r.t. offset only (y's gradients: the next rows).
        Row("FusedBatchNorm", _bn_fn(nhwc_p, True), _bn_ref(nhwc_p, True), _bn_inputs(nhwc_p, shape, True),
            special=_bn_special(nhwc_p, shape, True), grad=[2], name="FusedBatchNorm-NHWC-train", **BN_TOL),
        Row("FusedBatchNorm", lambda *a: _bn_fn(nchw_p, True)(*a)[0],
            lambda *a: _bn_ref(nchw_p, True)(*a)[0], _bn_inputs(nchw_p, shape, True), special=False,
            name="FusedBatchNorm-NCHW-train-y", **BN_TOL),
        Row("FusedBatchNorm", _bn_fn(nhwc_p, False), _bn_ref(nhwc_p, False), _bn_inputs(nhwc_p, shape, False),
            special=_bn_special(nhwc_p, shape, False), grad=[0, 1, 2], name="FusedBatchNorm-NHWC-inference",
            note="TF gives the population mean/variance inputs no gradient", **BN_TOL),
        Row("FusedBatchNormV3", _bn_v3_fn(nhwc_p, False), _bn_ref(nhwc_p, False), _bn_inputs(nhwc_p, shape, False),
            special=_bn_special(nhwc_p, shape, False), grad=[0, 1, 2], name="FusedBatchNormV3-NHWC-inference",
            note="TF gives the population mean/variance inputs no gradient", **BN_TOL),
        Row("FusedBatchNormGrad", _bn_grad_fn(nhwc_p, True), _bn_grad_ref(nhwc_p, True),
            _bn_inputs(nhwc_p, shape, True, True), special=False, grad=[0, 1, 3],
            name="FusedBatchNormGrad-NHWC-train", grad_tol=1e-4, **BN_TOL),
        Row("FusedBatchNormGrad", _bn_grad_fn(nchw_p, True), _bn_grad_ref(nchw_p, True),
            _bn_inputs(nchw_p, shape, True, True), special=False, grad=[0, 1, 3],
            name="FusedBatchNormGrad-NCHW-train", grad_tol=1e-4, **BN_TOL),
        Row("FusedBatchNormGrad", _bn_grad_fn(nhwc_p, False), _bn_grad_ref(nhwc_p, False),
            _bn_inputs(nhwc_p, shape, False, True), special=False, grad=[0, 1, 5],
            name="FusedBatchNormGrad-NHWC-inference", **BN_TOL),
    ]


ROWS = ACTIVATION_ROWS + ACTIVATION_GRAD_ROWS + SOFTMAX_ROWS + OTHER_NN_ROWS + _conv_rows() + _pool_rows() + \
    _bn_rows()
