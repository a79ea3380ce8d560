"""Array ops that create tensors or change their shape: fill/zeros/ones, range, reshape,
size/rank, squeeze, expand_dims, broadcast_to and the broadcast shape helpers."""

import numbers

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.constant_op import constant
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import Dimension, TensorShape, as_shape
from .array_helpers import (
    _INDEX_DTYPES,
    _check_dtype,
    _check_same_dtype,
    _dims,
    _fmt,
    _index_tensor,
    _index_tensors,
    _int_list,
    _invalid,
    _math,
    _to_shape_tensor,
    _value,
    _with_rank,
)
from .core_ops import shape, unbroadcast


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
    return xp.full(dims, value[()], dtype=value.dtype)


def _fill_grad(op, grad):
    """d/dvalue fill(dims, value) = sum(grad)."""
    return [None, _math().reduce_sum(grad)]


register_op("Fill", infer=_fill_infer, kernel=_fill_kernel, grad=_fill_grad, gpu=True, host_inputs=(0, 1))


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


register_op("Reshape", infer=_reshape_infer, kernel=_reshape_kernel, grad=_reshape_grad, inline=_static_reshape_inline,
            gpu=True, host_inputs=(1,))


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
            kernel=lambda xp, x, out_type: np.asarray(x.size, dtype=out_type.as_numpy_dtype), grad=NO_GRADIENT,
            gpu=True, shape_inputs=(0,), on_host=True)


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
            kernel=lambda xp, x: np.asarray(x.ndim, dtype=np.int32), grad=NO_GRADIENT, gpu=True, shape_inputs=(0,),
            on_host=True)


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


register_op("Squeeze", infer=_squeeze_infer, kernel=_squeeze_kernel, grad=_squeeze_grad, inline=_static_reshape_inline,
            gpu=True)


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
            inline=_static_reshape_inline, gpu=True, host_inputs=(1,))


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


register_op("Range", infer=_range_infer, kernel=_range_kernel, grad=NO_GRADIENT, gpu=True, on_host=True)


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


register_op("BroadcastTo", infer=_broadcast_to_infer, kernel=_broadcast_to_kernel, grad=_broadcast_to_grad,
            gpu=True, host_inputs=(1,))


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


register_op("BroadcastArgs", infer=_broadcast_args_infer, kernel=_broadcast_args_kernel, grad=NO_GRADIENT,
            gpu=True, on_host=True)


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


# Names from modules of the family that also import names of this one (a cycle): bound here,
# after this module's own names exist, and only called at run time.
from .array_select_ops import _broadcast_dims  # noqa: E402


# ---- BroadcastGradientArgs (TF's gradient graphs of broadcasting binary ops use it) --------------
def _bcast_args_infer(op):
    dt = op._inputs[0].dtype
    if dt not in (dtypes.int32, dtypes.int64) or op._inputs[1].dtype is not dt:
        raise TypeError("Inputs of 'BroadcastGradientArgs' Op must both be int32 or int64, got %s and %s"
                        % (dt.name, op._inputs[1].dtype.name))
    for t in op._inputs:
        if t.shape.ndims is not None and t.shape.ndims != 1:
            raise ValueError("Shape must be rank 1 but is rank %d" % t.shape.ndims)
    return [(dt, (None,)), (dt, (None,))]


def _bcast_args_kernel(xp, s0, s1):
    for i, s in enumerate((s0, s1)):
        if np.ndim(s) != 1:
            raise _invalid("In[%d] must be a vector.%s" % (i, _fmt(np.shape(s))))
    a, b = [int(d) for d in np.asarray(s0).reshape(-1)], [int(d) for d in np.asarray(s1).reshape(-1)]
    dt = np.asarray(s0).dtype
    if a == b:
        return np.zeros(0, dt), np.zeros(0, dt)
    n = max(len(a), len(b))
    pa, pb = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    r0, r1 = [], []
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x == y:
            if x == 1:
                r0.append(i)
                r1.append(i)
        elif x == 1:
            r0.append(i)
        elif y == 1:
            r1.append(i)
        else:
            raise _invalid("Incompatible shapes: %s vs. %s" % (_fmt(a), _fmt(b)))
    return np.array(r0, dt), np.array(r1, dt)


register_op("BroadcastGradientArgs", infer=_bcast_args_infer, kernel=_bcast_args_kernel, grad=NO_GRADIENT)


def broadcast_gradient_args(s0, s1, name=None):
    """The axes to sum a broadcast result's gradient over for each input (TF's op
    "BroadcastGradientArgs", `array_ops.broadcast_gradient_args`: the gradient graphs TF writes use it).

    Args:
      s0: A 1-D int32 or int64 tensor: the first input's shape.
      s1: A 1-D tensor of the same dtype: the second input's shape.
      name: A name for the operation (optional).

    Returns:
      A tuple `(r0, r1)` of 1-D tensors of the dtype of `s0`: the axes of the broadcast shape that
      `s0` (`s1`) lacks or has as 1; both empty when the shapes are equal.

    Raises:
      TypeError: If the inputs are not both int32 or both int64.
      ValueError: If an input's static rank is not 1.
      InvalidArgumentError: At run time, if an input is not a vector or the shapes do not broadcast.
    """
    with ops.name_scope(name, "BroadcastGradientArgs", [s0, s1]) as scope:
        s0 = ops.convert_to_tensor(s0)
        s1 = ops.convert_to_tensor(s1, dtype=s0.dtype)
        return tuple(ops.apply_op("BroadcastGradientArgs", [s0, s1], {}, name=scope))
