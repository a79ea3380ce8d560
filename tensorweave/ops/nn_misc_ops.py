"""`tf.nn` names composed of existing ops (TF1.15's definitions): crelu, swish/silu, log_poisson_loss,
sufficient_statistics, normalize_moments, weighted_moments, compute_average_loss,
scale_regularization_loss, zero_fraction, batch_norm_with_global_normalization, embedding_lookup_sparse,
safe_embedding_lookup_sparse, collapse_repeated, and `clip_by_average_norm`."""

import math

from ..framework import dtypes, ops
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape

__all__ = ["crelu", "swish", "silu", "log_poisson_loss", "sufficient_statistics", "normalize_moments",
           "weighted_moments", "compute_average_loss", "scale_regularization_loss", "zero_fraction",
           "batch_norm_with_global_normalization", "embedding_lookup_sparse", "safe_embedding_lookup_sparse",
           "collapse_repeated", "clip_by_average_norm"]


def _m():
    from . import math_ops
    return math_ops


def _a():
    from . import array_ops
    return array_ops


def _c():
    from . import core_ops
    return core_ops


def crelu(features, name=None, axis=-1):
    """Computes Concatenated ReLU: `relu(concat([features, -features], axis))`.

    Args:
      features: A float `Tensor`.
      name: A name for the operation (optional).
      axis: The axis that the output values are concatenated along (default -1).

    Returns:
      A `Tensor` with the type of `features`, twice as large along `axis`.
    """
    from .nn_activation_ops import relu
    with ops.name_scope(name, "CRelu", [features]) as name:
        features = ops.convert_to_tensor(features, name="features")
        c = _a().concat([features, _m().negative(features)], axis, name="concat")
        return relu(c, name=name)


def swish(features, beta=1.0, name=None):
    """Computes the Swish (SiLU) activation: `features * sigmoid(beta * features)`.

    Args:
      features: A float `Tensor`.
      beta: A scalar, the sigmoid's scale (default 1.0).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the type of `features`.
    """
    m = _m()
    with ops.name_scope(name, "swish", [features]):
        features = ops.convert_to_tensor(features, name="features")
        if isinstance(beta, (int, float)) and beta == 1.0:
            return m.multiply(features, m.sigmoid(features))
        beta = ops.convert_to_tensor(beta, dtype=features.dtype, name="beta")
        return m.multiply(features, m.sigmoid(m.multiply(beta, features)))


silu = swish


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """Computes the log-Poisson loss `exp(log_input) - log_input * targets`.

    With `compute_full_loss`, Stirling's approximation of `log(targets!)`,
    `targets * log(targets) - targets + 0.5 * log(2 * pi * targets)`, is added where `targets > 1`
    (0 where `0 <= targets <= 1`).

    Args:
      targets: A `Tensor` of the same type and shape as `log_input`.
      log_input: A `Tensor` of type float32 or float64.
      compute_full_loss: Whether to add the Stirling term (default False).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape as `log_input`: the element-wise losses.

    Raises:
      ValueError: If `log_input` and `targets` have different static shapes.
    """
    m = _m()
    a = _a()
    with ops.name_scope(name, "log_poisson_loss", [log_input, targets]) as name:
        log_input = ops.convert_to_tensor(log_input, name="log_input")
        targets = ops.convert_to_tensor(targets, name="targets")
        if not log_input.shape.is_compatible_with(targets.shape):
            raise ValueError("log_input and targets must have the same shape (%s vs %s)"
                             % (log_input.shape, targets.shape))
        result = m.subtract(m.exp(log_input), m.multiply(log_input, targets))
        if compute_full_loss:
            point_five = ops.convert_to_tensor(0.5, dtype=targets.dtype)
            two_pi = ops.convert_to_tensor(2 * math.pi, dtype=targets.dtype)
            stirling = m.add(m.subtract(m.multiply(targets, m.log(targets)), targets),
                             m.multiply(point_five, m.log(m.multiply(two_pi, targets))))
            zeros = _c().zeros_like(targets)
            ones = _c().ones_like(targets)
            cond = m.logical_and(m.greater_equal(targets, zeros), m.less_equal(targets, ones))
            result = m.add(result, a.where(cond, zeros, stirling))
        return result


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    """Calculates the sufficient statistics for the mean and variance of `x`.

    Args:
      x: A `Tensor`.
      axes: Array of ints: the axes along which to compute the statistics.
      shift: A `Tensor` to subtract before summing (None: no shift).
      keep_dims: Deprecated alias of `keepdims`.
      name: Name used to scope the operations.
      keepdims: Produce statistics with the same dimensionality as the input.

    Returns:
      `(count, mean_ss, variance_ss, shift)`: the number of elements averaged (a constant of `x`'s
      type when the shape is known), the (shifted) sum of `x` and of its squares over `axes`, and
      `shift` as given (a `Tensor`) or None.

    Raises:
      ValueError: If both `keep_dims` and `keepdims` are given.
    """
    m = _m()
    a = _a()
    if keep_dims is not None and keepdims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
    keepdims = bool(keep_dims if keep_dims is not None else keepdims)
    axes = list(set(axes))
    with ops.name_scope(name, "sufficient_statistics", [x, shift]):
        x = ops.convert_to_tensor(x, name="x")
        dims = x.shape.dims
        if dims is not None and all(dims[d].value is not None for d in axes):
            count = 1
            for d in axes:
                count *= dims[d].value
            counts = ops.convert_to_tensor(count, dtype=x.dtype)
        else:
            x_dims = a.gather(m.cast(a.shape(x), x.dtype), axes)
            counts = m.reduce_prod(x_dims, name="count")
        if shift is not None:
            shift = ops.convert_to_tensor(shift, name="shift")
            m_ss = m.subtract(x, shift)
            v_ss = m.squared_difference(x, shift)
        else:
            m_ss = x
            v_ss = m.square(x)
        m_ss = m.reduce_sum(m_ss, axes, keepdims=keepdims, name="mean_ss")
        v_ss = m.reduce_sum(v_ss, axes, keepdims=keepdims, name="var_ss")
    return counts, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """Calculates the mean and variance from the sufficient statistics.

    Args:
      counts: A `Tensor` with the number of elements the statistics summed.
      mean_ss: A `Tensor` with the (shifted) sum of the elements.
      variance_ss: A `Tensor` with the (shifted) sum of the squared elements.
      shift: A `Tensor` with the shift used, or None.
      name: Name used to scope the operations.

    Returns:
      `(mean, variance)` `Tensor`s.
    """
    m = _m()
    with ops.name_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
        divisor = m.reciprocal(counts, name="divisor")
        if shift is not None:
            shifted_mean = m.multiply(mean_ss, divisor, name="shifted_mean")
            mean = m.add(shifted_mean, shift, name="mean")
        else:
            shifted_mean = m.multiply(mean_ss, divisor, name="mean")
            mean = shifted_mean
        variance = m.subtract(m.multiply(variance_ss, divisor), m.square(shifted_mean), name="variance")
    return mean, variance


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    """Returns the frequency-weighted mean and variance of `x` over `axes`.

    Args:
      x: A `Tensor`.
      axes: 1-D list of ints: the axes along which to compute.
      frequency_weights: A `Tensor` of positive weights broadcastable to `x`.
      name: Name used to scope the operations.
      keep_dims: Deprecated alias of `keepdims`.
      keepdims: Produce moments with the same dimensionality as the input.

    Returns:
      `(weighted_mean, weighted_variance)` `Tensor`s.

    Raises:
      ValueError: If both `keep_dims` and `keepdims` are given.
    """
    m = _m()
    a = _a()
    if keep_dims is not None and keepdims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
    keepdims = bool(keep_dims if keep_dims is not None else keepdims)
    with ops.name_scope(name, "weighted_moments", [x, frequency_weights, axes]):
        x = ops.convert_to_tensor(x, name="x")
        frequency_weights = ops.convert_to_tensor(frequency_weights, name="frequency_weights")
        needs_cast = x.dtype == dtypes.float16
        if needs_cast:
            x = m.cast(x, dtypes.float32)
        if frequency_weights.dtype != x.dtype:
            frequency_weights = m.cast(frequency_weights, x.dtype)
        weighted_input_sum = m.reduce_sum(m.multiply(frequency_weights, x), axes, name="weighted_input_sum",
                                          keepdims=True)
        broadcasted_weights = m.add(frequency_weights, _c().zeros_like(x))
        sum_of_weights = m.reduce_sum(broadcasted_weights, axes, name="sum_of_weights", keepdims=True)
        divisor = m.reciprocal(sum_of_weights, name="inv_weight_sum")
        weighted_mean = m.multiply(weighted_input_sum, divisor)
        weighted_distsq = m.reduce_sum(m.multiply(frequency_weights, m.squared_difference(x, weighted_mean)), axes,
                                       name="weighted_distsq", keepdims=True)
        weighted_variance = m.multiply(weighted_distsq, divisor)
        if not keepdims:
            weighted_mean = a.squeeze(weighted_mean, axis=axes)
            weighted_variance = a.squeeze(weighted_variance, axis=axes)
        if needs_cast:
            weighted_mean = m.cast(weighted_mean, dtypes.float16)
            weighted_variance = m.cast(weighted_variance, dtypes.float16)
        return weighted_mean, weighted_variance


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """Scales per-example losses with sample weights and computes their average.

    tensorweave runs one replica (no distribution strategy), so without `global_batch_size` the
    batch size is the first dimension of `per_example_loss`.

    Args:
      per_example_loss: Per-example loss, a `Tensor` of rank >= 1.
      sample_weight: Optional weighting for each example, broadcastable to `per_example_loss`.
      global_batch_size: Optional global batch size value (a positive integer).

    Returns:
      Scalar loss value: `sum(per_example_loss * sample_weight) / global_batch_size`.

    Raises:
      ValueError: If `per_example_loss` is a scalar.
      InvalidArgumentError: At run time, if `global_batch_size` is not positive.
    """
    from .logging_ops import Assert
    m = _m()
    a = _a()
    per_example_loss = ops.convert_to_tensor(per_example_loss)
    input_dtype = per_example_loss.dtype
    if per_example_loss.shape.ndims == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                         "Received per_example_loss=%s with rank 0" % (per_example_loss,))
    if sample_weight is not None:
        sample_weight = m.cast(ops.convert_to_tensor(sample_weight), input_dtype)
        # As TF's squeeze_or_expand_dimensions: weights one rank above the losses lose a last dimension
        # of 1, weights one rank below gain one.
        lr, wr = per_example_loss.shape.ndims, sample_weight.shape.ndims
        if lr is not None and wr is not None and wr != 0:
            if wr - lr == 1:
                sample_weight = a.squeeze(sample_weight, [-1])
            elif lr - wr == 1:
                sample_weight = a.expand_dims(sample_weight, -1)
        per_example_loss = m.multiply(per_example_loss, sample_weight)
    per_example_loss = m.cast(per_example_loss, input_dtype)
    if global_batch_size is None:
        global_batch_size = a.shape(per_example_loss)[0]
    global_batch_size = ops.convert_to_tensor(global_batch_size)
    if not global_batch_size.dtype.is_integer:
        raise TypeError("global_batch_size must be an integer.")
    if global_batch_size.shape.ndims not in (None, 0):
        raise ValueError("global_batch_size must be scalar.")
    positive = Assert(m.greater(global_batch_size, ops.convert_to_tensor(0, dtype=global_batch_size.dtype)),
                      ["global_batch_size must be positive."])
    with ops.control_dependencies([positive]):
        global_batch_size = m.cast(global_batch_size, input_dtype)
    return m.truediv(m.reduce_sum(per_example_loss), global_batch_size)


def scale_regularization_loss(regularization_loss):
    """Scales the sum of the given regularization losses by the number of replicas (1 in tensorweave).

    Args:
      regularization_loss: A `Tensor` or list of `Tensor`s of regularization losses.

    Returns:
      Scalar loss value: the sum of `regularization_loss`.
    """
    return _m().reduce_sum(regularization_loss)


def zero_fraction(value, name=None):
    """Returns the fraction of zeros in `value` (a float32 scalar; NaN for an empty `value`).

    Args:
      value: A tensor of numeric type.
      name: A name for the operation (optional).

    Returns:
      The fraction of zeros in `value`, with type float32.
    """
    m = _m()
    a = _a()
    with ops.name_scope(name, "zero_fraction", [value]):
        value = ops.convert_to_tensor(value, name="value")
        size = a.size(value, out_type=dtypes.int64)
        zero = ops.convert_to_tensor(0, dtype=value.dtype)
        num_nonzero = m.reduce_sum(m.cast(m.not_equal(value, zero), dtypes.int64))
        with ops.name_scope("counts_to_fraction"):
            num_zero = m.subtract(size, num_nonzero)
            fraction = m.truediv(m.cast(num_zero, dtypes.float32), m.cast(size, dtypes.float32))
        return _identity(fraction, "fraction")


def _identity(x, name):
    from .core_ops import identity
    return identity(x, name=name)


def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None, variance_epsilon=None,
                                         scale_after_normalization=None, name=None, input=None,  # noqa: A002
                                         mean=None, variance=None):
    """Batch normalization with given (global) mean and variance (TF1's deprecated signature).

    Args:
      t: A 4-D input `Tensor` (alias `input`).
      m: A 1-D mean `Tensor` with size matching the last dimension of `t` (alias `mean`).
      v: A 1-D variance `Tensor` (alias `variance`).
      beta: A 1-D beta (offset) `Tensor`.
      gamma: A 1-D gamma (scale) `Tensor`, used only if `scale_after_normalization`.
      variance_epsilon: A small float number to avoid dividing by 0.
      scale_after_normalization: A bool: whether to multiply the result by gamma.
      name: A name for this operation (optional).
      input, mean, variance: Aliases of `t`, `m` and `v`.

    Returns:
      A batch-normalized `t`.

    Raises:
      ValueError: If an argument and its alias are both given.
    """
    from .nn_loss_ops import batch_normalization

    def pick(new, new_name, old, old_name):
        if new is not None and old is not None:
            raise ValueError("Cannot specify both '%s' and '%s'" % (new_name, old_name))
        return new if new is not None else old
    t = pick(input, "input", t, "t")
    m = pick(mean, "mean", m, "m")
    v = pick(variance, "variance", v, "v")
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None, variance_epsilon, name)


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None, combiner=None,
                            max_norm=None, allow_fast_lookup=False):
    """Computes embeddings for the given ids and weights (one combined embedding per row of `sp_ids`).

    Args:
      params: A single tensor (or a list of tensors: a sharded embedding table).
      sp_ids: `N x M` `SparseTensor` of int64 ids, indices ordered by row.
      sp_weights: `SparseTensor` of weights with the indices of `sp_ids`, or None (all weights 1).
      partition_strategy: "mod" or "div", for a list of `params`.
      name: Optional name for the op.
      combiner: "sum", "mean" (the default) or "sqrtn": how the row's weighted embeddings combine.
      max_norm: If not None, each embedding is clipped to this L2 norm before combining.
      allow_fast_lookup: Accepted for compatibility (the same values either way).

    Returns:
      A dense `Tensor` of shape `[max row id + 1] + params.shape[1:]`: row `i` combines the embeddings
      of the ids in row `i` of `sp_ids` (a row without ids is 0; with weights, "mean" and "sqrtn"
      divide with `div_no_nan`, as TF 2's implementation of this TF1 name).

    Raises:
      TypeError: If `sp_ids` (or `sp_weights`) is not a `SparseTensor`.
      ValueError: If `combiner` is not one of the three.
    """
    del allow_fast_lookup
    from .embedding_ops import embedding_lookup
    from .segment_ops import segment_sum, sparse_segment_mean, sparse_segment_sqrt_n, sparse_segment_sum
    m = _m()
    a = _a()
    if combiner is None:
        combiner = "mean"
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError("combiner must be one of 'mean', 'sqrtn' or 'sum'")
    if not isinstance(params, (list, tuple)):
        params = [params] if not hasattr(params, "_get_variable_list") else list(params)
    params = list(params)
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError("sp_ids must be SparseTensor")
    ignore_weights = sp_weights is None
    if not ignore_weights:
        if not isinstance(sp_weights, SparseTensor):
            raise TypeError("sp_weights must be either None or SparseTensor")
        sp_ids.values.shape.assert_is_compatible_with(sp_weights.values.shape)
        sp_ids.indices.shape.assert_is_compatible_with(sp_weights.indices.shape)
        sp_ids.dense_shape.shape.assert_is_compatible_with(sp_weights.dense_shape.shape)
    with ops.name_scope(name, "embedding_lookup_sparse", params + [sp_ids]) as name:
        segment_ids = sp_ids.indices[:, 0]
        if segment_ids.dtype != dtypes.int32:
            segment_ids = m.cast(segment_ids, dtypes.int32)
        ids, idx = a.unique(sp_ids.values)
        embeddings = embedding_lookup(params, ids, partition_strategy=partition_strategy, max_norm=max_norm)
        if embeddings.dtype == dtypes.float16:
            embeddings = m.cast(embeddings, dtypes.float32)
        if not ignore_weights:
            weights = sp_weights.values
            if weights.dtype != embeddings.dtype:
                weights = m.cast(weights, embeddings.dtype)
            embeddings = a.gather(embeddings, idx)
            ones = a.fill(a.expand_dims(m.subtract(a.rank(embeddings), 1), 0), 1)
            bcast_weights_shape = a.concat([a.shape(weights), ones], 0)
            orig_weights_shape = weights.shape
            weights = a.reshape(weights, bcast_weights_shape)
            if embeddings.shape.ndims is not None:
                weights.set_shape(orig_weights_shape.concatenate([1] * (embeddings.shape.ndims - 1)))
            embeddings = m.multiply(embeddings, weights)
            if combiner == "sum":
                embeddings = segment_sum(embeddings, segment_ids, name=name)
            elif combiner == "mean":
                embeddings = segment_sum(embeddings, segment_ids)
                weight_sum = segment_sum(weights, segment_ids)
                embeddings = m.div_no_nan(embeddings, weight_sum, name=name)
            else:
                embeddings = segment_sum(embeddings, segment_ids)
                weight_sum = segment_sum(m.pow(weights, 2), segment_ids)
                embeddings = m.div_no_nan(embeddings, m.sqrt(weight_sum), name=name)
        else:
            if combiner == "sum":
                embeddings = sparse_segment_sum(embeddings, idx, segment_ids, name=name)
            elif combiner == "mean":
                embeddings = sparse_segment_mean(embeddings, idx, segment_ids, name=name)
            else:
                embeddings = sparse_segment_sqrt_n(embeddings, idx, segment_ids, name=name)
        return embeddings


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, name=None, partition_strategy="div", max_norm=None,
                                 allow_fast_lookup=False):
    """Looks up embeddings for the given ids and weights from a list of tensors, robust to invalid ids.

    Ids < 0 (and, unless `combiner` is "sum", weights <= 0) are pruned; rows left empty get the
    embedding of `default_id`, or zeros when it is None. `sparse_ids` may have rank > 2: the result
    has shape `sparse_ids.dense_shape[:-1] + embedding_weights.shape[1:]`.

    Args:
      embedding_weights: A tensor (or a list of tensors, a sharded table) of shape `[vocab, d...]`.
      sparse_ids: `SparseTensor` of int64 ids, shape `[d_0, ..., d_n]`.
      sparse_weights: `SparseTensor` of float weights with the indices of `sparse_ids`, or None.
      combiner: "sum", "mean" (the default) or "sqrtn".
      default_id: The id to use for an empty row (None: a zero vector).
      name: A name for this operation (optional).
      partition_strategy: "div" (the default) or "mod", for a list of tensors.
      max_norm: If not None, embeddings are clipped to this L2 norm before combining.
      allow_fast_lookup: Accepted for compatibility (the same values either way).

    Returns:
      A dense `Tensor` of the combined embeddings.

    Raises:
      ValueError: If `embedding_weights` is empty.
    """
    del allow_fast_lookup
    from .sparse_core_ops import sparse_fill_empty_rows, sparse_reshape, sparse_retain
    m = _m()
    a = _a()
    if embedding_weights is None:
        raise ValueError("Missing embedding_weights %s." % embedding_weights)
    if not isinstance(embedding_weights, (list, tuple)):
        embedding_weights = [embedding_weights]
    embedding_weights = list(embedding_weights)
    if len(embedding_weights) < 1:
        raise ValueError("Missing embedding_weights %s." % embedding_weights)
    dtype = sparse_weights.dtype if sparse_weights is not None else None
    embedding_weights = [ops.convert_to_tensor(w, dtype=dtype) for w in embedding_weights]
    with ops.name_scope(name, "embedding_lookup", embedding_weights + [sparse_ids, sparse_weights]) as scope:
        original_shape = sparse_ids.dense_shape
        original_rank_dim = sparse_ids.dense_shape.shape.dims[0].value
        original_rank = a.size(original_shape) if original_rank_dim is None else original_rank_dim
        sparse_ids = sparse_reshape(sparse_ids, [
            m.reduce_prod(a.slice(original_shape, [0], [m.subtract(original_rank, 1)])),
            a.gather(original_shape, m.subtract(original_rank, 1))])
        if sparse_weights is not None:
            sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values, sparse_ids.dense_shape)
        # Prune invalid ids (and weights).
        is_id_valid = m.greater_equal(sparse_ids.values, 0)
        if sparse_weights is not None:
            is_id_valid = m.logical_and(is_id_valid, _c().ones_like(sparse_weights.values, dtype=dtypes.bool_))
        sparse_ids = sparse_retain(sparse_ids, is_id_valid)
        if sparse_weights is not None:
            sparse_weights = sparse_retain(sparse_weights, is_id_valid)
        if combiner != "sum" and sparse_weights is not None:
            is_weights_valid = m.greater(sparse_weights.values, 0)
            sparse_ids = sparse_retain(sparse_ids, is_weights_valid)
            sparse_weights = sparse_retain(sparse_weights, is_weights_valid)
        sparse_ids, is_row_empty = sparse_fill_empty_rows(sparse_ids, default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = sparse_fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner=combiner,
                                         partition_strategy=partition_strategy,
                                         name=None if default_id is None else scope, max_norm=max_norm)
        if default_id is None:
            is_row_empty = a.tile(a.reshape(is_row_empty, [-1, 1]), a.stack([1, a.shape(result)[1]]))
            result = a.where(is_row_empty, _c().zeros_like(result), result, name=scope)
        final_result = a.reshape(result, a.concat([
            a.slice(m.cast(original_shape, dtypes.int32), [0], [m.subtract(original_rank, 1)]),
            a.slice(a.shape(result), [1], [-1])], 0))
        lead = None if original_rank_dim is None else original_rank_dim - 1
        final_result.set_shape(TensorShape(None if lead is None else [None] * lead).concatenate(result.shape[1:]))
        return final_result


def _get_dim(tensor, i):
    d = tensor.shape.dims
    v = d[i].value if d is not None else None
    return v or _a().shape(tensor)[i]


def collapse_repeated(labels, seq_length, name=None):
    """Merges repeated labels into single labels (as before a CTC loss).

    Args:
      labels: A `[batch, max_seq_length]` `Tensor` of labels.
      seq_length: A `[batch]` `Tensor` with the length of each sequence.
      name: A name for this op's name scope (optional).

    Returns:
      `(collapsed_labels, new_seq_length)`: a `[batch, new_max_seq_length]` `Tensor` with the repeated
      labels of each sequence merged (padded with 0) and the new lengths (type of `seq_length`).
    """
    m = _m()
    a = _a()
    with ops.name_scope(name, "collapse_repeated_labels", [labels, seq_length]):
        labels = ops.convert_to_tensor(labels, name="labels")
        seq_length = ops.convert_to_tensor(seq_length, name="seq_length")
        label_mask = a.concat([_c().ones_like(labels[:, :1], dtypes.bool_),
                               m.not_equal(labels[:, 1:], labels[:, :-1])], axis=1)
        maxlen = _get_dim(labels, 1)
        seq_mask = a.sequence_mask(seq_length, maxlen=maxlen)
        label_mask = m.logical_and(label_mask, seq_mask)
        new_seq_len = m.reduce_sum(m.cast(label_mask, dtypes.int32), axis=1)
        new_maxlen = m.reduce_max(new_seq_len)
        idx_mask = a.sequence_mask(new_seq_len, maxlen=new_maxlen)
        flat_labels = a.reshape(labels, [-1])
        flat_label_mask = a.reshape(label_mask, [-1])
        flat_idx_mask = a.reshape(idx_mask, [-1])
        idx = a.range(_get_dim(flat_idx_mask, 0))
        flat = a.scatter_nd(indices=a.expand_dims(a.boolean_mask(idx, flat_idx_mask), axis=1),
                            updates=a.boolean_mask(flat_labels, flat_label_mask),
                            shape=a.shape(flat_idx_mask))
        batch_size = _get_dim(labels, 0)
        new_shape = a.stack([batch_size, new_maxlen]) if ops.is_tensor(batch_size) else [batch_size, new_maxlen]
        return a.reshape(flat, new_shape), m.cast(new_seq_len, seq_length.dtype)


def clip_by_average_norm(t, clip_norm, name=None):
    """Clips tensor values to a maximum average L2-norm.

    `t * clip_norm / max(l2norm_avg(t), clip_norm)` with `l2norm_avg(t) = sqrt(sum(t**2)) / size(t)`
    (float32 arithmetic for the element count, as TF).

    Args:
      t: A float32 `Tensor`.
      clip_norm: A 0-D (scalar) `Tensor` > 0: the maximum average norm.
      name: A name for the operation (optional).

    Returns:
      A clipped `Tensor`.
    """
    m = _m()
    a = _a()
    with ops.name_scope(name, "clip_by_average_norm", [t, clip_norm]) as name:
        t = ops.convert_to_tensor(t, name="t")
        n_element = m.cast(a.size(t), dtypes.float32)
        l2norm_inv = m.rsqrt(m.reduce_sum(m.multiply(t, t), a.range(a.rank(t))))
        one = ops.convert_to_tensor(1.0)
        tclip = m.multiply(m.multiply(t, clip_norm), m.minimum(m.multiply(l2norm_inv, n_element),
                                                               m.truediv(one, clip_norm)))
        return _identity(tclip, name)
