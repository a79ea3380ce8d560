"""The `tf.distributions.Distribution` base class (TF 1.x semantics), reparameterization types and the
KL-divergence registry (`RegisterKL`, `kl_divergence`).

A subclass implements the private methods it can (`_log_prob`, `_cdf`, `_mean`, `_sample_n`, ...);
the public ones wrap them in the distribution's name scope, convert arguments, and fall back on the
related method (`prob` from `log_prob` and back, `stddev` from `variance` and back, survival from
the cdf); a method a distribution cannot compute raises NotImplementedError, as in TF.
"""

import numpy as np

from ..framework import dtypes, ops
from ..framework.tensor_shape import TensorShape, as_shape

__all__ = ["Distribution", "FULLY_REPARAMETERIZED", "NOT_REPARAMETERIZED", "RegisterKL", "ReparameterizationType",
           "kl_divergence"]


class ReparameterizationType:
    """Whether samples are differentiable functions of the parameters (`FULLY_REPARAMETERIZED`) or not."""

    def __init__(self, rep_type):
        self._rep_type = rep_type

    def __repr__(self):
        return "<Reparameterization Type: %s>" % self._rep_type

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


def _static_value(t):
    from ..framework.tensor_util import constant_value
    return constant_value(t)


class Distribution:
    """A batch of probability distributions (`tf.distributions.Distribution`).

    Args:
      dtype: The dtype of samples.
      reparameterization_type: `FULLY_REPARAMETERIZED` or `NOT_REPARAMETERIZED`.
      validate_args: Check parameters and arguments at run time (adds assertion ops).
      allow_nan_stats: Return NaN for undefined statistics (else they raise at run time).
      parameters: The constructor arguments (a dict).
      graph_parents: The parameter tensors.
      name: The name scope of the distribution's ops (a string ending in "/").
    """

    def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats, parameters=None,
                 graph_parents=None, name=None):
        self._dtype = dtype
        self._reparameterization_type = reparameterization_type
        self._validate_args = validate_args
        self._allow_nan_stats = allow_nan_stats
        self._parameters = dict(parameters or {})
        self._parameters.pop("self", None)
        self._parameters.pop("__class__", None)
        self._graph_parents = list(graph_parents or [])
        self._name = name

    # ---- properties --------------------------------------------------------------------------
    @property
    def name(self):
        """The distribution's name scope."""
        return self._name

    @property
    def dtype(self):
        """The dtype of samples."""
        return self._dtype

    @property
    def parameters(self):
        """The constructor arguments, as a dict."""
        return dict(self._parameters)

    @property
    def reparameterization_type(self):
        return self._reparameterization_type

    @property
    def allow_nan_stats(self):
        return self._allow_nan_stats

    @property
    def validate_args(self):
        return self._validate_args

    @property
    def batch_shape(self):
        """The static shape of the batch of distributions (`TensorShape`)."""
        return as_shape(self._batch_shape())

    @property
    def event_shape(self):
        """The static shape of one sample of one distribution (`TensorShape`)."""
        return as_shape(self._event_shape())

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        """The batch shape as a 1-D int32 tensor."""
        with self._name_scope(name):
            static = self.batch_shape
            if static.is_fully_defined():
                return ops.convert_to_tensor(np.array(static.as_list(), np.int32), name="batch_shape")
            return self._batch_shape_tensor()

    def event_shape_tensor(self, name="event_shape_tensor"):
        """The event shape as a 1-D int32 tensor."""
        with self._name_scope(name):
            static = self.event_shape
            if static.is_fully_defined():
                return ops.convert_to_tensor(np.array(static.as_list(), np.int32), name="event_shape")
            return self._event_shape_tensor()

    def is_scalar_event(self, name="is_scalar_event"):
        """Whether the event shape is `[]` (a boolean tensor)."""
        with self._name_scope(name):
            return ops.convert_to_tensor(self.event_shape.ndims == 0)

    def is_scalar_batch(self, name="is_scalar_batch"):
        """Whether the batch shape is `[]` (a boolean tensor)."""
        with self._name_scope(name):
            return ops.convert_to_tensor(self.batch_shape.ndims == 0)

    def _batch_shape(self):
        return TensorShape(None)

    def _event_shape(self):
        return TensorShape([])

    def _event_shape_tensor(self):
        return ops.convert_to_tensor(np.zeros([0], np.int32))

    def _batch_shape_tensor(self):
        raise NotImplementedError("batch_shape_tensor is not implemented: %s" % type(self).__name__)

    # ---- scopes and conversion ----------------------------------------------------------------
    def _name_scope(self, name=None):
        return _NameScope(self, name)

    def _convert(self, value, name):
        value = ops.convert_to_tensor(value, name=name)
        if value.dtype.base_dtype != self.dtype and (value.dtype.is_integer or value.dtype.is_floating):
            from ..ops import math_ops
            value = math_ops.cast(value, self.dtype)
        return value

    def _not_implemented(self, method):
        raise NotImplementedError("%s is not implemented: %s" % (method, type(self).__name__))

    # ---- sampling -----------------------------------------------------------------------------
    def sample(self, sample_shape=(), seed=None, name="sample"):
        """Draws samples of shape `sample_shape + batch_shape + event_shape`.

        Args:
          sample_shape: The shape of the sample batch (an int, a list or a 1-D int tensor).
          seed: A Python integer seed (combined with the graph seed).
          name: The op name scope.

        Returns:
          A Tensor of samples of `dtype`.
        """
        from ..ops import array_ops, core_ops, math_ops
        with self._name_scope(name):
            static = _static_value(ops.convert_to_tensor(sample_shape, dtype=dtypes.int32)) \
                if not isinstance(sample_shape, ops.Tensor) else _static_value(sample_shape)
            if static is not None:
                static = np.asarray(static, dtype=np.int64).reshape(-1)
                n = int(np.prod(static))
                samples = self._sample_n(n, seed)
                if static.size == 1:
                    return samples
                rest = samples.shape.as_list()[1:] if samples.shape.ndims is not None else None
                if rest is not None and all(d is not None for d in rest):
                    return array_ops.reshape(samples, list(static) + rest)
                return array_ops.reshape(samples, array_ops.concat(
                    [np.asarray(static, np.int32), core_ops.shape(samples)[1:]], 0))
            shape = math_ops.cast(array_ops.reshape(sample_shape, [-1]), dtypes.int32)
            n = math_ops.reduce_prod(shape)
            samples = self._sample_n(n, seed)
            return array_ops.reshape(samples, array_ops.concat([shape, core_ops.shape(samples)[1:]], 0))

    def _sample_n(self, n, seed=None):
        self._not_implemented("sample_n")

    # ---- densities and distribution functions -------------------------------------------------
    def log_prob(self, value, name="log_prob"):
        """The log probability (density or mass) of `value`."""
        from ..ops import math_ops
        with self._name_scope(name):
            value = self._convert(value, "value")
            if type(self)._log_prob is not Distribution._log_prob:
                return self._log_prob(value)
            if type(self)._prob is not Distribution._prob:
                return math_ops.log(self._prob(value))
            self._not_implemented("log_prob")

    def prob(self, value, name="prob"):
        """The probability (density or mass) of `value`."""
        from ..ops import math_ops
        with self._name_scope(name):
            value = self._convert(value, "value")
            if type(self)._prob is not Distribution._prob:
                return self._prob(value)
            if type(self)._log_prob is not Distribution._log_prob:
                return math_ops.exp(self._log_prob(value))
            self._not_implemented("prob")

    def log_cdf(self, value, name="log_cdf"):
        """The log of the cumulative distribution function at `value`."""
        from ..ops import math_ops
        with self._name_scope(name):
            value = self._convert(value, "value")
            if type(self)._log_cdf is not Distribution._log_cdf:
                return self._log_cdf(value)
            if type(self)._cdf is not Distribution._cdf:
                return math_ops.log(self._cdf(value))
            self._not_implemented("log_cdf")

    def cdf(self, value, name="cdf"):
        """The cumulative distribution function at `value`."""
        from ..ops import math_ops
        with self._name_scope(name):
            value = self._convert(value, "value")
            if type(self)._cdf is not Distribution._cdf:
                return self._cdf(value)
            if type(self)._log_cdf is not Distribution._log_cdf:
                return math_ops.exp(self._log_cdf(value))
            self._not_implemented("cdf")

    def log_survival_function(self, value, name="log_survival_function"):
        """The log of `1 - cdf(value)`."""
        from ..ops import math_ops
        with self._name_scope(name):
            value = self._convert(value, "value")
            if type(self)._log_survival_function is not Distribution._log_survival_function:
                return self._log_survival_function(value)
            if type(self)._survival_function is not Distribution._survival_function:
                return math_ops.log(self._survival_function(value))
            if type(self)._cdf is not Distribution._cdf:
                return math_ops.log1p(-self._cdf(value))
            self._not_implemented("log_survival_function")

    def survival_function(self, value, name="survival_function"):
        """`1 - cdf(value)`."""
        from ..ops import math_ops
        with self._name_scope(name):
            value = self._convert(value, "value")
            if type(self)._survival_function is not Distribution._survival_function:
                return self._survival_function(value)
            if type(self)._log_survival_function is not Distribution._log_survival_function:
                return math_ops.exp(self._log_survival_function(value))
            if type(self)._cdf is not Distribution._cdf:
                return 1.0 - self._cdf(value)
            self._not_implemented("survival_function")

    def quantile(self, value, name="quantile"):
        """The inverse cdf at probability `value`."""
        with self._name_scope(name):
            value = self._convert(value, "value")
            if type(self)._quantile is not Distribution._quantile:
                return self._quantile(value)
            self._not_implemented("quantile")

    # ---- statistics --------------------------------------------------------------------------
    def entropy(self, name="entropy"):
        """The Shannon entropy (nats)."""
        with self._name_scope(name):
            return self._entropy()

    def mean(self, name="mean"):
        """The mean."""
        with self._name_scope(name):
            return self._mean()

    def mode(self, name="mode"):
        """The mode."""
        with self._name_scope(name):
            return self._mode()

    def variance(self, name="variance"):
        """The variance."""
        from ..ops import math_ops
        with self._name_scope(name):
            if type(self)._variance is not Distribution._variance:
                return self._variance()
            if type(self)._stddev is not Distribution._stddev:
                return math_ops.square(self._stddev())
            self._not_implemented("variance")

    def stddev(self, name="stddev"):
        """The standard deviation."""
        from ..ops import math_ops
        with self._name_scope(name):
            if type(self)._stddev is not Distribution._stddev:
                return self._stddev()
            if type(self)._variance is not Distribution._variance:
                return math_ops.sqrt(self._variance())
            self._not_implemented("stddev")

    def covariance(self, name="covariance"):
        """The covariance matrix of one event (for vector events)."""
        with self._name_scope(name):
            return self._covariance()

    def cross_entropy(self, other, name="cross_entropy"):
        """The cross entropy `H[self, other]` = entropy + KL(self || other)."""
        with self._name_scope(name):
            return self.entropy() + kl_divergence(self, other)

    def kl_divergence(self, other, name="kl_divergence"):
        """`KL(self || other)` from the registered KL functions."""
        with self._name_scope(name):
            return kl_divergence(self, other)

    def copy(self, **override_parameters_kwargs):
        """A new distribution of the same type, the constructor arguments overridden by the given ones."""
        parameters = dict(self.parameters, **override_parameters_kwargs)
        return type(self)(**parameters)

    def _log_prob(self, value):
        raise NotImplementedError

    def _prob(self, value):
        raise NotImplementedError

    def _log_cdf(self, value):
        raise NotImplementedError

    def _cdf(self, value):
        raise NotImplementedError

    def _log_survival_function(self, value):
        raise NotImplementedError

    def _survival_function(self, value):
        raise NotImplementedError

    def _quantile(self, value):
        raise NotImplementedError

    def _entropy(self):
        self._not_implemented("entropy")

    def _mean(self):
        self._not_implemented("mean")

    def _mode(self):
        self._not_implemented("mode")

    def _variance(self):
        raise NotImplementedError

    def _stddev(self):
        raise NotImplementedError

    def _covariance(self):
        self._not_implemented("covariance")

    def __repr__(self):
        return "<tf.distributions.%s '%s' batch_shape=%s event_shape=%s dtype=%s>" % (
            type(self).__name__, self.name, self.batch_shape, self.event_shape, self.dtype.name)


class _NameScope:
    """`with self._name_scope(name)`: the distribution's scope, then the method's."""

    def __init__(self, dist, name):
        self._dist = dist
        self._name = name
        self._scopes = []

    def __enter__(self):
        outer = ops.name_scope(self._dist.name)
        outer.__enter__()
        self._scopes.append(outer)
        if self._name:
            inner = ops.name_scope(self._name)
            inner.__enter__()
            self._scopes.append(inner)
        return self

    def __exit__(self, *exc):
        for scope in reversed(self._scopes):
            scope.__exit__(*exc)
        return False


# ---- KL divergence registry ------------------------------------------------------------------------
_DIVERGENCES = {}


def _registered_kl(type_a, type_b):
    """The KL function registered for the closest pair of classes in the two MROs."""
    best, best_dist = None, None
    for i, a in enumerate(type_a.__mro__):
        for j, b in enumerate(type_b.__mro__):
            fn = _DIVERGENCES.get((a, b))
            if fn is not None and (best_dist is None or i + j < best_dist):
                best, best_dist = fn, i + j
    return best


def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
    """`KL(distribution_a || distribution_b)` from the function registered for their classes.

    Args:
      distribution_a: The first distribution.
      distribution_b: The second distribution.
      allow_nan_stats: When False, a NaN result fails at run time (InvalidArgumentError).
      name: A name scope.

    Returns:
      A batch of KL divergences.

    Raises:
      NotImplementedError: If no KL function is registered for the pair.
    """
    fn = _registered_kl(type(distribution_a), type(distribution_b))
    if fn is None:
        raise NotImplementedError("No KL(distribution_a || distribution_b) registered for distribution_a type %s "
                                  "and distribution_b type %s" % (type(distribution_a).__name__,
                                                                  type(distribution_b).__name__))
    with ops.name_scope("KullbackLeibler"):
        kl_t = fn(distribution_a, distribution_b, name=name)
        if allow_nan_stats:
            return ops.convert_to_tensor(kl_t)
        from ..ops import check_ops, core_ops, math_ops
        kl_t = ops.convert_to_tensor(kl_t)
        check = check_ops.Assert(math_ops.logical_not(math_ops.reduce_any(math_ops.is_nan(kl_t))),
                                 ["KL calculation between %s and %s returned NaN values (and was called with "
                                  "allow_nan_stats=False). Values:" % (distribution_a.name, distribution_b.name),
                                  kl_t])
        with ops.control_dependencies([check]):
            return core_ops.identity(kl_t)


class RegisterKL:
    """Decorator registering a KL divergence function for a pair of distribution classes.

        @tf.distributions.RegisterKL(MyDist, MyDist)
        def _kl(a, b, name=None): ...

    Args:
      dist_cls_a: The class of the first distribution.
      dist_cls_b: The class of the second distribution.
    """

    def __init__(self, dist_cls_a, dist_cls_b):
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn):
        """Registers `kl_fn(a, b, name=None)`.

        Raises:
          TypeError: If `kl_fn` is not callable.
          ValueError: If the pair already has a function.
        """
        if not callable(kl_fn):
            raise TypeError("kl_fn must be callable, received: %s" % kl_fn)
        if self._key in _DIVERGENCES:
            raise ValueError("KL(%s || %s) has already been registered to: %s" % (
                self._key[0].__name__, self._key[1].__name__, _DIVERGENCES[self._key]))
        _DIVERGENCES[self._key] = kl_fn
        return kl_fn
