"""`tf.contrib.learn.datasets.base`: the `Dataset`/`Datasets` tuples, local CSV readers and
`maybe_download` (a file already in the directory is used as it is; a missing one is fetched once,
and an offline machine gets an error naming the file to put there).
"""

import collections
import csv
import os
import tempfile

import numpy as np

from ....platform import gfile as _gfile

__all__ = ["Dataset", "Datasets", "load_csv_with_header", "load_csv_without_header", "maybe_download"]

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


def maybe_download(filename, work_directory, source_url):
    """Returns the path of `filename` in `work_directory`, downloading it from `source_url` first if
    it is not there (written to a temporary file, then renamed: an interrupted download leaves
    nothing behind).

    Args:
      filename: The file's name.
      work_directory: The directory it is kept in (created if missing).
      source_url: Where to fetch it from.

    Returns:
      The file's path.

    Raises:
      OSError: If the file is missing and cannot be downloaded (for instance offline).
    """
    os.makedirs(work_directory, exist_ok=True)
    filepath = os.path.join(work_directory, filename)
    if os.path.exists(filepath):
        return filepath
    import urllib.request  # imported here: it costs tens of milliseconds at `import tensorweave`
    fd, tmp = tempfile.mkstemp(dir=work_directory, prefix="." + filename + ".")
    os.close(fd)
    try:
        urllib.request.urlretrieve(source_url, tmp)
        os.replace(tmp, filepath)
    except OSError as e:
        raise OSError("%s is not in %s and could not be downloaded from %s (%s). On a machine without network "
                      "access, copy the file into %s." % (filename, work_directory, source_url, e,
                                                          work_directory)) from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return filepath
