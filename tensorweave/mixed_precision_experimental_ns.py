"""`tf.mixed_precision.experimental`: the loss scale classes."""

from .train.loss_scale import DynamicLossScale, FixedLossScale, LossScale

__all__ = ["DynamicLossScale", "FixedLossScale", "LossScale"]
