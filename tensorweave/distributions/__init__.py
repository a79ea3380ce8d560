"""`tf.distributions`: probability distributions with TF 1.x's formulas (the module TF 1.x kept before
TensorFlow Probability), and their KL divergences."""

from .distribution import (FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Distribution, RegisterKL,
                           ReparameterizationType, kl_divergence)
from .multivariate import Dirichlet, DirichletMultinomial, Multinomial
from .univariate import Bernoulli, Beta, Categorical, Exponential, Gamma, Laplace, Normal, StudentT, Uniform

__all__ = ["Bernoulli", "Beta", "Categorical", "Dirichlet", "DirichletMultinomial", "Distribution", "Exponential",
           "FULLY_REPARAMETERIZED", "Gamma", "Laplace", "Multinomial", "NOT_REPARAMETERIZED", "Normal", "RegisterKL",
           "ReparameterizationType", "StudentT", "Uniform", "kl_divergence"]
