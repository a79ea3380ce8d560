"""Math ops: forward values vs NumPy, static shapes/dtypes, gradients, errors, and Tensor operators."""

import math

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.op_harness import check_forward, check_gradient

rng = np.random.RandomState(0)


def _r(*shape, dtype=np.float64, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def _run(t, feed=None):
    with tf.Session(graph=(t[0] if isinstance(t, (list, tuple)) else t).graph) as sess:
        return sess.run(t, feed)


# ---- element-wise binary ops -----------------------------------------------------------------
def _np_floormod(x, y):
    t = np.fmod(x, y)
    return np.where((t != 0) & ((y < 0) != (t < 0)), t + y, t)


BINARY = [
    ("add", tf.add, np.add, {}),
    ("subtract", tf.subtract, np.subtract, {}),
    ("multiply", tf.multiply, np.multiply, {}),
    ("divide", tf.divide, np.divide, {"y_lo": 0.5}),
    ("truediv", tf.truediv, np.divide, {"y_lo": 0.5}),
    ("realdiv", tf.realdiv, np.divide, {"y_lo": 0.5}),
    ("div", tf.div, np.divide, {"y_lo": 0.5}),
    ("floordiv", tf.floordiv, lambda x, y: np.floor(x / y), {"y_lo": 0.5}),
    ("floormod", tf.floormod, _np_floormod, {"y_lo": 0.5}),
    ("truncatediv", tf.truncatediv, lambda x, y: np.trunc(x / y), {"y_lo": 0.5}),
    ("truncatemod", tf.truncatemod, np.fmod, {"y_lo": 0.5}),
    ("pow", tf.pow, np.power, {"x_lo": 0.5}),
    ("maximum", tf.maximum, np.maximum, {}),
    ("minimum", tf.minimum, np.minimum, {}),
    ("squared_difference", tf.squared_difference, lambda x, y: (x - y) ** 2, {}),
    ("atan2", tf.atan2, np.arctan2, {}),
    ("div_no_nan", tf.div_no_nan, lambda x, y: x / y, {"y_lo": 0.5}),
]

SHAPE_PAIRS = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 2)), ((3, 1, 2), (4, 1))]


def _operands(shape_x, shape_y, dtype, opts):
    x = _r(*shape_x, dtype=dtype, lo=opts.get("x_lo", -2.0))
    y = _r(*shape_y, dtype=dtype, lo=opts.get("y_lo", -2.0))
    return x, y


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shapes", SHAPE_PAIRS)
@pytest.mark.parametrize("name,fn,np_fn,opts", BINARY, ids=[r[0] for r in BINARY])
def test_binary_forward(name, fn, np_fn, opts, shapes, dtype):
    x, y = _operands(shapes[0], shapes[1], dtype, opts)
    check_forward(fn, lambda a, b: np_fn(a, b).astype(dtype), x, y, rtol=1e-5, atol=1e-6)


GRAD_BINARY = [r for r in BINARY if r[0] not in ("floordiv", "truncatediv", "truncatemod")]


@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3))])
@pytest.mark.parametrize("name,fn,np_fn,opts", GRAD_BINARY, ids=[r[0] for r in GRAD_BINARY])
def test_binary_gradient(name, fn, np_fn, opts, shapes):
    x, y = _operands(shapes[0], shapes[1], np.float64, opts)
    if name in ("maximum", "minimum"):
        y = x[..., :y.shape[-1]] + np.where(rng.rand(*y.shape) > 0.5, 0.5, -0.5) if y.shape == x.shape else y
    if name == "floormod":
        y = np.abs(y) + 3.0  # away from the jumps of floor(x / y)
    check_gradient(fn, x, y)


def test_floordiv_floormod_from_tf_docs():
    x = tf.constant([[1.5, -2], [3, 4.5]])
    y = tf.constant([[2, .5], [-1.5, 2]])
    fd, fm = _run([x // y, x % y])
    np.testing.assert_array_equal(fd, [[0, -4], [-2, 2]])
    np.testing.assert_array_equal(fm, [[1.5, -0.0], [0, 0.5]])
    assert np.signbit(fm[0, 1]) and not np.signbit(fm[1, 0])


INT_BINARY = [
    (tf.floordiv, lambda x, y: x // y),
    (tf.floormod, lambda x, y: x % y),
    (tf.mod, lambda x, y: x % y),
    (tf.div, lambda x, y: x // y),
    (tf.truncatediv, lambda x, y: np.trunc(x / y).astype(x.dtype)),
    (tf.truncatemod, np.fmod),
    (tf.add, np.add), (tf.subtract, np.subtract), (tf.multiply, np.multiply),
    (tf.maximum, np.maximum), (tf.minimum, np.minimum),
    (tf.squared_difference, lambda x, y: (x - y) ** 2),
]


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("fn,np_fn", INT_BINARY)
def test_binary_int(fn, np_fn, dtype):
    x = np.array([[7, -7, 5], [-5, 0, 9]], dtype=dtype)
    y = np.array([2, 3, -4], dtype=dtype)
    check_forward(fn, np_fn, x, y)


def test_int_pow():
    check_forward(tf.pow, np.power, np.array([2, -3, 4], np.int32), np.array([3, 2, 0], np.int32))


@pytest.mark.parametrize("fn", [tf.floordiv, tf.floormod, tf.truncatediv])
def test_integer_division_by_zero(fn):
    z = fn(tf.constant([1, 2]), tf.constant([1, 0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        _run(z)


@pytest.mark.parametrize("in_dt,out_dt", [(tf.int8, tf.float32), (tf.uint8, tf.float32), (tf.int16, tf.float32),
                                          (tf.int32, tf.float64), (tf.int64, tf.float64),
                                          (tf.float32, tf.float32), (tf.float64, tf.float64)])
def test_truediv_casts_integers(in_dt, out_dt):
    z = tf.truediv(tf.constant([7, 9], in_dt), tf.constant([2, 2], in_dt))
    assert z.dtype == out_dt and z.op.type == "RealDiv"
    np.testing.assert_allclose(_run(z), [3.5, 4.5])
    z2 = tf.constant([7, 9], in_dt) / tf.constant([2, 2], in_dt)
    assert z2.dtype == out_dt


def test_div_python2_semantics():
    i = tf.div(tf.constant([7, -7]), tf.constant([2, 2]))
    f = tf.div(tf.constant([7., -7.]), tf.constant([2., 2.]))
    assert i.op.type == "FloorDiv" and f.op.type == "RealDiv" and i.op.name == "div"
    a, b = _run([i, f])
    np.testing.assert_array_equal(a, [3, -4])
    np.testing.assert_array_equal(b, [3.5, -3.5])


def test_div_no_nan_zero_divisor():
    z = tf.div_no_nan(tf.constant([1.0, 2.0, 0.0]), tf.constant([0.0, 4.0, 0.0]))
    np.testing.assert_array_equal(_run(z), [0.0, 0.5, 0.0])


def test_maximum_minimum_gradient_ties():
    x = tf.constant([1.0, 2.0, 3.0])
    y = tf.constant([1.0, 1.0, 4.0])
    gmax = tf.gradients(tf.maximum(x, y), [x, y])
    gmin = tf.gradients(tf.minimum(x, y), [x, y])
    a, b, c, d = _run(gmax + gmin)
    np.testing.assert_array_equal(a, [1, 1, 0])
    np.testing.assert_array_equal(b, [0, 0, 1])
    np.testing.assert_array_equal(c, [1, 0, 1])
    np.testing.assert_array_equal(d, [0, 1, 0])


def test_maximum_gradient_selects_rather_than_masks():
    x, y = tf.constant([2.0, 0.0]), tf.constant([1.0, 1.0])
    gx, gy = _run(tf.gradients(tf.maximum(x, y), [x, y], grad_ys=tf.constant([np.inf, 1.0])))
    np.testing.assert_array_equal(gx, [np.inf, 0.0])
    np.testing.assert_array_equal(gy, [0.0, 1.0])


def test_pow_gradient_at_zero_base_is_finite():
    x = tf.constant([0.0, 2.0])
    y = tf.constant([2.0, 3.0])
    gx, gy = _run(tf.gradients(tf.pow(x, y), [x, y]))
    np.testing.assert_allclose(gx, [0.0, 12.0])
    np.testing.assert_allclose(gy, [0.0, 8 * math.log(2)], rtol=1e-6)


def test_add_strings():
    z = tf.add(tf.constant(["a", "bc"]), tf.constant("x"))
    w = tf.constant("p") + tf.constant("q")
    assert z.dtype == tf.string and w.op.type == "Add"
    a, b = _run([z, w])
    assert list(a) == [b"ax", b"bcx"] and b == b"pq"


def test_binary_static_shapes():
    a = tf.placeholder(tf.float32, [None, 3])
    assert (a + tf.placeholder(tf.float32, [4, 1])).shape.as_list() == [4, 3]
    assert (a + tf.placeholder(tf.float32, [None, 1])).shape.as_list() == [None, 3]
    assert (a + tf.placeholder(tf.float32, [5, None, 1])).shape.as_list() == [5, None, 3]
    assert (a * tf.placeholder(tf.float32)).shape.ndims is None
    assert tf.multiply(a, 2.0).shape.as_list() == [None, 3]


def test_binary_errors():
    a = tf.placeholder(tf.float32, [2, 3])
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.add(a, tf.placeholder(tf.float32, [2, 4]))
    with pytest.raises(TypeError, match="Input 'y' of 'Add' Op has type int32 that does not match type float32"):
        tf.add(a, tf.constant(1))
    with pytest.raises(TypeError, match="has type float32 that does not match type int32"):
        tf.add(tf.constant(1), 1.5)
    with pytest.raises(TypeError, match="x and y must have the same dtype"):
        tf.truediv(tf.constant(1), tf.constant(1.0))
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.multiply(tf.constant(True), tf.constant(False))
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.maximum(tf.constant(1 + 1j), tf.constant(2j))


def test_binary_names():
    x = tf.placeholder(tf.float32, [2])
    assert tf.add(x, 1.0).op.name == "Add" and tf.add(x, 1.0).op.type == "Add"
    assert tf.multiply(x, 2.0, name="m").op.name == "m"
    assert tf.subtract(x, x).op.type == "Sub"
    assert tf.divide(x, x).op.name == "truediv"
    assert tf.floordiv(x, x).op.name == "floordiv"
    assert tf.mod(x, x).op.type == "FloorMod"
    assert tf.pow(x, 2.0).op.name == "Pow"
    c = tf.add(x, 1.0, name="a1")
    assert c.op.inputs[1].op.name == "a1/y"


def test_scalar_mul():
    x = tf.constant([1.0, 2.0])
    np.testing.assert_array_equal(_run(tf.scalar_mul(3, x)), [3.0, 6.0])
    s = tf.scalar_mul(2.0, tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1])))
    assert isinstance(s, tf.IndexedSlices)
    np.testing.assert_array_equal(_run(s.values), [[2.0, 4.0]])
    with pytest.raises(ValueError, match="Only scalar multiply works"):
        tf.scalar_mul([1.0, 2.0], x)


# ---- unary ops -------------------------------------------------------------------------------
def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


UNARY = [
    # (name, tf fn, numpy fn, input domain (lo, hi), differentiable)
    ("negative", tf.negative, np.negative, (-2, 2), True),
    ("abs", tf.abs, np.abs, (-2, 2), True),
    ("sign", tf.sign, np.sign, (-2, 2), True),
    ("square", tf.square, np.square, (-2, 2), True),
    ("sqrt", tf.sqrt, np.sqrt, (0.5, 2), True),
    ("rsqrt", tf.rsqrt, lambda x: 1 / np.sqrt(x), (0.5, 2), True),
    ("reciprocal", tf.reciprocal, lambda x: 1 / x, (0.5, 2), True),
    ("exp", tf.exp, np.exp, (-2, 2), True),
    ("log", tf.log, np.log, (0.5, 2), True),
    ("log1p", tf.log1p, np.log1p, (-0.5, 2), True),
    ("expm1", tf.expm1, np.expm1, (-2, 2), True),
    ("sin", tf.sin, np.sin, (-2, 2), True),
    ("cos", tf.cos, np.cos, (-2, 2), True),
    ("tan", tf.tan, np.tan, (-1, 1), True),
    ("asin", tf.asin, np.arcsin, (-0.8, 0.8), True),
    ("acos", tf.acos, np.arccos, (-0.8, 0.8), True),
    ("atan", tf.atan, np.arctan, (-2, 2), True),
    ("sinh", tf.sinh, np.sinh, (-2, 2), True),
    ("cosh", tf.cosh, np.cosh, (-2, 2), True),
    ("asinh", tf.asinh, np.arcsinh, (-2, 2), True),
    ("acosh", tf.acosh, np.arccosh, (1.5, 3), True),
    ("atanh", tf.atanh, np.arctanh, (-0.8, 0.8), True),
    ("tanh", tf.tanh, np.tanh, (-2, 2), True),
    ("sigmoid", tf.sigmoid, _sigmoid, (-4, 4), True),
    ("erf", tf.erf, np.vectorize(math.erf), (-2, 2), True),
    ("erfc", tf.erfc, np.vectorize(math.erfc), (-2, 2), True),
    ("floor", tf.floor, np.floor, (-3, 3), False),
    ("ceil", tf.ceil, np.ceil, (-3, 3), False),
    ("round", tf.round, np.round, (-3, 3), False),
    ("rint", tf.rint, np.rint, (-3, 3), False),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,fn,np_fn,dom,diff", UNARY, ids=[r[0] for r in UNARY])
def test_unary_forward(name, fn, np_fn, dom, diff, dtype):
    x = _r(2, 3, dtype=dtype, lo=dom[0], hi=dom[1])
    check_forward(fn, lambda a: np_fn(a).astype(dtype), x, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,fn,np_fn,dom,diff", [r for r in UNARY if r[4]], ids=[r[0] for r in UNARY if r[4]])
def test_unary_gradient(name, fn, np_fn, dom, diff):
    x = _r(2, 3, lo=dom[0], hi=dom[1])
    if name in ("abs", "sign"):
        x = np.where(np.abs(x) < 0.1, 0.5, x)
    check_gradient(fn, x)


@pytest.mark.parametrize("fn", [tf.floor, tf.ceil, tf.round, tf.rint])
def test_piecewise_constant_has_no_gradient(fn):
    x = tf.placeholder(tf.float32, [3])
    assert tf.gradients(fn(x), x) == [None]


def test_sign_gradient_is_zero():
    x = tf.constant([-1.0, 0.0, 2.0])
    np.testing.assert_array_equal(_run(tf.gradients(tf.sign(x), x)[0]), [0, 0, 0])


def test_round_is_bankers():
    np.testing.assert_array_equal(_run(tf.round(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, 2.4]))),
                                  [0, 2, 2, -0, -2, 2])
    i = tf.constant([1, 2])
    assert tf.round(i) is i


def test_sigmoid_extremes_and_float16():
    x = tf.constant([-1000.0, 0.0, 1000.0])
    np.testing.assert_array_equal(_run(tf.sigmoid(x)), [0.0, 0.5, 1.0])
    h = tf.sigmoid(tf.constant([0.0, 2.0], tf.float16))
    v = _run(h)
    assert h.dtype == tf.float16 and v.dtype == np.float16
    np.testing.assert_allclose(v, _sigmoid(np.array([0.0, 2.0])), rtol=1e-3)


@pytest.mark.parametrize("fn,np_fn", [(tf.abs, np.abs), (tf.negative, np.negative), (tf.sign, np.sign),
                                      (tf.square, np.square)])
def test_unary_int(fn, np_fn):
    check_forward(fn, np_fn, np.array([[-3, 0, 4]], np.int32))


def test_unary_complex():
    z = np.array([1 + 2j, -0.5 + 0.25j], np.complex128)
    check_forward(tf.exp, np.exp, z)
    check_forward(tf.square, np.square, z)
    check_forward(tf.conj, np.conj, z)
    check_forward(tf.abs, np.abs, z)
    assert tf.abs(tf.constant(z)).dtype == tf.float64


def test_is_nan_inf_finite_and_logical_not():
    x = np.array([1.0, np.nan, np.inf, -np.inf], np.float32)
    check_forward(tf.is_nan, np.isnan, x)
    check_forward(tf.is_inf, np.isinf, x)
    check_forward(tf.is_finite, np.isfinite, x)
    check_forward(tf.logical_not, np.logical_not, np.array([True, False]))


def test_unary_silent_on_domain_errors():
    v = _run(tf.log(tf.constant([0.0, -1.0])))
    assert v[0] == -np.inf and np.isnan(v[1])


def test_unary_errors_and_names():
    with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType int32 not in list"):
        tf.sqrt(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.logical_not(tf.constant([1.0]))
    with pytest.raises(TypeError, match="Expected numeric"):
        tf.conj(tf.constant([True]))
    x = tf.placeholder(tf.float32, [None, 2])
    assert tf.exp(x).op.name == "Exp" and tf.exp(x).op.name == "Exp_1"
    assert tf.tanh(x, name="t").op.name == "t" and tf.sigmoid(x).op.type == "Sigmoid"
    assert tf.exp(x).shape.as_list() == [None, 2]
    assert tf.conj(x) is x


# ---- comparisons and logical ops ---------------------------------------------------------------
COMPARE = [(tf.equal, np.equal), (tf.not_equal, np.not_equal), (tf.less, np.less),
           (tf.less_equal, np.less_equal), (tf.greater, np.greater), (tf.greater_equal, np.greater_equal)]


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@pytest.mark.parametrize("fn,np_fn", COMPARE)
def test_comparisons(fn, np_fn, dtype):
    x = np.array([[1, 2, 3], [3, 2, 1]], dtype)
    y = np.array([2, 2, 2], dtype)
    check_forward(fn, np_fn, x, y)
    assert fn(tf.constant(x), tf.constant(y)).dtype == tf.bool


def test_comparisons_not_differentiable():
    x = tf.placeholder(tf.float32, [2])
    assert tf.gradients(tf.cast(tf.less(x, 1.0), tf.float32), x) == [None]


def test_equal_strings_and_bools():
    s = tf.equal(tf.constant(["a", "b"]), tf.constant("a"))
    b = tf.not_equal(tf.constant([True, False]), tf.constant(True))
    np.testing.assert_array_equal(_run(s), [True, False])
    np.testing.assert_array_equal(_run(b), [False, True])


LOGICAL = [(tf.logical_and, np.logical_and), (tf.logical_or, np.logical_or), (tf.logical_xor, np.logical_xor)]


@pytest.mark.parametrize("fn,np_fn", LOGICAL)
def test_logical(fn, np_fn):
    check_forward(fn, np_fn, np.array([[True, False], [True, True]]), np.array([True, False]))


def test_logical_requires_bool():
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values: bool"):
        tf.logical_and(tf.constant([1]), tf.constant([0]))


# ---- cast --------------------------------------------------------------------------------------
@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.float64, np.float32), (np.int32, np.float64),
                                     (np.float32, np.bool_), (np.bool_, np.float32), (np.int64, np.uint8)])
def test_cast_forward(src, dst):
    x = np.array([[-1.7, 0.0, 2.5]]).astype(src)
    check_forward(lambda t: tf.cast(t, dst), lambda a: a.astype(dst), x)


def test_cast_helpers_and_identity():
    x = tf.constant([1.9, -1.9])
    assert tf.cast(x, tf.float32) is x
    assert tf.to_float(x) is x
    i = tf.to_int32(x)
    assert i.dtype == tf.int32 and i.op.name == "ToInt32" and i.op.type == "Cast"
    assert tf.to_int64(x).dtype == tf.int64 and tf.to_double(i).dtype == tf.float64
    np.testing.assert_array_equal(_run(i), [1, -1])
    c = tf.cast([1, 2], tf.float32)
    assert c.dtype == tf.float32
    np.testing.assert_array_equal(_run(c), [1.0, 2.0])
    s = tf.cast(tf.IndexedSlices(tf.constant([[1, 2]]), tf.constant([0])), tf.float64)
    assert isinstance(s, tf.IndexedSlices) and s.values.dtype == tf.float64


def test_cast_complex_to_real_drops_imaginary():
    np.testing.assert_array_equal(_run(tf.cast(tf.constant([1.5 + 2j]), tf.float32)), [1.5])


def test_cast_gradient():
    x = tf.placeholder(tf.float64, [2])
    g = tf.gradients(tf.cast(x, tf.float32) * 3.0, x)[0]
    assert g.dtype == tf.float64
    np.testing.assert_array_equal(tf.Session().run(g, {x: [1.0, 2.0]}), [3.0, 3.0])
    check_gradient(lambda t: tf.abs(tf.cast(t, tf.complex128)), _r(3, lo=0.5))
    assert tf.gradients(tf.cast(tf.cast(x, tf.int32), tf.float64), x) == [None]


def test_saturate_cast():
    x = np.array([-300.0, -1.5, 100.0, 300.0, 1e10], np.float32)
    v = _run(tf.saturate_cast(tf.constant(x), tf.uint8))
    np.testing.assert_array_equal(v, [0, 0, 100, 255, 255])
    w = _run(tf.saturate_cast(tf.constant([-70000, 70000], tf.int32), tf.int16))
    np.testing.assert_array_equal(w, [-32768, 32767])


# ---- matmul / tensordot / einsum ----------------------------------------------------------------
MATMUL = [
    # (a shape, b shape, kwargs)
    ((2, 3), (3, 4), {}),
    ((3, 2), (3, 4), {"transpose_a": True}),
    ((2, 3), (4, 3), {"transpose_b": True}),
    ((3, 2), (4, 3), {"transpose_a": True, "transpose_b": True}),
    ((3, 2), (4, 3), {"adjoint_a": True, "adjoint_b": True}),
    ((5, 2, 3), (5, 3, 4), {}),
    ((5, 2, 3), (3, 4), {}),
    ((2, 3), (5, 3, 4), {}),
    ((2, 1, 2, 3), (5, 4, 3), {"transpose_b": True}),
    ((5, 3, 2), (5, 3, 4), {"adjoint_a": True}),
]


def _np_matmul(a, b, kw):
    if kw.get("transpose_a") or kw.get("adjoint_a"):
        a = np.swapaxes(a, -1, -2)
    if kw.get("transpose_b") or kw.get("adjoint_b"):
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("sa,sb,kw", MATMUL)
def test_matmul_forward(sa, sb, kw, dtype):
    a, b = _r(*sa, dtype=dtype), _r(*sb, dtype=dtype)
    check_forward(lambda x, y: tf.matmul(x, y, **kw), lambda x, y: _np_matmul(x, y, kw), a, b, rtol=1e-5)


@pytest.mark.parametrize("sa,sb,kw", MATMUL)
def test_matmul_gradient(sa, sb, kw):
    check_gradient(lambda x, y: tf.matmul(x, y, **kw), _r(*sa), _r(*sb))


def test_matmul_op_types_and_shapes():
    a = tf.placeholder(tf.float32, [None, 3])
    b = tf.placeholder(tf.float32, [3, 7])
    c = tf.matmul(a, b)
    assert c.op.type == "MatMul" and c.shape.as_list() == [None, 7]
    d = tf.matmul(tf.placeholder(tf.float32, [4, None, 2, 3]), tf.placeholder(tf.float32, [1, 3, 5]))
    assert d.op.type == "BatchMatMulV2" and d.shape.as_list() == [4, None, 2, 5]
    e = tf.matmul(tf.placeholder(tf.float32), b)
    assert e.op.type == "BatchMatMulV2" and e.shape.ndims is None
    assert (a @ b).op.name.startswith("matmul")
    np.testing.assert_array_equal(_run(np.eye(2, dtype=np.float32) @ tf.constant([[1.0, 2.0], [3.0, 4.0]])),
                                  [[1, 2], [3, 4]])


def test_matmul_int_and_complex():
    check_forward(tf.matmul, np.matmul, np.arange(6, dtype=np.int32).reshape(2, 3),
                  np.arange(6, dtype=np.int32).reshape(3, 2))
    a = np.array([[1 + 1j, 2], [0, 1j]])
    v = _run(tf.matmul(tf.constant(a), tf.constant(a), adjoint_a=True))
    np.testing.assert_allclose(v, a.conj().T @ a)
    x = tf.placeholder(tf.complex128)  # unknown rank: BatchMatMulV2, whose adjoints conjugate
    with tf.Session() as sess:
        v = sess.run(tf.matmul(x, x, adjoint_a=True, adjoint_b=True), {x: a})
    np.testing.assert_allclose(v, a.conj().T @ a.conj().T)


def test_matmul_errors():
    a = tf.placeholder(tf.float32, [2, 3])
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.matmul(a, tf.placeholder(tf.float32, [4, 5]))
    with pytest.raises(ValueError, match="Dimensions must be equal"):
        tf.matmul(tf.placeholder(tf.float32, [7, 2, 3]), tf.placeholder(tf.float32, [7, 2, 3]))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 7 and 6"):
        tf.matmul(tf.placeholder(tf.float32, [7, 2, 3]), tf.placeholder(tf.float32, [6, 3, 3]))
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        tf.matmul(tf.placeholder(tf.float32, [3]), a)
    with pytest.raises(ValueError, match="at least rank 2"):
        tf.matmul(tf.placeholder(tf.float32, [3]), tf.placeholder(tf.float32, [4, 3, 3]))
    with pytest.raises(ValueError, match="Only one of transpose_a and adjoint_a"):
        tf.matmul(a, a, transpose_a=True, adjoint_a=True)
    with pytest.raises(TypeError, match="Input 'b' of 'MatMul' Op has type float64 that does not match"):
        tf.matmul(a, tf.placeholder(tf.float64, [3, 2]))
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.matmul(tf.constant([[True]]), tf.constant([[True]]))


TENSORDOT = [((2, 3, 4), (4, 5), 1), ((2, 3, 4), (3, 4, 5), 2), ((2, 3), (4, 5), 0),
             ((2, 3, 4), (4, 3), [[1, 2], [1, 0]]), ((3, 4), (3,), [0, 0]), ((2, 3), (3, 2), [[-1], [-2]])]


@pytest.mark.parametrize("sa,sb,axes", TENSORDOT)
def test_tensordot(sa, sb, axes):
    a, b = _r(*sa), _r(*sb)
    np_axes = axes if isinstance(axes, int) else ([axes[0]] if isinstance(axes[0], int) else axes[0],
                                                   [axes[1]] if isinstance(axes[1], int) else axes[1])
    check_forward(lambda x, y: tf.tensordot(x, y, axes), lambda x, y: np.tensordot(x, y, np_axes), a, b)
    check_gradient(lambda x, y: tf.tensordot(x, y, axes), a, b)


def test_tensordot_errors():
    a = tf.placeholder(tf.float32, [2, 3])
    with pytest.raises(ValueError, match="'axes' must be at least 0"):
        tf.tensordot(a, a, -1)
    with pytest.raises(ValueError, match="must not be larger than the number of dimensions"):
        tf.tensordot(a, a, 3)
    with pytest.raises(ValueError, match="Different number of contraction axes"):
        tf.tensordot(a, a, [[0, 1], [0]])
    with pytest.raises(ValueError, match="Dimensions|Expected dimension"):
        tf.tensordot(a, a, 1)
    assert tf.tensordot(a, tf.placeholder(tf.float32, [3, None]), 1).shape.as_list() == [2, None]


EINSUM = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("i,j->ij", [(2,), (3,)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 4)]),
    ("ii->", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("ij,ij->i", [(2, 3), (2, 3)]),
    ("i,i,i->", [(3,), (3,), (3,)]),
    ("ab, bc -> ca", [(2, 3), (3, 2)]),
]


@pytest.mark.parametrize("eq,shapes", EINSUM, ids=[r[0] for r in EINSUM])
def test_einsum(eq, shapes):
    arrays = [_r(*s) for s in shapes]
    check_forward(lambda *xs: tf.einsum(eq, *xs), lambda *xs: np.einsum(eq, *xs), *arrays)
    check_gradient(lambda *xs: tf.einsum(eq, *xs), *arrays)


def test_einsum_static_shapes_and_errors():
    a = tf.placeholder(tf.float32, [None, 3])
    b = tf.placeholder(tf.float32, [3, 5])
    assert tf.einsum("ij,jk->ik", a, b).shape.as_list() == [None, 5]
    assert tf.einsum("...j,jk->...k", tf.placeholder(tf.float32, [2, None, 3]), b).shape.as_list() == [2, None, 5]
    with pytest.raises(ValueError, match="Expected dimension 3"):
        tf.einsum("ij,jk->ik", a, tf.placeholder(tf.float32, [4, 5]))
    with pytest.raises(ValueError, match="do not match the rank"):
        tf.einsum("ijk->i", a)
    with pytest.raises(ValueError, match="Expected 2 input tensors"):
        tf.einsum("ij,jk->ik", a)
    with pytest.raises(ValueError, match="does not appear"):
        tf.einsum("ij->z", a)
    with pytest.raises(TypeError, match="invalid keyword"):
        tf.einsum("ij->i", a, foo=1)


# ---- reductions --------------------------------------------------------------------------------
def _np_int_mean(x, axis=None, keepdims=False):
    s = np.sum(x, axis=axis, keepdims=keepdims).astype(np.int64)
    n = x.size // max(np.size(s), 1)
    return (np.abs(s) // n * np.sign(s)).astype(x.dtype)


REDUCE = [
    ("reduce_sum", tf.reduce_sum, np.sum),
    ("reduce_mean", tf.reduce_mean, np.mean),
    ("reduce_prod", tf.reduce_prod, np.prod),
    ("reduce_max", tf.reduce_max, np.max),
    ("reduce_min", tf.reduce_min, np.min),
    ("reduce_logsumexp", tf.reduce_logsumexp, lambda x, axis=None, keepdims=False: np.log(
        np.sum(np.exp(x), axis=axis, keepdims=keepdims))),
]
AXES = [None, 0, 1, -1, [0, 2], [-1, 0], (1,), [], [0, 1, 2]]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=[str(a) for a in AXES])
@pytest.mark.parametrize("name,fn,np_fn", REDUCE, ids=[r[0] for r in REDUCE])
def test_reduce_forward(name, fn, np_fn, axis, keepdims):
    x = _r(2, 3, 2, dtype=np.float32)
    np_axis = tuple(axis) if isinstance(axis, (list, tuple)) else axis
    check_forward(lambda t: fn(t, axis=axis, keepdims=keepdims),
                  lambda a: np.asarray(np_fn(a, axis=np_axis, keepdims=keepdims), np.float32), x, rtol=1e-5)


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=[str(a) for a in AXES])
@pytest.mark.parametrize("name,fn,np_fn", REDUCE, ids=[r[0] for r in REDUCE])
def test_reduce_gradient(name, fn, np_fn, axis, keepdims):
    x = rng.permutation(12).reshape(2, 3, 2) / 4.0 - 1.3  # distinct values: max/min are unique
    check_gradient(lambda t: fn(t, axis=axis, keepdims=keepdims), x)


@pytest.mark.parametrize("name,fn,np_fn", REDUCE, ids=[r[0] for r in REDUCE])
def test_reduce_unknown_shapes_and_dynamic_axis(name, fn, np_fn):
    x = _r(2, 3)
    ax = tf.placeholder(tf.int32, [])
    ph = tf.placeholder(tf.float64)
    y_all = fn(ph)
    y_ax = fn(ph, axis=ax)
    y_kd = fn(tf.placeholder(tf.float64, [None, 3]), axis=ax, keepdims=True)
    assert y_all.shape.as_list() == [] and y_ax.shape.ndims is None and y_kd.shape.as_list() == [None, None]
    with tf.Session() as sess:
        a, b = sess.run([y_all, y_ax], {ph: x, ax: 1})
    np.testing.assert_allclose(a, np_fn(x), rtol=1e-6)
    np.testing.assert_allclose(b, np_fn(x, axis=1), rtol=1e-6)
    check_gradient(lambda t: fn(t, axis=tf.constant(1)), x)


def test_reduce_gradient_unknown_rank_and_dynamic_axis():
    x = np.arange(6.0).reshape(2, 3) / 3 + 0.5
    ph = tf.placeholder(tf.float64)
    ax = tf.placeholder(tf.int32, [])
    g_all = tf.gradients(tf.reduce_mean(ph), ph)[0]
    g_ax = tf.gradients(tf.reduce_sum(ph * ph, axis=ax), ph)[0]
    g_prod = tf.gradients(tf.reduce_prod(ph, axis=ax), ph)[0]
    with tf.Session() as sess:
        a, b, c = sess.run([g_all, g_ax, g_prod], {ph: x, ax: -1})
    np.testing.assert_allclose(a, np.full((2, 3), 1 / 6))
    np.testing.assert_allclose(b, 2 * x)
    np.testing.assert_allclose(c, np.prod(x, axis=1, keepdims=True) / x)


def test_reduce_static_shapes():
    x = tf.placeholder(tf.float32, [None, 3, 4])
    assert tf.reduce_sum(x).shape.as_list() == []
    assert tf.reduce_sum(x, 1).shape.as_list() == [None, 4]
    assert tf.reduce_sum(x, [0, -1], keepdims=True).shape.as_list() == [1, 3, 1]
    assert tf.reduce_max(x, axis=tf.constant([2])).shape.as_list() == [None, 3]
    assert tf.reduce_mean(tf.placeholder(tf.float32), 1).shape.ndims is None
    assert tf.reduce_sum(x, 0).op.type == "Sum" and tf.reduce_mean(x).op.name == "Mean_1"


def test_reduce_deprecated_arguments():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    a = tf.reduce_sum(x, reduction_indices=[1], keep_dims=True)
    assert a.shape.as_list() == [2, 1]
    np.testing.assert_array_equal(_run(a), [[3.0], [7.0]])
    with pytest.raises(ValueError, match="Cannot specify both 'reduction_indices' and 'axis'"):
        tf.reduce_sum(x, axis=0, reduction_indices=0)
    with pytest.raises(ValueError, match="Cannot specify both 'keep_dims' and 'keepdims'"):
        tf.reduce_sum(x, keepdims=True, keep_dims=True)


def test_reduce_errors():
    x = tf.placeholder(tf.float32, [2, 3])
    with pytest.raises(ValueError, match="Invalid reduction dimension 2 for input with 2 dimensions"):
        tf.reduce_sum(x, 2)
    with pytest.raises(ValueError, match="Invalid reduction dimension -3"):
        tf.reduce_max(x, [0, -3])
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.reduce_sum(tf.constant([True]))
    with pytest.raises(TypeError, match="not in list of allowed values: bool"):
        tf.reduce_any(x)
    ax = tf.placeholder(tf.int32, [])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.Session().run(tf.reduce_sum(x, ax), {x: np.ones((2, 3)), ax: 5})


def test_reduce_ints_and_bools():
    x = np.array([[1, -2, 3], [-4, 5, -7]], np.int32)
    check_forward(lambda t: tf.reduce_mean(t, 1), lambda a: _np_int_mean(a, 1), x)
    check_forward(lambda t: tf.reduce_mean(t), lambda a: _np_int_mean(a), x)
    np.testing.assert_array_equal(_run(tf.reduce_mean(tf.constant([-1, -2]))), -1)
    check_forward(lambda t: tf.reduce_sum(t, 0), lambda a: a.sum(0).astype(np.int32), x)
    check_forward(lambda t: tf.reduce_prod(t, 1), lambda a: a.prod(1).astype(np.int32), x)
    check_forward(lambda t: tf.reduce_max(t, 0), lambda a: a.max(0), x)
    b = np.array([[True, False], [True, True]])
    check_forward(lambda t: tf.reduce_any(t, 1), lambda a: a.any(1), b)
    check_forward(lambda t: tf.reduce_all(t, 1), lambda a: a.all(1), b)
    check_forward(lambda t: tf.reduce_all(t), lambda a: a.all(), b)


def test_reduce_empty():
    e = tf.placeholder(tf.float32, [0, 2])
    with tf.Session() as sess:
        mx, mn, s, p = sess.run([tf.reduce_max(e, 0), tf.reduce_min(e, 0), tf.reduce_sum(e, 0), tf.reduce_prod(e, 0)],
                                {e: np.zeros((0, 2))})
    np.testing.assert_array_equal(mx, [-np.inf, -np.inf])
    np.testing.assert_array_equal(mn, [np.inf, np.inf])
    np.testing.assert_array_equal(s, [0, 0])
    np.testing.assert_array_equal(p, [1, 1])


def test_reduce_max_gradient_splits_ties():
    x = tf.constant([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    g = _run(tf.gradients(tf.reduce_max(x, 1), x)[0])
    np.testing.assert_allclose(g, [[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    g = _run(tf.gradients(tf.reduce_min(x), x)[0])
    np.testing.assert_allclose(g, [[1, 0, 0], [0, 0, 0]])


@pytest.mark.parametrize("axis", [None, 0, 1, [0, 1]])
def test_reduce_prod_gradient_with_zeros(axis):
    x = np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 5.0]])
    t = tf.constant(x)
    g = _run(tf.gradients(tf.reduce_prod(t, axis), t)[0])
    ax = tuple(axis) if isinstance(axis, list) else axis
    expected = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        x2 = x.copy()
        x2[idx] = 1.0
        y1 = np.prod(x2, axis=ax, keepdims=True)
        x2[idx] = 0.0
        y0 = np.prod(x2, axis=ax, keepdims=True)
        expected[idx] = np.broadcast_to(y1 - y0, x.shape)[idx]
    np.testing.assert_allclose(g, expected)
    check_gradient(lambda t: tf.reduce_prod(t, axis), x + np.array([[0.0, 0.0, 0.0], [1e-3, 0.0, 0.0]]))


def test_reduce_logsumexp_stability():
    x = tf.constant([[1000.0, 1000.0], [-np.inf, 0.0], [-np.inf, -np.inf], [np.inf, 1.0]])
    v = _run(tf.reduce_logsumexp(x, 1))
    np.testing.assert_allclose(v[:2], [1000 + math.log(2), 0.0], rtol=1e-6)
    assert v[2] == -np.inf and v[3] == np.inf
    assert tf.reduce_logsumexp(x, 1).op.name == "ReduceLogSumExp_1"
    c = tf.constant([1000.0, 1000.0])
    g = _run(tf.gradients(tf.reduce_logsumexp(c), c)[0])
    np.testing.assert_allclose(g, [0.5, 0.5])


def test_count_nonzero():
    x = np.array([[0, 1, 2], [0, 0, 3]], np.int32)
    check_forward(lambda t: tf.count_nonzero(t, 1), lambda a: np.count_nonzero(a, 1).astype(np.int64), x)
    c = tf.count_nonzero(tf.constant([True, False, True]), dtype=tf.int32)
    assert c.dtype == tf.int32 and _run(c) == 2


# ---- argmax / argmin -----------------------------------------------------------------------------
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("fn,np_fn", [(tf.argmax, np.argmax), (tf.argmin, np.argmin)])
def test_arg_max_min(fn, np_fn, axis):
    x = np.array([[1.0, 5.0, 5.0], [7.0, -1.0, 0.0]], np.float32)
    check_forward(lambda t: fn(t, axis), lambda a: np_fn(a, axis=0 if axis is None else axis).astype(np.int64), x)


def test_arg_max_options_and_errors():
    x = tf.placeholder(tf.float32, [None, 4])
    a = tf.argmax(x, dimension=1, output_type=tf.int32)
    assert a.dtype == tf.int32 and a.shape.as_list() == [None] and a.op.type == "ArgMax"
    assert tf.argmin(x).shape.as_list() == [4]
    assert tf.argmax(x, tf.placeholder(tf.int32, [])).shape.as_list() == [None]
    with pytest.raises(ValueError, match="Expected dimension in the range"):
        tf.argmax(x, 2)
    with pytest.raises(ValueError, match="Cannot specify both 'dimension' and 'axis'"):
        tf.argmax(x, 1, dimension=1)
    with pytest.raises(TypeError, match="output_type"):
        tf.argmax(x, 1, output_type=tf.float32)
    assert tf.gradients(tf.cast(tf.argmax(x, 1), tf.float32), x) == [None]


# ---- cumsum / cumprod ----------------------------------------------------------------------------
def _np_cum(fn, ident, x, axis, exclusive, reverse):
    if reverse:
        x = np.flip(x, axis)
    out = fn(x, axis=axis)
    if exclusive:
        out = np.concatenate([np.full_like(np.take(out, [0], axis), ident), np.delete(out, -1, axis)], axis)
    return np.flip(out, axis) if reverse else out


CUM = [(tf.cumsum, np.cumsum, 0), (tf.cumprod, np.cumprod, 1)]


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("exclusive,reverse", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("fn,np_fn,ident", CUM, ids=["cumsum", "cumprod"])
def test_cumulative(fn, np_fn, ident, exclusive, reverse, axis):
    x = _r(2, 3, lo=0.5, hi=2.0)
    check_forward(lambda t: fn(t, axis, exclusive=exclusive, reverse=reverse),
                  lambda a: _np_cum(np_fn, ident, a, axis, exclusive, reverse), x)
    check_gradient(lambda t: fn(t, axis, exclusive=exclusive, reverse=reverse), x)


def test_cumulative_ints_and_errors():
    check_forward(lambda t: tf.cumsum(t, exclusive=True), lambda a: np.array([0, 1, 3], np.int32),
                  np.array([1, 2, 3], np.int32))
    with pytest.raises(ValueError, match="out of range"):
        tf.cumsum(tf.placeholder(tf.float32, [2, 3]), 2)
    assert tf.cumsum(tf.placeholder(tf.float32, [None, 3]), 1).shape.as_list() == [None, 3]


def test_accumulate_n():
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    np.testing.assert_array_equal(_run(tf.accumulate_n([a, b, a])), [5.0, 8.0])
    with pytest.raises(ValueError, match="inputs must be a list"):
        tf.accumulate_n([])


# ---- Tensor operators ----------------------------------------------------------------------------
OPERATORS = [
    ("__add__", lambda x, y: x + y, np.add, "add", "AddV2"),
    ("__sub__", lambda x, y: x - y, np.subtract, "sub", "Sub"),
    ("__mul__", lambda x, y: x * y, np.multiply, "mul", "Mul"),
    ("__truediv__", lambda x, y: x / y, np.divide, "truediv", "RealDiv"),
    ("__floordiv__", lambda x, y: x // y, lambda x, y: np.floor(x / y), "floordiv", "FloorDiv"),
    ("__mod__", lambda x, y: x % y, _np_floormod, "mod", "FloorMod"),
    ("__pow__", lambda x, y: x ** y, np.power, "pow", "Pow"),
    ("__lt__", lambda x, y: x < y, np.less, "Less", "Less"),
    ("__le__", lambda x, y: x <= y, np.less_equal, "LessEqual", "LessEqual"),
    ("__gt__", lambda x, y: x > y, np.greater, "Greater", "Greater"),
    ("__ge__", lambda x, y: x >= y, np.greater_equal, "GreaterEqual", "GreaterEqual"),
]


@pytest.mark.parametrize("name,op,np_fn,op_name,op_type", OPERATORS, ids=[r[0] for r in OPERATORS])
def test_operators(name, op, np_fn, op_name, op_type):
    x = np.array([[1.5, 2.0], [3.0, 0.5]], np.float32)
    y = np.array([0.5, 2.0], np.float32)
    check_forward(op, np_fn, x, y)
    tx = tf.constant(x)
    t = op(tx, 2.0)
    assert t.op.name == op_name and t.op.type == op_type
    np.testing.assert_allclose(_run(t), np_fn(x, np.float32(2.0)), rtol=1e-6)
    r = op(3.0, tx)  # reflected (or swapped comparison)
    np.testing.assert_allclose(_run(r), np_fn(np.float32(3.0), x), rtol=1e-6)
    n = op(tx, y)  # numpy operand
    np.testing.assert_allclose(_run(n), np_fn(x, y), rtol=1e-6)
    m = op(y, tx)  # numpy on the left defers to the tensor
    assert isinstance(m, tf.Tensor)
    np.testing.assert_allclose(_run(m), np_fn(y, x), rtol=1e-6)


def test_operator_names_of_converted_operands():
    x = tf.constant([1.0, 2.0], name="x")
    s = 2.0 - x
    assert s.op.name == "sub" and s.op.inputs[0].op.name == "sub/x" and s.op.inputs[1] is x
    t = x - 2.0
    assert t.op.name == "sub_1" and t.op.inputs[1].op.name == "sub_1/y"
    np.testing.assert_array_equal(_run([s, t]), [[1.0, 0.0], [-1.0, 0.0]])


def test_unary_and_logical_operators():
    x = tf.constant([-1.5, 2.0])
    assert (-x).op.type == "Neg" and abs(x).op.type == "Abs"
    np.testing.assert_array_equal(_run([-x, abs(x)]), [[1.5, -2.0], [1.5, 2.0]])
    a, b = tf.constant([True, True, False]), tf.constant([True, False, False])
    res = _run([a & b, a | b, a ^ b, ~a, True & b, False | b, True ^ b])
    np.testing.assert_array_equal(res[0], [True, False, False])
    np.testing.assert_array_equal(res[1], [True, True, False])
    np.testing.assert_array_equal(res[2], [False, True, False])
    np.testing.assert_array_equal(res[3], [False, False, True])
    np.testing.assert_array_equal(res[4], [True, False, False])
    np.testing.assert_array_equal(res[5], [True, False, False])
    np.testing.assert_array_equal(res[6], [False, True, True])
    with pytest.raises(TypeError):
        tf.constant([1.0]) & tf.constant([0.0])  # integers: bitwise (tests/ops/test_bitwise_ops.py)


def test_inplace_operators():
    z = tf.constant([1.0, 2.0])
    orig = z
    z += 1.0
    z *= tf.constant([2.0, 3.0])
    z -= 1.0
    z /= 2.0
    z **= 2.0
    assert z is not orig and z.op.type == "Pow"
    np.testing.assert_allclose(_run(z), [(((1 + 1) * 2 - 1) / 2) ** 2, (((2 + 1) * 3 - 1) / 2) ** 2])
    m = tf.constant([[1.0, 2.0]])
    m @= tf.constant([[1.0], [1.0]])
    np.testing.assert_array_equal(_run(m), [[3.0]])


def test_operator_dtype_rules():
    i = tf.constant([1, 2])
    assert (i + 1).dtype == tf.int32 and (i * 2).op.inputs[1].dtype == tf.int32
    assert (tf.constant([1.0], tf.float64) + 1).dtype == tf.float64
    assert (i / 2).dtype == tf.float64
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type float32 that does not match"):
        i + 1.5
    with pytest.raises(TypeError):
        1.5 + i
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type float64 that does not match"):
        tf.constant([1.0]) + tf.constant([1.0], tf.float64)
    x = tf.constant([1.0])
    assert (x == x) is True and (x != x) is False and {x: 1}[x] == 1
    assert (x == tf.constant([1.0])) is False
    assert x in {x: 1}


def test_operator_not_implemented_for_foreign_objects():
    class Foreign:
        def __radd__(self, other):
            return "radd"

        def __rpow__(self, other):
            return "rpow"

    x = tf.constant([1.0])
    assert x + Foreign() == "radd"
    assert x ** Foreign() == "rpow"


def test_tensor_operand_operators_name_scopes_and_branches():
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    with tf.name_scope("outer"):
        s, d, m = a + b, a - b, a * b
    assert [t.op.name for t in (s, d, m)] == ["outer/add", "outer/sub", "outer/mul"]
    assert [t.op.type for t in (s, d, m)] == ["AddV2", "Sub", "Mul"]
    words = tf.constant(["a"]) + tf.constant(["b"])
    assert words.op.type == "Add"
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.constant([True]) + tf.constant([False])
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: a * b + a, lambda: a - b)
    with tf.Session() as sess:
        assert sess.run(r, {p: True}).tolist() == [4.0, 10.0]
        assert sess.run(r, {p: False}).tolist() == [-2.0, -2.0]
        assert [v.tolist() for v in sess.run([s, d, m])] == [[4.0, 6.0], [-2.0, -2.0], [3.0, 8.0]]
        assert sess.run(words).tolist() == [b"ab"]


def test_operators_on_other_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([1.0, 2.0])
    y = x * 2.0 + 1.0
    assert y.graph is g and y.op.inputs[1].graph is g
    assert len(tf.get_default_graph().get_operations()) == 0


def test_gradient_through_operators():
    check_gradient(lambda x, y: (x * y - y / (x * x + 1.0)) ** 2.0 + 3.0 / (1.0 + y), _r(2, 2), _r(2, 2, lo=0.1))


# ---- variance / std, tf.math namespace, kernel hygiene ----------------------------------------------
@pytest.mark.parametrize("axis", [None, 0, [1]])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduce_variance_and_std(axis, keepdims):
    x = _r(3, 2)
    ax = tuple(axis) if isinstance(axis, list) else axis
    check_forward(lambda t: tf.math.reduce_variance(t, axis, keepdims), lambda a: np.var(a, ax, keepdims=keepdims), x)
    check_forward(lambda t: tf.math.reduce_std(t, axis, keepdims), lambda a: np.std(a, ax, keepdims=keepdims), x)
    check_gradient(lambda t: tf.math.reduce_std(t, axis, keepdims), x)


def test_math_namespace():
    assert tf.math.reduce_sum is tf.reduce_sum and tf.math.divide_no_nan is tf.div_no_nan
    assert tf.math.add_n is tf.add_n and tf.math.floormod is tf.mod
    for name in tf.math.__all__:
        assert callable(getattr(tf.math, name)) or name == "special", name
    assert all(callable(getattr(tf.math.special, name)) for name in tf.math.special.__all__)


def test_count_nonzero_strings():
    assert _run(tf.count_nonzero(tf.constant(["", "a", "b"]))) == 2


def test_einsum_permutation_does_not_alias_the_feed():
    x = tf.placeholder(tf.float64, [2, 2])
    feed = np.array([[1.0, 2.0], [3.0, 4.0]])
    with tf.Session() as sess:
        out = sess.run(tf.einsum("ij->ji", x), {x: feed})
    out[0, 0] = 99.0
    assert feed[0, 0] == 1.0


def test_public_function_names():
    assert tf.exp.__name__ == "exp" and tf.negative.__name__ == "negative" and tf.log1p.__name__ == "log1p"
    assert "Computes exponential" in tf.exp.__doc__


def test_axis_tensors_folded_at_graph_construction():
    x = tf.placeholder(tf.float32, [None, 3, 4])
    assert tf.reduce_sum(x, axis=tf.rank(x) - 1).shape.as_list() == [None, 3]
    assert tf.argmax(x, tf.constant(1) + 1).shape.as_list() == [None, 3]
    check_gradient(lambda t: tf.reduce_max(t, axis=tf.rank(t) - 2), _r(2, 3, 2))


def test_gradients_of_a_graph_that_is_not_the_default():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [2, 2])
        ax = tf.placeholder(tf.int32, [])
        z = (tf.pow(x, 2.0) + tf.sqrt(x) + tf.sigmoid(x) + tf.erf(x) + tf.squared_difference(x, 1.0) + tf.tanh(x)
             + tf.reduce_mean(tf.reduce_prod(x, 1)) + tf.einsum("ii->", x) + tf.reduce_sum(tf.reduce_max(x, ax)))
    (gx,) = tf.gradients(z, [x])
    assert gx.graph is g and not tf.get_default_graph().get_operations()
    v = np.array([[1.0, 2.0], [3.0, 4.0]])
    with tf.Session(graph=g) as sess:
        got = sess.run(gx, {x: v, ax: 1})
    s = 1 / (1 + np.exp(-v))
    # The scalar terms are broadcast over the 4 elements of z.
    expected = (2 * v + 0.5 / np.sqrt(v) + s * (1 - s) + 2 / np.sqrt(np.pi) * np.exp(-v * v) + 2 * (v - 1)
                + 1 - np.tanh(v) ** 2 + 4 * (v[:, ::-1] / 2 + np.eye(2) + (v == v.max(1, keepdims=True))))
    np.testing.assert_allclose(got, expected, rtol=1e-10)


def test_operators_and_unary_ops_take_tf_op_names():
    """`x * y` and `tf.tanh(x)` on tensors of the default graph create their op without entering a
    name scope, under the name the scope would have given."""
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [2])
        y = tf.placeholder(tf.float32, [2])
        with tf.name_scope("mul"):
            pass
        names = [(x * y).op.name, (x * y).op.name, (x + y).op.name, tf.tanh(x).op.name, tf.tanh(x).op.name]
        with tf.name_scope("outer"):
            names += [(x - y).op.name, tf.tanh(x).op.name, tf.tanh(x, name="t").op.name, (x * 2.0).op.name]
        assert names == ["mul_1", "mul_2", "add", "Tanh", "Tanh_1", "outer/sub", "outer/Tanh", "outer/t",
                         "outer/mul"]
        assert [op.type for op in g.get_operations()[2:]] == ["Mul", "Mul", "AddV2", "Tanh", "Tanh", "Sub", "Tanh",
                                                              "Tanh", "Const", "Mul"]


def test_cast_of_a_sparse_tensor_casts_its_values_as_tf():
    sp = tf.SparseTensor([[0, 1], [1, 0]], tf.constant([3, 4], tf.int64), [2, 2])
    out = tf.cast(sp, tf.float32)
    assert isinstance(out, tf.SparseTensor) and out.dtype == tf.float32 and out.indices is sp.indices
    value = _run(out)
    np.testing.assert_array_equal(value.values, np.float32([3, 4]))
