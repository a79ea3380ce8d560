"""sort/argsort, roll, searchsorted and the special functions (tensorweave/ops/math_sort_ops.py,
math_special_ops.py): values, names and errors as TensorFlow 2.21 (tf.compat.v1, graph mode) gives
them, recorded here (the op table, rows_math_extra.py, checks them against independent references)."""

import sys

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

X = np.array([[3, 1, 2, 1], [0, -1, 5, -1]], np.float32)


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


# ---- sort / argsort -------------------------------------------------------------------------------
def test_sort_and_argsort_values_as_tf():
    with tf.Graph().as_default():
        assert _run(tf.sort(X)).tolist() == [[1, 1, 2, 3], [-1, -1, 0, 5]]
        assert _run(tf.sort(X, axis=0, direction="DESCENDING")).tolist() == [[3, 1, 5, 1], [0, -1, 2, -1]]
        assert _run(tf.argsort(X)).tolist() == [[1, 3, 2, 0], [1, 3, 0, 2]]
        assert _run(tf.argsort(X, axis=0)).tolist() == [[1, 1, 0, 1], [0, 0, 1, 0]]
        assert _run(tf.argsort(X, direction="DESCENDING")).tolist() == [[0, 2, 1, 3], [2, 0, 1, 3]]
        i8 = np.array([-128, 127, 0, -1], np.int8)
        assert _run(tf.sort(i8)).tolist() == [-128, -1, 0, 127]  # no overflow at the minimum
        assert _run(tf.argsort(i8)).tolist() == [0, 3, 2, 1]
        assert _run(tf.sort(np.array([0, 255, 3], np.uint8))).tolist() == [0, 3, 255]


def test_sort_builds_top_k_with_tf_names():
    with tf.Graph().as_default():
        s, a = tf.sort(X), tf.argsort(X)
        assert s.name == "sort/Neg_1:0" and a.name == "argsort/TopKV2:1"
        assert s.dtype == tf.float32 and a.dtype == tf.int32 and a.shape.as_list() == [2, 4]
        assert "TopKV2" in [op.type for op in s.graph.get_operations()]


def test_sort_unknown_rank_any_axis():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32)
        y = tf.sort(p, axis=0)
        i = tf.argsort(p, axis=-2)
        out, idx = _run([y, i], {p: X})
        np.testing.assert_array_equal(out, np.sort(X, axis=0))
        assert idx.tolist() == [[1, 1, 0, 1], [0, 0, 1, 0]]


def test_sort_gradient_through_top_k():
    with tf.Graph().as_default():
        x = tf.constant([3.0, 1.0, 2.0], tf.float64)
        (g,) = tf.gradients(tf.sort(x) * tf.constant([1.0, 2.0, 3.0], tf.float64), x)
        assert _run(g).tolist() == [3.0, 1.0, 2.0]


def test_sort_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Argument `direction` should be one of ASCENDING, DESCENDING. "
                                             r"Received: direction=UP"):
            tf.sort(X, direction="UP")
        with pytest.raises(ValueError, match="Argument `axis` must be a constant scalar"):
            tf.sort(X, axis=tf.placeholder(tf.int32))


def test_sort_eager():
    with context.eager_mode():
        assert tf.sort(X).numpy().tolist() == [[1, 1, 2, 3], [-1, -1, 0, 5]]
        assert tf.argsort(X, axis=0).numpy().tolist() == [[1, 1, 0, 1], [0, 0, 1, 0]]


# ---- roll -------------------------------------------------------------------------------------
def test_roll_values_and_gradient():
    with tf.Graph().as_default():
        m = np.arange(12).reshape(3, 4)
        assert _run(tf.roll(np.arange(10), 2, 0)).tolist() == [8, 9, 0, 1, 2, 3, 4, 5, 6, 7]
        assert _run(tf.roll(m, [1, -1], [0, 1])).tolist() == [[9, 10, 11, 8], [1, 2, 3, 0], [5, 6, 7, 4]]
        assert _run(tf.roll(m, [1, 2], [1, 1])).tolist() == [[1, 2, 3, 0], [5, 6, 7, 4], [9, 10, 11, 8]]
        r = tf.roll(X, 1, 0)
        assert r.op.type == "Roll" and r.name == "Roll_3:0"
        assert tf.roll(tf.placeholder(tf.float32, [None, 3]), 1, 0).shape.as_list() == [None, 3]
        x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], tf.float64)
        (g,) = tf.gradients(tf.roll(x, [1, 2], [0, 1]) * tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], tf.float64),
                            x)
        assert _run(g).tolist() == [[6.0, 4.0, 5.0], [3.0, 1.0, 2.0]]


def test_roll_static_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Dimension 0 in both shapes must be equal, but are 2 and 1. "
                                             r"Shapes are \[2\] and \[1\]"):
            tf.roll(np.zeros((3, 4)), [1, 2], [0])
        with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
            tf.roll(np.float32(1), 1, 0)
        with pytest.raises(ValueError, match="Shape must be at most rank 1 but is rank 2"):
            tf.roll(np.zeros((3, 4)), [[1]], [[0]])


@pytest.mark.parametrize("shift,axis,message", [
    (1, 5, "axis 5 is out of range"),
    (1, -5, "axis -3 is out of range"),
    ([1, 2], [0], "shift and axis must have the same size"),
    ([[1]], [[0]], r"shift must be a scalar or a 1-D vector. Found: \[1,1\]"),
])
def test_roll_runtime_errors(shift, axis, message):
    with tf.Graph().as_default():
        x, sh, ax = tf.placeholder(tf.int32, [3, 4]), tf.placeholder(tf.int32), tf.placeholder(tf.int32)
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            _run(tf.roll(x, sh, ax), {x: np.zeros((3, 4)), sh: shift, ax: axis})


# ---- searchsorted -------------------------------------------------------------------------------
SS = np.array([[0, 3, 9, 9, 10], [1, 2, 3, 4, 5]], np.float32)
V = np.array([[2, 4, 9, 10], [0, 2, 6, 1]], np.float32)


def test_searchsorted_values_as_tf():
    with tf.Graph().as_default():
        assert _run(tf.searchsorted(SS, V)).tolist() == [[1, 2, 2, 4], [0, 1, 5, 0]]
        assert _run(tf.searchsorted(SS, V, side="right")).tolist() == [[1, 2, 4, 5], [0, 2, 5, 1]]
        assert tf.searchsorted(SS, V, out_type=tf.int64).dtype == tf.int64
        assert _run(tf.searchsorted([1.0, 2.0, 3.0], [2.5, 0.0, 3.0])).tolist() == [2, 0, 2]
        t = tf.searchsorted(SS, V)
        assert t.op.type == "Reshape" and t.op.inputs[0].op.type == "LowerBound"
        assert tf.searchsorted(SS, V, side="right").op.inputs[0].op.type == "UpperBound"


def test_searchsorted_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Argument `side` must be either 'right' or 'left'. "
                                             "Received: `side` = 'middle'."):
            tf.searchsorted(SS, V, side="middle")
        p1, p2 = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Leading dim_size of both tensors must match."):
            _run(tf.searchsorted(p1, p2), {p1: SS, p2: V[:1]})
        from tensorweave.framework import ops
        with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
            ops.apply_op("UpperBound", [tf.constant(SS), tf.constant(V[:, 0])], {"out_type": tf.int32})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Shape must be rank 2 but is rank 0 for `sorted_inputs` argument"):
            _run(ops.apply_op("LowerBound", [p1, p2], {"out_type": tf.int32}), {p1: 1.0, p2: 1.0})
        low = ops.apply_op("LowerBound", [tf.placeholder(tf.float32, [None, 3]), tf.placeholder(tf.float32, [2, None])],
                           {"out_type": tf.int32})
        assert low.shape.as_list() == [2, None]


# ---- special functions --------------------------------------------------------------------------
SPECIAL = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, 3.0, -2.5, 1e-30, 170.5])
NAN, INF = float("nan"), float("inf")
TF_VALUES = {  # TF 2.21, float64
    "lgamma": [NAN, INF, INF, INF, INF, 0.0, INF, 0.5723649429247001, 0.6931471805599453, -0.05624371649767407,
               69.07755278982137, 704.0044277342047],
    "digamma": [NAN, INF, NAN, NAN, NAN, -0.5772156649015323, NAN, -1.9635100260214227, 0.9227843350984675,
                1.1031566406452433, -9.999999999999999e+29, 5.135799878794703],
    "erfinv": [NAN, NAN, NAN, 0.0, 0.0, INF, -INF, 0.4769362762044699, NAN, NAN, 0.0, NAN],
}
SPECIAL2 = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, 3.0, -2.5, 1e-30, 0.999999])
TF_VALUES2 = {  # TF 2.21, float64
    "ndtri": [NAN, NAN, NAN, -INF, -INF, INF, NAN, 0.0, NAN, NAN, -11.464024688443613, 4.753424308817087],
    "bessel_i0e": [NAN, 0.0, 0.0, 1.0, 1.0, 0.46575960759364043, 0.46575960759364043, 0.6450352704491502,
                   0.24300035416182536, 0.27004644161220276, 1.0, 0.46575986544298664],
    "bessel_i1e": [NAN, 0.0, -0.0, 0.0, 0.0, 0.20791041534970844, -0.20791041534970844, 0.15642080318487162,
                   0.19682671329730084, -0.20658464953126654, 5e-31, 0.2079103654108567],
}
SPECIAL3 = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, 3.0, -2.5, 1e-30, 20.0])
TF_VALUES3 = {  # TF 2.21, float64
    "bessel_i0": [NAN, NAN, NAN, 1.0, 1.0, 1.2660658777520082, 1.2660658777520082, 1.0634833707413238,
                  4.880792585865024, 3.289839144050123, 1.0, 43558282.55955354],
    "bessel_i1": [NAN, NAN, NAN, 0.0, 0.0, 0.565159103992485, -0.565159103992485, 0.2578943053908962,
                  3.9533702174026093, -2.5167162452886984, 5e-31, 42454973.385127775],
}


@pytest.mark.parametrize("fn,x,expected", [(k, SPECIAL, v) for k, v in TF_VALUES.items()]
                         + [(k, SPECIAL2, v) for k, v in TF_VALUES2.items()]
                         + [(k, SPECIAL3, v) for k, v in TF_VALUES3.items()])
def test_special_function_values_as_tf(fn, x, expected):
    with tf.Graph().as_default():
        out = _run(getattr(tf.math, fn)(x))
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-30 if fn != "erfinv" else 1e-30 + 1e-29)
    np.testing.assert_array_equal(np.signbit(out[out == 0]), np.signbit(np.array(expected)[out == 0]))


def test_special_function_float16_as_tf():
    with tf.Graph().as_default():
        assert _run(tf.lgamma(np.float16([0.5, 3.0, -2.5]))).tolist() == [0.572265625, 0.693359375, -0.056243896484375]
        assert _run(tf.digamma(np.float16([0.5, 3.0, -2.5]))).tolist() == [-1.9638671875, 0.9228515625, 1.103515625]


def test_polygamma_values_as_tf():
    with tf.Graph().as_default():
        out = _run(tf.polygamma(np.array([0.0, 1.0, 2.0, 1.5, -1.0, 1.0, 1.0, 3.0, 0.0]),
                                np.array([0.5, -2.0, 3.0, 1.0, 1.0, 0.0, -0.0, np.inf, -np.inf])))
    np.testing.assert_allclose(out, [-1.9635100260214227, INF, -0.15411380631918856, NAN, NAN, INF, INF, 0.0, NAN],
                               rtol=1e-12)


@pytest.mark.parametrize("fn,expected", [
    ("xlogy", [0.0, 0.0, 0.0, 0.0, -INF, INF, -0.6931471805599453, NAN, 0.0, NAN]),
    ("xdivy", [0.0, 0.0, 0.0, 0.0, INF, 0.0, -0.5, NAN, 0.0, -1.0]),
    ("xlog1py", [0.0, 0.0, 0.0, 0.0, 0.0, INF, -1.0986122886681096, NAN, 0.0, -INF]),
])
def test_x_ops_values_as_tf(fn, expected):
    xs = np.array([0.0, 0.0, 0.0, 0.0, 1.0, 2.0, -1.0, np.nan, 0.0, 1.0])
    ys = np.array([0.0, np.nan, np.inf, -1.0, 0.0, np.inf, 2.0, 0.0, 3.0, -1.0])
    with tf.Graph().as_default():
        np.testing.assert_allclose(_run(getattr(tf.math, fn)(xs, ys)), expected, rtol=1e-15)


GRADS = {  # TF 2.21: d/dx f(x * 0.5) at x = [0.3, 2.5, -1.7, 0.0], or d/dx f(x) at [0.3, 2.5, -1.7]
    "ndtri": [2.144461427437111, NAN, NAN, INF],
    "bessel_i0e": [-0.40041072363745245, -0.09672220002587872, 0.15480777713514315, 0.0],
    "bessel_i1e": [0.18462797660802377, 0.010165500292281915, 0.03800889178011932, 0.25],
    "bessel_i0": [0.15169384000359282, 2.5167162452886984, -1.1963465656344818, 0.0],  # d/dx f(x) at x
    "bessel_i1": [0.5169807460062877, 2.283152645934644, 1.1602316881712031, 1.0],
    "lgamma": [-3.502524222200133, 0.7031566406452434, -1.4857174995110574],
    "digamma": [12.245364546107734, 0.4903577561002349, 14.632201633884016],
    "erfinv": [0.9545203588405493, NAN, NAN],
}


@pytest.mark.parametrize("fn", sorted(GRADS))
def test_special_gradients_as_tf(fn):
    with tf.Graph().as_default():
        if fn in ("bessel_i0", "bessel_i1"):
            x = tf.constant([0.3, 2.5, -1.7, 0.0], tf.float64)
            (g,) = tf.gradients(getattr(tf.math, fn)(x), x)
        elif len(GRADS[fn]) == 4:
            x = tf.constant([0.3, 2.5, -1.7, 0.0], tf.float64)
            (g,) = tf.gradients(getattr(tf.math, fn)(x * 0.5), x)
        else:
            x = tf.constant([0.3, 2.5, -1.7], tf.float64)
            (g,) = tf.gradients(getattr(tf.math, fn)(x), x)
        np.testing.assert_allclose(_run(g), GRADS[fn], rtol=1e-12)


def test_x_ops_and_polygamma_gradients_as_tf():
    expected = {
        "xlogy": [[-0.35667494393873245, 0.4054651081081644, 0.6931471805599453, 0.0],
                  [0.4285714285714286, 1.6666666666666667, -0.85, 0.0]],
        "xdivy": [[1.4285714285714286, 0.6666666666666666, 0.5, 0.0],
                  [-0.6122448979591837, -1.1111111111111112, 0.425, 0.0]],
        "xlog1py": [[0.5306282510621704, 0.9162907318741551, 1.0986122886681096, 0.0],
                    [0.17647058823529413, 1.0, -0.5666666666666667, 0.0]],
    }
    with tf.Graph().as_default():
        x = tf.constant([0.3, 2.5, -1.7, 0.0], tf.float64)
        y = tf.constant([0.7, 1.5, 2.0, 3.0], tf.float64)
        for fn, want in expected.items():
            np.testing.assert_allclose(_run(tf.gradients(getattr(tf.math, fn)(x, y), [x, y])), want, rtol=1e-12)
        a = tf.constant([1.0, 2.0], tf.float64)
        ga, gx = tf.gradients(tf.polygamma(a, y[:2]), [a, y])
        assert ga is None
        np.testing.assert_allclose(_run(gx), [-6.434992874190923, 1.4090910340024367, 0.0, 0.0], rtol=1e-12)


def test_special_names_and_dtype_errors():
    with tf.Graph().as_default():
        x = tf.constant([0.5, 1.5], tf.float64)
        assert tf.math.xlogy(x, x).name == "Xlogy:0"
        assert tf.math.bessel_i0e(x).name == "bessel_i0e/BesselI0e:0"
        assert tf.math.polygamma(x, x).name == "Polygamma:0"
        assert tf.math.lgamma(x).name == "Lgamma:0"
        assert [tf.math.ndtri(x).op.type, tf.math.erfinv(x).op.type, tf.math.digamma(x).op.type] == [
            "Ndtri", "Erfinv", "Digamma"]
        with pytest.raises(TypeError, match="Value passed to parameter 'a' has DataType float16 not in list of "
                                            "allowed values: float32, float64"):
            tf.math.polygamma(tf.constant([1.0], tf.float16), tf.constant([1.0], tf.float16))
        with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType int32"):
            tf.math.xlogy(tf.constant([1]), tf.constant([1]))
        with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType int32"):
            tf.math.lgamma(tf.constant([1, 2]))


def test_special_functions_without_scipy_name_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.special", None)
    monkeypatch.setitem(sys.modules, "scipy", None)
    with tf.Graph().as_default():
        with pytest.raises(ImportError, match=r"\[special\] extra"):
            tf.math.lgamma(tf.constant([1.0, 2.0]))
        with pytest.raises(ImportError, match=r"\[special\] extra"):
            tf.math.polygamma(1.0, 2.0)


# ---- zeta, betainc, lbeta, log_sigmoid --------------------------------------------------------------
def test_zeta_betainc_lbeta_values_as_tf():
    with tf.Graph().as_default():
        z = tf.math.zeta(np.array([2.0, 3.0, 1.0, 0.5, 2.0, 2.0, 4.0, np.inf]),
                         np.array([1.0, 2.0, 1.0, 1.0, 0.0, -1.0, 0.5, 2.0]))
        np.testing.assert_allclose(_run(z), [1.6449340668482266, 0.2020569031595943, INF, NAN, INF, INF,
                                             16.23484850566707, 0.0], rtol=1e-12)
        b = tf.math.betainc(np.array([1.0, 2.0, 0.5, 0.0, 2.0, -1.0]), np.array([1.0, 3.0, 0.5, 1.0, 2.0, 1.0]),
                            np.array([0.5, 0.3, 0.9, 0.5, 1.5, 0.5]))
        np.testing.assert_allclose(_run(b), [0.5, 0.34829999999999994, 0.795167235300866, NAN, NAN, NAN], rtol=1e-12)
        np.testing.assert_allclose(_run(tf.lbeta(np.array([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]))),
                                   [-4.0943445622221, 1.8378770664093456], rtol=1e-12)
        assert _run(tf.lbeta(np.zeros((2, 0)))).tolist() == [-INF, -INF]
        assert float(_run(tf.lbeta(np.zeros((0,))))) == -INF
        x = tf.constant([0.7, 1.5, 4.0], tf.float64)
        assert tf.lbeta(tf.reshape(x, [1, 3])).name == "lbeta_3/sub:0"
        assert tf.math.zeta(x, x).name == "Zeta_1:0" and tf.math.betainc(x, x, x).name == "Betainc_1:0"


def test_zeta_betainc_lbeta_gradients_as_tf():
    with tf.Graph().as_default():
        a = tf.constant([0.5, 2.0, 3.0], tf.float64)
        x = tf.constant([0.7, 1.5, 4.0], tf.float64)
        assert tf.gradients(tf.math.zeta(a + 2, x), a) == [None]
        np.testing.assert_allclose(_run(tf.gradients(tf.math.zeta(a + 2, x), x)[0]),
                                   [-9.231920161717067, -0.5790416377778708, -0.0017315993598314323], rtol=1e-10)
        b = tf.constant([1.0, 2.0, 0.5], tf.float64)
        z = tf.constant([0.3, 0.6, 0.2], tf.float64)
        assert tf.gradients(tf.math.betainc(a, b, z), [a, b]) == [None, None]
        np.testing.assert_allclose(_run(tf.gradients(tf.math.betainc(a, b, z), z)[0]),
                                   [0.9128709291752769, 1.4400000000000002, 0.041926274578121064], rtol=1e-12)
        np.testing.assert_allclose(_run(tf.gradients(tf.math.lbeta(tf.reshape(x, [1, 3])), x)[0]),
                                   [-2.961765375387465, -1.7052518477109535, -0.48562415325772923], rtol=1e-12)


def test_betainc_shapes_and_errors_as_tf():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float64)
        assert tf.math.betainc(p, 1.0, np.ones(3)).shape.as_list() == [3]
        assert tf.math.betainc(p, 1.0, 1.0).shape.ndims is None
        with pytest.raises(ValueError, match=r"Dimension 0 in both shapes must be equal, but are 3 and 2. "
                                             r"Shapes are \[3\] and \[2\]"):
            tf.math.betainc(np.ones(3), np.ones(2), np.ones(3))
        with pytest.raises(ValueError, match="Shapes must be equal rank, but are 1 and 2"):
            tf.math.betainc(np.ones(3), 1.0, np.ones((1, 3)))
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Shapes of a and x are inconsistent: \[2\] vs. \[3\]"):
            _run(tf.math.betainc(p, 1.0, np.ones(3)), {p: np.ones(2)})


def test_log_sigmoid_as_tf():
    with tf.Graph().as_default():
        y = tf.math.log_sigmoid(np.array([-100.0, -1.0, 0.0, 1.0, 100.0]))
        assert y.name == "LogSigmoid:0"
        assert [op.type for op in y.graph.get_operations()][-3:] == ["Neg", "Softplus", "Neg"]
        np.testing.assert_allclose(_run(y), [-100.0, -1.3132616875182228, -0.6931471805599453, -0.3132616875182228,
                                             -3.720075976020836e-44], rtol=1e-15)


# ---- unique_with_counts / setdiff1d ---------------------------------------------------------------
def test_unique_with_counts_and_setdiff1d_as_tf():
    with tf.Graph().as_default():
        u = tf.unique_with_counts(np.array([1, 1, 2, 4, 4, 4, 7, 8, 8]))
        assert [t.name for t in u] == ["UniqueWithCounts:0", "UniqueWithCounts:1", "UniqueWithCounts:2"]
        assert [v.tolist() for v in _run(list(u))] == [[1, 2, 4, 7, 8], [0, 0, 1, 2, 2, 2, 3, 4, 4], [2, 1, 3, 1, 2]]
        u64 = tf.unique_with_counts(np.array([1, 1]), out_idx=tf.int64)
        assert u64.idx.dtype == tf.int64 and u64.count.dtype == tf.int64
        d = tf.setdiff1d([1, 2, 3, 4, 5, 6], [1, 3, 5])
        assert [t.name for t in d] == ["ListDiff:0", "ListDiff:1"]
        assert [v.tolist() for v in _run(list(d))] == [[2, 4, 6], [1, 3, 5]]
        assert tf.setdiff1d([1, 2], [1], index_dtype=tf.int64).idx.dtype == tf.int64
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
            tf.setdiff1d(np.ones((2, 2)), [1.0])
        p = tf.placeholder(tf.int32)
        with pytest.raises(tf.errors.InvalidArgumentError, match="x should be a 1D vector."):
            _run(tf.setdiff1d(p, [1]), {p: [[1]]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="unique expects a 1D vector."):
            _run(tf.unique_with_counts(p), {p: [[1]]})


# ---- nextafter, cumulative_logsumexp, reduce_euclidean_norm -----------------------------------------
def test_nextafter_cumulative_logsumexp_euclidean_norm_as_tf():
    with tf.Graph().as_default():
        n = tf.math.nextafter(np.array([1.0, 0.0, -0.0, np.inf, np.nan], np.float32),
                              np.array([2.0, -1.0, 1.0, 0.0, 1.0], np.float32))
        np.testing.assert_array_equal(_run(n), np.array([1.0000001192092896, -1.401298464324817e-45,
                                                         1.401298464324817e-45, 3.4028234663852886e+38, NAN],
                                                        np.float32))
        c = tf.math.cumulative_logsumexp(np.array([[1.0, 2.0, 3.0], [0.0, -np.inf, 5.0]]), axis=1)
        np.testing.assert_allclose(_run(c), [[1.0, 2.313261687518223, 3.4076059644443806],
                                             [0.0, 0.0, 5.006715348489118]], rtol=1e-14)
        c2 = tf.math.cumulative_logsumexp(np.array([1.0, 2.0, 3.0]), exclusive=True, reverse=True)
        np.testing.assert_allclose(_run(c2), [3.313261687518223, 3.0, -INF], rtol=1e-14)
        e = tf.math.reduce_euclidean_norm(np.array([[3.0, 4.0], [5.0, 12.0]]), axis=1)
        assert e.op.type == "EuclideanNorm" and _run(e).tolist() == [5.0, 13.0]
        assert int(_run(tf.math.reduce_euclidean_norm(np.array([[3, 4], [5, 12]])))) == 13  # integer part
        np.testing.assert_allclose(
            _run(tf.math.reduce_euclidean_norm(np.array([[3.0, 4.0], [5.0, 12.0]]), axis=0, keepdims=True)),
            [[5.830951894845301, 12.649110640673518]], rtol=1e-15)
        assert complex(_run(tf.math.reduce_euclidean_norm(np.array([[1 + 2j, 2]], np.complex64)))) == 3 + 0j
        with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType int64 not in list"):
            tf.math.cumulative_logsumexp(np.array([1, 2]))


def test_nextafter_cumulative_logsumexp_euclidean_norm_gradients_as_tf():
    with tf.Graph().as_default():
        x = tf.constant([[0.3, 2.5, -1.7], [1.0, 2.0, 3.0]], tf.float64)
        g = tf.gradients(tf.math.reduce_euclidean_norm(x, 1) * tf.constant([1.0, 2.0], tf.float64), x)[0]
        np.testing.assert_allclose(_run(g), [[0.09874620280149497, 0.8228850233457915, -0.5595618158751382],
                                             [0.5345224838248488, 1.0690449676496976, 1.6035674514745464]], rtol=1e-13)
        g = tf.gradients(tf.math.cumulative_logsumexp(x, 1) * tf.constant([1.0, -2.0, 3.0], tf.float64), x)[0]
        np.testing.assert_allclose(_run(g), [[1.0957644761431342, 0.864275689958022, 0.03995983389884339],
                                             [0.7322088767711512, -0.7279317440956166, 1.9957228673244658]],
                                   rtol=1e-12)
        y = tf.constant([1.0, 0.0, 1.0], tf.float64)
        gx, gy = tf.gradients(tf.math.nextafter(x, y), [x, y])
        assert _run(gx).tolist() == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]] and _run(gy).tolist() == [0.0, 0.0, 0.0]


# ---- histogram_fixed_width(_bins) -----------------------------------------------------------------
def test_histogram_fixed_width_as_tf():
    v = np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15])
    with tf.Graph().as_default():
        h = tf.histogram_fixed_width(v, [0.0, 5.0], nbins=5)
        assert h.name == "histogram_fixed_width:0" and h.op.type == "HistogramFixedWidth"
        assert [i.name for i in h.op.inputs] == [
            "histogram_fixed_width/values:0", "histogram_fixed_width/value_range:0", "histogram_fixed_width/nbins:0"]
        assert h.shape.as_list() == [5] and _run(h).tolist() == [2, 1, 1, 0, 2]
        b = tf.histogram_fixed_width_bins(v, np.array([0.0, 5.0]), nbins=5)
        assert b.name == "histogram_fixed_width_bins/Reshape_1:0" and _run(b).tolist() == [0, 0, 1, 2, 4, 4]
        h64 = tf.histogram_fixed_width(np.array([1, 2, 3, 9]), [0, 10], nbins=3, dtype=tf.int64)
        assert h64.dtype == tf.int64 and _run(h64).tolist() == [3, 0, 1]
        x = tf.constant([1.0, 2.0], tf.float64)
        assert tf.gradients(tf.cast(tf.histogram_fixed_width(x, [0.0, 5.0]), tf.float64), x) == [None]


def test_histogram_fixed_width_errors_as_tf():
    v = np.array([-1.0, 0.0, 1.5])
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimension must be 2 but is 3"):
            tf.histogram_fixed_width(v, [0.0, 5.0, 3.0])
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            tf.histogram_fixed_width(v, [0.0, 5.0], nbins=[2])
        p = tf.placeholder(tf.int32)
        with pytest.raises(tf.errors.InvalidArgumentError, match="nbins should be a positive number, but got '0'"):
            _run(tf.histogram_fixed_width(v, [0.0, 5.0], nbins=p), {p: 0})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"value_range should satisfy value_range\[0\] < "
                                                                 r"value_range\[1\], but got '\[5, 0\]'"):
            _run(tf.histogram_fixed_width(v, [5.0, 0.0], nbins=p), {p: 3})
        with pytest.raises(tf.errors.InvalidArgumentError, match="Histogram values must not contain NaN"):
            _run(tf.histogram_fixed_width(np.array([np.nan]), [0.0, 1.0]))


# ---- confusion_matrix -----------------------------------------------------------------------------
def test_confusion_matrix_as_tf():
    with tf.Graph().as_default():
        c = tf.confusion_matrix([1, 2, 4], [2, 2, 4])
        assert c.name == "confusion_matrix/ScatterNd:0" and c.dtype == tf.int32
        assert _run(c).tolist() == [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0],
                                    [0, 0, 0, 0, 1]]
        assert _run(tf.math.confusion_matrix([1, 2], [2, 2], num_classes=3, weights=[0.5, 2.0])).tolist() == [
            [0, 0, 0], [0, 0, 0], [0, 0, 2]]  # weights cast to the int32 result
        w = tf.confusion_matrix([[1], [2]], [2, 2], num_classes=3, dtype=tf.float32, weights=[0.5, 2.0])
        assert _run(w).tolist() == [[0.0, 0.0, 0.0], [0.0, 0.0, 0.5], [0.0, 0.0, 2.0]]
        q = tf.placeholder(tf.int32)
        assert _run(tf.confusion_matrix(q, [0, 1], num_classes=3), {q: [[1], [2]]}).tolist() == [
            [0, 0, 0], [1, 0, 0], [0, 1, 0]]
        p = tf.placeholder(tf.int32)
        with pytest.raises(tf.errors.InvalidArgumentError, match="`labels` out of bound"):
            _run(tf.confusion_matrix(p, [0, 1], num_classes=3), {p: [1, 5]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="`labels` contains negative values"):
            _run(tf.confusion_matrix(p, [0, 1], num_classes=3), {p: [-1, 0]})


# ---- erfcinv and the tf.math aliases -------------------------------------------------------------
def test_erfcinv_as_tf():
    with tf.Graph().as_default():
        e = tf.math.erfcinv(np.array([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, np.nan]))
        assert e.name == "erfcinv/mul_1:0"
        out = _run(e)
        np.testing.assert_allclose(out, [INF, 0.4769362762044699, -0.0, -0.4769362762044699, -INF, NAN, NAN],
                                   rtol=1e-12)
        assert np.signbit(out[2])
        x = tf.constant([0.3, 1.2], tf.float64)
        np.testing.assert_allclose(_run(tf.gradients(tf.math.erfcinv(x), x)[0]), [-1.51636322, -0.91512935],
                                   rtol=1e-8)


def test_tf_math_aliases_are_tf_functions():
    assert tf.math.softsign is tf.nn.softsign and tf.math.softmax is tf.nn.softmax
    assert tf.math.top_k is tf.nn.top_k and tf.math.in_top_k is tf.nn.in_top_k
    assert tf.math.is_non_decreasing is tf.is_non_decreasing
    assert tf.math.is_strictly_increasing is tf.is_strictly_increasing
    assert tf.math.invert_permutation is tf.invert_permutation


def test_multiply_no_nan_and_reciprocal_no_nan_as_tf():
    with tf.Graph().as_default():
        m = tf.math.multiply_no_nan(np.array([np.inf, np.nan, 2.0, 3.0, -0.0]), np.array([0.0, 0.0, 3.0, np.inf, 5.0]))
        assert m.name == "multiply_no_nan:0" and m.op.type == "MulNoNan"
        out = _run(m)
        assert out.tolist() == [0.0, 0.0, 6.0, INF, -0.0] and np.signbit(out[4])
        r = tf.math.reciprocal_no_nan(np.array([0.0, 2.0, -0.0, np.inf]))
        assert r.name == "reciprocal_no_nan:0" and r.op.type == "DivNoNan"
        assert _run(r).tolist() == [0.0, 0.5, 0.0, 0.0]
        a = tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)
        b = tf.constant([0.0, 2.0], tf.float64)
        ga, gb = tf.gradients(tf.math.multiply_no_nan(a, b) * tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64),
                              [a, b])
        assert _run(ga).tolist() == [[0.0, 4.0], [0.0, 8.0]] and _run(gb).tolist() == [10.0, 20.0]
        with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType int64"):
            tf.math.multiply_no_nan(np.array([1, 2]), np.array([1, 2]))


# ---- igamma / igammac -------------------------------------------------------------------------------
def test_igamma_igammac_values_and_gradients_as_tf():
    a = np.array([0.5, 1.0, 2.0, 3.0, 0.0, -1.0, np.inf, np.nan, 1.0, 2.0])
    x = np.array([0.5, 1.0, 0.5, 5.0, 1.0, 1.0, 1.0, 1.0, 0.0, np.inf])
    with tf.Graph().as_default():
        np.testing.assert_allclose(_run(tf.igamma(a, x)), [0.682689492137086, 0.6321205588285578, 0.09020401043104986,
                                                           0.8753479805169189, NAN, NAN, 0.0, NAN, 0.0, 1.0],
                                   rtol=1e-12)
        np.testing.assert_allclose(_run(tf.math.igammac(a, x)),
                                   [0.31731050786291404, 0.36787944117144233, 0.9097959895689501, 0.12465201948308108,
                                    NAN, NAN, 1.0, NAN, 1.0, 0.0], rtol=1e-12)
        from tensorweave.framework import ops
        np.testing.assert_allclose(_run(ops.apply_op("IgammaGradA", [tf.constant(a), tf.constant(x)])),
                                   [-0.6472003523777539, -0.43172971063489896, -0.15103423690917053,
                                    -0.11369283868778572, NAN, NAN, 0.0, NAN, 0.0, -0.0], rtol=1e-9)
        aa = tf.constant([0.5, 2.0, 3.0], tf.float64)
        xx = tf.constant([0.7, 1.5, 4.0], tf.float64)
        want = [[-0.531338830505127, -0.31348863782507946, -0.1782473578733283],
                [0.334865114690167, 0.33469524022264474, 0.14652511110987343]]
        np.testing.assert_allclose(_run(tf.gradients(tf.math.igamma(aa, xx), [aa, xx])), want, rtol=1e-9)
        np.testing.assert_allclose(_run(tf.gradients(tf.math.igammac(aa, xx), [aa, xx])), -np.array(want), rtol=1e-9)
        assert tf.math.igamma(aa, xx).op.type == "Igamma" and tf.math.igammac(aa, xx).op.type == "Igammac"
