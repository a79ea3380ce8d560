"""Records tf.keras (Keras 2) activation, loss and metric values on fixed inputs.

Run: TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_losses_tf.py
"""

import json
import os

import numpy as np
import tensorflow.compat.v1 as tf
import tf_keras as keras

tf.disable_v2_behavior()

rng = np.random.RandomState(0)
X = rng.uniform(-3, 3, (3, 5)).astype(np.float32)
PROB = rng.uniform(0.01, 1, (4, 3)).astype(np.float32)
PROB = PROB / PROB.sum(-1, keepdims=True)
ONEHOT = np.eye(3, dtype=np.float32)[[0, 2, 1, 2]]
SPARSE = np.array([0, 2, 1, 2], np.int64)
BIN_T = np.array([[0, 1, 1], [1, 0, 0], [1, 1, 0], [0, 0, 1]], np.float32)
REG_T = rng.uniform(-2, 2, (4, 3)).astype(np.float32)
REG_P = rng.uniform(-2, 2, (4, 3)).astype(np.float32)
POS_T = rng.uniform(0.1, 2, (4, 3)).astype(np.float32)
POS_P = rng.uniform(0.1, 2, (4, 3)).astype(np.float32)
SW = np.array([1.0, 0.5, 0.0, 2.0], np.float32)
LOGITS = rng.uniform(-3, 3, (4, 3)).astype(np.float32)

A = keras.activations
L = keras.losses
M = keras.metrics
ACTS = {
    "relu": lambda x: A.relu(x),
    "relu_alpha": lambda x: A.relu(x, alpha=0.1),
    "relu_max": lambda x: A.relu(x, max_value=1.5),
    "relu_max6": lambda x: A.relu(x * 3, max_value=6),
    "relu_thr": lambda x: A.relu(x, threshold=0.5),
    "relu_all": lambda x: A.relu(x, alpha=0.2, max_value=2.0, threshold=0.5),
    "elu": lambda x: A.elu(x), "elu_alpha": lambda x: A.elu(x, alpha=0.5), "selu": A.selu,
    "softplus": A.softplus, "softsign": A.softsign, "sigmoid": A.sigmoid, "tanh": A.tanh,
    "exponential": A.exponential, "linear": A.linear, "softmax": A.softmax,
    "softmax3d": lambda x: A.softmax(tf.reshape(x, [3, 1, 5]), axis=1),
    "softmax3d_last": lambda x: A.softmax(tf.reshape(x, [1, 3, 5])),
}
# Keras 2's hard_sigmoid is 0.2x + 0.5 (tf-keras 2.21 uses x/6 + 0.5), so it is checked against NumPy.
LOSS_FNS = {
    "mse": (L.mean_squared_error, REG_T, REG_P), "mae": (L.mean_absolute_error, REG_T, REG_P),
    "mape": (L.mean_absolute_percentage_error, REG_T, REG_P),
    "msle": (L.mean_squared_logarithmic_error, POS_T, POS_P),
    "hinge": (L.hinge, BIN_T, REG_P), "squared_hinge": (L.squared_hinge, BIN_T, REG_P),
    "hinge_pm": (L.hinge, 2 * BIN_T - 1, REG_P), "categorical_hinge": (L.categorical_hinge, ONEHOT, REG_P),
    "logcosh": (L.logcosh, REG_T, REG_P), "huber": (L.huber, REG_T, REG_P),
    "cce": (L.categorical_crossentropy, ONEHOT, PROB),
    "cce_logits": (lambda t, p: L.categorical_crossentropy(t, p, from_logits=True), ONEHOT, LOGITS),
    "cce_smooth": (lambda t, p: L.categorical_crossentropy(t, p, label_smoothing=0.2), ONEHOT, PROB),
    "scce": (L.sparse_categorical_crossentropy, SPARSE, PROB),
    "scce_logits": (lambda t, p: L.sparse_categorical_crossentropy(t, p, from_logits=True), SPARSE, LOGITS),
    "bce": (L.binary_crossentropy, BIN_T, PROB),
    "bce_logits": (lambda t, p: L.binary_crossentropy(t, p, from_logits=True), BIN_T, LOGITS),
    "bce_smooth": (lambda t, p: L.binary_crossentropy(t, p, label_smoothing=0.1), BIN_T, PROB),
    "kld": (L.kullback_leibler_divergence, PROB[::-1].copy(), PROB),
    "poisson": (L.poisson, POS_T, POS_P),
    "cce_softmax_op": (lambda t, p: L.categorical_crossentropy(t, tf.nn.softmax(p)), ONEHOT, LOGITS),
    "bce_sigmoid_op": (lambda t, p: L.binary_crossentropy(t, tf.sigmoid(p)), BIN_T, LOGITS),
}
LOSS_CLASSES = {
    "MeanSquaredError": (L.MeanSquaredError, {}, REG_T, REG_P),
    "MeanAbsoluteError": (L.MeanAbsoluteError, {}, REG_T, REG_P),
    "BinaryCrossentropy": (L.BinaryCrossentropy, {"from_logits": True}, BIN_T, LOGITS),
    "CategoricalCrossentropy": (L.CategoricalCrossentropy, {"label_smoothing": 0.1}, ONEHOT, PROB),
    "SparseCategoricalCrossentropy": (L.SparseCategoricalCrossentropy, {"from_logits": True}, SPARSE, LOGITS),
    "Hinge": (L.Hinge, {}, BIN_T, REG_P), "Poisson": (L.Poisson, {}, POS_T, POS_P),
    "LogCosh": (L.LogCosh, {}, REG_T, REG_P), "Huber": (L.Huber, {"delta": 0.5}, REG_T, REG_P),
}
METRIC_FNS = {
    "binary_accuracy": (M.binary_accuracy, BIN_T, PROB),
    "categorical_accuracy": (M.categorical_accuracy, ONEHOT, PROB),
    "sparse_categorical_accuracy": (M.sparse_categorical_accuracy, SPARSE.astype(np.float32)[:, None], PROB),
    "top_k_categorical_accuracy": (lambda t, p: M.top_k_categorical_accuracy(t, p, k=2), ONEHOT, PROB),
    "sparse_top_k_categorical_accuracy": (lambda t, p: M.sparse_top_k_categorical_accuracy(t, p, k=2),
                                          SPARSE, PROB),
}
METRIC_CLASSES = {
    "BinaryAccuracy": (M.BinaryAccuracy, {"threshold": 0.3}, BIN_T, PROB),
    "CategoricalAccuracy": (M.CategoricalAccuracy, {}, ONEHOT, PROB),
    "SparseCategoricalAccuracy": (M.SparseCategoricalAccuracy, {}, SPARSE, PROB),
    "MeanSquaredError": (M.MeanSquaredError, {}, REG_T, REG_P),
    "CategoricalCrossentropy": (M.CategoricalCrossentropy, {}, ONEHOT, PROB),
}

out = {"inputs": {k: v.tolist() for k, v in dict(X=X, PROB=PROB, ONEHOT=ONEHOT, SPARSE=SPARSE, BIN_T=BIN_T,
                                                 REG_T=REG_T, REG_P=REG_P, POS_T=POS_T, POS_P=POS_P, SW=SW,
                                                 LOGITS=LOGITS).items()}}
with tf.Graph().as_default(), tf.Session() as sess:
    x = tf.constant(X)
    out["activations"] = {k: sess.run(f(x)).tolist() for k, f in ACTS.items()}
    out["losses"] = {k: sess.run(f(tf.constant(t), tf.constant(p))).tolist() for k, (f, t, p) in LOSS_FNS.items()}
    out["loss_classes"] = {}
    for k, (cls, kw, t, p) in LOSS_CLASSES.items():
        obj = cls(**kw)
        out["loss_classes"][k] = {"kwargs": kw, "plain": float(sess.run(obj(t, p))),
                                  "weighted": float(sess.run(obj(t, p, sample_weight=SW)))}
    out["metrics"] = {k: sess.run(f(tf.constant(t), tf.constant(p))).tolist() for k, (f, t, p) in METRIC_FNS.items()}
    out["metric_classes"] = {}
    for k, (cls, kw, t, p) in METRIC_CLASSES.items():
        m = cls(**kw)
        u1 = m.update_state(t, p)
        u2 = m.update_state(t[:2], p[:2], sample_weight=SW[:2])
        sess.run([v.initializer for v in m.variables])
        sess.run(u1)
        sess.run(u2)
        out["metric_classes"][k] = {"kwargs": kw, "result": float(sess.run(m.result()))}
    AUC_T = (rng.uniform(size=40) > 0.5).astype(np.float32)
    AUC_P = np.clip(0.35 * AUC_T + rng.uniform(0, 0.65, 40), 0, 1).astype(np.float32)
    AUC_W = rng.uniform(0, 2, 40).astype(np.float32)
    out["inputs"].update(AUC_T=AUC_T.tolist(), AUC_P=AUC_P.tolist(), AUC_W=AUC_W.tolist())
    out["auc"] = []
    for kw in [{}, {"curve": "PR"}, {"summation_method": "minoring"}, {"curve": "PR", "summation_method": "majoring"},
               {"num_thresholds": 10}, {"thresholds": [0.2, 0.5, 0.7]}]:
        m = M.AUC(**kw)
        u1 = m.update_state(AUC_T[:25], AUC_P[:25])
        u2 = m.update_state(AUC_T[25:], AUC_P[25:], sample_weight=AUC_W[25:])
        sess.run([v.initializer for v in m.variables])
        sess.run(u1)
        sess.run(u2)
        out["auc"].append({"kwargs": kw, "result": float(sess.run(m.result()))})
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_losses_tf.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
print("wrote", path)
