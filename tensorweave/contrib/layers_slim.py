"""The slim layers of `tf.contrib.layers` (= `tf.contrib.slim`), as TF 1.15's
`tensorflow/contrib/layers/python/layers/layers.py`.

Every layer opens a variable scope with TF's default name ("Conv", "BatchNorm", "SeparableConv2d",
...), creates its parameters with `model_variable` under TF's short names ("weights", "biases",
"beta", "gamma", "moving_mean", ...; also in MODEL_VARIABLES, and in `variables_collections`),
and adds its output to `outputs_collections` under the scope's name as alias, so TF1 checkpoints
restore and `convert_collection_to_dict` gives slim's end points.
"""

import collections as _collections
import weakref

from ..framework import dtypes, ops
from ..framework.tensor_shape import TensorShape
from ..ops import init_ops
from ..variable_scopes import get_variable_scope, variable_scope
from .framework import add_arg_scope, model_variable

__all__ = ["append_tensor_alias", "avg_pool2d", "batch_norm", "bias_add", "collect_named_outputs", "conv1d",
           "conv2d", "conv2d_transpose", "convert_collection_to_dict", "convolution", "convolution1d",
           "convolution2d", "convolution2d_transpose", "dropout", "get_tensor_aliases", "layer_norm", "max_pool2d",
           "one_hot_encoding", "repeat", "separable_conv2d", "separable_convolution2d", "softmax", "stack",
           "unit_norm"]

DATA_FORMAT_NCHW = "NCHW"
DATA_FORMAT_NHWC = "NHWC"
# spatial rank -> (channels-first data format, channels-last data format)
_DATA_FORMATS = {2: (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC), 3: ("NCDHW", "NDHWC")}


def _nn():
    from .. import nn
    return nn


def _relu(features, name=None):
    return _nn().relu(features, name=name)


def _xavier():
    from .layers import xavier_initializer
    return xavier_initializer()


# ---- utils (tf.contrib.layers.python.layers.utils) ----------------------------------------------------
_ALIASES = weakref.WeakKeyDictionary()


def append_tensor_alias(tensor, alias):
    """Appends `alias` (a trailing "/" dropped) to the aliases of `tensor` and returns `tensor`."""
    if alias and alias[-1] == "/":
        alias = alias[:-1]
    _ALIASES.setdefault(tensor, []).append(alias)
    return tensor


def get_tensor_aliases(tensor):
    """The aliases `collect_named_outputs` gave `tensor`, or its op name if none."""
    if tensor in _ALIASES:
        return list(_ALIASES[tensor])
    name = tensor.name
    return [name[:-2] if name.endswith(":0") else name]


def collect_named_outputs(collections, alias, outputs):
    """Adds `outputs` to `collections` with `alias` (when `collections` is given).

    Args:
      collections: A collection name or list of names, or None.
      alias: The alias (usually the layer's scope name).
      outputs: The tensor.

    Returns:
      `outputs`.
    """
    if collections:
        append_tensor_alias(outputs, alias)
        ops.add_to_collections(collections, outputs)
    return outputs


def convert_collection_to_dict(collection, clear_collection=False):
    """Returns an `OrderedDict` from each alias to its tensor for the tensors in `collection`.

    Args:
      collection: A collection name.
      clear_collection: When True, the collection is emptied afterwards.

    Returns:
      An `OrderedDict` of aliases to tensors.
    """
    output = _collections.OrderedDict((alias, tensor) for tensor in ops.get_collection(collection)
                                      for alias in get_tensor_aliases(tensor))
    if clear_collection:
        ops.get_default_graph().clear_collection(collection)
    return output


def get_variable_collections(variables_collections, name):
    """The collections for the variable `name`: `variables_collections[name]` for a dict, else
    `variables_collections` itself."""
    if isinstance(variables_collections, dict):
        return variables_collections.get(name, None)
    return variables_collections


def _n_tuple(value, n, what):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    try:
        values = tuple(int(v) for v in value)
    except TypeError as e:
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s" % (what, n, value)) from e
    if len(values) == 1 and n > 1:
        values = values * n
    if len(values) != n:
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s" % (what, n, value))
    return values


def two_element_tuple(int_or_tuple):
    """Converts `int_or_tuple` to (height, width).

    Raises:
      ValueError: If it is a list/tuple/TensorShape of length != 2, or not an int.
    """
    if isinstance(int_or_tuple, (list, tuple)):
        if len(int_or_tuple) != 2:
            raise ValueError("Must be a list with 2 elements: %s" % int_or_tuple)
        return int(int_or_tuple[0]), int(int_or_tuple[1])
    if isinstance(int_or_tuple, int):
        return int(int_or_tuple), int(int_or_tuple)
    if isinstance(int_or_tuple, TensorShape):
        if len(int_or_tuple) == 2:
            return int_or_tuple[0], int_or_tuple[1]
    raise ValueError("Must be an int, a list with 2 elements or a TensorShape of length 2")


def _check_padding(padding):
    upper = str(padding).upper()
    if upper not in ("SAME", "VALID"):
        raise ValueError("The `padding` argument must be a list/tuple or one of \"valid\", \"same\" (or "
                         "\"causal\", only for `Conv1D). Received: %s" % (padding,))
    return upper


def _channels(inputs, channels_first):
    shape = inputs.get_shape()
    dim = shape.dims[1 if channels_first else -1].value
    if dim is None:
        raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
    return dim


def _conv_data_format(rank, channels_first):
    return {3: ("NWC", "NCW"), 4: ("NHWC", "NCHW"), 5: ("NDHWC", "NCDHW")}[rank][int(channels_first)]


def _bias_and_normalize(outputs, num_outputs, dtype, channels_first, normalizer_fn, normalizer_params,
                        biases_initializer, biases_regularizer, variables_collections, trainable):
    if not normalizer_fn and biases_initializer is not None:
        biases = model_variable("biases", shape=[num_outputs], dtype=dtype, initializer=biases_initializer,
                                regularizer=biases_regularizer, trainable=trainable,
                                collections=get_variable_collections(variables_collections, "biases"))
        outputs = _bias_add_any_rank(outputs, biases, channels_first)
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    return outputs


def _bias_add_any_rank(outputs, biases, channels_first):
    nn = _nn()
    if not channels_first:
        return nn.bias_add(outputs, biases)
    rank = outputs.shape.ndims
    if rank == 4:
        return nn.bias_add(outputs, biases, data_format="NCHW")
    from ..ops import array_ops
    return outputs + array_ops.reshape(biases, [1, -1] + [1] * (rank - 2))


# ---- convolutions ---------------------------------------------------------------------------------------
@add_arg_scope
def convolution(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=None, rate=1,
                activation_fn=_relu, normalizer_fn=None, normalizer_params=None, weights_initializer=None,
                weights_regularizer=None, biases_initializer=init_ops.zeros_initializer(), biases_regularizer=None,
                reuse=None, variables_collections=None, outputs_collections=None, trainable=True, scope=None,
                conv_dims=None):
    """Adds an N-D convolution followed by an optional batch_norm layer.

    Creates "<scope>/weights" of shape `kernel_size + [in_channels, num_outputs]` and, unless a
    `normalizer_fn` is given or `biases_initializer` is None, "<scope>/biases" (scope "Conv" by
    default); computes `activation_fn(normalizer_fn(conv(inputs, weights) + biases))`. The input
    rank (3, 4 or 5) picks 1-D, 2-D or 3-D convolution.

    Args:
      inputs: A Tensor of rank N+2 of shape `[batch_size] + input_spatial_shape + [in_channels]`
        (or channels first when `data_format` starts with "NC").
      num_outputs: Integer, the number of output filters.
      kernel_size: A sequence of N positive integers, or one integer for all dimensions.
      stride: A sequence of N positive integers, or one integer for all dimensions.
      padding: One of `"VALID"` or `"SAME"`.
      data_format: None or one of "NWC", "NCW", "NHWC", "NCHW", "NDHWC", "NCDHW".
      rate: A sequence of N positive integers (or one integer) for atrous convolution; a rate > 1
        cannot be combined with a stride > 1.
      activation_fn: Activation function. The default value is a ReLU function. Set it to None to
        skip it and maintain a linear activation.
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
      conv_dims: Optional convolution dimensionality; when set the input rank must be
        `conv_dims + 2`.

    Returns:
      A tensor representing the output of the operation.

    Raises:
      ValueError: If `data_format` is invalid, or the input rank is not 3, 4 or 5 (or does not
        match `conv_dims`), or the channel dimension is unknown.
    """
    if data_format not in [None, "NWC", "NCW", "NHWC", "NCHW", "NDHWC", "NCDHW"]:
        raise ValueError("Invalid data_format: %r" % (data_format,))
    if weights_initializer is None:
        weights_initializer = _xavier()
    with variable_scope(scope, "Conv", [inputs], reuse=reuse) as sc:
        inputs = ops.convert_to_tensor(inputs)
        input_rank = inputs.get_shape().ndims
        if conv_dims is not None and conv_dims + 2 != input_rank:
            raise ValueError("Convolution expects input with rank %d, got %s" % (conv_dims + 2, input_rank))
        if input_rank not in (3, 4, 5):
            raise ValueError("Convolution not supported for input with rank", input_rank)
        n = input_rank - 2
        channels_first = bool(data_format and data_format.startswith("NC"))
        kernel = _n_tuple(kernel_size, n, "kernel_size")
        strides = _n_tuple(stride, n, "strides")
        rates = _n_tuple(rate, n, "dilation_rate")
        padding = _check_padding(padding)
        if any(s > 1 for s in strides) and any(r > 1 for r in rates):
            raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             "strides=%s and dilation_rate=%s" % (strides, rates))
        dtype = inputs.dtype.base_dtype
        num_in = _channels(inputs, channels_first)
        weights = model_variable("weights", shape=list(kernel) + [num_in, num_outputs], dtype=dtype,
                                 initializer=weights_initializer, regularizer=weights_regularizer,
                                 trainable=trainable,
                                 collections=get_variable_collections(variables_collections, "weights"))
        outputs = _nn().convolution(inputs, weights, padding=padding, strides=list(strides),
                                    dilation_rate=list(rates),
                                    data_format=_conv_data_format(input_rank, channels_first))
        outputs = _bias_and_normalize(outputs, num_outputs, dtype, channels_first, normalizer_fn, normalizer_params,
                                      biases_initializer, biases_regularizer, variables_collections, trainable)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


def _fixed_dims_conv(conv_dims, public_name):
    @add_arg_scope
    def conv(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=None, rate=1,
             activation_fn=_relu, normalizer_fn=None, normalizer_params=None, weights_initializer=None,
             weights_regularizer=None, biases_initializer=init_ops.zeros_initializer(), biases_regularizer=None,
             reuse=None, variables_collections=None, outputs_collections=None, trainable=True, scope=None):
        return convolution(inputs, num_outputs, kernel_size, stride=stride, padding=padding,
                           data_format=data_format, rate=rate, activation_fn=activation_fn,
                           normalizer_fn=normalizer_fn, normalizer_params=normalizer_params,
                           weights_initializer=weights_initializer, weights_regularizer=weights_regularizer,
                           biases_initializer=biases_initializer, biases_regularizer=biases_regularizer,
                           reuse=reuse, variables_collections=variables_collections,
                           outputs_collections=outputs_collections, trainable=trainable, scope=scope,
                           conv_dims=conv_dims)

    conv.__name__ = conv.__qualname__ = public_name
    conv.__doc__ = ("`convolution` for inputs of rank %d only (`conv_dims=%d`).\n\n    Args:\n      As "
                    "`convolution`.\n\n    Returns:\n      The output tensor.\n\n    Raises:\n      ValueError: "
                    "As `convolution`, and for an input of another rank.\n    " % (conv_dims + 2, conv_dims))
    return conv


convolution1d = _fixed_dims_conv(1, "convolution1d")
convolution2d = _fixed_dims_conv(2, "convolution2d")
conv1d = convolution1d
conv2d = convolution2d


def _conv_transpose(n, inputs, num_outputs, kernel_size, stride, padding, data_format, activation_fn, normalizer_fn,
                    normalizer_params, weights_initializer, weights_regularizer, biases_initializer, biases_regularizer,
                    reuse, variables_collections, outputs_collections, trainable, scope):
    """Shared body of the slim `convolution2d_transpose` / `convolution3d_transpose` (`n` spatial dims)."""
    from ..layers.convolutional import _deconv_output_length
    from ..ops import array_ops, core_ops
    first, last = _DATA_FORMATS[n]
    name = "Conv%dd_transpose" % n
    if weights_initializer is None:
        weights_initializer = _xavier()
    with variable_scope(scope, name, [inputs], reuse=reuse) as sc:
        if data_format not in (first, last):
            raise ValueError("data_format has to be either %s or %s." % (first, last))
        inputs = ops.convert_to_tensor(inputs)
        if inputs.get_shape().ndims != n + 2:
            raise ValueError("Input 0 of layer %s is incompatible with the layer: expected ndim=%d, "
                             "found ndim=%s" % (name, n + 2, inputs.get_shape().ndims))
        channels_first = data_format == first
        kernel = _n_tuple(kernel_size, n, "kernel_size")
        strides = _n_tuple(stride, n, "strides")
        padding = _check_padding(padding)
        dtype = inputs.dtype.base_dtype
        num_in = _channels(inputs, channels_first)
        weights = model_variable("weights", shape=list(kernel) + [num_outputs, num_in], dtype=dtype,
                                 initializer=weights_initializer, regularizer=weights_regularizer,
                                 trainable=trainable,
                                 collections=get_variable_collections(variables_collections, "weights"))
        static = inputs.shape.as_list()
        dynamic = core_ops.shape(inputs)
        axes = range(2, n + 2) if channels_first else range(1, n + 1)
        sizes, static_sizes = [], []
        for axis, k, s in zip(axes, kernel, strides):
            size = static[axis] if static[axis] is not None else dynamic[axis]
            sizes.append(_deconv_output_length(size, k, padding.lower(), s))
            static_sizes.append(_deconv_output_length(static[axis], k, padding.lower(), s))
        batch = static[0] if static[0] is not None else dynamic[0]
        out_shape = [batch, num_outputs] + sizes if channels_first else [batch] + sizes + [num_outputs]
        if not all(isinstance(d, int) for d in out_shape):
            out_shape = array_ops.stack(out_shape)
        st = [1, 1] + list(strides) if channels_first else [1] + list(strides) + [1]
        outputs = getattr(_nn(), "conv%dd_transpose" % n)(inputs, weights, out_shape, strides=st, padding=padding,
                                                           data_format=data_format)
        outputs.set_shape([static[0], num_outputs] + static_sizes if channels_first
                          else [static[0]] + static_sizes + [num_outputs])
        outputs = _bias_and_normalize(outputs, num_outputs, dtype, channels_first, normalizer_fn, normalizer_params,
                                      biases_initializer, biases_regularizer, variables_collections, trainable)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def convolution2d_transpose(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=DATA_FORMAT_NHWC,
                            activation_fn=_relu, normalizer_fn=None, normalizer_params=None, weights_initializer=None,
                            weights_regularizer=None, biases_initializer=init_ops.zeros_initializer(),
                            biases_regularizer=None, reuse=None, variables_collections=None, outputs_collections=None,
                            trainable=True, scope=None):
    """Adds a convolution2d_transpose ("deconvolution") with an optional batch normalization layer.

    "<scope>/weights" has shape `[kh, kw, num_outputs, in_channels]` (scope "Conv2d_transpose");
    the output spatial size is `in * stride` ("SAME") or `in * stride + max(k - stride, 0)`
    ("VALID").

    Args:
      inputs: A 4-D `Tensor` of type `float` and shape `[batch, height, width, in_channels]` for
        `NHWC` data format or `[batch, in_channels, height, width]` for `NCHW` data format.
      num_outputs: Integer, the number of output filters.
      kernel_size: A list of length 2 holding the [kernel_height, kernel_width] of the filters.
        Can be an int if both values are the same.
      stride: A list of length 2: [stride_height, stride_width]. Can be an int if both strides are
        the same.
      padding: One of 'VALID' or 'SAME'.
      data_format: A string. `NHWC` (default) and `NCHW` are supported.
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
      ValueError: If 'kernel_size' is not a list of length 2, or `data_format` is neither `NHWC`
        nor `NCHW`, or `C` of `inputs` is None.
    """
    return _conv_transpose(2, inputs, num_outputs, kernel_size, stride, padding, data_format, activation_fn,
                           normalizer_fn, normalizer_params, weights_initializer, weights_regularizer,
                           biases_initializer, biases_regularizer, reuse, variables_collections, outputs_collections,
                           trainable, scope)


conv2d_transpose = convolution2d_transpose


@add_arg_scope
def separable_convolution2d(inputs, num_outputs, kernel_size, depth_multiplier=1, stride=1, padding="SAME",
                            data_format=DATA_FORMAT_NHWC, rate=1, activation_fn=_relu, normalizer_fn=None,
                            normalizer_params=None, weights_initializer=None, pointwise_initializer=None,
                            weights_regularizer=None, biases_initializer=init_ops.zeros_initializer(),
                            biases_regularizer=None, reuse=None, variables_collections=None, outputs_collections=None,
                            trainable=True, scope=None):
    """Adds a depth-separable 2D convolution with optional batch_norm layer.

    A depthwise convolution with "<scope>/depthwise_weights" `[kh, kw, in_channels,
    depth_multiplier]` followed, when `num_outputs` is not None, by a pointwise 1x1 convolution
    with "<scope>/pointwise_weights" `[1, 1, in_channels * depth_multiplier, num_outputs]`
    (scope "SeparableConv2d"), then biases (or the normalizer) and the activation. With
    `num_outputs=None` only the depthwise convolution is applied.

    Args:
      inputs: A tensor of size [batch_size, height, width, channels].
      num_outputs: The number of pointwise convolution output filters. If is None, then we skip
        the pointwise convolution stage.
      kernel_size: A list of length 2: [kernel_height, kernel_width] of the filters. Can be an int
        if both values are the same.
      depth_multiplier: The number of depthwise convolution output channels for each input channel.
      stride: A list of length 2: [stride_height, stride_width], specifying the depthwise
        convolution stride. Can be an int if both strides are the same.
      padding: One of 'VALID' or 'SAME'.
      data_format: A string. `NHWC` (default) and `NCHW` are supported.
      rate: A list of length 2: [rate_height, rate_width], specifying the dilation rates for atrous
        convolution. Can be an int if both rates are the same. If any value is larger than one,
        then both stride values need to be one.
      activation_fn: Activation function. The default value is a ReLU function.
      normalizer_fn: Normalization function to use instead of `biases`.
      normalizer_params: Normalization function parameters.
      weights_initializer: An initializer for the depthwise weights (default `xavier_initializer()`).
      pointwise_initializer: An initializer for the pointwise weights (default
        `weights_initializer`).
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
      A `Tensor` representing the output of the operation.

    Raises:
      ValueError: If `data_format` is invalid, or the channel dimension is unknown.
    """
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    if weights_initializer is None:
        weights_initializer = _xavier()
    if pointwise_initializer is None:
        pointwise_initializer = weights_initializer
    nn = _nn()
    with variable_scope(scope, "SeparableConv2d", [inputs], reuse=reuse) as sc:
        inputs = ops.convert_to_tensor(inputs)
        if inputs.get_shape().ndims != 4:
            raise ValueError("Inputs should have rank 4. Received input shape: %s" % (inputs.get_shape(),))
        channels_first = data_format == DATA_FORMAT_NCHW
        kh, kw = two_element_tuple(kernel_size)
        sh, sw = two_element_tuple(stride)
        rates = list(two_element_tuple(rate))
        padding = _check_padding(padding)
        dtype = inputs.dtype.base_dtype
        num_in = _channels(inputs, channels_first)
        weights_collections = get_variable_collections(variables_collections, "weights")
        depthwise_weights = model_variable("depthwise_weights", shape=[kh, kw, num_in, depth_multiplier], dtype=dtype,
                                           initializer=weights_initializer, regularizer=weights_regularizer,
                                           trainable=trainable, collections=weights_collections)
        strides = [1, 1, sh, sw] if channels_first else [1, sh, sw, 1]
        if num_outputs is not None:
            pointwise_weights = model_variable("pointwise_weights", shape=[1, 1, num_in * depth_multiplier,
                                                                           num_outputs],
                                               dtype=dtype, initializer=pointwise_initializer,
                                               regularizer=weights_regularizer, trainable=trainable,
                                               collections=weights_collections)
            outputs = nn.separable_conv2d(inputs, depthwise_weights, pointwise_weights, strides=strides,
                                          padding=padding, rate=rates, data_format=data_format)
        else:
            outputs = nn.depthwise_conv2d(inputs, depthwise_weights, strides, padding, rate=rates,
                                          data_format=data_format)
            num_outputs = depth_multiplier * num_in
        outputs = _bias_and_normalize(outputs, num_outputs, dtype, channels_first, normalizer_fn, normalizer_params,
                                      biases_initializer, biases_regularizer, variables_collections, trainable)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


separable_conv2d = separable_convolution2d


# ---- pooling --------------------------------------------------------------------------------------------
# rank -> ((channels-first format, channels-last format), (max pool fn name, avg pool fn name))
_POOL_SPECS = {2: (_DATA_FORMATS[2], ("max_pool", "avg_pool")),
               3: (_DATA_FORMATS[3], ("max_pool3d", "avg_pool3d"))}


def _pool_nd(n, kind, default_name, inputs, kernel_size, stride, padding, data_format, outputs_collections, scope):
    """Shared body of the slim `max_pool2d` / `avg_pool2d` / `max_pool3d` / `avg_pool3d` (`n` spatial dims)."""
    (first, last), (max_name, avg_name) = _POOL_SPECS[n]
    if data_format not in (first, last):
        raise ValueError("data_format has to be either %s or %s." % (first, last))
    nn = _nn()
    with ops.name_scope(scope, default_name, [inputs]) as sc:
        inputs = ops.convert_to_tensor(inputs)
        if inputs.get_shape().ndims != n + 2:
            raise ValueError("Input 0 of layer %s is incompatible with the layer: expected ndim=%d, found ndim=%s"
                             % (default_name, n + 2, inputs.get_shape().ndims))
        k = list(_n_tuple(kernel_size, n, "pool_size"))
        s = list(_n_tuple(stride, n, "strides"))
        padding = _check_padding(padding)
        if data_format == first:
            ksize, strides = [1, 1] + k, [1, 1] + s
        else:
            ksize, strides = [1] + k + [1], [1] + s + [1]
        fn = getattr(nn, max_name if kind == "max" else avg_name)
        outputs = fn(inputs, ksize, strides, padding, data_format=data_format)
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def max_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format=DATA_FORMAT_NHWC, outputs_collections=None,
               scope=None):
    """Adds a 2D Max Pooling op (per image, not across batch or channels).

    Args:
      inputs: A 4-D tensor of shape `[batch_size, height, width, channels]` if `data_format` is
        `NHWC`, and `[batch_size, channels, height, width]` if `data_format` is `NCHW`.
      kernel_size: A list of length 2: [kernel_height, kernel_width] of the pooling kernel over
        which the op is computed. Can be an int if both values are the same.
      stride: A list of length 2: [stride_height, stride_width]. Can be an int if both strides are
        the same.
      padding: The padding method, either 'VALID' or 'SAME'.
      data_format: A string. `NHWC` (default) and `NCHW` are supported.
      outputs_collections: The collections to which the outputs are added.
      scope: Optional scope for name_scope.

    Returns:
      A `Tensor` representing the results of the pooling operation.

    Raises:
      ValueError: If `data_format` is neither `NHWC` nor `NCHW`, or the input is not 4-D.
    """
    return _pool_nd(2, "max", "MaxPool2D", inputs, kernel_size, stride, padding, data_format,
                    outputs_collections, scope)


@add_arg_scope
def avg_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format=DATA_FORMAT_NHWC, outputs_collections=None,
               scope=None):
    """Adds a 2D average pooling op (per image, not across batch or channels).

    Args:
      inputs: A 4-D tensor of shape `[batch_size, height, width, channels]` if `data_format` is
        `NHWC`, and `[batch_size, channels, height, width]` if `data_format` is `NCHW`.
      kernel_size: A list of length 2: [kernel_height, kernel_width] of the pooling kernel over
        which the op is computed. Can be an int if both values are the same.
      stride: A list of length 2: [stride_height, stride_width]. Can be an int if both strides are
        the same.
      padding: The padding method, either 'VALID' or 'SAME'.
      data_format: A string. `NHWC` (default) and `NCHW` are supported.
      outputs_collections: The collections to which the outputs are added.
      scope: Optional scope for name_scope.

    Returns:
      A `Tensor` representing the results of the pooling operation.

    Raises:
      ValueError: If `data_format` is neither `NHWC` nor `NCHW`, or the input is not 4-D.
    """
    return _pool_nd(2, "avg", "AvgPool2D", inputs, kernel_size, stride, padding, data_format,
                    outputs_collections, scope)


# ---- normalization --------------------------------------------------------------------------------------
def _constant_bool(pred):
    from ..layers.utils import constant_value
    return constant_value(pred)


def _smart_cond(pred, true_fn, false_fn):
    from ..layers.utils import smart_cond
    return smart_cond(pred, true_fn, false_fn)


@add_arg_scope
def batch_norm(inputs, decay=0.999, center=True, scale=False, epsilon=0.001, activation_fn=None,
               param_initializers=None, param_regularizers=None, updates_collections=ops.GraphKeys.UPDATE_OPS,
               is_training=True, reuse=None, variables_collections=None, outputs_collections=None, trainable=True,
               batch_weights=None, fused=None, data_format=DATA_FORMAT_NHWC, zero_debias_moving_mean=False,
               scope=None, renorm=False, renorm_clipping=None, renorm_decay=0.99, adjustment=None):
    """Adds a Batch Normalization layer (Ioffe & Szegedy, 2015).

    Normalizes `inputs` over all axes but the channel one with the batch's mean and variance when
    training (`is_training`, a Python bool or a boolean tensor), else with "<scope>/moving_mean"
    and "<scope>/moving_variance" (scope "BatchNorm"); then scales by "gamma" (if `scale`) and
    shifts by "beta" (if `center`). When training, the moving averages are updated
    (`moving = decay * moving + (1 - decay) * batch`) by ops added to `updates_collections`
    (run them with the train op), or, with `updates_collections=None`, in place before the output
    is computed. As in TF, the fused implementation (the default for rank 2 and 4 inputs) updates
    `moving_variance` with the unbiased (n/(n-1)) batch variance, the other one with the biased
    variance; both normalize with the biased one.

    Args:
      inputs: A tensor with 2 or more dimensions, where the first dimension has `batch_size`.
      decay: Decay for the moving average.
      center: If True, add offset of `beta` to normalized tensor. If False, `beta` is ignored.
      scale: If True, multiply by `gamma`. If False, `gamma` is not used.
      epsilon: Small float added to variance to avoid dividing by zero.
      activation_fn: Activation function, default set to None to skip it and maintain a linear
        activation.
      param_initializers: Optional initializers for beta, gamma, moving mean and moving variance.
      param_regularizers: Optional regularizer for beta and gamma.
      updates_collections: Collections to collect the update ops for computation. If None, a
        control dependency is added to force the updates in place.
      is_training: Whether or not the layer is in training mode (a Python bool or a scalar
        boolean tensor).
      reuse: Whether or not the layer and its variables should be reused.
      variables_collections: Optional collections for the variables.
      outputs_collections: Collections to add the outputs.
      trainable: If `True` also add variables to the graph collection TRAINABLE_VARIABLES.
      batch_weights: An optional tensor of shape `[batch_size]`, containing a frequency weight for
        each batch item (uses weighted moments; not with the fused implementation).
      fused: if `None` or `True`, use a faster, fused implementation if possible.
      data_format: A string. `NHWC` (default) and `NCHW` are supported.
      zero_debias_moving_mean: Only False is supported.
      scope: Optional scope for `variable_scope`.
      renorm: Only False is supported.
      renorm_clipping: Only with `renorm` (not supported).
      renorm_decay: Only with `renorm` (not supported).
      adjustment: Only None is supported.

    Returns:
      A `Tensor` representing the output of the operation.

    Raises:
      ValueError: If `data_format` is neither `NHWC` nor `NCHW`, the rank of `inputs` is
        undefined, or the channel dimension is not defined.
      NotImplementedError: For `zero_debias_moving_mean=True`, `renorm=True` or an `adjustment`.
    """
    from ..ops import array_ops, core_ops
    from ..train import moving_averages
    nn = _nn()
    if zero_debias_moving_mean:
        raise NotImplementedError("batch_norm: zero_debias_moving_mean=True is not supported by tensorweave.")
    if renorm:
        raise NotImplementedError("batch_norm: renorm=True is not supported by tensorweave.")
    if adjustment is not None:
        raise NotImplementedError("batch_norm: adjustment is not supported by tensorweave.")
    if fused is None:
        fused = True
    inputs = ops.convert_to_tensor(inputs)
    rank = inputs.get_shape().ndims
    # the fused kernel (rank 2 or 4) updates moving_variance with the unbiased batch variance
    use_fused = bool(fused) and batch_weights is None and rank in (2, 4)
    # TF's own fused implementation serves rank 2 and custom updates collections; otherwise, with
    # UPDATE_OPS, TF uses the Keras layer, which creates gamma before beta
    fused_fn = use_fused and (rank == 2 or updates_collections is not ops.GraphKeys.UPDATE_OPS)
    use_layer = not fused_fn and batch_weights is None and updates_collections is ops.GraphKeys.UPDATE_OPS
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with variable_scope(scope, "BatchNorm", [inputs], reuse=reuse) as sc:
        if rank is None:
            raise ValueError("Inputs %s has undefined rank." % inputs.name)
        inputs_shape = inputs.get_shape()
        if data_format == DATA_FORMAT_NCHW:
            moments_axes = [0] + list(range(2, rank))
            params_shape = inputs_shape[1:2]
            broadcast = [1, inputs_shape.dims[1].value] + [1] * (rank - 2)
        else:
            moments_axes = list(range(rank - 1))
            params_shape = inputs_shape[-1:]
            broadcast = None
        if not params_shape.is_fully_defined():
            raise ValueError("Inputs %s has undefined channels dimension %s." % (inputs.name, params_shape))
        param_initializers = param_initializers or {}
        param_regularizers = param_regularizers or {}
        dtype = dtypes.float32 if use_fused else inputs.dtype.base_dtype

        def make(name, default_init, is_trainable, regularizer=None):
            return model_variable(name, shape=params_shape, dtype=dtype,
                                  initializer=param_initializers.get(name, default_init), regularizer=regularizer,
                                  trainable=is_trainable,
                                  collections=get_variable_collections(variables_collections, name))

        beta = gamma = None
        # the Keras-layer implementation creates gamma before beta, the others beta first
        order = ("gamma", "beta") if use_layer else ("beta", "gamma")
        for name in order:
            if name == "beta" and center:
                beta = make("beta", init_ops.zeros_initializer(), trainable, param_regularizers.get("beta"))
            if name == "gamma" and scale:
                gamma = make("gamma", init_ops.ones_initializer(), trainable, param_regularizers.get("gamma"))
        with variable_scope(get_variable_scope()) as local_scope:
            local_scope.set_partitioner(None)
            moving_mean = make("moving_mean", init_ops.zeros_initializer(), False)
            moving_variance = make("moving_variance", init_ops.ones_initializer(), False)

        x = inputs
        if x.dtype.base_dtype != dtype:
            from ..ops import math_ops
            x = math_ops.cast(x, dtype)

        def batch_moments():
            if batch_weights is not None:
                weights = ops.convert_to_tensor(batch_weights)
                inputs_shape[0:1].assert_is_compatible_with(weights.get_shape())
                weights = array_ops.reshape(weights, [-1] + [1] * (rank - 1))
                mean, variance = nn.weighted_moments(x, moments_axes, weights, keepdims=True)
            else:
                mean, variance = nn.moments(x, moments_axes, keep_dims=True)
            mean = array_ops.reshape(mean, [-1])
            variance = array_ops.reshape(variance, [-1])
            return mean, variance

        def update_variance(variance):
            if not use_fused:
                return variance
            from ..ops import math_ops
            n = math_ops.cast(math_ops.reduce_prod(array_ops.gather(array_ops.shape(x), moments_axes)), dtype)
            return variance * n / math_ops.maximum(n - 1.0, 1.0)

        is_training_value = _constant_bool(is_training)
        need_moments = is_training_value is None or is_training_value
        if need_moments:
            mean, variance = batch_moments()
            moving_vars_fn = lambda: (moving_mean, moving_variance)  # noqa: E731

            def _do_updates():
                up_mean = moving_averages.assign_moving_average(moving_mean, mean, decay, zero_debias=False)
                up_var = moving_averages.assign_moving_average(moving_variance, update_variance(variance), decay,
                                                               zero_debias=False)
                return up_mean, up_var

            if updates_collections is None:
                def _force_updates():
                    up_mean, up_var = _do_updates()
                    with ops.control_dependencies([up_mean, up_var]):
                        return core_ops.identity(mean), core_ops.identity(variance)

                mean, variance = _smart_cond(is_training, _force_updates, moving_vars_fn)
            else:
                update_mean, update_var = _smart_cond(is_training, _do_updates, moving_vars_fn)
                ops.add_to_collections(updates_collections, update_mean)
                ops.add_to_collections(updates_collections, update_var)
                mean, variance = _smart_cond(is_training, lambda: (mean, variance), moving_vars_fn)
        else:
            mean, variance = moving_mean, moving_variance
        b, g = beta, gamma
        if broadcast is not None:
            mean = array_ops.reshape(mean, broadcast)
            variance = array_ops.reshape(variance, broadcast)
            b = None if b is None else array_ops.reshape(b, broadcast)
            g = None if g is None else array_ops.reshape(g, broadcast)
        outputs = nn.batch_normalization(x, mean, variance, b, g, epsilon)
        if outputs.dtype.base_dtype != inputs.dtype.base_dtype:
            from ..ops import math_ops
            outputs = math_ops.cast(outputs, inputs.dtype.base_dtype)
        outputs.set_shape(inputs_shape)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def layer_norm(inputs, center=True, scale=True, activation_fn=None, reuse=None, variables_collections=None,
               outputs_collections=None, trainable=True, begin_norm_axis=1, begin_params_axis=-1, scope=None):
    """Adds a Layer Normalization layer (Ba et al., 2016).

    Normalizes over the axes `begin_norm_axis ... R - 1` with variance epsilon 1e-12 (1e-3 for
    float16) and applies "<scope>/beta" and "<scope>/gamma" (scope "LayerNorm") of shape
    `inputs.shape[begin_params_axis:]`.

    Args:
      inputs: A tensor having rank `R`. The normalization is performed over axes
        `begin_norm_axis ... R - 1` and centering and scaling parameters are calculated over
        `begin_params_axis ... R - 1`.
      center: If True, add offset of `beta` to normalized tensor. If False, `beta` is ignored.
      scale: If True, multiply by `gamma`. If False, `gamma` is not used.
      activation_fn: Activation function, default set to None to skip it and maintain a linear
        activation.
      reuse: Whether or not the layer and its variables should be reused.
      variables_collections: Optional collections for the variables.
      outputs_collections: Collections to add the outputs.
      trainable: If `True` also add variables to the graph collection TRAINABLE_VARIABLES.
      begin_norm_axis: The first normalization dimension: normalization will be performed along
        dimensions `begin_norm_axis : rank(inputs)`.
      begin_params_axis: The first parameter (beta, gamma) dimension: scale and centering
        parameters will have dimensions `begin_params_axis : rank(inputs)`.
      scope: Optional scope for `variable_scope`.

    Returns:
      A `Tensor` representing the output of the operation, having the same shape and dtype as
      `inputs`.

    Raises:
      ValueError: If the rank of `inputs` is not known at graph build time, or if
        `inputs.shape[begin_params_axis:]` is not fully defined at graph build time.
    """
    nn = _nn()
    with variable_scope(scope, "LayerNorm", [inputs], reuse=reuse) as sc:
        inputs = ops.convert_to_tensor(inputs)
        inputs_shape = inputs.shape
        inputs_rank = inputs_shape.ndims
        if inputs_rank is None:
            raise ValueError("Inputs %s has undefined rank." % inputs.name)
        dtype = inputs.dtype.base_dtype
        if begin_norm_axis < 0:
            begin_norm_axis = inputs_rank + begin_norm_axis
        if begin_params_axis >= inputs_rank or begin_norm_axis >= inputs_rank:
            raise ValueError("begin_params_axis (%d) and begin_norm_axis (%d) must be < rank(inputs) (%d)"
                             % (begin_params_axis, begin_norm_axis, inputs_rank))
        params_shape = inputs_shape[begin_params_axis:]
        if not params_shape.is_fully_defined():
            raise ValueError("Inputs %s: shape(inputs)[%s:] is not fully defined: %s"
                             % (inputs.name, begin_params_axis, inputs_shape))
        beta = gamma = None
        if center:
            beta = model_variable("beta", shape=params_shape, dtype=dtype, initializer=init_ops.zeros_initializer(),
                                  collections=get_variable_collections(variables_collections, "beta"),
                                  trainable=trainable)
        if scale:
            gamma = model_variable("gamma", shape=params_shape, dtype=dtype, initializer=init_ops.ones_initializer(),
                                   collections=get_variable_collections(variables_collections, "gamma"),
                                   trainable=trainable)
        norm_axes = list(range(begin_norm_axis, inputs_rank))
        mean, variance = nn.moments(inputs, norm_axes, keep_dims=True)
        variance_epsilon = 1e-12 if dtype != dtypes.float16 else 1e-3
        outputs = nn.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma,
                                         variance_epsilon=variance_epsilon)
        outputs.set_shape(inputs_shape)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def bias_add(inputs, activation_fn=None, initializer=init_ops.zeros_initializer(), regularizer=None, reuse=None,
             variables_collections=None, outputs_collections=None, trainable=True, data_format=DATA_FORMAT_NHWC,
             scope=None):
    """Adds a bias "<scope>/biases" (scope "BiasAdd") to the inputs, then an optional activation.

    Args:
      inputs: A tensor of with at least rank 2 and value for the last dimension, e.g.
        `[batch_size, depth]`, `[None, None, None, depth]`.
      activation_fn: Activation function, default set to None to skip it and maintain a linear
        activation.
      initializer: An initializer for the bias, defaults to 0.
      regularizer: A regularizer like the result of `l1_regularizer` or `l2_regularizer`.
      reuse: Whether or not the layer and its variables should be reused.
      variables_collections: Optional collections for the variables.
      outputs_collections: Collections to add the outputs.
      trainable: If `True` also add variables to the graph collection TRAINABLE_VARIABLES.
      data_format: A string. 'NHWC' and 'NCHW' are supported.
      scope: Optional scope for variable_scope.

    Returns:
      A tensor representing the result of adding biases to the inputs.

    Raises:
      ValueError: If `data_format` is neither `NHWC` nor `NCHW`, or `NCHW` with a non-4-D input,
        or the rank or `C` dimension of `inputs` is unknown.
    """
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with variable_scope(scope, "BiasAdd", [inputs], reuse=reuse) as sc:
        inputs = ops.convert_to_tensor(inputs)
        dtype = inputs.dtype.base_dtype
        inputs_shape = inputs.get_shape()
        inputs_rank = inputs_shape.ndims
        if inputs_rank is None:
            raise ValueError("Dims of shape must be known but is None")
        if inputs_rank != 4 and data_format == DATA_FORMAT_NCHW:
            raise ValueError("Data format NCHW only supports 4D Tensor")
        axis = 1 if data_format == DATA_FORMAT_NCHW else -1
        num_features = inputs_shape.dims[axis].value
        if num_features is None:
            raise ValueError("`C` dimension must be known but is None")
        biases = model_variable("biases", shape=[num_features], dtype=dtype, initializer=initializer,
                                regularizer=regularizer,
                                collections=get_variable_collections(variables_collections, "biases"),
                                trainable=trainable)
        outputs = _nn().bias_add(inputs, biases, data_format=data_format)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


# ---- misc -----------------------------------------------------------------------------------------------
@add_arg_scope
def dropout(inputs, keep_prob=0.5, noise_shape=None, is_training=True, outputs_collections=None, scope=None,
            seed=None):
    """Returns a dropout op applied to the input (only when `is_training`).

    With probability `keep_prob`, outputs the input element scaled up by `1 / keep_prob`,
    otherwise outputs `0`; when not training, the input unchanged.

    Args:
      inputs: The tensor to pass to the nn.dropout op.
      keep_prob: A scalar `Tensor` with the same type as x. The probability that each element is
        kept.
      noise_shape: A 1-D `Tensor` of type `int32`, representing the shape for randomly generated
        keep/drop flags.
      is_training: A bool `Tensor` indicating whether or not the model is in training mode. If so,
        dropout is applied and values scaled. Otherwise, inputs is returned.
      outputs_collections: Collection to add the outputs.
      scope: Optional scope for name_scope.
      seed: A Python integer. Used to create random seeds.

    Returns:
      A tensor representing the output of the operation.
    """
    from ..ops import core_ops
    nn = _nn()
    with variable_scope(scope, "Dropout", [inputs]) as sc:
        inputs = ops.convert_to_tensor(inputs)
        outputs = _smart_cond(is_training,
                              lambda: nn.dropout(inputs, rate=1 - keep_prob, noise_shape=noise_shape, seed=seed),
                              lambda: core_ops.identity(inputs))
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def one_hot_encoding(labels, num_classes, on_value=1.0, off_value=0.0, outputs_collections=None, scope=None):
    """Transform numeric labels into onehot_labels using `tf.one_hot`.

    Args:
      labels: [batch_size] target labels.
      num_classes: Total number of classes.
      on_value: A scalar defining the on-value.
      off_value: A scalar defining the off-value.
      outputs_collections: Collection to add the outputs.
      scope: Optional scope for name_scope.

    Returns:
      One-hot encoding of the labels.
    """
    from ..ops import array_ops, math_ops
    with ops.name_scope(scope, "OneHotEncoding", [labels, num_classes]) as sc:
        labels = ops.convert_to_tensor(labels)
        if labels.dtype == dtypes.int32:
            labels = math_ops.cast(labels, dtypes.int64)
        outputs = array_ops.one_hot(labels, num_classes, on_value=on_value, off_value=off_value)
        return collect_named_outputs(outputs_collections, sc, outputs)


def _layer_scope_name(layer, default):
    if hasattr(layer, "__name__"):
        return layer.__name__
    if hasattr(layer, "func") and hasattr(layer.func, "__name__"):
        return layer.func.__name__
    return default


def repeat(inputs, repetitions, layer, *args, **kwargs):
    """Applies the same layer with the same arguments repeatedly, in scopes "<scope>_1",
    "<scope>_2", ... inside the variable scope `scope` (default "Repeat"; the inner prefix is the
    layer's function name when `scope` is not given).

    Example: `y = repeat(x, 3, conv2d, 64, [3, 3], scope='conv1')`.

    Args:
      inputs: A `Tensor` suitable for layer.
      repetitions: Int, number of repetitions.
      layer: A layer with arguments `(inputs, *args, **kwargs)`.
      *args: Extra args for the layer.
      **kwargs: Extra kwargs for the layer (`scope` included).

    Returns:
      A tensor result of applying the layer, repetitions times.

    Raises:
      ValueError: If the op is unknown or wrong.
    """
    scope = kwargs.pop("scope", None)
    with variable_scope(scope, "Repeat", [inputs]):
        inputs = ops.convert_to_tensor(inputs)
        if scope is None:
            scope = _layer_scope_name(layer, "repeat")
        outputs = inputs
        for i in range(repetitions):
            kwargs["scope"] = scope + "_" + str(i + 1)
            outputs = layer(outputs, *args, **kwargs)
        return outputs


def stack(inputs, layer, stack_args, **kwargs):
    """Builds a stack of layers by applying `layer` repeatedly using `stack_args`, in scopes
    "<scope>_1", "<scope>_2", ... inside the variable scope `scope` (default "Stack").

    Example: `y = stack(x, fully_connected, [32, 64, 128], scope='fc')`.

    Args:
      inputs: A `Tensor` suitable for layer.
      layer: A layer with arguments `(inputs, *args, **kwargs)`.
      stack_args: A list/tuple of parameters for each call of layer.
      **kwargs: Extra kwargs for the layer (`scope` included).

    Returns:
      A `Tensor` result of applying the stacked layers.

    Raises:
      ValueError: If `stack_args` is not a list or tuple.
    """
    scope = kwargs.pop("scope", None)
    if not isinstance(stack_args, (list, tuple)):
        raise ValueError("stack_args need to be a list or tuple")
    with variable_scope(scope, "Stack", [inputs]):
        inputs = ops.convert_to_tensor(inputs)
        if scope is None:
            scope = _layer_scope_name(layer, "stack")
        outputs = inputs
        for i, layer_args in enumerate(stack_args):
            kwargs["scope"] = scope + "_" + str(i + 1)
            if not isinstance(layer_args, (list, tuple)):
                layer_args = [layer_args]
            outputs = layer(outputs, *layer_args, **kwargs)
        return outputs


@add_arg_scope
def unit_norm(inputs, dim, epsilon=1e-7, scope=None):
    """Normalizes the given input across the specified dimension to unit length:
    `inputs / sqrt(epsilon + sum(inputs**2, dim))`.

    Args:
      inputs: A `Tensor` of arbitrary size.
      dim: The dimension along which the input is normalized.
      epsilon: A small value to add to the inputs to avoid dividing by zero.
      scope: Optional scope for variable_scope.

    Returns:
      The normalized `Tensor`.

    Raises:
      ValueError: If dim is smaller than the number of dimensions in 'inputs'.
    """
    from ..ops import math_ops
    with variable_scope(scope, "UnitNorm", [inputs]):
        inputs = ops.convert_to_tensor(inputs)
        if inputs.get_shape().ndims is None:
            raise ValueError("The input rank must be known.")
        input_rank = inputs.get_shape().ndims
        if dim < 0 or dim >= input_rank:
            raise ValueError("dim must be positive but smaller than the input rank.")
        lengths = math_ops.sqrt(epsilon + math_ops.reduce_sum(math_ops.square(inputs), dim, keepdims=True))
        return math_ops.divide(inputs, lengths)


@add_arg_scope
def softmax(logits, scope=None):
    """Performs softmax on the last dimension of an N-dimensional logits tensor (N >= 2).

    Args:
      logits: N-dimensional `Tensor` with logits, where N > 1.
      scope: Optional scope for variable_scope.

    Returns:
      A `Tensor` with same shape and type as logits.

    Raises:
      ValueError: If the rank of `logits` is unknown or below 2, or its last dimension unknown.
    """
    from ..ops import array_ops
    with variable_scope(scope, "softmax", [logits]):
        logits = ops.convert_to_tensor(logits)
        shape = logits.get_shape()
        if shape.ndims is None or shape.ndims < 2:
            raise ValueError("Incompatible shape: %s; rank must be at least 2" % (shape,))
        num_logits = shape.dims[-1].value
        if num_logits is None:
            raise ValueError("Last dimension must be known %s" % (shape,))
        logits_2d = array_ops.reshape(logits, [-1, num_logits])
        predictions = _nn().softmax(logits_2d)
        predictions = array_ops.reshape(predictions, array_ops.shape(logits))
        predictions.set_shape(shape)
        return predictions
