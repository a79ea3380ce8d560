"""tf.nn: forward values vs NumPy, numerical gradients (first and second order), stability with
large logits, dropout statistics and seeding, and error paths."""

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.op_harness import check_forward, check_gradient

RNG = np.random.RandomState(0)
X = RNG.randn(3, 4).astype(np.float32)
X64 = RNG.randn(3, 4)
# Keep kinks (0 for relu, 0/6 for relu6) away from the finite-difference points.
XK = np.array([[-2.5, -0.7, 0.4, 1.3], [5.5, 6.6, -3.1, 2.2], [0.9, -1.9, 7.5, 3.3]])
SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_log_softmax(x, axis=-1):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def np_xent(labels, logits, axis=-1):
    return -(labels * np_log_softmax(logits, axis)).sum(axis=axis)


def np_sigmoid_xent(z, x):
    return np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))


LABELS = np_softmax(RNG.randn(3, 4)).astype(np.float32)
SPARSE = np.array([0, 3, 2], np.int32)

# ---- forward ---------------------------------------------------------------------------------
FORWARD = [
    ("relu", tf.nn.relu, lambda x: np.maximum(x, 0), [X]),
    ("relu_int", tf.nn.relu, lambda x: np.maximum(x, 0), [np.array([-3, 0, 4], np.int32)]),
    ("relu6", tf.nn.relu6, lambda x: np.clip(x, 0, 6), [XK.astype(np.float32)]),
    ("elu", tf.nn.elu, lambda x: np.where(x < 0, np.expm1(x), x), [X]),
    ("selu", tf.nn.selu, lambda x: np.where(x < 0, SELU_SCALE * SELU_ALPHA * np.expm1(x), SELU_SCALE * x), [X]),
    ("leaky_relu", tf.nn.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x), [X]),
    ("leaky_relu_alpha", lambda x: tf.nn.leaky_relu(x, alpha=0.01), lambda x: np.where(x > 0, x, 0.01 * x), [X]),
    ("softplus", tf.nn.softplus, lambda x: np.log1p(np.exp(x)), [X]),
    ("softplus_large", tf.nn.softplus, lambda x: np.logaddexp(0, x),
     [np.array([-100., -20., 0., 20., 100., 1000.], np.float32)]),
    ("softsign", tf.nn.softsign, lambda x: x / (1 + np.abs(x)), [X]),
    ("softmax", tf.nn.softmax, np_softmax, [X]),
    ("softmax_axis0", lambda x: tf.nn.softmax(x, axis=0), lambda x: np_softmax(x, 0), [X]),
    ("softmax_dim0", lambda x: tf.nn.softmax(x, dim=0), lambda x: np_softmax(x, 0), [X]),
    ("softmax_3d_axis1", lambda x: tf.nn.softmax(x, axis=1), lambda x: np_softmax(x, 1),
     [RNG.randn(2, 3, 4).astype(np.float32)]),
    ("softmax_large", tf.nn.softmax, np_softmax, [np.array([[1000., 0.], [-1000., 1000.]], np.float32)]),
    ("log_softmax", tf.nn.log_softmax, np_log_softmax, [X]),
    ("log_softmax_axis0", lambda x: tf.nn.log_softmax(x, axis=0), lambda x: np_log_softmax(x, 0), [X]),
    ("log_softmax_large", tf.nn.log_softmax, np_log_softmax, [np.array([[1000., 0.], [-1000., 1000.]], np.float32)]),
    ("bias_add", tf.nn.bias_add, lambda x, b: x + b, [X, RNG.randn(4).astype(np.float32)]),
    ("bias_add_4d", tf.nn.bias_add, lambda x, b: x + b,
     [RNG.randn(2, 3, 3, 2).astype(np.float32), RNG.randn(2).astype(np.float32)]),
    ("bias_add_nchw", lambda x, b: tf.nn.bias_add(x, b, data_format="NCHW"), lambda x, b: x + b[:, None, None],
     [RNG.randn(2, 3, 4, 5).astype(np.float32), RNG.randn(3).astype(np.float32)]),
    ("xw_plus_b", tf.nn.xw_plus_b, lambda x, w, b: x @ w + b,
     [X, RNG.randn(4, 2).astype(np.float32), RNG.randn(2).astype(np.float32)]),
    ("l2_loss", tf.nn.l2_loss, lambda x: np.float32((x.astype(np.float64) ** 2).sum() / 2), [X]),
    ("l2_normalize_all", tf.nn.l2_normalize, lambda x: x / np.sqrt((x ** 2).sum()), [X]),
    ("l2_normalize_axis1", lambda x: tf.nn.l2_normalize(x, axis=1),
     lambda x: x / np.sqrt((x ** 2).sum(1, keepdims=True)), [X]),
    ("l2_normalize_dim0", lambda x: tf.nn.l2_normalize(x, dim=0),
     lambda x: x / np.sqrt((x ** 2).sum(0, keepdims=True)), [X]),
    ("l2_normalize_eps", lambda x: tf.nn.l2_normalize(x, 0, epsilon=1e-4),
     lambda x: x / np.sqrt(np.maximum((x ** 2).sum(0, keepdims=True), 1e-4)),
     [np.array([[0.001, 3.], [0.002, 4.]], np.float32)]),
    ("sigmoid_xent", lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x), np_sigmoid_xent,
     [RNG.rand(3, 4).astype(np.float32), X]),
    ("sigmoid_xent_large", lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
     np_sigmoid_xent, [np.array([0., 1., 0., 1.], np.float32), np.array([1000., 1000., -1000., -1000.], np.float32)]),
    ("softmax_xent_v2", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x), np_xent,
     [LABELS, X]),
    ("softmax_xent_v1", lambda z, x: tf.nn.softmax_cross_entropy_with_logits(labels=z, logits=x), np_xent,
     [LABELS, X]),
    ("softmax_xent_axis0", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x, axis=0),
     lambda z, x: np_xent(z, x, 0), [np_softmax(X, 0), X]),
    ("softmax_xent_v1_dim0", lambda z, x: tf.nn.softmax_cross_entropy_with_logits(labels=z, logits=x, dim=0),
     lambda z, x: np_xent(z, x, 0), [np_softmax(X, 0), X]),
    ("softmax_xent_3d", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x), np_xent,
     [np_softmax(RNG.randn(2, 3, 4)).astype(np.float32), RNG.randn(2, 3, 4).astype(np.float32)]),
    ("softmax_xent_1d", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x), np_xent,
     [LABELS[0], X[0]]),
    ("softmax_xent_large", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x),
     lambda z, x: np.array([500., 1000.], np.float32),
     [np.array([[0.5, 0.5], [0., 1.]], np.float32), np.array([[1000., 0.], [1000., 0.]], np.float32)]),
    ("sparse_xent", lambda z, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x),
     lambda z, x: -np_log_softmax(x)[np.arange(3), z], [SPARSE, X]),
    ("sparse_xent_int64", lambda z, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x),
     lambda z, x: -np_log_softmax(x)[np.arange(3), z], [SPARSE.astype(np.int64), X]),
    ("sparse_xent_3d", lambda z, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x),
     lambda z, x: -np.take_along_axis(np_log_softmax(x), z[..., None], -1)[..., 0],
     [np.array([[0, 1, 2], [3, 3, 0]], np.int32), RNG.randn(2, 3, 4).astype(np.float32)]),
    ("sparse_xent_large", lambda z, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x),
     lambda z, x: np.array([0., 1000.], np.float32),
     [np.array([0, 1], np.int32), np.array([[1000., 0.], [1000., 0.]], np.float32)]),
    ("relu_layer", tf.nn.relu_layer, lambda x, w, b: np.maximum(x @ w + b, 0),
     [X, RNG.randn(4, 2).astype(np.float32), RNG.randn(2).astype(np.float32)]),
    ("weighted_xent", lambda z, x: tf.nn.weighted_cross_entropy_with_logits(labels=z, logits=x, pos_weight=3.0),
     lambda z, x: (1 - z) * x + (1 + 2 * z) * np.log1p(np.exp(-x)), [RNG.rand(3, 4).astype(np.float32), X]),
    ("weighted_xent_large", lambda z, x: tf.nn.weighted_cross_entropy_with_logits(targets=z, logits=x, pos_weight=2.),
     lambda z, x: np.array([1000., 0., 0., 2000.], np.float32),
     [np.array([0., 1., 0., 1.], np.float32), np.array([1000., 1000., -1000., -1000.], np.float32)]),
    ("batch_normalization", lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
     lambda x, m, v, o, s: s * (x - m) / np.sqrt(v + 1e-3) + o,
     [X, X.mean(0), X.var(0), RNG.randn(4).astype(np.float32), RNG.rand(4).astype(np.float32)]),
    ("batch_normalization_no_affine", lambda x, m, v: tf.nn.batch_normalization(x, m, v, None, None, 1e-3),
     lambda x, m, v: (x - m) / np.sqrt(v + 1e-3), [X, X.mean(0), X.var(0)]),
    ("top_k", lambda x: tf.nn.top_k(x, 2)[0], lambda x: -np.sort(-x, axis=-1)[:, :2], [X]),
    ("sigmoid", tf.nn.sigmoid, lambda x: 1 / (1 + np.exp(-x)), [X]),
    ("tanh", tf.nn.tanh, np.tanh, [X]),
    ("moments", lambda x: tf.nn.moments(x, [0]), lambda x: (x.mean(0), x.var(0)), [X]),
    ("moments_all_keepdims", lambda x: tf.nn.moments(x, [0, 1], keep_dims=True),
     lambda x: (x.mean(keepdims=True), x.var(keepdims=True)), [X]),
    ("moments_keepdims", lambda x: tf.nn.moments(x, [1], keepdims=True),
     lambda x: (x.mean(1, keepdims=True), x.var(1, keepdims=True)), [X]),
]


@pytest.mark.parametrize("name,fn,np_fn,arrays", FORWARD, ids=[r[0] for r in FORWARD])
def test_forward(name, fn, np_fn, arrays):
    check_forward(fn, np_fn, *arrays, rtol=1e-5, atol=1e-6)


def test_forward_float64_keeps_dtype():
    check_forward(tf.nn.softmax, np_softmax, X64, rtol=1e-12)
    check_forward(lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x), np_xent,
                  np_softmax(X64), X64, rtol=1e-12)


def test_softmax_xent_v2_takes_positional_arguments():
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(LABELS, X)
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(loss), np_xent(LABELS, X), rtol=1e-5)


def test_softmax_xent_v2_exact_in_float32():
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=[0.5, 0.5], logits=[1000., 0.])
    sm = tf.nn.softmax([1000., 0.])
    with tf.Session() as sess:
        lv, sv = sess.run([loss, sm])
    assert lv.dtype == np.float32 and lv == 500.0
    np.testing.assert_array_equal(sv, [1., 0.])


def test_static_shapes():
    x = tf.placeholder(tf.float32, [None, 5])
    assert tf.nn.softmax(x).shape.as_list() == [None, 5]
    assert tf.nn.softmax(x, axis=0).shape.as_list() == [None, 5]
    assert tf.nn.l2_loss(x).shape.as_list() == []
    assert tf.nn.softmax_cross_entropy_with_logits_v2(labels=x, logits=x).shape.as_list() == [None]
    assert tf.nn.softmax_cross_entropy_with_logits_v2(labels=x, logits=x, axis=0).shape.as_list() == [5]
    labels = tf.placeholder(tf.int32, [None])
    assert tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x).shape.as_list() == [None]
    assert tf.nn.bias_add(x, tf.zeros([5])).shape.as_list() == [None, 5]
    mean, var = tf.nn.moments(x, [0])
    assert mean.shape.as_list() == [5] and var.shape.as_list() == [5]
    assert tf.nn.dropout(x, 0.5).shape.as_list() == [None, 5]


# ---- gradients -------------------------------------------------------------------------------
LABELS64 = np_softmax(RNG.randn(3, 4))
GRADIENTS = [
    ("relu", tf.nn.relu, [XK], None),
    ("relu6", tf.nn.relu6, [XK], None),
    ("elu", tf.nn.elu, [XK], None),
    ("selu", tf.nn.selu, [XK], None),
    ("leaky_relu", tf.nn.leaky_relu, [XK], None),
    ("softplus", tf.nn.softplus, [X64], None),
    ("softsign", tf.nn.softsign, [XK], None),
    ("softmax", tf.nn.softmax, [X64], None),
    ("softmax_axis0", lambda x: tf.nn.softmax(x, axis=0), [X64], None),
    ("log_softmax", tf.nn.log_softmax, [X64], None),
    ("log_softmax_axis0", lambda x: tf.nn.log_softmax(x, axis=0), [X64], None),
    ("bias_add", tf.nn.bias_add, [X64, RNG.randn(4)], None),
    ("bias_add_nchw", lambda x, b: tf.nn.bias_add(x, b, data_format="NCHW"), [RNG.randn(2, 3, 2, 2), RNG.randn(3)],
     None),
    ("xw_plus_b", tf.nn.xw_plus_b, [X64, RNG.randn(4, 2), RNG.randn(2)], None),
    ("l2_loss", tf.nn.l2_loss, [X64], None),
    ("l2_normalize", lambda x: tf.nn.l2_normalize(x, 1), [X64], None),
    ("sigmoid_xent", lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x), [RNG.rand(3, 4), X64],
     None),
    ("softmax_xent_v2", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x), [LABELS64, X64],
     None),
    ("softmax_xent_v2_axis0", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x, axis=0),
     [np_softmax(X64, 0), X64], None),
    ("softmax_xent_v1", lambda z, x: tf.nn.softmax_cross_entropy_with_logits(labels=z, logits=x), [LABELS64, X64],
     [1]),
    ("sparse_xent", lambda z, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x),
     [SPARSE.astype(np.int64), X64], [1]),
    ("relu_layer", tf.nn.relu_layer, [X64, RNG.randn(4, 2), RNG.randn(2) + 3.0], None),
    ("weighted_xent", lambda z, x: tf.nn.weighted_cross_entropy_with_logits(labels=z, logits=x, pos_weight=3.0),
     [RNG.rand(3, 4), X64], None),
    ("batch_normalization", lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
     [X64, RNG.randn(4), RNG.rand(4) + 0.5, RNG.randn(4), RNG.randn(4)], None),
    ("moments_mean", lambda x: tf.nn.moments(x, [0])[0], [X64], None),
    ("moments_variance", lambda x: tf.nn.moments(x, [0])[1], [X64], None),
]


@pytest.mark.parametrize("name,fn,arrays,wrt", GRADIENTS, ids=[r[0] for r in GRADIENTS])
def test_gradient(name, fn, arrays, wrt):
    check_gradient(fn, *arrays, wrt=wrt, tol=1e-5)


def _grad_of(f, *wrt_index):
    """x -> the gradient of sum(f(...)) w.r.t. one input: to check second derivatives."""
    i = wrt_index[0] if wrt_index else 0

    def g(*xs):
        return tf.gradients(f(*xs), xs[i])[0]
    return g


SECOND_ORDER = [
    ("relu", tf.nn.relu, [XK], None),
    ("relu6", tf.nn.relu6, [XK], None),
    ("elu", tf.nn.elu, [XK], None),
    ("selu", tf.nn.selu, [XK], None),
    ("leaky_relu", tf.nn.leaky_relu, [XK], None),
    ("softplus", tf.nn.softplus, [X64], None),
    ("softsign", tf.nn.softsign, [XK], None),
    ("softmax", lambda x: tf.nn.softmax(x) * np.arange(1., 5.), [X64], None),
    ("log_softmax", lambda x: tf.nn.log_softmax(x) * np.arange(1., 5.), [X64], None),
    ("l2_loss", tf.nn.l2_loss, [X64], None),
    ("bias_add_bias", lambda x, b: tf.nn.bias_add(x, b) ** 2, [X64, RNG.randn(4)], None),
]


@pytest.mark.parametrize("name,fn,arrays,wrt", SECOND_ORDER, ids=[r[0] for r in SECOND_ORDER])
def test_second_order_gradient(name, fn, arrays, wrt):
    check_gradient(_grad_of(fn), *arrays, wrt=wrt, tol=1e-5)


def test_bias_add_grad_grad_nchw():
    check_gradient(lambda x, b: tf.gradients(tf.nn.bias_add(x, b, data_format="NCHW") ** 2, b)[0],
                   RNG.randn(2, 3, 2, 2), RNG.randn(3), tol=1e-5)


def test_xent_second_order():
    """The Hessian of the losses w.r.t. logits, and the mixed logits/labels derivative."""
    def v2(z, x):
        return tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x)

    def sparse(z, x):
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x)

    check_gradient(lambda z, x: tf.gradients(v2(z, x), x)[0], LABELS64, X64, tol=1e-5)
    check_gradient(lambda z, x: tf.gradients(sparse(z, x), x)[0], SPARSE.astype(np.int64), X64, wrt=[1], tol=1e-5)


def test_xent_v1_stops_label_gradient_v2_does_not():
    z = tf.constant(LABELS64)
    x = tf.constant(X64)
    g1 = tf.gradients(tf.nn.softmax_cross_entropy_with_logits(labels=z, logits=x), z)[0]
    g2 = tf.gradients(tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x), z)[0]
    assert g1 is None
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g2), -np_log_softmax(X64), rtol=1e-12)


def test_xent_gradient_values():
    z = tf.constant(LABELS64)
    x = tf.constant(X64)
    gx = tf.gradients(tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x), x)[0]
    labels = tf.constant(SPARSE)
    gs = tf.gradients(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x), x)[0]
    with tf.Session() as sess:
        gxv, gsv = sess.run([gx, gs])
    np.testing.assert_allclose(gxv, np_softmax(X64) - LABELS64, rtol=1e-12)
    np.testing.assert_allclose(gsv, np_softmax(X64) - np.eye(4)[SPARSE], rtol=1e-12)


def test_stable_gradients_with_large_logits():
    x = tf.constant([[1000., 0.], [-1000., 1000.]], tf.float32)
    gs = tf.gradients(tf.reduce_sum(tf.nn.softmax(x) * [[1., 2.], [3., 4.]]), x)[0]
    gl = tf.gradients(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.ones([2, 2]), logits=x), x)[0]
    with tf.Session() as sess:
        gsv, glv = sess.run([gs, gl])
    assert np.all(np.isfinite(gsv)) and np.all(np.isfinite(glv))
    np.testing.assert_allclose(glv, [[0., -0.5], [-1., 0.]], atol=1e-6)


# ---- dropout ---------------------------------------------------------------------------------
def test_dropout_scaling_and_statistics():
    x = tf.ones([200, 100])
    y = tf.nn.dropout(x, keep_prob=0.25, seed=1)
    with tf.Session() as sess:
        v = sess.run(y)
    assert v.dtype == np.float32
    assert set(np.unique(v)) <= {0.0, 4.0}
    assert abs((v != 0).mean() - 0.25) < 0.02


def test_dropout_rate_argument_and_placeholder_keep_prob():
    x = tf.ones([100, 100])
    kp = tf.placeholder(tf.float32, [])
    y1 = tf.nn.dropout(x, rate=0.75, seed=3)
    y2 = tf.nn.dropout(x, kp, seed=3)
    with tf.Session() as sess:
        v1 = sess.run(y1)
        v2 = sess.run(y2, {kp: 0.5})
        v3 = sess.run(y2, {kp: 1.0})
    assert set(np.unique(v1)) <= {0.0, 4.0} and abs((v1 != 0).mean() - 0.25) < 0.03
    assert set(np.unique(v2)) <= {0.0, 2.0} and abs((v2 != 0).mean() - 0.5) < 0.03
    np.testing.assert_array_equal(v3, np.ones([100, 100]))


def test_dropout_keep_prob_one_is_identity():
    x = tf.constant([1., 2.])
    assert tf.nn.dropout(x, keep_prob=1.0) is x
    assert tf.nn.dropout(x, rate=0.0) is x


def test_dropout_noise_shape_drops_whole_rows():
    x = tf.ones([50, 8])
    y = tf.nn.dropout(x, 0.5, noise_shape=[50, 1], seed=2)
    with tf.Session() as sess:
        v = sess.run(y)
    assert all(len(set(row)) == 1 for row in v)
    assert 0 < (v[:, 0] != 0).sum() < 50


def test_dropout_seed_determinism_and_fresh_draws():
    def build():
        g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(7)
            y = tf.nn.dropout(tf.ones([20, 20]), 0.5)
        return g, y

    g1, y1 = build()
    g2, y2 = build()
    with tf.Session(graph=g1) as s1, tf.Session(graph=g2) as s2:
        a, a2 = s1.run(y1), s1.run(y1)
        b = s2.run(y2)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, a2)


def test_dropout_gradient_matches_mask():
    x = tf.constant(X64)
    y = tf.nn.dropout(x, 0.5, seed=5)
    g = tf.gradients(y, x)[0]
    with tf.Session() as sess:
        yv, gv = sess.run([y, g])
    np.testing.assert_allclose(gv, np.where(yv != 0, 2.0, 0.0))


# ---- errors ----------------------------------------------------------------------------------
def _logits():
    return tf.constant(X)


ERRORS = [
    ("sparse_rank", ValueError, "Rank mismatch: Rank of labels (received 2) should equal rank of logits minus 1",
     lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[0, 1, 2]], logits=_logits())),
    ("sparse_shape", ValueError, "Shape mismatch: The shape of labels (received (2,))",
     lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=_logits())),
    ("sparse_scalar_logits", ValueError, "Logits cannot be scalars",
     lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=0, logits=1.0)),
    ("sparse_float_labels", TypeError, "labels",
     lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0., 1., 2.], logits=_logits())),
    ("xent_v1_positional", ValueError, "Only call `softmax_cross_entropy_with_logits` with named arguments",
     lambda: tf.nn.softmax_cross_entropy_with_logits(LABELS, X)),
    ("sparse_positional", ValueError, "with named arguments",
     lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(SPARSE, X)),
    ("sigmoid_missing", ValueError, "Both labels and logits must be provided.",
     lambda: tf.nn.sigmoid_cross_entropy_with_logits(logits=X)),
    ("weighted_shape", ValueError, "logits and labels must have the same shape",
     lambda: tf.nn.weighted_cross_entropy_with_logits(labels=np.zeros(3, np.float32), logits=X, pos_weight=2.)),
    ("weighted_both", ValueError, "Cannot specify both 'targets' and 'labels'",
     lambda: tf.nn.weighted_cross_entropy_with_logits(labels=X, targets=X, logits=X, pos_weight=2.)),
    ("sigmoid_shape", ValueError, "logits and labels must have the same shape",
     lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=np.zeros((3, 5), np.float32), logits=X)),
    ("xent_shape", ValueError, "Dimensions must be equal, but are 4 and 5",
     lambda: tf.nn.softmax_cross_entropy_with_logits_v2(labels=np.zeros((3, 5), np.float32), logits=X)),
    ("dropout_keep_prob_big", ValueError, "rate must be a scalar tensor or a float in the range [0, 1), got -0.5",
     lambda: tf.nn.dropout(X, keep_prob=1.5)),
    ("dropout_keep_prob_zero", ValueError, "rate must be a scalar tensor or a float in the range [0, 1), got 1",
     lambda: tf.nn.dropout(X, keep_prob=0.0)),
    ("dropout_rate_one", ValueError, "in the range [0, 1)", lambda: tf.nn.dropout(X, rate=1.0)),
    ("dropout_no_rate", ValueError, "You must provide a rate to dropout.", lambda: tf.nn.dropout(X)),
    ("dropout_both", ValueError, "Cannot specify both 'keep_prob' and 'rate'",
     lambda: tf.nn.dropout(X, keep_prob=0.5, rate=0.5)),
    ("dropout_bad_keep_prob", ValueError, "keep_prob must be a floating point number or Tensor",
     lambda: tf.nn.dropout(X, keep_prob="half")),
    ("dropout_int", ValueError, "x has to be a floating point tensor", lambda: tf.nn.dropout([1, 2], 0.5)),
    ("dropout_rate_shape", ValueError, "Shapes (2,) and () are incompatible",
     lambda: tf.nn.dropout(X, rate=tf.constant([0.5, 0.5]))),
    ("bias_add_format", ValueError, "data_format must be of the form `N...C` or `NC...`",
     lambda: tf.nn.bias_add(X, np.zeros(4, np.float32), data_format="HWCN")),
    ("bias_add_rank", ValueError, "Shape must be rank 1 but is rank 2",
     lambda: tf.nn.bias_add(X, np.zeros((1, 4), np.float32))),
    ("bias_add_value_rank", ValueError, "Shape must be at least rank 2 but is rank 1",
     lambda: tf.nn.bias_add(X[0], np.zeros(4, np.float32))),
    ("bias_add_size", ValueError, "Dimensions must be equal, but are 4 and 3",
     lambda: tf.nn.bias_add(X, np.zeros(3, np.float32))),
    ("bias_add_dtype", ValueError, "requested dtype float32",
     lambda: tf.nn.bias_add(X, tf.zeros([4], tf.float64))),
    ("elu_int", TypeError, "not in list of allowed values", lambda: tf.nn.elu([1, 2])),
    ("softmax_int", TypeError, "not in list of allowed values", lambda: tf.nn.softmax([1, 2])),
    ("softmax_scalar", ValueError, "Shape must be at least rank 1 but is rank 0", lambda: tf.nn.softmax(1.0)),
    ("softmax_axis_range", tf.errors.InvalidArgumentError, "Dimension (2) must be in the range [-2, 2)",
     lambda: tf.nn.softmax(X, axis=2)),
    ("softmax_axis_and_dim", ValueError, "Cannot specify both 'dim' and 'axis'",
     lambda: tf.nn.softmax(X, axis=0, dim=0)),
    ("l2_normalize_axis_and_dim", ValueError, "Cannot specify both 'dim' and 'axis'",
     lambda: tf.nn.l2_normalize(X, axis=0, dim=0)),
    ("l2_loss_int", TypeError, "not in list of allowed values", lambda: tf.nn.l2_loss([1, 2])),
    ("moments_keepdims_twice", ValueError, "Cannot specify both 'keep_dims' and 'keepdims'",
     lambda: tf.nn.moments(X, [0], keep_dims=True, keepdims=True)),
]


@pytest.mark.parametrize("name,exc,msg,fn", ERRORS, ids=[r[0] for r in ERRORS])
def test_errors(name, exc, msg, fn):
    with pytest.raises(exc) as info:
        fn()
    assert msg in str(info.value)


def test_sparse_label_out_of_range_at_run_time():
    labels = tf.placeholder(tf.int32, [3])
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=_logits())
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Received a label value of 4 which is outside "
                                                                 r"the valid range of \[0, 4\)"):
            sess.run(loss, {labels: [0, 4, 1]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="Received a label value of -1"):
            sess.run(loss, {labels: [0, -1, 1]})


def test_leaky_relu_casts_integers_to_float32():
    y = tf.nn.leaky_relu([-10, 5])
    assert y.dtype == tf.float32
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y), [-2., 5.])



def test_leaky_relu_alpha_is_a_float32_attribute():
    """TF stores alpha as a float32 attribute: float64 inputs see float32(0.2) (issue 15)."""
    x = tf.constant([-1.0, 2.0, -3.0], tf.float64)
    y = tf.nn.leaky_relu(x, alpha=0.2)
    assert y.op.get_attr("alpha") == float(np.float32(0.2))
    g = tf.gradients(y, x)[0]
    with tf.Session() as sess:
        yv, gv = sess.run([y, g])
        assert yv.tolist() == [-0.20000000298023224, 2.0, -0.6000000089406967]
        assert gv.tolist() == [0.20000000298023224, 1.0, 0.20000000298023224]
        assert sess.run(tf.nn.leaky_relu(tf.constant([-1.0], tf.float16), alpha=0.2)).tolist() == [-0.199951171875]
        assert sess.run(tf.nn.leaky_relu(x, alpha=np.array(0.5))).tolist() == [-0.5, 2.0, -1.5]
    with pytest.raises(TypeError, match="Expected float for argument 'alpha' not <tf.Tensor"):
        tf.nn.leaky_relu(x, alpha=tf.constant(0.2, tf.float64))
    with pytest.raises(TypeError, match="Expected float for argument 'alpha' not 'a'."):
        tf.nn.leaky_relu(x, alpha="a")


def test_softmax_xent_axis_with_unknown_rank():
    """axis=0 on logits of unknown rank: the class axis moves last at run time, as TF (issue 15)."""
    p, lab = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
    cost = tf.nn.softmax_cross_entropy_with_logits_v2(labels=lab, logits=p, axis=0)
    cost1 = tf.nn.softmax_cross_entropy_with_logits(labels=lab, logits=p, dim=1)
    assert cost.shape.ndims is None
    lv = np.array([[0.5, 0.2], [0.5, 0.8]], np.float32)
    pv = np.array([[1., 2.], [3., 0.]], np.float32)
    gp, gl = tf.gradients(cost, [p, lab])
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(cost, {p: pv, lab: lv}), np_xent(lv, pv, 0), rtol=1e-6)
        np.testing.assert_allclose(sess.run(cost1, {p: pv, lab: lv}), np_xent(lv, pv, 1), rtol=1e-6)
        p3, l3 = pv[:, :, None].repeat(2, 2), lv[:, :, None].repeat(2, 2)
        np.testing.assert_allclose(sess.run(cost, {p: p3, lab: l3}), np_xent(l3, p3, 0), rtol=1e-6)
        np.testing.assert_allclose(sess.run(gp, {p: pv, lab: lv}), np_softmax(pv, 0) - lv, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(sess.run(gl, {p: pv, lab: lv}), -np_log_softmax(pv, 0), rtol=1e-6)
    with pytest.raises(ValueError, match="axis -2 needs logits of known rank"):
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=lab, logits=p, axis=-2)


def test_softmax_of_an_empty_class_axis():
    """TF returns empty results for zero classes (and a zero loss per row)."""
    x = np.zeros((2, 0), np.float32)
    y, ly = tf.nn.softmax(x), tf.nn.log_softmax(x)
    cost = tf.nn.softmax_cross_entropy_with_logits_v2(labels=x, logits=x)
    lp = tf.placeholder(tf.float32, [2, 0])
    g = tf.gradients(tf.nn.softmax_cross_entropy_with_logits_v2(labels=x, logits=lp), lp)[0]
    with tf.Session() as sess:
        yv, lyv, cv, gv = sess.run([y, ly, cost, g], {lp: x})
    assert yv.shape == lyv.shape == gv.shape == (2, 0) and yv.dtype == np.float32
    assert cv.tolist() == [0.0, 0.0]


def test_softmax_of_infinite_logits_is_nan_as_tf_cpu_kernel():
    """TF's CPU kernel (Eigen; TF 1.15 and TF 2.x without oneDNN) shifts by the row max: +inf gives
    inf - inf = NaN, whose sum makes the whole row NaN; so does a row of only -inf."""
    with tf.Session() as sess:
        for v in ([[np.inf, 1, 2]], [[-np.inf, -np.inf, -np.inf]], [[np.nan, 1, 2]]):
            for dt in (np.float16, np.float32, np.float64):
                x = np.array(v, dt)
                assert np.isnan(sess.run(tf.nn.softmax(x))).all()
                assert np.isnan(sess.run(tf.nn.log_softmax(x))).all()
        assert sess.run(tf.nn.softmax([[-np.inf, 0.0, 0.0]])).tolist() == [[0.0, 0.5, 0.5]]

def test_op_types_and_names():
    x = tf.placeholder(tf.float32, [2, 3])
    assert tf.nn.relu(x, name="r").name == "r:0"
    assert tf.nn.relu(x).op.type == "Relu"
    assert tf.nn.softmax(x).op.type == "Softmax"
    assert tf.nn.log_softmax(x).op.type == "LogSoftmax"
    assert tf.nn.bias_add(x, tf.zeros([3])).op.type == "BiasAdd"
    assert tf.nn.l2_loss(x).op.type == "L2Loss"
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=x, logits=x)
    assert loss.op.type == "SoftmaxCrossEntropyWithLogits"
    assert loss.name == "softmax_cross_entropy_with_logits:0"
    assert tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=x).name == "logistic_loss:0"
    mean, var = tf.nn.moments(x, [0])
    assert mean.name.startswith("moments/") and var.name.startswith("moments/")


@pytest.mark.parametrize("layout", ["transposed", "fortran", "c"])
def test_sparse_xent_gradient_for_any_memory_layout_of_the_logits(layout):
    """The kernel subtracts one at each label through a [rows, classes] view of its backprop: a
    logits layout whose reshape would copy must not lose that update."""
    rng = np.random.RandomState(5)
    base = rng.randn(5, 4, 3).astype(np.float32)
    logits = {"transposed": base.transpose(1, 0, 2), "fortran": np.asfortranarray(base.transpose(1, 0, 2)),
              "c": np.ascontiguousarray(base.transpose(1, 0, 2))}[layout]
    labels = rng.randint(0, 3, (4, 5)).astype(np.int32)
    want = np_softmax(logits.astype(np.float64))
    want[np.arange(4)[:, None], np.arange(5)[None, :], labels] -= 1
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [4, 5, 3])
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x)
        g = tf.gradients(tf.reduce_sum(loss), x)[0]
        with tf.Session() as sess:
            got_loss, got = sess.run([loss, g], {x: logits})
    np.testing.assert_allclose(got, want, atol=1e-6)
    np.testing.assert_allclose(got_loss, -np.log(np_softmax(logits.astype(np.float64)))[
        np.arange(4)[:, None], np.arange(5)[None, :], labels], rtol=1e-5)
