"""Gradient accumulators (tensorweave/ops/data_flow_accumulator_ops.py): `tf.ConditionalAccumulator` and
`tf.SparseConditionalAccumulator`, with values, names and messages recorded from TensorFlow (tf.compat.v1
graph mode): stale gradients dropped, mean/sum, blocking take_grad across threads and timeouts."""

import threading
import time

import numpy as np
import pytest

import tensorweave as tf


def test_conditional_accumulator_mean_stale_gradients_and_global_step():
    a = tf.ConditionalAccumulator(tf.float32, shape=[2])
    assert a.accumulator_ref.op.type == "ResourceConditionalAccumulator" and a.name == "conditional_accumulator"
    assert a.dtype == tf.float32 and isinstance(a, tf.ConditionalAccumulatorBase)
    apply = a.apply_grad([1.0, 2.0], local_step=0)
    take = a.take_grad(2)
    n = a.num_accumulated()
    assert (apply.type, take.op.type, take.shape.as_list()) == ("ResourceAccumulatorApplyGradient",
                                                               "ResourceAccumulatorTakeGradient", [2])
    assert n.name == "conditional_accumulator_NumAccumulated:0"
    x = tf.placeholder(tf.float32)
    with tf.Session() as sess:
        sess.run(apply)
        sess.run(a.apply_grad([3.0, 5.0], local_step=0))
        assert sess.run(n) == 2
        np.testing.assert_array_equal(sess.run(take), [2.0, 3.5])
        assert sess.run(n) == 0
        sess.run(a.apply_grad([1.0, 1.0], local_step=0))
        assert sess.run(n) == 0  # stale: the global step is 1 after a take
        sess.run(a.apply_grad([1.0, 1.0], local_step=1))
        assert sess.run(n) == 1
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape mismatch: expected \[2\], got \[3\]"):
            sess.run(a.apply_grad(x, local_step=5), {x: [1.0, 2.0, 3.0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="Argument num_required must be positive, but was 0"):
            sess.run(a.take_grad(0))
        with pytest.raises(tf.errors.DeadlineExceededError, match="Timed out waiting for notification"):
            sess.run(a.take_grad(3), options=tf.RunOptions(timeout_in_ms=100))
        sess.run(a.set_global_step(3))
        sess.run(a.apply_grad([1.0, 1.0], local_step=2))
        assert sess.run(n) == 1


def test_sum_reduction_and_argument_errors():
    b = tf.ConditionalAccumulator(tf.float64, reduction_type="SUM")
    with tf.Session() as sess:
        sess.run(b.apply_grad(np.array([[1.0, 2.0]])))
        sess.run(b.apply_grad(np.array([[3.0, 4.0]])))
        np.testing.assert_array_equal(sess.run(b.take_grad(2)), [[4.0, 6.0]])
    with pytest.raises(ValueError, match="Attr 'reduction_type' of 'ResourceConditionalAccumulator' Op passed "
                                         "string 'MAX' not in: \"MEAN\", \"SUM\"."):
        tf.ConditionalAccumulator(tf.float32, reduction_type="MAX")
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values: float16, float32, float64"):
        tf.ConditionalAccumulator(tf.int32)
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
        tf.ConditionalAccumulator(tf.float32, shape=[2]).apply_grad([1.0, 2.0, 3.0])


def test_take_grad_blocks_until_enough_gradients_arrive():
    a = tf.ConditionalAccumulator(tf.float32, shape=[])
    take = a.take_grad(2)
    x = tf.placeholder(tf.float32, [])
    apply = a.apply_grad(x)
    out = {}
    with tf.Session() as sess:
        t = threading.Thread(target=lambda: out.update(value=sess.run(take)))
        t.start()
        sess.run(apply, {x: 1.0})
        time.sleep(0.1)
        assert t.is_alive()
        sess.run(apply, {x: 4.0})
        t.join(5)
    assert out == {"value": 2.5}


def test_sparse_conditional_accumulator_means_per_index():
    sa = tf.SparseConditionalAccumulator(tf.float32, shape=[3, 2])
    assert sa.accumulator_ref.op.type == "SparseConditionalAccumulator" and sa.name == "sparse_conditional_accumulator"
    first = sa.apply_grad(grad_indices=[0, 2], grad_values=[[1.0, 1.0], [2.0, 2.0]], grad_shape=[3, 2])
    grad = tf.IndexedSlices(tf.constant([[3.0, 3.0], [5.0, 5.0]]), tf.constant([2, 1], tf.int64),
                            tf.constant([3, 2], tf.int64))
    second = sa.apply_indexed_slices_grad(grad)
    taken = sa.take_grad(2)
    assert first.type == "SparseAccumulatorApplyGradient" and taken.indices.op.type == "SparseAccumulatorTakeGradient"
    slices = sa.take_indexed_slices_grad(1)
    assert isinstance(slices, tf.IndexedSlices)
    with tf.Session() as sess:
        sess.run(first)
        sess.run(second)
        assert sess.run(sa.num_accumulated()) == 2
        indices, values, shape = sess.run(taken)
        assert indices.tolist() == [0, 2, 1] and shape.tolist() == [3, 2]
        np.testing.assert_array_equal(values, np.array([[1.0, 1.0], [2.5, 2.5], [5.0, 5.0]], np.float32))
        sess.run(sa.apply_grad(grad_indices=[1], grad_values=[[4.0, 4.0]], local_step=1))
        got = sess.run(slices)
        assert got.indices.tolist() == [1] and got.values.tolist() == [[4.0, 4.0]]
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Shape mismatch: expected values dim 1 to be 2, got 3"):
            sess.run(sa.apply_grad(grad_indices=[1], grad_values=[[4.0, 4.0, 4.0]], local_step=2))
        sess.run(sa.set_global_step(9))
        sess.run(sa.apply_grad(grad_indices=[1], grad_values=[[4.0, 4.0]], local_step=2))
        assert sess.run(sa.num_accumulated()) == 0
