"""`tf.contrib.losses` (= `tf.contrib.slim.losses`): TF 1.15's deprecated loss functions.

They differ from `tf.losses` in argument order (`logits`/`predictions` first) and in how
`weights` broadcast: a `weights` tensor of shape `[batch_size, d1, ... dK]` applies to the
leading dimensions of the per-element losses (tiled over the trailing ones), and the weighted sum
is divided by the number of elements with a non-zero weight. Every loss but `hinge_loss` is also
added to `GraphKeys.LOSSES`.
"""

from ...framework import dtypes as _dtypes
from ...framework import ops as _ops

__all__ = ["absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance", "get_losses",
           "get_regularization_losses", "get_total_loss", "hinge_loss", "log_loss", "mean_pairwise_squared_error",
           "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy"]


def _m():
    from ...ops import array_ops, core_ops, math_ops
    return array_ops, core_ops, math_ops


def _expand_weights(losses, weights):
    """`weights` reshaped to broadcast over the trailing dimensions of `losses`."""
    array_ops, _, _ = _m()
    extra = losses.get_shape().ndims - weights.get_shape().ndims
    if weights.get_shape().ndims == 0 or extra <= 0:
        return weights
    return array_ops.reshape(weights, array_ops.concat([array_ops.shape(weights), [1] * extra], 0))


def _num_present(losses, weights, per_batch=False):
    """The number of loss elements with a non-zero (tiled) weight, per batch entry or in total."""
    array_ops, core_ops, math_ops = _m()
    present = math_ops.cast(math_ops.not_equal(_expand_weights(losses, weights), 0), _dtypes.float32)
    present = present * core_ops.ones_like(losses)
    if per_batch:
        return math_ops.reduce_sum(present, axis=list(range(1, losses.get_shape().ndims)))
    return math_ops.reduce_sum(present)


def _scale_losses(losses, weights):
    _, _, math_ops = _m()
    return math_ops.reduce_sum(losses * _expand_weights(losses, weights))


def add_loss(loss, loss_collection=_ops.GraphKeys.LOSSES):
    """Adds an externally defined loss to the collection of losses.

    Args:
      loss: A loss `Tensor`.
      loss_collection: Optional collection to add the loss to.
    """
    if loss_collection:
        _ops.add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection=_ops.GraphKeys.LOSSES):
    """Gets the list of losses from the loss_collection.

    Args:
      scope: an optional scope for filtering the losses to return.
      loss_collection: Optional losses collection.

    Returns:
      a list of loss tensors.
    """
    return _ops.get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    """Gets the regularization losses.

    Args:
      scope: an optional scope for filtering the losses to return.

    Returns:
      A list of regularization losses as Tensors.
    """
    return _ops.get_collection(_ops.GraphKeys.REGULARIZATION_LOSSES, scope)


def get_total_loss(add_regularization_losses=True, name="total_loss"):
    """Returns a tensor whose value represents the total loss (the sum of `get_losses()` and, if
    `add_regularization_losses`, of `get_regularization_losses()`).

    Args:
      add_regularization_losses: A boolean indicating whether or not to use the regularization
        losses in the sum.
      name: The name of the returned tensor.

    Returns:
      A `Tensor` whose value represents the total loss.

    Raises:
      ValueError: if `losses` is not iterable.
    """
    from ...ops.core_ops import add_n
    losses = get_losses()
    if add_regularization_losses:
        losses += get_regularization_losses()
    return add_n(losses, name=name)


def compute_weighted_loss(losses, weights=1.0, scope=None):
    """Computes the weighted loss: `sum(losses * weights) / (number of non-zero weighted
    elements)` (0 when there are none), added to the LOSSES collection.

    Args:
      losses: A tensor of size [batch_size, d1, ... dN].
      weights: A tensor of size [1] or [batch_size, d1, ... dK] where K < N.
      scope: the scope for the operations performed in computing the loss.

    Returns:
      A scalar `Tensor` that returns the weighted loss.

    Raises:
      ValueError: If `weights` is `None` or the shape is not compatible with `losses`, or if the
        number of dimensions (rank) of either `losses` or `weights` is missing.
    """
    array_ops, _, math_ops = _m()
    if weights is None:
        raise ValueError("`weights` cannot be None.")
    with _ops.name_scope(scope, "weighted_loss", [losses, weights]):
        losses = _ops.convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = math_ops.cast(losses, _dtypes.float32)
        weights = math_ops.cast(_ops.convert_to_tensor(weights), _dtypes.float32)
        if losses.get_shape().ndims is None:
            raise ValueError("losses.get_shape().ndims cannot be None")
        weights_shape = weights.get_shape()
        if weights_shape.ndims is None:
            raise ValueError("weights.get_shape().ndims cannot be None")
        if weights_shape.ndims > 1 and weights_shape.dims[-1].is_compatible_with(1):
            weights = array_ops.squeeze(weights, [-1])
        total_loss = _scale_losses(losses, weights)
        num_present = _num_present(losses, weights)
        mean_loss = math_ops.div_no_nan(total_loss, num_present, name="value")
        mean_loss = math_ops.cast(mean_loss, input_dtype)
        add_loss(mean_loss)
        return mean_loss


def _prep(predictions, labels, weights):
    _, _, math_ops = _m()
    predictions = _ops.convert_to_tensor(predictions)
    labels = _ops.convert_to_tensor(labels)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    return (math_ops.cast(predictions, _dtypes.float32), math_ops.cast(labels, _dtypes.float32),
            weights)


def absolute_difference(predictions, labels=None, weights=1.0, scope=None):
    """Adds an Absolute Difference loss `|predictions - labels|` to the training procedure.

    Args:
      predictions: The predicted outputs.
      labels: The ground truth output tensor, same dimensions as 'predictions'.
      weights: Coefficients for the loss a scalar, a tensor of shape [batch_size] or a tensor
        whose shape matches `predictions`.
      scope: The scope for the operations performed in computing the loss.

    Returns:
      A scalar `Tensor` representing the loss value.

    Raises:
      ValueError: If the shape of `predictions` doesn't match that of `labels` or if the shape of
        `weights` is invalid.
    """
    _, _, math_ops = _m()
    with _ops.name_scope(scope, "absolute_difference", [predictions, labels, weights]) as scope:
        predictions, labels, weights = _prep(predictions, labels, weights)
        losses = math_ops.abs(math_ops.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, scope=scope)


def sigmoid_cross_entropy(logits, multi_class_labels, weights=1.0, label_smoothing=0, scope=None):
    """Creates a cross-entropy loss using `tf.nn.sigmoid_cross_entropy_with_logits`.

    With `label_smoothing` the labels become
    `multi_class_labels * (1 - label_smoothing) + 0.5 * label_smoothing`.

    Args:
      logits: [batch_size, num_classes] logits outputs of the network .
      multi_class_labels: [batch_size, num_classes] labels in (0, 1).
      weights: Coefficients for the loss. The tensor must be a scalar, a tensor of shape
        [batch_size] or shape [batch_size, num_classes].
      label_smoothing: If greater than 0 then smooth the labels.
      scope: The scope for the operations performed in computing the loss.

    Returns:
      A scalar `Tensor` representing the loss value.

    Raises:
      ValueError: If the shape of `logits` doesn't match that of `multi_class_labels` or if the
        shape of `weights` is invalid, or if `weights` is None.
    """
    from ... import nn
    _, _, math_ops = _m()
    with _ops.name_scope(scope, "sigmoid_cross_entropy_loss", [logits, multi_class_labels, weights]) as scope:
        logits = _ops.convert_to_tensor(logits)
        multi_class_labels = math_ops.cast(multi_class_labels, logits.dtype)
        logits.get_shape().assert_is_compatible_with(multi_class_labels.get_shape())
        if label_smoothing > 0:
            multi_class_labels = multi_class_labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = nn.sigmoid_cross_entropy_with_logits(labels=multi_class_labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope=scope)


def softmax_cross_entropy(logits, onehot_labels, weights=1.0, label_smoothing=0, scope=None):
    """Creates a cross-entropy loss using `tf.nn.softmax_cross_entropy_with_logits`.

    With `label_smoothing` the labels become
    `onehot_labels * (1 - label_smoothing) + label_smoothing / num_classes`.

    Args:
      logits: [batch_size, num_classes] logits outputs of the network .
      onehot_labels: [batch_size, num_classes] one-hot-encoded labels.
      weights: Coefficients for the loss. The tensor must be a scalar or a tensor of shape
        [batch_size].
      label_smoothing: If greater than 0 then smooth the labels.
      scope: the scope for the operations performed in computing the loss.

    Returns:
      A scalar `Tensor` representing the mean loss value.

    Raises:
      ValueError: If the shape of `logits` doesn't match that of `onehot_labels` or if the shape
        of `weights` is invalid or if `weights` is None.
    """
    from ... import nn
    array_ops, _, math_ops = _m()
    with _ops.name_scope(scope, "softmax_cross_entropy_loss", [logits, onehot_labels, weights]) as scope:
        logits = _ops.convert_to_tensor(logits)
        onehot_labels = math_ops.cast(onehot_labels, logits.dtype)
        logits.get_shape().assert_is_compatible_with(onehot_labels.get_shape())
        if label_smoothing > 0:
            num_classes = math_ops.cast(array_ops.shape(onehot_labels)[1], logits.dtype)
            onehot_labels = onehot_labels * (1.0 - label_smoothing) + label_smoothing / num_classes
        losses = nn.softmax_cross_entropy_with_logits_v2(labels=onehot_labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope=scope)


def sparse_softmax_cross_entropy(logits, labels, weights=1.0, scope=None):
    """Cross-entropy loss using `tf.nn.sparse_softmax_cross_entropy_with_logits`.

    Args:
      logits: [batch_size, num_classes] logits outputs of the network .
      labels: [batch_size, 1] or [batch_size] labels of dtype `int32` or `int64` in the range
        `[0, num_classes)`.
      weights: Coefficients for the loss. The tensor must be a scalar or a tensor of shape
        [batch_size] or [batch_size, 1].
      scope: the scope for the operations performed in computing the loss.

    Returns:
      A scalar `Tensor` representing the mean loss value.

    Raises:
      ValueError: If the shapes of `logits`, `labels`, and `weights` are incompatible, or if
        `weights` is None.
    """
    from ... import nn
    array_ops, _, _ = _m()
    with _ops.name_scope(scope, "sparse_softmax_cross_entropy_loss", [logits, labels, weights]) as scope:
        labels = _ops.convert_to_tensor(labels)
        labels = array_ops.reshape(labels, shape=[array_ops.shape(labels)[0]])
        losses = nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope=scope)


def log_loss(predictions, labels=None, weights=1.0, epsilon=1e-7, scope=None):
    """Adds a Log Loss term `-labels * log(p + eps) - (1 - labels) * log(1 - p + eps)`.

    Args:
      predictions: The predicted outputs.
      labels: The ground truth output tensor, same dimensions as 'predictions'.
      weights: Coefficients for the loss a scalar, a tensor of shape [batch_size] or a tensor
        whose shape matches `predictions`.
      epsilon: A small increment to add to avoid taking a log of zero.
      scope: The scope for the operations performed in computing the loss.

    Returns:
      A scalar `Tensor` representing the loss value.

    Raises:
      ValueError: If the shape of `predictions` doesn't match that of `labels` or if the shape of
        `weights` is invalid.
    """
    _, _, math_ops = _m()
    with _ops.name_scope(scope, "log_loss", [predictions, labels, weights]) as scope:
        predictions, labels, weights = _prep(predictions, labels, weights)
        losses = -math_ops.multiply(labels, math_ops.log(predictions + epsilon)) - math_ops.multiply(
            (1 - labels), math_ops.log(1 - predictions + epsilon))
        return compute_weighted_loss(losses, weights, scope=scope)


def hinge_loss(logits, labels=None, scope=None):
    """Method that returns the (unreduced, not collected) hinge loss `relu(1 - (2 * labels - 1) *
    logits)`.

    Args:
      logits: The logits, a float tensor. A value > 0 (resp. < 0) is considered a positive (resp.
        negative) binary prediction.
      labels: The ground truth output tensor, 0.0 or 1.0, same shape as `logits`.
      scope: The scope for the operations performed in computing the loss.

    Returns:
      An unweighted `Tensor` of same shape as `logits` and `labels` representing the loss values
      across the batch.

    Raises:
      ValueError: If the shapes of `logits` and `labels` don't match.
    """
    from ... import nn
    _, core_ops, math_ops = _m()
    with _ops.name_scope(scope, "hinge_loss", [logits, labels]):
        logits = _ops.convert_to_tensor(logits)
        labels = _ops.convert_to_tensor(labels)
        logits.get_shape().assert_is_compatible_with(labels.get_shape())
        labels = math_ops.cast(labels, _dtypes.float32)
        all_ones = core_ops.ones_like(labels)
        labels = math_ops.subtract(2 * labels, all_ones)
        return nn.relu(math_ops.subtract(all_ones, math_ops.multiply(labels, logits)))


def mean_squared_error(predictions, labels=None, weights=1.0, scope=None):
    """Adds a Sum-of-Squares loss `(predictions - labels) ** 2` to the training procedure.

    Args:
      predictions: The predicted outputs.
      labels: The ground truth output tensor, same dimensions as 'predictions'.
      weights: Coefficients for the loss a scalar, a tensor of shape [batch_size] or a tensor
        whose shape matches `predictions`.
      scope: The scope for the operations performed in computing the loss.

    Returns:
      A scalar `Tensor` representing the loss value.

    Raises:
      ValueError: If the shape of `predictions` doesn't match that of `labels` or if the shape of
        `weights` is invalid.
    """
    _, _, math_ops = _m()
    with _ops.name_scope(scope, "mean_squared_error", [predictions, labels, weights]) as scope:
        predictions, labels, weights = _prep(predictions, labels, weights)
        losses = math_ops.square(math_ops.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, scope=scope)


def mean_pairwise_squared_error(predictions, labels=None, weights=1.0, scope=None):
    """Adds a pairwise-errors-squared loss: for each batch entry, the mean over pairs (i, j) of
    `((predictions[i] - predictions[j]) - (labels[i] - labels[j])) ** 2`, weighted per entry.

    Args:
      predictions: The predicted outputs, a tensor of size [batch_size, d0, .. dN] where N+1 is
        the total number of dimensions in `predictions`.
      labels: The ground truth output tensor, whose shape must match the shape of the
        `predictions` tensor.
      weights: Coefficients for the loss a scalar, a tensor of shape [batch_size] or a tensor
        whose shape matches `predictions`.
      scope: The scope for the operations performed in computing the loss.

    Returns:
      A scalar `Tensor` representing the loss value.

    Raises:
      ValueError: If the shape of `predictions` doesn't match that of `labels` or if the shape of
        `weights` is invalid.
    """
    array_ops, core_ops, math_ops = _m()
    with _ops.name_scope(scope, "mean_pairwise_squared_error", [predictions, labels, weights]):
        predictions, labels, _ = _prep(predictions, labels, weights)
        weights = math_ops.cast(_ops.convert_to_tensor(weights), _dtypes.float32)
        diffs = math_ops.subtract(predictions, labels)
        if diffs.get_shape().ndims is None:
            raise ValueError("diffs.get_shape().ndims cannot be None")
        if weights.get_shape().ndims is None:
            raise ValueError("weights.get_shape().ndims cannot be None")
        axis = list(range(1, diffs.get_shape().ndims))
        sum_squares_diff_per_batch = math_ops.reduce_sum(math_ops.square(diffs), axis=axis)
        num_present_per_batch = _num_present(diffs, weights, per_batch=True)
        term1 = 2.0 * math_ops.div_no_nan(sum_squares_diff_per_batch, num_present_per_batch, name="value")
        sum_diff = math_ops.reduce_sum(diffs, axis=axis)
        term2 = 2.0 * math_ops.div_no_nan(math_ops.square(sum_diff), math_ops.square(num_present_per_batch),
                                          name="value")
        loss = _scale_losses(term1 - term2, weights)
        mean_loss = array_ops.where(math_ops.reduce_sum(num_present_per_batch) > 0, loss,
                                    core_ops.zeros_like(loss), name="value")
        add_loss(mean_loss)
        return mean_loss


def cosine_distance(predictions, labels=None, axis=None, weights=1.0, scope=None, dim=None):
    """Adds a cosine-distance loss `1 - sum(predictions * labels, axis)` (inputs assumed
    unit-normalized).

    Args:
      predictions: An arbitrary matrix.
      labels: A `Tensor` whose shape matches 'predictions'
      axis: The dimension along which the cosine distance is computed.
      weights: Coefficients for the loss a scalar, a tensor of shape [batch_size] or a tensor
        whose shape matches `predictions`.
      scope: The scope for the operations performed in computing the loss.
      dim: The old (deprecated) name for `axis`.

    Returns:
      A scalar `Tensor` representing the loss value.

    Raises:
      ValueError: If `predictions` shape doesn't match `labels` shape, or `weights` is `None`, or
        neither `axis` nor `dim` is given (or both).
    """
    _, _, math_ops = _m()
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'")
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("You must specify 'axis'.")
    with _ops.name_scope(scope, "cosine_distance_loss", [predictions, labels, weights]) as scope:
        predictions, labels, weights = _prep(predictions, labels, weights)
        radial_diffs = math_ops.multiply(predictions, labels)
        losses = 1 - math_ops.reduce_sum(radial_diffs, axis=[axis])
        return compute_weighted_loss(losses, weights, scope=scope)
