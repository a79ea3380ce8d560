"""Math ops: the dtype lists and helpers every module of the family shares (name scopes,
dtype conversion and checks, broadcasting shape inference, `_binary`)."""

import numbers

import numpy as np

from ..framework import dtypes, errors, ops, registry, tensor_util
from ..framework.constant_op import scalar_array

_FLOAT = (dtypes.float16, dtypes.float32, dtypes.float64)
_COMPLEX = (dtypes.complex64, dtypes.complex128)
_INT = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16)
_REAL = _FLOAT + _INT
_NUMERIC = _REAL + _COMPLEX
_FLOAT_COMPLEX = _FLOAT + _COMPLEX
_BOOL = (dtypes.bool_,)
_ALL = _NUMERIC + (dtypes.bool_, dtypes.string)
_SIGNED = _FLOAT + (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64) + _COMPLEX  # TF's Neg, Sign
_SIGNED_REAL = _FLOAT + (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)  # TF's Abs
_INT32_64 = (dtypes.int32, dtypes.int64)

# TF's names of the data types in kernel messages ("DT_FLOAT") and in Cast's ("float").
_TF_ENUM = {dtypes.float16: "DT_HALF", dtypes.float32: "DT_FLOAT", dtypes.float64: "DT_DOUBLE",
            dtypes.int8: "DT_INT8", dtypes.int16: "DT_INT16", dtypes.int32: "DT_INT32", dtypes.int64: "DT_INT64",
            dtypes.uint8: "DT_UINT8", dtypes.uint16: "DT_UINT16", dtypes.bool_: "DT_BOOL",
            dtypes.complex64: "DT_COMPLEX64", dtypes.complex128: "DT_COMPLEX128", dtypes.string: "DT_STRING"}


# ---- helpers shared by every op of the family ---------------------------------------------
class _op_scope:  # noqa: N801 (used like a function in `with`)
    """Enters the graph of `values` and the op's name scope (gives the scope, ending in "/")."""

    __slots__ = ("_default", "_scope")

    def __init__(self, name, default_name, values):
        d = ops._eager_default()
        if d is not None and ops._all_eager(values):
            self._default = None  # executing eagerly: the default graph is where the op runs
            self._scope = d.name_scope(default_name if name is None else name)
            return
        g = ops._graph_of(values)
        self._default = g.as_default()
        self._scope = g.name_scope(default_name if name is None else name)

    def __enter__(self):
        if self._default is None:
            return self._scope.__enter__()
        self._default.__enter__()
        try:
            return self._scope.__enter__()
        except BaseException:
            self._default.__exit__(None, None, None)
            raise

    def __exit__(self, *exc):
        self._scope.__exit__(*exc)
        if self._default is not None:
            self._default.__exit__(*exc)


def _is_python_value(v):
    if type(v) is ops.Tensor:
        return False
    return isinstance(v, (numbers.Number, str, bytes, list, tuple, np.ndarray, np.generic))


def _convert_same(values, names, op_type):
    """Converts inputs sharing one dtype attribute as TF's op_def_library does: Python and NumPy
    values take the dtype of the first tensor among them.

    Raises:
      TypeError: If the tensors' dtypes differ.
    """
    if len(values) == 2 and isinstance(values[0], ops.Tensor) and isinstance(values[1], ops.Tensor):
        if values[0]._dtype is values[1]._dtype:  # the common case: nothing to convert
            return list(values)
    out = [None] * len(values)
    dt = None
    for i, v in enumerate(values):
        if not _is_python_value(v):
            out[i] = ops.convert_to_tensor(v, name=names[i])
            dt = dt or out[i].dtype
    for i, v in enumerate(values):
        if out[i] is None:
            out[i] = ops.convert_to_tensor(v, name=names[i], preferred_dtype=dt)
            dt = dt or out[i].dtype
    for i in range(1, len(out)):
        if out[i].dtype is not out[0].dtype:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument '%s'."
                            % (names[i], op_type, out[i].dtype.name, out[0].dtype.name, names[0]))
    return out


def _check_dtype(t, allowed, param="x"):
    """Raises TypeError, as TF's op_def_library, if `t`'s dtype is not in `allowed`."""
    if t.dtype not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (param, t.dtype.name, ", ".join(d.name for d in allowed)))


def _no_kernel(op_type, dtype, registered):
    """The InvalidArgumentError TF's executor raises for an op whose type attribute `T` is allowed
    by the op's definition but has no CPU kernel (`dtype`: a NumPy dtype or DType; `registered`:
    the DTypes TF has kernels for)."""
    dt = dtypes.as_dtype(dtype)
    return errors.InvalidArgumentError(
        None, None, "No OpKernel was registered to support Op '%s' with these attrs: [T=%s]\n"
        "Registered devices: [CPU]\nRegistered kernels:\n%s"
        % (op_type, _TF_ENUM[dt], "\n".join("  device='CPU'; T in [%s]" % _TF_ENUM[d] for d in registered)))


def _dims_text(shape):
    """A shape as TF's messages print it: `[2,3]`."""
    return "[%s]" % ",".join(str(int(d)) for d in shape)


def _broadcast_shapes(a, b):
    """The static shape of broadcasting shapes `a` and `b` (tuples of ints/None, or None).

    Raises:
      ValueError: If two known dimensions differ and neither is 1.
    """
    if a is None or b is None:
        return None
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        da = a[-i] if i <= len(a) else 1
        db = b[-i] if i <= len(b) else 1
        if da == 1:
            out.append(db)
        elif db == 1 or db is None:
            out.append(da)
        elif da is None or da == db:
            out.append(db)
        else:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (da, db))
    return tuple(reversed(out))


def _broadcast_infer(op):
    x, y = op._inputs
    return [(x._dtype, _broadcast_shapes(x._shape.as_tuple(), y._shape.as_tuple()))]


def _compare_infer(op):
    x, y = op._inputs
    return [(dtypes.bool_, _broadcast_shapes(x._shape.as_tuple(), y._shape.as_tuple()))]


def _const_value(t):
    """The value of `t` when shape inference can compute it (a constant subgraph), else None."""
    return tensor_util._static_value(t)


def _check_int_divisor(x, y):
    """TF's error for an integer division by zero (none when the broadcast result is empty)."""
    if y.dtype.kind in "iu" and x.size and not np.all(y):
        raise errors.InvalidArgumentError(None, None, "Integer division by zero")


_OUTPUT_IS_X = {}  # op type -> whether its output dtype is its first input's (its infer is `_broadcast_infer`)


def _eager_operands(x, y):
    """[x, y] as eager tensors of one dtype, if they are, or if one is and the other a Python scalar
    that converts to its dtype without fail (`constant_op.scalar_array`); else None."""
    eager = ops._EAGER_TYPES
    if type(x) in eager:
        if type(y) in eager:
            return [x, y] if x._dtype is y._dtype else None
        a = scalar_array(y, x._dtype)
        return None if a is None else [x, ops._eager_make[0](a, x._dtype)]
    if type(y) in eager:
        a = scalar_array(x, y._dtype)
        return None if a is None else [ops._eager_make[0](a, y._dtype), y]
    return None


def _binary(op_type, x, y, name, allowed, default_name=None, names=("x", "y")):
    """Converts `x`, `y` to one dtype, checks it, and adds the broadcasting binary op."""
    if name is None and (type(x) in ops._EAGER_TYPES or type(y) in ops._EAGER_TYPES):
        d = ops._eager_default()
        if d is not None and not d._name_stack:
            inputs = _eager_operands(x, y)
            if inputs is not None and inputs[0]._dtype in allowed:  # eagerly, converted as below: to the kernel
                typed = _OUTPUT_IS_X.get(op_type)
                if typed is None:
                    typed = _OUTPUT_IS_X[op_type] = registry.get_op_def(op_type).infer is _broadcast_infer
                if typed:
                    return ops._eager_run_typed[0](op_type, inputs, None, inputs[0]._dtype,
                                                   (default_name or op_type) + "/")
                res = ops._eager_run[0](op_type, inputs, None, (default_name or op_type) + "/")
                return res[0] if type(res) is list else res._outputs[0]
    with _op_scope(name, default_name or op_type, [x, y]) as scope:
        x, y = _convert_same([x, y], names, op_type)
        _check_dtype(x, allowed, names[0])
        return ops.apply_op(op_type, [x, y], name=scope)


# Elementwise ops that cost tens of cycles per element (a libm-style evaluation), not one.
_TRANSCENDENTAL = frozenset({"Acos", "Acosh", "Asin", "Asinh", "Atan", "Atan2", "Atanh", "Cos", "Cosh", "Erf", "Erfc",
                             "Exp", "Expm1", "Log", "Log1p", "Pow", "Sigmoid", "Sin", "Sinh", "Tan", "Tanh"})
