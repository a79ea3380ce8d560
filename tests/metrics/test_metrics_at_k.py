"""tf.metrics at-k metrics, mean_cosine_distance and sensitivity/specificity against values recorded
from real TensorFlow (tests/data/make_metrics_at_k_tf.py -> metrics_at_k_tf.json): the update_op value
after each batch of a stream, the final value, variable names, collections and errors."""

import builtins
import json
import math
import pathlib

import numpy as np
import pytest

import tensorweave as tf

CASES = json.loads(pathlib.Path(__file__).parents[1].joinpath("data", "metrics_at_k_tf.json").read_text())
AT_TOP_K = ("precision_at_top_k", "recall_at_top_k")
RATE = ("sensitivity_at_specificity", "specificity_at_sensitivity")


def _placeholder(value, dtype, dynamic):
    arr = np.asarray(value)
    return tf.placeholder(dtype, [None] * arr.ndim if dynamic else list(arr.shape))


def _build(c):
    kw = dict(c["kwargs"])
    labels_dtype = tf.int32 if kw.pop("labels_dtype", None) == "int32" else tf.int64
    b0 = c["batches"][0]
    pkey = "predictions_idx" if c["fn"] in AT_TOP_K else "predictions"
    feeds = {}
    if c["sparse"]:
        ind = tf.placeholder(tf.int64, [None, 2])
        val = tf.placeholder(tf.int64, [None])
        shp = tf.placeholder(tf.int64, [2])
        labels = tf.SparseTensor(ind, val, shp)
        feeds["labels"] = lambda b: {ind: np.asarray(b["labels"]["indices"], np.int64).reshape(-1, 2),
                                     val: np.asarray(b["labels"]["values"], np.int64),
                                     shp: b["labels"]["dense_shape"]}
    else:
        ldt = tf.float32 if c["fn"] == "mean_cosine_distance" else labels_dtype
        labels = _placeholder(b0["labels"], ldt, c["dynamic"])
        feeds["labels"] = lambda b: {labels: b["labels"]}
    pred = _placeholder(b0[pkey], tf.int32 if pkey == "predictions_idx" else tf.float32, c["dynamic"])
    feeds["pred"] = lambda b: {pred: b[pkey]}
    kw[pkey] = pred
    if "weights" in b0:
        w = _placeholder(b0["weights"], tf.float32, c["dynamic"])
        kw["weights"] = w
        feeds["w"] = lambda b: {w: b["weights"]}
    value, update = getattr(tf.metrics, c["fn"])(labels, metrics_collections=["mc"], updates_collections=["uc"],
                                                  **kw)
    return value, update, feeds


def _num(x):
    return float("nan") if x == "nan" else x


def _close(got, want, dtype):
    want = _num(want)
    if math.isnan(want):
        return math.isnan(got)
    tol = 1e-12 if dtype == "float64" else 2e-6
    return abs(got - want) <= tol * max(1.0, abs(want))


@pytest.mark.parametrize("c", CASES, ids=[c["name"] for c in CASES])
def test_against_tf(c):
    with tf.Graph().as_default():
        if "error" in c and c["error"] != "InvalidArgumentError":
            with pytest.raises(getattr(builtins, c["error"])):
                _build(c)
            return
        value, update, feeds = _build(c)
        names = [v.op.name for v in tf.local_variables()]
        assert [v.op.name for v in tf.get_collection(tf.GraphKeys.METRIC_VARIABLES)] == names
        assert tf.get_collection("mc") == [value] and tf.get_collection("uc") == [update]
        if "error" in c:
            with tf.Session() as s:
                s.run(tf.local_variables_initializer())
                b = c["batches"][0]
                fd = {}
                for f in feeds.values():
                    fd.update(f(b))
                with pytest.raises(tf.errors.InvalidArgumentError, match="weights can not be broadcast to values"):
                    s.run(update, fd)
            return
        assert names == c["var_names"]
        assert value.dtype.name == c["value_dtype"] and update.dtype.name == c["value_dtype"]
        assert value.name == c["value_name"] and update.name == c["update_name"]
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            got = []
            for b in c["batches"]:
                fd = {}
                for f in feeds.values():
                    fd.update(f(b))
                got.append(float(s.run(update, fd)))
            final = float(s.run(value))
        for g, want in zip(got, c["updates"]):
            assert _close(g, want, c["value_dtype"]), (got, c["updates"])
        assert _close(final, c["value"], c["value_dtype"]), (final, c["value"])


def _case(name):
    return next(c for c in CASES if c["name"] == name)


def _stream(value, update, feed_fns, batches):
    with tf.Session() as s:
        s.run(tf.local_variables_initializer())
        got = [float(s.run(update, feed_fns(b))) for b in batches]
        return got, float(s.run(value))


@pytest.mark.parametrize("fn", ["precision_at_k", "recall_at_k", "average_precision_at_k"])
def test_unknown_rank_labels_and_predictions(fn):
    # The rank of labels [D1] vs predictions [D1, C] only known at run time: labels expanded by a cond.
    c = _case("%s_rank1_labels" % fn)
    with tf.Graph().as_default():
        labels = tf.placeholder(tf.int64, None)
        pred = tf.placeholder(tf.float32, None if fn != "average_precision_at_k" else [None, None])
        value, update = getattr(tf.metrics, fn)(labels, pred, **c["kwargs"])
        got, final = _stream(value, update, lambda b: {labels: b["labels"], pred: b["predictions"]}, c["batches"])
    assert all(_close(g, w, "float64") for g, w in zip(got, c["updates"])) and _close(final, c["value"], "float64")


@pytest.mark.parametrize("fn", ["precision_at_k", "recall_at_k", "average_precision_at_k", "precision_at_k_class",
                                "recall_at_k_class"])
def test_sparse_labels_unknown_rank(fn):
    c = _case(fn.replace("_class", "") + ("_class_sparse" if fn.endswith("_class") else "_sparse"))
    with tf.Graph().as_default():
        ind = tf.placeholder(tf.int64, [None, None])
        val = tf.placeholder(tf.int64, [None])
        shp = tf.placeholder(tf.int64, [None])
        pred = tf.placeholder(tf.float32, [None, None])
        value, update = getattr(tf.metrics, c["fn"])(tf.SparseTensor(ind, val, shp), pred, **c["kwargs"])

        def feed(b):
            return {ind: np.asarray(b["labels"]["indices"], np.int64).reshape(-1, 2), val: b["labels"]["values"],
                    shp: b["labels"]["dense_shape"], pred: b["predictions"]}
        got, final = _stream(value, update, feed, c["batches"])
    for g, w in zip(got + [final], c["updates"] + [c["value"]]):
        assert _close(g, w, "float64"), (got, c["updates"])


def test_sparse_tensor_value_labels():
    c = _case("recall_at_k_sparse")
    b = c["batches"][0]
    with tf.Graph().as_default():
        labels = tf.SparseTensorValue(np.asarray(b["labels"]["indices"], np.int64), np.asarray(b["labels"]["values"],
                                      np.int64), b["labels"]["dense_shape"])
        value, update = tf.metrics.recall_at_k(labels, tf.constant(b["predictions"]), k=2)
        got, _ = _stream(value, update, lambda _: {}, [b])
    assert _close(got[0], c["updates"][0], "float64")


@pytest.mark.parametrize("fn", ["precision_at_k", "recall_at_k", "sparse_precision_at_k", "average_precision_at_k",
                                "sparse_average_precision_at_k", "precision_at_top_k"])
def test_eager_raises(fn):
    # TF's messages name the metric that does the check: precision_at_k checks as sparse_precision_at_k.
    shown = {"precision_at_k": "sparse_precision_at_k",
             "average_precision_at_k": "sparse_average_precision_at_k"}.get(fn, fn)
    with tf.Graph().as_default():
        labels = tf.constant([[1]], tf.int64)
        pred = tf.constant([[0.1, 0.9]])
        idx = tf.constant([[1]])
    from tensorweave.eager.context import eager_mode
    with eager_mode():
        with pytest.raises(RuntimeError, match="tf.metrics.%s is not supported when eager execution is enabled."
                           % shown):
            getattr(tf.metrics, fn)(labels, idx if fn.endswith("top_k") else pred, k=1)


@pytest.mark.parametrize("fn", ["mean_cosine_distance", "sensitivity_at_specificity", "specificity_at_sensitivity"])
def test_eager_raises_other(fn):
    from tensorweave.eager.context import eager_mode
    with eager_mode():
        with pytest.raises(RuntimeError, match="tf.metrics.%s is not supported" % fn):
            getattr(tf.metrics, fn)(tf.constant([1.0, 0.0]), tf.constant([0.5, 0.5]), 0.5)


def test_recall_at_top_k_runs_eagerly():
    # TF has no eager check in recall_at_top_k: it runs once and returns tensors (recorded: 1.0, 1.0).
    from tensorweave.eager.context import eager_mode
    with eager_mode():
        v, u = tf.metrics.recall_at_top_k(tf.constant([[1]], tf.int64), tf.constant([[1, 2]]), k=2)
        assert float(np.asarray(v)) == 1.0 and float(np.asarray(u)) == 1.0


def test_errors():
    with tf.Graph().as_default():
        labels = tf.constant([[1, 2]], tf.int64)
        pred = tf.constant([[0.1, 0.5, 0.4]])
        with pytest.raises(ValueError, match=r"Invalid k=0. `k` should be >= 1."):
            tf.metrics.average_precision_at_k(labels, pred, k=0)
        with pytest.raises(ValueError, match="Unexpected labels shape"):
            tf.metrics.precision_at_k(tf.constant([[[1]]], tf.int64), pred, k=1)
        with pytest.raises(ValueError, match="Unexpected labels shape"):
            tf.metrics.recall_at_top_k(tf.constant([[[1]]], tf.int64), tf.constant([[1]]), k=1)
        with pytest.raises(TypeError):
            tf.metrics.recall_at_k(tf.constant([[1]], tf.int32), pred, k=1)
        with pytest.raises(ValueError, match=r"`specificity` must be in the range \[0, 1\]. Currently, `specificity` "
                                             r"got 1.5."):
            tf.metrics.sensitivity_at_specificity([1, 0], [0.5, 0.5], 1.5)
        with pytest.raises(ValueError, match=r"`sensitivity` must be in the range \[0, 1\]. Currently, `sensitivity` "
                                             r"is -0.1."):
            tf.metrics.specificity_at_sensitivity([1, 0], [0.5, 0.5], -0.1)
        with pytest.raises(ValueError):
            tf.metrics.mean_cosine_distance(tf.ones([2, 3]), tf.ones([2, 4]), dim=1)
        p = tf.placeholder(tf.float32, [2])
        v, u = tf.metrics.sensitivity_at_specificity([1, 0], p, 0.5)
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="predictions must be in"):
                s.run(u, {p: [0.5, 1.5]})


def test_weights_rank_checked_at_run_time():
    # As in TF (set sizes have no static shape there), weights of the wrong rank fail when run.
    with tf.Graph().as_default():
        v, u = tf.metrics.precision_at_top_k(tf.constant([[1], [2]], tf.int64), tf.constant([[1], [0]]), k=1,
                                             weights=tf.constant([[1.0, 1.0]]))
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="weights can not be broadcast to values"):
                s.run(u)


def test_value_is_idempotent_and_initial_nan():
    with tf.Graph().as_default():
        v, u = tf.metrics.precision_at_k(tf.constant([[1], [0]], tf.int64), tf.constant([[0.1, 0.9], [0.8, 0.2]]), k=1)
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            assert math.isnan(s.run(v))
            assert s.run(u) == 1.0 and s.run(v) == 1.0 and s.run(v) == 1.0
            s.run(tf.local_variables_initializer())
            assert math.isnan(s.run(v))


def test_empty_sparse_labels():
    # Recorded from TF 2.21: no labels at all -> AP and recall NaN (0/0), precision 0 (all false positives).
    with tf.Graph().as_default():
        lab = tf.SparseTensor(np.zeros((0, 2), np.int64), np.zeros(0, np.int64), [2, 1])
        pred = tf.constant([[0.1, 0.9], [0.5, 0.4]])
        ups = [getattr(tf.metrics, fn)(lab, pred, k=1)[1]
               for fn in ("average_precision_at_k", "recall_at_k", "precision_at_k")]
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            ap, rec, prec = s.run(ups)
    assert math.isnan(ap) and math.isnan(rec) and prec == 0.0
