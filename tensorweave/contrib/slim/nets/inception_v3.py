"""`tf.contrib.slim.nets.inception_v3`: slim's Inception V3 ("Rethinking the Inception Architecture for
Computer Vision", Szegedy et al. 2015) as TF 1.15's `nets/inception_v3.py`: `inception_v3_base` (up to
any end point, with `depth_multiplier` / `min_depth`), `inception_v3` (logits and auxiliary logits heads)
and `inception_v3_arg_scope`. Scopes, variable names (including TF's irregular ones) and end points
follow TF, so tf-slim checkpoints restore."""

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
    softmax,
    variance_scaling_initializer,
)

__all__ = ["inception_v3", "inception_v3_arg_scope", "inception_v3_base"]


def _c(scope, depth, kernel, stride=1, padding=None):
    """A convolution layer of a branch (padding None: the arg scope's)."""
    return ("conv", scope, depth, kernel, stride, padding)


def _avg3():
    return ("avg", "AvgPool_0a_3x3", [3, 3], 1, None)


def _max3s2():
    return ("max", "MaxPool_1a_3x3", [3, 3], 2, "VALID")


def _split(*convs):
    """Parallel convolutions over the branch so far, concatenated along the channels."""
    return ("split",) + convs


def _mixed_5(second_1x1, second_5x5, pool_depth):
    return ([_c("Conv2d_0a_1x1", 64, [1, 1])],
            [_c(second_1x1, 48, [1, 1]), _c(second_5x5, 64, [5, 5])],
            [_c("Conv2d_0a_1x1", 64, [1, 1]), _c("Conv2d_0b_3x3", 96, [3, 3]), _c("Conv2d_0c_3x3", 96, [3, 3])],
            [_avg3(), _c("Conv2d_0b_1x1", pool_depth, [1, 1])])


def _mixed_6(d):
    return ([_c("Conv2d_0a_1x1", 192, [1, 1])],
            [_c("Conv2d_0a_1x1", d, [1, 1]), _c("Conv2d_0b_1x7", d, [1, 7]), _c("Conv2d_0c_7x1", 192, [7, 1])],
            [_c("Conv2d_0a_1x1", d, [1, 1]), _c("Conv2d_0b_7x1", d, [7, 1]), _c("Conv2d_0c_1x7", d, [1, 7]),
             _c("Conv2d_0d_7x1", d, [7, 1]), _c("Conv2d_0e_1x7", 192, [1, 7])],
            [_avg3(), _c("Conv2d_0b_1x1", 192, [1, 1])])


def _mixed_7(branch_1_3x1):
    return ([_c("Conv2d_0a_1x1", 320, [1, 1])],
            [_c("Conv2d_0a_1x1", 384, [1, 1]),
             _split(("Conv2d_0b_1x3", 384, [1, 3]), (branch_1_3x1, 384, [3, 1]))],
            [_c("Conv2d_0a_1x1", 448, [1, 1]), _c("Conv2d_0b_3x3", 384, [3, 3]),
             _split(("Conv2d_0c_1x3", 384, [1, 3]), ("Conv2d_0d_3x1", 384, [3, 1]))],
            [_avg3(), _c("Conv2d_0b_1x1", 192, [1, 1])])


# the stem (padding 'VALID' by default): (end point, layer)
_STEM = (("Conv2d_1a_3x3", _c(None, 32, [3, 3], 2)), ("Conv2d_2a_3x3", _c(None, 32, [3, 3])),
         ("Conv2d_2b_3x3", _c(None, 64, [3, 3], 1, "SAME")), ("MaxPool_3a_3x3", ("max", None, [3, 3], 2, None)),
         ("Conv2d_3b_1x1", _c(None, 80, [1, 1])), ("Conv2d_4a_3x3", _c(None, 192, [3, 3])),
         ("MaxPool_5a_3x3", ("max", None, [3, 3], 2, None)))
# the inception modules (padding 'SAME' by default): (end point, branches), each branch a list of layers
_MIXED = (
    ("Mixed_5b", _mixed_5("Conv2d_0a_1x1", "Conv2d_0b_5x5", 32)),
    ("Mixed_5c", _mixed_5("Conv2d_0b_1x1", "Conv_1_0c_5x5", 64)),
    ("Mixed_5d", _mixed_5("Conv2d_0a_1x1", "Conv2d_0b_5x5", 64)),
    ("Mixed_6a", ([_c("Conv2d_1a_1x1", 384, [3, 3], 2, "VALID")],
                  [_c("Conv2d_0a_1x1", 64, [1, 1]), _c("Conv2d_0b_3x3", 96, [3, 3]),
                   _c("Conv2d_1a_1x1", 96, [3, 3], 2, "VALID")],
                  [_max3s2()])),
    ("Mixed_6b", _mixed_6(128)),
    ("Mixed_6c", _mixed_6(160)),
    ("Mixed_6d", _mixed_6(160)),
    ("Mixed_6e", _mixed_6(192)),
    ("Mixed_7a", ([_c("Conv2d_0a_1x1", 192, [1, 1]), _c("Conv2d_1a_3x3", 320, [3, 3], 2, "VALID")],
                  [_c("Conv2d_0a_1x1", 192, [1, 1]), _c("Conv2d_0b_1x7", 192, [1, 7]),
                   _c("Conv2d_0c_7x1", 192, [7, 1]), _c("Conv2d_1a_3x3", 192, [3, 3], 2, "VALID")],
                  [_max3s2()])),
    ("Mixed_7b", _mixed_7("Conv2d_0b_3x1")),
    ("Mixed_7c", _mixed_7("Conv2d_0c_3x1")),
)


def _layer(net, spec, depth, scope=None):
    kind = spec[0]
    if kind == "split":
        return _concat([conv2d(net, depth(d), k, scope=s) for s, d, k in spec[1:]], 3)
    kw = {} if spec[-1] is None else {"padding": spec[-1]}
    if kind == "conv":
        _, name, d, kernel, stride, _ = spec
        return conv2d(net, depth(d), kernel, stride=stride, scope=scope or name, **kw)
    _, name, kernel, stride, _ = spec
    return (max_pool2d if kind == "max" else avg_pool2d)(net, kernel, stride=stride, scope=scope or name, **kw)


def _depth_fn(depth_multiplier, min_depth):
    if depth_multiplier <= 0:
        raise ValueError("depth_multiplier is not greater than zero.")
    return lambda d: max(int(d * depth_multiplier), min_depth)


def inception_v3_base(inputs, final_endpoint="Mixed_7c", min_depth=16, depth_multiplier=1.0, scope=None):
    """Inception model from http://arxiv.org/abs/1512.00567, up to `final_endpoint` (no logits heads).

    Args:
      inputs: a tensor of size [batch_size, height, width, channels].
      final_endpoint: the end point to construct the network up to: one of 'Conv2d_1a_3x3',
        'Conv2d_2a_3x3', 'Conv2d_2b_3x3', 'MaxPool_3a_3x3', 'Conv2d_3b_1x1', 'Conv2d_4a_3x3',
        'MaxPool_5a_3x3', 'Mixed_5b', 'Mixed_5c', 'Mixed_5d', 'Mixed_6a', 'Mixed_6b', 'Mixed_6c',
        'Mixed_6d', 'Mixed_6e', 'Mixed_7a', 'Mixed_7b', 'Mixed_7c'.
      min_depth: Minimum depth value (number of channels) for all convolution ops.
      depth_multiplier: Float multiplier for the depth (number of channels) of all convolution ops;
        must be greater than zero.
      scope: Optional variable_scope.

    Returns:
      net: The output of `final_endpoint`.
      end_points: A dict from the components of the network to their activations.

    Raises:
      ValueError: if final_endpoint is not set to one of the predefined values, or depth_multiplier <= 0.
    """
    end_points = {}
    depth = _depth_fn(depth_multiplier, min_depth)
    with variable_scope(scope, "InceptionV3", [inputs]):
        net = inputs
        with arg_scope([conv2d, max_pool2d, avg_pool2d], stride=1, padding="VALID"):
            for end_point, spec in _STEM:
                net = end_points[end_point] = _layer(net, spec, depth, scope=end_point)
                if end_point == final_endpoint:
                    return net, end_points
        with arg_scope([conv2d, max_pool2d, avg_pool2d], stride=1, padding="SAME"):
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


def inception_v3(inputs, num_classes=1000, is_training=True, dropout_keep_prob=0.8, min_depth=16,
                 depth_multiplier=1.0, prediction_fn=softmax, spatial_squeeze=True, reuse=None,
                 create_aux_logits=True, scope="InceptionV3"):
    """Inception model from http://arxiv.org/abs/1512.00567, with the logits heads.

    The default image size is 299x299; smaller inputs (down to 75x75, or 107x107 with the auxiliary
    head) work, the final average pools shrinking to the feature map.

    Args:
      inputs: a tensor of size [batch_size, height, width, channels].
      num_classes: number of predicted classes.
      is_training: whether the batch_norm and dropout layers are in training mode.
      dropout_keep_prob: the fraction of activations kept by the dropout layer.
      min_depth: Minimum depth value (number of channels) for all convolution ops.
      depth_multiplier: Float multiplier for the depth (number of channels) of all convolution ops.
      prediction_fn: a function to get predictions out of logits.
      spatial_squeeze: if True, the logits have shape [B, C], otherwise [B, 1, 1, C].
      reuse: whether the network and its variables are reused (then `scope` must be given).
      create_aux_logits: Whether to create the auxiliary logits head (on Mixed_6e).
      scope: Optional variable_scope.

    Returns:
      logits: the pre-softmax activations.
      end_points: a dict from the components of the network to their activations, with 'AuxLogits',
        'PreLogits', 'Logits' and 'Predictions'.

    Raises:
      ValueError: if depth_multiplier <= 0.
    """
    depth = _depth_fn(depth_multiplier, min_depth)
    with variable_scope(scope, "InceptionV3", [inputs, num_classes], reuse=reuse) as scope:
        with arg_scope([batch_norm, dropout], is_training=is_training):
            net, end_points = inception_v3_base(inputs, scope=scope, min_depth=min_depth,
                                                depth_multiplier=depth_multiplier)
            if create_aux_logits and num_classes:
                with arg_scope([conv2d, max_pool2d, avg_pool2d], stride=1, padding="SAME"):
                    with variable_scope("AuxLogits"):
                        aux = avg_pool2d(end_points["Mixed_6e"], [5, 5], stride=3, padding="VALID",
                                         scope="AvgPool_1a_5x5")
                        aux = conv2d(aux, depth(128), [1, 1], scope="Conv2d_1b_1x1")
                        kernel_size = _reduced_kernel_size_for_small_input(aux, [5, 5])
                        aux = conv2d(aux, depth(768), kernel_size,
                                     weights_initializer=init_ops.truncated_normal_initializer(0.0, 0.01),
                                     padding="VALID", scope="Conv2d_2a_{}x{}".format(*kernel_size))
                        aux = conv2d(aux, num_classes, [1, 1], activation_fn=None, normalizer_fn=None,
                                     weights_initializer=init_ops.truncated_normal_initializer(0.0, 0.001),
                                     scope="Conv2d_2b_1x1")
                        if spatial_squeeze:
                            aux = _squeeze(aux, [1, 2], name="SpatialSqueeze")
                        end_points["AuxLogits"] = aux
            with variable_scope("Logits"):
                kernel_size = _reduced_kernel_size_for_small_input(net, [8, 8])
                net = avg_pool2d(net, kernel_size, padding="VALID", scope="AvgPool_1a_{}x{}".format(*kernel_size))
                net = dropout(net, keep_prob=dropout_keep_prob, scope="Dropout_1b")
                end_points["PreLogits"] = net
                logits = conv2d(net, num_classes, [1, 1], activation_fn=None, normalizer_fn=None,
                                scope="Conv2d_1c_1x1")
                if spatial_squeeze:
                    logits = _squeeze(logits, [1, 2], name="SpatialSqueeze")
            end_points["Logits"] = logits
            end_points["Predictions"] = prediction_fn(logits, scope="Predictions")
    return logits, end_points


inception_v3.default_image_size = 299


def inception_v3_arg_scope(weight_decay=0.00004, batch_norm_var_collection="moving_vars", batch_norm_decay=0.9997,
                           batch_norm_epsilon=0.001, updates_collections=ops.GraphKeys.UPDATE_OPS,
                           use_fused_batchnorm=True):
    """Defines the default InceptionV3 arg scope.

    Args:
      weight_decay: The weight decay to use for regularizing the model.
      batch_norm_var_collection: The collection of the batch_norm moving statistics.
      batch_norm_decay: Decay of the batch_norm moving averages.
      batch_norm_epsilon: Small float added to the variance to avoid dividing by zero.
      updates_collections: Collection for the batch_norm update ops.
      use_fused_batchnorm: Whether to use the fused implementation of batch_norm.

    Returns:
      An `arg_scope` to use for the inception v3 model.
    """
    batch_norm_params = {
        "decay": batch_norm_decay,
        "epsilon": batch_norm_epsilon,
        "updates_collections": updates_collections,
        "fused": use_fused_batchnorm,
        "variables_collections": {"beta": None, "gamma": None, "moving_mean": [batch_norm_var_collection],
                                  "moving_variance": [batch_norm_var_collection]},
    }
    with arg_scope([conv2d, fully_connected], weights_regularizer=l2_regularizer(weight_decay)):
        with arg_scope([conv2d], weights_initializer=variance_scaling_initializer(), activation_fn=_relu,
                       normalizer_fn=batch_norm, normalizer_params=batch_norm_params) as sc:
            return sc
