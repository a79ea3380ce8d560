"""The TensorForest V4 regression kernels behind `tf.contrib.tensor_forest` (`ForestHParams(regression=True)`).

They work on the same two resources as the classification kernels of `tensor_forest_ops` (the tree
from "DecisionTreeResourceHandleOp", created by "CreateTreeVariable" with `num_classes` set to the
number of outputs, and the statistics from "FertileStatsResourceHandleOp"), with TF 1.15's regression
models ("MODEL_REGRESSION" leaves, "STATS_LEAST_SQUARES_REGRESSION" statistics):

- a leaf holds one value per output, zero in a new tree; TF's regression leaf model never updates it
  from the examples reaching it ("UpdateModelV4" does nothing), a split sets each new leaf to the mean
  label of the examples its candidate sent to that side;
- "RegressionProcessInputV4" feeds each example to its leaf's statistics: the first
  `num_splits_to_consider` examples a leaf sees each create a candidate split (a random feature, the
  example's value of it as threshold); every candidate sums the labels and squared labels going left
  and counts them, the leaf sums all of them; the leaf is finished once it has counted
  `split_after_samples` examples. The statistics count examples, not their weights (TF's
  LeastSquaresRegressionGrowStats adds 1 per example whatever its weight);
- "RegressionGrowTreeV4" splits each finished leaf on the candidate with the lowest
  `sum over outputs of (Var(left) + Var(right))` (the two sides' population variances, not weighted by
  their sizes, as TF computes them) among those sending at least one example to each side, unless the
  tree would then exceed `max_nodes`; a leaf with no such candidate starts collecting afresh;
- "RegressionTreePredictionsV4" returns the reached leaf's values as they are.

"RegressionFertileStatsSerialize" / "RegressionFertileStatsDeserialize" checkpoint the statistics as
UTF-8 JSON (never pickle), like the classification ones:
  {"format": "tensorweave.tensor_forest.regression_stats", "version": 1, "num_outputs": K,
   "num_splits_to_consider": S, "slots": [{"leaf", "features", "thresholds", "num_splits",
   "left_sums" [S][K], "left_squares" [S][K], "left_counts" [S], "total_sums" [K], "total_squares" [K],
   "weight"}, ..], "rng": null or the PCG64 bit generator's state}
The tree itself is written by the classification module's "TreeSerialize" (its leaf "counts" are the
leaf values here).
"""

import json

import numpy as np

from ..framework import dtypes as dtypes_lib
from ..framework import errors
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape
from .tensor_forest_ops import (
    _batch_dim,
    _check_data,
    _Corrupt,
    _float_array,
    _leaf_values,
    _load_doc,
    _parse_candidates,
    _parse_slots,
    _route_to_candidates,
    _scalar_string,
    _stats_of,
    _StatsState,
    _tree_of,
)

__all__ = []

_REGRESSION_STATS_FORMAT = "tensorweave.tensor_forest.regression_stats"
_SERIAL_VERSION = 1


class _RegressionSlot:
    """The least-squares statistics of one fertile leaf (TF's LeastSquaresRegressionGrowStats)."""

    def __init__(self, num_splits, num_outputs):
        self.features = np.zeros(num_splits, np.int64)
        self.thresholds = np.zeros(num_splits, np.float64)
        self.left_sums = np.zeros((num_splits, num_outputs), np.float64)
        self.left_squares = np.zeros((num_splits, num_outputs), np.float64)
        self.left_counts = np.zeros(num_splits, np.float64)
        self.total_sums = np.zeros(num_outputs, np.float64)
        self.total_squares = np.zeros(num_outputs, np.float64)
        self.num_splits = 0
        self.weight = 0.0


def _check_targets(op, labels, n, num_outputs):
    labels = np.asarray(labels)
    if labels.dtype.kind not in "fiu":
        raise errors.InvalidArgumentError(None, op, "Regression labels must be numeric, got %s" % labels.dtype)
    labels = labels.astype(np.float64)
    if labels.ndim == 1 and num_outputs == 1:
        labels = labels[:, None]
    if labels.shape != (n, num_outputs):
        raise errors.InvalidArgumentError(None, op, "input_labels must be a [%d, %d] matrix of regression targets%s, "
                                                    "got shape %s" % (n, num_outputs,
                                                                      " (or a vector)" if num_outputs == 1 else "",
                                                                      labels.shape))
    return labels


def _process_input_kernel(ctx, op, tree, stats, x, labels, leaf_ids, num_outputs, num_splits_to_consider,
                          split_after_samples, random_seed, strict_less):
    _tree_of(tree, op)
    s = _stats_of(stats, op)
    x = _check_data(op, x)
    leaf_ids = np.asarray(leaf_ids, np.int64)
    labels = _check_targets(op, labels, x.shape[0], num_outputs)
    if leaf_ids.shape != (x.shape[0],):
        raise errors.InvalidArgumentError(None, op, "leaf_ids must have one id per example")
    finished = []
    with ctx.lock:
        if s.rng is None:
            s.rng = np.random.default_rng(random_seed if random_seed else None)
        for i in range(x.shape[0]):
            leaf, y = int(leaf_ids[i]), labels[i]
            slot = s.slots.get(leaf)
            if slot is None:
                slot = s.slots[leaf] = _RegressionSlot(num_splits_to_consider, num_outputs)
            k, go_left = _route_to_candidates(s.rng, slot, x[i], num_splits_to_consider, strict_less)
            slot.left_sums[:k][go_left] += y
            slot.left_squares[:k][go_left] += y * y
            slot.left_counts[:k][go_left] += 1.0
            slot.total_sums += y
            slot.total_squares += y * y
            slot.weight += 1.0
            if slot.weight >= split_after_samples and leaf not in finished:
                finished.append(leaf)
    return np.array(finished, np.int32)


register_op("RegressionProcessInputV4", infer=lambda op: [(dtypes_lib.int32, TensorShape([None]))],
            kernel=_process_input_kernel, grad=NO_GRADIENT, stateful=True)


def _split_variances(slot):
    """TF's SplitVariance of each candidate: the two sides' population variances summed over outputs."""
    k = slot.num_splits
    n_left = slot.left_counts[:k, None]
    n_right = slot.weight - n_left
    with np.errstate(divide="ignore", invalid="ignore"):
        left_mean = slot.left_sums[:k] / n_left
        left_var = slot.left_squares[:k] / n_left - left_mean * left_mean
        right_mean = (slot.total_sums - slot.left_sums[:k]) / n_right
        right_var = (slot.total_squares - slot.left_squares[:k]) / n_right - right_mean * right_mean
    return (left_var + right_var).sum(axis=1)


def _grow_tree_kernel(ctx, op, tree, stats, finished, max_nodes):
    t = _tree_of(tree, op)
    s = _stats_of(stats, op)
    with ctx.lock:
        for leaf in np.asarray(finished, np.int64):
            leaf = int(leaf)
            slot = s.slots.get(leaf)
            if not isinstance(slot, _RegressionSlot) or t.feature[leaf] >= 0:
                continue
            if t.size() + 2 > max_nodes:
                break
            k = slot.num_splits
            valid = (slot.left_counts[:k] > 0) & (slot.weight - slot.left_counts[:k] > 0)
            del s.slots[leaf]
            if not valid.any():  # every candidate sends all examples one way: collect afresh
                continue
            best = int(np.argmin(np.where(valid, _split_variances(slot), np.inf)))
            n_left = slot.left_counts[best]
            n_right = slot.weight - n_left
            t.split(leaf, slot.features[best], slot.thresholds[best], slot.left_sums[best] / n_left,
                    (slot.total_sums - slot.left_sums[best]) / n_right)


register_op("RegressionGrowTreeV4", infer=lambda op: [], kernel=_grow_tree_kernel, grad=NO_GRADIENT, stateful=True)


def _predictions_infer(op):
    n = _batch_dim(op)
    return [(dtypes_lib.float32, TensorShape([n, op._attrs["num_outputs"]])), (dtypes_lib.string, TensorShape([n]))]


def _predictions_kernel(ctx, op, tree, x, num_outputs, strict_less, inference_tree_paths):
    values, paths = _leaf_values(ctx, op, tree, x, num_outputs, strict_less, inference_tree_paths)
    return values.astype(np.float32), paths


register_op("RegressionTreePredictionsV4", infer=_predictions_infer, kernel=_predictions_kernel, grad=NO_GRADIENT,
            stateful=True)


# ---- checkpointing ---------------------------------------------------------------------------------------
def _serialize_kernel(ctx, op, stats, num_outputs, num_splits_to_consider):
    s = _stats_of(stats, op)
    with ctx.lock:
        slots = []
        for leaf, slot in sorted(s.slots.items()):
            if not isinstance(slot, _RegressionSlot):
                raise errors.InvalidArgumentError(None, op, "fertile stats %s hold classification statistics" % s.name)
            slots.append({"leaf": int(leaf), "features": [int(f) for f in slot.features],
                          "thresholds": [float(v) for v in slot.thresholds], "num_splits": int(slot.num_splits),
                          "left_sums": slot.left_sums.tolist(), "left_squares": slot.left_squares.tolist(),
                          "left_counts": slot.left_counts.tolist(), "total_sums": slot.total_sums.tolist(),
                          "total_squares": slot.total_squares.tolist(), "weight": float(slot.weight)})
        doc = {"format": _REGRESSION_STATS_FORMAT, "version": _SERIAL_VERSION, "num_outputs": int(num_outputs),
               "num_splits_to_consider": int(num_splits_to_consider), "slots": slots,
               "rng": None if s.rng is None else s.rng.bit_generator.state}
    return _scalar_string(json.dumps(doc, separators=(",", ":")).encode("utf-8"))


def _parse_slot(d, num_outputs, num_splits):
    slot = _RegressionSlot(num_splits, num_outputs)
    _parse_candidates(slot, d, num_splits)
    slot.left_sums = _float_array(d.get("left_sums"), (num_splits, num_outputs))
    slot.left_squares = _float_array(d.get("left_squares"), (num_splits, num_outputs))
    slot.left_counts = _float_array(d.get("left_counts"), (num_splits,))
    slot.total_sums = _float_array(d.get("total_sums"), (num_outputs,))
    slot.total_squares = _float_array(d.get("total_squares"), (num_outputs,))
    slot.weight = float(_float_array(d.get("weight"), ()))
    return slot


def _deserialize_kernel(ctx, op, stats, stats_config, num_outputs, num_splits_to_consider):
    s = stats[()] if isinstance(stats, np.ndarray) else stats
    if not isinstance(s, _StatsState):
        raise errors.InvalidArgumentError(None, op, "Input is not a fertile stats handle")
    doc = _load_doc(op, stats_config, _REGRESSION_STATS_FORMAT, "regression fertile stats")
    try:
        slots, rng = _parse_slots(doc, "num_outputs", num_outputs, num_splits_to_consider, _parse_slot)
    except _Corrupt as e:
        raise errors.InvalidArgumentError(None, op, "Corrupt serialized regression fertile stats: %s" % e) from None
    with ctx.lock:
        s.slots, s.rng, s.initialized = slots, rng, True


register_op("RegressionFertileStatsSerialize", infer=lambda op: [(dtypes_lib.string, ())], kernel=_serialize_kernel,
            grad=NO_GRADIENT, stateful=True)
register_op("RegressionFertileStatsDeserialize", infer=lambda op: [], kernel=_deserialize_kernel, grad=NO_GRADIENT,
            stateful=True)
