"""Op-table rows of the TensorForest V4 regression ops (tensorweave/ops/tensor_forest_regression_ops.py,
behind `tf.contrib.tensor_forest` with `regression=True`): one tree over ONE feature and two outputs,
trained on one batch: with `num_splits_to_consider=1` the only candidate split is `x <= x[0]` (the
first example's value, which the inputs put strictly inside the data's range), seeing every example,
and with `split_after_samples` = the batch size the root finishes after the batch and splits on it,
its two leaves holding the mean targets of each side. The references take those means with NumPy.
The serialize/deserialize rows copy the trained statistics into fresh resources and check the copy
serializes identically; the format itself, corrupt entries and checkpoints are tested in
tests/contrib/test_tensor_forest_regression.py."""

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops
from tensorweave.ops import tensor_forest_ops as _tfo
from tests.ops.op_table.harness import Row

_K = 2  # outputs
_N = 24
_NOTE = ("TensorForest resources live in a Session's state (graph mode only, as TF 1.15's contrib kernels); "
         "eager use is not supported: tests/contrib/test_tensor_forest_regression.py")


def _trained(x, y):
    tree = _tfo._resource_handle("DecisionTreeResourceHandleOp", "r_tree")
    stats = _tfo._resource_handle("FertileStatsResourceHandleOp", "r_stats")
    create = [ops.apply_op("CreateTreeVariable", [tree], {"num_classes": _K}),
              ops.apply_op("CreateFertileStatsVariable", [stats], {})]
    with tf.control_dependencies(create):
        leaves = ops.apply_op("TraverseTreeV4", [tree, x], {"strict_less": False})
        finished = ops.apply_op("RegressionProcessInputV4", [tree, stats, x, y, leaves],
                                {"num_outputs": _K, "num_splits_to_consider": 1, "split_after_samples": float(_N),
                                 "random_seed": 1, "strict_less": False})
    grow = ops.apply_op("RegressionGrowTreeV4", [tree, stats, finished], {"max_nodes": 100})
    return tree, stats, finished, grow


def _train(x, y, q):
    tree, _, finished, grow = _trained(x, y)
    with tf.control_dependencies([grow]):
        return [tf.identity(finished),
                ops.apply_op("RegressionTreePredictionsV4", [tree, q], {"num_outputs": _K, "strict_less": False,
                                                                        "inference_tree_paths": False})[0]]


def _means_ref(x, y, q):
    left = x[:, 0] <= x[0, 0]
    lm, rm = y[left].mean(axis=0), y[~left].mean(axis=0)
    return np.where((q[:, 0] <= x[0, 0])[:, None], lm, rm).astype(np.float32)


def _train_ref(x, y, q):
    return [np.array([0], np.int32), _means_ref(x, y, q)]


def _copy(x, y, q):
    _, stats, finished, _ = _trained(x, y)
    attrs = {"num_outputs": _K, "num_splits_to_consider": 1}
    # Serialized after the batch is processed and before the tree grows: the root's slot is full.
    with tf.control_dependencies([finished]):
        stats_config = ops.apply_op("RegressionFertileStatsSerialize", [stats], attrs)
    stats2 = _tfo._resource_handle("FertileStatsResourceHandleOp", "r_stats2")  # never created
    restore = ops.apply_op("RegressionFertileStatsDeserialize", [stats2, stats_config], attrs)
    with tf.control_dependencies([restore]):
        again = ops.apply_op("RegressionFertileStatsSerialize", [stats2], attrs)
    return [tf.equal(again, stats_config), tf.strings.length(stats_config) > 100]


def _copy_ref(x, y, q):
    return [np.bool_(True), np.bool_(True)]


def _inputs(dt, rng):
    x = rng.uniform(-1, 1, (_N, 1)).astype(dt)
    x[0, 0], x[1, 0], x[2, 0] = 0.0, -0.5, 0.5  # the split threshold 0 has examples on both sides
    y = rng.uniform(-3, 3, (_N, _K)).astype(dt)
    q = np.concatenate([[[0.0], [-0.0], [1e-7]], rng.uniform(-2, 2, (5, 1))]).astype(dt)
    return x, y, q


def _row(op_type, fn, ref):
    return Row(op_type, fn, ref, _inputs, dtypes=(np.float32, np.float64), special=False, grad=False, eager=False,
               static_known=False, note=_NOTE, rtol=1e-5)


ROWS = [_row(t, _train, _train_ref) for t in (
    "RegressionProcessInputV4", "RegressionGrowTreeV4", "RegressionTreePredictionsV4")] + [
    _row(t, _copy, _copy_ref) for t in ("RegressionFertileStatsSerialize", "RegressionFertileStatsDeserialize")]
