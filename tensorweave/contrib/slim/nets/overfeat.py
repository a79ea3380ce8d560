"""`tf.contrib.slim.nets.overfeat`: slim's OverFeat ("OverFeat: Integrated Recognition, Localization and
Detection using Convolutional Networks", Sermanet et al. 2014) as TF 1.15's `nets/overfeat.py`, with fully
connected layers written as convolutions. Scopes, variable names and end points follow TF, so tf-slim
checkpoints restore."""

from ....ops import init_ops
from ....ops.array_shape_ops import squeeze as _squeeze
from ....ops.nn_activation_ops import relu as _relu
from ....variable_scopes import variable_scope
from ...framework import arg_scope
from ...layers import conv2d, dropout, fully_connected, l2_regularizer, max_pool2d
from ...layers_slim import convert_collection_to_dict

__all__ = ["overfeat", "overfeat_arg_scope"]


def overfeat_arg_scope(weight_decay=0.0005):
    """Defines the OverFeat arg scope (ReLU, L2 weight decay, zero biases, 'SAME' convs, 'VALID' pools).

    Args:
      weight_decay: The l2 regularization coefficient.

    Returns:
      An arg_scope.
    """
    with arg_scope([conv2d, fully_connected], activation_fn=_relu, weights_regularizer=l2_regularizer(weight_decay),
                   biases_initializer=init_ops.zeros_initializer()):
        with arg_scope([conv2d], padding="SAME"):
            with arg_scope([max_pool2d], padding="VALID") as arg_sc:
                return arg_sc


def overfeat(inputs, num_classes=1000, is_training=True, dropout_keep_prob=0.5, spatial_squeeze=True,
             scope="overfeat"):
    """Contains the model definition for the OverFeat network.

    All the fully connected layers are convolutions: use 231x231 inputs for classification (with
    `overfeat_arg_scope`, whose 'VALID' pooling the sizes assume), or `spatial_squeeze=False` on larger
    inputs for a spatial map of logits.

    Args:
      inputs: A tensor of size [batch_size, height, width, channels].
      num_classes: Number of predicted classes.
      is_training: Whether the dropout layers are in training mode.
      dropout_keep_prob: The probability that activations are kept in the dropout layers during training.
      spatial_squeeze: Whether to squeeze the spatial dimensions of the outputs (logits [batch, num_classes]).
      scope: Optional scope for the variables.

    Returns:
      net: The logits.
      end_points: A dict from the network's components to their tensors.

    Raises:
      ValueError: If `spatial_squeeze` is set and the logits' spatial dimensions are not 1 (the input
        is not 231x231 with the default pooling).
    """
    with variable_scope(scope, "overfeat", [inputs]) as sc:
        end_points_collection = sc.original_name_scope + "_end_points"
        with arg_scope([conv2d, fully_connected, max_pool2d], outputs_collections=[end_points_collection]):
            net = conv2d(inputs, 64, [11, 11], 4, padding="VALID", scope="conv1")
            net = max_pool2d(net, [2, 2], scope="pool1")
            net = conv2d(net, 256, [5, 5], padding="VALID", scope="conv2")
            net = max_pool2d(net, [2, 2], scope="pool2")
            net = conv2d(net, 512, [3, 3], scope="conv3")
            net = conv2d(net, 1024, [3, 3], scope="conv4")
            net = conv2d(net, 1024, [3, 3], scope="conv5")
            net = max_pool2d(net, [2, 2], scope="pool5")
            with arg_scope([conv2d], weights_initializer=init_ops.truncated_normal_initializer(0.0, 0.005),
                           biases_initializer=init_ops.constant_initializer(0.1)):
                net = conv2d(net, 3072, [6, 6], padding="VALID", scope="fc6")
                net = dropout(net, dropout_keep_prob, is_training=is_training, scope="dropout6")
                net = conv2d(net, 4096, [1, 1], scope="fc7")
                net = dropout(net, dropout_keep_prob, is_training=is_training, scope="dropout7")
                net = conv2d(net, num_classes, [1, 1], activation_fn=None, normalizer_fn=None,
                             biases_initializer=init_ops.zeros_initializer(), scope="fc8")
            end_points = convert_collection_to_dict(end_points_collection)
            if spatial_squeeze:
                net = _squeeze(net, [1, 2], name="fc8/squeezed")
                end_points[sc.name + "/fc8"] = net
            return net, end_points


overfeat.default_image_size = 231
