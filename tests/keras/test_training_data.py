"""tf.keras training over tf.data datasets, generators and `keras.utils.Sequence` (fit / evaluate /
predict and the `*_generator` methods), class and temporal sample weights, `validation_freq`, and
`fit`'s cleanup when training raises; values checked against array training and NumPy."""

import json
import logging
import os
import threading

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K

with open(os.path.join(os.path.dirname(__file__), "..", "data", "keras_training_tf.json")) as _f:
    GOLDEN = json.load(_f)  # tests/data/make_keras_training_tf.py: tf-keras on TF 2.21, graph mode


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


W0 = np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], "float32")
B0 = np.array([0.01, -0.02], "float32")


def _data(n=8):
    rng = np.random.RandomState(0)
    return rng.randn(n, 3).astype("float32"), rng.randn(n, 2).astype("float32")


def _model(metrics=None, lr=0.05):
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), name="dense")])
    model.set_weights([W0, B0])
    model.compile(tf.train.GradientDescentOptimizer(lr), "mse", metrics=metrics)
    return model


def _array_fit(x, y, epochs=2, batch_size=4, **kwargs):
    model = _model(**kwargs)
    history = model.fit(x, y, batch_size=batch_size, epochs=epochs, shuffle=False, verbose=0)
    return model.get_weights(), history.history


def _loop(x, y, batch_size=4):
    while True:
        for start in range(0, len(x), batch_size):
            yield x[start:start + batch_size], y[start:start + batch_size]


class _Batches(keras.utils.Sequence):
    def __init__(self, x, y, batch_size=4):
        self.x, self.y, self.batch_size = x, y, batch_size
        self.calls, self.epoch_ends = [], 0

    def __len__(self):
        return int(np.ceil(len(self.x) / self.batch_size))

    def __getitem__(self, i):
        self.calls.append(i)
        s = slice(i * self.batch_size, (i + 1) * self.batch_size)
        return self.x[s], self.y[s]

    def on_epoch_end(self):
        self.epoch_ends += 1


def _assert_same(weights, history, ref_weights, ref_history):
    for a, b in zip(weights, ref_weights):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    assert sorted(history) == sorted(ref_history)
    for k in ref_history:
        np.testing.assert_allclose(history[k], ref_history[k], rtol=1e-6)


# ---- generators ------------------------------------------------------------------------------
@pytest.mark.parametrize("workers", [0, 1])
def test_generator_fit_equals_array_fit_with_the_same_batches(workers):
    x, y = _data(8)
    ref_w, ref_h = _array_fit(x, y, metrics=["mae"])
    model = _model(metrics=["mae"])
    history = model.fit(_loop(x, y), steps_per_epoch=2, epochs=2, verbose=0, workers=workers)
    assert isinstance(history, keras.callbacks.History) and history is model.history
    _assert_same(model.get_weights(), history.history, ref_w, ref_h)
    assert not [t for t in threading.enumerate() if t.name.startswith("keras_generator")]


def test_fit_generator_evaluate_generator_predict_generator():
    x, y = _data(8)
    ref_w, ref_h = _array_fit(x, y)
    model = _model()
    history = model.fit_generator(_loop(x, y), steps_per_epoch=2, epochs=2, verbose=0, max_queue_size=1)
    _assert_same(model.get_weights(), history.history, ref_w, ref_h)
    w, b = model.get_weights()
    expected = np.mean((x @ w + b - y) ** 2)
    np.testing.assert_allclose(model.evaluate_generator(_loop(x, y), steps=2), expected, rtol=1e-5)
    pred = model.predict_generator((xb for xb, _ in _loop(x, y)), steps=2)
    np.testing.assert_allclose(pred, x @ w + b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.predict(_loop(x, y), steps=2), x @ w + b, rtol=1e-5, atol=1e-6)


def test_evaluate_generator_averages_over_samples_with_uneven_batches():
    x, y = _data(5)
    model = _model()
    w, b = model.get_weights()
    gen = ((x[s:s + 2], y[s:s + 2]) for s in (0, 2, 4))
    np.testing.assert_allclose(model.evaluate(gen, steps=3, verbose=0), np.mean((x @ w + b - y) ** 2), rtol=1e-5)


def test_generator_with_several_threads_trains_on_every_batch_once():
    x, y = _data(16)
    batches = [(x[i:i + 2], y[i:i + 2]) for i in range(0, 16, 2)]
    model = _model(lr=0.0)
    seen = []

    class Record(keras.callbacks.Callback):
        def on_batch_end(self, batch, logs=None):
            seen.append(logs["loss"])

    model.fit(iter(batches), steps_per_epoch=8, epochs=1, verbose=0, workers=3, callbacks=[Record()])
    expected = sorted(float(model.evaluate(xb, yb, verbose=0)) for xb, yb in batches)
    np.testing.assert_allclose(sorted(seen), expected, rtol=1e-5)


def test_generator_running_out_stops_training_with_a_warning(caplog):
    x, y = _data(8)
    model = _model()
    gen = ((x[s:s + 4], y[s:s + 4]) for s in (0, 4, 0))
    with caplog.at_level(logging.WARNING):
        history = model.fit(gen, steps_per_epoch=2, epochs=3, verbose=0)
    assert history.epoch == [0, 1]
    assert "ran out of data" in caplog.text and "6 batches" in caplog.text


def test_generator_errors():
    x, y = _data(8)
    model = _model()
    with pytest.raises(ValueError, match=r"Please specify the number of steps via the `steps_per_epoch` argument"):
        model.fit(_loop(x, y), epochs=1, verbose=0)
    with pytest.raises(ValueError, match=r"Please specify the number of steps via the `steps` argument"):
        model.evaluate(_loop(x, y), verbose=0)
    with pytest.raises(ValueError, match=r"Please specify the number of steps via the `steps` argument"):
        model.predict_generator(_loop(x, y))
    with pytest.raises(ValueError, match=r"Please specify the `validation_steps` argument"):
        model.fit(_loop(x, y), steps_per_epoch=1, validation_data=_loop(x, y), verbose=0)
    with pytest.raises(ValueError, match=r"`y` argument is not supported when data is a generator"):
        model.fit(_loop(x, y), y, steps_per_epoch=1, verbose=0)
    with pytest.raises(ValueError, match=r"`sample_weight` argument is not supported when data is a generator"):
        model.fit(_loop(x, y), sample_weight=np.ones(8), steps_per_epoch=1, verbose=0)
    with pytest.raises(ValueError, match=r"you cannot use `validation_split`"):
        model.fit(_loop(x, y), validation_split=0.5, steps_per_epoch=1, verbose=0)
    with pytest.raises(ValueError, match=r"Output of generator should be a tuple of 1 or 2 or 3 elements"):
        model.fit(iter([(x, y, None, None)]), steps_per_epoch=1, verbose=0)
    with pytest.raises(ValueError, match=r"The data must give targets to train the model"):
        model.fit(iter([x]), steps_per_epoch=1, verbose=0)
    with pytest.raises(ValueError, match=r"The data must give targets to evaluate the model"):
        model.evaluate(iter([x]), steps=1, verbose=0)
    with pytest.raises(ValueError, match=r"The data gave no batch to evaluate the model on"):
        model.evaluate(iter([]), steps=1, verbose=0)
    with pytest.raises(ValueError, match=r"has no batches \(its `__len__` is 0\)"):
        model.fit(_Batches(x[:0], y[:0]), verbose=0)
    with pytest.raises(ValueError, match=r"`fit_generator` expects a generator, a `keras.utils.Sequence`"):
        model.fit_generator(x, steps_per_epoch=1)
    with pytest.raises(ValueError, match=r"`evaluate_generator` expects a generator"):
        model.evaluate_generator([x, y], steps=1)
    with pytest.raises(ValueError, match=r"`predict_generator` expects a generator"):
        model.predict_generator(x, steps=1)
    with pytest.raises(NotImplementedError, match=r"Callbacks in `evaluate`"):
        model.evaluate(x, y, callbacks=[keras.callbacks.Callback()], verbose=0)
    with pytest.raises(NotImplementedError, match=r"Callbacks in `predict`"):
        model.predict(x, callbacks=[keras.callbacks.Callback()])


def test_fit_runs_on_train_end_and_ends_threads_when_training_raises():
    x, y = _data(8)
    model = _model()
    events = []

    def gen():
        yield x[:4], y[:4]
        yield x[4:], y[4:]
        raise RuntimeError("broken generator")

    class Record(keras.callbacks.Callback):
        def on_train_end(self, logs=None):
            events.append("end")

    with pytest.raises(RuntimeError, match="broken generator"):
        model.fit(gen(), steps_per_epoch=2, epochs=3, verbose=0, callbacks=[Record()])
    assert events == ["end"]
    assert not [t for t in threading.enumerate() if t.name.startswith("keras_generator")]

    class Boom(keras.callbacks.Callback):
        def on_batch_end(self, batch, logs=None):
            if batch == 1:
                raise KeyError("callback failure")

    with pytest.raises(KeyError, match="callback failure"):
        model.fit(_loop(x, y, 2), steps_per_epoch=4, verbose=0, workers=2, max_queue_size=2,
                  callbacks=[Boom(), Record()])
    assert events == ["end", "end"]
    assert not [t for t in threading.enumerate() if t.name.startswith("keras_generator")]


# ---- Sequence --------------------------------------------------------------------------------
@pytest.mark.parametrize("workers", [0, 1, 3])
def test_sequence_fit_equals_array_fit_and_calls_on_epoch_end(workers):
    x, y = _data(8)
    ref_w, ref_h = _array_fit(x, y, epochs=3)
    model = _model()
    seq = _Batches(x, y)
    history = model.fit(seq, epochs=3, verbose=0, shuffle=False, workers=workers, use_multiprocessing=True)
    _assert_same(model.get_weights(), history.history, ref_w, ref_h)
    assert seq.epoch_ends == 3
    assert sorted(seq.calls) == [0, 0, 0, 1, 1, 1]
    assert not [t for t in threading.enumerate() if t.name.startswith("keras_sequence")]


def test_sequence_shuffle_visits_every_batch_once_per_epoch():
    x, y = _data(16)
    seq = _Batches(x, y, batch_size=2)
    _model().fit(seq, epochs=4, verbose=0, shuffle=True)
    passes = [seq.calls[i * 8:(i + 1) * 8] for i in range(4)]
    assert all(sorted(p) == list(range(8)) for p in passes)
    assert any(p != list(range(8)) for p in passes)
    assert seq.epoch_ends == 4


def test_sequence_evaluate_predict_and_validation():
    x, y = _data(8)
    model = _model()
    w, b = model.get_weights()
    np.testing.assert_allclose(model.evaluate(_Batches(x, y), verbose=0), np.mean((x @ w + b - y) ** 2), rtol=1e-5)
    np.testing.assert_allclose(model.predict(_Batches(x, y)), x @ w + b, rtol=1e-5, atol=1e-6)
    ref = _model()
    ref_hist = ref.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0, validation_data=(x, y))
    hist = model.fit(_Batches(x, y), epochs=2, shuffle=False, verbose=0, validation_data=_Batches(x, y))
    _assert_same(model.get_weights(), hist.history, ref.get_weights(), ref_hist.history)


# ---- tf.data ---------------------------------------------------------------------------------
def test_dataset_fit_evaluate_predict_equal_array_versions():
    x, y = _data(8)
    ref_w, ref_h = _array_fit(x, y, epochs=3, metrics=["mae"])
    model = _model(metrics=["mae"])
    history = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(4), epochs=3, verbose=0)
    _assert_same(model.get_weights(), history.history, ref_w, ref_h)
    w, b = model.get_weights()
    loss = np.mean((x @ w + b - y) ** 2)
    evaluated = model.evaluate(tf.data.Dataset.from_tensor_slices((x, y)).batch(3), verbose=0)
    np.testing.assert_allclose(evaluated, [loss, np.mean(np.abs(x @ w + b - y))], rtol=1e-5)
    pred = model.predict(tf.data.Dataset.from_tensor_slices(x).batch(3))
    np.testing.assert_allclose(pred, x @ w + b, rtol=1e-5, atol=1e-6)


def test_repeated_dataset_with_steps_and_dict_inputs_by_name():
    x, y = _data(8)
    ref_w, ref_h = _array_fit(x, y, epochs=2)
    inp = keras.Input((3,), name="features")
    out = keras.layers.Dense(2, name="dense")(inp)
    model = keras.Model(inp, out)
    model.set_weights([W0, B0])
    model.compile(tf.train.GradientDescentOptimizer(0.05), "mse")
    ds = tf.data.Dataset.from_tensor_slices(({"features": x}, y)).batch(4).repeat()
    history = model.fit(ds, steps_per_epoch=2, epochs=2, verbose=0)
    _assert_same(model.get_weights(), history.history, ref_w, ref_h)


def test_dataset_validation_with_sample_weights_and_validation_freq():
    x, y = _data(8)
    sw = np.linspace(0.5, 2.0, 8).astype("float32")
    model = _model(lr=0.0)
    val = tf.data.Dataset.from_tensor_slices((x, y, sw)).batch(8).repeat()
    history = model.fit(x, y, epochs=4, verbose=0, validation_data=val, validation_steps=1, validation_freq=2)
    w, b = model.get_weights()
    expected = np.mean(np.mean((x @ w + b - y) ** 2, axis=-1) * sw)
    assert len(history.history["loss"]) == 4 and len(history.history["val_loss"]) == 2
    np.testing.assert_allclose(history.history["val_loss"], [expected] * 2, rtol=1e-5)
    seen = []

    class Record(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            seen.append("val_loss" in logs)

    model.fit(x, y, epochs=4, verbose=0, validation_data=(x, y), validation_freq=[1, 4], callbacks=[Record()])
    assert seen == [True, False, False, True]


def test_dataset_errors():
    x, y = _data(8)
    model = _model()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    with pytest.raises(ValueError, match=r"When passing an infinitely repeating dataset, you must specify the "
                                         r"`steps_per_epoch` argument"):
        model.fit(ds.repeat(), verbose=0)
    with pytest.raises(ValueError, match=r"infinitely repeating dataset, you must specify the `steps` argument"):
        model.evaluate(ds.repeat(), verbose=0)
    with pytest.raises(ValueError, match=r"The dataset you passed contains 2 batches, but you passed `epochs=2` and "
                                         r"`steps_per_epoch=2`, which is a total of 4 steps"):
        model.fit(ds, steps_per_epoch=2, epochs=2, verbose=0)
    with pytest.raises(ValueError, match=r"contains 2 batches, but you passed `steps=3`"):
        model.evaluate(ds, steps=3, verbose=0)
    with pytest.raises(ValueError, match=r"you should not specify a target \(`y`\) argument"):
        model.fit(ds, y, verbose=0)
    with pytest.raises(ValueError, match=r"`sample_weight` argument is not supported when input `x` is a dataset"):
        model.fit(ds, sample_weight=np.ones(8), verbose=0)
    with pytest.raises(ValueError, match=r"`validation_split` argument is not supported when input `x` is a "
                                         r"dataset"):
        model.fit(ds, validation_split=0.25, verbose=0)
    with pytest.raises(ValueError, match=r"When using a Dataset iterator as input to a model, you should specify "
                                         r"the `steps` argument"):
        model.evaluate(ds.make_one_shot_iterator(), verbose=0)
    with pytest.raises(ValueError, match=r"`validation_freq` can not be less than 1"):
        model.fit(x, y, validation_data=(x, y), validation_freq=0, verbose=0)
    with pytest.raises(ValueError, match=r"`validation_freq` must be an Integer or `collections.abc.Container`"):
        model.fit(x, y, validation_data=(x, y), validation_freq=1.5, verbose=0)


def test_dataset_iterator_persists_across_epochs():
    x, y = _data(8)
    ref_w, ref_h = _array_fit(x, y, epochs=2)
    model = _model()
    iterator = tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat(2).make_one_shot_iterator()
    history = model.fit(iterator, steps_per_epoch=2, epochs=2, verbose=0)
    _assert_same(model.get_weights(), history.history, ref_w, ref_h)


# ---- weights -----------------------------------------------------------------------------------
def test_class_weight_loss_by_hand_for_arrays_and_generators():
    x = np.array([[0.0], [1.0], [2.0], [3.0]], "float32")
    y = np.array([0, 1, 2, 1])
    kernel = np.array([[0.1, -0.2, 0.3]], "float32")
    bias = np.array([0.0, 0.1, -0.1], "float32")
    class_weight = {0: 1.0, 1: 2.0, 2: 0.5}

    def build():
        model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(1,))])
        model.set_weights([kernel, bias])
        model.compile(tf.train.GradientDescentOptimizer(0.0), "sparse_categorical_crossentropy")
        return model

    logits = x @ kernel + bias
    p = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    ce = -np.log(p[np.arange(4), y])
    expected = np.mean(ce * np.array([class_weight[c] for c in y]))
    np.testing.assert_allclose(GOLDEN["class_weight_loss"], expected, rtol=1e-6)
    loss = build().fit(x, y, batch_size=4, epochs=1, verbose=0, class_weight=class_weight).history["loss"][0]
    np.testing.assert_allclose(loss, expected, rtol=1e-5)
    gen_loss = build().fit(iter([(x, y)]), steps_per_epoch=1, verbose=0, class_weight=class_weight)
    np.testing.assert_allclose(gen_loss.history["loss"][0], expected, rtol=1e-5)
    with pytest.raises(ValueError, match=r"`class_weight` must contain all classes in the data"):
        build().fit(x, y, verbose=0, class_weight={0: 1.0, 1: 2.0})


def test_temporal_sample_weights_loss_by_hand():
    rng = np.random.RandomState(1)
    x = rng.randn(3, 4, 2).astype("float32")
    y = rng.randn(3, 4, 5).astype("float32")
    sw = np.array([[1, 1, 0, 0], [1, 1, 1, 0], [2, 0.5, 1, 1]], "float32")
    inp = keras.Input((4, 2))
    model = keras.Model(inp, keras.layers.Dense(5)(inp))
    model.compile(tf.train.GradientDescentOptimizer(0.0), "mse", sample_weight_mode="temporal")
    w, b = np.arange(10, dtype="float32").reshape(2, 5) / 10.0, np.full(5, 0.1, "float32")
    model.set_weights([w, b])
    per_step = np.mean((x @ w + b - y) ** 2, axis=-1)
    expected = np.mean(per_step * sw)  # over all timesteps, zero weights included
    np.testing.assert_allclose(GOLDEN["temporal_loss"], expected, rtol=1e-6)
    loss = model.fit(x, y, sample_weight=sw, batch_size=3, verbose=0).history["loss"][0]
    np.testing.assert_allclose(loss, expected, rtol=1e-5)
    ds = tf.data.Dataset.from_tensor_slices((x, y, sw)).batch(3)
    np.testing.assert_allclose(model.evaluate(ds, verbose=0), expected, rtol=1e-5)


def test_dataset_of_unknown_size_is_read_to_its_end_each_epoch(capsys):
    x, y = _data(8)
    ref_w, ref_h = _array_fit(x, y, epochs=2)
    model = _model()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: (a, b)).batch(4)  # map: size unknown
    history = model.fit(ds, epochs=2, verbose=1)
    _assert_same(model.get_weights(), history.history, ref_w, ref_h)
    out = capsys.readouterr().out
    assert "1/Unknown" in out and "2/2 [==============================]" in out
    w, b = model.get_weights()
    np.testing.assert_allclose(model.evaluate(ds, verbose=1), np.mean((x @ w + b - y) ** 2), rtol=1e-5)
    assert "2/2 [==============================]" in capsys.readouterr().out
    np.testing.assert_allclose(model.predict(ds), x @ w + b, rtol=1e-5, atol=1e-6)


def test_numpy_inputs_without_targets_raise():
    x, _ = _data(4)
    model = _model()
    for call in (lambda: model.fit(x, verbose=0), lambda: model.evaluate(x, verbose=0),
                 lambda: model.train_on_batch(x), lambda: model.test_on_batch(x)):
        with pytest.raises(ValueError, match=r"No target data \(`y`\) was given"):
            call()


def test_subclassed_model_is_built_by_the_first_generator_batch():
    x, y = _data(8)

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(2)

        def call(self, inputs):
            return self.dense(inputs)

    model = Sub()
    model.compile(tf.train.GradientDescentOptimizer(0.0), "mse")
    history = model.fit(_loop(x, y), steps_per_epoch=2, epochs=1, verbose=0)
    w, b = model.get_weights()
    expected = np.mean((x @ w + b - y) ** 2)
    np.testing.assert_allclose(history.history["loss"][0], expected, rtol=1e-5)
    np.testing.assert_allclose(model.evaluate(_Batches(x, y), verbose=0), expected, rtol=1e-5)
    np.testing.assert_allclose(model.predict(_Batches(x, y)), x @ w + b, rtol=1e-5, atol=1e-6)
