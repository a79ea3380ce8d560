"""More of `tf.linalg`: the Cross op (`tf.cross`, `tf.linalg.cross`), and `pinv` and `lstsq`
(`matrix_solve_ls` with `fast=True`) built from other ops exactly as TF builds them, so their
gradients come from those ops."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from . import core_ops
from .array_select_ops import where
from .array_shape_ops import expand_dims
from .linalg_core_ops import cholesky, cholesky_solve
from .linalg_decomp_ops import svd
from .linalg_diag_ops import matrix_diag, matrix_diag_part
from .math_binary_ops import greater, multiply
from .math_helpers import _REAL, _check_dtype, _convert_same, _dims_text, _op_scope
from .math_matmul_ops import matmul
from .math_reduce_ops import reduce_max, reduce_sum
from .math_unary_ops import cast

_CROSS_TYPES = _REAL


# ---- Cross ---------------------------------------------------------------------------------
def _cross_infer(op):
    a, b = op._inputs
    sa, sb = a._shape.as_tuple(), b._shape.as_tuple()
    for s in (sa, sb):
        if s is not None and len(s) < 1:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
    if sa is not None and sb is not None:
        if len(sa) != len(sb):
            raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(sa), len(sb)))
        out = []
        for i, (da, db) in enumerate(zip(sa, sb)):
            if da is not None and db is not None and da != db:
                raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s and %s."
                                 % (i, da, db, _dims_text(sa).replace("None", "?"), _dims_text(sb)))
            out.append(da if da is not None else db)
        shape = tuple(out)
    else:
        shape = sa if sa is not None else sb
    if shape is not None and shape[-1] is not None and shape[-1] != 3:
        raise ValueError("Dimension must be 3 but is %d" % shape[-1])
    return [(a._dtype, None if shape is None else shape[:-1] + (3,))]


def _cross_kernel(xp, a, b):
    if a.shape != b.shape:
        raise errors.InvalidArgumentError(None, None, "Both inputs must be of same shape: %s vs. %s"
                                          % (_dims_text(a.shape), _dims_text(b.shape)))
    if a.ndim < 1:
        raise errors.InvalidArgumentError(None, None, "Input must be at least 1D%s" % _dims_text(a.shape))
    if a.shape[-1] != 3:
        raise errors.FailedPreconditionError(None, None, "Cross-products are only defined for 3-element vectors.")
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    with np.errstate(over="ignore"):
        out = np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return out.astype(a.dtype, copy=False)


def _cross_grad(op, grad):
    """TF's _CrossGrad: d(a x b) = da x b + a x db."""
    u, v = op._inputs
    return [cross(v, grad), cross(grad, u)]


register_op("Cross", infer=_cross_infer, kernel=_cross_kernel, grad=_cross_grad)


def cross(a, b, name=None):
    """Computes the pairwise cross product of the 3-element vectors in `a` and `b`.

    Args:
      a: A `Tensor` of shape `[..., 3]` of a real numeric type.
      b: A `Tensor` of the same shape and type as `a`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the shape and type of `a`.

    Raises:
      TypeError: If the dtypes differ or are not real numbers.
      ValueError: If the static shapes differ or the last dimension is not 3.
      InvalidArgumentError: At run time, if the shapes differ.
      FailedPreconditionError: At run time, if the last dimension is not 3.
    """
    with _op_scope(name, "Cross", [a, b]) as scope:
        a, b = _convert_same([a, b], ("a", "b"), "Cross")
        _check_dtype(a, _CROSS_TYPES, "a")
        return ops.apply_op("Cross", [a, b], {}, name=scope)


# ---- pinv ----------------------------------------------------------------------------------
def pinv(a, rcond=None, validate_args=False, name=None):
    """Computes the Moore-Penrose pseudo-inverse of one or more matrices (through their SVD, as TF).

    Singular values at most `rcond * max(s)` are treated as zero.

    Args:
      a: A float32 or float64 `Tensor` of shape `[..., M, N]`.
      rcond: The cutoff (default `10 * max(M, N) * eps`, which needs static M and N).
      validate_args: Unused (TF checks the dtype and rank, which this does statically).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., N, M]`.

    Raises:
      TypeError: If `a` is not float32 or float64.
      ValueError: If `rcond` is None and the inner dimensions are not statically known.
    """
    with ops.name_scope(name, "pinv", [a, rcond]):
        a = ops.convert_to_tensor(a, name="a")
        _check_dtype(a, (dtypes.float32, dtypes.float64), "a")
        if rcond is None:
            shape = a.shape.as_list() if a.shape.ndims is not None else None
            if shape is None or None in shape[-2:]:
                raise ValueError("tf.linalg.pinv: rcond=None needs the matrix dimensions statically known")
            rcond = 10.0 * max(shape[-2:]) * np.finfo(a.dtype.as_numpy_dtype).eps
        rcond = ops.convert_to_tensor(rcond, dtype=a.dtype, name="rcond")
        s, u, v = svd(a, full_matrices=False, compute_uv=True)
        cutoff = multiply(rcond, reduce_max(s, axis=-1))
        keep = greater(s, expand_dims(cutoff, -1))
        singular_values = where(keep, s, multiply(core_ops.ones_like(s), np.inf))
        return matmul(v / expand_dims(singular_values, -2), u, adjoint_b=True)


# ---- lstsq ---------------------------------------------------------------------------------
def _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind):
    gramian = matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if isinstance(l2_regularizer, ops.Tensor) or l2_regularizer != 0:
        identity = matrix_diag(core_ops.ones_like(matrix_diag_part(gramian)))
        gramian = gramian + multiply(ops.convert_to_tensor(l2_regularizer, dtype=matrix.dtype), identity)
    return cholesky(gramian)


def matrix_solve_ls(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """Solves one or more linear least-squares problems (`tf.linalg.lstsq`, `tf.matrix_solve_ls`).

    With `fast=True` (the default and the only supported mode) it solves the regularized normal
    equations through a Cholesky factorization, as TF does: for `M >= N`
    `(A^H A + l2 I)^-1 A^H B`, else `A^H (A A^H + l2 I)^-1 B`.

    Args:
      matrix: A `Tensor` of shape `[..., M, N]` (float32, float64, complex64 or complex128), its inner
        dimensions statically known.
      rhs: A `Tensor` of shape `[..., M, K]` and the type of `matrix`.
      l2_regularizer: A scalar: the Tikhonov regularization.
      fast: Must be True; `fast=False` (complete orthogonal decomposition) is not supported.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., N, K]`.

    Raises:
      NotImplementedError: If `fast` is False, or the inner dimensions of `matrix` are unknown.
      InvalidArgumentError: At run time, if the (regularized) Gram matrix is not positive definite.
    """
    if not fast:
        raise NotImplementedError("tf.linalg.lstsq: fast=False (the MatrixSolveLs op's complete orthogonal "
                                  "decomposition) is not supported; use fast=True")
    with ops.name_scope(name, "matrix_solve_ls", [matrix, rhs, l2_regularizer]):
        matrix = ops.convert_to_tensor(matrix, name="matrix")
        rhs = ops.convert_to_tensor(rhs, name="rhs", dtype=matrix.dtype)
        shape = matrix.shape.as_list() if matrix.shape.ndims is not None else None
        if shape is None or None in shape[-2:]:
            raise NotImplementedError("tf.linalg.lstsq needs the matrix dimensions statically known")
        if shape[-2] >= shape[-1]:
            chol = _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind=True)
            return cholesky_solve(chol, matmul(matrix, rhs, adjoint_a=True))
        chol = _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind=False)
        return matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)


# ---- matrix_transpose / adjoint / matvec ---------------------------------------------------
def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Transposes the last two dimensions of `a` (`tf.matrix_transpose`, `tf.linalg.transpose`).

    Args:
      a: A `Tensor` of rank >= 2.
      name: A name for the operation (optional).
      conjugate: If True, also conjugates complex values (the adjoint).

    Returns:
      A `Tensor` with the last two dimensions swapped.

    Raises:
      ValueError: If `a`'s static rank is < 2.
    """
    from .array_join_ops import concat
    from .array_permute_ops import transpose
    from .array_shape_ops import range as range_
    from .array_shape_ops import rank
    with ops.name_scope(name, "matrix_transpose", [a]):
        a = ops.convert_to_tensor(a, name="a")
        ndims = a.shape.ndims
        if ndims is not None:
            if ndims < 2:
                raise ValueError("Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = %s with "
                                 "shape: %s" % (a, a.shape))
            perm = list(range(ndims - 2)) + [ndims - 1, ndims - 2]
        else:
            a_rank = rank(a)
            perm = concat([range_(0, a_rank - 2, 1), expand_dims(a_rank - 1, 0), expand_dims(a_rank - 2, 0)], 0)
        return transpose(a, perm=perm, conjugate=conjugate)


def adjoint(matrix, name=None):
    """Transposes the last two dimensions of `matrix` and conjugates complex values (`tf.linalg.adjoint`).

    Args:
      matrix: A `Tensor` of rank >= 2.
      name: A name for the operation (optional).

    Returns:
      The adjoint (conjugate transpose) of `matrix`.

    Raises:
      ValueError: If `matrix`'s static rank is < 2.
    """
    with ops.name_scope(name, "adjoint", [matrix]):
        matrix = ops.convert_to_tensor(matrix, name="matrix")
        return matrix_transpose(matrix, conjugate=True)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """Multiplies matrix `a` by vector `b`: `matmul(a, b[..., None])[..., 0]` (`tf.linalg.matvec`).

    Args:
      a: A `Tensor` of shape `[..., M, N]`.
      b: A `Tensor` of shape `[..., N]` and the type of `a`.
      transpose_a, adjoint_a: Whether `a` is transposed (adjoint: and conjugated) first.
      a_is_sparse, b_is_sparse: Hints, ignored as by TF's dense kernels.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., M]`.
    """
    from .array_shape_ops import squeeze
    with ops.name_scope(name, "MatVec", [a, b]):
        b = expand_dims(ops.convert_to_tensor(b, name="b"), -1)
        out = matmul(a, b, transpose_a=transpose_a, adjoint_a=adjoint_a, a_is_sparse=a_is_sparse,
                     b_is_sparse=b_is_sparse)
        return squeeze(out, axis=-1)


# ---- matrix_rank ---------------------------------------------------------------------------
def matrix_rank(a, tol=None, validate_args=False, name=None):
    """Computes the rank of one or more matrices: the number of singular values above `tol`.

    Args:
      a: A float32 or float64 `Tensor` of shape `[..., M, N]`.
      tol: The threshold below which a singular value counts as zero (default
        `eps * max(M, N) * max(s)`).
      validate_args: Unused (the dtype and rank are checked statically).
      name: A name for the operation (optional).

    Returns:
      An int32 `Tensor` of shape `[...]`.
    """
    with ops.name_scope(name or "matrix_rank", "matrix_rank", [a]):
        a = ops.convert_to_tensor(a, name="a", preferred_dtype=dtypes.float32)
        s = svd(a, compute_uv=False)
        if tol is None:
            dims = a.shape.as_list()[-2:] if a.shape.ndims is not None else [None, None]
            if None not in dims:
                m = ops.convert_to_tensor(float(max(dims)), dtype=a.dtype)
            else:
                m = cast(reduce_max(core_ops.shape(a)[-2:]), a.dtype)
            eps = np.finfo(a.dtype.as_numpy_dtype).eps
            tol = multiply(multiply(eps, m), reduce_max(s, axis=-1, keepdims=True))
        return reduce_sum(cast(greater(s, tol), dtypes.int32), axis=-1)


# ---- normalize -----------------------------------------------------------------------------
def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 (TF's name)
    """Normalizes `tensor` along `axis` by its norm (`tf.linalg.normalize`).

    Args:
      tensor: A float or complex `Tensor`.
      ord: The norm's order, as `tf.norm`'s.
      axis: As `tf.norm`'s.
      name: A name for the operation (optional).

    Returns:
      A tuple `(normalized, norm)`: `tensor / norm` and the norm, kept with the reduced axes of size 1
      and cast to `tensor`'s dtype.

    Raises:
      ValueError: For an invalid `ord` or `axis`, as `tf.norm`.
    """
    from .norm_ops import norm as norm_fn
    with ops.name_scope(name, "normalize", [tensor]):
        tensor = ops.convert_to_tensor(tensor)
        norm = cast(norm_fn(tensor, ord, axis, keepdims=True), tensor.dtype)
        return tensor / norm, norm
