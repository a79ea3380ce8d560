"""Segment ops: values, static shapes, errors and gradients recorded from TensorFlow 2.21
(`tf.compat.v1`, graph mode). The op table (tests/ops/op_table/rows_segment_scatter.py) checks them
against NumPy references."""

import numpy as np
import pytest

import tensorweave as tf

DATA = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


@pytest.mark.parametrize("name,expected", [
    ("segment_sum", [[4.0, 6.0], [0.0, 0.0], [5.0, 6.0]]),
    ("segment_mean", [[2.0, 3.0], [0.0, 0.0], [5.0, 6.0]]),
    ("segment_prod", [[3.0, 8.0], [1.0, 1.0], [5.0, 6.0]]),
    ("segment_min", [[1.0, 2.0], [0.0, 0.0], [5.0, 6.0]]),
    ("segment_max", [[3.0, 4.0], [0.0, 0.0], [5.0, 6.0]]),
])
def test_segment_values_and_shape(name, expected):
    out = getattr(tf.math, name)(tf.constant(DATA), [0, 0, 2])
    assert out.shape.as_list() == [None, 2]
    assert getattr(tf, name) is getattr(tf.math, name)
    np.testing.assert_array_equal(_run(out), expected)


F32_MAX = float(np.finfo(np.float32).max)


@pytest.mark.parametrize("name,gap,neg", [
    ("unsorted_segment_sum", [[4, 6], [0, 0], [0, 0], [5, 6]], [[8, 10], [0, 0]]),
    ("unsorted_segment_prod", [[3, 8], [1, 1], [1, 1], [5, 6]], [[15, 24], [1, 1]]),
    ("unsorted_segment_min", [[1, 2], [F32_MAX] * 2, [F32_MAX] * 2, [5, 6]], [[3, 4], [F32_MAX] * 2]),
    ("unsorted_segment_max", [[3, 4], [-F32_MAX] * 2, [-F32_MAX] * 2, [5, 6]], [[5, 6], [-F32_MAX] * 2]),
    ("unsorted_segment_mean", [[2, 3], [0, 0], [0, 0], [5, 6]], [[4, 5], [0, 0]]),
    ("unsorted_segment_sqrt_n", [[2.8284270763397217, 4.242640972137451], [0, 0], [0, 0], [5, 6]],
     [[5.656854152679443, 7.071067810058594], [0, 0]]),
])
def test_unsorted_segment_values(name, gap, neg):
    f = getattr(tf.math, name)
    a, b = f(tf.constant(DATA), [0, 0, 3], 4), f(tf.constant(DATA), [-1, 0, 0], 2)
    assert a.shape.as_list() == [4, 2] and b.shape.as_list() == [2, 2]
    np.testing.assert_allclose(_run(a), gap, rtol=1e-7)
    np.testing.assert_allclose(_run(b), neg, rtol=1e-7)


def test_integer_cases():
    ints = tf.constant([[1, 2], [3, 4], [5, 6]])
    np.testing.assert_array_equal(_run(tf.math.unsorted_segment_min(ints, [0, 0, 3], 4)),
                                  [[1, 2], [2147483647] * 2, [2147483647] * 2, [5, 6]])
    mean = tf.math.unsorted_segment_mean(ints, [0, 0, 3], 4)
    assert mean.dtype == tf.float64
    np.testing.assert_array_equal(_run(mean), [[2, 3], [0, 0], [0, 0], [5, 6]])
    # C++ integer division (toward zero), on the wrapped int32 sum.
    np.testing.assert_array_equal(_run(tf.math.segment_mean(tf.constant([1, 2, -3, -4, 5]), [0, 0, 1, 1, 2])),
                                  [1, -3, 5])
    np.testing.assert_array_equal(
        _run(tf.math.segment_mean(tf.constant([-1, 0, -2 ** 31], tf.int32), [0, 0, 0])), [715827882])
    np.testing.assert_array_equal(_run(tf.math.segment_prod(tf.constant([100, 100, 100], tf.int8), [0, 0, 0])), [64])
    np.testing.assert_array_equal(_run(tf.math.segment_max(tf.constant([1, 2, 3]), [0, 0, 2])), [2, 0, 3])
    np.testing.assert_array_equal(_run(tf.math.unsorted_segment_sum(tf.constant(DATA), [[0, 1], [1, 1], [0, 2]], 3)),
                                  [6.0, 9.0, 6.0])


def test_static_shapes():
    x = tf.placeholder(tf.float32, [3, None, 2])
    assert tf.math.segment_sum(x, [0, 0, 1]).shape.as_list() == [None, None, 2]
    assert tf.math.segment_sum(x, tf.placeholder(tf.int32)).shape.as_list() == [None, None, 2]
    assert tf.math.unsorted_segment_sum(x, tf.placeholder(tf.int32, [3, None]), 5).shape.as_list() == [5, 2]
    assert tf.math.unsorted_segment_sum(x, tf.placeholder(tf.int32, [3, None]),
                                        tf.placeholder(tf.int32, [])).shape.as_list() == [None, 2]
    assert tf.math.unsorted_segment_sum(x, tf.placeholder(tf.int32), 5).shape.ndims is None
    assert tf.math.unsorted_segment_mean(x, tf.placeholder(tf.int32, [3]), 5).shape.as_list() == [5, None, 2]


def _ids(v):
    return tf.placeholder_with_default(v, [None])


@pytest.mark.parametrize("build,message", [
    (lambda d: tf.math.segment_sum(d, _ids([1, 0, 2])), "segment ids are not increasing"),
    (lambda d: tf.math.segment_max(d, _ids([0, 2, 1])), "segment ids are not increasing"),
    (lambda d: tf.math.segment_sum(d, _ids([-1, 0, 0])),
     "Segment id -1 out of range [0, 1), possibly because 'segment_ids' input is not sorted."),
    (lambda d: tf.math.segment_mean(d, _ids([0, 0])), "segment_ids should be the same size as dimension 0 of input."),
    (lambda d: tf.math.segment_sum(d, [0, 0]), "segment_ids should be the same size as dimension 0 of input."),
    (lambda d: tf.math.unsorted_segment_sum(d, _ids([0, 5, 0]), 2), "segment_ids[1] = 5 is out of range [0, 2)"),
    (lambda d: tf.math.unsorted_segment_max(d, _ids([0, 1, 0]), tf.placeholder_with_default(-1, [])),
     "Input num_segments == -1 must not be negative."),
    (lambda d: tf.math.unsorted_segment_sum(d, _ids([0, 1]), 2),
     "data.shape = [3,2] does not start with segment_ids.shape = [2]"),
])
def test_runtime_errors(build, message):
    out = build(tf.constant(DATA))
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        _run(out)
    assert message in str(e.value)
    assert out.op.name in str(e.value)


@pytest.mark.parametrize("build,error,message", [
    (lambda: tf.math.segment_sum(tf.zeros([3, 2]), [[0, 0, 1]]), ValueError, "Shape must be rank 1 but is rank 2"),
    (lambda: tf.math.segment_sum(tf.zeros([]), [0]), ValueError, "Shape must be at least rank 1 but is rank 0"),
    (lambda: tf.math.unsorted_segment_sum(tf.zeros([3, 2]), [0, 0], 3), ValueError,
     "Dimensions must be equal, but are 3 and 2"),
    (lambda: tf.math.unsorted_segment_sum(tf.zeros([3, 2]), [0, 0, 1], [3]), ValueError,
     "Shape must be rank 0 but is rank 1"),
    (lambda: tf.math.segment_sum(tf.zeros([3, 2]), [0.0, 0, 1]), TypeError,
     "Value passed to parameter 'segment_ids' has DataType float32 not in list of allowed values: int32, int64"),
    (lambda: tf.math.segment_sum(tf.zeros([3, 2], tf.bool), [0, 0, 1]), TypeError,
     "Value passed to parameter 'data' has DataType bool not in list"),
    (lambda: tf.math.segment_max(tf.zeros([3, 2], tf.complex64), [0, 0, 1]), TypeError,
     "Value passed to parameter 'data' has DataType complex64 not in list"),
    (lambda: tf.math.unsorted_segment_max(tf.zeros([3, 2], tf.complex64), [0, 0, 1], 2), TypeError,
     "Value passed to parameter 'data' has DataType complex64 not in list"),
    (lambda: tf.math.unsorted_segment_sqrt_n(tf.constant([[1, 2]]), [0], 2), TypeError,
     "has DataType int32 not in list"),
])
def test_static_errors(build, error, message):
    with pytest.raises(error) as e:
        build()
    assert message in str(e.value)


X = [[1.0, 2.0], [1.0, 4.0], [5.0, 6.0]]
Z = [[0.0, 2.0], [0.0, 4.0], [5.0, 0.0]]


@pytest.mark.parametrize("build,x,expected", [
    (lambda x: tf.math.segment_max(x, [0, 0, 1]) * [[1.0, 2.0]], DATA, [[0, 0], [1, 2], [1, 2]]),
    (lambda x: tf.math.segment_max(x, [0, 0, 1]), X, [[0.5, 0], [0.5, 1], [1, 1]]),  # ties share
    (lambda x: tf.math.unsorted_segment_max(x, [0, 0, -1], 2), X, [[0.5, 0], [0.5, 1], [0, 0]]),
    (lambda x: tf.math.unsorted_segment_sum(x, [0, -1, 1], 2) * [[1.0, 2.0], [3.0, 4.0]], X, [[1, 2], [0, 0], [3, 4]]),
    (lambda x: tf.math.segment_prod(x, [0, 0, 0]), Z, [[0, 0], [0, 0], [0, 8]]),
    (lambda x: tf.math.unsorted_segment_prod(x, [0, 0, -1], 2), Z, [[0, 4], [0, 2], [0, 0]]),
    (lambda x: tf.math.segment_mean(x, [0, 0, 1]), X, [[0.5, 0.5], [0.5, 0.5], [1, 1]]),
])
def test_gradients_match_tf(build, x, expected):
    xt = tf.constant(x)
    (g,) = tf.gradients(build(xt), xt)
    np.testing.assert_allclose(_run(g), expected, rtol=1e-7)


def test_eager():
    from tensorweave.eager import context
    with context.eager_mode():
        out = tf.math.segment_sum(tf.constant(DATA), [0, 0, 2])
        np.testing.assert_array_equal(out.numpy(), [[4.0, 6.0], [0.0, 0.0], [5.0, 6.0]])
        with pytest.raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing"):
            tf.math.segment_sum(tf.constant(DATA), [1, 0, 2])


def test_float32_bitwise_against_tf():
    """Summation order and 1/N scaling as TF's kernels (tests/data/make_segment_ops_tf.py)."""
    import pathlib
    r = np.load(pathlib.Path(__file__).parents[1] / "data" / "segment_ops_tf.npz")
    d, ids, idx, uids = r["d"], r["ids"], r["idx"], r["uids"]
    got = _run({"sparse_mean": tf.sparse.segment_mean(d, idx, ids),
                "sparse_sqrt_n": tf.sparse.segment_sqrt_n(d, idx, ids),
                "sparse_sum": tf.sparse.segment_sum(d, idx, ids), "segment_mean": tf.math.segment_mean(d, ids),
                "segment_sum": tf.math.segment_sum(d, ids), "segment_prod": tf.math.segment_prod(d, ids),
                "unsorted_sum": tf.math.unsorted_segment_sum(d, uids, 12),
                "unsorted_mean": tf.math.unsorted_segment_mean(d, uids, 12),
                "unsorted_sqrt_n": tf.math.unsorted_segment_sqrt_n(d, uids, 12)})
    for key, value in got.items():
        np.testing.assert_array_equal(value, r[key], err_msg=key)


def test_sparse_segment_values_shapes_and_gradients():
    d = tf.constant(DATA)
    cases = [
        (tf.sparse.segment_sum(d, [0, 2, 1], [0, 0, 2]), [None, 2], [[6, 8], [0, 0], [3, 4]]),
        (tf.sparse.segment_mean(d, [0, 2, 1], [0, 0, 2]), [None, 2], [[3, 4], [0, 0], [3, 4]]),
        (tf.sparse.segment_sqrt_n(d, [0, 2, 1], [0, 0, 2]), [None, 2],
         [[4.242640495300293, 5.656854152679443], [0, 0], [3, 4]]),
        (tf.sparse.segment_sum(d, [0, 2, 1], [0, 0, 2], num_segments=4), [4, 2], [[6, 8], [0, 0], [3, 4], [0, 0]]),
        (tf.sparse_segment_mean(d, [0, 2, 1], [0, 0, 2], num_segments=4), [4, 2], [[3, 4], [0, 0], [3, 4], [0, 0]]),
    ]
    assert [c[0].op.type for c in cases] == ["SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN",
                                             "SparseSegmentSumWithNumSegments", "SparseSegmentMeanWithNumSegments"]
    for out, static, expected in cases:
        assert out.shape.as_list() == static
        np.testing.assert_array_equal(_run(out), np.float32(expected))
    w = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    grads = [tf.gradients(f(d, [0, 2, 0], [0, 0, 2]) * w, d)[0]
             for f in (tf.sparse.segment_sum, tf.sparse.segment_mean, tf.sparse.segment_sqrt_n)]
    np.testing.assert_allclose(_run(grads[0]), [[6, 8], [0, 0], [1, 2]])
    np.testing.assert_allclose(_run(grads[1]), [[5.5, 7], [0, 0], [0.5, 1]])
    np.testing.assert_allclose(_run(grads[2]), [[5.707106590270996, 7.41421365737915], [0, 0],
                                                [0.7071067690849304, 1.4142135381698608]], rtol=1e-6)
    x = tf.placeholder(tf.float32, [3, None, 2])
    assert tf.sparse.segment_sum(x, tf.placeholder(tf.int32, [4]), [0, 0, 1, 1]).shape.as_list() == [None, None, 2]
    assert tf.sparse.segment_sum(x, tf.placeholder(tf.int32, [4]), [0, 0, 1, 1],
                                 num_segments=7).shape.as_list() == [7, None, 2]


@pytest.mark.parametrize("build,message", [
    (lambda d: tf.sparse.segment_sum(d, [0, 2, 1], _ids([1, 0, 2])), "segment ids are not increasing"),
    (lambda d: tf.sparse.segment_sum(d, _ids([0, 3, 1]), [0, 0, 2]), "Bad: indices[1] == 3 out of range [0, 3)"),
    (lambda d: tf.sparse.segment_sum(d, _ids([0, -1, 1]), [0, 0, 2]), "Bad: indices[1] == -1 out of range [0, 3)"),
    (lambda d: tf.sparse.segment_sum(d, [0, 2, 1], _ids([-1, 0, 0])),
     "Segment id -1 out of range [0, 1), possibly because 'segment_ids' input is not sorted."),
    (lambda d: tf.sparse.segment_sum(d, _ids([0, 2]), _ids([0, 0, 2])),
     "segment_ids and indices should have same size."),
    (lambda d: tf.sparse.segment_sum(d, [0, 2, 1], _ids([0, 0, 5]), num_segments=3),
     "segment ids must be < num_segments"),
])
def test_sparse_segment_runtime_errors(build, message):
    out = build(tf.constant(DATA))
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        _run(out)
    assert message in str(e.value)


def test_sparse_segment_static_errors():
    with pytest.raises(ValueError, match=r"Dimension 0 in both shapes must be equal, but are 2 and 3"):
        tf.sparse.segment_sum(tf.constant(DATA), [0, 1], [0, 0, 1])
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.sparse.segment_sum(tf.constant(DATA), [[0, 1]], [0, 0])
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values: float16, float32, float64"):
        tf.sparse.segment_mean(tf.constant([[1, 2]]), [0], [0])
    assert _run(tf.sparse.segment_sum(tf.constant([[1, 2]]), [0], [0])).tolist() == [[1, 2]]


# ---- tensor_scatter_nd_* (values and messages recorded from TF 2.21) ------------------------------------
def test_tensor_scatter_values():
    t = tf.constant(DATA)
    assert _run(tf.tensor_scatter_nd_update(t, [[0], [2]], [[9.0, 9], [8, 8]])).tolist() == [[9, 9], [3, 4], [8, 8]]
    assert _run(tf.tensor_scatter_update(t, [[0], [0]], [[9.0, 9], [8, 8]])).tolist() == [[8, 8], [3, 4], [5, 6]]
    assert _run(tf.tensor_scatter_nd_add(t, [[0, 1], [0, 1]], [10.0, 20])).tolist() == [[1, 32], [3, 4], [5, 6]]
    assert _run(tf.tensor_scatter_add(t, [[0, 1], [0, 1]], [10.0, 20])).tolist() == [[1, 32], [3, 4], [5, 6]]
    assert _run(tf.tensor_scatter_nd_sub(t, [[0, 1], [2, 0]], [10.0, 20])).tolist() == [[1, -8], [3, 4], [-15, 6]]
    assert tf.tensor_scatter_sub is tf.tensor_scatter_nd_sub
    assert _run(tf.tensor_scatter_nd_add(tf.constant([1, 2, 3]), [[0]], [5])).tolist() == [6, 2, 3]
    assert _run(tf.tensor_scatter_nd_update(tf.constant(["a", "b"]), [[0]], ["c"])).tolist() == [b"c", b"b"]
    assert _run(tf.tensor_scatter_nd_update(tf.constant([True, False]), [[0]], [False])).tolist() == [False, False]
    assert tf.tensor_scatter_nd_update(tf.placeholder(tf.float32, [None, 2]), [[0]], [[1.0, 2]]).shape.as_list() == [
        None, 2]
    assert tf.tensor_scatter_nd_update(tf.placeholder(tf.float32), [[0]], [[1.0, 2]]).shape.ndims is None


def test_tensor_scatter_gradients():
    t, d = tf.constant(DATA), tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    w = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    gu = tf.gradients(tf.tensor_scatter_nd_update(t, [[0], [2]], d[:2] * 2) * w, [t, d])
    ga = tf.gradients(tf.tensor_scatter_nd_add(t, [[0], [2], [0]], d * 2) * w, [t, d])
    gs = tf.gradients(tf.tensor_scatter_nd_sub(t, [[0], [2], [0]], d * 2) * w, [t, d])
    np.testing.assert_array_equal(_run(gu), [[[0, 0], [3, 4], [0, 0]], [[2, 4], [10, 12], [0, 0]]])
    np.testing.assert_array_equal(_run(ga), [w, [[2, 4], [10, 12], [2, 4]]])
    np.testing.assert_array_equal(_run(gs), [w, [[-2, -4], [-10, -12], [-2, -4]]])


def test_tensor_scatter_errors():
    t = tf.constant(DATA)
    for build, message in [
            (lambda: tf.tensor_scatter_nd_update(t, tf.placeholder_with_default([[0], [3]], [None, 1]),
                                                 [[9.0, 9], [8, 8]]),
             "indices[1] = [3] does not index into shape [3,2]"),
            (lambda: tf.tensor_scatter_nd_add(t, tf.placeholder_with_default([[0], [-1]], [None, 1]),
                                              [[9.0, 9], [8, 8]]),
             "indices[1] = [-1] does not index into shape [3,2]"),
            (lambda: tf.tensor_scatter_nd_update(t, [[0], [1]], tf.placeholder_with_default(
                [[9.0, 9, 9], [8, 8, 8]], [None, None])),
             "The inner 1 dimensions of output.shape=[3,2] must match the inner 1 dimensions of updates.shape=[2,3]"),
            (lambda: tf.tensor_scatter_nd_update(t, [[0], [1]], tf.placeholder_with_default(
                [[9.0, 9], [8, 8], [7, 7]], [None, None])),
             "Outer dimensions of indices and update must match. Indices shape: [2,1], updates shape:[3,2]"),
            (lambda: tf.tensor_scatter_nd_add(t, tf.zeros([2, 0], tf.int32), tf.zeros([2, 3, 2])),
             "Indices and updates specified for empty output shape")]:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            _run(build())
        assert message in str(e.value)
    with pytest.raises(ValueError, match=re_escape(
            "Dimensions [1,2) of input[shape=[3,2]] = [2] must match dimensions [1,2) of updates[shape=[2,3]] = [3]: "
            "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].")):
        tf.tensor_scatter_nd_update(t, [[0], [1]], [[9.0, 9, 9], [8, 8, 8]])
    with pytest.raises(ValueError, match=re_escape(
            "Dimensions [0,1) of indices[shape=[2,1]] = [2] must match dimensions [0,1) of "
            "updates[shape=[3,2]] = [3]")):
        tf.tensor_scatter_nd_update(t, [[0], [2]], t)
    with pytest.raises(TypeError, match="Input 'updates' of 'TensorScatterUpdate' Op has type int32 that does not "
                                        "match type float32 of argument 'tensor'."):
        tf.tensor_scatter_nd_update(t, [[0]], tf.constant([[1, 2]]))


def re_escape(s):
    import re
    return re.escape(s)


# ---- dynamic_partition / dynamic_stitch -------------------------------------------------------------------
def test_dynamic_partition_and_stitch_values():
    d = tf.constant(DATA)
    parts = tf.dynamic_partition(d, [1, 0, 1], 3)
    assert [p.shape.as_list() for p in parts] == [[None, 2]] * 3
    assert [v.tolist() for v in _run(parts)] == [[[3, 4]], [[1, 2], [5, 6]], []]
    x = tf.placeholder(tf.float32, [None, 3, 2])
    assert [p.shape.as_list() for p in tf.dynamic_partition(x, tf.placeholder(tf.int32, [None, 3]), 2)] == [
        [None, 2]] * 2
    s = tf.dynamic_stitch([[0, 2], [1, 0]], [[[1.0, 2], [3, 4]], [[5.0, 6], [7, 8]]])
    assert s.shape.as_list() == [3, 2]
    assert _run(s).tolist() == [[7, 8], [5, 6], [3, 4]]  # index 0 repeats: the later value wins
    assert _run(tf.dynamic_stitch([[0, 3]], [[[1.0, 2], [3, 4]]])).tolist() == [[1, 2], [0, 0], [0, 0], [3, 4]]
    assert tf.dynamic_stitch([[0, 2], [1, 0]], [tf.placeholder(tf.float32, [2, None]),
                                                tf.placeholder(tf.float32, [2, 3])]).shape.as_list() == [3, 3]
    assert tf.dynamic_stitch([tf.placeholder(tf.int32, [2]), [1, 0]], [
        tf.placeholder(tf.float32, [2, None]), tf.placeholder(tf.float32, [2, 3])]).shape.as_list() == [None, 3]


def test_dynamic_partition_and_stitch_gradients():
    d = tf.constant(DATA)
    g = tf.gradients(tf.dynamic_stitch([[0, 2], [1, 0]], [d[:2] * 1, d[1:] * 1]) * DATA, d)[0]
    assert _run(g).tolist() == [[1, 2], [8, 10], [1, 2]]
    g = tf.gradients(tf.dynamic_partition(d, [1, 0, 1], 2)[1] * [[1.0, 2], [3, 4]], d)[0]
    assert _run(g).tolist() == [[1, 2], [0, 0], [3, 4]]
    assert "ParallelDynamicStitch" in [op.type for op in tf.get_default_graph().get_operations()]


def test_dynamic_partition_and_stitch_errors():
    d = tf.constant(DATA)
    for build, message in [
            (lambda: tf.dynamic_partition(d, _ids([1, 3, 1]), 3), "partitions[1] = 3 is not in [0, 3)"),
            (lambda: tf.dynamic_partition(d, _ids([1, -1, 1]), 3), "partitions[1] = -1 is not in [0, 3)"),
            (lambda: tf.dynamic_partition(d, _ids([1, 1]), 3),
             "data.shape must start with partitions.shape, got data.shape = [3,2], partitions.shape = [2]"),
            (lambda: [tf.dynamic_stitch([_ids([0, -1])], [[[1.0, 2], [3, 4]]])], "indices[1] is out of range")]:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            _run(build())
        assert message in str(e.value)
    with pytest.raises(TypeError, match="Expected list for 'data' argument to 'DynamicStitch' Op"):
        tf.dynamic_stitch([[0, 1]], d)


# ---- scatter_* on variables (values and messages recorded from TF 2.21) --------------------------------------
VAR_CASES = [
    ("scatter_update", [[2, 3], [3, 4], [30, 40]], [[2, 2], [3, 4], [5, 6]]),
    ("scatter_add", [[13, 25], [3, 4], [35, 46]], [[3, 4], [3, 4], [5, 6]]),
    ("scatter_sub", [[-11, -21], [3, 4], [-25, -34]], [[-1, 0], [3, 4], [5, 6]]),
    ("scatter_mul", [[20, 120], [3, 4], [150, 240]], [[2, 4], [3, 4], [5, 6]]),
    ("scatter_div", [[0.05000000074505806, 0.03333333507180214], [3, 4], [0.1666666716337204, 0.15000000596046448]],
     [[0.5, 1], [3, 4], [5, 6]]),
    ("scatter_min", [[1, 2], [3, 4], [5, 6]], [[1, 2], [3, 4], [5, 6]]),
    ("scatter_max", [[10, 20], [3, 4], [30, 40]], [[2, 2], [3, 4], [5, 6]]),
]


@pytest.mark.parametrize("name,rows,scalar", VAR_CASES)
def test_variable_scatter(name, rows, scalar):
    f = getattr(tf, name)
    v = tf.Variable(DATA)
    w = tf.Variable(DATA)
    a = f(v, [0, 2, 0], [[10.0, 20], [30, 40], [2, 3]])
    b = f(w, [0], 2.0)
    assert a.op.type == "Scatter" + name.split("_")[1].capitalize() and a.shape.as_list() == [3, 2]
    with tf.Session() as s:
        s.run([v.initializer, w.initializer])
        np.testing.assert_array_equal(s.run(a), np.float32(rows))
        np.testing.assert_array_equal(s.run(v), np.float32(rows))
        np.testing.assert_array_equal(s.run(b), np.float32(scalar))


@pytest.mark.parametrize("name,tuples,rows", [
    ("scatter_nd_update", [[1, 30], [3, 4], [20, 6]], [[1, 2], [7, 8], [5, 6]]),
    ("scatter_nd_add", [[1, 42], [3, 4], [25, 6]], [[1, 2], [10, 12], [5, 6]]),
    ("scatter_nd_sub", [[1, -38], [3, 4], [-15, 6]], [[1, 2], [-4, -4], [5, 6]]),
])
def test_variable_scatter_nd(name, tuples, rows):
    f = getattr(tf, name)
    v, w = tf.Variable(DATA), tf.Variable(DATA)
    a, b = f(v, [[0, 1], [2, 0], [0, 1]], [10.0, 20, 30]), f(w, [[1]], [[7.0, 8]])
    with tf.Session() as s:
        s.run([v.initializer, w.initializer])
        np.testing.assert_array_equal(s.run(a), np.float32(tuples))
        np.testing.assert_array_equal(s.run(b), np.float32(rows))


def test_variable_scatter_accumulates_across_runs_and_errors():
    v = tf.Variable([1, 2, 3])
    inc = tf.scatter_add(v, [0, 0], [1, 1])
    div = tf.scatter_div(v, [1, 2], [-2, 2])
    with tf.Session() as s:
        s.run(v.initializer)
        s.run(inc)
        assert s.run(inc).tolist() == [5, 2, 3]
        assert s.run(div).tolist() == [5, -1, 1]  # integer division rounds toward zero
    x = tf.Variable(DATA)
    for build, message in [
            (lambda: tf.scatter_add(x, _ids([0, 3]), [[10.0, 20], [30, 40]]), "indices[1] = 3 is not in [0, 3)"),
            (lambda: tf.scatter_add(x, _ids([0, -1]), [[10.0, 20], [30, 40]]), "indices[1] = -1 is not in [0, 3)"),
            (lambda: tf.scatter_add(x, [0, 1], tf.placeholder_with_default([[10.0, 20, 1], [30, 40, 1]], [None, None])),
             "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got updates.shape "
             "[2,3], indices.shape [2], params.shape [3,2]"),
            (lambda: tf.scatter_nd_add(x, tf.placeholder_with_default([[0, 1], [3, 0]], [None, 2]), [10.0, 20]),
             "indices[1] = [3, 0] does not index into shape [3,2]")]:
        out = build()
        with tf.Session() as s:
            s.run(x.initializer)
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                s.run(out)
        assert message in str(e.value)
    with pytest.raises(ValueError, match=re_escape(
            "Dimension 1 in both shapes must be equal, but are 3 and 2. Shapes are [2,3] and [2,2].")):
        tf.scatter_add(x, [0, 1], [[10.0, 20, 1], [30, 40, 1]])
    with pytest.raises(ValueError, match=re_escape("Dimensions [1,2) of input[shape=[3,2]] = [2] must match "
                                                   "dimensions [1,1) of updates[shape=[2]] = []")):
        tf.scatter_nd_add(x, [[0], [1]], [10.0, 20])
    with pytest.raises(TypeError, match="Input 'updates' of 'ScatterAdd' Op has type int32 that does not match type "
                                        "float32 of argument 'ref'."):
        tf.scatter_add(x, [0, 1], tf.constant([[1, 2], [3, 4]]))
    with pytest.raises(TypeError):
        tf.scatter_add(tf.constant([1.0]), [0], [1.0])
    assert tf.gradients(tf.scatter_add(x, [0], [[1.0, 2]]), x) == [None]


# ---- bincount (values and messages recorded from TF 2.21) ----------------------------------------------------
@pytest.mark.parametrize("kwargs,dtype,expected", [
    ({}, tf.int32, [1, 2, 0, 1]),
    ({"minlength": 6}, tf.int32, [1, 2, 0, 1, 0, 0]),
    ({"maxlength": 2}, tf.int32, [1, 2]),
    ({"weights": [0.5, 1.0, 2.0, 3.0]}, tf.float32, [3.0, 1.5, 0.0, 2.0]),
    ({"weights": [0.5, 1.0, 2.0, 3.0], "maxlength": 2}, tf.float32, [3.0, 1.5]),
    ({"dtype": tf.float32}, tf.float32, [1.0, 2.0, 0.0, 1.0]),
    ({"weights": [1, 2, 3, 4]}, tf.int32, [4, 3, 0, 3]),
])
def test_bincount(kwargs, dtype, expected):
    out = tf.math.bincount([1, 1, 3, 0], **kwargs)
    assert out.dtype == dtype and out.shape.as_list() == [len(expected)]
    assert _run(out).tolist() == expected
    assert tf.bincount is tf.math.bincount


def test_bincount_shapes_and_errors():
    assert _run(tf.math.bincount([[1, 1], [3, 0]])).tolist() == [1, 2, 0, 1]
    assert _run(tf.math.bincount(tf.zeros([0], tf.int32))).tolist() == []
    assert tf.math.bincount(tf.placeholder(tf.int32, [None])).shape.as_list() == [None]
    for build, message in [(lambda: tf.math.bincount(_ids([1, -1])), "Input arr must be non-negative!"),
                           (lambda: tf.math.bincount([1, 1, 3, 0], weights=_ids([1.0, 2.0])),
                            "Input indices and weights must have the same size.")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=re_escape(message)):
            _run(build())
    w = tf.constant([1.0, 2.0])
    assert tf.gradients(tf.math.bincount([1, 0], weights=w), w) == [None]


def test_tensor_scatter_max_min():
    t, d = tf.constant(DATA), tf.constant([[0.0, 9], [3, 1]])
    a, b = tf.tensor_scatter_nd_max(t, [[0], [1]], d), tf.tensor_scatter_nd_min(t, [[0], [1]], d)
    assert a.op.type == "TensorScatterMax" and b.op.type == "TensorScatterMin"
    np.testing.assert_array_equal(_run(a), [[1, 9], [3, 4], [5, 6]])
    np.testing.assert_array_equal(_run(b), [[0, 2], [3, 1], [5, 6]])
    ga, gb = tf.gradients(a * DATA, [t, d]), tf.gradients(b * DATA, [t, d])  # ties share the gradient
    ga, gb = _run(ga), _run(gb)
    assert ga[0].tolist() == [[1, 0], [1.5, 4], [5, 6]] and ga[1].tolist() == [[0, 2], [1.5, 0]]
    assert gb[0].tolist() == [[0, 2], [1.5, 0], [5, 6]] and gb[1].tolist() == [[1, 0], [1.5, 4]]


def test_scatter_max_min_nan_as_tf():
    """TF updates a value only where the update is strictly larger (smaller): NaN updates change nothing."""
    n = np.nan
    assert np.array_equal(_run(tf.tensor_scatter_nd_max(tf.constant([n, 1.0, n, 1.0]), [[0], [1], [2], [3]],
                                                        [1.0, n, n, 2.0])), [n, 1, n, 2], equal_nan=True)
    assert np.array_equal(_run(tf.tensor_scatter_nd_min(tf.constant([n, 1.0, n, 1.0]), [[0], [1], [2], [3]],
                                                        [1.0, n, n, 0.0])), [n, 1, n, 0], equal_nan=True)
    v, w = tf.Variable([n, 1.0, n, 1.0]), tf.Variable([n, 1.0, n, 1.0])
    a, b = tf.scatter_max(v, [0, 1, 2, 3], [1.0, n, n, 2.0]), tf.scatter_min(w, [0, 1, 2, 3], [1.0, n, n, 0.0])
    with tf.Session() as s:
        s.run([v.initializer, w.initializer])
        assert np.array_equal(s.run(a), [n, 1, n, 2], equal_nan=True)
        assert np.array_equal(s.run(b), [n, 1, n, 0], equal_nan=True)


@pytest.mark.parametrize("values,expected", [  # [segment_min, segment_max] as TF 2.21 gives them
    ([np.nan, 1.0], [1.0, 1.0]),
    ([1.0, np.nan], [np.nan, np.nan]),
    ([np.nan, 1.0, 2.0], [1.0, 2.0]),
    ([1.0, np.nan, 2.0], [2.0, 2.0]),
    ([2.0, np.nan, 1.0], [1.0, 1.0]),
    ([0.0, -0.0], [-0.0, -0.0]),
    ([-0.0, 0.0], [0.0, 0.0]),
    ([1.0, 0.0, -0.0, 2.0], [-0.0, 2.0]),
    ([np.inf, -0.0, 0.0], [0.0, np.inf]),
])
def test_segment_min_max_nan_and_signed_zeros_as_tf(values, expected):
    ids = [0] * len(values)
    got = _run([tf.math.segment_min(values, ids), tf.math.segment_max(values, ids),
                tf.math.unsorted_segment_min(values, ids, 1), tf.math.unsorted_segment_max(values, ids, 1)])
    for g, e in zip(got, expected + expected):
        assert np.array_equal(g, np.float32([e]), equal_nan=True) and np.signbit(g[0]) == np.signbit(e)
