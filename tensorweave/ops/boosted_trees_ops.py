"""The gradient boosted trees kernels behind `tf.estimator.BoostedTreesClassifier` / `BoostedTreesRegressor`
(TF 1.15's `tensorflow/python/ops/boosted_trees_ops.py` and its `BoostedTrees*` ops).

One resource, the tree ensemble ("BoostedTreesEnsembleResourceHandleOp"), lives in the state of whoever
runs its handle op (`ctx.op_state`, keyed by `shared_name` when given), so two Sessions on one graph train
independent ensembles. "BoostedTreesCreateEnsemble" initializes it (once: a second create is a no-op, as
in TF) from a stamp token and a serialized ensemble ("" for an empty one),
"IsBoostedTreesEnsembleInitialized" reports whether it was, and every other op raises NotFoundError on an
uninitialized one (TF's missing resource).

The ensemble is TF's `boosted_trees.TreeEnsemble`: trees of nodes, each a leaf (a float32 logit) or a
bucketized split (`feature_id`, `threshold`: an example goes left iff its bucket of that feature is
`<= threshold`), a split keeping its gain and the leaf value it replaced (`original_leaf`); per tree a
weight and metadata (layers grown, finalized, post-pruning remap); and the growing metadata (trees and
layers attempted, the node range of the last layer grown). Arithmetic is float32 as in TF's kernels
(statistics are summed in float64 and rounded once, as "BoostedTreesMakeStatsSummary" does).

Training step (TF's layer-by-layer boosting):
- "BoostedTreesTrainingPredict" routes each example from its cached (tree, node) to the last tree's leaf,
  returning the logits added since the cache and the example's new (tree, node);
- "BoostedTreesMakeStatsSummary" sums gradients and hessians per (feature, node, bucket);
- "BoostedTreesCalculateBestGainsPerFeature" picks per feature and node of the layer the bucket threshold
  of best gain, with `weight = -(g -+ l1) / (h + l2)`, `gain = -(g -+ l1) * weight` (0 for `|g| <= l1`
  or `h + l2 <= 1e-15`), the split's gain `left + right - parent - tree_complexity`, nodes whose hessian
  sum is below `min_node_weight` not split;
- "BoostedTreesUpdateEnsemble" keeps the best candidate per node (ties: the lowest feature id), splits
  the nodes (pruning_mode 1 "pre": not those of negative gain), the children's leaves being the parent's
  value plus `learning_rate *` their weight, finalizes the tree at `max_depth` layers (pruning_mode 2
  "post": then removes, bottom up, splits of negative gain with two leaf children, recording how cached
  predictions map to the pruned tree) and starts a new empty tree;
- "BoostedTreesCenterBias" adds the regularized weight of the mean gradient and hessian to the first
  tree's root (creating it), returning whether the change was still above 1% of the bias.
"BoostedTreesPredict" sums the weighted leaves of all trees; "BoostedTreesExampleDebugOutputs" returns per
example the features split on along its path and the logits after each split (the bias first), as UTF-8
JSON `{"feature_ids": [..], "logits_path": [..]}` (TF: a DebugOutput proto); "BoostedTreesGetEnsembleStates"
returns the stamp, tree counts, layers attempted and last layer range; "BoostedTreesBucketize" maps floats to the
index of the first boundary not below them (the last for larger values, 0 without boundaries).

Checkpointing: "BoostedTreesSerializeEnsemble" returns the stamp and the ensemble as a scalar string,
"BoostedTreesDeserializeEnsemble" replaces the ensemble with one. The string is UTF-8 JSON (layout below),
not TF's proto bytes, so reading a checkpoint never runs code; a string that is not such a document
raises InvalidArgumentError ("Unable to parse tree ensemble proto.", TF's message) and leaves the
resource as it was. `TreeEnsemble` registers the resource and its saveable (TF's entries
"<handle name>_stamp" and "<handle name>_serialized").

Quantile streams (numeric features): "BoostedTreesQuantileStreamResourceHandleOp" /
"BoostedTreesCreateQuantileStreamResource" make a resource of one weighted quantile stream per feature
(TF's WeightedQuantilesStream: buffered values compressed into levels of summaries whose rank error stays
within `epsilon` of the total weight, float32 as TF); "BoostedTreesMakeQuantileSummaries" sketches a
batch's values ([entries, 4]: value, weight, min rank, max rank), "...AddSummaries" merges them into the
streams, "...Flush" turns each stream into about `num_buckets` distinct bucket boundaries (the minimum and
maximum always among them) and starts the streams afresh, "...GetBucketBoundaries" / "...Deserialize"
read and set the boundaries (what `QuantileAccumulator`'s saveable checkpoints, as TF's entries
"<handle name>_bucket_boundaries_<i>"), and "BoostedTreesBucketize" buckets values by them.

Only one-dimensional logits (TF 1.15's estimator) and bucketized splits are implemented.
"""

import json

import numpy as np

from ..framework import dtypes as dtypes_lib
from ..framework import errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape
from . import resources
from .data_flow_ops import _resource_handle_kernel
from .resources import _string_scalar as _scalar_string

__all__ = ["PruningMode", "QuantileAccumulator", "TreeEnsemble"]

_F32 = np.float32
_EPS = _F32(1e-15)
_MIN_DELTA_FOR_CENTER_BIAS = _F32(0.01)
_NO_PRUNING, _PRE_PRUNING, _POST_PRUNING = 0, 1, 2


class PruningMode(object):
    """Class for working with Pruning modes (TF's `boosted_trees_ops.PruningMode`)."""
    NO_PRUNING, PRE_PRUNING, POST_PRUNING = range(0, 3)

    _map = {"none": NO_PRUNING, "pre": PRE_PRUNING, "post": POST_PRUNING}

    @classmethod
    def from_str(cls, mode):
        """The mode's number.

        Raises:
          ValueError: If `mode` is not one of 'none', 'pre', 'post'.
        """
        if mode in cls._map:
            return cls._map[mode]
        raise ValueError("pruning_mode mode must be one of: {}. Found: {}".format(", ".join(sorted(cls._map)),
                                                                                  mode))


# ---- resource state ----------------------------------------------------------------------------------
class _Node:
    __slots__ = ("value", "split", "gain", "original_leaf")

    def __init__(self, value=0.0):
        self.value = _F32(value)       # a leaf's logit
        self.split = None              # (feature_id, threshold, dimension_id, left_id, right_id) for a split
        self.gain = None               # metadata.gain, None when unset
        self.original_leaf = None      # metadata.original_leaf, None when unset

    def node_value(self):
        """TF's `node_value`: a leaf's value, else the original leaf's (0 when unset)."""
        if self.split is None:
            return self.value
        return _F32(0.0) if self.original_leaf is None else self.original_leaf


class _TreeMeta:
    __slots__ = ("num_layers_grown", "is_finalized", "post_pruned")

    def __init__(self):
        self.num_layers_grown = 0
        self.is_finalized = False
        self.post_pruned = []  # [(new_node_id, logit_change)] per node id before pruning


class _Ensemble:
    """A tree ensemble (TF's BoostedTreesEnsembleResource)."""

    def __init__(self, name):
        self.name = name
        self.initialized = False
        self.reset()

    def reset(self):
        self.stamp = -1
        self.trees = []
        self.weights = []
        self.meta = []
        self.num_trees_attempted = 0
        self.num_layers_attempted = 0
        self.last_layer_start = 0
        self.last_layer_end = 0
        self._flat = None

    def changed(self):
        self._flat = None

    def add_tree(self, weight, logit=0.0):
        self.trees.append([_Node(logit)])
        self.weights.append(_F32(weight))
        self.meta.append(_TreeMeta())
        self.changed()
        return len(self.trees) - 1

    def num_finalized(self):
        n = len(self.trees)
        return n if n <= 0 or self.meta[n - 1].is_finalized else n - 1

    def update_growing_metadata(self):
        self.num_layers_attempted += 1
        n = len(self.trees)
        if n <= 0 or ((n == 1 or self.meta[n - 2].is_finalized) and len(self.trees[n - 1]) == 1):
            self.num_trees_attempted += 1

    def flat(self):
        """The ensemble as flat arrays over all nodes (cached until the next change)."""
        if self._flat is None:
            offsets = np.cumsum([0] + [len(t) for t in self.trees]).astype(np.int64)
            nodes = [n for t in self.trees for n in t]
            is_leaf = np.array([n.split is None for n in nodes], bool)
            value = np.array([n.node_value() for n in nodes], _F32)
            feature = np.zeros(len(nodes), np.int64)
            dim = np.zeros(len(nodes), np.int64)
            threshold = np.zeros(len(nodes), np.int64)
            left = np.zeros(len(nodes), np.int64)
            right = np.zeros(len(nodes), np.int64)
            for g, n in enumerate(nodes):
                if n.split is not None:
                    feature[g], threshold[g], dim[g], left[g], right[g] = n.split
            tree_of = np.repeat(np.arange(len(self.trees)), [len(t) for t in self.trees])
            left = left + offsets[tree_of] if len(nodes) else left
            right = right + offsets[tree_of] if len(nodes) else right
            self._flat = (offsets, is_leaf, value, feature, dim, threshold, left, right)
        return self._flat


def _ensemble_of(handle, op, initialized=True):
    e = handle[()] if isinstance(handle, np.ndarray) else handle
    if not isinstance(e, _Ensemble):
        raise errors.InvalidArgumentError(None, op, "Input is not a boosted trees ensemble handle")
    if initialized and not e.initialized:
        raise errors.NotFoundError(None, op, "Resource %s of type BoostedTreesEnsembleResource does not exist "
                                             "(the ensemble has not been created)." % e.name)
    return e


# ---- serialization: UTF-8 JSON of TF's TreeEnsemble fields ------------------------------------------------
#   {"format": "tensorweave.boosted_trees.ensemble", "version": 1,
#    "trees": [[{"leaf": v} or {"split": [feature_id, threshold, dimension_id, left_id, right_id],
#                "gain": g, "original_leaf": v (optional)}, ...], ...],
#    "tree_weights": [..], "tree_metadata": [{"num_layers_grown", "is_finalized",
#    "post_pruned_nodes_meta": [[new_node_id, logit_change], ..]}, ..],
#    "growing_metadata": {"num_trees_attempted", "num_layers_attempted", "last_layer_node_start",
#    "last_layer_node_end"}}
# Floats are float32 values written as Python floats, so they round-trip exactly.
_FORMAT = "tensorweave.boosted_trees.ensemble"
_VERSION = 1


def _to_doc(e):
    trees = []
    for t in e.trees:
        nodes = []
        for n in t:
            d = {"leaf": float(n.value)} if n.split is None else {"split": [int(v) for v in n.split]}
            if n.gain is not None:
                d["gain"] = float(n.gain)
            if n.original_leaf is not None:
                d["original_leaf"] = float(n.original_leaf)
            nodes.append(d)
        trees.append(nodes)
    return {"format": _FORMAT, "version": _VERSION, "trees": trees,
            "tree_weights": [float(w) for w in e.weights],
            "tree_metadata": [{"num_layers_grown": m.num_layers_grown, "is_finalized": m.is_finalized,
                               "post_pruned_nodes_meta": [[int(i), float(c)] for i, c in m.post_pruned]}
                              for m in e.meta],
            "growing_metadata": {"num_trees_attempted": e.num_trees_attempted,
                                 "num_layers_attempted": e.num_layers_attempted,
                                 "last_layer_node_start": e.last_layer_start,
                                 "last_layer_node_end": e.last_layer_end}}


class _Corrupt(Exception):
    pass


def _int(v):
    if not isinstance(v, int) or isinstance(v, bool):
        raise _Corrupt("expected an integer, got %r" % (v,))
    return v


def _float(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _Corrupt("expected a number, got %r" % (v,))
    return _F32(v)


def _from_doc(doc, e):
    """Fills the (reset) ensemble `e` from a parsed document; raises _Corrupt."""
    if not isinstance(doc, dict) or doc.get("format") != _FORMAT:
        raise _Corrupt("not a %r document" % _FORMAT)
    if doc.get("version") != _VERSION:
        raise _Corrupt("unsupported version %r (this tensorweave reads version %d)" % (doc.get("version"), _VERSION))
    trees, weights, metas = doc.get("trees"), doc.get("tree_weights"), doc.get("tree_metadata")
    if not all(isinstance(v, list) for v in (trees, weights, metas)) or not len(trees) == len(weights) == len(metas):
        raise _Corrupt("expected as many trees, tree weights and tree metadata")
    for nodes_in in trees:
        if not isinstance(nodes_in, list) or not nodes_in:
            raise _Corrupt("a tree is a non-empty list of nodes")
        nodes = []
        for i, d in enumerate(nodes_in):
            if not isinstance(d, dict):
                raise _Corrupt("a node is an object")
            n = _Node()
            if "split" in d:
                s = d["split"]
                if not isinstance(s, list) or len(s) != 5:
                    raise _Corrupt("a split is [feature_id, threshold, dimension_id, left_id, right_id]")
                s = tuple(_int(v) for v in s)
                if s[0] < 0 or s[2] < 0 or not (i < s[3] < len(nodes_in) and i < s[4] < len(nodes_in)):
                    raise _Corrupt("split node %d has a bad feature or children" % i)
                n.split = s
            elif "leaf" in d:
                n.value = _float(d["leaf"])
            else:
                raise _Corrupt("a node is a leaf or a split")
            if "gain" in d:
                n.gain = _float(d["gain"])
            if "original_leaf" in d:
                n.original_leaf = _float(d["original_leaf"])
            nodes.append(n)
        e.trees.append(nodes)
    e.weights = [_float(w) for w in weights]
    for m_in in metas:
        if not isinstance(m_in, dict):
            raise _Corrupt("tree metadata is an object")
        m = _TreeMeta()
        m.num_layers_grown = _int(m_in.get("num_layers_grown", 0))
        m.is_finalized = m_in.get("is_finalized", False)
        if not isinstance(m.is_finalized, bool):
            raise _Corrupt("is_finalized is a boolean")
        pp = m_in.get("post_pruned_nodes_meta", [])
        if not isinstance(pp, list) or not all(isinstance(p, list) and len(p) == 2 for p in pp):
            raise _Corrupt("post_pruned_nodes_meta is a list of [new_node_id, logit_change]")
        m.post_pruned = [(_int(a), _float(b)) for a, b in pp]
        e.meta.append(m)
    for t, m in zip(e.trees, e.meta):
        if any(not 0 <= i < len(t) for i, _ in m.post_pruned):
            raise _Corrupt("post_pruned_nodes_meta names a node the tree does not have")
    g = doc.get("growing_metadata", {})
    if not isinstance(g, dict):
        raise _Corrupt("growing_metadata is an object")
    e.num_trees_attempted = _int(g.get("num_trees_attempted", 0))
    e.num_layers_attempted = _int(g.get("num_layers_attempted", 0))
    e.last_layer_start = _int(g.get("last_layer_node_start", 0))
    e.last_layer_end = _int(g.get("last_layer_node_end", 0))


def _init_from_serialized(op, e, serialized, stamp):
    """Replaces `e`'s state with the serialized ensemble (InvalidArgumentError, `e` unchanged, if corrupt)."""
    raw = np.asarray(serialized, dtype=object)
    if raw.shape != ():
        raise errors.InvalidArgumentError(None, op, "tree_ensemble_serialized must be a scalar string, got shape "
                                                    "%s" % (raw.shape,))
    raw = raw[()]
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    fresh = _Ensemble(e.name)
    if raw:
        try:
            _from_doc(json.loads(raw.decode("utf-8")), fresh)
        except (UnicodeDecodeError, ValueError, AttributeError, RecursionError, _Corrupt) as err:
            raise errors.InvalidArgumentError(None, op, "Unable to parse tree ensemble proto. (%s)" % err) from None
    fresh.stamp = int(stamp)
    e.trees, e.weights, e.meta = fresh.trees, fresh.weights, fresh.meta
    e.num_trees_attempted, e.num_layers_attempted = fresh.num_trees_attempted, fresh.num_layers_attempted
    e.last_layer_start, e.last_layer_end = fresh.last_layer_start, fresh.last_layer_end
    e.stamp = fresh.stamp
    e.initialized = True
    e.changed()


# ---- handle, creation, states, serialization ------------------------------------------------------------
register_op("BoostedTreesEnsembleResourceHandleOp", infer=lambda op: [(dtypes_lib.resource, ())],
            kernel=_resource_handle_kernel(("tf.boosted_trees",), _Ensemble), grad=NO_GRADIENT, stateful=True)


def _check_stamp(op, stamp):
    stamp = np.asarray(stamp)
    if stamp.shape != ():
        raise errors.InvalidArgumentError(None, op, "stamp_token must be a scalar, got shape %s" % (stamp.shape,))
    return int(stamp)


def _create_kernel(ctx, op, handle, stamp_token, tree_ensemble_serialized):
    e = _ensemble_of(handle, op, initialized=False)
    stamp = _check_stamp(op, stamp_token)
    with ctx.lock:
        if not e.initialized:  # TF: creating an existing resource is a no-op
            _init_from_serialized(op, e, tree_ensemble_serialized, stamp)


def _is_initialized_kernel(ctx, op, handle):
    return np.array(bool(_ensemble_of(handle, op, initialized=False).initialized))


register_op("BoostedTreesCreateEnsemble", infer=lambda op: [], kernel=_create_kernel, grad=NO_GRADIENT,
            stateful=True)
register_op("IsBoostedTreesEnsembleInitialized", infer=lambda op: [(dtypes_lib.bool_, ())],
            kernel=_is_initialized_kernel, grad=NO_GRADIENT, stateful=True)


def _states_kernel(ctx, op, handle):
    e = _ensemble_of(handle, op)
    with ctx.lock:
        return (np.int64(e.stamp), np.int32(len(e.trees)), np.int32(e.num_finalized()),
                np.int32(e.num_layers_attempted),
                # TF: an empty ensemble's range [0, 0) is made the valid [0, 1)
                np.array([e.last_layer_start, max(1, e.last_layer_end)], np.int32))


register_op("BoostedTreesGetEnsembleStates",
            infer=lambda op: [(dtypes_lib.int64, ()), (dtypes_lib.int32, ()), (dtypes_lib.int32, ()),
                              (dtypes_lib.int32, ()), (dtypes_lib.int32, (2,))],
            kernel=_states_kernel, grad=NO_GRADIENT, stateful=True)


def _serialize_kernel(ctx, op, handle):
    e = _ensemble_of(handle, op)
    with ctx.lock:
        doc = _to_doc(e)
        stamp = e.stamp
    return np.int64(stamp), _scalar_string(json.dumps(doc, separators=(",", ":")).encode("utf-8"))


def _deserialize_kernel(ctx, op, handle, stamp_token, tree_ensemble_serialized):
    e = _ensemble_of(handle, op)
    stamp = _check_stamp(op, stamp_token)
    with ctx.lock:
        _init_from_serialized(op, e, tree_ensemble_serialized, stamp)


register_op("BoostedTreesSerializeEnsemble", infer=lambda op: [(dtypes_lib.int64, ()), (dtypes_lib.string, ())],
            kernel=_serialize_kernel, grad=NO_GRADIENT, stateful=True)
register_op("BoostedTreesDeserializeEnsemble", infer=lambda op: [], kernel=_deserialize_kernel, grad=NO_GRADIENT,
            stateful=True)


# ---- prediction ------------------------------------------------------------------------------------------
def _features_matrix(op, features, what="bucketized_features"):
    """The bucketized features as a list of int [batch, dims] arrays of one batch size."""
    out = []
    for i, f in enumerate(features):
        f = np.asarray(f)
        if f.ndim == 1:
            f = f[:, None]
        if f.ndim != 2:
            raise errors.InvalidArgumentError(None, op, "%s[%d] must be a vector or a matrix, got shape %s" % (
                what, i, f.shape))
        if out and f.shape[0] != out[0].shape[0]:
            raise errors.InvalidArgumentError(None, op, "%s[%d] has %d examples, %s[0] %d" % (
                what, i, f.shape[0], what, out[0].shape[0]))
        out.append(f.astype(np.int64, copy=False))
    return out


def _route(e, op, features, rows, node):
    """Moves the examples `rows` from the global nodes `node` down to a leaf of their tree."""
    _, is_leaf, _, feature, dim, threshold, left, right = e.flat()
    node = node.copy()
    while True:
        inner = ~is_leaf[node]
        if not inner.any():
            return node
        idx = np.nonzero(inner)[0]
        g = node[idx]
        vals = np.empty(len(idx), np.int64)
        for f in np.unique(feature[g]):
            sel = feature[g] == f
            if f >= len(features):
                raise errors.InvalidArgumentError(None, op, "The ensemble splits on feature %d but only %d features "
                                                            "were given" % (f, len(features)))
            vals[sel] = features[f][rows[idx[sel]], dim[g[sel]]]
        node[idx] = np.where(vals <= threshold[g], left[g], right[g])


def _predict_kernel(ctx, op, handle, *bucketized_features, num_bucketized_features, logits_dimension):
    e = _ensemble_of(handle, op)
    if logits_dimension != 1:
        raise errors.InvalidArgumentError(None, op, "Currently only one dimensional outputs are supported.")
    features = _features_matrix(op, bucketized_features)
    n = features[0].shape[0] if features else 0
    with ctx.lock:
        out = np.zeros(n, _F32)
        if e.trees:
            offsets, _, value, *_ = e.flat()
            rows = np.arange(n)
            for t in range(len(e.trees)):
                leaf = _route(e, op, features, rows, np.full(n, offsets[t], np.int64))
                out = out + e.weights[t] * value[leaf]
    return out.reshape(n, 1)


def _predict_infer(op):
    n = op.inputs[1].shape[0] if len(op.inputs) > 1 and op.inputs[1].shape.ndims else None
    return [(dtypes_lib.float32, TensorShape([n, op._attrs["logits_dimension"]]))]


register_op("BoostedTreesPredict", infer=_predict_infer, kernel=_predict_kernel, grad=NO_GRADIENT, stateful=True)


def _training_predict_kernel(ctx, op, handle, cached_tree_ids, cached_node_ids, *bucketized_features,
                             num_bucketized_features, logits_dimension):
    e = _ensemble_of(handle, op)
    if logits_dimension != 1:
        raise errors.InvalidArgumentError(None, op, "Currently only one dimensional outputs are supported.")
    features = _features_matrix(op, bucketized_features)
    n = features[0].shape[0] if features else 0
    tree_ids = np.asarray(cached_tree_ids, np.int64).reshape(-1)
    node_ids = np.asarray(cached_node_ids, np.int64).reshape(-1)
    if tree_ids.shape != (n,) or node_ids.shape != (n,):
        raise errors.InvalidArgumentError(None, op, "cached_tree_ids and cached_node_ids must have one entry per "
                                                    "example (%d)" % n)
    with ctx.lock:
        latest = len(e.trees) - 1
        if latest < 0:
            return np.zeros((n, 1), _F32), tree_ids.astype(np.int32), np.zeros(n, np.int32)
        offsets, _, value, *_ = e.flat()
        if ((tree_ids < 0) | (tree_ids > latest)).any():
            raise errors.InvalidArgumentError(None, op, "cached_tree_ids must be in [0, %d]" % latest)
        partial_tree = np.zeros(n, _F32)
        node = np.zeros(n, np.int64)
        for i in np.nonzero(node_ids >= 0)[0]:
            t, nid = int(tree_ids[i]), int(node_ids[i])
            m = e.meta[t]
            pruned = m.is_finalized and bool(m.post_pruned)
            if nid >= (len(m.post_pruned) if pruned else len(e.trees[t])):
                raise errors.InvalidArgumentError(None, op, "cached node %d is not in tree %d" % (nid, t))
            if pruned:  # the node the cached one was pruned into, and the cached logit's correction
                nid, partial_tree[i] = m.post_pruned[nid]
            partial_tree[i] = partial_tree[i] - e.trees[t][nid].node_value()
            node[i] = nid
        total = np.zeros(n, _F32)
        rows = np.arange(n)
        out_node = np.zeros(n, np.int64)
        for t in range(int(tree_ids.min()) if n else latest, latest + 1):
            active = tree_ids <= t
            if not active.any():
                continue
            r = rows[active]
            leaf = _route(e, op, features, r, np.where(tree_ids[r] == t, node[r], 0) + offsets[t])
            total[r] = total[r] + e.weights[t] * (partial_tree[r] + value[leaf])
            partial_tree[r] = _F32(0.0)
            if t == latest:
                out_node[r] = leaf - offsets[t]
    return total.reshape(n, 1), np.full(n, latest, np.int32), out_node.astype(np.int32)


def _training_predict_infer(op):
    n = op.inputs[1].shape[0] if op.inputs[1].shape.ndims else None
    return [(dtypes_lib.float32, TensorShape([n, op._attrs["logits_dimension"]])),
            (dtypes_lib.int32, TensorShape([n])), (dtypes_lib.int32, TensorShape([n]))]


register_op("BoostedTreesTrainingPredict", infer=_training_predict_infer, kernel=_training_predict_kernel,
            grad=NO_GRADIENT, stateful=True)


def _debug_outputs_kernel(ctx, op, handle, *bucketized_features, num_bucketized_features, logits_dimension):
    e = _ensemble_of(handle, op)
    if logits_dimension != 1:
        raise errors.InvalidArgumentError(None, op, "Currently only one dimensional outputs are supported.")
    features = _features_matrix(op, bucketized_features)
    n = features[0].shape[0] if features else 0
    out = np.empty(n, dtype=object)
    with ctx.lock:
        if not e.trees:
            raise errors.InvalidArgumentError(None, op, "The tree ensemble is empty: there is no bias to explain from "
                                                        "(train with center_bias=True first).")
        offsets, is_leaf, value, feature, dim, threshold, left, right = e.flat()
        if features and int(feature[~is_leaf].max(initial=0)) >= len(features):
            raise errors.InvalidArgumentError(None, op, "The ensemble splits on feature %d but only %d features were "
                                                        "given" % (int(feature[~is_leaf].max()), len(features)))
        for i in range(n):
            # TF's walk: the bias (tree 0's root), then the logits after each split, each adding the
            # weighted leaves of the trees passed before.
            tree_logit = _F32(e.weights[0] * value[offsets[0]])
            logits_path, feature_ids, past = [tree_logit], [], _F32(0.0)
            for t in range(len(e.trees)):
                node = offsets[t]
                while not is_leaf[node]:
                    feature_ids.append(int(feature[node]))
                    v = features[feature[node]][i, dim[node]]
                    node = left[node] if v <= threshold[node] else right[node]
                    tree_logit = _F32(e.weights[t] * value[node])
                    logits_path.append(_F32(tree_logit + past))
                if t == 0 or node > offsets[t]:
                    past = _F32(past + tree_logit)
            doc = {"feature_ids": feature_ids, "logits_path": [float(v) for v in logits_path]}
            out[i] = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    return out


register_op("BoostedTreesExampleDebugOutputs",
            infer=lambda op: [(dtypes_lib.string, TensorShape([op.inputs[1].shape[0] if len(op.inputs) > 1 and
                                                                op.inputs[1].shape.ndims else None]))],
            kernel=_debug_outputs_kernel, grad=NO_GRADIENT, stateful=True)


# ---- statistics and split finding ------------------------------------------------------------------------
def _make_stats_summary_kernel(xp, node_ids, gradients, hessians, *bucketized_features_list, max_splits,
                               num_buckets, num_features):
    node_ids = np.asarray(node_ids).reshape(-1).astype(np.int64)
    gradients, hessians = np.asarray(gradients), np.asarray(hessians)
    n = node_ids.shape[0]
    if gradients.ndim != 2 or gradients.shape[0] != n or hessians.shape != gradients.shape:
        raise errors.InvalidArgumentError(None, None, "node_ids size should match 0th dim of gradients. node ids size: "
                                                    "%d, gradients shape: %s, hessians shape: %s" % (
                                                        n, gradients.shape, hessians.shape))
    if ((node_ids < 0) | (node_ids >= max_splits)).any():
        raise errors.InvalidArgumentError(None, None, "node_ids must be in [0, max_splits=%d), got %d" % (
            max_splits, node_ids[(node_ids < 0) | (node_ids >= max_splits)][0]))
    out = np.zeros((num_features, max_splits, num_buckets, 2), np.float64)
    g = gradients[:, 0].astype(np.float64)
    h = hessians[:, 0].astype(np.float64)
    for f, feat in enumerate(bucketized_features_list):
        feat = np.asarray(feat).reshape(-1).astype(np.int64)
        if feat.shape != (n,):
            raise errors.InvalidArgumentError(None, None, "bucketized_features_list[%d] must have %d entries, got "
                                                        "shape %s" % (f, n, np.shape(feat)))
        bad = (feat < 0) | (feat >= num_buckets)
        if bad.any():
            raise errors.InvalidArgumentError(None, None, "bucketized_features_list[%d] has bucket %d, not in [0, "
                                                        "num_buckets=%d)" % (f, feat[bad][0], num_buckets))
        np.add.at(out[f, :, :, 0], (node_ids, feat), g)
        np.add.at(out[f, :, :, 1], (node_ids, feat), h)
    return out.astype(_F32)


register_op("BoostedTreesMakeStatsSummary",
            infer=lambda op: [(dtypes_lib.float32, (op._attrs["num_features"], op._attrs["max_splits"],
                                                    op._attrs["num_buckets"], 2))],
            kernel=_make_stats_summary_kernel, grad=NO_GRADIENT)


def _weights_and_gains(g, h, l1, l2):
    """TF's CalculateWeightsAndGains for one logit, elementwise in float32: (weight, gain)."""
    g = np.asarray(g, _F32)
    h = np.asarray(h, _F32)
    with np.errstate(all="ignore"):
        if l1 > 0:
            g1 = np.where(g > l1, g - l1, np.where(g < -l1, g + l1, _F32(0.0))).astype(_F32)
            zero = (g <= l1) & (g >= -l1)
        else:
            g1, zero = g, np.zeros(g.shape, bool)
        denom = (h + l2).astype(_F32)
        zero = zero | (denom <= _EPS)
        w = np.where(zero, _F32(0.0), -g1 / np.where(zero, _F32(1.0), denom)).astype(_F32)
        gain = np.where(zero, _F32(0.0), -g1 * w).astype(_F32)
    return w, gain


def _scalar(op, value, what, dtype=_F32):
    value = np.asarray(value)
    if value.shape != ():
        raise errors.InvalidArgumentError(None, op, "%s must be a scalar, got a tensor of shape %s" % (
            what, list(value.shape)))
    return dtype(value)


def _best_gains_kernel(xp, node_id_range, *args, max_splits, num_features):
    summaries, (l1, l2, tree_complexity, min_node_weight) = args[:num_features], args[num_features:]
    rng = np.asarray(node_id_range)
    if rng.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "node_id_range must be a rank 1 tensor, but given node_id_range "
                                                    "has dims of %d" % rng.ndim)
    if rng.shape[0] != 2:
        raise errors.InvalidArgumentError(None, None, "node_id_range must be a rank 1 tensor with shape=[2], but given "
                                                    "node_id_range has shape %d on its first dim" % rng.shape[0])
    first, last = int(rng[0]), int(rng[1])
    l1, l2 = _scalar(None, l1, "l1"), _scalar(None, l2, "l2")
    tree_complexity = _scalar(None, tree_complexity, "tree_complexity")
    min_node_weight = _scalar(None, min_node_weight, "min_node_weight")
    outs = [[], [], [], [], []]
    for f, s in enumerate(summaries):
        s = np.asarray(s, _F32)
        if s.ndim != 3 or s.shape[2] != 2:
            raise errors.InvalidArgumentError(None, None, "stats_summary_list[%d] must be [max_splits, num_buckets, "
                                                          "2], got shape %s" % (f, s.shape))
        if first < 0 or last > s.shape[0]:
            raise errors.InvalidArgumentError(None, None, "node_id_range [%d, %d) is outside the %d nodes of "
                                                        "stats_summary_list[%d]" % (first, last, s.shape[0], f))
        ids, gains, thresholds, lefts, rights = [], [], [], [], []
        for node in range(first, last):
            cum = np.cumsum(s[node], axis=0, dtype=_F32)
            total_g, total_h = cum[-1, 0], cum[-1, 1]
            if total_h < min_node_weight:
                continue
            _, parent_gain = _weights_and_gains(total_g, total_h, l1, l2)
            wl, gl = _weights_and_gains(cum[:, 0], cum[:, 1], l1, l2)
            wr, gr = _weights_and_gains((total_g - cum[:, 0]).astype(_F32), (total_h - cum[:, 1]).astype(_F32),
                                        l1, l2)
            total = (gl + gr).astype(_F32)
            best, best_gain = 0, np.finfo(_F32).min
            with np.errstate(all="ignore"):
                for b, v in enumerate(total):
                    if _F32(v - best_gain) >= _EPS:  # TF's GainIsLarger
                        best, best_gain = b, v
            ids.append(node)
            gains.append(_F32(_F32(best_gain - parent_gain) - tree_complexity))
            thresholds.append(best)
            lefts.append(wl[best] if best_gain != np.finfo(_F32).min else _F32(0.0))
            rights.append(wr[best] if best_gain != np.finfo(_F32).min else _F32(0.0))
        outs[0].append(np.array(ids, np.int32))
        outs[1].append(np.array(gains, _F32))
        outs[2].append(np.array(thresholds, np.int32))
        outs[3].append(np.array(lefts, _F32).reshape(-1, 1))
        outs[4].append(np.array(rights, _F32).reshape(-1, 1))
    return tuple(x for out in outs for x in out)


def _best_gains_infer(op):
    k = op._attrs["num_features"]
    return ([(dtypes_lib.int32, (None,))] * k + [(dtypes_lib.float32, (None,))] * k + [(dtypes_lib.int32, (None,))] * k
            + [(dtypes_lib.float32, (None, 1))] * (2 * k))


register_op("BoostedTreesCalculateBestGainsPerFeature", infer=_best_gains_infer, kernel=_best_gains_kernel,
            grad=NO_GRADIENT)


# ---- growing -----------------------------------------------------------------------------------------------
def _add_split(tree, node_id, feature_id, threshold, gain, left_contrib, right_contrib):
    """TF's AddBucketizedSplitNode for one logit."""
    node = tree[node_id]
    left_id = len(tree)
    has_leaf_value = node.value != 0
    if node_id != 0 or has_leaf_value:
        node.original_leaf = node.value
    node.gain = _F32(gain)
    prev = node.original_leaf if node.original_leaf is not None else _F32(0.0)
    tree.append(_Node(_F32(prev + left_contrib)))
    tree.append(_Node(_F32(prev + right_contrib)))
    node.split = (int(feature_id), int(threshold), 0, left_id, left_id + 1)
    node.value = _F32(0.0)


def _post_prune(e, t):
    """TF's PostPruneTree for one logit."""
    tree = e.trees[t]
    n = len(tree)
    parent = list(range(n))
    change = [None] * n
    to_delete = []

    def visit(i):
        node = tree[i]
        if node.split is None:
            return
        visit(node.split[3])
        visit(node.split[4])
        left, right = node.split[3], node.split[4]
        if node.gain is not None and node.gain < 0 and tree[left].split is None and tree[right].split is None:
            to_delete.extend([left, right])
            had_original = node.original_leaf is not None
            node.value = node.original_leaf if had_original else _F32(0.0)
            node.split = None
            parent[left] = parent[right] = i
            parent_value = node.value if had_original else _F32(0.0)
            change[left] = _F32(parent_value - tree[left].value)
            change[right] = _F32(parent_value - tree[right].value)
            node.gain = None
            node.original_leaf = None

    visit(0)
    if not to_delete:
        return
    to_delete = set(to_delete)
    old_to_new = {}
    meta = []
    for i in range(n):
        if i in to_delete:
            c, j = _F32(0.0), i
            while parent[j] != j:
                c = _F32(c + change[j])
                j = parent[j]
            meta.append((old_to_new[j], c))
        else:
            old_to_new[i] = len(old_to_new)
            meta.append((old_to_new[i], _F32(0.0)))
    kept = []
    for i in range(n):
        if i in to_delete:
            continue
        node = tree[i]
        if node.split is not None:
            f, thr, d, left, right = node.split
            node.split = (f, thr, d, old_to_new[left], old_to_new[right])
        kept.append(node)
    e.trees[t] = kept
    e.meta[t].post_pruned = meta


def _update_ensemble_kernel(ctx, op, handle, feature_ids, *args, pruning_mode, num_features):
    e = _ensemble_of(handle, op)
    k = num_features
    node_ids_l, gains_l, thresholds_l = args[:k], args[k:2 * k], args[2 * k:3 * k]
    lefts_l, rights_l = args[3 * k:4 * k], args[4 * k:5 * k]
    max_depth, learning_rate = args[5 * k], args[5 * k + 1]
    feature_ids = np.asarray(feature_ids)
    if feature_ids.ndim != 1:
        raise errors.InvalidArgumentError(None, op, "feature_ids must be a vector, received shape %s" % (
            list(feature_ids.shape),))
    if feature_ids.shape[0] != k:
        raise errors.InvalidArgumentError(None, op, "feature_ids must have num_features=%d entries, got %d" % (
            k, feature_ids.shape[0]))
    max_depth = _scalar(op, max_depth, "max_depth", int)
    learning_rate = _scalar(op, learning_rate, "learning_rate")
    best = {}
    for f in range(k):
        node_ids = np.asarray(node_ids_l[f]).reshape(-1)
        gains = np.asarray(gains_l[f], _F32).reshape(-1)
        thresholds = np.asarray(thresholds_l[f]).reshape(-1)
        lefts, rights = np.asarray(lefts_l[f], _F32), np.asarray(rights_l[f], _F32)
        m = node_ids.shape[0]
        if gains.shape[0] != m or thresholds.shape[0] != m or lefts.shape != (m, 1) or rights.shape != (m, 1):
            raise errors.InvalidArgumentError(None, op, "The split candidates of feature %d have inconsistent "
                                                        "shapes" % f)
        fid = int(feature_ids[f])
        for c in range(m):
            node, gain = int(node_ids[c]), gains[c]
            cand = (gain, fid, int(thresholds[c]), _F32(learning_rate * lefts[c, 0]),
                    _F32(learning_rate * rights[c, 0]))
            cur = best.get(node)
            if cur is not None and abs(_F32(gain - cur[0])) < _EPS:
                if fid < cur[1]:
                    best[node] = cand
            elif cur is None or _F32(gain - cur[0]) >= _EPS:
                best[node] = cand
    with ctx.lock:
        # The growable tree is the last one (a new one-leaf tree when there is none yet).
        current = max(len(e.trees) - 1, 0)
        tree = e.trees[current] if e.trees else [_Node()]
        for node in best:
            if not 0 <= node < len(tree) or tree[node].split is not None:
                raise errors.InvalidArgumentError(None, op, "node %d is not a leaf of tree %d" % (node, current))
        e.stamp += 1
        e.update_growing_metadata()
        if not e.trees:
            e.add_tree(1.0)
        e.changed()
        if not best:
            return
        tree = e.trees[current]
        new_layers = e.meta[current].num_layers_grown + 1
        start = len(tree)
        split = False
        for node in sorted(best):  # TF's std::map: in node order
            gain, fid, thr, lc, rc = best[node]
            if pruning_mode == _PRE_PRUNING and gain < 0:
                continue
            _add_split(tree, node, fid, thr, gain, lc, rc)
            split = True
        end = len(tree)
        if split:
            e.meta[current].num_layers_grown = new_layers
            if new_layers >= max_depth:
                start, end = 0, 1
                e.meta[current].is_finalized = True
                if pruning_mode == _POST_PRUNING:
                    _post_prune(e, current)
                e.add_tree(1.0)
            e.last_layer_start, e.last_layer_end = start, end
        e.changed()


register_op("BoostedTreesUpdateEnsemble", infer=lambda op: [], kernel=_update_ensemble_kernel, grad=NO_GRADIENT,
            stateful=True)


def _center_bias_kernel(ctx, op, handle, mean_gradients, mean_hessians, l1, l2):
    e = _ensemble_of(handle, op)
    mg, mh = np.asarray(mean_gradients, _F32), np.asarray(mean_hessians, _F32)
    if mg.ndim != 2 or mg.shape[1] != 1 or mh.shape != mg.shape or mg.shape[0] < 1:
        raise errors.InvalidArgumentError(None, op, "mean_gradients and mean_hessians must be [1, 1] (one logit), got "
                                                    "shapes %s and %s" % (mg.shape, mh.shape))
    l1, l2 = _scalar(op, l1, "l1"), _scalar(op, l2, "l2")
    w, _ = _weights_and_gains(mg.reshape(-1)[0], mh.reshape(-1)[0], l1, l2)
    logits = _F32(w)
    with ctx.lock:
        e.stamp += 1
        if not e.trees:
            e.add_tree(1.0, logits)
            return np.array(True)
        root = e.trees[0][0]
        current = root.node_value()
        with np.errstate(all="ignore"):
            go_on = bool(abs(_F32(logits / current)) > _MIN_DELTA_FOR_CENTER_BIAS)
        root.value = _F32(current + logits)
        e.changed()
    return np.array(go_on)


register_op("BoostedTreesCenterBias", infer=lambda op: [(dtypes_lib.bool_, ())], kernel=_center_bias_kernel,
            grad=NO_GRADIENT, stateful=True)


def _bucketize_kernel(xp, *args, num_features):
    values, boundaries = args[:num_features], args[num_features:]
    out = []
    for i, (v, b) in enumerate(zip(values, boundaries)):
        v, b = np.asarray(v, _F32), np.asarray(b, _F32)
        if b.ndim != 1:
            raise errors.InvalidArgumentError(None, None, "Buckets should be flat vectors.")
        if b.size == 0:  # TF: no boundaries (yet), every value in bucket 0
            out.append(np.zeros(v.shape, np.int32))
            continue
        idx = np.searchsorted(b, v, side="left")
        out.append(np.minimum(idx, b.size - 1).astype(np.int32))
    return out[0] if len(out) == 1 else tuple(out)


register_op("BoostedTreesBucketize",
            infer=lambda op: [(dtypes_lib.int32, op.inputs[i].shape.as_tuple())
                              for i in range(op._attrs["num_features"])],
            kernel=_bucketize_kernel, grad=NO_GRADIENT)


# ---- quantile streams (TF's WeightedQuantilesSummary / Stream, float32 values, weights and ranks) -----------
class _QSummary:
    """A sorted list of (value, weight, min_rank, max_rank) entries bounding the rank error."""

    def __init__(self, entries=()):
        self.entries = list(entries)

    def build_from_buffer(self, buffer_entries):
        cum, out = _F32(0.0), []
        for v, w in buffer_entries:
            out.append((v, w, cum, _F32(cum + w)))
            cum = _F32(cum + w)
        self.entries = out

    def total_weight(self):
        return self.entries[-1][3] if self.entries else _F32(0.0)

    def merge(self, other):
        oe = other.entries
        if not oe:
            return
        if not self.entries:
            self.entries = list(oe)
            return
        base, out = self.entries, []
        i = j = 0
        next1 = next2 = _F32(0.0)
        while i < len(base) and j < len(oe):
            a, b = base[i], oe[j]
            if a[0] < b[0]:
                out.append((a[0], a[1], _F32(a[2] + next2), _F32(a[3] + _F32(b[3] - b[1]))))
                next1 = _F32(a[2] + a[1])
                i += 1
            elif b[0] < a[0]:
                out.append((b[0], b[1], _F32(b[2] + next1), _F32(b[3] + _F32(a[3] - a[1]))))
                next2 = _F32(b[2] + b[1])
                j += 1
            else:
                out.append((a[0], _F32(a[1] + b[1]), _F32(a[2] + b[2]), _F32(a[3] + b[3])))
                next1, next2 = _F32(a[2] + a[1]), _F32(b[2] + b[1])
                i += 1
                j += 1
        out.extend((a[0], a[1], _F32(a[2] + next2), _F32(a[3] + oe[-1][3])) for a in base[i:])
        out.extend((b[0], b[1], _F32(b[2] + next1), _F32(b[3] + base[-1][3])) for b in oe[j:])
        self.entries = out

    def compress(self, size_hint, min_eps=0.0):
        """Keeps about `size_hint` entries (always the first and last), adding at most
        `max(1 / size_hint, min_eps)` of rank error."""
        size_hint = max(int(size_hint), 2)
        e = self.entries
        if len(e) <= size_hint:
            return
        eps_delta = float(self.total_weight()) * max(1.0 / size_hint, min_eps)
        add_acc, add_step = 0, len(e)
        out, read, last = [e[0]], 0, 1
        while read + 1 != len(e):
            nxt = read + 1
            while (nxt != len(e) and add_acc < add_step
                   and float(_F32(_F32(e[nxt][3] - e[nxt][1]) - _F32(e[read][2] + e[read][1]))) <= eps_delta):
                add_acc += size_hint
                nxt += 1
            read = read + 1 if read == nxt - 1 else nxt - 1
            out.append(e[read])
            last = read
            add_acc -= add_step
        if last + 1 != len(e):
            out.append(e[-1])
        self.entries = out

    def approximation_error(self):
        e = self.entries
        if not e:
            return 0.0
        gap = _F32(0.0)
        for k in range(1, len(e)):
            gap = max(gap, max(_F32(_F32(e[k][3] - e[k][2]) - e[k][1]),
                               _F32(_F32(e[k][3] - e[k][1]) - _F32(e[k - 1][2] + e[k - 1][1]))))
        return float(gap) / float(self.total_weight())

    def generate_boundaries(self, num_boundaries):
        if not self.entries:
            return []
        compressed = _QSummary(self.entries)
        compressed.compress(num_boundaries, float(_F32(self.approximation_error() + 1.0 / num_boundaries)))
        return [v for v, _, _, _ in compressed.entries]

    def generate_quantiles(self, num_quantiles):
        e = self.entries
        if not e:
            return []
        num_quantiles = max(int(num_quantiles), 2)
        out, cur = [], 0
        for rank in range(num_quantiles + 1):
            d_2 = _F32(2 * _F32(_F32(_F32(rank) * e[-1][3]) / _F32(num_quantiles)))
            nxt = cur + 1
            while nxt < len(e) and d_2 >= _F32(e[nxt][2] + e[nxt][3]):
                nxt += 1
            cur = nxt - 1
            if nxt == len(e) or d_2 < _F32(_F32(e[cur][2] + e[cur][1]) + _F32(e[nxt][3] - e[nxt][1])):
                out.append(e[cur][0])
            else:
                out.append(e[nxt][0])
        return out


def _quantile_specs(eps, max_elements):
    """TF's GetQuantileSpecs: (number of levels, block size) for an error `eps` over `max_elements`."""
    if eps <= np.finfo(np.float64).eps:
        return 1, max(int(max_elements), 2)
    max_level, block_size = 1, 2
    while (1 << max_level) * block_size < max_elements:
        block_size = int(np.ceil(max_level / eps)) + 1
        max_level += 1
    return max_level, max(block_size, 2)


class _QStream:
    """TF's WeightedQuantilesStream: a buffer compressed into levels of summaries."""

    def __init__(self, eps, max_elements):
        self.eps = float(eps)
        self.max_levels, self.block_size = _quantile_specs(self.eps, max_elements)
        self.buffer_max = min(self.block_size << 1, int(max_elements))
        self.buffer = []
        self.local = _QSummary()
        self.levels = []
        self.finalized = False

    def push_entry(self, value, weight):
        if weight > 0:  # the buffer ignores non-positive weights
            self.buffer.append((value, weight))
        if len(self.buffer) >= self.buffer_max:
            self.push_buffer()

    def push_buffer(self):
        entries = sorted(self.buffer, key=lambda vw: vw[0])
        self.buffer = []
        merged = []
        for k, (v, w) in enumerate(entries):
            if k and v == entries[k - 1][0]:
                merged[-1] = (merged[-1][0], _F32(merged[-1][1] + w))
            else:
                merged.append((v, w))
        self.local.build_from_buffer(merged)
        self.local.compress(self.block_size, self.eps)
        self._propagate()

    def push_summary(self, entries):
        self.local = _QSummary(entries)
        self.local.compress(self.block_size, self.eps)
        self._propagate()

    def _propagate(self):
        if not self.local.entries:
            return
        level = 0
        while True:
            if len(self.levels) <= level:
                self.levels.append(_QSummary())
            current = self.levels[level]
            self.local.merge(current)
            if not current.entries or len(self.local.entries) <= self.block_size + 1:
                self.levels[level], self.local = self.local, _QSummary()
                return
            self.local.compress(self.block_size, self.eps)
            self.levels[level] = _QSummary()
            level += 1

    def finalize(self):
        self.push_buffer()
        self.local = _QSummary()
        for summary in self.levels:
            self.local.merge(summary)
        self.levels = []
        self.finalized = True


class _QuantileResource:
    """TF's BoostedTreesQuantileStreamResource: a stream and bucket boundaries per float feature."""

    def __init__(self, name):
        self.name = name
        self.initialized = False

    def create(self, eps, max_elements, num_streams):
        self.eps, self.max_elements, self.num_streams = eps, max_elements, num_streams
        self.reset_streams()
        self.boundaries = [np.zeros(0, _F32) for _ in range(num_streams)]
        self.buckets_ready = False
        self.initialized = True

    def reset_streams(self):
        self.streams = [_QStream(self.eps, self.max_elements) for _ in range(self.num_streams)]


def _quantile_of(handle, op):
    r = handle[()] if isinstance(handle, np.ndarray) else handle
    if not isinstance(r, _QuantileResource):
        raise errors.InvalidArgumentError(None, op, "Input is not a quantile stream resource handle")
    if not r.initialized:
        raise errors.NotFoundError(None, op, "Resource %s of type BoostedTreesQuantileStreamResource does not exist "
                                             "(it has not been created)." % r.name)
    return r


register_op("BoostedTreesQuantileStreamResourceHandleOp", infer=lambda op: [(dtypes_lib.resource, ())],
            kernel=_resource_handle_kernel(("tf.boosted_trees.quantiles",), _QuantileResource), grad=NO_GRADIENT,
            stateful=True)


def _create_quantile_kernel(ctx, op, handle, epsilon, num_streams, max_elements):
    r = handle[()] if isinstance(handle, np.ndarray) else handle
    if not isinstance(r, _QuantileResource):
        raise errors.InvalidArgumentError(None, op, "Input is not a quantile stream resource handle")
    eps = _scalar(op, epsilon, "epsilon")
    if not eps > 0:
        raise errors.InvalidArgumentError(None, op, "An epsilon value of zero is not allowed.")
    n = _scalar(op, num_streams, "num_streams", int)
    if n < 0:
        raise errors.InvalidArgumentError(None, op, "Num_streams input cannot be a negative integer")
    with ctx.lock:
        if not r.initialized:  # TF: creating an existing resource is a no-op
            r.create(float(eps), int(max_elements), n)


def _quantile_initialized_kernel(ctx, op, handle):
    r = handle[()] if isinstance(handle, np.ndarray) else handle
    return np.array(bool(getattr(r, "initialized", False)))


register_op("BoostedTreesCreateQuantileStreamResource", infer=lambda op: [], kernel=_create_quantile_kernel,
            grad=NO_GRADIENT, stateful=True)
register_op("IsBoostedTreesQuantileStreamResourceInitialized", infer=lambda op: [(dtypes_lib.bool_, ())],
            kernel=_quantile_initialized_kernel, grad=NO_GRADIENT, stateful=True)


def _summary_array(entries):
    return np.array([[v, w, lo, hi] for v, w, lo, hi in entries], _F32).reshape(-1, 4)


def _make_quantile_summaries_kernel(xp, *args, num_features):
    values, (weights, epsilon) = args[:num_features], args[num_features:]
    weights = np.asarray(weights, _F32).reshape(-1)
    eps = _scalar(None, epsilon, "epsilon")
    if not eps > 0:
        raise errors.InvalidArgumentError(None, None, "An epsilon value of zero is not allowed.")
    out = []
    for v in values:
        v = np.asarray(v, _F32).reshape(-1)
        if weights.size not in (1, v.size):
            raise errors.InvalidArgumentError(None, None, "Weights should be a single value or same size as "
                                                          "features.")
        stream = _QStream(float(eps), v.size + 1)
        for j in range(v.size):
            stream.push_entry(v[j], weights[j] if weights.size > 1 else weights[0])
        stream.finalize()
        out.append(_summary_array(stream.local.entries))
    return out[0] if len(out) == 1 else tuple(out)


register_op("BoostedTreesMakeQuantileSummaries",
            infer=lambda op: [(dtypes_lib.float32, (None, 4))] * op._attrs["num_features"],
            kernel=_make_quantile_summaries_kernel, grad=NO_GRADIENT)


def _add_summaries_kernel(ctx, op, handle, *summaries, num_features):
    r = _quantile_of(handle, op)
    if len(summaries) != r.num_streams:
        raise errors.InvalidArgumentError(None, op, "Got %d summaries for %d quantile streams" % (
            len(summaries), r.num_streams))
    parsed = []
    for i, s in enumerate(summaries):
        s = np.asarray(s, _F32)
        if s.ndim != 2 or s.shape[1] != 4:
            raise errors.InvalidArgumentError(None, op, "summaries[%d] must be [num_entries, 4], got shape %s" % (
                i, s.shape))
        parsed.append([tuple(_F32(x) for x in row) for row in s])
    with ctx.lock:
        for stream, entries in zip(r.streams, parsed):
            if not stream.finalized:
                stream.push_summary(entries)


register_op("BoostedTreesQuantileStreamResourceAddSummaries", infer=lambda op: [], kernel=_add_summaries_kernel,
            grad=NO_GRADIENT, stateful=True)


def _flush_kernel(ctx, op, handle, num_buckets, generate_quantiles=False):
    r = _quantile_of(handle, op)
    n = _scalar(op, num_buckets, "num_buckets", int)
    with ctx.lock:
        for i, stream in enumerate(r.streams):
            stream.finalize()
            if generate_quantiles:
                b = stream.local.generate_quantiles(n - 1)
            else:
                b = stream.local.generate_boundaries(n)
                b = [v for k, v in enumerate(b) if k == 0 or v != b[k - 1]]  # std::unique
            r.boundaries[i] = np.array(b, _F32)
        r.reset_streams()
        r.buckets_ready = True


register_op("BoostedTreesQuantileStreamResourceFlush", infer=lambda op: [], kernel=_flush_kernel, grad=NO_GRADIENT,
            stateful=True)


def _get_boundaries_kernel(ctx, op, handle, num_features):
    r = _quantile_of(handle, op)
    if num_features != r.num_streams:
        raise errors.InvalidArgumentError(None, op, "num_features=%d but the resource has %d streams" % (
            num_features, r.num_streams))
    with ctx.lock:
        out = [b.copy() for b in r.boundaries]
    return out[0] if len(out) == 1 else tuple(out)


register_op("BoostedTreesQuantileStreamResourceGetBucketBoundaries",
            infer=lambda op: [(dtypes_lib.float32, (None,))] * op._attrs["num_features"],
            kernel=_get_boundaries_kernel, grad=NO_GRADIENT, stateful=True)


def _quantile_deserialize_kernel(ctx, op, handle, *bucket_boundaries, num_streams):
    r = _quantile_of(handle, op)
    if len(bucket_boundaries) != r.num_streams:
        raise errors.InvalidArgumentError(None, op, "Got %d bucket boundaries for %d quantile streams" % (
            len(bucket_boundaries), r.num_streams))
    bounds = [np.asarray(b, _F32).reshape(-1).copy() for b in bucket_boundaries]
    with ctx.lock:
        r.boundaries = bounds


register_op("BoostedTreesQuantileStreamResourceDeserialize", infer=lambda op: [],
            kernel=_quantile_deserialize_kernel, grad=NO_GRADIENT, stateful=True)


# ---- Python wrappers (TF's boosted_trees_ops / gen_boosted_trees_ops) --------------------------------------
def _i32(x):
    return ops.convert_to_tensor(x, dtype=dtypes_lib.int32)


def _f32(x):
    return ops.convert_to_tensor(x, dtype=dtypes_lib.float32)


def ensemble_resource_handle_op(container="", shared_name="", name=None):
    """A handle to a tree ensemble resource (shared in a Session under `shared_name` when given)."""
    return ops.apply_op("BoostedTreesEnsembleResourceHandleOp", [],
                        {"container": container, "shared_name": shared_name}, name=name)


def create_ensemble(handle, stamp_token, tree_ensemble_serialized, name=None):
    """Creates the ensemble from a serialized one ("" for empty), unless it exists already."""
    return ops.apply_op("BoostedTreesCreateEnsemble", [handle, ops.convert_to_tensor(stamp_token, dtypes_lib.int64),
                                                        ops.convert_to_tensor(tree_ensemble_serialized,
                                                                              dtypes_lib.string)], {}, name=name)


def is_ensemble_initialized(handle, name=None):
    """A scalar bool: whether the ensemble was created."""
    return ops.apply_op("IsBoostedTreesEnsembleInitialized", [handle], {}, name=name)


def get_ensemble_states(handle, name=None):
    """(stamp_token, num_trees, num_finalized_trees, num_attempted_layers, last_layer_nodes_range)."""
    return ops.apply_op("BoostedTreesGetEnsembleStates", [handle], {}, name=name)


def serialize_ensemble(handle, name=None):
    """(stamp_token, the ensemble as a scalar string)."""
    return ops.apply_op("BoostedTreesSerializeEnsemble", [handle], {}, name=name)


def deserialize_ensemble(handle, stamp_token, tree_ensemble_serialized, name=None):
    """Replaces the (created) ensemble with a serialized one, stamped `stamp_token`."""
    return ops.apply_op("BoostedTreesDeserializeEnsemble",
                        [handle, ops.convert_to_tensor(stamp_token, dtypes_lib.int64),
                         ops.convert_to_tensor(tree_ensemble_serialized, dtypes_lib.string)], {}, name=name)


def make_stats_summary(node_ids, gradients, hessians, bucketized_features_list, max_splits, num_buckets, name=None):
    """Makes the summary of accumulated stats for the batch (TF's `boosted_trees_make_stats_summary`).

    Returns:
      A float32 `Tensor` [num_features, max_splits, num_buckets, 2] of gradient and hessian sums.
    """
    feats = [_i32(f) for f in bucketized_features_list]
    return ops.apply_op("BoostedTreesMakeStatsSummary", [_i32(node_ids), _f32(gradients), _f32(hessians)] + feats,
                        {"max_splits": int(max_splits), "num_buckets": int(num_buckets),
                         "num_features": len(feats)}, name=name)


def calculate_best_gains_per_feature(node_id_range, stats_summary_list, l1, l2, tree_complexity, min_node_weight,
                                     max_splits, name=None):
    """The best split of each node per feature (TF's `boosted_trees_calculate_best_gains_per_feature`).

    Returns:
      Five lists of one tensor per feature: node ids, gains, thresholds, left and right node contribs.
    """
    summaries = [_f32(s) for s in stats_summary_list]
    k = len(summaries)
    out = ops.apply_op("BoostedTreesCalculateBestGainsPerFeature",
                       [_i32(node_id_range)] + summaries + [_f32(l1), _f32(l2), _f32(tree_complexity),
                                                            _f32(min_node_weight)],
                       {"max_splits": int(max_splits), "num_features": k}, name=name)
    out = list(out)
    return tuple(out[i * k:(i + 1) * k] for i in range(5))


def update_ensemble(tree_ensemble_handle, feature_ids, node_ids, gains, thresholds, left_node_contribs,
                    right_node_contribs, max_depth, learning_rate, pruning_mode, name=None):
    """Grows the ensemble by one layer (TF's `boosted_trees_update_ensemble`)."""
    k = len(node_ids)
    inputs = ([tree_ensemble_handle, _i32(feature_ids)] + [_i32(x) for x in node_ids] + [_f32(x) for x in gains]
              + [_i32(x) for x in thresholds] + [_f32(x) for x in left_node_contribs]
              + [_f32(x) for x in right_node_contribs] + [_i32(max_depth), _f32(learning_rate)])
    return ops.apply_op("BoostedTreesUpdateEnsemble", inputs, {"pruning_mode": int(pruning_mode), "num_features": k},
                        name=name)


def training_predict(tree_ensemble_handle, cached_tree_ids, cached_node_ids, bucketized_features, logits_dimension,
                     name=None):
    """Logits added since the cached (tree, node) of each example, and its new (tree, node)."""
    feats = [_i32(f) for f in bucketized_features]
    return ops.apply_op("BoostedTreesTrainingPredict",
                        [tree_ensemble_handle, _i32(cached_tree_ids), _i32(cached_node_ids)] + feats,
                        {"num_bucketized_features": len(feats), "logits_dimension": int(logits_dimension)},
                        name=name)


def predict(tree_ensemble_handle, bucketized_features, logits_dimension, name=None):
    """The ensemble's logits for each example (TF's `boosted_trees_predict`)."""
    feats = [_i32(f) for f in bucketized_features]
    return ops.apply_op("BoostedTreesPredict", [tree_ensemble_handle] + feats,
                        {"num_bucketized_features": len(feats), "logits_dimension": int(logits_dimension)},
                        name=name)


def example_debug_outputs(tree_ensemble_handle, bucketized_features, logits_dimension, name=None):
    """Per example, the features split on along its path and the logits after each split (TF's
    `boosted_trees_example_debug_outputs`), as a UTF-8 JSON string `{"feature_ids": [..], "logits_path": [..]}`
    (TF: a serialized DebugOutput proto), the first logit being the bias."""
    feats = [_i32(f) for f in bucketized_features]
    return ops.apply_op("BoostedTreesExampleDebugOutputs", [tree_ensemble_handle] + feats,
                        {"num_bucketized_features": len(feats), "logits_dimension": int(logits_dimension)},
                        name=name)


def center_bias(tree_ensemble_handle, mean_gradients, mean_hessians, l1, l2, name=None):
    """Centers the first tree's bias; returns whether centering should continue."""
    return ops.apply_op("BoostedTreesCenterBias", [tree_ensemble_handle, _f32(mean_gradients), _f32(mean_hessians),
                                                   _f32(l1), _f32(l2)], {}, name=name)


def boosted_trees_bucketize(float_values, bucket_boundaries, name=None):
    """Bucketizes each float feature by its boundaries (TF's `boosted_trees_bucketize`)."""
    vals = [_f32(v) for v in float_values]
    bounds = [_f32(b) for b in bucket_boundaries]
    if len(vals) != len(bounds):
        raise ValueError("float_values and bucket_boundaries must have the same length, got %d and %d" % (
            len(vals), len(bounds)))
    out = ops.apply_op("BoostedTreesBucketize", vals + bounds, {"num_features": len(vals)}, name=name)
    return [out] if isinstance(out, ops.Tensor) else list(out)


def _listify(out):
    return [out] if isinstance(out, ops.Tensor) else list(out or [])


def quantile_resource_handle_op(container="", shared_name="", name=None):
    """A handle to a quantile stream resource (shared in a Session under `shared_name` when given)."""
    return ops.apply_op("BoostedTreesQuantileStreamResourceHandleOp", [],
                        {"container": container, "shared_name": shared_name}, name=name)


def create_quantile_stream_resource(handle, epsilon, num_streams, max_elements=1099511627776, name=None):
    """Creates `num_streams` quantile streams of error `epsilon`, unless the resource exists already."""
    return ops.apply_op("BoostedTreesCreateQuantileStreamResource",
                        [handle, _f32(epsilon), ops.convert_to_tensor(num_streams, dtypes_lib.int64)],
                        {"max_elements": int(max_elements)}, name=name)


def is_quantile_resource_initialized(handle, name=None):
    """A scalar bool: whether the quantile stream resource was created."""
    return ops.apply_op("IsBoostedTreesQuantileStreamResourceInitialized", [handle], {}, name=name)


def make_quantile_summaries(float_values, example_weights, epsilon, name=None):
    """Per float feature, the [num_entries, 4] weighted quantile summary (value, weight, min rank, max rank)
    of the batch (TF's `boosted_trees_make_quantile_summaries`)."""
    vals = [_f32(v) for v in float_values]
    return _listify(ops.apply_op("BoostedTreesMakeQuantileSummaries", vals + [_f32(example_weights), _f32(epsilon)],
                                 {"num_features": len(vals)}, name=name))


def quantile_add_summaries(handle, summaries, name=None):
    """Adds one summary per stream to the resource's streams."""
    summaries = [_f32(s) for s in summaries]
    return ops.apply_op("BoostedTreesQuantileStreamResourceAddSummaries", [handle] + summaries,
                        {"num_features": len(summaries)}, name=name)


def quantile_flush(handle, num_buckets, generate_quantiles=False, name=None):
    """Finalizes the streams into bucket boundaries (about `num_buckets` per stream) and resets them."""
    return ops.apply_op("BoostedTreesQuantileStreamResourceFlush",
                        [handle, ops.convert_to_tensor(num_buckets, dtypes_lib.int64)],
                        {"generate_quantiles": bool(generate_quantiles)}, name=name)


def get_bucket_boundaries(handle, num_features, name=None):
    """The bucket boundaries of each stream (empty before the first flush)."""
    return _listify(ops.apply_op("BoostedTreesQuantileStreamResourceGetBucketBoundaries", [handle],
                                 {"num_features": int(num_features)}, name=name))


def quantile_resource_deserialize(handle, bucket_boundaries, name=None):
    """Sets the bucket boundaries of each stream."""
    bounds = [_f32(b) for b in bucket_boundaries]
    return ops.apply_op("BoostedTreesQuantileStreamResourceDeserialize", [handle] + bounds,
                        {"num_streams": len(bounds)}, name=name)


class _QuantileAccumulatorSaveable(object):
    """What `tf.train.Saver` saves of a quantile accumulator (TF's): the entries
    "<name>_bucket_boundaries_<i>" of each stream, restored after the create op."""

    def __init__(self, resource_handle, create_op, num_streams, name):
        self.name = name
        self.device = resource_handle.op.device
        self.handle = resource_handle
        self._create_op = create_op
        boundaries = get_bucket_boundaries(resource_handle, num_streams)
        self.specs = [(name + "_bucket_boundaries_" + str(i), b) for i, b in enumerate(boundaries)]

    def restore(self, restored_tensors):
        """The op setting the restored boundaries."""
        with ops.control_dependencies([self._create_op]):
            return quantile_resource_deserialize(self.handle, list(restored_tensors))


class QuantileAccumulator(object):
    """SerDe-able quantile streams of float features (TF's `boosted_trees_ops.QuantileAccumulator`).

    Args:
      epsilon: The error bound of the quantile sketches.
      num_streams: The number of float features.
      num_quantiles: About how many bucket boundaries `flush` makes per feature.
      name: The name scope (and shared name) of the resource.
      max_elements: An upper bound of the number of values a stream sees (TF's default 2**40).
    """

    def __init__(self, epsilon, num_streams, num_quantiles, name=None, max_elements=None):
        self._eps = epsilon
        self._num_streams = num_streams
        self._num_quantiles = num_quantiles
        with ops.name_scope(name, "QuantileAccumulator") as scope:
            self._name = scope
            self._resource_handle = quantile_resource_handle_op(container="", shared_name=scope, name=scope)
            extra = {} if max_elements is None else {"max_elements": max_elements}
            self._init_op = create_quantile_stream_resource(self._resource_handle, epsilon, num_streams, **extra)
            is_initialized_op = is_quantile_resource_initialized(self._resource_handle)
        resources.register_resource(self._resource_handle, self._init_op, is_initialized_op)
        if not ops.get_default_graph()._eager:
            ops.add_to_collection(ops.GraphKeys.SAVEABLE_OBJECTS, _QuantileAccumulatorSaveable(
                self._resource_handle, self._init_op, num_streams, self._resource_handle.name))

    @property
    def resource_handle(self):
        return self._resource_handle

    @property
    def initializer(self):
        return self._init_op

    def add_summaries(self, float_columns, example_weights):
        """The op adding the batch's quantile summaries of `float_columns` (one tensor per stream)."""
        summaries = make_quantile_summaries(float_columns, example_weights, self._eps)
        return quantile_add_summaries(self._resource_handle, summaries)

    def flush(self):
        """The op turning the streams into `num_quantiles` bucket boundaries."""
        return quantile_flush(self._resource_handle, self._num_quantiles)

    def get_bucket_boundaries(self):
        """The bucket boundaries of each stream."""
        return get_bucket_boundaries(self._resource_handle, self._num_streams)


class _TreeEnsembleSavable(object):
    """What `tf.train.Saver` saves of an ensemble (TF's `_TreeEnsembleSavable`): the entries
    "<name>_stamp" (int64) and "<name>_serialized" (string), restored after the create op."""

    def __init__(self, resource_handle, create_op, name):
        stamp_token, serialized = serialize_ensemble(resource_handle)
        self.name = name
        self.device = resource_handle.op.device
        self.handle = resource_handle
        self.specs = [(name + "_stamp", stamp_token), (name + "_serialized", serialized)]
        self._create_op = create_op

    def restore(self, restored_tensors):
        """The op replacing the ensemble with the restored one."""
        with ops.control_dependencies([self._create_op]):
            return deserialize_ensemble(self.handle, restored_tensors[0], restored_tensors[1])


class TreeEnsemble(object):
    """Creates TreeEnsemble resource (TF's `boosted_trees_ops.TreeEnsemble`).

    Args:
      name: The name scope (and shared name) of the resource.
      stamp_token: The initial stamp.
      is_local: Register the resource as local (not saved) rather than shared.
      serialized_proto: The initial serialized ensemble ("" for an empty one).
    """

    def __init__(self, name, stamp_token=0, is_local=False, serialized_proto=""):
        self._stamp_token = stamp_token
        self._serialized_proto = serialized_proto
        self._is_local = is_local
        with ops.name_scope(name, "TreeEnsemble") as scope:
            self._name = scope
            self._resource_handle = ensemble_resource_handle_op(container="", shared_name=scope,
                                                                name=scope)
            self._init_op = create_ensemble(self._resource_handle, stamp_token, serialized_proto)
            is_initialized_op = is_ensemble_initialized(self._resource_handle)
            if not is_local and not ops.get_default_graph()._eager:
                ops.add_to_collection(ops.GraphKeys.SAVEABLE_OBJECTS, _TreeEnsembleSavable(
                    self._resource_handle, self._init_op, self._resource_handle.name))
            resources.register_resource(self._resource_handle, self._init_op, is_initialized_op,
                                        is_shared=not is_local)

    @property
    def resource_handle(self):
        return self._resource_handle

    @property
    def initializer(self):
        return self._init_op

    def is_initialized(self):
        return is_ensemble_initialized(self._resource_handle)

    def get_states(self):
        """(stamp_token, num_trees, num_finalized_trees, num_attempted_layers, last_layer_nodes_range)."""
        return tuple(get_ensemble_states(self._resource_handle))

    def serialize(self):
        """(stamp_token, serialized ensemble)."""
        return tuple(serialize_ensemble(self._resource_handle))

    def deserialize(self, stamp_token, serialized_proto):
        """The op replacing the ensemble with `serialized_proto`, stamped `stamp_token`."""
        return deserialize_ensemble(self._resource_handle, stamp_token, serialized_proto)
