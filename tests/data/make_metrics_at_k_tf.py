"""Records tf.metrics at-k / cosine / sensitivity-specificity results from real TensorFlow into
metrics_at_k_tf.json: the update_op value after each batch of a stream and the final value, and the
metric variables' names. Run with a Python that has TensorFlow:
    python tests/data/make_metrics_at_k_tf.py"""

import json
import math
import pathlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
rng = np.random.RandomState(7)

AT_K = ["precision_at_k", "recall_at_k", "sparse_precision_at_k", "average_precision_at_k",
        "sparse_average_precision_at_k"]
AT_TOP_K = ["precision_at_top_k", "recall_at_top_k"]


def dense_batch(b, c, n_labels, k=None, lo=0, hi=None, weights=None, rank1=False, prefix=()):
    hi = c if hi is None else hi
    shape = tuple(prefix) + (b,)
    preds = rng.permutation(np.prod(shape) * c).reshape(shape + (c,)).astype(np.float32) / 10.0
    labels = rng.randint(lo, hi, shape if rank1 else shape + (n_labels,)).astype(np.int64)
    out = {"labels": labels.tolist(), "predictions": preds.tolist()}
    if k is not None:
        out["predictions_idx"] = np.argsort(-preds, -1)[..., :k].astype(np.int32).tolist()
    if weights is not None:
        out["weights"] = weights
    return out


def sparse_labels(rows, ndims=2):
    """rows: list of label lists (one per batch row) -> SparseTensor value dict."""
    ind, val = [], []
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            ind.append([i, j])
            val.append(v)
    width = max([len(r) for r in rows] + [1])
    return {"indices": ind, "values": val, "dense_shape": [len(rows), width]}


CASES = []


def case(name, fn, kwargs, batches, sparse=False, dynamic=False):
    CASES.append({"name": name, "fn": fn, "kwargs": kwargs, "batches": batches, "sparse": sparse,
                  "dynamic": dynamic})


# ---- at-k metrics on logits -------------------------------------------------------------------------
for fn in AT_K:
    ap = "average" in fn
    for k in (1, 2, 3):
        case("%s_k%d" % (fn, k), fn, {"k": k}, [dense_batch(5, 6, 2) for _ in range(3)])
    case("%s_rank1_labels" % fn, fn, {"k": 2}, [dense_batch(6, 5, 1, rank1=True) for _ in range(2)])
    case("%s_weights_vec" % fn, fn, {"k": 2},
         [dense_batch(4, 6, 3, weights=[1.0, 0.0, 2.0, 0.5]), dense_batch(4, 6, 3, weights=[0.0, 0.0, 1.5, 1.0])])
    case("%s_weights_col" % fn, fn, {"k": 3},
         [dense_batch(4, 6, 2, weights=[[1.0], [0.0], [2.0], [0.5]]),
          dense_batch(4, 6, 2, weights=[[0.5], [1.0], [0.0], [2.0]])])
    case("%s_weights_scalar" % fn, fn, {"k": 2},
         [dense_batch(4, 5, 2, weights=2.0), dense_batch(4, 5, 2, weights=0.5)])
    case("%s_weights_zero" % fn, fn, {"k": 2}, [dense_batch(3, 5, 2, weights=[0.0, 0.0, 0.0])])
    case("%s_out_of_range" % fn, fn, {"k": 2}, [dense_batch(5, 4, 3, hi=7) for _ in range(2)])
    case("%s_neg_labels" % fn, fn, {"k": 2}, [dense_batch(5, 4, 3, lo=-1) for _ in range(2)])
    case("%s_3d" % fn, fn, {"k": 2}, [dense_batch(3, 5, 2, prefix=(2,)) for _ in range(2)])
    case("%s_3d_weights" % fn, fn, {"k": 2},
         [dense_batch(3, 5, 2, prefix=(2,), weights=[[1.0, 0.0, 2.0], [0.5, 1.0, 1.0]]) for _ in range(2)])
    case("%s_dynamic" % fn, fn, {"k": 2}, [dense_batch(4, 6, 2), dense_batch(3, 6, 2)], dynamic=True)
    case("%s_int32_labels" % fn, fn, {"k": 2, "labels_dtype": "int32"}, [dense_batch(4, 6, 2)])
    sp = [[[0, 3], [2], [1, 4, 5], [], [7]], [[5], [0, 1], [2, 3], [4], [0]]]
    batches = []
    for rows in sp:
        b = dense_batch(5, 6, 1)
        b["labels"] = sparse_labels(rows)
        batches.append(b)
    case("%s_sparse" % fn, fn, {"k": 2}, batches, sparse=True)
    if not ap:
        for cid in (0, 2, 5):
            case("%s_class%d" % (fn, cid), fn, {"k": 2, "class_id": cid}, [dense_batch(6, 6, 2) for _ in range(3)])
        case("%s_class_weights" % fn, fn, {"k": 2, "class_id": 1},
             [dense_batch(6, 3, 1, weights=[1.0, 2.0, 0.0, 0.5, 1.0, 3.0]) for _ in range(2)])
        case("%s_class_absent" % fn, fn, {"k": 1, "class_id": 9}, [dense_batch(4, 5, 2)])
        case("%s_class_sparse" % fn, fn, {"k": 2, "class_id": 2}, batches, sparse=True)
        case("%s_class_rank1" % fn, fn, {"k": 2, "class_id": 1},
             [dense_batch(6, 3, 1, rank1=True) for _ in range(2)])
        case("%s_class_3d" % fn, fn, {"k": 2, "class_id": 1},
             [dense_batch(3, 4, 2, prefix=(2,)) for _ in range(2)])
    case("%s_named" % fn, fn, {"k": 2, "name": "my_metric"}, [dense_batch(4, 5, 2)])

for fn in AT_TOP_K:
    for k in (1, 3):
        case("%s_k%d" % (fn, k), fn, {"k": k}, [dense_batch(5, 6, 2, k=k) for _ in range(3)])
    case("%s_no_k" % fn, fn, {}, [dense_batch(5, 6, 2, k=2) for _ in range(2)])
    case("%s_class" % fn, fn, {"k": 2, "class_id": 3}, [dense_batch(6, 6, 2, k=2) for _ in range(2)])
    case("%s_class_no_k" % fn, fn, {"class_id": 1}, [dense_batch(6, 3, 1, k=2) for _ in range(2)])
    case("%s_weights" % fn, fn, {"k": 2},
         [dense_batch(4, 6, 2, k=2, weights=[1.0, 0.0, 2.0, 0.5]) for _ in range(2)])
    case("%s_out_of_range" % fn, fn, {"k": 2}, [dense_batch(5, 4, 2, k=2, hi=7) for _ in range(2)])
    case("%s_rank1" % fn, fn, {"k": 2}, [dense_batch(5, 4, 1, k=2, rank1=True) for _ in range(2)])
    case("%s_dynamic" % fn, fn, {"k": 2}, [dense_batch(5, 6, 2, k=2), dense_batch(2, 6, 2, k=2)], dynamic=True)

# ---- mean_cosine_distance -----------------------------------------------------------------------------
def unit(shape, axis):
    x = rng.randn(*shape).astype(np.float32)
    return (x / np.linalg.norm(x, axis=axis, keepdims=True)).astype(np.float32)


for name, shape, dim, w in [("dim1", (5, 3), 1, None), ("dim1_w", (4, 3), 1, [[1.0], [0.0], [2.0], [0.5]]),
                            ("dim1_wvec", (4, 3), 1, [1.0, 0.0, 2.0, 0.5]), ("dim0", (3, 4), 0, None),
                            ("dim1_wscalar", (4, 3), 1, 2.0), ("3d", (2, 3, 4), 2, None),
                            ("3d_w", (2, 3, 4), 2, [[[1.0], [0.0], [1.0]], [[2.0], [1.0], [0.0]]])]:
    batches = []
    for _ in range(3):
        b = {"labels": unit(shape, dim).tolist(), "predictions": unit(shape, dim).tolist()}
        if w is not None:
            b["weights"] = w
        batches.append(b)
    case("mean_cosine_distance_" + name, "mean_cosine_distance", {"dim": dim}, batches)
case("mean_cosine_distance_zero_w", "mean_cosine_distance", {"dim": 1},
     [{"labels": unit((3, 2), 1).tolist(), "predictions": unit((3, 2), 1).tolist(), "weights": [0.0, 0.0, 0.0]}])


# ---- sensitivity / specificity -----------------------------------------------------------------------
def binary_batch(n, weights=None, shape=None):
    preds = np.round(rng.uniform(0, 1, n), 3).astype(np.float32)
    labels = (rng.uniform(0, 1, n) < 0.5).astype(np.int64)
    if shape is not None:
        preds, labels = preds.reshape(shape), labels.reshape(shape)
    out = {"labels": labels.tolist(), "predictions": preds.tolist()}
    if weights is not None:
        out["weights"] = weights
    return out


for fn, arg in (("sensitivity_at_specificity", "specificity"), ("specificity_at_sensitivity", "sensitivity")):
    for v in (0.0, 0.3, 0.5, 0.8, 1.0):
        case("%s_%g" % (fn, v), fn, {arg: v}, [binary_batch(20) for _ in range(3)])
    for nt in (2, 3, 5, 11):
        case("%s_nt%d" % (fn, nt), fn, {arg: 0.6, "num_thresholds": nt}, [binary_batch(16) for _ in range(2)])
    w = [0.0, 1.0, 2.0, 0.5] * 4
    case("%s_weights" % fn, fn, {arg: 0.7}, [binary_batch(16, weights=w) for _ in range(2)])
    case("%s_2d" % fn, fn, {arg: 0.4, "num_thresholds": 21}, [binary_batch(12, shape=(3, 4)) for _ in range(2)])
    case("%s_2d_w" % fn, fn, {arg: 0.4}, [binary_batch(12, shape=(3, 4), weights=[[1.0], [0.0], [2.0]])])
    case("%s_all_pos" % fn, fn, {arg: 0.5},
         [{"labels": [1, 1, 1, 1], "predictions": [0.1, 0.4, 0.6, 0.9]}])
    case("%s_all_neg" % fn, fn, {arg: 0.5},
         [{"labels": [0, 0, 0, 0], "predictions": [0.1, 0.4, 0.6, 0.9]}])
    case("%s_ties" % fn, fn, {arg: 0.5, "num_thresholds": 5},
         [{"labels": [0, 1, 0, 1, 1, 0], "predictions": [0.0, 0.25, 0.5, 0.5, 1.0, 0.75]}])
    case("%s_dynamic" % fn, fn, {arg: 0.5}, [binary_batch(10), binary_batch(7)], dynamic=True)


# ---- run ----------------------------------------------------------------------------------------------
def placeholder(value, dtype, dynamic):
    arr = np.asarray(value)
    shape = [None] * arr.ndim if dynamic else list(arr.shape)
    return tf.placeholder(dtype, shape)


def nanable(x):
    x = float(x)
    return "nan" if math.isnan(x) else x


def run_case(c):
    g = tf.Graph()
    with g.as_default():
        kw = dict(c["kwargs"])
        labels_dtype = {"int32": tf.int32}.get(kw.pop("labels_dtype", None), tf.int64)
        b0 = c["batches"][0]
        fn = getattr(tf.metrics, c["fn"])
        top = c["fn"] in AT_TOP_K
        pkey = "predictions_idx" if top else "predictions"
        pdtype = tf.int32 if top else tf.float32
        if c["fn"] in ("sensitivity_at_specificity", "specificity_at_sensitivity"):
            pdtype = tf.float32
        if c["sparse"]:
            lab = tf.sparse_placeholder(tf.int64, shape=[None, None])
        else:
            ldt = tf.float32 if c["fn"] == "mean_cosine_distance" else labels_dtype
            lab = placeholder(b0["labels"], ldt, c["dynamic"])
        pred = placeholder(b0[pkey], pdtype, c["dynamic"])
        w = placeholder(b0["weights"], tf.float32, c["dynamic"]) if "weights" in b0 else None
        if w is not None:
            kw["weights"] = w
        kw[pkey] = pred
        value, update = fn(lab, metrics_collections=["mc"], updates_collections=["uc"], **kw)
        names = [v.op.name for v in tf.local_variables()]
        mnames = [v.op.name for v in tf.get_collection(tf.GraphKeys.METRIC_VARIABLES)]
        assert names == mnames, (names, mnames)
        assert tf.get_collection("mc") == [value] and tf.get_collection("uc") == [update]
        ups = []
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            for b in c["batches"]:
                feed = {pred: b[pkey]}
                if c["sparse"]:
                    feed[lab] = tf.SparseTensorValue(np.asarray(b["labels"]["indices"], np.int64).reshape(-1, 2),
                                                     b["labels"]["values"], b["labels"]["dense_shape"])
                else:
                    feed[lab] = b["labels"]
                if w is not None:
                    feed[w] = b["weights"]
                ups.append(nanable(s.run(update, feed)))
            c["value"] = nanable(s.run(value))
        c["updates"] = ups
        c["var_names"] = names
        c["value_dtype"] = value.dtype.name
        c["value_name"] = value.name
        c["update_name"] = update.name


for c in CASES:
    try:
        run_case(c)
    except (ValueError, TypeError, tf.errors.OpError) as e:
        c["error"] = type(e).__name__
        c["message"] = str(e).split("\n")[0][:200]

pathlib.Path(__file__).with_name("metrics_at_k_tf.json").write_text(json.dumps(CASES, indent=0))
print(len(CASES), "cases")
