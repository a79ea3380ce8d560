"""tf.layers max/average pooling (1D and 2D): shapes, names, values vs NumPy, gradients, errors."""

import numpy as np
import pytest

import tensorweave as tf

RNG = np.random.RandomState(0)
IMG = RNG.randn(2, 7, 6, 3).astype(np.float32)


def np_pool2d(x, pool, strides, padding, mode):
    """NHWC pooling; SAME windows are clipped to the input (averages count in-bounds cells only)."""
    n, h, w, c = x.shape
    if padding == "same":
        oh, ow = -(-h // strides[0]), -(-w // strides[1])
        ph = max((oh - 1) * strides[0] + pool[0] - h, 0) // 2
        pw = max((ow - 1) * strides[1] + pool[1] - w, 0) // 2
    else:
        oh, ow = (h - pool[0]) // strides[0] + 1, (w - pool[1]) // strides[1] + 1
        ph = pw = 0
    out = np.zeros((n, oh, ow, c), x.dtype)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * strides[0] - ph, j * strides[1] - pw
            win = x[:, max(r0, 0):r0 + pool[0], max(c0, 0):c0 + pool[1], :]
            out[:, i, j] = win.max(axis=(1, 2)) if mode == "max" else win.mean(axis=(1, 2))
    return out


CASES = [
    ("max_valid", tf.layers.max_pooling2d, "max", (2, 2), (2, 2), "valid"),
    ("max_same", tf.layers.max_pooling2d, "max", (3, 2), (2, 1), "same"),
    ("avg_valid", tf.layers.average_pooling2d, "avg", (2, 3), (1, 2), "valid"),
    ("avg_same", tf.layers.average_pooling2d, "avg", (3, 3), (2, 2), "SAME"),
]


@pytest.mark.parametrize("name,fn,mode,pool,strides,padding", CASES, ids=[c[0] for c in CASES])
def test_pool2d_values_and_shapes(name, fn, mode, pool, strides, padding):
    x = tf.placeholder(tf.float32, [None, 7, 6, 3])
    y = fn(x, pool, strides, padding=padding)
    expected = np_pool2d(IMG, pool, strides, padding.lower(), mode)
    assert y.shape.as_list() == [None] + list(expected.shape[1:])
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y, {x: IMG}), expected, rtol=1e-6, atol=1e-6)


def test_names_scopes_and_no_variables():
    x = tf.placeholder(tf.float32, [None, 8, 8, 3])
    y = tf.layers.max_pooling2d(x, 2, 2)
    y1 = tf.layers.max_pooling2d(y, 2, 2)
    z = tf.layers.average_pooling2d(x, 2, 2, name="pool")
    assert y.name == "max_pooling2d/MaxPool:0" and y1.name == "max_pooling2d_1/MaxPool:0"
    assert z.name == "pool/AvgPool:0" and z.op.type == "AvgPool"
    assert y1.shape.as_list() == [None, 2, 2, 3]
    assert tf.global_variables() == []


def test_channels_first_and_classes():
    x = tf.constant(IMG.transpose(0, 3, 1, 2))
    layer = tf.layers.MaxPooling2D(pool_size=2, strides=2, data_format="channels_first")
    y = layer(x)
    z = tf.layers.AveragePooling2D(2, 1, data_format="channels_first")(x)
    assert tf.layers.MaxPool2D is tf.layers.MaxPooling2D and tf.layers.AvgPool2D is tf.layers.AveragePooling2D
    assert y.shape.as_list() == [2, 3, 3, 3] and z.shape.as_list() == [2, 3, 6, 5]
    with tf.Session() as sess:
        yv, zv = sess.run([y, z])
    np.testing.assert_allclose(yv, np_pool2d(IMG, (2, 2), (2, 2), "valid", "max").transpose(0, 3, 1, 2))
    np.testing.assert_allclose(zv, np_pool2d(IMG, (2, 2), (1, 1), "valid", "avg").transpose(0, 3, 1, 2), rtol=1e-6)


@pytest.mark.parametrize("fn,mode", [(tf.layers.max_pooling1d, "max"), (tf.layers.average_pooling1d, "avg")])
def test_pool1d(fn, mode):
    seq = RNG.randn(2, 9, 3).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 9, 3])
    y = fn(x, 3, 2)
    y_same = fn(x, 2, 2, padding="same")
    y_first = fn(tf.constant(seq.transpose(0, 2, 1)), 3, 2, data_format="channels_first")
    assert y.shape.as_list() == [None, 4, 3] and y_same.shape.as_list() == [None, 5, 3]
    assert y_first.shape.as_list() == [2, 3, 4]
    with tf.Session() as sess:
        v, v_same, v_first = sess.run([y, y_same, y_first], {x: seq})
    expected = np_pool2d(seq[:, :, None], (3, 1), (2, 1), "valid", mode)[:, :, 0]
    np.testing.assert_allclose(v, expected, rtol=1e-6)
    np.testing.assert_allclose(v_same, np_pool2d(seq[:, :, None], (2, 1), (2, 1), "same", mode)[:, :, 0], rtol=1e-6)
    np.testing.assert_allclose(v_first, expected.transpose(0, 2, 1), rtol=1e-6)


@pytest.mark.parametrize("fn", [tf.layers.max_pooling2d, tf.layers.average_pooling2d])
def test_gradient(fn):
    x = tf.placeholder(tf.float64, [1, 4, 4, 2])
    y = fn(x, 2, 2)
    # Distinct values keep max pooling away from ties.
    xv = np.random.RandomState(3).permutation(32).reshape(1, 4, 4, 2).astype(np.float64)
    with tf.Session():
        err = tf.test.compute_gradient_error(x, [1, 4, 4, 2], y, [1, 2, 2, 2], x_init_value=xv)
    assert err < 1e-6


ERRORS = [
    ("bad_padding", ValueError, 'The `padding` argument must be one of "valid", "same"',
     lambda: tf.layers.max_pooling2d(tf.zeros([1, 4, 4, 1]), 2, 2, padding="full")),
    ("bad_data_format", ValueError, 'The `data_format` argument must be one of "channels_first", "channels_last"',
     lambda: tf.layers.average_pooling2d(tf.zeros([1, 4, 4, 1]), 2, 2, data_format="NCHW")),
    ("no_strides", ValueError, "Argument `strides` must not be None.",
     lambda: tf.layers.max_pooling2d(tf.zeros([1, 4, 4, 1]), 2, None)),
    ("bad_pool_size", ValueError, "The `pool_size` argument must be a tuple of 2 integers",
     lambda: tf.layers.MaxPooling2D((1, 2, 3), 1)),
    ("wrong_rank", ValueError, "expected ndim=4, found ndim=3",
     lambda: tf.layers.max_pooling2d(tf.zeros([4, 4, 1]), 2, 2)),
    ("wrong_rank_1d", ValueError, "expected ndim=3, found ndim=4",
     lambda: tf.layers.max_pooling1d(tf.zeros([1, 4, 4, 1]), 2, 2)),
]


@pytest.mark.parametrize("name,exc,msg,fn", ERRORS, ids=[r[0] for r in ERRORS])
def test_errors(name, exc, msg, fn):
    with pytest.raises(exc) as info:
        fn()
    assert msg in str(info.value)


def test_max_pooling_of_unknown_rank():
    """As TF's Keras pooling layers: max pooling takes an input of unknown rank (issue 15); the op
    checks the rank when it runs."""
    x = tf.placeholder(tf.float32)
    y = tf.layers.max_pooling2d(x, 2, 2)
    y_first = tf.layers.max_pooling2d(x, 2, 2, data_format="channels_first")
    y1 = tf.layers.max_pooling1d(x, 2, 2)
    assert y.op.type == "MaxPool" and y.shape.as_list() == [None] * 4 and y_first.shape.as_list() == [None] * 4
    assert y1.shape.as_list() == [None] * 3
    xv = np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: xv}), xv.reshape(2, 2, 2, 2, 2, 3).max(axis=(2, 4)))
        assert sess.run(y_first, {x: xv}).shape == (2, 4, 2, 1)
        x3 = xv.reshape(2, 16, 3)
        np.testing.assert_array_equal(sess.run(y1, {x: x3}), x3.reshape(2, 8, 2, 3).max(axis=2))
        with pytest.raises(tf.errors.InvalidArgumentError, match="tensor_in must be 4-dimensional"):
            sess.run(y, {x: np.ones((2, 3), np.float32)})
