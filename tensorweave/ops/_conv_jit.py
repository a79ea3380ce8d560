"""Max pooling, its gradient and the convolution epilogue as numba loops (the `[jit]` extra), used by
`nn_conv_ops` for float32 and float64 NHWC arrays when numba is installed; without it (or with
`TW_JIT_KERNELS=0` in the environment) the NumPy kernels run.

NumPy pools with one whole-array op per window tap, and its gradient needs about four per tap (find
the first max, mask it out of the rest, route the gradient) over strided views: a 2x2 pool's
gradient made ~16 passes over memory. These loops make one pass, each window's channels innermost,
and release the GIL so `shard` runs batch blocks in parallel. They give the NumPy kernels' values
bitwise, which are TF's CPU kernels': a window's output starts at the lowest finite value and takes
each element (row major) greater than the one it holds (NaN never is); the gradient goes, as
`0 + dy`, to the window's first element or a later one greater than the one held (TF's argmax);
every other input gets +0 (TF's MaxPoolGrad zero-fills and adds). Padding taps are skipped (padding
never takes the max or the gradient).

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


def _max_pool_loop(x, out, b0, b1, kh, kw, sh, sw, pt, pl, low):
    h, w, c = x.shape[1], x.shape[2], x.shape[3]
    oh, ow = out.shape[1], out.shape[2]
    for b in range(b0, b1):
        for p in range(oh):
            for q in range(ow):
                o = out[b, p, q]
                for k in range(c):
                    o[k] = low
                for i in range(kh):
                    r = p * sh + i - pt
                    if r < 0 or r >= h:
                        continue
                    for j in range(kw):
                        s = q * sw + j - pl
                        if s < 0 or s >= w:
                            continue
                        row = x[b, r, s]
                        for k in range(c):
                            v = row[k]
                            if o[k] < v:
                                o[k] = v


def _max_pool_grad_loop(x, dy, dx, b0, b1, kh, kw, sh, sw, pt, pl, relu):
    """Windows must not overlap; `dx` must be zero where no window reads (or every input in one)."""
    h, w, c = x.shape[1], x.shape[2], x.shape[3]
    oh, ow = dy.shape[1], dy.shape[2]
    zero = dx.dtype.type(0)
    best = np.empty(c, x.dtype)
    arg = np.empty(c, np.int64)
    for b in range(b0, b1):
        for p in range(oh):
            for q in range(ow):
                gg = dy[b, p, q]
                # The argmax: the window's first element, then each later one greater than the one held.
                n = 0
                for i in range(kh):
                    r = p * sh + i - pt
                    if r < 0 or r >= h:
                        continue
                    for j in range(kw):
                        s = q * sw + j - pl
                        if s < 0 or s >= w:
                            continue
                        xr = x[b, r, s]
                        for k in range(c):
                            v = xr[k]
                            if n == 0 or best[k] < v:
                                best[k] = v
                                arg[k] = n
                        n += 1
                n = 0
                for i in range(kh):
                    r = p * sh + i - pt
                    if r < 0 or r >= h:
                        continue
                    for j in range(kw):
                        s = q * sw + j - pl
                        if s < 0 or s >= w:
                            continue
                        dr = dx[b, r, s]
                        for k in range(c):
                            if arg[k] == n:
                                v = gg[k] + zero
                                dr[k] = relu_grad_scalar(v, best[k], zero) if relu else v
                            else:
                                dr[k] = zero
                        n += 1


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
    low = np.finfo(x.dtype).min
    _kernel(_max_pool_loop)(x, out, b0, b1, g.kh, g.kw, g.sh, g.sw, g.pt, g.pl, x.dtype.type(low))


def max_pool_grad(x, dy, dx, b0, b1, g, relu):
    """Writes MaxPoolGrad (times `x > 0` at the routed input with `relu`) of batch rows [b0, b1) into `dx`."""
    _kernel(_max_pool_grad_loop)(x, dy, dx, b0, b1, g.kh, g.kw, g.sh, g.sw, g.pt, g.pl, relu)


def bias_relu(block, bias, relu):
    """`block` (NHWC, C-contiguous) += `bias` (over channels; None for none), then ReLU with `relu`."""
    rows = block.reshape(-1, block.shape[-1])
    _kernel(_bias_relu_loop)(rows, bias if bias is not None else rows[0, :0], relu)
