"""`tf.contrib.learn.datasets.mnist` (what `tensorflow.examples.tutorials.mnist.input_data` imports):
MNIST's idx files read into `DataSet`s with TF 1.x's batching, shuffling and seeding."""

import gzip

import numpy as np

from ....framework import dtypes
from ....ops import random_ops
from ....platform import gfile
from . import base

__all__ = ["DEFAULT_SOURCE_URL", "DataSet", "dense_to_one_hot", "extract_images", "extract_labels", "load_mnist",
           "read_data_sets"]

DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
_FILES = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
          "t10k-labels-idx1-ubyte.gz")


def _read32(bytestream):
    return int(np.frombuffer(bytestream.read(4), dtype=np.dtype(np.uint32).newbyteorder(">"))[0])


def extract_images(f):
    """Reads a gzipped idx3 image file into a uint8 array `[index, y, x, depth]`.

    Args:
      f: A file object of the `.gz` file.

    Returns:
      A 4-D uint8 array.

    Raises:
      ValueError: If the file does not start with 2051 (the idx3 magic number).
    """
    with gzip.GzipFile(fileobj=f) as bytestream:
        magic = _read32(bytestream)
        if magic != 2051:
            raise ValueError("Invalid magic number %d in MNIST image file: %s" % (magic, getattr(f, "name", f)))
        num_images, rows, cols = _read32(bytestream), _read32(bytestream), _read32(bytestream)
        data = np.frombuffer(bytestream.read(rows * cols * num_images), dtype=np.uint8)
        return data.reshape(num_images, rows, cols, 1)


def dense_to_one_hot(labels_dense, num_classes):
    """Class labels to one-hot rows (float64, as TF's)."""
    num_labels = labels_dense.shape[0]
    labels_one_hot = np.zeros((num_labels, num_classes))
    labels_one_hot.flat[np.arange(num_labels) * num_classes + labels_dense.ravel()] = 1
    return labels_one_hot


def extract_labels(f, one_hot=False, num_classes=10):
    """Reads a gzipped idx1 label file into a uint8 vector (or one-hot rows).

    Raises:
      ValueError: If the file does not start with 2049 (the idx1 magic number).
    """
    with gzip.GzipFile(fileobj=f) as bytestream:
        magic = _read32(bytestream)
        if magic != 2049:
            raise ValueError("Invalid magic number %d in MNIST label file: %s" % (magic, getattr(f, "name", f)))
        num_items = _read32(bytestream)
        labels = np.frombuffer(bytestream.read(num_items), dtype=np.uint8)
        return dense_to_one_hot(labels, num_classes) if one_hot else labels


class DataSet:
    """Images and labels served in batches (`next_batch`), reshuffled each epoch as TF 1.x's.

    Seeding is TF's: the NumPy global generator is seeded from the graph-level seed and `seed`
    (`tf.set_random_seed` makes the batches repeat), and shuffles with `np.random.shuffle`.
    """

    def __init__(self, images, labels, fake_data=False, one_hot=False, dtype=dtypes.float32, reshape=True,
                 seed=None):
        """Builds the data set.

        Args:
          images: uint8 images `[n, rows, cols, 1]`.
          labels: Labels `[n]` or one-hot `[n, classes]`.
          fake_data: Serve constant fake batches (10000 examples) instead.
          one_hot: With `fake_data`, whether fake labels are one-hot.
          dtype: `tf.uint8` (the bytes) or `tf.float32` (scaled to [0, 1]).
          reshape: Flatten each image to `rows * cols` values.
          seed: The op-level seed of the shuffles.

        Raises:
          TypeError: For another dtype.
          ValueError: If images and labels differ in number.
        """
        seed1, seed2 = random_ops.get_seed(seed)
        np.random.seed(seed1 if seed is None else seed2)
        dtype = dtypes.as_dtype(dtype).base_dtype
        if dtype not in (dtypes.uint8, dtypes.float32):
            raise TypeError("Invalid image dtype %r, expected uint8 or float32" % dtype)
        if fake_data:
            self._num_examples = 10000
            self.one_hot = one_hot
        else:
            if images.shape[0] != labels.shape[0]:
                raise ValueError("images.shape: %s labels.shape: %s" % (images.shape, labels.shape))
            self._num_examples = images.shape[0]
            if reshape:
                if images.shape[3] != 1:
                    raise ValueError("reshape needs images of depth 1, got shape %s" % (images.shape,))
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if dtype == dtypes.float32:
                images = np.multiply(images.astype(np.float32), 1.0 / 255.0)
        self._images = images
        self._labels = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0

    @property
    def images(self):
        return self._images

    @property
    def labels(self):
        return self._labels

    @property
    def num_examples(self):
        return self._num_examples

    @property
    def epochs_completed(self):
        return self._epochs_completed

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        """The next `batch_size` examples: `(images, labels)`; an epoch's end wraps into the next,
        reshuffled, one.

        Args:
          batch_size: The number of examples.
          fake_data: Return constant fake examples.
          shuffle: Shuffle the order (before the first batch and at each new epoch).
        """
        if fake_data:
            fake_image = [1] * 784
            fake_label = [1] + [0] * 9 if self.one_hot else 0
            return [fake_image for _ in range(batch_size)], [fake_label for _ in range(batch_size)]
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            perm0 = np.arange(self._num_examples)
            np.random.shuffle(perm0)
            self._images = self.images[perm0]
            self._labels = self.labels[perm0]
        if start + batch_size > self._num_examples:
            self._epochs_completed += 1
            rest_num_examples = self._num_examples - start
            images_rest_part = self._images[start:self._num_examples]
            labels_rest_part = self._labels[start:self._num_examples]
            if shuffle:
                perm = np.arange(self._num_examples)
                np.random.shuffle(perm)
                self._images = self.images[perm]
                self._labels = self.labels[perm]
            self._index_in_epoch = batch_size - rest_num_examples
            end = self._index_in_epoch
            return (np.concatenate((images_rest_part, self._images[0:end]), axis=0),
                    np.concatenate((labels_rest_part, self._labels[0:end]), axis=0))
        self._index_in_epoch += batch_size
        end = self._index_in_epoch
        return self._images[start:end], self._labels[start:end]


def read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=dtypes.float32, reshape=True,
                   validation_size=5000, seed=None, source_url=DEFAULT_SOURCE_URL):
    """MNIST's train (less the first `validation_size` images), validation and test `DataSet`s,
    read from `train_dir` (each of the four `.gz` files is downloaded there first if missing).

    Returns:
      A `base.Datasets(train, validation, test)`.

    Raises:
      ValueError: If `validation_size` is out of range or a file is not an idx file.
      OSError: If a file is missing and cannot be downloaded.
    """
    if fake_data:
        def fake():
            return DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)
        return base.Datasets(train=fake(), validation=fake(), test=fake())
    source_url = source_url or DEFAULT_SOURCE_URL
    arrays = []
    for k, name in enumerate(_FILES):
        path = base.maybe_download(name, train_dir, source_url + name)
        with gfile.GFile(path, "rb") as f:
            arrays.append(extract_images(f) if k % 2 == 0 else extract_labels(f, one_hot=one_hot))
    train_images, train_labels, test_images, test_labels = arrays
    if not 0 <= validation_size <= len(train_images):
        raise ValueError("Validation size should be between 0 and {}. Received: {}.".format(
            len(train_images), validation_size))
    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    train = DataSet(train_images[validation_size:], train_labels[validation_size:], **options)
    validation = DataSet(train_images[:validation_size], train_labels[:validation_size], **options)
    test = DataSet(test_images, test_labels, **options)
    return base.Datasets(train=train, validation=validation, test=test)


def load_mnist(train_dir="MNIST-data"):
    """`read_data_sets(train_dir)`."""
    return read_data_sets(train_dir)
