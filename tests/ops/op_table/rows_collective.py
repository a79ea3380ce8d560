"""Op-table rows of the collective ops (tensorweave/ops/collective_ops.py): HorovodAllreduce,
HorovodAllgather, HorovodBroadcast, HorovodAlltoall and the overlapped all-reduce's HorovodBucketStart/HorovodBucketWait
(no gradient: they only reduce gradients), in one process (`hvd.init()` without a launcher is a job of
size 1), where each is its input (an average over one rank; prescale and postscale factors
multiply). Values across ranks are tested by tests/distribute/test_multiprocess.py."""

import importlib.util

import numpy as np

from tests.ops.op_table.harness import FLOATS, INTS, Row, rand

ROWS = []

if importlib.util.find_spec("mpi4py") is not None:  # the [distributed] extra
    import tensorweave.distribute as hvd
    from tensorweave.ops import collective_ops

    hvd.init()

    def _inputs(dt, rng):
        return [rand(rng, (3, 4), dt)]

    def _special(dt):
        return [(np.zeros((0, 4), dt),), (np.zeros((2, 0), dt),)]

    def _float_special(dt):
        return _special(dt) + [(np.array([[np.nan, np.inf], [-np.inf, -0.0]], dt),)]

    ROWS = [
        Row("HorovodAllreduce", lambda x: hvd.allreduce(x), lambda x: x, _inputs, dtypes=FLOATS + INTS,
            special=lambda dt: _float_special(dt) if dt.kind == "f" else _special(dt)),
        Row("HorovodAllreduce", lambda x: collective_ops.allreduce(x, "sum", 2.0, 0.25),
            lambda x: (x.astype(np.float64) * 2.0 * 0.25).astype(x.dtype), _inputs, name="HorovodAllreduce-scaled",
            special=_float_special),
        Row("HorovodAllreduce", lambda x: hvd.allreduce(x, op=hvd.Max), lambda x: x, _inputs,
            name="HorovodAllreduce-max", dtypes=FLOATS + INTS, special=False),
        Row("HorovodAllgather", lambda x: hvd.allgather(x), lambda x: x, _inputs, dtypes=FLOATS + INTS,
            special=lambda dt: _float_special(dt) if dt.kind == "f" else _special(dt)),
        Row("HorovodBroadcast", lambda x: hvd.broadcast(x, 0), lambda x: x, _inputs, dtypes=FLOATS + INTS,
            special=lambda dt: _float_special(dt) if dt.kind == "f" else _special(dt)),
        Row("HorovodAlltoall", lambda x: list(hvd.alltoall(x)), lambda x: [x, np.array([len(x)], np.int32)],
            _inputs, dtypes=FLOATS + INTS, grad=[0], grad_fn=lambda x: hvd.alltoall(x)[0],
            special=lambda dt: _float_special(dt) if dt.kind == "f" else _special(dt)),
        Row("HorovodBucketStart", lambda x, y: collective_ops.bucketed_allreduce([x, y], "average"),
            lambda x, y: [x, y], lambda dt, rng: [rand(rng, (3, 4), dt), rand(rng, (5,), dt)],
            dtypes=FLOATS + INTS, grad=False, special=lambda dt: [(np.zeros((0, 4), dt), np.zeros((2,), dt))]),
        Row("HorovodBucketWait", lambda x: collective_ops.bucketed_allreduce([x], "sum", bucket_bytes=8),
            lambda x: x, _inputs, dtypes=FLOATS + INTS, grad=False,
            special=lambda dt: _float_special(dt) if dt.kind == "f" else _special(dt)),
    ]
