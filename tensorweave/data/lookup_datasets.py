"""`tf.data.experimental.DatasetInitializer`, `table_from_dataset` and `index_table_from_dataset`: lookup
tables filled from a dataset of (key, value) pairs (or of keys, indexed by position)."""

from ..framework import dtypes, ops
from ..framework.tensor_spec import TensorSpec
from ..ops import lookup_ops

__all__ = ["DatasetInitializer", "index_table_from_dataset", "table_from_dataset"]

_BASE_ERROR = ("Datasets used to initialize lookup tables must produce elements in the form (key, value), where the "
               "keys and values are scalar tensors. ")


def _check_element_spec(spec):
    if not isinstance(spec, tuple) or len(spec) != 2:
        n = len(spec) if isinstance(spec, (tuple, list, dict)) else 1
        raise ValueError(_BASE_ERROR + "However, the given dataset produces %d components instead of two (key, value) "
                         "components. Full dataset element spec: %s." % (n, spec))
    for what, s in (("key", spec[0]), ("value", spec[1])):
        if not isinstance(s, TensorSpec):
            raise ValueError(_BASE_ERROR + "However, the given dataset produces a %s component of type %s instead "
                             "of a TensorSpec." % (what, type(s).__name__))
        if s.shape.ndims not in (None, 0):
            raise ValueError(_BASE_ERROR + "However, the given dataset produces non-scalar %s Tensors of rank %d."
                             % (what, s.shape.ndims))


class DatasetInitializer(lookup_ops.TableInitializerBase):
    """Creates a table initializer from a `tf.data.Dataset` of (key, value) scalar pairs.

    Running the table's initializer reads the whole dataset (an empty dataset raises
    `tf.errors.InvalidArgumentError` when the table is initialized).

    Example:

      keys = tf.data.Dataset.range(100)
      values = tf.data.Dataset.range(100).map(lambda x: x * 2)
      table = tf.lookup.StaticHashTable(
          tf.data.experimental.DatasetInitializer(tf.data.Dataset.zip((keys, values))), -1)

    Args:
      dataset: A `tf.data.Dataset` of (key, value) pairs of scalars.

    Raises:
      ValueError: If the dataset's elements are not pairs of scalars.
    """

    def __init__(self, dataset):
        self.dataset = dataset
        spec = dataset.element_spec
        _check_element_spec(spec)
        super().__init__(spec[0].dtype, spec[1].dtype)

    def initialize(self, table):
        """The op filling `table` with the dataset's pairs (added to the TABLE_INITIALIZERS collection).

        Raises:
          TypeError: If the table's dtypes differ from the dataset's.
        """
        from .iterator_ops import get_single_element
        self._check_table_dtypes(table.key_dtype, table.value_dtype)
        with ops.name_scope(None, "InitializeTableFromDataset", [table.resource_handle]):
            keys, values = get_single_element(self.dataset.batch(2 ** 62))
            init = ops.apply_op("InitializeTableV2", [table.resource_handle, keys, values], {},
                                name="InitializeTableV2")
        ops.add_to_collection(ops.GraphKeys.TABLE_INITIALIZERS, init)
        return init


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None, hasher_spec=None,
                       key_dtype=dtypes.string, name=None):
    """Returns a lookup table built from a dataset of (key, value) pairs.

    A key not in the dataset maps to `default_value`, or with `num_oov_buckets` to
    `vocab_size + hash(key) % num_oov_buckets` (TF's FastHashSpec hash: FarmHash Fingerprint64).

    Args:
      dataset: A dataset of (key, value) scalar pairs.
      num_oov_buckets: The number of out-of-vocabulary buckets.
      vocab_size: (Optional.) The number of pairs to use (the dataset must have at least that many).
      default_value: The value of missing keys (default -1, for integer or float values).
      hasher_spec: Must be None (TF's default FastHashSpec).
      key_dtype: The key dtype (integer or string).
      name: A name for the ops.

    Returns:
      The lookup table (run `tf.tables_initializer()` before using it).

    Raises:
      ValueError: If the dataset does not hold pairs of scalars, `default_value` is missing for
        non-numeric values, `num_oov_buckets` is negative or `vocab_size` is not positive.
      TypeError: If `key_dtype` is not an integer or string type.
      NotImplementedError: If `hasher_spec` is given.
    """
    spec = dataset.element_spec
    _check_element_spec(spec)
    if hasher_spec is not None:
        raise NotImplementedError("table_from_dataset: only the default `hasher_spec` (FastHashSpec) is supported.")
    if default_value is None:
        default_value = -1
        if not (spec[1].dtype.is_integer or spec[1].dtype.is_floating):
            raise ValueError("`default_value` must be specified when creating a table from a dataset that produces "
                             "values of type %s." % spec[1].dtype)
    if num_oov_buckets < 0:
        raise ValueError("`num_oov_buckets` must be greater than or equal to 0, got %d." % num_oov_buckets)
    if not isinstance(vocab_size, ops.Tensor) and vocab_size is not None and vocab_size < 1:
        raise ValueError("`vocab_size` must be greater than 0, got %d." % vocab_size)
    key_dtype = dtypes.as_dtype(key_dtype)
    if not key_dtype.is_integer and key_dtype != dtypes.string:
        raise TypeError("`key_dtype` must be either an integer or string type, but got %s" % key_dtype)
    if vocab_size is not None:
        from .experimental_transforms import assert_cardinality
        dataset = dataset.take(vocab_size).apply(assert_cardinality(vocab_size))
    with ops.name_scope(name, "string_to_index"):
        initializer = DatasetInitializer(dataset)
        with ops.name_scope(None, "hash_table"):
            if num_oov_buckets:
                return lookup_ops.StaticVocabularyTable(initializer, num_oov_buckets)
            return lookup_ops.StaticHashTable(initializer, default_value)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=-1, hasher_spec=None,
                             key_dtype=dtypes.string, name=None):
    """Returns a lookup table mapping each key of a dataset of keys to its position (int64).

    Args:
      dataset: A dataset of scalar keys.
      num_oov_buckets: The number of out-of-vocabulary buckets.
      vocab_size: (Optional.) The number of keys to use.
      default_value: The value of missing keys (default -1).
      hasher_spec: Must be None (TF's default FastHashSpec).
      key_dtype: The key dtype (integer or string).
      name: A name for the ops.

    Returns:
      The lookup table.

    Raises:
      ValueError: If `num_oov_buckets` is negative or `vocab_size` is not positive.
      TypeError: If `key_dtype` is not an integer or string type.
    """
    from .experimental import enumerate_dataset
    pairs = dataset.apply(enumerate_dataset()).map(lambda v, k: (k, v))
    return table_from_dataset(pairs, num_oov_buckets, vocab_size, default_value, hasher_spec, key_dtype, name)
