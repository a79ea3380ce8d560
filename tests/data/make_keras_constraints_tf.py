"""Records tf.keras RadialConstraint outputs (eager: tf-keras' version builds a variable in graph mode).

Run: TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_constraints_tf.py
"""

import json
import os

import numpy as np
import tensorflow as tf
import tf_keras as keras

out = {"radial": []}
rng = np.random.RandomState(1)
for n in (2, 3, 4, 5, 6):
    w = rng.uniform(-1, 1, (n, n, 2, 3)).astype(np.float32)
    r = keras.constraints.RadialConstraint()(tf.constant(w)).numpy()
    out["radial"].append({"w": w.tolist(), "result": r.tolist()})
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_constraints_tf.json")
with open(path, "w") as f:
    json.dump(out, f)
print("wrote", path)
