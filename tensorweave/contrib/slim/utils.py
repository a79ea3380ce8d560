"""`tf.contrib.slim.utils` (= `tf.contrib.layers.python.layers.utils`): output-collection aliases
(`collect_named_outputs`, `convert_collection_to_dict`) and small argument helpers."""

from ..layers_slim import (
                           append_tensor_alias,
                           collect_named_outputs,
                           convert_collection_to_dict,
                           get_tensor_aliases,
                           get_variable_collections,
                           two_element_tuple,
)

__all__ = ["append_tensor_alias", "collect_named_outputs", "convert_collection_to_dict", "get_tensor_aliases",
           "get_variable_collections", "two_element_tuple"]
