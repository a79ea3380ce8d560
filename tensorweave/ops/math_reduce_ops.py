"""Math ops: reductions (reduce_sum, reduce_mean, ..., reduce_logsumexp, count_nonzero) and
ArgMax / ArgMin."""

import string
import warnings

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.constant_op import constant
from ..framework.registry import NO_GRADIENT, register_op
from . import core_ops
from .math_binary_ops import add, equal, floor_div, floormod, maximum, minimum, multiply, not_equal, realdiv, subtract
from .math_helpers import _BOOL, _FLOAT, _NUMERIC, _REAL, _check_dtype, _const_value, _dims_text, _op_scope
from .math_scan_ops import cumprod, cumsum
from .math_unary_ops import _conj, cast, exp, log, logical_not, sqrt, square


# ---- reductions ----------------------------------------------------------------------------
def _static_axes(axes_t, rank):
    """The reduction axes as sorted non-negative ints when known at graph construction, else None.

    Raises:
      ValueError: If a constant axis is out of range for the known rank.
    """
    value = _const_value(axes_t)
    if value is None:
        return None
    axes = [int(a) for a in np.ravel(value)]
    if rank is None:
        return axes if all(a >= 0 for a in axes) else None
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError("Invalid reduction dimension %d for input with %d dimensions." % (a, rank))
    return sorted({a % rank for a in axes}) if rank else []


def _reduce_infer(op):
    x, axes_t = op._inputs
    keep = op._attrs["keep_dims"]
    shape = x._shape.as_tuple()
    if op._attrs.get("_all_axes") and not keep:
        return [(x._dtype, ())]
    rank = None if shape is None else len(shape)
    axes = _static_axes(axes_t, rank)
    if rank is None:
        return [(x._dtype, None)]
    if axes is None:
        return [(x._dtype, (None,) * rank if keep else None)]
    if keep:
        return [(x._dtype, tuple(1 if i in axes else d for i, d in enumerate(shape)))]
    return [(x._dtype, tuple(d for i, d in enumerate(shape) if i not in axes))]


def _axis_tuple(axes):
    if type(axes) is np.ndarray:
        known = _ALL_AXES_TUPLES.get(id(axes))  # the shared all-axes arrays (never freed, so ids are stable)
        return known if known is not None else tuple(axes.ravel().tolist())
    return tuple(int(a) for a in np.ravel(axes))


def _reduction_axes_error(ndim, axes):
    """TF's InvalidArgumentError for reduction axes out of range or repeated (None if they are fine)."""
    values = _axis_tuple(axes)
    for a in values:
        if not -ndim <= a < ndim:
            return errors.InvalidArgumentError(None, None, "Invalid reduction dimension (%d for input with %d "
                                               "dimension(s)" % (a, ndim))
    seen = set()
    for a in values:
        if a % ndim in seen:
            return errors.InvalidArgumentError(None, None, "Invalid reduction arguments: Axes contains duplicate "
                                               "dimension: %d" % (a % ndim))
        seen.add(a % ndim)
    return None


def _checking_axes(kernel):
    """A reduction kernel whose NumPy errors about the axes (out of range, repeated) become TF's."""
    def checked(xp, x, axes, keep_dims):
        try:
            return kernel(xp, x, axes, keep_dims)
        except (ValueError, IndexError):  # NumPy's AxisError is both
            err = _reduction_axes_error(x.ndim, axes)
            if err is None:
                raise
            raise err from None
    return checked


def _sum_kernel(xp, x, axes, keep_dims):
    # NumPy's ufunc reduce directly: ndarray.sum's Python wrapper costs more than a small sum itself.
    reduce = np.add.reduce if xp is np else xp.sum
    if x.dtype == np.float16:
        return reduce(x, axis=_axis_tuple(axes), dtype=np.float32, keepdims=keep_dims).astype(np.float16)
    return reduce(x, axis=_axis_tuple(axes), dtype=x.dtype, keepdims=keep_dims)


def _prod_kernel(xp, x, axes, keep_dims):
    if x.dtype == np.float16:
        return xp.prod(x, axis=_axis_tuple(axes), dtype=np.float32, keepdims=keep_dims).astype(np.float16)
    return xp.prod(x, axis=_axis_tuple(axes), dtype=x.dtype, keepdims=keep_dims)


def _mean_kernel(xp, x, axes, keep_dims):
    ax = _axis_tuple(axes)
    if x.dtype.kind in "iu":
        # As TF: the sum in a 64-bit accumulator (wrapping around for int64), then divided by the
        # count, truncating toward zero as C++'s division, and cast back.
        acc = np.uint64 if x.dtype.kind == "u" else np.int64
        total = xp.sum(x, axis=ax, dtype=acc, keepdims=keep_dims)
        count = max(int(np.prod([x.shape[a] for a in ax], dtype=np.int64)), 1)
        q = total // acc(count)
        if x.dtype.kind == "i":
            q = q + ((q * acc(count) != total) & (total < 0)).astype(acc)  # from floor to truncation
        return q.astype(x.dtype)
    if x.size == 0:
        with warnings.catch_warnings():  # NumPy's "Mean of empty slice": TF gives NaN silently
            warnings.simplefilter("ignore", RuntimeWarning)
            return xp.mean(x, axis=ax, keepdims=keep_dims).astype(x.dtype, copy=False)
    return xp.mean(x, axis=ax, keepdims=keep_dims).astype(x.dtype, copy=False)


def _extreme_identity(dtype, lowest):
    """What max (lowest=True) or min of an empty reduction gives: TF's lowest or highest value."""
    if dtype.kind == "f":
        return -np.inf if lowest else np.inf
    info = np.iinfo(dtype)
    return info.min if lowest else info.max


def _extreme_kernel(name, lowest):
    def kernel(xp, x, axes, keep_dims):
        ax = _axis_tuple(axes)
        if x.size == 0:  # the identity of an empty reduction, computed on the host from the shape alone
            empty = np.empty(x.shape, x.dtype)
            return xp.asarray(getattr(np, name)(empty, axis=ax, keepdims=keep_dims,
                                                initial=_extreme_identity(x.dtype, lowest)))
        return getattr(xp, name)(x, axis=ax, keepdims=keep_dims)
    return kernel


def _expand_reduced(value, op):
    """`value`, shaped like the output of reduction `op`, broadcast back to the input's shape."""
    x, axes_t = op._inputs
    if op._attrs["keep_dims"] or op._attrs.get("_all_axes"):
        if type(value) in ops._EAGER_TYPES and type(x) in ops._EAGER_TYPES and ops._eager_default() is not None:
            return ops._eager_run_typed[0]("BroadcastLike", [value, x], None, value._dtype, "BroadcastLike/")
        return ops.apply_op("BroadcastLike", [value, x])
    rank = x._shape.ndims
    axes = _static_axes(axes_t, rank) if rank is not None else None
    if axes is not None:
        if axes == list(range(len(axes))):
            return ops.apply_op("BroadcastLike", [value, x])
        letters = string.ascii_letters[:rank]
        kept = "".join(c for i, c in enumerate(letters) if i not in axes)
        return ops.apply_op("Einsum", [value, core_ops.ones_like(x)], {"equation": "%s,%s->%s" % (
            kept, letters, letters)})
    # Axes (or rank) known only at run time: reshape to the kept-dims shape, then broadcast.
    with x.graph.as_default():
        return _expand_reduced_dynamic(value, x, axes_t)


def _reduced_axes_mask(x, axes_t):
    """(the shape of `x`, the positions 0..rank-1, a bool vector: which axes `axes_t` names)."""
    from . import array_ops
    sx = core_ops.shape(x)
    ones = core_ops.ones_like(sx)
    positions = cumsum(ones, exclusive=True)
    r = reduce_sum(ones)
    axes_mod = floormod(array_ops.reshape(cast(axes_t, dtypes.int32), [1, -1]), r)
    return sx, positions, reduce_any(equal(array_ops.reshape(positions, [-1, 1]), axes_mod), axis=1)


def _expand_reduced_dynamic(value, x, axes_t):
    from . import array_ops
    sx, _, mask = _reduced_axes_mask(x, axes_t)
    kept_shape = subtract(sx, multiply(subtract(sx, 1), cast(mask, dtypes.int32)))
    return ops.apply_op("BroadcastLike", [array_ops.reshape(value, kept_shape), x])


def _sum_grad(op, grad):
    """d sum(x) = grad broadcast back over the reduced axes."""
    return [_expand_reduced(grad, op), None]


def _mean_grad(op, grad):
    """d mean(x) = grad broadcast back over the reduced axes, divided by the reduced count."""
    x, y = op._inputs[0], op._outputs[0]
    sum_grad = _expand_reduced(grad, op)
    sx, sy = x._shape, y._shape
    if sx.is_fully_defined() and sy.is_fully_defined():
        factor = sx.num_elements() // max(sy.num_elements(), 1)
    else:
        factor = floor_div(reduce_prod(core_ops.shape(x)), maximum(reduce_prod(core_ops.shape(y)), 1))
        factor = cast(factor, grad.dtype)
    return [realdiv(sum_grad, factor), None]


def _max_min_reduce_grad(op, grad):
    """d max(x) = grad split equally among the elements equal to the max (same for min)."""
    x, axes_t = op._inputs
    y = _expand_reduced(op._outputs[0], op)
    indicators = cast(equal(y, x), grad.dtype)
    count = ops.apply_op("Sum", [indicators, axes_t], dict(op._attrs))
    return [multiply(realdiv(indicators, _expand_reduced(count, op)), _expand_reduced(grad, op)), None]


def _prod_except_self(x, axes):
    """For each element, the product of the other elements over `axes` (exact with zeros)."""
    a = axes[-1]
    own = multiply(cumprod(x, a, exclusive=True), cumprod(x, a, exclusive=True, reverse=True))
    if len(axes) == 1:
        return own
    return multiply(own, _prod_except_self(reduce_prod(x, a, keepdims=True), axes[:-1]))


def _prod_except_self_dynamic(x, axes_t):
    """`_prod_except_self` for a rank or axes known only at run time, as TF's rule: the reduced
    axes moved to the front and flattened into one, along which the exclusive products from both
    ends multiply to the product of the others (exact with zeros), then moved back."""
    from . import array_ops
    sx, positions, mask = _reduced_axes_mask(x, axes_t)
    reduced = array_ops.boolean_mask(positions, mask)
    other = array_ops.boolean_mask(positions, logical_not(mask))
    perm = array_ops.concat([reduced, other], 0)
    permuted = array_ops.transpose(x, perm)
    rows = array_ops.reshape(permuted, array_ops.stack([reduce_prod(array_ops.gather(sx, reduced)),
                                                        reduce_prod(array_ops.gather(sx, other))]))
    both = multiply(cumprod(rows, 0, exclusive=True), cumprod(rows, 0, exclusive=True, reverse=True))
    return array_ops.transpose(array_ops.reshape(both, core_ops.shape(permuted)), array_ops.invert_permutation(perm))


def _prod_grad(op, grad):
    """d prod(x) / dx_i = grad * (product of the other reduced elements), exact where x has zeros."""
    x, axes_t = op._inputs
    g = _expand_reduced(grad, op)
    rank = x._shape.ndims
    axes = _static_axes(axes_t, rank) if rank is not None else None
    if op._attrs.get("_all_axes") and rank is not None:
        axes = list(range(rank))
    if axes is None:  # the rank or the axes known only at run time
        with x.graph.as_default():
            return [multiply(g, _conj(_prod_except_self_dynamic(x, axes_t))), None]
    if not axes:
        return [g, None]
    return [multiply(g, _conj(_prod_except_self(x, axes))), None]


for _op_type, _kernel, _grad in [
        ("Sum", _sum_kernel, _sum_grad),
        ("Mean", _mean_kernel, _mean_grad),
        ("Prod", _prod_kernel, _prod_grad),
        ("Max", _extreme_kernel("max", True), _max_min_reduce_grad),
        ("Min", _extreme_kernel("min", False), _max_min_reduce_grad),
        ("Any", lambda xp, x, axes, keep_dims: xp.any(x, axis=_axis_tuple(axes), keepdims=keep_dims),
         NO_GRADIENT),
        ("All", lambda xp, x, axes, keep_dims: xp.all(x, axis=_axis_tuple(axes), keepdims=keep_dims),
         NO_GRADIENT)]:
    register_op(_op_type, infer=_reduce_infer, kernel=_checking_axes(_kernel), grad=_grad, gpu=True,
                host_inputs=(1,))


def _deprecated_lookup(new_name, new_value, old_name, old_value):
    if old_value is not None:
        if new_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'" % (old_name, new_name))
        return old_value
    return new_value


def _read_only(a):
    a.flags.writeable = False
    return a


_ALL_AXES = [_read_only(np.arange(r, dtype=np.int32)) for r in range(9)]  # shared by eager reductions
_ALL_AXES_TUPLES = {id(a): tuple(range(len(a))) for a in _ALL_AXES}
_EAGER_ALL_AXES = [None] * len(_ALL_AXES)  # their eager tensors, made on first use (never watched by tapes)
# (op attributes, kernel attributes) of an eager whole-tensor reduction, by keepdims; shared, never mutated.
_ALL_AXES_ATTRS = {k: ({"keep_dims": k, "_all_axes": True}, {"keep_dims": k}) for k in (False, True)}
_BY_RANK = [tuple(range(r)) for r in range(len(_ALL_AXES))]
_EXACT_COUNT = 2 ** 24  # the largest element count float32 (float16's sums run through float32) holds exactly
_NO_KERNEL_ATTRS = {}  # (a specialised kernel takes none; shared, never mutated)
_add_reduce = np.add.reduce


def _whole_kernel(mean, keep_dims):
    """The kernel of a whole-tensor Sum (or Mean) with `keep_dims`: the ufunc calls the registered
    kernel makes, without its axis handling."""
    if mean:
        def kernel(xp, x, axes):
            if x.size > _EXACT_COUNT:
                return _mean_kernel(xp, x, axes, keep_dims)
            # np.mean's steps: the sum, then the division by the count, which np.mean does in float64 and
            # NumPy 2 here in float32 (Python int divisor): the same value, as float64 holds float32's
            # quotient exactly enough to round it once, while the count is exact in float32.
            return _add_reduce(x, _BY_RANK[x.ndim], x.dtype, None, keep_dims) / x.size
    else:
        def kernel(xp, x, axes):
            return _add_reduce(x, _BY_RANK[x.ndim], x.dtype, None, keep_dims)
    return kernel


# (op type, dtype, keep_dims) -> that kernel, for the eager path of the dtypes where it is the registered one's
_WHOLE = {("Sum", d, k): _whole_kernel(False, k) for d in (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
          for k in (False, True)}
if int(np.__version__.split(".")[0]) >= 2:
    _WHOLE.update({("Mean", d, k): _whole_kernel(True, k) for d in (dtypes.float32, dtypes.float64)
                   for k in (False, True)})


def _reduction_axes(x, axis):
    """The reduction-indices tensor for `axis` (None: every axis)."""
    if axis is None:
        rank = x.shape.ndims
        if rank is not None:
            if type(x) in ops._EAGER_TYPES and rank < len(_ALL_AXES):
                return ops._eager_make[0](_ALL_AXES[rank], dtypes.int32)
            return constant(np.arange(rank, dtype=np.int32), name="Const")
        return cumsum(core_ops.ones_like(core_ops.shape(x)), exclusive=True)
    if isinstance(axis, ops.Tensor):
        return axis
    if isinstance(axis, (list, tuple)) and not axis:
        axis = np.zeros(0, np.int32)
    return ops.convert_to_tensor(axis, dtype=dtypes.int32, name="reduction_indices")


def _reduce(op_type, input_tensor, axis, keepdims, name, reduction_indices, keep_dims, allowed):
    axis = _deprecated_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = bool(keepdims) if keepdims is not None else False
    with _op_scope(name, op_type, [input_tensor]) as scope:
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        _check_dtype(x, allowed, "input")
        attrs = {"keep_dims": keepdims}
        if axis is None:
            attrs["_all_axes"] = True
        return ops.apply_op(op_type, [x, _reduction_axes(x, axis)], attrs, name=scope)


_REDUCE_DOC = """Computes the %s of elements across dimensions of a tensor.

    Reduces `input_tensor` along the dimensions given in `axis`. Unless `keepdims` is true, the
    rank of the tensor is reduced by 1 for each entry in `axis`; otherwise the reduced dimensions
    are retained with length 1. If `axis` is None, all dimensions are reduced and a tensor with a
    single element is returned.%s

    Args:
      input_tensor: The tensor to reduce (%s).
      axis: The dimensions to reduce: None (all), an int, a list of ints or an int32 `Tensor`,
        each in `[-rank(input_tensor), rank(input_tensor))`.
      keepdims: If true, retains reduced dimensions with length 1.
      name: A name for the operation (optional).
      reduction_indices: The old (deprecated) name for axis.
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      The reduced tensor, of the same dtype as `input_tensor`.

    Raises:
      ValueError: If both `axis` and `reduction_indices` (or `keepdims` and `keep_dims`) are
        given, or an axis is out of range.
      TypeError: If `input_tensor` has an unsupported dtype.
    """


def _reduce_op(func_name, op_type, allowed, what, note, kind):
    """The public constructor `func_name` of reduction `op_type` (`_reduce` over the `allowed` dtypes),
    with `_REDUCE_DOC` filled in with `what`, `note` and `kind`."""
    scope = op_type + "/"

    def fn(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
        if (axis is None and name is None and reduction_indices is None and keep_dims is None
                and type(input_tensor) in ops._EAGER_TYPES):
            d = ops._eager_default()
            if d is not None and not d._name_stack:  # eagerly, a whole-tensor reduction: to the kernel
                dt = input_tensor._dtype
                keepdims = bool(keepdims)
                whole = _WHOLE.get((op_type, dt, keepdims))  # (only allowed dtypes are keys)
                rank = input_tensor._value.ndim
                if (whole is not None or dt in allowed) and rank < len(_ALL_AXES):
                    axes = _EAGER_ALL_AXES[rank]
                    if axes is None:
                        axes = _EAGER_ALL_AXES[rank] = ops._eager_make[0](_ALL_AXES[rank], dtypes.int32)
                    attrs, kernel_attrs = _ALL_AXES_ATTRS[keepdims]
                    return ops._eager_run_typed[0](op_type, [input_tensor, axes], attrs, dt, scope,
                                                   _NO_KERNEL_ATTRS if whole is not None else kernel_attrs, whole)
        return _reduce(op_type, input_tensor, axis, keepdims, name, reduction_indices, keep_dims, allowed)

    fn.__name__ = fn.__qualname__ = func_name
    fn.__doc__ = _REDUCE_DOC % (what, note, kind)
    return fn


reduce_sum = _reduce_op("reduce_sum", "Sum", _NUMERIC, "sum", "", "numeric")
reduce_mean = _reduce_op("reduce_mean", "Mean", _NUMERIC, "mean", " Integer means truncate toward zero, as in TF.",
                         "numeric")
reduce_prod = _reduce_op("reduce_prod", "Prod", _NUMERIC, "product", "", "numeric")
reduce_max = _reduce_op("reduce_max", "Max", _REAL, "maximum",
                        " The maximum of an empty set is -inf (the lowest integer).", "real")
reduce_min = _reduce_op("reduce_min", "Min", _REAL, "minimum",
                        " The minimum of an empty set is inf (the largest integer).", "real")
reduce_any = _reduce_op("reduce_any", "Any", _BOOL, '"logical or"', "", "bool")
reduce_all = _reduce_op("reduce_all", "All", _BOOL, '"logical and"', "", "bool")


def reduce_logsumexp(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """Computes log(sum(exp(elements across dimensions of a tensor))), stably: the maximum is
    subtracted before exponentiating (infinite maxima are handled as TF does).

    Args:
      input_tensor: The floating point tensor to reduce.
      axis: The dimensions to reduce (None: all).
      keepdims: If true, retains reduced dimensions with length 1.
      name: A name for the operation (optional).
      reduction_indices: The old (deprecated) name for axis.
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      The reduced tensor.

    Raises:
      ValueError: If both `axis` and `reduction_indices` are given.
    """
    axis = _deprecated_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = bool(_deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    with _op_scope(name, "ReduceLogSumExp", [input_tensor]) as scope:
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        _check_dtype(x, _FLOAT, "input")
        lo, hi = constant(x.dtype.min, dtype=x.dtype), constant(x.dtype.max, dtype=x.dtype)

        def shift(keep):
            # The max, clamped to finite values: exp(x - shift) then never sees inf - inf.
            return core_ops.stop_gradient(minimum(maximum(reduce_max(x, axis, keepdims=keep), lo), hi))

        total = reduce_sum(exp(subtract(x, shift(True))), axis, keepdims=keepdims)
        return add(log(total), shift(keepdims), name=scope)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Computes the variance of elements across dimensions of a tensor: mean(|x - mean(x)|^2).

    The variance of a complex tensor is real (of the matching real type), as in TF 2.x.

    Args:
      input_tensor: The floating point or complex tensor to reduce.
      axis: The dimensions to reduce (None: all).
      keepdims: If true, retains reduced dimensions with length 1.
      name: A name scope for the associated operations (optional).

    Returns:
      The reduced tensor, of the dtype of the input (its real type for complex input).

    Raises:
      TypeError: If `input_tensor` is of an integer (or other non floating point) type.
    """
    with _op_scope(name, "reduce_variance", [input_tensor]):
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        means = reduce_mean(x, axis=axis, keepdims=True)
        if means.dtype.is_integer:
            raise TypeError("Input must be either real or complex. Received integer type %s." % means.dtype)
        diff = subtract(x, means)
        if diff.dtype.is_complex:
            # |d|^2, the real part of d * conj(d) (a Cast from complex keeps the real part).
            squared_deviations = cast(multiply(diff, _conj(diff)), diff.dtype.real_dtype)
        else:
            squared_deviations = square(diff)
        return reduce_mean(squared_deviations, axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Computes the standard deviation of elements across dimensions of a tensor: sqrt(variance).

    Args:
      input_tensor: The floating point or complex tensor to reduce.
      axis: The dimensions to reduce (None: all).
      keepdims: If true, retains reduced dimensions with length 1.
      name: A name scope for the associated operations (optional).

    Returns:
      The reduced tensor, of the dtype of the input (its real type for complex input).

    Raises:
      TypeError: If `input_tensor` is of an integer (or other non floating point) type.
    """
    with _op_scope(name, "reduce_std", [input_tensor]):
        return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def count_nonzero(input_tensor, axis=None, keepdims=None, dtype=dtypes.int64, name=None, reduction_indices=None,
                  keep_dims=None):
    """Computes number of nonzero elements across dimensions of a tensor.

    Args:
      input_tensor: The tensor to reduce (numeric or bool).
      axis: The dimensions to reduce (None: all).
      keepdims: If true, retains reduced dimensions with length 1.
      dtype: The output dtype; defaults to int64.
      name: A name for the operation (optional).
      reduction_indices: The old (deprecated) name for axis.
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      The reduced tensor (number of nonzero values).
    """
    axis = _deprecated_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = bool(_deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    with _op_scope(name, "count_nonzero", [input_tensor]) as scope:
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        zero = constant(False if x.dtype.is_bool else "" if x.dtype is dtypes.string else 0, dtype=x.dtype)
        return cast(reduce_sum(cast(not_equal(x, zero), dtypes.int64), axis=axis, keepdims=keepdims), dtype,
                    name=scope)


# ---- ArgMax / ArgMin -----------------------------------------------------------------------
def _arg_infer(op):
    x, dim = op._inputs
    if dim._shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % dim._shape.ndims)
    shape = x._shape.as_tuple()
    value = _const_value(dim)
    if shape is None:
        return [(op._attrs["output_type"], None)]
    rank = len(shape)
    if value is None:
        return [(op._attrs["output_type"], (None,) * max(rank - 1, 0))]
    a = int(np.ravel(value)[0])
    if not -rank <= a < rank:
        raise ValueError("Expected dimension in the range [%d, %d), but got %d" % (-rank, rank, a))
    a %= rank
    return [(op._attrs["output_type"], shape[:a] + shape[a + 1:])]


def _arg_kernel(name):
    """ArgMax (`name` "argmax") or ArgMin as TF's CPU kernel (Eigen's): the first index of the
    extreme value, where a NaN never wins, and where a row with nothing above the type's lowest
    value (below its highest, for ArgMin) gives index 0."""
    is_max = name == "argmax"

    def kernel(xp, x, dimension, output_type):
        if dimension.ndim:
            raise errors.InvalidArgumentError(None, None, "dim must be a scalar, but received tensor of shape: %s"
                                              % _dims_text(dimension.shape))
        d, rank = int(dimension), x.ndim
        if not -rank <= d < rank:
            raise errors.InvalidArgumentError(None, None, "Expected dimension in the range [%d, %d), but got %d"
                                              % (-rank, rank, d))
        if x.shape[d] == 0:
            raise errors.InvalidArgumentError(None, None, "Reduction axis %d is empty in shape %s"
                                              % (d, _dims_text(x.shape)))
        index = getattr(xp, name)(x, axis=d)
        if x.dtype.kind == "f":
            # NumPy picks a NaN; Eigen starts from (0, lowest) and moves on strictly greater values.
            bound = np.finfo(x.dtype).min if is_max else np.finfo(x.dtype).max
            chosen = xp.take_along_axis(x, xp.expand_dims(index, d), axis=d)
            if not bool(((chosen > bound) if is_max else (chosen < bound)).all()):
                beyond = (x > bound) if is_max else (x < bound)
                index = getattr(xp, name)(xp.where(beyond, x, -np.inf if is_max else np.inf), axis=d)
        return index.astype(output_type.as_numpy_dtype)
    return kernel


register_op("ArgMax", infer=_arg_infer, kernel=_arg_kernel("argmax"), grad=NO_GRADIENT, gpu=True, host_inputs=(1,))
register_op("ArgMin", infer=_arg_infer, kernel=_arg_kernel("argmin"), grad=NO_GRADIENT, gpu=True, host_inputs=(1,))


def _arg(op_type, input, axis, name, dimension, output_type):  # noqa: A002
    axis = _deprecated_lookup("axis", axis, "dimension", dimension)
    if axis is None:
        axis = 0
    output_type = dtypes.as_dtype(output_type)
    if output_type not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'output_type' has DataType %s not in list of allowed values: "
                        "int32, int64" % output_type.name)
    with _op_scope(name, op_type, [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        _check_dtype(x, _REAL + _BOOL, "input")
        dim = axis if isinstance(axis, ops.Tensor) else ops.convert_to_tensor(axis, dtype=dtypes.int32,
                                                                              name="dimension")
        return ops.apply_op(op_type, [x, dim], {"output_type": output_type}, name=scope)


def _arg_op(func_name, op_type, extreme, example):
    """The public constructor `func_name` of ArgMax or ArgMin (`_arg`), with its docstring made of
    `extreme` ("largest" or "smallest") and `example`."""
    def fn(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002 (TF's name)
        return _arg(op_type, input, axis, name, dimension, output_type)

    fn.__name__ = fn.__qualname__ = func_name
    fn.__doc__ = """Returns the index with the %s value across an axis of a tensor (the first on ties).

    As TF's kernel, a NaN is never the %s value: %s, and a slice
    of NaN only gives 0.

    Args:
      input: A real or bool `Tensor`.
      axis: The axis to reduce across (default 0), in `[-rank(input), rank(input))`.
      name: A name for the operation (optional).
      dimension: The old (deprecated) name for axis.
      output_type: int32 or int64 (default).

    Returns:
      A `Tensor` of type `output_type`.

    Raises:
      ValueError: If both `axis` and `dimension` are given, or the axis is out of range.
      TypeError: If `input` is not real or bool.
      tf.errors.InvalidArgumentError: At run time, if an axis fed then is out of range or not a
        scalar, or the axis is empty.
    """ % (extreme, extreme, example)
    return fn


argmax = _arg_op("argmax", "ArgMax", "largest", "`argmax([1, nan, 3])` is 2")
argmin = _arg_op("argmin", "ArgMin", "smallest", "`argmin([nan, 1, 3])` is 1")
