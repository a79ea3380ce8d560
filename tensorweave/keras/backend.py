"""`tf.keras.backend`: the Keras 2 backend functions over tensorweave graphs and sessions."""

import builtins as _builtins
import contextlib as _contextlib

import numpy as _np

from ..framework import sparse_tensor as _sparse_tensor
from ..ops import array_gather_ops as _gather_ops
from ..ops import array_permute_ops as _permute_ops
from ..ops import array_select_ops as _select_ops
from ..ops import array_shape_ops as _shape_ops
from ..ops import functional_ops as _functional_ops
from ..ops import image_resize_ops as _resize_ops
from ..ops import logging_ops as _logging_ops
from ..ops import math_binary_ops as _binary_ops
from ..ops import math_reduce_ops as _reduce_ops
from ..ops import math_scan_ops as _scan_ops
from ..ops import math_unary_ops as _unary_ops
from ..ops import random_ops as _random_ops
from ..ops import sparse_ops as _sparse_ops
from ..train import moving_averages as _moving_averages
from . import _tf

_SESSION = [None]
_LEARNING_PHASE = {}
_FLOATX = ["float32"]
_EPSILON = [1e-7]
_IMAGE_DATA_FORMAT = ["channels_last"]
_UID_PREFIXES = {}
_MANUAL_VAR_INIT = [False]


def epsilon():
    """Returns the fuzz factor used in numeric expressions (default 1e-7)."""
    return _EPSILON[0]


def set_epsilon(value):
    """Sets the fuzz factor.

    Args:
      value: A float.
    """
    _EPSILON[0] = float(value)


def floatx():
    """Returns the default float type as a string, e.g. 'float32'."""
    return _FLOATX[0]


def set_floatx(value):
    """Sets the default float type.

    Args:
      value: 'float16', 'float32' or 'float64'.

    Raises:
      ValueError: For any other value.
    """
    if value not in ("float16", "float32", "float64"):
        raise ValueError("Unknown floatx type: " + str(value))
    _FLOATX[0] = str(value)


def image_data_format():
    """Returns 'channels_last' or 'channels_first'."""
    return _IMAGE_DATA_FORMAT[0]


def get_uid(prefix=""):
    """Returns the next integer id for `prefix` in the current graph (1, 2, ...)."""
    graph = _tf.get_default_graph()
    counts = _UID_PREFIXES.setdefault(id(graph), (graph, {}))[1]
    counts[prefix] = counts.get(prefix, 0) + 1
    return counts[prefix]


def reset_uids():
    """Resets the layer-name counters."""
    _UID_PREFIXES.clear()


def clear_session():
    """Destroys the current Keras graph and session and makes a fresh default graph."""
    from .engine import base_layer
    if _SESSION[0] is not None:
        _SESSION[0].close()
    _SESSION[0] = None
    _tf.reset_default_graph()
    _LEARNING_PHASE.clear()
    _UID_PREFIXES.clear()
    base_layer._KERAS_HISTORY.clear()


def get_session():
    """Returns the session Keras uses, creating it (and initializing new variables) if needed.

    Returns:
      The default session if one is active, else Keras' own session on the default graph.
    """
    default = _tf.get_default_session()
    if default is not None:
        session = default
    else:
        graph = _tf.get_default_graph()
        if _SESSION[0] is None or _SESSION[0].graph is not graph or getattr(_SESSION[0], "_closed", False):
            _SESSION[0] = _tf.Session(graph=graph)
        session = _SESSION[0]
    if not _MANUAL_VAR_INIT[0]:
        _initialize_variables(session)
    return session


def set_session(session):
    """Sets the session Keras uses.

    Args:
      session: A `tf.Session`.
    """
    _SESSION[0] = session


def _initialize_variables(session):
    with session.graph.as_default():
        variables = _tf.global_variables()
        if not variables:
            return
        done = getattr(session, "_keras_initialized", None)
        if done is None:
            done = set()
            try:
                session._keras_initialized = done
            except AttributeError:
                pass
        fresh = [v for v in variables if id(v) not in done]
        if fresh:
            flags = session.run([_tf.is_variable_initialized(v) for v in fresh])
            todo = [v for v, ok in zip(fresh, flags) if not ok]
            if todo:
                session.run(_tf.variables_initializer(todo))
            done.update(id(v) for v in fresh)


def learning_phase():
    """Returns the learning-phase flag: an int32 scalar placeholder defaulting to 0 (test).

    Returns:
      A tensor, or the Python int set with `set_learning_phase`.
    """
    graph = _tf.get_default_graph()
    if id(graph) not in _LEARNING_PHASE:
        with graph.as_default(), _tf.name_scope(""):
            phase = _tf.placeholder_with_default(False, shape=(), name="keras_learning_phase")
        _LEARNING_PHASE[id(graph)] = (graph, phase)
    return _LEARNING_PHASE[id(graph)][1]


def set_learning_phase(value):
    """Fixes the learning phase to 0 (test) or 1 (train).

    Raises:
      ValueError: If `value` is not 0 or 1.
    """
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    graph = _tf.get_default_graph()
    _LEARNING_PHASE[id(graph)] = (graph, value)


# ---- variables and values ---------------------------------------------------------------------
def variable(value, dtype=None, name=None, constraint=None):
    """Creates a variable initialized to `value`.

    Args:
      value: A NumPy array or Python value.
      dtype: Its dtype (default floatx()).
      name: Optional name.
      constraint: Optional projection applied after optimizer updates.

    Returns:
      A `tf.Variable`.
    """
    dtype = dtype or floatx()
    v = _tf.Variable(_np.asarray(value, dtype=_tf.as_dtype(dtype).as_numpy_dtype), dtype=dtype, name=name,
                    constraint=constraint)
    return v


def constant(value, dtype=None, shape=None, name=None):
    """Creates a constant tensor (dtype default floatx())."""
    return _tf.constant(value, dtype=dtype or floatx(), shape=shape, name=name)


def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None):
    """Creates a placeholder.

    Args:
      shape: Its shape (a tuple, None entries unknown).
      ndim: Its rank, when `shape` is not given.
      dtype: Its dtype (default floatx()).
      sparse: Unsupported; must be False.
      name: Optional name.

    Returns:
      A placeholder tensor.

    Raises:
      ValueError: If `sparse` is True.
    """
    if sparse:
        raise ValueError("Sparse placeholders are not supported.")
    if shape is None and ndim is not None:
        shape = (None,) * ndim
    return _tf.placeholder(dtype or floatx(), shape=shape, name=name)


def is_placeholder(x):
    """Whether `x` is a placeholder tensor."""
    return _tf.is_tensor(x) and getattr(x, "op", None) is not None and x.op.type == "Placeholder"


def get_value(x):
    """Returns the value of variable `x` as a NumPy array."""
    return get_session().run(x)


def batch_get_value(tensors):
    """Returns the values of a list of variables as NumPy arrays."""
    return get_session().run(list(tensors)) if tensors else []


def set_value(x, value):
    """Sets variable `x` to the NumPy value `value`."""
    batch_set_value([(x, value)])


def batch_set_value(tuples):
    """Sets many variables at once.

    Args:
      tuples: A list of `(variable, value)` pairs.
    """
    if not tuples:
        return
    session = get_session()
    for x, value in tuples:
        x.load(_np.asarray(value, dtype=x.dtype.base_dtype.as_numpy_dtype), session)


def eval(x):  # noqa: A001 (Keras' name)
    """Evaluates `x` and returns a NumPy array."""
    return get_session().run(x)


def int_shape(x):
    """Returns the static shape of `x` as a tuple of ints / None, or None if the rank is unknown."""
    shape = x.shape if hasattr(x, "shape") else x.get_shape()
    shape = _tf.TensorShape(shape)
    if shape.ndims is None:
        return None
    return tuple(shape.as_list())


def shape(x):
    """Returns the dynamic shape of `x` as an int32 tensor."""
    return _tf.shape(x)


def ndim(x):
    """Returns the rank of `x` as a Python int (or None)."""
    return _tf.TensorShape(x.shape).ndims


def dtype(x):
    """Returns the dtype of `x` as a string."""
    return x.dtype.base_dtype.name


def count_params(x):
    """Returns the number of scalars in variable `x`."""
    return int(_np.prod(int_shape(x)))


def cast(x, dtype):
    """Casts `x` to `dtype`."""
    return _tf.cast(x, dtype)


def zeros(shape, dtype=None, name=None):
    """Returns a variable of zeros."""
    return variable(_np.zeros(shape), dtype=dtype, name=name)


def ones(shape, dtype=None, name=None):
    """Returns a variable of ones."""
    return variable(_np.ones(shape), dtype=dtype, name=name)


def zeros_like(x, dtype=None, name=None):
    """Returns a tensor of zeros shaped like `x`."""
    return _tf.zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):
    """Returns a tensor of ones shaped like `x`."""
    return _tf.ones_like(x, dtype=dtype, name=name)


@_contextlib.contextmanager
def name_scope(name):
    """A name scope context manager (as `tf.name_scope`)."""
    with _tf.name_scope(name) as scope:
        yield scope


# ---- math ---------------------------------------------------------------------------------
def mean(x, axis=None, keepdims=False):
    """Mean of `x` over `axis`."""
    if x.dtype.base_dtype == _tf.bool:
        x = _tf.cast(x, floatx())
    return _tf.reduce_mean(x, axis=axis, keepdims=keepdims)


def sum(x, axis=None, keepdims=False):  # noqa: A001
    """Sum of `x` over `axis`."""
    return _tf.reduce_sum(x, axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    """Maximum of `x` over `axis`."""
    return _tf.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    """Minimum of `x` over `axis`."""
    return _tf.reduce_min(x, axis=axis, keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    """Product of `x` over `axis`."""
    return _tf.reduce_prod(x, axis=axis, keepdims=keepdims)


def argmax(x, axis=-1):
    """Index of the maximum along `axis`."""
    return _tf.argmax(x, axis)


def argmin(x, axis=-1):
    """Index of the minimum along `axis`."""
    return _tf.argmin(x, axis)


def square(x):
    """Elementwise square."""
    return _tf.square(x)


def sqrt(x):
    """Elementwise square root (negative inputs clipped to 0, as Keras does)."""
    zero = _tf.constant(0.0, dtype=x.dtype.base_dtype)
    return _tf.sqrt(_tf.clip_by_value(x, zero, _tf.constant(_np.inf, dtype=x.dtype.base_dtype)))


def abs(x):  # noqa: A001
    """Elementwise absolute value."""
    return _tf.abs(x)


def exp(x):
    """Elementwise exponential."""
    return _tf.exp(x)


def log(x):
    """Elementwise natural logarithm."""
    return _tf.log(x)


def pow(x, a):  # noqa: A001
    """Elementwise power."""
    return _tf.pow(x, a)


def maximum(x, y):
    """Elementwise maximum."""
    return _tf.maximum(x, y)


def minimum(x, y):
    """Elementwise minimum."""
    return _tf.minimum(x, y)


def equal(x, y):
    """Elementwise equality."""
    return _tf.equal(x, y)


def clip(x, min_value, max_value):
    """Clips `x` elementwise to `[min_value, max_value]`."""
    if max_value is not None and min_value is not None and max_value < min_value:
        max_value = min_value
    if max_value is None:
        max_value = _np.inf
    if min_value is None:
        min_value = -_np.inf
    dt = x.dtype.base_dtype
    return _tf.clip_by_value(x, _tf.constant(min_value, dtype=dt), _tf.constant(max_value, dtype=dt))


def dot(x, y):
    """Matrix product of `x` and `y`, contracting the last axis of `x` with the second-to-last of `y`."""
    nx, ny = ndim(x), ndim(y)
    if nx is not None and ny is not None and (nx > 2 or ny > 2):
        return _tf.tensordot(x, y, axes=[[nx - 1], [ny - 2 if ny >= 2 else 0]])
    return _tf.matmul(x, y)


def batch_dot(x, y, axes=None):
    """Batchwise dot product of `x` and `y` (rank 2 or 3), as Keras 2.

    Args:
      x, y: Tensors with a leading batch axis.
      axes: An int or pair of ints: the axes to contract.

    Returns:
      A tensor; rank-2 results are reshaped to `(batch, 1)`.

    Raises:
      ValueError: For inputs of rank above 3.
    """
    if isinstance(axes, int):
        axes = (axes, axes)
    nx, ny = ndim(x), ndim(y)
    if axes is None:
        axes = (nx - 1, ny - 2 if ny > 2 else ny - 1)
    if nx == 2 and ny == 2:
        if axes[0] == axes[1] == 1:
            return _tf.reduce_sum(x * y, axis=1, keepdims=True)
        return _tf.reduce_sum(_tf.transpose(x) * _tf.transpose(y), axis=1, keepdims=True)
    ax = axes[0] if axes[0] >= 0 else axes[0] + nx
    ay = axes[1] if axes[1] >= 0 else axes[1] + ny
    if nx == 3 and ny == 2:
        return _tf.squeeze(_tf.matmul(x, _tf.expand_dims(y, -1), adjoint_a=(ax != nx - 1)), [-1])
    if nx == 2 and ny == 3:
        return _tf.squeeze(_tf.matmul(_tf.expand_dims(x, 1), y, adjoint_b=(ay == ny - 1)), [1])
    if nx != 3 or ny != 3:
        raise ValueError("batch_dot supports inputs of rank 2 or 3; got ranks %s and %s." % (nx, ny))
    return _tf.matmul(x, y, adjoint_a=(ax != nx - 1), adjoint_b=(ay == ny - 1))


def concatenate(tensors, axis=-1):
    """Concatenates `tensors` along `axis`."""
    return _tf.concat(list(tensors), axis)


def reshape(x, shape):
    """Reshapes `x`."""
    return _tf.reshape(x, shape)


def transpose(x):
    """Transposes `x`."""
    return _tf.transpose(x)


def permute_dimensions(x, pattern):
    """Permutes the axes of `x` by `pattern`."""
    return _tf.transpose(x, perm=list(pattern))


def expand_dims(x, axis=-1):
    """Inserts an axis of size 1 at `axis`."""
    return _tf.expand_dims(x, axis)


def squeeze(x, axis):
    """Removes the size-1 axis `axis`."""
    return _tf.squeeze(x, [axis])


def stack(x, axis=0):
    """Stacks a list of tensors along a new axis."""
    return _tf.stack(list(x), axis=axis)


def gather(reference, indices):
    """Gathers rows of `reference` at `indices`."""
    return _tf.gather(reference, indices)


def flatten(x):
    """Flattens `x` to rank 1."""
    return _tf.reshape(x, [-1])


def batch_flatten(x):
    """Flattens all but the first axis of `x`."""
    return _tf.reshape(x, _tf.stack([-1, _tf.reduce_prod(_tf.shape(x)[1:])]))


def repeat(x, n):
    """Repeats a 2-D tensor `(batch, dim)` to `(batch, n, dim)`."""
    x = _tf.expand_dims(x, 1)
    return _tf.tile(x, _tf.stack([1, n, 1]))


def relu(x, alpha=0.0, max_value=None, threshold=0):
    """Rectified linear unit with optional leak `alpha`, cap `max_value` and `threshold`."""
    dt = x.dtype.base_dtype
    if alpha != 0.0:
        if threshold != 0:
            negative = _tf.nn.relu(-x + _tf.constant(threshold, dt))
        else:
            negative = _tf.nn.relu(-x)
    if threshold != 0:
        x = x * _tf.cast(_tf.greater(x, _tf.constant(threshold, dt)), dt)
    elif max_value == 6:
        x = _tf.nn.relu6(x)
        max_value = None
    else:
        x = _tf.nn.relu(x)
    if max_value is not None:
        x = _tf.clip_by_value(x, _tf.constant(0, dt), _tf.constant(max_value, dt))
    if alpha != 0.0:
        x = x - _tf.constant(alpha, dt) * negative
    return x


def sigmoid(x):
    """Elementwise logistic sigmoid."""
    return _tf.sigmoid(x)


def hard_sigmoid(x):
    """Piecewise-linear sigmoid: clip(0.2 * x + 0.5, 0, 1)."""
    dt = x.dtype.base_dtype
    return _tf.clip_by_value(x * _tf.constant(0.2, dt) + _tf.constant(0.5, dt), _tf.constant(0.0, dt),
                            _tf.constant(1.0, dt))


def tanh(x):
    """Elementwise hyperbolic tangent."""
    return _tf.tanh(x)


def softmax(x, axis=-1):
    """Softmax over `axis`."""
    return _tf.nn.softmax(x, axis=axis)


def softplus(x):
    """Elementwise softplus."""
    return _tf.nn.softplus(x)


def elu(x, alpha=1.0):
    """Exponential linear unit."""
    res = _tf.nn.elu(x)
    return res if alpha == 1 else _tf.where(x > 0, res, alpha * res)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Categorical crossentropy between a one-hot `target` and `output` (TF 1.15's formula).

    Probabilities are renormalized and clipped to [eps, 1 - eps]; the output of a `Softmax` op is
    replaced by its logits, as TF 1.15 does.

    Args:
      target: One-hot labels.
      output: Probabilities or logits.
      from_logits: Whether `output` holds logits.
      axis: The class axis.

    Returns:
      Per-sample losses.
    """
    if not from_logits:
        if output.op is None or output.op.type != "Softmax":
            output = output / _tf.reduce_sum(output, axis, True)
            eps = _tf.constant(epsilon(), output.dtype.base_dtype)
            output = _tf.clip_by_value(output, eps, 1.0 - eps)
            return -_tf.reduce_sum(target * _tf.log(output), axis)
        output = output.op.inputs[0]
    return _tf.nn.softmax_cross_entropy_with_logits_v2(labels=target, logits=output, axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Crossentropy between integer `target` and `output` (probabilities clipped, or logits; the
    output of a `Softmax` op is replaced by its logits, as TF 1.15 does).

    Args:
      target: Integer class ids (shape of `output` without its last axis, or with a trailing 1).
      output: Probabilities or logits.
      from_logits: Whether `output` holds logits.
      axis: The class axis (only the last one is supported).

    Returns:
      Per-sample losses shaped like `target` without a trailing size-1 axis.

    Raises:
      ValueError: For an `axis` other than the last one.
    """
    ndim = output.shape.ndims
    if axis not in (-1, None) and not (ndim is not None and axis == ndim - 1):
        raise ValueError("sparse_categorical_crossentropy supports only the last axis")
    if not from_logits:
        if output.op is not None and output.op.type == "Softmax":
            output = output.op.inputs[0]
        else:
            eps = _tf.constant(epsilon(), output.dtype.base_dtype)
            output = _tf.log(_tf.clip_by_value(output, eps, 1 - eps))
    target = _tf.cast(target, _tf.int64)
    out_shape = _tf.shape(output)
    logits = _tf.reshape(output, _tf.stack([-1, out_shape[-1]]))
    res = _tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_tf.reshape(target, [-1]), logits=logits)
    if ndim is not None and ndim >= 3:
        return _tf.reshape(res, out_shape[:-1])
    return res


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary crossentropy (TF 1.15's formula: probabilities clipped to [eps, 1 - eps] with
    eps added inside the logs; the output of a `Sigmoid` op is replaced by its logits)."""
    if not from_logits:
        if output.op is None or output.op.type != "Sigmoid":
            e = epsilon()
            eps = _tf.constant(e, output.dtype.base_dtype)
            output = _tf.clip_by_value(output, eps, 1.0 - eps)
            return -(target * _tf.log(output + e) + (1 - target) * _tf.log(1 - output + e))
        output = output.op.inputs[0]
    return _tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)


# ---- control ------------------------------------------------------------------------------
def switch(condition, then_expression, else_expression):
    """Selects between two expressions on a boolean `condition`, as Keras 2 (TF 1.15).

    A scalar condition builds a `cond` (the expressions may be callables); a condition of rank r >= 1
    selects elementwise with `where` after tiling it over the trailing axes of the expressions.

    Args:
      condition: A boolean (or castable) tensor.
      then_expression, else_expression: Tensors or callables returning tensors.

    Returns:
      The selected tensor.

    Raises:
      ValueError: If `condition` has a higher rank than the expressions.
    """
    if condition.dtype.base_dtype != _tf.bool:
        condition = _tf.cast(condition, "bool")
    cond_ndim = ndim(condition)
    if not cond_ndim:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return _tf.cond(condition, then_fn, else_fn)
    if callable(then_expression):
        then_expression = then_expression()
    if callable(else_expression):
        else_expression = else_expression()
    expr_ndim = ndim(then_expression)
    if cond_ndim > expr_ndim:
        raise ValueError("Rank of `condition` should be less than or equal to rank of `then_expression` and "
                         "`else_expression`. ndim(condition)=" + str(cond_ndim) + ", ndim(then_expression)="
                         + str(expr_ndim))
    if cond_ndim > 1:
        ndim_diff = expr_ndim - cond_ndim
        cond_shape = _tf.concat([_tf.shape(condition), _tf.constant([1] * ndim_diff, "int32")], axis=0)
        condition = _tf.reshape(condition, cond_shape)
        expr_shape = _tf.shape(then_expression)
        shape_diff = expr_shape - cond_shape
        tile_shape = _tf.where(_tf.greater(shape_diff, 0), expr_shape, _tf.ones_like(expr_shape))
        condition = _tf.tile(condition, tile_shape)
    return _tf.where(condition, then_expression, else_expression)


def in_train_phase(x, alt, training=None):
    """Returns `x` in the training phase and `alt` otherwise.

    Args:
      x, alt: Tensors or callables returning tensors.
      training: A Python bool/int or boolean tensor (default: `learning_phase()`).
    """
    if training is None:
        training = learning_phase()
    if training == 1 or training is True:
        return x() if callable(x) else x
    if training == 0 or training is False:
        return alt() if callable(alt) else alt
    return switch(training, x, alt)


def in_test_phase(x, alt, training=None):
    """Returns `x` in the test phase and `alt` otherwise."""
    return in_train_phase(alt, x, training=training)


def stop_gradient(variables):
    """Stops gradients through a tensor or a list of tensors."""
    if isinstance(variables, (list, tuple)):
        return [_tf.stop_gradient(v) for v in variables]
    return _tf.stop_gradient(variables)


def gradients(loss, variables):
    """Gradients of `loss` with respect to `variables`."""
    return _tf.gradients(loss, variables)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Tensor of uniform random values."""
    return _tf.random_uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(), seed=seed)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Tensor of normal random values."""
    return _tf.random_normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=seed)


def dropout(x, level, noise_shape=None, seed=None):
    """Drops entries of `x` with probability `level`, scaling the rest by 1 / (1 - level)."""
    return _tf.nn.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def bias_add(x, bias, data_format=None):
    """Adds `bias` to `x`, as Keras 2 (TF 1.15).

    Args:
      x: A tensor.
      bias: A bias of rank 1 (added along the channel axis), or of rank `ndim(x) - 1` (added to every
        sample; for 'channels_first' its last axis holds the channels).
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Returns:
      `x + bias`.

    Raises:
      ValueError: For an unknown data format or a bias of another rank.
    """
    data_format = _check_data_format(data_format)
    bias_shape = int_shape(bias)
    if len(bias_shape) != 1 and len(bias_shape) != ndim(x) - 1:
        raise ValueError("Unexpected bias dimensions %d, expect to be 1 or %d dimensions"
                         % (len(bias_shape), ndim(x)))
    if len(bias_shape) == 1:
        return _tf.nn.bias_add(x, bias, data_format="NCHW" if data_format == "channels_first" else "NHWC")
    if ndim(x) in (3, 4, 5):
        if data_format == "channels_first":
            return x + reshape(bias, (1, bias_shape[-1]) + bias_shape[:-1])
        return x + reshape(bias, (1,) + bias_shape)
    return _tf.nn.bias_add(x, bias)


def update(x, new_x):
    """Op assigning `new_x` to `x`."""
    return _tf.assign(x, new_x)


def update_add(x, increment):
    """Op adding `increment` to `x`."""
    return _tf.assign_add(x, increment)


def update_sub(x, decrement):
    """Op subtracting `decrement` from `x`."""
    return _tf.assign_sub(x, decrement)


class Function:
    """A callable that runs `outputs` (and `updates`) feeding NumPy values to `inputs`."""

    def __init__(self, inputs, outputs, updates=None, name=None, feed_dict=None):
        self.feed_dict = dict(feed_dict or {})
        self.inputs = list(inputs)
        self._outputs_is_list = isinstance(outputs, (list, tuple))
        self.outputs = list(outputs) if self._outputs_is_list else [outputs]
        ops_ = []
        for u in updates or []:
            if isinstance(u, tuple):
                ops_.append(_tf.assign(u[0], u[1]))
            else:
                ops_.append(u)
        with _tf.control_dependencies(self.outputs):
            self.updates_op = _tf.group(*ops_) if ops_ else None
        self.name = name

    def __call__(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise TypeError("`inputs` should be a list or tuple.")
        feed = dict(self.feed_dict)
        for tensor, value in zip(self.inputs, inputs):
            if isinstance(tensor, int):
                continue
            if not isinstance(value, _np.ndarray) or value.dtype != tensor.dtype.base_dtype.as_numpy_dtype:
                value = _np.asarray(value, dtype=tensor.dtype.base_dtype.as_numpy_dtype)
            feed[tensor] = value
        fetches = self.outputs + ([self.updates_op] if self.updates_op is not None else [])
        results = get_session().run(fetches, feed_dict=feed)
        return results[:len(self.outputs)]


def function(inputs, outputs, updates=None, name=None, **kwargs):
    """Instantiates a Keras function.

    Args:
      inputs: List of placeholder tensors (may include `learning_phase()`).
      outputs: List of output tensors.
      updates: List of update ops or `(variable, new_value)` pairs, run after the outputs.
      name: Optional name.
      **kwargs: `feed_dict`: extra values fed at every call.

    Returns:
      A callable taking a list of NumPy arrays and returning a list of NumPy arrays.

    Raises:
      ValueError: For an unexpected keyword argument.
    """
    for key in kwargs:
        if key != "feed_dict":
            raise ValueError("Invalid argument \"%s\" passed to K.function with TensorFlow backend" % key)
    return Function(inputs, outputs, updates=updates, name=name, feed_dict=kwargs.get("feed_dict"))


# ---- recurrent loop -------------------------------------------------------------------------
def _time_first(x):
    rank = x.shape.ndims
    return _tf.transpose(x, [1, 0] + list(range(2, rank)))


def _broadcastable_mask(mask_t, like):
    """`mask_t` (batch, 1) with trailing axes added up to the rank of `like`, for `where_v2`."""
    for _ in range(like.shape.ndims - mask_t.shape.ndims):
        mask_t = _tf.expand_dims(mask_t, -1)
    return mask_t


def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None, unroll=False,
        input_length=None, time_major=False, zero_output_for_mask=False):
    """Iterates `step_function` over the time axis of `inputs`, as Keras 2's `K.rnn` (TF 1.15).

    The loop is a `while_loop` over `TensorArray`s, so the number of time steps may be unknown until
    run time and gradients flow through time. `step_function` is first called once on the first
    time step outside the loop (as TF 1.15 does): that call fixes the output's dtype and shape, and
    values it caches (e.g. a cell's dropout masks) are then shared by every step.

    Args:
      step_function: `step_function(inputs_t, states + constants)` -> `(output_t, new_states)`, with
        `inputs_t` of shape `(batch, ...)` and `new_states` a list like `states`.
      inputs: A tensor `(batch, time, ...)` (`(time, batch, ...)` if `time_major`), rank >= 3.
      initial_states: A list of state tensors `(batch, ...)`.
      go_backwards: Whether to iterate from the last time step to the first (the outputs are then in
        reversed time order).
      mask: Optional boolean (or 0/1) tensor `(batch, time)` (or with a trailing axis of size 1):
        at masked steps the states are kept and the output repeats the previous output (zeros with
        `zero_output_for_mask`).
      constants: Optional list of tensors passed to every step after the states.
      unroll: Whether to unroll the loop; it runs the same `while_loop` (same values), but still
        requires a known number of time steps, as Keras does.
      input_length: Unused (the static number of time steps, for compatibility).
      time_major: Whether `inputs` (and the returned outputs) are time major.
      zero_output_for_mask: Whether masked steps output zeros instead of the previous output.

    Returns:
      `(last_output, outputs, new_states)`: the output of the last step `(batch, ...)`, all
      outputs `(batch, time, ...)` (time major if `time_major`) and the list of final states.

    Raises:
      ValueError: If `inputs` has a rank below 3, or `unroll` with an unknown number of steps.
      NotImplementedError: For nested (list) inputs.
    """
    from ..ops.array_permute_ops import reverse
    from ..ops.array_select_ops import where_v2
    from ..ops.control_flow_ops import while_loop
    from ..ops.tensor_array_ops import TensorArray

    if isinstance(inputs, (list, tuple, dict)):
        raise NotImplementedError("K.rnn: nested inputs are not supported; pass one tensor.")
    inputs = _tf.convert_to_tensor(inputs)
    rank = inputs.shape.ndims
    if rank is None or rank < 3:
        raise ValueError("Input should be at least 3D.")
    if not time_major:
        inputs = _time_first(inputs)
    time_steps = _tf.TensorShape(inputs.shape)[0]
    time_steps = time_steps.value if hasattr(time_steps, "value") else time_steps
    if unroll and not time_steps:
        raise ValueError("Unrolling requires a fixed number of timesteps.")
    if mask is not None:
        if mask.dtype.base_dtype != _tf.bool:
            mask = _tf.cast(mask, _tf.bool)
        if mask.shape.ndims == 2:
            mask = _tf.expand_dims(mask, -1)
        if not time_major:
            mask = _time_first(mask)
    constants = tuple(constants or [])
    states = tuple(initial_states)
    if go_backwards:
        inputs = reverse(inputs, [0])
        if mask is not None:
            mask = reverse(mask, [0])
    time_steps_t = _tf.shape(inputs)[0]
    input_ta = TensorArray(inputs.dtype, size=time_steps_t, tensor_array_name="input_ta",
                           element_shape=inputs.shape[1:]).unstack(inputs)
    output_time_zero, _ = step_function(inputs[0], states + constants)
    output_ta = TensorArray(output_time_zero.dtype, size=time_steps_t, tensor_array_name="output_ta",
                            element_shape=output_time_zero.shape)
    time = _tf.constant(0, dtype="int32", name="time")

    def run_step(time, states):
        current = input_ta.read(time)
        current.set_shape(inputs.shape[1:])
        output, new_states = step_function(current, tuple(states) + constants)
        new_states = list(new_states) if isinstance(new_states, (list, tuple)) else [new_states]
        for state, new_state in zip(states, new_states):
            new_state.set_shape(state.shape)
        return output, new_states

    if mask is not None:
        mask_ta = TensorArray(_tf.bool, size=time_steps_t, tensor_array_name="mask_ta").unstack(mask)
        zero_output = _tf.zeros_like(output_time_zero)

        def masked_step(time, output_ta_t, prev_output, *states):
            output, new_states = run_step(time, states)
            mask_t = mask_ta.read(time)
            kept = zero_output if zero_output_for_mask else prev_output
            new_output = where_v2(_broadcastable_mask(mask_t, output), output, kept)
            new_states = [where_v2(_broadcastable_mask(mask_t, n), n, s) for n, s in zip(new_states, states)]
            return (time + 1, output_ta_t.write(time, new_output), new_output) + tuple(new_states)

        final = while_loop(lambda time, *_: time < time_steps_t, masked_step,
                           (time, output_ta, zero_output) + states, parallel_iterations=32)
        new_states = list(final[3:])
    else:
        def step(time, output_ta_t, *states):
            output, new_states = run_step(time, states)
            return (time + 1, output_ta_t.write(time, output)) + tuple(new_states)

        final = while_loop(lambda time, *_: time < time_steps_t, step, (time, output_ta) + states,
                           parallel_iterations=32)
        new_states = list(final[2:])
    outputs = final[1].stack()
    outputs.set_shape(_tf.TensorShape([time_steps]).concatenate(output_time_zero.shape))
    last_output = outputs[-1]
    if not time_major:
        outputs = _time_first(outputs)
    return last_output, outputs, new_states


# ---- configuration ----------------------------------------------------------------------------
def backend():
    """Returns the name of the backend: 'tensorflow' (for multi-backend Keras code)."""
    return "tensorflow"


def cast_to_floatx(x):
    """Casts a NumPy array (or Python value) to an array of dtype `floatx()`."""
    return _np.asarray(x, dtype=floatx())


def set_image_data_format(data_format):
    """Sets the default image data format.

    Args:
      data_format: 'channels_first' or 'channels_last'.

    Raises:
      ValueError: For any other value.
    """
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("Unknown data_format: " + str(data_format))
    _IMAGE_DATA_FORMAT[0] = str(data_format)


def _check_data_format(data_format):
    if data_format is None:
        data_format = image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("Unknown data_format: " + str(data_format))
    return data_format


def manual_variable_initialization(value):
    """Sets whether variables are left to the user to initialize (True) or initialized by `get_session`.

    Args:
      value: A Python bool.
    """
    _MANUAL_VAR_INIT[0] = bool(value)


@_contextlib.contextmanager
def learning_phase_scope(value):
    """A scope within which the learning phase of the default graph is `value`; restored on exit.

    Args:
      value: 0 (test) or 1 (train).

    Raises:
      ValueError: If `value` is not 0 or 1.
    """
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    graph = _tf.get_default_graph()
    previous = _LEARNING_PHASE.get(id(graph))
    try:
        set_learning_phase(value)
        yield
    finally:
        if previous is not None:
            _LEARNING_PHASE[id(graph)] = previous
        else:
            _LEARNING_PHASE.pop(id(graph), None)


def is_keras_tensor(x):
    """Whether `x` is a Keras tensor: the output of a Keras layer or `Input`.

    Args:
      x: A tensor, variable or sparse tensor.

    Returns:
      A Python bool.

    Raises:
      ValueError: If `x` is not a symbolic tensor.
    """
    from .engine import base_layer
    if not (_tf.is_tensor(x) or isinstance(x, _tf.Variable) or is_sparse(x)):
        raise ValueError("Unexpectedly found an instance of type `" + str(type(x)) + "`. Expected a symbolic tensor "
                         "instance.")
    return base_layer.is_keras_tensor(x)


def is_sparse(tensor):
    """Whether `tensor` is a `SparseTensor`."""
    return isinstance(tensor, _sparse_tensor.SparseTensor)


def to_dense(tensor):
    """Converts a `SparseTensor` to a dense tensor (other tensors are returned as they are)."""
    if is_sparse(tensor):
        return _sparse_ops.sparse_tensor_to_dense(tensor)
    return tensor


def get_variable_shape(x):
    """Returns the static shape of variable `x` as a tuple (as `int_shape`)."""
    return int_shape(x)


def identity(x, name=None):
    """Returns a tensor with the same content as `x`."""
    return _tf.identity(x, name=name)


def print_tensor(x, message=""):
    """Returns `x`, printing `message` and its value (to stderr, as `tf.Print`) whenever it is evaluated.

    Args:
      x: A tensor.
      message: The message printed before the value.

    Returns:
      A tensor with the value of `x`.
    """
    return _logging_ops.Print(x, [x], message)


# ---- variables and random tensors -------------------------------------------------------------
def eye(size, dtype=None, name=None):
    """Returns a variable holding an identity matrix.

    Args:
      size: An int: the number of rows and columns.
      dtype: Its dtype (default floatx()).
      name: Optional name.

    Returns:
      A `tf.Variable`.
    """
    return variable(_np.eye(size), dtype=dtype or floatx(), name=name)


def _seed(seed):
    return _np.random.randint(10e6) if seed is None else seed


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    """Returns a variable initialized with values drawn uniformly from `[low, high)`.

    Args:
      shape: Its shape.
      low, high: The bounds.
      dtype: Its dtype (default floatx()).
      name: Optional name.
      seed: Optional op seed (default: drawn from NumPy's global generator, as Keras).

    Returns:
      A `tf.Variable`.
    """
    dtype = dtype or floatx()
    seed = _np.random.randint(10e8) if seed is None else seed
    value = _tf.random_uniform(shape, minval=low, maxval=high, dtype=dtype, seed=seed)
    return _tf.Variable(value, dtype=dtype, name=name)


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    """Returns a variable initialized with values drawn from a normal distribution.

    Args:
      shape: Its shape.
      mean: The mean.
      scale: The standard deviation.
      dtype: Its dtype (default floatx()).
      name: Optional name.
      seed: Optional op seed (default: drawn from NumPy's global generator, as Keras).

    Returns:
      A `tf.Variable`.
    """
    dtype = dtype or floatx()
    seed = _np.random.randint(10e8) if seed is None else seed
    value = _tf.random_normal(shape, mean=mean, stddev=scale, dtype=dtype, seed=seed)
    return _tf.Variable(value, dtype=dtype, name=name)


def random_binomial(shape, p=0.0, dtype=None, seed=None):
    """Returns a tensor of 1s (probability `p`) and 0s: `where(random_uniform(shape) <= p, 1, 0)`.

    Args:
      shape: The shape.
      p: The probability of a 1.
      dtype: The dtype (default floatx()).
      seed: Optional op seed (default: drawn from NumPy's global generator, as Keras).

    Returns:
      A tensor.
    """
    dtype = dtype or floatx()
    seed = _seed(seed)
    uniform = _tf.random_uniform(shape, dtype=dtype, seed=seed)
    return _tf.where(_binary_ops.less_equal(uniform, _tf.constant(p, dtype)), _shape_ops.ones(shape, dtype=dtype),
                     _shape_ops.zeros(shape, dtype=dtype))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Returns a tensor of normal values redrawn when more than two standard deviations from the mean.

    Args:
      shape: The shape.
      mean: The mean.
      stddev: The standard deviation (before truncation).
      dtype: The dtype (default floatx()).
      seed: Optional op seed (default: drawn from NumPy's global generator, as Keras).

    Returns:
      A tensor.
    """
    return _random_ops.truncated_normal(shape, mean, stddev, dtype=dtype or floatx(), seed=_seed(seed))


# ---- elementwise and reductions ----------------------------------------------------------------
def any(x, axis=None, keepdims=False):  # noqa: A001
    """Logical or over `axis` (`x` is cast to bool first)."""
    return _reduce_ops.reduce_any(_tf.cast(x, _tf.bool), axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):  # noqa: A001
    """Logical and over `axis` (`x` is cast to bool first)."""
    return _reduce_ops.reduce_all(_tf.cast(x, _tf.bool), axis=axis, keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    """Variance of `x` over `axis` (booleans are cast to floatx())."""
    if x.dtype.base_dtype == _tf.bool:
        x = _tf.cast(x, floatx())
    return _reduce_ops.reduce_variance(x, axis=axis, keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    """Standard deviation of `x` over `axis` (booleans are cast to floatx())."""
    if x.dtype.base_dtype == _tf.bool:
        x = _tf.cast(x, floatx())
    return _reduce_ops.reduce_std(x, axis=axis, keepdims=keepdims)


def logsumexp(x, axis=None, keepdims=False):
    """`log(sum(exp(x)))` over `axis`, computed stably."""
    return _reduce_ops.reduce_logsumexp(x, axis=axis, keepdims=keepdims)


def cumsum(x, axis=0):
    """Cumulative sum along `axis`."""
    return _scan_ops.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    """Cumulative product along `axis`."""
    return _scan_ops.cumprod(x, axis=axis)


def round(x):  # noqa: A001
    """Elementwise rounding to the nearest integer (half to even)."""
    return _unary_ops.round(x)


def sign(x):
    """Elementwise sign."""
    return _unary_ops.sign(x)


def sin(x):
    """Elementwise sine."""
    return _unary_ops.sin(x)


def cos(x):
    """Elementwise cosine."""
    return _unary_ops.cos(x)


def not_equal(x, y):
    """Elementwise `x != y`."""
    return _binary_ops.not_equal(x, y)


def greater(x, y):
    """Elementwise `x > y`."""
    return _binary_ops.greater(x, y)


def greater_equal(x, y):
    """Elementwise `x >= y`."""
    return _binary_ops.greater_equal(x, y)


def less(x, y):
    """Elementwise `x < y`."""
    return _binary_ops.less(x, y)


def less_equal(x, y):
    """Elementwise `x <= y`."""
    return _binary_ops.less_equal(x, y)


def softsign(x):
    """Elementwise softsign `x / (1 + |x|)`."""
    return _tf.nn.softsign(x)


def l2_normalize(x, axis=None):
    """Normalizes `x` to unit L2 norm along `axis` (`x / sqrt(max(sum(x ** 2), 1e-12))`)."""
    return _tf.nn.l2_normalize(x, axis=axis)


def in_top_k(predictions, targets, k):
    """Whether each target is among the top `k` predictions.

    Args:
      predictions: A float32 tensor `(batch, classes)`.
      targets: An int32/int64 tensor `(batch,)` of class ids.
      k: An int.

    Returns:
      A bool tensor `(batch,)`.
    """
    return _tf.nn.in_top_k(predictions, targets, k)


def one_hot(indices, num_classes):
    """One-hot encodes integer `indices` (any rank) into a new last axis of size `num_classes`."""
    return _gather_ops.one_hot(indices, depth=num_classes, axis=-1)


# ---- shapes --------------------------------------------------------------------------------
def arange(start, stop=None, step=1, dtype="int32"):
    """A 1-D tensor of evenly spaced values, as `np.arange` (a negative `start` alone gives an empty one).

    Args:
      start: The start value (or the stop value when `stop` is None).
      stop: The end value (exclusive).
      step: The increment.
      dtype: The dtype of the result.

    Returns:
      A 1-D tensor.
    """
    if stop is None and start < 0:
        start = 0
    result = _shape_ops.range(start, limit=stop, delta=step, name="arange")
    if dtype != "int32":
        result = _tf.cast(result, dtype)
    return result


def tile(x, n):
    """Tiles `x` by `n` (an int or a list of ints, one per axis)."""
    if isinstance(n, int):
        n = [n]
    return _tf.tile(x, n)


def reverse(x, axes):
    """Reverses `x` along `axes` (an int or a list of ints)."""
    if isinstance(axes, int):
        axes = [axes]
    return _permute_ops.reverse(x, axes)


def repeat_elements(x, rep, axis):
    """Repeats each element of `x` `rep` times along `axis`, as `np.repeat`.

    Args:
      x: A tensor.
      rep: An int.
      axis: The axis.

    Returns:
      A tensor whose `axis` is `rep` times longer.
    """
    x_shape = x.shape.as_list()
    rank = len(x_shape)
    axis = axis % rank
    auxiliary_axis = axis + 1
    reps = _np.ones(rank + 1, "int32")
    reps[auxiliary_axis] = rep
    x_rep = _tf.tile(_tf.expand_dims(x, auxiliary_axis), reps.tolist())
    merged = _np.ones(rank, "int32")
    merged[axis] = rep
    x_rep = _tf.reshape(x_rep, _tf.shape(x) * _tf.constant(merged))
    if x_shape[axis] is not None:
        x_shape[axis] *= rep
    x_rep.set_shape(x_shape)
    return x_rep


def temporal_padding(x, padding=(1, 1)):
    """Pads the middle axis of a 3-D tensor with zeros.

    Args:
      x: A tensor `(batch, steps, features)`.
      padding: A pair: the number of zeros before and after.

    Returns:
      The padded tensor.

    Raises:
      ValueError: If `padding` is not a pair.
    """
    if len(padding) != 2:
        raise ValueError("`padding` should be a pair of ints; got %r" % (padding,))
    return _permute_ops.pad(x, [[0, 0], [padding[0], padding[1]], [0, 0]])


def _pairs(padding, n):
    if len(padding) != n or _builtins.any(len(p) != 2 for p in padding):
        raise ValueError("`padding` should be %d pairs of ints; got %r" % (n, padding))
    return [list(p) for p in padding]


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    """Pads the rows and columns of a 4-D tensor with zeros.

    Args:
      x: A 4-D tensor.
      padding: Two pairs: `((top, bottom), (left, right))`.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Returns:
      The padded tensor.

    Raises:
      ValueError: For an unknown data format or a malformed `padding`.
    """
    pairs = _pairs(padding, 2)
    if _check_data_format(data_format) == "channels_first":
        pattern = [[0, 0], [0, 0]] + pairs
    else:
        pattern = [[0, 0]] + pairs + [[0, 0]]
    return _permute_ops.pad(x, pattern)


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    """Pads the depth, rows and columns of a 5-D tensor with zeros.

    Args:
      x: A 5-D tensor.
      padding: Three pairs.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Returns:
      The padded tensor.

    Raises:
      ValueError: For an unknown data format or a malformed `padding`.
    """
    pairs = _pairs(padding, 3)
    if _check_data_format(data_format) == "channels_first":
        pattern = [[0, 0], [0, 0]] + pairs
    else:
        pattern = [[0, 0]] + pairs + [[0, 0]]
    return _permute_ops.pad(x, pattern)


def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """Resizes the images of a 4-D tensor by integer factors (TF's `resize_images_v2`: half-pixel centers).

    Args:
      x: A 4-D tensor.
      height_factor, width_factor: Positive ints.
      data_format: 'channels_last' or 'channels_first'.
      interpolation: 'nearest' or 'bilinear'.

    Returns:
      The resized tensor.

    Raises:
      ValueError: For an unknown data format or interpolation.
    """
    if data_format == "channels_first":
        rows, cols = 2, 3
    elif data_format == "channels_last":
        rows, cols = 1, 2
    else:
        raise ValueError("Invalid `data_format` argument: %s" % (data_format,))
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError('interpolation should be one of "nearest" or "bilinear".')
    original_shape = int_shape(x)
    new_shape = _tf.shape(x)[rows:cols + 1] * _tf.constant(_np.array([height_factor, width_factor], "int32"))
    if data_format == "channels_first":
        x = permute_dimensions(x, [0, 2, 3, 1])
    if interpolation == "nearest":
        x = _resize_ops.resize_nearest_neighbor(x, new_shape, half_pixel_centers=True)
    else:
        x = _resize_ops.resize_bilinear(x, new_shape, half_pixel_centers=True)
    if data_format == "channels_first":
        x = permute_dimensions(x, [0, 3, 1, 2])
    new_height = None if original_shape[rows] is None else original_shape[rows] * height_factor
    new_width = None if original_shape[cols] is None else original_shape[cols] * width_factor
    if data_format == "channels_first":
        x.set_shape((None, None, new_height, new_width))
    else:
        x.set_shape((None, new_height, new_width, None))
    return x


def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """Resizes the volumes of a 5-D tensor by repeating elements along its three spatial axes.

    Args:
      x: A 5-D tensor.
      depth_factor, height_factor, width_factor: Positive ints.
      data_format: 'channels_last' or 'channels_first'.

    Returns:
      The resized tensor.

    Raises:
      ValueError: For an unknown data format.
    """
    if data_format == "channels_first":
        axes = (2, 3, 4)
    elif data_format == "channels_last":
        axes = (1, 2, 3)
    else:
        raise ValueError("Invalid data_format: " + str(data_format))
    for axis, factor in zip(axes, (depth_factor, height_factor, width_factor)):
        x = repeat_elements(x, factor, axis=axis)
    return x


# ---- convolutions and pooling ---------------------------------------------------------------
def _padding(padding):
    if padding == "same":
        return "SAME"
    if padding == "valid":
        return "VALID"
    raise ValueError("Invalid padding: " + str(padding))


def _to_channels_last(x, data_format, rank):
    # Without an NCHW kernel on the CPU, Keras transposes channels-first inputs to channels last.
    if data_format == "channels_first":
        return _tf.transpose(x, [0] + list(range(2, rank)) + [1])
    return x


def _from_channels_last(x, data_format, rank):
    if data_format == "channels_first":
        return _tf.transpose(x, [0, rank - 1] + list(range(1, rank - 1)))
    return x


def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1-D convolution.

    Args:
      x: A 3-D tensor.
      kernel: A kernel `(width, in_channels, out_channels)`.
      strides: An int.
      padding: 'same', 'valid' or 'causal' (left padding of `dilation_rate * (width - 1)` zeros).
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      dilation_rate: An int.

    Returns:
      The result of the convolution.

    Raises:
      ValueError: For an unknown data format or padding.
    """
    data_format = _check_data_format(data_format)
    kernel_shape = kernel.shape.as_list()
    if padding == "causal":
        x = temporal_padding(x, (dilation_rate * (kernel_shape[0] - 1), 0))
        padding = "valid"
    padding = _padding(padding)
    x = _to_channels_last(x, data_format, 3)
    x = _tf.nn.convolution(x, kernel, dilation_rate=(dilation_rate,) if isinstance(dilation_rate, int)
                           else dilation_rate, strides=(strides,) if isinstance(strides, int) else strides,
                           padding=padding, data_format="NWC")
    return _from_channels_last(x, data_format, 3)


def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    """2-D convolution.

    Args:
      x: A 4-D tensor.
      kernel: A kernel `(rows, cols, in_channels, out_channels)`.
      strides: A pair of ints.
      padding: 'same' or 'valid'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      dilation_rate: A pair of ints.

    Returns:
      The result of the convolution.

    Raises:
      ValueError: For an unknown data format or padding.
    """
    data_format = _check_data_format(data_format)
    x = _to_channels_last(x, data_format, 4)
    x = _tf.nn.convolution(x, kernel, dilation_rate=dilation_rate, strides=strides, padding=_padding(padding),
                           data_format="NHWC")
    return _from_channels_last(x, data_format, 4)


def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """2-D transposed convolution (the gradient of `conv2d` with respect to its input).

    Args:
      x: A 4-D tensor.
      kernel: A kernel `(rows, cols, out_channels, in_channels)`.
      output_shape: The output shape (a tuple in `data_format`; a None batch size is taken from `x`).
      strides: A pair of ints.
      padding: 'same' or 'valid'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      dilation_rate: A pair of equal ints (dilation needs unit strides).

    Returns:
      The result of the transposed convolution.

    Raises:
      ValueError: For an unknown data format or padding, or unequal dilation rates.
    """
    data_format = _check_data_format(data_format)
    x = _to_channels_last(x, data_format, 4)
    if data_format == "channels_first":
        output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
    if output_shape[0] is None:
        output_shape = (_tf.shape(x)[0],) + tuple(output_shape[1:])
    if isinstance(output_shape, (tuple, list)):
        output_shape = _tf.stack([_tf.cast(d, "int32") if _tf.is_tensor(d) else _tf.constant(d, "int32")
                                  for d in output_shape])
    padding = _padding(padding)
    if tuple(dilation_rate) == (1, 1):
        x = _tf.nn.conv2d_transpose(x, kernel, output_shape, (1,) + tuple(strides) + (1,), padding=padding,
                                    data_format="NHWC")
    else:
        if dilation_rate[0] != dilation_rate[1]:
            raise ValueError("conv2d_transpose supports only equal dilation rates; got %s" % (dilation_rate,))
        x = _tf.nn.atrous_conv2d_transpose(x, kernel, output_shape, rate=dilation_rate[0], padding=padding)
    return _from_channels_last(x, data_format, 4)


def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """2-D separable convolution: a depthwise convolution followed by a 1x1 convolution.

    Args:
      x: A 4-D tensor.
      depthwise_kernel: `(rows, cols, in_channels, depth_multiplier)`.
      pointwise_kernel: `(1, 1, in_channels * depth_multiplier, out_channels)`.
      strides: A pair of ints.
      padding: 'same' or 'valid'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      dilation_rate: A pair of ints.

    Returns:
      The result of the convolution.

    Raises:
      ValueError: For an unknown data format or padding, or `strides` not a pair.
    """
    data_format = _check_data_format(data_format)
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    x = _to_channels_last(x, data_format, 4)
    x = _tf.nn.separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1,) + tuple(strides) + (1,),
                                padding=_padding(padding), rate=dilation_rate, data_format="NHWC")
    return _from_channels_last(x, data_format, 4)


def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    """2-D depthwise convolution: each input channel convolved with its own filters.

    Args:
      x: A 4-D tensor.
      depthwise_kernel: `(rows, cols, in_channels, depth_multiplier)`.
      strides: A pair of ints.
      padding: 'same' or 'valid'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      dilation_rate: A pair of ints.

    Returns:
      The result of the convolution (`in_channels * depth_multiplier` channels).

    Raises:
      ValueError: For an unknown data format or padding.
    """
    data_format = _check_data_format(data_format)
    x = _to_channels_last(x, data_format, 4)
    x = _tf.nn.depthwise_conv2d(x, depthwise_kernel, strides=(1,) + tuple(strides) + (1,),
                                padding=_padding(padding), rate=dilation_rate, data_format="NHWC")
    return _from_channels_last(x, data_format, 4)


def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None, dilation_rate=(1, 1, 1)):
    """3-D convolution.

    Args:
      x: A 5-D tensor.
      kernel: A kernel `(depth, rows, cols, in_channels, out_channels)`.
      strides: Three ints.
      padding: 'same' or 'valid'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      dilation_rate: Three ints.

    Returns:
      The result of the convolution.

    Raises:
      ValueError: For an unknown data format or padding.
    """
    data_format = _check_data_format(data_format)
    x = _to_channels_last(x, data_format, 5)
    x = _tf.nn.convolution(x, kernel, dilation_rate=dilation_rate, strides=strides, padding=_padding(padding),
                           data_format="NDHWC")
    return _from_channels_last(x, data_format, 5)


def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    """2-D max or average pooling.

    Args:
      x: A 4-D tensor.
      pool_size: A pair of ints.
      strides: A pair of ints.
      padding: 'same' or 'valid'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      pool_mode: 'max' or 'avg'.

    Returns:
      The pooled tensor.

    Raises:
      ValueError: For an unknown data format, padding or pooling mode, or sizes that are not pairs.
    """
    data_format = _check_data_format(data_format)
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    padding = _padding(padding)
    if pool_mode not in ("max", "avg"):
        raise ValueError("Invalid pooling mode: " + str(pool_mode))
    x = _to_channels_last(x, data_format, 4)
    pool = _tf.nn.max_pool if pool_mode == "max" else _tf.nn.avg_pool
    x = pool(x, (1,) + tuple(pool_size) + (1,), (1,) + tuple(strides) + (1,), padding=padding, data_format="NHWC")
    return _from_channels_last(x, data_format, 4)


def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None, pool_mode="max"):
    """3-D max or average pooling.

    Args:
      x: A 5-D tensor.
      pool_size: Three ints.
      strides: Three ints.
      padding: 'same' or 'valid'.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      pool_mode: 'max' or 'avg'.

    Returns:
      The pooled tensor.

    Raises:
      ValueError: For an unknown data format, padding or pooling mode.
    """
    data_format = _check_data_format(data_format)
    padding = _padding(padding)
    if pool_mode not in ("max", "avg"):
        raise ValueError("Invalid pooling mode: " + str(pool_mode))
    x = _to_channels_last(x, data_format, 5)
    pool = _tf.nn.max_pool3d if pool_mode == "max" else _tf.nn.avg_pool3d
    x = pool(x, (1,) + tuple(pool_size) + (1,), (1,) + tuple(strides) + (1,), padding=padding,
             data_format="NDHWC")
    return _from_channels_last(x, data_format, 5)


def local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
    """Locally-connected (unshared weights) N-D convolution, as Keras 2.

    Args:
      inputs: A tensor `(batch, *spatial, in_channels)` (channels first with 'channels_first').
      kernel: `(prod(output_shape), prod(kernel_size) * in_channels, out_channels)`.
      kernel_size: A tuple of ints: the patch size.
      strides: A tuple of ints.
      output_shape: A tuple of ints: the spatial output shape.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Returns:
      A tensor `(batch, *output_shape, out_channels)` (channels first with 'channels_first').

    Raises:
      ValueError: For an unknown data format.
    """
    import itertools
    data_format = _check_data_format(data_format)
    kernel_shape = int_shape(kernel)
    feature_dim = kernel_shape[1]
    channels_out = kernel_shape[-1]
    ndims = len(output_shape)
    spatial_dimensions = list(range(ndims))
    xs = []
    for position in itertools.product(*[range(axis_max) for axis_max in output_shape]):
        slices = [slice(None)]
        if data_format == "channels_first":
            slices.append(slice(None))
        slices.extend(slice(position[d] * strides[d], position[d] * strides[d] + kernel_size[d])
                      for d in spatial_dimensions)
        if data_format == "channels_last":
            slices.append(slice(None))
        xs.append(reshape(inputs[tuple(slices)], (1, -1, feature_dim)))
    x_aggregate = concatenate(xs, axis=0)
    output = batch_dot(x_aggregate, kernel)
    output = reshape(output, tuple(output_shape) + (-1, channels_out))
    if data_format == "channels_first":
        permutation = [ndims, ndims + 1] + spatial_dimensions
    else:
        permutation = [ndims] + spatial_dimensions + [ndims + 1]
    return permute_dimensions(output, permutation)


def local_conv1d(inputs, kernel, kernel_size, strides, data_format=None):
    """Locally-connected 1-D convolution (see `local_conv`).

    Args:
      inputs: A 3-D tensor.
      kernel: `(output_length, kernel_size[0] * in_channels, out_channels)`.
      kernel_size: A 1-tuple.
      strides: A 1-tuple.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Returns:
      A 3-D tensor.
    """
    return local_conv(inputs, kernel, kernel_size, strides, (int_shape(kernel)[0],), data_format)


def local_conv2d(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
    """Locally-connected 2-D convolution (see `local_conv`).

    Args:
      inputs: A 4-D tensor.
      kernel: `(rows_out * cols_out, kernel_rows * kernel_cols * in_channels, out_channels)`.
      kernel_size: A pair of ints.
      strides: A pair of ints.
      output_shape: A pair `(rows_out, cols_out)`.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).

    Returns:
      A 4-D tensor.
    """
    return local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format)


# ---- normalization ---------------------------------------------------------------------------
def normalize_batch_in_training(x, gamma, beta, reduction_axes, epsilon=1e-3):
    """Normalizes `x` by its batch mean and variance over `reduction_axes`, as Keras 2 (TF 1.15).

    4-D inputs reduced over (0, 1, 2) use `fused_batch_norm`, whose returned variance is the unbiased
    (Bessel-corrected) one; other cases return the biased variance of `nn.moments`.

    Args:
      x: A tensor.
      gamma, beta: Scale and offset (or None) shaped like the non-reduced axes.
      reduction_axes: The axes to normalize over.
      epsilon: The variance epsilon.

    Returns:
      `(normalized, mean, variance)`.
    """
    reduction_axes = list(reduction_axes)
    rank = ndim(x)
    if rank == 4 and reduction_axes == [0, 1, 2]:
        dt = x.dtype.base_dtype
        channels = int_shape(x)[3]
        if gamma is None:
            gamma = _tf.constant(1.0, dtype=dt, shape=[channels])
        if beta is None:
            beta = _tf.constant(0.0, dtype=dt, shape=[channels])
        return _tf.nn.fused_batch_norm(x, gamma, beta, epsilon=epsilon, data_format="NHWC")
    mean, variance = _tf.nn.moments(x, reduction_axes, None, None, False)
    if sorted(reduction_axes) == list(range(rank))[:-1]:
        return _tf.nn.batch_normalization(x, mean, variance, beta, gamma, epsilon), mean, variance
    target_shape = _tf.stack([1 if axis in reduction_axes else _tf.shape(x)[axis] for axis in range(rank)])

    def broadcast(t):
        return None if t is None else _tf.reshape(t, target_shape)

    normed = _tf.nn.batch_normalization(x, broadcast(mean), broadcast(variance), broadcast(beta), broadcast(gamma),
                                        epsilon)
    return normed, mean, variance


def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    """Applies batch normalization with given statistics: `(x - mean) / sqrt(var + epsilon) * gamma + beta`.

    Args:
      x: A tensor.
      mean, var: The statistics (broadcastable to `x`).
      beta, gamma: Offset and scale (or None).
      axis: The channel axis (4-D inputs with the last axis use `fused_batch_norm`, as TF 1.15).
      epsilon: The variance epsilon.

    Returns:
      The normalized tensor.
    """
    if ndim(x) == 4 and axis in (3, -1):
        def flat(t):
            return _tf.reshape(t, [-1]) if ndim(t) > 1 else t

        mean, var = flat(mean), flat(var)
        beta = _tf.zeros_like(mean) if beta is None else flat(beta)
        gamma = _tf.ones_like(mean) if gamma is None else flat(gamma)
        y, _, _ = _tf.nn.fused_batch_norm(x, gamma, beta, epsilon=epsilon, mean=mean, variance=var,
                                          data_format="NHWC", is_training=False)
        return y
    return _tf.nn.batch_normalization(x, mean, var, beta, gamma, epsilon)


def moving_average_update(x, value, momentum):
    """Op updating the moving average `x` towards `value` with zero debiasing (TF 1.x Keras).

    Args:
      x: The average (a variable).
      value: The new value.
      momentum: The decay.

    Returns:
      The update op (its value is the debiased average).
    """
    return _moving_averages.assign_moving_average(x, value, momentum, zero_debias=True)


# ---- higher-order functions -------------------------------------------------------------------
def map_fn(fn, elems, name=None, dtype=None):
    """Maps `fn` over the first axis of `elems` (`tf.map_fn`).

    Args:
      fn: A callable.
      elems: A tensor.
      name: Optional name.
      dtype: The output dtype (default: that of `elems`).

    Returns:
      The stacked results.
    """
    return _functional_ops.map_fn(fn, elems, name=name, dtype=dtype)


def foldl(fn, elems, initializer=None, name=None):
    """Reduces `elems` along its first axis from the left with `fn(accumulator, element)` (`tf.foldl`).

    Args:
      fn: A callable.
      elems: A tensor.
      initializer: The first accumulator (default: `elems[0]`).
      name: Optional name.

    Returns:
      The final accumulator.
    """
    return _functional_ops.foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn, elems, initializer=None, name=None):
    """Reduces `elems` along its first axis from the right with `fn(accumulator, element)` (`tf.foldr`).

    Args:
      fn: A callable.
      elems: A tensor.
      initializer: The first accumulator (default: `elems[-1]`).
      name: Optional name.

    Returns:
      The final accumulator.
    """
    return _functional_ops.foldr(fn, elems, initializer=initializer, name=name)


# ---- CTC --------------------------------------------------------------------------------------
def ctc_label_dense_to_sparse(labels, label_lengths):
    """Converts dense labels `(batch, max_length)` to a `SparseTensor` keeping the first `label_lengths[i]`
    entries of each row.

    Args:
      labels: A dense int tensor.
      label_lengths: An int tensor `(batch,)`.

    Returns:
      A `SparseTensor` with int64 indices in row-major order.
    """
    labels = _tf.convert_to_tensor(labels)
    label_shape = _tf.shape(labels)
    mask = _select_ops.sequence_mask(label_lengths, maxlen=label_shape[1])
    indices = _select_ops.where(mask)
    values = _gather_ops.gather_nd(labels, indices)
    return _sparse_tensor.SparseTensor(_tf.cast(indices, _tf.int64), values, _tf.cast(label_shape, _tf.int64))


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """Per-sample CTC loss, as Keras 2 (the blank is the last class; `y_pred` holds probabilities).

    Args:
      y_true: Labels `(batch, max_label_length)`.
      y_pred: Softmax outputs `(batch, time, classes)`.
      input_length: `(batch, 1)`: the number of valid time steps of each sample.
      label_length: `(batch, 1)`: the number of labels of each sample.

    Returns:
      The losses `(batch, 1)`.
    """
    label_length = _tf.cast(_tf.squeeze(label_length, axis=-1), "int32")
    input_length = _tf.cast(_tf.squeeze(input_length, axis=-1), "int32")
    sparse = ctc_label_dense_to_sparse(y_true, label_length)
    sparse_labels = _sparse_tensor.SparseTensor(sparse.indices, _tf.cast(sparse.values, "int32"), sparse.dense_shape)
    y_pred = _tf.log(_tf.transpose(y_pred, perm=[1, 0, 2]) + epsilon())
    return _tf.expand_dims(_tf.nn.ctc_loss(labels=sparse_labels, inputs=y_pred, sequence_length=input_length), 1)


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """Decodes softmax outputs with CTC (greedy or beam search), as Keras 2.

    Args:
      y_pred: Softmax outputs `(batch, time, classes)`; the last class is the blank.
      input_length: `(batch,)`: the number of valid time steps of each sample.
      greedy: Whether to use the greedy decoder.
      beam_width: The beam width of the beam search.
      top_paths: The number of paths the beam search returns.

    Returns:
      `(decoded, log_prob)`: a list of dense int64 tensors `(batch, max_decoded_length)` padded with -1
      (one per path), and the log probabilities (`(batch, 1)` for greedy: the negative sum of the
      maximum logits; `(batch, top_paths)` for beam search).
    """
    y_pred = _tf.log(_tf.transpose(y_pred, perm=[1, 0, 2]) + epsilon())
    input_length = _tf.cast(input_length, "int32")
    if greedy:
        decoded, log_prob = _tf.nn.ctc_greedy_decoder(inputs=y_pred, sequence_length=input_length)
    else:
        decoded, log_prob = _tf.nn.ctc_beam_search_decoder(inputs=y_pred, sequence_length=input_length,
                                                           beam_width=beam_width, top_paths=top_paths)
    decoded_dense = [_sparse_ops.sparse_to_dense(st.indices, st.dense_shape, st.values, default_value=-1)
                     for st in decoded]
    return decoded_dense, log_prob
