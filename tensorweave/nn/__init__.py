"""`tf.nn`: neural-network ops (activations, softmax, losses, dropout, moments, convolution, pooling,
batch normalization, embeddings)."""

from ..ops.array_ops import top_k
from ..ops.math_ops import sigmoid, tanh
from ..ops.embedding_ops import embedding_lookup
from ..ops.nn_conv_ops import (
    atrous_conv2d,
    avg_pool,
    avg_pool2d,
    conv1d,
    conv2d,
    conv2d_backprop_filter,
    conv2d_backprop_input,
    conv2d_transpose,
    depthwise_conv2d,
    depthwise_conv2d_native,
    depthwise_conv2d_native_backprop_filter,
    depthwise_conv2d_native_backprop_input,
    fused_batch_norm,
    max_pool,
    max_pool2d,
    separable_conv2d,
)
from ..ops.nn_ops import (
    batch_normalization,
    bias_add,
    dropout,
    elu,
    in_top_k,
    l2_loss,
    l2_normalize,
    leaky_relu,
    log_softmax,
    moments,
    relu,
    relu6,
    relu_layer,
    selu,
    sigmoid_cross_entropy_with_logits,
    softmax,
    softmax_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits_v2,
    softplus,
    softsign,
    sparse_softmax_cross_entropy_with_logits,
    weighted_cross_entropy_with_logits,
    xw_plus_b,
)

__all__ = ["atrous_conv2d", "avg_pool", "avg_pool2d", "batch_normalization", "bias_add", "conv1d", "conv2d",
           "conv2d_backprop_filter", "conv2d_backprop_input", "conv2d_transpose", "depthwise_conv2d",
           "depthwise_conv2d_native", "depthwise_conv2d_native_backprop_filter",
           "depthwise_conv2d_native_backprop_input", "dropout", "elu", "embedding_lookup", "fused_batch_norm",
           "in_top_k", "l2_loss", "l2_normalize", "leaky_relu", "log_softmax", "max_pool", "max_pool2d", "moments",
           "relu", "relu6", "relu_layer", "selu", "separable_conv2d", "sigmoid",
           "sigmoid_cross_entropy_with_logits", "softmax", "softmax_cross_entropy_with_logits",
           "softmax_cross_entropy_with_logits_v2", "softplus", "softsign",
           "sparse_softmax_cross_entropy_with_logits", "tanh", "top_k", "weighted_cross_entropy_with_logits",
           "xw_plus_b"]

# [candidate sampling, sampled losses]
from ..ops.candidate_sampling_ops import (all_candidate_sampler, compute_accidental_hits,  # noqa: E402
                                          fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler,
                                          log_uniform_candidate_sampler, uniform_candidate_sampler)
__all__ += ["all_candidate_sampler", "compute_accidental_hits", "fixed_unigram_candidate_sampler",
            "learned_unigram_candidate_sampler", "log_uniform_candidate_sampler", "uniform_candidate_sampler"]
from . import experimental  # noqa: E402
from ..ops.candidate_sampling_ops import nce_loss, sampled_softmax_loss  # noqa: E402
__all__ += ["experimental", "nce_loss", "sampled_softmax_loss"]
# [space/depth ops, LRN, moments, embeddings]
from ..ops.array_space_ops import depth_to_space, space_to_batch, space_to_depth, with_space_to_batch  # noqa: E402
from ..ops.nn_lrn_ops import local_response_normalization, lrn  # noqa: E402
from ..ops.nn_misc_ops import (batch_norm_with_global_normalization, collapse_repeated,  # noqa: E402
                               compute_average_loss, crelu, embedding_lookup_sparse, log_poisson_loss,
                               normalize_moments, safe_embedding_lookup_sparse, scale_regularization_loss, silu,
                               sufficient_statistics, swish, weighted_moments, zero_fraction)

__all__ += ["batch_norm_with_global_normalization", "collapse_repeated", "compute_average_loss", "crelu",
            "depth_to_space", "embedding_lookup_sparse", "local_response_normalization", "log_poisson_loss", "lrn",
            "normalize_moments", "safe_embedding_lookup_sparse", "scale_regularization_loss", "silu", "space_to_batch",
            "space_to_depth", "sufficient_statistics", "swish", "weighted_moments", "with_space_to_batch",
            "zero_fraction"]
# [3-D, N-d, morphological and fractional convolution and pooling]
from ..ops.nn_conv3d_ops import conv3d, conv3d_backprop_filter, conv3d_backprop_filter_v2, conv3d_transpose  # noqa: E402

from ..ops.nn_conv_nd_ops import (atrous_conv2d_transpose, avg_pool1d, avg_pool_v2, conv1d_transpose,  # noqa: E402
                                  conv_transpose, convolution, depthwise_conv2d_backprop_filter,
                                  depthwise_conv2d_backprop_input, max_pool1d, max_pool_v2, pool)
from ..ops.nn_fractional_pool_ops import fractional_avg_pool, fractional_max_pool  # noqa: E402
from ..ops.nn_morph_ops import dilation2d, erosion2d, max_pool_with_argmax  # noqa: E402
from ..ops.nn_pool3d_ops import avg_pool3d, max_pool3d  # noqa: E402
from ..ops.nn_quantized_conv_ops import quantized_conv2d  # noqa: E402
from ..ops.nn_quantized_pool_ops import quantized_avg_pool, quantized_max_pool  # noqa: E402

__all__ += ["conv3d", "conv3d_backprop_filter", "conv3d_backprop_filter_v2", "conv3d_transpose",
            "atrous_conv2d_transpose", "avg_pool1d", "avg_pool3d", "avg_pool_v2", "conv1d_transpose", "conv_transpose",
            "convolution", "depthwise_conv2d_backprop_filter", "depthwise_conv2d_backprop_input", "max_pool1d",
            "max_pool3d", "max_pool_v2", "pool", "dilation2d", "erosion2d", "max_pool_with_argmax",
            "fractional_avg_pool", "fractional_max_pool", "quantized_avg_pool", "quantized_max_pool",
            "quantized_conv2d"]
# [RNN cells, static RNNs]
from .rnn_static import rnn_cell, static_bidirectional_rnn, static_rnn, static_state_saving_rnn  # noqa: E402
# [dynamic RNNs]
from .rnn import bidirectional_dynamic_rnn, dynamic_rnn, raw_rnn  # noqa: E402
__all__ += ["bidirectional_dynamic_rnn", "dynamic_rnn", "raw_rnn"]
# [CTC]
from ..ops.ctc_ops import (ctc_beam_search_decoder, ctc_beam_search_decoder_v2, ctc_greedy_decoder,  # noqa: E402
                           ctc_loss, ctc_loss_v2, ctc_unique_labels)
__all__ += ["ctc_beam_search_decoder", "ctc_beam_search_decoder_v2", "ctc_greedy_decoder", "ctc_loss", "ctc_loss_v2",
            "ctc_unique_labels"]
