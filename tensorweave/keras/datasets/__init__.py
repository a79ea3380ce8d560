"""Keras 2 built-in datasets (`tf.keras.datasets`).

CIFAR-10/100 are not provided: their cache files are Python pickles.
"""

from tensorweave.keras.datasets import boston_housing
from tensorweave.keras.datasets import fashion_mnist
from tensorweave.keras.datasets import imdb
from tensorweave.keras.datasets import mnist
from tensorweave.keras.datasets import reuters

__all__ = ["boston_housing", "fashion_mnist", "imdb", "mnist", "reuters"]
