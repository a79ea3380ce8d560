"""`tf.dtypes`: the element types and the conversions between them (each defined once elsewhere)."""

from .framework.dtypes import (  # noqa: A004
                               DType,
                               as_dtype,
                               complex64,
                               complex128,
                               double,
                               float16,
                               float32,
                               float64,
                               half,
                               int8,
                               int16,
                               int32,
                               int64,
                               string,
                               uint8,
                               uint16,
                               variant,
)
from .framework.dtypes import bool_ as bool
from .ops.math_ops import cast, saturate_cast

__all__ = ["DType", "as_dtype", "bool", "cast", "complex64", "complex128", "double", "float16", "float32", "float64",
           "half", "int8", "int16", "int32", "int64", "saturate_cast", "string", "uint8", "uint16", "variant"]
