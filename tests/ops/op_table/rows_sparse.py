"""Op-table rows: sparse ops (SparseReorder ... SparseTensorDenseMatMul, the sparse reductions, SparseSoftmax,
SparseSparseMaximum/Minimum, SparseDenseCwise*, EditDistance) and the set ops. Every sparse operand is fed as
its three component arrays (indices, values, dense_shape); the references walk the entries in pure Python
(dicts keyed by index tuples), densifying where that is simplest."""

import itertools

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops as _ops
from tests.ops.op_table.harness import Row, rand

_F = (np.float32, np.float64)
_FI = (np.float32, np.float64, np.int32, np.int64)
_SETS = (np.int32, np.int64, np.uint8)


# ---- helpers ------------------------------------------------------------------------------------------
def _sp(rng, shape, n, dtype, lo=-2.0, hi=2.0, order=True):
    """A random sparse operand: (indices int64 [n, rank], values [n], shape int64), distinct indices,
    canonical order unless `order` is False (then shuffled)."""
    cells = list(itertools.product(*[range(d) for d in shape]))
    pick = sorted(rng.choice(len(cells), size=min(n, len(cells)), replace=False))
    idx = np.array([cells[p] for p in pick], np.int64).reshape(-1, len(shape))
    if not order:
        idx = idx[rng.permutation(len(idx))]
    return idx, rand(rng, (len(idx),), dtype, lo, hi), np.array(shape, np.int64)


def _st(ind, val, shape):
    return tf.SparseTensor(ind, val, shape)


def _parts(st):
    return [st.indices, st.values, st.dense_shape]


def _entries(ind, val):
    return [(tuple(int(x) for x in i), v) for i, v in zip(ind.tolist(), list(val))]


def _out(entries, rank, dtype):
    """(indices, values) arrays from a list of (index tuple, value)."""
    ind = np.array([k for k, _ in entries], np.int64).reshape(-1, rank)
    return ind, np.array([v for _, v in entries], dtype).reshape(-1)


def _empty(rank, dtype, shape):
    return (np.zeros((0, rank), np.int64), np.zeros(0, dtype), np.array(shape, np.int64))


def _static(fn, counts):
    """`fn` with its float outputs reshaped to the static lengths `counts` (for the gradient checker)."""
    def g(*t):
        outs = fn(*t)
        outs = outs if isinstance(outs, list) else [outs]
        return [tf.reshape(o, [counts[i]]) if i in counts else o for i, o in enumerate(outs)]
    return g


def _reshaped(fn, shape):
    """`fn` with its (dense) output reshaped to the static `shape` (for the gradient checker)."""
    return lambda *t: tf.reshape(fn(*t), shape)


def _add_grad_inputs(rng):
    """Fixed operands whose sum has 5 entries (two shared), float64 values."""
    ai = np.array([[0, 0], [0, 2], [1, 1], [2, 3]], np.int64)
    bi = np.array([[0, 2], [1, 0], [2, 3]], np.int64)
    return (ai, rng.uniform(-2, 2, 4), np.array([3, 4], np.int64), bi, rng.uniform(-2, 2, 3),
            np.array([3, 4], np.int64))


# ---- SparseReorder --------------------------------------------------------------------------------------
def _reorder_ref(ind, val, shape):
    e = sorted(_entries(ind, val), key=lambda kv: kv[0])
    return list(_out(e, ind.shape[1], val.dtype))


def _reorder_in(dtype, rng):
    return _sp(rng, (3, 4, 2), 9, dtype, order=False)


# ---- SparseReshape ---------------------------------------------------------------------------------------
def _reshape_ref(new):
    def ref(ind, shape):
        target = list(new)
        total = int(np.prod(shape))
        if -1 in target:
            target[target.index(-1)] = total // int(np.prod([d for d in target if d != -1]))
        flat = [int(np.ravel_multi_index(tuple(i), tuple(shape))) for i in ind.tolist()]
        out = np.array([np.unravel_index(f, target) for f in flat], np.int64).reshape(-1, len(target))
        return [out, np.array(target, np.int64)]
    return ref


def _reshape_in(dtype, rng):
    ind, _, shape = _sp(rng, (3, 4, 2), 7, np.float32, order=False)
    return ind, shape


# ---- SparseAdd / SparseAddGrad / SparseTensorDenseAdd ----------------------------------------------------
def _add_ref(thresh):
    def ref(ai, av, ash, bi, bv, bsh):
        a, b = dict(_entries(ai, av)), dict(_entries(bi, bv))
        out = []
        for k in sorted(set(a) | set(b)):
            if k in a and k in b:
                s = av.dtype.type(a[k] + b[k])
                if abs(s) >= thresh:
                    out.append((k, s))
            else:
                out.append((k, a[k] if k in a else b[k]))
        return list(_out(out, ai.shape[1], av.dtype)) + [ash]
    return ref


def _add_in(dtype, rng):
    a = _sp(rng, (3, 4), 6, dtype)
    b = _sp(rng, (3, 4), 5, dtype)
    return a + b


def _add_fn(thresh):
    def fn(ai, av, ash, bi, bv, bsh):
        return _parts(tf.sparse.add(_st(ai, av, ash), _st(bi, bv, bsh), threshold=thresh))
    return fn


def _add_special(dtype):
    dt = np.dtype(dtype)
    out = [_empty(2, dt, [2, 3]) + _empty(2, dt, [2, 3])]
    if dt.kind == "f":
        a = (np.array([[0, 0], [0, 2], [1, 1]], np.int64), np.array([np.nan, np.inf, -0.0], dt), np.array([2, 3]))
        b = (np.array([[0, 0], [0, 2], [1, 1]], np.int64), np.array([1.0, -np.inf, 0.0], dt), np.array([2, 3]))
        out.append(a + b)
    return out


def _add_grad_ref(bp, ai, bi, si):
    d = {tuple(k): v for k, v in zip(si.tolist(), bp)}
    return [np.array([d.get(tuple(k), 0) for k in ai.tolist()], bp.dtype),
            np.array([d.get(tuple(k), 0) for k in bi.tolist()], bp.dtype)]


def _add_grad_in(dtype, rng):
    ai, _, _ = _sp(rng, (3, 4), 6, np.float32)
    bi, _, _ = _sp(rng, (3, 4), 5, np.float32)
    keys = sorted(set(map(tuple, ai.tolist())) | set(map(tuple, bi.tolist())))
    keys = [k for j, k in enumerate(keys) if j % 4 != 1]  # some sums dropped by the threshold
    si = np.array(keys, np.int64).reshape(-1, 2)
    return rand(rng, (len(si),), dtype), ai, bi, si


def _add_grad_fn(bp, ai, bi, si):
    return _ops.apply_op("SparseAddGrad", [bp, ai, bi, si])


def _dense_add_ref(ai, av, ash, b):
    out = b.astype(np.longdouble) if b.dtype.kind == "f" else b.copy()
    for k, v in _entries(ai, av):
        out[k] += v
    return out.astype(b.dtype)


def _dense_add_in(dtype, rng):
    return _sp(rng, (3, 4), 6, dtype) + (rand(rng, (3, 4), dtype),)


def _dense_add_fn(ai, av, ash, b):
    return tf.sparse.add(_st(ai, av, ash), b)


# ---- SparseConcat ---------------------------------------------------------------------------------------
def _concat_ref(axis):
    def ref(*arrays):
        parts = [arrays[k:k + 3] for k in range(0, len(arrays), 3)]
        rank = len(parts[0][2])
        ax = axis % rank
        out, offset = [], 0
        for ind, val, shape in parts:
            for k, v in _entries(ind, val):
                k = list(k)
                k[ax] += offset
                out.append((tuple(k), v))
            offset += int(shape[ax])
        out.sort(key=lambda kv: kv[0])
        shape = parts[0][2].copy()
        shape[ax] = offset
        return list(_out(out, rank, parts[0][1].dtype)) + [shape]
    return ref


def _concat_in(dtype, rng):
    return _sp(rng, (2, 3), 3, dtype) + _sp(rng, (2, 2), 2, dtype) + _sp(rng, (2, 1), 2, dtype)


def _concat_fn(axis):
    def fn(*t):
        sts = [_st(*t[k:k + 3]) for k in range(0, len(t), 3)]
        return _parts(tf.sparse.concat(axis, sts))
    return fn


# ---- SparseSlice / SparseSliceGrad ------------------------------------------------------------------------
def _slice_ref(start, size):
    def ref(ind, val, shape):
        out = []
        for k, v in _entries(ind, val):
            if all(s <= x < min(s + z, d) for x, s, z, d in zip(k, start, size, shape)):
                out.append((tuple(x - s for x, s in zip(k, start)), v))
        osh = np.array([max(min(s + z, d) - s, 0) for s, z, d in zip(start, size, shape)], np.int64)
        return list(_out(out, len(shape), val.dtype)) + [osh]
    return ref


def _slice_fn(start, size):
    def fn(ind, val, shape):
        return _parts(tf.sparse.slice(_st(ind, val, shape), start, size))
    return fn


def _slice_in(dtype, rng):
    return _sp(rng, (4, 5), 10, dtype, order=False)


def _slice_grad_ref(bp, ind, start, out_ind):
    d = {tuple(k): v for k, v in zip(out_ind.tolist(), bp)}
    return np.array([d.get(tuple(a - b for a, b in zip(k, start)), 0) for k in ind.tolist()], bp.dtype)


def _slice_grad_in(dtype, rng):
    ind, _, _ = _sp(rng, (4, 5), 10, np.float32, order=False)
    start = np.array([1, 2], np.int64)
    keep = [k for k in ind.tolist() if 1 <= k[0] < 3 and 2 <= k[1] < 5]
    out_ind = np.array([[a - 1, b - 2] for a, b in keep], np.int64).reshape(-1, 2)
    return rand(rng, (len(out_ind),), dtype), ind, start, out_ind


def _slice_grad_fn(bp, ind, start, out_ind):
    return _ops.apply_op("SparseSliceGrad", [bp, ind, start, out_ind])


# ---- SparseSplit -----------------------------------------------------------------------------------------
def _split_ref(axis, k):
    def ref(ind, val, shape):
        dim = int(shape[axis])
        sizes = [dim // k + (1 if j < dim % k else 0) for j in range(k)]
        bounds = [sum(sizes[:j]) for j in range(k + 1)]
        outs_i, outs_v, outs_s = [], [], []
        for j in range(k):
            e = [(tuple(x - bounds[j] if d == axis else x for d, x in enumerate(key)), v)
                 for key, v in _entries(ind, val) if bounds[j] <= key[axis] < bounds[j + 1]]
            i, v = _out(e, len(shape), val.dtype)
            s = shape.copy()
            s[axis] = sizes[j]
            outs_i.append(i)
            outs_v.append(v)
            outs_s.append(s)
        return outs_i + outs_v + outs_s
    return ref


def _split_fn(axis, k):
    def fn(ind, val, shape):
        parts = tf.sparse.split(sp_input=_st(ind, val, shape), num_split=k, axis=axis)
        return [p.indices for p in parts] + [p.values for p in parts] + [p.dense_shape for p in parts]
    return fn


# ---- SparseFillEmptyRows / Grad --------------------------------------------------------------------------
def _fill_ref(ind, val, shape, default):
    rows = int(shape[0])
    by_row = {r: [] for r in range(rows)}
    for j, (k, v) in enumerate(_entries(ind, val)):
        by_row[k[0]].append((k, v, j))
    out, rim = [], [0] * len(val)
    for r in range(rows):
        if not by_row[r]:
            out.append(((r,) + (0,) * (len(shape) - 1), default))
        for k, v, j in by_row[r]:
            rim[j] = len(out)
            out.append((k, v))
    i, v = _out(out, len(shape), val.dtype)
    empty = np.array([not by_row[r] for r in range(rows)], bool)
    return [i, v, empty, np.array(rim, np.int64)]


def _fill_in(dtype, rng):
    ind, val, shape = _sp(rng, (6, 3), 6, dtype, order=False)
    return ind, val, shape, rand(rng, (), dtype)


def _fill_fn(ind, val, shape, default):
    sp, empty = tf.sparse.fill_empty_rows(_st(ind, val, shape), default)
    return [sp.indices, sp.values, empty]


def _fill_fn_all(ind, val, shape, default):
    outs = _ops.apply_op("SparseFillEmptyRows", [ind, val, shape, default])
    return list(outs)


def _fill_grad_ref(rim, g):
    seen = set(rim.tolist())
    dv = np.array([g[j] for j in rim.tolist()], g.dtype)
    rest = [g[j] for j in range(len(g)) if j not in seen]
    return [dv, np.array(np.sum(np.array(rest, np.longdouble)), g.dtype)]


def _fill_grad_in(dtype, rng):
    return np.array([4, 0, 2, 5], np.int64), rand(rng, (7,), dtype)


def _fill_grad_fn(rim, g):
    return list(_ops.apply_op("SparseFillEmptyRowsGrad", [rim, g]))


# ---- SparseTensorDenseMatMul ------------------------------------------------------------------------------
def _dense_of(ind, val, shape, dtype=None):
    out = np.zeros([int(d) for d in shape], dtype or (np.clongdouble if val.dtype.kind == "c" else (
        np.longdouble if val.dtype.kind == "f" else val.dtype)))
    for k, v in _entries(ind, val):
        out[k] += v
    return out


def _matmul_ref(adj_a, adj_b):
    def ref(ai, av, ash, b):
        a = _dense_of(ai, av, ash)
        bb = b.astype(np.longdouble) if b.dtype.kind == "f" else b.astype(np.int64)
        a = a.T if adj_a else a
        bb = bb.T if adj_b else bb
        return (a @ bb).astype(b.dtype)
    return ref


def _matmul_in(adj_a, adj_b):
    def inputs(dtype, rng):
        a = _sp(rng, (4, 3) if adj_a else (3, 4), 7, dtype)
        return a + (rand(rng, (2, 4) if adj_b else (4, 2), dtype),)
    return inputs


def _matmul_fn(adj_a, adj_b):
    def fn(ai, av, ash, b):
        return tf.sparse.sparse_dense_matmul(_st(ai, av, ash), b, adjoint_a=adj_a, adjoint_b=adj_b)
    return fn


# ---- reductions -------------------------------------------------------------------------------------------
def _fold_max(vals):
    """TF's fold: `acc = acc if x < acc else x` from the lowest value."""
    acc = vals[0]
    for x in vals[1:]:
        acc = acc if x < acc else x
    return acc


def _reduce_ref(kind, axes, keep, sparse):
    def ref(ind, val, shape):
        r = len(shape)
        red = sorted({a % r for a in axes})
        kept = [d for d in range(r) if d not in red]
        groups = {}
        for k, v in sorted(_entries(ind, val), key=lambda kv: kv[0]):
            groups.setdefault(tuple(k[d] for d in kept), []).append(v)
        out_dims = [1 if d in red else int(shape[d]) for d in range(r)] if keep else [int(shape[d]) for d in kept]
        res = {}
        for g, vs in groups.items():
            if kind == "sum":
                res[g] = np.sum(np.array(vs, np.longdouble if val.dtype.kind == "f" else val.dtype))
            else:
                res[g] = _fold_max(vs)
        if sparse:
            e = []
            for g in sorted(res):
                full = list(g)
                if keep:
                    full = [0] * r
                    for d, x in zip(kept, g):
                        full[d] = x
                e.append((tuple(full), res[g]))
            i, v = _out(e, len(out_dims), val.dtype)
            return [i, v, np.array(out_dims, np.int64)]
        dense = np.zeros([int(shape[d]) for d in kept], val.dtype)
        for g, v in res.items():
            dense[g] = v
        return dense.reshape(out_dims)
    return ref


def _reduce_in(dtype, rng):
    return _sp(rng, (3, 2, 4), 12, dtype, order=False)


def _reduce_fn(op, axes, keep):
    def fn(ind, val, shape):
        out = op(_st(ind, val, shape), axes, keepdims=keep)
        return _parts(out) if isinstance(out, tf.SparseTensor) else out
    return fn


def _reduce_special(dtype):
    dt = np.dtype(dtype)
    out = [_empty(3, dt, [2, 2, 3])]
    if dt.kind == "f":
        ind = np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 2], [1, 0, 0], [1, 0, 1], [1, 1, 1]], np.int64)
        out.append((ind, np.array([np.nan, 1.0, 2.0, np.nan, -np.inf, -0.0, 0.0], dt), np.array([2, 2, 3])))
    return out


# ---- SparseSoftmax ----------------------------------------------------------------------------------------
def _softmax_ref(ind, val, shape):
    e = sorted(_entries(ind, val), key=lambda kv: kv[0])
    groups = {}
    for k, v in e:
        groups.setdefault(k[:-1], []).append(np.longdouble(v))
    out = []
    for k, v in e:
        g = groups[k[:-1]]
        m = max(g)
        out.append(np.exp(np.longdouble(v) - m) / sum(np.exp(x - m) for x in g))
    return np.array(out, val.dtype)


def _softmax_in(dtype, rng):
    return _sp(rng, (2, 3, 4), 14, dtype, lo=-3, hi=3)


def _softmax_fn(ind, val, shape):
    return tf.sparse.softmax(_st(ind, val, shape)).values


def _softmax_special(dtype):
    dt = np.dtype(dtype)
    ind = np.array([[0, 0], [0, 1], [1, 0], [1, 2], [2, 1]], np.int64)
    return [_empty(2, dt, [2, 3]), (ind, np.array([-np.inf, 0.0, 1000.0, 999.0, -1000.0], dt), np.array([3, 3]))]


# ---- SparseSparseMaximum / Minimum ------------------------------------------------------------------------
def _ss_ref(fn):
    def ref(ai, av, ash, bi, bv, bsh):
        a, b = dict(_entries(ai, av)), dict(_entries(bi, bv))
        out = [(k, fn(a.get(k, av.dtype.type(0)), b.get(k, av.dtype.type(0)))) for k in sorted(set(a) | set(b))]
        return list(_out(out, ai.shape[1], av.dtype))
    return ref


def _ss_fn(op):
    def fn(ai, av, ash, bi, bv, bsh):
        out = op(_st(ai, av, ash), _st(bi, bv, bsh))
        return [out.indices, out.values]
    return fn


def _nanmax(x, y):
    return x if x != x else (y if y != y else max(x, y))


def _nanmin(x, y):
    return x if x != x else (y if y != y else min(x, y))


def _ss_special(dtype):
    dt = np.dtype(dtype)
    if dt.kind != "f":
        return [_empty(2, dt, [2, 2]) + _empty(2, dt, [2, 2])]
    a = (np.array([[0, 0], [0, 1], [1, 1]], np.int64), np.array([np.nan, -1.0, 2.0], dt), np.array([2, 2]))
    b = (np.array([[0, 0], [1, 0], [1, 1]], np.int64), np.array([3.0, np.inf, np.nan], dt), np.array([2, 2]))
    return [a + b]


# ---- SparseDenseCwise* ------------------------------------------------------------------------------------
def _cwise_ref(kind):
    def ref(ind, val, shape, dense):
        b = np.broadcast_to(dense, tuple(int(d) for d in shape))
        out = []
        for k, v in _entries(ind, val):
            d = b[k]
            if kind == "mul":
                out.append(np.longdouble(v) * np.longdouble(d))
            elif kind == "add":
                out.append(np.longdouble(v) + np.longdouble(d))
            else:
                out.append(np.longdouble(v) / np.longdouble(d))
        return np.array(out, val.dtype)
    return ref


def _cwise_in(dense_shape):
    def inputs(dtype, rng):
        ind, val, shape = _sp(rng, (3, 4), 7, dtype)
        dense = rand(rng, dense_shape, dtype, 0.5, 2.0)
        return ind, val, shape, dense
    return inputs


def _cwise_fn(op_type):
    def fn(ind, val, shape, dense):
        from tensorweave.ops import sparse_math_ops as sm
        f = {"SparseDenseCwiseMul": sm.sparse_dense_cwise_mul, "SparseDenseCwiseDiv": sm.sparse_dense_cwise_div,
             "SparseDenseCwiseAdd": sm.sparse_dense_cwise_add}[op_type]
        return f(_st(ind, val, shape), dense).values
    return fn


# ---- EditDistance -----------------------------------------------------------------------------------------
def _lev(a, b):
    """Levenshtein distance by memoized recursion (independent of the kernel's table)."""
    memo = {}

    def d(i, j):
        if (i, j) not in memo:
            if i == 0 or j == 0:
                memo[i, j] = i + j
            else:
                memo[i, j] = min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
        return memo[i, j]
    return d(len(a), len(b))


def _edit_ref(normalize):
    def ref(hi, hv, hs, ti, tv, ts):
        out_shape = [max(int(x), int(y)) for x, y in zip(hs[:-1], ts[:-1])]
        h, t = {}, {}
        for k, v in _entries(hi, hv):
            h.setdefault(k[:-1], []).append(v)
        for k, v in _entries(ti, tv):
            t.setdefault(k[:-1], []).append(v)
        out = np.zeros(out_shape, np.float32)
        for g in set(h) | set(t):
            if g in h and g in t:
                out[g] = _lev(h[g], t[g]) / (len(t[g]) if normalize else 1)
            elif g in h:
                out[g] = np.inf if normalize else len(h[g])
            else:
                out[g] = 1.0 if normalize else len(t[g])
        return out
    return ref


def _edit_in(dtype, rng):
    h = _sp(rng, (3, 2, 4), 12, dtype, 0, 3)
    t = _sp(rng, (3, 3, 3), 12, dtype, 0, 3)
    return h + t


def _edit_fn(normalize):
    def fn(hi, hv, hs, ti, tv, ts):
        return tf.edit_distance(_st(hi, hv, hs), _st(ti, tv, ts), normalize=normalize)
    return fn


# ---- set ops ----------------------------------------------------------------------------------------------
def _groups_dense(x):
    return {k: set(x[k].tolist()) for k in np.ndindex(*x.shape[:-1])}


def _groups_sparse(ind, val, shape):
    g = {k: set() for k in np.ndindex(*[int(d) for d in shape[:-1]])}
    for k, v in _entries(ind, val):
        g[k[:-1]].add(v)
    return g


_SETFN = {"union": lambda a, b: a | b, "intersection": lambda a, b: a & b, "a-b": lambda a, b: a - b,
          "b-a": lambda a, b: b - a}


def _set_out(ga, gb, group_shape, op, dtype):
    res = {k: sorted(_SETFN[op](ga[k], gb[k])) for k in np.ndindex(*group_shape)}
    width = max([len(v) for v in res.values()] + [0])
    e = [(k + (j,), v) for k in sorted(res) for j, v in enumerate(res[k])]
    i, v = _out(e, len(group_shape) + 1, dtype)
    return [i, v, np.array(list(group_shape) + [width], np.int64)]


def _d2d_ref(op):
    def ref(a, b):
        return _set_out(_groups_dense(a), _groups_dense(b), a.shape[:-1], op, a.dtype)
    return ref


def _d2s_ref(op):
    def ref(a, bi, bv, bs):
        return _set_out(_groups_dense(a), _groups_sparse(bi, bv, bs), a.shape[:-1], op, a.dtype)
    return ref


def _s2s_ref(op):
    def ref(ai, av, ash, bi, bv, bs):
        return _set_out(_groups_sparse(ai, av, ash), _groups_sparse(bi, bv, bs), tuple(int(d) for d in ash[:-1]),
                        op, av.dtype)
    return ref


_PUBLIC = {"union": lambda a, b: tf.sets.union(a, b), "intersection": lambda a, b: tf.sets.intersection(a, b),
           "a-b": lambda a, b: tf.sets.difference(a, b), "b-a": lambda a, b: tf.sets.difference(a, b, aminusb=False)}


def _set_fn(op, sparse_a, sparse_b):
    def fn(*t):
        if sparse_a:
            a, t = _st(*t[:3]), t[3:]
        else:
            a, t = t[0], t[1:]
        b = _st(*t) if sparse_b else t[0]
        return _parts(_PUBLIC[op](a, b))
    return fn


def _set_dense_in(dtype, rng):
    return rand(rng, (2, 3, 4), dtype, 0, 6), rand(rng, (2, 3, 3), dtype, 0, 6)


def _set_sparse(rng, shape, n, dtype):
    ind, _, sh = _sp(rng, shape, n, np.float32)
    return ind, rand(rng, (len(ind),), dtype, 0, 6), sh


def _set_d2s_in(dtype, rng):
    return (rand(rng, (2, 3, 4), dtype, 0, 6),) + _set_sparse(rng, (2, 3, 5), 12, dtype)


def _set_s2s_in(dtype, rng):
    return _set_sparse(rng, (2, 3, 4), 10, dtype) + _set_sparse(rng, (2, 3, 5), 12, dtype)


def _set_size_ref(ind, val, shape):
    g = _groups_sparse(ind, val, shape)
    out = np.zeros([int(d) for d in shape[:-1]], np.int32)
    for k, s in g.items():
        out[k] = len(s)
    return out


def _set_special(n_dense, n_sparse):
    def special(dtype):
        dt = np.dtype(dtype)
        parts = []
        for _ in range(n_dense):
            parts.append((np.zeros((2, 0), dt),))
        for _ in range(n_sparse):
            parts.append(_empty(2, dt, [2, 3]))
        return [sum(parts, ())]
    return special



ROWS = [
    Row("SparseReorder", lambda i, v, s: list(_parts(tf.sparse.reorder(_st(i, v, s)))[:2]), _reorder_ref, _reorder_in,
        dtypes=_FI + (np.complex64,), special=lambda dt: [_empty(3, dt, [2, 2, 2])], static_known=False,
        grad=[1], grad_fn=_static(lambda i, v, s: list(_parts(tf.sparse.reorder(_st(i, v, s)))[:2]), {1: 9})),
    Row("SparseReshape", lambda i, s: _parts(tf.sparse.reshape(_st(i, tf.zeros(tf.shape(i)[:1]), s), [4, -1]))[::2],
        _reshape_ref([4, -1]), _reshape_in, dtypes=(np.int64,), special=False, static_known=False, grad=False),
    Row("SparseReshape", lambda i, s: _parts(tf.sparse.reshape(_st(i, tf.zeros(tf.shape(i)[:1]), s),
                                                               [2, 2, 6]))[::2],
        _reshape_ref([2, 2, 6]), _reshape_in, dtypes=(np.int64,), special=False, static_known=False, grad=False,
        name="SparseReshape-3d"),
    Row("SparseAdd", _add_fn(0), _add_ref(0), _add_in, dtypes=_FI, special=_add_special, static_known=False,
        grad=[1, 4], grad_fn=_static(_add_fn(0), {1: 5}), grad_inputs=_add_grad_inputs),
    Row("SparseAdd", _add_fn(0.5), _add_ref(0.5), _add_in, dtypes=_F, special=False, static_known=False, grad=None,
        name="SparseAdd-thresh", note="gradient checked by the SparseAdd row; a threshold makes it discontinuous"),
    Row("SparseAddGrad", _add_grad_fn, _add_grad_ref, _add_grad_in, dtypes=_F, special=False, static_known=True,
        grad=False),
    Row("SparseTensorDenseAdd", _dense_add_fn, _dense_add_ref, _dense_add_in, dtypes=_FI + (np.complex128,),
        special=lambda dt: [_empty(2, dt, [3, 4]) + (np.ones((3, 4), dt),)], grad=[1, 3]),
    Row("SparseConcat", _concat_fn(1), _concat_ref(1), _concat_in, dtypes=_FI, special=False, static_known=False,
        grad=False),
    Row("SparseConcat", _concat_fn(-2), _concat_ref(-2),
        lambda dt, rng: _sp(rng, (2, 3), 3, dt) + _sp(rng, (1, 3), 2, dt) + _sp(rng, (3, 3), 4, dt),
        dtypes=_F, special=False, static_known=False, grad=False, name="SparseConcat-axis0"),
    Row("SparseSlice", _slice_fn([1, 2], [2, 9]), _slice_ref([1, 2], [2, 9]), _slice_in, dtypes=_FI,
        special=lambda dt: [_empty(2, dt, [4, 5])], static_known=False, grad=[1],
        grad_fn=_static(_slice_fn([1, 2], [2, 9]), {1: 3})),
    Row("SparseSliceGrad", _slice_grad_fn, _slice_grad_ref, _slice_grad_in, dtypes=_F, special=False, grad=False),
    Row("SparseSplit", _split_fn(1, 3), _split_ref(1, 3), lambda dt, rng: _sp(rng, (3, 7), 9, dt), dtypes=_FI,
        special=False, static_known=False, grad=None, note="TF registers no gradient for SparseSplit"),
    Row("SparseFillEmptyRows", _fill_fn_all, _fill_ref, _fill_in, dtypes=_FI,
        special=lambda dt: [_empty(2, dt, [3, 2]) + (np.array(7, dt),)], static_known=False, grad=[1, 3],
        grad_fn=_static(_fill_fn, {1: 8})),
    Row("SparseFillEmptyRowsGrad", _fill_grad_fn, _fill_grad_ref, _fill_grad_in, dtypes=_F, special=False,
        grad=False),
    Row("SparseTensorDenseMatMul", _matmul_fn(False, False), _matmul_ref(False, False), _matmul_in(False, False),
        dtypes=_FI, special=lambda dt: [_empty(2, dt, [3, 4]) + (np.ones((4, 2), dt),)], static_known=False,
        grad=[1, 3], rtol={np.float32: 1e-5}, grad_fn=_reshaped(_matmul_fn(False, False), [3, 2])),
    Row("SparseTensorDenseMatMul", _matmul_fn(True, True), _matmul_ref(True, True), _matmul_in(True, True),
        dtypes=_F, special=False, static_known=False, grad=[1, 3], rtol={np.float32: 1e-5},
        grad_fn=_reshaped(_matmul_fn(True, True), [3, 2]), name="SparseTensorDenseMatMul-adjoint"),
    Row("SparseReduceSum", _reduce_fn(tf.sparse.reduce_sum, [0, 2], False), _reduce_ref("sum", [0, 2], False, False),
        _reduce_in, dtypes=_FI + (np.complex64,), special=_reduce_special, static_known=False, grad=[1],
        grad_fn=_reshaped(_reduce_fn(tf.sparse.reduce_sum, [0, 2], False), [2]), rtol={np.float32: 1e-5}),
    Row("SparseReduceSum", _reduce_fn(tf.sparse.reduce_sum, [-1], True), _reduce_ref("sum", [-1], True, False),
        _reduce_in, dtypes=_F, special=False, static_known=False, grad=[1], rtol={np.float32: 1e-5},
        grad_fn=_reshaped(_reduce_fn(tf.sparse.reduce_sum, [-1], True), [3, 2, 1]), name="SparseReduceSum-keepdims"),
    Row("SparseReduceSumSparse", _reduce_fn(tf.sparse.reduce_sum_sparse, [1], True),
        _reduce_ref("sum", [1], True, True), _reduce_in, dtypes=_FI, special=_reduce_special, static_known=False,
        grad=None, rtol={np.float32: 1e-5}, note="TF registers no gradient for SparseReduceSumSparse"),
    Row("SparseReduceMax", _reduce_fn(tf.sparse.reduce_max, [1, 2], False), _reduce_ref("max", [1, 2], False, False),
        _reduce_in, dtypes=_FI, special=_reduce_special, static_known=False, grad=None,
        note="TF registers no gradient for SparseReduceMax"),
    Row("SparseReduceMaxSparse", _reduce_fn(tf.sparse.reduce_max_sparse, [0], False),
        _reduce_ref("max", [0], False, True), _reduce_in, dtypes=_FI, special=_reduce_special, static_known=False,
        grad=None, note="TF registers no gradient for SparseReduceMaxSparse"),
    Row("SparseSoftmax", _softmax_fn, _softmax_ref, _softmax_in, dtypes=_F, special=_softmax_special,
        grad=[1], rtol={np.float32: 1e-5}),
    Row("SparseSparseMaximum", _ss_fn(tf.sparse.maximum), _ss_ref(_nanmax), _add_in, dtypes=_FI, special=_ss_special,
        static_known=False, grad=None, note="TF's gradient raises NotImplementedError (test_sparse_ops)"),
    Row("SparseSparseMinimum", _ss_fn(tf.sparse.minimum), _ss_ref(_nanmin), _add_in, dtypes=_FI, special=_ss_special,
        static_known=False, grad=None, note="TF's gradient raises NotImplementedError (test_sparse_ops)"),
    Row("SparseDenseCwiseMul", _cwise_fn("SparseDenseCwiseMul"), _cwise_ref("mul"), _cwise_in((4,)), dtypes=_F,
        special=False, grad=[1, 3]),
    Row("SparseDenseCwiseDiv", _cwise_fn("SparseDenseCwiseDiv"), _cwise_ref("div"), _cwise_in((3, 1)), dtypes=_F,
        special=False, grad=[1, 3]),
    Row("SparseDenseCwiseAdd", _cwise_fn("SparseDenseCwiseAdd"), _cwise_ref("add"), _cwise_in(()), dtypes=_F,
        special=False, grad=None, note="TF's gradient raises NotImplementedError (test_sparse_ops)"),
    Row("EditDistance", _edit_fn(True), _edit_ref(True), _edit_in, dtypes=(np.int32, np.int64), special=False,
        static_known=False, grad=False),
    Row("EditDistance", _edit_fn(False), _edit_ref(False), _edit_in, dtypes=(np.int32,), special=False,
        static_known=False, grad=False, name="EditDistance-raw"),
    Row("DenseToDenseSetOperation", _set_fn("union", False, False), _d2d_ref("union"), _set_dense_in, dtypes=_SETS,
        special=_set_special(2, 0), static_known=False, grad=False),
    Row("DenseToDenseSetOperation", _set_fn("b-a", False, False), _d2d_ref("b-a"), _set_dense_in, dtypes=_SETS,
        special=False, static_known=False, grad=False, name="DenseToDenseSetOperation-bminusa"),
    Row("DenseToSparseSetOperation", _set_fn("intersection", False, True), _d2s_ref("intersection"), _set_d2s_in,
        dtypes=_SETS, special=_set_special(1, 1), static_known=False, grad=False),
    Row("SparseToSparseSetOperation", _set_fn("a-b", True, True), _s2s_ref("a-b"), _set_s2s_in, dtypes=_SETS,
        special=_set_special(0, 2), static_known=False, grad=False),
    Row("SetSize", lambda i, v, s: tf.sets.size(_st(i, v, s)), _set_size_ref,
        lambda dt, rng: _set_sparse(rng, (3, 2, 4), 12, dt), dtypes=_SETS, special=_set_special(0, 1),
        static_known=False, grad=False),
]


# ---- serialization (references build and read TensorProtos with the protobuf package) ------------------------
def _proto(array, dtype):
    from tensorboard.compat.proto import tensor_pb2
    array = np.asarray(array)
    p = tensor_pb2.TensorProto(dtype=tf.as_dtype(dtype).as_datatype_enum)
    p.tensor_shape.SetInParent()
    for d in array.shape:
        p.tensor_shape.dim.add(size=int(d))
    if tf.as_dtype(dtype) is tf.string:
        p.string_val.extend(array.reshape(-1).tolist())
    elif array.size:
        p.tensor_content = array.astype(np.dtype(array.dtype).newbyteorder("<")).tobytes()
    return p.SerializeToString()


def _unproto(b, np_dtype):
    from tensorboard.compat.proto import tensor_pb2
    p = tensor_pb2.TensorProto.FromString(b)
    dims = [d.size for d in p.tensor_shape.dim]
    if np.dtype(np_dtype) == object:
        return np.array(list(p.string_val), object).reshape(dims)
    return np.frombuffer(p.tensor_content, np.dtype(np_dtype).newbyteorder("<")).astype(np_dtype).reshape(dims)


def _obj(x):
    out = np.empty(np.shape(x), object)
    out[...] = x
    return out


def _ser_tensor_ref(x):
    return _obj(_proto(x, x.dtype))


def _ser_in(dtype, rng):
    return (rand(rng, (2, 3), dtype),)


def _ser_special(dtype):
    return [(np.zeros((0, 3), dtype),), (np.array(rand(np.random.RandomState(0), (), dtype)),)]


def _parse_in(dtype, rng):
    return (_obj(_proto(rand(rng, (3, 2), np.float32), np.float32)),)


def _parse_fn(dtype):
    return lambda s: tf.io.parse_tensor(s, tf.as_dtype(dtype))


_SER_TYPES = (np.float32, np.float64, np.int32, np.int64, np.uint8, np.bool_, np.complex64, np.float16)


def _ser_sparse_ref(ind, val, shape):
    return _obj([_proto(ind, np.int64), _proto(val, val.dtype), _proto(shape, np.int64)])


def _ser_many_ref(ind, val, shape):
    out = np.empty((int(shape[0]), 3), object)
    for b in range(int(shape[0])):
        m = ind[:, 0] == b
        out[b] = [_proto(ind[m][:, 1:], np.int64), _proto(val[m], val.dtype), _proto(shape[1:], np.int64)]
    return out


def _deser_in(dtype, rng):
    rows = []
    for shape in ((3, 4), (2, 5), (1, 1)):
        ind, val, sh = _sp(rng, shape, 4, dtype)
        rows.append([_proto(ind, np.int64), _proto(val, dtype), _proto(sh, np.int64)])
    return (_obj(rows),)


def _deser_ref_of(dtype):
    def ref(s):
        parts = [(_unproto(r[0], np.int64), _unproto(r[1], dtype), _unproto(r[2], np.int64)) for r in s]
        ind = [[i] + list(k) for i, (ki, _, _) in enumerate(parts) for k in ki.tolist()]
        val = [v for _, vs, _ in parts for v in vs.tolist()]
        shape = [len(parts)] + [max(int(p[2][d]) for p in parts) for d in range(len(parts[0][2]))]
        return [np.array(ind, np.int64).reshape(-1, len(shape)), np.array(val, dtype), np.array(shape, np.int64)]
    return ref


def _deser_rows():
    rows = []
    for dt in (np.float32, np.int64):
        rows.append(Row("DeserializeManySparse", lambda s, dt=dt: _parts(tf.io.deserialize_many_sparse(s, dt)),
                        _deser_ref_of(dt), lambda d, rng, dt=dt: _deser_in(dt, rng), dtypes=(object,),
                        special=False, static_known=False, grad=False,
                        name="DeserializeManySparse-%s" % np.dtype(dt).name))
    return rows


ROWS += [
    Row("SerializeTensor", lambda x: tf.reshape(tf.io.serialize_tensor(x), [1]), lambda x: _ser_tensor_ref(x)[None],
        _ser_in, dtypes=_SER_TYPES, special=_ser_special, grad=False,
        note="the scalar string is reshaped to [1]: the harness's np.asarray of a fetched bytes object would drop "
             "its trailing NUL bytes"),
    Row("ParseTensor", _parse_fn(np.float32), lambda s: _unproto(s[()], np.float32), _parse_in, dtypes=(object,),
        special=False, static_known=False, grad=False, name="ParseTensor-float32",
        note="inputs(dtype) ignores the (string) row dtype: the serialized tensor is float32"),
    Row("ParseTensor", _parse_fn(np.int64), lambda s: _unproto(s[()], np.int64),
        lambda d, rng: (_obj(_proto(rand(rng, (4,), np.int64), np.int64)),), dtypes=(object,), special=False,
        static_known=False, grad=False, name="ParseTensor-int64"),
    Row("SerializeSparse", lambda i, v, s: tf.io.serialize_sparse(_st(i, v, s)), _ser_sparse_ref,
        lambda dt, rng: _sp(rng, (3, 4), 5, dt), dtypes=(np.float32, np.int64, np.bool_),
        special=lambda dt: [_empty(2, dt, [2, 2])], grad=False),
    Row("SerializeManySparse", lambda i, v, s: tf.io.serialize_many_sparse(_st(i, v, s)), _ser_many_ref,
        lambda dt, rng: _sp(rng, (4, 3, 2), 9, dt), dtypes=(np.float32, np.int32),
        special=lambda dt: [_empty(2, dt, [3, 2])], grad=False, static_known=False),
] + _deser_rows()


# ---- SparseCross / SparseCrossV2 ------------------------------------------------------------------------------
def _fp_cat(a, b):
    """FingerprintCat64 in NumPy uint64 arithmetic (wrapping)."""
    with np.errstate(over="ignore"):
        mul = np.uint64(0xC6A4A7935BD1E995)
        a, b = np.uint64(a), np.uint64(b)
        t = b * mul
        t = (t ^ (t >> np.uint64(47))) * mul
        r = (a ^ mul) ^ t
        r = r * mul
        r = (r ^ (r >> np.uint64(47))) * mul
        return int(r ^ (r >> np.uint64(47)))


def _cross_rows(cols, batch):
    """Per batch row, the tuples of the cartesian product of the columns' features."""
    return [list(itertools.product(*[c[b] for c in cols])) for b in range(batch)]


def _cross_cols(ind, val, shape, dense):
    batch = int(shape[0])
    sp = [[v for k, v in _entries(ind, val) if k[0] == b] for b in range(batch)]
    return [sp, [list(r) for r in dense]], batch


def _cross_ref(sep):
    def ref(ind, val, shape, dense):
        cols, batch = _cross_cols(ind, val, shape, dense)
        rows = [[sep.join(x if isinstance(x, bytes) else str(x).encode() for x in p) for p in r]
                for r in _cross_rows(cols, batch)]
        e = [((b, j), v) for b, r in enumerate(rows) for j, v in enumerate(r)]
        i = np.array([k for k, _ in e], np.int64).reshape(-1, 2)
        v = np.empty(len(e), object)
        v[:] = [x for _, x in e]
        return [i, v, np.array([batch, max([len(r) for r in rows] + [0])], np.int64)]
    return ref


def _hashed_ref(buckets, key):
    def ref(ind, val, shape, dense):
        import farmhash
        cols, batch = _cross_cols(ind, val, shape, dense)
        rows = []
        for r in _cross_rows(cols, batch):
            out = []
            for p in r:
                h = key
                for x in p:
                    h = _fp_cat(h, farmhash.fingerprint64(x) if isinstance(x, bytes) else int(x) % 2 ** 64)
                out.append(h % buckets if buckets else h % (2 ** 63 - 1))
            rows.append(out)
        e = [((b, j), v) for b, r in enumerate(rows) for j, v in enumerate(r)]
        return [np.array([k for k, _ in e], np.int64).reshape(-1, 2), np.array([v for _, v in e], np.int64),
                np.array([batch, max([len(r) for r in rows] + [0])], np.int64)]
    return ref


def _cross_in(dtype, rng):
    ind = np.array([[0, 0], [0, 1], [2, 0], [3, 0], [3, 1], [3, 2]], np.int64)
    if np.dtype(dtype) == object:
        val = _obj([b"a", b"bb", b"", b"c", b"a", b"d"])
        dense = _obj([[b"x", b"y"], [b"z", b"w"], [b"u", b"v"], [b"t", b"s"]])
    else:
        val = rand(rng, (6,), dtype, -50, 50)
        dense = rand(rng, (4, 2), dtype, -50, 50)
    return ind, val, np.array([4, 3], np.int64), dense


ROWS += [
    Row("SparseCrossV2", lambda i, v, s, d: _parts(tf.sparse.cross([_st(i, v, s), d], separator="#")),
        _cross_ref(b"#"), _cross_in, dtypes=(object, np.int64), special=False, static_known=False, grad=False),
    Row("SparseCross", lambda i, v, s, d: _parts(tf.sparse.cross_hashed([_st(i, v, s), d], num_buckets=97)),
        _hashed_ref(97, 0xDECAFCAFFE), _cross_in, dtypes=(object, np.int64), special=False, static_known=False,
        grad=False),
    Row("SparseCross", lambda i, v, s, d: _parts(tf.sparse.cross_hashed([d, _st(i, v, s)], hash_key=7)),
        _hashed_ref(0, 7), _cross_in, dtypes=(object,), special=False, static_known=False, grad=False,
        name="SparseCross-nobuckets"),
]


# ---- DenseCountSparseOutput / SparseCountSparseOutput ------------------------------------------------------
def _count_ref(axis, minlength=None, maxlength=None, binary=False, weighted=False):
    def ref(*arrays):
        if len(arrays) >= 3:  # sparse: indices, values, shape[, weights]
            ind, val, shape = arrays[:3]
            w = arrays[3] if weighted else None
            rows = [int(k[0]) for k in ind.tolist()] if axis == -1 else [0] * len(val)
            nb = int(shape[0]) if axis == -1 else 1
        else:
            val = arrays[0]
            w = arrays[1] if weighted else None
            nb = val.shape[0] if axis == -1 else 1
            rows = [r for r in range(val.shape[0]) for _ in range(val.shape[1])] if axis == -1 else [0] * val.size
            val = val.reshape(-1)
            w = None if w is None else w.reshape(-1)
        out_dt = w.dtype if w is not None else val.dtype
        bins = [{} for _ in range(nb)]
        seen = [int(v) for v in val.tolist() if maxlength is None or v < maxlength]
        for j, (r, v) in enumerate(zip(rows, val.tolist())):
            if maxlength is not None and v >= maxlength:
                continue
            bins[r][v] = 1 if binary else bins[r].get(v, 0) + (w[j] if w is not None else 1)
        size = maxlength if maxlength else max(max(seen + [0]) + 1, minlength or 0)
        e = [((r, v) if axis == -1 else (v,), c) for r in range(nb) for v, c in sorted(bins[r].items())]
        rank = 2 if axis == -1 else 1
        i = np.array([k for k, _ in e], np.int64).reshape(-1, rank)
        return [i, np.array([c for _, c in e], out_dt), np.array([nb, size] if axis == -1 else [size], np.int64)]
    return ref


def _count_dense_in(dtype, rng):
    return (rand(rng, (3, 5), dtype, 0, 9),)


def _count_weighted_in(dtype, rng):
    return rand(rng, (3, 5), np.int64, 0, 9), rand(rng, (3, 5), dtype)


def _count_sparse_in(dtype, rng):
    ind, _, shape = _sp(rng, (4, 6), 10, np.float32)
    return ind, rand(rng, (len(ind),), dtype, 0, 7), shape


def _count_sparse_w_in(dtype, rng):
    ind, _, shape = _sp(rng, (4, 6), 10, np.float32)
    return ind, rand(rng, (len(ind),), np.int64, 0, 7), shape, rand(rng, (len(ind),), dtype)


ROWS += [
    Row("DenseCountSparseOutput", lambda v: _parts(tf.sparse.bincount(v, axis=-1)), _count_ref(-1),
        _count_dense_in, dtypes=(np.int32, np.int64), special=lambda dt: [(np.zeros((2, 0), dt),)],
        static_known=False, grad=False),
    Row("DenseCountSparseOutput", lambda v: _parts(tf.sparse.bincount(v, minlength=12, binary_output=True)),
        _count_ref(0, minlength=12, binary=True), _count_dense_in, dtypes=(np.int64,), special=False,
        static_known=False, grad=False, name="DenseCountSparseOutput-binary"),
    Row("DenseCountSparseOutput", lambda v, w: _parts(tf.sparse.bincount(v, weights=w, axis=-1, maxlength=6)),
        _count_ref(-1, maxlength=6, weighted=True), _count_weighted_in, dtypes=(np.float32, np.float64, np.int32),
        special=False, static_known=False, grad=False, name="DenseCountSparseOutput-weights"),
    Row("SparseCountSparseOutput", lambda i, v, s: _parts(tf.sparse.bincount(_st(i, v, s), axis=-1)),
        _count_ref(-1), _count_sparse_in, dtypes=(np.int32, np.int64), special=lambda dt: [_empty(2, dt, [3, 4])],
        static_known=False, grad=False),
    Row("SparseCountSparseOutput", lambda i, v, s, w: _parts(tf.sparse.bincount(_st(i, v, s), weights=_st(i, w, s),
                                                                                axis=-1, minlength=9)),
        _count_ref(-1, minlength=9, weighted=True), _count_sparse_w_in, dtypes=(np.float32, np.int64),
        special=False, static_known=False, grad=False, name="SparseCountSparseOutput-weights"),
]
