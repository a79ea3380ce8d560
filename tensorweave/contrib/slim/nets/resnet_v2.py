"""`tf.contrib.slim.nets.resnet_v2`: slim's ResNet v2 ("Identity Mappings in Deep Residual
Networks", He et al. 2016; pre-activation units) as TF 1.15's `nets/resnet_v2.py`: the `bottleneck` unit, the generic
`resnet_v2` builder, `resnet_v2_block` and the 50/101/152/200-layer networks. Scopes, variable names
and end points follow TF, so checkpoints written by tf-slim restore."""

from ....ops.math_reduce_ops import reduce_mean as _reduce_mean
from ....ops.nn_activation_ops import relu as _relu
from ....variable_scopes import variable_scope
from ...framework import add_arg_scope, arg_scope
from ...layers import batch_norm, conv2d, max_pool2d, softmax
from ...layers_slim import collect_named_outputs, convert_collection_to_dict
from . import resnet_utils
from .resnet_utils import resnet_arg_scope

__all__ = ["bottleneck", "resnet_arg_scope", "resnet_v2", "resnet_v2_101", "resnet_v2_152", "resnet_v2_200",
           "resnet_v2_50", "resnet_v2_block"]


@add_arg_scope
def bottleneck(inputs, depth, depth_bottleneck, stride, rate=1, outputs_collections=None, scope=None):
    """The ResNet v2 (pre-activation) bottleneck unit: BN + ReLU, then 1x1, 3x3, 1x1 convolutions plus a shortcut.

    Args:
      inputs: A tensor of size [batch, height, width, channels].
      depth: The depth of the unit's output.
      depth_bottleneck: The depth of the bottleneck layers.
      stride: The unit's stride (applied in the 3x3 convolution and the shortcut).
      rate: An integer, rate for atrous convolution.
      outputs_collections: Collection to add the unit's output to.
      scope: Optional variable_scope (default 'bottleneck_v2').

    Returns:
      The unit's output tensor.
    """
    with variable_scope(scope, "bottleneck_v2", [inputs]) as sc:
        depth_in = resnet_utils._depth_in(inputs)
        preact = batch_norm(inputs, activation_fn=_relu, scope="preact")
        if depth == depth_in:
            shortcut = resnet_utils.subsample(inputs, stride, "shortcut")
        else:
            shortcut = conv2d(preact, depth, [1, 1], stride=stride, normalizer_fn=None, activation_fn=None,
                              scope="shortcut")
        residual = conv2d(preact, depth_bottleneck, [1, 1], stride=1, scope="conv1")
        residual = resnet_utils.conv2d_same(residual, depth_bottleneck, 3, stride, rate=rate, scope="conv2")
        residual = conv2d(residual, depth, [1, 1], stride=1, normalizer_fn=None, activation_fn=None, scope="conv3")
        output = shortcut + residual
        return collect_named_outputs(outputs_collections, sc.name, output)


def resnet_v2(inputs, blocks, num_classes=None, is_training=True, global_pool=True, output_stride=None,
              include_root_block=True, reuse=None, scope=None):
    """Generator for ResNet v2 models.

    Args:
      inputs: A tensor of size [batch, height_in, width_in, channels].
      blocks: A list of `resnet_utils.Block`s, one per ResNet block.
      num_classes: Number of predicted classes; None returns the features before the logits layer.
      is_training: Whether batch_norm layers are in training mode.
      global_pool: If True, spatially average the (post-normalised) last block's output.
      output_stride: None or the requested ratio of input to output spatial resolution (atrous).
      include_root_block: If True, start with the 7x7 stride-2 convolution and 3x3 max pool.
      reuse: Whether the network and its variables are reused.
      scope: Optional variable_scope (default 'resnet_v2').

    Returns:
      net: The logits [batch, 1, 1, num_classes] (or the features when `num_classes` is None).
      end_points: A dict from the network's components to their tensors, with 'predictions'.

    Raises:
      ValueError: If the target output_stride is not valid.
    """
    with variable_scope(scope, "resnet_v2", [inputs], reuse=reuse) as sc:
        end_points_collection = sc.original_name_scope + "_end_points"
        with arg_scope([conv2d, bottleneck, resnet_utils.stack_blocks_dense],
                       outputs_collections=end_points_collection):
            with arg_scope([batch_norm], is_training=is_training):
                net = inputs
                if include_root_block:
                    if output_stride is not None:
                        if output_stride % 4 != 0:
                            raise ValueError("The output_stride needs to be a multiple of 4.")
                        output_stride /= 4
                    # the root convolution is neither normalised nor activated: the first unit's preact does it
                    with arg_scope([conv2d], activation_fn=None, normalizer_fn=None):
                        net = resnet_utils.conv2d_same(net, 64, 7, stride=2, scope="conv1")
                    net = max_pool2d(net, [3, 3], stride=2, scope="pool1")
                net = resnet_utils.stack_blocks_dense(net, blocks, output_stride)
                # the last unit's output is not activated (pre-activation units): normalise it here
                net = batch_norm(net, activation_fn=_relu, scope="postnorm")
                if global_pool:
                    net = _reduce_mean(net, [1, 2], name="pool5", keepdims=True)
                if num_classes is not None:
                    net = conv2d(net, num_classes, [1, 1], activation_fn=None, normalizer_fn=None, scope="logits")
                end_points = convert_collection_to_dict(end_points_collection)
                if num_classes is not None:
                    end_points["predictions"] = softmax(net, scope="predictions")
                return net, end_points


resnet_v2.default_image_size = 224


def resnet_v2_block(scope, base_depth, num_units, stride):
    """A ResNet v2 bottleneck `Block`: `num_units` units of depth `4 * base_depth`, the last with `stride`.

    Args:
      scope: The scope of the block.
      base_depth: The depth of the bottleneck layer of each unit.
      num_units: The number of units in the block.
      stride: The stride of the block (of its last unit).

    Returns:
      A `resnet_utils.Block`.
    """
    return resnet_utils._bottleneck_block(bottleneck, scope, base_depth, num_units, stride)


resnet_v2_50 = resnet_utils._sized_resnet("v2", resnet_v2, resnet_v2_block, 50)
resnet_v2_101 = resnet_utils._sized_resnet("v2", resnet_v2, resnet_v2_block, 101)
resnet_v2_152 = resnet_utils._sized_resnet("v2", resnet_v2, resnet_v2_block, 152)
resnet_v2_200 = resnet_utils._sized_resnet("v2", resnet_v2, resnet_v2_block, 200)
