"""Records TensorFlow's results of the LinearOperator cases of tests/data/linalg_operator_cases.py into
tests/data/linalg_operators_tf.npz (values; hints under "meta").

Run with an environment that has TensorFlow (not needed by the tests):
    /work/tfenv/bin/python tests/data/make_linalg_operators_tf.py
"""

import json
import os
import sys

import numpy as np
import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from linalg_operator_cases import cases  # noqa: E402

tf.disable_v2_behavior()


def main():
    out, meta = cases(tf)
    with tf.Session() as sess:
        vals = sess.run(out)
    arrays = {k.replace("/", "__"): v for k, v in vals.items()}
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(os.path.join(HERE, "linalg_operators_tf.npz"), **arrays)


if __name__ == "__main__":
    main()
