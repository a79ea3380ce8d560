"""Records tf-keras goldens for tests/keras/test_applications.py: the models of
tests/data/keras_applications_cases.py built by Keras Applications 1.0.8 (the package TF 1.15 wraps as
`tf.keras.applications`) on tf-keras' layers, with weights=None: their layer names, weight names and shapes and
parameter counts (keras_applications_tf.json), their outputs on the fixed input with the cases' seeded weights
(keras_applications_tf.npz), and one model's weights saved by tf-keras (keras_applications_<case>.h5).

Run with the real-TF environment from the repository root, KA_PATH naming a directory that holds the
`keras_applications` package at its 1.0.8 tag (git show 1.0.8:keras_applications/...):
  KA_PATH=/tmp/ka_pkg TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_applications_tf.py
"""

import importlib
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
keras = tf.keras
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.environ["KA_PATH"])
import keras_applications  # noqa: E402

from tests.data import keras_applications_cases as cases  # noqa: E402

assert keras_applications.__version__ == "1.0.8", keras_applications.__version__
MODULES = dict(backend=keras.backend, layers=keras.layers, models=keras.models, utils=keras.utils)


def main():
    meta, out = {}, {}
    for name, (module, fn, kwargs, run) in sorted(cases.CASES.items()):
        with tf.Graph().as_default(), tf.Session() as sess:
            keras.backend.set_session(sess)
            build = getattr(importlib.import_module("keras_applications." + module), fn)
            model = build(weights=None, **kwargs, **MODULES)
            meta[name] = dict(
                model_name=model.name,
                layers=[layer.name for layer in model.layers],
                weights=[[w.name, list(map(int, w.shape))] for layer in model.layers for w in layer.weights],
                trainable=len(model.trainable_weights),
                params=int(model.count_params()),
                output_shape=list(model.output_shape),
            )
            if run or name == cases.H5_CASE:
                cases.set_weights(model, cases.weights([(w.name, tuple(w.shape)) for layer in model.layers
                                                        for w in layer.weights]))
                x = cases.image(kwargs["input_shape"])
                out[name] = model.predict(x)
            if name == cases.H5_CASE:
                model.save_weights(os.path.join(HERE, "keras_applications_%s.h5" % name))
    with open(os.path.join(HERE, "keras_applications_tf.json"), "w") as f:
        json.dump(meta, f, separators=(",", ":"))
    np.savez(os.path.join(HERE, "keras_applications_tf.npz"), **out)
    print({k: v.shape for k, v in out.items()})


if __name__ == "__main__":
    main()
