"""TF 1.x's canned estimators (`tf.estimator.DNNClassifier`, `LinearRegressor`, ...)."""

from ._common import WarmStartSettings
from .baseline import BaselineClassifier, BaselineRegressor
from .boosted_trees import BoostedTreesClassifier, BoostedTreesRegressor
from .dnn import DNNClassifier, DNNRegressor
from .dnn_linear_combined import DNNLinearCombinedClassifier, DNNLinearCombinedRegressor
from .linear import LinearClassifier, LinearRegressor

__all__ = ["BaselineClassifier", "BaselineRegressor", "BoostedTreesClassifier", "BoostedTreesRegressor",
           "DNNClassifier", "DNNLinearCombinedClassifier",
           "DNNLinearCombinedRegressor", "DNNRegressor", "LinearClassifier", "LinearRegressor", "WarmStartSettings"]
