"""The golden comparison the slim model-zoo tests share: a set of cases (a `tests/data/<stem>_cases.py`
module) built into tensorweave graphs and checked against what tests/data/make_<stem>_tf.py recorded
from tf-slim: variable names and shapes, end points, the logits, and a tf-slim checkpoint restoring."""

import json
import os

import numpy as np

import tensorweave as tf
import tensorweave.contrib.slim as slim

DATA = os.path.join(os.path.dirname(__file__), "..", "data")


def shape_str(t):
    return ",".join("?" if d is None else str(d) for d in t.shape.as_list())


class Goldens:
    """The goldens `<stem>_tf.json`/`.npz` and checkpoint `<stem>_checkpoint` for the cases of
    `cases`, built with `nets` (the object whose attributes the cases' builders use); a case whose
    end points hold `predictions_key` also checks that its rows sum to one."""

    def __init__(self, stem, cases, nets, predictions_key):
        with open(os.path.join(DATA, stem + "_tf.json")) as f:
            self.meta = json.load(f)
        self.logits = np.load(os.path.join(DATA, stem + "_tf.npz"))
        self.checkpoint = os.path.join(DATA, stem + "_checkpoint", "model.ckpt")
        self.cases, self.nets, self.predictions_key = cases, nets, predictions_key

    def check_structure(self, case, logits, end_points):
        meta = self.meta[case]
        assert [[v.op.name, v.shape.as_list()] for v in tf.global_variables()] == meta["variables"]
        assert [[k, shape_str(v)] for k, v in end_points.items()] == meta["end_points"]
        assert shape_str(logits) == meta["logits_shape"]
        assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == meta["n_reg_losses"]
        assert len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)) == meta["n_update_ops"]

    def assert_logits(self, got, case):
        want = self.logits[case]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * float(np.abs(want).max()))

    def check_case(self, case):
        """Variables, end points and logits of `case` with the cases' deterministic weights."""
        with tf.Graph().as_default():
            logits, end_points = self.cases.build(case, slim, self.nets, tf)
            self.check_structure(case, logits, end_points)
            with tf.Session() as sess:
                self.cases.set_vars(tf, sess)
                out = sess.run(logits)
                if self.predictions_key in end_points:
                    pred = sess.run(end_points[self.predictions_key])
                    np.testing.assert_allclose(pred.sum(-1), 1.0, rtol=1e-5)
        self.assert_logits(out, case)

    def check_checkpoint_restore(self):
        """tf-slim's checkpoint restores (by a Saver and by `assign_from_checkpoint_fn`) and gives TF's logits."""
        for restore in ("saver", "assign_from_checkpoint_fn"):
            with tf.Graph().as_default():
                logits, _ = self.cases.build(self.cases.CKPT_CASE, slim, self.nets, tf)
                with tf.Session() as sess:
                    if restore == "saver":
                        tf.train.Saver().restore(sess, self.checkpoint)
                    else:
                        sess.run(tf.global_variables_initializer())
                        slim.assign_from_checkpoint_fn(self.checkpoint, slim.get_variables_to_restore())(sess)
                    self.assert_logits(sess.run(logits), self.cases.CKPT_CASE)
