"""tf.gradients: sums over ys, grad_ys, unconnected xs, stop gradients, integer tensors, gradient
registration and overrides, IndexedSlices and gradients with respect to variables."""

import uuid

import numpy as np
import pytest

import tensorweave as tf


def _unique(prefix):
    """A fresh gradient-registry name (the registry is process-global)."""
    return "%s_%s" % (prefix, uuid.uuid4().hex)


def _run(fetches, feed_dict=None, init=False):
    with tf.Session() as sess:
        if init:
            sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


# ---- sums, grad_ys, connectivity ---------------------------------------------------------------
def test_gradient_of_several_ys_is_the_sum():
    x = tf.placeholder(tf.float32, [3])
    y1 = tf.add_n([x, x])
    y2 = tf.identity(x)
    (g,) = tf.gradients([y1, y2], x)
    assert g.dtype is tf.float32
    assert g.shape.as_list() == [3]
    np.testing.assert_array_equal(_run(g, {x: [1.0, 2.0, 3.0]}), [3.0, 3.0, 3.0])


def test_xs_may_be_a_single_tensor_or_a_list():
    x = tf.constant([1.0, 2.0])
    y = tf.add_n([x, x, x])
    g1 = tf.gradients(y, x)
    g2 = tf.gradients([y], [x])
    assert isinstance(g1, list) and len(g1) == 1
    np.testing.assert_array_equal(_run(g1[0]), [3.0, 3.0])
    np.testing.assert_array_equal(_run(g2[0]), [3.0, 3.0])


def test_grad_ys():
    x = tf.placeholder(tf.float32, [3])
    y = tf.add_n([x, x])
    z = tf.identity(x)
    (g,) = tf.gradients(y, x, grad_ys=[[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(_run(g, {x: np.zeros(3)}), [2.0, 4.0, 6.0])
    gy = tf.constant([0.5, 0.5, 0.5])
    (g,) = tf.gradients(y, x, grad_ys=gy)
    np.testing.assert_array_equal(_run(g, {x: np.zeros(3)}), [1.0, 1.0, 1.0])
    # None in grad_ys means "ones" for that y.
    (g,) = tf.gradients([y, z], x, grad_ys=[gy, None])
    np.testing.assert_array_equal(_run(g, {x: np.zeros(3)}), [2.0, 2.0, 2.0])


def test_grad_ys_count_must_match():
    x = tf.constant(1.0)
    y = tf.identity(x)
    with pytest.raises(ValueError):
        tf.gradients([y], x, grad_ys=[1.0, 2.0])


def test_unconnected_xs_get_none():
    x = tf.constant(1.0)
    unrelated = tf.constant(2.0)
    y = tf.identity(x)
    g = tf.gradients(y, [x, unrelated])
    assert g[1] is None
    assert _run(g[0]) == 1.0


def test_unconnected_gradients_zero():
    x = tf.constant(1.0)
    unrelated = tf.constant([2.0, 3.0])
    y = tf.identity(x)
    g = tf.gradients(y, [x, unrelated], unconnected_gradients="zero")
    assert g[1] is not None
    assert g[1].shape.as_list() == [2]
    out = _run(g)
    assert out[0] == 1.0
    np.testing.assert_array_equal(out[1], [0.0, 0.0])
    with pytest.raises(ValueError):
        tf.gradients(y, x, unconnected_gradients="sometimes")


def test_gradient_of_y_with_respect_to_itself_is_ones():
    y = tf.constant([[1.0, 2.0]])
    (g,) = tf.gradients(y, y)
    np.testing.assert_array_equal(_run(g), [[1.0, 1.0]])


def test_xs_on_the_same_path():
    x = tf.constant([1.0, 2.0])
    y = tf.identity(x)
    z = tf.add_n([y, y])
    gx, gy = tf.gradients(z, [x, y])
    np.testing.assert_array_equal(_run(gx), [2.0, 2.0])
    np.testing.assert_array_equal(_run(gy), [2.0, 2.0])


def test_gradient_ops_live_under_the_gradients_name_scope():
    x = tf.constant(1.0)
    y = tf.identity(x)
    (g1,) = tf.gradients(y, x)
    (g2,) = tf.gradients(y, x)
    (g3,) = tf.gradients(y, x, name="my_grads")
    assert g1.op.name.startswith("gradients/")
    assert g2.op.name.startswith("gradients_1/")
    assert g3.op.name.startswith("my_grads/")


# ---- stopping gradients ---------------------------------------------------------------------------
def test_stop_gradients_argument():
    """TF's docstring example: gradients(a + b, [a, b], stop_gradients=[a, b]) is [1, 1]."""
    a = tf.constant(0.0)
    b = tf.add_n([a, a])
    y = tf.add_n([a, b])
    g_stop = tf.gradients(y, [a, b], stop_gradients=[a, b])
    g_full = tf.gradients(y, [a, b])
    assert _run(g_stop) == [1.0, 1.0]
    assert _run(g_full) == [3.0, 1.0]


def test_stop_gradients_on_an_intermediate_tensor():
    x = tf.constant(1.0)
    h = tf.identity(x)
    y = tf.add_n([h, x])
    (g,) = tf.gradients(y, x, stop_gradients=[h])
    assert _run(g) == 1.0
    (g,) = tf.gradients(y, x, stop_gradients=h)
    assert _run(g) == 1.0


def test_stop_gradient_op():
    a0 = tf.constant(0.0)
    a = tf.stop_gradient(a0)
    b = tf.stop_gradient(tf.add_n([a, a]))
    y = tf.add_n([a, b])
    assert _run(tf.gradients(y, [a, b])) == [1.0, 1.0]
    assert tf.gradients(y, a0) == [None]
    x = tf.constant([1.0, 2.0])
    z = tf.add_n([tf.stop_gradient(x), x])
    np.testing.assert_array_equal(_run(tf.gradients(z, x)[0]), [1.0, 1.0])


def test_integer_tensors_get_none():
    i = tf.constant([1, 2])
    y = tf.identity(i)
    assert tf.gradients(y, i) == [None]
    z = tf.add_n([i, i])
    assert tf.gradients(z, i) == [None]


# ---- registration and overrides ----------------------------------------------------------------
def test_register_gradient_with_override_map_on_identity():
    name = _unique("DoubleGrad")

    @tf.RegisterGradient(name)
    def _double(op, grad):
        return [tf.add_n([grad, grad])]

    g = tf.get_default_graph()
    x = tf.constant([1.0, 2.0])
    with g.gradient_override_map({"Identity": name}):
        y = tf.identity(x)
    z = tf.identity(x)
    np.testing.assert_array_equal(_run(tf.gradients(y, x)[0]), [2.0, 2.0])
    np.testing.assert_array_equal(_run(tf.gradients(z, x)[0]), [1.0, 1.0])


def test_override_gradient_receives_the_op():
    name = _unique("InspectGrad")
    seen = []

    @tf.RegisterGradient(name)
    def _inspect(op, grad):
        seen.append((op.type, op.name, len(op.inputs)))
        return [grad]

    x = tf.constant(1.0)
    with tf.get_default_graph().gradient_override_map({"Identity": name}):
        y = tf.identity(x, name="watched")
    tf.gradients(y, x)
    assert seen == [("Identity", "watched", 1)]


def test_register_gradient_twice_raises_key_error():
    name = _unique("Twice")
    tf.RegisterGradient(name)(lambda op, grad: [grad])
    with pytest.raises(KeyError, match="Registering two gradient with name '%s'" % name):
        tf.RegisterGradient(name)(lambda op, grad: [grad])


def test_register_gradient_requires_a_string():
    with pytest.raises(TypeError):
        tf.RegisterGradient(3)
    with pytest.raises(TypeError):
        tf.NotDifferentiable(3)


def test_not_differentiable_gives_none():
    name = _unique("NoGrad")
    tf.NotDifferentiable(name)
    x = tf.constant([1.0, 2.0])
    with tf.get_default_graph().gradient_override_map({"PyFunc": name}):
        y = tf.py_func(lambda a: a, [x], tf.float32)
    assert tf.gradients(y, x) == [None]
    other = _unique("NoGrad")
    tf.no_gradient(other)
    with tf.get_default_graph().gradient_override_map({"Identity": other}):
        z = tf.identity(x)
    assert tf.gradients(z, x) == [None]


def test_missing_gradient_raises_lookup_error_only_when_needed():
    x = tf.constant([1.0, 2.0])
    op_type = _unique("NoGradOp")  # a custom op declared without a gradient (a py_func's is None)
    p = tf.custom_op(op_type, lambda a: a, inputs=["x"], outputs="x", shape="x")(x, name="opaque")
    y = tf.identity(x)
    # `p` consumes x but is not between x and y.
    np.testing.assert_array_equal(_run(tf.gradients(y, x)[0]), [1.0, 1.0])
    # A py_func that does not depend on x is not on the path either.
    q = tf.py_func(lambda: np.ones(2, np.float32), [], tf.float32)
    w = tf.add_n([y, q])
    np.testing.assert_array_equal(_run(tf.gradients(w, x)[0]), [1.0, 1.0])
    z = tf.add_n([y, p])
    with pytest.raises(LookupError, match=r"No gradient defined for operation 'opaque' \(op type: %s\)" % op_type):
        tf.gradients(z, x)


def test_override_to_unregistered_name_raises_lookup_error():
    name = _unique("Unknown")
    x = tf.constant(1.0)
    with tf.get_default_graph().gradient_override_map({"Identity": name}):
        y = tf.identity(x)
    with pytest.raises(LookupError, match=name):
        tf.gradients(y, x)


def test_gradient_function_returning_wrong_count_raises():
    name = _unique("TooMany")
    tf.RegisterGradient(name)(lambda op, grad: [grad, grad])
    x = tf.constant(1.0)
    with tf.get_default_graph().gradient_override_map({"Identity": name}):
        y = tf.identity(x)
    with pytest.raises(ValueError):
        tf.gradients(y, x)


# ---- IndexedSlices ----------------------------------------------------------------------------------
def test_indexed_slices_densified_by_convert_to_tensor():
    values = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    indices = tf.constant([0, 2, 0])
    s = tf.IndexedSlices(values, indices, tf.constant([3, 2]))
    assert s.values is values
    assert s.indices is indices
    assert s.dtype is tf.float32
    assert s.shape.as_list() == [None, 2]
    d = tf.convert_to_tensor(s)
    assert isinstance(d, tf.Tensor)
    np.testing.assert_array_equal(_run(d), [[6.0, 8.0], [0.0, 0.0], [3.0, 4.0]])
    np.testing.assert_array_equal(_run(tf.identity(s)), [[6.0, 8.0], [0.0, 0.0], [3.0, 4.0]])


def test_indexed_slices_without_dense_shape_cannot_be_densified():
    s = tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]))
    with pytest.raises(ValueError):
        tf.convert_to_tensor(s)


def test_fetching_indexed_slices():
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
    v = _run(s)
    assert isinstance(v, tf.IndexedSlicesValue)
    np.testing.assert_array_equal(v.values, [[1.0, 2.0]])
    np.testing.assert_array_equal(v.indices, [1])
    np.testing.assert_array_equal(v.dense_shape, [3, 2])


def _sparse_identity_grad_name():
    """An override for Identity whose gradient is IndexedSlices: row 1 of the incoming grad."""
    name = _unique("SparseGrad")

    @tf.RegisterGradient(name)
    def _sparse(op, grad):
        rows = tf.py_func(lambda g: g[1:2], [grad], tf.float32)
        rows.set_shape([1, 2])
        return [tf.IndexedSlices(rows, tf.constant([1]), tf.shape(op.inputs[0]))]

    return name


def test_gradient_may_be_indexed_slices_and_is_densified_when_mixed():
    name = _sparse_identity_grad_name()
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    with tf.get_default_graph().gradient_override_map({"Identity": name}):
        sparse_path = tf.identity(x)
    dense_path = tf.identity(x)
    (g,) = tf.gradients(sparse_path, x)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(_run(tf.convert_to_tensor(g)), [[0, 0], [1, 1], [0, 0]])
    (g,) = tf.gradients([sparse_path, dense_path], x)
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(_run(g), [[1, 1], [2, 2], [1, 1]])


def test_two_indexed_slices_contributions_stay_sparse():
    name = _sparse_identity_grad_name()
    x = tf.constant(np.zeros([3, 2], np.float32))
    with tf.get_default_graph().gradient_override_map({"Identity": name}):
        a = tf.identity(x)
        b = tf.identity(x)
    (g,) = tf.gradients([a, b], x)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(_run(tf.convert_to_tensor(g)), [[0, 0], [2, 2], [0, 0]])


# ---- variables -----------------------------------------------------------------------------------
def test_gradients_with_respect_to_variables():
    v = tf.Variable([1.0, 2.0])
    w = tf.Variable(3.0, name="w")
    x = tf.placeholder(tf.float32, [2])
    y = tf.add_n([v, v, x])
    gv, gx, gw = tf.gradients(y, [v, x, w])
    assert gw is None
    assert gv.shape.as_list() == [2]
    out = _run([gv, gx], {x: [0.0, 0.0]}, init=True)
    np.testing.assert_array_equal(out[0], [2.0, 2.0])
    np.testing.assert_array_equal(out[1], [1.0, 1.0])


def test_gradients_through_read_value():
    v = tf.Variable([1.0, 2.0, 3.0])
    y = tf.identity(v.read_value())
    (g,) = tf.gradients(y, v)
    np.testing.assert_array_equal(_run(g, init=True), [1.0, 1.0, 1.0])


def test_gradient_math_ops():
    """Gradients through the math ops (sum of squares and a matmul)."""
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    w = tf.constant([[1.0], [-1.0]])
    y = tf.reduce_sum(x * x) + tf.reduce_sum(tf.matmul(x, w))
    gx, gw = tf.gradients(y, [x, w])
    out = _run([gx, gw])
    np.testing.assert_allclose(out[0], 2 * np.array([[1.0, 2.0], [3.0, 4.0]]) + np.array([[1.0, -1.0]] * 2))
    np.testing.assert_allclose(out[1], [[4.0], [6.0]])
