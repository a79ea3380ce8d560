"""SparseTensorsMap ops (tensorweave/ops/data_flow_sparse_map_ops.py), which carry SparseTensors through
TF1's batching queues: handles, taking elements of different dense shapes as one batch, errors, and a
map per Session."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops import data_flow_sparse_map_ops as maps


def test_take_pads_the_dense_shape_and_removes_the_elements():
    a = maps.add_sparse_to_tensors_map(tf.SparseTensor([[0]], [1.0], [2]), shared_name="m")
    c = maps.add_sparse_to_tensors_map(tf.SparseTensor([[1], [3]], [2.0, 3.0], [5]), shared_name="m")
    assert a.dtype == tf.int64 and a.shape.as_list() == [] and a.op.type == "AddSparseToTensorsMap"
    handles = tf.placeholder(tf.int64, [None])
    sp = maps.take_many_sparse_from_tensors_map(a.op, handles, rank=1)
    assert sp.indices.shape.as_list() == [None, 2] and sp.dense_shape.shape.as_list() == [2]
    with tf.Session() as sess:
        ha, hc = sess.run([a, c])
        got = sess.run(sp, {handles: [hc, ha]})
        assert got.indices.tolist() == [[0, 1], [0, 3], [1, 0]] and got.values.tolist() == [2.0, 3.0, 1.0]
        assert got.dense_shape.tolist() == [2, 5]
        with pytest.raises(tf.errors.InvalidArgumentError, match="Unable to find SparseTensor: %d in map: m" % ha):
            sess.run(sp, {handles: [ha]})  # taken already
        assert sess.run(sp, {handles: np.zeros([0], np.int64)}).dense_shape.tolist() == [0, 0]
    with tf.Session() as other:  # each Session has its own map
        with pytest.raises(tf.errors.InvalidArgumentError, match="Unable to find SparseTensor"):
            other.run(sp, {handles: [1]})


def test_add_many_splits_a_minibatch_by_rows():
    mb = tf.SparseTensor([[1, 2], [0, 1], [1, 0]], [3, 1, 2], [3, 4])
    handles = maps.add_many_sparse_to_tensors_map(mb)
    sp = maps.take_many_sparse_from_tensors_map(handles.op, handles)
    with tf.Session() as sess:
        got = sess.run(sp)
    # rows sorted, an empty third row kept, the batch's dense shape the largest element's
    assert got.indices.tolist() == [[0, 1], [1, 0], [1, 2]] and got.values.tolist() == [1, 2, 3]
    assert got.dense_shape.tolist() == [3, 4]
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Rank of input SparseTensor should be > 1, but saw "
                                                                 "rank: 1"):
            sess.run(maps.add_many_sparse_to_tensors_map(tf.SparseTensor([[0]], [1], [2])))
