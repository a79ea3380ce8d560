"""tf.Variable (TF1 reference variables): naming, initial values, reading and writing,
initialization reporting, collections, and use in expressions."""

import numpy as np
import pytest

import tensorweave as tf


def _session(init=True):
    sess = tf.Session()
    if init:
        sess.run(tf.global_variables_initializer())
    return sess


# ---- naming ----------------------------------------------------------------------------------------
def test_default_names():
    v0 = tf.Variable(1.0)
    v1 = tf.Variable(2.0)
    assert v0.name == "Variable:0"
    assert v1.name == "Variable_1:0"
    assert v0.op.name == "Variable"
    assert v0.op.type == "VariableV2"


def test_names_in_scopes_and_collisions():
    with tf.name_scope("scope"):
        b = tf.Variable(1.0, name="b")
        d = tf.Variable(1.0)
    assert b.name == "scope/b:0"
    assert d.name == "scope/Variable:0"
    tf.constant(1.0, name="w")
    w = tf.Variable(1.0, name="w")
    assert w.name == "w_1:0"


def test_component_op_names():
    v = tf.Variable([1.0, 2.0], name="v")
    assert v.initializer.name == "v/Assign"
    assert v.initializer.type == "Assign"
    assert v.value().name == "v/read:0"
    assert v.initial_value.name == "v/initial_value:0"
    assert v.initial_value.op.type == "Const"


def test_variable_properties():
    v = tf.Variable([[1, 2, 3]], name="ints")
    assert v.dtype.base_dtype is tf.int32
    assert v.shape.as_list() == [1, 3]
    assert v.get_shape().as_list() == [1, 3]
    assert v.graph is tf.get_default_graph()
    assert v.device == ""
    assert v.trainable
    assert repr(v) == "<tf.Variable 'ints:0' shape=(1, 3) dtype=int32_ref>"


def test_variable_ignores_enclosing_control_dependencies():
    c = tf.constant(1.0)
    with tf.control_dependencies([c]):
        v = tf.Variable(2.0)
    assert v.initializer.control_inputs == []
    assert v.op.control_inputs == []


# ---- initial values ----------------------------------------------------------------------------------
@pytest.mark.parametrize("initial,dtype,expected", [
    (1.0, None, np.float32(1.0)),
    (3, None, np.int32(3)),
    ([1.0, 2.0], None, np.array([1.0, 2.0], np.float32)),
    (np.arange(4.0).reshape(2, 2), None, np.arange(4.0).reshape(2, 2)),
    (1, tf.float32, np.float32(1.0)),
    ([1, 2], tf.float64, np.array([1.0, 2.0])),
    (True, None, np.True_),
])
def test_initial_values(initial, dtype, expected):
    v = tf.Variable(initial, dtype=dtype)
    assert v.dtype.base_dtype is tf.as_dtype(np.asarray(expected).dtype)
    with _session() as sess:
        out = sess.run(v)
    assert np.asarray(out).dtype == np.asarray(expected).dtype
    np.testing.assert_array_equal(out, expected)


def test_initial_value_from_tensor_and_callable():
    t = tf.constant([[1.0], [2.0]])
    v = tf.Variable(t)
    calls = []

    def make():
        calls.append(1)
        return tf.constant([5, 6])

    u = tf.Variable(make)
    assert calls == [1]
    assert u.dtype.base_dtype is tf.int32
    assert u.shape.as_list() == [2]
    w = tf.Variable(lambda: [1.0, 2.0, 3.0], dtype=tf.float64)
    assert w.dtype.base_dtype is tf.float64
    with _session() as sess:
        np.testing.assert_array_equal(sess.run(v), [[1.0], [2.0]])
        np.testing.assert_array_equal(sess.run(u), [5, 6])
        np.testing.assert_array_equal(sess.run(w), [1.0, 2.0, 3.0])


def test_initial_value_from_another_variable():
    a = tf.Variable([1.0, 2.0])
    b = tf.Variable(a.initialized_value() * 2.0)
    with _session() as sess:
        np.testing.assert_array_equal(sess.run(b), [2.0, 4.0])


def test_initial_value_errors():
    with pytest.raises(ValueError):
        tf.Variable()
    with pytest.raises(ValueError):
        tf.Variable(None)
    with pytest.raises(ValueError):
        tf.Variable(tf.constant(1), dtype=tf.float32)
    with pytest.raises(TypeError):
        tf.Variable([1.5], dtype=tf.int32)


def test_validate_shape_false_and_explicit_shape():
    x = tf.placeholder(tf.float32, [None])
    v = tf.Variable(tf.zeros([3]), validate_shape=False)
    assert v.shape.ndims is None
    with _session() as sess:
        sess.run(tf.assign(v, x, validate_shape=False), {x: [1.0, 2.0, 3.0, 4.0, 5.0]})
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0, 3.0, 4.0, 5.0])


# ---- reading and writing -----------------------------------------------------------------------------
def test_value_and_read_value():
    v = tf.Variable([1.0, 2.0], name="v")
    assert v.value() is v.value()
    r1 = v.read_value()
    r2 = v.read_value()
    assert r1 is not r2
    assert r1.op.type == "Identity"
    with _session() as sess:
        np.testing.assert_array_equal(sess.run(v.value()), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(r1), [1.0, 2.0])


def test_assign_methods():
    v = tf.Variable([1.0, 2.0])
    a = v.assign([5.0, 6.0])
    add = v.assign_add([1.0, 1.0])
    sub = v.assign_sub([0.5, 0.5])
    op = v.assign([0.0, 0.0], read_value=False)
    assert isinstance(a, tf.Tensor)
    assert isinstance(op, tf.Operation)
    assert isinstance(v.assign_add([1.0, 1.0], read_value=False), tf.Operation)
    with _session() as sess:
        np.testing.assert_array_equal(sess.run(a), [5.0, 6.0])
        np.testing.assert_array_equal(sess.run(add), [6.0, 7.0])
        np.testing.assert_array_equal(sess.run(add), [7.0, 8.0])
        np.testing.assert_array_equal(sess.run(sub), [6.5, 7.5])
        np.testing.assert_array_equal(sess.run(v), [6.5, 7.5])
        assert sess.run(op) is None
        np.testing.assert_array_equal(sess.run(v), [0.0, 0.0])


def test_assign_static_shape_mismatch():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError):
        v.assign([1.0, 2.0, 3.0])


def test_eval_and_load():
    v = tf.Variable([1.0, 2.0])
    with _session() as sess:
        with sess.as_default():
            np.testing.assert_array_equal(v.eval(), [1.0, 2.0])
            v.load([3.0, 4.0])
            np.testing.assert_array_equal(v.eval(), [3.0, 4.0])
        v.load([7.0, 8.0], sess)
        np.testing.assert_array_equal(v.eval(session=sess), [7.0, 8.0])
    with pytest.raises(ValueError):
        v.load([1.0, 1.0])


def test_initialized_value():
    v = tf.Variable([1.0, 2.0])
    iv = v.initialized_value()
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(iv), [1.0, 2.0])
        sess.run(v.initializer)
        sess.run(v.assign([9.0, 9.0]))
        np.testing.assert_array_equal(sess.run(iv), [9.0, 9.0])


def test_uninitialized_read_names_the_variable():
    v = tf.Variable([1.0], name="weights")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="Attempting to use uninitialized value weights"):
            sess.run(v)
        with pytest.raises(tf.errors.FailedPreconditionError, match="weights"):
            sess.run(v.value())
        with pytest.raises(tf.errors.FailedPreconditionError, match="weights"):
            sess.run(v.assign_add([1.0]))


def test_initializer_op_reinitializes():
    v = tf.Variable(1.0)
    with _session() as sess:
        sess.run(v.assign(5.0))
        sess.run(v.initializer)
        assert sess.run(v) == 1.0


# ---- initialization helpers ----------------------------------------------------------------------------
def test_global_variables_initializer():
    v = tf.Variable(1.0)
    w = tf.Variable(2.0, trainable=False)
    init = tf.global_variables_initializer()
    assert init.type == "NoOp"
    assert init.name == "init"
    assert set(init.control_inputs) == {v.initializer, w.initializer}
    with tf.Session() as sess:
        sess.run(init)
        assert sess.run([v, w]) == [1.0, 2.0]
    assert tf.initialize_all_variables().type == "NoOp"


def test_initializer_of_empty_graph_is_a_no_op():
    init = tf.global_variables_initializer()
    assert init.type == "NoOp"
    assert init.name == "init"
    with tf.Session() as sess:
        assert sess.run(init) is None


def test_variables_initializer_subset():
    a = tf.Variable(1.0)
    b = tf.Variable(2.0)
    init_a = tf.variables_initializer([a], name="init_a")
    assert init_a.name == "init_a"
    with tf.Session() as sess:
        sess.run(init_a)
        assert sess.run(a) == 1.0
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(b)
        assert sess.run(tf.variables_initializer([])) is None


def test_local_variables_initializer():
    loc = tf.Variable(3.0, collections=[tf.GraphKeys.LOCAL_VARIABLES], trainable=False)
    glob = tf.Variable(4.0)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run(loc) == 3.0
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(glob)


def test_report_uninitialized_variables():
    v = tf.Variable(1.0)
    w = tf.Variable([1, 2], name="w")
    report = tf.report_uninitialized_variables()
    assert report.dtype is tf.string
    assert report.shape.as_list() == [None]
    with tf.Session() as sess:
        out = sess.run(report)
        assert out.dtype == object
        assert list(out) == [b"Variable", b"w"]
        sess.run(v.initializer)
        assert list(sess.run(report)) == [b"w"]
        sess.run(w.initializer)
        out = sess.run(report)
        assert out.shape == (0,)
        assert list(sess.run(tf.report_uninitialized_variables([v]))) == []


def test_is_variable_initialized():
    v = tf.Variable(1.0)
    flag = tf.is_variable_initialized(v)
    assert flag.dtype is tf.bool
    assert flag.shape.as_list() == []
    with tf.Session() as sess:
        out = sess.run(flag)
        assert type(out) is np.bool_
        assert not out
        sess.run(v.initializer)
        assert sess.run(flag)


# ---- collections ---------------------------------------------------------------------------------------
def test_collections_and_trainable():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(1.0, name="b", trainable=False)
    c = tf.Variable(1.0, name="c", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    d = tf.Variable(1.0, name="d", collections=[])
    e = tf.Variable(1.0, name="e", collections=["custom"], trainable=False)
    assert tf.global_variables() == [a, b]
    assert tf.all_variables() == [a, b]
    # trainable=True adds TRAINABLE_VARIABLES to whatever collections were given.
    assert tf.trainable_variables() == [a, c, d]
    assert tf.local_variables() == [c]
    assert tf.get_collection("custom") == [e]
    assert not b.trainable
    assert d not in tf.global_variables()
    assert tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES) == [a, b]
    assert tf.model_variables() == []
    assert tf.moving_average_variables() == []


def test_collections_filter_by_scope():
    with tf.name_scope("enc"):
        a = tf.Variable(1.0)
    with tf.name_scope("dec"):
        b = tf.Variable(1.0)
    assert tf.global_variables("enc") == [a]
    assert tf.trainable_variables(scope="dec") == [b]


# ---- variables in expressions ------------------------------------------------------------------------
def test_variable_converts_to_its_value():
    v = tf.Variable([1.0, 2.0])
    t = tf.convert_to_tensor(v)
    assert t is v.value()
    with pytest.raises(ValueError):
        tf.convert_to_tensor(v, dtype=tf.int32)
    s = tf.add_n([v, v])
    with _session() as sess:
        np.testing.assert_array_equal(sess.run(s), [2.0, 4.0])


def test_variables_are_hashable_and_not_iterable():
    v = tf.Variable(1.0)
    w = tf.Variable(1.0)
    assert v != w
    assert len({v, w, v}) == 2
    with pytest.raises(TypeError):
        iter(tf.Variable([1.0, 2.0]))


def test_operator_overloading():
    v = tf.Variable([1.0, 2.0])
    exprs = [v + 1.0, 1.0 + v, v - 1.0, 3.0 - v, v * 2.0, 2.0 * v, v / 2.0, -v, v ** 2, v[1], v * v, v > 1.5]
    with _session() as sess:
        out = sess.run(exprs)
    np.testing.assert_array_equal(out[0], [2.0, 3.0])
    np.testing.assert_array_equal(out[1], [2.0, 3.0])
    np.testing.assert_array_equal(out[2], [0.0, 1.0])
    np.testing.assert_array_equal(out[3], [2.0, 1.0])
    np.testing.assert_array_equal(out[4], [2.0, 4.0])
    np.testing.assert_array_equal(out[5], [2.0, 4.0])
    np.testing.assert_array_equal(out[6], [0.5, 1.0])
    np.testing.assert_array_equal(out[7], [-1.0, -2.0])
    np.testing.assert_array_equal(out[8], [1.0, 4.0])
    assert out[9] == 2.0
    np.testing.assert_array_equal(out[10], [1.0, 4.0])
    np.testing.assert_array_equal(out[11], [False, True])


def test_matmul_with_variable():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    x = tf.constant([[1.0, 1.0]])
    y = tf.matmul(x, w)
    z = x @ w
    with _session() as sess:
        np.testing.assert_array_equal(sess.run(y), [[4.0, 6.0]])
        np.testing.assert_array_equal(sess.run(z), [[4.0, 6.0]])


def test_variable_scatter_methods_update_rows_as_the_scatter_ops():
    import numpy as np
    import pytest

    import tensorweave as tf
    with tf.Graph().as_default():
        v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        d = tf.IndexedSlices(tf.constant([[10.0, 10.0]]), tf.constant([1]))
        steps = [(v.scatter_add(d), [[1, 2], [13, 14], [5, 6]]), (v.scatter_update(d), [[1, 2], [10, 10], [5, 6]]),
                 (v.scatter_mul(d), [[1, 2], [100, 100], [5, 6]]), (v.scatter_div(d), [[1, 2], [10, 10], [5, 6]]),
                 (v.scatter_max(tf.IndexedSlices(tf.constant([[0.0, 20.0]]), tf.constant([0]))),
                  [[1, 20], [10, 10], [5, 6]]),
                 (v.scatter_min(tf.IndexedSlices(tf.constant([[0.0, 30.0]]), tf.constant([0]))),
                  [[0, 20], [10, 10], [5, 6]]),
                 (v.scatter_nd_add([[2, 1]], [100.0]), [[0, 20], [10, 10], [5, 106]]),
                 (v.scatter_nd_sub([[2, 1]], [6.0]), [[0, 20], [10, 10], [5, 100]]),
                 (v.scatter_nd_update([[0, 0]], [7.0]), [[7, 20], [10, 10], [5, 100]]),
                 (v.scatter_sub(d), [[7, 20], [0, 0], [5, 100]]),
                 (v.batch_scatter_update(tf.IndexedSlices(tf.constant([[1.5], [2.5], [3.5]]),
                                                          tf.constant([[0], [1], [1]]))),
                  [[1.5, 20], [0, 2.5], [5, 3.5]])]
        with tf.Session() as sess:
            sess.run(v.initializer)
            for op, expected in steps:
                np.testing.assert_array_equal(sess.run(op), expected)
        with pytest.raises(TypeError, match="sparse_delta is not IndexedSlices"):
            v.scatter_add([1.0])
