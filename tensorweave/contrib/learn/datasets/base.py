"""`tf.contrib.learn.datasets.base`: the `Dataset`/`Datasets` tuples and local CSV readers.

Only the readers of local (or `tf.gfile`) files are provided; TF's download helpers are not.
"""

import collections
import csv

import numpy as np

from ....platform import gfile as _gfile

__all__ = ["Dataset", "Datasets", "load_csv_with_header", "load_csv_without_header"]

Dataset = collections.namedtuple("Dataset", ["data", "target"])
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


def load_csv_with_header(filename, target_dtype, features_dtype, target_column=-1):
    """Loads a CSV file whose first row is `n_samples,n_features,...` (as TF's iris files).

    Args:
      filename: The CSV file.
      target_dtype: The numpy dtype of the target.
      features_dtype: The numpy dtype of the features.
      target_column: The column of each row that holds the target (default: the last).

    Returns:
      A `Dataset` of `data` (shape `[n_samples, n_features]`) and `target` (shape `[n_samples]`).

    Raises:
      ValueError: If the header does not start with two integers, or a row has a value that does
        not convert or a number of features other than the header's.
      IndexError: If there are more rows than the header's `n_samples` (fewer leave zero rows, as
        TF).
    """
    with _gfile.GFile(filename) as csv_file:
        rows = csv.reader(csv_file.read().splitlines())
        header = next(rows)
        n_samples = int(header[0])
        n_features = int(header[1])
        data = np.zeros((n_samples, n_features), dtype=features_dtype)
        target = np.zeros((n_samples,), dtype=target_dtype)
        for i, row in enumerate(rows):
            if i >= n_samples:
                raise IndexError("%s has more rows than the %d samples its header says." % (filename, n_samples))
            target[i] = np.asarray(row.pop(target_column), dtype=target_dtype)
            data[i] = np.asarray(row, dtype=features_dtype)
    return Dataset(data=data, target=target)


def load_csv_without_header(filename, target_dtype, features_dtype, target_column=-1):
    """Loads a CSV file with no header row.

    Args:
      filename: The CSV file.
      target_dtype: The numpy dtype of the target.
      features_dtype: The numpy dtype of the features.
      target_column: The column of each row that holds the target (default: the last).

    Returns:
      A `Dataset` of `data` (shape `[n_rows, n_columns - 1]`) and `target` (shape `[n_rows]`).

    Raises:
      ValueError: If a value does not convert to its dtype.
    """
    with _gfile.GFile(filename) as csv_file:
        data, target = [], []
        for row in csv.reader(csv_file.read().splitlines()):
            target.append(row.pop(target_column))
            data.append(np.asarray(row, dtype=features_dtype))
    return Dataset(data=np.array(data), target=np.array(target, dtype=target_dtype))
