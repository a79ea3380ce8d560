"""tensorweave's own file APIs go through gfile: TFRecord files, checkpoints, meta graphs, summary
event files and `Dataset.list_files` work on fsspec's `memory://` file system."""

import uuid

import numpy as np
import pytest

import tensorweave as tf

pytest.importorskip("fsspec")
pytest.importorskip("crc32c")


@pytest.fixture
def root():
    path = "memory://routing_%s" % uuid.uuid4().hex
    tf.io.gfile.makedirs(path)
    yield path
    tf.io.gfile.rmtree(path)


@pytest.mark.parametrize("compression", [None, "GZIP", "ZLIB"])
def test_tfrecord_on_memory(root, compression):
    path = root + "/data.tfrecord"
    with tf.io.TFRecordWriter(path, compression) as w:
        for r in (b"abc", b"", b"defg"):
            w.write(r)
    assert list(tf.io.tf_record_iterator(path, compression)) == [b"abc", b"", b"defg"]
    ds = tf.data.TFRecordDataset([path, path], compression_type=compression or "")
    nxt = ds.make_one_shot_iterator().get_next()
    with tf.Session() as s:
        assert [s.run(nxt) for _ in range(6)] == [b"abc", b"", b"defg"] * 2
        with pytest.raises(tf.errors.OutOfRangeError):
            s.run(nxt)
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        tf.io.TFRecordWriter(root + "/missing_dir/x.tfrecord")


def test_checkpoint_on_memory(root):
    v = tf.Variable([1.0, 2.0], name="v")
    w = tf.Variable(3, name="w")
    saver = tf.train.Saver(max_to_keep=2)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        for step in range(3):
            s.run(v.assign_add([1.0, 1.0]))
            path = saver.save(s, root + "/run/model", global_step=step) if step else None
            if not step:
                tf.io.gfile.makedirs(root + "/run")
                path = saver.save(s, root + "/run/model", global_step=step)
        assert path == root + "/run/model-2"
        assert sorted(tf.io.gfile.listdir(root + "/run")) == [
            "checkpoint", "model-1.data-00000-of-00001", "model-1.index", "model-1.meta",
            "model-2.data-00000-of-00001", "model-2.index", "model-2.meta"]
        assert tf.train.latest_checkpoint(root + "/run") == path
        s.run([v.assign([0.0, 0.0]), w.assign(0)])
        saver.restore(s, path)
        np.testing.assert_array_equal(s.run(v), [4.0, 5.0])
        assert s.run(w) == 3
    tf.reset_default_graph()
    imported = tf.train.import_meta_graph(path + ".meta")
    with tf.Session() as s:
        imported.restore(s, path)
        np.testing.assert_array_equal(s.run("v:0"), [4.0, 5.0])


def test_sharded_checkpoint_on_memory(root):
    with tf.device("/cpu:0"):
        a = tf.Variable(1.5, name="a")
    with tf.device("/cpu:1"):
        b = tf.Variable([2, 3], name="b")
    saver = tf.train.Saver(sharded=True)
    with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as s:
        s.run(tf.global_variables_initializer())
        path = saver.save(s, root + "/model")
        s.run([a.assign(0.0), b.assign([0, 0])])
        saver.restore(s, path)
        assert s.run(a) == 1.5 and list(s.run(b)) == [2, 3]
    assert tf.io.gfile.exists(root + "/model.index")


def test_summary_events_on_memory(root):
    writer = tf.summary.FileWriter(root + "/logs")
    writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="x", simple_value=1.5)]), 3)
    writer.close()
    (name,) = tf.io.gfile.listdir(root + "/logs")
    assert name.startswith("events.out.tfevents.")
    events = list(tf.train.summary_iterator(root + "/logs/" + name))
    assert events[0].file_version == "brain.Event:2"
    assert (events[1].step, events[1].summary.value[0].simple_value) == (3, 1.5)


def test_list_files_on_memory(root):
    for n in ("b.txt", "a.txt", "c.csv"):
        with tf.io.gfile.GFile(root + "/" + n, "w") as f:
            f.write(n)
    ds = tf.data.Dataset.list_files(root + "/*.txt", shuffle=False)
    nxt = ds.make_one_shot_iterator().get_next()
    with tf.Session() as s:
        assert [s.run(nxt), s.run(nxt)] == [(root + "/a.txt").encode(), (root + "/b.txt").encode()]


def test_write_graph_on_memory(root):
    tf.constant(1.0, name="c")
    path = tf.train.write_graph(tf.get_default_graph(), root + "/graphs/new", "g.pbtxt")
    assert path == root + "/graphs/new/g.pbtxt"
    assert tf.io.gfile.listdir(root + "/graphs/new") == ["g.pbtxt"]
    assert 'name: "c"' in tf.io.gfile.GFile(path).read()


def test_dataset_file_cache_on_memory(root):
    calls = []

    def gen():
        calls.append(1)
        yield from [1, 2, 3]
    ds = tf.data.Dataset.from_generator(gen, tf.int64, []).cache(root + "/cache/c")
    tf.io.gfile.makedirs(root + "/cache")
    for _ in range(2):
        nxt = ds.make_one_shot_iterator().get_next()
        with tf.Session() as s:
            assert [s.run(nxt) for _ in range(3)] == [1, 2, 3]
            with pytest.raises(tf.errors.OutOfRangeError):
                s.run(nxt)
    assert len(calls) == 1  # the second pass read the cache files
    assert sorted(tf.io.gfile.listdir(root + "/cache")) == ["c.data-00000-of-00001", "c.index"]
