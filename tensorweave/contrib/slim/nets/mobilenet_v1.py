"""`tf.contrib.slim.nets.mobilenet_v1`: slim's MobileNet v1 ("MobileNets: Efficient Convolutional Neural
Networks for Mobile Vision Applications", Howard et al. 2017, https://arxiv.org/abs/1704.04861) as the
TensorFlow models repository's `research/slim/nets/mobilenet_v1.py`: `mobilenet_v1_base` (up to any end
point, with `depth_multiplier` / `min_depth`, atrous `output_stride` and explicit padding),
`mobilenet_v1` (with the logits head) and its `_075` / `_050` / `_025` variants, and
`mobilenet_v1_arg_scope`. Scopes, variable names and end points follow TF, so the released slim
checkpoints restore."""

import collections
import functools

from ....framework import ops
from ....ops import init_ops
from ....ops.array_permute_ops import pad as _pad
from ....ops.array_shape_ops import squeeze as _squeeze
from ....ops.math_reduce_ops import reduce_mean as _reduce_mean
from ....ops.nn_activation_ops import relu6 as _relu6
from ....variable_scopes import variable_scope
from ...framework import arg_scope
from ...layers import avg_pool2d, batch_norm, conv2d, dropout, l2_regularizer, separable_conv2d, softmax

__all__ = ["Conv", "DepthSepConv", "MOBILENETV1_CONV_DEFS", "mobilenet_v1", "mobilenet_v1_025", "mobilenet_v1_050",
           "mobilenet_v1_075", "mobilenet_v1_arg_scope", "mobilenet_v1_base"]

Conv = collections.namedtuple("Conv", ["kernel", "stride", "depth"])
Conv.__doc__ = "A regular `kernel` convolution with `stride` and `depth` output channels, batch norm and relu6."
DepthSepConv = collections.namedtuple("DepthSepConv", ["kernel", "stride", "depth"])
DepthSepConv.__doc__ = ("A depthwise `kernel` convolution with `stride` followed by a 1x1 convolution with `depth` "
                        "output channels, each with batch norm and relu6.")

# The MobileNet v1 body: a 3x3/2 convolution, then 13 depthwise-separable layers.
MOBILENETV1_CONV_DEFS = [
    Conv(kernel=[3, 3], stride=2, depth=32),
    DepthSepConv(kernel=[3, 3], stride=1, depth=64),
    DepthSepConv(kernel=[3, 3], stride=2, depth=128),
    DepthSepConv(kernel=[3, 3], stride=1, depth=128),
    DepthSepConv(kernel=[3, 3], stride=2, depth=256),
    DepthSepConv(kernel=[3, 3], stride=1, depth=256),
    DepthSepConv(kernel=[3, 3], stride=2, depth=512),
    *[DepthSepConv(kernel=[3, 3], stride=1, depth=512)] * 5,
    DepthSepConv(kernel=[3, 3], stride=2, depth=1024),
    DepthSepConv(kernel=[3, 3], stride=1, depth=1024),
]


def _fixed_padding(inputs, kernel_size, rate=1):
    """Pads `inputs` spatially so that a 'VALID' convolution gives the output size of a 'SAME' one.

    As in TF, the effective (atrous) size of the first kernel dimension is used for both spatial axes.
    """
    effective = kernel_size[0] + (kernel_size[0] - 1) * (rate - 1)
    total = effective - 1
    beg = total // 2
    return _pad(inputs, [[0, 0], [beg, total - beg], [beg, total - beg], [0, 0]])


def mobilenet_v1_base(inputs, final_endpoint="Conv2d_13_pointwise", min_depth=8, depth_multiplier=1.0,
                      conv_defs=None, output_stride=None, use_explicit_padding=False, scope=None):
    """Mobilenet v1: the network from `inputs` up to `final_endpoint`.

    Args:
      inputs: a tensor of shape [batch_size, height, width, channels].
      final_endpoint: the end point to construct the network up to: 'Conv2d_0', or
        'Conv2d_<i>_depthwise' / 'Conv2d_<i>_pointwise' for i in 1..13 (with the default `conv_defs`).
      min_depth: Minimum depth value (number of channels) for all convolution ops (an active
        constraint only when depth_multiplier < 1).
      depth_multiplier: Float multiplier for the depth (number of channels) of all convolution ops;
        must be greater than zero.
      conv_defs: A list of `Conv` / `DepthSepConv` namedtuples specifying the net architecture
        (default `MOBILENETV1_CONV_DEFS`).
      output_stride: The requested ratio of input to output spatial resolution: None, 8, 16 or 32.
        Once reached, later layers use stride 1 and atrous depthwise convolutions instead.
      use_explicit_padding: Use 'VALID' padding for the convolutions, but pad their inputs so that the
        output sizes are those of 'SAME' padding.
      scope: Optional variable_scope.

    Returns:
      tensor_out: The output of `final_endpoint`.
      end_points: A dict from the components of the network to their activations.

    Raises:
      ValueError: if final_endpoint is not one of the predefined values, depth_multiplier <= 0, the
        target output_stride is not allowed, or a layer of `conv_defs` is of an unknown type.
    """
    if depth_multiplier <= 0:
        raise ValueError("depth_multiplier is not greater than zero.")
    if conv_defs is None:
        conv_defs = MOBILENETV1_CONV_DEFS
    if output_stride is not None and output_stride not in [8, 16, 32]:
        raise ValueError("Only allowed output_stride values are 8, 16, 32.")

    def depth(d):
        return max(int(d * depth_multiplier), min_depth)

    end_points = {}
    padding = "VALID" if use_explicit_padding else "SAME"
    with variable_scope(scope, "MobilenetV1", [inputs]):
        with arg_scope([conv2d, separable_conv2d], padding=padding):
            current_stride = 1  # the output stride so far
            rate = 1  # the atrous rate of the next depthwise layer once output_stride is reached
            net = inputs
            for i, conv_def in enumerate(conv_defs):
                end_point_base = "Conv2d_%d" % i
                if output_stride is not None and current_stride == output_stride:
                    layer_stride, layer_rate = 1, rate
                    rate *= conv_def.stride
                else:
                    layer_stride, layer_rate = conv_def.stride, 1
                    current_stride *= conv_def.stride
                if isinstance(conv_def, Conv):
                    if use_explicit_padding:
                        net = _fixed_padding(net, conv_def.kernel)
                    # As in TF, a regular convolution keeps its own stride even past output_stride.
                    net = conv2d(net, depth(conv_def.depth), conv_def.kernel, stride=conv_def.stride,
                                 scope=end_point_base)
                    end_points[end_point_base] = net
                    if end_point_base == final_endpoint:
                        return net, end_points
                elif isinstance(conv_def, DepthSepConv):
                    end_point = end_point_base + "_depthwise"
                    if use_explicit_padding:
                        net = _fixed_padding(net, conv_def.kernel, layer_rate)
                    net = separable_conv2d(net, None, conv_def.kernel, depth_multiplier=1, stride=layer_stride,
                                           rate=layer_rate, scope=end_point)
                    end_points[end_point] = net
                    if end_point == final_endpoint:
                        return net, end_points
                    end_point = end_point_base + "_pointwise"
                    net = conv2d(net, depth(conv_def.depth), [1, 1], stride=1, scope=end_point)
                    end_points[end_point] = net
                    if end_point == final_endpoint:
                        return net, end_points
                else:
                    raise ValueError("Unknown convolution type %s for layer %d" % (type(conv_def).__name__, i))
    raise ValueError("Unknown final endpoint %s" % final_endpoint)


def _reduced_kernel_size_for_small_input(input_tensor, kernel_size):
    """`kernel_size`, reduced to the input's spatial size where that is known and smaller.

    Args:
      input_tensor: input tensor of size [batch_size, height, width, channels].
      kernel_size: desired kernel size of length 2: [kernel_height, kernel_width].

    Returns:
      The kernel size: `kernel_size` itself if the input's height or width is unknown.
    """
    shape = input_tensor.get_shape().as_list()
    if shape[1] is None or shape[2] is None:
        return kernel_size
    return [min(shape[1], kernel_size[0]), min(shape[2], kernel_size[1])]


def mobilenet_v1(inputs, num_classes=1000, dropout_keep_prob=0.999, is_training=True, min_depth=8,
                 depth_multiplier=1.0, conv_defs=None, prediction_fn=softmax, spatial_squeeze=True, reuse=None,
                 scope="MobilenetV1", global_pool=False):
    """Mobilenet v1 model for classification.

    Args:
      inputs: a tensor of shape [batch_size, height, width, channels].
      num_classes: number of predicted classes. If 0 or None, the logits layer is omitted and the
        input features to the logits layer (before dropout) are returned instead.
      dropout_keep_prob: the fraction of activations kept by the dropout layer.
      is_training: whether the batch_norm and dropout layers are in training mode.
      min_depth: Minimum depth value (number of channels) for all convolution ops.
      depth_multiplier: Float multiplier for the depth (number of channels) of all convolution ops.
      conv_defs: A list of `Conv` / `DepthSepConv` namedtuples specifying the net architecture.
      prediction_fn: a function to get predictions out of logits (None: no 'Predictions' end point).
      spatial_squeeze: if True, the logits have shape [B, C], otherwise [B, 1, 1, C].
      reuse: whether the network and its variables are reused (then `scope` must be given).
      scope: Optional variable_scope.
      global_pool: if True, the features are averaged over all positions ('global_pool' end point);
        otherwise a fixed 7x7 (or smaller, for small inputs) 'VALID' average pool is used
        ('AvgPool_1a').

    Returns:
      net: the logits (pre-softmax activations) if num_classes is a non-zero integer, otherwise the
        input to the logits layer.
      end_points: a dict from the components of the network to their activations.

    Raises:
      ValueError: if the input's rank is not 4, or as `mobilenet_v1_base`.
    """
    input_shape = inputs.get_shape().as_list()
    if len(input_shape) != 4:
        raise ValueError("Invalid input tensor rank, expected 4, was: %d" % len(input_shape))
    with variable_scope(scope, "MobilenetV1", [inputs], reuse=reuse) as scope:
        with arg_scope([batch_norm, dropout], is_training=is_training):
            net, end_points = mobilenet_v1_base(inputs, scope=scope, min_depth=min_depth,
                                                depth_multiplier=depth_multiplier, conv_defs=conv_defs)
            with variable_scope("Logits"):
                if global_pool:
                    net = _reduce_mean(net, [1, 2], keepdims=True, name="global_pool")
                    end_points["global_pool"] = net
                else:
                    kernel_size = _reduced_kernel_size_for_small_input(net, [7, 7])
                    net = avg_pool2d(net, kernel_size, padding="VALID", scope="AvgPool_1a")
                    end_points["AvgPool_1a"] = net
                if not num_classes:
                    return net, end_points
                net = dropout(net, keep_prob=dropout_keep_prob, scope="Dropout_1b")
                logits = conv2d(net, num_classes, [1, 1], activation_fn=None, normalizer_fn=None,
                                scope="Conv2d_1c_1x1")
                if spatial_squeeze:
                    logits = _squeeze(logits, [1, 2], name="SpatialSqueeze")
            end_points["Logits"] = logits
            if prediction_fn:
                end_points["Predictions"] = prediction_fn(logits, scope="Predictions")
    return logits, end_points


mobilenet_v1.default_image_size = 224


def _wrapped_partial(func, **kwargs):
    partial_func = functools.partial(func, **kwargs)
    functools.update_wrapper(partial_func, func)
    return partial_func


mobilenet_v1_075 = _wrapped_partial(mobilenet_v1, depth_multiplier=0.75)
mobilenet_v1_050 = _wrapped_partial(mobilenet_v1, depth_multiplier=0.50)
mobilenet_v1_025 = _wrapped_partial(mobilenet_v1, depth_multiplier=0.25)


def mobilenet_v1_arg_scope(is_training=True, weight_decay=0.00004, stddev=0.09, regularize_depthwise=False,
                           batch_norm_decay=0.9997, batch_norm_epsilon=0.001,
                           batch_norm_updates_collections=ops.GraphKeys.UPDATE_OPS, normalizer_fn=batch_norm):
    """Defines the default MobilenetV1 arg scope.

    Args:
      is_training: Whether the model is trained; if None, `is_training` is left out of the batch_norm
        arg_scope.
      weight_decay: The weight decay to use for regularizing the model.
      stddev: The standard deviation of the truncated normal weight initializer.
      regularize_depthwise: Whether to apply the weight decay to the depthwise weights too.
      batch_norm_decay: Decay for the batch norm moving averages.
      batch_norm_epsilon: Small float added to the variance to avoid dividing by zero in batch norm.
      batch_norm_updates_collections: Collection of the batch norm update ops.
      normalizer_fn: Normalization function applied after each convolution.

    Returns:
      An `arg_scope` to use for the mobilenet v1 model.
    """
    batch_norm_params = {
        "center": True,
        "scale": True,
        "decay": batch_norm_decay,
        "epsilon": batch_norm_epsilon,
        "updates_collections": batch_norm_updates_collections,
    }
    if is_training is not None:
        batch_norm_params["is_training"] = is_training
    regularizer = l2_regularizer(weight_decay)
    depthwise_regularizer = regularizer if regularize_depthwise else None
    with arg_scope([conv2d, separable_conv2d], weights_initializer=init_ops.truncated_normal_initializer(stddev=stddev),
                   activation_fn=_relu6, normalizer_fn=normalizer_fn):
        with arg_scope([batch_norm], **batch_norm_params):
            with arg_scope([conv2d], weights_regularizer=regularizer):
                with arg_scope([separable_conv2d], weights_regularizer=depthwise_regularizer) as sc:
                    return sc
