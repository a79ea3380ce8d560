"""The LinearOperator cases compared with TensorFlow: `cases(tf)` builds them with either framework (TF to
record tests/data/linalg_operators_tf.npz with make_linalg_operators_tf.py, tensorweave in
tests/ops/test_linalg_operators.py)."""

import numpy as np


def cases(tf):
    """The fetches {"<operator>/<method>": tensor} and the hints {"<operator>": (name, shape, is_*)}."""
    rng = np.random.RandomState(3)
    LO = tf.linalg
    out = {}
    a = rng.uniform(-1, 1, (2, 3, 3)) + 3 * np.eye(3)
    ac = (rng.uniform(-1, 1, (3, 3)) + 1j * rng.uniform(-1, 1, (3, 3))) + 3 * np.eye(3)
    d = rng.uniform(0.5, 2, (2, 3))
    dc = d[0] + 1j * d[1]
    x = rng.uniform(-1, 1, (2, 3, 2))
    xc = x[0] + 1j * x[1]
    ops_ = {
        "full": LO.LinearOperatorFullMatrix(a),
        "fullc": LO.LinearOperatorFullMatrix(ac),
        "diag": LO.LinearOperatorDiag(d),
        "diagc": LO.LinearOperatorDiag(dc),
        "tril": LO.LinearOperatorLowerTriangular(a),
        "eye": LO.LinearOperatorIdentity(3, dtype=tf.float64),
        "eyeb": LO.LinearOperatorIdentity(3, batch_shape=[2], dtype=tf.float64),
        "scaled": LO.LinearOperatorScaledIdentity(3, np.array([2.0, -3.0])),
        "zeros": LO.LinearOperatorZeros(3, batch_shape=[2], dtype=tf.float64),
        "adj": LO.LinearOperatorAdjoint(LO.LinearOperatorFullMatrix(a)),
        "inv": LO.LinearOperatorInversion(LO.LinearOperatorFullMatrix(a)),
        "comp": LO.LinearOperatorComposition([LO.LinearOperatorFullMatrix(a), LO.LinearOperatorDiag(d)]),
        "bdiag": LO.LinearOperatorBlockDiag([LO.LinearOperatorFullMatrix(a[:, :2, :2]),
                                             LO.LinearOperatorDiag(d[:, :1])]),
        "kron": LO.LinearOperatorKronecker([LO.LinearOperatorFullMatrix(a[0, :2, :2]), LO.LinearOperatorDiag(d)]),
        "lowrank": LO.LinearOperatorLowRankUpdate(LO.LinearOperatorDiag(d), x, diag_update=np.array([1.0, 2.0])),
        "house": LO.LinearOperatorHouseholder(d),
        "toep": LO.LinearOperatorToeplitz(d, d[::-1]),
        "tri": LO.LinearOperatorTridiag(np.stack([d, d + 1, d - 3], axis=-2)),
        "perm": LO.LinearOperatorPermutation(np.array([2, 0, 1], np.int32), dtype=tf.float64),
        "blt": LO.LinearOperatorBlockLowerTriangular([
            [LO.LinearOperatorFullMatrix(a[0, :2, :2])],
            [LO.LinearOperatorFullMatrix(a[0, 2:, :2]), LO.LinearOperatorFullMatrix(a[0, 2:, 2:])]]),
    }
    meta = {}
    for k, op in ops_.items():
        xx = xc if op.dtype.is_complex else x
        n = op.shape[-1]
        n = n.value if hasattr(n, "value") else n
        xk = xx[..., :n, :] if xx.shape[-2] >= n else np.concatenate([xx] * 3, axis=-2)[..., :n, :]
        vk = xk[..., 0]
        meta[k] = (op.name, str(op.shape), op.is_square, op.is_self_adjoint, op.is_non_singular,
                   op.is_positive_definite)
        out[k + "/dense"] = op.to_dense()
        out[k + "/matmul"] = op.matmul(xk)
        out[k + "/matmul_adj"] = op.matmul(xk, adjoint=True)
        out[k + "/matvec"] = op.matvec(vk)
        out[k + "/det"] = op.determinant()
        out[k + "/logdet"] = op.log_abs_determinant()
        out[k + "/trace"] = op.trace()
        out[k + "/diag"] = op.diag_part()
        out[k + "/shape"] = op.shape_tensor()
        if k != "zeros":
            out[k + "/solve"] = op.solve(xk)
            out[k + "/solvevec"] = op.solvevec(vk, adjoint=True)
    return out, meta
