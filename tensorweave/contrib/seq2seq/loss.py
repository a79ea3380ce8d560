"""`tf.contrib.seq2seq.sequence_loss`: the weighted cross-entropy of a sequence of logits (TF 1.15's
`loss.py`)."""

from ...framework import ops
from ...ops import array_ops, math_ops, nn_ops

__all__ = ["sequence_loss"]


def sequence_loss(logits, targets, weights, average_across_timesteps=True, average_across_batch=True,
                  sum_over_timesteps=False, sum_over_batch=False, softmax_loss_function=None, name=None):
    """Weighted cross-entropy loss for a sequence of logits.

    Depending on the values of `average_across_timesteps` / `sum_over_timesteps` and
    `average_across_batch` / `sum_over_batch`, the return Tensor has rank 0, 1, or 2 as these
    arguments reduce the cross-entropy at each target, which has shape `[batch_size,
    sequence_length]`, over their respective dimensions. "Average" divides by the sum of the
    weights, "sum" by the number of non-zero weights (both give 0 where the divisor is 0).

    Args:
      logits: A float `Tensor` `[batch_size, sequence_length, num_decoder_symbols]`.
      targets: An int `Tensor` `[batch_size, sequence_length]`: the true classes.
      weights: A float `Tensor` `[batch_size, sequence_length]`: the weight of each prediction
        (a padding mask of 0s and 1s for sequences of different lengths).
      average_across_timesteps: Average the loss over the time dimension.
      average_across_batch: Average the loss over the batch dimension.
      sum_over_timesteps: Sum over time, divided by the number of non-zero weights.
      sum_over_batch: Sum over the batch, divided by the number of non-zero weights.
      softmax_loss_function: Function `(labels, logits) -> loss-batch` used instead of the
        sparse softmax cross-entropy; it receives `labels` `[batch_size * sequence_length]` and
        `logits` `[batch_size * sequence_length, num_classes]`.
      name: Name scope of the operations (default "sequence_loss").

    Returns:
      A float `Tensor` of rank 0, 1 or 2: the (weighted, reduced) cross-entropy.

    Raises:
      ValueError: If `logits` does not have rank 3, `targets` or `weights` rank 2, or both an
        average and a sum are asked over the same dimension.
    """
    logits = ops.convert_to_tensor(logits)
    targets = ops.convert_to_tensor(targets)
    weights = ops.convert_to_tensor(weights)
    if logits.shape.ndims != 3:
        raise ValueError("Logits must be a [batch_size x sequence_length x num_decoder_symbols] tensor")
    if targets.shape.ndims != 2:
        raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
    if weights.shape.ndims != 2:
        raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same time.")
    with ops.name_scope(name, "sequence_loss", [logits, targets, weights]):
        num_classes = array_ops.shape(logits)[2]
        logits_flat = array_ops.reshape(logits, [-1, num_classes])
        targets = array_ops.reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits_flat)
        else:
            crossent = softmax_loss_function(labels=targets, logits=logits_flat)
        crossent *= array_ops.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            crossent = math_ops.reduce_sum(crossent)
            total_size = math_ops.reduce_sum(weights)
            crossent = math_ops.div_no_nan(crossent, total_size)
        elif sum_over_timesteps and sum_over_batch:
            crossent = math_ops.reduce_sum(crossent)
            total_count = math_ops.cast(math_ops.count_nonzero(weights), crossent.dtype)
            crossent = math_ops.div_no_nan(crossent, total_count)
        else:
            crossent = array_ops.reshape(crossent, array_ops.shape(logits)[0:2])
            if average_across_timesteps or average_across_batch:
                reduce_axis = [0] if average_across_batch else [1]
                crossent = math_ops.reduce_sum(crossent, axis=reduce_axis)
                total_size = math_ops.reduce_sum(weights, axis=reduce_axis)
                crossent = math_ops.div_no_nan(crossent, total_size)
            elif sum_over_timesteps or sum_over_batch:
                reduce_axis = [0] if sum_over_batch else [1]
                crossent = math_ops.reduce_sum(crossent, axis=reduce_axis)
                total_count = math_ops.cast(math_ops.count_nonzero(weights, axis=reduce_axis), dtype=crossent.dtype)
                crossent = math_ops.div_no_nan(crossent, total_count)
        return crossent
