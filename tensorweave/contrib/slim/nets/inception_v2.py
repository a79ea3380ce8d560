"""`tf.contrib.slim.nets.inception_v2`: slim's Inception V2 ("Batch Normalization: Accelerating Deep Network
Training by Reducing Internal Covariate Shift", Ioffe and Szegedy 2015) as TF 1.15's `nets/inception_v2.py`:
`inception_v2_base` (up to any end point, with `depth_multiplier` / `min_depth`), `inception_v2` (with the
logits head) and `inception_v2_arg_scope`. Scopes, variable names and end points follow TF, so tf-slim
checkpoints restore."""

from ....framework import ops
from ....ops import init_ops
from ....ops.array_join_ops import concat as _concat
from ....ops.array_shape_ops import squeeze as _squeeze
from ....ops.nn_activation_ops import relu as _relu
from ....variable_scopes import variable_scope
from ...framework import arg_scope
from ...layers import (
    avg_pool2d,
    batch_norm,
    conv2d,
    dropout,
    fully_connected,
    l2_regularizer,
    max_pool2d,
    separable_conv2d,
    softmax,
    variance_scaling_initializer,
)

__all__ = ["inception_v2", "inception_v2_arg_scope", "inception_v2_base"]


def _trunc_normal(stddev):
    return init_ops.truncated_normal_initializer(0.0, stddev)


def _module(d0, d1a, d1b, d2a, d2b, d3, pool="avg"):
    """The branches of a regular mixed module: 1x1; 1x1 -> 3x3; 1x1 -> 3x3 -> 3x3; pool -> 1x1.

    A layer is ("conv", scope, depth, kernel, stride, initializer stddev or None) or
    (pool kind, scope, kernel, stride)."""
    return (
        (("conv", "Conv2d_0a_1x1", d0, [1, 1], 1, None),),
        (("conv", "Conv2d_0a_1x1", d1a, [1, 1], 1, 0.09), ("conv", "Conv2d_0b_3x3", d1b, [3, 3], 1, None)),
        (("conv", "Conv2d_0a_1x1", d2a, [1, 1], 1, 0.09), ("conv", "Conv2d_0b_3x3", d2b, [3, 3], 1, None),
         ("conv", "Conv2d_0c_3x3", d2b, [3, 3], 1, None)),
        ((pool, "%sPool_0a_3x3" % ("Avg" if pool == "avg" else "Max"), [3, 3], 1),
         ("conv", "Conv2d_0b_1x1", d3, [1, 1], 1, 0.1)),
    )


def _reduction(d0a, d0b, d1a, d1b):
    """The branches of a grid-reducing mixed module: 1x1 -> 3x3/2; 1x1 -> 3x3 -> 3x3/2; max pool 3x3/2."""
    return (
        (("conv", "Conv2d_0a_1x1", d0a, [1, 1], 1, 0.09), ("conv", "Conv2d_1a_3x3", d0b, [3, 3], 2, None)),
        (("conv", "Conv2d_0a_1x1", d1a, [1, 1], 1, 0.09), ("conv", "Conv2d_0b_3x3", d1b, [3, 3], 1, None),
         ("conv", "Conv2d_1a_3x3", d1b, [3, 3], 2, None)),
        (("max", "MaxPool_1a_3x3", [3, 3], 2),),
    )


_MIXED = (
    ("Mixed_3b", _module(64, 64, 64, 64, 96, 32)),
    ("Mixed_3c", _module(64, 64, 96, 64, 96, 64)),
    ("Mixed_4a", _reduction(128, 160, 64, 96)),
    ("Mixed_4b", _module(224, 64, 96, 96, 128, 128)),
    ("Mixed_4c", _module(192, 96, 128, 96, 128, 128)),
    ("Mixed_4d", _module(160, 128, 160, 128, 160, 96)),
    ("Mixed_4e", _module(96, 128, 192, 160, 192, 96)),
    ("Mixed_5a", _reduction(128, 192, 192, 256)),
    ("Mixed_5b", _module(352, 192, 320, 160, 224, 128)),
    ("Mixed_5c", _module(352, 192, 320, 192, 224, 128, pool="max")),
)


def _layer(net, spec, depth):
    if spec[0] == "conv":
        _, scope, d, kernel, stride, stddev = spec
        kw = {} if stddev is None else {"weights_initializer": _trunc_normal(stddev)}
        return conv2d(net, depth(d), kernel, stride=stride, scope=scope, **kw)
    kind, scope, kernel, stride = spec
    return (max_pool2d if kind == "max" else avg_pool2d)(net, kernel, stride=stride, scope=scope)


def _depth_fn(depth_multiplier, min_depth):
    if depth_multiplier <= 0:
        raise ValueError("depth_multiplier is not greater than zero.")
    return lambda d: max(int(d * depth_multiplier), min_depth)


def inception_v2_base(inputs, final_endpoint="Mixed_5c", min_depth=16, depth_multiplier=1.0, scope=None):
    """Inception v2 (6a2): the network from http://arxiv.org/abs/1502.03167 up to `final_endpoint`.

    Args:
      inputs: a tensor of shape [batch_size, height, width, channels].
      final_endpoint: the end point to construct the network up to: one of 'Conv2d_1a_7x7',
        'MaxPool_2a_3x3', 'Conv2d_2b_1x1', 'Conv2d_2c_3x3', 'MaxPool_3a_3x3', 'Mixed_3b', 'Mixed_3c',
        'Mixed_4a', 'Mixed_4b', 'Mixed_4c', 'Mixed_4d', 'Mixed_4e', 'Mixed_5a', 'Mixed_5b', 'Mixed_5c'.
      min_depth: Minimum depth value (number of channels) for all convolution ops (an active
        constraint only when depth_multiplier < 1).
      depth_multiplier: Float multiplier for the depth (number of channels) of all convolution ops;
        must be greater than zero.
      scope: Optional variable_scope.

    Returns:
      tensor_out: The output of `final_endpoint`.
      end_points: A dict from the components of the network to their activations.

    Raises:
      ValueError: if final_endpoint is not set to one of the predefined values, or depth_multiplier <= 0.
    """
    end_points = {}
    depth = _depth_fn(depth_multiplier, min_depth)
    with variable_scope(scope, "InceptionV2", [inputs]):
        with arg_scope([conv2d, max_pool2d, avg_pool2d, separable_conv2d], stride=1, padding="SAME"):
            # A depthwise-separable first layer: its depthwise multiplier keeps the depthwise output
            # (3 channels times the multiplier) near the 64 pointwise outputs, at most 8.
            end_point = "Conv2d_1a_7x7"
            net = separable_conv2d(inputs, depth(64), [7, 7], depth_multiplier=min(int(depth(64) / 3), 8), stride=2,
                                   weights_initializer=_trunc_normal(1.0), scope=end_point)
            end_points[end_point] = net
            if end_point == final_endpoint:
                return net, end_points
            for end_point, kind, args in (("MaxPool_2a_3x3", "pool", ()), ("Conv2d_2b_1x1", "conv", (64, [1, 1])),
                                          ("Conv2d_2c_3x3", "conv", (192, [3, 3])), ("MaxPool_3a_3x3", "pool", ())):
                if kind == "pool":
                    net = max_pool2d(net, [3, 3], scope=end_point, stride=2)
                else:
                    d, kernel = args
                    kw = {"weights_initializer": _trunc_normal(0.1)} if end_point == "Conv2d_2b_1x1" else {}
                    net = conv2d(net, depth(d), kernel, scope=end_point, **kw)
                end_points[end_point] = net
                if end_point == final_endpoint:
                    return net, end_points
            for end_point, branches in _MIXED:
                with variable_scope(end_point):
                    outputs = []
                    for i, branch in enumerate(branches):
                        with variable_scope("Branch_%d" % i):
                            out = net
                            for spec in branch:
                                out = _layer(out, spec, depth)
                            outputs.append(out)
                    net = _concat(outputs, 3)
                    end_points[end_point] = net
                    if end_point == final_endpoint:
                        return net, end_points
    raise ValueError("Unknown final endpoint %s" % final_endpoint)


def _reduced_kernel_size_for_small_input(input_tensor, kernel_size):
    """`kernel_size`, reduced to the input's spatial size where that is known and smaller."""
    shape = input_tensor.get_shape().as_list()
    if shape[1] is None or shape[2] is None:
        return kernel_size
    return [min(shape[1], kernel_size[0]), min(shape[2], kernel_size[1])]


def inception_v2(inputs, num_classes=1000, is_training=True, dropout_keep_prob=0.8, min_depth=16,
                 depth_multiplier=1.0, prediction_fn=softmax, spatial_squeeze=True, reuse=None, scope="InceptionV2"):
    """Inception v2 model for classification (http://arxiv.org/abs/1502.03167).

    The recommended image size is 224x224; the final average pool shrinks to smaller feature maps.

    Args:
      inputs: a tensor of shape [batch_size, height, width, channels].
      num_classes: number of predicted classes.
      is_training: whether the batch_norm and dropout layers are in training mode.
      dropout_keep_prob: the fraction of activations kept by the dropout layer.
      min_depth: Minimum depth value (number of channels) for all convolution ops.
      depth_multiplier: Float multiplier for the depth (number of channels) of all convolution ops.
      prediction_fn: a function to get predictions out of logits.
      spatial_squeeze: if True, the logits have shape [B, C], otherwise [B, 1, 1, C].
      reuse: whether the network and its variables are reused (then `scope` must be given).
      scope: Optional variable_scope.

    Returns:
      logits: the pre-softmax activations, a tensor of size [batch_size, num_classes].
      end_points: a dict from the components of the network to their activations, with 'Logits'
        and 'Predictions'.

    Raises:
      ValueError: if depth_multiplier <= 0.
    """
    if depth_multiplier <= 0:
        raise ValueError("depth_multiplier is not greater than zero.")
    with variable_scope(scope, "InceptionV2", [inputs, num_classes], reuse=reuse) as scope:
        with arg_scope([batch_norm, dropout], is_training=is_training):
            net, end_points = inception_v2_base(inputs, scope=scope, min_depth=min_depth,
                                                depth_multiplier=depth_multiplier)
            with variable_scope("Logits"):
                kernel_size = _reduced_kernel_size_for_small_input(net, [7, 7])
                net = avg_pool2d(net, kernel_size, padding="VALID", scope="AvgPool_1a_{}x{}".format(*kernel_size))
                net = dropout(net, keep_prob=dropout_keep_prob, scope="Dropout_1b")
                logits = conv2d(net, num_classes, [1, 1], activation_fn=None, normalizer_fn=None,
                                scope="Conv2d_1c_1x1")
                if spatial_squeeze:
                    logits = _squeeze(logits, [1, 2], name="SpatialSqueeze")
            end_points["Logits"] = logits
            end_points["Predictions"] = prediction_fn(logits, scope="Predictions")
    return logits, end_points


inception_v2.default_image_size = 224


def inception_v2_arg_scope(weight_decay=0.00004, batch_norm_var_collection="moving_vars"):
    """Defines the default InceptionV2 arg scope.

    Args:
      weight_decay: The weight decay to use for regularizing the model.
      batch_norm_var_collection: The collection of the batch_norm moving statistics.

    Returns:
      An `arg_scope` to use for the inception v2 model.
    """
    batch_norm_params = {
        "decay": 0.9997,
        "epsilon": 0.001,
        "updates_collections": ops.GraphKeys.UPDATE_OPS,
        "variables_collections": {"beta": None, "gamma": None, "moving_mean": [batch_norm_var_collection],
                                  "moving_variance": [batch_norm_var_collection]},
    }
    with arg_scope([conv2d, fully_connected], weights_regularizer=l2_regularizer(weight_decay)):
        with arg_scope([conv2d], weights_initializer=variance_scaling_initializer(), activation_fn=_relu,
                       normalizer_fn=batch_norm, normalizer_params=batch_norm_params) as sc:
            return sc
