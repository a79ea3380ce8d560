"""CIFAR-100 small images classification dataset."""

import os

import numpy as np

from tensorweave.keras import backend as K
from tensorweave.keras.datasets import _common
from tensorweave.keras.datasets.cifar import extracted_or_downloaded, load_batch


def load_data(label_mode="fine", cache_dir=None):
    """Loads the CIFAR-100 dataset (from `~/.keras/datasets/cifar-100-python`, downloaded first
    when missing).

    Args:
      label_mode: "fine" (100 classes) or "coarse" (20 superclasses).
      cache_dir: Directory holding the `datasets` cache folder; defaults to `~/.keras`.

    Returns:
      Tuple of NumPy arrays: `(x_train, y_train), (x_test, y_test)`; images uint8 `(n, 32, 32, 3)`
      (`(n, 3, 32, 32)` with `channels_first`), labels int64 `(n, 1)`.

    Raises:
      ValueError: For an unknown `label_mode`.
      Exception: If the files are not cached and cannot be downloaded.
      pickle.UnpicklingError: If a batch file names anything but arrays and plain data.
    """
    if label_mode not in ["fine", "coarse"]:
        raise ValueError("`label_mode` must be one of `\"fine\"`, `\"coarse\"`.")
    cache_dir = _common.prepare_cache_dir(cache_dir)
    path = extracted_or_downloaded(
        "cifar-100-python", "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz",
        "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7", ["train", "test"], cache_dir)
    x_train, y_train = load_batch(os.path.join(path, "train"), label_key=label_mode + "_labels")
    x_test, y_test = load_batch(os.path.join(path, "test"), label_key=label_mode + "_labels")
    y_train = np.reshape(np.asarray(y_train), (len(y_train), 1))
    y_test = np.reshape(np.asarray(y_test), (len(y_test), 1))
    if K.image_data_format() == "channels_last":
        x_train = x_train.transpose(0, 2, 3, 1)
        x_test = x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
