"""`tf.contrib.factorization` k-means (TF 1.15 semantics; TF 2.21 has no contrib): the Lloyd and
mini-batch updates against NumPy re-implementations of TF 1.15's `clustering_ops.py` rules, the
k-means++ seeding on well separated data, the `KMeansClustering` estimator, and the TensorFlow-Examples
`kmeans.py` program (its TF code unchanged) on scikit-learn's digits instead of the MNIST download."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib.factorization import KMeans, KMeansClustering


def _blobs(seed=0, n=40):
    rng = np.random.RandomState(seed)
    centers = np.array([[0.0, 0.0], [10.0, 10.0], [-10.0, 10.0]])
    return np.concatenate([rng.randn(n, 2) + c for c in centers]).astype(np.float32), centers


def _nearest(pts, c):
    d = ((pts[:, None, :] - c[None, :, :]) ** 2).sum(-1)
    return d.argmin(1), d


def test_full_batch_lloyd_matches_numpy():
    pts, _ = _blobs()
    init = pts[[0, 1, 2]].copy()  # a bad start: all three in one blob
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [None, 2])
        km = KMeans(x, 3, initial_clusters=init)
        all_scores, idx, scores, inited, init_op, train_op = km.training_graph()
        assert [v.op.name for v in tf.global_variables()] == ["clusters", "initialized"]
        sess.run(tf.global_variables_initializer())
        assert not sess.run(inited)
        sess.run(init_op, {x: pts})
        assert sess.run(inited)
        c = init.astype(np.float64)
        for _ in range(4):
            i_ref, d_ref = _nearest(pts, c)
            a, i, s = sess.run([all_scores[0], idx[0], scores[0]], {x: pts})
            np.testing.assert_array_equal(i, i_ref)
            np.testing.assert_allclose(a, d_ref, rtol=1e-4, atol=1e-3)
            np.testing.assert_allclose(s, d_ref.min(1), rtol=1e-4, atol=1e-3)
            sess.run(train_op, {x: pts})
            counts = np.bincount(i_ref, minlength=3)[:, None]
            sums = np.stack([pts[i_ref == k].sum(0) for k in range(3)])
            c = sums / (counts + 1e-6)
            np.testing.assert_allclose(sess.run(tf.global_variables()[0]), c, rtol=1e-5)


def test_mini_batch_update_rule_matches_numpy():
    pts, _ = _blobs(1)
    init = pts[[0, 45, 90]].copy()
    batches = [pts[:60], pts[60:]]
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [None, 2])
        _, idx, _, _, init_op, train_op = KMeans(x, 3, initial_clusters=init, use_mini_batch=True).training_graph()
        clusters = [v for v in tf.global_variables() if v.op.name == "clusters"][0]
        sess.run(tf.global_variables_initializer())
        sess.run(init_op, {x: pts})
        c, n = init.astype(np.float64), np.ones(3)  # TF starts the counts at 1
        for step in range(4):
            b = batches[step % 2]
            i_ref, _ = _nearest(b, c)
            sess.run(train_op, {x: b})
            for k in np.unique(i_ref):
                m = (i_ref == k).sum()
                c[k] += (b[i_ref == k].sum(0) - m * c[k]) / (n[k] + m)
                n[k] += m
            np.testing.assert_allclose(sess.run(clusters), c, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("init", ["random", "kmeans_plus_plus"])
@pytest.mark.parametrize("metric", ["squared_euclidean", "cosine"])
@pytest.mark.parametrize("mini_batch", [False, True])
def test_recovers_blobs(init, metric, mini_batch):
    pts, centers = _blobs(2)
    if metric == "cosine":  # directions at 0, 120 and 240 degrees
        ang = np.repeat([0.0, 2.1, 4.2], 40) + np.random.RandomState(0).randn(120) * 0.05
        pts = (np.stack([np.cos(ang), np.sin(ang)], 1) * np.linspace(1, 5, 120)[:, None]).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [None, 2])
        out = KMeans(x, 3, initial_clusters=init, distance_metric=metric, use_mini_batch=mini_batch,
                     mini_batch_steps_per_iteration=2 if mini_batch else 1, random_seed=3).training_graph()
        _, idx, scores, inited, init_op, train_op = out
        sess.run(tf.global_variables_initializer())
        while not sess.run(inited):
            sess.run(init_op, {x: pts})
        for _ in range(20):
            sess.run(train_op, {x: pts})
        i = sess.run(idx[0], {x: pts})
    groups = [set(i[k * 40:(k + 1) * 40]) for k in range(3)]
    if init == "kmeans_plus_plus":  # random rows may start two centers in one group
        assert all(len(g) == 1 for g in groups) and len(set.union(*groups)) == 3
    assert len(set(i)) >= 2


def test_errors():
    x = tf.zeros([3, 2])
    with pytest.raises(ValueError, match="Unsupported initialization algorithm 'foo'"):
        KMeans(x, 2, initial_clusters="foo")
    with pytest.raises(ValueError, match="Unsupported distance metric 'l1'"):
        KMeans(x, 2, distance_metric="l1")
    with pytest.raises(ValueError, match="Unsupported distance metric"):
        KMeansClustering(2, distance_metric="l1")
    with tf.Graph().as_default(), tf.Session() as sess:
        p = tf.placeholder(tf.float32, [None, 2])
        _, _, _, _, init_op, _ = KMeans(p, 5, initial_clusters="kmeans_plus_plus").training_graph()
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(init_op, {p: np.zeros((3, 2), np.float32)})


def test_kmeans_clustering_estimator(tmp_path):
    pts, centers = _blobs(4)

    def input_fn():
        return tf.constant(pts), None

    km = KMeansClustering(num_clusters=3, model_dir=str(tmp_path), use_mini_batch=False,
                          initial_clusters=KMeansClustering.KMEANS_PLUS_PLUS_INIT, random_seed=1)
    km.train(input_fn, steps=2)
    assert km.get_variable_value("global_step") == 2
    km.train(input_fn, steps=3)
    c = km.cluster_centers()
    assert c.shape == (3, 2)
    order = [int(np.argmin(((c - t) ** 2).sum(1))) for t in centers]
    assert sorted(order) == [0, 1, 2]
    np.testing.assert_allclose(c[order], [pts[k * 40:(k + 1) * 40].mean(0) for k in range(3)], atol=1e-3)
    idx = np.array(list(km.predict_cluster_index(input_fn)))
    i_ref, d_ref = _nearest(pts, c.astype(np.float64))
    np.testing.assert_array_equal(idx, i_ref)
    score = km.score(input_fn)
    np.testing.assert_allclose(score, d_ref.min(1).sum(), rtol=1e-4)
    dist = np.array(list(km.transform(input_fn)))
    np.testing.assert_allclose(dist, d_ref, rtol=1e-4, atol=1e-3)


def test_tensorflow_examples_kmeans_program_on_digits():
    """aymericdamien/TensorFlow-Examples examples/2_BasicModels/kmeans.py: its TF code unchanged;
    MNIST (a download) replaced by scikit-learn's 8x8 digits, so num_features is 64."""
    datasets = pytest.importorskip("sklearn.datasets")
    digits = datasets.load_digits()
    full_data_x = (digits.data / 16.0).astype(np.float32)
    labels = np.eye(10)[digits.target]
    KMeansT = tf.contrib.factorization.KMeans
    with tf.Graph().as_default():
        num_steps = 50
        k = 25
        num_classes = 10
        num_features = 64
        X = tf.placeholder(tf.float32, shape=[None, num_features])
        Y = tf.placeholder(tf.float32, shape=[None, num_classes])
        kmeans = KMeansT(inputs=X, num_clusters=k, distance_metric='cosine', use_mini_batch=True)
        (all_scores, cluster_idx, scores, cluster_centers_initialized, init_op,
         train_op) = kmeans.training_graph()
        cluster_idx = cluster_idx[0]  # fix for cluster_idx being a tuple
        avg_distance = tf.reduce_mean(scores)
        init_vars = tf.global_variables_initializer()
        sess = tf.Session()
        sess.run(init_vars, feed_dict={X: full_data_x})
        sess.run(init_op, feed_dict={X: full_data_x})
        distances = []
        for i in range(1, num_steps + 1):
            _, d, idx = sess.run([train_op, avg_distance, cluster_idx], feed_dict={X: full_data_x})
            distances.append(d)
        counts = np.zeros(shape=(k, num_classes))
        for i in range(len(idx)):
            counts[idx[i]] += labels[i]
        labels_map = [np.argmax(c) for c in counts]
        labels_map = tf.convert_to_tensor(labels_map)
        cluster_label = tf.nn.embedding_lookup(labels_map, cluster_idx)
        correct_prediction = tf.equal(cluster_label, tf.cast(tf.argmax(Y, 1), tf.int32))
        accuracy_op = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
        accuracy = sess.run(accuracy_op, feed_dict={X: full_data_x, Y: labels})
    assert distances[-1] < distances[0]
    assert accuracy > 0.75, accuracy


def _gmm_np(x, means, covs, alpha, full):
    """One EM step of TF 1.15's gmm_ops, in float64 NumPy (1e-3 added to the covariance diagonal)."""
    from scipy.special import logsumexp
    k, d = means.shape[0], x.shape[1]
    meps = np.finfo(float).eps
    logp = np.zeros((x.shape[0], k))
    for j in range(k):
        diff = x - means[j]
        if full:
            c = covs[j] + 1e-3 * np.eye(d)
            maha = np.einsum("ni,ij,nj->n", diff, np.linalg.inv(c), diff)
            logp[:, j] = -0.5 * (maha + d * np.log(2 * np.pi) + np.linalg.slogdet(c)[1])
        else:
            c = covs[j] + 1e-3
            logp[:, j] = -0.5 * (d * np.log(2 * np.pi) + np.log(c).sum() + (diff ** 2 / c).sum(1))
    logp += np.log(alpha)
    prior = logsumexp(logp, axis=1, keepdims=True)
    w = np.exp(logp - prior)
    nk = w.sum(0)
    new_alpha = nk / (nk.sum() + meps)
    new_means = (w.T @ x) / (nk[:, None] + meps)
    new_covs = []
    for j in range(k):
        b = (w[:, j, None] * x).T @ x / (nk[j] + meps)
        c = b - np.outer(new_means[j], new_means[j]) + 1e-3 * np.eye(d)
        new_covs.append(c if full else np.diag(c))
    return new_means, np.array(new_covs), new_alpha, prior[:, 0], w.argmax(1), logsumexp(prior)


@pytest.mark.parametrize("cov_type", ["full", "diag"])
def test_gmm_em_steps_match_numpy(cov_type):
    from tensorweave.contrib.factorization import gmm
    pts, _ = _blobs(5, 30)
    init = pts[[0, 31, 62]].astype(np.float64)
    full = cov_type == "full"
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [None, 2])
        loss, scores, assignments, train_op, init_op, inited = gmm(x, init, 3, 0, covariance_type=cov_type)
        names = sorted(v.op.name for v in tf.global_variables())
        assert names == ["alphas", "clusters", "clusters_covs", "initialized"]
        sess.run(tf.global_variables_initializer())
        sess.run(init_op, {x: pts})
        assert sess.run(inited)
        xs = pts.astype(np.float64)
        cov0 = np.cov(xs.T) + 1e-3 * np.eye(2)
        means, covs, alpha = init, np.stack([cov0 if full else np.diag(cov0)] * 3), np.full(3, 1 / 3)
        for _ in range(3):
            new_means, new_covs, new_alpha, prior, assign, ll = _gmm_np(xs, means, covs, alpha, full)
            l_v, s_v, a_v = sess.run([loss, scores, assignments[0][0]], {x: pts})
            np.testing.assert_allclose(l_v, ll, rtol=1e-4)
            np.testing.assert_allclose(s_v[:, 0], prior, rtol=1e-4, atol=1e-4)
            np.testing.assert_array_equal(a_v, assign)
            sess.run(train_op, {x: pts})
            means, covs, alpha = new_means, new_covs, new_alpha
            m_v, c_v, al_v = sess.run(tf.global_variables()[:3])
            np.testing.assert_allclose(m_v[:, 0, :], means, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(c_v, covs, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(al_v, alpha, rtol=1e-4)
