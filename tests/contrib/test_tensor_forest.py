"""tf.contrib.tensor_forest: TensorForest V4 online random forests, their checkpoints and the `resources`
module."""

import json
import random

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib.tensor_forest.python import tensor_forest
from tensorweave.framework import errors
from tensorweave.ops import resources


def _blobs(rng, n, num_classes, num_features, spread=3.0):
    centers = np.random.RandomState(123).randn(num_classes, num_features) * spread
    y = rng.randint(num_classes, size=n)
    return (centers[y] + rng.randn(n, num_features)).astype(np.float32), y.astype(np.int32)


def _xor(rng, n):
    x = rng.uniform(-1, 1, size=(n, 2)).astype(np.float32)
    return x, ((x[:, 0] > 0) != (x[:, 1] > 0)).astype(np.int32)


def test_fill_defaults_are_tf115s():
    # The expected values are TF 1.15's ForestHParams defaults, written out by hand.
    h = tensor_forest.ForestHParams(num_classes=10, num_features=784).fill()
    assert (h.num_trees, h.max_nodes, h.bagging_fraction, h.feature_bagging_fraction) == (100, 10000, 1.0, 1.0)
    assert (h.split_after_samples, h.valid_leaf_threshold, h.max_fertile_nodes) == (250, 1, 0)
    assert (h.dominate_method, h.dominate_fraction, h.model_name) == ("bootstrap", 0.99, "all_dense")
    assert (h.split_finish_name, h.split_pruning_name, h.split_name) == ("basic", "none", "less_or_equal")
    assert (h.prune_every_samples, h.early_finish_check_every_samples) == (0, 0)
    assert not (h.collate_examples or h.checkpoint_stats or h.use_running_stats_method or h.initialize_average_splits
                or h.inference_tree_paths)
    assert h.param_file is None
    assert h.num_splits_to_consider == 28  # min(max(10, floor(sqrt(784))), 1000)
    assert (h.bagged_num_features, h.bagged_features, h.regression) == (784, None, False)
    assert (h.num_outputs, h.num_output_columns, h.base_random_seed) == (1, 11, 0)
    assert h.values() is h.__dict__
    assert tensor_forest.ForestHParams(num_classes=2, num_features=4).fill().num_splits_to_consider == 10
    assert tensor_forest.ForestHParams(num_classes=2, num_features=4, num_splits_to_consider=3).fill() \
        .num_splits_to_consider == 3
    random.seed(0)
    h = tensor_forest.ForestHParams(num_classes=2, num_features=10, num_trees=3, feature_bagging_fraction=0.5).fill()
    assert h.bagged_num_features == 5 and len(h.bagged_features) == 3
    assert all(len(set(f)) == 5 and max(f) < 10 for f in h.bagged_features)
    with pytest.raises(AttributeError):
        tensor_forest.ForestHParams(num_features=3).fill()


def test_random_forest_example_flow():
    # TensorFlow-Examples' random_forest.py, as written, on small MNIST-shaped blobs.
    rng = np.random.RandomState(0)
    num_steps, batch_size, num_classes, num_features, num_trees, max_nodes = 12, 128, 10, 784, 4, 1000
    X = tf.placeholder(tf.float32, shape=[None, num_features])  # noqa: N806 (the program's names)
    Y = tf.placeholder(tf.int32, shape=[None])  # noqa: N806
    hparams = tensor_forest.ForestHParams(num_classes=num_classes, num_features=num_features, num_trees=num_trees,
                                          max_nodes=max_nodes).fill()
    forest_graph = tensor_forest.RandomForestGraphs(hparams)
    train_op = forest_graph.training_graph(X, Y)
    loss_op = forest_graph.training_loss(X, Y)
    infer_op, _, _ = forest_graph.inference_graph(X)
    correct_prediction = tf.equal(tf.argmax(infer_op, 1), tf.cast(Y, tf.int64))
    accuracy_op = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
    init_vars = tf.group(tf.global_variables_initializer(), resources.initialize_resources(resources.shared_resources()))  # noqa: E501
    assert len(resources.shared_resources()) == 2 * num_trees
    sess = tf.Session()
    sess.run(init_vars)
    losses = []
    for _ in range(num_steps):
        batch_x, batch_y = _blobs(rng, batch_size, num_classes, num_features, spread=2.0)
        _, loss = sess.run([train_op, loss_op], feed_dict={X: batch_x, Y: batch_y})
        losses.append(loss)
    # The loss is TF's: minus the average tree size (fetched with the train op, so before or after its growth).
    assert losses[0] >= -3.0 and losses[-1] < -5.0
    assert all(b <= a for a, b in zip(losses, losses[1:]))
    test_x, test_y = _blobs(rng, 500, num_classes, num_features, spread=2.0)
    assert sess.run(accuracy_op, feed_dict={X: test_x, Y: test_y}) > 0.8
    probs = sess.run(infer_op, feed_dict={X: test_x})
    assert probs.shape == (500, num_classes) and probs.dtype == np.float32
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)


def _train(hparams, data_fn, steps, batch=100, data_seed=0, eval_n=1000):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, hparams.num_features])
        y = tf.placeholder(tf.int32, [None])
        forest = tensor_forest.RandomForestGraphs(hparams)
        train = forest.training_graph(x, y)
        probs, _, _ = forest.inference_graph(x)
        sizes = [t.size() for t in forest.trees]
        init = resources.initialize_resources(resources.shared_resources())
        rng = np.random.RandomState(data_seed)
        with tf.Session() as sess:
            sess.run(init)
            for _ in range(steps):
                bx, by = data_fn(rng, batch)
                sess.run(train, {x: bx, y: by})
            tx, ty = data_fn(np.random.RandomState(999), eval_n)
            p = sess.run(probs, {x: tx})
            return p, float(np.mean(p.argmax(1) == ty)), sess.run(sizes)


def test_xor_accuracy_rises_with_training():
    hparams = tensor_forest.ForestHParams(num_classes=2, num_features=2, num_trees=5, max_nodes=200,
                                          split_after_samples=30, base_random_seed=1).fill()
    _, acc_untrained, sizes0 = _train(hparams, _xor, 0)
    _, acc, sizes = _train(hparams, _xor, 30)
    assert sizes0 == [1] * 5 and acc_untrained < 0.6
    assert acc > 0.9 and min(sizes) > 3  # XOR needs at least two levels of splits


def test_max_nodes_stops_growth():
    hparams = tensor_forest.ForestHParams(num_classes=3, num_features=4, num_trees=3, max_nodes=5,
                                          split_after_samples=10, base_random_seed=3).fill()
    _, _, sizes = _train(hparams, lambda r, n: _blobs(r, n, 3, 4), 40)
    assert sizes == [5, 5, 5]


def test_deterministic_with_seed():
    kw = dict(num_classes=2, num_features=2, num_trees=3, max_nodes=100, split_after_samples=20)
    p1, _, s1 = _train(tensor_forest.ForestHParams(base_random_seed=5, **kw).fill(), _xor, 10)
    p2, _, s2 = _train(tensor_forest.ForestHParams(base_random_seed=5, **kw).fill(), _xor, 10)
    np.testing.assert_array_equal(p1, p2)
    assert s1 == s2
    p3, _, _ = _train(tensor_forest.ForestHParams(base_random_seed=6, **kw).fill(), _xor, 10)
    assert not np.array_equal(p1, p3)


def test_bagging_and_feature_bagging_and_tree_paths():
    random.seed(1)
    hparams = tensor_forest.ForestHParams(num_classes=3, num_features=6, num_trees=6, max_nodes=100,
                                          split_after_samples=20, bagging_fraction=0.7, feature_bagging_fraction=0.5,
                                          base_random_seed=2, inference_tree_paths=True).fill()
    _, acc, _ = _train(hparams, lambda r, n: _blobs(r, n, 3, 6), 20)
    assert acc > 0.85
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 6])
        forest = tensor_forest.RandomForestGraphs(hparams)
        probs, paths, variance = forest.inference_graph(x)
        assert variance is None and probs.name.startswith("probabilities")
        with tf.Session() as sess:
            sess.run(resources.initialize_resources(resources.shared_resources()))  # noqa: E501
            p, tp = sess.run([probs, paths], {x: np.zeros((2, 6), np.float32)})
        np.testing.assert_array_equal(p, np.zeros((2, 3), np.float32))  # an empty leaf predicts zeros, as in TF
        assert tp.shape == (2, 6) and tp[0, 0] == b"0"
        with pytest.raises(NotImplementedError, match="feature bagging"):
            forest.feature_importances()


def test_feature_importances_and_sessions_are_independent():
    hparams = tensor_forest.ForestHParams(num_classes=2, num_features=3, num_trees=2, max_nodes=50,
                                          split_after_samples=10, base_random_seed=4).fill()
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.placeholder(tf.int32, [None])
    forest = tensor_forest.RandomForestGraphs(hparams)
    train = forest.training_graph(x, y)
    importances = forest.feature_importances()
    size = forest.average_size()
    init = resources.initialize_resources(resources.shared_resources())
    rng = np.random.RandomState(0)
    s1, s2 = tf.Session(), tf.Session()
    s1.run(init)
    s2.run(init)
    for _ in range(10):
        bx = rng.randn(50, 3).astype(np.float32)
        s1.run(train, {x: bx, y: (bx[:, 1] > 0).astype(np.int32)})  # only feature 1 matters
    assert s1.run(size) > 1 and s2.run(size) == 1
    imp = s1.run(importances)
    assert imp.shape == (3,) and abs(imp.sum() - 1) < 1e-6 and imp.argmax() == 1
    s1.run(init)  # re-running the create ops resets the trees
    assert s1.run(size) == 1


def test_resources_module():
    assert resources.initialize_resources([]).type == "NoOp"
    hparams = tensor_forest.ForestHParams(num_classes=2, num_features=2, num_trees=1).fill()
    forest = tensor_forest.RandomForestGraphs(hparams)
    tree, stats = forest.get_all_resource_handles()
    assert [r.handle for r in resources.shared_resources()] == [stats, tree]
    assert resources.local_resources() == []
    local = resources.shared_resources()[0]
    resources.register_resource(local.handle, local.create, local.is_initialized, is_shared=False)
    assert resources.local_resources() == [local]
    report = resources.report_uninitialized_resources(resources.shared_resources())
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(report), [b"stats-0:0", b"tree-0:0"])
        sess.run(tree.op.graph.get_operation_by_name("tree-0/create"))
        np.testing.assert_array_equal(sess.run(report), [b"stats-0:0"])
        sess.run(resources.initialize_resources(resources.shared_resources()))  # noqa: E501
        assert sess.run(report).shape == (0,)
    with tf.Graph().as_default():
        with tf.Session() as sess:
            assert sess.run(resources.report_uninitialized_resources()).shape == (0,)


def test_error_paths():
    hparams = tensor_forest.ForestHParams(num_classes=3, num_features=4, num_trees=2).fill()
    forest = tensor_forest.RandomForestGraphs(hparams)
    with pytest.raises(ValueError, match="input_labels must be a vector"):
        forest.training_graph(tf.placeholder(tf.float32, [None, 4]), tf.placeholder(tf.int32, [None, 3]))
    with pytest.raises(ValueError, match="input_data must be a matrix"):
        forest.training_graph(tf.placeholder(tf.float32, [None, 4, 1]), tf.placeholder(tf.int32, [None]))
    with pytest.raises(ValueError, match="input_data has 5 features but the forest was built with num_features=4"):
        forest.inference_graph(tf.placeholder(tf.float32, [None, 5]))
    with pytest.raises(NotImplementedError, match="one dense Tensor"):
        forest.training_graph({"a": tf.placeholder(tf.float32, [None, 4])}, tf.placeholder(tf.int32, [None]))
    with pytest.raises(ValueError, match=r"call hparams.fill\(\) first"):
        tensor_forest.RandomForestGraphs(tensor_forest.ForestHParams(num_classes=3, num_features=4))
    with pytest.raises(NotImplementedError, match="model_name='all_dense'"):
        tensor_forest.RandomForestGraphs(
            tensor_forest.ForestHParams(num_classes=3, num_features=4, model_name="sparse").fill())
    with pytest.raises(NotImplementedError, match="split_finish_name='basic'"):
        tensor_forest.RandomForestGraphs(
            tensor_forest.ForestHParams(num_classes=3, num_features=4, split_finish_name="hoeffding").fill())
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.int32, [None])
    train = forest.training_graph(x, y)
    probs, _, _ = forest.inference_graph(x)
    with tf.Session() as sess:
        with pytest.raises(errors.FailedPreconditionError, match="has not been initialized"):
            sess.run(probs, {x: np.zeros((1, 4))})
        sess.run(resources.initialize_resources(resources.shared_resources()))  # noqa: E501
        with pytest.raises(errors.InvalidArgumentError, match=r"Label 3 is not in \[0, 3\)"):
            sess.run(train, {x: np.zeros((2, 4)), y: [0, 3]})
        with pytest.raises(errors.InvalidArgumentError, match="input_labels must be a vector of 2 labels"):
            sess.run(train, {x: np.zeros((2, 4)), y: [0]})


# ---- checkpoints: the trees and their statistics are saveable objects -------------------------------
_CKPT_KW = dict(num_classes=2, num_features=2, num_trees=3, max_nodes=100, split_after_samples=20, base_random_seed=5)


def _forest_graph(training=True, **kw):
    g = tf.Graph()
    with g.as_default():
        hparams = tensor_forest.ForestHParams(**dict(_CKPT_KW, **kw)).fill()
        x = tf.placeholder(tf.float32, [None, 2])
        y = tf.placeholder(tf.int32, [None])
        forest = tensor_forest.RandomForestGraphs(hparams, training=training)
        train = forest.training_graph(x, y) if training else None
        probs, _, _ = forest.inference_graph(x)
        sizes = [t.size() for t in forest.trees]
        init = resources.initialize_resources(resources.shared_resources())
        saver = tf.train.Saver()
    return dict(graph=g, x=x, y=y, train=train, probs=probs, sizes=sizes, init=init, saver=saver)


def test_saver_checkpoints_trees_and_stats(tmp_path):
    rng = np.random.RandomState(0)
    batches = [_xor(rng, 100) for _ in range(12)]
    test_x, _ = _xor(np.random.RandomState(9), 300)
    a = _forest_graph()
    # The default Saver saves one string entry per resource, named as in TF 1.15 (the handle tensor's name).
    names = sorted(s.name for s in a["graph"].get_collection(tf.GraphKeys.SAVEABLE_OBJECTS))
    assert names == ["stats-0:0", "stats-1:0", "stats-2:0", "tree-0:0", "tree-1:0", "tree-2:0"]
    sess_a = tf.Session(graph=a["graph"])
    sess_a.run(a["init"])
    for bx, by in batches[:6]:
        sess_a.run(a["train"], {a["x"]: bx, a["y"]: by})
    path = a["saver"].save(sess_a, str(tmp_path / "forest"))
    assert tf.train.list_variables(path) == [(n, []) for n in names]
    probs_6, sizes_6 = sess_a.run([a["probs"], a["sizes"]], {a["x"]: test_x})
    assert min(sizes_6) > 3
    # A new graph built the same way, restored in a new Session without running its init: the same forest.
    b = _forest_graph()
    sess_b = tf.Session(graph=b["graph"])
    b["saver"].restore(sess_b, path)
    probs_b, sizes_b = sess_b.run([b["probs"], b["sizes"]], {b["x"]: test_x})
    np.testing.assert_array_equal(probs_b, probs_6)
    assert sizes_b == sizes_6
    # The statistics (candidate splits, their counts, the random state) came back too: training goes on identically.
    for bx, by in batches[6:]:
        sess_a.run(a["train"], {a["x"]: bx, a["y"]: by})
        sess_b.run(b["train"], {b["x"]: bx, b["y"]: by})
    probs_a, sizes_a = sess_a.run([a["probs"], a["sizes"]], {a["x"]: test_x})
    probs_b, sizes_b = sess_b.run([b["probs"], b["sizes"]], {b["x"]: test_x})
    assert sizes_a != sizes_6 and sizes_b == sizes_a
    np.testing.assert_array_equal(probs_b, probs_a)
    # Restoring replaces a trained forest's state; TF's order (init, then restore) gives the checkpointed forest.
    b["saver"].restore(sess_b, path)
    np.testing.assert_array_equal(sess_b.run(b["probs"], {b["x"]: test_x}), probs_6)
    with tf.Session(graph=b["graph"]) as sess:
        sess.run(b["init"])
        b["saver"].restore(sess, path)
        np.testing.assert_array_equal(sess.run(b["probs"], {b["x"]: test_x}), probs_6)
        assert sess.run(b["sizes"]) == sizes_6
    # An inference graph (training=False: trees only) restores the trees; the stats entries are not asked for.
    c = _forest_graph(training=False)
    assert sorted(s.name for s in c["graph"].get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)) == names[3:]
    with tf.Session(graph=c["graph"]) as sess:
        c["saver"].restore(sess, path)
        np.testing.assert_array_equal(sess.run(c["probs"], {c["x"]: test_x}), probs_6)
        assert sess.run(c["sizes"]) == sizes_6
    sess_a.close()
    sess_b.close()


def test_saving_an_uninitialized_forest_fails(tmp_path):
    a = _forest_graph(num_trees=1)
    with tf.Session(graph=a["graph"]) as sess:
        with pytest.raises(errors.FailedPreconditionError, match="has not been initialized"):
            a["saver"].save(sess, str(tmp_path / "forest"))


def test_restoring_a_corrupt_or_foreign_entry_fails_clearly(tmp_path):
    # A checkpoint whose "tree-0:0" / "stats-0:0" entries are some other string.
    with tf.Graph().as_default() as g:
        entries = {"tree-0:0": tf.Variable(b"\x80not json", name="t"),
                   "stats-0:0": tf.Variable(b'{"format": "something else"}', name="s")}
        saver = tf.train.Saver(entries)
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            path = saver.save(sess, str(tmp_path / "foreign"))
    a = _forest_graph(num_trees=1)
    tree_saver = tf.train.Saver([s for s in a["graph"].get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)
                                 if s.name == "tree-0:0"])
    stats_saver = tf.train.Saver([s for s in a["graph"].get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)
                                  if s.name == "stats-0:0"])
    with tf.Session(graph=a["graph"]) as sess:
        with pytest.raises(errors.InvalidArgumentError, match="Could not parse the serialized decision tree"):
            tree_saver.restore(sess, path)
        with pytest.raises(errors.InvalidArgumentError, match="fertile stats is not in the "
                                                                "'tensorweave.tensor_forest.stats' format"):
            stats_saver.restore(sess, path)
    # The deserialize ops check the content too: another forest's shape, a cyclic tree, a foreign random state.
    with tf.Graph().as_default():
        config = tf.placeholder(tf.string, [])
        forest = tensor_forest.RandomForestGraphs(tensor_forest.ForestHParams(**_CKPT_KW).fill())
        saveables = {s.name: s for s in tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)}
        tree_restore = saveables["tree-0:0"].restore([config])
        stats_restore = saveables["stats-0:0"].restore([config])
        assert tree_restore.type == "TreeDeserialize" and stats_restore.type == "FertileStatsDeserialize"
        size = forest.trees[0].size()

        def tree(**kw):
            doc = dict(format="tensorweave.tensor_forest.tree", version=1, num_classes=2, feature=[0, -1, -1],
                       threshold=[0.5, 0, 0], left=[1, -1, -1], right=[2, -1, -1], counts=[None, [1, 2], [3, 4]])
            doc.update(kw)
            return json.dumps(doc)

        with tf.Session() as sess:
            sess.run(tree_restore, {config: tree()})
            assert sess.run(size) == 3
            for doc, message in [
                    (tree(num_classes=3), "it has 3 classes, the graph's tree 2"),
                    (tree(left=[0, -1, -1]), "split node 0 has bad children"),
                    (tree(counts=[None, [1, 2], [3]]), r"expected numbers of shape \(2,\)"),
                    (tree(version=2), "Unsupported serialized decision tree version 2"),
                    ("[1, 2]", "not in the 'tensorweave.tensor_forest.tree' format")]:
                with pytest.raises(errors.InvalidArgumentError, match=message):
                    sess.run(tree_restore, {config: doc})
            assert sess.run(size) == 3  # a failed restore leaves the tree as it was
            stats = dict(format="tensorweave.tensor_forest.stats", version=1, num_classes=2,
                         num_splits_to_consider=10, slots=[], rng={"bit_generator": "MT19937", "state": {}})
            with pytest.raises(errors.InvalidArgumentError, match="Corrupt serialized fertile stats: the random "
                                                                  "state is not a PCG64 state"):
                sess.run(stats_restore, {config: json.dumps(stats)})
            stats["num_splits_to_consider"] = 3
            with pytest.raises(errors.InvalidArgumentError, match="made with num_classes=2, num_splits_to_consider=3"):
                sess.run(stats_restore, {config: json.dumps(stats)})


def test_monitored_training_session_initializes_checkpoints_and_restores_the_forest(tmp_path):
    # TF's default Scaffold creates the shared resources in init_op and reports uninitialized ones in
    # ready_op, so a forest trains under MonitoredTrainingSession and resumes from its checkpoint.
    hparams = tensor_forest.ForestHParams(num_classes=2, num_features=2, num_trees=3, max_nodes=100,
                                          split_after_samples=20, base_random_seed=5).fill()
    tx, ty = _xor(np.random.RandomState(999), 500)

    def build():
        x = tf.placeholder(tf.float32, [None, 2])
        y = tf.placeholder(tf.int32, [None])
        forest = tensor_forest.RandomForestGraphs(hparams)
        step = tf.train.get_or_create_global_step()
        train = tf.group(forest.training_graph(x, y), tf.assign_add(step, 1))
        probs, _, _ = forest.inference_graph(x)
        return x, y, train, probs, [t.size() for t in forest.trees]

    rng = np.random.RandomState(0)
    with tf.Graph().as_default():
        x, y, train, probs, sizes = build()
        with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), save_checkpoint_steps=1000,
                                               save_summaries_steps=None) as sess:
            assert sess.run(sizes) == [1, 1, 1]
            for _ in range(25):
                bx, by = _xor(rng, 100)
                sess.run(train, {x: bx, y: by})
            trained_sizes = sess.run(sizes)
            trained = sess.run(probs, {x: tx})
    assert min(trained_sizes) > 3 and np.mean(trained.argmax(1) == ty) > 0.9
    with tf.Graph().as_default():
        x, y, train, probs, sizes = build()
        with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), save_checkpoint_steps=1000,
                                               save_summaries_steps=None) as sess:
            assert sess.run(sizes) == trained_sizes
            np.testing.assert_array_equal(sess.run(probs, {x: tx}), trained)


def test_scaffold_ready_op_reports_an_uninitialized_forest():
    with tf.Graph().as_default():
        hparams = tensor_forest.ForestHParams(num_classes=2, num_features=2, num_trees=1, max_nodes=10).fill()
        tensor_forest.RandomForestGraphs(hparams).inference_graph(tf.placeholder(tf.float32, [None, 2]))
        var_init = tf.global_variables_initializer()
        scaffold = tf.train.Scaffold().finalize()
        with tf.Session() as sess:
            sess.run(var_init)
            assert sorted(n.decode() for n in sess.run(scaffold.ready_op)) == ["stats-0:0", "tree-0:0"]
            sess.run(scaffold.init_op)
            assert sess.run(scaffold.ready_op).tolist() == []
