"""The fused kernel's speed paths keep the plain plan's results: ufunc calls with `out=` into reused
scratch buffers, flat blocks of N-D values, blocks taken by threads as they come, and the rule that
decides which groups fuse (cheap arithmetic beyond the L2 cache, expensive work worth the threads)."""

import threading

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import ops
from tensorweave.runtime import fusion

_UNFUSED = dict(graph_options=tf.GraphOptions(optimizer_options=tf.OptimizerOptions(
    global_jit_level=tf.OptimizerOptions.OFF)))


@pytest.fixture
def fuse_everything(monkeypatch):
    """Every group of two or more ops fuses, in blocks of 4 KB: small values run many blocks, the
    last one short."""
    monkeypatch.setattr(fusion, "cache_bytes", lambda: 1)
    monkeypatch.setattr(fusion, "BLOCK_BYTES", 4096)


def _run(fetches, feed, **config):
    with tf.Session(config=tf.ConfigProto(**config)) as sess:
        out = sess.run(fetches, feed)
        plans = {id(e.plan): e.plan for e in sess._cache.values()}
        fused = [g for p in plans.values() for g in p.fused]
    return out, fused


def _check_bitwise(fetches, feed, min_fused_ops=2):
    out, fused = _run(fetches, feed, intra_op_parallelism_threads=2)
    ref, none = _run(fetches, feed, **_UNFUSED)
    assert none == []
    assert fused and max(len(g) for g in fused) >= min_fused_ops
    for o, r in zip(out if isinstance(out, list) else [out], ref if isinstance(ref, list) else [ref]):
        assert o.dtype == r.dtype and o.shape == r.shape
        np.testing.assert_array_equal(o, r)
        assert o.tobytes() == r.tobytes()  # NaN payloads and signed zeros too
    return out


def _special_values(shape, dtype, seed):
    rng = np.random.RandomState(seed)
    v = rng.uniform(-3, 3, shape).astype(dtype)
    flat = v.reshape(-1)
    flat[::7] = np.nan
    flat[1::11] = np.inf
    flat[2::13] = -np.inf
    flat[3::17] = -0.0
    return v


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
@pytest.mark.parametrize("shape", [(10007,), (37, 101), (3, 5, 7, 11)], ids=["1d", "2d", "4d"])
def test_float_chain_with_nan_and_inf_is_bitwise_equal(fuse_everything, dtype, shape):
    xv = _special_values(shape, dtype.as_numpy_dtype, 0)
    bv = np.random.RandomState(1).uniform(-1, 1, shape[-1:]).astype(dtype.as_numpy_dtype)
    x = tf.placeholder(dtype, shape)
    b = tf.placeholder(dtype, shape[-1:])  # broadcast along the last axis: row blocks, not flat ones
    y = x
    for _ in range(3):
        y = tf.exp(tf.tanh(y + 1.0) * 0.5) * 0.3 - tf.sqrt(tf.abs(y))
    z = tf.maximum(y, -x) / (tf.square(x) + 2.0) + b
    out = _check_bitwise([y, z], {x: xv, b: bv}, min_fused_ops=10)
    v = xv
    with np.errstate(all="ignore"):
        for _ in range(3):
            v = np.exp(np.tanh(v + dtype.as_numpy_dtype(1.0)) * dtype.as_numpy_dtype(0.5)) * \
                dtype.as_numpy_dtype(0.3) - np.sqrt(np.abs(v))
    np.testing.assert_array_equal(out[0], v)


@pytest.mark.parametrize("shape", [(9999,), (33, 303)], ids=["1d", "2d"])
def test_int32_chain_is_bitwise_equal(fuse_everything, shape):
    xv = np.random.RandomState(2).randint(-2 ** 31, 2 ** 31 - 1, shape).astype(np.int32)  # overflows wrap
    x = tf.placeholder(tf.int32, shape)
    y = (x + 12345) * 7 - x
    y = tf.maximum(y, x * 3)
    y = tf.floormod(y, 1000003) - tf.minimum(x, 5)  # FloorMod: a plain kernel call in the block
    out = _check_bitwise(y, {x: xv}, min_fused_ops=6)
    with np.errstate(all="ignore"):
        v = np.maximum((xv + np.int32(12345)) * np.int32(7) - xv, xv * np.int32(3))
        v = np.mod(v, np.int32(1000003)) - np.minimum(xv, np.int32(5))
    np.testing.assert_array_equal(out, v)


def test_bool_chain_is_bitwise_equal(fuse_everything):
    rng = np.random.RandomState(3)
    xv, yv = rng.rand(2, 129, 77).astype(np.float32)
    x = tf.placeholder(tf.float32, [129, 77])
    y = tf.placeholder(tf.float32, [129, 77])
    c = tf.logical_or(tf.logical_and(x > 0.3, tf.logical_not(y < 0.5)), tf.equal(x, y))
    r = tf.where_v2(c, x * 2.0, y - 1.0)
    cv, rv = _check_bitwise([c, r], {x: xv, y: yv}, min_fused_ops=6)
    expect = ((xv > 0.3) & ~(yv < 0.5)) | (xv == yv)
    np.testing.assert_array_equal(cv, expect)
    np.testing.assert_array_equal(rv, np.where(expect, xv * np.float32(2), yv - np.float32(1)))


def test_scratch_buffer_is_not_reused_while_a_view_of_it_lives(fuse_everything, monkeypatch):
    x = tf.placeholder(tf.float32, [5000])
    y = tf.tanh(x)                          # a ufunc: into a scratch buffer
    v = tf.floor(y)                         # patched below to return a view of its input
    w = tf.sin(x)                           # must not take y's buffer: v still reads it
    out = tf.exp(v + w)
    d = v.op._op_def
    monkeypatch.setattr(d, "kernel", lambda xp, a: a[...])
    monkeypatch.setattr(d, "inline", None)
    monkeypatch.setattr(d, "ufunc", None)
    xv = np.random.RandomState(4).uniform(-2, 2, 5000).astype(np.float32)
    got = _check_bitwise(out, {x: xv}, min_fused_ops=5)
    np.testing.assert_array_equal(got, np.exp(np.tanh(xv) + np.sin(xv)))


def test_fetched_intermediates_and_several_outputs(fuse_everything):
    xv = _special_values((64, 200), np.float32, 5)
    x = tf.placeholder(tf.float32, [64, 200])
    a = tf.tanh(x * 2.0)       # fetched, and used further inside the group
    b = tf.exp(a) + a
    c = tf.floor(b) * a        # Floor: a ufunc step
    hv, bv, cv = _check_bitwise([a, b, c], {x: xv}, min_fused_ops=5)
    with np.errstate(all="ignore"):
        ea = np.tanh(xv * np.float32(2))
        np.testing.assert_array_equal(hv, ea)
        np.testing.assert_array_equal(cv, np.floor(np.exp(ea) + ea) * ea)


def test_size_one_and_scalar_inputs_on_flat_blocks(fuse_everything):
    xv = np.random.RandomState(6).randn(6, 7, 300).astype(np.float64)
    x = tf.placeholder(tf.float64, [6, 7, 300])
    s = tf.placeholder(tf.float64, [1, 1, 1])
    y = tf.exp(tf.sin(x) * s) - 1.5
    out = _check_bitwise(y, {x: xv, s: np.full((1, 1, 1), 0.25)}, min_fused_ops=4)
    np.testing.assert_array_equal(out, np.exp(np.sin(xv) * 0.25) - 1.5)


def test_benchmark_chain_on_default_blocks_matches_numpy():
    n = 1000003  # not a multiple of any block size
    xv = np.random.RandomState(7).uniform(-1, 1, n).astype(np.float32)
    x = tf.placeholder(tf.float32, [n])
    y = x
    for _ in range(10):
        y = tf.exp(tf.tanh(y + 1.0) * 0.5) * 0.3
    out = _check_bitwise(y, {x: xv}, min_fused_ops=50)
    v = xv
    for _ in range(10):
        v = np.exp(np.tanh(v + np.float32(1.0)) * np.float32(0.5)) * np.float32(0.3)
    np.testing.assert_array_equal(out, v)


def test_concurrent_runs_of_one_fused_plan():
    xv = [np.random.RandomState(i).randn(1 << 19).astype(np.float32) for i in range(4)]
    x = tf.placeholder(tf.float32, [1 << 19])
    y = tf.exp(tf.tanh(x) * 0.5)
    expect = [np.exp(np.tanh(v) * np.float32(0.5)) for v in xv]
    results = [None] * 8
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=2)) as sess:
        sess.run(y, {x: xv[0]})
        assert [g for e in sess._cache.values() for g in e.plan.fused]

        def run(i):
            results[i] = sess.run(y, {x: xv[i % 4]})

        threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for i, r in enumerate(results):
        np.testing.assert_array_equal(r, expect[i % 4])


def _cheap_graph(shape):
    x = tf.placeholder(tf.float32, shape)
    y = x
    for _ in range(3):
        y = (y + 1.0) * 2.0 - 3.0
    return x, y


@pytest.mark.parametrize("l2, fuses", [(1 << 20, True), (4 << 20, False)])
def test_cheap_chain_fuses_when_its_values_exceed_the_cache(monkeypatch, l2, fuses):
    monkeypatch.setattr(fusion, "cache_bytes", lambda: l2)
    x, y = _cheap_graph([256, 1024])  # 1 MiB of float32 per value: input + output = 2 MiB
    xv = np.random.RandomState(8).randn(256, 1024).astype(np.float32)
    out, fused = _run(y, {x: xv}, intra_op_parallelism_threads=2)
    assert [len(g) for g in fused] == ([9] if fuses else [])
    v = xv
    for _ in range(3):
        v = (v + np.float32(1)) * np.float32(2) - np.float32(3)
    np.testing.assert_array_equal(out, v)


def test_expensive_work_fuses_below_the_cache_size(monkeypatch):
    monkeypatch.setattr(fusion, "cache_bytes", lambda: 1 << 40)
    x = tf.placeholder(tf.float32, [1 << 18])
    y = tf.exp(tf.tanh(x))  # 2 * 2**18 expensive evaluations: worth the threads
    z = tf.exp(x[: 1 << 10] * 2.0)
    _, fused = _run([y, z], {x: np.zeros(1 << 18, np.float32)}, intra_op_parallelism_threads=2)
    assert [[o.type for o in g] for g in fused] == [["Tanh", "Exp"]]


@pytest.mark.parametrize("l2, fuses", [(1 << 20, True), (4 << 20, False)])
def test_one_thread_fuses_only_values_beyond_the_cache(monkeypatch, l2, fuses):
    monkeypatch.setattr(fusion, "cache_bytes", lambda: l2)
    x = tf.placeholder(tf.float32, [256, 1024])  # 1 MiB per value
    y = tf.exp(tf.tanh(x) * 0.5)  # expensive, but one thread gains only from the cache
    xv = np.random.RandomState(10).randn(256, 1024).astype(np.float32)
    out, fused = _run(y, {x: xv}, intra_op_parallelism_threads=1)
    assert [len(g) for g in fused] == ([3] if fuses else [])
    np.testing.assert_array_equal(out, np.exp(np.tanh(xv) * np.float32(0.5)))


def test_cache_size_falls_back_to_one_mib(monkeypatch):
    monkeypatch.setattr(fusion, "_cache", [None])
    monkeypatch.setattr(fusion, "_os_cache_bytes", lambda: None)
    assert fusion.cache_bytes() == 1 << 20
    monkeypatch.setattr(fusion, "_cache", [None])
    monkeypatch.setattr(fusion, "_os_cache_bytes", lambda: 3 << 20)
    assert fusion.cache_bytes() == 3 << 20


def test_ufunc_path_only_where_the_loop_gives_the_ops_dtype(monkeypatch):
    g = tf.Graph()
    with g.as_default():
        f16 = tf.placeholder(tf.float16, [4])
        i32 = tf.placeholder(tf.int32, [4])
        t = tf.tanh(f16)
        div = ops.apply_op("RealDiv", [i32, i32])  # no RealDiv kernel for integers: no ufunc either
        add = i32 + i32
    assert fusion._out_ufunc(t.op) is np.tanh
    assert fusion._out_ufunc(add.op) is np.add
    assert fusion._out_ufunc(div.op) is None
    monkeypatch.setattr(t.op._op_def, "ufunc", "isnan")  # a bool loop: not the op's float16
    assert fusion._out_ufunc(t.op) is None
    monkeypatch.setattr(t.op._op_def, "ufunc", "add")  # two inputs: not this op's arity
    assert fusion._out_ufunc(t.op) is None
    monkeypatch.setattr(t.op._op_def, "ufunc", "no_such_ufunc")
    assert fusion._out_ufunc(t.op) is None


def test_error_in_a_block_names_the_op_after_ufunc_steps(fuse_everything, monkeypatch):
    x = tf.placeholder(tf.float32, [3000])
    y = tf.exp(tf.sin(tf.tanh(x) * 2.0), name="bad_exp") + 1.0
    d = y.op.inputs[0].op._op_def

    def failing(xp, v):
        raise ValueError("boom")

    monkeypatch.setattr(d, "kernel", failing)
    monkeypatch.setattr(d, "inline", None)
    monkeypatch.setattr(d, "ufunc", None)
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=2)) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="(?s)boom.*bad_exp"):
            sess.run(y, {x: np.zeros(3000, np.float32)})


def test_run_blocks_covers_every_block_once():
    seen = []
    lock = threading.Lock()

    def blk(s, e, buf):
        assert buf.shape == (7, 3) and buf.dtype == np.int64
        with lock:
            seen.append((s, e))

    fusion._run_blocks(blk, 100, 7, 2, (((7, 3), np.dtype(np.int64)),))
    assert sorted(seen) == [(s, min(s + 7, 100)) for s in range(0, 100, 7)]


def test_input_of_partly_unknown_shape_broadcast_into_a_group(fuse_everything):
    x = tf.placeholder(tf.float32, [None, 64])
    y = tf.placeholder(tf.float32, [96, 64])
    z = tf.exp(tf.tanh(x + y)) * x  # z's shape is known, x's is not: x is not sliced by rows
    xv, yv = np.random.RandomState(9).randn(2, 96, 64).astype(np.float32)
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=2)) as sess:
        out = sess.run(z, {x: xv, y: yv})
    np.testing.assert_array_equal(out, np.exp(np.tanh(xv + yv)) * xv)


def test_every_ufunc_trait_names_a_ufunc_of_the_ops_arity():
    from tensorweave.framework import registry
    named = {t: registry.get_op_def(t).ufunc for t in registry.list_ops()}
    named = {t: u for t, u in named.items() if isinstance(u, str)}
    assert {"Add", "Mul", "Exp", "Tanh", "Less", "LogicalNot"} <= set(named)
    for t, u in named.items():
        assert isinstance(getattr(np, u, None), np.ufunc), (t, u)
        assert registry.get_op_def(t).elementwise, t


def test_benchmark_chain_runs_every_step_in_place_in_one_scratch_buffer():
    x = tf.placeholder(tf.float32, [1 << 20])
    y = x
    for _ in range(10):
        y = tf.exp(tf.tanh(y + 1.0) * 0.5) * 0.3
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=2)) as sess:
        sess.run(y, {x: np.zeros(1 << 20, np.float32)})
        groups = [g for e in sess._cache.values() for g in e.plan.fused]
        kernels = {id(k): k for e in sess._cache.values() for k in e.plan.env.values()
                   if getattr(k, "__name__", "") == "_fused"}
    assert len(groups[0]) == 50 and len(kernels) == 1
    env = next(iter(kernels.values())).__globals__
    assert sum(1 for k in env if k.startswith("UF")) == 50
    assert env["SCRATCH"] == (((fusion.BLOCK_BYTES // 4,), np.dtype(np.float32)),)
