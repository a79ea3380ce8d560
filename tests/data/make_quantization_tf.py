"""Records TensorFlow's values for tests/ops/test_quantization_ops.py into tests/data/quantization_tf.npz.

Run with a Python that has TensorFlow (not needed by the tests):
    TF_ENABLE_ONEDNN_OPTS=0 /work/tfenv/bin/python tests/data/make_quantization_tf.py
(oneDNN's graph rewrite may replace Dequantize/QuantizeV2 by _Mkl* kernels, some of which do not
exist for every type; these cases give the same values with and without it, checked once.)
TF 2.21's `tf.compat.v1` in graph mode. Each case builds its graph with the public API shared by
TensorFlow and tensorweave (`build(tf, *inputs)`, a list of tensors, gradients included), so the test
builds the same graph with `import tensorweave as tf`. Inputs come from `inputs(key)` (seeded), so the
.npz holds only TF's outputs (`<case>/<i>`; quantized outputs as their integer codes, as TF's
Session returns them).
"""

import os
import zlib

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "quantization_tf.npz")
F32 = np.float32

FQ_RANGES = [(-6.0, 6.0, 8, False), (-1.0, 2.7, 8, True), (-0.3, 5.1, 4, False), (0.2, 3.0, 8, False),
             (-3.0, -0.5, 7, True), (-1.234, 0.987, 16, False), (-2.5, 2.5, 2, False), (-0.1, 0.1, 3, True)]
Q_RANGES = [(-1.0, 2.0), (0.3, 5.0), (-4.0, -1.0), (-1e-4, 1e-4), (-100.0, 50.0), (-0.5, 0.5)]
QTYPES = ["qint8", "quint8", "qint16", "quint16", "qint32"]


def _rng(key):
    return np.random.RandomState(zlib.crc32(key.encode()))


def _fq_grid(lo, hi, nbits, n):
    """Values around the levels and half levels of a fake-quant range, plus uniform ones beyond it."""
    step = (hi - lo) / ((1 << nbits) - 1)
    k = np.arange(-3, (1 << min(nbits, 6)) + 3, dtype=np.float64)
    ties = lo + (k + 0.5) * step
    return np.concatenate([ties, ties + step * 1e-3, lo + k * step,
                           np.linspace(lo - 1, hi + 1, n)]).astype(F32)


def inputs(key):
    """The input arrays of case `key` (a pure function of the key)."""
    rng = _rng(key)
    kind, rest = key.split("/", 1)
    if kind in ("fq_args", "fq_vars", "fq_args_fn", "fq_vars_fn"):
        lo, hi, nbits, _ = FQ_RANGES[int(rest)]
        x = _fq_grid(lo, hi, nbits, 97)
        x = np.concatenate([x, rng.uniform(lo * 1.5 - 1, hi * 1.5 + 1, 64).astype(F32)])
        dy = rng.randint(-4, 5, x.shape).astype(F32)
        return [x, dy]
    if kind in ("fq_chan", "fq_chan_fn"):
        shape = {"1d": (8,), "2d": (37, 8), "4d": (2, 3, 5, 8)}[rest]
        x = rng.uniform(-8, 8, shape).astype(F32)
        n = min(16, x.size)
        x.reshape(-1)[:n] = _fq_grid(-1.0, 2.7, 8, 4)[:n]
        mins = np.array([r[0] for r in FQ_RANGES], F32)
        maxs = np.array([r[1] for r in FQ_RANGES], F32)
        mins[-1] = maxs[-1] = 0.0  # TF's zero range
        dy = rng.randint(-4, 5, shape).astype(F32)
        return [x, mins, maxs, dy]
    if kind in ("q", "dq"):
        lo, hi = Q_RANGES[int(rest.split("/")[2])]
        span = hi - lo
        x = np.concatenate([rng.uniform(lo - 0.2 * span, hi + 0.2 * span, 150),
                            np.linspace(lo, hi, 61), [0.0, -0.0, lo, hi, np.inf, -np.inf]]).astype(F32)
        return [x]
    if kind == "qaxis":
        x = rng.uniform(-3, 3, (4, 3, 5)).astype(F32)
        return [x]
    if kind == "qc":
        return [rng.uniform(-2, 2, (3, 4)).astype(F32), rng.uniform(-0.5, 3, (3, 2)).astype(F32)]
    if kind in ("qdq", "qdq_v2"):
        dt = {"f16": np.float16, "f32": F32, "f64": np.float64}[rest.split("/")[0]]
        x = np.concatenate([rng.uniform(-3, 2.5, 120), np.linspace(-2.5, 2.5, 81), [0.0, -0.0]]).astype(dt)
        return [x.reshape(-1, 7) if "axis" in rest else x, rng.randint(-3, 4, x.shape).astype(dt).reshape(
            (-1, 7) if "axis" in rest else x.shape)]
    raise KeyError(key)


def _grads(tf, y, xs, dy):
    return list(tf.gradients(y, xs, grad_ys=dy))


CASES = {}


def _fq_cases():
    for i, (lo, hi, nbits, narrow) in enumerate(FQ_RANGES):
        kw = dict(num_bits=nbits, narrow_range=narrow)

        def args(tf, x, dy, lo=lo, hi=hi, kw=kw):
            y = tf.quantization.fake_quant_with_min_max_args(x, min=lo, max=hi, **kw)
            return [y] + _grads(tf, y, [x], dy)

        def vars_(tf, x, dy, lo=lo, hi=hi, kw=kw):
            mn, mx = tf.constant(lo, tf.float32), tf.constant(hi, tf.float32)
            y = tf.quantization.fake_quant_with_min_max_vars(x, mn, mx, **kw)
            return [y] + _grads(tf, y, [x, mn, mx], dy)

        def args_fn(tf, x, dy, lo=lo, hi=hi, kw=kw):
            return [tf.quantization.fake_quant_with_min_max_args_gradient(dy, x, min=lo, max=hi, **kw)]

        def vars_fn(tf, x, dy, lo=lo, hi=hi, kw=kw):
            return list(tf.quantization.fake_quant_with_min_max_vars_gradient(dy, x, lo, hi, **kw))

        CASES["fq_args/%d" % i] = args
        CASES["fq_vars/%d" % i] = vars_
        CASES["fq_args_fn/%d" % i] = args_fn
        CASES["fq_vars_fn/%d" % i] = vars_fn
    for rank in ("1d", "2d", "4d"):
        def chan(tf, x, mn, mx, dy):
            y = tf.quantization.fake_quant_with_min_max_vars_per_channel(x, mn, mx)
            y2 = tf.quantization.fake_quant_with_min_max_vars_per_channel(x, mn, mx, num_bits=5, narrow_range=True)
            return [y, y2] + _grads(tf, y, [x, mn, mx], dy)

        def chan_fn(tf, x, mn, mx, dy):
            return list(tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient(dy, x, mn, mx, num_bits=6))

        CASES["fq_chan/" + rank] = chan
        if rank != "1d":
            CASES["fq_chan_fn/" + rank] = chan_fn


def _q_cases():
    for t in QTYPES:
        for mode in ("MIN_COMBINED", "MIN_FIRST", "SCALED"):
            for r, (lo, hi) in enumerate(Q_RANGES):
                def q(tf, x, t=t, mode=mode, lo=lo, hi=hi):
                    T = getattr(tf, t)
                    outs = list(tf.quantization.quantize(x, lo, hi, T, mode=mode))
                    if mode == "SCALED":
                        outs += list(tf.quantization.quantize(x, lo, hi, T, mode=mode, round_mode="HALF_TO_EVEN",
                                                              narrow_range=True))
                    else:
                        outs += list(tf.quantize_v2(x, lo, hi, T, mode=mode, ensure_minimum_range=0.3))
                    return outs

                def dq(tf, x, t=t, mode=mode, lo=lo, hi=hi):
                    T = getattr(tf, t)
                    q = tf.quantization.quantize(x, lo, hi, T, mode=mode)
                    outs = [tf.quantization.dequantize(q.output, q.output_min, q.output_max, mode=mode),
                            tf.quantization.dequantize(q.output, lo * 0.7 - 0.1, hi * 1.3 + 0.1, mode=mode)]
                    if mode == "SCALED":
                        outs.append(tf.quantization.dequantize(q.output, lo, hi, mode=mode, narrow_range=True))
                    return outs

                CASES["q/%s/%s/%d" % (t, mode, r)] = q
                CASES["dq/%s/%s/%d" % (t, mode, r)] = dq
    for t in ("qint8", "quint8", "qint32"):
        for mode in ("MIN_COMBINED", "SCALED"):
            def qa(tf, x, t=t, mode=mode):
                T = getattr(tf, t)
                q1 = tf.quantization.quantize(x, [-1.0, 0.5, -3.0], [2.0, 1.0, -1.0], T, mode=mode, axis=1)
                q2 = tf.quantization.quantize(x, [-1.0, 0.0, -2.0, 0.2], [1.0, 3.0, 2.0, 0.4], T, mode=mode,
                                              axis=-3)
                d1 = tf.quantization.dequantize(q1.output, q1.output_min, q1.output_max, mode=mode, axis=1)
                d2 = tf.quantization.dequantize(q2.output, [-1.0, 0.0, -2.0, 0.2], [1.0, 3.0, 2.0, 0.4],
                                                mode=mode, axis=0)
                return list(q1) + list(q2) + [d1, d2]

            CASES["qaxis/%s/%s" % (t, mode)] = qa
    for t in ("quint8", "qint32"):
        def qc(tf, a, b, t=t):
            T = getattr(tf, t)
            qa = tf.quantization.quantize(a, -2.0, 2.0, T)
            qb = tf.quantization.quantize(b, -0.5, 3.0, T)
            qb2 = tf.quantization.quantize(a[:1] * 0.5, -2.0, 2.0, T)
            c1 = tf.quantization.quantized_concat(1, [qa.output, qb.output], [qa.output_min, qb.output_min],
                                                  [qa.output_max, qb.output_max])
            c2 = tf.quantization.quantized_concat(0, [qa.output, qb2.output],
                                                  [qa.output_min, qb2.output_min], [qa.output_max, qb2.output_max])
            c3 = tf.quantized_concat(1, [qa.output, qa.output, qb.output], [-2.0, -2.0, -0.5], [2.0, 2.0, 3.0])
            return list(c1) + list(c2) + list(c3)

        CASES["qc/" + t] = qc


def _qdq_cases():
    configs = [dict(), dict(range_given=True), dict(signed_input=False, num_bits=4, range_given=True),
               dict(num_bits=12, round_mode="HALF_UP"), dict(narrow_range=True, range_given=True, num_bits=5),
               dict(signed_input=False), dict(num_bits=3, round_mode="HALF_UP", range_given=True)]
    for dt in ("f32", "f64"):
        for i, kw in enumerate(configs):
            for v in ("v1", "v2"):
                def qdq(tf, x, dy, kw=kw, v=v):
                    fn = tf.quantization.quantize_and_dequantize if v == "v1" else \
                        tf.quantization.quantize_and_dequantize_v2
                    mn, mx = tf.constant(-1.7, x.dtype), tf.constant(1.3, x.dtype)
                    y = fn(x, mn, mx, **kw)
                    return [y] + [g for g in _grads(tf, y, [x, mn, mx], dy) if g is not None]

                CASES["%s/%s/%d" % ("qdq" if v == "v1" else "qdq_v2", dt, i)] = qdq
        for v in ("v1", "v2"):
            def qdq_axis(tf, x, dy, v=v):
                fn = tf.quantization.quantize_and_dequantize if v == "v1" else \
                    tf.quantization.quantize_and_dequantize_v2
                lo = tf.constant(np.linspace(-2, -0.5, 7), x.dtype)
                hi = tf.constant(np.linspace(0.5, 2.5, 7), x.dtype)
                y1 = fn(x, lo, hi, axis=1)  # TF 2.21 refuses range_given with an axis ("must be a scalar")
                y2 = fn(x, lo, hi, axis=-1, num_bits=4, narrow_range=True, round_mode="HALF_UP")
                return [y1, y2] + [g for g in _grads(tf, y1, [x, lo, hi], dy) if g is not None]

            CASES["%s/%s/axis" % ("qdq" if v == "v1" else "qdq_v2", dt)] = qdq_axis


_fq_cases()
_q_cases()
_qdq_cases()


def main():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    out = {}
    for key, build in CASES.items():
        g = tf.Graph()
        with g.as_default():
            arrays = inputs(key)
            tensors = [tf.constant(a) for a in arrays]
            fetches = build(tf, *tensors)
            with tf.Session(graph=g) as s:
                vals = s.run(fetches)
        for i, v in enumerate(vals):
            out["%s/%d" % (key, i)] = np.asarray(v)
    np.savez_compressed(OUT, **out)
    print("wrote %d arrays for %d cases to %s" % (len(out), len(CASES), OUT))


if __name__ == "__main__":
    main()
