"""slim.data: TFExampleDecoder item handlers, DatasetDataProvider over TFRecord files,
parallel_read / single_pass_read and prefetch_queue (behaviour of TF 1.15's tf-slim source; the
expected values are the examples written here)."""

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.contrib.slim as slim

TD = slim.tfexample_decoder
IMAGES = [np.random.RandomState(i).randint(0, 255, size=(2, 3, 3)).astype(np.uint8) for i in range(4)]


def _feature(values, kind):
    if kind == "bytes":
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    if kind == "int":
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Feature(float_list=tf.train.FloatList(value=values))


def _write_records(path, start, count):
    with tf.Graph().as_default(), tf.Session() as sess:
        pngs = sess.run([tf.image.encode_png(tf.constant(IMAGES[i])) for i in range(start, start + count)])
    with tf.python_io.TFRecordWriter(path) as writer:
        for j, i in enumerate(range(start, start + count)):
            feats = {
                "image/encoded": _feature([pngs[j] if i % 2 == 0 else IMAGES[i].tobytes()], "bytes"),
                "image/format": _feature([b"png" if i % 2 == 0 else b"raw"], "bytes"),
                "label": _feature([i], "int"),
                "ymin": _feature([0.1 * i, 0.2], "float"),
                "xmin": _feature([0.0, 0.3], "float"),
                "ymax": _feature([0.5, 0.6], "float"),
                "xmax": _feature([0.7, 0.8 + i], "float"),
                "ids": _feature([i % 3], "int"),
                "vals": _feature([float(i) + 0.5], "float"),
            }
            writer.write(tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString())


def _decoder():
    keys_to_features = {
        "image/encoded": tf.FixedLenFeature((), tf.string, default_value=""),
        "image/format": tf.FixedLenFeature((), tf.string, default_value="png"),
        "label": tf.FixedLenFeature([1], tf.int64),
        "ymin": tf.VarLenFeature(tf.float32), "xmin": tf.VarLenFeature(tf.float32),
        "ymax": tf.VarLenFeature(tf.float32), "xmax": tf.VarLenFeature(tf.float32),
        "ids": tf.VarLenFeature(tf.int64), "vals": tf.VarLenFeature(tf.float32),
        "missing": tf.VarLenFeature(tf.int64),
    }
    items_to_handlers = {
        "image": TD.Image(shape=[2, 3, 3]),
        "label": TD.Tensor("label", shape=[]),
        "bbox": TD.BoundingBox(prefix=""),
        "sparse": TD.SparseTensor("ids", "vals", shape=[3], densify=True, default_value=-1.0),
        "twice": TD.ItemHandlerCallback(["label"], lambda d: d["label"] * 2),
        "backup": TD.BackupHandler(TD.Tensor("missing"), TD.Tensor("label")),
    }
    return TD.TFExampleDecoder(keys_to_features, items_to_handlers)


def _check_item(item, i):
    image, label, bbox, sparse, twice, backup = item
    np.testing.assert_array_equal(image, IMAGES[i])
    assert label == i and twice == [2 * i] and list(backup) == [i]
    np.testing.assert_allclose(bbox, [[0.1 * i, 0.0, 0.5, 0.7], [0.2, 0.3, 0.6, 0.8 + i]], rtol=1e-6)
    expected = np.full(3, -1.0, np.float32)
    expected[i % 3] = i + 0.5
    np.testing.assert_allclose(sparse, expected)


ITEMS = ["image", "label", "bbox", "sparse", "twice", "backup"]


def test_dataset_data_provider_reads_all_records(tmp_path):
    _write_records(str(tmp_path / "a.tfrecord"), 0, 2)
    _write_records(str(tmp_path / "b.tfrecord"), 2, 2)
    with tf.Graph().as_default():
        decoder = _decoder()
        assert sorted(decoder.list_items()) == sorted(ITEMS)
        dataset = slim.dataset.Dataset(data_sources=str(tmp_path / "*.tfrecord"), reader=tf.TFRecordReader,
                                       decoder=decoder, num_samples=4, items_to_descriptions={}, extra=7)
        assert dataset.extra == 7
        provider = slim.dataset_data_provider.DatasetDataProvider(dataset, shuffle=False, num_epochs=1)
        assert provider.num_samples() == 4
        tensors = provider.get(ITEMS + ["record_key"])
        with pytest.raises(ValueError, match="Item \\[nope\\] is invalid"):
            provider.get(["nope"])
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            with slim.queues.QueueRunners(sess):
                got = [sess.run(tensors) for _ in range(4)]
        for item in got:
            _check_item(item[:-1], int(item[1]))
            assert item[-1].startswith(str(tmp_path).encode())
        assert sorted(int(item[1]) for item in got) == [0, 1, 2, 3]


def test_decode_single_example_and_errors(tmp_path):
    path = str(tmp_path / "c.tfrecord")
    _write_records(path, 2, 1)
    with tf.Graph().as_default():
        key, value = slim.parallel_reader.single_pass_read(path, reader_class=tf.TFRecordReader)
        item = _decoder().decode(value, ITEMS)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            _check_item(sess.run(item), 2)
            coord.request_stop()
            coord.join(threads)
    with pytest.raises(ValueError, match="Cannot specify both shape_keys and shape"):
        TD.Tensor("a", shape_keys="b", shape=[1])
    with pytest.raises(ValueError, match="BoundingBox expects 4 keys but got 2"):
        TD.BoundingBox(keys=["a", "b"])
    with pytest.raises(ValueError, match="Primary handler is of type"):
        TD.BackupHandler("x", TD.Tensor("a"))
    with pytest.raises(ValueError, match="No data files found"):
        slim.parallel_reader.get_data_files(str(tmp_path / "none*"))


def test_parallel_read_shuffled_and_prefetch_queue(tmp_path):
    _write_records(str(tmp_path / "a.tfrecord"), 0, 2)
    _write_records(str(tmp_path / "b.tfrecord"), 2, 2)
    files = [str(tmp_path / "a.tfrecord"), str(tmp_path / "b.tfrecord")]
    with tf.Graph().as_default():
        _, value = slim.parallel_reader.parallel_read(files, tf.TFRecordReader, num_readers=2, num_epochs=2,
                                                      capacity=8, min_after_dequeue=2, seed=3)
        label = tf.parse_single_example(value, {"label": tf.FixedLenFeature([], tf.int64)})["label"]
        queue = slim.prefetch_queue.prefetch_queue({"label": label, "double": label * 2}, capacity=4)
        out = queue.dequeue()
        assert len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)) == 3
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            with slim.queues.QueueRunners(sess):
                got = [sess.run(out) for _ in range(8)]
        assert sorted(g["label"] for g in got) == [0, 0, 1, 1, 2, 2, 3, 3]
        assert all(g["double"] == 2 * g["label"] for g in got)


def test_tf_sequence_example_decoder():
    ex = tf.train.SequenceExample(
        context=tf.train.Features(feature={"length": _feature([3], "int")}),
        feature_lists=tf.train.FeatureLists(feature_list={
            "tokens": tf.train.FeatureList(feature=[_feature([1, 2], "int"), _feature([3, 4], "int"),
                                                    _feature([5, 6], "int")])}))
    with pytest.raises(ValueError, match="Context and sequence keys are not unique"):
        TD.TFSequenceExampleDecoder({"a": tf.FixedLenFeature([], tf.int64)},
                                    {"a": tf.FixedLenSequenceFeature([], tf.int64)}, {})
    decoder = TD.TFSequenceExampleDecoder(
        {"length": tf.FixedLenFeature([1], tf.int64)},
        {"tokens": tf.FixedLenSequenceFeature([2], tf.int64)},
        {"length": TD.Tensor("length", shape=[]), "tokens": TD.Tensor("tokens"),
         "total": TD.ItemHandlerCallback(["length", "tokens"], lambda d: tf.reduce_sum(d["tokens"]) + d["length"])})
    assert sorted(decoder.list_items()) == ["length", "tokens", "total"]
    with tf.Graph().as_default():
        length, tokens, total = decoder.decode(tf.constant(ex.SerializeToString()), ["length", "tokens", "total"])
        with tf.Session() as sess:
            got = sess.run([length, tokens, total])
    assert got[0] == 3
    np.testing.assert_array_equal(got[1], [[1, 2], [3, 4], [5, 6]])
    assert list(got[2]) == [24]
