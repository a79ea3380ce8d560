"""tf.GradientTape: watching, nests, output gradients, persistence, nesting (higher order),
stop_recording, watched variables, reset, jacobians."""

import uuid

import numpy as np
import pytest

import tensorweave as tf


def test_gradient_of_a_watched_tensor():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x).numpy() == 6.0


def test_unwatched_tensors_have_no_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_nested_sources_and_targets():
    x = tf.constant([1.0, 2.0])
    z = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([x, {"z": z}])
        a = tf.reduce_sum(x * z)
        b = z * z
    g = tape.gradient({"a": a, "b": b}, {"x": x, "pair": (z, x)})
    np.testing.assert_array_equal(g["x"].numpy(), [3.0, 3.0])
    assert g["pair"][0].numpy() == 3.0 + 6.0  # d(a+b)/dz = sum(x) + 2z
    np.testing.assert_array_equal(g["pair"][1].numpy(), [3.0, 3.0])


def test_output_gradients_weight_the_targets():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        w = 3.0 * x
    g = tape.gradient([y, w], x, output_gradients=[tf.constant([1.0, 10.0]), None])
    np.testing.assert_array_equal(g.numpy(), [2.0 + 3.0, 40.0 + 3.0])


def test_unconnected_gradients():
    x = tf.constant(1.0)
    u = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = x * 2.0
    assert tape.gradient(y, u) is None
    np.testing.assert_array_equal(tape.gradient(y, u, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy(),
                                  [0.0, 0.0])
    assert tape.gradient(y, u, unconnected_gradients="zero").shape == tf.TensorShape([2])
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients"):
        tape.gradient(y, u, unconnected_gradients="nan")


def test_non_persistent_tape_is_used_once():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="only be called once on non-persistent tapes"):
        tape.gradient(y, x)


def test_persistent_tape_gives_several_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert tape.gradient(z, x).numpy() == 108.0
    assert tape.gradient(y, x).numpy() == 6.0


def test_nested_tapes_give_higher_order_gradients():
    x = tf.constant(5.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    assert dy.numpy() == 75.0
    assert d2y.numpy() == 30.0


def test_third_order_through_nonlinear_ops():
    x = tf.constant(0.3, dtype=tf.float64)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.tanh(x)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    th = np.tanh(0.3)
    np.testing.assert_allclose(d1.numpy(), 1 - th ** 2)
    np.testing.assert_allclose(d2.numpy(), -2 * th * (1 - th ** 2))
    np.testing.assert_allclose(d3.numpy(), -2 * (1 - th ** 2) ** 2 + 4 * th ** 2 * (1 - th ** 2))


def test_persistent_tape_inside_its_context_records_its_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
        dy = tape.gradient(y, x)
    assert dy.numpy() == 12.0
    assert tape.gradient(dy, x).numpy() == 12.0


def test_stop_recording():
    x = tf.constant(4.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            y = x ** 2
        z = x * 3.0
    assert tape.gradient(y, x) is None
    tape2 = tf.GradientTape()
    with pytest.raises(RuntimeError, match="not recording"):
        with tape2.stop_recording():
            pass
    del z


def test_watch_accessed_variables():
    v = tf.Variable(2.0)
    frozen = tf.Variable(5.0, trainable=False)
    with tf.GradientTape() as tape:
        y = v * v * frozen
    assert tape.watched_variables() == (v,)
    assert tape.gradient(y, v).numpy() == 20.0
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = v * v
    assert tape.gradient(y, v).numpy() == 4.0


def test_variable_as_target_and_sparse_gradient():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        rows = tf.gather(v, [2, 0, 2])
        loss = tf.reduce_sum(rows)
    g = tape.gradient(loss, v)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]])
    np.testing.assert_array_equal(tape.gradient(v, v).numpy(), np.ones((3, 2)))


def test_reset_forgets_what_was_recorded():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        tape.watch(x)
        z = x * 3.0
    assert tape.gradient(z, x).numpy() == 3.0
    del y


def test_errors():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="not tf.Tensor"):
            tape.watch("x")
        tape.watch(x)
        with pytest.raises(ValueError, match="already-active"):
            tape.__enter__()
    with pytest.raises(TypeError, match="Target should be"):
        tape.gradient(None, x)


def test_missing_gradient_raises_lookup_error():
    # A custom op declared without a gradient (py_func is NotDifferentiable: its gradient is None).
    op_type = "TapeNoGrad%s" % uuid.uuid4().hex[:8]
    no_grad = tf.custom_op(op_type, lambda a: a, inputs=["x"], outputs="x", shape="x")
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = no_grad(x)
    with pytest.raises(LookupError, match="No gradient defined"):
        tape.gradient(y, x)


def test_integer_paths_carry_no_gradient():
    x = tf.constant([1.5, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.cast(x, tf.int32), tf.float32) * x
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 2.0])


def test_jacobian_and_batch_jacobian():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_array_equal(tape.jacobian(y, x).numpy(), [[2.0, 0.0], [0.0, 4.0]])
    xb = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(xb)
        yb = xb * xb
    j = tape.batch_jacobian(yb, xb)
    np.testing.assert_array_equal(j.numpy(), [[[2.0, 0.0], [0.0, 4.0]], [[6.0, 0.0], [0.0, 8.0]]])


def test_tape_in_graph_mode_builds_symbolic_gradients():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        dy = tape.gradient(y, x)
        with tf.Session() as sess:
            assert sess.run(dy, {x: 3.0}) == 6.0


def test_unconnected_gradients_enum_works_with_tf_gradients():
    assert tf.UnconnectedGradients.ZERO == "zero"
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2])
        dy, = tf.gradients(tf.constant(1.0), [x], unconnected_gradients=tf.UnconnectedGradients.ZERO)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(dy, {x: [1.0, 2.0]}), [0.0, 0.0])


def test_tape_records_nothing_without_watched_inputs():
    with tf.GradientTape() as tape:
        tf.constant(1.0) + tf.constant(2.0)
    assert tape._tape.entries == []
