"""The TF 1.15 `tf.contrib.layers` feature columns whose behaviour in the core feature-column
functions (`tf.feature_column.input_layer`, `linear_model`, `make_parse_example_spec`) is that of
a core column: `real_valued_column`, `sparse_column_with_hash_bucket`, `sparse_column_with_keys`,
`sparse_column_with_vocabulary_file`, `weighted_sparse_column`, `bucketized_column` and
`one_hot_column`.

Left out, because TF 1.15's versions differ from the core columns: `embedding_column` (its
variable is "<name>/weights", not "embedding_weights"), `crossed_column` (another hashing),
`sparse_column_with_integerized_feature` (ids taken modulo the bucket size), variable-length
`real_valued_column(dimension=None)`, and contrib's own model functions
(`input_from_feature_columns`, `weighted_sum_from_feature_columns`) which would use a sparse
column's `combiner` (the core functions ignore it, as in TF).
"""

from ..feature_column import columns as _fc
from ..framework import dtypes

__all__ = ["bucketized_column", "one_hot_column", "real_valued_column", "sparse_column_with_hash_bucket",
           "sparse_column_with_keys"]

_COMBINERS = ("sum", "mean", "sqrtn")


def _check_combiner(combiner, column_name):
    if combiner not in _COMBINERS:
        raise ValueError("Combiner must be one of 'mean', 'sqrtn' or 'sum'. Given: {}, column_name: {}"
                         .format(combiner, column_name))


def real_valued_column(column_name, dimension=1, default_value=None, dtype=dtypes.float32, normalizer=None):
    """Creates a `_RealValuedColumn` for dense numeric data (the core `numeric_column` of shape
    `[dimension]`).

    Args:
      column_name: A string defining real valued column name.
      dimension: An integer specifying dimension of the real valued column. The default is 1.
      default_value: A single value compatible with dtype or a list of values compatible with
        dtype which the column takes on during tf.Example parsing if data is missing.
      dtype: defines the type of values. Default value is tf.float32. Must be a non-quantized,
        real integer or floating point type.
      normalizer: If not None, a function that can be used to normalize the value of the real
        valued column after default_value is applied for parsing. Normalizer function takes the
        input tensor as its argument, and returns the output tensor.

    Returns:
      A real valued column.

    Raises:
      TypeError: if dimension is not an int.
      ValueError: if dimension is not a positive integer, or dtype is not convertible to float.
      NotImplementedError: for `dimension=None` (variable-length real valued columns).
    """
    if dimension is None:
        raise NotImplementedError("real_valued_column: dimension=None (a sparse, variable-length column) is not "
                                  "supported by tensorweave.")
    if not isinstance(dimension, int) or isinstance(dimension, bool):
        raise TypeError("dimension must be an integer. dimension: {}, column_name: {}".format(dimension, column_name))
    if dimension < 1:
        raise ValueError("dimension must be greater than 0. dimension: {}, column_name: {}"
                         .format(dimension, column_name))
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError("dtype must be convertible to float. dtype: {}, column_name: {}".format(dtype, column_name))
    if default_value is not None and not isinstance(default_value, (list, tuple)):
        default_value = [default_value] * dimension
    return _fc.numeric_column(column_name, shape=(dimension,), default_value=default_value, dtype=dtype,
                              normalizer_fn=normalizer)


def sparse_column_with_hash_bucket(column_name, hash_bucket_size, combiner="sum", dtype=dtypes.string,
                                   hash_keys=None):
    """Creates a sparse column using hashing: ids are `fingerprint(value) % hash_bucket_size`
    (the core `categorical_column_with_hash_bucket`).

    Args:
      column_name: A string defining sparse column name.
      hash_bucket_size: An int that is > 1. The number of buckets.
      combiner: "sum", "mean" or "sqrtn", used by contrib's own model functions (the core
        `linear_model` takes its own `sparse_combiner`, as in TF).
      dtype: The type of features. Only string and integer types are supported.
      hash_keys: Only None is supported.

    Returns:
      A sparse column with hashed buckets.

    Raises:
      ValueError: hash_bucket_size is not greater than 2, or dtype is neither string nor integer,
        or the combiner is unknown.
      NotImplementedError: for `hash_keys`.
    """
    if hash_keys is not None:
        raise NotImplementedError("sparse_column_with_hash_bucket: hash_keys is not supported by tensorweave.")
    _check_combiner(combiner, column_name)
    return _fc.categorical_column_with_hash_bucket(column_name, hash_bucket_size, dtype=dtype)


def sparse_column_with_keys(column_name, keys, default_value=-1, combiner="sum", dtype=dtypes.string):
    """Creates a sparse column with keys: a value's id is its index in `keys`, else
    `default_value` (the core `categorical_column_with_vocabulary_list`).

    Args:
      column_name: A string defining sparse column name.
      keys: A list or tuple defining vocabulary. Must be castable to `dtype`.
      default_value: The value to use for out-of-vocabulary feature values. Default is -1.
      combiner: "sum", "mean" or "sqrtn", used by contrib's own model functions (the core
        `linear_model` takes its own `sparse_combiner`, as in TF).
      dtype: Type of features. Only integer and string are supported.

    Returns:
      A sparse column with keys.

    Raises:
      ValueError: For an unknown combiner, or as `categorical_column_with_vocabulary_list`.
    """
    _check_combiner(combiner, column_name)
    return _fc.categorical_column_with_vocabulary_list(column_name, tuple(keys), dtype=dtype,
                                                       default_value=default_value)


def bucketized_column(source_column, boundaries):
    """Creates a bucketized column from a real valued column (the core `bucketized_column`).

    Args:
      source_column: A real valued column (from `real_valued_column`).
      boundaries: A list or tuple of floats specifying the boundaries. It has to be sorted.

    Returns:
      A bucketized column.

    Raises:
      ValueError: if 'boundaries' is empty or not sorted, or the source is not a real valued
        column.
    """
    return _fc.bucketized_column(source_column, boundaries)


class _OneHotColumn(_fc._IndicatorColumn):
    """contrib's one-hot view of a sparse column: the core indicator column named "<name>_one_hot"."""

    @property
    def name(self):
        return "{}_one_hot".format(self.categorical_column.name)


def one_hot_column(sparse_id_column):
    """Creates an `_OneHotColumn` (named "<column>_one_hot") for a one-hot or multi-hot repr in a
    DNN: per example, the count (or summed weight) of each id.

    Args:
      sparse_id_column: A sparse column (e.g. from `sparse_column_with_keys`).

    Returns:
      An _OneHotColumn.
    """
    return _OneHotColumn(categorical_column=sparse_id_column)


def weighted_sparse_column(sparse_id_column, weight_column_name, dtype=dtypes.float32):
    """Creates a _SparseColumn by combining sparse_id_column with a weight column (the core
    `weighted_categorical_column`, named "<column>_weighted_by_<weight column>").

    Args:
      sparse_id_column: A `_SparseColumn` which is created by `sparse_column_with_*` functions.
      weight_column_name: A string defining a sparse column name which represents weight or value
        of the corresponding sparse id feature.
      dtype: Type of weights, such as `tf.float32`. Only floating and integer weights are
        supported.

    Returns:
      A _WeightedSparseColumn composed of two sparse features: one represents id, the other
      represents weight (value) of the id feature in that example.

    Raises:
      ValueError: if dtype is not convertible to float.
    """
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError("dtype is not convertible to float. Given {}".format(dtype))
    return _fc.weighted_categorical_column(sparse_id_column, weight_column_name, dtype=dtype)


__all__ += ["weighted_sparse_column"]


def sparse_column_with_vocabulary_file(column_name, vocabulary_file, num_oov_buckets=0, vocab_size=None,
                                       default_value=-1, combiner="sum", dtype=dtypes.string):
    """Creates a sparse column whose ids are line numbers in a vocabulary file (the core
    `categorical_column_with_vocabulary_file`): out-of-vocabulary values get `default_value`, or
    a hashed id in `[vocab_size, vocab_size + num_oov_buckets)` when `num_oov_buckets > 0`.

    Args:
      column_name: A string defining sparse column name.
      vocabulary_file: The vocabulary filename.
      num_oov_buckets: The number of out-of-vocabulary buckets. If zero all out of vocabulary
        features will be ignored.
      vocab_size: Number of the elements in the vocabulary.
      default_value: The value to use for out-of-vocabulary feature values. Defaults to -1.
      combiner: "sum", "mean" or "sqrtn", used by contrib's own model functions (the core
        `linear_model` takes its own `sparse_combiner`, as in TF).
      dtype: The type of features. Only string and integer types are supported.

    Returns:
      A sparse column with vocabulary file.

    Raises:
      ValueError: vocab_size is not defined, or both `num_oov_buckets` and a `default_value`
        other than -1 are given, or the combiner is unknown.
    """
    if vocab_size is None:
        raise ValueError("vocab_size should be defined. column_name: {}".format(column_name))
    _check_combiner(combiner, column_name)
    if num_oov_buckets and default_value != -1:
        raise ValueError("Can't specify both num_oov_buckets and default_value in {}.".format(column_name))
    return _fc.categorical_column_with_vocabulary_file(column_name, vocabulary_file, vocabulary_size=vocab_size,
                                                       num_oov_buckets=num_oov_buckets,
                                                       default_value=None if default_value == -1 else default_value,
                                                       dtype=dtype)


__all__ += ["sparse_column_with_vocabulary_file"]
