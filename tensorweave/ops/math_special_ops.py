"""Math ops: special functions (Lgamma, Digamma, Polygamma, Erfinv, Ndtri, BesselI0e/I1e, BesselI0/I1,
Zeta, Betainc, Igamma/Igammac/IgammaGradA; kernels from SciPy's `scipy.special`, imported on first
use: the `[special]` extra), the `0 * f(y) = 0` products Xlogy, Xdivy, Xlog1py (NumPy only), and
the compositions lbeta, log_sigmoid, erfcinv."""

import math

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from . import core_ops
from .array_helpers import _dims, _fmt, _merge_dims
from .array_select_ops import where, where_v2
from .math_binary_ops import add, greater, multiply, not_equal, realdiv, subtract
from .math_helpers import _FLOAT, _FLOAT_COMPLEX, _broadcast_infer, _check_dtype, _convert_same, _op_scope
from .math_unary_ops import abs as _abs
from .math_unary_ops import cast, exp, log, negative, sign, square

_F32_F64 = (dtypes.float32, dtypes.float64)


def _special():
    """`scipy.special`, or an ImportError naming the extra that installs it."""
    try:
        import scipy.special
    except ImportError as e:  # pragma: no cover - SciPy is installed with the [special] extra
        raise ImportError("This op needs SciPy (scipy.special): install tensorweave's [special] extra "
                          "(pip install 'tensorweave[special]').") from e
    return scipy.special


def _compute_dtype(dt):
    """float16 is computed in float32 and rounded back, as TF's half kernels do."""
    return np.float32 if dt == np.float16 else dt


def _special_kernel(fn_name, fixup=None):
    def kernel(xp, x):
        out = getattr(_special(), fn_name)(x.astype(_compute_dtype(x.dtype), copy=False))
        if fixup is not None:
            out = fixup(x, out)
        return np.asarray(out).astype(x.dtype, copy=False)
    return kernel


def _lgamma_fixup(x, out):
    # TF (Eigen) gives +inf at -inf; SciPy's gammaln gives -inf.
    return np.where(np.isneginf(x), np.inf, out)


def _digamma_fixup(x, out):
    # TF (Eigen) gives NaN at the poles (0, -0 and the negative integers); SciPy gives +-inf at 0.
    with np.errstate(invalid="ignore"):
        pole = (x <= 0) & (np.floor(x) == x)
    return np.where(pole, np.nan, out)


def _lgamma_grad(op, grad):
    """d lgamma(x) = grad * digamma(x)."""
    return [multiply(grad, digamma(op._inputs[0]))]


def _digamma_grad(op, grad):
    """d digamma(x) = grad * polygamma(1, x)."""
    x = op._inputs[0]
    return [multiply(grad, polygamma(ops.convert_to_tensor(1, dtype=x.dtype), x))]


def _erfinv_grad(op, grad):
    """d erfinv(x) = grad * sqrt(pi) / 2 * exp(erfinv(x)^2)."""
    y = op._outputs[0]
    return [multiply(grad, multiply(ops.convert_to_tensor(math.sqrt(math.pi) / 2, dtype=y.dtype), exp(square(y))))]


def _ndtri_grad(op, grad):
    """d ndtri(x) = grad * sqrt(2 pi) * exp(ndtri(x)^2 / 2)."""
    y = op._outputs[0]
    half = ops.convert_to_tensor(0.5, dtype=y.dtype)
    return [multiply(grad, multiply(ops.convert_to_tensor(math.sqrt(2 * math.pi), dtype=y.dtype),
                                    exp(multiply(square(y), half))))]


def _bessel_i0e_grad(op, grad):
    """d i0e(x) = grad * (i1e(x) - sign(x) * i0e(x))."""
    x, y = op._inputs[0], op._outputs[0]
    return [multiply(grad, subtract(bessel_i1e(x), multiply(sign(x), y)))]


def _bessel_i1e_grad(op, grad):
    """d i1e(x) = grad * (i0e(x) - i1e(x) * (sign(x) + 1 / x)), 0.5 where |x| <= eps (TF's form)."""
    x, y = op._inputs[0], op._outputs[0]
    eps = ops.convert_to_tensor(np.finfo(x.dtype.as_numpy_dtype).eps, dtype=x.dtype)
    not_tiny = greater(_abs(x), eps)
    safe_x = where(not_tiny, x, add(core_ops.zeros_like(x), eps))
    dy_dx = subtract(bessel_i0e(safe_x), multiply(y, add(sign(safe_x), realdiv(
        ops.convert_to_tensor(1, dtype=x.dtype), safe_x))))
    dy_dx = where(not_tiny, dy_dx, add(core_ops.zeros_like(x), ops.convert_to_tensor(0.5, dtype=x.dtype)))
    return [multiply(grad, dy_dx)]


def _inf_is_nan_fixup(x, out):
    # TF (Eigen) gives NaN at +-inf for the unscaled Bessel functions; SciPy gives +-inf.
    return np.where(np.isinf(x), np.nan, out)


def _bessel_i0_grad(op, grad):
    """d i0(x) = grad * i1(x)."""
    return [multiply(grad, bessel_i1(op._inputs[0]))]


def _bessel_i1_grad(op, grad):
    """d i1(x) = grad * (i0(x) - i1(x) / x), 1 at x == 0 (TF's form)."""
    x, y = op._inputs[0], op._outputs[0]
    from .math_binary_ops import equal
    zero = ops.convert_to_tensor(0, dtype=x.dtype)
    dy_dx = where_v2(equal(x, zero), ops.convert_to_tensor(1, dtype=x.dtype), subtract(bessel_i0(x), realdiv(y, x)))
    return [multiply(grad, dy_dx)]


_UNARY = [
    ("Lgamma", "lgamma", "gammaln", _lgamma_fixup, _lgamma_grad,
     "Computes the log of the absolute value of `Gamma(x)` element-wise (+inf at the poles and at -inf)."),
    ("Digamma", "digamma", "psi", _digamma_fixup, _digamma_grad,
     "Computes Psi, the derivative of `lgamma(x)`, element-wise (NaN at 0 and the negative integers)."),
    ("Erfinv", "erfinv", "erfinv", None, _erfinv_grad,
     "Computes the inverse error function of `x` element-wise (NaN outside [-1, 1], +-inf at +-1)."),
    ("Ndtri", "ndtri", "ndtri", None, _ndtri_grad,
     "Computes the inverse of the standard normal CDF element-wise (NaN outside [0, 1], +-inf at 1 and 0)."),
    ("BesselI0e", "bessel_i0e", "i0e", None, _bessel_i0e_grad,
     "Computes the exponentially scaled modified Bessel function of order 0, `exp(-|x|) * i0(x)`, element-wise."),
    ("BesselI1e", "bessel_i1e", "i1e", None, _bessel_i1e_grad,
     "Computes the exponentially scaled modified Bessel function of order 1, `exp(-|x|) * i1(x)`, element-wise."),
    ("BesselI0", "bessel_i0", "i0", _inf_is_nan_fixup, _bessel_i0_grad,
     "Computes the modified Bessel function of order 0, `i0(x)`, element-wise (NaN at +-inf, as TF)."),
    ("BesselI1", "bessel_i1", "i1", _inf_is_nan_fixup, _bessel_i1_grad,
     "Computes the modified Bessel function of order 1, `i1(x)`, element-wise (NaN at +-inf, as TF)."),
]


def _make_unary(op_type, func_name, scipy_name, fixup, grad, doc):
    register_op(op_type, infer=core_ops.same_as_input, kernel=_special_kernel(scipy_name, fixup), grad=grad,
                elementwise=True, transcendental=True)
    scoped = op_type.startswith("Bessel")  # TF wraps these in a name scope named after the function

    def fn(x, name=None):
        _special()  # SciPy missing: the ImportError naming the extra, when the op is built
        with _op_scope(name, func_name if scoped else op_type, [x]) as scope:
            x = ops.convert_to_tensor(x, name="x")
            _check_dtype(x, _FLOAT)
            return ops.apply_op(op_type, [x], name=op_type if scoped else scope)

    fn.__name__ = fn.__qualname__ = func_name
    fn.__module__ = __name__
    fn.__doc__ = ("%s\n\n    Kernel: `scipy.special.%s` (SciPy, the `[special]` extra).\n\n    Args:\n"
                  "      x: A `Tensor` of type float16, float32 or float64.\n"
                  "      name: A name for the operation (optional).\n\n"
                  "    Returns:\n      A `Tensor`. Has the same type as `x`.\n\n    Raises:\n      TypeError: If `x` "
                  "has another dtype.\n      ImportError: If SciPy is not installed.\n"
                  % (doc, scipy_name))
    return fn


lgamma, digamma, erfinv, ndtri, bessel_i0e, bessel_i1e, bessel_i0, bessel_i1 = (_make_unary(*row) for row in _UNARY)


def _scipy_binary(op_type, x, y, names, name):
    """Builds the float32/float64 SciPy-kernel op `op_type` on `x` and `y` (named `names`), with the same
    dtype (checked on the first)."""
    _special()  # SciPy missing: the ImportError naming the extra, when the op is built
    with _op_scope(name, op_type, [x, y]) as scope:
        x, y = _convert_same([x, y], names, op_type)
        _check_dtype(x, _F32_F64, names[0])
        return ops.apply_op(op_type, [x, y], name=scope)


# ---- Polygamma ----------------------------------------------------------------------------------
def _polygamma_kernel(xp, a, x):
    special = _special()
    with np.errstate(all="ignore"):
        a_b, x_b = np.broadcast_arrays(a, x)
        out = special.polygamma(np.where(np.floor(a_b) == a_b, a_b, 0), x_b)
        # TF: NaN for a non-integer or negative order and at -inf; digamma's poles are NaN (order 0),
        # those of higher orders +inf.
        bad = (np.floor(a_b) != a_b) | (a_b < 0) | np.isneginf(x_b)
        pole = (x_b <= 0) & (np.floor(x_b) == x_b)
        out = np.where(pole, np.where(a_b == 0, np.nan, np.inf), out)
        out = np.where(bad, np.nan, out)
        out = np.where(np.isposinf(x_b) & ~bad, np.where(a_b == 0, np.inf, 0.0), out)
    return np.asarray(out).astype(x.dtype, copy=False)


def _polygamma_grad(op, grad):
    """d polygamma(a, x) / dx = polygamma(a + 1, x); no gradient for the order `a`."""
    a, x = op._inputs
    partial = polygamma(add(a, ops.convert_to_tensor(1, dtype=a.dtype)), x)
    return [None, core_ops.unbroadcast(multiply(grad, partial), x)]


register_op("Polygamma", infer=_broadcast_infer, kernel=_polygamma_kernel, grad=_polygamma_grad, elementwise=True,
            transcendental=True)


def polygamma(a, x, name=None):
    """Computes the polygamma function `psi^(a)(x)`, the `a`-th derivative of digamma, element-wise.

    Kernel: `scipy.special.polygamma` (SciPy, the `[special]` extra). NaN for orders that are not
    non-negative integers.

    Args:
      a: A `Tensor` of type float32 or float64: the order.
      x: A `Tensor` of the same type as `a` (broadcast against it).
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `a`.

    Raises:
      TypeError: If the dtypes differ or are not float32/float64.
      ImportError: If SciPy is not installed.
    """
    return _scipy_binary("Polygamma", a, x, ("a", "x"), name)


# ---- Xlogy / Xdivy / Xlog1py --------------------------------------------------------------------
def _x_kernel(f):
    def kernel(xp, x, y):
        with np.errstate(all="ignore"):
            out = f(xp, x, y)
            return xp.where(x == 0, xp.zeros((), out.dtype), out).astype(x.dtype, copy=False)
    return kernel


def _not_zero(x):
    return cast(not_equal(x, ops.convert_to_tensor(0, dtype=x.dtype)), x.dtype)


def _xlogy_grad(op, grad):
    """d xlogy(x, y) = (xlogy(x != 0, y), xdivy(x, y)), each summed over its broadcast axes."""
    x, y = op._inputs
    gx = multiply(xlogy(_not_zero(x), y), grad)
    gy = multiply(xdivy(x, y), grad)
    return [core_ops.unbroadcast(gx, x), core_ops.unbroadcast(gy, y)]


def _xdivy_grad(op, grad):
    """d xdivy(x, y) = (xdivy(x != 0, y), xdivy(-x, y^2)), each summed over its broadcast axes."""
    x, y = op._inputs
    gx = multiply(xdivy(_not_zero(x), y), grad)
    gy = multiply(xdivy(negative(x), square(y)), grad)
    return [core_ops.unbroadcast(gx, x), core_ops.unbroadcast(gy, y)]


def _xlog1py_grad(op, grad):
    """d xlog1py(x, y) = (xlog1py(x != 0, y), xdivy(x, y + 1)), each summed over its broadcast axes."""
    x, y = op._inputs
    gx = multiply(xlog1py(_not_zero(x), y), grad)
    gy = multiply(xdivy(x, add(y, ops.convert_to_tensor(1, dtype=y.dtype))), grad)
    return [core_ops.unbroadcast(gx, x), core_ops.unbroadcast(gy, y)]


def _x_binary(func_name, op_type, f, grad, summary):
    """Registers `op_type` (Xlogy, Xdivy or Xlog1py: `f` where `x != 0`, else 0) and returns its public
    constructor `func_name(x, y, name=None)`, with its docstring's first line `summary`."""
    register_op(op_type, infer=_broadcast_infer, kernel=_x_kernel(f), grad=grad, gpu=True, elementwise=True,
                transcendental=op_type != "Xdivy")

    def fn(x, y, name=None):
        with _op_scope(name, op_type, [x, y]) as scope:
            x, y = _convert_same([x, y], ("x", "y"), op_type)
            _check_dtype(x, _FLOAT_COMPLEX)
            return ops.apply_op(op_type, [x, y], name=scope)

    fn.__name__ = fn.__qualname__ = func_name
    fn.__doc__ = """%s

    Args:
      x: A `Tensor` of type float16, float32, float64, complex64 or complex128.
      y: A `Tensor` of the same type as `x` (broadcast against it).
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `x`.

    Raises:
      TypeError: If the dtypes differ or are not allowed.
    """ % summary
    return fn


xlogy = _x_binary("xlogy", "Xlogy", lambda xp, x, y: x * xp.log(y), _xlogy_grad,
                  "Returns 0 if `x == 0`, and `x * log(y)` otherwise, element-wise (even where `y` is 0 or NaN).")
xdivy = _x_binary("xdivy", "Xdivy", lambda xp, x, y: x / y, _xdivy_grad,
                  "Returns 0 if `x == 0`, and `x / y` otherwise, element-wise (even where `y` is 0 or NaN).")
xlog1py = _x_binary("xlog1py", "Xlog1py", lambda xp, x, y: x * xp.log1p(y), _xlog1py_grad,
                    "Returns 0 if `x == 0`, and `x * log1p(y)` otherwise, element-wise (even where `y` is -1 or NaN).")


# ---- Zeta / Betainc -------------------------------------------------------------------------------
def _zeta_kernel(xp, x, q):
    with np.errstate(all="ignore"):
        x_b, q_b = np.broadcast_arrays(x, q)
        out = _special().zeta(x_b, q_b)
        # TF (Eigen): NaN for x < 1 (and NaN inputs), +inf at x == 1 and at the poles q = 0, -1, -2, ...
        pole = (q_b <= 0) & (np.floor(q_b) == q_b)
        out = np.where(pole & (x_b >= 1), np.inf, out)
        out = np.where(x_b == 1, np.inf, out)
        out = np.where((x_b < 1) | np.isnan(x_b) | np.isnan(q_b), np.nan, out)
        out = np.where(np.isposinf(x_b) & (q_b > 1), 0.0, out)  # each term (q + n)^-inf is 0
    return np.asarray(out).astype(x.dtype, copy=False)


def _zeta_grad(op, grad):
    """d zeta(x, q) / dq = -x * zeta(x + 1, q); no gradient for `x`."""
    x, q = op._inputs
    partial = multiply(negative(x), zeta(add(x, ops.convert_to_tensor(1, dtype=x.dtype)), q))
    return [None, core_ops.unbroadcast(multiply(partial, grad), q)]


register_op("Zeta", infer=_broadcast_infer, kernel=_zeta_kernel, grad=_zeta_grad, elementwise=True,
            transcendental=True)


def zeta(x, q, name=None):
    """Computes the Hurwitz zeta function `sum_n (q + n)^-x` element-wise.

    Kernel: `scipy.special.zeta` (SciPy, the `[special]` extra). NaN for `x < 1`, +inf at `x == 1`
    and where `q` is a non-positive integer.

    Args:
      x: A `Tensor` of type float32 or float64.
      q: A `Tensor` of the same type as `x` (broadcast against it).
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `x`.

    Raises:
      TypeError: If the dtypes differ or are not float32/float64.
      ImportError: If SciPy is not installed.
    """
    return _scipy_binary("Zeta", x, q, ("x", "q"), name)


def _betainc_infer(op):
    a, b, x = op._inputs
    for name, t in (("b", b), ("x", x)):
        if t._dtype is not a._dtype:
            raise TypeError("Input '%s' of 'Betainc' Op has type %s that does not match type %s of argument 'a'."
                            % (name, t._dtype.name, a._dtype.name))
    out, first, unknown = (), None, False  # (): every input a scalar so far
    for name, t in zip("abx", op._inputs):
        dims = _dims(t)
        if dims is None:
            unknown = True
        elif dims and first is None:
            first, out = (name, dims), dims
        elif dims:
            out = _merge_dims(out, dims)
    return [(a._dtype, None if first is None and unknown else out)]


def _betainc_kernel(xp, a, b, x):
    shapes = [np.shape(v) for v in (a, b, x)]
    full = [s for s in shapes if len(s)]
    if any(s != full[0] for s in full):
        names = [n for n, s in zip("abx", shapes) if len(s)]
        bad = next(i for i, s in enumerate(full) if s != full[0])
        raise errors.InvalidArgumentError(None, None, "Shapes of %s and %s are inconsistent: %s vs. %s" % (
            names[0], names[bad], _fmt(full[0]), _fmt(full[bad])))
    with np.errstate(all="ignore"):
        a_b, b_b, x_b = np.broadcast_arrays(a, b, x)
        out = _special().betainc(a_b, b_b, x_b)
        # TF (Eigen): NaN unless a > 0, b > 0 and 0 <= x <= 1.
        bad = ~((a_b > 0) & (b_b > 0) & (x_b >= 0) & (x_b <= 1))
        out = np.where(bad, np.nan, out)
    return np.asarray(out).astype(a.dtype, copy=False)


def _betainc_grad(op, grad):
    """d betainc(a, b, x) / dx = x^(a-1) (1-x)^(b-1) / B(a, b); no gradient for `a` and `b`."""
    a, b, x = op._inputs
    one = ops.convert_to_tensor(1, dtype=a.dtype)
    log_beta = subtract(add(lgamma(a), lgamma(b)), lgamma(add(a, b)))
    partial = exp(subtract(add(xlog1py(subtract(b, one), negative(x)), xlogy(subtract(a, one), x)), log_beta))
    return [None, None, core_ops.unbroadcast(multiply(partial, grad), x)]


register_op("Betainc", infer=_betainc_infer, kernel=_betainc_kernel, grad=_betainc_grad)


def betainc(a, b, x, name=None):
    """Computes the regularized incomplete beta integral `I_x(a, b)` element-wise.

    `a`, `b` and `x` have one shape, or are scalars (broadcast to the others' shape).
    Kernel: `scipy.special.betainc` (SciPy, the `[special]` extra). NaN unless `a > 0`, `b > 0`
    and `0 <= x <= 1`.

    Args:
      a: A `Tensor` of type float32 or float64.
      b: A `Tensor` of the same type as `a`.
      x: A `Tensor` of the same type as `a`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `a`.

    Raises:
      TypeError: If the dtypes differ or are not float32/float64.
      ValueError: If the non-scalar shapes differ.
      ImportError: If SciPy is not installed.
    """
    _special()
    with _op_scope(name, "Betainc", [a, b, x]) as scope:
        a, b, x = _convert_same([a, b, x], ("a", "b", "x"), "Betainc")
        _check_dtype(a, _F32_F64, "a")
        return ops.apply_op("Betainc", [a, b, x], name=scope)


# ---- lbeta / log_sigmoid (compositions, as TF builds them) ---------------------------------------
def lbeta(x, name=None):
    """Computes `ln(|Beta(x)|)` over the last dimension: `sum(lgamma(x)) - lgamma(sum(x))`.

    Args:
      x: A rank `n + 1` float `Tensor`.
      name: A name for the operation (optional).

    Returns:
      The logarithm of `|Beta(x)|`, reducing the last dimension (-inf for an empty one).

    Raises:
      ImportError: If SciPy is not installed.
    """
    from .math_reduce_ops import reduce_sum
    with ops.name_scope(name, "lbeta", [x]):
        x = ops.convert_to_tensor(x, name="x")
        log_prod_gamma_x = reduce_sum(lgamma(x), axis=[-1])
        log_gamma_sum_x = lgamma(reduce_sum(x, axis=[-1]))
        return log_prod_gamma_x - log_gamma_sum_x


def log_sigmoid(x, name=None):
    """Computes `log(sigmoid(x))` element-wise, as `-softplus(-x)` (stable for large `|x|`).

    Args:
      x: A float `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type as `x`.
    """
    from .nn_activation_ops import softplus
    with ops.name_scope(name, "LogSigmoid", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        return ops.apply_op("Neg", [softplus(negative(x))], name=scope)


def erfcinv(x, name=None):
    """Computes the inverse of the complementary error function, `-ndtri(x / 2) / sqrt(2)`, element-wise.

    Args:
      x: A float `Tensor` (NaN outside [0, 2], +inf at 0, -inf at 2).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type as `x`.

    Raises:
      ImportError: If SciPy is not installed.
    """
    with ops.name_scope(name, "erfcinv", [x]):
        x = ops.convert_to_tensor(x, name="start")
        return -ndtri(0.5 * x) * np.sqrt(0.5)


# ---- Igamma / Igammac / IgammaGradA ---------------------------------------------------------------
def _igamma_kernel(upper):
    def kernel(xp, a, x):
        special = _special()
        with np.errstate(all="ignore"):
            a_b, x_b = np.broadcast_arrays(a, x)
            out = (special.gammaincc if upper else special.gammainc)(a_b, x_b)
            # TF (Eigen): NaN unless a > 0 and x >= 0.
            out = np.where((a_b > 0) & (x_b >= 0), out, np.nan)
        return np.asarray(out).astype(a.dtype, copy=False)
    return kernel


def _igamma_grad_a_kernel(xp, a, x):
    """d igamma(a, x) / da by Richardson-extrapolated central differences of `scipy.special.gammainc`
    in float64 (steps 1e-3 * a and half that: truncation error O(h^4), about 1e-11 relative)."""
    special = _special()
    with np.errstate(all="ignore"):
        a_b, x_b = np.broadcast_arrays(a.astype(np.float64), x.astype(np.float64))
        h = 1e-3 * np.where(a_b > 0, a_b, 1.0)

        def central(step):
            return (special.gammainc(a_b + step, x_b) - special.gammainc(a_b - step, x_b)) / (2 * step)
        out = (4 * central(h / 2) - central(h)) / 3
        out = np.where((a_b > 0) & (x_b >= 0), out, np.nan)
        out = np.where((x_b == 0) & (a_b > 0), 0.0, out)
        # TF: 0 for a = +inf, -0 for x = +inf (P is flat there).
        out = np.where(np.isposinf(a_b) & (x_b >= 0), 0.0, out)
        out = np.where(np.isposinf(x_b) & (a_b > 0), -0.0, out)
    return np.asarray(out).astype(a.dtype, copy=False)


def _igamma_partials(op):
    a, x = op._inputs
    partial_a = ops.apply_op("IgammaGradA", [a, x])
    one = ops.convert_to_tensor(1, dtype=a.dtype)
    partial_x = exp(subtract(add(negative(x), multiply(subtract(a, one), log(x))), lgamma(a)))
    return a, x, partial_a, partial_x


def _igamma_grad(op, grad):
    """(igamma_grad_a(a, x), exp(-x + (a - 1) log x - lgamma(a))) times grad, summed over broadcast axes."""
    a, x, pa, px = _igamma_partials(op)
    return [core_ops.unbroadcast(multiply(pa, grad), a), core_ops.unbroadcast(multiply(px, grad), x)]


def _igammac_grad(op, grad):
    """The negated gradient of igamma (igammac = 1 - igamma)."""
    a, x, pa, px = _igamma_partials(op)
    return [core_ops.unbroadcast(negative(multiply(pa, grad)), a),
            core_ops.unbroadcast(negative(multiply(px, grad)), x)]


register_op("Igamma", infer=_broadcast_infer, kernel=_igamma_kernel(False), grad=_igamma_grad, elementwise=True,
            transcendental=True)
register_op("Igammac", infer=_broadcast_infer, kernel=_igamma_kernel(True), grad=_igammac_grad, elementwise=True,
            transcendental=True)
register_op("IgammaGradA", infer=_broadcast_infer, kernel=_igamma_grad_a_kernel, grad=None, elementwise=True,
            transcendental=True)


def igamma(a, x, name=None):
    """Computes the lower regularized incomplete Gamma function `P(a, x)` element-wise.

    Kernel: `scipy.special.gammainc` (SciPy, the `[special]` extra). NaN unless `a > 0` and `x >= 0`.

    Args:
      a: A `Tensor` of type float32 or float64.
      x: A `Tensor` of the same type as `a` (broadcast against it).
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `a`.

    Raises:
      TypeError: If the dtypes differ or are not float32/float64.
      ImportError: If SciPy is not installed.
    """
    return _scipy_binary("Igamma", a, x, ("a", "x"), name)


def igammac(a, x, name=None):
    """Computes the upper regularized incomplete Gamma function `Q(a, x) = 1 - P(a, x)` element-wise.

    Kernel: `scipy.special.gammaincc` (SciPy, the `[special]` extra). NaN unless `a > 0` and `x >= 0`.

    Args:
      a: A `Tensor` of type float32 or float64.
      x: A `Tensor` of the same type as `a` (broadcast against it).
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type as `a`.

    Raises:
      TypeError: If the dtypes differ or are not float32/float64.
      ImportError: If SciPy is not installed.
    """
    return _scipy_binary("Igammac", a, x, ("a", "x"), name)
