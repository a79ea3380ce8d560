"""tf.keras advanced activation layers (LeakyReLU, PReLU, ELU, ThresholdedReLU, Softmax, ReLU) against tf-keras
goldens (tests/data/make_keras_layers2_tf.py), and the noise layers (GaussianNoise, GaussianDropout,
AlphaDropout, SpatialDropout1D/2D/3D): training statistics and the inference identity."""

import math
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K

L = keras.layers
GOLDEN = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "keras_layers2_tf.npz"))

CASES = {
    "leaky_relu": lambda: L.LeakyReLU(alpha=0.1),
    "leaky_relu_default": lambda: L.LeakyReLU(),
    "prelu": lambda: L.PReLU(),
    "prelu_shared": lambda: L.PReLU(shared_axes=[1, 2]),
    "elu": lambda: L.ELU(alpha=0.5),
    "thresholded_relu": lambda: L.ThresholdedReLU(theta=0.5),
    "softmax": lambda: L.Softmax(),
    "softmax_axis1": lambda: L.Softmax(axis=1),
    "relu": lambda: L.ReLU(),
    "relu_all": lambda: L.ReLU(max_value=1.5, negative_slope=0.1, threshold=0.3),
    "relu6": lambda: L.ReLU(max_value=6.0),
    "relu_slope": lambda: L.ReLU(negative_slope=0.2),
}


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_tf_keras_golden(case):
    x = GOLDEN[case + "/x0"]
    inp = tf.placeholder(tf.float32, x.shape)
    layer = CASES[case]()
    y = layer(inp)
    n = len(layer.weights)
    assert n == len([k for k in GOLDEN.files if k.startswith(case + "/name")])
    layer.set_weights([GOLDEN["%s/w%d" % (case, i)] for i in range(n)])
    for i, v in enumerate(layer.weights):
        assert v.name == str(GOLDEN["%s/name%d" % (case, i)])
    got = K.get_session().run(y, {inp: x})
    np.testing.assert_allclose(got, GOLDEN[case + "/y"], rtol=1e-5, atol=1e-6)
    assert y.shape.as_list() == list(x.shape)


@pytest.mark.parametrize("case", sorted(CASES))
def test_get_config_round_trip(case):
    layer = CASES[case]()
    config = layer.get_config()
    assert type(layer).from_config(config).get_config() == config


def test_config_keys_as_tf_keras():
    assert L.LeakyReLU(0.2).get_config()["alpha"] == pytest.approx(0.2)
    assert L.ELU(0.5).get_config()["alpha"] == 0.5
    assert L.ThresholdedReLU(2).get_config()["theta"] == 2.0
    assert L.Softmax(axis=1).get_config()["axis"] == 1
    relu = L.ReLU(max_value=3, negative_slope=0.5, threshold=1).get_config()
    assert (relu["max_value"], relu["negative_slope"], relu["threshold"]) == (3.0, 0.5, 1.0)
    prelu = L.PReLU(shared_axes=2).get_config()
    assert prelu["shared_axes"] == [2]
    assert prelu["alpha_initializer"]["class_name"] == "Zeros"
    assert prelu["alpha_regularizer"] is None and prelu["alpha_constraint"] is None


def test_numpy_references_float64():
    rng = np.random.RandomState(2)
    x = rng.randn(4, 5) * 3
    inp = tf.placeholder(tf.float64, x.shape)
    outs = [L.LeakyReLU(0.25)(inp), L.ELU(2.0)(inp), L.ThresholdedReLU(1.0)(inp), L.Softmax(axis=0)(inp),
            L.ReLU(max_value=2.0, negative_slope=0.5, threshold=-1.0)(inp)]
    got = K.get_session().run(outs, {inp: x})
    e = np.exp(x - x.max(0))
    # As Keras' backend relu: thresholded, then clipped to [0, max_value] (so values in (threshold, 0) give
    # 0), minus the slope times the part below the threshold.
    relu = np.clip(np.where(x > -1.0, x, 0.0), 0.0, 2.0) - 0.5 * np.maximum(-x - 1.0, 0.0)
    want = [np.where(x > 0, x, 0.25 * x), np.where(x > 0, x, 2.0 * (np.exp(x) - 1)), np.where(x > 1.0, x, 0.0),
            e / e.sum(0), relu]
    for g, w in zip(got, want):
        assert g.dtype == np.float64
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_prelu_weights_and_shared_axes():
    layer = L.PReLU(shared_axes=[1, 2], alpha_initializer="ones")
    y = layer(tf.placeholder(tf.float32, [None, 6, 5, 3]))
    assert layer.alpha.shape.as_list() == [1, 1, 3]
    assert layer.trainable_weights == [layer.alpha]
    assert y.shape.as_list() == [None, 6, 5, 3]
    # The non-shared axes are fixed by the build: channels must match.
    with pytest.raises(ValueError, match="expected axis 3 of input shape to have value 3"):
        layer(tf.placeholder(tf.float32, [None, 6, 5, 4]))
    # Shared axes may differ in size between calls.
    assert layer(tf.placeholder(tf.float32, [None, 2, 2, 3])).shape.as_list() == [None, 2, 2, 3]


def test_prelu_error_paths():
    with pytest.raises(ValueError, match=r"^The dimensions of the inputs to `PReLU` should be defined \(or shared "
                                         r"with `shared_axes`\). Found shape \[None, None, 3\].$"):
        L.PReLU()(tf.placeholder(tf.float32, [None, None, 3]))
    with pytest.raises(ValueError, match=r"^PReLU `shared_axes` entries must be in \[1, 3\) for inputs of rank 3; "
                                         r"got \[3\].$"):
        L.PReLU(shared_axes=3)(tf.placeholder(tf.float32, [None, 2, 3]))
    # With the unknown axis shared, it builds.
    assert L.PReLU(shared_axes=1)(tf.placeholder(tf.float32, [None, None, 3])).shape.as_list() == [None, None, 3]


def test_relu_error_paths():
    with pytest.raises(ValueError, match="^max_value of Relu layer cannot be negative value: -1$"):
        L.ReLU(max_value=-1)
    with pytest.raises(ValueError, match="^negative_slope of Relu layer cannot be negative value: -0.1$"):
        L.ReLU(negative_slope=-0.1)


def test_prelu_gradients_float64():
    rng = np.random.RandomState(4)
    x = rng.randn(3, 4, 2)
    x[np.abs(x) < 0.05] = 0.3  # away from the kink
    inp = tf.placeholder(tf.float64, x.shape)
    layer = L.PReLU(shared_axes=[1], dtype="float64")
    y = layer(inp)
    alpha = rng.uniform(0.1, 0.9, (1, 2))
    layer.set_weights([alpha])
    sess = K.get_session()
    with sess.as_default():
        theo, num = tf.test.compute_gradient(inp, x.shape, y, x.shape, x_init_value=x, delta=1e-6)
        np.testing.assert_allclose(theo, num, rtol=1e-6, atol=1e-7)
        theo, num = tf.test.compute_gradient(layer.alpha, (1, 2), y, x.shape, x_init_value=alpha, delta=1e-6,
                                             extra_feed_dict={inp: x})
        np.testing.assert_allclose(theo, num, rtol=1e-6, atol=1e-7)
    # Analytic: d y / d alpha[c] = sum of the negative inputs of channel c.
    g = sess.run(tf.gradients(tf.reduce_sum(y), layer.alpha)[0], {inp: x})
    np.testing.assert_allclose(g, np.minimum(x, 0).sum(axis=(0, 1))[None], rtol=1e-12)


def test_prelu_trains_in_sequential():
    rng = np.random.RandomState(0)
    x = rng.randn(64, 3).astype("float32")
    y = np.where(x > 0, x, 0.25 * x).astype("float32")
    model = keras.Sequential([L.PReLU(input_shape=(3,))])
    model.compile(tf.train.GradientDescentOptimizer(0.5), "mse")
    model.fit(x, y, epochs=60, batch_size=64, verbose=0)
    np.testing.assert_allclose(model.layers[0].get_weights()[0], np.full(3, 0.25), atol=0.02)


# ---- noise layers --------------------------------------------------------------------------------
def _run(layer, x, training):
    inp = tf.placeholder(tf.float32, x.shape)
    y = layer(inp, training=training)
    return K.get_session().run(y, {inp: x})


NOISE = {
    "gaussian_noise": lambda: L.GaussianNoise(0.5),
    "gaussian_dropout": lambda: L.GaussianDropout(0.3),
    "alpha_dropout": lambda: L.AlphaDropout(0.2),
    "spatial1d": lambda: L.SpatialDropout1D(0.5),
}


@pytest.mark.parametrize("case", sorted(NOISE))
def test_noise_inference_is_identity(case):
    x = np.random.RandomState(0).randn(4, 5, 6).astype("float32")
    np.testing.assert_array_equal(_run(NOISE[case](), x, False), x)
    np.testing.assert_array_equal(_run(NOISE[case](), x, None), x)  # default learning phase: test
    inp = tf.placeholder(tf.float32, x.shape)
    y = NOISE[case]()(inp)
    np.testing.assert_array_equal(K.get_session().run(y, {inp: x, K.learning_phase(): False}), x)
    assert not np.array_equal(K.get_session().run(y, {inp: x, K.learning_phase(): True}), x)


def test_gaussian_noise_statistics():
    x = np.random.RandomState(0).randn(200, 100).astype("float32")
    noise = _run(L.GaussianNoise(0.5), x, True) - x
    assert abs(noise.mean()) < 0.01
    assert abs(noise.std() - 0.5) < 0.01


def test_gaussian_dropout_statistics():
    x = np.random.RandomState(0).uniform(1, 2, (200, 100)).astype("float32")
    factor = _run(L.GaussianDropout(0.3), x, True) / x
    sigma = math.sqrt(0.3 / 0.7)
    # 4.5 standard errors of the sample mean and deviation of 20000 normal draws (0.01 was ~2 and failed
    # about one run in thirty)
    assert abs(factor.mean() - 1.0) < 4.5 * sigma / math.sqrt(x.size)
    assert abs(factor.std() - sigma) < 4.5 * sigma / math.sqrt(2 * x.size)
    # rate outside (0, 1): the identity even in training
    np.testing.assert_array_equal(_run(L.GaussianDropout(0.0), x, True), x)


def test_alpha_dropout_statistics_and_values():
    rate = 0.2
    x = np.random.RandomState(0).randn(400, 250).astype("float32")
    y = _run(L.AlphaDropout(rate), x, True)
    # Inputs of zero mean and unit variance keep them.
    assert abs(y.mean()) < 0.01
    assert abs(y.std() - 1.0) < 0.01
    alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
    a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * rate
    dropped = np.isclose(y, a * alpha_p + b, atol=1e-6)
    assert abs(dropped.mean() - rate) < 0.01
    np.testing.assert_allclose(y[~dropped], a * x[~dropped] + b, rtol=1e-5, atol=1e-6)


def test_alpha_dropout_noise_shape():
    x = np.random.RandomState(0).randn(8, 50, 3).astype("float32")
    y = _run(L.AlphaDropout(0.5, noise_shape=(None, 1, 3)), x, True)
    rate = 0.5
    alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
    a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * rate
    dropped = np.isclose(y, a * alpha_p + b, atol=1e-6)
    # one decision per (sample, channel), shared along the steps
    assert (dropped.all(axis=1) | (~dropped).all(axis=1)).all()


@pytest.mark.parametrize("layer,shape,axes", [
    (lambda: L.SpatialDropout1D(0.5), (16, 7, 9), (1,)),
    (lambda: L.SpatialDropout2D(0.5), (16, 3, 4, 9), (1, 2)),
    (lambda: L.SpatialDropout2D(0.5, data_format="channels_first"), (16, 9, 3, 4), (2, 3)),
    (lambda: L.SpatialDropout3D(0.5), (16, 2, 3, 2, 9), (1, 2, 3)),
    (lambda: L.SpatialDropout3D(0.5, data_format="channels_first"), (16, 9, 2, 3, 2), (2, 3, 4)),
])
def test_spatial_dropout_drops_whole_channels(layer, shape, axes):
    x = np.random.RandomState(0).uniform(1, 2, shape).astype("float32")
    y = _run(layer(), x, True)
    zero = y == 0
    assert (zero.all(axis=axes) | (~zero).all(axis=axes)).all()
    assert 0.3 < zero.all(axis=axes).mean() < 0.7
    np.testing.assert_allclose(y[~zero], 2 * x[~zero], rtol=1e-6)
    np.testing.assert_array_equal(_run(layer(), x, False), x)


def test_noise_error_paths_and_configs():
    with pytest.raises(ValueError, match='^data_format must be in {"channels_last", "channels_first"}$'):
        L.SpatialDropout2D(0.5, data_format="NHWC")
    with pytest.raises(ValueError, match='^data_format must be in {"channels_last", "channels_first"}$'):
        L.SpatialDropout3D(0.5, data_format="channels_middle")
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=4"):
        L.SpatialDropout1D(0.5)(tf.placeholder(tf.float32, [None, 2, 3, 4]))
    for layer, keys in [(L.GaussianNoise(0.1), {"stddev"}), (L.GaussianDropout(0.1), {"rate"}),
                        (L.AlphaDropout(0.1), {"rate"}), (L.SpatialDropout1D(0.3), {"rate"}),
                        (L.SpatialDropout2D(0.3, data_format="channels_first"), {"rate", "data_format"}),
                        (L.SpatialDropout3D(0.3), {"rate", "data_format"})]:
        config = layer.get_config()
        assert keys <= set(config)
        assert type(layer).from_config(config).get_config() == config


def test_noise_layers_in_a_fitted_model():
    rng = np.random.RandomState(0)
    x = rng.randn(32, 6, 4).astype("float32")
    y = x.sum(axis=(1, 2))[:, None].astype("float32")
    model = keras.Sequential([L.GaussianNoise(0.1, input_shape=(6, 4)), L.SpatialDropout1D(0.2), L.Flatten(),
                              L.Dense(8), L.AlphaDropout(0.1), L.GaussianDropout(0.1), L.Dense(1)])
    model.compile(tf.train.AdamOptimizer(0.01), "mse")
    history = model.fit(x, y, epochs=20, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    # Inference is deterministic.
    np.testing.assert_array_equal(model.predict(x), model.predict(x))
