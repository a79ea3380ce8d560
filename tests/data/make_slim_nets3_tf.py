"""Records goldens of MobileNet v1 and LeNet from the TensorFlow models repository's
`research/slim/nets/mobilenet_v1.py` and `lenet.py` (tf_slim / tf.compat.v1 versions; PyPI `tf-slim` 1.1 on
TF 2.21, tf.compat.v1 graph mode) for tests/contrib/test_slim_nets3.py, over the cases of
tests/data/slim_nets3_cases.py:

- tests/data/slim_nets3_tf.json: per case, the global variables (names and shapes), the number of
  regularization losses and update ops, the end points (names and static shapes, in order) and the
  logits' shape;
- tests/data/slim_nets3_tf.npz: the logits of every case (variables set by `set_vars`);
- tests/data/slim_nets3_checkpoint/model.ckpt: a TF-written (V2 format) checkpoint of `CKPT_CASE`.

The two model files are not part of this repository: fetch them from github.com/tensorflow/models
(research/slim/nets/) into a directory `<dir>/nets/` and pass `<dir>` (here /tmp/tfmodels) as the first
argument; they are imported from there.

Run with the reference environment:
TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_slim_nets3_tf.py /tmp/tfmodels
"""

import importlib
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

# the same TF 2.21 / tf-slim 1.1 compatibility shims as make_slim_nets_tf.py
for _sub in ("", ".base", ".core", ".convolutional", ".normalization", ".pooling"):
    sys.modules["tf_keras.legacy_tf_layers" + _sub] = importlib.import_module("tf_keras.src.legacy_tf_layers" + _sub)
from tensorflow.python.framework import ops as _tf_ops  # noqa: E402

if not hasattr(_tf_ops, "Tensor"):
    _tf_ops.Tensor = tf.Tensor
if not hasattr(_tf_ops, "IndexedSlices"):
    _tf_ops.IndexedSlices = tf.IndexedSlices
from tensorflow.python.ops import control_flow_ops as _cf  # noqa: E402

if not hasattr(_cf, "cond"):
    _cf.cond = tf.cond
import tf_slim as slim  # noqa: E402

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "/tmp/tfmodels")
from nets import lenet, mobilenet_v1  # noqa: E402

tf.disable_v2_behavior()
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import slim_nets3_cases as cases  # noqa: E402


class Nets:
    pass


NETS = Nets()
NETS.mobilenet_v1, NETS.lenet = mobilenet_v1, lenet


def shape_str(t):
    return ",".join("?" if d is None else str(d) for d in t.shape.as_list())


def main():
    meta, logits_out = {}, {}
    for case in cases.CASES:
        tf.reset_default_graph()
        logits, end_points = cases.build(case, slim, NETS, tf)
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
                ckpt_dir = os.path.join(HERE, "slim_nets3_checkpoint")
                os.makedirs(ckpt_dir, exist_ok=True)
                tf.train.Saver().save(sess, os.path.join(ckpt_dir, "model.ckpt"), write_meta_graph=False,
                                      write_state=False)
        print(case, meta[case]["logits_shape"], len(meta[case]["variables"]))
    with open(os.path.join(HERE, "slim_nets3_tf.json"), "w") as f:
        json.dump(meta, f, indent=0, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, "slim_nets3_tf.npz"), **logits_out)


if __name__ == "__main__":
    main()
