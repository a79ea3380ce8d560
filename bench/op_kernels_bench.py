"""The heaviest kernels of issue 17's op families against NumPy/SciPy doing the same work, in one run:
resize_bilinear, crop_and_resize, non_max_suppression, stft and svd (best of 5 calls each).

    python bench/op_kernels_bench.py
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tensorweave as tf  # noqa: E402


def best(fn, n=5):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3


def np_bilinear(a, oh, ow):
    """Half-pixel-centre bilinear resize of NHWC images by hand."""
    n, h, w, c = a.shape
    ys = (np.arange(oh) + 0.5) * h / oh - 0.5
    xs = (np.arange(ow) + 0.5) * w / ow - 0.5
    y0 = np.clip(np.floor(ys).astype(int), 0, h - 1)
    x0 = np.clip(np.floor(xs).astype(int), 0, w - 1)
    y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
    wy = np.clip(ys - np.floor(ys), 0, 1)[:, None, None]
    wx = np.clip(xs - np.floor(xs), 0, 1)[None, :, None]
    top = a[:, y0][:, :, x0] * (1 - wx) + a[:, y0][:, :, x1] * wx
    bottom = a[:, y1][:, :, x0] * (1 - wx) + a[:, y1][:, :, x1] * wx
    return top * (1 - wy) + bottom * wy


def np_crop_and_resize(image, boxes, box_ind, size):
    out = np.empty((len(boxes), size, size, image.shape[-1]), np.float32)
    h, w = image.shape[1:3]
    for k, ((y1, x1, y2, x2), b) in enumerate(zip(boxes, box_ind)):
        ys = y1 * (h - 1) + np.arange(size) * (y2 - y1) * (h - 1) / (size - 1)
        xs = x1 * (w - 1) + np.arange(size) * (x2 - x1) * (w - 1) / (size - 1)
        y0, x0 = np.floor(ys).astype(int), np.floor(xs).astype(int)
        yy, xx = np.clip(y0 + 1, 0, h - 1), np.clip(x0 + 1, 0, w - 1)
        y0, x0 = np.clip(y0, 0, h - 1), np.clip(x0, 0, w - 1)
        dy, dx = (ys - np.floor(ys))[:, None, None], (xs - np.floor(xs))[None, :, None]
        img = image[b]
        top = img[y0][:, x0] * (1 - dx) + img[y0][:, xx] * dx
        bottom = img[yy][:, x0] * (1 - dx) + img[yy][:, xx] * dx
        out[k] = top * (1 - dy) + bottom * dy
    return out


def np_nms(boxes, scores, max_out, iou_threshold):
    order = np.argsort(-scores, kind="stable")
    keep = []
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    for i in order:
        if len(keep) == max_out:
            break
        ok = True
        for j in keep:
            yy1, xx1 = max(boxes[i, 0], boxes[j, 0]), max(boxes[i, 1], boxes[j, 1])
            yy2, xx2 = min(boxes[i, 2], boxes[j, 2]), min(boxes[i, 3], boxes[j, 3])
            inter = max(0.0, yy2 - yy1) * max(0.0, xx2 - xx1)
            if inter / (area[i] + area[j] - inter) > iou_threshold:
                ok = False
                break
        if ok:
            keep.append(i)
    return keep


def main():
    from scipy import signal
    rng = np.random.RandomState(0)
    rows = []
    with tf.Graph().as_default(), tf.Session() as sess:
        img = rng.rand(8, 224, 224, 3).astype(np.float32)
        x = tf.placeholder(tf.float32, img.shape)
        r = tf.image.resize_bilinear(x, [112, 112], half_pixel_centers=True)
        sess.run(r, {x: img})
        rows.append(("resize_bilinear 8x224x224x3 -> 112x112", best(lambda: sess.run(r, {x: img})),
                     best(lambda: np_bilinear(img, 112, 112)), "NumPy by hand"))

        image = rng.rand(8, 64, 64, 3).astype(np.float32)
        y1x1 = rng.rand(100, 2) * 0.5
        boxes = np.concatenate([y1x1, y1x1 + 0.5], 1).astype(np.float32)
        ind = rng.randint(0, 8, 100).astype(np.int32)
        ph = tf.placeholder(tf.float32, image.shape)
        c = tf.image.crop_and_resize(ph, boxes, ind, [14, 14])
        sess.run(c, {ph: image})
        rows.append(("crop_and_resize 8x64x64x3, 100 boxes -> 14x14", best(lambda: sess.run(c, {ph: image})),
                     best(lambda: np_crop_and_resize(image, boxes, ind, 14)), "NumPy loop over boxes"))

        corners = rng.rand(1000, 2).astype(np.float32)
        nboxes = np.concatenate([corners, corners + 0.1], 1)
        nscores = rng.rand(1000).astype(np.float32)
        bp = tf.placeholder(tf.float32, nboxes.shape)
        sp = tf.placeholder(tf.float32, nscores.shape)
        nms = tf.image.non_max_suppression(bp, sp, 300, 0.5)
        sess.run(nms, {bp: nboxes, sp: nscores})
        rows.append(("non_max_suppression 1000 boxes, max 300", best(lambda: sess.run(nms, {bp: nboxes, sp: nscores})),
                     best(lambda: np_nms(nboxes, nscores, 300, 0.5)), "NumPy/Python greedy loop"))

        sig = rng.randn(16, 16000).astype(np.float32)
        s = tf.placeholder(tf.float32, sig.shape)
        st = tf.signal.stft(s, 400, 160, 512)
        sess.run(st, {s: sig})
        rows.append(("stft 16x16000 (frame 400, step 160, fft 512)", best(lambda: sess.run(st, {s: sig})),
                     best(lambda: signal.stft(sig, nperseg=400, noverlap=240, nfft=512, boundary=None,
                                              padded=False)), "scipy.signal.stft"))

        m = rng.randn(256, 256).astype(np.float32)
        mp = tf.placeholder(tf.float32, m.shape)
        sv = tf.linalg.svd(mp)
        sess.run(sv, {mp: m})
        rows.append(("svd 256x256", best(lambda: sess.run(sv, {mp: m})), best(lambda: np.linalg.svd(m)),
                     "numpy.linalg.svd"))
    print("%-48s %12s %12s %8s  %s" % ("kernel", "tensorweave", "reference", "ratio", "reference"))
    for name, tw, ref, what in rows:
        print("%-48s %9.2f ms %9.2f ms %7.2fx  %s" % (name, tw, ref, tw / ref, what))


if __name__ == "__main__":
    main()
