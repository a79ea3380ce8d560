"""Math ops: element-wise arithmetic with broadcasting, unary functions, matmul/tensordot/einsum,
reductions, arg-max/min, cumulative sums and products, casts, comparisons, logical ops, and the
arithmetic/comparison operators of `tf.Tensor`.

The family is split into modules of one kind of op each: `math_helpers` (shared helpers),
`math_binary_ops` (element-wise binary ops, comparisons, logical ops), `math_bitwise_ops` (the
bitwise ops of integers, `tf.bitwise`), `math_unary_ops` (element-wise unary ops, Cast),
`math_matmul_ops` (MatMul, Einsum, tensordot), `math_reduce_ops` (reductions, ArgMax/ArgMin),
`math_scan_ops` (Cumsum/Cumprod, accumulate_n, the `tf.Tensor` operators) and
`math_rewrites` (plan rewrites). This module re-exports their public names; importing it registers
the whole family.
"""

from . import (
    math_bitwise_ops,  # noqa: F401 (registers the bitwise ops)
    math_rewrites,  # noqa: F401 (registers the family's plan rewrites and their internal ops)
)
from .math_binary_ops import (  # noqa: F401
    add,
    atan2,
    div,
    div_no_nan,
    divide,
    equal,
    floor_div,
    floordiv,
    floormod,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    not_equal,
    pow,
    realdiv,
    scalar_mul,
    squared_difference,
    subtract,
    truediv,
    truncatediv,
    truncatemod,
)
from .math_matmul_ops import einsum, matmul, tensordot  # noqa: F401
from .math_reduce_ops import (  # noqa: F401
    argmax,
    argmin,
    count_nonzero,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_std,
    reduce_sum,
    reduce_variance,
)
from .math_scan_ops import accumulate_n, cumprod, cumsum  # noqa: F401
from .math_unary_ops import (  # noqa: F401
    abs,
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atanh,
    cast,
    ceil,
    conj,
    cos,
    cosh,
    erf,
    erfc,
    exp,
    expm1,
    floor,
    is_finite,
    is_inf,
    is_nan,
    log,
    log1p,
    logical_not,
    negative,
    reciprocal,
    rint,
    round,
    rsqrt,
    saturate_cast,
    sigmoid,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    tan,
    tanh,
    to_double,
    to_float,
    to_int32,
    to_int64,
)
