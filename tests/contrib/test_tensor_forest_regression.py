"""tf.contrib.tensor_forest regression (`ForestHParams(regression=True)`): TF 1.15's least-squares trees.

TF 1.15's contrib is not in the reference TensorFlow, so the expected values here are computed by
hand from TF 1.15's V4 kernels (LeastSquaresRegressionGrowStats, RegressionLeafModelOperator,
TreePredictionsV4, RandomForestGraphs.inference_graph), as each test's comments spell out.
"""

import json

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib.tensor_forest.python import tensor_forest
from tensorweave.framework import errors
from tensorweave.ops import resources


def _hparams(**kw):
    base = dict(num_classes=1, num_features=1, regression=True, num_trees=1, max_nodes=3, split_after_samples=4,
                num_splits_to_consider=2, base_random_seed=1)
    base.update(kw)
    return tensor_forest.ForestHParams(**base).fill()


def _forest(hparams, label_shape=(None,)):
    x = tf.placeholder(tf.float32, [None, hparams.num_features])
    y = tf.placeholder(tf.float32, list(label_shape))
    forest = tensor_forest.RandomForestGraphs(hparams)
    train = forest.training_graph(x, y)
    mean, paths, variance = forest.inference_graph(x)
    init = resources.initialize_resources(resources.shared_resources())
    return dict(x=x, y=y, forest=forest, train=train, mean=mean, paths=paths, variance=variance, init=init,
                sizes=[t.size() for t in forest.trees])


def test_fill_for_regression():
    h = _hparams(num_classes=3, num_features=20)
    # TF 1.15: num_outputs is num_classes for regression, the models are MODEL_REGRESSION (2) and
    # STATS_LEAST_SQUARES_REGRESSION (2), the finish is always basic.
    assert (h.regression, h.num_outputs, h.num_output_columns) == (True, 3, 4)
    assert (h.leaf_model_type, h.stats_model_type, h.finish_type) == (2, 2, 0)
    assert h.early_finish_check_every_samples == 0
    c = tensor_forest.ForestHParams(num_classes=3, num_features=20).fill()
    assert (c.regression, c.num_outputs, c.leaf_model_type, c.stats_model_type) == (False, 1, 0, 0)
    # Regression ignores the classification model and finish names, as TF's fill() does.
    tensor_forest.RandomForestGraphs(_hparams(split_finish_name="hoeffding", model_name="sparse"))


def test_one_split_by_hand():
    # One feature, num_splits_to_consider=2: the first two examples (x=1, x=2) create the candidates
    # "x <= 1" and "x <= 2"; each counts the examples from its creation on, the totals count all four.
    #   candidate x<=1: left {1}        var 0; right = total - left = {3, 10, 12}: var 253/3 - (25/3)^2
    #   candidate x<=2: left {3} (x=2)  var 0; right = total - left = {1, 10, 12}: var 245/3 - (23/3)^2
    # TF's score is the sum of the two sides' variances, so x <= 1 wins (14.89 < 22.89); the new leaves
    # hold the means 1 and 25/3. An untrained tree predicts 0 (TF's InitModel zeros).
    f = _forest(_hparams())
    with tf.Session() as sess:
        sess.run(f["init"])
        probe = {f["x"]: [[0.0], [1.0], [1.5], [5.0]]}
        np.testing.assert_array_equal(sess.run(f["mean"], probe), np.zeros((4, 1), np.float32))
        sess.run(f["train"], {f["x"]: [[1.0], [2.0], [3.0], [4.0]], f["y"]: [1.0, 3.0, 10.0, 12.0]})
        assert sess.run(f["sizes"]) == [3]
        np.testing.assert_allclose(sess.run(f["mean"], probe), [[1.0], [1.0], [25 / 3], [25 / 3]], rtol=1e-6)
        # One tree: no spread between trees.
        np.testing.assert_array_equal(sess.run(f["variance"], probe), np.zeros((4, 1), np.float32))
        # Leaf values only come from splits (TF's regression UpdateModel does nothing): more examples
        # reaching a leaf without splitting it leave its value alone.
        sess.run(f["train"], {f["x"]: [[5.0], [6.0]], f["y"]: [100.0, 100.0]})
        np.testing.assert_allclose(sess.run(f["mean"], probe), [[1.0], [1.0], [25 / 3], [25 / 3]], rtol=1e-6)


def test_split_needs_split_after_samples_examples_and_two_nonempty_sides():
    f = _forest(_hparams(split_after_samples=5))
    with tf.Session() as sess:
        sess.run(f["init"])
        sess.run(f["train"], {f["x"]: [[1.0], [2.0], [3.0], [4.0]], f["y"]: [1.0, 3.0, 10.0, 12.0]})
        assert sess.run(f["sizes"]) == [1]  # 4 < split_after_samples
        sess.run(f["train"], {f["x"]: [[5.0]], f["y"]: [20.0]})
        assert sess.run(f["sizes"]) == [3]
    # All examples equal and one candidate: it sends all of them left, does not qualify, and the leaf
    # starts afresh.
    with tf.Graph().as_default():
        f = _forest(_hparams(num_splits_to_consider=1))
        with tf.Session() as sess:
            sess.run(f["init"])
            sess.run(f["train"], {f["x"]: [[2.0]] * 4, f["y"]: [1.0, 2.0, 3.0, 4.0]})
            assert sess.run(f["sizes"]) == [1]
            np.testing.assert_array_equal(sess.run(f["mean"], {f["x"]: [[2.0]]}), [[0.0]])
            # The fresh statistics split on the next four examples at x <= 1 (the first one's value):
            # left {0}, right {5, 5, 6}.
            sess.run(f["train"], {f["x"]: [[1.0], [3.0], [3.0], [4.0]], f["y"]: [0.0, 5.0, 5.0, 6.0]})
            assert sess.run(f["sizes"]) == [3]
            np.testing.assert_allclose(sess.run(f["mean"], {f["x"]: [[0.0], [9.0]]}), [[0.0], [16 / 3]], rtol=1e-6)
    # With two candidates, the second (created by the second example) never saw the first example,
    # which TF's right side (totals minus left sums) still holds: left {2, 3, 4}, right {1} qualifies.
    with tf.Graph().as_default():
        f = _forest(_hparams())
        with tf.Session() as sess:
            sess.run(f["init"])
            sess.run(f["train"], {f["x"]: [[2.0]] * 4, f["y"]: [1.0, 2.0, 3.0, 4.0]})
            assert sess.run(f["sizes"]) == [3]
            np.testing.assert_allclose(sess.run(f["mean"], {f["x"]: [[2.0], [2.5]]}), [[3.0], [1.0]], rtol=1e-6)


def test_two_outputs_sum_their_variances():
    # Outputs (a, b); candidates x <= 1 and x <= 2 as in test_one_split_by_hand.
    #   x<=1: left {(0, 0)}; right {(0, 9), (10, 9), (10, 0)}: var_a 22.22 + var_b 18 = 40.22
    #   x<=2: left {(0, 9)}; right {(0, 0), (10, 9), (10, 0)}: var_a 22.22 + var_b 18 = 40.22
    # A tie keeps the first candidate (TF's strict `<`), so the leaves are (0, 0) and (20/3, 6).
    f = _forest(_hparams(num_classes=2), label_shape=(None, 2))
    with tf.Session() as sess:
        sess.run(f["init"])
        sess.run(f["train"], {f["x"]: [[1.0], [2.0], [3.0], [4.0]],
                              f["y"]: [[0.0, 0.0], [0.0, 9.0], [10.0, 9.0], [10.0, 0.0]]})
        np.testing.assert_allclose(sess.run(f["mean"], {f["x"]: [[0.0], [7.0]]}), [[0.0, 0.0], [20 / 3, 6.0]],
                                   rtol=1e-6)


def _restore_tree(sess, graph, tree_num, doc, config):
    saveable = {s.name: s for s in graph.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)}["tree-%d:0" % tree_num]
    sess.run(saveable.restore([config]), {config: json.dumps(doc)})


def test_forest_mean_and_variance_over_trees():
    # Three hand-made stumps restored into a forest; the forest returns the trees' mean prediction and
    # TF's variance max(0, mean(p**2) - mean(p)**2) over the trees, per output.
    h = _hparams(num_trees=3, num_classes=2, num_features=2)
    with tf.Graph().as_default() as g:
        f = _forest(h, label_shape=(None, 2))
        config = tf.placeholder(tf.string, [])
        stumps = [(0, 0.0, [1.0, -1.0], [3.0, 2.0]), (1, 0.5, [2.0, 0.0], [4.0, 4.0]),
                  (0, 1.0, [0.0, 1.0], [6.0, 0.0])]
        with tf.Session() as sess:
            sess.run(f["init"])
            for i, (feature, threshold, left, right) in enumerate(stumps):
                _restore_tree(sess, g, i, dict(format="tensorweave.tensor_forest.tree", version=1, num_classes=2,
                                               feature=[feature, -1, -1], threshold=[threshold, 0, 0],
                                               left=[1, -1, -1], right=[2, -1, -1], counts=[None, left, right]), config)
            x = np.array([[-1.0, 0.0], [0.5, 1.0], [2.0, 0.0]], np.float32)
            mean, variance = sess.run([f["mean"], f["variance"]], {f["x"]: x})
    per_tree = np.array([
        [[1.0, -1.0], [2.0, 0.0], [0.0, 1.0]],   # x = (-1, 0): left, left, left
        [[3.0, 2.0], [4.0, 4.0], [0.0, 1.0]],    # x = (0.5, 1): right, right, left
        [[3.0, 2.0], [2.0, 0.0], [6.0, 0.0]],    # x = (2, 0): right, left, right
    ])
    np.testing.assert_allclose(mean, per_tree.mean(axis=1), rtol=1e-6)
    np.testing.assert_allclose(variance, (per_tree ** 2).mean(axis=1) - per_tree.mean(axis=1) ** 2, rtol=1e-5,
                               atol=1e-6)
    assert mean.dtype == np.float32 and variance.shape == (3, 2)


def test_learns_a_step_function():
    rng = np.random.RandomState(0)
    h = _hparams(num_trees=5, num_features=2, max_nodes=100, split_after_samples=20, num_splits_to_consider=10,
                 bagging_fraction=0.8)
    with tf.Graph().as_default():
        f = _forest(h)
        with tf.Session() as sess:
            sess.run(f["init"])
            for _ in range(20):
                x = rng.uniform(-1, 1, (100, 2)).astype(np.float32)
                sess.run(f["train"], {f["x"]: x, f["y"]: np.where(x[:, 0] > 0.2, 3.0, -1.0)})
            x = rng.uniform(-1, 1, (500, 2)).astype(np.float32)
            mean, variance = sess.run([f["mean"], f["variance"]], {f["x"]: x})
            importances = sess.run(f["forest"].feature_importances())
    truth = np.where(x[:, 0] > 0.2, 3.0, -1.0)
    assert np.mean((mean[:, 0] - truth) ** 2) < 0.1  # the label variance is 3.84
    assert np.all(variance >= 0) and variance.max() > 0  # bagging makes the trees differ somewhere
    assert importances.shape == (2,) and abs(importances.sum() - 1) < 1e-6


def test_saver_checkpoints_regression_trees_and_stats(tmp_path):
    h = _hparams(num_trees=2, num_features=2, max_nodes=50, split_after_samples=10, num_splits_to_consider=4)
    rng = np.random.RandomState(0)
    batches = []
    for _ in range(8):
        x = rng.uniform(-1, 1, (15, 2)).astype(np.float32)
        batches.append((x, 2 * x[:, 0] + x[:, 1] ** 2))
    probe = rng.uniform(-1, 1, (50, 2)).astype(np.float32)

    def build():
        g = tf.Graph()
        with g.as_default():
            f = _forest(h)
            f["saver"] = tf.train.Saver()
        return g, f

    ga, a = build()
    sess_a = tf.Session(graph=ga)
    sess_a.run(a["init"])
    for bx, by in batches[:4]:
        sess_a.run(a["train"], {a["x"]: bx, a["y"]: by})
    path = a["saver"].save(sess_a, str(tmp_path / "forest"))
    assert [n for n, _ in tf.train.list_variables(path)] == ["stats-0:0", "stats-1:0", "tree-0:0", "tree-1:0"]
    gb, b = build()
    sess_b = tf.Session(graph=gb)
    b["saver"].restore(sess_b, path)
    np.testing.assert_array_equal(sess_b.run(b["mean"], {b["x"]: probe}), sess_a.run(a["mean"], {a["x"]: probe}))
    # The statistics (partial sums and the random state) came back too: training goes on identically.
    for bx, by in batches[4:]:
        sess_a.run(a["train"], {a["x"]: bx, a["y"]: by})
        sess_b.run(b["train"], {b["x"]: bx, b["y"]: by})
    assert sess_a.run(a["sizes"]) == sess_b.run(b["sizes"])
    assert min(sess_a.run(a["sizes"])) > 3
    np.testing.assert_array_equal(sess_b.run(b["mean"], {b["x"]: probe}), sess_a.run(a["mean"], {a["x"]: probe}))
    sess_a.close()
    sess_b.close()


def test_error_paths(tmp_path):
    forest = tensor_forest.RandomForestGraphs(_hparams(num_classes=2))
    x = tf.placeholder(tf.float32, [None, 1])
    with pytest.raises(ValueError, match=r"input_labels must be a matrix \[batch_size, 2\] of regression targets"):
        forest.training_graph(x, tf.placeholder(tf.float32, [None, 3]))
    with pytest.raises(ValueError, match=r"input_labels must be a matrix \[batch_size, 2\]"):
        forest.training_graph(x, tf.placeholder(tf.float32, [None]))
    with pytest.raises(TypeError, match="input_labels must be numeric regression targets, got string"):
        forest.training_graph(x, tf.placeholder(tf.string, [None, 2]))
    y = tf.placeholder(tf.float32, [None, None])
    train = forest.training_graph(x, y)
    with tf.Session() as sess:
        with pytest.raises(errors.FailedPreconditionError, match="has not been initialized"):
            sess.run(train, {x: [[1.0]], y: [[1.0, 2.0]]})
        sess.run(resources.initialize_resources(resources.shared_resources()))
        with pytest.raises(errors.InvalidArgumentError, match=r"input_labels must be a \[2, 2\] matrix of regression "
                                                              r"targets, got shape \(2, 3\)"):
            sess.run(train, {x: [[1.0], [2.0]], y: np.zeros((2, 3))})
    # Restoring another kind of statistics entry, or a corrupt one, fails and names the problem.
    with tf.Graph().as_default():
        config = tf.placeholder(tf.string, [])
        tensor_forest.RandomForestGraphs(_hparams())
        saveables = {s.name: s for s in tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)}
        restore = saveables["stats-0:0"].restore([config])
        assert restore.type == "RegressionFertileStatsDeserialize"
        stats = dict(format="tensorweave.tensor_forest.regression_stats", version=1, num_outputs=1,
                     num_splits_to_consider=2, slots=[], rng=None)
        with tf.Session() as sess:
            sess.run(restore, {config: json.dumps(stats)})
            classification = dict(stats, format="tensorweave.tensor_forest.stats", num_classes=1)
            for doc, message in [
                    (classification, "not in the 'tensorweave.tensor_forest.regression_stats' format"),
                    (dict(stats, num_outputs=3), "made with num_outputs=3, num_splits_to_consider=2"),
                    (dict(stats, slots=[{"leaf": 0, "features": [0, 0], "thresholds": [1.0]}]),
                     r"expected numbers of shape \(2,\)"),
                    (dict(stats, rng={"bit_generator": "MT19937"}), "the random state is not a PCG64 state")]:
                with pytest.raises(errors.InvalidArgumentError, match=message):
                    sess.run(restore, {config: json.dumps(doc)})
