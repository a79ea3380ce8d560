"""tf.keras.metrics: functions and stateful classes against tf.keras goldens."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras import metrics as M

from ._golden import DATA, INPUTS

I = INPUTS  # noqa: E741
METRIC_FNS = {
    "binary_accuracy": (M.binary_accuracy, I["BIN_T"], I["PROB"]),
    "categorical_accuracy": (M.categorical_accuracy, I["ONEHOT"], I["PROB"]),
    "sparse_categorical_accuracy": (M.sparse_categorical_accuracy, I["SPARSE"].astype(np.float32)[:, None],
                                    I["PROB"]),
    "top_k_categorical_accuracy": (lambda t, p: M.top_k_categorical_accuracy(t, p, k=2), I["ONEHOT"], I["PROB"]),
    "sparse_top_k_categorical_accuracy": (lambda t, p: M.sparse_top_k_categorical_accuracy(t, p, k=2),
                                          I["SPARSE"], I["PROB"]),
}
CLASS_INPUTS = {"BinaryAccuracy": ("BIN_T", "PROB"), "CategoricalAccuracy": ("ONEHOT", "PROB"),
                "SparseCategoricalAccuracy": ("SPARSE", "PROB"), "MeanSquaredError": ("REG_T", "REG_P"),
                "CategoricalCrossentropy": ("ONEHOT", "PROB")}


def test_metric_functions_match_tf_keras():
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run({k: f(tf.constant(t), tf.constant(p)) for k, (f, t, p) in METRIC_FNS.items()})
    for k, v in got.items():
        np.testing.assert_allclose(v, DATA["metrics"][k], rtol=1e-6, err_msg=k)


@pytest.mark.parametrize("name", sorted(DATA["metric_classes"]))
def test_metric_classes_match_tf_keras(name):
    ref = DATA["metric_classes"][name]
    t, p = (I[k] for k in CLASS_INPUTS[name])
    with tf.Graph().as_default(), tf.Session() as sess:
        m = getattr(M, name)(**ref["kwargs"])
        u1 = m.update_state(t, p)
        u2 = m.update_state(t[:2], p[:2], sample_weight=I["SW"][:2])
        sess.run(tf.variables_initializer(m.variables))
        sess.run(u1)
        sess.run(u2)
        np.testing.assert_allclose(sess.run(m.result()), ref["result"], rtol=1e-6)
        m.reset_states()
        assert sess.run(m.result()) == 0.0


def test_mean_sum_call_and_config():
    with tf.Graph().as_default(), tf.Session() as sess:
        mean = M.Mean()
        total = M.Sum(name="s")
        x = tf.placeholder(tf.float32, [None])
        out = mean(x)
        upd = total.update_state(x, sample_weight=[1., 2., 0.])
        sess.run(tf.variables_initializer(mean.variables + total.variables))
        assert sess.run(out, {x: [1., 2., 3.]}) == pytest.approx(2.0)
        assert sess.run(out, {x: [7.]}) == pytest.approx(13. / 4)
        sess.run(upd, {x: [1., 2., 3.]})
        assert sess.run(total.result()) == pytest.approx(5.0)
    acc = M.BinaryAccuracy(threshold=0.7, name="ba")
    assert acc.get_config() == {"threshold": 0.7, "name": "ba", "dtype": "float32"}
    clone = M.deserialize(M.serialize(acc))
    assert isinstance(clone, M.BinaryAccuracy) and clone.get_config() == acc.get_config()


def test_get_and_errors():
    assert M.get("categorical_accuracy") is M.categorical_accuracy
    assert M.get("mse") is M.mean_squared_error
    assert M.get("acc") is M.accuracy
    with pytest.raises(ValueError, match="Unknown metric function:nope"):
        M.get("nope")
    with pytest.raises(ValueError, match="Could not interpret metric function identifier: 3"):
        M.get(3)


@pytest.mark.parametrize("case", DATA["auc"], ids=lambda c: "-".join("%s=%s" % kv for kv in c["kwargs"].items()))
def test_auc_matches_tf_keras(case):
    t, p, w = (np.array(DATA["inputs"][k], np.float32) for k in ("AUC_T", "AUC_P", "AUC_W"))
    with tf.Graph().as_default(), tf.Session() as sess:
        m = M.AUC(**case["kwargs"])
        u1 = m.update_state(t[:25], p[:25])
        u2 = m.update_state(t[25:], p[25:], sample_weight=w[25:])
        sess.run(tf.variables_initializer(m.variables))
        sess.run(u1)
        sess.run(u2)
        np.testing.assert_allclose(sess.run(m.result()), case["result"], rtol=1e-5)


def test_auc_errors_and_config():
    with tf.Graph().as_default():
        assert M.AUC(num_thresholds=7, curve="pr").get_config() == {
            "num_thresholds": 7, "curve": "PR", "summation_method": "interpolation", "name": "auc",
            "dtype": "float32"}
        with pytest.raises(ValueError, match="Invalid curve"):
            M.AUC(curve="XY")
        with pytest.raises(ValueError, match="Invalid summation method"):
            M.AUC(summation_method="avg")
        with pytest.raises(ValueError, match="`num_thresholds` must be > 1"):
            M.AUC(num_thresholds=1)
        with pytest.raises(ValueError, match=r"Threshold values must be in \[0, 1\]"):
            M.AUC(thresholds=[0.5, 1.5])
