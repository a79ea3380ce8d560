"""tf.assert_* / tf.Assert: static checks at graph construction, Assert ops at run time (with TF's
messages), pruning of asserts nothing depends on, and the monotonicity predicates."""

import sys

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.op_harness import check_forward


def _run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def _guarded(check, x):
    """x's value, computed only after `check` ran."""
    with tf.control_dependencies([check]):
        return tf.identity(x)


# ---- binary comparisons ----------------------------------------------------------------------
# (function, symbol, passing x, passing y, failing x, failing y)
BINARY = [
    (tf.assert_equal, "==", [1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 4]),
    (tf.assert_none_equal, "!=", [1, 2, 3], [4, 5, 6], [1, 2, 3], [4, 2, 6]),
    (tf.assert_less, "<", [1, 2, 3], [2, 3, 4], [1, 2, 3], [2, 2, 4]),
    (tf.assert_less_equal, "<=", [1, 2, 3], [1, 3, 3], [1, 2, 3], [1, 1, 3]),
    (tf.assert_greater, ">", [2, 3, 4], [1, 2, 3], [2, 3, 4], [1, 3, 3]),
    (tf.assert_greater_equal, ">=", [2, 3, 4], [2, 3, 3], [2, 3, 4], [2, 4, 3]),
]


@pytest.mark.parametrize("fn,sym,px,py,fx,fy", BINARY, ids=[r[0].__name__ for r in BINARY])
def test_binary_assert_at_run_time(fn, sym, px, py, fx, fy):
    x = tf.placeholder(tf.int32, [None], name="x")
    y = tf.placeholder(tf.int32, [None], name="y")
    check = fn(x, y)
    assert isinstance(check, tf.Operation) and check.type == "Assert"
    # assert_equal opens its name scope twice (its same-tensor shortcut first), as TF does.
    scope = "assert_equal_1" if fn is tf.assert_equal else fn.__name__
    assert check.name == "%s/Assert/Assert" % scope
    out = _guarded(check, x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(out, {x: px, y: py}), px)
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(out, {x: fx, y: fy})
    msg = info.value.message
    expected = ("assertion failed: [Condition x %s y did not hold element-wise:] [x (x:0) = ] [%s] [y (y:0) = ] "
                "[%s]" % (sym, " ".join(map(str, fx)), " ".join(map(str, fy))))
    assert msg.startswith(expected), msg
    assert "[[node" in msg and check.name in msg


@pytest.mark.parametrize("fn,sym,px,py,fx,fy", BINARY, ids=[r[0].__name__ for r in BINARY])
def test_binary_assert_static(fn, sym, px, py, fx, fy):
    ok = fn(tf.constant(px), tf.constant(py))
    assert _run(_guarded(ok, tf.constant(1))) == 1
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        fn(tf.constant(fx, name="a"), tf.constant(fy, name="b"), message="custom")
    assert str(info.value) == ("custom\nCondition x %s y did not hold element-wise:\nx (a:0) = \n%s\ny (b:0) = \n%s"
                               % (sym, np.array(fx, np.int32), np.array(fy, np.int32)))


def test_binary_assert_message_data_and_summarize():
    x = tf.placeholder(tf.float32, [None])
    check = tf.assert_less(x, 10.0, data=["x was", x], summarize=5, message="too big")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[too big\] \[x was\] "
                                                             r"\[1 2 3 4 50\.5\.\.\.\]"):
        _run(_guarded(check, x), {x: [1, 2, 3, 4, 50.5, 6]})


def test_binary_assert_broadcasts_and_checks_dtypes():
    x = tf.placeholder(tf.float32, [2, 2])
    check = tf.assert_greater(x, 0.0)
    np.testing.assert_array_equal(_run(_guarded(check, x), {x: np.ones((2, 2))}), np.ones((2, 2)))
    with pytest.raises(TypeError):
        tf.assert_equal(tf.constant([1]), tf.constant([1.0]))


def test_assert_equal_of_the_same_tensor_is_a_no_op():
    x = tf.placeholder(tf.float32)
    check = tf.assert_equal(x, x)
    assert check.type == "NoOp"


def test_assert_equal_empty_is_trivially_true():
    x = tf.placeholder(tf.float32, [None])
    check = tf.assert_equal(x, x + 1)
    assert _run(_guarded(check, x), {x: np.zeros([0], np.float32)}).shape == (0,)


# ---- unary sign checks -----------------------------------------------------------------------
# (function, condition text of the default message, passing x, failing x)
UNARY = [
    (tf.assert_positive, "[Condition x > 0 did not hold element-wise:] [x (x:0) = ]", [1, 2, 3], [1, 0, 3]),
    (tf.assert_negative, "[Condition x < 0 did not hold element-wise:] [x (x:0) = ]", [-1, -2, -3], [-1, 0, -3]),
    (tf.assert_non_negative, "[Condition x >= 0 did not hold element-wise:] [x (x:0) = ]", [0, 1, 2], [0, -1, 2]),
    (tf.assert_non_positive, "[Condition x <= 0 did not hold element-wise:x (x:0) = ]", [0, -1, -2], [0, 1, -2]),
]


@pytest.mark.parametrize("fn,text,good,bad", UNARY, ids=[r[0].__name__ for r in UNARY])
def test_unary_assert_at_run_time(fn, text, good, bad):
    x = tf.placeholder(tf.float32, [None], name="x")
    out = _guarded(fn(x), x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(out, {x: good}), good)
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(out, {x: bad})
    assert info.value.message.startswith("assertion failed: [] %s [%s]" % (text, " ".join(map(str, bad))))


@pytest.mark.parametrize("fn,text,good,bad", UNARY, ids=[r[0].__name__ for r in UNARY])
def test_unary_assert_static(fn, text, good, bad):
    assert _run(_guarded(fn(tf.constant(good)), tf.constant(2))) == 2
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        fn(tf.constant(bad), message="msg")
    lines = str(info.value).split("\n")
    assert lines[0] == "msg"
    assert lines[-1] == str(np.array(bad, np.int32))


def test_unary_assert_empty_is_trivially_true():
    x = tf.placeholder(tf.float32, [None])
    assert _run(_guarded(tf.assert_negative(x), x), {x: []}).shape == (0,)


def test_assert_near():
    x = tf.placeholder(tf.float64, [None], name="x")
    y = tf.placeholder(tf.float64, [None], name="y")
    out = _guarded(tf.assert_near(x, y, rtol=1e-3, atol=1e-6), x)
    with tf.Session() as sess:
        sess.run(out, {x: [1.0, 100.0], y: [1.0000001, 100.05]})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[\] \[x and y not equal to "
                                                                 r"tolerance rtol = .*\[x \(x:0\) = \] \[1 100\]"):
            sess.run(out, {x: [1.0, 100.0], y: [1.0, 100.2]})
    # Default tolerance: 10 * eps of the dtype.
    z = tf.placeholder(tf.float32, [None])
    out = _guarded(tf.assert_near(z, tf.constant([1.0], tf.float32)), z)
    with tf.Session() as sess:
        sess.run(out, {z: [1.0 + 5e-7]})
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(out, {z: [1.0 + 1e-5]})


# ---- ranks -----------------------------------------------------------------------------------
def test_assert_rank_static():
    ok = tf.assert_rank(tf.constant([1.0, 2.0]), 1)
    assert ok.type == "NoOp" and ok.name == "assert_rank/static_checks_determined_all_ok"
    with pytest.raises(ValueError) as info:
        tf.assert_rank(tf.constant([[1.0], [2.0]], name="c"), 1)
    assert str(info.value) == ".  Tensor c:0 must have rank 1.  Received rank 2, shape (2, 1)"
    with pytest.raises(ValueError, match=r"^hey\.  Tensor p:0 must have rank 3\.  Received rank 2, shape \(\?, 4\)"):
        tf.assert_rank(tf.placeholder(tf.float32, [None, 4], name="p"), 3, message="hey")


def test_assert_rank_at_run_time():
    x = tf.placeholder(tf.float32, name="x")
    out = _guarded(tf.assert_rank(x, 2), x)
    with tf.Session() as sess:
        assert sess.run(out, {x: [[1.0]]}).shape == (1, 1)
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(out, {x: [1.0, 2.0]})
    assert info.value.message.startswith(
        "assertion failed: [] [Tensor x:0 must have rank] [2] [Received shape: ] [2]")


def test_assert_rank_with_a_dynamic_rank():
    x = tf.placeholder(tf.float32, name="x")
    r = tf.placeholder(tf.int32, name="r")
    out = _guarded(tf.assert_rank(x, r), x)
    with tf.Session() as sess:
        sess.run(out, {x: [1.0], r: 1})
        with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank"):
            sess.run(out, {x: [1.0], r: 2})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Rank must be a scalar\. Received rank: \] \[1\]"):
            sess.run(out, {x: [1.0], r: [1]})


def test_assert_rank_argument_errors():
    with pytest.raises(ValueError, match="Rank must be a scalar."):
        tf.assert_rank(tf.placeholder(tf.float32), [1])
    with pytest.raises(TypeError, match="must be of type"):
        tf.assert_rank(tf.placeholder(tf.float32), tf.constant(1, tf.int64))


def test_assert_rank_at_least():
    assert tf.assert_rank_at_least(tf.constant([[1.0]]), 1).type == "NoOp"
    with pytest.raises(ValueError, match=r"Tensor c:0 must have rank at least 2\.  Received rank 1, shape \(1,\)"):
        tf.assert_rank_at_least(tf.constant([1.0], name="c"), 2)
    x = tf.placeholder(tf.float32, name="x")
    out = _guarded(tf.assert_rank_at_least(x, 2), x)
    with tf.Session() as sess:
        sess.run(out, {x: np.zeros((1, 2, 3))})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Tensor x:0 must have rank at least\] \[2\]"):
            sess.run(out, {x: [1.0]})


def test_assert_rank_in():
    assert tf.assert_rank_in(tf.constant([1.0]), (1, 2)).type == "NoOp"
    with pytest.raises(ValueError, match=r"Tensor c:0 must have rank in .*Received rank 0, shape \(\)"):
        tf.assert_rank_in(tf.constant(1.0, name="c"), (1, 2))
    x = tf.placeholder(tf.float32, name="x")
    out = _guarded(tf.assert_rank_in(x, (1, 3)), x)
    with tf.Session() as sess:
        sess.run(out, {x: [1.0]})
        sess.run(out, {x: np.zeros((1, 1, 1))})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Tensor x:0 must have rank in\] \[1\] \[3\]"):
            sess.run(out, {x: [[1.0]]})


def test_assert_scalar():
    t = tf.constant(3.0)
    assert tf.assert_scalar(t) is t
    with pytest.raises(ValueError, match=r"^msg: Expected scalar shape for c:0, saw shape: \(2,\)\.$"):
        tf.assert_scalar(tf.constant([1, 2], name="c"), message="msg: ")
    with pytest.raises(ValueError, match="saw shape: <unknown>"):
        tf.assert_scalar(tf.placeholder(tf.float32))


# ---- dtypes ----------------------------------------------------------------------------------
def test_assert_type_and_integer():
    assert tf.assert_type(tf.constant(1), tf.int32).name == "assert_type/statically_determined_correct_type"
    with pytest.raises(TypeError) as info:
        tf.assert_type(tf.constant(1.0, name="f"), tf.int32, message="bad")
    assert str(info.value) == "bad  f:0 must be of type <dtype: 'int32'>"
    assert tf.assert_integer(tf.constant([1], tf.int64)).type == "NoOp"
    with pytest.raises(TypeError) as info:
        tf.assert_integer(tf.constant([1.0], name="g"))
    assert str(info.value) == "  Expected \"x\" to be integer type.  Found: g:0 of dtype <dtype: 'float32'>"


def test_assert_same_float_dtype_and_proper_iterable():
    assert tf.assert_same_float_dtype() is tf.float32
    a, b = tf.constant(1.0, tf.float64, name="a"), tf.constant(1.0, name="b")
    assert tf.assert_same_float_dtype([a, None]) is tf.float64
    with pytest.raises(ValueError, match=r"b:0, type=<dtype: 'float32'>, must be of the same type"):
        tf.assert_same_float_dtype([a, b])
    with pytest.raises(ValueError, match="Expected floating point type"):
        tf.assert_same_float_dtype([tf.constant(1)])
    tf.assert_proper_iterable([1, 2])
    for bad in ("abc", np.zeros(2), a, 3):
        with pytest.raises(TypeError):
            tf.assert_proper_iterable(bad)


# ---- Assert ----------------------------------------------------------------------------------
def test_assert_op_message_and_creation_site():
    x = tf.placeholder(tf.int32, [None])
    line = sys._getframe().f_lineno + 1
    check = tf.Assert(tf.reduce_all(x > 0), ["x must be positive, got", x, tf.constant([[1.5, 2.0], [3.0, 4.0]])])
    assert check.type == "Assert" and check.name == "Assert/Assert" and check.outputs == []
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        _run(check, {x: [1, -2, 3, 4, 5]})
    msg = info.value.message
    assert msg.startswith("assertion failed: [x must be positive, got] [1 -2 3...] [[1.5 2][3...]...]")
    assert "Assert/Assert" in msg and "%s:%d" % (__file__, line) in msg
    assert info.value.op is check
    assert _run(check, {x: [1, 2]}) is None


@pytest.mark.parametrize("summarize,expected", [(None, "[1 2 3...]"), (2, "[1 2...]"), (-1, "[1 2 3 4]"),
                                                (10, "[1 2 3 4]"), (0, "[...]")])
def test_assert_summarize(summarize, expected):
    check = tf.Assert(False, [tf.constant([1, 2, 3, 4])], summarize=summarize)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        _run(check)
    assert info.value.message.startswith("assertion failed: " + expected)


def test_assert_argument_errors():
    with pytest.raises(TypeError, match="Input 'condition' of 'Assert' Op has type int32"):
        tf.Assert(tf.constant(1), ["x"])
    check = tf.Assert(tf.constant([True, True]), ["x"])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"In\[0\] should be a scalar: \[2\]"):
        _run(check)


def test_assert_nobody_depends_on_is_pruned():
    calls = []

    def count(v):
        calls.append(1)
        return v

    x = tf.placeholder_with_default([-1.0], [1])
    observed = tf.py_func(count, [x], tf.float32)
    tf.assert_positive(observed)
    result = tf.constant(7.0) * 2
    with tf.Session() as sess:
        assert sess.run(result) == 14.0
        assert calls == []
        guarded = _guarded(tf.assert_non_positive(observed), result)
        assert sess.run(guarded) == 14.0
    assert calls == [1]


def test_run_time_assert_runs_each_time():
    calls = []

    def count(v):
        calls.append(1)
        return v

    x = tf.placeholder(tf.float32, [None])
    out = _guarded(tf.assert_positive(tf.py_func(count, [x], tf.float32)), x)
    with tf.Session() as sess:
        for _ in range(3):
            sess.run(out, {x: [1.0]})
    assert len(calls) == 3


# ---- monotonicity ----------------------------------------------------------------------------
MONOTONIC = [np.array([1, 2, 2, 3]), np.array([1, 2, 3]), np.array([3, 2]), np.array([5]), np.zeros([0]),
             np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 2.0], [2.0, 1.0]])]


@pytest.mark.parametrize("x", MONOTONIC)
def test_is_non_decreasing_and_strictly_increasing(x):
    flat = x.reshape(-1)
    d = flat[1:] - flat[:-1]
    check_forward(tf.is_non_decreasing, lambda a: np.all(d >= 0), x)
    check_forward(tf.is_strictly_increasing, lambda a: np.all(d > 0), x)


def test_is_non_decreasing_requires_numbers():
    with pytest.raises(TypeError, match="Expected x to be numeric"):
        tf.is_non_decreasing(tf.constant([True, False]))
    assert tf.is_numeric_tensor(tf.constant(1)) and not tf.is_numeric_tensor(tf.constant("a"))
    assert not tf.is_numeric_tensor(1)


def test_debugging_namespace():
    for name in ["Assert", "assert_equal", "assert_less", "assert_rank", "assert_type", "assert_positive",
                 "check_numerics", "is_non_decreasing", "is_nan"]:
        assert getattr(tf.debugging, name) is getattr(tf, name)
    assert tf.debugging.assert_all_finite is tf.verify_tensor_all_finite
    assert tf.compat.v1.debugging.assert_scalar is tf.assert_scalar


# ---- assert_shapes: messages as TF (1.15 formatting of the message prefix) ----------------------------
def test_assert_shapes_static_checks_raise_value_error_as_tf():
    with tf.Graph().as_default():
        x, y = tf.zeros([10, 3]), tf.ones([10, 7])
        p, s = tf.constant([1.0, 2.0, 3.0]), tf.constant(1.0)
        op = tf.debugging.assert_shapes([(x, ("N", "Q")), (y, ("N", "D")), (p, ("Q",)), (s, ())])
        assert op.type == "NoOp"
        with pytest.raises(ValueError, match=r"^msg:\.  Specified by tensor zeros:0 dimension 1\.  Tensor ones:0 "
                                             r"dimension 1 must have size 3\.  Received size 7, shape \(10, 7\)$"):
            tf.debugging.assert_shapes([(x, ("N", "D")), (y, ("N", "D"))], message="msg:")
        with pytest.raises(ValueError, match=r"Specified explicitly\.  Tensor zeros:0 dimension 1 must have size 2"):
            tf.debugging.assert_shapes([(x, ("N", 2))])
        with pytest.raises(ValueError, match=r"Tensor zeros:0 must have rank in \(0, 1\)\.  Received rank 2"):
            tf.debugging.assert_shapes([(x, ("N",))])
        with pytest.raises(ValueError, match=r"Tensor zeros:0 dimension -1 must have size 4"):
            tf.debugging.assert_shapes([(x, ("*", 4))])
        tf.debugging.assert_shapes([(x, ("*", 3)), (x, (None, ".")), (x, ("10", "3")), (x, None)])
        v5, v1, v2, m = tf.zeros([5]), tf.zeros([1]), tf.zeros([2]), tf.zeros([2, 3, 4])
        with pytest.raises(ValueError, match=r"dimension 0 must have size 1\.  Received size 5"):
            tf.debugging.assert_shapes([(v5, ())])  # an empty spec is one dimension of size 1
        with pytest.raises(ValueError, match=r"Tensor %s dimension 0 must have size 3\.  Received size 1" % s.name):
            tf.debugging.assert_shapes([(s, (3,))])  # a scalar is one dimension of size 1
        with pytest.raises(ValueError, match=r"Specified by tensor %s dimension 0\.  Tensor %s dimension 0 must have "
                                             r"size 1\.  Received size 2" % (s.name, v2.name)):
            tf.debugging.assert_shapes([(s, ("N",)), (v2, ("N",))])
        tf.debugging.assert_shapes([(s, ("N",)), (v1, ("N",)), (v1, ())])
        with pytest.raises(ValueError, match=r"Specified by tensor %s dimension -1\.  Tensor %s dimension 0 must have "
                                             r"size 4" % (m.name, v2.name)):
            tf.debugging.assert_shapes([(m, (Ellipsis, "Q")), (v2, ("Q",))])
        tf.debugging.assert_shapes({m: ("*", 3, 4)})


def test_assert_shapes_checks_unknown_sizes_when_run():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [None, None])
        b = tf.placeholder(tf.float32, [None])
        check = tf.debugging.assert_shapes([(a, ("N", "Q")), (b, ("Q",))], message="dyn:")
        explicit = tf.debugging.assert_shapes([(a, ("N", 2))])
        with tf.Session() as sess:
            sess.run(check, {a: [[1.0, 2.0]], b: [1.0, 2.0]})
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"assertion failed: \[dyn:\] \[Specified by tensor Placeholder:0 dimension 1\] "
                                     r"\[Tensor Placeholder_1:0 dimension\] \[0\] \[must have size\] \[2\] "
                                     r"\[Received shape: \] \[3\]"):
                sess.run(check, {a: [[1.0, 2.0]], b: [1.0, 2.0, 3.0]})
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"\[Specified explicitly\] \[Tensor Placeholder:0 dimension\] \[1\] \[must have "
                                     r"size\] \[2\] \[Received shape: \] \[1 3\]"):
                sess.run(explicit, {a: [[1.0, 2.0, 3.0]]})


def test_assertions_on_eager_tensors_name_them_by_shape_and_dtype_as_tf():
    from tensorweave.eager import context
    with context.eager_mode():
        x = tf.constant([1.0, -1.0])
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Condition x > 0 did not hold element-wise:\nx \(shape=\(2,\) dtype=float32\) = "):
            tf.debugging.assert_positive(x)
        with pytest.raises(ValueError, match=r"Tensor  must have rank 2\.  Received rank 1, shape \(2,\)"):
            tf.debugging.assert_rank(x, 2)
        with pytest.raises(ValueError, match=r"Tensor  must have rank in \(0, 1\)"):
            tf.debugging.assert_shapes([(tf.zeros([2, 2]), ("N",))])
