"""Data types: `tf.float32` and friends, mapped one-to-one onto NumPy dtypes."""

import numpy as np

__all__ = ["DType", "as_dtype"]


class DType:
    """A tensor element type, as `tf.DType`.

    Instances are singletons: compare with `==` or `is`.
    """

    __slots__ = ("_name", "_np", "_enum", "_is_integer")

    def __init__(self, name, np_dtype, enum):
        self._name = name
        self._np = np_dtype
        self._enum = enum
        self._is_integer = np_dtype is not object and np_dtype is not np.bool_ and np.issubdtype(np_dtype, np.integer)

    @property
    def name(self):
        return self._name

    @property
    def as_numpy_dtype(self):
        """The NumPy type (a scalar type, `object` for strings)."""
        return self._np

    @property
    def as_datatype_enum(self):
        return self._enum

    @property
    def base_dtype(self):
        return self

    @property
    def real_dtype(self):
        if self is complex64:
            return float32
        if self is complex128:
            return float64
        return self

    @property
    def is_floating(self):
        return self._np in (np.float16, np.float32, np.float64)

    @property
    def is_integer(self):
        return self._is_integer

    @property
    def is_unsigned(self):
        return self.is_integer and np.issubdtype(self._np, np.unsignedinteger)

    @property
    def is_complex(self):
        return self._np in (np.complex64, np.complex128)

    @property
    def is_bool(self):
        return self._np is np.bool_

    @property
    def is_quantized(self):
        """Whether this is a quantized type (`qint8`, `quint8`, `qint16`, `quint16`, `qint32`)."""
        return self._enum in _QUANTIZED_ENUMS

    @property
    def is_numpy_compatible(self):
        return self._enum not in (_RESOURCE_ENUM, _VARIANT_ENUM)

    @property
    def size(self):
        if self._enum in (_RESOURCE_ENUM, _VARIANT_ENUM, 7):
            return 0
        return np.dtype(self._np).itemsize

    @property
    def min(self):
        if self.is_floating:
            return float(np.finfo(self._np).min)
        if self.is_integer:
            return int(np.iinfo(self._np).min)
        if self.is_quantized:
            raise TypeError("Cannot find minimum value of %s with quantized type %s." % (self, self))
        raise TypeError("Cannot find minimum value of %s." % self._name)

    @property
    def max(self):
        if self.is_floating:
            return float(np.finfo(self._np).max)
        if self.is_integer:
            return int(np.iinfo(self._np).max)
        if self.is_quantized:
            raise TypeError("Cannot find maximum value of %s with quantized type %s." % (self, self))
        raise TypeError("Cannot find maximum value of %s." % self._name)

    def is_compatible_with(self, other):
        return as_dtype(other) is self

    def __eq__(self, other):
        if other is None or type(other) is DType:  # DTypes are singletons
            return other is self
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    # DTypes are singletons: identity hashing agrees with `__eq__` between DTypes and runs in C (dict
    # and set lookups keyed by dtypes are on every eager op's path).
    __hash__ = object.__hash__

    def __repr__(self):
        return "tf." + self._name

    def __str__(self):
        return "<dtype: %r>" % self._name

    def __reduce__(self):
        return (as_dtype, (self._name,))


float16 = DType("float16", np.float16, 19)
float32 = DType("float32", np.float32, 1)
float64 = DType("float64", np.float64, 2)
int8 = DType("int8", np.int8, 6)
int16 = DType("int16", np.int16, 5)
int32 = DType("int32", np.int32, 3)
int64 = DType("int64", np.int64, 9)
uint8 = DType("uint8", np.uint8, 4)
uint16 = DType("uint16", np.uint16, 17)
uint32 = DType("uint32", np.uint32, 22)
uint64 = DType("uint64", np.uint64, 23)
bool_ = DType("bool", np.bool_, 10)
string = DType("string", object, 7)
complex64 = DType("complex64", np.complex64, 8)
complex128 = DType("complex128", np.complex128, 18)
# Opaque values (a TensorArray's storage, a loop's recorded history) carried between ops.
variant = DType("variant", object, 21)
# A handle to a resource (a stack, a queue, a resource variable) as TF names it; carried as an object.
resource = DType("resource", object, 20)
# TF's quantized types: NumPy structured dtypes of one integer field, as TF's `as_numpy_dtype`. They
# name the type (is_quantized, enum, size); no op here computes with them.
qint8 = DType("qint8", np.dtype([("qint8", np.int8)]), 11)
quint8 = DType("quint8", np.dtype([("quint8", np.uint8)]), 12)
qint16 = DType("qint16", np.dtype([("qint16", np.int16)]), 15)
quint16 = DType("quint16", np.dtype([("quint16", np.uint16)]), 16)
qint32 = DType("qint32", np.dtype([("qint32", np.int32)]), 13)
half = float16
double = float64
_QUANTIZED_ENUMS = frozenset((11, 12, 13, 15, 16))
_RESOURCE_ENUM, _VARIANT_ENUM = 20, 21
QUANTIZED_DTYPES = frozenset((qint8, quint8, qint16, quint16, qint32))

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool_, string,
        complex64, complex128, variant, resource, qint8, quint8, qint16, quint16, qint32)
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME.update({"half": float16, "double": float64, "float": float32})
_BY_NP = {np.dtype(d.as_numpy_dtype): d for d in _ALL if d.as_numpy_dtype is not object}
_BY_ENUM = {d.as_datatype_enum: d for d in _ALL}


def as_dtype(type_value):
    """Converts `type_value` (a DType, NumPy dtype, type or name) to a `DType`.

    Raises:
      TypeError: If `type_value` names no supported type.
    """
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        d = _BY_NAME.get(type_value)
        if d is not None:
            return d
    if isinstance(type_value, int) and not isinstance(type_value, bool) and type_value in _BY_ENUM:
        return _BY_ENUM[type_value]
    if type_value is bool:
        return bool_
    if type_value is float:
        return float32
    if type_value is int:
        return int32
    if type_value in (bytes, str, object):
        return string
    try:
        npd = np.dtype(type_value)
    except TypeError:
        npd = None
    if npd is not None:
        if npd.kind in "SUO":
            return string
        d = _BY_NP.get(npd)
        if d is not None:
            return d
    raise TypeError("Cannot convert value %r to a TensorFlow DType." % (type_value,))
