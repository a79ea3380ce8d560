"""Canned estimators in whole programs (issue 19, item 5): a DNNClassifier on the digits reaching
the hand-written Estimator demo's accuracy, `tf.estimator.train_and_evaluate` with
`TrainSpec`/`EvalSpec` and exporters, a premade-estimator workflow, and `pandas_input_fn` (the `pandas`
extra)."""

import os
import sys

import numpy as np
import pytest

import tensorweave as tf

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "examples")


@pytest.fixture(scope="module", autouse=True)
def _intra_op_pool():
    """Starts the process's intra-op thread pool (TF's, made on the first large convolution and kept for the
    process) before the tests, so that the thread check of tests/conftest.py does not count it as theirs."""
    from tensorweave.kernels.shard import shard
    shard(64, 10 ** 9, lambda start, limit: None)
    yield


def _digits_module():
    pytest.importorskip("sklearn", reason="the digits data needs scikit-learn")
    sys.path.insert(0, EXAMPLES)
    try:
        import digits_cnn
    finally:
        sys.path.remove(EXAMPLES)
    return digits_cnn


def test_dnn_classifier_on_digits_reaches_the_demo_accuracy(tmp_path):
    digits_cnn = _digits_module()
    # the hand-written CNN Estimator demo, as tests/test_examples.py runs it
    demo = digits_cnn.run(str(tmp_path / "demo"), steps=120, log=lambda *a: None)
    (x_train, y_train), (x_test, y_test) = digits_cnn.load_digits()
    columns = [tf.feature_column.numeric_column("image", shape=[8, 8, 1])]
    config = tf.estimator.RunConfig(model_dir=str(tmp_path / "dnn"), tf_random_seed=42, log_step_count_steps=None)
    est = tf.estimator.DNNClassifier([256], columns, n_classes=10, optimizer=lambda: tf.train.AdamOptimizer(0.005),
                                     config=config)
    est.train(digits_cnn.make_input_fn(x_train, y_train), max_steps=600)
    metrics = est.evaluate(digits_cnn.make_input_fn(x_test, y_test, batch_size=len(y_test), epochs=1,
                                                    shuffle=False))
    assert metrics["global_step"] == 600
    assert metrics["accuracy"] >= demo["accuracy"] > 0.95
    preds = list(est.predict(digits_cnn.make_input_fn(x_test[:20], y_test[:20], epochs=1, shuffle=False)))
    assert np.mean([p["class_ids"][0] for p in preds] == y_test[:20]) >= 0.9
    np.testing.assert_allclose([p["probabilities"].sum() for p in preds], 1, rtol=1e-5)


def _xor_input(num_epochs=None, n=64, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.uniform(-1, 1, size=(n, 2)).astype(np.float32)
    y = ((x[:, 0] > 0) ^ (x[:, 1] > 0)).astype(np.int64)
    return tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=16, num_epochs=num_epochs, shuffle=False)


def _columns():
    return [tf.feature_column.numeric_column("x", shape=[2])]


def test_train_and_evaluate_evaluates_after_checkpoints_and_exports(tmp_path):
    config = tf.estimator.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=10, tf_random_seed=1,
                                    log_step_count_steps=None)
    est = tf.estimator.DNNClassifier([8], _columns(), config=config)
    spec = tf.feature_column.make_parse_example_spec(_columns())
    serving = tf.estimator.export.build_parsing_serving_input_receiver_fn(spec)
    latest = tf.estimator.LatestExporter("latest", serving, exports_to_keep=2)
    final = tf.estimator.FinalExporter("final", serving)
    evaluated = []

    class CountEvals(tf.train.SessionRunHook):
        def end(self, session):
            evaluated.append(1)

    train_spec = tf.estimator.TrainSpec(_xor_input(), max_steps=30)
    eval_spec = tf.estimator.EvalSpec(_xor_input(num_epochs=1), steps=None, exporters=[latest, final],
                                      throttle_secs=1e-9, hooks=[CountEvals()])
    metrics, exports = tf.estimator.train_and_evaluate(est, train_spec, eval_spec)
    # checkpoints at steps 0 (skipped: not trained yet), 10, 20, 30; the last evaluation at step 30
    assert len(evaluated) == 3
    assert metrics["global_step"] == 30 and "auc" in metrics and "accuracy" in metrics
    assert len(exports) == 2 and exports[1] is not None
    assert len(os.listdir(tmp_path / "export" / "latest")) == 2   # garbage-collected to exports_to_keep
    assert len(os.listdir(tmp_path / "export" / "final")) == 1   # only the final export
    assert os.path.isdir(tmp_path / "eval")


def test_train_and_evaluate_throttles_and_evaluates_at_the_end(tmp_path):
    config = tf.estimator.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=5, log_step_count_steps=None)
    est = tf.estimator.LinearClassifier(_columns(), config=config)
    evaluated = []

    class CountEvals(tf.train.SessionRunHook):
        def end(self, session):
            evaluated.append(1)

    metrics, exports = tf.estimator.train_and_evaluate(
        est, tf.estimator.TrainSpec(_xor_input(), max_steps=20),
        tf.estimator.EvalSpec(_xor_input(num_epochs=1), hooks=[CountEvals()], throttle_secs=3600))
    assert len(evaluated) == 2 and metrics["global_step"] == 20 and exports == []


def test_train_and_evaluate_errors():
    est = tf.estimator.LinearClassifier(_columns())
    train_spec = tf.estimator.TrainSpec(_xor_input(), max_steps=1)
    eval_spec = tf.estimator.EvalSpec(_xor_input(num_epochs=1))
    with pytest.raises(TypeError, match="`estimator` must have type `tf.estimator.Estimator`"):
        tf.estimator.train_and_evaluate(object(), train_spec, eval_spec)
    with pytest.raises(TypeError, match="`train_spec` must have type `tf.estimator.TrainSpec`"):
        tf.estimator.train_and_evaluate(est, eval_spec, eval_spec)
    with pytest.raises(TypeError, match="`eval_spec` must have type `tf.estimator.EvalSpec`"):
        tf.estimator.train_and_evaluate(est, train_spec, train_spec)
    with pytest.raises(ValueError, match="eval_spec.throttle_secs should be positive"):
        tf.estimator.train_and_evaluate(est, train_spec, tf.estimator.EvalSpec(_xor_input(), throttle_secs=0))
    with pytest.raises(ValueError, match="Must specify max_steps > 0, given: 0"):
        tf.estimator.TrainSpec(_xor_input(), max_steps=0)
    with pytest.raises(TypeError, match="`input_fn` must be callable"):
        tf.estimator.TrainSpec(3)
    with pytest.raises(ValueError, match="Must specify steps > 0, given: 0"):
        tf.estimator.EvalSpec(_xor_input(), steps=0)
    with pytest.raises(TypeError, match="`exporters` must be an Exporter"):
        tf.estimator.EvalSpec(_xor_input(), exporters=[3])
    fn = tf.estimator.export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 2])})
    with pytest.raises(ValueError, match="`exporters` must have unique names"):
        tf.estimator.EvalSpec(_xor_input(), exporters=[tf.estimator.FinalExporter("a", fn),
                                                       tf.estimator.LatestExporter("a", fn)])
    assert tf.estimator.EvalSpec(_xor_input()).steps == 100 and train_spec.hooks == ()


# ---- pandas_input_fn ----------------------------------------------------------------------------

def test_pandas_input_fn_names_the_pandas_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install 'tensorweave\[pandas\]'"):
        tf.estimator.inputs.pandas_input_fn(object(), shuffle=False)


@pytest.fixture
def pd():
    """pandas itself (the `pandas` extra, which `make test` installs)."""
    import pandas
    return pandas


def _read_all(tensors):
    out = []
    with tf.Session() as sess:
        while True:
            try:
                out.append(sess.run(tensors))
            except tf.errors.OutOfRangeError:
                return out


def test_pandas_input_fn_batches_a_frame_and_series(pd):
    x = pd.DataFrame({"a": np.arange(5, dtype=np.int64), "b": np.arange(32, 37, dtype=np.float64)},
                   index=[10, 11, 12, 13, 14])
    y = pd.Series(np.arange(-32, -27), index=[10, 11, 12, 13, 14])
    features, target = tf.estimator.inputs.pandas_input_fn(x, y, batch_size=2, shuffle=False, num_epochs=1)()
    assert sorted(features) == ["a", "b"] and features["b"].dtype == tf.float64
    batches = _read_all((features, target))
    assert [b[1].tolist() for b in batches] == [[-32, -31], [-30, -29], [-28]]
    assert [b[0]["a"].tolist() for b in batches] == [[0, 1], [2, 3], [4]]


def test_pandas_input_fn_target_frame_and_errors(pd):
    x = pd.DataFrame({"a": np.arange(4.0), "t": np.arange(4.0)})
    y = pd.DataFrame({"t": np.arange(10, 14), "u": np.arange(20, 24)})
    features, target = tf.estimator.inputs.pandas_input_fn(x, y, batch_size=4, shuffle=False)()
    assert sorted(target) == ["t", "u"] and sorted(features) == ["a", "t"]
    (f, t), = _read_all((features, target))
    assert t["t"].tolist() == [10, 11, 12, 13] and f["t"].tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="shuffle must be provided and explicitly set as boolean"):
        tf.estimator.inputs.pandas_input_fn(x, y)
    with pytest.raises(ValueError, match="Cannot use name t for target column"):
        tf.estimator.inputs.pandas_input_fn(x, pd.Series(np.arange(4), range(4)), shuffle=False, target_column="t")
    with pytest.raises(ValueError, match="Index for x and y are mismatched"):
        tf.estimator.inputs.pandas_input_fn(x, pd.Series(np.arange(4), [1, 2, 3, 4]), shuffle=False)
    with pytest.raises(TypeError, match="target_column must be a string type"):
        tf.estimator.inputs.pandas_input_fn(x, shuffle=False, target_column=3)


def test_pandas_input_fn_trains_a_canned_estimator(pd, tmp_path):
    rng = np.random.RandomState(0)
    x = pd.DataFrame({"f": rng.randn(64).astype(np.float32)})
    y = pd.Series((3 * x["f"].values + 1).astype(np.float32), range(64))
    est = tf.estimator.LinearRegressor([tf.feature_column.numeric_column("f")], model_dir=str(tmp_path),
                                       optimizer=lambda: tf.train.GradientDescentOptimizer(0.01))
    est.train(tf.estimator.inputs.pandas_input_fn(x, y, batch_size=16, shuffle=True, num_epochs=None), steps=200)
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/f/weights"), [[3.]], atol=0.05)
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/bias_weights"), [1.], atol=0.05)


def test_tensorflow_get_started_premade_estimator_program(tmp_path):
    """The workflow of TF 1.x's get-started premade-estimator program: a DNNClassifier on numeric columns fed by
    tf.data input functions, on scikit-learn's iris as dicts of arrays, then evaluate and predict."""
    datasets = pytest.importorskip("sklearn.datasets", reason="the iris data needs scikit-learn")
    iris = datasets.load_iris()
    keys = ["SepalLength", "SepalWidth", "PetalLength", "PetalWidth"]
    order = np.random.RandomState(0).permutation(150)
    data, target = iris.data[order].astype(np.float32), iris.target[order].astype(np.int64)
    train_x, train_y = {k: data[:120, i] for i, k in enumerate(keys)}, target[:120]
    test_x, test_y = {k: data[120:, i] for i, k in enumerate(keys)}, target[120:]

    def train_input_fn(features, labels, batch_size):
        dataset = tf.data.Dataset.from_tensor_slices((dict(features), labels))
        dataset = dataset.shuffle(1000).repeat().batch(batch_size)
        return dataset

    def eval_input_fn(features, labels, batch_size):
        features = dict(features)
        if labels is None:
            inputs = features
        else:
            inputs = (features, labels)
        dataset = tf.data.Dataset.from_tensor_slices(inputs)
        assert batch_size is not None, "batch_size must not be None"
        dataset = dataset.batch(batch_size)
        return dataset

    my_feature_columns = []
    for key in train_x.keys():
        my_feature_columns.append(tf.feature_column.numeric_column(key=key))
    classifier = tf.estimator.DNNClassifier(feature_columns=my_feature_columns, hidden_units=[10, 10], n_classes=3,
                                            model_dir=str(tmp_path))
    classifier.train(input_fn=lambda: train_input_fn(train_x, train_y, 100), steps=1000)
    eval_result = classifier.evaluate(input_fn=lambda: eval_input_fn(test_x, test_y, 100))
    assert eval_result["accuracy"] > 0.9 and eval_result["global_step"] == 1000
    expected = [0, 1, 2]
    predict_x = {"SepalLength": [5.1, 5.9, 6.9], "SepalWidth": [3.3, 3.0, 3.1], "PetalLength": [1.7, 4.2, 5.4],
                 "PetalWidth": [0.5, 1.5, 2.1]}
    predictions = classifier.predict(input_fn=lambda: eval_input_fn(predict_x, labels=None, batch_size=100))
    for pred_dict, expec in zip(predictions, expected):
        class_id = pred_dict["class_ids"][0]
        assert class_id == expec and pred_dict["probabilities"][class_id] > 0.5
