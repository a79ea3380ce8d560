"""`EagerTensor`: a `Tensor` holding its value, and the handle of an eager variable."""

import weakref

import numpy as np

from ..framework import constant_op, ops, registry
from ..framework.tensor_shape import TensorShape, as_shape
from ..ops import state_ops  # noqa: F401  (registers VariableV2, the handle's op type)
from . import context

__all__ = ["EagerTensor", "make"]

_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


class _EagerConstOp:
    """What an eager tensor shows as its op: a constant holding its value, so code that folds
    constants (shape inference, `tf.get_static_value`) sees an eager value. It has no inputs, so an
    eager tensor never keeps the tensors it was computed from alive."""

    __slots__ = ("_value", "_dtype")

    _type = type = "Const"
    _name = name = "Const"
    _inputs = _outputs = _control_inputs = ()
    _grad_type = None
    _device = device = _CPU
    _op_def = registry.get_op_def("Const")

    def __init__(self, value, dtype):
        self._value = value
        self._dtype = dtype

    @property
    def _attrs(self):
        return {"value": self._value, "dtype": self._dtype}

    attrs = _attrs

    @property
    def _graph(self):
        return context.eager_graph()

    graph = _graph

    @property
    def inputs(self):
        return ()

    @property
    def outputs(self):
        return []

    @property
    def control_inputs(self):
        return []

    def get_attr(self, name):
        """Returns the attribute `name` ("value" or "dtype").

        Raises:
          ValueError: If there is no such attribute.
        """
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError("Operation 'Const' has no attr named '%s'." % name) from None

    def __repr__(self):
        return "<tf.Operation 'Const' type=Const (eager)>"


class EagerTensor(ops.Tensor):
    """A tensor with a concrete value, returned by ops in eager mode (TF's `EagerTensor`).

    `numpy()` gives the value; Python conversions (`float`, `int`, `bool`, `len`, iteration,
    `np.asarray`) read it. Equality and hashing are by identity, as for every TF1 tensor.
    """

    __slots__ = ("_value", "_id")

    def __init__(self, value, dtype=None):
        arr = constant_op.to_numpy(value, dtype)
        from ..framework import dtypes
        _init(self, arr, dtypes.as_dtype(arr.dtype) if arr.dtype != object else dtypes.string)

    # `_op` and `_shape` (slots of `Tensor`) are made on first use: most eager results are only
    # ever read as values or passed to the next op, which needs neither.
    @property
    def _op(self):
        try:
            return _op_slot.__get__(self)
        except AttributeError:
            op = _EagerConstOp(self._value, self._dtype)
            _op_slot.__set__(self, op)
            return op

    @_op.setter
    def _op(self, op):
        _op_slot.__set__(self, op)

    @property
    def _shape(self):
        try:
            return _shape_slot.__get__(self)
        except AttributeError:
            shape = TensorShape._from_tuple(self._value.shape)
            _shape_slot.__set__(self, shape)
            return shape

    @_shape.setter
    def _shape(self, shape):
        _shape_slot.__set__(self, shape)

    # ---- value -----------------------------------------------------------------------------
    def numpy(self):
        """The value as a NumPy array (a NumPy scalar for a 0-d tensor); a copy the caller owns."""
        v = self._value
        if type(v) is not np.ndarray:
            return v
        return v[()] if v.ndim == 0 else v.copy()

    def _numpy(self):
        return self._value

    def cpu(self):
        return self

    def __array__(self, dtype=None, copy=None):
        v = self._value
        if dtype is not None and v.dtype != dtype:
            return v.astype(dtype)
        return v.copy() if copy else v

    def __bool__(self):
        return bool(self._value)

    def __float__(self):
        return float(self._value)

    def __int__(self):
        return int(self._value)

    def __index__(self):
        return self._value.__index__()

    def __len__(self):
        """The size of the first dimension.

        Raises:
          TypeError: If the tensor is a scalar.
        """
        if not self._value.ndim:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __iter__(self):
        """Iterates over the first dimension (each item an eager tensor, recorded by tapes).

        Raises:
          TypeError: If the tensor is a scalar.
        """
        if not self._value.ndim:
            raise TypeError("Cannot iterate over a scalar tensor.")
        for i in range(self._value.shape[0]):
            yield self[i]

    def __format__(self, format_spec):
        return self.numpy().__format__(format_spec)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    # ---- identity --------------------------------------------------------------------------
    @property
    def name(self):
        raise AttributeError("Tensor.name is meaningless when eager execution is enabled.")

    @property
    def device(self):
        return _CPU

    def eval(self, feed_dict=None, session=None):
        raise NotImplementedError("eval is not supported when eager execution is enabled, is .numpy() the "
                                  "method you want?")

    def _shape_tuple(self):
        return self._shape.as_tuple()

    def _rank(self):
        return self._shape.ndims

    def __repr__(self):
        return "<tf.Tensor: id=%d, shape=%s, dtype=%s, numpy=%s>" % (
            self._id, self._shape, self._dtype.name, _numpy_text(self, True))

    def __str__(self):
        return "tf.Tensor(%s, shape=%s, dtype=%s)" % (_numpy_text(self, False), self._shape, self._dtype.name)


def _numpy_text(t, is_repr):
    v = t.numpy()
    if isinstance(v, np.ndarray):
        text = repr(v) if is_repr else str(v)
    else:
        text = str(v)
    return "\n" + text if "\n" in text else text


_new = object.__new__
_op_slot = ops.Tensor._op
_shape_slot = ops.Tensor._shape
_next_uid = context.next_uid


def _init(t, value, dtype):
    t._value = value
    t._dtype = dtype
    t._value_index = 0
    t._consumers = ()
    t._id = _next_uid()


def make(value, dtype):
    """An eager tensor of `dtype` holding the ndarray `value` (shared, not copied)."""
    t = _new(EagerTensor)
    t._value = value
    t._dtype = dtype
    t._value_index = 0
    t._consumers = ()
    t._id = _next_uid()
    return t


def make_variant(value, dtype, shape):
    """An eager tensor holding a non-array runtime value (a TensorArray's store)."""
    t = _new(EagerTensor)
    t._value = value
    t._dtype = dtype
    t._shape = as_shape(shape)
    t._op = _EagerConstOp(value, dtype)
    t._value_index = 0
    t._consumers = ()
    t._id = context.uid()
    return t


# ---- variable handles -------------------------------------------------------------------------------
class _Consumers(weakref.WeakSet):
    """The ops of traced graphs that use a handle (held weakly: traces die, handles live on)."""

    append = weakref.WeakSet.add


class _HandleOp:
    """The op behind a variable handle: a "VariableV2" whose name is the variable's key, so graphs
    traced by `tf.function` and the plans compiled from them update and read the eager variable
    like a TF1 ref variable."""

    __slots__ = ("_outputs", "_name", "_display_name", "_attrs")

    _type = type = "VariableV2"
    _inputs = _control_inputs = ()
    _grad_type = None
    _device = device = _CPU
    _op_def = registry.get_op_def("VariableV2")
    _site = ("<eager>", 0)
    _id = 0

    def __init__(self, handle, key, display_name):
        self._outputs = [handle]
        self._name = key
        self._display_name = display_name
        self._attrs = {"shape": handle._shape.as_tuple(), "dtype": handle._dtype, "container": "",
                       "shared_name": key}

    @property
    def name(self):
        return self._display_name

    @property
    def _graph(self):
        return context.eager_graph()

    graph = _graph

    @property
    def inputs(self):
        return ()

    @property
    def outputs(self):
        return list(self._outputs)

    @property
    def control_inputs(self):
        return []

    def get_attr(self, name):
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError("Operation '%s' has no attr named '%s'." % (self._display_name, name)) from None

    def __repr__(self):
        return "<tf.Operation '%s' type=VarHandle (eager)>" % self._display_name


class VariableHandle(EagerTensor):
    """The handle of an eager variable: a reference input of assign and optimizer ops (the kernel
    gets `key`), and, used as an ordinary input, the variable's current value."""

    __slots__ = ("_key", "_var", "_read_record")

    @property
    def _value(self):
        return context.context().read_variable(self._key)

    def variable(self):
        """The variable, or None if it is gone."""
        return self._var()

    def __repr__(self):
        return "<tf.Tensor: id=%d, shape=%s, dtype=%s_ref (handle of '%s')>" % (
            self._id, self._shape, self._dtype.name, self._op._display_name)


ops._EAGER_TYPES.update((EagerTensor, VariableHandle))
ops._eager_make[0] = make


def make_handle(key, display_name, dtype, shape, variable):
    h = _new(VariableHandle)
    h._key = key
    h._var = weakref.ref(variable)
    h._read_record = None  # the tapes' record of its reads (eager.tape.variable_read)
    h._dtype = dtype
    h._shape = as_shape(shape)
    h._op = _HandleOp(h, key, display_name)
    h._value_index = 0
    h._consumers = _Consumers()
    h._id = context.uid()
    return h


def is_eager_tensor(x):
    return isinstance(x, EagerTensor)

