"""More TF 1.15 `tf.contrib.layers` (= slim) layers: 3-D convolution (and its transpose) and
pooling, `conv2d_in_plane`, `pool`, `instance_norm`, `group_norm`, `maxout`, `scale_gradient`,
`dense_to_sparse`, `images_to_sequence` / `sequence_to_images`."""

from ..framework import dtypes, ops
from ..ops import init_ops
from ..variable_scopes import variable_scope
from .framework import add_arg_scope, model_variable
from .layers_slim import (
    _check_padding,
    _conv_transpose,
    _nn,
    _pool_nd,
    _relu,
    collect_named_outputs,
    convolution,
    get_variable_collections,
)

__all__ = ["avg_pool3d", "conv2d_in_plane", "conv3d", "conv3d_transpose", "convolution2d_in_plane", "convolution3d",
           "convolution3d_transpose", "dense_to_sparse", "group_norm", "images_to_sequence", "instance_norm",
           "max_pool3d", "maxout", "pool", "scale_gradient", "sequence_to_images"]

DATA_FORMAT_NCHW = "NCHW"
DATA_FORMAT_NHWC = "NHWC"
DATA_FORMAT_NCDHW = "NCDHW"
DATA_FORMAT_NDHWC = "NDHWC"


@add_arg_scope
def convolution3d(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=None, rate=1,
                  activation_fn=_relu, normalizer_fn=None, normalizer_params=None, weights_initializer=None,
                  weights_regularizer=None, biases_initializer=init_ops.zeros_initializer(), biases_regularizer=None,
                  reuse=None, variables_collections=None, outputs_collections=None, trainable=True, scope=None):
    """`convolution` for inputs of rank 5 only (`conv_dims=3`): "<scope>/weights" of shape
    `[kd, kh, kw, in_channels, num_outputs]` (scope "Conv").

    Args:
      inputs: A 5-D tensor `[batch, depth, height, width, channels]` (or channels first with
        `data_format="NCDHW"`).
      num_outputs: Integer, the number of output filters.
      kernel_size, stride, padding, data_format, rate, activation_fn, normalizer_fn,
        normalizer_params, weights_initializer, weights_regularizer, biases_initializer,
        biases_regularizer, reuse, variables_collections, outputs_collections, trainable, scope:
        As `convolution`.

    Returns:
      The output tensor.

    Raises:
      ValueError: As `convolution`, and for an input whose rank is not 5.
    """
    return convolution(inputs, num_outputs, kernel_size, stride=stride, padding=padding, data_format=data_format,
                       rate=rate, activation_fn=activation_fn, normalizer_fn=normalizer_fn,
                       normalizer_params=normalizer_params, weights_initializer=weights_initializer,
                       weights_regularizer=weights_regularizer, biases_initializer=biases_initializer,
                       biases_regularizer=biases_regularizer, reuse=reuse, variables_collections=variables_collections,
                       outputs_collections=outputs_collections, trainable=trainable, scope=scope, conv_dims=3)


conv3d = convolution3d


@add_arg_scope
def max_pool3d(inputs, kernel_size, stride=2, padding="VALID", data_format=DATA_FORMAT_NDHWC,
               outputs_collections=None, scope=None):
    """Adds a 3D Max Pooling op (per volume, not across batch or channels).

    Args:
      inputs: A 5-D tensor of shape `[batch_size, depth, height, width, channels]` if
        `data_format` is `NDHWC`, and `[batch_size, channels, depth, height, width]` if
        `data_format` is `NCDHW`.
      kernel_size: A list of length 3: [kernel_depth, kernel_height, kernel_width] of the pooling
        kernel over which the op is computed. Can be an int if all values are the same.
      stride: A list of length 3: [stride_depth, stride_height, stride_width]. Can be an int if
        all strides are the same.
      padding: The padding method, either 'VALID' or 'SAME'.
      data_format: A string. `NDHWC` (default) and `NCDHW` are supported.
      outputs_collections: The collections to which the outputs are added.
      scope: Optional scope for name_scope.

    Returns:
      A `Tensor` representing the results of the pooling operation.

    Raises:
      ValueError: If `data_format` is neither `NDHWC` nor `NCDHW`, or the input is not 5-D.
    """
    return _pool_nd(3, "max", "MaxPool3D", inputs, kernel_size, stride, padding, data_format,
                    outputs_collections, scope)


@add_arg_scope
def avg_pool3d(inputs, kernel_size, stride=2, padding="VALID", data_format=DATA_FORMAT_NDHWC,
               outputs_collections=None, scope=None):
    """Adds a 3D average pooling op (per volume, not across batch or channels).

    Args:
      inputs: A 5-D tensor of shape `[batch_size, depth, height, width, channels]` if
        `data_format` is `NDHWC`, and `[batch_size, channels, depth, height, width]` if
        `data_format` is `NCDHW`.
      kernel_size: A list of length 3: [kernel_depth, kernel_height, kernel_width] of the pooling
        kernel over which the op is computed. Can be an int if all values are the same.
      stride: A list of length 3: [stride_depth, stride_height, stride_width]. Can be an int if
        all strides are the same.
      padding: The padding method, either 'VALID' or 'SAME'.
      data_format: A string. `NDHWC` (default) and `NCDHW` are supported.
      outputs_collections: The collections to which the outputs are added.
      scope: Optional scope for name_scope.

    Returns:
      A `Tensor` representing the results of the pooling operation.

    Raises:
      ValueError: If `data_format` is neither `NDHWC` nor `NCDHW`, or the input is not 5-D.
    """
    return _pool_nd(3, "avg", "AvgPool3D", inputs, kernel_size, stride, padding, data_format,
                    outputs_collections, scope)


@add_arg_scope
def instance_norm(inputs, center=True, scale=True, epsilon=1e-6, activation_fn=None, param_initializers=None,
                  reuse=None, variables_collections=None, outputs_collections=None, trainable=True,
                  data_format=DATA_FORMAT_NHWC, scope=None):
    """Functional interface for the instance normalization layer (Ulyanov et al., 2016):
    normalizes each example and channel over the spatial axes, then applies "<scope>/gamma" and
    "<scope>/beta" (scope "InstanceNorm").

    Args:
      inputs: A tensor with 2 or more dimensions, where the first dimension has `batch_size`.
      center: If True, add offset of `beta` to normalized tensor. If False, `beta` is ignored.
      scale: If True, multiply by `gamma`. If False, `gamma` is not used.
      epsilon: Small float added to variance to avoid dividing by zero.
      activation_fn: Activation function, default set to None to skip it and maintain a linear
        activation.
      param_initializers: Optional initializers for beta, gamma, moving mean and moving variance.
      reuse: Whether or not the layer and its variables should be reused.
      variables_collections: Optional collections for the variables.
      outputs_collections: Collections to add the outputs.
      trainable: If `True` also add variables to the graph collection TRAINABLE_VARIABLES.
      data_format: A string. `NHWC` (default) and `NCHW` are supported.
      scope: Optional scope for `variable_scope`.

    Returns:
      A `Tensor` representing the output of the operation.

    Raises:
      ValueError: If `data_format` is neither `NHWC` nor `NCHW`, the rank of `inputs` is
        undefined, or the channel dimension is not defined.
    """
    from ..ops import array_ops
    nn = _nn()
    inputs = ops.convert_to_tensor(inputs)
    inputs_shape = inputs.shape
    inputs_rank = inputs_shape.ndims
    if inputs_rank is None:
        raise ValueError("Inputs %s has undefined rank." % inputs.name)
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with variable_scope(scope, "InstanceNorm", [inputs], reuse=reuse) as sc:
        if data_format == DATA_FORMAT_NCHW:
            reduction_axis = 1
            broadcast = [1, inputs_shape.dims[1].value] + [1] * (inputs_rank - 2)
        else:
            reduction_axis = inputs_rank - 1
            broadcast = None
        moments_axes = [a for a in range(1, inputs_rank) if a != reduction_axis]
        params_shape = inputs_shape[reduction_axis:reduction_axis + 1]
        if not params_shape.is_fully_defined():
            raise ValueError("Inputs %s has undefined channels dimension %s." % (inputs.name, params_shape))
        dtype = inputs.dtype.base_dtype
        param_initializers = param_initializers or {}
        beta = gamma = None
        if center:
            beta = model_variable("beta", shape=params_shape, dtype=dtype,
                                  initializer=param_initializers.get("beta", init_ops.zeros_initializer()),
                                  collections=get_variable_collections(variables_collections, "beta"),
                                  trainable=trainable)
            if broadcast:
                beta = array_ops.reshape(beta, broadcast)
        if scale:
            gamma = model_variable("gamma", shape=params_shape, dtype=dtype,
                                   initializer=param_initializers.get("gamma", init_ops.ones_initializer()),
                                   collections=get_variable_collections(variables_collections, "gamma"),
                                   trainable=trainable)
            if broadcast:
                gamma = array_ops.reshape(gamma, broadcast)
        mean, variance = nn.moments(inputs, moments_axes, keep_dims=True)
        outputs = nn.batch_normalization(inputs, mean, variance, beta, gamma, epsilon, name="instancenorm")
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


def maxout(inputs, num_units, axis=-1, scope=None):
    """Adds a maxout op (Goodfellow et al., 2013): the `axis` features are split into `num_units`
    groups of consecutive features, and the maximum of each group is kept.

    Args:
      inputs: Tensor input
      num_units: Specifies how many features will remain after maxout in the `axis` dimension
        (usually channel). This must be a factor of number of features.
      axis: The dimension where max pooling will be performed. Default is the last dimension.
      scope: Optional scope for variable_scope.

    Returns:
      A `Tensor` representing the results of the pooling operation.

    Raises:
      ValueError: if num_units is not multiple of number of features.
    """
    from ..ops import array_ops, math_ops
    with variable_scope(scope, "MaxOut", [inputs]):
        inputs = ops.convert_to_tensor(inputs)
        shape = inputs.get_shape().as_list()
        num_channels = shape[axis]
        if num_channels % num_units:
            raise ValueError("number of features({}) is not a multiple of num_units({})"
                             .format(num_channels, num_units))
        shape[axis] = num_units
        shape += [num_channels // num_units]
        for i, dim in enumerate(shape):
            if dim is None:
                shape[i] = array_ops.shape(inputs)[i]
        if any(ops.is_tensor(d) for d in shape):
            shape = array_ops.stack(shape)
        return math_ops.reduce_max(array_ops.reshape(inputs, shape), -1, keepdims=False)


def dense_to_sparse(tensor, eos_token=0, outputs_collections=None, scope=None):
    """Converts a dense tensor into a sparse tensor holding its entries other than `eos_token`.

    Args:
      tensor: An `int` `Tensor` to be converted to a `Sparse`.
      eos_token: An integer. It is part of the target label that signifies the end of a sentence.
      outputs_collections: Collection to add the outputs.
      scope: Optional scope for name_scope.

    Returns:
      A `SparseTensor` with the same dense shape as `tensor`.
    """
    from ..framework.constant_op import constant
    from ..framework.sparse_tensor import SparseTensor
    from ..ops import array_ops, math_ops
    from ..ops.core_ops import shape as shape_op
    with variable_scope(scope, "dense_to_sparse", [tensor]) as sc:
        tensor = ops.convert_to_tensor(tensor)
        indices = array_ops.where(math_ops.not_equal(tensor, constant(eos_token, tensor.dtype)))
        values = array_ops.gather_nd(tensor, indices)
        outputs = SparseTensor(indices, values, shape_op(tensor, out_type=dtypes.int64))
        return collect_named_outputs(outputs_collections, sc.name, outputs)


def images_to_sequence(inputs, data_format=DATA_FORMAT_NHWC, outputs_collections=None, scope=None):
    """Convert a batch of images into a batch of sequences: `[batch, height, width, depth]` to
    `[width, batch * height, depth]` (each image row becomes a sequence over the width).

    Args:
      inputs: (num_images, height, width, depth) tensor
      data_format: A string. `NHWC` (default) and `NCHW` are supported.
      outputs_collections: The collections to which the outputs are added.
      scope: Optional scope for name_scope.

    Raises:
      ValueError: If `data_format` is not either NCHW or NHWC.

    Returns:
      (width, num_images*height, depth) sequence tensor
    """
    from ..ops import array_ops
    from ..ops.core_ops import shape as shape_op
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with ops.name_scope(scope, "ImagesToSequence", [inputs]) as sc:
        inputs = ops.convert_to_tensor(inputs)
        if data_format == DATA_FORMAT_NCHW:
            inputs = array_ops.transpose(inputs, [0, 2, 3, 1])
        _, _, width, depth = inputs.get_shape().as_list()
        s = shape_op(inputs)
        batch_size, height = s[0], s[1]
        transposed = array_ops.transpose(inputs, [2, 0, 1, 3])
        outputs = array_ops.reshape(transposed, array_ops.stack([width, batch_size * height, depth]))
        return collect_named_outputs(outputs_collections, sc, outputs)


def sequence_to_images(inputs, height, output_data_format="channels_last", outputs_collections=None, scope=None):
    """Convert a batch of sequences into a batch of images (the inverse of `images_to_sequence`).

    Args:
      inputs: (num_steps, num_batches, depth) sequence tensor
      height: the height of the images
      output_data_format: Format of output tensor. Currently supports `'channels_first'` and
        `'channels_last'`.
      outputs_collections: The collections to which the outputs are added.
      scope: Optional scope for name_scope.

    Returns:
      A tensor representing the output of the operation.
    """
    from ..ops import array_ops
    with ops.name_scope(scope, "SequenceToImages", [inputs]) as sc:
        inputs = ops.convert_to_tensor(inputs)
        width, num_batches, depth = inputs.get_shape().as_list()
        num_batches = -1 if num_batches is None else num_batches // height
        reshaped = array_ops.reshape(inputs, [width, num_batches, height, depth])
        if output_data_format == "channels_first":
            outputs = array_ops.transpose(reshaped, [1, 3, 2, 0])
        else:
            outputs = array_ops.transpose(reshaped, [1, 2, 0, 3])
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def convolution2d_in_plane(inputs, kernel_size, stride=1, padding="SAME", activation_fn=_relu, normalizer_fn=None,
                           normalizer_params=None, weights_initializer=None, weights_regularizer=None,
                           biases_initializer=init_ops.zeros_initializer(), biases_regularizer=None, reuse=None,
                           variables_collections=None, outputs_collections=None, trainable=True, scope=None):
    """Performs the same in-plane convolution to each channel independently: one kernel
    "<scope>/weights" of shape `[kh, kw, 1, 1]` (scope "ConvInPlane") shared by all channels,
    applied depthwise, then biases (or the normalizer) and the activation.

    Args:
      inputs: A 4-D tensor with dimensions [batch_size, height, width, channels].
      kernel_size: A list of length 2 holding the [kernel_height, kernel_width] of the pooling.
        Can be an int if both values are the same.
      stride: A list of length 2 `[stride_height, stride_width]`. Can be an int if both strides
        are the same.
      padding: The padding type to use, either 'SAME' or 'VALID'.
      activation_fn: Activation function. The default value is a ReLU function.
      normalizer_fn: Normalization function to use instead of `biases`.
      normalizer_params: Normalization function parameters.
      weights_initializer: An initializer for the weights (default `xavier_initializer()`).
      weights_regularizer: Optional regularizer for the weights.
      biases_initializer: An initializer for the biases. If None skip biases.
      biases_regularizer: Optional regularizer for the biases.
      reuse: Whether or not the layer and its variables should be reused.
      variables_collections: Optional list of collections for all the variables or a dictionary
        containing a different list of collection per variable.
      outputs_collections: Collection to add the outputs.
      trainable: If `True` also add variables to the graph collection TRAINABLE_VARIABLES.
      scope: Optional scope for `variable_scope`.

    Returns:
      A `Tensor` representing the output of the operation.

    Raises:
      ValueError: If the input is not 4-D or its last dimension is unknown.
    """
    from ..ops import array_ops
    from .layers_slim import _bias_and_normalize, _xavier, two_element_tuple
    if weights_initializer is None:
        weights_initializer = _xavier()
    with variable_scope(scope, "ConvInPlane", [inputs], reuse=reuse) as sc:
        inputs = ops.convert_to_tensor(inputs)
        dtype = inputs.dtype.base_dtype
        kernel_h, kernel_w = two_element_tuple(kernel_size)
        stride_h, stride_w = two_element_tuple(stride)
        shape = inputs.get_shape()
        if shape.ndims is None or shape.ndims < 4:
            raise ValueError("inputs has undefined rank or rank < 4: %s" % (shape,))
        num_filters_in = shape.dims[-1].value
        if num_filters_in is None:
            raise ValueError("inputs has undefined last dimension %s." % (shape,))
        weights = model_variable("weights", shape=[kernel_h, kernel_w, 1, 1], dtype=dtype,
                                 initializer=weights_initializer, regularizer=weights_regularizer,
                                 collections=get_variable_collections(variables_collections, "weights"),
                                 trainable=trainable)
        depthwise_weights = array_ops.tile(weights, [1, 1, num_filters_in, 1])
        outputs = _nn().depthwise_conv2d(inputs, depthwise_weights, [1, stride_h, stride_w, 1],
                                         _check_padding(padding))
        outputs = _bias_and_normalize(outputs, num_filters_in, dtype, False, normalizer_fn, normalizer_params,
                                      biases_initializer, biases_regularizer, variables_collections, trainable)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


conv2d_in_plane = convolution2d_in_plane


@add_arg_scope
def convolution3d_transpose(inputs, num_outputs, kernel_size, stride=1, padding="SAME",
                            data_format=DATA_FORMAT_NDHWC, activation_fn=_relu, normalizer_fn=None,
                            normalizer_params=None, weights_initializer=None, weights_regularizer=None,
                            biases_initializer=init_ops.zeros_initializer(), biases_regularizer=None, reuse=None,
                            variables_collections=None, outputs_collections=None, trainable=True, scope=None):
    """Adds a convolution3d_transpose with an optional batch normalization layer.

    "<scope>/weights" has shape `[kd, kh, kw, num_outputs, in_channels]` (scope
    "Conv3d_transpose"); each output spatial size is `in * stride` ("SAME") or
    `in * stride + max(k - stride, 0)` ("VALID").

    Args:
      inputs: A 5-D `Tensor` of type `float` and shape `[batch, depth, height, width,
        in_channels]` for `NDHWC` data format or `[batch, in_channels, depth, height, width]`
        for `NCDHW` data format.
      num_outputs: Integer, the number of output filters.
      kernel_size: A list of length 3 holding the [kernel_depth, kernel_height, kernel_width] of
        the filters. Can be an int if both values are the same.
      stride: A list of length 3: [stride_depth, stride_height, stride_width]. Can be an int if
        both strides are the same.
      padding: One of 'VALID' or 'SAME'.
      data_format: A string. `NDHWC` (default) and `NCDHW` are supported.
      activation_fn: Activation function. The default value is a ReLU function.
      normalizer_fn: Normalization function to use instead of `biases`.
      normalizer_params: Normalization function parameters.
      weights_initializer: An initializer for the weights (default `xavier_initializer()`).
      weights_regularizer: Optional regularizer for the weights.
      biases_initializer: An initializer for the biases. If None skip biases.
      biases_regularizer: Optional regularizer for the biases.
      reuse: Whether or not the layer and its variables should be reused.
      variables_collections: Optional list of collections for all the variables or a dictionary
        containing a different list of collection per variable.
      outputs_collections: Collection to add the outputs.
      trainable: Whether or not the variables should be trainable or not.
      scope: Optional scope for variable_scope.

    Returns:
      A tensor representing the output of the operation.

    Raises:
      ValueError: If `data_format` is neither `NDHWC` nor `NCDHW`, the input is not 5-D, or its
        channel dimension is unknown.
    """
    return _conv_transpose(3, inputs, num_outputs, kernel_size, stride, padding, data_format, activation_fn,
                           normalizer_fn, normalizer_params, weights_initializer, weights_regularizer,
                           biases_initializer, biases_regularizer, reuse, variables_collections, outputs_collections,
                           trainable, scope)


conv3d_transpose = convolution3d_transpose


def _n_positive_integers(n, value):
    if isinstance(value, int) and not isinstance(value, bool):
        if value > 0:
            return [value] * n
    else:
        values = list(value) if isinstance(value, (list, tuple)) else None
        if values is not None and len(values) == n and all(isinstance(v, int) and v > 0 for v in values):
            return values
    raise ValueError("Expected value to be a positive integer or a sequence of %d positive integers, got %r"
                     % (n, value))


@add_arg_scope
def pool(inputs, kernel_size, pooling_type, padding="VALID", data_format=None, dilation_rate=1, stride=1,
         outputs_collections=None, scope=None):
    """Adds a N-D pooling op (`tf.nn.pool`), name scope "<pooling_type>_pool".

    Args:
      inputs: Tensor of rank N+2, of shape `[batch_size] + input_spatial_shape + [num_channels]`
        if data_format does not start with "NC" (default), or `[batch_size, num_channels] +
        input_spatial_shape` if data_format starts with "NC".
      kernel_size: Sequence of N ints >= 1. Can also be a single integer to specify the same
        value for all spatial dimensions.
      pooling_type: Specifies pooling operation, must be "AVG" or "MAX".
      padding: The padding algorithm, must be "SAME" or "VALID".
      data_format: A string or None. Specifies whether the channel dimension of the `input` and
        output is the last dimension (default, or if `data_format` does not start with "NC"), or
        the second dimension (if `data_format` starts with "NC").
      dilation_rate: Optional. Dilation rate. List of N ints >= 1. Defaults to [1]*N. If any
        value of dilation_rate is > 1, then all values of strides must be 1.
      stride: Optional. Sequence of N ints >= 1. Defaults to [1]*N. If any value of strides is
        > 1, then all values of dilation_rate must be 1.
      outputs_collections: The collections to which the outputs are added.
      scope: Optional scope for name_scope.

    Returns:
      A `Tensor` representing the results of the pooling operation.

    Raises:
      ValueError: If arguments are invalid.
    """
    with ops.name_scope(scope, "%s_pool" % (pooling_type.lower()), [inputs]) as sc:
        inputs = ops.convert_to_tensor(inputs)
        input_rank = inputs.get_shape().ndims
        if input_rank is None:
            raise ValueError("Rank of inputs must be known")
        if input_rank < 3:
            raise ValueError("Rank of inputs must be >= 3")
        n = input_rank - 2
        output = _nn().pool(input=inputs, window_shape=_n_positive_integers(n, kernel_size),
                            pooling_type=pooling_type, padding=padding, data_format=data_format,
                            dilation_rate=_n_positive_integers(n, dilation_rate),
                            strides=_n_positive_integers(n, stride), name=sc)
        return collect_named_outputs(outputs_collections, sc, output)


@add_arg_scope
def group_norm(inputs, groups=32, channels_axis=-1, reduction_axes=(-3, -2), center=True, scale=True, epsilon=1e-6,
               activation_fn=None, param_initializers=None, reuse=None, variables_collections=None,
               outputs_collections=None, trainable=True, scope=None, mean_close_to_zero=False):
    """Functional interface for the group normalization layer (Wu & He, 2018): the channels are
    split into `groups` groups, each normalized over its channels and the `reduction_axes`, then
    "<scope>/gamma" and "<scope>/beta" (scope "GroupNorm") of shape `[channels]` are applied.

    Args:
      inputs: A Tensor with at least 2 dimensions one which is channels. All shape dimensions
        except for batch must be fully defined.
      groups: Integer. Divide the channels into this number of groups over which normalization
        statistics are computed. This number must be commensurate with the number of channels in
        `inputs`.
      channels_axis: An integer. Specifies index of channels axis which will be broken into
        `groups`, each of which whose statistics will be computed across. Must be mutually
        exclusive with `reduction_axes`. Preferred usage is to specify negative integers to be
        agnostic as to whether a batch dimension is included.
      reduction_axes: Tuple of integers. Specifies dimensions over which statistics will be
        accumulated. Must be mutually exclusive with `channels_axis`. Statistics will not be
        accumulated across axes not specified in `reduction_axes` nor `channel_axis`. Preferred
        usage is to specify negative integers to be agnostic to whether a batch dimension is
        included.
      center: If True, add offset of `beta` to normalized tensor. If False, `beta` is ignored.
      scale: If True, multiply by `gamma`. If False, `gamma` is not used.
      epsilon: Small float added to variance to avoid dividing by zero.
      activation_fn: Activation function, default set to None to skip it and maintain a linear
        activation.
      param_initializers: Optional initializers for beta, gamma, moving mean and moving variance.
      reuse: Whether or not the layer and its variables should be reused.
      variables_collections: Optional collections for the variables.
      outputs_collections: Collections to add the outputs.
      trainable: If `True` also add variables to the graph collection TRAINABLE_VARIABLES.
      scope: Optional scope for `variable_scope`.
      mean_close_to_zero: The mean of `input` before ReLU will be close to zero when batch size
        >= 4k for Resnet-50 on TPU. If `True`, use `nn.sufficient_statistics` and
        `nn.normalize_moments` to calculate the variance.

    Returns:
      A `Tensor` representing the output of the operation.

    Raises:
      ValueError: If the rank of `inputs` is undefined, or a channel or reduction dimension is
        undefined, or the axes overlap or are out of bounds, or `groups` does not divide the
        channels.
    """
    from ..ops import array_ops, math_ops
    from ..ops.core_ops import shape as shape_op
    nn = _nn()
    inputs = ops.convert_to_tensor(inputs)
    rank = inputs.shape.ndims
    if rank is None:
        raise ValueError("Inputs %s has undefined rank." % inputs.name)
    if channels_axis > (rank - 1):
        raise ValueError("Axis is out of bounds.")
    dynamic_shape = shape_op(inputs)
    input_shape_list = [dim if dim is not None else dynamic_shape[i]
                        for i, dim in enumerate(inputs.shape.as_list())]
    if channels_axis < 0:
        channels_axis = rank + channels_axis
    channels = inputs.shape.as_list()[channels_axis]
    if channels is None:
        raise ValueError("Inputs %s has undefined channel dimension: %d." % (inputs.name, channels_axis))
    reduction_axes = [a + rank if a < 0 else a for a in reduction_axes]
    for a in reduction_axes:
        if a > rank:
            raise ValueError("Axis is out of bounds.")
        if inputs.shape.as_list()[a] is None:
            raise ValueError("Inputs %s has undefined dimensions %d." % (inputs.name, a))
        if channels_axis == a:
            raise ValueError("reduction_axis must be mutually exclusive with channels_axis")
    if groups > channels:
        raise ValueError("Invalid groups %d for %d channels." % (groups, channels))
    if channels % groups != 0:
        raise ValueError("%d channels is not commensurate with %d groups." % (channels, groups))
    axes_before = input_shape_list[:channels_axis]
    axes_after = input_shape_list[channels_axis + 1:]
    params_shape_broadcast = [1] * len(axes_before) + [groups, channels // groups] + [1] * len(axes_after)
    grouped_shape = axes_before + [groups, channels // groups] + axes_after

    def as_shape(dims):
        return array_ops.stack(dims) if any(ops.is_tensor(d) for d in dims) else dims

    inputs = array_ops.reshape(inputs, as_shape(grouped_shape))
    moments_axes = [channels_axis + 1] + [a + 1 if a > channels_axis else a for a in reduction_axes]
    with variable_scope(scope, "GroupNorm", [inputs], reuse=reuse) as sc:
        dtype = inputs.dtype.base_dtype
        param_initializers = param_initializers or {}
        beta = gamma = None
        if center:
            beta = model_variable("beta", shape=[channels], dtype=dtype,
                                  initializer=param_initializers.get("beta", init_ops.zeros_initializer()),
                                  collections=get_variable_collections(variables_collections, "beta"),
                                  trainable=trainable)
            beta = array_ops.reshape(beta, params_shape_broadcast)
        if scale:
            gamma = model_variable("gamma", shape=[channels], dtype=dtype,
                                   initializer=param_initializers.get("gamma", init_ops.ones_initializer()),
                                   collections=get_variable_collections(variables_collections, "gamma"),
                                   trainable=trainable)
            gamma = array_ops.reshape(gamma, params_shape_broadcast)
        if mean_close_to_zero:
            counts, means_ss, variance_ss, _ = nn.sufficient_statistics(inputs, moments_axes, keep_dims=True)
            mean, variance = nn.normalize_moments(counts, means_ss, variance_ss, shift=None)
        else:
            mean, variance = nn.moments(inputs, moments_axes, keep_dims=True)
        gain = math_ops.rsqrt(variance + epsilon)
        offset = -mean * gain
        if gamma is not None:
            gain = gain * gamma
            offset = offset * gamma
        if beta is not None:
            offset = offset + beta
        outputs = inputs * gain + offset
        outputs = array_ops.reshape(outputs, as_shape(input_shape_list))
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


def scale_gradient(inputs, gradient_multiplier):
    """Identity operation, but with the gradient multiplied by a tensor.

    The TensorFlow gradient system will compute the gradient with respect to `inputs` as the
    product of the gradient with respect to the `output` multiplied by a specified
    `gradient_multiplier` tensor. If `gradient_multiplier` is equal to 1, then this results in
    the true gradient. Otherwise, it results in a scaled gradient.

    Args:
      inputs: Tensor to be output.
      gradient_multiplier: Tensor by which to multiply the gradient with respect to `output` to
        compute the gradient with respect to `inputs`. Its shape must be broadcastable to the
        shape of `inputs`.

    Returns:
      output Tensor, equal to `inputs`.
    """
    from ..gradients.custom_gradient import custom_gradient
    from ..ops.core_ops import identity

    @custom_gradient
    def _scale_gradient(x, multiplier):
        def grad(dy):
            return dy * multiplier, None
        return identity(x), grad

    inputs = ops.convert_to_tensor(inputs)
    return _scale_gradient(inputs, ops.convert_to_tensor(gradient_multiplier, dtype=inputs.dtype))
