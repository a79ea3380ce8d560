"""tf.keras.layers.ConvLSTM2D against tf-keras goldens (tests/data/keras_convlstm_tf.npz, recorded by
tests/data/make_keras_convlstm_tf.py from the cases of tests/data/keras_convlstm_cases.py): outputs, states
and gradients; channels_first against the channels_last goldens; a float64 numerical gradient; dropout in
training; stateful runs; config, JSON and HDF5 round trips; error paths."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K
from tensorweave.keras.layers.convolutional_recurrent import ConvLSTM2DCell, ConvRNN2D
from tests.data import keras_convlstm_cases as cases

L = keras.layers
GOLDEN = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "keras_convlstm_tf.npz"))


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


def _count(case, key):
    return len([k for k in GOLDEN.files if k.startswith("%s/%s" % (case, key))])


def _run(case):
    inputs, outputs, layer = cases.CASES[case](keras)
    layer.set_weights(cases.weights(layer))
    return inputs, outputs, layer, dict(zip(inputs, cases.FEEDS[case]))


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_outputs_match_tf_keras(case):
    inputs, outputs, layer, feed = _run(case)
    # TF 1.15 snake-cases ConvLSTM2D as `conv_lst_m2d`; tf-keras 2.x as `conv_lstm2d`.
    want_names = [str(GOLDEN["%s/name%d" % (case, i)]) for i in range(_count(case, "name"))]
    assert [w.name for w in layer.weights] == [n.replace("conv_lstm2d", "conv_lst_m2d") for n in want_names]
    got = K.get_session().run(outputs, feed)
    assert len(got) == _count(case, "y")
    for i, y in enumerate(got):
        want = GOLDEN["%s/y%d" % (case, i)]
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
        assert outputs[i].shape.as_list() == list(want.shape)


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_gradients_match_tf_keras(case):
    inputs, outputs, layer, feed = _run(case)
    ys = K.get_session().run(outputs, feed)
    rng = np.random.RandomState(2)
    coefficients = [rng.uniform(-1, 1, y.shape).astype("float32") for y in ys]
    loss = tf.add_n([tf.reduce_sum(y * c) for y, c in zip(outputs, coefficients)])
    grads = K.get_session().run(tf.gradients(loss, layer.weights + [inputs[0]]), feed)
    assert len(grads) == _count(case, "g")
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g, GOLDEN["%s/g%d" % (case, i)], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("case, kwargs", [
    ("seq_same_rect", dict(filters=3, kernel_size=(3, 2), padding="same", return_sequences=True)),
    ("strided", dict(filters=3, kernel_size=(2, 3), strides=(2, 1), return_sequences=True)),
    ("backwards_state", dict(filters=2, kernel_size=2, go_backwards=True, return_state=True)),
])
def test_channels_first_matches_channels_last_goldens(case, kwargs):
    x = cases.X.transpose(0, 1, 4, 2, 3)
    inp = keras.Input(batch_shape=x.shape)
    layer = L.ConvLSTM2D(data_format="channels_first", **kwargs)
    outputs = layer(inp)
    outputs = outputs if isinstance(outputs, list) else [outputs]
    layer.set_weights(cases.weights(layer))
    got = K.get_session().run(outputs, {inp: x})
    for i, y in enumerate(got):
        want = GOLDEN["%s/y%d" % (case, i)]
        want = want.transpose(0, 1, 4, 2, 3) if want.ndim == 5 else want.transpose(0, 3, 1, 2)
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
        assert outputs[i].shape.as_list() == list(want.shape)


def test_numerical_gradient_float64():
    rng = np.random.RandomState(3)
    x = rng.randn(1, 3, 4, 4, 2)
    inp = tf.placeholder(tf.float64, x.shape)
    layer = L.ConvLSTM2D(2, (2, 3), padding="same", return_sequences=True, dtype="float64",
                         recurrent_activation="sigmoid")
    y = layer(inp)
    coefficients = tf.constant(rng.uniform(-1, 1, y.shape.as_list()))
    loss = tf.reduce_sum(y * coefficients)
    sess = K.get_session()
    values = [rng.uniform(-0.5, 0.5, K.int_shape(w)) for w in layer.weights]
    layer.set_weights(values)
    analytic = sess.run(tf.gradients(loss, layer.weights + [inp]), {inp: x})
    eps = 1e-6
    checked = []
    for index, value in enumerate(values + [x]):
        for flat in rng.choice(value.size, 6, replace=False):
            pos = np.unravel_index(flat, value.shape)
            losses = []
            for sign in (1, -1):
                shifted = value.copy()
                shifted[pos] += sign * eps
                if index < len(values):
                    layer.set_weights(values[:index] + [shifted] + values[index + 1:])
                    losses.append(sess.run(loss, {inp: x}))
                else:
                    layer.set_weights(values)
                    losses.append(sess.run(loss, {inp: shifted}))
            numeric = (losses[0] - losses[1]) / (2 * eps)
            checked.append(abs(numeric))
            assert analytic[index][pos] == pytest.approx(numeric, rel=1e-5, abs=1e-7)
        layer.set_weights(values)
    assert len(checked) == 24 and np.median(checked) > 1e-3


def test_dropout_applies_only_in_training():
    x = cases.X
    inp = keras.Input(batch_shape=x.shape)
    # A rate of almost 1 drops every input channel: the training output is the output for zero inputs.
    layer = L.ConvLSTM2D(3, 3, padding="same", return_sequences=True, dropout=1 - 1e-7)
    y = layer(inp)
    layer.set_weights(cases.weights(layer))
    sess = K.get_session()
    infer = sess.run(y, {inp: x, K.learning_phase(): 0})
    train = sess.run(y, {inp: x, K.learning_phase(): 1})
    zero_input = sess.run(y, {inp: np.zeros_like(x), K.learning_phase(): 0})
    np.testing.assert_allclose(train, zero_input, rtol=1e-6, atol=1e-7)
    assert np.abs(train - infer).max() > 0.05
    K.clear_session()
    inp = keras.Input(batch_shape=x.shape)
    layer = L.ConvLSTM2D(3, 3, padding="same", return_sequences=True, recurrent_dropout=1 - 1e-7)
    y = layer(inp)
    weights = cases.weights(layer)
    layer.set_weights(weights)
    train = K.get_session().run(y, {inp: x, K.learning_phase(): 1})
    layer.set_weights([weights[0], np.zeros_like(weights[1]), weights[2]])
    no_recurrence = K.get_session().run(y, {inp: x, K.learning_phase(): 0})
    np.testing.assert_allclose(train, no_recurrence, rtol=1e-6, atol=1e-7)


def test_stateful_runs_continue_from_final_states():
    inp = keras.Input(batch_shape=cases.X.shape)
    layer = L.ConvLSTM2D(2, 3, padding="same", stateful=True)
    model = keras.Model(inp, layer(inp))
    layer.set_weights(cases.weights(layer))
    np.testing.assert_allclose(model.predict(cases.X), GOLDEN["stateful/y0"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.predict(cases.X[:, ::-1]), GOLDEN["stateful/y1"], rtol=1e-5, atol=1e-6)
    assert [K.int_shape(s) for s in layer.states] == [(2, 5, 6, 2), (2, 5, 6, 2)]
    layer.reset_states()
    np.testing.assert_allclose(model.predict(cases.X), GOLDEN["stateful/y0"], rtol=1e-5, atol=1e-6)
    h, c = K.batch_get_value(layer.states)
    layer.reset_states()
    model.predict(cases.X)
    layer.reset_states([h * 0, c * 0])
    np.testing.assert_allclose(model.predict(cases.X), GOLDEN["stateful/y0"], rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match=r"State 1 is incompatible with layer conv_lst_m2d: expected "
                                         r"shape=\(2, 5, 6, 2\), found shape=\(2, 5, 6, 3\)"):
        layer.reset_states([h, np.zeros((2, 5, 6, 3))])
    with pytest.raises(ValueError, match="expects 2 states, but it received 1 state values"):
        layer.reset_states(h)


def test_config_round_trip_and_saving(tmp_path):
    layer = L.ConvLSTM2D(3, (3, 2), strides=(2, 1), padding="same", data_format="channels_last",
                         dilation_rate=(1, 1), activation="relu", recurrent_activation="sigmoid", use_bias=False,
                         unit_forget_bias=False, kernel_regularizer=keras.regularizers.l2(0.01),
                         activity_regularizer="l1", bias_constraint="non_neg", return_sequences=True,
                         go_backwards=True, dropout=0.25, recurrent_dropout=0.5, name="clstm")
    config = layer.get_config()
    assert config["filters"] == 3 and config["kernel_size"] == (3, 2) and config["strides"] == (2, 1)
    assert config["recurrent_activation"] == "sigmoid" and config["dropout"] == 0.25
    assert "cell" not in config and config["go_backwards"] is True
    clone = L.ConvLSTM2D.from_config(config)
    assert clone.get_config() == config
    assert clone.recurrent_dropout == 0.5 and clone.kernel_size == (3, 2)

    inp = keras.Input((4, 5, 6, 2))
    model = keras.Model(inp, L.ConvLSTM2D(3, (3, 2), padding="same", return_sequences=True, name="clstm")(inp))
    model.layers[1].set_weights(cases.weights(model.layers[1]))
    want = model.predict(cases.X)
    np.testing.assert_allclose(want, GOLDEN["seq_same_rect/y0"], rtol=1e-5, atol=1e-6)
    twin = keras.models.model_from_json(model.to_json())
    twin.set_weights(model.get_weights())
    np.testing.assert_allclose(twin.predict(cases.X), want, rtol=1e-6)
    path = str(tmp_path / "clstm.h5")
    model.save(path)
    K.clear_session()
    loaded = keras.models.load_model(path)
    assert isinstance(loaded.layers[1], L.ConvLSTM2D)
    np.testing.assert_allclose(loaded.predict(cases.X), want, rtol=1e-6)


def test_output_shapes_and_mask():
    layer = L.ConvLSTM2D(4, 3, strides=2, return_sequences=True, return_state=True)
    shapes = layer.compute_output_shape((None, 7, 9, 11, 2))
    assert [s.as_list() for s in shapes] == [[None, 7, 4, 5, 4], [None, 4, 5, 4], [None, 4, 5, 4]]
    first = L.ConvLSTM2D(4, 3, dilation_rate=2, data_format="channels_first")
    assert first.compute_output_shape((3, 5, 2, 9, 10)).as_list() == [3, 4, 5, 6]
    mask = tf.constant(cases.MASK)
    assert L.ConvLSTM2D(2, 1, return_sequences=True).compute_mask(None, mask) is mask
    assert L.ConvLSTM2D(2, 1).compute_mask(None, mask) is None


def test_errors():
    cell = ConvLSTM2DCell(2, 3)
    with pytest.raises(TypeError, match="Unrolling isn't possible with convolutional RNNs."):
        ConvRNN2D(cell, unroll=True)
    with pytest.raises(TypeError, match="not possible at the moment to stack convolutional cells"):
        ConvRNN2D([cell, ConvLSTM2DCell(2, 3)])
    with pytest.raises(ValueError, match="The `padding` argument must be one of 'valid', 'same'. Received: full"):
        L.ConvLSTM2D(2, 3, padding="full")
    with pytest.raises(ValueError, match="The `kernel_size` argument must be a tuple of 2 integers"):
        L.ConvLSTM2D(2, (3, 3, 3))
    with pytest.raises(ValueError, match='`data_format` argument must be one of "channels_first", "channels_last"'):
        L.ConvLSTM2D(2, 3, data_format="NHWC")
    with pytest.raises(ValueError, match="expected ndim=5, found ndim=4"):
        L.ConvLSTM2D(2, 3)(keras.Input((4, 5, 6)))
    with pytest.raises(ValueError, match="The channel dimension of the inputs should be defined. Found `None`."):
        L.ConvLSTM2D(2, 3)(tf.placeholder(tf.float32, (None, 3, 5, 5, None)))
    with pytest.raises(AttributeError, match="Layer must be stateful."):
        L.ConvLSTM2D(2, 3).reset_states()
    with pytest.raises(ValueError, match="If a RNN is stateful, it needs to know its batch size"):
        L.ConvLSTM2D(2, 3, stateful=True)(keras.Input((3, 5, 5, 1)))
    with pytest.raises(ValueError, match="Layer has 2 states but was passed 1 initial states."):
        L.ConvLSTM2D(2, 3, padding="same")(keras.Input((3, 5, 5, 1)),
                                          initial_state=[tf.zeros((1, 5, 5, 2))])
    with pytest.raises(AttributeError, match="'ConvLSTM2D' object has no attribute 'units'"):
        L.ConvLSTM2D(2, 3).units
