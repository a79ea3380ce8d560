"""tf.keras.losses against tf.keras goldens, NumPy and numerical gradients."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras import losses as L

from ._golden import DATA, INPUTS

I = INPUTS  # noqa: E741
LOSS_FNS = {
    "mse": (L.mean_squared_error, "REG_T", "REG_P"), "mae": (L.mean_absolute_error, "REG_T", "REG_P"),
    "mape": (L.mean_absolute_percentage_error, "REG_T", "REG_P"),
    "msle": (L.mean_squared_logarithmic_error, "POS_T", "POS_P"),
    "hinge": (L.hinge, "BIN_T", "REG_P"), "squared_hinge": (L.squared_hinge, "BIN_T", "REG_P"),
    "hinge_pm": (L.hinge, "BIN_PM", "REG_P"), "categorical_hinge": (L.categorical_hinge, "ONEHOT", "REG_P"),
    "logcosh": (L.logcosh, "REG_T", "REG_P"), "huber": (L.huber_loss, "REG_T", "REG_P"),
    "cce": (L.categorical_crossentropy, "ONEHOT", "PROB"),
    "cce_logits": (lambda t, p: L.categorical_crossentropy(t, p, from_logits=True), "ONEHOT", "LOGITS"),
    "cce_smooth": (lambda t, p: L.categorical_crossentropy(t, p, label_smoothing=0.2), "ONEHOT", "PROB"),
    "scce": (L.sparse_categorical_crossentropy, "SPARSE", "PROB"),
    "scce_logits": (lambda t, p: L.sparse_categorical_crossentropy(t, p, from_logits=True), "SPARSE", "LOGITS"),
    "bce": (L.binary_crossentropy, "BIN_T", "PROB"),
    "bce_logits": (lambda t, p: L.binary_crossentropy(t, p, from_logits=True), "BIN_T", "LOGITS"),
    "bce_smooth": (lambda t, p: L.binary_crossentropy(t, p, label_smoothing=0.1), "BIN_T", "PROB"),
    "kld": (L.kullback_leibler_divergence, "PROB_REV", "PROB"),
    "poisson": (L.poisson, "POS_T", "POS_P"),
    "cce_softmax_op": (lambda t, p: L.categorical_crossentropy(t, tf.nn.softmax(p)), "ONEHOT", "LOGITS"),
    "bce_sigmoid_op": (lambda t, p: L.binary_crossentropy(t, tf.sigmoid(p)), "BIN_T", "LOGITS"),
}


def _input(name):
    if name == "BIN_PM":
        return 2 * I["BIN_T"] - 1
    if name == "PROB_REV":
        return I["PROB"][::-1].copy()
    return I[name]


def test_loss_functions_match_tf_keras():
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run({k: f(tf.constant(_input(t)), tf.constant(_input(p))) for k, (f, t, p) in LOSS_FNS.items()})
    for k, v in got.items():
        assert v.shape == (4,), k
        np.testing.assert_allclose(v, DATA["losses"][k], rtol=2e-6, atol=1e-6, err_msg=k)


def test_numpy_references():
    t, p = I["REG_T"], I["REG_P"]
    with tf.Graph().as_default(), tf.Session() as sess:
        mse, cos, mape = sess.run([L.mse(t, p), L.cosine_proximity(t, p), L.mape(t, p)])
    np.testing.assert_allclose(mse, np.mean((p - t) ** 2, -1), rtol=1e-6)
    ref = -np.sum(t * p, -1) / np.linalg.norm(t, axis=-1) / np.linalg.norm(p, axis=-1)
    np.testing.assert_allclose(cos, ref, rtol=1e-5)
    np.testing.assert_allclose(mape, 100 * np.mean(np.abs((t - p) / np.abs(t)), -1), rtol=1e-5)


@pytest.mark.parametrize("name", sorted(DATA["loss_classes"]))
def test_loss_classes_match_tf_keras(name):
    ref = DATA["loss_classes"][name]
    tname, pname = {"MeanSquaredError": ("REG_T", "REG_P"), "MeanAbsoluteError": ("REG_T", "REG_P"),
                    "BinaryCrossentropy": ("BIN_T", "LOGITS"), "CategoricalCrossentropy": ("ONEHOT", "PROB"),
                    "SparseCategoricalCrossentropy": ("SPARSE", "LOGITS"), "Hinge": ("BIN_T", "REG_P"),
                    "Poisson": ("POS_T", "POS_P"), "LogCosh": ("REG_T", "REG_P"), "Huber": ("REG_T", "REG_P")}[name]
    obj = getattr(L, name)(**ref["kwargs"])
    t, p = I[tname], I[pname]
    with tf.Graph().as_default(), tf.Session() as sess:
        plain, weighted = sess.run([obj(t, p), obj(t, p, sample_weight=I["SW"])])
    np.testing.assert_allclose(plain, ref["plain"], rtol=2e-6)
    np.testing.assert_allclose(weighted, ref["weighted"], rtol=2e-6)


def test_reductions_and_config():
    t, p = I["REG_T"], I["REG_P"]
    per = np.mean((p - t) ** 2, -1)
    with tf.Graph().as_default(), tf.Session() as sess:
        none, total = sess.run([L.MeanSquaredError(reduction="none")(t, p),
                                L.MeanSquaredError(reduction=L.Reduction.SUM)(t, p, sample_weight=2.0)])
    np.testing.assert_allclose(none, per, rtol=1e-6)
    np.testing.assert_allclose(total, 2 * per.sum(), rtol=1e-6)
    bce = L.BinaryCrossentropy(from_logits=True, label_smoothing=0.1)
    config = bce.get_config()
    assert config == {"from_logits": True, "label_smoothing": 0.1, "reduction": "auto",
                      "name": "binary_crossentropy"}
    clone = L.deserialize(L.serialize(bce))
    assert isinstance(clone, L.BinaryCrossentropy) and clone.get_config() == config
    with pytest.raises(ValueError, match="Invalid Reduction Key"):
        L.MeanSquaredError(reduction="mean")


@pytest.mark.parametrize("name", ["mse", "mae", "msle", "logcosh", "cce", "cce_logits", "scce", "bce",
                                  "bce_logits", "kld", "poisson", "hinge", "categorical_hinge", "huber"])
def test_numerical_gradients_float64(name):
    fn, tname, pname = LOSS_FNS[name]
    t = _input(tname)
    t = t if t.dtype == np.int64 else t.astype(np.float64)
    p = _input(pname).astype(np.float64)
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float64, p.shape)
        loss = tf.reduce_sum(fn(tf.constant(t), x))
        grad = tf.gradients(loss, x)[0]
        g = sess.run(grad, {x: p})
        num = np.zeros_like(p)
        h = 1e-6
        for idx in np.ndindex(*p.shape):
            hi, lo = p.copy(), p.copy()
            hi[idx] += h
            lo[idx] -= h
            num[idx] = (sess.run(loss, {x: hi}) - sess.run(loss, {x: lo})) / (2 * h)
    np.testing.assert_allclose(g, num, rtol=1e-4, atol=1e-6)


def test_get_and_errors():
    assert L.get("mse") is L.mean_squared_error
    assert L.get("categorical_crossentropy") is L.categorical_crossentropy
    assert L.get(L.hinge) is L.hinge
    assert L.get(None) is None
    assert L.serialize(L.kld) == "kullback_leibler_divergence"
    with pytest.raises(ValueError, match="Unknown loss function:nope"):
        L.get("nope")
    with pytest.raises(ValueError, match="Could not interpret loss function identifier: 3"):
        L.get(3)
