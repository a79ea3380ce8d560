"""Records tf.distributions values (tf.compat.v1, graph mode) from real TensorFlow into
tests/data/distributions_goldens.json, over the cases of tests/data/distributions_cases.py. Run with a Python
that has tensorflow-cpu==2.21.0:

    /path/to/tf/python tests/data/make_distributions_goldens.py
"""

import json
import os
import sys
import warnings

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
warnings.filterwarnings("ignore")
tfd = tf.distributions
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import distributions_cases as cases  # noqa: E402

OUT = os.path.join(HERE, "distributions_goldens.json")


def main():
    golden = {}
    for name, (make, x) in cases.dists(tf).items():
        g = tf.Graph()
        with g.as_default():
            d = make()
            entry = {"batch_shape": d.batch_shape.as_list(), "event_shape": d.event_shape.as_list(),
                     "name": d.name, "dtype": d.dtype.name,
                     "reparameterization_type": str(d.reparameterization_type)}
            with tf.Session() as s:
                for m in cases.METHODS:
                    try:
                        args = (tf.constant(x, dtype=d.dtype),) if m in cases.VALUE_METHODS else ()
                        entry[m] = np.asarray(s.run(getattr(d, m)(*args))).tolist()
                    except Exception as e:  # noqa: BLE001
                        entry[m] = "error: %s" % type(e).__name__
                try:
                    entry["sample_shape"] = list(s.run(d.sample([4, 2], seed=1)).shape)
                except Exception as e:  # noqa: BLE001
                    entry["sample_shape"] = "error: %s" % type(e).__name__
        golden[name] = entry
    kl = {}
    for name, (a, b) in cases.kl_pairs(tf).items():
        g = tf.Graph()
        with g.as_default():
            with tf.Session() as s:
                kl[name] = np.asarray(s.run(tfd.kl_divergence(a(), b()))).tolist()
    golden["kl"] = kl
    with open(OUT, "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
