"""tf.TensorArray (TF1 graph mode): write/read/stack/unstack/gather/scatter/concat/split/size/close/
identity, dynamic sizing, write-once and clear-after-read run-time errors, static dtype and element
shape checks, use inside while_loop, and numerical gradients (float64)."""

import re

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.op_harness import check_gradient


def _run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


# ==== basic element access =========================================================================
def test_write_read_returns_elements_with_static_shape():
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.write(0, [1.0, 2.0]).write(1, [3.0, 4.0]).write(2, [5.0, 6.0])
    r0, r2 = ta.read(0), ta.read(2)
    assert r0.dtype is tf.float32
    assert r0.shape.as_list() == [2]
    assert ta.element_shape.as_list() == [2]
    v0, v2 = _run([r0, r2])
    assert v0.dtype == np.float32
    np.testing.assert_array_equal(v0, [1.0, 2.0])
    np.testing.assert_array_equal(v2, [5.0, 6.0])


def test_write_python_value_converts_to_array_dtype():
    ta = tf.TensorArray(tf.float32, size=1).write(0, 3)
    r = ta.read(0)
    assert r.dtype is tf.float32
    out = _run(r)
    assert out.dtype == np.float32 and out == 3.0


def test_stack():
    ta = tf.TensorArray(tf.int32, size=3)
    ta = ta.write(0, [1, 2]).write(1, [3, 4]).write(2, [5, 6])
    s = ta.stack()
    assert s.dtype is tf.int32
    assert s.shape.ndims == 2 and s.shape.as_list()[1:] == [2]
    assert s.shape.is_compatible_with([3, 2])
    np.testing.assert_array_equal(_run(s), [[1, 2], [3, 4], [5, 6]])


def test_unstack_then_read_and_stack_roundtrip():
    value = np.arange(12, dtype=np.float32).reshape(4, 3)
    x = tf.placeholder(tf.float32, [None, 3])
    ta = tf.TensorArray(tf.float32, size=4).unstack(x)
    r = ta.read(2)
    assert r.shape.as_list() == [3]
    np.testing.assert_array_equal(_run(r, {x: value}), value[2])
    ta2 = tf.TensorArray(tf.float32, size=4).unstack(x)
    np.testing.assert_array_equal(_run(ta2.stack(), {x: value}), value)


def test_gather():
    value = np.array([[1, 2], [3, 4], [5, 6], [7, 8]], np.int64)
    ta = tf.TensorArray(tf.int64, size=4).unstack(value)
    g = ta.gather([3, 0, 2])
    assert g.dtype is tf.int64
    assert g.shape.as_list() == [3, 2]
    np.testing.assert_array_equal(_run(g), value[[3, 0, 2]])


def test_scatter():
    ta = tf.TensorArray(tf.float32, size=3).scatter([2, 0, 1], [[1.0], [2.0], [3.0]])
    np.testing.assert_array_equal(_run(ta.stack()), [[2.0], [3.0], [1.0]])


def test_scatter_partial_into_dynamic_array():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True).scatter([4, 1], [10.0, 20.0])
    size, r4 = _run([ta.size(), ta.read(4)])
    assert size == 5 and r4 == 10.0


def test_concat_of_elements_with_different_lengths():
    ta = tf.TensorArray(tf.float32, size=3, infer_shape=False)
    ta = ta.write(0, [[4.0, 5.0]]).write(1, [[6.0, 7.0], [106.0, 107.0]]).write(2, [[8.0, 9.0]])
    c = ta.concat()
    assert c.dtype is tf.float32
    np.testing.assert_array_equal(_run(c), [[4.0, 5.0], [6.0, 7.0], [106.0, 107.0], [8.0, 9.0]])


def test_split_then_read_each_element():
    ta = tf.TensorArray(tf.float32, size=3, infer_shape=False).split([1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                                                                     lengths=[1, 2, 3])
    r0, r1, r2 = _run([ta.read(0), ta.read(1), ta.read(2)])
    np.testing.assert_array_equal(r0, [1.0])
    np.testing.assert_array_equal(r1, [2.0, 3.0])
    np.testing.assert_array_equal(r2, [4.0, 5.0, 6.0])


def test_split_then_concat_roundtrip_with_lengths_tensor():
    x = tf.placeholder(tf.float32, [None, 2])
    lengths = tf.placeholder(tf.int64, [None])
    ta = tf.TensorArray(tf.float32, size=3, infer_shape=False).split(x, lengths)
    value = np.arange(12, dtype=np.float32).reshape(6, 2)
    out = _run(ta.concat(), {x: value, lengths: [3, 0, 3]})
    np.testing.assert_array_equal(out, value)


def test_split_with_equal_constant_lengths_infers_element_shape():
    ta = tf.TensorArray(tf.float32, size=2).split(tf.zeros([6, 3]), [3, 3])
    assert ta.element_shape.as_list() == [3, 3]
    assert ta.read(0).shape.as_list() == [3, 3]


def test_split_lengths_not_summing_to_value_fails():
    ta = tf.TensorArray(tf.float32, size=2).split([1.0, 2.0, 3.0], lengths=[1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="sum of lengths"):
        _run(ta.concat())


def test_size_of_fixed_and_dynamic_arrays():
    fixed = tf.TensorArray(tf.float32, size=5)
    assert fixed.size().dtype is tf.int32
    dyn = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    grown = dyn.write(0, 1.0).write(3, 2.0)
    assert _run([fixed.size(), dyn.size(), grown.size()]) == [5, 0, 4]


def test_size_from_tensor():
    n = tf.placeholder(tf.int32, [])
    ta = tf.TensorArray(tf.float32, size=n)
    assert _run(ta.size(), {n: 7}) == 7


def test_close_returns_an_operation():
    ta = tf.TensorArray(tf.float32, size=1).write(0, 1.0)
    c = ta.close()
    assert isinstance(c, tf.Operation)
    assert _run(c) is None


def test_identity_keeps_contents():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.5).write(1, 2.5)
    ta2 = ta.identity()
    assert isinstance(ta2, tf.TensorArray)
    assert ta2.dtype is tf.float32
    np.testing.assert_array_equal(_run(ta2.stack()), [1.5, 2.5])


def test_properties():
    ta = tf.TensorArray(tf.int32, size=2, dynamic_size=True, element_shape=[3])
    assert ta.dtype is tf.int32
    assert ta.dynamic_size is True
    assert ta.element_shape.as_list() == [3]
    assert isinstance(ta.flow, tf.Tensor)
    assert tf.TensorArray(tf.float32, size=1).dynamic_size is False


def test_each_run_starts_a_fresh_array():
    ta = tf.TensorArray(tf.float32, size=1).write(0, 4.0)
    r = ta.read(0)
    with tf.Session() as sess:
        assert sess.run(r) == 4.0
        assert sess.run(r) == 4.0


# ==== dynamic size and overflow ====================================================================
def test_dynamic_size_grows_on_write():
    ta = tf.TensorArray(tf.float32, size=1, dynamic_size=True)
    ta = ta.write(0, 1.0).write(1, 2.0).write(5, 6.0)
    assert _run(ta.size()) == 6
    ta2 = tf.TensorArray(tf.float32, size=1, dynamic_size=True).write(0, 1.0).write(1, 2.0).write(2, 3.0)
    np.testing.assert_array_equal(_run(ta2.stack()), [1.0, 2.0, 3.0])


def test_fixed_size_overflow_fails_at_run_time():
    ta = tf.TensorArray(tf.float32, size=2).write(2, 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Tried to write to index 2 but array is not resizeable and size is: 2"):
        _run(ta.flow)


def test_negative_index_write_fails():
    ta = tf.TensorArray(tf.float32, size=2).write(-1, 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError):
        _run(ta.flow)


def test_read_out_of_range_fails():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tried to read from index 5 but array size is: 2"):
        _run(ta.read(5))


def test_unstack_more_rows_than_fixed_size_fails():
    ta = tf.TensorArray(tf.float32, size=2).unstack([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not resizeable"):
        _run(ta.flow)


# ==== write-once and clear-after-read ==============================================================
def test_writing_an_index_twice_fails():
    ta = tf.TensorArray(tf.float32, size=3).write(2, 3.0).write(2, 4.0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Could not write to TensorArray index 2 because it has already been written to"):
        _run(ta.flow)


def test_reading_twice_fails_with_clear_after_read():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Could not read index 0 twice because it was cleared after a previous read"):
        _run([ta.read(0), ta.read(0)])


def test_read_then_stack_fails_with_clear_after_read():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0)
    r = ta.read(1)
    with tf.control_dependencies([r]):
        s = ta.stack()
    with pytest.raises(tf.errors.InvalidArgumentError, match="twice"):
        _run([r, s])


def test_reading_twice_allowed_without_clear_after_read():
    ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False).write(0, 1.0).write(1, 2.0)
    a, b = ta.read(0), ta.read(0)
    with tf.control_dependencies([a, b]):
        s = ta.stack()
    assert _run([a, b]) == [1.0, 1.0]
    np.testing.assert_array_equal(_run(s), [1.0, 2.0])


def test_reading_unwritten_element_with_full_element_shape_gives_zeros():
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[2]).write(1, [1.0, 2.0])
    np.testing.assert_array_equal(_run(ta.read(0)), [0.0, 0.0])


def test_reading_unwritten_element_without_shape_fails():
    ta = tf.TensorArray(tf.float32, size=2, infer_shape=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not read from TensorArray index 0"):
        _run(ta.read(0))


# ==== static checks ===============================================================================
def test_dtype_mismatch_on_write_fails():
    """TF rejects writing a float64 tensor into a float32 array with 'TensorArray dtype is float ...': here
    either when the graph is built or when it runs."""
    ta = tf.TensorArray(tf.float32, size=1)
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError), match="TensorArray dtype is float"):
        w = ta.write(0, tf.constant(1.0, tf.float64))
        _run(w.flow)


def test_dtype_mismatch_on_unstack_and_scatter_fails():
    ta = tf.TensorArray(tf.int32, size=2)
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError), match="TensorArray dtype is int32"):
        _run(ta.unstack(tf.constant([1.0, 2.0])).flow)
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError), match="TensorArray dtype is int32"):
        _run(ta.scatter([0, 1], tf.constant([1.0, 2.0])).flow)


def test_element_shape_inferred_from_first_write():
    ta = tf.TensorArray(tf.float32, size=3)
    assert ta.element_shape.ndims is None
    ta = ta.write(0, tf.zeros([2, 3]))
    assert ta.element_shape.as_list() == [2, 3]
    assert ta.read(1).shape.as_list() == [2, 3]
    assert ta.stack().shape.as_list()[1:] == [2, 3]


def test_inconsistent_element_shapes_raise_value_error():
    ta = tf.TensorArray(tf.float32, size=3).write(0, tf.zeros([2]))
    with pytest.raises(ValueError, match="Inconsistent shapes"):
        ta.write(1, tf.zeros([3]))


def test_write_conflicting_with_declared_element_shape_raises_value_error():
    ta = tf.TensorArray(tf.float32, size=3, element_shape=[2])
    with pytest.raises(ValueError, match="Inconsistent shapes"):
        ta.write(0, tf.zeros([4]))
    with pytest.raises(ValueError, match="Inconsistent shapes"):
        ta.unstack(tf.zeros([3, 5]))


def test_infer_shape_false_allows_different_shapes():
    ta = tf.TensorArray(tf.float32, size=2, infer_shape=False)
    ta = ta.write(0, tf.zeros([2])).write(1, tf.ones([3]))
    assert ta.read(0).shape.ndims is None
    np.testing.assert_array_equal(_run(ta.read(1)), [1.0, 1.0, 1.0])


def test_partially_known_shape_is_refined():
    x = tf.placeholder(tf.float32, [None, 3])
    ta = tf.TensorArray(tf.float32, size=2).write(0, x)
    assert ta.element_shape.as_list() == [None, 3]
    ta = ta.write(1, tf.zeros([4, 3]))
    assert ta.element_shape.as_list() == [4, 3]


def test_stack_with_inconsistent_runtime_shapes_fails():
    x = tf.placeholder(tf.float32, [None])
    y = tf.placeholder(tf.float32, [None])
    ta = tf.TensorArray(tf.float32, size=2).write(0, x).write(1, y)
    with pytest.raises(tf.errors.InvalidArgumentError):
        _run(ta.stack(), {x: [1.0, 2.0], y: [1.0]})


def test_stack_of_empty_dynamic_array_with_element_shape():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
    out = _run(ta.stack())
    assert out.shape == (0, 2) and out.dtype == np.float32


def test_size_required():
    with pytest.raises(ValueError):
        tf.TensorArray(tf.float32)


# ==== inside while_loop ===========================================================================
def test_fibonacci_tensor_array_in_while_loop():
    n = 10
    ta = tf.TensorArray(tf.int32, size=n, clear_after_read=False)
    ta = ta.write(0, 0).write(1, 1)

    def body(i, ta):
        return i + 1, ta.write(i, ta.read(i - 1) + ta.read(i - 2))

    _, ta_out = tf.while_loop(lambda i, ta: i < n, body, [2, ta])
    assert isinstance(ta_out, tf.TensorArray)
    np.testing.assert_array_equal(_run(ta_out.stack()), [0, 1, 1, 2, 3, 5, 8, 13, 21, 34])


def test_dynamic_tensor_array_filled_in_while_loop():
    n = tf.placeholder(tf.int32, [])
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, tf.cast(i * i, tf.float32))),
                          [0, ta])
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(ta.stack(), {n: 5}), [0.0, 1.0, 4.0, 9.0, 16.0])
        assert sess.run(ta.size(), {n: 3}) == 3


def test_fixed_tensor_array_overflow_in_while_loop_fails():
    ta = tf.TensorArray(tf.float32, size=2)
    _, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, 1.0)), [0, ta])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not resizeable"):
        _run(ta.stack())


def test_unstacked_input_read_in_while_loop():
    x = tf.placeholder(tf.float32, [None, 2])
    n = tf.shape(x)[0]
    in_ta = tf.TensorArray(tf.float32, size=n).unstack(x)
    out_ta = tf.TensorArray(tf.float32, size=n)

    def body(i, acc, out):
        row = in_ta.read(i)
        acc = acc + row
        return i + 1, acc, out.write(i, acc)

    _, total, out = tf.while_loop(lambda i, a, o: i < n, body, [0, tf.zeros([2]), out_ta])
    value = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
    t, s = _run([total, out.stack()], {x: value})
    np.testing.assert_array_equal(t, [9.0, 12.0])
    np.testing.assert_array_equal(s, np.cumsum(value, 0))


def test_tensor_array_inside_cond_branch():
    p = tf.placeholder(tf.bool, [])

    def make(v):
        return tf.TensorArray(tf.float32, size=2).write(0, v).write(1, v * 2.0).stack()

    r = tf.cond(p, lambda: make(1.0), lambda: make(5.0))
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(r, {p: True}), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(r, {p: False}), [5.0, 10.0])


# ==== gradients (outside loops) ===================================================================
def test_gradient_write_read_numerical():
    rng = np.random.RandomState(0)
    x0, y0 = rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (2, 3))

    def fn(x, y):
        ta = tf.TensorArray(tf.float64, size=2).write(0, x).write(1, y)
        return ta.read(0) * tf.sin(ta.read(1))

    check_gradient(fn, x0, y0)


def test_gradient_write_stack_numerical():
    rng = np.random.RandomState(1)
    x0, y0 = rng.uniform(-1, 1, (3,)), rng.uniform(-1, 1, (3,))

    def fn(x, y):
        s = tf.TensorArray(tf.float64, size=2).write(0, x * x).write(1, y * 3.0).stack()
        return tf.reshape(s, [2, 3]) * tf.constant([[1.0], [2.0]], tf.float64)

    check_gradient(fn, x0, y0)


def test_gradient_unstack_read_numerical():
    x0 = np.random.RandomState(2).uniform(-1, 1, (3, 2))

    def fn(x):
        ta = tf.TensorArray(tf.float64, size=3).unstack(x)
        return ta.read(0) * ta.read(2) + ta.read(1)

    check_gradient(fn, x0)


def test_gradient_unstack_stack_value():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)
    s = tf.TensorArray(tf.float64, size=2).unstack(x).stack()
    g = tf.gradients(s * s, x)[0]
    np.testing.assert_allclose(_run(g), [[2.0, 4.0], [6.0, 8.0]])


def test_gradient_of_unread_element_is_zero():
    x = tf.constant(2.0, tf.float64)
    y = tf.constant(3.0, tf.float64)
    ta = tf.TensorArray(tf.float64, size=2).write(0, x).write(1, y)
    gx, gy = tf.gradients(ta.read(1) * 5.0, [x, y])
    assert _run([gx, gy]) == [0.0, 5.0]


def test_gradient_scatter_gather_numerical():
    x0 = np.random.RandomState(3).uniform(-1, 1, (3, 2))

    def fn(x):
        ta = tf.TensorArray(tf.float64, size=4).scatter([2, 0, 3], x)
        return tf.reshape(ta.gather([3, 2]), [2, 2]) * tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)

    check_gradient(fn, x0)


def test_gradient_split_concat_numerical():
    x0 = np.random.RandomState(4).uniform(-1, 1, (5, 2))

    def fn(x):
        ta = tf.TensorArray(tf.float64, size=3, infer_shape=False).split(x, [2, 1, 2])
        c = ta.concat()
        return tf.reshape(c, [5, 2]) * tf.reshape(tf.range(10, dtype=tf.float64), [5, 2])

    check_gradient(fn, x0)


def test_gradient_equal_split_concat_numerical():
    x0 = np.random.RandomState(7).uniform(-1, 1, (4, 2))

    def fn(x):
        c = tf.TensorArray(tf.float64, size=2).split(x, [2, 2]).concat()
        return tf.reshape(c * c, [4, 2]) * tf.constant([[1.0], [2.0], [3.0], [4.0]], tf.float64)

    check_gradient(fn, x0)


def test_gradient_split_read_numerical():
    x0 = np.random.RandomState(5).uniform(-1, 1, (4,))

    def fn(x):
        ta = tf.TensorArray(tf.float64, size=2, infer_shape=False).split(x, [3, 1])
        return tf.reshape(tf.reduce_sum(ta.read(0) ** 2) * ta.read(1), [1])

    check_gradient(fn, x0)


# ==== gradients (inside while_loop) ===============================================================
def test_gradient_through_tensor_array_in_while_loop_numerical():
    rng = np.random.RandomState(6)
    x0 = rng.uniform(-1, 1, (4, 2))
    w0 = rng.uniform(0.5, 1.5, (2,))

    def fn(x, w):
        in_ta = tf.TensorArray(tf.float64, size=4).unstack(x)
        out_ta = tf.TensorArray(tf.float64, size=4)

        def body(i, h, out):
            h = tf.tanh(in_ta.read(i) * w + h)
            return i + 1, h, out.write(i, h * h)

        _, _, out = tf.while_loop(lambda i, h, o: i < 4, body,
                                  [0, tf.zeros([2], tf.float64), out_ta])
        return tf.reshape(out.stack(), [4, 2])

    check_gradient(fn, x0, w0)


def test_gradient_dynamic_tensor_array_in_while_loop_value():
    x = tf.constant(2.0, tf.float64)
    ta = tf.TensorArray(tf.float64, size=0, dynamic_size=True)

    def body(i, v, ta):
        return i + 1, v * x, ta.write(i, v)

    _, _, ta = tf.while_loop(lambda i, v, ta: i < 4, body, [0, tf.constant(1.0, tf.float64), ta])
    total = tf.reduce_sum(ta.stack())  # 1 + x + x^2 + x^3
    g = tf.gradients(total, x)[0]
    assert _run([total, g]) == [15.0, 1.0 + 2 * 2.0 + 3 * 4.0]


def test_gradient_fibonacci_like_recurrence_in_while_loop_numerical():
    x0 = np.array([0.3, 0.7])

    def fn(x):
        ta = tf.TensorArray(tf.float64, size=6, clear_after_read=False)
        ta = ta.write(0, x[0]).write(1, x[1])

        def body(i, ta):
            return i + 1, ta.write(i, ta.read(i - 1) * ta.read(i - 2) + ta.read(i - 1))

        _, ta = tf.while_loop(lambda i, ta: i < 6, body, [2, ta])
        return tf.reshape(ta.stack(), [6])

    check_gradient(fn, x0)


# ==== static shapes of stack/concat and empty arrays (issue 15, item 4) ===========================
def test_scatter_then_stack_static_shape_takes_the_array_size():
    x = tf.placeholder(tf.float32, [3, 2])
    xu = tf.placeholder(tf.float32, [None, 2])
    n = tf.placeholder(tf.int32, [])
    feed = {x: np.ones((3, 2)), xu: np.ones((3, 2)), n: 3}
    cases = [
        (tf.TensorArray(tf.float32, size=3).scatter([0, 1, 2], x).stack(), [3, 2], (3, 2)),
        (tf.TensorArray(tf.float32, size=3).scatter([0, 2], x[:2]).stack(), [3, 2], (3, 2)),
        (tf.TensorArray(tf.float32, size=5).unstack(x).stack(), [5, 2], (5, 2)),
        (tf.TensorArray(tf.float32, size=3).unstack(xu).stack(), [3, 2], (3, 2)),
        (tf.TensorArray(tf.float32, size=3).write(0, x[0]).stack(), [3, 2], (3, 2)),
        (tf.TensorArray(tf.float32, size=3, element_shape=[2]).stack(), [3, 2], (3, 2)),
        # Unknown size, a dynamic array, no element shape: no leading dimension (as TF).
        (tf.TensorArray(tf.float32, size=n).scatter([0, 1, 2], x).stack(), [None, 2], (3, 2)),
        (tf.TensorArray(tf.float32, size=3, dynamic_size=True).scatter([0, 1, 2], x).stack(), [None, 2], (3, 2)),
        (tf.TensorArray(tf.float32, size=3, infer_shape=False).scatter([0, 1, 2], x).stack(), None, (3, 2)),
        # concat: size times the elements' first dimension.
        (tf.TensorArray(tf.float32, size=3).scatter([0, 1, 2], x).concat(), [6], (6,)),
        (tf.TensorArray(tf.float32, size=2, element_shape=[2]).concat(), [4], (4,)),
        (tf.TensorArray(tf.float32, size=2).unstack(tf.zeros([2, 3, 2])).concat(), [6, 2], (6, 2)),
    ]
    for t, static, runtime in cases:
        assert (t.shape.as_list() if t.shape.ndims is not None else None) == static, t
        assert _run(t, feed).shape == runtime
    # The leading dimension survives a while loop that threads the array.
    ta = tf.TensorArray(tf.float32, size=4)
    _, ta = tf.while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, a.write(i, tf.cast(i, tf.float32) * [1.0, 2.0])),
                          [0, ta])
    s = ta.stack()
    assert s.shape.as_list() == [4, 2]
    np.testing.assert_array_equal(_run(s), [[0, 0], [1, 2], [2, 4], [3, 6]])


def test_stack_of_empty_array_keeps_element_shape():
    s = tf.TensorArray(tf.float32, size=0).unstack(tf.zeros([0, 2])).stack()
    assert s.shape.as_list() == [0, 2]
    assert _run(s).shape == (0, 2)
    n = tf.placeholder(tf.int32, [])
    s2 = tf.TensorArray(tf.float32, size=n, element_shape=[3]).unstack(tf.zeros([0, 3])).stack()
    assert _run(s2, {n: 0}).shape == (0, 3)
    s3 = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack(tf.zeros([0, 2])).stack()
    assert s3.shape.as_list() == [None, 2] and _run(s3).shape == (0, 2)
    c = tf.TensorArray(tf.float32, size=0, element_shape=[2, 5]).concat()
    assert c.shape.as_list() == [0, 5] and _run(c).shape == (0, 5)
    g = tf.TensorArray(tf.float32, size=0, element_shape=[4]).gather(tf.zeros([0], tf.int32))
    assert _run(g).shape == (0, 4)


def test_stack_of_empty_array_without_full_element_shape_fails():
    msg = ("TensorArray has size zero, but element shape %s is not fully defined. Currently only static shapes are "
           "supported when packing zero-size TensorArrays.")
    for ta, shown in [(tf.TensorArray(tf.float32, size=0), "<unknown>"),
                      (tf.TensorArray(tf.float32, size=0, element_shape=[None, 2]), "[?,2]")]:
        with pytest.raises(tf.errors.UnimplementedError, match=re.escape(msg % shown)):
            _run(ta.stack())
    with pytest.raises(tf.errors.UnimplementedError,
                       match="TensorArray has size zero, but element_shape_except0 <unknown> is not fully defined. "
                             "Currently only static shapes are supported when concatenating zero-size TensorArrays."):
        _run(tf.TensorArray(tf.float32, size=0).concat())
