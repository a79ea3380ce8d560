"""`tf.contrib.tensor_forest`: online random forests (TF 1.15's TensorForest V4), the graph builders
in `tf.contrib.tensor_forest.python.tensor_forest` and the estimator in
`tf.contrib.tensor_forest.client.random_forest` (loaded when first used)."""

import importlib as _importlib

from . import python
from .python import tensor_forest

__all__ = ["client", "python", "tensor_forest"]


def __getattr__(name):
    if name == "client":
        return _importlib.import_module(".client", __name__)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
