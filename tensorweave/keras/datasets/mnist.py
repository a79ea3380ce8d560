"""MNIST handwritten digits dataset."""

import numpy as np

from tensorweave.keras.datasets import _common
from tensorweave.keras.utils.data_utils import get_file


def load_data(path="mnist.npz", cache_dir=None):
    """Loads the MNIST dataset.

    Args:
      path: path where to cache the dataset locally (relative to
        `~/.keras/datasets`).
      cache_dir: directory holding the `datasets` cache folder; defaults to
        `~/.keras`.

    Returns:
      Tuple of Numpy arrays: `(x_train, y_train), (x_test, y_test)`.

    Raises:
      Exception: if the file is not cached and cannot be downloaded.
    """
    cache_dir = _common.prepare_cache_dir(cache_dir)
    path = get_file(
        path,
        origin=_common.ORIGIN_FOLDER + "mnist.npz",
        file_hash=("731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"),
        cache_dir=cache_dir,
    )
    x_train, y_train, x_test, y_test = _common.load_npz(path, ["x_train", "y_train", "x_test", "y_test"])
    return (np.asarray(x_train), np.asarray(y_train)), (np.asarray(x_test), np.asarray(y_test))
