"""`tf.math`: the math functions under their `tf.math.*` names (each defined in `ops.math_ops`)."""

from .ops.core_ops import add_n
from .ops.math_misc_ops import (
    confusion_matrix,
    cumulative_logsumexp,
    multiply_no_nan,
    nextafter,
    reciprocal_no_nan,
    reduce_euclidean_norm,
)
from .ops.math_ops import (  # noqa: A004
    abs,
    accumulate_n,
    acos,
    acosh,
    add,
    argmax,
    argmin,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    ceil,
    conj,
    cos,
    cosh,
    count_nonzero,
    cumprod,
    cumsum,
    div_no_nan,
    divide,
    equal,
    erf,
    erfc,
    exp,
    expm1,
    floor,
    floordiv,
    floormod,
    greater,
    greater_equal,
    is_finite,
    is_inf,
    is_nan,
    less,
    less_equal,
    log,
    log1p,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    not_equal,
    pow,
    reciprocal,
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
    rint,
    round,
    rsqrt,
    scalar_mul,
    sigmoid,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    squared_difference,
    subtract,
    tan,
    tanh,
    truediv,
    truncatediv,
    truncatemod,
)
from .ops.math_special_ops import (
    bessel_i0,
    bessel_i0e,
    bessel_i1,
    bessel_i1e,
    betainc,
    digamma,
    erfcinv,
    erfinv,
    igamma,
    igammac,
    lbeta,
    lgamma,
    log_sigmoid,
    ndtri,
    polygamma,
    xdivy,
    xlog1py,
    xlogy,
    zeta,
)
from .ops.nn_ops import l2_normalize, log_softmax, softplus
from .ops.segment_ops import (
    bincount,
    segment_max,
    segment_mean,
    segment_min,
    segment_prod,
    segment_sum,
    unsorted_segment_max,
    unsorted_segment_mean,
    unsorted_segment_min,
    unsorted_segment_prod,
    unsorted_segment_sqrt_n,
    unsorted_segment_sum,
)

divide_no_nan = div_no_nan

__all__ = ["abs", "accumulate_n", "acos", "acosh", "add", "add_n", "argmax", "argmin", "asin", "asinh", "atan", "atan2",
           "atanh", "ceil", "conj", "cos", "cosh", "count_nonzero", "cumprod", "cumsum", "div_no_nan", "divide",
           "divide_no_nan", "equal", "erf", "erfc", "exp", "expm1", "floor", "floordiv", "floormod", "greater",
           "greater_equal", "is_finite", "is_inf", "is_nan", "less", "less_equal", "log", "log1p", "logical_and",
           "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply", "negative", "not_equal",
           "pow", "reciprocal", "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max", "reduce_mean",
           "reduce_min", "reduce_prod", "reduce_std", "reduce_sum", "reduce_variance", "rint", "round", "rsqrt",
           "scalar_mul", "sigmoid", "sign", "sin", "sinh", "sqrt", "square", "squared_difference", "subtract", "tan",
           "tanh", "truediv", "truncatediv", "truncatemod"]
__all__ += ["l2_normalize", "log_softmax", "softplus"]
__all__ += ["bincount", "segment_max", "segment_mean", "segment_min", "segment_prod", "segment_sum",
            "unsorted_segment_max", "unsorted_segment_mean", "unsorted_segment_min", "unsorted_segment_prod",
            "unsorted_segment_sqrt_n", "unsorted_segment_sum"]
__all__ += ["bessel_i0e", "bessel_i1e", "betainc", "digamma", "erfinv", "lbeta", "lgamma", "log_sigmoid", "ndtri",
            "polygamma", "xdivy", "xlog1py", "xlogy", "zeta"]
__all__ += ["confusion_matrix", "cumulative_logsumexp", "nextafter", "reduce_euclidean_norm"]
__all__ += ["bessel_i0", "bessel_i1", "erfcinv", "igamma", "igammac", "multiply_no_nan", "reciprocal_no_nan"]
# TF 1.x exports these under tf.math too.
from .ops.array_permute_ops import invert_permutation  # noqa: E402
from .ops.array_select_ops import top_k  # noqa: E402
from .ops.check_ops import is_non_decreasing, is_strictly_increasing  # noqa: E402
from .ops.nn_activation_ops import softmax, softsign  # noqa: E402
from .ops.nn_layer_ops import in_top_k  # noqa: E402

__all__ += ["in_top_k", "invert_permutation", "is_non_decreasing", "is_strictly_increasing", "softmax", "softsign",
            "top_k"]

# [complex numbers, tf.math.special]
from . import math_special_ns as special  # noqa: E402
from .ops.linalg_complex_ops import angle, imag, polyval, real  # noqa: E402

__all__ += ["angle", "imag", "polyval", "real", "special"]
# [zero_fraction]
from .ops.nn_misc_ops import zero_fraction  # noqa: E402

__all__ += ["zero_fraction"]
