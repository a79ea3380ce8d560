"""Op-table rows: segment reductions (SegmentSum/Mean/Prod/Min/Max, UnsortedSegmentSum/Prod/Min/Max and
the unsorted_segment_mean/sqrt_n compositions). References loop over the segments in Python, summing in
long double."""

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import BOOL, COMPLEX, FLOATS, INTS, Row, rand

_SORTED_IDS = np.array([0, 0, 1, 3, 3, 3], np.int32)  # segment 2 is empty
_UNSORTED_IDS = np.array([[2, -1, 0], [4, 2, 2], [0, -1, 4], [2, 0, 0]], np.int32)  # segments 1, 3 are empty
_NUM_SEGMENTS = 5
_TOL16 = {np.float16: 1e-2}


def _sum(rows):
    """Floats summed in long double; integers in their own dtype (wrapping, as TF's kernels)."""
    if rows.dtype.kind in "iu":
        return rows.sum(axis=0, dtype=rows.dtype)
    return rows.astype(np.clongdouble if rows.dtype.kind == "c" else np.longdouble).sum(axis=0)


def _prod(rows):
    if rows.dtype.kind in "iu":
        return rows.prod(axis=0, dtype=rows.dtype)
    return rows.astype(np.clongdouble if rows.dtype.kind == "c" else np.longdouble).prod(axis=0)


def _fold(kind, rows):
    """TF's min/max fold in row order: `acc = acc if acc < x else x` (min; `>` for max), per element."""
    flat = rows.reshape(len(rows), -1)
    out = []
    for col in flat.T.tolist():
        acc = col[0]
        for x in col[1:]:
            acc = acc if (acc < x if kind == "min" else acc > x) else x
        out.append(acc)
    return np.array(out, rows.dtype).reshape(rows.shape[1:])


def _reduce(kind, rows, dtype, inner):
    """One segment's value from its rows (an empty segment: `None`)."""
    if len(rows) == 0:
        return None
    if kind == "sum":
        return _sum(rows)
    if kind == "prod":
        return _prod(rows)
    if kind in ("min", "max"):
        return _fold(kind, rows)
    total = _sum(rows)
    if kind == "mean":
        if np.dtype(dtype).kind in "iu":  # C++ integer division: toward zero
            return np.array([int(t) // len(rows) if t >= 0 else -(-int(t) // len(rows))
                             for t in np.reshape(total, -1)], object).reshape(inner)
        return total / len(rows)
    return total / np.sqrt(np.longdouble(len(rows)))  # sqrt_n


def _empty_value(kind, dtype, unsorted):
    dt = np.dtype(dtype)
    if kind == "prod":
        return 1
    if unsorted and kind in ("min", "max"):
        info = np.finfo(dt) if dt.kind == "f" else np.iinfo(dt)
        return info.max if kind == "min" else info.min
    return 0


def _segment_ref(kind):
    def ref(data, ids):
        n = int(ids[-1]) + 1 if ids.size else 0
        inner = data.shape[1:]
        out = np.empty((n,) + inner, data.dtype)
        for i in range(n):
            v = _reduce(kind, data[ids == i], data.dtype, inner)
            out[i] = _empty_value(kind, data.dtype, False) if v is None else v
        return out
    return ref


def _unsorted_ref(kind, out_dtype=None):
    def ref(data, ids):
        flat = ids.reshape(-1)
        inner = data.shape[ids.ndim:]
        rows = data.reshape((flat.size,) + inner)
        dt = np.dtype(out_dtype or data.dtype)
        out = np.empty((_NUM_SEGMENTS,) + inner, dt)
        for i in range(_NUM_SEGMENTS):
            sel = rows[flat == i]
            if out_dtype and len(sel):  # integer data: the wrapped integer sum over N in float64
                v = _sum(sel).astype(dt) / len(sel)
            else:
                v = _reduce(kind, sel, dt, inner)
            out[i] = _empty_value(kind, dt, kind not in ("mean", "sqrt_n")) if v is None else v
        return out
    return ref


def _segment_inputs(dt, rng):
    return [rand(rng, (6, 3), dt, -5.0, 5.0), _SORTED_IDS]


def _unsorted_inputs(dt, rng):
    return [rand(rng, (4, 3, 2), dt, -5.0, 5.0), _UNSORTED_IDS]


def _grad_inputs_for(shape, ids):
    def make(rng):
        # Distinct magnitudes away from 0: no ties for min/max, no zeros for prod.
        vals = rng.permutation(np.prod(shape)).astype(np.float64) / np.prod(shape) + 0.5
        return [(vals * np.where(rng.rand(vals.size) < 0.5, -1.0, 1.0)).reshape(shape), ids]
    return make


def _special(shape, ids, nan):
    def special(dt):
        dt = np.dtype(dt)
        empty = [np.zeros((0,) + shape[1:], dt), np.zeros((0,) + ids.shape[1:], np.int32)]
        if dt.kind != "f":
            info = np.iinfo(dt) if dt.kind in "iu" else None
            if info is None:
                return [empty]
            vals = np.resize(np.array([info.min, info.max, 0, 1, -1], dt), shape)
            return [[vals, ids], empty]
        pool = [np.inf, -np.inf, -0.0, 0.0, 1.0, -2.5, 0.0, -0.0] + ([np.nan] if nan else [])
        return [[np.resize(np.array(pool, dt), shape), ids], empty]
    return special


def _segment_row(kind, dtypes):
    op_type = "Segment" + kind.capitalize()
    fn = getattr(tf.math, "segment_" + kind)
    n = int(_SORTED_IDS[-1]) + 1
    return Row(op_type, fn, _segment_ref(kind), _segment_inputs, dtypes=dtypes,
               special=_special((6, 3), _SORTED_IDS, True), static_known=False, rtol=_TOL16, atol=_TOL16,
               grad_inputs=_grad_inputs_for((6, 3), _SORTED_IDS),
               grad_fn=lambda x, ids: tf.reshape(fn(x, ids), [n, 3]))


def _unsorted_fn(name):
    f = getattr(tf.math, name)
    return lambda x, ids: f(x, ids, _NUM_SEGMENTS)


def _unsorted_row(kind, dtypes, op_type=None, out_dtype=None, name=None):
    return Row(op_type or "UnsortedSegment" + kind.capitalize(), _unsorted_fn("unsorted_segment_" + kind),
               _unsorted_ref(kind, out_dtype), _unsorted_inputs, dtypes=dtypes,
               special=_special((4, 3, 2), _UNSORTED_IDS, True), rtol=_TOL16, atol=_TOL16,
               grad_inputs=_grad_inputs_for((4, 3, 2), _UNSORTED_IDS), name=name)


ROWS = [
    _segment_row("sum", FLOATS + INTS + COMPLEX),
    _segment_row("mean", FLOATS + INTS + COMPLEX),
    _segment_row("prod", FLOATS + INTS + COMPLEX),
    _segment_row("min", FLOATS + INTS),
    _segment_row("max", FLOATS + INTS),
    _unsorted_row("sum", FLOATS + INTS + COMPLEX),
    _unsorted_row("prod", FLOATS + INTS + COMPLEX),
    _unsorted_row("min", FLOATS + INTS),
    _unsorted_row("max", FLOATS + INTS),
    _unsorted_row("mean", FLOATS, op_type="UnsortedSegmentSum", name="UnsortedSegmentMean"),
    _unsorted_row("mean", INTS, op_type="UnsortedSegmentSum", out_dtype=np.float64, name="UnsortedSegmentMean-int"),
    _unsorted_row("sqrt_n", FLOATS, op_type="UnsortedSegmentSum", name="UnsortedSegmentSqrtN"),
]


# ---- sparse segment reductions ---------------------------------------------------------------------
_SPARSE_IDX = np.array([0, 4, 4, 2, 1, 0], np.int32)


def _sparse_ref(kind, num=None):
    def ref(data, idx, ids):
        n = num if num is not None else (int(ids[-1]) + 1 if ids.size else 0)
        out = np.zeros((n,) + data.shape[1:], data.dtype)
        for i in range(n):
            rows = data[idx[ids == i]]
            if len(rows):
                total = _sum(rows)
                out[i] = total if kind == "sum" else total / (len(rows) if kind == "mean" else np.sqrt(
                    np.longdouble(len(rows))))
        return out
    return ref


def _sparse_special(dt):
    dt = np.dtype(dt)
    empty = [np.zeros((0, 3), dt), np.zeros(0, np.int32), np.zeros(0, np.int32)]
    if dt.kind != "f":
        return [[np.resize(np.array([np.iinfo(dt).min, np.iinfo(dt).max, 0, 1, -1], dt), (5, 3)), _SPARSE_IDX,
                 _SORTED_IDS], empty]
    pool = np.array([np.inf, -np.inf, -0.0, 0.0, 1.0, -2.5, np.nan], dt)
    return [[np.resize(pool, (5, 3)), _SPARSE_IDX, _SORTED_IDS], empty]


def _sparse_row(kind, dtypes, num=None):
    base = "SparseSegment" + {"sum": "Sum", "mean": "Mean", "sqrt_n": "SqrtN"}[kind]
    f = getattr(tf.sparse, "segment_" + kind)
    n = num if num is not None else int(_SORTED_IDS[-1]) + 1
    fn = (lambda x, i, s: f(x, i, s)) if num is None else (lambda x, i, s: f(x, i, s, num_segments=num))
    return Row(base + ("WithNumSegments" if num is not None else ""), fn, _sparse_ref(kind, num),
               lambda dt, rng: [rand(rng, (5, 3), dt, -5.0, 5.0), _SPARSE_IDX, _SORTED_IDS], dtypes=dtypes,
               special=_sparse_special, static_known=num is not None, rtol=_TOL16, atol=_TOL16,
               grad_fn=lambda x, i, s: tf.reshape(fn(x, i, s), [n, 3]))


ROWS += [
    _sparse_row("sum", FLOATS + INTS),
    _sparse_row("mean", FLOATS),
    _sparse_row("sqrt_n", FLOATS),
    _sparse_row("sum", FLOATS + INTS, num=6),
    _sparse_row("mean", FLOATS, num=6),
    _sparse_row("sqrt_n", FLOATS, num=6),
]


# ---- tensor scatter ----------------------------------------------------------------------------------
def _tscatter_ref(kind):
    def ref(t, idx, upd):
        out = t.copy()
        for i, row in zip(idx.reshape(-1, idx.shape[-1]), upd.reshape((-1,) + t.shape[idx.shape[-1]:])):
            key = tuple(int(v) for v in i)
            if kind == "update":
                out[key] = row
            elif kind == "add":
                out[key] = out[key] + row
            elif kind == "sub":
                out[key] = out[key] - row
            elif kind == "max":  # TF: the update only where strictly larger (NaN updates change nothing)
                out[key] = [r if r > o else o for o, r in zip(out[key].tolist(), row.tolist())]
            else:
                out[key] = [r if r < o else o for o, r in zip(out[key].tolist(), row.tolist())]
        return out
    return ref


def _tscatter_inputs(idx):
    def make(dt, rng):
        return [rand(rng, (4, 3), dt, -5.0, 5.0), idx, rand(rng, (len(idx), 3), dt, -5.0, 5.0)]
    return make


def _tscatter_special(idx):
    def special(dt):
        dt = np.dtype(dt)
        empty = [np.zeros((4, 3), dt), np.zeros((0, 1), np.int32), np.zeros((0, 3), dt)]
        if dt.kind == "f":
            pool = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5], dt)
        elif dt.kind in "iu":
            pool = np.array([np.iinfo(dt).min, np.iinfo(dt).max, 0, 1, -1], dt)
        else:
            return [empty]
        return [[np.resize(pool, (4, 3)), idx, np.resize(pool[::-1], (len(idx), 3))], empty]
    return special


_TS_IDX = np.array([[0], [2]], np.int32)
_TS_IDX_DUP = np.array([[0], [2], [0]], np.int32)


def _tscatter_row(kind, idx, dtypes):
    f = getattr(tf, "tensor_scatter_nd_" + kind)
    return Row("TensorScatter" + kind.capitalize(), f, _tscatter_ref(kind), _tscatter_inputs(idx), dtypes=dtypes,
               special=_tscatter_special(idx))


# ---- dynamic partition / stitch ---------------------------------------------------------------------
_PARTS = np.array([1, 0, 1, 2, 1], np.int32)


def _partition_ref(x, p):
    return [x[p == i] for i in range(3)]


def _partition_fn(x, p):
    return tf.dynamic_partition(x, p, 3)


def _stitch_ref(i0, i1, d0, d1):
    n = max(int(i0.max(initial=-1)), int(i1.max(initial=-1))) + 1
    out = np.zeros((n,) + d0.shape[i0.ndim:], d0.dtype)
    for ix, d in ((i0, d0), (i1, d1)):
        for j, k in enumerate(ix.reshape(-1)):
            out[k] = d.reshape((-1,) + out.shape[1:])[j]
    return out


_I0 = np.array([0, 3, 5], np.int32)
_I1 = np.array([[1, 2], [4, 6]], np.int32)


def _stitch_inputs(dt, rng):
    return [_I0, _I1, rand(rng, (3, 2), dt, -5.0, 5.0), rand(rng, (2, 2, 2), dt, -5.0, 5.0)]


def _stitch_special(dt):
    dt = np.dtype(dt)
    out = [[np.zeros(0, np.int32), np.zeros((0, 2), np.int32), np.zeros((0, 2), dt), np.zeros((0, 2, 2), dt)]]
    if dt.kind == "f":
        pool = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5], dt)
        out.append([_I0, _I1, np.resize(pool, (3, 2)), np.resize(pool[::-1], (2, 2, 2))])
    return out


def _stitch_fn(op):
    def fn(i0, i1, d0, d1):
        if op == "DynamicStitch":
            return tf.dynamic_stitch([i0, i1], [d0, d1])
        from tensorweave.ops.partition_ops import _stitch
        return _stitch(op, [i0, i1], [d0, d1], None)
    return fn


def _stitch_row(op):
    fn = _stitch_fn(op)
    return Row(op, fn, _stitch_ref, _stitch_inputs, dtypes=FLOATS + INTS + COMPLEX + BOOL, special=_stitch_special,
               static_known=False, grad_fn=lambda i0, i1, d0, d1: tf.reshape(fn(i0, i1, d0, d1), [7, 2]))


ROWS += [
    _tscatter_row("update", _TS_IDX, FLOATS + INTS + COMPLEX + BOOL),
    _tscatter_row("add", _TS_IDX_DUP, FLOATS + INTS + COMPLEX),
    _tscatter_row("sub", _TS_IDX_DUP, FLOATS + INTS + COMPLEX),
    _tscatter_row("max", _TS_IDX_DUP, FLOATS + INTS),
    _tscatter_row("min", _TS_IDX_DUP, FLOATS + INTS),
    Row("DynamicPartition", _partition_fn, _partition_ref,
        lambda dt, rng: [rand(rng, (5, 3), dt, -5.0, 5.0), _PARTS], dtypes=FLOATS + INTS + COMPLEX + BOOL,
        special=lambda dt: [[np.zeros((0, 3), dt), np.zeros(0, np.int32)]], static_known=False,
        grad_fn=lambda x, p: [tf.reshape(o, [k, 3]) for o, k in zip(_partition_fn(x, p), (1, 3, 1))]),
    _stitch_row("DynamicStitch"),
    _stitch_row("ParallelDynamicStitch"),
]


# ---- scatter updates of variables ------------------------------------------------------------------------
def _var_fn(op):
    def fn(x, idx, upd):
        v = tf.Variable(x, validate_shape=x.shape.is_fully_defined())
        with tf.control_dependencies([] if tf.executing_eagerly() else [v.initializer]):
            a = op(v, idx, upd)
        with tf.control_dependencies([a]):
            return [tf.identity(a), tf.identity(v.read_value())]
    return fn


def _c_div(a, b):
    if np.dtype(a.dtype).kind in "iu":
        return np.array([int(p / q) if q else 0 for p, q in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist())],
                        a.dtype).reshape(a.shape)
    return a / b


_VAR_COMBINE = {"update": lambda a, b: b, "add": lambda a, b: a + b, "sub": lambda a, b: a - b,
                "mul": lambda a, b: a * b, "div": _c_div,
                "min": lambda a, b: np.array([y if y < x else x for x, y in zip(a.tolist(), b.tolist())], a.dtype),
                "max": lambda a, b: np.array([y if y > x else x for x, y in zip(a.tolist(), b.tolist())], a.dtype)}


def _var_ref(kind, nd):
    def ref(x, idx, upd):
        out = x.copy()
        k = idx.shape[-1] if nd else 1
        keys = idx.reshape(-1, k)
        rows = upd.reshape((keys.shape[0],) + x.shape[k:])
        for key, row in zip(keys, rows):
            key = tuple(int(v) for v in key)
            out[key] = _VAR_COMBINE[kind](out[key], row)
        return [out, out.copy()]
    return ref


_VAR_IDX = np.array([0, 3, 0, 2], np.int32)
_VAR_ND_IDX = np.array([[0, 1], [3, 2], [0, 1]], np.int32)


def _var_inputs(kind, nd):
    def make(dt, rng):
        lo = 1.0 if kind == "div" else -5.0
        if nd:
            return [rand(rng, (4, 3), dt, -5.0, 5.0), _VAR_ND_IDX, rand(rng, (3,), dt, lo, 5.0)]
        return [rand(rng, (4, 3), dt, -5.0, 5.0), _VAR_IDX, rand(rng, (4, 3), dt, lo, 5.0)]
    return make


def _var_special(kind, nd):
    def special(dt):
        dt = np.dtype(dt)
        idx = _VAR_ND_IDX if nd else _VAR_IDX
        ushape = (3,) if nd else (4, 3)
        empty = [np.zeros((4, 3), dt), np.zeros((0, 2) if nd else (0,), np.int32),
                 np.zeros((0,) if nd else (0, 3), dt)]
        if dt.kind == "f":
            pool = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.0], dt)
        elif dt.kind in "iu" and kind != "div":
            pool = np.array([np.iinfo(dt).min, np.iinfo(dt).max, 0, 1, -1], dt)
        else:
            return [empty]
        return [[np.resize(pool, (4, 3)), idx, np.resize(pool[::-1], ushape)], empty]
    return special


def _var_row(kind, dtypes, nd=False):
    op = getattr(tf, ("scatter_nd_" if nd else "scatter_") + kind)
    return Row(("ScatterNd" if nd else "Scatter") + kind.capitalize(), _var_fn(op), _var_ref(kind, nd),
               _var_inputs(kind, nd), dtypes=dtypes, special=_var_special(kind, nd), grad=False)


ROWS += [
    _var_row("update", FLOATS + INTS + COMPLEX + BOOL),
    _var_row("add", FLOATS + INTS + COMPLEX),
    _var_row("sub", FLOATS + INTS + COMPLEX),
    _var_row("mul", FLOATS + INTS + COMPLEX),
    _var_row("div", FLOATS + INTS + COMPLEX),
    _var_row("min", FLOATS + INTS),
    _var_row("max", FLOATS + INTS),
    _var_row("update", FLOATS + INTS + COMPLEX + BOOL, nd=True),
    _var_row("add", FLOATS + INTS + COMPLEX, nd=True),
    _var_row("sub", FLOATS + INTS + COMPLEX, nd=True),
]


# ---- Bincount -----------------------------------------------------------------------------------------
_BIN_ARR = np.array([[1, 4, 1], [0, 6, 1]], np.int32)  # 6 is at or above the length 5: not counted


def _bincount_ref(arr, w):
    n = min(5, int(arr.max()) + 1) if arr.size else 0
    out = np.zeros(n, w.dtype)
    for a, x in zip(arr.reshape(-1).tolist(), w.reshape(-1).tolist()):
        if a < n:
            out[a] += x
    return out


ROWS += [
    Row("Bincount", lambda arr, w: tf.math.bincount(arr, weights=w, maxlength=5), _bincount_ref,
        lambda dt, rng: [_BIN_ARR, rand(rng, (2, 3), dt, -5.0, 5.0)],
        dtypes=(np.float32, np.float64, np.int32, np.int64),
        special=lambda dt: [[np.zeros((0,), np.int32), np.zeros((0,), dt)]], static_known=False, grad=False),
]
