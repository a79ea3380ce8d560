"""`tf.estimator.classifier_parse_example_spec` and `regressor_parse_example_spec`: the
`tf.parse_example` spec of a canned estimator's features, label and example weight."""

from ...framework import dtypes

__all__ = ["classifier_parse_example_spec", "regressor_parse_example_spec"]


def _add_label_and_weight_to_parsing_spec(parsing_spec, label_key, label_spec, weight_column=None):
    from ...feature_column.columns import numeric_column
    from ...feature_column.layers import make_parse_example_spec
    if label_key in parsing_spec:
        raise ValueError("label should not be used as feature. label_key: {}, features: {}".format(
            label_key, parsing_spec.keys()))
    parsing_spec[label_key] = label_spec
    if weight_column is None:
        return parsing_spec
    if isinstance(weight_column, str):
        weight_column = numeric_column(weight_column)
    weight_spec = make_parse_example_spec([weight_column])
    for k, v in weight_spec.items():
        if k in parsing_spec:
            raise ValueError("weight_column should not be used as feature. weight_column: {}, features: {}".format(
                k, parsing_spec.keys()))
        parsing_spec[k] = v
    return parsing_spec


def classifier_parse_example_spec(feature_columns, label_key, label_dtype=dtypes.int64, label_default=None,
                                  weight_column=None):
    """Generates parsing spec for tf.parse_example to be used with classifiers.

    The spec maps each feature key of `feature_columns` to its `FixedLenFeature` or
    `VarLenFeature`, `label_key` to `FixedLenFeature((1,), label_dtype, label_default)` and the
    weight column's key (if any) to its numeric feature.

    Args:
      feature_columns: An iterable containing all feature columns. All items should be instances of
        classes derived from `_FeatureColumn`.
      label_key: A string identifying the label. It means tf.Example stores labels with this key.
      label_dtype: A `tf.dtype` identifies the type of labels. By default it is `tf.int64`.
      label_default: used as label if label_key does not exist in given tf.Example.
      weight_column: A string or a `numeric_column` defining feature column representing weights.

    Returns:
      A dict mapping each feature key to a `FixedLenFeature` or `VarLenFeature` value.

    Raises:
      ValueError: If label is used in `feature_columns`, or weight_column is used in
        `feature_columns`.
      ValueError: If weight_column is not a `numeric_column` instance.
    """
    from ...feature_column.layers import make_parse_example_spec
    from ...ops.parsing_ops import FixedLenFeature
    parsing_spec = make_parse_example_spec(feature_columns)
    label_spec = FixedLenFeature((1,), label_dtype, label_default)
    return _add_label_and_weight_to_parsing_spec(parsing_spec, label_key, label_spec, weight_column)


def regressor_parse_example_spec(feature_columns, label_key, label_dtype=dtypes.float32, label_default=None,
                                 label_dimension=1, weight_column=None):
    """Generates parsing spec for tf.parse_example to be used with regressors.

    As `classifier_parse_example_spec`, with the label parsed as
    `FixedLenFeature((label_dimension,), label_dtype, label_default)`.

    Args:
      feature_columns: An iterable containing all feature columns.
      label_key: A string identifying the label. It means tf.Example stores labels with this key.
      label_dtype: A `tf.dtype` identifies the type of labels. By default it is `tf.float32`.
      label_default: used as label if label_key does not exist in given tf.Example.
      label_dimension: Number of regression targets per example.
      weight_column: A string or a `numeric_column` defining feature column representing weights.

    Returns:
      A dict mapping each feature key to a `FixedLenFeature` or `VarLenFeature` value.

    Raises:
      ValueError: If label is used in `feature_columns`, or weight_column is used in
        `feature_columns`.
    """
    from ...feature_column.layers import make_parse_example_spec
    from ...ops.parsing_ops import FixedLenFeature
    parsing_spec = make_parse_example_spec(feature_columns)
    label_spec = FixedLenFeature((label_dimension,), label_dtype, label_default)
    return _add_label_and_weight_to_parsing_spec(parsing_spec, label_key, label_spec, weight_column)
