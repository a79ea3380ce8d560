"""`tf.random_index_shuffle` / `tf.random.experimental.index_shuffle`: the position of an index in a
pseudorandom permutation of [0, max_index], as TF computes it (tensorflow/core/kernels/
random_index_shuffle.cc): a Simon-style Feistel cipher on a block of the smallest even size >= 16
bits that holds max_index, with cycle walking until the value is <= max_index.
"""

import math

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["random_index_shuffle", "index_shuffle"]

_INDEX_DTYPES = (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)
_Z = 0x7369F885192C0EF5
_C = 0xFFFFFFFC
# The constant the Python wrapper pads a [2] seed with, as TF's.
_SEED_PAD = 498247692


def _rotl(x, r, w, mask):
    return ((x << r) | (x >> (w - r))) & mask


def _rotr(x, r, w, mask):
    return ((x >> r) | (x << (w - r))) & mask


def _key_schedule(key, rounds, w):
    """TF's `simon_key_schedule` for word size `w` (Python ints)."""
    mask = (1 << w) - 1
    c, z = _C & mask, _Z & mask
    rk = [k & mask for k in key]
    for i in range(3, rounds):
        rk.append(c ^ (z & 1) ^ rk[i - 3] ^ _rotr(rk[i - 1], 3, w, mask) ^ _rotr(rk[i - 1], 4, w, mask))
        z >>= 1
    return rk


def _encrypt(values, round_keys, w):
    """TF's `simon_encrypt` on a uint64 array of `2 * w`-bit values; round keys per element (n, rounds)."""
    mask = np.uint64((1 << w) - 1)
    sw = np.uint64(w)
    left = (values >> sw) & mask
    right = values & mask

    def f(x):
        return (_rotl(x, np.uint64(1), sw, mask) & _rotl(x, np.uint64(8), sw, mask)) ^ _rotl(x, np.uint64(2), sw, mask)
    i = 0
    while i < round_keys.shape[1]:
        left = left ^ f(right) ^ round_keys[:, i]
        right = right ^ f(left) ^ round_keys[:, i + 1]
        i += 2
    return (left << sw) | right


def _block_size(max_index):
    b = int(math.ceil(math.log2(float(max_index))))
    return max(b + b % 2, 16)


def _shuffle(index, keys, max_index, rounds):
    """index, max_index: uint64 arrays (n,); keys: (n, 3) Python-int rows (uint32)."""
    out = np.zeros(index.shape, np.uint64)
    groups = {}
    for i, m in enumerate(max_index.tolist()):
        if m == 0:
            continue
        groups.setdefault(min(_block_size(m), 64), []).append(i)
    for block, rows in groups.items():
        rows = np.asarray(rows)
        w = block // 2
        rk = np.array([_key_schedule(keys[r], rounds, w) for r in rows], dtype=np.uint64)
        v = index[rows].copy()
        lim = max_index[rows]
        todo = np.ones(rows.size, bool)
        with np.errstate(over="ignore"):
            while todo.any():
                v[todo] = _encrypt(v[todo], rk[todo], w)
                todo = v > lim
        out[rows] = v
    return out


def _infer(op):
    index, seed, max_index = op._inputs
    if index.dtype not in _INDEX_DTYPES:
        raise TypeError("Value passed to parameter 'index' has DataType %s not in list of allowed values: int32, "
                        "int64, uint32, uint64" % index.dtype.name)
    if max_index.dtype is not index.dtype:
        raise TypeError("Input 'max_index' of 'RandomIndexShuffle' Op has type %s that does not match type %s of "
                        "argument 'index'." % (max_index.dtype.name, index.dtype.name))
    if seed.dtype not in _INDEX_DTYPES:
        raise TypeError("Value passed to parameter 'seed' has DataType %s not in list of allowed values: int32, "
                        "uint32, int64, uint64" % seed.dtype.name)
    idims, sdims, mdims = index.shape.as_tuple(), seed.shape.as_tuple(), max_index.shape.as_tuple()
    for dims, what in ((idims, "Index"), (mdims, "Max_index")):
        if dims is not None and len(dims) > 1:
            raise ValueError("%s must be a scalar or vector but got rank %d." % (what, len(dims)))
    if sdims is not None and not ((len(sdims) == 1 and sdims[0] in (3, None))
                                  or (len(sdims) == 2 and sdims[1] in (3, None))):
        raise ValueError("Seed must have shape [3] or [n, 3] but got %s." % list(sdims))
    if idims == () and mdims == () and sdims is not None and len(sdims) == 1:
        return [(index.dtype, ())]
    n = None
    for dims in (idims, mdims):
        if dims is not None and len(dims) == 1 and dims[0] is not None:
            n = dims[0]
    if sdims is not None and len(sdims) == 2 and sdims[0] is not None:
        n = sdims[0]
    if idims is None or mdims is None or sdims is None:
        return [(index.dtype, None)]
    return [(index.dtype, (n,))]


def _kernel(xp, index, seed, max_index, rounds):
    if rounds < 4 or rounds % 2:
        raise errors.InvalidArgumentError(None, None, "The number of rounds must be even and at least 4, got %d"
                                          % rounds)
    index, seed, max_index = np.asarray(index), np.asarray(seed), np.asarray(max_index)
    all_scalar = index.ndim == 0 and seed.ndim == 1 and max_index.ndim == 0
    n = max(index.size, max_index.size, seed.size // 3)
    if not (index.ndim == 0 or (index.ndim == 1 and index.shape[0] == n)):
        raise errors.InvalidArgumentError(None, None, "Index bust be a scalar or vector.")
    if not ((seed.ndim == 1 and seed.shape[0] == 3) or (seed.ndim == 2 and seed.shape == (n, 3))):
        raise errors.InvalidArgumentError(None, None, "Seed must be a vector of size [3] or a matrix of size [%d, 3] "
                                          "but got %s." % (n, list(seed.shape)))
    if not (max_index.ndim == 0 or (max_index.ndim == 1 and max_index.shape[0] == n)):
        raise errors.InvalidArgumentError(None, None, "Maxval must be a scalar or a vector of the same size as index "
                                          "but got %s" % list(max_index.shape))
    out_dtype = index.dtype
    idx = np.broadcast_to(index.astype(np.int64).view(np.uint64) if index.dtype.kind == "i" else
                          index.astype(np.uint64), (n,))
    mx = np.broadcast_to(max_index.astype(np.int64).view(np.uint64) if max_index.dtype.kind == "i" else
                         max_index.astype(np.uint64), (n,))
    seeds = seed.reshape(-1, 3).astype(np.int64) if seed.dtype.kind == "i" else seed.reshape(-1, 3)
    rows = [[int(v) & 0xFFFFFFFF for v in r] for r in seeds.tolist()]
    keys = rows if len(rows) == n else rows * n
    out = _shuffle(np.ascontiguousarray(idx), keys, np.ascontiguousarray(mx), rounds)
    out = out.astype(np.uint64).view(np.int64).astype(out_dtype) if out_dtype.kind == "i" else out.astype(out_dtype)
    return out.reshape(index.shape) if all_scalar else out


register_op("RandomIndexShuffle", infer=_infer, kernel=_kernel, grad=NO_GRADIENT)


def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """Outputs the position of `index` in a permutation of `[0, ..., max_index]` (`tf.random_index_shuffle`).

    For a fixed `seed` and `max_index` the map `index -> output` is a bijection of
    `[0, max_index]`; the values are TF's (including TF's quirk for `max_index` an even power of two
    of at least 2**16, whose block is one bit short: `max_index` itself is never produced).

    Args:
      index: A scalar or vector of type int32, int64, uint32 or uint64.
      seed: A `[3]` or `[n, 3]` Tensor of type int32, int64, uint32 or uint64: the key(s) (the low 32
        bits of each value are used).
      max_index: A scalar or vector of the same type as `index`: the largest index of the permutation.
      rounds: An even number >= 4 of Feistel rounds.
      name: A name for the operation (optional).

    Returns:
      A Tensor of the type of `index`: a scalar for scalar inputs, else a vector.

    Raises:
      TypeError: On mismatched or unsupported dtypes.
      ValueError: On a seed of the wrong shape.
      InvalidArgumentError: At run time, for shapes that do not agree or `rounds` odd or below 4.
    """
    index = ops.convert_to_tensor(index, name="index")
    seed = ops.convert_to_tensor(seed, name="seed")
    max_index = ops.convert_to_tensor(max_index, dtype=None if ops.is_tensor(max_index) else index.dtype,
                                      name="max_index")
    return ops.apply_op("RandomIndexShuffle", [index, seed, max_index], {"rounds": int(rounds)},
                        name=name or "RandomIndexShuffle")


def index_shuffle(index, seed, max_index):
    """Outputs the position of `index` in a permutation of `[0, ..., max_index]`
    (`tf.random.experimental.index_shuffle`).

    Args:
      index: A scalar or vector of type int32, int64, uint32 or uint64.
      seed: A `[2]` or `[n, 2]` integer Tensor, padded on the left with TF's constant into
        `random_index_shuffle`'s `[3]` key.
      max_index: A scalar or vector of the same type as `index`.

    Returns:
      A Tensor of the type of `index`, as `random_index_shuffle` with 4 rounds.
    """
    from .array_permute_ops import pad
    seed = ops.convert_to_tensor(seed, name="seed")
    rank = seed.shape.ndims
    paddings = [[1, 0]] if rank is None else [[1, 0]] + (rank - 1) * [[0, 0]]
    seed = pad(seed, paddings, constant_values=_SEED_PAD)
    return random_index_shuffle(index, seed, max_index, rounds=4)
