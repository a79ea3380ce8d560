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


def _depth_in(inputs):
    """The (known) channel count of a rank >= 4 NHWC tensor, raising ValueError like TF's `last_dimension`."""
    shape = inputs.get_shape()
    if shape.ndims is None:
        raise ValueError("dims of shape must be known but is None")
    if shape.ndims < 4:
        raise ValueError("rank of shape must be at least 4 not: %d" % shape.ndims)
    value = shape.as_list()[-1]
    if value is None:
        raise ValueError("last dimension shape must be known but is None")
    return value


def _bottleneck_block(unit_fn, scope, base_depth, num_units, stride):
    """A bottleneck `Block` of `unit_fn` units: `num_units` units of depth `4 * base_depth`, the last
    with `stride` (what `resnet_v1_block` and `resnet_v2_block` build)."""
    unit = {"depth": base_depth * 4, "depth_bottleneck": base_depth, "stride": 1}
    return Block(scope, unit_fn, [unit] * (num_units - 1) + [dict(unit, stride=stride)])


_SIZE_UNITS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3), 200: (3, 24, 36, 3)}

_SIZE_DOC = """ResNet-{depth} {version} (block units {units}); see `resnet_{version}` for the arguments and
    return values.

    Args:
      inputs: A tensor of size [batch, height_in, width_in, channels].
      num_classes: Number of predicted classes (None: return the pooled features).
      is_training: Whether batch_norm layers are in training mode.
      global_pool: If True, spatially average the last block's output.
      output_stride: None or the requested ratio of input to output spatial resolution.
      reuse: Whether the network and its variables are reused.
      scope: Optional variable_scope.

    Returns:
      (net, end_points), as `resnet_{version}`.
    """


def _sized_resnet(version, resnet_fn, block_fn, depth):
    """The function `resnet_<version>_<depth>` of slim's model zoo: `resnet_fn` over the standard four
    blocks of `block_fn` for that depth, with the root block."""
    units = _SIZE_UNITS[depth]
    name = "resnet_%s_%d" % (version, depth)

    def net(inputs, num_classes=None, is_training=True, global_pool=True, output_stride=None, reuse=None,
            scope=name):
        blocks = [block_fn("block%d" % (i + 1), base_depth=64 * 2 ** i, num_units=n, stride=2 if i < 3 else 1)
                  for i, n in enumerate(units)]
        return resnet_fn(inputs, blocks, num_classes, is_training, global_pool, output_stride,
                         include_root_block=True, reuse=reuse, scope=scope)

    net.__name__ = net.__qualname__ = name
    net.__module__ = resnet_fn.__module__
    net.__doc__ = _SIZE_DOC.format(depth=depth, version=version, units=units)
    net.default_image_size = 224
    return net
