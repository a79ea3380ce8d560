"""Prints the TensorFlow values tests/ops/test_linalg_ops.py records (run with real TF: /work/tfenv/bin/python)."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
np.set_printoptions(precision=17, floatmode="unique")
a = np.array([[4., 1., 0.5], [1., 3., -0.2], [0.5, -0.2, 2.]])
b = np.array([[1., 2.], [0., -1.], [3., 0.5]])
w = np.array([[1., -2., 0.5], [0.3, 1., 2.], [-1., 0.7, 1.5]])
n = np.array([[1., 2.], [3., 4.]])
A, B, W = tf.constant(a), tf.constant(b), tf.constant(w)
out = {
 "inv_adj": tf.matrix_inverse(A + W, adjoint=True),
 "det": tf.matrix_determinant(tf.stack([A, W])),
 "slogdet": tf.stack(tf.linalg.slogdet(tf.constant(n))),
 "logdet": tf.linalg.logdet(A),
 "chol_solve": tf.cholesky_solve(tf.cholesky(A), B),
 "trace": tf.trace(tf.stack([A, W])),
 "eye": tf.eye(2, 3, batch_shape=[2]),
 "g_inv": tf.gradients(tf.reduce_sum(tf.matrix_inverse(A + W) * W), A)[0],
 "g_det": tf.gradients(tf.matrix_determinant(W), W)[0],
 "g_slogdet": tf.gradients(tf.linalg.slogdet(W)[1], W)[0],
 "g_chol": tf.gradients(tf.reduce_sum(tf.cholesky(A) * W), A)[0],
 "g_solve": tf.gradients(tf.reduce_sum(tf.matrix_solve(A + W, B, adjoint=True) * B), [A, B]),
 "g_tri": tf.gradients(tf.reduce_sum(tf.matrix_triangular_solve(A + W, B, lower=False) * B), [A, B]),
 "g_band": tf.gradients(tf.reduce_sum(tf.matrix_band_part(W, 0, 1) * W), W)[0],
}
with tf.Session() as s:
    for k, v in s.run(out).items():
        print(k, "=", repr(v))
