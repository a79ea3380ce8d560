"""String hashing: "StringToHashBucket" (TF's legacy Hash64, a MurmurHash2-64 variant),
"StringToHashBucketFast" (FarmHash Fingerprint64), "StringToHashBucketStrong" (SipHash-2-4 under a
128-bit key) and "Fingerprint" (`tf.fingerprint`: FarmHash Fingerprint64 of each row, as 8
little-endian bytes).

FarmHash comes from `pyfarmhash` (the `[strings]` extra), imported when a kernel first runs;
Hash64 and SipHash are written here (a few lines each) and checked against TensorFlow's values.
"""

import struct

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from .string_ops import _as_bytes

__all__ = ["fingerprint", "string_to_hash_bucket", "string_to_hash_bucket_fast", "string_to_hash_bucket_strong"]

_M64 = (1 << 64) - 1


def _farmhash():
    try:
        import farmhash
    except ImportError:
        raise ImportError("FarmHash (tf.strings.to_hash_bucket_fast, tf.fingerprint) needs the pyfarmhash package: "
                          "pip install tensorweave[strings]") from None
    return farmhash


def hash64(data, seed=0xDECAFCAFFE):
    """TensorFlow's `Hash64` (tensorflow/core/lib/hash/hash.cc) of `data` (bytes)."""
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(data)
    h = (seed ^ (n * m)) & _M64
    full = n - n % 8
    for i in range(0, full, 8):
        k = struct.unpack_from("<Q", data, i)[0]
        k = (k * m) & _M64
        k ^= k >> r
        k = (k * m) & _M64
        h ^= k
        h = (h * m) & _M64
    rest = data[full:]
    if rest:
        for j in range(len(rest) - 1, -1, -1):
            h ^= rest[j] << (8 * j)
        h = (h * m) & _M64
    h ^= h >> r
    h = (h * m) & _M64
    h ^= h >> r
    return h


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & _M64


def siphash24(k0, k1, data):
    """SipHash-2-4 of `data` (bytes) under the 128-bit key (`k0`, `k1`), as a 64-bit integer."""
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573

    def rounds(v0, v1, v2, v3, n):
        for _ in range(n):
            v0 = (v0 + v1) & _M64
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _M64
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _M64
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _M64
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        return v0, v1, v2, v3

    n = len(data)
    full = n - n % 8
    for i in range(0, full, 8):
        m = struct.unpack_from("<Q", data, i)[0]
        v3 ^= m
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
        v0 ^= m
    last = ((n & 0xFF) << 56) | int.from_bytes(data[full:], "little")
    v3 ^= last
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
    v0 ^= last
    v2 ^= 0xFF
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


# ---- StringToHashBucket* -------------------------------------------------------------------------
def _bucket_infer(op):
    x = op._inputs[0]
    if x.dtype is not dtypes.string:
        raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of string."
                        % ("string_tensor" if op._type == "StringToHashBucket" else "input", op._type, x.dtype.name))
    if op._attrs["num_buckets"] < 1:
        raise ValueError("Attr 'num_buckets' of '%s' Op passed %d less than minimum 1."
                         % (op._type, op._attrs["num_buckets"]))
    if op._type == "StringToHashBucketStrong" and len(op._attrs["key"]) != 2:
        # TF checks the key when the kernel is built.
        pass
    return [(dtypes.int64, x.shape.as_tuple())]


def _buckets(x, num_buckets, fn):
    a = np.asarray(x, dtype=object)
    return np.array([fn(_as_bytes(v)) % num_buckets for v in a.reshape(-1)], np.int64).reshape(a.shape)


def _legacy_kernel(xp, x, num_buckets):
    return _buckets(x, num_buckets, hash64)


def _fast_kernel(xp, x, num_buckets):
    fh = _farmhash()
    return _buckets(x, num_buckets, fh.fingerprint64)


def _strong_kernel(xp, x, num_buckets, key):
    if len(key) != 2:
        raise errors.InvalidArgumentError(None, None, "Key must have 2 elements")
    k0, k1 = int(key[0]) & _M64, int(key[1]) & _M64
    return _buckets(x, num_buckets, lambda s: siphash24(k0, k1, s))


register_op("StringToHashBucket", infer=_bucket_infer, kernel=_legacy_kernel, grad=NO_GRADIENT)
register_op("StringToHashBucketFast", infer=_bucket_infer, kernel=_fast_kernel, grad=NO_GRADIENT)
register_op("StringToHashBucketStrong", infer=_bucket_infer, kernel=_strong_kernel, grad=NO_GRADIENT)


def _string_input(x, name):
    return x if isinstance(x, ops.Tensor) else ops.convert_to_tensor(x, dtype=dtypes.string, name=name)


def _bucket(op_type, x, num_buckets, name, attrs=None):
    with ops.name_scope(name, op_type, [x]) as scope:
        a = {"num_buckets": int(num_buckets)}
        a.update(attrs or {})
        return ops.apply_op(op_type, [_string_input(x, "input")], a, name=scope)


def _pick(string_tensor, input):  # noqa: A002
    if input is not None:
        if string_tensor is not None:
            raise ValueError("Cannot specify both 'string_tensor' and 'input'.")
        return input
    return string_tensor


def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # noqa: A002
    """Hashes each string into `[0, num_buckets)` with TF's legacy Hash64 (TF's
    `tf.strings.to_hash_bucket`, op "StringToHashBucket"; prefer the `_fast` variant in new code).

    Args:
      string_tensor: A string `Tensor`.
      num_buckets: The number of buckets (an int >= 1).
      name: A name for the operation (optional).
      input: TF 1.x's alias of `string_tensor`.

    Returns:
      An int64 `Tensor` of the input's shape.

    Raises:
      TypeError: If the input is not a string tensor.
      ValueError: If `num_buckets` < 1.
    """
    return _bucket("StringToHashBucket", _pick(string_tensor, input), num_buckets, name)


def string_to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    """Hashes each string into `[0, num_buckets)`: FarmHash Fingerprint64 modulo `num_buckets` (TF's
    `tf.strings.to_hash_bucket_fast`, op "StringToHashBucketFast"; needs the `[strings]` extra).

    Args:
      input: A string `Tensor`.
      num_buckets: The number of buckets (an int >= 1).
      name: A name for the operation (optional).

    Returns:
      An int64 `Tensor` of the input's shape.

    Raises:
      TypeError: If the input is not a string tensor.
      ValueError: If `num_buckets` < 1.
      ImportError: At run time, without pyfarmhash.
    """
    return _bucket("StringToHashBucketFast", input, num_buckets, name)


def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """Hashes each string into `[0, num_buckets)` with SipHash-2-4 keyed by `key` (TF's
    `tf.strings.to_hash_bucket_strong`, op "StringToHashBucketStrong").

    Args:
      input: A string `Tensor`.
      num_buckets: The number of buckets (an int >= 1).
      key: Two integers: the 128-bit SipHash key (low 64 bits first).
      name: A name for the operation (optional).

    Returns:
      An int64 `Tensor` of the input's shape.

    Raises:
      TypeError: If the input is not a string tensor.
      ValueError: If `num_buckets` < 1.
      InvalidArgumentError: At run time, if `key` does not have 2 elements.
    """
    return _bucket("StringToHashBucketStrong", input, num_buckets, name, {"key": [int(k) for k in key]})


# ---- Fingerprint ---------------------------------------------------------------------------------
def _fingerprint_infer(op):
    data, method = op._inputs
    dims = data.shape.as_tuple()
    if dims is not None and len(dims) < 1:
        raise ValueError("Shape must be at least rank 1 but is rank %d" % len(dims))
    if method.dtype is not dtypes.string:
        raise TypeError("Input 'method' of 'Fingerprint' Op has type %s that does not match expected type of string."
                        % method.dtype.name)
    if method.shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % method.shape.ndims)
    from . import math_helpers
    m = math_helpers._const_value(method)
    if m is not None and _as_bytes(np.asarray(m, dtype=object)[()]) != b"farmhash64":
        raise ValueError("Unsupported method: %s" % _as_bytes(np.asarray(m, dtype=object)[()]).decode())
    return [(dtypes.uint8, None if dims is None else (dims[0], 8))]


def _fingerprint_kernel(xp, data, method):
    m = _as_bytes(np.asarray(method, dtype=object)[()])
    if m != b"farmhash64":
        raise errors.InvalidArgumentError(None, None, "Unsupported fingerprint method: %s" % m.decode(
            "utf-8", "replace"))
    fh = _farmhash()
    a = np.asarray(data)
    n = a.shape[0]
    width = int(np.prod(a.shape[1:], dtype=np.int64))
    if a.dtype == object:
        rows = a.reshape(n, width)
        if rows.shape[1] == 1:
            keys = [_as_bytes(r[0]) for r in rows]
        else:
            keys = [b"".join(struct.pack("<Q", fh.fingerprint64(_as_bytes(s))) for s in r) for r in rows]
    else:
        raw = np.ascontiguousarray(a).reshape(n, width)
        keys = [r.tobytes() for r in raw]
    out = np.empty((n, 8), np.uint8)
    for i, k in enumerate(keys):
        out[i] = np.frombuffer(struct.pack("<Q", fh.fingerprint64(k)), np.uint8)
    return out


register_op("Fingerprint", infer=_fingerprint_infer, kernel=_fingerprint_kernel, grad=NO_GRADIENT)


def fingerprint(data, method="farmhash64", name=None):
    """Fingerprints each row (slice along the first dimension) of `data` (TF's `tf.fingerprint`,
    op "Fingerprint"): FarmHash Fingerprint64 of the row's bytes, stored as 8 little-endian bytes.
    A string row of several strings is fingerprinted through the fingerprints of its strings, as
    TF does. Needs the `[strings]` extra.

    Args:
      data: A `Tensor` of rank >= 1.
      method: The fingerprint method; only "farmhash64".
      name: A name for the operation (optional).

    Returns:
      A uint8 `Tensor` of shape `[data.shape[0], 8]`.

    Raises:
      ValueError: If `data` is a scalar or `method` is not supported.
    """
    with ops.name_scope(name, "Fingerprint", [data]) as scope:
        x = data if isinstance(data, ops.Tensor) else ops.convert_to_tensor(data)
        m = method if isinstance(method, ops.Tensor) else ops.convert_to_tensor(method, dtype=dtypes.string,
                                                                                 name="method")
        return ops.apply_op("Fingerprint", [x, m], name=scope)
