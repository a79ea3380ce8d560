"""Records tf-keras (TF 2.x, legacy Keras 2, graph mode) goldens for tests/keras/test_layers_convlstm.py: the
ConvLSTM2D cases of tests/data/keras_convlstm_cases.py with seeded weights, their outputs, the gradients of a
fixed weighted sum of the outputs with respect to the weights and the input, and a stateful layer run twice.

Run with the real-TF environment from the repository root:
  TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_convlstm_tf.py
"""

import os
import sys

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
keras = tf.keras
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from tests.data import keras_convlstm_cases as cases  # noqa: E402


def coefficients(arrays):
    rng = np.random.RandomState(2)
    return [rng.uniform(-1, 1, a.shape).astype("float32") for a in arrays]


def main():
    out = {}
    for name, build in cases.CASES.items():
        with tf.Graph().as_default(), tf.Session() as sess:
            keras.backend.set_session(sess)
            inputs, outputs, layer = build(keras)
            values = cases.weights(layer)
            layer.set_weights(values)
            feed = dict(zip(inputs, cases.FEEDS[name]))
            ys = sess.run(outputs, feed)
            loss = tf.add_n([tf.reduce_sum(y * c) for y, c in zip(outputs, coefficients(ys))])
            grads = tf.gradients(loss, layer.weights + [inputs[0]])
            for i, g in enumerate(sess.run(grads, feed)):
                out["%s/g%d" % (name, i)] = g
            for i, y in enumerate(ys):
                out["%s/y%d" % (name, i)] = y
            for i, v in enumerate(layer.weights):
                out["%s/name%d" % (name, i)] = np.array(v.name)
    stateful(out)
    np.savez_compressed(os.path.join(HERE, "keras_convlstm_tf.npz"), **out)


def stateful(out):
    """A stateful ConvLSTM2D called twice (the second call starts from the first call's final states)."""
    with tf.Graph().as_default(), tf.Session() as sess:
        keras.backend.set_session(sess)
        inp = keras.Input(batch_shape=cases.X.shape)
        layer = keras.layers.ConvLSTM2D(2, 3, padding="same", stateful=True)
        model = keras.Model(inp, layer(inp))
        layer.set_weights(cases.weights(layer))
        out["stateful/y0"] = model.predict(cases.X)
        out["stateful/y1"] = model.predict(cases.X[:, ::-1])


if __name__ == "__main__":
    main()
