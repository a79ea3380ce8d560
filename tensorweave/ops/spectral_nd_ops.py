"""N-dimensional spectral ops: FFTND, IFFTND (complex to complex), RFFTND (real to the Hermitian half
spectrum) and IRFFTND (back), over the dimensions named by `axes`, each cropped or zero-padded to
`fft_length`; with `tf.signal.fftnd`/`ifftnd`/`rfftnd`/`irfftnd` (TF 2.x's wrappers: default axes and
lengths, `norm`) and the raw `tf.fftnd`/`ifftnd`/`rfftnd`/`irfftnd`.

TensorFlow registers these op types with GPU kernels only and no gradients; here they run on every
device and have gradients of the same form as those of FFT/RFFT/IRFFT (`ifftnd(g) * n`, ...).
TensorFlow's C++ shape functions return the input's shape unchanged; the static shapes here are the
ones the kernels produce (`fft_length` along `axes`, half of the last one for RFFTND).
"""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .array_helpers import _check_dtype, _dims, _int_list, _invalid, _value, _with_rank, _with_rank_at_least

__all__ = ["fftnd", "ifftnd", "rfftnd", "irfftnd", "raw_fftnd", "raw_ifftnd", "raw_rfftnd", "raw_irfftnd"]

_COMPLEX = (dtypes.complex64, dtypes.complex128)
_REAL = (dtypes.float32, dtypes.float64)
_NP = {dtypes.complex64: np.complex64, dtypes.complex128: np.complex128, dtypes.float32: np.float32,
       dtypes.float64: np.float64}


# ---- shape inference -------------------------------------------------------------------------------
def _static_axes(op, rank):
    """(fft_length, axes) as lists of ints where statically known (else None); checks what is known."""
    x, fl_t, ax_t = op._inputs
    _with_rank(fl_t, 1)
    _with_rank(ax_t, 1)
    fl, ax = _value(fl_t), _value(ax_t)
    fl = None if fl is None else _int_list(fl)
    ax = None if ax is None else _int_list(ax)
    n_fl, n_ax = _dims(fl_t), _dims(ax_t)
    if n_fl is not None and n_ax is not None and n_fl[0] is not None and n_ax[0] is not None and n_fl[0] != n_ax[0]:
        raise ValueError("fft_length and axes must have the same length, got %d and %d"
                         % (n_fl[0], n_ax[0]))
    if fl is not None and any(n < 0 for n in fl):
        raise ValueError("fft_length must be >= 0, got %s" % (fl,))
    if ax is not None and rank is not None:
        _check_axes_static(ax, rank)
        ax = [a % rank for a in ax]
    return fl, ax


def _check_axes_static(ax, rank):
    for a in ax:
        if not -rank <= a < rank:
            raise ValueError("axes %s out of range for a tensor of rank %d" % (ax, rank))
    if len({a % rank for a in ax}) != len(ax):
        raise ValueError("axes must be distinct, got %s" % (ax,))


def _nd_infer(kind):
    def infer(op):
        x = op._inputs[0]
        dims = _dims(x)
        _with_rank_at_least(dims, 1)
        if kind == "c2c":
            out_dtype = x._dtype
        elif kind == "r2c":
            out_dtype = op._attrs["Tcomplex"]
        else:
            out_dtype = op._attrs["Treal"]
        fl, ax = _static_axes(op, None if dims is None else len(dims))
        if fl is None:  # partially known lengths (a stack of sizes): their known entries
            from ..framework.tensor_util import constant_value_as_shape
            part = constant_value_as_shape(op._inputs[1])
            if part.ndims is not None:
                fl = list(part.as_tuple())
        if dims is None:
            return [(out_dtype, None)]
        if ax is None:
            return [(out_dtype, (None,) * len(dims))]
        out = list(dims)
        for i, a in enumerate(ax):
            if fl is None:
                out[a] = None
            elif i < len(fl):
                n = fl[i]
                out[a] = None if n is None else (n // 2 + 1 if (kind == "r2c" and i == len(ax) - 1) else n)
        return [(out_dtype, tuple(out))]
    return infer


# ---- kernels ---------------------------------------------------------------------------------------
def _checked(x, fft_length, axes, op_type):
    if x.ndim < 1:
        raise _invalid("%s: input must have rank of at least 1 but got: []" % op_type)
    fl, ax = _int_list(fft_length), _int_list(axes)
    if len(fl) != len(ax):
        raise _invalid("%s: fft_length and axes must have the same length, got %d and %d"
                       % (op_type, len(fl), len(ax)))
    if not ax:
        raise _invalid("%s: axes must not be empty" % op_type)
    for a in ax:
        if not -x.ndim <= a < x.ndim:
            raise _invalid("%s: axes[%d] = %d is out of range for a tensor of rank %d"
                           % (op_type, ax.index(a), a, x.ndim))
    ax = [a % x.ndim for a in ax]
    if len(set(ax)) != len(ax):
        raise _invalid("%s: axes must be distinct, got %s" % (op_type, _int_list(axes)))
    for i, n in enumerate(fl):
        if n < 0:
            raise _invalid("%s: fft_length[%d] must >= 0, but got: %d" % (op_type, i, n))
    return fl, ax


def _fit_np(xp, x, sizes, ax):
    """`x` cropped or zero-padded at the end of dimensions `ax` to `sizes`."""
    x = x[tuple(slice(0, sizes[ax.index(d)]) if d in ax else slice(None) for d in range(x.ndim))]
    pad = [(0, sizes[ax.index(d)] - x.shape[d]) if d in ax else (0, 0) for d in range(x.ndim)]
    if any(p[1] for p in pad):
        x = xp.pad(x, pad)
    return x


def _c2c_kernel(inverse):
    op_type = "IFFTND" if inverse else "FFTND"

    def kernel(xp, x, fft_length, axes):
        fl, ax = _checked(x, fft_length, axes, op_type)
        x = _fit_np(xp, x, fl, ax)
        if x.size == 0:
            return xp.zeros(x.shape, x.dtype)
        y = xp.fft.ifftn(x, axes=ax) if inverse else xp.fft.fftn(x, axes=ax)
        return y.astype(x.dtype, copy=False)
    return kernel


def _rfftnd_kernel(xp, x, fft_length, axes, Tcomplex):  # noqa: N803 (TF's attr name)
    fl, ax = _checked(x, fft_length, axes, "RFFTND")
    x = _fit_np(xp, x, fl, ax)
    out_shape = list(x.shape)
    out_shape[ax[-1]] = fl[-1] // 2 + 1
    if x.size == 0:
        return xp.zeros(out_shape, _NP[Tcomplex])
    return xp.fft.rfftn(x, axes=ax).astype(_NP[Tcomplex], copy=False)


def _irfftnd_kernel(xp, x, fft_length, axes, Treal):  # noqa: N803
    fl, ax = _checked(x, fft_length, axes, "IRFFTND")
    half = list(fl)
    half[-1] = fl[-1] // 2 + 1
    x = _fit_np(xp, x, half, ax)
    out_shape = list(x.shape)
    out_shape[ax[-1]] = fl[-1]
    if int(np.prod(out_shape)) == 0:
        return xp.zeros(out_shape, _NP[Treal])
    return xp.fft.irfftn(x, s=fl, axes=ax).astype(_NP[Treal], copy=False)


# ---- gradients -------------------------------------------------------------------------------------
def _fit_like(t, like):
    """Tensor `t` cropped or zero-padded at the end of each dimension to the run-time shape of `like`."""
    from . import array_ops, core_ops, math_ops
    ts, ls = array_ops.shape(t), array_ops.shape(like)
    t = array_ops.slice(t, core_ops.zeros_like(ts), math_ops.minimum(ts, ls))
    after = math_ops.maximum(ls - ts, 0)
    out = array_ops.pad(t, array_ops.stack([core_ops.zeros_like(ts), after], axis=1))
    return array_ops.reshape(out, ls) if like.shape.is_fully_defined() else out


def _size(fl, dtype):
    from . import math_ops
    return math_ops.cast(math_ops.cast(math_ops.reduce_prod(fl), dtypes.float64), dtype)


def _last_axis_weights(g, fl, axes, edge, interior):
    """A tensor broadcasting along `g`: `edge` on the bins of the last transformed axis that a real
    inverse transform counts once (0, and n/2 for an even n), `interior` on the others."""
    from . import array_ops, array_shape_ops, core_ops, math_ops
    n_last = fl[-1]
    idx = array_shape_ops.range(n_last // 2 + 1)
    is_edge = math_ops.logical_or(math_ops.equal(idx, 0), math_ops.equal(idx * 2, n_last))
    ones = core_ops.ones_like(idx, dtype=dtypes.float64)
    w = array_ops.where(is_edge, ones * edge, ones * interior)
    r = array_ops.rank(g)
    last = math_ops.floormod(axes[-1], r)
    dims = array_shape_ops.range(r)
    shape = array_ops.where(math_ops.equal(dims, last), core_ops.zeros_like(dims) + (n_last // 2 + 1),
                            core_ops.ones_like(dims))
    return math_ops.cast(array_ops.reshape(w, shape), g.dtype)


def _fftnd_grad(op, g):
    x, fl, axes = op._inputs
    return [_fit_like(raw_ifftnd(g, fl, axes) * _size(fl, g.dtype), x), None, None]


def _ifftnd_grad(op, g):
    x, fl, axes = op._inputs
    return [_fit_like(raw_fftnd(g, fl, axes) / _size(fl, g.dtype), x), None, None]


def _rfftnd_grad(op, g):
    # dL/dx = Re(sum over the half spectrum of g e^(+2 pi i <j, k>)), = n * irfftnd(g * w) with w = 1/2
    # on the bins irfftnd counts twice.
    x, fl, axes = op._inputs
    w = _last_axis_weights(g, fl, axes, 1.0, 0.5)
    dx = raw_irfftnd(g * w, fl, axes, Treal=x.dtype) * _size(fl, x.dtype)
    return [_fit_like(dx, x), None, None]


def _irfftnd_grad(op, g):
    # The RFFTND of g / n, doubled on the bins irfftnd counts twice (as TF's IRFFT gradient).
    x, fl, axes = op._inputs
    w = _last_axis_weights(g, fl, axes, 1.0, 2.0)
    dx = raw_rfftnd(g, fl, axes, Tcomplex=x.dtype) * _cast(w / _size(fl, g.dtype), x.dtype)
    return [_fit_like(dx, x), None, None]


def _cast(t, dtype):
    from . import math_ops
    return math_ops.cast(t, dtype)


register_op("FFTND", infer=_nd_infer("c2c"), kernel=_c2c_kernel(False), grad=_fftnd_grad, gpu=True,
            host_inputs=frozenset({1, 2}))
register_op("IFFTND", infer=_nd_infer("c2c"), kernel=_c2c_kernel(True), grad=_ifftnd_grad, gpu=True,
            host_inputs=frozenset({1, 2}))
register_op("RFFTND", infer=_nd_infer("r2c"), kernel=_rfftnd_kernel, grad=_rfftnd_grad, gpu=True,
            host_inputs=frozenset({1, 2}))
register_op("IRFFTND", infer=_nd_infer("c2r"), kernel=_irfftnd_kernel, grad=_irfftnd_grad, gpu=True,
            host_inputs=frozenset({1, 2}))


# ---- the raw constructors (tf.fftnd, ...) ------------------------------------------------------------
def _int32(v, name):
    t = ops.convert_to_tensor(v, dtype=dtypes.int32, name=name)
    return t


def _out_dtype(value, allowed, attr, names):
    value = dtypes.as_dtype(value)
    if value not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (attr, value.name, names))
    return value


def _raw(op_type, input, fft_length, axes, name, allowed, type_attr, attrs=None):  # noqa: A002
    with ops.name_scope(name, op_type, [input, fft_length, axes]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        _check_dtype(x, allowed, type_attr, op_type)
        return ops.apply_op(op_type, [x, _int32(fft_length, "fft_length"), _int32(axes, "axes")], attrs, name=scope)


def raw_fftnd(input, fft_length, axes, name=None):  # noqa: A002 (TF's argument name)
    """ND fast Fourier transform over the dimensions `axes` of `input` (TF's raw `FFTND`).

    Each dimension `axes[i]` is cropped or zero-padded at its end to `fft_length[i]` first.

    Args:
      input: A `Tensor` of type `complex64` or `complex128`.
      fft_length: An int32 vector: the FFT length of each transformed dimension.
      axes: An int32 vector (the same length): the dimensions to transform (negative counts from the end).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `input`'s type, with `fft_length[i]` elements along `axes[i]`.

    Raises:
      TypeError: If `input` is not complex.
      ValueError: If `input` is a scalar, or statically known axes/lengths are inconsistent.
      InvalidArgumentError: At run time, for axes out of range or repeated, lengths that differ in
        number from the axes, or a negative length.
    """
    return _raw("FFTND", input, fft_length, axes, name, _COMPLEX, "Tcomplex")


def raw_ifftnd(input, fft_length, axes, name=None):  # noqa: A002
    """ND inverse fast Fourier transform over the dimensions `axes` of `input` (TF's raw `IFFTND`).

    Args:
      input: A `Tensor` of type `complex64` or `complex128`.
      fft_length: An int32 vector: the FFT length of each transformed dimension (crop or zero-pad).
      axes: An int32 vector (the same length): the dimensions to transform.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `input`'s type, with `fft_length[i]` elements along `axes[i]`.

    Raises:
      TypeError: If `input` is not complex.
      ValueError: If `input` is a scalar, or statically known axes/lengths are inconsistent.
      InvalidArgumentError: At run time, for invalid axes or lengths.
    """
    return _raw("IFFTND", input, fft_length, axes, name, _COMPLEX, "Tcomplex")


def raw_rfftnd(input, fft_length, axes, Tcomplex=dtypes.complex64, name=None):  # noqa: A002,N803
    """ND fast Fourier transform of a real signal (TF's raw `RFFTND`).

    The last transformed dimension keeps only its `fft_length[-1] // 2 + 1` unique (non-negative
    frequency) components.

    Args:
      input: A `Tensor` of type `float32` or `float64`.
      fft_length: An int32 vector: the FFT length of each transformed dimension (crop or zero-pad).
      axes: An int32 vector (the same length): the dimensions to transform.
      Tcomplex: The output type, `tf.complex64` (default) or `tf.complex128`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `Tcomplex`.

    Raises:
      TypeError: If `input` is not float32/float64 or `Tcomplex` not complex.
      ValueError: If `input` is a scalar, or statically known axes/lengths are inconsistent.
      InvalidArgumentError: At run time, for invalid axes or lengths.
    """
    Tcomplex = _out_dtype(Tcomplex, _COMPLEX, "Tcomplex", "complex64, complex128")  # noqa: N806
    return _raw("RFFTND", input, fft_length, axes, name, _REAL, "Treal", {"Tcomplex": Tcomplex})


def raw_irfftnd(input, fft_length, axes, Treal=dtypes.float32, name=None):  # noqa: A002,N803
    """ND inverse fast Fourier transform back to a real signal (TF's raw `IRFFTND`).

    The last transformed dimension of `input` holds the `fft_length[-1] // 2 + 1` unique components of
    a Hermitian spectrum; the other transformed dimensions are cropped or zero-padded to `fft_length`.

    Args:
      input: A `Tensor` of type `complex64` or `complex128`.
      fft_length: An int32 vector: the output length of each transformed dimension.
      axes: An int32 vector (the same length): the dimensions to transform.
      Treal: The output type, `tf.float32` (default) or `tf.float64`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `Treal` with `fft_length[i]` elements along `axes[i]`.

    Raises:
      TypeError: If `input` is not complex or `Treal` not float32/float64.
      ValueError: If `input` is a scalar, or statically known axes/lengths are inconsistent.
      InvalidArgumentError: At run time, for invalid axes or lengths.
    """
    Treal = _out_dtype(Treal, _REAL, "Treal", "float32, float64")  # noqa: N806
    return _raw("IRFFTND", input, fft_length, axes, name, _COMPLEX, "Tcomplex", {"Treal": Treal})


# ---- tf.signal wrappers ----------------------------------------------------------------------------
def _defaults(x, fft_length, axes, inverse_real):
    """(fft_length tensor, axes tensor, static fft_length list or None) with TF 2.x's defaults: all
    dimensions; the input's sizes along `axes` (for irfftnd, 2 * (m - 1) on the last one)."""
    from . import array_ops, math_ops
    if axes is None:
        if x.shape.ndims is None:
            raise ValueError("fftnd with axes=None needs an input of known rank")
        axes = list(range(x.shape.ndims))
    axes_t = ops.convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
    if fft_length is None:
        ax = _value(axes_t)
        dims = _dims(x)
        if ax is not None and dims is not None and all(dims[a] is not None for a in _int_list(ax)):
            fl = [dims[a] for a in _int_list(ax)]
            if inverse_real:
                fl[-1] = max(0, 2 * (fl[-1] - 1))
            fft_length = fl
        elif ax is not None and dims is not None:  # known axes, some sizes known: a stack keeps them static
            shape = array_ops.shape(x, out_type=dtypes.int32)
            fl = [dims[a] if dims[a] is not None else shape[a] for a in _int_list(ax)]
            if inverse_real:
                last = fl[-1]
                fl[-1] = max(0, 2 * (last - 1)) if isinstance(last, int) else math_ops.maximum(0, 2 * (last - 1))
            fft_length = array_ops.stack(fl)
        else:
            fl = array_ops.gather(array_ops.shape(x, out_type=dtypes.int32),
                                  math_ops.floormod(axes_t, array_ops.rank(x)))
            if inverse_real:
                last = math_ops.maximum(0, 2 * (fl[-1:] - 1))
                fl = array_ops.concat([fl[:-1], last], 0)
            fft_length = fl
    fl_t = ops.convert_to_tensor(fft_length, dtype=dtypes.int32, name="fft_length")
    static = _value(fl_t)
    return fl_t, axes_t, None if static is None else _int_list(static)


def _norm_factor(norm, fl_t, static, dtype):
    """The factor TF's wrappers scale the input by: 1 (backward), n (forward) or sqrt(n) (ortho)."""
    from . import math_ops
    if norm is None or norm == "backward":
        return None
    if norm not in ("forward", "ortho"):
        raise ValueError('Invalid norm value %r; should be "backward", "ortho" or "forward".' % (norm,))
    if static is not None:
        n = float(np.prod(static, dtype=np.float64))
        value = n if norm == "forward" else float(np.sqrt(n))
        return ops.convert_to_tensor(value, dtype=dtype)
    n = math_ops.cast(math_ops.reduce_prod(fl_t), dtypes.float64)
    return math_ops.cast(n if norm == "forward" else math_ops.sqrt(n), dtype)


def _wrapper_doc(what, in_type, out):
    return """Computes the {what} over the dimensions `axes` of `input_tensor`.

    Args:
      input_tensor: A `Tensor` of type {in_type}.
      fft_length: An int32 vector, the FFT length along each of `axes` (each dimension is cropped or
        zero-padded at its end). Defaults to the input's sizes along `axes`{extra}.
      axes: An int32 vector of the dimensions to transform (negative counts from the end). Defaults to
        all dimensions.
      norm: "backward" (the default: no scaling forward, 1/n inverse), "ortho" (1/sqrt(n) both ways) or
        "forward" (1/n forward, none inverse), n = prod(fft_length).
      name: A name for the operation (optional).

    Returns:
      {out}

    Raises:
      ValueError: For an invalid `norm` or input type, or `axes=None` with an input of unknown rank.
      InvalidArgumentError: At run time, for axes out of range or repeated, or invalid lengths.
    """.format(what=what, in_type=in_type, out=out,
               extra=" (for the last axis of irfftnd, 2 * (size - 1))" if "inverse real" in what else "")


def _wrapper(scope_name, input_tensor, fft_length, axes, norm, name, preferred, allowed, error, inverse, raw,
             inverse_real=False):
    """The body of the tf.signal wrappers: convert (a non-`allowed` input is cast to complex64, or with
    `error` rejected), default `fft_length`/`axes` (`inverse_real`: for irfftnd), scale by the norm factor
    (multiply when `inverse`) and call `raw(x, fft_length, axes, scope)`."""
    with ops.name_scope(name, scope_name, [input_tensor, fft_length, axes]) as scope:
        x = ops.convert_to_tensor(input_tensor, preferred_dtype=preferred, name="input_tensor")
        if x.dtype not in allowed:
            if error is not None:
                raise ValueError(error % x)
            x = _cast(x, dtypes.complex64)
        fl_t, axes_t, static = _defaults(x, fft_length, axes, inverse_real)
        f = _norm_factor(norm, fl_t, static, x.dtype)
        if f is not None:
            x = x * f if inverse else x / f
        return raw(x, fl_t, axes_t, scope)


def fftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    return _wrapper("fftnd", input_tensor, fft_length, axes, norm, name, dtypes.complex64, _COMPLEX, None, False,
                    lambda x, fl, ax, scope: raw_fftnd(x, fl, ax, name=scope))


def ifftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    return _wrapper("ifftnd", input_tensor, fft_length, axes, norm, name, dtypes.complex64, _COMPLEX, None, True,
                    lambda x, fl, ax, scope: raw_ifftnd(x, fl, ax, name=scope))


def rfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    return _wrapper("rfftnd", input_tensor, fft_length, axes, norm, name, dtypes.float32, _REAL,
                    "RFFT requires tf.float32 or tf.float64 inputs, got: %s", False,
                    lambda x, fl, ax, scope: raw_rfftnd(
                        x, fl, ax, Tcomplex=dtypes.complex64 if x.dtype == dtypes.float32 else dtypes.complex128,
                        name=scope))


def irfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    return _wrapper("irfftnd", input_tensor, fft_length, axes, norm, name, dtypes.complex64, _COMPLEX,
                    "IRFFT requires tf.complex64 or tf.complex128 inputs, got: %s", True,
                    lambda x, fl, ax, scope: raw_irfftnd(x, fl, ax, Treal=x.dtype.real_dtype, name=scope),
                    inverse_real=True)


fftnd.__doc__ = _wrapper_doc("N-D discrete Fourier transform", "`complex64` or `complex128` (other numeric "
                             "inputs are converted to complex64)", "A complex `Tensor` of the input's type.")
ifftnd.__doc__ = _wrapper_doc("inverse N-D discrete Fourier transform", "`complex64` or `complex128`",
                              "A complex `Tensor` of the input's type.")
rfftnd.__doc__ = _wrapper_doc("N-D discrete Fourier transform of a real signal", "`float32` or `float64`",
                              "A complex `Tensor` (complex64 for float32 input, else complex128), with "
                              "`fft_length[-1] // 2 + 1` elements along the last of `axes`.")
irfftnd.__doc__ = _wrapper_doc("inverse real N-D discrete Fourier transform", "`complex64` or `complex128`",
                               "A real `Tensor` (float32 for complex64 input, else float64).")
