"""`tf.feature_column.input_layer`, `linear_model` and `make_parse_example_spec` (TF 1.x semantics:
columns in name order, variables under `input_layer/<column>/` and `linear_model/<column>/`)."""

import numpy as np

from ..framework import ops
from .columns import _CategoricalColumn, _DenseColumn, _FeatureColumn, _LazyBuilder

__all__ = ["input_layer", "linear_model", "make_parse_example_spec"]


def _normalize_feature_columns(feature_columns):
    if isinstance(feature_columns, _FeatureColumn):
        feature_columns = [feature_columns]
    if isinstance(feature_columns, dict):
        raise ValueError("Expected feature_columns to be iterable, found dict.")
    feature_columns = list(feature_columns)
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    names = {}
    for column in feature_columns:
        if not isinstance(column, _FeatureColumn):
            raise ValueError("Items of feature_columns must be a _FeatureColumn. Given (type {}): {}.".format(
                type(column), column))
        if column.name in names:
            raise ValueError("Duplicate feature column name found for columns: {} and {}. This usually means that "
                             "these columns refer to same base feature. Either one must be discarded or a duplicated "
                             "but renamed item must be inserted in features dict.".format(column, names[column.name]))
        names[column.name] = column
    return feature_columns


def _collections(weight_collections):
    collections = list(weight_collections or [])
    for key in (ops.GraphKeys.GLOBAL_VARIABLES, ops.GraphKeys.MODEL_VARIABLES):
        if key not in collections:
            collections.append(key)
    return collections


def input_layer(features, feature_columns, weight_collections=None, trainable=True, cols_to_vars=None,
                cols_to_output_tensors=None):
    """The dense input of a model: each dense column's tensor, flattened to `[batch, n]`, concatenated in
    column-name order.

    Args:
      features: A dict from feature names to Tensors or SparseTensors.
      feature_columns: Dense columns (`numeric_column`, `bucketized_column`, `embedding_column`,
        `indicator_column`, ...).
      weight_collections: Extra collections for the variables made (embeddings).
      trainable: Whether those variables are trainable.
      cols_to_vars: A dict filled with each column's variables.
      cols_to_output_tensors: A dict filled with each column's output tensor.

    Returns:
      A float32 Tensor `[batch, total dimension]`.

    Raises:
      ValueError: For a column that is not dense, duplicate names or no columns.
    """
    from ..ops import array_ops, core_ops
    from ..variable_scopes import get_variable_scope, variable_scope
    feature_columns = _normalize_feature_columns(feature_columns)
    for column in feature_columns:
        if not isinstance(column, _DenseColumn):
            raise ValueError("Items of feature_columns must be a _DenseColumn. You can wrap a categorical column "
                             "with an embedding_column or indicator_column. Given: {}".format(column))
    collections = _collections(weight_collections)
    with variable_scope(None, default_name="input_layer", values=list(features.values())):
        builder = _LazyBuilder(features)
        outputs = []
        for column in sorted(feature_columns, key=lambda c: c.name):
            with variable_scope(None, default_name=column._var_scope_name):
                tensor = column._get_dense_tensor(builder, weight_collections=collections, trainable=trainable)
                n = column._variable_shape.num_elements()
                batch = core_ops.shape(tensor)[0]
                out = array_ops.reshape(tensor, array_ops.stack([batch, n]))
                outputs.append(out)
                if cols_to_vars is not None:
                    cols_to_vars[column] = ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES,
                                                              scope=get_variable_scope().name)
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = out
        _check_batch_sizes(outputs, sorted(feature_columns, key=lambda c: c.name))
        return array_ops.concat(outputs, 1)


def _check_batch_sizes(tensors, columns):
    expected = None
    for t, c in zip(tensors, columns):
        size = t.shape[0] if t.shape.ndims else None
        size = getattr(size, "value", size)
        if size is None:
            continue
        if expected is None:
            expected = (size, c)
        elif size != expected[0]:
            raise ValueError("Batch size (first dimension) of each feature must be same. Batch size of columns "
                             "({}, {}): ({}, {})".format(expected[1].name, c.name, expected[0], size))


def linear_model(features, feature_columns, units=1, sparse_combiner="sum", weight_collections=None,
                 trainable=True, cols_to_vars=None):
    """A linear prediction: the sum over columns of each column's weighted value, plus a bias.

    Dense columns are matrix-multiplied by `linear_model/<column>/weights` (`[n, units]`);
    categorical columns look their ids up in `linear_model/<column>/weights` (`[num_buckets, units]`)
    and combine them with `sparse_combiner`; `linear_model/bias_weights` (`[units]`) is added.

    Args:
      features: A dict from feature names to Tensors or SparseTensors.
      feature_columns: Dense or categorical columns.
      units: The output width.
      sparse_combiner: "sum", "mean" or "sqrtn" for categorical columns.
      weight_collections: Extra collections for the variables.
      trainable: Whether the variables are trainable.
      cols_to_vars: A dict filled with each column's variables (and "bias" with the bias).

    Returns:
      A Tensor `[batch, units]`.

    Raises:
      ValueError: For an invalid column or combiner.
    """
    from ..ops import array_ops, core_ops, math_ops, nn_ops
    from ..ops.init_ops import zeros_initializer
    from ..ops.nn_misc_ops import safe_embedding_lookup_sparse
    from ..ops.sparse_core_ops import sparse_reshape
    from ..variable_scopes import get_variable, variable_scope
    feature_columns = _normalize_feature_columns(feature_columns)
    for column in feature_columns:
        if not isinstance(column, (_DenseColumn, _CategoricalColumn)):
            raise ValueError("Items of feature_columns must be either a _DenseColumn or _CategoricalColumn. "
                             "Given: {}".format(column))
    if sparse_combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError("sparse_combiner must be one of 'mean', 'sqrtn' or 'sum', got {}".format(sparse_combiner))
    collections = _collections(weight_collections)
    with variable_scope(None, default_name="linear_model", values=list(features.values())):
        builder = _LazyBuilder(features)
        sums = []
        ordered = sorted(feature_columns, key=lambda c: c.name)
        for column in ordered:
            with variable_scope(None, default_name=column._var_scope_name) as vs:
                if isinstance(column, _CategoricalColumn):
                    ids, weights = column._get_sparse_tensors(builder, weight_collections=collections,
                                                              trainable=trainable)
                    new_shape = array_ops.stack([ids.dense_shape[0], ops.convert_to_tensor(np.int64(-1))])
                    ids = sparse_reshape(ids, new_shape)
                    if weights is not None:
                        weights = sparse_reshape(weights, new_shape)
                    var = get_variable("weights", shape=(column._num_buckets, units), initializer=zeros_initializer(),
                                       trainable=trainable, collections=collections)
                    sums.append(safe_embedding_lookup_sparse(var, ids, sparse_weights=weights,
                                                             combiner=sparse_combiner, name="weighted_sum"))
                else:
                    tensor = column._get_dense_tensor(builder, weight_collections=collections, trainable=trainable)
                    n = column._variable_shape.num_elements()
                    batch = core_ops.shape(tensor)[0]
                    tensor = array_ops.reshape(tensor, array_ops.stack([batch, n]))
                    var = get_variable("weights", shape=[n, units], initializer=zeros_initializer(),
                                       trainable=trainable, collections=collections)
                    sums.append(math_ops.matmul(tensor, var, name="weighted_sum"))
                if cols_to_vars is not None:
                    cols_to_vars[column] = ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope=vs.name)
        _check_batch_sizes(sums, ordered)
        bias = get_variable("bias_weights", shape=[units], initializer=zeros_initializer(), trainable=trainable,
                            collections=collections)
        if cols_to_vars is not None:
            cols_to_vars["bias"] = [bias]
        return nn_ops.bias_add(core_ops.add_n(sums), bias, name="weighted_sum")


def make_parse_example_spec(feature_columns):
    """The `tf.parse_example` features dict that the columns need.

    Args:
      feature_columns: Feature columns.

    Returns:
      A dict from feature names to `FixedLenFeature`/`VarLenFeature`.

    Raises:
      ValueError: For a non-column or two columns needing different specs for one feature.
    """
    result = {}
    for column in feature_columns:
        if not isinstance(column, _FeatureColumn):
            raise ValueError("All feature_columns must be _FeatureColumn instances. Given: {}".format(column))
        for key, value in column._parse_example_spec.items():
            if key in result and result[key] != value:
                raise ValueError("feature_columns contain different parse_spec for key {}. Given {} and {}".format(
                    key, result[key], value))
        result.update(column._parse_example_spec)
    return result
