"""`tf.random.experimental`: seed splitting and folding, index shuffling (defined in `ops.random_stateless_ops`,
`ops.random_index_shuffle_ops`)."""

from .ops.random_index_shuffle_ops import index_shuffle
from .ops.random_stateless_ops import stateless_fold_in, stateless_shuffle, stateless_split
from .random_generator import Algorithm, Generator, create_rng_state, get_global_generator, set_global_generator

__all__ = ["Algorithm", "Generator", "create_rng_state", "get_global_generator", "index_shuffle",
           "set_global_generator", "stateless_fold_in", "stateless_shuffle", "stateless_split"]
