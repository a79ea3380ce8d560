"""Op-table rows of the box and patch ops of tf.image (tensorweave/ops/image_boxes_ops.py,
image_patch_ops.py; see harness.py for the row API).

References are plain Python/NumPy loops written from the ops' definitions: greedy NMS over boxes
sorted by score with the IOU in float64, soft-NMS's Gaussian decay, bilinear/nearest sampling of
each crop pixel, its gradients as sums of the interpolation weights (and their derivatives in the
box corners), patches gathered window by window, glimpses and box outlines pixel by pixel.
TensorFlow's exact values are checked in tests/ops/test_image_boxes_ops.py.
"""

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops as _ops
from tests.ops.op_table.harness import Row, rand
from tests.ops.op_table.rows_image import _vjp

F16, F32, F64 = np.float16, np.float32, np.float64
I32 = np.int32


# ---- NMS -------------------------------------------------------------------------------------------
def _iou(a, b):
    ay0, ay1 = sorted((a[0], a[2]))
    ax0, ax1 = sorted((a[1], a[3]))
    by0, by1 = sorted((b[0], b[2]))
    bx0, bx1 = sorted((b[1], b[3]))
    aa, ab = (ay1 - ay0) * (ax1 - ax0), (by1 - by0) * (bx1 - bx0)
    if aa <= 0 or ab <= 0:
        return 0.0
    inter = max(min(ay1, by1) - max(ay0, by0), 0) * max(min(ax1, bx1) - max(ax0, bx0), 0)
    return inter / (aa + ab - inter)


def _ref_nms(boxes, scores, max_out, iou_thr, score_thr=-np.inf, sim=None):
    b = boxes.astype(F64)
    s = scores.astype(F64)
    sim = sim or (lambda i, j: _iou(b[i], b[j]))
    order = sorted((i for i in range(len(s)) if s[i] > score_thr), key=lambda i: (-s[i], i))
    keep = []
    for i in order:
        if len(keep) >= max_out:
            break
        if all(sim(i, j) <= iou_thr for j in keep):
            keep.append(i)
    return keep


def _ref_soft_nms(boxes, scores, max_out, score_thr, sigma):
    """Soft-NMS as defined: repeatedly take the best remaining box; every other remaining score
    decays by exp(-iou^2 / (2 sigma)) against it; scores at or below the threshold drop out."""
    b = boxes.astype(F64)
    live = {i: float(scores[i]) for i in range(len(scores)) if scores[i] > score_thr}
    keep, kept_scores = [], []
    while live and len(keep) < max_out:
        i = min(live, key=lambda k: (-live[k], k))
        keep.append(i)
        kept_scores.append(live.pop(i))
        for k in list(live):
            live[k] *= np.exp(-_iou(b[k], b[i]) ** 2 / (2 * sigma))
            if live[k] <= score_thr:
                del live[k]
    return keep, kept_scores


def _boxes_in(n=12):
    def inputs(dt, rng):
        c = rng.uniform(0, 1, (n, 2))
        s = rng.uniform(0.05, 0.3, (n, 2))
        boxes = np.concatenate([c - s, c + s], 1)
        boxes[::3] = boxes[::3][:, [2, 3, 0, 1]]
        return boxes.astype(dt), (rng.permutation(n) / n + 0.01).astype(dt)
    return inputs


def _nms_special(dt):
    boxes = np.array([[0, 0, 1, 1], [0, 0, 1, 1], [0.5, 0.5, 0.5, 0.9], [0, 0, 0.9, 1], [2, 2, 3, 3]], dt)
    scores = np.array([0.9, np.nan, 0.8, 0.7, -np.inf], dt)
    return [(boxes, scores), (np.zeros((0, 4), dt), np.zeros(0, dt))]


def _raw(op_type, attrs=None):
    """The op itself (TF's `raw_ops`): V1/V2 NMS have no public builder in TF1's `tf.image`."""
    def build(*inputs):
        tensors = [_ops.convert_to_tensor(x) for x in inputs]
        return _ops.apply_op(op_type, tensors, dict(attrs or {}))
    return build


def _nms_rows():
    n_out = 6
    i32 = lambda v: np.array(v, I32)  # noqa: E731
    v1_attrs = {"iou_threshold": 0.4}

    def v1(bx, sc):
        return _raw("NonMaxSuppression", v1_attrs)(bx, sc, np.int32(n_out))

    def v2(bx, sc):
        return _raw("NonMaxSuppressionV2")(bx, sc, np.int32(n_out), np.float32(0.4))

    def v3(bx, sc):
        return tf.image.non_max_suppression(bx, sc, n_out, iou_threshold=0.3, score_threshold=0.2)

    def v4(bx, sc):
        return list(tf.image.non_max_suppression_padded(bx, sc, n_out, iou_threshold=0.3, score_threshold=0.2,
                                                        pad_to_max_output_size=True))

    def v4_ref(bx, sc):
        keep = _ref_nms(bx, sc, n_out, 0.3, 0.2)
        return [i32(keep + [0] * (n_out - len(keep))), i32(len(keep))]

    def v5(bx, sc):
        return list(tf.image.non_max_suppression_with_scores(bx, sc, n_out, iou_threshold=0.5, score_threshold=0.1,
                                                             soft_nms_sigma=0.5))

    def v5_ref(bx, sc):
        keep, ks = _ref_soft_nms(bx, sc, n_out, 0.1, 0.5)
        return [i32(keep), np.array(ks, bx.dtype)]

    def ov_in(dt, rng):
        ov = rng.uniform(0, 1, (10, 10))
        return (ov + ov.T).astype(F32) / 2, rng.permutation(10).astype(F32) / 10

    def ov_ref(ov, sc):
        return i32(_ref_nms(ov, sc, 5, 0.5, 0.15, sim=lambda i, j: float(ov[i, j])))

    def ov_special(dt):
        return [(np.zeros((0, 0), F32), np.zeros(0, F32)), (np.eye(3, dtype=F32), np.array([0.1, 0.9, 0.5], F32))]

    common = dict(dtypes=(F32,), special=_nms_special, grad=False, static_known=False)
    return [
        Row("NonMaxSuppression", v1, lambda b, s: i32(_ref_nms(b, s, n_out, 0.4)), _boxes_in(), **common),
        Row("NonMaxSuppressionV2", v2, lambda b, s: i32(_ref_nms(b, s, n_out, 0.4)), _boxes_in(), **common),
        Row("NonMaxSuppressionV3", v3, lambda b, s: i32(_ref_nms(b, s, n_out, 0.3, 0.2)), _boxes_in(), **common),
        Row("NonMaxSuppressionV3", v3, lambda b, s: i32(_ref_nms(b, s, n_out, 0.3, 0.2)), _boxes_in(), dtypes=(F16,),
            special=False, grad=False, static_known=False, name="NonMaxSuppressionV3-half"),
        Row("NonMaxSuppressionV4", v4, v4_ref, _boxes_in(), dtypes=(F32,), special=_nms_special, grad=False),
        Row("NonMaxSuppressionV5", v5, v5_ref, _boxes_in(), rtol=1e-5, atol=1e-6, **common),
        Row("NonMaxSuppressionWithOverlaps",
            lambda ov, sc: tf.image.non_max_suppression_overlaps(ov, sc, 5, overlap_threshold=0.5,
                                                                 score_threshold=0.15),
            ov_ref, ov_in, dtypes=(F32,), special=ov_special, grad=False, static_known=False),
    ]


def _combined_rows():
    def inputs(dt, rng):
        c = rng.uniform(-0.1, 1.0, (2, 8, 1, 2))
        s = rng.uniform(0.05, 0.4, (2, 8, 1, 2))
        boxes = np.concatenate([c - s, c + s], -1).astype(F32)
        scores = (rng.permutation(2 * 8 * 3).reshape(2, 8, 3) / 48.0).astype(F32)
        return boxes, scores

    def ref(boxes, scores, per_class=3, total=5, iou=0.5, thr=0.1, clip=True):
        batch, n, q, _ = boxes.shape
        nb = np.zeros((batch, total, 4), F32)
        ns = np.zeros((batch, total), F32)
        nc = np.zeros((batch, total), F32)
        valid = np.zeros(batch, I32)
        for b in range(batch):
            res = []
            for c in range(scores.shape[2]):
                bx = boxes[b, :, 0 if q == 1 else c]
                for i in _ref_nms(bx, scores[b, :, c], per_class, iou, thr):
                    res.append((float(scores[b, i, c]), c, bx[i]))
            res.sort(key=lambda r: -r[0])
            res = res[:total]
            valid[b] = len(res)
            for k, (s, c, bx) in enumerate(res):
                nb[b, k] = np.clip(bx, 0, 1) if clip else bx
                ns[b, k] = s
                nc[b, k] = c
        return [nb, ns, nc, valid]

    def build(clip):
        return lambda b, s: list(tf.image.combined_non_max_suppression(b, s, 3, 5, iou_threshold=0.5,
                                                                       score_threshold=0.1, clip_boxes=clip))

    def special(dt):
        return [(np.zeros((1, 0, 1, 4), F32), np.zeros((1, 0, 2), F32))]
    return [Row("CombinedNonMaxSuppression", build(True), ref, inputs, dtypes=(F32,), special=special, grad=False),
            Row("CombinedNonMaxSuppression", build(False), lambda b, s: ref(b, s, clip=False), inputs, dtypes=(F32,),
                special=False, grad=False, name="CombinedNonMaxSuppression-noclip")]


# ---- CropAndResize ---------------------------------------------------------------------------------
_CROP_BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.6, 0.7, 0.15, 0.05], [-0.2, -0.1, 1.3, 1.1], [0.3, 0.3, 0.3, 0.3]],
                       F32)
_CROP_IND = np.array([0, 1, 1, 0], I32)


def _crop_pos(y1, y2, n_out, n_in):
    """The sampling positions, in float32 as TF defines them (a 1-pixel crop samples the centre)."""
    y1, y2 = F32(y1), F32(y2)
    if n_out > 1:
        step = F32(F32(y2 - y1) * F32(n_in - 1)) / F32(n_out - 1)
        return [float(F32(y1 * F32(n_in - 1)) + F32(k) * step) for k in range(n_out)]
    return [float(F32(0.5 * float(F32(y1 + y2)) * (n_in - 1)))]


def _crop_weights(box, n_out, n_in, method):
    """(index, weight) lists of each output position along one axis; None outside the image."""
    out = []
    for p in _crop_pos(box[0], box[1], n_out, n_in):
        if p < 0 or p > n_in - 1:
            out.append(None)
        elif method == "nearest":
            out.append([(int(np.floor(p + 0.5)), 1.0)])
        else:
            lo = int(np.floor(p))
            out.append([(lo, 1 - (p - lo)), (min(lo + 1, n_in - 1), p - lo)])
    return out


def _ref_crop(image, boxes, ind, size, method="bilinear", ext=0.0):
    ch, cw = size
    out = np.zeros((len(boxes), ch, cw, image.shape[3]))
    for b, (box, i) in enumerate(zip(boxes, ind)):
        wy = _crop_weights((box[0], box[2]), ch, image.shape[1], method)
        wx = _crop_weights((box[1], box[3]), cw, image.shape[2], method)
        for y in range(ch):
            for x in range(cw):
                if wy[y] is None or wx[x] is None:
                    out[b, y, x] = ext
                    continue
                out[b, y, x] = sum(a * c * image[i, r, q].astype(F64) for r, a in wy[y] for q, c in wx[x])
    return out.astype(F32)


def _ref_crop_grad_image(image_shape, boxes, ind, grads, method="bilinear"):
    out = np.zeros(image_shape)
    _, ch, cw, _ = grads.shape
    for b, (box, i) in enumerate(zip(boxes, ind)):
        wy = _crop_weights((box[0], box[2]), ch, image_shape[1], method)
        wx = _crop_weights((box[1], box[3]), cw, image_shape[2], method)
        for y in range(ch):
            for x in range(cw):
                if wy[y] is None or wx[x] is None:
                    continue
                for r, a in wy[y]:
                    for q, c in wx[x]:
                        out[i, r, q] += a * c * grads[b, y, x].astype(F64)
    return out


def _ref_crop_grad_boxes(image, boxes, ind, grads):
    """d(sum(grads * crop)) / d(box corners): the bilinear value's derivative in y and x times the
    derivative of the sampling position in each corner."""
    out = np.zeros((len(boxes), 4))
    _, ih, iw, _ = image.shape
    _, ch, cw, _ = grads.shape
    img = image.astype(F64)
    for b, (box, i) in enumerate(zip(boxes, ind)):
        py = _crop_pos(box[0], box[2], ch, ih)
        px = _crop_pos(box[1], box[3], cw, iw)
        for y, p in enumerate(py):
            if p < 0 or p > ih - 1:
                continue
            t, bo = int(np.floor(p)), int(np.ceil(p))
            ly = p - np.floor(p)
            dpy1 = (ih - 1) * (1 - y / (ch - 1)) if ch > 1 else 0.5 * (ih - 1)
            dpy2 = (ih - 1) * (y / (ch - 1)) if ch > 1 else 0.5 * (ih - 1)
            for x, q in enumerate(px):
                if q < 0 or q > iw - 1:
                    continue
                left, right = int(np.floor(q)), int(np.ceil(q))
                lx = q - np.floor(q)
                tl, tr, bl, br = img[i, t, left], img[i, t, right], img[i, bo, left], img[i, bo, right]
                gy = (1 - lx) * (bl - tl) + lx * (br - tr)
                gx = (1 - ly) * (tr - tl) + ly * (br - bl)
                dpx1 = (iw - 1) * (1 - x / (cw - 1)) if cw > 1 else 0.5 * (iw - 1)
                dpx2 = (iw - 1) * (x / (cw - 1)) if cw > 1 else 0.5 * (iw - 1)
                g = grads[b, y, x].astype(F64)
                out[b] += [np.sum(gy * g) * dpy1, np.sum(gx * g) * dpx1, np.sum(gy * g) * dpy2, np.sum(gx * g) * dpx2]
    return out.astype(F32)


def _crop_in(dt, rng):
    img = rand(rng, (2, 5, 6, 2), dt, -3, 3) if np.dtype(dt).kind == "f" else rand(rng, (2, 5, 6, 2), dt, 0, 100)
    return img, _CROP_BOXES.copy()


def _crop_special(dt):
    img = np.arange(2 * 5 * 6 * 2).reshape(2, 5, 6, 2).astype(dt)
    if np.dtype(dt).kind == "f":
        img[0, 2, 3, 0] = np.nan
    return [(img, np.zeros((0, 4), F32))]


def _crop_rows():
    rows = []
    for method, size, ext, tag in [("bilinear", (3, 4), 0.0, ""), ("nearest", (4, 3), -1.5, "-nearest"),
                                   ("bilinear", (1, 1), 2.0, "-1x1")]:
        def build(img, bx, method=method, size=size, ext=ext):
            ind = tf.slice(tf.constant(_CROP_IND), [0], tf.shape(bx)[:1])
            return tf.image.crop_and_resize(img, bx, ind, size, method=method, extrapolation_value=ext)

        def ref(img, bx, method=method, size=size, ext=ext):
            return _ref_crop(img, bx, _CROP_IND[:len(bx)], size, method, ext)
        rows.append(Row("CropAndResize", build, ref, _crop_in, dtypes=(F16, F32, F64, np.uint8, np.int32),
                        special=_crop_special, grad=[0], grad_delta=1e-3, grad_tol=2e-2, name="CropAndResize" + tag,
                        rtol={F16: 2e-3, F32: 1e-5, F64: 1e-5, np.uint8: 1e-5, np.int32: 1e-5},
                        atol={F16: 2e-3, F32: 1e-5, F64: 1e-5, np.uint8: 1e-5, np.int32: 1e-5}))

    def vjp_image(img, bx, g, method="bilinear"):
        return _vjp(lambda x: tf.image.crop_and_resize(x, bx, tf.constant(_CROP_IND), [3, 4], method=method), img, g)

    def vjp_boxes(img, bx, g):
        return _vjp(lambda b: tf.image.crop_and_resize(img, b, tf.constant(_CROP_IND), [3, 4]), bx, g)

    def grad_in(dt, rng):
        return rand(rng, (2, 5, 6, 2), dt, -3, 3), _CROP_BOXES.copy(), rand(rng, (4, 3, 4, 2), F32, -1, 1)

    note = "TF registers no gradient for %s (LookupError: test_image_boxes_ops.py)"
    for method in ("bilinear", "nearest"):
        rows.append(Row("CropAndResizeGradImage", lambda i, b, g, m=method: vjp_image(i, b, g, m),
                        lambda i, b, g, m=method: _ref_crop_grad_image(i.shape, b, _CROP_IND, g, m).astype(i.dtype),
                        grad_in, dtypes=(F16, F32, F64), special=False, grad=None, note=note % "CropAndResizeGradImage",
                        name="CropAndResizeGradImage-" + method, rtol={F16: 4e-3, F32: 1e-5, F64: 1e-6},
                        atol={F16: 4e-3, F32: 1e-5, F64: 1e-6}))
    rows.append(Row("CropAndResizeGradBoxes", vjp_boxes, lambda i, b, g: _ref_crop_grad_boxes(i, b, _CROP_IND, g),
                    grad_in, dtypes=(F32, F64), special=False, grad=None, note=note % "CropAndResizeGradBoxes",
                    rtol=1e-4, atol=1e-4))
    return rows


# ---- patches ---------------------------------------------------------------------------------------
def _ref_patches(x, k, s, r, padding):
    nsp = x.ndim - 2
    outs, pads = [], []
    for j in range(nsp):
        n, keff = x.shape[j + 1], k[j] + (k[j] - 1) * (r[j] - 1)
        o = (n - keff) // s[j] + 1 if padding == "VALID" else -(-n // s[j])
        outs.append(max(o, 0))
        pads.append(0 if padding == "VALID" else max(0, ((o - 1) * s[j] + keff - n) // 2))
    out = np.zeros((x.shape[0],) + tuple(outs) + (int(np.prod(k)) * x.shape[-1],), x.dtype)
    for pos in np.ndindex(*outs):
        vals = []
        for off in np.ndindex(*k):
            src = [pos[j] * s[j] - pads[j] + off[j] * r[j] for j in range(nsp)]
            inside = all(0 <= src[j] < x.shape[j + 1] for j in range(nsp))
            vals.append(x[(slice(None),) + tuple(src)] if inside else np.zeros((x.shape[0], x.shape[-1]), x.dtype))
        out[(slice(None),) + pos] = np.concatenate(vals, axis=-1)
    return out


def _patch_rows():
    rows = []
    dts = (F16, F32, F64, np.int32, np.uint8, np.complex64)
    for k, s, r, pad, tag in [((3, 2), (2, 3), (1, 2), "VALID", ""), ((3, 2), (2, 3), (1, 2), "SAME", "-same"),
                              ((2, 2), (1, 1), (1, 1), "SAME", "-dense")]:
        def build(x, k=k, s=s, r=r, pad=pad):
            return tf.image.extract_patches(x, [1, *k, 1], [1, *s, 1], [1, *r, 1], pad)
        rows.append(Row("ExtractImagePatches", build, lambda x, k=k, s=s, r=r, pad=pad: _ref_patches(x, k, s, r, pad),
                        lambda dt, rng: (rand(rng, (2, 6, 7, 2), dt, 0, 9),), dtypes=dts,
                        special=lambda dt: [(np.zeros((0, 6, 7, 2), dt),)], name="ExtractImagePatches" + tag))
    for k, s, pad, tag in [((2, 3, 2), (1, 2, 3), "SAME", ""), ((2, 2, 3), (2, 1, 2), "VALID", "-valid")]:
        def build3(x, k=k, s=s, pad=pad):
            return tf.extract_volume_patches(x, [1, *k, 1], [1, *s, 1], pad)
        rows.append(Row("ExtractVolumePatches", build3, lambda x, k=k, s=s, pad=pad: _ref_patches(x, k, s, (1, 1, 1),
                                                                                                 pad),
                        lambda dt, rng: (rand(rng, (1, 3, 4, 5, 2), dt, 0, 9),), dtypes=(F32, F64, np.int32),
                        special=False, name="ExtractVolumePatches" + tag))
    return rows


# ---- glimpse, boxes drawing, distorted boxes --------------------------------------------------------
def _ref_glimpse(x, offsets, size, centered, normalized):
    gh, gw = size
    _, ih, iw, _ = x.shape
    out = np.zeros((x.shape[0], gh, gw, x.shape[3]), F32)
    for b in range(x.shape[0]):
        y, xx = float(offsets[b, 0]), float(offsets[b, 1])
        if normalized:
            y, xx = y * ih, xx * iw
        if centered:
            y, xx = y / 2 + ih / 2, xx / 2 + iw / 2
        oy, ox = int(y - gh / 2), int(xx - gw / 2)
        out[b] = x[b, oy:oy + gh, ox:ox + gw]
    return out


def _glimpse_rows():
    rows = []
    for centered, normalized, offs, tag in [
            (True, True, [[0.1, -0.2], [-0.3, 0.25]], ""), (False, True, [[0.45, 0.35], [0.55, 0.4]], "-corner"),
            (False, False, [[2.2, 3.3], [4.1, 2.6]], "-pixels")]:
        offs = np.array(offs, F32)

        def build(x, o, c=centered, n=normalized):
            return tf.image.extract_glimpse(x, [3, 4], o, centered=c, normalized=n)
        rows.append(Row("ExtractGlimpse", build,
                        lambda x, o, c=centered, n=normalized: _ref_glimpse(x, o, (3, 4), c, n),
                        lambda dt, rng, offs=offs: (rand(rng, (2, 7, 8, 2), F32), offs), dtypes=(F32,),
                        special=False, grad=False, name="ExtractGlimpse" + tag))
    return rows


_DEFAULT_COLORS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1],
                   [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]]


def _ref_draw(images, boxes, colors=None):
    out = images.copy()
    _, h, w, depth = images.shape
    table = np.array(colors if colors is not None else _DEFAULT_COLORS, F64)
    if colors is None and depth == 1:
        table[:, 0] = 1
    for b in range(boxes.shape[0]):
        for k, box in enumerate(boxes[b]):
            color = table[k % len(table)][:depth]
            y0, x0 = int(F32(box[0]) * F32(h - 1)), int(F32(box[1]) * F32(w - 1))
            y1, x1 = int(F32(box[2]) * F32(h - 1)), int(F32(box[3]) * F32(w - 1))
            if y0 > y1 or x0 > x1 or y0 >= h or y1 < 0 or x0 >= w or x1 < 0:
                continue
            for y in range(h):
                for x in range(w):
                    on_row = y in (y0, y1) and x0 <= x <= x1
                    on_col = x in (x0, x1) and y0 <= y <= y1
                    if on_row or on_col:
                        out[b, y, x] = color
    return out


def _draw_rows():
    boxes = np.array([[[0.1, 0.1, 0.6, 0.5], [0.3, 0.4, 0.9, 0.95], [-0.2, 0.5, 0.5, 1.4]],
                      [[0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 0.2, 0.3], [0.2, 0.2, 0.2, 0.8]]], F32)
    colors = np.array([[1.0, 0.5, 0.25, 1.0], [0.0, 1.0, 0.0, 1.0]], F32)

    def inputs(depth):
        return lambda dt, rng: (rand(rng, (2, 8, 9, depth), dt, 0, 1), boxes)
    return [
        Row("DrawBoundingBoxes", tf.image.draw_bounding_boxes, _ref_draw, inputs(3), dtypes=(F16, F32),
            special=False, grad=False),
        Row("DrawBoundingBoxes", tf.image.draw_bounding_boxes, _ref_draw, inputs(1), dtypes=(F32,),
            special=False, grad=False, name="DrawBoundingBoxes-gray"),
        Row("DrawBoundingBoxesV2", lambda i, b: tf.image.draw_bounding_boxes(i, b, colors=colors),
            lambda i, b: _ref_draw(i, b, colors), inputs(4), dtypes=(F16, F32), special=False, grad=False),
    ]


def _sdbb_rows():
    # With the area range [1, 1] and the image's own aspect ratio, the only valid crop is the whole
    # image: the result is deterministic whatever the random stream.
    def build(size, bx):
        return list(tf.image.sample_distorted_bounding_box(size, bx, seed=3, seed2=5, min_object_covered=0.5,
                                                           aspect_ratio_range=[1.25, 1.25], area_range=[1.0, 1.0]))

    def build_v1(size, bx):
        return list(_raw("SampleDistortedBoundingBox", {
            "seed": 3, "seed2": 5, "min_object_covered": 0.5, "aspect_ratio_range": [1.25, 1.25],
            "area_range": [1.0, 1.0], "max_attempts": 10, "use_image_if_no_bounding_boxes": False})(size, bx))

    def ref(size, bx):
        h, w = int(size[0]), int(size[1])
        return [np.array([0, 0, 0]).astype(size.dtype), np.array([h, w, -1]).astype(size.dtype),
                np.array([[[0, 0, 1, 1]]], F32)]

    def inputs(dt, rng):
        return np.array([40, 50, 3], dt), np.array([[[0.1, 0.2, 0.7, 0.9], [0.0, 0.0, 0.3, 0.3]]], F32)
    return [Row("SampleDistortedBoundingBoxV2", build, ref, inputs, dtypes=(I32, np.int64, np.uint8), special=False,
                grad=False),
            Row("SampleDistortedBoundingBox", build_v1, ref, inputs, dtypes=(I32,), special=False, grad=False)]


ROWS = _nms_rows() + _combined_rows() + _crop_rows() + _patch_rows() + _glimpse_rows() + _draw_rows() + _sdbb_rows()
