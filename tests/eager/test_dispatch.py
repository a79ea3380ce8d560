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


def _graph_reduction(fn, value, keepdims):
    """`fn(value)` (all axes) run by a graph Session: the registered kernel's result."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.as_dtype(value.dtype))
        y = fn(x, axis=list(range(value.ndim)), keepdims=keepdims)
        with tf.Session() as sess:
            return sess.run(y, {x: value})


@pytest.mark.parametrize("fn", [tf.reduce_sum, tf.reduce_mean, tf.reduce_max, tf.reduce_prod],
                         ids=["sum", "mean", "max", "prod"])
def test_whole_tensor_reductions_give_the_kernels_results_bit_for_bit(fn):
    rng = np.random.RandomState(3)
    big = np.iinfo(np.int32).max
    values = [rng.randn(1000).astype(np.float32), rng.randn(7, 11, 13).astype(np.float32),
              rng.randn(3, 4).astype(np.float64), np.float32(2.5).reshape(()),
              np.array([1.0, np.nan, 2.0], np.float32), np.array([np.inf, -np.inf], np.float64),
              np.array([np.inf, 1.0], np.float32), np.zeros((0, 3), np.float32),
              np.array([big, big, 5], np.int32),  # the int32 sum wraps around, as TF's
              np.array([[2 ** 62, 2 ** 62]], np.int64), np.array([7, -8, 9], np.int32),
              rng.randn(5).astype(np.float16), np.arange(1, 9, dtype=np.int64).reshape(2, 2, 2)]
    for v in values:
        if fn is tf.reduce_max and v.size == 0:
            continue  # checked below: the identity of an empty max
        for keepdims in (False, True):
            got = fn(tf.constant(v), keepdims=keepdims)
            want = np.asarray(_graph_reduction(fn, v, keepdims))
            assert got.dtype == tf.as_dtype(v.dtype)
            assert got.numpy().shape == want.shape == ((1,) * v.ndim if keepdims else ())
            np.testing.assert_array_equal(np.asarray(got.numpy()), want, err_msg=str((fn.__name__, v.dtype, v.shape)))
    assert tf.reduce_max(tf.zeros([0])).numpy() == -np.inf


def test_a_reduction_taped_on_the_direct_path_has_its_gradient():
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        s = tf.reduce_sum(x * x)
        m = tf.reduce_mean(x, keepdims=True)
    np.testing.assert_allclose(t.gradient(s, x).numpy(), 2 * x.numpy())
    assert m.shape.as_list() == [1, 1]
    np.testing.assert_allclose(t.gradient(m, x).numpy(), np.full((2, 3), 1 / 6, np.float32))


def test_variable_reads_are_recorded_by_the_tapes_that_watch_them():
    w = tf.Variable([1.0, 2.0])
    frozen = tf.Variable([3.0, 4.0], trainable=False)
    with tf.GradientTape() as outer:
        with tf.GradientTape(watch_accessed_variables=False) as inner:
            y = tf.reduce_sum(w * w) + tf.reduce_sum(frozen * frozen)
        assert inner.gradient(y, w) is None  # nothing watched on the inner tape
    assert outer.watched_variables() == (w,)
    np.testing.assert_allclose(outer.gradient(y, w).numpy(), [2.0, 4.0])
    with tf.GradientTape() as t:
        t.watch(frozen)
        z = tf.reduce_sum(frozen * w)
    gf, gw = t.gradient(z, [frozen, w])
    np.testing.assert_allclose(gf.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(gw.numpy(), [3.0, 4.0])


def test_gradient_of_one_target_keeps_the_sources_structure_and_shares_read_only_seeds():
    w = tf.Variable([1.0, 2.0])
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.reduce_sum(w * x)
    g = t.gradient(y, {"b": [x], "a": w})
    assert sorted(g) == ["a", "b"] and isinstance(g["b"], list)
    np.testing.assert_allclose(g["a"].numpy(), [3.0, 4.0])
    np.testing.assert_allclose(g["b"][0].numpy(), [1.0, 2.0])
    np.testing.assert_allclose(t.gradient(y, (w,))[0].numpy(), [3.0, 4.0])
    seed = t.gradient(y, y)
    assert seed.numpy() == 1.0 and seed.dtype == tf.float32
    again = t.gradient(y, y)
    assert not seed._value.flags.writeable  # shared, read-only as eager constants
    v = tf.Variable(0.0)
    v.assign(seed)
    v.assign_add(1.0)
    assert v.numpy() == 2.0 and again.numpy() == 1.0
    assert t.gradient(y, tf.constant(1.0)) is None
    np.testing.assert_array_equal(t.gradient(y, tf.constant(1.0), unconnected_gradients="zero").numpy(), 0.0)


def test_python_scalar_operands_convert_to_the_tensors_float_dtype_on_either_side():
    for dt in (np.float16, np.float32, np.float64):
        v = np.array([0.5, -2.0, 3.0], dt)
        x = tf.constant(v)
        for got, want in [(x + 1, v + dt(1)), (2.5 * x, dt(2.5) * v), (1 - x, dt(1) - v), (x - 0.25, v - dt(0.25)),
                          (x / 4, v / dt(4)), (3.0 / x, dt(3) / v), (x * 0.1, v * dt(0.1))]:
            assert got.dtype == tf.as_dtype(dt)
            np.testing.assert_array_equal(got.numpy(), want)
        np.testing.assert_array_equal((x < 1).numpy(), v < 1)
        np.testing.assert_array_equal((0.6 < x).numpy(), v > dt(0.6))
        assert (x >= 0.5).dtype == tf.bool
    i = tf.constant([1, 2])
    assert (i + 1).dtype == tf.int32 and (2 * i).dtype == tf.int32  # integer tensors take the full path
    with pytest.raises(TypeError):
        _ = i + 1.5
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(3.0 * x * x - 1 / x)
    np.testing.assert_allclose(t.gradient(y, x).numpy(), [7.0, 12.25])
    with tf.name_scope("outer"):
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:RealDiv\] name: outer/truediv"):
            _ = tf.constant([[1.0, 2.0]]) / tf.constant([1.0, 2.0, 3.0])


def test_binary_ops_convert_a_python_number_to_the_tensors_dtype():
    n = tf.constant(27)
    assert tf.equal(n % 2, 1).numpy() and not tf.not_equal(n, 27).numpy()
    np.testing.assert_array_equal((n // 2).numpy(), 13)
    np.testing.assert_array_equal((3 * n + 1).numpy(), 82)
    x = tf.constant([-1.5, 2.0])
    np.testing.assert_array_equal(tf.maximum(x, 0).numpy(), [0.0, 2.0])
    r = tf.subtract(1, x)  # the Python operand first: converted to the tensor's dtype
    assert r.dtype == tf.float32
    np.testing.assert_array_equal(r.numpy(), [2.5, -1.0])
    np.testing.assert_array_equal((x // 1).numpy(), [-2.0, 2.0])
    np.testing.assert_array_equal((7.5 % x).numpy(), np.mod(np.float32(7.5), x.numpy()))
    big = tf.constant([1, 2], tf.int64) * 2 ** 40
    assert big.dtype == tf.int64 and big.numpy()[1] == 2 ** 41
    with pytest.raises(TypeError, match="does not match"):
        tf.multiply(tf.constant([1, 2]), 2 ** 40)  # out of int32's range: the full conversion's error
    with pytest.raises(TypeError):
        tf.add(tf.constant([1, 2]), 0.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Integer division by zero \[Op:FloorMod\] name: mod"):
        _ = n % 0
    with tf.name_scope("s"):
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:FloorDiv\] name: s/floordiv"):
            _ = n // 0


def test_an_unconnected_output_gets_zeros_marked_as_zeros_like():
    seen = []

    @tf.custom_gradient
    def two(v):
        def grad(da, db):
            seen.append((db.op.type, db.numpy().tolist()))
            return da * 2 + db * 3
        return (v * 2, v * 3), grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        a, _ = two(x)
        y = tf.reduce_sum(a)
    np.testing.assert_array_equal(t.gradient(y, x).numpy(), [2.0, 2.0])
    assert seen == [("ZerosLike", [0.0, 0.0])]


def test_a_variable_operand_is_read_and_recorded():
    w = tf.Variable([1.0, 2.0])
    x = tf.constant([3.0, 4.0])
    np.testing.assert_array_equal((x + w).numpy(), [4.0, 6.0])
    np.testing.assert_array_equal((x / w).numpy(), [3.0, 2.0])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(x * w)
    np.testing.assert_array_equal(t.gradient(y, w).numpy(), [3.0, 4.0])
    assert t.watched_variables() == (w,)


def test_matmul_reads_variable_arguments_on_the_tape():
    w = tf.Variable([[1.0], [2.0]])
    x = tf.constant([[3.0, 4.0]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.matmul(x, w))
        z = tf.reduce_sum(tf.matmul(w, x))
    gy, gz = t.gradient([y, z], [w, x])
    np.testing.assert_array_equal(gy.numpy(), [[10.0], [11.0]])  # x^T 1 + 1 x^T: [[3], [4]] + [[7], [7]]
    np.testing.assert_array_equal(gz.numpy(), [[4.0, 5.0]])
    assert t.watched_variables() == (w,)


def test_a_whole_mean_beyond_float32s_exact_counts_takes_the_registered_kernel(monkeypatch):
    from tensorweave.ops import math_reduce_ops
    v = np.random.RandomState(2).randn(3, 7).astype(np.float32)
    calls = []
    kernel = math_reduce_ops._mean_kernel

    def spy(*args):
        calls.append(args[3])
        return kernel(*args)

    monkeypatch.setattr(math_reduce_ops, "_EXACT_COUNT", 4)  # as if 21 elements were more than 2**24
    monkeypatch.setattr(math_reduce_ops, "_mean_kernel", spy)
    for keepdims in (False, True):
        got = tf.reduce_mean(tf.constant(v), keepdims=keepdims)
        np.testing.assert_array_equal(got.numpy(), np.mean(v, axis=(0, 1), keepdims=keepdims))
        assert got.dtype == tf.float32
    assert calls == [False, True]
