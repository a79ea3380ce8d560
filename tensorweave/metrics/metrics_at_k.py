"""`tf.metrics` at-k metrics, `mean_cosine_distance` and sensitivity/specificity, as TF 1.x's
`metrics_impl`.

The at-k metrics compare, row by row (`[D1, ... DN]`), the top `k` predicted class ids with the label
ids through `tf.sets` over the last dimension: true positives are `|top_k ∩ labels|`, false positives
`|top_k - labels|` and false negatives `|labels - top_k|`. Their weighted sums accumulate in float64
local variables (in the LOCAL_VARIABLES and METRIC_VARIABLES collections), so a metric with nothing
counted is `0 / 0 = NaN`, as in TF.
"""

from .. import variable_scopes as vs
from ..framework import dtypes, ops
from ..framework.sparse_tensor import SparseTensor
from ..ops import array_ops, control_flow_ops, core_ops, math_ops, set_ops, sparse_core_ops, state_ops
from ..ops.logging_ops import Assert
from .metrics_impl import (
    _add_to_collections,
    _check_graph_mode,
    _confusion_matrix_at_thresholds,
    _remove_squeezable_dimensions,
    mean,
    metric_variable,
)

__all__ = ["average_precision_at_k", "mean_cosine_distance", "precision_at_k", "precision_at_top_k", "recall_at_k",
           "recall_at_top_k", "sensitivity_at_specificity", "sparse_average_precision_at_k",
           "sparse_precision_at_k", "specificity_at_sensitivity"]

_BROADCAST_ERROR = "weights can not be broadcast to values."


# ---- helpers ----------------------------------------------------------------------------------------
def _to_tensor_or_sparse(x):
    return sparse_core_ops.convert_to_tensor_or_sparse_tensor(x)


def _at_k_name(name, k=None, class_id=None):
    name = "%s_at_%d" % (name, k) if k is not None else "%s_at_k" % name
    if class_id is not None:
        name = "%s_class%d" % (name, class_id)
    return name


def _assert_broadcastable(weights, values):
    """TF's `weights_broadcast_ops.assert_broadcastable` where `values`' shape is only known at run time
    (set sizes): weights must be a scalar, or of `values`' rank with each dimension 1 or equal.

    Returns:
      A list of control inputs: an `Assert` raising InvalidArgumentError when run with bad shapes.
    """
    if weights.shape.ndims == 0:
        return []
    with ops.name_scope(None, "assert_broadcastable", (weights, values)):
        w_shape = core_ops.shape(weights, name="weights/shape")
        v_shape = core_ops.shape(values, name="values/shape")
        w_rank = array_ops.rank(weights)
        v_rank = array_ops.rank(values)
        is_scalar = math_ops.equal(0, w_rank, name="is_scalar")

        def _dims_ok():
            return math_ops.reduce_all(math_ops.logical_or(math_ops.equal(w_shape, 1),
                                                           math_ops.equal(w_shape, v_shape)))

        same_rank = math_ops.equal(w_rank, v_rank)
        valid = control_flow_ops.cond(
            is_scalar, lambda: is_scalar,
            lambda: control_flow_ops.cond(same_rank, _dims_ok, lambda: same_rank))
        return [Assert(valid, [_BROADCAST_ERROR, "weights.shape=", weights.name, w_shape, "values.shape=",
                               values.name, v_shape, "is_scalar=", is_scalar], name="assert")]


def _maybe_expand_labels(labels, predictions):
    """`labels` of shape [D1, ... DN] get a trailing dimension of 1 to have `predictions`' rank."""
    with ops.name_scope(None, "expand_labels", (labels, predictions)) as scope:
        labels = _to_tensor_or_sparse(labels)
        p_rank = predictions.shape.ndims
        if isinstance(labels, SparseTensor):
            l_rank = labels.dense_shape.shape.as_list()[0] if labels.dense_shape.shape.ndims == 1 else None
            if p_rank is not None and l_rank is not None:
                if p_rank != l_rank + 1:
                    return labels
                new_shape = array_ops.concat((labels.dense_shape, [1]), 0)
            else:
                new_shape = control_flow_ops.cond(
                    math_ops.equal(array_ops.rank(predictions), array_ops.size(labels.dense_shape) + 1),
                    lambda: array_ops.concat((labels.dense_shape, ops.convert_to_tensor([1], dtypes.int64)), 0),
                    lambda: labels.dense_shape)
            return sparse_core_ops.sparse_reshape(labels, new_shape, name=scope)
        l_rank = labels.shape.ndims
        if l_rank is not None and p_rank is not None:
            if p_rank == l_rank:
                return labels
            if p_rank == l_rank + 1:
                return array_ops.expand_dims(labels, -1, name=scope)
            raise ValueError("Unexpected labels shape %s for predictions shape %s. Predictions rank should be the "
                             "same rank as labels rank or labels rank plus one ." % (labels.shape, predictions.shape))
        return control_flow_ops.cond(
            math_ops.equal(array_ops.rank(predictions), array_ops.rank(labels) + 1),
            lambda: array_ops.expand_dims(labels, -1, name=scope), lambda: labels)


def _select_class_id(ids, selected_id):
    """A `SparseTensor` shaped like `ids` holding only its entries equal to `selected_id`."""
    ids = _to_tensor_or_sparse(ids)
    if isinstance(ids, SparseTensor):
        return sparse_core_ops.sparse_retain(ids, math_ops.equal(ids.values, selected_id))
    ids_shape = core_ops.shape(ids, out_type=dtypes.int64)
    filled_shape = array_ops.concat((ids_shape[:-1], ops.convert_to_tensor([1], dtypes.int64)), 0)
    filled = array_ops.fill(filled_shape, math_ops.cast(selected_id, dtypes.int64))
    result = set_ops.set_intersection(filled, ids)
    return SparseTensor(result.indices, result.values, ids_shape)


def _maybe_select_class_id(labels, predictions_idx, selected_id=None):
    if selected_id is None:
        return labels, predictions_idx
    return _select_class_id(labels, selected_id), _select_class_id(predictions_idx, selected_id)


def _sparse_count_at_k(kind, labels, predictions_idx, class_id=None, weights=None, name=None):
    """Per-row weighted float64 counts: "tp" `|pred ∩ labels|`, "fp" `|pred - labels|`, "fn" `|labels - pred|`."""
    default = {"tp": "true_positives", "fp": "false_positives", "fn": "false_negatives"}[kind]
    with ops.name_scope(name, default, (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        if kind == "tp":
            sets = set_ops.set_intersection(predictions_idx, labels)
        else:
            sets = set_ops.set_difference(predictions_idx, labels, aminusb=(kind == "fp"))
        count = math_ops.cast(set_ops.set_size(sets), dtypes.float64)
        if weights is not None:
            weights = ops.convert_to_tensor(weights)
            with ops.control_dependencies(_assert_broadcastable(weights, count)):
                count = math_ops.multiply(count, math_ops.cast(weights, dtypes.float64))
        return count


def _streaming_count_at_k(kind, labels, predictions_idx, k=None, class_id=None, weights=None):
    """A float64 local variable named `<kind>_at_<k>[_class<id>]` and the op adding one batch's total to it."""
    base = {"tp": "true_positive", "fp": "false_positive", "fn": "false_negative"}[kind]
    with ops.name_scope(None, _at_k_name(base, k, class_id=class_id), (predictions_idx, labels, weights)) as scope:
        count = _sparse_count_at_k(kind, labels, predictions_idx, class_id=class_id, weights=weights)
        batch_total = math_ops.cast(math_ops.reduce_sum(count), dtypes.float64)
        var = metric_variable([], dtypes.float64, name=scope)
        return var, state_ops.assign_add(var, batch_total, name="update")


def _ratio_at_top_k(metric, other, labels, predictions_idx, k, class_id, weights, metrics_collections,
                    updates_collections, name):
    """tp / (tp + other) for precision (other "fp") and recall (other "fn") of top-k class ids."""
    with ops.name_scope(name, _at_k_name(metric, k, class_id=class_id), (predictions_idx, labels, weights)) as scope:
        predictions_idx = ops.convert_to_tensor(predictions_idx)
        labels = _maybe_expand_labels(labels, predictions_idx)
        top_k_idx = math_ops.cast(predictions_idx, dtypes.int64)
        tp, tp_update = _streaming_count_at_k("tp", labels, top_k_idx, k=k, class_id=class_id, weights=weights)
        oc, oc_update = _streaming_count_at_k(other, labels, top_k_idx, k=k, class_id=class_id, weights=weights)
        value = math_ops.divide(tp, math_ops.add(tp, oc), name=scope)
        update = math_ops.divide(tp_update, math_ops.add(tp_update, oc_update), name="update")
        _add_to_collections(metrics_collections, value)
        _add_to_collections(updates_collections, update)
        return value, update


_AT_K_ARGS = """
    Args:
      labels: `int64` `Tensor` or `SparseTensor` of shape [D1, ... DN, num_labels] or [D1, ... DN] (then
        num_labels=1), N >= 1; [D1, ... DN] must match the predictions'.
      {pred}
      k: Integer, k for @k metric{k_note}.
      class_id: Optional integer class id for binary metrics of that class only (NaN when it never
        occurs).
      weights: Optional `Tensor` of rank 0 or N, broadcastable to [D1, ... DN] (checked at run time).
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Name scope of the metric (default `{default}_at_<k>[_class<class_id>]`).

    Returns:
      `({default}, update_op)`: float64 scalars.

    Raises:
      ValueError: If the ranks of `labels` and the predictions do not fit.
      TypeError: If `labels` is not int64.
      InvalidArgumentError: When run, if `weights` cannot be broadcast to [D1, ... DN].
"""
_LOGITS = ("predictions: Float `Tensor` of shape [D1, ... DN, num_classes]: class scores, of which the `k` "
           "largest\n        (lower index first among equals) are the predicted classes.")
_IDS = ("predictions_idx: Integer `Tensor` of shape [D1, ... DN, k]: the top `k` predicted class ids.")


# ---- precision / recall at k ------------------------------------------------------------------------
def precision_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    _check_graph_mode("precision_at_top_k")
    return _ratio_at_top_k("precision", "fp", labels, predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


precision_at_top_k.__doc__ = """Precision@k of top-k class ids: the weighted fraction of predicted ids that are labels.

    Creates the float64 local variables `true_positive_at_<k>` and `false_positive_at_<k>`; label ids
    that are never predicted (out of range ones included) do not count.
""" + _AT_K_ARGS.format(pred=_IDS, k_note=" (only used in the default name)", default="precision") + """
      RuntimeError: If eager execution is enabled.
"""


def recall_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None, metrics_collections=None,
                    updates_collections=None, name=None):
    return _ratio_at_top_k("recall", "fn", labels, predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


recall_at_top_k.__doc__ = """Recall@k of top-k class ids: the weighted fraction of label ids among the predicted ids.

    Creates the float64 local variables `true_positive_at_<k>` and `false_negative_at_<k>`; label ids
    out of range always count as false negatives.
""" + _AT_K_ARGS.format(pred=_IDS, k_note=" (only used in the default name)", default="recall")


def _top_k_ids(predictions, k):
    _, idx = array_ops.top_k(predictions, k)
    return idx


def precision_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                   updates_collections=None, name=None):
    _check_graph_mode("sparse_precision_at_k")
    with ops.name_scope(name, _at_k_name("precision", k, class_id=class_id), (predictions, labels, weights)) as scope:
        return precision_at_top_k(labels, _top_k_ids(predictions, k), k=k, class_id=class_id, weights=weights,
                                  metrics_collections=metrics_collections, updates_collections=updates_collections,
                                  name=scope)


precision_at_k.__doc__ = """Precision@k of the predictions: how often a top-`k` class of a row is one of its labels.

    A `top_k` of `predictions` gives the predicted ids; see `precision_at_top_k`.
""" + _AT_K_ARGS.format(pred=_LOGITS, k_note="", default="precision") + """
      RuntimeError: If eager execution is enabled.
"""


def sparse_precision_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                          updates_collections=None, name=None):
    return precision_at_k(labels, predictions, k, class_id=class_id, weights=weights,
                          metrics_collections=metrics_collections, updates_collections=updates_collections, name=name)


sparse_precision_at_k.__doc__ = "Renamed to `precision_at_k` (deprecated), the same metric.\n" + _AT_K_ARGS.format(
    pred=_LOGITS, k_note="", default="precision") + """
      RuntimeError: If eager execution is enabled.
"""


def recall_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    _check_graph_mode("recall_at_k")
    with ops.name_scope(name, _at_k_name("recall", k, class_id=class_id), (predictions, labels, weights)) as scope:
        return recall_at_top_k(labels, _top_k_ids(predictions, k), k=k, class_id=class_id, weights=weights,
                               metrics_collections=metrics_collections, updates_collections=updates_collections,
                               name=scope)


recall_at_k.__doc__ = """Recall@k of the predictions: how often a label of a row is among its top-`k` classes.

    A `top_k` of `predictions` gives the predicted ids; see `recall_at_top_k`.
""" + _AT_K_ARGS.format(pred=_LOGITS, k_note="", default="recall") + """
      RuntimeError: If eager execution is enabled.
"""


# ---- average precision at k ---------------------------------------------------------------------------
def _expand_and_tile(tensor, multiple, dim=0, name=None):
    """Inserts a dimension before `dim` and tiles `multiple` times along it (dense or sparse)."""
    if multiple < 1:
        raise ValueError("Invalid argument multiple=%s for expand_and_tile  call. `multiple` must be an integer > 0"
                         % multiple)
    with ops.name_scope(name, "expand_and_tile", (tensor, multiple, dim)) as scope:
        tensor = _to_tensor_or_sparse(tensor)
        if isinstance(tensor, SparseTensor):
            if dim < 0:
                split = array_ops.reshape(array_ops.size(tensor.dense_shape) + dim, [1])
            else:
                split = [dim]
            expanded_shape = array_ops.concat(
                (array_ops.slice(tensor.dense_shape, [0], split), ops.convert_to_tensor([1], dtypes.int64),
                 array_ops.slice(tensor.dense_shape, split, [-1])), 0, name="expanded_shape")
            expanded = sparse_core_ops.sparse_reshape(tensor, expanded_shape, name="expand")
            if multiple == 1:
                return expanded
            return sparse_core_ops.sparse_concat(dim - 1 if dim < 0 else dim, [expanded] * multiple, name=scope)
        expanded = array_ops.expand_dims(tensor, dim if dim >= 0 else dim - 1, name="expand")
        if multiple == 1:
            return expanded
        ones = core_ops.ones_like(core_ops.shape(tensor))
        multiples = array_ops.concat((ones[:dim], (multiple,), ones[dim:]), 0, name="multiples")
        return array_ops.tile(expanded, multiples, name=scope)


def _num_relevant(labels, k):
    """min(k, number of labels of the row): all ids of a sparse row, the non-negative ones of a dense row."""
    if k < 1:
        raise ValueError("Invalid k=%s" % k)
    with ops.name_scope(None, "num_relevant", (labels,)) as scope:
        labels = _to_tensor_or_sparse(labels)
        if isinstance(labels, SparseTensor):
            return math_ops.minimum(set_ops.set_size(labels), k, name=scope)
        num_labels = math_ops.reduce_sum(
            array_ops.where_v2(math_ops.greater_equal(labels, 0), core_ops.ones_like(labels),
                               core_ops.zeros_like(labels)), axis=-1)
        return math_ops.minimum(num_labels, k, name=scope)


def _sparse_average_precision_at_top_k(labels, predictions_idx):
    """Per row: sum over i <= k of precision@i * rel_i, divided by the number of relevant labels."""
    with ops.name_scope(None, "average_precision", (predictions_idx, labels)) as scope:
        predictions_idx = math_ops.cast(predictions_idx, dtypes.int64, name="predictions_idx")
        if predictions_idx.shape.ndims == 0:
            raise ValueError("The rank of `predictions_idx` must be at least 1.")
        k = predictions_idx.shape.as_list()[-1] if predictions_idx.shape.ndims is not None else None
        if k is None:
            raise ValueError("The last dimension of predictions_idx must be set. Currently, it is None.")
        labels = _maybe_expand_labels(labels, predictions_idx)
        predictions_idx_per_k = array_ops.expand_dims(predictions_idx, -1, name="predictions_idx_per_k")
        labels_per_k = _expand_and_tile(labels, multiple=k, dim=-1, name="labels_per_k")
        relevant_per_k = _sparse_count_at_k("tp", labels_per_k, predictions_idx_per_k, name="relevant_per_k")
        tp_per_k = math_ops.cumsum(relevant_per_k, axis=-1, name="tp_per_k")
        retrieved_per_k = math_ops.cumsum(core_ops.ones_like(relevant_per_k), axis=-1, name="retrieved_per_k")
        precision_per_k = math_ops.divide(math_ops.cast(tp_per_k, dtypes.float64),
                                          math_ops.cast(retrieved_per_k, dtypes.float64), name="precision_per_k")
        relevant_precision_per_k = math_ops.multiply(precision_per_k, math_ops.cast(relevant_per_k, dtypes.float64),
                                                     name="relevant_precision_per_k")
        precision_sum = math_ops.reduce_sum(relevant_precision_per_k, axis=(-1,), name="precision_sum")
        num_relevant_items = math_ops.cast(_num_relevant(labels, k), dtypes.float64)
        return math_ops.divide(precision_sum, num_relevant_items, name=scope)


def _clean_out_of_range_indices(labels, num_classes):
    """Label ids >= `num_classes` become -1 (dense or sparse `labels`), where there are any (as TF, a `cond`)."""
    def clean(values):
        return array_ops.where_v2(math_ops.greater_equal(values, num_classes), -1 * core_ops.ones_like(values),
                                  values)
    values = labels.values if isinstance(labels, SparseTensor) else labels
    max_labels = math_ops.reduce_max(values)
    values = control_flow_ops.cond(math_ops.greater_equal(max_labels, num_classes), lambda: clean(values),
                                   lambda: values)
    if isinstance(labels, SparseTensor):
        return SparseTensor(labels.indices, values, labels.dense_shape)
    return values


def _streaming_sparse_average_precision_at_top_k(labels, predictions_idx, weights=None, metrics_collections=None,
                                                 updates_collections=None, name=None):
    with ops.name_scope(name, "average_precision_at_top_k", (predictions_idx, labels, weights)) as scope:
        average_precision = _sparse_average_precision_at_top_k(labels, predictions_idx)
        if weights is not None:
            weights = ops.convert_to_tensor(weights)
            with ops.name_scope(None, "broadcast_weights", (weights, average_precision)):
                with ops.control_dependencies(_assert_broadcastable(weights, average_precision)):
                    weights = math_ops.multiply(math_ops.cast(weights, dtypes.float64),
                                                core_ops.ones_like(average_precision))
            average_precision = math_ops.multiply(average_precision, weights)
        with ops.name_scope(None, "max", (average_precision,)) as max_scope:
            max_var = metric_variable([], dtypes.float64, name=max_scope)
            if weights is None:
                batch_max = math_ops.cast(array_ops.size(average_precision, name="batch_max"), dtypes.float64)
            else:
                batch_max = math_ops.reduce_sum(weights, name="batch_max")
            max_update = state_ops.assign_add(max_var, batch_max, name="update")
        with ops.name_scope(None, "total", (average_precision,)) as total_scope:
            total_var = metric_variable([], dtypes.float64, name=total_scope)
            batch_total = math_ops.reduce_sum(average_precision, name="batch_total")
            total_update = state_ops.assign_add(total_var, batch_total, name="update")
        value = math_ops.div_no_nan(total_var, max_var, name="mean")
        update = math_ops.div_no_nan(total_update, max_update, name=scope)
        _add_to_collections(metrics_collections, value)
        _add_to_collections(updates_collections, update)
        return value, update


def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None, updates_collections=None,
                           name=None):
    """Mean average precision@k of the predictions with respect to the labels.

    For each row, AveP = sum over i = 1..k of precision@i * rel_i / min(k, number of labels), with
    rel_i = 1 when the i-th highest-scored class is a label (label ids >= num_classes and negative
    dense ids are ignored; a row with no label gives NaN). The (weighted) mean over rows accumulates in
    the float64 local variables `max` (total weight) and `total`.

    Args:
      labels: `int64` `Tensor` or `SparseTensor` of shape [D1, ... DN, num_labels] or [D1, ... DN].
      predictions: Float `Tensor` of shape [D1, ... DN, num_classes] of class scores.
      k: Integer >= 1: average precision over ranks 1..k.
      weights: Optional `Tensor` of rank 0 or N, broadcastable to [D1, ... DN] (checked at run time).
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Name scope of the metric (default `average_precision_at_<k>`).

    Returns:
      `(mean_average_precision, update_op)`: float64 scalars (0 while no weight was seen).

    Raises:
      ValueError: If `k` < 1 or the ranks do not fit.
      TypeError: If `labels` is not int64.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("sparse_average_precision_at_k")
    if k < 1:
        raise ValueError("Invalid k=%s. `k` should be >= 1." % k)
    with ops.name_scope(name, _at_k_name("average_precision", k), (predictions, labels, weights)) as scope:
        predictions = ops.convert_to_tensor(predictions)
        predictions_idx = _top_k_ids(predictions, k)
        labels = _to_tensor_or_sparse(labels)
        num_classes = math_ops.cast(core_ops.shape(predictions)[-1], dtypes.int64)
        labels = _clean_out_of_range_indices(labels, num_classes)
        return _streaming_sparse_average_precision_at_top_k(labels, predictions_idx, weights=weights,
                                                            metrics_collections=metrics_collections,
                                                            updates_collections=updates_collections, name=scope)


def sparse_average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """Renamed to `average_precision_at_k` (deprecated), the same metric.

    Args:
      labels: `int64` `Tensor` or `SparseTensor` of shape [D1, ... DN, num_labels] or [D1, ... DN].
      predictions: Float `Tensor` of shape [D1, ... DN, num_classes] of class scores.
      k: Integer >= 1.
      weights: Optional `Tensor` of rank 0 or N, broadcastable to [D1, ... DN].
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Name scope of the metric.

    Returns:
      `(mean_average_precision, update_op)`: float64 scalars.

    Raises:
      ValueError: If `k` < 1 or the ranks do not fit.
      RuntimeError: If eager execution is enabled.
    """
    return average_precision_at_k(labels, predictions, k, weights=weights, metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=name)


# ---- mean cosine distance -------------------------------------------------------------------------------
def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None, updates_collections=None,
                         name=None):
    """The (weighted) mean cosine distance `1 - sum(labels * predictions, dim)` (inputs unit-normalized).

    Creates the local variables `total` and `count` (as `tf.metrics.mean`).

    Args:
      labels: A `Tensor` of arbitrary shape.
      predictions: A `Tensor` of the same shape as `labels`.
      dim: The dimension along which the cosine distance is computed.
      weights: Optional `Tensor` of rank 0 or the rank of `labels`, broadcastable to the distances
        (dimension `dim` of size 1).
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Variable scope name (default "mean_cosine_distance").

    Returns:
      `(mean_distance, update_op)`: float32 scalars (1 while no weight was seen).

    Raises:
      ValueError: If the shapes of `labels`, `predictions` (and `weights`) are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("mean_cosine_distance")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    radial_diffs = math_ops.multiply(predictions, labels)
    radial_diffs = math_ops.reduce_sum(radial_diffs, axis=[dim], keepdims=True)
    mean_distance, update_op = mean(radial_diffs, weights, None, None, name or "mean_cosine_distance")
    mean_distance = math_ops.subtract(1.0, mean_distance)
    update_op = math_ops.subtract(1.0, update_op)
    _add_to_collections(metrics_collections, mean_distance)
    _add_to_collections(updates_collections, update_op)
    return mean_distance, update_op


# ---- sensitivity / specificity ----------------------------------------------------------------------------
_KEPSILON = 1e-7


def _check_rate(arg, value, verb):
    if value < 0 or value > 1:
        raise ValueError("`%s` must be in the range [0, 1]. Currently, `%s` %s %s." % (arg, arg, verb, value))


def _rate_at_thresholds(labels, predictions, weights, num_thresholds, top, compute, metrics_collections,
                        updates_collections):
    """`compute(tp, tn, fp, fn, name)` on the confusion counts at `[-1e-7, 1/(n-1), ..., (n-2)/(n-1), top]`, as
    the value and the update op (added to their collections)."""
    thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    thresholds = [0.0 - _KEPSILON] + thresholds + [top]
    values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights)
    value = compute(values["tp"], values["tn"], values["fp"], values["fn"], "value")
    update_op = compute(update_ops["tp"], update_ops["tn"], update_ops["fp"], update_ops["fn"], "update_op")
    _add_to_collections(metrics_collections, value)
    _add_to_collections(updates_collections, update_op)
    return value, update_op


def sensitivity_at_specificity(labels, predictions, specificity, weights=None, num_thresholds=200,
                               metrics_collections=None, updates_collections=None, name=None):
    """The sensitivity (recall) at the threshold whose specificity is closest to `specificity`.

    Counts tp, fn, tn, fp (float32 local variables) at the thresholds
    `[-1e-7, 1/(n-1), ..., (n-2)/(n-1), 1 + 1e-7]`, picks the first threshold minimizing
    `|tn / (tn + fp + 1e-7) - specificity|` and returns `tp / (tp + fn + 1e-7)` there.

    Args:
      labels: The ground truth, cast to bool; shape matching `predictions`.
      predictions: Floats in [0, 1] (checked at run time).
      specificity: A scalar in [0, 1].
      weights: Optional `Tensor` of rank 0 or the rank of `labels`, broadcastable to it.
      num_thresholds: The number of thresholds.
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Variable scope name (default "sensitivity_at_specificity").

    Returns:
      `(sensitivity, update_op)`: float32 scalars.

    Raises:
      ValueError: If `specificity` is outside [0, 1] or the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("sensitivity_at_specificity")
    _check_rate("specificity", specificity, "got")
    with vs.variable_scope(name, "sensitivity_at_specificity", (predictions, labels, weights)):
        def compute(tp, tn, fp, fn, name):
            specificities = math_ops.divide(tn, tn + fp + _KEPSILON)
            tf_index = math_ops.argmin(math_ops.abs(specificities - specificity), 0)
            tf_index = math_ops.cast(tf_index, dtypes.int32)
            return math_ops.divide(array_ops.gather(tp, tf_index),
                                   array_ops.gather(tp, tf_index) + array_ops.gather(fn, tf_index) + _KEPSILON, name)

        return _rate_at_thresholds(labels, predictions, weights, num_thresholds, 1.0 + _KEPSILON, compute,
                                   metrics_collections, updates_collections)


def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None, num_thresholds=200,
                               metrics_collections=None, updates_collections=None, name=None):
    """The specificity at the threshold whose sensitivity is closest to `sensitivity`.

    Counts tp, fn, tn, fp (float32 local variables) at the thresholds
    `[-1e-7, 1/(n-1), ..., (n-2)/(n-1), 1 - 1e-7]`, picks the last threshold minimizing
    `|tp / (tp + fn + 1e-7) - sensitivity|` and returns `tn / (tn + fp + 1e-7)` there.

    Args:
      labels: The ground truth, cast to bool; shape matching `predictions`.
      predictions: Floats in [0, 1] (checked at run time).
      sensitivity: A scalar in [0, 1].
      weights: Optional `Tensor` of rank 0 or the rank of `labels`, broadcastable to it.
      num_thresholds: The number of thresholds.
      metrics_collections: Collections to add the value to.
      updates_collections: Collections to add the update op to.
      name: Variable scope name (default "specificity_at_sensitivity").

    Returns:
      `(specificity, update_op)`: float32 scalars.

    Raises:
      ValueError: If `sensitivity` is outside [0, 1] or the shapes are incompatible.
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("specificity_at_sensitivity")
    _check_rate("sensitivity", sensitivity, "is")
    with vs.variable_scope(name, "specificity_at_sensitivity", (predictions, labels, weights)):
        def compute(tp, tn, fp, fn, name):
            sensitivities = math_ops.divide(tp, tp + fn + _KEPSILON)
            dist = math_ops.abs(sensitivities - sensitivity)
            at_min = math_ops.cast(math_ops.equal(dist, math_ops.reduce_min(dist)), dtypes.int64)
            tf_index = math_ops.cast(math_ops.argmax(math_ops.cumsum(at_min), 0), dtypes.int32)
            return math_ops.divide(array_ops.gather(tn, tf_index),
                                   array_ops.gather(tn, tf_index) + array_ops.gather(fp, tf_index) + _KEPSILON, name)

        return _rate_at_thresholds(labels, predictions, weights, num_thresholds, 1.0 - _KEPSILON, compute,
                                   metrics_collections, updates_collections)
