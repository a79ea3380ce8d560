"""Records TF's values for tests/keras/test_training_data.py and test_tensorboard_callback.py into
tests/data/keras_training_tf.json: the class-weighted and temporally weighted losses of tf-keras
(Keras 2 in TF's graph mode, the TF 1.x code path), and the scalar tags and steps its TensorBoard
callback writes with update_freq 'epoch', 'batch' and an integer.

Run with the TensorFlow side environment (TF 2.21, tf-keras):

    TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_training_tf.py
"""

import glob
import json
import os
import tempfile

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
keras = tf.keras
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_training_tf.json")


def class_weight_loss():
    x = np.array([[0.0], [1.0], [2.0], [3.0]], "float32")
    y = np.array([0, 1, 2, 1])
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(1,))])
    model.set_weights([np.array([[0.1, -0.2, 0.3]], "float32"), np.array([0.0, 0.1, -0.1], "float32")])
    model.compile(tf.train.GradientDescentOptimizer(0.0), "sparse_categorical_crossentropy")
    return model.fit(x, y, batch_size=4, epochs=1, verbose=0, class_weight={0: 1.0, 1: 2.0, 2: 0.5}).history["loss"][0]


def temporal_loss():
    rng = np.random.RandomState(1)
    x = rng.randn(3, 4, 2).astype("float32")
    y = rng.randn(3, 4, 5).astype("float32")
    sw = np.array([[1, 1, 0, 0], [1, 1, 1, 0], [2, 0.5, 1, 1]], "float32")
    inp = keras.Input((4, 2))
    model = keras.Model(inp, keras.layers.Dense(5)(inp))
    model.set_weights([np.arange(10, dtype="float32").reshape(2, 5) / 10.0, np.full(5, 0.1, "float32")])
    model.compile(tf.train.GradientDescentOptimizer(0.0), "mse", sample_weight_mode="temporal")
    return model.fit(x, y, sample_weight=sw, batch_size=3, verbose=0).history["loss"][0]


def tensorboard_tags(update_freq, batch_size):
    rng = np.random.RandomState(0)
    x, y = rng.randn(8, 3).astype("float32"), rng.randn(8, 2).astype("float32")
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    model.compile(tf.train.GradientDescentOptimizer(0.05), "mse", metrics=["mae"])
    log_dir = tempfile.mkdtemp()
    model.fit(x, y, batch_size=batch_size, epochs=2, verbose=0, shuffle=False, validation_data=(x, y),
              callbacks=[keras.callbacks.TensorBoard(log_dir, update_freq=update_freq, profile_batch=0)])
    steps = {}
    for path in glob.glob(os.path.join(log_dir, "events.out.tfevents*")):
        for event in tf.train.summary_iterator(path):
            for v in event.summary.value:
                steps.setdefault(v.tag, []).append(int(event.step))
    return {k: sorted(v) for k, v in steps.items()}


def main():
    K = keras.backend
    result = {"tf_version": tf.__version__}
    result["class_weight_loss"] = float(class_weight_loss())
    K.clear_session()
    result["temporal_loss"] = float(temporal_loss())
    for name, freq, batch in (("epoch", "epoch", 4), ("batch", "batch", 4), ("every5", 5, 2)):
        K.clear_session()
        result["tensorboard_" + name] = tensorboard_tags(freq, batch)
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    print(json.dumps(result, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
