"""`tf.random`: TF 1.15's names for the random ops (each defined once in `ops.random_ops`)."""

from .ops.random_ops import get_seed, multinomial, set_random_seed, truncated_normal
from .ops.random_ops import random_normal as normal
from .ops.random_ops import random_shuffle as shuffle
from .ops.random_ops import random_uniform as uniform

__all__ = ["categorical", "get_seed", "multinomial", "normal", "set_random_seed", "shuffle", "truncated_normal",
           "uniform"]


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
