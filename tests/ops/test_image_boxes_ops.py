"""tf.image box, patch and similarity ops: TensorFlow's values (recorded by
tests/data/make_image_codec_tf.py), errors, static shapes and the properties of the randomized
ones. The generic checks of every op are in the op table (tests/ops/op_table/rows_image_boxes.py)."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import ops as _ops
from tests.data.make_image_codec_tf import (
    boxes_inputs,
    crop_cases,
    crop_inputs,
    float_images,
    glimpse_cases,
    patches_input,
)

_TF = np.load(pathlib.Path(__file__).parents[1] / "data" / "image_codec_tf.npz")


def _run(t, feed=None):
    g = (t[0] if isinstance(t, (list, tuple)) else t).graph
    with tf.Session(graph=g) as s:
        return s.run(t, feed)


def _same(got, key):
    want = _TF[key]
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)


# ---- NMS ---------------------------------------------------------------------------------------------
def test_non_max_suppression_matches_tf():
    boxes, scores = boxes_inputs()
    with tf.Graph().as_default():
        _same(_run(tf.image.non_max_suppression(boxes, scores, 10, iou_threshold=0.3)), "nms_v2")
        _same(_run(tf.image.non_max_suppression(boxes, scores, 20, iou_threshold=0.5, score_threshold=0.4)), "nms_v3")
        idx, n = _run(list(tf.image.non_max_suppression_padded(boxes, scores, 20, iou_threshold=0.4,
                                                               score_threshold=0.3, pad_to_max_output_size=True)))
        _same(idx, "nms_v4_pad_0")
        _same(n, "nms_v4_pad_1")
        for key, kw in [("nms_v5", dict(iou_threshold=0.6, score_threshold=0.1, soft_nms_sigma=0.5)),
                        ("nms_v5_hard", dict(iou_threshold=0.4))]:
            n_out = 15
            idx, sc = _run(list(tf.image.non_max_suppression_with_scores(boxes, scores, n_out, **kw)))
            _same(idx, key + "_0")
            _same(sc, key + "_1")
        ov = np.random.RandomState(9).uniform(0, 1, (30, 30)).astype(np.float32)
        ov = (ov + ov.T) / 2
        _same(_run(tf.image.non_max_suppression_overlaps(ov, scores, 12, overlap_threshold=0.5,
                                                         score_threshold=0.2)), "nms_overlaps")


@pytest.mark.parametrize("clip", [True, False])
@pytest.mark.parametrize("pad", [True, False])
def test_combined_non_max_suppression_matches_tf(clip, pad):
    boxes, scores = boxes_inputs()
    cb = boxes.reshape(2, 15, 1, 4)
    cs = np.stack([scores.reshape(2, 15), scores[::-1].reshape(2, 15)], -1)
    with tf.Graph().as_default():
        outs = tf.image.combined_non_max_suppression(cb, cs, 4, 6, iou_threshold=0.5, score_threshold=0.2,
                                                     pad_per_class=pad, clip_boxes=clip)
        assert outs[0].shape.as_list() == [2, 6, 4] and outs[3].shape.as_list() == [2]
        got = _run(list(outs))
    for i, v in enumerate(got):
        _same(v, "combined_%d_%d_%d" % (clip, pad, i))


def test_nms_static_shapes_and_errors():
    with tf.Graph().as_default():
        b = tf.placeholder(tf.float32, [None, 4])
        s = tf.placeholder(tf.float32, [None])
        assert tf.image.non_max_suppression(b, s, 3).shape.as_list() == [None]
        idx, n = tf.image.non_max_suppression_padded(b, s, 7, pad_to_max_output_size=True)
        assert idx.shape.as_list() == [7] and n.shape.as_list() == []
        with pytest.raises(ValueError):
            tf.image.non_max_suppression(tf.placeholder(tf.float32, [3, 5]), s, 3)
        with pytest.raises(ValueError):
            tf.image.non_max_suppression(tf.placeholder(tf.float32, [3, 4]), tf.placeholder(tf.float32, [4]), 3)
        t = tf.image.non_max_suppression(b, s, 3, iou_threshold=1.5)
        with pytest.raises(tf.errors.InvalidArgumentError, match="iou_threshold must be in \\[0, 1\\]"):
            _run(t, {b: np.zeros((2, 4)), s: np.zeros(2)})
        t = tf.image.non_max_suppression(b, s, 3)
        with pytest.raises(tf.errors.InvalidArgumentError, match="scores has incompatible shape"):
            _run(t, {b: np.zeros((2, 4)), s: np.zeros(3)})
        with pytest.raises(NotImplementedError, match="batched"):
            tf.image.non_max_suppression_padded(tf.zeros([2, 3, 4]), tf.zeros([2, 3]), 3)


# ---- crop_and_resize ----------------------------------------------------------------------------------
def test_crop_and_resize_and_gradients_match_tf_bitwise():
    image, boxes, box_ind, grad = crop_inputs()
    with tf.Graph().as_default():
        ti, tb = tf.constant(image), tf.constant(boxes)
        y = tf.image.crop_and_resize(ti, tb, box_ind, [4, 3], extrapolation_value=-7.0)
        yn = tf.image.crop_and_resize(ti, tb, box_ind, [4, 3], method="nearest", extrapolation_value=-7.0)
        y1 = tf.image.crop_and_resize(ti, tb, box_indices=box_ind, crop_size=[1, 1])
        gi, gb = tf.gradients(y, [ti, tb], grad_ys=grad)
        got = _run([y, yn, y1, gi, gb])
    for v, key in zip(got, ["crop_bilinear", "crop_nearest", "crop_1x1", "crop_grad_image", "crop_grad_boxes"]):
        _same(v, key)


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
@pytest.mark.parametrize("size", [(5, 4), (1, 3), (2, 1)])
def test_crop_and_resize_random_boxes_match_tf_bitwise(method, size):
    img, boxes, ind, grads = crop_cases()
    tag = "crop_rand_%s_%dx%d" % ((method,) + size)
    with tf.Graph().as_default():
        ti, tb = tf.constant(img), tf.constant(boxes)
        y = tf.image.crop_and_resize(ti, tb, ind, list(size), method=method, extrapolation_value=0.5)
        gi, gb = tf.gradients(y, [ti, tb], grad_ys=grads[size])
        got = _run([y, gi, gb])
    for v, suffix in zip(got, ["", "_gi", "_gb"]):
        _same(v, tag + suffix)


def test_crop_and_resize_errors_and_shapes():
    image, boxes, box_ind, _ = crop_inputs()
    with tf.Graph().as_default():
        t = tf.image.crop_and_resize(image, boxes, box_ind, [4, 3])
        assert t.shape.as_list() == [5, 4, 3, 2] and t.dtype == tf.float32
        bad = tf.image.crop_and_resize(image, boxes, box_ind + 5, [4, 3])
        with pytest.raises(tf.errors.InvalidArgumentError, match="box_index has values outside \\[0, batch_size\\)"):
            _run(bad)
        with pytest.raises(ValueError, match="crop dimensions must be positive"):
            tf.image.crop_and_resize(image, boxes, box_ind, [0, 3])
        with pytest.raises(ValueError):
            tf.image.crop_and_resize(image, boxes, box_ind, [4, 3], box_indices=box_ind)
        # No gradient through the gradient ops (as in TF), none w.r.t. the box indices.
        ti = tf.constant(image)
        gi = tf.gradients(tf.image.crop_and_resize(ti, boxes, box_ind, [4, 3]), ti)[0]
        with pytest.raises(LookupError):
            tf.gradients(gi, ti)
        tb = tf.constant(boxes)
        gb = tf.gradients(tf.image.crop_and_resize(image, tb, box_ind, [4, 3]), tb)[0]
        with pytest.raises(LookupError):
            tf.gradients(gb, tb)
        # Integer images: no image gradient, a boxes gradient (TF's rule).
        tu = tf.constant(image.astype(np.int32))
        assert tf.gradients(tf.image.crop_and_resize(tu, tb, box_ind, [2, 2]), [tu])[0] is None


# ---- patches, glimpse, drawing ------------------------------------------------------------------------
@pytest.mark.parametrize("padding", ["VALID", "SAME"])
def test_extract_image_patches_and_gradient_match_tf(padding):
    p = patches_input()
    with tf.Graph().as_default():
        tp = tf.constant(p)
        y = tf.image.extract_image_patches(tp, [1, 3, 2, 1], [1, 2, 3, 1], [1, 1, 2, 1], padding)
        assert y.shape.as_list() == list(_TF["patches_%s" % padding].shape)
        got = _run(y)
        g = np.random.RandomState(1).uniform(-1, 1, got.shape).astype(np.float32)
        grad = _run(tf.gradients(y, tp, grad_ys=g)[0])
    _same(got, "patches_%s" % padding)
    _same(grad, "patches_grad_%s" % padding)


def test_extract_volume_patches_and_aliases():
    vol = np.random.RandomState(2).uniform(-1, 1, (1, 4, 5, 6, 2)).astype(np.float32)
    with tf.Graph().as_default():
        _same(_run(tf.extract_volume_patches(vol, [1, 2, 3, 2, 1], [1, 1, 2, 3, 1], "SAME")), "volume_patches")
        p = patches_input()
        a = tf.extract_image_patches(p, ksizes=[1, 3, 2, 1], strides=[1, 2, 3, 1], rates=[1, 1, 2, 1],
                                     padding="VALID")
        b = tf.image.extract_patches(p, [1, 3, 2, 1], [1, 2, 3, 1], [1, 1, 2, 1], "VALID")
        np.testing.assert_array_equal(*_run([a, b]))
        with pytest.raises(ValueError, match="ksizes"):
            tf.image.extract_image_patches(p, [2, 3, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")


def test_extract_glimpse_matches_tf_inside_the_image():
    image = crop_inputs()[0]
    offs = np.array([[0.1, -0.2], [-0.3, 0.25]], np.float32)
    with tf.Graph().as_default():
        for c in (True, False):
            for n in (True, False):
                o = offs if c else (np.abs(offs) if n else np.array([[2.0, 3.0], [4.0, 2.0]], np.float32))
                _same(_run(tf.image.extract_glimpse(image, [3, 4], o, centered=c, normalized=n,
                                                    uniform_noise=False)), "glimpse_c%d_n%d" % (c, n))
        # Outside the image: uniform noise over the image's range (random, as in TF).
        out = _run(tf.image.extract_glimpse(image, [5, 5], np.array([[0.9, 0.9], [-0.9, 0.0]], np.float32)))
        want = _TF["glimpse_zero_out"]
        inside = np.isin(want, image)
        np.testing.assert_array_equal(out[inside], want[inside])
        assert image.min() <= out.min() and out.max() <= image.max()


@pytest.mark.parametrize("k", range(12))
def test_extract_glimpse_zero_noise_matches_tf(k):
    # TF's op with noise="zero" (not reachable from TF1's Python API): offsets truncated toward zero.
    x, size, off, c, n = glimpse_cases()[k]
    with tf.Graph().as_default():
        t = _ops.apply_op("ExtractGlimpse", [tf.constant(x), tf.constant(size), tf.constant(off)],
                          {"centered": c, "normalized": n, "uniform_noise": False, "noise": "zero"})
        _same(_run(t), "glimpse_zero_%d" % k)


def test_draw_bounding_boxes_matches_tf():
    canvas = np.zeros((2, 10, 12, 3), np.float32)
    boxes = np.array([[[0.1, 0.1, 0.6, 0.5], [0.3, 0.4, 0.9, 0.95]], [[0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 0.2, 0.3]]],
                     np.float32)
    colors = np.array([[1.0, 0.5, 0.25, 1.0], [0.0, 1.0, 0.0, 1.0]], np.float32)
    with tf.Graph().as_default():
        _same(_run(tf.image.draw_bounding_boxes(canvas, boxes)), "draw_default")
        _same(_run(tf.image.draw_bounding_boxes(canvas, boxes, colors=colors)), "draw_colors")
        _same(_run(tf.image.draw_bounding_boxes(canvas[..., :1], boxes)), "draw_gray")
        _same(_run(tf.image.draw_bounding_boxes(np.zeros((2, 10, 12, 4), np.uint8) + 3, boxes)), "draw_u8")
        bad = tf.image.draw_bounding_boxes(np.zeros((2, 10, 12, 2), np.float32), boxes)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Channel depth should be either 1"):
            _run(bad)


# ---- SSIM -----------------------------------------------------------------------------------------------
def test_ssim_matches_tf():
    a, b = float_images()
    u8a, u8b = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
    big_a, big_b = np.tile(a, (1, 4, 4, 1)), np.tile(b, (1, 4, 4, 1))
    with tf.Graph().as_default():
        got = _run([tf.image.ssim(a, b, max_val=1.0),
                    tf.image.ssim(a, b, max_val=1.0, filter_size=7, filter_sigma=1.2, k1=0.02, k2=0.04),
                    tf.image.ssim(u8a, u8b, max_val=255),
                    tf.image.ssim_multiscale(big_a, big_b, max_val=1.0),
                    tf.image.ssim_multiscale(big_a, big_b, max_val=1.0, power_factors=(0.5, 0.3, 0.2),
                                             filter_size=5)])
        smap = _run(tf.image.ssim(a, b, max_val=1.0, return_index_map=True))
    for v, key in zip(got, ["ssim", "ssim_k", "ssim_u8", "ssim_ms", "ssim_ms_w"]):
        assert v.dtype == np.float32 and v.shape == (2,)
        np.testing.assert_allclose(v, _TF[key], rtol=1e-5)
    assert smap.shape == (2, 38, 38)
    np.testing.assert_allclose(smap.mean(axis=(1, 2)), _TF["ssim"], rtol=1e-5)


def test_ssim_of_identical_images_is_one_and_small_images_fail():
    a, _ = float_images()
    with tf.Graph().as_default():
        np.testing.assert_allclose(_run(tf.image.ssim(a, a, 1.0)), [1.0, 1.0], rtol=1e-6)
        with pytest.raises(ValueError, match="Negative dimension size"):
            tf.image.ssim(a[:, :5, :5], a[:, :5, :5], 1.0)
        p = tf.placeholder(tf.float32, [None, None, None, 3])
        with pytest.raises(tf.errors.InvalidArgumentError):
            _run(tf.image.ssim(p, p, 1.0), {p: a[:, :5, :5]})


# ---- sample_distorted_bounding_box ------------------------------------------------------------------------
def test_sample_distorted_bounding_box_constraints_and_seeding():
    """TF's sampling algorithm on our own stream: the values are not TF's, but every sample must
    satisfy the constraints, and seeds make runs reproducible."""
    boxes = np.array([[[0.2, 0.3, 0.6, 0.7]]], np.float32)
    h, w = 120, 160
    results = []
    for _ in range(2):
        with tf.Graph().as_default():
            begin, size, bbox = tf.image.sample_distorted_bounding_box(
                [h, w, 3], boxes, seed=7, seed2=11, min_object_covered=0.6, aspect_ratio_range=(0.5, 2.0),
                area_range=(0.1, 0.8))
            assert bbox.shape.as_list() == [1, 1, 4] and begin.dtype == tf.int32
            with tf.Session() as s:
                results.append([s.run([begin, size, bbox]) for _ in range(200)])
    for (b1, s1, x1), (b2, s2, x2) in zip(*results):
        np.testing.assert_array_equal(b1, b2)
        np.testing.assert_array_equal(s1, s2)
    obj = (int(0.3 * w), int(0.2 * h), int(0.7 * w), int(0.6 * h))
    areas, ratios = [], []
    for begin, size, bbox in results[0]:
        y, x, _ = begin
        ch, cw, c = size
        assert c == -1 and 0 <= y and y + ch <= h and 0 <= x and x + cw <= w
        np.testing.assert_allclose(bbox[0, 0], [y / h, x / w, (y + ch) / h, (x + cw) / w], rtol=1e-6)
        if (ch, cw) == (h, w):
            continue  # the fallback after max_attempts failures
        area = ch * cw / (h * w)
        assert 0.1 - 1e-3 <= area <= 0.8 + 1e-3
        ratios.append(cw / ch)
        areas.append(area)
        inter = max(0, min(obj[2], x + cw) - max(obj[0], x)) * max(0, min(obj[3], y + ch) - max(obj[1], y))
        assert inter / ((obj[2] - obj[0]) * (obj[3] - obj[1])) >= 0.6 - 1e-6
    assert len(areas) > 150
    assert 0.45 <= min(ratios) and max(ratios) <= 2.05 and max(ratios) / min(ratios) > 1.5
    assert len({tuple(r[0]) for r in results[0]}) > 50  # the crops vary


def test_sample_distorted_bounding_box_errors():
    with tf.Graph().as_default():
        t = tf.image.sample_distorted_bounding_box([10, 10, 3], np.zeros((1, 0, 4), np.float32))
        with pytest.raises(tf.errors.InvalidArgumentError, match="No bounding boxes provided"):
            _run(list(t))
        t = tf.image.sample_distorted_bounding_box([10, 10, 3], np.zeros((1, 0, 4), np.float32),
                                                   use_image_if_no_bounding_boxes=True, seed=1)
        begin, size, _ = _run(list(t))
        assert begin[2] == 0 and size[2] == -1
        t = tf.image.sample_distorted_bounding_box([10, 10, 3], [[[0.1, 0.1, 1.5, 0.5]]])
        with pytest.raises(tf.errors.InvalidArgumentError, match="must be in \\[0.0, 1.0\\]"):
            _run(list(t))
