"""`tf.sparse.cross` / `tf.sparse.cross_hashed` against values recorded from TensorFlow 2.21 (graph mode;
tests/data/make_sparse_tf_values.py)."""

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.graph_run import run

pytest.importorskip("farmhash")
ST = tf.SparseTensor


def a():
    return ST([[0, 0], [1, 0], [1, 1]], ["a", "b", "c"], [2, 2])


def b():
    return ST([[0, 0], [1, 0]], tf.constant([4, -5], tf.int64), [2, 1])


def d():
    return tf.constant([["f"], ["g"]])


_IDX = [[0, 0], [1, 0], [1, 1]]


@pytest.mark.parametrize("fn,values,idx,shape", [
    (lambda: tf.sparse.cross([a(), b(), d()]), [b"a_X_4_X_f", b"b_X_-5_X_g", b"c_X_-5_X_g"], _IDX, [2, 2]),
    (lambda: tf.sparse.cross([d(), a()]), [b"a_X_f", b"b_X_g", b"c_X_g"], _IDX, [2, 2]),  # sparse inputs first
    (lambda: tf.sparse.cross([a(), b()], separator="+"), [b"a+4", b"b+-5", b"c+-5"], _IDX, [2, 2]),
    (lambda: tf.sparse.cross([ST([[1, 0]], ["x"], [3, 1]), ST([[0, 0], [1, 0], [1, 1]], ["p", "q", "r"], [3, 2])]),
     [b"x_X_q", b"x_X_r"], [[1, 0], [1, 1]], [3, 2]),
    (lambda: tf.sparse.cross_hashed([a(), b(), d()]), [3252368833855849708, 4659228243211677542,
                                                       8647159298154676150], _IDX, [2, 2]),
    (lambda: tf.sparse.cross_hashed([a(), b()], num_buckets=100), [16, 89, 8], _IDX, [2, 2]),
    (lambda: tf.sparse.cross_hashed([a(), d()], num_buckets=1000, hash_key=123), [517, 136, 257], _IDX, [2, 2]),
    (lambda: tf.sparse.cross_hashed([ST([[0, 0]], tf.constant([7], tf.int32), [1, 1]), tf.constant([[3, 2]])]),
     [13691175158761660, 609562168227158215], [[0, 0], [0, 1]], [1, 2]),
])
def test_cross_values(fn, values, idx, shape):
    v = run(fn)
    np.testing.assert_array_equal(v.indices, idx)
    assert v.values.tolist() == values
    np.testing.assert_array_equal(v.dense_shape, shape)


def test_cross_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected batch size 2 got 1 at dense tensor 0"):
        run(lambda: tf.sparse.cross([a(), tf.constant([["x"]])]))
    with pytest.raises(TypeError, match="Inputs must be a list"):
        tf.sparse.cross(a())
