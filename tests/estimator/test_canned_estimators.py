"""Canned estimators (issue 19, item 5): DNN, linear, wide-and-deep and baseline classifiers and
regressors evaluated and predicting from fixed checkpoints against TensorFlow's numbers
(tests/data/canned_goldens.json, made by tests/data/make_canned_goldens.py), one training step,
TF's variable names, metric keys, prediction keys, export signatures, optimizers, warm starting
and argument errors."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf

with open(os.path.join(os.path.dirname(__file__), os.pardir, "data", "canned_goldens.json")) as _f:
    G = json.load(_f)

X = np.array(G["inputs"]["x"], np.float32)
W = np.array(G["inputs"]["w"], np.float32)
Y_BIN = np.array(G["inputs"]["y_bin"], np.int64)
Y_MULTI = np.array(G["inputs"]["y_multi"], np.int64)
Y_REG = np.array(G["inputs"]["y_reg"], np.float32)
C = np.array([[v.encode()] for v in G["inputs"]["c"]], dtype=object)
BATCH = G["inputs"]["batch"]
X_COL = tf.feature_column.numeric_column("x", shape=[2])
C_COL = tf.feature_column.categorical_column_with_vocabulary_list("c", ["a", "b", "c"])

BINARY_KEYS = {"accuracy", "accuracy_baseline", "auc", "auc_precision_recall", "average_loss", "label/mean", "loss",
               "precision", "prediction/mean", "recall", "global_step"}


def _write_checkpoint(model_dir, params, global_step=100):
    with tf.Graph().as_default():
        for name, value in params.items():
            tf.Variable(np.array(value, np.float32), name=name)
        tf.Variable(np.int64(global_step), name="global_step", trainable=False)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, os.path.join(str(model_dir), "model.ckpt"), global_step=global_step)


def _input(y=None, batch_size=BATCH, num_epochs=1):
    return tf.estimator.inputs.numpy_input_fn({"x": X, "w": W, "c": C}, y, batch_size=batch_size,
                                              num_epochs=num_epochs, shuffle=False)


def _check_metrics(result, golden, keys):
    assert set(result) == set(keys)
    assert result["global_step"] == 100
    for key in keys - {"global_step"}:
        np.testing.assert_allclose(result[key], golden[key], rtol=2e-5, atol=1e-6, err_msg=key)


def _predictions(estimator):
    return list(estimator.predict(_input()))


def test_dnn_classifier_binary_evaluate_and_predict_match_tf(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["dnn_bin"])
    est = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path))
    golden = G["dnn_bin"]
    _check_metrics(est.evaluate(_input(Y_BIN)), golden["metrics"], BINARY_KEYS)
    preds = _predictions(est)
    assert sorted(preds[0]) == ["class_ids", "classes", "logistic", "logits", "probabilities"]
    for key in ("logits", "logistic", "probabilities", "class_ids"):
        np.testing.assert_allclose(np.stack([p[key] for p in preds]), golden["predictions"][key], rtol=1e-5,
                                   atol=1e-6, err_msg=key)
    assert [p["classes"].tolist() for p in preds] == [[str(c[0]).encode()] for c in golden["predictions"]["class_ids"]]
    assert preds[0]["class_ids"].dtype == np.int64 and preds[0]["logits"].shape == (1,)
    assert preds[0]["classes"].dtype == object and isinstance(preds[0]["classes"][0], bytes)
    assert preds[0]["probabilities"].shape == (2,)


def test_dnn_classifier_weight_column_matches_tf(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["dnn_bin"])
    est = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path), weight_column="w")
    _check_metrics(est.evaluate(_input(Y_BIN)), G["dnn_bin_weighted"]["metrics"], BINARY_KEYS)


def test_dnn_classifier_multi_class_with_vocabulary_and_weights_matches_tf(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["dnn_multi"])
    vocab = ["low", "mid", "high"]
    labels = np.array([vocab[i].encode() for i in Y_MULTI], dtype=object)
    est = tf.estimator.DNNClassifier([2], [X_COL], model_dir=str(tmp_path), n_classes=3, label_vocabulary=vocab,
                                     weight_column=tf.feature_column.numeric_column("w"))
    golden = G["dnn_multi_weighted"]
    _check_metrics(est.evaluate(_input(labels)), golden["metrics"], {"accuracy", "average_loss", "loss",
                                                                     "global_step"})
    preds = _predictions(est)
    assert sorted(preds[0]) == ["class_ids", "classes", "logits", "probabilities"]
    np.testing.assert_allclose(np.stack([p["probabilities"] for p in preds]), golden["predictions"]["probabilities"],
                               rtol=1e-5)
    ids = [c[0] for c in golden["predictions"]["class_ids"]]
    assert [p["class_ids"][0] for p in preds] == ids
    assert [p["classes"][0] for p in preds] == [vocab[i].encode() for i in ids]
    assert all(isinstance(p["classes"][0], bytes) for p in preds)


def test_binary_label_vocabulary_and_label_range(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["dnn_bin"])
    labels = np.array([[b"no", b"yes"][i] for i in Y_BIN], dtype=object)
    est = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path), label_vocabulary=["no", "yes"])
    _check_metrics(est.evaluate(_input(labels)), G["dnn_bin"]["metrics"], BINARY_KEYS)
    preds = _predictions(est)
    assert [p["classes"].tolist() for p in preds] == [[[b"no", b"yes"][c[0]]] for c in
                                                      G["dnn_bin"]["predictions"]["class_ids"]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Labels must >= 0"):
        est.evaluate(_input(np.array([b"no", b"maybe"] * 3, dtype=object)))
    plain = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Labels must <= n_classes - 1"):
        plain.evaluate(_input(np.array([0., 1.5, 0., 1., 1., 0.], np.float32)))
    # float labels in [0, 1] are accepted (sigmoid cross entropy with soft labels)
    assert "auc" in plain.evaluate(_input(np.array([0., 0.5, 0., 1., 1., 0.], np.float32)))


def test_dnn_regressor_label_dimension_2_with_weights_matches_tf(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["dnn_reg"])
    est = tf.estimator.DNNRegressor([2], [X_COL], model_dir=str(tmp_path), label_dimension=2, weight_column="w")
    golden = G["dnn_reg_weighted"]
    _check_metrics(est.evaluate(_input(Y_REG)), golden["metrics"],
                   {"average_loss", "label/mean", "loss", "prediction/mean", "global_step"})
    preds = _predictions(est)
    assert sorted(preds[0]) == ["predictions"]
    np.testing.assert_allclose(np.stack([p["predictions"] for p in preds]), golden["predictions"]["predictions"],
                               rtol=1e-5)


def test_linear_classifier_and_regressor_with_categorical_column_match_tf(tmp_path):
    _write_checkpoint(tmp_path / "c", G["params"]["linear"])
    est = tf.estimator.LinearClassifier([X_COL, C_COL], model_dir=str(tmp_path / "c"))
    _check_metrics(est.evaluate(_input(Y_BIN)), G["linear_bin"]["metrics"], BINARY_KEYS)
    np.testing.assert_allclose(np.stack([p["logits"] for p in _predictions(est)]),
                               G["linear_bin"]["predictions"]["logits"], rtol=1e-5)
    _write_checkpoint(tmp_path / "r", G["params"]["linear"])
    reg = tf.estimator.LinearRegressor([X_COL, C_COL], model_dir=str(tmp_path / "r"))
    _check_metrics(reg.evaluate(_input(Y_REG[:, :1])), G["linear_reg"]["metrics"],
                   {"average_loss", "label/mean", "loss", "prediction/mean", "global_step"})


def test_dnn_linear_combined_classifier_sums_both_logits_as_tf(tmp_path):
    _write_checkpoint(tmp_path, dict(G["params"]["dnn_bin"], **G["params"]["linear"]))
    est = tf.estimator.DNNLinearCombinedClassifier(linear_feature_columns=[X_COL, C_COL],
                                                   dnn_feature_columns=[X_COL], dnn_hidden_units=[2, 2],
                                                   model_dir=str(tmp_path))
    golden = G["combined_bin"]
    _check_metrics(est.evaluate(_input(Y_BIN)), golden["metrics"], BINARY_KEYS)
    np.testing.assert_allclose(np.stack([p["logits"] for p in _predictions(est)]), golden["predictions"]["logits"],
                               rtol=1e-5)
    # training: each optimizer updates its part, the global step grows by one per step
    est = tf.estimator.DNNLinearCombinedClassifier(linear_feature_columns=[X_COL, C_COL], linear_optimizer="SGD",
                                                   dnn_feature_columns=[X_COL], dnn_hidden_units=[2, 2],
                                                   dnn_optimizer=tf.train.GradientDescentOptimizer(0.0),
                                                   model_dir=str(tmp_path))
    est.train(_input(Y_BIN, num_epochs=None), steps=2)
    assert est.get_variable_value("global_step") == 102
    np.testing.assert_allclose(est.get_variable_value("dnn/logits/kernel"), G["params"]["dnn_bin"]["dnn/logits/kernel"])
    assert not np.allclose(est.get_variable_value("linear/linear_model/x/weights"),
                           G["params"]["linear"]["linear/linear_model/x/weights"])
    assert "linear/linear_model/x/weights/Adagrad" not in est.get_variable_names()


def test_baseline_classifier_predicts_its_bias_as_tf(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["baseline"])
    est = tf.estimator.BaselineClassifier(model_dir=str(tmp_path), n_classes=3)
    golden = G["baseline_multi"]
    _check_metrics(est.evaluate(_input(Y_MULTI)), golden["metrics"], {"accuracy", "average_loss", "loss",
                                                                      "global_step"})
    preds = _predictions(est)
    np.testing.assert_allclose(np.stack([p["probabilities"] for p in preds]), golden["predictions"]["probabilities"],
                               rtol=1e-5)
    assert est.get_variable_names() == ["baseline/bias", "global_step"]


def test_one_sgd_step_uses_the_sum_loss_as_tf(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["dnn_bin"], global_step=0)
    est = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path),
                                     optimizer=tf.train.GradientDescentOptimizer(0.1))
    est.train(_input(Y_BIN, batch_size=6, num_epochs=None), steps=1)
    golden = G["dnn_bin_sgd_step"]
    for name, value in golden["params"].items():
        np.testing.assert_allclose(est.get_variable_value(name), value, rtol=1e-5, atol=1e-6, err_msg=name)
    assert est.get_variable_value("global_step") == 1


def test_variable_names_are_tfs(tmp_path):
    emb = tf.feature_column.embedding_column(C_COL, dimension=2)
    est = tf.estimator.DNNClassifier([3], [X_COL, emb], model_dir=str(tmp_path / "dnn"), batch_norm=True,
                                     optimizer="SGD")
    est.train(_input(Y_BIN, num_epochs=None), steps=2)
    names = set(est.get_variable_names())
    assert {"dnn/hiddenlayer_0/kernel", "dnn/hiddenlayer_0/bias", "dnn/logits/kernel", "dnn/logits/bias",
            "dnn/hiddenlayer_0/batchnorm_0/gamma", "dnn/hiddenlayer_0/batchnorm_0/beta",
            "dnn/hiddenlayer_0/batchnorm_0/moving_mean", "dnn/hiddenlayer_0/batchnorm_0/moving_variance",
            "dnn/input_from_feature_columns/input_layer/c_embedding/embedding_weights", "global_step"} == names
    # batch norm's moving averages are updated by the train op
    assert not np.allclose(est.get_variable_value("dnn/hiddenlayer_0/batchnorm_0/moving_mean"), 0)
    lin = tf.estimator.LinearRegressor([X_COL, C_COL], model_dir=str(tmp_path / "lin"), optimizer="Adagrad")
    lin.train(_input(Y_REG[:, :1], num_epochs=None), steps=1)
    assert set(lin.get_variable_names()) == {
        "global_step", "linear/linear_model/bias_weights", "linear/linear_model/bias_weights/Adagrad",
        "linear/linear_model/c/weights", "linear/linear_model/c/weights/Adagrad", "linear/linear_model/x/weights",
        "linear/linear_model/x/weights/Adagrad"}


@pytest.mark.parametrize("name,cls,rate", [("Adagrad", "AdagradOptimizer", 0.05), ("Adam", "AdamOptimizer", 0.05),
                                           ("Ftrl", "FtrlOptimizer", 0.05), ("RMSProp", "RMSPropOptimizer", 0.05),
                                           ("SGD", "GradientDescentOptimizer", 0.05)])
def test_optimizer_names_and_dnn_default_learning_rate(name, cls, rate):
    from tensorweave.estimator.canned import dnn
    from tensorweave.estimator.canned.optimizers import get_optimizer_instance
    opt = get_optimizer_instance(name, learning_rate=dnn._LEARNING_RATE)
    assert type(opt).__name__ == cls and getattr(opt, "_learning_rate", getattr(opt, "_lr", None)) == rate


def test_optimizer_argument_errors_and_callables():
    from tensorweave.estimator.canned.optimizers import get_optimizer_instance
    with pytest.raises(ValueError, match="Unsupported optimizer name: Nope"):
        get_optimizer_instance("Nope", 0.1)
    with pytest.raises(ValueError, match="learning_rate must be specified when opt is string"):
        get_optimizer_instance("SGD")
    with pytest.raises(ValueError, match="The given object is not an Optimizer instance"):
        get_optimizer_instance(3)
    opt = get_optimizer_instance(lambda: tf.train.GradientDescentOptimizer(0.5))
    assert isinstance(opt, tf.train.GradientDescentOptimizer)


def test_default_learning_rates():
    from tensorweave.estimator.canned import baseline, dnn, dnn_linear_combined, linear
    assert (dnn._LEARNING_RATE, linear._LEARNING_RATE, baseline._LEARNING_RATE) == (0.05, 0.2, 0.3)
    assert linear._linear_learning_rate(100) == pytest.approx(0.1) and linear._linear_learning_rate(4) == 0.2
    assert dnn_linear_combined._DNN_LEARNING_RATE == 0.001
    assert dnn_linear_combined._linear_learning_rate(1) == 0.005


def test_linear_default_optimizer_none_uses_sqrt_rule(tmp_path):
    # LinearRegressor(optimizer=None): Ftrl with min(0.2, 1/sqrt(2)) = 0.2; one step from zeros on one example
    x = np.array([[1., 2.]], np.float32)
    y = np.array([[3.]], np.float32)
    est = tf.estimator.LinearRegressor([X_COL], model_dir=str(tmp_path), optimizer=None)
    est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=1, num_epochs=None, shuffle=False), steps=1)
    # FTRL (lr_power -0.5, initial accumulator 0.1): gradient g of the squared error at 0 is -2*y*x
    g = -2 * 3. * np.array([1., 2.])
    n = 0.1 + g * g
    sigma = (np.sqrt(n) - np.sqrt(0.1)) / 0.2
    z = g - sigma * 0.
    expected = -z / (np.sqrt(n) / 0.2)
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/x/weights")[:, 0], expected, rtol=1e-5)


def test_export_saved_model_has_tfs_signatures(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["dnn_bin"])
    est = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path))
    spec = tf.feature_column.make_parse_example_spec([X_COL])
    fn = tf.estimator.export.build_parsing_serving_input_receiver_fn(spec)
    export_dir = est.export_savedmodel(str(tmp_path / "export"), fn)
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        sigs = meta.signature_def
        assert set(sigs) == {"serving_default", "classification", "regression", "predict"}
        assert sigs["classification"].method_name == "tensorflow/serving/classify"
        assert set(sigs["classification"].outputs) == {"classes", "scores"}
        assert sigs["regression"].method_name == "tensorflow/serving/regress"
        assert set(sigs["predict"].outputs) == {"class_ids", "classes", "logistic", "logits", "probabilities"}
        example = tf.train.Example(features=tf.train.Features(feature={
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=X[0].tolist()))}))
        inputs = sigs["predict"].inputs["examples"].name
        out = sess.run(sigs["predict"].outputs["logits"].name, {inputs: [example.SerializeToString()]})
        np.testing.assert_allclose(out, [G["dnn_bin"]["predictions"]["logits"][0]], rtol=1e-5)
        scores, classes = sess.run([sigs["classification"].outputs["scores"].name,
                                    sigs["classification"].outputs["classes"].name],
                                   {inputs: [example.SerializeToString()]})
        np.testing.assert_allclose(scores, [G["dnn_bin"]["predictions"]["probabilities"][0]], rtol=1e-5)
        assert classes.tolist() == [[b"0", b"1"]]


def test_regressor_export_has_regression_signature(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["baseline"])
    est = tf.estimator.BaselineRegressor(model_dir=str(tmp_path), label_dimension=3)
    # raw tensors: only the predict signature (regression needs serialized examples), as TF
    fn = tf.estimator.export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 2])})
    export_dir = est.export_saved_model(str(tmp_path / "raw"), fn)
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        assert set(meta.signature_def) == {"predict"}
        out = sess.run(meta.signature_def["predict"].outputs["predictions"].name,
                       {meta.signature_def["predict"].inputs["x"].name: X[:2]})
        np.testing.assert_allclose(out, [G["params"]["baseline"]["baseline/bias"]] * 2, rtol=1e-6)
    fn = tf.estimator.export.build_parsing_serving_input_receiver_fn(tf.feature_column.make_parse_example_spec(
        [X_COL]))
    export_dir = est.export_saved_model(str(tmp_path / "parsed"), fn)
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        assert set(meta.signature_def) == {"serving_default", "regression", "predict"}
        assert meta.signature_def["serving_default"].method_name == "tensorflow/serving/regress"
        assert set(meta.signature_def["regression"].outputs) == {"outputs"}


def test_warm_start_from_a_checkpoint_directory(tmp_path):
    _write_checkpoint(tmp_path / "old", G["params"]["dnn_bin"])
    est = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path / "new"),
                                     optimizer=tf.train.GradientDescentOptimizer(0.0),
                                     warm_start_from=str(tmp_path / "old"))
    est.train(_input(Y_BIN, num_epochs=None), steps=1)
    for name, value in G["params"]["dnn_bin"].items():
        np.testing.assert_allclose(est.get_variable_value(name), value, rtol=1e-6)
    assert est.get_variable_value("global_step") == 1  # the global step is not warm-started
    settings = tf.estimator.WarmStartSettings(str(tmp_path / "old"), vars_to_warm_start="dnn/logits")
    est2 = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path / "new2"),
                                      optimizer=tf.train.GradientDescentOptimizer(0.0), warm_start_from=settings)
    est2.train(_input(Y_BIN, num_epochs=None), steps=1)
    np.testing.assert_allclose(est2.get_variable_value("dnn/logits/kernel"),
                               G["params"]["dnn_bin"]["dnn/logits/kernel"])
    assert not np.allclose(est2.get_variable_value("dnn/hiddenlayer_0/kernel"),
                           G["params"]["dnn_bin"]["dnn/hiddenlayer_0/kernel"])
    with pytest.raises(ValueError, match="ckpt_to_initialize_from"):
        tf.estimator.WarmStartSettings(None)


def test_warm_start_from_a_saved_model(tmp_path):
    _write_checkpoint(tmp_path / "old", G["params"]["dnn_bin"])
    old = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path / "old"))
    fn = tf.estimator.export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 2])})
    export_dir = old.export_saved_model(str(tmp_path / "export"), fn)
    est = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path / "new"),
                                     optimizer=tf.train.GradientDescentOptimizer(0.0), warm_start_from=export_dir)
    est.train(_input(Y_BIN, num_epochs=None), steps=1)
    for name, value in G["params"]["dnn_bin"].items():
        np.testing.assert_allclose(est.get_variable_value(name), value, rtol=1e-6)


def test_loss_reduction_sum_over_batch_size(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["dnn_bin"])
    est = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path),
                                     loss_reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE)
    result = est.evaluate(_input(Y_BIN, batch_size=6))
    # one batch: the loss is the mean example loss, equal to average_loss
    np.testing.assert_allclose(result["loss"], G["dnn_bin"]["metrics"]["average_loss"], rtol=1e-5)


def test_argument_errors(tmp_path):
    with pytest.raises(ValueError, match="hidden_units must be positive integers"):
        tf.estimator.DNNClassifier([2, 0], [X_COL])
    with pytest.raises(ValueError, match="hidden_units must be positive integers"):
        tf.estimator.DNNRegressor([2.5], [X_COL])
    tf.estimator.DNNRegressor(np.array([3, 2]), [X_COL])  # NumPy integers are fine
    with pytest.raises(ValueError, match="n_classes must be > 1"):
        tf.estimator.DNNClassifier([2], [X_COL], n_classes=1)
    with pytest.raises(ValueError, match="Invalid loss_reduction: none"):
        tf.estimator.LinearClassifier([X_COL], loss_reduction=tf.losses.Reduction.NONE)
    with pytest.raises(ValueError, match="Either linear_feature_columns or dnn_feature_columns must be defined"):
        tf.estimator.DNNLinearCombinedClassifier()
    with pytest.raises(ValueError, match="dnn_hidden_units must be defined"):
        tf.estimator.DNNLinearCombinedRegressor(dnn_feature_columns=[X_COL])
    with pytest.raises(TypeError, match="label_vocabulary should be a list or tuple"):
        tf.estimator.DNNClassifier([2], [X_COL], label_vocabulary="abc")
    with pytest.raises(NotImplementedError, match="partitioner"):
        tf.estimator.LinearRegressor([X_COL], partitioner=object())
    with pytest.raises(ValueError, match="sparse_combiner must be one of"):
        tf.estimator.LinearClassifier([X_COL], sparse_combiner="max")
    est = tf.estimator.DNNClassifier([2], [X_COL], n_classes=3, model_dir=str(tmp_path / "a"))
    with pytest.raises(ValueError, match="Labels dtype should be integer"):
        est.train(_input(Y_REG[:, :1], num_epochs=None), steps=1)
    est = tf.estimator.DNNClassifier([2], [X_COL], n_classes=3, model_dir=str(tmp_path / "b"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Labels must <= n_classes - 1"):
        est.train(_input(Y_MULTI + 1, num_epochs=None), steps=1)
    reg = tf.estimator.DNNRegressor([2], [X_COL], label_dimension=2, model_dir=str(tmp_path / "c"))
    with pytest.raises(ValueError, match="Mismatched label shape"):
        reg.train(_input(Y_REG[:, :1], num_epochs=None), steps=1)


def test_activation_fn_none_is_linear_and_dropout_trains(tmp_path):
    _write_checkpoint(tmp_path, G["params"]["dnn_bin"])
    est = tf.estimator.DNNClassifier([2, 2], [X_COL], model_dir=str(tmp_path), activation_fn=None)
    p = G["params"]["dnn_bin"]
    net = X
    for i in range(2):
        net = net @ np.array(p["dnn/hiddenlayer_%d/kernel" % i]) + p["dnn/hiddenlayer_%d/bias" % i]
    expected = net @ np.array(p["dnn/logits/kernel"]) + p["dnn/logits/bias"]
    np.testing.assert_allclose(np.stack([q["logits"] for q in _predictions(est)]), expected, rtol=1e-5, atol=1e-6)
    drop = tf.estimator.DNNRegressor([4], [X_COL], model_dir=str(tmp_path / "drop"), dropout=0.5,
                                     activation_fn=tf.nn.tanh)
    drop.train(_input(Y_REG[:, :1], num_epochs=None), steps=3)
    # dropout only in training: predictions are deterministic
    first, second = (np.stack([q["predictions"] for q in drop.predict(_input())]) for _ in range(2))
    np.testing.assert_array_equal(first, second)


def test_training_writes_tfs_summaries(tmp_path):
    config = tf.estimator.RunConfig(model_dir=str(tmp_path), save_summary_steps=1, log_step_count_steps=None)
    est = tf.estimator.DNNClassifier([3], [X_COL], config=config)
    est.train(_input(Y_BIN, num_epochs=None), steps=2)
    tags = set()
    for path in tf.gfile.Glob(str(tmp_path / "events.out.tfevents.*")):
        for event in tf.train.summary_iterator(path):
            tags.update(v.tag for v in event.summary.value)
    assert {"loss", "average_loss", "dnn/dnn/hiddenlayer_0/fraction_of_zero_values",
            "dnn/dnn/hiddenlayer_0/activation", "dnn/dnn/logits/fraction_of_zero_values"} <= tags
