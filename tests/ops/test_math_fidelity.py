"""Math ops where TensorFlow's semantics are easy to miss, each checked against TF's own values and
messages (TF 2.21, TF 1.15 where they differ only by v2 behaviour): the dtypes each op accepts
(at graph construction, and at run time where TF registers no CPU kernel), integer means,
products with zeros, arg-max/min with NaN, gradients that stay finite where the upstream
gradient is 0, tensordot and einsum on unknown shapes, and the error text of shape mismatches
found at run time."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tests.ops.op_harness import check_forward, check_gradient

nan, inf = np.nan, np.inf


def _run(t, feed=None):
    with tf.Session(graph=(t[0] if isinstance(t, (list, tuple)) else t).graph) as sess:
        return sess.run(t, feed)


def _run_error(t, feed, cls=tf.errors.InvalidArgumentError):
    """The message of the error `cls` running `t` raises."""
    with tf.Session(graph=t.graph) as sess:
        with pytest.raises(cls) as e:
            sess.run(t, feed)
    return e.value.message


# ---- dtypes TF accepts (item 5) -----------------------------------------------------------------
@pytest.mark.parametrize("dt", [np.int8, np.int16])
def test_pow_of_small_integers(dt):
    x = np.array([1, 2, 3, 0, -2, 5], dt)
    y = np.array([3, 2, 1, 0, 3, 4], dt)
    check_forward(tf.pow, lambda a, b: np.array([int(p) ** int(q) for p, q in zip(a, b)]).astype(dt), x, y)
    check_forward(lambda a, b: a ** b, lambda a, b: np.array([int(p) ** int(q) for p, q in zip(a, b)]).astype(dt),
                  x, y)


def test_integer_pow_with_a_negative_exponent_is_tf_error():
    x = tf.placeholder(tf.int32, [None])
    msg = _run_error(tf.pow(x, x), {x: [2, -1]})
    assert msg.startswith("Integers to negative integer powers are not allowed")
    assert "'Pow' (op: Pow, defined at" in msg


def test_matmul_int16_of_unknown_rank_is_a_batch_matmul():
    a = np.array([[1, 2], [3, 0]], np.int16)
    b = np.array([[2, 1], [1, 3]], np.int16)
    x, y = tf.placeholder(tf.int16), tf.placeholder(tf.int16)
    for out in (tf.matmul(x, y), x @ y, tf.matmul(tf.expand_dims(x, 0), y)):
        assert out.op.type == "BatchMatMulV2" and out.dtype == tf.int16
        v = _run(out, {x: a, y: b})
        np.testing.assert_array_equal(v.reshape(2, 2), [[4, 7], [6, 3]])
        assert v.dtype == np.int16
    with pytest.raises(TypeError, match="DataType int16 not in list of allowed values"):
        tf.matmul(tf.constant(a), tf.constant(b))  # rank 2: MatMul, which TF has no int16 for
    with pytest.raises(TypeError, match="DataType int8 not in list of allowed values"):
        tf.matmul(tf.placeholder(tf.int8), tf.placeholder(tf.int8))


def test_bool_tensors_multiply_as_tf():
    c = tf.constant([True, False, True])
    d = tf.constant([True, True, False])
    for out in (c * d, c * True):
        assert out.dtype == tf.bool
    np.testing.assert_array_equal(_run([c * d, c * True, False * c]), [[True, False, False], [True, False, True],
                                                                       [False, False, False]])
    with pytest.raises(TypeError, match="DataType bool not in list of allowed values"):
        tf.multiply(c, d)
    with pytest.raises(TypeError, match="DataType bool not in list of allowed values"):
        c + d


@pytest.mark.parametrize("fn,expected", [(tf.argmax, [1, 0, 1]), (tf.argmin, [0, 1, 0])])
def test_arg_max_min_of_bool(fn, expected):
    x = np.array([[False, True, False], [True, False, True]]).T
    check_forward(lambda t: fn(t, 1), lambda a: np.array(expected, np.int64), x)


@pytest.mark.parametrize("fn,dt", [(tf.abs, tf.uint8), (tf.abs, tf.uint16), (tf.negative, tf.uint8),
                                   (tf.sign, tf.uint16), (lambda x: -x, tf.uint8), (lambda x: abs(x), tf.uint16)])
def test_unary_ops_tf_has_no_unsigned_kind_of(fn, dt):
    with pytest.raises(TypeError, match="DataType %s not in list of allowed values" % dt.name):
        fn(tf.constant([1, 2], dt))


@pytest.mark.parametrize("fn,dt", [(tf.squared_difference, tf.int8), (tf.squared_difference, tf.uint16),
                                   (tf.truncatemod, tf.int16), (tf.truncatemod, tf.uint8),
                                   (lambda a, b: tf.tensordot(a, b, 1), tf.bool),
                                   (lambda a, b: tf.tensordot(a, b, 1), tf.int8),
                                   (lambda a, b: tf.tensordot(a, b, 1), tf.int16)])
def test_binary_ops_tf_rejects_small_types_for(fn, dt):
    x = tf.constant(np.ones((2, 2)), dt)
    with pytest.raises(TypeError, match="DataType %s not in list of allowed values" % dt.name):
        fn(x, x)


NO_KERNEL = [
    ("RealDiv", tf.realdiv, tf.int32, "DT_INT32"),
    ("RealDiv", tf.realdiv, tf.uint8, "DT_UINT8"),
    ("Reciprocal", tf.reciprocal, tf.int64, "DT_INT64"),
    ("Rint", tf.rint, tf.float16, "DT_HALF"),
    ("Round", tf.round, tf.complex64, "DT_COMPLEX64"),
    ("TruncateMod", tf.truncatemod, tf.float16, "DT_HALF"),
    ("FloorDiv", tf.floordiv, tf.complex128, "DT_COMPLEX128"),
    ("FloorDiv", lambda a, b: a // b, tf.complex64, "DT_COMPLEX64"),
    ("TruncateDiv", tf.truncatediv, tf.complex64, "DT_COMPLEX64"),
    ("Einsum", lambda a, b: tf.einsum("ij,jk->ik", a, b), tf.int8, "DT_INT8"),
    ("Einsum", lambda a, b: tf.einsum("ij,jk->ik", a, b), tf.uint16, "DT_UINT16"),
    ("Einsum", lambda a, b: tf.einsum("ij,jk->ik", a, b), tf.bool, "DT_BOOL"),
]


@pytest.mark.parametrize("op_type,fn,dt,tf_name", NO_KERNEL, ids=["%s-%s" % (r[0], r[2].name) for r in NO_KERNEL])
def test_types_tf_registers_no_cpu_kernel_for_fail_at_run_time(op_type, fn, dt, tf_name):
    x = tf.placeholder(dt, [2, 2])
    try:
        out = fn(x, x)
    except TypeError:
        out = fn(x)
    value = np.ones((2, 2), dt.as_numpy_dtype)
    for feed in ({x: value}, None):
        if feed is None:  # the same op on constants (folded at compile time, reported at run time)
            c = tf.constant(value)
            try:
                out = fn(c, c)
            except TypeError:
                out = fn(c)
        msg = _run_error(out, feed)
        assert msg.startswith("No OpKernel was registered to support Op '%s' with these attrs: [T=%s]"
                              % (op_type, tf_name)), msg
        assert "Registered kernels:" in msg and "'%s' (op: %s, defined at" % (out.op.name, op_type) in msg


# ---- reduce_prod's gradient with zeros (item 6) -------------------------------------------------
PROD_X = np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 5.0]])
PROD_GRADS = [  # TF's values
    (None, [[0, 0, 0], [0, 0, 0]]),
    (0, [[0, 0, 5], [0, 2, 3]]),
    (1, [[6, 0, 0], [0, 0, 0]]),
    (-1, [[6, 0, 0], [0, 0, 0]]),
    ([0, 1], [[0, 0, 0], [0, 0, 0]]),
]


@pytest.mark.parametrize("axis,expected", PROD_GRADS)
@pytest.mark.parametrize("shape", [None, [None, None]], ids=["unknown-rank", "unknown-dims"])
def test_reduce_prod_gradient_with_zeros_and_unknown_shapes(axis, expected, shape):
    x = tf.placeholder(tf.float64, shape)
    (g,) = tf.gradients(tf.reduce_prod(x, axis), x)
    v = _run(g, {x: PROD_X})
    assert not np.isnan(v).any()
    np.testing.assert_array_equal(v, expected)


def test_reduce_prod_gradient_with_fed_axes():
    x = tf.placeholder(tf.float64, [2, 3])
    ax = tf.placeholder(tf.int32, [None])
    (g,) = tf.gradients(tf.reduce_prod(x, ax, keepdims=True), x)
    np.testing.assert_array_equal(_run(g, {x: PROD_X, ax: [1]}), [[6, 0, 0], [0, 0, 0]])
    np.testing.assert_array_equal(_run(g, {x: PROD_X, ax: [-1, 0]}), np.zeros((2, 3)))
    np.testing.assert_array_equal(_run(g, {x: PROD_X, ax: []}), np.ones((2, 3)))
    v = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]])
    np.testing.assert_allclose(_run(g, {x: v, ax: [0]}), [[0.5, 4.0, -1.0], [1.5, -2.0, 3.0]])
    y = tf.placeholder(tf.float64)  # unknown rank, axes fed: the product of the others, scalar input too
    (gy,) = tf.gradients(tf.reduce_prod(y, ax), y)
    np.testing.assert_array_equal(_run(gy, {y: np.array([[[2.0, 0.0, 3.0]]]), ax: [2]}), [[[0, 6, 0]]])
    np.testing.assert_array_equal(_run(gy, {y: np.array(7.0), ax: []}), 1.0)


def test_reduce_prod_gradient_of_unknown_rank_checks_numerically():
    x = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]])
    check_gradient(lambda t: tf.reshape(tf.reduce_prod(tf.placeholder_with_default(t, None), 1), [2]), x)
    c = np.array([[1 + 2j, 0], [3, 1 - 1j]])
    y = tf.placeholder(tf.complex128)
    (g,) = tf.gradients(tf.reduce_prod(y, 0), y)
    np.testing.assert_allclose(_run(g, {y: c}), np.conj([[3, 1 - 1j], [1 + 2j, 0]]))


# ---- reduce_mean of integers (item 8) -----------------------------------------------------------
MEANS = [  # TF's values: an int64 (uint64) accumulator, then division truncating toward zero
    (np.uint8, [200, 200], 200), (np.uint8, [255, 255, 1], 170), (np.int8, [100, 100], 100),
    (np.int8, [-100, -100, -1], -67), (np.int8, [-3, 0], -1), (np.int16, [30000, 30000], 30000),
    (np.uint16, [65535, 65535], 65535), (np.int32, [2 ** 31 - 1, 2 ** 31 - 1], 2 ** 31 - 1),
    (np.int32, [-2 ** 31, -2 ** 31], -2 ** 31), (np.int32, [-7, 0], -3), (np.int32, [-7, 1, 0], -2),
    (np.int64, [2 ** 63 - 1, 2 ** 63 - 1], -1), (np.int64, [2 ** 62] * 3, -1537228672809129301),
    (np.int64, [-2 ** 63, -2 ** 63], 0), (np.int64, [-2 ** 63, -1], 2 ** 62 - 1),
    (np.int64, [-2 ** 63, 3], -2 ** 62 + 2),
    (np.int32, [], 0), (np.uint8, [], 0),
]


@pytest.mark.parametrize("dt,values,expected", MEANS)
def test_reduce_mean_of_integers_accumulates_as_tf(dt, values, expected):
    v = np.array(values, dt)
    check_forward(tf.reduce_mean, lambda a: np.array(expected, dt), v)
    check_forward(lambda t: tf.reduce_mean(t, 1), lambda a: np.array([expected], dt), v.reshape(1, -1))


def test_reduce_mean_of_integers_along_axes():
    a = np.full((1000, 3), 250, np.uint8)
    check_forward(lambda t: tf.reduce_mean(t, 0), lambda x: np.full(3, 250, np.uint8), a)
    b = np.full((3, 1000), 2 ** 31 - 1, np.int32)
    check_forward(lambda t: tf.reduce_mean(t, [0, 1], keepdims=True), lambda x: np.full((1, 1), 2 ** 31 - 1, np.int32),
                  b)
    with context.eager_mode():
        assert tf.reduce_mean(tf.constant([200, 200], tf.uint8)).numpy() == 200


# ---- argmax / argmin with NaN (item 9) ----------------------------------------------------------
ARG_NAN = [  # TF's values: a NaN never wins; all NaN (or only the lowest value) gives index 0
    ([1, nan, 3], 2, 0), ([nan, 1, 3], 2, 1), ([1, 3, nan], 1, 0), ([nan, nan, 1], 2, 2), ([1, nan, nan], 0, 0),
    ([nan, nan, nan], 0, 0), ([3, nan, 1], 0, 2), ([nan, -inf, -inf], 0, 1), ([nan, inf, inf], 1, 0),
    ([-inf, -inf, 2], 2, 0), ([2, -inf, nan, 5, nan, 5], 3, 1),
]


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("values,imax,imin", ARG_NAN)
def test_arg_max_min_with_nan_follow_tf(values, imax, imin, dt):
    x = np.array(values, dt)
    check_forward(lambda t: [tf.argmax(t, 0), tf.argmin(t, 0)], lambda a: [np.int64(imax), np.int64(imin)], x)


def test_arg_max_min_with_nan_along_either_axis():
    rng = np.random.RandomState(0)
    a = rng.randn(20, 30)
    a[rng.rand(20, 30) < 0.3] = nan
    a[3, :] = nan
    a[:, 5] = nan

    def ref(x, axis, better):
        x = np.moveaxis(x, axis, -1)
        out = []
        for row in x:
            best, index = None, 0
            for i, v in enumerate(row):
                if v == v and (best is None or better(v, best)):
                    best, index = v, i
            out.append(index)
        return np.array(out, np.int64)

    for axis in (0, 1):
        check_forward(lambda t: tf.argmax(t, axis), lambda x: ref(x, axis, lambda v, b: v > b), a)
        check_forward(lambda t: tf.argmin(t, axis), lambda x: ref(x, axis, lambda v, b: v < b), a)


# ---- item 10 ----------------------------------------------------------------------------------
def test_where_of_sqrt_has_a_zero_gradient_where_not_taken():
    x = tf.constant([0.0, 1.0, 0.0, 4.0])
    c = tf.constant([False, True, True, False])
    cases = [(tf.sqrt, [0, 0.5, inf, 0]), (tf.rsqrt, [0, -0.5, -inf, 0]), (tf.reciprocal, [0, -1, -inf, 0])]
    for fn, expected in cases:
        (g,) = tf.gradients(tf.where(c, fn(x), tf.zeros_like(x)), x)
        v = _run(g)
        np.testing.assert_array_equal(v, expected)
        assert not np.signbit(v[[0, 3]]).any()
    (g,) = tf.gradients(tf.where_v2(c, tf.sqrt(x), 0.0), x)
    np.testing.assert_array_equal(_run(g), [0, 0.5, inf, 0])
    (g,) = tf.gradients(tf.sqrt(x) * tf.sqrt(x), x)  # the upstream gradient sqrt(x) is 0 at x = 0
    np.testing.assert_array_equal(_run(g), [0, 1, 0, 1])
    (g,) = tf.gradients(tf.where(c, tf.log(x), tf.zeros_like(x)), x)  # Log's rule multiplies: 0 * inf
    np.testing.assert_array_equal(_run(g), [nan, 1, inf, 0])


@pytest.mark.parametrize("fn,op_type,fprime", [(tf.sqrt, "SqrtGrad", lambda v: 0.5 / np.sqrt(v)),
                                               (tf.rsqrt, "RsqrtGrad", lambda v: -0.5 * v ** -1.5),
                                               (tf.reciprocal, "ReciprocalGrad", lambda v: -1 / v ** 2)])
def test_sqrt_rsqrt_reciprocal_gradients_are_tf_ops(fn, op_type, fprime):
    x = np.array([[0.5, 1.5], [2.0, 3.0]])
    t = tf.constant(x)
    (g,) = tf.gradients(fn(t), t)
    assert g.op.type == op_type
    check_gradient(fn, x)
    check_gradient(lambda v: tf.gradients(fn(v), v)[0], x)  # the second derivative
    z = np.array([1 + 1j, 2 - 0.5j])
    c = tf.constant(z)
    (gz,) = tf.gradients(fn(c), c, grad_ys=tf.constant(np.ones(2, np.complex128)))
    np.testing.assert_allclose(_run(gz), np.conj(fprime(z)))


def test_second_derivative_of_sqrt_rsqrt_reciprocal_match_tf():
    x = tf.constant([0.0, 1.0, 0.0, 4.0])
    out = []
    for fn, shift in ((tf.sqrt, 0.0), (tf.rsqrt, 1.0), (tf.reciprocal, 1.0)):
        (g,) = tf.gradients(fn(x + shift), x)
        out.append(tf.gradients(g, x)[0])
    v = _run(out)
    np.testing.assert_allclose(v[0], [-inf, -0.25, -inf, -0.03125])
    np.testing.assert_allclose(v[1], [0.75, 0.1325825, 0.75, 0.01341641], rtol=1e-6)
    np.testing.assert_allclose(v[2], [2.0, 0.25, 2.0, 0.016], rtol=1e-6)


@pytest.mark.parametrize("dt,out_dt", [(tf.int8, tf.float32), (tf.uint8, tf.float32), (tf.int16, tf.float32),
                                       (tf.uint16, tf.float32), (tf.int32, tf.float64), (tf.int64, tf.float64)])
def test_div_no_nan_of_integers_divides_in_floating_point(dt, out_dt):
    with tf.Graph().as_default() as g:
        r = tf.div_no_nan(tf.constant([1, 2, 3], dt), tf.constant([2, 0, 4], dt))
        assert r.dtype == out_dt and r.op.name == "div_no_nan" and r.op.type == "DivNoNan"
        assert [op.name for op in g.get_operations()][-3:] == ["div_no_nan/Cast", "div_no_nan/Cast_1", "div_no_nan"]
        np.testing.assert_array_equal(_run(r), [0.5, 0.0, 0.75])
    assert tf.math.divide_no_nan(tf.constant(4, dt), 2).dtype == out_dt


def test_div_no_nan_errors():
    with pytest.raises(TypeError, match="Invalid dtype tf.bool in tf.math.divide_no_nan. Expected one of"):
        tf.div_no_nan(tf.constant([True]), tf.constant([True]))
    with pytest.raises(TypeError, match="`x` and `y` must have the same dtype, got tf.int32 != tf.float32."):
        tf.div_no_nan(tf.constant([1]), tf.constant([1.0]))


def test_reduce_variance_of_integers_is_a_type_error():
    for dt in (tf.int32, tf.uint8, tf.int64):
        with pytest.raises(TypeError, match="Input must be either real or complex. Received integer type "
                                            "<dtype: '%s'>." % dt.name):
            tf.math.reduce_variance(tf.constant([1, 2], dt))
        with pytest.raises(TypeError, match="Received integer type"):
            tf.math.reduce_std(tf.constant([1, 2], dt))
    with pytest.raises(TypeError, match="DataType bool not in list of allowed values"):
        tf.math.reduce_variance(tf.constant([True]))


def test_reduce_variance_of_complex_is_real():
    z = np.array([1 + 1j, 2 - 1j], np.complex64)
    v = tf.math.reduce_variance(tf.constant(z))
    s = tf.math.reduce_std(tf.constant(z))
    assert v.dtype == tf.float32 and s.dtype == tf.float32
    np.testing.assert_allclose(_run([v, s]), [1.25, np.sqrt(1.25)], rtol=1e-6)
    with tf.Graph().as_default() as g:
        v = tf.math.reduce_variance(tf.constant([1.0, 2.0]), name="vv")
        assert v.op.name == "vv/Mean_1" and all(op.name.startswith("vv/") for op in g.get_operations()[1:])
        np.testing.assert_allclose(_run(v), 0.25)


TENSORDOT_UNKNOWN = [(None, None), (None, [4, 5]), ([2, 3, 4], None), ([None, None, None], None)]


@pytest.mark.parametrize("sa,sb", TENSORDOT_UNKNOWN)
@pytest.mark.parametrize("axes", [1, [[2], [0]], [2, 0], ([-1], [0]), [[1, 2], [1, 0]]])
def test_tensordot_of_unknown_rank(sa, sb, axes):
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 10
    b = np.arange(20, dtype=np.float64).reshape(4, 5) / 10
    if axes == [[1, 2], [1, 0]]:
        b = np.arange(60, dtype=np.float64).reshape(4, 3, 5) / 10
        sb = None if sb is None else [4, 3, 5]
    np_axes = {1: 1, "[[2], [0]]": ([2], [0]), "[2, 0]": ([2], [0]), "([-1], [0])": ([2], [0]),
               "[[1, 2], [1, 0]]": ([1, 2], [1, 0])}[str(axes) if axes != 1 else 1]
    x, y = tf.placeholder(tf.float64, sa), tf.placeholder(tf.float64, sb)
    out = tf.tensordot(x, y, axes)
    assert out.shape.ndims is None and out.op.name == "Tensordot"
    np.testing.assert_allclose(_run(out, {x: a, y: b}), np.tensordot(a, b, np_axes), rtol=1e-12)
    gx, gy = tf.gradients(out, [x, y])
    ones = np.ones(np.tensordot(a, b, np_axes).shape)
    vx, vy = _run([gx, gy], {x: a, y: b})
    t1, t2 = tf.constant(a), tf.constant(b)
    rx, ry = _run(tf.gradients(tf.tensordot(t1, t2, np_axes), [t1, t2], grad_ys=tf.constant(ones)))
    np.testing.assert_allclose(vx, rx, rtol=1e-12)
    np.testing.assert_allclose(vy, ry, rtol=1e-12)


def test_tensordot_of_unknown_rank_zero_axes_and_integers():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.arange(4, dtype=np.int32)
    x, y = tf.placeholder(tf.int32), tf.placeholder(tf.int32)
    np.testing.assert_array_equal(_run(tf.tensordot(x, y, 0), {x: a, y: b}), np.tensordot(a, b, 0))
    np.testing.assert_array_equal(_run(tf.tensordot(x, x, [[0, 1], [0, 1]]), {x: a}), np.tensordot(a, a, 2))


def test_tensordot_of_unknown_rank_errors():
    x, y = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
    a, b = np.ones((2, 3)), np.ones((4, 5))
    msg = _run_error(tf.tensordot(x, y, [[1], [0]]), {x: a, y: b})
    assert msg.startswith("Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5]")
    with pytest.raises(ValueError, match="'axes' must be at least 0."):
        tf.tensordot(x, y, -1)
    with pytest.raises(ValueError, match="Different number of contraction axes 'a' and 'b', 1 != 2."):
        tf.tensordot(x, y, [[1], [0, 1]])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(tf.tensordot(x, y, 3), {x: np.ones((2, 3, 4)), y: np.ones((4, 5))})
        with pytest.raises(tf.errors.InvalidArgumentError):  # an axis out of range: no wrap-around
            sess.run(tf.tensordot(x, y, [[5], [0]]), {x: np.ones((2, 3, 4)), y: np.ones((4, 5))})


@pytest.mark.parametrize("shape", [None, [None, None], [3, None]])
def test_einsum_diagonal_gradient_with_unknown_dims(shape):
    x = tf.placeholder(tf.float32, shape)
    y = tf.einsum("ii->i", x)
    (g,) = tf.gradients(y * tf.constant([1.0, 2.0, 3.0]), x)
    np.testing.assert_array_equal(_run(g, {x: np.arange(9, dtype=np.float32).reshape(3, 3)}), np.diag([1, 2, 3]))


@pytest.mark.parametrize("eq,shape,expected", [
    ("bii->bi", (2, 2, 2), [[[1, 0], [0, 1]], [[1, 0], [0, 1]]]),
    ("...ii->...i", (2, 2, 2), [[[1, 0], [0, 1]], [[1, 0], [0, 1]]]),
    ("ii...->i...", (2, 2, 1), [[[1], [0]], [[0], [1]]]),
    ("ii", (3, 3), np.eye(3)),
    ("iij->j", (2, 2, 3), [[[1, 1, 1], [0, 0, 0]], [[0, 0, 0], [1, 1, 1]]]),
])
def test_einsum_repeated_subscript_gradients_of_unknown_rank(eq, shape, expected):
    x = tf.placeholder(tf.float32, None)
    (g,) = tf.gradients(tf.einsum(eq, x), x)
    np.testing.assert_array_equal(_run(g, {x: np.ones(shape, np.float32)}), expected)


# ---- run-time shape errors name the op with TF's text (item 13) ------------------------------------
def _feed2(fn, sa, sb, dt=tf.float32, shapes=(None, None)):
    x, y = tf.placeholder(dt, shapes[0]), tf.placeholder(dt, shapes[1])
    out = fn(x, y)
    return out, {x: np.ones(sa, dt.as_numpy_dtype), y: np.ones(sb, dt.as_numpy_dtype)}


MATMUL_ERRORS = [  # (op type, fn, fed shapes, static shapes, TF's message)
    ("MatMul", tf.matmul, (2, 3), (4, 5), [None, None], [None, None],
     "Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5]"),
    ("MatMul", lambda a, b: tf.matmul(a, b, transpose_a=True), (2, 3), (4, 5), [None, None], [None, None],
     "Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5]"),
    ("MatMul", lambda a, b: tf.matmul(a, b, transpose_b=True), (2, 3), (4, 5), [None, None], [None, 5],
     "Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5]"),
    ("MatMul", lambda a, b: a @ b, (2, 3), (4, 5), [2, None], [None, 5],
     "Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5]"),
    ("BatchMatMulV2", tf.matmul, (2, 3), (4, 5), None, None,
     "Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5] 0 0"),
    ("BatchMatMulV2", tf.matmul, (7, 2, 3), (7, 4, 5), None, None,
     "Matrix size-incompatible: In[0]: [7,2,3], In[1]: [7,4,5] 0 0"),
    ("BatchMatMulV2", lambda a, b: tf.matmul(a, b, adjoint_a=True), (7, 2, 3), (7, 4, 5), None, None,
     "Matrix size-incompatible: In[0]: [7,2,3], In[1]: [7,4,5] 1 0"),
    ("BatchMatMulV2", lambda a, b: tf.matmul(a, b, transpose_b=True), (7, 2, 3), (7, 4, 5), [None, None, None],
     [7, None, None], "Matrix size-incompatible: In[0]: [7,2,3], In[1]: [7,4,5] 0 1"),
    ("BatchMatMulV2", tf.matmul, (7, 2, 3), (6, 3, 5), [None, 2, 3], [None, 3, 5],
     "In[0] and In[1] must have compatible batch dimensions: [7,2,3] vs. [6,3,5]"),
    ("BatchMatMulV2", tf.matmul, (2, 7, 2, 3), (3, 1, 3, 5), None, None,
     "In[0] and In[1] must have compatible batch dimensions: [2,7,2,3] vs. [3,1,3,5]"),
]


@pytest.mark.parametrize("op_type,fn,sa,sb,static_a,static_b,expected", MATMUL_ERRORS)
def test_matmul_shape_mismatch_at_run_time_is_tf_error(op_type, fn, sa, sb, static_a, static_b, expected):
    out, feed = _feed2(fn, sa, sb, shapes=(static_a, static_b))
    assert out.op.type == op_type
    with tf.Session(graph=out.graph) as sess:
        for _ in range(3):  # the same feed shapes again: the plan specialized on them reports it too
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(out, feed)
            msg = e.value.message
            assert msg.startswith(expected), msg
            assert "[[node '%s' (op: %s, defined at %s:" % (out.op.name, op_type, __file__) in msg
            assert "gufunc" not in msg and "ValueError" not in msg


def test_matmul_shape_mismatch_in_eager_mode():
    with context.eager_mode():
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:MatMul\]"):
            tf.matmul(tf.ones([2, 3]), tf.ones([4, 5]))


BROADCAST_FNS = [tf.add, lambda a, b: a + b, tf.subtract, tf.multiply, lambda a, b: a * b, tf.realdiv, tf.truediv,
                 tf.floordiv, tf.floormod, tf.pow, tf.maximum, tf.minimum, tf.squared_difference, tf.atan2,
                 tf.div_no_nan, tf.equal, tf.not_equal, tf.less, lambda a, b: a < b, tf.greater_equal]


@pytest.mark.parametrize("fn", BROADCAST_FNS)
def test_broadcast_mismatch_at_run_time_is_tf_error(fn):
    out, feed = _feed2(fn, (2, 3), (4,))
    msg = _run_error(out, feed)
    assert msg.startswith("Incompatible shapes: [2,3] vs. [4]\n"), msg
    assert "[[node '%s' (op: %s, defined at %s:" % (out.op.name, out.op.type, __file__) in msg
    out, feed = _feed2(fn, (2, 3, 5), (4, 1))
    assert _run_error(out, feed).startswith("Incompatible shapes: [2,3,5] vs. [4,1]\n")
    out, feed = _feed2(fn, (), (2,), shapes=([], None))
    assert _run(out, feed).shape == (2,)


def test_broadcast_mismatch_of_int_and_bool_ops():
    for fn, dt in ((tf.floordiv, tf.int32), (tf.logical_and, tf.bool), (tf.logical_xor, tf.bool)):
        out, feed = _feed2(fn, (2, 3), (4,), dt)
        assert _run_error(out, feed).startswith("Incompatible shapes: [2,3] vs. [4]")
    with context.eager_mode():
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:AddV2\]"):
            tf.ones([2, 3]) + tf.ones([4])


EINSUM_ERRORS = [
    ("ij,jk->ik", (2, 3), (4, 5), "Expected dimension 3 at axis 0 of the input shaped [4,5] but got dimension 4"),
    ("ij,jk->ik", (2, 3, 1), (3, 5), "Expected input 0 to have rank 2 but got: 3"),
    ("ij,kj->ik", (2, 3), (4, 5), "Expected dimension 3 at axis 1 of the input shaped [4,5] but got dimension 5"),
    ("ii->i", (2, 3), None, "Expected dimension 2 at axis 1 of the input shaped [2,3] but got dimension 3"),
]


@pytest.mark.parametrize("eq,sa,sb,expected", EINSUM_ERRORS)
def test_einsum_shape_mismatch_at_run_time_is_tf_error(eq, sa, sb, expected):
    if sb is None:
        x = tf.placeholder(tf.float32)
        out, feed = tf.einsum(eq, x), {x: np.ones(sa, np.float32)}
    else:
        out, feed = _feed2(lambda a, b: tf.einsum(eq, a, b), sa, sb)
    msg = _run_error(out, feed)
    assert msg.startswith(expected), msg
    assert "(op: Einsum, defined at" in msg


AXIS_ERRORS = [
    (tf.reduce_sum, (2, 3), 5, "Invalid reduction dimension (5 for input with 2 dimension(s)"),
    (tf.reduce_mean, (2, 3), -3, "Invalid reduction dimension (-3 for input with 2 dimension(s)"),
    (tf.reduce_max, (2, 3), 5, "Invalid reduction dimension (5 for input with 2 dimension(s)"),
    (tf.reduce_prod, (), 0, "Invalid reduction dimension (0 for input with 0 dimension(s)"),
    (tf.reduce_sum, (2, 3), [0, 0], "Invalid reduction arguments: Axes contains duplicate dimension: 0"),
    (tf.reduce_min, (2, 3), [0, -2], "Invalid reduction arguments: Axes contains duplicate dimension: 0"),
    (tf.reduce_logsumexp, (2, 3), 5, "Invalid reduction dimension (5 for input with 2 dimension(s)"),
    (tf.argmax, (2, 3), 5, "Expected dimension in the range [-2, 2), but got 5"),
    (tf.argmin, (2, 3), -3, "Expected dimension in the range [-2, 2), but got -3"),
    (tf.argmax, (), 0, "Expected dimension in the range [0, 0), but got 0"),
    (tf.argmax, (2, 3), [0, 1], "dim must be a scalar, but received tensor of shape: [2]"),
    (tf.argmax, (2, 0), 1, "Reduction axis 1 is empty in shape [2,0]"),
    (tf.argmin, (0, 2), 0, "Reduction axis 0 is empty in shape [0,2]"),
    (tf.cumsum, (2, 3), 5, "ScanOp: Expected scan axis in the range [-2, 2), but got 5"),
    (tf.cumprod, (2, 3), -3, "ScanOp: Expected scan axis in the range [-2, 2), but got -3"),
    (tf.cumsum, (), 0, "ScanOp: Expected scan axis in the range [0, 0), but got 0"),
    (tf.cumsum, (2, 3), [1], "ScanOp: axis must be a scalar, not [1]"),
]


@pytest.mark.parametrize("fn,shape,axis,expected", AXIS_ERRORS)
def test_axis_errors_at_run_time_are_tf_errors(fn, shape, axis, expected):
    x = tf.placeholder(tf.float32, None)
    a = tf.placeholder(tf.int32, None)
    out = fn(x, a)
    msg = _run_error(out, {x: np.ones(shape, np.float32), a: axis})
    assert msg.startswith(expected), msg
    assert "AxisError" not in msg and "ValueError" not in msg and "TypeError" not in msg


def test_reductions_take_axes_of_any_shape_as_tf():
    x = tf.placeholder(tf.float32, None)
    a = tf.placeholder(tf.int32, None)
    np.testing.assert_array_equal(_run(tf.reduce_sum(x, a), {x: np.ones((2, 3)), a: [[0]]}), [2, 2, 2])
    np.testing.assert_array_equal(_run(tf.cumsum(x, a), {x: np.ones((2, 3)), a: -1}), [[1, 2, 3]] * 2)


def test_cast_to_string_names_tf_types():
    x = tf.placeholder(tf.float32, [2])
    assert _run_error(tf.cast(x, tf.string), {x: [1, 2]}, tf.errors.UnimplementedError).startswith(
        "Cast float to string is not supported")
