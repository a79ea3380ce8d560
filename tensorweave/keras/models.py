"""`tf.keras.models`: `Model`, `Sequential`."""

from .engine.sequential import Sequential
from .engine.training import Model

__all__ = ["Model", "Sequential"]
