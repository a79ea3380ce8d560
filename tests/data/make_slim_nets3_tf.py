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

import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slim_tf_reference as ref  # noqa: E402

tf, slim = ref.import_tf_slim()
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "/tmp/tfmodels")
import slim_nets3_cases as cases  # noqa: E402
from nets import lenet, mobilenet_v1  # noqa: E402

if __name__ == "__main__":
    ref.record_model_zoo("slim_nets3", cases, types.SimpleNamespace(mobilenet_v1=mobilenet_v1, lenet=lenet), tf, slim)
