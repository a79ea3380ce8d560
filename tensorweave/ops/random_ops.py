"""Random ops (normal, uniform, truncated normal, shuffle, multinomial) and TF1's graph/op seed rules.

Every random kernel is stateful: each op draws from its own `np.random.Generator`, kept in the
session state and seeded from the op's (seed, seed2) attributes, so successive runs give new
numbers, the same seeded program gives the same numbers in a new Session, and Sessions are
independent. Seeds (0, 0) mean "nondeterministic", as in TF.
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape, dimension_value

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


# ---- seeds -----------------------------------------------------------------------------------
def _truncate_seed(seed):
    return seed % _MAXINT32


def get_seed(op_seed):
    """Returns the (graph seed, op seed) pair a random op should use, as TF1's `get_seed`.

    - graph seed set, `op_seed` None: the op seed is derived from the graph's op count, so
      every op gets a distinct but reproducible stream;
    - `op_seed` set, no graph seed: the graph seed is `DEFAULT_GRAPH_SEED`;
    - neither set: (None, None), i.e. nondeterministic.

    Args:
      op_seed: An integer or None.

    Returns:
      A tuple `(seed, seed2)` of integers or Nones.
    """
    graph = ops.get_default_graph()
    global_seed = graph.seed
    if global_seed is not None:
        if op_seed is None:
            op_seed = graph._last_id()
        seeds = _truncate_seed(global_seed), _truncate_seed(op_seed)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    else:
        seeds = None, None
    # (0, 0) means nondeterministic to the kernels; the Python API promises that only for (None, None).
    if seeds == (0, 0):
        return 0, _MAXINT32
    return seeds


def set_random_seed(seed):
    """Sets the graph-level random seed of the default graph, as `tf.set_random_seed`.

    Random ops then derive their op seed from it (see `get_seed`): the same program gives the
    same random sequences in every new Session.

    Args:
      seed: An integer.
    """
    ops.get_default_graph().seed = seed


def _seed_attrs(seed):
    seed1, seed2 = get_seed(seed)
    return {"seed": seed1 or 0, "seed2": seed2 or 0}


def _generator(ctx, op, seed, seed2):
    """The op's random stream in this session, created on first use."""
    rng = ctx.op_state.get(op)
    if rng is None:
        with ctx.lock:  # two threads' first runs must share one stream
            rng = ctx.op_state.get(op)
            if rng is None:
                rng = ctx.op_state[op] = np.random.default_rng(None if seed == 0 and seed2 == 0 else [seed, seed2])
    return rng


# ---- shapes ----------------------------------------------------------------------------------
def _shape_tensor(shape):
    """Converts a shape (list/tuple of ints, Dimensions or scalar tensors, TensorShape, or a 1-D
    integer tensor) to a 1-D integer tensor, as TF's `tensor_util.shape_tensor`."""
    if isinstance(shape, TensorShape):
        if not shape.is_fully_defined():
            raise ValueError("Cannot convert a partially known TensorShape to a Tensor: %s" % shape)
        shape = shape.as_list()
    if isinstance(shape, (list, tuple)):
        if not shape:
            return ops.convert_to_tensor(np.zeros([0], np.int32), name="shape")
        shape = [dimension_value(d) for d in shape]
        if any(ops.is_tensor(d) for d in shape):
            from . import array_ops
            return array_ops.stack(shape, name="shape")
        return ops.convert_to_tensor(shape, name="shape")
    return ops.convert_to_tensor(shape, name="shape")


def _constant_scalar(t):
    if t.op.type == "Const":
        v = t.op.get_attr("value")
        if v.ndim == 0:
            return int(v)
    return None


def _static_shape(t):
    """The static shape denoted by the 1-D shape tensor `t` (a tuple with None for unknown entries,
    or None for an unknown rank).

    Raises:
      TypeError: If `t` is not an integer tensor.
      ValueError: If `t` is not 1-D, or holds a negative size.
    """
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'shape' has DataType %s not in list of allowed values: "
                        "int32, int64" % t.dtype.name)
    rank = t.shape.ndims
    if rank is not None and rank != 1:
        raise ValueError("Shape must be rank 1 but is rank %d" % rank)
    op = t.op
    dims = None
    if op.type == "Const":
        dims = tuple(int(d) for d in op.get_attr("value"))
    elif op.type == "Pack" and all(i.shape.ndims == 0 for i in op.inputs):
        dims = tuple(_constant_scalar(i) for i in op.inputs)
    elif op.type == "Shape":
        dims = op.inputs[0].shape.as_tuple()
    if dims is None:
        n = t.shape.as_tuple()
        return None if n is None or n[0] is None else (None,) * n[0]
    if any(d is not None and d < 0 for d in dims):
        raise ValueError("Dimension %d must be >= 0" % min(d for d in dims if d is not None))
    return dims


def _check_scalar(t, what):
    if t.shape.ndims is not None and t.shape.ndims != 0:
        raise ValueError("Shape must be rank 0 but is rank %d for %s" % (t.shape.ndims, what))


def _random_infer(op):
    return [(op._attrs["dtype"], _static_shape(op._inputs[0]))]


def _size(shape):
    return tuple(int(d) for d in shape)


_FLOAT_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


def _check_float(dtype, op_name):
    if dtype not in _FLOAT_DTYPES:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: "
                        "float16, float32, float64 (op %s)" % (dtype.name, op_name))


# ---- RandomStandardNormal --------------------------------------------------------------------
def _standard_normal(rng, size, np_dtype):
    if np_dtype == np.float16:
        return rng.standard_normal(size, dtype=np.float32).astype(np.float16)
    return rng.standard_normal(size, dtype=np_dtype)


def _random_standard_normal_kernel(ctx, op, shape, dtype, seed, seed2):
    return _standard_normal(_generator(ctx, op, seed, seed2), _size(shape), dtype.as_numpy_dtype)


register_op("RandomStandardNormal", infer=_random_infer, kernel=_random_standard_normal_kernel, grad=NO_GRADIENT,
            stateful=True)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Outputs random values from a normal distribution.

    Args:
      shape: A 1-D integer Tensor or Python array. The shape of the output tensor.
      mean: A 0-D Tensor or Python value of type `dtype`. The mean of the normal distribution.
      stddev: A 0-D Tensor or Python value of type `dtype`. The standard deviation.
      dtype: The type of the output (a floating type).
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: A name for the operation (optional).

    Returns:
      A tensor of the specified shape filled with random normal values.
    """
    from . import math_ops
    dtype = dtypes.as_dtype(dtype)
    _check_float(dtype, "RandomStandardNormal")
    with ops.name_scope(name, "random_normal", [shape, mean, stddev]) as name:
        shape_tensor = _shape_tensor(shape)
        mean_tensor = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_tensor = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
        attrs = {"dtype": dtype}
        attrs.update(_seed_attrs(seed))
        rnd = ops.apply_op("RandomStandardNormal", [shape_tensor], attrs)
        mul = math_ops.multiply(rnd, stddev_tensor)
        return math_ops.add(mul, mean_tensor, name=name)


# ---- TruncatedNormal -------------------------------------------------------------------------
def _truncated_normal_kernel(ctx, op, shape, dtype, seed, seed2):
    rng = _generator(ctx, op, seed, seed2)
    np_dtype = dtype.as_numpy_dtype
    out = _standard_normal(rng, _size(shape), np_dtype)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = _standard_normal(rng, int(bad.sum()), np_dtype)
        bad = np.abs(out) > 2
    return out


register_op("TruncatedNormal", infer=_random_infer, kernel=_truncated_normal_kernel, grad=NO_GRADIENT,
            stateful=True)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Outputs random values from a truncated normal distribution.

    Values are drawn from a normal distribution with the given mean and standard deviation;
    values more than two standard deviations from the mean are dropped and re-drawn.

    Args:
      shape: A 1-D integer Tensor or Python array. The shape of the output tensor.
      mean: A 0-D Tensor or Python value of type `dtype`. The mean.
      stddev: A 0-D Tensor or Python value of type `dtype`. The standard deviation of the normal
        distribution, before truncation.
      dtype: The type of the output (a floating type).
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: A name for the operation (optional).

    Returns:
      A tensor of the specified shape filled with random truncated normal values.
    """
    from . import math_ops
    dtype = dtypes.as_dtype(dtype)
    _check_float(dtype, "TruncatedNormal")
    with ops.name_scope(name, "truncated_normal", [shape, mean, stddev]) as name:
        shape_tensor = _shape_tensor(shape)
        mean_tensor = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_tensor = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
        attrs = {"dtype": dtype}
        attrs.update(_seed_attrs(seed))
        rnd = ops.apply_op("TruncatedNormal", [shape_tensor], attrs)
        mul = math_ops.multiply(rnd, stddev_tensor)
        return math_ops.add(mul, mean_tensor, name=name)


# ---- RandomUniform ---------------------------------------------------------------------------
_BELOW_ONE_F16 = np.nextafter(np.float16(1), np.float16(0))


def _random_uniform_kernel(ctx, op, shape, dtype, seed, seed2):
    rng = _generator(ctx, op, seed, seed2)
    np_dtype = dtype.as_numpy_dtype
    if np_dtype == np.float16:
        return np.minimum(rng.random(_size(shape), dtype=np.float32).astype(np.float16), _BELOW_ONE_F16)
    return rng.random(_size(shape), dtype=np_dtype)


register_op("RandomUniform", infer=_random_infer, kernel=_random_uniform_kernel, grad=NO_GRADIENT, stateful=True)


# ---- RandomUniformInt ------------------------------------------------------------------------
def _random_uniform_int_infer(op):
    shape, minval, maxval = op._inputs
    _check_scalar(minval, "minval")
    _check_scalar(maxval, "maxval")
    if minval.dtype is not maxval.dtype:
        raise TypeError("minval and maxval must have the same dtype, got %s and %s"
                        % (minval.dtype.name, maxval.dtype.name))
    return [(minval.dtype, _static_shape(shape))]


def _random_uniform_int_kernel(ctx, op, shape, minval, maxval, seed, seed2):
    lo, hi = int(minval), int(maxval)
    if not lo < hi:
        raise errors.InvalidArgumentError(None, op, "Need minval < maxval: %d >= %d" % (lo, hi))
    rng = _generator(ctx, op, seed, seed2)
    return rng.integers(lo, hi, size=_size(shape), dtype=minval.dtype)


register_op("RandomUniformInt", infer=_random_uniform_int_infer, kernel=_random_uniform_int_kernel,
            grad=NO_GRADIENT, stateful=True)


def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Outputs random values from a uniform distribution over `[minval, maxval)`.

    For floats the default range is `[0, 1)`. For ints `maxval` must be given, and the values
    are drawn uniformly from the integers in `[minval, maxval)`.

    Args:
      shape: A 1-D integer Tensor or Python array. The shape of the output tensor.
      minval: A 0-D Tensor or Python value of type `dtype`. The lower bound (inclusive).
      maxval: A 0-D Tensor or Python value of type `dtype`. The upper bound (exclusive);
        defaults to 1 for floats.
      dtype: The type of the output: `float16`, `float32`, `float64`, `int32`, or `int64`.
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: A name for the operation (optional).

    Returns:
      A tensor of the specified shape filled with random uniform values.

    Raises:
      ValueError: If `dtype` is integral and `maxval` is not specified, or `dtype` is unsupported.
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _FLOAT_DTYPES + (dtypes.int32, dtypes.int64):
        raise ValueError("Invalid dtype %r" % dtype)
    if maxval is None:
        if dtype.is_integer:
            raise ValueError("Must specify maxval for integer dtype %r" % dtype)
        maxval = 1
    with ops.name_scope(name, "random_uniform", [shape, minval, maxval]) as name:
        shape_tensor = _shape_tensor(shape)
        minval = ops.convert_to_tensor(minval, dtype=dtype, name="min")
        maxval = ops.convert_to_tensor(maxval, dtype=dtype, name="max")
        if dtype.is_integer:
            return ops.apply_op("RandomUniformInt", [shape_tensor, minval, maxval], _seed_attrs(seed), name=name)
        from . import math_ops
        attrs = {"dtype": dtype}
        attrs.update(_seed_attrs(seed))
        rnd = ops.apply_op("RandomUniform", [shape_tensor], attrs)
        return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(maxval, minval)), minval, name=name)


# ---- RandomShuffle ---------------------------------------------------------------------------
def _random_shuffle_infer(op):
    t = op._inputs[0]
    return [(t.dtype, t.shape.as_tuple())]


def _random_shuffle_kernel(ctx, op, value, seed, seed2):
    if value.ndim == 0 or value.shape[0] <= 1:
        return value
    return value[_generator(ctx, op, seed, seed2).permutation(value.shape[0])]


register_op("RandomShuffle", infer=_random_shuffle_infer, kernel=_random_shuffle_kernel, grad=NO_GRADIENT,
            stateful=True)


def random_shuffle(value, seed=None, name=None):
    """Randomly shuffles a tensor along its first dimension.

    Args:
      value: A Tensor to be shuffled.
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: A name for the operation (optional).

    Returns:
      A tensor of same shape and type as `value`, shuffled along its first dimension.
    """
    value = ops.convert_to_tensor(value, name="value")
    return ops.apply_op("RandomShuffle", [value], _seed_attrs(seed), name=name)


# ---- Multinomial -----------------------------------------------------------------------------
def _multinomial_infer(op):
    logits, num_samples = op._inputs
    if not logits.dtype.is_floating:
        raise TypeError("Value passed to parameter 'logits' has DataType %s not in list of allowed values: "
                        "float16, float32, float64" % logits.dtype.name)
    rank = logits.shape.ndims
    if rank is not None and rank != 2:
        raise ValueError("Shape must be rank 2 but is rank %d" % rank)
    _check_scalar(num_samples, "num_samples")
    batch = None if rank is None else logits.shape.as_tuple()[0]
    return [(op._attrs["output_dtype"], (batch, _constant_scalar(num_samples)))]


def _multinomial_kernel(ctx, op, logits, num_samples, seed, seed2, output_dtype):
    batch, num_classes = logits.shape
    n = int(num_samples)
    if num_classes == 0:
        raise errors.InvalidArgumentError(None, op, "num_classes should be positive, got %d" % num_classes)
    if n < 0:
        raise errors.InvalidArgumentError(None, op, "num_samples should be nonnegative, got %d" % n)
    rng = _generator(ctx, op, seed, seed2)
    x = logits.astype(np.float64)
    finite = np.where(np.isfinite(x), x, -np.inf)
    m = finite.max(axis=1, keepdims=True)
    p = np.exp(finite - np.where(np.isfinite(m), m, 0.0))
    cdf = np.cumsum(p, axis=1)
    u = rng.random((batch, n)) * cdf[:, -1:]
    out = np.empty((batch, n), dtype=output_dtype.as_numpy_dtype)
    for i in range(batch):
        out[i] = np.minimum(np.searchsorted(cdf[i], u[i], side="right"), num_classes - 1)
    return out


register_op("Multinomial", infer=_multinomial_infer, kernel=_multinomial_kernel, grad=NO_GRADIENT, stateful=True)


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """Draws samples from a multinomial (categorical) distribution.

    Args:
      logits: 2-D Tensor with shape `[batch_size, num_classes]`. Each slice `[i, :]` holds the
        unnormalized log-probabilities of all classes.
      num_samples: 0-D. Number of independent samples to draw for each row slice.
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: Optional name for the operation.
      output_dtype: Integer type of the output: `int32` or `int64` (default).

    Returns:
      The drawn samples of shape `[batch_size, num_samples]`.
    """
    output_dtype = dtypes.as_dtype(output_dtype or dtypes.int64)
    if output_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'output_dtype' has DataType %s not in list of allowed values: "
                        "int32, int64" % output_dtype.name)
    with ops.name_scope(name, "multinomial", [logits]):
        logits = ops.convert_to_tensor(logits, name="logits")
        num_samples = ops.convert_to_tensor(num_samples, dtype=dtypes.int32, name="num_samples")
        attrs = _seed_attrs(seed)
        attrs["output_dtype"] = output_dtype
        return ops.apply_op("Multinomial", [logits, num_samples], attrs)
