"""Stateless random ops (`tf.random.stateless_*`): values that are a pure function of (shape, seed).

Each kernel derives TF's Philox key and counter from the seed pair (TF's `GenerateKey`) and fills
its output as TF's CPU kernels do (`random_philox`), so the values are bit for bit TensorFlow's.
"""

import math

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from . import random_philox as philox
from .random_ops import _check_scalar, _shape_tensor, _static_shape
from .random_philox import blocks_at

__all__ = ["stateless_random_uniform", "stateless_random_normal", "stateless_truncated_normal", "stateless_split",
           "stateless_fold_in", "stateless_dropout", "general_dropout", "stateless_random_poisson",
           "stateless_random_gamma", "stateless_random_binomial", "stateless_shuffle"]

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
_SEED_DTYPES = (dtypes.int32, dtypes.int64)


def _check_seed(seed, op_type):
    if seed.dtype not in _SEED_DTYPES:
        raise TypeError("Value passed to parameter 'seed' has DataType %s not in list of allowed values: int32, int64 "
                        "(op %s)" % (seed.dtype.name, op_type))
    dims = seed.shape.as_tuple()
    if dims is not None:
        if len(dims) != 1:
            raise ValueError("Shape must be rank 1 but is rank %d for '%s' (op: '%s')"
                             % (len(dims), seed.op.name, op_type))
        if dims[0] is not None and dims[0] != 2:
            raise ValueError("Dimension must be 2 but is %d for '%s' (op: '%s')" % (dims[0], seed.op.name, op_type))


def _key_counter(seed):
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise errors.InvalidArgumentError(None, None, "seed must have shape [2], not %s"
                                          % list(seed.shape))
    return philox.key_counter_from_seed(int(seed[0]), int(seed[1]))


def _out_shape(shape):
    shape = np.asarray(shape)
    if shape.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "shape must be a vector of {int32,int64}, got shape %s"
                                          % list(shape.shape))
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise errors.InvalidArgumentError(None, None, "Dimension %d must be >= 0" % min(dims))
    return dims


def _float_infer(op_type):
    def infer(op):
        shape, seed = op._inputs
        _check_seed(seed, op_type)
        return [(op._attrs["dtype"], _static_shape(shape))]
    return infer


def _float_kernel(fill):
    def kernel(xp, shape, seed, dtype):
        dims = _out_shape(shape)
        key, counter = _key_counter(seed)
        count = int(np.prod(dims, dtype=np.int64))
        return fill(key, counter, count, dtype.as_numpy_dtype).reshape(dims)
    return kernel


for _type, _fill in (("StatelessRandomUniform", philox.uniform_float), ("StatelessRandomNormal", philox.normal),
                     ("StatelessTruncatedNormal", philox.truncated_normal)):
    register_op(_type, infer=_float_infer(_type), kernel=_float_kernel(_fill), grad=NO_GRADIENT)


def _uniform_int_infer(op):
    shape, seed, minval, maxval = op._inputs
    _check_seed(seed, "StatelessRandomUniformInt")
    _check_scalar(minval, "minval")
    _check_scalar(maxval, "maxval")
    if minval.dtype is not maxval.dtype or minval.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("minval and maxval must both be int32 or both int64, got %s and %s (op "
                        "StatelessRandomUniformInt)" % (minval.dtype.name, maxval.dtype.name))
    return [(minval.dtype, _static_shape(shape))]


def _uniform_int_kernel(xp, shape, seed, minval, maxval):
    dims = _out_shape(shape)
    for name, v in (("minval", minval), ("maxval", maxval)):
        if np.ndim(v) != 0:
            raise errors.InvalidArgumentError(None, None, "%s must be 0-D, got shape %s" % (name, list(np.shape(v))))
    lo, hi = int(minval), int(maxval)
    if not lo < hi:
        raise errors.InvalidArgumentError(None, None, "Need minval < maxval: %d >= %d" % (lo, hi))
    key, counter = _key_counter(seed)
    count = int(np.prod(dims, dtype=np.int64))
    return philox.uniform_int(key, counter, count, lo, hi, minval.dtype).reshape(dims)


register_op("StatelessRandomUniformInt", infer=_uniform_int_infer, kernel=_uniform_int_kernel, grad=NO_GRADIENT)

_FULL_INT_DTYPES = (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)


def _full_int_infer(op):
    shape, seed = op._inputs
    _check_seed(seed, "StatelessRandomUniformFullInt")
    if op._attrs["dtype"] not in _FULL_INT_DTYPES:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: int32, "
                        "int64, uint32, uint64 (op StatelessRandomUniformFullInt)" % op._attrs["dtype"].name)
    return [(op._attrs["dtype"], _static_shape(shape))]


def _full_int_kernel(xp, shape, seed, dtype):
    dims = _out_shape(shape)
    key, counter = _key_counter(seed)
    count = int(np.prod(dims, dtype=np.int64))
    return philox.uniform_full_int(key, counter, count, dtype.as_numpy_dtype).reshape(dims)


register_op("StatelessRandomUniformFullInt", infer=_full_int_infer, kernel=_full_int_kernel, grad=NO_GRADIENT)


def _check_alg(alg):
    """TF's `alg` argument: Philox (what "auto_select" picks on CPU) is the only one here."""
    value = getattr(alg, "value", alg)
    if value is None or value in ("auto_select", "philox", 1, 3):
        return
    raise NotImplementedError("alg=%r: only the Philox algorithm ('philox', 'auto_select') is implemented" % (alg,))


# ---- Python API ------------------------------------------------------------------------------
def _seed_tensor(seed):
    """`seed` as a tensor: Python integers as int32, as TF converts them, unless one needs 64 bits."""
    if ops.is_tensor(seed):
        return seed
    flat = list(seed) if isinstance(seed, (list, tuple)) else [seed]
    wide = False
    if not any(ops.is_tensor(s) for s in flat):
        try:
            wide = any(abs(int(s)) >= 2 ** 31 for s in np.ravel(np.asarray(seed)))
        except (TypeError, ValueError):
            wide = False
    return ops.convert_to_tensor(seed, dtype=dtypes.int64 if wide else None, name="seed")


def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Outputs deterministic pseudorandom values from a uniform distribution (`tf.random.stateless_uniform`).

    The values are a pure function of `shape` and `seed` (TF's Philox stream: the same values as
    TensorFlow for the same arguments). Floats lie in `[minval, maxval)`; integers are
    `minval + bits % (maxval - minval)`, as TF computes them.

    Args:
      shape: A 1-D integer Tensor or Python array. The shape of the output tensor.
      seed: A shape [2] int32 or int64 Tensor, the seed.
      minval: A 0-D Tensor or Python value of type `dtype`: the lower bound (inclusive).
      maxval: A 0-D Tensor or Python value of type `dtype`: the upper bound (exclusive); defaults
        to 1 for floats, required for integers. With `minval` and `maxval` both None, an integer
        `dtype` covers its whole range (`StatelessRandomUniformFullInt`).
      dtype: `float16`, `float32`, `float64`, `int32` or `int64` (`uint32`, `uint64`: full range only).
      name: A name for the operation (optional).
      alg: The algorithm: "auto_select" or "philox" (the same on CPU).

    Returns:
      A tensor of the specified shape filled with random uniform values.

    Raises:
      ValueError: If `dtype` is integral and only one of `minval`/`maxval` is given, or `dtype` is not
        supported.
      NotImplementedError: For another `alg`.
    """
    dtype = dtypes.as_dtype(dtype)
    _check_alg(alg)
    full_range = dtype.is_integer and minval is None and maxval is None
    if dtype not in _FLOATS + (dtypes.int32, dtypes.int64) and not (full_range and dtype in _FULL_INT_DTYPES):
        raise ValueError("Invalid dtype %r" % dtype)
    if maxval is None and not full_range:
        if dtype.is_integer:
            raise ValueError("Must specify maxval for integer dtype %r" % dtype)
        maxval = 1
    with ops.name_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as name:
        shape = _shape_tensor(shape)
        seed = _seed_tensor(seed)
        if full_range:
            return ops.apply_op("StatelessRandomUniformFullInt", [shape, seed], {"dtype": dtype}, name=name)
        minval = ops.convert_to_tensor(minval, dtype=dtype, name="min")
        maxval = ops.convert_to_tensor(maxval, dtype=dtype, name="max")
        if dtype.is_integer:
            return ops.apply_op("StatelessRandomUniformInt", [shape, seed, minval, maxval], {}, name=name)
        from . import math_ops
        rnd = ops.apply_op("StatelessRandomUniform", [shape, seed], {"dtype": dtype})
        return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(maxval, minval)), minval, name=name)


def _stateless_normal_like(op_type, default_name, shape, seed, mean, stddev, dtype, name, alg):
    _check_alg(alg)
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _FLOATS:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: "
                        "float16, float32, float64 (op %s)" % (dtype.name, op_type))
    from . import math_ops
    with ops.name_scope(name, default_name, [shape, seed, mean, stddev]) as name:
        shape = _shape_tensor(shape)
        seed = _seed_tensor(seed)
        mean = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
        rnd = ops.apply_op(op_type, [shape, seed], {"dtype": dtype})
        return math_ops.add(math_ops.multiply(rnd, stddev), mean, name=name)


def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Outputs deterministic pseudorandom values from a normal distribution (`tf.random.stateless_normal`).

    The values are a pure function of `shape` and `seed`, bit for bit TensorFlow's (Philox and
    TF's Box-Muller transform).

    Args:
      shape: A 1-D integer Tensor or Python array. The shape of the output tensor.
      seed: A shape [2] int32 or int64 Tensor, the seed.
      mean: A 0-D Tensor or Python value of type `dtype`. The mean of the normal distribution.
      stddev: A 0-D Tensor or Python value of type `dtype`. The standard deviation.
      dtype: `float16`, `float32` or `float64`.
      name: A name for the operation (optional).
      alg: The algorithm: "auto_select" or "philox" (the same on CPU).

    Returns:
      A tensor of the specified shape filled with random normal values.

    Raises:
      TypeError: If `dtype` is not a floating type.
      NotImplementedError: For another `alg`.
    """
    return _stateless_normal_like("StatelessRandomNormal", "stateless_random_normal", shape, seed, mean, stddev,
                                  dtype, name, alg)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Outputs deterministic pseudorandom values from a truncated normal distribution
    (`tf.random.stateless_truncated_normal`).

    Values more than two standard deviations from the mean are dropped and re-drawn, as TF does;
    the values are a pure function of `shape` and `seed`, bit for bit TensorFlow's.

    Args:
      shape: A 1-D integer Tensor or Python array. The shape of the output tensor.
      seed: A shape [2] int32 or int64 Tensor, the seed.
      mean: A 0-D Tensor or Python value of type `dtype`. The mean.
      stddev: A 0-D Tensor or Python value of type `dtype`. The standard deviation of the normal
        distribution, before truncation.
      dtype: `float16`, `float32` or `float64`.
      name: A name for the operation (optional).
      alg: The algorithm: "auto_select" or "philox" (the same on CPU).

    Returns:
      A tensor of the specified shape filled with random truncated normal values.

    Raises:
      TypeError: If `dtype` is not a floating type.
      NotImplementedError: For another `alg`.
    """
    return _stateless_normal_like("StatelessTruncatedNormal", "stateless_truncated_normal", shape, seed, mean,
                                  stddev, dtype, name, alg)


# ---- seeds from seeds ------------------------------------------------------------------------
def stateless_split(seed, num=2, alg="auto_select"):
    """Splits an RNG seed into `num` new seeds by adding a leading axis (`tf.random.split`).

    The new seeds are `num * 2` full-range integers drawn from `seed`, as TF's.

    Args:
      seed: A shape [2] int32 or int64 Tensor, the seed.
      num: An integer scalar, the number of new seeds.
      alg: The algorithm: "auto_select" or "philox" (the same on CPU).

    Returns:
      A tensor of shape [num, 2] and the dtype of `seed`.

    Raises:
      NotImplementedError: For another `alg`.
    """
    seed = _seed_tensor(seed)
    return stateless_random_uniform([num, 2], seed, minval=None, maxval=None, dtype=seed.dtype, alg=alg)


def stateless_fold_in(seed, data, alg="auto_select"):
    """Folds in `data` to an RNG seed to form a new RNG seed (`tf.random.fold_in`).

    Args:
      seed: A shape [2] int32 or int64 Tensor, the seed.
      data: An int32 or int64 scalar: the data to fold in.
      alg: The algorithm: "auto_select" or "philox" (the same on CPU).

    Returns:
      A new seed of shape [2] and the dtype of `data`: a full-range integer drawn from `seed`, then
      `data`.

    Raises:
      NotImplementedError: For another `alg`.
    """
    from . import array_ops
    data = ops.convert_to_tensor(data)
    seed1 = stateless_random_uniform([], seed, minval=None, maxval=None, dtype=data.dtype, alg=alg)
    return array_ops.stack([seed1, data])


# ---- dropout with a given sampler --------------------------------------------------------------
def _dropout(x, rate, noise_shape, uniform_sampler, name, default_name):
    import numbers

    from . import array_ops, math_ops
    is_rate_number = isinstance(rate, numbers.Real)
    if is_rate_number and (rate < 0 or rate >= 1):
        raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=%s" % rate)
    with ops.name_scope(name, default_name, [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        x_dtype = x.dtype
        if not x_dtype.is_floating:
            raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=%s"
                             % x_dtype)
        if is_rate_number and rate == 0:
            return x
        if not ops.is_tensor(rate):
            if not is_rate_number:
                raise ValueError("`rate` must be a scalar or scalar tensor of type float. Received: rate=%r" % (rate,))
            scale = ops.convert_to_tensor(1 / (1 - rate), dtype=x_dtype)
            ret = math_ops.multiply(x, scale)
        else:
            if rate.shape.ndims is not None and rate.shape.ndims != 0:
                raise ValueError("Shape %s must have rank 0" % rate.shape)
            if rate.dtype != x_dtype:
                if not rate.dtype.is_floating:
                    raise ValueError("`x.dtype` must be compatible with `rate.dtype`. Received: x.dtype=%s and "
                                     "rate.dtype=%s" % (x_dtype, rate.dtype))
                rate = math_ops.cast(rate, x_dtype, name="rate")
            ret = math_ops.realdiv(x, math_ops.subtract(ops.convert_to_tensor(1, dtype=x_dtype), rate))
        if noise_shape is None:
            noise_shape = array_ops.shape(x)
        random_tensor = uniform_sampler(shape=noise_shape, dtype=x_dtype)
        keep_mask = math_ops.greater_equal(random_tensor, rate)
        ret = array_ops.where_v2(keep_mask, ret, ops.convert_to_tensor(0, dtype=x_dtype), name=name)
        ret.set_shape(x.shape)
        return ret


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """Computes dropout deterministically (`tf.nn.experimental.stateless_dropout`).

    Each element of `x` (or each slice, with `noise_shape`) is kept where the stateless uniform
    sample of `seed` is >= `rate`, and scaled by `1 / (1 - rate)`; others become 0. The values are
    TF's for the same arguments.

    Args:
      x: A floating point tensor.
      rate: A scalar Tensor or float in [0, 1): the probability that each element is dropped.
      seed: A shape [2] int32 or int64 Tensor, the seed.
      rng_alg: The algorithm: None, "auto_select" or "philox" (the same on CPU).
      noise_shape: A 1-D integer Tensor: the shape of the keep/drop mask, broadcast against `x`.
      name: A name for this operation (optional).

    Returns:
      A Tensor of the same shape and dtype as `x`.

    Raises:
      ValueError: If `rate` is a number outside [0, 1), or `x` is not a floating point tensor.
      NotImplementedError: For another `rng_alg`.
    """
    _check_alg(rng_alg)

    def sampler(shape, dtype):
        return stateless_random_uniform(shape, seed, dtype=dtype)
    return _dropout(x, rate, noise_shape, sampler, name, "stateless_dropout")


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """Computes dropout with a given uniform sampler (`tf.nn.experimental.general_dropout`).

    Args:
      x: A floating point tensor.
      rate: A scalar Tensor or float in [0, 1): the probability that each element is dropped.
      uniform_sampler: A callable `(shape, dtype) -> Tensor` of uniform values in [0, 1).
      noise_shape: A 1-D integer Tensor: the shape of the keep/drop mask, broadcast against `x`.
      name: A name for this operation (optional).

    Returns:
      A Tensor of the same shape and dtype as `x`.

    Raises:
      ValueError: If `rate` is a number outside [0, 1), or `x` is not a floating point tensor.
    """
    return _dropout(x, rate, noise_shape, uniform_sampler, name, "general_dropout")



# ---- StatelessRandomPoisson ------------------------------------------------------------------
_POISSON_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
# Blocks of the stream reserved for each output of a sampler that draws a variable number of values.
_RESERVED_BLOCKS = 256
_HIGHEST = {"float16": 65504.0, "float32": float(np.finfo(np.float32).max), "float64": float(np.finfo(np.float64).max),
            "int32": float(2 ** 31 - 1), "int64": float(2 ** 63 - 1)}


def _poisson_infer(op):
    shape, seed, lam = op._inputs
    _check_seed(seed, "StatelessRandomPoisson")
    if lam.dtype not in _POISSON_TYPES:
        raise TypeError("Value passed to parameter 'lam' has DataType %s not in list of allowed values: float16, "
                        "float32, float64, int32, int64" % lam.dtype.name)
    return [(op._attrs["dtype"], _static_shape(shape))]


def _libm_double(name):
    import ctypes
    import ctypes.util
    try:
        f = getattr(ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6"), name)
    except (OSError, AttributeError):
        return None
    f.restype, f.argtypes = ctypes.c_double, [ctypes.c_double]
    return np.frompyfunc(f, 1, 1)


_LGAMMA = []


def _lgamma(x):
    """The C library's `lgamma` (what TF calls), elementwise on float64."""
    if not _LGAMMA:
        _LGAMMA.append(_libm_double("lgamma"))
    if x.size == 0:
        return x.astype(np.float64)
    if _LGAMMA[0] is None:
        from .math_special_ops import _special
        return _special().gammaln(x)
    return np.asarray(_LGAMMA[0](x), np.float64)


_vexp = np.frompyfunc(math.exp, 1, 1)
_vlog = np.frompyfunc(lambda v: math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan), 1, 1)


# Draws after which a sample is given up: TF's kernel loops forever there (a rate whose samples exceed
# the output type's range, or an infinite rate).
_MAX_DRAWS = 20000


def _check_progress(t, active, rate):
    stuck = active & (t >= _MAX_DRAWS)
    if stuck.any():
        raise errors.InvalidArgumentError(None, None, "Poisson rate %g: no sample within the output type's range "
                                          "after %d draws" % (rate[np.nonzero(stuck)[0][0]], _MAX_DRAWS))


def _poisson_samples(key, counter, rate, num_samples, highest):
    """TF's PoissonFunctor (CPU), for a flat float64 `rate`: a float64 array (num_samples, num_rate).

    Output `o = rate_index * num_samples + sample_index` draws its doubles from block
    `256 * o` of the stream on, taking each block's second double first.
    """
    num_rate = rate.size
    out = np.zeros((num_samples, num_rate))
    o = np.arange(num_rate * num_samples, dtype=np.int64)
    r = np.repeat(rate, num_samples)
    res = np.zeros(o.size)

    def uniform(idx, t):
        """The t-th uniform (per element of t) of outputs `idx`."""
        b = blocks_at(key, counter, (idx * _RESERVED_BLOCKS + t // 2).astype(np.uint64))
        second = (t % 2) == 0  # the first draw of a block is its second double
        return np.where(second, philox.u64_to_double(b[:, 2], b[:, 3]), philox.u64_to_double(b[:, 0], b[:, 1]))

    with np.errstate(all="ignore"):
        small = np.nonzero(r < 10)[0]
        if small.size:
            exp_neg = np.asarray(_vexp(-r[small]), np.float64)
            prod = np.ones(small.size)
            x = np.zeros(small.size)
            t = np.zeros(small.size, np.int64)
            active = np.ones(small.size, bool)
            while active.any():
                _check_progress(t, active, r[small])
                a = np.nonzero(active)[0]
                prod[a] = prod[a] * uniform(o[small[a]], t[a])
                t[a] += 1
                done = (prod[a] <= exp_neg[a]) & (x[a] <= highest)
                res[small[a[done]]] = x[a[done]]
                active[a[done]] = False
                x[a[~done]] += 1
        big = np.nonzero(~(r < 10) & ~np.isnan(r))[0]
        if big.size:
            rb = r[big]
            log_rate = np.asarray(_vlog(rb), np.float64)
            b_ = 0.931 + 2.53 * np.sqrt(rb)
            a_ = -0.059 + 0.02483 * b_
            inv_alpha = 1.1239 + 1.1328 / (b_ - 3.4)
            t = np.zeros(big.size, np.int64)
            active = np.ones(big.size, bool)
            while active.any():
                _check_progress(t, active, rb)
                a = np.nonzero(active)[0]
                u = uniform(o[big[a]], t[a]) - 0.5
                v = uniform(o[big[a]], t[a] + 1)
                t[a] += 2
                u_shifted = 0.5 - np.abs(u)
                k = np.floor((2.0 * a_[a] / u_shifted + b_[a]) * u + rb[a] + 0.43)
                ok = k <= highest
                quick = ok & (u_shifted >= 0.07) & (v <= 0.9277 - 3.6224 / (b_[a] - 2.0))
                reject = ~ok | (~quick & ((k < 0) | ((u_shifted < 0.013) & (v > u_shifted))))
                test = ~quick & ~reject
                accept = quick.copy()
                if test.any():
                    ti = np.nonzero(test)[0]
                    s = np.asarray(_vlog(v[ti] * inv_alpha[a[ti]] / (a_[a[ti]] / (u_shifted[ti] * u_shifted[ti])
                                                                     + b_[a[ti]])), np.float64)
                    tt = -rb[a[ti]] + k[ti] * log_rate[a[ti]] - _lgamma(k[ti] + 1)
                    accept[ti] = s <= tt
                res[big[a[accept]]] = k[accept]
                active[a[accept]] = False
        res[np.isnan(r)] = np.nan
    out[:] = res.reshape(num_rate, num_samples).T
    return out


def _poisson_kernel(xp, shape, seed, lam, dtype):
    dims = _out_shape(shape)
    lam = np.asarray(lam)
    if lam.ndim > len(dims) or (lam.ndim and tuple(dims[len(dims) - lam.ndim:]) != lam.shape):
        raise errors.InvalidArgumentError(None, None, "Shape passed in must end with broadcasted shape.")
    key, counter = _key_counter(seed)
    count = int(np.prod(dims, dtype=np.int64))
    num_rate = lam.size
    np_dtype = dtype.as_numpy_dtype
    if count == 0 or num_rate == 0:
        return np.zeros(dims, np_dtype)
    num_samples = count // num_rate
    rate = lam.reshape(-1).astype(np.float64)
    if np.dtype(np_dtype).kind in "iu" and np.isnan(rate).any():
        raise errors.InvalidArgumentError(None, None, "lam must not be NaN for an integer output dtype")
    samples = _poisson_samples(key, counter, rate, num_samples, _HIGHEST[dtype.name])
    return samples.astype(np_dtype).reshape(dims)


register_op("StatelessRandomPoisson", infer=_poisson_infer, kernel=_poisson_kernel, grad=NO_GRADIENT)


def stateless_random_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Outputs deterministic pseudorandom values from a Poisson distribution
    (`tf.random.stateless_poisson`).

    The values are a pure function of the arguments, TF's: Knuth's method below a rate of 10,
    Hormann's transformed rejection above, each output drawing from its own part of the Philox
    stream of `seed`. A NaN rate gives NaN (TF's kernel never returns for it).

    Args:
      shape: A 1-D integer Tensor or Python array: the output shape, ending with `lam`'s shape.
      seed: A shape [2] int32 or int64 Tensor, the seed.
      lam: A Tensor of type float16, float32, float64, int32 or int64: the rate(s), broadcast
        against the trailing dimensions of `shape`.
      dtype: The output type: float16, float32, float64, int32 or int64.
      name: A name for the operation (optional).

    Returns:
      A tensor of the specified shape filled with Poisson samples.

    Raises:
      TypeError: If `dtype` or `lam`'s type is not supported.
      InvalidArgumentError: At run time, if `shape` does not end with `lam`'s shape, or for a rate
        whose samples do not fit `dtype` (or an infinite one), where TF's kernel never returns.
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _POISSON_TYPES:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: float16, "
                        "float32, float64, int32, int64" % dtype.name)
    with ops.name_scope(name, "stateless_random_poisson", [shape, seed, lam]) as name:
        shape = _shape_tensor(shape)
        seed = _seed_tensor(seed)
        lam = ops.convert_to_tensor(lam, name="lam")
        return ops.apply_op("StatelessRandomPoisson", [shape, seed, lam], {"dtype": dtype}, name=name)


# ---- StatelessRandomGammaV2 ------------------------------------------------------------------
_vlog1p = np.frompyfunc(math.log1p, 1, 1)
_vpow = np.frompyfunc(math.pow, 2, 1)


def _gamma_samples(key, counter, alpha, num_samples):
    """TF's stateless gamma sampler (CPU), for a flat float64 `alpha`: a float64 array
    (num_samples, num_alpha). Output `o = alpha_index * num_samples + sample_index` reads its own
    part of the stream (block `256 * o` on): alpha == 1 is `-log1p(-u)`; otherwise Marsaglia and
    Tsang's method with TF's normal (Box-Muller) and uniform doubles, each taken from the end of
    the block that the sampler last drew for it."""
    num_alpha = alpha.size
    o = np.arange(num_alpha * num_samples, dtype=np.int64)
    a_all = np.repeat(alpha, num_samples)
    res = np.zeros(o.size)

    def block(idx, ptr):
        return blocks_at(key, counter, (idx * _RESERVED_BLOCKS + ptr).astype(np.uint64))

    with np.errstate(all="ignore"):
        ones = np.nonzero(a_all == 1.0)[0]
        if ones.size:
            b = block(o[ones], np.zeros(ones.size, np.int64))
            u = philox.u64_to_double(b[:, 2], b[:, 3])
            res[ones] = -np.asarray(_vlog1p(-u), np.float64)
        rest = np.nonzero((a_all != 1.0) & ~np.isnan(a_all))[0]
        if rest.size:
            al = a_all[rest]
            less = al < 1
            d = al + np.where(less, 2.0 / 3, -1.0 / 3)
            c = 1.0 / 3 / np.sqrt(d)
            m = rest.size
            ptr = np.zeros(m, np.int64)  # the next block of each output's stream
            norm_buf = np.zeros((m, 2))
            norm_left = np.zeros(m, np.int64)
            uni_buf = np.zeros((m, 2))
            uni_left = np.zeros(m, np.int64)
            active = np.ones(m, bool)
            steps = 0

            def take_uniform(idx):
                need = idx[uni_left[idx] == 0]
                if need.size:
                    b = block(o[rest[need]], ptr[need])
                    ptr[need] += 1
                    uni_buf[need, 0] = philox.u64_to_double(b[:, 0], b[:, 1])
                    uni_buf[need, 1] = philox.u64_to_double(b[:, 2], b[:, 3])
                    uni_left[need] = 2
                uni_left[idx] -= 1
                return uni_buf[idx, uni_left[idx]]

            while active.any():
                steps += 1
                if steps > _MAX_DRAWS:
                    raise errors.InvalidArgumentError(None, None, "Gamma alpha %g: no sample after %d draws"
                                                      % (al[np.nonzero(active)[0][0]], _MAX_DRAWS))
                idx = np.nonzero(active)[0]
                need = idx[norm_left[idx] == 0]
                if need.size:
                    b = block(o[rest[need]], ptr[need])
                    ptr[need] += 1
                    n0, n1 = philox.box_muller_double(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
                    norm_buf[need, 0], norm_buf[need, 1] = n0, n1
                    norm_left[need] = 2
                norm_left[idx] -= 1
                x = norm_buf[idx, norm_left[idx]]
                v = 1 + c[idx] * x
                go = ~(v <= 0)  # a NaN goes on, as in TF's `if (v <= 0) continue;`
                idx, x, v = idx[go], x[go], v[go]
                if not idx.size:
                    continue
                v = v * v * v
                u = take_uniform(idx)
                squeeze = u < 1 - 0.0331 * (x * x) * (x * x)
                accept = squeeze.copy()
                t = np.nonzero(~squeeze)[0]
                if t.size:
                    lhs = np.asarray(_vlog(u[t]), np.float64)
                    rhs = 0.5 * x[t] * x[t] + d[idx[t]] * (1 - v[t] + np.asarray(_vlog(v[t]), np.float64))
                    accept[t] = lhs < rhs
                acc = idx[accept]
                if acc.size:
                    val = d[acc] * v[accept]
                    small = less[acc]
                    if small.any():
                        sm = acc[small]
                        bu = take_uniform(sm)
                        val[small] = val[small] * np.asarray(_vpow(bu, 1 / al[sm]), np.float64)
                    res[rest[acc]] = val
                    active[acc] = False
        res[np.isnan(a_all)] = np.nan
    return res.reshape(num_alpha, num_samples).T


def _gamma_infer(op):
    shape, seed, alpha = op._inputs
    _check_seed(seed, "StatelessRandomGammaV2")
    if alpha.dtype not in _FLOATS:
        raise TypeError("Value passed to parameter 'alpha' has DataType %s not in list of allowed values: float16, "
                        "float32, float64 (op StatelessRandomGammaV2)" % alpha.dtype.name)
    return [(alpha.dtype, _static_shape(shape))]


def _gamma_kernel(xp, shape, seed, alpha):
    dims = _out_shape(shape)
    if alpha.ndim > len(dims) or (alpha.ndim and tuple(dims[len(dims) - alpha.ndim:]) != alpha.shape):
        raise errors.InvalidArgumentError(None, None, "Shape passed in must end with broadcasted shape.")
    key, counter = _key_counter(seed)
    count = int(np.prod(dims, dtype=np.int64))
    if count == 0 or alpha.size == 0:
        return np.zeros(dims, alpha.dtype)
    samples = _gamma_samples(key, counter, alpha.reshape(-1).astype(np.float64), count // alpha.size)
    return samples.astype(alpha.dtype).reshape(dims)


def _gamma_grad(op, grad):
    """TF's `_StatelessRandomGammaV2Grad`: implicit reparameterization w.r.t. alpha (RandomGammaGrad),
    summed over the leading sample dimensions."""
    from . import array_ops, math_ops
    shape, _, alpha = op.inputs
    sample = op.outputs[0]
    with ops.control_dependencies([grad]):
        num_sample_dimensions = math_ops.subtract(array_ops.shape(shape)[0], array_ops.rank(alpha))
        alpha_broadcastable = array_ops.reshape(alpha, array_ops.concat(
            [array_ops.ones(array_ops.expand_dims(num_sample_dimensions, 0), dtypes.int32),
             array_ops.shape(alpha)], 0))
        partial_a = ops.apply_op("RandomGammaGrad", [alpha_broadcastable, sample], {})
        return [None, None, math_ops.reduce_sum(math_ops.multiply(grad, partial_a),
                                                axis=array_ops.range(num_sample_dimensions))]


register_op("StatelessRandomGammaV2", infer=_gamma_infer, kernel=_gamma_kernel, grad=_gamma_grad)


def stateless_random_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Outputs deterministic pseudorandom values from a gamma distribution (`tf.random.stateless_gamma`).

    The values are a pure function of the arguments, TF's (Marsaglia and Tsang's method on TF's
    Philox stream; each output reads its own part of it). The samples are differentiable w.r.t.
    `alpha` and `beta` (implicit reparameterization, as TF).

    Args:
      shape: A 1-D integer Tensor or Python array: the output shape, ending with the broadcast
        shape of `alpha` and `beta`.
      seed: A shape [2] int32 or int64 Tensor, the seed.
      alpha: A Tensor of type `dtype`: the shape parameter(s).
      beta: A Tensor of type `dtype` broadcastable with `alpha`: the inverse scale(s); default 1.
      dtype: `float16`, `float32` or `float64`.
      name: A name for the operation (optional).

    Returns:
      A tensor of the specified shape, at least the smallest normal number of `dtype` (NaN for a
      negative `alpha`).

    Raises:
      ValueError: If `dtype` is not a floating type.
      InvalidArgumentError: At run time, if `shape` does not end with the broadcast shape.
    """
    from . import array_ops, math_ops
    dtype = dtypes.as_dtype(dtype)
    tiny = np.finfo(dtype.as_numpy_dtype).tiny  # a ValueError for a non-float dtype, as TF
    with ops.name_scope(name, "stateless_random_gamma", [shape, seed, alpha, beta]):
        shape = _shape_tensor(shape)
        seed = _seed_tensor(seed)
        alpha = ops.convert_to_tensor(alpha, dtype=dtype, name="alpha")
        beta = ops.convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        broadcast_shape = array_ops.broadcast_dynamic_shape(array_ops.shape(alpha), array_ops.shape(beta))
        alpha_broadcast = array_ops.broadcast_to(alpha, broadcast_shape)
        sample = ops.apply_op("StatelessRandomGammaV2", [shape, seed, alpha_broadcast], {})
        return math_ops.maximum(ops.convert_to_tensor(tiny, dtype=dtype), math_ops.realdiv(sample, beta))


# ---- StatelessRandomBinomial -----------------------------------------------------------------
_vceil_log_ratio = np.frompyfunc(lambda u, p: math.ceil(math.log(u) / math.log1p(-p)) if u > 0 else math.inf, 2, 1)
_STIRLING_TAIL = np.array([0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                           0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                           0.00925546218271273, 0.00833056343336287])


def _stirling_tail(k):
    small = k <= 9
    kp1sq = (k + 1) * (k + 1)
    big = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    return np.where(small, _STIRLING_TAIL[np.clip(np.nan_to_num(k), 0, 9).astype(np.int64)], big)


def _log(x):
    return np.asarray(_vlog(np.asarray(x, np.float64)), np.float64) if np.size(x) else np.zeros(np.shape(x))


def _uniform_stream(key, counter, idx, skip, t):
    """The t-th uniform double (per element) of outputs `idx`, whose streams start `skip * idx`
    blocks in: each block's second double first (TF's UNIFORM macro)."""
    b = blocks_at(key, counter, (idx * skip + t // 2).astype(np.uint64))
    return np.where((t % 2) == 0, philox.u64_to_double(b[:, 2], b[:, 3]), philox.u64_to_double(b[:, 0], b[:, 1]))


def _binomial_inversion(key, counter, idx, count, prob):
    """TF's `binomial_inversion` for outputs `idx` (stream skip 42 blocks per output)."""
    n = idx.size
    geom_sum = np.zeros(n)
    num_geom = np.zeros(n)
    t = np.zeros(n, np.int64)
    active = np.ones(n, bool)
    while active.any():
        if t.max() > _MAX_DRAWS:
            raise errors.InvalidArgumentError(None, None, "Binomial sampling made no progress")
        a = np.nonzero(active)[0]
        u = _uniform_stream(key, counter, idx[a], 42, t[a])
        t[a] += 1
        geom_sum[a] += np.asarray(_vceil_log_ratio(u, prob[a]), np.float64)
        done = geom_sum[a] > count[a]
        active[a[done]] = False
        num_geom[a[~done]] += 1
    return num_geom


def _btrs(key, counter, idx, count, prob):
    """TF's `btrs` (Hormann's transformed rejection) for outputs `idx` (skip 256 blocks per output)."""
    stddev = np.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a_ = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = np.floor((count + 1) * prob)
    res = np.zeros(idx.size)
    t = np.zeros(idx.size, np.int64)
    active = np.ones(idx.size, bool)
    while active.any():
        if t.max() > _MAX_DRAWS:
            raise errors.InvalidArgumentError(None, None, "Binomial sampling made no progress")
        a = np.nonzero(active)[0]
        u = _uniform_stream(key, counter, idx[a], _RESERVED_BLOCKS, t[a])
        v = _uniform_stream(key, counter, idx[a], _RESERVED_BLOCKS, t[a] + 1)
        t[a] += 2
        u = u - 0.5
        us = 0.5 - np.abs(u)
        k = np.floor((2 * a_[a] / us + b[a]) * u + c[a])
        accept = (us >= 0.07) & (v <= v_r[a])
        test = ~accept & ~((k < 0) | (k > count[a]))
        if test.any():
            ti = np.nonzero(test)[0]
            ai = a[ti]
            kk, cn, mm, rr = k[ti], count[ai], m[ai], r[ai]
            lv = _log(v[ti] * alpha[ai] / (a_[ai] / (us[ti] * us[ti]) + b[ai]))
            upper = ((mm + 0.5) * _log((mm + 1) / (rr * (cn - mm + 1)))
                     + (cn + 1) * _log((cn - mm + 1) / (cn - kk + 1))
                     + (kk + 0.5) * _log(rr * (cn - kk + 1) / (kk + 1))
                     + _stirling_tail(mm) + _stirling_tail(cn - mm) - _stirling_tail(kk) - _stirling_tail(cn - kk))
            accept[ti] = lv <= upper
        res[a[accept]] = k[accept]
        active[a[accept]] = False
    return res


def _binomial_infer(op):
    shape, seed, counts, probs = op._inputs
    _check_seed(seed, "StatelessRandomBinomial")
    if counts.dtype is not probs.dtype or counts.dtype not in _POISSON_TYPES:
        raise TypeError("counts and probs must have one type of float16, float32, float64, int32, int64, got %s and "
                        "%s (op StatelessRandomBinomial)" % (counts.dtype.name, probs.dtype.name))
    return [(op._attrs["dtype"], _static_shape(shape))]


def _binomial_kernel(xp, shape, seed, counts, probs, dtype):
    dims = _out_shape(shape)
    try:
        bshape = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise errors.InvalidArgumentError(None, None, "counts and probs must have compatible batch dimensions: %s vs. "
                                          "%s" % (list(counts.shape), list(probs.shape))) from None
    if len(bshape) > len(dims) or (bshape and tuple(dims[len(dims) - len(bshape):]) != bshape):
        raise errors.InvalidArgumentError(None, None, "Shape passed in must end with broadcasted shape.")
    key, counter = _key_counter(seed)
    count_total = int(np.prod(dims, dtype=np.int64))
    np_dtype = dtype.as_numpy_dtype
    num_batches = int(np.prod(bshape, dtype=np.int64))
    if count_total == 0 or num_batches == 0:
        return np.zeros(dims, np_dtype)
    per_batch = count_total // num_batches
    cnt_t = np.broadcast_to(counts, bshape).reshape(-1)
    prb_t = np.broadcast_to(probs, bshape).reshape(-1)
    o = np.arange(count_total, dtype=np.int64)
    bi = o // per_batch
    c_t, p_t = cnt_t[bi], prb_t[bi]  # in the input type T, as TF compares them
    dcount = c_t.astype(np.float64)
    res = np.zeros(count_total)
    with np.errstate(all="ignore"):
        zero = (dcount <= 0.0) | (p_t <= 0)
        one = ~zero & (p_t >= 1)
        low = ~zero & ~one & (p_t <= 0.5)
        high = ~zero & ~one & (p_t > 0.5)
        nan = ~zero & ~one & ~low & ~high
        res[one] = dcount[one]
        q_t = (np.ones((), p_t.dtype) - p_t).astype(p_t.dtype)
        for sel, pv, flip in ((low, p_t, False), (high, q_t, True)):
            big = sel & ((c_t * pv).astype(c_t.dtype if c_t.dtype == pv.dtype else np.result_type(c_t, pv)) >= 10)
            small = sel & ~big
            for mask, fn in ((big, _btrs), (small, _binomial_inversion)):
                ids = np.nonzero(mask)[0]
                if ids.size:
                    v = fn(key, counter, o[ids], dcount[ids], pv[ids].astype(np.float64))
                    res[ids] = dcount[ids] - v if flip else v
        res[nan] = np.nan
    out = res.reshape(num_batches, per_batch).T.reshape(-1)
    if np.dtype(np_dtype).kind in "iu":
        out = np.nan_to_num(out, nan=0.0)
    return out.astype(np_dtype).reshape(dims)


register_op("StatelessRandomBinomial", infer=_binomial_infer, kernel=_binomial_kernel, grad=NO_GRADIENT)


def stateless_random_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Outputs deterministic pseudorandom numbers from a binomial distribution
    (`tf.random.stateless_binomial`).

    The values are a pure function of the arguments, TF's (binomial inversion for a mean below 10,
    Hormann's BTRS above, each output reading its own part of the Philox stream of `seed`).

    Args:
      shape: A 1-D integer Tensor or Python array: the output shape, ending with the broadcast
        shape of `counts` and `probs`.
      seed: A shape [2] int32 or int64 Tensor, the seed.
      counts: A Tensor: the number of trials (broadcastable with `probs`).
      probs: A Tensor of the same type as `counts`: the success probabilities.
      output_dtype: The output type: float16, float32, float64, int32 or int64.
      name: A name for the operation (optional).

    Returns:
      A tensor of the specified shape: the number of successes (NaN, or 0 for an integer type, for a
      NaN probability).

    Raises:
      TypeError: On unsupported or mismatched types.
      InvalidArgumentError: At run time, if `shape` does not end with the broadcast shape.
    """
    output_dtype = dtypes.as_dtype(output_dtype)
    if output_dtype not in _POISSON_TYPES:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: float16, "
                        "float32, float64, int32, int64" % output_dtype.name)
    with ops.name_scope(name, "stateless_random_binomial", [shape, seed, counts, probs]) as name:
        shape = _shape_tensor(shape)
        seed = _seed_tensor(seed)
        probs = ops.convert_to_tensor(probs, dtype=None if ops.is_tensor(probs) else dtypes.float32, name="probs")
        counts = ops.convert_to_tensor(counts, dtype=None if ops.is_tensor(counts) else probs.dtype, name="counts")
        return ops.apply_op("StatelessRandomBinomial", [shape, seed, counts, probs], {"dtype": output_dtype},
                            name=name)


# ---- StatelessRandomGetKeyCounter / StatelessShuffle (TF 2's key/counter form) ---------------
_ALG_PHILOX, _ALG_AUTO_SELECT = 1, 3


def _get_key_counter_infer(op):
    _check_seed(op._inputs[0], "StatelessRandomGetKeyCounter")
    return [(dtypes.uint64, (1,)), (dtypes.uint64, (2,))]


def _get_key_counter_kernel(xp, seed):
    key, counter = _key_counter(seed)
    return (np.array([key[0] | (key[1] << 32)], np.uint64),
            np.array([counter[0] | (counter[1] << 32), counter[2] | (counter[3] << 32)], np.uint64))


register_op("StatelessRandomGetKeyCounter", infer=_get_key_counter_infer, kernel=_get_key_counter_kernel,
            grad=NO_GRADIENT)


def _key_counter_from_inputs(key, counter, alg):
    alg = int(alg)
    if alg not in (_ALG_PHILOX, _ALG_AUTO_SELECT):
        raise errors.InvalidArgumentError(None, None, "Unsupported algorithm id: %d" % alg)
    k, c = int(np.asarray(key).reshape(-1)[0]), [int(v) for v in np.asarray(counter).reshape(-1)[:2]]
    return (k & 0xFFFFFFFF, k >> 32), (c[0] & 0xFFFFFFFF, c[0] >> 32, c[1] & 0xFFFFFFFF, c[1] >> 32)


def _shuffle_infer(op):
    value, key, counter, alg = op._inputs
    for t, name in ((key, "key"), (counter, "counter")):
        if t.dtype is not dtypes.uint64:
            raise TypeError("Input '%s' of 'StatelessShuffle' Op has type %s that does not match expected type of "
                            "uint64." % (name, t.dtype.name))
    return [(value.dtype, value.shape.as_tuple())]


def _shuffle_kernel(xp, value, key, counter, alg):
    k, c = _key_counter_from_inputs(key, counter, alg)
    value = np.asarray(value)
    if value.size <= 1 or value.ndim == 0 or value.shape[0] <= 1:
        return value.copy()
    size = value.shape[0]
    words = philox.uniform_bits(k, c, size - 1).astype(np.int64)
    perm = np.arange(size)
    for i in range(size - 1):  # TF's ShuffleRange: swap i with i + word_i % (size - i)
        j = i + int(words[i] % (size - i))
        perm[i], perm[j] = perm[j], perm[i]
    return value[perm]


# TF registers no gradient for StatelessShuffle: tf.gradients through it raises LookupError, as TF.
register_op("StatelessShuffle", infer=_shuffle_infer, kernel=_shuffle_kernel)


def _get_key_counter_alg(seed, alg):
    value = getattr(alg, "value", alg)
    names = {None: _ALG_AUTO_SELECT, "auto_select": _ALG_AUTO_SELECT, "philox": _ALG_PHILOX, "threefry": 2}
    if isinstance(value, str) or value is None:
        if value not in names:
            raise ValueError("Argument `alg` got unsupported value %s. Supported values are philox for the Philox "
                             "algorithm, threefry for the ThreeFry algorithm, and auto_select for auto-selection."
                             % value)
        value = names[value]
    if value != _ALG_AUTO_SELECT and value != _ALG_PHILOX:
        raise NotImplementedError("alg=%r: only the Philox algorithm ('philox', 'auto_select') is implemented"
                                  % (alg,))
    key, counter = ops.apply_op("StatelessRandomGetKeyCounter", [_seed_tensor(seed)], {})
    return key, counter, ops.convert_to_tensor(value, dtype=dtypes.int32, name="alg")


def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """Randomly and deterministically shuffles a tensor along its first dimension
    (`tf.random.experimental.stateless_shuffle`).

    The permutation is a pure function of `seed` and the size, TF's (a Fisher-Yates shuffle
    driven by the Philox stream of `seed`).

    Args:
      value: A Tensor to be shuffled.
      seed: A shape [2] int32 or int64 Tensor, the seed.
      alg: The algorithm: "auto_select" or "philox" (the same on CPU).
      name: A name for the operation (optional).

    Returns:
      A tensor of the shape and type of `value`, shuffled along its first dimension.

    Raises:
      ValueError: For an unknown `alg`.
      NotImplementedError: For the ThreeFry algorithm.
    """
    with ops.name_scope(name, "stateless_shuffle", [value, seed]) as name:
        key, counter, alg_t = _get_key_counter_alg(seed, alg)
        value = ops.convert_to_tensor(value, name="value")
        return ops.apply_op("StatelessShuffle", [value, key, counter, alg_t], {}, name=name)
