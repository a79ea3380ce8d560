"""Spectral ops: the discrete Fourier transforms FFT/IFFT (1-D, 2-D, 3-D over the innermost
dimensions, complex to complex) and RFFT/IRFFT (real to Hermitian half spectrum and back, with TF's
`fft_length` semantics), with TF's gradients."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .array_helpers import _check_dtype, _dims, _int_list, _invalid, _value, _with_rank, _with_rank_at_least

_COMPLEX = (dtypes.complex64, dtypes.complex128)
_REAL = (dtypes.float32, dtypes.float64)
_REAL_OF = {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}
_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}
_NP_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}
_NP_REAL_OF = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}


# ---- complex to complex ----------------------------------------------------------------------
def _fft_infer(rank):
    def infer(op):
        (x,) = op._inputs
        dims = _dims(x)
        _with_rank_at_least(dims, rank)
        return [(x._dtype, dims)]
    return infer


def _check_rank(x, rank):
    if x.ndim < rank:
        raise _invalid("Input must have rank of at least %d but got: [%s]" % (rank, ",".join(map(str, x.shape))))


def _fft_kernel(rank, inverse):
    def kernel(xp, x):
        _check_rank(x, rank)
        axes = tuple(range(-rank, 0))
        if x.size == 0:
            return xp.zeros(x.shape, x.dtype)
        y = xp.fft.ifftn(x, axes=axes) if inverse else xp.fft.fftn(x, axes=axes)
        return y.astype(x.dtype, copy=False)
    return kernel


def _fft_size(t, rank):
    """The number of points of the transform over the innermost `rank` dimensions of `t`, as a
    scalar tensor of `t`'s (complex) dtype."""
    from . import array_ops, math_ops
    dims = _dims(t)
    if dims is not None and all(d is not None for d in dims[len(dims) - rank:]):
        return ops.convert_to_tensor(complex(np.prod(dims[len(dims) - rank:], dtype=np.float64)), dtype=t.dtype)
    shape = array_ops.shape(t)
    n = math_ops.reduce_prod(shape[-rank:])
    return math_ops.cast(n, t.dtype)


def _fft_grad(rank, inverse):
    def grad(op, g):
        # TF: the gradient of fft is ifft(g) * n, that of ifft is fft(g) / n.
        n = _fft_size(g, rank)
        if inverse:
            return [_FFT_FNS[rank][0](g) * (1.0 / n)]
        return [_FFT_FNS[rank][1](g) * n]
    return grad


_FFT_TYPES = {1: ("FFT", "IFFT"), 2: ("FFT2D", "IFFT2D"), 3: ("FFT3D", "IFFT3D")}
for _rank, (_fwd, _inv) in _FFT_TYPES.items():
    register_op(_fwd, infer=_fft_infer(_rank), kernel=_fft_kernel(_rank, False), grad=_fft_grad(_rank, False),
                gpu=True)
    register_op(_inv, infer=_fft_infer(_rank), kernel=_fft_kernel(_rank, True), grad=_fft_grad(_rank, True),
                gpu=True)


def _c2c(op_type, input, name):  # noqa: A002 (TF's argument name)
    x = ops.convert_to_tensor(input, name="input")
    _check_dtype(x, _COMPLEX, "input", op_type)
    return ops.apply_op(op_type, [x], name=name)


_C2C_DOC = """Computes the {what} over the inner-most {k} dimension{s} of `input`.

    Args:
      input: A `Tensor` of type `complex64` or `complex128`, of rank at least {k}.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same type and shape as `input`.

    Raises:
      TypeError: If `input` is not complex.
      ValueError: If `input`'s static rank is less than {k}.
      InvalidArgumentError: At run time, if `input`'s rank is less than {k}.
    """


def fft(input, name=None):  # noqa: A002
    return _c2c("FFT", input, name)


def ifft(input, name=None):  # noqa: A002
    return _c2c("IFFT", input, name)


def fft2d(input, name=None):  # noqa: A002
    return _c2c("FFT2D", input, name)


def ifft2d(input, name=None):  # noqa: A002
    return _c2c("IFFT2D", input, name)


def fft3d(input, name=None):  # noqa: A002
    return _c2c("FFT3D", input, name)


def ifft3d(input, name=None):  # noqa: A002
    return _c2c("IFFT3D", input, name)


for _f, _what, _k in ((fft, "1-D discrete Fourier transform", 1), (ifft, "inverse 1-D discrete Fourier transform", 1),
                      (fft2d, "2-D discrete Fourier transform", 2),
                      (ifft2d, "inverse 2-D discrete Fourier transform", 2),
                      (fft3d, "3-D discrete Fourier transform", 3),
                      (ifft3d, "inverse 3-D discrete Fourier transform", 3)):
    _f.__doc__ = _C2C_DOC.format(what=_what, k=_k, s="" if _k == 1 else "s")

_FFT_FNS = {1: (fft, ifft), 2: (fft2d, ifft2d), 3: (fft3d, ifft3d)}


# ---- real to complex and back ----------------------------------------------------------------
def _fft_length_static(op, rank):
    """The statically known fft_length of `op` (a list of ints), or None; checks its shape."""
    fl = op._inputs[1]
    _with_rank(fl, 1)
    d = _dims(fl)
    if d is not None and d[0] is not None and d[0] != rank:
        raise ValueError("Dimension must be %d but is %d" % (rank, d[0]))
    v = _value(fl)
    return None if v is None else _int_list(v)


def _real_fft_infer(rank, inverse):
    def infer(op):
        x = op._inputs[0]
        dims = _dims(x)
        _with_rank_at_least(dims, rank)
        fl = _fft_length_static(op, rank)
        out_dtype = _REAL_OF[x._dtype] if inverse else _COMPLEX_OF[x._dtype]
        if dims is None:
            return [(out_dtype, None)]
        inner = [None] * rank if fl is None else list(fl)
        if fl is not None and not inverse:
            inner[-1] = fl[-1] // 2 + 1
        return [(out_dtype, tuple(dims[:len(dims) - rank]) + tuple(inner))]
    return infer


def _fit(xp, x, sizes):
    """`x` cropped or zero-padded at the end of its innermost dimensions to `sizes`."""
    rank = len(sizes)
    lead = x.ndim - rank
    x = x[(slice(None),) * lead + tuple(slice(0, s) for s in sizes)]
    pad = [(0, 0)] * lead + [(0, s - d) for s, d in zip(sizes, x.shape[lead:])]
    if any(p[1] for p in pad):
        x = xp.pad(x, pad)
    return x


def _check_fft_length(x, fl, rank, inverse):
    fl = _int_list(fl)
    if len(fl) != rank:
        raise _invalid("fft_length must be length %d, got: %d" % (rank, len(fl)))
    for i, n in enumerate(fl):
        if n < 0:
            raise _invalid("fft_length[%d] must >= 0, but got: %d" % (i, n))
    lead = x.ndim - rank
    for i, n in enumerate(fl):
        need = n // 2 + 1 if (inverse and i == rank - 1) else n
        if x.shape[lead + i] < need:
            raise _invalid("Input dimension %d must have length of at least %d but got: %d"
                           % (lead + i, need, x.shape[lead + i]))
    return fl


def _rfft_kernel(rank):
    def kernel(xp, x, fft_length):
        _check_rank(x, rank)
        fl = _check_fft_length(x, fft_length, rank, False)
        out_dtype = _NP_COMPLEX_OF[x.dtype]
        out_shape = x.shape[:x.ndim - rank] + tuple(fl[:-1]) + (fl[-1] // 2 + 1,)
        x = _fit(xp, x, fl)
        if x.size == 0:
            return xp.zeros(out_shape, out_dtype)
        return xp.fft.rfftn(x, s=fl, axes=tuple(range(-rank, 0))).astype(out_dtype, copy=False)
    return kernel


def _irfft_kernel(rank):
    def kernel(xp, x, fft_length):
        _check_rank(x, rank)
        fl = _check_fft_length(x, fft_length, rank, True)
        out_dtype = _NP_REAL_OF[x.dtype]
        out_shape = x.shape[:x.ndim - rank] + tuple(fl)
        if int(np.prod(out_shape)) == 0:
            return xp.zeros(out_shape, out_dtype)
        x = _fit(xp, x, fl[:-1] + [fl[-1] // 2 + 1])
        return xp.fft.irfftn(x, s=fl, axes=tuple(range(-rank, 0))).astype(out_dtype, copy=False)
    return kernel


def _fit_like(t, like, rank):
    """Tensor `t` cropped or zero-padded at the end of its innermost `rank` dimensions to the
    (run time) sizes of the same dimensions of `like`."""
    from . import array_ops, core_ops, math_ops
    ts, ls = array_ops.shape(t), array_ops.shape(like)
    r = array_ops.rank(t)
    lead = r - rank
    sizes = array_ops.concat([ts[:lead], math_ops.minimum(ts[lead:], ls[lead:])], 0)
    t = array_ops.slice(t, core_ops.zeros_like(ts), sizes)
    after = array_ops.concat([core_ops.zeros_like(ts[:lead]), math_ops.maximum(ls[lead:] - ts[lead:], 0)], 0)
    paddings = array_ops.stack([core_ops.zeros_like(ts), after], axis=1)
    out = array_ops.pad(t, paddings)
    return array_ops.reshape(out, array_ops.shape(like)) if like.shape.is_fully_defined() else out


def _edge_bins(fl):
    """Whether each bin of the last axis's half spectrum of size `fl[-1]` is one that irfft counts once
    (frequency 0, and n/2 for an even n): a bool vector."""
    from . import array_shape_ops, math_ops
    n_last = fl[-1]
    idx = array_shape_ops.range(n_last // 2 + 1)
    return math_ops.logical_or(math_ops.equal(idx, 0), math_ops.equal(idx * 2, n_last))


def _rfft_grad(rank, irfft_fn):
    def grad(op, g):
        # x real, y = rfft(x, n): dL/dx_j = Re(sum_k g_k e^(2 pi i jk/n)) over the half spectrum k, which
        # is prod(n) * irfft(g * w, n) with w = 1/2 on the bins irfft counts twice (TF's gradient's
        # value); then cropped or zero-padded back to x's size.
        from . import math_ops
        x, fl = op._inputs
        real = x.dtype
        w = math_ops.cast(math_ops.cast(_edge_bins(fl), real) * 0.5 + 0.5, g.dtype)
        n = math_ops.cast(math_ops.reduce_prod(fl), real)
        dx = irfft_fn(g * w, fl) * n
        return [_fit_like(dx, x, rank), None]
    return grad


def _irfft_grad(rank, rfft_fn):
    def grad(op, g):
        # TF: rfft(g, n) * mask / prod(n), mask = 1 at frequency 0 (and n/2 for even n), 2 elsewhere
        # along the last axis; fitted to the input's size.
        from . import math_ops
        y, fl = op._inputs
        real = g.dtype
        mask = 2.0 - math_ops.cast(_edge_bins(fl), real)
        rsize = math_ops.reciprocal(math_ops.cast(math_ops.reduce_prod(fl), real))
        dy = rfft_fn(g, fl) * math_ops.cast(mask * rsize, y.dtype)
        return [_fit_like(dy, y, rank), None]
    return grad


def _real_wrapper(op_type, rank, inverse, input_tensor, fft_length, name):  # noqa: A002
    from . import array_ops, math_ops
    with ops.name_scope(name, op_type.lower(), [input_tensor, fft_length]) as scope:
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        _check_dtype(x, _COMPLEX if inverse else _REAL, "input", op_type)
        if fft_length is None:
            dims = _dims(x)
            if dims is not None and len(dims) < rank:
                raise ValueError("Shape must be at least rank %d but is rank %d" % (rank, len(dims)))
            inner = None if dims is None else list(dims[len(dims) - rank:])
            if inner is not None and all(d is not None for d in inner):
                if inverse:
                    inner[-1] = max(0, 2 * (inner[-1] - 1))
                fft_length = ops.convert_to_tensor(inner, dtype=dtypes.int32, name="fft_length")
            else:
                shp = array_ops.shape(x)[-rank:]
                if inverse:
                    last = math_ops.maximum(0, 2 * (shp[-1] - 1))
                    shp = array_ops.concat([shp[:-1], array_ops.expand_dims(last, 0)], 0)
                fft_length = shp
        else:
            fft_length = ops.convert_to_tensor(fft_length, dtype=dtypes.int32, name="fft_length")
        x = _pad_to(x, fft_length, rank, inverse)
        return ops.apply_op(op_type, [x, fft_length], name=scope)


def _pad_to(x, fft_length, rank, inverse):
    """TF's `_maybe_pad_for_rfft`: zero-pads the innermost dims of `x` up to `fft_length` (the
    last one to fft_length // 2 + 1 for the inverse), never crops."""
    from . import array_ops, core_ops, math_ops
    fl = _value(fft_length)
    dims = _dims(x)
    if fl is not None and dims is not None and all(d is not None for d in dims[len(dims) - rank:]):
        need = _int_list(fl)
        if inverse:
            need[-1] = need[-1] // 2 + 1
        inner = dims[len(dims) - rank:]
        pads = [max(0, n - d) for n, d in zip(need, inner)]
        if not any(pads):
            return x
        paddings = [[0, 0]] * (len(dims) - rank) + [[0, p] for p in pads]
        return array_ops.pad(x, paddings)
    need = fft_length
    if inverse:
        need = array_ops.concat([fft_length[:-1], array_ops.expand_dims(fft_length[-1] // 2 + 1, 0)], 0)
    xs = array_ops.shape(x)
    lead = array_ops.rank(x) - rank
    after = array_ops.concat([core_ops.zeros_like(xs[:lead]), math_ops.maximum(need - xs[lead:], 0)], 0)
    return array_ops.pad(x, array_ops.stack([core_ops.zeros_like(xs), after], axis=1))


_R2C_DOC = """Computes the {what} over the inner-most {k} dimension{s} of `input_tensor`.

    Args:
      input_tensor: A `Tensor` of type {intype}, of rank at least {k}.
      fft_length: An int32 `Tensor` of shape [{k}]: the FFT length of each dimension (default: from
        `input_tensor`'s shape{default}). Inputs longer than `fft_length` are cropped; shorter ones
        are zero-padded.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type {outtype}: the inner-most {k} dimension{s} replaced by {outdims}.

    Raises:
      TypeError: If `input_tensor` has another dtype.
      ValueError: If the static rank of `input_tensor` is less than {k}, or `fft_length` has another shape.
      InvalidArgumentError: At run time, for a negative `fft_length` or an input of too small a rank.
    """


def _make_real(op_type, rank, inverse):
    def f(input_tensor, fft_length=None, name=None):
        return _real_wrapper(op_type, rank, inverse, input_tensor, fft_length, name)
    f.__name__ = f.__qualname__ = op_type.lower()
    if inverse:
        f.__doc__ = _R2C_DOC.format(what="inverse %d-D discrete Fourier transform of a real signal" % rank, k=rank,
                                    s="" if rank == 1 else "s", intype="`complex64` or `complex128`",
                                    default=", the last one 2 * (n - 1)",
                                    outtype="`float32` (complex64 input) or `float64`", outdims="`fft_length`")
    else:
        f.__doc__ = _R2C_DOC.format(what="%d-D discrete Fourier transform of a real signal" % rank, k=rank,
                                    s="" if rank == 1 else "s", intype="`float32` or `float64`", default="",
                                    outtype="`complex64` (float32 input) or `complex128`",
                                    outdims="`fft_length`, the last one `fft_length[-1] // 2 + 1`")
    return f


rfft = _make_real("RFFT", 1, False)
irfft = _make_real("IRFFT", 1, True)
rfft2d = _make_real("RFFT2D", 2, False)
irfft2d = _make_real("IRFFT2D", 2, True)
rfft3d = _make_real("RFFT3D", 3, False)
irfft3d = _make_real("IRFFT3D", 3, True)

for _rank, (_r, _ir, _rfn, _irfn) in {1: ("RFFT", "IRFFT", rfft, irfft), 2: ("RFFT2D", "IRFFT2D", rfft2d, irfft2d),
                                      3: ("RFFT3D", "IRFFT3D", rfft3d, irfft3d)}.items():
    register_op(_r, infer=_real_fft_infer(_rank, False), kernel=_rfft_kernel(_rank), grad=_rfft_grad(_rank, _irfn),
                gpu=True, host_inputs=(1,))
    register_op(_ir, infer=_real_fft_infer(_rank, True), kernel=_irfft_kernel(_rank),
                grad=_irfft_grad(_rank, _rfn), gpu=True, host_inputs=(1,))

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d", "irfft2d", "rfft3d",
           "irfft3d"]
