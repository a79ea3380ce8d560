"""`tf.contrib.distributions`: the `tf.distributions` classes plus TF 1.15 contrib's multivariate normals
(`MultivariateNormalDiag`, `MultivariateNormalTriL`, `MultivariateNormalFullCovariance`,
`MultivariateNormalDiagWithSoftplusScale`), `NormalWithSoftplusScale`, `OneHotCategorical`, `Poisson`,
`Logistic`, the Concrete relaxations (`ExpRelaxedOneHotCategorical`, `RelaxedOneHotCategorical`,
`RelaxedBernoulli`), `Independent` and `MixtureSameFamily`.

A multivariate normal is `loc + scale @ z` with `z` standard normal and `scale` lower triangular
(diagonal for `MultivariateNormalDiag`): `log_prob(x) = -|scale^-1 (x - loc)|^2 / 2 - k log(2 pi) / 2
- log|det scale|`, `covariance = scale scale^T`, and the KL divergence between two of them is TF's
closed form `(tr(S_b^-1 S_a S_a^T S_b^-T) + |S_b^-1 (loc_b - loc_a)|^2 - k) / 2 + log|det S_b| -
log|det S_a|`.
"""

import math as _math

import numpy as _np

from ..distributions import (
    FULLY_REPARAMETERIZED,
    NOT_REPARAMETERIZED,
    Bernoulli,
    Beta,
    Categorical,
    Dirichlet,
    DirichletMultinomial,
    Distribution,
    Exponential,
    Gamma,
    Laplace,
    Multinomial,
    Normal,
    RegisterKL,
    ReparameterizationType,
    StudentT,
    Uniform,
    kl_divergence,
)
from ..framework import dtypes as _dtypes
from ..framework import ops as _ops
from ..framework.tensor_shape import TensorShape as _TensorShape
from ..ops import array_ops as _array_ops
from ..ops import core_ops as _core_ops
from ..ops import math_ops as _math_ops
from ..variables import Variable as _Variable

__all__ = ["Bernoulli", "Beta", "Categorical", "Dirichlet", "DirichletMultinomial", "Distribution", "Exponential",
           "FULLY_REPARAMETERIZED", "Gamma", "Laplace", "Multinomial", "MultivariateNormalDiag",
           "MultivariateNormalFullCovariance", "MultivariateNormalTriL", "NOT_REPARAMETERIZED", "Normal",
           "RegisterKL", "ReparameterizationType", "StudentT", "Uniform", "kl_divergence"]


def _zeros_batch(t, drop):
    """Zeros of `t`'s shape without its last `drop` axes (for explicit broadcasting)."""
    z = _core_ops.zeros_like(t)
    for _ in range(drop):
        z = z[..., 0]
    return z


def _tril_solve(tril, rhs):
    """`tril^-1 rhs` for lower-triangular `[..., k, k]` and `[..., k, m]`, broadcasting the batch dims."""
    from ..ops.linalg_core_ops import matrix_triangular_solve
    tril_b = tril + _zeros_batch(rhs, 2)[..., None, None]
    rhs_b = rhs + _zeros_batch(tril, 2)[..., None, None]
    return matrix_triangular_solve(tril_b, rhs_b, lower=True)


def _float_params(values, names):
    """The parameters as tensors of one float dtype: that of the first tensor, variable or float array
    among them (Python numbers and lists follow it; float32 when there is none).

    Raises:
      TypeError: If their dtypes differ or are not floating.
    """
    dtype = None
    for v in values:
        if isinstance(v, (_ops.Tensor, _Variable)) or (isinstance(v, _np.ndarray) and v.dtype.kind == "f"):
            dtype = _dtypes.as_dtype(v.dtype).base_dtype
            break
    dtype = dtype or _dtypes.float32
    out = []
    for v, n in zip(values, names):
        if isinstance(v, (_ops.Tensor, _Variable)):
            t = _ops.convert_to_tensor(v, name=n)
        else:
            t = _ops.convert_to_tensor(_np.asarray(v, dtype=dtype.as_numpy_dtype), name=n)
        if t.dtype.base_dtype != dtype:
            raise TypeError("%s, type=%s, must be of the same type (%s)" % (t.name, t.dtype, dtype))
        if not t.dtype.is_floating:
            raise TypeError("%s, type=%s, must be a floating point type" % (t.name, t.dtype))
        out.append(t)
    return out


def _assert_nonzero(diag):
    from ..ops import check_ops
    return check_ops.Assert(_math_ops.reduce_all(_math_ops.not_equal(diag, 0.0)),
                            ["Singular operator: diagonal contained zero values."])


class _MultivariateNormalTriLBase(Distribution):
    """A multivariate normal `loc + scale_tril @ z` (the shared maths of the contrib MVN classes)."""

    def _init(self, loc, tril, diag, validate_args, allow_nan_stats, parameters, name):
        self._loc = loc
        self._scale_tril = tril
        self._scale_diag = diag
        graph_parents = [t for t in (loc, tril) if t is not None]
        dtype = graph_parents[0].dtype
        super().__init__(dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters, graph_parents,
                         name)

    @property
    def loc(self):
        """The mean vector(s), `[..., k]`."""
        return self._loc

    @property
    def scale(self):
        """The scale as a `LinearOperator` (`LinearOperatorDiag` or `LinearOperatorLowerTriangular`)."""
        from ..linalg_operators.basic import LinearOperatorDiag, LinearOperatorLowerTriangular
        if self._scale_diag is not None:
            return LinearOperatorDiag(self._scale_diag, is_non_singular=True)
        return LinearOperatorLowerTriangular(self._scale_tril, is_non_singular=True)

    def _k(self):
        return self._scale_tril.shape[-1] if self._scale_tril.shape.ndims is not None else None

    def _batch_shape(self):
        from ..ops.array_ops import broadcast_static_shape
        tril = self._scale_tril.shape
        tril_batch = _TensorShape(None) if tril.ndims is None else _TensorShape(tril.as_list()[:-2])
        if self._loc is None:
            return tril_batch
        loc = self._loc.shape
        loc_batch = _TensorShape(None) if loc.ndims is None else _TensorShape(loc.as_list()[:-1])
        return broadcast_static_shape(loc_batch, tril_batch)

    def _batch_shape_tensor(self):
        return _core_ops.shape(self._log_det_scale())

    def _event_shape(self):
        return _TensorShape([self._k()])

    def _event_shape_tensor(self):
        return _core_ops.shape(self._scale_tril)[-1:]

    def _loc_or_zero(self):
        if self._loc is not None:
            return self._loc
        return _zeros_batch(self._scale_tril, 1)

    def _log_det_scale(self):
        """`log|det scale|`, broadcast to the batch shape."""
        from ..ops.linalg_diag_ops import matrix_diag_part
        ld = _math_ops.reduce_sum(_math_ops.log(_math_ops.abs(matrix_diag_part(self._scale_tril))), axis=-1)
        return ld + _zeros_batch(self._loc_or_zero(), 1)

    def _num_dims(self):
        return _math_ops.cast(_core_ops.shape(self._scale_tril)[-1], self.dtype)

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        loc = self._loc_or_zero() + _zeros_batch(self._scale_tril, 1)
        shape = _array_ops.concat([[n], _core_ops.shape(loc)], 0)
        z = random_ops.random_normal(shape, dtype=self.dtype, seed=seed)
        return loc + _math_ops.reduce_sum(self._scale_tril * z[..., None, :], axis=-1)

    def _log_prob(self, x):
        d = x - self._loc_or_zero()
        z = _tril_solve(self._scale_tril, d[..., None])[..., 0]
        return (-0.5 * _math_ops.reduce_sum(_math_ops.square(z), axis=-1)
                - 0.5 * self._num_dims() * _math.log(2.0 * _math.pi) - self._log_det_scale())

    def _entropy(self):
        return 0.5 * self._num_dims() * (1.0 + _math.log(2.0 * _math.pi)) + self._log_det_scale()

    def _mean(self):
        return self._loc_or_zero() + _zeros_batch(self._scale_tril, 1)

    def _mode(self):
        return self._mean()

    def _covariance(self):
        cov = _math_ops.matmul(self._scale_tril, self._scale_tril, transpose_b=True)
        return cov + _zeros_batch(self._loc_or_zero(), 1)[..., None, None]

    def _variance(self):
        return (_math_ops.reduce_sum(_math_ops.square(self._scale_tril), axis=-1)
                + _zeros_batch(self._loc_or_zero(), 1)[..., None])

    def _stddev(self):
        return _math_ops.sqrt(self._variance())


class MultivariateNormalTriL(_MultivariateNormalTriLBase):
    """The multivariate normal with mean `loc` and covariance `scale_tril @ scale_tril^T`.

    Args:
      loc: Floating tensor `[..., k]` of means, or None (zeros).
      scale_tril: Floating tensor `[..., k, k]`, lower triangular with a non-zero diagonal (the part
        above the diagonal is ignored), or None (the identity; then `loc` is required).
      validate_args: Assert a non-zero diagonal at run time.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "MultivariateNormalTriL").

    Raises:
      ValueError: If `loc` and `scale_tril` are both None.
    """

    def __init__(self, loc=None, scale_tril=None, validate_args=False, allow_nan_stats=True,
                 name="MultivariateNormalTriL"):
        parameters = dict(locals())
        if loc is None and scale_tril is None:
            raise ValueError("Must specify one or both of `loc`, `scale_tril`.")
        with _ops.name_scope(name, values=[loc, scale_tril]) as name:
            vals = [v for v in (loc, scale_tril) if v is not None]
            names = [n for v, n in ((loc, "loc"), (scale_tril, "scale_tril")) if v is not None]
            conv = dict(zip(names, _float_params(vals, names)))
            loc_t = conv.get("loc")
            if scale_tril is None:
                k = _core_ops.shape(loc_t)[-1]
                from ..ops.linalg_diag_ops import eye
                tril = eye(k, dtype=loc_t.dtype)
                static_k = loc_t.shape[-1] if loc_t.shape.ndims is not None else None
                if static_k is not None:
                    tril = _array_ops.reshape(tril, [static_k, static_k])
            else:
                from ..ops.linalg_diag_ops import matrix_band_part
                tril = matrix_band_part(conv["scale_tril"], -1, 0)
                if validate_args:
                    from ..ops.linalg_diag_ops import matrix_diag_part
                    with _ops.control_dependencies([_assert_nonzero(matrix_diag_part(tril))]):
                        tril = _core_ops.identity(tril)
            self._init(loc_t, tril, None, validate_args, allow_nan_stats, parameters, name)


class MultivariateNormalDiag(_MultivariateNormalTriLBase):
    """The multivariate normal with mean `loc` and diagonal scale `diag(scale_diag + scale_identity_multiplier)`.

    Args:
      loc: Floating tensor `[..., k]` of means, or None (zeros).
      scale_diag: Floating tensor `[..., k]`: the diagonal of the scale, or None.
      scale_identity_multiplier: A floating scalar added to the diagonal (or the whole scale when
        `scale_diag` is None), or None. With both None the scale is the identity.
      validate_args: Assert a non-zero diagonal at run time.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "MultivariateNormalDiag").

    Raises:
      ValueError: If `loc` and `scale_diag` are both None (the dimension is unknown).
    """

    def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None, validate_args=False,
                 allow_nan_stats=True, name="MultivariateNormalDiag"):
        parameters = dict(locals())
        if loc is None and scale_diag is None:
            raise ValueError("Must specify one or both of `loc`, `scale_diag`.")
        with _ops.name_scope(name, values=[loc, scale_diag, scale_identity_multiplier]) as name:
            given = [(v, n) for v, n in ((loc, "loc"), (scale_diag, "scale_diag"),
                                         (scale_identity_multiplier, "scale_identity_multiplier")) if v is not None]
            conv = dict(zip([n for _, n in given], _float_params([v for v, _ in given], [n for _, n in given])))
            loc_t = conv.get("loc")
            diag = conv.get("scale_diag")
            mult = conv.get("scale_identity_multiplier")
            if diag is None:  # a (scaled) identity of loc's size, with no batch of its own
                diag = _array_ops.fill(_core_ops.shape(loc_t)[-1:], _ops.convert_to_tensor(1.0, dtype=loc_t.dtype))
                static_k = loc_t.shape[-1] if loc_t.shape.ndims is not None else None
                if static_k is not None:
                    diag = _array_ops.reshape(diag, [static_k])
                if mult is not None:
                    diag = diag * mult
            elif mult is not None:
                diag = diag + mult
            if validate_args:
                with _ops.control_dependencies([_assert_nonzero(diag)]):
                    diag = _core_ops.identity(diag)
            from ..ops.linalg_diag_ops import matrix_diag
            self._init(loc_t, matrix_diag(diag), diag, validate_args, allow_nan_stats, parameters, name)

    def _log_prob(self, x):
        d = (x - self._loc_or_zero()) / self._scale_diag
        return (-0.5 * _math_ops.reduce_sum(_math_ops.square(d), axis=-1)
                - 0.5 * self._num_dims() * _math.log(2.0 * _math.pi) - self._log_det_scale())

    def _variance(self):
        return _math_ops.square(self._scale_diag) + _zeros_batch(self._loc_or_zero(), 1)[..., None]


class MultivariateNormalFullCovariance(MultivariateNormalTriL):
    """The multivariate normal with mean `loc` and covariance `covariance_matrix` (scale: its Cholesky factor).

    Args:
      loc: Floating tensor `[..., k]` of means, or None (zeros).
      covariance_matrix: Floating symmetric positive definite `[..., k, k]`, or None (the identity).
      validate_args: Assert a non-zero diagonal of the factor at run time.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "MultivariateNormalFullCovariance").

    Raises:
      ValueError: If `loc` and `covariance_matrix` are both None.
    """

    def __init__(self, loc=None, covariance_matrix=None, validate_args=False, allow_nan_stats=True,
                 name="MultivariateNormalFullCovariance"):
        parameters = dict(locals())
        if loc is None and covariance_matrix is None:
            raise ValueError("Must specify one or both of `loc`, `covariance_matrix`.")
        with _ops.name_scope(name, values=[loc, covariance_matrix]) as name:
            scale_tril = None
            if covariance_matrix is not None:
                from ..ops.linalg_core_ops import cholesky
                cov = _float_params([covariance_matrix], ["covariance_matrix"])[0]
                scale_tril = cholesky(cov)
        super().__init__(loc=loc, scale_tril=scale_tril, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


@RegisterKL(_MultivariateNormalTriLBase, _MultivariateNormalTriLBase)
def _kl_mvn_mvn(a, b, name=None):
    """KL(a || b) of two multivariate normals, TF 1.15's `_kl_brute_force`."""
    with _ops.name_scope(name, "kl_mvn", [a.loc, b.loc]):
        b_inv_a = _tril_solve(b._scale_tril, a._scale_tril)
        trace = _math_ops.reduce_sum(_math_ops.square(b_inv_a), axis=[-2, -1])
        diff = b._loc_or_zero() - a._loc_or_zero()
        mahal = _math_ops.reduce_sum(_math_ops.square(_tril_solve(b._scale_tril, diff[..., None])[..., 0]), axis=-1)
        k = _math_ops.cast(_core_ops.shape(b._scale_tril)[-1], _dtypes.as_dtype(b.dtype))
        return 0.5 * (trace + mahal - k) + b._log_det_scale() - a._log_det_scale()


class MultivariateNormalDiagWithSoftplusScale(MultivariateNormalDiag):
    """`MultivariateNormalDiag` with `scale_diag = softplus(scale_diag)`.

    Args:
      loc: Floating tensor `[..., k]` of means.
      scale_diag: Floating tensor `[..., k]`, passed through softplus.
      validate_args: See `MultivariateNormalDiag`.
      allow_nan_stats: See `MultivariateNormalDiag`.
      name: The name scope (default "MultivariateNormalDiagWithSoftplusScale").
    """

    def __init__(self, loc, scale_diag, validate_args=False, allow_nan_stats=True,
                 name="MultivariateNormalDiagWithSoftplusScale"):
        parameters = dict(locals())
        from ..ops.nn_activation_ops import softplus
        with _ops.name_scope(name, values=[scale_diag]) as name:
            scale_diag = _float_params([scale_diag], ["scale_diag"])[0]
            super().__init__(loc=loc, scale_diag=softplus(scale_diag), validate_args=validate_args,
                             allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class NormalWithSoftplusScale(Normal):
    """`Normal` with `scale = softplus(scale)`.

    Args:
      loc: The means.
      scale: Floating tensor passed through softplus.
      validate_args: See `Normal`.
      allow_nan_stats: See `Normal`.
      name: The name scope (default "NormalWithSoftplusScale").
    """

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="NormalWithSoftplusScale"):
        parameters = dict(locals())
        from ..ops.nn_activation_ops import softplus
        with _ops.name_scope(name, values=[scale]) as name:
            super().__init__(loc=loc, scale=softplus(_ops.convert_to_tensor(scale), name="softplus_scale"),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class _LogitsProbsMixin:
    """The `logits` and `probs` properties of the distributions parameterized by either."""

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs


class _OneHotLogitsMixin(_LogitsProbsMixin):
    """`logits`/`probs` over the last axis: the shapes of the one-hot categorical distributions."""

    def _k(self):
        k = self._logits.shape[-1] if self._logits.shape.ndims is not None else None
        return k if k is not None else _core_ops.shape(self._logits)[-1]

    def _batch_shape(self):
        shape = self._logits.shape
        return _TensorShape(None) if shape.ndims is None else _TensorShape(shape.as_list()[:-1])

    def _batch_shape_tensor(self):
        return _core_ops.shape(self._logits)[:-1]

    def _event_shape(self):
        shape = self._logits.shape
        return _TensorShape([None]) if shape.ndims is None else _TensorShape(shape.as_list()[-1:])

    def _event_shape_tensor(self):
        return _core_ops.shape(self._logits)[-1:]


class OneHotCategorical(_OneHotLogitsMixin, Distribution):
    """The categorical distribution over one-hot vectors of `K` classes (`logits` or `probs` on the last axis).

    Args:
      logits: Unnormalized log probabilities `[..., K]`.
      probs: Probabilities `[..., K]` (give exactly one of the two).
      dtype: The dtype of samples (default int32).
      validate_args: Accepted for TF's signature.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "OneHotCategorical").

    Raises:
      ValueError: If both or neither of `logits` and `probs` are given.
    """

    def __init__(self, logits=None, probs=None, dtype=_dtypes.int32, validate_args=False, allow_nan_stats=True,
                 name="OneHotCategorical"):
        parameters = dict(locals())
        from ..distributions.univariate import _logits_and_probs
        with _ops.name_scope(name, values=[logits, probs]) as name:
            self._logits, self._probs = _logits_and_probs(logits, probs, True, name)
        super().__init__(_dtypes.as_dtype(dtype), NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._logits, self._probs], name)

    def _convert(self, value, name):
        return _ops.convert_to_tensor(value, name=name)

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        k = self._k()
        logits_2d = _array_ops.reshape(self._logits, _array_ops.stack([-1, _ops.convert_to_tensor(k)]))
        draws = _array_ops.transpose(random_ops.multinomial(logits_2d, n, seed=seed))
        ret = _array_ops.one_hot(draws, depth=k, dtype=self.dtype)
        shape = _array_ops.concat([[n], self._batch_shape_tensor(), self._event_shape_tensor()], 0)
        return _array_ops.reshape(ret, shape)

    def _log_prob(self, x):
        from ..ops.nn_ops import softmax_cross_entropy_with_logits
        x = _math_ops.cast(x, self._logits.dtype)
        logits = self._logits
        if not (x.shape.is_fully_defined() and logits.shape.is_fully_defined()
                and x.shape.as_list() == logits.shape.as_list()):
            logits = logits * _core_ops.ones_like(x)
            x = x * _core_ops.ones_like(logits)
        return -softmax_cross_entropy_with_logits(labels=x, logits=logits)

    def _entropy(self):
        from ..ops.nn_activation_ops import log_softmax
        return -_math_ops.reduce_sum(log_softmax(self._logits) * self._probs, axis=-1)

    def _mean(self):
        return self._probs

    def _mode(self):
        return _array_ops.one_hot(_math_ops.argmax(self._logits, axis=-1), depth=self._k(), dtype=self.dtype)

    def _covariance(self):
        from ..ops.linalg_diag_ops import matrix_set_diag
        p = self._probs
        return matrix_set_diag(-p[..., :, None] * p[..., None, :], p * (1.0 - p))

    def _variance(self):
        return self._probs * (1.0 - self._probs)


@RegisterKL(OneHotCategorical, OneHotCategorical)
def _kl_one_hot_categorical(a, b, name=None):
    from ..ops.nn_activation_ops import log_softmax
    from ..ops.nn_ops import softmax
    with _ops.name_scope(name, "kl_categorical_categorical", [a.logits, b.logits]):
        return _math_ops.reduce_sum(softmax(a.logits) * (log_softmax(a.logits) - log_softmax(b.logits)), axis=-1)


class Poisson(Distribution):
    """The Poisson distribution with `rate` (or `log_rate`); as TF 1.15 (`interpolate_nondiscrete`),
    `log_prob(x) = x log(rate) - lgamma(x + 1) - rate` for any `x >= 0` and `-inf` below 0.

    Args:
      rate: Positive floating rates (give exactly one of `rate` and `log_rate`).
      log_rate: Floating log-rates.
      validate_args: Assert `rate > 0` at run time.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "Poisson").

    Raises:
      ValueError: If both or neither of `rate` and `log_rate` are given.
    """

    def __init__(self, rate=None, log_rate=None, validate_args=False, allow_nan_stats=True, name="Poisson"):
        parameters = dict(locals())
        if (rate is None) == (log_rate is None):
            raise ValueError("Must specify exactly one of `rate` and `log_rate`.")
        with _ops.name_scope(name, values=[rate, log_rate]) as name:
            if rate is not None:
                rate = _float_params([rate], ["rate"])[0]
                if validate_args:
                    from ..ops import check_ops
                    with _ops.control_dependencies([check_ops.assert_positive(rate)]):
                        rate = _core_ops.identity(rate)
                self._rate = _core_ops.identity(rate, name="rate")
                self._log_rate = _math_ops.log(self._rate, name="log_rate")
            else:
                self._log_rate = _core_ops.identity(_float_params([log_rate], ["log_rate"])[0], name="log_rate")
                self._rate = _math_ops.exp(self._log_rate, name="rate")
        super().__init__(self._rate.dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._rate], name)

    @property
    def rate(self):
        return self._rate

    @property
    def log_rate(self):
        return self._log_rate

    def _batch_shape(self):
        return self._rate.shape

    def _batch_shape_tensor(self):
        return _core_ops.shape(self._rate)

    def _event_shape(self):
        return _TensorShape([])

    def _event_shape_tensor(self):
        return _ops.convert_to_tensor(_np.zeros([0], _np.int32))

    def _log_prob(self, x):
        from ..ops.math_special_ops import lgamma
        x = x + _core_ops.zeros_like(self._rate)
        safe_x = _math_ops.maximum(x, 0.0)
        y = safe_x * self._log_rate - lgamma(1.0 + safe_x)
        neg_inf = _array_ops.fill(_core_ops.shape(y), _ops.convert_to_tensor(-_np.inf, dtype=y.dtype))
        return _array_ops.where(_math_ops.equal(x, safe_x), y, neg_inf) - self._rate

    def _cdf(self, x):
        from ..ops.math_special_ops import igammac
        safe_x = _math_ops.maximum(x, 0.0)
        cdf = igammac(1.0 + safe_x, self._rate)
        return _array_ops.where(_math_ops.less(x + _core_ops.zeros_like(cdf), 0.0), _core_ops.zeros_like(cdf), cdf)

    def _mean(self):
        return _core_ops.identity(self._rate)

    def _variance(self):
        return _core_ops.identity(self._rate)

    def _mode(self):
        return _math_ops.floor(self._rate)

    def _sample_n(self, n, seed=None):
        from ..ops.random_gamma_ops import random_poisson
        return random_poisson(self._rate, [n], dtype=self.dtype, seed=seed)


class Logistic(Distribution):
    """The logistic distribution with location `loc` and scale `scale`: `cdf(x) = sigmoid((x - loc) / scale)`.

    Args:
      loc: Floating locations.
      scale: Positive floating scales (same dtype).
      validate_args: Assert `scale > 0` at run time.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "Logistic").

    Raises:
      TypeError: If `loc` and `scale` have different dtypes.
    """

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Logistic"):
        parameters = dict(locals())
        with _ops.name_scope(name, values=[loc, scale]) as name:
            loc, scale = _float_params([loc, scale], ["loc", "scale"])
            if validate_args:
                from ..ops import check_ops
                with _ops.control_dependencies([check_ops.assert_positive(scale)]):
                    scale = _core_ops.identity(scale)
            self._loc = _core_ops.identity(loc, name="loc")
            self._scale = _core_ops.identity(scale, name="scale")
        super().__init__(self._loc.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._loc, self._scale], name)

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _ones(self):
        return _core_ops.ones_like(self._loc + self._scale)

    def _batch_shape(self):
        from ..ops.array_ops import broadcast_static_shape
        return broadcast_static_shape(self._loc.shape, self._scale.shape)

    def _batch_shape_tensor(self):
        return _core_ops.shape(self._loc + self._scale)

    def _event_shape(self):
        return _TensorShape([])

    def _event_shape_tensor(self):
        return _ops.convert_to_tensor(_np.zeros([0], _np.int32))

    def _z(self, x):
        return (x - self._loc) / self._scale

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        shape = _array_ops.concat([[n], self._batch_shape_tensor()], 0)
        u = random_ops.random_uniform(shape, minval=_np.finfo(self.dtype.as_numpy_dtype).tiny, maxval=1.0,
                                      dtype=self.dtype, seed=seed)
        return (_math_ops.log(u) - _math_ops.log1p(-1.0 * u)) * self._scale + self._loc

    def _log_prob(self, x):
        from ..ops.nn_activation_ops import softplus
        z = self._z(x)
        return -z - 2.0 * softplus(-z) - _math_ops.log(self._scale)

    def _log_cdf(self, x):
        from ..ops.nn_activation_ops import softplus
        return -softplus(-self._z(x))

    def _cdf(self, x):
        return _math_ops.sigmoid(self._z(x))

    def _log_survival_function(self, x):
        from ..ops.nn_activation_ops import softplus
        return -softplus(self._z(x))

    def _survival_function(self, x):
        return _math_ops.sigmoid(-self._z(x))

    def _entropy(self):
        return (_math_ops.log(self._scale) + 2.0) * self._ones()

    def _mean(self):
        return self._loc * self._ones()

    def _stddev(self):
        return self._scale * self._ones() * (_math.pi / _math.sqrt(3.0))

    def _variance(self):
        return _math_ops.square(self._stddev())

    def _mode(self):
        return self._mean()


__all__ += ["Logistic", "MultivariateNormalDiagWithSoftplusScale", "NormalWithSoftplusScale", "OneHotCategorical",
            "Poisson"]


class ExpRelaxedOneHotCategorical(_OneHotLogitsMixin, Distribution):
    """The log of a relaxed one-hot categorical (Gumbel-softmax, Maddison et al.) sample: samples are
    `log_softmax((logits + gumbel) / temperature)`; the density is TF 1.15's
    `lgamma(k) + (k - 1) log(t) + sum(log_softmax(logits - t x))`.

    Args:
      temperature: A positive floating scalar (or `[batch]` vector).
      logits: Unnormalized log probabilities `[..., k]`.
      probs: Probabilities `[..., k]` (give exactly one of the two).
      dtype: The sample dtype (default: that of `logits`/`probs`).
      validate_args: Accepted for TF's signature.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "ExpRelaxedOneHotCategorical").

    Raises:
      ValueError: If both or neither of `logits` and `probs` are given.
    """

    def __init__(self, temperature, logits=None, probs=None, dtype=None, validate_args=False, allow_nan_stats=True,
                 name="ExpRelaxedOneHotCategorical"):
        parameters = dict(locals())
        from ..distributions.univariate import _logits_and_probs
        with _ops.name_scope(name, values=[logits, probs, temperature]) as name:
            self._logits, self._probs = _logits_and_probs(logits, probs, True, name)
            dtype = self._logits.dtype if dtype is None else _dtypes.as_dtype(dtype)
            self._temperature = _core_ops.identity(_ops.convert_to_tensor(temperature, dtype=dtype), name="temperature")
            self._temperature_2d = _array_ops.reshape(self._temperature, [-1, 1], name="temperature_2d")
        super().__init__(dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._logits, self._probs, self._temperature], name)

    @property
    def temperature(self):
        return self._temperature

    @property
    def event_size(self):
        """The number of classes k (a Python int when static, else a tensor)."""
        return self._k()

    def _sample_n(self, n, seed=None):
        from ..ops import random_ops
        from ..ops.nn_activation_ops import log_softmax
        sample_shape = _array_ops.concat([[n], _core_ops.shape(self._logits)], 0)
        logits = self._logits * _array_ops.fill(sample_shape, _ops.convert_to_tensor(1.0, dtype=self.dtype))
        logits_2d = _array_ops.reshape(logits, _array_ops.stack([-1, _ops.convert_to_tensor(self.event_size)]))
        uniform = random_ops.random_uniform(_core_ops.shape(logits_2d),
                                            minval=_np.finfo(self.dtype.as_numpy_dtype).tiny,
                                            maxval=1.0, dtype=self.dtype, seed=seed)
        gumbel = -_math_ops.log(-_math_ops.log(uniform))
        noisy_logits = (gumbel + logits_2d) / self._temperature_2d
        return _array_ops.reshape(log_softmax(noisy_logits), sample_shape)

    def _log_prob(self, x):
        from ..ops.math_special_ops import lgamma
        from ..ops.nn_activation_ops import log_softmax
        logits = self._logits
        if not (x.shape.is_fully_defined() and logits.shape.is_fully_defined()
                and x.shape.as_list() == logits.shape.as_list()):
            logits = _core_ops.ones_like(x) * logits
            x = _core_ops.ones_like(logits) * x
        logits_shape = _core_ops.shape(_math_ops.reduce_sum(logits, axis=[-1]))
        k_t = _ops.convert_to_tensor(self.event_size)
        logits_2d = _array_ops.reshape(logits, _array_ops.stack([-1, k_t]))
        x_2d = _array_ops.reshape(x, _array_ops.stack([-1, k_t]))
        k = _math_ops.cast(k_t, x.dtype)
        log_norm_const = lgamma(k) + (k - 1.0) * _math_ops.log(self._temperature)
        log_unnorm_prob = _math_ops.reduce_sum(log_softmax(logits_2d - x_2d * self._temperature_2d), [-1])
        return _array_ops.reshape(log_norm_const + log_unnorm_prob, logits_shape)


class RelaxedOneHotCategorical(ExpRelaxedOneHotCategorical):
    """The relaxed one-hot categorical (Gumbel-softmax / Concrete) distribution on the simplex: the
    exponential of `ExpRelaxedOneHotCategorical` (TF 1.15's TransformedDistribution with an Exp
    bijector): samples `softmax((logits + gumbel) / temperature)`, `log_prob(y) =
    ExpRelaxed.log_prob(log y) - sum(log y)`.

    Args:
      temperature: A positive floating scalar (or `[batch]` vector).
      logits: Unnormalized log probabilities `[..., k]`.
      probs: Probabilities `[..., k]` (give exactly one of the two).
      dtype: The sample dtype (default: that of `logits`/`probs`).
      validate_args: Accepted for TF's signature.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "RelaxedOneHotCategorical").

    Raises:
      ValueError: If both or neither of `logits` and `probs` are given.
    """

    def __init__(self, temperature, logits=None, probs=None, dtype=None, validate_args=False, allow_nan_stats=True,
                 name="RelaxedOneHotCategorical"):
        super().__init__(temperature, logits=logits, probs=probs, dtype=dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)

    def _sample_n(self, n, seed=None):
        return _math_ops.exp(super()._sample_n(n, seed))

    def _log_prob(self, y):
        log_y = _math_ops.log(y)
        return super()._log_prob(log_y) - _math_ops.reduce_sum(log_y, axis=-1)


class RelaxedBernoulli(_LogitsProbsMixin, Distribution):
    """The relaxed Bernoulli (binary Concrete) distribution on (0, 1): `sigmoid` of a Logistic with
    location `logits / temperature` and scale `1 / temperature` (TF 1.15's TransformedDistribution),
    `log_prob(y) = logistic.log_prob(logit(y)) - log(y) - log(1 - y)`.

    Args:
      temperature: A positive floating tensor.
      logits: The log-odds (give exactly one of `logits` and `probs`).
      probs: The probabilities of 1.
      validate_args: Accepted for TF's signature.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "RelaxedBernoulli").

    Raises:
      ValueError: If both or neither of `logits` and `probs` are given.
    """

    def __init__(self, temperature, logits=None, probs=None, validate_args=False, allow_nan_stats=True,
                 name="RelaxedBernoulli"):
        parameters = dict(locals())
        from ..distributions.univariate import _logits_and_probs
        with _ops.name_scope(name, values=[logits, probs, temperature]) as name:
            self._logits, self._probs = _logits_and_probs(logits, probs, False, name)
            self._temperature = _core_ops.identity(_ops.convert_to_tensor(temperature, dtype=self._logits.dtype),
                                                  name="temperature")
            self._logistic = Logistic(self._logits / self._temperature, 1.0 / self._temperature,
                                      validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                                      name=name + "/Logistic")
        super().__init__(self._logits.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._logits, self._probs, self._temperature], name)

    @property
    def temperature(self):
        return self._temperature

    def _batch_shape(self):
        return self._logistic.batch_shape

    def _batch_shape_tensor(self):
        return self._logistic.batch_shape_tensor()

    def _event_shape(self):
        return _TensorShape([])

    def _event_shape_tensor(self):
        return _ops.convert_to_tensor(_np.zeros([0], _np.int32))

    def _sample_n(self, n, seed=None):
        return _math_ops.sigmoid(self._logistic._sample_n(n, seed))

    def _log_prob(self, y):
        x = _math_ops.log(y) - _math_ops.log1p(-y)
        return self._logistic.log_prob(x) - _math_ops.log(y) - _math_ops.log1p(-y)

    def _prob(self, y):
        return _math_ops.exp(self._log_prob(y))


__all__ += ["ExpRelaxedOneHotCategorical", "RelaxedBernoulli", "RelaxedOneHotCategorical"]


class Independent(Distribution):
    """Reinterprets the rightmost `reinterpreted_batch_ndims` batch dimensions of a distribution as
    event dimensions: `log_prob` and `entropy` sum over them.

    Args:
      distribution: The base `Distribution`.
      reinterpreted_batch_ndims: How many batch dimensions become event dimensions (default:
        `max(0, batch rank - 1)`, the static batch rank being required).
      validate_args: Accepted for TF's signature.
      name: The name scope (default "Independent" + the base's name).

    Raises:
      ValueError: If `reinterpreted_batch_ndims` is negative or exceeds the static batch rank.
    """

    def __init__(self, distribution, reinterpreted_batch_ndims=None, validate_args=False, name=None):
        parameters = dict(locals())
        name = name or "Independent" + distribution.name
        self._distribution = distribution
        batch_rank = distribution.batch_shape.ndims
        if reinterpreted_batch_ndims is None:
            if batch_rank is None:
                raise NotImplementedError("Independent: reinterpreted_batch_ndims=None needs a static batch rank")
            reinterpreted_batch_ndims = max(0, batch_rank - 1)
        reinterpreted_batch_ndims = int(reinterpreted_batch_ndims)
        if reinterpreted_batch_ndims < 0:
            raise ValueError("Argument `reinterpreted_batch_ndims` must be non-negative.")
        if batch_rank is not None and reinterpreted_batch_ndims > batch_rank:
            raise ValueError("reinterpreted_batch_ndims({}) cannot exceed distribution.batch_ndims({})"
                             .format(reinterpreted_batch_ndims, batch_rank))
        self._reinterpreted_batch_ndims = reinterpreted_batch_ndims
        with _ops.name_scope(name) as name:
            pass
        super().__init__(distribution.dtype, distribution.reparameterization_type, validate_args,
                         distribution.allow_nan_stats, parameters, list(distribution._graph_parents), name)

    @property
    def distribution(self):
        return self._distribution

    @property
    def reinterpreted_batch_ndims(self):
        return self._reinterpreted_batch_ndims

    def _batch_shape(self):
        b = self._distribution.batch_shape
        if b.ndims is None:
            return _TensorShape(None)
        return _TensorShape(b.as_list()[:b.ndims - self._reinterpreted_batch_ndims])

    def _batch_shape_tensor(self):
        b = self._distribution.batch_shape_tensor()
        return b[:_array_ops.size(b) - self._reinterpreted_batch_ndims]

    def _event_shape(self):
        b = self._distribution.batch_shape
        e = self._distribution.event_shape
        if b.ndims is None or e.ndims is None:
            return _TensorShape(None)
        return _TensorShape(b.as_list()[b.ndims - self._reinterpreted_batch_ndims:] + e.as_list())

    def _event_shape_tensor(self):
        b = self._distribution.batch_shape_tensor()
        return _array_ops.concat([b[_array_ops.size(b) - self._reinterpreted_batch_ndims:],
                                 self._distribution.event_shape_tensor()], 0)

    def _reduce(self, x):
        if self._reinterpreted_batch_ndims == 0:
            return x
        return _math_ops.reduce_sum(x, axis=list(range(-self._reinterpreted_batch_ndims, 0)))

    def _sample_n(self, n, seed=None):
        return self._distribution.sample(n, seed=seed)

    def _log_prob(self, x):
        return self._reduce(self._distribution.log_prob(x))

    def _prob(self, x):
        return _math_ops.exp(self._log_prob(x))

    def _entropy(self):
        return self._reduce(self._distribution.entropy())

    def _mean(self):
        return self._distribution.mean()

    def _variance(self):
        return self._distribution.variance()

    def _stddev(self):
        return self._distribution.stddev()

    def _mode(self):
        return self._distribution.mode()


class MixtureSameFamily(Distribution):
    """A mixture of `k` components of one family: `p(x) = sum_i w_i p_i(x)` with the weights of the
    categorical `mixture_distribution` (batch `B`) and the components `components_distribution`
    (batch `B + [k]`).

    Args:
      mixture_distribution: A `Categorical` over the `k` components.
      components_distribution: A `Distribution` whose rightmost batch dimension indexes the components.
      reparameterize: Only False (TF 1.15's default) is supported.
      validate_args: Accepted for TF's signature.
      allow_nan_stats: Return NaN for undefined statistics.
      name: The name scope (default "MixtureSameFamily").

    Raises:
      ValueError: If `mixture_distribution` is not categorical or the static numbers of components differ.
      NotImplementedError: For `reparameterize=True`.
    """

    def __init__(self, mixture_distribution, components_distribution, reparameterize=False, validate_args=False,
                 allow_nan_stats=True, name="MixtureSameFamily"):
        parameters = dict(locals())
        if reparameterize:
            raise NotImplementedError("MixtureSameFamily(reparameterize=True) is not supported by tensorweave")
        if not hasattr(mixture_distribution, "logits"):
            raise ValueError("`mixture_distribution` must be a Categorical")
        if mixture_distribution.dtype.is_floating:
            raise ValueError("`mixture_distribution.dtype` ({}) is not over integers".format(
                mixture_distribution.dtype.name))
        self._mixture_distribution = mixture_distribution
        self._components_distribution = components_distribution
        km = mixture_distribution.logits.shape[-1] if mixture_distribution.logits.shape.ndims else None
        cb = components_distribution.batch_shape
        kc = cb[-1] if cb.ndims else None
        km = getattr(km, "value", km)
        kc = getattr(kc, "value", kc)
        if km is not None and kc is not None and km != kc:
            raise ValueError("`mixture_distribution components` ({}) does not equal "
                             "`components_distribution.batch_shape[-1]` ({})".format(km, kc))
        self._event_ndims = components_distribution.event_shape.ndims
        if self._event_ndims is None:
            raise NotImplementedError("MixtureSameFamily needs a static component event rank")
        with _ops.name_scope(name) as name:
            pass
        super().__init__(components_distribution.dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, list(components_distribution._graph_parents), name)

    @property
    def mixture_distribution(self):
        return self._mixture_distribution

    @property
    def components_distribution(self):
        return self._components_distribution

    def _batch_shape(self):
        b = self._components_distribution.batch_shape
        return _TensorShape(None) if b.ndims is None else _TensorShape(b.as_list()[:-1])

    def _batch_shape_tensor(self):
        return self._components_distribution.batch_shape_tensor()[:-1]

    def _event_shape(self):
        return self._components_distribution.event_shape

    def _event_shape_tensor(self):
        return self._components_distribution.event_shape_tensor()

    def _pad_sample_dims(self, x):
        return _array_ops.expand_dims(x, axis=-1 - self._event_ndims)

    def _pad_mix_dims(self, x):
        for _ in range(self._event_ndims):
            x = _array_ops.expand_dims(x, -1)
        return x

    def _log_mix_prob(self):
        from ..ops.nn_activation_ops import log_softmax
        return log_softmax(self._mixture_distribution.logits, axis=-1)

    def _log_prob(self, x):
        log_prob_x = self._components_distribution.log_prob(self._pad_sample_dims(x))
        return _math_ops.reduce_logsumexp(log_prob_x + self._log_mix_prob(), axis=-1)

    def _prob(self, x):
        return _math_ops.exp(self._log_prob(x))

    def _cdf(self, x):
        cdf_x = self._components_distribution.cdf(self._pad_sample_dims(x))
        return _math_ops.reduce_sum(cdf_x * _math_ops.exp(self._log_mix_prob()), axis=-1)

    def _mean(self):
        probs = self._pad_mix_dims(_math_ops.exp(self._log_mix_prob()))
        return _math_ops.reduce_sum(probs * self._components_distribution.mean(), axis=-1 - self._event_ndims)

    def _variance(self):
        if self._event_ndims != 0:
            raise NotImplementedError("MixtureSameFamily.variance for vector events: use covariance")
        probs = _math_ops.exp(self._log_mix_prob())
        mean_cond_var = _math_ops.reduce_sum(probs * self._components_distribution.variance(), axis=-1)
        comp_mean = self._components_distribution.mean()
        mean = _math_ops.reduce_sum(probs * comp_mean, axis=-1)
        var_cond_mean = _math_ops.reduce_sum(probs * _math_ops.square(comp_mean - mean[..., None]), axis=-1)
        return mean_cond_var + var_cond_mean

    def _sample_n(self, n, seed=None):
        x = self._components_distribution.sample(n, seed=seed)
        k = _ops.convert_to_tensor(_core_ops.shape(self._mixture_distribution.logits)[-1])
        mix_sample = self._mixture_distribution.sample(n, seed=None if seed is None else seed + 1)
        mask = self._pad_mix_dims(_array_ops.one_hot(mix_sample, depth=k, dtype=self.dtype))
        return _math_ops.reduce_sum(x * mask, axis=-1 - self._event_ndims)


__all__ += ["Independent", "MixtureSameFamily"]
