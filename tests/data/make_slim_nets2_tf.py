"""Records tf-slim (PyPI `tf-slim` 1.1 on TF 2.21, tf.compat.v1 graph mode) goldens of Inception V2 and
OverFeat for tests/contrib/test_slim_nets2.py, over the cases of tests/data/slim_nets2_cases.py:

- tests/data/slim_nets2_tf.json: per case, the global variables (names and shapes), the number of
  regularization losses and update ops, the end points (names and static shapes, in order) and the
  logits' shape;
- tests/data/slim_nets2_tf.npz: the logits of every case (variables set by `set_vars`);
- tests/data/slim_nets2_checkpoint/model.ckpt: a TF-written (V2 format) checkpoint of `CKPT_CASE`.

Run with the reference environment: TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_slim_nets2_tf.py
"""

import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slim_tf_reference as ref  # noqa: E402

tf, slim = ref.import_tf_slim()
import slim_nets2_cases as cases  # noqa: E402
from tf_slim.nets import inception_v2, overfeat  # noqa: E402

if __name__ == "__main__":
    ref.record_model_zoo("slim_nets2", cases, types.SimpleNamespace(inception_v2=inception_v2, overfeat=overfeat), tf,
                         slim)
