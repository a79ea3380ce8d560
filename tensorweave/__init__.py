"""tensorweave: the TensorFlow 1.x programming model in pure Python over NumPy.

    import tensorweave as tf

This module only re-exports the public API; each name is defined in exactly one module.
"""

from .framework.versions import (COMPILER_VERSION, GIT_VERSION, GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER,
                                 GRAPH_DEF_VERSION_MIN_PRODUCER, VERSION, __version__)
from . import version_ns as version

# ---- framework -----------------------------------------------------------------------------
from .framework import errors
from .framework.dtypes import (QUANTIZED_DTYPES, DType, as_dtype, bool_ as bool, complex64, complex128, double, float16,  # noqa: A004
                               float32, float64, half, int8, int16, int32, int64, string, uint8, uint16)
from .framework.tensor_shape import Dimension, TensorShape
from .framework.device import DeviceSpec
from .framework.ops import (Graph, GraphKeys, Operation, Tensor, add_to_collection, add_to_collections,
                            colocate_with, control_dependencies, convert_to_tensor, device, get_collection,
                            get_collection_ref, get_default_graph, get_default_session, get_name_scope, is_tensor,
                            name_scope, register_tensor_conversion_function, reset_default_graph)
from .framework.constant_op import constant
from .framework.indexed_slices import IndexedSlices, IndexedSlicesValue
from .framework.registry import NotDifferentiable, RegisterGradient, list_ops, no_gradient
from .client.config import ConfigProto, GPUOptions, GraphOptions, OptimizerOptions, RunMetadata, RunOptions
from .client.session import InteractiveSession, Session

# ---- core ops ------------------------------------------------------------------------------
from .ops.core_ops import (add_n, group, identity, identity_n, no_op, ones_like, placeholder,
                           placeholder_with_default, shape, stop_gradient, zeros_like)

from .ops.script_ops import numpy_function, py_func

# ---- gradients -----------------------------------------------------------------------------
from .gradients.gradients_impl import gradients
from .gradients.custom_gradient import custom_gradient
from . import testing as test

# ---- op families (one block per module) ----------------------------------------------------
# [math_ops]
from .ops.math_ops import (abs, accumulate_n, acos, acosh, add, argmax, argmin, asin, asinh, atan, atan2,  # noqa: A004
                           atanh, cast, ceil, conj, cos, cosh, count_nonzero, cumprod, cumsum, div, div_no_nan,
                           divide, einsum, equal, erf, erfc, exp, expm1, floor, floor_div, floordiv, floormod,
                           greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal, log, log1p,
                           logical_and, logical_not, logical_or, logical_xor, matmul, maximum, minimum, mod,
                           multiply, negative, not_equal, pow, realdiv, reciprocal, reduce_all, reduce_any,
                           reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, rint,
                           round, rsqrt, saturate_cast, scalar_mul, sigmoid, sign, sin, sinh, sqrt, square,
                           squared_difference, subtract, tan, tanh, tensordot, to_double, to_float, to_int32,
                           to_int64, truediv, truncatediv, truncatemod)
from .ops.clip_ops import clip_by_global_norm, clip_by_norm, clip_by_value, global_norm
from .ops.math_compat_ops import arg_max, arg_min
from .ops.norm_ops import norm
from .ops.math_sort_ops import argsort, roll, searchsorted, setdiff1d, sort, unique_with_counts
from .ops.math_misc_ops import confusion_matrix, histogram_fixed_width, histogram_fixed_width_bins
from .ops.math_special_ops import betainc, digamma, igamma, igammac, lbeta, lgamma, polygamma, zeta
# [linalg_ops]
from .ops.linalg_core_ops import (cholesky, cholesky_solve, matrix_determinant, matrix_inverse, matrix_solve,
                                  matrix_triangular_solve)
from .ops.linalg_diag_ops import (diag, diag_part, eye, matrix_band_part, matrix_diag, matrix_diag_part,
                                  matrix_set_diag, trace)
from .ops.linalg_decomp_ops import qr, self_adjoint_eig, self_adjoint_eigvals, svd
from .ops.linalg_misc_ops import cross, matrix_solve_ls, matrix_transpose
from . import linalg_ns as linalg
from .ops.segment_ops import (bincount, segment_max, segment_mean, segment_min, segment_prod, segment_sum,
                              sparse_segment_mean, sparse_segment_sqrt_n, sparse_segment_sum, unsorted_segment_max,
                              unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod,
                              unsorted_segment_sqrt_n, unsorted_segment_sum)
from .ops.scatter_ops import (tensor_scatter_add, tensor_scatter_nd_add, tensor_scatter_nd_max, tensor_scatter_nd_min,
                              tensor_scatter_nd_sub, tensor_scatter_nd_update, tensor_scatter_sub,
                              tensor_scatter_update)
from .ops.partition_ops import dynamic_partition, dynamic_stitch
from .ops.scatter_ops import (scatter_add, scatter_div, scatter_max, scatter_min, scatter_mul, scatter_nd_add,
                              scatter_nd_sub, scatter_nd_update, scatter_sub, scatter_update)
from . import math_ns as math
from . import image_ns as image  # [image_ops]
from .ops.image_transform_ops import random_crop  # [image_ops]
from . import bitwise_ns as bitwise
from . import dtypes_ns as dtypes
from . import random_ns as random
from .ops.spectral_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d
from . import signal_ns as signal
from . import spectral_ns as spectral
# [array_ops]
from .ops.array_ops import (boolean_mask, broadcast_dynamic_shape, broadcast_static_shape,  # noqa: A004
                            broadcast_to, concat, expand_dims, fill, gather, gather_nd, invert_permutation, meshgrid,
                            newaxis, one_hot, ones, pad, range, rank, reshape, reverse, reverse_sequence, reverse_v2,
                            scatter_nd, sequence_mask, size, slice, split, squeeze, stack, strided_slice, tile,
                            transpose, unique, unstack, where, where_v2, zeros)
from .framework.tensor_util import constant_value as get_static_value
# [nn_ops / random_ops / init_ops]
from .ops.random_ops import (get_seed, multinomial, random_normal, random_shuffle, random_uniform, set_random_seed,
                             truncated_normal)
from .ops.init_ops import (constant_initializer, glorot_normal_initializer, glorot_uniform_initializer,
                           ones_initializer, orthogonal_initializer, random_normal_initializer,
                           random_uniform_initializer, truncated_normal_initializer, uniform_unit_scaling_initializer,
                           variance_scaling_initializer, zeros_initializer)
from . import initializers, layers, nn
# [state: variables, variable scopes]
from .ops.state_ops import assign, assign_add, assign_sub
from .variables import (Variable, all_variables, global_variables, global_variables_initializer,
                        initialize_all_variables, initialize_local_variables, initialize_variables,
                        is_variable_initialized, local_variables, local_variables_initializer, model_variables,
                        moving_average_variables, report_uninitialized_variables, trainable_variables,
                        variables_initializer)
from .variable_scopes import (AUTO_REUSE, VariableScope, get_local_variable, get_variable, get_variable_scope,
                              make_template, variable_op_scope, variable_scope)
# [train]
from . import train
# [control flow]
from .ops.control_flow_ops import case, cond, tuple_ as tuple, while_loop  # noqa: A004
from .ops.tensor_array_ops import TensorArray
from .ops.functional_ops import foldl, foldr, map_fn, scan
from .ops import nest
# [debug ops]
from .ops.logging_ops import Assert, Print, print_v2 as print  # noqa: A004
from .ops.check_ops import (assert_equal, assert_greater, assert_greater_equal, assert_integer, assert_less,
                            assert_less_equal, assert_near, assert_negative, assert_non_negative, assert_non_positive,
                            assert_none_equal, assert_positive, assert_proper_iterable, assert_rank,
                            assert_rank_at_least, assert_rank_in, assert_same_float_dtype, assert_scalar, assert_type,
                            is_non_decreasing, is_numeric_tensor, is_strictly_increasing)
from .ops.numerics import add_check_numerics_ops, check_numerics, verify_tensor_all_finite
from . import debugging
# [nn library]
# [layers/losses/contrib]
from .ops.batch_ops import batch_gather
from . import contrib, losses

# [eager]
from .eager.context import disable_eager_execution, enable_eager_execution, executing_eagerly, init_scope
from .eager.backprop import GradientTape, UnconnectedGradients
from .eager.function import function

# [io]
from .framework.sparse_tensor import SparseTensor, SparseTensorValue
from .ops.sparse_ops import sparse_tensor_to_dense, sparse_to_dense
from .ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, decode_raw, parse_example,
                              parse_single_example)
from . import io, python_io, sparse

# [graph files]
from .graph_io import (AttrValue, GraphDef, NameAttrList, NodeDef, TensorProto, graph_util, import_graph_def,
                       make_ndarray, make_tensor_proto)
from .train.meta_graph import MetaGraphDef, TensorInfo
from .framework.errors import OpError
from .tf_logging import get_logger

# [summary]
from . import summary
from .summary.messages import Event, HistogramProto, LogMessage, SessionLog, Summary, SummaryMetadata

# [data]
from . import data
from .framework.tensor_spec import TensorSpec

# [checkpoints/metrics]
from . import app, flags, metrics
from . import config_ns as config
from . import lookup_ns as lookup
from . import feature_column
from . import distributions
from . import mixed_precision_ns as mixed_precision
from .ops.lookup_ops import initialize_all_tables, tables_initializer
from . import tf_logging as logging

# [autograph]
from . import autograph

# [estimator]
from . import estimator

# [keras] (Keras 2 as TF 1.15's tf.keras; being completed: see tensorweave/keras/__init__.py)
from . import keras

# [saved_model]
from . import saved_model

# [custom-op libraries and kernel helpers]
from .ops.load_library import load_library, load_op_library
from . import kernels
from .platform import sysconfig

# [custom ops: one-declaration op types]
from .ops.custom_op import custom_op
# The collective op types of tensorweave.distribute (registered so graphs holding them import; MPI loads on init).
from .ops import collective_ops as _collective_ops  # noqa: E402,F401

# [strings and ragged tensors]
from . import ragged_ns as ragged, strings_ns as strings
from .ops.ragged_fill_ops import ragged_fill_empty_rows, ragged_fill_empty_rows_grad
from .ops.ragged_tensor import RaggedTensor, RaggedTensorSpec
from .ops.string_basic_ops import (as_string, decode_base64, encode_base64, regex_replace, string_strip, substr,
                                   string_to_number)
from .ops.string_hash_ops import (fingerprint, string_to_hash_bucket, string_to_hash_bucket_fast,
                                  string_to_hash_bucket_strong)
from .ops.string_join_ops import reduce_join
from .ops.string_ops import string_join
from .ops.string_split_ops import string_split
# [sparse tensors, sets, tensor serialization]
from . import sets_ns as sets
from .ops.set_ops import set_difference, set_intersection, set_size, set_union  # noqa: F401
from .ops.sparse_core_ops import (convert_to_tensor_or_sparse_tensor, sparse_add, sparse_concat,  # noqa: F401
                                  sparse_fill_empty_rows, sparse_mask, sparse_merge, sparse_reorder,
                                  sparse_placeholder, sparse_reset_shape, sparse_reshape, sparse_retain,
                                  sparse_slice, sparse_split, sparse_to_indicator, sparse_transpose)
from .ops.sparse_math_ops import (edit_distance, sparse_matmul, sparse_maximum, sparse_minimum,  # noqa: F401
                                  sparse_reduce_max, sparse_reduce_max_sparse, sparse_reduce_sum,
                                  sparse_reduce_sum_sparse, sparse_softmax, sparse_tensor_dense_matmul)
from .ops.sparse_serialize_ops import (deserialize_many_sparse, parse_tensor, serialize_many_sparse,  # noqa: F401
                                       serialize_sparse, serialize_tensor)
from .ops.sparse_feature_ops import SparseFeature  # noqa: F401
from .data import SparseTensorSpec  # noqa: F401
# [audio, image patches]
from . import audio_ns as audio  # noqa: E402
from .ops.image_patch_ops import extract_image_patches, extract_volume_patches  # noqa: E402,F401
# [complex numbers, matrix square root]
from .ops.linalg_complex_ops import angle, complex, imag, real, to_complex64, to_complex128  # noqa: E402
from .ops.linalg_matfn_ops import matrix_square_root  # noqa: E402
# [dtypes, random ops]
from .framework.dtypes import qint8, qint16, qint32, quint8, quint16, resource, uint32, uint64, variant  # noqa: E402
from .ops.random_gamma_ops import random_gamma, random_poisson  # noqa: E402
from .ops.random_index_shuffle_ops import random_index_shuffle  # noqa: E402
# [array ops and TF1 helpers]
from .ops.array_space_ops import (batch_to_space, batch_to_space_nd, depth_to_space,  # noqa: E402
                                  required_space_to_batch_paddings, space_to_batch, space_to_batch_nd, space_to_depth)
from .ops.array_misc_ops import (bitcast, ensure_shape, guarantee_const, lin_space, linspace,  # noqa: E402
                                 parallel_stack, repeat, shape_n, unravel_index)
from .ops.state_count_ops import count_up_to  # noqa: E402
from .framework.ops import container  # noqa: E402
from .ops.math_special_ops import log_sigmoid  # noqa: E402
from .ops.nn_misc_ops import clip_by_average_norm  # noqa: E402
from . import manip_ns as manip  # noqa: E402
from .tf1_misc import (AggregationMethod, NoGradient, VariableAggregation, VariableSynchronization,  # noqa: E402
                       assert_variables_initialized, batch_scatter_update, convert_to_tensor_or_indexed_slices,
                       dimension_at_index, dimension_value, disable_resource_variables, disable_tensor_equality,
                       disable_v2_tensorshape, executing_eagerly_outside_functions, grad_pass_through, hessians,
                       is_symbolic_tensor, no_regularizer, op_scope, recompute_grad, resource_variables_enabled,
                       switch_case, vectorized_map)
# [generic convolutions]
from .ops.nn_conv_generic_ops import conv, conv2d_backprop_filter_v2, conv2d_backprop_input_v2  # noqa: E402,F401
# [queues, readers, files]
from . import queue_ns as queue  # noqa: E402
from .ops.data_flow_ops import FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue  # noqa: E402
from .ops.reader_ops import (FixedLengthRecordReader, IdentityReader, ReaderBase, TFRecordReader,  # noqa: E402
                             TextLineReader, WholeFileReader)
from .ops.parsing_csv_ops import decode_csv  # noqa: E402
from .ops.data_flow_accumulator_ops import (ConditionalAccumulator, ConditionalAccumulatorBase,  # noqa: E402
                                             SparseConditionalAccumulator)
from . import gfile  # noqa: E402
from . import resource_loader  # noqa: E402
from .io.files import matching_files, read_file, write_file  # noqa: E402

# [sequence examples, compressed and JSON decoding, timestamps, N-D FFTs]
from .ops.parsing_sequence_ops import parse_single_sequence_example  # noqa: E402
from .ops.io_misc_ops import decode_compressed, decode_json_example, timestamp  # noqa: E402
from .ops.spectral_nd_ops import raw_fftnd as fftnd, raw_ifftnd as ifftnd  # noqa: E402
from .ops.spectral_nd_ops import raw_irfftnd as irfftnd, raw_rfftnd as rfftnd  # noqa: E402

# [quantization]
from . import quantization_ns as quantization  # noqa: E402
from .ops.quantization_fake_ops import (fake_quant_with_min_max_args,  # noqa: E402
                                        fake_quant_with_min_max_args_gradient, fake_quant_with_min_max_vars,
                                        fake_quant_with_min_max_vars_gradient,
                                        fake_quant_with_min_max_vars_per_channel,
                                        fake_quant_with_min_max_vars_per_channel_gradient)
from .ops.quantization_ops import dequantize, quantize, quantize_v2, quantized_concat  # noqa: E402

# ---- namespaces that alias the whole API (must stay last) ------------------------------------
from . import compat  # noqa: E402
from .compat import disable_v2_behavior  # noqa: E402
