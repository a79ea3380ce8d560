"""`tf.data.experimental.parse_example_dataset` and `make_batched_features_dataset`: batches of
serialized `tf.train.Example` records parsed into dicts of feature tensors."""

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from .dataset_ops import AUTOTUNE, Dataset

__all__ = ["make_batched_features_dataset", "parse_example_dataset"]


def _shuffle_and_repeat(dataset, shuffle, shuffle_buffer_size, shuffle_seed, num_epochs):
    """`dataset` shuffled (when `shuffle`) and repeated `num_epochs` times (None: forever), as TF's
    `make_csv_dataset` and `make_batched_features_dataset` do."""
    if num_epochs != 1 and shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed).repeat(num_epochs)
    elif shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    elif num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    return dataset


def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """A transformation that parses each element (a vector of serialized `Example` protos) into a dict
    of features, as `tf.io.parse_example` does.

    Args:
      features: A dict from feature keys to `FixedLenFeature`, `VarLenFeature`, `SparseFeature` or
        `FixedLenSequenceFeature` values.
      num_parallel_calls: Elements parsed in parallel.
      deterministic: Unused (the order is always deterministic).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.

    Raises:
      ValueError: If `features` is missing.
      TypeError: (when applied) If the elements are not vectors of strings.
    """
    if features is None:
        raise ValueError("Argument `features` is required, but not specified.")
    from ..ops import parsing_ops

    def apply(dataset):
        spec = dataset.element_spec
        if (not isinstance(spec, TensorSpec) or spec.dtype != dtypes.string
                or not spec.shape.is_compatible_with(TensorShape([None]))):
            raise TypeError("Input dataset should be a dataset of vectors of strings. Instead it is `%s`." % (spec,))
        return dataset.map(lambda serialized: parsing_ops.parse_example(serialized, features),
                           num_parallel_calls=num_parallel_calls)
    return apply


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None, label_key=None,
                                  reader_args=None, num_epochs=None, shuffle=True, shuffle_buffer_size=10000,
                                  shuffle_seed=None, prefetch_buffer_size=AUTOTUNE, reader_num_threads=1,
                                  parser_num_threads=2, sloppy_ordering=False, drop_final_batch=False):
    """Returns a `Dataset` of feature dictionaries (and labels) from files of `Example` records.

    The files matching `file_pattern` are read by `reader` (default `TFRecordDataset`), shuffled and
    repeated as asked, batched, and parsed with `features`.

    Args:
      file_pattern: A glob pattern (or list of patterns) of the files.
      batch_size: Records per batch.
      features: A dict from feature keys to feature configurations (`FixedLenFeature`, ...).
      reader: A function or class `(filenames, *reader_args) -> Dataset` of serialized records (or of
        (key, value) string pairs); default `tf.data.TFRecordDataset`.
      label_key: (Optional.) The feature returned separately as the label.
      reader_args: Extra arguments of `reader`.
      num_epochs: How many times to read the files (None: forever; the last batch is then full).
      shuffle: Whether to shuffle the files and the records.
      shuffle_buffer_size: The record shuffle buffer.
      shuffle_seed: The shuffle seed.
      prefetch_buffer_size: Batches to prefetch.
      reader_num_threads: Files read at once.
      parser_num_threads: Batches parsed in parallel.
      sloppy_ordering: Allowed for compatibility (the order is deterministic).
      drop_final_batch: Whether to drop a last smaller batch.

    Returns:
      A `Dataset` of dicts of feature tensors, or of `(features, label)` pairs with `label_key`.

    Raises:
      ValueError: If `label_key` is not a key of `features`.
    """
    if reader is None:
        from .readers import TFRecordDataset as reader
    reader_args = list(reader_args or [])
    dataset = Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    cycle = 1 if reader_num_threads is None else reader_num_threads
    dataset = dataset.interleave(lambda filename: reader(filename, *reader_args), cycle_length=cycle,
                                 num_parallel_calls=reader_num_threads)
    types = dataset.output_types
    if types == (dtypes.string, dtypes.string):
        dataset = dataset.map(lambda _, v: v)
    dataset = _shuffle_and_repeat(dataset, shuffle, shuffle_buffer_size, shuffle_seed, num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    dataset = dataset.apply(parse_example_dataset(features, num_parallel_calls=parser_num_threads))
    if label_key:
        if label_key not in features:
            raise ValueError("The `label_key` provided (%s) must be one of the `features` keys: %s."
                             % (label_key, features.keys()))
        dataset = dataset.map(lambda x: (x, x.pop(label_key)))
    return dataset.prefetch(prefetch_buffer_size)
