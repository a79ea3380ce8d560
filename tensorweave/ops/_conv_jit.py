"""Max pooling, its gradient, the convolution epilogue and the patch-matrix copies (im2col, col2im)
as numba loops (the `[jit]` extra), used by `nn_conv_ops` for float32 and float64 NHWC arrays when
numba is installed; without it (or with `TW_JIT_KERNELS=0` in the environment) the NumPy kernels run.

NumPy pools with one whole-array op per window tap, and its gradient needs about four per tap (find
the first max, mask it out of the rest, route the gradient) over strided views: a 2x2 pool's
gradient made ~16 passes over memory. These loops make one pass, each window's channels innermost,
and release the GIL so `shard` runs batch blocks in parallel. They give the NumPy kernels' values
bitwise, which are TF's CPU kernels': a window's output starts at the lowest finite value and takes
each element (row major) greater than the one it holds (NaN never is); the gradient goes, as
`0 + dy`, to the window's first element or a later one greater than the one held (TF's argmax);
every other input gets +0 (TF's MaxPoolGrad zero-fills and adds). Padding taps are skipped (padding
never takes the max or the gradient). 2x2 windows at stride 2 (the common pooling) have their own
loops, the same rules with the window in registers so the channel loop vectorizes.

im2col writes each patch row once straight from the unpadded input (zeros for padding taps); col2im
gathers, for each input element, the patch entries that read it (in row-major tap order) and writes
it once, so the convolution's input gradient needs no zero fill and no padded buffer.

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


def _max_pool_2x2_loop(x, out, b0, b1, low):
    """`_max_pool_loop` for 2x2 windows at stride 2 inside the input (no padding), vectorizable over channels."""
    c = x.shape[3]
    oh, ow = out.shape[1], out.shape[2]
    for b in range(b0, b1):
        for p in range(oh):
            x0, x1 = x[b, 2 * p].reshape(-1), x[b, 2 * p + 1].reshape(-1)
            o = out[b, p].reshape(-1)
            for q in range(ow):
                e = 2 * q * c
                for k in range(c):
                    m = low
                    a = x0[e + k]
                    if m < a:
                        m = a
                    a = x0[e + c + k]
                    if m < a:
                        m = a
                    a = x1[e + k]
                    if m < a:
                        m = a
                    a = x1[e + c + k]
                    if m < a:
                        m = a
                    o[q * c + k] = m


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


def _max_pool_grad_2x2_loop(x, dy, dx, b0, b1, relu):
    """`_max_pool_grad_loop` for 2x2 windows at stride 2 inside the input (no padding): the four
    elements of each window and channel in registers, the comparisons as selects, so the channel
    loop vectorizes. Writes every input of the windows' rows and columns."""
    c = x.shape[3]
    oh, ow = dy.shape[1], dy.shape[2]
    zero = dx.dtype.type(0)
    for b in range(b0, b1):
        for p in range(oh):
            x0, x1 = x[b, 2 * p].reshape(-1), x[b, 2 * p + 1].reshape(-1)
            d0, d1 = dx[b, 2 * p].reshape(-1), dx[b, 2 * p + 1].reshape(-1)
            gr = dy[b, p].reshape(-1)
            for q in range(ow):
                e = 2 * q * c
                for k in range(c):
                    a1, a2, a3 = x0[e + c + k], x1[e + k], x1[e + c + k]
                    m = x0[e + k]
                    arg = 0
                    if m < a1:
                        m, arg = a1, 1
                    if m < a2:
                        m, arg = a2, 2
                    if m < a3:
                        m, arg = a3, 3
                    v = gr[q * c + k] + zero
                    if relu:
                        v = relu_grad_scalar(v, m, zero)
                    d0[e + k] = v if arg == 0 else zero
                    d0[e + c + k] = v if arg == 1 else zero
                    d1[e + k] = v if arg == 2 else zero
                    d1[e + c + k] = v if arg == 3 else zero


def _bias_relu_loop(rows, bias, relu):
    """`rows` (R, C) += bias (C) (when `bias` is not empty), then ReLU in place (with `relu`)."""
    zero = rows.dtype.type(0)
    add = bias.shape[0] > 0
    for r in range(rows.shape[0]):
        row = rows[r]
        for k in range(rows.shape[1]):
            v = row[k] + bias[k] if add else row[k]
            row[k] = relu_scalar(v, zero) if relu else v


def _im2col_loop(x, col, b0, b1, kh, kw, sh, sw, dh, dw, pt, pl):
    """`col` (B, OH, OW, KH, KW, C) = the patches of batch rows [b0, b0 + B) of NHWC `x`, zero where a
    tap reads padding: one pass writing each patch row once (no padded copy of `x`)."""
    h, w, c = x.shape[1], x.shape[2], x.shape[3]
    oh, ow = col.shape[1], col.shape[2]
    zero = col.dtype.type(0)
    for b in range(b0, b1):
        for p in range(oh):
            for q in range(ow):
                for i in range(kh):
                    r = p * sh + i * dh - pt
                    for j in range(kw):
                        s = q * sw + j * dw - pl
                        dst = col[b - b0, p, q, i, j]
                        if r < 0 or r >= h or s < 0 or s >= w:
                            for k in range(c):
                                dst[k] = zero
                        else:
                            src = x[b, r, s]
                            for k in range(c):
                                dst[k] = src[k]


def _col2im_loop(col, dx, b0, b1, kh, kw, sh, sw, dh, dw, pt, pl):
    """`dx` rows [b0, b0 + B) = the col2im of `col` (B, OH, OW, KH, KW, C): each input element the sum
    of the patch entries that read it, in row-major tap order, written once (no zero fill, no
    padded buffer)."""
    h, w, c = dx.shape[1], dx.shape[2], dx.shape[3]
    oh, ow = col.shape[1], col.shape[2]
    acc = np.empty(c, dx.dtype)
    zero = dx.dtype.type(0)
    for b in range(b0, b1):
        for y in range(h):
            for x in range(w):
                for k in range(c):
                    acc[k] = zero
                for i in range(kh):
                    r = y + pt - i * dh
                    if r < 0 or r % sh != 0:
                        continue
                    p = r // sh
                    if p >= oh:
                        continue
                    for j in range(kw):
                        s = x + pl - j * dw
                        if s < 0 or s % sw != 0:
                            continue
                        q = s // sw
                        if q >= ow:
                            continue
                        src = col[b - b0, p, q, i, j]
                        for k in range(c):
                            acc[k] += src[k]
                dst = dx[b, y, x]
                for k in range(c):
                    dst[k] = acc[k]


def _winograd_input_loop(x, v, first, b0, b1, th, tw, pt, pl):
    """Winograd F(2x2, 3x3) input transform: `v[:, tile]` (16, tiles, C) = B^T d B of each 4x4 input
    tile `d` of batch rows [b0, b1) of NHWC `x` (tile (ty, tx) starts at (2 ty - pt, 2 tx - pl); zero
    outside `x`), tiles numbered in row-major order from batch row `first`."""
    h, w, c = x.shape[1], x.shape[2], x.shape[3]
    d = np.empty((4, 4, c), x.dtype)
    zero = x.dtype.type(0)
    for b in range(b0, b1):
        for ty in range(th):
            for tx in range(tw):
                tile = ((b - first) * th + ty) * tw + tx
                for i in range(4):
                    r = 2 * ty - pt + i
                    for j in range(4):
                        s = 2 * tx - pl + j
                        if r < 0 or r >= h or s < 0 or s >= w:
                            for k in range(c):
                                d[i, j, k] = zero
                        else:
                            for k in range(c):
                                d[i, j, k] = x[b, r, s, k]
                for j in range(4):  # d = B^T d, in place (rows)
                    for k in range(c):
                        d0, d1, d2, d3 = d[0, j, k], d[1, j, k], d[2, j, k], d[3, j, k]
                        d[0, j, k] = d0 - d2
                        d[1, j, k] = d1 + d2
                        d[2, j, k] = d2 - d1
                        d[3, j, k] = d1 - d3
                for i in range(4):  # v = d B (columns)
                    for k in range(c):
                        t0, t1, t2, t3 = d[i, 0, k], d[i, 1, k], d[i, 2, k], d[i, 3, k]
                        v[4 * i, tile, k] = t0 - t2
                        v[4 * i + 1, tile, k] = t1 + t2
                        v[4 * i + 2, tile, k] = t2 - t1
                        v[4 * i + 3, tile, k] = t1 - t3


def _winograd_output_loop(m, out, first, b0, b1, th, tw):
    """Winograd F(2x2, 3x3) output transform: the 2x2 outputs A^T m A of each tile of `m` (16, tiles, O)
    into batch rows [b0, b1) of NHWC `out` (outputs past its edge dropped; tiles numbered from row `first`)."""
    oh, ow, o = out.shape[1], out.shape[2], out.shape[3]
    t = np.empty((2, 4, o), m.dtype)
    for b in range(b0, b1):
        for ty in range(th):
            for tx in range(tw):
                tile = ((b - first) * th + ty) * tw + tx
                for j in range(4):  # t = A^T m (rows)
                    for k in range(o):
                        m0, m1, m2, m3 = m[j, tile, k], m[4 + j, tile, k], m[8 + j, tile, k], m[12 + j, tile, k]
                        t[0, j, k] = m0 + m1 + m2
                        t[1, j, k] = m1 - m2 - m3
                for i in range(2):  # out = t A (columns)
                    y = 2 * ty + i
                    if y >= oh:
                        continue
                    x0 = 2 * tx
                    left = out[b, y, x0]
                    for k in range(o):
                        left[k] = t[i, 0, k] + t[i, 1, k] + t[i, 2, k]
                    if x0 + 1 < ow:
                        right = out[b, y, x0 + 1]
                        for k in range(o):
                            right[k] = t[i, 1, k] - t[i, 2, k] - t[i, 3, k]


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


def _tiles_2x2(g):
    """Whether every window is 2x2 at stride 2 and inside the input (the 2x2 loops' geometry)."""
    return g.kh == g.kw == g.sh == g.sw == 2 and not (g.pt or g.pl) and 2 * g.oh <= g.h and 2 * g.ow <= g.w


def max_pool(x, out, b0, b1, g):
    """Writes the max pool of batch rows [b0, b1) of NHWC `x` into `out` (geometry `g`)."""
    low = np.finfo(x.dtype).min
    if _tiles_2x2(g):
        _kernel(_max_pool_2x2_loop)(x, out, b0, b1, x.dtype.type(low))
        return
    _kernel(_max_pool_loop)(x, out, b0, b1, g.kh, g.kw, g.sh, g.sw, g.pt, g.pl, x.dtype.type(low))


def max_pool_grad(x, dy, dx, b0, b1, g, relu):
    """Writes MaxPoolGrad (times `x > 0` at the routed input with `relu`) of batch rows [b0, b1) into `dx`."""
    if _tiles_2x2(g):
        _kernel(_max_pool_grad_2x2_loop)(x, dy, dx, b0, b1, relu)
        return
    _kernel(_max_pool_grad_loop)(x, dy, dx, b0, b1, g.kh, g.kw, g.sh, g.sw, g.pt, g.pl, relu)


def bias_relu(block, bias, relu):
    """`block` (NHWC or rows by channels, C-contiguous) += `bias` (over channels; None for none), then
    ReLU with `relu`."""
    if block.size == 0:
        return
    rows = block.reshape(-1, block.shape[-1])
    _kernel(_bias_relu_loop)(rows, bias if bias is not None else rows[0, :0], relu)


def im2col(x, col, b0, g):
    """Writes the patches of batch rows [b0, b0 + len(col)) of NHWC `x` into `col` (B, OH, OW, KH, KW, C)."""
    _kernel(_im2col_loop)(x, col, b0, b0 + col.shape[0], g.kh, g.kw, g.sh, g.sw, g.dh, g.dw, g.pt, g.pl)


def col2im(col, dx, b0, g):
    """Writes into batch rows [b0, b0 + len(col)) of NHWC `dx` the col2im of `col` (B, OH, OW, KH, KW, C)."""
    _kernel(_col2im_loop)(col, dx, b0, b0 + col.shape[0], g.kh, g.kw, g.sh, g.sw, g.dh, g.dw, g.pt, g.pl)


def winograd_input(x, v, first, b0, b1, th, tw, pt, pl):
    """Writes the F(2x2, 3x3) transforms of the input tiles of batch rows [b0, b1) of `x` into `v`
    (`v`'s tile 0 being the first of row `first`)."""
    _kernel(_winograd_input_loop)(x, v, first, b0, b1, th, tw, pt, pl)


def winograd_output(m, out, first, b0, b1, th, tw):
    """Writes the F(2x2, 3x3) output tiles of `m` into batch rows [b0, b1) of `out` (`m`'s tile 0
    being the first of row `first`)."""
    _kernel(_winograd_output_loop)(m, out, first, b0, b1, th, tw)

