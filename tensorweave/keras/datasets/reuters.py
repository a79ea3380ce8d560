"""Reuters topic classification dataset."""

import numpy as np

from tensorweave.keras.datasets import _common
from tensorweave.keras.utils.data_utils import get_file


def load_data(
    path="reuters.npz",
    num_words=None,
    skip_top=0,
    maxlen=None,
    test_split=0.2,
    seed=113,
    start_char=1,
    oov_char=2,
    index_from=3,
    cache_dir=None,
    allow_pickle=False,
    **kwargs,
):
    """Loads the Reuters newswire classification dataset.

    All samples are shuffled with `np.random.RandomState(seed)`, indexed as
    in `imdb.load_data`, filtered by `maxlen`, then split: the first
    `int(len * (1 - test_split))` samples are the training set.

    The standard `reuters.npz` stores its sequences as pickled object arrays.
    Loading a pickle can run code from the file, so it is refused unless the
    caller passes `allow_pickle=True`. Files whose `x` array is a plain 2-D
    integer array load without it.

    Args:
      path: where to cache the data (relative to `~/.keras/datasets`).
      num_words: max number of words to include.
      skip_top: skip the top N most frequently occurring words.
      maxlen: truncate sequences after this length (longer ones are dropped).
      test_split: Fraction of the dataset to be used as test data.
      seed: random seed for sample shuffling.
      start_char: The start of a sequence will be marked with this character.
      oov_char: words that were cut out because of the `num_words` or
        `skip_top` limit will be replaced with this character.
      index_from: index actual words with this index and higher.
      cache_dir: directory holding the `datasets` cache folder; defaults to
        `~/.keras`.
      allow_pickle: explicit opt-in to loading pickled object arrays.
      **kwargs: Used for backwards compatibility (`nb_words`).

    Returns:
      Tuple of Numpy arrays: `(x_train, y_train), (x_test, y_test)`.

    Raises:
      ValueError: if the file needs pickle and `allow_pickle` is False.
      TypeError: for unknown keyword arguments.
    """
    num_words = _common.pop_nb_words(num_words, kwargs)
    cache_dir = _common.prepare_cache_dir(cache_dir)
    path = get_file(
        path,
        origin=_common.ORIGIN_FOLDER + "reuters.npz",
        file_hash=("d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"),
        cache_dir=cache_dir,
    )
    xs, labels = _common.load_npz(path, ["x", "y"], allow_pickle=allow_pickle)

    rng = np.random.RandomState(seed)
    indices = np.arange(len(xs))
    rng.shuffle(indices)
    xs = xs[indices]
    labels = labels[indices]

    xs = _common.index_sequences(xs, start_char, index_from)
    if maxlen:
        xs, labels = _common.remove_long_seq(maxlen, xs, labels)
    xs = _common.restrict_vocabulary(xs, num_words, skip_top, oov_char)

    idx = int(len(xs) * (1 - test_split))
    x_train, y_train = _common.to_object_array(xs[:idx]), np.array(labels[:idx])
    x_test, y_test = _common.to_object_array(xs[idx:]), np.array(labels[idx:])
    return (x_train, y_train), (x_test, y_test)


def get_word_index(path="reuters_word_index.json", cache_dir=None):
    """Retrieves a dict mapping words to their index in the Reuters dataset.

    Args:
      path: where to cache the data (relative to `~/.keras/datasets`).
      cache_dir: directory holding the `datasets` cache folder; defaults to
        `~/.keras`.

    Returns:
      The word index dictionary. Keys are word strings, values are their
      index.
    """
    return _common.load_word_index(path, "reuters_word_index.json", "4d44cc38712099c9e383dc6e5f11a921", cache_dir)
