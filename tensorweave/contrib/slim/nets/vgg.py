"""`tf.contrib.slim.nets.vgg`: slim's VGG networks ("Very Deep Convolutional Networks for Large-Scale
Image Recognition", Simonyan & Zisserman 2014) as TF 1.15's `nets/vgg.py`: `vgg_a` (configuration A,
11 layers), `vgg_16` (D) and `vgg_19` (E), with fully connected layers written as convolutions, and
`vgg_arg_scope`. Scopes, variable names and end points follow TF, so tf-slim checkpoints restore."""

from ....ops import init_ops
from ....ops.array_shape_ops import squeeze as _squeeze
from ....ops.nn_activation_ops import relu as _relu
from ....variable_scopes import variable_scope
from ...framework import arg_scope
from ...layers import conv2d, dropout, fully_connected, l2_regularizer, max_pool2d, repeat
from ...layers_slim import convert_collection_to_dict

__all__ = ["vgg_16", "vgg_19", "vgg_a", "vgg_arg_scope", "vgg_d", "vgg_e"]


def vgg_arg_scope(weight_decay=0.0005):
    """Defines the VGG arg scope (ReLU, L2 weight decay, zero biases, 'SAME' convolutions).

    Args:
      weight_decay: The l2 regularization coefficient.

    Returns:
      An arg_scope.
    """
    with arg_scope([conv2d, fully_connected], activation_fn=_relu, weights_regularizer=l2_regularizer(weight_decay),
                   biases_initializer=init_ops.zeros_initializer()):
        with arg_scope([conv2d], padding="SAME") as arg_sc:
            return arg_sc


def _vgg(inputs, convs, num_classes, is_training, dropout_keep_prob, spatial_squeeze, scope, default_name,
         collection_suffix, collected):
    """The VGG body: `convs[i]` 3x3 convolutions + 2x2 max pool per stage, then fc6-fc8 as convolutions."""
    with variable_scope(scope, default_name, [inputs]) as sc:
        end_points_collection = collection_suffix(sc) + "_end_points"
        with arg_scope(collected, outputs_collections=end_points_collection):
            net = inputs
            for i, (n, depth) in enumerate(zip(convs, (64, 128, 256, 512, 512))):
                net = repeat(net, n, conv2d, depth, [3, 3], scope="conv%d" % (i + 1))
                net = max_pool2d(net, [2, 2], scope="pool%d" % (i + 1))
            net = conv2d(net, 4096, [7, 7], padding="VALID", scope="fc6")
            net = dropout(net, dropout_keep_prob, is_training=is_training, scope="dropout6")
            net = conv2d(net, 4096, [1, 1], scope="fc7")
            net = dropout(net, dropout_keep_prob, is_training=is_training, scope="dropout7")
            net = conv2d(net, num_classes, [1, 1], activation_fn=None, normalizer_fn=None, scope="fc8")
            end_points = convert_collection_to_dict(end_points_collection)
            if spatial_squeeze:
                net = _squeeze(net, [1, 2], name="fc8/squeezed")
                end_points[sc.name + "/fc8"] = net
            return net, end_points


_DOC = """VGG configuration {config} ({layers} layers).

    The fully connected layers are 'VALID' 7x7 and 1x1 convolutions, so the network takes
    224x224 inputs (larger inputs with `spatial_squeeze=False` give a spatial map of logits).

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
    """


def vgg_a(inputs, num_classes=1000, is_training=True, dropout_keep_prob=0.5, spatial_squeeze=True, scope="vgg_a"):
    return _vgg(inputs, (1, 1, 2, 2, 2), num_classes, is_training, dropout_keep_prob, spatial_squeeze, scope, "vgg_a",
                lambda sc: sc.original_name_scope, [conv2d, max_pool2d])


def vgg_16(inputs, num_classes=1000, is_training=True, dropout_keep_prob=0.5, spatial_squeeze=True, scope="vgg_16"):
    return _vgg(inputs, (2, 2, 3, 3, 3), num_classes, is_training, dropout_keep_prob, spatial_squeeze, scope,
                "vgg_16", lambda sc: sc.original_name_scope, [conv2d, fully_connected, max_pool2d])


def vgg_19(inputs, num_classes=1000, is_training=True, dropout_keep_prob=0.5, spatial_squeeze=True, scope="vgg_19"):
    return _vgg(inputs, (2, 2, 4, 4, 4), num_classes, is_training, dropout_keep_prob, spatial_squeeze, scope,
                "vgg_19", lambda sc: sc.name, [conv2d, fully_connected, max_pool2d])


for _fn, _config, _layers in ((vgg_a, "A", 11), (vgg_16, "D", 16), (vgg_19, "E", 19)):
    _fn.__doc__ = _DOC.format(config=_config, layers=_layers)
    _fn.default_image_size = 224
del _fn, _config, _layers

vgg_d = vgg_16
vgg_e = vgg_19
