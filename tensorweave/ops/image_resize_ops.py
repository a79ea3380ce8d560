"""Image resize ops (TF's `image_ops` resize kernels): ResizeBilinear, ResizeNearestNeighbor,
ResizeBicubic, ResizeArea and the gradient ops ResizeBilinearGrad, ResizeNearestNeighborGrad,
ResizeBicubicGrad.

The kernels follow TF's CPU kernels step by step in float32 (the same scale, the same source
coordinates and the same order of the float operations), so the pixel values are TF's bit for bit.
"""

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _check_dtype, _dims, _fmt, _int_list, _value
from .array_slice_ops import strided_slice
from .core_ops import shape

_RESIZE_DTYPES = (dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16, dtypes.int32, dtypes.int64,
                  dtypes.float16, dtypes.float32, dtypes.float64)
_GRAD_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)
_BICUBIC_GRAD_DTYPES = (dtypes.float32, dtypes.float64)

_F = np.float32


# ---- static shape inference ------------------------------------------------------------------
def _resize_infer(op, out_dtype=None, grad_size_from=None):
    """TF's ResizeShapeFn: images [batch, h, w, channels], size a 2-vector of int32."""
    images, size = op._inputs[0], op._inputs[1]
    dims = _dims(images)
    if dims is not None and len(dims) != 4:
        raise ValueError("Shape must be rank 4 but is rank %d" % len(dims))
    if size._dtype is not dtypes.int32:
        raise TypeError("Value passed to parameter 'size' has DataType %s not in list of allowed values: int32"
                        % size._dtype.name)
    sd = _dims(size)
    if sd is not None and len(sd) != 1:
        raise ValueError("Shape must be rank 1 but is rank %d" % len(sd))
    if sd is not None and sd[0] is not None and sd[0] != 2:
        raise ValueError("Dimension must be 2 but is %d" % sd[0])
    h = w = None
    v = _value(size)
    if v is not None:
        h, w = (None if d == -1 else d for d in _int_list(v))
        for d in (h, w):
            if d is not None and d < 0:
                raise ValueError("Dimension %d must be >= 0" % d)
    b = c = None
    if dims is not None:
        b, c = dims[0], dims[3]
    return [(out_dtype or images._dtype, (b, h, w, c))]


def _float_out_infer(op):
    _check_dtype(op._inputs[0], _RESIZE_DTYPES, "images", op._type)
    return _resize_infer(op, dtypes.float32)


def _nn_infer(op):
    _check_dtype(op._inputs[0], _RESIZE_DTYPES, "images", op._type)
    return _resize_infer(op)


def _grad_infer_from_image(allowed):
    def infer(op):
        grads, orig = op._inputs
        if grads._dtype is not dtypes.float32:
            raise TypeError("Value passed to parameter 'grads' has DataType %s not in list of allowed values: float32"
                            % grads._dtype.name)
        _check_dtype(orig, allowed, "original_image", op._type)
        gd, od = _dims(grads), _dims(orig)
        for d in (gd, od):
            if d is not None and len(d) != 4:
                raise ValueError("Shape must be rank 4 but is rank %d" % len(d))
        b = c = None
        if gd is not None:
            b, c = gd[0], gd[3]
        h = w = None
        if od is not None:
            b = od[0] if b is None else b
            c = od[3] if c is None else c
            h, w = od[1], od[2]
        return [(orig._dtype, (b, h, w, c))]
    return infer


def _nn_grad_infer(op):
    grads, size = op._inputs
    _check_dtype(grads, _RESIZE_DTYPES, "grads", op._type)
    return _resize_infer(op)


# ---- shared kernel pieces --------------------------------------------------------------------
def _check_attrs(align_corners, half_pixel_centers):
    if half_pixel_centers and align_corners:
        raise _invalid("If half_pixel_centers is True, align_corners must be False.")


def _output_size(images, size, align_corners, half_pixel_centers):
    """TF's ImageResizerState::ValidateAndCalculateOutputSize."""
    _check_attrs(align_corners, half_pixel_centers)
    if images.ndim != 4:
        raise _invalid("input must be 4-dimensional%s" % _fmt(images.shape))
    size = np.asarray(size)
    if size.ndim != 1:
        raise _invalid("shape_t must be 1-dimensional%s" % _fmt(size.shape))
    if size.shape[0] != 2:
        raise _invalid("shape_t must have two elements%s" % _fmt(size.shape))
    out_h, out_w = int(size[0]), int(size[1])
    if out_h <= 0 or out_w <= 0:
        raise _invalid("output dimensions must be positive")
    if images.shape[1] <= 0 or images.shape[2] <= 0:
        raise _invalid("input image must be of non-zero size")
    return out_h, out_w


def _scale(in_size, out_size, align_corners):
    """TF's CalculateResizeScale, in float32 (an input of size 1 keeps in/out under align_corners)."""
    if align_corners and out_size > 1 and in_size > 1:
        return _F(in_size - 1) / _F(out_size - 1)
    return _F(in_size) / _F(out_size)


def _bound(i, limit):
    return np.minimum(limit - 1, np.maximum(0, i))


# ---- bilinear --------------------------------------------------------------------------------
def _bilinear_weights(out_size, in_size, scale, half_pixel_centers):
    """(lower index, upper index, lerp) of each output position along one axis."""
    i = np.arange(out_size, dtype=_F)
    src = (i + _F(0.5)) * scale - _F(0.5) if half_pixel_centers else i * scale
    f = np.floor(src)
    lower = np.maximum(f.astype(np.int64), 0)
    upper = np.minimum(np.ceil(src).astype(np.int64), in_size - 1)
    return lower, upper, (src - f).astype(_F)


def _resize_bilinear_kernel(xp, images, size, align_corners=False, half_pixel_centers=False):
    out_h, out_w = _output_size(images, size, align_corners, half_pixel_centers)
    _, in_h, in_w, _ = images.shape
    ylo, yhi, yl = _bilinear_weights(out_h, in_h, _scale(in_h, out_h, align_corners), half_pixel_centers)
    xlo, xhi, xl = _bilinear_weights(out_w, in_w, _scale(in_w, out_w, align_corners), half_pixel_centers)
    x = images.astype(_F)
    top, bottom = x[:, ylo], x[:, yhi]
    tl, tr, bl, br = top[:, :, xlo], top[:, :, xhi], bottom[:, :, xlo], bottom[:, :, xhi]
    xl = xl[None, None, :, None]
    yl = yl[None, :, None, None]
    t = tl + (tr - tl) * xl
    b = bl + (br - bl) * xl
    return (t + (b - t) * yl).astype(_F)


def _grad_dims(grads, original_image, align_corners, half_pixel_centers):
    """The checks of ResizeBilinearGrad / ResizeBicubicGrad; (batch, out_h, out_w, channels, in_h, in_w)."""
    _check_attrs(align_corners, half_pixel_centers)
    if grads.ndim != 4:
        raise _invalid("input_grad must be 4-dimensional%s" % _fmt(grads.shape))
    if original_image.ndim != 4:
        raise _invalid("original_image must be 4-dimensional%s" % _fmt(original_image.shape))
    bsz, out_h, out_w, ch = grads.shape
    _, in_h, in_w, _ = original_image.shape
    if original_image.shape[0] != bsz or original_image.shape[3] != ch:
        raise _invalid("original_image and input_grad must have the same batch size and number of channels")
    return bsz, out_h, out_w, ch, in_h, in_w


def _resize_bilinear_grad_kernel(xp, grads, original_image, align_corners=False, half_pixel_centers=False):
    bsz, out_h, out_w, ch, in_h, in_w = _grad_dims(grads, original_image, align_corners, half_pixel_centers)
    # half precision accumulates in float32 and rounds once at the end, as TF does.
    dt = _F if original_image.dtype == np.float16 else original_image.dtype
    out = np.zeros((bsz, in_h, in_w, ch), dt)
    if grads.size == 0 or out.size == 0:
        return out.astype(original_image.dtype)
    ylo, yhi, yl = _bilinear_weights(out_h, in_h, _scale(in_h, out_h, align_corners), half_pixel_centers)
    xlo, xhi, xl = _bilinear_weights(out_w, in_w, _scale(in_w, out_w, align_corners), half_pixel_centers)
    g = grads.astype(_F)
    iy, ix = _F(1) - yl, _F(1) - xl
    yw = [iy, iy, yl, yl]
    xw = [ix, xl, ix, xl]
    yi = [ylo, ylo, yhi, yhi]
    xi = [xlo, xhi, xlo, xhi]
    # values[b, y, x, corner, c] in TF's loop order; one unbuffered scatter keeps the order of the sums.
    vals = np.stack([(g * yw[k][None, :, None, None] * xw[k][None, None, :, None]).astype(dt) for k in range(4)],
                    axis=3)
    bidx = np.arange(bsz)[:, None, None, None, None]
    ridx = np.stack([np.broadcast_to(yi[k][:, None], (out_h, out_w)) for k in range(4)], axis=2)
    cidx = np.stack([np.broadcast_to(xi[k][None, :], (out_h, out_w)) for k in range(4)], axis=2)
    chn = np.arange(ch)[None, None, None, None, :]
    flat = ((bidx * in_h + ridx[None, :, :, :, None]) * in_w + cidx[None, :, :, :, None]) * ch + chn
    flat_out = out.reshape(-1)
    np.add.at(flat_out, np.broadcast_to(flat, vals.shape).reshape(-1), vals.reshape(-1))
    return flat_out.reshape(out.shape).astype(original_image.dtype)


def _resize_bilinear_grad(op, grad):
    return [ops.apply_op("ResizeBilinearGrad", [grad, op._inputs[0]], dict(op._attrs)), None]


def _size_of(t):
    dims = _dims(t)
    if dims is not None and dims[1] is not None and dims[2] is not None:
        return ops.convert_to_tensor(np.array(dims[1:3], np.int32))
    return strided_slice(shape(t, out_type=dtypes.int32), [1], [3], [1])


register_op("ResizeBilinear", infer=_float_out_infer, kernel=_resize_bilinear_kernel, grad=_resize_bilinear_grad,
            cost=8)
register_op("ResizeBilinearGrad", infer=_grad_infer_from_image(_GRAD_DTYPES), kernel=_resize_bilinear_grad_kernel,
            grad=NO_GRADIENT, cost=8)


# ---- nearest neighbor ------------------------------------------------------------------------
def _roundf(v):
    """C's roundf (halves away from zero) of non-negative float32 values."""
    f = np.floor(v)
    return np.where(v - f >= _F(0.5), f + 1, f)


def _nn_index(out_size, in_size, scale, align_corners, half_pixel_centers):
    i = np.arange(out_size, dtype=_F)
    src = (i + _F(0.5)) * scale if half_pixel_centers else i * scale
    idx = (_roundf(src) if align_corners else np.floor(src)).astype(np.int64)
    idx = np.minimum(idx, in_size - 1)
    if half_pixel_centers:
        idx = np.maximum(idx, 0)
    return idx


def _resize_nn_kernel(xp, images, size, align_corners=False, half_pixel_centers=False):
    out_h, out_w = _output_size(images, size, align_corners, half_pixel_centers)
    _, in_h, in_w, _ = images.shape
    yi = _nn_index(out_h, in_h, _scale(in_h, out_h, align_corners), align_corners, half_pixel_centers)
    xi = _nn_index(out_w, in_w, _scale(in_w, out_w, align_corners), align_corners, half_pixel_centers)
    return np.ascontiguousarray(images[:, yi][:, :, xi])


def _resize_nn_grad_kernel(xp, grads, size, align_corners=False, half_pixel_centers=False):
    _check_attrs(align_corners, half_pixel_centers)
    if grads.ndim != 4:
        raise _invalid("input must be 4-dimensional%s" % _fmt(grads.shape))
    size = np.asarray(size)
    if size.ndim != 1 or size.shape[0] != 2:
        raise _invalid("shape_t must be 1-dimensional and have two elements%s" % _fmt(size.shape))
    out_h, out_w = int(size[0]), int(size[1])
    if out_h <= 0 or out_w <= 0:
        raise _invalid("output dimensions must be positive")
    bsz, in_h, in_w, ch = grads.shape
    out = np.zeros((bsz, out_h, out_w, ch), grads.dtype)
    if grads.size == 0:
        return out
    yi = _nn_index(in_h, out_h, _scale(out_h, in_h, align_corners), align_corners, half_pixel_centers)
    xi = _nn_index(in_w, out_w, _scale(out_w, in_w, align_corners), align_corners, half_pixel_centers)
    flat = ((np.arange(bsz)[:, None, None, None] * out_h + yi[None, :, None, None]) * out_w
            + xi[None, None, :, None]) * ch + np.arange(ch)[None, None, None, :]
    flat_out = out.reshape(-1)
    np.add.at(flat_out, flat.reshape(-1), grads.reshape(-1))
    return flat_out.reshape(out.shape)


def _resize_nn_grad(op, grad):
    return [ops.apply_op("ResizeNearestNeighborGrad", [grad, _size_of(op._inputs[0])], dict(op._attrs)), None]


register_op("ResizeNearestNeighbor", infer=_nn_infer, kernel=_resize_nn_kernel, grad=_resize_nn_grad)
register_op("ResizeNearestNeighborGrad", infer=_nn_grad_infer, kernel=_resize_nn_grad_kernel)


# ---- bicubic ---------------------------------------------------------------------------------
_TABLE_SIZE = 1024
_TABLES = {}


def _coeffs_table(keys_cubic):
    """TF's InitCoeffsTable: the cubic kernel sampled at 1/1024 steps (a = -0.5 Keys, -0.75 legacy)."""
    t = _TABLES.get(keys_cubic)
    if t is None:
        a = -0.5 if keys_cubic else -0.75
        t = np.zeros((_TABLE_SIZE + 1) * 2, _F)
        for i in range(_TABLE_SIZE + 1):
            x = float(_F(i * 1.0 / _TABLE_SIZE))
            t[i * 2] = ((a + 2) * x - (a + 3)) * x * x + 1
            x = float(_F(x + 1.0))
            t[i * 2 + 1] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
        _TABLES[keys_cubic] = t
    return t


def _bicubic_weights(out_size, in_size, scale, half_pixel_centers):
    """([4, out] indices, [4, out] float32 weights) of TF's GetWeightsAndIndices."""
    table = _coeffs_table(half_pixel_centers)
    i = np.arange(out_size, dtype=_F)
    src = (i + _F(0.5)) * scale - _F(0.5) if half_pixel_centers else i * scale
    loc = np.floor(src).astype(np.int64)
    delta = (src - np.floor(src)).astype(_F)
    offset = np.rint(delta * _F(_TABLE_SIZE)).astype(np.int64)
    w = [table[offset * 2 + 1], table[offset * 2], table[(_TABLE_SIZE - offset) * 2],
         table[(_TABLE_SIZE - offset) * 2 + 1]]
    idx = [_bound(loc + k, in_size) for k in (-1, 0, 1, 2)]
    if half_pixel_centers:
        w = [np.where(idx[k] == loc + (k - 1), w[k], _F(0)) for k in range(4)]
        s = ((w[0] + w[1]) + w[2]) + w[3]
        ok = np.abs(s) >= _F(1000.0) * np.finfo(_F).tiny
        inv = np.where(ok, _F(1) / np.where(ok, s, _F(1)), _F(1))
        w = [np.where(ok, wk * inv, wk) for wk in w]
    return np.stack(idx), np.stack(w).astype(_F)


def _resize_bicubic_kernel(xp, images, size, align_corners=False, half_pixel_centers=False):
    out_h, out_w = _output_size(images, size, align_corners, half_pixel_centers)
    _, in_h, in_w, _ = images.shape
    yi, yw = _bicubic_weights(out_h, in_h, _scale(in_h, out_h, align_corners), half_pixel_centers)
    xi, xw = _bicubic_weights(out_w, in_w, _scale(in_w, out_w, align_corners), half_pixel_centers)
    x = images.astype(_F)
    cols = None
    for k in range(4):
        term = x[:, yi[k]] * yw[k][None, :, None, None]
        cols = term if cols is None else cols + term
    out = None
    for k in range(4):
        term = cols[:, :, xi[k]] * xw[k][None, None, :, None]
        out = term if out is None else out + term
    return out.astype(_F)


def _resize_bicubic_grad_kernel(xp, grads, original_image, align_corners=False, half_pixel_centers=False):
    bsz, out_h, out_w, ch, in_h, in_w = _grad_dims(grads, original_image, align_corners, half_pixel_centers)
    dt = original_image.dtype
    out = np.zeros((bsz, in_h, in_w, ch), dt)
    if grads.size == 0 or out.size == 0:
        return out
    yi, yw = _bicubic_weights(out_h, in_h, _scale(in_h, out_h, align_corners), half_pixel_centers)
    xi, xw = _bicubic_weights(out_w, in_w, _scale(in_w, out_w, align_corners), half_pixel_centers)
    g = grads.astype(dt)
    # contributions [b, y, x, ky, kx, c], TF's loop order (products in the image's dtype).
    vals = (g[:, :, :, None, None, :] * yw.T.astype(dt)[None, :, None, :, None, None]
            * xw.T.astype(dt)[None, None, :, None, :, None]).astype(dt)
    rows = yi.T[None, :, None, :, None, None]
    colz = xi.T[None, None, :, None, :, None]
    flat = ((np.arange(bsz)[:, None, None, None, None, None] * in_h + rows) * in_w + colz) * ch \
        + np.arange(ch)[None, None, None, None, None, :]
    flat_out = out.reshape(-1)
    np.add.at(flat_out, np.broadcast_to(flat, vals.shape).reshape(-1), vals.reshape(-1))
    return flat_out.reshape(out.shape)


def _resize_bicubic_grad(op, grad):
    if op._inputs[0]._dtype not in _BICUBIC_GRAD_DTYPES:
        return [None, None]
    return [ops.apply_op("ResizeBicubicGrad", [grad, op._inputs[0]], dict(op._attrs)), None]


register_op("ResizeBicubic", infer=_float_out_infer, kernel=_resize_bicubic_kernel, grad=_resize_bicubic_grad,
            cost=16)
register_op("ResizeBicubicGrad", infer=_grad_infer_from_image(_BICUBIC_GRAD_DTYPES),
            kernel=_resize_bicubic_grad_kernel, cost=16)


# ---- area ------------------------------------------------------------------------------------
def _area_weights(out_size, in_size, scale):
    """([K, out] indices (bounded), [K, out] float32 weights, [K, out] mask) of TF's ResizeArea."""
    o = np.arange(out_size, dtype=_F)
    lo = o * scale
    hi = (o + _F(1)) * scale
    start = np.floor(lo).astype(np.int64)
    end = np.ceil(hi).astype(np.int64)
    k = int(np.max(end - start)) if out_size else 0
    idx, wts, mask = [], [], []
    for j in range(k):
        i = start + j
        fi = i.astype(_F)
        fi1 = (i + 1).astype(_F)
        w = np.where(fi < lo, np.where(fi1 > hi, scale, fi1 - lo), np.where(fi1 > hi, hi - fi, _F(1)))
        idx.append(_bound(i, in_size))
        wts.append(w.astype(_F))
        mask.append(i < end)
    return idx, wts, mask


def _resize_area_kernel(xp, images, size, align_corners=False):
    out_h, out_w = _output_size(images, size, align_corners, False)
    _, in_h, in_w, _ = images.shape
    hs, ws = _scale(in_h, out_h, align_corners), _scale(in_w, out_w, align_corners)
    yi, yw, ym = _area_weights(out_h, in_h, hs)
    xi, xw, xm = _area_weights(out_w, in_w, ws)
    x = images.astype(_F)
    total = np.zeros((x.shape[0], out_h, out_w, x.shape[3]), _F)
    for a in range(len(yi)):
        rows = x[:, yi[a]]
        sum_y = None
        for b in range(len(xi)):
            term = rows[:, :, xi[b]] * xw[b][None, None, :, None]
            if b == 0:
                sum_y = term
            else:
                sum_y = np.where(xm[b][None, None, :, None], sum_y + term, sum_y)
        contrib = sum_y * yw[a][None, :, None, None]
        total = np.where(ym[a][None, :, None, None], total + contrib, total)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = _F(np.float64(1.0) / np.float64(_F(hs * ws)))
        return (total * scale).astype(_F)


register_op("ResizeArea", infer=_float_out_infer, kernel=_resize_area_kernel, cost=8)


# ---- public constructors ---------------------------------------------------------------------
def _resize_op(op_type, images, size, name, align_corners, half_pixel_centers=None):
    images = ops.convert_to_tensor(images, name="images")
    size = ops.convert_to_tensor(size, dtype=dtypes.int32, name="size")
    attrs = {"align_corners": bool(align_corners)}
    if half_pixel_centers is not None:
        attrs["half_pixel_centers"] = bool(half_pixel_centers)
    return ops.apply_op(op_type, [images, size], attrs, name=name or op_type)


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """Resizes `images` to `size` using bilinear interpolation.

    Args:
      images: A 4-D `Tensor` `[batch, height, width, channels]` of a real dtype.
      size: A 1-D int32 `Tensor` of 2 elements, `new_height, new_width`.
      align_corners: If True, the centers of the 4 corner pixels of the input and output are aligned.
      name: A name for the operation (optional).
      half_pixel_centers: If True, pixel centers are at half-integer coordinates.

    Returns:
      A float32 `Tensor` `[batch, new_height, new_width, channels]`.

    Raises:
      InvalidArgumentError: At run time, for both `align_corners` and `half_pixel_centers`, or a
        non-positive size.
    """
    return _resize_op("ResizeBilinear", images, size, name, align_corners, half_pixel_centers)


def resize_nearest_neighbor(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """Resizes `images` to `size` using nearest neighbor interpolation.

    Args:
      images: A 4-D `Tensor` `[batch, height, width, channels]` of a real dtype.
      size: A 1-D int32 `Tensor` of 2 elements, `new_height, new_width`.
      align_corners: If True, the centers of the 4 corner pixels of the input and output are aligned.
      name: A name for the operation (optional).
      half_pixel_centers: If True, pixel centers are at half-integer coordinates.

    Returns:
      A `Tensor` of the dtype of `images`, `[batch, new_height, new_width, channels]`.

    Raises:
      InvalidArgumentError: At run time, for both `align_corners` and `half_pixel_centers`, or a
        non-positive size.
    """
    return _resize_op("ResizeNearestNeighbor", images, size, name, align_corners, half_pixel_centers)


def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """Resizes `images` to `size` using bicubic interpolation (Keys' cubic with a = -0.5 under
    `half_pixel_centers`, TF's legacy a = -0.75 otherwise).

    Args:
      images: A 4-D `Tensor` `[batch, height, width, channels]` of a real dtype.
      size: A 1-D int32 `Tensor` of 2 elements, `new_height, new_width`.
      align_corners: If True, the centers of the 4 corner pixels of the input and output are aligned.
      name: A name for the operation (optional).
      half_pixel_centers: If True, pixel centers are at half-integer coordinates.

    Returns:
      A float32 `Tensor` `[batch, new_height, new_width, channels]`.

    Raises:
      InvalidArgumentError: At run time, for both `align_corners` and `half_pixel_centers`, or a
        non-positive size.
    """
    return _resize_op("ResizeBicubic", images, size, name, align_corners, half_pixel_centers)


def resize_area(images, size, align_corners=False, name=None):
    """Resizes `images` to `size` using area interpolation (each output pixel is the mean of the
    input area it covers).

    Args:
      images: A 4-D `Tensor` `[batch, height, width, channels]` of a real dtype.
      size: A 1-D int32 `Tensor` of 2 elements, `new_height, new_width`.
      align_corners: If True, the centers of the 4 corner pixels of the input and output are aligned.
      name: A name for the operation (optional).

    Returns:
      A float32 `Tensor` `[batch, new_height, new_width, channels]`.

    Raises:
      InvalidArgumentError: At run time, for a non-positive size or an empty image.
    """
    return _resize_op("ResizeArea", images, size, name, align_corners)


class ResizeMethod:
    """The resize methods of `resize_images` (TF1's `ResizeMethodV1` values)."""
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


def _method_key(method):
    names = {"bilinear": 0, "nearest": 1, "bicubic": 2, "area": 3}
    if isinstance(method, str) and method in names:
        return names[method]
    if isinstance(method, int) and not isinstance(method, bool) and method in (0, 1, 2, 3):
        return method
    raise ValueError("Resize method is not implemented: {}".format(method))


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False, preserve_aspect_ratio=False,
                  name=None):
    """Resizes `images` to `size` using the specified `method` (TF1's `tf.image.resize_images`).

    Args:
      images: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.
      size: A 1-D int32 `Tensor` of 2 elements, `new_height, new_width`.
      method: A `ResizeMethod` (default `ResizeMethod.BILINEAR`).
      align_corners: If True, the centers of the 4 corner pixels of the input and output are aligned.
      preserve_aspect_ratio: Whether to keep the aspect ratio: the image is then resized to the
        largest size that fits in `size`.
      name: A name for the operation (optional).

    Returns:
      The resized images, float32 unless the method is NEAREST_NEIGHBOR (the images' dtype), or
      the images themselves where the static sizes show nothing changes; 3-D for a 3-D input.

    Raises:
      ValueError: If `images` has no static rank or a rank other than 3 or 4, if `size` is not a
        vector of 2 int32 values, or for an unknown `method`.
    """
    from ..framework import tensor_util
    from .array_join_ops import stack
    from .array_shape_ops import expand_dims, squeeze
    from .math_binary_ops import minimum
    from .math_unary_ops import cast
    from .math_unary_ops import round as _round

    key = _method_key(method)
    op_type = ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea")[key]
    with ops.name_scope(name, "resize", [images, size]):
        images = ops.convert_to_tensor(images, name="images")
        if images._shape.ndims is None:
            raise ValueError("'images' contains no shape.")
        is_batch = True
        if images._shape.ndims == 3:
            is_batch = False
            images = expand_dims(images, 0)
        elif images._shape.ndims != 4:
            raise ValueError("'images' must have either 3 or 4 dimensions.")
        _, height, width, _ = _dims(images)
        try:
            size = ops.convert_to_tensor(size, dtypes.int32, name="size")
        except (TypeError, ValueError):
            raise ValueError("'size' must be a 1-D int32 Tensor")
        if not size.get_shape().is_compatible_with([2]):
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        if preserve_aspect_ratio:
            dyn = shape(images)
            cur_h = height if height is not None else dyn[1]
            cur_w = width if width is not None else dyn[2]
            fh = cast(cur_h, dtypes.float32)
            fw = cast(cur_w, dtypes.float32)
            scale = minimum(cast(size[0], dtypes.float32) / fh, cast(size[1], dtypes.float32) / fw)
            size = stack([cast(_round(scale * fh), dtypes.int32), cast(_round(scale * fw), dtypes.int32)],
                         name="size")
        new_shape = tensor_util.constant_value_as_shape(size)
        new_h = new_shape[0].value if new_shape.ndims else None
        new_w = new_shape[1].value if new_shape.ndims else None
        if None not in (new_h, new_w, height, width) and height == new_h and width == new_w:
            return images if is_batch else squeeze(images, axis=[0])
        attrs = {"align_corners": bool(align_corners)}
        if op_type != "ResizeArea":
            attrs["half_pixel_centers"] = False
        out = ops.apply_op(op_type, [images, size], attrs, name=op_type)
        out.set_shape([None, new_h, new_w, None])
        return out if is_batch else squeeze(out, axis=[0])
