"""Op-table rows of the image ops (tensorweave/ops/image_*_ops.py; see harness.py for the row API).

The resize references build each method's interpolation matrices along one axis in float64 from the
method's definition (the sampling position in float32, as TF defines it, then the bilinear tent, the
cubic kernel sampled at 1/1024 steps, the area overlap or the nearest index) and apply them with one
einsum; the gradient references apply the transposed matrices. Exact TF pixel values recorded from
TensorFlow are checked in tests/ops/test_image_ops.py.
"""

import colorsys

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import Row, rand

F16, F32, F64 = np.float16, np.float32, np.float64
_RESIZE_DTYPES = (F16, F32, F64, np.uint8, np.int32)
_TOL = {"rtol": 2e-5, "atol": 2e-5}


def _scale(n_in, n_out, ac):
    if ac and n_out > 1 and n_in > 1:
        return F32(n_in - 1) / F32(n_out - 1)
    return F32(n_in) / F32(n_out)


def _src(n_out, scale, hp):
    i = np.arange(n_out, dtype=F32)
    return ((i + F32(0.5)) * scale - F32(0.5)) if hp else i * scale


def _bilinear_matrix(n_in, n_out, ac, hp):
    w = np.zeros((n_out, n_in))
    for o, s in enumerate(_src(n_out, _scale(n_in, n_out, ac), hp).astype(F64)):
        lo = int(np.floor(s))
        frac = s - lo
        w[o, min(max(lo, 0), n_in - 1)] += 1 - frac
        w[o, min(max(lo + 1, 0), n_in - 1) if frac else min(max(lo, 0), n_in - 1)] += frac
    return w


def _cubic(x, a):
    x = abs(x)
    if x <= 1:
        return (a + 2) * x ** 3 - (a + 3) * x ** 2 + 1
    if x < 2:
        return a * x ** 3 - 5 * a * x ** 2 + 8 * a * x - 4 * a
    return 0.0


def _bicubic_matrix(n_in, n_out, ac, hp):
    a = -0.5 if hp else -0.75
    w = np.zeros((n_out, n_in))
    for o, s in enumerate(_src(n_out, _scale(n_in, n_out, ac), hp).astype(F64)):
        base = int(np.floor(s))
        t = round((s - base) * 1024) / 1024.0
        taps = [(base + k, _cubic(t - k, a)) for k in (-1, 0, 1, 2)]
        if hp:
            taps = [(i, c) for i, c in taps if 0 <= i < n_in]
            total = sum(c for _, c in taps)
            taps = [(i, c / total) for i, c in taps]
        for i, c in taps:
            w[o, min(max(i, 0), n_in - 1)] += c
    return w


def _area_matrix(n_in, n_out, ac):
    scale = _scale(n_in, n_out, ac)
    w = np.zeros((n_out, n_in))
    for o in range(n_out):
        lo, hi = float(F32(o) * scale), float(F32(o + 1) * scale)
        for i in range(int(np.floor(lo)), int(np.ceil(hi))):
            w[o, min(max(i, 0), n_in - 1)] += min(hi, i + 1) - max(lo, i)
    return w / float(scale)


def _nn_index(n_in, n_out, ac, hp):
    s = _scale(n_in, n_out, ac)
    pos = ((np.arange(n_out, dtype=F32) + F32(0.5)) * s) if hp else np.arange(n_out, dtype=F32) * s
    pos = pos.astype(F64)
    idx = np.floor(pos + 0.5) if ac else np.floor(pos)
    return np.clip(idx.astype(np.int64), 0, n_in - 1)


def _vjp(build, x, dy):
    """The gradient of `build(x)` w.r.t. `x` for the output gradient `dy`: `tf.gradients` in a graph,
    a `tf.GradientTape` eagerly."""
    if tf.executing_eagerly():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = build(x)
        return tape.gradient(y, x, output_gradients=dy)
    return tf.gradients(build(x), x, grad_ys=dy)[0]


def _apply(x, wy, wx):
    return np.einsum("yi,bijc,xj->byxc", wy, x.astype(F64), wx)


# ---- forward rows ------------------------------------------------------------------------------------
def _images(dtype, rng, shape=(2, 3, 4, 2)):
    if np.dtype(dtype).kind in "iu":
        return (rand(rng, shape, dtype, 0, 120),)
    return (rand(rng, shape, dtype, -3, 3),)


def _empty_batch(dtype):
    return [(np.zeros((0, 3, 4, 2), dtype),)]


def _nonfinite(dtype):
    if np.dtype(dtype).kind != "f":
        return [(np.zeros((0, 3, 4, 2), dtype),)]
    x = np.arange(24, dtype=F64).reshape(1, 3, 4, 2).astype(dtype)
    x[0, 1, 2, 0] = np.nan
    x[0, 0, 3, 1] = np.inf
    x[0, 2, 0, 1] = -np.inf
    return [(x,), (np.zeros((0, 3, 4, 2), dtype),)]


_MODES = [((5, 7), False, False, ""), ((2, 3), True, False, "-align"), ((6, 5), False, True, "-halfpixel")]


def _matrix_row(op_type, fn, matrix):
    rows = []
    for (oh, ow), ac, hp, tag in _MODES:
        def build(x, oh=oh, ow=ow, ac=ac, hp=hp):
            return fn(x, [oh, ow], align_corners=ac, half_pixel_centers=hp)

        def ref(x, oh=oh, ow=ow, ac=ac, hp=hp):
            return _apply(x, matrix(x.shape[1], oh, ac, hp), matrix(x.shape[2], ow, ac, hp)).astype(F32)
        rows.append(Row(op_type, build, ref, _images, dtypes=_RESIZE_DTYPES, special=_empty_batch, grad=[0],
                        grad_delta=1e-2, grad_tol=1e-3, name=op_type + tag, **_TOL))
    return rows


def _nn_rows():
    rows = []
    for (oh, ow), ac, hp, tag in _MODES:
        def build(x, oh=oh, ow=ow, ac=ac, hp=hp):
            return tf.image.resize_nearest_neighbor(x, [oh, ow], align_corners=ac, half_pixel_centers=hp)

        def ref(x, oh=oh, ow=ow, ac=ac, hp=hp):
            yi, xi = _nn_index(x.shape[1], oh, ac, hp), _nn_index(x.shape[2], ow, ac, hp)
            return x[:, yi][:, :, xi]
        rows.append(Row("ResizeNearestNeighbor", build, ref, _images, dtypes=_RESIZE_DTYPES, special=_nonfinite,
                        grad=[0], name="ResizeNearestNeighbor" + tag))
    return rows


def _area_rows():
    rows = []
    for (oh, ow), ac, tag in [((5, 7), False, ""), ((2, 3), False, "-down"), ((2, 3), True, "-align")]:
        def build(x, oh=oh, ow=ow, ac=ac):
            return tf.image.resize_area(x, [oh, ow], align_corners=ac)

        def ref(x, oh=oh, ow=ow, ac=ac):
            return _apply(x, _area_matrix(x.shape[1], oh, ac), _area_matrix(x.shape[2], ow, ac)).astype(F32)
        rows.append(Row("ResizeArea", build, ref, _images, dtypes=_RESIZE_DTYPES, special=_empty_batch,
                        grad=None, name="ResizeArea" + tag,
                        note="TF registers no gradient for ResizeArea (tf.gradients raises LookupError: "
                             "test_image_ops.py)", **_TOL))
    return rows


# ---- gradient-op rows ----------------------------------------------------------------------------------
def _grad_inputs(dtype, rng, oh=5, ow=7):
    x = rand(rng, (2, 3, 4, 2), dtype, -3, 3)
    g = rand(rng, (2, oh, ow, 2), dtype, -1, 1)
    return x, g


def _grad_row(op_type, fwd, matrix, dtypes, oh, ow, ac, hp, tag, grad, note=""):
    def build(x, g):
        return _vjp(lambda t: fwd(t, [oh, ow], align_corners=ac, half_pixel_centers=hp), x, g)

    def ref(x, g):
        wy, wx = matrix(x.shape[1], oh, ac, hp), matrix(x.shape[2], ow, ac, hp)
        return np.einsum("yi,byxc,xj->bijc", wy, g.astype(F64), wx).astype(x.dtype)

    def inputs(dtype, rng):
        x, g = _grad_inputs(dtype, rng, oh, ow)
        return x, g.astype(F32) if op_type != "ResizeNearestNeighborGrad" else g

    def special(dtype):
        return [(np.zeros((0, 3, 4, 2), dtype), np.zeros((0, oh, ow, 2), F32 if op_type != "ResizeNearestNeighborGrad"
                                                           else dtype))]
    tol = {"rtol": {F16: 4e-3, F32: 2e-5, F64: 2e-6}, "atol": {F16: 4e-3, F32: 2e-5, F64: 2e-6}}
    return Row(op_type, build, ref, inputs, dtypes=dtypes, special=special, grad=grad, name=op_type + tag,
               note=note, **tol)


def _nn_matrix(n_in, n_out, ac, hp):
    w = np.zeros((n_out, n_in))
    w[np.arange(n_out), _nn_index(n_in, n_out, ac, hp)] = 1
    return w


def _contrast_ref(factor):
    def ref(x):
        if x.size == 0:
            return x.copy()
        x64 = x.astype(F64)
        mean = x64.mean(axis=(-3, -2), keepdims=True)
        return (mean + factor * (x64 - mean)).astype(x.dtype)
    return ref


def _contrast_special(dtype):
    x = np.linspace(-2, 2, 2 * 3 * 4 * 2).reshape(2, 3, 4, 2).astype(dtype)
    x[0, 1, 2, 0] = np.nan
    x[1, 0, 3, 1] = np.inf
    return [(x,), (np.zeros((0, 3, 4, 2), dtype),), (np.zeros((2, 0, 4, 2), dtype),)]


def _contrast_rows():
    rows = []
    for factor, shape, tag in [(1.7, (2, 3, 4, 2), ""), (-0.5, (13, 11, 3), "-3d-odd")]:
        rows.append(Row("AdjustContrastv2", lambda x, f=factor: tf.image.adjust_contrast(x, f), _contrast_ref(factor),
                        lambda dtype, rng, shape=shape: (rand(rng, shape, dtype, -2, 2),), dtypes=(F16, F32),
                        special=_contrast_special, grad=None, name="AdjustContrastv2" + tag,
                        note="TF registers no gradient for AdjustContrastv2 (LookupError: test_image_ops.py)",
                        rtol={F16: 4e-3, F32: 1e-5}, atol={F16: 4e-3, F32: 1e-5}))
    return rows


def _per_pixel(f):
    """A reference applying `f(r, g, b) -> (x, y, z)` (colorsys, float64) to each pixel."""
    def ref(x):
        flat = x.astype(F64).reshape(-1, 3)
        out = np.array([f(*p) for p in flat], F64).reshape(x.shape)
        return out.astype(x.dtype)
    return ref


def _colors(dtype, rng, shape=(2, 3, 4, 3)):
    return (rand(rng, shape, dtype, 0.02, 0.98),)


def _color_special(dtype):
    x = np.array([[[0.5, 0.5, 0.5], [0, 0, 0], [1, 0, 0], [0, 1, 0]],
                  [[0, 0, 1], [0.2, 0.7, 0.7], [0.9, 0.9, 0.1], [0.7, 0.2, 0.7]]], dtype)
    return [(x,), (np.zeros((0, 3), dtype),)]


def _hue_shift(delta):
    def f(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb((h + delta) % 1.0, s, v)
    return f


def _saturate(factor):
    def f(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb(h, min(1.0, max(0.0, s * factor)), v)
    return f


_COLOR_TOL = {"rtol": {F16: 4e-3, F32: 1e-5, F64: 1e-12}, "atol": {F16: 4e-3, F32: 1e-5, F64: 1e-12}}


def _hsv_rows():
    rows = [Row("RGBToHSV", tf.image.rgb_to_hsv, _per_pixel(colorsys.rgb_to_hsv), _colors, dtypes=(F16, F32, F64),
                special=_color_special, grad_delta=1e-7, grad_tol=1e-4, **_COLOR_TOL),
            Row("HSVToRGB", tf.image.hsv_to_rgb, _per_pixel(colorsys.hsv_to_rgb), _colors, dtypes=(F16, F32, F64),
                special=_color_special, grad=False, **_COLOR_TOL)]
    note = "TF registers no gradient for %s (tf.gradients raises LookupError: test_image_ops.py)"
    for delta, tag in [(0.2, ""), (-0.7, "-negative")]:
        rows.append(Row("AdjustHue", lambda x, d=delta: tf.image.adjust_hue(x, d), _per_pixel(_hue_shift(delta)),
                        lambda dtype, rng: _colors(dtype, rng, (3, 4, 3)), dtypes=(F16, F32),
                        special=lambda dtype: [(np.zeros((0, 2, 3), dtype),)], grad=None, name="AdjustHue" + tag,
                        note=note % "AdjustHue", **_COLOR_TOL))
    for factor, tag in [(0.4, ""), (3.0, "-clipped")]:
        rows.append(Row("AdjustSaturation", lambda x, f=factor: tf.image.adjust_saturation(x, f),
                        _per_pixel(_saturate(factor)), lambda dtype, rng: _colors(dtype, rng, (3, 4, 3)),
                        dtypes=(F16, F32), special=lambda dtype: [(np.zeros((0, 2, 3), dtype),)], grad=None,
                        name="AdjustSaturation" + tag, note=note % "AdjustSaturation", **_COLOR_TOL))
    return rows


_NO_GRAD_NOTE = "TF registers no gradient for %s (tf.gradients raises LookupError: test_image_ops.py)"

ROWS = (
    _matrix_row("ResizeBilinear", tf.image.resize_bilinear, _bilinear_matrix)
    + _matrix_row("ResizeBicubic", tf.image.resize_bicubic, _bicubic_matrix)
    + _nn_rows()
    + _area_rows()
    + _contrast_rows()
    + _hsv_rows()
    + [_grad_row("ResizeBilinearGrad", tf.image.resize_bilinear, _bilinear_matrix, (F16, F32, F64), oh, ow, ac, hp,
                 tag, grad=False) for (oh, ow), ac, hp, tag in _MODES]
    + [_grad_row("ResizeBicubicGrad", tf.image.resize_bicubic, _bicubic_matrix, (F32, F64), oh, ow, ac, hp, tag,
                 grad=None, note=_NO_GRAD_NOTE % "ResizeBicubicGrad") for (oh, ow), ac, hp, tag in _MODES]
    + [_grad_row("ResizeNearestNeighborGrad", tf.image.resize_nearest_neighbor, _nn_matrix, (F16, F32, F64), oh, ow,
                 ac, hp, tag, grad=None, note=_NO_GRAD_NOTE % "ResizeNearestNeighborGrad")
       for (oh, ow), ac, hp, tag in _MODES]
)
