"""The direct eager dispatch path (eager/execute.run): cached inference, operator shortcuts, errors,
tapes and tf.function's call cache give what the full path gives."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import execute
from tensorweave.eager.context import eager_mode

HERE = os.path.basename(__file__)


@pytest.fixture(autouse=True)
def _eager():
    with eager_mode():
        yield


def _line_of(marker):
    with open(__file__) as f:
        for i, text in enumerate(f, 1):
            if marker in text and "_line_of" not in text:
                return i
    raise AssertionError(marker)


def test_operators_equal_the_ops_they_stand_for():
    rng = np.random.RandomState(0)
    for dt in (np.float32, np.float64, np.int32, np.int64):
        a = (rng.randn(3, 4) * 10).astype(dt)
        b = (rng.randn(3, 4) * 10 + 0.5).astype(dt)
        ta, tb = tf.constant(a), tf.constant(b)
        np.testing.assert_array_equal((ta + tb).numpy(), a + b)
        np.testing.assert_array_equal((ta - tb).numpy(), a - b)
        np.testing.assert_array_equal((ta * tb).numpy(), a * b)
        np.testing.assert_array_equal((ta < tb).numpy(), a < b)
        np.testing.assert_array_equal((ta >= tb).numpy(), a >= b)
        assert (ta + tb).dtype == tf.as_dtype(dt)
        assert (ta < tb).dtype == tf.bool
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose((x @ x).numpy(), np.array([[7.0, 10.0], [15.0, 22.0]]))
    np.testing.assert_allclose((x / x).numpy(), np.ones((2, 2)))


def test_operator_cases_the_shortcut_leaves_to_the_full_path():
    i = tf.constant([7, -7])
    r = i / tf.constant([2, 2])  # integer true division: cast to float64 first, as TF
    assert r.dtype == tf.float64
    np.testing.assert_array_equal(r.numpy(), [3.5, -3.5])
    b = tf.constant([True, False])
    assert (b * b).dtype == tf.bool
    np.testing.assert_array_equal((tf.constant([1.5, 2.5]) + 1).numpy(), [2.5, 3.5])
    np.testing.assert_array_equal((tf.constant(["a"]) + tf.constant(["b"])).numpy(), [b"ab"])
    m3 = tf.ones([2, 2, 2])
    assert (m3 @ m3).shape.as_list() == [2, 2, 2]  # BatchMatMulV2, not the rank-2 shortcut
    with pytest.raises(TypeError, match="int32.*float32|float32.*int32"):
        _ = tf.constant([1.5]) + tf.constant([1])


def test_a_cached_signature_never_hides_a_different_result():
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(tf.reduce_sum(x, axis=0).numpy(), [3.0, 5.0, 7.0])
    np.testing.assert_array_equal(tf.reduce_sum(x, axis=1).numpy(), [3.0, 12.0])  # axis value is in the key
    assert tf.reduce_sum(x, axis=1, keepdims=True).shape.as_list() == [2, 1]
    np.testing.assert_array_equal(tf.transpose(x, [1, 0]).numpy(), np.arange(6).reshape(2, 3).T)
    y = tf.constant(np.arange(6, dtype=np.float64).reshape(3, 2))
    assert tf.reduce_sum(y, axis=0).dtype == tf.float64
    np.testing.assert_array_equal(tf.reshape(x, [3, 2]).numpy(), np.arange(6).reshape(3, 2))
    np.testing.assert_array_equal(tf.reshape(x, [6]).numpy(), np.arange(6))


def test_eager_errors_name_the_op_and_the_users_line_on_first_and_cached_calls():
    a, b = tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0])
    _ = a + a  # the signature (AddV2, float32, float32) is cached now
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        _ = a + b  # LINE-A
    msg = str(e.value)
    assert "Dimensions must be equal, but are 2 and 3 [Op:AddV2] name: add" in msg
    assert "%s:%d" % (HERE, _line_of("# LINE-A")) in msg
    with tf.name_scope("outer"):
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:AddV2\] name: outer/add"):
            _ = a + b
    _ = tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))  # LINE-B
    msg = str(e.value)
    assert "[Op:MatMul] name: MatMul" in msg and "%s:%d" % (HERE, _line_of("# LINE-B")) in msg
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Invalid reduction dimension 3.*\[Op:Sum\]"):
        tf.reduce_sum(a, axis=3)


def test_tapes_record_ops_taken_by_the_direct_path():
    x = tf.constant([1.0, 2.0, 3.0])
    w = tf.Variable([0.5, -1.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.reduce_sum(w * x * x)
        z = tf.reduce_sum(x * x)
    np.testing.assert_allclose(t.gradient(y, w).numpy(), [1.0, 4.0, 9.0])
    np.testing.assert_allclose(t.gradient(y, x).numpy(), [1.0, -4.0, 12.0])
    np.testing.assert_allclose(t.gradient(z, x).numpy(), [2.0, 4.0, 6.0])
    del t
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        g = inner.gradient(y, x)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), [6.0, 12.0, 18.0])


def test_outputs_are_cheap_tensors_with_their_shape_and_op_on_demand():
    r = tf.constant([[1.0, 2.0]]) + tf.constant([[3.0, 4.0]])
    assert type(r).__name__ == "EagerTensor"
    assert r.shape.as_list() == [1, 2]
    assert r.op.type == "Const"
    assert r.get_shape().as_list() == [1, 2]
    np.testing.assert_array_equal(tf.get_static_value(r), [[4.0, 6.0]])


def test_tf_function_call_cache_retraces_for_new_dtypes_and_shapes():
    traces = []

    @tf.function
    def f(a, b):
        traces.append(1)
        return a * b

    one = tf.constant([1.0, 2.0])
    np.testing.assert_array_equal(f(one, one).numpy(), [1.0, 4.0])
    np.testing.assert_array_equal(f(one, tf.constant([3.0, 3.0])).numpy(), [3.0, 6.0])
    assert len(traces) == 1
    np.testing.assert_array_equal(f(tf.constant([1.0]), tf.constant([5.0])).numpy(), [5.0])
    assert len(traces) == 2
    assert f(tf.constant([2, 3]), tf.constant([2, 3])).dtype == tf.int32
    assert len(traces) == 3
    f(one, one)
    assert len(traces) == 3

    @tf.function
    def g(a, scale=2.0):
        return a * scale

    np.testing.assert_array_equal(g(one).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(g(one, 3.0).numpy(), [3.0, 6.0])
    np.testing.assert_array_equal(g(one).numpy(), [2.0, 4.0])

    @tf.function
    def pair(a):
        return a, a + 1.0

    p, q = pair(one)
    np.testing.assert_array_equal(q.numpy(), [2.0, 3.0])


def test_eager_constants_are_read_only_values_of_tf_dtypes():
    c = tf.constant([[1.0], [2.0]])
    assert c.dtype == tf.float32 and c.shape.as_list() == [2, 1]
    assert not c._value.flags.writeable
    assert tf.constant(2.5).dtype == tf.float32
    assert tf.constant([1.0, 2]).dtype == tf.float32
    assert tf.constant([[]]).shape.as_list() == [1, 0]
    with pytest.raises(ValueError, match="non-rectangular"):
        tf.constant([[1.0], [2.0, 3.0]])


def test_the_infer_cache_stays_bounded():
    execute._infer_cache.clear()
    for n in range(1, 40):
        tf.reduce_sum(tf.ones([n]), axis=0)
    assert 0 < len(execute._infer_cache) <= execute._INFER_CACHE_MAX
