"""tf.keras engine: layers, functional / sequential / subclassed models and their training loops."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


def _data(n=8):
    rng = np.random.RandomState(0)
    x = rng.randn(n, 3).astype("float32")
    y = rng.randn(n, 2).astype("float32")
    return x, y


def test_fit_matches_numpy_sgd_and_history_averages():
    x, y = _data(8)
    w0 = np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], "float32")
    b0 = np.array([0.01, -0.02], "float32")
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    model.set_weights([w0, b0])
    lr = 0.05
    model.compile(tf.train.GradientDescentOptimizer(lr), "mse")
    history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)

    w, b = w0.astype("float64"), b0.astype("float64")
    expected = []
    for _ in range(2):
        losses = []
        for start in range(0, 8, 4):
            xb, yb = x[start:start + 4].astype("float64"), y[start:start + 4].astype("float64")
            err = xb @ w + b - yb
            losses.append(np.mean(np.mean(err ** 2, axis=-1)))
            grad = 2 * err / err.size
            w, b = w - lr * xb.T @ grad, b - lr * grad.sum(0)
        expected.append(np.mean(losses))
    got_w, got_b = model.get_weights()
    np.testing.assert_allclose(got_w, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_b, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(history.history["loss"], expected, rtol=1e-5)
    assert history.epoch == [0, 1]
    assert list(history.history) == ["loss"]

    pred = model.predict(x, batch_size=3)
    np.testing.assert_allclose(pred, x @ w + b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.evaluate(x, y, batch_size=3, verbose=0),
                               np.mean((x @ w + b - y) ** 2), rtol=1e-5)


def test_history_weights_uneven_batches_by_size_and_names_metrics():
    x, y = _data(5)
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    model.compile(tf.train.GradientDescentOptimizer(0.0), "mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=2, epochs=1, shuffle=False, verbose=0, validation_data=(x, y))
    per_sample = np.mean((model.predict(x) - y) ** 2, axis=-1)
    np.testing.assert_allclose(history.history["loss"][0], per_sample.mean(), rtol=1e-5)
    np.testing.assert_allclose(history.history["val_loss"][0], per_sample.mean(), rtol=1e-5)
    assert list(history.history) == ["loss", "mean_absolute_error", "val_loss", "val_mean_absolute_error"]
    assert model.metrics_names == ["loss", "mean_absolute_error"]


def test_accuracy_is_named_acc_as_tf1_and_verbose_2_format(capsys):
    x = np.array([[0.0], [1.0], [2.0], [3.0]], "float32")
    y = np.array([0, 1, 0, 1], "float32")
    model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(1,),
                                                 kernel_initializer="zeros")])
    model.compile(tf.train.GradientDescentOptimizer(0.0), "binary_crossentropy", metrics=["acc", "accuracy"])
    history = model.fit(x, y, epochs=2, verbose=2, batch_size=2)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Train on 4 samples"
    assert out[1] == "Epoch 1/2"
    assert out[2] == " - 0s - loss: 0.6931 - acc: 0.5000"
    assert history.history["acc"] == [0.5, 0.5]
    assert model.metrics_names == ["loss", "acc"]  # 'accuracy' is also named 'acc' (TF 1.x), once


def test_fit_before_compile_and_bad_shapes():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    with pytest.raises(RuntimeError, match="You must compile your model before training/testing"):
        model.fit(np.ones((2, 3)), np.ones((2, 1)))
    model.compile(tf.train.GradientDescentOptimizer(0.1), "mse")
    with pytest.raises(ValueError, match=r"expected dense_input to have shape \(3,\) but got array with shape"):
        model.predict(np.ones((2, 5)))
    with pytest.raises(ValueError, match="Input arrays should have the same number of samples"):
        model.fit(np.ones((2, 3)), np.ones((3, 1)), verbose=0)
    dense = keras.layers.Dense(3)
    with pytest.raises(ValueError, match="You tried to call `count_params` on dense_1"):
        dense.count_params()
    dense(keras.Input((5,)))
    with pytest.raises(ValueError, match="Input 0 of layer dense_1 is incompatible with the layer"):
        dense(keras.Input((4,)))
    with pytest.raises(ValueError, match="with a weight list of length 1, but the layer was expecting 2"):
        dense.set_weights([np.ones((5, 3))])


def test_layer_names_and_weights():
    assert keras.layers.Flatten().name == "flatten"
    assert keras.layers.Flatten().name == "flatten_1"
    inp = keras.Input((4,))
    assert inp.name == "input_1:0"
    dense = keras.layers.Dense(3, name="d")
    out = dense(inp)
    assert [w.name for w in dense.weights] == ["d/kernel:0", "d/bias:0"]
    assert dense.count_params() == 15 and K.int_shape(out) == (None, 3)
    assert dense.get_config()["units"] == 3 and dense.input_shape == (None, 4) and dense.output_shape == (None, 3)
    frozen = keras.layers.Dense(2, trainable=False)
    frozen(out)
    assert frozen.trainable_weights == [] and len(frozen.non_trainable_weights) == 2


def test_functional_multi_io_shared_layer():
    a = keras.Input((3,), name="a")
    b = keras.Input((3,), name="b")
    shared = keras.layers.Dense(4, name="shared")
    o1 = keras.layers.Dense(1, name="o1")(shared(a))
    o2 = keras.layers.Dense(2, name="o2", activation="softmax")(shared(b))
    model = keras.Model([a, b], [o1, o2])
    assert [l.name for l in model.layers] == ["a", "b", "shared", "o1", "o2"]
    assert len(model.trainable_weights) == 6 and model.count_params() == 16 + 5 + 10
    model.compile(tf.train.GradientDescentOptimizer(0.1), ["mse", "categorical_crossentropy"],
                  loss_weights=[1.0, 0.5], metrics=["acc"])
    assert model.metrics_names == ["loss", "o1_loss", "o2_loss", "o1_acc", "o2_acc"]
    xa, xb = np.ones((4, 3), "float32"), np.zeros((4, 3), "float32")
    y1, y2 = np.ones((4, 1), "float32"), np.eye(2, dtype="float32")[[0, 1, 0, 1]]
    loss, l1, l2, _, _ = model.evaluate({"a": xa, "b": xb}, {"o1": y1, "o2": y2}, verbose=0)
    np.testing.assert_allclose(loss, l1 + 0.5 * l2, rtol=1e-5)
    history = model.fit([xa, xb], [y1, y2], epochs=1, verbose=0)
    assert set(history.history) == {"loss", "o1_loss", "o2_loss", "o1_acc", "o2_acc"}
    p1, p2 = model.predict([xa, xb])
    assert p1.shape == (4, 1) and p2.shape == (4, 2)


def test_calling_a_model_on_new_tensors_shares_weights():
    inp = keras.Input((3,))
    model = keras.Model(inp, keras.layers.Dense(2)(inp))
    new_in = keras.Input((3,))
    outer = keras.Model(new_in, keras.layers.Dense(1)(model(new_in)))
    assert len(outer.weights) == 4
    x = np.ones((2, 3), "float32")
    np.testing.assert_allclose(K.function([new_in], [model(new_in)])([x])[0], model.predict(x), rtol=1e-6)


def test_subclassed_model_trains():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = keras.layers.Dense(4, activation="relu")
            self.out = keras.layers.Dense(1)

        def call(self, inputs):
            return self.out(self.hidden(inputs))

    model = Net()
    assert model.name == "net"
    model.compile(tf.train.GradientDescentOptimizer(0.01), "mse")
    x, y = _data(8)
    y = y[:, :1]
    before = model.evaluate(x, y, verbose=0) if False else None
    history = model.fit(x, y, epochs=3, verbose=0, batch_size=8)
    assert before is None and len(history.history["loss"]) == 3
    assert len(model.trainable_weights) == 4
    assert model.predict(x).shape == (8, 1)


def test_dropout_only_in_training():
    inp = keras.Input((100,))
    model = keras.Model(inp, keras.layers.Dropout(0.5)(inp))
    x = np.ones((4, 100), "float32")
    np.testing.assert_array_equal(model.predict(x), x)
    f = K.function([inp, K.learning_phase()], [model.output])
    trained = f([x, 1])[0]
    assert set(np.unique(trained)) <= {0.0, 2.0} and (trained == 0).any()


def test_sequential_add_pop_and_core_layers():
    model = keras.Sequential()
    model.add(keras.layers.Reshape((2, 3), input_shape=(6,)))
    model.add(keras.layers.Permute((2, 1)))
    model.add(keras.layers.Flatten())
    model.add(keras.layers.RepeatVector(2))
    model.add(keras.layers.Lambda(lambda t, k: t * k, arguments={"k": 2.0}))
    model.add(keras.layers.Activation("relu"))
    assert K.int_shape(model.output) == (None, 2, 6)
    x = np.arange(12, dtype="float32").reshape(2, 6) - 3
    ref = np.maximum(2 * np.repeat(x.reshape(2, 2, 3).transpose(0, 2, 1).reshape(2, 1, 6), 2, axis=1), 0)
    np.testing.assert_allclose(model.predict(x), ref)
    model.pop()
    assert len(model.layers) == 5 and K.int_shape(model.output) == (None, 2, 6)


def test_deferred_sequential_builds_from_data_and_train_on_batch():
    model = keras.Sequential([keras.layers.Dense(2), keras.layers.Dense(1)])
    model.compile(tf.train.GradientDescentOptimizer(0.1), "mse", metrics=["mse"])
    x, y = _data(4)
    loss, mse = model.train_on_batch(x, y[:, :1])
    np.testing.assert_allclose(loss, mse, rtol=1e-6)
    assert model.built and len(model.weights) == 4
    assert np.isscalar(model.test_on_batch(x, y[:, :1])[0])
    assert model.predict_on_batch(x).shape == (4, 1)


def test_sample_weight_and_regularization_loss():
    from tensorweave.keras import regularizers
    x, y = _data(4)
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), kernel_regularizer=regularizers.l2(0.1))])
    model.compile(tf.train.GradientDescentOptimizer(0.0), "mse")
    w = model.get_weights()[0]
    sw = np.array([1.0, 0.0, 2.0, 1.0], "float32")
    per_sample = np.mean((model.predict(x) - y) ** 2, axis=-1)
    got = model.evaluate(x, y, sample_weight=sw, verbose=0, batch_size=4)
    np.testing.assert_allclose(got, np.mean(per_sample * sw) + 0.1 * np.sum(w ** 2), rtol=1e-5)


def test_sparse_labels_class_weight_match_tf_keras():
    # Reference values from tf-keras 2.21 in TF1 graph mode (training_v1), same data and weights.
    x = np.arange(10, dtype="float32").reshape(5, 2) / 10
    y = np.array([0, 1, 2, 1, 0])
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(2,),
                                                 kernel_initializer="ones")])
    model.compile(tf.train.GradientDescentOptimizer(0.1), "sparse_categorical_crossentropy", metrics=["accuracy"])
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), [1.0986123, 0.4], rtol=1e-5)
    history = model.fit(x, y, epochs=1, batch_size=2, verbose=0, shuffle=False, class_weight={0: 1., 1: 2., 2: 0.5})
    np.testing.assert_allclose(history.history["loss"], [1.4275601], rtol=1e-5)
    np.testing.assert_allclose(model.get_weights()[1], [0.02873813, 0.06520604, -0.09394417], rtol=1e-4)


def test_callbacks_see_batches_and_can_stop_training():
    from tensorweave.keras import callbacks

    class Recorder(callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.events = []

        def on_batch_end(self, batch, logs=None):
            self.events.append(("batch", batch, logs["size"]))

        def on_epoch_end(self, epoch, logs=None):
            self.events.append(("epoch", epoch, round(logs["loss"], 6) == round(logs["loss"], 6)))
            self.model.stop_training = True

    rec = Recorder()
    x, y = _data(5)
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    model.compile(tf.train.GradientDescentOptimizer(0.1), "mse")
    history = model.fit(x, y, batch_size=2, epochs=5, verbose=0, callbacks=[rec], validation_split=0.2)
    assert rec.events == [("batch", 0, 2), ("batch", 1, 2), ("epoch", 0, True)]
    assert history.params["samples"] == 4 and history.params["do_validation"]
    assert sorted(history.history) == ["loss", "val_loss"]


def test_summary_format(capsys):
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,)), keras.layers.Dense(1)])
    model.summary()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == 'Model: "sequential"'
    assert lines[2] == "Layer (type)                 Output Shape              Param #   "
    assert lines[4] == "dense (Dense)                (None, 2)                 8         "
    assert lines[-4:] == ["Total params: 11", "Trainable params: 11", "Non-trainable params: 0", "_" * 65]
    with pytest.raises(ValueError, match="This model has not yet been built"):
        keras.Sequential([keras.layers.Dense(1)]).summary()


def test_config_round_trips():
    a = keras.Input((3,), name="a")
    b = keras.Input((3,), name="b")
    shared = keras.layers.Dense(4, name="sh", activation="relu")
    outputs = [keras.layers.Dense(1, name="o1")(shared(a)), keras.layers.Dense(2, name="o2")(shared(b))]
    model = keras.Model([a, b], outputs)
    clone = keras.Model.from_config(model.get_config())
    assert [l.name for l in clone.layers] == ["a", "b", "sh", "o1", "o2"]
    assert clone.count_params() == model.count_params() == 16 + 5 + 10
    seq = keras.Sequential([keras.layers.Dense(2, input_shape=(3,)), keras.layers.Dropout(0.2)])
    assert keras.Sequential.from_config(seq.get_config()).get_config() == seq.get_config()

    def make(k):
        return keras.layers.Lambda(lambda t: t * k)

    with pytest.raises(ValueError, match="Requested the deserialization of a Lambda layer with a Python `lambda`"):
        keras.layers.Lambda.from_config(make(3.0).get_config())
    layer = keras.layers.Lambda.from_config(make(3.0).get_config(), safe_mode=False)
    inp = keras.Input((2,))
    np.testing.assert_allclose(keras.Model(inp, layer(inp)).predict(np.ones((1, 2))), [[3.0, 3.0]])


def test_keras_layer_in_plain_tf_graph():
    x = tf.placeholder(tf.float32, [None, 3])
    y = keras.layers.Dense(2, kernel_initializer="ones")(x)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(y, {x: np.ones((1, 3))}), [[3.0, 3.0]])


def test_temporal_sample_weights_and_activity_regularizer():
    rng = np.random.RandomState(2)
    x = rng.randn(3, 4, 2).astype("float32")
    y = rng.randn(3, 4, 1).astype("float32")
    sw = rng.rand(3, 4).astype("float32")
    inp = keras.Input((4, 2))
    model = keras.Model(inp, keras.layers.Dense(1, activity_regularizer=lambda t: 0.5 * K.sum(K.square(t)))(inp))
    model.compile(tf.train.GradientDescentOptimizer(0.0), "mse", sample_weight_mode="temporal")
    pred = model.predict(x)
    expected = np.mean(np.mean((pred - y) ** 2, -1) * sw) + 0.5 * np.sum(pred ** 2) / 3
    np.testing.assert_allclose(model.evaluate(x, y, sample_weight=sw, verbose=0), expected, rtol=1e-5)


def test_graph_errors():
    a = keras.Input((2,))
    b = keras.Input((2,))
    out = keras.layers.Dense(1)(b)
    with pytest.raises(ValueError, match="Graph disconnected"):
        keras.Model(a, keras.layers.Lambda(lambda t: t)(out))
    with pytest.raises(ValueError, match="must come from `tf.keras.Input`"):
        keras.Model(tf.placeholder(tf.float32, [None, 2]), out)
    with pytest.raises(ValueError, match="All layers added to a Sequential model should have unique names"):
        keras.Sequential([keras.layers.Dense(1, name="x", input_shape=(2,)), keras.layers.Dense(1, name="x")])


def test_model_weights_are_listed_layer_by_layer_as_tf_1_15():
    from tensorweave import keras
    keras.backend.clear_session()
    m = keras.Sequential([keras.layers.Dense(3, input_shape=(2,)), keras.layers.BatchNormalization(),
                          keras.layers.Dense(1)])
    # tf-keras (and TF 1.15's Network.weights) give this order; get_weights/set_weights follow it.
    assert [w.name for w in m.weights] == [
        "dense/kernel:0", "dense/bias:0", "batch_normalization/gamma:0", "batch_normalization/beta:0",
        "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0", "dense_1/kernel:0",
        "dense_1/bias:0"]
    assert [w.name for w in m.trainable_weights] == [
        "dense/kernel:0", "dense/bias:0", "batch_normalization/gamma:0", "batch_normalization/beta:0",
        "dense_1/kernel:0", "dense_1/bias:0"]
    values = [np.full(w.shape, i, np.float32) for i, w in enumerate(m.get_weights())]
    m.set_weights(values)
    assert [float(v.flat[0]) for v in m.get_weights()] == list(range(8))
