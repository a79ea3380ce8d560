"""Keras 2 built-in datasets (`tf.keras.datasets`).

CIFAR-10/100's cache files are Python pickles: they are read by an unpickler that builds only arrays
and plain data (`cifar.load_batch`), so they cannot run code.
"""

from tensorweave.keras.datasets import boston_housing
from tensorweave.keras.datasets import cifar10
from tensorweave.keras.datasets import cifar100
from tensorweave.keras.datasets import fashion_mnist
from tensorweave.keras.datasets import imdb
from tensorweave.keras.datasets import mnist
from tensorweave.keras.datasets import reuters

__all__ = ["boston_housing", "cifar10", "cifar100", "fashion_mnist", "imdb", "mnist", "reuters"]
