"""tf.contrib.tensor_forest.client.random_forest.TensorForestEstimator on tf.estimator.

TF 1.15's contrib is not in the reference TensorFlow: the estimator's outputs are checked against
the forest itself (its checkpoint restored into `RandomForestGraphs`) and TF 1.15's model function
written out by hand (the binary logit, the multi-class head's softmax, the regression head's loss).
"""

import json
import logging

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib.tensor_forest.client import eval_metrics, random_forest
from tensorweave.contrib.tensor_forest.python import tensor_forest


def _xor(rng, n):
    x = rng.uniform(-1, 1, size=(n, 2)).astype(np.float32)
    return x, ((x[:, 0] > 0) != (x[:, 1] > 0)).astype(np.int32)


def _blobs(rng, n, k=3):
    centers = np.array([[0.0, 4.0], [4.0, 0.0], [-4.0, -4.0]])[:k]
    y = rng.randint(k, size=n)
    return (centers[y] + rng.randn(n, 2)).astype(np.float32), y.astype(np.int32)


def _train_fn(x, y, batch=50):
    # The arrays are in random order already; no shuffle queue, so the batches (and the forest) repeat.
    return tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=batch, num_epochs=None, shuffle=False)


def _eval_fn(x, y=None):
    return tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=len(x), shuffle=False)


def _tree(est, i):
    """Tree `i` of the estimator's latest checkpoint (tensorweave's JSON serialization)."""
    return json.loads(tf.train.load_checkpoint(est.model_dir).get_tensor("tree-%d:0" % i))


def _forest_outputs(hparams, checkpoint, x):
    """The forest's own inference on `x`, restored from the estimator's checkpoint."""
    with tf.Graph().as_default():
        forest = tensor_forest.RandomForestGraphs(hparams, training=False)
        probs, _, variance = forest.inference_graph(tf.constant(x))
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, checkpoint)
            return sess.run([probs, variance if variance is not None else tf.no_op()])


def test_module_paths():
    assert tf.contrib.tensor_forest.client.random_forest is random_forest
    assert random_forest.TensorForestEstimator.__mro__[1] is tf.estimator.Estimator
    assert (eval_metrics.INFERENCE_PROB_NAME, eval_metrics.INFERENCE_PRED_NAME) == ("probabilities", "classes")
    assert (random_forest.VARIANCE_PREDICTION_KEY, random_forest.TREE_PATHS_PREDICTION_KEY) == (
        "prediction_variance", "tree_paths")


def test_binary_classifier_trains_stops_early_evaluates_and_predicts(tmp_path):
    rng = np.random.RandomState(0)
    x, y = _xor(rng, 400)
    params = tensor_forest.ForestHParams(num_classes=2, num_features=2, num_trees=3, max_nodes=30,
                                         split_after_samples=20, base_random_seed=1)
    est = random_forest.TensorForestEstimator(params, model_dir=str(tmp_path), early_stopping_rounds=5)
    est.train(_train_fn(x, y), steps=500)
    # The trees fill up (max_nodes=30), the loss stops improving and TensorForestLossHook stops training.
    step = est.get_variable_value("global_step")
    assert 10 < step < 500
    sizes = [len(_tree(est, i)["feature"]) for i in range(3)]
    assert max(sizes) >= 29
    tx, ty = _xor(np.random.RandomState(9), 300)
    metrics = est.evaluate(_eval_fn(tx, ty))
    assert metrics["accuracy"] > 0.9 and metrics["global_step"] == step
    preds = list(est.predict(_eval_fn(tx)))
    assert set(preds[0]) == {"logits", "logistic", "probabilities", "class_ids", "classes"}
    probs = np.stack([p["probabilities"] for p in preds])
    logits = np.stack([p["logits"] for p in preds])[:, 0]
    forest_probs, _ = _forest_outputs(params, est.latest_checkpoint(), tx)
    # TF 1.15's logit of the class-1 probability, clipped at EPSILON = 1e-6 both ways.
    p1 = forest_probs[:, 1].astype(np.float64)
    np.testing.assert_allclose(logits, np.log(np.maximum(p1 / np.maximum(1 - p1, 1e-6), 1e-6)), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(probs[:, 1], np.clip(p1, 1e-6 / (1 + 1e-6), 1 / (1 + 1e-6)), atol=1e-5)
    assert [p["class_ids"][0] for p in preds] == list((p1 > 0.5).astype(int))
    assert np.mean(probs.argmax(1) == ty) == pytest.approx(metrics["accuracy"])


def test_multi_class_probabilities_are_the_heads_softmax_of_the_forests(tmp_path):
    rng = np.random.RandomState(1)
    x, y = _blobs(rng, 300)
    params = tensor_forest.ForestHParams(num_classes=3, num_features=2, num_trees=2, max_nodes=20,
                                         split_after_samples=15, base_random_seed=2)
    est = random_forest.TensorForestEstimator(params, model_dir=str(tmp_path), early_stopping_rounds=None)
    est.train(_train_fn(x, y), steps=12)
    assert est.get_variable_value("global_step") == 12  # no early stopping hook
    tx, ty = _blobs(np.random.RandomState(5), 100)
    preds = list(est.predict(_eval_fn(tx)))
    forest_probs, _ = _forest_outputs(params, est.latest_checkpoint(), tx)
    # TF feeds the averaged probabilities to the multi-class head as logits.
    e = np.exp(forest_probs - forest_probs.max(1, keepdims=True))
    np.testing.assert_allclose(np.stack([p["probabilities"] for p in preds]), e / e.sum(1, keepdims=True),
                               rtol=1e-5)
    np.testing.assert_array_equal(np.stack([p["logits"] for p in preds]), forest_probs)
    assert np.mean([p["class_ids"] == t for p, t in zip(preds, ty)]) > 0.95


def test_regression_predictions_variance_and_loss(tmp_path):
    rng = np.random.RandomState(2)
    x = rng.uniform(-1, 1, (300, 2)).astype(np.float32)
    y = np.stack([np.where(x[:, 0] > 0, 2.0, -1.0), x[:, 1]], 1).astype(np.float32)
    params = tensor_forest.ForestHParams(num_classes=2, regression=True, num_features=2, num_trees=3, max_nodes=40,
                                         split_after_samples=15, bagging_fraction=0.7, base_random_seed=3,
                                         inference_tree_paths=True)
    est = random_forest.TensorForestEstimator(params, model_dir=str(tmp_path), keys_name="id")
    est.train(_train_fn(x, y), steps=20)
    tx = rng.uniform(-1, 1, (50, 2)).astype(np.float32)
    ty = np.stack([np.where(tx[:, 0] > 0, 2.0, -1.0), tx[:, 1]], 1).astype(np.float32)
    ids = np.arange(50, dtype=np.int64)
    preds = list(est.predict(tf.estimator.inputs.numpy_input_fn({"x": tx, "id": ids}, batch_size=50,
                                                                shuffle=False)))
    assert set(preds[0]) == {"predictions", "prediction_variance", "tree_paths", "id"}
    assert [p["id"] for p in preds] == list(ids) and preds[0]["tree_paths"].shape == (3,)
    mean, variance = _forest_outputs(params, est.latest_checkpoint(), tx)
    predictions = np.stack([p["predictions"] for p in preds])
    np.testing.assert_array_equal(predictions, mean)
    np.testing.assert_array_equal(np.stack([p["prediction_variance"] for p in preds]), variance)
    metrics = est.evaluate(_eval_fn(tx, ty))
    # The regression head's loss: squared errors summed over outputs and averaged over examples.
    sq = (predictions.astype(np.float64) - ty) ** 2
    np.testing.assert_allclose(metrics["loss"], sq.mean(), rtol=1e-5)
    np.testing.assert_allclose(metrics["prediction/mean"], predictions.mean(), rtol=1e-5)
    assert metrics["loss"] < 0.3  # the targets' variance is about 2.6


def test_weights_feature_engineering_trainers_and_feature_importances(tmp_path, caplog):
    rng = np.random.RandomState(3)
    x, y = _xor(rng, 200)
    params = tensor_forest.ForestHParams(num_classes=2, num_features=3, num_trees=2, max_nodes=30,
                                         split_after_samples=10, base_random_seed=4)
    seen = []

    def engineer(features, labels):
        seen.append(sorted(features))
        # A third column, the product: XOR becomes one split on it.
        return dict(features, z=features["a"] * features["b"]), labels

    est = random_forest.TensorForestEstimator(params, model_dir=str(tmp_path), weights_name="w",
                                              feature_engineering_fn=engineer, num_trainers=2, trainer_id=1,
                                              report_feature_importances=True, early_stopping_rounds=None)
    data = {"a": x[:, 0], "b": x[:, 1], "w": np.ones(200, np.float32)}
    with caplog.at_level(logging.INFO):
        est.train(tf.estimator.inputs.numpy_input_fn(data, y, batch_size=50, num_epochs=None, shuffle=False),
                  steps=8)
    assert seen[0] == ["a", "b", "w"]
    assert any("1: feature_importances" in r.getMessage() for r in caplog.records)
    # Trainer 1 of 2 trains tree 1 only.
    sizes = [len(_tree(est, i)["feature"]) for i in range(2)]
    assert sizes[0] == 1 and sizes[1] > 3
    tree = _tree(est, 1)
    assert tree["feature"][0] == 2  # the root splits on the product column ("z", sorted after "a", "b")
    metrics = est.evaluate(tf.estimator.inputs.numpy_input_fn(data, y, batch_size=200, shuffle=False), steps=1)
    # Untrained tree 0 predicts zeros everywhere, so the forest's class-1 probability is half of tree 1's,
    # never above 0.5: every example is predicted class 0.
    assert metrics["accuracy"] == pytest.approx(np.mean(y == 0))


class _Context:
    def __init__(self):
        self.stopped = False

    def request_stop(self):
        self.stopped = True


class _Values:
    def __init__(self, loss, step):
        self.results = {"current_loss": loss, "global_step": step}


def test_loss_hook_stops_after_early_stopping_rounds_without_improvement():
    hook = random_forest.TensorForestLossHook(2, early_stopping_loss_threshold=0.1)
    ctx = _Context()
    # Step 1 only records the step; 10 becomes the best; 9.5 is not 10% better, nor is 9.2; 8.9 is.
    stops = []
    for step, loss in enumerate([5.0, 10.0, 9.5, 9.2, 8.9, 8.9, 8.9, 8.9], start=1):
        hook.after_run(ctx, _Values(loss, step))
        stops.append(ctx.stopped)
    assert stops == [False, False, False, False, False, False, False, True]
    assert hook.min_loss == 8.9
    # A global step going backwards (a restart) starts afresh.
    hook.after_run(ctx, _Values(1.0, 3))
    assert (hook.min_loss, hook.steps, hook.last_step) == (None, 0, 3)


def test_error_paths(tmp_path):
    params = tensor_forest.ForestHParams(num_classes=3, num_features=2, num_trees=1, max_nodes=10)
    est = random_forest.TensorForestEstimator(params, model_dir=str(tmp_path))

    def input_fn(features):
        return lambda: (features, tf.constant([0, 1]))

    with pytest.raises(NotImplementedError, match="feature 'x' is a SparseTensor"):
        est.train(input_fn({"x": tf.SparseTensor([[0, 0]], [1.0], [2, 2])}), steps=1)
    with pytest.raises(TypeError, match="feature 'x' is a string Tensor"):
        est.train(input_fn({"x": tf.constant([["a", "b"], ["c", "d"]])}), steps=1)
    with pytest.raises(ValueError, match=r"feature 'x' must be a vector or a matrix, got shape \(2, 1, 1\)"):
        est.train(input_fn({"x": tf.zeros([2, 1, 1])}), steps=1)
    with pytest.raises(ValueError, match="input_data has 3 features but the forest was built with num_features=2"):
        est.train(input_fn(tf.zeros([2, 3])), steps=1)
    with pytest.raises(AttributeError):
        random_forest.TensorForestEstimator(tensor_forest.ForestHParams(num_classes=2), model_dir=str(tmp_path))
