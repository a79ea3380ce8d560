"""Reading the CIFAR batch files (`cifar-10-batches-py/data_batch_1`, ...): Python pickles of a dict
holding a NumPy array and lists. They are read with an unpickler that builds only those types, so a
file cannot run code (a pickle naming any other callable is refused)."""

import io
import os
import pickle

import numpy as np

# The only callables a CIFAR batch pickle names: NumPy's array reconstruction and dtype, and the
# codec Python 3 pickles use for bytes.
_ALLOWED = {
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy", "ndarray"),
    ("numpy", "dtype"),
    ("_codecs", "encode"),
}


class _ArraysOnlyUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) in _ALLOWED:
            if module == "_codecs":
                import codecs
                return codecs.encode
            if name == "_reconstruct":
                return np.ndarray.__reduce__(np.zeros(0))[0]  # NumPy's own _reconstruct, wherever it lives
            return getattr(np, name)
        raise pickle.UnpicklingError(
            "%s.%s is not allowed in a CIFAR batch file: tensorweave reads these pickles with an unpickler "
            "that only builds arrays and plain data, so a file cannot run code." % (module, name))


def load_batch(fpath, label_key="labels"):
    """Reads one CIFAR batch file, as Keras' `cifar.load_batch`.

    Args:
      fpath: Path of the batch file.
      label_key: The labels' key (`labels`; CIFAR-100: `fine_labels` or `coarse_labels`).

    Returns:
      `(data, labels)`: uint8 images `(n, 3, 32, 32)` and the list of labels.

    Raises:
      pickle.UnpicklingError: If the file names anything but arrays and plain data.
      KeyError: If the file has no `data` or `label_key` entry.
    """
    with open(fpath, "rb") as f:
        d = _ArraysOnlyUnpickler(io.BufferedReader(f), encoding="bytes").load()
    d = {(k.decode("utf8") if isinstance(k, bytes) else k): v for k, v in d.items()}
    data = np.asarray(d["data"])
    labels = d[label_key]
    return data.reshape(data.shape[0], 3, 32, 32), labels


def extracted_or_downloaded(dirname, origin, file_hash, files, cache_dir):
    """The folder `dirname` of the cache: used as it is when it holds `files` already (extracted by
    an earlier download or by hand), else fetched and extracted by `get_file`."""
    from ..utils.data_utils import get_file
    base = os.path.expanduser(cache_dir) if cache_dir else os.path.join(os.path.expanduser("~"), ".keras")
    folder = os.path.join(base, "datasets", dirname)
    if all(os.path.isfile(os.path.join(folder, f)) for f in files):
        return folder
    return get_file(dirname, origin=origin, untar=True, file_hash=file_hash, cache_dir=cache_dir)
