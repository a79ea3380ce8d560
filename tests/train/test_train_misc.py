"""tf.train.AdagradDAOptimizer, ClusterSpec, replica_device_setter, VocabInfo/warm_start against values
recorded from TensorFlow (tests/data/make_train_misc_tf.py -> tests/data/train_misc_tf.json)."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops import training_da_ops
from tests.data import train_misc_cases as cases

_DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "train_misc_tf.json")


@pytest.fixture(scope="module")
def golden():
    with open(_DATA) as f:
        return json.load(f)


# ---- AdagradDA ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("l1,l2", cases.DA_L1_L2)
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_adagrad_da_matches_tf_dense_and_sparse(golden, l1, l2, dt):
    with tf.Graph().as_default():
        gs, var, emb, opt, train = cases.adagrad_da(tf, l1, l2, dt)
        assert sorted(opt.get_slot_names()) == golden["da_slots"]
        assert [v.op.name for v in tf.global_variables()] == golden["da_slot_names"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step, expected in enumerate(golden["da_%s_%s_%s" % (l1, l2, np.dtype(dt).name)]):
                sess.run(train)
                got = sess.run([var, emb, opt.get_slot(var, "gradient_accumulator"),
                                opt.get_slot(emb, "gradient_squared_accumulator")])
                for g, e in zip(got, expected):
                    assert g.dtype == dt
                    np.testing.assert_array_equal(g, np.array(e, dt), err_msg="step %d" % step)
            assert sess.run(gs) == 3


@pytest.mark.parametrize("l1", cases.DA_VECTOR_L1)
def test_adagrad_da_vector_sparse_path_matches_tf(golden, l1):
    with tf.Graph().as_default():
        vec, train = cases.adagrad_da_vector(tf, l1)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for expected in golden["da_vector_%s" % l1]:
                sess.run(train)
                np.testing.assert_allclose(sess.run(vec), np.array(expected, np.float32), rtol=1e-6, atol=1e-7)


def test_apply_adagrad_da_raw_and_errors(golden):
    with tf.Graph().as_default():
        v = tf.Variable(np.array([1.0, -2.0, 0.5], np.float32))
        a = tf.Variable(np.array([0.1, 0.2, -0.3], np.float32))
        b = tf.Variable(np.array([0.5, 0.5, 0.5], np.float32))
        grad = np.array([0.3, -0.7, 1.1], np.float32)
        # A NumPy int32 step converts to the int64 input, as in TF.
        upd = training_da_ops.apply_adagrad_da(v, a, b, grad, 0.1, 0.05, 0.1, np.int32(4))
        assert upd.op.type == "ApplyAdagradDA" and upd.shape.as_list() == [3]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            new_var, new_a, new_b = golden["da_raw"]
            np.testing.assert_array_equal(sess.run(upd), np.array(new_var, np.float32))
            np.testing.assert_array_equal(sess.run(a), np.array(new_a, np.float32))
            np.testing.assert_array_equal(sess.run(b), np.array(new_b, np.float32))
        with pytest.raises(TypeError, match="global_step"):
            training_da_ops.apply_adagrad_da(v, a, b, grad, 0.1, 0.05, 0.1, tf.constant(4, tf.int32))
        with pytest.raises(ValueError, match="rank 0"):
            training_da_ops.apply_adagrad_da(v, a, b, grad, 0.1, 0.05, 0.1, tf.constant([4], tf.int64))
        with pytest.raises(ValueError, match="incompatible"):
            training_da_ops.apply_adagrad_da(v, a, b, grad[:2], 0.1, 0.05, 0.1, np.int64(4))
        h = [tf.Variable(np.zeros(3, np.float16)) for _ in range(3)]
        bad = training_da_ops.apply_adagrad_da(*h, np.ones(3, np.float16), 0.1, 0.0, 0.0, np.int64(1))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel was registered.*DT_HALF"):
                sess.run(bad)


def test_sparse_apply_adagrad_da_runtime_errors():
    with tf.Graph().as_default():
        v = tf.Variable(np.zeros((3, 2), np.float32))
        a = tf.Variable(np.zeros((3, 2), np.float32))
        b = tf.Variable(np.ones((3, 2), np.float32))
        idx = tf.placeholder(tf.int32, [None])
        upd = training_da_ops.sparse_apply_adagrad_da(v, a, b, np.ones((2, 2), np.float32), idx, 0.1, 0.0, 0.0,
                                                      np.int64(1))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="Index 5 at offset 1 in indices is out of range"):
                sess.run(upd, {idx: [0, 5]})
            with pytest.raises(tf.errors.InvalidArgumentError, match="grad must be the same size as indices"):
                sess.run(upd, {idx: [0]})
            # Rows not named keep their values; the named ones take the dual-averaging value.
            out = sess.run(upd, {idx: [2, 0]})
            np.testing.assert_allclose(out[1], [0.0, 0.0])
            np.testing.assert_allclose(out[0], -0.1 * 1.0 / np.sqrt(2.0), rtol=1e-6)


def test_adagrad_da_optimizer_validates_accumulator():
    gs = tf.Variable(0, dtype=tf.int64)
    with pytest.raises(ValueError, match="initial_gradient_squared_accumulator_value must be positive"):
        tf.train.AdagradDAOptimizer(0.1, gs, initial_gradient_squared_accumulator_value=0.0)


# ---- ClusterSpec / replica_device_setter -----------------------------------------------------------------------
def test_cluster_spec_matches_tf(golden):
    c = cases.cluster_spec(tf)
    jobs, n_ps, n_worker, indices, address, ps_tasks, as_dict, rep = golden["cs"]
    assert c.jobs == jobs and c.num_tasks("ps") == n_ps and c.num_tasks("worker") == n_worker
    assert c.task_indices("worker") == indices and c.task_address("worker", 3) == address
    assert c.job_tasks("ps") == ps_tasks and str(c.as_dict()) == as_dict and repr(c) == rep
    assert c.job_tasks("worker") == [None, "w1:2222", None, "w3:2222"]
    errors = golden["cs_err"]
    for call, (kind, message) in zip(cases.cluster_spec_bad_calls(tf, c), errors):
        with pytest.raises({"ValueError": ValueError, "TypeError": TypeError}[kind]) as info:
            call()
        assert str(info.value) == message
    empty, nonempty, equal, empty_job = golden["cs_bool"]
    assert bool(tf.train.ClusterSpec({})) is empty and bool(c) is nonempty
    assert (c == tf.train.ClusterSpec(c.as_dict())) is equal
    assert str(tf.train.ClusterSpec({"a": []}).as_dict()) == empty_job
    assert tf.train.ClusterSpec(c) == c and tf.train.ClusterSpec(c) != tf.train.ClusterSpec({"ps": ["x:1"]})


def test_cluster_def_round_trip():
    pytest.importorskip("tensorboard")
    c = tf.train.ClusterSpec({"worker": ["w0:1", "w1:1"], "ps": {2: "p2:1"}})
    cd = c.as_cluster_def()
    assert isinstance(cd, tf.train.ClusterDef)
    assert [j.name for j in cd.job] == ["ps", "worker"]
    assert dict(cd.job[1].tasks) == {0: "w0:1", 1: "w1:1"}
    assert tf.train.ClusterSpec(cd).as_dict() == {"ps": {2: "p2:1"}, "worker": ["w0:1", "w1:1"]}
    job = tf.train.JobDef(name="ps")
    assert job.name == "ps"


def test_replica_device_setter_matches_tf(golden):
    ref = golden["rds"]
    got = cases.replica_device_setter_devices(tf)
    # the initializer's and value's devices (ps3) and the queue's (cluster) are not compared
    assert got["ps3"][:5] == ref["ps3"][:5]
    assert got["cluster"][:6] == ref["cluster"][:6]
    for case in ("nomerge", "ps0_none", "dict", "ps_ops"):
        assert got[case] == ref[case], case
    assert tf.train.replica_device_setter(cluster={"worker": ["a:1"]}) is None


def test_replica_device_setter_strategy_and_errors():
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=4, ps_strategy=lambda op: 3)):
            a = tf.Variable(1.0, name="a")
            b = tf.Variable(1.0, name="b")
        assert a.device == b.device == "/job:ps/task:3"
    with pytest.raises(TypeError, match="ps_strategy must be callable"):
        tf.train.replica_device_setter(ps_tasks=2, ps_strategy=3)


# ---- warm_start ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def warm_dir(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("warm"))
    cases.write_warm_dir(tf, d)
    return d


@pytest.mark.parametrize("mode", cases.WARM_MODES)
def test_warm_start_matches_tf(golden, warm_dir, mode):
    expected = golden["ws"][mode]
    if isinstance(expected[0], str):
        with pytest.raises(ValueError) as info:
            cases.warm(tf, warm_dir, mode)
        assert str(info.value) == expected[1]
    else:
        assert cases.warm(tf, warm_dir, mode) == expected


def test_warm_start_errors(warm_dir):
    with pytest.raises(ValueError, match="The only supported values for the axis argument are 0 and 1"):
        tf.train.VocabInfo("a", 1, 0, "b", axis=2)
    vi = tf.train.VocabInfo("a", 1, 0, "b")
    assert vi.old_vocab_size == -1 and vi.backup_initializer is None and vi.axis == 0
    with tf.Graph().as_default():
        tf.get_variable("v", shape=[2], initializer=tf.zeros_initializer())
        with pytest.raises(ValueError, match="var_name_to_prev_var_name that were not used"):
            tf.train.warm_start(warm_dir, vars_to_warm_start="x", var_name_to_prev_var_name={"nope": "m/w"})
        with pytest.raises(ValueError, match="var_name_to_vocab_info that were not used"):
            tf.train.warm_start(warm_dir, vars_to_warm_start="x", var_name_to_vocab_info={"nope": vi})
        with pytest.raises(ValueError, match="must be a `list` or `str`"):
            tf.train.warm_start(warm_dir, vars_to_warm_start=3)


# ---- SDCA helpers ------------------------------------------------------------------------------------------
def test_sdca_fprint_matches_tf(golden):
    pytest.importorskip("farmhash")
    with tf.Graph().as_default():
        out = tf.train.sdca_fprint(tf.constant(golden["sdca_pool"]))
        assert out.dtype == tf.int64 and out.shape.as_list() == [6, 2]
        assert tf.train.sdca_fprint(tf.placeholder(tf.string, [None])).shape.as_list() == [None, 2]
        with tf.Session() as sess:
            assert sess.run(out).tolist() == golden["sdca_fprint"]
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
            tf.train.sdca_fprint(tf.constant([["a"]]))
        with pytest.raises(TypeError):
            tf.train.sdca_fprint(tf.constant([1, 2]))


@pytest.mark.parametrize("l1,l2", cases.SHRINK_L1_L2)
def test_sdca_shrink_l1_matches_tf(golden, l1, l2):
    want_w1, want_w2 = golden["sdca_shrink"]["%s_%s" % (l1, l2)]
    with tf.Graph().as_default():
        w1, w2 = cases.shrink_variables(tf)
        op = tf.train.sdca_shrink_l1([w1, w2], l1=l1, l2=l2)
        assert op.type == "SdcaShrinkL1" and op.get_attr("num_features") == 2 and not op.outputs
        with tf.Session() as sess:
            sess.run(tf.variables_initializer([w1, w2]))
            assert sess.run(op) is None
            assert [repr(float(x)) for x in sess.run(w1)] == want_w1
            np.testing.assert_array_equal(sess.run(w2), np.array(want_w2, np.float32))
        with pytest.raises(TypeError):
            tf.train.sdca_shrink_l1([tf.Variable(np.zeros(2, np.float64))], l1=1.0, l2=1.0)
