"""`tf.linalg.LinearOperator`: the abstract base class of the linear operator family
(tensorflow/python/ops/linalg/linear_operator.py), written with public ops.

A subclass defines `_shape()` (the static `TensorShape`), `_shape_tensor()` and `_to_dense()`;
every other method has a generic implementation on the dense matrix (matmul, solve, determinant,
...) that a subclass overrides where its structure gives the result directly (a diagonal's solve
is a division). Batch dimensions broadcast as in TF."""

import contextlib

import numpy as np

from ..framework import dtypes, ops
from ..framework.tensor_shape import TensorShape
from ..ops import check_ops
from ..ops.array_join_ops import concat
from ..ops.array_shape_ops import broadcast_dynamic_shape, broadcast_to, expand_dims, squeeze
from ..ops.core_ops import shape as shape_of
from ..ops.linalg_core_ops import cholesky, matrix_determinant, matrix_inverse, matrix_solve, slogdet
from ..ops.linalg_decomp_ops import self_adjoint_eigvals, svd
from ..ops.linalg_diag_ops import matrix_diag_part
from ..ops.linalg_misc_ops import adjoint as _adjoint
from ..ops.math_matmul_ops import matmul as _matmul
from ..ops.math_reduce_ops import reduce_max, reduce_min, reduce_sum
from ..ops.math_unary_ops import abs as _abs

_ALLOWED = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128)


def _check_operators(operators, what="operators"):
    operators = list(operators)
    if not operators:
        raise ValueError("Expected a non-empty list of %s. Found: %s" % (what, operators))
    if len({op.dtype for op in operators}) > 1:
        raise TypeError("Expected all operators to have the same dtype.  Found %s"
                        % "   ".join("%s: %s" % (op.name, op.dtype) for op in operators))
    return operators


def _dynamic_batch(operators):
    batch = operators[0].batch_shape_tensor()
    for op in operators[1:]:
        batch = broadcast_dynamic_shape(batch, op.batch_shape_tensor())
    return batch


def _determinant_product(operators):
    """The product of the operators' determinants (of a block-triangular or composed operator)."""
    result = operators[0].determinant()
    for op in operators[1:]:
        result = result * op.determinant()
    return result


def _log_abs_determinant_sum(operators):
    """The sum of the operators' log absolute determinants."""
    result = operators[0].log_abs_determinant()
    for op in operators[1:]:
        result = result + op.log_abs_determinant()
    return result


def check_dtype(t, name, allowed=_ALLOWED):
    if t.dtype not in allowed:
        raise TypeError("Argument %s must have dtype in %s. Found: %s" % (name, [d.name for d in allowed], t.dtype))


def static_shape(t):
    """The static shape of a tensor as a tuple (None: unknown rank)."""
    return t.shape.as_tuple()


def broadcast_batch(a, b):
    """`a` and `b` ([..., M, N] each) with their batch dimensions broadcast against each other (no op
    when the static batch shapes are known and equal)."""
    sa, sb = static_shape(a), static_shape(b)
    if sa is not None and sb is not None and None not in sa[:-2] and sa[:-2] == sb[:-2]:
        return a, b
    batch = broadcast_dynamic_shape(shape_of(a)[:-2], shape_of(b)[:-2])
    return (broadcast_to(a, concat([batch, shape_of(a)[-2:]], axis=0)),
            broadcast_to(b, concat([batch, shape_of(b)[-2:]], axis=0)))


def matmul_broadcast(a, b, adjoint_a=False, adjoint_b=False):
    return _matmul(a, b, adjoint_a=adjoint_a, adjoint_b=adjoint_b)


def solve_broadcast(matrix, rhs, adjoint=False):
    matrix, rhs = broadcast_batch(matrix, rhs)
    return matrix_solve(matrix, rhs, adjoint=adjoint)


class LinearOperator:
    """Base class defining a [batch of] linear operator[s].

    A subclass represents the matrices `A` of shape `[B1, ..., Bb, M, N]` without necessarily
    materializing them; `matmul`, `solve`, `determinant`, ... act on the batch. The `is_*` hints
    are promises the caller makes (None: unknown).
    """

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        """Initializes the operator.

        Args:
          dtype: The `DType` of the matrices.
          graph_parents: Accepted for compatibility (deprecated in TF).
          is_non_singular: Whether the operators are non-singular.
          is_self_adjoint: Whether the operators equal their Hermitian transpose.
          is_positive_definite: Whether `Re(x^H A x) > 0` for all nonzero `x`.
          is_square: Whether the operators are square.
          name: A name for this operator.
          parameters: The constructor's arguments (a dict), for `parameters`.

        Raises:
          ValueError: If the hints contradict each other.
        """
        del graph_parents
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square_set_or_implied_by_hints = is_square
        self._name = name or type(self).__name__
        self._parameters = dict(parameters) if parameters else {}

    # ---- properties ------------------------------------------------------------------------
    @property
    def parameters(self):
        """The constructor's arguments, as a dict."""
        return dict(self._parameters)

    @property
    def dtype(self):
        """The `DType` of the matrices."""
        return self._dtype

    @property
    def name(self):
        """The name of this operator."""
        return self._name

    @property
    def graph_parents(self):
        """Deprecated in TF: an empty list."""
        return []

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        """Whether the operators are square: the hint, else the static dimensions' equality."""
        m, n = self.range_dimension.value, self.domain_dimension.value
        auto = None if m is None or n is None else m == n
        if self._is_square_set_or_implied_by_hints is False and auto:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        if self._is_square_set_or_implied_by_hints is not None:
            return self._is_square_set_or_implied_by_hints
        return auto

    def _shape(self):
        raise NotImplementedError("_shape is not implemented.")

    def _shape_tensor(self):
        raise NotImplementedError("_shape_tensor is not implemented.")

    @property
    def shape(self):
        """The static `TensorShape` of the operators: `batch_shape + [M, N]`."""
        return self._shape()

    def shape_tensor(self, name="shape_tensor"):
        """The shape as an int32 `Tensor` (static values where known)."""
        with self._scope(name):
            s = self.shape
            if s.is_fully_defined():
                return ops.convert_to_tensor(s.as_list(), dtype=dtypes.int32, name="shape")
            return self._shape_tensor()

    @property
    def batch_shape(self):
        """The static batch shape, `shape[:-2]`."""
        return self.shape[:-2]

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        with self._scope(name):
            return self.shape_tensor()[:-2]

    def tensor_rank(self, name="tensor_rank"):
        """The static rank `b + 2` (a Python int, or None)."""
        del name
        return self.shape.ndims

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        with self._scope(name):
            if self.shape.ndims is not None:
                return ops.convert_to_tensor(self.shape.ndims, dtype=dtypes.int32)
            return shape_of(self.shape_tensor())[0]

    @property
    def domain_dimension(self):
        """The static number of columns N (a `Dimension`)."""
        s = self.shape
        return s.dims[-1] if s.ndims else TensorShape([None])[0]

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        with self._scope(name):
            d = self.domain_dimension.value
            return ops.convert_to_tensor(d, dtype=dtypes.int32) if d is not None else self.shape_tensor()[-1]

    @property
    def range_dimension(self):
        """The static number of rows M (a `Dimension`)."""
        s = self.shape
        return s.dims[-2] if s.ndims else TensorShape([None])[0]

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        with self._scope(name):
            d = self.range_dimension.value
            return ops.convert_to_tensor(d, dtype=dtypes.int32) if d is not None else self.shape_tensor()[-2]

    # ---- assertions ------------------------------------------------------------------------
    def _max_condition_number_to_be_non_singular(self):
        """TF's limit: 1 / (max(100, M * N) * eps)."""
        m, n = self.range_dimension.value, self.domain_dimension.value
        size = max(100.0, float(m * n)) if m is not None and n is not None else 100.0
        eps = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps
        return 1.0 / (size * eps)

    def assert_non_singular(self, name="assert_non_singular"):
        """An op that raises InvalidArgumentError when run if a matrix is (numerically) singular.

        Returns:
          An `Operation` (or tensor) to run or use as a control dependency.
        """
        with self._scope(name):
            return self._assert_non_singular()

    def _assert_non_singular(self):
        if self._can_use_cholesky():
            return self.assert_positive_definite()
        sv = svd(self.to_dense(), compute_uv=False)
        cond = reduce_max(sv, axis=-1) / reduce_min(sv, axis=-1)
        limit = ops.convert_to_tensor(self._max_condition_number_to_be_non_singular(), dtype=cond.dtype)
        return check_ops.assert_less(cond, limit, message="Singular matrix up to precision epsilon.")

    def assert_positive_definite(self, name="assert_positive_definite"):
        """An op that raises InvalidArgumentError when run if a matrix is not positive definite.

        Raises:
          NotImplementedError: If the operator is not known to be self-adjoint.
        """
        with self._scope(name):
            return self._assert_positive_definite()

    def _assert_positive_definite(self):
        if self.is_self_adjoint:
            from ..ops.linalg_complex_ops import real
            return check_ops.assert_positive(real(matrix_diag_part(cholesky(self.to_dense()))),
                                             message="Matrix was not positive definite.")
        raise NotImplementedError("assert_positive_definite is not implemented.")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        """An op that raises InvalidArgumentError when run if a matrix differs from its adjoint."""
        with self._scope(name):
            return self._assert_self_adjoint()

    def _assert_self_adjoint(self):
        dense = self.to_dense()
        return check_ops.assert_equal(dense, _adjoint(dense), message="Matrix was not equal to its adjoint.")

    def _check_input_dtype(self, arg):
        if arg.dtype.base_dtype != self.dtype:
            raise TypeError("Expected argument to have dtype %s.  Found: %s in tensor %s"
                            % (self.dtype, arg.dtype, arg))

    @contextlib.contextmanager
    def _scope(self, name):
        """The name scope `name` inside the operator's own."""
        with ops.name_scope(self.name):
            with ops.name_scope(name):
                yield

    def _input(self, arg, name):
        """`arg` as a tensor named `name`, checked to have the operator's dtype."""
        arg = ops.convert_to_tensor(arg, name=name)
        self._check_input_dtype(arg)
        return arg

    def _square_only(self, name, method):
        """`method()` in the scope `name`, for a determinant of an operator not known to be non-square."""
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be square.")
        with self._scope(name):
            return method()

    # ---- products and solves ---------------------------------------------------------------
    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return matmul_broadcast(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """Transforms the [batch] matrix `x` with left multiplication: `x --> A x`.

        Args:
          x: A `Tensor` of shape `[..., N, R]` (`[..., R, N]` with `adjoint_arg`) and the
            operator's dtype, or a `LinearOperator` (the result is then their composition).
          adjoint: Whether to multiply by the adjoint `A^H`.
          adjoint_arg: Whether to use the adjoint of `x`.
          name: A name for the ops.

        Returns:
          A `Tensor` of shape `[..., M, R]`, or a `LinearOperator`.

        Raises:
          TypeError: If `x`'s dtype differs from the operator's.
        """
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            from .basic import LinearOperatorComposition
            return LinearOperatorComposition([left, right])
        with self._scope(name):
            return self._matmul(self._input(x, "x"), adjoint=adjoint, adjoint_arg=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def _matvec(self, x, adjoint=False):
        return squeeze(self.matmul(expand_dims(x, -1), adjoint=adjoint), [-1])

    def matvec(self, x, adjoint=False, name="matvec"):
        """Transforms the [batch] vector `x` with left multiplication: `x --> A x`.

        Args:
          x: A `Tensor` of shape `[..., N]` and the operator's dtype.
          adjoint: Whether to multiply by the adjoint.
          name: A name for the ops.

        Returns:
          A `Tensor` of shape `[..., M]`.
        """
        with self._scope(name):
            return self._matvec(self._input(x, "x"), adjoint=adjoint)

    def _determinant(self):
        return matrix_determinant(self.to_dense())

    def determinant(self, name="det"):
        """The determinants, a `Tensor` of shape `batch_shape`.

        Raises:
          NotImplementedError: If the operator is known not to be square.
        """
        return self._square_only(name, self._determinant)

    def _log_abs_determinant(self):
        return slogdet(self.to_dense())[1]

    def log_abs_determinant(self, name="log_abs_det"):
        """The log of the absolute values of the determinants, of shape `batch_shape`.

        Raises:
          NotImplementedError: If the operator is known not to be square.
        """
        return self._square_only(name, self._log_abs_determinant)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if adjoint_arg:
            rhs = _adjoint(rhs)
        return solve_broadcast(self.to_dense(), rhs, adjoint=adjoint)

    def _check_solvable(self):
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to not be square.")

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """Solves `A X = rhs` (or `A^H X = rhs`) for `X`.

        Args:
          rhs: A `Tensor` of shape `[..., M, R]` and the operator's dtype, or a `LinearOperator`
            (the result is then the composition of the inverse with it).
          adjoint: Whether to solve with the adjoint.
          adjoint_arg: Whether to use the adjoint of `rhs`.
          name: A name for the ops.

        Returns:
          A `Tensor` of shape `[..., N, R]`, or a `LinearOperator`.

        Raises:
          NotImplementedError: If the operator is known to be singular or not square.
        """
        self._check_solvable()
        if isinstance(rhs, LinearOperator):
            left = (self.adjoint() if adjoint else self).inverse()
            right = rhs.adjoint() if adjoint_arg else rhs
            from .basic import LinearOperatorComposition
            return LinearOperatorComposition([left, right])
        with self._scope(name):
            return self._solve(self._input(rhs, "rhs"), adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs, adjoint=False):
        return squeeze(self.solve(expand_dims(rhs, -1), adjoint=adjoint), [-1])

    def solvevec(self, rhs, adjoint=False, name="solve"):
        """Solves `A x = rhs` for the [batch] vector `x`.

        Args:
          rhs: A `Tensor` of shape `[..., M]` and the operator's dtype.
          adjoint: Whether to solve with the adjoint.
          name: A name for the ops.

        Returns:
          A `Tensor` of shape `[..., N]`.

        Raises:
          NotImplementedError: If the operator is known to be singular or not square.
        """
        self._check_solvable()
        with self._scope(name):
            return self._solvevec(self._input(rhs, "rhs"), adjoint=adjoint)

    # ---- derived operators -----------------------------------------------------------------
    def adjoint(self, name="adjoint"):
        """The adjoint operator `A^H` (this operator itself when it is self-adjoint)."""
        if self.is_self_adjoint is True:
            return self
        from .basic import LinearOperatorAdjoint
        with self._scope(name):
            return LinearOperatorAdjoint(self)

    H = property(adjoint, None)

    def inverse(self, name="inverse"):
        """The inverse operator `A^-1`.

        Raises:
          ValueError: If the operator is known to be singular or not square.
        """
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
        with self._scope(name):
            return self._linop_inverse()

    def _linop_inverse(self):
        from .basic import LinearOperatorInversion
        return LinearOperatorInversion(self, is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=self.is_square)

    def _can_use_cholesky(self):
        return self.is_self_adjoint and self.is_positive_definite

    def cholesky(self, name="cholesky"):
        """The Cholesky factor `L` (`A = L L^H`) as a lower-triangular operator.

        Raises:
          ValueError: If the operator is not known to be self-adjoint and positive definite.
        """
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite self adjoint matrix.")
        with self._scope(name):
            return self._linop_cholesky()

    def _linop_cholesky(self):
        from .basic import LinearOperatorLowerTriangular
        return LinearOperatorLowerTriangular(cholesky(self.to_dense()), is_non_singular=True, is_self_adjoint=False,
                                             is_square=True)

    # ---- dense views -----------------------------------------------------------------------
    def _to_dense(self):
        raise NotImplementedError("_to_dense is not implemented.")

    def to_dense(self, name="to_dense"):
        """The dense matrices, a `Tensor` of shape `batch_shape + [M, N]`."""
        with self._scope(name):
            return self._to_dense()

    def _diag_part(self):
        return matrix_diag_part(self.to_dense())

    def diag_part(self, name="diag_part"):
        """The diagonals, a `Tensor` of shape `batch_shape + [min(M, N)]`."""
        with self._scope(name):
            return self._diag_part()

    def _trace(self):
        return reduce_sum(self.diag_part(), axis=-1)

    def trace(self, name="trace"):
        """The traces, a `Tensor` of shape `batch_shape`."""
        with self._scope(name):
            return self._trace()

    def _add_to_tensor(self, x):
        return self.to_dense() + x

    def add_to_tensor(self, x, name="add_to_tensor"):
        """Returns `A + x` for a `Tensor` `x` of the operator's shape (broadcast)."""
        with self._scope(name):
            x = ops.convert_to_tensor(x, name="x")
            self._check_input_dtype(x)
            return self._add_to_tensor(x)

    def _eigvals(self):
        return self_adjoint_eigvals(self.to_dense())

    def eigvals(self, name="eigvals"):
        """The eigenvalues (ascending) of self-adjoint operators.

        Raises:
          NotImplementedError: If the operator is not known to be self-adjoint.
        """
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        with self._scope(name):
            return self._eigvals()

    def _cond(self):
        if not self.is_self_adjoint:
            vals = svd(self.to_dense(), compute_uv=False)
        else:
            vals = _abs(self._eigvals())
        return reduce_max(vals, axis=-1) / reduce_min(vals, axis=-1)

    def cond(self, name="cond"):
        """The condition numbers (ratio of the largest to the smallest singular value)."""
        with self._scope(name):
            return self._cond()

    def __repr__(self):
        return "<tf.linalg.%s '%s' is_non_singular=%s is_self_adjoint=%s is_positive_definite=%s is_square=%s>" % (
            type(self).__name__, self.name, self.is_non_singular, self.is_self_adjoint, self.is_positive_definite,
            self._is_square_set_or_implied_by_hints)


def matrix_inverse_dense(op):
    return matrix_inverse(op.to_dense())
