"""tf.losses: each loss vs a NumPy formula under every reduction and weight shape, the LOSSES
collection, regularization/total losses, gradients and errors."""

import numpy as np
import pytest

import tensorweave as tf

RNG = np.random.RandomState(0)
LABELS = RNG.rand(4, 3).astype(np.float32)
PREDS = RNG.rand(4, 3).astype(np.float32)
BINARY = (RNG.rand(4, 3) > 0.5).astype(np.float32)
LOGITS = RNG.randn(4, 3).astype(np.float32) * 2
ONEHOT = np.eye(3, dtype=np.float32)[[0, 2, 1, 2]]
SPARSE = np.array([0, 2, 1, 2], np.int32)


def _softplus(x):
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0)


def _log_softmax(x):
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def _huber(err, delta=1.0):
    a = np.abs(err)
    q = np.minimum(a, delta)
    return 0.5 * q ** 2 + delta * (a - q)


# name, tf call (labels, preds, weights, reduction), per-element NumPy losses
LOSSES = [
    ("mean_squared_error", lambda w, r: tf.losses.mean_squared_error(LABELS, PREDS, weights=w, reduction=r),
     (PREDS - LABELS) ** 2),
    ("absolute_difference", lambda w, r: tf.losses.absolute_difference(LABELS, PREDS, weights=w, reduction=r),
     np.abs(PREDS - LABELS)),
    ("log_loss", lambda w, r: tf.losses.log_loss(BINARY, PREDS, weights=w, reduction=r),
     -BINARY * np.log(PREDS + 1e-7) - (1 - BINARY) * np.log(1 - PREDS + 1e-7)),
    ("hinge_loss", lambda w, r: tf.losses.hinge_loss(BINARY, LOGITS, weights=w, reduction=r),
     np.maximum(0, 1 - (2 * BINARY - 1) * LOGITS)),
    ("huber_loss", lambda w, r: tf.losses.huber_loss(LABELS, LOGITS, weights=w, reduction=r),
     _huber(LOGITS - LABELS)),
    ("huber_loss_delta", lambda w, r: tf.losses.huber_loss(LABELS, LOGITS, weights=w, delta=0.3, reduction=r),
     _huber(LOGITS - LABELS, 0.3)),
    ("sigmoid_cross_entropy",
     lambda w, r: tf.losses.sigmoid_cross_entropy(BINARY, LOGITS, weights=w, reduction=r),
     _softplus(LOGITS) - BINARY * LOGITS),
    ("sigmoid_cross_entropy_smoothing",
     lambda w, r: tf.losses.sigmoid_cross_entropy(BINARY, LOGITS, weights=w, label_smoothing=0.2, reduction=r),
     _softplus(LOGITS) - (BINARY * 0.8 + 0.1) * LOGITS),
    ("cosine_distance", lambda w, r: tf.losses.cosine_distance(LABELS, PREDS, axis=1, weights=w, reduction=r),
     1 - (LABELS * PREDS).sum(1, keepdims=True)),
]

# Per-example losses ([4]) of the softmax losses.
XENT_LOSSES = [
    ("softmax_cross_entropy", lambda w, r: tf.losses.softmax_cross_entropy(ONEHOT, LOGITS, weights=w, reduction=r),
     -(ONEHOT * _log_softmax(LOGITS)).sum(-1)),
    ("softmax_cross_entropy_smoothing",
     lambda w, r: tf.losses.softmax_cross_entropy(ONEHOT, LOGITS, weights=w, label_smoothing=0.3, reduction=r),
     -((ONEHOT * 0.7 + 0.1) * _log_softmax(LOGITS)).sum(-1)),
    ("sparse_softmax_cross_entropy",
     lambda w, r: tf.losses.sparse_softmax_cross_entropy(SPARSE, LOGITS, weights=w, reduction=r),
     -_log_softmax(LOGITS)[np.arange(4), SPARSE]),
]

R = tf.losses.Reduction


def _reduce(losses, weights, reduction):
    weighted = losses * weights
    if reduction == R.NONE:
        return weighted
    total = weighted.sum()
    if reduction == R.SUM:
        return total
    if reduction == R.MEAN:
        denom = (np.ones_like(losses) * weights).sum()
    elif reduction == R.SUM_OVER_BATCH_SIZE:
        denom = losses.size
    else:
        denom = (np.broadcast_to(weights, losses.shape) != 0).sum()
    return total / denom if denom else 0.0


def _weights_for(shape):
    full = RNG.rand(*shape).astype(np.float32)
    full.flat[::3] = 0
    per_row = np.array([0., 1., 2., 0.5], np.float32).reshape((4,) + (1,) * (len(shape) - 1))
    return [("scalar", 2.0), ("per_row", per_row), ("full", full), ("zeros", np.zeros(shape, np.float32))]


REDUCTIONS = [R.NONE, R.SUM, R.MEAN, R.SUM_OVER_BATCH_SIZE, R.SUM_BY_NONZERO_WEIGHTS]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name,fn,np_losses", LOSSES + XENT_LOSSES, ids=[c[0] for c in LOSSES + XENT_LOSSES])
def test_loss_values(name, fn, np_losses, reduction):
    cases = _weights_for(np_losses.shape)
    if name.startswith("sparse"):
        # A trailing size-1 dimension of the weights is squeezed, as of the labels.
        cases.append(("per_row_2d", np.array([[1.], [0.], [2.], [3.]], np.float32)))
    results = []
    for _, w in cases:
        loss = fn(w, reduction)
        assert loss.dtype == tf.float32
        assert (loss.shape.as_list() == list(np_losses.shape)) if reduction == R.NONE else loss.shape.ndims == 0
        results.append(loss)
    assert tf.get_collection(tf.GraphKeys.LOSSES) == results
    with tf.Session() as sess:
        values = sess.run(results)
    for (case, w), value in zip(cases, values):
        w = np.asarray(w).reshape(-1) if case == "per_row_2d" else w
        np.testing.assert_allclose(value, _reduce(np_losses, w, reduction), rtol=2e-5, atol=1e-6, err_msg=case)


def test_default_reduction_and_names():
    loss = tf.losses.mean_squared_error(LABELS, PREDS)
    assert loss.name == "mean_squared_error/value:0"
    assert tf.losses.Reduction.SUM_OVER_NONZERO_WEIGHTS == tf.losses.Reduction.SUM_BY_NONZERO_WEIGHTS
    l2 = tf.losses.sparse_softmax_cross_entropy(SPARSE, LOGITS, scope="xent")
    assert l2.name.startswith("xent/")
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(loss), ((PREDS - LABELS) ** 2).mean(), rtol=1e-6)


def test_compute_weighted_loss_and_dtypes():
    losses = tf.constant(LABELS.astype(np.float64))
    loss = tf.losses.compute_weighted_loss(losses, weights=[[1.], [0.], [1.], [1.]])
    integer = tf.losses.compute_weighted_loss(tf.constant([[1, 2], [3, 4]]), reduction=tf.losses.Reduction.SUM)
    assert loss.dtype == tf.float64 and integer.dtype == tf.int32
    with tf.Session() as sess:
        value, int_value = sess.run([loss, integer])
    np.testing.assert_allclose(value, LABELS[[0, 2, 3]].mean(), rtol=1e-6)
    assert int_value == 10


def test_sparse_labels_with_trailing_dim_and_unknown_batch():
    labels = tf.placeholder(tf.int32, [None, 1])
    logits = tf.placeholder(tf.float32, [None, 3])
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits, weights=tf.constant([[1.], [2.], [0.], [1.]]))
    with tf.Session() as sess:
        value = sess.run(loss, {labels: SPARSE[:, None], logits: LOGITS})
    per = -_log_softmax(LOGITS)[np.arange(4), SPARSE]
    np.testing.assert_allclose(value, (per * [1, 2, 0, 1]).sum() / 3, rtol=1e-5)


def test_mean_pairwise_squared_error():
    weights = np.array([1., 0., 2., 0.5], np.float32)
    loss = tf.losses.mean_pairwise_squared_error(LABELS, PREDS, weights=weights[:, None])
    loss_scalar = tf.losses.mean_pairwise_squared_error(LABELS, PREDS)
    d = PREDS - LABELS
    pairs = np.array([np.mean([(d[b, i] - d[b, j]) ** 2 for i in range(3) for j in range(3) if i != j])
                      for b in range(4)])
    with tf.Session() as sess:
        value, value_scalar = sess.run([loss, loss_scalar])
    np.testing.assert_allclose(value, (pairs * weights).sum(), rtol=1e-5)
    np.testing.assert_allclose(value_scalar, pairs.sum(), rtol=1e-5)
    assert tf.get_collection(tf.GraphKeys.LOSSES) == [loss, loss_scalar]


def test_collections_and_total_loss():
    a = tf.losses.absolute_difference(LABELS, PREDS)
    tf.losses.mean_squared_error(LABELS, PREDS, loss_collection=None)
    tf.losses.mean_squared_error(LABELS, PREDS, loss_collection="mine")
    custom = tf.constant(3.0)
    tf.losses.add_loss(custom)
    assert tf.losses.get_losses() == [a, custom]
    assert len(tf.losses.get_losses(loss_collection="mine")) == 1
    assert tf.losses.get_regularization_losses() == []
    zero = tf.losses.get_regularization_loss()
    w = tf.get_variable("w", initializer=tf.constant([1., -2.]), regularizer=tf.nn.l2_loss)
    tf.get_variable("v", initializer=tf.constant([3.]), regularizer=tf.nn.l2_loss)
    reg = tf.losses.get_regularization_loss()
    reg_w = tf.losses.get_regularization_losses(scope="w")
    total = tf.losses.get_total_loss()
    no_reg = tf.losses.get_total_loss(add_regularization_losses=False)
    assert reg.name == "total_regularization_loss:0" and total.name == "total_loss:0" and len(reg_w) == 1
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([zero, reg, total, no_reg, a])
    assert values[0] == 0.0 and values[1] == 7.0
    np.testing.assert_allclose(values[2], values[4] + 3 + 7, rtol=1e-6)
    np.testing.assert_allclose(values[3], values[4] + 3, rtol=1e-6)
    del w


def test_gradient_of_weighted_loss():
    g = tf.Graph()
    with g.as_default():
        logits = tf.placeholder(tf.float32, [4, 3])
        loss = tf.losses.softmax_cross_entropy(ONEHOT, logits, weights=[1., 2., 0., 1.])
        grad = tf.gradients(loss, logits)[0]
        with tf.Session(graph=g) as sess:
            gv = sess.run(grad, {logits: LOGITS})
    softmax = np.exp(_log_softmax(LOGITS))
    expected = (softmax - ONEHOT) * np.array([1., 2., 0., 1.])[:, None] / 3
    np.testing.assert_allclose(gv, expected, rtol=1e-5, atol=1e-6)


ERRORS = [
    ("bad_reduction", ValueError, "Invalid Reduction Key bogus.",
     lambda: tf.losses.mean_squared_error(LABELS, PREDS, reduction="bogus")),
    ("shape_mismatch", ValueError, "are incompatible",
     lambda: tf.losses.mean_squared_error(LABELS, PREDS[:, :2])),
    ("weights_rank", ValueError, "weights can not be broadcast to values. values.rank=2. weights.rank=1.",
     lambda: tf.losses.absolute_difference(LABELS, PREDS, weights=[1., 2., 3.])),
    ("xent_weights_rank", ValueError, "weights can not be broadcast to values. values.rank=1. weights.rank=2.",
     lambda: tf.losses.softmax_cross_entropy(ONEHOT, LOGITS, weights=np.ones((4, 1), np.float32))),
    ("weights_dim", ValueError, "weights can not be broadcast to values. Mismatch at dim 1.",
     lambda: tf.losses.absolute_difference(LABELS, PREDS, weights=np.ones((4, 2), np.float32))),
    ("labels_none", ValueError, "labels must not be None.", lambda: tf.losses.huber_loss(None, PREDS)),
    ("predictions_none", ValueError, "predictions must not be None.", lambda: tf.losses.log_loss(LABELS, None)),
    ("logits_none", ValueError, "logits must not be None.", lambda: tf.losses.hinge_loss(BINARY, None)),
    ("cosine_axis", ValueError, "You must specify 'axis'.", lambda: tf.losses.cosine_distance(LABELS, PREDS)),
    ("no_losses", ValueError, "inputs must be a list of at least one", lambda: tf.losses.get_total_loss()),
]


@pytest.mark.parametrize("name,exc,msg,fn", ERRORS, ids=[r[0] for r in ERRORS])
def test_errors(name, exc, msg, fn):
    with pytest.raises(exc) as info:
        fn()
    assert msg in str(info.value)


@pytest.mark.parametrize("dtype", [np.float16, np.float64])
def test_label_smoothing_in_the_logits_dtype(dtype):
    """label_smoothing works for any float dtype of logits (the smoothing constants take its dtype)."""
    onehot, logits = ONEHOT.astype(dtype), LOGITS.astype(dtype)
    soft = tf.losses.softmax_cross_entropy(onehot, logits, label_smoothing=0.3)
    sig = tf.losses.sigmoid_cross_entropy(BINARY.astype(dtype), logits, label_smoothing=0.2)
    assert soft.dtype == sig.dtype == tf.as_dtype(dtype)
    lg = LOGITS.astype(np.float64)
    soft_exp = -((ONEHOT * 0.7 + 0.1) * _log_softmax(lg)).sum(-1).mean()
    sig_exp = (_softplus(lg) - (BINARY * 0.8 + 0.1) * lg).mean()
    tol = 1e-6 if dtype == np.float64 else 1e-2  # the weighting reduces in float32, as TF's
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(soft), soft_exp, rtol=tol)
        np.testing.assert_allclose(sess.run(sig), sig_exp, rtol=tol)
