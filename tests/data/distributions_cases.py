"""tf.distributions cases shared by tests/data/make_distributions_goldens.py (run with TensorFlow) and
tests/distributions/test_distributions.py (run with tensorweave): the builders take the `tf` module, so the same
distributions are recorded with TensorFlow and checked with tensorweave."""

VALUE_METHODS = ("log_prob", "prob", "cdf", "log_cdf", "survival_function", "log_survival_function")
METHODS = VALUE_METHODS + ("entropy", "mean", "mode", "stddev", "variance", "covariance")


def dists(tf):
    """{name: (make, x)}: make() builds the distribution, x is a value for the VALUE_METHODS."""
    tfd = tf.distributions
    return {
        "Normal": (lambda: tfd.Normal(loc=[0.0, 1.0, -2.0], scale=[1.0, 0.5, 3.0]), [0.3, -1.0, 2.5]),
        "Uniform": (lambda: tfd.Uniform(low=[0.0, -1.0, 2.0], high=[1.0, 3.0, 2.5]), [0.5, 3.5, 2.1]),
        "Bernoulli": (lambda: tfd.Bernoulli(probs=[0.2, 0.5, 0.9]), [1, 0, 1]),
        "BernoulliLogits": (lambda: tfd.Bernoulli(logits=[-1.0, 0.0, 2.0]), [0, 1, 1]),
        "Categorical": (lambda: tfd.Categorical(logits=[[0.0, 1.0, 2.0], [1.0, 1.0, -1.0]]), [2, 0]),
        "CategoricalProbs": (lambda: tfd.Categorical(probs=[[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]]), [1, 2]),
        "Exponential": (lambda: tfd.Exponential(rate=[0.5, 1.0, 4.0]), [1.0, 0.2, 3.0]),
        "Gamma": (lambda: tfd.Gamma(concentration=[0.5, 2.0, 5.0], rate=[1.0, 2.0, 0.5]), [0.7, 1.5, 9.0]),
        "Beta": (lambda: tfd.Beta(concentration1=[0.5, 2.0, 5.0], concentration0=[0.5, 3.0, 1.5]), [0.3, 0.5, 0.9]),
        "Laplace": (lambda: tfd.Laplace(loc=[0.0, 1.0, -2.0], scale=[1.0, 0.5, 3.0]), [0.3, -1.0, 2.5]),
        "StudentT": (lambda: tfd.StudentT(df=[1.5, 3.0, 10.0], loc=[0.0, 1.0, -2.0], scale=[1.0, 0.5, 3.0]),
                     [0.3, -1.0, 2.5]),
        "Dirichlet": (lambda: tfd.Dirichlet([[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]]),
                      [[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]]),
        "Multinomial": (lambda: tfd.Multinomial(total_count=[4.0, 5.0], probs=[[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]]),
                        [[1.0, 1.0, 2.0], [3.0, 2.0, 0.0]]),
        "DirichletMultinomial": (lambda: tfd.DirichletMultinomial(total_count=[4.0, 5.0],
                                                                  concentration=[[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]]),
                                 [[1.0, 1.0, 2.0], [3.0, 2.0, 0.0]]),
    }


def kl_pairs(tf):
    """{name: (make_a, make_b)}: the pairs whose KL divergence is compared."""
    tfd = tf.distributions
    return {
        "Normal": (lambda: tfd.Normal([0.0, 1.0], [1.0, 2.0]), lambda: tfd.Normal([1.0, -1.0], [0.5, 1.0])),
        "Bernoulli": (lambda: tfd.Bernoulli(probs=[0.2, 0.7]), lambda: tfd.Bernoulli(probs=[0.5, 0.1])),
        "Categorical": (lambda: tfd.Categorical(logits=[[0.0, 1.0, 2.0]]),
                        lambda: tfd.Categorical(logits=[[1.0, 0.0, -1.0]])),
        "Beta": (lambda: tfd.Beta([1.0, 2.0], [2.0, 3.0]), lambda: tfd.Beta([3.0, 0.5], [1.0, 0.5])),
        "Gamma": (lambda: tfd.Gamma([1.0, 2.0], [2.0, 3.0]), lambda: tfd.Gamma([3.0, 0.5], [1.0, 0.5])),
        "Dirichlet": (lambda: tfd.Dirichlet([[1.0, 2.0, 3.0]]), lambda: tfd.Dirichlet([[2.0, 2.0, 0.5]])),
        "Exponential": (lambda: tfd.Exponential([1.0, 2.0]), lambda: tfd.Exponential([3.0, 0.5])),
    }
