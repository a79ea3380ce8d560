"""Scalar-event distributions of `tf.distributions` (TF 1.x formulas): Normal, Uniform, Laplace,
StudentT, Exponential, Gamma, Beta, Bernoulli and Categorical, with their KL divergences."""

import math

import numpy as np

from ..framework import dtypes, ops
from ..framework.tensor_shape import TensorShape
from .distribution import FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Distribution, RegisterKL

__all__ = ["Bernoulli", "Beta", "Categorical", "Exponential", "Gamma", "Laplace", "Normal", "StudentT", "Uniform"]


def _m():
    from ..ops import math_ops
    return math_ops


def _a():
    from ..ops import array_ops
    return array_ops


def _core():
    from ..ops import core_ops
    return core_ops


def _float_params(values, names, dtype=None):
    """The parameters as tensors of one float dtype.

    Raises:
      TypeError: If their dtypes differ or are not floating.
    """
    tensors = []
    for v, n in zip(values, names):
        t = ops.convert_to_tensor(v, name=n, dtype=dtype) if isinstance(v, ops.Tensor) or dtype is not None \
            else ops.convert_to_tensor(np.asarray(v, dtype=np.float32) if not isinstance(v, np.ndarray) or
                                       v.dtype.kind in "iub" else v, name=n)
        tensors.append(t)
    base = tensors[0].dtype.base_dtype
    for t in tensors:
        if t.dtype.base_dtype != base:
            raise TypeError("%s, type=%s, must be of the same type (%s)" % (t.name, t.dtype, base))
        if not t.dtype.is_floating:
            raise TypeError("%s, type=%s, must be a floating point type" % (t.name, t.dtype))
    return tensors


def _checked_params(values, names, validate_args, checks):
    """The parameters as float tensors (`_float_params`), made to depend on the assertions `checks(*tensors)`
    when `validate_args`, then each an `identity` named for its parameter."""
    tensors = _float_params(values, names)
    tensors = _with_checks(validate_args, lambda: checks(*tensors), tensors)
    return [_core().identity(t, name=n) for t, n in zip(tensors, names)]


def _broadcast_shape(*tensors):
    from ..ops.array_ops import broadcast_static_shape
    shape = tensors[0].shape
    for t in tensors[1:]:
        shape = broadcast_static_shape(shape, t.shape)
    return shape


def _broadcast_shape_tensor(*tensors):
    from ..ops import core_ops
    from ..ops.array_ops import broadcast_dynamic_shape
    shape = core_ops.shape(tensors[0])
    for t in tensors[1:]:
        shape = broadcast_dynamic_shape(shape, core_ops.shape(t))
    return shape


def _with_checks(validate_args, checks, tensors):
    """`tensors` made to depend on the assertion ops `checks()` when `validate_args`."""
    if not validate_args:
        return tensors
    from ..ops import core_ops
    with ops.control_dependencies(checks()):
        return [core_ops.identity(t) for t in tensors]


def _nan_where(cond, value, dtype, allow_nan_stats, message):
    """`value` with NaN where `cond` holds (allow_nan_stats), else asserting `cond` never holds."""
    from ..ops import check_ops, core_ops
    m, a = _m(), _a()
    if allow_nan_stats:
        nan = np.array(np.nan, dtype=dtype.as_numpy_dtype)
        return a.where(cond, a.fill(core_ops.shape(value), nan), value)
    with ops.control_dependencies([check_ops.Assert(m.logical_not(m.reduce_any(cond)), [message])]):
        return core_ops.identity(value)


def _ones_like_batch(d):
    return _a().ones(d.batch_shape_tensor(), dtype=d.dtype)


def _sample_shape(n, d):
    a = _a()
    return a.concat([a.reshape(ops.convert_to_tensor(n, dtype=dtypes.int32), [1]), d.batch_shape_tensor()], 0)


# ---- log ndtr, as TF's special_math --------------------------------------------------------------
def _ndtr(x):
    m = _m()
    return 0.5 * m.erfc(-x * (1.0 / math.sqrt(2.0)))


def _log_ndtr(x):
    """log(ndtr(x)), accurate for large |x|: -ndtr(-x) above `upper`, an asymptotic series below `lower`."""
    m, a = _m(), _a()
    if x.dtype.base_dtype == dtypes.float64:
        lower, upper = -20.0, 8.0
    else:
        lower, upper = -10.0, 5.0
    safe_mid = m.maximum(m.minimum(x, upper), lower)
    mid = m.log(_ndtr(safe_mid))
    high = -_ndtr(-m.maximum(x, upper))
    xl = m.minimum(x, lower)
    x2 = m.square(xl)
    # log(phi(x) / -x) + log(1 + sum_{n=1}^{3} (-1)^n (2n-1)!! / x^(2n))
    series = 1.0 - 1.0 / x2 + 3.0 / m.square(x2) - 15.0 / (x2 * m.square(x2))
    low = -0.5 * x2 - m.log(-xl) - 0.5 * math.log(2 * math.pi) + m.log(series)
    return a.where(x > upper, high, a.where(x > lower, mid, low))


class _LocScale(Distribution):
    """The `loc`/`scale` parameters, batch shape, mean and mode shared by Normal and Laplace."""

    def _init_loc_scale(self, loc, scale, validate_args, allow_nan_stats, parameters, name):
        from ..ops import check_ops
        with ops.name_scope(name, values=[loc, scale]) as name:
            self._loc, self._scale = _checked_params([loc, scale], ["loc", "scale"], validate_args,
                                                     lambda loc, scale: [check_ops.assert_positive(scale)])
        super().__init__(self._loc.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, [self._loc, self._scale], name)

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _batch_shape(self):
        return _broadcast_shape(self._loc, self._scale)

    def _batch_shape_tensor(self):
        return _broadcast_shape_tensor(self._loc, self._scale)

    def _mean(self):
        return self._loc * _ones_like_batch(self)

    def _mode(self):
        return self._mean()


# ---- Normal ---------------------------------------------------------------------------------------------
class Normal(_LocScale):
    """The normal distribution with mean `loc` and standard deviation `scale`.

    Args:
      loc: The means (float tensor).
      scale: The standard deviations (positive, same dtype).
      validate_args: Assert `scale > 0` at run time.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "Normal").

    Raises:
      TypeError: If `loc` and `scale` have different dtypes.
    """

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
        self._init_loc_scale(loc, scale, validate_args, allow_nan_stats, dict(locals()), name)

    @staticmethod
    def _param_shapes(sample_shape):
        return {"loc": sample_shape, "scale": sample_shape}

    def _z(self, x):
        return (x - self._loc) / self._scale

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        eps = random_ops.random_normal(_sample_shape(n, self), dtype=self.dtype, seed=seed)
        return eps * self._scale + self._loc

    def _log_prob(self, x):
        m = _m()
        return -0.5 * m.square(self._z(x)) - (0.5 * math.log(2.0 * math.pi) + m.log(self._scale))

    def _cdf(self, x):
        return _ndtr(self._z(x))

    def _log_cdf(self, x):
        return _log_ndtr(self._z(x))

    def _survival_function(self, x):
        return _ndtr(-self._z(x))

    def _log_survival_function(self, x):
        return _log_ndtr(-self._z(x))

    def _quantile(self, p):
        from ..ops.math_special_ops import ndtri
        return ndtri(p) * self._scale + self._loc

    def _entropy(self):
        return 0.5 * math.log(2.0 * math.pi * math.e) + _m().log(self._scale * _ones_like_batch(self))

    def _stddev(self):
        return self._scale * _ones_like_batch(self)


@RegisterKL(Normal, Normal)
def _kl_normal_normal(a, b, name=None):
    m = _m()
    with ops.name_scope(name, "kl_normal_normal", [a.loc, b.loc]):
        ratio = m.square(a.scale) / m.square(b.scale)
        return m.square(a.loc - b.loc) / (2.0 * m.square(b.scale)) + 0.5 * (ratio - 1.0 - m.log(ratio))


# ---- Uniform --------------------------------------------------------------------------------------------
class Uniform(Distribution):
    """The uniform distribution on `[low, high)`.

    Args:
      low: The lower bounds.
      high: The upper bounds (greater than `low`).
      validate_args: Assert `low < high` at run time.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "Uniform").
    """

    def __init__(self, low=0.0, high=1.0, validate_args=False, allow_nan_stats=True, name="Uniform"):
        parameters = dict(locals())
        from ..ops import check_ops
        with ops.name_scope(name, values=[low, high]) as name:
            self._low, self._high = _checked_params([low, high], ["low", "high"], validate_args,
                                                    lambda low, high: [check_ops.assert_less(
                                                        low, high, message="uniform not defined when low >= high.")])
        super().__init__(self._low.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._low, self._high], name)

    @property
    def low(self):
        return self._low

    @property
    def high(self):
        return self._high

    def range(self, name="range"):
        """`high - low`."""
        with self._name_scope(name):
            return self._high - self._low

    def _batch_shape(self):
        return _broadcast_shape(self._low, self._high)

    def _batch_shape_tensor(self):
        return _broadcast_shape_tensor(self._low, self._high)

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        u = random_ops.random_uniform(_sample_shape(n, self), dtype=self.dtype, seed=seed)
        return self._low + (self._high - self._low) * u

    def _prob(self, x):
        from ..ops import core_ops
        m, a = _m(), _a()
        x = x * core_ops.ones_like(self._low)
        zeros, ones = core_ops.zeros_like(x), core_ops.ones_like(x)
        inside = a.where(m.logical_or(x < self._low, x >= self._high), zeros, ones / (self._high - self._low))
        return a.where(m.is_nan(x), x, inside)

    def _cdf(self, x):
        from ..ops import core_ops
        a = _a()
        x = x * core_ops.ones_like(self._low)
        zeros, ones = core_ops.zeros_like(x), core_ops.ones_like(x)
        below = a.where(x < self._low, zeros, (x - self._low) / (self._high - self._low))
        return a.where(x >= self._high, ones, below)

    def _entropy(self):
        return _m().log(self._high - self._low)

    def _mean(self):
        return (self._low + self._high) / 2.0

    def _variance(self):
        return _m().square(self._high - self._low) / 12.0

    def _stddev(self):
        return (self._high - self._low) / math.sqrt(12.0)


# ---- Laplace --------------------------------------------------------------------------------------------
class Laplace(_LocScale):
    """The Laplace distribution with location `loc` and scale `scale`.

    Args:
      loc: The locations.
      scale: The scales (positive).
      validate_args: Assert `scale > 0` at run time.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "Laplace").
    """

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
        self._init_loc_scale(loc, scale, validate_args, allow_nan_stats, dict(locals()), name)

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        m = _m()
        low = np.nextafter(self.dtype.as_numpy_dtype(-1.0), self.dtype.as_numpy_dtype(1.0))
        u = random_ops.random_uniform(_sample_shape(n, self), minval=low, maxval=1.0, dtype=self.dtype, seed=seed)
        return self._loc - self._scale * m.sign(u) * m.log1p(-m.abs(u))

    def _log_prob(self, x):
        m = _m()
        return -math.log(2.0) - m.log(self._scale) - m.abs(x - self._loc) / self._scale

    def _cdf(self, x):
        m = _m()
        z = (x - self._loc) / self._scale
        return 0.5 - 0.5 * m.sign(z) * m.expm1(-m.abs(z))

    def _log_cdf(self, x):
        return _log_cdf_laplace((x - self._loc) / self._scale)

    def _log_survival_function(self, x):
        return _log_cdf_laplace((self._loc - x) / self._scale)

    def _entropy(self):
        m = _m()
        return math.log(2.0) + 1.0 + m.log(self._scale * _ones_like_batch(self))

    def _stddev(self):
        return math.sqrt(2.0) * self._scale * _ones_like_batch(self)


def _log_cdf_laplace(z):
    m, a = _m(), _a()
    lower = -math.log(2.0) + z
    upper = m.log1p(-0.5 * m.exp(-m.abs(z)))
    return a.where(z < 0.0, lower, upper)


# ---- StudentT -------------------------------------------------------------------------------------------
class StudentT(Distribution):
    """Student's t distribution with `df` degrees of freedom, location `loc` and scale `scale`.

    Args:
      df: Degrees of freedom (positive).
      loc: The locations.
      scale: The scales.
      validate_args: Assert `df > 0` at run time.
      allow_nan_stats: Return NaN for undefined statistics (mean for `df <= 1`, variance for `df <= 1`).
      name: The name scope (default "StudentT").
    """

    def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True, name="StudentT"):
        parameters = dict(locals())
        from ..ops import check_ops
        with ops.name_scope(name, values=[df, loc, scale]) as name:
            self._df, self._loc, self._scale = _checked_params(
                [df, loc, scale], ["df", "loc", "scale"], validate_args,
                lambda df, loc, scale: [check_ops.assert_positive(df)])
        super().__init__(self._df.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._df, self._loc, self._scale], name)

    @property
    def df(self):
        return self._df

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _batch_shape(self):
        return _broadcast_shape(self._df, self._loc, self._scale)

    def _batch_shape_tensor(self):
        return _broadcast_shape_tensor(self._df, self._loc, self._scale)

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        from ..ops.random_gamma_ops import random_gamma
        m = _m()
        shape = _sample_shape(n, self)
        normal = random_ops.random_normal(shape, dtype=self.dtype, seed=seed)
        df = self._df * _ones_like_batch(self)
        gamma = random_gamma([n], 0.5 * df, beta=0.5, dtype=self.dtype,
                             seed=None if seed is None else (seed * 7919 + 1) % (2 ** 31))
        return normal * m.rsqrt(gamma / df) * self._scale + self._loc

    def _log_prob(self, x):
        from ..ops.math_special_ops import lgamma
        m = _m()
        y = (x - self._loc) / self._scale
        unnormalized = -0.5 * (self._df + 1.0) * m.log1p(m.square(y) / self._df)
        normalization = (m.log(m.abs(self._scale)) + 0.5 * m.log(self._df) + 0.5 * math.log(math.pi)
                         + lgamma(0.5 * self._df) - lgamma(0.5 * (self._df + 1.0)))
        return unnormalized - normalization

    def _cdf(self, x):
        from ..ops import core_ops
        from ..ops.math_special_ops import betainc
        m, a = _m(), _a()
        y = (x - self._loc) / self._scale
        x_t = self._df / (m.square(y) + self._df)
        ones = core_ops.ones_like(x_t)
        neg_cdf = 0.5 * betainc(0.5 * self._df * ones, 0.5 * ones, x_t)
        return a.where(y < 0.0, neg_cdf, 1.0 - neg_cdf)

    def _entropy(self):
        from ..ops.math_special_ops import digamma, lbeta
        m, a = _m(), _a()
        v = _ones_like_batch(self)[..., None]
        u = v * self._df[..., None]
        beta_arg = a.concat([u, v], -1) / 2.0
        return (m.log(m.abs(self._scale)) + 0.5 * m.log(self._df) + lbeta(beta_arg)
                + 0.5 * (self._df + 1.0) * (digamma(0.5 * (self._df + 1.0)) - digamma(0.5 * self._df)))

    def _mean(self):
        mean = self._loc * _ones_like_batch(self)
        return _nan_where(self._df * _ones_like_batch(self) <= 1.0, mean, self.dtype, self.allow_nan_stats,
                          "mean not defined for components of df <= 1")

    def _mode(self):
        return self._loc * _ones_like_batch(self)

    def _variance(self):
        from ..ops import core_ops
        m, a = _m(), _a()
        df = self._df * _ones_like_batch(self)
        denom = a.where(df > 2.0, df - 2.0, core_ops.ones_like(df))
        var = m.square(self._scale) * df / denom
        inf = np.array(np.inf, dtype=self.dtype.as_numpy_dtype)
        var = a.where(df > 2.0, var, a.fill(core_ops.shape(df), inf))
        return _nan_where(df <= 1.0, var, self.dtype, self.allow_nan_stats,
                          "variance not defined for components of df <= 1")


# ---- Gamma and Exponential ------------------------------------------------------------------------
class Gamma(Distribution):
    """The gamma distribution with shape `concentration` and inverse scale `rate`.

    Args:
      concentration: The shape parameters (positive).
      rate: The inverse scales (positive).
      validate_args: Assert positive parameters at run time.
      allow_nan_stats: Return NaN for undefined statistics (the mode when `concentration < 1`).
      name: The name scope (default "Gamma").
    """

    def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True, name="Gamma"):
        parameters = dict(locals())
        from ..ops import check_ops
        with ops.name_scope(name, values=[concentration, rate]) as name:
            self._concentration, self._rate = _checked_params(
                [concentration, rate], ["concentration", "rate"], validate_args,
                lambda c, r: [check_ops.assert_positive(c), check_ops.assert_positive(r)])
        super().__init__(self._concentration.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, [self._concentration, self._rate], name)

    @property
    def concentration(self):
        return self._concentration

    @property
    def rate(self):
        return self._rate

    def _batch_shape(self):
        return _broadcast_shape(self._concentration, self._rate)

    def _batch_shape_tensor(self):
        return _broadcast_shape_tensor(self._concentration, self._rate)

    def _sample_n(self, n, seed=None):
        from ..ops.random_gamma_ops import random_gamma
        return random_gamma([n], self._concentration * _ones_like_batch(self), beta=self._rate, dtype=self.dtype,
                            seed=seed)

    def _log_prob(self, x):
        from ..ops.math_special_ops import lgamma, xlogy
        m = _m()
        return (xlogy(self._concentration - 1.0, x) - self._rate * x
                - (lgamma(self._concentration) - self._concentration * m.log(self._rate)))

    def _cdf(self, x):
        from ..ops import core_ops
        from ..ops.math_special_ops import igamma
        rx = self._rate * x
        return igamma(self._concentration * core_ops.ones_like(rx), rx)

    def _entropy(self):
        from ..ops.math_special_ops import digamma, lgamma
        m = _m()
        c = self._concentration
        return c - m.log(self._rate) + lgamma(c) + (1.0 - c) * digamma(c)

    def _mean(self):
        return self._concentration / self._rate

    def _variance(self):
        return self._concentration / _m().square(self._rate)

    def _stddev(self):
        return _m().sqrt(self._concentration) / self._rate

    def _mode(self):
        mode = (self._concentration - 1.0) / self._rate
        return _nan_where(self._concentration * _ones_like_batch(self) <= 1.0, mode, self.dtype, self.allow_nan_stats,
                          "mode not defined when any concentration <= 1")


class Exponential(Gamma):
    """The exponential distribution with rate `rate` (a Gamma with concentration 1).

    Args:
      rate: The rates (positive).
      validate_args: Assert `rate > 0` at run time.
      allow_nan_stats: Return NaN for undefined statistics (the mode, as for Gamma).
      name: The name scope (default "Exponential").
    """

    def __init__(self, rate, validate_args=False, allow_nan_stats=True, name="Exponential"):
        parameters = dict(locals())
        from ..ops import core_ops
        with ops.name_scope(name, values=[rate]) as name:
            rate = _float_params([rate], ["rate"])[0]
            self._rate_param = rate
        super().__init__(core_ops.ones_like(rate), rate, validate_args, allow_nan_stats, name=name)
        self._parameters = parameters
        self._parameters.pop("self", None)
        self._parameters.pop("__class__", None)

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        m = _m()
        tiny = np.finfo(self.dtype.as_numpy_dtype).tiny
        u = random_ops.random_uniform(_sample_shape(n, self), minval=tiny, maxval=1.0, dtype=self.dtype, seed=seed)
        return -m.log(u) / self._rate

    def _log_prob(self, x):
        m = _m()
        return m.log(self._rate) - self._rate * x

    def _cdf(self, x):
        return -_m().expm1(-self._rate * x)

    def _log_survival_function(self, x):
        return -self._rate * x

    def _entropy(self):
        return 1.0 - _m().log(self._rate)


# ---- Beta -----------------------------------------------------------------------------------------------
class Beta(Distribution):
    """The beta distribution on (0, 1) with concentrations `concentration1` (alpha) and `concentration0` (beta).

    Args:
      concentration1: Positive alpha parameters.
      concentration0: Positive beta parameters.
      validate_args: Assert positive parameters at run time.
      allow_nan_stats: Return NaN for undefined statistics (the mode when a concentration <= 1).
      name: The name scope (default "Beta").
    """

    def __init__(self, concentration1=None, concentration0=None, validate_args=False, allow_nan_stats=True,
                 name="Beta"):
        parameters = dict(locals())
        from ..ops import check_ops
        with ops.name_scope(name, values=[concentration1, concentration0]) as name:
            self._concentration1, self._concentration0 = _checked_params(
                [concentration1, concentration0], ["concentration1", "concentration0"], validate_args,
                lambda c1, c0: [check_ops.assert_positive(c1), check_ops.assert_positive(c0)])
            self._total_concentration = self._concentration1 + self._concentration0
        super().__init__(self._total_concentration.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, [self._concentration1, self._concentration0], name)

    @property
    def concentration1(self):
        return self._concentration1

    @property
    def concentration0(self):
        return self._concentration0

    @property
    def total_concentration(self):
        return self._total_concentration

    def _batch_shape(self):
        return self._total_concentration.shape

    def _batch_shape_tensor(self):
        from ..ops import core_ops
        return core_ops.shape(self._total_concentration)

    def _sample_n(self, n, seed=None):
        from ..ops.random_gamma_ops import random_gamma
        ones = _ones_like_batch(self)
        g1 = random_gamma([n], self._concentration1 * ones, dtype=self.dtype, seed=seed)
        g0 = random_gamma([n], self._concentration0 * ones, dtype=self.dtype,
                          seed=None if seed is None else (seed * 7919 + 1) % (2 ** 31))
        return g1 / (g1 + g0)

    def _log_normalization(self):
        from ..ops.math_special_ops import lgamma
        return lgamma(self._concentration1) + lgamma(self._concentration0) - lgamma(self._total_concentration)

    def _log_prob(self, x):
        from ..ops.math_special_ops import xlogy
        m = _m()
        return (xlogy(self._concentration1 - 1.0, x) + (self._concentration0 - 1.0) * m.log1p(-x)
                - self._log_normalization())

    def _cdf(self, x):
        from ..ops import core_ops
        from ..ops.math_special_ops import betainc
        ones = core_ops.ones_like(x * self._total_concentration)
        return betainc(self._concentration1 * ones, self._concentration0 * ones, x * ones)

    def _entropy(self):
        from ..ops.math_special_ops import digamma
        c1, c0, total = self._concentration1, self._concentration0, self._total_concentration
        return (self._log_normalization() - (c1 - 1.0) * digamma(c1) - (c0 - 1.0) * digamma(c0)
                + (total - 2.0) * digamma(total))

    def _mean(self):
        return self._concentration1 / self._total_concentration

    def _variance(self):
        mean = self._mean()
        return mean * (1.0 - mean) / (1.0 + self._total_concentration)

    def _mode(self):
        m = _m()
        mode = (self._concentration1 - 1.0) / (self._total_concentration - 2.0)
        undefined = m.logical_or(self._concentration1 <= 1.0, self._concentration0 <= 1.0)
        return _nan_where(undefined, mode, self.dtype, self.allow_nan_stats,
                          "Mode undefined for concentration1 <= 1 or concentration0 <= 1.")


# ---- Bernoulli and Categorical ----------------------------------------------------------------------
def _logits_and_probs(logits, probs, multidimensional, name):
    """Both parameterizations from whichever is given (TF's `get_logits_and_probs`).

    Raises:
      ValueError: If both or neither is given.
    """
    from ..ops import nn_ops
    m = _m()
    if (logits is None) == (probs is None):
        raise ValueError("Must pass probs or logits, but not both.")
    with ops.name_scope(name, "get_logits_and_probs", [probs, logits]):
        if probs is None:
            logits = _float_params([logits], ["logits"])[0]
            probs = nn_ops.softmax(logits, name="probs") if multidimensional else m.sigmoid(logits, name="probs")
            return logits, probs
        probs = _float_params([probs], ["probs"])[0]
        if multidimensional:
            return m.log(probs, name="logits"), probs
        return m.log(probs) - m.log1p(-probs), probs


class _LogitsProbs(Distribution):
    """The `logits`/`probs` parameterization shared by Bernoulli and Categorical."""

    def _init_logits_probs(self, logits, probs, multidimensional, dtype, validate_args, allow_nan_stats, parameters,
                           name):
        with ops.name_scope(name) as name:
            self._logits, self._probs = _logits_and_probs(logits, probs, multidimensional, name)
        super().__init__(dtypes.as_dtype(dtype), NOT_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, [self._logits, self._probs], name)

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _convert(self, value, name):
        return ops.convert_to_tensor(value, name=name)


class Bernoulli(_LogitsProbs):
    """The Bernoulli distribution of `{0, 1}` outcomes, given `logits` or `probs` of 1.

    Args:
      logits: Log-odds of a 1.
      probs: Probabilities of a 1 (give exactly one of the two).
      dtype: The dtype of samples (default int32).
      validate_args: Accepted for TF's signature.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "Bernoulli").

    Raises:
      ValueError: If both or neither of `logits` and `probs` are given.
    """

    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False, allow_nan_stats=True,
                 name="Bernoulli"):
        self._init_logits_probs(logits, probs, False, dtype, validate_args, allow_nan_stats, dict(locals()), name)

    def _batch_shape(self):
        return self._logits.shape

    def _batch_shape_tensor(self):
        from ..ops import core_ops
        return core_ops.shape(self._logits)

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        m = _m()
        u = random_ops.random_uniform(_sample_shape(n, self), dtype=self._probs.dtype, seed=seed)
        return m.cast(m.less(u, self._probs), self.dtype)

    def _log_prob(self, event):
        from ..ops import core_ops
        from ..ops.nn_ops import sigmoid_cross_entropy_with_logits
        m = _m()
        event = m.cast(event, self._logits.dtype)
        logits = self._logits
        if not (event.shape.is_fully_defined() and logits.shape.is_fully_defined()
                and event.shape == logits.shape):
            logits = core_ops.ones_like(event) * logits
            event = core_ops.ones_like(logits) * event
        return -sigmoid_cross_entropy_with_logits(labels=event, logits=logits)

    def _entropy(self):
        from ..ops.nn_ops import softplus
        m = _m()
        return -self._logits * (m.sigmoid(self._logits) - 1.0) + softplus(-self._logits)

    def _mean(self):
        return _core().identity(self._probs)

    def _variance(self):
        mean = self._mean()
        return mean * (1.0 - mean)

    def _mode(self):
        m = _m()
        return m.cast(self._probs > 0.5, self.dtype)


@RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a, b, name=None):
    from ..ops.nn_ops import softplus
    m = _m()
    with ops.name_scope(name, "kl_bernoulli_bernoulli", [a.logits, b.logits]):
        delta_probs0 = softplus(-b.logits) - softplus(-a.logits)
        delta_probs1 = softplus(b.logits) - softplus(a.logits)
        return m.sigmoid(a.logits) * delta_probs0 + m.sigmoid(-a.logits) * delta_probs1


class Categorical(_LogitsProbs):
    """The categorical distribution over `{0, ..., K-1}`, given `logits` or `probs` on the last axis.

    Args:
      logits: Unnormalized log probabilities `[..., K]`.
      probs: Probabilities `[..., K]` (give exactly one of the two).
      dtype: The dtype of samples (default int32).
      validate_args: Accepted for TF's signature.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "Categorical").

    Raises:
      ValueError: If both or neither of `logits` and `probs` are given.
    """

    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False, allow_nan_stats=True,
                 name="Categorical"):
        self._init_logits_probs(logits, probs, True, dtype, validate_args, allow_nan_stats, dict(locals()), name)

    @property
    def event_size(self):
        """The number of classes K (a Python int when static)."""
        k = self._logits.shape[-1]
        k = getattr(k, "value", k)
        if k is not None:
            return k
        from ..ops import core_ops
        return core_ops.shape(self._logits)[-1]

    def _batch_shape(self):
        shape = self._logits.shape
        return TensorShape(None) if shape.ndims is None else TensorShape(shape.as_list()[:-1])

    def _batch_shape_tensor(self):
        from ..ops import core_ops
        return core_ops.shape(self._logits)[:-1]

    def _flat_logits(self):
        a = _a()
        return a.reshape(self._logits, a.stack([-1, ops.convert_to_tensor(self.event_size, dtype=dtypes.int32)]))

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        m, a = _m(), _a()
        draws = random_ops.multinomial(self._flat_logits(), n, seed=seed, output_dtype=dtypes.int64)
        draws = m.cast(a.transpose(draws), self.dtype)
        return a.reshape(draws, _sample_shape(n, self))

    def _log_prob(self, k):
        from ..ops import core_ops
        from ..ops.nn_ops import sparse_softmax_cross_entropy_with_logits
        m = _m()
        k = m.cast(k, dtypes.int32)
        logits = self._logits
        if not (k.shape.is_fully_defined() and logits.shape.is_fully_defined()
                and k.shape.as_list() == logits.shape.as_list()[:-1]):
            logits = logits * core_ops.ones_like(m.cast(k, logits.dtype))[..., None]
            k = k * m.cast(core_ops.ones_like(logits[..., 0]), dtypes.int32)
        return -sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _cdf(self, k):
        # P(X < k), as TF: the probabilities of the classes below k.
        from ..ops import core_ops
        m, a = _m(), _a()
        k = m.cast(k, dtypes.int32)
        probs = self._probs
        if not (k.shape.is_fully_defined() and probs.shape.is_fully_defined()
                and k.shape.as_list() == probs.shape.as_list()[:-1]):
            probs = probs * core_ops.ones_like(m.cast(k, probs.dtype))[..., None]
            k = k * m.cast(core_ops.ones_like(probs[..., 0]), dtypes.int32)
        classes = a.range(0, ops.convert_to_tensor(self.event_size, dtype=dtypes.int32))
        below = m.less(classes, k[..., None])
        return m.reduce_sum(a.where(below, probs, core_ops.zeros_like(probs)), axis=-1)

    def _entropy(self):
        from ..ops.nn_ops import log_softmax, softmax
        m = _m()
        return -m.reduce_sum(softmax(self._logits) * log_softmax(self._logits), axis=-1)

    def _mode(self):
        m = _m()
        return m.cast(m.argmax(self._logits, axis=-1), self.dtype)


@RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a, b, name=None):
    from ..ops.nn_ops import log_softmax, softmax
    m = _m()
    with ops.name_scope(name, "kl_categorical_categorical", [a.logits, b.logits]):
        return m.reduce_sum(softmax(a.logits) * (log_softmax(a.logits) - log_softmax(b.logits)), axis=-1)


@RegisterKL(Beta, Beta)
def _kl_beta_beta(d1, d2, name=None):
    from ..ops.math_special_ops import digamma
    with ops.name_scope(name, "kl_beta_beta", [d1.total_concentration, d2.total_concentration]):
        return (d2._log_normalization() - d1._log_normalization()
                - digamma(d1.concentration1) * (d2.concentration1 - d1.concentration1)
                - digamma(d1.concentration0) * (d2.concentration0 - d1.concentration0)
                + digamma(d1.total_concentration) * (d2.total_concentration - d1.total_concentration))


@RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(g0, g1, name=None):
    from ..ops.math_special_ops import digamma, lgamma
    m = _m()
    with ops.name_scope(name, "kl_gamma_gamma", [g0.concentration, g1.concentration]):
        return ((g0.concentration - g1.concentration) * digamma(g0.concentration)
                + lgamma(g1.concentration) - lgamma(g0.concentration)
                + g1.concentration * m.log(g0.rate) - g1.concentration * m.log(g1.rate)
                + g0.concentration * (g1.rate / g0.rate - 1.0))
