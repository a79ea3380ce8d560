"""Matrix factorizations and functions: Lu (partial-pivoting LU, TF's `tf.linalg.lu`), MatrixSquareRoot
(`tf.linalg.sqrtm`: the real Schur method, so a real matrix with a negative real eigenvalue gives NaN as
in TF/Eigen, with TF's gradient), MatrixLogarithm (`tf.linalg.logm`, complex only, no gradient as TF);
and `lu_reconstruct`, `lu_solve`, `lu_matrix_inverse` built from other ops as TF builds them
(tensorflow/python/ops/linalg/linalg_impl.py).

The Lu kernel is a vectorized NumPy elimination (batch at once, one step per column); MatrixSquareRoot
and MatrixLogarithm use SciPy's Schur decomposition and `logm` (imported on first use: the
`[special]` extra)."""

import collections

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from .array_gather_ops import gather
from .array_join_ops import concat
from .array_shape_ops import broadcast_to, reshape
from .core_ops import ones_like
from .core_ops import shape as shape_of
from .linalg_core_ops import (
    _adjoint_np,
    _check_square,
    _square_infer,
    _square_infer_shape,
    matrix_solve,
    matrix_triangular_solve,
)
from .linalg_diag_ops import eye, matrix_band_part, matrix_diag_part, matrix_set_diag
from .linalg_misc_ops import matrix_transpose
from .math_helpers import _check_dtype, _no_kernel, _op_scope
from .math_matmul_ops import matmul
from .math_sort_ops import argsort

_LU_TYPES = (dtypes.float64, dtypes.float32, dtypes.float16, dtypes.complex64, dtypes.complex128)  # TF's order
_NO_HALF = (dtypes.float64, dtypes.float32, dtypes.complex64, dtypes.complex128)


def _scipy_linalg():
    """`scipy.linalg`, or an ImportError naming the extra that installs it."""
    try:
        import scipy.linalg
    except ImportError as e:  # pragma: no cover - SciPy is installed with the [special] extra
        raise ImportError("This op needs SciPy (scipy.linalg): install tensorweave's [special] extra "
                          "(pip install 'tensorweave[special]').") from e
    return scipy.linalg


# ---- Lu --------------------------------------------------------------------------------------
def _lu_infer(op):
    x = op._inputs[0]
    s = _square_infer_shape(x._shape.as_tuple())
    return [(x._dtype, s), (op._attrs["output_idx_type"], None if s is None else s[:-1])]


def _lu_np(a):
    """Partial-pivoting LU of the batch `a` ([B, n, n], a fresh copy it overwrites): (packed LU, row
    permutation p with PA = LU, (PA)[i] = A[p[i]], whether a pivot was zero or NaN)."""
    nb, n = a.shape[0], a.shape[-1]
    perm = np.tile(np.arange(n), (nb, 1))
    bad = np.zeros(nb, bool)
    idx = np.arange(nb)
    with np.errstate(all="ignore"):
        for k in range(n):
            piv = k + np.argmax(np.abs(a[:, k:, k]), axis=1)
            row = a[idx, k].copy()
            a[idx, k] = a[idx, piv]
            a[idx, piv] = row
            pk = perm[idx, k].copy()
            perm[idx, k] = perm[idx, piv]
            perm[idx, piv] = pk
            d = a[:, k, k]
            bad |= ~(np.abs(d) > 0)
            a[:, k + 1:, k] /= d[:, None]
            a[:, k + 1:, k + 1:] -= a[:, k + 1:, k, None] * a[:, k, None, k + 1:]
    return a, perm, bad


def _lu_kernel(xp, x, output_idx_type):
    if x.dtype == np.float16:
        raise _no_kernel("Lu", x.dtype, _NO_HALF)
    _check_square(x)
    idx_dt = output_idx_type.as_numpy_dtype
    n = x.shape[-1]
    if x.size == 0:
        return [x.copy(), np.broadcast_to(np.arange(n, dtype=idx_dt), x.shape[:-1]).copy()]
    a = x.reshape((-1, n, n)).copy()
    lu, perm, bad = _lu_np(a)
    if bad.any():
        raise errors.InvalidArgumentError(None, None, "Input is not invertible.")
    return [lu.reshape(x.shape), perm.astype(idx_dt).reshape(x.shape[:-1])]


register_op("Lu", infer=_lu_infer, kernel=_lu_kernel, grad=None)

_Lu = collections.namedtuple("Lu", ["lu", "p"])


def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002 (TF's name)
    """Computes the LU decomposition of one or more square matrices, with partial pivoting.

    `input = P^T L U`: `lu` packs the unit-diagonal lower factor `L` (below the diagonal) and the upper
    factor `U`; `p` is the row permutation, `(P input)[i] = input[p[i]]`.

    Args:
      input: A `Tensor` of shape `[..., M, M]` and type float32, float64, complex64 or complex128
        (float16 is accepted when the op is built and has no kernel, as in TF).
      output_idx_type: The type of `p`: tf.int32 (default) or tf.int64.
      name: A name for the operation (optional).

    Returns:
      A named tuple `(lu, p)`: `lu` of the shape and type of `input`, `p` of shape `[..., M]`.

    Raises:
      TypeError: If `input`'s dtype is not supported.
      ValueError: If `input`'s static shape is not a batch of square matrices.
      InvalidArgumentError: At run time, if a pivot is zero ("Input is not invertible.").
    """
    out_t = dtypes.as_dtype(output_idx_type)
    if out_t not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'output_idx_type' has DataType %s not in list of allowed values: "
                        "int32, int64" % out_t.name)
    with _op_scope(name, "Lu", [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        _check_dtype(x, _LU_TYPES, "input")
        lu_, p = ops.apply_op("Lu", [x], {"output_idx_type": out_t}, name=scope)
        return _Lu(lu_, p)


def _lu_lower(lower_upper):
    """The unit lower-triangular factor packed in `lower_upper`."""
    return matrix_set_diag(matrix_band_part(lower_upper, -1, 0), ones_like(matrix_diag_part(lower_upper)))


def _batch_gather_rows(x, perm):
    """`x[..., perm[..., i], :]` for each batch member (x: [..., M, K], perm: [..., M], equal batch)."""
    xs = shape_of(x)
    flat_x = reshape(x, concat([[-1], xs[-2:]], axis=0))
    flat_p = reshape(perm, concat([[-1], shape_of(perm)[-1:]], axis=0))
    return reshape(gather(flat_x, flat_p, axis=1, batch_dims=1), xs)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The inverse of `tf.linalg.lu`: rebuilds `input` from its packed LU factors and permutation.

    Args:
      lower_upper: A `Tensor` of shape `[..., M, M]`: the `lu` output of `tf.linalg.lu`.
      perm: A `Tensor` of shape `[..., M]`: the `p` output of `tf.linalg.lu`.
      validate_args: Accepted for compatibility (the shapes are checked when the ops run).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the shape and type of `lower_upper`: `P^T L U`.
    """
    del validate_args
    with ops.name_scope(name or "lu_reconstruct"):
        lower_upper = ops.convert_to_tensor(lower_upper, name="lower_upper")
        perm = ops.convert_to_tensor(perm, name="perm")
        x = matmul(_lu_lower(lower_upper), matrix_band_part(lower_upper, 0, -1))
        return _batch_gather_rows(x, argsort(perm, axis=-1))


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """Solves systems of linear equations `A X = rhs` given `A`'s LU factorization (`tf.linalg.lu`).

    Args:
      lower_upper: A `Tensor` of shape `[..., M, M]`: the `lu` output of `tf.linalg.lu`.
      perm: A `Tensor` of shape `[..., M]`: the `p` output of `tf.linalg.lu`.
      rhs: A `Tensor` of shape `[..., M, N]` and the type of `lower_upper`; the batch shapes broadcast.
      validate_args: Accepted for compatibility (the shapes are checked when the ops run).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the broadcast batch shape `[..., M, N]`: the solutions.
    """
    del validate_args
    with ops.name_scope(name or "lu_solve"):
        lower_upper = ops.convert_to_tensor(lower_upper, name="lower_upper")
        perm = ops.convert_to_tensor(perm, name="perm")
        rhs = ops.convert_to_tensor(rhs, name="rhs", dtype=lower_upper.dtype)
        s_lu, s_rhs = lower_upper.shape.as_tuple(), rhs.shape.as_tuple()
        if s_lu is None or s_rhs is None or None in s_lu or None in s_rhs or s_lu[:-2] != s_rhs[:-2]:
            from .array_shape_ops import broadcast_dynamic_shape
            batch = broadcast_dynamic_shape(shape_of(lower_upper)[:-2], shape_of(rhs)[:-2])
            lower_upper = broadcast_to(lower_upper, concat([batch, shape_of(lower_upper)[-2:]], axis=0))
            perm = broadcast_to(perm, concat([batch, shape_of(perm)[-1:]], axis=0))
            rhs = broadcast_to(rhs, concat([batch, shape_of(rhs)[-2:]], axis=0))
        permuted = _batch_gather_rows(rhs, perm)
        z = matrix_triangular_solve(_lu_lower(lower_upper), permuted, lower=True, adjoint=False)
        return matrix_triangular_solve(lower_upper, z, lower=False, adjoint=False)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """Computes the inverse of a matrix from its LU factorization (`tf.linalg.lu`).

    Args:
      lower_upper: A `Tensor` of shape `[..., M, M]`: the `lu` output of `tf.linalg.lu`.
      perm: A `Tensor` of shape `[..., M]`: the `p` output of `tf.linalg.lu`.
      validate_args: Accepted for compatibility (the shapes are checked when the ops run).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the shape and type of `lower_upper`: the inverses.
    """
    with ops.name_scope(name or "lu_matrix_inverse"):
        lower_upper = ops.convert_to_tensor(lower_upper, name="lower_upper")
        perm = ops.convert_to_tensor(perm, name="perm")
        s = lower_upper.shape.as_tuple()
        if s is not None and None not in s:
            ident = eye(s[-1], batch_shape=list(s[:-2]), dtype=lower_upper.dtype)
        else:
            from .array_shape_ops import fill
            from .linalg_diag_ops import matrix_diag
            ident = matrix_diag(fill(shape_of(lower_upper)[:-1], ops.convert_to_tensor(1, dtype=lower_upper.dtype)))
        return lu_solve(lower_upper, perm, ident, validate_args=validate_args, name="lu_solve")


# ---- MatrixSquareRoot ------------------------------------------------------------------------
def _blocks(t):
    """The diagonal blocks (start, size) of a real quasi-upper-triangular Schur factor."""
    n, out, i = t.shape[0], [], 0
    while i < n:
        if i + 1 < n and t[i + 1, i] != 0:
            out.append((i, 2))
            i += 2
        else:
            out.append((i, 1))
            i += 1
    return out


def _sqrt_2x2(b):
    """The real square root of a 2x2 block with complex conjugate eigenvalues theta +- i mu."""
    theta = 0.5 * (b[0, 0] + b[1, 1])
    mu2 = -(0.25 * (b[0, 0] - b[1, 1]) ** 2 + b[0, 1] * b[1, 0])
    alpha = np.sqrt(0.5 * (theta + np.sqrt(theta * theta + mu2)))
    return alpha * np.eye(2, dtype=b.dtype) + (b - theta * np.eye(2, dtype=b.dtype)) / (2 * alpha)


def _sqrt_quasi_triangular(t):
    """The principal square root of a quasi-upper-triangular `t` (Higham's real Schur method):
    diagonal blocks first, then the off-diagonal blocks from small Sylvester equations."""
    blocks = _blocks(t)
    r = np.zeros_like(t)
    for i, s in blocks:
        r[i:i + s, i:i + s] = np.sqrt(t[i, i]) if s == 1 else _sqrt_2x2(t[i:i + 2, i:i + 2])
    for jb, (j, sj) in enumerate(blocks):
        for ib in range(jb - 1, -1, -1):
            i, si = blocks[ib]
            rhs = t[i:i + si, j:j + sj] - r[i:i + si, i + si:j] @ r[i + si:j, j:j + sj]
            if si == 1 and sj == 1:
                r[i, j] = rhs[0, 0] / (r[i, i] + r[j, j])
                continue
            k = (np.kron(np.eye(sj, dtype=t.dtype), r[i:i + si, i:i + si])
                 + np.kron(r[j:j + sj, j:j + sj].T, np.eye(si, dtype=t.dtype)))
            try:
                x = np.linalg.solve(k, rhs.reshape(-1, order="F"))
            except np.linalg.LinAlgError:
                x = np.full(si * sj, np.nan, t.dtype)
            r[i:i + si, j:j + sj] = x.reshape((si, sj), order="F")
    return r


def _sqrtm_one(a, linalg):
    if not np.isfinite(a).all():
        return np.full(a.shape, np.nan, a.dtype)
    t, u = linalg.schur(a, output="complex" if a.dtype.kind == "c" else "real", check_finite=False)
    if _regular(t):  # no zero or (real input) negative real eigenvalue: SciPy's compiled Schur method
        out = linalg.sqrtm(a)
        out = out[0] if isinstance(out, tuple) else out
        if np.isfinite(out).all():
            return out.real if a.dtype.kind != "c" else out
    r = _sqrt_quasi_triangular(t)
    return u @ r @ _adjoint_np(u)


def _regular(t):
    """Whether the (quasi-)triangular Schur factor has no zero eigenvalue and, when real, no negative
    real one: the square root is then the principal one, finite, and real for real input."""
    if t.dtype.kind == "c":
        return bool(np.all(np.diag(t) != 0))
    return all(s == 2 or t[i, i] > 0 for i, s in _blocks(t))


def _sqrtm_kernel(xp, x):
    if x.dtype == np.float16:
        raise _no_kernel("MatrixSquareRoot", x.dtype, _NO_HALF)
    _check_square(x)
    if x.size == 0:
        return x.copy()
    linalg = _scipy_linalg()
    n = x.shape[-1]
    flat = x.reshape((-1, n, n))
    with np.errstate(all="ignore"):
        out = np.stack([_sqrtm_one(m, linalg) for m in flat])
    return out.reshape(x.shape).astype(x.dtype, copy=False)


def _kron(b1, b2):
    """The Kronecker products of two batches of square matrices ([..., m, m] each)."""
    s1 = shape_of(b1)
    batch, m = s1[:-2], s1[-1]
    one = ops.convert_to_tensor([1])
    r1 = reshape(b1, concat([batch, [m], one, [m], one], axis=0))
    r2 = reshape(b2, concat([batch, one, [m], one, [m]], axis=0))
    return reshape(r1 * r2, concat([batch, [m * m], [m * m]], axis=0))


def _sqrtm_grad(op, grad):
    """TF's _MatrixSquareRootGrad: solves the Sylvester equation R dR + dR R = dA through its
    Kronecker form."""
    r = op._outputs[0]
    s = shape_of(r)
    from .array_shape_ops import fill
    from .linalg_diag_ops import matrix_diag
    ident = matrix_diag(fill(s[:-1], ops.convert_to_tensor(1, dtype=r.dtype)))
    ksum = _kron(ident, matrix_transpose(r)) + _kron(r, ident)
    vec_da = reshape(matrix_transpose(grad), concat([s[:-2], [s[-1] * s[-1]], [1]], axis=0))
    vec_dr = matrix_solve(ksum, vec_da)
    return [matrix_transpose(reshape(vec_dr, s))]


register_op("MatrixSquareRoot", infer=_square_infer, kernel=_sqrtm_kernel, grad=_sqrtm_grad)


def matrix_square_root(input, name=None):  # noqa: A002 (TF's name)
    """Computes the principal square root of one or more square matrices (`tf.linalg.sqrtm`).

    Computed from the real (complex input: complex) Schur decomposition, as TF (Eigen) does: a
    real matrix with a negative real eigenvalue has no real square root and gives NaN; a singular
    one may give infinities and NaN.

    Args:
      input: A `Tensor` of shape `[..., M, M]`, of type float32, float64, complex64 or complex128
        (float16 has no kernel, as in TF).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape and type as `input`.

    Raises:
      TypeError: If `input`'s dtype is not supported.
      ValueError: If `input`'s static shape is not a batch of square matrices.
      ImportError: If SciPy is not installed.
    """
    with _op_scope(name, "MatrixSquareRoot", [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        _check_dtype(x, _LU_TYPES, "input")
        return ops.apply_op("MatrixSquareRoot", [x], name=scope)


sqrtm = matrix_square_root


# ---- MatrixLogarithm -------------------------------------------------------------------------
def _logm_one(a, linalg):
    if not np.isfinite(a).all():
        return np.full(a.shape, complex(np.nan, np.nan), a.dtype)
    t, u = linalg.schur(a, output="complex", check_finite=False)
    if np.any(np.diag(t) == 0):  # Eigen's logarithm of a singular matrix: NaN everywhere
        return np.full(a.shape, complex(np.nan, np.nan), a.dtype)
    out = linalg.logm(a)
    return np.asarray(out[0] if isinstance(out, tuple) else out, a.dtype)


def _logm_kernel(xp, x):
    _check_square(x)
    if x.size == 0:
        return x.copy()
    linalg = _scipy_linalg()
    n = x.shape[-1]
    flat = x.reshape((-1, n, n)).astype(np.complex128)
    with np.errstate(all="ignore"):
        out = np.stack([_logm_one(m, linalg) for m in flat])
    return out.reshape(x.shape).astype(x.dtype)


register_op("MatrixLogarithm", infer=_square_infer, kernel=_logm_kernel, grad=None)  # none in TF either


def logm(input, name=None):  # noqa: A002 (TF's name)
    """Computes the principal matrix logarithm of one or more square complex matrices.

    A singular matrix (or one that is not finite) gives NaN everywhere, as in TF.

    Args:
      input: A `Tensor` of shape `[..., M, M]` and type complex64 or complex128 (TF registers no
        real kernel: cast real matrices to complex first).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape and type as `input`.

    Raises:
      TypeError: If `input` is not complex.
      ValueError: If `input`'s static shape is not a batch of square matrices.
      ImportError: If SciPy is not installed.
    """
    with _op_scope(name, "MatrixLogarithm", [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        _check_dtype(x, (dtypes.complex64, dtypes.complex128), "input")
        return ops.apply_op("MatrixLogarithm", [x], name=scope)
