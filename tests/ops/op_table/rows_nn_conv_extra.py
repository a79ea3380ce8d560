"""Op-table rows of tensorweave/ops/nn_conv3d_ops.py, nn_pool3d_ops.py and nn_morph_ops.py (see harness.py
for the row API): Conv3D and its backprops, 3-D pooling and its gradients, Dilation2D and its backprops,
MaxPoolWithArgmax and MaxPoolGradWithArgmax.

References are independent of the kernels: direct loops over output positions and each window's
in-bounds elements, in float64 (each output reads input `o * stride + tap * dilation - pad_before`, TF's
documented SAME/VALID geometry), not patch matrices or tap-wise vectorised passes. The window rules
are TF's CPU kernels' (checked against TF in tests/ops/test_nn_conv3d_ops.py): max pooling and
dilation start at the lowest finite value and take each element greater than the one held; MaxPool3D's
gradient goes to every element equal to the pooled value, its second derivative takes the first;
MaxPoolWithArgmax takes the first element, then each greater one.
"""

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import FLOATS, Row, rand
from tests.ops.op_table.rows_nn import _vjp

F64 = np.dtype(np.float64)
CONV_TOL = dict(rtol={np.float16: 1e-2, np.float32: 1e-5}, atol={np.float16: 1e-2, np.float32: 1e-5})


# ---- geometry and layout ----------------------------------------------------------------------------
def _geom(size, k, s, d, padding):
    ek = (k - 1) * d + 1
    if padding == "SAME":
        out = -(-size // s)
        return out, max((out - 1) * s + ek - size, 0) // 2
    return max(0, -(-(size - ek + 1) // s)), 0


def _out_sizes(sizes, k, s, d, padding):
    return tuple(_geom(n, ki, si, di, padding)[0] for n, ki, si, di in zip(sizes, k, s, d))


def _windows(sizes, k, s, d, padding):
    """(output index, [(tap, input index), ...] of the in-bounds window elements in row-major order)."""
    geo = [_geom(n, ki, si, di, padding) for n, ki, si, di in zip(sizes, k, s, d)]
    for o in np.ndindex(*[g[0] for g in geo]):
        items = []
        for t in np.ndindex(*k):
            pos = tuple(oi * si + ti * di - g[1] for oi, si, ti, di, g in zip(o, s, t, d, geo))
            if all(0 <= p < n for p, n in zip(pos, sizes)):
                items.append((t, pos))
        yield o, items


def _last(x, fmt):
    return np.moveaxis(x, 1, -1) if fmt.startswith("NC") else x


def _first(x, fmt):
    return np.moveaxis(x, -1, 1) if fmt.startswith("NC") else x


def _shape(last_shape, fmt):
    return (last_shape[0], last_shape[-1]) + tuple(last_shape[1:-1]) if fmt.startswith("NC") else tuple(last_shape)


def _ix(idx):
    return (slice(None),) + tuple(idx)


# ---- convolution references ------------------------------------------------------------------------
class P3:
    def __init__(self, fmt, padding, s=(1, 1, 1), d=(1, 1, 1), k=None):
        self.fmt, self.padding, self.s, self.d, self.k = fmt, padding, s, d, k

    def attr(self, v):
        return [1, 1] + list(v) if self.fmt.startswith("NC") else [1] + list(v) + [1]


def ref_conv3d(p):
    def ref(x, f):
        xl, f64 = _last(x.astype(F64), p.fmt), f.astype(F64)
        sizes = xl.shape[1:4]
        out = np.zeros((xl.shape[0],) + _out_sizes(sizes, f.shape[:3], p.s, p.d, p.padding) + (f.shape[4],))
        for o, items in _windows(sizes, f.shape[:3], p.s, p.d, p.padding):
            for t, pos in items:
                out[_ix(o)] += xl[_ix(pos)] @ f64[t]
        return _first(out, p.fmt).astype(x.dtype)
    return ref


def ref_conv3d_backprop_input(p):
    def ref(x, f, dy):
        xl, dyl, f64 = _last(x, p.fmt), _last(dy.astype(F64), p.fmt), f.astype(F64)
        dx = np.zeros(xl.shape)
        for o, items in _windows(xl.shape[1:4], f.shape[:3], p.s, p.d, p.padding):
            for t, pos in items:
                dx[_ix(pos)] += dyl[_ix(o)] @ f64[t].T
        return _first(dx, p.fmt).astype(f.dtype)
    return ref


def ref_conv3d_backprop_filter(p):
    def ref(x, f, dy):
        xl, dyl = _last(x.astype(F64), p.fmt), _last(dy.astype(F64), p.fmt)
        df = np.zeros(f.shape)
        for o, items in _windows(xl.shape[1:4], f.shape[:3], p.s, p.d, p.padding):
            for t, pos in items:
                df[t] += xl[_ix(pos)].T @ dyl[_ix(o)]
        return df.astype(x.dtype)
    return ref


def _conv_out_last(p, x_last, f_shape):
    return (x_last[0],) + _out_sizes(x_last[1:4], f_shape[:3], p.s, p.d, p.padding) + (f_shape[4],)


def _conv_inputs(p, x_last, f_shape, with_dy=False):
    def inputs(dt, rng):
        arrays = [rand(rng, _shape(x_last, p.fmt), dt), rand(rng, f_shape, dt)]
        if with_dy:
            arrays.append(rand(rng, _shape(_conv_out_last(p, x_last, f_shape), p.fmt), dt))
        return arrays
    return inputs


def _conv_special(p, x_last, f_shape, with_dy, dy_special=True):
    """NaN/inf in the data input (finite filters) and an empty batch; NaN/inf in the output gradient
    too, except for the filter backprop (padding zeros times an infinite gradient are NaN, which TF
    leaves to the backend)."""
    def special(dt):
        x = np.linspace(-1, 1, int(np.prod(x_last))).reshape(x_last).astype(dt)
        x.reshape(-1)[[0, 5, -1]] = [np.nan, np.inf, -np.inf]
        f = np.linspace(-1, 0.5, int(np.prod(f_shape))).reshape(f_shape).astype(dt)
        empty = (0,) + tuple(x_last[1:])
        if not with_dy:
            return [[_first(x, p.fmt), f], [np.zeros(_shape(empty, p.fmt), dt), f]]
        out = _conv_out_last(p, x_last, f_shape)
        dy = np.linspace(-1, 1, int(np.prod(out))).reshape(out).astype(dt)
        if dy_special:
            dy.reshape(-1)[[1, 3]] = [np.nan, np.inf]
        return [[_first(x, p.fmt), f, _first(dy, p.fmt)],
                [np.zeros(_shape(empty, p.fmt), dt), f, np.zeros(_shape(_conv_out_last(p, empty, f_shape), p.fmt), dt)]]
    return special


CONV_CASES = [
    ("NDHWC-SAME-s212", P3("NDHWC", "SAME", s=(2, 1, 2)), (2, 4, 3, 5, 2), (2, 3, 2, 2, 3)),
    ("NCDHW-VALID-d121", P3("NCDHW", "VALID", d=(1, 2, 1)), (1, 3, 5, 4, 2), (2, 2, 3, 2, 2)),
]


def _conv_rows():
    rows = []
    for tag, p, x_last, f_shape in CONV_CASES:
        kw = dict(strides=p.attr(p.s), padding=p.padding, data_format=p.fmt, dilations=p.attr(p.d))
        rows += [
            Row("Conv3D", lambda x, f, kw=kw: tf.nn.conv3d(x, f, **kw), ref_conv3d(p), _conv_inputs(p, x_last, f_shape),
                special=_conv_special(p, x_last, f_shape, False), name="Conv3D-" + tag, **CONV_TOL),
            Row("Conv3DBackpropInputV2",
                lambda x, f, dy, kw=kw: _vjp(lambda t: tf.nn.conv3d(t, f, **kw), [x], [dy])[0],
                ref_conv3d_backprop_input(p), _conv_inputs(p, x_last, f_shape, True),
                special=_conv_special(p, x_last, f_shape, True), grad=[1, 2],
                name="Conv3DBackpropInputV2-" + tag, **CONV_TOL),
            Row("Conv3DBackpropFilterV2",
                lambda x, f, dy, kw=kw: tf.nn.conv3d_backprop_filter_v2(x, tf.shape(f), dy, **kw),
                ref_conv3d_backprop_filter(p), _conv_inputs(p, x_last, f_shape, True),
                special=_conv_special(p, x_last, f_shape, True, dy_special=False), grad=[0, 2],
                name="Conv3DBackpropFilterV2-" + tag, **CONV_TOL),
        ]
    # conv3d_transpose builds the input backprop from a static output shape.
    p, x_last, f_shape = P3("NDHWC", "SAME", s=(2, 2, 1)), (1, 3, 4, 2, 3), (2, 2, 3, 3, 2)
    kw = dict(strides=p.attr(p.s), padding="SAME")
    out_last = _conv_out_last(p, x_last, f_shape)

    def tr_ref(dy, f):
        return ref_conv3d_backprop_input(p)(np.zeros(x_last, dy.dtype), f, dy)

    rows.append(Row("Conv3DBackpropInputV2",
                    lambda dy, f: tf.nn.conv3d_transpose(dy, f, list(x_last), **kw), tr_ref,
                    lambda dt, rng: [rand(rng, out_last, dt), rand(rng, f_shape, dt)], special=False,
                    name="Conv3DBackpropInputV2-transpose", **CONV_TOL))
    return rows


# ---- 3-D pooling references --------------------------------------------------------------------------
def _lowest(dt):
    return np.finfo(dt).min if dt.kind == "f" else np.iinfo(dt).min


def _tf_max(vals, dt):
    best = dt.type(_lowest(dt))
    for v in vals:
        if v > best:
            best = v
    return best


def _pool_windows(p, sizes):
    return _windows(sizes, p.k, p.s, (1, 1, 1), p.padding)


def ref_max_pool3d(p):
    def ref(x):
        xl = _last(x, p.fmt)
        n, c = xl.shape[0], xl.shape[-1]
        out = np.zeros((n,) + _out_sizes(xl.shape[1:4], p.k, p.s, (1, 1, 1), p.padding) + (c,), x.dtype)
        for o, items in _pool_windows(p, xl.shape[1:4]):
            for b in range(n):
                for ch in range(c):
                    out[(b,) + o + (ch,)] = _tf_max([xl[(b,) + pos + (ch,)] for _, pos in items], x.dtype)
        return _first(out, p.fmt)
    return ref


def ref_max_pool3d_grad(p):
    def ref(x, dy):
        xl, dyl = _last(x, p.fmt), _last(dy.astype(F64), p.fmt)
        y = _last(ref_max_pool3d(p)(x), p.fmt)
        dx = np.zeros(xl.shape)
        for o, items in _pool_windows(p, xl.shape[1:4]):
            for _, pos in items:
                hit = xl[_ix(pos)] == y[_ix(o)]
                dx[_ix(pos)] += np.where(hit, dyl[_ix(o)], 0.0)
        return _first(dx, p.fmt).astype(dy.dtype)
    return ref


def ref_max_pool3d_grad_grad(p):
    def ref(x, dy, ddx):
        xl, ddl = _last(x, p.fmt), _last(ddx, p.fmt)
        y = _last(ref_max_pool3d(p)(x), p.fmt)
        out = np.zeros(y.shape, ddx.dtype)
        for o, items in _pool_windows(p, xl.shape[1:4]):
            done = np.zeros(y[_ix(o)].shape, bool)
            for _, pos in items:
                hit = (xl[_ix(pos)] == y[_ix(o)]) & ~done
                out[_ix(o)] = np.where(hit, ddl[_ix(pos)], out[_ix(o)])
                done |= hit
        return _first(out, p.fmt)
    return ref


def ref_avg_pool3d(p):
    def ref(x):
        xl = _last(x.astype(F64), p.fmt)
        n, c = xl.shape[0], xl.shape[-1]
        out = np.zeros((n,) + _out_sizes(xl.shape[1:4], p.k, p.s, (1, 1, 1), p.padding) + (c,))
        for o, items in _pool_windows(p, xl.shape[1:4]):
            out[_ix(o)] = sum(xl[_ix(pos)] for _, pos in items) / len(items)
        return _first(out, p.fmt).astype(x.dtype)
    return ref


def ref_avg_pool3d_grad(p):
    def ref(x, dy):
        xl, dyl = _last(x, p.fmt), _last(dy.astype(F64), p.fmt)
        dx = np.zeros(xl.shape)
        for o, items in _pool_windows(p, xl.shape[1:4]):
            for _, pos in items:
                dx[_ix(pos)] += dyl[_ix(o)] / len(items)
        return _first(dx, p.fmt).astype(dy.dtype)
    return ref


POOL_CASES = [
    ("NDHWC-SAME-k232-s221", P3("NDHWC", "SAME", s=(2, 2, 1), k=(2, 3, 2)), (2, 3, 5, 4, 2)),
    ("NCDHW-VALID-k2-s1", P3("NCDHW", "VALID", s=(1, 2, 1), k=(2, 2, 2)), (1, 3, 4, 3, 2)),
]


def _distinct(shape, dt, rng):
    n = int(np.prod(shape))
    return ((rng.permutation(n) - n // 2) * 0.1).reshape(shape).astype(dt)


def _pool_special(p, last, n_extra, max_pool):
    """Infinities, NaN next to numbers, -0 and +0 (windows of only NaN are left to the backend: TF's
    vectorised and scalar paths differ there), and an empty batch."""
    def special(dt):
        x = _distinct(last, dt, np.random.RandomState(1))
        x.reshape(-1)[[0, 5, 7, 9]] = [np.inf, -np.inf, np.nan, -0.0]
        out = (last[0],) + _out_sizes(last[1:4], p.k, p.s, (1, 1, 1), p.padding) + (last[-1],)
        extra = []
        for _ in range(n_extra):
            e = np.linspace(-1, 1, int(np.prod(out))).reshape(out).astype(dt)
            e.reshape(-1)[[1, 2, 4]] = [np.inf, np.nan, -0.0]
            extra.append(_first(e, p.fmt))
        empty = (0,) + tuple(last[1:])
        empty_out = (0,) + tuple(out[1:])
        cases = [[_first(x, p.fmt)] + extra,
                 [np.zeros(_shape(empty, p.fmt), dt)] + [np.zeros(_shape(empty_out, p.fmt), dt)] * n_extra]
        if max_pool:
            z = np.resize(np.array([-0.0, 0.0, 0.0, -0.0, -np.inf, 1.0, -np.inf, 2.0], dt), last)
            cases.append([_first(z, p.fmt)] + extra)
        return cases
    return special


def _pool_rows():
    rows = []
    for tag, p, last in POOL_CASES:
        kw = dict(ksize=p.attr(p.k), strides=p.attr(p.s), padding=p.padding, data_format=p.fmt)
        out = (last[0],) + _out_sizes(last[1:4], p.k, p.s, (1, 1, 1), p.padding) + (last[-1],)
        xs, ys = _shape(last, p.fmt), _shape(out, p.fmt)

        def one(dt, rng, xs=xs):
            return [_distinct(xs, dt, rng)]

        def with_dy(dt, rng, xs=xs, ys=ys):
            return [_distinct(xs, dt, rng), rand(rng, ys, dt)]

        def distinct3(dt, rng, xs=xs, ys=ys):
            return [_distinct(xs, dt, rng), rand(rng, ys, dt), rand(rng, xs, dt)]

        def ties(dt, rng, xs=xs, ys=ys):
            return [rng.randint(0, 3, xs).astype(dt), rand(rng, ys, dt), rand(rng, xs, dt)]

        rows += [
            Row("MaxPool3D", lambda x, kw=kw: tf.nn.max_pool3d(x, **kw), ref_max_pool3d(p), one,
                special=_pool_special(p, last, 0, True), name="MaxPool3D-" + tag),
            Row("AvgPool3D", lambda x, kw=kw: tf.nn.avg_pool3d(x, **kw), ref_avg_pool3d(p), one,
                special=_pool_special(p, last, 0, False), name="AvgPool3D-" + tag, rtol={np.float32: 4e-6}),
            Row("MaxPool3DGrad", lambda x, dy, kw=kw: _vjp(lambda t: tf.nn.max_pool3d(t, **kw), [x], [dy])[0],
                ref_max_pool3d_grad(p), with_dy, special=_pool_special(p, last, 1, True),
                name="MaxPool3DGrad-" + tag),
            Row("MaxPool3DGrad", lambda x, dy, kw=kw: _vjp(lambda t: tf.nn.max_pool3d(t, **kw), [x], [dy])[0],
                ref_max_pool3d_grad(p), lambda dt, rng, ties=ties: ties(dt, rng)[:2], special=False, grad=None,
                name="MaxPool3DGrad-ties-" + tag,
                note="with ties TF's MaxPool3DGradGrad (the first equal element) is not the adjoint of "
                     "MaxPool3DGrad (every equal element); both match TF in test_nn_conv3d_ops, and the "
                     "untied rows check the gradients"),
            Row("AvgPool3DGrad", lambda x, dy, kw=kw: _vjp(lambda t: tf.nn.avg_pool3d(t, **kw), [x], [dy])[0],
                ref_avg_pool3d_grad(p), with_dy, special=_pool_special(p, last, 1, False), grad=[1],
                name="AvgPool3DGrad-" + tag, rtol={np.float32: 4e-6}),
            Row("MaxPool3DGradGrad",
                lambda x, dy, ddx, kw=kw: _vjp(
                    lambda d: _vjp(lambda t: tf.nn.max_pool3d(t, **kw), [x], [d])[0], [dy], [ddx])[0],
                ref_max_pool3d_grad_grad(p), distinct3, special=False, grad=[2], name="MaxPool3DGradGrad-" + tag),
            Row("MaxPool3DGradGrad",
                lambda x, dy, ddx, kw=kw: _vjp(
                    lambda d: _vjp(lambda t: tf.nn.max_pool3d(t, **kw), [x], [d])[0], [dy], [ddx])[0],
                ref_max_pool3d_grad_grad(p), ties, special=False, grad=None, name="MaxPool3DGradGrad-ties-" + tag,
                note="with ties MaxPool3DGrad (its gradient, as TF's) is not its adjoint: see MaxPool3DGrad-ties"),
        ]
    return rows


# ---- Dilation2D references -------------------------------------------------------------------------------
def _dil_choice(x, f, s, r, padding):
    """{(b, out_idx, c): (value, input index or None, tap or None)} by TF's rule."""
    n, h, w, c = x.shape
    res = {}
    for o, items in _windows((h, w), f.shape[:2], s, r, padding):
        for b in range(n):
            for ch in range(c):
                best, where, tap = x.dtype.type(_lowest(x.dtype)), None, None
                for t, pos in items:
                    with np.errstate(over="ignore", invalid="ignore"):
                        v = x[(b,) + pos + (ch,)] + f[t + (ch,)]
                    if v > best:
                        best, where, tap = v, pos, t
                res[(b,) + o + (ch,)] = (best, where, tap)
    return res


def _clamped_start(o, s, padding, h, w, f, r):
    geo = [_geom(n, k, si, ri, padding) for n, k, si, ri in zip((h, w), f.shape[:2], s, r)]
    return tuple(max(oi * si - g[1], 0) for oi, si, g in zip(o, s, geo))


def ref_dilation(s, r, padding):
    def ref(x, f):
        n, h, w, c = x.shape
        out = np.zeros((n,) + _out_sizes((h, w), f.shape[:2], s, r, padding) + (c,), x.dtype)
        for key, (v, _, _) in _dil_choice(x, f, s, r, padding).items():
            out[key] = v
        return out
    return ref


def ref_dilation_backprop_input(s, r, padding):
    def ref(x, f, dy):
        dx = np.zeros(x.shape, dy.dtype)
        h, w = x.shape[1:3]
        for key, (_, where, _) in _dil_choice(x, f, s, r, padding).items():
            b, o, ch = key[0], key[1:3], key[3]
            pos = where if where is not None else _clamped_start(o, s, padding, h, w, f, r)
            dx[(b,) + pos + (ch,)] += dy[key]
        return dx
    return ref


def ref_dilation_backprop_filter(s, r, padding):
    def ref(x, f, dy):
        df = np.zeros(f.shape, dy.dtype)
        for key, (_, _, tap) in _dil_choice(x, f, s, r, padding).items():
            df[(tap or (0, 0)) + (key[3],)] += dy[key]
        return df
    return ref


DIL_CASES = [
    ("SAME-s2-r2", (2, 2), (2, 2), "SAME", (2, 5, 6, 2), (2, 3, 2)),
    ("VALID-s1-r1", (1, 1), (1, 1), "VALID", (1, 4, 5, 3), (3, 2, 3)),
]


def _dil_special(s, r, padding, x_shape, f_shape, with_dy):
    def special(dt):
        if dt.kind != "f":
            return []
        x = np.linspace(-1, 1, int(np.prod(x_shape))).reshape(x_shape).astype(dt)
        x.reshape(-1)[[0, 1, 4, 7]] = [np.nan, np.nan, np.inf, -np.inf]
        f = np.zeros(f_shape, dt)
        if not with_dy:
            return [[x, f]]
        out = (x_shape[0],) + _out_sizes(x_shape[1:3], f_shape[:2], s, r, padding) + (x_shape[3],)
        dy = np.linspace(-1, 1, int(np.prod(out))).reshape(out).astype(dt)
        return [[x, f, dy]]
    return special


def _dil_rows():
    rows = []
    for tag, s, r, padding, x_shape, f_shape in DIL_CASES:
        kw = dict(strides=[1, s[0], s[1], 1], rates=[1, r[0], r[1], 1], padding=padding)
        out = (x_shape[0],) + _out_sizes(x_shape[1:3], f_shape[:2], s, r, padding) + (x_shape[3],)

        def two(dt, rng, x_shape=x_shape, f_shape=f_shape):
            return [_distinct(x_shape, dt, rng), rand(rng, f_shape, dt, -0.04, 0.04)]

        def three(dt, rng, x_shape=x_shape, f_shape=f_shape, out=out):
            return [_distinct(x_shape, dt, rng), rand(rng, f_shape, dt, -0.04, 0.04), rand(rng, out, dt)]

        rows += [
            Row("Dilation2D", lambda x, f, kw=kw: tf.nn.dilation2d(x, f, **kw), ref_dilation(s, r, padding), two,
                dtypes=FLOATS + (np.int32,), special=_dil_special(s, r, padding, x_shape, f_shape, False),
                name="Dilation2D-" + tag),
            Row("Dilation2DBackpropInput",
                lambda x, f, dy, kw=kw: _vjp(lambda t: tf.nn.dilation2d(t, f, **kw), [x], [dy])[0],
                ref_dilation_backprop_input(s, r, padding), three,
                special=_dil_special(s, r, padding, x_shape, f_shape, True), grad=None,
                name="Dilation2DBackpropInput-" + tag,
                note="TF registers no gradient for Dilation2DBackpropInput (LookupError, as here)"),
            Row("Dilation2DBackpropFilter",
                lambda x, f, dy, kw=kw: _vjp(lambda g: tf.nn.dilation2d(x, g, **kw), [f], [dy])[0],
                ref_dilation_backprop_filter(s, r, padding), three,
                special=_dil_special(s, r, padding, x_shape, f_shape, True), grad=None,
                name="Dilation2DBackpropFilter-" + tag,
                note="TF registers no gradient for Dilation2DBackpropFilter (LookupError, as here)"),
        ]
    return rows


# ---- MaxPoolWithArgmax -------------------------------------------------------------------------------------
def _argmax_choice(x, k, s, padding):
    n, h, w, c = x.shape
    res = {}
    for o, items in _windows((h, w), k, s, (1, 1), padding):
        for b in range(n):
            for ch in range(c):
                best, where = None, None
                for _, pos in items:
                    v = x[(b,) + pos + (ch,)]
                    if where is None or v > best:
                        best, where = v, pos
                res[(b,) + o + (ch,)] = (best, where)
    return res


def ref_argmax(k, s, padding, include_batch, targmax=np.int64):
    def ref(x):
        n, h, w, c = x.shape
        shape = (n,) + _out_sizes((h, w), k, s, (1, 1), padding) + (c,)
        out, arg = np.zeros(shape, x.dtype), np.zeros(shape, targmax)
        for key, (v, (r, q)) in _argmax_choice(x, k, s, padding).items():
            out[key] = v
            arg[key] = (r * w + q) * c + key[3] + (key[0] * h * w * c if include_batch else 0)
        return [out, arg]
    return ref


def ref_argmax_grad(k, s, padding):
    def ref(x, dy):
        dx = np.zeros(x.shape, dy.dtype)
        for key, (_, (r, q)) in _argmax_choice(x, k, s, padding).items():
            dx[(key[0], r, q, key[3])] += dy[key]
        return dx
    return ref


def _argmax_rows():
    rows = []
    for tag, k, s, padding, include_batch, shape in [("SAME-k23-s22", (2, 3), (2, 2), "SAME", False, (2, 5, 4, 2)),
                                                     ("VALID-k2-s1-batch", (2, 2), (1, 1), "VALID", True,
                                                      (2, 3, 4, 2))]:
        kw = dict(ksize=[1, k[0], k[1], 1], strides=[1, s[0], s[1], 1], padding=padding,
                  include_batch_in_index=include_batch)
        out = (shape[0],) + _out_sizes(shape[1:3], k, s, (1, 1), padding) + (shape[3],)

        def special(dt, shape=shape):
            if dt.kind != "f":
                return [[np.resize(np.array([np.iinfo(dt).min, 1, np.iinfo(dt).max, 0, 1], dt), shape)]]
            x = np.resize(np.array([np.nan, 1.0, -np.inf, np.inf, -0.0, 0.0, 2.0, np.nan, -1.0], dt), shape)
            return [[x]]

        rows += [
            Row("MaxPoolWithArgmax", lambda x, kw=kw: list(tf.nn.max_pool_with_argmax(x, **kw)),
                ref_argmax(k, s, padding, include_batch), lambda dt, rng, shape=shape: [_distinct(shape, dt, rng)],
                dtypes=FLOATS + (np.int32,), special=special, name="MaxPoolWithArgmax-" + tag),
            Row("MaxPoolGradWithArgmax",
                lambda x, dy, kw=kw: _vjp(lambda t: tf.nn.max_pool_with_argmax(t, **kw)[0], [x], [dy])[0],
                ref_argmax_grad(k, s, padding),
                lambda dt, rng, shape=shape, out=out: [rng.randint(0, 3, shape).astype(dt), rand(rng, out, dt)],
                special=False, grad=None, name="MaxPoolGradWithArgmax-" + tag,
                note="TF registers no gradient for MaxPoolGradWithArgmax (LookupError, as here); "
                     "test_nn_conv3d_ops checks it"),
        ]
    return rows


# ---- fractional pooling -------------------------------------------------------------------------------------
# Ratios that divide the input exactly: every step is `in // out`, so the regions are fixed whatever the
# random stream (tests/ops/test_nn_conv3d_ops.py checks TF's random and pseudo-random regions).
def _frac_windows(n, k, overlapping):
    out = []
    for i in range(n // k):
        end = min((i + 1) * k if overlapping else (i + 1) * k - 1, n - 1)
        out.append(list(range(i * k, end + 1)))
    return out


def ref_frac(kind, kh, kw, overlapping):
    def ref(x):
        n, h, w, c = x.shape
        rows, cols = _frac_windows(h, kh, overlapping), _frac_windows(w, kw, overlapping)
        out = np.zeros((n, len(rows), len(cols), c), x.dtype)
        for i, rr in enumerate(rows):
            for j, cc in enumerate(cols):
                for b in range(n):
                    for ch in range(c):
                        vals = [x[b, r, q, ch] for r in rr for q in cc]
                        if kind == "max":
                            best = vals[0]
                            for v in vals[1:]:
                                if v > best:
                                    best = v
                            out[b, i, j, ch] = best
                        elif x.dtype.kind == "f":
                            out[b, i, j, ch] = np.sum(np.asarray(vals, F64)) / len(vals)
                        else:
                            total = int(np.sum(np.asarray(vals, np.int64)))
                            out[b, i, j, ch] = abs(total) // len(vals) * (1 if total >= 0 else -1)
        seq = [np.arange(0, len(rows) + 1, dtype=np.int64) * kh, np.arange(0, len(cols) + 1, dtype=np.int64) * kw]
        return [out] + seq
    return ref


def ref_frac_grad(kind, kh, kw, overlapping):
    def ref(x, dy):
        n, h, w, c = x.shape
        rows, cols = _frac_windows(h, kh, overlapping), _frac_windows(w, kw, overlapping)
        dx = np.zeros(x.shape, F64)
        for i, rr in enumerate(rows):
            for j, cc in enumerate(cols):
                for b in range(n):
                    for ch in range(c):
                        cells = [(r, q) for r in rr for q in cc]
                        if kind == "max":
                            best = cells[0]
                            for cell in cells[1:]:
                                if x[(b,) + cell + (ch,)] > x[(b,) + best + (ch,)]:
                                    best = cell
                            dx[(b,) + best + (ch,)] += dy[b, i, j, ch]
                        else:
                            for cell in cells:
                                dx[(b,) + cell + (ch,)] += F64.type(dy[b, i, j, ch]) / len(cells)
        return dx.astype(dy.dtype)
    return ref


_FRAC_TYPES = (np.float32, np.float64, np.int32, np.int64)


def _frac_rows():
    rows = []
    for tag, ratio, shape, overlapping in [("k2x3", (2, 3), (2, 6, 9, 2), False),
                                           ("k2x2-overlap", (2, 2), (1, 6, 8, 3), True)]:
        kh, kw = ratio
        kw_ = dict(pooling_ratio=[1.0, float(kh), float(kw), 1.0], overlapping=overlapping, deterministic=True,
                   seed=1, seed2=2)
        out = (shape[0], shape[1] // kh, shape[2] // kw, shape[3])

        def special(dt, shape=shape):
            if dt.kind != "f":
                return []
            x = np.resize(np.array([np.inf, -np.inf, -0.0, 0.0, 2.0, -1.0, 0.5], dt), shape)
            return [[x], [np.zeros((0,) + shape[1:], dt)]]

        rows += [
            Row("FractionalMaxPool", lambda x, kw_=kw_: list(tf.nn.fractional_max_pool(x, **kw_)),
                ref_frac("max", kh, kw, overlapping), lambda dt, rng, shape=shape: [_distinct(shape, dt, rng)],
                dtypes=_FRAC_TYPES, special=special, name="FractionalMaxPool-" + tag,
                grad_fn=lambda x, kw_=kw_: tf.nn.fractional_max_pool(x, **kw_)[0]),
            Row("FractionalAvgPool", lambda x, kw_=kw_: list(tf.nn.fractional_avg_pool(x, **kw_)),
                ref_frac("avg", kh, kw, overlapping), lambda dt, rng, shape=shape: [rand(rng, shape, dt, -9, 9)],
                dtypes=_FRAC_TYPES, special=special, name="FractionalAvgPool-" + tag, rtol={np.float32: 4e-6},
                grad_fn=lambda x, kw_=kw_: tf.nn.fractional_avg_pool(x, **kw_)[0]),
            Row("FractionalMaxPoolGrad",
                lambda x, dy, kw_=kw_: _vjp(lambda t: tf.nn.fractional_max_pool(t, **kw_)[0], [x], [dy])[0],
                ref_frac_grad("max", kh, kw, overlapping),
                lambda dt, rng, shape=shape, out=out: [rng.randint(0, 3, shape).astype(dt), rand(rng, out, dt)],
                dtypes=(np.float32, np.float64), special=False, grad=None, name="FractionalMaxPoolGrad-" + tag,
                note="TF registers no gradient for FractionalMaxPoolGrad (LookupError, as here)"),
            Row("FractionalAvgPoolGrad",
                lambda x, dy, kw_=kw_: _vjp(lambda t: tf.nn.fractional_avg_pool(t, **kw_)[0], [x], [dy])[0],
                ref_frac_grad("avg", kh, kw, overlapping),
                lambda dt, rng, shape=shape, out=out: [rand(rng, shape, dt), rand(rng, out, dt)],
                dtypes=(np.float32, np.float64), special=False, grad=None, name="FractionalAvgPoolGrad-" + tag,
                note="TF registers no gradient for FractionalAvgPoolGrad (LookupError, as here)"),
        ]
    return rows


# ---- Conv (generic), Conv2DBackpropInputV2, Conv2DBackpropFilterV2 -----------------------------------------
def ref_conv_generic(s, d, padding, groups=1, batch_dims=1, first=False):
    def ref(x, f):
        lead = x.shape[:batch_dims]
        x1 = x.astype(F64).reshape((-1,) + x.shape[batch_dims:])
        if first:
            x1 = np.moveaxis(x1, 1, -1)
        sizes, fc, o = x1.shape[1:-1], f.shape[-2], f.shape[-1]
        k = f.shape[:-2]
        og = o // groups
        out = np.zeros((x1.shape[0],) + _out_sizes(sizes, k, s, d, padding) + (o,))
        for oi, items in _windows(sizes, k, s, d, padding):
            for t, pos in items:
                for gi in range(groups):
                    xs = x1[_ix(pos)][:, gi * fc:(gi + 1) * fc]
                    out[_ix(oi)][:, gi * og:(gi + 1) * og] += xs @ f[t][:, gi * og:(gi + 1) * og].astype(F64)
        if first:
            out = np.moveaxis(out, -1, 1)
        return out.reshape(tuple(lead) + out.shape[1:]).astype(x.dtype)
    return ref


def _generic_rows():
    from tests.ops.op_table.rows_nn import ConvParams, ref_conv2d_backprop_filter, ref_conv2d_backprop_input
    rows = []
    for tag, xs, fs, kw, ref in [
            ("2d-SAME-s21-groups2", (2, 5, 4, 4), (2, 3, 2, 6), dict(strides=[1, 2, 1, 1], padding="SAME", groups=2),
             ref_conv_generic((2, 1), (1, 1), "SAME", groups=2)),
            ("3d-VALID-d2-batch2", (2, 1, 5, 4, 3, 2), (2, 2, 1, 2, 3),
             dict(strides=[1, 1, 1, 1, 1], padding="VALID", dilations=[1, 2, 1, 1, 1], batch_dims=2),
             ref_conv_generic((1, 1, 1), (2, 1, 1), "VALID", batch_dims=2)),
            ("2d-channels-first", (1, 3, 5, 6), (3, 2, 3, 2),
             dict(strides=[1, 1, 1, 2], padding="VALID", data_format="CHANNELS_FIRST"),
             ref_conv_generic((1, 2), (1, 1), "VALID", first=True))]:
        def inputs(dt, rng, xs=xs, fs=fs):
            return [rand(rng, xs, dt), rand(rng, fs, dt)]

        def special(dt, xs=xs, fs=fs):
            if dt.kind != "f":
                return []
            x = np.linspace(-1, 1, int(np.prod(xs))).reshape(xs).astype(dt)
            x.reshape(-1)[[0, 3]] = [np.nan, np.inf]
            return [[x, np.linspace(-1, 1, int(np.prod(fs))).reshape(fs).astype(dt)]]

        rows.append(Row("Conv", lambda x, f, kw=kw: tf.conv(x, f, **kw), ref, inputs,
                        dtypes=FLOATS + (np.int32,), special=special, grad=None, name="Conv-" + tag,
                        note="TF registers no gradient for Conv (LookupError, as here)", **CONV_TOL))
    p = ConvParams("NHWC", "SAME", s=(2, 1))
    kw = dict(strides=p.attr(p.s), padding="SAME")
    xs, fs, ys = (2, 5, 4, 3), (3, 2, 3, 2), (2, 3, 4, 2)

    def three(dt, rng):
        return [rand(rng, xs, dt), rand(rng, fs, dt), rand(rng, ys, dt)]

    rows += [
        Row("Conv2DBackpropInputV2", lambda x, f, dy: tf.conv2d_backprop_input_v2(x, f, dy, **kw),
            ref_conv2d_backprop_input(p), three, special=False, grad=None, name="Conv2DBackpropInputV2-SAME-s21",
            note="TF registers no gradient for Conv2DBackpropInputV2 (LookupError, as here)", **CONV_TOL),
        Row("Conv2DBackpropFilterV2", lambda x, f, dy: tf.conv2d_backprop_filter_v2(x, f, dy, **kw),
            ref_conv2d_backprop_filter(p), three, special=False, grad=None, name="Conv2DBackpropFilterV2-SAME-s21",
            note="TF registers no gradient for Conv2DBackpropFilterV2 (LookupError, as here)", **CONV_TOL),
    ]
    return rows


# ---- quantized pooling -------------------------------------------------------------------------------------
def ref_quantized(kind, k, st, padding):
    def ref(x, lo, hi):
        codes = x.view(x.dtype[0])
        n, h, w, c = codes.shape
        out = np.zeros((n,) + _out_sizes((h, w), k, st, (1, 1), padding) + (c,), codes.dtype)
        for o, items in _windows((h, w), k, st, (1, 1), padding):
            vals = np.stack([codes[_ix(pos)].astype(np.int64) for _, pos in items])
            if kind == "max":
                out[_ix(o)] = vals.max(0)
            else:  # the mean, rounded half to even (exact in Python's rational arithmetic)
                total, m = vals.sum(0), len(items)
                q, r = np.divmod(total, m)
                up = (2 * r > m) | ((2 * r == m) & (q % 2 == 1))
                out[_ix(o)] = q + up
        return [out.view(x.dtype), np.float32(lo), np.float32(hi)]
    return ref


def _quantized_rows():
    rows = []
    for qname, base in (("quint8", np.uint8), ("qint8", np.int8)):
        qt = np.dtype([(qname, base)])
        for kind, k, st, padding in (("max", (2, 3), (1, 2), "SAME"), ("avg", (3, 2), (2, 1), "SAME"),
                                     ("avg", (2, 2), (2, 2), "VALID")):
            fn = tf.nn.quantized_max_pool if kind == "max" else tf.nn.quantized_avg_pool
            kw = dict(ksize=[1, k[0], k[1], 1], strides=[1, st[0], st[1], 1], padding=padding)

            def inputs(dt, rng, qt=qt, base=base):
                info = np.iinfo(base)
                x = rng.randint(info.min, info.max + 1, (2, 5, 4, 3)).astype(base).view(qt)
                return [x, np.float32(-1.0), np.float32(2.5)]

            rows.append(Row("Quantized%sPool" % kind.capitalize(),
                            lambda x, lo, hi, fn=fn, kw=kw: list(fn(x, lo, hi, **kw)),
                            ref_quantized(kind, k, st, padding), inputs, dtypes=(qt,), special=False, grad=None,
                            name="Quantized%sPool-%s-%s-%dx%d" % (kind.capitalize(), qname, padding, k[0], k[1]),
                            note="TF registers no gradient for quantized pooling (LookupError, as here)"))
    return rows


def _zero_code(lo, hi, bits, lowest):
    """The code of 0.0 in [lo, hi] (TF's FloatToQuantizedUnclamped: 2**bits steps over the range
    stretched by 2**bits / (2**bits - 1), C rounding half away from zero)."""
    steps = 2 ** bits
    scale = steps / (float(np.float32(np.float32(hi) - np.float32(lo))) * (steps / (steps - 1.0)))
    v = float(np.float32(lo)) * scale
    return -int(np.sign(v) * np.floor(abs(v) + 0.5)) + lowest


def ref_quantized_conv2d(st, padding, ranges):
    def ref(x, f):
        xc, fc = x.view(x.dtype[0]).astype(np.int64), f.view(f.dtype[0]).astype(np.int64)
        signed = f.dtype[0] == np.int8
        if signed:
            ox = of = 0
        else:
            ox, of = _zero_code(ranges[0], ranges[1], 8, 0), _zero_code(ranges[2], ranges[3], 8, 0)
        n, h, w, c = xc.shape
        out = np.zeros((n,) + _out_sizes((h, w), f.shape[:2], st, (1, 1), padding) + (f.shape[3],), np.int64)
        for o, items in _windows((h, w), f.shape[:2], st, (1, 1), padding):
            for t, pos in items:
                out[_ix(o)] += (xc[_ix(pos)] - ox) @ (fc[t] - of)
        level = (np.float32(np.float32(ranges[1]) - np.float32(ranges[0])) / np.float32(255)
                 * (np.float32(np.float32(ranges[3]) - np.float32(ranges[2])) / np.float32(254 if signed else 255)))
        q32 = np.dtype([("qint32", np.int32)])
        return [out.astype(np.int32).view(q32), np.float32(level * np.float32(-2 ** 31)),
                np.float32(level * np.float32(2 ** 31 - 1))]
    return ref


def _quantized_conv_rows():
    rows = []
    q8, qi8 = np.dtype([("quint8", np.uint8)]), np.dtype([("qint8", np.int8)])
    for tag, fq, st, padding, ranges in [("quint8-SAME-s1", q8, (1, 1), "SAME", (-1.0, 2.0, -0.5, 0.5)),
                                         ("qint8-VALID-s2", qi8, (2, 2), "VALID", (0.0, 6.0, -3.0, 1.0))]:
        def inputs(dt, rng, fq=fq):
            base = fq[0]
            info = np.iinfo(base)
            return [rng.randint(0, 256, (2, 5, 6, 3)).astype(np.uint8).view(q8),
                    rng.randint(info.min, info.max + 1, (2, 3, 3, 4)).astype(base).view(fq)]

        rows.append(Row("QuantizedConv2D",
                        lambda x, f, st=st, padding=padding, ranges=ranges: list(tf.nn.quantized_conv2d(
                            x, f, *ranges, strides=[1, st[0], st[1], 1], padding=padding)),
                        ref_quantized_conv2d(st, padding, ranges), inputs, dtypes=(q8,), special=False, grad=None,
                        name="QuantizedConv2D-" + tag,
                        note="TF registers no gradient for QuantizedConv2D (LookupError, as here)"))
    return rows


ROWS = (_conv_rows() + _pool_rows() + _dil_rows() + _argmax_rows() + _frac_rows() + _generic_rows()
        + _quantized_rows() + _quantized_conv_rows())
