"""`tf.dtypes`: the element types and the conversions between them (each defined once elsewhere)."""

from .framework.dtypes import (  # noqa: A004
                               QUANTIZED_DTYPES,
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
                               qint8,
                               qint16,
                               qint32,
                               quint8,
                               quint16,
                               resource,
                               string,
                               uint8,
                               uint16,
                               uint32,
                               uint64,
                               variant,
)
from .framework.dtypes import bool_ as bool
from .ops.math_ops import cast, saturate_cast

__all__ = ["DType", "QUANTIZED_DTYPES", "as_dtype", "bool", "cast", "complex64", "complex128", "double", "float16",
           "float32", "float64", "half", "int8", "int16", "int32", "int64", "qint8", "qint16", "qint32", "quint8",
           "quint16", "resource", "saturate_cast", "string", "uint8", "uint16", "uint32", "uint64", "variant"]
# TF 1.x exports these under tf.dtypes too.
from .ops.linalg_complex_ops import complex  # noqa: E402,A004
from .ops.string_basic_ops import as_string  # noqa: E402

__all__ += ["as_string", "complex"]
