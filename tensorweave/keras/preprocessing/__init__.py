"""`tf.keras.preprocessing` (Keras-Preprocessing 1.1.0 as TF 1.15 ships it): `image`, `sequence`, `text`."""

from . import image, sequence, text

__all__ = ["image", "sequence", "text"]
