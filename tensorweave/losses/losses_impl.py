"""`tf.losses` (TF1): loss functions that weight, reduce and collect their result.

Every loss is computed in float32 (inputs are cast), multiplied by `weights` (a scalar or a
tensor broadcastable to the per-element losses), reduced according to `reduction`
(default `Reduction.SUM_BY_NONZERO_WEIGHTS`: the weighted sum divided by the number of non-zero
weights) and added to the `loss_collection` (default `GraphKeys.LOSSES`).
"""

from ..framework import dtypes, ops


class Reduction:
    """Types of loss reduction.

    * `NONE`: Un-reduced weighted losses with the same shape as the input.
    * `SUM`: Scalar sum of weighted losses.
    * `MEAN`: Scalar `SUM` divided by the sum of weights.
    * `SUM_OVER_BATCH_SIZE`: Scalar `SUM` divided by the number of elements in losses.
    * `SUM_OVER_NONZERO_WEIGHTS`: Scalar `SUM` divided by the number of non-zero weights.
    * `SUM_BY_NONZERO_WEIGHTS`: Same as `SUM_OVER_NONZERO_WEIGHTS` (the default).
    """

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        """Raises ValueError("Invalid Reduction Key ...") for an unknown key."""
        if key not in cls.all():
            raise ValueError("Invalid Reduction Key %s." % key)


# ---- collections -----------------------------------------------------------------------------
def add_loss(loss, loss_collection=ops.GraphKeys.LOSSES):
    """Adds an externally defined loss to the collection of losses.

    Args:
      loss: A loss `Tensor`.
      loss_collection: Optional collection to add the loss to (nothing is added if falsy).
    """
    if loss_collection:
        ops.add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection=ops.GraphKeys.LOSSES):
    """Gets the list of losses from the loss_collection, filtered by `scope` (a name regex).

    Returns:
      A list of loss tensors.
    """
    return ops.get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    """Gets the list of regularization losses, filtered by `scope`.

    Returns:
      A list of regularization losses as Tensors.
    """
    return ops.get_collection(ops.GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """Gets the total regularization loss (their sum, or a constant 0.0 if there are none).

    Returns:
      A scalar regularization loss.
    """
    from ..framework.constant_op import constant
    from ..ops.core_ops import add_n
    losses = get_regularization_losses(scope)
    if losses:
        return add_n(losses, name=name)
    return constant(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """Returns a tensor whose value represents the total loss: the sum of `get_losses()` and,
    optionally, `get_regularization_losses()`.

    Returns:
      A `Tensor` whose value represents the total loss.

    Raises:
      ValueError: If there are no losses to add.
    """
    from ..ops.core_ops import add_n
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses += get_regularization_losses(scope=scope)
    return add_n(losses, name=name)


# ---- weights ---------------------------------------------------------------------------------
_ASSERT_BROADCASTABLE_ERROR_PREFIX = "weights can not be broadcast to values."


def _assert_broadcastable(weights, values):
    """Checks statically (where shapes are known) that `weights` broadcast to `values`: they are
    a scalar, or of the same rank with each dimension 1 or equal to the values'.

    Raises:
      ValueError: If they statically cannot.
    """
    w_shape, v_shape = weights.shape, values.shape
    if w_shape.ndims is None or v_shape.ndims is None or w_shape.ndims == 0:
        return
    if w_shape.ndims != v_shape.ndims:
        raise ValueError("%s values.rank=%s. weights.rank=%s. values.shape=%s. weights.shape=%s."
                         % (_ASSERT_BROADCASTABLE_ERROR_PREFIX, v_shape.ndims, w_shape.ndims, v_shape, w_shape))
    if w_shape.is_fully_defined() and v_shape.is_fully_defined():
        w_dims, v_dims = w_shape.as_list(), v_shape.as_list()
        for i, (w, v) in enumerate(zip(w_dims, v_dims)):
            if w not in (1, v):
                raise ValueError("%s Mismatch at dim %s. values.shape=%s weights.shape=%s."
                                 % (_ASSERT_BROADCASTABLE_ERROR_PREFIX, i, v_dims, w_dims))


def _broadcast_weights(weights, values):
    from ..ops import core_ops, math_ops
    with ops.name_scope(None, "broadcast_weights", (weights, values)) as scope:
        values = ops.convert_to_tensor(values, name="values")
        weights = ops.convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
        w_shape, v_shape = weights.shape, values.shape
        if w_shape.is_fully_defined() and v_shape.is_fully_defined() and w_shape.is_compatible_with(v_shape):
            return weights
        _assert_broadcastable(weights, values)
        return math_ops.multiply(weights, core_ops.ones_like(values), name=scope)


def _safe_mean(losses, num_present):
    from ..ops import math_ops
    total_loss = math_ops.reduce_sum(losses)
    return math_ops.div_no_nan(total_loss, num_present, name="value")


def _num_elements(losses):
    from ..ops import array_ops, math_ops
    with ops.name_scope(None, "num_elements", values=[losses]) as scope:
        return math_ops.cast(array_ops.size(losses, name=scope), dtype=losses.dtype)


def _num_present(losses, weights, per_batch=False):
    """The number of elements of `losses` with a non-zero (broadcast) weight; per batch entry
    (keeping dims) if `per_batch`."""
    from ..ops import array_ops, core_ops, math_ops
    if isinstance(weights, float) and weights != 0.0:
        return _num_elements(losses)
    with ops.name_scope(None, "num_present", (losses, weights)) as scope:
        weights = math_ops.cast(weights, dtype=dtypes.float32)
        present = array_ops.where(math_ops.equal(weights, 0.0), core_ops.zeros_like(weights),
                                  core_ops.ones_like(weights))
        present = _broadcast_weights(present, losses)
        if per_batch:
            return math_ops.reduce_sum(present, axis=_range_from_one(present), keepdims=True, name=scope)
        return math_ops.reduce_sum(present, name=scope)


def _range_from_one(t):
    """`range(1, rank(t))`, static when the rank is known."""
    from ..ops import array_ops
    if t.shape.ndims is not None:
        return list(range(1, t.shape.ndims))
    return array_ops.range(1, array_ops.rank(t))


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=ops.GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Computes the weighted loss.

    Args:
      losses: `Tensor` of shape `[batch_size, d1, ... dN]`.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `losses`, and must be
        broadcastable to `losses` (i.e., all dimensions must be either `1`, or the same as the
        corresponding `losses` dimension).
      scope: The scope for the operations performed in computing the loss.
      loss_collection: The loss will be added to these collections.
      reduction: Type of reduction to apply to loss.

    Returns:
      Weighted loss `Tensor` of the same type as `losses`. If `reduction` is `NONE`, this has the
      same shape as `losses`; otherwise, it is scalar.

    Raises:
      ValueError: If `reduction` is invalid or `weights` cannot be broadcast to `losses`.
    """
    from ..ops import core_ops, math_ops
    Reduction.validate(reduction)
    with ops.name_scope(scope, "weighted_loss", (losses, weights)):
        losses = ops.convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = math_ops.cast(losses, dtype=dtypes.float32)
        weights = math_ops.cast(weights, dtype=dtypes.float32)
        _assert_broadcastable(weights, losses)
        weighted_losses = math_ops.multiply(losses, weights)
        if reduction == Reduction.NONE:
            loss = weighted_losses
        else:
            loss = math_ops.reduce_sum(weighted_losses)
            if reduction == Reduction.MEAN:
                loss = _safe_mean(loss, math_ops.reduce_sum(math_ops.multiply(core_ops.ones_like(losses), weights)))
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = _safe_mean(loss, _num_present(losses, weights))
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = _safe_mean(loss, _num_elements(losses))
        loss = math_ops.cast(loss, input_dtype)
        add_loss(loss, loss_collection)
        return loss


# ---- losses ------------------------------------------------------------------------------------
def _check_not_none(**args):
    for key, value in args.items():
        if value is None:
            raise ValueError("%s must not be None." % key)


def _cast_pair(labels, predictions):
    from ..ops import math_ops
    predictions = math_ops.cast(predictions, dtype=dtypes.float32)
    labels = math_ops.cast(labels, dtype=dtypes.float32)
    predictions.shape.assert_is_compatible_with(labels.shape)
    return labels, predictions


def absolute_difference(labels, predictions, weights=1.0, scope=None, loss_collection=ops.GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Adds an Absolute Difference loss `|predictions - labels|` to the training procedure.

    Args:
      labels: The ground truth output tensor, same dimensions as 'predictions'.
      predictions: The predicted outputs.
      weights: Optional `Tensor` whose rank is either 0, or the same rank as `labels`, and must be
        broadcastable to `labels`.
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which this loss will be added.
      reduction: Type of reduction to apply to loss.

    Returns:
      Weighted loss float `Tensor`; scalar unless `reduction` is `NONE`.

    Raises:
      ValueError: If the shapes of `predictions` and `labels` don't match, `weights` has an
        invalid shape, or `labels` or `predictions` is None.
    """
    from ..ops import math_ops
    _check_not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "absolute_difference", (predictions, labels, weights)) as scope:
        labels, predictions = _cast_pair(labels, predictions)
        losses = math_ops.abs(math_ops.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None, loss_collection=ops.GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """Adds a cosine-distance loss `1 - sum(predictions * labels, axis)` (inputs are assumed to
    be unit-normalized).

    Args:
      labels: `Tensor` whose shape matches 'predictions'.
      predictions: An arbitrary matrix.
      axis: The dimension along which the cosine distance is computed.
      weights: Optional `Tensor` broadcastable to the losses (which keep `axis` as size 1).
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which this loss will be added.
      reduction: Type of reduction to apply to loss.
      dim: The old (deprecated) name for `axis`.

    Returns:
      Weighted loss float `Tensor`; scalar unless `reduction` is `NONE`.

    Raises:
      ValueError: If the shapes don't match, `axis` is missing, or an input is None.
    """
    from ..ops import math_ops
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("You must specify 'axis'.")
    _check_not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "cosine_distance_loss", (predictions, labels, weights)) as scope:
        labels, predictions = _cast_pair(labels, predictions)
        radial_diffs = math_ops.multiply(predictions, labels)
        losses = math_ops.subtract(1.0, math_ops.reduce_sum(radial_diffs, axis=(axis,), keepdims=True))
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=ops.GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Adds a hinge loss `max(0, 1 - (2 * labels - 1) * logits)` for 0/1 labels.

    Args:
      labels: The ground truth output tensor, of 0.0 and 1.0 values, shaped as `logits`.
      logits: The logits, a float tensor.
      weights: Optional `Tensor` broadcastable to `labels`.
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which the loss will be added.
      reduction: Type of reduction to apply to loss.

    Returns:
      Weighted loss float `Tensor`; scalar unless `reduction` is `NONE`.

    Raises:
      ValueError: If the shapes of `logits` and `labels` don't match or an input is None.
    """
    from ..ops import core_ops, math_ops, nn_ops
    _check_not_none(labels=labels, logits=logits)
    with ops.name_scope(scope, "hinge_loss", (logits, labels, weights)) as scope:
        labels, logits = _cast_pair(labels, logits)
        all_ones = core_ops.ones_like(labels)
        labels = math_ops.subtract(math_ops.multiply(2.0, labels), all_ones)
        losses = nn_ops.relu(math_ops.subtract(all_ones, math_ops.multiply(labels, logits)))
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None, loss_collection=ops.GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Adds a Huber loss: `0.5 * x**2` for `|x| <= delta`, else `0.5 * delta**2 + delta * (|x| - delta)`,
    with `x = predictions - labels`.

    Args:
      labels: The ground truth output tensor, same dimensions as 'predictions'.
      predictions: The predicted outputs.
      weights: Optional `Tensor` broadcastable to `labels`.
      delta: `float`, the point where the huber loss function changes from a quadratic to linear.
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which the loss will be added.
      reduction: Type of reduction to apply to loss.

    Returns:
      Weighted loss float `Tensor`; scalar unless `reduction` is `NONE`.

    Raises:
      ValueError: If the shapes don't match or an input is None.
    """
    from ..ops import math_ops
    _check_not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "huber_loss", (predictions, labels, weights)) as scope:
        labels, predictions = _cast_pair(labels, predictions)
        abs_error = math_ops.abs(math_ops.subtract(predictions, labels))
        quadratic = math_ops.minimum(abs_error, delta)
        linear = math_ops.subtract(abs_error, quadratic)
        losses = math_ops.add(math_ops.multiply(ops.convert_to_tensor(0.5, dtype=quadratic.dtype),
                                                math_ops.multiply(quadratic, quadratic)),
                              math_ops.multiply(delta, linear))
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None, loss_collection=ops.GraphKeys.LOSSES,
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Adds a Log Loss `-labels * log(predictions + eps) - (1 - labels) * log(1 - predictions + eps)`.

    Args:
      labels: The ground truth output tensor, same dimensions as 'predictions'.
      predictions: The predicted outputs (probabilities).
      weights: Optional `Tensor` broadcastable to `labels`.
      epsilon: A small increment to add to avoid taking a log of zero.
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which the loss will be added.
      reduction: Type of reduction to apply to loss.

    Returns:
      Weighted loss float `Tensor`; scalar unless `reduction` is `NONE`.

    Raises:
      ValueError: If the shapes don't match or an input is None.
    """
    from ..ops import math_ops
    _check_not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "log_loss", (predictions, labels, weights)) as scope:
        labels, predictions = _cast_pair(labels, predictions)
        losses = math_ops.subtract(
            math_ops.negative(math_ops.multiply(labels, math_ops.log(math_ops.add(predictions, epsilon)))),
            math_ops.multiply(math_ops.subtract(1.0, labels),
                              math_ops.log(math_ops.add(math_ops.subtract(1.0, predictions), epsilon))))
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None,
                                loss_collection=ops.GraphKeys.LOSSES):
    """Adds a pairwise-errors-squared loss: for each batch entry, the mean over pairs `(i, j)` of
    its elements of `((predictions[i] - predictions[j]) - (labels[i] - labels[j]))**2`, computed as
    `2 * sum(d**2) / (n - 1) - 2 * sum(d)**2 / (n * (n - 1))` with `d = predictions - labels`;
    weighted per batch entry and summed.

    Args:
      labels: The ground truth output tensor, whose shape must match the shape of `predictions`.
      predictions: The predicted outputs, a tensor of size `[batch_size, d0, .. dN]`.
      weights: Coefficients for the loss: a scalar or a tensor of shape `[batch_size]` (as rank 1
        or broadcastable per batch entry).
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which the loss will be added.

    Returns:
      A scalar `Tensor` that returns the weighted loss.

    Raises:
      ValueError: If the shapes don't match or an input is None.
    """
    from ..ops import array_ops, core_ops, math_ops
    _check_not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "mean_pairwise_squared_error", (predictions, labels, weights)):
        weights = math_ops.cast(weights, dtype=dtypes.float32)
        labels, predictions = _cast_pair(labels, predictions)
        _assert_broadcastable(weights, labels)
        diffs = math_ops.subtract(predictions, labels)
        axis = _range_from_one(diffs)
        sum_squares_diff_per_batch = math_ops.reduce_sum(math_ops.square(diffs), axis=axis, keepdims=True)
        num_present_per_batch = _num_present(diffs, weights, per_batch=True)
        term1 = math_ops.multiply(2.0, math_ops.div_no_nan(
            sum_squares_diff_per_batch, math_ops.maximum(math_ops.subtract(num_present_per_batch, 1.0), 0.0),
            name="value"))
        sum_diff = math_ops.reduce_sum(diffs, axis=axis, keepdims=True)
        term2 = math_ops.multiply(2.0, math_ops.div_no_nan(
            math_ops.square(sum_diff),
            math_ops.maximum(math_ops.multiply(num_present_per_batch, math_ops.subtract(num_present_per_batch, 1.0)),
                             0.0),
            name="value"))
        weighted_losses = math_ops.multiply(math_ops.subtract(term1, term2), weights)
        loss = math_ops.reduce_sum(weighted_losses)
        mean_loss = array_ops.where(math_ops.greater(math_ops.reduce_sum(num_present_per_batch), 0.0), loss,
                                    core_ops.zeros_like(loss), name="value")
        add_loss(mean_loss, loss_collection)
        return mean_loss


def mean_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=ops.GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Adds a Sum-of-Squares loss `(predictions - labels)**2` to the training procedure.

    Args:
      labels: The ground truth output tensor, same dimensions as 'predictions'.
      predictions: The predicted outputs.
      weights: Optional `Tensor` broadcastable to `labels`.
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which the loss will be added.
      reduction: Type of reduction to apply to loss.

    Returns:
      Weighted loss float `Tensor`; scalar unless `reduction` is `NONE`.

    Raises:
      ValueError: If the shapes don't match, `weights` has an invalid shape, or an input is None.
    """
    from ..ops import math_ops
    _check_not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "mean_squared_error", (predictions, labels, weights)) as scope:
        labels, predictions = _cast_pair(labels, predictions)
        losses = math_ops.squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=ops.GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Creates a cross-entropy loss using `tf.nn.sigmoid_cross_entropy_with_logits`.

    With `label_smoothing > 0` the labels become `labels * (1 - label_smoothing) + 0.5 * label_smoothing`.

    Args:
      multi_class_labels: `[batch_size, num_classes]` target integer labels in `{0, 1}`.
      logits: Float `[batch_size, num_classes]` logits outputs of the network.
      weights: Optional `Tensor` broadcastable to the losses.
      label_smoothing: If greater than `0` then smooth the labels.
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which the loss will be added.
      reduction: Type of reduction to apply to loss.

    Returns:
      Weighted loss `Tensor` of the same type as `logits`; scalar unless `reduction` is `NONE`.

    Raises:
      ValueError: If the shapes don't match, `weights` has an invalid shape, or an input is None.
    """
    from ..ops import math_ops, nn_ops
    _check_not_none(multi_class_labels=multi_class_labels, logits=logits)
    with ops.name_scope(scope, "sigmoid_cross_entropy_loss", (logits, multi_class_labels, weights)) as scope:
        logits = ops.convert_to_tensor(logits)
        multi_class_labels = math_ops.cast(multi_class_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(multi_class_labels.shape)
        if label_smoothing > 0:
            multi_class_labels = math_ops.add(math_ops.multiply(multi_class_labels, 1 - label_smoothing),
                                              0.5 * label_smoothing)
        losses = nn_ops.sigmoid_cross_entropy_with_logits(labels=multi_class_labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=ops.GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Creates a cross-entropy loss using `tf.nn.softmax_cross_entropy_with_logits_v2` (no gradient
    flows into the labels).

    With `label_smoothing > 0` the labels become
    `onehot_labels * (1 - label_smoothing) + label_smoothing / num_classes`.

    Args:
      onehot_labels: One-hot-encoded labels, `[batch_size, num_classes]`.
      logits: Logits outputs of the network, `[batch_size, num_classes]`.
      weights: Optional `Tensor` broadcastable to the `[batch_size]` losses.
      label_smoothing: If greater than 0 then smooth the labels.
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which the loss will be added.
      reduction: Type of reduction to apply to loss.

    Returns:
      Weighted loss `Tensor` of the same type as `logits`; scalar unless `reduction` is `NONE`.

    Raises:
      ValueError: If the shapes don't match, `weights` has an invalid shape, or an input is None.
    """
    from ..ops import array_ops, core_ops, math_ops, nn_ops
    _check_not_none(onehot_labels=onehot_labels, logits=logits)
    with ops.name_scope(scope, "softmax_cross_entropy_loss", (logits, onehot_labels, weights)) as scope:
        logits = ops.convert_to_tensor(logits)
        onehot_labels = math_ops.cast(onehot_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(onehot_labels.shape)
        if label_smoothing > 0:
            num_classes = math_ops.cast(array_ops.shape(onehot_labels)[-1], logits.dtype)
            smooth_positives = 1.0 - label_smoothing
            smooth_negatives = label_smoothing / num_classes  # the Python number takes num_classes' dtype
            onehot_labels = math_ops.add(math_ops.multiply(onehot_labels, smooth_positives), smooth_negatives)
        onehot_labels = core_ops.stop_gradient(onehot_labels, name="labels_stop_gradient")
        losses = nn_ops.softmax_cross_entropy_with_logits_v2(labels=onehot_labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def _remove_squeezable_dimensions(labels, predictions, weights=None, expected_rank_diff=0):
    """Squeezes a trailing size-1 dimension of `labels` or `predictions` (and of `weights`) so
    that `rank(predictions) - rank(labels) == expected_rank_diff`, using static ranks."""
    from ..ops import array_ops
    labels = ops.convert_to_tensor(labels)
    predictions = ops.convert_to_tensor(predictions)
    p_shape, l_shape = predictions.shape, labels.shape
    if p_shape.ndims is not None and l_shape.ndims is not None:
        rank_diff = p_shape.ndims - l_shape.ndims
        if rank_diff == expected_rank_diff + 1 and p_shape[-1].is_compatible_with(1):
            predictions = array_ops.squeeze(predictions, [-1])
        elif rank_diff == expected_rank_diff - 1 and l_shape[-1].is_compatible_with(1):
            labels = array_ops.squeeze(labels, [-1])
    if weights is None:
        return labels, predictions, weights
    weights = ops.convert_to_tensor(weights)
    if labels.shape.ndims is not None and weights.shape.ndims is not None:
        if weights.shape.ndims - labels.shape.ndims == 1:
            weights = array_ops.squeeze(weights, [-1])
    return labels, predictions, weights


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None, loss_collection=ops.GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Cross-entropy loss using `tf.nn.sparse_softmax_cross_entropy_with_logits`.

    Args:
      labels: `Tensor` of shape `[d_0, d_1, ..., d_{r-1}]` (where `r` is rank of `labels` and
        result) and dtype `int32` or `int64`, each entry in `[0, num_classes)`; a trailing
        dimension of size 1 is squeezed.
      logits: Unscaled log probabilities of shape `[d_0, d_1, ..., d_{r-1}, num_classes]`.
      weights: Coefficients for the loss, broadcastable to `labels`.
      scope: The scope for the operations performed in computing the loss.
      loss_collection: Collection to which the loss will be added.
      reduction: Type of reduction to apply to loss.

    Returns:
      Weighted loss `Tensor` of the same type as `logits`; scalar unless `reduction` is `NONE`.

    Raises:
      ValueError: If the shapes of `logits`, `labels`, and `weights` are incompatible, or an
        input is None.
    """
    from ..ops import nn_ops
    _check_not_none(labels=labels, logits=logits)
    with ops.name_scope(scope, "sparse_softmax_cross_entropy_loss", (logits, labels, weights)) as scope:
        labels, logits, weights = _remove_squeezable_dimensions(labels, logits, weights, expected_rank_diff=1)
        losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


