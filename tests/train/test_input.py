"""TF1's queue input pipeline (tensorweave/train/input.py): input producers with epochs and shuffling,
batching (`batch`, `batch_join`, `shuffle_batch`, `shuffle_batch_join`, `maybe_*`, dynamic padding,
smaller final batches, `enqueue_many`), and a CSV file read by `string_input_producer` + `TextLineReader` +
`decode_csv` + `shuffle_batch` (issue 19's "done when"). Names, static shapes, orders and messages were
recorded from TensorFlow (tf.compat.v1 graph mode). No thread outlives its test."""

import threading

import numpy as np
import pytest

import tensorweave as tf


class _Runners:
    """A session with the graph's queue runners started under a coordinator, joined on exit."""

    def __enter__(self):
        self.sess = tf.Session()
        self.sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        self.coord = tf.train.Coordinator()
        self.threads = tf.train.start_queue_runners(self.sess, self.coord)
        return self.sess

    def __exit__(self, *exc):
        self.coord.request_stop()
        self.coord.join(self.threads)
        assert not any(t.is_alive() for t in self.threads)
        self.sess.close()


def _until_out_of_range(sess, fetch):
    out = []
    with pytest.raises(tf.errors.OutOfRangeError):
        while True:
            out.append(sess.run(fetch))
    return out


def test_csv_rows_twice_through_a_shuffled_pipeline_then_out_of_range(tmp_path):
    rows = [(i, "name%d" % i, i * 0.5) for i in range(7)]
    paths = []
    for k in range(2):
        p = tmp_path / ("part%d.csv" % k)
        p.write_text("id,name,score\n" + "".join("%d,%s,%g\n" % r for r in rows[k::2]))
        paths.append(str(p))
    filenames = tf.train.string_input_producer(paths, num_epochs=2, shuffle=True, seed=4)
    reader = tf.TextLineReader(skip_header_lines=1)
    _, line = reader.read(filenames)
    ident, name, score = tf.decode_csv(line, [[0], [""], [0.0]])
    batch = tf.train.shuffle_batch([ident, name, score], batch_size=3, capacity=20, min_after_dequeue=2, seed=1,
                                   allow_smaller_final_batch=True)
    assert [t.shape.as_list() for t in batch] == [[None]] * 3
    before = threading.active_count()
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        assert threading.active_count() > before
        got = []
        try:
            while not coord.should_stop():
                ids, names, scores = sess.run(batch)
                got.extend(zip(ids.tolist(), names.tolist(), scores.tolist()))
        except tf.errors.OutOfRangeError:
            pass
        finally:
            coord.request_stop()
        coord.join(threads)
        assert threading.active_count() == before and not any(t.is_alive() for t in threads)
    want = sorted([(i, b"name%d" % i, np.float32(s).item()) for i, _, s in rows] * 2)
    assert sorted(got) == want
    assert [g[0] for g in got] != sorted(g[0] for g in got)  # shuffled


def test_string_input_producer_epochs_order_and_names():
    q = tf.train.string_input_producer(["a", "b", "c"], num_epochs=2, shuffle=False)
    assert q.name == "input_producer" and [v.name for v in tf.local_variables()] == \
        ["input_producer/limit_epochs/epochs:0"]
    assert [str(s.name) for s in tf.get_collection(tf.GraphKeys.SUMMARIES)] == ["input_producer/fraction_of_32_full:0"]
    d = q.dequeue()
    with _Runners() as sess:
        assert [sess.run(d) for _ in range(6)] == [b"a", b"b", b"c"] * 2
        with pytest.raises(tf.errors.OutOfRangeError, match="FIFOQueue '_[0-9]+_input_producer' is closed and has "
                                                            r"insufficient elements \(requested 1, current size 0\)"):
            sess.run(d)
    with pytest.raises(ValueError, match="string_input_producer requires a non-null input tensor"):
        tf.train.string_input_producer([])


def test_string_input_producer_asserts_a_non_empty_tensor_at_run_time():
    files = tf.placeholder_with_default(tf.zeros([0], tf.string), [None])
    q = tf.train.string_input_producer(files, shuffle=False)
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        # The runner's enqueue fails: the coordinator stops, and its cancel op closes the queue.
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(q.dequeue())
        with pytest.raises(tf.errors.InvalidArgumentError, match="requires a non-null input tensor"):
            coord.join(threads)  # the runner's error, re-raised


def test_range_and_slice_input_producers():
    r = tf.train.range_input_producer(4, shuffle=False, num_epochs=1)
    sl = tf.train.slice_input_producer([tf.constant([1, 2, 3]), tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])],
                                       shuffle=False, num_epochs=1)
    assert [t.shape.as_list() for t in sl] == [[], [2]] and sl[0].name == "input_producer_1/GatherV2:0"
    with _Runners() as sess:
        assert [sess.run(r.dequeue()) for _ in range(4)] == [0, 1, 2, 3]
        pairs = _until_out_of_range(sess, sl)
    assert [int(p[0]) for p in pairs] == [1, 2, 3] and pairs[2][1].tolist() == [5.0, 6.0]


def test_shuffled_producer_is_a_permutation_per_epoch_and_seeded():
    def run():
        g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(1)
            q = tf.train.range_input_producer(10, num_epochs=2, seed=7)
            d = q.dequeue()
            with _Runners() as sess:
                return _until_out_of_range(sess, d)
    a = run()
    assert sorted(a[:10]) == list(range(10)) and sorted(a[10:]) == list(range(10))
    assert a[:10] != list(range(10)) and a[:10] != a[10:] and a == run()


def test_input_producer_needs_a_known_element_shape():
    with pytest.raises(ValueError, match="Either `input_tensor` must have a fully defined shape or `element_shape` "
                                         "must be specified"):
        tf.train.input_producer(tf.placeholder(tf.int32, [None, None]))
    q = tf.train.input_producer(tf.placeholder_with_default([[1, 2]], [None, None]), element_shape=[2],
                                shuffle=False)
    assert q.shapes[0].as_list() == [2]
    with pytest.raises(ValueError, match="num_epochs must be > 0 not 0."):
        tf.train.limit_epochs(tf.constant(1), 0)


def test_limit_epochs_counts_runs():
    x = tf.train.limit_epochs(tf.constant(5), num_epochs=2)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert [sess.run(x), sess.run(x)] == [5, 5]
        with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 2"):
            sess.run(x)


def test_batch_names_shapes_and_values():
    x = tf.train.limit_epochs(tf.constant([1, 2]), num_epochs=5)
    y = tf.constant(3.0)
    b = tf.train.batch([x, y], batch_size=4)
    assert [(t.name, t.shape.as_list()) for t in b] == [("batch:0", [4, 2]), ("batch:1", [4])]
    d = tf.train.batch({"a": x, "b": y}, batch_size=4, allow_smaller_final_batch=True, name="mine")
    assert sorted(d) == ["a", "b"] and d["a"].name == "mine:0" and d["a"].shape.as_list() == [None, 2]
    assert [qr.name for qr in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)] == ["batch/fifo_queue", "mine/fifo_queue"]
    with _Runners() as sess:
        xs, ys = sess.run(b)
        np.testing.assert_array_equal(xs, [[1, 2]] * 4)
        np.testing.assert_array_equal(ys, [3.0] * 4)


def test_batch_enqueue_many_and_smaller_final_batch():
    data = tf.train.limit_epochs(tf.constant([[1, 2], [3, 4], [5, 6]]), num_epochs=1)
    b = tf.train.batch([data], batch_size=2, enqueue_many=True, allow_smaller_final_batch=True)
    assert b.shape.as_list() == [None, 2]
    with _Runners() as sess:
        got = _until_out_of_range(sess, b)
    assert [g.tolist() for g in got] == [[[1, 2], [3, 4]], [[5, 6]]]


def test_dynamic_pad_pads_each_batch():
    lengths = tf.train.limit_epochs(tf.constant([1, 3, 2]), num_epochs=1)
    q = tf.FIFOQueue(3, tf.int32, shapes=[[]])
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue_many([lengths])]))
    seq = tf.range(1, q.dequeue() + 1)
    b = tf.train.batch([seq], batch_size=2, dynamic_pad=True, allow_smaller_final_batch=True)
    assert b.shape.as_list() == [None, None] and b.name == "batch:0"
    with _Runners() as sess:
        got = _until_out_of_range(sess, b)
    assert [g.tolist() for g in got] == [[[1, 0, 0], [1, 2, 3]], [[1, 2]]]


def test_batch_join_and_shuffle_batch_join_read_every_input():
    a = tf.train.limit_epochs(tf.constant([1, 2, 3]), num_epochs=1)
    b = tf.train.limit_epochs(tf.constant([10, 20]), num_epochs=1)
    joined = tf.train.batch_join([[a], [b]], batch_size=2, enqueue_many=True, allow_smaller_final_batch=True)
    assert joined.name == "batch_join:0"
    with _Runners() as sess:
        got = np.concatenate(_until_out_of_range(sess, joined))
    assert sorted(got.tolist()) == [1, 2, 3, 10, 20]
    g = tf.Graph()
    with g.as_default():
        a = tf.train.limit_epochs(tf.constant([1, 2, 3]), num_epochs=1)
        b = tf.train.limit_epochs(tf.constant([10, 20]), num_epochs=1)
        shuffled = tf.train.shuffle_batch_join([{"v": a}, {"v": b}], batch_size=2, capacity=10, min_after_dequeue=1,
                                               enqueue_many=True, allow_smaller_final_batch=True, seed=3)
        assert shuffled["v"].name == "shuffle_batch_join:0"
        with _Runners() as sess:
            got = np.concatenate([d["v"] for d in _until_out_of_range(sess, shuffled)])
        assert sorted(got.tolist()) == [1, 2, 3, 10, 20]
    with pytest.raises(TypeError, match="Expected types to be consistent: int32 vs. float32."):
        tf.train.batch_join([[tf.constant(1)], [tf.constant(1.0)]], batch_size=2)


def test_maybe_batch_keeps_selected_examples():
    data = tf.train.limit_epochs(tf.range(3), num_epochs=1)
    b = tf.train.maybe_batch([data], keep_input=tf.constant([True, False, True]), batch_size=2, enqueue_many=True)
    keep = tf.placeholder_with_default(True, [])
    x = tf.train.limit_epochs(tf.constant(4), num_epochs=3)
    c = tf.train.maybe_batch([x], keep_input=keep, batch_size=1)
    m = tf.train.maybe_shuffle_batch([x], 1, 10, 0, keep_input=False)
    n = tf.train.maybe_batch_join([[x]], keep_input=True, batch_size=1)
    o = tf.train.maybe_shuffle_batch_join([[x]], 1, 10, 0, keep_input=True)
    assert [t.shape.as_list() for t in (b, c, m, n, o)] == [[2], [1], [1], [1], [1]]
    with _Runners() as sess:
        assert sess.run(b).tolist() == [0, 2]
        assert sess.run(c).tolist() == [4]
    with pytest.raises(ValueError, match="`keep_input` cannot be a vector when `enqueue_many=False`."):
        tf.train.maybe_batch([tf.constant(1)], keep_input=[True], batch_size=2)


def test_shuffle_batch_arguments_and_summary():
    x = tf.constant([1, 2])
    s = tf.train.shuffle_batch([x], batch_size=3, capacity=10, min_after_dequeue=2)
    assert s.name == "shuffle_batch:0" and s.shape.as_list() == [3, 2]
    assert [str(t.name) for t in tf.get_collection(tf.GraphKeys.SUMMARIES)] == \
        ["shuffle_batch/fraction_over_2_of_8_full:0"]
    with pytest.raises(ValueError, match="capacity 2 must be bigger than min_after_dequeue 2."):
        tf.train.shuffle_batch([x], batch_size=3, capacity=2, min_after_dequeue=2)
    with pytest.raises(ValueError, match=r"Cannot infer Tensor's rank: Tensor\(\"Placeholder:0\", dtype=int32\)"):
        tf.train.batch([tf.placeholder(tf.int32)], batch_size=2)


def test_queue_pipelines_are_graph_only():
    from tensorweave.eager import context
    with context.eager_mode():
        with pytest.raises(ValueError, match="not supported when eager execution is enabled"):
            tf.train.batch([tf.constant(1)], batch_size=2)


def test_image_folder_pipeline_of_build_an_image_dataset(tmp_path):
    """TensorFlow-Examples' build_an_image_dataset: slice_input_producer + read_file + decode_jpeg +
    train.batch with 4 threads, queue runners started without a coordinator and stopped by closing the
    session. Each class is a solid colour, so every label can be checked against its image."""
    from PIL import Image
    colours = {"red": (250, 0, 0), "green": (0, 250, 0), "blue": (0, 0, 250)}
    imagepaths, labels = [], []
    for label, (name, colour) in enumerate(sorted(colours.items())):
        (tmp_path / name).mkdir()
        for k in range(3):
            path = tmp_path / name / ("%d.jpg" % k)
            Image.new("RGB", (12 + k, 10), colour).save(path)
            imagepaths.append(str(path))
            labels.append(label)
    imagepaths = tf.convert_to_tensor(imagepaths, dtype=tf.string)
    labels = tf.convert_to_tensor(labels, dtype=tf.int32)
    image, label = tf.train.slice_input_producer([imagepaths, labels], shuffle=True)
    image = tf.read_file(image)
    image = tf.image.decode_jpeg(image, channels=3)
    image = tf.image.resize_images(image, [8, 8])
    image = image * 1.0 / 127.5 - 1.0
    X, Y = tf.train.batch([image, label], batch_size=5, capacity=5 * 8, num_threads=4)
    assert X.shape.as_list() == [5, 8, 8, 3] and Y.shape.as_list() == [5]
    threads_before = threading.active_count()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.train.start_queue_runners()
        assert threading.active_count() == threads_before + 5  # the producer's runner and 4 batching threads
        for _ in range(4):
            xs, ys = sess.run([X, Y])
            channel = xs.mean(axis=(1, 2)).argmax(axis=1)  # the dominant colour of each image
            assert channel.tolist() == [{0: 2, 1: 1, 2: 0}[int(y)] for y in ys]  # blue, green, red


def test_batching_sparse_tensors_through_a_tensors_map():
    sp = tf.SparseTensor(indices=[[0], [2]], values=[1.0, 2.0], dense_shape=[3])
    b = tf.train.batch([sp, tf.constant(7)], batch_size=2)
    assert isinstance(b[0], tf.SparseTensor) and b[0].indices.shape.as_list() == [None, 2]
    assert b[0].indices.op.type == "TakeManySparseFromTensorsMap" and b[1].name == "batch:1"
    minibatch = tf.SparseTensor(indices=[[0, 1], [1, 0], [1, 2]], values=[1, 2, 3], dense_shape=[2, 3])
    b2 = tf.train.batch([minibatch], batch_size=2, enqueue_many=True, allow_smaller_final_batch=True)
    types = {op.type for op in tf.get_default_graph().get_operations()}
    assert {"AddSparseToTensorsMap", "AddManySparseToTensorsMap"} <= types
    with _Runners() as sess:
        sparse, dense = sess.run(b)  # recorded from TF
        assert sparse.indices.tolist() == [[0, 0], [0, 2], [1, 0], [1, 2]] and dense.tolist() == [7, 7]
        assert sparse.values.tolist() == [1.0, 2.0, 1.0, 2.0] and sparse.dense_shape.tolist() == [2, 3]
        again = sess.run(b2)
        assert again.indices.tolist() == [[0, 1], [1, 0], [1, 2]] and again.values.tolist() == [1, 2, 3]
        assert again.dense_shape.tolist() == [2, 3]


def test_batch_join_of_sparse_tensors_shares_one_map():
    a = tf.SparseTensor(indices=[[0]], values=[1.0], dense_shape=[2])
    c = tf.SparseTensor(indices=[[1], [3]], values=[2.0, 3.0], dense_shape=[5])
    joined = tf.train.batch_join([[a], [c]], batch_size=4)
    with _Runners() as sess:
        got = sess.run(joined)
    rows = {}
    for (i, j), v in zip(got.indices.tolist(), got.values.tolist()):
        rows.setdefault(i, []).append((j, v))
    assert sorted(rows) == [0, 1, 2, 3]
    assert all(r in ([(0, 1.0)], [(1, 2.0), (3, 3.0)]) for r in rows.values())
    assert got.dense_shape.tolist()[0] == 4 and got.dense_shape.tolist()[1] in (2, 5)


def test_four_threads_share_one_reader_and_lose_no_record(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("".join("%d,%d\n" % (i, i * i) for i in range(150)))
    filenames = tf.train.string_input_producer([str(path)], num_epochs=3)
    _, line = tf.TextLineReader().read(filenames)
    a, b = tf.decode_csv(line, [[0], [0]])
    batch = tf.train.shuffle_batch([a, b], batch_size=16, capacity=64, min_after_dequeue=8, num_threads=4,
                                   allow_smaller_final_batch=True)
    got = []
    with _Runners() as sess:
        for xs, ys in _until_out_of_range(sess, batch):
            got.extend(zip(xs.tolist(), ys.tolist()))
    assert sorted(got) == sorted([(i, i * i) for i in range(150)] * 3)
