"""TF's counter-based generator, Philox4x32-10, and the distributions TF's stateless random ops draw
with it (tensorflow/core/lib/random/philox_random.h, random_distributions.h), vectorized in NumPy
uint32/uint64 arithmetic so that every value is bit for bit TF's.

A stream is a 64-bit key and a 128-bit counter; each call of the generator turns (counter, key)
into one block of four uint32 and advances the counter by one. Block `i` of a stream is therefore
the Philox function of (counter + i, key): `blocks(key, counter, n)` computes n blocks at once.

The transcendental functions of the Box-Muller transform are the C library's, as TF calls them:
`math.log`/`math.sin`/`math.cos` (the C library's `log`/`sin`/`cos`) for doubles, and the C
library's `logf`/`sinf`/`cosf` through ctypes for floats (glibc's float functions are not the
correctly rounded double results: about 1% of arguments differ in the last bit). Where the C math
library cannot be loaded, the float functions are evaluated in double precision and rounded.
"""

import math

import numpy as np

__all__ = ["blocks", "key_counter_from_seed", "uniform_bits", "uniform_float", "uniform_int", "uniform_full_int",
           "normal", "truncated_normal", "SingleSampleStream"]

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_MASK32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


def _philox(c0, c1, c2, c3, k0, k1):
    """Ten Philox rounds on uint64 arrays holding uint32 values; keys are Python ints."""
    for r in range(10):
        if r:
            k0 = (k0 + _W0) & 0xFFFFFFFF
            k1 = (k1 + _W1) & 0xFFFFFFFF
        p0 = _M0 * c0
        p1 = _M1 * c2
        c0, c1, c2, c3 = ((p1 >> _S32) ^ c1 ^ np.uint64(k0), p1 & _MASK32,
                          (p0 >> _S32) ^ c3 ^ np.uint64(k1), p0 & _MASK32)
    return c0, c1, c2, c3


def blocks(key, counter, n):
    """The first `n` blocks of the stream (key, counter): a uint32 array of shape (n, 4).

    Args:
      key: Two Python ints (uint32).
      counter: Four Python ints (uint32), least significant word first.
      n: The number of blocks.
    """
    lo = np.uint64(counter[0] | (counter[1] << 32))
    hi = np.uint64(counter[2] | (counter[3] << 32))
    i = np.arange(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        new_lo = lo + i
        new_hi = hi + (new_lo < lo).astype(np.uint64)
        out = _philox(new_lo & _MASK32, new_lo >> _S32, new_hi & _MASK32, new_hi >> _S32, key[0], key[1])
    return np.stack([o.astype(np.uint32) for o in out], axis=-1)


def skip(counter, n):
    """`counter` advanced by `n` blocks (four Python ints)."""
    value = (counter[0] | counter[1] << 32 | counter[2] << 64 | counter[3] << 96) + n
    value &= (1 << 128) - 1
    return tuple((value >> (32 * j)) & 0xFFFFFFFF for j in range(4))


def key_counter_from_seed(seed0, seed1):
    """TF's `GenerateKey`: the (key, counter) of a stateless op's seed pair (two Python ints)."""
    s0, s1 = seed0 & 0xFFFFFFFFFFFFFFFF, seed1 & 0xFFFFFFFFFFFFFFFF
    counter = (s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32)
    mix = [int(v) for v in blocks((0x3EC8F720, 0x02461E29), counter, 1)[0]]
    return (mix[0], mix[1]), (0, 0, mix[2], mix[3])


def uniform_bits(key, counter, count):
    """The first `count` uint32 of the stream, in order (a flat uint32 array)."""
    nblocks = -(-count // 4)
    return blocks(key, counter, nblocks).reshape(-1)[:count]


def _u32_to_float(x):
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1.0)


def _u64_to_double(x0, x1):
    man = ((x0 & np.uint32(0xFFFFF)).astype(np.uint64) << _S32) | x1.astype(np.uint64)
    return (man | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _u16_to_half(x):
    return ((x & np.uint32(0x3FF)).astype(np.uint16) | np.uint16(15 << 10)).view(np.float16) - np.float16(1.0)


def uniform_float(key, counter, count, np_dtype):
    """TF's `UniformDistribution` filled over `count` values: floats in [0, 1)."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype == np.float64:
        bits = uniform_bits(key, counter, 2 * count).reshape(-1, 2)
        return _u64_to_double(bits[:, 0], bits[:, 1])
    bits = uniform_bits(key, counter, count)
    if np_dtype == np.float16:
        return _u16_to_half(bits)
    return _u32_to_float(bits)


def uniform_full_int(key, counter, count, np_dtype):
    """TF's `UniformFullIntDistribution`: integers covering the whole range of `np_dtype`."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype.itemsize == 8:
        bits = uniform_bits(key, counter, 2 * count).reshape(-1, 2)
        return (bits[:, 0].astype(np.uint64) | (bits[:, 1].astype(np.uint64) << _S32)).view(np_dtype)
    return uniform_bits(key, counter, count).view(np_dtype)


def uniform_int(key, counter, count, lo, hi, np_dtype):
    """TF's integer `UniformDistribution`: `lo + bits % (hi - lo)` with `lo < hi` (Python ints)."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype.itemsize == 8:
        bits = uniform_bits(key, counter, 2 * count).reshape(-1, 2)
        bits = bits[:, 0].astype(np.uint64) | (bits[:, 1].astype(np.uint64) << _S32)
        rng = np.uint64((hi - lo) & 0xFFFFFFFFFFFFFFFF)
        with np.errstate(over="ignore"):
            return (np.uint64(lo & 0xFFFFFFFFFFFFFFFF) + bits % rng).view(np.int64)
    bits = uniform_bits(key, counter, count)
    rng = np.uint32((hi - lo) & 0xFFFFFFFF)
    with np.errstate(over="ignore"):
        return (np.uint32(lo & 0xFFFFFFFF) + bits % rng).view(np.int32)


# ---- Box-Muller ------------------------------------------------------------------------------
_TWO_PI = 2 * math.pi
_vlog = np.frompyfunc(math.log, 1, 1)
_vsin = np.frompyfunc(math.sin, 1, 1)
_vcos = np.frompyfunc(math.cos, 1, 1)


def _libm(f, x):
    """The C library's double function `f` on each element (NumPy's own loops may differ in the last bit)."""
    if x.size == 0:
        return x.astype(np.float64)
    return f(x).astype(np.float64)


_LIBM = {}


def libm_float(name, nargs=1):
    """The C math library's float function `name` (`logf`, `powf`, ...) as a NumPy ufunc on float32
    values, or None where the library cannot be loaded."""
    key = (name, nargs)
    if key not in _LIBM:
        func = None
        try:
            import ctypes
            import ctypes.util
            lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
            f = getattr(lib, name)
            f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float] * nargs
            func = np.frompyfunc(f, nargs, 1)
        except (OSError, AttributeError):
            func = None
        _LIBM[key] = func
    return _LIBM[key]


_DOUBLE_FALLBACK = {"logf": np.log, "sinf": np.sin, "cosf": np.cos, "log1pf": np.log1p, "expm1f": np.expm1,
                    "powf": np.power}


def call_float(name, *args):
    """`name` (a C float function) on float32 arrays, elementwise: a float32 array. Without the C
    library, the double-precision NumPy function rounded to float32."""
    args = [np.asarray(a, np.float32) for a in args]
    shape = np.broadcast_shapes(*[a.shape for a in args])
    if int(np.prod(shape)) == 0:
        return np.zeros(shape, np.float32)
    func = libm_float(name, len(args))
    if func is None:
        return _DOUBLE_FALLBACK[name](*[a.astype(np.float64) for a in args]).astype(np.float32)
    return np.asarray(func(*args), dtype=object).astype(np.float32).reshape(shape)


def box_muller_float(x0, x1):
    """TF's `BoxMullerFloat` on uint32 arrays: two float32 arrays of normal values."""
    u1 = np.maximum(_u32_to_float(x0), np.float32(1.0e-7))
    v1 = (_TWO_PI * _u32_to_float(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * call_float("logf", u1))
    return call_float("sinf", v1) * u2, call_float("cosf", v1) * u2


def box_muller_double(x0, x1, x2, x3):
    """TF's `BoxMullerDouble` on uint32 arrays: two float64 arrays of normal values."""
    u1 = np.maximum(_u64_to_double(x0, x1), 1.0e-7)
    v1 = _TWO_PI * _u64_to_double(x2, x3)
    u2 = np.sqrt(-2.0 * _libm(_vlog, u1))
    return _libm(_vsin, v1) * u2, _libm(_vcos, v1) * u2


def normal(key, counter, count, np_dtype):
    """TF's `NormalDistribution` filled over `count` values."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype == np.float64:
        nblocks = -(-count // 2)
        b = blocks(key, counter, nblocks)
        d0, d1 = box_muller_double(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
        return np.stack([d0, d1], axis=-1).reshape(-1)[:count]
    bits = uniform_bits(key, counter, 4 * -(-count // 4)).reshape(-1, 2)
    f0, f1 = box_muller_float(bits[:, 0], bits[:, 1])
    out = np.stack([f0, f1], axis=-1).reshape(-1)[:count]
    return out.astype(np.float16) if np_dtype == np.float16 else out


# Blocks reserved for each output group of a distribution that takes a variable number of samples.
_RESERVED_SAMPLES_PER_OUTPUT = 256


def truncated_normal(key, counter, count, np_dtype):
    """TF's `TruncatedNormalDistribution` filled over `count` values (FillPhiloxRandom's variable-samples
    path: group g of 4 floats / 2 doubles starts `g * 256` blocks into the stream), values in (-2, 2)."""
    np_dtype = np.dtype(np_dtype)
    group = 2 if np_dtype == np.float64 else 4
    ngroups = -(-count // group)
    per_group_skip = group * _RESERVED_SAMPLES_PER_OUTPUT // 4
    out = np.empty((ngroups, group), np.float64 if np_dtype == np.float64 else np.float32)
    # Draw a few blocks per group first (nearly always enough), then finish groups one by one.
    first = 2
    g = np.arange(ngroups, dtype=np.uint64)
    lo = np.uint64(counter[0] | (counter[1] << 32))
    hi = np.uint64(counter[2] | (counter[3] << 32))
    with np.errstate(over="ignore"):
        start = lo + g * np.uint64(per_group_skip)
        start_hi = hi + (start < lo).astype(np.uint64)
    done = np.zeros(ngroups, bool)
    if ngroups:
        bits = np.empty((ngroups, first, 4), np.uint32)
        for j in range(first):
            with np.errstate(over="ignore"):
                c_lo = start + np.uint64(j)
                c_hi = start_hi + (c_lo < start).astype(np.uint64)
                res = _philox(c_lo & _MASK32, c_lo >> _S32, c_hi & _MASK32, c_hi >> _S32, key[0], key[1])
            bits[:, j, :] = np.stack([r.astype(np.uint32) for r in res], axis=-1)
        vals = _truncated_candidates(bits.reshape(ngroups, -1), np_dtype)
        ok = np.abs(vals) < 2.0
        enough = ok.sum(axis=1) >= group
        for gi in np.nonzero(enough)[0]:
            out[gi] = vals[gi][ok[gi]][:group]
        done = enough
    for gi in np.nonzero(~done)[0]:
        c = skip(counter, int(gi) * per_group_skip)
        n = first
        while True:
            n *= 2
            vals = _truncated_candidates(blocks(key, c, n).reshape(1, -1), np_dtype)[0]
            kept = vals[np.abs(vals) < 2.0]
            if kept.size >= group:
                out[gi] = kept[:group]
                break
    out = out.reshape(-1)[:count]
    return out.astype(np.float16) if np_dtype == np.float16 else out


def _truncated_candidates(bits, np_dtype):
    """The normal values, in draw order, that the uint32 rows `bits` give (float: 2 per pair of words;
    double: 2 per 4 words)."""
    if np_dtype == np.float64:
        b = bits.reshape(bits.shape[0], -1, 4)
        d0, d1 = box_muller_double(b[..., 0], b[..., 1], b[..., 2], b[..., 3])
        return np.stack([d0, d1], axis=-1).reshape(bits.shape[0], -1)
    b = bits.reshape(bits.shape[0], -1, 2)
    f0, f1 = box_muller_float(b[..., 0], b[..., 1])
    return np.stack([f0, f1], axis=-1).reshape(bits.shape[0], -1)


class SingleSampleStream:
    """TF's `SimplePhilox` over `SingleSampleAdapter`: uint32 values one at a time, in stream order."""

    def __init__(self, key, counter):
        self._key = key
        self._counter = counter
        self._buf = np.zeros(0, np.uint32)
        self._pos = 0

    def take(self, n):
        """The next `n` uint32 values (an array)."""
        avail = self._buf.size - self._pos
        if avail < n:
            need = -(-(n - avail) // 4)
            more = blocks(self._key, self._counter, need).reshape(-1)
            self._counter = skip(self._counter, need)
            self._buf = np.concatenate([self._buf[self._pos:], more])
            self._pos = 0
        out = self._buf[self._pos:self._pos + n]
        self._pos += n
        return out

    def rand_double(self, n):
        """`n` values of `RandDouble` (two words each) in [0, 1)."""
        w = self.take(2 * n).reshape(-1, 2)
        return _u64_to_double(w[:, 0], w[:, 1])


def blocks_at(key, counter, offsets):
    """Block `offsets[i]` of the stream (key, counter) for each i: a uint32 array (n, 4)."""
    lo = np.uint64(counter[0] | (counter[1] << 32))
    hi = np.uint64(counter[2] | (counter[3] << 32))
    offsets = np.asarray(offsets, np.uint64)
    with np.errstate(over="ignore"):
        new_lo = lo + offsets
        new_hi = hi + (new_lo < lo).astype(np.uint64)
        out = _philox(new_lo & _MASK32, new_lo >> _S32, new_hi & _MASK32, new_hi >> _S32, key[0], key[1])
    return np.stack([o.astype(np.uint32) for o in out], axis=-1).reshape(offsets.shape + (4,))


def u64_to_double(x0, x1):
    """TF's `Uint64ToDouble`: a double in [0, 1) from two uint32 words."""
    return _u64_to_double(x0, x1)
