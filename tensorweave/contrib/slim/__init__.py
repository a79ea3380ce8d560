"""`tf.contrib.slim` (`import tensorflow.contrib.slim as slim`): TF 1.15's slim, a lightweight
layer library: `arg_scope`, the layers of `tf.contrib.layers` (`conv2d`, `batch_norm`,
`fully_connected`, ...), the variable helpers (`model_variable`, `get_variables_to_restore`,
`assign_from_checkpoint_fn`, ...) and the modules `losses`, `metrics`, `variables`, `learning`,
`evaluation`, `utils`, `summaries`, `queues`, `model_analyzer`, `nets` (the model zoo) and `data` (whose modules
`dataset`, `tfexample_decoder`, `dataset_data_provider`, ... are also at the top level).
Variable names and collections follow TF 1.15, so TF1 slim checkpoints restore."""

from .. import layers as _layers
from ..framework import (add_arg_scope, arg_scope, arg_scope_func_key, arg_scoped_arguments, current_arg_scope,
                         has_arg_scope)
from ..layers import (OPTIMIZER_CLS_NAMES, OPTIMIZER_SUMMARIES, apply_regularization, avg_pool2d, batch_norm,
                      bias_add, conv1d, conv2d, conv2d_transpose, convolution, convolution1d, convolution2d,
                      convolution2d_transpose, dropout, flatten, fully_connected, l1_l2_regularizer, l1_regularizer,
                      l2_regularizer, layer_norm, linear, max_pool2d, one_hot_encoding, optimize_loss, relu, relu6,
                      repeat, separable_conv2d, separable_convolution2d, softmax, stack, sum_regularizer,
                      summarize_activation, summarize_activations, summarize_biases, summarize_collection,
                      summarize_tensor, summarize_tensors, summarize_variables, summarize_weights, unit_norm,
                      variance_scaling_initializer, xavier_initializer, xavier_initializer_conv2d)
from ..layers import (avg_pool3d, conv2d_in_plane, conv3d, conv3d_transpose, convolution2d_in_plane, convolution3d,
                      convolution3d_transpose, dense_to_sparse, elu, group_norm, images_to_sequence, instance_norm,
                      max_pool3d, maxout, pool, scale_gradient, sequence_to_images)
from . import data, evaluation, learning, losses, metrics, model_analyzer, queues, summaries, utils, variables
from .data import (data_decoder, data_provider, dataset, dataset_data_provider, parallel_reader, prefetch_queue,
                   tfexample_decoder)
from .variables import (add_model_variable, assert_global_step, assert_or_get_global_step, assign_from_checkpoint,
                        assign_from_checkpoint_fn, assign_from_values, assign_from_values_fn, create_global_step,
                        filter_variables, get_global_step, get_local_variables, get_model_variables,
                        get_or_create_global_step, get_trainable_variables, get_unique_variable,
                        get_variable_full_name, get_variables, get_variables_by_name, get_variables_by_suffix,
                        get_variables_to_restore, global_variable, local_variable, model_variable, variable)
from . import nets  # after the layers: the networks are built from them

layers = _layers

__all__ = ["avg_pool3d", "conv2d_in_plane", "conv3d", "conv3d_transpose", "convolution2d_in_plane", "convolution3d",
           "convolution3d_transpose", "dense_to_sparse", "elu", "group_norm", "images_to_sequence", "instance_norm",
           "max_pool3d", "maxout", "pool", "scale_gradient", "sequence_to_images"]
__all__ += ["data", "data_decoder", "data_provider", "dataset", "dataset_data_provider", "model_analyzer",
            "nets", "parallel_reader", "prefetch_queue", "queues", "summaries", "tfexample_decoder"]
__all__ += ["OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "add_arg_scope", "add_model_variable",
           "apply_regularization", "arg_scope", "arg_scope_func_key", "arg_scoped_arguments", "assert_global_step",
           "assert_or_get_global_step", "assign_from_checkpoint", "assign_from_checkpoint_fn", "assign_from_values",
           "assign_from_values_fn", "avg_pool2d", "batch_norm", "bias_add", "conv1d", "conv2d", "conv2d_transpose",
           "convolution", "convolution1d", "convolution2d", "convolution2d_transpose", "create_global_step",
           "current_arg_scope", "dropout", "evaluation", "filter_variables", "flatten", "fully_connected",
           "get_global_step", "get_local_variables", "get_model_variables", "get_or_create_global_step",
           "get_trainable_variables", "get_unique_variable", "get_variable_full_name", "get_variables",
           "get_variables_by_name", "get_variables_by_suffix", "get_variables_to_restore", "global_variable",
           "has_arg_scope", "l1_l2_regularizer", "l1_regularizer", "l2_regularizer", "layer_norm", "layers",
           "learning", "linear", "local_variable", "losses", "max_pool2d", "metrics", "model_variable",
           "one_hot_encoding", "optimize_loss", "relu", "relu6", "repeat", "separable_conv2d",
           "separable_convolution2d", "softmax", "stack", "sum_regularizer", "summarize_activation",
           "summarize_activations", "summarize_biases", "summarize_collection", "summarize_tensor",
           "summarize_tensors", "summarize_variables", "summarize_weights", "unit_norm", "utils", "variable",
           "variables", "variance_scaling_initializer", "xavier_initializer", "xavier_initializer_conv2d"]
