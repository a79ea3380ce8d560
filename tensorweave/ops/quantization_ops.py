"""Quantization to TF's quantized types (`tf.quantization.quantize`, `dequantize`, `quantized_concat`)
and simulated quantization (`quantize_and_dequantize`, `_v2`): QuantizeV2, Dequantize, QuantizedConcat,
QuantizeAndDequantizeV2, QuantizeAndDequantizeV4 and QuantizeAndDequantizeV4Grad, as TF's CPU kernels
compute them in float32.

Quantized tensors hold NumPy structured arrays of one integer field (`tf.quint8.as_numpy_dtype`,
TF's own NumPy types for them), the codes being that field. (TF's `Session.run` and `.numpy()` hand
back the plain integer codes; here the fetched array keeps the structured type: `a.view(a.dtype[0])`
gives TF's value.)

QuantizeV2 first widens the range as TF does: `min = min(0, min_range)`, `max = max(0, max_range,
min + ensure_minimum_range * max(1, |min_range|, |max_range|))`. Then per mode:
- MIN_COMBINED: `round((clip(x) - min) * (2**bits - 1) / (max - min))` shifted by half the code range
  for signed types (rounded half away from zero; unsigned types add 0.5 and truncate);
- MIN_FIRST: `round(x * s) - round(min * s) + lowest`, `s = (2**bits - 1) / (max - min)`, clamped
  to the codes (TF's `QUANTIZE_WITH_EIGEN`);
- SCALED: the symmetric scale `min(lowest / min, highest / max)` (`lowest + 1` with `narrow_range`)
  times `x` clipped to the range it covers, rounded as `round_mode` says; that range is output.
Dequantize inverts each mode as TF does. QuantizedConcat requantizes each input to the union of the
ranges (symmetric for signed types) with the MIN_FIRST formulas, and concatenates.

QuantizeAndDequantize rounds `x * scale` to the `num_bits` grid and scales back, the range coming
from the inputs (`range_given`) or from `x`'s min and max, per slice of `axis` or whole. Its V2
gradient is the identity for `input` (TF's `[grad, None, None]`); V4's is QuantizeAndDequantizeV4Grad:
the gradient where `input` lies in `[input_min, input_max]`, zeros for the range.

NaN inputs: TF's codes for NaN depend on where the value sits in the array (its vectorized and
scalar loops differ); here they are those of its vectorized loop: MIN_COMBINED and SCALED give the
lowest code of a signed 8/16-bit type and 0 for unsigned types and qint32; MIN_FIRST gives 0, and
qint32's lowest code. Denormal float32 results are flushed to zero, as TF's kernels run."""

import collections

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import register_op
from .array_helpers import _fmt, _merge_dims, _value

__all__ = ["quantize", "quantize_v2", "dequantize", "quantized_concat", "quantize_and_dequantize",
           "quantize_and_dequantize_v2"]

_F32 = np.float32
_QTYPES = (dtypes.qint8, dtypes.quint8, dtypes.qint32, dtypes.qint16, dtypes.quint16)
_QNAMES = "qint8, quint8, qint32, qint16, quint16"
_CODES = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16, "qint32": np.int32}
_MODES = ("MIN_COMBINED", "MIN_FIRST", "SCALED")
_QDQ_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64)

QuantizeV2 = collections.namedtuple("QuantizeV2", ["output", "output_min", "output_max"])
QuantizedConcat = collections.namedtuple("QuantizedConcat", ["output", "output_min", "output_max"])


def _c_float(v):
    v = float(v)
    s = "%.6g" % v
    return s if float(np.float32(s)) == float(np.float32(v)) else "%.9g" % v


# ---- codes ------------------------------------------------------------------------------------
def _code_type(qt):
    return np.dtype(_CODES[qt.name])


def _codes(a):
    """The integer codes of a quantized array (a view)."""
    return a.view(a.dtype[0]) if a.dtype.names else a


def _tagged(codes, qt):
    return np.ascontiguousarray(codes).view(np.dtype(qt.as_numpy_dtype))


def _cast_rounded(v, code):
    """TF's cast of rounded float32 values to a quantized type (its vectorized conversion: NaN gives
    the lowest code of a signed 8/16-bit type, 0 otherwise; qint32 wraps 2**31 to its lowest)."""
    info = np.iinfo(code)
    nan = np.isnan(v)
    with np.errstate(all="ignore"):
        w = np.where(nan, 0, v).astype(np.float64)
        if code == np.int32:
            out = np.where(w >= 2.0 ** 31, -2.0 ** 31, w).astype(np.int64).astype(np.int32)
        else:
            out = np.clip(w, info.min, info.max).astype(code)
    if nan.any() and code in (np.int8, np.int16):
        out[nan] = info.min
    return out


def _cast_trunc_int32(v):
    """Float32 -> int32 as x86 truncates (NaN and out of range: INT_MIN)."""
    with np.errstate(all="ignore"):
        bad = ~(np.abs(v) < 2.0 ** 31)
        return np.where(bad, -2 ** 31, np.trunc(np.where(bad, 0, v))).astype(np.int64).astype(np.int32)


def _round_away(v):
    """std::round (half away from zero), exactly (in float64: a float32 `|v| + 0.5` would round)."""
    with np.errstate(all="ignore"):
        w = np.asarray(v, np.float64)
        return (np.sign(w) * np.floor(np.abs(w) + 0.5)).astype(np.asarray(v).dtype, copy=False)


_FLT_MIN = float(np.finfo(np.float32).tiny)


def _ftz(v):
    """TF's kernels run with denormals flushed to zero: a float32 result below the normal range is 0."""
    v = np.asarray(v, _F32)
    if v.ndim == 0:
        return _F32(np.copysign(0.0, v)) if abs(float(v)) < _FLT_MIN else v[()]
    tiny = np.abs(v) < _FLT_MIN
    if tiny.any():
        v = np.where(tiny, np.copysign(_F32(0), v), v)
    return v


# MIN_FIRST (TF's FloatToQuantizedStruct / QuantizedToFloatStruct) -----------------------------------
def _f2q_min_first(x, lo, hi, code):
    bits = 8 * np.dtype(code).itemsize
    info = np.iinfo(code)
    with np.errstate(all="ignore"):
        lo, hi = _F32(lo), _F32(hi)
        scale = _F32(0.0) if lo == hi else _F32((2.0 ** bits - 1.0) / float(hi - lo))
        lo_scaled = _round_away(np.asarray(_F32(lo * scale)))[()]
        lowest = _F32(info.min)
        lower, upper = max(_F32(info.min), _F32(-2.147483648e9)), min(_F32(info.max), _F32(2.147483520e9))
        q = _round_away(np.asarray(x, _F32) * scale) - _F32(lo_scaled - lowest)
        q = np.minimum(np.maximum(q, lower), upper)
    return _cast_trunc_int32(q).astype(code)


def _q2f_min_first(codes, lo, hi):
    bits = 8 * codes.dtype.itemsize
    info = np.iinfo(codes.dtype)
    with np.errstate(all="ignore"):
        lo, hi = _F32(lo), _F32(hi)
        scale = _F32(float(hi - lo) / (2.0 ** bits - 1.0))
        lo_rounded = lo if hi == lo else _F32(_round_away(np.asarray(_F32(lo / scale)))[()] * scale)
        offset = _F32(lo_rounded - _F32(_F32(info.min) * scale))
        return offset + codes.astype(_F32) * scale


# ---- QuantizeV2 -------------------------------------------------------------------------------------
def _widened(lo, hi, ensure_minimum_range):
    lo, hi = _F32(lo), _F32(hi)
    mn = min(_F32(0.0), lo)
    eps = _F32(max(_F32(1.0), max(abs(lo), abs(hi))) * _F32(ensure_minimum_range))
    return mn, max(_F32(0.0), max(hi, _F32(mn + eps)))


def _scaled_factor(mn, mx, code, narrow_range):
    info = np.iinfo(code)
    lo_q, hi_q = int(info.min) + (1 if narrow_range else 0), int(info.max)
    big = _F32(np.finfo(np.float32).max)
    with np.errstate(all="ignore"):
        from_min = _F32(_F32(lo_q) / mn) if _F32(lo_q) * mn > 0 else big
        from_max = _F32(_F32(hi_q) / mx) if _F32(hi_q) * mx > 0 else big
    return min(from_min, from_max), lo_q, hi_q


def _quantize_slice(x, lo, hi, code, mode, round_mode, narrow_range, ensure_minimum_range):
    if hi < lo:
        raise _invalid("input_max_range must be larger than input_min_range.")
    mn, mx = _widened(lo, hi, ensure_minimum_range)
    info = np.iinfo(code)
    with np.errstate(all="ignore"):
        if mode == "MIN_FIRST":
            return _f2q_min_first(x, mn, mx, code), mn, mx
        if mode == "MIN_COMBINED":
            scale = _F32((float(info.max) - float(info.min)) / float(_F32(mx - mn)))
            shifted = (np.maximum(np.minimum(x, mx), mn) - mn) * scale
            if info.min < 0:
                half = _F32((float(info.max) - float(info.min) + 1) / 2.0)
                return _cast_rounded(_round_away(shifted - half), code), mn, mx
            v = shifted + _F32(0.5)
            return _cast_rounded(np.where(np.isnan(v), v, np.trunc(v)), code), mn, mx
        scale, lo_q, hi_q = _scaled_factor(mn, mx, code, narrow_range)
        mn, mx = _ftz(_F32(lo_q) / scale), _ftz(_F32(hi_q) / scale)
        v = np.maximum(np.minimum(x, mx), mn) * scale
        v = np.rint(v) if round_mode == "HALF_TO_EVEN" else _round_away(v)
        return _cast_rounded(v, code), mn, mx


def _quantize_kernel(xp, x, lo, hi, T, mode="MIN_COMBINED", round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False,
                     axis=-1, ensure_minimum_range=0.01):
    if round_mode == "HALF_TO_EVEN" and mode != "SCALED":
        raise _invalid("Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is '%s'." % mode)
    code = _code_type(T)
    x = np.asarray(x, _F32)
    lo, hi = np.asarray(lo, _F32), np.asarray(hi, _F32)
    args = (code, mode, round_mode, narrow_range, ensure_minimum_range)
    if axis == -1 or x.shape[axis] == 1:  # one slice: scalar ranges out, as TF's kernel allocates them
        q, mn, mx = _quantize_slice(x, lo.reshape(-1)[0], hi.reshape(-1)[0], *args)
        return _tagged(q, T), np.asarray(mn, _F32), np.asarray(mx, _F32)
    if mode == "MIN_FIRST":
        raise errors.UnimplementedError(None, None, "MIN_FIRST mode is not implemented for Quantize with axis != -1.")
    out = np.empty(x.shape, code)
    mins, maxs = np.empty(lo.shape, _F32), np.empty(hi.shape, _F32)
    for i in range(x.shape[axis]):
        idx = (slice(None),) * axis + (i,)
        out[idx], mins[i], maxs[i] = _quantize_slice(x[idx], lo[i], hi[i], *args)
    return _tagged(out, T), mins, maxs


def _minmax_rank_checks(ranges, axis, x_dims):
    """TF's shape checks of a (min, max) pair: scalars, or vectors of the size of `axis`'s dimension."""
    rank = 0 if axis == -1 else 1
    depth = None
    for t in ranges:
        d = t._shape.as_tuple()
        if d is not None:
            if len(d) != rank:
                raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(d)))
            if rank and d[0] is not None:
                if depth is not None and depth != d[0]:
                    raise ValueError("Dimensions must be equal, but are %d and %d" % (depth, d[0]))
                depth = d[0]
    if axis < -1:
        raise ValueError("axis should be at least -1, got %d" % axis)
    if axis != -1:
        if x_dims is not None:
            if len(x_dims) < axis + 1:
                raise ValueError("Shape must be at least rank %d but is rank %d" % (axis + 1, len(x_dims)))
            if depth is not None and x_dims[axis] is not None and depth != x_dims[axis]:
                raise ValueError("Dimensions must be equal, but are %d and %d" % (depth, x_dims[axis]))
            depth = depth if depth is not None else x_dims[axis]
        return (depth,)
    return ()


def _quantize_infer(op):
    x, lo, hi = op._inputs
    for t, arg in ((x, "input"), (lo, "min_range"), (hi, "max_range")):
        if t.dtype is not dtypes.float32:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: float32"
                            % (arg, t.dtype.name))
    a = op._attrs
    mshape = _minmax_rank_checks(op._inputs[1:3], a.get("axis", -1), x._shape.as_tuple())
    return [(a["T"], x._shape), (dtypes.float32, mshape), (dtypes.float32, mshape)]


register_op("QuantizeV2", infer=_quantize_infer, kernel=_quantize_kernel)


# ---- Dequantize -------------------------------------------------------------------------------------
def _dequantize_slice(codes, lo, hi, mode, narrow_range):
    info = np.iinfo(codes.dtype)
    lo, hi = _F32(lo), _F32(hi)
    with np.errstate(all="ignore"):
        if mode == "MIN_COMBINED":
            half = _F32(0.0) if info.min == 0 else _F32((_F32(info.max) - _F32(info.min) + _F32(1)) / _F32(2))
            scale = _F32((hi - lo) / (_F32(info.max) - _F32(info.min)))
            return (codes.astype(_F32) + half) * scale + lo
        if mode == "MIN_FIRST":
            return _q2f_min_first(codes, lo, hi)
        lo_q = int(info.min) + (1 if narrow_range else 0)
        if info.min == 0:
            scale = _ftz(hi / _F32(info.max))
        else:
            scale = max(_ftz(lo / _F32(lo_q)), _ftz(hi / _F32(info.max)))
        return _ftz(codes.astype(_F32) * scale)


def _dequantize_kernel(xp, x, lo, hi, mode="MIN_COMBINED", narrow_range=False, axis=-1, dtype=dtypes.float32):
    codes = _codes(x)
    if axis >= codes.ndim:
        raise _invalid("Axis must be less than input dimension(%d), got %d" % (codes.ndim, axis))
    slices = 1 if axis == -1 else codes.shape[axis]
    for name, t in (("input_min_tensor", lo), ("input_max_tensor", hi)):
        if np.size(t) != slices:
            raise _invalid("%s must have as many elements as input on the dequantization axis (%d), got %d, "
                           "expected %d" % (name, axis, np.size(t), slices))
    lo, hi = np.asarray(lo, _F32).reshape(-1), np.asarray(hi, _F32).reshape(-1)
    if axis == -1:
        return np.asarray(_dequantize_slice(codes, lo[0], hi[0], mode, narrow_range), _F32)
    if mode == "MIN_FIRST":
        raise errors.UnimplementedError(None, None, "MIN_FIRST mode is not implemented for Dequantize with axis != -1.")
    out = np.empty(codes.shape, _F32)
    for i in range(slices):
        idx = (slice(None),) * axis + (i,)
        out[idx] = _dequantize_slice(codes[idx], lo[i], hi[i], mode, narrow_range)
    return out


def _dequantize_infer(op):
    x = op._inputs[0]
    if x.dtype not in _QTYPES:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: %s"
                        % (x.dtype.name, _QNAMES))
    for t, arg in zip(op._inputs[1:], ("min_range", "max_range")):
        if t.dtype is not dtypes.float32:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: float32"
                            % (arg, t.dtype.name))
    a = op._attrs
    xd, axis = x._shape.as_tuple(), a.get("axis", -1)
    if axis != -1 and xd is not None and axis > len(xd):
        raise ValueError("Axis must be less than input dimension(%d), got %d" % (len(xd), axis))
    _minmax_rank_checks(op._inputs[1:3], axis, xd)
    return [(a.get("dtype", dtypes.float32), x._shape)]


register_op("Dequantize", infer=_dequantize_infer, kernel=_dequantize_kernel)


# ---- QuantizedConcat --------------------------------------------------------------------------------
class _ConcatView:
    """The inputs of a QuantizedConcat laid out as ConcatV2's (values, then the axis)."""

    def __init__(self, values, axis):
        self._inputs = list(values) + [axis]


def _qconcat_infer(op):
    n = op._attrs["N"]
    axis_t, values = op._inputs[0], op._inputs[1:1 + n]
    if values[0].dtype not in _QTYPES:
        raise TypeError("Value passed to parameter 'values' has DataType %s not in list of allowed values: %s"
                        % (values[0].dtype.name, _QNAMES))
    for t in op._inputs[1 + n:]:
        d = t._shape.as_tuple()
        if d is not None and len(d) != 0:
            raise ValueError("Shape must be rank 0 but is rank %d" % len(d))
    axis = _value(axis_t)
    ranks = [len(v._shape.as_tuple()) for v in values if v._shape.as_tuple() is not None]
    if axis is not None and ranks and not 0 <= int(axis) < ranks[0]:
        if int(axis) >= 0:
            raise ValueError("Shape must be at least rank %d but is rank %d" % (int(axis) + 1, ranks[0]))
        raise ValueError("Expected concat_dim >= 0, but got %d" % int(axis))
    from .array_join_ops import _concat_infer
    (dt, shape), = _concat_infer(_ConcatView(values, axis_t))
    return [(dt, shape), (dtypes.float32, ()), (dtypes.float32, ())]


def _qconcat_kernel(xp, axis, *args, N, T):
    if T not in (dtypes.quint8, dtypes.qint32):
        raise _invalid("No OpKernel was registered to support Op 'QuantizedConcat' with these attrs: [N=%d, T=DT_%s]"
                       % (N, T.name.upper()))
    values, mins, maxs = args[:N], args[N:2 * N], args[2 * N:]
    if np.ndim(axis) != 0:
        raise _invalid("Concat dim tensor should be a scalar integer, but got shape %s" % _fmt(np.shape(axis)))
    axis = int(axis)
    codes = [_codes(v) for v in values]
    r = codes[0].ndim
    if not 0 <= axis < max(r, 1):
        raise _invalid("ConcatOp : Expected concatenating dimensions in the range [0, %d), but got %d" % (r, axis))
    s0 = codes[0].shape
    for i, c in enumerate(codes[1:], 1):
        if c.ndim != r:
            raise _invalid("ConcatOp : Ranks of all input tensors should match: shape[0] = %s vs. shape[%d] = %s"
                           % (_fmt(s0), i, _fmt(c.shape)))
        if c.shape[:axis] != s0[:axis] or c.shape[axis + 1:] != s0[axis + 1:]:
            raise _invalid("ConcatOp : Dimensions of inputs should match: shape[0] = %s vs. shape[%d] = %s"
                           % (_fmt(s0), i, _fmt(c.shape)))
    ranges = [(_F32(np.reshape(a, -1)[0]), _F32(np.reshape(b, -1)[0])) for a, b in zip(mins, maxs)]
    lo = min(_F32(0.0), min(a for a, _ in ranges))
    hi = max(b for _, b in ranges)
    if np.iinfo(codes[0].dtype).min < 0:
        big = max(abs(lo), abs(hi))
        lo, hi = -big, big
    parts = []
    for c, (a, b) in zip(codes, ranges):
        parts.append(c if (a == lo and b == hi) else _f2q_min_first(_q2f_min_first(c, a, b), lo, hi, c.dtype))
    return _tagged(np.concatenate(parts, axis=axis), T), np.asarray(lo, _F32), np.asarray(hi, _F32)


register_op("QuantizedConcat", infer=_qconcat_infer, kernel=_qconcat_kernel)


# ---- QuantizeAndDequantize ---------------------------------------------------------------------------
def _qdq_range(signed_input, num_bits, narrow_range, lo, hi, dt):
    """TF's ComputeQuantizationRange in the input's float type: (min, max, scale, inverse_scale)."""
    if signed_input:
        min_q = -(1 << (num_bits - 1)) + (1 if narrow_range else 0)
        max_q = (1 << (num_bits - 1)) - 1
    else:
        min_q, max_q = 0, (1 << num_bits) - 1
    big = dt(np.finfo(dt).max)
    with np.errstate(all="ignore"):
        lo, hi = dt(lo), dt(hi)
        from_min = dt(dt(min_q) / lo) if dt(min_q) * lo > 0 else big
        from_max = dt(dt(max_q) / hi) if dt(max_q) * hi > 0 else big
        if from_min < from_max:
            scale, inv = from_min, dt(lo / dt(min_q))
            hi = dt(dt(max_q) * inv)
        else:
            scale, inv = from_max, dt(hi / dt(max_q))
            lo = dt(dt(min_q) * inv)
    return lo, hi, scale, inv


def _qdq_slice(x, lo, hi, signed_input, num_bits, range_given, round_mode, narrow_range):
    dt = x.dtype.type
    if not range_given:
        if x.size == 0:
            lo = hi = dt(0)
        else:
            lo, hi = (dt(np.nan), dt(np.nan)) if np.isnan(x).any() else (x.min(), x.max())
    lo, hi, scale, inv = _qdq_range(signed_input, num_bits, narrow_range, lo, hi, dt)
    with np.errstate(all="ignore"):
        v = np.maximum(np.minimum(x, hi), lo) if range_given else x
        v = v * scale
        v = np.rint(v) if round_mode == "HALF_TO_EVEN" else np.floor(v + dt(0.5))
        return (v * inv).astype(x.dtype, copy=False)


def _qdq_kernel(xp, x, lo, hi, signed_input=True, num_bits=8, range_given=False, round_mode="HALF_TO_EVEN",
                narrow_range=False, axis=-1, T=None, op_v2=True):
    if not (num_bits > 0 and num_bits < (62 if signed_input else 63)):
        raise _invalid("num_bits is out of range: %d with signed_input_ %d" % (num_bits, int(signed_input)))
    if axis != -1 and axis >= x.ndim:
        raise _invalid("Shape must be at least rank %d but is rank %d" % (axis + 1, x.ndim))
    depth = 1 if axis == -1 else x.shape[axis]
    if x.dtype == np.float16:
        raise _invalid("No OpKernel was registered to support Op '%s' with these attrs: [T=DT_HALF]"
                       % ("QuantizeAndDequantizeV2" if op_v2 else "QuantizeAndDequantizeV4"))
    lo, hi = np.asarray(lo, x.dtype), np.asarray(hi, x.dtype)
    if range_given:
        for name, t in (("input_min", lo), ("input_max", hi)):
            if t.ndim != 0:  # TF 2.21's kernel: also with an axis, which makes per-slice given ranges unusable
                raise _invalid("%s must be a scalar." % name)
        if not lo <= hi:
            raise _invalid("Invalid range: input_min %s > input_max %s" % (_c_float(lo), _c_float(hi)))
    args = (signed_input, num_bits, range_given, round_mode, narrow_range)
    if axis == -1:
        return _qdq_slice(x, lo, hi, *args)
    out = np.empty_like(x)
    for i in range(depth):
        idx = (slice(None),) * axis + (i,)
        out[idx] = _qdq_slice(x[idx], 0, 0, *args)  # per-slice ranges come from the data (see above)
    return out


def _qdq_infer(op):
    x, lo, hi = op._inputs
    if x.dtype not in _QDQ_TYPES:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: "
                        "bfloat16, float16, float32, float64" % x.dtype.name)
    _minmax_rank_checks(op._inputs[1:3], op._attrs.get("axis", -1), x._shape.as_tuple())
    return [(x.dtype, x._shape)]


def _qdq_v2_grad(op, grad):
    return [grad, None, None]


def _qdq_v4_grad(op, grad):
    x, lo, hi = op._inputs
    return list(ops.apply_op("QuantizeAndDequantizeV4Grad", [grad, x, lo, hi], {"axis": op._attrs.get("axis", -1)}))


def _qdq_v4_grad_infer(op):
    g, x, lo, hi = op._inputs
    if x.dtype not in _QDQ_TYPES:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: "
                        "bfloat16, float16, float32, float64" % x.dtype.name)
    shape = _merge_dims(g._shape.as_tuple(), x._shape.as_tuple())
    mshape = _minmax_rank_checks((lo, hi), op._attrs.get("axis", -1), shape)
    return [(x.dtype, shape), (x.dtype, mshape), (x.dtype, mshape)]


def _qdq_v4_grad_kernel(xp, g, x, lo, hi, axis=-1):
    if g.shape != x.shape:
        raise _invalid("gradient and input must be the same size")
    dt = x.dtype.type
    lo, hi = np.asarray(lo, x.dtype), np.asarray(hi, x.dtype)
    with np.errstate(all="ignore"):
        if axis == -1:
            inside = (x >= lo) & (x <= hi)
        else:
            depth = x.shape[axis]
            if lo.size != depth or hi.size != depth:
                raise _invalid("input_min_tensor has incorrect size, was %d expected %d to match dim %d of the input %s"
                               % (lo.size, depth, axis, _fmt(x.shape)))
            shape = [1] * x.ndim
            shape[axis] = depth
            inside = (x >= lo.reshape(shape)) & (x <= hi.reshape(shape))
        return (g * inside.astype(dt)).astype(x.dtype, copy=False), np.zeros(lo.shape, x.dtype), \
            np.zeros(hi.shape, x.dtype)


def _qdq_v4_kernel(xp, x, lo, hi, **attrs):
    return _qdq_kernel(xp, x, lo, hi, op_v2=False, **attrs)


register_op("QuantizeAndDequantizeV2", infer=_qdq_infer, kernel=_qdq_kernel, grad=_qdq_v2_grad)
register_op("QuantizeAndDequantizeV4", infer=_qdq_infer, kernel=_qdq_v4_kernel, grad=_qdq_v4_grad)
register_op("QuantizeAndDequantizeV4Grad", infer=_qdq_v4_grad_infer, kernel=_qdq_v4_grad_kernel)


# ---- public API -------------------------------------------------------------------------------------
def _axis(axis, x):
    if axis is None:
        return -1
    axis = int(axis)
    if axis < 0:
        nd = x._shape.ndims
        if nd is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= nd
    return axis


def _choice(value, allowed, attr, op_type):
    if value not in allowed:
        raise ValueError("Attr '%s' of '%s' Op passed string '%s' not in: %s." % (
            attr, op_type, value, ", ".join('"%s"' % a for a in allowed)))
    return value


def quantize_v2(input, min_range, max_range, T, mode="MIN_COMBINED", name=None,  # noqa: A002
                round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False, axis=None, ensure_minimum_range=0.01):
    """Quantizes the float32 `input` to the quantized type `T` (TF's QuantizeV2).

    Args:
      input: A float32 `Tensor`.
      min_range: A float32 scalar (a vector along `axis` if given): the low end of the range.
      max_range: A float32 scalar (a vector along `axis` if given): the high end of the range.
      T: The output type: `tf.qint8`, `tf.quint8`, `tf.qint16`, `tf.quint16` or `tf.qint32`.
      mode: "MIN_COMBINED" (default), "MIN_FIRST" or "SCALED".
      name: A name for the operation (optional).
      round_mode: "HALF_AWAY_FROM_ZERO" (default) or "HALF_TO_EVEN" (SCALED mode only).
      narrow_range: Whether SCALED mode leaves out the lowest code (default False).
      axis: The dimension quantized per slice (default None: the whole tensor).
      ensure_minimum_range: The smallest range, relative to the largest magnitude (default 0.01).

    Returns:
      A tuple `(output, output_min, output_max)`: the codes and the range they represent.

    Raises:
      TypeError: If `T` is not a quantized type or `input` is not float32.
      ValueError: For a bad mode, round mode, axis or range shape.
      InvalidArgumentError: (at run time) if `max_range < min_range`, or HALF_TO_EVEN with another mode.
    """
    T = dtypes.as_dtype(T)
    if T not in _QTYPES:
        raise TypeError("Value passed to parameter 'T' has DataType %s not in list of allowed values: %s"
                        % (T.name, _QNAMES))
    _choice(mode, _MODES, "mode", "QuantizeV2")
    _choice(round_mode, ("HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN"), "round_mode", "QuantizeV2")
    with ops.name_scope(name, "QuantizeV2", [input, min_range, max_range]) as scope:
        x = ops.convert_to_tensor(input, dtype=dtypes.float32, name="input")
        lo = ops.convert_to_tensor(min_range, dtype=dtypes.float32, name="min_range")
        hi = ops.convert_to_tensor(max_range, dtype=dtypes.float32, name="max_range")
        attrs = {"T": T, "mode": mode, "round_mode": round_mode, "narrow_range": bool(narrow_range),
                 "axis": _axis(axis, x), "ensure_minimum_range": float(ensure_minimum_range)}
        return QuantizeV2(*ops.apply_op("QuantizeV2", [x, lo, hi], attrs, name=scope))


def quantize(input, min_range, max_range, T, mode="MIN_COMBINED", round_mode="HALF_AWAY_FROM_ZERO",  # noqa: A002
             name=None, narrow_range=False, axis=None, ensure_minimum_range=0.01):
    """Quantizes the float32 `input` to the quantized type `T`; see `quantize_v2` (the same op, with
    `round_mode` before `name`).

    Args:
      input: A float32 `Tensor`.
      min_range: A float32 scalar (a vector along `axis` if given).
      max_range: A float32 scalar (a vector along `axis` if given).
      T: The output type: `tf.qint8`, `tf.quint8`, `tf.qint16`, `tf.quint16` or `tf.qint32`.
      mode: "MIN_COMBINED" (default), "MIN_FIRST" or "SCALED".
      round_mode: "HALF_AWAY_FROM_ZERO" (default) or "HALF_TO_EVEN" (SCALED mode only).
      name: A name for the operation (optional).
      narrow_range: Whether SCALED mode leaves out the lowest code (default False).
      axis: The dimension quantized per slice (default None).
      ensure_minimum_range: The smallest range, relative to the largest magnitude (default 0.01).

    Returns:
      A tuple `(output, output_min, output_max)`.

    Raises:
      TypeError, ValueError, InvalidArgumentError: As `quantize_v2`.
    """
    return quantize_v2(input, min_range, max_range, T, mode=mode, name=name, round_mode=round_mode,
                       narrow_range=narrow_range, axis=axis, ensure_minimum_range=ensure_minimum_range)


def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None, axis=None,  # noqa: A002
               narrow_range=False, dtype=dtypes.float32):
    """Dequantizes the quantized `input` to float32 (TF's Dequantize), inverting `quantize`'s `mode`.

    Args:
      input: A `Tensor` of a quantized type.
      min_range: A float32 scalar (a vector along `axis` if given): the float value of the lowest code.
      max_range: A float32 scalar (a vector along `axis` if given): the float value of the highest code.
      mode: "MIN_COMBINED" (default), "MIN_FIRST" or "SCALED".
      name: A name for the operation (optional).
      axis: The dimension dequantized per slice (default None).
      narrow_range: Whether SCALED mode's lowest code was left out (default False).
      dtype: The output type: float32 (bfloat16 does not exist here).

    Returns:
      A float32 `Tensor` of `input`'s shape.

    Raises:
      TypeError: If `input` is not quantized or `dtype` is not float32.
      ValueError: For a bad mode, axis or range shape.
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype is not dtypes.float32:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: "
                        "bfloat16, float32" % dtype.name)
    _choice(mode, _MODES, "mode", "Dequantize")
    with ops.name_scope(name, "Dequantize", [input, min_range, max_range]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        lo = ops.convert_to_tensor(min_range, dtype=dtypes.float32, name="min_range")
        hi = ops.convert_to_tensor(max_range, dtype=dtypes.float32, name="max_range")
        attrs = {"mode": mode, "narrow_range": bool(narrow_range), "axis": _axis(axis, x), "dtype": dtype}
        return ops.apply_op("Dequantize", [x, lo, hi], attrs, name=scope)


def quantized_concat(concat_dim, values, input_mins, input_maxes, name=None):
    """Concatenates quantized tensors along one dimension, requantizing each to the union of the
    input ranges (TF's QuantizedConcat; quint8 and qint32 have kernels, as in TF).

    Args:
      concat_dim: An int32 scalar: the dimension (in `[0, rank)`).
      values: A list of at least 2 `Tensor`s of one quantized type and equal rank.
      input_mins: A list of float32 scalars: the float value of each input's lowest code.
      input_maxes: A list of float32 scalars: the float value of each input's highest code.
      name: A name for the operation (optional).

    Returns:
      A tuple `(output, output_min, output_max)`.

    Raises:
      ValueError: For fewer than 2 values, list lengths that differ, or statically bad shapes.
      InvalidArgumentError: (at run time) for bad shapes or a type without a kernel.
    """
    values, input_mins, input_maxes = list(values), list(input_mins), list(input_maxes)
    n = len(values)
    if n < 2:
        raise ValueError("Attr 'N' of 'QuantizedConcat' Op passed %d less than minimum 2." % n)
    for arg, lst in (("input_mins", input_mins), ("input_maxes", input_maxes)):
        if len(lst) != n:
            raise ValueError("List argument '%s' to 'QuantizedConcat' Op with length %d must match length %d of "
                             "argument 'values'." % (arg, len(lst), n))
    with ops.name_scope(name, "QuantizedConcat", [concat_dim] + values) as scope:
        axis = ops.convert_to_tensor(concat_dim, dtype=dtypes.int32, name="concat_dim")
        vals = [ops.convert_to_tensor(v, name="values") for v in values]
        if len({v.dtype for v in vals}) > 1:
            raise TypeError("Input 'values' of 'QuantizedConcat' Op has type list of %s that do not all match."
                            % ", ".join(v.dtype.name for v in vals))
        mins = [ops.convert_to_tensor(m, dtype=dtypes.float32, name="input_mins_%d" % i)
                for i, m in enumerate(input_mins)]
        maxs = [ops.convert_to_tensor(m, dtype=dtypes.float32, name="input_maxes_%d" % i)
                for i, m in enumerate(input_maxes)]
        outs = ops.apply_op("QuantizedConcat", [axis] + vals + mins + maxs, {"N": n, "T": vals[0].dtype}, name=scope)
        return QuantizedConcat(*outs)


def _qdq(op_type, input, input_min, input_max, signed_input, num_bits, range_given, round_mode, name,  # noqa: A002
         narrow_range, axis):
    _choice(round_mode, ("HALF_TO_EVEN", "HALF_UP"), "round_mode", op_type)
    with ops.name_scope(name, op_type, [input, input_min, input_max]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        if x.dtype not in _QDQ_TYPES:
            raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: "
                            "bfloat16, float16, float32, float64" % x.dtype.name)
        lo = ops.convert_to_tensor(input_min, dtype=x.dtype, name="input_min")
        hi = ops.convert_to_tensor(input_max, dtype=x.dtype, name="input_max")
        attrs = {"signed_input": bool(signed_input), "num_bits": int(num_bits), "range_given": bool(range_given),
                 "round_mode": round_mode, "narrow_range": bool(narrow_range), "axis": _axis(axis, x), "T": x.dtype}
        return ops.apply_op(op_type, [x, lo, hi], attrs, name=scope)


def quantize_and_dequantize(input, input_min, input_max, signed_input=True, num_bits=8,  # noqa: A002
                            range_given=False, round_mode="HALF_TO_EVEN", name=None, narrow_range=False, axis=None):
    """Quantizes then dequantizes a tensor (TF's QuantizeAndDequantizeV2): rounds `input * scale` to
    the `num_bits` grid that keeps 0 exact and covers the range, and scales back. The gradient is the
    identity (straight through) for `input`.

    Args:
      input: A float16, float32 or float64 `Tensor`.
      input_min: A scalar (a vector along `axis`): the low end of the range, used if `range_given`.
      input_max: A scalar (a vector along `axis`): the high end of the range, used if `range_given`.
      signed_input: Whether the grid is signed (default True).
      num_bits: The bit width (default 8).
      range_given: Whether to use `[input_min, input_max]` (and clip to it) instead of `input`'s
        min and max (default False).
      round_mode: "HALF_TO_EVEN" (default) or "HALF_UP".
      name: A name for the operation (optional).
      narrow_range: Whether a signed grid leaves out its lowest level (default False).
      axis: The dimension with one range per slice (default None: the whole tensor).

    Returns:
      A `Tensor` of `input`'s dtype and shape.

    Raises:
      TypeError: For a non-float `input`.
      ValueError: For a bad round mode, axis or range shape.
      InvalidArgumentError: (at run time) for `num_bits` out of range or `input_min > input_max`.
    """
    return _qdq("QuantizeAndDequantizeV2", input, input_min, input_max, signed_input, num_bits, range_given,
                round_mode, name, narrow_range, axis)


def quantize_and_dequantize_v2(input, input_min, input_max, signed_input=True, num_bits=8,  # noqa: A002
                               range_given=False, round_mode="HALF_TO_EVEN", name=None, narrow_range=False,
                               axis=None):
    """Quantizes then dequantizes a tensor (TF's QuantizeAndDequantizeV4); as `quantize_and_dequantize`,
    but the gradient passes only where `input` lies in `[input_min, input_max]`.

    Args:
      input: A float16, float32 or float64 `Tensor`.
      input_min: A scalar (a vector along `axis`): the low end of the range.
      input_max: A scalar (a vector along `axis`): the high end of the range.
      signed_input: Whether the grid is signed (default True).
      num_bits: The bit width (default 8).
      range_given: Whether to use `[input_min, input_max]` instead of `input`'s min and max.
      round_mode: "HALF_TO_EVEN" (default) or "HALF_UP".
      name: A name for the operation (optional).
      narrow_range: Whether a signed grid leaves out its lowest level (default False).
      axis: The dimension with one range per slice (default None).

    Returns:
      A `Tensor` of `input`'s dtype and shape.

    Raises:
      TypeError, ValueError, InvalidArgumentError: As `quantize_and_dequantize`.
    """
    return _qdq("QuantizeAndDequantizeV4", input, input_min, input_max, signed_input, num_bits, range_given,
                round_mode, name, narrow_range, axis)
