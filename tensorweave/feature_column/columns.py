"""The feature columns of `tf.feature_column` (TF 1.x semantics): how raw features become dense tensors
(`_DenseColumn`) or sparse ids with optional weights (`_CategoricalColumn`), and what each parses
from `tf.Example`s.

A column transforms features through a `_LazyBuilder`, which caches each transformed feature so a
column used twice is computed once, and turns a rank-1 raw feature into a column `[batch, 1]`.
"""

import collections
import math

import numpy as np

from ..framework import dtypes, ops
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape
from ..ops import math_bucketize_ops, parsing_ops

__all__ = ["bucketized_column", "categorical_column_with_hash_bucket", "categorical_column_with_identity",
           "categorical_column_with_vocabulary_file", "categorical_column_with_vocabulary_list", "crossed_column",
           "embedding_column", "indicator_column", "numeric_column", "shared_embedding_columns",
           "weighted_categorical_column"]

# The hash key of crossed columns (TF's FARMHASH_HASH_KEY).
_FARMHASH_HASH_KEY = 0xDECAFCAFFE

IdWeightPair = collections.namedtuple("IdWeightPair", ["id_tensor", "weight_tensor"])


# ---- the base classes ----------------------------------------------------------------------------
class _FeatureColumn:
    """A feature column: a `name`, what it parses from Examples, and how it transforms features."""

    _fields = ()

    def __init__(self, **kwargs):
        for k in self._fields:
            setattr(self, k, kwargs[k])

    def _key(self):
        return (type(self),) + tuple(_hashable(getattr(self, k)) for k in self._fields)

    def __eq__(self, other):
        return isinstance(other, _FeatureColumn) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__.lstrip("_"),
                           ", ".join("%s=%r" % (k, getattr(self, k)) for k in self._fields))

    @property
    def _var_scope_name(self):
        return self.name

    def _transform_feature(self, inputs):
        raise NotImplementedError

    @property
    def _parse_example_spec(self):
        raise NotImplementedError


def _hashable(v):
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    try:
        hash(v)
        return v
    except TypeError:
        return id(v)


class _DenseColumn(_FeatureColumn):
    """A column giving a dense tensor `[batch] + _variable_shape`."""

    @property
    def _variable_shape(self):
        raise NotImplementedError

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        raise NotImplementedError


class _CategoricalColumn(_FeatureColumn):
    """A column giving sparse ids in `[0, _num_buckets)` (and optional weights)."""

    IdWeightPair = IdWeightPair

    @property
    def _num_buckets(self):
        raise NotImplementedError

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        return IdWeightPair(inputs.get(self), None)


# ---- features ----------------------------------------------------------------------------------------
def _to_sparse_input_and_drop_ignore_values(input_tensor, ignore_value=None):
    """A SparseTensor of the elements of a dense `input_tensor` other than `ignore_value` ("" for strings,
    -1 for integers, 0 for floats by default); a SparseTensor is returned as it is."""
    from ..ops import array_ops, core_ops, math_ops
    if isinstance(input_tensor, SparseTensor):
        return input_tensor
    input_tensor = ops.convert_to_tensor(input_tensor)
    with ops.name_scope(None, "to_sparse_input", [input_tensor]):
        if ignore_value is None:
            if input_tensor.dtype == dtypes.string:
                ignore_value = ""
            elif input_tensor.dtype.is_integer:
                ignore_value = -1
            else:
                ignore_value = 0
        ignore = ops.convert_to_tensor(np.array(ignore_value, dtype=object if input_tensor.dtype == dtypes.string
                                                else input_tensor.dtype.as_numpy_dtype), name="ignore_value")
        indices = array_ops.where(math_ops.not_equal(input_tensor, ignore), name="indices")
        return SparseTensor(indices=indices, values=array_ops.gather_nd(input_tensor, indices, name="values"),
                            dense_shape=core_ops.shape(input_tensor, out_type=dtypes.int64, name="dense_shape"))


class _LazyBuilder:
    """The features of one `input_layer`/`linear_model` call, each transformed once when first asked."""

    def __init__(self, features):
        self._features = dict(features)
        self._cache = {}

    def get(self, key):
        """The feature `key` (a string: the raw feature, rank-1 made `[batch, 1]`; a column: its transform).

        Raises:
          ValueError: If a string key is missing or has rank 0.
          TypeError: If `key` is neither.
        """
        if key in self._cache:
            return self._cache[key]
        if isinstance(key, str):
            value = self._raw(key)
        elif isinstance(key, _FeatureColumn):
            value = key._transform_feature(self)
            if value is None:
                raise ValueError("Column {} is not supported.".format(key.name))
        else:
            raise TypeError("key must be a _FeatureColumn instance or a string. Given: {}".format(key))
        self._cache[key] = value
        return value

    def _raw(self, key):
        from ..ops import array_ops
        from ..ops.sparse_core_ops import sparse_reshape
        if key not in self._features:
            raise ValueError("Feature {} is not in features dictionary.".format(key))
        value = self._features[key]
        if not isinstance(value, SparseTensor):
            value = ops.convert_to_tensor(value)
        rank = value.shape.ndims
        if rank == 0:
            raise ValueError("Feature (key: {}) cannot have rank 0. Given: {}".format(key, value))
        if rank == 1:
            if isinstance(value, SparseTensor):
                return sparse_reshape(value, [-1, 1])
            return array_ops.expand_dims(value, -1)
        return value


# ---- numeric and bucketized -------------------------------------------------------------------------
class _NumericColumn(_DenseColumn):
    _fields = ("key", "shape", "default_value", "dtype", "normalizer_fn")

    @property
    def name(self):
        return self.key

    @property
    def _parse_example_spec(self):
        return {self.key: parsing_ops.FixedLenFeature(self.shape, self.dtype, self.default_value)}

    def _transform_feature(self, inputs):
        from ..ops import math_ops
        value = inputs.get(self.key)
        if isinstance(value, SparseTensor):
            raise ValueError("The corresponding Tensor of numerical column must be a Tensor. SparseTensor is not "
                             "supported. key: {}".format(self.key))
        if self.normalizer_fn is not None:
            value = self.normalizer_fn(value)
        return math_ops.cast(value, dtypes.float32)

    @property
    def _variable_shape(self):
        return TensorShape(self.shape)

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return inputs.get(self)


def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32, normalizer_fn=None):
    """A column of real values: the feature `key` cast to float32, of `shape` per example.

    Args:
      key: The feature's name.
      shape: The shape of one example's value (an int or a tuple of ints).
      default_value: The value `tf.parse_example` uses when the feature is missing.
      dtype: The feature's dtype in Examples (float or integer).
      normalizer_fn: Applied to the feature before the cast.

    Returns:
      A `_NumericColumn`.

    Raises:
      TypeError: If `key` is not a string, or `normalizer_fn` not callable.
      ValueError: For an invalid shape, dtype or default_value.
    """
    shape = _check_shape(shape, key)
    if not isinstance(key, str):
        raise TypeError("key must be a string. Given: {}".format(key))
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError("dtype must be convertible to float. dtype: {}, key: {}".format(dtype, key))
    if default_value is not None:
        arr = np.asarray(default_value)
        if arr.size not in (1, int(np.prod(shape))):
            raise ValueError("The shape of default_value must be equal to given shape. default_value: {}, shape: "
                             "{}, key: {}".format(default_value, shape, key))
        default_value = tuple(np.broadcast_to(arr, shape).reshape(-1).tolist()) if arr.size != 1 or shape != (1,) \
            else default_value
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError("normalizer_fn must be a callable. Given: {}".format(normalizer_fn))
    return _NumericColumn(key=key, shape=shape, default_value=default_value, dtype=dtype, normalizer_fn=normalizer_fn)


def _check_shape(shape, key):
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    for d in shape:
        if not isinstance(d, (int, np.integer)):
            raise TypeError("shape dimensions must be integer. shape: {}, key: {}".format(shape, key))
        if d < 1:
            raise ValueError("shape dimensions must be greater than 0. shape: {}, key: {}".format(shape, key))
    return tuple(int(d) for d in shape)


class _BucketizedColumn(_DenseColumn, _CategoricalColumn):
    _fields = ("source_column", "boundaries")

    @property
    def name(self):
        return "{}_bucketized".format(self.source_column.name)

    @property
    def _parse_example_spec(self):
        return self.source_column._parse_example_spec

    def _transform_feature(self, inputs):
        return math_bucketize_ops.bucketize(inputs.get(self.source_column), self.boundaries)

    @property
    def _variable_shape(self):
        return TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        from ..ops import array_ops
        return array_ops.one_hot(inputs.get(self), depth=len(self.boundaries) + 1, on_value=1.0, off_value=0.0)

    @property
    def _num_buckets(self):
        return (len(self.boundaries) + 1) * self.source_column.shape[0]

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        from ..ops import array_ops, core_ops, math_ops
        value = inputs.get(self)
        batch_size = core_ops.shape(value)[0]
        dim = self.source_column.shape[0]
        i1 = array_ops.reshape(array_ops.tile(array_ops.expand_dims(array_ops.range(0, batch_size), 1), [1, dim]),
                               (-1,))
        i2 = array_ops.tile(array_ops.range(0, dim), [batch_size])
        ids = array_ops.reshape(value, (-1,)) + (len(self.boundaries) + 1) * i2
        indices = math_ops.cast(array_ops.transpose(array_ops.stack((i1, i2))), dtypes.int64)
        dense_shape = math_ops.cast(array_ops.stack([batch_size, dim]), dtypes.int64)
        return IdWeightPair(SparseTensor(indices=indices, values=ids, dense_shape=dense_shape), None)


def bucketized_column(source_column, boundaries):
    """A column bucketing a 1-D numeric column: dense as one-hot buckets, categorical as bucket ids.

    Args:
      source_column: A `numeric_column` with a 1-D shape.
      boundaries: A strictly increasing list of floats: bucket `i` is `[boundaries[i-1], boundaries[i])`.

    Returns:
      A `_BucketizedColumn`.

    Raises:
      ValueError: If `source_column` is not a 1-D numeric column or `boundaries` is not sorted.
    """
    if not isinstance(source_column, _NumericColumn):
        raise ValueError("source_column must be a column generated with numeric_column(). Given: {}".format(
            source_column))
    if len(source_column.shape) > 1:
        raise ValueError("source_column must be one-dimensional column. Given: {}".format(source_column))
    if not boundaries or not isinstance(boundaries, (list, tuple)) or not all(
            a < b for a, b in zip(boundaries[:-1], boundaries[1:])):
        raise ValueError("boundaries must be a sorted list.")
    return _BucketizedColumn(source_column=source_column, boundaries=tuple(float(b) for b in boundaries))


# ---- categorical columns ----------------------------------------------------------------------------
def _check_sparse_dtype(value, column_dtype, key):
    ok = (value.dtype == dtypes.string) == (column_dtype == dtypes.string) and (
        value.dtype == dtypes.string or value.dtype.is_integer)
    if not ok:
        raise ValueError("Column dtype and SparseTensors dtype must be compatible. key: {}, column dtype: {}, tensor "
                         "dtype: {}".format(key, column_dtype, value.dtype))


def _check_categorical_dtype(dtype, key):
    dtype = dtypes.as_dtype(dtype)
    if dtype != dtypes.string and not dtype.is_integer:
        raise ValueError("dtype must be string or integer. dtype: {}, column_name: {}".format(dtype, key))
    return dtype


class _KeyedCategoricalColumn(_CategoricalColumn):
    """A categorical column of the one feature `key`, parsed as a `VarLenFeature` of `dtype`."""

    @property
    def name(self):
        return self.key

    @property
    def _parse_example_spec(self):
        return {self.key: parsing_ops.VarLenFeature(self.dtype)}

    def _sparse_input(self, inputs):
        """The feature as a `SparseTensor` (ignored values dropped), checked against the column's dtype."""
        value = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        _check_sparse_dtype(value, self.dtype, self.key)
        return value

    def _vocabulary_input(self, inputs):
        """The feature as for `_sparse_input`, integers cast to int64, and the dtype of the vocabulary keys."""
        from ..ops import math_ops
        value = self._sparse_input(inputs)
        key_dtype = self.dtype
        if value.dtype.is_integer:
            key_dtype = dtypes.int64
            value = SparseTensor(value.indices, math_ops.cast(value.values, dtypes.int64), value.dense_shape)
        return value, key_dtype


class _HashedCategoricalColumn(_KeyedCategoricalColumn):
    _fields = ("key", "hash_bucket_size", "dtype")

    def _transform_feature(self, inputs):
        from ..ops.string_basic_ops import as_string
        from ..ops.string_hash_ops import string_to_hash_bucket_fast
        value = self._sparse_input(inputs)
        strings = value.values if self.dtype == dtypes.string else as_string(value.values)
        ids = string_to_hash_bucket_fast(strings, self.hash_bucket_size, name="lookup")
        return SparseTensor(value.indices, ids, value.dense_shape)

    @property
    def _num_buckets(self):
        return self.hash_bucket_size


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """A categorical column hashing string (or integer, via its decimal string) features into
    `hash_bucket_size` buckets with FarmHash Fingerprint64 (the `[strings]` extra), as TF.

    Args:
      key: The feature's name.
      hash_bucket_size: The number of buckets (>= 1).
      dtype: string or an integer dtype.

    Returns:
      A `_HashedCategoricalColumn`.

    Raises:
      ValueError: For a missing or invalid bucket count or dtype.
    """
    if hash_bucket_size is None:
        raise ValueError("hash_bucket_size must be set. key: {}".format(key))
    if hash_bucket_size < 1:
        raise ValueError("hash_bucket_size must be at least 1. hash_bucket_size: {}, key: {}".format(
            hash_bucket_size, key))
    dtype = _check_categorical_dtype(dtype, key)
    return _HashedCategoricalColumn(key=key, hash_bucket_size=hash_bucket_size, dtype=dtype)


class _VocabularyListCategoricalColumn(_KeyedCategoricalColumn):
    _fields = ("key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets")

    def _transform_feature(self, inputs):
        value, key_dtype = self._vocabulary_input(inputs)
        vocab = np.array(self.vocabulary_list, dtype=object if key_dtype == dtypes.string else np.int64)
        table = _index_table(ops.convert_to_tensor(vocab, dtype=key_dtype), self.num_oov_buckets, self.default_value,
                             "{}_lookup".format(self.key))
        return table.lookup(value)

    @property
    def _num_buckets(self):
        return len(self.vocabulary_list) + self.num_oov_buckets


def _index_table(keys, num_oov_buckets, default_value, name):
    """TF's `index_table_from_tensor`: ids are positions in `keys`; OOV keys hash into extra buckets or get
    `default_value`."""
    from ..ops import array_ops, lookup_ops
    with ops.name_scope(name, "string_to_index"):
        n = keys.shape.as_list()[0]
        ids = array_ops.range(n, dtype=dtypes.int64) if n is not None else None
        init = lookup_ops.KeyValueTensorInitializer(keys, ids, name="table_init")
        return _oov_table(init, num_oov_buckets, default_value)


def _oov_table(init, num_oov_buckets, default_value):
    """The table of `init`: OOV keys hash into `num_oov_buckets` extra ids, or else get `default_value`."""
    from ..ops import lookup_ops
    if num_oov_buckets:
        return lookup_ops.StaticVocabularyTable(init, num_oov_buckets, name="hash_table")
    return lookup_ops.StaticHashTable(init, default_value, name="hash_table")


def _check_vocab_args(key, num_oov_buckets, default_value, unset=-1):
    if num_oov_buckets:
        if default_value != unset:
            raise ValueError("Can't specify both num_oov_buckets and default_value in {}.".format(key))
        if num_oov_buckets < 0:
            raise ValueError("Invalid num_oov_buckets {} in {}.".format(num_oov_buckets, key))


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1, num_oov_buckets=0):
    """A categorical column whose ids are positions in `vocabulary_list`; other values get
    `default_value` or hash into `num_oov_buckets` extra ids.

    Args:
      key: The feature's name.
      vocabulary_list: The vocabulary (strings or integers), without duplicates.
      dtype: The feature's dtype (default: inferred from the vocabulary).
      default_value: The id of out-of-vocabulary values when there are no OOV buckets.
      num_oov_buckets: The number of OOV buckets.

    Returns:
      A `_VocabularyListCategoricalColumn`.

    Raises:
      ValueError: For an empty or duplicated vocabulary, both OOV settings, or a dtype mismatch.
    """
    if vocabulary_list is None or len(vocabulary_list) < 1:
        raise ValueError("vocabulary_list {} must be non-empty, column_name: {}".format(vocabulary_list, key))
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError("Duplicate keys in vocabulary_list {}, column_name: {}".format(vocabulary_list, key))
    vocab_dtype = dtypes.string if isinstance(vocabulary_list[0], (str, bytes)) else dtypes.int64
    if dtype is not None:
        dtype = _check_categorical_dtype(dtype, key)
        if (dtype == dtypes.string) != (vocab_dtype == dtypes.string):
            raise ValueError("dtype {} and vocabulary dtype {} do not match, column_name: {}".format(
                dtype, vocab_dtype, key))
    _check_vocab_args(key, num_oov_buckets, default_value)
    return _VocabularyListCategoricalColumn(key=key, vocabulary_list=tuple(vocabulary_list),
                                            dtype=dtype or vocab_dtype, default_value=default_value,
                                            num_oov_buckets=num_oov_buckets)


class _VocabularyFileCategoricalColumn(_KeyedCategoricalColumn):
    _fields = ("key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype", "default_value")

    def _transform_feature(self, inputs):
        from ..ops import lookup_ops
        value, key_dtype = self._vocabulary_input(inputs)
        with ops.name_scope("{}_lookup".format(self.key), "string_to_index"):
            init = lookup_ops.TextFileInitializer(self.vocabulary_file, key_dtype, lookup_ops.TextFileIndex.WHOLE_LINE,
                                                  dtypes.int64, lookup_ops.TextFileIndex.LINE_NUMBER,
                                                  vocab_size=self.vocabulary_size)
            table = _oov_table(init, self.num_oov_buckets, self.default_value)
        return table.lookup(value)

    @property
    def _num_buckets(self):
        return self.vocabulary_size + self.num_oov_buckets


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None, num_oov_buckets=0,
                                            default_value=None, dtype=dtypes.string):
    """A categorical column whose ids are line numbers of a vocabulary file (one entry per line).

    Args:
      key: The feature's name.
      vocabulary_file: The vocabulary file's path.
      vocabulary_size: How many lines to use (default: all, counted now).
      num_oov_buckets: The number of OOV buckets.
      default_value: The id of OOV values when there are no OOV buckets (default -1).
      dtype: string or an integer dtype.

    Returns:
      A `_VocabularyFileCategoricalColumn`.

    Raises:
      ValueError: For a missing file, invalid size, or both OOV settings.
    """
    if not vocabulary_file:
        raise ValueError("Missing vocabulary_file in {}.".format(key))
    if vocabulary_size is None:
        try:
            with open(vocabulary_file, "rb") as f:
                vocabulary_size = sum(1 for _ in f)
        except OSError:
            raise ValueError("vocabulary_file in {} does not exist.".format(key)) from None
    if vocabulary_size < 1:
        raise ValueError("Invalid vocabulary_size in {}.".format(key))
    _check_vocab_args(key, num_oov_buckets, default_value, unset=None)
    dtype = _check_categorical_dtype(dtype, key)
    return _VocabularyFileCategoricalColumn(key=key, vocabulary_file=vocabulary_file,
                                            vocabulary_size=vocabulary_size, num_oov_buckets=num_oov_buckets,
                                            default_value=-1 if default_value is None else default_value,
                                            dtype=dtype)


class _IdentityCategoricalColumn(_CategoricalColumn):
    _fields = ("key", "num_buckets", "default_value")

    @property
    def name(self):
        return self.key

    @property
    def _parse_example_spec(self):
        return {self.key: parsing_ops.VarLenFeature(dtypes.int64)}

    def _transform_feature(self, inputs):
        from ..ops import array_ops, check_ops, core_ops, math_ops
        value = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        if not value.dtype.is_integer:
            raise ValueError("Invalid input, not integer. key: {} dtype: {}".format(self.key, value.dtype))
        values = math_ops.cast(value.values, dtypes.int64, name="values")
        num_buckets = ops.convert_to_tensor(np.int64(self.num_buckets), name="num_buckets")
        zero = ops.convert_to_tensor(np.int64(0), name="zero")
        if self.default_value is None:
            less = check_ops.assert_less(values, num_buckets, data=(values, num_buckets),
                                         name="assert_less_than_num_buckets")
            ge = check_ops.assert_greater_equal(values, zero, data=(values,), name="assert_greater_or_equal_0")
            with ops.control_dependencies((less, ge)):
                values = core_ops.identity(values)
        else:
            bad = math_ops.logical_or(math_ops.less(values, zero), math_ops.greater_equal(values, num_buckets),
                                      name="out_of_range")
            values = array_ops.where(bad, array_ops.fill(core_ops.shape(values), np.int64(self.default_value)),
                                     values, name="final_values")
        return SparseTensor(value.indices, values, value.dense_shape)

    @property
    def _num_buckets(self):
        return self.num_buckets


def categorical_column_with_identity(key, num_buckets, default_value=None):
    """A categorical column whose integer values are the ids themselves, in `[0, num_buckets)`.

    Args:
      key: The feature's name.
      num_buckets: The number of ids.
      default_value: The id of out-of-range values (None: they fail the run with InvalidArgumentError).

    Returns:
      An `_IdentityCategoricalColumn`.

    Raises:
      ValueError: For `num_buckets < 1` or a default value out of range.
    """
    if num_buckets < 1:
        raise ValueError("num_buckets {} < 1, column_name {}".format(num_buckets, key))
    if default_value is not None and (default_value < 0 or default_value >= num_buckets):
        raise ValueError("default_value {} not in range [0, {}), column_name {}".format(default_value, num_buckets,
                                                                                      key))
    return _IdentityCategoricalColumn(key=key, num_buckets=num_buckets, default_value=default_value)


class _WeightedCategoricalColumn(_CategoricalColumn):
    _fields = ("categorical_column", "weight_feature_key", "dtype")

    @property
    def name(self):
        return "{}_weighted_by_{}".format(self.categorical_column.name, self.weight_feature_key)

    @property
    def _parse_example_spec(self):
        config = dict(self.categorical_column._parse_example_spec)
        if self.weight_feature_key in config:
            raise ValueError("Parse config {} already exists for {}.".format(config[self.weight_feature_key],
                                                                             self.weight_feature_key))
        config[self.weight_feature_key] = parsing_ops.VarLenFeature(self.dtype)
        return config

    @property
    def _num_buckets(self):
        return self.categorical_column._num_buckets

    def _transform_feature(self, inputs):
        from ..ops import math_ops
        weights = inputs.get(self.weight_feature_key)
        if weights is None:
            raise ValueError("Missing weights {}.".format(self.weight_feature_key))
        weights = _to_sparse_input_and_drop_ignore_values(weights)
        if self.dtype != weights.dtype.base_dtype:
            raise ValueError("Bad dtype, expected {}, but got {}.".format(self.dtype, weights.dtype))
        if weights.dtype != dtypes.float32:
            weights = SparseTensor(weights.indices, math_ops.cast(weights.values, dtypes.float32),
                                   weights.dense_shape)
        return (inputs.get(self.categorical_column), weights)

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        ids, weights = inputs.get(self)
        return IdWeightPair(ids, weights)


def weighted_categorical_column(categorical_column, weight_feature_key, dtype=dtypes.float32):
    """A categorical column whose ids carry weights read from another feature (same sparsity).

    Args:
      categorical_column: The ids' column.
      weight_feature_key: The feature holding one weight per id.
      dtype: The weights' dtype (float).

    Returns:
      A `_WeightedCategoricalColumn`.

    Raises:
      ValueError: If `dtype` is not a float type.
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype is None or not (dtype.is_integer or dtype.is_floating):
        raise ValueError("dtype {} is not convertible to float.".format(dtype))
    return _WeightedCategoricalColumn(categorical_column=categorical_column, weight_feature_key=weight_feature_key,
                                      dtype=dtype)


class _CrossedColumn(_CategoricalColumn):
    _fields = ("keys", "hash_bucket_size", "hash_key")

    @property
    def name(self):
        names = []
        for key in _collect_leaf_level_keys(self):
            names.append(key if isinstance(key, str) else key.name)
        return "_X_".join(sorted(names))

    @property
    def _parse_example_spec(self):
        config = {}
        for key in self.keys:
            if isinstance(key, _FeatureColumn):
                config.update(key._parse_example_spec)
            else:
                config[key] = parsing_ops.VarLenFeature(dtypes.string)
        return config

    def _transform_feature(self, inputs):
        from ..ops.sparse_cross_ops import sparse_cross_hashed
        tensors = []
        # As TF: the keys in name order, and raw features crossed as they are (a dense "" or -1 is a value).
        for key in sorted(_collect_leaf_level_keys(self), key=lambda k: k if isinstance(k, str) else k.name):
            if isinstance(key, str):
                tensors.append(inputs.get(key))
            elif isinstance(key, _CategoricalColumn):
                ids, weights = key._get_sparse_tensors(inputs)
                if weights is not None:
                    raise ValueError("crossed_column does not support weight_tensor, but the given column populates "
                                     "weight_tensor. Given column: {}".format(key.name))
                tensors.append(ids)
            else:
                raise ValueError("Unsupported column type. Given: {}".format(key))
        return sparse_cross_hashed(inputs=tensors, num_buckets=self.hash_bucket_size, hash_key=self.hash_key)

    @property
    def _num_buckets(self):
        return self.hash_bucket_size


def _collect_leaf_level_keys(cross):
    leaves = []
    for k in cross.keys:
        leaves.extend(_collect_leaf_level_keys(k) if isinstance(k, _CrossedColumn) else [k])
    return leaves


def crossed_column(keys, hash_bucket_size, hash_key=None):
    """A categorical column of the hashed crosses of several features or categorical columns
    (FarmHash FingerprintCat64 of the fingerprints, as TF's SparseCrossHashed).

    Args:
      keys: Two or more feature names or categorical columns (not hashed ones).
      hash_bucket_size: The number of buckets (> 1).
      hash_key: The hash key (default TF's FARMHASH_HASH_KEY).

    Returns:
      A `_CrossedColumn`.

    Raises:
      ValueError: For fewer than two keys, a bad bucket count or an unsupported key.
    """
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError("hash_bucket_size must be > 1. hash_bucket_size: {}".format(hash_bucket_size))
    if not keys or len(keys) < 2:
        raise ValueError("keys must be a list with length > 1. Given: {}".format(keys))
    for key in keys:
        if not isinstance(key, str) and not isinstance(key, _CategoricalColumn):
            raise ValueError("Unsupported key type. All keys must be either string, or categorical column except "
                             "_HashedCategoricalColumn. Given: {}".format(key))
        if isinstance(key, _HashedCategoricalColumn):
            raise ValueError("categorical_column_with_hash_bucket is not supported for crossing. Hashing before "
                             "crossing will increase probability of collision. Instead, use the feature name as a "
                             "string. Given: {}".format(key))
    return _CrossedColumn(keys=tuple(keys), hash_bucket_size=hash_bucket_size,
                          hash_key=_FARMHASH_HASH_KEY if hash_key is None else hash_key)


# ---- dense views of categorical columns ------------------------------------------------------------
class _IndicatorColumn(_DenseColumn):
    _fields = ("categorical_column",)

    @property
    def name(self):
        return "{}_indicator".format(self.categorical_column.name)

    @property
    def _parse_example_spec(self):
        return self.categorical_column._parse_example_spec

    def _transform_feature(self, inputs):
        from ..ops import array_ops, math_ops
        from ..ops.sparse_core_ops import sparse_merge, sparse_slice
        from ..ops.sparse_ops import sparse_tensor_to_dense
        ids, weights = self.categorical_column._get_sparse_tensors(inputs)
        depth = self.categorical_column._num_buckets
        if weights is not None:
            merged = sparse_merge(sp_ids=ids, sp_values=weights, vocab_size=depth)
            # Slicing drops the ids -1 of values missing from the vocabulary; scatter_nd adds repeated ids.
            merged = sparse_slice(merged, [0, 0], merged.dense_shape)
            return array_ops.scatter_nd(merged.indices, merged.values, merged.dense_shape)
        dense_ids = sparse_tensor_to_dense(ids, default_value=-1)
        one_hot = array_ops.one_hot(dense_ids, depth=depth, on_value=1.0, off_value=0.0)
        return math_ops.reduce_sum(one_hot, axis=[-2])

    @property
    def _variable_shape(self):
        return TensorShape([1, self.categorical_column._num_buckets])

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return inputs.get(self)


def indicator_column(categorical_column):
    """A dense multi-hot view of a categorical column: per example, the count (or summed weight) of each id.

    Args:
      categorical_column: A categorical column.

    Returns:
      An `_IndicatorColumn`.
    """
    return _IndicatorColumn(categorical_column=categorical_column)


def _check_embedding_args(dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt, combiner, name):
    if dimension is None or dimension < 1:
        raise ValueError("Invalid dimension {}.".format(dimension))
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them.")
    if initializer is not None and not callable(initializer):
        raise ValueError("initializer must be callable if specified. Embedding of column_name: {}".format(name))
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError("combiner must be one of 'mean', 'sqrtn' or 'sum', got {}".format(combiner))
    if initializer is None:
        from ..ops.init_ops import truncated_normal_initializer
        initializer = truncated_normal_initializer(mean=0.0, stddev=1 / math.sqrt(dimension))
    return initializer


def _embedding_lookup(weights, column, inputs, combiner, max_norm, name):
    from ..ops.nn_misc_ops import safe_embedding_lookup_sparse
    ids, sp_weights = column._get_sparse_tensors(inputs)
    return safe_embedding_lookup_sparse(weights, ids, sparse_weights=sp_weights, combiner=combiner, name=name,
                                        max_norm=max_norm)


class _EmbeddingColumn(_DenseColumn):
    _fields = ("categorical_column", "dimension", "combiner", "initializer", "ckpt_to_load_from",
               "tensor_name_in_ckpt", "max_norm", "trainable")

    @property
    def name(self):
        return "{}_embedding".format(self.categorical_column.name)

    @property
    def _parse_example_spec(self):
        return self.categorical_column._parse_example_spec

    def _transform_feature(self, inputs):
        return self.categorical_column._transform_feature(inputs)

    @property
    def _variable_shape(self):
        return TensorShape([self.dimension])

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        from ..variable_scopes import get_variable
        shape = (self.categorical_column._num_buckets, self.dimension)
        weights = get_variable("embedding_weights", shape=shape, dtype=dtypes.float32, initializer=self.initializer,
                               trainable=self.trainable and (True if trainable is None else trainable),
                               collections=weight_collections)
        if self.ckpt_to_load_from is not None:
            from ..train.checkpoint_utils import init_from_checkpoint
            init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: weights})
        return _embedding_lookup(weights, self.categorical_column, inputs, self.combiner, self.max_norm,
                                 "%s_weights" % self.name)


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None, ckpt_to_load_from=None,
                     tensor_name_in_ckpt=None, max_norm=None, trainable=True):
    """A dense column embedding a categorical column: each example's ids looked up in a trainable
    `[num_buckets, dimension]` table (`embedding_weights`) and combined.

    Args:
      categorical_column: A categorical column.
      dimension: The embedding size.
      combiner: "mean", "sqrtn" or "sum": how an example's several ids combine (weighted when the
        column has weights).
      initializer: The table's initializer (default: truncated normal, stddev `1/sqrt(dimension)`).
      ckpt_to_load_from: A checkpoint to initialize the table from.
      tensor_name_in_ckpt: The table's name in that checkpoint.
      max_norm: Clip each embedding to this L2 norm.
      trainable: Whether the table is trainable.

    Returns:
      An `_EmbeddingColumn`.

    Raises:
      ValueError: For an invalid dimension, combiner or initializer, or half of the checkpoint arguments.
    """
    initializer = _check_embedding_args(dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt, combiner,
                                        categorical_column.name)
    return _EmbeddingColumn(categorical_column=categorical_column, dimension=dimension, combiner=combiner,
                            initializer=initializer, ckpt_to_load_from=ckpt_to_load_from,
                            tensor_name_in_ckpt=tensor_name_in_ckpt, max_norm=max_norm, trainable=trainable)


class _SharedEmbeddingColumn(_EmbeddingColumn):
    _fields = _EmbeddingColumn._fields + ("shared_embedding_collection_name",)

    @property
    def name(self):
        return "{}_shared_embedding".format(self.categorical_column.name)

    @property
    def _var_scope_name(self):
        return self.shared_embedding_collection_name

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        from ..variable_scopes import get_variable
        shape = (self.categorical_column._num_buckets, self.dimension)
        shared = ops.get_collection(self.shared_embedding_collection_name)
        if shared:
            if len(shared) > 1:
                raise ValueError("Collection {} can only contain one variable. Suggested fix A: Choose a unique name "
                                 "for this collection. Suggested fix B: Do not add any variables to this collection. "
                                 "The feature_column library already adds a variable under the hood.".format(shared))
            weights = shared[0]
            if tuple(weights.shape.as_list()) != shape:
                raise ValueError("Shared embedding collection {} contains variable {} of unexpected shape {}. "
                                 "Expected shape is {}.".format(self.shared_embedding_collection_name, weights.name,
                                                                weights.shape, shape))
        else:
            weights = get_variable("embedding_weights", shape=shape, dtype=dtypes.float32,
                                   initializer=self.initializer,
                                   trainable=self.trainable and (True if trainable is None else trainable),
                                   collections=weight_collections)
            ops.add_to_collection(self.shared_embedding_collection_name, weights)
        if self.ckpt_to_load_from is not None:
            from ..train.checkpoint_utils import init_from_checkpoint
            init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: weights})
        return _embedding_lookup(weights, self.categorical_column, inputs, self.combiner, self.max_norm,
                                 "%s_weights" % self.name)


def shared_embedding_columns(categorical_columns, dimension, combiner="mean", initializer=None,
                             shared_embedding_collection_name=None, ckpt_to_load_from=None, tensor_name_in_ckpt=None,
                             max_norm=None, trainable=True):
    """Embedding columns over several categorical columns sharing one `embedding_weights` table.

    Args:
      categorical_columns: Categorical columns of one type and one bucket count.
      dimension: The embedding size.
      combiner: "mean", "sqrtn" or "sum".
      initializer: The table's initializer (default: truncated normal, stddev `1/sqrt(dimension)`).
      shared_embedding_collection_name: The collection (and variable scope) of the shared table
        (default: the sorted column names joined by "_", then "_shared_embedding").
      ckpt_to_load_from: A checkpoint to initialize the table from.
      tensor_name_in_ckpt: The table's name in that checkpoint.
      max_norm: Clip each embedding to this L2 norm.
      trainable: Whether the table is trainable.

    Returns:
      A list of `_SharedEmbeddingColumn`, one per categorical column.

    Raises:
      ValueError: For columns of different types or bucket counts, or invalid arguments.
    """
    columns = list(categorical_columns)
    if not columns:
        raise ValueError("categorical_columns must not be empty.")
    initializer = _check_embedding_args(dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt, combiner,
                                        columns[0].name)
    first = columns[0]
    for c in columns:
        if not isinstance(c, _CategoricalColumn):
            raise ValueError("All categorical_columns must be subclasses of _CategoricalColumn. Given: {}, of type: "
                             "{}".format(c, type(c)))
        base = c.categorical_column if isinstance(c, _WeightedCategoricalColumn) else c
        first_base = first.categorical_column if isinstance(first, _WeightedCategoricalColumn) else first
        if type(base) is not type(first_base):
            raise ValueError("To use shared_embedding_column, all categorical_columns must have the same type, or be "
                             "weighted_categorical_column of the same type. Given column: {} of type: {} does not "
                             "match given column: {} of type: {}".format(first, type(first), c, type(c)))
        if c._num_buckets != first._num_buckets:
            raise ValueError("To use shared_embedding_column, all categorical_columns must have the same number of "
                             "buckets. Given column: {} with buckets: {} does  not match column: {} with buckets: {}"
                             .format(first, first._num_buckets, c, c._num_buckets))
    if not shared_embedding_collection_name:
        shared_embedding_collection_name = "_".join(c.name for c in sorted(columns, key=lambda c: c.name))
        shared_embedding_collection_name += "_shared_embedding"
    return [_SharedEmbeddingColumn(categorical_column=c, dimension=dimension, combiner=combiner,
                                   initializer=initializer, ckpt_to_load_from=ckpt_to_load_from,
                                   tensor_name_in_ckpt=tensor_name_in_ckpt, max_norm=max_norm, trainable=trainable,
                                   shared_embedding_collection_name=shared_embedding_collection_name)
            for c in columns]
