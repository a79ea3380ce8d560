"""tf.keras.callbacks: EarlyStopping, ReduceLROnPlateau, LearningRateScheduler, TerminateOnNaN,
CSVLogger, LambdaCallback, ModelCheckpoint and TensorBoard with TF 1.15 semantics."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K
from tensorweave.keras import callbacks as cbks


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


def _data(n=8):
    rng = np.random.RandomState(0)
    return rng.randn(n, 3).astype("float32"), rng.randn(n, 2).astype("float32")


def _model(lr=0.01):
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), kernel_initializer="ones")])
    model.compile(keras.optimizers.SGD(lr=lr), "mse")
    return model


class _FakeLogs(cbks.Callback):
    """Overwrites `logs[key]` at each epoch end with the next value of a fixed sequence."""

    def __init__(self, key, values):
        super().__init__()
        self.key, self.values = key, list(values)

    def on_epoch_end(self, epoch, logs=None):
        logs[self.key] = self.values[epoch]


def _fit(model, callbacks, epochs, **kwargs):
    x, y = _data()
    return model.fit(x, y, batch_size=4, epochs=epochs, shuffle=False, verbose=0, callbacks=callbacks, **kwargs)


def test_early_stopping_stops_at_expected_epoch():
    model = _model()
    es = cbks.EarlyStopping(monitor="val_loss", patience=2)
    hist = _fit(model, [_FakeLogs("val_loss", [5, 4, 4.5, 4.2, 1, 1]), es], epochs=6)
    assert hist.epoch == [0, 1, 2, 3]
    assert es.stopped_epoch == 3
    assert model.stop_training


def test_early_stopping_min_delta_max_mode_and_baseline():
    es = cbks.EarlyStopping(monitor="acc", min_delta=0.1, patience=1, mode="max")
    hist = _fit(_model(), [_FakeLogs("acc", [0.5, 0.55, 0.9]), es], epochs=3)
    assert hist.epoch == [0, 1]
    es = cbks.EarlyStopping(monitor="val_loss", patience=2, baseline=1.0)
    hist = _fit(_model(), [_FakeLogs("val_loss", [2, 3, 0.5]), es], epochs=3)
    assert hist.epoch == [0, 1]


def test_early_stopping_missing_monitor_warns(caplog):
    with caplog.at_level("WARNING"):
        hist = _fit(_model(), [cbks.EarlyStopping(monitor="val_acc")], epochs=2)
    assert hist.epoch == [0, 1]
    assert "Early stopping conditioned on metric `val_acc` which is not available" in caplog.text


def test_early_stopping_restore_best_weights():
    model = _model(lr=0.05)
    snapshots = []
    record = cbks.LambdaCallback(on_epoch_end=lambda epoch, logs: snapshots.append(model.get_weights()))
    es = cbks.EarlyStopping(monitor="val_loss", patience=2, restore_best_weights=True)
    # `record` runs before `es`, so snapshots[e] are the weights at the end of epoch e.
    _fit(model, [_FakeLogs("val_loss", [3, 1, 2, 2, 2]), record, es], epochs=5)
    assert len(snapshots) == 4
    for got, want in zip(model.get_weights(), snapshots[1]):
        np.testing.assert_array_equal(got, want)
    assert not np.array_equal(snapshots[1][0], snapshots[3][0])


def test_reduce_lr_on_plateau_changes_lr_when_expected():
    model = _model(lr=0.1)
    lrs = []
    rlr = cbks.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=1, cooldown=2, min_lr=0.03)
    record = cbks.LambdaCallback(on_epoch_end=lambda e, logs: lrs.append(float(K.get_value(model.optimizer.lr))))
    hist = _fit(model, [_FakeLogs("val_loss", [1, 1, 1, 1, 1, 1]), rlr, record], epochs=6)
    # epoch 1: -> 0.05 (cooldown counter 2); epoch 2: cooling down; epoch 3: -> 0.03 (min_lr), kept.
    np.testing.assert_allclose(lrs, [0.1, 0.05, 0.05, 0.03, 0.03, 0.03], rtol=1e-6)
    # logs['lr'] is recorded before the epoch's reduction (as in Keras).
    np.testing.assert_allclose(hist.history["lr"], [0.1, 0.1, 0.05, 0.05, 0.03, 0.03], rtol=1e-6)


def test_reduce_lr_errors():
    with pytest.raises(ValueError, match="factor >= 1.0"):
        cbks.ReduceLROnPlateau(factor=1.5)
    with pytest.raises(ValueError, match="Unknown `mode`"):
        cbks.ReduceLROnPlateau(mode="up")


def test_learning_rate_scheduler_sets_lr_per_epoch():
    model = _model(lr=0.1)
    seen = []
    sched = cbks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch else lr)
    record = cbks.LambdaCallback(on_epoch_begin=lambda e, logs: seen.append(float(K.get_value(model.optimizer.lr))))
    hist = _fit(model, [sched, record], epochs=3)
    np.testing.assert_allclose(seen, [0.1, 0.05, 0.025], rtol=1e-6)
    np.testing.assert_allclose(hist.history["lr"], [0.1, 0.05, 0.025], rtol=1e-6)
    model = _model()
    _fit(model, [cbks.LearningRateScheduler(lambda epoch: 0.2 + epoch)], epochs=2)
    np.testing.assert_allclose(K.get_value(model.optimizer.lr), 1.2, rtol=1e-6)
    with pytest.raises(ValueError, match="should be float"):
        _fit(_model(), [cbks.LearningRateScheduler(lambda epoch: "x")], epochs=1)


def test_terminate_on_nan():
    x, y = _data()
    y[5] = np.nan
    model = _model()
    hist = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0, callbacks=[cbks.TerminateOnNaN()])
    assert hist.epoch == [0]
    assert np.isnan(hist.history["loss"][0])


def test_csv_logger_content_and_append(tmp_path):
    path = str(tmp_path / "log.csv")
    _fit(_model(), [_FakeLogs("val_loss", [0.5, 0.25]), cbks.CSVLogger(path)], epochs=2)
    lines = open(path).read().splitlines()
    assert lines[0] == "epoch,loss,val_loss"
    assert [line.split(",")[0] for line in lines[1:]] == ["0", "1"]
    assert [line.split(",")[2] for line in lines[1:]] == ["0.5", "0.25"]
    float(lines[1].split(",")[1])
    _fit(_model(), [_FakeLogs("val_loss", [0.125]), cbks.CSVLogger(path, separator=",", append=True)], epochs=1)
    lines = open(path).read().splitlines()
    assert len(lines) == 4 and lines[3].startswith("0,") and lines[3].endswith(",0.125")
    path2 = str(tmp_path / "log2.csv")
    _fit(_model(), [cbks.CSVLogger(path2, separator=";")], epochs=1)
    assert open(path2).read().splitlines()[0] == "epoch;loss"


def test_lambda_callback_hooks_called():
    events = []
    cb = cbks.LambdaCallback(on_train_begin=lambda logs: events.append("tb"),
                             on_epoch_begin=lambda e, logs: events.append("eb%d" % e),
                             on_batch_end=lambda b, logs: events.append("be%d" % b),
                             on_train_end=lambda logs: events.append("te"))
    _fit(_model(), [cb], epochs=1)
    assert events == ["tb", "eb0", "be0", "be1", "te"]


def _kernel_from_checkpoint(model, prefix):
    var = model.weights[0]
    before = K.get_value(var)
    saver = tf.train.Saver(var_list=list(model.weights))
    saver.restore(K.get_session(), prefix)
    value = K.get_value(var)
    K.set_value(var, before)
    return value


def test_model_checkpoint_save_best_only(tmp_path):
    model = _model(lr=0.05)
    snapshots = []
    record = cbks.LambdaCallback(on_epoch_end=lambda e, logs: snapshots.append(model.get_weights()[0]))
    template = str(tmp_path / "w.{epoch:02d}-{val_loss:.2f}")
    ckpt = cbks.ModelCheckpoint(template, save_best_only=True, save_weights_only=True)
    _fit(model, [_FakeLogs("val_loss", [3, 1, 2, 0.5]), record, ckpt], epochs=4)
    written = sorted(f[:-len(".index")] for f in os.listdir(str(tmp_path)) if f.endswith(".index"))
    assert written == ["w.01-3.00", "w.02-1.00", "w.04-0.50"]
    np.testing.assert_array_equal(_kernel_from_checkpoint(model, str(tmp_path / "w.02-1.00")), snapshots[1])
    np.testing.assert_array_equal(_kernel_from_checkpoint(model, str(tmp_path / "w.04-0.50")), snapshots[3])


def test_model_checkpoint_period_and_errors(tmp_path):
    ckpt = cbks.ModelCheckpoint(str(tmp_path / "p{epoch}"), save_weights_only=True, period=2)
    _fit(_model(), [ckpt], epochs=4)
    assert sorted(f for f in os.listdir(str(tmp_path)) if f.endswith(".index")) == ["p2.index", "p4.index"]
    with pytest.raises(ValueError, match="Unknown `mode`"):
        cbks.ModelCheckpoint(str(tmp_path / "w"), save_weights_only=True, mode="best")


def test_tensorboard_writes_epoch_scalars(tmp_path):
    log_dir = str(tmp_path / "tb")
    tb = cbks.TensorBoard(log_dir=log_dir, histogram_freq=1)
    hist = _fit(_model(), [tb], epochs=3)
    assert tb.writer is None
    files = [f for f in os.listdir(log_dir) if f.startswith("events.out.tfevents")]
    assert len(files) == 1
    scalars, histos, graphs = {}, 0, 0
    for event in tf.train.summary_iterator(os.path.join(log_dir, files[0])):
        graphs += bool(event.graph_def)
        for v in event.summary.value:
            if v.HasField("simple_value"):
                scalars.setdefault(v.tag, []).append((event.step, v.simple_value))
            elif v.HasField("histo"):
                histos += 1
    assert graphs == 1
    assert [s for s, _ in scalars["epoch_loss"]] == [0, 1, 2]
    np.testing.assert_allclose([v for _, v in scalars["epoch_loss"]], hist.history["loss"], rtol=1e-6)
    assert histos == 3 * 2


def test_exported_names():
    for name in ["EarlyStopping", "ReduceLROnPlateau", "LearningRateScheduler", "TerminateOnNaN", "CSVLogger",
                 "LambdaCallback", "ModelCheckpoint", "TensorBoard"]:
        assert name in cbks.__all__
        assert getattr(keras.callbacks, name) is getattr(cbks, name)
