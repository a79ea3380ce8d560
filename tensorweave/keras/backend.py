"""`tf.keras.backend`: the Keras 2 backend functions over tensorweave graphs and sessions."""

import contextlib

import numpy as np

from . import _tf as tf

_SESSION = [None]
_LEARNING_PHASE = {}
_FLOATX = ["float32"]
_EPSILON = [1e-7]
_IMAGE_DATA_FORMAT = ["channels_last"]
_UID_PREFIXES = {}


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
    graph = tf.get_default_graph()
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
    tf.reset_default_graph()
    _LEARNING_PHASE.clear()
    _UID_PREFIXES.clear()
    base_layer._KERAS_HISTORY.clear()


def get_session():
    """Returns the session Keras uses, creating it (and initializing new variables) if needed.

    Returns:
      The default session if one is active, else Keras' own session on the default graph.
    """
    default = tf.get_default_session()
    if default is not None:
        session = default
    else:
        graph = tf.get_default_graph()
        if _SESSION[0] is None or _SESSION[0].graph is not graph or getattr(_SESSION[0], "_closed", False):
            _SESSION[0] = tf.Session(graph=graph)
        session = _SESSION[0]
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
        variables = tf.global_variables()
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
            flags = session.run([tf.is_variable_initialized(v) for v in fresh])
            todo = [v for v, ok in zip(fresh, flags) if not ok]
            if todo:
                session.run(tf.variables_initializer(todo))
            done.update(id(v) for v in fresh)


def learning_phase():
    """Returns the learning-phase flag: an int32 scalar placeholder defaulting to 0 (test).

    Returns:
      A tensor, or the Python int set with `set_learning_phase`.
    """
    graph = tf.get_default_graph()
    if id(graph) not in _LEARNING_PHASE:
        with graph.as_default(), tf.name_scope(""):
            phase = tf.placeholder_with_default(False, shape=(), name="keras_learning_phase")
        _LEARNING_PHASE[id(graph)] = (graph, phase)
    return _LEARNING_PHASE[id(graph)][1]


def set_learning_phase(value):
    """Fixes the learning phase to 0 (test) or 1 (train).

    Raises:
      ValueError: If `value` is not 0 or 1.
    """
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    graph = tf.get_default_graph()
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
    v = tf.Variable(np.asarray(value, dtype=tf.as_dtype(dtype).as_numpy_dtype), dtype=dtype, name=name,
                    constraint=constraint)
    return v


def constant(value, dtype=None, shape=None, name=None):
    """Creates a constant tensor (dtype default floatx())."""
    return tf.constant(value, dtype=dtype or floatx(), shape=shape, name=name)


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
    return tf.placeholder(dtype or floatx(), shape=shape, name=name)


def is_placeholder(x):
    """Whether `x` is a placeholder tensor."""
    return tf.is_tensor(x) and getattr(x, "op", None) is not None and x.op.type == "Placeholder"


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
        x.load(np.asarray(value, dtype=x.dtype.base_dtype.as_numpy_dtype), session)


def eval(x):  # noqa: A001 (Keras' name)
    """Evaluates `x` and returns a NumPy array."""
    return get_session().run(x)


def int_shape(x):
    """Returns the static shape of `x` as a tuple of ints / None, or None if the rank is unknown."""
    shape = x.shape if hasattr(x, "shape") else x.get_shape()
    shape = tf.TensorShape(shape)
    if shape.ndims is None:
        return None
    return tuple(shape.as_list())


def shape(x):
    """Returns the dynamic shape of `x` as an int32 tensor."""
    return tf.shape(x)


def ndim(x):
    """Returns the rank of `x` as a Python int (or None)."""
    return tf.TensorShape(x.shape).ndims


def dtype(x):
    """Returns the dtype of `x` as a string."""
    return x.dtype.base_dtype.name


def count_params(x):
    """Returns the number of scalars in variable `x`."""
    return int(np.prod(int_shape(x)))


def cast(x, dtype):
    """Casts `x` to `dtype`."""
    return tf.cast(x, dtype)


def zeros(shape, dtype=None, name=None):
    """Returns a variable of zeros."""
    return variable(np.zeros(shape), dtype=dtype, name=name)


def ones(shape, dtype=None, name=None):
    """Returns a variable of ones."""
    return variable(np.ones(shape), dtype=dtype, name=name)


def zeros_like(x, dtype=None, name=None):
    """Returns a tensor of zeros shaped like `x`."""
    return tf.zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):
    """Returns a tensor of ones shaped like `x`."""
    return tf.ones_like(x, dtype=dtype, name=name)


@contextlib.contextmanager
def name_scope(name):
    """A name scope context manager (as `tf.name_scope`)."""
    with tf.name_scope(name) as scope:
        yield scope


# ---- math ---------------------------------------------------------------------------------
def mean(x, axis=None, keepdims=False):
    """Mean of `x` over `axis`."""
    if x.dtype.base_dtype == tf.bool:
        x = tf.cast(x, floatx())
    return tf.reduce_mean(x, axis=axis, keepdims=keepdims)


def sum(x, axis=None, keepdims=False):  # noqa: A001
    """Sum of `x` over `axis`."""
    return tf.reduce_sum(x, axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    """Maximum of `x` over `axis`."""
    return tf.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    """Minimum of `x` over `axis`."""
    return tf.reduce_min(x, axis=axis, keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    """Product of `x` over `axis`."""
    return tf.reduce_prod(x, axis=axis, keepdims=keepdims)


def argmax(x, axis=-1):
    """Index of the maximum along `axis`."""
    return tf.argmax(x, axis)


def argmin(x, axis=-1):
    """Index of the minimum along `axis`."""
    return tf.argmin(x, axis)


def square(x):
    """Elementwise square."""
    return tf.square(x)


def sqrt(x):
    """Elementwise square root (negative inputs clipped to 0, as Keras does)."""
    zero = tf.constant(0.0, dtype=x.dtype.base_dtype)
    return tf.sqrt(tf.clip_by_value(x, zero, tf.constant(np.inf, dtype=x.dtype.base_dtype)))


def abs(x):  # noqa: A001
    """Elementwise absolute value."""
    return tf.abs(x)


def exp(x):
    """Elementwise exponential."""
    return tf.exp(x)


def log(x):
    """Elementwise natural logarithm."""
    return tf.log(x)


def pow(x, a):  # noqa: A001
    """Elementwise power."""
    return tf.pow(x, a)


def maximum(x, y):
    """Elementwise maximum."""
    return tf.maximum(x, y)


def minimum(x, y):
    """Elementwise minimum."""
    return tf.minimum(x, y)


def equal(x, y):
    """Elementwise equality."""
    return tf.equal(x, y)


def clip(x, min_value, max_value):
    """Clips `x` elementwise to `[min_value, max_value]`."""
    if max_value is not None and min_value is not None and max_value < min_value:
        max_value = min_value
    if max_value is None:
        max_value = np.inf
    if min_value is None:
        min_value = -np.inf
    dt = x.dtype.base_dtype
    return tf.clip_by_value(x, tf.constant(min_value, dtype=dt), tf.constant(max_value, dtype=dt))


def dot(x, y):
    """Matrix product of `x` and `y`, contracting the last axis of `x` with the second-to-last of `y`."""
    nx, ny = ndim(x), ndim(y)
    if nx is not None and ny is not None and (nx > 2 or ny > 2):
        return tf.tensordot(x, y, axes=[[nx - 1], [ny - 2 if ny >= 2 else 0]])
    return tf.matmul(x, y)


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
            return tf.reduce_sum(x * y, axis=1, keepdims=True)
        return tf.reduce_sum(tf.transpose(x) * tf.transpose(y), axis=1, keepdims=True)
    ax = axes[0] if axes[0] >= 0 else axes[0] + nx
    ay = axes[1] if axes[1] >= 0 else axes[1] + ny
    if nx == 3 and ny == 2:
        return tf.squeeze(tf.matmul(x, tf.expand_dims(y, -1), adjoint_a=(ax != nx - 1)), [-1])
    if nx == 2 and ny == 3:
        return tf.squeeze(tf.matmul(tf.expand_dims(x, 1), y, adjoint_b=(ay == ny - 1)), [1])
    if nx != 3 or ny != 3:
        raise ValueError("batch_dot supports inputs of rank 2 or 3; got ranks %s and %s." % (nx, ny))
    return tf.matmul(x, y, adjoint_a=(ax != nx - 1), adjoint_b=(ay == ny - 1))


def concatenate(tensors, axis=-1):
    """Concatenates `tensors` along `axis`."""
    return tf.concat(list(tensors), axis)


def reshape(x, shape):
    """Reshapes `x`."""
    return tf.reshape(x, shape)


def transpose(x):
    """Transposes `x`."""
    return tf.transpose(x)


def permute_dimensions(x, pattern):
    """Permutes the axes of `x` by `pattern`."""
    return tf.transpose(x, perm=list(pattern))


def expand_dims(x, axis=-1):
    """Inserts an axis of size 1 at `axis`."""
    return tf.expand_dims(x, axis)


def squeeze(x, axis):
    """Removes the size-1 axis `axis`."""
    return tf.squeeze(x, [axis])


def stack(x, axis=0):
    """Stacks a list of tensors along a new axis."""
    return tf.stack(list(x), axis=axis)


def gather(reference, indices):
    """Gathers rows of `reference` at `indices`."""
    return tf.gather(reference, indices)


def flatten(x):
    """Flattens `x` to rank 1."""
    return tf.reshape(x, [-1])


def batch_flatten(x):
    """Flattens all but the first axis of `x`."""
    return tf.reshape(x, tf.stack([-1, tf.reduce_prod(tf.shape(x)[1:])]))


def repeat(x, n):
    """Repeats a 2-D tensor `(batch, dim)` to `(batch, n, dim)`."""
    x = tf.expand_dims(x, 1)
    return tf.tile(x, tf.stack([1, n, 1]))


def relu(x, alpha=0.0, max_value=None, threshold=0):
    """Rectified linear unit with optional leak `alpha`, cap `max_value` and `threshold`."""
    dt = x.dtype.base_dtype
    if alpha != 0.0:
        if threshold != 0:
            negative = tf.nn.relu(-x + tf.constant(threshold, dt))
        else:
            negative = tf.nn.relu(-x)
    if threshold != 0:
        x = x * tf.cast(tf.greater(x, tf.constant(threshold, dt)), dt)
    elif max_value == 6:
        x = tf.nn.relu6(x)
        max_value = None
    else:
        x = tf.nn.relu(x)
    if max_value is not None:
        x = tf.clip_by_value(x, tf.constant(0, dt), tf.constant(max_value, dt))
    if alpha != 0.0:
        x = x - tf.constant(alpha, dt) * negative
    return x


def sigmoid(x):
    """Elementwise logistic sigmoid."""
    return tf.sigmoid(x)


def hard_sigmoid(x):
    """Piecewise-linear sigmoid: clip(0.2 * x + 0.5, 0, 1)."""
    dt = x.dtype.base_dtype
    return tf.clip_by_value(x * tf.constant(0.2, dt) + tf.constant(0.5, dt), tf.constant(0.0, dt),
                            tf.constant(1.0, dt))


def tanh(x):
    """Elementwise hyperbolic tangent."""
    return tf.tanh(x)


def softmax(x, axis=-1):
    """Softmax over `axis`."""
    return tf.nn.softmax(x, axis=axis)


def softplus(x):
    """Elementwise softplus."""
    return tf.nn.softplus(x)


def elu(x, alpha=1.0):
    """Exponential linear unit."""
    res = tf.nn.elu(x)
    return res if alpha == 1 else tf.where(x > 0, res, alpha * res)


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
            output = output / tf.reduce_sum(output, axis, True)
            eps = tf.constant(epsilon(), output.dtype.base_dtype)
            output = tf.clip_by_value(output, eps, 1.0 - eps)
            return -tf.reduce_sum(target * tf.log(output), axis)
        output = output.op.inputs[0]
    return tf.nn.softmax_cross_entropy_with_logits_v2(labels=target, logits=output, axis=axis)


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
            eps = tf.constant(epsilon(), output.dtype.base_dtype)
            output = tf.log(tf.clip_by_value(output, eps, 1 - eps))
    target = tf.cast(target, tf.int64)
    out_shape = tf.shape(output)
    logits = tf.reshape(output, tf.stack([-1, out_shape[-1]]))
    res = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.reshape(target, [-1]), logits=logits)
    if ndim is not None and ndim >= 3:
        return tf.reshape(res, out_shape[:-1])
    return res


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary crossentropy (TF 1.15's formula: probabilities clipped to [eps, 1 - eps] with
    eps added inside the logs; the output of a `Sigmoid` op is replaced by its logits)."""
    if not from_logits:
        if output.op is None or output.op.type != "Sigmoid":
            e = epsilon()
            eps = tf.constant(e, output.dtype.base_dtype)
            output = tf.clip_by_value(output, eps, 1.0 - eps)
            return -(target * tf.log(output + e) + (1 - target) * tf.log(1 - output + e))
        output = output.op.inputs[0]
    return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)


# ---- control ------------------------------------------------------------------------------
def switch(condition, then_expression, else_expression):
    """Selects between two expressions (tensors or callables) on a scalar boolean `condition`."""
    if condition.dtype != tf.bool:
        condition = tf.cast(condition, "bool")
    then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
    else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
    return tf.cond(condition, then_fn, else_fn)


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
        return [tf.stop_gradient(v) for v in variables]
    return tf.stop_gradient(variables)


def gradients(loss, variables):
    """Gradients of `loss` with respect to `variables`."""
    return tf.gradients(loss, variables)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Tensor of uniform random values."""
    return tf.random_uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(), seed=seed)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Tensor of normal random values."""
    return tf.random_normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=seed)


def dropout(x, level, noise_shape=None, seed=None):
    """Drops entries of `x` with probability `level`, scaling the rest by 1 / (1 - level)."""
    return tf.nn.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def bias_add(x, bias, data_format=None):
    """Adds `bias` to `x` along its last axis."""
    return tf.nn.bias_add(x, bias)


def update(x, new_x):
    """Op assigning `new_x` to `x`."""
    return tf.assign(x, new_x)


def update_add(x, increment):
    """Op adding `increment` to `x`."""
    return tf.assign_add(x, increment)


def update_sub(x, decrement):
    """Op subtracting `decrement` from `x`."""
    return tf.assign_sub(x, decrement)


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
                ops_.append(tf.assign(u[0], u[1]))
            else:
                ops_.append(u)
        with tf.control_dependencies(self.outputs):
            self.updates_op = tf.group(*ops_) if ops_ else None
        self.name = name

    def __call__(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise TypeError("`inputs` should be a list or tuple.")
        feed = dict(self.feed_dict)
        for tensor, value in zip(self.inputs, inputs):
            if isinstance(tensor, int):
                continue
            if not isinstance(value, np.ndarray) or value.dtype != tensor.dtype.base_dtype.as_numpy_dtype:
                value = np.asarray(value, dtype=tensor.dtype.base_dtype.as_numpy_dtype)
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
    return tf.transpose(x, [1, 0] + list(range(2, rank)))


def _broadcastable_mask(mask_t, like):
    """`mask_t` (batch, 1) with trailing axes added up to the rank of `like`, for `where_v2`."""
    for _ in range(like.shape.ndims - mask_t.shape.ndims):
        mask_t = tf.expand_dims(mask_t, -1)
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
    inputs = tf.convert_to_tensor(inputs)
    rank = inputs.shape.ndims
    if rank is None or rank < 3:
        raise ValueError("Input should be at least 3D.")
    if not time_major:
        inputs = _time_first(inputs)
    time_steps = tf.TensorShape(inputs.shape)[0]
    time_steps = time_steps.value if hasattr(time_steps, "value") else time_steps
    if unroll and not time_steps:
        raise ValueError("Unrolling requires a fixed number of timesteps.")
    if mask is not None:
        if mask.dtype.base_dtype != tf.bool:
            mask = tf.cast(mask, tf.bool)
        if mask.shape.ndims == 2:
            mask = tf.expand_dims(mask, -1)
        if not time_major:
            mask = _time_first(mask)
    constants = tuple(constants or [])
    states = tuple(initial_states)
    if go_backwards:
        inputs = reverse(inputs, [0])
        if mask is not None:
            mask = reverse(mask, [0])
    time_steps_t = tf.shape(inputs)[0]
    input_ta = TensorArray(inputs.dtype, size=time_steps_t, tensor_array_name="input_ta",
                           element_shape=inputs.shape[1:]).unstack(inputs)
    output_time_zero, _ = step_function(inputs[0], states + constants)
    output_ta = TensorArray(output_time_zero.dtype, size=time_steps_t, tensor_array_name="output_ta",
                            element_shape=output_time_zero.shape)
    time = tf.constant(0, dtype="int32", name="time")

    def run_step(time, states):
        current = input_ta.read(time)
        current.set_shape(inputs.shape[1:])
        output, new_states = step_function(current, tuple(states) + constants)
        new_states = list(new_states) if isinstance(new_states, (list, tuple)) else [new_states]
        for state, new_state in zip(states, new_states):
            new_state.set_shape(state.shape)
        return output, new_states

    if mask is not None:
        mask_ta = TensorArray(tf.bool, size=time_steps_t, tensor_array_name="mask_ta").unstack(mask)
        zero_output = tf.zeros_like(output_time_zero)

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
    outputs.set_shape(tf.TensorShape([time_steps]).concatenate(output_time_zero.shape))
    last_output = outputs[-1]
    if not time_major:
        outputs = _time_first(outputs)
    return last_output, outputs, new_states
