"""Op-table rows of tensorweave/ops/quantization_fake_ops.py and quantization_ops.py (see harness.py for
the row API): the six FakeQuant* ops, QuantizeV2, Dequantize, QuantizedConcat and QuantizeAndDequantize
V2/V4/V4Grad.

References are independent of the kernels: each op's documented formula in float64 (the nudged range
and rounding to the nearest level for fake quantization; the widened range and each mode's code
formula for quantize/dequantize; the symmetric grid for quantize-and-dequantize), not TF's float32
operation order. Bitwise agreement with TF (float32 order, ties, NaN codes, FTZ) is checked against
recorded TF values in tests/ops/test_quantization_ops.py, which also checks the gradients: the
straight-through estimators TF registers are not the derivative of a step function, so the
numerical gradient check does not apply to them.
"""

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import Row

F32 = np.dtype(np.float32)
STE = ("TF's gradient is a straight-through estimator, not the derivative of a step function; its values "
       "are checked against TF in tests/ops/test_quantization_ops.py")
NO_TF_GRAD = "TF registers no gradient for %s (LookupError, as here)"
QT = {n: np.dtype([(n, c)]) for n, c in (("qint8", np.int8), ("quint8", np.uint8), ("qint16", np.int16),
                                         ("quint16", np.uint16), ("qint32", np.int32))}
SPECIAL_X = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e30, -1e30, 0.5, 3.0], np.float32)


def _round_half_away(v):
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


# ---- fake quantization -----------------------------------------------------------------------------
def _nudged(lo, hi, num_bits, narrow):
    qmin, qmax = (1 if narrow else 0), 2 ** num_bits - 1
    scale = (float(hi) - float(lo)) / (qmax - qmin)
    zero = min(max(qmin - float(lo) / scale, qmin), qmax)
    zero = _round_half_away(zero)
    return (qmin - zero) * scale, (qmax - zero) * scale, scale


def _fq_ref(x, lo, hi, num_bits, narrow):
    if lo == 0 and hi == 0:
        return np.zeros_like(x)
    nmin, nmax, scale = _nudged(lo, hi, num_bits, narrow)
    x64 = x.astype(np.float64)
    c = np.where(np.isnan(x64), np.nan, np.clip(x64, nmin, nmax))
    return (nmin + np.floor((c - nmin) / scale + 0.5) * scale).astype(np.float32)


def _inside(x, lo, hi, num_bits, narrow):
    nmin, nmax, _ = _nudged(lo, hi, num_bits, narrow)
    x64 = x.astype(np.float64)
    return x64 >= nmin, x64 <= nmax


def _fq_inputs(shape, lo=-3.0, hi=3.0):
    def inputs(dt, rng):
        return [rng.uniform(lo, hi, shape).astype(F32)]
    return inputs


def _fq_rows():
    rows = []
    for tag, (lo, hi, nb, narrow) in {"8bit": (-1.0, 2.7, 8, False), "4bit-narrow": (-0.3, 5.1, 4, True),
                                      "positive": (0.2, 3.0, 6, False)}.items():
        rows.append(Row(
            "FakeQuantWithMinMaxArgs",
            lambda x, lo=lo, hi=hi, nb=nb, narrow=narrow: tf.quantization.fake_quant_with_min_max_args(
                x, min=lo, max=hi, num_bits=nb, narrow_range=narrow),
            lambda x, lo=lo, hi=hi, nb=nb, narrow=narrow: _fq_ref(x, lo, hi, nb, narrow),
            _fq_inputs((4, 9)), dtypes=(F32,), special=lambda dt: [[SPECIAL_X], [np.zeros((0, 3), np.float32)]],
            grad=None, name="FakeQuantWithMinMaxArgs-" + tag, note=STE))

        def vars_fn(x, mn, mx, nb=nb, narrow=narrow):
            return tf.quantization.fake_quant_with_min_max_vars(x, mn, mx, num_bits=nb, narrow_range=narrow)

        def vars_inputs(dt, rng, lo=lo, hi=hi):
            return [rng.uniform(-4, 4, (3, 7)).astype(F32), np.float32(lo), np.float32(hi)]

        rows.append(Row(
            "FakeQuantWithMinMaxVars", vars_fn,
            lambda x, mn, mx, nb=nb, narrow=narrow: _fq_ref(x, float(mn), float(mx), nb, narrow),
            vars_inputs, dtypes=(F32,),
            special=lambda dt, lo=lo, hi=hi: [[SPECIAL_X, np.float32(lo), np.float32(hi)],
                                              [SPECIAL_X, np.float32(0), np.float32(0)],
                                              [np.zeros(0, np.float32), np.float32(lo), np.float32(hi)]],
            grad=None, name="FakeQuantWithMinMaxVars-" + tag, note=STE))

    def args_grad_ref(g, x):
        a, b = _inside(x, -1.0, 2.7, 8, False)
        return (g.astype(np.float64) * (a & b)).astype(np.float32)

    rows.append(Row(
        "FakeQuantWithMinMaxArgsGradient",
        lambda g, x: tf.quantization.fake_quant_with_min_max_args_gradient(g, x, min=-1.0, max=2.7),
        args_grad_ref, lambda dt, rng: [rng.uniform(-2, 2, (5, 4)).astype(F32), rng.uniform(-3, 4, (5, 4)).astype(F32)],
        dtypes=(F32,), special=lambda dt: [[np.ones(9, np.float32), SPECIAL_X]], grad=False))

    def vars_grad_ref(g, x, mn, mx):
        a, b = _inside(x, float(mn), float(mx), 7, True)
        g64 = g.astype(np.float64)
        return [(g64 * (a & b)).astype(np.float32), np.float32((g64 * ~a).sum()), np.float32((g64 * ~b).sum())]

    rows.append(Row(
        "FakeQuantWithMinMaxVarsGradient",
        lambda g, x, mn, mx: list(tf.quantization.fake_quant_with_min_max_vars_gradient(g, x, mn, mx, num_bits=7,
                                                                                         narrow_range=True)),
        vars_grad_ref,
        lambda dt, rng: [rng.randint(-3, 4, (6, 5)).astype(F32), rng.uniform(-3, 4, (6, 5)).astype(F32),
                         np.float32(-1.5), np.float32(2.25)],
        dtypes=(F32,), special=lambda dt: [[np.ones(9, np.float32), np.where(np.isnan(SPECIAL_X), 0, SPECIAL_X),
                                            np.float32(-1.0), np.float32(2.0)]], grad=False))

    ranges = [(-1.0, 2.7), (-0.3, 5.1), (0.2, 3.0), (-3.0, -0.5), (0.0, 0.0)]

    def chan_ref(x, mn, mx):
        out = np.empty_like(x)
        for i in range(x.shape[-1]):
            out[..., i] = _fq_ref(x[..., i], float(mn[i]), float(mx[i]), 5, False)
        return out

    def chan_inputs(shape):
        def inputs(dt, rng):
            return [rng.uniform(-4, 6, shape).astype(F32), np.array([r[0] for r in ranges], F32),
                    np.array([r[1] for r in ranges], F32)]
        return inputs

    for rank, shape in (("2d", (6, 5)), ("4d", (2, 3, 2, 5))):
        rows.append(Row(
            "FakeQuantWithMinMaxVarsPerChannel",
            lambda x, mn, mx: tf.quantization.fake_quant_with_min_max_vars_per_channel(x, mn, mx, num_bits=5),
            chan_ref, chan_inputs(shape), dtypes=(F32,),
            special=lambda dt: [[np.stack([SPECIAL_X] * 5, axis=1), np.array([r[0] for r in ranges], F32),
                                 np.array([r[1] for r in ranges], F32)]],
            grad=None, name="FakeQuantWithMinMaxVarsPerChannel-" + rank, note=STE))

    def chan_grad_ref(g, x, mn, mx):
        g64 = g.astype(np.float64).reshape(-1, 5)
        xf = x.reshape(-1, 5)
        dx, dmin, dmax = np.zeros_like(g64), np.zeros(5), np.zeros(5)
        for i in range(5):
            if mn[i] == 0 and mx[i] == 0:
                dx[:, i] = g64[:, i]
                continue
            a, b = _inside(xf[:, i], float(mn[i]), float(mx[i]), 8, False)
            dx[:, i] = g64[:, i] * (a & b)
            dmin[i], dmax[i] = (g64[:, i] * ~a).sum(), (g64[:, i] * ~b).sum()
        return [dx.reshape(g.shape).astype(np.float32), dmin.astype(np.float32), dmax.astype(np.float32)]

    rows.append(Row(
        "FakeQuantWithMinMaxVarsPerChannelGradient",
        lambda g, x, mn, mx: list(tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient(g, x, mn, mx)),
        chan_grad_ref,
        lambda dt, rng: [rng.randint(-3, 4, (2, 4, 5)).astype(F32)] + chan_inputs((2, 4, 5))(dt, rng),
        dtypes=(F32,), special=False, grad=False))
    return rows


# ---- quantize / dequantize --------------------------------------------------------------------------
def _widen(lo, hi, ensure=0.01):
    mn = min(0.0, lo)
    return mn, max(0.0, hi, mn + max(1.0, abs(lo), abs(hi)) * ensure)


def _f32(v):
    return float(np.float32(v))


def _quantize_ref(x, lo, hi, qname, mode, round_mode="HALF_AWAY_FROM_ZERO", narrow=False):
    code = QT[qname][0]
    info = np.iinfo(code)
    mn, mx = _widen(_f32(lo), _f32(hi))
    mn, mx = _f32(mn), _f32(mx)
    x64 = x.astype(np.float64)
    if mode == "MIN_COMBINED":
        v = (np.clip(x64, mn, mx) - mn) * (float(info.max) - float(info.min)) / (mx - mn)
        # signed types: shifted by half the code range, then rounded (half away from zero);
        # unsigned: + 0.5, truncated
        q = _round_half_away(v + info.min) if info.min < 0 else np.floor(v + 0.5)
    elif mode == "MIN_FIRST":
        s = (2.0 ** (8 * code.itemsize) - 1) / (mx - mn)
        q = np.clip(_round_half_away(x64 * s) - _round_half_away(_f32(mn * s)) + info.min, info.min, info.max)
    else:
        lowest = info.min + (1 if narrow else 0)
        scale = min(lowest / mn if lowest * mn > 0 else np.inf, info.max / mx if info.max * mx > 0 else np.inf)
        mn, mx = lowest / scale, info.max / scale
        v = np.clip(x64, mn, mx) * scale
        q = np.rint(v) if round_mode == "HALF_TO_EVEN" else _round_half_away(v)
    return [q.astype(code).view(QT[qname]), np.float32(mn), np.float32(mx)]


def _quantize_rows():
    rows = []
    cases = [("qint8", "MIN_COMBINED", {}, (-1.0, 2.0)), ("quint8", "MIN_COMBINED", {}, (0.3, 5.0)),
             ("qint16", "MIN_FIRST", {}, (-1.5, 0.5)), ("quint8", "MIN_FIRST", {}, (-1.0, 2.0)),
             ("qint8", "SCALED", {"round_mode": "HALF_TO_EVEN", "narrow_range": True}, (-2.0, 1.0)),
             ("quint16", "SCALED", {}, (-0.5, 3.0))]
    for qname, mode, kw, (lo, hi) in cases:
        def fn(x, qname=qname, mode=mode, kw=kw, lo=lo, hi=hi):
            return list(tf.quantization.quantize(x, lo, hi, getattr(tf, qname), mode=mode, **kw))

        def ref(x, qname=qname, mode=mode, kw=kw, lo=lo, hi=hi):
            return _quantize_ref(x, lo, hi, qname, mode, kw.get("round_mode", "HALF_AWAY_FROM_ZERO"),
                                 kw.get("narrow_range", False))

        def inputs(dt, rng, lo=lo, hi=hi):
            return [rng.uniform(lo - 1, hi + 1, (5, 7)).astype(F32)]

        rows.append(Row("QuantizeV2", fn, ref, inputs, dtypes=(F32,),
                        special=lambda dt: [[np.array([np.inf, -np.inf, -0.0, 0.0, 1e30, -1e30, 0.5], np.float32)],
                                            [np.zeros((0, 2), np.float32)]],
                        grad=None, name="QuantizeV2-%s-%s" % (qname, mode), note=NO_TF_GRAD % "QuantizeV2"))
    return rows


def _dequantize_ref(codes, lo, hi, mode, narrow=False):
    c = codes.view(codes.dtype[0])
    info = np.iinfo(c.dtype)
    c64, lo, hi = c.astype(np.float64), _f32(lo), _f32(hi)
    if mode == "MIN_COMBINED":
        out = lo + (c64 - info.min) * (hi - lo) / (float(info.max) - float(info.min))
    elif mode == "MIN_FIRST":
        step = _f32((hi - lo) / (2.0 ** (8 * c.itemsize) - 1))
        lo_rounded = _f32(_round_half_away(_f32(lo / step)) * step)
        out = lo_rounded + (c64 - info.min) * step
    else:
        lowest = info.min + (1 if narrow else 0)
        scale = hi / info.max if info.min == 0 else max(lo / lowest, hi / info.max)
        out = c64 * scale
    return out.astype(np.float32)


def _dequantize_rows():
    rows = []
    for qname, mode, (lo, hi) in [("qint8", "MIN_COMBINED", (-1.0, 2.0)), ("quint16", "MIN_COMBINED", (0.0, 3.5)),
                                  ("quint8", "MIN_FIRST", (-1.3, 2.2)), ("qint16", "MIN_FIRST", (-0.7, 0.4)),
                                  ("qint8", "SCALED", (-2.0, 1.5)), ("quint8", "SCALED", (0.0, 4.0))]:
        qt = QT[qname]

        def inputs(dt, rng, qt=qt):
            info = np.iinfo(qt[0])
            return [rng.randint(info.min, int(info.max) + 1, (4, 6)).astype(qt[0]).view(qt)]

        rows.append(Row("Dequantize",
                        lambda c, mode=mode, lo=lo, hi=hi: tf.quantization.dequantize(c, lo, hi, mode=mode),
                        lambda c, mode=mode, lo=lo, hi=hi: _dequantize_ref(c, lo, hi, mode), inputs, dtypes=(qt,),
                        special=False, grad=None, name="Dequantize-%s-%s" % (qname, mode), rtol=2e-6, atol=2e-7,
                        note=NO_TF_GRAD % "Dequantize"))
    return rows


def _concat_ref(axis, ranges):
    def ref(a, b):
        lo = min(0.0, min(_f32(r[0]) for r in ranges))
        hi = max(_f32(r[1]) for r in ranges)
        code = a.dtype[0]
        if np.iinfo(code).min < 0:
            lo, hi = -max(abs(lo), abs(hi)), max(abs(lo), abs(hi))
        parts = []
        for q, (qlo, qhi) in zip((a, b), ranges):
            f = _dequantize_ref(q, qlo, qhi, "MIN_FIRST")
            parts.append(_quantize_first(f, lo, hi, code))
        return [np.concatenate(parts, axis=axis).view(a.dtype), np.float32(lo), np.float32(hi)]
    return ref


def _quantize_first(f, lo, hi, code):
    info = np.iinfo(code)
    s = (2.0 ** (8 * np.dtype(code).itemsize) - 1) / (_f32(hi) - _f32(lo))
    q = _round_half_away(f.astype(np.float64) * s) - _round_half_away(_f32(_f32(lo) * s)) + info.min
    return np.clip(q, info.min, info.max).astype(code)


def _concat_rows():
    rows = []
    for qname, axis, ranges in [("quint8", 0, [(-1.2711, 0.6983), (-0.4537, 2.0913)]),
                                ("quint8", 1, [(-1.2711, 0.6983), (-1.2711, 0.6983)])]:
        qt = QT[qname]

        def inputs(dt, rng, qt=qt, axis=axis):
            sa, sb = ((2, 3), (4, 3)) if axis == 0 else ((3, 2), (3, 5))
            return [rng.randint(0, 256, s).astype(np.uint8).view(qt) for s in (sa, sb)]

        rows.append(Row("QuantizedConcat",
                        lambda a, b, axis=axis, ranges=ranges: list(tf.quantization.quantized_concat(
                            axis, [a, b], [r[0] for r in ranges], [r[1] for r in ranges])),
                        _concat_ref(axis, ranges), inputs, dtypes=(qt,), special=False, grad=None,
                        name="QuantizedConcat-%s-axis%d" % (qname, axis), note=NO_TF_GRAD % "QuantizedConcat"))
    return rows


# ---- quantize and dequantize ------------------------------------------------------------------------
def _qdq_ref(x, lo, hi, signed=True, num_bits=8, range_given=False, round_mode="HALF_TO_EVEN", narrow=False):
    x64 = x.astype(np.float64)
    if not range_given:
        lo, hi = (x64.min(), x64.max()) if x.size else (0.0, 0.0)
    lo, hi = float(lo), float(hi)
    if signed:
        qmin, qmax = -2 ** (num_bits - 1) + (1 if narrow else 0), 2 ** (num_bits - 1) - 1
    else:
        qmin, qmax = 0, 2 ** num_bits - 1
    s_min = qmin / lo if qmin * lo > 0 else np.inf
    s_max = qmax / hi if qmax * hi > 0 else np.inf
    if s_min < s_max:
        scale, inv = s_min, lo / qmin
        hi = qmax * inv
    else:
        scale, inv = s_max, hi / qmax
        lo = qmin * inv
    v = np.clip(x64, lo, hi) if range_given else x64
    v = v * scale
    v = np.rint(v) if round_mode == "HALF_TO_EVEN" else np.floor(v + 0.5)
    return (v * inv).astype(x.dtype)


def _qdq_rows():
    rows = []
    for op_type, fn_name in (("QuantizeAndDequantizeV2", "quantize_and_dequantize"),
                             ("QuantizeAndDequantizeV4", "quantize_and_dequantize_v2")):
        for tag, kw in {"given": dict(range_given=True), "data-unsigned4": dict(signed_input=False, num_bits=4),
                        "given-halfup-narrow": dict(range_given=True, round_mode="HALF_UP", narrow_range=True,
                                                    num_bits=5)}.items():
            def fn(x, mn, mx, fn_name=fn_name, kw=kw):
                return getattr(tf.quantization, fn_name)(x, mn, mx, **kw)

            def ref(x, mn, mx, kw=kw):
                return _qdq_ref(x, mn, mx, kw.get("signed_input", True), kw.get("num_bits", 8),
                                kw.get("range_given", False), kw.get("round_mode", "HALF_TO_EVEN"),
                                kw.get("narrow_range", False))

            def inputs(dt, rng):
                return [rng.uniform(-3, 2.5, (4, 6)).astype(dt), dt.type(-1.7), dt.type(1.3)]

            rows.append(Row(op_type, fn, ref, inputs, dtypes=(np.dtype(np.float32), np.dtype(np.float64)),
                            special=lambda dt: [[np.array([np.inf, -np.inf, -0.0, 0.0, 1e30, 0.5], dt), dt.type(-1.0),
                                                 dt.type(2.0)]],
                            grad=None, name="%s-%s" % (op_type, tag), note=STE, signed_zeros=True))

        def fn_axis(x, mn, mx, fn_name=fn_name):
            return getattr(tf.quantization, fn_name)(x, mn, mx, axis=1, num_bits=6)

        def ref_axis(x, mn, mx):
            out = np.empty_like(x)
            for i in range(x.shape[1]):
                out[:, i] = _qdq_ref(x[:, i], 0, 0, num_bits=6)
            return out

        rows.append(Row(op_type, fn_axis, ref_axis,
                        lambda dt, rng: [rng.uniform(-3, 2.5, (5, 3)).astype(dt), np.zeros(3, dt), np.zeros(3, dt)],
                        dtypes=(np.dtype(np.float32), np.dtype(np.float64)), special=False, grad=None,
                        name="%s-axis" % op_type, note=STE))

    def grad_ref(g, x, mn, mx):
        inside = (x >= mn) & (x <= mx)
        return [(g * inside).astype(x.dtype), np.zeros((), x.dtype), np.zeros((), x.dtype)]

    def grad_fn(g, x, mn, mx):
        from tensorweave.framework import ops
        return list(ops.apply_op("QuantizeAndDequantizeV4Grad", [g, x, mn, mx], {"axis": -1}))

    rows.append(Row("QuantizeAndDequantizeV4Grad", grad_fn, grad_ref,
                    lambda dt, rng: [rng.uniform(-2, 2, (3, 5)).astype(dt), rng.uniform(-3, 3, (3, 5)).astype(dt),
                                     dt.type(-1.5), dt.type(1.0)],
                    dtypes=(np.dtype(np.float32), np.dtype(np.float64)), special=False, grad=None,
                    note="TF's registered gradient of QuantizeAndDequantizeV4Grad fails (TypeError); none here "
                         "(LookupError)"))
    return rows


ROWS = _fq_rows() + _quantize_rows() + _dequantize_rows() + _concat_rows() + _qdq_rows()
