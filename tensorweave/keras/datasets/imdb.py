"""IMDB sentiment classification dataset."""

import numpy as np

from tensorweave.keras.datasets import _common
from tensorweave.keras.utils.data_utils import get_file


def load_data(
    path="imdb.npz",
    num_words=None,
    skip_top=0,
    maxlen=None,
    seed=113,
    start_char=1,
    oov_char=2,
    index_from=3,
    cache_dir=None,
    allow_pickle=False,
    **kwargs,
):
    """Loads the IMDB dataset.

    The train and test sets are each shuffled with one
    `np.random.RandomState(seed)` (train first, then test). Word indices are
    offset by `index_from`, each sequence starts with `start_char`, and words
    outside `[skip_top, num_words)` become `oov_char` (or are dropped when
    `oov_char` is None).

    The standard `imdb.npz` stores its sequences as pickled object arrays.
    Loading a pickle can run code from the file, so it is refused unless the
    caller passes `allow_pickle=True`. Files whose `x_*` arrays are plain
    2-D integer arrays load without it.

    Args:
      path: where to cache the data (relative to `~/.keras/datasets`).
      num_words: max number of words to include. Words are ranked by how often
        they occur (in the training set) and only the most frequent words are
        kept.
      skip_top: skip the top N most frequently occurring words (which may not
        be informative).
      maxlen: sequences longer than this will be filtered out.
      seed: random seed for sample shuffling.
      start_char: The start of a sequence will be marked with this character.
        Set to 1 because 0 is usually the padding character.
      oov_char: words that were cut out because of the `num_words` or
        `skip_top` limit will be replaced with this character.
      index_from: index actual words with this index and higher.
      cache_dir: directory holding the `datasets` cache folder; defaults to
        `~/.keras`.
      allow_pickle: explicit opt-in to loading pickled object arrays.
      **kwargs: Used for backwards compatibility (`nb_words`).

    Returns:
      Tuple of Numpy arrays: `(x_train, y_train), (x_test, y_test)`;
      `x_*` are object arrays of lists of ints.

    Raises:
      ValueError: in case `maxlen` is so low that no input sequence could be
        kept, or the file needs pickle and `allow_pickle` is False.
      TypeError: for unknown keyword arguments.
    """
    num_words = _common.pop_nb_words(num_words, kwargs)
    cache_dir = _common.prepare_cache_dir(cache_dir)
    path = get_file(
        path,
        origin=_common.ORIGIN_FOLDER + "imdb.npz",
        file_hash=("69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"),
        cache_dir=cache_dir,
    )
    x_train, labels_train, x_test, labels_test = _common.load_npz(
        path, ["x_train", "y_train", "x_test", "y_test"], allow_pickle=allow_pickle
    )

    rng = np.random.RandomState(seed)
    indices = np.arange(len(x_train))
    rng.shuffle(indices)
    x_train = x_train[indices]
    labels_train = labels_train[indices]

    indices = np.arange(len(x_test))
    rng.shuffle(indices)
    x_test = x_test[indices]
    labels_test = labels_test[indices]

    x_train = _common.index_sequences(x_train, start_char, index_from)
    x_test = _common.index_sequences(x_test, start_char, index_from)

    if maxlen:
        x_train, labels_train = _common.remove_long_seq(maxlen, x_train, labels_train)
        x_test, labels_test = _common.remove_long_seq(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError(
                "After filtering for sequences shorter than maxlen=" + str(maxlen) + ", no sequence was kept. "
                "Increase maxlen."
            )

    xs = x_train + x_test
    labels = np.concatenate([labels_train, labels_test])
    xs = _common.restrict_vocabulary(xs, num_words, skip_top, oov_char)

    idx = len(x_train)
    x_train, y_train = _common.to_object_array(xs[:idx]), labels[:idx]
    x_test, y_test = _common.to_object_array(xs[idx:]), labels[idx:]
    return (x_train, y_train), (x_test, y_test)


def get_word_index(path="imdb_word_index.json", cache_dir=None):
    """Retrieves a dict mapping words to their index in the IMDB dataset.

    Args:
      path: where to cache the data (relative to `~/.keras/datasets`).
      cache_dir: directory holding the `datasets` cache folder; defaults to
        `~/.keras`.

    Returns:
      The word index dictionary. Keys are word strings, values are their
      index.
    """
    return _common.load_word_index(path, "imdb_word_index.json", "bfafd718b763782e994055a2d397834f", cache_dir)
