"""Linear algebra ops (`tf.linalg`): MatrixInverse, MatrixDeterminant, LogMatrixDeterminant, Cholesky,
MatrixSolve and MatrixTriangularSolve, batched over the leading dimensions, with TF's gradients; and
`logdet`, `cholesky_solve` built from them as TF builds them."""

import collections

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from . import core_ops
from .array_shape_ops import expand_dims
from .linalg_diag_ops import matrix_band_part, matrix_diag, matrix_diag_part, matrix_set_diag
from .math_binary_ops import multiply
from .math_helpers import _COMPLEX, _FLOAT, _check_dtype, _dims_text, _no_kernel, _op_scope
from .math_matmul_ops import _batch_mat_mul
from .math_reduce_ops import reduce_sum
from .math_unary_ops import abs as math_abs
from .math_unary_ops import log, negative

_LINALG_TYPES = _FLOAT + _COMPLEX


# ---- shared helpers ------------------------------------------------------------------------
def _square_infer_shape(s):
    """The static shape of a batch of square matrices `s` (a tuple or None), checked as TF's shape
    functions check it."""
    if s is None:
        return None
    if len(s) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(s))
    n, m = s[-2], s[-1]
    if n is not None and m is not None and n != m:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (n, m))
    return s[:-2] + ((n if n is not None else m),) * 2


def _check_square(x, message="Input matrix must be square."):
    if x.ndim < 2:
        raise errors.InvalidArgumentError(None, None, "Input tensor 0 must have rank >= 2, got %d" % x.ndim)
    if x.shape[-1] != x.shape[-2]:
        raise errors.InvalidArgumentError(None, None, message)


def _compute_dtype(x):
    """float16 matrices are factored in float32 (LAPACK has no half precision)."""
    return np.float32 if x.dtype == np.float16 else x.dtype


def _adjoint_np(x):
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if x.dtype.kind == "c" else x


_HALF_FREE = (dtypes.float32, dtypes.float64) + _COMPLEX  # TF's CPU kernels of all but MatrixInverse


def _no_half(op_type, x):
    """TF registers no float16 CPU kernel for these ops (MatrixInverse has one)."""
    if x.dtype == np.float16:
        raise _no_kernel(op_type, x.dtype, _HALF_FREE)


def _check_invertible(a, message):
    """TF's LU check: an exact zero (or NaN) pivot means the matrix is not invertible."""
    if np.isnan(a).any():
        raise errors.InvalidArgumentError(None, None, message)


def _unary_matrix_op(op_type, x, name, default_name, attrs=None, param="input"):
    with _op_scope(name, default_name, [x]) as scope:
        x = ops.convert_to_tensor(x, name=param)
        _check_dtype(x, _LINALG_TYPES, param)
        return ops.apply_op(op_type, [x], attrs or {}, name=scope)


# ---- MatrixInverse -------------------------------------------------------------------------
def _square_infer(op):
    x = op._inputs[0]
    return [(x._dtype, _square_infer_shape(x._shape.as_tuple()))]


def _inverse_kernel(xp, x, adjoint):
    _check_square(x)
    if x.size == 0:
        return x.copy()
    a = x.astype(_compute_dtype(x))
    _check_invertible(a, "Input is not invertible.")
    try:
        out = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        raise errors.InvalidArgumentError(None, None, "Input is not invertible.") from None
    return (_adjoint_np(out) if adjoint else out).astype(x.dtype)


def _inverse_grad(op, grad):
    """d(A^-1) = -A^-1 dA A^-1 (TF's _MatrixInverseGrad)."""
    ainv = op._outputs[0]
    adj = op._attrs["adjoint"]
    return [negative(_batch_mat_mul(ainv, _batch_mat_mul(grad, ainv, adj, not adj), not adj, False))]


register_op("MatrixInverse", infer=_square_infer, kernel=_inverse_kernel, grad=_inverse_grad)


def matrix_inverse(input, adjoint=False, name=None):  # noqa: A002 (TF's name)
    """Computes the inverse of one or more square invertible matrices or their adjoints.

    Args:
      input: A `Tensor` of shape `[..., M, M]`, of type float16, float32, float64, complex64 or complex128.
      adjoint: If True, returns the inverse of the adjoint (conjugate transpose) of each matrix.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape and type as `input`.

    Raises:
      TypeError: If `input`'s dtype is not supported.
      ValueError: If `input`'s static shape is not a batch of square matrices.
      InvalidArgumentError: At run time, if a matrix is not invertible ("Input is not invertible.").
    """
    return _unary_matrix_op("MatrixInverse", input, name, "MatrixInverse", {"adjoint": bool(adjoint)})


# ---- MatrixDeterminant / LogMatrixDeterminant ----------------------------------------------
def _det_infer(op):
    x = op._inputs[0]
    s = _square_infer_shape(x._shape.as_tuple())
    return [(x._dtype, None if s is None else s[:-2])]


def _det_kernel(xp, x):
    _no_half("MatrixDeterminant", x)
    _check_square(x)
    if x.shape[-1] == 0:
        return np.ones(x.shape[:-2], x.dtype)
    return np.asarray(np.linalg.det(x.astype(_compute_dtype(x)))).astype(x.dtype)


def _det_grad(op, grad):
    """d det(A) = det(A) tr(A^-1 dA): grad * det * A^-H (TF's _MatrixDeterminantGrad)."""
    a_adj_inv = matrix_inverse(op._inputs[0], adjoint=True)
    multipliers = expand_dims(expand_dims(multiply(grad, op._outputs[0]), -1), -1)
    return [multiply(multipliers, a_adj_inv)]


register_op("MatrixDeterminant", infer=_det_infer, kernel=_det_kernel, grad=_det_grad)


def matrix_determinant(input, name=None):  # noqa: A002 (TF's name)
    """Computes the determinant of one or more square matrices.

    Args:
      input: A `Tensor` of shape `[..., M, M]`, of type float16, float32, float64, complex64 or complex128.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[...]` and the type of `input`: the determinants.

    Raises:
      TypeError: If `input`'s dtype is not supported.
      ValueError: If `input`'s static shape is not a batch of square matrices.
    """
    return _unary_matrix_op("MatrixDeterminant", input, name, "MatrixDeterminant")


def _slogdet_infer(op):
    (dt, s), = _det_infer(op)
    return [(dt, s), (dt, s)]


def _slogdet_kernel(xp, x):
    _no_half("LogMatrixDeterminant", x)
    _check_square(x)
    if x.shape[-1] == 0:
        return [np.ones(x.shape[:-2], x.dtype), np.zeros(x.shape[:-2], x.dtype)]
    sign, logdet = np.linalg.slogdet(x.astype(_compute_dtype(x)))
    sign, logdet = np.asarray(sign), np.asarray(logdet)
    nan = np.isnan(logdet) | np.isnan(np.abs(sign))
    sign = np.where(nan, np.nan, sign)
    return [sign.astype(x.dtype), logdet.astype(x.dtype)]


def _slogdet_grad(op, _grad_sign, grad_logdet):
    """d log|det A| = tr(A^-1 dA): grad * A^-H (TF's _LogMatrixDeterminantGrad)."""
    if grad_logdet is None:
        return [None]
    a_adj_inv = matrix_inverse(op._inputs[0], adjoint=True)
    multipliers = expand_dims(expand_dims(grad_logdet, -1), -1)
    return [multiply(multipliers, a_adj_inv)]


register_op("LogMatrixDeterminant", infer=_slogdet_infer, kernel=_slogdet_kernel, grad=_slogdet_grad)


_LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])


def slogdet(input, name=None):  # noqa: A002 (TF's name)
    """Computes the sign and the log of the absolute value of the determinant of square matrices.

    Args:
      input: A `Tensor` of shape `[..., M, M]`, of type float16, float32, float64, complex64 or complex128.
      name: A name for the operation (optional).

    Returns:
      A named tuple `(sign, log_abs_determinant)` of `Tensor`s of shape `[...]` and the type of `input`
      (the sign of a singular matrix is 0 and its log-determinant -inf).

    Raises:
      TypeError: If `input`'s dtype is not supported.
      ValueError: If `input`'s static shape is not a batch of square matrices.
    """
    with _op_scope(name, "LogMatrixDeterminant", [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        _check_dtype(x, _LINALG_TYPES, "input")
        sign, logabs = ops.apply_op("LogMatrixDeterminant", [x], {}, name=scope)
        return _LogMatrixDeterminant(sign, logabs)


def logdet(matrix, name=None):
    """Computes the log of the determinant of Hermitian positive definite matrices, as
    `2 * sum(log(diag(cholesky(matrix))))` (TF's `tf.linalg.logdet`).

    Args:
      matrix: A `Tensor` of shape `[..., M, M]`, of type float16, float32, float64, complex64 or complex128.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[...]`: the log-determinants (real for complex input).

    Raises:
      InvalidArgumentError: At run time, if a matrix is not positive definite.
    """
    with ops.name_scope(name, "logdet", [matrix]):
        chol = cholesky(matrix)
        diag = matrix_diag_part(chol)
        if diag.dtype.is_complex:  # a Cholesky factor's diagonal is real and positive
            diag = math_abs(diag)
        return multiply(2.0, reduce_sum(log(diag), axis=[-1]))


# ---- Cholesky ------------------------------------------------------------------------------
_CHOLESKY_FAILED = "Cholesky decomposition was not successful. The input might not be valid."


def _cholesky_kernel(xp, x):
    _no_half("Cholesky", x)
    _check_square(x)
    if x.size == 0:
        return x.copy()
    a = x.astype(_compute_dtype(x))
    a = np.tril(a) + _adjoint_np(np.tril(a, -1))  # TF reads the lower triangle only
    try:
        out = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        raise errors.InvalidArgumentError(None, None, _CHOLESKY_FAILED) from None
    return out.astype(x.dtype)


def _cholesky_grad(op, grad):
    """TF's _CholeskyGrad: Phi(L^H dL) sandwiched between L^-H and L^-1, symmetrized."""
    l_ = op._outputs[0]
    eye = matrix_diag(core_ops.ones_like(matrix_diag_part(l_)))
    l_inverse = matrix_triangular_solve(l_, eye)
    middle = _batch_mat_mul(l_, grad, True, False)
    middle = matrix_set_diag(middle, multiply(0.5, matrix_diag_part(middle)))
    middle = matrix_band_part(middle, -1, 0)
    grad_a = _batch_mat_mul(_batch_mat_mul(l_inverse, middle, True, False), l_inverse, False, False)
    # grad_a + adjoint(grad_a), the adjoint being L^-H middle^H L^-1.
    grad_a = grad_a + _batch_mat_mul(l_inverse, _batch_mat_mul(middle, l_inverse, True, False), True, False)
    return [multiply(grad_a, 0.5)]


register_op("Cholesky", infer=_square_infer, kernel=_cholesky_kernel, grad=_cholesky_grad)


def cholesky(input, name=None):  # noqa: A002 (TF's name)
    """Computes the Cholesky decomposition of one or more square matrices.

    Only the lower-triangular part of each input matrix is read (the matrices are assumed
    Hermitian); the result is lower triangular.

    Args:
      input: A `Tensor` of shape `[..., M, M]`, of type float16, float32, float64, complex64 or complex128.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape and type as `input`.

    Raises:
      TypeError: If `input`'s dtype is not supported.
      ValueError: If `input`'s static shape is not a batch of square matrices.
      InvalidArgumentError: At run time, if a matrix is not positive definite.
    """
    return _unary_matrix_op("Cholesky", input, name, "Cholesky")


# ---- MatrixSolve / MatrixTriangularSolve ---------------------------------------------------
def _solve_infer(op):
    a, b = op._inputs
    sa, sb = a._shape.as_tuple(), b._shape.as_tuple()
    sa = _square_infer_shape(sa)
    if sb is not None and len(sb) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(sb))
    if sa is None or sb is None:
        if sb is not None:
            return [(a._dtype, sb[:-1] + (sb[-1],))]
        return [(a._dtype, None)]
    if len(sa) != len(sb):
        raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(sa) - 1, len(sb) - 1))
    batch = []
    for da, db in zip(sa[:-2], sb[:-2]):
        if da is not None and db is not None and da != db:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (da, db))
        batch.append(da if da is not None else db)
    n, m = sa[-1], sb[-2]
    if n is not None and m is not None and n != m:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (n, m))
    return [(a._dtype, tuple(batch) + (n if n is not None else m, sb[-1]))]


def _check_solve_operands(a, b, square_message):
    for i, x in enumerate((a, b)):
        if x.ndim < 2:
            raise errors.InvalidArgumentError(None, None, "Input tensor %d must have rank >= 2, got %d" % (i, x.ndim))
    if a.ndim != b.ndim or a.shape[:-2] != b.shape[:-2]:
        raise errors.InvalidArgumentError(None, None, "All input tensors must have the same outer dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise errors.InvalidArgumentError(None, None, square_message)
    if a.shape[-2] != b.shape[-2]:
        raise errors.InvalidArgumentError(None, None, "Input matrix and right-hand side must have the same number "
                                          "of rows.")


def _solve_kernel(xp, a, b, adjoint):
    _no_half("MatrixSolve", a)
    _check_solve_operands(a, b, "First input (lhs) must be a square matrix.")
    if a.size == 0 or b.size == 0:
        return np.zeros(b.shape, b.dtype)
    m = a.astype(_compute_dtype(a))
    _check_invertible(m, "Input matrix is not invertible.")
    if adjoint:
        m = _adjoint_np(m)
    try:
        out = np.linalg.solve(m, b.astype(m.dtype))
    except np.linalg.LinAlgError:
        raise errors.InvalidArgumentError(None, None, "Input matrix is not invertible.") from None
    return out.astype(a.dtype)


def _solve_grad(op, grad):
    """TF's _MatrixSolveGrad: dB = A^-H grad, dA = -dB C^H (or -C dB^H for the adjoint)."""
    a = op._inputs[0]
    adj = op._attrs["adjoint"]
    c = op._outputs[0]
    grad_b = matrix_solve(a, grad, adjoint=not adj)
    grad_a = _batch_mat_mul(c, grad_b, False, True) if adj else _batch_mat_mul(grad_b, c, False, True)
    return [negative(grad_a), grad_b]


register_op("MatrixSolve", infer=_solve_infer, kernel=_solve_kernel, grad=_solve_grad)


def _two_matrix_op(op_type, matrix, rhs, attrs, name, default_name):
    with _op_scope(name, default_name, [matrix, rhs]) as scope:
        matrix = ops.convert_to_tensor(matrix, name="matrix")
        _check_dtype(matrix, _LINALG_TYPES, "matrix")
        rhs = ops.convert_to_tensor(rhs, name="rhs", dtype=matrix.dtype)
        return ops.apply_op(op_type, [matrix, rhs], attrs, name=scope)


def matrix_solve(matrix, rhs, adjoint=False, name=None):
    """Solves systems of linear equations `matrix * output = rhs` (or `adjoint(matrix) * output = rhs`).

    Args:
      matrix: A `Tensor` of shape `[..., M, M]`, of type float16, float32, float64, complex64 or complex128.
      rhs: A `Tensor` of shape `[..., M, K]` and the same type and batch shape.
      adjoint: If True, solves with the adjoint of each matrix.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., M, K]`.

    Raises:
      TypeError: If the dtypes are not supported or differ.
      ValueError: If the static shapes are incompatible.
      InvalidArgumentError: At run time, if a matrix is not invertible ("Input matrix is not invertible.").
    """
    return _two_matrix_op("MatrixSolve", matrix, rhs, {"adjoint": bool(adjoint)}, name, "MatrixSolve")


def _substitute(a, b, lower):
    """Forward (lower) or back substitution of the triangular batch `a` against `b`, vectorized over
    the batch and the right-hand sides."""
    n = a.shape[-1]
    out = np.zeros(b.shape, a.dtype)
    rows = range(n) if lower else range(n - 1, -1, -1)
    with np.errstate(all="ignore"):
        for i in rows:
            lo, hi = (0, i) if lower else (i + 1, n)
            acc = b[..., i, :]
            if hi > lo:
                acc = acc - np.einsum("...j,...jk->...k", a[..., i, lo:hi], out[..., lo:hi, :])
            out[..., i, :] = acc / a[..., i, i][..., None]
    return out


def _triangular_kernel(xp, matrix, rhs, lower, adjoint):
    _no_half("MatrixTriangularSolve", matrix)
    if matrix.ndim < 2:
        raise errors.InvalidArgumentError(None, None, "In[0] ndims must be >= 2: %d" % matrix.ndim)
    if rhs.ndim < 2:
        raise errors.InvalidArgumentError(None, None, "In[1] ndims must be >= 2: %d" % rhs.ndim)
    if matrix.shape[-1] != matrix.shape[-2]:
        raise errors.InvalidArgumentError(None, None, "In[0] matrices in the last dimensions must be square (%d =/= "
                                          "%d)" % (matrix.shape[-2], matrix.shape[-1]))
    if matrix.shape[-1] != rhs.shape[-2]:
        raise errors.InvalidArgumentError(None, None, "Incompatible shapes: %s vs. %s"
                                          % (_dims_text(matrix.shape), _dims_text(rhs.shape)))
    if matrix.ndim != rhs.ndim or matrix.shape[:-2] != rhs.shape[:-2]:
        raise errors.InvalidArgumentError(None, None, "In[0] and In[1] must have compatible batch dimensions: %s vs. "
                                          "%s" % (_dims_text(matrix.shape), _dims_text(rhs.shape)))
    if matrix.size == 0 or rhs.size == 0:
        return np.zeros(rhs.shape, rhs.dtype)
    dt = _compute_dtype(matrix)
    a = matrix.astype(dt)
    a = np.tril(a) if lower else np.triu(a)
    if adjoint:
        a, lower = _adjoint_np(a), not lower
    out = _substitute(a, rhs.astype(dt), lower)
    return out.reshape(rhs.shape).astype(matrix.dtype)


def _triangular_grad(op, grad):
    """TF's _MatrixTriangularSolveGrad."""
    a = op._inputs[0]
    adj, lower = op._attrs["adjoint"], op._attrs["lower"]
    c = op._outputs[0]
    grad_b = matrix_triangular_solve(a, grad, lower=lower, adjoint=not adj)
    grad_a = _batch_mat_mul(c, grad_b, False, True) if adj else _batch_mat_mul(grad_b, c, False, True)
    grad_a = negative(grad_a)
    grad_a = matrix_band_part(grad_a, -1, 0) if lower else matrix_band_part(grad_a, 0, -1)
    return [grad_a, grad_b]


register_op("MatrixTriangularSolve", infer=_solve_infer, kernel=_triangular_kernel, grad=_triangular_grad)


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Solves systems of linear equations with upper or lower triangular matrices by backsubstitution.

    Only the lower (`lower=True`) or upper triangle of each matrix is read. A zero on the diagonal
    gives infinities or NaNs, not an error (as in TF).

    Args:
      matrix: A `Tensor` of shape `[..., M, M]`, of type float16, float32, float64, complex64 or complex128.
      rhs: A `Tensor` of shape `[..., M, K]` and the same type and batch shape.
      lower: Whether the matrices are lower triangular.
      adjoint: If True, solves with the adjoint of each matrix.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., M, K]`.

    Raises:
      TypeError: If the dtypes are not supported or differ.
      ValueError: If the static shapes are incompatible.
    """
    with ops.name_scope(name, "triangular_solve", [matrix, rhs]):
        return _two_matrix_op("MatrixTriangularSolve", matrix, rhs, {"lower": bool(lower), "adjoint": bool(adjoint)},
                              None, "MatrixTriangularSolve")


def cholesky_solve(chol, rhs, name=None):
    """Solves `A X = rhs` given the Cholesky factor `chol` of `A` (two triangular solves, as TF).

    Args:
      chol: A `Tensor` of shape `[..., M, M]`: lower-triangular Cholesky factors.
      rhs: A `Tensor` of shape `[..., M, K]`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., M, K]`.
    """
    with ops.name_scope(name, "cholesky_solve", [chol, rhs]):
        y = matrix_triangular_solve(chol, rhs, adjoint=False, lower=True)
        return matrix_triangular_solve(chol, y, adjoint=True, lower=True)

