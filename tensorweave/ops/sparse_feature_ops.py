"""`tf.io.SparseFeature`: a sparse tensor parsed from an `Example`'s index and value features (the
parse ops read them as `VarLenFeature`s; `sparse_merge` builds the result)."""

import collections

from ..framework import dtypes

__all__ = ["SparseFeature"]


class SparseFeature(collections.namedtuple("SparseFeature",
                                           ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """Configuration for parsing a sparse input feature from an `Example`.

    The `Example` holds the indices (one int64 feature per dimension, `index_key`) and the values
    (`value_key`) of the entries; parsing gives a `SparseTensor` of dense shape `[batch] + size`
    (`size` without the batch for `parse_single_example`), reordered canonically unless
    `already_sorted`.

    Fields:
      index_key: A single string name or a list of string names of index features. Their type must be
        int64, and their values must be in `[0, size)`.
      value_key: Name of value feature. The underlying feature's type must be `dtype`.
      dtype: Data type of the `value_key` feature.
      size: A Python int or list thereof specifying the dense shape (one per index key).
      already_sorted: A Python boolean to specify whether the values in `value_key` are already sorted by
        their index position. If so skip sorting. False by default (optional).
    """

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


def expand_sparse_features(features):
    """`features` with each `SparseFeature` replaced by the `VarLenFeature`s of its index and value keys
    (TF's `_features_to_raw_params` for them); the same dict if there is none.

    Raises:
      ValueError: For a missing key or type, or a key read with two types.
    """
    if not any(isinstance(f, SparseFeature) for f in features.values()):
        return features
    from .parsing_ops import VarLenFeature
    raw = {k: f for k, f in features.items() if not isinstance(f, SparseFeature)}

    def add(key, dtype):
        dtype = dtypes.as_dtype(dtype)
        if key in raw:
            have = raw[key]
            if not isinstance(have, VarLenFeature) or dtypes.as_dtype(have.dtype) is not dtype:
                raise ValueError("Conflicting type %s vs %s for feature %s."
                                 % (getattr(have, "dtype", have), dtype, key))
        else:
            raw[key] = VarLenFeature(dtype)
    for key in sorted(features):
        feature = features[key]
        if not isinstance(feature, SparseFeature):
            continue
        if not feature.index_key:
            raise ValueError("Missing index_key for SparseFeature %s." % (feature,))
        if not feature.value_key:
            raise ValueError("Missing value_key for SparseFeature %s." % (feature,))
        if not feature.dtype:
            raise ValueError("Missing type for feature %s." % key)
        index_keys = [feature.index_key] if isinstance(feature.index_key, str) else feature.index_key
        for index_key in sorted(index_keys):
            add(index_key, dtypes.int64)
        add(feature.value_key, feature.dtype)
    return raw


def merge_sparse_features(features, tensor_dict):
    """The parse result for `features`: each `SparseFeature` built from its parsed index and value
    `SparseTensor`s with `sparse_merge`, the features only read for them removed."""
    if not any(isinstance(f, SparseFeature) for f in features.values()):
        return tensor_dict
    from .sparse_core_ops import sparse_merge
    out = dict(tensor_dict)
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, SparseFeature):
            if isinstance(feature.index_key, str):
                sp_ids = out[feature.index_key]
            else:
                sp_ids = [out[k] for k in feature.index_key]
            out[key] = sparse_merge(sp_ids, out[feature.value_key], vocab_size=feature.size,
                                    already_sorted=feature.already_sorted)
    for key in set(out) - set(features):
        del out[key]
    return out
