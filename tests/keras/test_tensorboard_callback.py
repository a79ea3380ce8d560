"""`tf.keras.callbacks.TensorBoard`: the graph, epoch and batch scalars (`update_freq`), weight
histograms and images, read back with tensorweave's `summary_iterator` and with TensorBoard's own
`EventAccumulator` (the reader behind the TensorBoard UI)."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K
from tensorweave.keras import callbacks as cbks

with open(os.path.join(os.path.dirname(__file__), "..", "data", "keras_training_tf.json")) as _f:
    GOLDEN = json.load(_f)  # tests/data/make_keras_training_tf.py: tf-keras on TF 2.21, graph mode


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


def _data(n=8):
    rng = np.random.RandomState(0)
    return rng.randn(n, 3).astype("float32"), rng.randn(n, 2).astype("float32")


def _model():
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), name="dense", kernel_initializer="ones")])
    model.compile(tf.train.GradientDescentOptimizer(0.05), "mse", metrics=["mae"])
    return model


def _events(log_dir):
    files = [f for f in os.listdir(log_dir) if f.startswith("events.out.tfevents")]
    assert len(files) == 1
    return list(tf.train.summary_iterator(os.path.join(log_dir, files[0])))


def _scalars(events):
    out = {}
    for event in events:
        for v in event.summary.value:
            if v.HasField("simple_value"):
                out.setdefault(v.tag, []).append((event.step, v.simple_value))
    return out


class _Record(cbks.Callback):
    def __init__(self):
        super().__init__()
        self.batch_losses, self.weights = [], []

    def on_batch_end(self, batch, logs=None):
        self.batch_losses.append(logs["loss"])

    def on_epoch_end(self, epoch, logs=None):
        self.weights.append(self.model.get_weights())


def test_graph_and_epoch_scalars(tmp_path):
    log_dir = str(tmp_path / "logs")
    x, y = _data()
    history = _model().fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False, validation_data=(x, y),
                           callbacks=[cbks.TensorBoard(log_dir)])
    events = _events(log_dir)
    graphs = [e.graph_def for e in events if e.graph_def]
    assert len(graphs) == 1
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(graphs[0])
    names = {n.name for n in graph_def.node}
    assert "dense/MatMul" in names and "dense/kernel" in names
    assert any(n.op == "ApplyGradientDescent" for n in graph_def.node)  # the training ops are in it
    scalars = _scalars(events)
    assert sorted(scalars) == ["epoch_loss", "epoch_mean_absolute_error", "epoch_val_loss",
                               "epoch_val_mean_absolute_error"]
    for name, values in scalars.items():
        assert [s for s, _ in values] == [0, 1, 2]
        np.testing.assert_allclose([v for _, v in values], history.history[name[len("epoch_"):]], rtol=1e-6)


def test_update_freq_batch_and_samples(tmp_path):
    x, y = _data()
    record = _Record()
    log_dir = str(tmp_path / "batch")
    _model().fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False,
                 callbacks=[record, cbks.TensorBoard(log_dir, update_freq="batch", write_graph=False)])
    events = _events(log_dir)
    assert not any(e.graph_def for e in events)
    scalars = _scalars(events)
    assert [s for s, _ in scalars["batch_loss"]] == [0, 1, 2, 3]
    np.testing.assert_allclose([v for _, v in scalars["batch_loss"]], record.batch_losses, rtol=1e-6)
    assert [s for s, _ in scalars["epoch_loss"]] == [8, 16]  # samples seen

    log_dir = str(tmp_path / "every8")
    _model().fit(x, y, batch_size=2, epochs=1, verbose=0, shuffle=False,
                 callbacks=[cbks.TensorBoard(log_dir, update_freq=5, write_graph=False)])
    scalars = _scalars(_events(log_dir))
    assert [s for s, _ in scalars["batch_loss"]] == [2]  # after 6 samples (batch index 2); then 2 more only
    assert [s for s, _ in scalars["epoch_loss"]] == [8]


def test_weight_histograms_and_images(tmp_path):
    x, y = _data()
    record = _Record()
    log_dir = str(tmp_path / "hist")
    model = _model()
    model.fit(x, y, batch_size=4, epochs=4, verbose=0, shuffle=False,
              callbacks=[record, cbks.TensorBoard(log_dir, histogram_freq=2, write_images=True)])
    histos, images = {}, {}
    for event in _events(log_dir):
        for v in event.summary.value:
            if v.HasField("histo"):
                histos.setdefault(v.tag, []).append((event.step, v.histo))
            elif v.HasField("image"):
                images.setdefault(v.tag, []).append((event.step, v.image))
    assert sorted(histos) == ["dense/bias_0", "dense/kernel_0"]
    for tag, index in (("dense/kernel_0", 0), ("dense/bias_0", 1)):
        assert [s for s, _ in histos[tag]] == [0, 2]
        for (step, h) in histos[tag]:
            w = record.weights[step][index].astype(np.float64)
            assert h.num == w.size
            np.testing.assert_allclose([h.min, h.max, h.sum, h.sum_squares],
                                       [w.min(), w.max(), w.sum(), np.sum(w * w)], rtol=1e-5)
            assert sum(h.bucket) == w.size
    assert len(images) == 2
    (kernel_tag,) = [t for t in images if t.startswith("dense/kernel_0")]
    (bias_tag,) = [t for t in images if t.startswith("dense/bias_0")]
    kernel_image, bias_image = images[kernel_tag][0][1], images[bias_tag][0][1]
    assert (kernel_image.height, kernel_image.width) == (2, 3)  # the [3, 2] kernel transposed
    assert (bias_image.height, bias_image.width) == (2, 1)


def test_logs_open_in_real_tensorboard(tmp_path):
    pytest.importorskip("tensorboard", reason="needs the [tensorboard] extra")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    x, y = _data()
    log_dir = str(tmp_path / "tb")
    history = _model().fit(_gen(x, y), steps_per_epoch=2, epochs=3, verbose=0,
                           callbacks=[cbks.TensorBoard(log_dir, histogram_freq=1, update_freq="batch")])
    acc = EventAccumulator(log_dir, size_guidance={"scalars": 0, "histograms": 0})
    acc.Reload()
    tags = acc.Tags()
    assert tags["graph"] is True
    assert {"epoch_loss", "batch_loss", "epoch_mean_absolute_error"} <= set(tags["scalars"])
    assert sorted(tags["histograms"]) == ["dense/bias_0", "dense/kernel_0"]
    assert [e.step for e in acc.Scalars("epoch_loss")] == [6, 12, 18]
    np.testing.assert_allclose([e.value for e in acc.Scalars("epoch_loss")], history.history["loss"], rtol=1e-6)
    assert [e.step for e in acc.Scalars("batch_loss")] == list(range(6))
    assert [e.step for e in acc.Histograms("dense/kernel_0")] == [0, 1, 2]
    assert any(n.name == "dense/MatMul" for n in acc.Graph().node)


def _gen(x, y):
    while True:
        yield x[:4], y[:4]
        yield x[4:6], y[4:6]


def test_errors(tmp_path):
    log_dir = str(tmp_path)
    with pytest.raises(NotImplementedError, match=r"write_grads=True\) is not supported"):
        cbks.TensorBoard(log_dir, histogram_freq=1, write_grads=True)
    with pytest.raises(NotImplementedError, match=r"embeddings .* are not supported"):
        cbks.TensorBoard(log_dir, embeddings_freq=1)
    with pytest.raises(NotImplementedError, match=r"embeddings .* are not supported"):
        cbks.TensorBoard(log_dir, embeddings_data=np.zeros((2, 3)))
    for bad in ("often", 0, 1.5, True):
        with pytest.raises(ValueError, match=r"`update_freq` must be 'epoch', 'batch' or a positive integer"):
            cbks.TensorBoard(log_dir, update_freq=bad)
    with pytest.raises(ValueError, match=r"`histogram_freq` must be >= 0"):
        cbks.TensorBoard(log_dir, histogram_freq=-1)


@pytest.mark.parametrize("name, update_freq, batch_size", [("epoch", "epoch", 4), ("batch", "batch", 4),
                                                           ("every5", 5, 2)])
def test_scalar_tags_and_steps_match_tf(tmp_path, name, update_freq, batch_size):
    x, y = _data()
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    model.compile(tf.train.GradientDescentOptimizer(0.05), "mse", metrics=["mae"])
    model.fit(x, y, batch_size=batch_size, epochs=2, verbose=0, shuffle=False, validation_data=(x, y),
              callbacks=[cbks.TensorBoard(str(tmp_path), update_freq=update_freq)])
    steps = {tag: sorted(s for s, _ in values) for tag, values in _scalars(_events(str(tmp_path))).items()}
    assert steps == GOLDEN["tensorboard_" + name]
