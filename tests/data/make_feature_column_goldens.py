"""Records tf.feature_column values from real TensorFlow (tf.compat.v1, graph mode) into
tests/data/feature_column_goldens.json, over the cases of tests/data/feature_column_cases.py. Run with a
Python that has tensorflow-cpu==2.21.0:

    TF_USE_LEGACY_KERAS=1 /path/to/tf/python tests/data/make_feature_column_goldens.py
"""

import json
import os
import sys

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import feature_column_cases as cases  # noqa: E402

OUT = os.path.join(HERE, "feature_column_goldens.json")


def tolist(v):
    if isinstance(v, dict):
        return {k: tolist(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [tolist(x) for x in v]
    a = np.asarray(v)
    if a.dtype == object:
        return [x.decode() for x in a.reshape(-1)]
    return a.tolist()


def main():
    golden = {}
    c = cases.columns(tf)
    for name, build in cases.input_layer_cases(tf, c).items():
        v, names = cases.run(tf, build)
        golden[name] = {"value": tolist(v), "variables": names}
    with tf.Graph().as_default():
        out, assigns = cases.linear_model(tf, c)
        golden["linear_model"] = {"value": tolist(cases.run_assigned(tf, out, assigns)),
                                  "variables": [vv.name for vv in tf.global_variables()],
                                  "shapes": [vv.shape.as_list() for vv in tf.global_variables()]}
    for combiner in ("mean", "sqrtn"):
        with tf.Graph().as_default():
            out, assigns = cases.linear_model_combiner(tf, c, combiner)
            golden["linear_model_" + combiner] = {"value": tolist(cases.run_assigned(tf, out, assigns))}
    spec = cases.parse_example_spec(tf, c)
    golden["parse_spec"] = {k: repr(v) for k, v in sorted(spec.items())}
    golden["names"] = cases.names(tf, c)
    with open(OUT, "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
