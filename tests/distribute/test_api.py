"""tensorweave.distribute in one process: the API's checks and errors, IndexedSlices, compression,
the optimizer wrapper, the gradients (against a fake two-rank backend), the plan check, and the
launcher's pieces. Values across real ranks: test_multiprocess.py."""

import io
import sys

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.distribute as hvd
from tensorweave.distribute import _worker, engine, run
from tensorweave.ops import collective_ops

pytest.importorskip("mpi4py")


class TwoRanks(engine.Backend):
    """This process is rank 1 of 2; rank 0 holds the same all-reduce input, 2 rows of ones for
    all-gathers, and 7s for broadcasts. `hashes` overrides rank 0's plan hash."""

    rank, size = 1, 2
    local_rank, local_size = 1, 2

    def __init__(self, other_hash=None):
        self.other_hash = other_hash

    def allreduce(self, array, op="sum", deterministic=False):
        return {"sum": array + array, "min": array, "max": array, "prod": array * array}[op]

    def broadcast(self, array, root):
        return np.full_like(array, 7) if root != self.rank else array.copy()

    def allgather(self, array):
        if array.dtype == np.int64 and array.shape == (1,):  # the row counts the all-gather gradient gathers
            return np.concatenate([[2], array])
        return np.concatenate([np.ones((2,) + array.shape[1:], array.dtype), array])

    def alltoall(self, array, splits):
        # Rank 0 sends this rank as many rows of 5s as it receives from it; this rank keeps the rest.
        k = int(splits[0])
        received = np.concatenate([np.full((k,) + array.shape[1:], 5, array.dtype), array[k:]])
        return received, np.array([k, len(array) - k])

    def allgather_ints(self, values):
        other = values if self.other_hash is None else [self.other_hash]
        return np.stack([np.asarray(other, np.int64), np.asarray(values, np.int64)])


@pytest.fixture
def backend():
    """Restores the real (size-1) engine after a test swaps it."""
    hvd.init()
    yield
    hvd.init()


def test_sizes_and_ranks(backend):
    assert hvd.is_initialized()
    assert (hvd.rank(), hvd.size(), hvd.local_rank(), hvd.local_size(), hvd.cross_rank(), hvd.cross_size()) == \
        (0, 1, 0, 1, 0, 1)
    assert hvd.is_homogeneous() and hvd.mpi_enabled() and not hvd.gloo_enabled()
    hvd.barrier()


def test_not_initialized(backend):
    hvd.shutdown()
    assert not hvd.is_initialized()
    with pytest.raises(ValueError, match="Horovod has not been initialized; use hvd.init()"):
        hvd.rank()
    with tf.Graph().as_default():
        y = collective_ops.allreduce(tf.constant([1.0]))
        with tf.Session() as s, pytest.raises(tf.errors.FailedPreconditionError,
                                              match="Horovod has not been initialized"):
            s.run(y)


def test_missing_mpi4py_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    with pytest.raises(ImportError, match=r"\[distributed\] extra"):
        engine.import_mpi()


def test_argument_errors(backend):
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        with pytest.raises(ValueError, match="supersedes average"):
            hvd.allreduce(x, average=True, op=hvd.Sum)
        with pytest.raises(NotImplementedError, match="Adasum"):
            hvd.allreduce(x, op=hvd.Adasum)
        with pytest.raises(ValueError, match="op must be one of"):
            hvd.allreduce(x, op="mean")
        with pytest.raises(ValueError, match=r"root_rank 1 is not in \[0, 1\)"):
            hvd.broadcast(x, 1)
        with pytest.raises(ValueError, match="rank >= 1"):
            hvd.allgather(tf.constant(1.0))
        with pytest.raises(ValueError, match="rank >= 1"):
            hvd.alltoall(tf.constant(1.0), [1])
        with pytest.raises(tf.errors.InvalidArgumentError, match="must be non-negative and sum to the first"):
            with tf.Session() as s:
                s.run(hvd.alltoall(tf.constant([1.0, 2.0]), [3]))
        with pytest.raises(TypeError, match="HorovodAllreduce"):
            hvd.allreduce(tf.constant(["a"]))
        with pytest.raises(ValueError, match="backward_passes_per_step must be > 0"):
            hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.1), backward_passes_per_step=0)
        with pytest.raises(tf.errors.InvalidArgumentError, match="rank >= 1"):
            p = tf.placeholder(tf.float32)
            with tf.Session() as s:
                s.run(hvd.allgather(p), {p: 3.0})


def test_average_and_sum_of_ints(backend):
    with tf.Graph().as_default(), tf.Session() as s:
        x = tf.constant([3, -3], tf.int32)
        assert s.run(hvd.allreduce(x)).tolist() == [3, -3]
        assert s.run(hvd.allreduce(x, average=False)).dtype == np.int32


def test_fp16_compression(backend):
    with tf.Graph().as_default(), tf.Session() as s:
        x = tf.constant([1.0, 1.0 + 2.0 ** -12], tf.float32)
        y = hvd.allreduce(x, compression=hvd.Compression.fp16)
        assert y.dtype == tf.float32
        types = [op.type for op in tf.get_default_graph().get_operations()]
        assert "HorovodAllreduce" in types and "Cast" in types
        np.testing.assert_array_equal(s.run(y), [1.0, 1.0])  # went through float16


def test_indexed_slices_are_allgathered(backend):
    with tf.Graph().as_default(), tf.Session() as s:
        emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
        loss = tf.reduce_sum(tf.gather(emb, [1, 3, 1]))
        opt = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.5))
        (g, _), = opt.compute_gradients(loss)
        assert isinstance(g, tf.IndexedSlices)
        assert g.values.op.inputs[0].op.type == "HorovodAllgather"
        (gd, _), = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.5),
                                            sparse_as_dense=True).compute_gradients(loss)
        assert not isinstance(gd, tf.IndexedSlices) and gd.op.type == "HorovodAllreduce"
        train = opt.minimize(loss)
        s.run(tf.global_variables_initializer())
        s.run(train)
        want = np.arange(12, dtype=np.float32).reshape(4, 3)
        want[1] -= 1.0
        want[3] -= 0.5
        np.testing.assert_array_equal(s.run(emb), want)


def test_gradients_as_horovod_defines_them(backend):
    hvd.init(TwoRanks())
    with tf.Graph().as_default(), tf.Session() as s:
        x = tf.constant(np.arange(6, dtype=np.float64).reshape(3, 2))
        w = np.random.RandomState(0).rand(5, 2)
        gathered = hvd.allgather(x)
        (gx,) = tf.gradients(tf.reduce_sum(gathered * w), x)
        np.testing.assert_allclose(s.run(gx), 2 * w[2:])  # this rank's rows of the summed gradient
        (gb,) = tf.gradients(tf.reduce_sum(hvd.broadcast(x, 0) * 3.0), x)
        np.testing.assert_array_equal(s.run(gb), np.zeros((3, 2)))  # not the root: zeros
        (gr,) = tf.gradients(tf.reduce_sum(hvd.broadcast(x, 1) * 3.0), x)
        np.testing.assert_array_equal(s.run(gr), np.full((3, 2), 6.0))  # the root: the summed gradient
        (ga,) = tf.gradients(tf.reduce_sum(hvd.allreduce(x) * 3.0), x)
        np.testing.assert_array_equal(s.run(ga), np.full((3, 2), 3.0))  # average of the gradient
        (gs,) = tf.gradients(tf.reduce_sum(hvd.allreduce(x, op=hvd.Sum) * 3.0), x)
        np.testing.assert_array_equal(s.run(gs), np.full((3, 2), 6.0))
        assert s.run(hvd.broadcast(x, 0)).tolist() == [[7, 7]] * 3
        received, counts = hvd.alltoall(x, splits=[1, 2])
        assert received.shape.as_list() == [None, 2] and counts.shape.as_list() == [2]
        got, got_counts = s.run([received, counts])
        np.testing.assert_array_equal(got, [[5, 5], [2, 3], [4, 5]])
        assert got_counts.tolist() == [1, 2]
        (gt,) = tf.gradients(tf.reduce_sum(received * w[:3]), x)  # the gradient goes back the same way
        np.testing.assert_allclose(s.run(gt), np.concatenate([np.full((1, 2), 5.0), w[1:3]]))


def test_plan_hash_mismatch_is_an_error(backend):
    hvd.init(TwoRanks(other_hash=12345))
    with tf.Graph().as_default(), tf.Session() as s:
        y = hvd.allreduce(tf.constant([1.0]))
        with pytest.raises(tf.errors.FailedPreconditionError, match=r"built different graphs.*rank\(s\) 1"):
            s.run(y)
    hvd.init(TwoRanks())
    with tf.Graph().as_default(), tf.Session() as s:
        np.testing.assert_array_equal(s.run(hvd.allreduce(tf.constant([1.0]))), [1.0])
        g = tf.get_default_graph()
        h = collective_ops.plan_hash(g)
        hvd.allreduce(tf.constant([2.0]))
        assert collective_ops.plan_hash(g) != h


def test_eager_tape_and_broadcast_variables(backend):
    from tensorweave.eager import context
    with context.eager_mode():
        w = tf.Variable([1.0, 2.0])
        hvd.broadcast_variables([w], 0)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        tape = hvd.DistributedGradientTape(tape)
        g = tape.gradient(loss, w)
        np.testing.assert_array_equal(g.numpy(), [2.0, 4.0])
        with pytest.raises(RuntimeError, match="eager"):
            hvd.broadcast_global_variables(0)


def test_broadcast_hook_and_monitored_session(backend, tmp_path):
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        v = tf.Variable(3.0)
        opt = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.25 * hvd.size()))
        train = opt.minimize(tf.square(v), global_step=step)
        hooks = [hvd.BroadcastGlobalVariablesHook(0), tf.train.StopAtStepHook(last_step=2)]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), hooks=hooks) as sess:
            while not sess.should_stop():
                sess.run(train)
        assert tf.train.latest_checkpoint(str(tmp_path)).endswith("-2")
        assert tf.train.load_variable(str(tmp_path), v.op.name) == pytest.approx(0.75)


def test_launcher_command_and_prefix(tmp_path):
    options = run._parser().parse_args(["-np", "3", "-H", "a:2,b:1", "--threads", "2", "train.py", "--lr", "1"])
    cmd, env = run.build_command(options, str(tmp_path))
    assert cmd[1:5] == ["-n", "3", "-hosts", "a:2,b:1"]
    assert cmd[-4:] == ["tensorweave.distribute._worker", "train.py", "--lr", "1"]
    assert env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == env["TW_NUM_THREADS"] == "2"
    assert env["TW_DIST_RUNDIR"] == str(tmp_path) and env["TW_DIST_PREFIX"] == "1"
    out = io.StringIO()
    w = _worker._Prefixed(out, "[3] ")
    w.write("a\nb")
    w.write("c\n\nd\n")
    assert out.getvalue() == "[3] a\n[3] bc\n[3] \n[3] d\n"
    assert run.main(["-np", "0", "x.py"]) == 2


def test_overlap_buckets_interleave_with_the_backward_pass(backend):
    from tensorweave.runtime import plan
    with tf.Graph().as_default():
        h = tf.constant(np.random.RandomState(0).rand(4, 5).astype(np.float32))
        for k in range(3):
            h = tf.layers.dense(h, 8, activation=tf.nn.relu, name="l%d" % k)
        loss = tf.reduce_mean(h)
        # 100-byte buckets, in reverse variable order: every bias (32 B) and kernel (160 or 256 B) alone.
        opt = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.1), overlap=True,
                                       bucket_cap_mb=100 / 2 ** 20)
        train = opt.minimize(loss)
        order = [(op.type, op.name) for op in plan.prune_and_order([], [train], [])]
        starts = [i for i, (t, _) in enumerate(order) if t == "HorovodBucketStart"]
        waits = [i for i, (t, _) in enumerate(order) if t == "HorovodBucketWait"]
        backward = [i for i, (t, n) in enumerate(order) if n.startswith("gradients/") and t == "MatMul"]
        updates = [i for i, (t, _) in enumerate(order) if t == "ApplyGradientDescent"]
        assert len(starts) == 6
        assert starts[0] < backward[-1]  # the first bucket starts while the backward pass still runs
        assert max(starts) < min(waits) and max(waits) < max(updates) and min(waits) < min(updates)
        plain = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.1)).compute_gradients(loss)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            want = s.run([g for g, _ in plain])
            got = s.run([g for g, _ in opt.compute_gradients(loss)])
            for a, b in zip(got, want):
                np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="bucket_bytes"):
        collective_ops.bucketed_allreduce([tf.constant(1.0)], bucket_bytes=0)


def test_a_collective_that_never_completes_times_out(backend):
    class Never:
        def Test(self):  # noqa: N802 (mpi4py's name)
            return False

    b = collective_ops.get_backend()
    b.timeout = 0.05
    try:
        with pytest.raises(engine.CollectiveError, match=r"rank 0: allreduce of x did not complete within 0.05 s"):
            b._wait(Never(), "allreduce of x")
    finally:
        b.timeout = None


@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_backward_passes_per_step_sums_passes_and_applies_once(backend, momentum):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2])
        w = tf.Variable([1.0, -2.0])
        step = tf.train.get_or_create_global_step()
        inner = tf.train.MomentumOptimizer(0.1, momentum) if momentum else tf.train.GradientDescentOptimizer(0.1)
        train = hvd.DistributedOptimizer(inner, backward_passes_per_step=2).minimize(tf.reduce_sum(w * w * x),
                                                                                     global_step=step)
        seen = []
        with tf.train.MonitoredTrainingSession() as s:
            for i in range(4):
                s.run(train, {x: [1.0 + i, 0.5]})
                seen.append(s.run(w).copy())
            assert s.run(step) == 4
    # By hand: the gradient 2*w*x of passes 1+2 at w0 is applied after pass 2, of passes 3+4 after pass 4.
    w0 = np.array([1.0, -2.0])
    g1 = 2 * w0 * np.array([1.0, 0.5]) + 2 * w0 * np.array([2.0, 0.5])
    w1 = w0 - 0.1 * g1
    g2 = 2 * w1 * np.array([3.0, 0.5]) + 2 * w1 * np.array([4.0, 0.5])
    w2 = w1 - 0.1 * (momentum * g1 + g2)
    np.testing.assert_allclose(seen, [w0, w1, w1, w2], rtol=1e-6)


def test_backward_passes_per_step_needs_dense_gradients(backend):
    with tf.Graph().as_default():
        emb = tf.Variable(np.ones((4, 3), np.float32))
        opt = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.1), backward_passes_per_step=2)
        with pytest.raises(ValueError, match="sparse_as_dense"):
            opt.compute_gradients(tf.reduce_sum(tf.gather(emb, [1])))
