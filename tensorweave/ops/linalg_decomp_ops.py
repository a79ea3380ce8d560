"""Matrix decompositions of `tf.linalg`: SelfAdjointEigV2 (`eigh`, `self_adjoint_eig(vals)`), Qr and Svd,
batched over the leading dimensions, with TF's gradients (tensorflow/python/ops/linalg_grad.py)."""

import collections

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from . import core_ops
from .array_permute_ops import transpose
from .array_shape_ops import expand_dims
from .linalg_core_ops import matrix_triangular_solve
from .linalg_diag_ops import matrix_band_part, matrix_diag, matrix_diag_part, matrix_set_diag
from .math_binary_ops import multiply, subtract
from .math_helpers import _COMPLEX, _FLOAT, _check_dtype, _no_kernel, _op_scope
from .math_matmul_ops import _batch_mat_mul
from .math_unary_ops import reciprocal, square

_TYPES = _FLOAT + _COMPLEX
_KERNEL_TYPES = (dtypes.float32, dtypes.float64) + _COMPLEX  # TF has no half-precision kernels for these


def _check_kernel_dtype(op_type, x):
    if x.dtype == np.float16:
        raise _no_kernel(op_type, x.dtype, _KERNEL_TYPES)


def _rank2(x):
    if x.ndim < 2:
        raise errors.InvalidArgumentError(None, None, "Input tensor 0 must have rank >= 2, got %d" % x.ndim)


def _adjoint(t):
    """The conjugate transpose of the innermost matrices of `t` (static rank needed)."""
    rank = t.shape.ndims
    if rank is None:
        raise NotImplementedError("linalg gradients need inputs of known rank")
    return transpose(t, list(range(rank - 2)) + [rank - 1, rank - 2], conjugate=True)


def _mm(a, b, adj_a=False, adj_b=False):
    return _batch_mat_mul(a, b, adj_a, adj_b)


def _safe_reciprocal(x, epsilon=1e-20):
    return multiply(x, reciprocal(square(x) + epsilon))


def _or_zeros(grad, like):
    return core_ops.zeros_like(like) if grad is None else grad


def _convert(x):
    x = ops.convert_to_tensor(x, name="input")
    _check_dtype(x, _TYPES, "input")
    return x


# ---- SelfAdjointEigV2 ----------------------------------------------------------------------
def _eig_infer(op):
    x = op._inputs[0]
    s = x._shape.as_tuple()
    if s is None:
        return [(x._dtype, None), (x._dtype, None if op._attrs["compute_v"] else (0,))]
    if len(s) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(s))
    n, m = s[-2], s[-1]
    if n is not None and m is not None and n != m:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (n, m))
    n = n if n is not None else m
    return [(x._dtype, s[:-2] + (n,)), (x._dtype, s[:-2] + (n, n) if op._attrs["compute_v"] else (0,))]


def _eig_kernel(xp, x, compute_v):
    _check_kernel_dtype("SelfAdjointEigV2", x)
    _rank2(x)
    if x.shape[-1] != x.shape[-2]:
        raise errors.InvalidArgumentError(None, None, "Input matrix must be square.")
    if x.size == 0:
        return [np.zeros(x.shape[:-1], x.dtype), np.zeros(x.shape if compute_v else (0,), x.dtype)]
    if not np.isfinite(np.tril(x)).all():  # only the lower triangle is read
        raise errors.InvalidArgumentError(None, None, "Self-adjoint eigen decomposition was not successful. The "
                                          "input might not be valid.")
    if compute_v:
        e, v = np.linalg.eigh(x, UPLO="L")
        return [e.astype(x.dtype), v.astype(x.dtype)]
    return [np.linalg.eigvalsh(x, UPLO="L").astype(x.dtype), np.zeros((0,), x.dtype)]


def _eig_grad(op, grad_e, grad_v):
    """TF's _SelfAdjointEigV2Grad (only the lower triangle of the input is read)."""
    e = op._outputs[0]
    grad_e = _or_zeros(grad_e, e)
    if op._attrs["compute_v"]:
        v = op._outputs[1]
        grad_v = _or_zeros(grad_v, v)
        f = matrix_set_diag(_safe_reciprocal(subtract(expand_dims(e, -2), expand_dims(e, -1))),
                            core_ops.zeros_like(e))
        middle = matrix_diag(grad_e) + multiply(f, _mm(v, grad_v, adj_a=True))
    else:
        _, v = self_adjoint_eig(op._inputs[0])
        middle = matrix_diag(grad_e)
    grad_a = _mm(v, _mm(middle, v, adj_b=True))
    grad_a_adj = _mm(v, _mm(middle, v, adj_a=True, adj_b=True))  # adjoint(grad_a) = V M^H V^H
    grad_a = matrix_band_part(grad_a + grad_a_adj, -1, 0)
    return [matrix_set_diag(grad_a, multiply(0.5, matrix_diag_part(grad_a)))]


register_op("SelfAdjointEigV2", infer=_eig_infer, kernel=_eig_kernel, grad=_eig_grad)


def self_adjoint_eig(tensor, name=None):
    """Computes the eigen decomposition of a batch of self-adjoint matrices.

    Only the lower triangle of each matrix is read. Eigenvalues are sorted in non-decreasing order;
    each eigenvector is determined up to its sign (its phase, for complex matrices).

    Args:
      tensor: A `Tensor` of shape `[..., N, N]`, of type float32, float64, complex64 or complex128.
      name: A name for the operation (optional).

    Returns:
      A tuple `(e, v)`: the eigenvalues, of shape `[..., N]`, and the eigenvectors (the columns of
      `v`), of shape `[..., N, N]`, both of the type of `tensor`.

    Raises:
      TypeError: If `tensor`'s dtype is not supported.
      ValueError: If `tensor`'s static shape is not a batch of square matrices.
    """
    with _op_scope(name, "self_adjoint_eig", [tensor]) as scope:
        e, v = ops.apply_op("SelfAdjointEigV2", [_convert(tensor)], {"compute_v": True},
                            name=scope)
        return e, v


def self_adjoint_eigvals(tensor, name=None):
    """Computes the eigenvalues of one or more self-adjoint matrices (lower triangle read).

    Args:
      tensor: A `Tensor` of shape `[..., N, N]`, of type float32, float64, complex64 or complex128.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., N]`: the eigenvalues in non-decreasing order.

    Raises:
      TypeError: If `tensor`'s dtype is not supported.
      ValueError: If `tensor`'s static shape is not a batch of square matrices.
    """
    with _op_scope(name, "self_adjoint_eigvals", [tensor]) as scope:
        e, _ = ops.apply_op("SelfAdjointEigV2", [_convert(tensor)], {"compute_v": False},
                            name=scope)
        return e


# ---- Qr ------------------------------------------------------------------------------------
def _mn_infer(op):
    x = op._inputs[0]
    s = x._shape.as_tuple()
    if s is not None and len(s) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(s))
    if s is None:
        return None, None, None, None
    m, n = s[-2], s[-1]
    p = None if m is None or n is None else min(m, n)
    return s[:-2], m, n, p


def _qr_infer(op):
    x = op._inputs[0]
    batch, m, n, p = _mn_infer(op)
    if batch is None:
        return [(x._dtype, None), (x._dtype, None)]
    if op._attrs["full_matrices"]:
        return [(x._dtype, batch + (m, m)), (x._dtype, batch + (m, n))]
    return [(x._dtype, batch + (m, p)), (x._dtype, batch + (p, n))]


def _qr_kernel(xp, x, full_matrices):
    _check_kernel_dtype("Qr", x)
    _rank2(x)
    m, n = x.shape[-2:]
    p = min(m, n)
    if x.size == 0:
        qs, rs = ((m, m), (m, n)) if full_matrices else ((m, p), (p, n))
        q = np.zeros(x.shape[:-2] + qs, x.dtype)
        q[..., np.arange(min(qs)), np.arange(min(qs))] = 1
        return [q, np.zeros(x.shape[:-2] + rs, x.dtype)]
    q, r = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return [q.astype(x.dtype), r.astype(x.dtype)]


def _tri_solve_right(x, r):
    """x R^-1 for upper-triangular R (TF's _TriangularSolve in _QrGrad)."""
    return _adjoint(matrix_triangular_solve(r, _adjoint(x), lower=False, adjoint=False))


def _qr_grad(op, dq, dr):
    """TF's _QrGrad (https://arxiv.org/abs/2009.10071), for real matrices."""
    q, r = op._outputs
    dq, dr = _or_zeros(dq, q), _or_zeros(dr, r)
    rs, qs = r.shape.as_list() if r.shape.ndims is not None else None, q.shape
    if rs is None or rs[-2] is None or rs[-1] is None:
        raise NotImplementedError("QrGrad not implemented with dynamic shapes. Received r.shape: %s" % r.shape)
    if rs[-2] > rs[-1] and qs[-2] == qs[-1]:
        raise NotImplementedError("QrGrad not implemented when nrows > ncols and full_matrices is true. Received "
                                  "r.shape=%s with nrows=%d and ncols=%d." % (r.shape, rs[-2], rs[-1]))
    if q.dtype.is_complex:
        raise NotImplementedError("QrGrad of complex matrices is not supported by tensorweave")
    num_rows, num_cols = qs[-2], rs[-1]

    def square_and_deep(q, r, dq, dr):
        qdq = _mm(q, dq, adj_a=True)
        qdq_ = qdq - _adjoint(qdq)
        rdr = _mm(r, dr, adj_b=True)
        rdr_ = rdr - _adjoint(rdr)
        tril = matrix_band_part(qdq_ + rdr_, -1, 0)
        grad_a = _mm(q, dr + _tri_solve_right(tril, r))
        grad_b = _tri_solve_right(dq - _mm(q, qdq), r)
        return grad_a + grad_b

    if num_rows is not None and num_rows >= num_cols:
        return [square_and_deep(q, r, dq, dr)]
    if num_rows is None:
        raise NotImplementedError("QrGrad not implemented with dynamic shapes. Received q.shape: %s" % q.shape)
    from .array_join_ops import concat
    a = op._inputs[0]
    y = a[..., :, num_rows:]
    u = r[..., :, :num_rows]
    dv = dr[..., :, num_rows:]
    du = dr[..., :, :num_rows]
    dy = _mm(q, dv)
    dx = square_and_deep(q, u, dq + _mm(y, dv, adj_b=True), du)
    return [concat([dx, dy], axis=-1)]


register_op("Qr", infer=_qr_infer, kernel=_qr_kernel, grad=_qr_grad)


_Qr = collections.namedtuple("Qr", ["q", "r"])


def qr(input, full_matrices=False, name=None):  # noqa: A002 (TF's name)
    """Computes the QR decompositions of one or more matrices: `input = q @ r`.

    Args:
      input: A `Tensor` of shape `[..., M, N]`, of type float32, float64, complex64 or complex128.
      full_matrices: If True, `q` is `[..., M, M]` and `r` `[..., M, N]`; else (the default) `q` is
        `[..., M, P]` and `r` `[..., P, N]` with `P = min(M, N)`.
      name: A name for the operation (optional).

    Returns:
      A named tuple `(q, r)`: `q` with orthonormal columns, `r` upper triangular (Householder signs, as TF).

    Raises:
      TypeError: If `input`'s dtype is not supported.
      ValueError: If `input`'s static rank is < 2.
    """
    with _op_scope(name, "Qr", [input]) as scope:
        q, r = ops.apply_op("Qr", [_convert(input)], {"full_matrices": bool(full_matrices)}, name=scope)
        return _Qr(q, r)


# ---- Svd -----------------------------------------------------------------------------------
def _svd_infer(op):
    x = op._inputs[0]
    batch, m, n, p = _mn_infer(op)
    if batch is None:
        return [(x._dtype, None)] * 3
    s = (x._dtype, batch + (p,))
    if not op._attrs["compute_uv"]:
        return [s, (x._dtype, (0,)), (x._dtype, (0,))]
    if op._attrs["full_matrices"]:
        return [s, (x._dtype, batch + (m, m)), (x._dtype, batch + (n, n))]
    return [s, (x._dtype, batch + (m, p)), (x._dtype, batch + (n, p))]


def _svd_kernel(xp, x, compute_uv, full_matrices):
    _check_kernel_dtype("Svd", x)
    _rank2(x)
    m, n = x.shape[-2:]
    p = min(m, n)
    batch = x.shape[:-2]
    if x.size == 0:
        s = np.zeros(batch + (p,), x.dtype)
        if not compute_uv:
            return [s, np.zeros((0,), x.dtype), np.zeros((0,), x.dtype)]
        us, vs = ((m, m), (n, n)) if full_matrices else ((m, p), (n, p))
        u, v = np.zeros(batch + us, x.dtype), np.zeros(batch + vs, x.dtype)
        u[..., np.arange(min(us)), np.arange(min(us))] = 1
        v[..., np.arange(min(vs)), np.arange(min(vs))] = 1
        return [s, u, v]
    bad = ~np.isfinite(x).all(axis=(-2, -1))  # LAPACK does not converge: TF gives NaNs there
    if bad.any():
        x = np.where(bad[..., None, None], 0, x)
    if not compute_uv:
        s = np.linalg.svd(x, compute_uv=False)
        s[bad] = np.nan
        return [s.astype(x.dtype), np.zeros((0,), x.dtype), np.zeros((0,), x.dtype)]
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    v = np.conj(np.swapaxes(vh, -1, -2))
    s[bad], u[bad], v[bad] = np.nan, np.nan, np.nan
    return [s.astype(x.dtype), u.astype(x.dtype), v.astype(x.dtype)]


def _svd_grad(op, grad_s, grad_u, grad_v):
    """TF's _SvdGrad, for real matrices."""
    a = op._inputs[0]
    s_out = op._outputs[0]
    grad_s = _or_zeros(grad_s, s_out)
    grad_s_mat = matrix_diag(grad_s)
    if not op._attrs["compute_uv"]:
        _, u, v = svd(a, compute_uv=True)
        return [_mm(u, _mm(grad_s_mat, v, adj_b=True))]
    if a.dtype.is_complex:
        raise NotImplementedError("the SVD gradient of complex matrices is not supported by tensorweave")
    shape = a.shape.as_list() if a.shape.ndims is not None else None
    if shape is None or shape[-2] is None or shape[-1] is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with unknown inner matrix shape.")
    m, n = shape[-2:]
    full_matrices = op._attrs["full_matrices"]
    s, u, v = op._outputs
    grad_u, grad_v = _or_zeros(grad_u, u), _or_zeros(grad_v, v)
    use_adjoint = m > n
    if use_adjoint:
        m, n = n, m
        u, v = v, u
        grad_u, grad_v = grad_v, grad_u
    if full_matrices and abs(m - n) > 1:
        raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. "
                                  "Received: m=%d and n=%d" % (m, n))
    s_mat = matrix_diag(s)
    s2 = square(s)
    f = matrix_set_diag(_safe_reciprocal(subtract(expand_dims(s2, -2), expand_dims(s2, -1))),
                        core_ops.zeros_like(s))
    s_inv_mat = matrix_diag(_safe_reciprocal(s))
    v1 = v[..., :, :m]
    grad_v1 = grad_v[..., :, :m]
    u_gu = _mm(u, grad_u, adj_a=True)
    v_gv = _mm(v1, grad_v1, adj_a=True)
    f_u = multiply(f, u_gu)
    f_v = multiply(f, v_gv)
    term1_nouv = grad_s_mat + _mm(f_u + _adjoint(f_u), s_mat) + _mm(s_mat, f_v + _adjoint(f_v))
    term1 = _mm(u, _mm(term1_nouv, v1, adj_b=True))
    if m == n:
        grad_a = term1
    else:
        gv1t = _adjoint(grad_v1)
        gv1t_v1 = _mm(gv1t, v1)
        term2_nous = gv1t - _mm(gv1t_v1, v1, adj_b=True)
        if full_matrices:
            v2 = v[..., :, m:n]
            grad_v2 = grad_v[..., :, m:n]
            v1t_gv2 = _mm(v1, grad_v2, adj_a=True)
            term2_nous = term2_nous - _mm(v1t_gv2, v2, adj_b=True)
        u_s_inv = _mm(u, s_inv_mat)
        grad_a = term1 + _mm(u_s_inv, term2_nous)
    if use_adjoint:
        grad_a = _adjoint(grad_a)
    return [grad_a]


register_op("Svd", infer=_svd_infer, kernel=_svd_kernel, grad=_svd_grad)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Computes the singular value decompositions of one or more matrices: `tensor = u @ diag(s) @ adjoint(v)`.

    Args:
      tensor: A `Tensor` of shape `[..., M, N]`, of type float32 or float64.
      full_matrices: If True, `u` is `[..., M, M]` and `v` `[..., N, N]`; else `[..., M, P]` and
        `[..., N, P]` with `P = min(M, N)`.
      compute_uv: If False, only the singular values are computed and returned.
      name: A name for the operation (optional).

    Returns:
      `s` (the singular values in non-increasing order, shape `[..., P]`) if `compute_uv` is False;
      else the tuple `(s, u, v)` (singular vectors determined up to sign).

    Raises:
      TypeError: If `tensor`'s dtype is not supported.
      ValueError: If `tensor`'s static rank is < 2.
      NotImplementedError: For complex matrices (their real singular values need a Real op).
    """
    with _op_scope(name, "Svd", [tensor]) as scope:
        x = _convert(tensor)
        if x.dtype.is_complex:
            raise NotImplementedError("tf.svd of complex matrices is not supported by tensorweave (it needs the "
                                      "real part of the singular values)")
        s, u, v = ops.apply_op("Svd", [x], {"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)},
                               name=scope)
        if compute_uv:
            return s, u, v
        return s

