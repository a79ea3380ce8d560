"""Op-table rows of tensorweave/ops/core_ops.py and of the op types registered under
tensorweave/framework/ (Const, IndexedSlicesToDense, SparseToDense); see harness.py for the row API.

The gradient-only ops SumToShapeOf and BroadcastLike, and Shape of a fully known shape (which folds
to a constant), are made with `apply_op` / `optimize=False`."""

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops as tf_ops
from tests.ops.op_table.harness import BOOL, COMPLEX, FLOATS, INTS, Row, rand, special_values

MOVE = FLOATS + INTS + BOOL + (np.complex64,)
_CONST = np.array([[1.5, -0.0, 3.0], [-2.25, 7.0, 0.5]])


def _data(shape):
    return lambda dt, rng: [rand(rng, shape, dt)]


def _cycle(shape, dt):
    v = special_values(dt)
    return np.resize(v, shape).astype(dt) if v.size else np.zeros(shape, dt)


def _special(*shapes, empty=()):
    """special(dt): inputs of `shapes` filled with special values, then inputs of the `empty` shapes."""
    def special(dt):
        out = [[_cycle(s, dt) for s in shapes]]
        if empty:
            out.append([np.zeros(s, dt) for s in empty])
        return out
    return special


def _with_no_op(x):
    """x through an Identity that depends on a NoOp (the NoOp must run and change nothing)."""
    with tf.control_dependencies([tf.no_op()]):
        return tf.identity(x)


def _sum_to_ref(g, like):
    """Sum over the axes broadcasting added (leading) or stretched (size 1 in `like`)."""
    lead = g.ndim - like.ndim
    out = g.astype(np.longdouble) if g.dtype.kind == "f" else g
    out = out.sum(axis=tuple(range(lead)), dtype=out.dtype) if lead else out
    for i, d in enumerate(like.shape):
        if d == 1 and out.shape[i] != 1:
            out = out.sum(axis=i, keepdims=True, dtype=out.dtype)
    return out.astype(g.dtype)


def _indexed_slices_ref(values, indices):
    out = np.zeros((5,) + values.shape[1:], values.dtype)
    for v, i in zip(values, indices):
        out[int(i)] = out[int(i)] + v
    return out


def _sparse_to_dense_ref(indices, values, default):
    out = np.full((3, 4), default, values.dtype)
    for (i, j), v in zip(indices, values):
        out[int(i), int(j)] = v
    return out


ROWS = [
    Row("AddN", lambda a, b, c: tf.add_n([a, b, c]),
        lambda a, b, c: (a.astype(np.longdouble) + b + c).astype(a.dtype) if a.dtype.kind == "f" else a + b + c,
        lambda dt, rng: [rand(rng, (2, 3), dt) for _ in range(3)], dtypes=FLOATS + INTS + COMPLEX,
        special=lambda dt: [[_cycle((9,), dt), _cycle((9,), dt)[::-1], np.resize(
            special_values(dt)[::3], 9).astype(dt) if special_values(dt).size else np.zeros(9, dt)],
            [np.zeros((0, 2), dt)] * 3], rtol={np.float16: 5e-3}),
    Row("Identity", tf.identity, lambda x: x.copy(), _data((2, 3)), dtypes=MOVE,
        special=_special((2, 3), empty=[(0, 3)])),
    Row("IdentityN", lambda a, b: tf.identity_n([a, b]), lambda a, b: [a.copy(), b.copy()],
        lambda dt, rng: [rand(rng, (2, 3), dt), rand(rng, (4,), dt)], dtypes=MOVE,
        special=_special((2, 3), (4,), empty=[(0, 3), (0,)])),
    Row("NoOp", _with_no_op, lambda x: x.copy(), _data((3,)), dtypes=(np.float32, np.int32), special=False),
    Row("StopGradient", tf.stop_gradient, lambda x: x.copy(), _data((2, 3)), dtypes=MOVE, grad=False,
        special=_special((2, 3), empty=[(0, 3)])),
    Row("ZerosLike", tf.zeros_like, lambda x: np.zeros(x.shape, x.dtype), _data((2, 3)), dtypes=MOVE, grad=False,
        special=_special((2, 3), empty=[(0, 3)])),
    Row("OnesLike", tf.ones_like, lambda x: np.ones(x.shape, x.dtype), _data((2, 3)), dtypes=MOVE, grad=False,
        special=_special((2, 3), empty=[(0, 3)])),
    Row("Shape", lambda x: tf.shape(x, optimize=False), lambda x: np.array(x.shape, np.int32), _data((2, 3, 1)),
        dtypes=MOVE, grad=False, special=_special((0, 3), empty=[()])),
    Row("Shape", lambda x: tf.shape(x, out_type=tf.int64, optimize=False), lambda x: np.array(x.shape, np.int64),
        _data((4, 1)), dtypes=(np.float32,), grad=False, special=False, name="Shape-int64"),
    Row("Placeholder", lambda x: x, lambda x: x.copy(), _data((2, 3)), dtypes=MOVE, grad=None,
        special=_special((2, 3), empty=[(0, 3)]), eager=False,
        note="placeholders do not exist in eager mode (tests/eager/test_graph_api_in_eager.py); a placeholder is "
             "the graph's input: no gradient to check"),
    Row("PlaceholderWithDefault", lambda x: tf.placeholder_with_default(x, [None, 3]), lambda x: x.copy(),
        _data((2, 3)), dtypes=MOVE, static_known=False, special=_special((2, 3), empty=[(0, 3)]),
        grad_fn=lambda x: tf.placeholder_with_default(x, [2, 3])),
    Row("Const", lambda x: tf.constant(_CONST.astype(x.dtype.as_numpy_dtype)), lambda x: _CONST.astype(x.dtype),
        lambda dt, rng: [np.zeros(1, dt)], dtypes=MOVE, grad=False, special=False),
    Row("Const", lambda x: tf.constant(np.zeros((0, 2), x.dtype.as_numpy_dtype)), lambda x: np.zeros((0, 2), x.dtype),
        lambda dt, rng: [np.zeros(1, dt)], dtypes=(np.float32, np.int64), grad=False, special=False,
        name="Const-empty"),
    Row("SumToShapeOf", lambda g, like: tf_ops.apply_op("SumToShapeOf", [g, like]), _sum_to_ref,
        lambda dt, rng: [rand(rng, (2, 3, 4), dt), rand(rng, (3, 1), dt)], dtypes=FLOATS + INTS + COMPLEX,
        rtol={np.float16: 5e-3}, grad=[0], signed_zeros=False,
        special=lambda dt: [[np.zeros((2, 0, 4), dt), np.zeros((0, 1), dt)], [_cycle((3, 4), dt), _cycle((1, 4), dt)]]),
    # `like` is a shape-only input, left where it is: fed on the host here, made on the device below.
    Row("BroadcastLike", lambda x, like: tf_ops.apply_op("BroadcastLike", [x, like]),
        lambda x, like: np.array(np.broadcast_to(x, like.shape)),
        lambda dt, rng: [rand(rng, (3, 1), dt), rand(rng, (2, 3, 4), dt)], dtypes=MOVE, grad=[0],
        special=lambda dt: [[_cycle((3, 1), dt), np.zeros((2, 3, 4), dt)], [np.zeros((1,), dt), np.zeros((0, 2), dt)]]),
    Row("BroadcastLike", lambda x, like: tf_ops.apply_op("BroadcastLike", [x, like * like]),
        lambda x, like: np.array(np.broadcast_to(x, like.shape)),
        lambda dt, rng: [rand(rng, (1, 4), dt), rand(rng, (3, 4), dt)], dtypes=(np.float32, np.int32),
        grad=None, special=False, name="BroadcastLike-device-like",
        note="the gradient is checked on the row above"),
    Row("IndexedSlicesToDense",
        lambda v, i: tf.convert_to_tensor(tf.IndexedSlices(v, i, tf.constant([5, 2]))), _indexed_slices_ref,
        lambda dt, rng: [rand(rng, (3, 2), dt), np.array([4, 0, 4], np.int32)], dtypes=FLOATS + INTS + (np.complex64,),
        grad=[0], static_known=False,
        grad_fn=lambda v, i: tf.reshape(tf.convert_to_tensor(tf.IndexedSlices(v, i, tf.constant([5, 2]))), [5, 2]),
        special=lambda dt: [[_cycle((3, 2), dt), np.array([1, 2, 3], np.int64)],
                            [np.zeros((0, 2), dt), np.zeros(0, np.int32)]]),
    Row("SparseToDense", lambda i, v, d: tf.sparse_to_dense(i, [3, 4], v, d), _sparse_to_dense_ref,
        lambda dt, rng: [np.array([[0, 1], [1, 3], [2, 0]], np.int64), rand(rng, (3,), dt), rand(rng, (), dt)],
        dtypes=FLOATS + INTS + BOOL, grad=[1, 2],
        special=lambda dt: [[np.zeros((0, 2), np.int32), np.zeros(0, dt), _cycle((), dt)],
                            [np.array([[0, 0], [2, 3]], np.int32), _cycle((2,), dt), _cycle((), dt)]]),
]
