"""Array ops that select elements: where/select, unique, boolean_mask, sequence_mask,
meshgrid and top_k."""

import collections

import numpy as np

from ..framework import dtypes, ops
from ..framework.constant_op import constant
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape, as_shape
from .array_helpers import (
    _check_dtype,
    _convert_same_dtype,
    _dims,
    _fmt,
    _invalid,
    _math,
    _merge_dims,
    _value,
    _with_rank,
    _with_rank_at_least,
)
from .core_ops import shape, unbroadcast, zeros_like


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


def _select_inline(op):
    """The kernel's `t if condition else e` for a scalar condition, when the static shapes of `t`
    and `e` are defined and equal (the kernel's shape check passes)."""
    cond, t, e = op._inputs
    dims = t._shape._dims
    if cond._shape._dims != () or dims is None or None in dims or e._shape._dims != dims:
        return None
    return "({1} if {0} else {2})"


register_op("Select", infer=_select_infer, kernel=_select_kernel, grad=_select_grad, gpu=True, inline=_select_inline)


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


register_op("SelectV2", infer=_select_v2_infer, kernel=_select_v2_kernel, grad=_select_v2_grad, gpu=True,
            elementwise=True,  # on scalars xp.where is a choice between the two values
            inline=lambda op: "({1} if {0} else {2})" if all(t._shape._dims == () for t in op._inputs) else None)


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


# Names from modules of the family that also import names of this one (a cycle): bound here,
# after this module's own names exist, and only called at run time.
from .array_gather_ops import gather, scatter_nd  # noqa: E402
from .array_join_ops import concat, stack  # noqa: E402
from .array_shape_ops import broadcast_to, expand_dims, range, reshape, size, squeeze  # noqa: E402
