"""`tf.nn.experimental`: dropout with a stateless or given sampler (defined in `ops.random_stateless_ops`)."""

from ..ops.random_stateless_ops import general_dropout, stateless_dropout

__all__ = ["general_dropout", "stateless_dropout"]
