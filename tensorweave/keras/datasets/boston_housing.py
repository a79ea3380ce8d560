"""Boston housing price regression dataset."""

import numpy as np

from tensorweave.keras.datasets import _common
from tensorweave.keras.utils.data_utils import get_file


def load_data(path="boston_housing.npz", test_split=0.2, seed=113, cache_dir=None):
    """Loads the Boston Housing dataset.

    Samples are shuffled with `np.random.RandomState(seed)` before the split.

    Args:
      path: path where to cache the dataset locally (relative to
        `~/.keras/datasets`).
      test_split: fraction of the data to reserve as test set.
      seed: Random seed for shuffling the data before computing the test
        split.
      cache_dir: directory holding the `datasets` cache folder; defaults to
        `~/.keras`.

    Returns:
      Tuple of Numpy arrays: `(x_train, y_train), (x_test, y_test)`.

    Raises:
      AssertionError: if `test_split` is not in `[0, 1)`.
    """
    assert 0 <= test_split < 1
    cache_dir = _common.prepare_cache_dir(cache_dir)
    path = get_file(
        path,
        origin=_common.ORIGIN_FOLDER + "boston_housing.npz",
        file_hash=("f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"),
        cache_dir=cache_dir,
    )
    x, y = _common.load_npz(path, ["x", "y"])

    rng = np.random.RandomState(seed)
    indices = np.arange(len(x))
    rng.shuffle(indices)
    x = x[indices]
    y = y[indices]

    x_train = np.array(x[: int(len(x) * (1 - test_split))])
    y_train = np.array(y[: int(len(x) * (1 - test_split))])
    x_test = np.array(x[int(len(x) * (1 - test_split)) :])
    y_test = np.array(y[int(len(x) * (1 - test_split)) :])
    return (x_train, y_train), (x_test, y_test)
