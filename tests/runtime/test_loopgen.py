"""While loops run as one generated function; they agree with the reference interpreter."""

import numpy as np
import pytest

import tensorweave as tf
from tests.runtime import INTERPRETER


def _both(fetches, feed=None, init=None):
    out = []
    for config in (None, INTERPRETER):
        with tf.Session(config=config) as sess:
            if init is not None:
                sess.run(init)
            out.append(sess.run(fetches, feed))
            loops = [v for k, v in sess._state.op_state.items() if isinstance(k, tuple) and k[0] == "loop"]
        assert bool(loops and loops[0] is not None) == (config is None)
    return out


def test_loop_with_captures_swaps_and_maximum_iterations():
    n = tf.placeholder(tf.int32, [])
    scale = tf.placeholder(tf.float32, [])
    _, a, b = tf.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, b * scale, a + 1.0),
                            (tf.constant(0), tf.constant(1.0), tf.constant(2.0)), maximum_iterations=7)
    got, ref = _both([a, b], {n: 10, scale: 3.0})
    a_, b_ = 1.0, 2.0
    for _ in range(7):
        a_, b_ = b_ * 3.0, a_ + 1.0
    assert [float(v) for v in got] == [float(v) for v in ref] == [a_, b_]


def test_zero_iterations_and_vector_loop_vars():
    x = tf.placeholder(tf.float32, [3])
    i, y = tf.while_loop(lambda i, y: i < 0, lambda i, y: (i + 1, y * 2.0), [tf.constant(0), x])
    got, ref = _both([i, y], {x: [1.0, 2.0, 3.0]})
    assert got[0] == 0 and got[1].tolist() == ref[1].tolist() == [1.0, 2.0, 3.0]


def test_stateful_body_runs_once_per_iteration():
    v = tf.Variable(0.0)
    i = tf.while_loop(lambda i: i < 5, lambda i: tf.tuple([i + 1], control_inputs=[tf.assign_add(v, 2.0)])[0],
                      [tf.constant(0)])
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(i) == 5
        assert sess.run(v) == 10.0


def test_gradient_through_the_generated_loop_records_history():
    x = tf.placeholder(tf.float32, [])
    _, y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, y * x), [tf.constant(0), tf.constant(1.0)])
    (dx,) = tf.gradients(y, x)
    got, ref = _both([y, dx], {x: 1.5})
    np.testing.assert_allclose(got, [1.5 ** 4, 4 * 1.5 ** 3], rtol=1e-6)
    np.testing.assert_allclose(ref, got, rtol=0)


def test_tensor_array_loop():
    ta = tf.TensorArray(tf.float32, size=4)
    _, ta = tf.while_loop(lambda i, ta: i < 4, lambda i, ta: (i + 1, ta.write(i, tf.cast(i, tf.float32) ** 2)),
                          [tf.constant(0), ta])
    got, ref = _both(ta.stack())
    assert got.tolist() == ref.tolist() == [0.0, 1.0, 4.0, 9.0]


def test_error_in_the_body_names_the_op():
    x = tf.placeholder(tf.float32, [None])
    _, y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, tf.reshape(y, [2, 2], name="bad_reshape")),
                         [tf.constant(0), x], shape_invariants=[tf.TensorShape([]), tf.TensorShape(None)])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="bad_reshape"):
            sess.run(y, {x: [1.0, 2.0, 3.0]})


def test_non_scalar_condition_is_an_error_naming_the_loop():
    x = tf.placeholder(tf.bool, [None])
    out = tf.while_loop(lambda i: tf.logical_and(x, i < 3), lambda i: i + 1, [tf.constant(0)], name="loop")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="must be a scalar, got shape \\[2\\]"):
            sess.run(out, {x: [True, True]})


def test_scalar_loop_values_keep_their_dtypes():
    n = tf.placeholder(tf.int32, [])
    i, s = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + 0.5), [tf.constant(0), tf.constant(0.0)])
    got, ref = _both([i, s], {n: 3})
    assert got[0].dtype == np.int32 and got[1].dtype == np.float32
    assert (int(got[0]), float(got[1])) == (int(ref[0]), float(ref[1])) == (3, 1.5)
