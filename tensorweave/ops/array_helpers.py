"""Array ops: the helpers every module of the family shares (static shapes and values, TF's
shape-function messages, conversion of shape and index arguments)."""

import builtins

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.errors import _invalid_argument as _invalid  # noqa: F401 (the family's modules import it here)
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor_shape import Dimension, TensorShape

newaxis = None

# This module defines `slice` and `range` (TF's names); Python's own are used under these names.
_pslice = builtins.slice
_prange = builtins.range

_INDEX_DTYPES = (dtypes.int32, dtypes.int64)


# ---- helpers ---------------------------------------------------------------------------------
def _dims(t):
    return t._shape.as_tuple()


def _fmt(dims):
    """A shape as TF's C++ shape functions print it: [2,?,3] or ? for an unknown rank."""
    if dims is None:
        return "?"
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)


def _check_dtype(t, allowed, arg, op_type):
    if t._dtype not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (arg, t._dtype.name, ", ".join(d.name for d in allowed)))


def _with_rank(t, rank):
    s = _dims(t)
    if s is not None and len(s) != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(s)))


def _with_rank_at_least(dims, rank):
    if dims is not None and len(dims) < rank:
        raise ValueError("Shape must be at least rank %d but is rank %d" % (rank, len(dims)))


def _merge_dims(a, b):
    """The merge of two static shapes (tuples or None), with TF's shape-function messages."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(a), len(b)))
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x is not None and y is not None and x != y:
            raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s and %s."
                             % (i, x, y, _fmt(a), _fmt(b)))
        out.append(x if x is not None else y)
    return tuple(out)


def _value(t):
    """The statically known NumPy value of `t` (shape inference's constant folding), or None."""
    return tensor_util._static_value(t)


def _int_list(v):
    return [int(x) for x in np.reshape(v, -1)]


def _outputs_list(result):
    """`apply_op`'s result for a variadic-output op as a list (one Tensor or none included)."""
    if isinstance(result, ops.Tensor):
        return [result]
    if isinstance(result, ops.Operation):
        return []
    return list(result)


def _to_shape_tensor(value, name=None, dtype=None):
    """Converts a shape argument (list with ints/Dimensions/Tensors, TensorShape, Tensor) to a Tensor."""
    if isinstance(value, TensorShape):
        if not value.is_fully_defined():
            raise ValueError("Cannot convert a partially known TensorShape to a Tensor: %s" % value)
        value = value.as_list()
    elif isinstance(value, (list, tuple)):
        value = [d.value if isinstance(d, Dimension) else d for d in value]
        if not value:
            value = np.zeros([0], dtype=(dtype or dtypes.int32).as_numpy_dtype)
    elif isinstance(value, Dimension):
        value = value.value
    if dtype is not None:
        return ops.convert_to_tensor(value, name=name, dtype=dtype)
    return ops.convert_to_tensor(value, name=name, preferred_dtype=dtypes.int32)


def _index_tensor(value, name=None):
    return ops.convert_to_tensor(value, name=name, preferred_dtype=dtypes.int32)


def _index_tensors(values, names):
    """Converts index arguments sharing one dtype attr: non-tensors take the first Tensor's dtype
    (int32 when there is none)."""
    dtype = next((v.dtype for v in values if ops.is_tensor(v)), None)
    return [ops.convert_to_tensor(v) if ops.is_tensor(v) else _to_shape_tensor(v, name=n, dtype=dtype)
            for v, n in zip(values, names)]


def _convert_same_dtype(values, arg, op_type):
    """Converts a list of values sharing one dtype: non-tensors take the first tensor's dtype.

    Raises:
      TypeError: If the values' dtypes don't all match.
    """
    dtype = None
    for v in values:
        if ops.is_tensor(v) or isinstance(v, IndexedSlices):
            dtype = v.dtype
            break
    out = []
    for v in values:
        try:
            t = ops.convert_to_tensor(v, dtype=dtype if not ops.is_tensor(v) else None)
        except (TypeError, ValueError):
            t = ops.convert_to_tensor(v)
        out.append(t)
    if any(t.dtype is not out[0].dtype for t in out):
        raise TypeError("Tensors in list passed to '%s' of '%s' Op have types [%s] that don't all match."
                        % (arg, op_type, ", ".join(t.dtype.name for t in out)))
    return out


def _check_same_dtype(tensors, op_type):
    for t in tensors[1:]:
        if t._dtype is not tensors[0]._dtype:
            raise TypeError("Inputs to %s must all have the same dtype, got %s and %s"
                            % (op_type, tensors[0]._dtype.name, t._dtype.name))


def _math():
    from . import math_ops
    return math_ops
