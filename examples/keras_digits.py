"""The digits demo with tf.keras: the small CNN of `digits_cnn.py` (the tf.estimator version) as a
`tf.keras.Sequential` model trained with `fit` on scikit-learn's 8x8 digit images (the same 80/20
split), writing TensorBoard logs, then evaluated on the held-out images.

    python examples/keras_digits.py [--log_dir DIR] [--epochs N] [--verbose {0,1,2}]

Needs the extras `demo` (scikit-learn) and `tensorboard`, which `make demo` installs.
"""

import argparse
import os
import sys
import tempfile

import numpy as np

import tensorweave as tf

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
from digits_cnn import load_digits, tensorboard_command  # noqa: E402


def build_model(learning_rate=0.005):
    """The Estimator demo's CNN: two 3x3 convolutions with max pooling, dropout, 10-way softmax."""
    layers = tf.keras.layers
    model = tf.keras.Sequential([
        layers.Conv2D(16, 3, padding="same", activation="relu", input_shape=(8, 8, 1)),
        layers.MaxPooling2D(2, 2),
        layers.Conv2D(32, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(2, 2),
        layers.Flatten(),
        layers.Dropout(0.25),
        layers.Dense(10, activation="softmax"),
    ])
    model.compile(tf.keras.optimizers.Adam(lr=learning_rate), "sparse_categorical_crossentropy", metrics=["acc"])
    return model


def run(log_dir, epochs=25, batch_size=64, verbose=0, seed=42, log=print):
    """Trains for `epochs` with a TensorBoard callback writing to `log_dir`; returns
    `(test accuracy, History)`."""
    (x_train, y_train), (x_test, y_test) = load_digits()
    tf.keras.backend.clear_session()
    tf.set_random_seed(seed)
    np.random.seed(seed)
    model = build_model()
    history = model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs, verbose=verbose,
                        validation_data=(x_test, y_test),
                        callbacks=[tf.keras.callbacks.TensorBoard(log_dir=log_dir, histogram_freq=5)])
    _, accuracy = model.evaluate(x_test, y_test, batch_size=len(y_test), verbose=0)
    log("test accuracy: %.4f after %d epochs (%d test images)" % (accuracy, epochs, len(y_test)))
    return accuracy, history


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--log_dir", default=None, help="where the TensorBoard logs go (default: a temp dir)")
    parser.add_argument("--epochs", type=int, default=25)
    parser.add_argument("--verbose", type=int, default=2, choices=(0, 1, 2))
    args = parser.parse_args()
    log_dir = args.log_dir or tempfile.mkdtemp(prefix="tensorweave_keras_digits_")
    run(log_dir, args.epochs, verbose=args.verbose)
    print("TensorBoard logs in %s" % os.path.abspath(log_dir))
    print("look at the run with:  %s" % tensorboard_command(log_dir))


if __name__ == "__main__":
    main()
