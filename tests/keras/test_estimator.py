"""`tf.keras.estimator.model_to_estimator`: the estimator trains like Keras `fit` (same SGD steps,
same weights), starts from the Keras model's weights, evaluates and predicts as the Keras model does,
and takes features keyed by the Keras input names; `compile(target_tensors=...)` which it builds on."""

import logging

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    logging.getLogger("tensorflow").setLevel(logging.WARNING)
    yield
    K.clear_session()


def _data(n=16):
    rng = np.random.RandomState(0)
    return rng.randn(n, 3).astype("float32"), rng.randn(n, 2).astype("float32")


def _sequential(optimizer=None, metrics=("mae",)):
    model = keras.Sequential([keras.layers.Dense(4, activation="tanh", input_shape=(3,), name="hidden"),
                              keras.layers.Dense(2, name="out")])
    model.compile(optimizer or tf.train.GradientDescentOptimizer(0.1), "mse", metrics=list(metrics))
    return model


def _input_fn(features, labels, batch_size=4, epochs=1):
    def input_fn():
        return tf.data.Dataset.from_tensor_slices((features, labels)).batch(batch_size).repeat(epochs)
    return input_fn


def _estimator_weights(est, model):
    return [est.get_variable_value(w.op.name) for w in model.weights]


@pytest.mark.parametrize("optimizer", ["tf_sgd", "keras_momentum"])
def test_trained_weights_equal_keras_fit_with_the_same_steps(tmp_path, optimizer):
    x, y = _data()
    make = (lambda: tf.train.GradientDescentOptimizer(0.1)) if optimizer == "tf_sgd" else \
        (lambda: keras.optimizers.SGD(lr=0.1, momentum=0.9))
    model = _sequential(make())
    initial = model.get_weights()
    est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    assert isinstance(est, tf.estimator.Estimator)
    est.train(_input_fn({"hidden_input": x}, y, epochs=2), steps=8)
    assert est.get_variable_value("global_step") == 8
    for a, b in zip(model.get_weights(), initial):  # the Keras model is left as it was
        np.testing.assert_array_equal(a, b)
    model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    for got, want in zip(_estimator_weights(est, model), model.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)

    metrics = est.evaluate(_input_fn({"hidden_input": x}, y))
    loss, mae = model.evaluate(x, y, batch_size=4, verbose=0)
    np.testing.assert_allclose(metrics["loss"], loss, rtol=1e-5)
    np.testing.assert_allclose(metrics["mean_absolute_error"], mae, rtol=1e-5)
    assert metrics["global_step"] == 8
    predictions = list(est.predict(_input_fn({"hidden_input": x}, y)))
    assert sorted(predictions[0]) == ["out"]
    np.testing.assert_allclose(np.stack([p["out"] for p in predictions]), model.predict(x), rtol=1e-5, atol=1e-6)


def test_initial_weights_come_from_keras_and_a_checkpoint_wins(tmp_path):
    x, y = _data(8)
    model = _sequential(tf.train.GradientDescentOptimizer(0.0))
    model.set_weights([np.full_like(w, 0.25) for w in model.get_weights()])
    est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    est.train(_input_fn(x, y), steps=1)  # lr 0: the checkpoint holds the Keras weights
    for got, want in zip(_estimator_weights(est, model), model.get_weights()):
        np.testing.assert_array_equal(got, want)
    model.set_weights([np.zeros_like(w) for w in model.get_weights()])
    again = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    again.train(_input_fn(x, y), steps=1)
    assert again.get_variable_value("global_step") == 2
    np.testing.assert_array_equal(again.get_variable_value("out/bias"), np.full(2, 0.25, "float32"))


def test_functional_model_with_named_inputs_and_outputs_and_dropout(tmp_path):
    rng = np.random.RandomState(1)
    a, b = rng.randn(8, 3).astype("float32"), rng.randn(8, 2).astype("float32")
    y1, y2 = rng.randn(8, 1).astype("float32"), rng.randint(0, 3, size=(8,)).astype("int64")
    in_a, in_b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    h = keras.layers.Dense(5, activation="relu", name="h")(in_a)
    h = keras.layers.Dropout(0.5)(h)
    first = keras.layers.Dense(1, name="reg")(h)
    second = keras.layers.Dense(3, activation="softmax", name="cls")(in_b)
    model = keras.Model([in_a, in_b], [first, second])
    model.compile(tf.train.GradientDescentOptimizer(0.05),
                  loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"}, loss_weights={"reg": 1.0, "cls": 0.5},
                  metrics={"cls": ["acc"]})
    est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    features = {"b": b, "a": a, "unused": np.zeros((8, 1), "float32")}
    metrics = est.evaluate(_input_fn(features, {"reg": y1, "cls": y2}, batch_size=8))
    expected = model.evaluate([a, b], [y1, y2], batch_size=8, verbose=0)
    np.testing.assert_allclose(metrics["loss"], expected[0], rtol=1e-5)
    np.testing.assert_allclose(metrics["cls_acc"], expected[model.metrics_names.index("cls_acc")], rtol=1e-6)
    predictions = list(est.predict(_input_fn(features, {"reg": y1, "cls": y2})))
    reg, cls = model.predict([a, b])
    np.testing.assert_allclose(np.stack([p["reg"] for p in predictions]), reg, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.stack([p["cls"] for p in predictions]), cls, rtol=1e-5, atol=1e-6)
    with pytest.raises(KeyError, match=r"does not cover requested inputs keys defined in the keras model"):
        est.evaluate(_input_fn({"a": a}, {"reg": y1, "cls": y2}))


def test_compile_target_tensors_build_a_loss_needing_no_target_feeds():
    x, y = _data(6)
    target = tf.constant(y[:, 0])
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile(tf.train.GradientDescentOptimizer(0.1), "mse", target_tensors=target)
    w, b = model.get_weights()
    loss = K.get_session().run(model.total_loss, {model.inputs[0]: x})
    np.testing.assert_allclose(loss, np.mean(((x @ w + b)[:, 0] - y[:, 0]) ** 2), rtol=1e-5)
    with pytest.raises(ValueError, match=r"it should have one entry per model output"):
        model.compile("sgd", "mse", target_tensors=[target, target])
    with pytest.raises(ValueError, match=r'Unknown entry in target_tensors dictionary: "nope"'):
        model.compile("sgd", "mse", target_tensors={"nope": target})


def test_errors(tmp_path):
    model = _sequential()
    with pytest.raises(ValueError, match=r"Either `keras_model` or `keras_model_path` needs to be provided"):
        tf.keras.estimator.model_to_estimator()
    with pytest.raises(ValueError, match=r"Please specity either `keras_model` or `keras_model_path`, but not both"):
        tf.keras.estimator.model_to_estimator(keras_model=model, keras_model_path=str(tmp_path / "m.h5"))
    uncompiled = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    with pytest.raises(ValueError, match=r"The given keras model has not been compiled yet"):
        tf.keras.estimator.model_to_estimator(keras_model=uncompiled)

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, inputs):
            return self.dense(inputs)

    sub = Sub()
    sub.compile("sgd", "mse")
    with pytest.raises(ValueError, match=r"needs a functional or Sequential Keras model"):
        tf.keras.estimator.model_to_estimator(keras_model=sub)
    est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=str(tmp_path / "nolabels"))
    x, _ = _data(4)
    with pytest.raises(ValueError, match=r"must give labels to train or evaluate"):
        est.train(lambda: tf.data.Dataset.from_tensor_slices({"hidden_input": x}).batch(2), steps=1)
    with pytest.raises(NotImplementedError, match=r"Sample weights given as features\['sample_weights'\]"):
        est.train(_input_fn({"features": x, "sample_weights": np.ones(4, "float32")}, x[:, :2]), steps=1)
    with pytest.raises(ValueError, match=r"The Keras model has 1 inputs \['hidden_input'\], but the features hold 2"):
        est.train(_input_fn((x, x), x[:, :2]), steps=1)


def test_keras_model_path(tmp_path):
    from tensorweave.keras import models
    path = str(tmp_path / "model.h5")
    if not hasattr(models, "load_model"):
        with pytest.raises(NotImplementedError, match=r"needs tf.keras.models.load_model"):
            tf.keras.estimator.model_to_estimator(keras_model_path=path)
        return
    pytest.importorskip("h5py", reason="HDF5 model files need the [keras] extra")
    x, y = _data(8)
    model = _sequential(keras.optimizers.SGD(lr=0.1))  # a TF optimizer's model is saved uncompiled
    model.save(path)
    est = tf.keras.estimator.model_to_estimator(keras_model_path=path, model_dir=str(tmp_path / "est"))
    predictions = list(est.predict(_input_fn({"hidden_input": x}, y)))
    np.testing.assert_allclose(np.stack([p["out"] for p in predictions]), model.predict(x), rtol=1e-5, atol=1e-6)
