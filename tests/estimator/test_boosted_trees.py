"""Gradient boosted trees (issue 22): the BoostedTrees* ops (tensorweave/ops/boosted_trees_ops.py) against
TF's expected values (tests/data/boosted_trees_tf.json: TF's kernel-test cases, since TF 2.21 registers
no kernels for these ops; see tests/data/make_boosted_trees_tf.py), and tf.estimator.BoostedTreesClassifier
/ BoostedTreesRegressor in whole programs."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops import boosted_trees_ops as bt
from tensorweave.ops import resources

with open(os.path.join(os.path.dirname(__file__), os.pardir, "data", "boosted_trees_tf.json")) as _f:
    GOLDEN = json.load(_f)
_FMT = {"format": "tensorweave.boosted_trees.ensemble", "version": 1}


def _serialized(doc):
    return json.dumps(dict(_FMT, **doc)) if doc is not None else ""


def _doc(serialized):
    d = json.loads(serialized.decode("utf-8"))
    assert (d.pop("format"), d.pop("version")) == (_FMT["format"], _FMT["version"])
    return d


def _assert_ensemble(got, want):
    """Compares ensembles as TF's assertProtoEquals does (an unset gain is 0; floats to float32 precision)."""
    def close(a, b, what):
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-7, err_msg=what)

    assert len(got["trees"]) == len(want["trees"])
    for t, (gt, wt) in enumerate(zip(got["trees"], want["trees"])):
        assert len(gt) == len(wt), (t, gt, wt)
        for i, (g, w) in enumerate(zip(gt, wt)):
            where = "tree %d node %d" % (t, i)
            assert ("split" in g) == ("split" in w), where
            if "split" in w:
                assert g["split"] == w["split"], where
                close(g.get("gain", 0.0), w.get("gain", 0.0), where)
            else:
                close(g["leaf"], w["leaf"], where)
                assert "gain" not in g or g["gain"] == 0.0, where
            assert ("original_leaf" in g) == ("original_leaf" in w), where
            if "original_leaf" in w:
                close(g["original_leaf"], w["original_leaf"], where)
    close(got["tree_weights"], want["tree_weights"], "tree_weights")
    for g, w in zip(got["tree_metadata"], want["tree_metadata"]):
        assert (g["num_layers_grown"], g["is_finalized"]) == (w["num_layers_grown"], w["is_finalized"])
        assert [p[0] for p in g["post_pruned_nodes_meta"]] == [p[0] for p in w["post_pruned_nodes_meta"]]
        close([p[1] for p in g["post_pruned_nodes_meta"]], [p[1] for p in w["post_pruned_nodes_meta"]], "logit_change")
    assert got["growing_metadata"] == want["growing_metadata"]


def _initialized_ensemble(sess, doc, name="ensemble"):
    ens = bt.TreeEnsemble(name, serialized_proto=_serialized(doc))
    sess.run(resources.initialize_resources(resources.shared_resources()))
    return ens


# ---- ops against TF's values ---------------------------------------------------------------------------------
@pytest.mark.parametrize("case", GOLDEN["stats"], ids=lambda c: c["name"])
def test_make_stats_summary_matches_tf(case):
    with tf.Graph().as_default(), tf.Session() as sess:
        out = sess.run(bt.make_stats_summary(case["node_ids"], case["gradients"], case["hessians"], case["features"],
                                             case["max_splits"], case["num_buckets"]))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.asarray(case["summary"], np.float32), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("case", GOLDEN["gains"], ids=lambda c: c["name"])
def test_calculate_best_gains_per_feature_matches_tf(case):
    with tf.Graph().as_default(), tf.Session() as sess:
        out = sess.run(list(bt.calculate_best_gains_per_feature(
            case["node_id_range"], np.asarray(case["summary"], np.float32), case["l1"], case["l2"],
            case["tree_complexity"], case["min_node_weight"], case["max_splits"])))
    node_ids, gains, thresholds, left, right = out
    assert [list(n) for n in node_ids] == case["node_ids"]
    if case["gains"] is not None:
        for f in range(2):
            np.testing.assert_allclose(gains[f], case["gains"][f], rtol=1e-5, atol=1e-6)
            assert list(thresholds[f]) == case["thresholds"][f]
            np.testing.assert_allclose(left[f], case["left"][f], rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(right[f], case["right"][f], rtol=1e-5, atol=1e-6)
            assert gains[f].dtype == np.float32 and left[f].shape == (len(node_ids[f]), 1)


@pytest.mark.parametrize("case", GOLDEN["update"], ids=lambda c: c["name"])
def test_update_ensemble_matches_tf(case):
    with tf.Graph().as_default(), tf.Session() as sess:
        ens = _initialized_ensemble(sess, case["initial"])
        for step in case["steps"]:
            k = len(step["feature_ids"])
            sess.run(bt.update_ensemble(
                ens.resource_handle, feature_ids=np.asarray(step["feature_ids"], np.int32),
                node_ids=[np.asarray(x, np.int32) for x in step["node_ids"]],
                gains=[np.asarray(x, np.float32) for x in step["gains"]],
                thresholds=[np.asarray(x, np.int32) for x in step["thresholds"]],
                left_node_contribs=[np.asarray(x, np.float32).reshape(-1, 1) for x in step["left"]],
                right_node_contribs=[np.asarray(x, np.float32).reshape(-1, 1) for x in step["right"]],
                max_depth=step["max_depth"], learning_rate=step["learning_rate"], pruning_mode=step["pruning_mode"]))
            assert k == len(step["node_ids"])
            stamp, serialized = sess.run(ens.serialize())
            assert stamp == step["stamp"]
            _assert_ensemble(_doc(serialized), step["expected"])


@pytest.mark.parametrize("case", GOLDEN["predict"], ids=lambda c: c["name"])
def test_training_predict_matches_tf(case):
    with tf.Graph().as_default(), tf.Session() as sess:
        ens = _initialized_ensemble(sess, case["initial"])
        logits, tree_ids, node_ids = sess.run(bt.training_predict(
            ens.resource_handle, case["cached_tree_ids"], case["cached_node_ids"], case["features"], 1))
    assert list(tree_ids) == case["tree_ids"] and list(node_ids) == case["node_ids"]
    cached = np.zeros_like(logits) if case["cached_values"] is None else np.asarray(case["cached_values"])
    np.testing.assert_allclose(logits + cached, case["logits"], rtol=1e-5, atol=1e-6)


def test_predict_sums_weighted_leaves_of_every_tree():
    doc = GOLDEN["update"][2]["steps"][0]["expected"]  # two trees, weights 0.15 and 1.0
    feats = [np.array([0, 9, 0, 9], np.int32)] * 76
    feats[75] = np.array([21, 21, 22, 22], np.int32)
    with tf.Graph().as_default(), tf.Session() as sess:
        ens = _initialized_ensemble(sess, doc)
        got = sess.run(bt.predict(ens.resource_handle, feats, 1))
    first = np.where(feats[4] <= 0, 7.14, -4.375) * np.float32(0.15)
    second = np.where(feats[75] <= 21, -0.6, 0.165)
    np.testing.assert_allclose(got[:, 0], first + second, rtol=1e-6)


def test_center_bias_adds_the_regularized_mean_step_until_it_is_small():
    with tf.Graph().as_default(), tf.Session() as sess:
        ens = _initialized_ensemble(sess, None)
        mg, mh = tf.placeholder(tf.float32, [1, 1]), tf.placeholder(tf.float32, [1, 1])
        center = bt.center_bias(ens.resource_handle, mg, mh, l1=0.0, l2=1.0)
        # first call: the bias is -g / (h + l2) in a new tree
        assert sess.run(center, {mg: [[-3.0]], mh: [[2.0]]})
        assert _doc(sess.run(ens.serialize())[1])["trees"] == [[{"leaf": float(np.float32(1.0))}]]
        # then it is added to the root; centering goes on while |step / old bias| > 1%
        assert sess.run(center, {mg: [[-0.5]], mh: [[1.5]]})  # step 0.2 on bias 1
        assert not sess.run(center, {mg: [[-0.01]], mh: [[1.0]]})  # step 0.005 on bias 1.2
        root = _doc(sess.run(ens.serialize())[1])["trees"][0][0]["leaf"]
        assert root == pytest.approx(1.205, rel=1e-6)
        stamp, = sess.run([ens.get_states()[0]])
        assert stamp == 3


def test_bucketize_finds_the_first_boundary_not_below_each_value():
    with tf.Graph().as_default(), tf.Session() as sess:
        out = sess.run(bt.boosted_trees_bucketize(
            [np.array([-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 7.0], np.float32)], [np.array([0.0, 1.0, 2.0], np.float32)]))
    assert out[0].tolist() == [0, 0, 1, 1, 2, 2, 2]


def test_ensemble_states_and_serialization_round_trip():
    doc = GOLDEN["update"][6]["steps"][2]["expected"]  # post-pruned tree and a new one
    with tf.Graph().as_default(), tf.Session() as sess:
        ens = _initialized_ensemble(sess, doc)
        states = sess.run(list(ens.get_states()))
        assert [int(s) for s in states[:4]] == [0, 2, 1, 3] and states[4].tolist() == [0, 1]
        copy = bt.TreeEnsemble("copy")
        sess.run(copy.initializer)
        stamp, serialized = ens.serialize()
        sess.run(copy.deserialize(stamp + 5, serialized))
        stamp2, serialized2 = sess.run(list(copy.serialize()))
        original = sess.run(serialized)
    assert stamp2 == 5 and serialized2 == original
    _assert_ensemble(_doc(original), doc)


@pytest.mark.parametrize("case", GOLDEN["quantiles"], ids=lambda c: c["name"])
def test_quantile_streams_match_tf(case):
    feats = [np.asarray(f, np.float32) for f in case["features"]]
    with tf.Graph().as_default(), tf.Session() as sess:
        acc = bt.QuantileAccumulator(case["epsilon"], len(feats), case["num_quantiles"], name="q0",
                                     max_elements=case["max_elements"])
        sess.run(resources.initialize_resources(resources.shared_resources()))
        boundaries = acc.get_bucket_boundaries()
        assert [b.tolist() for b in sess.run(boundaries)] == [[], []]
        sess.run(acc.add_summaries(feats, np.asarray(case["example_weights"], np.float32)))
        sess.run(acc.flush())
        got = sess.run(boundaries)
        buckets = sess.run(bt.boosted_trees_bucketize(feats, boundaries))
    for g, want in zip(got, case["boundaries"]):
        np.testing.assert_allclose(g, want, rtol=1e-6)
    assert [b.tolist() for b in buckets] == case["buckets"]


def _quantile_program(sess, save_path, flush):
    case = GOLDEN["quantiles"][0]
    feats = [np.asarray(f, np.float32) for f in case["features"]]
    acc = bt.QuantileAccumulator(case["epsilon"], 2, case["num_quantiles"], name="q0")
    saver = tf.train.Saver()
    sess.run(resources.initialize_resources(resources.shared_resources()))
    sess.run(acc.add_summaries(feats, np.asarray(case["example_weights"], np.float32)))
    if flush:
        sess.run(acc.flush())
    saver.save(sess, save_path)
    return case


@pytest.mark.parametrize("flush", [True, False], ids=["after_flush", "before_flush"])
def test_quantile_accumulator_saves_and_restores_its_boundaries(tmp_path, flush):
    path = str(tmp_path / "q")
    with tf.Graph().as_default(), tf.Session() as sess:
        case = _quantile_program(sess, path, flush)
    with tf.Graph().as_default(), tf.Session() as sess:
        acc = bt.QuantileAccumulator(case["epsilon"], 2, case["num_quantiles"], name="q0")
        tf.train.Saver().restore(sess, path)
        got = sess.run(acc.get_bucket_boundaries())
    want = case["boundaries"] if flush else [[], []]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)
    assert sorted(n for n, _ in tf.train.list_variables(path)) == [
        "q0:0_bucket_boundaries_0", "q0:0_bucket_boundaries_1"]


def test_quantile_stream_of_many_values_keeps_the_rank_error_bound():
    rng = np.random.RandomState(7)
    values = rng.normal(size=20000).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        acc = bt.QuantileAccumulator(0.01, 1, 100, name="q")
        sess.run(acc.initializer)
        for chunk in np.split(values, 10):  # ten batches' summaries merged in the stream
            sess.run(acc.add_summaries([chunk], [1.0]))
        sess.run(acc.flush())
        bounds = sess.run(acc.get_bucket_boundaries())[0]
    ranks = np.searchsorted(np.sort(values), bounds) / len(values)
    assert bounds[0] == values.min() and bounds[-1] == values.max()
    assert np.all(np.diff(bounds) > 0) and 90 <= len(bounds) <= 101
    assert np.max(np.diff(ranks)) <= 0.01 + 0.01 + 1e-9  # 1 / num_quantiles plus the sketch's error


# ---- op error paths --------------------------------------------------------------------------------------------
def test_ops_on_an_uncreated_ensemble_raise_not_found():
    with tf.Graph().as_default(), tf.Session() as sess:
        handle = bt.ensemble_resource_handle_op(shared_name="never_created")
        assert not sess.run(bt.is_ensemble_initialized(handle))
        with pytest.raises(tf.errors.NotFoundError, match="BoostedTreesEnsembleResource does not exist"):
            sess.run(bt.predict(handle, [[0, 1]], 1))


def test_corrupt_serialized_ensemble_raises_and_keeps_the_ensemble():
    with tf.Graph().as_default(), tf.Session() as sess:
        ens = _initialized_ensemble(sess, GOLDEN["update"][1]["initial"])
        before = sess.run(ens.serialize()[1])
        for bad in (b"not json", json.dumps({"format": "other"}).encode(),
                    json.dumps(dict(_FMT, trees=[[{"split": [0, 0, 0, 0, 9]}]], tree_weights=[1.0],
                                    tree_metadata=[{}])).encode()):
            with pytest.raises(tf.errors.InvalidArgumentError, match="Unable to parse tree ensemble proto"):
                sess.run(ens.deserialize(3, bad))
        assert sess.run(ens.serialize()[1]) == before
        with pytest.raises(tf.errors.InvalidArgumentError, match="Unable to parse tree ensemble proto"):
            sess.run(bt.TreeEnsemble("other", serialized_proto="{").initializer)


def test_op_argument_errors():
    with tf.Graph().as_default(), tf.Session() as sess:
        ens = _initialized_ensemble(sess, None)
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"node_ids must be in \[0, max_splits=2\)"):
            sess.run(bt.make_stats_summary([0, 2], [[1.], [1.]], [[1.], [1.]], [[0, 0]], 2, 2))
        with pytest.raises(tf.errors.InvalidArgumentError, match="has bucket 5, not in"):
            sess.run(bt.make_stats_summary([0, 1], [[1.], [1.]], [[1.], [1.]], [[0, 5]], 2, 2))
        with pytest.raises(tf.errors.InvalidArgumentError, match="node_id_range must be a rank 1 tensor with shape"):
            sess.run(bt.calculate_best_gains_per_feature([0, 1, 2], [np.zeros((2, 2, 2))], 0., 0., 0., 0., 2)[0])
        with pytest.raises(tf.errors.InvalidArgumentError, match="Currently only one dimensional outputs"):
            sess.run(bt.predict(ens.resource_handle, [[0, 1]], 2))
        with pytest.raises(tf.errors.InvalidArgumentError, match="node 3 is not a leaf of tree 0"):
            sess.run(bt.update_ensemble(ens.resource_handle, [0], [[3]], [[1.]], [[0]], [[[1.]]], [[[1.]]], 2, 0.1, 0))
        with pytest.raises(tf.errors.InvalidArgumentError, match="max_depth must be a scalar"):
            sess.run(bt.update_ensemble(ens.resource_handle, [0], [[0]], [[1.]], [[0]], [[[1.]]], [[[1.]]], [2, 3],
                                        0.1, 0))
    with pytest.raises(ValueError, match="pruning_mode mode must be one of: none, post, pre. Found: some"):
        bt.PruningMode.from_str("some")
    with pytest.raises(ValueError, match="float_values and bucket_boundaries must have the same length"):
        bt.boosted_trees_bucketize([[1.0]], [])


def test_quantile_op_errors():
    with tf.Graph().as_default(), tf.Session() as sess:
        handle = bt.quantile_resource_handle_op(shared_name="never_created")
        assert not sess.run(bt.is_quantile_resource_initialized(handle))
        with pytest.raises(tf.errors.NotFoundError, match="BoostedTreesQuantileStreamResource does not exist"):
            sess.run(bt.get_bucket_boundaries(handle, 1))
        with pytest.raises(tf.errors.InvalidArgumentError, match="An epsilon value of zero is not allowed."):
            sess.run(bt.create_quantile_stream_resource(handle, 0.0, 1))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Num_streams input cannot be a negative integer"):
            sess.run(bt.create_quantile_stream_resource(handle, 0.1, -1))
        acc = bt.QuantileAccumulator(0.1, 2, 10, name="q")
        sess.run(acc.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Got 1 summaries for 2 quantile streams"):
            sess.run(bt.quantile_add_summaries(acc.resource_handle, [np.zeros((1, 4), np.float32)]))
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"summaries\[0\] must be \[num_entries, 4\]"):
            sess.run(bt.quantile_add_summaries(acc.resource_handle, [np.zeros((1, 3), np.float32)] * 2))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Weights should be a single value or same size as "
                                                                 "features."):
            sess.run(bt.make_quantile_summaries([[1.0, 2.0, 3.0]], [1.0, 2.0], 0.1))
        with pytest.raises(tf.errors.InvalidArgumentError, match="num_features=1 but the resource has 2 streams"):
            sess.run(bt.get_bucket_boundaries(acc.resource_handle, 1))


# ---- estimators -------------------------------------------------------------------------------------------------
def _bucketized(key, boundaries):
    return tf.feature_column.bucketized_column(tf.feature_column.numeric_column(key), list(boundaries))


def _input(features, labels, epochs=None):
    n = len(labels)
    return tf.estimator.inputs.numpy_input_fn(features, labels, batch_size=n, num_epochs=epochs, shuffle=False)


def _ensemble_in(model_dir):
    reader = tf.train.load_checkpoint(model_dir)
    return _doc(reader.get_tensor("boosted_trees:0_serialized")), reader


def _predictions(est, features, key):
    n = len(next(iter(features.values())))
    fn = tf.estimator.inputs.numpy_input_fn(features, batch_size=n, num_epochs=1, shuffle=False)
    return np.array([p[key] for p in est.predict(fn)])


def test_one_tree_of_depth_one_is_tf_s_closed_form(tmp_path):
    # a: the informative feature (buckets 0 | 1), b: noise; squared loss averaged over the batch gives
    # g = 2 * (0 - y) / n and h = 2 / n per example, and TF's leaf is -learning_rate * G / (H + l2).
    a = np.array([0.1, 0.2, 0.3, 0.9, 0.8, 0.7], np.float32)
    b = np.array([0.1, 0.9, 0.1, 0.9, 0.1, 0.9], np.float32)
    y = np.array([1.0, 1.5, 1.0, 3.0, 3.5, 2.5], np.float32)
    lr, l2 = 0.5, 0.25
    est = tf.estimator.BoostedTreesRegressor(
        [_bucketized("a", [0.5]), _bucketized("b", [0.5])], n_batches_per_layer=1, n_trees=1, max_depth=1,
        learning_rate=lr, l2_regularization=l2, model_dir=str(tmp_path))
    est.train(_input({"a": a, "b": b}, y), max_steps=10)
    doc, reader = _ensemble_in(str(tmp_path))
    assert reader.get_tensor("global_step") == 1  # one layer finalizes the only tree
    g, h = 2 * (0 - y.astype(np.float64)) / len(y), np.full(len(y), 2.0 / len(y))
    left = a < 0.5
    gl, hl, gr, hr = g[left].sum(), h[left].sum(), g[~left].sum(), h[~left].sum()
    root = doc["trees"][0][0]
    assert root["split"] == [0, 0, 0, 1, 2]  # feature 0 ("a_bucketized"), bucket <= 0 goes left
    gain = gl ** 2 / (hl + l2) + gr ** 2 / (hr + l2) - (gl + gr) ** 2 / (hl + hr + l2)
    assert root["gain"] == pytest.approx(gain, rel=1e-5)
    leaves = [doc["trees"][0][1]["leaf"], doc["trees"][0][2]["leaf"]]
    np.testing.assert_allclose(leaves, [-lr * gl / (hl + l2), -lr * gr / (hr + l2)], rtol=1e-5)
    assert doc["tree_metadata"][0]["is_finalized"] and len(doc["trees"]) == 2
    pred = _predictions(est, {"a": a, "b": b}, "predictions")[:, 0]
    np.testing.assert_allclose(pred, np.where(left, leaves[0], leaves[1]), rtol=1e-6)


def _xor_data(n=160, seed=0):
    rng = np.random.RandomState(seed)
    x1 = rng.uniform(-1, 1, n).astype(np.float32)
    x2 = rng.uniform(-1, 1, n).astype(np.float32)
    return {"x1": x1, "x2": x2}, ((x1 > 0.2) ^ (x2 < -0.4)).astype(np.int64)


_EDGES = np.linspace(-1, 1, 11)[1:-1]


def test_classifier_separates_xor_and_evaluates_with_the_head_metrics(tmp_path):
    features, y = _xor_data()
    est = tf.estimator.BoostedTreesClassifier([_bucketized("x1", _EDGES), _bucketized("x2", _EDGES)],
                                              n_batches_per_layer=1, n_trees=4, max_depth=3, learning_rate=0.5,
                                              center_bias=True, model_dir=str(tmp_path))
    est.train(_input(features, y), max_steps=100)
    metrics = est.evaluate(_input(features, y, epochs=1))
    assert metrics["global_step"] == 2 + 4 * 3  # two centering steps, then three layers per tree
    assert metrics["accuracy"] >= 0.98 and metrics["auc"] > 0.99
    assert metrics["label/mean"] == pytest.approx(y.mean())
    probs = _predictions(est, features, "probabilities")
    np.testing.assert_allclose(probs.sum(axis=1), 1, rtol=1e-6)
    assert np.mean(probs.argmax(axis=1) == y) >= 0.98


def test_classifier_with_label_vocabulary_and_weights_differentiates_the_loss(tmp_path):
    features, y = _xor_data(seed=1)
    features["w"] = np.ones(len(y), np.float32)
    labels = np.array(["no", "yes"])[y]
    est = tf.estimator.BoostedTreesClassifier([_bucketized("x1", _EDGES), _bucketized("x2", _EDGES)],
                                              n_batches_per_layer=1, n_trees=3, max_depth=3, learning_rate=0.5,
                                              weight_column="w", label_vocabulary=["no", "yes"],
                                              model_dir=str(tmp_path / "vocab"))
    est.train(_input(features, labels), max_steps=9)
    # with unit weights the differentiated loss gives the closed form's gradients (to rounding): the same
    # first layer (deeper ones may break near-ties of gain the other way)
    plain = tf.estimator.BoostedTreesClassifier([_bucketized("x1", _EDGES), _bucketized("x2", _EDGES)],
                                                n_batches_per_layer=1, n_trees=3, max_depth=3, learning_rate=0.5,
                                                model_dir=str(tmp_path / "plain"))
    plain.train(_input(features, y), max_steps=9)
    got, want = _ensemble_in(str(tmp_path / "vocab"))[0], _ensemble_in(str(tmp_path / "plain"))[0]
    assert got["trees"][0][0]["split"] == want["trees"][0][0]["split"]
    np.testing.assert_allclose(got["trees"][0][0]["gain"], want["trees"][0][0]["gain"], rtol=1e-5)
    np.testing.assert_allclose([n.get("original_leaf", 0.0) for n in got["trees"][0][1:3]],
                               [n.get("original_leaf", 0.0) for n in want["trees"][0][1:3]], rtol=1e-5)
    classes = _predictions(est, features, "classes")[:, 0]
    assert np.mean(classes == labels.astype(object).astype(bytes)) >= 0.95


def test_regressor_fits_a_step_function_with_an_indicator_column(tmp_path):
    rng = np.random.RandomState(3)
    n = 120
    x = rng.uniform(0, 1, n).astype(np.float32)
    color = rng.choice(["red", "green", "blue"], n)
    y = (np.where(x > 0.35, 2.0, -1.0) + 1.5 * (color == "red")).astype(np.float32)
    cols = [_bucketized("x", np.linspace(0, 1, 21)[1:-1]), tf.feature_column.indicator_column(
        tf.feature_column.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"]))]
    est = tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1, n_trees=15, max_depth=2, learning_rate=0.5,
                                             center_bias=True, model_dir=str(tmp_path))
    features = {"x": x, "color": color}
    est.train(_input(features, y), max_steps=200)
    pred = _predictions(est, features, "predictions")[:, 0]
    assert np.mean((pred - y) ** 2) < 1e-3
    assert est.evaluate(_input(features, y, epochs=1))["average_loss"] < 1e-3
    doc = _ensemble_in(str(tmp_path))[0]
    used = {n["split"][0] for t in doc["trees"] for n in t if "split" in n}
    # sorted by name, "color_indicator" gives features 0-2 (red, green, blue), "x_bucketized" feature 3: only
    # "red" and x matter
    assert used == {0, 3}
    gains = np.zeros(4)
    for tree, weight in zip(doc["trees"], doc["tree_weights"]):
        for node in tree:
            if "split" in node:
                gains[node["split"][0]] += weight * node["gain"]
    importances = est.experimental_feature_importances()
    assert list(importances) == sorted(["color", "x_bucketized"], key=lambda k: -(gains[:3].sum() if k == "color"
                                                                                  else gains[3]))
    np.testing.assert_allclose([importances["color"], importances["x_bucketized"]], [gains[:3].sum(), gains[3]],
                               rtol=1e-12)
    normalized = est.experimental_feature_importances(normalize=True)
    np.testing.assert_allclose(sum(normalized.values()), 1.0)
    np.testing.assert_allclose(normalized["color"], gains[:3].sum() / gains.sum())


def test_center_bias_starts_from_the_label_mean(tmp_path):
    x = np.array([0.1, 0.6, 0.2, 0.9], np.float32)
    y = np.array([1.0, 2.0, 4.0, 5.0], np.float32)
    est = tf.estimator.BoostedTreesRegressor([_bucketized("x", [0.5])], n_batches_per_layer=1, n_trees=2, max_depth=1,
                                             center_bias=True, model_dir=str(tmp_path))
    est.train(_input({"x": x}, y), max_steps=2)  # the first step sets the bias, the second finds no change
    doc, reader = _ensemble_in(str(tmp_path))
    assert doc["trees"] == [[{"leaf": pytest.approx(3.0, rel=1e-6)}]]
    assert not reader.get_tensor("boosted_trees/center_bias_needed")
    np.testing.assert_allclose(_predictions(est, {"x": x}, "predictions")[:, 0], 3.0, rtol=1e-6)
    with pytest.raises(ValueError, match="Trees are all empty or contain only a root node."):
        est.experimental_feature_importances(normalize=True)
    est.train(_input({"x": x}, y), max_steps=100)  # then trees grow from the bias
    doc = _ensemble_in(str(tmp_path))[0]
    assert doc["trees"][0][0]["original_leaf"] == pytest.approx(3.0, rel=1e-6)


def test_predict_with_explanations_splits_each_prediction_into_bias_and_contributions(tmp_path):
    features, y = _xor_data(n=80, seed=4)
    est = tf.estimator.BoostedTreesClassifier([_bucketized("x1", _EDGES), _bucketized("x2", _EDGES)],
                                              n_batches_per_layer=1, n_trees=2, max_depth=2, learning_rate=0.5,
                                              center_bias=True, model_dir=str(tmp_path))
    est.train(_input(features, y), max_steps=100)
    fn = tf.estimator.inputs.numpy_input_fn(features, batch_size=40, num_epochs=1, shuffle=False)
    explained = list(est.experimental_predict_with_explanations(fn))
    doc = _ensemble_in(str(tmp_path))[0]
    bias = 1 / (1 + np.exp(-doc["trees"][0][0]["original_leaf"]))  # the centered bias, as a probability
    assert len(explained) == 80 and {"bias", "dfc", "probabilities", "logits"} <= set(explained[0])
    for p in explained:
        assert p["bias"] == pytest.approx(bias, rel=1e-6)
        assert list(p["dfc"]) == sorted(p["dfc"], key=lambda k: -abs(p["dfc"][k]))
        assert set(p["dfc"]) == {"x1_bucketized", "x2_bucketized"}
        # the contributions telescope from the bias to the predicted probability
        assert p["bias"] + sum(p["dfc"].values()) == pytest.approx(p["probabilities"][1], abs=1e-6)
    only = list(est.experimental_predict_with_explanations(fn, predict_keys=["logits"]))
    assert set(only[0]) == {"logits", "bias", "dfc"}
    plain = tf.estimator.BoostedTreesClassifier([_bucketized("x1", _EDGES)], n_batches_per_layer=1,
                                                model_dir=str(tmp_path / "plain"))
    with pytest.raises(ValueError, match="center_bias must be enabled during estimator instantiation when using "
                                         "experimental_predict_with_explanations."):
        next(plain.experimental_predict_with_explanations(fn))


def test_example_debug_outputs_follow_each_path():
    doc = GOLDEN["update"][2]["steps"][0]["expected"]  # bias-free first tree (weight 0.15), then a split tree
    feats = [np.zeros(2, np.int32)] * 76
    feats[4] = np.array([0, 9], np.int32)
    feats[75] = np.array([30, 21], np.int32)
    with tf.Graph().as_default(), tf.Session() as sess:
        ens = _initialized_ensemble(sess, doc)
        out = [json.loads(v) for v in sess.run(bt.example_debug_outputs(ens.resource_handle, feats, 1))]
        empty = _initialized_ensemble(sess, None, name="empty")
        with pytest.raises(tf.errors.InvalidArgumentError, match="The tree ensemble is empty"):
            sess.run(bt.example_debug_outputs(empty.resource_handle, feats, 1))
    f32 = np.float32
    first = [f32(0.15) * f32(7.14), f32(0.15) * f32(-4.375)]
    second = [f32(0.165), f32(-0.6)]
    for i in range(2):
        assert out[i]["feature_ids"] == [4, 75]
        np.testing.assert_allclose(out[i]["logits_path"], [0.0, first[i], f32(first[i] + second[i])], rtol=1e-6)


def test_pre_and_post_pruning_drop_splits_of_negative_gain(tmp_path):
    x = np.array([0.1, 0.6, 0.2, 0.9], np.float32)
    y = np.array([1.0, 1.1, 0.9, 1.0], np.float32)
    cols = [_bucketized("x", [0.5])]
    pre = tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1, n_trees=1, max_depth=2, pruning_mode="pre",
                                             tree_complexity=10.0, model_dir=str(tmp_path / "pre"))
    pre.train(_input({"x": x}, y), max_steps=100)
    doc, reader = _ensemble_in(str(tmp_path / "pre"))
    # no split was worth its complexity: nothing grew, and training stopped after 2 * n_trees * max_depth attempts
    assert doc["trees"] == [[{"leaf": 0.0}]] and reader.get_tensor("global_step") == 5
    post = tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1, n_trees=1, max_depth=2,
                                              pruning_mode="post", tree_complexity=10.0,
                                              model_dir=str(tmp_path / "post"))
    post.train(_input({"x": x}, y), max_steps=100)
    doc, reader = _ensemble_in(str(tmp_path / "post"))
    # the tree grew to depth 2, then post-pruning removed every split (all of negative gain)
    assert reader.get_tensor("global_step") == 2
    assert doc["trees"] == [[{"leaf": 0.0}], [{"leaf": 0.0}]]
    assert doc["tree_metadata"][0]["is_finalized"]
    assert [m[0] for m in doc["tree_metadata"][0]["post_pruned_nodes_meta"]] == [0] * 7


@pytest.mark.parametrize("numeric", [False, True], ids=["bucketized", "numeric"])
def test_training_resumes_from_a_checkpoint(tmp_path, numeric):
    features, y = _xor_data(n=80, seed=2)
    if numeric:  # the sketches' boundaries are restored too
        cols = [tf.feature_column.numeric_column("x1"), tf.feature_column.numeric_column("x2")]
    else:
        cols = [_bucketized("x1", _EDGES), _bucketized("x2", _EDGES)]

    def make(model_dir):
        return tf.estimator.BoostedTreesClassifier(cols, n_batches_per_layer=1, n_trees=2, max_depth=2,
                                                   learning_rate=0.3, center_bias=True, model_dir=model_dir)

    whole = make(str(tmp_path / "whole"))
    whole.train(_input(features, y), max_steps=100)
    first = make(str(tmp_path / "parts"))
    first.train(_input(features, y), max_steps=3)  # centering and the first layer
    assert len(_ensemble_in(str(tmp_path / "parts"))[0]["trees"][0]) == 3
    second = make(str(tmp_path / "parts"))  # a new estimator restores the ensemble and goes on
    second.train(_input(features, y), max_steps=100)
    parts, reader = _ensemble_in(str(tmp_path / "parts"))
    assert parts == _ensemble_in(str(tmp_path / "whole"))[0]
    assert reader.get_tensor("global_step") == 2 + 2 * 2
    np.testing.assert_array_equal(_predictions(second, features, "logits"), _predictions(whole, features, "logits"))


def test_layers_grow_from_the_mean_statistics_of_n_batches(tmp_path):
    # Squared loss averaged per batch: the mean over two half batches of the summed statistics is the
    # full batch's, so two half batches per layer grow the trees one full batch per layer grows.
    rng = np.random.RandomState(5)
    x = rng.uniform(0, 1, 40).astype(np.float32)
    y = (np.where(x > 0.5, 1.0, 0.0) + x).astype(np.float32)
    cols = [_bucketized("x", np.linspace(0, 1, 11)[1:-1])]

    def run(model_dir, n_batches, batch_size):
        est = tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=n_batches, n_trees=2, max_depth=2,
                                                 learning_rate=0.5, model_dir=str(tmp_path / model_dir))
        est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=batch_size, num_epochs=None,
                                                     shuffle=False), max_steps=100)
        return _ensemble_in(str(tmp_path / model_dir))

    full, full_reader = run("full", 1, 40)
    halves, halves_reader = run("halves", 2.0, 20)
    _assert_ensemble(halves, full)
    assert (full_reader.get_tensor("global_step"), halves_reader.get_tensor("global_step")) == (4, 8)


# ---- estimator argument errors ---------------------------------------------------------------------------------
def test_estimator_argument_errors():
    cols = [_bucketized("x", [0.5])]
    emb = tf.feature_column.embedding_column(tf.feature_column.categorical_column_with_identity("c", 3), 2)
    with pytest.raises(ValueError, match="For now, only bucketized_column, indicator_column, numeric_column is "
                                         "supported but got"):
        tf.estimator.BoostedTreesRegressor([emb], n_batches_per_layer=1)
    with pytest.raises(ValueError, match="For now pruning is not supported with multi class."):
        tf.estimator.BoostedTreesClassifier(cols, n_batches_per_layer=1, n_classes=3)
    with pytest.raises(ValueError, match="For now only binary classification is supported.n_classes given as 3"):
        tf.estimator.BoostedTreesClassifier(cols, n_batches_per_layer=1, n_classes=3, pruning_mode=None)
    with pytest.raises(ValueError, match="For now only 1 dimension regression is supported.label_dimension given as 2"):
        tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1, label_dimension=2)
    with pytest.raises(ValueError, match="Tree complexity have no effect unless pruning mode is chosen."):
        tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1, tree_complexity=0.1)
    with pytest.raises(ValueError, match="For pruning, tree_complexity must be positive."):
        tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1, pruning_mode="post")
    with pytest.raises(ValueError, match="pruning_mode mode must be one of"):
        tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1, pruning_mode="always")
    with pytest.raises(NotImplementedError, match="do not implement train_in_memory=True"):
        tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1, train_in_memory=True)
    with pytest.raises(ValueError, match="n_batches_per_layer must be a positive integer, got 0"):
        tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=0)
    with pytest.raises(ValueError, match="n_batches_per_layer must be a positive integer, got 1.5"):
        tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1.5)
    with pytest.raises(ValueError, match=r"quantile_sketch_epsilon must be in \(0, 1\), got 0"):
        tf.estimator.BoostedTreesRegressor(cols, n_batches_per_layer=1, quantile_sketch_epsilon=0)
    with pytest.raises(ValueError, match="feature_columns must not be empty"):
        tf.estimator.BoostedTreesRegressor([], n_batches_per_layer=1)


def test_bucketized_column_of_several_values_raises_at_training(tmp_path):
    col = tf.feature_column.bucketized_column(tf.feature_column.numeric_column("x", shape=(2,)), [0.5])
    est = tf.estimator.BoostedTreesRegressor([col], n_batches_per_layer=1, model_dir=str(tmp_path))
    x = np.zeros((4, 2), np.float32)
    with pytest.raises(ValueError, match="For now, only supports features equivalent to rank 1 but column `x` got"):
        est.train(_input({"x": x}, np.zeros(4, np.float32)), max_steps=1)


def test_feature_importances_need_a_trained_ensemble(tmp_path):
    x = np.array([0.1, 0.6, 0.2, 0.9], np.float32)
    est = tf.estimator.BoostedTreesRegressor([_bucketized("x", [0.5])], n_batches_per_layer=2,
                                             model_dir=str(tmp_path))
    est.train(_input({"x": x}, x), max_steps=1)  # one batch of the two a layer needs: no tree yet
    with pytest.raises(ValueError, match="Found empty serialized string for TreeEnsemble.You should only call this "
                                         "method after training."):
        est.experimental_feature_importances()


def test_numeric_columns_are_bucketized_by_quantile_sketches(tmp_path):
    features, y = _xor_data(n=120, seed=6)
    cols = [tf.feature_column.numeric_column("x1"), tf.feature_column.numeric_column("x2")]
    est = tf.estimator.BoostedTreesClassifier(cols, n_batches_per_layer=1, n_trees=4, max_depth=3, learning_rate=0.5,
                                              center_bias=True, quantile_sketch_epsilon=0.02, model_dir=str(tmp_path))
    est.train(_input(features, y), max_steps=100)
    reader = tf.train.load_checkpoint(str(tmp_path))
    # the first batch fed the sketches (no step counted); then 2 centering steps and 3 layers per tree
    assert reader.get_tensor("global_step") == 2 + 4 * 3 and reader.get_tensor("boosted_trees/are_boundaries_ready")
    for i, key in enumerate(["x1", "x2"]):
        bounds = reader.get_tensor("boosted_trees/QuantileAccumulator:0_bucket_boundaries_%d" % i)
        ranks = np.searchsorted(np.sort(features[key]), bounds) / len(y)
        assert bounds[0] == features[key].min() and bounds[-1] == features[key].max()
        # the compression to ~50 boundaries may leave rank gaps of twice its step, plus an entry's weight
        assert len(bounds) <= 51 and np.max(np.diff(ranks)) <= 2 * 0.02 + 1 / len(y)
    metrics = est.evaluate(_input(features, y, epochs=1))
    assert metrics["accuracy"] >= 0.97
    doc = _ensemble_in(str(tmp_path))[0]
    assert max(n["split"][1] for t in doc["trees"] for n in t if "split" in n) <= 50  # bucket thresholds


def test_numeric_columns_of_small_data_split_between_its_values(tmp_path):
    # With fewer values than quantiles the sketch is exact: every value is a boundary, its own bucket.
    x = np.array([3.0, 1.0, 4.0, 1.5, 9.0, 2.6], np.float32)
    y = np.array([0.0, 0.0, 5.0, 0.0, 5.0, 0.0], np.float32)
    est = tf.estimator.BoostedTreesRegressor([tf.feature_column.numeric_column("x")], n_batches_per_layer=1,
                                             n_trees=1, max_depth=1, learning_rate=1.0, model_dir=str(tmp_path))
    est.train(_input({"x": x}, y), max_steps=10)
    reader = tf.train.load_checkpoint(str(tmp_path))
    np.testing.assert_array_equal(reader.get_tensor("boosted_trees/QuantileAccumulator:0_bucket_boundaries_0"),
                                  np.unique(x))
    root = _ensemble_in(str(tmp_path))[0]["trees"][0][0]
    # bucket b holds the values in (boundary b-1, boundary b]: bucket <= 3 (x <= 3.0) goes left
    assert root["split"] == [0, 3, 0, 1, 2]
    pred = _predictions(est, {"x": np.array([0.5, 3.0, 3.5, 100.0], np.float32)}, "predictions")[:, 0]
    np.testing.assert_allclose(pred, [0.0, 0.0, 5.0, 5.0], atol=1e-6)
    explained = tf.estimator.BoostedTreesRegressor([tf.feature_column.numeric_column("x")], n_batches_per_layer=1,
                                                   model_dir=str(tmp_path))
    assert explained.experimental_feature_importances() == {"x": pytest.approx(root["gain"])}


def test_numeric_column_of_rank_two_raises_at_training(tmp_path):
    col = tf.feature_column.numeric_column("x", shape=(2, 2))
    est = tf.estimator.BoostedTreesRegressor([col], n_batches_per_layer=1, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match=r"For now, only support Numeric column with shape less than 2, but column "
                                         r"`x` got: \(2, 2\)"):
        est.train(_input({"x": np.zeros((4, 2, 2), np.float32)}, np.zeros(4, np.float32)), max_steps=1)


def test_quantile_sketches_weigh_values_by_the_weight_column(tmp_path):
    # A value of zero weight is left out of the sketch (TF's buffer ignores non-positive weights).
    x = np.array([3.0, 1.0, 4.0, 1.5, 9.0, 2.6], np.float32)
    w = np.array([1.0, 1.0, 0.0, 2.0, 1.0, 1.0], np.float32)
    est = tf.estimator.BoostedTreesRegressor([tf.feature_column.numeric_column("x")], n_batches_per_layer=1,
                                             weight_column="w", n_trees=1, max_depth=1, model_dir=str(tmp_path))
    est.train(_input({"x": x, "w": w}, x), max_steps=3)
    reader = tf.train.load_checkpoint(str(tmp_path))
    bounds = reader.get_tensor("boosted_trees/QuantileAccumulator:0_bucket_boundaries_0")
    np.testing.assert_array_equal(bounds, np.array([1.0, 1.5, 2.6, 3.0, 9.0], np.float32))
