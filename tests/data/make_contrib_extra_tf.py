"""Records tests/data/contrib_extra_tf.npz: TF 1.15's contrib metrics (`tf.contrib.metrics`, as shipped
unchanged in tf_slim's `tf_slim.metrics`) run in graph mode by TensorFlow 2.21 on the cases below over
several updates (`confusion_matrix` and the `set_*` ops, which contrib re-exported, from
`tf.confusion_matrix`/`tf.sets`); tests/contrib/test_contrib_metrics_extra.py runs the same cases
(`run_cases`) with tensorweave and compares.

Run with `TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_contrib_extra_tf.py`. The test
suite imports this module only for its case builders (TensorFlow is imported in `main`)."""

import pathlib

import numpy as np

STEPS = 3


def make_feeds():
    """The deterministic batches fed at each update step: a dict name -> list of STEPS arrays."""
    rng = np.random.RandomState(1234)
    feeds = {k: [] for k in ("p", "l", "w", "cls_a", "cls_b", "cw", "scores", "labels2d", "topk", "c2d")}
    for _ in range(STEPS):
        feeds["p"].append(np.round(rng.rand(8), 2).astype(np.float32))
        feeds["l"].append((rng.rand(8) > 0.5).astype(np.float32))
        feeds["w"].append((rng.rand(8) * 2).astype(np.float32))
        feeds["cls_a"].append(rng.randint(0, 3, 8).astype(np.int64))
        feeds["cls_b"].append(rng.randint(0, 3, 8).astype(np.int64))
        feeds["cw"].append((rng.rand(8) + 0.5).astype(np.float32))
        feeds["scores"].append(rng.rand(4, 5).astype(np.float32))
        feeds["labels2d"].append(rng.randint(0, 6, (4, 2)).astype(np.int64))
        feeds["topk"].append(np.argsort(-rng.rand(4, 5), axis=1)[:, :3].astype(np.int64))
        feeds["c2d"].append(rng.rand(2, 3).astype(np.float32))
    # both labels present in every batch (auc_with_confidence_intervals' validity test)
    for lab in feeds["l"]:
        lab[0], lab[1] = 0.0, 1.0
    return feeds


def placeholders(tf):
    ph = {"p": tf.placeholder(tf.float32, [None], "p"), "l": tf.placeholder(tf.float32, [None], "l"),
          "w": tf.placeholder(tf.float32, [None], "w"), "cls_a": tf.placeholder(tf.int64, [None], "cls_a"),
          "cls_b": tf.placeholder(tf.int64, [None], "cls_b"), "cw": tf.placeholder(tf.float32, [None], "cw"),
          "scores": tf.placeholder(tf.float32, [None, 5], "scores"),
          "labels2d": tf.placeholder(tf.int64, [None, 2], "labels2d"),
          "topk": tf.placeholder(tf.int64, [None, 3], "topk"), "c2d": tf.placeholder(tf.float32, [2, None], "c2d")}
    return ph


def metric_cases(M, tf, ph):
    """name -> (value, update) pairs (value may be a tuple of tensors) built with the module `M`."""
    p, l, w = ph["p"], ph["l"], ph["w"]
    lb = tf.cast(l, tf.bool)
    li = tf.cast(l, tf.int64)
    th = [0.15, 0.5, 0.85]
    c = {}
    c["covariance"] = M.streaming_covariance(p, l)
    c["covariance_w"] = M.streaming_covariance(p, l, weights=w)
    c["pearson_w"] = M.streaming_pearson_correlation(p, l, weights=w)
    c["concat"] = M.streaming_concat(p)
    c["concat_axis1"] = M.streaming_concat(ph["c2d"], axis=1)
    c["concat_max"] = M.streaming_concat(p, max_size=13)
    c["curve_roc"] = M.streaming_curve_points(l, p, num_thresholds=7)
    c["curve_pr_w"] = M.streaming_curve_points(l, p, weights=w, num_thresholds=6, curve="PR")
    c["dynamic_auc"] = M.streaming_dynamic_auc(li, p)
    c["dynamic_auc_pr_w"] = M.streaming_dynamic_auc(li, p, curve="PR", weights=w)
    prd, pru = M.precision_recall_at_equal_thresholds(lb, p, weights=w, num_thresholds=6)
    c["pr_equal"] = (tuple(prd), pru)
    c["sap_k"] = M.streaming_sparse_average_precision_at_k(ph["scores"], ph["labels2d"], 3)
    c["sap_top_k"] = M.streaming_sparse_average_precision_at_top_k(ph["topk"], ph["labels2d"])
    c["sp_top_k"] = M.streaming_sparse_precision_at_top_k(ph["topk"], ph["labels2d"])
    c["sr_top_k"] = M.sparse_recall_at_top_k(ph["labels2d"], ph["topk"], class_id=2)
    c["tp_th"] = M.streaming_true_positives_at_thresholds(p, l, th)
    c["fp_th"] = M.streaming_false_positives_at_thresholds(p, l, th, weights=w)
    c["tn_th"] = M.streaming_true_negatives_at_thresholds(p, l, th)
    c["fn_th"] = M.streaming_false_negatives_at_thresholds(p, l, th, weights=w)
    c["fpr"] = M.streaming_false_positive_rate(tf.greater(p, 0.5), l, weights=w)
    c["fnr"] = M.streaming_false_negative_rate(tf.greater(p, 0.5), l)
    c["fpr_th"] = M.streaming_false_positive_rate_at_thresholds(p, l, th, weights=w)
    c["fnr_th"] = M.streaming_false_negative_rate_at_thresholds(p, l, th)
    c["recall_at_k"] = M.streaming_recall_at_k(ph["scores"], tf.cast(ph["labels2d"][:, 0] % 5, tf.int32), 2)
    c["f1"] = M.f1_score(l, p, num_thresholds=11)
    c["f1_w"] = M.f1_score(l, p, weights=w)
    c["kappa"] = M.cohen_kappa(ph["cls_a"], ph["cls_b"], 3)
    c["kappa_w"] = M.cohen_kappa(ph["cls_a"], ph["cls_b"], 4, weights=ph["cw"])
    c["count"] = M.count(p)
    c["count_w"] = M.count(p, weights=w)
    c["auc_hist"] = M.auc_using_histogram(lb, p, [0.0, 1.0], nbins=10)
    awci = M.auc_with_confidence_intervals(li, p)
    c["auc_ci"] = (tuple(awci[0]), awci[1])
    awci_w = M.auc_with_confidence_intervals(li, p, weights=w, alpha=0.9, logit_transformation=False)
    c["auc_ci_w"] = (tuple(awci_w[0]), awci_w[1])
    c["recall_at_precision"] = M.recall_at_precision(l, p, 0.6, num_thresholds=20)
    c["precision_at_recall"] = M.precision_at_recall(l, p, 0.7, num_thresholds=20, weights=w)
    return c


def static_cases(M, tf, ph):
    """Non-streaming results (fed with step 0)."""
    a = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 2]], tf.constant([1, 2, 3, 5], tf.int64), [2, 3])
    b = tf.constant([[2, 4, 4], [3, 6, 7]], tf.int64)
    out = {"confusion": M.confusion_matrix(ph["cls_a"], ph["cls_b"]),
           "confusion_w": M.confusion_matrix(ph["cls_a"], ph["cls_b"], num_classes=4, weights=ph["cw"],
                                             dtype=tf.float32)}
    for name, st in (("set_difference", M.set_difference(a, b)), ("set_difference_ba", M.set_difference(a, b, False)),
                     ("set_intersection", M.set_intersection(a, b)), ("set_union", M.set_union(a, b))):
        out[name + "_indices"], out[name + "_values"], out[name + "_shape"] = st.indices, st.values, st.dense_shape
    out["set_size"] = M.set_size(a)
    return out


def flatten_values(cases):
    """name -> value tensor, the tuple values expanded to name_i."""
    flat = {}
    for name, (value, _) in cases.items():
        if isinstance(value, tuple):
            for i, v in enumerate(value):
                flat["%s_%d" % (name, i)] = v
        else:
            flat[name] = value
    return flat


def run_cases(tf, M, S=None):
    """Builds and runs every case (`S`: the module of the non-streaming functions, default `M`);
    returns the dict of arrays that the npz holds."""
    feeds = make_feeds()
    out = {}
    with tf.Graph().as_default():
        ph = placeholders(tf)
        cases = metric_cases(M, tf, ph)
        static = static_cases(S or M, tf, ph)
        values = flatten_values(cases)
        updates = [u for _, u in cases.values()]
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            for step in range(STEPS):
                fd = {ph[k]: feeds[k][step] for k in ph}
                sess.run(updates, fd)
                for k, v in sess.run(values, fd).items():
                    out["%s/step%d" % (k, step)] = np.asarray(v)
            fd = {ph[k]: feeds[k][0] for k in ph}
            for k, v in sess.run(static, fd).items():
                out["static/" + k] = np.asarray(v)
    return out


def main():
    import os
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import tensorflow.compat.v1 as tf
    import tf_slim.metrics as M
    from tensorflow.python.ops import array_ops, control_flow_ops
    tf.disable_v2_behavior()
    # moved in TF 2.x; tf_slim's streaming_concat still calls them from these modules
    for module, attr, fn in ((control_flow_ops, "cond", tf.cond), (array_ops, "stack", tf.stack),
                             (control_flow_ops, "Assert", tf.Assert)):
        if not hasattr(module, attr):
            setattr(module, attr, fn)
    from types import SimpleNamespace
    # tf_slim leaves out contrib's re-exports of tf.confusion_matrix and tf.sets.*
    S = SimpleNamespace(confusion_matrix=tf.confusion_matrix, set_difference=tf.sets.set_difference,
                        set_intersection=tf.sets.set_intersection, set_union=tf.sets.set_union,
                        set_size=tf.sets.set_size)
    out = run_cases(tf, M, S)
    path = pathlib.Path(__file__).with_name("contrib_extra_tf.npz")
    np.savez(path, **out)
    print("wrote", path, len(out), "arrays")


if __name__ == "__main__":
    main()
