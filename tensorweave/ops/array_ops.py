"""Array ops: creating, reshaping, slicing, joining, gathering and scattering tensors, plus
`Tensor.__getitem__` and the auto-packing of lists that hold tensors."""

import builtins
import collections
import numbers
import sys

import numpy as np

from ..framework import dtypes, errors, ops, tensor_util
from ..framework.constant_op import constant
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import NO_GRADIENT, NOT_CONSTANT, register_op
from ..framework.tensor_shape import Dimension, TensorShape, as_shape
from .core_ops import identity, ones_like, shape, unbroadcast, zeros_like

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


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


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


# ---- Fill / zeros / ones ----------------------------------------------------------------------
def _fill_infer(op):
    dims, value = op._inputs
    _check_dtype(dims, _INDEX_DTYPES, "dims", "Fill")
    _with_rank(dims, 1)
    _with_rank(value, 0)
    return [(value._dtype, tensor_util._static_shape(dims).as_tuple())]


def _fill_kernel(xp, dims, value):
    dims = _int_list(dims)
    for d in dims:
        if d < 0:
            raise _invalid("Dimension %d must be >= 0" % d)
    return xp.full(dims, value, dtype=value.dtype)


def _fill_grad(op, grad):
    """d/dvalue fill(dims, value) = sum(grad)."""
    return [None, _math().reduce_sum(grad)]


register_op("Fill", infer=_fill_infer, kernel=_fill_kernel, grad=_fill_grad)


def fill(dims, value, name=None):
    """Creates a tensor filled with a scalar value.

    Args:
      dims: A 1-D int32/int64 `Tensor` (or list) with the shape of the output.
      value: A 0-D `Tensor`, the value to fill the output with.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `dims` and the dtype of `value`.

    Raises:
      ValueError: If `value` is not a scalar or `dims` is not a vector.
    """
    dims = _to_shape_tensor(dims, name="dims")
    value = ops.convert_to_tensor(value, name="value")
    return ops.apply_op("Fill", [dims, value], name=name)


def _python_shape(shape):
    """`shape` as a list of ints if it is a static Python shape, else None."""
    if isinstance(shape, TensorShape):
        return shape.as_list() if shape.is_fully_defined() else None
    if isinstance(shape, (numbers.Integral, np.integer)):
        return [int(shape)]
    if isinstance(shape, np.ndarray) and shape.dtype.kind in "iu":
        return [int(d) for d in shape.reshape(-1)]
    if not isinstance(shape, (list, tuple)):
        return None
    out = []
    for d in shape:
        if isinstance(d, Dimension):
            d = d.value
        if not isinstance(d, (numbers.Integral, np.integer)) or isinstance(d, bool):
            return None
        out.append(int(d))
    return out


def _filled(shape, dtype, scalar, name, default_name):
    dtype = dtypes.as_dtype(dtype)
    if dtype is dtypes.string:
        scalar = "" if not scalar else scalar
    elif dtype.is_bool:
        scalar = bool(scalar)
    with ops.name_scope(name, default_name, [shape] if ops.is_tensor(shape) else None) as scope:
        static = _python_shape(shape)
        if static is not None and all(d >= 0 for d in static) and int(np.prod(static)) < 1000:
            return constant(scalar, dtype=dtype, shape=static, name=scope)
        shape = _to_shape_tensor(shape)
        if _dims(shape) == ():
            shape = reshape(shape, [-1])
        return fill(shape, constant(scalar, dtype=dtype), name=scope)


def zeros(shape, dtype=dtypes.float32, name=None):
    """Creates a tensor with all elements set to zero.

    Args:
      shape: A list of integers, a tuple of integers, a list holding scalar `Tensor`s, or a 1-D
        `Tensor` of type `int32`.
      dtype: The type of an element in the resulting `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with all elements set to zero (a Const when small and static, else a Fill).
    """
    return _filled(shape, dtype, 0, name, "zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    """Creates a tensor with all elements set to one.

    Args:
      shape: A list of integers, a tuple of integers, a list holding scalar `Tensor`s, or a 1-D
        `Tensor` of type `int32`.
      dtype: The type of an element in the resulting `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with all elements set to one (a Const when small and static, else a Fill).
    """
    return _filled(shape, dtype, 1, name, "ones")


# ---- Reshape ---------------------------------------------------------------------------------
def _reshape_infer(op):
    x, shp = op._inputs
    _check_dtype(shp, _INDEX_DTYPES, "shape", "Reshape")
    _with_rank(shp, 1)
    out = tensor_util._static_shape(shp).as_tuple()
    ins = _dims(x)
    if out is None or ins is None:
        return [(x._dtype, out)]
    out = list(out)

    def known_and_unknown(dims):
        known, unknown = 1, []
        for i, d in enumerate(dims):
            if d is None:
                unknown.append(i)
            else:
                known *= d
        return known, unknown

    out_known, out_unknown = known_and_unknown(out)
    in_known, in_unknown = known_and_unknown(ins)
    if len(out_unknown) <= 1 and len(in_unknown) <= 1:
        if not in_unknown and not out_unknown:
            if in_known != out_known:
                raise ValueError("Cannot reshape a tensor with %d elements to shape %s (%d elements)"
                                 % (in_known, _fmt(out), out_known))
        elif not in_unknown and out_known > 0:
            if in_known % out_known:
                raise ValueError("Dimension size must be evenly divisible by %d but is %d" % (out_known, in_known))
            out[out_unknown[0]] = in_known // out_known
        elif in_unknown and not out_unknown and in_known != 0:
            if out_known % in_known:
                raise ValueError("Dimension size must be evenly divisible by %d but is %d" % (in_known, out_known))
    return [(x._dtype, tuple(out))]


def _reshape_kernel(xp, x, shape):
    dims = shape.tolist()
    if type(dims) is list and (not dims or min(dims) >= -1):
        try:  # fast path; NumPy rejects exactly the shapes TF rejects, which are re-checked below
            return x.reshape(dims)
        except ValueError:
            pass
    if np.ndim(shape) != 1:
        raise _invalid("sizes input must be 1-D, not %s" % _fmt(np.shape(shape)))
    dims = _int_list(shape)
    unknown = [i for i, d in enumerate(dims) if d == -1]
    if len(unknown) > 1:
        raise _invalid("Only one input size may be -1, not both %d and %d" % (unknown[0], unknown[1]))
    for i, d in enumerate(dims):
        if d < -1:
            raise _invalid("Size %d must be non-negative, not %d" % (i, d))
    known = int(np.prod([d for d in dims if d != -1], dtype=np.int64))
    if unknown:
        if known == 0 or x.size % known:
            if known == 0 and x.size == 0:
                raise _invalid("Reshape cannot infer the missing input size for an empty tensor unless all "
                               "specified input sizes are non-zero")
            raise _invalid("Input to reshape is a tensor with %d values, but the requested shape requires a "
                           "multiple of %d" % (x.size, known))
        dims[unknown[0]] = x.size // known
    elif known != x.size:
        raise _invalid("Input to reshape is a tensor with %d values, but the requested shape has %d"
                       % (x.size, known))
    return x.reshape(dims)


def _reshape_grad(op, grad):
    """d/dx reshape(x) = reshape(grad, shape(x))."""
    return [reshape(grad, shape(op._inputs[0])), None]


def _static_reshape_inline(op):
    """Reshape, Squeeze and ExpandDims between fully defined static shapes: a plain reshape."""
    i, o = op._inputs[0]._shape, op._outputs[0]._shape
    if i.is_fully_defined() and o.is_fully_defined() and i.num_elements() == o.num_elements():
        return "{0}.reshape(%r)" % (o.as_tuple(),)
    return None


register_op("Reshape", infer=_reshape_infer, kernel=_reshape_kernel, grad=_reshape_grad, inline=_static_reshape_inline)


def reshape(tensor, shape, name=None):
    """Reshapes a tensor; one entry of `shape` may be -1 (inferred from the number of elements).

    Args:
      tensor: A `Tensor`.
      shape: A 1-D int32/int64 `Tensor`, or a list whose entries may be scalar `Tensor`s.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the values of `tensor` and the given shape.

    Raises:
      ValueError: If the static sizes are incompatible.
      InvalidArgumentError: At run time, if the sizes are incompatible.
    """
    tensor = ops.convert_to_tensor(tensor, name="tensor")
    return ops.apply_op("Reshape", [tensor, _to_shape_tensor(shape, name="shape")], name=name)


# ---- Size / Rank -----------------------------------------------------------------------------
register_op("Size", infer=lambda op: [(op._attrs["out_type"], ())],
            kernel=lambda xp, x, out_type: xp.asarray(xp.size(x), dtype=out_type.as_numpy_dtype), grad=NO_GRADIENT)


def size(input, name=None, out_type=dtypes.int32):  # noqa: A002 (TF's argument name)
    """Returns the number of elements of `input` (a constant when its shape is fully known).

    Args:
      input: A `Tensor`.
      name: A name for the operation (optional).
      out_type: The output dtype, `int32` (default) or `int64`.

    Returns:
      A scalar `Tensor` of type `out_type`.
    """
    x = ops.convert_to_tensor(input)
    out_type = dtypes.as_dtype(out_type)
    with ops.name_scope(name, "Size", [x]) as scope:
        n = x._shape.num_elements()
        if n is not None:
            return constant(n, dtype=out_type, name=scope)
        return ops.apply_op("Size", [x], {"out_type": out_type}, name=scope)


register_op("Rank", infer=lambda op: [(dtypes.int32, ())],
            kernel=lambda xp, x: xp.asarray(xp.ndim(x), dtype=np.int32), grad=NO_GRADIENT)


def rank(input, name=None):  # noqa: A002
    """Returns the rank of `input` (a constant when it is statically known).

    Args:
      input: A `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A scalar int32 `Tensor`.
    """
    x = ops.convert_to_tensor(input)
    with ops.name_scope(name, "Rank", [x]) as scope:
        if x._shape.ndims is not None:
            return constant(x._shape.ndims, dtype=dtypes.int32, name=scope)
        return ops.apply_op("Rank", [x], name=scope)


# ---- Squeeze ---------------------------------------------------------------------------------
def _squeeze_infer(op):
    x = op._inputs[0]
    dims = _dims(x)
    if dims is None:
        return [(x._dtype, None)]
    r = len(dims)
    axes = set()
    for a in op._attrs["squeeze_dims"]:
        if not -r <= a < r:
            raise ValueError("Tried to squeeze dim index %d for tensor with %d dimensions." % (a, r))
        axes.add(a % r)
    out = []
    for i, d in enumerate(dims):
        if axes:
            if i in axes:
                if d is not None and d != 1:
                    raise ValueError("Can not squeeze dim[%d], expected a dimension of 1, got %d" % (i, d))
                continue
        elif d is None:
            return [(x._dtype, None)]
        elif d == 1:
            continue
        out.append(d)
    return [(x._dtype, tuple(out))]


def _squeeze_kernel(xp, x, squeeze_dims):
    if not squeeze_dims:
        return x.reshape([d for d in x.shape if d != 1])
    try:  # fast path: NumPy checks the same conditions; TF's messages come from the loop below
        return xp.squeeze(x, tuple(squeeze_dims))
    except ValueError:
        pass
    axes = []
    for a in squeeze_dims:
        if not -x.ndim <= a < x.ndim:
            raise _invalid("Tried to squeeze dim index %d for tensor with %d dimensions." % (a, x.ndim))
        a %= x.ndim
        if x.shape[a] != 1:
            raise _invalid("Can not squeeze dim[%d], expected a dimension of 1, got %d" % (a, x.shape[a]))
        axes.append(a)
    return x.reshape([d for i, d in enumerate(x.shape) if i not in axes])


def _squeeze_grad(op, grad):
    """d/dx squeeze(x) = reshape(grad, shape(x))."""
    return [reshape(grad, shape(op._inputs[0]))]


register_op("Squeeze", infer=_squeeze_infer, kernel=_squeeze_kernel, grad=_squeeze_grad, inline=_static_reshape_inline)


def _deprecated_lookup(new_name, new_value, old_name, old_value):
    if new_value is not None and old_value is not None:
        raise ValueError("Cannot specify both '%s' and '%s'." % (new_name, old_name))
    return new_value if new_value is not None else old_value


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002
    """Removes dimensions of size 1 from the shape of a tensor.

    Args:
      input: A `Tensor`.
      axis: An optional int or list of ints: the dimensions to remove (default: all of size 1).
      name: A name for the operation (optional).
      squeeze_dims: Deprecated keyword argument that is now axis.

    Returns:
      A `Tensor` with the same values and fewer dimensions.

    Raises:
      ValueError: When both `squeeze_dims` and `axis` are given, or a squeezed dim is not 1.
    """
    axis = _deprecated_lookup("axis", axis, "squeeze_dims", squeeze_dims)
    if axis is None:
        axis = []
    elif np.ndim(axis) == 0:
        axis = [axis]
    x = ops.convert_to_tensor(input, name="input")
    return ops.apply_op("Squeeze", [x], {"squeeze_dims": [int(a) for a in axis]}, name=name)


# ---- ExpandDims ------------------------------------------------------------------------------
def _expand_dims_infer(op):
    x, dim = op._inputs
    _check_dtype(dim, _INDEX_DTYPES, "dim", "ExpandDims")
    dims = _dims(x)
    v = _value(dim)
    if dims is None:
        return [(x._dtype, None)]
    if v is None:
        return [(x._dtype, (None,) * (len(dims) + 1))]
    if np.size(v) != 1:
        raise ValueError("'dim' input must be a tensor with a single value")
    a = int(np.reshape(v, -1)[0])
    r = len(dims)
    if not -r - 1 <= a <= r:
        raise ValueError("Tried to expand dim index %d for tensor with %d dimensions." % (a, r))
    if a < 0:
        a += r + 1
    return [(x._dtype, dims[:a] + (1,) + dims[a:])]


def _expand_dims_kernel(xp, x, dim):
    if np.size(dim) != 1:
        raise _invalid("'dim' must be a tensor with a single value")
    a = int(np.reshape(dim, -1)[0])
    if not -x.ndim - 1 <= a <= x.ndim:
        raise _invalid("Tried to expand dim index %d for tensor with %d dimensions." % (a, x.ndim))
    return xp.expand_dims(x, a)


def _expand_dims_grad(op, grad):
    """d/dx expand_dims(x) = reshape(grad, shape(x))."""
    return [reshape(grad, shape(op._inputs[0])), None]


register_op("ExpandDims", infer=_expand_dims_infer, kernel=_expand_dims_kernel, grad=_expand_dims_grad,
            inline=_static_reshape_inline)


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002
    """Inserts a dimension of 1 into a tensor's shape.

    Args:
      input: A `Tensor`.
      axis: 0-D (scalar): the index at which to insert; in `[-rank(input) - 1, rank(input)]`.
      name: The name of the output `Tensor` (optional).
      dim: 0-D (scalar). Equivalent to `axis`, to be deprecated.

    Returns:
      A `Tensor` with the same data as `input`, with an additional dimension of size 1.

    Raises:
      ValueError: If neither or both of `axis` and `dim` are given, or `axis` is out of range.
    """
    axis = _deprecated_lookup("axis", axis, "dim", dim)
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    x = ops.convert_to_tensor(input, name="input")
    return ops.apply_op("ExpandDims", [x, _index_tensor(axis, name="dim")], name=name)


# ---- ConcatV2 / ConcatOffset -----------------------------------------------------------------
def _concat_infer(op):
    values, axis_t = op._inputs[:-1], op._inputs[-1]
    _check_same_dtype(values, "ConcatV2")
    _check_dtype(axis_t, _INDEX_DTYPES, "axis", "ConcatV2")
    _with_rank(axis_t, 0)
    shapes = [_dims(v) for v in values]
    ranks = {len(s) for s in shapes if s is not None}
    r = next((len(s) for s in shapes if s is not None), None)
    if r == 0:
        raise ValueError("Can't concatenate scalars (use tf.stack instead)")
    if len(ranks) > 1:
        raise ValueError("Shape must be rank %d but is rank %d" % (r, next(k for k in ranks if k != r)))
    axis = _value(axis_t)
    dt = values[0]._dtype
    if r is None:
        return [(dt, None)]
    if axis is None:
        return [(dt, (None,) * r)]
    a = int(axis)
    if not -r <= a < r:
        raise ValueError("ConcatOp : Expected concatenating dimensions in the range [%d, %d), but got %d" % (-r, r, a))
    a %= r
    out = [None] * r
    total = 0
    first = None
    for s in shapes:
        if s is None:
            total = None
            continue
        first = first or s
        for i in _prange(r):
            if i != a and s[i] is not None:
                if out[i] is not None and out[i] != s[i]:
                    raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s "
                                     "and %s." % (i, out[i], s[i], _fmt(first), _fmt(s)))
                out[i] = s[i]
        total = None if total is None or s[a] is None else total + s[a]
    out[a] = total
    return [(dt, tuple(out))]


def _concat_kernel(xp, *args, N):
    values, axis = args[:-1], int(args[-1])
    r = values[0].ndim
    if not -r <= axis < r:
        raise _invalid("ConcatOp : Expected concatenating dimensions in the range [%d, %d), but got %d"
                       % (-r, r, axis))
    a = axis % r
    s0 = values[0].shape
    for i, v in enumerate(values[1:], 1):
        if v.ndim != r:
            raise _invalid("ConcatOp : Ranks of all input tensors should match: shape[0] = %s vs. shape[%d] = %s"
                           % (_fmt(s0), i, _fmt(v.shape)))
        if v.shape[:a] != s0[:a] or v.shape[a + 1:] != s0[a + 1:]:
            raise _invalid("ConcatOp : Dimensions of inputs should match: shape[0] = %s vs. shape[%d] = %s"
                           % (_fmt(s0), i, _fmt(v.shape)))
    return xp.concatenate(values, axis=a)


def _concat_grad(op, grad):
    """d/dx_i concat(xs) = the slice of grad at x_i's offset along the axis."""
    values, axis = op._inputs[:-1], op._inputs[-1]
    shapes = [shape(v) for v in values]
    offsets = _outputs_list(ops.apply_op("ConcatOffset", [axis] + shapes))
    grad = ops.convert_to_tensor(grad)
    return [slice(grad, o, s) for o, s in zip(offsets, shapes)] + [None]


register_op("ConcatV2", infer=_concat_infer, kernel=_concat_kernel, grad=_concat_grad)


def _concat_offset_infer(op):
    return [(t._dtype, _dims(t)) for t in op._inputs[1:]]


def _concat_offset_kernel(xp, axis, *shapes):
    r = len(shapes[0])
    a = int(axis) % r if r else 0
    out, offset = [], 0
    for s in shapes:
        o = np.zeros(r, dtype=s.dtype)
        o[a] = offset
        offset += int(s[a])
        out.append(o)
    return out[0] if len(out) == 1 else tuple(out)


register_op("ConcatOffset", infer=_concat_offset_infer, kernel=_concat_offset_kernel, grad=NO_GRADIENT)


def concat(values, axis, name="concat"):
    """Concatenates tensors along one dimension.

    Args:
      values: A list of `Tensor` objects or a single `Tensor`.
      axis: 0-D int32 `Tensor`: the dimension along which to concatenate (negative counts from
        the end).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` resulting from concatenation of the input tensors.

    Raises:
      ValueError: If the static ranks or non-concatenated dimensions do not match, or `axis` is
        out of range.
    """
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        with ops.name_scope(name) as scope:
            a = ops.convert_to_tensor(axis, name="concat_dim", dtype=dtypes.int32)
            a.get_shape().assert_has_rank(0)
            del scope
            return identity(values[0], name=name)
    values = _convert_same_dtype(list(values), "values", "ConcatV2")
    return ops.apply_op("ConcatV2", values + [_index_tensor(axis, name="axis")], {"N": len(values)}, name=name)


# ---- Pack / Unpack ---------------------------------------------------------------------------
def _pack_infer(op):
    values = op._inputs
    _check_same_dtype(values, "Pack")
    s = None
    for v in values:
        s = _merge_dims(s, _dims(v)) if s is not None else _dims(v)
    axis = op._attrs["axis"]
    if s is None:
        return [(values[0]._dtype, None)]
    r = len(s) + 1
    if not -r <= axis < r:
        raise ValueError("Invalid axis: %d; must be in [%d,%d)" % (axis, -r, r))
    axis %= r
    return [(values[0]._dtype, s[:axis] + (len(values),) + s[axis:])]


def _pack_kernel(xp, *values, axis, N):
    try:
        # np.array stacks on a new leading axis in C; moving it to `axis` is a cheap view. (Not for
        # strings: np.array nests 0-d object arrays instead of stacking them.)
        out = xp.array(values) if values[0].dtype != object else xp.stack(values)
        if out.ndim == values[0].ndim + 1 and out.dtype == values[0].dtype:
            a = axis % out.ndim
            return out if a == 0 else out.transpose(tuple(_prange(1, a + 1)) + (0,) + tuple(_prange(a + 1, out.ndim)))
    except ValueError:  # ragged: re-raised below with TF's message
        pass
    for i, v in enumerate(values[1:], 1):
        if v.shape != values[0].shape:
            raise _invalid("Shapes of all inputs must match: values[0].shape = %s != values[%d].shape = %s"
                           % (_fmt(values[0].shape), i, _fmt(v.shape)))
    return xp.stack(values, axis=axis)


def _pack_grad(op, grad):
    """d/dx_i stack(xs) = unstack(grad)[i]."""
    return unstack(grad, num=op._attrs["N"], axis=op._attrs["axis"])


register_op("Pack", infer=_pack_infer, kernel=_pack_kernel, grad=_pack_grad)


def stack(values, axis=0, name="stack"):
    """Stacks a list of rank-`R` tensors into one rank-`(R+1)` tensor.

    Args:
      values: A list of `Tensor` objects with the same shape and type.
      axis: An `int`. The axis to stack along. Negative values wrap around.
      name: A name for this operation (optional).

    Returns:
      A stacked `Tensor` with the same type as `values`.

    Raises:
      ValueError: If `axis` is out of the range [-(R+1), R+1) or the shapes differ.
    """
    if axis == 0:
        try:
            return ops.convert_to_tensor(values, name=name)
        except (TypeError, ValueError):
            pass
    first = ops.convert_to_tensor(values[0])
    s = _dims(first)
    if s is not None:
        r = len(s) + 1
        if axis < -r or axis >= r:
            raise ValueError("axis = %d not in [%d, %d)" % (axis, -r, r))
    values = _convert_same_dtype(list(values), "values", "Pack")
    return ops.apply_op("Pack", values, {"axis": int(axis), "N": len(values)}, name=name)


def _unpack_infer(op):
    x = op._inputs[0]
    num, axis = op._attrs["num"], op._attrs["axis"]
    s = _dims(x)
    if s is None:
        return [(x._dtype, None)] * num
    r = len(s)
    if not -r <= axis < r:
        raise ValueError("Invalid axis: %d; must be in [%d,%d)" % (axis, -r, r))
    axis %= r
    if s[axis] is not None and s[axis] != num:
        raise ValueError("Dimension must be %d but is %d" % (num, s[axis]))
    return [(x._dtype, s[:axis] + s[axis + 1:])] * num


def _unpack_kernel(xp, x, num, axis):
    a = axis % x.ndim
    if x.shape[a] != num:
        raise _invalid("Input shape axis %d must equal %d, got shape %s" % (axis, num, _fmt(x.shape)))
    lead = (_pslice(None),) * a
    outs = [x[lead + (i,)] for i in _prange(num)]
    return outs[0] if num == 1 else tuple(outs)


def _unpack_grad(op, *grads):
    """d/dx unstack(x) = stack(grads)."""
    return [stack(list(grads), axis=op._attrs["axis"])]


register_op("Unpack", infer=_unpack_infer, kernel=_unpack_kernel, grad=_unpack_grad)


def unstack(value, num=None, axis=0, name="unstack"):
    """Unpacks the given dimension of a rank-`R` tensor into rank-`(R-1)` tensors.

    Args:
      value: A rank `R > 0` `Tensor` to be unstacked.
      num: An `int`. The length of the dimension `axis`. Automatically inferred if `None`.
      axis: An `int`. The axis to unstack along. Negative values wrap around.
      name: A name for the operation (optional).

    Returns:
      The list of `Tensor` objects unstacked from `value`.

    Raises:
      ValueError: If `num` is unspecified and cannot be inferred, or `axis` is out of range.
    """
    value = ops.convert_to_tensor(value)
    if num is None:
        s = value.get_shape()
        if s.ndims is not None:
            if axis < -s.ndims or axis >= s.ndims:
                raise ValueError("axis = %d not in [%d, %d)" % (axis, -s.ndims, s.ndims))
            num = s.as_tuple()[axis]
        if num is None:
            raise ValueError("Cannot infer num from shape %s" % s)
    return _outputs_list(ops.apply_op("Unpack", [value], {"num": int(num), "axis": int(axis)}, name=name))


# ---- Split / SplitV --------------------------------------------------------------------------
def _split_axis(axis_t, dims):
    """The static, non-negative split axis, or None when unknown."""
    v = _value(axis_t)
    if v is None or dims is None:
        return None
    a = int(v)
    r = len(dims)
    if not -r <= a < r:
        raise ValueError("Shape must be at least rank %d but is rank %d" % ((a + 1) if a >= 0 else -a, r))
    return a % r


def _split_infer(op):
    axis_t, x = op._inputs
    _check_dtype(axis_t, (dtypes.int32,), "split_dim", "Split")
    n = op._attrs["num_split"]
    dims = _dims(x)
    a = _split_axis(axis_t, dims)
    if dims is None:
        return [(x._dtype, None)] * n
    if a is None:
        return [(x._dtype, (None,) * len(dims))] * n
    d = dims[a]
    if d is not None:
        if d % n:
            raise ValueError("Dimension size must be evenly divisible by %d but is %d" % (n, d))
        d //= n
    return [(x._dtype, dims[:a] + (d,) + dims[a + 1:])] * n


def _split_kernel(xp, axis, x, num_split):
    axis = int(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _invalid("-input rank(-%d) <= split_dim < input rank (%d), but got %d" % (x.ndim, x.ndim, axis))
    a = axis % x.ndim
    if x.shape[a] % num_split:
        raise _invalid("Number of ways to split should evenly divide the split dimension, but got split_dim %d "
                       "(size = %d) and num_split %d" % (axis, x.shape[a], num_split))
    outs = xp.split(x, num_split, axis=a)
    return outs[0] if num_split == 1 else tuple(outs)


def _split_grad(op, *grads):
    """d/dx split(x) = concat(grads) along the split axis."""
    return [None, concat(list(grads), op._inputs[0])]


register_op("Split", infer=_split_infer, kernel=_split_kernel, grad=_split_grad)


def _split_sizes(sizes, dim):
    """Resolves a -1 in split sizes against the dimension; raises ValueError on mismatch."""
    neg = [i for i, s in enumerate(sizes) if s == -1]
    if len(neg) > 1:
        raise ValueError("Only one dimensions can have a value of -1. Second one found at dimension %d" % neg[1])
    if dim is None:
        return [None if s == -1 else s for s in sizes]
    total = sum(s for s in sizes if s != -1)
    if (not neg and total != dim) or (neg and total > dim):
        raise ValueError("Determined shape must either match input shape along split_dim exactly if fully "
                         "specified, or be less than the size of the input along split_dim if not fully "
                         "specified.  Got: %d" % total)
    return [dim - total if s == -1 else s for s in sizes]


def _split_v_infer(op):
    x, sizes_t, axis_t = op._inputs
    _check_dtype(sizes_t, _INDEX_DTYPES, "size_splits", "SplitV")
    _check_dtype(axis_t, (dtypes.int32,), "split_dim", "SplitV")
    n = op._attrs["num_split"]
    dims = _dims(x)
    a = _split_axis(axis_t, dims)
    sizes = _value(sizes_t)
    if sizes is not None and np.size(sizes) != n:
        raise ValueError("Dimension must be %d but is %d" % (n, np.size(sizes)))
    if dims is None:
        return [(x._dtype, None)] * n
    if a is None:
        return [(x._dtype, (None,) * len(dims))] * n
    if sizes is None:
        return [(x._dtype, dims[:a] + (None,) + dims[a + 1:])] * n
    resolved = _split_sizes(_int_list(sizes), dims[a])
    return [(x._dtype, dims[:a] + (s,) + dims[a + 1:]) for s in resolved]


def _split_v_kernel(xp, x, size_splits, axis, num_split):
    axis = int(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _invalid("-input rank(-%d) <= split_dim < input rank (%d), but got %d" % (x.ndim, x.ndim, axis))
    a = axis % x.ndim
    try:
        sizes = _split_sizes(_int_list(size_splits), x.shape[a])
    except ValueError as e:
        raise _invalid(str(e)) from None
    if any(s < 0 for s in sizes):
        raise _invalid("Split sizes must be non-negative (or -1), got %s" % sizes)
    outs = xp.split(x, np.cumsum(sizes)[:-1], axis=a)
    return outs[0] if num_split == 1 else tuple(outs)


def _split_v_grad(op, *grads):
    """d/dx split(x, sizes) = concat(grads) along the split axis."""
    return [concat(list(grads), op._inputs[2]), None, None]


register_op("SplitV", infer=_split_v_infer, kernel=_split_v_kernel, grad=_split_v_grad)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits a tensor into sub tensors.

    Args:
      value: The `Tensor` to split.
      num_or_size_splits: Either an integer (the number of equal splits along `axis`) or a 1-D
        integer `Tensor`/list with the sizes of the splits (one may be -1, meaning the rest).
      axis: A scalar int32 `Tensor`: the dimension along which to split, in `[-rank, rank)`.
      num: Optional, the number of outputs when it cannot be inferred from `num_or_size_splits`.
      name: A name for the operation (optional).

    Returns:
      A list of `Tensor`s.

    Raises:
      ValueError: If `num` is unspecified and cannot be inferred, or the sizes don't fit.
    """
    value = ops.convert_to_tensor(value)
    if isinstance(num_or_size_splits, (int, Dimension)) and not isinstance(num_or_size_splits, bool):
        n = int(num_or_size_splits)
        if n < 1:
            raise ValueError("Value for attr 'num_split' of %d must be at least minimum 1" % n)
        return _outputs_list(ops.apply_op("Split", [_index_tensor(axis, name="split_dim"), value],
                                          {"num_split": n}, name=name))
    size_splits = _index_tensor(num_or_size_splits)
    if size_splits._shape.ndims == 0:
        raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
                         "Argument provided: %s" % (num_or_size_splits,))
    if num is None:
        s = _dims(size_splits)
        if s:
            num = s[0]
        if num is None:
            raise ValueError("Cannot infer num from shape %s" % (num_or_size_splits,))
    return _outputs_list(ops.apply_op("SplitV", [value, size_splits, _index_tensor(axis, name="split_dim")],
                                      {"num_split": int(num)}, name=name))


# ---- Tile ------------------------------------------------------------------------------------
def _tile_infer(op):
    x, multiples = op._inputs
    _check_dtype(multiples, _INDEX_DTYPES, "multiples", "Tile")
    _with_rank(multiples, 1)
    dims = _dims(x)
    mult = tensor_util._static_shape(multiples).as_tuple()
    if dims is None:
        return [(x._dtype, None if mult is None else (None,) * len(mult))]
    if mult is None:
        return [(x._dtype, (None,) * len(dims))]
    if len(mult) != len(dims):
        raise ValueError("Shape must be rank %d but is rank %d" % (len(dims), len(mult)))
    return [(x._dtype, tuple(None if d is None or m is None else d * m for d, m in zip(dims, mult)))]


def _tile_kernel(xp, x, multiples):
    mult = _int_list(multiples)
    if len(mult) != x.ndim:
        raise _invalid("Expected multiples argument to be a vector of length %d but got length %d"
                       % (x.ndim, len(mult)))
    for i, m in enumerate(mult):
        if m < 0:
            raise _invalid("Expected multiples[%d] >= 0, but got %d" % (i, m))
    return xp.tile(x, mult) if x.ndim else x.copy()


def _tile_grad(op, grad):
    """d/dx tile(x, m) = grad reshaped to [m0, d0, m1, d1, ...] and summed over the m axes."""
    x, multiples = op._inputs
    input_shape = shape(x, out_type=multiples.dtype)
    split_shape = reshape(transpose(stack([multiples, input_shape])), [-1])
    axes = range(0, size(split_shape), 2)
    input_grad = _math().reduce_sum(reshape(grad, split_shape), axes)
    input_grad.set_shape(x.get_shape())
    return [input_grad, None]


register_op("Tile", infer=_tile_infer, kernel=_tile_kernel, grad=_tile_grad)


def tile(input, multiples, name=None):  # noqa: A002
    """Constructs a tensor by tiling a given tensor `multiples[i]` times along dimension i.

    Args:
      input: A `Tensor`.
      multiples: A 1-D int32/int64 `Tensor` whose length is the rank of `input`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the type of `input`.

    Raises:
      ValueError: If the length of `multiples` is not the rank of `input`.
    """
    x = ops.convert_to_tensor(input, name="input")
    return ops.apply_op("Tile", [x, _to_shape_tensor(multiples, name="multiples")], name=name)


# ---- Transpose / ConjugateTranspose / InvertPermutation ---------------------------------------
def _transpose_infer(op):
    x, perm = op._inputs
    _check_dtype(perm, _INDEX_DTYPES, "perm", "Transpose")
    _with_rank(perm, 1)
    dims = _dims(x)
    p = _value(perm)
    plen = _dims(perm)[0] if _dims(perm) is not None else None
    if dims is not None and plen is not None and plen != len(dims):
        raise ValueError("Dimension must be %d but is %d" % (len(dims), plen))
    r = len(dims) if dims is not None else plen
    if r is None:
        return [(x._dtype, None)]
    if p is None:
        return [(x._dtype, (None,) * r)]
    p = _int_list(p)
    for v in p:
        if not -r <= v < r:
            raise ValueError("perm dim %d is out of range of input rank %d" % (v, r))
    if dims is None:
        return [(x._dtype, (None,) * r)]
    return [(x._dtype, tuple(dims[v] for v in p))]


def _check_perm(perm, ndim):
    p = _int_list(perm)
    if len(p) != ndim:
        raise _invalid("transpose expects a vector of size %d. But input(1) is a vector of size %d" % (ndim, len(p)))
    p = [v % ndim if -ndim <= v < ndim else v for v in p]
    for i in _prange(ndim):
        if i not in p:
            raise _invalid("%d is missing from {%s}." % (i, ",".join(str(v) for v in p)))
    return p


def _transpose_kernel(xp, x, perm):
    return xp.transpose(x, _check_perm(perm, x.ndim))


def _transpose_grad(op, grad):
    """d/dx transpose(x, p) = transpose(grad, invert_permutation(p))."""
    return [transpose(grad, invert_permutation(op._inputs[1])), None]


register_op("Transpose", infer=_transpose_infer, kernel=_transpose_kernel, grad=_transpose_grad)


def _conjugate_transpose_kernel(xp, x, perm):
    return xp.conj(xp.transpose(x, _check_perm(perm, x.ndim)))


def _conjugate_transpose_grad(op, grad):
    """d/dx conj(transpose(x, p)) = conj(transpose(grad, invert_permutation(p)))."""
    return [transpose(grad, invert_permutation(op._inputs[1]), conjugate=True), None]


register_op("ConjugateTranspose", infer=_transpose_infer, kernel=_conjugate_transpose_kernel,
            grad=_conjugate_transpose_grad)


def transpose(a, perm=None, name="transpose", conjugate=False):
    """Transposes `a`, permuting its dimensions according to `perm`.

    Args:
      a: A `Tensor`.
      perm: A permutation of the dimensions of `a` (default: reversed, a regular matrix transpose
        for 2-D input).
      name: A name for the operation (optional).
      conjugate: Optional bool. Setting it to `True` also conjugates complex values.

    Returns:
      A transposed `Tensor`.

    Raises:
      ValueError: If `perm` does not fit the rank of `a`.
    """
    with ops.name_scope(name, "transpose", [a]) as scope:
        a = ops.convert_to_tensor(a, name="a")
        op_type = "ConjugateTranspose" if conjugate and a.dtype.is_complex else "Transpose"
        if perm is None:
            r = a._shape.ndims
            if r is None:
                perm = reverse(range(0, rank(a)), [0])
            else:
                perm = np.arange(r - 1, -1, -1, dtype=np.int32)
        return ops.apply_op(op_type, [a, _index_tensor(perm, name="perm")], name=scope)


def _invert_permutation_infer(op):
    x = op._inputs[0]
    _check_dtype(x, _INDEX_DTYPES, "x", "InvertPermutation")
    _with_rank(x, 1)
    return [(x._dtype, _dims(x) or (None,))]


def _invert_permutation_kernel(xp, x):
    n = x.shape[0]
    out = np.full(n, -1, dtype=x.dtype)
    for i, v in enumerate(x.tolist()):
        if not 0 <= v < n:
            raise _invalid("%d is not between 0 and %d" % (v, n))
        if out[v] != -1:
            raise _invalid("%d is duplicated in the input." % v)
        out[v] = i
    return out


register_op("InvertPermutation", infer=_invert_permutation_infer, kernel=_invert_permutation_kernel,
            grad=NO_GRADIENT)


def invert_permutation(x, name=None):
    """Computes the inverse permutation of a 1-D int32/int64 tensor: `y[x[i]] = i`.

    Args:
      x: A 1-D `Tensor` holding a permutation of `0..n-1`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type and shape as `x`.
    """
    return ops.apply_op("InvertPermutation", [_index_tensor(x, name="x")], name=name)


# ---- Slice -----------------------------------------------------------------------------------
def _slice_infer(op):
    x, begin, sz = op._inputs
    _check_dtype(begin, _INDEX_DTYPES, "begin", "Slice")
    if sz._dtype is not begin._dtype:
        raise TypeError("Input 'size' of 'Slice' Op has type %s that does not match type %s of argument 'begin'."
                        % (sz._dtype.name, begin._dtype.name))
    _with_rank(begin, 1)
    _with_rank(sz, 1)
    dims = _dims(x)
    n = next((s[0] for s in (_dims(begin), _dims(sz)) if s is not None and s[0] is not None), None)
    for s in (_dims(begin), _dims(sz)):
        if s is not None and s[0] is not None and (s[0] != n or dims is not None and s[0] != len(dims)):
            raise ValueError("Expected begin and size arguments to be 1-D tensors of size %d, but got shapes %s "
                             "and %s instead." % (len(dims) if dims is not None else n, _fmt(_dims(begin)),
                                                  _fmt(_dims(sz))))
    r = len(dims) if dims is not None else n
    if r is None:
        return [(x._dtype, None)]
    b, s = _value(begin), _value(sz)
    if s is None:
        partial = tensor_util._static_shape(sz).as_tuple()
        return [(x._dtype, (None,) * r if partial is None else partial)]
    s = _int_list(s)
    b = None if b is None else _int_list(b)
    out = []
    for i in _prange(r):
        d = None if dims is None else dims[i]
        if b is not None and d is not None:
            if not 0 <= b[i] <= d:
                raise ValueError("Expected begin[%d] in [0, %d], but got %d" % (i, d, b[i]))
            if s[i] != -1 and not 0 <= b[i] + s[i] <= d:
                raise ValueError("Expected size[%d] in [0, %d], but got %d" % (i, d - b[i], s[i]))
        if s[i] == -1:
            out.append(None if b is None or d is None else d - b[i])
        elif s[i] < -1:
            raise ValueError("Expected size[%d] >= -1, but got %d" % (i, s[i]))
        else:
            out.append(s[i])
    return [(x._dtype, tuple(out))]


def _slice_kernel(xp, x, begin, size):
    b, s = _int_list(begin), _int_list(size)
    if len(b) != x.ndim or len(s) != x.ndim:
        raise _invalid("Expected begin and size arguments to be 1-D tensors of size %d, but got shapes %s and %s "
                       "instead." % (x.ndim, _fmt(np.shape(begin)), _fmt(np.shape(size))))
    idx = []
    for i, d in enumerate(x.shape):
        e = d if s[i] == -1 else b[i] + s[i]
        if not 0 <= b[i] <= d:
            raise _invalid("Expected begin[%d] in [0, %d], but got %d" % (i, d, b[i]))
        if not (0 <= s[i] and e <= d or s[i] == -1):
            raise _invalid("Expected size[%d] in [0, %d], but got %d" % (i, d - b[i], s[i]))
        idx.append(_pslice(b[i], e))
    return x[tuple(idx)]


def _slice_grad(op, grad):
    """d/dx slice(x, b, s) = grad padded by b before and shape(x) - s - b after."""
    x, begin = op._inputs[0], op._inputs[1]
    before = reshape(begin, [-1, 1])
    after = reshape(_math().subtract(_math().subtract(shape(x, out_type=begin.dtype),
                                                      shape(op._outputs[0], out_type=begin.dtype)), begin), [-1, 1])
    return [pad(grad, concat([before, after], 1)), None, None]


register_op("Slice", infer=_slice_infer, kernel=_slice_kernel, grad=_slice_grad)


def slice(input_, begin, size, name=None):  # noqa: A001 (TF's name)
    """Extracts a slice of `size` elements starting at `begin` from a tensor.

    Args:
      input_: A `Tensor`.
      begin: An int32/int64 `Tensor` (or list): the starting location for each dimension.
      size: An int32/int64 `Tensor` (or list): the number of elements per dimension; -1 means
        all remaining elements.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type as `input_`.

    Raises:
      ValueError: If the static begin/size are out of range.
    """
    x = ops.convert_to_tensor(input_, name="input")
    begin, size = _index_tensors([begin, size], ["begin", "size"])
    return ops.apply_op("Slice", [x, begin, size], name=name)


# ---- StridedSlice / StridedSliceGrad / Tensor.__getitem__ ---------------------------------------
_ELLIPSIS, _NEWAXIS, _SHRINK, _RANGE = "ellipsis", "newaxis", "shrink", "range"
_FULL_RANGE = (_RANGE, 0, 0, 1, True, True)
_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _sparse_spec(begin, end, strides, masks):
    """The slice spec as items `(kind, ...)`; range items are `(kind, begin, end, stride, begin_masked,
    end_masked)` and shrink items `(kind, index)`, with None for statically unknown begin/end values."""
    items = []
    seen_ellipsis = False
    for i in _prange(len(strides)):
        bit = 1 << i
        if masks["ellipsis_mask"] & bit:
            if seen_ellipsis:
                raise ValueError("Multiple ellipses in slice spec not allowed")
            seen_ellipsis = True
            items.append((_ELLIPSIS,))
        elif masks["new_axis_mask"] & bit:
            items.append((_NEWAXIS,))
        else:
            b = None if begin is None else int(begin[i])
            e = None if end is None else int(end[i])
            st = int(strides[i])
            if st == 0:
                raise ValueError("strides[%d] must be non-zero" % i)
            if masks["shrink_axis_mask"] & bit:
                items.append((_SHRINK, b))
            else:
                items.append((_RANGE, b, e, st, bool(masks["begin_mask"] & bit), bool(masks["end_mask"] & bit)))
    return items, seen_ellipsis


def _dense_spec(items, has_ellipsis, rank):
    """Pairs each item with the input dimension it applies to (None for new axes), expanding the
    (explicit or implicit trailing) ellipsis into full ranges."""
    consumed = sum(1 for it in items if it[0] in (_SHRINK, _RANGE))
    out = []
    d = 0
    for it in items:
        if it[0] == _ELLIPSIS:
            for _ in _prange(rank - consumed):
                out.append((_FULL_RANGE, d))
                d += 1
        elif it[0] == _NEWAXIS:
            out.append((it, None))
        else:
            out.append((it, d))
            d += 1
    if d > rank:
        raise ValueError("Index out of range using input dim %d; input has only %d dims" % (d - 1, rank))
    while d < rank:
        out.append((_FULL_RANGE, d))
        d += 1
    return out


def _strided_index(in_shape, begin, end, strides, masks):
    """The NumPy basic index equal to a strided slice of an array of shape `in_shape`.

    Raises:
      InvalidArgumentError: For zero strides, bad ellipses or out-of-bounds shrink indices.
    """
    if not len(begin) == len(end) == len(strides):
        raise _invalid("Expected begin, end, and strides to be 1D equal size tensors, but got shapes %s, %s, and %s "
                       "instead." % (_fmt(np.shape(begin)), _fmt(np.shape(end)), _fmt(np.shape(strides))))
    try:
        items, has_ellipsis = _sparse_spec(_int_list(begin), _int_list(end), _int_list(strides), masks)
        dense = _dense_spec(items, has_ellipsis, len(in_shape))
    except ValueError as e:
        raise _invalid(str(e)) from None
    idx = []
    for it, d in dense:
        if it[0] == _NEWAXIS:
            idx.append(None)
        elif it[0] == _SHRINK:
            if not -in_shape[d] <= it[1] < in_shape[d]:
                raise _invalid("slice index %d of dimension %d out of bounds." % (it[1], d))
            idx.append(it[1])
        else:
            _, b, e, st, bm, em = it
            idx.append(_pslice(None if bm else b, None if em else e, st))
    return tuple(idx) + (Ellipsis,)


def _check_slice_args(op, first):
    args = op._inputs[first:first + 3]
    lengths = []
    for t, n in zip(args, ("begin", "end", "strides")):
        _check_dtype(t, _INDEX_DTYPES, n, op._type)
        _with_rank(t, 1)
        if t._dtype is not args[0]._dtype:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument 'begin'."
                            % (n, op._type, t._dtype.name, args[0]._dtype.name))
        lengths.append(_dims(t))
    n = None
    for s in lengths:
        n = _merge_dims(n, s) if n is not None else s
    return None if n is None else n[0]


def _strided_slice_infer(op):
    x, begin, end, strides = op._inputs
    n = _check_slice_args(op, 1)
    dims = _dims(x)
    sv = _value(strides)
    if dims is None or n is None or sv is None:
        return [(x._dtype, None)]
    items, has_ellipsis = _sparse_spec(_value(begin), _value(end), _int_list(sv),
                                       {k: op._attrs[k] for k in _MASKS})
    out = []
    for it, d in _dense_spec(items, has_ellipsis, len(dims)):
        if it[0] == _NEWAXIS:
            out.append(1)
            continue
        dim = dims[d]
        if it[0] == _SHRINK:
            if it[1] is not None and dim is not None and not -dim <= it[1] < dim:
                raise ValueError("slice index %d of dimension %d out of bounds." % (it[1], d))
            continue
        _, b, e, st, bm, em = it
        if dim is None:
            out.append(None)
        elif (bm or b is not None) and (em or e is not None):
            out.append(len(_prange(*_pslice(None if bm else b, None if em else e, st).indices(dim))))
        elif bm and em:
            out.append(dim)
        else:
            out.append(None)
    return [(x._dtype, tuple(out))]


def _strided_slice_kernel(xp, x, begin, end, strides, **masks):
    return x[_strided_index(x.shape, begin, end, strides, masks)]


def _strided_slice_grad(op, grad):
    """d/dx x[spec] = zeros of x's shape with grad written at x[spec]."""
    x, begin, end, strides = op._inputs
    dx = ops.apply_op("StridedSliceGrad", [shape(x, out_type=begin.dtype), begin, end, strides,
                                           ops.convert_to_tensor(grad)], {k: op._attrs[k] for k in _MASKS})
    return [dx, None, None, None]


def _strided_slice_specialize(op, consts):
    """With constant begin/end/strides and a fully known input shape, the index is computed once."""
    _, begin, end, strides = consts
    dims = op._inputs[0]._shape.as_tuple()
    if any(c is NOT_CONSTANT for c in (begin, end, strides)) or dims is None or None in dims:
        return None
    try:
        idx = _strided_index(dims, begin, end, strides, {k: op._attrs[k] for k in _MASKS})
    except errors.OpError:  # the general kernel raises it at run time, naming the op
        return None
    return lambda xp, x: x[idx]


register_op("StridedSlice", infer=_strided_slice_infer, kernel=_strided_slice_kernel, grad=_strided_slice_grad,
            specialize=_strided_slice_specialize)


def _strided_slice_grad_infer(op):
    shp, dy = op._inputs[0], op._inputs[4]
    _check_slice_args(op, 1)
    return [(dy._dtype, tensor_util._static_shape(shp).as_tuple())]


def _strided_slice_grad_kernel(xp, shape, begin, end, strides, dy, **masks):
    out = xp.zeros(_int_list(shape), dtype=dy.dtype)
    out[_strided_index(out.shape, begin, end, strides, masks)] = dy
    return out


def _strided_slice_grad_grad(op, grad):
    """d/ddy strided_slice_grad(dy) = strided_slice(grad)."""
    _, begin, end, strides, _ = op._inputs
    return [None, None, None, None, strided_slice(grad, begin, end, strides, **{k: op._attrs[k] for k in _MASKS})]


register_op("StridedSliceGrad", infer=_strided_slice_grad_infer, kernel=_strided_slice_grad_kernel,
            grad=_strided_slice_grad_grad)


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, var=None, name=None):
    """Extracts a strided slice of a tensor (generalized Python array indexing).

    Args:
      input_: A `Tensor`.
      begin: An int32/int64 `Tensor`: where each slice spec entry starts.
      end: An int32/int64 `Tensor`: where each slice spec entry ends (exclusive).
      strides: An int32/int64 `Tensor` of non-zero steps (default: ones).
      begin_mask: Bit i set: ignore `begin[i]` and use the fullest possible range.
      end_mask: Bit i set: ignore `end[i]` and use the fullest possible range.
      ellipsis_mask: Bit i set: entry i is an ellipsis (`...`).
      new_axis_mask: Bit i set: entry i inserts a new dimension of size 1 (`tf.newaxis`).
      shrink_axis_mask: Bit i set: entry i takes the single index `begin[i]` and removes the dimension.
      var: The variable corresponding to `input_` or None.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` the same type as `input_`.

    Raises:
      ValueError: If a statically known shrink index is out of bounds or a stride is zero.
    """
    x = ops.convert_to_tensor(input_, name="input")
    if strides is None:
        strides = ones_like(begin)
    begin, end, strides = _index_tensors([begin, end, strides], ["begin", "end", "strides"])
    attrs = {"begin_mask": int(begin_mask), "end_mask": int(end_mask), "ellipsis_mask": int(ellipsis_mask),
             "new_axis_mask": int(new_axis_mask), "shrink_axis_mask": int(shrink_axis_mask)}
    return ops.apply_op("StridedSlice", [x, begin, end, strides], attrs, name=name)


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 "
                     "tensors are valid indices")


def _check_index(idx):
    """Raises TypeError unless `idx` is an int, a Dimension or a scalar int32/int64 tensor."""
    if isinstance(idx, (numbers.Integral, Dimension)):
        return
    dtype = getattr(idx, "dtype", None)
    try:
        dtype = None if dtype is None else dtypes.as_dtype(dtype)
    except TypeError:
        dtype = None
    if dtype not in _INDEX_DTYPES or (ops.is_tensor(idx) and idx.shape.ndims not in (None, 0)):
        raise TypeError(_SLICE_TYPE_ERROR + ", got {!r}".format(idx))


def _slice_helper(tensor, slice_spec, var=None):
    """`tensor[slice_spec]`: ints, negative indices, slices with (negative) steps, `...`,
    `tf.newaxis`, scalar int tensors, or a boolean mask.

    Raises:
      TypeError: For an unsupported index type.
      ValueError: If a statically known index is out of bounds.
    """
    if isinstance(slice_spec, bool) or (ops.is_tensor(slice_spec) and slice_spec.dtype is dtypes.bool_) or (
            isinstance(slice_spec, np.ndarray) and slice_spec.dtype == bool):
        return boolean_mask(tensor=tensor, mask=slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
    for index, s in enumerate(slice_spec):
        bit = 1 << index
        if isinstance(s, Dimension):
            s = s.value
        if isinstance(s, _pslice):
            s = _pslice(*(v.value if isinstance(v, Dimension) else v for v in (s.start, s.stop, s.step)))
            if s.start is not None and (ops.is_tensor(s.start) or s.start != _MAXSIZE):
                _check_index(s.start)
                begin.append(s.start)
            else:
                begin.append(0)
                begin_mask |= bit
            if s.stop is not None and (ops.is_tensor(s.stop) or s.stop != _MAXSIZE):
                _check_index(s.stop)
                end.append(s.stop)
            else:
                end.append(0)
                end_mask |= bit
            if s.step is not None:
                _check_index(s.step)
                strides.append(s.step)
            else:
                strides.append(1)
        elif s is Ellipsis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            ellipsis_mask |= bit
        elif s is newaxis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            new_axis_mask |= bit
        else:
            _check_index(s)
            begin.append(s)
            # The kernel ignores `end` of a shrunk dimension (it uses begin + 1).
            end.append(s if ops.is_tensor(s) else int(s) + 1)
            strides.append(1)
            shrink_axis_mask |= bit
    values = [tensor] + [v for v in begin + end + strides if ops.is_tensor(v)]
    with ops.name_scope(None, "strided_slice", values) as scope:
        if begin:
            packed = [stack(v) for v in (begin, end, strides)]
            if any(p.dtype is dtypes.int64 for p in packed):
                packed = [p if p.dtype is dtypes.int64 else _math().cast(p, dtypes.int64) for p in packed]
            packed_begin, packed_end, packed_strides = packed
        else:
            packed_begin = packed_end = packed_strides = constant(np.zeros([0], np.int32))
        return strided_slice(tensor, packed_begin, packed_end, packed_strides, begin_mask=begin_mask,
                             end_mask=end_mask, shrink_axis_mask=shrink_axis_mask, new_axis_mask=new_axis_mask,
                             ellipsis_mask=ellipsis_mask, var=var, name=scope)


_MAXSIZE = sys.maxsize
ops.Tensor.__getitem__ = _slice_helper


# ---- GatherV2 --------------------------------------------------------------------------------
def _gather_infer(op):
    params, indices, axis_t = op._inputs
    _check_dtype(indices, _INDEX_DTYPES, "indices", "GatherV2")
    _check_dtype(axis_t, _INDEX_DTYPES, "axis", "GatherV2")
    _with_rank(axis_t, 0)
    pd, idd = _dims(params), _dims(indices)
    av = _value(axis_t)
    if pd is None or idd is None:
        return [(params._dtype, None)]
    if av is None:
        return [(params._dtype, (None,) * (len(pd) + len(idd) - 1))]
    a = int(av)
    if not -len(pd) <= a < len(pd):
        raise ValueError("Shape must be at least rank %d but is rank %d" % (a + 1 if a >= 0 else -a, len(pd)))
    a %= len(pd)
    return [(params._dtype, pd[:a] + idd + pd[a + 1:])]


def _check_indices(indices, limit):
    bad = (indices < 0) | (indices >= limit)
    if bad.any():
        pos = np.unravel_index(int(np.argmax(bad.reshape(-1))), indices.shape)
        raise _invalid("indices[%s] = %d is not in [0, %d)" % (",".join(str(int(p)) for p in pos),
                                                               int(indices[pos]), limit))


def _gather_kernel(xp, params, indices, axis, batch_dims):
    a = int(axis)
    if not -params.ndim <= a < params.ndim:
        raise _invalid("Expected axis in the range [%d, %d), but got %d" % (-params.ndim, params.ndim, a))
    a %= params.ndim
    _check_indices(indices, params.shape[a])
    return xp.take(params, indices, axis=a)


def _gather_grad(op, grad):
    """d/dparams gather(params, i) = grad's slices summed at rows i (an IndexedSlices for axis 0)."""
    params, indices, axis_t = op._inputs
    params_shape = shape(params)
    indices_size = expand_dims(size(indices), 0)
    axis_static = tensor_util.constant_value(axis_t)
    grad = ops.convert_to_tensor(grad)
    if axis_static is not None and int(axis_static) == 0:
        values = reshape(grad, concat([indices_size, params_shape[1:]], 0))
        return [IndexedSlices(values, reshape(indices, indices_size), params_shape), None, None]
    # Other axes: move the gathered axis first, scatter the rows there, and move it back.
    r = params._shape.ndims
    if axis_static is not None and r is not None:
        a = int(axis_static) % r
        outer, inner = params_shape[:a], params_shape[a + 1:]
        perm = [a] + list(_prange(a)) + list(_prange(a + 1, r))
    else:
        outer, inner = params_shape[:axis_t], params_shape[axis_t:][1:]
        a = size(outer)
        perm = concat([expand_dims(a, 0), range(0, a), range(a, rank(params))[1:]], 0)
    values = transpose(reshape(grad, concat([outer, indices_size, inner], 0)), perm)
    dense = ops.convert_to_tensor(IndexedSlices(values, reshape(indices, [-1]), gather(params_shape, perm)))
    return [transpose(dense, invert_permutation(perm)), None, None]


register_op("GatherV2", infer=_gather_infer, kernel=_gather_kernel, grad=_gather_grad)


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """Gathers slices from `params` axis `axis` according to `indices`.

    Args:
      params: The `Tensor` from which to gather values (rank at least `axis + 1`).
      indices: An int32/int64 `Tensor` of indices in `[0, params.shape[axis])`.
      validate_indices: Deprecated, does nothing (indices are always validated).
      name: A name for the operation (optional).
      axis: The axis in `params` to gather `indices` from (default 0).
      batch_dims: Must be 0.

    Returns:
      A `Tensor` of shape `params.shape[:axis] + indices.shape + params.shape[axis + 1:]`.

    Raises:
      ValueError: If `axis` is out of range, or `batch_dims` is not 0.
      InvalidArgumentError: At run time, for an index out of range.
    """
    del validate_indices
    if batch_dims != 0:
        raise ValueError("gather with batch_dims=%r is not supported" % (batch_dims,))
    params = ops.convert_to_tensor(params, name="params")
    indices = _index_tensor(indices, name="indices")
    axis = _index_tensor(0 if axis is None else axis, name="axis")
    return ops.apply_op("GatherV2", [params, indices, axis], {"batch_dims": 0}, name=name)


# ---- GatherNd / ScatterNd --------------------------------------------------------------------
def _gather_nd_infer(op):
    params, indices = op._inputs
    _check_dtype(indices, _INDEX_DTYPES, "indices", "GatherNd")
    pd, idd = _dims(params), _dims(indices)
    _with_rank_at_least(idd, 1)
    if idd is None or idd[-1] is None or pd is None:
        return [(params._dtype, None)]
    k = idd[-1]
    if k > len(pd):
        raise ValueError("indices.shape[-1] must be <= params.rank, but saw indices shape: %s and params shape: %s"
                         % (_fmt(idd), _fmt(pd)))
    return [(params._dtype, idd[:-1] + pd[k:])]


def _check_nd_indices(indices, limits, what):
    k = len(limits)
    if not k:
        return
    flat = indices.reshape(-1, k)
    bad = np.any((flat < 0) | (flat >= np.asarray(limits, dtype=np.int64)), axis=1)
    if bad.any():
        i = int(np.argmax(bad))
        pos = np.unravel_index(i, indices.shape[:-1])
        raise _invalid("indices[%s] = [%s] does not index into %s" % (
            ",".join(str(int(p)) for p in pos), ", ".join(str(int(v)) for v in flat[i]), what))


def _gather_nd_kernel(xp, params, indices):
    k = indices.shape[-1]
    if k > params.ndim:
        raise _invalid("index innermost dimension length must be <= params rank; saw: %d vs. %d" % (k, params.ndim))
    _check_nd_indices(indices, params.shape[:k], "param shape %s" % _fmt(params.shape))
    if k == 0:
        return xp.broadcast_to(params, indices.shape[:-1] + params.shape).copy()
    return params[tuple(xp.moveaxis(indices, -1, 0))]


def _gather_nd_grad(op, grad):
    """d/dparams gather_nd(params, indices) = scatter_nd(indices, grad, shape(params))."""
    params, indices = op._inputs
    return [scatter_nd(indices, grad, shape(params, out_type=indices.dtype)), None]


register_op("GatherNd", infer=_gather_nd_infer, kernel=_gather_nd_kernel, grad=_gather_nd_grad)


def gather_nd(params, indices, name=None, batch_dims=0):
    """Gathers slices from `params` into a tensor with shape given by `indices`.

    `indices[..., :]` holds index tuples into the first `indices.shape[-1]` dimensions of `params`.

    Args:
      params: A `Tensor`.
      indices: An int32/int64 `Tensor`.
      name: A name for the operation (optional).
      batch_dims: Must be 0.

    Returns:
      A `Tensor` of shape `indices.shape[:-1] + params.shape[indices.shape[-1]:]`.

    Raises:
      InvalidArgumentError: At run time, for an index tuple out of range.
    """
    if batch_dims != 0:
        raise ValueError("gather_nd with batch_dims=%r is not supported" % (batch_dims,))
    params = ops.convert_to_tensor(params, name="params")
    return ops.apply_op("GatherNd", [params, _index_tensor(indices, name="indices")], name=name)


def _scatter_nd_infer(op):
    indices, updates, shp = op._inputs
    _check_dtype(indices, _INDEX_DTYPES, "indices", "ScatterNd")
    if shp._dtype is not indices._dtype:
        raise TypeError("Input 'shape' of 'ScatterNd' Op has type %s that does not match type %s of argument "
                        "'indices'." % (shp._dtype.name, indices._dtype.name))
    _with_rank(shp, 1)
    out = tensor_util._static_shape(shp).as_tuple()
    idd, ud = _dims(indices), _dims(updates)
    _with_rank_at_least(idd, 1)
    if out is not None and idd is not None and ud is not None and idd[-1] is not None:
        k = idd[-1]
        outer = len(idd) - 1
        if k > len(out):
            raise ValueError("Output must have rank at least indices.shape[-1] = %d, got %s" % (k, _fmt(out)))
        if not TensorShape(ud[:outer]).is_compatible_with(idd[:-1]) or len(ud) < outer:
            raise ValueError("The outer %d dimensions of indices.shape=%s must match the outer %d dimensions of "
                             "updates.shape=%s" % (outer, _fmt(idd), outer, _fmt(ud)))
        if not TensorShape(ud[outer:]).is_compatible_with(out[k:]):
            raise ValueError("The inner %d dimensions of output.shape=%s must match the inner %d dimensions of "
                             "updates.shape=%s" % (len(out) - k, _fmt(out), len(ud) - outer, _fmt(ud)))
    return [(updates._dtype, out)]


def _scatter_nd_kernel(xp, indices, updates, shape):
    out_shape = tuple(_int_list(shape))
    k = indices.shape[-1]
    if k > len(out_shape) or updates.shape != indices.shape[:-1] + out_shape[k:]:
        raise _invalid("Must have updates.shape = indices.shape[:-1] + shape[indices.shape[-1]:], got "
                       "updates.shape %s, indices.shape %s, shape: %s" % (_fmt(updates.shape), _fmt(indices.shape),
                                                                          _fmt(out_shape)))
    _check_nd_indices(indices, out_shape[:k], "shape %s" % _fmt(out_shape))
    out = xp.zeros(out_shape, dtype=updates.dtype)
    if k == 0:
        out += updates.reshape((-1,) + out_shape).sum(axis=0, dtype=updates.dtype)
    else:
        xp.add.at(out, tuple(xp.moveaxis(indices, -1, 0)), updates)
    return out


def _scatter_nd_grad(op, grad):
    """d/dupdates scatter_nd(indices, updates) = gather_nd(grad, indices)."""
    return [None, gather_nd(grad, op._inputs[0]), None]


register_op("ScatterNd", infer=_scatter_nd_infer, kernel=_scatter_nd_kernel, grad=_scatter_nd_grad)


def scatter_nd(indices, updates, shape, name=None):
    """Scatters `updates` into a new zero tensor of `shape` at `indices` (repeated indices add up).

    Args:
      indices: An int32/int64 `Tensor` of index tuples.
      updates: A `Tensor` of shape `indices.shape[:-1] + shape[indices.shape[-1]:]`.
      shape: A 1-D `Tensor` (same dtype as `indices`): the shape of the output.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the type of `updates` and the given shape.

    Raises:
      ValueError: If the static shapes don't fit together.
      InvalidArgumentError: At run time, for an index tuple out of range.
    """
    updates = ops.convert_to_tensor(updates, name="updates")
    indices, shp = _index_tensors([indices, shape], ["indices", "shape"])
    return ops.apply_op("ScatterNd", [indices, updates, shp], name=name)


# ---- OneHot ----------------------------------------------------------------------------------
def _one_hot_infer(op):
    indices, depth, on, off = op._inputs
    _check_dtype(indices, (dtypes.uint8, dtypes.int32, dtypes.int64), "indices", "OneHot")
    _check_dtype(depth, (dtypes.int32,), "depth", "OneHot")
    if on._dtype is not off._dtype:
        raise TypeError("Input 'off_value' of 'OneHot' Op has type %s that does not match type %s of argument "
                        "'on_value'." % (off._dtype.name, on._dtype.name))
    for t in (depth, on, off):
        _with_rank(t, 0)
    axis = op._attrs["axis"]
    dims = _dims(indices)
    if dims is None:
        return [(on._dtype, None)]
    r = len(dims)
    if not (axis == -1 or 0 <= axis <= r):
        raise ValueError("Expected axis to be -1 or between [0, %d).  But received: %d" % (r + 1, axis))
    dv = _value(depth)
    d = None if dv is None else int(dv)
    if d is not None and d < 0:
        raise ValueError("depth must be non-negative, got: %d" % d)
    a = r if axis == -1 else axis
    return [(on._dtype, dims[:a] + (d,) + dims[a:])]


def _one_hot_kernel(xp, indices, depth, on_value, off_value, axis):
    depth = int(depth)
    if depth < 0:
        raise _invalid("depth must be non-negative, got: %d" % depth)
    out = xp.where(indices[..., None] == xp.arange(depth), on_value, off_value).astype(on_value.dtype, copy=False)
    return out if axis == -1 else xp.moveaxis(out, -1, axis)


register_op("OneHot", infer=_one_hot_infer, kernel=_one_hot_kernel, grad=NO_GRADIENT)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """Returns a one-hot tensor: `on_value` where `indices[...] == j`, `off_value` elsewhere.

    Args:
      indices: A `Tensor` of indices (uint8/int32/int64); out-of-range indices give all `off_value`.
      depth: A scalar defining the depth of the one hot dimension.
      on_value: A scalar defining the value to fill in output when `indices[j] = i` (default: 1).
      off_value: A scalar defining the value to fill in output when `indices[j] != i` (default: 0).
      axis: The axis to fill (default: -1, a new inner-most axis).
      dtype: The data type of the output tensor (default: that of on/off_value, else float32).
      name: A name for the operation (optional).

    Returns:
      The one-hot `Tensor`.

    Raises:
      TypeError: If dtype of either `on_value` or `off_value` don't match `dtype`, or each other.
    """
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    values = [v for v in (indices, depth, on_value, off_value) if ops.is_tensor(v)]
    with ops.name_scope(name, "one_hot", values) as scope:
        on_exists, off_exists = on_value is not None, off_value is not None
        if on_exists:
            on_value = ops.convert_to_tensor(on_value, name="on_value")
        if off_exists:
            off_value = ops.convert_to_tensor(off_value, name="off_value")
        on_dtype = on_value.dtype if on_exists else None
        off_dtype = off_value.dtype if off_exists else None
        if on_exists or off_exists:
            if dtype is not None:
                if on_exists and on_dtype is not dtype:
                    raise TypeError("dtype {0} of on_value does not match dtype parameter {1}".format(on_dtype, dtype))
                if off_exists and off_dtype is not dtype:
                    raise TypeError("dtype {0} of off_value does not match dtype parameter {1}".format(off_dtype,
                                                                                                     dtype))
            else:
                dtype = on_dtype if on_exists else off_dtype
        elif dtype is None:
            dtype = dtypes.float32
        if not on_exists:
            on_value = ops.convert_to_tensor(1, dtype, name="on_value")
            on_dtype = dtype
        if not off_exists:
            off_value = ops.convert_to_tensor(0, dtype, name="off_value")
            off_dtype = dtype
        if on_dtype is not off_dtype:
            raise TypeError("dtype {0} of on_value does not match dtype {1} of off_value".format(on_dtype, off_dtype))
        indices = ops.convert_to_tensor(indices, name="indices")
        depth = ops.convert_to_tensor(depth, name="depth", preferred_dtype=dtypes.int32)
        return ops.apply_op("OneHot", [indices, depth, on_value, off_value],
                            {"axis": -1 if axis is None else int(axis)}, name=scope)


# ---- Pad / PadV2 / MirrorPad / MirrorPadGrad ---------------------------------------------------
def _static_paddings(op):
    """(input dims, paddings as [[before, after], ...] or None, rank) after static validation."""
    x, paddings = op._inputs[0], op._inputs[1]
    _check_dtype(paddings, _INDEX_DTYPES, "paddings", op._type)
    _with_rank(paddings, 2)
    pd, dims = _dims(paddings), _dims(x)
    if pd is not None and pd[1] is not None and pd[1] != 2:
        raise ValueError("Dimension must be 2 but is %d" % pd[1])
    n = None if pd is None else pd[0]
    if dims is not None and n is not None and n != len(dims):
        raise ValueError("The first dimension of paddings must be the rank of inputs%s %s" % (_fmt(pd), _fmt(dims)))
    r = len(dims) if dims is not None else n
    pv = _value(paddings)
    if pv is not None:
        pv = np.asarray(pv, dtype=np.int64).reshape(-1, 2).tolist()
        for b, a in pv:
            if b < 0 or a < 0:
                raise ValueError("Paddings must be non-negative: %d %d" % (b, a))
    return dims, pv, r


def _pad_infer(op):
    x = op._inputs[0]
    if len(op._inputs) == 3:
        _with_rank(op._inputs[2], 0)
        if op._inputs[2]._dtype is not x._dtype:
            raise TypeError("Input 'constant_values' of 'PadV2' Op has type %s that does not match type %s of "
                            "argument 'input'." % (op._inputs[2]._dtype.name, x._dtype.name))
    dims, pv, r = _static_paddings(op)
    if r is None:
        return [(x._dtype, None)]
    if pv is None:
        return [(x._dtype, (None,) * r)]
    mode = op._attrs.get("mode")
    out = []
    for i, (b, a) in enumerate(pv):
        d = None if dims is None else dims[i]
        if mode == "REFLECT" and d is not None and (b >= d or a >= d):
            raise ValueError("paddings must be less than the dimension size: %d, %d not less than %d" % (b, a, d))
        if mode == "SYMMETRIC" and d is not None and (b > d or a > d):
            raise ValueError("paddings must be no greater than the dimension size: %d, %d greater than %d"
                             % (b, a, d))
        out.append(None if d is None else d + b + a)
    return [(x._dtype, tuple(out))]


def _check_paddings(x, paddings, mode=None):
    p = np.asarray(paddings, dtype=np.int64)
    if p.shape != (x.ndim, 2):
        raise _invalid("The first dimension of paddings must be the rank of inputs%s %s"
                       % (_fmt(p.shape), _fmt(x.shape)))
    out = [tuple(row) for row in p.tolist()]
    for (b, a), d in zip(out, x.shape):
        if b < 0 or a < 0:
            raise _invalid("Paddings must be non-negative: %d %d" % (b, a))
        if mode == "REFLECT" and (b >= d or a >= d):
            raise _invalid("paddings must be less than the dimension size: %d, %d not less than %d" % (b, a, d))
        if mode == "SYMMETRIC" and (b > d or a > d):
            raise _invalid("paddings must be no greater than the dimension size: %d, %d greater than %d" % (b, a, d))
    return out


def _pad_kernel(xp, x, paddings):
    p = _check_paddings(x, paddings)
    if x.ndim == 0:
        return x.copy()
    return xp.pad(x, p, mode="constant", constant_values=b"" if x.dtype == object else 0)


def _pad_v2_kernel(xp, x, paddings, constant_values):
    p = _check_paddings(x, paddings)
    if x.ndim == 0:
        return x.copy()
    return xp.pad(x, p, mode="constant", constant_values=constant_values[()])


def _pad_grad(op, grad):
    """d/dx pad(x, p) = slice(grad, p[:, 0], shape(x))."""
    x, paddings = op._inputs[0], op._inputs[1]
    begin = reshape(slice(paddings, [0, 0], stack([rank(x), 1])), [-1])
    dx = slice(grad, begin, shape(x, out_type=paddings.dtype))
    return [dx, None] + [None] * (len(op._inputs) - 2)


register_op("Pad", infer=_pad_infer, kernel=_pad_kernel, grad=_pad_grad)
register_op("PadV2", infer=_pad_infer, kernel=_pad_v2_kernel, grad=_pad_grad)


def _mirror_pad_kernel(xp, x, paddings, mode):
    p = _check_paddings(x, paddings, mode)
    if x.ndim == 0:
        return x.copy()
    return xp.pad(x, p, mode="reflect" if mode == "REFLECT" else "symmetric")


def _mirror_pad_grad(op, grad):
    """d/dx mirror_pad(x) = grad with each padded border folded back onto the entries it copies."""
    return [ops.apply_op("MirrorPadGrad", [ops.convert_to_tensor(grad), op._inputs[1]],
                         {"mode": op._attrs["mode"]}), None]


register_op("MirrorPad", infer=_pad_infer, kernel=_mirror_pad_kernel, grad=_mirror_pad_grad)


def _mirror_pad_grad_infer(op):
    x, paddings = op._inputs
    _check_dtype(paddings, _INDEX_DTYPES, "paddings", "MirrorPadGrad")
    dims = _dims(x)
    pv = _value(paddings)
    if dims is None or pv is None:
        return [(x._dtype, None if dims is None else (None,) * len(dims))]
    pv = np.asarray(pv, dtype=np.int64).reshape(-1, 2).tolist()
    if len(pv) != len(dims):
        raise ValueError("The first dimension of paddings must be the rank of inputs")
    return [(x._dtype, tuple(None if d is None else d - b - a for d, (b, a) in zip(dims, pv)))]


def _mirror_pad_grad_kernel(xp, grad, paddings, mode):
    p = np.asarray(paddings, dtype=np.int64).reshape(-1, 2).tolist()
    off = 1 if mode == "REFLECT" else 0
    out = grad
    for axis, (b, a) in enumerate(p):
        g = xp.moveaxis(out, axis, 0)
        n = g.shape[0] - b - a
        if n < 0 or b + off > n or a + off > n:
            raise _invalid("paddings %d, %d do not fit a gradient of size %d" % (b, a, g.shape[0]))
        core = g[b:b + n].copy()
        core[off:off + b] += g[:b][::-1]
        core[n - off - a:n - off] += g[b + n:][::-1]
        out = xp.moveaxis(core, 0, axis)
    return out


def _mirror_pad_grad_grad(op, grad):
    """d/dg mirror_pad_grad(g) = mirror_pad(grad)."""
    return [ops.apply_op("MirrorPad", [ops.convert_to_tensor(grad), op._inputs[1]], {"mode": op._attrs["mode"]}),
            None]


register_op("MirrorPadGrad", infer=_mirror_pad_grad_infer, kernel=_mirror_pad_grad_kernel,
            grad=_mirror_pad_grad_grad)


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """Pads a tensor: `paddings[i] = [before, after]` entries are added around dimension i.

    Args:
      tensor: A `Tensor`.
      paddings: An int32/int64 `Tensor` of shape `[rank(tensor), 2]`.
      mode: One of "CONSTANT", "REFLECT", or "SYMMETRIC" (case-insensitive).
      name: A name for the operation (optional).
      constant_values: In "CONSTANT" mode, the scalar pad value to use (same type as `tensor`).

    Returns:
      A `Tensor`. Has the same type as `tensor`.

    Raises:
      ValueError: When mode is not one of "CONSTANT", "REFLECT", or "SYMMETRIC", or the static
        paddings don't fit.
    """
    tensor = ops.convert_to_tensor(tensor, name="input")
    paddings = _to_shape_tensor(paddings, name="paddings")
    m = mode.upper()
    if m == "CONSTANT":
        if not ops.is_tensor(constant_values) and np.all(np.asarray(constant_values) == 0):
            return ops.apply_op("Pad", [tensor, paddings], name=name)
        cv = ops.convert_to_tensor(constant_values, dtype=None if ops.is_tensor(constant_values) else tensor.dtype,
                                   name="constant_values")
        return ops.apply_op("PadV2", [tensor, paddings, cv], name=name)
    if m in ("REFLECT", "SYMMETRIC"):
        return ops.apply_op("MirrorPad", [tensor, paddings], {"mode": m}, name=name)
    raise ValueError("Unknown padding mode: %s" % mode)


# ---- ReverseV2 / ReverseSequence -------------------------------------------------------------
def _reverse_axes(axes, r):
    out = []
    for i, a in enumerate(axes):
        if not -r <= a < r:
            raise ValueError("'axis'[%d] = %d is out of valid range [%d, %d)" % (i, a, -r, r))
        a %= r
        if a in out:
            raise ValueError("axis %d specified more than once." % a)
        out.append(a)
    return tuple(out)


def _reverse_infer(op):
    x, axis = op._inputs
    _check_dtype(axis, _INDEX_DTYPES, "axis", "ReverseV2")
    _with_rank(axis, 1)
    dims, av = _dims(x), _value(axis)
    if dims is not None and av is not None:
        _reverse_axes(_int_list(av), len(dims))
    return [(x._dtype, dims)]


def _reverse_kernel(xp, tensor, axis):
    try:
        axes = _reverse_axes(_int_list(axis), tensor.ndim)
    except ValueError as e:
        raise _invalid(str(e)) from None
    return xp.flip(tensor, axis=axes) if axes else tensor


def _reverse_grad(op, grad):
    """d/dx reverse(x, axis) = reverse(grad, axis)."""
    return [reverse(grad, op._inputs[1]), None]


register_op("ReverseV2", infer=_reverse_infer, kernel=_reverse_kernel, grad=_reverse_grad)


def reverse(tensor, axis, name=None):
    """Reverses specific dimensions of a tensor (TF1's `tf.reverse`, i.e. ReverseV2).

    Args:
      tensor: A `Tensor`.
      axis: A 1-D int32/int64 `Tensor` (or list): the indices of the dimensions to reverse.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type and shape as `tensor`.

    Raises:
      ValueError: If a static axis is out of range or repeated.
    """
    tensor = ops.convert_to_tensor(tensor, name="tensor")
    return ops.apply_op("ReverseV2", [tensor, _to_shape_tensor(axis, name="axis")], name=name)


reverse_v2 = reverse


def _reverse_sequence_infer(op):
    x, lengths = op._inputs
    _check_dtype(lengths, _INDEX_DTYPES, "seq_lengths", "ReverseSequence")
    _with_rank(lengths, 1)
    seq_dim, batch_dim = op._attrs["seq_dim"], op._attrs["batch_dim"]
    dims = _dims(x)
    if dims is None:
        return [(x._dtype, None)]
    r = len(dims)
    if seq_dim == batch_dim:
        raise ValueError("seq_dim and batch_dim must not be the same: %d" % seq_dim)
    if not 0 <= batch_dim < r:
        raise ValueError("batch_dim must be < input rank: %d vs. %d" % (batch_dim, r))
    if not 0 <= seq_dim < r:
        raise ValueError("seq_dim must be < input rank: %d vs. %d" % (seq_dim, r))
    ld = _dims(lengths)
    if ld is not None and ld[0] is not None and dims[batch_dim] is not None and ld[0] != dims[batch_dim]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (dims[batch_dim], ld[0]))
    return [(x._dtype, dims)]


def _reverse_sequence_kernel(xp, x, seq_lengths, seq_dim, batch_dim):
    lengths = _int_list(seq_lengths)
    if len(lengths) != x.shape[batch_dim]:
        raise _invalid("Length of seq_lengths != input.dims(%d), (%d vs. %d)"
                       % (batch_dim, len(lengths), x.shape[batch_dim]))
    out = x.copy()
    for b, n in enumerate(lengths):
        if n < 0:
            raise _invalid("seq_lens(%d) < 0" % b)
        if n > x.shape[seq_dim]:
            raise _invalid("seq_lens(%d) > input.dims(%d)" % (b, seq_dim))
        idx = [_pslice(None)] * x.ndim
        idx[batch_dim] = _pslice(b, b + 1)
        idx[seq_dim] = _pslice(0, n)
        idx = tuple(idx)
        out[idx] = xp.flip(x[idx], axis=seq_dim)
    return out


def _reverse_sequence_grad(op, grad):
    """d/dx reverse_sequence(x) = reverse_sequence(grad) with the same lengths."""
    return [reverse_sequence(grad, op._inputs[1], seq_axis=op._attrs["seq_dim"], batch_axis=op._attrs["batch_dim"]),
            None]


register_op("ReverseSequence", infer=_reverse_sequence_infer, kernel=_reverse_sequence_kernel,
            grad=_reverse_sequence_grad)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None, seq_dim=None,  # noqa: A002
                     batch_dim=None):
    """Reverses the first `seq_lengths[b]` entries along `seq_axis` of each batch entry `b`.

    Args:
      input: A `Tensor`.
      seq_lengths: A 1-D int32/int64 `Tensor` of length `input.shape[batch_axis]`.
      seq_axis: The dimension which is partially reversed.
      batch_axis: The dimension along which reversal is performed (default 0).
      name: A name for the operation (optional).
      seq_dim: Deprecated alias of `seq_axis`.
      batch_dim: Deprecated alias of `batch_axis`.

    Returns:
      A `Tensor`. Has the same type and shape as `input`.

    Raises:
      ValueError: If the axes are invalid.
    """
    seq_axis = _deprecated_lookup("seq_axis", seq_axis, "seq_dim", seq_dim)
    batch_axis = _deprecated_lookup("batch_axis", batch_axis, "batch_dim", batch_dim)
    if seq_axis is None:
        raise ValueError("seq_axis must be specified")
    x = ops.convert_to_tensor(input, name="input")
    lengths = _index_tensor(seq_lengths, name="seq_lengths")
    return ops.apply_op("ReverseSequence", [x, lengths],
                        {"seq_dim": int(seq_axis), "batch_dim": 0 if batch_axis is None else int(batch_axis)},
                        name=name)


# ---- Range -----------------------------------------------------------------------------------
_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


def _range_size(start, limit, delta):
    """The number of elements of range(start, limit, delta), computed in the values' dtype."""
    if delta == 0:
        raise ValueError("Requires delta != 0: %s" % delta)
    if delta > 0 and start > limit:
        raise ValueError("Requires start <= limit when delta > 0: %s/%s" % (start, limit))
    if delta < 0 and start < limit:
        raise ValueError("Requires start >= limit when delta < 0: %s/%s" % (start, limit))
    if np.asarray(start).dtype.kind in "iu":
        return (abs(int(limit) - int(start)) + abs(int(delta)) - 1) // abs(int(delta))
    return int(np.ceil(np.abs((limit - start) / delta)))


def _range_infer(op):
    start, limit, delta = op._inputs
    for t, n in zip(op._inputs, ("start", "limit", "delta")):
        _check_dtype(t, _RANGE_DTYPES, n, "Range")
        _with_rank(t, 0)
    _check_same_dtype(op._inputs, "Range")
    vals = [_value(t) for t in op._inputs]
    if any(v is None for v in vals):
        return [(start._dtype, (None,))]
    return [(start._dtype, (_range_size(*[v[()] for v in vals]),))]


def _range_kernel(xp, start, limit, delta):
    try:
        n = _range_size(start[()], limit[()], delta[()])
    except ValueError as e:
        raise _invalid(str(e)) from None
    if start.dtype.kind in "iu":
        return (int(start) + int(delta) * xp.arange(n, dtype=np.int64)).astype(start.dtype)
    # TF accumulates `value += delta` in the output dtype.
    steps = xp.full(n, delta, dtype=start.dtype)
    if n:
        steps[0] = start
    return xp.cumsum(steps, dtype=start.dtype)


register_op("Range", infer=_range_infer, kernel=_range_kernel, grad=NO_GRADIENT)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 (TF's name)
    """Creates a sequence of numbers from `start` up to (not including) `limit` by `delta`.

    Like Python's `range`, `tf.range(n)` starts at 0. Without `dtype`, the result has the
    widest of the arguments' dtypes (int32 < int64 < float32 < float64).

    Args:
      start: A 0-D `Tensor` (scalar): the first entry, or the limit if `limit` is None.
      limit: A 0-D `Tensor` (scalar): upper limit of the sequence, exclusive.
      delta: A 0-D `Tensor` (scalar): number that increments `start`. Defaults to 1.
      dtype: The type of the elements of the resulting tensor.
      name: A name for the operation. Defaults to "range".

    Returns:
      A 1-D `Tensor` of type `dtype`.

    Raises:
      ValueError: If the static arguments describe an invalid range (e.g. delta == 0).
    """
    if limit is None:
        start, limit = 0, start
    with ops.name_scope(name, "Range", [v for v in (start, limit, delta) if ops.is_tensor(v)]) as scope:
        start = ops.convert_to_tensor(start, dtype=dtype, name="start")
        limit = ops.convert_to_tensor(limit, dtype=dtype, name="limit")
        delta = ops.convert_to_tensor(delta, dtype=dtype, name="delta")
        if dtype is None:
            args = [start, limit, delta]
            for a in args:
                if a.dtype not in _RANGE_DTYPES:
                    raise TypeError("Value passed to parameter 'start' has DataType %s not in list of allowed "
                                    "values: int32, int64, float32, float64" % a.dtype.name)
            inferred = max((a.dtype for a in args), key=_RANGE_DTYPES.index)
            start, limit, delta = [a if a.dtype is inferred else _math().cast(a, inferred) for a in args]
        return ops.apply_op("Range", [start, limit, delta], name=scope)


# ---- Where / Select / SelectV2 ---------------------------------------------------------------
def _where_infer(op):
    x = op._inputs[0]
    dims = _dims(x)
    return [(dtypes.int64, (None, None if dims is None else len(dims)))]


register_op("Where", infer=_where_infer, kernel=lambda xp, x: xp.argwhere(x).astype(np.int64), grad=NO_GRADIENT)


def _select_infer(op):
    cond, x, y = op._inputs
    _check_dtype(cond, (dtypes.bool_,), "condition", "Select")
    if x._dtype is not y._dtype:
        raise TypeError("Input 'e' of 'Select' Op has type %s that does not match type %s of argument 't'."
                        % (y._dtype.name, x._dtype.name))
    data = _merge_dims(_dims(x), _dims(y))
    c = _dims(cond)
    if c is None or data is None or len(c) == 0:
        return [(x._dtype, data)]
    if len(c) == 1 and len(data) > 1:
        first = _merge_dims(c, data[:1])
        return [(x._dtype, first + data[1:])]
    return [(x._dtype, _merge_dims(data, c))]


def _select_kernel(xp, condition, t, e):
    if t.shape != e.shape:
        raise _invalid("'then' and 'else' must have the same size.  but received: %s vs. %s"
                       % (_fmt(t.shape), _fmt(e.shape)))
    if condition.ndim == 0:
        return t if condition else e
    if condition.ndim == 1 and t.ndim > 1:
        if condition.shape[0] != t.shape[0]:
            raise _invalid("Number of batches of 'then' must match size of 'cond', but saw: %d vs. %d"
                           % (t.shape[0], condition.shape[0]))
        condition = condition.reshape((-1,) + (1,) * (t.ndim - 1))
    elif condition.shape != t.shape:
        raise _invalid("'cond' and 'then' must have the same size.  but received: %s vs. %s"
                       % (_fmt(condition.shape), _fmt(t.shape)))
    return xp.where(condition, t, e)


def _select_grad(op, grad):
    """d/dx where(c, x, y) = where(c, grad, 0); d/dy = where(c, 0, grad)."""
    c, x = op._inputs[0], op._inputs[1]
    zeros = zeros_like(x)
    grad = ops.convert_to_tensor(grad)
    return [None, ops.apply_op("Select", [c, grad, zeros]), ops.apply_op("Select", [c, zeros, grad])]


register_op("Select", infer=_select_infer, kernel=_select_kernel, grad=_select_grad)


def _broadcast_dims(a, b):
    """The static broadcast of two shapes (tuples or None), as TF's `broadcast_static_shape`."""
    if a is None or b is None:
        return None
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x is None or y is None:
            if x is not None and x > 1:
                out.append(x)
            elif y is not None and y > 1:
                out.append(y)
            else:
                out.append(None)
        elif x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        else:
            raise ValueError("Incompatible shapes for broadcasting: %s and %s" % (TensorShape(a), TensorShape(b)))
    return tuple(out)


def _select_v2_infer(op):
    cond, x, y = op._inputs
    _check_dtype(cond, (dtypes.bool_,), "condition", "SelectV2")
    if x._dtype is not y._dtype:
        raise TypeError("Input 'e' of 'SelectV2' Op has type %s that does not match type %s of argument 't'."
                        % (y._dtype.name, x._dtype.name))
    return [(x._dtype, _broadcast_dims(_broadcast_dims(_dims(cond), _dims(x)), _dims(y)))]


def _select_v2_kernel(xp, condition, t, e):
    try:
        np.broadcast_shapes(condition.shape, t.shape, e.shape)
    except ValueError:
        raise _invalid("condition %s, then %s, and else %s must be broadcastable"
                       % (_fmt(condition.shape), _fmt(t.shape), _fmt(e.shape))) from None
    return xp.where(condition, t, e)


def _select_v2_grad(op, grad):
    """d/dx where_v2(c, x, y) = unbroadcast(where(c, grad, 0)); d/dy = unbroadcast(where(c, 0, grad))."""
    c, x, y = op._inputs
    grad = ops.convert_to_tensor(grad)
    zeros = zeros_like(grad)
    return [None, unbroadcast(ops.apply_op("SelectV2", [c, grad, zeros]), x),
            unbroadcast(ops.apply_op("SelectV2", [c, zeros, grad]), y)]


register_op("SelectV2", infer=_select_v2_infer, kernel=_select_v2_kernel, grad=_select_v2_grad)


def _condition(value):
    if ops.is_tensor(value):
        return ops.convert_to_tensor(value)
    return ops.convert_to_tensor(value, dtype=dtypes.bool_, name="condition")


def where(condition, x=None, y=None, name=None):
    """Returns the coordinates of true elements of `condition`, or selects from `x` and `y`.

    With only `condition`: a 2-D int64 tensor `[num_true, rank(condition)]` of the coordinates of
    its true (non-zero) elements. With `x` and `y` (same shape and type): `x` where `condition` is
    true, else `y`; `condition` may also be a scalar, or a vector selecting whole rows of `x`/`y`.

    Args:
      condition: A `Tensor` of type `bool`.
      x: A Tensor which may have the same shape as `condition`.
      y: A `tensor` of the same shape and type as `x`.
      name: A name of the operation (optional).

    Returns:
      A `Tensor` with the same type and shape as `x`, `y` if they are non-None, else the int64
      coordinates.

    Raises:
      ValueError: When exactly one of `x` or `y` is non-None.
    """
    if x is None and y is None:
        with ops.name_scope(name, "Where", [condition] if ops.is_tensor(condition) else None) as scope:
            condition = ops.convert_to_tensor(condition, preferred_dtype=dtypes.bool_, name="condition")
            return ops.apply_op("Where", [condition], name=scope)
    if x is not None and y is not None:
        condition = _condition(condition)
        x, y = _convert_same_dtype([x, y], "t", "Select")
        return ops.apply_op("Select", [condition, x, y], name=name)
    raise ValueError("x and y must both be non-None or both be None.")


def where_v2(condition, x=None, y=None, name=None):
    """Like `where`, but `condition`, `x` and `y` broadcast against each other.

    Args:
      condition: A `Tensor` of type `bool`.
      x: A Tensor broadcastable with `condition` and `y`.
      y: A Tensor broadcastable with `condition` and `x`, of the type of `x`.
      name: A name of the operation (optional).

    Returns:
      The coordinates of true elements (only `condition` given), else the broadcast selection.

    Raises:
      ValueError: When exactly one of `x` or `y` is non-None, or the shapes don't broadcast.
    """
    if x is None and y is None:
        return where(condition, name=name)
    if x is not None and y is not None:
        condition = _condition(condition)
        x, y = _convert_same_dtype([x, y], "t", "SelectV2")
        return ops.apply_op("SelectV2", [condition, x, y], name=name)
    raise ValueError("x and y must both be non-None or both be None.")


# ---- Unique ----------------------------------------------------------------------------------
Unique = collections.namedtuple("Unique", ["y", "idx"])


def _unique_infer(op):
    x = op._inputs[0]
    _with_rank(x, 1)
    return [(x._dtype, (None,)), (op._attrs["out_idx"], _dims(x) or (None,))]


def _unique_kernel(xp, x, out_idx):
    if x.ndim != 1:
        raise _invalid("unique expects a 1D vector.")
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    return values[order], position[inverse.reshape(-1)].astype(out_idx.as_numpy_dtype)


register_op("Unique", infer=_unique_infer, kernel=_unique_kernel, grad=NO_GRADIENT)


def unique(x, out_idx=dtypes.int32, name=None):
    """Finds unique elements in a 1-D tensor, in order of first occurrence.

    Args:
      x: A 1-D `Tensor`.
      out_idx: An optional `tf.DType` from: `tf.int32, tf.int64`. Defaults to `tf.int32`.
      name: A name for the operation (optional).

    Returns:
      A tuple of `Tensor` objects (y, idx): `y` holds the unique values and `x == gather(y, idx)`.

    Raises:
      ValueError: If `x` is statically not 1-D.
    """
    x = ops.convert_to_tensor(x, name="x")
    y, idx = ops.apply_op("Unique", [x], {"out_idx": dtypes.as_dtype(out_idx)}, name=name)
    return Unique(y, idx)


# ---- boolean_mask / sequence_mask / meshgrid -------------------------------------------------
def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """Applies a boolean mask to a tensor: keeps the entries (rows) of `tensor` where `mask` is true.

    Args:
      tensor: N-D `Tensor`.
      mask: K-D boolean `Tensor`, K <= N and K must be known statically; its shape must match
        `tensor.shape[axis:axis + K]`.
      name: A name for this operation (optional).
      axis: A 0-D int `Tensor` representing the axis in `tensor` to mask from (default 0).

    Returns:
      (N-K+1)-dimensional `Tensor` populated by entries in `tensor` corresponding to `True` values
      in `mask`.

    Raises:
      ValueError: If shapes do not conform, or the mask is a scalar or of unknown rank.
    """
    with ops.name_scope(name, "boolean_mask", [v for v in (tensor, mask) if ops.is_tensor(v)]):
        tensor = ops.convert_to_tensor(tensor, name="tensor")
        mask = ops.convert_to_tensor(mask, name="mask")
        shape_mask = mask.get_shape()
        ndims_mask = shape_mask.ndims
        shape_tensor = tensor.get_shape()
        if ndims_mask == 0:
            raise ValueError("mask cannot be scalar.")
        if ndims_mask is None:
            raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  "
                             "E.g. shape=[None] is ok, but shape=None is not.")
        axis = 0 if axis is None else axis
        shape_tensor[axis:axis + ndims_mask].assert_is_compatible_with(shape_mask)
        dyn = shape(tensor)
        tensor = reshape(tensor, concat([dyn[:axis], [size(mask)], dyn[axis + ndims_mask:]], 0))
        first_dim = shape_tensor[axis:axis + ndims_mask].num_elements()
        tensor.set_shape(as_shape(shape_tensor[:axis]).concatenate([first_dim]).concatenate(
            shape_tensor[axis + ndims_mask:]))
        indices = squeeze(where(reshape(mask, [-1])), axis=[1])
        return gather(tensor, indices, axis=axis)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool_, name=None):
    """Returns a mask tensor representing the first N positions of each cell:
    `mask[i_1, ..., i_k, j] = j < lengths[i_1, ..., i_k]`.

    Args:
      lengths: integer tensor, all its values <= maxlen.
      maxlen: scalar integer tensor, size of last dimension of returned tensor (default: the
        maximum value in `lengths`).
      dtype: output type of the resulting tensor.
      name: name of the op.

    Returns:
      A mask tensor of shape `lengths.shape + (maxlen,)`, cast to specified dtype.

    Raises:
      ValueError: if `maxlen` is not a scalar.
    """
    m = _math()
    with ops.name_scope(name, "SequenceMask", [v for v in (lengths, maxlen) if ops.is_tensor(v)]):
        lengths = ops.convert_to_tensor(lengths)
        if maxlen is None:
            maxlen = m.reduce_max(lengths)
            maxlen = m.maximum(constant(0, maxlen.dtype), maxlen)
        else:
            maxlen = ops.convert_to_tensor(maxlen)
        if maxlen.get_shape().ndims is not None and maxlen.get_shape().ndims != 0:
            raise ValueError("maxlen must be scalar for sequence_mask")
        row_vector = ops.apply_op("Range", [constant(0, maxlen.dtype), maxlen, constant(1, maxlen.dtype)])
        matrix = m.cast(expand_dims(lengths, -1), maxlen.dtype)
        result = m.less(row_vector, matrix)
        dtype = dtypes.as_dtype(dtype)
        return result if result.dtype is dtype else m.cast(result, dtype)


def meshgrid(*args, **kwargs):
    """Broadcasts parameters for evaluation on an N-D grid.

    Given N one-dimensional coordinate arrays `*args`, returns N N-D coordinate arrays for
    evaluating expressions on an N-D grid.

    Args:
      *args: `Tensor`s with rank 1.
      **kwargs:
        - indexing: Either 'xy' or 'ij' (optional, default: 'xy').
        - name: A name for the operation (optional).

    Returns:
      outputs: A list of N `Tensor`s with rank N.

    Raises:
      TypeError: When an unknown keyword argument is passed.
      ValueError: When indexing is not 'xy' or 'ij'.
    """
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        key = list(kwargs.keys())[0]
        raise TypeError("'{}' is an invalid keyword argument for this function".format(key))
    if indexing not in ("xy", "ij"):
        raise ValueError("indexing parameter must be either 'xy' or 'ij'")
    with ops.name_scope(name, "meshgrid", [a for a in args if ops.is_tensor(a)]):
        ndim = len(args)
        s0 = (1,) * ndim
        output = [reshape(stack(x), s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(args)]
        shapes = [size(x) for x in args]
        if indexing == "xy" and ndim > 1:
            output[0] = reshape(output[0], (1, -1) + (1,) * (ndim - 2))
            output[1] = reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
            shapes[0], shapes[1] = shapes[1], shapes[0]
        return [broadcast_to(x, shapes) for x in output]


# ---- TopKV2 ----------------------------------------------------------------------------------
TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def _top_k_infer(op):
    x, k = op._inputs
    _check_dtype(k, (dtypes.int32,), "k", "TopKV2")
    _with_rank(k, 0)
    dims = _dims(x)
    _with_rank_at_least(dims, 1)
    kv = _value(k)
    kv = None if kv is None else int(kv)
    if kv is not None and kv < 0:
        raise ValueError("Need k >= 0, got %d" % kv)
    if dims is None:
        return [(x._dtype, None), (dtypes.int32, None)]
    if kv is not None and dims[-1] is not None and dims[-1] < kv:
        raise ValueError("input must have last dimension >= k = %d but is %d" % (kv, dims[-1]))
    out = dims[:-1] + (kv,)
    return [(x._dtype, out), (dtypes.int32, out)]


def _top_k_kernel(xp, x, k, sorted):  # noqa: A002 (TF's attr name)
    k = int(k)
    n = x.shape[-1]
    if k < 0:
        raise _invalid("Need k >= 0, got %d" % k)
    if n < k:
        raise _invalid("input must have at least k columns. Had %d, needed %d" % (n, k))
    # A stable ascending sort of the reversed rows, read backwards: descending, ties by lower index.
    order = xp.argsort(x[..., ::-1], axis=-1, kind="stable")[..., ::-1][..., :k]
    indices = (n - 1 - order).astype(np.int32)
    return xp.take_along_axis(x, indices, axis=-1), indices


def _top_k_grad(op, grad, _):
    """d/dx top_k(x).values = grad scattered to the positions in `indices` (zero elsewhere)."""
    x, indices = op._inputs[0], op._outputs[1]
    in_shape = shape(x)
    ind_2d = reshape(indices, stack([-1, shape(indices)[-1]]))
    ind_2d_shape = shape(ind_2d)
    rows = broadcast_to(expand_dims(range(0, ind_2d_shape[0]), 1), ind_2d_shape)
    dense = scatter_nd(stack([rows, ind_2d], axis=-1), reshape(grad, ind_2d_shape),
                       stack([ind_2d_shape[0], in_shape[-1]]))
    return [reshape(dense, in_shape), None]


register_op("TopKV2", infer=_top_k_infer, kernel=_top_k_kernel, grad=_top_k_grad)


def top_k(input, k=1, sorted=True, name=None):  # noqa: A002
    """Finds values and indices of the `k` largest entries for the last dimension.

    Equal values are ordered by lower index first.

    Args:
      input: 1-D or higher `Tensor` with last dimension at least `k`.
      k: 0-D `int32` `Tensor`. Number of top elements to look for along the last dimension.
      sorted: If true the resulting `k` elements will be sorted by the values in descending order.
      name: Optional name for the operation.

    Returns:
      values: The `k` largest elements along each last dimensional slice.
      indices: The int32 indices of `values` within the last dimension of `input`.

    Raises:
      ValueError: If the static last dimension is smaller than `k`.
    """
    x = ops.convert_to_tensor(input, name="input")
    k = ops.convert_to_tensor(k, name="k", preferred_dtype=dtypes.int32)
    values, indices = ops.apply_op("TopKV2", [x, k], {"sorted": bool(sorted)}, name=name)
    return TopKV2(values, indices)


# ---- BroadcastTo / BroadcastArgs ---------------------------------------------------------------
def _broadcast_to_infer(op):
    x, shp = op._inputs
    _check_dtype(shp, _INDEX_DTYPES, "shape", "BroadcastTo")
    _with_rank(shp, 1)
    target = tensor_util._static_shape(shp).as_tuple()
    dims = _dims(x)
    if target is None or dims is None:
        return [(x._dtype, target)]
    if len(dims) > len(target):
        raise ValueError("Rank of input (%d) must be no greater than rank of output shape (%d)."
                         % (len(dims), len(target)))
    padded = (1,) * (len(target) - len(dims)) + dims
    out = []
    for d, t in zip(padded, target):
        if d is not None and t is not None and d != 1 and d != t:
            raise ValueError("Incompatible shapes: %s vs. %s" % (_fmt(dims), _fmt(target)))
        out.append(t if t is not None else (d if d is not None and d != 1 else None))
    return [(x._dtype, tuple(out))]


def _broadcast_to_kernel(xp, x, shape):
    target = tuple(_int_list(shape))
    try:
        return xp.broadcast_to(x, target)
    except ValueError:
        raise _invalid("Unable to broadcast tensor of shape %s to tensor of shape %s"
                       % (_fmt(x.shape), _fmt(target))) from None


def _broadcast_to_grad(op, grad):
    """d/dx broadcast_to(x) = grad summed over the broadcast axes."""
    return [unbroadcast(ops.convert_to_tensor(grad), op._inputs[0]), None]


register_op("BroadcastTo", infer=_broadcast_to_infer, kernel=_broadcast_to_kernel, grad=_broadcast_to_grad)


def broadcast_to(input, shape, name=None):  # noqa: A002
    """Broadcasts `input` to the shape `shape` (NumPy broadcasting rules).

    Args:
      input: A `Tensor`.
      shape: A 1-D int32/int64 `Tensor` (or list): the target shape.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the type of `input` and the given shape.

    Raises:
      ValueError: If the static shapes are not compatible for broadcasting.
    """
    x = ops.convert_to_tensor(input, name="input")
    return ops.apply_op("BroadcastTo", [x, _to_shape_tensor(shape, name="shape")], name=name)


def _broadcast_args_infer(op):
    s0, s1 = op._inputs
    _check_dtype(s0, _INDEX_DTYPES, "s0", "BroadcastArgs")
    _check_same_dtype(op._inputs, "BroadcastArgs")
    _with_rank(s0, 1)
    _with_rank(s1, 1)
    n0, n1 = (_dims(s)[0] if _dims(s) is not None else None for s in (s0, s1))
    return [(s0._dtype, (None if n0 is None or n1 is None else max(n0, n1),))]


def _broadcast_args_kernel(xp, s0, s1):
    try:
        return xp.asarray(np.broadcast_shapes(tuple(_int_list(s0)), tuple(_int_list(s1))), dtype=s0.dtype)
    except ValueError:
        raise _invalid("Incompatible shapes: %s vs. %s" % (_fmt(_int_list(s0)), _fmt(_int_list(s1)))) from None


register_op("BroadcastArgs", infer=_broadcast_args_infer, kernel=_broadcast_args_kernel, grad=NO_GRADIENT)


def broadcast_dynamic_shape(shape_x, shape_y):
    """Computes the shape of a broadcast given symbolic shapes.

    Args:
      shape_x: A rank 1 integer `Tensor`, representing the shape of x.
      shape_y: A rank 1 integer `Tensor`, representing the shape of y.

    Returns:
      A rank 1 integer `Tensor` representing the broadcasted shape.
    """
    shape_x, shape_y = _index_tensors([shape_x, shape_y], ["s0", "s1"])
    return ops.apply_op("BroadcastArgs", [shape_x, shape_y])


def broadcast_static_shape(shape_x, shape_y):
    """Computes the shape of a broadcast given known `TensorShape`s.

    Args:
      shape_x: A `TensorShape`.
      shape_y: A `TensorShape`.

    Returns:
      A `TensorShape` representing the broadcasted shape.

    Raises:
      ValueError: If the two shapes can not be broadcasted.
    """
    return TensorShape(_broadcast_dims(as_shape(shape_x).as_tuple(), as_shape(shape_y).as_tuple()))


# ---- auto-packing of lists holding tensors -----------------------------------------------------
def _flatten(value):
    stack_ = [value]
    while stack_:
        v = stack_.pop()
        if isinstance(v, (list, tuple)):
            stack_.extend(v)
        else:
            yield v


def _dtype_from_nested_lists(values):
    for v in values:
        if ops.is_tensor(v):
            return v.dtype
        if isinstance(v, (list, tuple)):
            d = _dtype_from_nested_lists(v)
            if d is not None:
                return d
    return None


def _autopacking_helper(list_or_tuple, dtype, name):
    """Packs a (nested) list holding tensors into one tensor with Pack ops, converting the other
    elements to `dtype`."""
    must_pack = False
    converted = []
    with ops.name_scope(name) as scope:
        for i, elem in enumerate(list_or_tuple):
            if ops.is_tensor(elem):
                if elem.dtype is not dtype:
                    raise TypeError("Cannot convert a list containing a tensor of dtype %s to %s (Tensor is: %r)"
                                    % (elem.dtype, dtype, elem))
                converted.append(ops.convert_to_tensor(elem))
                must_pack = True
            elif isinstance(elem, (list, tuple)):
                c = _autopacking_helper(elem, dtype, str(i))
                must_pack = must_pack or isinstance(c, ops.Tensor)
                converted.append(c)
            else:
                converted.append(elem)
        if not must_pack:
            return converted
        elems = [e if isinstance(e, ops.Tensor) else constant(e, dtype=dtype, name=str(i))
                 for i, e in enumerate(converted)]
        return ops.apply_op("Pack", elems, {"axis": 0, "N": len(elems)}, name=scope)


def _autopacking_conversion_function(v, dtype=None, name=None, as_ref=False):
    """Tensor conversion for lists/tuples holding tensors (as TF's auto-packing): a Pack op."""
    if as_ref or not any(ops.is_tensor(e) for e in _flatten(v)):
        return NotImplemented
    inferred = _dtype_from_nested_lists(v)
    if dtype is None:
        dtype = inferred
    else:
        dtype = dtypes.as_dtype(dtype)
        if dtype is not inferred:
            v = _cast_nested(v, dtype)
    return _autopacking_helper(v, dtype, name or "packed")


def _cast_nested(v, dtype):
    if isinstance(v, (list, tuple)):
        return [_cast_nested(e, dtype) for e in v]
    if ops.is_tensor(v) and v.dtype is not dtype:
        return _math().cast(v, dtype)
    return v


ops.register_tensor_conversion_function((list, tuple), _autopacking_conversion_function, 99)
