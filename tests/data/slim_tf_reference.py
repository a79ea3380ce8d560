"""What the tf-slim golden recorders (tests/data/make_slim*_tf.py, make_slim_goldens.py) share: importing
tf-slim 1.1 on TF 2.21 in tf.compat.v1 graph mode, and writing a model zoo's goldens. Run only in the
reference environment (TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python); the test suite never imports it."""

import importlib
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def import_tf_slim():
    """(tensorflow.compat.v1, tf_slim) with the shims tf-slim 1.1 needs on TF 2.21."""
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import tensorflow.compat.v1 as tf

    # TF 2.21's tf.compat.v1.layers looks for tf_keras.legacy_tf_layers, which tf_keras 2.21 keeps under src/.
    for sub in ("", ".base", ".core", ".convolutional", ".normalization", ".pooling"):
        sys.modules["tf_keras.legacy_tf_layers" + sub] = importlib.import_module("tf_keras.src.legacy_tf_layers" + sub)
    from tensorflow.python.framework import ops as tf_ops

    if not hasattr(tf_ops, "Tensor"):  # tf-slim 1.1 still spells tf.Tensor as ops.Tensor
        tf_ops.Tensor = tf.Tensor
    if not hasattr(tf_ops, "IndexedSlices"):
        tf_ops.IndexedSlices = tf.IndexedSlices
    from tensorflow.python.ops import control_flow_ops as cf

    if not hasattr(cf, "cond"):  # nor control_flow_ops.cond
        cf.cond = tf.cond
    import tf_slim as slim

    tf.disable_v2_behavior()
    return tf, slim


def shape_str(t):
    return ",".join("?" if d is None else str(d) for d in t.shape.as_list())


def record_model_zoo(stem, cases, nets, tf, slim):
    """Writes tests/data/<stem>_tf.json (per case: global variables, regularization losses and update
    ops counted, end points and the logits' shape), <stem>_tf.npz (the logits, variables set by
    `cases.set_vars`) and <stem>_checkpoint/model.ckpt (of `cases.CKPT_CASE`)."""
    meta, logits_out = {}, {}
    for case in cases.CASES:
        tf.reset_default_graph()
        logits, end_points = cases.build(case, slim, nets, tf)
        meta[case] = {
            "variables": [[v.op.name, v.shape.as_list()] for v in tf.global_variables()],
            "n_reg_losses": len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)),
            "n_update_ops": len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)),
            "end_points": [[k, shape_str(v)] for k, v in end_points.items()],
            "logits_shape": shape_str(logits),
        }
        with tf.Session() as sess:
            cases.set_vars(tf, sess)
            logits_out[case] = sess.run(logits)
            if case == cases.CKPT_CASE:
                ckpt_dir = os.path.join(HERE, stem + "_checkpoint")
                os.makedirs(ckpt_dir, exist_ok=True)
                tf.train.Saver().save(sess, os.path.join(ckpt_dir, "model.ckpt"), write_meta_graph=False,
                                      write_state=False)
        print(case, meta[case]["logits_shape"], len(meta[case]["variables"]))
    with open(os.path.join(HERE, stem + "_tf.json"), "w") as f:
        json.dump(meta, f, indent=0, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, stem + "_tf.npz"), **logits_out)
