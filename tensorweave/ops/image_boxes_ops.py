"""Box ops of `tf.image` (TF's `image_ops` box kernels): NonMaxSuppression (V1 to V5, soft-NMS in
V5), NonMaxSuppressionWithOverlaps, CombinedNonMaxSuppression, CropAndResize and its gradient ops
CropAndResizeGradImage and CropAndResizeGradBoxes.

The kernels follow TF's CPU kernels: the IOU and the crop coordinates are computed in float32 with
TF's order of operations, candidates are taken by descending score (ties: lower index first), and
the gradient sums run in TF's loop order, so the values are TF's bit for bit (tests).
"""

import heapq

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _check_dtype, _dims, _fmt, _int_list, _value

_F = np.float32
_NMS_T = (dtypes.float16, dtypes.float32)
_CROP_T = (dtypes.uint8, dtypes.uint16, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.float16,
           dtypes.float32, dtypes.float64)
_CROP_GRAD_T = (dtypes.float16, dtypes.float32, dtypes.float64)


# ---- NMS: static shapes ----------------------------------------------------------------------------
def _rank(t, rank, what):
    d = _dims(t)
    if d is not None and len(d) != rank:
        raise ValueError("Shape must be rank %d but is rank %d (%s)" % (rank, len(d), what))
    return d


def _nms_infer(op):
    t = op._type
    boxes, scores, max_out = op._inputs[:3]
    if t == "NonMaxSuppressionWithOverlaps":
        _check_dtype(boxes, (dtypes.float32,), "overlaps", t)
        od = _rank(boxes, 2, "overlaps")
        if od is not None and None not in od and od[0] != od[1]:
            raise ValueError("Dimensions must be equal, but are %d and %d for overlaps" % od)
    else:
        _check_dtype(boxes, _NMS_T, "boxes", t)
        bd = _rank(boxes, 2, "boxes")
        if bd is not None and bd[1] is not None and bd[1] != 4:
            raise ValueError("Dimension must be 4 but is %d (boxes)" % bd[1])
    if scores._dtype is not boxes._dtype:
        raise TypeError("Input 'scores' of '%s' Op has type %s that does not match type %s of argument 'boxes'."
                        % (t, scores._dtype.name, boxes._dtype.name))
    sd = _rank(scores, 1, "scores")
    bd = _dims(boxes)
    if sd is not None and bd is not None and sd[0] is not None and bd[0] is not None and sd[0] != bd[0]:
        raise ValueError("Dimensions must be equal, but are %d and %d (scores and boxes)" % (bd[0], sd[0]))
    _check_dtype(max_out, (dtypes.int32,), "max_output_size", t)
    _rank(max_out, 0, "max_output_size")
    for th in op._inputs[3:]:
        _rank(th, 0, "thresholds")
        if t == "NonMaxSuppressionV5" and th._dtype is not boxes._dtype:
            raise TypeError("Input 'iou_threshold' of 'NonMaxSuppressionV5' Op has type %s that does not match type "
                            "%s of argument 'boxes'." % (th._dtype.name, boxes._dtype.name))
    n = None
    if op._attrs.get("pad_to_max_output_size", False):
        v = _value(max_out)
        n = int(v) if v is not None else None
    if t == "NonMaxSuppressionV4":
        return [(dtypes.int32, (n,)), (dtypes.int32, ())]
    if t == "NonMaxSuppressionV5":
        return [(dtypes.int32, (n,)), (boxes._dtype, (n,)), (dtypes.int32, ())]
    return [(dtypes.int32, (None,))]


# ---- NMS: kernels ----------------------------------------------------------------------------------
def _check_nms_inputs(boxes, scores, max_output_size, iou_threshold=None, overlaps=False):
    if overlaps:
        if boxes.ndim != 2 or boxes.shape[0] != boxes.shape[1]:
            raise _invalid("overlaps must be 2-D and square%s" % _fmt(boxes.shape))
    else:
        if boxes.ndim != 2:
            raise _invalid("boxes must be 2-D%s" % _fmt(boxes.shape))
        if boxes.shape[1] != 4:
            raise _invalid("boxes must have 4 columns%s" % _fmt(boxes.shape))
    if scores.ndim != 1:
        raise _invalid("scores must be 1-D%s" % _fmt(scores.shape))
    if scores.shape[0] != boxes.shape[0]:
        raise _invalid("scores has incompatible shape")
    if np.ndim(max_output_size) != 0:
        raise _invalid("max_output_size must be 0-D, got shape %s" % _fmt(np.shape(max_output_size)))
    if int(max_output_size) < 0:
        raise _invalid("max_output_size must be non-negative, got %d" % int(max_output_size))
    if iou_threshold is not None:
        if np.ndim(iou_threshold) != 0:
            raise _invalid("iou_threshold must be 0-D, got shape %s" % _fmt(np.shape(iou_threshold)))
        if not 0 <= float(iou_threshold) <= 1:
            raise _invalid("iou_threshold must be in [0, 1]")


def _corners(boxes):
    """Each box's min/max corners and area in float32 (half boxes too, as TF's kernel computes)."""
    b = boxes.astype(_F)
    ymin, xmin = np.minimum(b[:, 0], b[:, 2]), np.minimum(b[:, 1], b[:, 3])
    ymax, xmax = np.maximum(b[:, 0], b[:, 2]), np.maximum(b[:, 1], b[:, 3])
    return ymin, xmin, ymax, xmax, (ymax - ymin) * (xmax - xmin)


def _iou_one_to_many(c, i, js):
    """TF's IOU of box i with boxes js, in float32 (0 where an area is not positive)."""
    ymin, xmin, ymax, xmax, area = c
    dt = area.dtype.type
    iy0 = np.maximum(ymin[i], ymin[js])
    ix0 = np.maximum(xmin[i], xmin[js])
    iy1 = np.minimum(ymax[i], ymax[js])
    ix1 = np.minimum(xmax[i], xmax[js])
    inter = np.maximum(iy1 - iy0, dt(0)) * np.maximum(ix1 - ix0, dt(0))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        iou = inter / (area[i] + area[js] - inter)
    return np.where((area[i] <= 0) | (area[js] <= 0), dt(0), iou).astype(_F)


def _order(scores, score_threshold):
    """Candidate indices above the threshold, by descending score, ties by ascending index."""
    idx = np.nonzero(scores > score_threshold)[0]
    return idx[np.lexsort((idx, -scores[idx].astype(np.float64)))]


def _hard_nms(sim_fn, scores, max_output_size, threshold, score_threshold):
    """Greedy NMS: each candidate (by descending score) is kept unless its similarity with a kept
    one exceeds `threshold` (vectorized: each kept candidate removes those it suppresses)."""
    rest = _order(scores, score_threshold)
    selected = []
    while rest.size and len(selected) < max_output_size:
        i = rest[0]
        selected.append(i)
        rest = rest[1:]
        if rest.size:
            rest = rest[~(sim_fn(i, rest) > threshold)]
    return np.array(selected, np.int64)


def _soft_nms(sim_fn, scores, max_output_size, threshold, score_threshold, sigma):
    """TF's DoNonMaxSuppressionOp with soft suppression (a priority queue of candidates whose
    scores decay by exp(-sim^2 / (2 sigma)) against each selected box)."""
    scale = _F(-0.5) / _F(sigma)
    heap = [(-float(scores[i]), int(i), int(i), 0, _F(scores[i])) for i in np.nonzero(scores > score_threshold)[0]]
    heapq.heapify(heap)
    selected, sel_scores = [], []
    while len(selected) < max_output_size and heap:
        _, _, i, begin, score = heapq.heappop(heap)
        original = score
        if begin < len(selected):
            sims = sim_fn(i, np.array(selected[begin:][::-1], np.int64))
            for s in sims:
                score = _F(score * _F(np.exp(np.float64(_F(scale * s * s)))))
                if score <= score_threshold:
                    break
        begin = len(selected)
        if score == original:
            selected.append(i)
            sel_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(heap, (-float(score), i, i, begin, score))
    return np.array(selected, np.int64), np.array(sel_scores, _F)


def _nms_core(boxes, scores, max_output_size, iou_threshold, score_threshold, sigma=0.0, overlaps=False):
    scores32 = scores.astype(_F)
    thr = _F(iou_threshold)
    sthr = _F(score_threshold)
    if overlaps:
        ov = boxes.astype(_F)

        def sim(i, js):
            return ov[i, js]
    else:
        c = _corners(boxes)

        def sim(i, js):
            return _iou_one_to_many(c, i, js)
    n = int(max_output_size)
    if sigma > 0:
        return _soft_nms(sim, scores32, n, thr, sthr, sigma)
    sel = _hard_nms(sim, scores32, n, thr, sthr)
    return sel, scores32[sel]


_LOWEST = float(np.finfo(np.float32).min)


def _nms_v1_kernel(xp, boxes, scores, max_output_size, iou_threshold=0.5):
    _check_nms_inputs(boxes, scores, max_output_size, iou_threshold)
    return _nms_core(boxes, scores, max_output_size, iou_threshold, _LOWEST)[0].astype(np.int32)


def _nms_v2_kernel(xp, boxes, scores, max_output_size, iou_threshold):
    _check_nms_inputs(boxes, scores, max_output_size, iou_threshold)
    return _nms_core(boxes, scores, max_output_size, iou_threshold, _LOWEST)[0].astype(np.int32)


def _nms_v3_kernel(xp, boxes, scores, max_output_size, iou_threshold, score_threshold):
    _check_nms_inputs(boxes, scores, max_output_size, iou_threshold)
    return _nms_core(boxes, scores, max_output_size, iou_threshold, float(score_threshold))[0].astype(np.int32)


def _pad(a, n, pad):
    if not pad or a.size >= n:
        return a
    return np.concatenate([a, np.zeros(n - a.size, a.dtype)])


def _nms_v4_kernel(xp, boxes, scores, max_output_size, iou_threshold, score_threshold,
                   pad_to_max_output_size=False):
    _check_nms_inputs(boxes, scores, max_output_size, iou_threshold)
    sel = _nms_core(boxes, scores, max_output_size, iou_threshold, float(score_threshold))[0].astype(np.int32)
    return _pad(sel, int(max_output_size), pad_to_max_output_size), np.array(sel.size, np.int32)


def _nms_v5_kernel(xp, boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma,
                   pad_to_max_output_size=False):
    _check_nms_inputs(boxes, scores, max_output_size, iou_threshold)
    if np.ndim(soft_nms_sigma) != 0:
        raise _invalid("soft_nms_sigma must be 0-D, got shape %s" % _fmt(np.shape(soft_nms_sigma)))
    if float(soft_nms_sigma) < 0:
        raise _invalid("soft_nms_sigma must be non-negative")
    sel, sc = _nms_core(boxes, scores, max_output_size, iou_threshold, float(score_threshold),
                        float(soft_nms_sigma))
    n = int(max_output_size)
    return (_pad(sel.astype(np.int32), n, pad_to_max_output_size),
            _pad(sc.astype(scores.dtype), n, pad_to_max_output_size), np.array(sel.size, np.int32))


def _nms_overlaps_kernel(xp, overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    _check_nms_inputs(overlaps, scores, max_output_size, overlaps=True)
    return _nms_core(overlaps, scores, max_output_size, float(overlap_threshold), float(score_threshold),
                     overlaps=True)[0].astype(np.int32)


register_op("NonMaxSuppression", infer=_nms_infer, kernel=_nms_v1_kernel, grad=NO_GRADIENT)
register_op("NonMaxSuppressionV2", infer=_nms_infer, kernel=_nms_v2_kernel, grad=NO_GRADIENT)
register_op("NonMaxSuppressionV3", infer=_nms_infer, kernel=_nms_v3_kernel, grad=NO_GRADIENT)
register_op("NonMaxSuppressionV4", infer=_nms_infer, kernel=_nms_v4_kernel, grad=NO_GRADIENT)
register_op("NonMaxSuppressionV5", infer=_nms_infer, kernel=_nms_v5_kernel, grad=NO_GRADIENT)
register_op("NonMaxSuppressionWithOverlaps", infer=_nms_infer, kernel=_nms_overlaps_kernel, grad=NO_GRADIENT)


# ---- CombinedNonMaxSuppression ---------------------------------------------------------------------
def _combined_infer(op):
    boxes, scores, per_class, total, iou, score = op._inputs
    _check_dtype(boxes, (dtypes.float32,), "boxes", op._type)
    _check_dtype(scores, (dtypes.float32,), "scores", op._type)
    bd, sd = _rank(boxes, 4, "boxes"), _rank(scores, 3, "scores")
    for t in (per_class, total, iou, score):
        _rank(t, 0, "scalars")
    if bd is not None and bd[3] is not None and bd[3] != 4:
        raise ValueError("Dimension must be 4 but is %d (boxes)" % bd[3])
    if bd is not None and sd is not None:
        for a, b in ((bd[0], sd[0]), (bd[1], sd[1])):
            if a is not None and b is not None and a != b:
                raise ValueError("Dimensions must be equal, but are %d and %d (boxes and scores)" % (a, b))
        if bd[2] is not None and sd[2] is not None and bd[2] != 1 and bd[2] != sd[2]:
            raise ValueError("third dimension of boxes must be either 1 or equal to the third dimension of scores")
    batch = (bd[0] if bd else None) if bd is not None else (sd[0] if sd is not None else None)
    if batch is None and sd is not None:
        batch = sd[0]
    n = None
    tv, pv = _value(total), _value(per_class)
    if tv is not None:
        n = int(tv)
        if op._attrs.get("pad_per_class", False):
            n = None
            if pv is not None and sd is not None and sd[2] is not None:
                n = min(int(pv) * sd[2], int(tv))
    return [(dtypes.float32, (batch, n, 4)), (dtypes.float32, (batch, n)), (dtypes.float32, (batch, n)),
            (dtypes.int32, (batch,))]


def _combined_kernel(xp, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
                     score_threshold, pad_per_class=False, clip_boxes=True):
    if boxes.ndim != 4 or boxes.shape[3] != 4:
        raise _invalid("boxes must be 4-D [batch, num_boxes, q, 4]%s" % _fmt(boxes.shape))
    if scores.ndim != 3:
        raise _invalid("scores must be 3-D%s" % _fmt(scores.shape))
    batch, num_boxes, q, _ = boxes.shape
    num_classes = scores.shape[2]
    if scores.shape[:2] != (batch, num_boxes):
        raise _invalid("boxes and scores must have the same batch size and number of boxes")
    if q != 1 and q != num_classes:
        raise _invalid("third dimension of boxes must be either 1 or num classes")
    per_class, total = int(max_output_size_per_class), int(max_total_size)
    if per_class <= 0:
        raise _invalid("max_size_per_class must be > 0")
    if total <= 0:
        raise _invalid("max_total_size must be > 0")
    iou = float(iou_threshold)
    if not 0 <= iou <= 1:
        raise _invalid("iou_threshold must be in [0, 1]")
    sthr = _F(score_threshold)
    n_out = min(total, per_class * num_classes) if pad_per_class else total
    out_boxes = np.zeros((batch, n_out, 4), _F)
    out_scores = np.zeros((batch, n_out), _F)
    out_classes = np.zeros((batch, n_out), _F)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        results = []
        for c in range(num_classes):
            bx = boxes[b, :, 0 if q == 1 else c].astype(_F)
            sc = scores[b, :, c].astype(_F)
            corners = _corners(bx)
            sel = _hard_nms(lambda i, js: _iou_one_to_many(corners, i, js), sc, per_class, _F(iou), sthr)
            results.extend((-float(sc[i]), c, int(i), bx[i]) for i in sel)
        results.sort(key=lambda r: r[0])
        results = results[:n_out]
        valid[b] = len(results)
        for k, (neg, c, _, bx) in enumerate(results):
            out_boxes[b, k] = np.clip(bx, 0, 1) if clip_boxes else bx
            out_scores[b, k] = -neg
            out_classes[b, k] = c
    return out_boxes, out_scores, out_classes, valid


register_op("CombinedNonMaxSuppression", infer=_combined_infer, kernel=_combined_kernel, grad=NO_GRADIENT)


# ---- CropAndResize ---------------------------------------------------------------------------------
def _crop_infer(op):
    image, boxes, box_ind, crop_size = op._inputs
    _check_dtype(image, _CROP_T, "image", op._type)
    _check_dtype(boxes, (dtypes.float32,), "boxes", op._type)
    _check_dtype(box_ind, (dtypes.int32,), "box_ind", op._type)
    _check_dtype(crop_size, (dtypes.int32,), "crop_size", op._type)
    idims = _rank(image, 4, "image")
    bdims = _rank(boxes, 2, "boxes")
    ndims = _rank(box_ind, 1, "box_ind")
    _rank(crop_size, 1, "crop_size")
    if bdims is not None and bdims[1] is not None and bdims[1] != 4:
        raise ValueError("Dimension must be 4 but is %d (boxes)" % bdims[1])
    n = bdims[0] if bdims is not None else None
    if ndims is not None and ndims[0] is not None:
        if n is not None and n != ndims[0]:
            raise ValueError("Dimensions must be equal, but are %d and %d (boxes and box_ind)" % (n, ndims[0]))
        n = ndims[0]
    v = _value(crop_size)
    ch = cw = None
    if v is not None:
        ch, cw = _int_list(v)
        if ch <= 0 or cw <= 0:
            raise ValueError("crop dimensions must be positive")
    return [(dtypes.float32, (n, ch, cw, idims[3] if idims is not None else None))]


def _check_crop(image_shape, boxes, box_ind, crop_size=None):
    if len(image_shape) != 4:
        raise _invalid("input image must be 4-D%s" % _fmt(image_shape))
    if image_shape[1] <= 0 or image_shape[2] <= 0:
        raise _invalid("image dimensions must be positive")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        if boxes.size or boxes.ndim != 2:
            raise _invalid("boxes must be 2-D%s" % _fmt(boxes.shape))
    if box_ind.ndim != 1:
        raise _invalid("box_index must be 1-D%s" % _fmt(box_ind.shape))
    if box_ind.shape[0] != boxes.shape[0]:
        raise _invalid("box_index has incompatible shape")
    if box_ind.size and (box_ind.min() < 0 or box_ind.max() >= image_shape[0]):
        raise _invalid("box_index has values outside [0, batch_size)")
    if crop_size is not None:
        crop_size = np.asarray(crop_size)
        if crop_size.shape != (2,):
            raise _invalid("crop_size must be a 1-D tensor of length 2, got %s" % _fmt(crop_size.shape))
        ch, cw = int(crop_size[0]), int(crop_size[1])
        if ch <= 0 or cw <= 0:
            raise _invalid("crop dimensions must be positive")
        return ch, cw
    return None


def _round_half_away(v):
    """std::round: halves away from zero (computed exactly in v's dtype)."""
    t = np.trunc(v)
    return t + np.where(np.abs(v - t) >= 0.5, np.sign(v), 0)


def _coords(y1, y2, n_out, n_in, ratio_form=False):
    """TF's source coordinates of one box along one axis, in float32 (1-pixel crops: the centre,
    computed in double as TF's conditional expression promotes it)."""
    if n_out > 1:
        if ratio_form:
            scale = _F(y2 - y1) * (_F(n_in - 1) / _F(n_out - 1))
        else:
            scale = _F(_F(y2 - y1) * _F(n_in - 1)) / _F(n_out - 1)
        return (_F(y1) * _F(n_in - 1) + np.arange(n_out, dtype=_F) * _F(scale)).astype(_F)
    return np.array([np.float64(0.5) * np.float64(_F(y1 + y2)) * (n_in - 1)], np.float64).astype(_F)


def _crop_kernel(xp, image, boxes, box_ind, crop_size, method="bilinear", extrapolation_value=0.0):
    ch, cw = _check_crop(image.shape, boxes, box_ind, crop_size)
    if method not in ("bilinear", "nearest"):
        raise _invalid("method must be 'bilinear' or 'nearest'")
    _, ih, iw, depth = image.shape
    out = np.empty((boxes.shape[0], ch, cw, depth), _F)
    ext = _F(extrapolation_value)
    for b in range(boxes.shape[0]):
        y1, x1, y2, x2 = (_F(v) for v in boxes[b])
        img = image[box_ind[b]]
        in_y, in_x = _coords(y1, y2, ch, ih), _coords(x1, x2, cw, iw)
        oky = (in_y >= 0) & (in_y <= _F(ih - 1))
        okx = (in_x >= 0) & (in_x <= _F(iw - 1))
        yv, xv = np.where(oky, in_y, 0).astype(_F), np.where(okx, in_x, 0).astype(_F)
        if method == "bilinear":
            ty, by = np.floor(yv).astype(np.int64), np.ceil(yv).astype(np.int64)
            lx, rx = np.floor(xv).astype(np.int64), np.ceil(xv).astype(np.int64)
            yl = (yv - np.floor(yv)).astype(_F)[:, None, None]
            xl = (xv - np.floor(xv)).astype(_F)[None, :, None]
            f = img.astype(_F)
            tl, tr = f[ty][:, lx], f[ty][:, rx]
            bl, br = f[by][:, lx], f[by][:, rx]
            top = tl + (tr - tl) * xl
            bottom = bl + (br - bl) * xl
            val = top + (bottom - top) * yl
        else:
            cy, cx = _round_half_away(yv), _round_half_away(xv)
            val = img[cy.astype(np.int64)][:, cx.astype(np.int64)].astype(_F)
        out[b] = np.where((oky[:, None] & okx[None, :])[..., None], val, ext)
    return out


def _crop_grad_image_infer(op):
    grads, boxes, box_ind, image_size = op._inputs
    _check_dtype(grads, (dtypes.float32,), "grads", op._type)
    _rank(grads, 4, "grads")
    _rank(boxes, 2, "boxes")
    _rank(box_ind, 1, "box_ind")
    _rank(image_size, 1, "image_size")
    v = _value(image_size)
    shape = tuple(_int_list(v)) if v is not None else (None, None, None, None)
    return [(op._attrs.get("T", dtypes.float32), shape)]


def _crop_grad_image_kernel(xp, grads, boxes, box_ind, image_size, T=dtypes.float32, method="bilinear"):
    size = [int(v) for v in np.asarray(image_size).reshape(-1)]
    if len(size) != 4:
        raise _invalid("image_size must be a 1-D tensor of length 4")
    if grads.ndim != 4:
        raise _invalid("grads image must be 4-D%s" % _fmt(grads.shape))
    _check_crop(size, boxes, box_ind)
    if grads.shape[0] != boxes.shape[0]:
        raise _invalid("boxes and grads have incompatible shape")
    if size[3] != grads.shape[3]:
        raise _invalid("image_size and grads are incompatible")
    batch, ih, iw, depth = size
    nb, ch, cw, _ = grads.shape
    dt = np.dtype(T.as_numpy_dtype) if hasattr(T, "as_numpy_dtype") else np.dtype(T)
    acc = dt
    out = np.zeros(batch * ih * iw * depth, acc)
    g = grads.astype(_F)
    chan = np.arange(depth)
    for b in range(nb):
        y1, x1, y2, x2 = (_F(v) for v in boxes[b])
        base = int(box_ind[b]) * ih
        in_y, in_x = _coords(y1, y2, ch, ih), _coords(x1, x2, cw, iw)
        oky = (in_y >= 0) & (in_y <= _F(ih - 1))
        okx = (in_x >= 0) & (in_x <= _F(iw - 1))
        ys, xs = np.nonzero(oky)[0], np.nonzero(okx)[0]
        if ys.size == 0 or xs.size == 0:
            continue
        yv, xv = in_y[ys], in_x[xs]
        gb = g[b][ys][:, xs]  # [ny, nx, depth]
        if method == "bilinear":
            ty, by = np.floor(yv).astype(np.int64), np.ceil(yv).astype(np.int64)
            lx, rx = np.floor(xv).astype(np.int64), np.ceil(xv).astype(np.int64)
            yl = (yv - np.floor(yv)).astype(_F)[:, None, None]
            xl = (xv - np.floor(xv)).astype(_F)[None, :, None]
            dtop = (_F(1) - yl) * gb
            dbot = yl * gb
            vals = [((_F(1) - xl) * dtop).astype(acc), (xl * dtop).astype(acc), ((_F(1) - xl) * dbot).astype(acc),
                    (xl * dbot).astype(acc)]
            rows = [ty, ty, by, by]
            cols = [lx, rx, lx, rx]
            v = np.stack(vals, axis=2)  # [ny, nx, 4, depth]: TF's order per (y, x): four corners, each over d
            idx = np.stack([((base + rows[k][:, None]) * iw + cols[k][None, :])[..., None] * depth + chan
                            for k in range(4)], axis=2)
        else:
            cy, cx = _round_half_away(yv).astype(np.int64), _round_half_away(xv).astype(np.int64)
            v = gb.astype(acc)
            idx = ((base + cy[:, None]) * iw + cx[None, :])[..., None] * depth + chan
        np.add.at(out, idx.reshape(-1), v.reshape(-1))
    return out.reshape(batch, ih, iw, depth).astype(dt)


def _crop_grad_boxes_infer(op):
    grads, image, boxes, box_ind = op._inputs
    _check_dtype(grads, (dtypes.float32,), "grads", op._type)
    _check_dtype(image, _CROP_T, "image", op._type)
    _rank(grads, 4, "grads")
    _rank(image, 4, "image")
    bd = _rank(boxes, 2, "boxes")
    _rank(box_ind, 1, "box_ind")
    return [(dtypes.float32, (bd[0] if bd is not None else None, 4))]


def _seq_sum(contrib, start):
    """TF's running `float += contribution` over the elements in loop order (float32 contributions
    add in float32; float64 ones promote each step and round back)."""
    if contrib.size == 0:
        return start
    if contrib.dtype == _F:
        return _F(np.cumsum(np.concatenate([[start], contrib.reshape(-1)]).astype(_F), dtype=_F)[-1])
    acc = start
    for c in contrib.reshape(-1):
        acc = _F(np.float64(acc) + c)
    return acc


def _crop_grad_boxes_kernel(xp, grads, image, boxes, box_ind, method="bilinear"):
    if grads.ndim != 4:
        raise _invalid("grads image must be 4-D%s" % _fmt(grads.shape))
    _check_crop(image.shape, boxes, box_ind)
    if grads.shape[0] != boxes.shape[0]:
        raise _invalid("boxes and grads have incompatible shape")
    if grads.shape[3] != image.shape[3]:
        raise _invalid("image, grads depth differ")
    _, ih, iw, depth = image.shape
    nb, ch, cw, _ = grads.shape
    out = np.zeros((nb, 4), _F)
    g = grads.astype(_F)
    hr = _F(ih - 1) / _F(ch - 1) if ch > 1 else _F(0)
    wr = _F(iw - 1) / _F(cw - 1) if cw > 1 else _F(0)
    for b in range(nb):
        y1, x1, y2, x2 = (_F(v) for v in boxes[b])
        img = image[box_ind[b]].astype(_F)
        in_y, in_x = _coords(y1, y2, ch, ih, True), _coords(x1, x2, cw, iw, True)
        ys = np.nonzero((in_y >= 0) & (in_y <= _F(ih - 1)))[0]
        xs = np.nonzero((in_x >= 0) & (in_x <= _F(iw - 1)))[0]
        if ys.size == 0 or xs.size == 0:
            continue
        yv, xv = in_y[ys], in_x[xs]
        ty, by = np.floor(yv).astype(np.int64), np.ceil(yv).astype(np.int64)
        lx, rx = np.floor(xv).astype(np.int64), np.ceil(xv).astype(np.int64)
        yl = (yv - np.floor(yv)).astype(_F)[:, None, None]
        xl = (xv - np.floor(xv)).astype(_F)[None, :, None]
        tl, tr = img[ty][:, lx], img[ty][:, rx]
        bl, br = img[by][:, lx], img[by][:, rx]
        gy = ((_F(1) - xl) * (bl - tl) + xl * (br - tr)).astype(_F)
        gx = ((_F(1) - yl) * (tr - tl) + yl * (br - bl)).astype(_F)
        top = g[b][ys][:, xs]
        gy = (gy * top).astype(_F)
        gx = (gx * top).astype(_F)
        yf = ys.astype(_F)[:, None, None]
        xf = xs.astype(_F)[None, :, None]
        if ch > 1:
            c0 = (gy * (_F(ih - 1) - yf * hr)).astype(_F)
            c2 = (gy * (yf * hr)).astype(_F)
        else:
            c0 = c2 = gy.astype(np.float64) * 0.5 * (ih - 1)
        if cw > 1:
            c1 = (gx * (_F(iw - 1) - xf * wr)).astype(_F)
            c3 = (gx * (xf * wr)).astype(_F)
        else:
            c1 = c3 = gx.astype(np.float64) * 0.5 * (iw - 1)
        # TF updates the four coordinates interleaved per element; each has its own running sum.
        out[b] = [_seq_sum(c0, _F(0)), _seq_sum(c1, _F(0)), _seq_sum(c2, _F(0)), _seq_sum(c3, _F(0))]
    return out


def _crop_and_resize_grad(op, grad):
    image = op._inputs[0]
    method = op._attrs.get("method", "bilinear")
    if image._shape.is_fully_defined():
        image_shape = ops.convert_to_tensor(image._shape.as_list(), dtype=dtypes.int32)
    else:
        from .core_ops import shape
        image_shape = shape(image)
    g0 = None
    if image._dtype in _CROP_GRAD_T:
        g0 = ops.apply_op("CropAndResizeGradImage", [grad, op._inputs[1], op._inputs[2], image_shape],
                          {"T": image._dtype, "method": method})
    g1 = ops.apply_op("CropAndResizeGradBoxes", [grad, image, op._inputs[1], op._inputs[2]], {"method": "bilinear"})
    return [g0, g1, None, None]


register_op("CropAndResize", infer=_crop_infer, kernel=_crop_kernel, grad=_crop_and_resize_grad)
register_op("CropAndResizeGradImage", infer=_crop_grad_image_infer, kernel=_crop_grad_image_kernel)
register_op("CropAndResizeGradBoxes", infer=_crop_grad_boxes_infer, kernel=_crop_grad_boxes_kernel)


# ---- public functions ------------------------------------------------------------------------------
def _nms_inputs(boxes, scores, max_output_size):
    boxes = ops.convert_to_tensor(boxes, name="boxes")
    scores = ops.convert_to_tensor(scores, dtype=boxes.dtype, name="scores")
    max_output_size = ops.convert_to_tensor(max_output_size, dtype=dtypes.int32, name="max_output_size")
    return boxes, scores, max_output_size


def _float_scalar(v, name):
    return ops.convert_to_tensor(v, dtype=dtypes.float32, name=name)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    """Greedily selects boxes by descending score, dropping those whose IOU with a selected box
    exceeds `iou_threshold` (op NonMaxSuppressionV3).

    Args:
      boxes: A 2-D float `Tensor` `[num_boxes, 4]`, rows `[y1, x1, y2, x2]` (any corner order).
      scores: A 1-D float `Tensor` `[num_boxes]`.
      max_output_size: A 0-D int32 `Tensor`, the most boxes selected.
      iou_threshold: A float in [0, 1].
      score_threshold: Boxes scoring at or below it are never selected.
      name: A name for the operation (optional).

    Returns:
      A 1-D int32 `Tensor` of the selected indices, by selection order.

    Raises:
      InvalidArgumentError: At run time, for bad shapes or `iou_threshold` outside [0, 1].
    """
    with ops.name_scope(name, "non_max_suppression"):
        boxes, scores, max_output_size = _nms_inputs(boxes, scores, max_output_size)
        iou = _float_scalar(iou_threshold, "iou_threshold")
        st = _float_scalar(score_threshold, "score_threshold")
        return ops.apply_op("NonMaxSuppressionV3", [boxes, scores, max_output_size, iou, st], {},
                            name="NonMaxSuppressionV3")


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """Non-max suppression that also returns the selected boxes' scores, with soft-NMS when
    `soft_nms_sigma > 0` (scores decay by `exp(-iou^2 / (2 sigma))`; op NonMaxSuppressionV5).

    Args:
      boxes, scores, max_output_size, iou_threshold, score_threshold: As for `non_max_suppression`.
      soft_nms_sigma: The soft-NMS sigma; 0 gives hard NMS.
      name: A name for the operation (optional).

    Returns:
      A pair `(selected_indices, selected_scores)`: 1-D int32 and 1-D float `Tensor`s.

    Raises:
      InvalidArgumentError: At run time, for bad shapes or thresholds.
    """
    with ops.name_scope(name, "non_max_suppression_with_scores"):
        # As TF: the thresholds become float32 tensors, so the op computes in float32 unless the
        # boxes are already half tensors (then the thresholds do not match them: a TypeError).
        thresholds = [_float_scalar(v, n) for v, n in ((iou_threshold, "iou_threshold"),
                                                        (score_threshold, "score_threshold"),
                                                        (soft_nms_sigma, "soft_nms_sigma"))]
        if not isinstance(boxes, ops.Tensor):
            boxes = ops.convert_to_tensor(boxes, dtype=dtypes.float32, name="boxes")
        boxes, scores, max_output_size = _nms_inputs(boxes, scores, max_output_size)
        args = [boxes, scores, max_output_size] + thresholds
        idx, sc, _ = ops.apply_op("NonMaxSuppressionV5", args, {"pad_to_max_output_size": False},
                                  name="NonMaxSuppressionV5")
        return idx, sc


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                               pad_to_max_output_size=False, name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """Non-max suppression whose result can be padded with zeros to `max_output_size` (op
    NonMaxSuppressionV4).

    Args:
      boxes, scores, max_output_size, iou_threshold, score_threshold: As for `non_max_suppression`
        (2-D boxes: batched inputs raise NotImplementedError).
      pad_to_max_output_size: Whether to pad the indices with zeros to `max_output_size`.
      name: A name for the operation (optional).
      sorted_input, canonicalized_coordinates, tile_size: TF 2's speed hints; the result does not
        depend on them.

    Returns:
      A pair `(selected_indices, num_valid)`: a 1-D int32 `Tensor` and a 0-D int32 `Tensor`.

    Raises:
      NotImplementedError: For batched (3-D) boxes.
    """
    del sorted_input, canonicalized_coordinates, tile_size
    with ops.name_scope(name, "non_max_suppression_padded"):
        boxes, scores, max_output_size = _nms_inputs(boxes, scores, max_output_size)
        if boxes.get_shape().ndims is not None and boxes.get_shape().ndims > 2:
            raise NotImplementedError("non_max_suppression_padded: batched boxes are not supported")
        args = [boxes, scores, max_output_size, _float_scalar(iou_threshold, "iou_threshold"),
                _float_scalar(score_threshold, "score_threshold")]
        idx, n = ops.apply_op("NonMaxSuppressionV4", args, {"pad_to_max_output_size": bool(pad_to_max_output_size)},
                              name="NonMaxSuppressionV4")
        return idx, n


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """Non-max suppression with a given overlap matrix in place of the IOU.

    Args:
      overlaps: A 2-D float32 `Tensor` `[num_boxes, num_boxes]`.
      scores: A 1-D float32 `Tensor` `[num_boxes]`.
      max_output_size: A 0-D int32 `Tensor`.
      overlap_threshold: Candidates whose overlap with a selected box exceeds it are dropped.
      score_threshold: Boxes scoring at or below it are never selected.
      name: A name for the operation (optional).

    Returns:
      A 1-D int32 `Tensor` of the selected indices.
    """
    with ops.name_scope(name, "non_max_suppression_overlaps"):
        overlaps = ops.convert_to_tensor(overlaps, name="overlaps")
        scores = ops.convert_to_tensor(scores, dtype=overlaps.dtype, name="scores")
        max_output_size = ops.convert_to_tensor(max_output_size, dtype=dtypes.int32)
        return ops.apply_op("NonMaxSuppressionWithOverlaps", [
            overlaps, scores, max_output_size, _float_scalar(overlap_threshold, "overlap_threshold"),
            _float_scalar(score_threshold, "score_threshold")], {}, name="NonMaxSuppressionWithOverlaps")


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold=0.5,
                                 score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True, name=None):
    """Per-class greedy non-max suppression over a batch, merged by score.

    Args:
      boxes: A 4-D float32 `Tensor` `[batch, num_boxes, q, 4]`, q 1 (shared) or `num_classes`.
      scores: A 3-D float32 `Tensor` `[batch, num_boxes, num_classes]`.
      max_output_size_per_class: The most boxes selected per class.
      max_total_size: The most boxes kept per batch element.
      iou_threshold, score_threshold: As for `non_max_suppression`.
      pad_per_class: Whether the output holds `min(max_total_size, max_output_size_per_class *
        num_classes)` boxes (else `max_total_size`).
      clip_boxes: Whether to clip the output boxes to [0, 1].
      name: A name for the operation (optional).

    Returns:
      `(nmsed_boxes, nmsed_scores, nmsed_classes, valid_detections)`, zero-padded.
    """
    with ops.name_scope(name, "combined_non_max_suppression"):
        args = [ops.convert_to_tensor(boxes, dtypes.float32, name="boxes"),
                ops.convert_to_tensor(scores, dtypes.float32, name="scores"),
                ops.convert_to_tensor(max_output_size_per_class, dtypes.int32),
                ops.convert_to_tensor(max_total_size, dtypes.int32),
                _float_scalar(iou_threshold, "iou_threshold"), _float_scalar(score_threshold, "score_threshold")]
        return tuple(ops.apply_op("CombinedNonMaxSuppression", args, {
            "pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)}, name="CombinedNonMaxSuppression"))


def crop_and_resize(image, boxes, box_ind=None, crop_size=None, method="bilinear", extrapolation_value=0,
                    name=None, box_indices=None):
    """Crops boxes out of images and resizes each crop to `crop_size` (bilinear or nearest
    sampling; samples outside the image get `extrapolation_value`).

    Args:
      image: A 4-D `Tensor` `[batch, height, width, depth]` of a real dtype.
      boxes: A 2-D float32 `Tensor` `[num_boxes, 4]` of normalized `[y1, x1, y2, x2]` (y1 > y2
        flips the crop).
      box_ind: A 1-D int32 `Tensor` `[num_boxes]`: the image of each box (`box_indices` is its
        TF 2 name).
      crop_size: A 1-D int32 `Tensor` of 2 elements `[crop_height, crop_width]`.
      method: "bilinear" or "nearest".
      extrapolation_value: The value of samples outside the image.
      name: A name for the operation (optional).
      box_indices: Alias of `box_ind`.

    Returns:
      A float32 `Tensor` `[num_boxes, crop_height, crop_width, depth]`.

    Raises:
      ValueError: If both or neither of `box_ind` and `box_indices` are given.
      InvalidArgumentError: At run time, for box indices outside the batch or bad shapes.
    """
    if (box_ind is None) == (box_indices is None):
        raise ValueError("Provide exactly one of box_ind and box_indices")
    box_ind = box_ind if box_ind is not None else box_indices
    if crop_size is None:
        raise ValueError("crop_size is required")
    image = ops.convert_to_tensor(image, name="image")
    boxes = ops.convert_to_tensor(boxes, dtype=dtypes.float32, name="boxes")
    box_ind = ops.convert_to_tensor(box_ind, dtype=dtypes.int32, name="box_ind")
    crop_size = ops.convert_to_tensor(crop_size, dtype=dtypes.int32, name="crop_size")
    return ops.apply_op("CropAndResize", [image, boxes, box_ind, crop_size], {
        "method": method, "extrapolation_value": float(extrapolation_value)}, name=name or "CropAndResize")
