"""`tf.data.experimental`: cardinality, scan, take_while, unique, group_by_window,
bucket_by_sequence_length, choose_from_datasets, sample_from_datasets, assert_cardinality,
get_structure, and `tf.data.Options`. Expected values and messages were recorded from TensorFlow 2.21
(`tf.compat.v1`, graph mode; TF 1.x semantics, e.g. `map` makes the cardinality unknown)."""

import collections

import numpy as np
import pytest

import tensorweave as tf
from tests.data import iterator_run

E = tf.data.experimental
R = tf.data.Dataset.range


def run(ds, n=300):
    return iterator_run.run(ds, n)


def err(ds):
    return iterator_run.err(ds, 300)


def card(ds, feed=None):
    c = E.cardinality(ds)
    assert (c.dtype, c.shape.as_list(), c.op.type) == (tf.int64, [], "DatasetCardinality")
    with tf.Session() as s:
        return int(s.run(c, feed))


def test_constants():
    assert (E.AUTOTUNE, E.INFINITE_CARDINALITY, E.UNKNOWN_CARDINALITY) == (-1, -1, -2)
    assert (tf.data.AUTOTUNE, tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY) == (-1, -1, -2)


# Recorded from TF 2.21: (dataset builder, cardinality).
_CARDS = [
    (lambda: R(10), 10), (lambda: R(1, 10, 3), 3), (lambda: R(10, 1, -4), 3), (lambda: R(10, 1), 0),
    (lambda: R(10).batch(3), 4), (lambda: R(10).batch(3, drop_remainder=True), 3), (lambda: R(10).repeat(), -1),
    (lambda: R(10).repeat(3), 30), (lambda: R(0).repeat(), 0), (lambda: R(10).filter(lambda x: x > 2), -2),
    (lambda: R(10).take(3), 3), (lambda: R(10).take(30), 10), (lambda: R(10).repeat().take(30), 30),
    (lambda: R(10).take(-1), 10), (lambda: R(10).skip(3), 7), (lambda: R(10).skip(30), 0),
    (lambda: R(10).repeat().skip(3), -1), (lambda: R(10).skip(-1), 0),
    (lambda: tf.data.Dataset.zip((R(10), R(4))), 4), (lambda: tf.data.Dataset.zip((R(10).repeat(), R(4))), 4),
    (lambda: tf.data.Dataset.zip((R(10).filter(lambda x: True), R(4))), -2),
    (lambda: R(10).concatenate(R(4)), 14), (lambda: R(10).filter(lambda x: True).concatenate(R(4).repeat()), -1),
    (lambda: R(10).repeat().concatenate(R(4).filter(lambda x: True)), -1),
    (lambda: R(10).map(lambda x: x * 2), -2), (lambda: R(10).prefetch(2), 10), (lambda: R(10).shuffle(3), 10),
    (lambda: R(10).cache(), 10), (lambda: tf.data.Dataset.from_tensor_slices(np.zeros((7, 2))), 7),
    (lambda: tf.data.Dataset.from_tensors(np.zeros((7, 2))), 1), (lambda: R(10).shard(3, 1), 3),
    (lambda: R(10).shard(3, 0), 4), (lambda: R(10).flat_map(lambda x: R(2)), -2),
    (lambda: tf.data.Dataset.from_generator(lambda: [1], tf.int64), -2), (lambda: R(10).window(3), 4),
    (lambda: R(10).window(3, drop_remainder=True), 3), (lambda: R(10).window(3, shift=1), 10),
    (lambda: R(10).padded_batch(4, []), 3), (lambda: R(10).batch(2).unbatch(), -2), (lambda: R(10).repeat(0), 0),
    (lambda: R(10).interleave(lambda x: R(2), cycle_length=2), -2),
    (lambda: R(10).apply(E.enumerate_dataset()), 10), (lambda: R(10).apply(E.ignore_errors()), -2),
    (lambda: R(10).filter(lambda x: True).repeat(), -1), (lambda: R(10).filter(lambda x: True).repeat(3), -2),
    (lambda: R(10).filter(lambda x: True).take(3), -2), (lambda: R(10).filter(lambda x: True).skip(3), -2),
    (lambda: R(10).filter(lambda x: True).batch(3), -2), (lambda: R(10).repeat().batch(3), -1),
    (lambda: R(10).apply(E.shuffle_and_repeat(3, 2)), 20), (lambda: R(10).apply(E.map_and_batch(lambda x: x, 3)), 4),
    (lambda: R(10).filter(lambda x: x < 3).apply(E.assert_cardinality(5)), 5),
    (lambda: R(5).apply(E.scan(tf.constant(0, tf.int64), lambda s, x: (s, x))), 5),
    (lambda: E.sample_from_datasets([R(3), R(4)]), -2), (lambda: E.choose_from_datasets([R(3), R(4)], R(2)), -2),
    (lambda: R(3).apply(E.unique()), -2), (lambda: E.CsvDataset("/nonexistent", [[0]]), -2),
    (lambda: tf.data.TextLineDataset("/nonexistent"), -2),
]


@pytest.mark.parametrize("i", range(len(_CARDS)))
def test_cardinality(i):
    make, want = _CARDS[i]
    assert card(make()) == want


def test_cardinality_at_run_time(tmp_path):
    ph = tf.placeholder(tf.float64, [None])
    assert card(tf.data.Dataset.from_tensor_slices(ph), {ph: np.zeros(5)}) == 5
    b = tf.placeholder(tf.int64, [])
    assert card(R(10).batch(b), {b: 4}) == 3
    for n in ("a", "b", "c"):
        (tmp_path / n).write_text("x")
    ds = tf.data.Dataset.list_files(str(tmp_path / "*"))
    assert card(ds) == 3
    with pytest.raises(TypeError):
        E.cardinality(3)


def test_assert_cardinality():
    assert run(R(10).apply(E.assert_cardinality(10))) == list(range(10))
    msg = "Input dataset was expected to contain %s elements but contained %s elements."
    assert err(R(10).apply(E.assert_cardinality(5))) == ("FailedPreconditionError", msg % (5, "at least 6"))
    assert err(R(10).filter(lambda x: x < 3).apply(E.assert_cardinality(5))) == ("FailedPreconditionError",
                                                                                  msg % (5, "only 3"))
    assert err(R(10).apply(E.assert_cardinality(-1))) == (
        "FailedPreconditionError", "Input dataset was expected to contain an infinite number of elements but "
        "contained only 10 elements.")


def test_choose_from_datasets():
    choice = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 0, 0, 1], np.int64))
    assert run(E.choose_from_datasets([R(0, 3), R(10, 13)], choice)) == [0, 10, 11, 1, 2, 12]
    for bad in (5, -1):
        choice = tf.data.Dataset.from_tensor_slices(np.array([0, bad], np.int64))
        assert err(E.choose_from_datasets([R(0, 3), R(10, 13)], choice)) == (
            "InvalidArgumentError", "Selector index out of range: %d >= 2" % bad)
    with pytest.raises(TypeError, match="Elements of `choice_dataset` must be scalar `tf.int64` tensors"):
        E.choose_from_datasets([R(0, 3)], tf.data.Dataset.from_tensor_slices(np.array([0], np.int32)))
    with pytest.raises(TypeError, match="`datasets` must have compatible element specs"):
        E.choose_from_datasets([R(0, 3), R(0, 3).map(lambda x: tf.cast(x, tf.int32))], R(1))
    with pytest.raises(ValueError, match="`datasets` should not be empty"):
        E.choose_from_datasets([], R(2))


def test_sample_from_datasets():
    assert sorted(run(E.sample_from_datasets([R(0, 3), R(10, 13)], seed=3))) == [0, 1, 2, 10, 11, 12]
    assert len(run(E.sample_from_datasets([R(0, 3), R(10, 13)], [0.9, 0.1], seed=3))) == 6
    assert run(E.sample_from_datasets([R(0, 3), R(10, 13)], [1.0, 0.0], seed=3)) == [0, 1, 2]  # TF 2.21 too
    ds = E.sample_from_datasets([R(0, 3), R(10, 13)])
    assert ds.output_shapes.as_list() == [] and ds.output_types == tf.int64
    # Reproducible with a seed; the proportions follow the weights.
    tf.set_random_seed(7)
    mixed = E.sample_from_datasets([tf.data.Dataset.from_tensors(np.int64(0)).repeat(),
                                    tf.data.Dataset.from_tensors(np.int64(1)).repeat()], [0.8, 0.2], seed=5)
    a, b = run(mixed.take(2000)), run(mixed.take(2000))
    assert a == b and abs(np.mean(a) - 0.2) < 0.03
    with pytest.raises(ValueError, match="`len\\(weights\\)=3` vs. `len\\(datasets\\)=2`"):
        E.sample_from_datasets([R(3), R(4)], [0.5, 0.2, 0.3])
    with pytest.raises(ValueError, match="`datasets` should not be empty"):
        E.sample_from_datasets([])


def test_group_by_window():
    ds = R(10).apply(E.group_by_window(lambda x: x % 3, lambda k, w: w.batch(2), window_size=2))
    assert ds.output_shapes.as_list() == [None]
    assert [x.tolist() for x in run(ds)] == [[0, 3], [1, 4], [2, 5], [6, 9], [7], [8]]
    ds = R(12).apply(E.group_by_window(lambda x: x % 2, lambda k, w: w.batch(10), window_size_func=lambda k: k + 2))
    assert [x.tolist() for x in run(ds)] == [[0, 2], [1, 3, 5], [4, 6], [8, 10], [7, 9, 11]]
    ds = R(5).apply(E.group_by_window(lambda x: x % 2, lambda k, w: w.map(lambda v: v * 100 + k), 2))
    assert run(ds) == [0, 200, 101, 301, 400]
    for args in ((2, lambda k: k), (None, None)):
        with pytest.raises(ValueError, match="Either the `window_size` argument or the `window_size_func` argument"):
            E.group_by_window(lambda x: x % 2, lambda k, w: w, *args)
    with pytest.raises(ValueError):
        R(3).apply(E.group_by_window(lambda x: tf.cast(x % 2, tf.int32), lambda k, w: w, 2))


def _sequences():
    data = [[1], [2, 2], [3, 3, 3], [4, 4, 4, 4], [5] * 5, [6] * 6, [1], [7] * 7]
    return tf.data.Dataset.from_generator(lambda: iter(data), tf.int64, [None])


def test_bucket_by_sequence_length():
    b = _sequences().apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2, 2]))
    assert b.output_shapes.as_list() == [None, None]
    assert [x.tolist() for x in run(b)] == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]],
                                            [[5, 5, 5, 5, 5, 0], [6, 6, 6, 6, 6, 6]], [[1]], [[7] * 7]]
    b = _sequences().take(5).apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [2, 2],
                                                               drop_remainder=True))
    assert [x.tolist() for x in run(b)] == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]]
    b = _sequences().take(6).apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 8], [2, 2, 2],
                                                               pad_to_bucket_boundary=True))
    assert [x.tolist() for x in run(b)] == [[[1, 0], [2, 2]], [[3, 3, 3, 0, 0, 0, 0], [4, 4, 4, 4, 0, 0, 0]],
                                            [[5, 5, 5, 5, 5, 0, 0], [6, 6, 6, 6, 6, 6, 0]]]
    b = _sequences().apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2, 2],
                                                       pad_to_bucket_boundary=True, padding_values=np.int64(-1)))
    cls, msg = err(b)
    assert cls == "InvalidArgumentError" and "elements must have length < max(bucket_boundaries)" in msg
    b = _sequences().map(lambda x: (x, tf.size(x))).apply(
        E.bucket_by_sequence_length(lambda x, n: n, [3], [2, 3]))
    assert [(a.tolist(), n.tolist()) for a, n in run(b)] == [
        ([[1, 0], [2, 2]], [1, 2]), ([[3, 3, 3, 0, 0], [4, 4, 4, 4, 0], [5, 5, 5, 5, 5]], [3, 4, 5]), ([[1]], [1]),
        ([[6, 6, 6, 6, 6, 6, 0], [7] * 7], [6, 7])]
    with pytest.raises(ValueError, match="`len\\(bucket_batch_sizes\\)` must equal `len\\(bucket_boundaries\\) \\+ 1`"):
        R(3).apply(E.bucket_by_sequence_length(lambda x: x, [3, 5], [2, 2]))


def test_scan():
    assert run(R(5).apply(E.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10)))) == [0, 0, 10, 30, 60]
    ds = tf.data.Dataset.from_tensor_slices((np.arange(3), np.arange(3) * 2)).apply(
        E.scan((tf.constant(0, tf.int64), tf.constant(1.0)), lambda s, x: ((s[0] + x[0], s[1] * 2.0), x[1] + s[0])))
    assert run(ds) == [0, 2, 5]
    ds = R(3).apply(E.scan(tf.constant([], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), s)))
    assert ds.output_shapes.as_list() == [None]  # the state's shape is relaxed
    assert [x.tolist() for x in run(ds)] == [[], [0], [0, 1]]
    with pytest.raises(TypeError, match="The element types for the new state must match the initial state"):
        R(3).apply(E.scan(tf.constant(0, tf.int32), lambda s, x: (x, x)))


def test_take_while_and_unique():
    assert run(R(10).apply(E.take_while(lambda x: x < 4))) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="`predicate` must return a `tf.bool` scalar tensor"):
        R(10).apply(E.take_while(lambda x: x))
    assert run(tf.data.Dataset.from_tensor_slices(np.array([3, 1, 3, 2, 1, 5])).apply(E.unique())) == [3, 1, 2, 5]
    assert run(tf.data.Dataset.from_tensor_slices(np.array([b"a", b"b", b"a"])).apply(E.unique())) == [b"a", b"b"]
    got = run(tf.data.Dataset.from_tensor_slices(np.array([[1, 2], [1, 2], [2, 1]])).apply(E.unique()))
    assert [x.tolist() for x in got] == [[1, 2], [2, 1]]
    with pytest.raises(TypeError, match="does not support type tf.float64 -- only `tf.int32`, `tf.int64`, and "
                                        "`tf.string` are supported."):
        tf.data.Dataset.from_tensor_slices(np.array([1.0])).apply(E.unique())


def test_get_structure():
    assert E.get_structure(R(3)) == tf.TensorSpec([], tf.int64)
    it = R(3).make_one_shot_iterator()
    assert E.get_structure(it) == tf.TensorSpec([], tf.int64)
    with pytest.raises(TypeError):
        E.get_structure(3)


def test_options():
    o = tf.data.Options()
    assert (o.experimental_deterministic, o.experimental_optimization.apply_default_optimizations,
            o.experimental_threading.private_threadpool_size, o.experimental_distribute.auto_shard_policy,
            o.experimental_external_state_policy, o.experimental_slack) == (
        None, None, None, E.AutoShardPolicy.AUTO, None, None)
    o1 = tf.data.Options()
    o1.experimental_threading.private_threadpool_size = 3
    o2 = tf.data.Options()
    o2.experimental_deterministic = False
    ds = R(3).with_options(o1).map(lambda x: x).with_options(o2)
    got = ds.options()
    assert (got.experimental_threading.private_threadpool_size, got.experimental_deterministic) == (3, False)
    assert run(ds) == [0, 1, 2] and R(3).options() == tf.data.Options()
    o3 = tf.data.Options()
    o3.experimental_deterministic = True
    assert R(3).with_options(o3).with_options(o2).options().experimental_deterministic is False
    assert o3.merge(o2).experimental_deterministic is False
    with pytest.raises(AttributeError, match="Cannot set the property foo on Options."):
        tf.data.Options().foo = 1
    with pytest.raises(TypeError, match='Property "experimental_deterministic" must be of type <class \'bool\'>, '
                                        "got: 3"):
        tf.data.Options().experimental_deterministic = 3
    with pytest.raises(TypeError):
        R(3).with_options(3)
    assert [p.value for p in E.AutoShardPolicy] == [-1, 0, 1, 2, 3]
    assert [p.name for p in E.ExternalStatePolicy] == ["WARN", "IGNORE", "FAIL"]
    opt = E.OptimizationOptions()
    opt.map_fusion = True
    assert opt.map_fusion and "map_fusion" in dir(opt)
    assert isinstance(tf.data.ThreadingOptions(), E.ThreadingOptions)
    d = E.DistributeOptions()
    d.auto_shard_policy = E.AutoShardPolicy.OFF
    assert d.auto_shard_policy == E.AutoShardPolicy.OFF


def test_numpy_iterator():
    from tensorweave.eager import context
    with pytest.raises(RuntimeError, match="only supported in eager mode"):
        R(3).as_numpy_iterator()
    with context.eager_mode():
        ds = tf.data.Dataset.from_tensor_slices({"a": np.arange(2), "s": np.array([b"x", b"y"])})
        it = ds.as_numpy_iterator()
        assert isinstance(it, tf.data.NumpyIterator)
        got = list(it)
        assert got == [{"a": 0, "s": b"x"}, {"a": 1, "s": b"y"}] and isinstance(got[0]["a"], np.int64)


def test_with_options_keeps_collections_ordered_dict():
    ds = tf.data.Dataset.from_tensors(collections.OrderedDict([("b", 1), ("a", 2)])).with_options(tf.data.Options())
    assert list(ds.output_types) == ["b", "a"]




def test_from_list():
    # TF 2.21: [(1, b'a'), (2, b'b'), (3, b'c')] and [array([1]), array([2, 3])] (int32).
    got = run(E.from_list([(1, "a"), (2, "b"), (3, "c")]))
    assert got == [(1, b"a"), (2, b"b"), (3, b"c")] and got[0][0].dtype == np.int32
    ds = E.from_list([[1], [2, 3]])
    assert ds.output_shapes.as_list() == [None]
    assert [x.tolist() for x in run(ds)] == [[1], [2, 3]]
    with pytest.raises(ValueError, match="`elements` should not be empty"):
        E.from_list([])


def test_group_by_reducer():
    red = E.Reducer(lambda k: np.int64(0), lambda s, x: s + x, lambda s: s * 10)
    assert run(R(10).map(lambda x: (x * 7) % 10).apply(E.group_by_reducer(lambda x: x % 3, red))) == [180, 120, 150]
    counts = E.Reducer(lambda k: k * 100, lambda s, x: s + 1, lambda s: s)
    ds = tf.data.Dataset.from_tensor_slices(np.array([5, 1, 9, 5, 1], np.int64))
    assert run(ds.apply(E.group_by_reducer(lambda x: x, counts))) == [102, 502, 901]  # key order, as TF
    assert run(R(6).apply(E.group_by_reducer(lambda x: -x % 3 - 1, red))) == [30, 70, 50]
    grow = E.Reducer(lambda k: tf.constant([], tf.int64), lambda s, x: tf.concat([s, [x]], 0), lambda s: s)
    ds = R(6).apply(E.group_by_reducer(lambda x: x % 2, grow))
    assert ds.output_shapes.as_list() == [None]
    assert [x.tolist() for x in run(ds)] == [[0, 2, 4], [1, 3, 5]]
    pair = E.Reducer(lambda k: (np.int64(0), np.int64(1)), lambda s, x: (s[0] + x, s[1] * (x + 1)),
                     lambda a, b: a + b)  # a tuple state reaches finalize_func as positional arguments
    assert run(R(6).apply(E.group_by_reducer(lambda x: x % 2, pair))) == [6 + 15, 9 + 48]
    with pytest.raises(ValueError, match="Expected `key_func` to return a scalar tf.int64 tensor"):
        R(6).apply(E.group_by_reducer(lambda x: tf.cast(x, tf.int32), red))
    with pytest.raises(TypeError, match="The element types for the new state tf.int32 do not match"):
        R(6).apply(E.group_by_reducer(lambda x: x, E.Reducer(lambda k: np.int64(0), lambda s, x: tf.cast(s, tf.int32),
                                                             lambda s: s)))


def _sp(x):
    return (x.indices.tolist(), x.values.tolist(), x.dense_shape.tolist())


def test_dense_to_sparse_batch():
    el = tf.data.Dataset.from_generator(lambda: iter([[1], [2, 3], [4, 5, 6], []]), tf.int64, [None])
    ds = el.apply(E.dense_to_sparse_batch(2, [4]))
    assert ds.output_shapes.as_list() == [None, 4] and ds.output_classes is tf.SparseTensor
    assert [_sp(x) for x in run(ds)] == [([[0, 0], [1, 0], [1, 1]], [1, 2, 3], [2, 4]),
                                         ([[0, 0], [0, 1], [0, 2]], [4, 5, 6], [2, 4])]
    got = [_sp(x) for x in run(tf.data.Dataset.from_tensor_slices(np.arange(12).reshape(3, 2, 2)).apply(
        E.dense_to_sparse_batch(2, [3, 2])))]
    assert got == [([[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]],
                    list(range(8)), [2, 3, 2]),
                   ([[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1]], [8, 9, 10, 11], [1, 3, 2])]
    got = [_sp(x) for x in run(tf.data.Dataset.from_tensor_slices(np.array([[b"a", b""]])).apply(
        E.dense_to_sparse_batch(2, [3])))]
    assert got == [([[0, 0], [0, 1]], [b"a", b""], [1, 3])]
    assert [_sp(x) for x in run(R(3).apply(E.dense_to_sparse_batch(2, [])))] == [([[0], [1]], [0, 1], [2]),
                                                                                ([[0]], [2], [1])]
    assert err(el.apply(E.dense_to_sparse_batch(2, [2]))) == (
        "DataLossError", "Input element had shape ([3]) that is larger than the row shape ([2]).")
    assert err(el.apply(E.dense_to_sparse_batch(2, [2, 2]))) == (
        "InvalidArgumentError", "Input element had shape ([1]) that is incompatible with the row shape ([2,2]).")
    with pytest.raises(ValueError):
        el.apply(E.dense_to_sparse_batch(3, [-1]))


def test_autotune_options():
    # TF 2.21: AutotuneOptions() has every property None; the enum values are 0..4.
    o = E.AutotuneOptions()
    assert (o.enabled, o.cpu_budget, o.ram_budget, o.autotune_algorithm) == (None, None, None, None)
    assert [a.value for a in E.AutotuneAlgorithm] == [0, 1, 2, 3, 4]
    opts = tf.data.Options()
    opts.autotune.enabled = False
    opts.autotune.autotune_algorithm = E.AutotuneAlgorithm.HILL_CLIMB
    got = R(3).with_options(opts).options().autotune
    assert (got.enabled, got.autotune_algorithm) == (False, E.AutotuneAlgorithm.HILL_CLIMB)
    with pytest.raises(TypeError):
        opts.autotune.cpu_budget = "x"


def test_get_next_as_optional_graph():
    ds = R(2).map(lambda x: (x, tf.cast(x, tf.float32) * 2))
    it = ds.make_initializable_iterator()
    opt = E.get_next_as_optional(it)
    assert isinstance(opt, E.Optional) and opt.element_spec == ds.element_spec
    assert opt.value_structure == ds.element_spec
    has, value = opt.has_value(), opt.get_value()
    with tf.Session() as s:
        s.run(it.initializer)
        assert s.run([has, value]) == [True, (0, 0.0)]
        assert s.run([has, value]) == [True, (1, 2.0)]
        assert not s.run(has)  # the end: an empty optional, no OutOfRangeError
        with pytest.raises(tf.errors.InvalidArgumentError, match="The optional variant does not have a value."):
            s.run(value)


def test_optional_from_value_and_empty():
    o = E.Optional.from_value({"a": tf.constant([1.0, 2.0]), "b": 3})
    e = E.Optional.empty(tf.TensorSpec([], tf.int32))
    e1 = E.Optional.none_from_structure(tf.TensorSpec([], tf.int32))
    with tf.Session() as s:
        has, value, none, none1 = s.run([o.has_value(), o.get_value(), e.has_value(), e1.has_value()])
    assert has and not none and not none1 and value["b"] == 3 and value["a"].tolist() == [1.0, 2.0]
    x = tf.constant([1.0, 2.0])
    (g,) = tf.gradients(tf.reduce_sum(E.Optional.from_value(x).get_value() * 3.0), x)
    with tf.Session() as s:
        assert s.run(g).tolist() == [3.0, 3.0]
    assert E.OptionalStructure(tf.TensorSpec([], tf.int32)) == o._type_spec.__class__(tf.TensorSpec([], tf.int32))


def test_get_next_as_optional_eager():
    from tensorweave.eager import context
    with context.eager_mode():
        it = iter(R(1))
        first, second = E.get_next_as_optional(it), E.get_next_as_optional(it)
        assert first.has_value().numpy() and first.get_value().numpy() == 0
        assert not second.has_value().numpy()


def _resampled(ds):
    out = run(ds, 10000)
    cls = np.array([c for c, _ in out])
    data = np.array([d for _, d in out])
    return len(out), np.bincount(cls, minlength=2) / len(out), bool((cls == data).all())


def test_rejection_resample():
    # TF 2.21 on the same 4000 elements: (2164, [0.491, 0.509]) with initial_dist, (2201, [0.498, 0.502])
    # estimated, and all 4000 elements when the target equals the initial distribution.
    elems = np.random.RandomState(0).choice(2, size=4000, p=[0.8, 0.2]).astype(np.int32)
    ds = tf.data.Dataset.from_tensor_slices(elems)
    n, dist, paired = _resampled(ds.apply(E.rejection_resample(lambda x: x, [0.5, 0.5], initial_dist=[0.8, 0.2],
                                                               seed=1)))
    assert 2000 < n < 2400 and abs(dist[0] - 0.5) < 0.04 and paired
    n, dist, paired = _resampled(ds.apply(E.rejection_resample(lambda x: x, [0.5, 0.5], seed=1)))
    assert 2000 < n < 2500 and abs(dist[0] - 0.5) < 0.04 and paired
    n, dist, paired = _resampled(ds.apply(E.rejection_resample(lambda x: x, [0.8, 0.2], initial_dist=[0.8, 0.2])))
    assert n == 4000 and paired
    shapes = ds.apply(E.rejection_resample(lambda x: x, [0.5, 0.5], seed=1)).output_shapes
    assert [s.as_list() for s in shapes] == [[], []]


def test_sample_from_datasets_with_weight_dataset_and_stop_on_empty():
    weights = tf.data.Dataset.from_tensor_slices(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]], np.float32))
    assert run(E.sample_from_datasets([R(0, 5), R(10, 15)], weights, seed=1)) == [0, 10, 1]
    assert run(E.sample_from_datasets([R(0, 1), R(10, 15)], [1.0, 0.0], seed=1, stop_on_empty_dataset=True)) == [0]
    with pytest.raises(TypeError, match="The element spec of `weights` should be compatible"):
        E.sample_from_datasets([R(3), R(3)], R(2))


def test_pad_to_cardinality():
    from tensorweave.eager import context
    with context.eager_mode():
        ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "s": ["x", "y"], "v": [[1.0, 2.0], [3.0, 4.0]]})
        got = list(ds.apply(E.pad_to_cardinality(4)).as_numpy_iterator())
        assert [(g["a"], g["s"], g["v"].tolist(), g["valid"]) for g in got] == [  # TF 2.21
            (1, b"x", [1.0, 2.0], True), (2, b"y", [3.0, 4.0], True), (0, b"", [0.0, 0.0], False),
            (0, b"", [0.0, 0.0], False)]
        for bad, msg in ((ds.repeat(), "must have a known cardinalty, but has cardinality -1"),
                         (ds.filter(lambda x: True), "must have a known cardinalty, but has cardinality -2"),
                         (ds, r"less than the target cardinality \(1\), but has cardinality 2")):
            with pytest.raises(ValueError, match=msg):
                bad.apply(E.pad_to_cardinality(1))
        with pytest.raises(ValueError, match="requires its input dataset to be a dictionary"):
            R(3).apply(E.pad_to_cardinality(4))
    ds = tf.data.Dataset.from_tensor_slices({"a": np.arange(3)}).apply(E.pad_to_cardinality(5))  # graph mode
    assert [(int(x["a"]), bool(x["valid"])) for x in run(ds)] == [(0, True), (1, True), (2, True), (0, False),
                                                                  (0, False)]


def _lookup(table, q):
    with tf.Session() as s:
        s.run(table.initializer)
        return s.run(table.lookup(tf.constant(q))).tolist()


def test_tables_from_datasets():
    pytest.importorskip("farmhash")
    keys = tf.data.Dataset.from_tensor_slices(np.array([b"a", b"b", b"c"]))
    vals = R(3).map(lambda x: x * 10)
    pairs = tf.data.Dataset.zip((keys, vals))
    # TF 2.21 results for the same lookups.
    assert _lookup(tf.lookup.StaticHashTable(E.DatasetInitializer(pairs), -1), [b"a", b"c", b"z"]) == [0, 20, -1]
    assert _lookup(E.table_from_dataset(pairs), [b"a", b"c", b"z"]) == [0, 20, -1]
    assert _lookup(E.table_from_dataset(pairs, num_oov_buckets=3), [b"a", b"c", b"z", b"q"]) == [0, 20, 4, 5]
    assert _lookup(E.index_table_from_dataset(keys), [b"a", b"c", b"z"]) == [0, 2, -1]
    assert _lookup(E.index_table_from_dataset(keys, num_oov_buckets=2), [b"a", b"c", b"z", b"q"]) == [0, 2, 4, 4]
    assert _lookup(E.index_table_from_dataset(keys, vocab_size=2), [b"a", b"c", b"z"]) == [0, -1, -1]
    ints = tf.data.Dataset.from_tensor_slices(np.array([7, 3], np.int64))
    assert _lookup(E.index_table_from_dataset(ints, key_dtype=tf.int64), np.array([3, 7, 5], np.int64)) == [1, 0, -1]
    assert _lookup(E.index_table_from_dataset(ints, num_oov_buckets=4, key_dtype=tf.int64),
                   np.array([3, 7, 5, 100], np.int64)) == [1, 0, 5, 5]


def test_tables_from_datasets_errors():
    keys = tf.data.Dataset.from_tensor_slices(np.array([b"a", b"b", b"c"]))
    vals = R(3)
    with pytest.raises(ValueError, match="produces 3 components instead of two"):
        E.DatasetInitializer(tf.data.Dataset.zip((keys, vals, vals)))
    with pytest.raises(ValueError, match="produces non-scalar key Tensors of rank 1"):
        E.DatasetInitializer(tf.data.Dataset.zip((keys.batch(2), vals)))
    with pytest.raises(ValueError, match="`default_value` must be specified"):
        E.table_from_dataset(tf.data.Dataset.zip((vals, keys)), key_dtype=tf.int64)
    with pytest.raises(ValueError, match="`num_oov_buckets` must be greater than or equal to 0, got -1."):
        E.table_from_dataset(tf.data.Dataset.zip((keys, vals)), num_oov_buckets=-1)
    with pytest.raises(ValueError, match="`vocab_size` must be greater than 0, got 0."):
        E.table_from_dataset(tf.data.Dataset.zip((keys, vals)), vocab_size=0)
    with pytest.raises(TypeError, match="`key_dtype` must be either an integer or string type"):
        E.table_from_dataset(tf.data.Dataset.zip((keys, vals)), key_dtype=tf.float32)
    table = tf.lookup.StaticHashTable(E.DatasetInitializer(tf.data.Dataset.zip((keys, vals)).take(0)), -1)
    with tf.Session() as s, pytest.raises(tf.errors.InvalidArgumentError):
        s.run(table.initializer)
