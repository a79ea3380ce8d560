"""`tf.contrib.tensor_forest.python`: holds the `tensor_forest` module (TF's import path)."""

from . import tensor_forest

__all__ = ["tensor_forest"]
