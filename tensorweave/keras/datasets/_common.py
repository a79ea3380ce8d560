"""Shared helpers for the dataset loaders."""

import json
import os

import numpy as np

from tensorweave.keras.utils.data_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def prepare_cache_dir(cache_dir):
    """Expands and creates `cache_dir` (None stays None)."""
    if cache_dir:
        cache_dir = os.path.expanduser(cache_dir)
        os.makedirs(cache_dir, exist_ok=True)
    return cache_dir


def load_npz(path, keys, allow_pickle=False):
    """Reads `keys` from an `.npz` file.

    Args:
      path: path of the `.npz` file.
      keys: names of the arrays to read.
      allow_pickle: whether object arrays (stored as Python pickles) may be
        loaded. Loading a pickle can run code from the file, so this must be
        an explicit opt-in by the caller.

    Returns:
      A list with one array per key.

    Raises:
      ValueError: if the file holds object (pickled) arrays and
        `allow_pickle` is False.
    """
    with np.load(path, allow_pickle=allow_pickle) as f:
        try:
            return [f[k] for k in keys]
        except ValueError as e:
            if allow_pickle or "allow_pickle" not in str(e):
                raise
            raise ValueError(
                "The file %s stores Python-pickled (object) arrays; loading a "
                "pickle can execute code from the file, so tensorweave refuses it "
                "by default. If you trust this file, pass allow_pickle=True to "
                "load_data." % path
            ) from None


def remove_long_seq(maxlen, seq, label):
    """Removes sequences whose length is `maxlen` or more.

    Args:
      maxlen: Int, maximum length (exclusive) of the kept sequences.
      seq: List of lists, where each sublist is a sequence.
      label: List where each element is an integer.

    Returns:
      new_seq, new_label: shortened lists for `seq` and `label`.
    """
    new_seq, new_label = [], []
    for x, y in zip(seq, label):
        if len(x) < maxlen:
            new_seq.append(x)
            new_label.append(y)
    return new_seq, new_label


def index_sequences(xs, start_char, index_from):
    """Prepends `start_char` and offsets word indices by `index_from`."""
    if start_char is not None:
        return [[start_char] + [int(w) + index_from for w in x] for x in xs]
    if index_from:
        return [[int(w) + index_from for w in x] for x in xs]
    return [[int(w) for w in x] for x in xs]


def restrict_vocabulary(xs, num_words, skip_top, oov_char):
    """Replaces (or drops) words outside `[skip_top, num_words)`."""
    if not num_words:
        num_words = max(max(x) for x in xs)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    return [[w for w in x if skip_top <= w < num_words] for x in xs]


def to_object_array(seqs):
    """Builds a 1-D object array of Python lists (one per sequence)."""
    out = np.empty(len(seqs), dtype=object)
    for i, s in enumerate(seqs):
        out[i] = s
    return out


def pop_nb_words(num_words, kwargs):
    """Handles the legacy `nb_words` keyword of the text loaders."""
    if "nb_words" in kwargs:
        import warnings

        warnings.warn("The `nb_words` argument in `load_data` has been renamed `num_words`.")
        num_words = kwargs.pop("nb_words")
    if kwargs:
        raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
    return num_words


def load_word_index(path, file_name, file_hash, cache_dir):
    """The `{word: index}` dict of a dataset's JSON word index, fetched into the cache as `path`."""
    path = get_file(path, origin=ORIGIN_FOLDER + file_name, file_hash=file_hash,
                    cache_dir=prepare_cache_dir(cache_dir))
    with open(path) as f:
        return json.load(f)
