"""Records tf-keras (TF 2.x, legacy Keras 2, graph mode) goldens for tests/keras/test_layers_recurrent.py: the
models of tests/data/keras_recurrent_cases.py with seeded weights, their outputs, the gradients of a fixed
weighted sum of the outputs with respect to the weights, and a stateful LSTM run twice.

Run with the real-TF environment from the repository root:
  TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_recurrent_tf.py
"""

import os
import sys

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
keras = tf.keras
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from tests.data import keras_recurrent_cases as cases_module  # noqa: E402


def coefficients(arrays):
    rng = np.random.RandomState(2)
    return [rng.uniform(-1, 1, a.shape).astype("float32") for a in arrays]


def main():
    out = {}
    for name, (build, xs) in cases_module.cases().items():
        with tf.Graph().as_default(), tf.Session() as sess:
            keras.backend.set_session(sess)
            inputs, outputs = build(keras)
            model = keras.Model(inputs, outputs)
            values = cases_module.weights(model)
            model.set_weights(values)
            feed = dict(zip(inputs, xs))
            ys = sess.run(outputs, feed)
            loss = tf.add_n([tf.reduce_sum(y * c) for y, c in zip(outputs, coefficients(ys))])
            grads = [tf.convert_to_tensor(g) for g in tf.gradients(loss, model.weights)]
            for i, g in enumerate(sess.run(grads, feed)):
                out["%s/g%d" % (name, i)] = g
            for i, x in enumerate(xs):
                out["%s/x%d" % (name, i)] = x
            for i, y in enumerate(ys):
                out["%s/y%d" % (name, i)] = y
            for i, (w, v) in enumerate(zip(values, model.weights)):
                out["%s/w%d" % (name, i)] = w
                out["%s/name%d" % (name, i)] = np.array(v.name)
    stateful(out)
    np.savez(os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_recurrent_tf.npz"), **out)


def stateful(out):
    """A stateful LSTM called twice (the second call starts from the first call's final states)."""
    x = cases_module.X
    with tf.Graph().as_default(), tf.Session() as sess:
        keras.backend.set_session(sess)
        inp = keras.Input(batch_shape=x.shape)
        layer = keras.layers.LSTM(3, stateful=True, return_sequences=True)
        y = layer(inp)
        model = keras.Model(inp, y)
        values = cases_module.weights(model)
        model.set_weights(values)
        out["stateful/y0"] = sess.run([y] + layer.updates, {inp: x})[0]
        out["stateful/y1"] = sess.run([y] + layer.updates, {inp: x[:, ::-1]})[0]
        for i, w in enumerate(values):
            out["stateful/w%d" % i] = w


if __name__ == "__main__":
    main()
