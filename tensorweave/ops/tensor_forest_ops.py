"""The TensorForest V4 kernels behind `tf.contrib.tensor_forest` (TF 1.15's `model_ops` and `stats_ops`).

Two resources per tree, as in TF: the decision tree ("DecisionTreeResourceHandleOp") and its fertile
statistics ("FertileStatsResourceHandleOp"). Each lives in the state of whoever runs its handle op
(`ctx.op_state`), so two Sessions on one graph train independent forests; "CreateTreeVariable" and
"CreateFertileStatsVariable" (re)initialize them, "TreeIsInitializedOp" and "FertileStatsIsInitializedOp"
report whether they were, and every other op raises FailedPreconditionError on an uninitialized one.

The training step is TF's: "TraverseTreeV4" routes each example to its leaf; "UpdateModelV4" adds the
example's (weighted) label to that leaf's class counts (the leaf model); "ProcessInputV4" feeds the
example to the leaf's split statistics, where the first `num_splits_to_consider` examples a leaf sees
each create a candidate split (a random feature, the example's value of it as threshold), every
candidate counts the classes going left and right, and the leaf is returned as finished once it has
seen `split_after_samples` (weighted) examples of more than one class; "GrowTreeV4" splits each
finished leaf on the candidate with the lowest smoothed weighted Gini impurity, its two new leaves
starting from that candidate's left and right counts, unless the tree would then exceed `max_nodes`.
A candidate qualifies only with at least `valid_leaf_threshold` weight on each side (TF 1.15's V4
kernels leave that hparam unused; its default 1 asks for two non-empty sides); a finished leaf with
no qualifying candidate starts collecting afresh. "TreePredictionsV4" returns each
example's leaf class counts normalized to probabilities, "TreeSize" the node count and
"FeatureUsageCounts" how many split nodes test each feature.

Checkpointing (TF's names): "TreeSerialize" / "FertileStatsSerialize" write a resource's whole state
(the statistics' random state included, so training resumes identically) to a scalar string, and
"TreeDeserialize" / "FertileStatsDeserialize" replace the state with one, initializing the resource;
tf.contrib.tensor_forest registers them as saveable objects for tf.train.Saver. The string is UTF-8
JSON (layout below), never pickle, so restoring a checkpoint runs no code; a string that is not such a
document, or was made for another num_classes / num_splits_to_consider, raises InvalidArgumentError
and leaves the resource as it was.

Only dense classification (TF's "all_dense" model, "basic" finish, no pruning) is implemented; a split
is `x[feature] <= threshold` ("less_or_equal") or `x[feature] < threshold` ("less"). Each candidate
counts only the examples that reach its leaf from its creation on.
"""

import json

import numpy as np

from ..framework import dtypes as dtypes_lib
from ..framework import errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape
from .data_flow_ops import _resource_handle_kernel
from .resources import _string_scalar as _scalar_string

__all__ = []


# ---- resource state --------------------------------------------------------------------------------
class _TreeState:
    """A decision tree: parallel per-node lists; a leaf has feature -1 and its class counts in `counts`."""

    def __init__(self, name):
        self.name = name
        self.initialized = False

    def reset(self, num_classes):
        self.num_classes = num_classes
        self.feature = [-1]
        self.threshold = [0.0]
        self.left = [-1]
        self.right = [-1]
        self.counts = [np.zeros(num_classes, np.float64)]
        self.initialized = True

    def size(self):
        return len(self.feature)

    def traverse(self, x, strict_less):
        """The leaf id (int32) each row of `x` reaches, and the node path of each when asked."""
        feature = np.asarray(self.feature, np.int64)
        threshold = np.asarray(self.threshold, np.float64)
        left = np.asarray(self.left, np.int64)
        right = np.asarray(self.right, np.int64)
        node = np.zeros(x.shape[0], np.int64)
        rows = np.arange(x.shape[0])
        while True:
            inner = feature[node] >= 0
            if not inner.any():
                break
            r, n = rows[inner], node[inner]
            v = x[r, feature[n]]
            go_left = v < threshold[n] if strict_less else v <= threshold[n]
            node[r] = np.where(go_left, left[n], right[n])
        return node.astype(np.int32)

    def path(self, row, strict_less):
        n, out = 0, [0]
        while self.feature[n] >= 0:
            v = row[self.feature[n]]
            go_left = v < self.threshold[n] if strict_less else v <= self.threshold[n]
            n = self.left[n] if go_left else self.right[n]
            out.append(n)
        return ",".join(str(i) for i in out)

    def split(self, node, feature, threshold, left_counts, right_counts):
        left_id = len(self.feature)
        for c in (left_counts, right_counts):
            self.feature.append(-1)
            self.threshold.append(0.0)
            self.left.append(-1)
            self.right.append(-1)
            self.counts.append(np.array(c, np.float64))
        self.feature[node] = int(feature)
        self.threshold[node] = float(threshold)
        self.left[node] = left_id
        self.right[node] = left_id + 1
        self.counts[node] = None


class _Slot:
    """The split statistics of one fertile leaf: candidate splits with their left/right class counts."""

    def __init__(self, num_splits, num_classes):
        self.features = np.zeros(num_splits, np.int64)
        self.thresholds = np.zeros(num_splits, np.float64)
        self.left = np.zeros((num_splits, num_classes), np.float64)
        self.right = np.zeros((num_splits, num_classes), np.float64)
        self.num_splits = 0
        self.weight = 0.0
        self.classes_seen = np.zeros(num_classes, bool)


class _StatsState:
    """The fertile statistics of one tree: a `_Slot` per leaf collecting examples, and the tree's RNG."""

    def __init__(self, name):
        self.name = name
        self.initialized = False

    def reset(self):
        self.slots = {}
        self.rng = None
        self.initialized = True


def _state_of(handle, op, cls, what):
    s = handle[()] if isinstance(handle, np.ndarray) else handle
    if not isinstance(s, cls):
        raise errors.InvalidArgumentError(None, op, "Input is not a %s handle" % what)
    if not s.initialized:
        raise errors.FailedPreconditionError(None, op, "%s %s has not been initialized." % (what, s.name))
    return s


def _tree_of(handle, op):
    return _state_of(handle, op, _TreeState, "decision tree")


def _stats_of(handle, op):
    return _state_of(handle, op, _StatsState, "fertile stats")


# ---- handles, creation, initialization checks -----------------------------------------------------
def _scalar_resource(op):
    return [(dtypes_lib.resource, ())]


def _no_outputs(op):
    return []


def _make_handle_kernel(cls):
    return _resource_handle_kernel(("tf.contrib.tensor_forest", cls.__name__), cls)


register_op("DecisionTreeResourceHandleOp", infer=_scalar_resource, kernel=_make_handle_kernel(_TreeState),
            grad=NO_GRADIENT, stateful=True)
register_op("FertileStatsResourceHandleOp", infer=_scalar_resource, kernel=_make_handle_kernel(_StatsState),
            grad=NO_GRADIENT, stateful=True)


def _create_tree_kernel(ctx, op, handle, num_classes):
    t = handle[()] if isinstance(handle, np.ndarray) else handle
    with ctx.lock:
        t.reset(num_classes)


def _create_stats_kernel(ctx, op, handle):
    s = handle[()] if isinstance(handle, np.ndarray) else handle
    with ctx.lock:
        s.reset()


def _is_initialized_kernel(ctx, op, handle):
    s = handle[()] if isinstance(handle, np.ndarray) else handle
    return np.array(bool(s.initialized))


register_op("CreateTreeVariable", infer=_no_outputs, kernel=_create_tree_kernel, grad=NO_GRADIENT, stateful=True)
register_op("CreateFertileStatsVariable", infer=_no_outputs, kernel=_create_stats_kernel, grad=NO_GRADIENT,
            stateful=True)
for _type in ("TreeIsInitializedOp", "FertileStatsIsInitializedOp"):
    register_op(_type, infer=lambda op: [(dtypes_lib.bool_, ())], kernel=_is_initialized_kernel, grad=NO_GRADIENT,
                stateful=True)


# ---- argument checks --------------------------------------------------------------------------------
def _check_data(op, x):
    if x.ndim != 2:
        raise errors.InvalidArgumentError(None, op, "input_data must be a matrix, got shape %s" % (x.shape,))
    return x.astype(np.float64, copy=False)


def _check_labels(op, labels, n, num_classes):
    labels = np.asarray(labels)
    if labels.ndim == 2 and labels.shape[1] == 1:
        labels = labels[:, 0]
    if labels.ndim != 1 or labels.shape[0] != n:
        raise errors.InvalidArgumentError(None, op, "input_labels must be a vector of %d labels, got shape %s" % (
            n, labels.shape))
    as_int = labels.astype(np.int64)
    if labels.dtype.kind == "f" and not np.array_equal(as_int, labels):
        raise errors.InvalidArgumentError(None, op, "Classification labels must be integral, got %s" % (
            labels[as_int != labels][0],))
    bad = (as_int < 0) | (as_int >= num_classes)
    if bad.any():
        raise errors.InvalidArgumentError(None, op, "Label %d is not in [0, %d)" % (as_int[bad][0], num_classes))
    return as_int


def _check_weights(op, weights, n):
    weights = np.asarray(weights, np.float64)
    if weights.size == 0:
        return np.ones(n, np.float64)
    if weights.shape != (n,):
        raise errors.InvalidArgumentError(None, op, "input_weights must be empty or a vector of %d weights, got "
                                                    "shape %s" % (n, weights.shape))
    return weights


# ---- training -------------------------------------------------------------------------------------------
def _traverse_kernel(ctx, op, tree, x, strict_less):
    t = _tree_of(tree, op)
    x = _check_data(op, x)
    with ctx.lock:
        return t.traverse(x, strict_less)


def _batch_dim(op):
    shape = op.inputs[1].shape
    return shape[0] if shape.ndims else None


register_op("TraverseTreeV4", infer=lambda op: [(dtypes_lib.int32, TensorShape([_batch_dim(op)]))],
            kernel=_traverse_kernel, grad=NO_GRADIENT, stateful=True)


def _update_model_kernel(ctx, op, tree, leaf_ids, labels, weights, num_classes):
    t = _tree_of(tree, op)
    leaf_ids = np.asarray(leaf_ids, np.int64)
    labels = _check_labels(op, labels, leaf_ids.shape[0], num_classes)
    weights = _check_weights(op, weights, leaf_ids.shape[0])
    with ctx.lock:
        for leaf, label, w in zip(leaf_ids, labels, weights):
            if 0 <= leaf < t.size() and t.counts[leaf] is not None:
                t.counts[leaf][label] += w


register_op("UpdateModelV4", infer=_no_outputs, kernel=_update_model_kernel, grad=NO_GRADIENT, stateful=True)


def _process_input_kernel(ctx, op, tree, stats, x, labels, weights, leaf_ids, num_classes, num_splits_to_consider,
                          split_after_samples, random_seed, strict_less):
    _tree_of(tree, op)
    s = _stats_of(stats, op)
    x = _check_data(op, x)
    leaf_ids = np.asarray(leaf_ids, np.int64)
    labels = _check_labels(op, labels, x.shape[0], num_classes)
    weights = _check_weights(op, weights, x.shape[0])
    if leaf_ids.shape != (x.shape[0],):
        raise errors.InvalidArgumentError(None, op, "leaf_ids must have one id per example")
    finished = []
    with ctx.lock:
        if s.rng is None:
            s.rng = np.random.default_rng(random_seed if random_seed else None)
        for i in range(x.shape[0]):
            leaf, label, w = int(leaf_ids[i]), labels[i], weights[i]
            slot = s.slots.get(leaf)
            if slot is None:
                slot = s.slots[leaf] = _Slot(num_splits_to_consider, num_classes)
            k, go_left = _route_to_candidates(s.rng, slot, x[i], num_splits_to_consider, strict_less)
            slot.left[:k][go_left, label] += w
            slot.right[:k][~go_left, label] += w
            slot.weight += w
            slot.classes_seen[label] = True
            if (slot.weight >= split_after_samples and slot.classes_seen.sum() > 1 and leaf not in finished):
                finished.append(leaf)
    return np.array(finished, np.int32)


register_op("ProcessInputV4", infer=lambda op: [(dtypes_lib.int32, TensorShape([None]))],
            kernel=_process_input_kernel, grad=NO_GRADIENT, stateful=True)


def _smoothed_gini(counts):
    """TF's weighted smoothed Gini: `sum - sum(c**2) / sum` over counts with 1 added to each class."""
    c = counts + 1.0
    total = c.sum(axis=-1)
    return total - (c * c).sum(axis=-1) / total


def _grow_tree_kernel(ctx, op, tree, stats, finished, max_nodes, valid_leaf_threshold):
    t = _tree_of(tree, op)
    s = _stats_of(stats, op)
    with ctx.lock:
        for leaf in np.asarray(finished, np.int64):
            leaf = int(leaf)
            slot = s.slots.get(leaf)
            if slot is None or t.feature[leaf] >= 0:
                continue
            if t.size() + 2 > max_nodes:
                break
            k = slot.num_splits
            left, right = slot.left[:k], slot.right[:k]
            valid = (left.sum(axis=1) >= valid_leaf_threshold) & (right.sum(axis=1) >= valid_leaf_threshold)
            del s.slots[leaf]
            if not valid.any():  # no usable candidate: the leaf starts collecting afresh
                continue
            score = np.where(valid, _smoothed_gini(left) + _smoothed_gini(right), np.inf)
            best = int(np.argmin(score))
            t.split(leaf, slot.features[best], slot.thresholds[best], left[best], right[best])


register_op("GrowTreeV4", infer=_no_outputs, kernel=_grow_tree_kernel, grad=NO_GRADIENT, stateful=True)


# ---- inference ----------------------------------------------------------------------------------------
def _predictions_infer(op):
    n = _batch_dim(op)
    return [(dtypes_lib.float32, TensorShape([n, op._attrs["num_classes"]])), (dtypes_lib.string, TensorShape([n]))]


def _route_to_candidates(rng, slot, row, num_splits_to_consider, strict_less):
    """Adds a random candidate split (a feature and `row`'s value of it) to a fertile `slot` while
    it has fewer than `num_splits_to_consider`; returns the candidate count `k` and which of the
    `k` candidates send `row` left."""
    if slot.num_splits < num_splits_to_consider:
        f = int(rng.integers(len(row)))
        slot.features[slot.num_splits] = f
        slot.thresholds[slot.num_splits] = row[f]
        slot.num_splits += 1
    k = slot.num_splits
    v = row[slot.features[:k]]
    return k, (v < slot.thresholds[:k] if strict_less else v <= slot.thresholds[:k])


def _leaf_values(ctx, op, tree, x, width, strict_less, inference_tree_paths):
    """The leaf statistics (`width` per row) each row of `x` reaches in `tree`, and each row's path
    (encoded; empty unless `inference_tree_paths`)."""
    t = _tree_of(tree, op)
    x = _check_data(op, x)
    with ctx.lock:
        leaves = t.traverse(x, strict_less)
        values = np.stack([t.counts[i] for i in leaves]) if len(leaves) else np.zeros((0, width))
        paths = np.empty(x.shape[0], dtype=object)
        paths[:] = [t.path(row, strict_less).encode() if inference_tree_paths else b"" for row in x]
    return values, paths


def _predictions_kernel(ctx, op, tree, x, num_classes, strict_less, inference_tree_paths):
    counts, paths = _leaf_values(ctx, op, tree, x, num_classes, strict_less, inference_tree_paths)
    total = counts.sum(axis=1, keepdims=True)
    probs = np.divide(counts, total, out=np.zeros_like(counts), where=total > 0)
    return probs.astype(np.float32), paths


register_op("TreePredictionsV4", infer=_predictions_infer, kernel=_predictions_kernel, grad=NO_GRADIENT,
            stateful=True)


def _size_kernel(ctx, op, tree):
    t = _tree_of(tree, op)
    with ctx.lock:
        return np.array(t.size(), np.int32)


register_op("TreeSize", infer=lambda op: [(dtypes_lib.int32, ())], kernel=_size_kernel, grad=NO_GRADIENT,
            stateful=True)


def _usage_kernel(ctx, op, tree, num_features):
    t = _tree_of(tree, op)
    with ctx.lock:
        used = [f for f in t.feature if f >= 0]
    return np.bincount(np.asarray(used, np.int64), minlength=num_features)[:num_features].astype(np.int32)


register_op("FeatureUsageCounts", infer=lambda op: [(dtypes_lib.int32, TensorShape([op._attrs["num_features"]]))],
            kernel=_usage_kernel, grad=NO_GRADIENT, stateful=True)


# ---- checkpointing: serialization of the two resources (TF's TreeSerialize / FertileStatsSerialize) ------
# The state is written as UTF-8 JSON (plain numbers, lists and strings; floats round-trip exactly through
# Python's repr), so reading a checkpoint never runs code. A scalar string tensor holds one resource:
#   tree:  {"format": "tensorweave.tensor_forest.tree", "version": 1, "num_classes": C, "feature": [..],
#           "threshold": [..], "left": [..], "right": [..], "counts": [[C floats] or null (split node), ..]}
#   stats: {"format": "tensorweave.tensor_forest.stats", "version": 1, "num_classes": C,
#           "num_splits_to_consider": K, "slots": [{"leaf", "features", "thresholds", "left", "right",
#           "num_splits", "weight", "classes_seen"}, ..], "rng": null or the PCG64 bit generator's state}
_TREE_FORMAT = "tensorweave.tensor_forest.tree"
_STATS_FORMAT = "tensorweave.tensor_forest.stats"
_SERIAL_VERSION = 1


def _tree_serialize_kernel(ctx, op, tree):
    t = _tree_of(tree, op)
    with ctx.lock:
        doc = {"format": _TREE_FORMAT, "version": _SERIAL_VERSION, "num_classes": int(t.num_classes),
               "feature": [int(f) for f in t.feature], "threshold": [float(v) for v in t.threshold],
               "left": [int(i) for i in t.left], "right": [int(i) for i in t.right],
               "counts": [None if c is None else [float(v) for v in c] for c in t.counts]}
    return _scalar_string(json.dumps(doc, separators=(",", ":")).encode("utf-8"))


def _stats_serialize_kernel(ctx, op, stats, num_classes, num_splits_to_consider):
    s = _stats_of(stats, op)
    with ctx.lock:
        slots = [{"leaf": int(leaf), "features": [int(f) for f in slot.features],
                  "thresholds": [float(v) for v in slot.thresholds], "left": slot.left.tolist(),
                  "right": slot.right.tolist(), "num_splits": int(slot.num_splits), "weight": float(slot.weight),
                  "classes_seen": [bool(b) for b in slot.classes_seen]} for leaf, slot in sorted(s.slots.items())]
        rng = None
        if s.rng is not None:
            rng = s.rng.bit_generator.state
        doc = {"format": _STATS_FORMAT, "version": _SERIAL_VERSION, "num_classes": int(num_classes),
               "num_splits_to_consider": int(num_splits_to_consider), "slots": slots, "rng": rng}
    return _scalar_string(json.dumps(doc, separators=(",", ":")).encode("utf-8"))


class _Corrupt(Exception):
    pass


def _load_doc(op, value, fmt, what):
    """The JSON document of a serialized resource, or InvalidArgumentError naming what is wrong."""
    raw = np.asarray(value, dtype=object)
    if raw.shape != ():
        raise errors.InvalidArgumentError(None, op, "A serialized %s must be a scalar string, got shape %s" % (
            what, raw.shape))
    raw = raw[()]
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, AttributeError) as e:
        raise errors.InvalidArgumentError(None, op, "Could not parse the serialized %s (not a tensorweave "
                                                    "tensor_forest checkpoint entry?): %s" % (what, e)) from None
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise errors.InvalidArgumentError(None, op, "The serialized %s is not in the %r format (not a tensorweave "
                                                    "tensor_forest checkpoint entry?)" % (what, fmt))
    if doc.get("version") != _SERIAL_VERSION:
        raise errors.InvalidArgumentError(None, op, "Unsupported serialized %s version %r (this tensorweave reads "
                                                    "version %d)" % (what, doc.get("version"), _SERIAL_VERSION))
    return doc


def _int_list(v, n=None):
    if not isinstance(v, list) or (n is not None and len(v) != n) or \
            not all(isinstance(i, int) and not isinstance(i, bool) for i in v):
        raise _Corrupt("expected a list of %s integers" % ("" if n is None else n))
    return v


def _float_array(v, shape):
    try:
        a = np.array(v, np.float64)
    except (TypeError, ValueError):
        raise _Corrupt("expected numbers of shape %s" % (shape,)) from None
    if a.shape != shape or a.dtype.kind != "f":
        raise _Corrupt("expected numbers of shape %s, got shape %s" % (shape, a.shape))
    return a


def _parse_tree(doc, num_classes):
    if doc.get("num_classes") != num_classes:
        raise _Corrupt("it has %r classes, the graph's tree %d" % (doc.get("num_classes"), num_classes))
    feature = _int_list(doc.get("feature"))
    n = len(feature)
    if n == 0:
        raise _Corrupt("a tree has at least one node")
    left, right = _int_list(doc.get("left"), n), _int_list(doc.get("right"), n)
    threshold = _float_array(doc.get("threshold"), (n,))
    counts_in = doc.get("counts")
    if not isinstance(counts_in, list) or len(counts_in) != n:
        raise _Corrupt("expected %d per-node counts" % n)
    counts = []
    for i in range(n):
        if feature[i] >= 0:
            if not (0 < left[i] < n and 0 < right[i] < n and left[i] > i and right[i] > i) or \
                    counts_in[i] is not None:
                raise _Corrupt("split node %d has bad children or counts" % i)
            counts.append(None)
        else:
            if feature[i] != -1 or left[i] != -1 or right[i] != -1:
                raise _Corrupt("leaf %d has children" % i)
            counts.append(_float_array(counts_in[i], (num_classes,)))
    return feature, [float(v) for v in threshold], left, right, counts


def _tree_deserialize_kernel(ctx, op, tree, tree_config, num_classes):
    t = tree[()] if isinstance(tree, np.ndarray) else tree
    if not isinstance(t, _TreeState):
        raise errors.InvalidArgumentError(None, op, "Input is not a decision tree handle")
    doc = _load_doc(op, tree_config, _TREE_FORMAT, "decision tree")
    try:
        feature, threshold, left, right, counts = _parse_tree(doc, num_classes)
    except _Corrupt as e:
        raise errors.InvalidArgumentError(None, op, "Corrupt serialized decision tree: %s" % e) from None
    with ctx.lock:
        t.num_classes = num_classes
        t.feature, t.threshold, t.left, t.right, t.counts = feature, threshold, left, right, counts
        t.initialized = True


def _parse_candidates(slot, d, num_splits):
    """Fills the split candidates every stats slot has (features, thresholds, how many are in use)."""
    slot.features = np.array(_int_list(d.get("features"), num_splits), np.int64)
    slot.thresholds = _float_array(d.get("thresholds"), (num_splits,))
    k = d.get("num_splits")
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= num_splits:
        raise _Corrupt("bad num_splits %r" % (k,))
    slot.num_splits = k


def _parse_slots(doc, size_key, size, num_splits, parse_slot):
    """(leaf -> slot, rng) of a serialized stats document made for `size_key`=`size` (classes or
    outputs) and `num_splits` candidates; `parse_slot(d, size, num_splits)` reads one slot."""
    if doc.get(size_key) != size or doc.get("num_splits_to_consider") != num_splits:
        raise _Corrupt("it was made with %s=%r, num_splits_to_consider=%r, the graph's with %d, %d" % (
            size_key, doc.get(size_key), doc.get("num_splits_to_consider"), size, num_splits))
    slots_in = doc.get("slots")
    if not isinstance(slots_in, list):
        raise _Corrupt("expected a list of slots")
    slots = {}
    for d in slots_in:
        if not isinstance(d, dict) or not isinstance(d.get("leaf"), int) or d["leaf"] in slots:
            raise _Corrupt("bad slot")
        slots[d["leaf"]] = parse_slot(d, size, num_splits)
    return slots, _parse_rng(doc)


def _parse_slot(d, num_classes, num_splits):
    slot = _Slot(num_splits, num_classes)
    _parse_candidates(slot, d, num_splits)
    slot.left = _float_array(d.get("left"), (num_splits, num_classes))
    slot.right = _float_array(d.get("right"), (num_splits, num_classes))
    slot.weight = float(_float_array(d.get("weight"), ()))
    seen = d.get("classes_seen")
    if not isinstance(seen, list) or len(seen) != num_classes or not all(isinstance(b, bool) for b in seen):
        raise _Corrupt("bad classes_seen")
    slot.classes_seen = np.array(seen, bool)
    return slot


def _parse_rng(doc):
    """The stats' random generator from its saved PCG64 state (None when none was saved).

    Raises:
      _Corrupt: If the state is not a valid PCG64 state.
    """
    if doc.get("rng") is None:
        return None
    state = doc["rng"]
    if not isinstance(state, dict) or state.get("bit_generator") != "PCG64":
        raise _Corrupt("the random state is not a PCG64 state")
    rng = np.random.Generator(np.random.PCG64())
    try:
        rng.bit_generator.state = state
    except (TypeError, ValueError, KeyError) as e:
        raise _Corrupt("bad random state: %s" % e) from None
    return rng


def _stats_deserialize_kernel(ctx, op, stats, stats_config, num_classes, num_splits_to_consider):
    s = stats[()] if isinstance(stats, np.ndarray) else stats
    if not isinstance(s, _StatsState):
        raise errors.InvalidArgumentError(None, op, "Input is not a fertile stats handle")
    doc = _load_doc(op, stats_config, _STATS_FORMAT, "fertile stats")
    try:
        slots, rng = _parse_slots(doc, "num_classes", num_classes, num_splits_to_consider, _parse_slot)
    except _Corrupt as e:
        raise errors.InvalidArgumentError(None, op, "Corrupt serialized fertile stats: %s" % e) from None
    with ctx.lock:
        s.slots, s.rng, s.initialized = slots, rng, True


_scalar_string_out = lambda op: [(dtypes_lib.string, ())]  # noqa: E731
register_op("TreeSerialize", infer=_scalar_string_out, kernel=_tree_serialize_kernel, grad=NO_GRADIENT,
            stateful=True)
register_op("TreeDeserialize", infer=_no_outputs, kernel=_tree_deserialize_kernel, grad=NO_GRADIENT, stateful=True)
register_op("FertileStatsSerialize", infer=_scalar_string_out, kernel=_stats_serialize_kernel, grad=NO_GRADIENT,
            stateful=True)
register_op("FertileStatsDeserialize", infer=_no_outputs, kernel=_stats_deserialize_kernel, grad=NO_GRADIENT,
            stateful=True)


# ---- graph builders (used by tensorweave.contrib.tensor_forest) -----------------------------------------
def _resource_handle(op_type, name):
    """A handle op of `op_type` named `name` (unshared: keyed by the op in each Session)."""
    return ops.apply_op(op_type, [], {"container": "", "shared_name": ""}, name=name)
