"""Tridiagonal linear algebra: TridiagonalSolve (TF's CPU algorithms: Gaussian elimination with
partial pivoting as LAPACK's gtsv, or the Thomas algorithm; a system whose pivot is exactly zero
gives NaN, as in TF), TridiagonalMatMul, both with TF's gradients; the wrappers
`tridiagonal_solve` / `tridiagonal_matmul` with their three diagonal formats, and
`eigh_tridiagonal` (tensorflow/python/ops/linalg/linalg_impl.py)."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from . import core_ops
from .array_join_ops import concat, stack
from .array_shape_ops import expand_dims, squeeze
from .linalg_diag_ops import matrix_diag, matrix_diag_part
from .linalg_misc_ops import matrix_transpose
from .math_helpers import _COMPLEX, _check_dtype, _convert_same, _op_scope
from .math_reduce_ops import reduce_sum
from .math_unary_ops import conj, negative

_TRIDIAG_TYPES = (dtypes.float64, dtypes.float32) + _COMPLEX


def _merge(a, b, what=""):
    if a is None:
        return b
    if b is None or a == b:
        return a
    raise ValueError("Dimensions must be equal, but are %d and %d%s" % (a, b, what))


def _merge_batch(sa, sb):
    if len(sa) != len(sb):
        raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(sa), len(sb)))
    return tuple(_merge(a, b) for a, b in zip(sa, sb))


# ---- TridiagonalSolve ------------------------------------------------------------------------
def _solve_infer(op):
    d, r = op._inputs
    sd, sr = d._shape.as_tuple(), r._shape.as_tuple()
    if sd is not None:
        if len(sd) < 2:
            raise ValueError("Shape must be at least rank 2 but is rank %d" % len(sd))
        if sd[-2] is not None and sd[-2] != 3:
            raise ValueError("Dimension must be 3 but is %d" % sd[-2])
    if sr is not None and len(sr) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(sr))
    if sd is None or sr is None:
        return [(d._dtype, sr)]
    batch = _merge_batch(sd[:-2], sr[:-2])
    return [(d._dtype, batch + (_merge(sd[-1], sr[-2]), sr[-1]))]


def _pivoting_solve(sup, diag, sub, rhs):
    """TF's SolveWithGaussianEliminationWithPivoting on a batch: sup/diag/sub [B, n], rhs [B, n, k]."""
    nb, n = diag.shape
    u0, u1, u2 = diag.copy(), np.zeros_like(diag), np.zeros_like(diag)
    u1[:, 0] = sup[:, 0]
    x = rhs.copy()
    failed = np.zeros(nb, bool)
    for i in range(n - 1):
        keep = np.abs(u0[:, i]) >= np.abs(sub[:, i + 1])
        failed |= keep & (u0[:, i] == 0)
        s = sub[:, i + 1]
        # no interchange
        f_k = np.where(keep, s, 0) / np.where(keep & (u0[:, i] != 0), u0[:, i], 1)
        new_u0_k = diag[:, i + 1] - f_k * u1[:, i]
        new_x1_k = rhs[:, i + 1] - f_k[:, None] * x[:, i]
        # interchange rows i and i + 1
        f_s = np.where(keep, 0, u0[:, i]) / np.where(keep, 1, s)
        new_ui0_s = s
        new_u0_s = u1[:, i] - f_s * diag[:, i + 1]
        new_ui1_s = diag[:, i + 1]
        new_x1_s = x[:, i] - f_s[:, None] * rhs[:, i + 1]
        new_xi_s = rhs[:, i + 1]
        last = i == n - 2
        kc = keep[:, None]
        x[:, i + 1] = np.where(kc, new_x1_k, new_x1_s)
        x[:, i] = np.where(kc, x[:, i], new_xi_s)
        u0[:, i + 1] = np.where(keep, new_u0_k, new_u0_s)
        u0[:, i] = np.where(keep, u0[:, i], new_ui0_s)
        u1[:, i] = np.where(keep, u1[:, i], new_ui1_s)
        if not last:
            u1[:, i + 1] = np.where(keep, sup[:, i + 1], -f_s * sup[:, i + 1])
            u2[:, i] = np.where(keep, 0, sup[:, i + 1])
    failed |= u0[:, n - 1] == 0
    x[:, n - 1] /= u0[:, n - 1, None]
    x[:, n - 2] = (x[:, n - 2] - u1[:, n - 2, None] * x[:, n - 1]) / u0[:, n - 2, None]
    for i in range(n - 3, -1, -1):
        x[:, i] = (x[:, i] - u1[:, i, None] * x[:, i + 1] - u2[:, i, None] * x[:, i + 2]) / u0[:, i, None]
    return x, failed


def _maybe_perturb_pivot(perturb, pivot, row, real_dtype):
    """TF's MaybePerturbPivot (from LAPACK's xLAGTS): nudges a tiny pivot so that neither `row / pivot`
    nor `1 / pivot` overflows; returns the (pivot, row) to divide."""
    info = np.finfo(real_dtype)
    one = real_dtype.type(1)
    tiny = info.tiny
    small = one / info.max
    safemin = small * (one + info.eps) if small >= tiny else tiny
    bignum = one / safemin
    abs_pivot = abs(pivot)
    if abs_pivot >= one:
        return pivot, row
    perturb = max(abs(perturb), safemin)
    perturb = np.copysign(perturb, np.real(pivot))
    max_factor = np.max(np.abs(row)) if row.size else real_dtype.type(0)
    stop = False
    while abs_pivot < one and not stop:
        if abs_pivot < safemin:
            if abs_pivot == 0 or max_factor * safemin > abs_pivot:
                pivot = pivot + perturb
                perturb *= 2
            else:
                pivot = pivot * bignum
                row = row * bignum
                stop = True
        elif max_factor > abs_pivot * bignum:
            pivot = pivot + perturb
            perturb *= 2
        else:
            stop = True
        abs_pivot = abs(pivot)
    return pivot, row


def _perturbed_solve_one(sup, diag, sub, rhs):
    """TF's SolveWithGaussianEliminationWithPivotingAndPerturbSingular for one system (LAPACK xLAGTF +
    xLAGTS): tiny pivots of U are perturbed by about eps * max|U| instead of failing."""
    n = diag.shape[0]
    real_dtype = np.dtype(np.abs(diag[:1]).dtype)
    eps = np.finfo(real_dtype).eps
    one = diag.dtype.type(1)
    x = rhs.copy()
    if n == 1:
        denom, row = _maybe_perturb_pivot(eps * abs(diag[0]), diag[0], rhs[0], real_dtype)
        x[0] = row * (one / denom)
        return x
    u = np.zeros((n, 3), diag.dtype)
    u[0, 0], u[0, 1] = diag[0], sup[0]
    max_abs_u = max(abs(u[0, 0]), abs(u[0, 1]))
    scale1 = abs(u[0, 0]) + abs(u[0, 1])
    for k in range(n - 1):
        u[k + 1, 0] = diag[k + 1]
        scale2 = abs(sub[k + 1]) + abs(u[k + 1, 0])
        if k < n - 2:
            scale2 += abs(sup[k + 1])
        if sub[k + 1] == 0:
            scale1 = scale2
            u[k + 1, 1] = sup[k + 1]
            u[k, 2] = 0
            x[k + 1] = rhs[k + 1]
        else:
            piv1 = 0 if u[k, 0] == 0 else abs(u[k, 0]) / scale1
            piv2 = abs(sub[k + 1]) / scale2
            if piv2 <= piv1:
                scale1 = scale2
                factor = sub[k + 1] / u[k, 0]
                u[k + 1, 0] = diag[k + 1] - factor * u[k, 1]
                u[k + 1, 1] = sup[k + 1]
                u[k, 2] = 0
                x[k + 1] = rhs[k + 1] - factor * x[k]
            else:
                factor = u[k, 0] / sub[k + 1]
                u[k, 0] = sub[k + 1]
                u[k + 1, 0] = u[k, 1] - factor * diag[k + 1]
                u[k, 1] = diag[k + 1]
                if k < n - 2:
                    u[k, 2] = sup[k + 1]
                    u[k + 1, 1] = -factor * sup[k + 1]
                x[k + 1] = x[k] - factor * rhs[k + 1]
                x[k] = rhs[k + 1]
        if k < n - 2:
            max_abs_u = max(max_abs_u, *(abs(u[k, i]) for i in range(3)))
    max_abs_u = max(max_abs_u, abs(u[n - 1, 0]))
    tol = eps * max_abs_u
    denom, row = _maybe_perturb_pivot(tol, u[n - 1, 0], x[n - 1].copy(), real_dtype)
    x[n - 1] = row * (one / denom)
    denom = u[n - 2, 0]
    row = x[n - 2] - u[n - 2, 1] * x[n - 1]
    denom, row = _maybe_perturb_pivot(np.copysign(tol, np.real(denom)), denom, row, real_dtype)
    x[n - 2] = row * (one / denom)
    for k in range(n - 3, -1, -1):
        row = x[k] - u[k, 1] * x[k + 1] - u[k, 2] * x[k + 2]
        denom = u[k, 0]
        denom, row = _maybe_perturb_pivot(np.copysign(tol, np.real(denom)), denom, row, real_dtype)
        x[k] = row * (one / denom)
    return x


def _thomas_solve(sup, diag, sub, rhs):
    """TF's SolveWithThomasAlgorithm on a batch."""
    n = diag.shape[1]
    u = np.zeros_like(diag)
    x = np.zeros_like(rhs)
    failed = diag[:, 0] == 0
    u[:, 0] = sup[:, 0] / diag[:, 0]
    x[:, 0] = rhs[:, 0] / diag[:, 0, None]
    for i in range(1, n):
        denom = diag[:, i] - sub[:, i] * u[:, i - 1]
        failed |= denom == 0
        u[:, i] = sup[:, i] / denom
        x[:, i] = (rhs[:, i] - sub[:, i, None] * x[:, i - 1]) / denom[:, None]
    for i in range(n - 2, -1, -1):
        x[:, i] -= u[:, i, None] * x[:, i + 1]
    return x, failed


def _solve_kernel(xp, diagonals, rhs, partial_pivoting, perturb_singular=False):
    for i, t in enumerate((diagonals, rhs)):
        if t.ndim < 2:
            raise errors.InvalidArgumentError(None, None, "Input tensor %d must have rank >= 2, got %d" % (i, t.ndim))
    if diagonals.ndim != rhs.ndim or diagonals.shape[:-2] != rhs.shape[:-2]:
        raise errors.InvalidArgumentError(None, None, "All input tensors must have the same outer dimensions.")
    if diagonals.shape[-2] != 3:
        raise errors.InvalidArgumentError(None, None, "Expected diagonals to be provided as a matrix with 3 rows, got "
                                          "%d rows." % diagonals.shape[-2])
    n = diagonals.shape[-1]
    if n != rhs.shape[-2]:
        raise errors.InvalidArgumentError(None, None, "Expected the same number of left-hand sides and right-hand "
                                          "sides, got %d and %d." % (n, rhs.shape[-2]))
    if rhs.size == 0:
        return np.zeros(rhs.shape, rhs.dtype)
    d = diagonals.reshape((-1, 3, n))
    r = rhs.reshape((-1,) + rhs.shape[-2:])
    sup, diag, sub = d[:, 0], d[:, 1], d[:, 2]
    with np.errstate(all="ignore"):
        if perturb_singular:
            x = np.stack([_perturbed_solve_one(sup[b], diag[b], sub[b], r[b]) for b in range(d.shape[0])])
            return x.reshape(rhs.shape).astype(rhs.dtype, copy=False)
        if n == 1:
            failed = diag[:, 0] == 0
            x = r / np.where(failed, 1, diag[:, 0])[:, None, None]
        elif partial_pivoting:
            x, failed = _pivoting_solve(sup, diag, sub, r)
        else:
            x, failed = _thomas_solve(sup, diag, sub, r)
    x[failed] = np.nan
    return x.reshape(rhs.shape).astype(rhs.dtype, copy=False)


def _transpose_tridiagonal(diags):
    """The compact diagonals of the transposed matrices."""
    diag = diags[..., 1, :]
    zeros = core_ops.zeros_like(diags[..., 0, :1])
    superdiag = concat([diags[..., 2, 1:], zeros], axis=-1)
    subdiag = concat([zeros, diags[..., 0, :-1]], axis=-1)
    return stack([superdiag, diag, subdiag], axis=-2)


def _left_shift(x):
    """Shifts the next-to-last dimension left, a zero row on the right."""
    return concat([x[..., 1:, :], core_ops.zeros_like(x[..., :1, :])], axis=-2)


def _right_shift(x):
    return concat([core_ops.zeros_like(x[..., :1, :]), x[..., :-1, :]], axis=-2)


def _matmul_three_diagonals(x, y_tr):
    """The three diagonals (compact format) of x @ y_tr^T."""
    diag = reduce_sum(x * y_tr, axis=-1)
    superdiag = reduce_sum(x * _left_shift(y_tr), axis=-1)
    subdiag = reduce_sum(x * _right_shift(y_tr), axis=-1)
    return stack([superdiag, diag, subdiag], axis=-2)


def _solve_grad(op, grad):
    """TF's _TridiagonalSolveGrad."""
    diags = op._inputs[0]
    x = op._outputs[0]
    grad_rhs = ops.apply_op("TridiagonalSolve", [_transpose_tridiagonal(diags), grad],
                            {"partial_pivoting": op._attrs["partial_pivoting"],
                             "perturb_singular": op._attrs.get("perturb_singular", False)})
    return [negative(_matmul_three_diagonals(grad_rhs, x)), grad_rhs]


register_op("TridiagonalSolve", infer=_solve_infer, kernel=_solve_kernel, grad=_solve_grad)


def _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting, perturb_singular, name):
    sd, sr = diagonals.shape.as_tuple(), rhs.shape.as_tuple()
    if sd is not None:
        if len(sd) < 2:
            raise ValueError("Expected diagonals to have rank at least 2, got %d" % len(sd))
        if sr is not None and len(sr) not in (len(sd), len(sd) - 1):
            raise ValueError("Expected the rank of rhs to be %d or %d, got %d" % (len(sd) - 1, len(sd), len(sr)))
        if sr is not None and not diagonals.shape[:-2].is_compatible_with(rhs.shape[:len(sd) - 2]):
            raise ValueError("Batch shapes %s and %s are incompatible" % (diagonals.shape[:-2],
                                                                           rhs.shape[:len(sd) - 2]))
        if sd[-2] and sd[-2] != 3:
            raise ValueError("Expected 3 diagonals got %d" % sd[-2])

    def check_m(r):
        s = r.shape.as_tuple()
        if sd is not None and s is not None and len(s) >= 2 and sd[-1] and s[-2] and sd[-1] != s[-2]:
            raise ValueError("Expected number of left-hand sided and right-hand sides to be equal, got %d and %d"
                             % (sd[-1], s[-2]))

    attrs = {"partial_pivoting": bool(partial_pivoting), "perturb_singular": bool(perturb_singular)}
    if sd is not None and sr is not None and len(sr) == len(sd) - 1:
        if conjugate_rhs:
            rhs = conj(rhs)
        rhs = expand_dims(rhs, -1)
        check_m(rhs)
        with _op_scope(name, "TridiagonalSolve", [diagonals, rhs]) as scope:
            out = ops.apply_op("TridiagonalSolve", [diagonals, rhs], attrs, name=scope)
        return squeeze(out, -1)
    if transpose_rhs:
        rhs = matrix_transpose(rhs, conjugate=conjugate_rhs)
    elif conjugate_rhs:
        rhs = conj(rhs)
    check_m(rhs)
    with _op_scope(name, "TridiagonalSolve", [diagonals, rhs]) as scope:
        return ops.apply_op("TridiagonalSolve", [diagonals, rhs], attrs, name=scope)


def _from_matrix(diagonals):
    diagonals = ops.convert_to_tensor(diagonals, name="diagonals")
    s = diagonals.shape.as_tuple()
    if s is not None and len(s) >= 2 and s[-1] and s[-2] and s[-1] != s[-2]:
        raise ValueError("Expected last two dimensions of diagonals to be same, got %d and %d" % (s[-1], s[-2]))
    zero = core_ops.zeros_like(diagonals[..., :1, 0])
    superdiag = concat([matrix_diag_part(diagonals, k=1), zero], axis=-1)
    subdiag = concat([zero, matrix_diag_part(diagonals, k=-1)], axis=-1)
    return stack([superdiag, matrix_diag_part(diagonals), subdiag], axis=-2)


def _stack_sequence(diagonals):
    if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
        raise ValueError("Expected diagonals to be a sequence of length 3.")
    superdiag, maindiag, subdiag = [ops.convert_to_tensor(t) for t in diagonals]
    m = maindiag.shape.as_tuple()[-1] if maindiag.shape.ndims else None

    def pad_if_necessary(t, what, front):
        s = t.shape.as_tuple()
        k = s[-1] if s else None
        if not k or k == m:
            return t
        if m is not None and k == m - 1:
            zero = core_ops.zeros_like(t[..., :1])
            return concat([zero, t] if front else [t, zero], axis=-1)
        raise ValueError("Expected %s to be have length %s or %s, got %d." % (what, m, m - 1 if m else None, k))

    subdiag = pad_if_necessary(subdiag, "subdiagonal", True)
    superdiag = pad_if_necessary(superdiag, "superdiagonal", False)
    return stack([superdiag, maindiag, subdiag], axis=-2)


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False, name=None,
                      partial_pivoting=True, perturb_singular=False):
    """Solves tridiagonal systems of equations.

    Args:
      diagonals: The left-hand sides: in `compact` format a `Tensor` of shape `[..., 3, M]` (the
        superdiagonal, the diagonal and the subdiagonal; `[..., 0, M-1]` and `[..., 2, 0]` are
        ignored); in `sequence` format a list of three `Tensor`s `[..., N]`, `[..., M]`, `[..., N]`
        with N = M or M - 1; in `matrix` format a `Tensor` `[..., M, M]` (only its three diagonals
        are read). float32, float64, complex64 or complex128.
      rhs: A `Tensor` of shape `[..., M]` or `[..., M, K]` (`[..., K, M]` with `transpose_rhs`) and
        the type of `diagonals`.
      diagonals_format: One of `compact` (default), `sequence`, `matrix`.
      transpose_rhs: Whether to transpose `rhs` first (no effect on a vector).
      conjugate_rhs: Whether to conjugate `rhs` first.
      name: A name for the operation (optional).
      partial_pivoting: Whether to use Gaussian elimination with partial pivoting (default) or the
        Thomas algorithm.
      perturb_singular: Whether to perturb tiny pivots (about eps * max|U|) to return a finite result for
        singular systems, as TF does (LAPACK's xLAGTF/xLAGTS); needs `partial_pivoting`.

    Returns:
      A `Tensor` of the shape of `rhs`: the solutions (NaN for a system with an exactly zero pivot,
      as in TF).

    Raises:
      ValueError: On an unknown format, incompatible shapes, or `perturb_singular` without
        `partial_pivoting`.
      TypeError: If the dtypes are not supported or differ.
    """
    if perturb_singular and not partial_pivoting:
        raise ValueError("partial_pivoting must be True if perturb_singular is.")
    if diagonals_format == "compact":
        diagonals = ops.convert_to_tensor(diagonals, name="diagonals")
    elif diagonals_format == "sequence":
        diagonals = _stack_sequence(diagonals)
    elif diagonals_format == "matrix":
        diagonals = _from_matrix(diagonals)
    else:
        raise ValueError("Unrecognized diagonals_format: %s" % diagonals_format)
    diagonals, rhs = _convert_same([diagonals, rhs], ("diagonals", "rhs"), "TridiagonalSolve")
    _check_dtype(diagonals, _TRIDIAG_TYPES, "diagonals")
    return _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting, perturb_singular, name)


# ---- TridiagonalMatMul -----------------------------------------------------------------------
def _matmul_infer(op):
    shapes = [t._shape.as_tuple() for t in op._inputs]
    rhs = shapes[3]
    known = [s for s in shapes if s is not None]
    for s in known:
        if len(s) < 2:
            raise ValueError("Shape must be at least rank 2 but is rank %d" % len(s))
    for s in known[1:]:
        if len(s) != len(known[0]):
            raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(known[0]) - 2, len(s) - 2))
    if not known:
        return [(op._inputs[0]._dtype, None)]
    rank = len(known[0])
    batch = (None,) * (rank - 2)
    m = None
    for s in shapes[:3]:
        if s is None:
            continue
        batch = _merge_batch(batch, s[:-2])
        if s[-2] is not None and s[-2] != 1:
            raise ValueError("Dimension %d in both shapes must be equal, but are %d and 1" % (rank - 2, s[-2]))
        m = _merge(m, s[-1])
    if rhs is None:
        return [(op._inputs[0]._dtype, batch + (m, None))]
    batch = _merge_batch(batch, rhs[:-2])
    return [(op._inputs[0]._dtype, batch + (_merge(m, rhs[-2]), rhs[-1]))]


def _tridiag_matmul_kernel(xp, superdiag, maindiag, subdiag, rhs):
    ts = (superdiag, maindiag, subdiag, rhs)
    for i, t in enumerate(ts):
        if t.ndim < 2:
            raise errors.InvalidArgumentError(None, None, "Input tensor %d must have rank >= 2, got %d" % (i, t.ndim))
    if len({t.ndim for t in ts}) != 1:
        raise errors.InvalidArgumentError(None, None, "All input tensors must have the same rank.")
    want = rhs.shape[:-2] + (1, rhs.shape[-2])
    for t, what in ((superdiag, "superdiagonal"), (maindiag, "main diagonal"), (subdiag, "subdiagonal")):
        if t.shape != want:
            raise errors.InvalidArgumentError(None, None, "Invalid %s shape." % what)
    sup = np.swapaxes(superdiag, -1, -2)
    main = np.swapaxes(maindiag, -1, -2)
    sub = np.swapaxes(subdiag, -1, -2)
    out = main * rhs
    if rhs.shape[-2] > 1:
        out[..., :-1, :] += sup[..., :-1, :] * rhs[..., 1:, :]
        out[..., 1:, :] += sub[..., 1:, :] * rhs[..., :-1, :]
    return out.astype(rhs.dtype, copy=False)


def _tridiag_matmul_grad(op, grad):
    """TF's _TridiagonalMatMulGrad."""
    superdiag, maindiag, subdiag, rhs = op._inputs
    superdiag_conj = matrix_transpose(superdiag, conjugate=True)
    maindiag_conj = matrix_transpose(maindiag, conjugate=True)
    subdiag_conj = matrix_transpose(subdiag, conjugate=True)
    rhs_conj = conj(rhs)
    superdiag_grad = reduce_sum(_left_shift(rhs_conj) * grad, axis=-1)
    maindiag_grad = reduce_sum(rhs_conj * grad, axis=-1)
    subdiag_grad = reduce_sum(_right_shift(rhs_conj) * grad, axis=-1)
    rhs_grad = _right_shift(superdiag_conj * grad) + maindiag_conj * grad + _left_shift(subdiag_conj * grad)
    return [expand_dims(superdiag_grad, -2), expand_dims(maindiag_grad, -2), expand_dims(subdiag_grad, -2), rhs_grad]


register_op("TridiagonalMatMul", infer=_matmul_infer, kernel=_tridiag_matmul_kernel, grad=_tridiag_matmul_grad)


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """Multiplies tridiagonal matrices by matrices.

    Args:
      diagonals: The tridiagonal matrices: in `compact` format a `Tensor` `[..., 3, M]`
        (superdiagonal, diagonal, subdiagonal; `[..., 0, M-1]` and `[..., 2, 0]` are ignored); in
        `sequence` format a list `[superdiag, maindiag, subdiag]` of `Tensor`s `[..., M]`; in
        `matrix` format a `Tensor` `[..., M, M]`. float32, float64, complex64 or complex128.
      rhs: A `Tensor` of shape `[..., M, N]` and the type of `diagonals`.
      diagonals_format: One of `compact` (default), `sequence`, `matrix`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., M, N]`: the products.

    Raises:
      ValueError: On an unknown format or incompatible shapes.
      TypeError: If the dtypes are not supported or differ.
    """
    if diagonals_format == "compact":
        diagonals = ops.convert_to_tensor(diagonals, name="diagonals")
        superdiag, maindiag, subdiag = diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :]
    elif diagonals_format == "sequence":
        superdiag, maindiag, subdiag = [ops.convert_to_tensor(t) for t in diagonals]
    elif diagonals_format == "matrix":
        d = _from_matrix(diagonals)
        superdiag, maindiag, subdiag = d[..., 0, :], d[..., 1, :], d[..., 2, :]
    else:
        raise ValueError("Unrecognized diagonals_format: %s" % diagonals_format)
    superdiag, maindiag, subdiag, rhs = _convert_same([superdiag, maindiag, subdiag, rhs],
                                                      ("superdiag", "maindiag", "subdiag", "rhs"),
                                                      "TridiagonalMatMul")
    _check_dtype(superdiag, _TRIDIAG_TYPES, "superdiag")
    with _op_scope(name, "TridiagonalMatMul", [superdiag, maindiag, subdiag, rhs]) as scope:
        return ops.apply_op("TridiagonalMatMul", [expand_dims(superdiag, -2), expand_dims(maindiag, -2),
                                                  expand_dims(subdiag, -2), rhs], name=scope)


# ---- eigh_tridiagonal ------------------------------------------------------------------------
def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """Computes the eigenvalues (and eigenvectors) of a Hermitian tridiagonal matrix.

    The matrix has diagonal `alpha` and off-diagonal `beta` (below the diagonal; its conjugate
    above). The eigenvalues are those of the dense matrix, from `tf.linalg.eigh`, in ascending
    order (TF computes them by bisection: equal to rounding). Eigenvectors are unit columns determined up
    to a sign (complex: a phase); TF's inverse iteration may pick the other one.

    Args:
      alpha: A 1-D real or complex `Tensor` of length n: the diagonal (its real part is used).
      beta: A 1-D `Tensor` of length n - 1 and the type of `alpha`: the subdiagonal.
      eigvals_only: If False, also return the eigenvectors (as columns).
      select: `'a'` all eigenvalues, `'v'` those in the half-open interval
        `(select_range[0], select_range[1]]`, `'i'` those with indices in
        `[select_range[0], select_range[1]]` (inclusive).
      select_range: The interval or index range for `select` `'v'` or `'i'`.
      tol: Accepted for compatibility (the eigenvalues are computed to full precision).
      name: A name for the operation (optional).

    Returns:
      The eigenvalues, a 1-D `Tensor` of the real type of `alpha`; with `eigvals_only=False` the
      tuple `(eigenvalues, eigenvectors)`, the eigenvectors `[n, k]` of `alpha`'s type.

    Raises:
      ValueError: On a bad `select`, or static shapes of `alpha` and `beta` that do not fit.
      TypeError: If `alpha` is not floating or complex.
    """
    del tol
    from .array_gather_ops import gather
    from .linalg_complex_ops import real as _real
    from .linalg_decomp_ops import self_adjoint_eig, self_adjoint_eigvals
    from .math_binary_ops import greater, less_equal, logical_and

    if select not in ("a", "v", "i"):
        raise ValueError("select must be 'a', 'v', or 'i'.")
    with ops.name_scope(name or "eigh_tridiagonal"):
        alpha = ops.convert_to_tensor(alpha, name="alpha")
        if not (alpha.dtype.is_floating or alpha.dtype.is_complex):
            raise TypeError("data type %s not inexact" % alpha.dtype.name)
        beta = ops.convert_to_tensor(beta, name="beta", dtype=alpha.dtype)
        sa, sb = alpha.shape.as_tuple(), beta.shape.as_tuple()
        if sa is not None and len(sa) != 1:
            raise ValueError("alpha must be a 1-D tensor, got shape %s" % (alpha.shape,))
        if sa is not None and sb is not None and sa[0] is not None and sb[-1] is not None and sb[-1] != sa[0] - 1:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (sa[0], sb[-1] + 1))
        diag = alpha
        if alpha.dtype.is_complex:
            from .linalg_complex_ops import complex as _complex
            diag = _complex(_real(alpha), core_ops.zeros_like(_real(alpha)))
        mat = (matrix_diag(diag) + matrix_diag(beta, k=-1) + matrix_diag(conj(beta), k=1))
        if eigvals_only:
            w = self_adjoint_eigvals(mat)
            v = None
        else:
            w, v = self_adjoint_eig(mat)
        if alpha.dtype.is_complex:
            w = _real(w)
        if select == "a":
            return w if eigvals_only else (w, v)
        from .array_select_ops import boolean_mask
        if select == "v":
            lo = ops.convert_to_tensor(select_range[0], dtype=w.dtype)
            hi = ops.convert_to_tensor(select_range[1], dtype=w.dtype)
            keep = logical_and(greater(w, lo), less_equal(w, hi))
            w_sel = boolean_mask(w, keep)
            if eigvals_only:
                return w_sel
            return w_sel, matrix_transpose(boolean_mask(matrix_transpose(v), keep))
        from .array_shape_ops import range as _range
        idx = _range(select_range[0], select_range[1] + 1)
        w_sel = gather(w, idx)
        if eigvals_only:
            return w_sel
        return w_sel, gather(v, idx, axis=1)
