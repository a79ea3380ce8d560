"""`tf.bitwise` and the `& | ^ ~` operators of integer tensors, against TensorFlow's values (the
shift amounts TF clamps to `[0, bits - 1]` included); bool tensors keep the logical ops."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tests.ops.op_harness import check_forward

INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16]


def _run(t, feed=None):
    with tf.Session(graph=(t[0] if isinstance(t, (list, tuple)) else t).graph) as sess:
        return sess.run(t, feed)


def _wrap(values, dt):
    info = np.iinfo(dt)
    span = 1 << info.bits
    return np.array([((int(v) - int(info.min)) % span) + int(info.min) for v in values], dt)


def _operands(dt):
    info = np.iinfo(dt)
    x = np.array([0, 1, 5, 77, info.max, info.min, info.max - 3] + ([-1, -77] if info.min < 0 else [200, 9]), dt)
    y = np.array([3, 1, 6, 12, info.min, info.max, 5] + ([-2, 1] if info.min < 0 else [1, 255]), dt)
    return x, y


@pytest.mark.parametrize("dt", INT_TYPES)
@pytest.mark.parametrize("fn,py", [(tf.bitwise.bitwise_and, lambda a, b: a & b),
                                   (tf.bitwise.bitwise_or, lambda a, b: a | b),
                                   (tf.bitwise.bitwise_xor, lambda a, b: a ^ b)])
def test_binary_bitwise_ops(fn, py, dt):
    x, y = _operands(dt)
    check_forward(fn, lambda a, b: _wrap([py(int(p), int(q)) for p, q in zip(a, b)], dt), x, y)
    check_forward(fn, lambda a, b: _wrap([py(int(p), int(b[0])) for p in a], dt), x, y[:1])  # broadcast


@pytest.mark.parametrize("dt", INT_TYPES)
def test_invert(dt):
    x, _ = _operands(dt)
    check_forward(tf.bitwise.invert, lambda a: _wrap([~int(v) for v in a], dt), x)


# TF's values (TF 2.21): shifts below 0 count as 0 and shifts of `bits` or more as `bits - 1`;
# left shifts wrap around, right shifts of signed integers are arithmetic.
SHIFTS = {
    np.int8: ([2, -12, -128, -128, 0, 7, -128], [0, -1, 0, 0, -1, 7, 0]),
    np.uint8: ([2, 32, 128, 128, 0, 7, 128], [0, 50, 0, 1, 0, 7, 0]),
    np.int16: ([2, -12, -32768, -32768, 0, 7, -32768], [0, -1, 0, 0, -1, 7, 0]),
    np.uint16: ([2, 800, 32768, 32768, 0, 7, 32768], [0, 50, 0, 1, 0, 7, 0]),
    np.int32: ([2, -12, -2 ** 31, -2 ** 31, 0, 7, -2 ** 31], [0, -1, 0, 0, -1, 7, 0]),
    np.int64: ([2, -12, -2 ** 63, -2 ** 63, 0, 7, -2 ** 63], [0, -1, 0, 0, -1, 7, 0]),
}


@pytest.mark.parametrize("dt", INT_TYPES)
def test_shifts_clamp_the_shift_amount_as_tf(dt):
    info = np.iinfo(dt)
    x = np.array([1, -3 if info.min < 0 else 200, 5, info.max, info.min, 7, 7], dt)
    s = np.array([1, 2, info.bits - 1, info.bits, info.bits + 3, -1 if info.min < 0 else 0, 100], dt)
    left, right = SHIFTS[dt]
    check_forward(tf.bitwise.left_shift, lambda a, b: np.array(left, dt), x, s)
    check_forward(tf.bitwise.right_shift, lambda a, b: np.array(right, dt), x, s)


def test_operators_on_integer_tensors_are_bitwise():
    with tf.Graph().as_default():
        a = tf.constant([1, 2], tf.int32)
        b = tf.constant([3, 3], tf.int32)
        outs = [a & b, a | b, a ^ b, ~a, a & 1, 3 | a, 6 ^ a]
        assert [(t.op.name, t.op.type) for t in outs] == [
            ("and/BitwiseAnd", "BitwiseAnd"), ("or/BitwiseOr", "BitwiseOr"), ("xor/BitwiseXor", "BitwiseXor"),
            ("Invert", "Invert"), ("and_1/BitwiseAnd", "BitwiseAnd"), ("or_1/BitwiseOr", "BitwiseOr"),
            ("xor_1/BitwiseXor", "BitwiseXor")]
        vals = _run(outs)
    for v, e in zip(vals, [[1, 2], [3, 3], [2, 1], [-2, -3], [1, 0], [3, 3], [7, 4]]):
        assert v.dtype == np.int32
        np.testing.assert_array_equal(v, e)
    with tf.Graph().as_default():
        u = tf.constant([200, 1], tf.uint8)
        np.testing.assert_array_equal(_run([~u, u & 129, u | 2, u ^ 255]), [[55, 254], [128, 1], [202, 3], [55, 254]])


def test_operators_on_bool_tensors_stay_logical():
    with tf.Graph().as_default():
        c = tf.constant([True, False])
        d = tf.constant([True, True])
        outs = [c & d, c | d, c ^ d, ~c]
        assert [t.op.type for t in outs] == ["LogicalAnd", "LogicalOr", "LogicalAnd", "LogicalNot"]
        assert [t.op.name for t in outs] == ["and", "or", "xor", "LogicalNot"]
        np.testing.assert_array_equal(_run(outs), [[True, False], [True, True], [False, True], [False, True]])


def test_bitwise_ops_in_eager_mode():
    with context.eager_mode():
        a = tf.constant([12, 10], tf.int16)
        np.testing.assert_array_equal((a & 6).numpy(), [4, 2])
        np.testing.assert_array_equal((~a).numpy(), [-13, -11])
        np.testing.assert_array_equal(tf.bitwise.left_shift(a, tf.constant([1, 20], tf.int16)).numpy(), [24, 0])


def test_bitwise_static_shapes_and_names():
    x = tf.placeholder(tf.int32, [None, 3])
    y = tf.placeholder(tf.int32, [3])
    assert tf.bitwise.bitwise_and(x, y).shape.as_list() == [None, 3]
    assert tf.bitwise.invert(x).shape.as_list() == [None, 3]
    assert tf.bitwise.right_shift(x, 1, name="rs").op.name == "rs"
    assert tf.bitwise.bitwise_or(x, y).op.name == "BitwiseOr"


def test_bitwise_errors():
    f = tf.constant([1.0])
    msg = "Value passed to parameter 'x' has DataType float32 not in list of allowed values: int8, int16, int32, int64"
    for fn in (tf.bitwise.bitwise_and, tf.bitwise.bitwise_or, tf.bitwise.bitwise_xor, tf.bitwise.left_shift,
               tf.bitwise.right_shift):
        with pytest.raises(TypeError, match=msg):
            fn(f, f)
    with pytest.raises(TypeError, match=msg):
        tf.bitwise.invert(f)
    with pytest.raises(TypeError, match=msg):
        f & f
    with pytest.raises(TypeError, match=msg):
        ~f
    with pytest.raises(TypeError, match="DataType bool not in list of allowed values"):
        tf.bitwise.left_shift(tf.constant([True]), tf.constant([True]))
    with pytest.raises(TypeError, match="Input 'y' of 'BitwiseAnd' Op has type int64 that does not match type int32"):
        tf.bitwise.bitwise_and(tf.constant([1]), tf.constant([1], tf.int64))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.bitwise.bitwise_and(tf.placeholder(tf.int32, [2, 3]), tf.placeholder(tf.int32, [4]))
    a, b = tf.placeholder(tf.int32), tf.placeholder(tf.int32)
    with tf.Session() as sess:
        out = tf.bitwise.bitwise_or(a, b)
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2,3\] vs. \[4\]") as e:
            sess.run(out, {a: np.ones((2, 3)), b: np.ones(4)})
    assert "'%s' (op: BitwiseOr, defined at %s" % (out.op.name, __file__) in str(e.value)


def test_bitwise_ops_are_not_differentiable():
    a = tf.constant([1, 2])
    b = tf.constant([3, 3])
    for out in (tf.bitwise.bitwise_and(a, b), tf.bitwise.bitwise_xor(a, b), tf.bitwise.left_shift(a, b)):
        assert tf.gradients(out, [a, b]) == [None, None]
    assert tf.gradients(tf.bitwise.invert(a), a) == [None]
    assert tf.gradients(tf.cast(a | b, tf.float32), a) == [None]


def test_bitwise_namespace():
    assert sorted(tf.bitwise.__all__) == ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift",
                                          "right_shift"]
    for name in tf.bitwise.__all__:
        fn = getattr(tf.bitwise, name)
        assert fn.__name__ == name and "Args:" in fn.__doc__ and "Raises:" in fn.__doc__
    assert tf.compat.v1.bitwise.bitwise_and is tf.bitwise.bitwise_and
