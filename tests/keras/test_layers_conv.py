"""tf.keras convolution, pooling, normalization and embedding layers against tf-keras goldens."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K

L = keras.layers
GOLDEN = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "keras_layers_tf.npz"))

CASES = {
    "conv2d": lambda: L.Conv2D(4, (3, 2), strides=(1, 2), padding="same", activation="relu"),
    "conv2d_valid": lambda: L.Conv2D(2, 3, dilation_rate=2),
    "conv1d": lambda: L.Conv1D(4, 3, strides=2, padding="same"),
    "conv1d_dilated": lambda: L.Conv1D(2, 2, dilation_rate=2, activation="tanh"),
    "maxpool2d": lambda: L.MaxPooling2D((2, 2), padding="same"),
    "avgpool2d": lambda: L.AveragePooling2D(2, strides=1),
    "maxpool1d": lambda: L.MaxPooling1D(2),
    "avgpool1d": lambda: L.AveragePooling1D(3, strides=2, padding="same"),
    "gmax2d": lambda: L.GlobalMaxPooling2D(),
    "gavg2d": lambda: L.GlobalAveragePooling2D(),
    "gmax1d": lambda: L.GlobalMaxPooling1D(),
    "gavg1d": lambda: L.GlobalAveragePooling1D(),
    "depthwise": lambda: L.DepthwiseConv2D((2, 3), depth_multiplier=2, padding="same"),
    "upsampling2d": lambda: L.UpSampling2D((2, 3)),
    "zeropadding2d": lambda: L.ZeroPadding2D(((1, 0), (2, 1))),
    "cropping2d": lambda: L.Cropping2D(((1, 2), 1)),
    "separable": lambda: L.SeparableConv2D(3, 2, depth_multiplier=2, padding="same", strides=2),
    "conv2d_transpose": lambda: L.Conv2DTranspose(2, (3, 2), strides=(2, 1)),
    "conv2d_transpose_same": lambda: L.Conv2DTranspose(3, 3, strides=2, padding="same"),
    "layernorm": lambda: L.LayerNormalization(),
    "layernorm2": lambda: L.LayerNormalization(axis=[1, 2]),
    "bn": lambda: L.BatchNormalization(),
    "embedding": lambda: L.Embedding(5, 3),
}


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_tf_keras_golden(case):
    x = GOLDEN[case + "/x"]
    layer = CASES[case]()
    inp = tf.placeholder(tf.as_dtype(x.dtype.name), x.shape)
    y = layer(inp)
    n = len(layer.weights)
    assert n == len([k for k in GOLDEN.files if k.startswith(case + "/name")])
    layer.set_weights([GOLDEN["%s/w%d" % (case, i)] for i in range(n)])
    for i, v in enumerate(layer.weights):
        assert v.name == str(GOLDEN["%s/name%d" % (case, i)])
        assert tuple(v.shape.as_list()) == GOLDEN["%s/w%d" % (case, i)].shape
    got = K.get_session().run(y, {inp: x})
    want = GOLDEN[case + "/y"]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert tuple(layer.compute_output_shape(x.shape).as_list()) == want.shape
    assert y.shape.as_list() == list(want.shape)


@pytest.mark.parametrize("case", sorted(CASES))
def test_get_config_round_trip(case):
    layer = CASES[case]()
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config


def test_config_keys_as_tf_keras():
    assert set(L.Conv2D(2, 3).get_config()) >= {"filters", "kernel_size", "strides", "padding", "data_format",
                                                 "dilation_rate", "activation", "use_bias", "kernel_initializer"}
    assert L.Conv2D(2, 3).get_config()["kernel_size"] == (3, 3)
    assert set(L.MaxPooling2D().get_config()) >= {"pool_size", "padding", "strides", "data_format"}
    assert set(L.BatchNormalization().get_config()) >= {"axis", "momentum", "epsilon", "center", "scale",
                                                         "moving_mean_initializer", "moving_variance_initializer"}
    assert set(L.Embedding(3, 2).get_config()) >= {"input_dim", "output_dim", "embeddings_initializer",
                                                    "mask_zero", "input_length"}


def test_sequential_cnn_fits_and_batchnorm_moving_stats_change():
    rng = np.random.RandomState(0)
    x = rng.randn(16, 6, 6, 2).astype("float32")
    y = rng.randint(0, 3, size=(16,))
    model = keras.Sequential([
        L.Conv2D(4, 3, padding="same", activation="relu", input_shape=(6, 6, 2)),
        L.BatchNormalization(),
        L.MaxPooling2D(),
        L.Conv2D(4, 2),
        L.GlobalAveragePooling2D(),
        L.Dense(3, activation="softmax"),
    ])
    model.compile(tf.train.GradientDescentOptimizer(0.1), "sparse_categorical_crossentropy")
    bn = model.layers[1]
    before = [w.copy() for w in bn.get_weights()]
    history = model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    after = bn.get_weights()
    assert not np.allclose(before[2], after[2])  # moving_mean
    assert not np.allclose(before[3], after[3])  # moving_variance
    # Inference does not move the statistics.
    model.predict(x)
    np.testing.assert_array_equal(bn.get_weights()[2], after[2])
    assert model.predict(x).shape == (16, 3)


def test_embedding_in_sequential():
    model = keras.Sequential([L.Embedding(10, 4, input_length=3), L.Flatten(), L.Dense(1)])
    assert model.output_shape == (None, 1)
    assert model.predict(np.array([[1, 2, 3], [0, 9, 4]])).shape == (2, 1)


def test_error_paths():
    with pytest.raises(ValueError, match="expected ndim=4, found ndim=3"):
        L.Conv2D(2, 3)(tf.placeholder(tf.float32, [None, 5, 5]))
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=4"):
        L.Conv1D(2, 3)(tf.placeholder(tf.float32, [None, 5, 5, 1]))
    with pytest.raises(ValueError, match="padding"):
        L.Conv2D(2, 3, padding="full")
    with pytest.raises(ValueError, match='The `data_format` argument must be one of "channels_first", '
                                         '"channels_last". Received: NCHW'):
        L.Conv2D(2, 3, data_format="NCHW")
    with pytest.raises(ValueError, match="defined dimension"):
        L.BatchNormalization()(tf.placeholder(tf.float32, [None, None]))


@pytest.mark.parametrize("case", ["bn_train4d", "bn_train2d"])
def test_batchnorm_training_step_matches_tf_keras(case):
    x = GOLDEN[case + "/x"]
    layer = L.BatchNormalization(momentum=0.9)
    inp = tf.placeholder(tf.float32, x.shape)
    y = layer(inp, training=True)
    sess = K.get_session()
    got = sess.run([y] + layer.updates, {inp: x})[0]
    np.testing.assert_allclose(got, GOLDEN[case + "/y"], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.stack(sess.run([layer.moving_mean, layer.moving_variance])),
                               GOLDEN[case + "/moving"], rtol=1e-5, atol=1e-6)


def test_other_layers_train_and_sequential_config_round_trip():
    rng = np.random.RandomState(0)
    x = rng.randn(8, 6, 6, 2).astype("float32")
    y = rng.randn(8, 4).astype("float32")
    model = keras.Sequential([
        L.ZeroPadding2D(1, input_shape=(6, 6, 2)), L.SeparableConv2D(3, 3), L.DepthwiseConv2D(2),
        L.Conv2DTranspose(2, 2, strides=2), L.UpSampling2D(), L.Cropping2D(2), L.LayerNormalization(),
        L.AveragePooling2D(), L.Flatten(), L.Dense(4)])
    model.compile(tf.train.GradientDescentOptimizer(0.01), "mse")
    before = [w.copy() for w in model.get_weights()]
    model.fit(x, y, epochs=1, batch_size=4, verbose=0)
    assert all(not np.allclose(a, b) for a, b in zip(before, model.get_weights()))
    clone = keras.Sequential.from_config(model.get_config())
    assert clone.output_shape == model.output_shape == (None, 4)
    assert [w.shape for w in clone.get_weights()] == [w.shape for w in before]


def test_embedding_mask_zero_is_not_silently_ignored():
    # Masks themselves are tested in test_layers_recurrent.py.
    ids = keras.Input((3,), dtype="int32")
    layer = keras.layers.Embedding(10, 3, mask_zero=True)
    layer(ids)
    assert layer.compute_mask(ids) is not None
