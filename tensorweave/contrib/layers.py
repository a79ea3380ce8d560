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


def _collect_named_outputs(collections, outputs, alias=None):
    if collections:
        if alias is not None:
            from .layers_slim import append_tensor_alias
            append_tensor_alias(outputs, alias)
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
        return _collect_named_outputs(outputs_collections, outputs, sc.name)


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
    with ops.name_scope(scope, "Flatten", [inputs]) as sc:
        inputs = ops.convert_to_tensor(inputs)
        outputs = core_flatten(inputs)
        return _collect_named_outputs(outputs_collections, outputs, sc)


# ---- embed_sequence, embedding_lookup_unique ------------------------------------------
def embedding_lookup_unique(params, ids, partition_strategy="mod", name=None):
    """Version of `tf.nn.embedding_lookup` that looks up each distinct id once.

    The ids are flattened, made unique, looked up, and the embeddings gathered back to the shape
    of `ids` (any rank).

    Args:
      params: A `Tensor` (or a list of `Tensor`s, a partitioned table) of embeddings.
      ids: A `Tensor` of `int32` or `int64` ids, of any shape.
      partition_strategy: "mod" or "div", for a partitioned `params` (see `tf.nn.embedding_lookup`).
      name: A name for this op's name scope (optional).

    Returns:
      A `Tensor` of shape `ids.shape + params.shape[1:]` with the embeddings.
    """
    from ..ops import array_ops, array_select_ops, math_ops
    from ..ops.embedding_ops import embedding_lookup
    with ops.name_scope(name, "EmbeddingLookupUnique", [params, ids]):
        ids = ops.convert_to_tensor(ids)
        shape = array_ops.shape(ids)
        ids_flat = array_ops.reshape(ids, math_ops.reduce_prod(shape, keepdims=True))
        unique_ids, idx = array_select_ops.unique(ids_flat)
        unique_embeddings = embedding_lookup(params, unique_ids, partition_strategy=partition_strategy)
        embeds_flat = array_ops.gather(unique_embeddings, idx)
        embed_shape = array_ops.concat([shape, array_ops.shape(unique_embeddings)[1:]], 0)
        embeds = array_ops.reshape(embeds_flat, embed_shape)
        embeds.set_shape(ids.get_shape().concatenate(unique_embeddings.get_shape()[1:]))
        return embeds


def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None, regularizer=None,
                   trainable=True, scope=None, reuse=None):
    """Maps a sequence of symbols to a sequence of embeddings.

    Creates (or reuses) the model variable "<scope>/embeddings" of shape `[vocab_size, embed_dim]`
    (scope "EmbedSequence" by default) and looks `ids` up in it.

    Args:
      ids: A `[batch_size, doc_length]` `Tensor` or `SparseTensor` of type `int32` or `int64` with
        symbol ids.
      vocab_size: An integer: the size of the vocabulary.
      embed_dim: An integer: the size of the embedding vectors.
      unique: If True, looks up each distinct id once.
      initializer: An initializer for the embeddings (default: `tf.get_variable`'s).
      regularizer: Optional regularizer for the embeddings.
      trainable: If True also add the variable to the graph collection TRAINABLE_VARIABLES.
      scope: Optional string specifying the variable scope for the op, required if `reuse=True`.
      reuse: If True, variables inside the op will be reused.

    Returns:
      A `Tensor` of shape `[batch_size, doc_length, embed_dim]` with the embedded sequences.

    Raises:
      ValueError: If `embed_dim` or `vocab_size` are not specified when `reuse` is None or False.
    """
    from ..ops.embedding_ops import embedding_lookup
    from .framework import model_variable
    if not (reuse or (vocab_size and embed_dim)):
        raise ValueError("Must specify vocab size and embedding dimension when not reusing. Got vocab_size=%s and "
                         "embed_dim=%s" % (vocab_size, embed_dim))
    with variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        shape = [vocab_size, embed_dim]
        if reuse and vocab_size is None or embed_dim is None:
            shape = None
        embeddings = model_variable("embeddings", shape=shape, initializer=initializer, regularizer=regularizer,
                                    trainable=trainable)
        if unique:
            return embedding_lookup_unique(embeddings, ids)
        return embedding_lookup(embeddings, ids)


# ---- the slim layers (conv2d, batch_norm, pooling, ...) ---------------------------------
from .layers_slim import (  # noqa: E402,F401
    append_tensor_alias,
    avg_pool2d,
    batch_norm,
    bias_add,
    collect_named_outputs,
    conv1d,
    conv2d,
    conv2d_transpose,
    convert_collection_to_dict,
    convolution,
    convolution1d,
    convolution2d,
    convolution2d_transpose,
    dropout,
    get_tensor_aliases,
    layer_norm,
    max_pool2d,
    one_hot_encoding,
    repeat,
    separable_conv2d,
    separable_convolution2d,
    softmax,
    stack,
    unit_norm,
)

linear = functools.partial(fully_connected, activation_fn=None)
relu = functools.partial(fully_connected, activation_fn=nn_ops.relu)
relu6 = functools.partial(fully_connected, activation_fn=nn_ops.relu6)
from .layers_feature_column import (  # noqa: E402,F401
    bucketized_column,
    one_hot_column,
    real_valued_column,
    sparse_column_with_hash_bucket,
    sparse_column_with_keys,
)
from .layers_optimizers import (  # noqa: E402,F401
    OPTIMIZER_CLS_NAMES,
    OPTIMIZER_SUMMARIES,
    optimize_loss,
    summarize_activation,
    summarize_activations,
    summarize_biases,
    summarize_collection,
    summarize_tensor,
    summarize_tensors,
    summarize_variables,
    summarize_weights,
)
from .layers_slim_extra import (  # noqa: E402,F401
    avg_pool3d,
    conv2d_in_plane,
    conv3d,
    conv3d_transpose,
    convolution2d_in_plane,
    convolution3d,
    convolution3d_transpose,
    dense_to_sparse,
    group_norm,
    images_to_sequence,
    instance_norm,
    max_pool3d,
    maxout,
    pool,
    scale_gradient,
    sequence_to_images,
)

elu = functools.partial(fully_connected, activation_fn=nn_ops.elu)
from .layers_feature_column import sparse_column_with_vocabulary_file, weighted_sparse_column  # noqa: E402,F401


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner=None, default_id=None,
                                 name=None, partition_strategy="div", max_norm=None):
    """Lookup embedding results, accounting for invalid IDs and empty features (TF 1.15's
    contrib version of `tf.nn.safe_embedding_lookup_sparse`, whose `combiner` defaults to
    "mean").

    Invalid ids (< 0) are pruned, as are ids with non-positive weights; rows with no remaining
    ids get the embedding of `default_id` (or zeros).

    Args:
      embedding_weights: A list of `P` float tensors or values representing partitioned embedding
        tensors, or a `PartitionedVariable`.
      sparse_ids: `SparseTensor` of shape `[d_0, d_1, ..., d_n]` containing the ids.
      sparse_weights: `SparseTensor` of same shape as `sparse_ids`, containing float weights
        corresponding to `sparse_ids`, or `None` if all weights are be assumed to be 1.0.
      combiner: A string specifying how to combine embedding results for each entry. Currently
        "mean", "sqrtn" and "sum" are supported, with "mean" the default (None).
      default_id: The id to use for an entry with no features.
      name: A name for this operation (optional).
      partition_strategy: A string specifying the partitioning strategy. Currently `"div"` and
        `"mod"` are supported. Default is `"div"`.
      max_norm: If not None, all embeddings are l2-normalized to max_norm before combining.

    Returns:
      Dense tensor of shape `[d_0, d_1, ..., d_{n-1}, e_1, ..., e_m]`.

    Raises:
      ValueError: if `embedding_weights` is empty.
    """
    from ..ops.nn_misc_ops import safe_embedding_lookup_sparse as _safe_lookup
    if combiner is None:
        combiner = "mean"
    return _safe_lookup(embedding_weights, sparse_ids, sparse_weights=sparse_weights, combiner=combiner,
                        default_id=default_id, name=name, partition_strategy=partition_strategy, max_norm=max_norm)
