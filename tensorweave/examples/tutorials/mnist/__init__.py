"""`tensorflow.examples.tutorials.mnist` (TF 1.x's module path): `input_data`."""

from . import input_data

__all__ = ["input_data"]
