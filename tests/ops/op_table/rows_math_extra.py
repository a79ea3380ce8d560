"""Op-table rows of tensorweave/ops/math_sort_ops.py (Roll, LowerBound, UpperBound) and
tensorweave/ops/math_special_ops.py (Lgamma, Digamma, Polygamma, Erfinv, Ndtri, BesselI0e, BesselI1e,
Xlogy, Xdivy, Xlog1py); see harness.py for the row API.

The special-function references do not call `scipy.special`'s functions the kernels use: Python's
`math.lgamma`, a recurrence + asymptotic series for digamma, Hurwitz zeta (`scipy.special.zeta`) for
polygamma, bisection on `math.erf` / `math.erfc` for erfinv and ndtri, power series in long double
for the Bessel functions. TF's conventions at the poles (digamma: NaN; lgamma: +inf) are written
out here."""

import math

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops as tf_ops
from tests.ops.op_table.harness import BOOL, COMPLEX, FLOATS, NUMERIC, Row, hp, rand

LD = np.longdouble


def _elementwise(f):
    """`f(float) -> float` on every element, in float64, cast to the input's dtype."""
    def ref(x):
        x = np.asarray(x)
        out = np.array([f(float(v)) for v in x.reshape(-1)], np.float64).reshape(x.shape)
        return out.astype(x.dtype)
    return ref


def _lgamma(v):
    if math.isnan(v):
        return math.nan
    if math.isinf(v) or (v <= 0 and v == math.floor(v)):
        return math.inf
    return math.lgamma(v)


def _digamma(v):
    if math.isnan(v) or v == -math.inf or (v <= 0 and v == math.floor(v)):
        return math.nan
    if v == math.inf:
        return math.inf
    x = LD(v)
    acc = LD(0)
    if x < 0:  # reflection: psi(x) = psi(1 - x) - pi / tan(pi x)
        acc -= LD(math.pi) / LD(math.tan(math.pi * v))
        x = 1 - x
    while x < 20:
        acc -= 1 / x
        x += 1
    inv2 = 1 / (x * x)
    series = inv2 * (LD(1) / 12 - inv2 * (LD(1) / 120 - inv2 * (LD(1) / 252 - inv2 * (LD(1) / 240 - inv2 / 132))))
    return float(acc + np.log(x) - 1 / (2 * x) - series)


def _polygamma_ref(a, x):
    from scipy.special import zeta
    a, x = np.broadcast_arrays(np.asarray(a), np.asarray(x))
    out = np.empty(a.shape, np.float64)
    for i, (n, v) in enumerate(zip(a.reshape(-1).tolist(), x.reshape(-1).tolist())):
        if math.isnan(n) or math.isnan(v) or n < 0 or n != math.floor(n) or v == -math.inf:
            r = math.nan  # TF: NaN for orders that are not non-negative integers
        elif v == math.inf:
            r = math.inf if n == 0 else 0.0
        elif n == 0:
            r = _digamma(v)
        elif v <= 0 and v == math.floor(v):
            r = math.inf
        else:
            r = (-1) ** (n + 1) * math.factorial(int(n)) * float(zeta(n + 1, v))
        out.reshape(-1)[i] = r
    return out.astype(a.dtype)


def _bisect(f, y, lo, hi):
    """The x in [lo, hi] with f(x) = y, f increasing."""
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _erfinv(v):
    if math.isnan(v) or abs(v) > 1:
        return math.nan
    if abs(v) == 1:
        return math.copysign(math.inf, v)
    if v == 0:
        return 0.0  # TF: +0 for -0 too
    return _bisect(math.erf, v, -7.0, 7.0)


def _ndtri(v):
    if math.isnan(v) or not 0 <= v <= 1:
        return math.nan
    if v in (0.0, 1.0):
        return -math.inf if v == 0 else math.inf
    if v == 0.5:
        return 0.0
    return _bisect(lambda x: 0.5 * math.erfc(-x / math.sqrt(2)), v, -40.0, 40.0)


def _bessel_series(order, scaled=True):
    """exp(-|x|) I_order(x) (or I_order(x)) by its power series in long double (|x| small enough for it)."""
    def f(v):
        if math.isnan(v):
            return math.nan
        if math.isinf(v):  # TF: NaN for the unscaled functions
            return (math.copysign(0.0, v) if order else 0.0) if scaled else math.nan
        if v == 0:
            return 1.0 if order == 0 else 0.0  # TF: +0 for -0 too
        x = LD(v)
        term = (x / 2) ** order / LD(math.factorial(order))
        total, k = term, 0
        while abs(term) > abs(total) * LD(1e-22) or k < 5:
            k += 1
            term = term * (x / 2) ** 2 / (k * (k + order))
            total += term
        return float(total * np.exp(-abs(x)) if scaled else total)
    return f


def _x_ref(f):
    """x * f(y), 0 where x == 0 (whatever y is)."""
    def ref(x, y):
        with np.errstate(all="ignore"):
            return np.where(x == 0, 0, f(x, y))
    return hp(ref)


def _positive(shape, lo, hi):
    return lambda dt, rng: [rand(rng, shape, dt, lo, hi)]


def _poly_inputs(dt, rng):
    return [rng.randint(0, 4, size=(3, 4)).astype(dt), rand(rng, (4,), dt, 0.5, 3.0)]


def _poly_special(dt):
    return [[np.array([0, 1, 2, 1.5, -1, 1, 1, 3, 0, 2], dt),
             np.array([0.5, -2.0, 3.0, 1.0, 1.0, 0.0, -0.0, np.inf, -np.inf, np.nan], dt)],
            [np.zeros(0, dt), np.zeros(0, dt)]]


# ---- Roll / LowerBound / UpperBound -----------------------------------------------------------------
def _roll_special(dt):
    return [[np.zeros((0, 3), dt)], [np.arange(6).reshape(2, 3).astype(dt)]]


def _count_ref(strict):
    """searchsorted by counting: the number of row elements < v (left) or <= v (right)."""
    def ref(s, v):
        s2, v2 = s.reshape(-1, s.shape[-1]), v.reshape(-1, v.shape[-1])
        cmp = (s2[:, None, :] < v2[:, :, None]) if strict else (s2[:, None, :] <= v2[:, :, None])
        return cmp.sum(-1).astype(np.int32).reshape(v.shape)
    return ref


def _sorted_inputs(dt, rng):
    s = np.sort(rand(rng, (2, 3, 5), dt, -4, 4), axis=-1)
    return [s, rand(rng, (2, 3, 4), dt, -5, 5)]


def _bound_special(dt):
    out = [[np.zeros((0, 3), dt), np.zeros((0, 2), dt)],
           [np.array([[1, 1, 2, 2]], dt), np.array([[1, 2, 0, 3, 1]], dt)]]
    if np.dtype(dt).kind == "f":
        out.append([np.array([[-np.inf, -0.0, 0.0, np.inf]], dt), np.array([[0.0, -0.0, np.inf, -np.inf]], dt)])
    return out


def _hurwitz_zeta(s_, q_):
    """sum_n (q + n)^-s by Euler-Maclaurin in long double (s > 1, q > 0), TF's values elsewhere."""
    if math.isnan(s_) or math.isnan(q_) or s_ < 1:
        return math.nan
    if s_ == 1 or (q_ <= 0 and q_ == math.floor(q_)):
        return math.inf
    if math.isinf(s_):
        return 0.0 if q_ > 1 else math.nan
    s, q, n = LD(s_), LD(q_), 30
    total = sum((q + k) ** -s for k in range(n))
    a = q + n
    tail = a ** (1 - s) / (s - 1) + a ** -s / 2 + s * a ** (-s - 1) / 12 - s * (s + 1) * (s + 2) * a ** (-s - 3) / 720
    return float(total + tail)


def _zeta_ref(x, q):
    x, q = np.broadcast_arrays(np.asarray(x), np.asarray(q))
    out = np.array([_hurwitz_zeta(a, b) for a, b in zip(x.reshape(-1).tolist(), q.reshape(-1).tolist())])
    return out.reshape(x.shape).astype(x.dtype)


def _betainc_ref(a, b, x):
    from scipy.integrate import quad
    out = []
    for av, bv, xv in zip(*(np.broadcast_to(v, np.broadcast_shapes(a.shape, b.shape, x.shape)).reshape(-1).tolist()
                           for v in (a, b, x))):
        if not (av > 0 and bv > 0 and 0 <= xv <= 1):
            out.append(math.nan)
            continue
        log_beta = math.lgamma(av) + math.lgamma(bv) - math.lgamma(av + bv)
        integral = quad(lambda t: math.exp((av - 1) * math.log(t) + (bv - 1) * math.log1p(-t) - log_beta) if 0 < t < 1
                        else 0.0, 0.0, xv, epsabs=1e-15, epsrel=1e-13, limit=200)[0]
        out.append(integral)
    return np.array(out).reshape(np.broadcast_shapes(a.shape, b.shape, x.shape)).astype(a.dtype)


def _unique_counts_ref(x):
    first, counts = {}, {}
    for v in x.tolist():
        first.setdefault(v, len(first))
        counts[v] = counts.get(v, 0) + 1
    y = np.array(list(first), x.dtype)
    return [y, np.array([first[v] for v in x.tolist()], np.int32), np.array([counts[v] for v in first], np.int32)]


def _list_diff_ref(x, y):
    drop = set(y.tolist())
    keep = [i for i, v in enumerate(x.tolist()) if v not in drop]
    return [x[keep], np.array(keep, np.int32)]


def _small_ints(dt, rng, n):
    return rng.randint(-3, 4, size=n).astype(dt)


def _cum_logsumexp_ref(axis, exclusive, reverse):
    """log of the cumulative sum of exp(x - max) plus max, in long double."""
    def ref(x):
        if x.shape[axis] == 0:
            return x.copy()
        v = x.astype(LD)
        if reverse:
            v = np.flip(v, axis)
        with np.errstate(all="ignore"):
            m = np.max(v, axis=axis, keepdims=True)
            m = np.where(np.isfinite(m), m, 0)
            out = np.log(np.cumsum(np.exp(v - m), axis=axis)) + m
            out = np.where(np.isnan(v).cumsum(axis=axis) > 0, np.nan, out)
            out = np.where(np.isposinf(v).cumsum(axis=axis) > 0, np.inf, out)
        if exclusive:
            lead = np.full_like(np.take(out, [0], axis=axis), -np.inf)
            out = np.concatenate([lead, np.take(out, np.arange(out.shape[axis] - 1), axis=axis)], axis=axis)
        if reverse:
            out = np.flip(out, axis)
        return out.astype(x.dtype)
    return ref


def _cum_logsumexp_special(dt):
    return [[np.zeros((2, 0), dt)], [np.array([[-np.inf, -np.inf, 1, np.inf], [0, np.nan, 1, 2]], dt)]]


def _euclidean_ref(axis, keepdims):
    def ref(x):
        if x.dtype.kind in "iu":  # TF: the integer part of the norm
            squares = np.sum(x.astype(object) ** 2, axis=axis, keepdims=keepdims)
            return np.vectorize(lambda v: math.isqrt(int(v)))(squares).astype(x.dtype)
        v = x.astype(np.clongdouble if x.dtype.kind == "c" else LD)
        return np.sqrt(np.sum(np.abs(v) ** 2, axis=axis, keepdims=keepdims)).astype(x.dtype)
    return ref


def _histogram_ref(nbins):
    """Counts by comparing each value with the bin edges lo + k * width (exact fractions)."""
    from fractions import Fraction

    def ref(values, value_range):
        lo, hi = Fraction(float(value_range[0])), Fraction(float(value_range[1]))
        counts = [0] * nbins
        for v in values.reshape(-1).tolist():
            if v == float("inf"):
                k = nbins - 1
            elif v == float("-inf"):
                k = 0
            else:
                k = min(max(math.floor((Fraction(float(v)) - lo) * nbins / (hi - lo)), 0), nbins - 1)
            counts[k] += 1
        return np.array(counts, np.int32)
    return ref


def _igamma_scalar(a, x, what):
    """P(a, x) (what="p"), Q = 1 - P ("q") or dP/da ("da") by P's power series in long double."""
    if math.isnan(a) or math.isnan(x) or a <= 0 or x < 0:
        return math.nan
    if what == "da" and (x == 0 or math.isinf(a) or math.isinf(x)):
        return -0.0 if math.isinf(x) and not math.isinf(a) else 0.0  # TF's signs
    if math.isinf(a) or x == 0:
        p = 0.0
    elif math.isinf(x):
        p = 1.0
    else:
        av, xv = LD(a), LD(x)
        term = np.exp(av * np.log(xv) - xv - LD(math.lgamma(a + 1)))  # x^a e^-x / Gamma(a + 1)
        total, dtotal, k = LD(0), LD(0), 0
        while True:
            total += term
            dtotal += term * (np.log(xv) - LD(_digamma(a + k + 1)))
            k += 1
            term = term * xv / (av + k)
            if term < total * LD(1e-21):
                break
        if what == "da":
            return float(dtotal)
        p = float(total)
    return p if what == "p" else 1.0 - p


def _igamma_ref(what):
    def ref(a, x):
        a, x = np.broadcast_arrays(np.asarray(a), np.asarray(x))
        out = [_igamma_scalar(u, v, what) for u, v in zip(a.reshape(-1).tolist(), x.reshape(-1).tolist())]
        return np.array(out).reshape(a.shape).astype(a.dtype)
    return ref


def _igamma_inputs(dt, rng):
    return [rand(rng, (3, 4), dt, 0.5, 4.0), rand(rng, (4,), dt, 0.1, 5.0)]


def _igamma_special(dt):
    return [[np.array([0.5, 1, 2, 3, 0, -1, np.inf, np.nan, 1, 2], dt),
             np.array([0.5, 1, 0.5, 5, 1, 1, 1, 1, 0, np.inf], dt)]]


_BOUND_TYPES = (np.float32, np.float64, np.int32, np.int64, np.float16, np.uint8, np.int8)

ROWS = [
    Row("Roll", lambda x: tf.roll(x, [1, -2], [0, 1]), lambda x: np.roll(x, (1, -2), (0, 1)),
        lambda dt, rng: [rand(rng, (3, 4), dt)], dtypes=NUMERIC + BOOL, special=_roll_special),
    Row("Roll", lambda x: tf.roll(x, [2, 3], [-1, -1]), lambda x: np.roll(x, 5, -1),
        lambda dt, rng: [rand(rng, (2, 3), dt)], dtypes=(np.float64, np.int32), special=False,
        name="Roll-repeated-axis"),
    Row("LowerBound", lambda s, v: tf.searchsorted(s, v), _count_ref(True), _sorted_inputs, dtypes=_BOUND_TYPES,
        special=_bound_special, grad=False),
    Row("UpperBound", lambda s, v: tf.searchsorted(s, v, side="right"), _count_ref(False), _sorted_inputs,
        dtypes=_BOUND_TYPES, special=_bound_special, grad=False),
    Row("UniqueWithCounts", tf.unique_with_counts, _unique_counts_ref, lambda dt, rng: [_small_ints(dt, rng, 10)],
        dtypes=(np.float32, np.float64, np.int32, np.int64, np.int8), grad=False, static_known=False,
        # NaN is left out: whether NaNs are one value or several differs between TF versions.
        special=lambda dt: [[np.zeros(0, dt)]] + ([[np.array([-0.0, 0.0, np.inf, -np.inf, np.inf], dt)]]
                                                   if np.dtype(dt).kind == "f" else []), signed_zeros=False),
    Row("ListDiff", tf.setdiff1d, _list_diff_ref,
        lambda dt, rng: [_small_ints(dt, rng, 10), _small_ints(dt, rng, 3)],
        dtypes=(np.float32, np.float64, np.int32, np.int64, np.uint8), grad=False, static_known=False,
        special=lambda dt: [[np.zeros(0, dt), np.zeros(2, dt)], [np.array([1, 2, 1], dt), np.zeros(0, dt)]]),
    Row("Zeta", tf.math.zeta, _zeta_ref,
        lambda dt, rng: [rand(rng, (3, 4), dt, 1.5, 4.0), rand(rng, (4,), dt, 0.5, 3.0)],
        dtypes=(np.float32, np.float64), grad=[1], rtol={"float64": 1e-11}, atol={"float64": 1e-12},
        special=lambda dt: [[np.array([2, 3, 1, 0.5, 2, 2, 4, np.inf, np.nan], dt),
                             np.array([1, 2, 1, 1, 0, -1, 0.5, 2, 1], dt)]]),
    Row("Betainc", tf.math.betainc, _betainc_ref,
        lambda dt, rng: [rand(rng, (3, 4), dt, 1.0, 4.0), rand(rng, (3, 4), dt, 1.0, 4.0),
                         rand(rng, (3, 4), dt, 0.05, 0.95)],
        dtypes=(np.float32, np.float64), grad=[2], rtol={"float64": 1e-9}, atol={"float64": 1e-11},
        special=lambda dt: [[np.array([1, 2, 0.5, 0, 2, -1, 1, np.nan], dt), np.array([1, 3, 0.5, 1, 2, 1, 1, 1], dt),
                             np.array([0.5, 0.3, 0.9, 0.5, 1.5, 0.5, np.nan, 0.5], dt)],
                            [np.zeros(0, dt), np.zeros(0, dt), np.zeros(0, dt)]]),
    Row("NextAfter", tf.math.nextafter, lambda a, b: np.nextafter(a, b),
        lambda dt, rng: [rand(rng, (3, 4), dt), rand(rng, (4,), dt)], dtypes=(np.float32, np.float64)),
    Row("CumulativeLogsumexp", lambda x: tf.math.cumulative_logsumexp(x, 1), _cum_logsumexp_ref(1, False, False),
        lambda dt, rng: [rand(rng, (3, 4), dt, -3, 3)], dtypes=FLOATS, special=_cum_logsumexp_special,
        rtol={"float64": 1e-11}, atol={"float64": 1e-12}),
    Row("CumulativeLogsumexp", lambda x: tf.math.cumulative_logsumexp(x, 0, exclusive=True, reverse=True),
        _cum_logsumexp_ref(0, True, True), lambda dt, rng: [rand(rng, (3, 4), dt, -3, 3)],
        dtypes=(np.float32, np.float64), special=False, rtol={"float64": 1e-11}, atol={"float64": 1e-12},
        name="CumulativeLogsumexp-exclusive-reverse"),
    Row("EuclideanNorm", lambda x: tf.math.reduce_euclidean_norm(x, 1), _euclidean_ref((1,), False),
        lambda dt, rng: [rand(rng, (3, 4), dt, -3, 3)], dtypes=FLOATS + COMPLEX,
        special=lambda dt: [[np.zeros((2, 0), dt)]] + ([[np.array([[np.nan, 1, 2], [np.inf, -np.inf, 0]], dt)]]
                                                      if np.dtype(dt).kind == "f" else [])),
    Row("EuclideanNorm", lambda x: tf.math.reduce_euclidean_norm(x, keepdims=True), _euclidean_ref(None, True),
        lambda dt, rng: [rand(rng, (3, 4), dt, -3, 3)], dtypes=(np.float64, np.int32, np.int64), special=False,
        grad=[0], name="EuclideanNorm-all-keepdims"),
    Row("HistogramFixedWidth", lambda v, r: tf.histogram_fixed_width(v, r, nbins=5), _histogram_ref(5),
        lambda dt, rng: [rand(rng, (3, 4), dt, -3, 8), np.array([0, 5], dt)],
        dtypes=(np.float32, np.float64, np.int32, np.int64), grad=False,
        special=lambda dt: [[np.zeros(0, dt), np.array([0, 5], dt)]] + (
            [[np.array([-np.inf, np.inf, -0.0, 4.999, 5.0], dt), np.array([0, 5], dt)]]
            if np.dtype(dt).kind == "f" else [])),
    Row("MulNoNan", tf.math.multiply_no_nan, hp(lambda x, y: np.where(y == 0, 0, x * y)),
        lambda dt, rng: [rand(rng, (3, 4), dt), rand(rng, (4,), dt)], dtypes=FLOATS + COMPLEX),
    Row("Igamma", tf.math.igamma, _igamma_ref("p"), _igamma_inputs, dtypes=(np.float32, np.float64),
        special=_igamma_special, rtol={"float64": 1e-11}, atol={"float64": 1e-12}),
    Row("Igammac", tf.math.igammac, _igamma_ref("q"), _igamma_inputs, dtypes=(np.float32, np.float64),
        special=_igamma_special, rtol={"float64": 1e-11}, atol={"float64": 1e-12}),
    Row("IgammaGradA", lambda a, x: tf_ops.apply_op("IgammaGradA", [a, x]), _igamma_ref("da"), _igamma_inputs,
        dtypes=(np.float32, np.float64), special=_igamma_special, rtol={"float64": 1e-9, "float32": 1e-5},
        atol={"float64": 1e-10, "float32": 1e-6}, grad=None,
        note="TF registers no gradient for IgammaGradA (asking for one raises LookupError, as in TF)."),
    Row("Lgamma", tf.math.lgamma, _elementwise(_lgamma), _positive((3, 4), -3.0, 5.0), dtypes=FLOATS,
        rtol={"float64": 1e-11}, atol={"float64": 1e-12}),
    Row("Digamma", tf.math.digamma, _elementwise(_digamma), _positive((3, 4), 0.2, 6.0), dtypes=FLOATS,
        rtol={"float64": 1e-11}, atol={"float64": 1e-12}),
    Row("Polygamma", tf.math.polygamma, _polygamma_ref, _poly_inputs, dtypes=(np.float32, np.float64),
        special=_poly_special, grad=[1], rtol={"float64": 1e-10}, atol={"float64": 1e-12}),
    Row("Erfinv", tf.math.erfinv, _elementwise(_erfinv), _positive((3, 4), -0.99, 0.99), dtypes=FLOATS,
        rtol={"float64": 1e-11}, atol={"float64": 1e-12}, grad_inputs=lambda rng: [rng.uniform(-0.9, 0.9, (3, 4))]),
    Row("Ndtri", tf.math.ndtri, _elementwise(_ndtri), _positive((3, 4), 0.01, 0.99), dtypes=FLOATS,
        rtol={"float64": 1e-11}, atol={"float64": 1e-12}, grad_inputs=lambda rng: [rng.uniform(0.05, 0.95, (3, 4))]),
    Row("BesselI0e", tf.math.bessel_i0e, _elementwise(_bessel_series(0)), _positive((3, 4), -8.0, 8.0),
        dtypes=FLOATS),
    Row("BesselI1e", tf.math.bessel_i1e, _elementwise(_bessel_series(1)), _positive((3, 4), -8.0, 8.0),
        dtypes=FLOATS),
    Row("BesselI0", tf.math.bessel_i0, _elementwise(_bessel_series(0, False)), _positive((3, 4), -8.0, 8.0),
        dtypes=FLOATS),
    Row("BesselI1", tf.math.bessel_i1, _elementwise(_bessel_series(1, False)), _positive((3, 4), -8.0, 8.0),
        dtypes=FLOATS),
    Row("Xlogy", tf.math.xlogy, _x_ref(lambda x, y: x * np.log(y)),
        lambda dt, rng: [rand(rng, (3, 4), dt), rand(rng, (4,), dt, 0.5, 2.0)], dtypes=FLOATS + COMPLEX),
    Row("Xdivy", tf.math.xdivy, _x_ref(lambda x, y: x / y),
        lambda dt, rng: [rand(rng, (3, 4), dt), rand(rng, (4,), dt, 0.5, 2.0)], dtypes=FLOATS + COMPLEX),
    Row("Xlog1py", tf.math.xlog1py, _x_ref(lambda x, y: x * np.log1p(y)),
        lambda dt, rng: [rand(rng, (3, 4), dt), rand(rng, (4,), dt, 0.5, 2.0)], dtypes=FLOATS + COMPLEX),
]
