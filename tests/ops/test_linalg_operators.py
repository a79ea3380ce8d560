"""The tf.linalg.LinearOperator family: every operator's methods against NumPy on its dense matrix (batched),
the dense matrices of the structured operators against TensorFlow's (tests/data/make_linalg_matfn_tf.py),
hints and errors."""

import os

import numpy as np
import pytest
import scipy.linalg

import tensorweave as tf

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
TF = dict(np.load(os.path.join(DATA, "linalg_matfn_tf.npz")))
RNG = np.random.RandomState(42)
LO = tf.linalg


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def close(a, b, rtol=1e-9, atol=1e-10):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


def adj(a):
    return np.conj(np.swapaxes(a, -1, -2))


def rand(shape, dtype=np.float64):
    x = RNG.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.uniform(-1, 1, shape)
    return x.astype(dtype)


def check(op, dense, square=True, solve=True, det=True, rtol=1e-9):
    """Every method of `op` against NumPy on the dense matrices `dense` ([..., M, N])."""
    dense = np.asarray(dense)
    m, n = dense.shape[-2:]
    batch = dense.shape[:-2]
    assert op.shape.as_list() == list(dense.shape)
    assert op.batch_shape.as_list() == list(batch)
    assert op.tensor_rank() == dense.ndim
    assert op.domain_dimension.value == n and op.range_dimension.value == m
    assert op.dtype.as_numpy_dtype == dense.dtype
    x = rand(batch + (n, 2), dense.dtype)
    xa = rand(batch + (2, n), dense.dtype)
    y = rand(batch + (m, 2), dense.dtype)
    v = rand(batch + (n,), dense.dtype)
    fetch = {"dense": op.to_dense(), "matmul": op.matmul(x), "matmul_adj": op.matmul(y, adjoint=True),
             "matmul_adj_arg": op.matmul(xa, adjoint_arg=True), "matvec": op.matvec(v),
             "shape": op.shape_tensor(), "diag": op.diag_part(), "trace": op.trace(),
             "add": op.add_to_tensor(np.ones(dense.shape, dense.dtype)), "batch": op.batch_shape_tensor(),
             "adj_dense": op.adjoint().to_dense(), "rank": op.tensor_rank_tensor(),
             "domain": op.domain_dimension_tensor(), "range": op.range_dimension_tensor()}
    if square and det:
        fetch["det"] = op.determinant()
        fetch["logdet"] = op.log_abs_determinant()
    if square and solve:
        fetch["solve"] = op.solve(y)
        fetch["solve_adj"] = op.solve(x, adjoint=True)
        fetch["solve_adj_arg"] = op.solve(xa, adjoint_arg=True)
        fetch["solvevec"] = op.solvevec(v)
        fetch["inv"] = op.inverse().to_dense()
    got = run(fetch)
    close(got["dense"], dense, rtol=rtol)
    close(got["matmul"], dense @ x, rtol=rtol)
    close(got["matmul_adj"], adj(dense) @ y, rtol=rtol)
    close(got["matmul_adj_arg"], dense @ adj(xa), rtol=rtol)
    close(got["matvec"], (dense @ v[..., None])[..., 0], rtol=rtol)
    np.testing.assert_array_equal(got["shape"], dense.shape)
    np.testing.assert_array_equal(got["batch"], batch)
    assert got["rank"] == dense.ndim and got["domain"] == n and got["range"] == m
    close(got["diag"], np.diagonal(dense, axis1=-2, axis2=-1), rtol=rtol)
    close(got["trace"], np.trace(dense, axis1=-2, axis2=-1), rtol=rtol)
    close(got["add"], dense + 1, rtol=rtol)
    close(got["adj_dense"], adj(dense), rtol=rtol)
    if "det" in got:
        close(got["det"], np.linalg.det(dense), rtol=1e-8)
        close(np.real(got["logdet"]), np.linalg.slogdet(dense)[1], rtol=1e-8)
    if "solve" in got:
        close(got["solve"], np.linalg.solve(dense, y), rtol=1e-8)
        close(got["solve_adj"], np.linalg.solve(adj(dense), x), rtol=1e-8)
        close(got["solve_adj_arg"], np.linalg.solve(dense, adj(xa)), rtol=1e-8)
        close(got["solvevec"], np.linalg.solve(dense, v[..., None])[..., 0], rtol=1e-8)
        close(got["inv"], np.linalg.inv(dense), rtol=1e-8)
    return got


def spd(shape, dtype=np.float64):
    a = rand(shape, dtype)
    return a @ adj(a) + shape[-1] * np.eye(shape[-1])


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_full_matrix(dtype):
    a = rand((2, 3, 4, 4), dtype) + 4 * np.eye(4)
    check(LO.LinearOperatorFullMatrix(a), a)
    rect = rand((2, 3, 5), dtype)
    op = LO.LinearOperatorFullMatrix(rect)
    assert op.is_square is False
    check(op, rect, square=False)
    with pytest.raises(NotImplementedError, match="not be square"):
        op.determinant()
    with pytest.raises(ValueError, match="non square"):
        op.inverse()


def test_full_matrix_cholesky_and_asserts():
    a = spd((2, 4, 4))
    op = LO.LinearOperatorFullMatrix(a, is_self_adjoint=True, is_positive_definite=True)
    assert op.is_non_singular and op.is_square
    chol = op.cholesky()
    assert isinstance(chol, LO.LinearOperatorLowerTriangular)
    got = run([chol.to_dense(), op.eigvals(), op.cond(), op.assert_positive_definite(), op.assert_non_singular(),
               op.assert_self_adjoint()])
    close(got[0], np.linalg.cholesky(a))
    close(got[1], np.linalg.eigvalsh(a))
    close(got[2], np.linalg.cond(a), rtol=1e-8)
    bad = LO.LinearOperatorFullMatrix(np.array([[1.0, 2.0], [3.0, 4.0]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix was not equal to its adjoint"):
        run(bad.assert_self_adjoint())
    with pytest.raises(tf.errors.InvalidArgumentError, match="Singular matrix up to precision epsilon"):
        run(LO.LinearOperatorFullMatrix(np.ones((2, 2))).assert_non_singular())
    with pytest.raises(ValueError, match="Cholesky"):
        bad.cholesky()
    with pytest.raises(ValueError, match="A positive definite matrix is always non-singular."):
        LO.LinearOperatorFullMatrix(a, is_positive_definite=True, is_non_singular=False)
    with pytest.raises(TypeError, match="Argument matrix must have dtype"):
        LO.LinearOperatorFullMatrix(np.ones((2, 2), np.int32))
    with pytest.raises(TypeError, match="Expected argument to have dtype"):
        op.matmul(np.ones((2, 4, 1), np.float32))
    with pytest.raises(NotImplementedError, match="Only self-adjoint"):
        bad.eigvals()


def test_matmul_broadcasts_batches_and_composes_operators():
    a = rand((4, 4)) + 4 * np.eye(4)
    op = LO.LinearOperatorFullMatrix(a)
    x = rand((3, 4, 2))
    close(run(op.matmul(x)), a @ x)
    close(run(op.solve(x)), np.linalg.solve(a, x), rtol=1e-8)
    b = rand((4, 4))
    comp = op.matmul(LO.LinearOperatorFullMatrix(b))
    assert isinstance(comp, LO.LinearOperatorComposition)
    close(run(comp.to_dense()), a @ b)
    close(run((op @ x)), a @ x)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_diag(dtype):
    d = rand((2, 3, 4), dtype) + 2
    op = LO.LinearOperatorDiag(d)
    check(op, np.eye(4) * d[..., None, :])
    inv = op.inverse()
    assert isinstance(inv, LO.LinearOperatorDiag)
    assert op.diag is not None
    if dtype == np.float64:
        assert op.is_self_adjoint
        pos = LO.LinearOperatorDiag(np.abs(d) + 1, is_positive_definite=True)
        close(run(pos.cholesky().to_dense()), np.sqrt(np.abs(d) + 1)[..., None] * np.eye(4))
        with pytest.raises(ValueError, match="A real diagonal operator is always self adjoint."):
            LO.LinearOperatorDiag(d, is_self_adjoint=False)


def test_lower_triangular():
    t = rand((2, 4, 4)) + 3 * np.eye(4)
    op = LO.LinearOperatorLowerTriangular(t)
    check(op, np.tril(t))
    with pytest.raises(ValueError, match="Only square"):
        LO.LinearOperatorLowerTriangular(t, is_square=False)


def test_identity_and_scaled_identity():
    op = LO.LinearOperatorIdentity(3, batch_shape=[2], dtype=tf.float64)
    check(op, np.broadcast_to(np.eye(3), (2, 3, 3)).copy())
    assert op.inverse() is op
    plain = LO.LinearOperatorIdentity(3, dtype=tf.float64)
    x = rand((5, 3, 2))
    np.testing.assert_array_equal(run(plain.matmul(x)), x)
    with pytest.raises(ValueError, match="always non-singular"):
        LO.LinearOperatorIdentity(3, is_non_singular=False)
    m = np.array([2.0, -3.0])
    sop = LO.LinearOperatorScaledIdentity(3, m)
    check(sop, m[:, None, None] * np.eye(3))
    assert isinstance(sop.inverse(), LO.LinearOperatorScaledIdentity)


def test_zeros():
    op = LO.LinearOperatorZeros(3, batch_shape=[2], dtype=tf.float64)
    got = check(op, np.zeros((2, 3, 3)), solve=False, det=False)
    assert got["dense"].shape == (2, 3, 3)
    np.testing.assert_array_equal(run(op.determinant()), [0.0, 0.0])
    assert np.isneginf(run(op.log_abs_determinant())).all()
    with pytest.raises(NotImplementedError, match="singular"):
        op.solve(np.ones((2, 3, 1)))
    rect = LO.LinearOperatorZeros(2, 4, dtype=tf.float64)
    check(rect, np.zeros((2, 4)), square=False)
    with pytest.raises(ValueError, match="always singular"):
        LO.LinearOperatorZeros(2, is_non_singular=True)


def test_adjoint_inversion_composition():
    a = rand((2, 3, 3), np.complex128) + 3 * np.eye(3)
    b = rand((2, 3, 3), np.complex128) + 3 * np.eye(3)
    fa, fb = LO.LinearOperatorFullMatrix(a), LO.LinearOperatorFullMatrix(b)
    check(LO.LinearOperatorAdjoint(fa), adj(a))
    check(LO.LinearOperatorInversion(fa), np.linalg.inv(a), rtol=1e-8)
    comp = LO.LinearOperatorComposition([fa, fb])
    check(comp, a @ b)
    assert comp.name == fa.name + "_o_" + fb.name
    assert fa.adjoint().operator is fa
    with pytest.raises(ValueError, match="non-empty list"):
        LO.LinearOperatorComposition([])
    with pytest.raises(TypeError, match="same dtype"):
        LO.LinearOperatorComposition([fa, LO.LinearOperatorFullMatrix(np.eye(3))])
    with pytest.raises(ValueError, match="must be non-singular"):
        LO.LinearOperatorInversion(LO.LinearOperatorFullMatrix(np.eye(3), is_non_singular=False))


def test_block_diag_and_block_lower_triangular():
    a = rand((2, 2, 2)) + 2 * np.eye(2)
    b = rand((3, 3)) + 3 * np.eye(3)
    op = LO.LinearOperatorBlockDiag([LO.LinearOperatorFullMatrix(a), LO.LinearOperatorFullMatrix(b)])
    dense = np.zeros((2, 5, 5))
    dense[:, :2, :2] = a
    dense[:, 2:, 2:] = b
    check(op, dense)
    c = rand((3, 2))
    op2 = LO.LinearOperatorBlockLowerTriangular([[LO.LinearOperatorFullMatrix(a[0])],
                                                  [LO.LinearOperatorFullMatrix(c), LO.LinearOperatorFullMatrix(b)]])
    dense2 = np.zeros((5, 5))
    dense2[:2, :2] = a[0]
    dense2[2:, :2] = c
    dense2[2:, 2:] = b
    check(op2, dense2)
    with pytest.raises(ValueError, match="must contain `2` blocks"):
        LO.LinearOperatorBlockLowerTriangular([[LO.LinearOperatorFullMatrix(a[0])], [LO.LinearOperatorFullMatrix(c)]])


def test_kronecker_and_low_rank_update():
    a = rand((2, 2, 2)) + 2 * np.eye(2)
    b = rand((3, 3)) + 3 * np.eye(3)
    op = LO.LinearOperatorKronecker([LO.LinearOperatorFullMatrix(a), LO.LinearOperatorFullMatrix(b)])
    check(op, np.stack([np.kron(a[i], b) for i in range(2)]))
    base = LO.LinearOperatorDiag(np.array([[3.0, 4.0, 5.0], [2.0, 3.0, 4.0]]))
    u = rand((2, 3, 2))
    d = np.array([[1.0, 2.0], [0.5, 1.5]])
    upd = LO.LinearOperatorLowRankUpdate(base, u, diag_update=d)
    dense = np.eye(3) * np.array([[3.0, 4.0, 5.0], [2.0, 3.0, 4.0]])[:, None, :] + u @ (d[:, :, None] * adj(u))
    check(upd, dense)
    assert upd.is_self_adjoint
    v = rand((2, 3, 2))
    upd2 = LO.LinearOperatorLowRankUpdate(base, u, v=v)
    check(upd2, np.eye(3) * np.array([[3.0, 4.0, 5.0], [2.0, 3.0, 4.0]])[:, None, :] + u @ adj(v))


def test_permutation_householder_toeplitz_match_tf():
    perm = LO.LinearOperatorPermutation(TF["perm"], dtype=tf.float64)
    got = check(perm, TF["tf_perm_dense"])
    np.testing.assert_array_equal(got["dense"], TF["tf_perm_dense"])
    x = rand((2, 4, 1))
    close(run(perm.matmul(x)), np.stack([x[i][TF["perm"][i]] for i in range(2)]))
    house = LO.LinearOperatorHouseholder(TF["house_v"])
    check(house, TF["tf_house"])
    assert house.is_self_adjoint
    toep = LO.LinearOperatorToeplitz(TF["toep_col"], TF["toep_row"])
    check(toep, TF["tf_toep"])
    first_row = np.r_[TF["toep_col"][0][0], TF["toep_row"][0][1:]]
    close(TF["tf_toep"][0], scipy.linalg.toeplitz(TF["toep_col"][0], first_row))


@pytest.mark.parametrize("fmt", ["compact", "sequence", "matrix"])
def test_tridiag(fmt):
    d = TF["tri_diags"]
    dense = np.stack([np.diag(d[b, 1]) + np.diag(d[b, 0, :-1], 1) + np.diag(d[b, 2, 1:], -1) for b in range(2)])
    diags = {"compact": d, "sequence": [d[:, 0], d[:, 1], d[:, 2]], "matrix": dense}[fmt]
    op = LO.LinearOperatorTridiag(diags, diagonals_format=fmt)
    check(op, dense, rtol=1e-8)
    assert op.diagonals_format == fmt


def test_circulants_match_tf():
    c1 = LO.LinearOperatorCirculant(TF["circ_spec"])
    check(c1, TF["tf_circ"].astype(np.complex64), rtol=2e-5, solve=False, det=False)
    close(run(c1.to_dense()), TF["tf_circ"], rtol=1e-5, atol=1e-5)
    c1r = LO.LinearOperatorCirculant(TF["circ_spec"], input_output_dtype=tf.float64)
    close(run(c1r.to_dense()), TF["tf_circ_real"])
    c2 = LO.LinearOperatorCirculant2D(TF["circ2_spec"])
    close(run(c2.to_dense()), TF["tf_circ2"], rtol=1e-5, atol=1e-5)
    c3 = LO.LinearOperatorCirculant3D(TF["circ3_spec"])
    close(run(c3.to_dense()), TF["tf_circ3"], rtol=1e-5, atol=1e-5)
    assert c3.block_depth == 3 and c3.block_shape.as_list() == [2, 2, 3]
    # the kernel definition: H x is the circular convolution of ifft(spectrum) with x
    spec = TF["circ_spec"][0]
    h = np.fft.ifft(spec)
    x = rand((5,), np.complex128)
    op = LO.LinearOperatorCirculant(spec, input_output_dtype=tf.complex128)
    close(run(op.matvec(x)), np.fft.ifft(spec * np.fft.fft(x)))
    close(run(op.convolution_kernel()), h)


def test_unknown_shapes():
    p = tf.placeholder(tf.float64, [None, 3, 3])
    op = LO.LinearOperatorFullMatrix(p)
    assert op.shape.as_list() == [None, 3, 3] and op.is_square
    a = rand((2, 3, 3)) + 3 * np.eye(3)
    with tf.Session() as sess:
        got = sess.run([op.shape_tensor(), op.determinant(), op.solve(np.ones((2, 3, 1)))], {p: a})
    np.testing.assert_array_equal(got[0], [2, 3, 3])
    close(got[1], np.linalg.det(a))
    close(got[2], np.linalg.solve(a, np.ones((2, 3, 1))))


def test_twenty_operators_match_tf():
    """Each operator's dense matrix, products, solves, determinants, trace, diagonal, shape and hints, with
    TF's values, dtypes and shapes (tests/data/make_linalg_operators_tf.py)."""
    import json
    import sys
    sys.path.insert(0, DATA)
    try:
        from linalg_operator_cases import cases
    finally:
        sys.path.remove(DATA)
    ref = np.load(os.path.join(DATA, "linalg_operators_tf.npz"))
    out, meta = cases(tf)
    got = run(out)
    assert len(got) > 200
    for key, value in got.items():
        want = ref[key.replace("/", "__")]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        np.testing.assert_allclose(value, want, rtol=1e-8, atol=1e-10, err_msg=key)
    tf_meta = json.loads(str(ref["meta"]))
    assert {k: list(v) for k, v in meta.items()} == tf_meta
