"""`tf.contrib.tensor_forest`: online random forests (TF 1.15's TensorForest V4), the graph builders
in `tf.contrib.tensor_forest.python.tensor_forest`."""

from . import python
from .python import tensor_forest

__all__ = ["python", "tensor_forest"]
