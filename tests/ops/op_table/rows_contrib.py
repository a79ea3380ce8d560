"""Op-table rows of the contrib ops (tensorweave/ops/clustering_ops.py, image_transform_contrib_ops.py):
NearestNeighbors against a float64 brute-force search, KmeansPlusPlusInitialization on data whose
k-means++ picks are certain (3 distinct points, each repeated: after the first pick, a copy of a chosen
point has probability 0), ImageProjectiveTransformV2 against a per-pixel loop of TF's formulas in
float32 scalars."""

import math

import numpy as np

import tensorweave as tf
from tensorweave.ops.clustering_ops import kmeans_plus_plus_initialization, nearest_neighbors
from tensorweave.ops.image_transform_contrib_ops import image_projective_transform_v2
from tests.ops.op_table.harness import Row, rand

_K = 2


def _nn_ref(points, centers):
    p = points.astype(np.float64)
    c = centers.astype(np.float64)
    kk = min(_K, c.shape[0])
    idx = np.zeros((p.shape[0], kk), np.int64)
    dist = np.zeros((p.shape[0], kk), np.float32)
    for i in range(p.shape[0]):
        d = [float(np.sum((p[i] - c[j]) ** 2)) for j in range(c.shape[0])]
        order = sorted(range(len(d)), key=lambda j: (d[j], j))[:kk]
        idx[i] = order
        dist[i] = [d[j] for j in order]
    return [idx, dist]


def _nn_inputs(dt, rng):
    return [rand(rng, (6, 3), dt, -3, 3), rand(rng, (4, 3), dt, -3, 3)]


def _nn_special(dt):
    return [(np.zeros((0, 3), dt), np.ones((4, 3), dt)),  # no points
            (np.arange(6, dtype=dt).reshape(2, 3), np.arange(3, dtype=dt).reshape(1, 3))]  # k > num_centers


def _kpp_fn(points):
    s = kmeans_plus_plus_initialization(points, 3, 5, 2)
    return tf.gather(s, tf.argsort(s[:, 0]))


def _kpp_ref(points):
    u = np.unique(points, axis=0)
    return u[np.argsort(u[:, 0], kind="stable")].astype(np.float32)


def _kpp_inputs(dt, rng):
    base = rand(rng, (3, 4), dt, -5, 5)
    base[:, 0] = [-4.0, 0.5, 3.0]
    rows = np.repeat(base, 4, axis=0)
    return [rows[rng.permutation(12)]]


def _kpp_special(dt):
    return [(np.array([[2.0, 1.0], [-1.0, 0.0], [0.0, 5.0]], dt),)]  # num_to_sample == num_points


_TRANSFORMS = np.array([[0.9, 0.2, -0.3, -0.1, 1.1, 0.4, 0.01, -0.02],
                        [1.0, 0.0, 0.5, 0.0, 1.0, -0.7, 0.0, 0.0]], np.float32)
_OUT = (4, 6)
_IMG_DTYPES = (np.uint8, np.int32, np.int64, np.float16, np.float32, np.float64)


def _round_away(v):
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def _ipt_ref(interp):
    def ref(images):
        f = np.float32
        n, h, w, c = images.shape
        out = np.zeros((n, _OUT[0], _OUT[1], c), images.dtype)

        def read(b, y, x, ch):
            if 0 <= y < h and 0 <= x < w:
                return images[b, int(y), int(x), ch]
            return images.dtype.type(0)

        for b in range(n):
            t = [f(v) for v in _TRANSFORMS[b]]
            for oy in range(_OUT[0]):
                for ox in range(_OUT[1]):
                    x, y = f(ox), f(oy)
                    k = f(f(f(t[6] * x) + f(t[7] * y)) + f(1))
                    if k == 0:
                        continue
                    ix = f(f(f(f(t[0] * x) + f(t[1] * y)) + t[2]) / k)
                    iy = f(f(f(f(t[3] * x) + f(t[4] * y)) + t[5]) / k)
                    for ch in range(c):
                        if interp == "NEAREST":
                            out[b, oy, ox, ch] = read(b, _round_away(float(iy)), _round_away(float(ix)), ch)
                            continue
                        y0, x0 = f(math.floor(iy)), f(math.floor(ix))
                        y1, x1 = f(y0 + f(1)), f(x0 + f(1))
                        r = [[f(read(b, yy, xx, ch)) for xx in (x0, x1)] for yy in (y0, y1)]
                        top = f(f(f(x1 - ix) * r[0][0]) + f(f(ix - x0) * r[0][1]))
                        bot = f(f(f(x1 - ix) * r[1][0]) + f(f(ix - x0) * r[1][1]))
                        v = f(f(f(y1 - iy) * top) + f(f(iy - y0) * bot))
                        out[b, oy, ox, ch] = math.trunc(float(v)) if images.dtype.kind in "iu" else v
        return out
    return ref


def _ipt_fn(interp):
    return lambda images: image_projective_transform_v2(images, _TRANSFORMS, list(_OUT), interpolation=interp)


def _ipt_inputs(dt, rng):
    return [rand(rng, (2, 4, 5, 2), dt, 0 if np.dtype(dt).kind == "u" else -50, 100)]


def _ipt_special(dt):
    cases = [(np.zeros((2, 4, 5, 0), dt),), (np.zeros((2, 0, 5, 1), dt),)]  # no channels; no rows (all fill)
    if np.dtype(dt).kind == "f":
        img = np.ones((2, 4, 5, 1), dt)
        img[0, 1, 2, 0], img[1, 2, 3, 0], img[0, 3, 0, 0] = np.nan, np.inf, -0.0
        cases.append((img,))
    return cases


_IPT_NOTE = ("TF's gradient is the output gradient warped by the inverse transforms, not the adjoint: checked "
             "against TF 2.21 in tests/contrib/test_contrib_image.py::test_gradient_wrt_images_vs_tf")

ROWS = [
    Row("ImageProjectiveTransformV2", _ipt_fn("NEAREST"), _ipt_ref("NEAREST"), _ipt_inputs, dtypes=_IMG_DTYPES,
        special=_ipt_special, grad=None, rtol=0, atol=0, note=_IPT_NOTE),
    Row("ImageProjectiveTransformV2", _ipt_fn("BILINEAR"), _ipt_ref("BILINEAR"), _ipt_inputs, dtypes=_IMG_DTYPES,
        special=_ipt_special, grad=None, rtol=0, atol=0, note=_IPT_NOTE, name="ImageProjectiveTransformV2-bilinear"),
    Row("NearestNeighbors", lambda p, c: list(nearest_neighbors(p, c, _K)), _nn_ref, _nn_inputs,
        dtypes=(np.float32,), special=_nn_special, grad=False, rtol=1e-5, atol=1e-5),
    Row("KmeansPlusPlusInitialization", _kpp_fn, _kpp_ref, _kpp_inputs, dtypes=(np.float32,), special=_kpp_special,
        grad=False, rtol=0, atol=0),
]
