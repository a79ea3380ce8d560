"""`tf.contrib.learn.datasets`: `base` (CSV readers, `maybe_download`) and `mnist` (`read_data_sets`)."""

from . import base, mnist

__all__ = ["base", "mnist"]
