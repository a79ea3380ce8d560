"""`tf.train.experimental`: loss scaling for mixed-precision training."""

from .loss_scale import (
                         DynamicLossScale,
                         FixedLossScale,
                         LossScale,
                         MixedPrecisionLossScaleOptimizer,
                         disable_mixed_precision_graph_rewrite,
                         enable_mixed_precision_graph_rewrite,
)

__all__ = ["DynamicLossScale", "FixedLossScale", "LossScale", "MixedPrecisionLossScaleOptimizer",
           "disable_mixed_precision_graph_rewrite", "enable_mixed_precision_graph_rewrite"]
