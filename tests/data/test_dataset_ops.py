"""tf.data.Dataset: sources and transformations, element order and static shapes against pure-Python
references."""

import collections
import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tests.data.helpers import collect, interleave_reference, values

D = tf.data.Dataset


def _chunks(xs, n, drop=False):
    out = [xs[i:i + n] for i in range(0, len(xs), n)]
    return [c for c in out if len(c) == n] if drop else out


def _windows(xs, size, shift, stride, drop):
    out = []
    start = 0
    while start < len(xs):
        w = xs[start:start + (size - 1) * stride + 1:stride]
        if drop and len(w) < size:
            break
        out.append(w)
        start += shift
    return out


# (name, dataset builder, pure-Python reference of the elements, static shape of get_next())
CASES = [
    ("range_stop", lambda: D.range(5), lambda: list(range(5)), []),
    ("range_start_stop_step", lambda: D.range(2, 11, 3), lambda: list(range(2, 11, 3)), []),
    ("range_negative_step", lambda: D.range(5, 0, -2), lambda: [5, 3, 1], []),
    ("from_tensors", lambda: D.from_tensors([1, 2, 3]), lambda: [[1, 2, 3]], [3]),
    ("slices", lambda: D.from_tensor_slices(np.arange(6).reshape(3, 2)), lambda: [[0, 1], [2, 3], [4, 5]], [2]),
    ("map", lambda: D.range(5).map(lambda x: x * x + 1), lambda: [x * x + 1 for x in range(5)], []),
    ("map_parallel", lambda: D.range(20).map(lambda x: x * 3, num_parallel_calls=4),
     lambda: [x * 3 for x in range(20)], []),
    ("map_num_threads", lambda: D.range(20).map(lambda x: x - 1, num_threads=3, output_buffer_size=2),
     lambda: [x - 1 for x in range(20)], []),
    ("map_autotune", lambda: D.range(9).map(lambda x: -x, num_parallel_calls=tf.data.experimental.AUTOTUNE),
     lambda: [-x for x in range(9)], []),
    ("filter", lambda: D.range(10).filter(lambda x: tf.equal(x % 3, 0)), lambda: [0, 3, 6, 9], []),
    ("flat_map", lambda: D.range(4).flat_map(lambda x: D.range(x)), lambda: [i for x in range(4) for i in range(x)],
     []),
    ("flat_map_slices", lambda: D.from_tensor_slices(np.arange(6).reshape(3, 2)).flat_map(D.from_tensor_slices),
     lambda: list(range(6)), []),
    ("interleave", lambda: D.range(1, 6).interleave(lambda x: D.from_tensors(x).repeat(x), cycle_length=2,
                                                    block_length=3),
     lambda: interleave_reference(range(1, 6), lambda x: [x] * x, 2, 3), []),
    ("interleave_parallel", lambda: D.range(1, 8).interleave(lambda x: D.range(x * 10, x * 10 + x), cycle_length=3,
                                                             block_length=2, num_parallel_calls=3),
     lambda: interleave_reference(range(1, 8), lambda x: range(x * 10, x * 10 + x), 3, 2), []),
    ("batch", lambda: D.range(10).batch(4), lambda: _chunks(list(range(10)), 4), [None]),
    ("batch_drop", lambda: D.range(10).batch(4, drop_remainder=True), lambda: _chunks(list(range(10)), 4, True), [4]),
    ("batch_of_vectors", lambda: D.from_tensor_slices(np.arange(12).reshape(6, 2)).batch(4),
     lambda: [np.arange(8).reshape(4, 2).tolist(), np.arange(8, 12).reshape(2, 2).tolist()], [None, 2]),
    ("unbatch", lambda: D.range(7).batch(3).unbatch(), lambda: list(range(7)), []),
    ("experimental_unbatch", lambda: D.range(7).batch(2).apply(tf.data.experimental.unbatch()),
     lambda: list(range(7)), []),
    ("repeat", lambda: D.range(3).repeat(3), lambda: list(range(3)) * 3, []),
    ("repeat_forever_take", lambda: D.range(3).repeat().take(7), lambda: (list(range(3)) * 3)[:7], []),
    ("repeat_empty_forever", lambda: D.range(0).repeat(), lambda: [], []),
    ("take", lambda: D.range(10).take(4), lambda: [0, 1, 2, 3], []),
    ("take_all", lambda: D.range(4).take(-1), lambda: [0, 1, 2, 3], []),
    ("skip", lambda: D.range(10).skip(7), lambda: [7, 8, 9], []),
    ("skip_all", lambda: D.range(10).skip(-1), lambda: [], []),
    ("shard", lambda: D.range(11).shard(3, 2), lambda: list(range(11))[2::3], []),
    ("concatenate", lambda: D.range(3).concatenate(D.range(10, 12)), lambda: [0, 1, 2, 10, 11], []),
    ("cache_memory_repeat", lambda: D.range(4).map(lambda x: x + 1).cache().repeat(2), lambda: [1, 2, 3, 4] * 2, []),
    ("prefetch", lambda: D.range(50).prefetch(3), lambda: list(range(50)), []),
    ("prefetch_autotune", lambda: D.range(5).prefetch(tf.data.experimental.AUTOTUNE), lambda: list(range(5)), []),
    ("prefetch_zero", lambda: D.range(5).prefetch(0), lambda: list(range(5)), []),
    ("window", lambda: D.range(7).window(3, shift=2).flat_map(lambda w: w.batch(3)),
     lambda: _windows(list(range(7)), 3, 2, 1, False), [None]),
    ("window_stride_drop", lambda: D.range(10).window(3, shift=1, stride=2, drop_remainder=True).flat_map(
        lambda w: w.batch(3)), lambda: _windows(list(range(10)), 3, 1, 2, True), [None]),
    ("apply", lambda: D.range(6).apply(lambda ds: ds.map(lambda x: x * 2).take(2)), lambda: [0, 2], []),
    ("enumerate", lambda: D.range(10, 13).apply(tf.data.experimental.enumerate_dataset(5)),
     lambda: [(5, 10), (6, 11), (7, 12)], ([], [])),
    ("map_and_batch", lambda: D.range(5).apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 2)),
     lambda: [[0, 2], [4, 6], [8]], [None]),
    ("counter", lambda: tf.data.experimental.Counter(3, 2).take(3), lambda: [3, 5, 7], []),
]


@pytest.mark.parametrize("name,build,reference,shape", CASES, ids=[c[0] for c in CASES])
def test_elements_and_static_shape(name, build, reference, shape):
    ds = build()
    nxt = ds.make_one_shot_iterator().get_next()
    if isinstance(nxt, tuple):
        assert tuple(t.shape.as_list() for t in nxt) == shape
    else:
        assert nxt.shape.as_list() == shape
    assert values(ds) == reference()


def test_from_tensor_slices_nest_of_dict_and_tuple():
    feats = {"a": np.arange(6, dtype=np.float32).reshape(3, 2), "b": np.array([b"x", b"y", b"z"])}
    ds = D.from_tensor_slices((feats, np.array([1, 0, 1], np.int32)))
    assert ds.output_types == ({"a": tf.float32, "b": tf.string}, tf.int32)
    assert ds.output_shapes == ({"a": tf.TensorShape([2]), "b": tf.TensorShape([])}, tf.TensorShape([]))
    assert ds.output_classes == ({"a": tf.Tensor, "b": tf.Tensor}, tf.Tensor)
    assert ds.element_spec[1] == tf.TensorSpec([], tf.int32)
    assert tf.data.get_output_types(ds) == ds.output_types
    assert tf.data.get_output_shapes(ds) == ds.output_shapes
    assert tf.data.get_output_classes(ds) == ds.output_classes
    got = values(ds)
    assert got == [({"a": [0.0, 1.0], "b": b"x"}, 1), ({"a": [2.0, 3.0], "b": b"y"}, 0),
                   ({"a": [4.0, 5.0], "b": b"z"}, 1)]


def test_map_unpacks_tuples_but_not_dicts_or_namedtuples():
    Point = collections.namedtuple("Point", ["x", "y"])
    ds = D.from_tensor_slices((np.arange(3), np.arange(3) * 10)).map(lambda a, b: a + b)
    assert values(ds) == [0, 11, 22]
    ds = D.from_tensor_slices({"a": np.arange(3), "b": np.ones(3, np.int64)}).map(lambda d: d["a"] - d["b"])
    assert values(ds) == [-1, 0, 1]
    ds = D.from_tensor_slices(Point(np.arange(2), np.arange(2))).map(lambda p: p.x * 5 + p.y)
    assert values(ds) == [0, 6]


def test_map_returning_list_is_a_tuple_and_nested_list_is_a_tensor():
    ds = D.range(3).map(lambda x: [x, [x, x + 1]])
    assert ds.output_shapes == (tf.TensorShape([]), tf.TensorShape([2]))
    assert values(ds) == [(0, [0, 1]), (1, [1, 2]), (2, [2, 3])]


def test_map_with_py_func_and_captured_tensor():
    offset = tf.constant(100, tf.int64)
    ds = D.range(4).map(lambda x: tf.py_func(lambda v: v * 2, [x], tf.int64) + offset)
    assert ds.output_shapes.ndims is None
    assert values(ds) == [100, 102, 104, 106]


def test_batch_static_shape_from_placeholder_and_constant_size():
    ds = D.from_tensor_slices(np.zeros((10, 3), np.float32))
    assert ds.batch(4).output_shapes.as_list() == [None, 3]
    assert ds.batch(tf.constant(4, tf.int64), drop_remainder=True).output_shapes.as_list() == [4, 3]
    size = tf.placeholder(tf.int64, [])
    assert ds.batch(size, drop_remainder=True).output_shapes.as_list() == [None, 3]


def test_batch_with_placeholder_size_and_initializable_iterator():
    size = tf.placeholder(tf.int64, [])
    it = D.range(7).batch(size).make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as sess:
        sess.run(it.initializer, {size: 3})
        assert sess.run(nxt).tolist() == [0, 1, 2]
        sess.run(it.initializer, {size: 5})
        assert sess.run(nxt).tolist() == [0, 1, 2, 3, 4]
        assert sess.run(nxt).tolist() == [5, 6]


def test_batch_different_shapes_error():
    def gen():
        yield [1, 2, 3]
        yield [4, 5]
    ds = D.from_generator(gen, tf.int64, [None]).batch(2)
    nxt = ds.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Cannot batch tensors with different shapes in component 0. First element had "
                                 r"shape \[3\] and element 1 had shape \[2\]"):
            sess.run(nxt)


def test_padded_batch():
    def gen():
        for n in [1, 3, 2, 0, 4]:
            yield np.arange(n, dtype=np.int32), b"s%d" % n
    ds = D.from_generator(gen, (tf.int32, tf.string), ([None], []))
    pb = ds.padded_batch(2, padded_shapes=([None], []), padding_values=(-1, b"?"))
    assert pb.output_shapes == (tf.TensorShape([None, None]), tf.TensorShape([None]))
    got = values(pb)
    assert got == [([[0, -1, -1], [0, 1, 2]], [b"s1", b"s3"]), ([[0, 1], [-1, -1]], [b"s2", b"s0"]),
                   ([[0, 1, 2, 3]], [b"s4"])]
    fixed = ds.padded_batch(2, padded_shapes=([5], []), drop_remainder=True)
    assert fixed.output_shapes == (tf.TensorShape([2, 5]), tf.TensorShape([2]))
    got = values(fixed)
    assert got == [([[0, 0, 0, 0, 0], [0, 1, 2, 0, 0]], [b"s1", b"s3"]),
                   ([[0, 1, 0, 0, 0], [0, 0, 0, 0, 0]], [b"s2", b"s0"])]


def test_padded_batch_errors():
    ds = D.from_tensor_slices(np.zeros((4, 3), np.float32))
    with pytest.raises(ValueError, match="not compatible"):
        ds.padded_batch(2, padded_shapes=[2, 2])
    with pytest.raises(TypeError, match="does not match output type"):
        ds.padded_batch(2, padded_shapes=[None], padding_values=np.int64(1))
    ragged = D.from_generator(lambda: iter([[1.0], [1.0, 2.0, 3.0]]), tf.float32, [None])
    nxt = ragged.padded_batch(2, padded_shapes=[2]).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="smaller size than the input element"):
            sess.run(nxt)


def test_zip_dict_and_shortest():
    ds = D.zip({"a": D.range(3), "b": D.range(10, 20).map(lambda x: tf.cast(x, tf.float32))})
    assert ds.output_types == {"a": tf.int64, "b": tf.float32}
    assert values(ds) == [{"a": 0, "b": 10.0}, {"a": 1, "b": 11.0}, {"a": 2, "b": 12.0}]
    with pytest.raises(TypeError, match="nested structure of `Dataset`"):
        D.zip((D.range(2), 3))


def test_concatenate_errors_and_shape_merge():
    a = D.from_tensors(np.zeros(2, np.float32))
    b = D.from_tensors(np.zeros(3, np.float32))
    assert a.concatenate(b).output_shapes.as_list() == [None]
    with pytest.raises(TypeError, match="different types"):
        a.concatenate(D.range(2))


def test_shuffle_is_a_permutation_and_seeded_runs_repeat():
    ds = D.range(50).shuffle(20, seed=7)
    first = values(ds)
    assert sorted(first) == list(range(50)) and first != list(range(50))
    assert values(ds) == first  # a new session replays the same seeded order
    # A small buffer only moves elements a bounded distance forward.
    assert all(first.index(i) >= i - 20 for i in range(50))


def test_shuffle_graph_seed_and_reshuffle_each_iteration():
    tf.set_random_seed(3)
    ds = D.range(10).shuffle(10)
    two = D.range(10).shuffle(10, seed=1).repeat(2)
    epochs = values(two)
    assert sorted(epochs[:10]) == sorted(epochs[10:]) == list(range(10))
    assert epochs[:10] != epochs[10:]
    fixed = values(D.range(10).shuffle(10, seed=1, reshuffle_each_iteration=False).repeat(2))
    assert fixed[:10] == fixed[10:]
    assert values(ds) == values(ds)


def test_shuffle_reinitialised_iterator_restarts_the_seeded_sequence():
    it = D.range(10).shuffle(10, seed=5).make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as sess:
        sess.run(it.initializer)
        a = [sess.run(nxt) for _ in range(10)]
        sess.run(it.initializer)
        b = [sess.run(nxt) for _ in range(10)]
    assert a == b


def test_filter_predicate_must_be_scalar_bool():
    with pytest.raises(ValueError, match="scalar boolean"):
        D.range(3).filter(lambda x: x)
    with pytest.raises(ValueError, match="scalar boolean"):
        D.range(3).map(lambda x: tf.fill([2], True)).filter(lambda x: x)


def test_flat_map_must_return_dataset():
    with pytest.raises(TypeError, match="must return a `Dataset`"):
        D.range(3).flat_map(lambda x: x)


def test_flat_map_with_nested_map_capturing_the_argument():
    ds = D.range(3).flat_map(lambda x: D.range(2).map(lambda y: y + 10 * x))
    assert values(ds) == [0, 1, 10, 11, 20, 21]


def test_from_tensor_slices_errors():
    with pytest.raises(ValueError, match="rank 0"):
        D.from_tensor_slices(3)
    with pytest.raises(ValueError, match="not compatible"):
        D.from_tensor_slices((np.zeros(3), np.zeros(4)))


def test_range_argument_errors():
    with pytest.raises(ValueError, match="Invalid arguments to RangeDataset"):
        D.range()
    nxt = D.range(0, 5, 0).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="step must be a non-zero integer"):
            sess.run(nxt)


def test_shard_argument_errors():
    it = D.range(5).shard(2, 2).make_initializable_iterator()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Index must be between 0 and 1"):
            sess.run(it.initializer)


def test_from_generator_with_args_and_structure():
    def gen(n, scale):
        for i in range(n):
            yield {"i": i, "v": [scale * i] * 2}
    ds = D.from_generator(gen, {"i": tf.int64, "v": tf.float32}, {"i": [], "v": [2]}, args=(3, 0.5))
    assert ds.output_shapes == {"i": tf.TensorShape([]), "v": tf.TensorShape([2])}
    assert values(ds) == [{"i": 0, "v": [0.0, 0.0]}, {"i": 1, "v": [0.5, 0.5]}, {"i": 2, "v": [1.0, 1.0]}]
    assert values(ds.repeat(2))[3:] == values(ds)  # the generator restarts on each pass


@pytest.mark.parametrize("element,message", [
    (1, "did not match the expected structure"),
    (("x", 1), "could not be converted to the expected type"),
    (([1, 2], 1), "of shape \\(2,\\) where an element of shape \\(\\) was expected"),
])
def test_from_generator_bad_elements(element, message):
    def gen():
        yield 7, 8
        yield element
    nxt = D.from_generator(gen, (tf.int64, tf.int64), ([], [])).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert sess.run(nxt) == (7, 8)
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            sess.run(nxt)


def test_from_generator_exception_is_propagated():
    def gen():
        yield 1
        raise KeyError("boom")
    nxt = D.from_generator(gen, tf.int64).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert sess.run(nxt) == 1
        with pytest.raises(tf.errors.UnknownError, match="boom"):
            sess.run(nxt)
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(nxt)


def test_list_files(tmp_path):
    for name in ["b.txt", "a.txt", "c.txt", "d.csv"]:
        (tmp_path / name).write_text("x")
    pattern = str(tmp_path / "*.txt")
    ds = D.list_files(pattern, shuffle=False)
    assert ds.output_types == tf.string and ds.output_shapes == tf.TensorShape([])
    expected = [str(tmp_path / n).encode() for n in ["a.txt", "b.txt", "c.txt"]]
    assert values(ds) == expected
    assert sorted(values(D.list_files([pattern], seed=3))) == expected
    nxt = D.list_files(str(tmp_path / "*.none")).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="No files matched pattern"):
            sess.run(nxt)


def test_file_cache_is_reused_across_sessions(tmp_path):
    calls = []

    def record(x):
        calls.append(int(x))
        return x
    prefix = str(tmp_path / "cache")
    ds = D.range(4).map(lambda x: tf.py_func(record, [x], tf.int64)).cache(prefix)
    assert values(ds) == [0, 1, 2, 3]
    assert os.path.exists(prefix + ".index")
    assert values(ds.repeat(2)) == [0, 1, 2, 3] * 2
    assert calls == [0, 1, 2, 3]


def test_partial_file_cache_is_not_kept(tmp_path):
    prefix = str(tmp_path / "cache")
    nxt = D.range(4).cache(prefix).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert sess.run(nxt) == 0
    assert not os.path.exists(prefix + ".index")
    assert os.listdir(tmp_path) == []


def test_file_cache_round_trips_every_dtype_without_pickle(tmp_path):
    prefix = str(tmp_path / "cache")
    strings = [[b"a", "\u00e9t\u00e9".encode("utf-8")], [b"", b"\x00\xff" * 40]]
    ds = D.from_tensor_slices({"s": strings, "f": np.float32([[1.5, -0.0], [np.nan, np.inf]]),
                               "i": np.int64([2 ** 40, -3]), "b": [True, False],
                               "h": np.float16([0.5, 2.0]), "u": np.uint8([0, 255]),
                               "c": np.complex64([1 + 2j, -1j])})
    ds = ds.map(lambda d: dict(d, ragged=tf.range(tf.cast(d["u"] > 0, tf.int32) * 3), empty=tf.zeros([0, 2]),
                               scalar_s=d["s"][0])).cache(prefix)
    first = collect(ds)
    data = open(prefix + ".data-00000-of-00001", "rb").read()
    assert b"NUMPY" not in data and b"pickle" not in data and b"\x80\x04" not in data  # no .npy, no pickle
    again = collect(ds)  # read from the files
    assert len(again) == 2
    for a, b in zip(first, again):
        assert a.keys() == b.keys()
        for k in a:
            assert np.asarray(a[k]).dtype == np.asarray(b[k]).dtype, k
            np.testing.assert_array_equal(a[k], b[k])
    assert again[0]["s"].tolist() == strings[0] and again[1]["scalar_s"] == b""
    assert again[1]["ragged"].tolist() == [0, 1, 2] and again[0]["empty"].shape == (0, 2)


class _Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_a_pickled_cache_file_is_refused_and_runs_no_code(tmp_path):
    prefix = str(tmp_path / "cache")
    marker = str(tmp_path / "pickle-ran")
    # The format tensorweave wrote before: .npy records, pickled for strings.
    with open(prefix + ".data-00000-of-00001", "wb") as f:
        np.save(f, np.array([_Payload(marker)], dtype=object), allow_pickle=True)
    with open(prefix + ".index", "w") as f:
        json.dump({"format": "tensorweave-cache-1", "elements": 1, "components": 1}, f)
    nxt = D.from_tensors(tf.constant(["x"])).cache(prefix).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DataLossError, match="Cache file %s is in an older format that stored Python "
                                                          "objects with pickle, which is not read: delete" % prefix):
            sess.run(nxt)
    assert not os.path.exists(marker)


def _write_cache(prefix, ds):
    assert collect(ds.cache(prefix))  # writes the files


@pytest.mark.parametrize("damage,message", [
    (lambda d: d[:-3], "truncated"),
    (lambda d: b"XXXXXXXX" + d[8:], "not a tensorweave dataset cache"),
    # the shape of the first component made absurd: 2**40 x 3 floats
    (lambda d: d.replace(np.uint64(2).tobytes(), np.uint64(2 ** 40).tobytes(), 1), "2^40|1099511627776"),
])
def test_a_damaged_cache_file_is_a_data_loss_error(tmp_path, damage, message):
    prefix = str(tmp_path / "cache")
    ds = D.from_tensors(np.ones((2, 3), np.float32))
    _write_cache(prefix, ds)
    path = prefix + ".data-00000-of-00001"
    data = open(path, "rb").read()
    open(path, "wb").write(damage(data))
    nxt = ds.cache(prefix).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DataLossError, match="%s.*(%s)" % (path.replace(".", "\\."), message)):
            sess.run(nxt)


@pytest.mark.parametrize("index,message", [
    ("\x00not json", "Cache index .*cache\\.index is damaged"),
    ('{"format": "something-else", "version": 2}', "is not a tensorweave dataset cache index \\(format "
                                                   "'something-else', version 2\\)"),
    ('{"format": "tensorweave-dataset-cache", "version": 2, "elements": 1, "components": 3}',
     "is damaged or belongs to another dataset: 1 elements of 3 components \\(the dataset has 1 components\\)"),
])
def test_a_damaged_cache_index_is_a_data_loss_error(tmp_path, index, message):
    prefix = str(tmp_path / "cache")
    ds = D.from_tensors(np.ones((2, 3), np.float32))
    _write_cache(prefix, ds)
    with open(prefix + ".index", "w") as f:
        f.write(index)
    nxt = ds.cache(prefix).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DataLossError, match=message):
            sess.run(nxt)


@pytest.mark.parametrize("record,message", [
    (b"\x04nope\x00", "component 0 of element 0 has no valid dtype \\(b'nope'\\)"),
    (b"\x07float32\xff", "component 0 of element 0 has rank 255 \\(more than 254\\)"),
    (b"\x07float32\x01" + np.uint64(2 ** 63).tobytes(), "component 0 of element 0 has an impossible shape"),
    (b"\x06string\x01" + np.uint64(1).tobytes() + np.uint64(2 ** 40).tobytes() + b"ab",
     "component 0 of element 0 of shape \\[1\\] needs 1099511627776 bytes but only 2 are left"),
])
def test_a_crafted_cache_record_is_a_data_loss_error(tmp_path, record, message):
    prefix = str(tmp_path / "cache")
    ds = D.from_tensors(np.ones((2, 3), np.float32))
    _write_cache(prefix, ds)
    with open(prefix + ".data-00000-of-00001", "wb") as f:
        f.write(b"TWCACHE2" + record)
    nxt = ds.cache(prefix).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DataLossError, match="Cache file .*cache\\.data-00000-of-00001 is damaged: "
                                                          + message):
            sess.run(nxt)


def test_a_file_cache_of_nested_datasets_is_unimplemented(tmp_path):
    prefix = str(tmp_path / "cache")
    nxt = D.range(4).window(2).cache(prefix).flat_map(lambda w: w).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.UnimplementedError, match="Dataset.cache\\(filename\\) cannot store component 0 "
                                                               "of element 0: only numeric, bool and string tensors"):
            sess.run(nxt)
    assert os.listdir(str(tmp_path)) == []


def test_memory_cache_values_are_protected_from_mutation():
    nxt = D.range(3).map(lambda x: tf.fill([2], x)).cache().repeat(2).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        first = sess.run(nxt)
        first[:] = 99
        rest = [sess.run(nxt).tolist() for _ in range(5)]
    assert rest == [[1, 1], [2, 2], [0, 0], [1, 1], [2, 2]]


def test_sparse_tensor_slices_batch_and_map():
    st = tf.SparseTensor(indices=[[0, 0], [1, 2], [2, 1], [2, 3]], values=[1.0, 2.0, 3.0, 4.0], dense_shape=[3, 4])
    ds = D.from_tensor_slices(st)
    assert isinstance(ds.element_spec, tf.data.SparseTensorSpec)
    assert ds.output_shapes == tf.TensorShape([4])
    got = collect(ds.batch(2))
    assert got[0].indices.tolist() == [[0, 0], [1, 2]] and got[0].values.tolist() == [1.0, 2.0]
    assert got[0].dense_shape.tolist() == [2, 4]
    assert got[1].indices.tolist() == [[0, 1], [0, 3]] and got[1].dense_shape.tolist() == [1, 4]
    dense = D.from_tensor_slices(st).map(lambda s: tf.sparse_tensor_to_dense(s))
    assert values(dense) == [[1.0, 0, 0, 0], [0, 0, 2.0, 0], [0, 3.0, 0, 4.0]]


def test_repr_and_iter_in_graph_mode():
    ds = D.range(3).batch(2)
    assert repr(ds) == "<BatchDataset shapes: (?,), types: tf.int64>"
    with pytest.raises(RuntimeError, match="eager execution"):
        iter(ds)


def test_contrib_data_alias():
    assert tf.contrib.data.Dataset is tf.data.Dataset
    ds = D.range(7).apply(tf.contrib.data.batch_and_drop_remainder(3))
    assert ds.output_shapes.as_list() == [3]
    assert values(ds) == [[0, 1, 2], [3, 4, 5]]


def test_ignore_errors_drops_failed_map_elements():
    def check(v):
        if v % 3 == 1:
            raise ValueError("bad")
        return v
    ds = D.range(8).map(lambda x: tf.py_func(check, [x], tf.int64)).apply(tf.data.experimental.ignore_errors())
    assert values(ds) == [0, 2, 3, 5, 6]


def test_get_single_element():
    el = tf.data.experimental.get_single_element(D.from_tensors((np.int32(3), [1.0, 2.0])))
    with tf.Session() as sess:
        a, b = sess.run(el)
    assert a == 3 and b.tolist() == [1.0, 2.0]
    two = tf.data.experimental.get_single_element(D.range(2))
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="more than one element"):
            sess.run(two)
