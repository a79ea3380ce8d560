"""`tf.feature_column`: feature columns and the layers that turn features into model inputs."""

from .columns import (bucketized_column, categorical_column_with_hash_bucket, categorical_column_with_identity,
                      categorical_column_with_vocabulary_file, categorical_column_with_vocabulary_list, crossed_column,
                      embedding_column, indicator_column, numeric_column, shared_embedding_columns,
                      weighted_categorical_column)
from .layers import input_layer, linear_model, make_parse_example_spec

__all__ = ["bucketized_column", "categorical_column_with_hash_bucket", "categorical_column_with_identity",
           "categorical_column_with_vocabulary_file", "categorical_column_with_vocabulary_list", "crossed_column",
           "embedding_column", "indicator_column", "input_layer", "linear_model", "make_parse_example_spec",
           "numeric_column", "shared_embedding_columns", "weighted_categorical_column"]
