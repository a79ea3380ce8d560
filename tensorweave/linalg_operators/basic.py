"""The elementary linear operators: FullMatrix, Diag, LowerTriangular, Identity, ScaledIdentity,
Zeros, and the operators made of others: Adjoint, Inversion, Composition
(tensorflow/python/ops/linalg/linear_operator_*.py)."""

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.tensor_shape import TensorShape
from ..ops.array_join_ops import concat
from ..ops.array_shape_ops import broadcast_to, expand_dims, ones, zeros
from ..ops.core_ops import ones_like
from ..ops.core_ops import shape as shape_of
from ..ops.linalg_core_ops import matrix_inverse, matrix_triangular_solve
from ..ops.linalg_diag_ops import eye, matrix_band_part, matrix_diag, matrix_diag_part, matrix_set_diag
from ..ops.linalg_misc_ops import adjoint as _adjoint
from ..ops.math_reduce_ops import reduce_prod, reduce_sum
from ..ops.math_unary_ops import abs as _abs
from ..ops.math_unary_ops import cast, conj, log, sqrt
from .base import (
    LinearOperator,
    _check_operators,
    _determinant_product,
    _dynamic_batch,
    _log_abs_determinant_sum,
    broadcast_batch,
    check_dtype,
    static_shape,
)

__all__ = ["LinearOperatorAdjoint", "LinearOperatorComposition", "LinearOperatorDiag", "LinearOperatorFullMatrix",
           "LinearOperatorIdentity", "LinearOperatorInversion", "LinearOperatorLowerTriangular",
           "LinearOperatorScaledIdentity", "LinearOperatorZeros"]


def _to_tensor(x, name, dtype=None):
    return ops.convert_to_tensor(x, name=name, dtype=dtype)


def _real_log_abs(x):
    return log(_abs(x))


class LinearOperatorFullMatrix(LinearOperator):
    """`LinearOperator` acting like a [batch] matrix `A` of shape `[..., M, N]`, held densely."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorFullMatrix"):
        """Initializes the operator from `matrix`.

        Args:
          matrix: A `Tensor` of shape `[..., M, N]` and type float16, float32, float64, complex64 or
            complex128.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name for this operator.

        Raises:
          TypeError: If `matrix` has another dtype.
          ValueError: If `matrix` has rank < 2 or the hints contradict each other.
        """
        with ops.name_scope(name):
            self._matrix = _to_tensor(matrix, "matrix")
            check_dtype(self._matrix, "matrix")
            s = static_shape(self._matrix)
            if s is not None and len(s) < 2:
                raise ValueError("Argument matrix must have at least 2 dimensions.  Found: %s" % self._matrix)
        super().__init__(self._matrix.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters=dict(matrix=matrix, is_non_singular=is_non_singular,
                                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                                         is_square=is_square, name=name))

    def _shape(self):
        return self._matrix.shape

    def _shape_tensor(self):
        return shape_of(self._matrix)

    def _to_dense(self):
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """`LinearOperator` acting like a [batch] square diagonal matrix, from its diagonal `[..., N]`."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorDiag"):
        """Initializes the operator from `diag`.

        Args:
          diag: A `Tensor` of shape `[..., N]` (rank >= 1) and a floating or complex type.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name for this operator.

        Raises:
          TypeError: If `diag`'s dtype is not allowed.
          ValueError: If `is_square` is False, or a real `diag` is said not to be self-adjoint.
        """
        with ops.name_scope(name):
            self._diag = _to_tensor(diag, "diag")
            check_dtype(self._diag, "diag")
            s = static_shape(self._diag)
            if s is not None and len(s) < 1:
                raise ValueError("Argument diag must have at least 1 dimension.  Found: %s" % self._diag)
            if not self._diag.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError("A real diagonal operator is always self adjoint.")
                is_self_adjoint = True
            if is_square is False:
                raise ValueError("Only square diagonal operators currently supported.")
            is_square = True
        super().__init__(self._diag.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters=dict(diag=diag, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                         is_positive_definite=is_positive_definite, is_square=is_square, name=name))

    @property
    def diag(self):
        """The diagonal `Tensor`."""
        return self._diag

    def _shape(self):
        s = self._diag.shape
        if s.ndims is None:
            return TensorShape(None)
        return s.concatenate([s[-1]])

    def _shape_tensor(self):
        s = shape_of(self._diag)
        return concat([s, s[-1:]], axis=0)

    def _to_dense(self):
        return matrix_diag(self._diag)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        d = conj(self._diag) if adjoint else self._diag
        x = _adjoint(x) if adjoint_arg else x
        return expand_dims(d, -1) * x

    def _matvec(self, x, adjoint=False):
        d = conj(self._diag) if adjoint else self._diag
        return d * x

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        d = conj(self._diag) if adjoint else self._diag
        rhs = _adjoint(rhs) if adjoint_arg else rhs
        return rhs / expand_dims(d, -1)

    def _solvevec(self, rhs, adjoint=False):
        d = conj(self._diag) if adjoint else self._diag
        return rhs / d

    def _determinant(self):
        return reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self):
        out = reduce_sum(_real_log_abs(self._diag), axis=[-1])
        return cast(out, self.dtype) if self.dtype.is_complex else out

    def _diag_part(self):
        return self._diag * ones_like(self._diag)

    def _add_to_tensor(self, x):
        x_diag = matrix_diag_part(x)
        return matrix_set_diag(x, x_diag + self._diag)

    def _eigvals(self):
        from ..ops.math_sort_ops import sort
        return sort(self._diag if not self.dtype.is_complex else cast(_abs(self._diag), self.dtype))

    def _linop_inverse(self):
        return LinearOperatorDiag(1.0 / self._diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                                  is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorDiag(sqrt(self._diag), is_non_singular=True, is_self_adjoint=True,
                                  is_positive_definite=True, is_square=True)


class LinearOperatorLowerTriangular(LinearOperator):
    """`LinearOperator` acting like a [batch] square lower-triangular matrix (only the lower triangle
    of `tril` is read)."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowerTriangular"):
        """Initializes the operator from `tril`.

        Args:
          tril: A `Tensor` of shape `[..., N, N]`; its strictly upper triangle is ignored.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name for this operator.

        Raises:
          TypeError: If `tril`'s dtype is not allowed.
          ValueError: If `is_square` is False or `tril` has rank < 2.
        """
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        is_square = True
        with ops.name_scope(name):
            self._tril = _to_tensor(tril, "tril")
            check_dtype(self._tril, "tril")
            s = static_shape(self._tril)
            if s is not None and len(s) < 2:
                raise ValueError("Argument tril must have at least 2 dimensions.  Found: %s" % self._tril)
            self._lower = matrix_band_part(self._tril, -1, 0)
        super().__init__(self._tril.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters=dict(tril=tril, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                         is_positive_definite=is_positive_definite, is_square=is_square, name=name))

    def _shape(self):
        return self._tril.shape

    def _shape_tensor(self):
        return shape_of(self._tril)

    def _to_dense(self):
        return self._lower

    def _determinant(self):
        return reduce_prod(matrix_diag_part(self._lower), axis=[-1])

    def _log_abs_determinant(self):
        out = reduce_sum(_real_log_abs(matrix_diag_part(self._lower)), axis=[-1])
        return cast(out, self.dtype) if self.dtype.is_complex else out

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint(rhs) if adjoint_arg else rhs
        lower, rhs = broadcast_batch(self._lower, rhs)
        return matrix_triangular_solve(lower, rhs, lower=True, adjoint=adjoint)


def _static_int(v, what):
    if isinstance(v, (int, np.integer)):
        return int(v)
    t = ops.convert_to_tensor(v)
    value = tensor_util.constant_value(t)
    if value is None:
        raise NotImplementedError("%s must be a Python integer or a constant (a run-time value is not supported)"
                                  % what)
    return int(value)


def _check_num_rows(n, what="num_rows"):
    if n < 0:
        raise ValueError("Argument %s must be non-negative.  Found: %d" % (what, n))
    return n


def _batch_list(batch_shape):
    if batch_shape is None:
        return None
    if isinstance(batch_shape, (list, tuple)):
        return [_static_int(d, "batch_shape") for d in batch_shape]
    t = ops.convert_to_tensor(batch_shape)
    value = tensor_util.constant_value(t)
    if value is None:
        raise NotImplementedError("batch_shape must be a Python list or a constant")
    out = [int(d) for d in np.asarray(value).ravel()]
    for d in out:
        if d < 0:
            raise ValueError("Argument batch_shape must be non-negative.  Found: %s" % out)
    return out


class _BaseIdentity(LinearOperator):
    def _shape(self):
        return TensorShape((self._batch_shape_arg or []) + [self._num_rows, self._num_columns])

    def _shape_tensor(self):
        return ops.convert_to_tensor(self._shape().as_list(), dtype=dtypes.int32)

    def _broadcast_x(self, x):
        """Broadcasts `x` against the operator's batch shape (TF's _possibly_broadcast_batch_shape)."""
        if not self._batch_shape_arg:
            return x
        s = static_shape(x)
        if s is not None and list(s[:-2]) == self._batch_shape_arg:
            return x
        return x + zeros(self._batch_shape_arg + [1, 1], dtype=x.dtype)


class LinearOperatorIdentity(_BaseIdentity):
    """`LinearOperator` acting like a [batch] square identity matrix."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorIdentity"):
        """Initializes the operator.

        Args:
          num_rows: A non-negative Python integer (or constant scalar): N.
          batch_shape: Optional list of non-negative integers: the batch shape (None: no batch; the
            operator then broadcasts against any batch).
          dtype: The `DType` (default float32).
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Must be True (or None).
          assert_proper_shapes: Accepted for compatibility (shapes are checked statically).
          name: A name for this operator.

        Raises:
          ValueError: If a hint is False or a dimension is negative.
          NotImplementedError: If `num_rows` is a run-time value.
        """
        del assert_proper_shapes
        for hint, what in ((is_non_singular, "non-singular"), (is_self_adjoint, "self-adjoint"),
                           (is_positive_definite, "positive definite"), (is_square, "square")):
            if hint is False:
                raise ValueError("An identity operator is always %s." % what)
        self._num_rows = self._num_columns = _check_num_rows(_static_int(num_rows, "num_rows"))
        self._batch_shape_arg = _batch_list(batch_shape)
        super().__init__(dtype or dtypes.float32, is_non_singular=True, is_self_adjoint=True,
                         is_positive_definite=True, is_square=True, name=name,
                         parameters=dict(num_rows=num_rows, batch_shape=batch_shape, dtype=dtype, name=name))

    def _to_dense(self):
        return eye(self._num_rows, batch_shape=self._batch_shape_arg, dtype=self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._broadcast_x(_adjoint(x) if adjoint_arg else x)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return ones(self._batch_shape_arg or [], dtype=self.dtype)

    def _log_abs_determinant(self):
        return zeros(self._batch_shape_arg or [], dtype=self.dtype)

    def _diag_part(self):
        return ones((self._batch_shape_arg or []) + [self._num_rows], dtype=self.dtype)

    def _trace(self):
        return ones(self._batch_shape_arg or [], dtype=self.dtype) * ops.convert_to_tensor(
            self._num_rows, dtype=self.dtype)

    def _add_to_tensor(self, x):
        return matrix_set_diag(x, matrix_diag_part(x) + ones_like(matrix_diag_part(x)))

    def _eigvals(self):
        return self._diag_part()

    def _cond(self):
        return ones(self._batch_shape_arg or [], dtype=self.dtype.real_dtype)

    def _linop_inverse(self):
        return self

    def _linop_cholesky(self):
        return self


class LinearOperatorScaledIdentity(_BaseIdentity):
    """`LinearOperator` acting like a [batch] scaled identity matrix `multiplier * I`."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorScaledIdentity"):
        """Initializes the operator.

        Args:
          num_rows: A non-negative Python integer (or constant scalar): N.
          multiplier: A `Tensor` of shape `batch_shape`: the scale of each member of the batch.
          is_non_singular, is_self_adjoint, is_positive_definite: Hints (see `LinearOperator`).
          is_square: Must be True.
          assert_proper_shapes: Accepted for compatibility.
          name: A name for this operator.

        Raises:
          ValueError: If `is_square` is False.
        """
        del assert_proper_shapes
        if is_square is False:
            raise ValueError("A ScaledIdentity operator is always square.")
        with ops.name_scope(name):
            self._multiplier = _to_tensor(multiplier, "multiplier")
            check_dtype(self._multiplier, "multiplier")
            if not self._multiplier.dtype.is_complex and is_self_adjoint is False:
                raise ValueError("A real diagonal operator is always self adjoint.")
            if not self._multiplier.dtype.is_complex:
                is_self_adjoint = True
        self._num_rows = self._num_columns = _check_num_rows(_static_int(num_rows, "num_rows"))
        ms = static_shape(self._multiplier)
        if ms is None or None in ms:
            raise NotImplementedError("LinearOperatorScaledIdentity: the multiplier's shape must be known statically")
        self._batch_shape_arg = list(ms)
        super().__init__(self._multiplier.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(num_rows=num_rows, multiplier=multiplier, name=name))

    @property
    def multiplier(self):
        """The scale `Tensor` (shape `batch_shape`)."""
        return self._multiplier

    def _m(self, adjoint=False):
        return conj(self._multiplier) if adjoint else self._multiplier

    def _to_dense(self):
        return expand_dims(expand_dims(self._multiplier, -1), -1) * eye(self._num_rows, dtype=self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint(x) if adjoint_arg else x
        return x * expand_dims(expand_dims(self._m(adjoint), -1), -1)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint(rhs) if adjoint_arg else rhs
        return rhs / expand_dims(expand_dims(self._m(adjoint), -1), -1)

    def _determinant(self):
        from ..ops.math_binary_ops import pow as _pow
        return _pow(self._multiplier, ops.convert_to_tensor(self._num_rows, dtype=self.dtype))

    def _log_abs_determinant(self):
        out = ops.convert_to_tensor(self._num_rows, dtype=self.dtype.real_dtype) * _real_log_abs(self._multiplier)
        return cast(out, self.dtype) if self.dtype.is_complex else out

    def _diag_part(self):
        return expand_dims(self._multiplier, -1) * ones([self._num_rows], dtype=self.dtype)

    def _trace(self):
        return self._multiplier * ops.convert_to_tensor(self._num_rows, dtype=self.dtype)

    def _add_to_tensor(self, x):
        d = matrix_diag_part(x)
        return matrix_set_diag(x, d + expand_dims(self._multiplier, -1))

    def _linop_inverse(self):
        return LinearOperatorScaledIdentity(self._num_rows, 1.0 / self._multiplier,
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite)

    def _linop_cholesky(self):
        return LinearOperatorScaledIdentity(self._num_rows, sqrt(self._multiplier), is_non_singular=True,
                                            is_self_adjoint=True, is_positive_definite=True)


class LinearOperatorZeros(LinearOperator):
    """`LinearOperator` acting like a [batch] zero matrix `[..., M, N]`."""

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, is_non_singular=False,
                 is_self_adjoint=True, is_positive_definite=False, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorZeros"):
        """Initializes the operator.

        Args:
          num_rows: A non-negative Python integer (or constant scalar): M.
          num_columns: N (default M).
          batch_shape: Optional list of non-negative integers: the batch shape.
          dtype: The `DType` (default float32).
          is_non_singular: Must be False (or None).
          is_self_adjoint: Whether self-adjoint (True for square operators).
          is_positive_definite: Must be False (or None).
          is_square: Whether square.
          assert_proper_shapes: Accepted for compatibility.
          name: A name for this operator.

        Raises:
          ValueError: If the hints say the operator is non-singular or positive definite.
        """
        del assert_proper_shapes
        if is_non_singular:
            raise ValueError("A Zeros operator is always singular.")
        if is_positive_definite:
            raise ValueError("A Zeros operator is always not positive-definite.")
        self._num_rows = _check_num_rows(_static_int(num_rows, "num_rows"))
        self._num_columns = self._num_rows if num_columns is None else _check_num_rows(
            _static_int(num_columns, "num_columns"), "num_columns")
        if self._num_rows != self._num_columns:
            is_square, is_self_adjoint = False, False
        self._batch_shape_arg = _batch_list(batch_shape)
        super().__init__(dtype or dtypes.float32, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters=dict(num_rows=num_rows, num_columns=num_columns, batch_shape=batch_shape,
                                         dtype=dtype, name=name))

    def _shape(self):
        return TensorShape((self._batch_shape_arg or []) + [self._num_rows, self._num_columns])

    def _shape_tensor(self):
        return ops.convert_to_tensor(self._shape().as_list(), dtype=dtypes.int32)

    def _to_dense(self):
        return zeros((self._batch_shape_arg or []) + [self._num_rows, self._num_columns], dtype=self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint(x) if adjoint_arg else x
        rows = self._num_columns if adjoint else self._num_rows
        batch = shape_of(x)[:-2]
        if self._batch_shape_arg:
            from ..ops.array_shape_ops import broadcast_dynamic_shape
            batch = broadcast_dynamic_shape(batch, ops.convert_to_tensor(self._batch_shape_arg, dtype=dtypes.int32))
        return broadcast_to(zeros([], dtype=self.dtype), concat([batch, [rows], shape_of(x)[-1:]], axis=0))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        raise NotImplementedError("Zeros are not invertible.")

    def _determinant(self):
        return zeros(self._batch_shape_arg or [], dtype=self.dtype)

    def _log_abs_determinant(self):
        return zeros(self._batch_shape_arg or [], dtype=self.dtype) + ops.convert_to_tensor(-np.inf, self.dtype)

    def _diag_part(self):
        return zeros((self._batch_shape_arg or []) + [min(self._num_rows, self._num_columns)], dtype=self.dtype)

    def _trace(self):
        return zeros(self._batch_shape_arg or [], dtype=self.dtype)

    def _add_to_tensor(self, x):
        return x + zeros([], dtype=self.dtype)

    def _eigvals(self):
        return self._diag_part()


class LinearOperatorAdjoint(LinearOperator):
    """`LinearOperator` representing the adjoint `A^H` of another operator."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        """Initializes the adjoint of `operator`.

        Args:
          operator: A `LinearOperator`.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints; each must agree
            with `operator`'s (inherited where None).
          name: A name (default `operator.name + "_adjoint"`).

        Raises:
          ValueError: If a hint contradicts `operator`'s.
        """
        self._operator = operator

        def combine(hint, op_hint, what):
            if op_hint is not None and hint is not None and op_hint != hint:
                raise ValueError("An operator is %s if and only if its adjoint is." % what)
            return op_hint if hint is None else hint

        is_non_singular = combine(is_non_singular, operator.is_non_singular, "non-singular")
        is_self_adjoint = combine(is_self_adjoint, operator.is_self_adjoint, "self-adjoint")
        is_positive_definite = combine(is_positive_definite, operator.is_positive_definite, "positive-definite")
        is_square = combine(is_square, operator.is_square, "square")
        super().__init__(operator.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or operator.name + "_adjoint", parameters=dict(operator=operator, name=name))

    @property
    def operator(self):
        """The operator this is the adjoint of."""
        return self._operator

    def _shape(self):
        s = self._operator.shape
        if s.ndims is None:
            return s
        return s[:-2].concatenate([s[-1], s[-2]])

    def _shape_tensor(self):
        s = self._operator.shape_tensor()
        return concat([s[:-2], s[-1:], s[-2:-1]], axis=0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _matvec(self, x, adjoint=False):
        return self._operator.matvec(x, adjoint=not adjoint)

    def _determinant(self):
        return conj(self._operator.determinant())

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def _trace(self):
        return conj(self._operator.trace())

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        return _adjoint(self._operator.to_dense())


class LinearOperatorInversion(LinearOperator):
    """`LinearOperator` representing the inverse `A^-1` of another (square, non-singular) operator."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        """Initializes the inverse of `operator`.

        Args:
          operator: A square `LinearOperator` not known to be singular.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (inherited from
            `operator` where None).
          name: A name (default `operator.name + "_inv"`).

        Raises:
          ValueError: If `operator` is known to be singular or not square.
        """
        self._operator = operator
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError("operator and supplied hints must be non-singular. Found: operator.is_non_singular = %s, "
                             "is_non_singular = %s." % (operator.is_non_singular, is_non_singular))
        if operator.is_square is False or is_square is False:
            raise ValueError("operator and supplied hints must be square. Found: operator.is_square = %s, "
                             "is_square = %s." % (operator.is_square, is_square))

        def combine(hint, op_hint):
            return op_hint if hint is None else hint

        super().__init__(operator.dtype, is_non_singular=combine(is_non_singular, operator.is_non_singular),
                         is_self_adjoint=combine(is_self_adjoint, operator.is_self_adjoint),
                         is_positive_definite=combine(is_positive_definite, operator.is_positive_definite),
                         is_square=combine(is_square, operator.is_square),
                         name=name or operator.name + "_inv", parameters=dict(operator=operator, name=name))

    @property
    def operator(self):
        """The operator this is the inverse of."""
        return self._operator

    def _shape(self):
        return self._operator.shape

    def _shape_tensor(self):
        return self._operator.shape_tensor()

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return 1.0 / self._operator.determinant()

    def _log_abs_determinant(self):
        return -1.0 * self._operator.log_abs_determinant()

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        return matrix_inverse(self._operator.to_dense())

    def _linop_inverse(self):
        return self._operator


class LinearOperatorComposition(LinearOperator):
    """`LinearOperator` composing a list of operators: `A1 A2 ... AJ` (applied right to left)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        """Initializes the composition.

        Args:
          operators: A non-empty list of `LinearOperator`s of one dtype, with matching inner dimensions.
          is_non_singular, is_self_adjoint, is_positive_definite, is_square: Hints (see `LinearOperator`).
          name: A name (default the operators' names joined by "_o_").

        Raises:
          TypeError: If the operators' dtypes differ.
          ValueError: If `operators` is empty or a hint contradicts them.
        """
        operators = _check_operators(operators)
        if all(op.is_non_singular for op in operators):
            if is_non_singular is False:
                raise ValueError("The composition of non-singular operators is always non-singular.")
            is_non_singular = True
        for a, b in zip(operators[:-1], operators[1:]):
            da, rb = a.domain_dimension.value, b.range_dimension.value
            if da is not None and rb is not None and da != rb:
                raise ValueError("Operators are incompatible. Expected `x` to have dimension %d but got %d." % (da, rb))
        self._operators = operators
        super().__init__(operators[0].dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_o_".join(op.name for op in operators),
                         parameters=dict(operators=operators, name=name))

    @property
    def operators(self):
        """The list of composed operators."""
        return self._operators

    def _shape(self):
        batch = TensorShape([])
        for op in self._operators:
            b = op.batch_shape
            if b.ndims is None or batch.ndims is None:
                batch = TensorShape(None)
                continue
            from ..ops.math_helpers import _broadcast_shapes
            batch = TensorShape(_broadcast_shapes(batch.as_tuple(), b.as_tuple()))
        if batch.ndims is None:
            return TensorShape(None)
        return batch.concatenate([self._operators[0].range_dimension, self._operators[-1].domain_dimension])

    def _shape_tensor(self):
        return concat([_dynamic_batch(self._operators), self._operators[0].range_dimension_tensor()[None],
                       self._operators[-1].domain_dimension_tensor()[None]], axis=0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        if adjoint:
            ordered = self._operators
        else:
            ordered = list(reversed(self._operators))
        result = ordered[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in ordered[1:]:
            result = op.matmul(result, adjoint=adjoint)
        return result

    def _determinant(self):
        return _determinant_product(self._operators)

    def _log_abs_determinant(self):
        return _log_abs_determinant_sum(self._operators)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if adjoint:
            ordered = list(reversed(self._operators))
        else:
            ordered = self._operators
        result = ordered[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in ordered[1:]:
            result = op.solve(result, adjoint=adjoint)
        return result

    def _to_dense(self):
        from ..ops.math_matmul_ops import matmul
        result = self._operators[-1].to_dense()
        for op in reversed(self._operators[:-1]):
            result = matmul(op.to_dense(), result)
        return result

