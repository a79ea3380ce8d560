"""Asserts and boolean checks (`tf.assert_*`, `tf.debugging.*`), as TF 1.x graph mode builds them.

Checks that can be decided from static information fail while the graph is built (ValueError for
ranks, TypeError for dtypes, InvalidArgumentError for comparisons of constants); the others
become `Assert` ops that only run when something that runs depends on them.
"""

import numpy as np

from ..framework import dtypes, errors, ops, tensor_util
from . import array_ops, core_ops, math_ops
from .logging_ops import Assert

__all__ = ["assert_equal", "assert_none_equal", "assert_less", "assert_less_equal", "assert_greater",
           "assert_greater_equal", "assert_negative", "assert_positive", "assert_non_negative",
           "assert_non_positive", "assert_near", "assert_rank", "assert_rank_at_least", "assert_rank_in",
           "assert_integer", "assert_type", "assert_scalar", "assert_proper_iterable", "assert_same_float_dtype",
           "is_numeric_tensor", "is_non_decreasing", "is_strictly_increasing", "assert_shapes"]

NUMERIC_TYPES = frozenset([dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
                           dtypes.uint8, dtypes.complex64])



def _name(t, eager=None):
    """`t.name`; for an eager tensor (which has none) TF's "shape=... dtype=..." text, or `eager`."""
    try:
        return t.name
    except AttributeError:
        return "shape=%s dtype=%s" % (t.shape, t.dtype.name) if eager is None else eager

def _maybe_constant_value_string(t):
    if not isinstance(t, ops.Tensor):
        return str(t)
    const_t = tensor_util.constant_value(t)
    return str(t) if const_t is None else str(const_t)


def _assert_static(condition, data):
    """Raises InvalidArgumentError with the static values of `data` unless `condition`."""
    if not condition:
        raise errors.InvalidArgumentError(None, None, "\n".join(_maybe_constant_value_string(x) for x in data))


def _with_dependencies(dependencies, output_tensor):
    """`output_tensor`'s value, computed after `dependencies`."""
    with ops.name_scope(None, "control_dependency", [output_tensor]) as scope:
        with ops.control_dependencies(dependencies):
            return core_ops.identity(output_tensor, name=scope)


# ---- element-wise comparisons of two tensors -------------------------------------------------
_BINARY_DOC = """Assert the condition `x {sym} y` holds element-wise, as `tf.{opname}`.

    This condition holds if for every pair of (possibly broadcast) elements `x[i]`, `y[i]`, we
    have `x[i] {sym} y[i]`. If both `x` and `y` are empty, this is trivially satisfied. In graph
    mode, add a control dependency on the returned op so that it runs:

        with tf.control_dependencies([tf.{opname}(x, y)]):
          output = tf.reduce_sum(x)

    Args:
      x: Numeric `Tensor`.
      y: Numeric `Tensor`, same dtype as and broadcastable to `x`.
      data: The tensors to print out if the condition is False. Defaults to error message and
        first few entries of `x`, `y`.
      summarize: Print this many entries of each tensor.
      message: A string to prefix to the default message.
      name: A name for this operation (optional). Defaults to "{opname}".

    Returns:
      Op that raises `InvalidArgumentError` if `x {sym} y` is False.

    Raises:
      InvalidArgumentError: If `x` and `y` are statically known and `x {sym} y` is False.
      TypeError: If the dtypes of `x` and `y` differ.
    """


def _binary_assert(sym, opname, op_func, static_func, x, y, data, summarize, message, name):
    with ops.name_scope(name, opname, [x, y, data]):
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y")
        if data is None:
            data = ["Condition x %s y did not hold element-wise:" % sym, "x (%s) = " % _name(x), x,
                    "y (%s) = " % _name(y), y]
        if message is not None:
            data = [message] + list(data)
        condition = math_ops.reduce_all(op_func(x, y))
        x_static = tensor_util.constant_value(x)
        y_static = tensor_util.constant_value(y)
        if x_static is not None and y_static is not None:
            _assert_static(np.all(static_func(x_static, y_static)), data)
        return Assert(condition, data, summarize=summarize)


def _make_binary_assert(sym, opname, op_func, static_func):
    def binary_assert(x, y, data=None, summarize=None, message=None, name=None):
        return _binary_assert(sym, opname, op_func, static_func, x, y, data, summarize, message, name)

    binary_assert.__name__ = binary_assert.__qualname__ = opname
    binary_assert.__doc__ = _BINARY_DOC.format(sym=sym, opname=opname)
    return binary_assert


assert_none_equal = _make_binary_assert("!=", "assert_none_equal", math_ops.not_equal, np.not_equal)
assert_less = _make_binary_assert("<", "assert_less", math_ops.less, np.less)
assert_less_equal = _make_binary_assert("<=", "assert_less_equal", math_ops.less_equal, np.less_equal)
assert_greater = _make_binary_assert(">", "assert_greater", math_ops.greater, np.greater)
assert_greater_equal = _make_binary_assert(">=", "assert_greater_equal", math_ops.greater_equal, np.greater_equal)


def assert_equal(x, y, data=None, summarize=None, message=None, name=None):
    with ops.name_scope(name, "assert_equal", [x, y, data]):
        if x is y:  # the same tensor: trivially equal
            return core_ops.no_op()
    return _binary_assert("==", "assert_equal", math_ops.equal, np.equal, x, y, data, summarize, message, name)


assert_equal.__doc__ = _BINARY_DOC.format(sym="==", opname="assert_equal")


# ---- element-wise sign checks of one tensor --------------------------------------------------
_UNARY_DOC = """Assert the condition `x {sym}` holds element-wise, as `tf.{opname}`.

    {sym_name} means, for every element `x[i]` of `x`, we have `x[i] {sym}`. If `x` is empty
    this is trivially satisfied. In graph mode, add a control dependency on the returned op so
    that it runs.

    Args:
      x: Numeric `Tensor`.
      data: The tensors to print out if the condition is False. Defaults to error message and
        first few entries of `x`.
      summarize: Print this many entries of each tensor.
      message: A string to prefix to the default message.
      name: A name for this operation (optional). Defaults to "{opname}".

    Returns:
      Op that raises `InvalidArgumentError` if `x {sym}` is False.

    Raises:
      InvalidArgumentError: If `x` is statically known and `x {sym}` is False.
    """


def _make_unary_assert(sym, sym_name, opname, condition_text, compare, zero_first):
    def unary_assert(x, data=None, summarize=None, message=None, name=None):
        message = message or ""
        with ops.name_scope(name, opname, [x, data]):
            x = ops.convert_to_tensor(x, name="x")
            if data is None:
                data = [message] + condition_text(_name(x)) + [x]
            zero = ops.convert_to_tensor(0, dtype=x.dtype)
            if zero_first:
                return compare(zero, x, data=data, summarize=summarize)
            return compare(x, zero, data=data, summarize=summarize)

    unary_assert.__name__ = unary_assert.__qualname__ = opname
    unary_assert.__doc__ = _UNARY_DOC.format(sym=sym, sym_name=sym_name, opname=opname)
    return unary_assert


assert_negative = _make_unary_assert(
    "< 0", "Negative", "assert_negative",
    lambda n: ["Condition x < 0 did not hold element-wise:", "x (%s) = " % n], assert_less, False)
assert_positive = _make_unary_assert(
    "> 0", "Positive", "assert_positive",
    lambda n: ["Condition x > 0 did not hold element-wise:", "x (%s) = " % n], assert_less, True)
assert_non_negative = _make_unary_assert(
    ">= 0", "Non-negative", "assert_non_negative",
    lambda n: ["Condition x >= 0 did not hold element-wise:", "x (%s) = " % n], assert_less_equal, True)
# TF's default message here runs its two sentences together (a missing comma in TF's list).
assert_non_positive = _make_unary_assert(
    "<= 0", "Non-positive", "assert_non_positive",
    lambda n: ["Condition x <= 0 did not hold element-wise:x (%s) = " % n], assert_less_equal, False)


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None, name=None):
    """Assert the condition `x` and `y` are close element-wise, as `tf.assert_near`.

    This condition holds if for every pair of (possibly broadcast) elements `x[i]`, `y[i]`, we
    have `tf.abs(x[i] - y[i]) < atol + rtol * tf.abs(y[i])`. The default `atol` and `rtol` is
    `10 * eps` of the dtype.

    Args:
      x: Float or complex `Tensor`.
      y: Float or complex `Tensor`, same `dtype` as, and broadcastable to, `x`.
      rtol: `Tensor`. Same `dtype` as, and broadcastable to, `x`. The relative tolerance.
      atol: `Tensor`. Same `dtype` as, and broadcastable to, `x`. The absolute tolerance.
      data: The tensors to print out if the condition is False. Defaults to error message and
        first few entries of `x`, `y`.
      summarize: Print this many entries of each tensor.
      message: A string to prefix to the default message.
      name: A name for this operation (optional). Defaults to "assert_near".

    Returns:
      Op that raises `InvalidArgumentError` if `x` and `y` are not close enough.
    """
    message = message or ""
    with ops.name_scope(name, "assert_near", [x, y, rtol, atol, data]):
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype)
        dtype = x.dtype.real_dtype
        eps = np.finfo(dtype.as_numpy_dtype).eps
        rtol = 10 * eps if rtol is None else rtol
        atol = 10 * eps if atol is None else atol
        rtol = ops.convert_to_tensor(rtol, name="rtol", dtype=dtype)
        atol = ops.convert_to_tensor(atol, name="atol", dtype=dtype)
        if data is None:
            data = [message, "x and y not equal to tolerance rtol = %s, atol = %s" % (rtol, atol),
                    "x (%s) = " % _name(x), x, "y (%s) = " % _name(y), y]
        tol = atol + rtol * math_ops.abs(y)
        diff = math_ops.abs(x - y)
        condition = math_ops.reduce_all(math_ops.less(diff, tol))
        return Assert(condition, data, summarize=summarize)


# ---- ranks -----------------------------------------------------------------------------------
class _StaticRankFailed(ValueError):
    def __init__(self, actual, given):
        super().__init__("Static rank condition failed", actual, given)
        self.actual = actual
        self.given = given


def _assert_rank_condition(x, rank, static_condition, dynamic_condition, data, summarize):
    """An Assert that `dynamic_condition(rank(x), rank)` holds, or a no_op if it statically does.

    Raises:
      _StaticRankFailed: If static shapes prove the condition false.
      ValueError: If `rank` is statically known and not a scalar.
    """
    assert_type(rank, dtypes.int32)
    rank_static = tensor_util.constant_value(rank)
    if rank_static is not None:
        if rank_static.ndim != 0:
            raise ValueError("Rank must be a scalar.")
        x_rank_static = x.shape.ndims
        if x_rank_static is not None:
            if not static_condition(x_rank_static, rank_static):
                raise _StaticRankFailed(x_rank_static, rank_static)
            return core_ops.no_op(name="static_checks_determined_all_ok")
    condition = dynamic_condition(array_ops.rank(x), rank)
    if rank_static is None:
        # `rank` itself must be a scalar (catches assert_rank(x, [n]) for assert_rank(x, n)).
        rank_check = assert_rank(rank, 0, data=["Rank must be a scalar. Received rank: ", rank])
        condition = _with_dependencies([rank_check], condition)
    return Assert(condition, data, summarize=summarize)


def assert_rank(x, rank, data=None, summarize=None, message=None, name=None):
    """Assert `x` has rank equal to `rank`, as `tf.assert_rank`.

    Args:
      x: Numeric `Tensor`.
      rank: Scalar integer `Tensor`.
      data: The tensors to print out if the condition is False. Defaults to error message and
        the shape of `x`.
      summarize: Print this many entries of each tensor.
      message: A string to prefix to the default message.
      name: A name for this operation (optional). Defaults to "assert_rank".

    Returns:
      Op raising `InvalidArgumentError` unless `x` has specified rank. If static checks
      determine `x` has correct rank, a `no_op` is returned.

    Raises:
      ValueError: If static checks determine `x` has wrong rank.
      TypeError: If `rank` is not int32.
    """
    with ops.name_scope(name, "assert_rank", (x, rank) + tuple(data or [])):
        x = ops.convert_to_tensor(x, name="x")
        rank = ops.convert_to_tensor(rank, name="rank")
        message = message or ""
        if data is None:
            data = [message, "Tensor %s must have rank" % _name(x, ""), rank, "Received shape: ", array_ops.shape(x)]
        try:
            return _assert_rank_condition(x, rank, lambda actual, given: actual == given, math_ops.equal, data,
                                          summarize)
        except _StaticRankFailed as e:
            raise ValueError("%s.  Tensor %s must have rank %d.  Received rank %d, shape %s"
                             % (message, _name(x, ""), e.given, e.actual, x.shape)) from None


def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
    """Assert `x` has rank equal to `rank` or higher, as `tf.assert_rank_at_least`.

    Args:
      x: Numeric `Tensor`.
      rank: Scalar `Tensor`.
      data: The tensors to print out if the condition is False. Defaults to error message and
        the shape of `x`.
      summarize: Print this many entries of each tensor.
      message: A string to prefix to the default message.
      name: A name for this operation (optional). Defaults to "assert_rank_at_least".

    Returns:
      Op raising `InvalidArgumentError` unless `x` has specified rank or higher. If static
      checks determine `x` has correct rank, a `no_op` is returned.

    Raises:
      ValueError: If static checks determine `x` has wrong rank.
    """
    with ops.name_scope(name, "assert_rank_at_least", (x, rank) + tuple(data or [])):
        x = ops.convert_to_tensor(x, name="x")
        rank = ops.convert_to_tensor(rank, name="rank")
        message = message or ""
        if data is None:
            data = [message, "Tensor %s must have rank at least" % _name(x, ""), rank, "Received shape: ",
                    array_ops.shape(x)]
        try:
            return _assert_rank_condition(x, rank, lambda actual, given: actual >= given, math_ops.greater_equal,
                                          data, summarize)
        except _StaticRankFailed as e:
            raise ValueError("%s.  Tensor %s must have rank at least %d.  Received rank %d, shape %s"
                             % (message, _name(x, ""), e.given, e.actual, x.shape)) from None


def _dynamic_rank_in(actual_rank, given_ranks):
    if len(given_ranks) < 1:
        return ops.convert_to_tensor(False)
    result = math_ops.equal(given_ranks[0], actual_rank)
    for given_rank in given_ranks[1:]:
        result = math_ops.logical_or(result, math_ops.equal(given_rank, actual_rank))
    return result


def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
    """Assert `x` has rank in `ranks`, as `tf.assert_rank_in`.

    Args:
      x: Numeric `Tensor`.
      ranks: Iterable of scalar `Tensor` objects.
      data: The tensors to print out if the condition is False. Defaults to error message and
        the shape of `x`.
      summarize: Print this many entries of each tensor.
      message: A string to prefix to the default message.
      name: A name for this operation (optional). Defaults to "assert_rank_in".

    Returns:
      Op raising `InvalidArgumentError` unless rank of `x` is in `ranks`. If static checks
      determine `x` has matching rank, a `no_op` is returned.

    Raises:
      ValueError: If static checks determine `x` has mismatched rank.
    """
    with ops.name_scope(name, "assert_rank_in", (x,) + tuple(ranks) + tuple(data or [])):
        x = ops.convert_to_tensor(x, name="x")
        ranks = tuple(ops.convert_to_tensor(rank, name="rank") for rank in ranks)
        message = message or ""
        if data is None:
            data = [message, "Tensor %s must have rank in" % _name(x, "")] + list(ranks) + [
                "Received shape: ", array_ops.shape(x)]
        for rank in ranks:
            assert_type(rank, dtypes.int32)
        ranks_static = tuple(tensor_util.constant_value(rank) for rank in ranks)
        if not any(r is None for r in ranks_static):
            for rank_static in ranks_static:
                if rank_static.ndim != 0:
                    raise ValueError("Rank must be a scalar.")
            x_rank_static = x.shape.ndims
            if x_rank_static is not None:
                if x_rank_static not in ranks_static:
                    raise ValueError("%s.  Tensor %s must have rank in %s.  Received rank %d, shape %s"
                                     % (message, _name(x, ""), tuple(int(r) for r in ranks_static), x_rank_static,
                                        x.shape))
                return core_ops.no_op(name="static_checks_determined_all_ok")
        condition = _dynamic_rank_in(array_ops.rank(x), ranks)
        for rank, rank_static in zip(ranks, ranks_static):
            if rank_static is None:
                rank_check = assert_rank(rank, 0, data=["Rank must be a scalar. Received rank: ", rank])
                condition = _with_dependencies([rank_check], condition)
        return Assert(condition, data, summarize=summarize)


def assert_scalar(tensor, name=None, message=None):
    """Asserts that the given `tensor` is a scalar (static check), as `tf.assert_scalar`.

    Args:
      tensor: A `Tensor`.
      name: A name for this operation. Defaults to "assert_scalar".
      message: A string to prefix to the default message.

    Returns:
      The input tensor (converted to a `Tensor`).

    Raises:
      ValueError: If the tensor is not scalar (rank 0), or if its shape is unknown.
    """
    with ops.name_scope(name, "assert_scalar", [tensor]) as name_scope:
        tensor = ops.convert_to_tensor(tensor, name=name_scope)
        shape = tensor.shape
        if shape.ndims != 0:
            raise ValueError("%sExpected scalar shape for %s, saw shape: %s." % (message or "", _name(tensor), shape))
        return tensor


# ---- dtypes ----------------------------------------------------------------------------------
def assert_integer(x, message=None, name=None):
    """Statically asserts that `x` is of integer dtype, as `tf.assert_integer`.

    Args:
      x: `Tensor` whose basetype is integer and is not quantized.
      message: A string to prefix to the default message.
      name: A name for this operation (optional). Defaults to "assert_integer".

    Returns:
      A `no_op` that does nothing (the type is known statically).

    Raises:
      TypeError: If `x.dtype` is anything other than non-quantized integer.
    """
    message = message or ""
    with ops.name_scope(name, "assert_integer", [x]):
        x = ops.convert_to_tensor(x, name="x")
        if not x.dtype.is_integer:
            raise TypeError('%s  Expected "x" to be integer type.  Found: %s of dtype %s'
                            % (message, _name(x), x.dtype))
        return core_ops.no_op("statically_determined_was_integer")


def assert_type(tensor, tf_type, message=None, name=None):
    """Statically asserts that the given `Tensor` is of the specified type, as `tf.assert_type`.

    Args:
      tensor: A `Tensor`.
      tf_type: A tensorflow type (`tf.float32`, `tf.int64`, `tf.bool`, etc).
      message: A string to prefix to the default message.
      name: A name to give this `Op`. Defaults to "assert_type".

    Returns:
      A `no_op` that does nothing (the type is known statically).

    Raises:
      TypeError: If the tensor's data type doesn't match `tf_type`.
    """
    message = message or ""
    with ops.name_scope(name, "assert_type", [tensor]):
        tensor = ops.convert_to_tensor(tensor, name="tensor")
        if tensor.dtype != tf_type:
            raise TypeError("%s  %s must be of type %s" % (message, _name(tensor), tf_type))
        return core_ops.no_op("statically_determined_correct_type")


def assert_proper_iterable(values):
    """Static assert that `values` is a "proper" iterable (not a Tensor, array or string).

    Raises:
      TypeError: If `values` is not iterable or is one of `Tensor`, `np.ndarray`, bytes or str.
    """
    if isinstance(values, (ops.Tensor, np.ndarray, bytes, str)):
        raise TypeError('Expected argument "values" to be a "proper" iterable.  Found: %s' % type(values))
    if not hasattr(values, "__iter__"):
        raise TypeError('Expected argument "values" to be iterable.  Found: %s' % type(values))


def assert_same_float_dtype(tensors=None, dtype=None):
    """Validates and returns the float type shared by `tensors` and `dtype` (default float32).

    Args:
      tensors: Tensors of input values (None entries are ignored).
      dtype: Expected type.

    Returns:
      Validated type.

    Raises:
      ValueError: If the types differ, or the common type is not floating point.
    """
    if tensors:
        expected, first = dtype, None
        for item in tensors:
            if item is None:
                continue
            if not expected:
                expected, first = item.dtype.base_dtype, getattr(item, "name", str(item))
            elif expected != item.dtype.base_dtype:
                raise ValueError("%s, type=%s, must be of the same type (%s)%s." % (
                    getattr(item, "name", str(item)), item.dtype.base_dtype, expected,
                    (" as %s" % first) if first else ""))
        dtype = expected
    if not dtype:
        dtype = dtypes.float32
    elif not dtype.is_floating:
        raise ValueError("Expected floating point type, got %s." % dtype)
    return dtype


# ---- monotonicity ----------------------------------------------------------------------------
def is_numeric_tensor(tensor):
    """Whether `tensor` is a `Tensor` of a numeric dtype."""
    return isinstance(tensor, ops.Tensor) and tensor.dtype in NUMERIC_TYPES


def _diff_for_monotonic_comparison(x):
    """x[1:] - x[:-1] of the flattened `x` (empty when it has fewer than two elements)."""
    x = array_ops.reshape(x, [-1])
    if not is_numeric_tensor(x):
        raise TypeError("Expected x to be numeric, instead found: %s" % x)
    return x[1:] - x[:-1]


def is_non_decreasing(x, name=None):
    """Returns `True` if `x` is non-decreasing (`x[i] <= x[i+1]` in row-major order).

    Args:
      x: Numeric `Tensor`.
      name: A name for this operation (optional). Defaults to "is_non_decreasing".

    Returns:
      Boolean scalar `Tensor`; True when `x` has fewer than two elements.

    Raises:
      TypeError: If `x` is not a numeric tensor.
    """
    with ops.name_scope(name, "is_non_decreasing", [x]):
        diff = _diff_for_monotonic_comparison(x)
        zero = ops.convert_to_tensor(0, dtype=diff.dtype)
        return math_ops.reduce_all(math_ops.less_equal(zero, diff))


def is_strictly_increasing(x, name=None):
    """Returns `True` if `x` is strictly increasing (`x[i] < x[i+1]` in row-major order).

    Args:
      x: Numeric `Tensor`.
      name: A name for this operation (optional). Defaults to "is_strictly_increasing".

    Returns:
      Boolean scalar `Tensor`; True when `x` has fewer than two elements.

    Raises:
      TypeError: If `x` is not a numeric tensor.
    """
    with ops.name_scope(name, "is_strictly_increasing", [x]):
        diff = _diff_for_monotonic_comparison(x)
        zero = ops.convert_to_tensor(0, dtype=diff.dtype)
        return math_ops.reduce_all(math_ops.less(zero, diff))


def _parse_size(symbol):
    """An explicit size (int, or a string that parses as one), else None."""
    if isinstance(symbol, (int, np.integer)) and not isinstance(symbol, bool):
        return int(symbol)
    if isinstance(symbol, str):
        try:
            return int(symbol)
        except ValueError:
            return None
    return None


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Asserts tensors' ranks and the relations of their dimension sizes (`tf.debugging.assert_shapes`).

        tf.debugging.assert_shapes([(x, ("N", "Q")), (y, ("N", "D")), (param, ("Q",)), (scalar, ())])

    A size entry is an explicit size (an int, or a string parsing as one), any size (None or "."), or
    a symbol that must have the same size wherever it appears. A first entry `...` or "*" stands for
    any number of outer dimensions. Scalars and empty specs count as one dimension of size 1.
    What is known statically is checked now; the rest by the returned op.

    Args:
      shapes: A list of `(tensor, shape spec)` pairs, or a dict from tensors to specs (a None spec: no
        constraint).
      data: The tensors printed when a run-time check fails (default: the message and the sizes).
      summarize: Print this many entries of each tensor.
      message: A string to prefix to the messages.
      name: A name for this operation (default "assert_shapes").

    Returns:
      The op running the checks (rank checks first).

    Raises:
      ValueError: If statically known ranks or sizes break the constraints.
    """
    items = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    with ops.name_scope(name, "assert_shapes", [x for x, _ in items]):
        constraints = [(ops.convert_to_tensor(x), tuple(s)) for x, s in items if s is not None]
        message = message or ""
        rank_assertions = []
        parsed = []
        for x, spec in constraints:
            prefix = len(spec) > 0 and (spec[0] is Ellipsis or spec[0] == "*")
            sizes = spec[1:] if prefix else spec
            if prefix:
                rank_assertions.append(assert_rank_at_least(x, len(sizes), message=message))
            elif len(sizes) <= 1:
                rank_assertions.append(assert_rank_in(x, (0, 1), message=message))
            else:
                rank_assertions.append(assert_rank(x, len(sizes), message=message))
            if not prefix and len(sizes) == 0:
                sizes = (1,)
            parsed.append((x, prefix, sizes))
        size_assertions = []
        specified = {}
        for x, prefix, sizes in parsed:
            static = x.shape.as_list() if x.shape.ndims is not None else None
            if static == []:
                static = [1]
            dynamic = None
            for i, symbol in enumerate(sizes):
                if symbol is None or symbol == ".":
                    continue
                dim = i - len(sizes) if prefix else i
                static_size = static[dim] if static is not None else None
                if static_size is not None:
                    size = static_size
                else:
                    if dynamic is None:
                        # A scalar counts as one dimension of size 1.
                        shape = core_ops.shape(x)
                        dynamic = array_ops.concat([shape, [1]], 0)[:math_ops.maximum(array_ops.size(shape), 1)]
                    size = dynamic[dim]
                explicit = _parse_size(symbol)
                if explicit is not None:
                    expected, how = explicit, "Specified explicitly"
                elif symbol in specified:
                    expected, by, by_dim = specified[symbol]
                    how = "Specified by tensor %s dimension %d" % (_name(by), by_dim)
                else:
                    specified[symbol] = (size, x, dim)
                    continue
                static_expected = expected if isinstance(expected, int) else None
                if static_expected is not None and isinstance(size, int):
                    if size != static_expected:
                        raise ValueError("%s.  %s.  Tensor %s dimension %d must have size %d.  Received size %d, "
                                         "shape %s" % (message, how, _name(x), dim, static_expected, size, x.shape))
                    continue
                condition = math_ops.equal(ops.convert_to_tensor(size, dtypes.int32),
                                           ops.convert_to_tensor(expected, dtypes.int32))
                msg = data if data is not None else [message, how, "Tensor %s dimension" % _name(x), dim,
                                                     "must have size", expected, "Received shape: ",
                                                     array_ops.shape(x)]
                size_assertions.append(Assert(condition, msg, summarize=summarize))
        with ops.control_dependencies(rank_assertions):
            return core_ops.group(*size_assertions)
