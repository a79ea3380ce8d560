"""ImageProjectiveTransformV2, the projective image warp behind `tf.contrib.image.transform`/`rotate`/
`translate` (TF's `image_ops.cc` ProjectiveGenerator).

A transform row `[a0, a1, a2, b0, b1, b2, c0, c1]` maps the *output* pixel `(x, y)` to the *input*
point `((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)` with `k = c0 x + c1 y + 1`; pixels read
outside the image (or where `k == 0`) are 0. NEAREST rounds halves away from zero; BILINEAR mixes the
four neighbours, each read with the zero fill. The arithmetic is TF's float32 in TF's order and the
result is cast to the image dtype by truncation (integers), so values are TF's bit for bit (tests).
The gradient is TF's: the output gradient warped by the inverse transforms.
"""

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import register_op
from .array_helpers import _check_dtype, _dims, _value

__all__ = ["image_projective_transform_v2"]

_F = np.float32
_IMAGE_T = (dtypes.uint8, dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)
_INTERPOLATIONS = ("NEAREST", "BILINEAR")


def _infer(op):
    t = op._type
    images, transforms, output_shape = op._inputs
    _check_dtype(images, _IMAGE_T, "dtype", t)
    _check_dtype(transforms, (dtypes.float32,), "transforms", t)
    _check_dtype(output_shape, (dtypes.int32,), "output_shape", t)
    interp = op._attrs.get("interpolation")
    if interp not in _INTERPOLATIONS:
        raise ValueError("Invalid interpolation %s for '%s' (op: '%s')" % (interp, op.name, t))
    fill_mode = op._attrs.get("fill_mode", "CONSTANT")
    if fill_mode != "CONSTANT":
        raise NotImplementedError("ImageProjectiveTransformV2: fill_mode=%r is not supported (only CONSTANT)"
                                  % fill_mode)
    idims = _dims(images)
    if idims is not None and len(idims) != 4:
        raise ValueError("Shape must be rank 4 but is rank %d for '%s' (op: '%s')" % (len(idims), op.name, t))
    tdims = _dims(transforms)
    if tdims is not None and len(tdims) != 2:
        raise ValueError("Shape must be rank 2 but is rank %d for '%s' (op: '%s')" % (len(tdims), op.name, t))
    sdims = _dims(output_shape)
    if sdims is not None and len(sdims) != 1:
        raise ValueError("Shape must be rank 1 but is rank %d for '%s' (op: '%s')" % (len(sdims), op.name, t))
    if sdims is not None and sdims[0] is not None and sdims[0] != 2:
        raise ValueError("Dimension must be 2 but is %d for '%s' (op: '%s')" % (sdims[0], op.name, t))
    v = _value(output_shape)
    oh = ow = None
    if v is not None:
        v = np.asarray(v).reshape(-1)
        if v.size == 2:
            oh, ow = (int(v[0]) if v[0] >= 0 else None), (int(v[1]) if v[1] >= 0 else None)
    n, c = (idims[0], idims[3]) if idims is not None else (None, None)
    return [(images._dtype, (n, oh, ow, c))]


def _round_half_away(v):
    r = np.trunc(v)
    return r + np.where(np.abs(v - r) >= _F(0.5), np.sign(v), _F(0))


def _read(img, yi, xi, valid, as_float=True):
    """img[yi, xi, :] where `valid`, else 0 (as float32 for BILINEAR, as TF; in the image dtype for NEAREST)."""
    h, w = img.shape[:2]
    ys = np.where(valid, yi, 0).astype(np.int64)
    xs = np.where(valid, xi, 0).astype(np.int64)
    out = img[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)]
    if as_float:
        out = out.astype(_F)
    return np.where(valid[..., None], out, out.dtype.type(0))


def _in_bounds(y, x, h, w):
    with np.errstate(invalid="ignore"):
        return (y >= 0) & (y < h) & (x >= 0) & (x < w)


def _kernel(xp, images, transforms, output_shape, interpolation, fill_mode="CONSTANT", dtype=None):
    if images.ndim != 4:
        raise _invalid("Input images must have rank 4")
    if transforms.ndim != 2 or not (transforms.shape[0] == images.shape[0] or transforms.shape[0] == 1) \
            or transforms.shape[1] != 8:
        raise _invalid("Input transform should be num_images x 8 or 1 x 8")
    if output_shape.ndim != 1:
        raise _invalid("output shape must be 1-dimensional%s" % (str(output_shape.shape),))
    if output_shape.size != 2:
        raise _invalid("output shape must have two elements%s" % (str(output_shape.shape),))
    oh, ow = int(output_shape[0]), int(output_shape[1])
    if oh < 0 or ow < 0:
        raise _invalid("output dimensions must be non-negative")
    n, h, w, c = images.shape
    out = np.zeros((n, oh, ow, c), images.dtype)
    if n == 0 or oh == 0 or ow == 0 or c == 0 or h == 0 or w == 0:  # nothing to read: all fill
        return out
    ys, xs = np.meshgrid(np.arange(oh, dtype=_F), np.arange(ow, dtype=_F), indexing="ij")
    tr = transforms.astype(_F)
    with np.errstate(all="ignore"):
        for b in range(n):
            t = tr[b if tr.shape[0] > 1 else 0]
            proj = (t[6] * xs + t[7] * ys) + _F(1)
            in_x = ((t[0] * xs + t[1] * ys) + t[2]) / proj
            in_y = ((t[3] * xs + t[4] * ys) + t[5]) / proj
            img = images[b]
            if interpolation == "NEAREST":
                ry, rx = _round_half_away(in_y), _round_half_away(in_x)
                val = _read(img, ry, rx, _in_bounds(ry, rx, h, w), as_float=False)
            else:
                y_floor, x_floor = np.floor(in_y), np.floor(in_x)
                y_ceil, x_ceil = y_floor + _F(1), x_floor + _F(1)

                def rd(yy, xx):
                    return _read(img, yy, xx, _in_bounds(yy, xx, h, w))

                wx0 = (x_ceil - in_x)[..., None]
                wx1 = (in_x - x_floor)[..., None]
                v_yf = wx0 * rd(y_floor, x_floor) + wx1 * rd(y_floor, x_ceil)
                v_yc = wx0 * rd(y_ceil, x_floor) + wx1 * rd(y_ceil, x_ceil)
                val = (y_ceil - in_y)[..., None] * v_yf + (in_y - y_floor)[..., None] * v_yc
            val = np.where((proj == 0)[..., None], val.dtype.type(0), val)
            if images.dtype.kind in "iu" and val.dtype.kind == "f":
                info = np.iinfo(images.dtype)
                val = np.clip(np.nan_to_num(np.trunc(val)), info.min, info.max)
            out[b] = val.astype(images.dtype)
    return out


def _flat_to_matrices(transforms):
    from . import array_ops
    from .array_shape_ops import ones
    transforms = array_ops.reshape(transforms, [-1, 8])
    num = array_ops.shape(transforms)[0]
    return array_ops.reshape(array_ops.concat([transforms, ones(array_ops.stack([num, 1]))], axis=1), [-1, 3, 3])


def _matrices_to_flat(matrices):
    from . import array_ops
    flat = array_ops.reshape(matrices, [-1, 9])
    flat /= flat[:, 8:9]
    return flat[:, :8]


def _grad(op, grad):
    from . import array_ops
    from .linalg_core_ops import matrix_inverse
    images = op.inputs[0]
    inverse = _matrices_to_flat(matrix_inverse(_flat_to_matrices(op.inputs[1])))
    output = image_projective_transform_v2(grad, inverse, array_ops.shape(images)[1:3],
                                           interpolation=op.get_attr("interpolation"))
    return [output, None, None]


register_op("ImageProjectiveTransformV2", infer=_infer, kernel=_kernel, grad=_grad, cost=8)


def image_projective_transform_v2(images, transforms, output_shape, interpolation, fill_mode="CONSTANT", name=None):
    """Applies projective transforms to a batch of images (the raw op).

    Args:
      images: A 4-D `[batch, height, width, channels]` tensor of uint8, int32, int64, float16,
        float32 or float64.
      transforms: A float32 `[batch or 1, 8]` tensor of transform rows (output point -> input point).
      output_shape: An int32 vector `[new_height, new_width]`.
      interpolation: "NEAREST" or "BILINEAR".
      fill_mode: Only "CONSTANT" (zeros outside the image).
      name: A name for the operation (default "ImageProjectiveTransformV2").

    Returns:
      A tensor `[batch, new_height, new_width, channels]` of `images`' dtype.

    Raises:
      TypeError: For unsupported dtypes.
      ValueError: For a bad interpolation or static ranks.
      InvalidArgumentError: At run time, for bad shapes.
    """
    with ops.name_scope(name, "ImageProjectiveTransformV2", [images, transforms, output_shape]) as scope:
        images = ops.convert_to_tensor(images, name="images")
        transforms = ops.convert_to_tensor(transforms, name="transforms")
        output_shape = ops.convert_to_tensor(output_shape, name="output_shape")
        return ops.apply_op("ImageProjectiveTransformV2", [images, transforms, output_shape],
                            {"interpolation": interpolation, "fill_mode": fill_mode, "dtype": images.dtype},
                            name=scope)
