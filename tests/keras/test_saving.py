"""tf.keras model files: HDF5 save/load (tf.keras' layout, goldens written by tf-keras), save_weights /
load_weights (HDF5 and TF checkpoints with object-based keys), model_from_json, clone_model, ModelCheckpoint.

The goldens come from tests/data/make_keras_h5_tf.py. With TW_KERAS_H5_EXPORT=DIR, `test_export_for_tf_check`
also writes tensorweave's files to DIR for that script's `--check` mode (loading them in tf-keras).
"""

import builtins
import json
import os
import sys

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K
from tensorweave.keras import callbacks as cbks

h5py = pytest.importorskip("h5py")

L = keras.layers
DATA = os.path.join(os.path.dirname(__file__), "..", "data", "keras_h5")


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


@pytest.fixture(scope="module")
def gold():
    with np.load(os.path.join(DATA, "expected.npz")) as f:
        return dict(f)


def _names(attr):
    return [n.decode("utf8") if isinstance(n, bytes) else n for n in attr]


def _path(name):
    return os.path.join(DATA, name)


def _seq_mlp():
    return keras.Sequential([L.Dense(8, activation="relu", input_shape=(4,), name="hidden"),
                             L.Dense(3, activation="softmax", name="probs")])


def _functional():
    img = keras.Input((6, 6, 1), name="img")
    tok = keras.Input((5,), dtype="int32", name="tok")
    x = L.Conv2D(2, 3, activation="relu", name="conv")(img)
    x = L.BatchNormalization(name="bn")(x)
    x = L.Flatten(name="flat_img")(x)
    x = L.Dropout(0.5, name="drop")(x)
    out0 = L.Dense(3, name="out_img")(x)
    e = L.Embedding(10, 4, name="emb")(tok)
    e = L.Flatten(name="flat_tok")(e)
    out1 = L.Dense(2, activation="tanh", name="out_tok")(e)
    return keras.Model([img, tok], [out0, out1], name="two_inputs")


def _small(name="small", units=(3, 2), input_dim=4):
    inputs = keras.Input((input_dim,), name=name + "_in")
    x = inputs
    for i, u in enumerate(units):
        x = L.Dense(u, activation="tanh", name="%s_d%d" % (name, i))(x)
    return keras.Model(inputs, x, name=name)


def _rand_weights(model, seed=0):
    rng = np.random.RandomState(seed)
    model.set_weights([rng.randn(*w.shape).astype(w.dtype) for w in model.get_weights()])
    return model.get_weights()


# ---- goldens written by tf-keras -----------------------------------------------------------------------

def test_golden_sequential_model_predicts_and_continues_training(gold):
    model = keras.models.load_model(_path("seq_mlp.h5"))
    assert isinstance(model, keras.Sequential) and [l.name for l in model.layers] == ["hidden", "probs"]
    np.testing.assert_allclose(model.predict(gold["mlp_x"]), gold["seq_pred"], rtol=1e-5, atol=1e-6)
    assert type(model.optimizer).__name__ == "Adam"
    assert model.metrics_names == ["loss", "acc"]
    np.testing.assert_allclose(K.get_value(model.optimizer.lr), 0.01, rtol=1e-6)
    # The next step uses the restored Adam moments and iteration count: tf-keras' numbers.
    loss, _ = model.train_on_batch(gold["mlp_x"], gold["mlp_y"])
    np.testing.assert_allclose(loss, gold["seq_loss2"], rtol=1e-5)
    np.testing.assert_allclose(model.predict(gold["mlp_x"]), gold["seq_pred2"], rtol=1e-5, atol=1e-6)
    assert K.get_value(model.optimizer.iterations) == 2


def test_golden_functional_model(gold):
    model = keras.models.load_model(_path("functional.h5"))
    assert model.name == "two_inputs" and model.input_names == ["img", "tok"]
    assert model.output_names == ["out_img", "out_tok"]
    p0, p1 = model.predict([gold["img"], gold["tok"]])
    np.testing.assert_allclose(p0, gold["fun_pred0"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(p1, gold["fun_pred1"], rtol=1e-5, atol=1e-6)
    assert model.loss == ["mse", "mae"] and model.loss_weights == [1.0, 0.5]
    # The Embedding branch trains deterministically (the other one has Dropout): SGD momentum restored.
    losses = model.train_on_batch([gold["img"], gold["tok"]], [gold["f_y0"], gold["f_y1"]])
    np.testing.assert_allclose(losses[2], gold["fun_losses2"][2], rtol=1e-5)
    np.testing.assert_allclose(model.predict([gold["img"], gold["tok"]])[1], gold["fun_after1"], rtol=1e-5,
                               atol=1e-6)


def test_golden_weights_only_files(gold):
    model = _seq_mlp()
    assert model.load_weights(_path("seq_mlp_weights.h5")) is None
    np.testing.assert_allclose(model.predict(gold["mlp_x"]), gold["seq_pred"], rtol=1e-5, atol=1e-6)
    model = _functional()
    model.load_weights(_path("functional_weights.h5"))
    p0, p1 = model.predict([gold["img"], gold["tok"]])
    np.testing.assert_allclose(p0, gold["fun_pred0"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(p1, gold["fun_pred1"], rtol=1e-5, atol=1e-6)
    # A whole-model file also serves as a weights file.
    model = _seq_mlp()
    model.load_weights(_path("seq_mlp.h5"))
    np.testing.assert_allclose(model.predict(gold["mlp_x"]), gold["seq_pred"], rtol=1e-5, atol=1e-6)


def test_golden_tf_format_checkpoint(gold):
    model = _seq_mlp()
    status = model.load_weights(_path("seq_mlp_ckpt"))
    np.testing.assert_allclose(model.predict(gold["mlp_x"]), gold["seq_pred"], rtol=1e-5, atol=1e-6)
    # The checkpoint's optimizer entries are not the model's: everything of the model is consumed.
    assert status.assert_consumed() is status and len(status.matched) == 4
    with pytest.raises(NotImplementedError, match="by_name=True"):
        model.load_weights(_path("seq_mlp_ckpt"), by_name=True)
    # Into a compiled model, the checkpoint's Adam state is restored too: tf-keras' next step.
    K.clear_session()
    model = _seq_mlp()
    model.compile(keras.optimizers.Adam(0.01), "categorical_crossentropy", metrics=["acc"])
    model.load_weights(_path("seq_mlp_ckpt")).assert_consumed()
    assert K.get_value(model.optimizer.iterations) == 1
    loss, _ = model.train_on_batch(gold["mlp_x"], gold["mlp_y"])
    np.testing.assert_allclose(loss, gold["seq_loss2"], rtol=1e-5)
    np.testing.assert_allclose(model.predict(gold["mlp_x"]), gold["seq_pred2"], rtol=1e-5, atol=1e-6)


def test_golden_model_config_is_read_into_tensorweave_layers():
    with h5py.File(_path("functional.h5"), "r") as f:
        config = json.loads(f.attrs["model_config"])
    assert config["class_name"] == "Functional"
    model = keras.models.model_from_config(config)
    assert [type(l).__name__ for l in model.layers] == [
        "InputLayer", "Conv2D", "BatchNormalization", "InputLayer", "Flatten", "Embedding", "Dropout", "Flatten",
        "Dense", "Dense"]
    assert model.get_layer("bn").axis == 3 and model.get_layer("tok").dtype == "int32"
    # tf-keras 2.x only keys with a non-neutral value are refused.
    conv = [l for l in config["config"]["layers"] if l["name"] == "conv"][0]
    conv["config"]["groups"] = 2
    with pytest.raises(ValueError, match=r"Layer conv \(Conv2D\) has groups=2, which is not supported"):
        keras.models.model_from_config(config)


# ---- whole-model round trips ---------------------------------------------------------------------------

@pytest.mark.parametrize("optimizer", ["adam", "sgd_momentum", "rmsprop", "adagrad", "adadelta", "adamax", "nadam"])
def test_save_load_continue_training_equals_uninterrupted(tmp_path, optimizer):
    make = {"adam": lambda: keras.optimizers.Adam(0.01), "sgd_momentum": lambda: keras.optimizers.SGD(0.1, 0.9),
            "rmsprop": lambda: keras.optimizers.RMSprop(0.01, centered=True, momentum=0.5),
            "adagrad": lambda: keras.optimizers.Adagrad(0.1), "adadelta": lambda: keras.optimizers.Adadelta(1.0),
            "adamax": lambda: keras.optimizers.Adamax(0.01), "nadam": lambda: keras.optimizers.Nadam(0.01)}[optimizer]
    rng = np.random.RandomState(1)
    x, y = rng.randn(6, 4).astype("float32"), rng.randn(6, 2).astype("float32")

    def build():
        model = _small()
        model.compile(make(), "mse", metrics=["mae"])
        return model

    straight = build()
    init = _rand_weights(straight)
    interrupted = build()
    interrupted.set_weights(init)
    for _ in range(2):
        straight.train_on_batch(x, y)
        interrupted.train_on_batch(x, y)
    path = str(tmp_path / "model.h5")
    interrupted.save(path)
    restored = keras.models.load_model(path)
    for _ in range(2):
        a = straight.train_on_batch(x, y)
        b = restored.train_on_batch(x, y)
    np.testing.assert_allclose(b, a, rtol=1e-5)
    for wa, wb in zip(straight.get_weights(), restored.get_weights()):
        np.testing.assert_allclose(wb, wa, rtol=1e-5, atol=1e-6)
    assert K.get_value(restored.optimizer.iterations) == 4


def test_model_file_layout(tmp_path):
    model = _small()
    model.compile(keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
    model.train_on_batch(np.ones((2, 4), "float32"), np.ones((2, 2), "float32"))
    path = str(tmp_path / "m.h5")
    model.save(path)
    with h5py.File(path, "r") as f:
        assert set(f.attrs) == {"keras_version", "backend", "model_config", "training_config"}
        assert f.attrs["keras_version"] == "2.2.4-tf" and f.attrs["backend"] == "tensorflow"
        config = json.loads(f.attrs["model_config"])
        assert config == {"class_name": "Model", "config": json.loads(model.to_json())["config"]}
        training = json.loads(f.attrs["training_config"])
        assert training["loss"] == "mse" and training["metrics"] == ["mae"]
        assert training["optimizer_config"]["class_name"] == "Adam"
        np.testing.assert_allclose(training["optimizer_config"]["config"]["learning_rate"], 0.01, rtol=1e-6)
        weights = f["model_weights"]
        assert _names(weights.attrs["layer_names"]) == ["small_in", "small_d0", "small_d1"]
        assert _names(weights["small_d0"].attrs["weight_names"]) == ["small_d0/kernel:0",
                                                                                  "small_d0/bias:0"]
        np.testing.assert_array_equal(weights["small_d0"]["small_d0/kernel:0"][()], model.get_weights()[0])
        assert len(weights["small_in"].attrs["weight_names"]) == 0
        names = _names(f["optimizer_weights"].attrs["weight_names"])
        # Keras' order: iterations, then every `m`, then every `v`.
        assert names[0].endswith("iter:0") and len(names) == 9
        assert [n.rsplit("/", 1)[-1] for n in names[1:]] == ["m:0"] * 4 + ["v:0"] * 4
        assert f["optimizer_weights"][names[0]][()] == 1


def test_save_without_optimizer_and_uncompiled(tmp_path):
    model = _small()
    w = _rand_weights(model)
    path = str(tmp_path / "m.h5")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert loaded.optimizer is None and not loaded._compiled
    for a, b in zip(w, loaded.get_weights()):
        np.testing.assert_array_equal(a, b)
    model.compile("sgd", "mse")
    model.save(path, include_optimizer=False)
    with h5py.File(path, "r") as f:
        assert "training_config" not in f.attrs and "optimizer_weights" not in f
    loaded = keras.models.load_model(path, compile=True)
    assert not loaded._compiled
    # compile=False skips the training config.
    model.save(path)
    assert not keras.models.load_model(path, compile=False)._compiled
    # Before any training step the optimizer has no state to save (as Keras).
    with h5py.File(path, "r") as f:
        assert "training_config" in f.attrs and "optimizer_weights" not in f
    loaded = keras.models.load_model(path)
    assert loaded._compiled and type(loaded.optimizer).__name__ == "SGD"
    # A model written to an open h5py.File.
    with h5py.File(str(tmp_path / "open.h5"), "w") as f:
        keras.models.save_model(model, f)
    with h5py.File(str(tmp_path / "open.h5"), "r") as f:
        loaded = keras.models.load_model(f)
    np.testing.assert_array_equal(loaded.get_weights()[0], w[0])


def test_tf_optimizer_is_not_saved(tmp_path, caplog):
    model = _small()
    model.compile(tf.train.GradientDescentOptimizer(0.1), "mse")
    path = str(tmp_path / "m.h5")
    model.save(path)
    with h5py.File(path, "r") as f:
        assert "training_config" not in f.attrs and "optimizer_weights" not in f
    assert "TensorFlow optimizers do not make it possible to access optimizer attributes" in caplog.text
    assert not keras.models.load_model(path)._compiled
    assert "No training configuration found in save file" in caplog.text


def test_optimizer_state_mismatch_warns(tmp_path, caplog):
    model = _small()
    model.compile(keras.optimizers.Adam(0.01), "mse")
    _rand_weights(model)
    model.train_on_batch(np.ones((2, 4), "float32"), np.ones((2, 2), "float32"))
    path = str(tmp_path / "m.h5")
    model.save(path)
    with h5py.File(path, "r+") as f:
        group = f["optimizer_weights"]
        group.attrs["weight_names"] = group.attrs["weight_names"][:-1]
    loaded = keras.models.load_model(path)
    assert "Error in loading the saved optimizer state" in caplog.text
    # The model itself loads, with a fresh optimizer.
    assert loaded._compiled and K.get_value(loaded.optimizer.iterations) == 0
    np.testing.assert_array_equal(loaded.get_weights()[0], model.get_weights()[0])

    class NoSlots(keras.optimizers.Adam):
        def get_updates(self, loss, params):
            raise NotImplementedError

    loaded = keras.models.load_model(str(tmp_path / "m.h5"), custom_objects={"Adam": NoSlots})
    assert isinstance(loaded.optimizer, NoSlots)
    assert "Error when creating the weights of optimizer NoSlots" in caplog.text


# ---- weights -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["w.h5", "w.keras", "w.hdf5", "ckpt/w"])
def test_save_weights_round_trip(tmp_path, name):
    model = _small()
    w = _rand_weights(model)
    path = str(tmp_path / name)
    model.save_weights(path)
    other = _small("small")
    result = other.load_weights(path)
    for a, b in zip(w, other.get_weights()):
        np.testing.assert_array_equal(a, b)
    if name.startswith("ckpt"):
        result.assert_consumed()
        keys = dict(tf.train.list_variables(path))
        assert keys == {"_CHECKPOINTABLE_OBJECT_GRAPH": [],
                        "layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE": [4, 3],
                        "layer_with_weights-0/bias/.ATTRIBUTES/VARIABLE_VALUE": [3],
                        "layer_with_weights-1/kernel/.ATTRIBUTES/VARIABLE_VALUE": [3, 2],
                        "layer_with_weights-1/bias/.ATTRIBUTES/VARIABLE_VALUE": [2]}
        assert tf.train.latest_checkpoint(str(tmp_path / "ckpt")) == path
    else:
        assert result is None
        with h5py.File(path, "r") as f:
            assert _names(f.attrs["layer_names"]) == ["small_in", "small_d0", "small_d1"]


def test_save_weights_h5_format_forced_and_errors(tmp_path):
    model = _small()
    w = _rand_weights(model)
    path = str(tmp_path / "weights")
    model.save_weights(path, save_format="h5")
    assert h5py.is_hdf5(path)
    other = _small()
    other.load_weights(path)  # not a TF checkpoint: read as HDF5
    np.testing.assert_array_equal(other.get_weights()[2], w[2])
    with pytest.raises(ValueError, match='save_weights got save_format="tf"/"tensorflow", but the filepath'):
        model.save_weights(str(tmp_path / "x.h5"), save_format="tf")
    with pytest.raises(ValueError, match='Unknown format "pickle"'):
        model.save_weights(str(tmp_path / "x"), save_format="pickle")


def test_tf_checkpoint_optimizer_state_continues_training(tmp_path):
    rng = np.random.RandomState(2)
    x, y = rng.randn(6, 4).astype("float32"), rng.randn(6, 2).astype("float32")

    def build():
        model = _small()
        model.compile(keras.optimizers.RMSprop(0.01, momentum=0.5), "mse")
        return model

    straight = build()
    init = _rand_weights(straight)
    for _ in range(2):
        straight.train_on_batch(x, y)
    prefix = str(tmp_path / "ckpt")
    straight.save_weights(prefix)
    saved = straight.get_weights()
    keys = dict(tf.train.list_variables(prefix))
    assert "optimizer/iter/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert keys["layer_with_weights-1/kernel/.OPTIMIZER_SLOT/optimizer/rms/.ATTRIBUTES/VARIABLE_VALUE"] == [3, 2]
    assert "layer_with_weights-1/kernel/.OPTIMIZER_SLOT/optimizer/momentum/.ATTRIBUTES/VARIABLE_VALUE" in keys
    restored = build()
    restored.set_weights(init)
    restored.load_weights(prefix).assert_consumed()
    assert K.get_value(restored.optimizer.iterations) == 2
    a, b = straight.train_on_batch(x, y), restored.train_on_batch(x, y)
    np.testing.assert_allclose(b, a, rtol=1e-6)
    for wa, wb in zip(straight.get_weights(), restored.get_weights()):
        np.testing.assert_allclose(wb, wa, rtol=1e-6, atol=1e-7)
    # An uncompiled model takes the weights and leaves the optimizer entries.
    plain = _small()
    plain.load_weights(prefix).assert_consumed()
    for wa, wb in zip(saved, plain.get_weights()):
        np.testing.assert_array_equal(wb, wa)
    assert plain.optimizer is None


def test_tf_checkpoint_nested_model_and_name_based(tmp_path):
    inner = _small("inner", units=(3,))
    inputs = keras.Input((4,))
    outputs = L.Dense(2, name="head")(inner(inputs))
    model = keras.Model(inputs, outputs)
    w = _rand_weights(model)
    prefix = str(tmp_path / "nested")
    model.save_weights(prefix)
    keys = set(dict(tf.train.list_variables(prefix)))
    assert "layer_with_weights-0/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "layer_with_weights-1/bias/.ATTRIBUTES/VARIABLE_VALUE" in keys
    model.set_weights([np.zeros_like(a) for a in w])
    model.load_weights(prefix).assert_consumed()
    for a, b in zip(w, model.get_weights()):
        np.testing.assert_array_equal(a, b)
    # A checkpoint keyed by variable names (tf.train.Saver, ModelCheckpoint's TF format) loads too.
    saver_prefix = str(tmp_path / "by_name")
    tf.train.Saver(var_list=model.weights).save(K.get_session(), saver_prefix, write_meta_graph=False)
    model.set_weights([np.zeros_like(a) for a in w])
    model.load_weights(saver_prefix).assert_existing_objects_matched()
    np.testing.assert_array_equal(model.get_weights()[0], w[0])


def test_tf_checkpoint_errors(tmp_path):
    model = _small()
    prefix = str(tmp_path / "c")
    model.save_weights(prefix)
    wider = _small(units=(5, 2))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"lhs shape= \[4, 5\] rhs shape= \[4, 3\]"):
        wider.load_weights(prefix)
    other_prefix = str(tmp_path / "other")
    v = tf.Variable(np.ones(3, "float32"), name="unrelated")
    K.get_session().run(v.initializer)
    tf.train.Saver(var_list=[v]).save(K.get_session(), other_prefix, write_meta_graph=False)
    with pytest.raises(AssertionError, match="Nothing except the root object matched a checkpointed value"):
        model.load_weights(other_prefix)
    partial = _small(units=(3, 2, 2))
    status = partial.load_weights(prefix)
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_existing_objects_matched()
    assert status.expect_partial() is status and status.assert_nontrivial_match() is status
    with pytest.raises(tf.errors.NotFoundError):
        model.load_weights(str(tmp_path / "missing"))


def test_load_weights_by_name_and_skip_mismatch(tmp_path, caplog):
    source = _small("src")
    w = _rand_weights(source)
    path = str(tmp_path / "w.h5")
    source.save_weights(path)
    # Same layer names, other order and an extra layer: by_name matches names.
    inputs = keras.Input((4,))
    x = L.Dense(3, activation="tanh", name="src_d0")(inputs)
    x = L.Dense(7, name="extra")(x)
    target = keras.Model(inputs, x)
    extra_before = target.get_layer("extra").get_weights()
    target.load_weights(path, by_name=True)
    np.testing.assert_array_equal(target.get_layer("src_d0").get_weights()[0], w[0])
    np.testing.assert_array_equal(target.get_layer("extra").get_weights()[0], extra_before[0])
    # Shape mismatch.
    inputs = keras.Input((4,))
    x = L.Dense(3, activation="tanh", name="src_d0")(inputs)
    x = L.Dense(5, name="src_d1")(x)
    target = keras.Model(inputs, x)
    with pytest.raises(ValueError, match=r'Layer #2 \(named "src_d1"\), weight src_d1(_1)?/kernel:0 has shape '
                                         r'\(3, 5\), but the saved weight has shape \(3, 2\)\.'):
        target.load_weights(path, by_name=True)
    before = target.get_layer("src_d1").get_weights()
    target.load_weights(path, by_name=True, skip_mismatch=True)
    np.testing.assert_array_equal(target.get_layer("src_d0").get_weights()[1], w[1])
    np.testing.assert_array_equal(target.get_layer("src_d1").get_weights()[0], before[0])
    # Weight count mismatch.
    inputs = keras.Input((4,))
    x = L.Dense(3, use_bias=False, name="src_d0")(inputs)
    target = keras.Model(inputs, x)
    with pytest.raises(ValueError, match=r'Layer #1 \(named "src_d0"\) expects 1 weight\(s\), but the saved '
                                         r'weights have 2 element\(s\)\.'):
        target.load_weights(path, by_name=True)
    target.load_weights(path, by_name=True, skip_mismatch=True)


def test_topological_load_errors(tmp_path):
    source = _small("src")
    path = str(tmp_path / "w.h5")
    source.save_weights(path)
    with pytest.raises(ValueError, match="You are trying to load a weight file containing 2 layers into a model "
                                         "with 3 layers."):
        _small("t", units=(3, 2, 2)).load_weights(path)
    inputs = keras.Input((4,))
    x = L.Dense(3, use_bias=False, name="a")(inputs)
    x = L.Dense(2, name="b")(x)
    with pytest.raises(ValueError, match=r'Layer #0 \(named "a" in the current model\) was found to correspond to '
                                         r'layer src_d0 in the save file\. However the new layer a expects 1 '
                                         r'weights, but the saved weights have 2 elements\.'):
        keras.Model(inputs, x).load_weights(path)


# ---- configs, JSON, clone_model ------------------------------------------------------------------------

def test_to_json_and_model_from_json():
    model = _functional()
    w = _rand_weights(model)
    config = json.loads(model.to_json())
    assert set(config) == {"class_name", "config", "keras_version", "backend"}
    assert config["class_name"] == "Model" and config["keras_version"] == "2.2.4-tf"
    assert config["backend"] == "tensorflow" and config["config"]["name"] == "two_inputs"
    rebuilt = keras.models.model_from_json(model.to_json())
    assert [l.name for l in rebuilt.layers] == [l.name for l in model.layers]
    rebuilt.set_weights(w)
    rng = np.random.RandomState(3)
    x = [rng.randn(2, 6, 6, 1).astype("float32"), rng.randint(0, 10, (2, 5)).astype("int32")]
    for a, b in zip(model.predict(x), rebuilt.predict(x)):
        np.testing.assert_allclose(b, a, rtol=1e-6)
    seq = _seq_mlp()
    seq_json = json.loads(seq.to_json())
    assert seq_json["class_name"] == "Sequential"
    rebuilt = keras.models.model_from_json(seq.to_json(), custom_objects={})
    assert isinstance(rebuilt, keras.Sequential) and [l.name for l in rebuilt.layers] == ["hidden", "probs"]
    with pytest.raises(ValueError, match="Invalid JSON model config"):
        keras.models.model_from_json("{not json")
    with pytest.raises(TypeError, match="expects a dictionary, not a list"):
        keras.models.model_from_config([])
    with pytest.raises(ValueError, match="Improper config format"):
        keras.models.model_from_config({"config": {}})


def test_clone_model_functional_and_sequential():
    model = _functional()
    w = _rand_weights(model)
    clone = keras.models.clone_model(model)
    assert clone is not model and [l.name for l in clone.layers] == [l.name for l in model.layers]
    assert all(a is not b for a, b in zip(clone.weights, model.weights))
    K.get_session().run(tf.variables_initializer(clone.weights))
    clone.set_weights(w)
    rng = np.random.RandomState(4)
    x = [rng.randn(2, 6, 6, 1).astype("float32"), rng.randint(0, 10, (2, 5)).astype("int32")]
    for a, b in zip(model.predict(x), clone.predict(x)):
        np.testing.assert_allclose(b, a, rtol=1e-6)
    seq = _seq_mlp()
    ws = _rand_weights(seq)
    seq_clone = keras.models.clone_model(seq)
    assert isinstance(seq_clone, keras.Sequential) and seq_clone.name == seq.name
    seq_clone.set_weights(ws)
    xs = rng.randn(3, 4).astype("float32")
    np.testing.assert_allclose(seq_clone.predict(xs), seq.predict(xs), rtol=1e-6)


def test_clone_model_input_tensors_and_clone_function():
    model = _small()
    w = _rand_weights(model)
    placeholder = tf.placeholder(tf.float32, (None, 4))
    seen = []

    def rename(layer):
        seen.append(layer.name)
        config = layer.get_config()
        config["name"] = "c_" + config["name"]
        return layer.__class__.from_config(config)

    clone = keras.models.clone_model(model, input_tensors=placeholder, clone_function=rename)
    assert seen == ["small_d0", "small_d1"]
    assert [l.name for l in clone.layers] == ["input_wrapper_for_small_in", "c_small_d0", "c_small_d1"]
    clone.set_weights(w)
    x = np.random.RandomState(5).randn(2, 4).astype("float32")
    np.testing.assert_allclose(K.get_session().run(clone.outputs[0], {placeholder: x}), model.predict(x),
                               rtol=1e-6)
    keras_input = keras.Input((4,), name="given")
    clone = keras.models.clone_model(model, input_tensors=[keras_input])
    assert clone.inputs[0] is keras_input
    seq = _seq_mlp()
    seq_clone = keras.models.clone_model(seq, input_tensors=keras.Input((4,), name="seq_in"))
    assert seq_clone.inputs[0].shape.as_list() == [None, 4] and seq_clone.layers[0].name == "hidden"
    with pytest.raises(ValueError, match="expects 1 input tensor"):
        keras.models.clone_model(model, input_tensors=[keras_input, keras_input])
    with pytest.raises(ValueError, match="Expected `clone_function` argument to be a callable"):
        keras.models.clone_model(model, clone_function=3)
    with pytest.raises(ValueError, match="must return a Layer instance"):
        keras.models.clone_model(model, clone_function=lambda layer: None)
    with pytest.raises(ValueError, match="on top of a tensor that comes from a Keras layer other than an "
                                         "`InputLayer`"):
        keras.models.clone_model(seq, input_tensors=L.Dense(4)(keras.Input((4,))))
    with pytest.raises(ValueError, match="at most one tensor"):
        keras.models.clone_model(seq, input_tensors=[keras_input, keras_input])
    with pytest.raises(ValueError, match="Expected `model` argument to be a `Model` instance"):
        keras.models.clone_model(L.Dense(2))

    class Sub(keras.Model):
        def call(self, inputs):
            return inputs

    with pytest.raises(ValueError, match="but got a subclass model instead"):
        keras.models.clone_model(Sub())


def test_clone_model_keeps_lambda_functions_and_nested_models():
    inner = _small("inner", units=(3,))
    inputs = keras.Input((4,))
    x = L.Lambda(lambda t: t * 2.0, name="double")(inputs)
    model = keras.Model(inputs, inner(x))
    w = _rand_weights(model)
    clone = keras.models.clone_model(model)
    assert clone.layers[2] is not inner
    clone.set_weights(w)
    x = np.random.RandomState(6).randn(2, 4).astype("float32")
    np.testing.assert_allclose(clone.predict(x), model.predict(x), rtol=1e-6)


# ---- custom objects, Lambda safety ---------------------------------------------------------------------

class Scale(keras.layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight("w", shape=(int(input_shape[-1]),), initializer="ones")
        super().build(input_shape)

    def call(self, inputs):
        return inputs * self.w * self.factor

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


def double_mse(y_true, y_pred):
    return 2.0 * keras.losses.mean_squared_error(y_true, y_pred)


def test_custom_objects(tmp_path):
    inputs = keras.Input((3,))
    model = keras.Model(inputs, Scale(3.0, name="scale")(inputs))
    model.compile("sgd", double_mse)
    w = _rand_weights(model)
    path = str(tmp_path / "custom.h5")
    model.save(path)
    with pytest.raises(ValueError, match="Unknown layer: Scale"):
        keras.models.load_model(path)
    with pytest.raises(ValueError, match="Unknown loss function:double_mse"):
        keras.models.load_model(path, custom_objects={"Scale": Scale})
    loaded = keras.models.load_model(path, custom_objects={"Scale": Scale, "double_mse": double_mse})
    assert loaded.get_layer("scale").factor == 3.0
    np.testing.assert_array_equal(loaded.get_weights()[0], w[0])
    x = np.ones((2, 3), "float32")
    np.testing.assert_allclose(loaded.evaluate(x, x, verbose=0), model.evaluate(x, x, verbose=0), rtol=1e-6)
    with keras.utils.custom_object_scope({"Scale": Scale, "double_mse": double_mse}):
        assert keras.models.load_model(path).get_layer("scale").factor == 3.0


def test_unknown_layer_class_in_file(tmp_path):
    model = _small()
    path = str(tmp_path / "m.h5")
    model.save(path)
    with h5py.File(path, "r+") as f:
        config = json.loads(f.attrs["model_config"])
        config["config"]["layers"][1]["class_name"] = "NoSuchLayer"
        f.attrs["model_config"] = json.dumps(config).encode("utf8")
    with pytest.raises(ValueError, match="Unknown layer: NoSuchLayer"):
        keras.models.load_model(path)
    with h5py.File(path, "r+") as f:
        del f.attrs["model_config"]
    with pytest.raises(ValueError, match="No model found in config file"):
        keras.models.load_model(path)


def test_lambda_bytecode_refused_unless_safe_mode_false(tmp_path):
    inputs = keras.Input((3,))
    model = keras.Model(inputs, L.Lambda(lambda t: t * 3.0 + 1.0, name="affine")(inputs))
    path = str(tmp_path / "lambda.h5")
    model.save(path)
    with pytest.raises(ValueError, match="arbitrary code execution"):
        keras.models.load_model(path)
    with pytest.raises(ValueError, match="arbitrary code execution"):
        keras.models.model_from_json(model.to_json())
    loaded = keras.models.load_model(path, safe_mode=False)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(loaded.predict(x), x * 3.0 + 1.0)
    # A named function is stored by name and found only through custom objects.
    model = keras.Model(inputs, L.Lambda(triple, name="triple")(inputs))
    model.save(path)
    with pytest.raises(ValueError, match="Unknown function in Lambda layer: triple"):
        keras.models.load_model(path)
    loaded = keras.models.load_model(path, custom_objects={"triple": triple})
    np.testing.assert_allclose(loaded.predict(x), x * 3.0)


def triple(t):
    return t * 3.0


# ---- format selection, errors, atomicity ---------------------------------------------------------------

def test_save_errors(tmp_path):
    model = _small()
    with pytest.raises(NotImplementedError, match="SavedModel"):
        model.save(str(tmp_path / "m"), save_format="tf")
    with pytest.raises(ValueError, match='Unknown format "zip"'):
        model.save(str(tmp_path / "m"), save_format="zip")
    # TF 1.x: HDF5 whatever the extension.
    model.save(str(tmp_path / "plain"))
    assert h5py.is_hdf5(str(tmp_path / "plain"))

    class Sub(keras.Model):
        def call(self, inputs):
            return inputs

    with pytest.raises(NotImplementedError, match="requires the model to be a Functional model or a Sequential"):
        Sub().save(str(tmp_path / "sub.h5"))
    with pytest.raises(NotImplementedError):
        Sub().to_json()
    with pytest.raises(NotImplementedError, match="subclassed Model which has not created its variables"):
        Sub().load_weights(str(tmp_path / "plain"))
    with pytest.raises(IOError, match="Unable to load model"):
        keras.models.load_model(str(tmp_path / "missing.h5"))


def test_failed_save_keeps_previous_file(tmp_path, monkeypatch):
    from tensorweave.keras.saving import hdf5_format
    model = _small()
    w = _rand_weights(model)
    path = str(tmp_path / "m.h5")
    model.save(path)

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(hdf5_format, "save_weights_to_hdf5_group", broken)
    model.set_weights([np.zeros_like(a) for a in w])
    with pytest.raises(RuntimeError, match="disk full"):
        model.save(path)
    with pytest.raises(RuntimeError, match="disk full"):
        model.save_weights(path)
    assert os.listdir(str(tmp_path)) == ["m.h5"]
    monkeypatch.undo()
    np.testing.assert_array_equal(keras.models.load_model(path).get_weights()[0], w[0])


def test_overwrite_false_asks(tmp_path, monkeypatch):
    model = _small()
    w = _rand_weights(model)
    path = str(tmp_path / "m.h5")
    model.save_weights(path)
    model.set_weights([np.zeros_like(a) for a in w])
    answers = iter(["maybe", "n"])
    monkeypatch.setattr(builtins, "input", lambda prompt: next(answers))
    model.save_weights(path, overwrite=False)
    other = _small()
    other.load_weights(path)
    np.testing.assert_array_equal(other.get_weights()[0], w[0])
    monkeypatch.setattr(builtins, "input", lambda prompt: "y")
    model.save(path, overwrite=False)
    np.testing.assert_array_equal(keras.models.load_model(path).get_weights()[0], np.zeros_like(w[0]))


def test_missing_h5py_names_the_extra(tmp_path, monkeypatch):
    model = _small()
    monkeypatch.setitem(sys.modules, "h5py", None)
    message = r"pip install 'tensorweave\[keras\]'"
    with pytest.raises(ImportError, match=message):
        model.save(str(tmp_path / "m.h5"))
    with pytest.raises(ImportError, match=message):
        model.save_weights(str(tmp_path / "w.h5"))
    with pytest.raises(ImportError, match=message):
        model.load_weights(str(tmp_path / "w.h5"))
    with pytest.raises(ImportError, match=message):
        keras.models.load_model(str(tmp_path / "m.h5"))
    # The TF checkpoint format does not need h5py.
    model.save_weights(str(tmp_path / "ckpt"))
    model.load_weights(str(tmp_path / "ckpt")).assert_consumed()


# ---- ModelCheckpoint -----------------------------------------------------------------------------------

def test_model_checkpoint_whole_model_and_h5_weights(tmp_path):
    rng = np.random.RandomState(7)
    x, y = rng.randn(8, 4).astype("float32"), rng.randn(8, 2).astype("float32")
    model = _small()
    model.compile(keras.optimizers.SGD(0.1), "mse")
    snapshots = []
    record = cbks.LambdaCallback(on_epoch_end=lambda e, logs: snapshots.append(model.get_weights()))
    whole = cbks.ModelCheckpoint(str(tmp_path / "model.{epoch:02d}.h5"))
    weights = cbks.ModelCheckpoint(str(tmp_path / "weights.{epoch:02d}.h5"), save_weights_only=True)
    tf_weights = cbks.ModelCheckpoint(str(tmp_path / "tfw.{epoch:02d}"), save_weights_only=True)
    model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, callbacks=[record, whole, weights, tf_weights])
    loaded = keras.models.load_model(str(tmp_path / "model.01.h5"))
    np.testing.assert_array_equal(loaded.get_weights()[0], snapshots[0][0])
    assert K.get_value(loaded.optimizer.iterations) == 2
    other = _small()
    other.load_weights(str(tmp_path / "weights.02.h5"))
    np.testing.assert_array_equal(other.get_weights()[2], snapshots[1][2])
    # ModelCheckpoint's TF format is keyed by variable names: they match in a new graph.
    K.clear_session()
    other = _small()
    other.load_weights(str(tmp_path / "tfw.01"))
    np.testing.assert_array_equal(other.get_weights()[2], snapshots[0][2])


# ---- files for tf-keras --------------------------------------------------------------------------------

def test_export_for_tf_check(tmp_path, gold):
    """Writes tensorweave's files (model, weights, TF checkpoint) with their predictions; make_keras_h5_tf.py
    --check loads them in tf-keras. Here they are read back by tensorweave."""
    out = os.environ.get("TW_KERAS_H5_EXPORT") or str(tmp_path)
    os.makedirs(out, exist_ok=True)
    x, y = gold["mlp_x"], gold["mlp_y"]
    model = _seq_mlp()
    model.compile(keras.optimizers.Adam(0.01), "categorical_crossentropy", metrics=["acc"])
    _rand_weights(model, seed=8)
    model.train_on_batch(x, y)
    model.save(os.path.join(out, "tw_seq.h5"))
    pred = model.predict(x)
    model.save_weights(os.path.join(out, "weights_tw_seq.h5"))
    model.save_weights(os.path.join(out, "ckpt_tw_seq"))
    with open(os.path.join(out, "weights_tw_seq.json"), "w") as f:
        f.write(model.to_json())
    np.savez(os.path.join(out, "weights_tw_seq.npz"), x0=x, y0=pred)
    with open(os.path.join(out, "ckpt_tw_seq.json"), "w") as f:
        json.dump({"model_config": json.loads(model.to_json()),
                   "training_config": {"optimizer_config": keras.optimizers.serialize(model.optimizer),
                                       "loss": "categorical_crossentropy"}}, f)
    model.train_on_batch(x, y)
    after = model.predict(x)
    np.savez(os.path.join(out, "tw_seq.npz"), x0=x, y0=pred, train_x0=x, train_y0=y, after0=after)
    np.savez(os.path.join(out, "ckpt_tw_seq.npz"), x0=x, y0=pred, train_x0=x, train_y0=y, after0=after)

    fun = _functional()
    fun.compile(keras.optimizers.RMSprop(0.01), ["mse", "mae"])
    _rand_weights(fun, seed=9)
    xs = [gold["img"], gold["tok"]]
    fun.save(os.path.join(out, "tw_functional.h5"))
    p0, p1 = fun.predict(xs)
    np.savez(os.path.join(out, "tw_functional.npz"), x0=xs[0], x1=xs[1], y0=p0, y1=p1)
    fun.save_weights(os.path.join(out, "weights_tw_functional.h5"))
    fun.save_weights(os.path.join(out, "ckpt_tw_functional"))
    for name in ("weights_tw_functional", "ckpt_tw_functional"):
        with open(os.path.join(out, name + ".json"), "w") as f:
            f.write(fun.to_json())
        np.savez(os.path.join(out, name + ".npz"), x0=xs[0], x1=xs[1], y0=p0, y1=p1)

    restored = keras.models.load_model(os.path.join(out, "tw_seq.h5"))
    np.testing.assert_allclose(restored.predict(x), pred, rtol=1e-6)
    restored.train_on_batch(x, y)
    np.testing.assert_allclose(restored.predict(x), model.predict(x), rtol=1e-5, atol=1e-7)
    for a, b in zip(keras.models.load_model(os.path.join(out, "tw_functional.h5")).predict(xs), (p0, p1)):
        np.testing.assert_allclose(a, b, rtol=1e-6)


# ---- helpers and config errors -------------------------------------------------------------------------

def test_large_attributes_are_chunked(tmp_path):
    from tensorweave.keras.saving import hdf5_format
    names = [("layer_%03d_" % i + "x" * 990).encode("utf8") for i in range(100)]
    with h5py.File(str(tmp_path / "a.h5"), "w") as f:
        hdf5_format.save_attributes_to_hdf5_group(f, "layer_names", names)
        assert "layer_names" not in f.attrs and "layer_names0" in f.attrs and "layer_names1" in f.attrs
        assert hdf5_format.load_attributes_from_hdf5_group(f, "layer_names") == [n.decode() for n in names]
        with pytest.raises(RuntimeError, match="larger than 64512 bytes"):
            hdf5_format.save_attributes_to_hdf5_group(f, "big", [b"y" * 70000])


def test_keras1_files_are_refused_and_directories_made(tmp_path):
    model = _small()
    path = str(tmp_path / "new" / "dir" / "w.h5")
    model.save_weights(path)
    with h5py.File(path, "r+") as f:
        del f.attrs["keras_version"]
    with pytest.raises(NotImplementedError, match="Weights saved by Keras 1"):
        model.load_weights(path)


def test_functional_config_errors():
    model = _small()
    config = json.loads(model.to_json())
    dup = json.loads(json.dumps(config))
    dup["config"]["layers"][2]["name"] = dup["config"]["layers"][2]["config"]["name"] = "small_d0"
    with pytest.raises(ValueError, match='The name "small_d0" is used 2 times in the model'):
        keras.models.model_from_config(dup)
    cut = json.loads(json.dumps(config))
    cut["config"]["layers"][1]["inbound_nodes"] = [[["nowhere", 0, 0, {}]]]
    with pytest.raises(ValueError, match=r"Graph disconnected: cannot rebuild the nodes of layers \['small_d0', "
                                         r"'small_d1'\]"):
        keras.models.model_from_config(cut)
    bn = {"class_name": "BatchNormalization", "config": {"name": "bn", "axis": [1, 2]}}
    with pytest.raises(ValueError, match=r"normalizes over the axes \[1, 2\]; only one axis is supported"):
        keras.models.model_from_config({"class_name": "Sequential", "config": {"name": "s", "layers": [bn]}})
