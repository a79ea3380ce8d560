"""tf.contrib.metrics' contrib-only metrics (streaming_concat, streaming_covariance, streaming_dynamic_auc,
cohen_kappa, f1_score, auc_using_histogram, ...) against TF 1.15's implementations (tf_slim.metrics under
TensorFlow 2.21, tests/data/make_contrib_extra_tf.py), over several updates, plus NumPy checks of the
formulas and the error paths."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tests.data import make_contrib_extra_tf as cases

G = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "contrib_extra_tf.npz"))
M = tf.contrib.metrics


@pytest.fixture(scope="module")
def results():
    return cases.run_cases(tf, M)


def test_all_goldens_present(results):
    assert set(results) == set(G.files)


_TOLS = {"auc_ci": 2e-5, "auc_ci_w": 2e-5, "pearson_w": 2e-5, "covariance_w": 2e-5}


@pytest.mark.parametrize("key", sorted(G.files))
def test_matches_tf(results, key):
    base = key.split("/")[0]
    base = base.rsplit("_", 1)[0] if base[-1].isdigit() and base not in G else base
    tol = _TOLS.get(base, 1e-5)
    got, want = results[key], G[key]
    assert got.shape == want.shape, key
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want, err_msg=key)
    else:
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=key)


def _run(build, feeds):
    with tf.Graph().as_default():
        value, update = build()
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            outs = [sess.run(update, fd) for fd in feeds(True)]
            return outs, sess.run(value, feeds(False))


def test_covariance_and_pearson_numpy():
    rng = np.random.RandomState(3)
    batches = [(rng.randn(5).astype(np.float32), rng.randn(5).astype(np.float32), rng.rand(5).astype(np.float32) + 1)
               for _ in range(3)]
    with tf.Graph().as_default():
        p, lab, w = (tf.placeholder(tf.float32, [None]) for _ in range(3))
        cov, cov_up = M.streaming_covariance(p, lab, weights=w)
        r, r_up = M.streaming_pearson_correlation(p, lab, weights=w)
        assert {v.op.name for v in tf.local_variables()} >= {"covariance/count", "covariance/comoment",
                                                             "covariance/mean_prediction", "covariance/mean_label",
                                                             "pearson_r/covariance/count"}
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            assert np.isnan(sess.run(cov))  # count <= 1
            for i, (pv, lv, wv) in enumerate(batches):
                c_up, _ = sess.run([cov_up, r_up], {p: pv, lab: lv, w: wv})
                ps, ls, ws = (np.concatenate([b[j] for b in batches[:i + 1]]).astype(np.float64) for j in range(3))
                want = np.sum(ws * (ps - np.average(ps, weights=ws)) * (ls - np.average(ls, weights=ws)))
                np.testing.assert_allclose(c_up, want / (ws.sum() - 1), rtol=1e-4)  # frequency weights
            rv = sess.run(r)
    cp = np.sum(ws * (ps - np.average(ps, weights=ws)) * (ls - np.average(ls, weights=ws)))
    vp = np.sum(ws * (ps - np.average(ps, weights=ws)) ** 2)
    vl = np.sum(ws * (ls - np.average(ls, weights=ws)) ** 2)
    np.testing.assert_allclose(rv, cp / np.sqrt(vp * vl), rtol=1e-4)


def test_streaming_concat_values_and_update():
    chunks = [np.arange(6, dtype=np.float32).reshape(2, 3), np.arange(6, 8, dtype=np.float32).reshape(2, 1)]
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, None])
        value, update = M.streaming_concat(x, axis=-1)
        capped, capped_up = M.streaming_concat(x, axis=1, max_size=2)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            assert sess.run(value).shape == (2, 0)
            sizes = [sess.run([update, capped_up], {x: c}) for c in chunks]
            assert [s[0] for s in sizes] == [3, 4] and [s[1] for s in sizes] == [2, 2]
            np.testing.assert_array_equal(sess.run(value), np.concatenate(chunks, axis=1))
            np.testing.assert_array_equal(sess.run(capped), chunks[0][:, :2])


def test_streaming_concat_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="statically known rank"):
            M.streaming_concat(tf.placeholder(tf.float32))
        with pytest.raises(ValueError, match=r"axis = 2 not in \[0, 2\)"):
            M.streaming_concat(tf.zeros([2, 3]), axis=2)
        with pytest.raises(ValueError, match="other than the dimension to concatenate along"):
            M.streaming_concat(tf.placeholder(tf.float32, [None, None]))


def test_dynamic_auc_exact_numpy():
    labels = np.array([0, 1, 1, 0, 1, 0, 1], np.int64)
    preds = np.array([0.1, 0.8, 0.35, 0.4, 0.8, 0.2, 0.9], np.float32)
    pos, neg = preds[labels == 1], preds[labels == 0]
    want = np.mean([(a > b) + 0.5 * (a == b) for a in pos for b in neg])  # Mann-Whitney: exact ROC AUC
    with tf.Graph().as_default():
        auc, update = M.streaming_dynamic_auc(tf.constant(labels), tf.constant(preds))
        same, same_up = M.streaming_dynamic_auc(tf.constant([1, 1]), tf.constant([0.3, 0.6]))
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run([update, same_up])
            np.testing.assert_allclose(sess.run(auc), want, rtol=1e-12)
            assert sess.run(same) == 0.0  # all labels equal
            assert auc.dtype == tf.float64


def test_dynamic_auc_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="curve must be either ROC or PR, XY unknown"):
            M.streaming_dynamic_auc(tf.constant([1]), tf.constant([0.5]), curve="XY")
        with pytest.raises(ValueError):
            M.streaming_dynamic_auc(tf.constant([1, 0]), tf.constant([0.5, 0.2, 0.1]))
        auc, update = M.streaming_dynamic_auc(tf.constant([2, 0]), tf.constant([0.5, 0.2]))
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="labels must be 0 or 1, at least one is >1"):
                sess.run(update)


def test_cohen_kappa_numpy_and_errors():
    a = np.array([0, 1, 2, 1, 0, 2, 2, 1], np.int64)
    b = np.array([0, 2, 2, 1, 0, 1, 2, 0], np.int64)
    cm = np.zeros((3, 3))
    for i, j in zip(a, b):
        cm[i, j] += 1
    n = cm.sum()
    po, pe = np.trace(cm) / n, np.sum(cm.sum(0) * cm.sum(1)) / n ** 2
    with tf.Graph().as_default():
        k, up = M.cohen_kappa(tf.constant(a[:, None]), tf.constant(b), 3)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            np.testing.assert_allclose(sess.run(up), (po - pe) / (1 - pe), rtol=1e-12)
        with pytest.raises(ValueError, match="`num_classes` must be >= 2"):
            M.cohen_kappa(tf.constant(a), tf.constant(b), 1)
        with pytest.raises(ValueError, match="must have rank at most 2"):
            M.cohen_kappa(tf.zeros([2, 1, 1], tf.int64), tf.zeros([2, 1, 1], tf.int64), 3)


def test_count_f1_histogram_numpy():
    rng = np.random.RandomState(7)
    p = np.round(rng.rand(40), 3).astype(np.float32)
    lab = rng.rand(40) > 0.4
    with tf.Graph().as_default():
        c, c_up = M.count(tf.zeros([3, 4]), weights=tf.constant([[1.0], [2.0], [0.5]]))
        f1, f1_up = M.f1_score(tf.constant(lab), tf.constant(p), num_thresholds=50)
        auc, auc_up = M.auc_using_histogram(tf.constant(lab), tf.constant(p), [0.0, 1.0], nbins=1000)
        assert len(tf.local_variables()) >= 2 and not tf.global_variables()
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            assert sess.run(c_up) == 14.0 and sess.run(c_up) == 28.0
            f1v = sess.run(f1_up)
            sess.run(auc_up)
            aucv = sess.run(auc)
    th = [-1e-7] + [(i + 1) / 49.0 for i in range(48)] + [1 + 1e-7]
    best = 0.0
    for t in th:
        tp = np.sum((p > t) & lab)
        fp = np.sum((p > t) & ~lab)
        fn = np.sum((p <= t) & lab)
        pr, rc = tp / (1e-7 + tp + fp), tp / (1e-7 + tp + fn)
        best = max(best, 2 * pr * rc / (pr + rc + 1e-7))
    np.testing.assert_allclose(f1v, best, rtol=1e-5)
    pos, neg = p[lab], p[~lab]
    want = np.mean([(x > y) + 0.5 * (x == y) for x in pos for y in neg])
    np.testing.assert_allclose(aucv, want, atol=2e-3)  # bins of 1e-3: only ties within a bin differ


def test_auc_using_histogram_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Argument boolean_labels should have dtype bool"):
            M.auc_using_histogram(tf.constant([1, 0]), tf.constant([0.5, 0.2]), [0.0, 1.0])
        auc, up = M.auc_using_histogram(tf.constant([[True]]), tf.constant([[0.5]]), [0.0, 1.0])
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="should have rank 1"):
                sess.run(up)


def test_precision_recall_at_equal_thresholds_numpy_and_errors():
    p = np.array([0.0, 0.3, 0.55, 0.8, 1.0, 0.3], np.float32)
    lab = np.array([False, True, True, False, True, False])
    with tf.Graph().as_default():
        data, update = M.precision_recall_at_equal_thresholds(tf.constant(lab), tf.constant(p), num_thresholds=5)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run(update)
            sess.run(update)
            got = sess.run(data)
        t = np.linspace(0, 1, 5)
        tp = np.array([2 * np.sum(lab & (np.floor(p * 4) >= i)) for i in range(5)], np.float64)
        fp = np.array([2 * np.sum(~lab & (np.floor(p * 4) >= i)) for i in range(5)], np.float64)
        np.testing.assert_allclose(got.thresholds, t, rtol=1e-6)
        np.testing.assert_allclose(got.tp, tp)
        np.testing.assert_allclose(got.fp, fp)
        np.testing.assert_allclose(got.fn, tp[0] - tp)
        np.testing.assert_allclose(got.precision, tp / np.maximum(1e-7, tp + fp), rtol=1e-6)
        with pytest.raises(TypeError):
            M.precision_recall_at_equal_thresholds(tf.constant([1.0]), tf.constant([0.5]))
        x = tf.placeholder(tf.float32, [1])
        data, update = M.precision_recall_at_equal_thresholds(tf.constant([True]), x)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"predictions must be in \[0, 1\]"):
                sess.run(update, {x: [1.5]})


def test_argument_errors():
    with tf.Graph().as_default():
        p, lab = tf.constant([0.2, 0.7]), tf.constant([0.0, 1.0])
        with pytest.raises(ValueError, match=r"`precision` must be in the range \[0, 1\]"):
            M.recall_at_precision(lab, p, 1.5)
        with pytest.raises(ValueError, match=r"`target_recall` must be in the range \[0, 1\]"):
            M.precision_at_recall(lab, p, -0.1)
        with pytest.raises(ValueError, match="curve must be either ROC or PR, AB unknown"):
            M.streaming_curve_points(lab, p, curve="AB")
        with pytest.raises(ValueError, match="alpha must be between 0 and 1; currently 1.50"):
            M.auc_with_confidence_intervals(lab, p, alpha=1.5)
        with pytest.raises(ValueError):
            M.streaming_true_positives_at_thresholds(p, tf.constant([1.0, 0.0, 1.0]), [0.5])
        with pytest.raises(ValueError):
            M.streaming_covariance(p, tf.constant([1.0, 0.0, 1.0]))


def test_eager_errors():
    from tensorweave.eager import context
    with context.eager_mode():
        with pytest.raises(RuntimeError, match="cohen_kappa is not supported when eager execution is enabled"):
            M.cohen_kappa(tf.constant([0, 1]), tf.constant([0, 1]), 2)
        with pytest.raises(RuntimeError, match="precision_at_recall is not supported"):
            M.precision_at_recall(tf.constant([0.0, 1.0]), tf.constant([0.2, 0.7]), 0.5)


def test_set_ops_are_tf_sets():
    with tf.Graph().as_default():
        a = tf.constant([[1, 2, 3], [4, 5, 5]], tf.int64)
        b = tf.constant([[2, 7, 7], [4, 4, 9]], tf.int64)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(M.set_size(tf.sparse.from_dense(a))), [3, 2])
            np.testing.assert_array_equal(sess.run(M.set_union(a, b)).values, [1, 2, 3, 7, 4, 5, 9])
            np.testing.assert_array_equal(sess.run(M.set_intersection(a, b)).values, [2, 4])
            np.testing.assert_array_equal(sess.run(M.set_difference(a, b, aminusb=False)).values, [7, 9])


def test_count_and_f1_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="weights can not be broadcast to values"):
            M.count(tf.zeros([2, 3]), weights=tf.ones([2, 4]))
        # float64: as in TF, the range check rides on the cast to float32 (a float32 input is not checked)
        x = tf.placeholder(tf.float64, [2])
        f1, update = M.f1_score(tf.constant([True, False]), x)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"predictions must be in \[0, 1\]"):
                sess.run(update, {x: [0.5, 1.5]})
