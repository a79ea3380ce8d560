"""Op-table rows of the linear algebra ops (tensorweave/ops/linalg_*_ops.py; see harness.py for the row
API). References are SciPy's LAPACK drivers (scipy.linalg, a separate path from the NumPy routines the
kernels call) or explicit Python loops over the elements."""

import warnings

import numpy as np
import scipy.linalg

import tensorweave as tf
from tests.ops.op_table.harness import COMPLEX, FLOATS, NUMERIC, Row, rand

LINALG = FLOATS + COMPLEX
NO_HALF = (np.float32, np.float64) + COMPLEX  # TF has float16 CPU kernels for MatrixInverse only
DIAG_TYPES = NUMERIC + (np.bool_,)
# float16 matrices are factored in float32 and rounded: a few half-precision ulps.
TOL16 = {np.float16: 5e-3}


def _per_matrix(f, *arrays, out_dtype=None):
    """`f` applied to each innermost matrix of the (equally batched) `arrays`, in float64/complex128."""
    first = np.asarray(arrays[0])
    up = [np.asarray(a).astype(np.complex128 if np.asarray(a).dtype.kind == "c" else np.float64) for a in arrays]
    batch = first.shape[:-2]
    results = [np.asarray(f(*[a[idx] for a in up])) for idx in np.ndindex(*batch)]
    shape = results[0].shape if results else ()
    out = np.array(results).reshape(batch + shape)
    return out.astype(out_dtype or first.dtype)


def _well_conditioned(shape):
    """Random matrices plus n*I: far from singular."""
    def inputs(dt, rng):
        n = shape[-1]
        a = rand(rng, shape, dt) + n * np.eye(n, dtype=dt)
        return (a.astype(dt),)
    return inputs


def _spd(shape):
    """Random Hermitian positive definite matrices (A A^H + n I)."""
    def inputs(dt, rng):
        n = shape[-1]
        a = rand(rng, shape, np.complex128 if np.dtype(dt).kind == "c" else np.float64)
        m = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
        return (m.astype(dt),)
    return inputs


def _empties(n_inputs=1, rhs=False):
    def special(dt):
        cases = [[np.zeros((0, 0), dt)], [np.zeros((2, 0, 0), dt)]]
        if rhs:
            cases = [c + [np.zeros(c[0].shape[:-1] + (3,), dt)] for c in cases]
        return cases
    return special


def _inv_ref(adjoint):
    def ref(a):
        out = _per_matrix(scipy.linalg.inv, a)
        return np.conj(np.swapaxes(out, -1, -2)) if adjoint else out
    return ref


def _det(m):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # exactly singular matrices
        lu, piv = scipy.linalg.lu_factor(m, check_finite=False)
    sign = (-1) ** np.sum(piv != np.arange(len(piv)))
    return sign * np.prod(np.diag(lu))


def _det_ref(a):
    return _per_matrix(_det, a)


def _slogdet_ref(a):
    d = _per_matrix(lambda m: _det(m) if m.size else 1.0, a, out_dtype=np.complex128)
    mag = np.abs(d)
    sign = np.where(mag == 0, 0, d / np.where(mag == 0, 1, mag))
    with np.errstate(divide="ignore"):
        log = np.log(mag)
    if a.dtype.kind != "c":
        sign = sign.real
    return [sign.astype(a.dtype), log.astype(a.dtype)]


def _slogdet_special(dt):
    return [[np.zeros((3, 3), dt)], [np.zeros((0, 0), dt)], [np.zeros((2, 0, 0), dt)],
            [np.array([[0.0, 1.0], [1.0, 0.0]], dt)]]


def _cholesky_ref(a):
    return _per_matrix(lambda m: scipy.linalg.cholesky(m, lower=True), a)


def _sym(f):
    """`f` of the symmetrized input: the gradient check of ops that read one triangle only."""
    return lambda a, *rest: f(0.5 * (a + tf.transpose(a)), *rest)


def _solve_inputs(shape, k):
    def inputs(dt, rng):
        (a,) = _well_conditioned(shape)(dt, rng)
        return a, rand(rng, shape[:-1] + (k,), dt)
    return inputs


def _solve_ref(adjoint):
    def ref(a, b):
        return _per_matrix(lambda m, r: scipy.linalg.solve(np.conj(m.T) if adjoint else m, r), a, b)
    return ref


def _tri_ref(lower, adjoint):
    def ref(a, b):
        return _per_matrix(lambda m, r: scipy.linalg.solve_triangular(m, r, lower=lower,
                                                                      trans="C" if adjoint else "N"), a, b)
    return ref


def _band_ref(lo, hi):
    def ref(x):
        out = np.zeros_like(x)
        for idx in np.ndindex(*x.shape):
            i, j = idx[-2:]
            if (lo < 0 or i - j <= lo) and (hi < 0 or j - i <= hi):
                out[idx] = x[idx]
        return out
    return ref


def _matrix_diag_ref(d):
    out = np.zeros(d.shape + d.shape[-1:], d.dtype)
    for idx in np.ndindex(*d.shape):
        out[idx + (idx[-1],)] = d[idx]
    return out


def _matrix_diag_part_ref(x):
    n = min(x.shape[-2:])
    out = np.zeros(x.shape[:-2] + (n,), x.dtype)
    for idx in np.ndindex(*out.shape):
        out[idx] = x[idx + (idx[-1],)]
    return out


def _set_diag_ref(x, d):
    out = x.copy()
    for idx in np.ndindex(*d.shape):
        out[idx + (idx[-1],)] = d[idx]
    return out


def _diag_ref(d):
    out = np.zeros(d.shape + d.shape, d.dtype)
    for idx in np.ndindex(*d.shape):
        out[idx + idx] = d[idx]
    return out


def _diag_part_ref(x):
    h = x.ndim // 2
    out = np.zeros(x.shape[:h], x.dtype)
    for idx in np.ndindex(*out.shape):
        out[idx] = x[idx + idx]
    return out


def _one(shape, lo=-2.0, hi=2.0):
    return lambda dt, rng: (rand(rng, shape, dt, lo, hi),)


def _nan_special(shape, empty=None):
    """NaN, infinities and -0.0 in a matrix of `shape`, and an empty input (of shape `empty`)."""
    empty = shape[:-1] + (0,) if empty is None else empty

    def special(dt):
        if np.dtype(dt).kind not in "fc":
            return [[np.zeros(empty, dt)]]
        x = np.full(shape, np.nan, dt)
        x.flat[1::2] = np.array([np.inf, -np.inf, -0.0], dt)[np.arange(x.size // 2) % 3]
        return [[x], [np.zeros(empty, dt)]]
    return special


ROWS = [
    Row("MatrixInverse", tf.matrix_inverse, _inv_ref(False), _well_conditioned((2, 3, 3)), dtypes=LINALG,
        special=_empties(), rtol=TOL16, atol=TOL16, grad_tol=1e-6),
    Row("MatrixInverse", lambda a: tf.linalg.inv(a, adjoint=True), _inv_ref(True), _well_conditioned((3, 3)),
        dtypes=LINALG, special=_empties(), rtol=TOL16, atol=TOL16, name="MatrixInverse-adjoint"),
    Row("MatrixDeterminant", tf.matrix_determinant, _det_ref, _well_conditioned((2, 3, 3)), dtypes=NO_HALF,
        special=_slogdet_special, rtol={np.float16: 5e-3, np.float32: 1e-5, np.complex64: 1e-5}, atol=TOL16),
    Row("LogMatrixDeterminant", lambda a: list(tf.linalg.slogdet(a)), _slogdet_ref, _well_conditioned((2, 3, 3)),
        dtypes=NO_HALF, special=_slogdet_special, rtol={np.float16: 5e-3, np.float32: 1e-5, np.complex64: 1e-5},
        atol={np.float16: 5e-3, np.float32: 1e-5, np.complex64: 1e-5}),
    Row("Cholesky", tf.cholesky, _cholesky_ref, _spd((2, 3, 3)), dtypes=NO_HALF, special=_empties(),
        rtol=TOL16, atol=TOL16, grad_fn=_sym(tf.cholesky), grad_inputs=lambda rng: _spd((3, 3))(np.float64, rng)),
    Row("MatrixSolve", tf.matrix_solve, _solve_ref(False), _solve_inputs((2, 3, 3), 2), dtypes=NO_HALF,
        special=_empties(rhs=True), rtol=TOL16, atol=TOL16),
    Row("MatrixSolve", lambda a, b: tf.linalg.solve(a, b, adjoint=True), _solve_ref(True),
        _solve_inputs((3, 3), 1), dtypes=NO_HALF, special=_empties(rhs=True), rtol=TOL16, atol=TOL16,
        name="MatrixSolve-adjoint"),
    Row("MatrixTriangularSolve", tf.matrix_triangular_solve, _tri_ref(True, False), _solve_inputs((2, 3, 3), 2),
        dtypes=NO_HALF, special=_empties(rhs=True), rtol=TOL16, atol=TOL16),
    Row("MatrixTriangularSolve", lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True),
        _tri_ref(False, True), _solve_inputs((3, 3), 2), dtypes=NO_HALF, special=_empties(rhs=True), rtol=TOL16,
        atol=TOL16, name="MatrixTriangularSolve-upper-adjoint"),
    Row("MatrixBandPart", lambda x: tf.matrix_band_part(x, 1, 0), _band_ref(1, 0), _one((2, 3, 4)),
        dtypes=DIAG_TYPES, special=_nan_special((3, 3))),
    Row("MatrixBandPart", lambda x: tf.linalg.band_part(x, -1, 2), _band_ref(-1, 2), _one((4, 3)),
        dtypes=DIAG_TYPES, special=_nan_special((2, 4), empty=(0, 4)), name="MatrixBandPart-lower-all"),
    Row("MatrixDiag", tf.matrix_diag, _matrix_diag_ref, _one((2, 3)), dtypes=DIAG_TYPES,
        special=_nan_special((2, 3))),
    Row("MatrixDiagPart", tf.matrix_diag_part, _matrix_diag_part_ref, _one((2, 3, 4)), dtypes=DIAG_TYPES,
        special=_nan_special((4, 3))),
    Row("MatrixSetDiag", tf.matrix_set_diag, _set_diag_ref,
        lambda dt, rng: (rand(rng, (2, 4, 3), dt), rand(rng, (2, 3), dt)), dtypes=DIAG_TYPES,
        special=lambda dt: [[np.zeros((2, 0, 3), dt), np.zeros((2, 0), dt)]]),
    Row("Diag", tf.diag, _diag_ref, _one((2, 3)), dtypes=DIAG_TYPES, special=_nan_special((4,))),
    Row("DiagPart", tf.diag_part, _diag_part_ref, _one((2, 3, 2, 3)), dtypes=DIAG_TYPES,
        special=lambda dt: [[np.zeros((0, 0), dt)]] + [[c[0]] for c in _nan_special((2, 2))(dt) if c[0].size]),
]

# ---- decompositions: vectors enter through sign- (phase-) invariant functions ---------------------------
DECOMP = (np.float32, np.float64, np.complex64, np.complex128)
REAL_DECOMP = (np.float32, np.float64)
DECOMP_TOL = {np.float32: 2e-5, np.complex64: 2e-5}


def _eigh_fn(x):
    e, v = tf.self_adjoint_eig(x)
    return [e, tf.abs(v)]


def _eigh_ref(x):
    def one(m):
        e, v = scipy.linalg.eigh(m, lower=True)
        return np.concatenate([e[None, :], np.abs(v)], axis=0)
    both = _per_matrix(one, x, out_dtype=np.complex128 if x.dtype.kind == "c" else np.float64)
    real = np.float32 if x.dtype in (np.float32, np.complex64) else np.float64
    return [both[..., 0, :].astype(x.dtype), both[..., 1:, :].real.astype(real)]


def _distinct(shape):
    """Random matrices with well separated eigen/singular values (random + a spread diagonal)."""
    def inputs(dt, rng):
        a = rand(rng, shape, dt, -0.3, 0.3)
        k = min(shape[-2:])
        idx = np.arange(k)
        a[..., idx, idx] += (2.0 * np.arange(1, k + 1)).astype(a.real.dtype)
        return (a,)
    return inputs


def _qr_ref(full):
    def ref(x):
        def one(m):
            q, r = scipy.linalg.qr(m, mode="full" if full else "economic")
            return np.concatenate([q.ravel(), r.ravel()])
        flat = _per_matrix(one, x)
        mm, nn = x.shape[-2:]
        p = min(mm, nn)
        qs, rs = ((mm, mm), (mm, nn)) if full else ((mm, p), (p, nn))
        nq = qs[0] * qs[1]
        return [flat[..., :nq].reshape(x.shape[:-2] + qs), flat[..., nq:].reshape(x.shape[:-2] + rs)]
    return ref


def _svd_fn(x):
    s, u, v = tf.svd(x)
    return [s, tf.abs(u), tf.abs(v)]


def _svd_ref(x):
    mm, nn = x.shape[-2:]
    p = min(mm, nn)

    def one(m):
        u, s, vh = scipy.linalg.svd(m, full_matrices=False, lapack_driver="gesvd")
        return np.concatenate([s, np.abs(u).ravel(), np.abs(vh.T).ravel()])
    flat = _per_matrix(one, x)
    return [flat[..., :p], flat[..., p:p + mm * p].reshape(x.shape[:-2] + (mm, p)),
            flat[..., p + mm * p:].reshape(x.shape[:-2] + (nn, p))]


def _empty_matrices(dt):
    return [[np.zeros((0, 0), dt)], [np.zeros((2, 0, 0), dt)]]


ROWS += [
    Row("SelfAdjointEigV2", _eigh_fn, _eigh_ref, _distinct((2, 3, 3)), dtypes=DECOMP, special=_empty_matrices,
        rtol=DECOMP_TOL, atol=DECOMP_TOL),
    Row("SelfAdjointEigV2", tf.self_adjoint_eigvals, lambda x: _eigh_ref(x)[0], _distinct((3, 3)), dtypes=DECOMP,
        special=_empty_matrices, rtol=DECOMP_TOL, atol=DECOMP_TOL, name="SelfAdjointEigV2-eigvals"),
    Row("Qr", lambda x: list(tf.qr(x)), _qr_ref(False), _distinct((2, 4, 3)), dtypes=DECOMP,
        special=lambda dt: [[np.zeros((0, 0), dt)]], rtol=DECOMP_TOL, atol=DECOMP_TOL,
        grad_inputs=lambda rng: _distinct((4, 3))(np.float64, rng)),
    Row("Qr", lambda x: list(tf.qr(x)), _qr_ref(False), _distinct((3, 5)), dtypes=DECOMP,
        special=lambda dt: [[np.zeros((0, 2), dt)]], rtol=DECOMP_TOL, atol=DECOMP_TOL, name="Qr-wide"),
    Row("Qr", lambda x: list(tf.qr(x, full_matrices=True)), _qr_ref(True), _distinct((3, 4, 2)), dtypes=DECOMP,
        special=False, rtol=DECOMP_TOL, atol=DECOMP_TOL, grad=None, name="Qr-full",
        note="TF has no QR gradient when nrows > ncols and full_matrices (raises NotImplementedError); the wide "
             "and deep reduced cases are checked in the rows above"),
    Row("Svd", _svd_fn, _svd_ref, _distinct((2, 4, 3)), dtypes=REAL_DECOMP, special=False, rtol=DECOMP_TOL,
        atol=DECOMP_TOL, grad_inputs=lambda rng: _distinct((4, 3))(np.float64, rng)),
    Row("Svd", lambda x: tf.svd(x, compute_uv=False), lambda x: _svd_ref(x)[0], _distinct((3, 5)),
        dtypes=REAL_DECOMP, special=False, rtol=DECOMP_TOL, atol=DECOMP_TOL, name="Svd-values"),
]


def _cross_ref(a, b):
    out = np.empty_like(a)
    for idx in np.ndindex(*a.shape[:-1]):
        (a0, a1, a2), (b0, b1, b2) = a[idx].tolist(), b[idx].tolist()
        out[idx] = [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0]
    return out


ROWS += [
    Row("Cross", tf.cross, _cross_ref, lambda dt, rng: (rand(rng, (2, 4, 3), dt), rand(rng, (2, 4, 3), dt)),
        dtypes=FLOATS + (np.int32, np.int64), rtol={np.float16: 5e-3}, atol={np.float16: 5e-3},
        special=lambda dt: [[np.zeros((0, 3), dt), np.zeros((0, 3), dt)]]
        + ([[np.array([[np.nan, 1, np.inf], [-0.0, 0.0, 2.0]], dt), np.array([[1, -np.inf, 0], [1.0, -0.0, 3]], dt)]]
           if np.dtype(dt).kind == "f" else [])),
]


# ---- one diagonal at offset k (the V3 ops) -----------------------------------------------------------
def _diag_part_k_ref(k):
    def ref(x):
        m, n = x.shape[-2:]
        length = min(m + min(k, 0), n - max(k, 0))
        out = np.zeros(x.shape[:-2] + (length,), x.dtype)
        for idx in np.ndindex(*out.shape):
            i = idx[-1]
            out[idx] = x[idx[:-1] + (i + max(-k, 0), i + max(k, 0))]
        return out
    return ref


def _diag_k_ref(k, rows, cols, pad):
    """MatrixDiagV3 of one diagonal; rows/cols None: the smallest square matrix holding it."""
    def ref(d):
        n = d.shape[-1] + abs(k)
        out = np.full(d.shape[:-1] + (rows or n, cols or n), pad, d.dtype)
        for idx in np.ndindex(*d.shape):
            i = idx[-1]
            out[idx[:-1] + (i + max(-k, 0), i + max(k, 0))] = d[idx]
        return out
    return ref


def _set_diag_k_ref(k):
    def ref(x, d):
        out = x.copy()
        for idx in np.ndindex(*d.shape):
            i = idx[-1]
            out[idx[:-1] + (i + max(-k, 0), i + max(k, 0))] = d[idx]
        return out
    return ref


ROWS += [
    Row("MatrixDiagPartV3", lambda x: tf.linalg.diag_part(x, k=1), _diag_part_k_ref(1), _one((2, 3, 4)),
        dtypes=DIAG_TYPES, special=_nan_special((4, 3), empty=(0, 3))),
    Row("MatrixDiagPartV3", lambda x: tf.linalg.diag_part(x, k=-2), _diag_part_k_ref(-2), _one((4, 3)),
        dtypes=DIAG_TYPES, special=False, name="MatrixDiagPartV3-below"),
    Row("MatrixDiagV3", lambda d: tf.linalg.diag(d, k=1), _diag_k_ref(1, None, None, 0), _one((2, 3)),
        dtypes=DIAG_TYPES, special=_nan_special((2, 3))),
    Row("MatrixDiagV3", lambda d: tf.linalg.diag(d, k=-1, num_rows=4, padding_value=1),
        _diag_k_ref(-1, 4, 2, 1), _one((2,)), dtypes=FLOATS + (np.int32, np.int64), special=False,
        name="MatrixDiagV3-padded"),
    Row("MatrixSetDiagV3", lambda x, d: tf.linalg.set_diag(x, d, k=1), _set_diag_k_ref(1),
        lambda dt, rng: (rand(rng, (2, 4, 3), dt), rand(rng, (2, 2), dt)), dtypes=DIAG_TYPES, special=False),
]
