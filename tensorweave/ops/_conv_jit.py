"""Max pooling, its gradient and the convolution epilogue as numba loops (the `[jit]` extra), used by
`nn_conv_ops` for float32 and float64 NHWC arrays when numba is installed; without it (or with
`TW_JIT_KERNELS=0` in the environment) the NumPy kernels run.

NumPy pools with one whole-array op per window tap, and its gradient needs about four per tap (find
the first max, mask it out of the rest, route the gradient) over strided views: a 2x2 pool's
gradient made ~16 passes over memory. These loops make one pass, each window's channels innermost,
and release the GIL so `shard` runs batch blocks in parallel. They give the NumPy kernels' values
bitwise: a window's max propagates NaN like `np.maximum`; the gradient goes to the first tap (row
major) equal to the max, as `0 + dy`; every other input gets +0 (TF's MaxPoolGrad zero-fills and adds).
Padding taps are skipped (padding never takes the max or the gradient).

The epilogue of a fused convolution (`+ bias`, then ReLU) is one pass over the output instead of
two NumPy calls, with the same values: the float add, then ReLU. ReLU and ReluGrad are not written
here: the loops call `nn_ops.relu_scalar` and `nn_ops.relu_grad_scalar`, compiled with them, the
element forms of the ops' own definitions.
"""

import os
import threading

import numpy as np

_lock = threading.Lock()
_compiled = {}
# The element rules the loops call: nn_ops' definitions, made numba dispatchers before a loop is compiled.
relu_scalar = relu_grad_scalar = None


def _max_pool_loop(x, out, b0, b1, kh, kw, sh, sw, pt, pl):
    h, w, c = x.shape[1], x.shape[2], x.shape[3]
    oh, ow = out.shape[1], out.shape[2]
    for b in range(b0, b1):
        for p in range(oh):
            for q in range(ow):
                o = out[b, p, q]
                first = True
                for i in range(kh):
                    r = p * sh + i - pt
                    if r < 0 or r >= h:
                        continue
                    for j in range(kw):
                        s = q * sw + j - pl
                        if s < 0 or s >= w:
                            continue
                        row = x[b, r, s]
                        if first:
                            for k in range(c):
                                o[k] = row[k]
                            first = False
                        else:
                            for k in range(c):
                                v = row[k]
                                a = o[k]
                                o[k] = v if (v > a or v != v) else a


def _max_pool_grad_loop(x, y, dy, dx, b0, b1, kh, kw, sh, sw, pt, pl, relu):
    """Windows must not overlap; `dx` must be zero where no window reads (or every input in one)."""
    h, w, c = x.shape[1], x.shape[2], x.shape[3]
    oh, ow = y.shape[1], y.shape[2]
    zero = dx.dtype.type(0)
    routed = np.empty(c, np.bool_)
    g = np.empty(c, dx.dtype)
    for b in range(b0, b1):
        for p in range(oh):
            for q in range(ow):
                yy = y[b, p, q]
                gg = dy[b, p, q]
                for k in range(c):
                    routed[k] = False
                    v = gg[k] + zero
                    g[k] = relu_grad_scalar(v, yy[k], zero) if relu else v
                for i in range(kh):
                    r = p * sh + i - pt
                    if r < 0 or r >= h:
                        continue
                    for j in range(kw):
                        s = q * sw + j - pl
                        if s < 0 or s >= w:
                            continue
                        xr = x[b, r, s]
                        dr = dx[b, r, s]
                        for k in range(c):
                            hit = not routed[k] and xr[k] == yy[k]
                            dr[k] = g[k] if hit else zero
                            routed[k] = routed[k] or hit


def _bias_relu_loop(rows, bias, relu):
    """`rows` (R, C) += bias (C) (when `bias` is not empty), then ReLU in place (with `relu`)."""
    zero = rows.dtype.type(0)
    add = bias.shape[0] > 0
    for r in range(rows.shape[0]):
        row = rows[r]
        for k in range(rows.shape[1]):
            v = row[k] + bias[k] if add else row[k]
            row[k] = relu_scalar(v, zero) if relu else v


def _jit():
    """`tensorweave.kernels.jit`, or None without numba or with TW_JIT_KERNELS=0 (asked once)."""
    if "" not in _compiled:
        with _lock:
            if "" not in _compiled:
                jit = None
                if os.environ.get("TW_JIT_KERNELS", "1").strip() != "0":
                    try:
                        from ..kernels.jit import jit, require_numba
                        require_numba()
                    except ImportError:
                        jit = None
                if jit is not None:
                    from . import nn_ops
                    global relu_scalar, relu_grad_scalar
                    relu_scalar = jit(nn_ops.relu_scalar)
                    relu_grad_scalar = jit(nn_ops.relu_grad_scalar)
                _compiled[""] = jit
    return _compiled[""]


def _kernel(fn):
    """`fn` compiled by numba (on its first call; cached on disk); `usable` said numba is there."""
    name = fn.__name__
    if name not in _compiled:
        jit = _jit()  # before taking the lock, which _jit takes too
        with _lock:
            if name not in _compiled:
                try:
                    _compiled[name] = jit(fn)
                except RuntimeError:  # numba found no writable cache directory: compile per process
                    _compiled[name] = jit(fn, cache=False)
    return _compiled[name]


def usable(*arrays):
    """Whether the loops take these arrays: float32/float64 of one dtype, C-contiguous, numba present."""
    dtype = arrays[0].dtype
    if dtype != np.float32 and dtype != np.float64:
        return False
    if not all(a.dtype == dtype and a.flags.c_contiguous for a in arrays):
        return False
    return _jit() is not None


def max_pool(x, out, b0, b1, g):
    """Writes the max pool of batch rows [b0, b1) of NHWC `x` into `out` (geometry `g`)."""
    _kernel(_max_pool_loop)(x, out, b0, b1, g.kh, g.kw, g.sh, g.sw, g.pt, g.pl)


def max_pool_grad(x, y, dy, dx, b0, b1, g, relu):
    """Writes MaxPoolGrad (times `y > 0` with `relu`) of batch rows [b0, b1) into `dx`."""
    _kernel(_max_pool_grad_loop)(x, y, dy, dx, b0, b1, g.kh, g.kw, g.sh, g.sw, g.pt, g.pl, relu)


def bias_relu(block, bias, relu):
    """`block` (NHWC, C-contiguous) += `bias` (over channels; None for none), then ReLU with `relu`."""
    rows = block.reshape(-1, block.shape[-1])
    _kernel(_bias_relu_loop)(rows, bias if bias is not None else rows[0, :0], relu)
