"""Records the expected results of tensorweave's canned estimators (tests/estimator/test_canned_*.py)
with real TensorFlow: `tests/data/canned_goldens.json`.

TF 2.21 no longer ships `tf.estimator`, so this script rebuilds, with TF's own graph ops
(`tf.compat.v1`), what TF 1.15's canned heads compute for fixed weights: the forward pass (dense
layers, `linear_model`), the loss (`sigmoid_cross_entropy_with_logits`,
`sparse_softmax_cross_entropy`, `mean_squared_error`, reduced with `Reduction.SUM` per batch),
the metrics (`tf.compat.v1.metrics.accuracy/precision/recall/auc/mean`), the predictions and one
gradient-descent step. Estimator's `loss` is the mean over evaluation batches of the batch loss.

    TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_canned_goldens.py
"""

import json
import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "canned_goldens.json")

X = np.array([[1., 2.], [-1., 0.5], [0.3, -2.], [2., 1.], [-0.5, -0.5], [1.5, -1.]], np.float32)
W = np.array([1., 2., 0.5, 1., 3., 0.], np.float32)        # example weights
Y_BIN = np.array([1, 0, 0, 1, 1, 0], np.int64)
Y_MULTI = np.array([2, 0, 1, 2, 1, 0], np.int64)
Y_REG = np.array([[1., 0.], [-1., 2.], [0.5, 0.5], [3., -1.], [0., 0.], [1., 1.]], np.float32)
C = np.array([[b"a"], [b"b"], [b"zz"], [b"c"], [b"a"], [b"b"]], dtype=object)   # vocabulary a, b, c; "zz" is OOV
BATCH = 4   # evaluation batches: rows 0-3 and 4-5

DNN_BIN = {"dnn/hiddenlayer_0/kernel": [[.6, .5], [-.3, .2]], "dnn/hiddenlayer_0/bias": [.1, -.1],
           "dnn/hiddenlayer_1/kernel": [[1., .8], [-.8, -1.]], "dnn/hiddenlayer_1/bias": [.2, -.2],
           "dnn/logits/kernel": [[-1.], [1.]], "dnn/logits/bias": [.3]}
DNN_MULTI = {"dnn/hiddenlayer_0/kernel": [[.6, .5], [-.3, .2]], "dnn/hiddenlayer_0/bias": [.1, -.1],
             "dnn/logits/kernel": [[-1., .5, .2], [1., -.4, .3]], "dnn/logits/bias": [.3, -.1, 0.]}
DNN_REG = {"dnn/hiddenlayer_0/kernel": [[.6, .5], [-.3, .2]], "dnn/hiddenlayer_0/bias": [.1, -.1],
           "dnn/logits/kernel": [[-1., .5], [1., -.4]], "dnn/logits/bias": [.3, -.1]}
LINEAR = {"linear/linear_model/x/weights": [[.5], [-.25]], "linear/linear_model/c/weights": [[1.], [-2.], [.5]],
          "linear/linear_model/bias_weights": [.2]}
BASELINE = {"baseline/bias": [.5, -.2, .1]}


def dense_forward(x, params, hidden):
    net = tf.constant(x)
    for i in range(hidden):
        net = tf.nn.relu(tf.matmul(net, tf.constant(np.array(params["dnn/hiddenlayer_%d/kernel" % i], np.float32)))
                         + np.array(params["dnn/hiddenlayer_%d/bias" % i], np.float32))
    return tf.matmul(net, tf.constant(np.array(params["dnn/logits/kernel"], np.float32))) + \
        np.array(params["dnn/logits/bias"], np.float32)


def linear_forward(x, c, params):
    ids = {b"a": 0, b"b": 1, b"c": 2}
    wc = np.array(params["linear/linear_model/c/weights"], np.float32)
    id_t = tf.constant(np.array([ids.get(v[0], -1) for v in c], np.int64))
    looked = tf.where(id_t >= 0, tf.gather(wc[:, 0], tf.maximum(id_t, 0)), tf.zeros_like(id_t, tf.float32))
    return tf.matmul(tf.constant(x), tf.constant(np.array(params["linear/linear_model/x/weights"], np.float32))) + \
        looked[:, None] + np.array(params["linear/linear_model/bias_weights"], np.float32)


def batch_loss_mean(unreduced, weights):
    """Estimator's `loss`: the mean over evaluation batches of the batch's weighted SUM loss."""
    per_example = (unreduced * weights[:, None]).sum(axis=1)
    sums = [per_example[i:i + BATCH].sum() for i in range(0, len(per_example), BATCH)]
    return float(np.mean(sums))


def run(sess, tensors):
    sess.run(tf.local_variables_initializer())
    return sess.run(tensors)


def metric(sess, pair):
    sess.run(tf.local_variables_initializer())
    sess.run(pair[1])
    return float(sess.run(pair[0]))


def binary_case(logits_fn, weighted):
    with tf.Graph().as_default(), tf.Session() as sess:
        logits = logits_fn()
        labels = tf.constant(Y_BIN[:, None].astype(np.float32))
        w = tf.constant(W[:, None]) if weighted else None
        wt = W if weighted else np.ones(6, np.float32)
        unreduced = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
        logistic = tf.sigmoid(logits)
        two = tf.concat([tf.zeros_like(logits), logits], -1)
        probabilities = tf.nn.softmax(two)
        class_ids = tf.argmax(two, -1)[:, None]
        m = tf.metrics
        out = {
            "accuracy": metric(sess, m.accuracy(labels, class_ids, weights=w)),
            "precision": metric(sess, m.precision(labels, class_ids, weights=w)),
            "recall": metric(sess, m.recall(labels, class_ids, weights=w)),
            "prediction/mean": metric(sess, m.mean(logistic, weights=w)),
            "label/mean": metric(sess, m.mean(labels, weights=w)),
            "auc": metric(sess, m.auc(labels, logistic, weights=w)),
            "auc_precision_recall": metric(sess, m.auc(labels, logistic, weights=w, curve="PR")),
            "average_loss": metric(sess, m.mean(unreduced, weights=w)),
        }
        out["accuracy_baseline"] = max(out["label/mean"], 1 - out["label/mean"])
        u, lg, lo, pr, ci = run(sess, [unreduced, logits, logistic, probabilities, class_ids])
        out["loss"] = batch_loss_mean(u, wt)
        return {"metrics": out, "predictions": {"logits": lg.tolist(), "logistic": lo.tolist(),
                                                "probabilities": pr.tolist(), "class_ids": ci.tolist()}}


def multi_case(logits_fn, weighted, n_classes=3):
    with tf.Graph().as_default(), tf.Session() as sess:
        logits = logits_fn()
        labels = tf.constant(Y_MULTI[:, None])
        w = tf.constant(W[:, None]) if weighted else None
        wt = W if weighted else np.ones(6, np.float32)
        unreduced = tf.losses.sparse_softmax_cross_entropy(labels, logits, reduction=tf.losses.Reduction.NONE)
        unreduced = unreduced[:, None] if unreduced.shape.ndims == 1 else unreduced
        class_ids = tf.argmax(logits, -1)[:, None]
        out = {"accuracy": metric(sess, tf.metrics.accuracy(labels, class_ids, weights=w)),
               "average_loss": metric(sess, tf.metrics.mean(unreduced, weights=w))}
        u, lg, pr, ci = run(sess, [unreduced, logits, tf.nn.softmax(logits), class_ids])
        out["loss"] = batch_loss_mean(u, wt)
        return {"metrics": out, "predictions": {"logits": lg.tolist(), "probabilities": pr.tolist(),
                                                "class_ids": ci.tolist()}}


def regression_case(logits_fn, labels_np, weighted):
    with tf.Graph().as_default(), tf.Session() as sess:
        logits = logits_fn()
        labels = tf.constant(labels_np)
        w = tf.constant(W[:, None]) * tf.ones_like(logits) if weighted else None
        wt = W if weighted else np.ones(6, np.float32)
        unreduced = tf.losses.mean_squared_error(labels, logits, reduction=tf.losses.Reduction.NONE)
        out = {"average_loss": metric(sess, tf.metrics.mean(unreduced, weights=w)),
               "prediction/mean": metric(sess, tf.metrics.mean(logits, weights=w)),
               "label/mean": metric(sess, tf.metrics.mean(labels, weights=w))}
        u, lg = run(sess, [unreduced, logits])
        out["loss"] = batch_loss_mean(u, wt)
        return {"metrics": out, "predictions": {"predictions": lg.tolist()}}


def sgd_step(params, hidden, lr=0.1):
    """One GradientDescent step of the binary DNN on all six examples (SUM loss, no weights)."""
    with tf.Graph().as_default(), tf.Session() as sess:
        variables = {k: tf.Variable(np.array(v, np.float32), name=k.replace("/", "_")) for k, v in params.items()}
        net = tf.constant(X)
        for i in range(hidden):
            net = tf.nn.relu(tf.matmul(net, variables["dnn/hiddenlayer_%d/kernel" % i])
                             + variables["dnn/hiddenlayer_%d/bias" % i])
        logits = tf.matmul(net, variables["dnn/logits/kernel"]) + variables["dnn/logits/bias"]
        loss = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(
            labels=tf.constant(Y_BIN[:, None].astype(np.float32)), logits=logits))
        train = tf.train.GradientDescentOptimizer(lr).minimize(loss)
        sess.run(tf.global_variables_initializer())
        loss_value = sess.run(loss)
        sess.run(train)
        return {"loss": float(loss_value), "params": {k: sess.run(v).tolist() for k, v in variables.items()}}


def main():
    goldens = {
        "inputs": {"x": X.tolist(), "w": W.tolist(), "y_bin": Y_BIN.tolist(), "y_multi": Y_MULTI.tolist(),
                   "y_reg": Y_REG.tolist(), "c": [v[0].decode() for v in C], "batch": BATCH},
        "params": {"dnn_bin": DNN_BIN, "dnn_multi": DNN_MULTI, "dnn_reg": DNN_REG, "linear": LINEAR,
                   "baseline": BASELINE},
        "dnn_bin": binary_case(lambda: dense_forward(X, DNN_BIN, 2), False),
        "dnn_bin_weighted": binary_case(lambda: dense_forward(X, DNN_BIN, 2), True),
        "dnn_multi_weighted": multi_case(lambda: dense_forward(X, DNN_MULTI, 1), True),
        "dnn_reg_weighted": regression_case(lambda: dense_forward(X, DNN_REG, 1), Y_REG, True),
        "linear_bin": binary_case(lambda: linear_forward(X, C, LINEAR), False),
        "linear_reg": regression_case(lambda: linear_forward(X, C, LINEAR), Y_REG[:, :1], False),
        "combined_bin": binary_case(lambda: dense_forward(X, DNN_BIN, 2) + linear_forward(X, C, LINEAR), False),
        "baseline_multi": multi_case(lambda: tf.ones([6, 3]) * np.array(BASELINE["baseline/bias"], np.float32),
                                     False),
        "dnn_bin_sgd_step": sgd_step(DNN_BIN, 2),
    }
    with open(OUT, "w") as f:
        json.dump(goldens, f, indent=1, sort_keys=True)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
