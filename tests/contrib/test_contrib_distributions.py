"""`tf.contrib.distributions` multivariate normals (TF 1.15 semantics; TF 2.21 has no contrib and
tensorflow_probability is not installed): expected values from SciPy's `multivariate_normal` and the
closed-form Gaussian KL computed with NumPy."""

import numpy as np
import pytest
from scipy import stats

import tensorweave as tf
from tensorweave.contrib import distributions as ds


def _kl(mu_a, cov_a, mu_b, cov_b):
    k = len(mu_a)
    inv_b = np.linalg.inv(cov_b)
    d = mu_b - mu_a
    return 0.5 * (np.trace(inv_b @ cov_a) + d @ inv_b @ d - k + np.log(np.linalg.det(cov_b) / np.linalg.det(cov_a)))


LOC = np.array([1.0, -2.0, 0.5])
TRIL = np.array([[2.0, 0.0, 0.0], [0.5, 1.0, 0.0], [-0.3, 0.2, 0.7]])
DIAG = np.array([0.5, 1.5, 2.0])


def test_reexports():
    assert ds.Normal is tf.distributions.Normal and ds.kl_divergence is tf.distributions.kl_divergence
    assert tf.contrib.distributions.MultivariateNormalDiag is ds.MultivariateNormalDiag


def test_tril_log_prob_entropy_moments():
    x = np.array([[0.0, 0.0, 0.0], [1.0, -1.0, 2.0]])
    cov = TRIL @ TRIL.T
    with tf.Graph().as_default(), tf.Session() as sess:
        upper_junk = TRIL + np.triu(np.ones((3, 3)), 1) * 9.0  # ignored, as TF's band_part
        d = ds.MultivariateNormalTriL(LOC, upper_junk)
        assert d.batch_shape.as_list() == [] and d.event_shape.as_list() == [3]
        lp, ent, mean, c, sd, mode = sess.run([d.log_prob(x), d.entropy(), d.mean(), d.covariance(), d.stddev(),
                                               d.mode()])
        assert isinstance(d.scale, tf.linalg.LinearOperatorLowerTriangular)
    ref = stats.multivariate_normal(LOC, cov)
    np.testing.assert_allclose(lp, ref.logpdf(x), rtol=1e-5)
    np.testing.assert_allclose(ent, ref.entropy(), rtol=1e-5)
    np.testing.assert_allclose(mean, LOC)
    np.testing.assert_allclose(mode, LOC)
    np.testing.assert_allclose(c, cov, rtol=1e-6)
    np.testing.assert_allclose(sd, np.sqrt(np.diag(cov)), rtol=1e-6)


def test_diag_batch_and_identity_multiplier():
    loc = np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]])
    x = np.array([0.5, 0.5, 0.5])
    with tf.Graph().as_default(), tf.Session() as sess:
        d = ds.MultivariateNormalDiag(loc, DIAG, scale_identity_multiplier=0.5)
        e = ds.MultivariateNormalDiag(loc=loc[0], scale_identity_multiplier=2.0)
        f = ds.MultivariateNormalDiag(loc=loc[0])
        assert d.batch_shape.as_list() == [2] and d.event_shape.as_list() == [3]
        lp, sd, cov, lpe, lpf, ent = sess.run([d.log_prob(x), d.stddev(), d.covariance(), e.log_prob(x),
                                               f.log_prob(x), e.entropy()])
    diag = DIAG + 0.5
    for b in range(2):
        np.testing.assert_allclose(lp[b], stats.multivariate_normal(loc[b], np.diag(diag ** 2)).logpdf(x), rtol=1e-5)
    np.testing.assert_allclose(sd, np.tile(diag, (2, 1)), rtol=1e-6)
    np.testing.assert_allclose(cov, np.tile(np.diag(diag ** 2), (2, 1, 1)), rtol=1e-6)
    np.testing.assert_allclose(lpe, stats.multivariate_normal(loc[0], 4 * np.eye(3)).logpdf(x), rtol=1e-5)
    np.testing.assert_allclose(lpf, stats.multivariate_normal(loc[0], np.eye(3)).logpdf(x), rtol=1e-5)
    np.testing.assert_allclose(ent, stats.multivariate_normal(loc[0], 4 * np.eye(3)).entropy(), rtol=1e-5)


def test_full_covariance_and_kl():
    cov_a = TRIL @ TRIL.T
    cov_b = np.diag(DIAG ** 2)
    with tf.Graph().as_default(), tf.Session() as sess:
        a = ds.MultivariateNormalFullCovariance(LOC, cov_a)
        b = ds.MultivariateNormalDiag(np.zeros(3), DIAG)
        kl_ab, kl_ba, kl_aa, lp = sess.run([ds.kl_divergence(a, b), ds.kl_divergence(b, a), ds.kl_divergence(a, a),
                                            a.log_prob(np.ones(3))])
    np.testing.assert_allclose(kl_ab, _kl(LOC, cov_a, np.zeros(3), cov_b), rtol=1e-5)
    np.testing.assert_allclose(kl_ba, _kl(np.zeros(3), cov_b, LOC, cov_a), rtol=1e-5)
    np.testing.assert_allclose(kl_aa, 0.0, atol=1e-5)
    np.testing.assert_allclose(lp, stats.multivariate_normal(LOC, cov_a).logpdf(np.ones(3)), rtol=1e-5)


def test_sample_statistics_and_gradient():
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.set_random_seed(1)
        loc = tf.Variable(LOC)
        tril = tf.Variable(TRIL)
        d = ds.MultivariateNormalTriL(loc, tril)
        s = d.sample(20000, seed=3)
        assert s.dtype == tf.float64
        lp = tf.reduce_sum(d.log_prob(np.array([[0.0, 1.0, 0.0]])))
        g_loc, g_tril = tf.gradients(lp, [loc, tril])
        sess.run(tf.global_variables_initializer())
        sv, gl, gt = sess.run([s, g_loc, g_tril])
    assert sv.shape == (20000, 3)
    np.testing.assert_allclose(sv.mean(0), LOC, atol=0.05)
    np.testing.assert_allclose(np.cov(sv.T), TRIL @ TRIL.T, atol=0.1)
    x = np.array([0.0, 1.0, 0.0])

    def f(mu, lt):
        return stats.multivariate_normal(mu, lt @ lt.T).logpdf(x)

    eps = 1e-6
    num_loc = [(f(LOC + eps * e, TRIL) - f(LOC - eps * e, TRIL)) / (2 * eps) for e in np.eye(3)]
    np.testing.assert_allclose(gl, num_loc, rtol=1e-5)
    num_tril = np.zeros((3, 3))
    for i in range(3):
        for j in range(i + 1):
            e = np.zeros((3, 3))
            e[i, j] = eps
            num_tril[i, j] = (f(LOC, TRIL + e) - f(LOC, TRIL - e)) / (2 * eps)
    np.testing.assert_allclose(gt, num_tril, rtol=1e-5, atol=1e-8)


def test_errors():
    with pytest.raises(ValueError, match="Must specify one or both of `loc`, `scale_diag`"):
        ds.MultivariateNormalDiag()
    with pytest.raises(ValueError, match="Must specify one or both of `loc`, `scale_tril`"):
        ds.MultivariateNormalTriL()
    with tf.Graph().as_default(), tf.Session() as sess:
        d = ds.MultivariateNormalDiag([0.0, 0.0], [1.0, 0.0], validate_args=True)
        with pytest.raises(tf.errors.InvalidArgumentError, match="diagonal contained zero values"):
            sess.run(d.log_prob([0.0, 0.0]))


def test_softplus_scale_variants():
    with tf.Graph().as_default(), tf.Session() as sess:
        n = ds.NormalWithSoftplusScale(1.0, -0.5)
        m = ds.MultivariateNormalDiagWithSoftplusScale([0.0, 1.0], [0.3, -1.0])
        sd, lp = sess.run([n.stddev(), m.log_prob([0.5, 0.5])])
    sp = np.log1p(np.exp([-0.5, 0.3, -1.0]))
    np.testing.assert_allclose(sd, sp[0], rtol=1e-6)
    np.testing.assert_allclose(lp, stats.multivariate_normal([0.0, 1.0], np.diag(sp[1:] ** 2)).logpdf([0.5, 0.5]),
                               rtol=1e-5)


def test_one_hot_categorical():
    logits = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
    p = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    with tf.Graph().as_default(), tf.Session() as sess:
        d = ds.OneHotCategorical(logits=logits)
        e = ds.OneHotCategorical(probs=p[::-1].copy())
        assert d.batch_shape.as_list() == [2] and d.event_shape.as_list() == [3]
        s = d.sample(4000, seed=1)
        lp, ent, mode, cov, kl, sv = sess.run([d.log_prob([[0, 1, 0], [0, 0, 1]]), d.entropy(), d.mode(),
                                               d.covariance(), ds.kl_divergence(d, e), s])
    np.testing.assert_allclose(lp, np.log([p[0, 1], p[1, 2]]), rtol=1e-6)
    np.testing.assert_allclose(ent, [stats.entropy(r) for r in p], rtol=1e-6)
    np.testing.assert_array_equal(mode, [[0, 1, 0], [0, 0, 1]])
    np.testing.assert_allclose(cov[0], np.diag(p[0]) - np.outer(p[0], p[0]), rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(kl, [stats.entropy(p[i], p[::-1][i]) for i in range(2)], rtol=1e-6)
    assert sv.shape == (4000, 2, 3) and sv.dtype == np.int32 and (sv.sum(-1) == 1).all()
    np.testing.assert_allclose(sv.mean(0), p, atol=0.03)


def test_poisson():
    x = np.array([0.0, 1.0, 2.5, 4.0, -1.0])
    with tf.Graph().as_default(), tf.Session() as sess:
        d = ds.Poisson(rate=2.0)
        e = ds.Poisson(log_rate=np.log([1.5, 3.0]))
        lp, cdf, mean, mode, lpe, sv = sess.run([d.log_prob(x), d.cdf(x), d.mean(), d.mode(), e.log_prob(2.0),
                                                 d.sample(20000, seed=2)])
    from scipy import special
    ref = np.where(x >= 0, x * np.log(2.0) - special.gammaln(np.maximum(x, 0) + 1) - 2.0, -np.inf)
    np.testing.assert_allclose(lp, ref, rtol=1e-6)
    # TF 1.15 interpolates non-integer points (interpolate_nondiscrete): igammac(1 + x, rate).
    np.testing.assert_allclose(cdf, np.where(x < 0, 0, special.gammaincc(1 + np.maximum(x, 0), 2.0)), rtol=1e-5)
    np.testing.assert_allclose(cdf[[0, 1, 3]], stats.poisson.cdf([0, 1, 4], 2.0), rtol=1e-5)
    assert mean == 2.0 and mode == 2.0
    np.testing.assert_allclose(lpe, stats.poisson.logpmf(2, [1.5, 3.0]), rtol=1e-5)
    assert abs(sv.mean() - 2.0) < 0.05
    with pytest.raises(ValueError, match="Must specify exactly one of `rate` and `log_rate`"):
        ds.Poisson()


def test_logistic():
    x = np.array([-3.0, 0.0, 0.7, 5.0])
    with tf.Graph().as_default(), tf.Session() as sess:
        d = ds.Logistic(loc=0.5, scale=1.5)
        lp, cdf, lcdf, sf, ent, sd, sv = sess.run([d.log_prob(x), d.cdf(x), d.log_cdf(x), d.survival_function(x),
                                                   d.entropy(), d.stddev(), d.sample(20000, seed=3)])
    ref = stats.logistic(0.5, 1.5)
    np.testing.assert_allclose(lp, ref.logpdf(x), rtol=1e-5)
    np.testing.assert_allclose(cdf, ref.cdf(x), rtol=1e-5)
    np.testing.assert_allclose(lcdf, ref.logcdf(x), rtol=1e-5)
    np.testing.assert_allclose(sf, ref.sf(x), rtol=1e-5)
    np.testing.assert_allclose(ent, ref.entropy(), rtol=1e-5)
    np.testing.assert_allclose(sd, ref.std(), rtol=1e-5)
    assert abs(sv.mean() - 0.5) < 0.1 and abs(sv.std() - ref.std()) < 0.1


def _concrete_logpdf(y, pi, tau):
    """Maddison et al.'s Concrete density (an independent form of TF's formula)."""
    from scipy import special
    k = len(pi)
    return (special.gammaln(k) + (k - 1) * np.log(tau) + np.sum(np.log(pi) - (tau + 1) * np.log(y))
            - k * np.log(np.sum(pi * y ** (-tau))))


def test_relaxed_one_hot_categorical():
    logits = np.array([[0.5, -1.0, 2.0], [1.0, 1.0, 0.0]])
    pi = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    y = np.array([[0.2, 0.1, 0.7], [0.5, 0.3, 0.2]])
    with tf.Graph().as_default(), tf.Session() as sess:
        d = ds.RelaxedOneHotCategorical(0.7, logits=logits)
        e = ds.ExpRelaxedOneHotCategorical(0.7, logits=logits)
        lp, lpe, sv = sess.run([d.log_prob(y), e.log_prob(np.log(y)), d.sample(5000, seed=4)])
    ref = [_concrete_logpdf(y[i], pi[i], 0.7) for i in range(2)]
    np.testing.assert_allclose(lp, ref, rtol=1e-6)
    np.testing.assert_allclose(lpe, ref + np.log(y).sum(1), rtol=1e-6)  # density of log y: + log-Jacobian
    assert sv.shape == (5000, 2, 3)
    np.testing.assert_allclose(sv.sum(-1), 1.0, rtol=1e-6)
    # argmax of a Gumbel-softmax sample is categorical(pi)
    freq = np.stack([np.bincount(sv[:, i].argmax(-1), minlength=3) / 5000.0 for i in range(2)])
    np.testing.assert_allclose(freq, pi, atol=0.03)


def test_relaxed_bernoulli():
    y = np.array([0.1, 0.5, 0.8])
    with tf.Graph().as_default(), tf.Session() as sess:
        d = ds.RelaxedBernoulli(0.5, probs=0.3)
        lp, sv = sess.run([d.log_prob(y), d.sample(20000, seed=5)])
    # Binary Concrete density (Maddison et al.): t a y^(-t-1) (1-y)^(-t-1) / (a y^-t + (1-y)^-t)^2, a = p/(1-p).
    a, t = 0.3 / 0.7, 0.5
    ref = np.log(t * a * y ** (-t - 1) * (1 - y) ** (-t - 1) / (a * y ** (-t) + (1 - y) ** (-t)) ** 2)
    np.testing.assert_allclose(lp, ref, rtol=1e-5)
    assert ((sv >= 0) & (sv <= 1)).all()  # float32 sigmoid saturates at low temperature, as in TF
    assert abs((sv > 0.5).mean() - 0.3) < 0.02


def test_independent():
    loc = np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]])
    x = np.array([0.5, 0.2, 1.0])
    with tf.Graph().as_default(), tf.Session() as sess:
        n = tf.distributions.Normal(loc, 2.0 * np.ones_like(loc))
        d = ds.Independent(n)  # reinterprets the last batch dimension
        assert d.batch_shape.as_list() == [2] and d.event_shape.as_list() == [3]
        lp, ent, s = sess.run([d.log_prob(x), d.entropy(), d.sample(7, seed=1)])
        assert s.shape == (7, 2, 3)
    np.testing.assert_allclose(lp, stats.norm(loc, 2.0).logpdf(x).sum(1), rtol=1e-12)
    np.testing.assert_allclose(ent, np.full(2, 3 * stats.norm(0, 2.0).entropy()), rtol=1e-12)
    with pytest.raises(ValueError, match="cannot exceed"):
        ds.Independent(n, 3)


def test_mixture_same_family():
    w = np.array([0.2, 0.5, 0.3])
    mu = np.array([-2.0, 0.0, 3.0])
    sd = np.array([0.5, 1.0, 2.0])
    x = np.array([-2.5, 0.1, 4.0])
    with tf.Graph().as_default(), tf.Session() as sess:
        m = ds.MixtureSameFamily(tf.distributions.Categorical(probs=w), tf.distributions.Normal(mu, sd))
        assert m.batch_shape.as_list() == [] and m.event_shape.as_list() == []
        mv = ds.MixtureSameFamily(tf.distributions.Categorical(logits=np.log(w)),
                                  ds.MultivariateNormalDiag(np.stack([mu, -mu], 1), np.stack([sd, sd], 1)))
        assert mv.event_shape.as_list() == [2]
        lp, cdf, mean, var, s, lpv, meanv = sess.run([
            m.log_prob(x), m.cdf(x), m.mean(), m.variance(), m.sample(40000, seed=7),
            mv.log_prob([[0.0, 0.0], [1.0, -2.0]]), mv.mean()])
    ref_pdf = sum(w[i] * stats.norm(mu[i], sd[i]).pdf(x) for i in range(3))
    np.testing.assert_allclose(lp, np.log(ref_pdf), rtol=1e-12)
    np.testing.assert_allclose(cdf, sum(w[i] * stats.norm(mu[i], sd[i]).cdf(x) for i in range(3)), rtol=1e-10)
    ref_mean = (w * mu).sum()
    np.testing.assert_allclose(mean, ref_mean, rtol=1e-12)
    np.testing.assert_allclose(var, (w * (sd ** 2 + mu ** 2)).sum() - ref_mean ** 2, rtol=1e-12)
    assert abs(s.mean() - ref_mean) < 0.05 and abs(s.var() - var) < 0.15
    pts = np.array([[0.0, 0.0], [1.0, -2.0]])
    ref_v = [np.log(sum(w[i] * stats.multivariate_normal([mu[i], -mu[i]], np.diag([sd[i] ** 2] * 2)).pdf(p)
                        for i in range(3))) for p in pts]
    np.testing.assert_allclose(lpv, ref_v, rtol=1e-10)
    np.testing.assert_allclose(meanv, [ref_mean, -ref_mean], rtol=1e-12)
