"""The rest of tf.estimator around the canned estimators (issue 19, item 5): parse-example specs,
`add_metrics`, `BestExporter`, the early-stopping hooks and logit function builders of
`tf.estimator.experimental`, and the hook re-exports."""

import os

import numpy as np
import pytest

import tensorweave as tf


def _columns():
    return [tf.feature_column.numeric_column("x", shape=[2]),
            tf.feature_column.categorical_column_with_hash_bucket("s", 10)]


def _input(num_epochs=None, n=64, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.uniform(-1, 1, size=(n, 2)).astype(np.float32)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(np.int64)
    return tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=16, num_epochs=num_epochs, shuffle=False)


def test_classifier_and_regressor_parse_example_specs():
    spec = tf.estimator.classifier_parse_example_spec(_columns(), label_key="y", weight_column="w")
    assert set(spec) == {"x", "s", "y", "w"}
    assert spec["y"] == tf.FixedLenFeature((1,), tf.int64, None)
    assert spec["w"] == tf.FixedLenFeature((1,), tf.float32)
    assert spec["x"] == tf.FixedLenFeature((2,), tf.float32) and spec["s"] == tf.VarLenFeature(tf.string)
    spec = tf.estimator.regressor_parse_example_spec(_columns(), label_key="t", label_dimension=3,
                                                     label_default=(0., 0., 0.))
    assert spec["t"] == tf.FixedLenFeature((3,), tf.float32, (0., 0., 0.)) and "w" not in spec
    with pytest.raises(ValueError, match="label should not be used as feature. label_key: x"):
        tf.estimator.classifier_parse_example_spec(_columns(), label_key="x")
    with pytest.raises(ValueError, match="weight_column should not be used as feature. weight_column: x"):
        tf.estimator.regressor_parse_example_spec(_columns(), label_key="t", weight_column="x")


def test_add_metrics_adds_to_the_canned_metrics(tmp_path):
    est = tf.estimator.LinearClassifier([tf.feature_column.numeric_column("x", shape=[2])], model_dir=str(tmp_path))

    def my_metrics(labels, predictions, features, config):
        assert isinstance(config, tf.estimator.RunConfig) and "x" in features
        return {"my_auc": tf.metrics.auc(labels, predictions["logistic"]),
                "mean_logit": tf.metrics.mean(predictions["logits"])}

    est = tf.estimator.add_metrics(est, my_metrics)
    est.train(_input(), steps=5)
    result = est.evaluate(_input(num_epochs=1))
    assert {"my_auc", "mean_logit", "auc", "accuracy", "loss", "global_step"} <= set(result)
    np.testing.assert_allclose(result["my_auc"], result["auc"], rtol=1e-6)
    with pytest.raises(ValueError, match="metric_fn .* has following not expected args: \\['mode'\\]"):
        tf.estimator.add_metrics(est, lambda labels, mode: {})


def _serving():
    return tf.estimator.export.build_parsing_serving_input_receiver_fn(
        tf.feature_column.make_parse_example_spec([tf.feature_column.numeric_column("x", shape=[2])]))


def test_best_exporter_exports_when_the_loss_improves(tmp_path):
    est = tf.estimator.LinearClassifier([tf.feature_column.numeric_column("x", shape=[2])], model_dir=str(tmp_path))
    est.train(_input(), steps=2)
    ckpt = est.latest_checkpoint()
    exporter = tf.estimator.BestExporter(serving_input_receiver_fn=_serving(), exports_to_keep=1)
    assert exporter.name == "best_exporter"
    path = str(tmp_path / "export" / "best")
    assert exporter.export(est, path, ckpt, {"loss": 3.0}, False) is not None
    assert exporter.export(est, path, ckpt, {"loss": 4.0}, False) is None       # worse: no export
    assert exporter.export(est, path, ckpt, {"loss": 2.0}, False) is not None   # better
    assert len(os.listdir(path)) == 1                                           # exports_to_keep
    # a new exporter first reads the best loss from the model's evaluation event files
    est.evaluate(_input(num_epochs=1))
    best_loss = est.evaluate(_input(num_epochs=1))["loss"]
    fresh = tf.estimator.BestExporter(serving_input_receiver_fn=_serving())
    assert fresh.export(est, str(tmp_path / "e2"), ckpt, {"loss": best_loss + 1}, False) is None
    assert fresh.export(est, str(tmp_path / "e2"), ckpt, {"loss": best_loss - 1}, False) is not None
    with pytest.raises(ValueError, match="`compare_fn` must not be None"):
        tf.estimator.BestExporter(serving_input_receiver_fn=_serving(), compare_fn=None)
    with pytest.raises(ValueError, match="must include best_eval_result and current_eval_result"):
        tf.estimator.BestExporter(serving_input_receiver_fn=_serving(), compare_fn=lambda a, b: True)


def _write_eval_events(eval_dir, values):
    writer = tf.summary.FileWriter(eval_dir)
    for step, metrics in values.items():
        summary = tf.Summary()
        for tag, value in metrics.items():
            summary.value.add(tag=tag, simple_value=value)
        writer.add_summary(summary, step)
    writer.close()


def test_early_stopping_hooks_read_the_eval_metrics(tmp_path):
    est = tf.estimator.LinearClassifier([tf.feature_column.numeric_column("x", shape=[2])], model_dir=str(tmp_path))
    _write_eval_events(str(tmp_path / "eval"), {10: {"loss": 5.0, "accuracy": 0.5}, 20: {"loss": 4.0},
                                                30: {"loss": 4.5}, 40: {"loss": 4.2}})
    from tensorweave.estimator.experimental import read_eval_metrics
    metrics = read_eval_metrics(str(tmp_path / "eval"))
    assert list(metrics) == [10, 20, 30, 40] and metrics[10] == {"loss": 5.0, "accuracy": 0.5}
    exp = tf.estimator.experimental

    def stops(hook):
        return hook._should_stop_fn()

    assert stops(exp.stop_if_no_decrease_hook(est, "loss", 20))          # best at 20, 40 - 20 >= 20
    assert not stops(exp.stop_if_no_decrease_hook(est, "loss", 21))
    assert stops(exp.stop_if_lower_hook(est, "loss", 4.1))
    assert not stops(exp.stop_if_lower_hook(est, "loss", 4.1, min_steps=25))
    assert stops(exp.stop_if_higher_hook(est, "loss", 4.9))
    assert not stops(exp.stop_if_no_increase_hook(est, "loss", 40))
    assert stops(exp.stop_if_no_increase_hook(est, "loss", 30))
    with pytest.raises(ValueError, match="Only one of `run_every_secs` and `run_every_steps` must be set"):
        exp.make_early_stopping_hook(est, lambda: True, run_every_secs=1, run_every_steps=1)
    with pytest.raises(TypeError, match="`estimator` must have type `tf.estimator.Estimator`"):
        exp.make_early_stopping_hook(object(), lambda: True)


def test_early_stopping_hook_stops_training(tmp_path):
    est = tf.estimator.LinearClassifier([tf.feature_column.numeric_column("x", shape=[2])], model_dir=str(tmp_path))
    calls = []

    def should_stop():
        calls.append(1)
        return len(calls) >= 3

    hook = tf.estimator.experimental.make_early_stopping_hook(est, should_stop, run_every_secs=None,
                                                              run_every_steps=2)
    est.train(_input(), steps=100, hooks=[hook])
    assert est.get_variable_value("global_step") == 5   # checked at steps 1, 3, 5
    assert len(calls) == 3


def test_logit_fn_builders_make_tfs_variables():
    with tf.Graph().as_default():
        features = {"x": tf.constant([[1., 2.], [3., 4.]])}
        columns = [tf.feature_column.numeric_column("x", shape=[2])]
        with tf.variable_scope("dnn"):
            logits = tf.estimator.experimental.dnn_logit_fn_builder(
                3, [4], columns, tf.nn.relu, None, None, False)(features, tf.estimator.ModeKeys.TRAIN)
        with tf.variable_scope("linear"):
            linear = tf.estimator.experimental.linear_logit_fn_builder(3, columns)(features)
        assert logits.shape.as_list() == [2, 3] and linear.shape.as_list() == [2, 3]
        names = sorted(v.op.name for v in tf.global_variables())
        assert names == ["dnn/hiddenlayer_0/bias", "dnn/hiddenlayer_0/kernel", "dnn/logits/bias", "dnn/logits/kernel",
                         "linear/linear_model/bias_weights", "linear/linear_model/x/weights"]
        with pytest.raises(ValueError, match="units must be an int"):
            tf.estimator.experimental.dnn_logit_fn_builder(2.0, [4], columns, None, None, None, False)


def test_hook_and_vocab_info_reexports():
    for name in ("CheckpointSaverHook", "CheckpointSaverListener", "FeedFnHook", "FinalOpsHook",
                 "GlobalStepWaiterHook", "LoggingTensorHook", "NanLossDuringTrainingError", "NanTensorHook",
                 "ProfilerHook", "SecondOrStepTimer", "SessionRunArgs", "SessionRunContext", "SessionRunHook",
                 "SessionRunValues", "StepCounterHook", "StopAtStepHook", "SummarySaverHook", "VocabInfo"):
        assert getattr(tf.estimator, name) is getattr(tf.train, name)


def test_in_memory_evaluator_hook_evaluates_the_training_variables(tmp_path):
    config = tf.estimator.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=None,
                                    save_checkpoints_secs=None, log_step_count_steps=None)
    est = tf.estimator.LinearClassifier([tf.feature_column.numeric_column("x", shape=[2])], config=config,
                                        optimizer="SGD")
    hook = tf.estimator.experimental.InMemoryEvaluatorHook(est, _input(num_epochs=1), every_n_iter=4, name="mem")
    est.train(_input(), steps=10, hooks=[hook])
    # no checkpoint was ever written: the evaluations read the training session's variables
    assert est.latest_checkpoint() is None
    steps = [r["global_step"] for r in hook._eval_results]
    assert steps == [0, 4, 8, 10]
    assert hook._eval_results[0]["accuracy"] < hook._eval_results[-1]["accuracy"]
    assert os.path.isdir(tmp_path / "eval_mem")
    with pytest.raises(ValueError, match="invalid every_n_iter=0"):
        tf.estimator.experimental.InMemoryEvaluatorHook(est, _input(), every_n_iter=0)
