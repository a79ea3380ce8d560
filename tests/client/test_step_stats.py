"""Traced runs: RunOptions(trace_level=FULL_TRACE) fills RunMetadata.step_stats; the timeline."""

import json

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.client import timeline

FULL = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)


def _graph():
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    w = tf.Variable(np.ones((3, 2), np.float32), name="w")
    y = tf.nn.relu(tf.matmul(x, w, name="mm"), name="act")
    return x, w, y


@pytest.mark.parametrize("executor_type", ["", "INTERPRETER"])
def test_full_trace_records_each_executed_op(executor_type):
    x, w, y = _graph()
    config = tf.ConfigProto(experimental=tf.ConfigProto.Experimental(executor_type=executor_type))
    with tf.Session(config=config) as sess:
        sess.run(w.initializer)
        md = tf.RunMetadata()
        out = sess.run(y, {x: np.ones((4, 3))}, options=FULL, run_metadata=md)
        plain = sess.run(y, {x: np.ones((4, 3))})
    np.testing.assert_array_equal(out, plain)
    assert out.tolist() == [[3.0, 3.0]] * 4
    (dev,) = md.step_stats.dev_stats
    assert dev.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    names = [ns.node_name for ns in dev.node_stats]
    assert names.index("mm") < names.index("act")
    mm = dev.node_stats[names.index("mm")]
    assert mm.timeline_label.startswith("mm = MatMul(x:0, ")
    assert mm.op_end_rel_micros >= 0 and mm.all_end_rel_micros == mm.op_end_rel_micros
    assert mm.all_start_micros > 1e15  # microseconds since the epoch


def test_untraced_runs_leave_run_metadata_alone_and_traces_replace():
    x, w, y = _graph()
    with tf.Session() as sess:
        sess.run(w.initializer)
        md = tf.RunMetadata()
        sess.run(y, {x: np.ones((4, 3))}, run_metadata=md)
        assert md.step_stats.dev_stats == []
        sess.run(y, {x: np.ones((4, 3))}, options=FULL, run_metadata=md)
        sess.run(y, {x: np.ones((4, 3))}, options=FULL, run_metadata=md)
        assert len(md.step_stats.dev_stats) == 1
        assert sess.cache_misses == 2  # initializer and y: the traced plan is not another signature


def test_fused_kernel_is_one_traced_step():
    x = tf.placeholder(tf.float32, [1024, 512])
    y = tf.exp(tf.tanh(x, name="t"), name="e")
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=2)) as sess:
        md = tf.RunMetadata()
        sess.run(y, {x: np.zeros((1024, 512))}, options=FULL, run_metadata=md)
    policy, ns = md.step_stats.dev_stats[0].node_stats
    assert policy.node_name == "_ThreadPolicy" and policy.timeline_label == "blas_threads=2 (explicit)"
    assert ns.node_name == "fusion/e"
    assert ns.timeline_label == "fusion/e = Fused(t, e)"


def test_error_in_a_traced_run_names_the_op():
    x = tf.placeholder(tf.float32, [None])
    y = tf.reshape(x, [2, 2], name="bad_reshape")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="bad_reshape"):
            sess.run(y, {x: [1.0, 2.0, 3.0]}, options=FULL, run_metadata=tf.RunMetadata())


def test_timeline_chrome_trace():
    x, w, y = _graph()
    with tf.Session() as sess:
        sess.run(w.initializer)
        md = tf.RunMetadata()
        sess.run(y, {x: np.ones((4, 3))}, options=FULL, run_metadata=md)
    trace = json.loads(timeline.Timeline(md.step_stats).generate_chrome_trace_format())
    events = trace["traceEvents"]
    assert events[0] == {"name": "process_name", "ph": "M", "pid": 0,
                         "args": {"name": "/job:localhost/replica:0/task:0/device:CPU:0"}}
    ops = {e["args"]["name"]: e for e in events[1:]}
    assert ops["mm"]["name"] == "MatMul" and ops["mm"]["ph"] == "X" and ops["act"]["name"] == "Relu"
    assert ops["mm"]["ts"] <= ops["act"]["ts"]


def test_interpreter_executor_type_runs_the_reference_interpreter():
    x = tf.placeholder(tf.float32, [3])
    y = tf.exp(x) * 1.0
    config = tf.ConfigProto(experimental=tf.ConfigProto.Experimental(executor_type="INTERPRETER"))
    with tf.Session(config=config) as sess:
        out = sess.run(y, {x: [0.0, 1.0, 2.0]})
        plan = next(iter(sess._cache.values())).plan
    assert plan.filename == "<tensorweave-interpreter>"
    np.testing.assert_allclose(out, np.exp([0.0, 1.0, 2.0]), rtol=1e-6)
