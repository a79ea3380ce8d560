"""`tf.contrib.learn.datasets`: the local-file readers of `base` (TF's downloaders are not provided)."""

from . import base

__all__ = ["base"]
