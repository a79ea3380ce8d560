"""Op-table row of Bucketize (tensorweave/ops/math_bucketize_ops.py): reference `bisect.bisect_right`."""

import bisect

import numpy as np

from tensorweave.ops.math_bucketize_ops import bucketize
from tests.ops.op_table.harness import Row, rand

_BOUNDARIES = [-1.0, 0.0, 0.5, 2.0]


def _ref(x):
    flat = [bisect.bisect_right(_BOUNDARIES, v) if v == v else len(_BOUNDARIES) for v in x.reshape(-1).tolist()]
    return np.array(flat, np.int32).reshape(x.shape)


ROWS = [
    Row("Bucketize", lambda x: bucketize(x, _BOUNDARIES), _ref, lambda dt, rng: [rand(rng, (3, 5), dt, -3, 3)],
        dtypes=(np.float32, np.float64, np.int32, np.int64), grad=False),
]
