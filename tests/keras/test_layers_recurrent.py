"""tf.keras recurrent layers, wrappers and masking against tf-keras goldens (tests/data/keras_recurrent_tf.npz,
recorded by tests/data/make_keras_recurrent_tf.py from the models of tests/data/keras_recurrent_cases.py)."""

import os
import re

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K
from tensorweave.keras.engine.base_layer import get_keras_mask
from tests.data import keras_recurrent_cases

L = keras.layers
GOLDEN = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "keras_recurrent_tf.npz"))
CASES = keras_recurrent_cases.cases()


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


def _tf115_name(case, name):
    """tf-keras 2.x scopes a cell's weights under the cell's name (`lstm/lstm_cell/kernel:0`) and stacked
    cells under `stacked_rnn_cells`; TF 1.15 (and tensorweave) build the cell in the layer's scope."""
    name = name.replace("/stacked_rnn_cells", "")
    if "stacked" not in case:
        name = re.sub(r"/(lstm|gru|simple_rnn)_cell/", "/", name)
    return name


def _build(case):
    build, xs = CASES[case]
    inputs, outputs = build(keras)
    model = keras.Model(inputs, outputs)
    n = len(model.weights)
    assert n == len([k for k in GOLDEN.files if k.startswith(case + "/name")])
    model.set_weights([GOLDEN["%s/w%d" % (case, i)] for i in range(n)])
    return model, inputs, outputs, dict(zip(inputs, xs))


@pytest.mark.parametrize("case", sorted(CASES))
def test_outputs_match_tf_keras(case):
    model, inputs, outputs, feed = _build(case)
    for i, v in enumerate(model.weights):
        assert v.name == _tf115_name(case, str(GOLDEN["%s/name%d" % (case, i)]))
    got = K.get_session().run(outputs, feed)
    assert len(got) == len([k for k in GOLDEN.files if k.startswith(case + "/y")])
    for i, y in enumerate(got):
        want = GOLDEN["%s/y%d" % (case, i)]
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
        assert outputs[i].shape.as_list() == list(want.shape)


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradients_match_tf_keras(case):
    model, inputs, outputs, feed = _build(case)
    rng = np.random.RandomState(2)
    coefficients = [rng.uniform(-1, 1, GOLDEN["%s/y%d" % (case, i)].shape).astype("float32")
                    for i in range(len(outputs))]
    loss = tf.add_n([tf.reduce_sum(y * c) for y, c in zip(outputs, coefficients)])
    grads = [tf.convert_to_tensor(g) for g in tf.gradients(loss, model.weights)]
    for i, g in enumerate(K.get_session().run(grads, feed)):
        np.testing.assert_allclose(g, GOLDEN["%s/g%d" % (case, i)], rtol=1e-4, atol=1e-5)


def test_output_shapes_and_static_shapes():
    x = keras.Input((None, 3))
    lstm = L.LSTM(4, return_sequences=True, return_state=True)
    y, h, c = lstm(x)
    assert y.shape.as_list() == [None, None, 4] and h.shape.as_list() == [None, 4]
    assert [s.as_list() for s in lstm.compute_output_shape(tf.TensorShape([2, 7, 3]))] == [[2, 7, 4], [2, 4], [2, 4]]
    bidi = L.Bidirectional(L.GRU(2, return_state=True), merge_mode=None)
    shapes = bidi.compute_output_shape(tf.TensorShape([2, 7, 3]))
    assert [s.as_list() for s in shapes] == [[2, 2], [2, 2], [2, 2], [2, 2]]
    assert L.Bidirectional(L.GRU(2, return_sequences=True)).compute_output_shape((2, 7, 3)).as_list() == [2, 7, 4]
    assert L.TimeDistributed(L.Dense(5)).compute_output_shape((2, 7, 3)).as_list() == [2, 7, 5]
    stacked = L.RNN([L.LSTMCell(3), L.GRUCell(2)], return_state=True)
    assert [s.as_list() for s in stacked.compute_output_shape((2, 7, 3))] == [[2, 2], [2, 3], [2, 3], [2, 2]]


def test_unknown_time_length_runs_any_length():
    x = tf.placeholder(tf.float32, (None, None, 3))
    layer = L.GRU(2, return_sequences=True)
    y = layer(x)
    sess = K.get_session()
    for steps in (1, 4, 9):
        value = np.random.RandomState(steps).randn(3, steps, 3).astype("float32")
        out = sess.run(y, {x: value})
        assert out.shape == (3, steps, 2)
    # The last output of the full sequence is the output of a layer without return_sequences.
    last = L.GRU(2, weights=layer.get_weights())(x)
    value = np.random.RandomState(0).randn(3, 6, 3).astype("float32")
    full, final = sess.run([y, last], {x: value})
    np.testing.assert_allclose(full[:, -1], final, rtol=1e-6, atol=1e-7)


class MinimalRNNCell(L.Layer):
    """The custom cell of Keras' RNN docstring."""

    def __init__(self, units, **kwargs):
        self.units = units
        self.state_size = units
        super().__init__(**kwargs)

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="uniform",
                                                name="recurrent_kernel")
        self.built = True

    def call(self, inputs, states):
        output = K.dot(inputs, self.kernel) + K.dot(states[0], self.recurrent_kernel)
        return output, [output]


def test_custom_cell_and_time_major():
    x = keras.Input((None, 5))
    layer = L.RNN(MinimalRNNCell(4), return_sequences=True)
    y = layer(x)
    assert [w.name for w in layer.weights] == ["rnn/kernel:0", "rnn/recurrent_kernel:0"]
    values = np.random.RandomState(0).randn(2, 3, 5).astype("float32")
    sess = K.get_session()
    out = sess.run(y, {x: values})
    kernel, recurrent = layer.get_weights()
    h, want = np.zeros((2, 4)), []
    for t in range(3):
        h = values[:, t] @ kernel + h @ recurrent
        want.append(h)
    np.testing.assert_allclose(out, np.stack(want, 1), rtol=1e-5, atol=1e-6)
    time_major = L.GRU(3, time_major=True, return_sequences=True, return_state=True)
    xt = tf.placeholder(tf.float32, (None, 2, 5))
    yt = time_major(xt)
    batch_major = L.GRU(3, return_sequences=True, return_state=True)
    yb = batch_major(tf.transpose(xt, [1, 0, 2]))
    batch_major.set_weights(time_major.get_weights())
    a, b = K.get_session().run([yt, yb], {xt: values.transpose(1, 0, 2)})
    np.testing.assert_allclose(a[0].transpose(1, 0, 2), b[0], rtol=1e-6)
    np.testing.assert_allclose(a[1], b[1], rtol=1e-6)
    assert time_major.compute_output_shape((7, 2, 5))[0].as_list() == [7, 2, 3]


def test_bidirectional_weights_argument():
    x = keras.Input((None, 5))
    first = L.Bidirectional(L.LSTM(2))
    first(x)
    values = [np.full(w.shape, i, "float32") for i, w in enumerate(first.get_weights())]
    second = L.Bidirectional(L.LSTM(2), weights=values)
    second(x)
    for got, want in zip(second.get_weights(), values):
        np.testing.assert_array_equal(got, want)
    assert [w.name for w in second.weights][3] == "bidirectional_1/backward_lstm_1/kernel:0"


# ---- masks ------------------------------------------------------------------------------------
def test_embedding_mask_zero_and_masking_produce_masks():
    ids = keras.Input((None,), dtype="int32")
    emb = L.Embedding(10, 3, mask_zero=True)(ids)
    seq = L.LSTM(2, return_sequences=True)(emb)
    last = L.LSTM(2)(emb)
    x = keras.Input((None, 3))
    masked = L.Masking(0.5)(x)
    sess = K.get_session()
    id_values = keras_recurrent_cases.IDS
    np.testing.assert_array_equal(sess.run(get_keras_mask(emb), {ids: id_values}), id_values != 0)
    np.testing.assert_array_equal(sess.run(get_keras_mask(seq), {ids: id_values}), id_values != 0)
    assert get_keras_mask(last) is None
    values = np.random.RandomState(0).randn(2, 4, 3).astype("float32")
    values[0, 1] = 0.5
    out, mask = sess.run([masked, get_keras_mask(masked)], {x: values})
    np.testing.assert_array_equal(mask, [[True, False, True, True], [True] * 4])
    np.testing.assert_array_equal(out[0, 1], 0.0)
    np.testing.assert_array_equal(out[1], values[1])
    assert L.Embedding(3, 2).compute_mask(ids) is None


def test_masked_steps_keep_state_and_output():
    """At a masked step the state is kept and the output repeats the previous one (TF 1.15)."""
    x = keras.Input((None, 2))
    y = L.SimpleRNN(3, return_sequences=True)(L.Masking()(x))
    values = np.random.RandomState(0).randn(1, 5, 2).astype("float32")
    values[0, 2:4] = 0.0
    out = K.get_session().run(y, {x: values})
    np.testing.assert_array_equal(out[0, 2], out[0, 1])
    np.testing.assert_array_equal(out[0, 3], out[0, 1])
    assert not np.allclose(out[0, 4], out[0, 1])


def test_mask_propagates_through_functional_model_and_sequential():
    ids = keras.Input((None,), dtype="int32")
    inner = keras.Model(ids, L.Embedding(10, 3, mask_zero=True)(ids))
    outer_in = keras.Input((None,), dtype="int32")
    emb = inner(outer_in)
    y = L.LSTM(2, return_sequences=True)(emb)
    sess = K.get_session()
    id_values = keras_recurrent_cases.IDS
    np.testing.assert_array_equal(sess.run(get_keras_mask(emb), {outer_in: id_values}), id_values != 0)
    np.testing.assert_array_equal(sess.run(get_keras_mask(y), {outer_in: id_values}), id_values != 0)
    np.testing.assert_array_equal(sess.run(inner.compute_mask(outer_in, None), {outer_in: id_values}),
                                  id_values != 0)
    model = keras.Sequential([L.Embedding(10, 3, mask_zero=True, input_length=6), L.SimpleRNN(2)])
    plain = keras.Sequential([L.Embedding(10, 3, input_length=6), L.SimpleRNN(2)])
    plain.set_weights(model.get_weights())
    # Trailing padding does not change a masked RNN's last output; it does without the mask.
    padded = np.array([[3, 1, 4, 0, 0, 0]])
    short = np.array([[3, 1, 4]])
    trimmed = keras.Sequential([L.Embedding(10, 3, input_length=3), L.SimpleRNN(2)])
    trimmed.set_weights(model.get_weights())
    np.testing.assert_allclose(model.predict(padded), trimmed.predict(short), rtol=1e-6)
    assert not np.allclose(plain.predict(padded), trimmed.predict(short))


def test_layer_without_masking_drops_the_mask_and_explicit_mask_argument():
    ids = keras.Input((4,), dtype="int32")
    emb = L.Embedding(10, 3, mask_zero=True)(ids)
    flat = L.Flatten()(emb)
    assert get_keras_mask(flat) is None
    with pytest.raises(TypeError, match="Layer flatten_1 does not support masking, but was passed an input_mask"):
        L.Flatten().compute_mask(emb, get_keras_mask(emb))
    # An explicit `mask=` wins over the inputs' mask.
    x = keras.Input((3, 2))
    m = tf.placeholder(tf.bool, (None, 3))
    y = L.SimpleRNN(2, return_sequences=True)(x, mask=m)
    values = np.random.RandomState(0).randn(1, 3, 2).astype("float32")
    out = K.get_session().run(y, {x: values, m: [[True, False, True]]})
    np.testing.assert_array_equal(out[0, 1], out[0, 0])


# ---- dropout, stateful, training ----------------------------------------------------------------
def test_dropout_masks_fixed_over_time_and_inference_is_deterministic():
    x = tf.placeholder(tf.float32, (4, 6, 8))
    layer = L.SimpleRNN(8, dropout=0.5, activation=None, kernel_initializer="identity",
                        recurrent_initializer="zeros")
    seq = L.RNN(layer.cell, return_sequences=True)
    train = seq(x, training=True)
    infer = seq(x, training=False)
    default = seq(x)
    ones = np.ones((4, 6, 8), "float32")
    sess = K.get_session()
    out_train, out_infer, out_default = sess.run([train, infer, default], {x: ones})
    np.testing.assert_array_equal(out_infer, ones)
    np.testing.assert_array_equal(out_default, ones)
    assert set(np.unique(out_train)) <= {0.0, 2.0} and 0.0 in out_train and 2.0 in out_train
    for t in range(1, 6):
        np.testing.assert_array_equal(out_train[:, t], out_train[:, 0])
    # With the learning phase fed as 1, dropout applies; recurrent dropout too.
    rec = L.GRU(3, recurrent_dropout=0.5, return_sequences=True)
    y = rec(x)
    sess = K.get_session()
    values = np.random.RandomState(0).randn(4, 6, 8).astype("float32")
    a = sess.run(y, {x: values})
    b = sess.run(y, {x: values, K.learning_phase(): True})
    np.testing.assert_array_equal(a, sess.run(y, {x: values}))
    assert not np.allclose(a, b)


def test_stateful_lstm_matches_tf_keras_and_resets():
    x = keras.Input(batch_shape=keras_recurrent_cases.X.shape)
    layer = L.LSTM(3, stateful=True, return_sequences=True)
    y = layer(x)
    model = keras.Model(x, y)
    model.set_weights([GOLDEN["stateful/w%d" % i] for i in range(3)])
    sess = K.get_session()
    xs = keras_recurrent_cases.X
    first = sess.run([y] + layer.updates, {x: xs})[0]
    second = sess.run([y] + layer.updates, {x: xs[:, ::-1]})[0]
    np.testing.assert_allclose(first, GOLDEN["stateful/y0"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(second, GOLDEN["stateful/y1"], rtol=1e-5, atol=1e-6)
    layer.reset_states()
    np.testing.assert_allclose(sess.run(y, {x: xs}), first, rtol=1e-6)
    h = np.full((2, 3), 0.25, "float32")
    layer.reset_states([h, np.zeros((2, 3), "float32")])
    np.testing.assert_array_equal(K.get_value(layer.states[0]), h)
    with pytest.raises(ValueError, match="State 0 is incompatible with layer lstm: expected shape=\\(2, 3\\)"):
        layer.reset_states([np.zeros((3, 3)), np.zeros((2, 3))])
    with pytest.raises(ValueError, match="Layer lstm expects 2 states, but it received 1 state values"):
        layer.reset_states([h])


def test_stateful_predict_carries_the_state_across_calls_as_tf_1_15():
    x = keras.Input(batch_shape=keras_recurrent_cases.X.shape)
    model = keras.Model(x, L.LSTM(3, stateful=True, return_sequences=True)(x))
    model.set_weights([GOLDEN["stateful/w%d" % i] for i in range(3)])
    xs = keras_recurrent_cases.X
    np.testing.assert_allclose(model.predict(xs, batch_size=2), GOLDEN["stateful/y0"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.predict(xs[:, ::-1], batch_size=2), GOLDEN["stateful/y1"], rtol=1e-5,
                               atol=1e-6)
    model.reset_states()
    np.testing.assert_allclose(model.predict(xs, batch_size=2), GOLDEN["stateful/y0"], rtol=1e-5, atol=1e-6)


def test_stateful_sequential_with_batch_input_shape_and_bidirectional():
    model = keras.Sequential([L.GRU(2, stateful=True, batch_input_shape=(2, 3, 1))])
    layer = model.layers[0]
    assert layer.input_spec[0].shape == (2, None, 1)
    assert len(layer.states) == 1 and K.int_shape(layer.states[0]) == (2, 2)
    bidi = L.Bidirectional(L.SimpleRNN(2, stateful=True))
    bidi(keras.Input(batch_shape=(2, 3, 1)))
    bidi.reset_states()
    assert K.int_shape(bidi.forward_layer.states[0]) == (2, 2)
    with pytest.raises(AttributeError, match="Layer must be stateful."):
        L.Bidirectional(L.SimpleRNN(2)).reset_states()


def test_lstm_fit_lowers_loss():
    rng = np.random.RandomState(0)
    x = rng.randn(32, 6, 2).astype("float32")
    y = (x[:, :, 0].sum(axis=1) > 0).astype("float32")[:, None]
    model = keras.Sequential([L.LSTM(8, input_shape=(6, 2)), L.Dense(1, activation="sigmoid")])
    model.compile(tf.train.AdamOptimizer(0.05), "binary_crossentropy")
    history = model.fit(x, y, batch_size=16, epochs=8, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < 0.6 * losses[0]


@pytest.mark.parametrize("make", [lambda: L.SimpleRNN(3, return_sequences=True),
                                  lambda: L.LSTM(3, return_sequences=True),
                                  lambda: L.GRU(3, return_sequences=True),
                                  lambda: L.GRU(3, reset_after=True, return_sequences=True)])
def test_numerical_gradient_float64(make):
    K.set_floatx("float64")
    try:
        x = tf.placeholder(tf.float64, (2, 4, 3))
        mask = tf.placeholder(tf.bool, (2, 4))
        layer = make()
        y = layer(x, mask=mask)
        rng = np.random.RandomState(0)
        coefficients = rng.randn(2, 4, 3)
        loss = tf.reduce_sum(y * coefficients)
        variables = layer.trainable_weights
        grads = tf.gradients(loss, [x] + variables)
        sess = K.get_session()
        xv = rng.randn(2, 4, 3)
        feed = {x: xv, mask: [[True, True, False, True], [True] * 4]}
        analytic = sess.run(grads, feed)
        eps = 1e-6
        numeric_x = np.zeros_like(xv)
        for index in np.ndindex(*xv.shape):
            plus, minus = xv.copy(), xv.copy()
            plus[index] += eps
            minus[index] -= eps
            numeric_x[index] = (sess.run(loss, {**feed, x: plus}) -
                                sess.run(loss, {**feed, x: minus})) / (2 * eps)
        np.testing.assert_allclose(analytic[0], numeric_x, rtol=1e-5, atol=1e-7)
        assert np.all(analytic[0][0, 2] == 0)  # a masked step does not reach the outputs
        kernel = variables[1]  # the recurrent kernel
        value = K.get_value(kernel)
        numeric_k = np.zeros_like(value)
        for index in np.ndindex(*value.shape):
            for sign in (1, -1):
                changed = value.copy()
                changed[index] += sign * eps
                K.set_value(kernel, changed)
                numeric_k[index] += sign * sess.run(loss, feed) / (2 * eps)
        K.set_value(kernel, value)
        np.testing.assert_allclose(analytic[2], numeric_k, rtol=1e-5, atol=1e-7)
    finally:
        K.set_floatx("float32")


# ---- config --------------------------------------------------------------------------------------
CONFIG_CASES = {
    "simple_rnn": lambda: L.SimpleRNN(3, activation="relu", dropout=0.2, return_sequences=True),
    "gru": lambda: L.GRU(3, reset_after=True, recurrent_activation="sigmoid", go_backwards=True),
    "lstm": lambda: L.LSTM(3, unit_forget_bias=False, return_state=True, stateful=True,
                           batch_input_shape=(2, 4, 3)),
    "rnn_stacked": lambda: L.RNN([L.LSTMCell(3), L.GRUCell(2, reset_after=True)], unroll=True),
    "rnn_cell": lambda: L.RNN(L.SimpleRNNCell(2), zero_output_for_mask=True),
    "simple_rnn_cell": lambda: L.SimpleRNNCell(4, recurrent_dropout=0.1),
    "gru_cell": lambda: L.GRUCell(4, implementation=2),
    "lstm_cell": lambda: L.LSTMCell(4, use_bias=False),
    "stacked_cells": lambda: L.StackedRNNCells([L.SimpleRNNCell(2), L.LSTMCell(3)]),
    "bidirectional": lambda: L.Bidirectional(L.LSTM(3, return_sequences=True), merge_mode="mul"),
    "bidirectional_custom_backward": lambda: L.Bidirectional(
        L.GRU(3), backward_layer=L.GRU(3, go_backwards=True, name="back")),
    "time_distributed": lambda: L.TimeDistributed(L.Dense(2, activation="tanh")),
    "masking": lambda: L.Masking(-1.0),
}


@pytest.mark.parametrize("case", sorted(CONFIG_CASES))
def test_get_config_round_trip(case):
    layer = CONFIG_CASES[case]()
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config


def test_config_keys_as_tf_keras():
    config = L.GRU(2).get_config()
    assert set(config) >= {"units", "activation", "recurrent_activation", "use_bias", "kernel_initializer",
                           "recurrent_initializer", "bias_initializer", "dropout", "recurrent_dropout",
                           "implementation", "reset_after", "return_sequences", "return_state", "go_backwards",
                           "stateful", "unroll", "time_major"}
    assert "cell" not in config and config["reset_after"] is False and config["recurrent_activation"] == "hard_sigmoid"
    assert L.LSTM(2).get_config()["unit_forget_bias"] is True
    assert L.RNN(L.LSTMCell(2)).get_config()["cell"]["class_name"] == "LSTMCell"
    assert L.Bidirectional(L.LSTM(2)).get_config()["layer"]["class_name"] == "LSTM"
    assert L.Embedding(5, 2, mask_zero=True).get_config()["mask_zero"] is True


def test_functional_model_config_round_trip_with_masking():
    ids = keras.Input((None,), dtype="int32")
    emb = L.Embedding(10, 3, mask_zero=True)(ids)
    y = L.Bidirectional(L.GRU(2, return_sequences=True))(emb)
    y = L.TimeDistributed(L.Dense(1))(y)
    model = keras.Model(ids, y)
    clone = keras.Model.from_config(model.get_config())
    clone.set_weights(model.get_weights())
    values = keras_recurrent_cases.IDS
    np.testing.assert_allclose(clone.predict(values), model.predict(values), rtol=1e-6)
    assert [w.shape.as_list() for w in clone.weights] == [w.shape.as_list() for w in model.weights]


def test_lstm_unit_forget_bias_and_weight_shapes():
    layer = L.LSTM(3)
    layer(keras.Input((None, 2)))
    bias = K.get_value(layer.cell.bias)
    np.testing.assert_array_equal(bias, [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    assert [tuple(w.shape.as_list()) for w in layer.weights] == [(2, 12), (3, 12), (12,)]
    gru = L.GRU(3, reset_after=True)
    gru(keras.Input((None, 2)))
    assert [tuple(w.shape.as_list()) for w in gru.weights] == [(2, 9), (3, 9), (2, 9)]
    assert layer.units == 3 and gru.reset_after is True and layer.unit_forget_bias is True


# ---- errors ---------------------------------------------------------------------------------------
def test_error_paths():
    with pytest.raises(ValueError, match="If a RNN is stateful, it needs to know its batch size"):
        L.LSTM(2, stateful=True)(keras.Input((None, 3)))
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
        L.GRU(2)(keras.Input((3,)))
    with pytest.raises(ValueError, match="expected min_ndim=3, found ndim=2"):
        L.RNN(L.GRUCell(2))(keras.Input((3,)))
    with pytest.raises(ValueError, match="Cannot unroll a RNN if the time dimension is undefined"):
        L.LSTM(2, unroll=True)(keras.Input((None, 3)))
    with pytest.raises(ValueError, match="Received an invalid value for argument `units`"):
        L.SimpleRNN(0)
    with pytest.raises(ValueError, match="`cell` should have a `call` method"):
        L.RNN(object())
    with pytest.raises(ValueError, match="Invalid merge mode"):
        L.Bidirectional(L.LSTM(2), merge_mode="max")
    with pytest.raises(ValueError, match="Please initialize `Bidirectional` layer with a `Layer` instance"):
        L.Bidirectional("lstm")
    with pytest.raises(ValueError, match="Please initialize `TimeDistributed` layer with a `Layer` instance"):
        L.TimeDistributed(None)
    with pytest.raises(ValueError, match="Forward layer and backward layer should have different `go_backwards`"):
        L.Bidirectional(L.LSTM(2), backward_layer=L.LSTM(2))
    with pytest.raises(ValueError, match="`TimeDistributed` Layer should be passed an `input_shape ` with at least 3"):
        L.TimeDistributed(L.Dense(2))(keras.Input((3,)))
    with pytest.raises(ValueError, match="Layer has 2 states but was passed 1 initial states."):
        L.LSTM(2)(tf.zeros((1, 3, 2)), initial_state=[tf.zeros((1, 2))])
    with pytest.raises(ValueError, match="cannot be specified with a mix of Keras tensors and non-Keras tensors"):
        L.LSTM(2)(keras.Input((3, 2)), initial_state=[keras.Input((2,)), tf.zeros((1, 2))])
    with pytest.raises(ValueError, match="When passing `initial_state` to a Bidirectional RNN"):
        L.Bidirectional(L.GRU(2))(keras.Input((3, 2)), initial_state=[keras.Input((2,))])
    with pytest.raises(AttributeError, match="Layer must be stateful."):
        L.LSTM(2).reset_states()
    with pytest.raises(NotImplementedError, match="RNN `constants` are not supported."):
        L.LSTM(2)(keras.Input((3, 2)), constants=[keras.Input((2,))])
    with pytest.raises(ValueError, match="`implementation` must be 1 or 2"):
        L.LSTMCell(2, implementation=3)
    with pytest.raises(ValueError, match="Unknown layer: NoSuchCell"):
        L.RNN.from_config({"cell": {"class_name": "NoSuchCell", "config": {}}})
    with pytest.raises(ValueError, match="Unrolling requires a fixed number of timesteps."):
        K.rnn(lambda x, s: (x, s), tf.placeholder(tf.float32, (2, None, 3)), [tf.zeros((2, 3))], unroll=True)
    with pytest.raises(ValueError, match="Input should be at least 3D."):
        K.rnn(lambda x, s: (x, s), tf.zeros((2, 3)), [tf.zeros((2, 3))])


def test_output_mask_weights_the_training_loss():
    """As TF 1.15: the loss of a masked output is `sum(loss * mask) / count`, and masked targets do not move it."""
    ids = keras_recurrent_cases.IDS
    model = keras.Sequential([L.Embedding(10, 3, mask_zero=True, input_length=6),
                              L.LSTM(4, return_sequences=True), L.TimeDistributed(L.Dense(1))])
    model.compile(tf.train.GradientDescentOptimizer(0.1), "mse")
    y = np.random.RandomState(0).randn(3, 6, 1).astype("float32")
    pred = model.predict(ids)
    mask = (ids != 0).astype("float32")
    want = (((pred - y) ** 2).mean(-1) * mask).sum() / mask.size
    np.testing.assert_allclose(model.evaluate(ids, y, batch_size=3, verbose=0), want, rtol=1e-5)
    changed = y.copy()
    changed[ids == 0] += 100.0
    np.testing.assert_allclose(model.evaluate(ids, changed, batch_size=3, verbose=0), want, rtol=1e-5)
