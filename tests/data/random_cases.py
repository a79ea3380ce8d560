"""Random-op cases shared by tests/data/make_random_tf.py (run with TensorFlow) and tests/ops/test_random_stateless.py
/ test_random_sampled_losses.py (run with tensorweave): the builders take the `tf` module, so the same programs
are recorded with TensorFlow and checked with tensorweave."""

import numpy as np


def poisson_cases(tf):
    """stateless_poisson {case: (shape, seed, lam, dtype)}: Knuth below rate 10, Hormann's transformed rejection
    above."""
    return {
        "a": ([7], [1, 2], np.float32(3.0), tf.int32),
        "b": ([4, 3], [5, 6], np.array([0.5, 9.99, 10.0], np.float32), tf.float32),
        "c": ([50, 4], [-3, 2 ** 40], np.array([1e-3, 15.0, 123.4, 5000.0]), tf.float64),
        "d": ([30, 2], [0, 0], np.array([2, 40], np.int64), tf.int64),
        "e": ([10, 3], [9, 9], np.array([0.0, -1.0, 100.0], np.float32), tf.float16),
        "f": ([200], [3, 4], np.float64(7.5), tf.int32),
        "g": ([200], [3, 4], np.float64(30.0), tf.int32),
    }


def gamma_cases(tf):
    """stateless_gamma {case: (shape, seed, alpha, beta, dtype)}: alpha == 1 (exponential), Marsaglia-Tsang above
    and below 1, beta, 0 and < 0."""
    return {
        "a": ([7], [1, 2], np.float32(3.0), None, tf.float32),
        "b": ([40, 4], [5, 6], np.array([0.3, 1.0, 2.5, 50.0], np.float64), None, tf.float64),
        "c": ([30, 2, 3], [-3, 2 ** 40], np.array([[0.01, 0.9, 1.5]], np.float32),
              np.array([[1.0], [3.0]], np.float32), tf.float32),
        "d": ([20, 3], [0, 0], np.array([0.0, -1.0, 7.0]), None, tf.float64),
        "e": ([10, 2], [9, 9], np.array([0.5, 4.0], np.float16), None, tf.float16),
    }


def binomial_cases(tf):
    """stateless_binomial {case: (shape, seed, counts, probs, output dtype)}: inversion (mean < 10), BTRS above,
    p > 0.5 flipped, 0/1/NaN probabilities."""
    return {
        "a": ([7], [1, 2], 10.0, 0.3, tf.int32),
        "b": ([40, 4], [5, 6], np.array([5.0, 100.0, 1000.0, 30.0], np.float32),
              np.array([0.1, 0.2, 0.7, 0.95], np.float32), tf.float32),
        "c": ([30, 2, 3], [-3, 2 ** 40], np.array([[20.0], [500.0]]), np.array([0.0, 0.5, 1.0]), tf.float64),
        "d": ([20, 3], [0, 0], np.array([0.0, -1.0, 7.0]), np.array([0.5, 0.5, np.nan]), tf.float64),
        "e": ([50], [9, 9], np.float64(12345.0), np.float64(0.33), tf.int64),
    }


def sampled_loss(tf, w, b, x, labels, sampled_values, kind, num_true, hits, part):
    """(loss, [d/dw, d/db, d/dx]) of nce_loss (kind "nce") or sampled_softmax_loss over 10 classes, 5 sampled, the
    weights whole ("one") or in two shards partitioned by "mod" or "div"."""
    wt, bt, xt = tf.constant(w), tf.constant(b), tf.constant(x)
    weights = wt if part == "one" else [wt[:5], wt[5:]] if part == "div" else [
        tf.gather(wt, [0, 2, 4, 6, 8]), tf.gather(wt, [1, 3, 5, 7, 9])]
    f = tf.nn.nce_loss if kind == "nce" else tf.nn.sampled_softmax_loss
    loss = f(weights, bt, labels, xt, 5, 10, num_true=num_true, sampled_values=sampled_values,
             remove_accidental_hits=hits, partition_strategy="mod" if part == "one" else part)
    return loss, [tf.convert_to_tensor(g) for g in tf.gradients(tf.reduce_sum(loss), [wt, bt, xt])]
