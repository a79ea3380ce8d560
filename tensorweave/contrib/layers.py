"""`tf.contrib.layers`: regularizers, initializers and the slim-style `fully_connected`/`flatten`.

`fully_connected` is TF1's: a `tf.layers.Dense` whose variables are renamed "weights"/"biases"
and also put in `GraphKeys.MODEL_VARIABLES`, followed by an optional normalizer and activation
(ReLU by default).
"""

import functools
import math
import numbers

from ..framework import dtypes, ops
from ..ops import init_ops, nn_ops
from ..variable_scopes import variable_scope
from .framework import add_arg_scope


# ---- regularizers ----------------------------------------------------------------------------
def _check_scale(scale, integer_message, negative_message):
    if isinstance(scale, numbers.Integral):
        raise ValueError(integer_message % (scale,))
    if isinstance(scale, numbers.Real):
        if scale < 0.:
            raise ValueError(negative_message % scale)
        if scale == 0.:
            return True
    return False


def l1_regularizer(scale, scope=None):
    """Returns a function that can be used to apply L1 regularization `scale * sum(|weights|)`.

    Args:
      scale: A scalar multiplier `Tensor`. 0.0 disables the regularizer.
      scope: An optional scope name.

    Returns:
      A function with signature `l1(weights)` that applies L1 regularization.

    Raises:
      ValueError: If scale is negative or if scale is not a float.
    """
    from ..ops import math_ops
    if _check_scale(scale, "scale cannot be an integer: %s", "Setting a scale less than 0 on a regularizer: %g"):
        return lambda _: None

    def l1(weights, name=None):
        """Applies L1 regularization to weights."""
        with ops.name_scope(scope, "l1_regularizer", [weights]) as name:
            my_scale = ops.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return math_ops.multiply(my_scale, math_ops.reduce_sum(math_ops.abs(weights)), name=name)

    return l1


def l2_regularizer(scale, scope=None):
    """Returns a function that can be used to apply L2 regularization `scale * sum(weights**2) / 2`.

    Args:
      scale: A scalar multiplier `Tensor`. 0.0 disables the regularizer.
      scope: An optional scope name.

    Returns:
      A function with signature `l2(weights)` that applies L2 regularization.

    Raises:
      ValueError: If scale is negative or if scale is not a float.
    """
    from ..ops import math_ops, nn_ops
    if _check_scale(scale, "scale cannot be an integer: %s", "Setting a scale less than 0 on a regularizer: %g."):
        return lambda _: None

    def l2(weights):
        """Applies l2 regularization to weights."""
        with ops.name_scope(scope, "l2_regularizer", [weights]) as name:
            my_scale = ops.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return math_ops.multiply(my_scale, nn_ops.l2_loss(weights), name=name)

    return l2


def l1_l2_regularizer(scale_l1=1.0, scale_l2=1.0, scope=None):
    """Returns a function that applies `l1_regularizer(scale_l1) + l2_regularizer(scale_l2)`.

    Args:
      scale_l1: A scalar multiplier `Tensor` for L1 regularization.
      scale_l2: A scalar multiplier `Tensor` for L2 regularization.
      scope: An optional scope name.

    Returns:
      A function with signature `l1_l2(weights)` that applies a weighted sum of L1 L2
      regularization.

    Raises:
      ValueError: If scale is negative or if scale is not a float.
    """
    if isinstance(scale_l1, numbers.Integral):
        raise ValueError("scale_l1 cannot be an integer: %s" % (scale_l1,))
    if isinstance(scale_l2, numbers.Integral):
        raise ValueError("scale_l2 cannot be an integer: %s" % (scale_l2,))
    scope = scope or "l1_l2_regularizer"
    if scale_l1 == 0.:
        return l2_regularizer(scale_l2, scope)
    if scale_l2 == 0.:
        return l1_regularizer(scale_l1, scope)
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope)


def sum_regularizer(regularizer_list, scope=None):
    """Returns a function that applies the sum of multiple regularizers.

    Args:
      regularizer_list: A list of regularizers to apply (None entries are ignored).
      scope: An optional scope name.

    Returns:
      A function with signature `sum_reg(weights)` that applies the sum of all the input
      regularizers, or None if the list is empty.
    """
    from ..ops.core_ops import add_n
    regularizer_list = [reg for reg in regularizer_list if reg is not None]
    if not regularizer_list:
        return None

    def sum_reg(weights):
        """Applies the sum of all the input regularizers."""
        with ops.name_scope(scope, "sum_regularizer", [weights]) as name:
            regularizer_tensors = [t for t in (reg(weights) for reg in regularizer_list) if t is not None]
            return add_n(regularizer_tensors, name=name) if regularizer_tensors else None

    return sum_reg


def apply_regularization(regularizer, weights_list=None):
    """Returns the summed penalty of `regularizer` over `weights_list`, also added to
    `GraphKeys.REGULARIZATION_LOSSES`.

    Args:
      regularizer: A function that takes a single `Tensor` argument and returns a scalar `Tensor`
        output.
      weights_list: List of weights `Tensors` or `Variables` to apply `regularizer` over.
        Defaults to the `GraphKeys.WEIGHTS` collection if `None`.

    Returns:
      A scalar representing the overall regularization penalty.

    Raises:
      ValueError: If `regularizer` does not return a scalar output, or if we find no weights.
    """
    from ..framework.constant_op import constant
    from ..ops.core_ops import add_n
    if not weights_list:
        weights_list = ops.get_collection(ops.GraphKeys.WEIGHTS)
    if not weights_list:
        raise ValueError("No weights to regularize.")
    with ops.name_scope("get_regularization_penalty", values=weights_list) as scope:
        penalties = [regularizer(w) for w in weights_list]
        penalties = [p if p is not None else constant(0.0) for p in penalties]
        for p in penalties:
            if p.shape.ndims != 0:
                raise ValueError("regularizer must return a scalar Tensor instead of a Tensor with rank %d."
                                 % p.shape.ndims)
        summed_penalty = add_n(penalties, name=scope)
        ops.add_to_collection(ops.GraphKeys.REGULARIZATION_LOSSES, summed_penalty)
        return summed_penalty


# ---- initializers ----------------------------------------------------------------------------
def variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False, seed=None, dtype=dtypes.float32):
    """Returns an initializer generating tensors without scaling variance.

    With `n` the fan-in, fan-out or their average (by `mode`; for convolution kernels the
    receptive field size multiplies both), values are drawn from `U(-sqrt(3 * factor / n),
    sqrt(3 * factor / n))` if `uniform`, else from a normal truncated at 2 standard deviations
    with stddev `sqrt(1.3 * factor / n)`.

    Args:
      factor: Float. A multiplicative factor.
      mode: String. 'FAN_IN', 'FAN_OUT', 'FAN_AVG'.
      uniform: Whether to use uniform or normal distributed random initialization.
      seed: A Python integer. Used to create random seeds.
      dtype: The data type. Only floating point types are supported.

    Returns:
      An initializer that generates tensors with unit variance.

    Raises:
      TypeError: if `dtype` is not a floating point type, or `mode` is not in
        ['FAN_IN', 'FAN_OUT', 'FAN_AVG'].
    """
    from ..ops import random_ops
    if not dtypes.as_dtype(dtype).is_floating:
        raise TypeError("Cannot create initializer for non-floating point type.")
    if mode not in ["FAN_IN", "FAN_OUT", "FAN_AVG"]:
        raise TypeError("Unknown mode %s [FAN_IN, FAN_OUT, FAN_AVG]" % mode)

    def _initializer(shape, dtype=dtype, partition_info=None):
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise TypeError("Cannot create initializer for non-floating point type.")
        shape = list(shape)
        if shape:
            fan_in = float(shape[-2]) if len(shape) > 1 else float(shape[-1])
            fan_out = float(shape[-1])
        else:
            fan_in = fan_out = 1.0
        for dim in shape[:-2]:
            fan_in *= float(dim)
            fan_out *= float(dim)
        n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[mode]
        if uniform:
            limit = math.sqrt(3.0 * factor / n)
            return random_ops.random_uniform(shape, -limit, limit, dtype, seed=seed)
        trunc_stddev = math.sqrt(1.3 * factor / n)
        return random_ops.truncated_normal(shape, 0.0, trunc_stddev, dtype, seed=seed)

    return _initializer


def xavier_initializer(uniform=True, seed=None, dtype=dtypes.float32):
    """Returns the Glorot/Xavier initializer: `variance_scaling_initializer(factor=1.0,
    mode='FAN_AVG', uniform=uniform)`.

    Args:
      uniform: Whether to use uniform or normal distributed random initialization.
      seed: A Python integer. Used to create random seeds.
      dtype: The data type. Only floating point types are supported.

    Returns:
      An initializer for a weight matrix.
    """
    return variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform, seed=seed, dtype=dtype)


xavier_initializer_conv2d = xavier_initializer


# ---- layers ----------------------------------------------------------------------------------
def _model_variable_getter(getter, name, collections=None, rename=None, **kwargs):
    """Creates variables through `getter` with short names renamed by `rename`, also in
    MODEL_VARIABLES (as `tf.contrib.framework.model_variable`)."""
    short_name = name.split("/")[-1]
    if rename and short_name in rename:
        name = "/".join(name.split("/")[:-1] + [rename[short_name]])
    collections = list(collections or [])
    for key in (ops.GraphKeys.GLOBAL_VARIABLES, ops.GraphKeys.MODEL_VARIABLES):
        if key not in collections:
            collections.append(key)
    return getter(name, collections=collections, **kwargs)


def _add_variable_to_collections(variable, collections_set, collections_name):
    collections = collections_set.get(collections_name) if isinstance(collections_set, dict) else collections_set
    for collection in collections or []:
        if all(v is not variable for v in ops.get_collection(collection)):
            ops.add_to_collection(collection, variable)


def _collect_named_outputs(collections, outputs):
    if collections:
        ops.add_to_collections(collections, outputs)
    return outputs


@add_arg_scope
def fully_connected(inputs, num_outputs, activation_fn=nn_ops.relu, normalizer_fn=None, normalizer_params=None,
                    weights_initializer=None, weights_regularizer=None,
                    biases_initializer=init_ops.zeros_initializer(), biases_regularizer=None, reuse=None,
                    variables_collections=None, outputs_collections=None, trainable=True, scope=None):
    """Adds a fully connected layer: `activation_fn(normalizer_fn(inputs @ weights + biases))`.

    Variables are "<scope>/weights" and "<scope>/biases" (scope "fully_connected", made unique),
    also in MODEL_VARIABLES. Inputs of rank > 2 are multiplied along their last axis.

    Args:
      inputs: A tensor of at least rank 2 and static value for the last dimension.
      num_outputs: Integer, the number of output units in the layer.
      activation_fn: Activation function. The default value is a ReLU function. Explicitly set it
        to None to skip it and maintain a linear activation.
      normalizer_fn: Normalization function to use instead of `biases`.
      normalizer_params: Normalization function parameters.
      weights_initializer: An initializer for the weights (default xavier_initializer()).
      weights_regularizer: Optional regularizer for the weights.
      biases_initializer: An initializer for the biases. If None skip biases.
      biases_regularizer: Optional regularizer for the biases.
      reuse: Whether or not the layer and its variables should be reused.
      variables_collections: Optional list of collections for all the variables or a dictionary
        containing a different list of collections per variable ("weights", "biases").
      outputs_collections: Collection to add the outputs.
      trainable: If `True` also add variables to the graph collection TRAINABLE_VARIABLES.
      scope: Optional scope for variable_scope.

    Returns:
      The tensor variable representing the result of the series of operations.

    Raises:
      ValueError: If `num_outputs` is not an integer, or `inputs` has rank < 2 or an undefined
        last dimension.
    """
    from ..layers.core import Dense
    if not isinstance(num_outputs, int) or isinstance(num_outputs, bool):
        raise ValueError("num_outputs type should be one of %s, got %s." % ([int], type(num_outputs)))
    if weights_initializer is None:
        weights_initializer = xavier_initializer()
    layer_variable_getter = functools.partial(_model_variable_getter, rename={"bias": "biases", "kernel": "weights"})
    with variable_scope(scope, "fully_connected", [inputs], reuse=reuse,
                        custom_getter=layer_variable_getter) as sc:
        inputs = ops.convert_to_tensor(inputs)
        layer = Dense(units=num_outputs, activation=None, use_bias=not normalizer_fn and biases_initializer,
                      kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
                      kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
                      activity_regularizer=None, trainable=trainable, name=sc.name,
                      dtype=inputs.dtype.base_dtype, _scope=sc, _reuse=reuse)
        outputs = layer.apply(inputs)
        _add_variable_to_collections(layer.kernel, variables_collections, "weights")
        if layer.bias is not None:
            _add_variable_to_collections(layer.bias, variables_collections, "biases")
        if normalizer_fn is not None:
            outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return _collect_named_outputs(outputs_collections, outputs)


@add_arg_scope
def flatten(inputs, outputs_collections=None, scope=None):
    """Flattens the input while maintaining the batch_size (the first dimension).

    Args:
      inputs: A tensor of size [batch_size, ...].
      outputs_collections: Collection to add the outputs.
      scope: Optional scope for name_scope.

    Returns:
      A flattened tensor with shape [batch_size, k].

    Raises:
      ValueError: If inputs rank is unknown.
    """
    from ..layers.core import flatten as core_flatten
    with ops.name_scope(scope, "Flatten", [inputs]):
        inputs = ops.convert_to_tensor(inputs)
        outputs = core_flatten(inputs)
        return _collect_named_outputs(outputs_collections, outputs)
