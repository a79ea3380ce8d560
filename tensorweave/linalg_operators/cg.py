"""`tf.linalg.experimental.conjugate_gradient`: the (preconditioned) conjugate gradient solver for
self-adjoint positive definite operators, as TF writes it
(tensorflow/python/ops/linalg/sparse/conjugate_gradient.py), on a `while_loop`."""

import collections

from ..framework import dtypes, ops
from ..ops.array_join_ops import concat
from ..ops.array_shape_ops import broadcast_dynamic_shape, broadcast_to, expand_dims, zeros
from ..ops.control_flow_ops import while_loop
from ..ops.core_ops import shape as shape_of
from ..ops.math_binary_ops import greater, less, logical_and
from ..ops.math_reduce_ops import reduce_any, reduce_sum
from ..ops.math_unary_ops import conj
from ..ops.norm_ops import norm

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20, name="conjugate_gradient"):
    """Solves `A x = rhs` for a self-adjoint positive definite operator `A` by conjugate gradients.

    Iterates until every batch member's residual norm is at most `tol * ||rhs||` or `max_iter`
    steps were taken.

    Args:
      operator: A `LinearOperator` with `is_self_adjoint` and `is_positive_definite` True.
      rhs: A `Tensor` `[..., N]` of the operator's dtype.
      preconditioner: An optional `LinearOperator` approximating `A^-1` (self-adjoint positive definite).
      x: An optional `Tensor` `[..., N]`: the initial guess (default zeros).
      tol: The relative tolerance on the residual norm.
      max_iter: The maximum number of iterations.
      name: A name scope for the ops.

    Returns:
      A named tuple `CGState(i, x, r, p, gamma)`: the number of iterations, the solution, the
      residual, the last search direction, and `r . M r` (`||r||^2` without preconditioner).

    Raises:
      ValueError: If the operator is not known to be self-adjoint and positive definite.
    """
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")

    def dot(a, b):
        return reduce_sum(conj(a) * b, axis=-1)

    with ops.name_scope(name):
        rhs = ops.convert_to_tensor(rhs, name="rhs")
        broadcast_shape = broadcast_dynamic_shape(shape_of(rhs)[:-1], operator.batch_shape_tensor())
        if preconditioner is not None:
            broadcast_shape = broadcast_dynamic_shape(broadcast_shape, preconditioner.batch_shape_tensor())
        broadcast_rhs_shape = concat([broadcast_shape, shape_of(rhs)[-1:]], axis=-1)
        r0 = broadcast_to(rhs, broadcast_rhs_shape)
        tol = tol * norm(r0, axis=-1)
        if x is None:
            x = zeros(broadcast_rhs_shape, dtype=rhs.dtype)
        else:
            x = ops.convert_to_tensor(x, name="x", dtype=rhs.dtype)
            r0 = rhs - operator.matvec(x)
        p0 = r0 if preconditioner is None else preconditioner.matvec(r0)
        gamma0 = dot(r0, p0)
        i0 = ops.convert_to_tensor(0, dtype=dtypes.int32)
        max_iter_t = ops.convert_to_tensor(max_iter, dtype=dtypes.int32)

        def stopping_criterion(i, x, r, p, gamma):
            return logical_and(less(i, max_iter_t), reduce_any(greater(norm(r, axis=-1), tol)))

        def cg_step(i, x, r, p, gamma):
            z = operator.matvec(p)
            alpha = gamma / dot(p, z)
            x = x + expand_dims(alpha, -1) * p
            r = r - expand_dims(alpha, -1) * z
            q = r if preconditioner is None else preconditioner.matvec(r)
            new_gamma = dot(r, q)
            beta = new_gamma / gamma
            p = q + expand_dims(beta, -1) * p
            return i + 1, x, r, p, new_gamma

        out = while_loop(stopping_criterion, cg_step, [i0, x, r0, p0, gamma0])
        return CGState(*out)
