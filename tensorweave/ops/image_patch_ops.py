"""Patch and window ops of `tf.image` (TF's kernels): ExtractImagePatches, ExtractVolumePatches,
ExtractGlimpse, DrawBoundingBoxes(V2) and SampleDistortedBoundingBox(V2).

ExtractImagePatches and ExtractVolumePatches copy values (their gradients are TF's: the patches
of an index image route each output element back to its input pixel, summed with
`unsorted_segment_sum`). ExtractGlimpse follows TF1's kernel (window offsets truncated to
integers; pixels outside the image filled with noise drawn from the image's range, its
moments, or zeros). SampleDistortedBoundingBox runs TF's sampling algorithm on the op's own
seeded NumPy stream: the same seeds give the same boxes across Sessions, but not TF's numbers.
"""

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _check_dtype, _dims, _fmt, _int_list, _value

_F = np.float32
_PATCH_T = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
            dtypes.uint8, dtypes.uint16, dtypes.complex64, dtypes.complex128, dtypes.bool_)


# ---- patch geometry --------------------------------------------------------------------------------
def _out_size(n, k, s, r, padding):
    """TF's GetWindowedOutputSize with dilation: (output size, padding before)."""
    keff = k + (k - 1) * (r - 1)
    if padding == "VALID":
        out = (n - keff + s) // s
        return max(out, 0), 0
    out = (n + s - 1) // s
    return out, max(0, ((out - 1) * s + keff - n) // 2)


def _check_attr_list(op_type, name, v, rank):
    if len(v) != rank or v[0] != 1 or v[-1] != 1:
        raise ValueError("%s only supports %s across space (%s must be a list of %d ints with 1 first and "
                         "last), got %s" % (op_type, name, name, rank, list(v)))
    if any(x <= 0 for x in v):
        raise ValueError("%s: %s must be positive, got %s" % (op_type, name, list(v)))


def _patch_attrs(op):
    rank = 5 if op._type == "ExtractVolumePatches" else 4
    k = list(op._attrs["ksizes"])
    s = list(op._attrs["strides"])
    r = list(op._attrs.get("rates", [1] * rank))
    return k, s, r, op._attrs["padding"]


def _patches_infer(op):
    x = op._inputs[0]
    _check_dtype(x, _PATCH_T, "images" if op._type == "ExtractImagePatches" else "input", op._type)
    k, s, r, padding = _patch_attrs(op)
    rank = len(k)
    for name, v in (("ksizes", k), ("strides", s), ("rates", r)):
        _check_attr_list(op._type, name, v, rank)
    if padding not in ("SAME", "VALID"):
        raise ValueError("padding must be SAME or VALID, got %s" % padding)
    d = _dims(x)
    if d is None:
        return [(x._dtype, (None,) * rank)]
    if len(d) != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(d)))
    spatial = []
    for i in range(1, rank - 1):
        if d[i] is None:
            spatial.append(None)
            continue
        keff = k[i] + (k[i] - 1) * (r[i] - 1)
        if padding == "VALID" and d[i] < keff:
            raise ValueError("Computed output size would be negative: %d [input_size: %d, effective_filter_size: "
                             "%d, stride: %d]" % (d[i] - keff, d[i], keff, s[i]))
        spatial.append(_out_size(d[i], k[i], s[i], r[i], padding)[0])
    depth = None if d[-1] is None else d[-1] * int(np.prod(k[1:-1]))
    return [(x._dtype, (d[0],) + tuple(spatial) + (depth,))]


def _patches_kernel(xp, x, ksizes, strides, padding, rates=None):
    rank = len(ksizes)
    rates = list(rates) if rates is not None else [1] * rank
    if x.ndim != rank:
        raise _invalid("input must be %d-dimensional%s" % (rank, _fmt(x.shape)))
    nsp = rank - 2
    outs, pads = [], []
    for i in range(1, rank - 1):
        o, p = _out_size(x.shape[i], ksizes[i], strides[i], rates[i], padding)
        keff = ksizes[i] + (ksizes[i] - 1) * (rates[i] - 1)
        if padding == "VALID" and x.shape[i] < keff:
            raise _invalid("Computed output size would be negative")
        outs.append(o)
        pads.append(p)
    big = [max(0, (outs[j] - 1) * strides[j + 1] + (ksizes[j + 1] - 1) * rates[j + 1] + 1 - pads[j]
               - x.shape[j + 1]) for j in range(nsp)]
    padded = np.pad(x, [(0, 0)] + [(pads[j], big[j]) for j in range(nsp)] + [(0, 0)])
    pieces = []
    for offs in np.ndindex(*ksizes[1:-1]):
        idx = [slice(None)]
        for j in range(nsp):
            start = offs[j] * rates[j + 1]
            idx.append(slice(start, start + (outs[j] - 1) * strides[j + 1] + 1 if outs[j] else start,
                             strides[j + 1]))
        idx.append(slice(None))
        pieces.append(padded[tuple(idx)][(slice(None),) + tuple(slice(0, o) for o in outs)])
    out = np.stack(pieces, axis=-2)
    return np.ascontiguousarray(out.reshape((x.shape[0],) + tuple(outs) + (len(pieces) * x.shape[-1],)))


def _patches_grad(op, grad):
    """TF's gradient: the patches of an image of input positions (1-based; 0 marks padding) say
    where each output element came from; the gradient sums into those positions."""
    from .array_permute_ops import transpose
    from .array_shape_ops import reshape
    from .core_ops import shape
    from .segment_ops import unsorted_segment_sum
    x = op._inputs[0]
    d = _dims(x)
    rank = len(op._attrs["ksizes"])
    if d is None or any(v is None for v in d[1:-1]):
        raise ValueError("%s's gradient needs the spatial dimensions of its input" % op._type)
    spatial = d[1:-1]
    n_in = int(np.prod(spatial))
    idx = np.arange(1, n_in + 1, dtype=np.int64).reshape((1,) + tuple(spatial) + (1,))
    attrs = dict(op._attrs)
    idx_patched = ops.apply_op(op._type, [ops.convert_to_tensor(idx)], attrs)
    ksize = int(np.prod(op._attrs["ksizes"][1:-1]))
    xs = shape(x)
    batch, depth = xs[0], xs[rank - 1]
    g = reshape(grad, [batch, -1, ksize, depth])  # [b, out positions, k, depth]
    g = transpose(g, [1, 2, 0, 3])
    g = reshape(g, _concat_shape(batch, depth))
    ids = reshape(idx_patched, [-1])
    summed = unsorted_segment_sum(g, ids, n_in + 1)[1:]
    out = reshape(summed, _spatial_shape(spatial, batch, depth))
    perm = [len(spatial)] + list(range(len(spatial))) + [len(spatial) + 1]
    return [transpose(out, perm)]


def _concat_shape(batch, depth):
    from .array_join_ops import stack
    return stack([-1, batch, depth])


def _spatial_shape(spatial, batch, depth):
    from .array_join_ops import stack
    return stack(list(spatial) + [batch, depth])


register_op("ExtractImagePatches", infer=_patches_infer, kernel=_patches_kernel, grad=_patches_grad)
register_op("ExtractVolumePatches", infer=_patches_infer, kernel=_patches_kernel, grad=_patches_grad)


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None, name=None, sizes=None):
    """Extracts `ksizes` patches from images into the depth dimension.

    Args:
      images: A 4-D `Tensor` `[batch, in_rows, in_cols, depth]`.
      ksizes: `[1, ksize_rows, ksize_cols, 1]`, the patch size (`sizes` is its TF 2 name).
      strides: `[1, stride_rows, stride_cols, 1]`, the distance between patch centres.
      rates: `[1, rate_rows, rate_cols, 1]`, the sampling dilation inside a patch.
      padding: "VALID" or "SAME" (zero padding).
      name: A name for the operation (optional).
      sizes: Alias of `ksizes`.

    Returns:
      A `Tensor` `[batch, out_rows, out_cols, ksize_rows * ksize_cols * depth]` of the dtype of
      `images`, each patch's pixels in row-major order.

    Raises:
      ValueError: For bad attributes or static shapes.
    """
    if (ksizes is None) == (sizes is None):
        raise ValueError("Provide exactly one of ksizes and sizes")
    ksizes = ksizes if ksizes is not None else sizes
    images = ops.convert_to_tensor(images, name="images")
    attrs = {"ksizes": _int_list(ksizes), "strides": _int_list(strides), "rates": _int_list(rates),
             "padding": padding}
    return ops.apply_op("ExtractImagePatches", [images], attrs, name=name or "ExtractImagePatches")


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """TF 2's name of `extract_image_patches` (`sizes` for `ksizes`).

    Args:
      images, sizes, strides, rates, padding, name: As for `extract_image_patches`.

    Returns:
      The patches `Tensor`.
    """
    return extract_image_patches(images, sizes=sizes, strides=strides, rates=rates, padding=padding, name=name)


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002 (TF's argument name)
    """Extracts `ksizes` patches from 3-D volumes into the depth dimension.

    Args:
      input: A 5-D `Tensor` `[batch, in_planes, in_rows, in_cols, depth]`.
      ksizes: `[1, ksize_planes, ksize_rows, ksize_cols, 1]`.
      strides: `[1, stride_planes, stride_rows, stride_cols, 1]`.
      padding: "VALID" or "SAME".
      name: A name for the operation (optional).

    Returns:
      A `Tensor` `[batch, out_planes, out_rows, out_cols, ksize_planes * ksize_rows * ksize_cols * depth]`.
    """
    x = ops.convert_to_tensor(input, name="input")
    return ops.apply_op("ExtractVolumePatches", [x], {"ksizes": _int_list(ksizes), "strides": _int_list(strides),
                                                      "padding": padding}, name=name or "ExtractVolumePatches")


# ---- ExtractGlimpse --------------------------------------------------------------------------------
def _ranked_dims(t, rank):
    """`t`'s static dims (None if unknown), checked to be of rank `rank`."""
    d = _dims(t)
    if d is not None and len(d) != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(d)))
    return d


def _boxes_dims(boxes):
    """The static dims of a `[batch, num_boxes, 4]` boxes tensor (None if unknown), checked."""
    bd = _ranked_dims(boxes, 3)
    if bd is not None and bd[2] is not None and bd[2] != 4:
        raise ValueError("Dimension must be 4 but is %d" % bd[2])
    return bd


def _glimpse_infer(op):
    x, size, offsets = op._inputs
    _check_dtype(x, (dtypes.float32,), "input", op._type)
    _check_dtype(size, (dtypes.int32,), "size", op._type)
    _check_dtype(offsets, (dtypes.float32,), "offsets", op._type)
    d = _ranked_dims(x, 4)
    od = _ranked_dims(offsets, 2)
    sd = _dims(size)
    if sd is not None and (len(sd) != 1 or (sd[0] is not None and sd[0] != 2)):
        raise ValueError("size must be a vector of 2 elements, got %s" % _fmt(sd))
    noise = op._attrs.get("noise", "uniform")
    if op._attrs.get("uniform_noise", True) and noise not in ("", "uniform"):
        raise ValueError("The uniform_noise and noise should not be specified at the same time")
    h = w = None
    v = _value(size)
    if v is not None:
        h, w = _int_list(v)
    b = d[0] if d is not None else None
    if b is None and od is not None:
        b = od[0]
    return [(dtypes.float32, (b, h, w, d[3] if d is not None else None))]


def _glimpse_kernel(ctx, op, x, size, offsets, centered=True, normalized=True, uniform_noise=True,
                    noise="uniform"):
    if x.ndim != 4:
        raise _invalid("input must be 4-dimensional%s" % _fmt(x.shape))
    size = np.asarray(size).reshape(-1)
    if size.shape != (2,):
        raise _invalid("input must be a vector of size 2 (height, width), got %s" % _fmt(np.shape(size)))
    gh, gw = int(size[0]), int(size[1])
    if gh <= 0 or gw <= 0:
        raise _invalid("input must be a vector of size 2 (height, width)")
    batch, ih, iw, depth = x.shape
    if offsets.ndim != 2 or offsets.shape[0] != batch or offsets.shape[1] != 2:
        raise _invalid("offsets must be a matrix [batch_size, 2], got %s" % _fmt(offsets.shape))
    if uniform_noise and noise not in ("", "uniform"):
        raise _invalid("The uniform_noise and noise should not be specified at the same time")
    mode = ("uniform" if uniform_noise else "gaussian") if noise == "" else noise
    if mode not in ("uniform", "gaussian", "zero"):
        raise _invalid("Only 'uniform', 'gaussian' and 'zero' noise are supported, got %s" % noise)
    out = np.zeros((batch, gh, gw, depth), _F)
    rng = None
    for b in range(batch):
        img = x[b].astype(_F)
        y, xx = _F(offsets[b, 0]), _F(offsets[b, 1])
        if normalized:
            xx = _F(xx * _F(iw))
            y = _F(y * _F(ih))
        if centered:
            xx = _F(_F(xx / _F(2)) + _F(iw / 2.0))
            y = _F(_F(y / _F(2)) + _F(ih / 2.0))
        xx = _F(xx - _F(gw / 2.0))
        y = _F(y - _F(gh / 2.0))
        oy, ox = int(y), int(xx)
        ys, xs = oy + np.arange(gh), ox + np.arange(gw)
        oky, okx = (ys >= 0) & (ys < ih), (xs >= 0) & (xs < iw)
        full = oky.all() and okx.all()
        if not full and mode != "zero" and img.size:
            if rng is None:
                from .random_ops import _generator
                rng = _generator(ctx, op, 0, 0)
            if mode == "uniform":
                lo = img.min()
                out[b] = lo + rng.random((gh, gw, depth), dtype=_F) * (img.max() - lo)
            else:
                out[b] = img.mean() + img.std() * rng.standard_normal((gh, gw, depth)).astype(_F)
        sub = img[ys[oky]][:, xs[okx]]
        out[b][np.ix_(oky, okx)] = sub
    return out


register_op("ExtractGlimpse", infer=_glimpse_infer, kernel=_glimpse_kernel, grad=NO_GRADIENT, stateful=True)


def extract_glimpse(input, size, offsets, centered=True, normalized=True, uniform_noise=True,  # noqa: A002
                    name=None):
    """Extracts a `size` window ("glimpse") from each image at `offsets`; pixels of a window
    outside its image are filled with uniform noise over the image's value range.

    Args:
      input: A 4-D float32 `Tensor` `[batch, height, width, channels]`.
      size: A 1-D int32 `Tensor` of 2 elements, the glimpse `[height, width]`.
      offsets: A 2-D float32 `Tensor` `[batch, 2]`, the `(y, x)` of each window's centre.
      centered: Whether offsets are relative to the image centre (in [-1, 1] when normalized).
      normalized: Whether offsets are fractions of the image size.
      uniform_noise: Kept for TF1 compatibility: the noise is uniform, as TF's default `noise`
        attribute makes it.
      name: A name for the operation (optional).

    Returns:
      A float32 `Tensor` `[batch, size[0], size[1], channels]`.
    """
    x = ops.convert_to_tensor(input, dtype=dtypes.float32, name="input")
    size = ops.convert_to_tensor(size, dtype=dtypes.int32, name="size")
    offsets = ops.convert_to_tensor(offsets, dtype=dtypes.float32, name="offsets")
    return ops.apply_op("ExtractGlimpse", [x, size, offsets], {
        "centered": bool(centered), "normalized": bool(normalized), "uniform_noise": bool(uniform_noise),
        "noise": "uniform"}, name=name or "ExtractGlimpse")


# ---- DrawBoundingBoxes -----------------------------------------------------------------------------
_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                            [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], _F)


def _draw_infer(op):
    images, boxes = op._inputs[:2]
    _check_dtype(images, (dtypes.float32, dtypes.float16), "images", op._type)
    _check_dtype(boxes, (dtypes.float32,), "boxes", op._type)
    d = _ranked_dims(images, 4)
    _boxes_dims(boxes)
    if len(op._inputs) == 3:
        _check_dtype(op._inputs[2], (dtypes.float32,), "colors", op._type)
    return [(images._dtype, d)]


def _draw_kernel(xp, images, boxes, colors=None):
    if images.ndim != 4:
        raise _invalid("The rank of the images should be 4")
    batch, h, w, depth = images.shape
    if depth not in (1, 3, 4):
        raise _invalid("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    if boxes.ndim != 3 or boxes.shape[2] != 4:
        raise _invalid("The size of the last dimension of boxes should be 4%s" % _fmt(boxes.shape))
    if boxes.shape[0] != batch:
        raise _invalid("The batch sizes of images and boxes should be the same")
    table = _DEFAULT_COLORS.copy()
    if colors is not None:
        if colors.ndim != 2:
            raise _invalid("colors must be a 2-D matrix%s" % _fmt(colors.shape))
        if colors.shape[1] < depth:
            raise _invalid("colors must have equal or more channels than the image provided%s" % _fmt(colors.shape))
        if colors.size:
            table = np.zeros((colors.shape[0], 4), _F)
            table[:, :min(4, colors.shape[1])] = colors[:, :4]
    if depth == 1 and (colors is None or colors.size == 0):
        table[:, 0] = 1
    canvas = images.copy()
    for b in range(batch):
        for k in range(boxes.shape[1]):
            color = table[k % table.shape[0], :depth].astype(images.dtype)
            y0 = int(_F(boxes[b, k, 0]) * _F(h - 1))
            y1 = int(_F(boxes[b, k, 2]) * _F(h - 1))
            x0 = int(_F(boxes[b, k, 1]) * _F(w - 1))
            x1 = int(_F(boxes[b, k, 3]) * _F(w - 1))
            if y0 > y1 or x0 > x1 or y0 >= h or y1 < 0 or x0 >= w or x1 < 0:
                continue
            y0c, y1c, x0c, x1c = max(y0, 0), min(y1, h - 1), max(x0, 0), min(x1, w - 1)
            if y0 >= 0:
                canvas[b, y0, x0c:x1c + 1] = color
            if y1 < h:
                canvas[b, y1, x0c:x1c + 1] = color
            if x0 >= 0:
                canvas[b, y0c:y1c + 1, x0] = color
            if x1 < w:
                canvas[b, y0c:y1c + 1, x1] = color
    return canvas


register_op("DrawBoundingBoxes", infer=_draw_infer, kernel=lambda xp, images, boxes: _draw_kernel(xp, images, boxes),
            grad=NO_GRADIENT)
register_op("DrawBoundingBoxesV2", infer=_draw_infer, kernel=_draw_kernel, grad=NO_GRADIENT)


def draw_bounding_boxes(images, boxes, name=None, colors=None):
    """Draws the outlines of boxes on images (colors cycle through `colors`, or TF's table).

    Args:
      images: A 4-D float32 or float16 `Tensor` `[batch, height, width, depth]`, depth 1, 3 or 4
        (other values are converted to float32).
      boxes: A 3-D float32 `Tensor` `[batch, num_boxes, 4]` of normalized `[y_min, x_min, y_max, x_max]`.
      name: A name for the operation (optional).
      colors: An optional 2-D float32 `Tensor` `[num_colors, >= depth]` of RGBA colors.

    Returns:
      The images with the boxes drawn, of the dtype of `images`.
    """
    if not isinstance(images, ops.Tensor):
        arr = np.asarray(images)
        images = ops.convert_to_tensor(arr if arr.dtype in (np.float16, np.float32) else arr.astype(_F))
    boxes = ops.convert_to_tensor(boxes, dtype=dtypes.float32, name="boxes")
    if colors is None:
        return ops.apply_op("DrawBoundingBoxes", [images, boxes], {}, name=name or "DrawBoundingBoxes")
    colors = ops.convert_to_tensor(colors, dtype=dtypes.float32, name="colors")
    return ops.apply_op("DrawBoundingBoxesV2", [images, boxes, colors], {}, name=name or "DrawBoundingBoxesV2")


# ---- SampleDistortedBoundingBox --------------------------------------------------------------------
_SIZE_T = (dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)


def _sdbb_infer(op):
    size, boxes = op._inputs[:2]
    _check_dtype(size, _SIZE_T, "image_size", op._type)
    _check_dtype(boxes, (dtypes.float32,), "bounding_boxes", op._type)
    sd = _dims(size)
    if sd is not None and (len(sd) != 1 or (sd[0] is not None and sd[0] != 3)):
        raise ValueError("image_size must be a vector of 3 elements, got %s" % _fmt(sd))
    _boxes_dims(boxes)
    if len(op._inputs) == 3:
        _ranked_dims(op._inputs[2], 0)
    return [(size._dtype, (3,)), (size._dtype, (3,)), (dtypes.float32, (1, 1, 4))]


def _lrint(v):
    return int(np.rint(_F(v)))


def _random_crop_rect(rng, width, height, min_area_f, max_area_f, aspect):
    """TF's GenerateRandomCrop: (x, y, w, h) or None."""
    min_area = _F(_F(min_area_f) * _F(width) * _F(height))
    max_area = _F(_F(max_area_f) * _F(width) * _F(height))
    h = _lrint(np.sqrt(_F(min_area / aspect), dtype=_F))
    max_h = _lrint(np.sqrt(_F(max_area / aspect), dtype=_F))
    if _lrint(_F(max_h) * aspect) > width:
        max_h = int((width + 0.5 - 1e-7) / float(aspect))
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += int(rng.integers(0, max_h - h + 1))
    w = _lrint(_F(h) * aspect)
    area = _F(w * h)
    if area < min_area:
        h += 1
        w = _lrint(_F(h) * aspect)
        area = _F(w * h)
    if area > max_area:
        h -= 1
        w = _lrint(_F(h) * aspect)
        area = _F(w * h)
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = int(rng.integers(0, height - h)) if h < height else 0
    x = int(rng.integers(0, width - w)) if w < width else 0
    return x, y, w, h


def _covers(rect, min_covered, boxes):
    """TF's SatisfiesOverlapConstraints."""
    x, y, w, h = rect
    if w * h < 1:
        return False
    for bx0, by0, bx1, by1 in boxes:
        area = (bx1 - bx0) * (by1 - by0)
        if area < 1:
            continue
        iw = max(0, min(bx1, x + w) - max(bx0, x))
        ih = max(0, min(by1, y + h) - max(by0, y))
        if _F(iw * ih) / _F(area) >= min_covered:
            return True
    return False


def _sdbb_kernel(ctx, op, image_size, bounding_boxes, min_object_covered=0.1, seed=0, seed2=0,
                 aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), max_attempts=100,
                 use_image_if_no_bounding_boxes=False):
    from .random_ops import _generator
    size = np.asarray(image_size).reshape(-1)
    if size.shape != (3,):
        raise _invalid("image_size must be 1-dimensional with 3 elements%s" % _fmt(np.shape(image_size)))
    height, width = int(size[0]), int(size[1])
    if height <= 0 or width <= 0:
        raise _invalid("image height and width must be positive")
    boxes_in = np.asarray(bounding_boxes)
    if boxes_in.ndim != 3 or boxes_in.shape[2] != 4:
        raise _invalid("input boxes must be 3-dimensional [batch, num_boxes, coords]%s" % _fmt(boxes_in.shape))
    min_covered = float(np.asarray(min_object_covered))
    if min_covered < 0:
        raise _invalid("min_object_covered must be non-negative: %g" % min_covered)
    if max_attempts <= 0:
        raise _invalid("max_attempts must be positive: %d" % max_attempts)
    ar = [float(v) for v in aspect_ratio_range]
    area = [float(v) for v in area_range]
    if len(ar) != 2 or ar[0] <= 0 or ar[1] <= 0:
        raise _invalid("aspect_ratio_range must contain 2 positive values")
    if len(area) != 2 or not (0 < area[0] <= 1 and 0 < area[1] <= 1):
        raise _invalid("area_range must contain 2 values in (0, 1]")
    flat = boxes_in.reshape(-1, 4).astype(_F)
    if flat.size and (np.any(flat < 0) | np.any(flat > 1) | np.isnan(flat).any()):
        raise _invalid("All bounding box coordinates must be in [0.0, 1.0]")
    rects = [(int(_F(b[1]) * _F(width)), int(_F(b[0]) * _F(height)), int(_F(b[3]) * _F(width)),
              int(_F(b[2]) * _F(height))) for b in flat]
    if not rects:
        if not use_image_if_no_bounding_boxes:
            raise _invalid("No bounding boxes provided as input. One must enable use_image_if_no_bounding_boxes "
                           "if you wish to not provide any bounding boxes.")
        rects = [(0, 0, width, height)]
    rng = _generator(ctx, op, seed, seed2)
    crop = None
    for _ in range(int(max_attempts)):
        aspect = _F(_F(rng.random(dtype=np.float32)) * _F(ar[1] - ar[0]) + _F(ar[0]))
        rect = _random_crop_rect(rng, width, height, area[0], area[1], aspect)
        if rect is not None and _covers(rect, min_covered, rects):
            crop = rect
            break
    if crop is None:
        crop = (0, 0, width, height)
    x, y, w, h = crop
    dt = np.asarray(image_size).dtype
    begin = np.array([y, x, 0]).astype(dt)
    out_size = np.array([h, w, -1]).astype(dt)
    bbox = np.array([[[_F(y) / _F(height), _F(x) / _F(width), _F(y + h) / _F(height), _F(x + w) / _F(width)]]], _F)
    return begin, out_size, bbox


register_op("SampleDistortedBoundingBox", infer=_sdbb_infer, stateful=True, grad=NO_GRADIENT,
            kernel=lambda ctx, op, image_size, bounding_boxes, min_object_covered=0.1, **kw: _sdbb_kernel(
                ctx, op, image_size, bounding_boxes, min_object_covered, **kw))
register_op("SampleDistortedBoundingBoxV2", infer=_sdbb_infer, kernel=_sdbb_kernel, stateful=True, grad=NO_GRADIENT)


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=None, seed2=None, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """Draws a random crop window of an image that covers at least `min_object_covered` of one of
    `bounding_boxes`, with an aspect ratio and area in the given ranges (TF's algorithm on the op's
    seeded stream: TF's exact numbers are not reproduced).

    Args:
      image_size: A 1-D integer `Tensor` `[height, width, channels]`.
      bounding_boxes: A 3-D float32 `Tensor` `[batch, N, 4]` of normalized `[y_min, x_min, y_max, x_max]`.
      seed: The op's seed (TF1 passes it as is: 0 or None with `seed2` 0 is nondeterministic).
      seed2: A second seed.
      min_object_covered: The fraction of a box the crop must cover (a float or 0-D `Tensor`).
      aspect_ratio_range: `[min, max]` width/height ratios (default [0.75, 1.33]).
      area_range: `[min, max]` fractions of the image area (default [0.05, 1.0]).
      max_attempts: The tries before the whole image is returned (default 100).
      use_image_if_no_bounding_boxes: Whether no boxes means the whole image (else an error).
      name: A name for the operation (optional).

    Returns:
      `(begin, size, bboxes)`: `begin` and `size` for `tf.slice`, and the crop as a `[1, 1, 4]` box.
    """
    image_size = ops.convert_to_tensor(image_size, name="image_size")
    boxes = ops.convert_to_tensor(bounding_boxes, dtype=dtypes.float32, name="bounding_boxes")
    moc = ops.convert_to_tensor(min_object_covered, dtype=dtypes.float32, name="min_object_covered")
    attrs = {"seed": int(seed or 0), "seed2": int(seed2 or 0),
             "aspect_ratio_range": [float(v) for v in (aspect_ratio_range or (0.75, 1.33))],
             "area_range": [float(v) for v in (area_range or (0.05, 1.0))],
             "max_attempts": int(max_attempts or 100),
             "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes)}
    return tuple(ops.apply_op("SampleDistortedBoundingBoxV2", [image_size, boxes, moc], attrs,
                              name=name or "SampleDistortedBoundingBoxV2"))
