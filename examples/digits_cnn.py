"""The guide's framework on a real task: a small CNN classifying scikit-learn's 8x8 digit images,
trained with tf.estimator and tf.data, writing checkpoints and TensorBoard summaries (loss, accuracy
and labeled prediction images drawn by matplotlib inside a py_func), then evaluated.

    python examples/digits_cnn.py [--model_dir DIR] [--steps N]

Needs the extras `demo` (scikit-learn), `tensorboard` and `viz` (matplotlib), which `make demo`
installs.
"""

import argparse
import os
import shlex
import sys
import tempfile

import numpy as np

import tensorweave as tf


def load_digits(seed=0):
    """The digits images as float32 in [0, 1] with shape [n, 8, 8, 1], split 80/20 (train, test)."""
    try:
        from sklearn.datasets import load_digits as _load
    except ImportError:
        raise ImportError("The digits demo needs scikit-learn: pip install 'tensorweave[demo]'") from None
    data = _load()
    images = (data.images / 16.0).astype(np.float32)[..., None]
    labels = data.target.astype(np.int32)
    order = np.random.RandomState(seed).permutation(len(labels))
    images, labels = images[order], labels[order]
    cut = int(0.8 * len(labels))
    return (images[:cut], labels[:cut]), (images[cut:], labels[cut:])


def make_input_fn(images, labels, batch_size=64, epochs=None, shuffle=True):
    def input_fn():
        ds = tf.data.Dataset.from_tensor_slices(({"image": images}, labels))
        if shuffle:
            ds = ds.shuffle(len(labels), seed=1)
        return ds.repeat(epochs).batch(batch_size)
    return input_fn


def model_fn(features, labels, mode, params):
    images = features["image"]
    training = mode == tf.estimator.ModeKeys.TRAIN
    h = tf.layers.conv2d(images, 16, 3, padding="same", activation=tf.nn.relu)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.conv2d(h, 32, 3, padding="same", activation=tf.nn.relu)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.dropout(tf.layers.flatten(h), rate=0.25, training=training)
    logits = tf.layers.dense(h, 10)
    predictions = tf.argmax(logits, axis=1, output_type=tf.int32)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"class": predictions,
                                                             "probabilities": tf.nn.softmax(logits)})
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    accuracy = tf.metrics.accuracy(labels, predictions)
    tf.summary.scalar("batch_accuracy", tf.reduce_mean(tf.to_float(tf.equal(labels, predictions))))
    tf.summary.visualize_labeled_images(images[..., 0], predictions, max_outputs=3, name="predictions")
    train_op = tf.train.AdamOptimizer(params["learning_rate"]).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, predictions=predictions, loss=loss, train_op=train_op,
                                      eval_metric_ops={"accuracy": accuracy})


def run(model_dir, steps=600, log=print):
    """Trains for `steps`, evaluates on the held-out images; returns the evaluation metrics."""
    (x_train, y_train), (x_test, y_test) = load_digits()
    config = tf.estimator.RunConfig(model_dir=model_dir, save_summary_steps=50, save_checkpoints_steps=200,
                                    log_step_count_steps=200, tf_random_seed=42)
    estimator = tf.estimator.Estimator(model_fn, config=config, params={"learning_rate": 0.005})
    estimator.train(make_input_fn(x_train, y_train), max_steps=steps)
    metrics = estimator.evaluate(make_input_fn(x_test, y_test, batch_size=len(y_test), epochs=1, shuffle=False))
    log("test accuracy: %.4f after %d steps (%d test images)" % (metrics["accuracy"], metrics["global_step"],
                                                                 len(y_test)))
    return metrics


def tensorboard_command(logdir):
    """The shell command that opens `logdir` in TensorBoard from any shell: the `tensorboard` script
    installed beside this Python (`.venv/bin/tensorboard` after `make demo`), else
    `<this python> -m tensorboard.main`, with absolute paths (no activated virtualenv needed)."""
    logdir = shlex.quote(os.path.abspath(logdir))
    script = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "tensorboard")
    if os.path.isfile(script) and os.access(script, os.X_OK):
        return "%s --logdir %s" % (shlex.quote(script), logdir)
    return "%s -m tensorboard.main --logdir %s" % (shlex.quote(os.path.abspath(sys.executable)), logdir)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model_dir", default=None, help="where checkpoints and summaries go (default: a temp dir)")
    parser.add_argument("--steps", type=int, default=600)
    args = parser.parse_args()
    model_dir = args.model_dir or tempfile.mkdtemp(prefix="tensorweave_digits_")
    run(model_dir, args.steps)
    print("checkpoints and summaries in %s" % os.path.abspath(model_dir))
    print("look at the run with:  %s" % tensorboard_command(model_dir))


if __name__ == "__main__":
    main()
