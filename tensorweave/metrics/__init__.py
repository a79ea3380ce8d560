"""`tf.metrics`: streaming evaluation metrics returning `(value, update_op)`."""

from .metrics_impl import (
    accuracy,
    auc,
    false_negatives,
    false_negatives_at_thresholds,
    false_positives,
    false_positives_at_thresholds,
    mean,
    mean_absolute_error,
    mean_iou,
    mean_per_class_accuracy,
    mean_relative_error,
    mean_squared_error,
    mean_tensor,
    percentage_below,
    precision,
    precision_at_thresholds,
    recall,
    recall_at_thresholds,
    root_mean_squared_error,
    true_negatives,
    true_negatives_at_thresholds,
    true_positives,
    true_positives_at_thresholds,
)
from .metrics_impl import __all__

# at-k metrics, mean_cosine_distance, sensitivity/specificity (metrics_at_k.py)
from .metrics_at_k import (  # noqa: E402
    average_precision_at_k,
    mean_cosine_distance,
    precision_at_k,
    precision_at_top_k,
    recall_at_k,
    recall_at_top_k,
    sensitivity_at_specificity,
    sparse_average_precision_at_k,
    sparse_precision_at_k,
    specificity_at_sensitivity,
)
from .metrics_at_k import __all__ as _at_k_all  # noqa: E402

__all__ = list(__all__) + list(_at_k_all)
