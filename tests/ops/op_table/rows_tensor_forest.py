"""Op-table rows of the TensorForest V4 ops (tensorweave/ops/tensor_forest_ops.py, behind
tf.contrib.tensor_forest): one tree over ONE feature, trained on one batch, so its growth is certain:
with `num_splits_to_consider=1` the only candidate split is `x <= x[0]` (the first example's value,
which the inputs put strictly inside the data's range) and with `split_after_samples` = the batch size
the root finishes after the batch and splits on that candidate, its two leaves starting from the
candidate's left and right class counts. The references count those classes with NumPy. The
serialize/deserialize rows copy a trained tree and its statistics into fresh resources (what
tf.train.Saver does with them) and check the copy predicts the same; the format itself, corrupt
entries and checkpoints are tested in tests/contrib/test_tensor_forest.py."""

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops
from tensorweave.ops import tensor_forest_ops as _tfo
from tests.ops.op_table.harness import Row

_C = 3  # classes
_NOTE = ("TensorForest resources live in a Session's state (graph mode only, as TF 1.15's contrib kernels); "
         "eager use is not supported: tests/contrib/test_tensor_forest.py")


def _after(*deps):
    return tf.control_dependencies(list(deps))


def _fresh(name):
    tree = _tfo._resource_handle("DecisionTreeResourceHandleOp", name + "_tree")
    stats = _tfo._resource_handle("FertileStatsResourceHandleOp", name + "_stats")
    create = [ops.apply_op("CreateTreeVariable", [tree], {"num_classes": _C}),
              ops.apply_op("CreateFertileStatsVariable", [stats], {})]
    return tree, stats, create


def _trained(x, y):
    """A fresh tree and its statistics, after one training step on (x, y): (tree, stats, finished, grow)."""
    tree, stats, create = _fresh("a")
    with _after(*create):
        leaves = ops.apply_op("TraverseTreeV4", [tree, x], {"strict_less": False})
        weights = tf.constant([], tf.float32)
        update = ops.apply_op("UpdateModelV4", [tree, leaves, y, weights], {"num_classes": _C})
        finished = ops.apply_op("ProcessInputV4", [tree, stats, x, y, weights, leaves],
                                {"num_classes": _C, "num_splits_to_consider": 1,
                                 "split_after_samples": float(_N), "random_seed": 1, "strict_less": False})
    with _after(update):
        grow = ops.apply_op("GrowTreeV4", [tree, stats, finished], {"max_nodes": 100, "valid_leaf_threshold": 1.0})
    return tree, stats, finished, grow


def _train(x, y, q):
    tree, stats, finished, grow = _trained(x, y)
    with _after(grow):
        return [tf.identity(finished), ops.apply_op("TraverseTreeV4", [tree, q], {"strict_less": False}),
                ops.apply_op("TreePredictionsV4", [tree, q], {"num_classes": _C, "strict_less": False,
                                                              "inference_tree_paths": False})[0],
                ops.apply_op("TreeSize", [tree], {}), ops.apply_op("FeatureUsageCounts", [tree], {"num_features": 1}),
                ops.apply_op("TreeIsInitializedOp", [tree], {}),
                ops.apply_op("FertileStatsIsInitializedOp", [stats], {})]


def _split_counts(x, y):
    left = x[:, 0] <= x[0, 0]
    return (np.bincount(y[left], minlength=_C).astype(np.float64),
            np.bincount(y[~left], minlength=_C).astype(np.float64))


def _probs_ref(x, y, q):
    lc, rc = _split_counts(x, y)
    return np.where((q[:, 0] <= x[0, 0])[:, None], lc / lc.sum(), rc / rc.sum()).astype(np.float32)


def _train_ref(x, y, q):
    return [np.array([0], np.int32), np.where(q[:, 0] <= x[0, 0], 1, 2).astype(np.int32), _probs_ref(x, y, q),
            np.int32(3), np.array([1], np.int32), np.bool_(True), np.bool_(True)]


def _copy(x, y, q):
    tree, stats, _, grow = _trained(x, y)
    with _after(grow):
        tree_config = ops.apply_op("TreeSerialize", [tree], {})
        attrs = {"num_classes": _C, "num_splits_to_consider": 1}
        stats_config = ops.apply_op("FertileStatsSerialize", [stats], attrs)
    tree2, stats2, _ = _fresh("b")  # never created: deserializing initializes them
    restore = [ops.apply_op("TreeDeserialize", [tree2, tree_config], {"num_classes": _C}),
               ops.apply_op("FertileStatsDeserialize", [stats2, stats_config], attrs)]
    with _after(*restore):
        again = ops.apply_op("FertileStatsSerialize", [stats2], attrs)
        return [ops.apply_op("TreePredictionsV4", [tree2, q], {"num_classes": _C, "strict_less": False,
                                                               "inference_tree_paths": False})[0],
                ops.apply_op("TreeSize", [tree2], {}), tf.equal(again, stats_config)]


def _copy_ref(x, y, q):
    return [_probs_ref(x, y, q), np.int32(3), np.bool_(True)]


_N = 24


def _inputs(dt, rng):
    x = rng.uniform(-1, 1, (_N, 1)).astype(dt)
    x[0, 0], x[1, 0], x[2, 0] = 0.0, -0.5, 0.5  # the split threshold 0 has examples on both sides
    y = rng.randint(_C, size=_N).astype(np.int32)
    y[:2] = [0, 1]  # more than one class
    q = np.concatenate([[[0.0], [-0.0], [1e-7]], rng.uniform(-2, 2, (5, 1))]).astype(dt)
    return x, y, q


def _row(op_type, fn, ref, name=None):
    return Row(op_type, fn, ref, _inputs, dtypes=(np.float32, np.float64), special=False, grad=False, eager=False,
               static_known=False, note=_NOTE, name=name)


ROWS = [_row(t, _train, _train_ref) for t in (
    "DecisionTreeResourceHandleOp", "FertileStatsResourceHandleOp", "CreateTreeVariable", "CreateFertileStatsVariable",
    "TreeIsInitializedOp", "FertileStatsIsInitializedOp", "TraverseTreeV4", "UpdateModelV4", "ProcessInputV4",
    "GrowTreeV4", "TreePredictionsV4", "TreeSize", "FeatureUsageCounts")] + [_row(t, _copy, _copy_ref) for t in (
        "TreeSerialize", "TreeDeserialize", "FertileStatsSerialize", "FertileStatsDeserialize")]
