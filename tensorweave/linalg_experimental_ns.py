"""`tf.linalg.experimental`: the conjugate gradient solver (defined in `linalg_operators.cg`)."""

from .linalg_operators.cg import conjugate_gradient

__all__ = ["conjugate_gradient"]
