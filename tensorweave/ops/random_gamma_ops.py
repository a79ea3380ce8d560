"""Gamma and Poisson samples (`tf.random_gamma`, `tf.random_poisson`) and the implicit
reparameterization gradient of a gamma sample w.r.t. its shape parameter (`RandomGammaGrad`).

The samplers are stateful like the other random ops (`random_ops`): each op draws from its own
stream seeded by its (seed, seed2) attributes, so the values follow TF's distributions and seed
rules, not TF's bit streams.
"""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import NO_GRADIENT, register_op
from .random_ops import _generator, _seed_attrs, _static_shape

__all__ = ["random_gamma", "random_poisson"]

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
_POISSON_DTYPES = _FLOATS + (dtypes.int32, dtypes.int64)


def _check_shape_dtype(shape, op_type):
    if shape.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'shape' has DataType %s not in list of allowed values: int32, int64 "
                        "(op %s)" % (shape.dtype.name, op_type))


def _sample_shape(shape, param):
    dims = _static_shape(shape)
    pdims = param.shape.as_tuple()
    if dims is None or pdims is None:
        return None
    return tuple(dims) + tuple(pdims)


# ---- RandomGamma -----------------------------------------------------------------------------
def _random_gamma_infer(op):
    shape, alpha = op._inputs
    _check_shape_dtype(shape, "RandomGamma")
    if alpha.dtype not in _FLOATS:
        raise TypeError("Value passed to parameter 'alpha' has DataType %s not in list of allowed values: "
                        "float16, float32, float64 (op RandomGamma)" % alpha.dtype.name)
    return [(alpha.dtype, _sample_shape(shape, alpha))]


def _random_gamma_kernel(ctx, op, shape, alpha, seed, seed2):
    rng = _generator(ctx, op, seed, seed2)
    dims = tuple(int(d) for d in shape)
    a = np.broadcast_to(alpha.astype(np.float64), dims + alpha.shape)
    out = np.full(a.shape, np.nan)
    ok = a > 0
    if ok.any():
        out[ok] = rng.standard_gamma(a[ok])
    out[a == 0] = 0.0
    return out.astype(alpha.dtype)


def _random_gamma_grad(op, grad):
    """TF's `_RandomGammaGrad`: d sample / d alpha by implicit reparameterization, summed over the
    sample dimensions."""
    from . import array_ops, math_ops
    shape, alpha = op.inputs
    sample = op.outputs[0]
    with ops.control_dependencies([grad]):
        num_sample_dimensions = array_ops.shape(shape)[0]
        alpha_broadcastable = array_ops.reshape(alpha, array_ops.concat(
            [array_ops.ones([num_sample_dimensions], dtypes.int32), array_ops.shape(alpha)], 0))
        partial_a = ops.apply_op("RandomGammaGrad", [alpha_broadcastable, sample], {})
        return [None, math_ops.reduce_sum(math_ops.multiply(grad, partial_a),
                                          axis=array_ops.range(num_sample_dimensions))]


register_op("RandomGamma", infer=_random_gamma_infer, kernel=_random_gamma_kernel, grad=_random_gamma_grad,
            stateful=True)


def random_gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Draws `shape` samples from each of the given Gamma distribution(s) (`tf.random.gamma`).

    `alpha` is the shape parameter, `beta` the inverse scale (rate); they broadcast against each
    other, and the result has shape `shape + broadcast(alpha, beta).shape`. The samples are
    differentiable w.r.t. `alpha` and `beta` (implicit reparameterization, as TF).

    Args:
      shape: A 1-D integer Tensor or Python array. The shape of the samples drawn per distribution.
      alpha: A Tensor or Python value or N-D array of type `dtype`: the shape parameter(s).
      beta: A Tensor or Python value or N-D array of type `dtype`, broadcastable with `alpha`: the
        inverse scale parameter(s); defaults to 1.
      dtype: The type of alpha, beta, and the output: `float16`, `float32`, or `float64`.
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: Optional name for the operation.

    Returns:
      A Tensor of shape `shape + broadcast(alpha, beta).shape` with values of type `dtype`, at
      least the smallest normal number of `dtype` (a NaN for a negative `alpha`).

    Raises:
      ValueError: If `dtype` is not a floating type.
    """
    from . import core_ops, math_ops
    dtype = dtypes.as_dtype(dtype)
    tiny = np.finfo(dtype.as_numpy_dtype).tiny  # a ValueError for a non-float dtype, as TF
    with ops.name_scope(name, "random_gamma", [shape, alpha, beta]):
        shape = ops.convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        alpha = ops.convert_to_tensor(alpha, name="alpha", dtype=dtype)
        beta = ops.convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        alpha_broadcast = math_ops.add(alpha, core_ops.zeros_like(beta))
        sample = ops.apply_op("RandomGamma", [shape, alpha_broadcast], _seed_attrs(seed))
        return math_ops.maximum(ops.convert_to_tensor(tiny, dtype=dtype), math_ops.realdiv(sample, beta))


# ---- RandomGammaGrad -------------------------------------------------------------------------
def _broadcast_infer(op):
    from .array_shape_ops import broadcast_static_shape
    alpha, sample = op._inputs
    if alpha.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError("Value passed to parameter 'alpha' has DataType %s not in list of allowed values: "
                        "float32, float64 (op RandomGammaGrad)" % alpha.dtype.name)
    if sample.dtype is not alpha.dtype:
        raise TypeError("Input 'sample' of 'RandomGammaGrad' Op has type %s that does not match type %s of "
                        "argument 'alpha'." % (sample.dtype.name, alpha.dtype.name))
    return [(alpha.dtype, broadcast_static_shape(alpha.shape, sample.shape).as_tuple())]


def _gamma_sample_der_alpha(a, x):
    """d x / d a at a fixed value of the Gamma(a) CDF P(a, x): -(dP/da) / (dP/dx), in float64.

    dP/da comes from P's power series (x <= 1 or x <= a) or from the continued fraction of
    Q = 1 - P (x > 1 and x > a), each differentiated in `a` term by term.
    """
    from .math_special_ops import _special
    special = _special()
    out = np.zeros(a.shape)
    series = (x <= 1) | (x <= a)
    if series.any():
        aa, xx = a[series], x[series]
        term = np.ones_like(aa)
        d = np.zeros_like(aa)
        s, ds = np.ones_like(aa), np.zeros_like(aa)
        active = np.ones(aa.shape, bool)
        n = 0
        while active.any() and n < 100000:
            n += 1
            term = np.where(active, term * xx / (aa + n), 0.0)
            d = d - 1.0 / (aa + n)
            s = s + term
            ds = ds + term * d
            active = active & ((term > 1e-17 * s) | (np.abs(term * d) > 1e-17 * np.abs(ds)))
        out[series] = -(xx / aa) * ((np.log(xx) - special.digamma(aa + 1)) * s + ds)
    cf = ~series
    if cf.any():
        aa, xx = a[cf], x[cf]
        tiny = 1e-300
        # Modified Lentz for h = 1/(b0 - a1/(b1 - a2/(b2 - ...))), with derivatives w.r.t. a.
        b, db = xx + 1.0 - aa, -np.ones_like(aa)
        c, dc = np.full_like(aa, 1.0 / tiny), np.zeros_like(aa)
        dd = 1.0 / b
        ddd = -db / (b * b)
        h, dh = dd.copy(), ddd.copy()
        active = np.ones(aa.shape, bool)
        i = 0
        while active.any() and i < 100000:
            i += 1
            an, dan = -i * (i - aa), float(i) * np.ones_like(aa)
            b = b + 2.0
            den = an * dd + b
            dden = dan * dd + an * ddd + db
            den_small = np.abs(den) < tiny
            den = np.where(den_small, tiny, den)
            dd_new = 1.0 / den
            ddd_new = -dden / (den * den)
            cn = b + an / c
            dcn = db + dan / c - an * dc / (c * c)
            c_small = np.abs(cn) < tiny
            cn = np.where(c_small, tiny, cn)
            delta = dd_new * cn
            ddelta = ddd_new * cn + dd_new * dcn
            h_new = h * delta
            dh_new = dh * delta + h * ddelta
            h = np.where(active, h_new, h)
            dh = np.where(active, dh_new, dh)
            dd = np.where(active, dd_new, dd)
            ddd = np.where(active, ddd_new, ddd)
            c = np.where(active, cn, c)
            dc = np.where(active, dcn, dc)
            active = active & ((np.abs(delta - 1.0) > 1e-16) | (np.abs(ddelta) > 1e-16 * np.abs(dh / h)))
        out[cf] = xx * ((np.log(xx) - special.digamma(aa)) * h + dh)
    return out


def _random_gamma_grad_kernel(xp, alpha, sample):
    a, x = np.broadcast_arrays(alpha.astype(np.float64), sample.astype(np.float64))
    out = np.full(a.shape, np.nan)
    regular = (a > 0) & np.isfinite(a) & (x > 0) & np.isfinite(x)
    if regular.any():
        with np.errstate(all="ignore"):
            out[regular] = _gamma_sample_der_alpha(a[regular], x[regular])
    valid_a = a > 0
    out[valid_a & (x == 0)] = 0.0
    out[valid_a & np.isposinf(x)] = -0.0
    out[np.isposinf(a) & (x >= 0) & np.isfinite(x)] = 0.0
    return out.astype(alpha.dtype)


register_op("RandomGammaGrad", infer=_broadcast_infer, kernel=_random_gamma_grad_kernel, grad=NO_GRADIENT)


# ---- RandomPoissonV2 -------------------------------------------------------------------------
def _random_poisson_infer(op):
    shape, rate = op._inputs
    _check_shape_dtype(shape, "RandomPoissonV2")
    if rate.dtype not in _POISSON_DTYPES:
        raise TypeError("Value passed to parameter 'rate' has DataType %s not in list of allowed values: "
                        "float16, float32, float64, int32, int64 (op RandomPoissonV2)" % rate.dtype.name)
    return [(op._attrs["dtype"], _sample_shape(shape, rate))]


# Rates from which a Poisson sample is drawn as a rounded normal (NumPy's sampler refuses ~1e19).
_NORMAL_APPROX_RATE = 1e15


def _random_poisson_kernel(ctx, op, shape, rate, seed, seed2, dtype):
    rng = _generator(ctx, op, seed, seed2)
    dims = tuple(int(d) for d in shape)
    lam = np.broadcast_to(rate.astype(np.float64), dims + rate.shape)
    out = np.zeros(lam.shape)
    small = (lam > 0) & (lam < _NORMAL_APPROX_RATE)
    if small.any():
        out[small] = rng.poisson(lam[small])
    big = lam >= _NORMAL_APPROX_RATE
    if big.any():
        out[big] = np.round(lam[big] + np.sqrt(lam[big]) * rng.standard_normal(int(big.sum())))
    out[np.isnan(lam)] = np.nan
    np_dtype = dtype.as_numpy_dtype
    if dtype.is_integer:
        info = np.iinfo(np_dtype)
        out = np.clip(np.nan_to_num(out, nan=0.0), info.min, info.max)
    return out.astype(np_dtype)


# TF registers no gradient for RandomPoissonV2: tf.gradients through it raises LookupError, as TF.
register_op("RandomPoissonV2", infer=_random_poisson_infer, kernel=_random_poisson_kernel, stateful=True)


def random_poisson(lam, shape, dtype=dtypes.float32, seed=None, name=None):
    """Draws `shape` samples from each of the given Poisson distribution(s) (`tf.random.poisson`).

    Args:
      lam: A Tensor or Python value or N-D array of type `float16`, `float32`, `float64`, `int32`
        or `int64`: the rate parameter(s) (a rate <= 0 gives 0).
      shape: A 1-D integer Tensor or Python array. The shape of the samples drawn per distribution.
      dtype: The type of the output: `float16`, `float32`, `float64`, `int32` or `int64`.
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: Optional name for the operation.

    Returns:
      A Tensor of shape `shape + lam.shape` with values of type `dtype`.

    Raises:
      TypeError: If `dtype` is not one of the types above.
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _POISSON_DTYPES:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: "
                        "float16, float32, float64, int32, int64" % dtype.name)
    with ops.name_scope(name, "random_poisson", [lam, shape]):
        shape = ops.convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        lam = ops.convert_to_tensor(lam, name="lam")
        attrs = _seed_attrs(seed)
        attrs["dtype"] = dtype
        return ops.apply_op("RandomPoissonV2", [shape, lam], attrs)
