"""`tf.contrib.slim.nets.lenet`: the variant of LeNet of the TensorFlow models repository's
`research/slim/nets/lenet.py` (two 5x5 convolution + 2x2 max pool stages, a 1024-unit fully connected
layer, dropout and the logits layer), with TF's scopes, variable names and end points."""

from ....ops import init_ops
from ....ops.nn_activation_ops import relu as _relu
from ....variable_scopes import variable_scope
from ...framework import arg_scope
from ...layers import conv2d, dropout, flatten, fully_connected, l2_regularizer, max_pool2d, softmax

__all__ = ["lenet", "lenet_arg_scope"]


def lenet(images, num_classes=10, is_training=False, dropout_keep_prob=0.5, prediction_fn=softmax, scope="LeNet"):
    """Creates a variant of the LeNet model.

    The outputs are logits; `tf.nn.softmax` turns them into class probabilities.

    Args:
      images: A batch of `Tensors` of size [batch_size, height, width, channels].
      num_classes: the number of classes in the dataset. If 0 or None, the logits layer is omitted
        and the input features to the logits layer are returned instead.
      is_training: whether the dropout layer is in training mode.
      dropout_keep_prob: the fraction of activations kept by the dropout layer.
      prediction_fn: a function to get predictions out of logits.
      scope: Optional variable_scope.

    Returns:
      net: the 2D logits (pre-softmax activations) if num_classes is a non-zero integer, otherwise
        the (non-dropped-out) input to the logits layer.
      end_points: a dict from the components of the network to their activations.
    """
    end_points = {}
    with variable_scope(scope, "LeNet", [images]):
        net = end_points["conv1"] = conv2d(images, 32, [5, 5], scope="conv1")
        net = end_points["pool1"] = max_pool2d(net, [2, 2], 2, scope="pool1")
        net = end_points["conv2"] = conv2d(net, 64, [5, 5], scope="conv2")
        net = end_points["pool2"] = max_pool2d(net, [2, 2], 2, scope="pool2")
        net = end_points["Flatten"] = flatten(net)
        net = end_points["fc3"] = fully_connected(net, 1024, scope="fc3")
        if not num_classes:
            return net, end_points
        net = end_points["dropout3"] = dropout(net, dropout_keep_prob, is_training=is_training, scope="dropout3")
        logits = end_points["Logits"] = fully_connected(net, num_classes, activation_fn=None, scope="fc4")
    end_points["Predictions"] = prediction_fn(logits, scope="Predictions")
    return logits, end_points


lenet.default_image_size = 28


def lenet_arg_scope(weight_decay=0.0):
    """Defines the default lenet argument scope.

    Args:
      weight_decay: The weight decay to use for regularizing the model.

    Returns:
      An `arg_scope` to use for the lenet model.
    """
    with arg_scope([conv2d, fully_connected], weights_regularizer=l2_regularizer(weight_decay),
                   weights_initializer=init_ops.truncated_normal_initializer(stddev=0.1),
                   activation_fn=_relu) as sc:
        return sc
