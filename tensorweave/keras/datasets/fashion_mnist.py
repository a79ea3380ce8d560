"""Fashion-MNIST dataset."""

import gzip
import os

import numpy as np

from tensorweave.keras.datasets import _common
from tensorweave.keras.utils.data_utils import get_file

_FILES = [
    "train-labels-idx1-ubyte.gz",
    "train-images-idx3-ubyte.gz",
    "t10k-labels-idx1-ubyte.gz",
    "t10k-images-idx3-ubyte.gz",
]


def load_data(cache_dir=None):
    """Loads the Fashion-MNIST dataset.

    Reads the four gzipped IDX files from `<cache>/datasets/fashion-mnist/`.

    Args:
      cache_dir: directory holding the `datasets` cache folder; defaults to
        `~/.keras`.

    Returns:
      Tuple of Numpy arrays: `(x_train, y_train), (x_test, y_test)`; images
      are `uint8` arrays of shape `(n, 28, 28)`, labels `uint8` of shape
      `(n,)`.

    Raises:
      Exception: if a file is not cached and cannot be downloaded.
    """
    dirname = os.path.join("datasets", "fashion-mnist")
    base = _common.ORIGIN_FOLDER
    cache_dir = _common.prepare_cache_dir(cache_dir)
    paths = [get_file(fname, origin=base + fname, cache_dir=cache_dir, cache_subdir=dirname) for fname in _FILES]

    with gzip.open(paths[0], "rb") as lbpath:
        y_train = np.frombuffer(lbpath.read(), np.uint8, offset=8)
    with gzip.open(paths[1], "rb") as imgpath:
        x_train = np.frombuffer(imgpath.read(), np.uint8, offset=16).reshape(len(y_train), 28, 28)
    with gzip.open(paths[2], "rb") as lbpath:
        y_test = np.frombuffer(lbpath.read(), np.uint8, offset=8)
    with gzip.open(paths[3], "rb") as imgpath:
        x_test = np.frombuffer(imgpath.read(), np.uint8, offset=16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)
