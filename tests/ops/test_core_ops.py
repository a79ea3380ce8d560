"""Core ops: placeholder, placeholder_with_default, identity, stop_gradient, zeros_like/ones_like,
add_n, no_op/group and shape."""

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.op_harness import check_forward, check_gradient


def _run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def _counter():
    calls = []

    def f():
        calls.append(1)
        return np.float32(len(calls))

    return tf.py_func(f, [], tf.float32), calls


# ---- placeholder -------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype,shape,static", [
    (tf.float32, None, None),
    (tf.float32, [], []),
    (tf.int32, [None], [None]),
    (tf.float64, [2, None, 3], [2, None, 3]),
    (tf.bool, (4,), [4]),
    (tf.string, [None], [None]),
    ("float16", tf.TensorShape([1]), [1]),
    (np.int64, [2], [2]),
])
def test_placeholder_static_signature(dtype, shape, static):
    x = tf.placeholder(dtype, shape)
    assert x.dtype is tf.as_dtype(dtype)
    assert x.op.type == "Placeholder"
    if static is None:
        assert x.shape.ndims is None
    else:
        assert x.shape.as_list() == static


def test_placeholder_name_and_feed():
    x = tf.placeholder(tf.float32, [None, 2], name="inputs")
    assert x.name == "inputs:0"
    out = _run(tf.identity(x), {x: [[1, 2], [3, 4], [5, 6]]})
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [[1, 2], [3, 4], [5, 6]])


def test_unfed_placeholder_message():
    x = tf.placeholder(tf.float32, [2, None], name="p")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"You must feed a value for placeholder tensor 'p' with dtype float and shape \[2,\?\]"):
        _run(tf.identity(x))
    y = tf.placeholder(tf.int64, name="q")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="You must feed a value for placeholder tensor 'q' with dtype int64"):
        _run(y)


# ---- placeholder_with_default --------------------------------------------------------------------
def test_placeholder_with_default_not_fed_and_fed():
    p = tf.placeholder_with_default([1.0, 2.0], shape=[None], name="pwd")
    assert p.op.type == "PlaceholderWithDefault"
    assert p.shape.as_list() == [None]
    assert p.dtype is tf.float32
    y = tf.identity(p)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(y, {p: [3.0, 4.0, 5.0]}), [3.0, 4.0, 5.0])
        with pytest.raises(ValueError):
            sess.run(y, {p: [[1.0]]})


def test_placeholder_with_default_tensor_input():
    c = tf.constant([[1, 2]])
    p = tf.placeholder_with_default(c, shape=[None, 2])
    assert p.dtype is tf.int32
    np.testing.assert_array_equal(_run(p), [[1, 2]])
    q = tf.placeholder_with_default(c, shape=None)
    assert q.shape.ndims is None


def test_placeholder_with_default_incompatible_shape():
    with pytest.raises(ValueError):
        tf.placeholder_with_default([1.0, 2.0], shape=[3])
    with pytest.raises(ValueError):
        tf.placeholder_with_default([1.0, 2.0], shape=[2, 1])


def test_placeholder_with_default_passes_the_gradient_to_its_default():
    x = tf.constant([1.0, 2.0])
    p = tf.placeholder_with_default(x, [2])
    (g,) = tf.gradients(tf.identity(p), x)
    np.testing.assert_array_equal(_run(g), [1.0, 1.0])


# ---- identity / stop_gradient ---------------------------------------------------------------------
@pytest.mark.parametrize("fn,name", [(tf.identity, "Identity"), (tf.stop_gradient, "StopGradient")])
@pytest.mark.parametrize("array", [
    np.array(3.0, np.float32),
    np.arange(6, dtype=np.int32).reshape(2, 3),
    np.array([True, False]),
    np.random.RandomState(0).randn(2, 3, 4),
])
def test_identity_like_forward(fn, name, array):
    check_forward(fn, lambda a: a, array)
    assert fn(tf.constant(array)).op.type == name


def test_identity_gradient():
    check_gradient(tf.identity, np.random.RandomState(1).randn(3, 2))


def test_stop_gradient_blocks_gradient():
    x = tf.constant([1.0, 2.0])
    assert tf.gradients(tf.stop_gradient(x), x) == [None]


def test_identity_names_and_variables():
    x = tf.constant(1.0)
    assert tf.identity(x, name="same").op.name == "same"
    v = tf.Variable([1.0, 2.0])
    t = tf.identity(v)
    assert isinstance(t, tf.Tensor)
    with tf.Session() as sess:
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(t), [1.0, 2.0])


# ---- zeros_like / ones_like -----------------------------------------------------------------------
@pytest.mark.parametrize("array", [
    np.array(3.5, np.float32),
    np.arange(6, dtype=np.int32).reshape(2, 3),
    np.array([[True], [False]]),
    np.ones([2, 0, 3], np.float64),
    np.array([1 + 2j], np.complex64),
])
def test_zeros_like_and_ones_like_forward(array):
    check_forward(tf.zeros_like, np.zeros_like, array)
    check_forward(tf.ones_like, np.ones_like, array)


def test_zeros_like_names_and_dtype_argument():
    x = tf.constant([1.5, 2.5])
    z = tf.zeros_like(x)
    o = tf.ones_like(x)
    assert z.op.name == "zeros_like"
    assert o.op.name == "ones_like"
    assert tf.zeros_like(x, name="zz").op.name == "zz"
    zi = tf.zeros_like(x, dtype=tf.int32)
    oi = tf.ones_like(x, dtype=tf.int64)
    assert (zi.dtype, oi.dtype) == (tf.int32, tf.int64)
    out = _run([zi, oi])
    assert out[0].dtype == np.int32 and out[1].dtype == np.int64
    np.testing.assert_array_equal(out[0], [0, 0])
    np.testing.assert_array_equal(out[1], [1, 1])


def test_zeros_like_of_unknown_shape():
    x = tf.placeholder(tf.float32, [None, None])
    z = tf.zeros_like(x)
    assert z.shape.as_list() == [None, None]
    np.testing.assert_array_equal(_run(z, {x: np.ones([2, 3])}), np.zeros([2, 3]))


def test_zeros_like_and_ones_like_have_no_gradient():
    x = tf.constant([1.0, 2.0])
    assert tf.gradients(tf.zeros_like(x), x) == [None]
    assert tf.gradients(tf.ones_like(x), x) == [None]


# ---- add_n ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("arrays", [
    [np.array([1.0, 2.0], np.float32)] * 2,
    [np.arange(6, dtype=np.int32).reshape(2, 3), np.ones([2, 3], np.int32), np.full([2, 3], 7, np.int32)],
    [np.random.RandomState(2).randn(3, 4) for _ in range(5)],
    [np.array(1.5, np.float64), np.array(2.0, np.float64)],
])
def test_add_n_forward(arrays):
    check_forward(lambda *xs: tf.add_n(list(xs)), lambda *xs: sum(xs), *arrays)


def test_add_n_gradient():
    rs = np.random.RandomState(3)
    check_gradient(lambda a, b, c: tf.add_n([a, b, c]), rs.randn(2, 3), rs.randn(2, 3), rs.randn(2, 3))


def test_add_n_does_not_mutate_inputs():
    a = tf.constant([1.0, 2.0])
    b = tf.constant([10.0, 20.0])
    c = tf.constant([100.0, 200.0])
    s = tf.add_n([a, b, c])
    with tf.Session() as sess:
        out = sess.run([s, a, b, c])
    np.testing.assert_array_equal(out[0], [111.0, 222.0])
    np.testing.assert_array_equal(out[1], [1.0, 2.0])
    np.testing.assert_array_equal(out[2], [10.0, 20.0])


def test_add_n_static_shape_merges():
    a = tf.placeholder(tf.float32, [None, 3])
    b = tf.placeholder(tf.float32, [2, None])
    s = tf.add_n([a, b])
    assert s.shape.as_list() == [2, 3]
    assert s.op.type == "AddN"


def test_add_n_single_input():
    a = tf.constant([1.0])
    assert tf.add_n([a]) is a
    named = tf.add_n([a], name="single")
    assert named.op.name == "single"
    assert named.op.type == "Identity"
    np.testing.assert_array_equal(_run(named), [1.0])


def test_add_n_errors():
    with pytest.raises(ValueError):
        tf.add_n([])
    with pytest.raises(TypeError):
        tf.add_n([tf.constant(1.0), tf.constant(1)])
    with pytest.raises(ValueError):
        tf.add_n([tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0])])


def test_add_n_converts_python_values():
    s = tf.add_n([tf.constant([1.0, 2.0]), [3.0, 4.0]])
    np.testing.assert_array_equal(_run(s), [4.0, 6.0])


# ---- no_op / group -----------------------------------------------------------------------------------
def test_no_op():
    n = tf.no_op()
    assert isinstance(n, tf.Operation)
    assert n.type == "NoOp"
    assert n.name == "NoOp"
    assert tf.no_op(name="nothing").name == "nothing"
    assert _run(n) is None


def test_group_runs_all_inputs():
    a, calls_a = _counter()
    b, calls_b = _counter()
    c, calls_c = _counter()
    g = tf.group(a, [b.op, (c,)])
    assert isinstance(g, tf.Operation)
    assert g.type == "NoOp"
    assert g.name == "group_deps"
    assert _run(g) is None
    assert (calls_a, calls_b, calls_c) == ([1], [1], [1])


def test_group_names():
    a = tf.constant(1.0)
    assert tf.group(a, name="my_group").name == "my_group"
    assert tf.group(a).name == "group_deps"
    assert tf.group(a).name == "group_deps_1"
    empty = tf.group()
    assert empty.type == "NoOp"
    assert _run(empty) is None


def test_group_rejects_unknown_kwargs():
    with pytest.raises(TypeError):
        tf.group(tf.constant(1.0), foo=1)


# ---- shape -------------------------------------------------------------------------------------------
def test_shape_of_fed_unknown_dims():
    x = tf.placeholder(tf.float32, [None, 3])
    s = tf.shape(x)
    assert s.dtype is tf.int32
    assert s.shape.as_list() == [2]
    out = _run(s, {x: np.zeros([5, 3])})
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [5, 3])


def test_shape_out_type_and_unknown_rank():
    x = tf.placeholder(tf.float32)
    s = tf.shape(x, out_type=tf.int64)
    assert s.dtype is tf.int64
    assert s.shape.as_list() == [None]
    out = _run(s, {x: np.zeros([2, 3, 4])})
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, [2, 3, 4])
    np.testing.assert_array_equal(_run(tf.shape(tf.constant(1.0))), np.zeros([0], np.int32))
    assert tf.shape(x, name="sh").op.name == "sh"


def test_shape_has_no_gradient():
    x = tf.constant([1.0, 2.0])
    assert tf.gradients(tf.shape(x), x) == [None]


@pytest.mark.parametrize("grad_shape,like_shape,dtype", [
    ((64, 28, 28, 32), (32,), np.float32),  # a bias gradient: summed rows folded into long ones
    ((6, 5, 4, 3), (1, 1, 4, 3), np.float64),
    ((6, 5, 4, 3), (4, 3), np.int32),
    ((6, 5, 300), (300,), np.float32),  # rows already long
    ((6, 5, 4, 3), (3,), np.float16),
    ((0, 5, 3), (3,), np.float32),
    ((4, 5, 3), (4, 1, 3), np.float32),  # a stretched middle axis
])
def test_sum_to_shape_of_matches_numpy(grad_shape, like_shape, dtype):
    from tensorweave.ops import core_ops
    g = (np.random.RandomState(0).rand(*grad_shape) * 10).astype(dtype)
    like = np.zeros(like_shape, dtype)
    lead = g.ndim - like.ndim
    stretched = tuple(i + lead for i, d in enumerate(like_shape) if d == 1 and grad_shape[i + lead] != 1)
    axes = tuple(range(lead)) + stretched
    expected = g.astype(np.float64).sum(axis=axes, keepdims=True).reshape(like_shape)
    tol = 1e-2 if dtype == np.float16 else 1e-6
    out = core_ops._sum_to_kernel(np, g, like)
    assert out.shape == like_shape and out.dtype == dtype
    np.testing.assert_allclose(out, expected, rtol=tol)
    x = tf.placeholder(dtype, grad_shape)
    with tf.Session() as sess:
        got = sess.run(core_ops.unbroadcast(x, tf.constant(like)), {x: g})
    assert got.dtype == dtype
    np.testing.assert_allclose(got, expected, rtol=tol)
