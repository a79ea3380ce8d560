"""Placement: devices for each op, soft placement, colocation, logging, and the copies the compiled
plan makes between the host and a (fake) accelerator."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.runtime import placement
from tests.backends.fake_device import FakeArray, FakeBackend, use_backend

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"
GPU1 = "/job:localhost/replica:0/task:0/device:GPU:1"


@pytest.fixture
def gpus():
    """Two fake GPUs, GPU:0 and GPU:1."""
    with use_backend(FakeBackend("GPU", 2)) as fake:
        yield fake


def _entry(sess):
    (entry,) = {id(e.plan): e for e in sess._cache.values()}.values()
    return entry


def _devices(sess):
    """op name -> device name, over the session's plans that placed ops off the CPU."""
    return {op.name: d.name for e in sess._cache.values() if e.placement is not None
            for op, d in e.placement.assigned.items()}


def _logged_devices(err):
    """op name -> device name, from log_device_placement's lines."""
    return {line.split(": (")[0]: line.rsplit(": ", 1)[1] for line in err.splitlines() if ": (" in line}


# ---- CPU only ------------------------------------------------------------------------------------
def test_cpu_only_plans_are_compiled_as_without_placement():
    x = tf.placeholder(tf.float32, [2])
    with tf.device("/cpu:0"):
        y = x * 2.0 + 1.0
    with tf.device("/job:localhost/replica:0/task:0/device:CPU:0"):
        z = tf.reduce_sum(y)
    with tf.Session() as sess:
        assert sess.run(z, {x: [1.0, 2.0]}) == 8.0
        entry = _entry(sess)
    assert entry.placement is None
    assert "XP0" not in entry.plan.source and "XP1" not in entry.plan.source and "_to_" not in entry.plan.source


def test_log_device_placement_prints_each_op_once_per_plan(capfd):
    a = tf.constant(1.0, name="a")
    b = tf.add(a, a, name="b")
    with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as sess:
        sess.run(b)
        sess.run(b)
    err = capfd.readouterr().err
    assert err.count("a: (Const): %s\n" % CPU0) == 1
    assert err.count("b: (Add): %s\n" % CPU0) == 1


def test_list_devices_cpu():
    with tf.Session() as sess:
        devs = sess.list_devices()
    assert [d.name for d in devs][0] == CPU0
    assert devs[0].device_type == "CPU" and devs[0].memory_limit_bytes == 268435456
    assert devs[0].incarnation > 0 and "_DeviceAttributes(%s, CPU, 268435456" % CPU0 in repr(devs[0])


def test_device_count_gives_more_cpus(capfd):
    with tf.device("/cpu:1"):
        c = tf.constant(3.0) * 2.0
    with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2}, log_device_placement=True)) as sess:
        assert sess.run(c) == 6.0
        assert [d.name for d in sess.list_devices()][:2] == [CPU0, CPU0[:-1] + "1"]
    assert _logged_devices(capfd.readouterr().err)["mul"] == CPU0[:-1] + "1"
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="assigned to /device:CPU:1 but available devices"):
            sess.run(c)


# ---- devices that do not exist ------------------------------------------------------------------
def test_missing_device_is_an_invalid_argument_error_naming_the_op(gpus):
    gpus.count = 1
    with tf.device("/gpu:1"):
        c = tf.add(tf.constant(1.0), 2.0, name="my_add")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(c)
    msg = str(info.value)
    assert msg.startswith("Cannot assign a device for operation ")
    assert ("was explicitly assigned to /device:GPU:1 but available devices are [ %s, %s ]. Make sure the device "
            "specification refers to a valid device." % (CPU0, GPU0)) in msg
    assert "test_placement.py" in msg  # where the op was defined


def test_soft_placement_falls_back_to_the_closest_device(gpus):
    gpus.count = 1
    with tf.device("/gpu:1"):
        c = tf.add(tf.constant(1.0), 2.0, name="my_add")
    with tf.device("/device:TPU:0"):
        d = tf.multiply(c, 3.0, name="on_tpu")
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        assert sess.run(d) == 9.0
        devs = _devices(sess)
    assert devs["my_add"] == GPU0 and devs["on_tpu"] == CPU0


def test_unknown_device_type_error_without_soft_placement():
    with tf.device("/device:TPU:0"):
        c = tf.constant(1.0) + 1.0
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="was explicitly assigned to /device:TPU:0 but"):
            sess.run(c)


def test_other_jobs_are_not_local_even_with_soft_placement():
    with tf.device("/job:worker/task:1"):
        c = tf.constant(1.0) + 1.0
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="was explicitly assigned to /job:worker/task:1 but"):
            sess.run(c)
    with tf.device("/job:localhost/replica:0/task:0"):
        d = tf.constant(1.0) + 2.0
    with tf.Session() as sess:
        assert sess.run(d) == 3.0


def test_gpu_without_a_backend_soft_places_on_cpu_and_matches(gpus):
    with tf.device("/gpu:0"):
        c = tf.constant([1.0, 2.0]) * 3.0
    config = tf.ConfigProto(allow_soft_placement=True, device_count={"GPU": 0})
    with tf.Session(config=config) as sess:
        assert sess.run(c).tolist() == [3.0, 6.0]
        assert _entry(sess).placement is None
        assert [d.device_type for d in sess.list_devices()] == ["CPU"]


def test_visible_device_list(gpus):
    x = tf.placeholder(tf.float32, [1])
    with tf.device("/gpu:0"):
        c = x * 3.0
    config = tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="1"))
    with tf.Session(config=config) as sess:
        assert sess.run(c, {x: [2.0]}).tolist() == [6.0]
        assert [d.name for d in sess.list_devices()] == [CPU0, GPU0]
    assert gpus.transfers[0] == ("h2d", 1)  # GPU:0 of the session is physical device 1
    bad = tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="0,5"))
    with tf.Session(config=bad) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="listed an invalid GPU id '5' but visible device "
                                                                  "count is 2"):
            sess.run(c, {x: [2.0]})


# ---- ops without a kernel for the device ----------------------------------------------------------
def test_host_only_op_on_gpu_errors_without_soft_placement(gpus):
    with tf.device("/gpu:0"):
        r = tf.py_func(lambda x: x * 2, [tf.constant(1.0)], tf.float32, name="pyf")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(r)
    msg = str(info.value)
    assert ("Could not satisfy explicit device specification '/device:GPU:0' because no supported kernel for GPU "
            "devices is available.") in msg
    assert "PyFunc: CPU" in msg


def test_host_only_ops_go_to_cpu_with_soft_placement(gpus):
    with tf.device("/gpu:0"):
        v = tf.Variable([1.0, 2.0], name="v")
        y = v * 2.0
        r = tf.py_func(lambda x: x + 1, [y], tf.float32, name="pyf")
        s = tf.add(tf.placeholder_with_default(tf.constant("a"), []), "b", name="strings")
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        sess.run(v.initializer)
        out = sess.run([r, s])
        devs = _devices(sess)
    assert out[0].tolist() == [3.0, 5.0] and out[1] == b"ab"
    assert devs["v"] == CPU0 and devs["pyf"] == CPU0 and devs["strings"] == CPU0 and devs["mul"] == GPU0
    # The variable's value is copied to the GPU for the multiply, the product back for py_func.
    assert gpus.transfers.count(("h2d", 0)) >= 1 and gpus.transfers.count(("d2h", 0)) == 1


# ---- colocation --------------------------------------------------------------------------------------
def test_colocated_ops_follow_the_group(gpus):
    with tf.device("/gpu:1"):
        a = tf.placeholder(tf.float32, [2], name="a")
        b = tf.identity(a * 2.0, name="b")
    with tf.colocate_with(b.op):
        c = tf.add(b, 1.0, name="c")
    free = tf.placeholder(tf.float32, [2], name="free")
    with tf.colocate_with(free):
        d = tf.multiply(free, 3.0, name="d")
    with tf.Session() as sess:
        assert sess.run(c, {a: [1.0, 2.0]}).tolist() == [3.0, 5.0]
        assert _devices(sess)["c"] == GPU1
        assert sess.run(d, {free: [1.0, 1.0]}).tolist() == [3.0, 3.0]
        assert "d" not in _devices(sess)  # a CPU-only plan


def test_group_member_asking_for_a_device_places_the_group(gpus):
    x = tf.placeholder(tf.float32, [2], name="x")
    root = tf.multiply(x, 2.0, name="root")
    with tf.colocate_with(root):
        with tf.device("/gpu:1"):
            member = tf.add(root, 1.0, name="member")
    with tf.Session() as sess:
        assert sess.run(member, {x: [1.0, 2.0]}).tolist() == [3.0, 5.0]
        devs = _devices(sess)
    assert devs["root"] == GPU1 and devs["member"] == GPU1


def test_colocation_with_a_host_only_op_moves_the_group_to_cpu(gpus):
    with tf.device("/gpu:0"):
        r = tf.py_func(lambda x: x, [tf.constant([1.0])], tf.float32, name="pyf")
        with tf.colocate_with(r.op):
            y = tf.multiply(r, 2.0, name="y")
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        assert sess.run(y).tolist() == [2.0]
        assert _devices(sess)["y"] == CPU0
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"no supported kernel for GPU devices(.|\n)*"
                                                                  r"  y \(Mul\) /device:GPU:0"):
            sess.run(y)


def test_incompatible_devices_in_a_group(gpus):
    x = tf.placeholder(tf.float32, [1], name="x")
    root = tf.identity(x, name="root")
    with tf.colocate_with(root):
        with tf.device("/gpu:0"):
            a = tf.add(root, 1.0, name="ga")
        with tf.device("/cpu:0"):
            b = tf.add(root, 2.0, name="cb")
        with tf.device("/gpu:1"):
            c = tf.add(root, 3.0, name="gc")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot colocate nodes ga(/y)? and cb(/y)?: Cannot "
                           "merge devices with incompatible types: '/device:GPU:0' and '/device:CPU:0'"):
            sess.run([a, b], {x: [1.0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot colocate nodes ga(/y)? and gc(/y)?: Cannot "
                           "merge devices with incompatible ids: '/device:GPU:0' and '/device:GPU:1'"):
            sess.run([a, c], {x: [1.0]})
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        assert [v.tolist() for v in sess.run([a, b], {x: [1.0]})] == [[2.0], [3.0]]
        assert set(_devices(sess).values()) == {GPU0}


# ---- copies between devices --------------------------------------------------------------------
def test_copies_are_made_exactly_on_cross_device_edges(gpus):
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    w = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4), name="w")
    with tf.device("/gpu:0"):
        h = tf.nn.relu(tf.matmul(x, w, name="mm"), name="h")
        s = tf.reduce_sum(h, 1, name="s")
    y = tf.add(h, 1.0, name="y")  # on the CPU: reads h from the GPU
    xv = np.array([[1, -2, 3], [0, 1, -1]], np.float32)
    with tf.Session() as sess:
        got = sess.run([y, s, h], {x: xv})
        source = _entry(sess).plan.source
    want_h = np.maximum(xv @ np.arange(12, dtype=np.float32).reshape(3, 4), 0)
    np.testing.assert_array_equal(got[0], want_h + 1)
    np.testing.assert_array_equal(got[1], want_h.sum(1))
    np.testing.assert_array_equal(got[2], want_h)
    assert all(type(v) is np.ndarray for v in got)  # fetched values are plain NumPy
    # In: the feed and the constant w (once, at compile time). Out: h (once, shared by y and the
    # fetch) and s.
    assert sorted(gpus.transfers) == [("d2h", 0), ("d2h", 0), ("h2d", 0), ("h2d", 0)]
    assert source.count("_to_") == 0 and source.count("K") > 0
    gpus.transfers.clear()
    with tf.Session() as sess:
        sess.run(s, {x: xv})
        sess.run(s, {x: xv})
    # The constant once when the plan compiles; the feed in and s out on each run.
    assert gpus.transfers == [("h2d", 0), ("h2d", 0), ("d2h", 0), ("h2d", 0), ("d2h", 0)]


def test_device_kernels_receive_device_arrays(gpus):
    seen = []
    x = tf.placeholder(tf.float32, [3])
    with tf.device("/gpu:0"):
        y = tf.square(x)
        z = tf.reshape(y, [3, 1])
    from tensorweave.framework import registry
    square = registry.get_op_def("Square")
    original = square.gpu

    def probe(xp, v):
        seen.append((type(v), xp))
        return xp.square(v)

    square.gpu = registry.DeviceKernel(probe)
    try:
        with tf.Session() as sess:
            out = sess.run(z, {x: [1.0, 2.0, 3.0]})
    finally:
        square.gpu = original
    assert out.tolist() == [[1.0], [4.0], [9.0]]
    assert seen == [(FakeArray, gpus.xp(0))]


def test_copies_between_two_accelerators_and_device_switches():
    with use_backend(FakeBackend("GPU", 2, activate=True)) as fake:
        x = tf.placeholder(tf.float32, [2])
        with tf.device("/gpu:0"):
            a = x * 2.0
        with tf.device("/gpu:1"):
            b = a + 1.0
        with tf.device("/gpu:0"):
            c = b * b
        with tf.Session() as sess:
            assert sess.run(c, {x: [1.0, 2.0]}).tolist() == [9.0, 25.0]
    assert [t for t in fake.transfers if t[0] != "h2d"] == [("d2d", 1), ("d2d", 0), ("d2h", 0)]
    assert fake.activations == [0, 1, 0]


def test_results_equal_the_cpu_run_for_a_training_step(gpus):
    def train(device, config):
        g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(3)
            x = tf.placeholder(tf.float32, [None, 4])
            y = tf.placeholder(tf.int32, [None])
            with tf.device(device):
                h = tf.layers.dense(x, 8, activation=tf.nn.tanh)
                logits = tf.layers.dense(h, 3)
                loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
            step = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, colocate_gradients_with_ops=True)
            rng = np.random.RandomState(0)
            xv, yv = rng.randn(16, 4).astype(np.float32), rng.randint(0, 3, 16)
            with tf.Session(graph=g, config=config) as sess:
                sess.run(tf.global_variables_initializer())
                return [sess.run([loss, step], {x: xv, y: yv})[0] for _ in range(5)]

    cpu = train("/cpu:0", tf.ConfigProto())
    gpu = train("/gpu:0", tf.ConfigProto(allow_soft_placement=True))
    assert cpu == gpu and cpu[-1] < cpu[0]
    assert ("d2h", 0) in gpus.transfers


def test_interpreter_runs_placed_plans_on_the_host(gpus, monkeypatch):
    monkeypatch.setenv("TW_DEBUG_EXECUTOR", "1")
    with tf.device("/gpu:0"):
        c = tf.constant([1.0, 2.0]) * 2.0
    with tf.Session() as sess:
        assert sess.run(c).tolist() == [2.0, 4.0]
    assert gpus.transfers == []


def test_list_devices_with_gpus(gpus):
    with tf.Session() as sess:
        devs = sess.list_devices()
    assert [(d.name, d.device_type) for d in devs] == [(CPU0, "CPU"), (GPU0, "GPU"), (GPU1, "GPU")]
    assert devs[1].memory_limit_bytes == 1 << 30 and devs[2].physical_device_desc.startswith("device: 1")
    with tf.Session(config=tf.ConfigProto(device_count={"GPU": 1})) as sess:
        assert [d.name for d in sess.list_devices()] == [CPU0, GPU0]


def test_placement_object_api(gpus):
    x = tf.placeholder(tf.float32, [2])
    with tf.device("/gpu:0"):
        y = tf.square(x)
    z = tf.shape(y)
    order = [y.op, z.op]
    p = placement.place(order, placement.DeviceSet(tf.ConfigProto()), tf.ConfigProto())
    assert p.device_of(y.op).name == GPU0 and p.device_of(z.op).name == CPU0
    assert not p.runs_on_host(y.op) and p.runs_on_host(z.op) and p.device_of(x.op) is None


# ---- the guide's make_parallel -----------------------------------------------------------------
def _make_parallel(fn, num_gpus, **kwargs):
    in_splits = {k: tf.split(v, num_gpus) for k, v in kwargs.items()}
    out_split = []
    for i in range(num_gpus):
        with tf.device(tf.DeviceSpec(device_type="GPU", device_index=i)):
            with tf.variable_scope(tf.get_variable_scope(), reuse=i > 0):
                out_split.append(fn(**{k: v[i] for k, v in in_splits.items()}))
    return tf.concat(out_split, axis=0)


def _quadratic_model(x, y):
    w = tf.get_variable("w", shape=[3, 1], initializer=tf.constant_initializer([0.5, -1.0, 2.0]))
    f = tf.stack([tf.square(x), x, tf.ones_like(x)], 1)
    yhat = tf.squeeze(tf.matmul(f, w), 1)
    return tf.square(yhat - y)


def _fit(parallel, config):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [8])
        y = tf.placeholder(tf.float32, [8])
        loss = _make_parallel(_quadratic_model, 2, x=x, y=y) if parallel else _quadratic_model(x, y)
        train = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_mean(loss), colocate_gradients_with_ops=True)
        rng = np.random.RandomState(1)
        with tf.Session(graph=g, config=config) as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(20):
                xv = rng.uniform(-10, 10, 8).astype(np.float32)
                sess.run(train, {x: xv, y: 5 * xv ** 2 + 3})
            w = sess.run(tf.trainable_variables()[0])
            devs = {op.name: d for e in sess._cache.values() if e.placement for op, d in e.placement.assigned.items()}
    return w, devs


def test_make_parallel_equals_the_unsplit_model_with_soft_placement():
    soft = tf.ConfigProto(allow_soft_placement=True)
    w_full, _ = _fit(False, soft)
    w_par, _ = _fit(True, soft)
    np.testing.assert_allclose(w_par, w_full, rtol=1e-5)


def test_make_parallel_runs_on_two_gpus(gpus):
    soft = tf.ConfigProto(allow_soft_placement=True)
    w_full, _ = _fit(False, soft)
    w_par, devs = _fit(True, soft)
    np.testing.assert_allclose(w_par, w_full, rtol=1e-5)
    assert devs["MatMul"].name == GPU0 and devs["MatMul_1"].name == GPU1
    # Each replica's gradient ops are colocated with its forward ops.
    assert devs["gradients/MatMul_grad/MatMul"].name == GPU0
    assert devs["gradients/MatMul_1_grad/MatMul"].name == GPU1
    assert devs["w"].name == CPU0  # variables live on the host
    assert {t[1] for t in gpus.transfers} == {0, 1}


def test_step_stats_name_the_copy_steps(gpus):
    x = tf.placeholder(tf.float32, [2])
    with tf.device("/gpu:0"):
        y = tf.square(x, name="sq")
    meta = tf.RunMetadata()
    with tf.Session() as sess:
        out = sess.run(y, {x: [1.0, 3.0]}, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                       run_metadata=meta)
    assert out.tolist() == [1.0, 9.0]
    names = [ns.node_name for ns in meta.step_stats.dev_stats[0].node_stats][1:]  # after _ThreadPolicy
    assert names == ["f0/_to_GPU:0", "sq", "sq:0/_to_CPU"]  # f0: the first feed


def test_a_failing_copy_is_reported_naming_the_copy():
    class _Full(FakeBackend):
        def to_device(self, value, index):
            if not isinstance(value, FakeArray) and np.ndim(value) == 1:
                raise MemoryError("out of device memory")
            return super().to_device(value, index)

    with use_backend(_Full("GPU", 1)):
        x = tf.placeholder(tf.float32, [2])
        h = tf.multiply(x, 2.0, name="h")
        with tf.device("/gpu:0"):
            y = tf.square(h, name="sq")
        with tf.Session() as sess:
            with pytest.raises(tf.errors.ResourceExhaustedError, match=r"MemoryError: out of device memory\n\t "
                               r"\[\[node 'h:0/_to_GPU:0' \(op: _Transfer, defined at .*test_placement.py"):
                sess.run(y, {x: [1.0, 2.0]})
