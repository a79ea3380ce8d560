"""Records tf-slim (PyPI `tf-slim` 1.1 on TF 2.21, tf.compat.v1 graph mode) goldens for
tests/contrib/test_slim*.py into tests/data/slim_goldens.npz, over the cases of tests/data/slim_cases.py.

Run with the reference environment: TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_slim_goldens.py
Also writes tests/data/slim_checkpoint/model.ckpt (TF's V2 format) with the variables of the
test model. Variables are set after initialisation from a RandomState(0) stream in sorted-name order
(moving variances drawn from U(0.5, 1.5)), so tensorweave's test can set the same values.
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import slim_tf_reference as ref  # noqa: E402

tf, slim = ref.import_tf_slim()
import slim_cases as cases  # noqa: E402

OUT = {}
CKPT_DIR = os.path.join(HERE, "slim_checkpoint")


def table(prefix, coll):
    vs = tf.get_collection(coll)
    OUT[prefix + "_names"] = np.array([v.op.name for v in vs])
    OUT[prefix + "_shapes"] = np.array([",".join(str(d) for d in v.shape.as_list()) for v in vs])


def run_outs(prefix, outs):
    """Runs {name: tensor} after loading set_vars' values, into OUT[prefix + name]."""
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        cases.set_vars(tf, sess)
        for k, v in zip(outs, sess.run(list(outs.values()))):
            OUT[prefix + k] = v


def record_model():
    tf.reset_default_graph()
    logits = cases.model(slim, tf)
    table("model_global", tf.GraphKeys.GLOBAL_VARIABLES)
    table("model_model", tf.GraphKeys.MODEL_VARIABLES)
    table("model_trainable", tf.GraphKeys.TRAINABLE_VARIABLES)
    OUT["model_n_update_ops"] = np.array(len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)))
    OUT["model_n_reg_losses"] = np.array(len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)))
    OUT["model_end_points"] = np.array([t.aliases[0] for t in tf.get_collection("end_points")])
    OUT["model_end_point_shapes"] = np.array([",".join(map(str, t.shape.as_list()))
                                              for t in tf.get_collection("end_points")])
    reg = tf.add_n(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        cases.set_vars(tf, sess)
        OUT["model_logits"], OUT["model_reg"] = sess.run([logits, reg])
        # a TF-written V2 checkpoint of the model's variables, for the restore test
        os.makedirs(CKPT_DIR, exist_ok=True)
        tf.train.Saver().save(sess, os.path.join(CKPT_DIR, "model.ckpt"), write_meta_graph=False, write_state=False)
        sess.run(tf.get_collection(tf.GraphKeys.UPDATE_OPS))
        mv = [v for v in tf.global_variables() if "moving" in v.op.name]
        OUT["model_moving_names"] = np.array([v.op.name for v in mv])
        for v, val in zip(mv, sess.run(mv)):
            OUT["model_moving/" + v.op.name] = val


def record_batch_norm():
    bn_cases = cases.bn_cases(tf)
    for name, mode in cases.bn_runs(bn_cases):
        tf.reset_default_graph()
        x, kw = bn_cases[name]
        y, feed = cases.batch_norm(slim, tf, x, kw, mode)
        key = "bn_%s_%s" % (name, mode)
        OUT[key + "_n_updates"] = np.array(len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)))
        OUT[key + "_y"], OUT[key + "_mean"], OUT[key + "_var"] = cases.run_batch_norm(tf, y, feed)
        if mode == "const":
            table(key + "_global", tf.GraphKeys.GLOBAL_VARIABLES)
            table(key + "_model", tf.GraphKeys.MODEL_VARIABLES)
            table(key + "_trainable", tf.GraphKeys.TRAINABLE_VARIABLES)


def record_layer_norm():
    tf.reset_default_graph()
    _, y1, y2 = cases.layer_norms(slim, tf)
    table("ln_global", tf.GraphKeys.GLOBAL_VARIABLES)
    run_outs("ln_", {"y1": y1, "y2": y2})


def record_misc():
    tf.reset_default_graph()
    outs = cases.misc_layers(slim, tf)
    table("misc_global", tf.GraphKeys.GLOBAL_VARIABLES)
    run_outs("misc_", outs)


def record_losses():
    tf.reset_default_graph()
    outs = cases.losses(slim, tf)
    OUT["losses_n"] = np.array(len(slim.losses.get_losses()))
    with tf.Session() as sess:
        for k, v in zip(outs, sess.run(list(outs.values()))):
            OUT["loss_" + k] = v


def record_metrics():
    tf.reset_default_graph()
    rs = np.random.RandomState(5)
    p, lab, wt, metrics = cases.streaming_metrics(slim, tf)
    names_to_values, names_to_updates = slim.metrics.aggregate_metric_map(metrics)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        for i in range(2):
            feed = {p: rs.uniform(size=6), lab: (rs.uniform(size=6) > 0.5).astype(np.float32),
                    wt: rs.uniform(size=6)}
            OUT["metric_feed_p%d" % i], OUT["metric_feed_l%d" % i], OUT["metric_feed_w%d" % i] = (
                feed[p], feed[lab], feed[wt])
            sess.run(list(names_to_updates.values()), feed)
        for k, v in zip(names_to_values, sess.run(list(names_to_values.values()))):
            OUT["metric_" + k] = v


def record_metrics2():
    tf.reset_default_graph()
    values, updates = slim.metrics.aggregate_metric_map(cases.more_metrics(slim, tf))
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run(list(updates.values()))
        for k, v in zip(values, sess.run(list(values.values()))):
            OUT["metric2_" + k] = v


def record_optimize_loss():
    tf.reset_default_graph()
    w, _, gs, train_op, train_op2 = cases.optimize_loss(slim, tf)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        OUT["optloss_loss0"] = sess.run(train_op)
        OUT["optloss_w1"] = sess.run(w)
        OUT["optloss_loss1"] = sess.run(train_op2)
        OUT["optloss_loss2"] = sess.run(train_op2)
        OUT["optloss_w3"], OUT["optloss_gs"] = sess.run([w, gs])
    OUT["optloss_summaries"] = np.array(sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)))


def record_extra():
    tf.reset_default_graph()
    _, outs, sp = cases.extra_layers(slim, tf)
    table("extra_global", tf.GraphKeys.GLOBAL_VARIABLES)
    outs.update(sparse_indices=sp.indices, sparse_values=sp.values, sparse_shape=sp.dense_shape)
    run_outs("extra_", outs)


for fn in (record_metrics2, record_extra, record_model, record_batch_norm, record_layer_norm, record_misc,
           record_losses, record_metrics, record_optimize_loss):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        print("FAILED", fn.__name__, type(e).__name__, e)
        raise
np.savez(os.path.join(HERE, "slim_goldens.npz"), **OUT)
print("wrote", len(OUT))
