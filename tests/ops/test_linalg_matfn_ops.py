"""tf.linalg.lu / lu_* / sqrtm / logm / tridiagonal_* / eigh_tridiagonal / conjugate_gradient, the complex
helpers and tf.math.special: values against TensorFlow's (recorded by tests/data/make_linalg_matfn_tf.py and
make_linalg_special_tf.py) and against NumPy/SciPy, shapes, errors and gradients."""

import os

import numpy as np
import pytest
import scipy.linalg
import scipy.special

import tensorweave as tf
from tensorweave.eager import context

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
TF = dict(np.load(os.path.join(DATA, "linalg_matfn_tf.npz")))
SPECIAL = dict(np.load(os.path.join(DATA, "linalg_special_tf.npz")))


def run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def close(a, b, rtol=1e-10, atol=1e-12):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


# ---- LU -----------------------------------------------------------------------------------------
def test_lu_matches_tf():
    lu, p = tf.linalg.lu(TF["lu_in"])
    luc, pc = tf.linalg.lu(TF["lu_in_c"])
    got = run({"lu": lu, "p": p, "luc": luc, "pc": pc,
               "rec": tf.linalg.lu_reconstruct(lu, p), "inv": tf.linalg.lu_matrix_inverse(lu, p),
               "sol": tf.linalg.lu_solve(lu, p, TF["lu_rhs"])})
    close(got["lu"], TF["tf_lu"])
    np.testing.assert_array_equal(got["p"], TF["tf_lu_p"])
    assert got["p"].dtype == np.int32
    close(got["luc"], TF["tf_lu_c"], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got["pc"], TF["tf_lu_c_p"])
    close(got["rec"], TF["tf_lu_reconstruct"])
    close(got["rec"], TF["lu_in"])
    close(got["inv"], TF["tf_lu_matrix_inverse"], rtol=1e-9)
    close(got["inv"], np.linalg.inv(TF["lu_in"]), rtol=1e-9)
    close(got["sol"], TF["tf_lu_solve"], rtol=1e-9)


def test_lu_is_p_a_equals_l_u_against_scipy():
    rng = np.random.RandomState(0)
    a = rng.uniform(-1, 1, (3, 2, 5, 5))
    lu, p = run(list(tf.linalg.lu(a, output_idx_type=tf.int64)))
    assert p.dtype == np.int64 and p.shape == (3, 2, 5)
    for idx in np.ndindex(3, 2):
        ref_p, ref_l, ref_u = scipy.linalg.lu(a[idx])
        close(np.tril(lu[idx], -1) + np.eye(5), ref_l)
        close(np.triu(lu[idx]), ref_u)
        np.testing.assert_array_equal(np.argmax(ref_p, axis=0), p[idx])


def test_lu_shapes_and_errors():
    x = tf.placeholder(tf.float64, [None, 3, 3])
    lu, p = tf.linalg.lu(x)
    assert lu.shape.as_list() == [None, 3, 3] and p.shape.as_list() == [None, 3]
    u = tf.placeholder(tf.float64)
    assert tf.linalg.lu(u)[0].shape.ndims is None
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.linalg.lu(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="at least rank 2"):
        tf.linalg.lu(np.zeros((2,)))
    with pytest.raises(TypeError, match="int32 not in list of allowed values"):
        tf.linalg.lu(np.zeros((2, 2), np.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible."):
        run(tf.linalg.lu(np.zeros((2, 2)))[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel"):
        run(tf.linalg.lu(np.eye(2, dtype=np.float16))[0])
    empty = run(list(tf.linalg.lu(np.zeros((2, 0, 0)))))
    assert empty[0].shape == (2, 0, 0) and empty[1].shape == (2, 0)
    with pytest.raises(LookupError):
        a = tf.constant(np.eye(2))
        tf.gradients(tf.linalg.lu(a)[0], a)


def test_lu_solve_broadcasts_and_unknown_shapes():
    a = TF["lu_in"][0]
    lu, p = tf.linalg.lu(a)
    rhs = np.random.RandomState(1).rand(3, 4, 2)
    got = run(tf.linalg.lu_solve(lu, p, rhs))
    close(got, np.linalg.solve(a, rhs), rtol=1e-9)
    x = tf.placeholder(tf.float64, None)
    lux, px = tf.linalg.lu(x)
    rec = run(tf.linalg.lu_reconstruct(lux, px), {x: TF["lu_in"]})
    close(rec, TF["lu_in"])
    inv = run(tf.linalg.lu_matrix_inverse(lux, px), {x: TF["lu_in"]})
    close(inv, np.linalg.inv(TF["lu_in"]), rtol=1e-9)


# ---- sqrtm / logm --------------------------------------------------------------------------------
def test_sqrtm_matches_tf():
    got = run({k: tf.linalg.sqrtm(TF[k.replace("sqrtm", "sqrtm_in") if k == "sqrtm" else k])
               for k in ("sqrtm", "sqrtm_rot", "sqrtm_c")})
    close(got["sqrtm"], TF["tf_sqrtm"], rtol=1e-9)
    close(got["sqrtm_rot"], TF["tf_sqrtm_rot"], rtol=1e-9)
    close(got["sqrtm_c"], TF["tf_sqrtm_c"], rtol=1e-9)
    close(got["sqrtm"] @ got["sqrtm"], TF["sqrtm_in"], rtol=1e-9)
    close(got["sqrtm_c"], scipy.linalg.sqrtm(TF["sqrtm_c"]), rtol=1e-9)


def test_sqrtm_special_cases_as_tf():
    neg, sing = run([tf.matrix_square_root(TF["sqrtm_neg"]), tf.linalg.sqrtm(TF["sqrtm_sing"])])
    np.testing.assert_array_equal(np.isnan(neg), np.isnan(TF["tf_sqrtm_neg"]))
    np.testing.assert_array_equal(sing, TF["tf_sqrtm_sing"])  # [[nan, inf], [nan, nan]]
    nan_in = run(tf.linalg.sqrtm(np.array([[np.nan, 1.0], [0.0, 1.0]])))
    assert np.isnan(nan_in).all()
    assert run(tf.linalg.sqrtm(np.zeros((0, 0)))).shape == (0, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel"):
        run(tf.linalg.sqrtm(np.eye(2, dtype=np.float16)))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.linalg.sqrtm(np.zeros((2, 3)))


def test_sqrtm_gradient_matches_tf():
    a = tf.constant(TF["sqrtm_in"])
    g = tf.gradients(tf.reduce_sum(tf.linalg.sqrtm(a) * TF["lu_in"]), a)[0]
    close(run(g), TF["tf_sqrtm_grad"], rtol=1e-8)


def test_logm_matches_tf_and_scipy():
    got = run(tf.linalg.logm(TF["logm_in"]))
    close(got, TF["tf_logm"], rtol=1e-9)
    for i in range(2):
        close(scipy.linalg.expm(got[i]), TF["logm_in"][i], rtol=1e-9)
    neg = run(tf.linalg.logm(np.array([[-1.0, 0], [0, 4]], np.complex64)))
    close(neg, [[np.pi * 1j, 0], [0, np.log(4)]], rtol=1e-6, atol=1e-6)
    assert neg.dtype == np.complex64
    assert np.isnan(run(tf.linalg.logm(np.array([[0.0, 1], [0, 0]], np.complex128)))).all()
    with pytest.raises(TypeError, match="float64 not in list of allowed values: complex64, complex128"):
        tf.linalg.logm(np.eye(2))


# ---- tridiagonal ---------------------------------------------------------------------------------
def test_tridiagonal_solve_matches_tf():
    d, r = TF["tri_diags"], TF["tri_rhs"]
    got = run([tf.linalg.tridiagonal_solve(d, r), tf.linalg.tridiagonal_solve(d, r, partial_pivoting=False),
               tf.linalg.tridiagonal_solve(tf.constant(TF["tri_zero"]), tf.constant([[1.0], [2.0], [3.0]], tf.float64)),
               tf.linalg.tridiagonal_matmul(d, r)])
    close(got[0], TF["tf_tri_solve"], rtol=1e-9)
    close(got[1], TF["tf_tri_solve_np"], rtol=1e-9)
    close(got[2], TF["tf_tri_solve_zero"])
    close(got[3], TF["tf_tri_matmul"])
    dense = np.zeros((2, 5, 5))
    for b in range(2):
        dense[b] = np.diag(d[b, 1]) + np.diag(d[b, 0, :-1], 1) + np.diag(d[b, 2, 1:], -1)
    close(got[0], np.linalg.solve(dense, r), rtol=1e-9)
    close(got[3], dense @ r)


def test_tridiagonal_solve_perturb_singular_matches_tf():
    rhs = TF["tri_rhs"][:, :3]
    got = run([tf.linalg.tridiagonal_solve(TF["tri_sing"], rhs, perturb_singular=True),
               tf.linalg.tridiagonal_solve(TF["tri_sing"].astype(np.complex128) * (1 + 0.5j), rhs.astype(np.complex128),
                                           perturb_singular=True),
               tf.linalg.tridiagonal_solve(TF["tri_tiny"], np.array([[1.0], [2.0], [3.0]]), perturb_singular=True),
               tf.linalg.tridiagonal_solve(np.zeros((3, 1)), np.array([[2.0]]), perturb_singular=True),
               tf.linalg.tridiagonal_solve(TF["tri_sing"].astype(np.float32), rhs.astype(np.float32),
                                           perturb_singular=True)])
    for g, key in zip(got, ("perturb", "perturb_c", "perturb_tiny", "perturb_1", "perturb_f32")):
        want = TF["tf_tri_" + key]
        assert g.dtype == want.dtype
        close(g, want, rtol=1e-6 if key == "perturb_f32" else 1e-10)
    assert np.isfinite(got[0]).all()  # the singular system gets a finite (perturbed) solution, as in TF


def test_tridiagonal_solve_gradient_matches_tf():
    d, r = tf.constant(TF["tri_diags"]), tf.constant(TF["tri_rhs"])
    gd, gr = tf.gradients(tf.reduce_sum(tf.linalg.tridiagonal_solve(d, r) ** 2), [d, r])
    got = run([gd, gr])
    close(got[0], TF["tf_tri_solve_grad_d"], rtol=1e-8)
    close(got[1], TF["tf_tri_solve_grad_r"], rtol=1e-8)


def test_tridiagonal_formats_and_singular_systems():
    d = np.array([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 7.0, 8.0]])
    r = np.array([[1.0], [2.0], [3.0]])
    seq = tf.linalg.tridiagonal_solve([np.array([2.0, 6.0]), np.array([1.0, 5.0, 8.0]), np.array([4.0, 7.0])], r,
                                      diagonals_format="sequence")
    mat = tf.linalg.tridiagonal_solve(np.array([[1.0, 2, 9], [4, 5, 6], [9, 7, 8]]), r, diagonals_format="matrix")
    vec = tf.linalg.tridiagonal_solve(d, np.array([1.0, 2.0, 3.0]))
    tr = tf.linalg.tridiagonal_solve(d, np.array([[1.0, 2.0, 3.0]]), transpose_rhs=True)
    z4 = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]])
    sing = [tf.linalg.tridiagonal_solve(z4, r), tf.linalg.tridiagonal_solve(z4, r, partial_pivoting=False),
            tf.linalg.tridiagonal_solve(np.zeros((3, 1)), np.ones((1, 1)))]
    got = run([seq, mat, vec, tr] + sing)
    close(got[0], [[-0.030303030303], [0.515151515152], [-0.075757575758]], rtol=1e-9)  # TF's values
    close(got[1], got[0])
    close(got[2], [0.571428571429, -1.285714285714, 2.214285714286], rtol=1e-9)
    close(got[3], got[2][:, None], rtol=1e-12)
    for s in got[4:]:
        assert np.isnan(s).all()
    inf = run(tf.linalg.tridiagonal_solve(np.array([[1.0, 1, 0], [4, np.inf, 6], [0, 7, 8]]), r))
    np.testing.assert_array_equal(inf[1:], [[-0.0], [0.5]])  # TF's values
    assert np.isnan(inf[0, 0])
    mm = run(tf.linalg.tridiagonal_matmul([np.array([2.0, 6, 9]), np.array([1.0, 5, 8]), np.array([9.0, 4, 7])],
                                          r, diagonals_format="sequence"))
    close(mm, [[5.0], [32.0], [38.0]])


def test_tridiagonal_shapes_and_errors():
    with pytest.raises(ValueError, match="Expected diagonals to have rank at least 2, got 1"):
        tf.linalg.tridiagonal_solve(np.ones(3), np.ones((3, 1)))
    with pytest.raises(ValueError, match="Expected 3 diagonals got 4"):
        tf.linalg.tridiagonal_solve(np.ones((4, 3)), np.ones((3, 1)))
    with pytest.raises(ValueError, match="left-hand sided and right-hand sides to be equal, got 3 and 4"):
        tf.linalg.tridiagonal_solve(np.ones((3, 3)), np.ones((4, 1)))
    with pytest.raises(TypeError, match="float16 not in list of allowed values"):
        tf.linalg.tridiagonal_solve(np.ones((3, 3), np.float16), np.ones((3, 1), np.float16))
    with pytest.raises(ValueError, match="Unrecognized diagonals_format"):
        tf.linalg.tridiagonal_solve(np.ones((3, 3)), np.ones((3, 1)), diagonals_format="banded")
    with pytest.raises(ValueError, match="partial_pivoting must be True if perturb_singular is."):
        tf.linalg.tridiagonal_solve(np.ones((3, 3)), np.ones((3, 1)), perturb_singular=True, partial_pivoting=False)
    d = tf.placeholder(tf.float32, [None, 3, None])
    r = tf.placeholder(tf.float32, [2, None, 4])
    assert tf.linalg.tridiagonal_solve(d, r).shape.as_list() == [2, None, 4]
    du = tf.placeholder(tf.float64, None)
    ru = tf.placeholder(tf.float64, None)
    x = tf.linalg.tridiagonal_solve(du, ru)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected the same number of left-hand sides and "
                       "right-hand sides, got 3 and 4."):
        run(x, {du: np.ones((3, 3)), ru: np.ones((4, 1))})
    with pytest.raises(tf.errors.InvalidArgumentError, match="with 3 rows, got 4 rows."):
        run(x, {du: np.ones((4, 3)), ru: np.ones((3, 1))})
    with pytest.raises(tf.errors.InvalidArgumentError, match="All input tensors must have the same outer"):
        run(x, {du: np.ones((2, 3, 3)), ru: np.ones((3, 3, 1))})
    m = tf.linalg.tridiagonal_matmul(du, ru)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid superdiagonal shape."):
        run(m, {du: np.ones((3, 3)), ru: np.ones((4, 1))})


# ---- eigh_tridiagonal / conjugate gradient -------------------------------------------------------
def test_eigh_tridiagonal_matches_tf():
    a, b = TF["eigt_alpha"], TF["eigt_beta"]
    w, v = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False)
    got = run([tf.linalg.eigh_tridiagonal(a, b), tf.linalg.eigh_tridiagonal(a, b, select="v", select_range=[0.0, 3.0]),
               tf.linalg.eigh_tridiagonal(a, b, select="i", select_range=[1, 3]), w, v])
    close(got[0], TF["tf_eigt"], rtol=1e-9)
    close(got[1], TF["tf_eigt_v"], rtol=1e-9)
    close(got[2], TF["tf_eigt_i"], rtol=1e-9)
    dense = np.diag(a) + np.diag(b, 1) + np.diag(b, -1)
    close(dense @ got[4], got[4] * got[3], atol=1e-10)
    c = run(tf.linalg.eigh_tridiagonal(a.astype(np.complex128), (b * 1j).astype(np.complex128)))
    close(c, TF["tf_eigt"], rtol=1e-9)
    assert c.dtype == np.float64
    with pytest.raises(ValueError, match="select must be"):
        tf.linalg.eigh_tridiagonal(a, b, select="x")


def test_conjugate_gradient_matches_tf():
    op = tf.linalg.LinearOperatorFullMatrix(TF["cg_a"], is_self_adjoint=True, is_positive_definite=True)
    state = tf.linalg.experimental.conjugate_gradient(op, TF["cg_rhs"], max_iter=2)
    assert type(state).__name__ == "CGState" and state._fields == ("i", "x", "r", "p", "gamma")
    got = run(list(state))
    assert got[0] == TF["tf_cg_i"]
    for k, g in zip(("x", "r", "p", "gamma"), got[1:]):
        close(g, TF["tf_cg_" + k], rtol=1e-9)
    full = run(tf.linalg.experimental.conjugate_gradient(op, TF["cg_rhs"]).x)
    close(full, np.linalg.solve(TF["cg_a"], TF["cg_rhs"][..., None])[..., 0], rtol=1e-8)
    pre = tf.linalg.LinearOperatorDiag(1.0 / np.diagonal(TF["cg_a"], axis1=-2, axis2=-1), is_positive_definite=True)
    x0 = np.ones((2, 3))
    prec = run(tf.linalg.experimental.conjugate_gradient(op, TF["cg_rhs"], preconditioner=pre, x=x0).x)
    close(prec, full, rtol=1e-8)
    with pytest.raises(ValueError, match="Expected a self-adjoint, positive definite operator."):
        tf.linalg.experimental.conjugate_gradient(tf.linalg.LinearOperatorFullMatrix(TF["cg_a"]), TF["cg_rhs"])


# ---- complex helpers ------------------------------------------------------------------------------
def test_complex_helpers_values_and_types():
    z = np.array([1 + 2j, -1 - 0j, 0j, 3 - 4j], np.complex64)
    got = run([tf.real(z), tf.imag(z), tf.angle(z), tf.math.real(z), tf.math.imag(z), tf.math.angle(z),
               tf.complex(np.array([1.0, 2.0]), np.array([3.0])), tf.complex(1.0, 2.0),
               tf.angle(np.array([1.0, -2.0, 0.0, -0.0, np.nan], np.float32)), tf.real(np.array([1, -2])),
               tf.imag(np.array([1.0, -2.0])), tf.to_complex64(np.array([1, 2])),
               tf.to_complex128(np.array([1.0], np.float32))])
    np.testing.assert_array_equal(got[0], np.real(z))
    assert got[0].dtype == np.float32
    np.testing.assert_array_equal(got[1], np.imag(z))
    close(got[2], np.angle(z), rtol=1e-6)
    for i in range(3):
        np.testing.assert_array_equal(got[3 + i], got[i])
    np.testing.assert_array_equal(got[6], [1 + 3j, 2 + 3j])
    assert got[6].dtype == np.complex128 and got[7].dtype == np.complex64
    np.testing.assert_array_equal(got[8], np.array([0, np.pi, 0, 0, 0], np.float32))  # TF: NaN -> 0
    np.testing.assert_array_equal(got[9], [1, -2])
    np.testing.assert_array_equal(got[10], [0.0, 0.0])
    assert got[11].dtype == np.complex64 and got[12].dtype == np.complex128
    assert tf.real(tf.constant(z), name="foo").op.name == "foo"
    assert tf.to_complex64(np.array([1])).op.name.startswith("ToComplex64")


def test_angle_matches_tf_golden():
    got = run(tf.math.angle(SPECIAL["angle_z"]))
    close(got, SPECIAL["angle_complex128"], rtol=1e-12, atol=0)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(SPECIAL["angle_complex128"]))


def test_complex_helpers_errors():
    with pytest.raises(TypeError, match="The `real` and `imag` components have incorrect types: int64 int64"):
        tf.complex(np.array([1, 2]), np.array([3, 4]))
    with pytest.raises(TypeError, match="float32 float64"):
        tf.complex(np.array([1.0], np.float32), np.array([3.0]))
    with pytest.raises(TypeError, match="input must be a numeric tensor"):
        tf.real(np.array([b"a"]))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.complex(np.ones(2), np.ones(3))
    a = tf.placeholder_with_default(np.ones(2), [None])
    b = tf.placeholder_with_default(np.ones(3), [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        run(tf.complex(a, b))


def test_complex_gradients():
    x = tf.constant([1.0, 2.0], tf.float64)
    y = tf.constant(3.0, tf.float64)
    z = tf.complex(x, y)
    gx, gy = run(tf.gradients(tf.real(z * z) + tf.angle(z) + tf.imag(z), [x, y]))
    close(gx, 2 * np.array([1.0, 2.0]) - 3.0 / (np.array([1.0, 2.0]) ** 2 + 9))
    close(gy, np.sum(-2 * 3.0 + np.array([1.0, 2.0]) / (np.array([1.0, 2.0]) ** 2 + 9) + 1))


def test_polyval():
    x = np.array([0.5, 2.0], np.float32)
    got = run([tf.math.polyval([1.0, 2.0, 3.0], x), tf.math.polyval([], x),
               tf.math.polyval([tf.constant([1.0, 2.0]), 3.0], x)])
    close(got[0], np.polyval([1.0, 2.0, 3.0], x), rtol=1e-6)
    np.testing.assert_array_equal(got[1], [0.0, 0.0])
    close(got[2], [1.0 * 0.5 + 3, 2.0 * 2 + 3], rtol=1e-6)
    with pytest.raises(ValueError, match="Argument coeffs must be list type"):
        tf.math.polyval(tf.constant([1.0]), x)


# ---- tf.math.special ------------------------------------------------------------------------------
NAMES = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e",
         "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "dawsn", "expint", "fresnel_cos", "fresnel_sin",
         "spence"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_special_matches_tf(name, dtype):
    x = SPECIAL["x"].astype(dtype)
    want = SPECIAL["%s_%s" % (name, dtype)]
    got = run(getattr(tf.math.special, name)(x))
    assert got.dtype == np.dtype(dtype)
    keep = np.ones(x.shape, bool)
    if dtype == "float32":  # single precision far from 0: TF's asymptotic float kernels are less accurate
        keep = np.abs(x) < 90
    np.testing.assert_array_equal(np.isnan(got[keep]), np.isnan(want[keep]))
    # float32 near the Bessel functions' zeros: a few float32 ulps of the function's scale
    tol = dict(rtol=2e-5, atol=1e-6) if dtype == "float32" else dict(rtol=1e-10, atol=1e-300)
    np.testing.assert_allclose(got[keep], want[keep], **tol)
    zero = keep & (want == 0) & (got == 0)
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]))


def test_special_float16_and_types():
    got = run(tf.math.special.bessel_y1(np.array([0.0, 1.0], np.float16)))
    assert np.isnan(got[0]) and got.dtype == np.float16  # TF: NaN at 0 in half and single precision
    for name in ("dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"):
        with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel"):
            run(getattr(tf.math.special, name)(np.array([1.0], np.float16)))
    with pytest.raises(TypeError, match="int64 not in list of allowed values"):
        tf.math.special.bessel_j0(np.array([1, 2]))
    t = tf.math.special.bessel_k1(tf.constant([1.0]))
    assert t.op.type == "BesselK1" and t.op.name == "bessel_k1/BesselK1"
    assert tf.math.special.bessel_i0 is tf.math.bessel_i0


def test_special_gradients_against_scipy():
    x64 = np.array([0.3, 1.5, 2.5, 7.0])
    x = tf.constant(x64)
    ref = {
        "bessel_j0": -scipy.special.j1(x64), "bessel_j1": scipy.special.jvp(1, x64),
        "bessel_y0": -scipy.special.y1(x64), "bessel_y1": scipy.special.yvp(1, x64),
        "bessel_k0": -scipy.special.k1(x64), "bessel_k1": scipy.special.kvp(1, x64),
        "bessel_k0e": scipy.special.k0e(x64) - scipy.special.k1e(x64),
        "bessel_k1e": np.exp(x64) * (scipy.special.kvp(1, x64) + scipy.special.k1(x64)),
        "dawsn": 1 - 2 * x64 * scipy.special.dawsn(x64), "expint": np.exp(x64) / x64,
        "fresnel_cos": np.cos(np.pi / 2 * x64 ** 2), "fresnel_sin": np.sin(np.pi / 2 * x64 ** 2),
        "spence": np.log(x64) / (1 - x64),
    }
    names = sorted(ref)
    grads = run([tf.gradients(tf.reduce_sum(getattr(tf.math.special, n)(x)), x)[0] for n in names])
    for n, g in zip(names, grads):
        close(g, ref[n], rtol=1e-9, atol=1e-12)
    zero, one = tf.constant([0.0, 0.0]), tf.constant([1.0, 1.0])
    j1_at_0, sp_at_1 = run([tf.gradients(tf.math.special.bessel_j1(zero), zero)[0],
                            tf.gradients(tf.math.special.spence(one), one)[0]])
    np.testing.assert_array_equal(j1_at_0, [0.5, 0.5])  # TF's value at 0
    np.testing.assert_array_equal(sp_at_1, [-1.0, -1.0])  # TF's value at 1


def test_eager_matches_graph():
    x = np.array([0.5, 1.5, 3.0])
    g = run([tf.math.special.bessel_j0(x), tf.linalg.sqrtm(TF["sqrtm_in"]), tf.angle(x + 1j)])
    with context.eager_mode():
        e = [tf.math.special.bessel_j0(x).numpy(), tf.linalg.sqrtm(TF["sqrtm_in"]).numpy(),
             tf.angle(x + 1j).numpy()]
    for a, b in zip(g, e):
        np.testing.assert_array_equal(a, b)
