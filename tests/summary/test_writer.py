"""FileWriter event files, read back by the real TensorBoard loaders: file name and file_version event,
scalars, images, histograms, text, the graph and meta graph, timed and explicit flushes, close/reopen,
the exit hook, and FileWriterCache."""

import io
import os
import re
import socket
import subprocess
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

import tensorweave as tf

pytest.importorskip("tensorboard.compat.proto.event_pb2")
PIL_Image = pytest.importorskip("PIL.Image")
event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
event_file_loader = pytest.importorskip("tensorboard.backend.event_processing.event_file_loader")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _event_files(logdir):
    return sorted(os.path.join(logdir, f) for f in os.listdir(logdir) if "tfevents" in f)


def _events(path):
    return list(event_file_loader.LegacyEventFileLoader(path).Load())


def _accumulator(logdir):
    acc = event_accumulator.EventAccumulator(logdir, size_guidance={"images": 0, "tensors": 0, "histograms": 0})
    acc.Reload()
    return acc


def _model():
    x = tf.placeholder(tf.float32, [None, 4, 4, 1], name="x")
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3) / 10, name="w")
    loss = tf.reduce_mean(tf.square(x), name="loss_value")
    tf.summary.scalar("loss", loss)
    tf.summary.image("input", x, max_outputs=2)
    tf.summary.histogram("weights", w)
    tf.summary.text("note", tf.constant("step note"))
    return x, tf.summary.merge_all()


def test_event_file_read_by_tensorboard(tmp_path):
    logdir = str(tmp_path / "run")
    x, merged = _model()
    rng = np.random.RandomState(0)
    feeds = [rng.uniform(size=[3, 4, 4, 1]).astype(np.float32) for _ in range(3)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        writer = tf.summary.FileWriter(logdir, sess.graph)
        for step, feed in enumerate(feeds):
            writer.add_summary(sess.run(merged, {x: feed}), global_step=step * 10)
        writer.close()

    files = _event_files(logdir)
    assert len(files) == 1
    assert re.fullmatch(r"events\.out\.tfevents\.\d{10}\.%s" % re.escape(socket.gethostname()),
                        os.path.basename(files[0]))
    events = _events(files[0])
    assert events[0].file_version == "brain.Event:2" and events[0].wall_time == int(events[0].wall_time)
    assert events[1].HasField("graph_def") and events[2].HasField("meta_graph_def")

    acc = _accumulator(logdir)
    tags = acc.Tags()
    assert tags["scalars"] == ["loss"] and tags["histograms"] == ["weights"] and tags["tensors"] == ["note"]
    assert sorted(tags["images"]) == ["input/image/0", "input/image/1"]
    assert tags["graph"] and tags["meta_graph"]

    scalars = acc.Scalars("loss")
    assert [e.step for e in scalars] == [0, 10, 20]
    np.testing.assert_allclose([e.value for e in scalars], [np.mean(f ** 2) for f in feeds], rtol=1e-6)

    images = acc.Images("input/image/1")
    assert [(e.step, e.width, e.height) for e in images] == [(0, 4, 4), (10, 4, 4), (20, 4, 4)]
    img = PIL_Image.open(io.BytesIO(images[0].encoded_image_string))
    assert img.mode == "L" and img.size == (4, 4)
    expected = (feeds[0][1, :, :, 0] * np.float32(255.0 / feeds[0][1].max())).astype(np.uint8)
    np.testing.assert_array_equal(np.asarray(img), expected)

    histo = acc.Histograms("weights")[0].histogram_value
    assert (histo.min, histo.max, histo.num) == (0.0, np.float32(0.5), 6.0)
    assert sum(histo.bucket) == 6.0

    note = acc.Tensors("note")[0].tensor_proto
    assert list(note.string_val) == [b"step note"]
    assert acc.SummaryMetadata("note").plugin_data.plugin_name == "text"

    graph = acc.Graph()
    nodes = {n.name: n for n in graph.node}
    assert nodes["x"].op == "Placeholder"
    assert [d.size for d in nodes["x"].attr["shape"].shape.dim] == [-1, 4, 4, 1]
    assert nodes["x"].attr["dtype"].type == tf.float32.as_datatype_enum
    assert nodes["loss_value"].input[0] == "Square"
    assert nodes["loss"].op == "ScalarSummary" and list(nodes["loss"].input) == ["loss/tags", "loss_value"]
    assert [d.size for d in nodes["loss_value"].attr["_output_shapes"].list.shape[0].dim] == []
    assert acc.MetaGraph().graph_def == graph


def test_graph_def_inputs_control_inputs_devices_and_attrs():
    from tensorweave.summary.graph_def import MAX_CONST_ELEMENTS, graph_to_graph_def
    with tf.device("/cpu:0"):
        a = tf.constant([[1, 2], [3, 4]], name="a")
    parts = tf.split(tf.constant([1.0, 2.0, 3.0, 4.0]), 2, name="parts")
    tf.constant(np.zeros(MAX_CONST_ELEMENTS + 1, np.float32), name="big")
    with tf.control_dependencies([a]):
        s = tf.identity(parts[1], name="s")
    tf.placeholder(tf.int32, None, name="u")
    gd = graph_to_graph_def(tf.get_default_graph())
    nodes = {n.name: n for n in gd.node}
    assert [n.name for n in gd.node] == [op.name for op in tf.get_default_graph().get_operations()]
    assert list(nodes["s"].input) == ["parts:1", "^a"]
    assert nodes["a"].device == "/device:CPU:0" or nodes["a"].device == "/cpu:0"
    value = nodes["a"].attr["value"].tensor
    assert value.dtype == tf.int32.as_datatype_enum and [d.size for d in value.tensor_shape.dim] == [2, 2]
    np.testing.assert_array_equal(np.frombuffer(value.tensor_content, "<i4"), [1, 2, 3, 4])
    assert "value" not in nodes["big"].attr and nodes["big"].attr["dtype"].type == tf.float32.as_datatype_enum
    assert nodes["u"].attr["shape"].shape.unknown_rank
    assert "_output_shapes" not in nodes["s"].attr
    shapes = graph_to_graph_def(tf.get_default_graph(), add_shapes=True).node
    split = [n for n in shapes if n.name == "parts"][0]
    assert [[d.size for d in sh.dim] for sh in split.attr["_output_shapes"].list.shape] == [[2], [2]]
    assert s.op.type == "Identity"


def test_graph_def_is_accepted_by_tensorboard_graph_plugin():
    from tensorboard.backend import process_graph
    from tensorboard.plugins.graph import graph_util

    from tensorweave.summary.graph_def import graph_to_graph_def
    x = tf.placeholder(tf.float32, [2], name="x")
    tf.identity(x * 2.0, name="y")
    gd = graph_to_graph_def(tf.get_default_graph(), add_shapes=True)
    merged = graph_util.merge_graph_defs([gd, gd])
    assert [n.name for n in merged.node][:4] == ["graph_1/x", "graph_1/mul/y", "graph_1/mul", "graph_1/y"]
    assert list(merged.node[2].input) == ["graph_1/x", "graph_1/mul/y"]
    process_graph.prepare_graph_for_ui(gd, limit_attr_size=1024, large_attrs_key="_too_large_attrs")
    assert [n.op for n in gd.node] == ["Placeholder", "Const", "Mul", "Identity"]


def test_filename_suffix_creates_the_file_at_once(tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path), filename_suffix=".v1")
    files = _event_files(str(tmp_path))
    assert len(files) == 1 and files[0].endswith(socket.gethostname() + ".v1")
    assert [e.file_version for e in _events(files[0])] == ["brain.Event:2"]
    writer.close()


def test_no_file_until_the_first_event(tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path / "d"))
    assert writer.get_logdir() == str(tmp_path / "d") and os.path.isdir(writer.get_logdir())
    writer.flush()
    assert _event_files(writer.get_logdir()) == []
    writer.close()


def _summary(tag, value):
    return tf.Summary(value=[tf.Summary.Value(tag=tag, simple_value=value)])


def test_flush_and_timed_flush(tmp_path):
    logdir = str(tmp_path)
    writer = tf.summary.FileWriter(logdir, flush_secs=0.2)
    writer.add_summary(_summary("a", 1.0), 1)
    deadline = time.time() + 5
    while True:
        files = _event_files(logdir)
        if files and len(_events(files[0])) == 2:
            break
        assert time.time() < deadline, "the timer never flushed the event file"
        time.sleep(0.05)
    writer.add_summary(_summary("a", 2.0).SerializeToString(), 2)
    writer.flush()
    assert [(e.step, e.summary.value[0].simple_value) for e in _events(files[0])[1:]] == [(1, 1.0), (2, 2.0)]
    writer.close()


def test_close_reopen_and_closed_warning(tmp_path):
    logdir = str(tmp_path)
    writer = tf.summary.FileWriter(logdir, flush_secs=1000)
    writer.add_summary(_summary("a", 1.0), 1)
    writer.close()
    writer.close()
    with pytest.warns(UserWarning, match="Attempting to use a closed FileWriter"):
        writer.add_summary(_summary("a", 2.0), 2)
    writer.reopen()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        writer.add_summary(_summary("a", 3.0), 3)
    writer.close()
    files = _event_files(logdir)
    assert len(files) == 2
    steps = [[e.step for e in _events(f) if e.HasField("summary")] for f in files]
    assert steps == [[1], [3]]
    assert [e.value for e in _accumulator(logdir).Scalars("a")] == [1.0, 3.0]


def test_context_manager_session_log_event_and_metadata_stripping(tmp_path):
    with tf.summary.FileWriter(str(tmp_path)) as writer:
        text = tf.summary.text("t", tf.constant("hi"))
        with tf.Session() as sess:
            serialized = sess.run(text)
        writer.add_summary(serialized, 1)
        writer.add_summary(serialized, 2)
        writer.add_session_log(tf.SessionLog(status=tf.SessionLog.STOP), 3)
        writer.add_event(tf.Event(wall_time=12.0, step=4, file_version="custom"))
    events = _events(_event_files(str(tmp_path))[0])[1:]
    assert [e.summary.value[0].HasField("metadata") for e in events[:2]] == [True, False]
    assert events[2].session_log.status == tf.SessionLog.STOP and events[2].step == 3
    assert (events[3].wall_time, events[3].step, events[3].file_version) == (12.0, 4, "custom")


def test_run_metadata_and_graph_argument_errors(tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path))
    writer.add_run_metadata(tf.RunMetadata(), "step1", global_step=1)
    with pytest.raises(ValueError, match="The provided tag was already used for this event type"):
        writer.add_run_metadata(tf.RunMetadata(), "step1")
    with pytest.raises(TypeError, match="must be an instance of `Graph` or the deprecated `GraphDef`"):
        writer.add_graph("not a graph")
    with pytest.raises(ValueError, match="Please pass only graph, or graph_def"):
        writer.add_graph(tf.get_default_graph(), graph_def=tf.get_default_graph())
    with pytest.raises(TypeError, match="summary must be a Summary protocol buffer"):
        writer.add_summary(1.0)
    with pytest.raises(TypeError, match="meta_graph_def must be type MetaGraphDef"):
        writer.add_meta_graph(object())
    writer.add_graph(tf.get_default_graph(), global_step=5)
    writer.close()
    events = _events(_event_files(str(tmp_path))[0])
    assert events[1].tagged_run_metadata.tag == "step1" and events[1].step == 1
    assert events[2].HasField("graph_def") and events[2].step == 5
    assert _accumulator(str(tmp_path)).Tags()["run_metadata"] == ["step1"]


def test_unclosed_writer_is_flushed_at_exit(tmp_path):
    script = textwrap.dedent("""
        import sys
        import tensorweave as tf
        w = tf.summary.FileWriter(sys.argv[1], max_queue=1000, flush_secs=1000)
        for i in range(50):
            w.add_summary(tf.Summary(value=[tf.Summary.Value(tag="v", simple_value=i)]), i)
    """)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True, env=env, timeout=60)
    assert [e.step for e in _accumulator(str(tmp_path)).Scalars("v")] == list(range(50))


def test_file_writer_cache(tmp_path):
    a = tf.summary.FileWriterCache.get(str(tmp_path / "a"))
    assert tf.summary.FileWriterCache.get(str(tmp_path / "a")) is a
    b = tf.summary.FileWriterCache.get(str(tmp_path / "b"))
    assert b is not a and b.get_logdir() == str(tmp_path / "b")
    tf.summary.FileWriterCache.clear()
    assert a._closed and b._closed
    assert tf.summary.FileWriterCache.get(str(tmp_path / "a")) is not a
    tf.summary.FileWriterCache.clear()
    # The default graph was written when the writer was created.
    assert any(e.HasField("graph_def") for e in _events(_event_files(str(tmp_path / "a"))[0]))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files through Linux /proc/self/fd")
def test_a_writer_never_closed_releases_its_thread_and_file_when_collected(tmp_path):
    import gc
    import threading

    def counts():
        return threading.active_count(), len(os.listdir("/proc/self/fd"))

    gc.collect()
    start = counts()
    for i in range(20):
        writer = tf.summary.FileWriter(str(tmp_path / ("run%d" % i)))
        writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=float(i))]), global_step=i)
        assert counts()[0] > start[0]
        del writer
    deadline = time.time() + 10
    while counts() != start and time.time() < deadline:
        gc.collect()
        time.sleep(0.05)
    assert counts() == start
    # What was queued is written before the file is closed.
    for i in range(20):
        (path,) = _event_files(str(tmp_path / ("run%d" % i)))
        values = [(e.step, v.tag, v.simple_value) for e in _events(path) for v in e.summary.value]
        assert values == [(i, "loss", float(i))]
