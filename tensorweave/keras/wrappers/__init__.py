"""`tf.keras.wrappers`: scikit-learn API wrappers for Keras models."""

from . import scikit_learn

__all__ = ["scikit_learn"]
