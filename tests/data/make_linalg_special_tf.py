"""Records TensorFlow's values of the `tf.math.special` functions (and tf.math.angle) on a grid with
special values into tests/data/linalg_special_tf.npz.

Run with an environment that has TensorFlow (not needed by the tests):
    /work/tfenv/bin/python tests/data/make_linalg_special_tf.py
"""

import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

NAMES = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e",
         "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "dawsn", "expint", "fresnel_cos", "fresnel_sin",
         "spence"]


def grid():
    special = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, -0.5, 3.0, -3.0, 1e-30, -1e-30, 1e-5, 2.0,
               7.5, 8.0, 8.5, 25.0, 50.0, 80.0, 100.0, 500.0, 700.0, 800.0, -50.0, -800.0, 1e10, -1e10]
    rng = np.random.RandomState(0)
    return np.concatenate([special, np.linspace(-12, 12, 97), rng.uniform(-40, 40, 40)])


def main():
    x64 = grid()
    out = {"x": x64}
    with tf.Graph().as_default(), tf.Session() as sess:
        for dt in (np.float32, np.float64):
            x = tf.constant(x64.astype(dt))
            for name in NAMES:
                out["%s_%s" % (name, np.dtype(dt).name)] = sess.run(getattr(tf.math.special, name)(x))
        c = (x64[:, None] + 1j * x64[None, ::7]).ravel()
        out["angle_z"] = c
        out["angle_complex128"] = sess.run(tf.math.angle(tf.constant(c)))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "linalg_special_tf.npz")
    np.savez_compressed(path, **out)


if __name__ == "__main__":
    main()
