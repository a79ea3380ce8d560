"""The ops under `tf.random.Generator` (TF 2's key/counter forms of the stateless ops, and
`RngReadAndSkip`, which reads a generator's state and advances its counter).

A Philox generator state is three int64 words: the 128-bit counter (two words, least significant
first) and the 64-bit key. `RngReadAndSkip` returns the state and adds `256 * delta` to the
counter, as TF's kernel does; the `*V2` ops then fill their output from that (key, counter) as
TF's CPU kernels (`random_philox`), so a generator's values are TensorFlow's.
"""

import numpy as np

from ..framework import dtypes, errors
from ..framework.registry import NO_GRADIENT, register_op
from . import random_philox as philox
from .random_ops import _check_scalar, _static_shape
from .random_stateless_ops import _ALG_AUTO_SELECT, _ALG_PHILOX, _FLOATS, _FULL_INT_DTYPES, _out_shape

__all__ = []

_SKIP_PER_SAMPLE = 256


def _check_key_counter(op, key, counter, alg):
    for t, name in ((key, "key"), (counter, "counter")):
        if t.dtype is not dtypes.uint64:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of uint64."
                            % (name, op.type, t.dtype.name))
    if alg.dtype is not dtypes.int32:
        raise TypeError("Input 'alg' of '%s' Op has type %s that does not match expected type of int32."
                        % (op.type, alg.dtype.name))
    _check_scalar(alg, "alg")


def _key_counter(key, counter, alg):
    alg = int(alg)
    if alg not in (_ALG_PHILOX, _ALG_AUTO_SELECT):
        raise errors.InvalidArgumentError(None, None, "Unsupported algorithm id: %d" % alg)
    key, counter = np.asarray(key).reshape(-1), np.asarray(counter).reshape(-1)
    if key.size != 1:
        raise errors.InvalidArgumentError(None, None, "key must have shape [1], not %s" % list(key.shape))
    if counter.size < 2:
        raise errors.InvalidArgumentError(None, None, "counter must be at least of size 2, not %s"
                                          % list(counter.shape))
    k, c0, c1 = int(key[0]), int(counter[0]), int(counter[1])
    return (k & 0xFFFFFFFF, k >> 32), (c0 & 0xFFFFFFFF, c0 >> 32, c1 & 0xFFFFFFFF, c1 >> 32)


def _float_v2(op_type, fill):
    def infer(op):
        shape, key, counter, alg = op._inputs
        _check_key_counter(op, key, counter, alg)
        if op._attrs["dtype"] not in _FLOATS:
            raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: "
                            "float16, float32, float64 (op %s)" % (op._attrs["dtype"].name, op_type))
        return [(op._attrs["dtype"], _static_shape(shape))]

    def kernel(xp, shape, key, counter, alg, dtype):
        dims = _out_shape(shape)
        k, c = _key_counter(key, counter, alg)
        return fill(k, c, int(np.prod(dims, dtype=np.int64)), dtype.as_numpy_dtype).reshape(dims)

    register_op(op_type, infer=infer, kernel=kernel, grad=NO_GRADIENT)


_float_v2("StatelessRandomUniformV2", philox.uniform_float)
_float_v2("StatelessRandomNormalV2", philox.normal)
_float_v2("StatelessTruncatedNormalV2", philox.truncated_normal)


def _full_int_infer(op):
    shape, key, counter, alg = op._inputs
    _check_key_counter(op, key, counter, alg)
    if op._attrs["dtype"] not in _FULL_INT_DTYPES:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: int32, "
                        "int64, uint32, uint64 (op StatelessRandomUniformFullIntV2)" % op._attrs["dtype"].name)
    return [(op._attrs["dtype"], _static_shape(shape))]


def _full_int_kernel(xp, shape, key, counter, alg, dtype):
    dims = _out_shape(shape)
    k, c = _key_counter(key, counter, alg)
    return philox.uniform_full_int(k, c, int(np.prod(dims, dtype=np.int64)), dtype.as_numpy_dtype).reshape(dims)


register_op("StatelessRandomUniformFullIntV2", infer=_full_int_infer, kernel=_full_int_kernel, grad=NO_GRADIENT)


def _int_infer(op):
    shape, key, counter, alg, minval, maxval = op._inputs
    _check_key_counter(op, key, counter, alg)
    _check_scalar(minval, "minval")
    _check_scalar(maxval, "maxval")
    if minval.dtype is not maxval.dtype or minval.dtype not in _FULL_INT_DTYPES:
        raise TypeError("minval and maxval must have one type of int32, int64, uint32, uint64, got %s and %s (op "
                        "StatelessRandomUniformIntV2)" % (minval.dtype.name, maxval.dtype.name))
    return [(minval.dtype, _static_shape(shape))]


def _int_kernel(xp, shape, key, counter, alg, minval, maxval):
    dims = _out_shape(shape)
    lo, hi = int(minval), int(maxval)
    if not lo < hi:
        raise errors.InvalidArgumentError(None, None, "Need minval < maxval: %d >= %d" % (lo, hi))
    k, c = _key_counter(key, counter, alg)
    out = philox.uniform_int(k, c, int(np.prod(dims, dtype=np.int64)), lo, hi,
                             np.int64 if minval.dtype.itemsize == 8 else np.int32)
    return out.astype(minval.dtype, copy=False).reshape(dims) if minval.dtype.kind == "i" else \
        out.view(np.uint64 if minval.dtype.itemsize == 8 else np.uint32).reshape(dims)


register_op("StatelessRandomUniformIntV2", infer=_int_infer, kernel=_int_kernel, grad=NO_GRADIENT)


# ---- RngReadAndSkip ----------------------------------------------------------------------------
def _read_and_skip_infer(op):
    state, alg, delta = op._inputs
    if state.dtype is not dtypes.int64:
        raise TypeError("RngReadAndSkip needs an int64 generator state, got %s" % state.dtype.name)
    if alg.dtype is not dtypes.int32 or delta.dtype is not dtypes.uint64:
        raise TypeError("RngReadAndSkip takes an int32 alg and a uint64 delta, got %s and %s"
                        % (alg.dtype.name, delta.dtype.name))
    return [(dtypes.int64, (3,))]


def _read_and_skip_kernel(ctx, op, key, alg, delta):
    state = np.asarray(ctx.read_variable(key, op))
    alg = int(alg)
    if alg not in (_ALG_PHILOX, _ALG_AUTO_SELECT):
        raise errors.InvalidArgumentError(None, op, "Unsupported algorithm id: %d" % alg)
    if state.shape != (3,):
        raise errors.InvalidArgumentError(None, op, "The size of the state must be at least 3; got %d" % state.size)
    words = state.view(np.uint64)
    counter = int(words[0]) | (int(words[1]) << 64)
    counter = (counter + _SKIP_PER_SAMPLE * int(delta)) & ((1 << 128) - 1)
    new = np.array([counter & 0xFFFFFFFFFFFFFFFF, counter >> 64, int(words[2])], np.uint64).view(np.int64)
    new.flags.writeable = False
    ctx.variables[key] = new
    return state.copy()


register_op("RngReadAndSkip", infer=_read_and_skip_infer, kernel=_read_and_skip_kernel, grad=NO_GRADIENT,
            stateful=True, ref_inputs=(0,))
