"""tf.estimator.export: serving input receivers, export outputs, and Estimator.export_saved_model."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.estimator import export as export_lib

export = tf.estimator.export


def test_serving_input_receiver_wraps_and_checks():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    r = export.ServingInputReceiver(x, x)
    assert r.features == {"feature": x} and r.receiver_tensors == {"input": x}
    r = export.ServingInputReceiver({"a": x, 3: x}, {"x": x}, {"alt": x})
    assert r.receiver_tensors_alternatives == {"alt": {"input": x}}
    with pytest.raises(ValueError, match="features must be defined."):
        export.ServingInputReceiver(None, x)
    with pytest.raises(ValueError, match="receiver_tensors must be defined."):
        export.ServingInputReceiver(x, None)
    with pytest.raises(ValueError, match="feature a must be a Tensor, SparseTensor, or RaggedTensor."):
        export.ServingInputReceiver({"a": 1.0}, x)
    with pytest.raises(ValueError, match="receiver_tensor keys must be strings: 3."):
        export.ServingInputReceiver(x, {3: x})
    with pytest.raises(ValueError, match="feature keys must be strings or ints: 1.5."):
        export.ServingInputReceiver({1.5: x}, x)
    with pytest.raises(ValueError, match="receiver_tensors_alternatives must be a dict"):
        export.ServingInputReceiver(x, x, [x])


def test_tensor_serving_input_receiver():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    r = export.TensorServingInputReceiver(x, {"x": x})
    assert r.features is x and r.receiver_tensors == {"x": x}
    with pytest.raises(ValueError, match="features must be defined."):
        export.TensorServingInputReceiver(None, x)
    with pytest.raises(ValueError, match="feature must be a Tensor, SparseTensor, or RaggedTensor."):
        export.TensorServingInputReceiver({"x": x}, x)


def test_raw_serving_input_receiver_fn():
    with tf.Graph().as_default():
        feats = {"x": tf.placeholder(tf.float32, [7, 3], name="features_x"),
                 "ids": tf.placeholder(tf.int64, [7], name="ids")}
    fn = export.build_raw_serving_input_receiver_fn(feats, default_batch_size=None)
    r = fn()
    assert r.features["x"].shape.as_list() == [None, 3] and r.features["x"].op.name == "features_x"
    assert r.features["ids"].dtype == tf.int64 and r.receiver_tensors["ids"] is r.features["ids"]
    bad = export.build_raw_serving_input_receiver_fn({"s": tf.placeholder(tf.float32, [], name="s")})
    with pytest.raises(ValueError, match="Feature s must have a known rank of at least 1"):
        bad()


def test_parsing_serving_input_receiver_fn():
    spec = {"x": tf.FixedLenFeature([2], tf.float32)}
    r = export.build_parsing_serving_input_receiver_fn(spec)()
    examples = r.receiver_tensors["examples"]
    assert examples.op.name == "input_example_tensor" and examples.dtype == tf.string
    ex = tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0]))}))
    with tf.Session() as sess:
        out = sess.run(r.features["x"], {examples: [ex.SerializeToString()]})
    np.testing.assert_array_equal(out, [[1.0, 2.0]])


def test_export_outputs():
    pytest.importorskip("tensorboard.compat.proto.meta_graph_pb2")
    ex = tf.placeholder(tf.string, [None], name="ex")
    x = tf.placeholder(tf.float32, [None], name="x")
    scores = tf.placeholder(tf.float32, [None, 2], name="scores")
    classes = tf.placeholder(tf.string, [None, 2], name="classes")
    p = export.PredictOutput(x)
    assert p.outputs == {"output": x}
    assert export.PredictOutput({("a", "b"): x}).outputs == {"a/b": x}
    sig = p.as_signature_def({"x": x})
    assert sig.method_name == "tensorflow/serving/predict" and sig.outputs["output"].name == "x:0"
    c = export.ClassificationOutput(scores=scores, classes=classes)
    assert c.as_signature_def({"ex": ex}).method_name == "tensorflow/serving/classify"
    r = export.RegressionOutput(x)
    assert r.as_signature_def(ex if False else {"ex": ex}).outputs["outputs"].name == "x:0"
    with pytest.raises(ValueError, match="Prediction output key must be a string; got 3."):
        export.PredictOutput({3: x})
    with pytest.raises(ValueError, match="Prediction output value must be a Tensor; got 1."):
        export.PredictOutput({"a": 1})
    with pytest.raises(ValueError, match="Classification scores must be a float32 Tensor; got"):
        export.ClassificationOutput(scores=classes)
    with pytest.raises(ValueError, match="Classification classes must be a string Tensor; got"):
        export.ClassificationOutput(classes=scores)
    with pytest.raises(ValueError, match="At least one of scores and classes must be set."):
        export.ClassificationOutput()
    with pytest.raises(ValueError, match="Regression output value must be a float32 Tensor; got"):
        export.RegressionOutput(classes)
    with pytest.raises(ValueError, match="Classification input must be a single string Tensor; got"):
        c.as_signature_def({"x": x})
    with pytest.raises(ValueError, match="Regression input must be a single string Tensor; got"):
        r.as_signature_def({"a": ex, "b": ex})


def test_get_export_outputs_and_signatures():
    pytest.importorskip("tensorboard.compat.proto.meta_graph_pb2")
    x = tf.placeholder(tf.float32, [None], name="x")
    outs = export_lib.get_export_outputs(None, {"y": x})
    assert list(outs) == ["serving_default"] and outs["serving_default"].outputs == {"y": x}
    one = export_lib.get_export_outputs({"mine": export.PredictOutput(x)}, None)
    assert set(one) == {"mine", "serving_default"}
    with pytest.raises(TypeError, match="export_outputs must be dict, given"):
        export_lib.get_export_outputs([1], None)
    with pytest.raises(TypeError, match="Values in export_outputs must be ExportOutput objects."):
        export_lib.get_export_outputs({"a": x}, None)
    with pytest.raises(ValueError, match="Multiple export_outputs were provided, but none of them is specified as "
                                         "the default."):
        export_lib.get_export_outputs({"a": export.PredictOutput(x), "b": export.PredictOutput(x)}, None)
    sigs = export_lib.build_all_signature_defs(
        x, {"serving_default": export.PredictOutput(x), "reg": export.RegressionOutput(x)}, {"alt": x})
    assert sorted(sigs) == ["alt:serving_default", "serving_default"]  # regression needs a string input
    with pytest.raises(ValueError, match="export_outputs must be a dict and not"):
        export_lib.build_all_signature_defs(x, None)


def _model_fn(features, labels, mode):
    w = tf.get_variable("w", [2, 1], initializer=tf.zeros_initializer())
    pred = tf.matmul(features["x"], w)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": pred})
    loss = tf.reduce_mean(tf.square(pred - labels))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)


def test_export_needs_checkpoint_and_receiver(tmp_path):
    est = tf.estimator.Estimator(_model_fn, model_dir=str(tmp_path / "model"))
    fn = export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 2])})
    with pytest.raises(ValueError, match="Couldn't find trained model at"):
        est.export_saved_model(str(tmp_path / "export"), fn)
    with pytest.raises(ValueError, match="An input_receiver_fn must be defined."):
        est.export_savedmodel(str(tmp_path / "export"), None)
    with pytest.raises(NotImplementedError, match="exports only the PREDICT mode"):
        est.export_saved_model(str(tmp_path / "export"), fn, experimental_mode=tf.estimator.ModeKeys.TRAIN)


def test_export_saved_model_round_trip(tmp_path):
    pytest.importorskip("tensorboard.compat.proto.meta_graph_pb2")
    x = np.array([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]], np.float32)
    y = x @ np.array([[0.5], [-1.0]], np.float32)
    est = tf.estimator.Estimator(_model_fn, model_dir=str(tmp_path / "model"))
    est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=3, num_epochs=None, shuffle=False),
              steps=5)
    extra = tmp_path / "warmup.txt"
    extra.write_text("hello")
    feature_spec = {"x": tf.placeholder(tf.float32, [None, 2], name="x")}
    export_dir = est.export_saved_model(str(tmp_path / "export"),
                                        export.build_raw_serving_input_receiver_fn(feature_spec),
                                        assets_extra={"tf_serving_warmup_requests": str(extra)})
    assert isinstance(export_dir, bytes) and os.path.basename(export_dir).isdigit()
    export_dir = export_dir.decode()
    assert os.listdir(str(tmp_path / "export")) == [os.path.basename(export_dir)]  # the temp dir was renamed
    with open(os.path.join(export_dir, "assets.extra", "tf_serving_warmup_requests")) as f:
        assert f.read() == "hello"
    expected = list(est.predict(tf.estimator.inputs.numpy_input_fn({"x": x}, shuffle=False),
                                yield_single_examples=False))[0]["y"]
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        sig = meta.signature_def["serving_default"]
        out = sess.run(sig.outputs["y"].name, {sig.inputs["x"].name: x})
    np.testing.assert_allclose(out, expected, rtol=1e-6)
