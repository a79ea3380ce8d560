"""Numpy-related utilities (Keras 2 `tf.keras.utils.to_categorical` etc.)."""

import numpy as np


def to_categorical(y, num_classes=None, dtype="float32"):
    """Converts a class vector (integers) to binary class matrix.

    A trailing dimension of size 1 in `y` (e.g. shape `(n, 1)`) is dropped
    before the class axis is appended, as in Keras 2.

    Args:
      y: class vector to be converted into a matrix (integers from 0 to
        num_classes - 1).
      num_classes: total number of classes. If `None`, `max(y) + 1` is used.
      dtype: The data type expected by the output. Default: `'float32'`.

    Returns:
      A binary matrix representation of the input. The class axis is placed
      last.
    """
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.ravel()
    if not num_classes:
        num_classes = np.max(y) + 1
    n = y.shape[0]
    categorical = np.zeros((n, num_classes), dtype=dtype)
    categorical[np.arange(n), y] = 1
    output_shape = input_shape + (num_classes,)
    categorical = np.reshape(categorical, output_shape)
    return categorical


def normalize(x, axis=-1, order=2):
    """Normalizes a Numpy array.

    Args:
      x: Numpy array to normalize.
      axis: axis along which to normalize.
      order: Normalization order (e.g. 2 for L2 norm).

    Returns:
      A normalized copy of the array.
    """
    l2 = np.atleast_1d(np.linalg.norm(x, order, axis))
    l2[l2 == 0] = 1
    return x / np.expand_dims(l2, axis)
