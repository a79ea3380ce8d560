"""NumPy calls shaped to reach NumPy's vectorised loops where the obvious call does not.

NumPy 2 runs `np.maximum(x, 0)` with a 0-d zero in a scalar loop, about 3x slower on float32 and
float64 than against an array of zeros; and a broadcast operand with a short last axis (a bias over
32 channels) makes NumPy's inner loop that short. The helpers give the obvious call's values,
bitwise (the same ufunc on the same element pairs).
"""

import numpy as np

_ROW = 2048
_zero_rows = {}


def _zero_row(dtype):
    row = _zero_rows.get(dtype)
    if row is None:
        row = _zero_rows.setdefault(dtype, np.zeros(_ROW, dtype))
    return row


def relu(x, out=None):
    """`np.maximum(x, 0)` in `x`'s dtype (into `out` when given, which may be `x`)."""
    if ((x.dtype == np.float32 or x.dtype == np.float64) and x.size >= _ROW and x.flags.c_contiguous
            and (out is None or out.flags.c_contiguous)):
        if out is None:
            out = np.empty(x.shape, x.dtype)
        xf, of, zero = x.reshape(-1), out.reshape(-1), _zero_row(x.dtype)
        m = x.size - x.size % _ROW
        np.maximum(xf[:m].reshape(-1, _ROW), zero, out=of[:m].reshape(-1, _ROW))
        np.maximum(xf[m:], zero[:x.size - m], out=of[m:])
        return out
    return np.maximum(x, np.zeros((), x.dtype), out=out)


def add_channels(block, bias):
    """`block += bias` for a C-contiguous NHWC `block` and a bias over its channels, with the bias
    repeated along the width so NumPy's inner loop runs whole image rows."""
    n, h, w, c = block.shape
    if c >= 256 or not block.flags.c_contiguous:
        np.add(block, bias, out=block)
        return
    rows = block.reshape(n * h, w * c)
    np.add(rows, np.tile(bias, w), out=rows)
