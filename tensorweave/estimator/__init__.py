"""`tf.estimator`: the high-level Estimator training API (TF 1.x)."""

from . import export, inputs
from .estimator import Estimator
from .model_fn import EstimatorSpec, ModeKeys
from .run_config import RunConfig

__all__ = ["Estimator", "EstimatorSpec", "ModeKeys", "RunConfig", "export", "inputs"]

# canned estimators, train_and_evaluate, exporters and pandas_input_fn (issue 19, item 5)
from . import canned, experimental, exporter, training  # noqa: E402
from ..train import (CheckpointSaverHook, CheckpointSaverListener, FeedFnHook, FinalOpsHook,  # noqa: E402
                     GlobalStepWaiterHook, LoggingTensorHook, NanLossDuringTrainingError, NanTensorHook, ProfilerHook,
                     SecondOrStepTimer, SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues,
                     StepCounterHook, StopAtStepHook, SummarySaverHook, VocabInfo)
from .canned import (BaselineClassifier, BaselineRegressor, BoostedTreesClassifier,  # noqa: E402
                     BoostedTreesRegressor, DNNClassifier, DNNLinearCombinedClassifier,
                     DNNLinearCombinedRegressor, DNNRegressor, LinearClassifier, LinearRegressor, WarmStartSettings)
from .canned.parsing_utils import classifier_parse_example_spec, regressor_parse_example_spec  # noqa: E402
from .exporter import BestExporter, Exporter, FinalExporter, LatestExporter  # noqa: E402
from .extenders import add_metrics  # noqa: E402
from .pandas_io import pandas_input_fn as _pandas_input_fn  # noqa: E402
from .training import EvalSpec, TrainSpec, train_and_evaluate  # noqa: E402

inputs.pandas_input_fn = _pandas_input_fn
__all__ += ["BaselineClassifier", "BaselineRegressor", "BestExporter", "BoostedTreesClassifier",
            "BoostedTreesRegressor", "CheckpointSaverHook", "CheckpointSaverListener",
            "DNNClassifier", "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor", "DNNRegressor", "EvalSpec",
            "Exporter", "FeedFnHook", "FinalExporter", "FinalOpsHook", "GlobalStepWaiterHook", "LatestExporter",
            "LinearClassifier", "LinearRegressor", "LoggingTensorHook", "NanLossDuringTrainingError", "NanTensorHook",
            "ProfilerHook", "SecondOrStepTimer", "SessionRunArgs", "SessionRunContext", "SessionRunHook",
            "SessionRunValues", "StepCounterHook", "StopAtStepHook", "SummarySaverHook", "TrainSpec", "VocabInfo",
            "WarmStartSettings", "add_metrics", "classifier_parse_example_spec", "experimental",
            "regressor_parse_example_spec", "train_and_evaluate"]
