"""`tf.random`: TF 1.15's names for the random ops (each defined once in `ops.random_ops`)."""

from . import random_experimental_ns as experimental
from .ops.candidate_sampling_ops import (
    all_candidate_sampler,
    fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler,
    uniform_candidate_sampler,
)
from .ops.random_gamma_ops import random_gamma as gamma
from .ops.random_gamma_ops import random_poisson as poisson
from .ops.random_ops import get_seed, multinomial, set_random_seed, truncated_normal
from .ops.random_ops import random_normal as normal
from .ops.random_ops import random_shuffle as shuffle
from .ops.random_ops import random_uniform as uniform
from .ops.random_stateless_ops import stateless_fold_in as fold_in
from .ops.random_stateless_ops import stateless_random_binomial as stateless_binomial
from .ops.random_stateless_ops import stateless_random_gamma as stateless_gamma
from .ops.random_stateless_ops import stateless_random_normal as stateless_normal
from .ops.random_stateless_ops import stateless_random_poisson as stateless_poisson
from .ops.random_stateless_ops import stateless_random_uniform as stateless_uniform
from .ops.random_stateless_ops import stateless_split as split
from .ops.random_stateless_ops import stateless_truncated_normal
from .random_generator import Algorithm, Generator, create_rng_state, get_global_generator, set_global_generator

__all__ = ["Algorithm", "Generator", "all_candidate_sampler", "categorical", "create_rng_state", "experimental",
           "fixed_unigram_candidate_sampler", "fold_in", "gamma", "get_global_generator", "get_seed",
           "learned_unigram_candidate_sampler", "log_uniform_candidate_sampler", "multinomial", "normal", "poisson",
           "set_global_generator", "set_random_seed", "shuffle", "split", "stateless_binomial", "stateless_gamma",
           "stateless_normal", "stateless_poisson", "stateless_truncated_normal", "stateless_uniform",
           "truncated_normal", "uniform", "uniform_candidate_sampler"]


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Draws samples from a categorical distribution (`tf.random.categorical`).

    Args:
      logits: 2-D Tensor `[batch_size, num_classes]` of unnormalized log-probabilities.
      num_samples: 0-D. The number of samples drawn for each row.
      dtype: The integer type of the output: `int32` or `int64` (default).
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: Optional name for the operation (default "categorical").

    Returns:
      The drawn class indices, shape `[batch_size, num_samples]`.

    Raises:
      TypeError: If `dtype` is not int32 or int64.
    """
    return multinomial(logits, num_samples, seed=seed, name=name or "categorical", output_dtype=dtype)
