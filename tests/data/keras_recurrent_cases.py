"""tf.keras recurrent-layer cases shared by tests/data/make_keras_recurrent_tf.py (run with tf-keras) and
tests/keras/test_layers_recurrent.py (run with tensorweave): each builder takes the `keras` module and
returns a functional model's `(inputs, outputs)`, so the same models are recorded with TensorFlow and
checked with tensorweave. Weights are set from `weights(model)` (seeded), in `model.get_weights()` order."""

import numpy as np

RNG = np.random.RandomState(0)
X = RNG.randn(2, 5, 3).astype("float32")
# Padded id sequences (0 = padding, also inside a sequence) for Embedding(mask_zero=True).
IDS = np.array([[3, 1, 4, 0, 0, 0], [2, 0, 5, 9, 2, 6], [7, 7, 0, 0, 1, 0]], dtype="int32")
# Time steps whose features are all 0 are masked by Masking(0.).
XM = RNG.randn(3, 6, 3).astype("float32")
XM[0, 3:] = 0.0
XM[1, 1] = 0.0
XM[2, 0] = 0.0
H0 = RNG.randn(2, 3).astype("float32")
C0 = RNG.randn(2, 3).astype("float32")


def weights(model):
    """Seeded weight values for `model` (uniform in [-0.6, 0.6]), in `get_weights()` order."""
    rng = np.random.RandomState(1)
    return [rng.uniform(-0.6, 0.6, w.shape).astype("float32") for w in model.get_weights()]


def _flat(out):
    """The outputs as a flat list (tf-keras nests the states of stacked cells; tensorweave does not)."""
    if isinstance(out, (list, tuple)):
        return [t for item in out for t in _flat(item)]
    return [out]


def _single(make, x=X):
    def build(keras):
        inp = keras.Input(batch_shape=x.shape)
        out = make(keras.layers)(inp)
        return [inp], _flat(out)
    return build, [x]


def _embedded(make, ids=IDS):
    def build(keras):
        inp = keras.Input(batch_shape=ids.shape, dtype="int32")
        emb = keras.layers.Embedding(10, 3, mask_zero=True)(inp)
        out = make(keras.layers)(emb)
        return [inp], _flat(out)
    return build, [ids]


def _masked(make, x=XM):
    def build(keras):
        inp = keras.Input(batch_shape=x.shape)
        out = make(keras.layers)(keras.layers.Masking(0.0)(inp))
        return [inp], _flat(out)
    return build, [x]


def _initial_state(keras):
    x = keras.Input(batch_shape=X.shape)
    h = keras.Input(batch_shape=H0.shape)
    c = keras.Input(batch_shape=C0.shape)
    out = keras.layers.LSTM(3, return_sequences=True, return_state=True)(x, initial_state=[h, c])
    return [x, h, c], out


def _initial_state_bidirectional(keras):
    x = keras.Input(batch_shape=X.shape)
    states = [keras.Input(batch_shape=H0.shape) for _ in range(4)]
    out = keras.layers.Bidirectional(keras.layers.LSTM(3, return_sequences=True))(x, initial_state=states)
    return [x] + states, [out]


def cases():
    """{name: (build(keras) -> (inputs, outputs), input arrays)}."""
    return {
        "simple_rnn": _single(lambda L: L.SimpleRNN(4)),
        "simple_rnn_seq_relu": _single(lambda L: L.SimpleRNN(4, return_sequences=True, activation="relu")),
        "simple_rnn_back_state": _single(lambda L: L.SimpleRNN(4, go_backwards=True, return_sequences=True,
                                                              return_state=True)),
        "gru": _single(lambda L: L.GRU(4)),
        "gru_seq_state": _single(lambda L: L.GRU(4, return_sequences=True, return_state=True)),
        "gru_reset_after": _single(lambda L: L.GRU(4, reset_after=True, return_sequences=True)),
        "gru_back_sigmoid": _single(lambda L: L.GRU(3, go_backwards=True, reset_after=True,
                                                    recurrent_activation="sigmoid")),
        "gru_no_bias": _single(lambda L: L.GRU(3, use_bias=False, return_sequences=True)),
        "lstm": _single(lambda L: L.LSTM(4)),
        "lstm_seq_state": _single(lambda L: L.LSTM(4, return_sequences=True, return_state=True)),
        "lstm_back_no_bias": _single(lambda L: L.LSTM(3, go_backwards=True, return_sequences=True, use_bias=False)),
        "lstm_sigmoid_state": _single(lambda L: L.LSTM(4, recurrent_activation="sigmoid", return_state=True)),
        "lstm_unroll": _single(lambda L: L.LSTM(3, unroll=True, return_sequences=True)),
        "rnn_stacked": _single(lambda L: L.RNN([L.LSTMCell(3), L.SimpleRNNCell(2), L.GRUCell(4)],
                                               return_sequences=True, return_state=True)),
        "rnn_cell": _single(lambda L: L.RNN(L.GRUCell(2, reset_after=True), go_backwards=True)),
        "bidi_concat": _single(lambda L: L.Bidirectional(L.LSTM(3, return_sequences=True))),
        "bidi_sum": _single(lambda L: L.Bidirectional(L.GRU(3), merge_mode="sum")),
        "bidi_mul": _single(lambda L: L.Bidirectional(L.SimpleRNN(3, return_sequences=True), merge_mode="mul")),
        "bidi_ave": _single(lambda L: L.Bidirectional(L.SimpleRNN(3), merge_mode="ave")),
        "bidi_none_state": _single(lambda L: L.Bidirectional(L.LSTM(3, return_state=True), merge_mode=None)),
        "bidi_concat_state": _single(lambda L: L.Bidirectional(L.GRU(2, return_sequences=True,
                                                                     return_state=True))),
        "timedist_dense": _single(lambda L: L.TimeDistributed(L.Dense(4, activation="tanh"))),
        "mask_emb_lstm": _embedded(lambda L: L.LSTM(4, return_sequences=True, return_state=True)),
        "mask_emb_gru_back": _embedded(lambda L: L.GRU(4, go_backwards=True, return_sequences=True)),
        "mask_emb_simple_last": _embedded(lambda L: L.SimpleRNN(3)),
        "mask_emb_stacked": _embedded(lambda L: L.RNN([L.LSTMCell(3), L.GRUCell(2)], return_sequences=True)),
        "mask_emb_bidi_seq": _embedded(lambda L: L.Bidirectional(L.LSTM(3, return_sequences=True))),
        "mask_emb_bidi_last": _embedded(lambda L: L.Bidirectional(L.GRU(3), merge_mode="ave")),
        "mask_masking_simple": _masked(lambda L: L.SimpleRNN(4, return_sequences=True)),
        "mask_masking_lstm_state": _masked(lambda L: L.LSTM(3, return_state=True)),
        "mask_masking_two_layers": _masked(lambda L: lambda x: L.GRU(2)(L.LSTM(3, return_sequences=True)(x))),
        "mask_timedist_lstm": _masked(lambda L: lambda x: L.LSTM(2, return_sequences=True)(
            L.TimeDistributed(L.Dense(3))(x))),
        "initial_state": (_initial_state, [X, H0, C0]),
        "initial_state_bidi": (_initial_state_bidirectional, [X, H0, C0, C0 * 0.5, H0 * 2.0]),
    }
