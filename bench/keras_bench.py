"""tf.keras per-batch overhead: `model.train_on_batch` and `model.fit` per batch on a small MLP
(32-64-10, relu and softmax, sparse categorical crossentropy with the 'acc' metric, plain SGD,
batch 32), tensorweave against tf-keras on TensorFlow's graph mode (`tensorflow.compat.v1` with
`disable_v2_behavior()` and `TF_USE_LEGACY_KERAS=1`). The math per batch is tiny, so the times are
the Python and session overhead of the Keras training loop.

    python bench/keras_bench.py [--batches N]        # both libraries in this process, if TF imports

`bench/run.py` runs the same workloads (rows keras_train_on_batch and keras_fit_batch) in fresh
processes; quote numbers from one run only.
"""

import argparse
import os
import time

import numpy as np

# tf.keras is tf-keras (Keras 2) on TF 2.16+ only with this set before TensorFlow is imported.
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

BATCH = 32
FIT_BATCHES = 100


def _data(n):
    rng = np.random.RandomState(0)
    return rng.randn(n, 32).astype(np.float32), rng.randint(0, 10, size=(n,)).astype(np.int64)


def _model(tf):
    keras = tf.keras
    model = keras.Sequential([keras.layers.Dense(64, activation="relu", input_shape=(32,)),
                              keras.layers.Dense(10, activation="softmax")])
    model.compile(tf.train.GradientDescentOptimizer(0.01), "sparse_categorical_crossentropy", metrics=["acc"])
    return model


def train_on_batch(tf):
    """`fn()` running one `model.train_on_batch` on a fixed batch of 32."""
    model = _model(tf)
    x, y = _data(BATCH)
    loss, acc = model.train_on_batch(x, y)
    assert np.isfinite(loss) and 0.0 <= acc <= 1.0
    return lambda: model.train_on_batch(x, y)


def fit_batches(tf, batches=FIT_BATCHES):
    """`fn()` running `model.fit` for one epoch of `batches` batches of 32 (verbose=0, no shuffle)."""
    model = _model(tf)
    x, y = _data(BATCH * batches)
    history = model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
    assert np.isfinite(history.history["loss"][0])
    return lambda: model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)


def _per_call(fn, rounds=5, min_s=0.3):
    fn()
    best = float("inf")
    for _ in range(rounds):
        n, t0 = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            elapsed = time.perf_counter() - t0
            if elapsed >= min_s:
                break
        best = min(best, elapsed / n)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batches", type=int, default=FIT_BATCHES, help="batches per fit call")
    args = ap.parse_args()
    import tensorweave
    libs = [("tensorweave", tensorweave)]
    try:
        import tensorflow.compat.v1 as tf1
        tf1.disable_v2_behavior()
        libs.append(("tf-keras %s" % tf1.__version__, tf1))
    except ImportError:
        print("(TensorFlow is not installed: tensorweave only)")
    for name, lib in libs:
        tob = _per_call(train_on_batch(lib))
        fit = _per_call(fit_batches(lib, args.batches)) / args.batches
        print("%-22s train_on_batch %7.1f us/batch   fit %7.1f us/batch" % (name, tob * 1e6, fit * 1e6))


if __name__ == "__main__":
    main()
