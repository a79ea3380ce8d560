"""`tf.sparse`, `tf.sets` and the TF1 sparse names against values and errors recorded from TensorFlow
(2.21 CPU, `tf.compat.v1` graph mode; printed by tests/data/make_sparse_tf_values.py and copied here)."""

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.graph_run import run

ST = tf.SparseTensor


def assert_sp(v, indices, values, shape):
    np.testing.assert_array_equal(v.indices, np.array(indices, np.int64).reshape(-1, len(shape)))
    np.testing.assert_array_equal(v.values, np.array(values, v.values.dtype))
    np.testing.assert_array_equal(v.dense_shape, shape)


def st():
    return ST([[0, 1], [1, 2], [2, 0]], [1., 3., 2.], [3, 4])


def raises(fn, cls, msg):
    with pytest.raises(cls) as e:
        run(fn)
    assert msg in str(e.value), str(e.value)


# ---- values -------------------------------------------------------------------------------------------
def test_reorder_and_reshape():
    assert_sp(run(lambda: tf.sparse.reorder(ST([[2, 0], [0, 1], [1, 2]], [2., 1., 3.], [3, 4]))),
              [[0, 1], [1, 2], [2, 0]], [1., 3., 2.], [3, 4])
    v = run(lambda: tf.sparse_reshape(st(), [4, -1]))
    assert_sp(v, [[0, 1], [2, 0], [2, 2]], [1., 3., 2.], [4, 3])
    with pytest.raises(ValueError, match="Cannot reshape a tensor with 12 elements"):
        tf.sparse.reshape(st(), [5, 2])


@pytest.mark.parametrize("new,msg", [
    ([5, -1], "Input to reshape is a SparseTensor with 12 dense values, but the requested shape requires a multiple "
              "of 5. input_shape=[3,4] output_shape=[5,1]"),
    ([-1, -1], "only one output dimension may be -1, not both 0 and 1"),
])
def test_reshape_errors(new, msg):
    def fn():
        shape = tf.placeholder_with_default(tf.constant(new, tf.int64), [2])
        return tf.sparse.reshape(st(), shape).indices
    raises(fn, tf.errors.InvalidArgumentError, msg)


def test_add():
    assert_sp(run(lambda: tf.sparse.add(ST([[0, 0], [1, 1]], [1., -2.], [2, 2]), ST([[0, 0], [1, 1]], [-1., 2.5],
                                                                                   [2, 2]), threshold=0.6)),
              [], [], [2, 2])
    assert_sp(run(lambda: tf.sparse_add(ST([[1, 1], [0, 0]], [1., 2.], [2, 2]), ST([[0, 0], [1, 1]], [10., 20.],
                                                                                 [2, 2]))),
              [[0, 0], [1, 1], [0, 0]], [10., 21., 2.], [2, 2])  # TF's merge of unsorted operands
    np.testing.assert_array_equal(run(lambda: tf.sparse.add(st(), tf.ones([3, 4]))),
                                  [[1, 2, 1, 1], [1, 1, 4, 1], [3, 1, 1, 1]])
    with pytest.raises(TypeError, match="At least one input should be SparseTensor"):
        tf.sparse.add(tf.ones([2]), tf.ones([2]))
    raises(lambda: tf.sparse.add(ST([[0, 7]], [1.], [3, 4]), tf.ones([3, 4])), tf.errors.InvalidArgumentError,
           "Sparse tensor has an invalid index on dimension 1: a_indices(0,1) = 7, dense tensor shape: 3 4")
    raises(lambda: tf.sparse.add(ST([[0, 0]], [1.], tf.placeholder_with_default(tf.constant([2, 2], tf.int64), [2])),
                                 ST([[0, 0]], [1.], [2, 3])).values, tf.errors.InvalidArgumentError,
           "Operands' shapes do not match: got 2 and 3 for dimension 1")


def test_concat():
    assert_sp(run(lambda: tf.sparse.concat(-1, [ST([[1, 0]], [1.], [2, 2]), ST([[0, 1]], [2.], [2, 3])])),
              [[0, 3], [1, 0]], [2., 1.], [2, 5])
    assert_sp(run(lambda: tf.sparse_concat(0, [ST([[1, 0]], [1.], [2, 2]), ST([[0, 3]], [2.], [2, 4])],
                                           expand_nonconcat_dim=True)), [[1, 0], [2, 3]], [1., 2.], [4, 4])
    assert_sp(run(lambda: tf.sparse.concat(0, [ST([[1, 0]], [1.], [2, 2]), ST([[0, 1], [0, 0]], [2., 3.], [1, 2]),
                                               ST([[0, 0]], [4.], [1, 2])])),
              [[1, 0], [2, 0], [2, 1], [3, 0]], [1., 3., 2., 4.], [4, 2])
    raises(lambda: tf.sparse.concat(1, [ST([[0, 0]], [1.], [2, 2]), ST([[0, 0]], [1.], [3, 2])]).values,
           tf.errors.InvalidArgumentError,
           "Input shapes must match: expected 2 for dimension 0 but got 3 at position 1")


def test_slice_and_split():
    assert_sp(run(lambda: tf.sparse.slice(st(), [2, 3], [5, 5])), [], [], [1, 1])
    assert_sp(run(lambda: tf.sparse.slice(st(), [4, 5], [2, 2])), [], [], [0, 0])
    assert_sp(run(lambda: tf.sparse_slice(st(), [-1, 0], [2, 2])), [[1, 1]], [1.], [2, 2])
    assert_sp(run(lambda: tf.sparse.slice(ST([[1, 3], [0, 0], [1, 0]], [1, 2, 3], [2, 4]), [0, 0], [2, 4])),
              [[1, 3], [0, 0], [1, 0]], [1, 2, 3], [2, 4])
    parts = run(lambda: tf.sparse.split(sp_input=ST([[0, 0], [0, 4], [1, 2], [1, 3]], [1, 2, 3, 4], [2, 5]),
                                        num_split=3, axis=1))
    assert_sp(parts[0], [[0, 0]], [1], [2, 2])
    assert_sp(parts[1], [[1, 0], [1, 1]], [3, 4], [2, 2])
    assert_sp(parts[2], [[0, 0]], [2], [2, 1])
    parts = run(lambda: tf.sparse_split(sp_input=st(), num_split=2, axis=-1))
    assert_sp(parts[0], [[0, 1], [2, 0]], [1., 2.], [3, 2])
    assert_sp(parts[1], [[1, 0]], [3.], [3, 2])
    raises(lambda: tf.sparse.split(sp_input=st(), num_split=5, axis=1)[0].values, tf.errors.InvalidArgumentError,
           "Input num_split should be between 1 and the splitting dimension size (4), got 5")
    with pytest.raises(ValueError, match="Keyword arguments are required"):
        tf.sparse.split(st(), 2, 1)


def test_fill_empty_rows():
    def fn():
        sp, empty = tf.sparse.fill_empty_rows(ST([[2, 1], [0, 3], [2, 0], [0, 1]], [1., 2., 3., 4.], [4, 5]), -1.)
        return sp, empty
    sp, empty = run(fn)
    assert_sp(sp, [[0, 3], [0, 1], [1, 0], [2, 1], [2, 0], [3, 0]], [2., 4., -1., 1., 3., -1.], [4, 5])
    np.testing.assert_array_equal(empty, [False, True, False, True])
    raises(lambda: tf.sparse_fill_empty_rows(ST([[-1, 1]], [1.], [4, 5]), -1.)[1], tf.errors.InvalidArgumentError,
           "indices(0, 0) is invalid: -1 >= 4")


def test_matmul():
    a = lambda: ST([[0, 1], [1, 0]], tf.constant([1 + 2j, 3 - 1j], tf.complex64), [2, 2])  # noqa: E731
    v = run(lambda: tf.sparse.sparse_dense_matmul(a(), tf.constant([[1 + 1j, 2], [3, 4j]], tf.complex64),
                                                  adjoint_a=True, adjoint_b=True))
    np.testing.assert_allclose(v, [[6 + 2j, 4 - 12j], [-1 - 3j, 3 - 6j]])
    v = run(lambda: tf.sparse_tensor_dense_matmul(ST([[0, 0], [0, 0], [1, 1]], [1., 2., 3.], [2, 2]),
                                                  tf.constant([[1., 2.], [3., 4.]])))
    np.testing.assert_array_equal(v, [[3, 6], [9, 12]])
    v = run(lambda: tf.sparse.matmul(tf.constant([[1., 2.], [3., 4.]]), ST([[0, 0], [1, 1]], [1., 3.], [2, 2])))
    np.testing.assert_array_equal(v, [[1, 6], [3, 12]])
    assert tf.sparse.sparse_dense_matmul(st(), tf.ones([4, 2])).shape.as_list() == [3, 2]
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 4 and 5"):
        tf.sparse.sparse_dense_matmul(st(), tf.ones([5, 2]))
    raises(lambda: tf.sparse.sparse_dense_matmul(ST([[0, 7]], [1.], [3, 4]), tf.ones([4, 2])),
           tf.errors.InvalidArgumentError, "k (7) from index[0,1] out of bounds (>=4)")
    np.testing.assert_array_equal(run(lambda: tf.sparse_matmul([[1., 2.]], [[3.], [4.]], a_is_sparse=True)), [[11.]])


def test_reductions():
    neg = lambda: ST([[0, 0], [0, 2], [1, 1]], [-1., -2., -3.], [2, 3])  # noqa: E731
    np.testing.assert_array_equal(run(lambda: tf.sparse.reduce_max(neg(), 1)), [-1., -3.])
    np.testing.assert_array_equal(run(lambda: tf.sparse_reduce_max(ST([[0, 0]], [-1], [2, 3]), 1)), [-1, 0])
    np.testing.assert_array_equal(run(lambda: tf.sparse.reduce_max(
        ST([[0, 0], [0, 1], [1, 0], [1, 1]], [np.nan, 1., 2., np.nan], [2, 3]), 1)), [1., np.nan])
    assert_sp(run(lambda: tf.sparse.reduce_max_sparse(neg(), 1, keepdims=True)), [[0, 0], [1, 0]], [-1., -3.],
              [2, 1])
    np.testing.assert_array_equal(run(lambda: tf.sparse.reduce_sum(neg(), [1, 1])), [-3., -3.])
    np.testing.assert_array_equal(run(lambda: tf.sparse_reduce_sum(neg(), reduction_axes=-1)), [-3., -3.])
    np.testing.assert_array_equal(run(lambda: tf.sparse.reduce_sum(
        ST([[0, 0, 1], [1, 1, 0]], [1., 2.], [2, 2, 2]), [0, 2], keepdims=True)), [[[1.], [2.]]])
    assert_sp(run(lambda: tf.sparse.reduce_sum_sparse(ST([[1, 1], [0, 0], [1, 0]], [1., 2., 3.], [2, 3]), 1)),
              [[0], [1]], [2., 4.], [2])
    assert_sp(run(lambda: tf.sparse_reduce_sum_sparse(ST([[0, 0, 1], [1, 1, 0], [0, 1, 1]], [1., 2., 4.], [2, 2, 2]),
                                                      [2], keep_dims=True)),
              [[0, 0, 0], [0, 1, 0], [1, 1, 0]], [1., 4., 2.], [2, 2, 1])
    assert_sp(run(lambda: tf.sparse_reduce_max_sparse(ST([[0, 0, 1], [1, 1, 0], [0, 1, 1]], [1., 2., 4.], [2, 2, 2]),
                                                      -1)), [[0, 0], [0, 1], [1, 1]], [1., 4., 2.], [2, 2])
    assert tf.sparse.reduce_sum(neg(), 1).shape.as_list() == [2]
    raises(lambda: tf.sparse.reduce_sum(neg(), tf.placeholder_with_default(3, [])), tf.errors.InvalidArgumentError,
           "Invalid reduction dimension 3, for input with 2 dimensions.")
    raises(lambda: tf.sparse.reduce_sum(ST([[5, 1]], [1.], [2, 3]), 1), tf.errors.InternalError,
           "Obtained a write index of 5 which is outside of bounds of [0, 2)")


def test_softmax_maximum_cwise():
    v = run(lambda: tf.sparse.softmax(ST([[0, 0], [1, 0], [0, 1]], [1., 2., 3.], [2, 2])))
    np.testing.assert_allclose(v.values, [0.11920291, 0.880797, 1.], rtol=1e-6)
    v = run(lambda: tf.sparse_softmax(ST([[0, 0, 1], [0, 0, 3], [0, 1, 0], [1, 1, 0], [1, 1, 1]],
                                         [1., 2., 4., -1., 5.], [2, 2, 4])))
    np.testing.assert_allclose(v.values, [0.26894143, 0.7310586, 1., 0.00247262, 0.9975274], rtol=2e-6)
    v = run(lambda: tf.sparse.softmax(ST([[0, 0], [0, 1], [1, 0], [1, 1]], [np.inf, 1., -np.inf, -np.inf], [2, 2])))
    assert np.isnan(v.values).all()
    assert_sp(run(lambda: tf.sparse.maximum(ST([[0, 0], [1, 1]], [-1., np.nan], [2, 2]),
                                            ST([[0, 1], [1, 1]], [-2., 3.], [2, 2]))),
              [[0, 0], [0, 1], [1, 1]], [0., 0., np.nan], [2, 2])
    assert_sp(run(lambda: tf.sparse_minimum(ST([[0, 0], [1, 1]], [-1., np.nan], [2, 2]),
                                            ST([[0, 1], [1, 1]], [-2., 3.], [2, 2]))),
              [[0, 0], [0, 1], [1, 1]], [-1., -2., np.nan], [2, 2])
    assert_sp(run(lambda: tf.sparse.maximum(ST([[0, 0], [1, 1]], [-1, 2], [2, 2]), ST([[0, 1], [1, 1]], [-2, 3],
                                                                                     [2, 2]))),
              [[0, 0], [0, 1], [1, 1]], [0, 0, 3], [2, 2])
    from tensorweave.ops import sparse_math_ops as sm
    np.testing.assert_array_equal(run(lambda: sm.sparse_dense_cwise_div(
        ST([[0, 1], [0, 2]], [-7, 7], [3, 4]), tf.constant([2, 2, 2, 2])).values), [-3, 3])
    np.testing.assert_array_equal(run(lambda: sm.sparse_dense_cwise_add(
        ST([[0, 1], [2, 2]], [1., -1.], [3, 4]), tf.constant([[1.], [2.], [3.]])).values), [2., 2.])
    raises(lambda: sm.sparse_dense_cwise_div(ST([[0, 1]], [1.], [3, 4]), tf.constant([0., 0., -0., 1.])).values,
           tf.errors.InvalidArgumentError, "SparseDenseCwiseDiv cannot divide by zero,but input dense tensor contains "
           "zero")
    raises(lambda: sm.sparse_dense_cwise_mul(ST([[0, 1]], [1.], [3, 4]), tf.ones([3])).values,
           tf.errors.InvalidArgumentError, "SparseDenseBinaryOpShared broadcasts dense to sparse only; got "
           "incompatible shapes: [3,4] vs. [3]")


def test_gradients_tf_has_none_of():
    g = tf.Graph()
    with g.as_default():
        a = ST([[0, 0]], tf.constant([1.]), [2, 2])
        with pytest.raises(NotImplementedError, match="Gradient for SparseSparseMaximum is not implemented"):
            tf.gradients(tf.sparse.maximum(a, a).values, a.values)
        with pytest.raises(LookupError):
            tf.gradients(tf.sparse.split(sp_input=a, num_split=2, axis=0)[0].values, a.values)


def test_edit_distance():
    h = lambda: ST([[0, 0, 0], [0, 0, 1], [1, 0, 0], [2, 1, 0]], ["a", "b", "c", "d"], [3, 2, 2])  # noqa: E731
    t = lambda: ST([[0, 0, 0], [1, 0, 0], [1, 0, 1], [3, 0, 0]], ["a", "c", "x", "e"], [4, 2, 2])  # noqa: E731
    np.testing.assert_array_equal(run(lambda: tf.edit_distance(h(), t())),
                                  [[1., 0.], [0.5, 0.], [0., np.inf], [1., 0.]])
    np.testing.assert_array_equal(run(lambda: tf.edit_distance(h(), t(), normalize=False)),
                                  [[1., 0.], [1., 0.], [0., 1.], [1., 0.]])
    assert tf.edit_distance(h(), t()).shape.as_list() == [4, 2]
    np.testing.assert_array_equal(run(lambda: tf.edit_distance(ST([[0, 1], [0, 0]], ["a", "b"], [1, 2]),
                                                               ST([[0, 0]], ["a"], [1, 1]))), [1.])


def test_compositions():
    assert_sp(run(lambda: tf.sparse.transpose(ST([[0, 1, 2], [1, 0, 0]], [1., 2.], [2, 3, 4]), [2, 0, 1])),
              [[0, 1, 0], [2, 0, 1]], [2., 1.], [4, 2, 3])
    assert_sp(run(lambda: tf.sparse_transpose(st())), [[0, 2], [1, 0], [2, 1]], [2., 1., 3.], [4, 3])
    assert_sp(run(lambda: tf.sparse.expand_dims(st(), -1)), [[0, 1, 0], [1, 2, 0], [2, 0, 0]], [1., 3., 2.],
              [3, 4, 1])
    assert_sp(run(lambda: tf.sparse.expand_dims(st(), 1)), [[0, 0, 1], [1, 0, 2], [2, 0, 0]], [1., 3., 2.],
              [3, 1, 4])
    assert_sp(run(lambda: tf.sparse.eye(2, 3, dtype=tf.int32)), [[0, 0], [1, 1]], [1, 1], [2, 3])
    ids = lambda: ST([[0, 0], [0, 1], [1, 0]], [4, 1, 2], [2, 2])  # noqa: E731
    assert_sp(run(lambda: tf.sparse.merge(ids(), ST([[0, 0], [0, 1], [1, 0]], [.5, .25, .75], [2, 2]), 6)),
              [[0, 1], [0, 4], [1, 2]], [0.25, 0.5, 0.75], [2, 6])
    np.testing.assert_array_equal(run(lambda: tf.sparse_to_indicator(ids(), 6)),
                                  [[False, True, False, False, True, False], [False, False, True, False, False, False]])
    v = run(lambda: tf.sparse.from_dense([[0., -0., np.nan], [1., 0, 2]]))
    np.testing.assert_array_equal(v.indices, [[0, 2], [1, 0], [1, 2]])
    np.testing.assert_array_equal(v.values, [np.nan, 1., 2.])
    assert_sp(run(lambda: tf.sparse_retain(st(), [False, True, True])), [[1, 2], [2, 0]], [3., 2.], [3, 4])
    assert_sp(run(lambda: tf.sparse.reset_shape(st())), [[0, 1], [1, 2], [2, 0]], [1., 3., 2.], [3, 3])
    assert_sp(run(lambda: tf.sparse_reset_shape(st(), [5, 5])), [[0, 1], [1, 2], [2, 0]], [1., 3., 2.], [5, 5])
    with pytest.raises(ValueError, match="Requested new_shape should have dimension sizes >= sp_input.shape"):
        tf.sparse.reset_shape(st(), [2, 4])
    raises(lambda: tf.sparse.reset_shape(st(), tf.placeholder_with_default(tf.constant([2, 4], tf.int64), [2])),
           tf.errors.InvalidArgumentError, "")
    m = run(lambda: tf.sparse.mask(tf.IndexedSlices(tf.constant([[1.], [2.], [3.]]), tf.constant([12, 26, 37])),
                                   [26]))
    np.testing.assert_array_equal(m.indices, [12, 37])
    np.testing.assert_array_equal(m.values, [[1.], [3.]])
    assert isinstance(tf.convert_to_tensor_or_sparse_tensor(tf.SparseTensorValue([[0]], [1.], [2])), ST)
    assert isinstance(tf.convert_to_tensor_or_sparse_tensor([1., 2.]), tf.Tensor)


# ---- gradients (composed in Python: values checked against the definitions) ---------------------------------
def test_gradients():
    g = tf.Graph()
    with g.as_default():
        v = tf.constant([1., 3., 2.])
        sp = ST([[0, 1], [2, 0], [1, 2]], v, [3, 4])
        b = tf.constant(np.arange(8., dtype=np.float32).reshape(4, 2))
        grads = [
            tf.gradients(tf.sparse.reorder(sp).values * [1., 2., 3.], v)[0],
            tf.gradients(tf.sparse.slice(sp, [1, 0], [5, 3]).values * [2., 3.], v)[0],
            tf.gradients(tf.sparse.reduce_sum(sp, 1) * [1., 2., 3.], v)[0],
            tf.gradients(tf.sparse.sparse_dense_matmul(sp, b), v)[0],
        ]
        with tf.Session() as s:
            got = s.run(grads)
    np.testing.assert_array_equal(got[0], [1., 3., 2.])
    np.testing.assert_array_equal(got[1], [0., 2., 3.])
    np.testing.assert_array_equal(got[2], [1., 3., 2.])
    np.testing.assert_array_equal(got[3], [5., 1., 9.])


# ---- tf.sets --------------------------------------------------------------------------------------------------
def _a():
    return tf.constant([[[1, 2, 2], [3, 4, 5]], [[5, 1, 1], [0, 0, 0]]])


def _b():
    return tf.constant([[[2, 7], [4, 3]], [[6, 6], [0, 9]]])


def _sb():
    return ST([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]], [2, 4, 3, 6], [2, 2, 4])


def _sa():
    return ST([[0, 0, 0], [0, 0, 1], [1, 1, 0]], [9, 1, 0], [2, 2, 3])


_SET_CASES = {
    ("intersection", "dd"): ([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 1, 0]], [2, 3, 4, 0], [2, 2, 2]),
    ("intersection", "ds"): ([[0, 0, 0], [0, 1, 0], [0, 1, 1]], [2, 3, 4], [2, 2, 2]),
    ("intersection", "sd"): ([[1, 1, 0]], [0], [2, 2, 1]),
    ("intersection", "ss"): ([], [], [2, 2, 0]),
    ("union", "dd"): ([[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 1, 1], [0, 1, 2], [1, 0, 0], [1, 0, 1],
                       [1, 0, 2], [1, 1, 0], [1, 1, 1]], [1, 2, 7, 3, 4, 5, 1, 5, 6, 0, 9], [2, 2, 3]),
    ("union", "ds"): ([[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 1, 2], [1, 0, 0], [1, 0, 1], [1, 0, 2],
                       [1, 1, 0]], [1, 2, 3, 4, 5, 1, 5, 6, 0], [2, 2, 3]),
    ("union", "sd"): ([[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 1, 0],
                       [1, 1, 1]], [1, 2, 7, 9, 3, 4, 6, 0, 9], [2, 2, 4]),
    ("union", "ss"): ([[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 1, 0]],
                      [1, 2, 9, 3, 4, 6, 0], [2, 2, 3]),
    ("difference", "dd"): ([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]], [1, 5, 1, 5], [2, 2, 2]),
    ("difference", "ds"): ([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], [1, 5, 1, 5, 0], [2, 2, 2]),
    ("difference", "sd"): ([[0, 0, 0], [0, 0, 1]], [1, 9], [2, 2, 2]),
    ("difference", "ss"): ([[0, 0, 0], [0, 0, 1], [1, 1, 0]], [1, 9, 0], [2, 2, 2]),
}


@pytest.mark.parametrize("op,kind", sorted(_SET_CASES))
def test_sets(op, kind):
    a = {"d": _a, "s": _sa}[kind[0]]
    b = {"d": _b, "s": _sb}[kind[1]]
    assert_sp(run(lambda: getattr(tf.sets, op)(a(), b())), *_SET_CASES[op, kind])


def test_sets_more():
    assert_sp(run(lambda: tf.sets.difference(_a(), _b(), aminusb=False)), [[0, 0, 0], [1, 0, 0], [1, 1, 0]],
              [7, 6, 9], [2, 2, 1])
    assert_sp(run(lambda: tf.sets.set_difference(_sa(), _b(), aminusb=False)),
              [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 1, 0]], [2, 7, 3, 4, 6, 9], [2, 2, 2])
    v = run(lambda: tf.sets.union(tf.constant([["b", "a"], ["c", "c"]]), tf.constant([["a", "z"], ["", ""]])))
    assert_sp(v, [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]], [b"a", b"b", b"z", b"", b"c"], [2, 3])
    assert_sp(run(lambda: tf.sets.intersection(tf.constant([[1, 2]]), tf.constant([[3, 4]]))), [], [], [1, 0])
    np.testing.assert_array_equal(run(lambda: tf.sets.size(_sb())), [[1, 2], [1, 0]])
    np.testing.assert_array_equal(run(lambda: tf.sets.set_size(ST([[0, 0], [0, 1], [1, 0]], [3, 3, 1], [3, 4]))),
                                  [1, 1, 0])
    np.testing.assert_array_equal(run(lambda: tf.set_size(ST([[0, 1], [0, 0]], [3, 4], [3, 4]),
                                                          validate_indices=False)), [2, 0, 0])
    raises(lambda: tf.sets.size(ST([[0, 7]], [3], [3, 4])), tf.errors.InvalidArgumentError,
           "indices[0] = [0,7] is out of bounds: need 0 <= index < [3,4]")
    raises(lambda: tf.sets.size(ST([[0]], [3], [3])), tf.errors.InvalidArgumentError, "Invalid rank 1.")
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 1 and 2"):
        tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1], [2]]))
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
        tf.set_union(tf.constant([1, 2]), tf.constant([1]))
    with pytest.raises(TypeError, match="'a' has invalid dtype"):
        tf.sets.union(tf.constant([[1.]]), tf.constant([[1.]]))
    with pytest.raises(TypeError, match="Expected `SparseTensor`"):
        tf.sets.size(tf.constant([[1]]))
    r = tf.sets.union(_a(), _b())
    assert r.indices.shape.as_list() == [None, 3] and r.dense_shape.shape.as_list() == [3]


def test_eager():
    from tensorweave.eager import context
    with context.eager_mode():
        v = tf.sparse.reorder(ST([[2, 0], [0, 1]], [2., 1.], [3, 4]))
        np.testing.assert_array_equal(v.indices.numpy(), [[0, 1], [2, 0]])
        np.testing.assert_array_equal(tf.sparse.reduce_sum(v, 0).numpy(), [2., 1., 0., 0.])
        u = tf.sets.union(tf.constant([[1, 2]]), tf.constant([[3, 2]]))
        np.testing.assert_array_equal(u.values.numpy(), [1, 2, 3])


# ---- tf.sparse.bincount ----------------------------------------------------------------------------------------
def _v1():
    return tf.constant([3, 1, 3, 0, 7], tf.int64)


def _v2():
    return tf.constant([[3, 1, 3], [0, 7, 7]], tf.int32)


def _s():
    return ST([[0, 0], [0, 2], [1, 1], [3, 0]], tf.constant([4, 1, 4, 2], tf.int64), [4, 3])


_W = [[0, 0], [0, 2], [1, 1], [3, 0]]


@pytest.mark.parametrize("fn,indices,values,shape", [
    (lambda: tf.sparse.bincount(_v1()), [[0], [1], [3], [7]], [1, 1, 2, 1], [8]),
    (lambda: tf.sparse.bincount(_v1(), minlength=10), [[0], [1], [3], [7]], [1, 1, 2, 1], [10]),
    (lambda: tf.sparse.bincount(_v1(), maxlength=4), [[0], [1], [3]], [1, 1, 2], [4]),
    (lambda: tf.sparse.bincount(_v1(), minlength=2, maxlength=4), [[0], [1], [3]], [1, 1, 2], [4]),
    (lambda: tf.sparse.bincount(_v1(), binary_output=True), [[0], [1], [3], [7]], [1, 1, 1, 1], [8]),
    (lambda: tf.sparse.bincount(_v1(), weights=[1., 2., 3., 4., 5.]), [[0], [1], [3], [7]], [4., 2., 4., 5.], [8]),
    (lambda: tf.sparse.bincount(_v2()), [[0], [1], [3], [7]], [1, 1, 2, 2], [8]),
    (lambda: tf.sparse.bincount(_v2(), axis=-1), [[0, 1], [0, 3], [1, 0], [1, 7]], [1, 2, 1, 2], [2, 8]),
    (lambda: tf.sparse.bincount(_v2(), axis=-1, maxlength=5), [[0, 1], [0, 3], [1, 0]], [1, 2, 1], [2, 5]),
    (lambda: tf.sparse.bincount(_v2(), axis=-1, weights=tf.constant([[1., 2, 3], [4, 5, 6]])),
     [[0, 1], [0, 3], [1, 0], [1, 7]], [2., 4., 4., 11.], [2, 8]),
    (lambda: tf.sparse.bincount(tf.zeros([0], tf.int64)), [], [], [1]),
    (lambda: tf.sparse.bincount(tf.zeros([2, 0], tf.int64), axis=-1), [], [], [2, 1]),
    (lambda: tf.sparse.bincount(_s()), [[1], [2], [4]], [1, 1, 2], [5]),
    (lambda: tf.sparse.bincount(_s(), axis=-1), [[0, 1], [0, 4], [1, 4], [3, 2]], [1, 1, 1, 1], [4, 5]),
    (lambda: tf.sparse.bincount(_s(), axis=-1, weights=ST(_W, [.5, .25, 2., 1.], [4, 3])),
     [[0, 1], [0, 4], [1, 4], [3, 2]], [0.25, 0.5, 2., 1.], [4, 5]),
    (lambda: tf.sparse.bincount(_s(), axis=-1, maxlength=3), [[0, 1], [3, 2]], [1, 1], [4, 3]),
    (lambda: tf.sparse.bincount(_s(), weights=ST(_W, [.5, .25, 2., 1.], [4, 3])), [[1], [2], [4]],
     [0.25, 1., 2.5], [5]),
    (lambda: tf.sparse.bincount(ST([[1, 1], [0, 0]], tf.constant([2, 4], tf.int64), [2, 3]), axis=-1),
     [[0, 4], [1, 2]], [1, 1], [2, 5]),
])
def test_bincount(fn, indices, values, shape):
    v = run(fn)
    np.testing.assert_array_equal(v.indices, np.array(indices, np.int64).reshape(-1, len(shape)))
    np.testing.assert_array_equal(v.values, values)
    np.testing.assert_array_equal(v.dense_shape, shape)


def test_bincount_errors_and_dtypes():
    assert run(lambda: tf.sparse.bincount(tf.constant([1, 1, 2])).values).dtype == np.int32
    assert run(lambda: tf.sparse.bincount(_v1(), weights=[1., 2., 3., 4., 5.]).values).dtype == np.float32
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input values must all be non-negative"):
        run(lambda: tf.sparse.bincount(tf.constant([1, -2])))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input must be a 1 or 2-dimensional tensor. "
                                                             r"Got: \[2,2,2\]"):
        run(lambda: tf.sparse.bincount(tf.zeros([2, 2, 2], tf.int64), axis=-1))
    with pytest.raises(ValueError, match="Only 0 and -1 are currently supported"):
        tf.sparse.bincount(_v2(), axis=1)
    with pytest.raises(ValueError, match="mutually exclusive"):
        tf.sparse.bincount(_v1(), weights=[1., 2, 3, 4, 5], binary_output=True)
    with pytest.raises(TypeError, match="not in list of allowed values: int32, int64"):
        tf.sparse.bincount(tf.constant([1.5]))
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 2 and 5"):
        tf.sparse.bincount(_v1(), weights=[1., 2.])
    g = tf.Graph()
    with g.as_default():
        out = tf.sparse.bincount(_v2(), axis=-1)
        assert out.indices.shape.as_list() == [None, 2] and out.dense_shape.shape.as_list() == [2]


def test_sparse_tensor_spec():
    spec = tf.SparseTensorSpec([2, 3], tf.int32)
    assert spec.shape.as_list() == [2, 3] and spec.dtype == tf.int32 and spec.value_type is tf.SparseTensor
    g = tf.Graph()
    with g.as_default():
        assert spec.is_compatible_with(ST([[0, 0]], [1], [2, 3]))
        assert not spec.is_compatible_with(ST([[0, 0]], [1.], [2, 3]))


def test_sparse_placeholder():
    g = tf.Graph()
    with g.as_default():
        x = tf.sparse_placeholder(tf.float32, name="sp")
        assert [op.name for op in g.get_operations()] == ["sp/shape", "sp/values", "sp/indices"]
        assert x.shape.ndims is None and x.indices.shape.as_list() == [None, None]
        y = tf.sparse.reduce_sum(x, 1)
        x2 = tf.sparse.placeholder(tf.float32, shape=[3, 4])
        assert x2.shape.as_list() == [3, 4] and x2.indices.shape.as_list() == [None, 2]
        x3 = tf.sparse_placeholder(tf.int64, shape=[None, 5])
        assert x3.shape.as_list() == [None, 5] and x3.dense_shape.op.type == "PlaceholderWithDefault"
        with tf.Session() as s:
            np.testing.assert_array_equal(s.run(y, {x: tf.SparseTensorValue([[0, 0], [1, 2]], [1., 2.], [3, 4])}),
                                          [1., 2., 0.])
            np.testing.assert_array_equal(s.run(y, {x: ([[0, 0], [2, 2]], [1., 5.], [3, 4])}), [1., 0., 5.])
            np.testing.assert_array_equal(s.run(tf.sparse.to_dense(x2), {x2: tf.SparseTensorValue([[0, 1]], [7.],
                                                                                                  [3, 4])}),
                                          [[0, 7, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
            v = s.run(x3, {x3: ([[0, 1]], [7], [2, 5])})
            assert isinstance(v, tf.SparseTensorValue)
            np.testing.assert_array_equal(v.dense_shape, [2, 5])
            with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value for placeholder"):
                s.run(y)
            with pytest.raises(ValueError, match="3 parts"):
                s.run(y, {x: ([[0, 0]], [1.])})
    from tensorweave.eager import context
    with context.eager_mode():
        with pytest.raises(RuntimeError, match="not compatible with eager execution"):
            tf.sparse.placeholder(tf.float32)


def test_any_sparse_tensor_of_placeholders_can_be_fed_as_in_tf():
    with tf.Graph().as_default():
        sp = tf.SparseTensor(tf.placeholder(tf.int64, [None, 2]), tf.placeholder(tf.float32, [None]),
                             tf.placeholder(tf.int64, [2]))
        dense = tf.sparse.to_dense(sp)
        with tf.Session() as sess:
            out = sess.run(dense, {sp: tf.SparseTensorValue([[0, 1]], [5.0], [2, 2])})
            assert out.tolist() == [[0.0, 5.0], [0.0, 0.0]]
            out = sess.run(dense, {sp: ([[1, 0]], [2.0], [2, 2])})
            assert out.tolist() == [[0.0, 0.0], [2.0, 0.0]]
            with pytest.raises(ValueError, match="must have 3 parts"):
                sess.run(dense, {sp: ([[1, 0]], [2.0])})
