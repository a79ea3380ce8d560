"""ConvLSTM2D cases shared by tests/data/make_keras_convlstm_tf.py (run with tf-keras) and
tests/keras/test_layers_convlstm.py (run with tensorweave): each builder takes the `keras` module and returns
`(inputs, outputs, layer)`; the layer's weights are set from `weights(layer)` (seeded) and the outputs are
evaluated on `FEEDS[case]`. NumPy only."""

import numpy as np

RNG = np.random.RandomState(0)
X = RNG.randn(2, 4, 5, 6, 2).astype("float32")
# Sample 0 has its last two steps masked, sample 1 its second step.
MASK = np.array([[True, True, False, False], [True, False, True, True]])
H0 = RNG.randn(2, 5, 6, 3).astype("float32")
C0 = RNG.randn(2, 5, 6, 3).astype("float32")


def weights(layer):
    """Seeded weight values for `layer` (uniform in [-0.5, 0.5]), in `layer.weights` order."""
    rng = np.random.RandomState(1)
    return [rng.uniform(-0.5, 0.5, tuple(int(d) for d in w.shape)).astype("float32") for w in layer.weights]


def _flat(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _single(**kwargs):
    def build(keras):
        inp = keras.Input(batch_shape=X.shape)
        layer = keras.layers.ConvLSTM2D(**kwargs)
        return [inp], _flat(layer(inp)), layer
    return build


def _masked(keras):
    inp = keras.Input(batch_shape=X.shape)
    layer = keras.layers.ConvLSTM2D(3, 3, padding="same", return_sequences=True, return_state=True)
    mask = keras.backend.constant(MASK.astype("float32")) > 0.5
    return [inp], _flat(layer(inp, mask=mask)), layer


def _initial_state(keras):
    inp = keras.Input(batch_shape=X.shape)
    h0 = keras.Input(batch_shape=H0.shape)
    c0 = keras.Input(batch_shape=C0.shape)
    layer = keras.layers.ConvLSTM2D(3, (3, 2), padding="same", return_sequences=True)
    return [inp, h0, c0], _flat(layer(inp, initial_state=[h0, c0])), layer


CASES = {
    "last_valid": _single(filters=3, kernel_size=3),
    "seq_same_rect": _single(filters=3, kernel_size=(3, 2), padding="same", return_sequences=True),
    "backwards_state": _single(filters=2, kernel_size=2, go_backwards=True, return_state=True),
    "strided": _single(filters=3, kernel_size=(2, 3), strides=(2, 1), return_sequences=True),
    "dilated": _single(filters=2, kernel_size=2, dilation_rate=2, padding="same", return_sequences=True),
    "no_bias_relu": _single(filters=3, kernel_size=1, use_bias=False, activation="relu",
                            recurrent_activation="sigmoid"),
    "dropout_inference": _single(filters=3, kernel_size=3, dropout=0.4, recurrent_dropout=0.3,
                                 return_sequences=True),
    "masked": _masked,
    "initial_state": _initial_state,
}
FEEDS = {name: [X] for name in CASES}
FEEDS["initial_state"] = [X, H0, C0]
