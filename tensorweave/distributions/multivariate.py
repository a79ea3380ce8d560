"""Vector-event distributions of `tf.distributions` (TF 1.x formulas): Dirichlet, Multinomial and
DirichletMultinomial, with the Dirichlet KL divergence."""


from ..framework import dtypes, ops
from ..framework.tensor_shape import TensorShape
from .distribution import FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Distribution, RegisterKL
from .univariate import _checked_params, _core, _float_params, _logits_and_probs, _m, _nan_where

__all__ = ["Dirichlet", "DirichletMultinomial", "Multinomial"]


def _lbeta(x):
    from ..ops.math_special_ops import lbeta
    return lbeta(x)


def _log_combinations(n, counts):
    """log(n! / prod(counts_i!)) over the last axis."""
    from ..ops.math_special_ops import lgamma
    m = _m()
    return lgamma(n + 1.0) - m.reduce_sum(lgamma(counts + 1.0), axis=-1)


def _split_shapes(t):
    """(batch shape, event shape) of a `[..., K]` parameter, static."""
    shape = t.shape
    if shape.ndims is None:
        return TensorShape(None), TensorShape([None])
    dims = shape.as_list()
    return TensorShape(dims[:-1]), TensorShape(dims[-1:])


def _covariance_from(mean_scaled, p, variance):
    """`-mean_scaled_i * p_j` off the diagonal and `variance` on it, per batch member."""
    from ..ops.linalg_diag_ops import matrix_set_diag
    m = _m()
    return matrix_set_diag(-m.matmul(mean_scaled[..., :, None], p[..., None, :]), variance)


class _CountsShapes(Distribution):
    """Batch and event shapes read off `self._shape_ref`, a `[..., K]` tensor of the full batch."""

    def _batch_shape(self):
        return _split_shapes(self._shape_ref)[0]

    def _event_shape(self):
        return _split_shapes(self._shape_ref)[1]

    def _batch_shape_tensor(self):
        from ..ops import core_ops
        return core_ops.shape(self._shape_ref)[:-1]

    def _event_shape_tensor(self):
        from ..ops import core_ops
        return core_ops.shape(self._shape_ref)[-1:]


class Dirichlet(Distribution):
    """The Dirichlet distribution on the simplex of `K` components, with positive `concentration` `[..., K]`.

    Args:
      concentration: The concentrations (alpha), last axis the components.
      validate_args: Assert positive concentrations at run time.
      allow_nan_stats: Return NaN for undefined statistics (the mode when a concentration <= 1).
      name: The name scope (default "Dirichlet").
    """

    def __init__(self, concentration, validate_args=False, allow_nan_stats=True, name="Dirichlet"):
        parameters = dict(locals())
        from ..ops import check_ops
        with ops.name_scope(name, values=[concentration]) as name:
            self._concentration = _checked_params([concentration], ["concentration"], validate_args,
                                                  lambda c: [check_ops.assert_positive(c)])[0]
            self._total_concentration = _m().reduce_sum(self._concentration, axis=-1)
        super().__init__(self._concentration.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, [self._concentration], name)

    @property
    def concentration(self):
        return self._concentration

    @property
    def total_concentration(self):
        return self._total_concentration

    def _batch_shape(self):
        return _split_shapes(self._concentration)[0]

    def _event_shape(self):
        return _split_shapes(self._concentration)[1]

    def _batch_shape_tensor(self):
        from ..ops import core_ops
        return core_ops.shape(self._total_concentration)

    def _event_shape_tensor(self):
        from ..ops import core_ops
        return core_ops.shape(self._concentration)[-1:]

    def _sample_n(self, n, seed=None):
        from ..ops.random_gamma_ops import random_gamma
        gamma = random_gamma([n], self._concentration, dtype=self.dtype, seed=seed)
        return gamma / _m().reduce_sum(gamma, axis=-1, keepdims=True)

    def _log_prob(self, x):
        from ..ops.math_special_ops import xlogy
        m = _m()
        return m.reduce_sum(xlogy(self._concentration - 1.0, x), axis=-1) - _lbeta(self._concentration)

    def _entropy(self):
        from ..ops import core_ops
        from ..ops.math_special_ops import digamma
        m = _m()
        k = m.cast(core_ops.shape(self._concentration)[-1], self.dtype)
        total = self._total_concentration
        return (_lbeta(self._concentration) + (total - k) * digamma(total)
                - m.reduce_sum((self._concentration - 1.0) * digamma(self._concentration), axis=-1))

    def _mean(self):
        return self._concentration / self._total_concentration[..., None]

    def _covariance(self):
        total = self._total_concentration[..., None]
        mean = self._mean()
        scale = 1.0 / (1.0 + total)
        return _covariance_from(mean * scale, mean, mean * (1.0 - mean) * scale)

    def _variance(self):
        total = self._total_concentration[..., None]
        mean = self._mean()
        return mean * (1.0 - mean) / (1.0 + total)

    def _mode(self):
        from ..ops import core_ops
        m = _m()
        k = m.cast(core_ops.shape(self._concentration)[-1], self.dtype)
        mode = (self._concentration - 1.0) / (self._total_concentration[..., None] - k)
        any_small = m.cast(m.reduce_any(self._concentration <= 1.0, axis=-1, keepdims=True), self.dtype)
        undefined = m.greater(any_small * core_ops.ones_like(mode), 0.5)
        return _nan_where(undefined, mode, self.dtype, self.allow_nan_stats,
                          "Mode undefined when any concentration <= 1")


@RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(d1, d2, name=None):
    from ..ops.math_special_ops import digamma
    m = _m()
    with ops.name_scope(name, "kl_dirichlet_dirichlet", [d1.concentration, d2.concentration]):
        digamma_diff = digamma(d1.concentration) - digamma(d1.total_concentration)[..., None]
        return (m.reduce_sum((d1.concentration - d2.concentration) * digamma_diff, axis=-1)
                - _lbeta(d1.concentration) + _lbeta(d2.concentration))


class Multinomial(_CountsShapes):
    """The multinomial distribution of `total_count` draws over `K` classes, given `logits` or `probs` `[..., K]`.

    Args:
      total_count: The number of draws (non-negative float, broadcast against the batch).
      logits: Unnormalized log probabilities of the classes.
      probs: Probabilities of the classes (give exactly one of the two).
      validate_args: Accepted for TF's signature.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "Multinomial").

    Raises:
      ValueError: If both or neither of `logits` and `probs` are given.
    """

    def __init__(self, total_count, logits=None, probs=None, validate_args=False, allow_nan_stats=True,
                 name="Multinomial"):
        parameters = dict(locals())
        with ops.name_scope(name, values=[total_count, logits, probs]) as name:
            self._logits, self._probs = _logits_and_probs(logits, probs, True, name)
            self._total_count = _float_params([total_count], ["total_count"], dtype=self._probs.dtype)[0]
            self._mean_val = self._total_count[..., None] * self._probs
            self._shape_ref = self._mean_val
        super().__init__(self._probs.dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._total_count, self._logits, self._probs], name)

    @property
    def total_count(self):
        return self._total_count

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _sample_n(self, n, seed=None):
        return _multinomial_counts(n, self._total_count, self._logits, self, seed)

    def _log_prob(self, counts):
        from ..ops.nn_ops import log_softmax
        m = _m()
        return m.reduce_sum(counts * log_softmax(self._logits), axis=-1) + _log_combinations(self._total_count,
                                                                                             counts)

    def _mean(self):
        return _core().identity(self._mean_val)

    def _variance(self):
        return self._mean_val * (1.0 - self._probs)

    def _covariance(self):
        from ..ops import core_ops
        p = self._probs * core_ops.ones_like(self._mean_val)
        return _covariance_from(self._mean_val, p, self._variance())


def _multinomial_counts(n, total_count, logits, dist, seed):
    """`n` samples of per-class counts: `max(total_count)` categorical draws per batch member, of which the
    first `total_count` are counted."""
    from ..ops import array_ops, core_ops, random_ops
    m = _m()
    k = core_ops.shape(logits)[-1]
    batch = dist.batch_shape_tensor()
    logits = logits * array_ops.ones(array_ops.concat([batch, [1]], 0), dtype=logits.dtype)
    flat_logits = array_ops.reshape(logits, array_ops.stack([-1, k]))
    counts_flat = array_ops.reshape(total_count * array_ops.ones(batch, dtype=total_count.dtype), [-1])
    max_count = m.cast(m.reduce_max(counts_flat), dtypes.int32)
    draws = random_ops.multinomial(flat_logits, n * max_count, seed=seed, output_dtype=dtypes.int32)
    draws = array_ops.reshape(draws, array_ops.stack([-1, n, max_count]))          # [B, n, max]
    keep = m.less(m.cast(array_ops.range(max_count), total_count.dtype), counts_flat[:, None, None])
    one_hot = array_ops.one_hot(draws, k, dtype=total_count.dtype) * m.cast(keep, total_count.dtype)[..., None]
    counts = m.reduce_sum(one_hot, axis=2)                                            # [B, n, K]
    counts = array_ops.transpose(counts, [1, 0, 2])
    return array_ops.reshape(counts, array_ops.concat([[n], batch, [k]], 0))


class DirichletMultinomial(_CountsShapes):
    """The Dirichlet-multinomial distribution: `total_count` draws with class probabilities from a Dirichlet.

    Args:
      total_count: The number of draws (non-negative float).
      concentration: The Dirichlet concentrations `[..., K]`.
      validate_args: Assert positive concentrations at run time.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "DirichletMultinomial").
    """

    def __init__(self, total_count, concentration, validate_args=False, allow_nan_stats=True,
                 name="DirichletMultinomial"):
        parameters = dict(locals())
        from ..ops import check_ops
        with ops.name_scope(name, values=[total_count, concentration]) as name:
            self._concentration = _checked_params([concentration], ["concentration"], validate_args,
                                                  lambda c: [check_ops.assert_positive(c)])[0]
            self._total_count = _float_params([total_count], ["total_count"], dtype=self._concentration.dtype)[0]
            self._total_concentration = _m().reduce_sum(self._concentration, axis=-1)
            self._shape_ref = self._total_count[..., None] * self._concentration
        super().__init__(self._concentration.dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._total_count, self._concentration], name)

    @property
    def total_count(self):
        return self._total_count

    @property
    def concentration(self):
        return self._concentration

    @property
    def total_concentration(self):
        return self._total_concentration

    def _sample_n(self, n, seed=None):
        from ..ops import array_ops, core_ops
        from ..ops.random_gamma_ops import random_gamma
        m = _m()
        gamma = random_gamma([n], self._concentration * core_ops.ones_like(self._shape_ref), dtype=self.dtype,
                             seed=seed)
        logits = m.log(gamma) - m.log(m.reduce_sum(gamma, axis=-1, keepdims=True))    # [n, B..., K]
        total = self._total_count * core_ops.ones_like(logits[..., 0])                  # [n, B...]
        counts = _multinomial_counts(1, total, logits, _Batch(logits),
                                     None if seed is None else (seed * 7919 + 1) % (2 ** 31))
        return array_ops.reshape(counts, core_ops.shape(logits))

    def _log_prob(self, counts):
        return (_lbeta(self._concentration + counts) - _lbeta(self._concentration)
                + _log_combinations(self._total_count, counts))

    def _mean(self):
        return self._total_count[..., None] * self._concentration / self._total_concentration[..., None]

    def _variance(self):
        n = self._total_count[..., None]
        a = self._total_concentration[..., None]
        p = self._concentration / a
        return n * p * (1.0 - p) * (n + a) / (1.0 + a)

    def _covariance(self):
        n = self._total_count[..., None]
        a = self._total_concentration[..., None]
        p = self._concentration / a
        scale = (n + a) / (1.0 + a)
        return _covariance_from(n * p * scale, p, self._variance())


class _Batch:
    """The batch-shape view `_multinomial_counts` needs, for logits whose leading axes are all batch."""

    def __init__(self, logits):
        self._logits = logits

    def batch_shape_tensor(self):
        from ..ops import core_ops
        return core_ops.shape(self._logits)[:-1]

