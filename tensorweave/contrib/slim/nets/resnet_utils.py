"""`tf.contrib.slim.nets.resnet_utils`: the pieces shared by slim's ResNet v1 and v2 (TF 1.15's
`nets/resnet_utils.py`): the `Block` description, `subsample`, `conv2d_same` (explicitly padded strided
convolution), `stack_blocks_dense` (stacks blocks, with atrous convolution for a requested
`output_stride`) and the default `resnet_arg_scope`."""

import collections as _collections

from ....framework import ops
from ....ops.array_permute_ops import pad as _pad
from ....ops.nn_activation_ops import relu as _relu
from ....variable_scopes import variable_scope
from ...framework import add_arg_scope, arg_scope
from ...layers import batch_norm, conv2d, l2_regularizer, max_pool2d, variance_scaling_initializer
from ...layers_slim import collect_named_outputs

__all__ = ["Block", "conv2d_same", "resnet_arg_scope", "stack_blocks_dense", "subsample"]


class Block(_collections.namedtuple("Block", ["scope", "unit_fn", "args"])):
    """A named tuple describing a ResNet block.

    Fields:
      scope: The scope of the block (e.g. "block1").
      unit_fn: The ResNet unit function, called as `unit_fn(net, rate=..., **args[i])`.
      args: A list with one dict of keyword arguments (`depth`, `depth_bottleneck`, `stride`) per unit.
    """


def subsample(inputs, factor, scope=None):
    """Subsamples the input along the spatial dimensions.

    Args:
      inputs: A `Tensor` of size [batch, height_in, width_in, channels].
      factor: The subsampling factor.
      scope: Optional scope for the pooling op.

    Returns:
      `inputs` itself when `factor == 1`, otherwise a 1x1 max pool of stride `factor`.
    """
    if factor == 1:
        return inputs
    return max_pool2d(inputs, [1, 1], stride=factor, scope=scope)


def conv2d_same(inputs, num_outputs, kernel_size, stride, rate=1, scope=None):
    """Strided 2-D convolution with 'SAME' padding that does not depend on the input's parity.

    With `stride > 1` the input is zero-padded explicitly by the effective kernel size and convolved
    with 'VALID' padding, so the result equals a stride-1 'SAME' convolution followed by `subsample`.

    Args:
      inputs: A 4-D tensor of size [batch, height_in, width_in, channels].
      num_outputs: An integer, the number of output filters.
      kernel_size: An int with the kernel_size of the filters.
      stride: An integer, the output stride.
      rate: An integer, rate for atrous convolution.
      scope: Scope.

    Returns:
      A 4-D tensor of size [batch, height_out, width_out, num_outputs].
    """
    if stride == 1:
        return conv2d(inputs, num_outputs, kernel_size, stride=1, rate=rate, padding="SAME", scope=scope)
    effective = kernel_size + (kernel_size - 1) * (rate - 1)
    pad_beg = (effective - 1) // 2
    pad_end = effective - 1 - pad_beg
    inputs = _pad(inputs, [[0, 0], [pad_beg, pad_end], [pad_beg, pad_end], [0, 0]])
    return conv2d(inputs, num_outputs, kernel_size, stride=stride, rate=rate, padding="VALID", scope=scope)


@add_arg_scope
def stack_blocks_dense(net, blocks, output_stride=None, outputs_collections=None):
    """Stacks ResNet `Block`s, controlling the output feature density.

    Units are created under the scopes 'block_name/unit_1', 'block_name/unit_2', ... Once the product
    of the unit strides reaches `output_stride`, the remaining units run with stride 1 and atrous
    convolution (a growing `rate`) instead.

    Args:
      net: A `Tensor` of size [batch, height, width, channels].
      blocks: A list of `Block`s.
      output_stride: None (the nominal stride) or the requested ratio of input to output spatial
        resolution; it must equal the product of the unit strides up to some unit.
      outputs_collections: Collection to add the block outputs to.

    Returns:
      The output tensor, with stride `output_stride`.

    Raises:
      ValueError: If the target output_stride cannot be reached.
    """
    current_stride = 1
    rate = 1
    for block in blocks:
        with variable_scope(block.scope, "block", [net]) as sc:
            for i, unit in enumerate(block.args):
                if output_stride is not None and current_stride > output_stride:
                    raise ValueError("The target output_stride cannot be reached.")
                with variable_scope("unit_%d" % (i + 1), values=[net]):
                    if output_stride is not None and current_stride == output_stride:
                        # at the target stride: keep the resolution, dilate instead
                        net = block.unit_fn(net, rate=rate, **dict(unit, stride=1))
                        rate *= unit.get("stride", 1)
                    else:
                        net = block.unit_fn(net, rate=1, **unit)
                        current_stride *= unit.get("stride", 1)
            net = collect_named_outputs(outputs_collections, sc.name, net)
    if output_stride is not None and current_stride != output_stride:
        raise ValueError("The target output_stride cannot be reached.")
    return net


def resnet_arg_scope(weight_decay=0.0001, batch_norm_decay=0.997, batch_norm_epsilon=1e-5, batch_norm_scale=True):
    """The default ResNet arg scope (L2-regularised, batch-normalised ReLU convolutions).

    Args:
      weight_decay: The weight decay to use for regularizing the model.
      batch_norm_decay: The moving average decay of the batch normalization statistics.
      batch_norm_epsilon: Small constant added to the variance in batch normalization.
      batch_norm_scale: If True, batch normalization uses a `gamma` multiplier.

    Returns:
      An `arg_scope` to use for the resnet models.
    """
    batch_norm_params = {"decay": batch_norm_decay, "epsilon": batch_norm_epsilon, "scale": batch_norm_scale,
                         "updates_collections": ops.GraphKeys.UPDATE_OPS}
    with arg_scope([conv2d], weights_regularizer=l2_regularizer(weight_decay),
                   weights_initializer=variance_scaling_initializer(), activation_fn=_relu,
                   normalizer_fn=batch_norm, normalizer_params=batch_norm_params):
        with arg_scope([batch_norm], **batch_norm_params):
            with arg_scope([max_pool2d], padding="SAME") as arg_sc:
                return arg_sc
