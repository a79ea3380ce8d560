"""Op-table rows of tensorweave/ops/array_space_ops.py, array_misc_ops.py, state_count_ops.py and
nn_lrn_ops.py (see harness.py for the row API).

References index with explicit Python loops over the definitions (TF's documentation of each op), or
reinterpret raw bytes with `struct` (Bitcast); none calls the kernels. TF's values themselves are
checked in tests/ops/test_array_space_ops.py and tests/ops/test_nn_misc_ops.py."""

import itertools
import struct

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops as tf_ops
from tests.ops.op_table.harness import BOOL, FLOATS, INTS, Row, rand, special_values
from tests.ops.op_table.rows_other import _deps, _variable

MOVE = FLOATS + INTS + BOOL + (np.complex64,)
LD = np.longdouble


def _cycle(shape, dt):
    v = special_values(dt)
    if v.size == 0:
        return np.zeros(shape, dt)
    return np.resize(v, shape).astype(dt)


def _special(regular, empty):
    """special(dt): the regular input shapes filled with special values, then each empty-shape case."""
    def special(dt):
        return [[_cycle(s, dt) for s in regular]] + [[np.zeros(s, dt) for s in e] for e in empty]
    return special


# ---- SpaceToBatchND / BatchToSpaceND ------------------------------------------------------------------
def _s2b_ref(block, pads):
    def ref(x):
        m = len(block)
        batch = x.shape[0]
        padded = [x.shape[i + 1] + pads[i][0] + pads[i][1] for i in range(m)]
        spatial = [padded[i] // block[i] for i in range(m)]
        rest = x.shape[m + 1:]
        out = np.zeros([batch * int(np.prod(block))] + spatial + list(rest), x.dtype)
        for ob in range(out.shape[0]):
            off_flat, b = divmod(ob, batch)
            offs = np.unravel_index(off_flat, block) if block else ()
            for pos in itertools.product(*[range(s) for s in spatial]):
                src = [pos[i] * block[i] + int(offs[i]) - pads[i][0] for i in range(m)]
                if all(0 <= src[i] < x.shape[i + 1] for i in range(m)):
                    out[(ob,) + pos] = x[(b,) + tuple(src)]
        return out
    return ref


def _b2s_ref(block, crops):
    def ref(x):
        m = len(block)
        prod = int(np.prod(block))
        batch = x.shape[0] // prod
        full = [x.shape[i + 1] * block[i] for i in range(m)]
        out_sp = [full[i] - crops[i][0] - crops[i][1] for i in range(m)]
        rest = x.shape[m + 1:]
        out = np.zeros([batch] + out_sp + list(rest), x.dtype)
        for b in range(batch):
            for pos in itertools.product(*[range(s) for s in out_sp]):
                f = [pos[i] + crops[i][0] for i in range(m)]
                offs = [f[i] % block[i] for i in range(m)]
                src = tuple(f[i] // block[i] for i in range(m))
                ib = int(np.ravel_multi_index(offs, block)) * batch + b
                out[(b,) + pos] = x[(ib,) + src]
        return out
    return ref


_S2B_BLOCK, _S2B_PADS = [2, 3], [[1, 1], [0, 3]]
_B2S_BLOCK, _B2S_CROPS = [2, 2], [[1, 0], [0, 2]]

SPACE = [
    Row("SpaceToBatchND", lambda x: tf.space_to_batch_nd(x, _S2B_BLOCK, _S2B_PADS), _s2b_ref(_S2B_BLOCK, _S2B_PADS),
        lambda dt, rng: [rand(rng, (2, 2, 3, 2), dt)], dtypes=MOVE,
        special=_special([(2, 2, 3, 2)], [[(0, 2, 3, 2)], [(2, 2, 0, 2)]])),
    Row("SpaceToBatchND", lambda x: tf.space_to_batch_nd(x, [2], [[1, 0]]), _s2b_ref([2], [[1, 0]]),
        lambda dt, rng: [rand(rng, (3, 5, 2), dt)], dtypes=(np.float64, np.int32), special=False,
        name="SpaceToBatchND-1d"),
    Row("SpaceToBatchND", lambda x, b, p: tf.space_to_batch_nd(x, b, p), lambda x, b, p: _s2b_ref(
        [int(v) for v in b], [[int(v) for v in r] for r in p])(x),
        lambda dt, rng: [rand(rng, (2, 3, 4, 2), dt), np.array([3, 2], np.int64), np.array([[0, 3], [1, 1]], np.int32)],
        dtypes=(np.float32, np.float64), special=False, static_known=False, grad=[0],
        grad_fn=lambda x, b, p: tf.reshape(tf.space_to_batch_nd(x, b, p), [12, 2, 3, 2]), name="SpaceToBatchND-fed"),
    Row("BatchToSpaceND", lambda x: tf.batch_to_space_nd(x, _B2S_BLOCK, _B2S_CROPS), _b2s_ref(_B2S_BLOCK, _B2S_CROPS),
        lambda dt, rng: [rand(rng, (8, 2, 3, 2), dt)], dtypes=MOVE,
        special=_special([(8, 2, 3, 2)], [[(0, 2, 3, 2)]])),
    Row("BatchToSpaceND", lambda x: tf.batch_to_space_nd(x, [3], [[0, 1]]), _b2s_ref([3], [[0, 1]]),
        lambda dt, rng: [rand(rng, (6, 2, 3), dt)], dtypes=(np.float64, np.int64), special=False,
        name="BatchToSpaceND-1d"),
]


# ---- DepthToSpace / SpaceToDepth ------------------------------------------------------------------------
def _d2s_ref(b, fmt):
    def ref(x):
        if fmt == "NCHW":
            x = x.transpose(0, 2, 3, 1)
        n, h, w, c = x.shape
        co = c // (b * b)
        out = np.zeros((n, h * b, w * b, co), x.dtype)
        for i, j, k, di, dj, ch in itertools.product(range(n), range(h), range(w), range(b), range(b), range(co)):
            out[i, j * b + di, k * b + dj, ch] = x[i, j, k, (di * b + dj) * co + ch]
        return np.ascontiguousarray(out.transpose(0, 3, 1, 2)) if fmt == "NCHW" else out
    return ref


def _s2d_ref(b, fmt):
    def ref(x):
        if fmt == "NCHW":
            x = x.transpose(0, 2, 3, 1)
        n, h, w, c = x.shape
        out = np.zeros((n, h // b, w // b, c * b * b), x.dtype)
        for i, j, k, ch in itertools.product(range(n), range(h), range(w), range(c)):
            out[i, j // b, k // b, ((j % b) * b + k % b) * c + ch] = x[i, j, k, ch]
        return np.ascontiguousarray(out.transpose(0, 3, 1, 2)) if fmt == "NCHW" else out
    return ref


DEPTH = [
    Row("DepthToSpace", lambda x: tf.depth_to_space(x, 2), _d2s_ref(2, "NHWC"),
        lambda dt, rng: [rand(rng, (2, 2, 3, 8), dt)], dtypes=MOVE,
        special=_special([(1, 2, 3, 8)], [[(0, 2, 3, 8)], [(1, 0, 3, 4)]])),
    Row("DepthToSpace", lambda x: tf.depth_to_space(x, 3, data_format="NCHW"), _d2s_ref(3, "NCHW"),
        lambda dt, rng: [rand(rng, (1, 18, 2, 2), dt)], dtypes=(np.float32, np.float64, np.int32), special=False,
        name="DepthToSpace-NCHW"),
    Row("SpaceToDepth", lambda x: tf.space_to_depth(x, 2), _s2d_ref(2, "NHWC"),
        lambda dt, rng: [rand(rng, (2, 4, 6, 3), dt)], dtypes=MOVE,
        special=_special([(1, 4, 2, 3)], [[(0, 4, 2, 3)], [(1, 0, 2, 3)]])),
    Row("SpaceToDepth", lambda x: tf.space_to_depth(x, 2, data_format="NCHW"), _s2d_ref(2, "NCHW"),
        lambda dt, rng: [rand(rng, (2, 3, 4, 2), dt)], dtypes=(np.float32, np.float64, np.int32), special=False,
        name="SpaceToDepth-NCHW"),
]


# ---- Bitcast ------------------------------------------------------------------------------------------------
_STRUCT = {"float16": "e", "float32": "f", "float64": "d", "int8": "b", "uint8": "B", "int16": "h",
           "uint16": "H", "int32": "i", "int64": "q"}


def _bitcast_ref(out_dtype):
    """Reinterprets the little-endian bytes of each input element (or last-axis group) with `struct`."""
    out_dt = np.dtype(out_dtype)

    def ref(x):
        src = x.dtype.itemsize
        dst = out_dt.itemsize
        fmt = "<" + _STRUCT[out_dt.name]
        raw = b"".join(struct.pack("<" + _STRUCT[x.dtype.name], v) for v in x.reshape(-1).tolist())
        values = [struct.unpack(fmt, raw[i:i + dst])[0] for i in range(0, len(raw), dst)]
        shape = x.shape + (src // dst,) if src > dst else (x.shape[:-1] if src < dst else x.shape)
        out = np.empty(len(values), out_dt)
        for i, v in enumerate(values):
            out[i] = v
        return out.reshape(shape)
    return ref


def _bitcast_f16_ref(x):
    """float16 to int16 without a float round trip (NaN payloads): the raw bits by struct of uint16."""
    raw = x.tobytes()
    return np.array([struct.unpack("<h", raw[i:i + 2])[0] for i in range(0, len(raw), 2)], np.int16).reshape(x.shape)


_NO_GRAD = "TF registers no gradient for %s (tf.gradients raises LookupError, checked in " \
           "tests/ops/test_array_space_ops.py)"

BITCAST = [
    Row("Bitcast", lambda x: tf.bitcast(x, tf.uint8), _bitcast_ref(np.uint8),
        lambda dt, rng: [rand(rng, (2, 3), dt, -100, 100)],
        dtypes=(np.float32, np.float64, np.int16, np.int32, np.int64), grad=None, note=_NO_GRAD % "Bitcast"),
    Row("Bitcast", lambda x: tf.bitcast(x, tf.int64), _bitcast_ref(np.int64),
        lambda dt, rng: [rand(rng, (3, 8 // np.dtype(dt).itemsize), dt, -100, 100)],
        dtypes=(np.uint8, np.int16, np.int32), special=False, grad=None, note=_NO_GRAD % "Bitcast",
        name="Bitcast-narrow"),
    Row("Bitcast", lambda x: tf.bitcast(x, tf.int16), _bitcast_f16_ref,
        lambda dt, rng: [rand(rng, (2, 3), dt)], dtypes=(np.float16,), grad=None, note=_NO_GRAD % "Bitcast",
        name="Bitcast-same-size"),
]


# ---- EnsureShape / GuaranteeConst / ShapeN / ParallelConcat -------------------------------------------------
MISC = [
    Row("EnsureShape", lambda x: tf.ensure_shape(x, [2, None]), lambda x: x.copy(),
        lambda dt, rng: [rand(rng, (2, 3), dt)], dtypes=MOVE, special=_special([(2, 3)], [[(2, 0)]])),
    Row("GuaranteeConst", tf.guarantee_const, lambda x: x.copy(), lambda dt, rng: [rand(rng, (2, 3), dt)],
        dtypes=MOVE, grad=None, note=_NO_GRAD % "GuaranteeConst"),
    Row("ShapeN", lambda a, b: tf.shape_n([a, b]), lambda a, b: [np.array(a.shape, np.int32),
                                                                 np.array(b.shape, np.int32)],
        lambda dt, rng: [rand(rng, (2, 3), dt), rand(rng, (4,), dt)], dtypes=MOVE, grad=False,
        special=lambda dt: [[np.zeros((0, 3), dt), np.zeros((0,), dt)]]),
    Row("ShapeN", lambda a: tf.shape_n([a], out_type=tf.int64), lambda a: [np.array(a.shape, np.int64)],
        lambda dt, rng: [rand(rng, (2, 1, 3), dt)], dtypes=(np.float32,), grad=False, special=False,
        name="ShapeN-int64"),
    Row("ParallelConcat", lambda a, b, c: tf.parallel_stack([a, b, c]), lambda a, b, c: np.array([a, b, c]),
        lambda dt, rng: [rand(rng, (2, 3), dt) for _ in range(3)], dtypes=MOVE, grad=None, eager=False,
        special=_special([(2, 3)] * 3, [[(0, 3)] * 3]),
        note="parallel_stack is graph-only (RuntimeError eagerly, as TF) and TF registers no gradient for "
             "ParallelConcat: both checked in tests/ops/test_array_space_ops.py"),
]


# ---- LinSpace / UnravelIndex -----------------------------------------------------------------------------------
def _lin_space_ref(num):
    def ref(start, stop):
        t = start.dtype.type
        if num == 1:
            return np.array([start], start.dtype)
        step = t(t(stop - start) / t(num - 1))
        out = [t(start + t(i) * step) for i in range(num - 1)] + [t(stop)]
        return np.array(out, start.dtype)
    return ref


def _lin_space_special(dt):
    v = special_values(dt)
    return [[np.array(a, dt), np.array(b, dt)] for a, b in itertools.product(v, v)]


def _unravel_ref(dims):
    def ref(idx):
        flat = np.reshape(idx, -1).tolist()
        out = np.zeros((len(dims), len(flat)), idx.dtype)
        for j, v in enumerate(flat):
            for i in reversed(range(len(dims))):
                v, out[i, j] = divmod(v, dims[i])
        return out.reshape((len(dims),) + idx.shape)
    return ref


RANGE = [
    Row("LinSpace", lambda a, b: tf.lin_space(a, b, 7), _lin_space_ref(7),
        lambda dt, rng: [rand(rng, (), dt), rand(rng, (), dt, 3.0, 5.0)], dtypes=(np.float32, np.float64),
        grad=False, special=_lin_space_special),
    Row("LinSpace", lambda a, b, n: tf.lin_space(a, b, n), lambda a, b, n: _lin_space_ref(int(n))(a, b),
        lambda dt, rng: [rand(rng, (), dt), rand(rng, (), dt), np.array(5, np.int64)], dtypes=(np.float32, np.float64),
        grad=False, special=False, static_known=False, name="LinSpace-fed-num"),
    Row("LinSpace", lambda a, b: tf.lin_space(a, b, 1), _lin_space_ref(1),
        lambda dt, rng: [rand(rng, (), dt), rand(rng, (), dt)], dtypes=(np.float32, np.float64), grad=False,
        special=False, name="LinSpace-one"),
    Row("UnravelIndex", lambda i: tf.unravel_index(i, tf.constant([3, 4, 5], i.dtype)), _unravel_ref([3, 4, 5]),
        lambda dt, rng: [rng.randint(0, 60, size=(7,)).astype(dt)], dtypes=INTS, grad=False,
        special=lambda dt: [[np.zeros(0, dt)], [np.array([0, 59], dt)]]),
    Row("UnravelIndex", lambda i: tf.unravel_index(i, tf.constant([6, 7], i.dtype)), _unravel_ref([6, 7]),
        lambda dt, rng: [np.array(rng.randint(0, 42), dt)], dtypes=INTS, grad=False, special=False,
        name="UnravelIndex-scalar"),
]


# ---- CountUpTo -----------------------------------------------------------------------------------------------------
def _count_up_to(x):
    v = _variable(x)
    with _deps(v):
        c = tf.count_up_to(v, 1000)
    with tf.control_dependencies([c]):
        return [tf.identity(c), tf.identity(v.read_value())]


STATE = [
    Row("CountUpTo", _count_up_to, lambda x: [x.copy(), x + x.dtype.type(1)],
        lambda dt, rng: [np.array(rng.randint(-50, 50), dt)], dtypes=INTS, grad=False,
        special=lambda dt: [[np.array(0, dt)], [np.array(999, dt)], [np.array(np.iinfo(dt).min, dt)]]),
]


# ---- LRN / LRNGrad ---------------------------------------------------------------------------------------------------
_LRN = {"depth_radius": 2, "bias": 1.5, "alpha": 0.3, "beta": 0.75}


def _window(d, depth, r):
    return range(max(0, d - r), min(depth, d + r + 1))


def _lrn_ref(x):
    r, bias, alpha, beta = _LRN["depth_radius"], _LRN["bias"], _LRN["alpha"], _LRN["beta"]
    xl = x.astype(LD)
    out = np.zeros(x.shape, LD)
    depth = x.shape[-1]
    for pos in np.ndindex(*x.shape[:-1]):
        for d in range(depth):
            sq = sum(xl[pos + (k,)] ** 2 for k in _window(d, depth, r))
            out[pos + (d,)] = xl[pos + (d,)] * (LD(bias) + LD(alpha) * sq) ** LD(-beta)
    return out.astype(x.dtype)


def _lrn_grad_ref(g, x, y):
    """TF's LRNGrad: dx_k = sum_{j: |j - k| <= r} g_j * (delta_jk N_j^-beta - 2 alpha beta x_k y_j / N_j)."""
    r, bias, alpha, beta = _LRN["depth_radius"], _LRN["bias"], _LRN["alpha"], _LRN["beta"]
    gl, xl, yl = g.astype(LD), x.astype(LD), y.astype(LD)
    out = np.zeros(x.shape, LD)
    depth = x.shape[-1]
    for pos in np.ndindex(*x.shape[:-1]):
        for j in range(depth):
            norm = LD(bias) + LD(alpha) * sum(xl[pos + (k,)] ** 2 for k in _window(j, depth, r))
            for k in _window(j, depth, r):
                term = -2 * LD(alpha) * LD(beta) * xl[pos + (k,)] * yl[pos + (j,)] / norm
                if k == j:
                    term += norm ** LD(-beta)
                out[pos + (k,)] += gl[pos + (j,)] * term
    return out.astype(g.dtype)


_LRN_NOTE = "TF has no float64 LRN kernel (TypeError, as TF): the gradient is checked against TF's values and " \
            "numerically in float32 in tests/ops/test_nn_misc_ops.py, and LRNGrad has its own row"

LRN_ROWS = [
    Row("LRN", lambda x: tf.nn.lrn(x, **_LRN), _lrn_ref, lambda dt, rng: [rand(rng, (2, 2, 1, 7), dt)],
        dtypes=(np.float16, np.float32), grad=None, note=_LRN_NOTE,
        special=_special([(1, 1, 2, 9)], [[(0, 1, 1, 3)], [(1, 1, 1, 0)]])),
    Row("LRNGrad", lambda g, x, y: tf_ops.apply_op("LRNGrad", [g, x, y], dict(_LRN)), _lrn_grad_ref,
        lambda dt, rng: [rand(rng, (2, 1, 2, 6), dt), rand(rng, (2, 1, 2, 6), dt), rand(rng, (2, 1, 2, 6), dt)],
        dtypes=(np.float16, np.float32), grad=None, special=_special([(1, 1, 1, 5)] * 3, [[(0, 1, 1, 3)] * 3]),
        note="TF registers no gradient for LRNGrad (LookupError)"),
]

ROWS = SPACE + DEPTH + BITCAST + MISC + RANGE + STATE + LRN_ROWS
