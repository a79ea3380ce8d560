"""Op-table rows of tensorweave/ops/array_ops.py (see harness.py for the row API).

References index with explicit Python loops or basic NumPy indexing; none calls the kernels.
Internal op types that only gradients build (ConcatOffset, MirrorPadGrad, StridedSliceGrad) and
shape ops that fold to constants for known shapes (Rank, Size) are made with `apply_op`."""

import itertools

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops as tf_ops
from tests.ops.op_table.harness import BOOL, COMPLEX, FLOATS, INTS, Row, rand, special_values

# The dtypes data-movement ops are checked on.
MOVE = FLOATS + INTS + BOOL + (np.complex64,)
SHAPE_INTS = (np.int32, np.int64)


def _data(shape, lo=-2.0, hi=2.0):
    return lambda dt, rng: [rand(rng, shape, dt, lo, hi)]


def _cycle(shape, dt):
    """An array of `shape` cycling through the dtype's special values (NaN, +-inf, -0.0 for floats)."""
    v = special_values(dt)
    if v.size == 0:
        return np.zeros(shape, dt)
    return np.resize(v, shape).astype(dt)


def _special_data(regular, empty, extra=()):
    """special(dt): the regular shapes filled with special values, the `empty` shapes (each a list of
    input shapes), and `extra(dt)` fixed inputs appended to every case."""
    def special(dt):
        dt = np.dtype(dt)
        tail = list(extra(dt)) if callable(extra) else list(extra)
        return [[_cycle(s, dt) for s in regular] + tail] + [[np.zeros(s, dt) for s in e] + tail for e in empty]
    return special


def _copy(a):
    return np.array(a, copy=True)


def _gather_ref(axis):
    def ref(p, idx):
        p = np.moveaxis(p, axis, 0)
        out = np.stack([p[int(i)] for i in np.ravel(idx)]) if np.size(idx) else np.zeros((0,) + p.shape[1:], p.dtype)
        out = out.reshape(np.shape(idx) + p.shape[1:])
        return np.moveaxis(out, list(range(np.ndim(idx))), list(range(axis, axis + np.ndim(idx))))
    return ref


def _gather_nd_ref(p, idx):
    idx = np.asarray(idx)
    k = idx.shape[-1]
    rows = idx.reshape(-1, k)
    out = [p[tuple(int(i) for i in r)] for r in rows]
    tail = p.shape[k:]
    return (np.array(out, p.dtype) if out else np.zeros((0,) + tail, p.dtype)).reshape(idx.shape[:-1] + tail)


def _batch_gather_ref(axis, batch_dims):
    """GatherV2 with batch dimensions, by loops over the batch and outer positions."""
    def ref(p, idx):
        b = batch_dims % idx.ndim if batch_dims < 0 else batch_dims
        a = axis % p.ndim
        out = np.zeros(p.shape[:a] + idx.shape[b:] + p.shape[a + 1:], p.dtype)
        for bi in np.ndindex(*p.shape[:b]):
            for oi in np.ndindex(*p.shape[b:a]):
                for ii in np.ndindex(*idx.shape[b:]):
                    out[bi + oi + ii] = p[bi + oi + (int(idx[bi + ii]),)]
        return out
    return ref


def _batch_gather_nd_ref(batch_dims):
    def ref(p, idx):
        out = np.zeros(idx.shape[:-1] + p.shape[batch_dims + idx.shape[-1]:], p.dtype)
        for pos in np.ndindex(*idx.shape[:-1]):
            out[pos] = p[pos[:batch_dims] + tuple(int(v) for v in idx[pos])]
        return out
    return ref


def _scatter_nd_ref(shape):
    def ref(idx, upd):
        out = np.zeros(shape, upd.dtype)
        k = idx.shape[-1]
        for r, u in zip(idx.reshape(-1, k), upd.reshape((-1,) + tuple(shape[k:]))):
            key = tuple(int(i) for i in r)
            out[key] = np.logical_or(out[key], u) if upd.dtype == bool else out[key] + u
        return out
    return ref


def _mirror_index(n, before, after, mode):
    """Source index of each padded position along one axis."""
    off = 0 if mode == "REFLECT" else 1
    out = []
    for i in range(-before, n + after):
        j = i
        if i < 0:
            j = -i - off
        elif i >= n:
            j = 2 * n - 2 - i + off
        out.append(j)
    return out


def _mirror_pad_ref(paddings, mode):
    def ref(x):
        for axis, (b, a) in enumerate(paddings):
            x = np.take(x, _mirror_index(x.shape[axis], b, a, mode), axis=axis)
        return x
    return ref


def _mirror_pad_grad_ref(paddings, mode):
    def ref(g):
        for axis, (b, a) in enumerate(paddings):
            n = g.shape[axis] - b - a
            out = np.zeros(g.shape[:axis] + (n,) + g.shape[axis + 1:], g.dtype)
            for k, j in enumerate(_mirror_index(n, b, a, mode)):
                idx_out = (slice(None),) * axis + (j,)
                idx_in = (slice(None),) * axis + (k,)
                out[idx_out] = out[idx_out] + g[idx_in]
            g = out
        return g
    return ref


def _pad_ref(paddings, value=0):
    def ref(x, *cv):
        c = cv[0] if cv else value
        out = np.full(tuple(d + b + a for d, (b, a) in zip(x.shape, paddings)), c, x.dtype)
        out[tuple(slice(b, b + d) for d, (b, _) in zip(x.shape, paddings))] = x
        return out
    return ref


def _range_ref(start, limit, delta):
    out, v = [], start
    while (v < limit) if delta > 0 else (v > limit):
        out.append(v)
        v = start + len(out) * delta
    return np.array(out, np.asarray(start).dtype)


def _reverse_sequence_ref(x, lengths):
    out = x.copy()
    for b, n in enumerate(lengths):
        out[b, :n] = x[b, :n][::-1]
    return out


def _top_k_ref(k):
    def ref(x):
        vals, idx = [], []
        for r in x.reshape(-1, x.shape[-1]):
            order = sorted(range(len(r)), key=lambda i: (-float(r[i]), i))[:k]
            idx.append(order)
            vals.append([r[i] for i in order])
        shape = x.shape[:-1] + (k,)
        return [np.array(vals, x.dtype).reshape(shape), np.array(idx, np.int32).reshape(shape)]
    return ref


def _unique_ref(x):
    seen, y, idx = {}, [], []
    for v in x.tolist():
        if v not in seen:
            seen[v] = len(y)
            y.append(v)
        idx.append(seen[v])
    return [np.array(y, x.dtype), np.array(idx, np.int32)]


def _strided_grad_ref(shape, index):
    def ref(dy):
        out = np.zeros(shape, dy.dtype)
        out[index] = dy
        return out
    return ref


def _concat_offset_ref(axis, *shapes):
    out, offset = [], 0
    for s in shapes:
        o = np.zeros_like(s)
        o[int(axis)] = offset
        offset += int(s[int(axis)])
        out.append(o)
    return out


def _broadcast_args_ref(a, b):
    n = max(len(a), len(b))
    la = [1] * (n - len(a)) + [int(v) for v in a]
    lb = [1] * (n - len(b)) + [int(v) for v in b]
    return np.array([x if y == 1 else y for x, y in zip(la, lb)], a.dtype)


def _select_ref(c, x, y):
    c = c.reshape(c.shape + (1,) * (x.ndim - c.ndim))
    return np.where(c, x, y)


def _invert_perm_ref(p):
    out = np.zeros_like(p)
    for i, v in enumerate(p):
        out[v] = i
    return out


def _one_hot_ref(depth, axis=-1):
    def ref(i, on, off):
        out = np.full(i.shape + (depth,), off, on.dtype)
        for pos in itertools.product(*[range(d) for d in i.shape]):
            if 0 <= i[pos] < depth:
                out[pos + (int(i[pos]),)] = on
        return np.moveaxis(out, -1, axis)
    return ref


def _ints(*values, dt=np.int32):
    return np.array(values, dt)


# ---- rows ------------------------------------------------------------------------------------------
SHAPES = [
    Row("BroadcastArgs", tf.broadcast_dynamic_shape, _broadcast_args_ref,
        lambda dt, rng: [np.array([2, 1, 3], dt), np.array([4, 1], dt)], dtypes=SHAPE_INTS, grad=False,
        special=lambda dt: [[np.zeros(0, dt), np.array([3, 0], dt)], [np.array([0, 1], dt), np.zeros(0, dt)]]),
    Row("ConcatOffset", lambda a, s1, s2: tf_ops.apply_op("ConcatOffset", [a, s1, s2]),
        lambda a, s1, s2: _concat_offset_ref(a, s1, s2),
        lambda dt, rng: [np.array(1, np.int32), np.array([2, 3, 4], dt), np.array([2, 5, 4], dt)],
        dtypes=(np.int32,), grad=False, special=lambda dt: [[np.array(0, np.int32), np.array([0, 2], dt),
                                                             np.array([3, 2], dt)]]),
    Row("Rank", lambda x: tf_ops.apply_op("Rank", [x]), lambda x: np.array(x.ndim, np.int32), _data((2, 3, 1)),
        dtypes=MOVE, grad=False, special=lambda dt: [[np.zeros((0, 3), dt)], [np.zeros((), dt)]]),
    Row("Size", lambda x: tf_ops.apply_op("Size", [x], {"out_type": tf.int32}),
        lambda x: np.array(int(np.prod(x.shape)), np.int32), _data((2, 3, 1)), dtypes=MOVE, grad=False,
        special=lambda dt: [[np.zeros((0, 3), dt)], [np.zeros((), dt)]]),
    Row("Size", lambda x: tf_ops.apply_op("Size", [x], {"out_type": tf.int64}),
        lambda x: np.array(int(np.prod(x.shape)), np.int64), _data((4, 2)), dtypes=(np.float32,), grad=False,
        special=False, name="Size-int64"),
    Row("Fill", lambda v: tf.fill([2, 3], v), lambda v: np.array([[v] * 3] * 2, v.dtype),
        lambda dt, rng: [rand(rng, (), dt)], dtypes=MOVE,
        special=lambda dt: [[_cycle((), dt)]]),
    Row("Fill", lambda d, v: tf.fill(d, v), lambda d, v: np.array(v).repeat(int(np.prod(d))).reshape(tuple(d)),
        lambda dt, rng: [np.array([3, 2], np.int32), rand(rng, (), dt)], dtypes=(np.float64, np.int64),
        static_known=False, name="Fill-fed-dims", grad=[1],
        grad_fn=lambda d, v: tf.reshape(tf.fill(d, v), [3, 2]),
        special=lambda dt: [[np.array([0, 2], np.int32), _cycle((), dt)]]),
    Row("Range", lambda s, lim, d: tf.range(s, lim, d), _range_ref,
        lambda dt, rng: [np.array(1, dt), np.array(11, dt), np.array(3, dt)], dtypes=(np.int32, np.int64, np.float32,
                                                                                    np.float64),
        static_known=False, grad=False,
        special=lambda dt: [[np.array(5, dt), np.array(5, dt), np.array(1, dt)],
                            [np.array(5, dt), np.array(-4, dt), np.array(-2, dt)]]),
    Row("Range", lambda x: tf.range(2, 11, 3, dtype=x.dtype), lambda x: np.array([2, 5, 8], x.dtype),
        lambda dt, rng: [np.zeros(1, dt)], dtypes=(np.int32, np.float32), grad=False, special=False,
        name="Range-constant"),
]

RESHAPE = [
    Row("Reshape", lambda x: tf.reshape(x, [4, -1]), lambda x: _copy(x).reshape(4, -1), _data((2, 3, 2)),
        dtypes=MOVE, special=_special_data([(2, 3, 2)], [[(0, 4)]])),
    Row("Reshape", lambda x, s: tf.reshape(x, s), lambda x, s: _copy(x).reshape(tuple(s)),
        lambda dt, rng: [rand(rng, (2, 6), dt), np.array([3, -1], np.int32)], dtypes=(np.float64,),
        static_known=False, name="Reshape-fed-shape", grad=[0], special=False,
        grad_fn=lambda x, s: tf.reshape(tf.reshape(x, s), [3, 4])),
    Row("ExpandDims", lambda x: tf.expand_dims(x, 1), lambda x: _copy(x)[:, None], _data((2, 3)), dtypes=MOVE,
        special=_special_data([(2, 3)], [[(0, 3)]])),
    Row("ExpandDims", lambda x: tf.expand_dims(x, -1), lambda x: _copy(x)[..., None], _data((2, 3)),
        dtypes=(np.float64,), name="ExpandDims-negative", special=False),
    Row("Squeeze", lambda x: tf.squeeze(x, [1]), lambda x: _copy(x)[:, 0], _data((2, 1, 3, 1)), dtypes=MOVE,
        special=_special_data([(2, 1, 3, 1)], [[(0, 1, 3, 1)]])),
    Row("Squeeze", tf.squeeze, lambda x: _copy(x).reshape([d for d in x.shape if d != 1]), _data((1, 3, 1, 2)),
        dtypes=(np.float64, np.int32), name="Squeeze-all", unknown_dims=False, unknown_rank=False,
        note="squeezing every size-1 axis needs the static shape (as TF)", special=False),
    Row("Transpose", lambda x: tf.transpose(x, [2, 0, 1]), lambda x: _copy(x).transpose(2, 0, 1), _data((2, 3, 4)),
        dtypes=MOVE, special=_special_data([(2, 3, 4)], [[(0, 3, 4)]])),
    Row("Transpose", lambda x, p: tf.transpose(x, p), lambda x, p: _copy(x).transpose(tuple(p)),
        lambda dt, rng: [rand(rng, (2, 3, 4), dt), np.array([1, 2, 0], np.int32)], dtypes=(np.float64,),
        static_known=False, name="Transpose-fed-perm", grad=[0], special=False,
        grad_fn=lambda x, p: tf.reshape(tf.transpose(x, p), [3, 4, 2])),
    Row("ConjugateTranspose", lambda x: tf.transpose(x, [1, 0], conjugate=True), lambda x: np.conj(x.T),
        _data((2, 3)), dtypes=COMPLEX, grad=None, note="complex input: the float64 gradient check does not apply",
        special=lambda dt: [[np.zeros((0, 3), dt)]]),
    Row("InvertPermutation", tf.invert_permutation, _invert_perm_ref,
        lambda dt, rng: [rng.permutation(6).astype(dt)], dtypes=SHAPE_INTS, grad=False,
        special=lambda dt: [[np.zeros(0, dt)]]),
    Row("BroadcastTo", lambda x: tf.broadcast_to(x, [2, 3, 4]), lambda x: np.array(np.broadcast_to(x, (2, 3, 4))),
        _data((3, 1)), dtypes=MOVE, special=_special_data([(3, 1)], [])),
    Row("BroadcastTo", lambda x: tf.broadcast_to(x, [0, 4]), lambda x: np.zeros((0, 4), x.dtype),
        _data((1, 4)), dtypes=(np.float64,), special=False, name="BroadcastTo-empty"),
    Row("Tile", lambda x: tf.tile(x, [2, 1, 3]), lambda x: np.concatenate([np.concatenate([x] * 3, 2)] * 2, 0),
        _data((2, 3, 1)), dtypes=MOVE, special=_special_data([(2, 3, 1)], [[(2, 0, 1)]])),
]

JOIN = [
    Row("ConcatV2", lambda a, b: tf.concat([a, b], 1),
        lambda a, b: np.array([list(r) + list(s) for r, s in zip(a, b)], a.dtype).reshape(
            a.shape[0], a.shape[1] + b.shape[1]),
        lambda dt, rng: [rand(rng, (2, 3), dt), rand(rng, (2, 2), dt)], dtypes=MOVE,
        special=_special_data([(2, 3), (2, 2)], [[(2, 0), (2, 2)], [(0, 3), (0, 2)]])),
    Row("ConcatV2", lambda a, b, c: tf.concat([a, b, c], -3),
        lambda a, b, c: np.array(list(a) + list(b) + list(c), a.dtype),
        lambda dt, rng: [rand(rng, (1, 2, 2), dt), rand(rng, (2, 2, 2), dt), rand(rng, (1, 2, 2), dt)],
        dtypes=(np.float64, np.int32), special=False, name="ConcatV2-three-negative-axis"),
    Row("Pack", lambda a, b: tf.stack([a, b], 1),
        lambda a, b: np.array([[ra, rb] for ra, rb in zip(a, b)], a.dtype).reshape(a.shape[0], 2, *a.shape[1:]),
        lambda dt, rng: [rand(rng, (3, 2), dt), rand(rng, (3, 2), dt)], dtypes=MOVE,
        special=_special_data([(3, 2), (3, 2)], [[(0, 2), (0, 2)]])),
    Row("Unpack", lambda x: tf.unstack(x, num=3, axis=1), lambda x: [_copy(x[:, i]) for i in range(x.shape[1])],
        _data((2, 3, 2)), dtypes=MOVE, special=_special_data([(2, 3, 2)], [[(0, 3, 2)]])),
    Row("Unpack", lambda x: tf.unstack(x, axis=-1), lambda x: [_copy(x[..., i]) for i in range(x.shape[-1])],
        _data((2, 3)), dtypes=(np.float64,), special=False, unknown_dims=False, unknown_rank=False,
        name="Unpack-inferred-num", note="without num, unstack needs the static size of the axis (as TF)"),
    Row("Split", lambda x: tf.split(x, 2, axis=1), lambda x: [_copy(x[:, :2]), _copy(x[:, 2:])], _data((3, 4)),
        dtypes=MOVE, special=_special_data([(3, 4)], [[(0, 4)]])),
    Row("SplitV", lambda x: tf.split(x, [1, 3, 0], axis=-1),
        lambda x: [_copy(x[:, :1]), _copy(x[:, 1:]), np.zeros((x.shape[0], 0), x.dtype)], _data((3, 4)),
        dtypes=MOVE, special=_special_data([(3, 4)], [[(0, 4)]])),
    Row("SplitV", lambda x: tf.split(x, [2, -1], axis=0), lambda x: [_copy(x[:2]), _copy(x[2:])], _data((5, 2)),
        dtypes=(np.float64,), special=False, name="SplitV-inferred-size"),
]

_PAD = [[1, 0], [0, 2]]
_MPAD = [[1, 2], [2, 1]]
PAD = [
    Row("Pad", lambda x: tf.pad(x, _PAD), _pad_ref(_PAD), _data((2, 3)), dtypes=MOVE,
        special=_special_data([(2, 3)], [[(0, 3)]])),
    Row("Pad", lambda x, p: tf.pad(x, p), lambda x, p: _pad_ref(p.tolist())(x),
        lambda dt, rng: [rand(rng, (2, 3), dt), np.array(_PAD, np.int32)], dtypes=(np.float64,),
        static_known=False, grad=[0], special=False, name="Pad-fed-paddings",
        grad_fn=lambda x, p: tf.reshape(tf.pad(x, p), [3, 5])),
    # The padding value gets no gradient (None), as in TF.
    Row("PadV2", lambda x, c: tf.pad(x, _PAD, constant_values=c), _pad_ref(_PAD),
        lambda dt, rng: [rand(rng, (2, 3), dt), rand(rng, (), dt)], dtypes=MOVE, grad=[0],
        special=lambda dt: [[_cycle((2, 3), dt), _cycle((), dt)], [np.zeros((0, 3), dt), _cycle((), dt)]]),
    Row("MirrorPad", lambda x: tf.pad(x, _MPAD, mode="REFLECT"), _mirror_pad_ref(_MPAD, "REFLECT"), _data((3, 4)),
        dtypes=MOVE, special=_special_data([(3, 4)], [])),
    Row("MirrorPad", lambda x: tf.pad(x, _MPAD, mode="SYMMETRIC"), _mirror_pad_ref(_MPAD, "SYMMETRIC"),
        _data((2, 3)), dtypes=MOVE, special=_special_data([(2, 3)], []), name="MirrorPad-symmetric"),
    Row("MirrorPadGrad", lambda g: tf_ops.apply_op("MirrorPadGrad", [g, tf.constant(_MPAD)], {"mode": "REFLECT"}),
        _mirror_pad_grad_ref(_MPAD, "REFLECT"), _data((6, 7)), dtypes=FLOATS + INTS + (np.complex64,),
        special=_special_data([(6, 7)], []), signed_zeros=False),
    Row("MirrorPadGrad", lambda g: tf_ops.apply_op("MirrorPadGrad", [g, tf.constant(_MPAD)], {"mode": "SYMMETRIC"}),
        _mirror_pad_grad_ref(_MPAD, "SYMMETRIC"), _data((5, 6)), dtypes=(np.float32, np.float64, np.int32),
        special=False, name="MirrorPadGrad-symmetric"),
    Row("ReverseV2", lambda x: tf.reverse(x, [1]), lambda x: _copy(x[:, ::-1]), _data((2, 3, 2)), dtypes=MOVE,
        special=_special_data([(2, 3, 2)], [[(2, 0, 2)]])),
    Row("ReverseV2", lambda x: tf.reverse(x, [0, -1]), lambda x: _copy(x[::-1, :, ::-1]), _data((2, 3, 2)),
        dtypes=(np.float64,), special=False, name="ReverseV2-two-axes"),
    Row("ReverseSequence", lambda x, n: tf.reverse_sequence(x, n, seq_axis=1, batch_axis=0), _reverse_sequence_ref,
        lambda dt, rng: [rand(rng, (3, 4, 2), dt), np.array([4, 0, 2], np.int64)], dtypes=MOVE, grad=[0],
        special=lambda dt: [[_cycle((3, 4, 2), dt), np.array([1, 3, 4], np.int64)]]),
]

INDEXING = [
    Row("GatherV2", lambda p, i: tf.gather(p, i, axis=1), _gather_ref(1),
        lambda dt, rng: [rand(rng, (2, 4, 3), dt), np.array([[3, 0], [1, 1]], np.int32)], dtypes=MOVE, grad=[0],
        special=lambda dt: [[_cycle((2, 4, 3), dt), np.array([2, 3], np.int32)],
                            [_cycle((2, 4, 3), dt), np.zeros((0,), np.int32)]]),
    Row("GatherV2", lambda p, i: tf.gather(p, i), _gather_ref(0),
        lambda dt, rng: [rand(rng, (5, 2), dt), np.array([4, 0, 4], np.int64)], dtypes=(np.float64,), grad=[0],
        special=False, name="GatherV2-axis0-int64"),
    Row("GatherV2", lambda p, i: tf.gather(p, i, axis=2, batch_dims=1), _batch_gather_ref(2, 1),
        lambda dt, rng: [rand(rng, (2, 3, 4, 2), dt), np.array([[3, 0, 3], [1, 2, 2]], np.int32)], dtypes=MOVE,
        grad=[0], special=lambda dt: [[_cycle((2, 3, 4, 2), dt), np.array([[1, 0], [3, 2]], np.int64)],
                                      [_cycle((2, 3, 4, 2), dt), np.zeros((2, 0), np.int32)],
                                      [np.zeros((0, 3, 4, 2), dt), np.zeros((0, 5), np.int32)]],
        name="GatherV2-batch_dims1-axis2"),
    Row("GatherV2", lambda p, i: tf.gather(p, i, batch_dims=-1), _batch_gather_ref(2, 2),
        lambda dt, rng: [rand(rng, (2, 3, 4), dt), np.array([[[3], [0], [1]], [[1], [2], [2]]], np.int64)],
        dtypes=(np.float32, np.float64), grad=[0], special=False, name="GatherV2-batch_dims-negative",
        note="batch_dims=-1 with 3-D indices: two batch dimensions, the axis defaults to them"),
    Row("GatherNd", lambda p, i: tf.gather_nd(p, i, batch_dims=1), _batch_gather_nd_ref(1),
        lambda dt, rng: [rand(rng, (2, 3, 4), dt), np.array([[[2, 1], [0, 3]], [[2, 1], [1, 1]]], np.int32)],
        dtypes=MOVE, grad=[0], special=lambda dt: [[_cycle((2, 3, 4), dt), np.array([[[1], [0]], [[2], [2]]],
                                                                                   np.int64)],
                                                   [_cycle((2, 3, 4), dt), np.zeros((2, 0, 2), np.int32)]],
        name="GatherNd-batch_dims1"),
    Row("GatherNd", tf.gather_nd, _gather_nd_ref,
        lambda dt, rng: [rand(rng, (3, 4, 2), dt), np.array([[2, 1], [0, 3], [2, 1]], np.int32)], dtypes=MOVE,
        grad=[0], special=lambda dt: [[_cycle((3, 4, 2), dt), np.array([[1, 2, 0], [0, 0, 1]], np.int64)],
                                      [_cycle((3, 4, 2), dt), np.zeros((0, 2), np.int32)]]),
    Row("ScatterNd", lambda i, u: tf.scatter_nd(i, u, [4, 3]), _scatter_nd_ref((4, 3)),
        lambda dt, rng: [np.array([[1], [3], [1]], np.int32), rand(rng, (3, 3), dt)],
        dtypes=FLOATS + INTS + (np.complex64,), grad=[1], rtol={np.float16: 5e-3},
        special=lambda dt: [[np.zeros((0, 1), np.int32), np.zeros((0, 3), dt)]]),
    Row("ScatterNd", lambda i, u: tf.scatter_nd(i, u, [2, 3]), _scatter_nd_ref((2, 3)),
        lambda dt, rng: [np.array([[0, 2], [1, 0], [0, 2]], np.int64), rand(rng, (3,), dt)], dtypes=(np.float64,),
        grad=[1], special=False, name="ScatterNd-elements"),
    Row("OneHot", lambda i, on, off: tf.one_hot(i, 4, on, off), _one_hot_ref(4),
        lambda dt, rng: [np.array([[0, 3], [2, 1]], np.int64), np.array(1.5, dt), np.array(-1, dt)],
        dtypes=FLOATS + INTS + BOOL, grad=False,
        special=lambda dt: [[np.array([-1, 4, 0, 7], np.int32), np.array(1, dt), np.array(0, dt)],
                            [np.zeros((0, 2), np.int32), np.array(1, dt), np.array(0, dt)]]),
    Row("OneHot", lambda i, on, off: tf.one_hot(i, 3, on, off, axis=0), _one_hot_ref(3, 0),
        lambda dt, rng: [np.array([0, 2, 1, 2], np.int32), np.array(1, dt), np.array(0, dt)],
        dtypes=(np.float32,), grad=False, special=False, name="OneHot-axis0"),
    Row("Slice", lambda x: tf.slice(x, [0, 1, 0], [2, -1, 1]), lambda x: _copy(x[0:2, 1:, 0:1]), _data((3, 4, 2)),
        dtypes=MOVE, special=_special_data([(3, 4, 2)], [])),
    Row("Slice", lambda x, b, s: tf.slice(x, b, s), lambda x, b, s: _copy(x[1:3, 0:4]),
        lambda dt, rng: [rand(rng, (3, 4), dt), np.array([1, 0], np.int32), np.array([2, -1], np.int32)],
        dtypes=(np.float64,), static_known=False, grad=[0], special=False, name="Slice-fed-begin-size",
        grad_fn=lambda x, b, s: tf.reshape(tf.slice(x, b, s), [2, 4])),
    Row("StridedSlice", lambda x: x[1:, ::2], lambda x: _copy(x[1:, ::2]), _data((3, 5)), dtypes=MOVE,
        special=_special_data([(3, 5)], [[(0, 5)]])),
    Row("StridedSlice", lambda x: x[::-1, 3:0:-2, tf.newaxis, ..., -1],
        lambda x: _copy(x[::-1, 3:0:-2, None, ..., -1]), _data((2, 5, 3)),
        dtypes=(np.float64, np.int32), special=False, name="StridedSlice-masks"),
    Row("StridedSlice", lambda x, b: tf.strided_slice(x, b, [3, 4], [1, 1]), lambda x, b: _copy(x[1:3, 0:4]),
        lambda dt, rng: [rand(rng, (3, 4), dt), np.array([1, 0], np.int32)], dtypes=(np.float64,),
        static_known=False, grad=[0], special=False, name="StridedSlice-fed-begin",
        grad_fn=lambda x, b: tf.reshape(tf.strided_slice(x, b, [3, 4], [1, 1]), [2, 4])),
    Row("StridedSliceGrad", lambda dy: tf_ops.apply_op("StridedSliceGrad", [
        tf.constant([3, 5]), tf.constant([1, 0]), tf.constant([3, 5]), tf.constant([1, 2]), dy],
        {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0}),
        _strided_grad_ref((3, 5), (slice(1, 3), slice(0, 5, 2))), _data((2, 3)),
        dtypes=FLOATS + INTS + (np.complex64,), special=_special_data([(2, 3)], []), signed_zeros=False),
    Row("StridedSliceGrad", lambda dy: tf_ops.apply_op("StridedSliceGrad", [
        tf.constant([2, 4]), tf.constant([0, 3]), tf.constant([0, 0]), tf.constant([1, -1]), dy],
        {"begin_mask": 1, "end_mask": 3, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0}),
        _strided_grad_ref((2, 4), (slice(None), slice(3, None, -1))), _data((2, 4)), dtypes=(np.float64,),
        special=False, name="StridedSliceGrad-masks"),
]

SELECT = [
    Row("Select", lambda c, x, y: tf.where(c, x, y), _select_ref,
        lambda dt, rng: [rng.rand(3, 2) < 0.5, rand(rng, (3, 2), dt), rand(rng, (3, 2), dt)], dtypes=MOVE,
        grad=[1, 2], special=lambda dt: [[np.array([True, False, True]), _cycle((3,), dt), _cycle((3,), dt)[::-1]],
                                         [np.zeros(0, bool), np.zeros(0, dt), np.zeros(0, dt)]]),
    Row("Select", lambda c, x, y: tf.where(c, x, y), _select_ref,
        lambda dt, rng: [np.array([True, False, False]), rand(rng, (3, 2), dt), rand(rng, (3, 2), dt)],
        dtypes=(np.float64,), grad=[1, 2], special=False, name="Select-batch-condition"),
    Row("SelectV2", tf.where_v2, lambda c, x, y: np.where(c, x, y),
        lambda dt, rng: [rng.rand(3, 1) < 0.5, rand(rng, (2,), dt), rand(rng, (3, 2), dt)], dtypes=MOVE,
        grad=[1, 2], special=lambda dt: [[np.array([True, False, True]), _cycle((3,), dt), _cycle((1,), dt)],
                                         [np.zeros((0, 1), bool), np.zeros(2, dt), np.zeros((1, 2), dt)]]),
    Row("Where", tf.where, lambda c: np.array([[i for i, v in enumerate(c) if v]], np.int64).reshape(-1, 1),
        lambda dt, rng: [rng.rand(6) < 0.5], dtypes=BOOL, grad=False, static_known=False,
        special=lambda dt: [[np.zeros(0, bool)], [np.zeros(4, bool)]]),
    Row("Where", tf.where, lambda c: np.array([idx for idx in itertools.product(*map(range, c.shape)) if c[idx]],
                                              np.int64).reshape(-1, c.ndim),
        lambda dt, rng: [rng.rand(2, 3, 2) < 0.5], dtypes=BOOL, grad=False, static_known=False, special=False,
        name="Where-3d"),
    Row("Unique", tf.unique, _unique_ref, lambda dt, rng: [rand(rng, (8,), dt, -2, 2).round()
                                                           if np.dtype(dt).kind == "f" else rand(rng, (8,), dt, -2, 3)],
        dtypes=FLOATS + INTS, grad=False, static_known=False,
        # NaN is left out: whether NaNs are one value or several differs between TF versions.
        special=lambda dt: [[np.zeros(0, dt)], [np.array([-0.0, 0.0, np.inf, -np.inf, np.inf], dt)]
                            if np.dtype(dt).kind == "f" else [np.array([0, 0], dt)]], signed_zeros=False),
    Row("TopKV2", lambda x: tf.nn.top_k(x, 2), _top_k_ref(2),
        lambda dt, rng: [rng.permutation(24)[:12].reshape(3, 4).astype(dt) - 6], dtypes=FLOATS + INTS, grad=[0],
        grad_inputs=lambda rng: [rng.permutation(24)[:12].reshape(3, 4).astype(np.float64) / 4],
        # NaN is left out: its rank among the values is not specified by TF.
        special=lambda dt: [[np.array([[1, 3, 3, 1], [2, 2, 2, 2]], dt)], [np.zeros((0, 4), dt)]] + (
            [[np.array([[-np.inf, np.inf, -0.0, 0.0]], dt)]] if np.dtype(dt).kind == "f" else []),
        signed_zeros=False),
]

ROWS = SHAPES + RESHAPE + JOIN + PAD + INDEXING + SELECT
