"""tf.keras 3D convolution/pooling/padding/cropping/upsampling layers, 1D upsampling/padding/cropping,
SeparableConv1D, LocallyConnected1D/2D and channels_first for every convolution, pooling, padding and upsampling
layer, against tf-keras goldens (tests/data/make_keras_layers2_tf.py), with numerical gradients and error paths."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K

L = keras.layers
GOLDEN = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "keras_layers2_tf.npz"))

CASES = {
    "conv3d": lambda: L.Conv3D(4, (3, 2, 2), activation="relu"),
    "conv3d_same": lambda: L.Conv3D(2, 3, strides=(2, 1, 2), padding="same"),
    "conv3d_dilated": lambda: L.Conv3D(2, 2, dilation_rate=(2, 1, 1)),
    "conv3d_cf": lambda: L.Conv3D(3, (2, 3, 2), data_format="channels_first", padding="same"),
    "conv3d_transpose": lambda: L.Conv3DTranspose(2, (2, 3, 2), strides=(2, 1, 2)),
    "conv3d_transpose_same": lambda: L.Conv3DTranspose(3, 3, strides=2, padding="same"),
    "conv3d_transpose_outpad": lambda: L.Conv3DTranspose(2, 2, strides=(2, 3, 2), output_padding=(1, 2, 0)),
    "conv3d_transpose_cf": lambda: L.Conv3DTranspose(2, 2, strides=2, data_format="channels_first"),
    "maxpool3d": lambda: L.MaxPooling3D(),
    "avgpool3d": lambda: L.AveragePooling3D((2, 3, 2), strides=1, padding="same"),
    "maxpool3d_cf": lambda: L.MaxPool3D((1, 2, 2), data_format="channels_first"),
    "avgpool3d_cf": lambda: L.AvgPool3D(2, padding="same", data_format="channels_first"),
    "gmax3d": lambda: L.GlobalMaxPooling3D(),
    "gavg3d": lambda: L.GlobalAveragePooling3D(),
    "gavg3d_cf": lambda: L.GlobalAveragePooling3D(data_format="channels_first"),
    "upsampling1d": lambda: L.UpSampling1D(3),
    "upsampling3d": lambda: L.UpSampling3D((2, 1, 3)),
    "upsampling3d_cf": lambda: L.UpSampling3D(2, data_format="channels_first"),
    "zeropadding1d": lambda: L.ZeroPadding1D((2, 1)),
    "zeropadding3d": lambda: L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))),
    "zeropadding3d_cf": lambda: L.ZeroPadding3D(1, data_format="channels_first"),
    "cropping1d": lambda: L.Cropping1D((2, 1)),
    "cropping3d": lambda: L.Cropping3D(((1, 0), (2, 1), 1)),
    "cropping3d_cf": lambda: L.Cropping3D(1, data_format="channels_first"),
    "conv1d_cf": lambda: L.Conv1D(4, 3, strides=2, padding="same", data_format="channels_first"),
    "conv1d_causal": lambda: L.Conv1D(2, 3, dilation_rate=2, padding="causal"),
    "conv2d_cf": lambda: L.Conv2D(4, (3, 2), strides=(1, 2), padding="same", data_format="channels_first",
                                  activation="relu"),
    "conv2d_cf_dilated": lambda: L.Conv2D(2, 2, dilation_rate=2, data_format="channels_first"),
    "depthwise_cf": lambda: L.DepthwiseConv2D((2, 3), depth_multiplier=2, padding="same",
                                              data_format="channels_first"),
    "separable_cf": lambda: L.SeparableConv2D(3, 2, depth_multiplier=2, data_format="channels_first"),
    "conv2d_transpose_cf": lambda: L.Conv2DTranspose(2, (3, 2), strides=(2, 1), data_format="channels_first"),
    "conv2d_transpose_wide": lambda: L.Conv2DTranspose(2, 2, strides=3),
    "conv2d_transpose_outpad": lambda: L.Conv2DTranspose(2, 3, strides=2, padding="same", output_padding=(0, 1)),
    "conv2d_transpose_dilated": lambda: L.Conv2DTranspose(2, 2, dilation_rate=2),
    "maxpool2d_cf": lambda: L.MaxPooling2D((2, 2), padding="same", data_format="channels_first"),
    "avgpool2d_cf": lambda: L.AveragePooling2D(2, strides=1, data_format="channels_first"),
    "maxpool1d_cf": lambda: L.MaxPooling1D(2, data_format="channels_first"),
    "avgpool1d_cf": lambda: L.AveragePooling1D(3, strides=2, padding="same", data_format="channels_first"),
    "gmax2d_cf": lambda: L.GlobalMaxPooling2D(data_format="channels_first"),
    "gavg1d_cf": lambda: L.GlobalAveragePooling1D(data_format="channels_first"),
    "upsampling2d_cf": lambda: L.UpSampling2D((2, 3), data_format="channels_first"),
    "zeropadding2d_cf": lambda: L.ZeroPadding2D(((1, 0), (2, 1)), data_format="channels_first"),
    "cropping2d_cf": lambda: L.Cropping2D(((1, 2), 1), data_format="channels_first"),
    "upsampling2d_bilinear": lambda: L.UpSampling2D((2, 3), interpolation="bilinear"),
    "upsampling2d_bilinear_cf": lambda: L.UpSampling2D((3, 2), interpolation="bilinear", data_format="channels_first"),
    "conv1d_causal_cf": lambda: L.Conv1D(2, 3, padding="causal", data_format="channels_first"),
    "separable1d": lambda: L.SeparableConv1D(3, 2, depth_multiplier=2, padding="same", strides=2),
    "separable1d_causal": lambda: L.SeparableConv1D(2, 3, padding="causal", dilation_rate=2),
    "separable1d_cf": lambda: L.SeparableConv1D(2, 2, data_format="channels_first"),
    "locally1d": lambda: L.LocallyConnected1D(3, 2, strides=2),
    "locally1d_cf": lambda: L.LocallyConnected1D(2, 3, data_format="channels_first"),
    "locally2d": lambda: L.LocallyConnected2D(2, (2, 3), strides=(2, 1), activation="tanh"),
    "locally2d_cf": lambda: L.LocallyConnected2D(3, 2, data_format="channels_first"),
}


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


def _apply(case, x, batch=None):
    layer = CASES[case]()
    inp = tf.placeholder(tf.float32, (batch,) + x.shape[1:] if batch is None else x.shape)
    return layer, inp, layer(inp)


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_tf_keras_golden(case):
    x = GOLDEN[case + "/x0"]
    layer, inp, y = _apply(case, x, batch=x.shape[0])
    n = len(layer.weights)
    assert n == len([k for k in GOLDEN.files if k.startswith(case + "/name")])
    layer.set_weights([GOLDEN["%s/w%d" % (case, i)] for i in range(n)])
    for i, v in enumerate(layer.weights):
        assert v.name == str(GOLDEN["%s/name%d" % (case, i)])
    got = K.get_session().run(y, {inp: x})
    want = GOLDEN[case + "/y"]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert y.shape.as_list() == list(want.shape)
    assert tuple(layer.compute_output_shape(x.shape).as_list()) == want.shape


@pytest.mark.parametrize("case", sorted(CASES))
def test_unknown_batch_size(case):
    x = GOLDEN[case + "/x0"]
    layer, inp, y = _apply(case, x)
    n = len(layer.weights)
    layer.set_weights([GOLDEN["%s/w%d" % (case, i)] for i in range(n)])
    want = GOLDEN[case + "/y"]
    assert y.shape.as_list() == [None] + list(want.shape[1:])
    np.testing.assert_allclose(K.get_session().run(y, {inp: x}), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("case", sorted(c for c in CASES if not c.startswith("locally")))
def test_unknown_spatial_dims(case):
    x = GOLDEN[case + "/x0"]
    layer = CASES[case]()
    shape = [None] * x.ndim
    channel_axis = 1 if "_cf" in case else -1
    shape[channel_axis] = x.shape[channel_axis]
    inp = tf.placeholder(tf.float32, shape)
    y = layer(inp)
    layer.set_weights([GOLDEN["%s/w%d" % (case, i)] for i in range(len(layer.weights))])
    want = GOLDEN[case + "/y"]
    assert y.shape.ndims == want.ndim
    np.testing.assert_allclose(K.get_session().run(y, {inp: x}), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("case", sorted(CASES))
def test_get_config_round_trip(case):
    layer = CASES[case]()
    config = layer.get_config()
    assert type(layer).from_config(config).get_config() == config


def test_config_keys_as_tf_keras():
    config = L.Conv3D(2, 3).get_config()
    assert config["kernel_size"] == (3, 3, 3) and config["strides"] == (1, 1, 1)
    assert config["data_format"] == "channels_last"
    assert L.Conv3DTranspose(2, 3, output_padding=1, strides=2).get_config()["output_padding"] == (1, 1, 1)
    assert L.MaxPooling3D().get_config()["pool_size"] == (2, 2, 2)
    assert L.ZeroPadding3D(2).get_config()["padding"] == ((2, 2), (2, 2), (2, 2))
    assert L.ZeroPadding1D(2).get_config()["padding"] == (2, 2)
    assert L.Cropping1D(3).get_config()["cropping"] == (3, 3)
    assert L.Cropping3D((1, 2, 3)).get_config()["cropping"] == ((1, 1), (2, 2), (3, 3))
    assert L.UpSampling1D(4).get_config()["size"] == 4
    assert L.UpSampling3D(2).get_config() | {"name": None} == {"name": None, "trainable": True, "dtype": None,
                                                               "size": (2, 2, 2), "data_format": "channels_last"}


def test_aliases():
    assert L.Convolution3D is L.Conv3D and L.Convolution3DTranspose is L.Conv3DTranspose
    assert L.MaxPool3D is L.MaxPooling3D and L.AvgPool3D is L.AveragePooling3D
    assert L.GlobalMaxPool3D is L.GlobalMaxPooling3D and L.GlobalAvgPool3D is L.GlobalAveragePooling3D
    assert issubclass(L.Conv3DTranspose, L.Conv3D) and issubclass(L.Conv2DTranspose, L.Conv2D)


@pytest.mark.parametrize("make", [
    lambda f: L.Conv2D(3, (2, 3), strides=(2, 1), padding="same", data_format=f),
    lambda f: L.Conv1D(3, 2, dilation_rate=2, data_format=f),
    lambda f: L.Conv3D(2, 2, strides=(1, 2, 1), data_format=f),
    lambda f: L.Conv2DTranspose(2, 3, strides=2, data_format=f, output_padding=1),
    lambda f: L.Conv3DTranspose(2, (1, 2, 2), strides=(1, 2, 1), padding="same", data_format=f),
    lambda f: L.DepthwiseConv2D(2, depth_multiplier=2, data_format=f),
    lambda f: L.SeparableConv2D(2, 2, strides=2, data_format=f),
    lambda f: L.MaxPooling1D(3, strides=1, padding="same", data_format=f),
    lambda f: L.AveragePooling3D((1, 2, 2), data_format=f),
    lambda f: L.GlobalMaxPooling1D(data_format=f),
    lambda f: L.GlobalAveragePooling2D(data_format=f),
    lambda f: L.GlobalMaxPooling3D(data_format=f),
    lambda f: L.UpSampling2D(2, data_format=f),
    lambda f: L.ZeroPadding2D((1, 2), data_format=f),
    lambda f: L.Cropping3D(((0, 1), 1, (1, 0)), data_format=f),
    lambda f: L.SeparableConv1D(2, 3, padding="causal", data_format=f),
    lambda f: L.ZeroPadding3D((1, 0, 2), data_format=f),
    lambda f: L.UpSampling3D((1, 2, 1), data_format=f),
], ids=lambda m: "")
def test_channels_first_is_channels_last_transposed(make):
    rng = np.random.RandomState(0)
    rank = 0
    probe = make("channels_last")
    rank = probe.input_spec.ndim if probe.input_spec is not None and probe.input_spec.ndim else 4
    x = rng.randn(*(2, 5, 6, 4, 3)[:rank - 1], 3).astype("float32")
    last, first = make("channels_last"), make("channels_first")
    inp_l = tf.placeholder(tf.float32, x.shape)
    inp_f = tf.placeholder(tf.float32, np.moveaxis(x, -1, 1).shape)
    y_l, y_f = last(inp_l), first(inp_f)
    first.set_weights(last.get_weights())
    got_l, got_f = K.get_session().run([y_l, y_f], {inp_l: x, inp_f: np.moveaxis(x, -1, 1)})
    want = np.moveaxis(got_l, -1, 1) if got_l.ndim > 2 else got_l
    np.testing.assert_allclose(got_f, want, rtol=1e-5, atol=1e-5)
    assert y_f.shape.as_list() == list(want.shape)


def _gradient_check(layer, x, wrt_weights=True):
    inp = tf.placeholder(tf.float64, x.shape)
    y = layer(inp)
    rng = np.random.RandomState(7)
    weights = [rng.uniform(-1, 1, w.shape) for w in layer.get_weights()]
    layer.set_weights(weights)
    shape = y.shape.as_list()
    with K.get_session().as_default():
        theo, num = tf.test.compute_gradient(inp, x.shape, y, shape, x_init_value=x, delta=1e-6)
        np.testing.assert_allclose(theo, num, rtol=1e-6, atol=1e-7)
        if wrt_weights:
            for v, w in zip(layer.weights, weights):
                theo, num = tf.test.compute_gradient(v, w.shape, y, shape, x_init_value=w, delta=1e-6,
                                                     extra_feed_dict={inp: x})
                np.testing.assert_allclose(theo, num, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_conv3d_gradients_float64(data_format):
    x = np.random.RandomState(1).randn(2, 3, 4, 3, 2)
    if data_format == "channels_first":
        x = np.ascontiguousarray(np.moveaxis(x, -1, 1))
    _gradient_check(L.Conv3D(2, (2, 2, 1), strides=(1, 2, 1), padding="same", data_format=data_format,
                             dtype="float64"), x)


def test_conv3d_transpose_and_pool3d_gradients_float64():
    x = np.random.RandomState(2).randn(1, 2, 3, 2, 2)
    _gradient_check(L.Conv3DTranspose(2, 2, strides=(2, 1, 2), dtype="float64"), x)
    K.clear_session()
    _gradient_check(L.AveragePooling3D((2, 2, 1), padding="same", dtype="float64"), x, wrt_weights=False)


def test_conv3d_matches_numpy():
    rng = np.random.RandomState(3)
    x = rng.randn(2, 4, 3, 5, 2).astype("float32")
    layer = L.Conv3D(3, (2, 2, 3), use_bias=False)
    inp = tf.placeholder(tf.float32, x.shape)
    y = layer(inp)
    k = rng.randn(2, 2, 3, 2, 3).astype("float32")
    layer.set_weights([k])
    want = np.zeros((2, 3, 2, 3, 3), np.float32)
    for d in range(3):
        for h in range(2):
            for w in range(3):
                want[:, d, h, w] = np.einsum("bijkc,ijkco->bo", x[:, d:d + 2, h:h + 2, w:w + 3], k)
    np.testing.assert_allclose(K.get_session().run(y, {inp: x}), want, rtol=1e-4, atol=1e-5)


def test_causal_conv1d_does_not_see_the_future():
    rng = np.random.RandomState(0)
    x = rng.randn(1, 8, 2).astype("float32")
    layer = L.Conv1D(1, 3, padding="causal")
    inp = tf.placeholder(tf.float32, [None, 8, 2])
    y = layer(inp)
    assert y.shape.as_list() == [None, 8, 1]
    x2 = x.copy()
    x2[:, 5:] = 100.0
    a, b = (K.get_session().run(y, {inp: v}) for v in (x, x2))
    np.testing.assert_array_equal(a[:, :5], b[:, :5])
    assert not np.allclose(a[:, 5:], b[:, 5:])


def test_global_average_pooling1d_mask():
    x = np.arange(24, dtype="float32").reshape(2, 4, 3)
    mask = np.array([[True, True, False, False], [True, True, True, True]])
    inp = tf.placeholder(tf.float32, x.shape)
    layer = L.GlobalAveragePooling1D()
    y = layer(inp, mask=tf.constant(mask))
    want = np.stack([x[0, :2].mean(0), x[1].mean(0)])
    np.testing.assert_allclose(K.get_session().run(y, {inp: x}), want, rtol=1e-6)
    assert layer.compute_mask(inp, tf.constant(mask)) is None
    cf = L.GlobalAveragePooling1D(data_format="channels_first")
    y = cf(tf.constant(np.moveaxis(x, -1, 1)), mask=tf.constant(mask))
    np.testing.assert_allclose(K.get_session().run(y), want, rtol=1e-6)


def test_error_paths():
    with pytest.raises(ValueError, match='^The `data_format` argument must be one of "channels_first", '
                                         '"channels_last". Received: NDHWC$'):
        L.Conv3D(2, 3, data_format="NDHWC")
    with pytest.raises(ValueError, match='^The `data_format` argument must be one of "channels_first", '
                                         '"channels_last". Received: channels_middle$'):
        L.MaxPooling3D(data_format="channels_middle")
    with pytest.raises(ValueError, match="^The `padding` argument must be one of 'valid', 'same', 'causal'. "
                                         "Received: full$"):
        L.Conv3D(2, 3, padding="full")
    with pytest.raises(ValueError, match="^The `padding` argument must be one of 'valid', 'same'. Received: causal$"):
        L.MaxPooling1D(padding="causal")
    with pytest.raises(ValueError, match="^Causal padding is only supported for `Conv1D` and `SeparableConv1D`.$"):
        L.Conv2D(2, 3, padding="causal")
    with pytest.raises(ValueError, match=r"^The `kernel_size` argument must be a tuple of 3 integers. "
                                         r"Received: \(3, 3\)$"):
        L.Conv3D(2, (3, 3))
    with pytest.raises(ValueError, match=r"^The `strides` argument must be a tuple of 3 integers. "
                                         r"Received: \(1, 1.5, 1\)$"):
        L.Conv3D(2, 3, strides=(1, 1.5, 1))
    with pytest.raises(ValueError, match=r"^Stride \(2, 2, 2\) must be greater than output padding \(2, 0, 0\)$"):
        L.Conv3DTranspose(2, 3, strides=2, output_padding=(2, 0, 0))
    with pytest.raises(ValueError, match="expected ndim=5, found ndim=4"):
        L.Conv3D(2, 3)(tf.placeholder(tf.float32, [None, 5, 5, 5]))
    with pytest.raises(ValueError, match="^The channel dimension of the inputs should be defined. Found `None`.$"):
        L.Conv3D(2, 3, data_format="channels_first")(tf.placeholder(tf.float32, [None, None, 5, 5, 5]))
    with pytest.raises(ValueError, match=r"^`padding` should have 3 elements. Found: \(1, 2\)$"):
        L.ZeroPadding3D((1, 2))
    with pytest.raises(ValueError, match=r"^The `2nd entry of cropping` argument must be a tuple of 2 integers. "
                                         r"Received: \(1, 2, 3\)$"):
        L.Cropping2D((1, (1, 2, 3)))
    with pytest.raises(ValueError, match=r"^`padding` should be either an int, a tuple of 3 ints, or a tuple of 3 "
                                         r"tuples of 2 ints. Found: 1.5$"):
        L.ZeroPadding3D(1.5)
    with pytest.raises(ValueError, match=r"^The `padding` argument must be a tuple of 2 integers. "
                                         r"Received: \(1, 2, 3\)$"):
        L.ZeroPadding1D((1, 2, 3))
    with pytest.raises(ValueError, match='^`interpolation` argument should be one of `"nearest"` or `"bilinear"`.$'):
        L.UpSampling2D(interpolation="bicubic")
    with pytest.raises(ValueError, match="expected axis 1 of input shape to have value 3"):
        layer = L.Conv3D(2, 1, data_format="channels_first")
        layer(tf.placeholder(tf.float32, [None, 3, 2, 2, 2]))
        layer(tf.placeholder(tf.float32, [None, 4, 2, 2, 2]))


def test_sequential_3d_cnn_fits_and_round_trips():
    rng = np.random.RandomState(0)
    x = rng.randn(8, 4, 4, 4, 1).astype("float32")
    y = rng.randint(0, 2, size=(8,))
    model = keras.Sequential([
        L.ZeroPadding3D(1, input_shape=(4, 4, 4, 1)), L.Conv3D(2, 3, activation="relu"), L.MaxPooling3D(),
        L.UpSampling3D(), L.Conv3DTranspose(2, 2, strides=2), L.Cropping3D(1), L.GlobalAveragePooling3D(),
        L.Dense(2, activation="softmax")])
    assert model.output_shape == (None, 2)
    model.compile(tf.train.AdamOptimizer(0.01), "sparse_categorical_crossentropy")
    history = model.fit(x, y, batch_size=4, epochs=3, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    clone = keras.Sequential.from_config(model.get_config())
    assert [type(l) for l in clone.layers] == [type(l) for l in model.layers]
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone.predict(x), model.predict(x), rtol=1e-5, atol=1e-6)


def test_locally_connected_matches_numpy():
    rng = np.random.RandomState(4)
    x = rng.randn(2, 5, 4, 3).astype("float32")
    layer = L.LocallyConnected2D(2, (2, 2), strides=(1, 2))
    inp = tf.placeholder(tf.float32, x.shape)
    y = layer(inp)
    assert (layer.output_row, layer.output_col) == (4, 2)
    kernel = rng.randn(8, 12, 2).astype("float32")
    bias = rng.randn(4, 2, 2).astype("float32")
    layer.set_weights([kernel, bias])
    want = np.zeros((2, 4, 2, 2), np.float32)
    for i in range(4):
        for j in range(2):
            patch = x[:, i:i + 2, 2 * j:2 * j + 2, :].reshape(2, -1)
            want[:, i, j] = patch @ kernel[i * 2 + j] + bias[i, j]
    np.testing.assert_allclose(K.get_session().run(y, {inp: x}), want, rtol=1e-5, atol=1e-5)


def test_locally_connected_gradients_float64():
    x = np.random.RandomState(5).randn(2, 5, 2)
    _gradient_check(L.LocallyConnected1D(2, 2, strides=2, dtype="float64"), x)


def test_locally_connected_error_paths():
    with pytest.raises(ValueError, match='^Invalid border mode for LocallyConnected1D \\(only "valid" is supported\\): '
                                         'same$'):
        L.LocallyConnected1D(2, 3, padding="same")
    with pytest.raises(NotImplementedError, match="^LocallyConnected2D supports only implementation=1; got 2.$"):
        L.LocallyConnected2D(2, 3, implementation=2)
    with pytest.raises(ValueError, match=r"^LocallyConnected1D needs fully-defined spatial and channel dimensions. "
                                         r"Found shape: \[None, None, 3\]$"):
        L.LocallyConnected1D(2, 3)(tf.placeholder(tf.float32, [None, None, 3]))
    with pytest.raises(ValueError, match="^One of the dimensions in the output is <= 0 due to downsampling in "
                                         "locally_connected2d"):
        L.LocallyConnected2D(2, 3)(tf.placeholder(tf.float32, [None, 2, 5, 3]))
    config = L.LocallyConnected2D(2, 3).get_config()
    assert config["implementation"] == 1 and config["kernel_size"] == (3, 3) and config["padding"] == "valid"


def test_separable_conv1d_weights():
    layer = L.SeparableConv1D(4, 3, depth_multiplier=2)
    layer(tf.placeholder(tf.float32, [None, 7, 3]))
    assert [w.shape.as_list() for w in layer.weights] == [[3, 3, 2], [1, 6, 4], [4]]
    assert [w.name for w in layer.weights] == ["separable_conv1d/depthwise_kernel:0",
                                               "separable_conv1d/pointwise_kernel:0", "separable_conv1d/bias:0"]
    assert L.SeparableConvolution1D is L.SeparableConv1D
    assert set(layer.get_config()) >= {"depth_multiplier", "depthwise_initializer", "pointwise_initializer"}
    assert "kernel_initializer" not in layer.get_config()


@pytest.mark.parametrize("make,shape", [
    (lambda: L.Conv2D(2, (2, 3), strides=(1, 2), padding="same", data_format="channels_first"), (2, 2, 3, 4)),
    (lambda: L.DepthwiseConv2D(2, depth_multiplier=2, data_format="channels_first"), (1, 2, 3, 3)),
    (lambda: L.SeparableConv2D(2, 2, data_format="channels_first"), (1, 2, 3, 3)),
    (lambda: L.Conv2DTranspose(2, 2, strides=2, output_padding=1, data_format="channels_first"), (1, 2, 2, 3)),
    (lambda: L.Conv1D(2, 2, padding="causal", data_format="channels_first"), (2, 3, 4)),
    (lambda: L.SeparableConv1D(2, 2, data_format="channels_first"), (2, 3, 4)),
    (lambda: L.LocallyConnected2D(2, 2, data_format="channels_first"), (1, 2, 3, 3)),
    (lambda: L.MaxPooling2D(2, padding="same", data_format="channels_first"), (2, 2, 3, 3)),
    (lambda: L.AveragePooling1D(2, data_format="channels_first"), (2, 2, 5)),
    (lambda: L.Cropping3D(((1, 0), 0, (0, 1)), data_format="channels_first"), (1, 2, 2, 2, 2)),
], ids=lambda v: "" if callable(v) else None)
def test_channels_first_gradients_float64(make, shape):
    x = np.random.RandomState(9).randn(*shape)
    layer = make()
    layer = type(layer).from_config(dict(layer.get_config(), dtype="float64"))
    _gradient_check(layer, x)
