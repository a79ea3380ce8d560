"""tf.keras.datasets.cifar10/cifar100 on batch files written here in CIFAR's pickle layout (a dict of
bytes keys: a uint8 `data` array of rows of 3072 values, lists of labels), and the refusal of a
pickle that would run code."""

import os
import pickle

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras.datasets import cifar


def _batch(path, n, seed, label_keys):
    rng = np.random.RandomState(seed)
    data = rng.randint(0, 256, (n, 3072)).astype(np.uint8)
    d = {b"batch_label": b"batch", b"data": data, b"filenames": [b"f%d.png" % i for i in range(n)]}
    labels = {}
    for key, classes in label_keys:
        labels[key] = [int(v) for v in rng.randint(0, classes, n)]
        d[key.encode()] = labels[key]
    with open(path, "wb") as f:
        pickle.dump(d, f, protocol=2)
    return data, labels


def test_cifar10_reads_the_extracted_cache_as_keras(tmp_path):
    folder = tmp_path / "datasets" / "cifar-10-batches-py"
    folder.mkdir(parents=True)
    train = [_batch(folder / ("data_batch_%d" % i), 4, i, [("labels", 10)]) for i in range(1, 6)]
    test = _batch(folder / "test_batch", 3, 9, [("labels", 10)])
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar10.load_data(cache_dir=str(tmp_path))
    assert x_train.shape == (20, 32, 32, 3) and x_train.dtype == np.uint8
    assert y_train.shape == (20, 1) and y_train.dtype == np.uint8
    assert x_test.shape == (3, 32, 32, 3) and y_test.shape == (3, 1)
    want = np.concatenate([d for d, _ in train]).reshape(20, 3, 32, 32).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(x_train, want)
    np.testing.assert_array_equal(y_train[:, 0], sum((lab["labels"] for _, lab in train), []))
    np.testing.assert_array_equal(x_test, test[0].reshape(3, 3, 32, 32).transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_test[:, 0], test[1]["labels"])


def test_cifar100_label_modes_and_channels_first(tmp_path):
    folder = tmp_path / "datasets" / "cifar-100-python"
    folder.mkdir(parents=True)
    keys = [("fine_labels", 100), ("coarse_labels", 20)]
    train = _batch(folder / "train", 5, 1, keys)
    test = _batch(folder / "test", 2, 2, keys)
    (_, y_fine), (_, yt_fine) = tf.keras.datasets.cifar100.load_data(cache_dir=str(tmp_path))
    np.testing.assert_array_equal(y_fine[:, 0], train[1]["fine_labels"])
    np.testing.assert_array_equal(yt_fine[:, 0], test[1]["fine_labels"])
    fmt = tf.keras.backend.image_data_format()
    tf.keras.backend.set_image_data_format("channels_first")
    try:
        (x, y), _ = tf.keras.datasets.cifar100.load_data(label_mode="coarse", cache_dir=str(tmp_path))
    finally:
        tf.keras.backend.set_image_data_format(fmt)
    np.testing.assert_array_equal(x, train[0].reshape(5, 3, 32, 32))
    np.testing.assert_array_equal(y[:, 0], train[1]["coarse_labels"])
    with pytest.raises(ValueError, match="`label_mode` must be one of"):
        tf.keras.datasets.cifar100.load_data(label_mode="medium", cache_dir=str(tmp_path))


class _RunsCode:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def test_a_batch_file_that_would_run_code_is_refused(tmp_path):
    path = tmp_path / "evil_batch"
    with open(path, "wb") as f:
        pickle.dump({b"data": _RunsCode(), b"labels": [1]}, f, protocol=2)
    with pytest.raises(pickle.UnpicklingError, match=r"(posix|os)\.system is not allowed in a CIFAR batch file"):
        cifar.load_batch(str(path))
