"""HSV color ops (TF's `colorspace_op` and `adjust_hue_op`/`adjust_saturation_op` kernels):
RGBToHSV, HSVToRGB, AdjustHue, AdjustSaturation, and `tf.image`'s functions built on them.

The kernels follow TF's CPU kernels operation by operation in the image's float type (float32 for
AdjustHue/AdjustSaturation, whose kernels compute in float), so the values are TF's bit for bit."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _check_dtype, _dims, _fmt
from .array_join_ops import stack
from .image_color_ops import (
    _adjust_infer,
    _check_adjust_args,
    _random_delta,
    _random_factor,
    _to_float,
    convert_image_dtype,
)
from .math_binary_ops import div_no_nan, greater, greater_equal, less, less_equal, logical_and
from .math_unary_ops import cast, square

_F = np.float32
_HSV_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


def _three_channels_infer(op):
    x = op._inputs[0]
    _check_dtype(x, _HSV_DTYPES, "images", op._type)
    d = _dims(x)
    if d is not None:
        if len(d) < 1:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        if d[-1] is not None and d[-1] != 3:
            raise ValueError("Dimension must be 3 but is %d" % d[-1])
        d = d[:-1] + (3,)
    return [(x._dtype, d)]


def _check_channels(images):
    if images.ndim < 1:
        raise _invalid("input must be at least 1D%s" % _fmt(images.shape))
    if images.shape[-1] != 3:
        raise _invalid("input must have 3 channels but input only has %d channels." % images.shape[-1])


# ---- RGBToHSV / HSVToRGB ---------------------------------------------------------------------
def _rgb_to_hsv_kernel(xp, images):
    _check_channels(images)
    t = images.dtype.type
    r, g, b = images[..., 0], images[..., 1], images[..., 2]
    with np.errstate(all="ignore"):
        v = _nan_max(images)
        rng = v - _nan_min(images)
        s = np.where(v > t(0), rng / v, t(0))
        norm = (t(1) / rng) * (t(1) / t(6))
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + t(2) / t(6), norm * (r - g) + t(4) / t(6)))
        h = np.where(rng > t(0), h, t(0))
        h = np.where(h < t(0), h + t(1), h)
    return np.stack([h, s, v], axis=-1).astype(images.dtype)


def _nan_max(x):
    """Eigen's maximum reduction over the channels: the running max(a, b) = a < b ? b : a."""
    m = x[..., 0]
    for k in (1, 2):
        m = np.where(m < x[..., k], x[..., k], m)
    return m


def _nan_min(x):
    m = x[..., 0]
    for k in (1, 2):
        m = np.where(x[..., k] < m, x[..., k], m)
    return m


def _hsv_to_rgb_kernel(xp, images):
    _check_channels(images)
    t = images.dtype.type
    h, s, v = images[..., 0], images[..., 1], images[..., 2]
    with np.errstate(all="ignore"):
        dh = h * t(6)

        def clamp(a):
            return np.minimum(np.maximum(a, t(0)), t(1))
        dr = clamp(np.abs(dh - t(3)) - t(1))
        dg = clamp(-np.abs(dh - t(2)) + t(2))
        db = clamp(-np.abs(dh - t(4)) + t(2))
        one_s = -s + t(1)
        out = [(one_s + s * d) * v for d in (dr, dg, db)]
    return np.stack(out, axis=-1).astype(images.dtype)


def _custom_reciprocal(x):
    return div_no_nan(cast(1.0, x.dtype), x)


def _rgb_to_hsv_grad(op, grad):
    """TF's gradient of RGBToHSV (tensorflow/python/ops/image_grad.py), formula by formula."""
    x = op._inputs[0]
    reds, greens, blues = x[..., 0], x[..., 1], x[..., 2]
    saturation, value = op._outputs[0][..., 1], op._outputs[0][..., 2]
    dt = x.dtype

    def c(b):
        return cast(b, dt)
    red_biggest = c(logical_and(greater_equal(reds, blues), greater_equal(reds, greens)))
    green_biggest = c(logical_and(greater(greens, reds), greater_equal(greens, blues)))
    blue_biggest = c(logical_and(greater(blues, reds), greater(blues, greens)))
    red_smallest = c(logical_and(less(reds, blues), less(reds, greens)))
    green_smallest = c(logical_and(less_equal(greens, reds), less(greens, blues)))
    blue_smallest = c(logical_and(less_equal(blues, reds), less_equal(blues, greens)))
    rp, gp, bp = c(greater(reds, 0)), c(greater(greens, 0)), c(greater(blues, 0))
    rec = _custom_reciprocal
    ds_dr = rp * ((red_biggest * (green_smallest * greens + blue_smallest * blues) * rec(square(reds)))
                  + red_smallest * -1 * rec((green_biggest * greens) + (blue_biggest * blues)))
    ds_dg = gp * ((green_biggest * (red_smallest * reds + blue_smallest * blues) * rec(square(greens)))
                  + green_smallest * -1 * rec((red_biggest * reds) + (blue_biggest * blues)))
    ds_db = bp * ((blue_biggest * (green_smallest * greens + red_smallest * reds) * rec(square(blues)))
                  + blue_smallest * -1 * rec((green_biggest * greens) + (red_biggest * reds)))

    def s2v2(t):
        return t * rec(square(saturation)) * rec(square(value))
    dh_dr = (60 * s2v2(rp * red_biggest * -1 * (greens - blues))
             + 60 * (gp * green_biggest * red_smallest * (blues - greens) * rec(square(reds - greens)))
             + 60 * (gp * green_biggest * blue_smallest * -1 * rec(greens - blues))
             + 60 * (bp * blue_biggest * red_smallest * (blues - greens) * rec(square(blues - reds)))
             + 60 * (bp * blue_biggest * green_smallest * rec(blues - greens))) / 360
    dh_dg = (60 * s2v2(gp * green_biggest * -1 * (blues - reds))
             + 60 * (rp * red_biggest * green_smallest * (reds - blues) * rec(square(reds - greens)))
             + 60 * (rp * red_biggest * blue_smallest * rec(reds - blues))
             + 60 * (bp * blue_biggest * green_smallest * (reds - blues) * rec(square(blues - greens)))
             + 60 * (bp * blue_biggest * red_smallest * -1 * rec(blues - reds))) / 360
    dh_db = (60 * s2v2(bp * blue_biggest * -1 * (reds - greens))
             + 60 * (rp * red_biggest * blue_smallest * (greens - reds) * rec(square(reds - blues)))
             + 60 * (rp * red_biggest * green_smallest * -1 * rec(reds - greens))
             + 60 * (gp * green_biggest * blue_smallest * (greens - reds) * rec(square(greens - blues)))
             + 60 * (gp * green_biggest * red_smallest * rec(greens - reds))) / 360
    g0, g1, g2 = grad[..., 0], grad[..., 1], grad[..., 2]
    dv = stack([g2 * red_biggest, g2 * green_biggest, g2 * blue_biggest], axis=-1)
    ds = stack([g1 * ds_dr, g1 * ds_dg, g1 * ds_db], axis=-1)
    dh = stack([g0 * dh_dr, g0 * dh_dg, g0 * dh_db], axis=-1)
    return [(dv + ds) + dh]


register_op("RGBToHSV", infer=_three_channels_infer, kernel=_rgb_to_hsv_kernel, grad=_rgb_to_hsv_grad)
register_op("HSVToRGB", infer=_three_channels_infer, kernel=_hsv_to_rgb_kernel, grad=NO_GRADIENT)


def rgb_to_hsv(images, name=None):
    """Converts RGB images to HSV (all components in [0, 1]; a gray pixel has hue 0).

    Args:
      images: A float `Tensor` whose last dimension is 3 (R, G, B in [0, 1]).
      name: A name for the operation (optional).

    Returns:
      The HSV images, of the type and shape of `images`.

    Raises:
      ValueError: If the last dimension of `images` is statically not 3.
    """
    return ops.apply_op("RGBToHSV", [ops.convert_to_tensor(images, name="images")], name=name or "RGBToHSV")


def hsv_to_rgb(images, name=None):
    """Converts HSV images to RGB.

    Args:
      images: A float `Tensor` whose last dimension is 3 (H, S, V in [0, 1]).
      name: A name for the operation (optional).

    Returns:
      The RGB images, of the type and shape of `images`.

    Raises:
      ValueError: If the last dimension of `images` is statically not 3.
    """
    return ops.apply_op("HSVToRGB", [ops.convert_to_tensor(images, name="images")], name=name or "HSVToRGB")


# ---- AdjustHue / AdjustSaturation ------------------------------------------------------------
def _check_adjust(images, factor, arg):
    _check_adjust_args(images, factor, arg)
    if images.shape[-1] != 3:
        raise _invalid("input must have 3 channels but instead has %d channels." % images.shape[-1])


def _adjust_hue_kernel(xp, images, delta):
    _check_adjust(images, delta, "delta")
    x = images.astype(_F)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    # TF's rgb_to_hv_range: the order of the channels gives the hue sector.
    rg = r < g
    conds = [rg & (b < r), rg & (b > g), rg, b < g, b > r]
    vmax = np.select(conds, [g, b, g, r, b], r)
    vmid = np.select(conds, [r, g, b, g, r], b)
    vmin = np.select(conds, [b, r, r, b, g], g)
    cat = np.select(conds, [1, 3, 2, 0, 4], 5).astype(np.int64)
    with np.errstate(all="ignore"):
        ratio = (vmid - vmin) / (vmax - vmin)
        h = np.where(cat % 2 == 0, cat.astype(_F) + ratio, cat.astype(_F) + (_F(1) - ratio))
        h = np.where(vmax == vmin, _F(0), h).astype(_F)
        h = h + _F(delta) * _F(6)
        for _ in range(64):
            low = h < 0
            if not low.any():
                break
            h = np.where(low, h + _F(6), h)
        for _ in range(64):
            high = h >= 6
            if not high.any():
                break
            h = np.where(high, h - _F(6), h)
        hc = np.where(np.isfinite(h), h, 0).astype(np.int64)
        ratio = h - hc.astype(_F)
        ratio = np.where(hc % 2 == 0, ratio, _F(1) - ratio)
        vmid = vmin + ratio * (vmax - vmin)
    sel = [hc == k for k in range(5)]
    out = [np.select(sel, [vmax, vmid, vmin, vmin, vmid], vmax),
           np.select(sel, [vmid, vmax, vmax, vmid, vmin], vmin),
           np.select(sel, [vmin, vmin, vmid, vmax, vmax], vmid)]
    return np.stack(out, axis=-1).astype(images.dtype)


def _adjust_saturation_kernel(xp, images, scale):
    _check_adjust(images, scale, "scale")
    x = images.astype(_F)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    with np.errstate(all="ignore"):
        # TF's internal rgb_to_hsv (std::max/std::min: max(a, b) = a < b ? b : a)
        gb = np.where(g < b, b, g)
        vv = np.where(r < gb, gb, r)
        gbm = np.where(b < g, b, g)
        rng = vv - np.where(gbm < r, gbm, r)
        s = np.where(vv > 0, rng / vv, _F(0))
        norm = _F(1) / (_F(6) * rng)
        hh = np.where(r == vv, norm * (g - b),
                      np.where(g == vv, ((norm * (b - r)).astype(np.float64) + 2.0 / 6.0).astype(_F),
                               ((norm * (r - g)).astype(np.float64) + 4.0 / 6.0).astype(_F)))
        hh = np.where(rng <= 0, _F(0), hh)
        hh = np.where(hh < 0, hh + _F(1), hh)
        ss = s * _F(scale)
        ss = np.where(_F(0) < ss, ss, _F(0))
        s = np.where(ss < _F(1), ss, _F(1))
        # TF's internal hsv_to_rgb
        c = s * vv
        m = vv - c
        dh = hh * _F(6)
        cat = np.where(np.isfinite(dh), np.trunc(dh), -1).astype(np.int64)
        f = dh
        for _ in range(64):
            low = f <= 0
            if not low.any():
                break
            f = np.where(low, f + _F(2), f)
        for _ in range(64):
            high = f >= 2
            if not high.any():
                break
            f = np.where(high, f - _F(2), f)
        xx = c * (_F(1) - np.abs(f - _F(1)))
        zero = np.zeros_like(c)
        sel = [cat == k for k in range(6)]
        rr = np.select(sel, [c, xx, zero, zero, xx, c], zero)
        gg = np.select(sel, [xx, c, c, xx, zero, zero], zero)
        bb = np.select(sel, [zero, zero, xx, c, c, xx], zero)
        out = [rr + m, gg + m, bb + m]
    return np.stack(out, axis=-1).astype(images.dtype)


register_op("AdjustHue", infer=_adjust_infer("delta"), kernel=_adjust_hue_kernel)
register_op("AdjustSaturation", infer=_adjust_infer("scale"), kernel=_adjust_saturation_kernel)


def adjust_hue(image, delta, name=None):
    """Adjusts the hue of RGB images by rotating it by `delta` (in turns: 1.0 is a full turn).

    Args:
      image: RGB images, at least 3-D, the last dimension 3.
      delta: A float in [-1, 1], the hue rotation.
      name: A name for the operation (optional).

    Returns:
      The hue-adjusted images, of the dtype of `image`.
    """
    with ops.name_scope(name, "adjust_hue", [image]) as name:
        image = ops.convert_to_tensor(image, name="image")
        orig_dtype = image.dtype
        flt = _to_float(image)
        delta = ops.convert_to_tensor(delta, dtype=dtypes.float32, name="delta")
        return convert_image_dtype(ops.apply_op("AdjustHue", [flt, delta], name="AdjustHue"), orig_dtype)


def adjust_saturation(image, saturation_factor, name=None):
    """Adjusts the saturation of RGB images: HSV saturation times `saturation_factor`, clipped to [0, 1].

    Args:
      image: RGB images, at least 3-D, the last dimension 3.
      saturation_factor: A float, the factor to multiply the saturation by.
      name: A name for the operation (optional).

    Returns:
      The saturation-adjusted images, of the dtype of `image`.
    """
    with ops.name_scope(name, "adjust_saturation", [image]) as name:
        image = ops.convert_to_tensor(image, name="image")
        orig_dtype = image.dtype
        flt = _to_float(image)
        factor = ops.convert_to_tensor(saturation_factor, dtype=dtypes.float32, name="saturation_factor")
        return convert_image_dtype(ops.apply_op("AdjustSaturation", [flt, factor], name="AdjustSaturation"),
                                   orig_dtype)


def random_hue(image, max_delta, seed=None):
    """Adjusts the hue of RGB images by a random delta uniform in [-max_delta, max_delta).

    Args:
      image: RGB images, at least 3-D, the last dimension 3.
      max_delta: A float in [0, 0.5].
      seed: A Python integer, the op seed (see `tf.set_random_seed`).

    Returns:
      The hue-adjusted images.

    Raises:
      ValueError: If `max_delta` is outside [0, 0.5].
    """
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    return _random_delta(image, max_delta, seed, adjust_hue)


def random_saturation(image, lower, upper, seed=None):
    """Adjusts the saturation of RGB images by a random factor uniform in [lower, upper).

    Args:
      image: RGB images, at least 3-D, the last dimension 3.
      lower: A float, the lower bound of the factor.
      upper: A float, the upper bound of the factor.
      seed: A Python integer, the op seed (see `tf.set_random_seed`).

    Returns:
      The saturation-adjusted images.

    Raises:
      ValueError: If `upper <= lower` or `lower < 0`.
    """
    return _random_factor(image, lower, upper, seed, adjust_saturation)
