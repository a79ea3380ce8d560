"""`tf.constant` and the conversion of Python/NumPy values to tensors. The "Const" op type it builds is
registered in `ops/constant_op.py`."""

import numbers

import numpy as np

from . import dtypes, ops
from .tensor_shape import Dimension, TensorShape

_EMPTY = object()  # an empty sequence fits any dtype (float32 when none is asked for)


_INT32_MIN, _INT32_LIMIT = -2 ** 31, 2 ** 31


_INEXACT = frozenset((dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128))
_INT_RANGES = {dtypes.int32: (_INT32_MIN, _INT32_LIMIT), dtypes.int64: (-2 ** 63, 2 ** 63)}


def scalar_array(value, dtype):
    """`to_numpy(value, dtype)` for a Python float or int (not a bool) whose conversion cannot fail:
    into a floating or complex dtype, or an int in range into int32/int64. None otherwise: the
    caller then converts the full way, which raises TF's errors."""
    tv = type(value)
    if tv is float or tv is int:
        if dtype in _INEXACT:
            return np.array(value, dtype=dtype.as_numpy_dtype)
        if tv is int:
            bounds = _INT_RANGES.get(dtype)
            if bounds is not None and bounds[0] <= value < bounds[1]:
                return np.array(value, dtype=dtype.as_numpy_dtype)
    return None


def _infer_python_dtype(value):
    """The dtype TF infers for a (nested) Python value: int32/int64, float32, bool, complex128, string."""
    tv = type(value)
    if tv is float:
        return dtypes.float32
    if tv is int:
        return dtypes.int32 if _INT32_MIN <= value < _INT32_LIMIT else dtypes.int64
    flat = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, np.ndarray):
            flat.append(v)
        else:
            flat.append(v)
    kinds = set()
    big = False
    for v in flat:
        if isinstance(v, np.ndarray) or isinstance(v, np.generic):
            return None
        if isinstance(v, (bool, np.bool_)):
            kinds.add("b")
        elif isinstance(v, numbers.Integral):
            kinds.add("i")
            if not -2 ** 31 <= int(v) < 2 ** 31:
                big = True
        elif isinstance(v, numbers.Real):
            kinds.add("f")
        elif isinstance(v, numbers.Complex):
            kinds.add("c")
        elif isinstance(v, (str, bytes)):
            kinds.add("s")
        elif v is None:
            raise ValueError("None values not supported.")
        else:
            raise TypeError("Failed to convert object of type %s to Tensor. Contents: %s. Consider casting "
                            "elements to a supported type." % (type(value), value))
    if not kinds:
        return _EMPTY
    if "s" in kinds:
        if len(kinds) > 1:
            raise TypeError("Failed to convert object of type %s to Tensor. Contents: %s." % (type(value), value))
        return dtypes.string
    if "c" in kinds:
        return dtypes.complex128
    if "f" in kinds:
        return dtypes.float32
    if "i" in kinds:
        return dtypes.int64 if big else dtypes.int32
    return dtypes.bool_


def _to_bytes_array(value):
    def enc(v):
        if isinstance(v, str):
            return v.encode("utf-8")
        if isinstance(v, (bytes, np.bytes_)):
            return bytes(v)
        raise TypeError("Expected string, got %r of type '%s' instead." % (v, type(v).__name__))

    arr = np.asarray(value, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    for idx in np.ndindex(arr.shape):
        out[idx] = enc(arr[idx])
    return out


def to_numpy(value, dtype=None):
    """Converts a Python/NumPy value to an ndarray of the dtype TF would give it.

    Raises:
      TypeError: If the value does not fit `dtype` (e.g. 1.5 for int32), as TF does.
      ValueError: If the value is ragged or contains None.
    """
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
        tv = type(value)
        if (tv is float or tv is int) and (dtype.is_floating or dtype.is_complex):  # the common `x * 0.5`
            return np.array(value, dtype=dtype.as_numpy_dtype)
    if isinstance(value, ops.Tensor) and callable(getattr(value, "numpy", None)):
        value = value.numpy()  # an eager tensor's value
    if isinstance(value, (np.ndarray, np.generic)):
        if dtype is None:
            if value.dtype.kind in "SUO":
                return _to_bytes_array(value)
            dtypes.as_dtype(value.dtype)
            return np.asarray(value)
        if dtype is dtypes.string:
            return _to_bytes_array(value)
        return np.asarray(value).astype(dtype.as_numpy_dtype, copy=False)
    inferred = _infer_python_dtype(value)
    if inferred is None:  # a list holding NumPy arrays/scalars
        arr = np.asarray(value)
        if arr.dtype == object:
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
        if dtype is None and arr.dtype == np.float64:  # TF prefers 32 bits for Python sequences
            arr = arr.astype(np.float32)
        elif dtype is None and arr.dtype == np.int64 and np.array_equal(arr.astype(np.int32), arr):
            arr = arr.astype(np.int32)
        return to_numpy(arr, dtype)
    if inferred is _EMPTY:
        inferred = dtypes.float32 if dtype is None else dtype
    if dtype is None:
        dtype = inferred
    if dtype is dtypes.string:
        return _to_bytes_array(value)
    if inferred is dtypes.string:
        raise TypeError("Expected %s, got %r of type '%s' instead." % (dtype.name, value, type(value).__name__))
    if dtype.is_integer and inferred in (dtypes.float32, dtypes.complex128) or (
            dtype.is_floating and inferred is dtypes.complex128) or (
            dtype.is_bool and inferred is not dtypes.bool_):
        bad = _first_bad(value, dtype)
        raise TypeError("Expected %s, got %r of type '%s' instead." % (dtype.name, bad, type(bad).__name__))
    try:
        arr = np.array(value, dtype=dtype.as_numpy_dtype)
    except OverflowError:
        raise ValueError("Value %r is out of range for dtype %s" % (value, dtype.name)) from None
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if dtype.is_integer:
        ref = np.array(value, dtype=np.int64) if not isinstance(value, bool) else None
        if ref is not None and not np.array_equal(ref, arr):
            raise ValueError("Value %r is out of range for dtype %s" % (value, dtype.name))
    return arr


def _first_bad(value, dtype):
    stack = [value]
    while stack:
        v = stack.pop(0)
        if isinstance(v, (list, tuple)):
            stack = list(v) + stack
        elif dtype.is_bool and not isinstance(v, bool) or not dtype.is_bool and not isinstance(v, numbers.Integral):
            if not (dtype.is_floating and isinstance(v, numbers.Real)):
                return v
    return value


_FAST_LITERALS = (float, list)


def _fast_literal_dtype(value):
    """float32 for a Python float or a non-empty list (of lists) of Python floats; else None."""
    if type(value) is float:
        return dtypes.float32
    if not value:
        return None
    if type(value[0]) is list:
        n = len(value[0])
        for row in value:
            if type(row) is not list or len(row) != n or not n:
                return None
            for v in row:
                if type(v) is not float:
                    return None
        return dtypes.float32
    for v in value:
        if type(v) is not float:
            return None
    return dtypes.float32


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """Creates a constant tensor, as `tf.constant`.

    Args:
      value: A Python value or NumPy array.
      dtype: Optional element type; inferred as TF does when None.
      shape: Optional shape; a scalar is broadcast to it, an equally sized value is reshaped.
      name: Op name.
      verify_shape: If true, `value`'s shape must equal `shape`.

    Returns:
      A `Tensor`.

    Raises:
      TypeError: If `value` does not fit `dtype`.
      ValueError: If `value` does not fit `shape`.
    """
    eager = ops._eager_default() is not None
    if eager and dtype is None and shape is None and type(value) in _FAST_LITERALS:
        inferred = _fast_literal_dtype(value)
        if inferred is not None:  # a float or a matrix of floats, executing eagerly: its value as it is
            arr = np.array(value, dtype=inferred.as_numpy_dtype)
            arr.flags.writeable = False
            return ops._eager_make[0](arr, inferred)
    arr = to_numpy(value, dtype)
    if shape is not None:
        shape = tuple(int(d) for d in (shape.as_list() if hasattr(shape, "as_list") else shape))
        if arr.shape != shape:
            if verify_shape:
                raise TypeError("Expected Tensor's shape: %s, got %s." % (shape, arr.shape))
            size = int(np.prod(shape, dtype=np.int64))
            if size == 0:
                arr = np.empty(shape, dtype=arr.dtype)
            elif arr.size > size:
                raise ValueError("Too many elements provided. Needed at most %d, but received %d"
                                 % (size, arr.size))
            if size:
                flat = arr.reshape(-1)
                if flat.size < size:  # TF1 repeats the last value (zeros when there is none)
                    fill = flat[-1:] if flat.size else np.zeros(1, dtype=arr.dtype)
                    flat = np.concatenate([flat, np.repeat(fill, size - flat.size)])
                arr = flat.reshape(shape)
    dt = dtypes.as_dtype(arr.dtype) if arr.dtype != object else dtypes.string
    if arr.flags.writeable and arr.base is not None or arr is value:
        arr = arr.copy()
    arr.flags.writeable = False
    if eager:  # an eager constant is its value (the Const kernel returns it as it is)
        return ops._eager_make[0](arr, dt)
    return ops.apply_op("Const", [], {"value": arr, "dtype": dt}, name=name)


ops._constant_fn[0] = constant


def _convert_shape(s, dtype=None, name=None, as_ref=False):
    """A fully defined TensorShape converts to its dims (int32 unless they need int64).

    Raises:
      ValueError: If the shape is not fully defined.
    """
    if not s.is_fully_defined():
        raise ValueError("Cannot convert a partially known TensorShape to a Tensor: %s" % s)
    dims = s.as_list()
    if dtype is None:
        dtype = dtypes.int64 if any(d >= 2 ** 31 for d in dims) else dtypes.int32
    return constant(dims, dtype=dtype, name=name or "Const")


def _convert_dimension(d, dtype=None, name=None, as_ref=False):
    if d.value is None:
        raise ValueError("Cannot convert an unknown Dimension to a Tensor: %s" % d)
    return constant(d.value, dtype=dtype or dtypes.int32, name=name or "Const")


ops.register_tensor_conversion_function(TensorShape, _convert_shape, 100)
ops.register_tensor_conversion_function(Dimension, _convert_dimension, 100)
