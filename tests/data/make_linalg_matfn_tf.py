"""Records TensorFlow's values of tf.linalg.lu / lu_* / sqrtm / logm / tridiagonal_solve /
tridiagonal_matmul / eigh_tridiagonal / experimental.conjugate_gradient and of the dense matrices of
some LinearOperators into tests/data/linalg_matfn_tf.npz (inputs under their names, TF's results
prefixed "tf_").

Run with an environment that has TensorFlow (not needed by the tests):
    /work/tfenv/bin/python tests/data/make_linalg_matfn_tf.py
"""

import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def inputs():
    rng = np.random.RandomState(7)
    out = {}
    out["lu_in"] = rng.uniform(-2, 2, (2, 4, 4))
    out["lu_in_c"] = (rng.uniform(-2, 2, (3, 3)) + 1j * rng.uniform(-2, 2, (3, 3))).astype(np.complex64)
    out["lu_rhs"] = rng.uniform(-2, 2, (2, 4, 3))
    spd = rng.uniform(-1, 1, (2, 4, 4))
    out["sqrtm_in"] = spd @ np.swapaxes(spd, -1, -2) + np.eye(4)
    out["sqrtm_rot"] = np.array([[1.0, -2.0, 0.5], [2.0, 1.0, 0.0], [0.0, 0.3, 2.0]])
    out["sqrtm_neg"] = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
    out["sqrtm_sing"] = np.array([[0.0, 1.0], [0.0, 0.0]])
    out["sqrtm_c"] = (rng.uniform(-2, 2, (3, 3)) + 1j * rng.uniform(-2, 2, (3, 3)))
    out["logm_in"] = (rng.uniform(-2, 2, (2, 3, 3)) + 1j * rng.uniform(-2, 2, (2, 3, 3))) + 3 * np.eye(3)
    out["tri_diags"] = rng.uniform(-2, 2, (2, 3, 5))
    out["tri_rhs"] = rng.uniform(-2, 2, (2, 5, 2))
    out["tri_zero"] = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 1.0, 1.0]])
    out["tri_sing"] = np.array([[[1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 1.0, 1.0]],
                                [[2.0, -1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 3.0, 1.5]]])
    out["tri_tiny"] = np.array([[1.0, 1e-300, 0.0], [1e-310, 1.0, 1e-300], [0.0, 1.0, 1.0]])
    out["eigt_alpha"] = np.array([1.0, 2.0, 3.0, 4.0, -1.0])
    out["eigt_beta"] = np.array([1.0, 0.5, 2.0, -0.7])
    out["cg_a"] = np.array([[[4.0, 1, 0], [1, 3, 1], [0, 1, 2]], [[5.0, 2, 0], [2, 5, 1], [0, 1, 3]]])
    out["cg_rhs"] = np.array([[1.0, 2.0, 3.0], [1.0, -1.0, 0.5]])
    out["circ_spec"] = rng.uniform(-2, 2, (2, 5)) + 1j * rng.uniform(-2, 2, (2, 5))
    out["circ2_spec"] = rng.uniform(-2, 2, (3, 2)) + 1j * rng.uniform(-2, 2, (3, 2))
    out["circ3_spec"] = rng.uniform(-2, 2, (2, 2, 3)) + 1j * rng.uniform(-2, 2, (2, 2, 3))
    out["toep_col"] = rng.uniform(-2, 2, (2, 4))
    out["toep_row"] = rng.uniform(-2, 2, (2, 4))
    out["perm"] = np.array([[2, 0, 3, 1], [0, 1, 2, 3]], np.int32)
    out["house_v"] = rng.uniform(-2, 2, (2, 4))
    return out


def main():
    x = inputs()
    out = dict(x)
    c = tf.constant
    with tf.Graph().as_default(), tf.Session() as sess:
        lu, p = tf.linalg.lu(c(x["lu_in"]))
        luc, pc = tf.linalg.lu(c(x["lu_in_c"]))
        fetch = {
            "lu": lu, "lu_p": p, "lu_c": luc, "lu_c_p": pc,
            "lu_reconstruct": tf.linalg.lu_reconstruct(lu, p),
            "lu_matrix_inverse": tf.linalg.lu_matrix_inverse(lu, p),
            "lu_solve": tf.linalg.lu_solve(lu, p, c(x["lu_rhs"])),
            "sqrtm": tf.linalg.sqrtm(c(x["sqrtm_in"])),
            "sqrtm_rot": tf.linalg.sqrtm(c(x["sqrtm_rot"])),
            "sqrtm_neg": tf.linalg.sqrtm(c(x["sqrtm_neg"])),
            "sqrtm_sing": tf.linalg.sqrtm(c(x["sqrtm_sing"])),
            "sqrtm_c": tf.linalg.sqrtm(c(x["sqrtm_c"])),
            "logm": tf.linalg.logm(c(x["logm_in"])),
            "tri_solve": tf.linalg.tridiagonal_solve(c(x["tri_diags"]), c(x["tri_rhs"])),
            "tri_solve_np": tf.linalg.tridiagonal_solve(c(x["tri_diags"]), c(x["tri_rhs"]), partial_pivoting=False),
            "tri_solve_zero": tf.linalg.tridiagonal_solve(c(x["tri_zero"]), c([[1.0], [2.0], [3.0]], tf.float64)),
            "tri_perturb": tf.linalg.tridiagonal_solve(c(x["tri_sing"]), c(x["tri_rhs"][:, :3]),
                                                       perturb_singular=True),
            "tri_perturb_c": tf.linalg.tridiagonal_solve(c(x["tri_sing"].astype(np.complex128) * (1 + 0.5j)),
                                                         c(x["tri_rhs"][:, :3].astype(np.complex128)),
                                                         perturb_singular=True),
            "tri_perturb_tiny": tf.linalg.tridiagonal_solve(c(x["tri_tiny"]), c([[1.0], [2.0], [3.0]], tf.float64),
                                                            perturb_singular=True),
            "tri_perturb_1": tf.linalg.tridiagonal_solve(c([[0.0], [0.0], [0.0]], tf.float64),
                                                         c([[2.0]], tf.float64), perturb_singular=True),
            "tri_perturb_f32": tf.linalg.tridiagonal_solve(c(x["tri_sing"].astype(np.float32)),
                                                           c(x["tri_rhs"][:, :3].astype(np.float32)),
                                                           perturb_singular=True),
            "tri_matmul": tf.linalg.tridiagonal_matmul(c(x["tri_diags"]), c(x["tri_rhs"])),
            "eigt": tf.linalg.eigh_tridiagonal(c(x["eigt_alpha"]), c(x["eigt_beta"])),
            "eigt_v": tf.linalg.eigh_tridiagonal(c(x["eigt_alpha"]), c(x["eigt_beta"]), select="v",
                                                 select_range=[0.0, 3.0]),
            "eigt_i": tf.linalg.eigh_tridiagonal(c(x["eigt_alpha"]), c(x["eigt_beta"]), select="i",
                                                 select_range=[1, 3]),
        }
        a_in = c(x["sqrtm_in"])
        fetch["sqrtm_grad"] = tf.gradients(tf.reduce_sum(tf.linalg.sqrtm(a_in) * c(x["lu_in"])), a_in)[0]
        d_in, r_in = c(x["tri_diags"]), c(x["tri_rhs"])
        fetch["tri_solve_grad_d"], fetch["tri_solve_grad_r"] = tf.gradients(
            tf.reduce_sum(tf.linalg.tridiagonal_solve(d_in, r_in) ** 2), [d_in, r_in])
        op = tf.linalg.LinearOperatorFullMatrix(c(x["cg_a"]), is_self_adjoint=True, is_positive_definite=True)
        for k, v in zip(("i", "x", "r", "p", "gamma"),
                        tf.linalg.experimental.conjugate_gradient(op, c(x["cg_rhs"]), max_iter=2)):
            fetch["cg_" + k] = v
        fetch["circ"] = tf.linalg.LinearOperatorCirculant(c(x["circ_spec"])).to_dense()
        fetch["circ_real"] = tf.linalg.LinearOperatorCirculant(c(x["circ_spec"]),
                                                               input_output_dtype=tf.float64).to_dense()
        fetch["circ2"] = tf.linalg.LinearOperatorCirculant2D(c(x["circ2_spec"])).to_dense()
        fetch["circ3"] = tf.linalg.LinearOperatorCirculant3D(c(x["circ3_spec"])).to_dense()
        fetch["toep"] = tf.linalg.LinearOperatorToeplitz(c(x["toep_col"]), c(x["toep_row"])).to_dense()
        fetch["perm_dense"] = tf.linalg.LinearOperatorPermutation(c(x["perm"]), dtype=tf.float64).to_dense()
        fetch["house"] = tf.linalg.LinearOperatorHouseholder(c(x["house_v"])).to_dense()
        out.update({"tf_" + k: v for k, v in sess.run(fetch).items()})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "linalg_matfn_tf.npz")
    np.savez_compressed(path, **out)


if __name__ == "__main__":
    main()
