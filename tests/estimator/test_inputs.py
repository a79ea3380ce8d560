"""tf.estimator.inputs.numpy_input_fn (issue 15, item 12): batches, epochs, shuffling, dict and array
inputs, TF's validation errors, and training an Estimator with it."""

import numpy as np
import pytest

import tensorweave as tf

numpy_input_fn = tf.estimator.inputs.numpy_input_fn


def _read_all(tensors):
    out = []
    with tf.Session() as sess:
        while True:
            try:
                out.append(sess.run(tensors))
            except tf.errors.OutOfRangeError:
                return out


def test_dict_features_and_array_target_in_order():
    x = {"age": np.arange(5) * 1.0, "height": np.arange(32, 37)}
    y = np.arange(-32, -27)
    features, target = numpy_input_fn(x, y, batch_size=2, shuffle=False, num_epochs=1)()
    assert sorted(features) == ["age", "height"]
    assert features["age"].dtype == tf.float64 and features["height"].dtype == tf.int64
    assert features["age"].shape.as_list() == [None] and target.shape.as_list() == [None]
    batches = _read_all((features, target))
    assert [b[1].tolist() for b in batches] == [[-32, -31], [-30, -29], [-28]]
    assert [b[0]["height"].tolist() for b in batches] == [[32, 33], [34, 35], [36]]


def test_array_features_dict_targets_and_epochs():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    y = {"label": np.array([0, 1, 0]), "weight": np.array([1.0, 2.0, 3.0])}
    features, target = numpy_input_fn(x, y, batch_size=2, shuffle=False, num_epochs=2)()
    assert features.shape.as_list() == [None, 2] and sorted(target) == ["label", "weight"]
    batches = _read_all((features, target))
    assert [b[1]["label"].tolist() for b in batches] == [[0, 1], [0, 0], [1, 0]]
    np.testing.assert_array_equal(np.concatenate([b[0] for b in batches]), np.concatenate([x, x]))


def test_no_target_and_forever_batches_are_full():
    x = np.arange(5, dtype=np.float32)
    features = numpy_input_fn(x, batch_size=2, shuffle=False, num_epochs=None)()
    assert features.shape.as_list() == [2]     # static batch size, as TF's dequeue_many
    with tf.Session() as sess:
        got = [sess.run(features).tolist() for _ in range(4)]
    assert got == [[0, 1], [2, 3], [4, 0], [1, 2]]


def test_shuffle_keeps_rows_together_and_covers_every_row():
    x = {"a": np.arange(20), "b": np.arange(20) * 10}
    features, target = numpy_input_fn(x, np.arange(20) * 100, batch_size=6, shuffle=True, num_epochs=1)()
    batches = _read_all((features, target))
    a = np.concatenate([b[0]["a"] for b in batches])
    assert sorted(a.tolist()) == list(range(20)) and a.tolist() != list(range(20))
    for f, t in batches:
        np.testing.assert_array_equal(f["b"], f["a"] * 10)
        np.testing.assert_array_equal(t, f["a"] * 100)


@pytest.mark.parametrize("shuffle", [None, 1, "yes"])
def test_shuffle_must_be_a_bool(shuffle):
    with pytest.raises(ValueError, match="shuffle must be provided and explicitly set as boolean "
                                         r"\(it is recommended to set it as True for training\); got %s" % shuffle):
        numpy_input_fn(np.ones(3), shuffle=shuffle)


@pytest.mark.parametrize("x, y, exc, message", [
    ({}, None, ValueError, "x cannot be an empty dict"),
    (np.ones(0), None, ValueError, "x cannot be an empty array"),
    ([1, 2], None, TypeError, "x must be a dict or array; got list"),
    ({"a": np.ones(3)}, {}, ValueError, "y cannot be empty dict, use None instead."),
    ({"a": np.ones(3)}, {"a": np.ones(3)}, ValueError, r"1 duplicate keys are found in both x and y: \{'a'\}"),
    ({"a": np.ones(3)}, np.ones(4), ValueError, "Length of tensors in x and y is mismatched. All elements in x and y "
                                                "must have the same length.\nShapes in x: {'a': \\(3,\\)}\nShapes in "
                                                "y: \\(4,\\)"),
])
def test_input_errors(x, y, exc, message):
    input_fn = numpy_input_fn(x, y, shuffle=False)
    with pytest.raises(exc, match=message):
        input_fn()


def test_estimator_trains_and_predicts_with_numpy_input_fn(tmp_path):
    rng = np.random.RandomState(0)
    xs = rng.rand(64, 1).astype(np.float32)
    ys = (3.0 * xs + 1.0).astype(np.float32)

    def model_fn(features, labels, mode):
        pred = tf.layers.dense(features["x"], 1)
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions={"y": pred})
        loss = tf.losses.mean_squared_error(labels, pred)
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)

    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(numpy_input_fn({"x": xs}, ys, batch_size=16, shuffle=True, num_epochs=None), steps=300)
    preds = list(est.predict(numpy_input_fn({"x": np.array([[0.0], [1.0]], np.float32)}, shuffle=False)))
    np.testing.assert_allclose([p["y"][0] for p in preds], [1.0, 4.0], atol=0.05)
    loss = est.evaluate(numpy_input_fn({"x": xs}, ys, batch_size=16, shuffle=False))["loss"]
    assert loss < 1e-3
