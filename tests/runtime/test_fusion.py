"""Elementwise fusion: which chains fuse, and that fused kernels give bitwise the same values."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import ops, registry
from tensorweave.runtime import fusion

ROWS, COLS = 1024, 512  # 2**19 elements: one expensive op on this shape is worth fusing


_UNFUSED = dict(graph_options=tf.GraphOptions(optimizer_options=tf.OptimizerOptions(
    global_jit_level=tf.OptimizerOptions.OFF)))


def _run(fetches, feed, **config):
    with tf.Session(config=tf.ConfigProto(**config)) as sess:
        out = sess.run(fetches, feed)
        plans = {id(e.plan): e.plan for e in sess._cache.values()}
        fused = [g for p in plans.values() for g in p.fused]
    return out, fused


def _fused_and_plain(fetches, feed):
    out, fused = _run(fetches, feed, intra_op_parallelism_threads=2)
    ref, none = _run(fetches, feed, **_UNFUSED)
    assert none == []
    return out, ref, fused


def _apply(op_type, attrs=None):
    return lambda *xs: ops.apply_op(op_type, list(xs), attrs)


_UNARY = ["Abs", "Acos", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos", "Cosh", "Elu", "Erf", "Erfc", "Exp",
          "Expm1", "Floor", "Log", "Log1p", "Neg", "Reciprocal", "Relu", "Relu6", "Rint", "Round", "Rsqrt",
          "Selu", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus", "Softsign", "Sqrt", "Square", "Tan", "Tanh"]
_BINARY = ["Add", "AddV2", "Atan2", "DivNoNan", "EluGrad", "Maximum", "Minimum", "Mul", "Pow", "RealDiv",
           "Relu6Grad", "ReluGrad", "ReciprocalGrad", "RsqrtGrad", "SeluGrad", "SigmoidGrad", "SoftplusGrad",
           "SoftsignGrad", "SqrtGrad", "SquaredDifference", "Sub", "TanhGrad"]
_COMPARE = ["Equal", "Greater", "GreaterEqual", "Less", "LessEqual", "NotEqual"]

CASES = ([(t, 1, _apply(t)) for t in _UNARY] + [("Acosh", 1, lambda x: ops.apply_op("Acosh", [x + 1.0]))]
         + [(t, 2, _apply(t)) for t in _BINARY]
         + [(t, 2, lambda x, y, t=t: tf.cast(ops.apply_op(t, [x, y]), tf.float32)) for t in _COMPARE]
         + [("LogicalAnd", 2, lambda x, y: tf.cast(tf.logical_and(x > 0.5, y > 0.5), tf.float32)),
            ("LogicalOr", 2, lambda x, y: tf.cast(tf.logical_or(x > 0.5, y > 0.5), tf.float32)),
            ("LogicalNot", 1, lambda x: tf.cast(tf.logical_not(x > 0.5), tf.float32)),
            ("Cast", 1, lambda x: tf.cast(tf.cast(x * 10.0, tf.int32), tf.float32)),
            ("LeakyRelu", 1, lambda x: tf.nn.leaky_relu(x - 0.5, 0.3)),
            ("LeakyReluGrad", 2, _apply("LeakyReluGrad", {"alpha": 0.3})),
            ("SelectV2", 2, lambda x, y: tf.where_v2(x > y, x, y))]
         + [(t, 2, lambda x, y, t=t: tf.cast(ops.apply_op(t, [tf.cast(x * 100.0, tf.int32),
                                                              tf.cast(y * 10.0 + 1.0, tf.int32)]), tf.float32))
            for t in ["FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
                      "LeftShift", "RightShift"]]
         + [("Invert", 1, lambda x: tf.cast(tf.bitwise.invert(tf.cast(x * 100.0, tf.int32)), tf.float32))]
         + [(t, 1, lambda x, t=t: tf.cast(ops.apply_op(t, [x]), tf.float32)) for t in ["IsFinite", "IsInf", "IsNan"]])
# tensorweave/ops/math_special_ops.py, math_misc_ops.py
CASES += ([(t, 1, _apply(t)) for t in ["Lgamma", "Digamma", "Erfinv", "Ndtri", "BesselI0e", "BesselI1e",
                                    "BesselI0", "BesselI1"]]
          + [(t, 2, _apply(t)) for t in ["Xlogy", "Xdivy", "Xlog1py"]]
          + [("Polygamma", 2, lambda x, y: ops.apply_op("Polygamma", [tf.floor(x * 3.0), y])),
             ("Zeta", 2, lambda x, y: ops.apply_op("Zeta", [x + 1.5, y])), ("NextAfter", 2, _apply("NextAfter")),
             ("MulNoNan", 2, _apply("MulNoNan"))]
          + [(t, 2, lambda x, y, t=t: ops.apply_op(t, [x + 0.5, y])) for t in ["Igamma", "Igammac", "IgammaGradA"]])
# tensorweave/ops/math_bessel_ops.py
CASES += ([(t, 1, _apply(t)) for t in ["BesselJ0", "BesselJ1", "BesselK0", "BesselK0e", "BesselK1", "BesselK1e",
                                    "BesselY0", "BesselY1", "Dawsn", "Expint", "FresnelCos", "FresnelSin", "Spence"]])


def test_every_elementwise_op_type_has_a_case():
    elementwise = {t for t in registry.list_ops() if registry.get_op_def(t).elementwise}
    assert {c[0] for c in CASES} == elementwise


@pytest.mark.parametrize("op_type, arity, build", CASES, ids=[c[0] for c in CASES])
def test_fused_op_matches_unfused_bitwise(op_type, arity, build):
    rng = np.random.RandomState(0)
    vals = [rng.uniform(0.05, 0.95, (ROWS, COLS)).astype(np.float32) for _ in range(arity)]
    xs = [tf.placeholder(tf.float32, [ROWS, COLS]) for _ in range(arity)]
    y = tf.exp(build(*[tf.sin(x) for x in xs]))
    out, ref, fused = _fused_and_plain(y, dict(zip(xs, vals)))
    assert len(fused) == 1 and op_type in {o.type for o in fused[0]}
    assert out.dtype == ref.dtype and out.shape == ref.shape
    np.testing.assert_array_equal(out, ref)


def test_chain_fuses_into_one_kernel_and_matches_numpy():
    xv = np.random.RandomState(1).uniform(-1, 1, 1 << 20).astype(np.float32)
    x = tf.placeholder(tf.float32, [1 << 20])
    y = x
    for _ in range(10):
        y = tf.exp(tf.tanh(y + 1.0) * 0.5) * 0.3
    out, ref, fused = _fused_and_plain(y, {x: xv})
    assert len(fused) == 1 and len(fused[0]) == 50
    v = xv
    for _ in range(10):
        v = np.exp(np.tanh(v + np.float32(1.0)) * np.float32(0.5)) * np.float32(0.3)
    np.testing.assert_array_equal(out, v)
    np.testing.assert_array_equal(ref, v)


def test_broadcast_inputs_and_fetched_intermediates():
    rng = np.random.RandomState(2)
    xv = rng.randn(ROWS, COLS).astype(np.float32)
    bv = rng.randn(COLS).astype(np.float32)
    sv = rng.randn(1, COLS).astype(np.float32)
    x = tf.placeholder(tf.float32, [ROWS, COLS])
    b = tf.placeholder(tf.float32, [COLS])
    s = tf.placeholder(tf.float32, [1, COLS])
    h = tf.tanh(x + b)            # fetched intermediate: an output of the fused kernel
    y = tf.exp(h * s) - 2.0
    (hv, yv), (hr, yr), fused = _fused_and_plain([h, y], {x: xv, b: bv, s: sv})
    assert len(fused) == 1 and len(fused[0]) == 5
    np.testing.assert_array_equal(hv, hr)
    np.testing.assert_array_equal(yv, yr)
    np.testing.assert_array_equal(hv, np.tanh(xv + bv))


def test_consumer_between_members_keeps_the_group_convex():
    rng = np.random.RandomState(3)
    xv = rng.randn(ROWS, COLS).astype(np.float32)
    x = tf.placeholder(tf.float32, [ROWS, COLS])
    a = tf.exp(tf.tanh(x))
    m = tf.reduce_max(a)          # a non-elementwise consumer of the group's value
    y = tf.exp(a * m)             # uses both the group's value and the reduction
    out, ref, fused = _fused_and_plain(y, {x: xv})
    np.testing.assert_array_equal(out, ref)
    for group in fused:            # no group may contain ops on both sides of the reduction
        types = [o.type for o in group]
        assert not ("Tanh" in types and "Mul" in types)


def test_small_or_cheap_or_unknown_shapes_are_not_fused():
    x = tf.placeholder(tf.float32, [8, 8])
    u = tf.placeholder(tf.float32, [None, COLS])
    mid = tf.placeholder(tf.float32, [64, COLS])  # cheap ops fuse only on values beyond the L2 cache
    small = tf.exp(tf.tanh(x))
    unknown = tf.exp(tf.tanh(u))
    cheap = mid * 2.0 + 1.0
    feed = {x: np.ones((8, 8)), u: np.ones((ROWS, COLS)), mid: np.ones((64, COLS))}
    (_, _, cv), fused = _run([small, unknown, cheap], feed, intra_op_parallelism_threads=2)
    assert fused == []
    assert cv[0, 0] == 3.0


def test_one_thread_means_no_fusion(monkeypatch):
    # (values beyond the L2 cache fuse on one thread too: test_fusion_speed_contract.py)
    monkeypatch.setattr(fusion, "cache_bytes", lambda: 1 << 40)
    x = tf.placeholder(tf.float32, [ROWS, COLS])
    y = tf.exp(tf.tanh(x))
    _, fused = _run(y, {x: np.zeros((ROWS, COLS))}, intra_op_parallelism_threads=1)
    assert fused == []


def test_gradient_graph_fuses_and_matches():
    rng = np.random.RandomState(4)
    xv = rng.randn(ROWS, COLS).astype(np.float32)
    x = tf.placeholder(tf.float32, [ROWS, COLS])
    y = tf.reduce_sum(tf.sigmoid(tf.tanh(x) * 3.0))
    g, = tf.gradients(y, x)
    out, ref, fused = _fused_and_plain(g, {x: xv})
    assert fused
    np.testing.assert_array_equal(out, ref)


def test_error_in_a_fused_kernel_names_the_op(monkeypatch):
    x = tf.placeholder(tf.float32, [ROWS, COLS])
    y = tf.exp(tf.tanh(x, name="bad_tanh"))
    d = y.op.inputs[0].op._op_def

    def failing(xp, v):
        raise ValueError("boom")

    monkeypatch.setattr(d, "kernel", failing)
    monkeypatch.setattr(d, "inline", None)  # the fused kernel would call np.tanh directly
    monkeypatch.setattr(d, "ufunc", None)
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=2)) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="(?s)boom.*bad_tanh"):
            sess.run(y, {x: np.zeros((ROWS, COLS), np.float32)})
