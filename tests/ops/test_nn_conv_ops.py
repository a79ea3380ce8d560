"""Convolution, pooling and fused batch norm: forward values vs loop references, TF's SAME/VALID
geometry, gradients (first and second order), static shapes with unknown dims, error paths."""

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.op_harness import check_forward, check_gradient

RNG = np.random.RandomState(0)


# ---- loop references (NHWC; spatial pairs are (height, width)) --------------------------------
def out_and_pad(size, k, s, d, padding):
    """TF's output size and padding before, for one spatial dimension."""
    ek = (k - 1) * d + 1
    if isinstance(padding, tuple):
        return (size + padding[0] + padding[1] - ek) // s + 1, padding[0]
    if padding == "VALID":
        return (size - ek) // s + 1, 0
    out = -(-size // s)
    return out, max((out - 1) * s + ek - size, 0) // 2


def windows(h, w, kh, kw, strides, padding, dil=(1, 1)):
    """Yields (i, j, a, b, r, q): output pixel, tap, and the input pixel it reads (in range only)."""
    pad_h = padding if not isinstance(padding, list) else padding[0]
    pad_w = padding if not isinstance(padding, list) else padding[1]
    oh, pt = out_and_pad(h, kh, strides[0], dil[0], pad_h)
    ow, pl = out_and_pad(w, kw, strides[1], dil[1], pad_w)
    for i in range(oh):
        for j in range(ow):
            for a in range(kh):
                for b in range(kw):
                    r, q = i * strides[0] + a * dil[0] - pt, j * strides[1] + b * dil[1] - pl
                    if 0 <= r < h and 0 <= q < w:
                        yield i, j, a, b, r, q


def out_hw(h, w, kh, kw, strides, padding, dil=(1, 1)):
    pad_h = padding if not isinstance(padding, list) else padding[0]
    pad_w = padding if not isinstance(padding, list) else padding[1]
    return (out_and_pad(h, kh, strides[0], dil[0], pad_h)[0], out_and_pad(w, kw, strides[1], dil[1], pad_w)[0])


def ref_conv(x, f, strides=(1, 1), padding="SAME", dil=(1, 1)):
    n, h, w, _ = x.shape
    kh, kw, _, o = f.shape
    out = np.zeros((n,) + out_hw(h, w, kh, kw, strides, padding, dil) + (o,))
    for i, j, a, b, r, q in windows(h, w, kh, kw, strides, padding, dil):
        out[:, i, j] += x[:, r, q] @ f[a, b]
    return out.astype(x.dtype)


def ref_conv_input_grad(in_shape, f, dy, strides=(1, 1), padding="SAME", dil=(1, 1)):
    n, h, w, c = in_shape
    dx = np.zeros(in_shape)
    for i, j, a, b, r, q in windows(h, w, f.shape[0], f.shape[1], strides, padding, dil):
        dx[:, r, q] += dy[:, i, j] @ f[a, b].T
    return dx.astype(dy.dtype)


def ref_conv_filter_grad(x, f_shape, dy, strides=(1, 1), padding="SAME", dil=(1, 1)):
    _, h, w, _ = x.shape
    df = np.zeros(f_shape)
    for i, j, a, b, r, q in windows(h, w, f_shape[0], f_shape[1], strides, padding, dil):
        df[a, b] += x[:, r, q].T @ dy[:, i, j]
    return df.astype(x.dtype)


def ref_depthwise(x, f, strides=(1, 1), padding="SAME", dil=(1, 1)):
    n, h, w, c = x.shape
    kh, kw, _, m = f.shape
    out = np.zeros((n,) + out_hw(h, w, kh, kw, strides, padding, dil) + (c, m))
    for i, j, a, b, r, q in windows(h, w, kh, kw, strides, padding, dil):
        out[:, i, j] += x[:, r, q, :, None] * f[a, b]
    return out.reshape(out.shape[:3] + (c * m,)).astype(x.dtype)


def ref_pool(x, k, strides, padding, mode):
    n, h, w, c = x.shape
    oh, ow = out_hw(h, w, k[0], k[1], strides, padding)
    cells = [[[] for _ in range(ow)] for _ in range(oh)]
    for i, j, a, b, r, q in windows(h, w, k[0], k[1], strides, padding):
        cells[i][j].append(x[:, r, q])
    reduce = np.max if mode == "max" else np.mean
    return np.array([[reduce(np.stack(cells[i][j]), axis=0) for j in range(ow)] for i in range(oh)],
                    dtype=x.dtype).transpose(2, 0, 1, 3)


def nchw(fn):
    """A reference on NHWC arrays applied to NCHW ones (the first argument and the result)."""
    def g(x, *rest):
        return fn(x.transpose(0, 2, 3, 1), *rest).transpose(0, 3, 1, 2)
    return g


def rand(*shape):
    return RNG.randn(*shape).astype(np.float32)


# ---- forward ---------------------------------------------------------------------------------
X = rand(2, 7, 6, 3)
F = rand(3, 3, 3, 4)
CONV_CASES = [
    # (id, strides, padding, dilations, x shape, filter shape)
    ("same", (1, 1), "SAME", (1, 1), (2, 7, 6, 3), (3, 3, 3, 4)),
    ("valid", (1, 1), "VALID", (1, 1), (2, 7, 6, 3), (3, 3, 3, 4)),
    ("same_stride2_odd", (2, 2), "SAME", (1, 1), (2, 7, 5, 3), (3, 3, 3, 2)),
    ("same_stride2_even", (2, 2), "SAME", (1, 1), (1, 6, 8, 2), (3, 3, 2, 2)),
    ("valid_stride_2_3", (2, 3), "VALID", (1, 1), (2, 9, 10, 2), (3, 2, 2, 3)),
    ("same_dilated", (1, 1), "SAME", (2, 2), (1, 7, 7, 2), (3, 3, 2, 3)),
    ("valid_dilated_2_1", (1, 1), "VALID", (2, 1), (1, 8, 6, 3), (2, 3, 3, 2)),
    ("same_1ch", (1, 1), "SAME", (1, 1), (3, 5, 5, 1), (3, 3, 1, 4)),
    ("same_even_kernel", (1, 1), "SAME", (1, 1), (1, 5, 6, 2), (2, 4, 2, 3)),
    ("valid_1x1", (1, 1), "VALID", (1, 1), (2, 4, 4, 3), (1, 1, 3, 5)),
    ("same_stride_bigger_than_kernel", (3, 3), "SAME", (1, 1), (1, 8, 7, 2), (2, 2, 2, 2)),
    ("explicit", (1, 2), [(1, 2), (0, 3)], (1, 1), (1, 5, 6, 2), (3, 3, 2, 2)),
    ("explicit_tap_reads_only_padding", (1, 1), [(4, 0), (0, 0)], (1, 1), (2, 1, 3, 2), (3, 3, 2, 2)),
]


def _nhwc_attr(pair):
    return [1, pair[0], pair[1], 1]


def _tf_padding(padding, data_format="NHWC"):
    if isinstance(padding, list):
        return [[0, 0], list(padding[0]), list(padding[1]), [0, 0]] if data_format == "NHWC" else \
            [[0, 0], [0, 0], list(padding[0]), list(padding[1])]
    return padding


@pytest.mark.parametrize("case", CONV_CASES, ids=[c[0] for c in CONV_CASES])
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_conv2d_forward(case, data_format):
    _, strides, padding, dil, xs, fs = case
    x, f = rand(*xs), rand(*fs)

    def ref(x, f):
        return ref_conv(x, f, strides, padding, dil)

    if data_format == "NHWC":
        check_forward(lambda x, f: tf.nn.conv2d(x, f, strides, _tf_padding(padding), dilations=list(dil)),
                      ref, x, f, rtol=1e-4, atol=1e-5)
    else:
        check_forward(lambda x, f: tf.nn.conv2d(x, f, list(strides), _tf_padding(padding, "NCHW"),
                                                data_format="NCHW", dilations=list(dil)),
                      nchw(ref), x.transpose(0, 3, 1, 2), f, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("case", CONV_CASES, ids=[c[0] for c in CONV_CASES])
def test_conv2d_backprops_forward(case):
    _, strides, padding, dil, xs, fs = case
    x, f = rand(*xs), rand(*fs)
    dy = rand(*ref_conv(x, f, strides, padding, dil).shape)
    kw = dict(strides=_nhwc_attr(strides), padding=_tf_padding(padding), dilations=_nhwc_attr(dil))
    check_forward(lambda f, dy: tf.nn.conv2d_backprop_input(list(xs), f, dy, **kw),
                  lambda f, dy: ref_conv_input_grad(xs, f, dy, strides, padding, dil), f, dy, rtol=1e-4, atol=1e-5)
    check_forward(lambda x, dy: tf.nn.conv2d_backprop_filter(x, list(fs), dy, **kw),
                  lambda x, dy: ref_conv_filter_grad(x, fs, dy, strides, padding, dil), x, dy, rtol=1e-4, atol=1e-4)


def test_conv2d_backprops_nchw():
    x, f = rand(2, 3, 7, 6), rand(3, 3, 3, 2)
    dy = rand(2, 2, 4, 3)
    kw = dict(strides=[1, 1, 2, 2], padding="SAME", data_format="NCHW")
    check_forward(lambda f, dy: tf.nn.conv2d_backprop_input([2, 3, 7, 6], f, dy, **kw),
                  lambda f, dy: ref_conv_input_grad((2, 7, 6, 3), f, dy.transpose(0, 2, 3, 1), (2, 2))
                  .transpose(0, 3, 1, 2), f, dy, rtol=1e-4, atol=1e-5)
    check_forward(lambda x, dy: tf.nn.conv2d_backprop_filter(x, [3, 3, 3, 2], dy, **kw),
                  lambda x, dy: ref_conv_filter_grad(x.transpose(0, 2, 3, 1), (3, 3, 3, 2), dy.transpose(0, 2, 3, 1),
                                                     (2, 2)), x, dy, rtol=1e-4, atol=1e-4)


def test_conv2d_same_padding_puts_the_extra_row_at_the_end():
    """TF's documented split: a 3x3 ones kernel, stride 2, on 4x4 ones pads 0 before, 1 after."""
    out = tf.nn.conv2d(np.ones((1, 4, 4, 1), np.float32), np.ones((3, 3, 1, 1), np.float32), 2, "SAME")
    out5 = tf.nn.conv2d(np.ones((1, 5, 5, 1), np.float32), np.ones((3, 3, 1, 1), np.float32), [2, 2], "SAME")
    with tf.Session() as sess:
        v, v5 = sess.run([out, out5])
    np.testing.assert_array_equal(v[0, :, :, 0], [[9, 6], [6, 4]])
    np.testing.assert_array_equal(v5[0, :, :, 0], [[4, 6, 4], [6, 9, 6], [4, 6, 4]])


def test_conv2d_float64_and_filters_keyword():
    x, f = RNG.randn(1, 4, 4, 2), RNG.randn(2, 2, 2, 3)
    check_forward(lambda x, f: tf.nn.conv2d(x, filters=f, strides=1, padding="VALID"), ref_conv_valid, x, f,
                  rtol=1e-12)


def ref_conv_valid(x, f):
    return ref_conv(x, f, padding="VALID")


def test_conv2d_transpose_and_conv1d_and_atrous():
    value, f = rand(2, 4, 3, 4), rand(3, 3, 2, 4)
    check_forward(lambda v, f: tf.nn.conv2d_transpose(v, f, [2, 7, 6, 2], [1, 2, 2, 1], "SAME"),
                  lambda v, f: ref_conv_input_grad((2, 7, 6, 2), f, v, (2, 2), "SAME"), value, f,
                  rtol=1e-4, atol=1e-5)
    check_forward(lambda v, f: tf.nn.conv2d_transpose(v, f, [2, 9, 7, 2], [1, 2, 2, 1], "VALID"),
                  lambda v, f: ref_conv_input_grad((2, 9, 7, 2), f, v, (2, 2), "VALID"), value, f,
                  rtol=1e-4, atol=1e-5)
    x1, f1 = rand(2, 9, 3), rand(3, 3, 4)
    check_forward(lambda x, f: tf.nn.conv1d(x, f, 2, "SAME"),
                  lambda x, f: ref_conv(x[:, None], f[None], (1, 2), "SAME")[:, 0], x1, f1, rtol=1e-4, atol=1e-5)
    check_forward(lambda x, f: tf.nn.conv1d(x, f, 1, "VALID", data_format="NCW"),
                  lambda x, f: ref_conv(x.transpose(0, 2, 1)[:, None], f[None], padding="VALID")[:, 0]
                  .transpose(0, 2, 1), x1.transpose(0, 2, 1), f1, rtol=1e-4, atol=1e-5)
    x, f = rand(1, 8, 8, 2), rand(3, 3, 2, 2)
    check_forward(lambda x, f: tf.nn.atrous_conv2d(x, f, 2, "SAME"), lambda x, f: ref_conv(x, f, dil=(2, 2)), x, f,
                  rtol=1e-4, atol=1e-5)


DEPTHWISE_CASES = [
    ("same", [1, 1, 1, 1], "SAME", None, (2, 6, 5, 3), (3, 3, 3, 2)),
    ("valid_stride2", [1, 2, 2, 1], "VALID", None, (2, 7, 6, 2), (3, 2, 2, 1)),
    ("same_rate2", [1, 1, 1, 1], "SAME", [2, 2], (1, 7, 7, 2), (3, 3, 2, 3)),
]


@pytest.mark.parametrize("case", DEPTHWISE_CASES, ids=[c[0] for c in DEPTHWISE_CASES])
def test_depthwise_forward(case):
    _, strides, padding, rate, xs, fs = case
    dil = tuple(rate) if rate else (1, 1)
    x, f = rand(*xs), rand(*fs)
    check_forward(lambda x, f: tf.nn.depthwise_conv2d(x, f, strides, padding, rate=rate),
                  lambda x, f: ref_depthwise(x, f, tuple(strides[1:3]), padding, dil), x, f, rtol=1e-4, atol=1e-5)
    check_forward(lambda x, f: tf.nn.depthwise_conv2d(x, f, [1] + [1] + strides[1:3], padding, rate=rate,
                                                      data_format="NCHW"),
                  nchw(lambda x, f: ref_depthwise(x, f, tuple(strides[1:3]), padding, dil)),
                  x.transpose(0, 3, 1, 2), f, rtol=1e-4, atol=1e-5)


def test_separable_conv2d():
    x, df, pf = rand(2, 5, 5, 2), rand(3, 3, 2, 2), rand(1, 1, 4, 3)
    check_forward(lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME"),
                  lambda x, d, p: ref_conv(ref_depthwise(x, d), p), x, df, pf, rtol=1e-4, atol=1e-5)


POOL_CASES = [
    ("2x2_s2_valid", (2, 2), (2, 2), "VALID", (2, 6, 8, 3)),
    ("2x2_s2_same_even", (2, 2), (2, 2), "SAME", (2, 6, 8, 3)),
    ("2x2_s2_same_odd", (2, 2), (2, 2), "SAME", (2, 7, 5, 3)),
    ("2x2_s2_valid_odd", (2, 2), (2, 2), "VALID", (1, 7, 5, 2)),
    ("3x3_s2_same", (3, 3), (2, 2), "SAME", (2, 7, 6, 2)),
    ("3x3_s1_same_overlap", (3, 3), (1, 1), "SAME", (1, 5, 4, 2)),
    ("3x2_s1_valid", (3, 2), (1, 1), "VALID", (1, 5, 4, 2)),
    ("2x2_s3_valid_gaps", (2, 2), (3, 3), "VALID", (1, 8, 7, 1)),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=[c[0] for c in POOL_CASES])
@pytest.mark.parametrize("mode", ["max", "avg"])
def test_pool_forward(case, mode):
    _, k, s, padding, xs = case
    x = rand(*xs)
    pool = tf.nn.max_pool if mode == "max" else tf.nn.avg_pool
    check_forward(lambda x: pool(x, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding),
                  lambda x: ref_pool(x, k, s, padding, mode), x, rtol=1e-5, atol=1e-6)
    check_forward(lambda x: pool(x, list(k), list(s), padding, data_format="NCHW"),
                  nchw(lambda x: ref_pool(x, k, s, padding, mode)), x.transpose(0, 3, 1, 2), rtol=1e-5, atol=1e-6)


def test_avg_pool_same_averages_valid_elements_only():
    x = np.array([[1., 2.], [3., 4.]], np.float32).reshape(1, 2, 2, 1)
    with tf.Session() as sess:
        v = sess.run(tf.nn.avg_pool(x, 2, 1, "SAME"))
    np.testing.assert_array_equal(v[0, :, :, 0], [[2.5, 3.], [3.5, 4.]])


def test_max_pool_int_and_negative_values():
    x = -np.arange(1, 26, dtype=np.int32).reshape(1, 5, 5, 1)
    check_forward(lambda x: tf.nn.max_pool(x, 2, 2, "SAME"), lambda x: ref_pool(x, (2, 2), (2, 2), "SAME", "max"), x)


def test_max_pool_grad_routes_ties_to_the_first_max():
    x = tf.constant(np.zeros((1, 3, 3, 1), np.float32))
    y2 = tf.nn.max_pool(x, 2, 2, "VALID")
    y1 = tf.nn.max_pool(x, 2, 1, "VALID")
    g2, g1 = tf.gradients(y2, x)[0], tf.gradients(y1, x)[0]
    with tf.Session() as sess:
        v2, v1 = sess.run([g2, g1])
    np.testing.assert_array_equal(v2[0, :, :, 0], [[1, 0, 0], [0, 0, 0], [0, 0, 0]])
    np.testing.assert_array_equal(v1[0, :, :, 0], [[1, 1, 0], [1, 1, 0], [0, 0, 0]])


def test_max_pool_grad_same_padding_with_negative_infinity():
    """Padding never takes the gradient, even when the window's max is -inf."""
    x = tf.constant(np.full((1, 3, 3, 1), -np.inf, np.float32))
    g = tf.gradients(tf.nn.max_pool(x, 2, 2, "SAME"), x)[0]
    with tf.Session() as sess:
        v = sess.run(g)
    np.testing.assert_array_equal(v[0, :, :, 0], [[1, 0, 1], [0, 0, 0], [1, 0, 1]])



# (window values, TF's max_pool, TF's MaxPoolGrad routing index): TF's CPU kernel starts each output at
# the dtype's lowest finite value and keeps it unless an input is greater (NaN never is, so a window of
# NaN and -inf gives the lowest finite value); its gradient goes to the first input of the window, or a
# later one greater than the one held (a leading NaN keeps it).
MAX_POOL_NAN_CASES = [
    ([np.nan, 1, np.inf, 2], np.inf, 0),
    ([1, np.nan, np.inf, 2], np.inf, 2),
    ([1, 2, np.nan, 0], 2, 1),
    ([np.nan] * 4, "lowest", 0),
    ([-np.inf] * 4, "lowest", 0),
    ([np.nan, -np.inf, -np.inf, np.nan], "lowest", 0),
    ([2, np.nan, 2, 1], 2, 0),
    ([-np.inf, np.nan, -np.inf, -np.inf], "lowest", 0),
    ([1, 2, 3, np.nan], 3, 2),
]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("values,expected,routed", MAX_POOL_NAN_CASES)
def test_max_pool_nan_and_infinities_follow_tf(values, expected, routed, dtype):
    x = tf.constant(np.array(values, dtype).reshape(1, 2, 2, 1))
    y = tf.nn.max_pool(x, 2, 2, "VALID")
    g = tf.gradients(y, x)[0]
    with tf.Session() as sess:
        yv, gv = sess.run([y, g])
    exp = np.finfo(dtype).min if expected == "lowest" else expected
    assert yv.dtype == dtype and yv.ravel().tolist() == [exp]
    assert gv.ravel().tolist() == [1.0 if k == routed else 0.0 for k in range(4)]


def test_max_pool_nan_with_padding_follows_tf():
    """SAME padding: the gradient goes to a window's first non-padding input when that one is NaN;
    MaxPoolGradGrad takes the first input equal to the pooled value (none: 0)."""
    cases = [([np.nan, 1, 2], [1, 2, 2], [11, 0, 100], [2, 4, 4]),
             ([-np.inf, -np.inf, 5], ["lowest", 5, 5], [1, 0, 110], [0, 4, 4]),
             ([1, np.nan, np.nan], [1, 1, "lowest"], [11, 100, 0], [1, 1, 0]),
             ([np.nan] * 3, ["lowest"] * 3, [11, 100, 0], [0, 0, 0])]
    low = np.finfo(np.float32).min
    for values, y_exp, g_exp, gg_exp in cases:
        x = tf.constant(np.array(values, np.float32).reshape(1, 1, 3, 1))
        y = tf.nn.max_pool(x, [1, 1, 3, 1], [1, 1, 1, 1], "SAME")
        dy = tf.constant(np.array([1, 10, 100], np.float32).reshape(1, 1, 3, 1))
        g = tf.gradients(y, x, grad_ys=dy)[0]
        gg = tf.gradients(g, dy, grad_ys=tf.constant(np.array([1, 2, 4], np.float32).reshape(1, 1, 3, 1)))[0]
        with tf.Session() as sess:
            yv, gv, ggv = sess.run([y, g, gg])
        assert yv.ravel().tolist() == [low if v == "lowest" else v for v in y_exp]
        assert gv.ravel().tolist() == g_exp and ggv.ravel().tolist() == gg_exp



def test_max_pool_grad_adds_overlapping_windows_in_output_order():
    """TF adds the gradients of overlapping windows at an input in the order of the outputs (seen
    in float16: 2048 + 1 + 1 rounds to 2048, 1 + 1 + 2048 is 2050)."""
    x = tf.constant(np.array([0, 0, 5, 0, 0], np.float16).reshape(1, 1, 5, 1))
    y = tf.nn.max_pool(x, [1, 1, 3, 1], [1, 1, 1, 1], "VALID")
    out = []
    for dy in ([2048, 1, 1], [1, 1, 2048]):
        out.append(tf.gradients(y, x, grad_ys=tf.constant(np.array(dy, np.float16).reshape(1, 1, 3, 1)))[0])
    with tf.Session() as sess:
        a, b = sess.run(out)
    assert a.ravel().tolist() == [0, 0, 2048, 0, 0] and b.ravel().tolist() == [0, 0, 2050, 0, 0]

def test_max_pool_signed_zeros_keep_the_first():
    windows = [[-0.0, 0.0, 0.0, -0.0], [0.0, -0.0, -0.0, 0.0], [-1.0, -0.0, 0.0, -0.0]]
    x = tf.constant(np.array(windows, np.float32).reshape(3, 2, 2, 1))
    with tf.Session() as sess:
        v = sess.run(tf.nn.max_pool(x, 2, 2, "VALID"))
    assert np.signbit(v).ravel().tolist() == [True, False, True] and not v.any()
    xi = tf.constant(np.array([-2 ** 31, -2 ** 31, 5], np.int32).reshape(1, 1, 3, 1))
    with tf.Session() as sess:
        assert sess.run(tf.nn.max_pool(xi, [1, 1, 3, 1], [1, 1, 1, 1], "SAME")).ravel().tolist() == [-2 ** 31, 5, 5]


@pytest.mark.parametrize("is_training", [True, False])
def test_fused_batch_norm_of_an_empty_batch(is_training):
    """TF: an empty batch gives NaN batch statistics (in inference too), zero scale and offset
    gradients, and no NumPy warning."""
    x = tf.placeholder(tf.float32, [None, 2, 2, 3])
    scale, offset = tf.constant([1.0, 2.0, 3.0]), tf.zeros([3])
    stats = {} if is_training else {"mean": tf.zeros([3]), "variance": tf.ones([3])}
    y, m, v = tf.nn.fused_batch_norm(x, scale, offset, is_training=is_training, **stats)
    grads = tf.gradients(y, [x, scale, offset], grad_ys=tf.ones_like(y))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tf.Session() as sess:
            yv, mv, vv, gx, gs, go = sess.run([y, m, v] + grads, {x: np.zeros((0, 2, 2, 3), np.float32)})
    assert yv.shape == gx.shape == (0, 2, 2, 3)
    assert np.isnan(mv).all() and np.isnan(vv).all() and mv.shape == vv.shape == (3,)
    assert gs.tolist() == [0.0] * 3 and go.tolist() == [0.0] * 3


@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_depthwise_backprops_in_float16_accumulate_in_float32_whatever_the_layout(fmt, padding):
    """float16 depthwise backprops sum in float32 and round once (TF's CPU kernels), so the result
    is the float32 computation rounded, and it does not depend on how the fed arrays are laid out."""
    from tensorweave.ops import nn_depthwise_ops
    rng = np.random.RandomState(4)
    nhwc = (2, 7, 6, 3)
    shape = nhwc if fmt == "NHWC" else (2, 3, 7, 6)
    f = rng.uniform(-1, 1, (3, 3, 3, 2)).astype(np.float16)
    x = rng.uniform(-8, 8, shape).astype(np.float16)
    attrs = dict(strides=[1, 1, 1, 1], padding=padding, explicit_paddings=[], data_format=fmt,
                 dilations=[1, 1, 1, 1])
    oh, ow = (7, 6) if padding == "SAME" else (5, 4)
    dy = rng.uniform(-8, 8, (2, oh, ow, 6) if fmt == "NHWC" else (2, 6, oh, ow)).astype(np.float16)

    def strided(a):  # the same values in another memory layout
        return np.asfortranarray(a)

    fsizes, xsizes = np.array(f.shape, np.int32), np.array(x.shape, np.int32)
    bf = [nn_depthwise_ops._depthwise_backprop_filter_kernel(np, xx, fsizes, dd, **attrs)
          for xx, dd in ((x, dy), (strided(x), strided(dy)))]
    bi = [nn_depthwise_ops._depthwise_backprop_input_kernel(np, xsizes, ff, dd, **attrs)
          for ff, dd in ((f, dy), (strided(f), strided(dy)))]
    ref_f = nn_depthwise_ops._depthwise_backprop_filter_kernel(np, x.astype(np.float32), fsizes,
                                                                dy.astype(np.float32), **attrs).astype(np.float16)
    ref_i = nn_depthwise_ops._depthwise_backprop_input_kernel(np, xsizes, f.astype(np.float32),
                                                               dy.astype(np.float32), **attrs).astype(np.float16)
    for got in bf:
        assert got.dtype == np.float16
        np.testing.assert_array_equal(got.view(np.int16), ref_f.view(np.int16))
    for got in bi:
        assert got.dtype == np.float16
        np.testing.assert_array_equal(got.view(np.int16), ref_i.view(np.int16))

def _bn_ref(x, scale, offset, axes, eps, mean=None, var=None):
    training = mean is None
    shape = [1] * 4
    c = 3 if axes == (0, 1, 2) else 1
    shape[c] = -1
    if training:
        mean, var = x.mean(axes), x.var(axes)
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * scale.reshape(shape) + offset.reshape(shape)
    if training:
        n = x.size / x.shape[c]
        return y.astype(x.dtype), mean, var * n / (n - 1)
    return y.astype(x.dtype), mean, var


def test_fused_batch_norm_forward():
    x, s, o = rand(2, 3, 4, 3), rand(3), rand(3)
    check_forward(lambda x, s, o: tf.nn.fused_batch_norm(x, s, o), lambda x, s, o: _bn_ref(x, s, o, (0, 1, 2), 1e-3),
                  x, s, o, rtol=1e-4, atol=1e-5)
    xc = x.transpose(0, 3, 1, 2)
    check_forward(lambda x, s, o: tf.nn.fused_batch_norm(x, s, o, epsilon=1e-7, data_format="NCHW"),
                  lambda x, s, o: _bn_ref(x, s, o, (0, 2, 3), 1.001e-5), xc, s, o, rtol=1e-4, atol=1e-5)
    m, v = rand(3), RNG.rand(3).astype(np.float32) + 0.5
    check_forward(lambda x, s, o, m, v: tf.nn.fused_batch_norm(x, s, o, m, v, is_training=False),
                  lambda x, s, o, m, v: _bn_ref(x, s, o, (0, 1, 2), 1e-3, m, v), x, s, o, m, v, rtol=1e-4, atol=1e-5)


# ---- gradients -------------------------------------------------------------------------------
def r64(*shape):
    return RNG.randn(*shape)


def distinct(*shape):
    """Values far apart (no ties: max pooling is differentiable there)."""
    return RNG.permutation(int(np.prod(shape))).reshape(shape) * 0.1


GRADIENTS = [
    ("conv2d_same", lambda x, f: tf.nn.conv2d(x, f, 1, "SAME"), [r64(2, 4, 4, 2), r64(3, 3, 2, 3)]),
    ("conv2d_valid_stride2", lambda x, f: tf.nn.conv2d(x, f, 2, "VALID"), [r64(1, 5, 6, 2), r64(2, 3, 2, 2)]),
    ("conv2d_same_stride2_odd", lambda x, f: tf.nn.conv2d(x, f, 2, "SAME"), [r64(1, 5, 5, 1), r64(3, 3, 1, 2)]),
    ("conv2d_dilated_nchw", lambda x, f: tf.nn.conv2d(x, f, 1, "SAME", data_format="NCHW", dilations=2),
     [r64(1, 2, 5, 5), r64(2, 2, 2, 2)]),
    ("conv2d_explicit", lambda x, f: tf.nn.conv2d(x, f, 1, [[0, 0], [1, 0], [2, 1], [0, 0]]),
     [r64(1, 4, 3, 2), r64(2, 3, 2, 2)]),
    ("conv2d_backprop_input", lambda f, dy: tf.nn.conv2d_backprop_input([1, 5, 5, 2], f, dy, [1, 2, 2, 1], "SAME"),
     [r64(3, 3, 2, 2), r64(1, 3, 3, 2)]),
    ("conv2d_backprop_filter", lambda x, dy: tf.nn.conv2d_backprop_filter(x, [3, 3, 2, 2], dy, [1, 2, 2, 1], "SAME"),
     [r64(1, 5, 5, 2), r64(1, 3, 3, 2)]),
    ("conv2d_transpose", lambda v, f: tf.nn.conv2d_transpose(v, f, [1, 6, 5, 2], [1, 2, 2, 1], "SAME"),
     [r64(1, 3, 3, 3), r64(3, 3, 2, 3)]),
    ("depthwise", lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"), [r64(1, 4, 4, 2), r64(3, 3, 2, 2)]),
    ("depthwise_stride2_nchw",
     lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 2, 2], "VALID", data_format="NCHW"),
     [r64(1, 2, 5, 5), r64(2, 2, 2, 1)]),
    ("max_pool_valid", lambda x: tf.nn.max_pool(x, 2, 2, "VALID"), [distinct(2, 4, 5, 2)]),
    ("max_pool_same_overlap", lambda x: tf.nn.max_pool(x, 3, 2, "SAME"), [distinct(1, 5, 4, 2)]),
    ("max_pool_nchw", lambda x: tf.nn.max_pool(x, 2, 1, "SAME", data_format="NCHW"), [distinct(1, 2, 3, 3)]),
    ("avg_pool_same", lambda x: tf.nn.avg_pool(x, 3, 2, "SAME"), [r64(1, 5, 4, 2)]),
    ("avg_pool_valid_nchw", lambda x: tf.nn.avg_pool(x, 2, 2, "VALID", data_format="NCHW"), [r64(2, 2, 4, 5)]),
    ("fused_batch_norm", lambda x, s, o: tf.nn.fused_batch_norm(x, s, o)[0], [r64(2, 3, 2, 3), r64(3), r64(3)]),
    ("fused_batch_norm_nchw", lambda x, s, o: tf.nn.fused_batch_norm(x, s, o, data_format="NCHW")[0],
     [r64(2, 3, 2, 2), r64(3), r64(3)]),
    ("fused_batch_norm_inference",
     lambda x, s, o: tf.nn.fused_batch_norm(x, s, o, [0.1, -0.2, 0.3], [1.5, 0.5, 2.0], is_training=False)[0],
     [r64(2, 3, 2, 3), r64(3), r64(3)]),
]


@pytest.mark.parametrize("name,fn,arrays", GRADIENTS, ids=[r[0] for r in GRADIENTS])
def test_gradient(name, fn, arrays):
    check_gradient(fn, *arrays, tol=1e-5)


SECOND_ORDER = [
    ("conv2d_dx", lambda x, f: tf.gradients(tf.reduce_sum(tf.square(tf.nn.conv2d(x, f, 2, "SAME"))), x)[0],
     [r64(1, 5, 5, 2), r64(3, 3, 2, 2)]),
    ("conv2d_df", lambda x, f: tf.gradients(tf.reduce_sum(tf.square(tf.nn.conv2d(x, f, 1, "VALID"))), f)[0],
     [r64(1, 4, 4, 2), r64(2, 2, 2, 2)]),
    ("depthwise_dx", lambda x, f: tf.gradients(tf.reduce_sum(tf.square(tf.nn.depthwise_conv2d(
        x, f, [1, 1, 1, 1], "SAME"))), x)[0], [r64(1, 3, 3, 2), r64(2, 2, 2, 2)]),
    ("max_pool", lambda x, w: tf.gradients(tf.reduce_sum(tf.nn.max_pool(x, 2, 1, "SAME") * w), x)[0],
     [distinct(1, 3, 3, 2), r64(1, 3, 3, 2)]),
    ("avg_pool", lambda x, w: tf.gradients(tf.reduce_sum(tf.square(tf.nn.avg_pool(x, 2, 1, "SAME") * w)), x)[0],
     [r64(1, 3, 3, 2), r64(1, 3, 3, 2)]),
    ("fused_batch_norm", lambda x, s, o: tf.gradients(tf.reduce_sum(
        tf.square(tf.nn.fused_batch_norm(x, s, o)[0]) * np.arange(1., 3.)), x)[0], [r64(2, 2, 2, 2), r64(2), r64(2)]),
]


@pytest.mark.parametrize("name,fn,arrays", SECOND_ORDER, ids=[r[0] for r in SECOND_ORDER])
def test_second_order_gradient(name, fn, arrays):
    check_gradient(fn, *arrays, tol=1e-5)


def test_conv2d_gradient_op_types():
    x = tf.placeholder(tf.float32, [None, 8, 8, 3])
    f = tf.zeros([3, 3, 3, 4])
    y = tf.nn.max_pool(tf.nn.avg_pool(tf.nn.conv2d(x, f, 1, "SAME"), 2, 1, "SAME"), 2, 2, "VALID")
    dx, df = tf.gradients(y, [x, f])
    types = {op.type for op in tf.get_default_graph().get_operations()}
    assert {"Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPoolGrad", "AvgPoolGrad"} <= types
    assert dx.shape.as_list() == [None, 8, 8, 3] and df.shape.as_list() == [3, 3, 3, 4]


# ---- static shapes ---------------------------------------------------------------------------
def test_static_shapes_with_unknown_batch():
    x = tf.placeholder(tf.float32, [None, 28, 28, 1])
    h = tf.nn.conv2d(x, tf.zeros([3, 3, 1, 32]), [1, 1, 1, 1], "SAME")
    assert h.shape.as_list() == [None, 28, 28, 32]
    p = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    assert p.shape.as_list() == [None, 14, 14, 32]
    h2 = tf.nn.conv2d(p, tf.zeros([5, 5, 32, 64]), 2, "VALID")
    assert h2.shape.as_list() == [None, 5, 5, 64]
    assert tf.nn.avg_pool(h2, 3, 2, "SAME").shape.as_list() == [None, 3, 3, 64]
    xc = tf.placeholder(tf.float32, [None, 3, 9, None])
    assert tf.nn.conv2d(xc, tf.zeros([3, 3, 3, 8]), 2, "SAME", data_format="NCHW").shape.as_list() == [None, 8, 5,
                                                                                                         None]
    assert tf.nn.depthwise_conv2d(x, tf.zeros([3, 3, 1, 4]), [1, 2, 2, 1], "VALID").shape.as_list() == [None, 13,
                                                                                                          13, 4]
    t = tf.nn.conv2d_transpose(tf.placeholder(tf.float32, [None, 7, 7, 8]), tf.zeros([3, 3, 4, 8]),
                               [16, 14, 14, 4], [1, 2, 2, 1])
    assert t.shape.as_list() == [16, 14, 14, 4]
    v = tf.placeholder(tf.float32, [None, 7, 7, 8])
    t = tf.nn.conv2d_transpose(v, tf.zeros([3, 3, 4, 8]), tf.stack([tf.shape(v)[0], 14, 14, 4]), [1, 2, 2, 1])
    assert t.shape.as_list() == [None, 14, 14, 4]
    dx = tf.gradients(tf.reduce_sum(h2), x)[0]
    assert dx.shape.as_list() == [None, 28, 28, 1]
    assert tf.nn.conv2d(tf.placeholder(tf.float32), tf.zeros([3, 3, 2, 5]), 1, "SAME").shape.as_list() == \
        [None, None, None, 5]
    y, m, v = tf.nn.fused_batch_norm(tf.placeholder(tf.float32, [None, 4, 4, 6]), tf.ones([6]), tf.zeros([6]))
    assert y.shape.as_list() == [None, 4, 4, 6] and m.shape.as_list() == [6] and v.shape.as_list() == [6]


def test_unknown_batch_runs():
    x = tf.placeholder(tf.float32, [None, 6, 6, 2])
    f = rand(3, 3, 2, 3)
    y = tf.nn.max_pool(tf.nn.conv2d(x, f, 1, "SAME"), 2, 2, "VALID")
    g = tf.gradients(tf.reduce_sum(y), x)[0]
    xv = rand(3, 6, 6, 2)
    with tf.Session() as sess:
        yv, gv = sess.run([y, g], {x: xv})
    np.testing.assert_allclose(yv, ref_pool(ref_conv(xv, f), (2, 2), (2, 2), "VALID", "max"), rtol=1e-4, atol=1e-5)
    assert gv.shape == xv.shape


# ---- errors ----------------------------------------------------------------------------------
def test_errors_at_graph_construction():
    x = tf.placeholder(tf.float32, [1, 5, 5, 3])
    with pytest.raises(ValueError, match="Attr 'padding' of 'Conv2D' Op passed string 'SMAE' not in"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 3, 2]), 1, "SMAE")
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 2, 2]), 1, "SAME")
    with pytest.raises(ValueError, match="strides should be of length 1, 2 or 4 but was 3"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 3, 2]), [1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 7 from 5"):
        tf.nn.conv2d(x, tf.zeros([7, 3, 3, 2]), 1, "VALID")
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
        tf.nn.conv2d(tf.zeros([5, 5, 3]), tf.zeros([3, 3, 3, 2]), 1, "SAME")
    with pytest.raises(ValueError, match="Attr 'data_format' of 'Conv2D' Op passed string 'NWHC'"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 3, 2]), 1, "SAME", data_format="NWHC")
    with pytest.raises(ValueError, match="'EXPLICIT' is not a valid value"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 3, 2]), 1, "EXPLICIT")
    with pytest.raises(ValueError, match="Nonzero explicit padding in the batch or depth"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 3, 2]), 1, [[1, 0], [1, 1], [1, 1], [0, 0]])
    with pytest.raises(TypeError, match="Input 'filter' of 'Conv2D' Op has type float64"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 3, 2], tf.float64), 1, "SAME")
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.nn.conv2d(tf.zeros([1, 5, 5, 3], tf.int32), tf.zeros([3, 3, 3, 2], tf.int32), 1, "SAME")
    with pytest.raises(ValueError, match="Attr 'padding' of 'MaxPool' Op passed string 'same' not in"):
        tf.nn.max_pool(x, 2, 2, "same")
    with pytest.raises(ValueError, match="ksize should be of length 1, 2 or 4 but was 3"):
        tf.nn.avg_pool(x, [2, 2, 2], 2, "SAME")
    with pytest.raises(ValueError, match="ksize cannot be zero"):
        tf.nn.max_pool(x, [1, 0, 2, 1], 2, "SAME")
    with pytest.raises(ValueError, match="Negative dimension size"):
        tf.nn.max_pool(x, 6, 1, "VALID")
    with pytest.raises(ValueError, match="input channels does not match filter's input channels, 3 != 4"):
        tf.nn.conv2d_transpose(x, tf.zeros([3, 3, 2, 4]), [1, 10, 10, 2], [1, 2, 2, 1])
    with pytest.raises(ValueError, match="output_shape does not match filter's output channels, 5 != 2"):
        tf.nn.conv2d_transpose(x, tf.zeros([3, 3, 2, 3]), [1, 10, 10, 5], [1, 2, 2, 1])
    with pytest.raises(ValueError, match="Both 'mean' and 'variance' must be None if is_training is True."):
        tf.nn.fused_batch_norm(x, tf.ones([3]), tf.zeros([3]), mean=tf.zeros([3]))
    with pytest.raises(ValueError, match="strides > 1 not supported in conjunction with dilation_rate > 1"):
        tf.nn.depthwise_conv2d(x, tf.zeros([3, 3, 3, 1]), [1, 2, 2, 1], "SAME", rate=[2, 2])


def test_errors_at_run_time():
    x = tf.placeholder(tf.float32, [None, None, None, None])
    cases = [
        (tf.nn.conv2d(x, tf.zeros([3, 3, 3, 2]), [2, 1, 1, 1], "SAME"), tf.errors.InvalidArgumentError,
         "does not yet support strides in the batch and depth dimensions"),
        (tf.nn.conv2d(x, tf.zeros([3, 3, 2, 2]), 1, "SAME"), tf.errors.InvalidArgumentError,
         "input and filter must have the same depth: 3 vs 2"),
        (tf.nn.conv2d(x, tf.zeros([9, 3, 3, 2]), 1, "VALID"), tf.errors.InvalidArgumentError,
         "Computed output size would be negative"),
        (tf.nn.conv2d_transpose(x, tf.zeros([3, 3, 2, 3]), [1, 7, 7, 2], [1, 2, 2, 1], "SAME"),
         tf.errors.InvalidArgumentError, "Size of out_backprop doesn't match computed: actual = 5, computed = 4"),
        (tf.nn.max_pool(x, [2, 2, 2, 1], 1, "SAME"), tf.errors.UnimplementedError,
         "Pooling is not yet supported on the batch dimension"),
    ]
    with tf.Session() as sess:
        for t, cls, msg in cases:
            with pytest.raises(cls, match=msg):
                sess.run(t, {x: np.zeros((1, 5, 5, 3), np.float32)})


@pytest.mark.parametrize("k,s,padding", [(2, 2, "VALID"), (3, 1, "SAME")])
def test_max_pool_grad_over_batch_blocks_matches_one_block(k, s, padding, monkeypatch):
    from tensorweave import kernels
    from tensorweave.ops import nn_conv_geometry
    blocks = []

    def recording_shard(total, cost, work):
        kernels.shard(total, cost, lambda b0, b1: (blocks.append((b0, b1)), work(b0, b1)))

    monkeypatch.setattr(nn_conv_geometry, "shard", recording_shard)
    rng = np.random.RandomState(3)
    xv = np.maximum(rng.randn(32, 64, 64, 16), 0).astype(np.float32)  # relu'd: many tied windows
    x = tf.placeholder(tf.float32, xv.shape)
    y = tf.nn.max_pool(x, k, s, padding)
    dy = rng.randn(*y.shape.as_list()).astype(np.float32)
    dx = tf.gradients(y, x, grad_ys=dy)[0]
    results = []
    try:
        for n in (1, 4):
            kernels.set_num_threads(n)
            with tf.Session() as sess:
                results.append(sess.run([y, dx], {x: xv}))
    finally:
        kernels.set_num_threads(None)
    for one, split in zip(*results):
        np.testing.assert_array_equal(one, split)
    np.testing.assert_array_equal(results[0][0], ref_pool(xv, (k, k), (s, s), padding, "max"))
    assert (0, 32) in blocks and len(blocks) > 2  # one block with one thread, several with four
