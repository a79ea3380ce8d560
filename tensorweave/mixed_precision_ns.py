"""`tf.mixed_precision`: loss scaling for mixed-precision training (each defined once in
`train.loss_scale`)."""

from .train.loss_scale import (
                               DynamicLossScale,
                               FixedLossScale,
                               LossScale,
                               MixedPrecisionLossScaleOptimizer,
                               disable_mixed_precision_graph_rewrite,
                               enable_mixed_precision_graph_rewrite,
)

__all__ = ["DynamicLossScale", "FixedLossScale", "LossScale", "MixedPrecisionLossScaleOptimizer",
           "disable_mixed_precision_graph_rewrite", "enable_mixed_precision_graph_rewrite", "experimental"]

from . import mixed_precision_experimental_ns as experimental  # noqa: E402
