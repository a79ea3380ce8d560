"""`tf.debugging`: asserts, numerics checks and predicates under their `tf.debugging.*` names
(each defined in `ops.check_ops`, `ops.logging_ops`, `ops.numerics` or `ops.math_ops`)."""

from .ops.check_ops import (
    assert_equal,
    assert_greater,
    assert_greater_equal,
    assert_integer,
    assert_less,
    assert_less_equal,
    assert_near,
    assert_negative,
    assert_non_negative,
    assert_non_positive,
    assert_none_equal,
    assert_positive,
    assert_proper_iterable,
    assert_rank,
    assert_rank_at_least,
    assert_rank_in,
    assert_same_float_dtype,
    assert_scalar,
    assert_shapes,
    assert_type,
    is_non_decreasing,
    is_numeric_tensor,
    is_strictly_increasing,
)
from .ops.logging_ops import Assert
from .ops.math_ops import is_finite, is_inf, is_nan
from .ops.numerics import check_numerics
from .ops.numerics import verify_tensor_all_finite as assert_all_finite

__all__ = ["Assert", "assert_all_finite", "assert_equal", "assert_greater", "assert_greater_equal", "assert_integer",
           "assert_less", "assert_less_equal", "assert_near", "assert_negative", "assert_non_negative",
           "assert_non_positive", "assert_none_equal", "assert_positive", "assert_proper_iterable", "assert_rank",
           "assert_rank_at_least", "assert_rank_in", "assert_same_float_dtype", "assert_scalar", "assert_type",
           "check_numerics", "is_finite", "is_inf", "is_nan", "is_non_decreasing", "is_numeric_tensor",
           "is_strictly_increasing"]
__all__ += ["assert_shapes"]
