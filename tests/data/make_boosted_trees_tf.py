"""Writes TensorFlow's expected values of the BoostedTrees ops for tests/estimator/test_boosted_trees.py
into tests/data/boosted_trees_tf.json.

Run with a Python that has TensorFlow (not needed by the tests):
    TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_boosted_trees_tf.py

TF 2.21 still declares `tf.raw_ops.BoostedTrees*` but registers no kernel for any of them ("No OpKernel
was registered to support Op 'BoostedTreesMakeStatsSummary'"; this script checks that again and says
so), so the ops cannot be run there. The values below are TF's own instead: the inputs and expected
outputs of TF's kernel tests, transcribed from tensorflow/python/kernel_tests/boosted_trees/
stats_ops_test.py, training_ops_test.py, prediction_ops_test.py and quantile_ops_test.py (the tests of
the kernels TF 1.15's estimator runs), with the expected TreeEnsemble protos written in tensorweave's JSON layout
(tensorweave/ops/boosted_trees_ops.py): a node is {"leaf": v} or {"split": [feature_id, threshold,
dimension_id, left_id, right_id], "gain": g, "original_leaf": v}. TF's tests compare these with
assertAllClose / assertProtoEquals, so the test compares with a float32 tolerance.
"""

import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "boosted_trees_tf.json")


def leaf(v=0.0):
    return {"leaf": v}


def split(feature_id, threshold, left_id, right_id, gain=None, original_leaf=None):
    d = {"split": [feature_id, threshold, 0, left_id, right_id]}
    if gain is not None:
        d["gain"] = gain
    if original_leaf is not None:
        d["original_leaf"] = original_leaf
    return d


def meta(num_layers_grown=0, is_finalized=False, post_pruned=()):
    return {"num_layers_grown": num_layers_grown, "is_finalized": is_finalized,
            "post_pruned_nodes_meta": [list(p) for p in post_pruned]}


def ensemble(trees, weights, metas, trees_attempted=0, layers_attempted=0, start=0, end=0):
    return {"trees": trees, "tree_weights": weights, "tree_metadata": metas,
            "growing_metadata": {"num_trees_attempted": trees_attempted, "num_layers_attempted": layers_attempted,
                                 "last_layer_node_start": start, "last_layer_node_end": end}}


# ---- stats_ops_test.py ---------------------------------------------------------------------------------
_ZERO_NODE = [[0., 0.], [0., 0.], [0., 0.], [0., 0.]]
SPLIT_SUMMARY = [
    [[[0., 0.], [.08, .09], [0., 0.], [0., 0.]], [[0., 0.], [.15, .36], [.06, .07], [.1, .2]],
     [[0., 0.], [-.33, .58], [0., 0.], [.3, .4]]] + [_ZERO_NODE] * 4,
    [[[0., 0.], [0., 0.], [.08, .09], [0., 0.]], [[0., 0.], [.3, .5], [-.05, .06], [.06, .07]],
     [[.1, .1], [.2, .3], [-.4, .5], [.07, .08]]] + [_ZERO_NODE] * 4,
]
MIN_WEIGHT_SUMMARY = [
    [[[0., 0.], [.08, .09], [0., 0.], [0., 0.]], [[0., 0.], [.15, .036], [.06, .07], [.1, .2]],
     [[0., 0.], [-.33, .68], [0., 0.], [.3, .4]]] + [_ZERO_NODE] * 4,
    [[[0., 0.], [0., 0.], [.08, .09], [0., 0.]], [[0., 0.], [.3, .5], [-.05, .6], [.06, .07]],
     [[.1, .1], [.2, .03], [-.4, .05], [.07, .08]]] + [_ZERO_NODE] * 4,
]
NO_SPLIT_SUMMARY = [
    [[[0., 0.], [.08, .09], [0., 0.], [0., 0.]], [[0., 0.], [.15, .0036], [.06, .007], [.1, .2]],
     [[0., 0.], [-.33, .068], [0., 0.], [.3, .04]]] + [_ZERO_NODE] * 4,
    [[[0., 0.], [0., 0.], [.08, .09], [0., 0.]], [[0., 0.], [.3, .5], [-.05, .6], [.06, .07]],
     [[.1, .1], [.2, .03], [-.4, .05], [.07, .08]]] + [_ZERO_NODE] * 4,
]


def gains_case(name, summary, l1, l2, tree_complexity, min_node_weight, node_ids, gains=None, thresholds=None,
               left=None, right=None):
    return {"name": name, "summary": summary, "node_id_range": [1, 3], "max_splits": 7, "l1": l1, "l2": l2,
            "tree_complexity": tree_complexity, "min_node_weight": min_node_weight, "node_ids": node_ids,
            "gains": gains, "thresholds": thresholds, "left": left, "right": right}


GAINS = [
    gains_case("without_regularization", SPLIT_SUMMARY, 0.0, 0.0, 0.0, 0.0, [[1, 2], [1, 2]],
               [[0.004775, 0.41184], [0.02823, 0.41184]], [[1, 1], [1, 1]],
               [[[-.416667], [.568966]], [[-.6], [-.75]]], [[[-.592593], [-.75]], [[-.076923], [.568966]]]),
    gains_case("l2", SPLIT_SUMMARY, 0.0, 0.1, 0.0, 0.0, [[1, 2], [1, 2]],
               [[0., 0.33931375], [0.01879096, 0.33931375]], [[0, 1], [1, 1]],
               [[[0.], [.485294]], [[-.5], [-.6]]], [[[-.424658], [-.6]], [[-.043478], [.485294]]]),
    gains_case("l1", SPLIT_SUMMARY, 0.1, 0.0, 0.0, 0.0, [[1, 2], [1, 2]],
               [[0.0, 0.191207], [0.01, 0.191207]], [[0, 1], [1, 1]],
               [[[0.0], [0.3965517]], [[-0.4], [-0.5]]], [[[-0.3333333], [-0.5]], [[0.0], [0.396552]]]),
    gains_case("tree_complexity", SPLIT_SUMMARY, 0.0, 0.1, 3.0, 0.0, [[1, 2], [1, 2]],
               [[-3., -2.66068625], [-2.98120904, -2.66068625]], [[0, 1], [1, 1]],
               [[[0.], [.485294]], [[-.5], [-.6]]], [[[-.424658], [-.6]], [[-.043478], [.485294]]]),
    gains_case("min_node_weight", MIN_WEIGHT_SUMMARY, 0.0, 0.0, 0.0, 1.0, [[2], [1]],
               [[0.384314], [0.098013]], [[1], [1]], [[[0.4852941]], [[-.6]]], [[[-0.75]], [[-0.014925]]]),
    gains_case("min_node_weight_one_feature", NO_SPLIT_SUMMARY, 0.0, 0.0, 0.0, 1.0, [[], [1]]),
    gains_case("min_node_weight_no_feature", NO_SPLIT_SUMMARY, 0.0, 0.0, 0.0, 10.0, [[], []]),
]

_NODE_IDS = [1, 1, 2, 2, 1, 1, 2, 0]
_GRADS = [[.1], [.2], [.3], [-.4], [-.05], [.06], [.07], [.08]]
_HESS = [[.2], [.3], [.4], [.5], [.06], [.07], [.08], [.09]]
STATS = [
    {"name": "simple", "node_ids": [0, 0, 1, 1], "gradients": [[1.], [2.], [3.], [4.]],
     "hessians": [[5.], [6.], [7.], [8.]], "features": [[0, 1, 0, 1]], "max_splits": 2, "num_buckets": 2,
     "summary": [[[[1., 5.], [2., 6.]], [[3., 7.], [4., 8.]]]]},
    {"name": "accumulate", "node_ids": _NODE_IDS, "gradients": _GRADS, "hessians": _HESS,
     "features": [[3, 1, 2, 0, 1, 2, 0, 1]], "max_splits": 3, "num_buckets": 4,
     "summary": [[[[0., 0.], [.08, .09], [0., 0.], [0., 0.]], [[0., 0.], [.15, .36], [.06, .07], [.1, .2]],
                  [[-.33, .58], [0., 0.], [.3, .4], [0., 0.]]]]},
    {"name": "multiple_features", "node_ids": _NODE_IDS, "gradients": _GRADS, "hessians": _HESS,
     "features": [[3, 1, 2, 0, 1, 2, 0, 1], [0, 0, 0, 2, 2, 3, 3, 2]], "max_splits": 3, "num_buckets": 4,
     "summary": [[[[0., 0.], [.08, .09], [0., 0.], [0., 0.]], [[0., 0.], [.15, .36], [.06, .07], [.1, .2]],
                  [[-.33, .58], [0., 0.], [.3, .4], [0., 0.]]],
                 [[[0., 0.], [0., 0.], [.08, .09], [0., 0.]], [[.3, .5], [0., 0.], [-.05, .06], [.06, .07]],
                  [[.3, .4], [0., 0.], [-.4, .5], [.07, .08]]]]},
]


# ---- training_ops_test.py --------------------------------------------------------------------------------
def grow(feature_ids, candidates, learning_rate, pruning_mode, max_depth, stamp, expected):
    """One update_ensemble call: candidates is one (node_ids, gains, thresholds, left, right) per feature."""
    return {"feature_ids": feature_ids, "node_ids": [c[0] for c in candidates],
            "gains": [c[1] for c in candidates], "thresholds": [c[2] for c in candidates],
            "left": [c[3] for c in candidates], "right": [c[4] for c in candidates],
            "learning_rate": learning_rate, "pruning_mode": pruning_mode, "max_depth": max_depth,
            "stamp": stamp, "expected": expected}


_ROOT_SPLIT_TREE = [split(4, 0, 1, 2, 7.62), leaf(0.714), leaf(-0.4375)]
_ROOT_SPLIT_TREE_BIG = [split(4, 0, 1, 2, 7.62), leaf(7.14), leaf(-4.375)]
_PRUNED_TREE = [split(1, 33, 1, 2, -0.2), leaf(0.01), split(3, 5, 3, 4, 0.5, 0.0143), leaf(0.0553), leaf(0.0783)]
_PRUNED_META = [(0, 0.0), (1, 0.0), (2, 0.0), (1, -0.07), (1, -0.083), (3, 0.0), (4, 0.0), (1, -0.22),
                (1, -0.57)]

UPDATE = [
    {"name": "grow_with_empty_ensemble", "initial": None, "steps": [
        grow([0, 2, 6], [([0], [7.62], [52], [[-4.375]], [[7.143]]), ([0], [0.63], [23], [[-0.6]], [[0.24]]),
                         ([0], [7.65], [7], [[-4.89]], [[5.3]])], 0.1, 0, 1, 1,
             ensemble([[split(6, 7, 1, 2, 7.65), leaf(-0.489), leaf(0.53)], [leaf(0.0)]], [1.0, 1.0],
                      [meta(1, True), meta()], 1, 1, 0, 1))]},
    {"name": "grow_existing_tree_not_finalized",
     "initial": ensemble([_ROOT_SPLIT_TREE], [1.0], [meta(1, False)], 1, 1), "steps": [
         grow([0, 1, 0], [([1], [1.4], [21], [[-6.0]], [[1.65]]),
                          ([1, 2], [0.63, 2.7], [23, 7], [[-0.6], [-1.5]], [[0.24], [2.3]]),
                          ([2], [1.7], [3], [[-0.75]], [[1.93]])], 0.1, 0, 2, 1,
              ensemble([[split(4, 0, 1, 2, 7.62), split(0, 21, 3, 4, 1.4, 0.714), split(1, 7, 5, 6, 2.7, -0.4375),
                         leaf(0.114), leaf(0.879), leaf(-0.5875), leaf(-0.2075)], [leaf(0.0)]], [1.0, 1.0],
                       [meta(2, True), meta()], 1, 2, 0, 1))]},
    {"name": "grow_existing_tree_finalized",
     "initial": ensemble([_ROOT_SPLIT_TREE_BIG, [leaf(0.0)]], [0.15, 1.0], [meta(1, True), meta()], 1, 1), "steps": [
         grow([75], [([0], [-1.4], [21], [[-6.0]], [[1.65]])], 0.1, 0, 2, 1,
              ensemble([_ROOT_SPLIT_TREE_BIG, [split(75, 21, 1, 2, -1.4), leaf(-0.6), leaf(0.165)]], [0.15, 1.0],
                       [meta(1, True), meta(1, False)], 2, 2, 1, 3))]},
    {"name": "pre_pruning",
     "initial": ensemble([_ROOT_SPLIT_TREE_BIG], [0.1], [meta(1, False)], 1, 1), "steps": [
         grow([0, 1, 0], [([1], [-1.4], [21], [[-6.0]], [[1.65]]),
                          ([1, 2], [-0.63, 2.7], [23, 7], [[-0.6], [-1.5]], [[0.24], [2.3]]),
                          ([2], [2.8], [3], [[-0.75]], [[1.93]])], 0.1, 1, 3, 1,
              ensemble([[split(4, 0, 1, 2, 7.62), leaf(7.14), split(0, 3, 3, 4, 2.8, -4.375), leaf(-4.45),
                         leaf(-4.182)]], [0.1], [meta(2, False)], 1, 2, 3, 5))]},
    {"name": "no_candidates",
     "initial": ensemble([_ROOT_SPLIT_TREE], [1.0], [meta(1, False)], 1, 1, 1, 3), "steps": [
         grow([], [], 0.1, 0, 2, 1, ensemble([_ROOT_SPLIT_TREE], [1.0], [meta(1, False)], 1, 2, 1, 3))]},
    {"name": "all_pre_pruned",
     "initial": ensemble([_ROOT_SPLIT_TREE_BIG], [1.0], [meta(1, False)], 1, 1, 1, 3), "steps": [
         grow([0, 1, 0], [([1], [-1.4], [21], [[-6.0]], [[1.65]]),
                          ([1, 2], [-0.63, -2.7], [23, 7], [[-0.6], [-1.5]], [[0.24], [2.3]]),
                          ([2], [-2.8], [3], [[-0.75]], [[1.93]])], 0.1, 1, 3, 1,
              ensemble([_ROOT_SPLIT_TREE_BIG], [1.0], [meta(1, False)], 1, 2, 1, 3))]},
    {"name": "post_pruning_of_some_nodes", "initial": None, "steps": [
        grow([0, 1], [([0], [-1.3], [7], [[0.013]], [[0.0143]]), ([0], [-0.2], [33], [[0.01]], [[0.0143]])],
             1.0, 2, 3, 1,
             ensemble([[split(1, 33, 1, 2, -0.2), leaf(0.01), leaf(0.0143)]], [1.0], [meta(1, False)], 1, 1, 1, 3)),
        grow([3], [([1, 2], [-0.2, 0.5], [7, 5], [[0.07], [0.041]], [[0.083], [0.064]])], 1.0, 2, 3, 2,
             ensemble([[split(1, 33, 1, 2, -0.2), split(3, 7, 3, 4, -0.2, 0.01), split(3, 5, 5, 6, 0.5, 0.0143),
                        leaf(0.08), leaf(0.093), leaf(0.0553), leaf(0.0783)]], [1.0], [meta(2, False)], 1, 2, 3, 7)),
        grow([92], [([3], [-0.45], [11], [[0.15]], [[0.5]])], 1.0, 2, 3, 3,
             ensemble([_PRUNED_TREE, [leaf(0.0)]], [1.0, 1.0], [meta(3, True, _PRUNED_META), meta()], 1, 3, 0, 1)),
    ]},
    {"name": "post_pruning_of_all_nodes", "initial": None, "steps": [
        grow([0, 1], [([0], [-1.3], [7], [[0.013]], [[0.0143]]), ([0], [-0.62], [33], [[0.01]], [[0.0143]])],
             1.0, 2, 2, 1,
             ensemble([[split(1, 33, 1, 2, -0.62), leaf(0.01), leaf(0.0143)]], [1.0], [meta(1)], 1, 1, 1, 3)),
        grow([3], [([1, 2], [-0.2, -0.5], [77, 79], [[0.023], [0.3]], [[0.012343], [24]])], 1.0, 2, 2, 2,
             ensemble([[leaf(0.0)], [leaf(0.0)]], [1.0, 1.0],
                      [meta(2, True, [(0, 0.0), (0, -0.01), (0, -0.0143), (0, -0.033), (0, -0.022343),
                                      (0, -0.3143), (0, -24.014299)]), meta()], 1, 2, 0, 1)),
    ]},
    {"name": "post_pruning_changes_nothing", "initial": None, "steps": [
        grow([3, 4], [([0], [7.62], [52], [[-4.375]], [[7.143]]), ([0], [0.63], [23], [[-0.6]], [[0.24]])],
             1.0, 2, 1, 1,
             ensemble([[split(3, 52, 1, 2, 7.62), leaf(-4.375), leaf(7.143)], [leaf(0.0)]], [1.0, 1.0],
                      [meta(1, True), meta()], 1, 1, 0, 1)),
    ]},
]


# ---- prediction_ops_test.py --------------------------------------------------------------------------------
def predict_case(name, initial, cached_tree_ids, cached_node_ids, features, tree_ids, node_ids, logits,
                 cached_values=None):
    """TrainingPredict; `logits` is TF's expected `logits_updates + cached_values` (cached_values 0 if None)."""
    return {"name": name, "initial": initial, "cached_tree_ids": cached_tree_ids, "cached_node_ids": cached_node_ids,
            "features": features, "tree_ids": tree_ids, "node_ids": node_ids, "logits": logits,
            "cached_values": cached_values}


_ONE_SPLIT = [split(0, 15, 1, 2, 7.62), leaf(1.14), leaf(8.79)]
PREDICT = [
    predict_case("cached_on_empty_ensemble", ensemble([], [], []), [0, 0], [0, 0], [[67, 5], [9, 17]],
                 [0, 0], [0, 0], [[0.0], [0.0]]),
    predict_case("no_cache_but_tree_exists", ensemble([_ONE_SPLIT], [0.1], [meta(1, True)], 1, 2), [0, 0], [0, 0],
                 [[67, 5]], [0, 0], [2, 1], [[0.1 * 8.79], [0.1 * 1.14]]),
    predict_case("cached_is_current",
                 ensemble([[split(1, 15, 1, 2, 7.62, -2.0), leaf(1.14), leaf(8.79)]], [0.1], [meta(2, True)], 1, 2),
                 [0, 0], [1, 2], [[67, 5], [9, 17]], [0, 0], [1, 2], [[0.0], [0.0]]),
    predict_case("cached_from_same_tree_with_post_pruned_nodes",
                 ensemble([[split(0, 33, 1, 2, -0.2), leaf(0.01), split(1, 5, 3, 4, 0.5, 0.0143), leaf(0.0553),
                            leaf(0.0783)]], [1.0], [meta(3, True, _PRUNED_META)], 1, 3),
                 [0] * 6, [3, 4, 5, 6, 7, 8], [[12, 17, 35, 36, 23, 11], [12, 12, 17, 18, 123, 24]],
                 [0] * 6, [1, 1, 3, 4, 1, 1], [[0.01], [0.01], [0.0553], [0.0783], [0.01], [0.01]],
                 [[0.08], [0.093], [0.0553], [0.0783], [0.15 + 0.08], [0.5 + 0.08]]),
]


# ---- quantile_ops_test.py ----------------------------------------------------------------------------------
QUANTILES = [
    {"name": "basic_quantile_buckets", "features": [[1.2, 12.1, 0.3, 0.5, 0.6, 2.2], [2.3, 1.2, 1.1, 2.6, 3.2, 0.8]],
     "example_weights": [10, 1, 1, 1, 1, 1], "epsilon": 0.01, "max_elements": 1 << 16, "num_quantiles": 3,
     "boundaries": [[0.3, 0.6, 1.2, 12.1], [0.8, 1.2, 2.3, 3.2]], "buckets": [[2, 3, 0, 1, 1, 3], [2, 1, 1, 3, 3, 0]]},
]


def _check_tf_has_no_kernels():
    try:
        from tensorflow.python.framework import kernels
    except ImportError:
        print("TensorFlow is not importable here; writing the transcribed values only.")
        return
    missing = [op for op in ("BoostedTreesMakeStatsSummary", "BoostedTreesUpdateEnsemble", "BoostedTreesPredict")
               if not kernels.get_registered_kernels_for_op(op).kernel]
    print("TensorFlow registers no kernel for: %s" % ", ".join(missing) if missing else
          "TensorFlow has the kernels: these transcribed values could be re-recorded by running the ops.")


def main():
    _check_tf_has_no_kernels()
    with open(OUT, "w") as f:
        json.dump({"gains": GAINS, "stats": STATS, "update": UPDATE, "predict": PREDICT, "quantiles": QUANTILES}, f,
                  indent=0)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
