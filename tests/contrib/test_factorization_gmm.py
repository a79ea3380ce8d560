"""`tf.contrib.factorization.GMM` (TF 1.15 semantics; TF 2.21 has no contrib): one EM iteration of the
estimator against a NumPy re-implementation of TF 1.15's `gmm_ops` updates (full and diagonal
covariances), recovery of well separated blobs, predictions, scores and the error paths."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib.factorization import GMM

MIN_VAR = 1e-3


def _blobs(seed=0, n=60):
    rng = np.random.RandomState(seed)
    means = np.array([[0.0, 0.0], [8.0, 8.0], [-8.0, 8.0]])
    labels = np.repeat(np.arange(3), n)
    pts = means[labels] + rng.randn(3 * n, 2) * np.array([0.5, 0.8])
    return pts.astype(np.float32), means, labels


def _np_em_step(x, means, covs, alpha, full):
    """One EM iteration as TF 1.15's gmm_ops (covariances regularized by 1e-3 on the diagonal)."""
    x = x.astype(np.float64)
    n, d = x.shape
    k = len(means)
    logp = np.zeros([n, k])
    for j in range(k):
        diff = x - means[j]
        if full:
            c = covs[j] + MIN_VAR * np.eye(d)
            logp[:, j] = -0.5 * (d * np.log(2 * np.pi) + np.linalg.slogdet(c)[1]
                                 + np.einsum("ni,ij,nj->n", diff, np.linalg.inv(c), diff))
        else:
            c = covs[j] + MIN_VAR
            logp[:, j] = -0.5 * (d * np.log(2 * np.pi) + np.log(c).sum() + (diff ** 2 / c).sum(1))
    logp += np.log(alpha)
    w = np.exp(logp - logp.max(1, keepdims=True))
    w /= w.sum(1, keepdims=True)
    nk = w.sum(0)
    new_alpha = nk / nk.sum()
    new_means = w.T @ x / nk[:, None]
    new_covs = []
    for j in range(k):
        c = (w[:, j, None] * x).T @ x / nk[j] - np.outer(new_means[j], new_means[j]) + MIN_VAR * np.eye(d)
        new_covs.append(c if full else np.diag(c))
    return new_alpha, new_means, np.array(new_covs), w.argmax(1)


def _input_fn(x):
    return lambda: tf.constant(x)


@pytest.mark.parametrize("covariance_type", ["full", "diag"])
def test_one_em_step_matches_numpy(tmp_path, covariance_type):
    x, _, _ = _blobs(n=20)
    init = x[[0, 25, 50]] + 0.5
    gmm = GMM(3, model_dir=str(tmp_path), initial_clusters=init, covariance_type=covariance_type)
    gmm.train(_input_fn(x), steps=1)
    full = covariance_type == "full"
    cov0 = np.cov(x.astype(np.float64), rowvar=False) + MIN_VAR * np.eye(2)
    covs0 = np.stack([cov0 if full else np.diag(cov0)] * 3)
    alpha, means, covs, _ = _np_em_step(x, init.astype(np.float64), covs0, np.full(3, 1 / 3), full)
    np.testing.assert_allclose(gmm.weights(), alpha, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(gmm.clusters(), means, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gmm.covariances(), covs, rtol=1e-3, atol=1e-4)
    assert gmm.covariances().shape == ((3, 2, 2) if full else (3, 2))


def test_recovers_separated_blobs(tmp_path):
    x, true_means, labels = _blobs(seed=1)
    gmm = GMM(3, model_dir=str(tmp_path), initial_clusters=true_means + 1.0, random_seed=2)
    gmm.train(_input_fn(x), steps=10)
    clusters = gmm.clusters()
    order = np.argmin(((clusters[:, None] - true_means[None]) ** 2).sum(-1), 0)
    assert sorted(order) == [0, 1, 2]
    for j in range(3):  # the EM optimum is the sample mean of each blob
        np.testing.assert_allclose(clusters[order[j]], x[labels == j].mean(0), atol=1e-2)
        np.testing.assert_allclose(np.diag(gmm.covariances()[order[j]]),
                                   x[labels == j].var(0) + MIN_VAR, rtol=2e-2)
    np.testing.assert_allclose(gmm.weights(), np.full(3, 1 / 3), atol=1e-3)
    assignments = np.array(list(gmm.predict_assignments(_input_fn(x))))
    np.testing.assert_array_equal(assignments, order[labels])
    score = gmm.score(_input_fn(x), steps=2)  # the summed TF loss of two identical batches
    assert np.isfinite(score)
    assert gmm.score(_input_fn(x), steps=1) == pytest.approx(score / 2, rel=1e-5)


def test_params_restrict_training_and_dict_features(tmp_path):
    x, _, _ = _blobs(n=20)
    init = x[[0, 25, 50]]
    gmm = GMM(3, model_dir=str(tmp_path), initial_clusters=init, params="w", covariance_type="diag")
    gmm.train(lambda: {"b": tf.constant(x[:, 1:]), "a": tf.constant(x[:, :1])}, steps=2)
    np.testing.assert_allclose(gmm.clusters(), init, rtol=1e-6)
    cov0 = np.var(x.astype(np.float64), 0, ddof=1) + MIN_VAR
    np.testing.assert_allclose(gmm.covariances(), np.stack([cov0] * 3), rtol=1e-4)
    assert abs(gmm.weights().sum() - 1.0) < 1e-5


def test_error_paths(tmp_path):
    with pytest.raises(ValueError, match="covariance_type must be 'full' or 'diag', got 'spherical'"):
        GMM(2, covariance_type="spherical")
    with pytest.raises(ValueError, match="params may only contain 'w', 'm' and 'c', got 'wx'"):
        GMM(2, params="wx")
    gmm = GMM(2, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="GMM takes no labels"):
        gmm.train(lambda: (tf.constant(np.zeros([4, 2], np.float32)), tf.constant([0, 1, 0, 1])), steps=1)
