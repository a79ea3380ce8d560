"""`tf.keras.preprocessing.sequence`: padding, skip-gram pairs and time-series batches (Keras-Preprocessing
1.1 semantics, as TF 1.15 ships)."""

import json
import random

import numpy as np

from ..utils.data_utils import Sequence

__all__ = ["TimeseriesGenerator", "make_sampling_table", "pad_sequences", "skipgrams"]


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """Pads sequences to the same length.

    Args:
      sequences: A list of sequences (lists or arrays; elements may themselves be arrays of one shape).
      maxlen: The length of the output sequences (default: the longest sequence).
      dtype: The output dtype; use `object` (or a NumPy string dtype) for strings.
      padding: 'pre' or 'post': pad before or after each sequence.
      truncating: 'pre' or 'post': drop values at the start or the end of sequences longer than `maxlen`.
      value: The padding value (a float or a string).

    Returns:
      A NumPy array of shape `(len(sequences), maxlen) + sample_shape`.

    Raises:
      ValueError: If `sequences` is not a list of iterables, for an unknown `padding`/`truncating`, for a
        string `value` with a non-string `dtype`, or for samples of inconsistent shapes.
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    num_samples = len(sequences)
    lengths = []
    sample_shape = ()
    flag = True
    # The sample shape comes from the first non-empty sequence; the loop below checks the others.
    for x in sequences:
        try:
            lengths.append(len(x))
            if flag and len(x):
                sample_shape = np.asarray(x).shape[1:]
                flag = False
        except TypeError:
            raise ValueError("`sequences` must be a list of iterables. Found non-iterable: " + str(x)) from None
    if maxlen is None:
        maxlen = np.max(lengths) if lengths else 0
    is_dtype_str = np.issubdtype(dtype, np.str_)
    if isinstance(value, str) and np.dtype(dtype).kind != "O" and not is_dtype_str:
        raise ValueError("`dtype` {} is not compatible with `value`'s type: {}\nYou should set `dtype=object` "
                         "for variable length strings.".format(dtype, type(value)))
    x = np.full((num_samples, maxlen) + sample_shape, value, dtype=dtype)
    for idx, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            trunc = s[-maxlen:] if maxlen else s[:0]
        elif truncating == "post":
            trunc = s[:maxlen]
        else:
            raise ValueError('Truncating type "%s" not understood' % truncating)
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != sample_shape:
            raise ValueError("Shape of sample %s of sequence at position %s is different from expected shape %s"
                             % (trunc.shape[1:], idx, sample_shape))
        if padding == "post":
            x[idx, :len(trunc)] = trunc
        elif padding == "pre":
            x[idx, maxlen - len(trunc):] = trunc
        else:
            raise ValueError('Padding type "%s" not understood' % padding)
    return x


def make_sampling_table(size, sampling_factor=1e-5):
    """Generates a word-rank based probabilistic sampling table (word2vec's subsampling, Zipf frequencies).

    Args:
      size: The number of possible words.
      sampling_factor: The sampling factor of the word2vec formula.

    Returns:
      A 1-D array of length `size`: entry `i` is the probability to keep the `i`-th most common word.
    """
    gamma = 0.577
    rank = np.arange(size)
    rank[0] = 1
    inv_fq = rank * (np.log(rank) + gamma) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inv_fq
    return np.minimum(1.0, f / np.sqrt(f))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True, categorical=False,
              sampling_table=None, seed=None):
    """Generates skip-gram word pairs with positive (label 1) and random negative (label 0) samples.

    Uses Python's `random` module as Keras does, so a `seed` (and the global `random` state for the
    negative samples and the sampling table) gives the same pairs as Keras.

    Args:
      sequence: A list of word indices; index 0 is a non-word and is skipped.
      vocabulary_size: The largest word index + 1.
      window_size: The half-width of the context window.
      negative_samples: The number of negative samples per positive one (0 for none).
      shuffle: Whether to shuffle the pairs.
      categorical: Whether labels are one-hot pairs (`[0, 1]` / `[1, 0]`) instead of ints.
      sampling_table: Optional 1-D array: entry `i` is the probability to keep a word of rank `i`.
      seed: Optional seed for the shuffle.

    Returns:
      `(couples, labels)`: a list of `[word, context]` pairs and a list of labels.
    """
    couples = []
    labels = []
    for i, wi in enumerate(sequence):
        if not wi:
            continue
        if sampling_table is not None:
            if sampling_table[wi] < random.random():
                continue
        window_start = max(0, i - window_size)
        window_end = min(len(sequence), i + window_size + 1)
        for j in range(window_start, window_end):
            if j != i:
                wj = sequence[j]
                if not wj:
                    continue
                couples.append([wi, wj])
                labels.append([0, 1] if categorical else 1)
    if negative_samples > 0:
        num_negative_samples = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, vocabulary_size - 1)]
                    for i in range(num_negative_samples)]
        if categorical:
            labels += [[1, 0]] * num_negative_samples
        else:
            labels += [0] * num_negative_samples
    if shuffle:
        if seed is None:
            seed = random.randint(0, 10e6)
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels


class TimeseriesGenerator(Sequence):
    """Batches of windows over a time series (a `keras.utils.Sequence`).

    Args:
      data: An indexable of consecutive data points (axis 0 is time).
      targets: The targets of each time step; the same length as `data`.
      length: The length of the output sequences (in time steps).
      sampling_rate: The period between time steps inside a sequence.
      stride: The period between successive output sequences.
      start_index: Data points before `start_index` are not used.
      end_index: Data points after `end_index` are not used (default: the last one).
      shuffle: Whether to draw the rows of each batch at random (from `np.random`).
      reverse: Whether the time steps of each sample are in reverse chronological order.
      batch_size: The number of sequences per batch.

    Raises:
      ValueError: If `data` and `targets` differ in length, or `start_index + length > end_index`.
    """

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0, end_index=None,
                 shuffle=False, reverse=False, batch_size=128):
        if len(data) != len(targets):
            raise ValueError("Data and targets have to be of same length. Data length is {} while target length "
                             "is {}".format(len(data), len(targets)))
        self.data = data
        self.targets = targets
        self.length = length
        self.sampling_rate = sampling_rate
        self.stride = stride
        self.start_index = start_index + length
        if end_index is None:
            end_index = len(data) - 1
        self.end_index = end_index
        self.shuffle = shuffle
        self.reverse = reverse
        self.batch_size = batch_size
        if self.start_index > self.end_index:
            raise ValueError("`start_index+length=%i > end_index=%i` is disallowed, as no part of the sequence "
                             "would be left to be used as current step." % (self.start_index, self.end_index))

    def __len__(self):
        return (self.end_index - self.start_index + self.batch_size * self.stride) // (self.batch_size * self.stride)

    def __getitem__(self, index):
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            i = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(i, min(i + self.batch_size * self.stride, self.end_index + 1), self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate] for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        if self.reverse:
            return samples[:, ::-1, ...], targets
        return samples, targets

    def get_config(self):
        """Returns the generator's configuration (data and targets as JSON strings).

        Raises:
          TypeError: If the data or the targets are not JSON serializable.
        """
        def dump(value, what):
            if type(value).__module__ == np.__name__:
                value = value.tolist()
            try:
                return json.dumps(value)
            except TypeError:
                raise TypeError("%s not JSON Serializable: %r" % (what, value)) from None

        return {"data": dump(self.data, "Data"), "targets": dump(self.targets, "Targets"), "length": self.length,
                "sampling_rate": self.sampling_rate, "stride": self.stride, "start_index": self.start_index,
                "end_index": self.end_index, "shuffle": self.shuffle, "reverse": self.reverse,
                "batch_size": self.batch_size}

    def to_json(self, **kwargs):
        """Returns a JSON string with the class name and `get_config()` (kwargs go to `json.dumps`)."""
        return json.dumps({"class_name": self.__class__.__name__, "config": self.get_config()}, **kwargs)


def timeseries_generator_from_json(json_string):
    """Rebuilds a `TimeseriesGenerator` from the output of its `to_json` (plain JSON; no code is run).

    The stored `start_index` already includes `length`; it is converted back here, so the rebuilt generator
    yields the same batches (Keras-Preprocessing 1.1.0 passed it through unchanged, shifting the windows).

    Args:
      json_string: The JSON string.

    Returns:
      A `TimeseriesGenerator`.
    """
    full_config = json.loads(json_string)
    config = dict(full_config.get("config"))
    config["data"] = np.array(json.loads(config.pop("data")))
    config["targets"] = np.array(json.loads(config.pop("targets")))
    # `start_index` was stored with `length` already added.
    config["start_index"] = config["start_index"] - config["length"]
    return TimeseriesGenerator(**config)
