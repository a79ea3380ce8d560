"""The Session's BLAS thread policy: the decision from injected measurements, explicit ConfigProto
settings honoured, the decision in step stats, and equal results under either setting."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.platform import threads


@pytest.mark.parametrize("timings, expected", [
    ({1: 1.0e-3, 2: 0.5e-3}, 2),          # two threads really work: use them
    ({1: 1.0e-3, 2: 12.0e-3}, 1),         # the oversubscription pathology: stay on one
    ({1: 1.0e-3, 2: 0.95e-3}, 1),         # within the margin: fewer threads keep cores free
    ({1: 4.0e-3, 4: 1.2e-3, 8: 1.1e-3}, 4),  # 8 is not enough better than 4
    ({1: 4.0e-3, 4: 2.0e-3, 8: 1.0e-3}, 8),
    ({1: 2.0e-3}, 1),
    ({1: 2.0e-3, threads.SHARDED: 1.0e-3, 2: 1.05e-3}, 1),  # the pool wins: one BLAS thread per block
    ({1: 2.0e-3, threads.SHARDED: 1.5e-3, 2: 1.0e-3}, 2),
    ({1: 1.0e-3, threads.SHARDED: 0.95e-3, 2: 0.5e-3}, 2),
])
def test_choose_blas_threads_picks_the_fastest_configuration(timings, expected):
    assert threads.choose_blas_threads(timings) == expected


def test_choose_blas_threads_needs_timings():
    with pytest.raises(ValueError, match="at least one timing"):
        threads.choose_blas_threads({})


def test_candidates_cover_one_half_and_all_cpus():
    assert threads.calibration_candidates(1) == [1]
    assert threads.calibration_candidates(2) == [1, 2]
    assert threads.calibration_candidates(16) == [1, 8, 16]


def test_calibrate_decides_from_its_measurements(monkeypatch):
    pytest.importorskip("threadpoolctl")
    measured = {1: 2.0e-3, threads.SHARDED: 1.2e-3, 2: 0.8e-3, 4: 0.75e-3}
    monkeypatch.setattr(threads, "_usable_cpus", lambda: 4)
    monkeypatch.setattr(threads, "_intra_op", [None])
    monkeypatch.delenv("TW_NUM_THREADS", raising=False)
    timed = []
    monkeypatch.setattr(threads, "_time_matmul",
                        lambda ctl, config, a, out, shard, warm: timed.append(config) or measured[config])
    policy = threads.calibrate(size=8, shard=object())
    assert policy.source == "calibrated"
    assert policy.timings == measured
    assert policy.blas_threads == 2  # 4 threads are within 10% of 2
    assert timed == [1, threads.SHARDED, 2, 4] * 3  # interleaved rounds
    assert "blas_threads=2 (calibrated: 1 BLAS thread 2.000 ms, 1 thread per intra-op block 1.200 ms, " \
        "2 BLAS threads 0.800 ms, 4 BLAS threads 0.750 ms" in policy.describe()


def test_calibrate_stops_timing_a_configuration_that_lost(monkeypatch):
    pytest.importorskip("threadpoolctl")
    measured = {1: 1.0e-3, 2: 12.0e-3}
    monkeypatch.setattr(threads, "_usable_cpus", lambda: 2)
    monkeypatch.setattr(threads, "_intra_op", [1])
    timed = []
    monkeypatch.setattr(threads, "_time_matmul",
                        lambda ctl, config, a, out, shard, warm: timed.append(config) or measured[config])
    policy = threads.calibrate(size=8)
    assert policy.blas_threads == 1
    assert timed == [1, 2, 1, 1]  # the 12x slower two-thread setting is timed once


def test_calibrate_without_threadpoolctl_leaves_blas_alone(monkeypatch):
    monkeypatch.setattr(threads, "_get_controller", lambda: None)
    policy = threads.calibrate(size=8)
    assert policy.blas_threads is None and policy.source == "uncontrolled"


def test_environment_fixes_the_default_policy(monkeypatch):
    monkeypatch.setattr(threads, "_policy", [None])
    monkeypatch.setenv("TW_BLAS_THREADS", "3")
    assert threads.default_policy().blas_threads == 3
    assert threads.default_policy().source == "explicit"


def _mlp():
    rng = np.random.RandomState(0)
    x = tf.constant(rng.rand(64, 96).astype(np.float32))
    w = tf.constant(rng.rand(96, 80).astype(np.float32))
    return tf.nn.relu(tf.matmul(x, w)) * 2.0 + 1.0


def test_explicit_config_is_honoured_and_both_settings_agree(monkeypatch):
    pytest.importorskip("threadpoolctl")
    monkeypatch.setattr(threads, "_policy", [threads.ThreadPolicy(2, "calibrated", {1: 1e-3, 2: 5e-4}, 1e-3)])
    y = _mlp()
    full = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1)) as sess:
        md = tf.RunMetadata()
        one = sess.run(y, options=full, run_metadata=md)
        assert sess._thread_policy.blas_threads == 1 and sess._thread_policy.source == "explicit"
        assert threads.blas_threads() == 1
    first = md.step_stats.dev_stats[0].node_stats[0]
    assert first.node_name == "_ThreadPolicy" and first.timeline_label == "blas_threads=1 (explicit)"
    with tf.Session() as sess:
        md = tf.RunMetadata()
        two = sess.run(y, options=full, run_metadata=md)
        assert sess._thread_policy.blas_threads == 2
        assert threads.blas_threads() == 2
    label = md.step_stats.dev_stats[0].node_stats[0].timeline_label
    assert label.startswith("blas_threads=2 (calibrated: 1 BLAS thread 1.000 ms, 2 BLAS threads 0.500 ms")
    np.testing.assert_array_equal(one, two)
    threads.set_intra_op_threads(None)


def test_gemm_kernels_split_over_the_pool_only_when_blas_runs_one_thread(monkeypatch):
    pytest.importorskip("threadpoolctl")
    from tensorweave.ops import math_matmul_ops
    monkeypatch.setattr(threads, "_intra_op", [2])
    calls = []
    real = math_matmul_ops.shard

    def spy(total, cost, work, max_parallelism=None):
        calls.append(max_parallelism)
        return real(total, cost, work, max_parallelism=max_parallelism)

    monkeypatch.setattr(math_matmul_ops, "shard", spy)
    rng = np.random.RandomState(1)
    results = {}
    try:
        for n in (1, 2):
            threads.set_blas_threads(n)
            assert threads.gemm_shards() == (2 if n == 1 else 1)
            for dt in (np.float32, np.float64, np.int64):
                a = (rng.rand(256, 130) * 8).astype(dt) if n == 1 else results[dt][0]
                b = (rng.rand(130, 140) * 8).astype(dt) if n == 1 else results[dt][1]
                with tf.Graph().as_default():
                    pa, pb = tf.placeholder(a.dtype, a.shape), tf.placeholder(b.dtype, b.shape)
                    y = tf.matmul(pa, pb)
                    with tf.Session() as sess:
                        threads.set_blas_threads(n)  # after the Session applied its own policy
                        out = sess.run(y, {pa: a, pb: b})
                if n == 1:
                    results[dt] = (a, b, out)
                else:
                    np.testing.assert_array_equal(out, results[dt][2])  # both settings agree bit for bit
                np.testing.assert_array_equal(out, np.matmul(a, b))
    finally:
        threads.set_blas_threads(threads.default_policy().blas_threads or 1)
    assert calls == [2, 2, 2]  # sharded with one BLAS thread, whole with two
