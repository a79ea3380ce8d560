"""`tf.estimator`: the high-level Estimator training API (TF 1.x)."""

from . import export, inputs
from .estimator import Estimator
from .model_fn import EstimatorSpec, ModeKeys
from .run_config import RunConfig

__all__ = ["Estimator", "EstimatorSpec", "ModeKeys", "RunConfig", "export", "inputs"]
