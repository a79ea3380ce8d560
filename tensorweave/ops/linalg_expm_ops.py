"""`tf.linalg.expm`: the matrix exponential by scaling and squaring with Pade approximants (Higham 2005),
built from other ops exactly as TF builds it (tensorflow/python/ops/linalg/linalg_impl.py), so its
values follow TF's choice of approximant and its gradient comes from those ops."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.constant_op import constant
from .array_join_ops import concat
from .array_select_ops import where_v2
from .array_shape_ops import fill, reshape
from .control_flow_ops import cond, while_loop
from .core_ops import shape as shape_of
from .linalg_core_ops import matrix_solve
from .linalg_diag_ops import matrix_diag, matrix_diag_part
from .math_binary_ops import less, maximum, pow
from .math_matmul_ops import matmul
from .math_reduce_ops import reduce_max, reduce_sum
from .math_unary_ops import abs as math_abs
from .math_unary_ops import cast, floor, is_finite, log

_PADE = {
    3: [120.0, 60.0, 12.0],
    5: [30240.0, 15120.0, 3360.0, 420.0, 30.0],
    7: [17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0],
    9: [17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0, 110880.0, 3960.0, 90.0],
    13: [64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
         10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0],
}


def _pade(matrix, order):
    """The Pade approximant's numerator and denominator halves (u, v) of one order."""
    b = [constant(x, matrix.dtype) for x in _PADE[order]]
    ident = matrix_diag(fill(shape_of(matrix_diag_part(matrix)), constant(1, matrix.dtype)))
    m2 = matmul(matrix, matrix)
    if order == 3:
        return matmul(matrix, m2 + b[1] * ident), b[2] * m2 + b[0] * ident
    m4 = matmul(m2, m2)
    if order == 5:
        return (matmul(matrix, m4 + b[3] * m2 + b[1] * ident), b[4] * m4 + b[2] * m2 + b[0] * ident)
    m6 = matmul(m4, m2)
    if order == 7:
        return (matmul(matrix, m6 + b[5] * m4 + b[3] * m2 + b[1] * ident),
                b[6] * m6 + b[4] * m4 + b[2] * m2 + b[0] * ident)
    if order == 9:
        m8 = matmul(m6, m2)
        return (matmul(matrix, m8 + b[7] * m6 + b[5] * m4 + b[3] * m2 + b[1] * ident),
                b[8] * m8 + b[6] * m6 + b[4] * m4 + b[2] * m2 + b[0] * ident)
    tmp_u = matmul(m6, m6 + b[11] * m4 + b[9] * m2) + b[7] * m6 + b[5] * m4 + b[3] * m2 + b[1] * ident
    tmp_v = b[12] * m6 + b[10] * m4 + b[8] * m2
    return matmul(matrix, tmp_u), matmul(m6, tmp_v) + b[6] * m6 + b[4] * m4 + b[2] * m2 + b[0] * ident


def matrix_exponential(input, name=None):  # noqa: A002 (TF's name)
    """Computes the matrix exponential of one or more square matrices (`tf.linalg.expm`).

    Args:
      input: A `Tensor` of shape `[..., M, M]`, of type float16, float32, float64, complex64 or complex128.
      name: A name for the operation (optional).

    Returns:
      The matrix exponentials, of the shape and type of `input` (NaN everywhere when an input is not finite).

    Raises:
      ValueError: If `input` has another dtype.
    """
    with ops.name_scope(name, "matrix_exponential", [input]):
        matrix = ops.convert_to_tensor(input, name="input")
        if matrix.shape.ndims is not None and matrix.shape.as_list()[-2:] == [0, 0]:
            return matrix
        if matrix.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128):
            raise ValueError("tf.linalg.expm does not support matrices of type %s" % matrix.dtype)
        full_shape = shape_of(matrix)
        matrix = reshape(matrix, concat([[-1], full_shape[-2:]], axis=0))
        l1_norm = reduce_max(reduce_sum(math_abs(matrix), axis=1), axis=-1)[..., None, None]

        def const(x):
            return constant(x, l1_norm.dtype)

        def nest_where(vals, cases):
            if len(vals) == 1:
                return where_v2(less(l1_norm, const(vals[0])), cases[0], cases[1])
            return where_v2(less(l1_norm, const(vals[0])), cases[0], nest_where(vals[1:], cases[1:]))

        single = matrix.dtype in (dtypes.float16, dtypes.float32, dtypes.complex64)
        maxnorm = const(3.925724783138660 if single else 5.371920351148152)
        squarings = maximum(floor(log(l1_norm / maxnorm) / log(const(2.0))), const(0.0))
        scaled = matrix / cast(pow(const(2.0), squarings), matrix.dtype)
        if single:
            pairs = [_pade(matrix, 3), _pade(matrix, 5), _pade(scaled, 7)]
            conds = (4.258730016922831e-001, 1.880152677804762e+000)
        else:
            pairs = [_pade(matrix, 3), _pade(matrix, 5), _pade(matrix, 7), _pade(matrix, 9), _pade(scaled, 13)]
            conds = (1.495585217958292e-002, 2.539398330063230e-001, 9.504178996162932e-001,
                     2.097847961257068e+000)
        u = nest_where(conds, [p[0] for p in pairs])
        v = nest_where(conds, [p[1] for p in pairs])
        finite = is_finite(reduce_max(l1_norm))
        nan = constant(np.nan, matrix.dtype)
        result = cond(finite, lambda: matrix_solve(-u + v, u + v), lambda: fill(shape_of(matrix), nan))
        max_squarings = reduce_max(squarings)

        def body(i, r):
            return i + 1, where_v2(less(i, squarings), matmul(r, r), r)

        _, result = while_loop(lambda i, _: cond(finite, lambda: less(i, max_squarings), lambda: constant(False)),
                               body, [const(0.0), result])
        return reshape(result, full_shape)
