"""Structured linear operators: BlockDiag, BlockLowerTriangular, Kronecker, LowRankUpdate,
Permutation, Householder, Toeplitz, Tridiag and the circulant family (Circulant, Circulant2D,
Circulant3D), each defined by its dense matrix (tensorflow/python/ops/linalg/linear_operator_*.py);
products, solves and determinants come from the base class on that matrix, except where the
structure gives them directly (Tridiag's matmul and solve use the tridiagonal ops)."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.tensor_shape import TensorShape
from ..ops.array_gather_ops import gather
from ..ops.array_join_ops import concat
from ..ops.array_permute_ops import reverse
from ..ops.array_shape_ops import broadcast_dynamic_shape, broadcast_to, expand_dims, fill, reshape
from ..ops.array_shape_ops import range as _range
from ..ops.core_ops import shape as shape_of
from ..ops.linalg_complex_ops import real
from ..ops.linalg_diag_ops import matrix_diag
from ..ops.linalg_misc_ops import adjoint as _adjoint
from ..ops.linalg_tridiag_ops import tridiagonal_matmul, tridiagonal_solve
from ..ops.math_binary_ops import equal, floormod
from ..ops.math_helpers import _broadcast_shapes
from ..ops.math_matmul_ops import matmul
from ..ops.math_reduce_ops import reduce_sum
from ..ops.math_unary_ops import cast, conj
from .base import (
    LinearOperator,
    _check_operators,
    _determinant_product,
    _dynamic_batch,
    _log_abs_determinant_sum,
    check_dtype,
    static_shape,
)

__all__ = ["LinearOperatorBlockDiag", "LinearOperatorBlockLowerTriangular", "LinearOperatorCirculant",
           "LinearOperatorCirculant2D", "LinearOperatorCirculant3D", "LinearOperatorHouseholder",
           "LinearOperatorKronecker", "LinearOperatorLowRankUpdate", "LinearOperatorPermutation",
           "LinearOperatorToeplitz", "LinearOperatorTridiag"]


def _static_batch(operators):
    batch = ()
    for op in operators:
        b = op.batch_shape
        if b.ndims is None:
            return None
        batch = _broadcast_shapes(batch, b.as_tuple())
    return batch


def _sum_dims(dims):
    return None if any(d is None for d in dims) else sum(dims)


def _zeros(batch, rows, cols, dtype):
    return fill(concat([batch, [rows, cols]], axis=0), ops.convert_to_tensor(0, dtype=dtype))


def _bcast(dense, batch):
    return broadcast_to(dense, concat([batch, shape_of(dense)[-2:]], axis=0))


def _hints_from_blocks(operators, is_non_singular, is_self_adjoint, is_positive_definite):
    if all(op.is_non_singular for op in operators):
        if is_non_singular is False:
            raise ValueError("The direct sum of non-singular operators is always non-singular.")
        is_non_singular = True
    if all(op.is_self_adjoint for op in operators):
        if is_self_adjoint is False:
            raise ValueError("The direct sum of self-adjoint operators is always self-adjoint.")
        is_self_adjoint = True
    if all(op.is_positive_definite for op in operators):
        if is_positive_definite is False:
            raise ValueError("The direct sum of positive definite operators is always positive definite.")
        is_positive_definite = True
    return is_non_singular, is_self_adjoint, is_positive_definite


class _DirectSumLike(LinearOperator):
    """An operator made of a non-empty list of operators of one dtype, non-singular, self-adjoint or positive
    definite when they all are; named by default by their names joined by `separator`."""

    def __init__(self, operators, is_non_singular, is_self_adjoint, is_positive_definite, is_square, name,
                 separator):
        operators = _check_operators(operators)
        is_non_singular, is_self_adjoint, is_positive_definite = _hints_from_blocks(
            operators, is_non_singular, is_self_adjoint, is_positive_definite)
        self._operators = operators
        super().__init__(operators[0].dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or separator.join(op.name for op in operators),
                         parameters=dict(operators=operators, name=name))


class LinearOperatorBlockDiag(_DirectSumLike):
    """`LinearOperator` acting like a [batch] block diagonal matrix `diag(A1, ..., AJ)`."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name=None):
        """Initializes the block diagonal operator.

        Args:
          operators: A non-empty list of `LinearOperator`s of one dtype (their batch shapes broadcast).
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name (default the operators' names joined by "_ds_").

        Raises:
          TypeError: If the operators' dtypes differ.
          ValueError: If `operators` is empty or a hint contradicts them.
        """
        super().__init__(operators, is_non_singular, is_self_adjoint, is_positive_definite, is_square, name, "_ds_")

    @property
    def operators(self):
        """The list of diagonal blocks."""
        return self._operators

    def _shape(self):
        batch = _static_batch(self._operators)
        if batch is None:
            return TensorShape(None)
        return TensorShape(batch + (_sum_dims([op.range_dimension.value for op in self._operators]),
                                    _sum_dims([op.domain_dimension.value for op in self._operators])))

    def _shape_tensor(self):
        rows = reduce_sum([op.range_dimension_tensor() for op in self._operators])
        cols = reduce_sum([op.domain_dimension_tensor() for op in self._operators])
        return concat([_dynamic_batch(self._operators), [rows, cols]], axis=0)

    def _to_dense(self):
        batch = _dynamic_batch(self._operators)
        cols = [op.domain_dimension_tensor() for op in self._operators]
        rows = []
        for i, op in enumerate(self._operators):
            r = op.range_dimension_tensor()
            parts = []
            for j in range(len(self._operators)):
                if j == i:
                    parts.append(_bcast(op.to_dense(), batch))
                else:
                    parts.append(_zeros(batch, r, cols[j], self.dtype))
            rows.append(concat(parts, axis=-1))
        return concat(rows, axis=-2)

    def _determinant(self):
        return _determinant_product(self._operators)

    def _log_abs_determinant(self):
        return _log_abs_determinant_sum(self._operators)


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """`LinearOperator` acting like a [batch] block lower-triangular matrix; `operators[i]` holds the
    blocks of row i left of and on the diagonal (square diagonal blocks)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorBlockLowerTriangular"):
        """Initializes the operator.

        Args:
          operators: A list of lists: `operators[i]` has i + 1 `LinearOperator`s of one dtype;
            `operators[i][i]` is square.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name for this operator.

        Raises:
          TypeError: If the operators' dtypes differ.
          ValueError: If the rows do not have 1, 2, ... operators, or a hint is impossible.
        """
        operators = [list(row) for row in operators]
        if not operators:
            raise ValueError("Expected a non-empty list of operators. Found: %s" % operators)
        for i, row in enumerate(operators):
            if len(row) != i + 1:
                raise ValueError("Argument operators[%d] must contain `%d` blocks. Found: %d" % (i, i + 1, len(row)))
        _check_operators([op for row in operators for op in row])
        if is_square is False:
            raise ValueError("Only square block lower triangular operators are supported.")
        self._operators = operators
        self._diagonal = [row[-1] for row in operators]
        if all(op.is_non_singular for op in self._diagonal):
            if is_non_singular is False:
                raise ValueError("A block lower triangular operator with non-singular diagonal blocks is always "
                                 "non-singular.")
            is_non_singular = True
        super().__init__(operators[0][0].dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(operators=operators, name=name))

    @property
    def operators(self):
        """The list of rows of blocks."""
        return self._operators

    def _shape(self):
        batch = _static_batch([op for row in self._operators for op in row])
        if batch is None:
            return TensorShape(None)
        n = _sum_dims([op.domain_dimension.value for op in self._diagonal])
        return TensorShape(batch + (n, n))

    def _shape_tensor(self):
        n = reduce_sum([op.domain_dimension_tensor() for op in self._diagonal])
        return concat([_dynamic_batch([op for row in self._operators for op in row]), [n, n]], axis=0)

    def _to_dense(self):
        batch = _dynamic_batch([op for row in self._operators for op in row])
        widths = [op.domain_dimension_tensor() for op in self._diagonal]
        rows = []
        for i, row in enumerate(self._operators):
            r = self._diagonal[i].range_dimension_tensor()
            parts = [_bcast(op.to_dense(), batch) for op in row]
            parts += [_zeros(batch, r, widths[j], self.dtype) for j in range(i + 1, len(self._operators))]
            rows.append(concat(parts, axis=-1))
        return concat(rows, axis=-2)

    def _determinant(self):
        return _determinant_product(self._diagonal)

    def _log_abs_determinant(self):
        return _log_abs_determinant_sum(self._diagonal)


def _kron_dense(a, b):
    """The Kronecker products of two batches of matrices [..., m, n] and [..., p, q]."""
    prod = expand_dims(expand_dims(a, -1), -3) * expand_dims(expand_dims(b, -2), -4)
    s = shape_of(prod)
    return reshape(prod, concat([s[:-4], [s[-4] * s[-3], s[-2] * s[-1]]], axis=0))


class LinearOperatorKronecker(_DirectSumLike):
    """`LinearOperator` acting like the [batch] Kronecker product `A1 x A2 x ... x AJ`."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        """Initializes the Kronecker product.

        Args:
          operators: A non-empty list of `LinearOperator`s of one dtype.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name (default the operators' names joined by "_x_").

        Raises:
          TypeError: If the operators' dtypes differ.
          ValueError: If `operators` is empty or a hint contradicts them.
        """
        super().__init__(operators, is_non_singular, is_self_adjoint, is_positive_definite, is_square, name, "_x_")

    @property
    def operators(self):
        """The list of factors."""
        return self._operators

    def _shape(self):
        batch = _static_batch(self._operators)
        if batch is None:
            return TensorShape(None)
        rows = [op.range_dimension.value for op in self._operators]
        cols = [op.domain_dimension.value for op in self._operators]
        return TensorShape(batch + (None if None in rows else int(np.prod(rows)),
                                    None if None in cols else int(np.prod(cols))))

    def _shape_tensor(self):
        return shape_of(self._to_dense())

    def _to_dense(self):
        result = self._operators[0].to_dense()
        for op in self._operators[1:]:
            result = _kron_dense(result, op.to_dense())
        return result


class LinearOperatorLowRankUpdate(LinearOperator):
    """`LinearOperator` acting like `A = L + U D V^H`: a base operator plus a low-rank update."""

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowRankUpdate"):
        """Initializes the update.

        Args:
          base_operator: The `LinearOperator` L, shape `[..., M, N]`.
          u: A `Tensor` `[..., M, K]` of L's dtype.
          diag_update: Optional `Tensor` `[..., K]`: the diagonal of D (default the identity).
          v: Optional `Tensor` `[..., N, K]` (default `u`).
          is_diag_update_positive: Hint that `diag_update` is positive.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name for this operator.

        Raises:
          TypeError: If the dtypes differ.
        """
        with ops.name_scope(name):
            self._u = ops.convert_to_tensor(u, name="u", dtype=base_operator.dtype)
            self._v = self._u if v is None else ops.convert_to_tensor(v, name="v", dtype=base_operator.dtype)
            self._diag_update = None if diag_update is None else ops.convert_to_tensor(
                diag_update, name="diag_update", dtype=base_operator.dtype)
        if v is None and base_operator.is_self_adjoint and (diag_update is None or not base_operator.dtype.is_complex):
            if is_self_adjoint is False:
                raise ValueError("A LinearOperatorLowRankUpdate with a self-adjoint base and no v is self-adjoint.")
            is_self_adjoint = True if is_self_adjoint is None else is_self_adjoint
        self._base_operator = base_operator
        self._is_diag_update_positive = is_diag_update_positive
        super().__init__(base_operator.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters=dict(base_operator=base_operator, u=u, diag_update=diag_update, v=v,
                                         is_diag_update_positive=is_diag_update_positive, name=name))

    @property
    def u(self):
        return self._u

    @property
    def v(self):
        return self._v

    @property
    def diag_update(self):
        return self._diag_update

    @property
    def base_operator(self):
        return self._base_operator

    @property
    def is_diag_update_positive(self):
        return self._is_diag_update_positive

    def _shape(self):
        s = self._base_operator.shape
        us = self._u.shape
        if s.ndims is None or us.ndims is None:
            return TensorShape(None)
        return TensorShape(_broadcast_shapes(s[:-2].as_tuple(), us[:-2].as_tuple()) + s[-2:].as_tuple())

    def _shape_tensor(self):
        return shape_of(self._to_dense())

    def _to_dense(self):
        ud = self._u if self._diag_update is None else self._u * expand_dims(self._diag_update, -2)
        return self._base_operator.to_dense() + matmul(ud, self._v, adjoint_b=True)


class LinearOperatorPermutation(LinearOperator):
    """`LinearOperator` acting like a [batch] permutation matrix: row i has its one at column `perm[i]`,
    so `matmul(x)` is `x[perm]`."""

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        """Initializes the operator.

        Args:
          perm: An integer `Tensor` `[..., N]`: a permutation of 0..N-1 per batch member.
          dtype: The operator's `DType` (default float32).
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints; a permutation is
            always non-singular and square.
          name: A name for this operator.

        Raises:
          TypeError: If `perm` is not integer.
          ValueError: If a hint says singular or not square.
        """
        with ops.name_scope(name):
            self._perm = ops.convert_to_tensor(perm, name="perm")
            if not self._perm.dtype.is_integer:
                raise TypeError("Argument perm must have integer dtype. Found: %s" % self._perm.dtype)
        if is_non_singular is False:
            raise ValueError("A Permutation operator is always non-singular. Expected argument `is_non_singular` to "
                             "be True. Received: False.")
        if is_square is False:
            raise ValueError("A Permutation operator is always square. Expected argument `is_square` to be True. "
                             "Received: False.")
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(perm=perm, dtype=dtype, name=name))

    @property
    def perm(self):
        """The permutation `Tensor`."""
        return self._perm

    def _shape(self):
        s = self._perm.shape
        return TensorShape(None) if s.ndims is None else s.concatenate([s[-1]])

    def _shape_tensor(self):
        s = shape_of(self._perm)
        return concat([s, s[-1:]], axis=0)

    def _to_dense(self):
        n = shape_of(self._perm, out_type=self._perm.dtype)[-1]
        return cast(equal(_range(0, n, dtype=self._perm.dtype), expand_dims(self._perm, -1)), self.dtype)


class LinearOperatorHouseholder(LinearOperator):
    """`LinearOperator` acting like a [batch] Householder reflection `I - 2 v v^H / (v^H v)` about the
    hyperplane orthogonal to `reflection_axis` v."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorHouseholder"):
        """Initializes the reflection.

        Args:
          reflection_axis: A `Tensor` `[..., N]` of a floating or complex type.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints; a reflection is
            always self-adjoint, square and not positive definite.
          name: A name for this operator.

        Raises:
          ValueError: If a hint contradicts these.
        """
        with ops.name_scope(name):
            self._reflection_axis = ops.convert_to_tensor(reflection_axis, name="reflection_axis")
            check_dtype(self._reflection_axis, "reflection_axis")
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        super().__init__(self._reflection_axis.dtype, is_non_singular=is_non_singular, is_self_adjoint=True,
                         is_positive_definite=False, is_square=True, name=name,
                         parameters=dict(reflection_axis=reflection_axis, name=name))

    @property
    def reflection_axis(self):
        return self._reflection_axis

    def _shape(self):
        s = self._reflection_axis.shape
        return TensorShape(None) if s.ndims is None else s.concatenate([s[-1]])

    def _shape_tensor(self):
        s = shape_of(self._reflection_axis)
        return concat([s, s[-1:]], axis=0)

    def _to_dense(self):
        v = self._reflection_axis
        norm2 = reduce_sum(v * conj(v), axis=-1, keepdims=True)
        outer = expand_dims(v, -1) * expand_dims(conj(v), -2)
        n = shape_of(v)[-1:]
        ident = matrix_diag(fill(concat([shape_of(v)[:-1], n], axis=0), ops.convert_to_tensor(1, dtype=v.dtype)))
        return ident - ops.convert_to_tensor(2, dtype=v.dtype) * outer / expand_dims(norm2, -1)


class LinearOperatorToeplitz(LinearOperator):
    """`LinearOperator` acting like a [batch] Toeplitz matrix: `A[i, j] = col[i - j]` for i >= j and
    `row[j - i]` for j > i (`row[0]` is not read)."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorToeplitz"):
        """Initializes the operator.

        Args:
          col: A `Tensor` `[..., N]`: the first column.
          row: A `Tensor` `[..., N]` of `col`'s dtype: the first row (its first entry is ignored).
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name for this operator.

        Raises:
          TypeError: If the dtypes are not allowed or differ.
        """
        with ops.name_scope(name):
            self._col = ops.convert_to_tensor(col, name="col")
            check_dtype(self._col, "col")
            self._row = ops.convert_to_tensor(row, name="row", dtype=self._col.dtype)
        if is_square is False:
            raise ValueError("Only square Toeplitz operators currently supported.")
        super().__init__(self._col.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(col=col, row=row, name=name))

    @property
    def col(self):
        return self._col

    @property
    def row(self):
        return self._row

    def _shape(self):
        sc, sr = self._col.shape, self._row.shape
        if sc.ndims is None or sr.ndims is None:
            return TensorShape(None)
        s = _broadcast_shapes(sc.as_tuple(), sr.as_tuple())
        return TensorShape(s + (s[-1],))

    def _shape_tensor(self):
        s = broadcast_dynamic_shape(shape_of(self._col), shape_of(self._row))
        return concat([s, s[-1:]], axis=0)

    def _to_dense(self):
        total = broadcast_dynamic_shape(shape_of(self._row), shape_of(self._col))
        n = shape_of(self._row)[-1]
        row = broadcast_to(self._row, total)
        col = broadcast_to(self._col, total)
        elements = concat([reverse(col, axis=[-1]), row[..., 1:]], axis=-1)
        indices = floormod(_range(0, n) + expand_dims(_range(n - 1, -1, -1), -1), 2 * n - 1)
        return gather(elements, indices, axis=-1)


class LinearOperatorTridiag(LinearOperator):
    """`LinearOperator` acting like a [batch] square tridiagonal matrix (products and solves by the
    tridiagonal ops)."""

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorTridiag"):
        """Initializes the operator.

        Args:
          diagonals: In `compact` format a `Tensor` `[..., 3, N]` (superdiagonal, diagonal,
            subdiagonal); in `sequence` format a list of three `Tensor`s `[..., N]`; in `matrix`
            format a `Tensor` `[..., N, N]`.
          diagonals_format: One of `compact` (default), `sequence`, `matrix`.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name for this operator.

        Raises:
          ValueError: On an unknown format, or `is_square` False.
        """
        if diagonals_format not in ("compact", "sequence", "matrix"):
            raise ValueError("Diagonals Format must be one of compact, matrix, sequence, got : %s" % diagonals_format)
        if is_square is False:
            raise ValueError("Only square tridiagonal operators currently supported.")
        with ops.name_scope(name):
            if diagonals_format == "sequence":
                self._diagonals = [ops.convert_to_tensor(d, name="diag_%d" % i) for i, d in enumerate(diagonals)]
                dtype = self._diagonals[0].dtype
            else:
                self._diagonals = ops.convert_to_tensor(diagonals, name="diagonals")
                dtype = self._diagonals.dtype
        self._diagonals_format = diagonals_format
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(diagonals=diagonals, diagonals_format=diagonals_format, name=name))

    @property
    def diagonals(self):
        return self._diagonals

    @property
    def diagonals_format(self):
        return self._diagonals_format

    def _shape(self):
        if self._diagonals_format == "matrix":
            return self._diagonals.shape
        if self._diagonals_format == "sequence":
            s = self._diagonals[1].shape
        else:
            s = self._diagonals.shape
            if s.ndims is None:
                return s
            s = s[:-2].concatenate([s[-1]])
        return TensorShape(None) if s.ndims is None else s.concatenate([s[-1]])

    def _shape_tensor(self):
        return shape_of(self._to_dense())

    def _three(self):
        if self._diagonals_format == "sequence":
            return self._diagonals
        if self._diagonals_format == "compact":
            d = self._diagonals
            return d[..., 0, :], d[..., 1, :], d[..., 2, :]
        from ..ops.linalg_tridiag_ops import _from_matrix
        d = _from_matrix(self._diagonals)
        return d[..., 0, :], d[..., 1, :], d[..., 2, :]

    def _to_dense(self):
        if self._diagonals_format == "matrix":
            from ..ops.linalg_diag_ops import matrix_band_part
            return matrix_band_part(self._diagonals, 1, 1)
        sup, main, sub = self._three()
        return (matrix_diag(main) + matrix_diag(sup[..., :-1], k=1) + matrix_diag(sub[..., 1:], k=-1))

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint(x) if adjoint_arg else x
        sup, main, sub = self._three()
        if adjoint:
            zero = sup[..., :1] * 0
            sup, main, sub = (concat([conj(sub[..., 1:]), zero], axis=-1), conj(main),
                              concat([zero, conj(sup[..., :-1])], axis=-1))
        return tridiagonal_matmul([sup, main, sub], x, diagonals_format="sequence")

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint(rhs) if adjoint_arg else rhs
        sup, main, sub = self._three()
        if adjoint:
            zero = sup[..., :1] * 0
            sup, main, sub = (concat([conj(sub[..., 1:]), zero], axis=-1), conj(main),
                              concat([zero, conj(sup[..., :-1])], axis=-1))
        return tridiagonal_solve([sup, main, sub], rhs, diagonals_format="sequence")


# ---- circulant -------------------------------------------------------------------------------
_TO_COMPLEX = {dtypes.float16: dtypes.complex64, dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128,
               dtypes.complex64: dtypes.complex64, dtypes.complex128: dtypes.complex128}


class _BaseCirculant(LinearOperator):
    """The circulant operators with `block_depth` 1, 2 or 3: `H = F^H diag(spectrum) F` with F the
    (multi-dimensional) DFT; `H[i, j] = h[(i - j) mod n]` with `h = ifft(spectrum)`."""

    _BLOCK_DEPTH = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        with ops.name_scope(name):
            spectrum = ops.convert_to_tensor(spectrum, name="spectrum")
            check_dtype(spectrum, "spectrum")
            self._spectrum = cast(spectrum, _TO_COMPLEX[spectrum.dtype])
        s = static_shape(self._spectrum)
        d = self._BLOCK_DEPTH
        if s is None or len(s) < d or None in s[-d:]:
            raise NotImplementedError("%s: the spectrum's block shape (its last %d dimensions) must be known "
                                      "statically" % (type(self).__name__, d))
        if is_square is False:
            raise ValueError("A circulant operator is always square.")
        self._block_shape = tuple(s[-d:])
        super().__init__(dtypes.as_dtype(input_output_dtype), is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite, is_square=True,
                         name=name, parameters=dict(spectrum=spectrum, input_output_dtype=input_output_dtype,
                                                    name=name))

    @property
    def spectrum(self):
        """The spectrum `Tensor` (complex)."""
        return self._spectrum

    @property
    def block_depth(self):
        """The number of block dimensions: 1 (circulant), 2 (block circulant with circulant blocks) or 3."""
        return self._BLOCK_DEPTH

    @property
    def block_shape(self):
        """The static block shape (the spectrum's last `block_depth` dimensions)."""
        return TensorShape(self._block_shape)

    def block_shape_tensor(self):
        return ops.convert_to_tensor(list(self._block_shape), dtype=dtypes.int32)

    def convolution_kernel(self, name="convolution_kernel"):
        """The convolution kernel `h = ifft(spectrum)`, of the operator's dtype (real part if real)."""
        from ..ops.spectral_ops import ifft, ifft2d, ifft3d
        with self._scope(name):
            h = (ifft, ifft2d, ifft3d)[self._BLOCK_DEPTH - 1](self._spectrum)
            return cast(h, self.dtype) if self.dtype.is_complex else cast(real(h), self.dtype)

    def _shape(self):
        s = self._spectrum.shape
        n = int(np.prod(self._block_shape))
        return s[:-self._BLOCK_DEPTH].concatenate([n, n])

    def _shape_tensor(self):
        n = int(np.prod(self._block_shape))
        return concat([shape_of(self._spectrum)[:-self._BLOCK_DEPTH], [n, n]], axis=0)

    def _to_dense(self):
        h = self.convolution_kernel()
        shape = self._block_shape
        n = int(np.prod(shape))
        grid = np.indices(shape).reshape(len(shape), n)
        diff = np.mod(grid[:, :, None] - grid[:, None, :], np.array(shape)[:, None, None])
        idx = np.ravel_multi_index(tuple(diff), shape).astype(np.int32)
        flat = reshape(h, concat([shape_of(h)[:-self._BLOCK_DEPTH], [n]], axis=0))
        return gather(flat, ops.convert_to_tensor(idx), axis=-1)


def _circulant_doc(cls, what):
    cls.__init__.__doc__ = """Initializes the %s operator.

        Args:
          spectrum: A `Tensor` `batch_shape + block_shape` (block shape of rank %d, known statically)
            of type float16/32/64 or complex64/128: the DFT of the convolution kernel.
          input_output_dtype: The operator's `DType` (default complex64; a real type keeps the real
            part of the kernel).
          is_non_singular, is_self_adjoint, is_positive_definite: Hints (see `LinearOperator`).
          is_square: Must be True.
          name: A name for this operator.

        Raises:
          TypeError: If `spectrum`'s dtype is not allowed.
          ValueError: If `is_square` is False.
          NotImplementedError: If the block shape is not known statically.
        """ % (what, cls._BLOCK_DEPTH)
    return cls


class LinearOperatorCirculant(_BaseCirculant):
    """`LinearOperator` acting like a [batch] circulant matrix."""

    _BLOCK_DEPTH = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


class LinearOperatorCirculant2D(_BaseCirculant):
    """`LinearOperator` acting like a [batch] block circulant matrix with circulant blocks."""

    _BLOCK_DEPTH = 2

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant2D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


class LinearOperatorCirculant3D(_BaseCirculant):
    """`LinearOperator` acting like a [batch] nested block circulant matrix (three block levels)."""

    _BLOCK_DEPTH = 3

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant3D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


for _cls, _what in ((LinearOperatorCirculant, "circulant"), (LinearOperatorCirculant2D, "2-D block circulant"),
                    (LinearOperatorCirculant3D, "3-D block circulant")):
    _circulant_doc(_cls, _what)


