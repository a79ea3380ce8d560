"""`tf.contrib.slim.nets.inception_v1`: slim's Inception V1 / GoogLeNet ("Going deeper with
convolutions", Szegedy et al. 2014) as TF 1.15's `nets/inception_v1.py`: `inception_v1_base` (up to
any end point), `inception_v1` (with the logits head) and `inception_v1_arg_scope`. Scopes, variable
names and end points follow TF, so tf-slim checkpoints restore."""

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

__all__ = ["inception_v1", "inception_v1_arg_scope", "inception_v1_base"]

# the Mixed (inception) modules: the depths of Branch_0's 1x1, Branch_1's 1x1 and 3x3, Branch_2's 1x1 and
# 3x3 and Branch_3's 1x1 after a 3x3 max pool
_MIXED = {
    "Mixed_3b": (64, 96, 128, 16, 32, 32),
    "Mixed_3c": (128, 128, 192, 32, 96, 64),
    "Mixed_4b": (192, 96, 208, 16, 48, 64),
    "Mixed_4c": (160, 112, 224, 24, 64, 64),
    "Mixed_4d": (128, 128, 256, 24, 64, 64),
    "Mixed_4e": (112, 144, 288, 32, 64, 64),
    "Mixed_4f": (256, 160, 320, 32, 128, 128),
    "Mixed_5b": (256, 160, 320, 32, 128, 128),
    "Mixed_5c": (384, 192, 384, 48, 128, 128),
}
# the layers in order: (end point, kind, arguments)
_LAYERS = (("Conv2d_1a_7x7", "conv", (64, [7, 7], 2)), ("MaxPool_2a_3x3", "pool", ([3, 3], 2)),
           ("Conv2d_2b_1x1", "conv", (64, [1, 1], 1)), ("Conv2d_2c_3x3", "conv", (192, [3, 3], 1)),
           ("MaxPool_3a_3x3", "pool", ([3, 3], 2)), ("Mixed_3b", "mixed", ()), ("Mixed_3c", "mixed", ()),
           ("MaxPool_4a_3x3", "pool", ([3, 3], 2)), ("Mixed_4b", "mixed", ()), ("Mixed_4c", "mixed", ()),
           ("Mixed_4d", "mixed", ()), ("Mixed_4e", "mixed", ()), ("Mixed_4f", "mixed", ()),
           ("MaxPool_5a_2x2", "pool", ([2, 2], 2)), ("Mixed_5b", "mixed", ()), ("Mixed_5c", "mixed", ()))


def _mixed(net, name):
    """One inception module: four branches concatenated along the channels."""
    d0, d1a, d1b, d2a, d2b, d3 = _MIXED[name]
    with variable_scope(name):
        with variable_scope("Branch_0"):
            branch_0 = conv2d(net, d0, [1, 1], scope="Conv2d_0a_1x1")
        with variable_scope("Branch_1"):
            branch_1 = conv2d(net, d1a, [1, 1], scope="Conv2d_0a_1x1")
            branch_1 = conv2d(branch_1, d1b, [3, 3], scope="Conv2d_0b_3x3")
        with variable_scope("Branch_2"):
            branch_2 = conv2d(net, d2a, [1, 1], scope="Conv2d_0a_1x1")
            # TF's checkpoints name Mixed_5b's second convolution of this branch 0a
            branch_2 = conv2d(branch_2, d2b, [3, 3], scope="Conv2d_0a_3x3" if name == "Mixed_5b" else "Conv2d_0b_3x3")
        with variable_scope("Branch_3"):
            branch_3 = max_pool2d(net, [3, 3], scope="MaxPool_0a_3x3")
            branch_3 = conv2d(branch_3, d3, [1, 1], scope="Conv2d_0b_1x1")
        return _concat([branch_0, branch_1, branch_2, branch_3], 3)


def inception_v1_base(inputs, final_endpoint="Mixed_5c", scope="InceptionV1"):
    """Defines the Inception V1 base architecture (no logits head).

    Args:
      inputs: a tensor of size [batch_size, height, width, channels].
      final_endpoint: the end point to construct the network up to: one of 'Conv2d_1a_7x7',
        'MaxPool_2a_3x3', 'Conv2d_2b_1x1', 'Conv2d_2c_3x3', 'MaxPool_3a_3x3', 'Mixed_3b', 'Mixed_3c',
        'MaxPool_4a_3x3', 'Mixed_4b', 'Mixed_4c', 'Mixed_4d', 'Mixed_4e', 'Mixed_4f', 'MaxPool_5a_2x2',
        'Mixed_5b', 'Mixed_5c'.
      scope: Optional variable_scope.

    Returns:
      net: The output of `final_endpoint`.
      end_points: A dict from the components of the network to their activations.

    Raises:
      ValueError: if final_endpoint is not set to one of the predefined values.
    """
    end_points = {}
    with variable_scope(scope, "InceptionV1", [inputs]):
        with arg_scope([conv2d, fully_connected], weights_initializer=init_ops.truncated_normal_initializer(0.0, 0.01)):
            with arg_scope([conv2d, max_pool2d], stride=1, padding="SAME"):
                net = inputs
                for end_point, kind, args in _LAYERS:
                    if kind == "conv":
                        depth, kernel, stride = args
                        net = conv2d(net, depth, kernel, stride=stride, scope=end_point)
                    elif kind == "pool":
                        kernel, stride = args
                        net = max_pool2d(net, kernel, stride=stride, scope=end_point)
                    else:
                        net = _mixed(net, end_point)
                    end_points[end_point] = net
                    if end_point == final_endpoint:
                        return net, end_points
    raise ValueError("Unknown final endpoint %s" % final_endpoint)


def inception_v1(inputs, num_classes=1000, is_training=True, dropout_keep_prob=0.8, prediction_fn=softmax,
                 spatial_squeeze=True, reuse=None, scope="InceptionV1"):
    """Defines the Inception V1 architecture.

    The logits head averages Mixed_5c's 7x7 map, so the network takes 224x224 inputs.

    Args:
      inputs: a tensor of size [batch_size, height, width, channels].
      num_classes: number of predicted classes.
      is_training: whether the batch_norm and dropout layers are in training mode.
      dropout_keep_prob: the fraction of activations kept by the dropout layer.
      prediction_fn: a function to get predictions out of logits.
      spatial_squeeze: if True, the logits have shape [B, C], otherwise [B, 1, 1, C].
      reuse: whether the network and its variables are reused (then `scope` must be given).
      scope: Optional variable_scope.

    Returns:
      logits: the pre-softmax activations.
      end_points: a dict from the components of the network to their activations, with 'Logits'
        and 'Predictions'.
    """
    with variable_scope(scope, "InceptionV1", [inputs, num_classes], reuse=reuse) as scope:
        with arg_scope([batch_norm, dropout], is_training=is_training):
            net, end_points = inception_v1_base(inputs, scope=scope)
            with variable_scope("Logits"):
                net = avg_pool2d(net, [7, 7], stride=1, scope="MaxPool_0a_7x7")
                net = dropout(net, dropout_keep_prob, scope="Dropout_0b")
                logits = conv2d(net, num_classes, [1, 1], activation_fn=None, normalizer_fn=None,
                                scope="Conv2d_0c_1x1")
                if spatial_squeeze:
                    logits = _squeeze(logits, [1, 2], name="SpatialSqueeze")
                end_points["Logits"] = logits
                end_points["Predictions"] = prediction_fn(logits, scope="Predictions")
    return logits, end_points


inception_v1.default_image_size = 224


def inception_v1_arg_scope(weight_decay=0.00004, use_batch_norm=True, batch_norm_var_collection="moving_vars"):
    """Defines the default InceptionV1 arg scope.

    Args:
      weight_decay: The weight decay to use for regularizing the model.
      use_batch_norm: If True, batch_norm is applied after each convolution.
      batch_norm_var_collection: The collection of the batch_norm moving statistics.

    Returns:
      An `arg_scope` to use for the inception v1 model.
    """
    batch_norm_params = {
        "decay": 0.9997,
        "epsilon": 0.001,
        "updates_collections": ops.GraphKeys.UPDATE_OPS,
        "variables_collections": {"beta": None, "gamma": None, "moving_mean": [batch_norm_var_collection],
                                  "moving_variance": [batch_norm_var_collection]},
    }
    normalizer_fn, normalizer_params = (batch_norm, batch_norm_params) if use_batch_norm else (None, {})
    with arg_scope([conv2d, fully_connected], weights_regularizer=l2_regularizer(weight_decay)):
        with arg_scope([conv2d], weights_initializer=variance_scaling_initializer(), activation_fn=_relu,
                       normalizer_fn=normalizer_fn, normalizer_params=normalizer_params) as sc:
            return sc
