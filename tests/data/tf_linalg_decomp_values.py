"""Prints the TensorFlow values of the decompositions tests/ops/test_linalg_ops.py records (run with real
TF: /work/tfenv/bin/python). Eigen- and singular vectors enter only through sign-invariant functions."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
np.set_printoptions(precision=17, floatmode="unique")
a = np.array([[4., 1., 0.5], [1., 3., -0.2], [0.5, -0.2, 2.]])
w = np.array([[1., -2., 0.5], [0.3, 1., 2.], [-1., 0.7, 1.5]])
t = np.array([[1., 2., 0.5], [-1., 0.3, 2.], [0.2, -0.7, 1.1], [2., 0.1, -0.4]])
A, W, T = tf.constant(a), tf.constant(w), tf.constant(t)
e, v = tf.self_adjoint_eig(A + W)
q, r = tf.qr(T)
qw, rw = tf.qr(tf.transpose(T))
qf, rf = tf.qr(T, full_matrices=True)
s, u, vv = tf.svd(T)
out = {
    "eig_e": e, "eig_absv": tf.abs(v),
    "qr_q": q, "qr_r": r, "qrw_q": qw, "qrw_r": rw, "qrf_q": qf, "qrf_r": rf,
    "svd_s": s, "svd_absu": tf.abs(u), "svd_absv": tf.abs(vv),
    "g_eig": tf.gradients(tf.reduce_sum(e * [1., -2., 0.5]) + tf.reduce_sum(tf.abs(v) * W), A)[0],
    "g_eigvals": tf.gradients(tf.reduce_sum(tf.self_adjoint_eigvals(A + W) * [1., -2., 0.5]), A)[0],
    "g_qr": tf.gradients(tf.reduce_sum(q * T) + tf.reduce_sum(r * W), T)[0],
    "g_qrw": tf.gradients(tf.reduce_sum(qw * W) + tf.reduce_sum(rw * tf.transpose(T)), T)[0],
    "g_svd": tf.gradients(tf.reduce_sum(s * [1., -2., 0.5]) + tf.reduce_sum(tf.abs(u) * T)
                          + tf.reduce_sum(tf.abs(vv) * W), T)[0],
    "g_svdvals": tf.gradients(tf.reduce_sum(tf.svd(T, compute_uv=False) * [1., -2., 0.5]), T)[0],
}
with tf.Session() as sess:
    for k, val in sess.run(out).items():
        print('    "%s": %s,' % (k, np.array2string(val, separator=", ", precision=17, floatmode="unique",
                                                     max_line_width=110).replace("\n", "\n" + " " * 8)))

# tf.linalg.expm (scaling and squaring: the second matrix needs squarings).
with tf.Session() as sess:
    small = np.array([[0., 1.], [-2., 0.3]])
    print(repr(sess.run(tf.linalg.expm(tf.constant(np.stack([small, 3 * np.array([[1., 5.], [-2., 3.]])]))))))
    print(repr(sess.run(tf.linalg.expm(tf.constant(np.stack([small, 3 * np.array([[1., 5.], [-2., 3.]])]),
                                                   tf.float32)))))
