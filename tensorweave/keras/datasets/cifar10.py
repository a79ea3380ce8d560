"""CIFAR-10 small images classification dataset."""

import os

import numpy as np

from tensorweave.keras import backend as K
from tensorweave.keras.datasets import _common
from tensorweave.keras.datasets.cifar import extracted_or_downloaded, load_batch

_FILES = ["data_batch_%d" % i for i in range(1, 6)] + ["test_batch"]


def load_data(cache_dir=None):
    """Loads the CIFAR-10 dataset (from `~/.keras/datasets/cifar-10-batches-py`, downloaded first
    when missing).

    Args:
      cache_dir: Directory holding the `datasets` cache folder; defaults to `~/.keras`.

    Returns:
      Tuple of NumPy arrays: `(x_train, y_train), (x_test, y_test)`; images uint8 `(n, 32, 32, 3)`
      (`(n, 3, 32, 32)` with `channels_first`), labels uint8 `(n, 1)`.

    Raises:
      Exception: If the files are not cached and cannot be downloaded.
      pickle.UnpicklingError: If a batch file names anything but arrays and plain data.
    """
    cache_dir = _common.prepare_cache_dir(cache_dir)
    path = extracted_or_downloaded(
        "cifar-10-batches-py", "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz",
        "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce", _FILES, cache_dir)
    xs, ys = [], []
    for name in _FILES[:5]:
        x, y = load_batch(os.path.join(path, name))
        xs.append(x)
        ys.append(np.asarray(y, dtype="uint8"))
    x_train, y_train = np.concatenate(xs).astype("uint8"), np.concatenate(ys)
    x_test, y_test = load_batch(os.path.join(path, "test_batch"))
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(np.asarray(y_test, dtype="uint8"), (len(y_test), 1))
    if K.image_data_format() == "channels_last":
        x_train = x_train.transpose(0, 2, 3, 1)
        x_test = x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test.astype(x_train.dtype), y_test.astype(y_train.dtype))
