"""Shared loader for the tf.keras goldens recorded by tests/data/make_keras_losses_tf.py."""

import json
import os

import numpy as np

with open(os.path.join(os.path.dirname(__file__), "..", "data", "keras_losses_tf.json")) as _f:
    DATA = json.load(_f)

_DTYPES = {"SPARSE": np.int64}
INPUTS = {k: np.array(v, _DTYPES.get(k, np.float32)) for k, v in DATA["inputs"].items()}
