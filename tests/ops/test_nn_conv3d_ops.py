"""Conv3D and its backprops, 3-D pooling, the N-d convolution/pooling dispatchers, max_pool_with_argmax,
dilation2d/erosion2d: values and gradients recorded from TensorFlow 2.21 (`tf.compat.v1`, graph mode;
tests/data/make_nn_conv_extra_tf.py writes tests/data/nn_conv_extra_tf.npz and defines the cases, built
here with the same public API), static shapes and TF's errors. The op table
(tests/ops/op_table/rows_nn_conv_extra.py) checks the op types against NumPy references."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tests.data import make_nn_conv_extra_tf as cases

TF = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "nn_conv_extra_tf.npz"))


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def _tol(dt):
    return {np.dtype(np.float32): 2e-5, np.dtype(np.float64): 1e-11}.get(np.dtype(dt), 0)


@pytest.mark.parametrize("key", sorted(cases.CASES))
def test_matches_tf(key):
    specs, build = cases.CASES[key][0], cases.CASES[key][1]
    arrays = cases.inputs(key, specs)
    ts = [tf.constant(a) for a in arrays]
    outs = build(tf, *ts)
    runs = cases.RUN_TWICE.get(key, 1)
    with tf.Session() as s:
        got = []
        for _ in range(runs):
            got += s.run(outs)
    for i, (t, v) in enumerate(zip(list(outs) * runs, got)):
        want = TF["%s/%d" % (key, i)]
        v = np.asarray(v)
        if v.dtype.names:  # a quantized type: tensorweave's structured dtype; TF's session returns the codes
            assert t.dtype.is_quantized
            v = v.view(v.dtype[0])
        assert v.dtype == want.dtype, (key, i, v.dtype, want.dtype)
        assert v.shape == want.shape, (key, i, v.shape, want.shape)
        assert t.shape.is_compatible_with(want.shape), (key, i, t.shape)
        tol = _tol(v.dtype)
        if tol:
            np.testing.assert_allclose(v, want, rtol=tol, atol=tol, err_msg="%s/%d" % (key, i))
        else:
            np.testing.assert_array_equal(v, want, err_msg="%s/%d" % (key, i))
        if v.dtype.kind == "f" and tol and np.any(want == 0):
            # signed zeros where TF's are exact (special-value cases)
            if key.endswith("special"):
                np.testing.assert_array_equal(np.signbit(v[want == 0]), np.signbit(want[want == 0]))


def test_eager_matches_tf():
    key = "conv3d_same_s212"
    arrays = cases.inputs(key, cases.CASES[key][0])
    with context.eager_mode():
        y = tf.nn.conv3d(arrays[0], arrays[1], [1, 2, 1, 2, 1], "SAME")
        np.testing.assert_allclose(y.numpy(), TF[key + "/0"], rtol=1e-11, atol=1e-11)
        out, arg = tf.nn.max_pool_with_argmax(arrays[0][..., 0], [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
        assert out.shape == (2, 3, 3, 4) and arg.dtype == tf.int64


# ---- static shapes ------------------------------------------------------------------------------------
def test_static_shapes():
    x = tf.placeholder(tf.float32, [None, 5, None, 5, 2])
    f = tf.zeros([2, 2, 2, 2, 3])
    assert tf.nn.conv3d(x, f, [1, 2, 2, 2, 1], "SAME").shape.as_list() == [None, 3, None, 3, 3]
    assert tf.nn.max_pool3d(x, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID").shape.as_list() == [None, 2, None, 2, 2]
    assert tf.nn.avg_pool3d(tf.placeholder(tf.float32), 2, 2, "SAME").shape.as_list() == [None] * 5
    y = tf.nn.conv3d(tf.placeholder(tf.float32), f, [1, 1, 1, 1, 1], "VALID")
    assert y.shape.as_list() == [None, None, None, None, 3]
    xc = tf.placeholder(tf.float32, [2, 2, 6, None, 4])
    assert tf.nn.conv3d(xc, f, [1, 1, 2, 1, 1], "VALID", data_format="NCDHW").shape.as_list() == [2, 3, 3, None, 3]
    bi = tf.nn.conv3d_transpose(tf.placeholder(tf.float32, [1, 2, 2, 2, 3]), tf.zeros([2, 2, 2, 4, 3]),
                                [1, 4, 4, 4, 4], [1, 2, 2, 2, 1])
    assert bi.shape.as_list() == [1, 4, 4, 4, 4]
    xd = tf.placeholder(tf.float32, [None, 7, 6, 3])
    assert tf.nn.dilation2d(xd, tf.zeros([2, 3, 3]), [1, 2, 2, 1], [1, 2, 2, 1], "SAME").shape.as_list() == \
        [None, 4, 3, 3]
    o, a = tf.nn.max_pool_with_argmax(xd, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    assert o.shape.as_list() == a.shape.as_list() == [None, 3, 3, 3]


def test_op_types():
    x = tf.zeros([1, 4, 4, 4, 2])
    assert tf.nn.conv3d(x, tf.zeros([2, 2, 2, 2, 1]), [1] * 5, "SAME").op.type == "Conv3D"
    y = tf.nn.convolution(x, tf.zeros([2, 2, 2, 2, 1]), "SAME")
    assert y.op.type == "Conv3D"
    e = tf.nn.erosion2d(tf.zeros([1, 4, 4, 1]), tf.zeros([2, 2, 1]), [1] * 4, [1] * 4, "SAME")
    assert e.op.type == "Neg" and e.op.inputs[0].op.type == "Dilation2D"
    assert tf.nn.avg_pool1d(tf.zeros([1, 4, 2]), 2, 2, "SAME").op.inputs[0].op.type == "AvgPool"
    assert tf.nn.depthwise_conv2d_backprop_input is tf.nn.depthwise_conv2d_native_backprop_input
    assert tf.nn.conv3d_backprop_filter is tf.nn.conv3d_backprop_filter_v2


# ---- errors (messages as TF's) --------------------------------------------------------------------------
def test_conv3d_errors():
    f = tf.zeros([2, 2, 2, 2, 1])
    with pytest.raises(ValueError, match="Attr 'strides' of 'Conv3D' Op passed list of length 4 less than minimum 5"):
        tf.nn.conv3d(tf.zeros([1, 5, 5, 5, 2]), f, [1, 1, 1, 1], "VALID")
    with pytest.raises(ValueError, match="Attr 'padding' of 'Conv3D' Op passed string 'FOO' not in"):
        tf.nn.conv3d(tf.zeros([1, 5, 5, 5, 2]), f, [1, 1, 1, 1, 1], "FOO")
    with pytest.raises(ValueError, match="Shape must be rank 5 but is rank 4"):
        tf.nn.conv3d(tf.zeros([1, 5, 5, 2]), f, [1, 1, 1, 1, 1], "VALID")
    with pytest.raises(ValueError, match=r"Depth of input \(3\) is not a multiple of input depth of filter \(2\)"):
        tf.nn.conv3d(tf.zeros([1, 5, 5, 5, 3]), f, [1, 1, 1, 1, 1], "VALID")
    with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 2 from 1"):
        tf.nn.conv3d(tf.zeros([1, 1, 5, 5, 2]), f, [1, 1, 1, 1, 1], "VALID")
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values: float16, bfloat16, float32"):
        tf.nn.conv3d(tf.zeros([1, 5, 5, 5, 2], tf.int32), tf.zeros([2, 2, 2, 2, 1], tf.int32), [1] * 5, "VALID")
    y = tf.nn.conv3d(tf.zeros([1, 5, 5, 5, 2]), f, [2, 1, 1, 1, 1], "VALID")
    with tf.Session() as s, pytest.raises(tf.errors.UnimplementedError, match="strides in the batch"):
        s.run(y)


def test_backprop_shape_error():
    x = tf.zeros([1, 4, 5, 4, 2], tf.float64)
    dy = tf.placeholder(tf.float64)
    bf = tf.nn.conv3d_backprop_filter_v2(x, [3, 2, 2, 2, 3], dy, [1, 2, 2, 2, 1], "VALID")
    with tf.Session() as s, pytest.raises(tf.errors.InvalidArgumentError,
                                          match="Conv3DBackpropFilterOp: Size of out_backprop doesn't match"):
        s.run(bf, {dy: np.zeros((1, 2, 2, 2, 3))})


def test_pool_errors():
    with pytest.raises(ValueError, match="pooling with 'SAME' padding is not implemented for `dilation_rate` > 1"):
        tf.nn.pool(tf.zeros([1, 8, 8, 2]), [2, 2], "MAX", "SAME", dilation_rate=[2, 2])
    with pytest.raises(ValueError, match="`strides > 1` not supported in conjunction with `dilation_rate > 1`"):
        tf.nn.pool(tf.zeros([1, 8, 8, 2]), [2, 2], "MAX", "VALID", dilation_rate=[2, 2], strides=[2, 2])
    with pytest.raises(ValueError, match="`strides > 1` not supported in conjunction with `dilation_rate > 1`"):
        tf.nn.convolution(tf.zeros([1, 8, 8, 2]), tf.zeros([2, 2, 2, 1]), "VALID", strides=2, dilation_rate=2)
    with pytest.raises(ValueError, match="`strides` > `window_shape` not supported"):
        tf.nn.pool(tf.zeros([1, 8, 8, 2]), [2, 2], "MAX", "VALID", strides=[3, 1])
    with pytest.raises(ValueError, match=r"`input.shape.rank` must be 3, 4 or 5"):
        tf.nn.max_pool_v2(tf.zeros([2, 3]), 2, 2, "SAME")
    with pytest.raises(ValueError, match="`output_shape` must be of length 3, 4 or 5"):
        tf.nn.conv_transpose(tf.zeros([2, 3]), tf.zeros([2, 3]), [2, 3], 1)
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values"):
        tf.nn.max_pool3d(tf.zeros([1, 2, 2, 2, 1], tf.int32), 2, 2, "VALID")
    y = tf.nn.max_pool3d(tf.zeros([1, 2, 2, 2, 1]), [2, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID")
    with tf.Session() as s, pytest.raises(tf.errors.InvalidArgumentError, match="batch dimension"):
        s.run(y)


def test_argmax_and_morph_errors():
    with pytest.raises(ValueError, match="`data_format` values other  than 'NHWC' are not supported"):
        tf.nn.max_pool_with_argmax(tf.zeros([1, 2, 2, 1]), [1, 2, 2, 1], [1, 2, 2, 1], "VALID", data_format="NCHW")
    with pytest.raises(TypeError, match="Expected list for 'ksize'"):
        tf.nn.max_pool_with_argmax(tf.zeros([1, 2, 2, 1]), 2, [1, 2, 2, 1], "VALID")
    with pytest.raises(ValueError, match="Dimensions must be equal"):
        tf.nn.dilation2d(tf.zeros([1, 4, 4, 2]), tf.zeros([2, 2, 3]), [1] * 4, [1] * 4, "SAME")
    d = tf.nn.dilation2d(tf.zeros([1, 4, 4, 2]), tf.zeros([2, 2, 2]), [2, 1, 1, 1], [1] * 4, "SAME")
    with tf.Session() as s, pytest.raises(tf.errors.UnimplementedError,
                                          match="Stride is only supported across spatial dimensions"):
        s.run(d)
    x = tf.zeros([1, 4, 4, 1])
    o, a = tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    with pytest.raises(LookupError):
        tf.gradients(tf.gradients(o, x)[0], x)


# ---- tf.conv beyond TF's CPU kernel, the *_v2 backprops, fractional pooling --------------------------------
def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


def test_conv_groups_and_channels_first():
    rng = np.random.RandomState(0)
    x = rng.randn(2, 5, 6, 4)
    f = rng.randn(3, 2, 2, 6)
    grouped = tf.conv(x, f, [1, 1, 1, 1], "SAME", groups=2)
    parts = [tf.conv(x[..., 2 * k:2 * k + 2], f[..., 3 * k:3 * k + 3], [1, 1, 1, 1], "SAME") for k in range(2)]
    got, want = _run([grouped, tf.concat(parts, -1)])
    np.testing.assert_allclose(got, want, rtol=1e-12)
    first = tf.conv(x.transpose(0, 3, 1, 2), f[..., :4], [1, 1, 2, 1], "VALID", data_format="CHANNELS_FIRST",
                    groups=2)
    last = tf.conv(x, f[..., :4], [1, 2, 1, 1], "VALID", groups=2)
    assert first.shape.as_list() == [2, 4, 2, 5]
    a, b = _run([first, last])
    np.testing.assert_allclose(a, b.transpose(0, 3, 1, 2), rtol=1e-12)
    with pytest.raises(ValueError, match="must equal groups"):
        tf.conv(x, f, [1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="Input tensor must be rank 4 or 5"):
        tf.conv(tf.zeros([2, 5, 3]), tf.zeros([2, 3, 1]), [1, 1, 1], "SAME")
    assert tf.conv(tf.placeholder(tf.float32), f, [1, 1, 1, 1], "SAME").shape.ndims is None
    with pytest.raises(LookupError):
        xt = tf.constant(x)
        tf.gradients(tf.conv(xt, f, [1, 1, 1, 1], "SAME", groups=2), xt)
    with pytest.raises(ValueError, match="Output depth must be evenly divisible by number of groups"):
        tf.conv(x, f[..., :3], [1, 1, 1, 1], "SAME", groups=2)


def test_conv2d_backprop_v2_match_v1():
    rng = np.random.RandomState(1)
    x, f, dy = rng.randn(2, 5, 6, 3), rng.randn(3, 2, 3, 4), rng.randn(2, 3, 6, 4)
    kw = dict(strides=[1, 2, 1, 1], padding="SAME")
    v2 = [tf.conv2d_backprop_input_v2(x, f, dy, **kw), tf.conv2d_backprop_filter_v2(x, f, dy, **kw)]
    v1 = [tf.nn.conv2d_backprop_input([2, 5, 6, 3], f, dy, **kw),
          tf.nn.conv2d_backprop_filter(x, [3, 2, 3, 4], dy, **kw)]
    assert v2[0].op.type == "Conv2DBackpropInputV2" and v2[1].op.type == "Conv2DBackpropFilterV2"
    for a, b in zip(_run(v2), _run(v1)):
        np.testing.assert_array_equal(a, b)
    p = tf.placeholder(tf.float64, [None, 5, 6, 3])
    assert tf.conv2d_backprop_input_v2(p, f, dy, **kw).shape.as_list() == [None, 5, 6, 3]
    assert tf.conv2d_backprop_filter_v2(p, f, dy, **kw).shape.as_list() == [3, 2, 3, 4]


def test_fractional_pool_semantics():
    x = np.arange(2 * 10 * 11 * 2, dtype=np.float32).reshape(2, 10, 11, 2)
    with pytest.raises(ValueError, match="pooling_ratio cannot be smaller than 1"):
        tf.nn.fractional_max_pool(x, [1.0, 0.5, 1.5, 1.0])
    seeded = tf.nn.fractional_max_pool(x, [1.0, 1.5, 1.5, 1.0], seed=1, seed2=2)
    with tf.Session() as s, pytest.raises(tf.errors.InvalidArgumentError,
                                          match="Both seed and seed2 should be 0 if deterministic is false"):
        s.run(seeded)
    r = tf.nn.fractional_avg_pool(x, [1.0, 1.5, 1.7, 1.0], pseudo_random=True)
    assert r.output.shape.as_list() == [2, 6, 6, 2]
    assert r.row_pooling_sequence.shape.as_list() == [7]
    with tf.Session() as s:
        for _ in range(3):  # unseeded: fresh regions each run, always valid ones
            out, rows, cols = s.run(r)
            for seq, n, m in ((rows, 10, 6), (cols, 11, 6)):
                assert seq[0] == 0 and seq[-1] == n and set(np.diff(seq)) <= {n // m, n // m + 1}
            want = x[:, rows[0]:rows[1], cols[0]:cols[1]].mean(axis=(1, 2))
            np.testing.assert_allclose(out[:, 0, 0], want, rtol=1e-6)
    d = tf.nn.fractional_max_pool(x, [1.0, 1.5, 1.5, 1.0], deterministic=True)
    with tf.Session() as s:
        first = s.run(d)
        second = s.run(d)
    np.testing.assert_array_equal(first.row_pooling_sequence, second.row_pooling_sequence)
    np.testing.assert_array_equal(first.output, second.output)


def test_conv3d_input_grad_tap_path(monkeypatch):
    """Blocks whose column matrix would be too large take the tap-by-tap path: same values."""
    from tensorweave.ops import nn_conv3d_ops
    key = "conv3d_same_s212"
    specs, build = cases.CASES[key][0], cases.CASES[key][1]
    monkeypatch.setattr(nn_conv3d_ops, "_MAX_COL_BYTES", 0)
    ts = [tf.constant(a) for a in cases.inputs(key, specs)]
    got = _run(build(tf, *ts)[1])
    np.testing.assert_allclose(got, TF[key + "/1"], rtol=1e-11, atol=1e-11)


def test_quantized_errors_and_shapes():
    x = tf.constant(np.zeros((1, 4, 4, 2), np.uint8), tf.quint8)
    f = tf.constant(np.zeros((2, 2, 2, 3), np.uint8), tf.quint8)
    r = tf.nn.quantized_conv2d(x, f, 0.0, 1.0, 0.0, 1.0, [1, 1, 1, 1], "VALID")
    assert r.output.shape.as_list() == [1, 3, 3, 3] and r.output.dtype == tf.qint32 and r.min_output.shape.ndims == 0
    with pytest.raises(TypeError, match="not in list of allowed values: qint8, quint8"):
        tf.nn.quantized_conv2d(tf.zeros([1, 4, 4, 2]), f, 0.0, 1.0, 0.0, 1.0, [1, 1, 1, 1], "VALID")
    bad = tf.nn.quantized_conv2d(x, f, 0.0, 1.0, 0.0, 1.0, [1, 2, 1, 1], "VALID")
    with tf.Session() as s, pytest.raises(tf.errors.InvalidArgumentError, match="only supports equal length strides"):
        s.run(bad.output)
    p = tf.nn.quantized_max_pool(x, -1.0, 1.0, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    assert p.output.shape.as_list() == [1, 2, 2, 2] and p.output.dtype == tf.quint8
    with pytest.raises(TypeError, match="not in list of allowed values: qint8, quint8"):
        tf.nn.quantized_avg_pool(tf.zeros([1, 4, 4, 2]), -1.0, 1.0, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
