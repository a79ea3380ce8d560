"""`tf.contrib.tensor_forest.client`: the `random_forest` estimator and the `eval_metrics` names."""

from . import eval_metrics, random_forest

__all__ = ["eval_metrics", "random_forest"]
