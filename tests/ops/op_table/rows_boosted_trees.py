"""Op-table rows of the BoostedTrees ops (tensorweave/ops/boosted_trees_ops.py, behind
tf.estimator.BoostedTreesClassifier/Regressor).

The stateless ops (stats summary, best gains, bucketize) get NumPy references. The ensemble's ops share
one program over ONE bucketized feature: an ensemble grows one layer (max_depth 1, learning rate 1, l2 1)
from the statistics of a batch (every example in node 0), so the split is certain: the bucket threshold
maximizing `GL**2/(HL+1) + GR**2/(HR+1)`, its leaves `-G/(H+1)`; the program then predicts, reads the
states, copies the ensemble through serialize/deserialize (what tf.train.Saver does) and centers the bias
of a second ensemble. The reference computes the split with NumPy in float64. The quantile
streams see fewer values than quantiles, so their sketch is exact: the summary is the sorted distinct
values with their summed weights and cumulative ranks, and a flush makes every distinct value a bucket
boundary. TF's own expected values (kernel tests) and the format's error paths are checked in
tests/estimator/test_boosted_trees.py."""

import numpy as np

import tensorweave as tf
from tensorweave.ops import boosted_trees_ops as bt
from tests.ops.op_table.harness import Row

_NOTE = ("BoostedTrees ensembles live in a Session's state (graph mode only, as TF 1.15's estimator uses "
         "them); eager use is not supported: tests/estimator/test_boosted_trees.py")
_N, _B = 24, 5  # examples, buckets
_L2 = 1.0


def _gains_f64(g, h, l1, l2):
    g1 = np.where(g > l1, g - l1, np.where(g < -l1, g + l1, 0.0)) if l1 > 0 else g
    ok = (h + l2 > 1e-15) & ((np.abs(g) > l1) if l1 > 0 else True)
    w = np.where(ok, -g1 / np.where(ok, h + l2, 1.0), 0.0)
    return w, np.where(ok, -g1 * w, 0.0)


def _stump(x, g, h):
    """(threshold, gain, left value, right value) of the best one-layer split, in float64."""
    gs = np.bincount(x, weights=g[:, 0].astype(np.float64), minlength=_B)
    hs = np.bincount(x, weights=h[:, 0].astype(np.float64), minlength=_B)
    cg, ch = np.cumsum(gs), np.cumsum(hs)
    wl, gl = _gains_f64(cg, ch, 0.0, _L2)
    wr, gr = _gains_f64(cg[-1] - cg, ch[-1] - ch, 0.0, _L2)
    b = int(np.argmax(gl + gr))
    return b, (gl + gr)[b] - _gains_f64(cg[-1], ch[-1], 0.0, _L2)[1], wl[b], wr[b]


# ---- stateless ops --------------------------------------------------------------------------------------------
def _stats_inputs(dt, rng):
    return (rng.randint(0, 3, _N).astype(np.int32), rng.uniform(-1, 1, (_N, 1)).astype(dt),
            rng.uniform(0.1, 1, (_N, 1)).astype(dt), rng.randint(0, _B, _N).astype(np.int32))


def _stats_fn(node_ids, g, h, x):
    return bt.make_stats_summary(node_ids, g, h, [x], max_splits=3, num_buckets=_B)


def _stats_ref(node_ids, g, h, x):
    out = np.zeros((1, 3, _B, 2))
    for i in range(len(x)):
        out[0, node_ids[i], x[i]] += (g[i, 0], h[i, 0])
    return out.astype(np.float32)


def _gains_inputs(dt, rng):
    return (rng.uniform(-1, 1, (3, _B, 2)) * np.array([1.0, 0.0]) + np.array([0.0, 1.0]) * rng.uniform(
        0.1, 1, (3, _B, 2))).astype(dt), rng.uniform(-1, 1, (3, _B, 2)).astype(dt) * np.array([1, 0], dt) + \
        np.array([0, 0.5], dt)


def _gains_fn(s0, s1):
    out = bt.calculate_best_gains_per_feature([1, 3], [s0, s1], l1=0.1, l2=0.5, tree_complexity=0.2,
                                              min_node_weight=0.0, max_splits=3)
    return [t for group in out for t in group]


def _gains_ref(s0, s1):
    outs = [[], [], [], [], []]
    for s in (s0, s1):
        ids, gains, thr, left, right = [], [], [], [], []
        for node in (1, 2):
            cg, ch = np.cumsum(s[node, :, 0].astype(np.float64)), np.cumsum(s[node, :, 1].astype(np.float64))
            wl, gl = _gains_f64(cg, ch, 0.1, 0.5)
            wr, gr = _gains_f64(cg[-1] - cg, ch[-1] - ch, 0.1, 0.5)
            b = int(np.argmax(gl + gr))
            ids.append(node)
            gains.append((gl + gr)[b] - _gains_f64(cg[-1], ch[-1], 0.1, 0.5)[1] - 0.2)
            thr.append(b)
            left.append([wl[b]])
            right.append([wr[b]])
        for o, v, dt in zip(outs, (ids, gains, thr, left, right), (np.int32, np.float32, np.int32, np.float32,
                                                                    np.float32)):
            o.append(np.array(v, dt))
    return [x for o in outs for x in o]


def _bucketize_inputs(dt, rng):
    return (np.concatenate([[0.0, 1.0, 2.0, -5.0, 9.0], rng.uniform(-1, 3, 7)]).astype(dt),
            np.array([0.0, 1.0, 2.0], dt))


def _bucketize_fn(v, b):
    return bt.boosted_trees_bucketize([v], [b])[0]


def _bucketize_ref(v, b):
    return np.minimum(np.searchsorted(b, v, side="left"), len(b) - 1).astype(np.int32)


# ---- the ensemble program ---------------------------------------------------------------------------------------
def _ensemble_inputs(dt, rng):
    x = rng.randint(0, _B, _N).astype(np.int32)
    g = (np.where(x >= 2, 0.8, -0.6) + rng.uniform(-0.1, 0.1, _N)).astype(dt)[:, None]
    h = rng.uniform(0.5, 1, (_N, 1)).astype(dt)
    return x, g, h


def _program(x, g, h):
    ens = bt.TreeEnsemble("ensemble_%d" % len(tf.get_default_graph().get_operations()))
    with tf.control_dependencies([ens.initializer]):
        node_ids = tf.zeros_like(x)
        summary = bt.make_stats_summary(node_ids, g, h, [x], max_splits=1, num_buckets=_B)
        best = bt.calculate_best_gains_per_feature([0, 1], [summary[0]], l1=0.0, l2=_L2, tree_complexity=0.0,
                                                   min_node_weight=0.0, max_splits=1)
        grow = bt.update_ensemble(ens.resource_handle, [0], *best, max_depth=1, learning_rate=1.0, pruning_mode=0)
    with tf.control_dependencies([grow]):
        logits = bt.predict(ens.resource_handle, [x], 1)
        partial, tree_ids, leaf_ids = bt.training_predict(ens.resource_handle, tf.zeros_like(x),
                                                          -tf.ones_like(x), [x], 1)
        stamp, num_trees, num_finalized, num_layers, last_range = ens.get_states()
        stamp_s, serialized = ens.serialize()
        initialized = ens.is_initialized()
        # each example's path: the split on feature 0, the bias 0 (no centering) then its leaf's logit
        debug = tf.strings.regex_full_match(bt.example_debug_outputs(ens.resource_handle, [x], 1),
                                            r'\{"feature_ids":\[0\],"logits_path":\[0\.0,-?[0-9.e+-]+\]\}')
    copy = bt.TreeEnsemble("copy_%d" % len(tf.get_default_graph().get_operations()))
    with tf.control_dependencies([copy.initializer]):
        restore = copy.deserialize(stamp_s, serialized)
    with tf.control_dependencies([restore]):
        copied = bt.predict(copy.resource_handle, [x], 1)
    bias = bt.TreeEnsemble("bias_%d" % len(tf.get_default_graph().get_operations()))
    with tf.control_dependencies([bias.initializer]):
        mean_g = tf.reshape(tf.reduce_mean(g), [1, 1])
        mean_h = tf.reshape(tf.reduce_mean(h), [1, 1])
        go_on = bt.center_bias(bias.resource_handle, mean_g, mean_h, l1=0.0, l2=_L2)
    with tf.control_dependencies([go_on]):
        bias_logits = bt.predict(bias.resource_handle, [x], 1)
    return [logits, partial, tree_ids, leaf_ids, stamp, num_trees, num_finalized, num_layers, last_range, initialized,
            copied, go_on, bias_logits, debug]


def _program_ref(x, g, h):
    b, _, left, right = _stump(x, g, h)
    logits = np.where(x <= b, left, right).astype(np.float32)[:, None]
    bias = -np.mean(g.astype(np.float64)) / (np.mean(h.astype(np.float64)) + _L2)
    # the tree is finalized at depth 1 and a new empty one added: training_predict ends in its root
    return [logits, logits, np.ones(_N, np.int32), np.zeros(_N, np.int32), np.int64(1),
            np.int32(2), np.int32(1), np.int32(1), np.array([0, 1], np.int32), np.bool_(True), logits, np.bool_(True),
            np.full((_N, 1), bias, np.float32), np.ones(_N, bool)]


# ---- quantile streams: with fewer values than quantiles, the sketch is exact -----------------------------------
def _quantile_inputs(dt, rng):
    x = rng.uniform(-2, 2, _N).astype(dt)
    x[:4] = x[4:8]  # repeated values merge into one entry
    return x, rng.randint(1, 4, _N).astype(dt)


def _summaries_fn(x, w):
    return bt.make_quantile_summaries([x], w, 0.01)[0]


def _summaries_ref(x, w):
    values = np.unique(x)
    weights = np.array([w[x == v].sum() for v in values], np.float64)
    cum = np.concatenate([[0.0], np.cumsum(weights)])
    return np.stack([values, weights, cum[:-1], cum[1:]], axis=1).astype(np.float32)


def _quantile_program(x, w):
    n = len(tf.get_default_graph().get_operations())
    acc = bt.QuantileAccumulator(0.01, 1, 100, name="q_%d" % n)
    copy = bt.QuantileAccumulator(0.01, 1, 100, name="q_copy_%d" % n)
    with tf.control_dependencies([acc.initializer, copy.initializer]):
        before = acc.get_bucket_boundaries()[0]
    with tf.control_dependencies([before]):
        add = acc.add_summaries([x], w)
    with tf.control_dependencies([add]):
        flush = acc.flush()
    with tf.control_dependencies([flush]):
        bounds = acc.get_bucket_boundaries()[0]
        restore = bt.quantile_resource_deserialize(copy.resource_handle, [bounds])
    with tf.control_dependencies([restore]):
        copied = copy.get_bucket_boundaries()[0]
        initialized = bt.is_quantile_resource_initialized(copy.resource_handle)
    return [before, bounds, copied, initialized]


def _quantile_program_ref(x, w):
    values = np.unique(x).astype(np.float32)
    return [np.zeros(0, np.float32), values, values, np.bool_(True)]


def _row(op_type, fn, ref, inputs, **kw):
    kw.setdefault("eager", False)
    kw.setdefault("note", _NOTE)
    return Row(op_type, fn, ref, inputs, dtypes=(np.float32,), special=False, grad=False, **kw)


ROWS = [
    _row("BoostedTreesMakeStatsSummary", _stats_fn, _stats_ref, _stats_inputs, rtol=1e-6, atol=1e-6, eager=True),
    _row("BoostedTreesCalculateBestGainsPerFeature", _gains_fn, _gains_ref, _gains_inputs, static_known=False,
         rtol=2e-5, atol=1e-6, eager=True),
    _row("BoostedTreesBucketize", _bucketize_fn, _bucketize_ref, _bucketize_inputs, eager=True),
    _row("BoostedTreesMakeQuantileSummaries", _summaries_fn, _summaries_ref, _quantile_inputs, static_known=False,
         eager=True),
] + [_row(t, _quantile_program, _quantile_program_ref, _quantile_inputs, static_known=False) for t in (
    "BoostedTreesQuantileStreamResourceHandleOp", "BoostedTreesCreateQuantileStreamResource",
    "IsBoostedTreesQuantileStreamResourceInitialized", "BoostedTreesQuantileStreamResourceAddSummaries",
    "BoostedTreesQuantileStreamResourceFlush", "BoostedTreesQuantileStreamResourceGetBucketBoundaries",
    "BoostedTreesQuantileStreamResourceDeserialize")] + [
    _row(t, _program, _program_ref, _ensemble_inputs, static_known=False, rtol=2e-5, atol=1e-6) for t in (
    "BoostedTreesEnsembleResourceHandleOp", "BoostedTreesCreateEnsemble", "IsBoostedTreesEnsembleInitialized",
    "BoostedTreesGetEnsembleStates", "BoostedTreesSerializeEnsemble", "BoostedTreesDeserializeEnsemble",
    "BoostedTreesUpdateEnsemble", "BoostedTreesTrainingPredict", "BoostedTreesPredict", "BoostedTreesCenterBias",
    "BoostedTreesExampleDebugOutputs")]
