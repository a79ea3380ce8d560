"""tf.image resize ops: TF's exact pixel values (recorded by tests/data/make_image_resize_tf.py),
static shapes, errors and gradients. The generic checks of every op are in the op table
(tests/ops/op_table/rows_image.py)."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf

_TF = np.load(pathlib.Path(__file__).parents[1] / "data" / "image_resize_tf.npz")
_MODES = {"plain": (False, False), "align": (True, False), "half": (False, True)}
_FNS = {"bilinear": tf.image.resize_bilinear, "nearest": tf.image.resize_nearest_neighbor,
        "bicubic": tf.image.resize_bicubic}


def _inputs():
    x = ((np.arange(2 * 3 * 4 * 2) * 7919) % 251 / 10.0 - 12.0).astype(np.float32).reshape(2, 3, 4, 2)
    u8 = ((np.arange(2 * 3 * 4 * 2) * 7919) % 251).astype(np.uint8).reshape(2, 3, 4, 2)
    g = (((np.arange(2 * 5 * 7 * 2) * 104729) % 97) / 16.0 - 3.0).astype(np.float32).reshape(2, 5, 7, 2)
    return x, u8, g


def _run(t, feed=None):
    with tf.Session(graph=t.graph) as s:
        return s.run(t, feed)


@pytest.mark.parametrize("key", sorted(k for k in _TF.files if not k.startswith(("grad_", "resize_images"))))
def test_resize_matches_tf_bitwise(key):
    name, mode, src, size = key.split("-")
    x, u8, _ = _inputs()
    h, w = (int(v) for v in size.split("x"))
    ac, hp = _MODES[mode]
    with tf.Graph().as_default():
        images = tf.constant(x if src == "f32" else u8)
        if name == "area":
            out = tf.image.resize_area(images, [h, w], align_corners=ac)
        else:
            out = _FNS[name](images, [h, w], align_corners=ac, half_pixel_centers=hp)
        got = _run(out)
    want = _TF[key]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("key", sorted(k for k in _TF.files if k.startswith("grad_")))
def test_resize_gradients_match_tf_bitwise(key):
    name, mode = key[len("grad_"):].split("-")
    ac, hp = _MODES[mode]
    x, _, g = _inputs()
    with tf.Graph().as_default():
        px = tf.constant(x)
        y = _FNS[name](px, (5, 7), align_corners=ac, half_pixel_centers=hp)
        got = _run(tf.gradients(y, px, grad_ys=g)[0])
    np.testing.assert_array_equal(got, _TF[key])


@pytest.mark.parametrize("method", range(4))
def test_resize_images_preserve_aspect_ratio_matches_tf(method):
    x, _, _ = _inputs()
    with tf.Graph().as_default():
        out = tf.image.resize_images(tf.constant(x[0]), [6, 6], method=method, preserve_aspect_ratio=True)
        assert out.shape.as_list() == [4, 6, 2]
        got = _run(out)
    np.testing.assert_array_equal(got, _TF["resize_images-%d" % method])


def test_resize_images_static_shapes_and_names():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [None, 3, 4, 3])
        y = tf.image.resize_images(p, [5, 7])
        assert y.op.type == "ResizeBilinear" and y.name == "resize/ResizeBilinear:0"
        assert y.shape.as_list() == [None, 5, 7, 3]
        u = tf.placeholder(tf.float32, [None, None, None, 3])
        assert tf.image.resize_images(u, [4, 6], preserve_aspect_ratio=True).shape.as_list() == [None, None, None, 3]
        size = tf.placeholder(tf.int32, [2])
        assert tf.image.resize_images(p, size).shape.as_list() == [None, None, None, 3]
        assert tf.image.resize_bilinear(np.zeros((1, 3, 4, 1), np.float32), [-1, 2]).shape.as_list() == [1, None, 2, 1]
        # the same static size returns the images themselves (their dtype: no resize op)
        same = tf.image.resize_images(tf.constant(np.zeros((1, 3, 4, 1), np.uint8)), [3, 4])
        assert same.dtype == tf.uint8 and same.op.type == "Const"
        assert tf.image.resize_images(tf.constant(np.zeros((1, 3, 4, 1), np.uint8)), [3, 5]).dtype == tf.float32
        nn = tf.image.resize_images(tf.constant(np.zeros((3, 4, 1), np.uint8)), [6, 5],
                                    tf.image.ResizeMethod.NEAREST_NEIGHBOR)
        assert nn.dtype == tf.uint8 and nn.shape.as_list() == [6, 5, 1]
        assert tf.image.resize is tf.image.resize_images


def test_resize_errors():
    x = np.zeros((1, 3, 4, 1), np.float32)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
            tf.image.resize_bilinear(np.zeros((3, 4, 1), np.float32), [2, 2])
        with pytest.raises(ValueError, match="Dimension must be 2 but is 3"):
            tf.image.resize_bilinear(x, [2, 2, 2])
        with pytest.raises(ValueError, match="'size' must be a 1-D Tensor of 2 elements"):
            tf.image.resize_images(x, [2, 2, 3])
        with pytest.raises(ValueError, match="'images' must have either 3 or 4 dimensions."):
            tf.image.resize_images(np.zeros((3, 4), np.float32), [2, 2])
        with pytest.raises(ValueError, match="'images' contains no shape."):
            tf.image.resize_images(tf.placeholder(tf.float32), [2, 2])
        with pytest.raises(ValueError, match="Resize method is not implemented: 7"):
            tf.image.resize_images(x, [2, 2], method=7)
        for fn in _FNS.values():
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="If half_pixel_centers is True, align_corners must be False."):
                _run(fn(x, [2, 2], align_corners=True, half_pixel_centers=True))
        p = tf.placeholder(tf.int32, [2])
        with pytest.raises(tf.errors.InvalidArgumentError, match="output dimensions must be positive"):
            _run(tf.image.resize_bilinear(x, p), {p: [0, 2]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="input image must be of non-zero size"):
            _run(tf.image.resize_area(np.zeros((1, 0, 4, 1), np.float32), [2, 2]))


def test_resize_gradient_rules():
    x = np.arange(12, dtype=np.float32).reshape(1, 3, 4, 1)
    with tf.Graph().as_default():
        c = tf.constant(x)
        with pytest.raises(LookupError):
            tf.gradients(tf.image.resize_area(c, [2, 2]), c)
        y = tf.image.resize_bilinear(c, [5, 5])
        # ResizeBilinearGrad is not differentiable; the image enters it only through its shape
        assert tf.gradients(tf.gradients(tf.reduce_sum(y * y), c)[0], c) == [None]
        n = tf.image.resize_nearest_neighbor(c, [6, 8])
        dn = _run(tf.gradients(n, c)[0])
    np.testing.assert_array_equal(dn, np.full((1, 3, 4, 1), 4.0, np.float32))


def test_resize_eager():
    x, u8, _ = _inputs()
    from tensorweave.eager import context
    with context.eager_mode():
        got = tf.image.resize_bilinear(x, [5, 7], half_pixel_centers=True).numpy()
    np.testing.assert_array_equal(got, _TF["bilinear-half-f32-5x7"])


# ---- image values (tests/data/make_image_ops_tf.py) ---------------------------------------------
_TF_OPS = np.load(pathlib.Path(__file__).parents[1] / "data" / "image_ops_tf.npz")


def _value_inputs():
    f32 = ((np.arange(2 * 13 * 11 * 3) * 7919) % 1009 / 1009.0).astype(np.float32).reshape(2, 13, 11, 3)
    u8 = ((np.arange(2 * 5 * 7 * 3) * 7919) % 256).astype(np.uint8).reshape(2, 5, 7, 3)
    return {"f32": f32, "u8": u8}


def _value_of(key, x):
    kind, rest = key.split("-", 1)
    if kind == "contrast":
        cf, _ = rest.rsplit("-", 1)
        return tf.image.adjust_contrast(x, float(cf))
    if kind == "gray":
        return tf.image.rgb_to_grayscale(x)
    if kind == "bright":
        return tf.image.adjust_brightness(x, 0.2)
    if kind == "standard":
        return tf.image.per_image_standardization(x)
    if kind in ("hue", "saturation"):
        value = float(rest.rsplit("-", 1)[0])
        return tf.image.adjust_hue(x, value) if kind == "hue" else tf.image.adjust_saturation(x, value)
    if kind == "hsv":
        return tf.image.rgb_to_hsv(x)
    if kind == "rgb":
        return tf.image.hsv_to_rgb(x)
    if kind == "hsvgrad":
        c = tf.constant(x)
        return tf.gradients(tf.image.rgb_to_hsv(c), c, grad_ys=tf.constant(x[::-1]))[0]
    return tf.image.convert_image_dtype(x, getattr(tf, rest.split("-")[1]))


@pytest.mark.parametrize("key", sorted(_TF_OPS.files))
def test_image_values_match_tf(key):
    x = _value_inputs()[key.rsplit("-", 1)[1] if not key.startswith("convert") else key.split("-")[1]]
    with tf.Graph().as_default():
        got = _run(_value_of(key, x))
    want = _TF_OPS[key]
    assert got.dtype == want.dtype and got.shape == want.shape
    if key.startswith("standard"):
        # the mean and standard deviation are reductions: TF's summation order is Eigen's
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    else:
        np.testing.assert_array_equal(got, want)


def test_value_functions_errors_and_shapes():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Last dimension of a grayscale image should be size 1."):
            tf.image.grayscale_to_rgb(tf.zeros([2, 3, 2]))
        with pytest.raises(ValueError, match="must be at least two-dimensional"):
            tf.image.grayscale_to_rgb(tf.zeros([3]))
        with pytest.raises(AttributeError, match="dtype must be either floating point or integer"):
            tf.image.convert_image_dtype(tf.zeros([2, 2, 1]), tf.bool)
        with pytest.raises(ValueError, match="must be at least three-dimensional"):
            tf.image.per_image_standardization(tf.zeros([3, 4]))
        with pytest.raises(ValueError, match="Shape must be at least rank 3 but is rank 2"):
            tf.image.adjust_contrast(tf.zeros([3, 4]), 0.5)
        with pytest.raises(ValueError, match="max_delta must be non-negative."):
            tf.image.random_brightness(tf.zeros([2, 2, 3]), -0.1)
        with pytest.raises(ValueError, match="upper must be > lower."):
            tf.image.random_contrast(tf.zeros([2, 2, 3]), 0.5, 0.5)
        with pytest.raises(ValueError, match="lower must be non-negative."):
            tf.image.random_contrast(tf.zeros([2, 2, 3]), -0.5, 0.5)
        g = tf.placeholder(tf.uint8, [None, 4, 1])
        rgb = tf.image.grayscale_to_rgb(g)
        assert rgb.shape.as_list() == [None, 4, 3]
        assert tf.image.per_image_standardization(tf.zeros([2, 3, 3], tf.uint8)).dtype == tf.float32
        same = tf.zeros([2, 2, 1])
        assert tf.image.convert_image_dtype(same, tf.float32).op.type == "Identity"
        out = _run(rgb, {g: np.arange(8, dtype=np.uint8).reshape(2, 4, 1)})
    np.testing.assert_array_equal(out, np.repeat(np.arange(8, dtype=np.uint8).reshape(2, 4, 1), 3, axis=-1))
    with tf.Graph().as_default():
        c = tf.constant(np.ones((1, 2, 2, 1), np.float32))
        with pytest.raises(LookupError):
            tf.gradients(tf.image.adjust_contrast(c, 2.0), c)
        # per_image_standardization of a uniform image: the 1/sqrt(N) floor keeps it finite
        assert np.all(_run(tf.image.per_image_standardization(tf.ones([3, 4, 2]))) == 0)


def test_random_brightness_and_contrast_ranges_and_seeds():
    x = _value_inputs()["f32"]
    with tf.Graph().as_default():
        tf.set_random_seed(7)
        b = tf.image.random_brightness(x, 0.3, seed=3)
        c = tf.image.random_contrast(x, 0.2, 0.8, seed=4)
        with tf.Session() as s:
            vb, vc = s.run([b, c])
            deltas = [float(np.mean(s.run(b) - x)) for _ in range(20)]
        with tf.Session() as s:
            assert np.array_equal(s.run(b), vb) and np.array_equal(s.run(c), vc)
    assert all(-0.3 <= d <= 0.3 for d in deltas) and len(set(np.round(deltas, 5))) > 1
    mean = x.mean(axis=(1, 2), keepdims=True)
    factor = (vc - mean) / (x - mean)
    assert 0.2 <= np.median(factor) < 0.8


# ---- geometry ------------------------------------------------------------------------------------
_X3 = np.arange(5 * 6 * 2, dtype=np.float32).reshape(5, 6, 2)
_X4 = np.arange(2 * 5 * 6 * 3).astype(np.uint8).reshape(2, 5, 6, 3)


def _geometry_cases():
    """(name, function of the image, NumPy reference of one [h, w, c] image)."""
    def crop_pad(a, th, tw):
        h, w = a.shape[:2]
        a = a[max((h - th) // 2, 0):][:min(th, h), max((w - tw) // 2, 0):][:, :min(tw, w)]
        out = np.zeros((th, tw) + a.shape[2:], a.dtype)
        oh, ow = max((th - h) // 2, 0), max((tw - w) // 2, 0)
        out[oh:oh + a.shape[0], ow:ow + a.shape[1]] = a
        return out
    cases = [("flip_left_right", tf.image.flip_left_right, lambda a: a[:, ::-1]),
             ("flip_up_down", tf.image.flip_up_down, lambda a: a[::-1]),
             ("transpose_image", tf.image.transpose_image, lambda a: a.transpose(1, 0, 2)),
             ("crop", lambda t: tf.image.crop_to_bounding_box(t, 1, 2, 3, 3), lambda a: a[1:4, 2:5]),
             ("pad", lambda t: tf.image.pad_to_bounding_box(t, 1, 2, 8, 9),
              lambda a: np.pad(a, [(1, 2), (2, 1), (0, 0)])),
             ("central_crop", lambda t: tf.image.central_crop(t, 0.5), lambda a: a[1:4, 1:5]),
             ("central_crop-0.33", lambda t: tf.image.central_crop(t, 0.33), lambda a: a[1:4, 2:4])]
    for k in range(-1, 5):
        cases.append(("rot90-%d" % k, lambda t, k=k: tf.image.rot90(t, k), lambda a, k=k: np.rot90(a, k)))
    for th, tw in [(3, 3), (8, 9), (4, 9), (7, 2), (5, 6)]:
        cases.append(("crop_or_pad-%dx%d" % (th, tw), lambda t, th=th, tw=tw: tf.image.resize_image_with_crop_or_pad(
            t, th, tw), lambda a, th=th, tw=tw: crop_pad(a, th, tw)))
    return cases


@pytest.mark.parametrize("name,fn,ref", _geometry_cases(), ids=[c[0] for c in _geometry_cases()])
@pytest.mark.parametrize("static", [True, False], ids=["static", "dynamic"])
def test_geometry(name, fn, ref, static):
    for x in (_X3, _X4):
        want = ref(x) if x.ndim == 3 else np.stack([ref(a) for a in x])
        with tf.Graph().as_default():
            shape = list(x.shape) if static else [None] * (x.ndim - 1) + [x.shape[-1]]
            p = tf.placeholder(tf.as_dtype(x.dtype), shape)
            out = fn(p)
            assert out.shape.is_compatible_with(want.shape)
            if static and not name.startswith("rot90"):
                assert out.shape.as_list() == list(want.shape)
            got = _run(out, {p: x})
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_geometry_unknown_rank_and_errors():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32)
        np.testing.assert_array_equal(_run(tf.image.flip_left_right(p), {p: _X3}), _X3[:, ::-1])
        np.testing.assert_array_equal(_run(tf.image.flip_up_down(p), {p: _X4}), _X4[:, ::-1].astype(np.float32))
        np.testing.assert_array_equal(_run(tf.image.crop_to_bounding_box(p, 1, 2, 3, 3), {p: _X3}), _X3[1:4, 2:5])
        with pytest.raises(ValueError, match="must be at least three-dimensional"):
            tf.image.flip_left_right(np.zeros((3, 4), np.float32))
        with pytest.raises(ValueError, match="must have either 3 or 4 dimensions"):
            tf.image.flip_left_right(np.zeros((1, 1, 3, 4, 1), np.float32))
        with pytest.raises(ValueError, match="inner 3 dims of 'image.shape' must be > 0"):
            tf.image.flip_left_right(np.zeros((0, 3, 4), np.float32))
        with pytest.raises(ValueError, match=r"central_fraction must be within \(0, 1\]"):
            tf.image.central_crop(_X3, 0.0)
        assert tf.image.central_crop(tf.constant(_X3), 1.0).op.type == "Const"
        with pytest.raises(ValueError, match="height must be >= target \\+ offset."):
            tf.image.crop_to_bounding_box(_X3, 1, 2, 5, 3)
        with pytest.raises(ValueError, match="offset_width must be >= 0."):
            tf.image.crop_to_bounding_box(_X3, 1, -2, 2, 3)
        with pytest.raises(ValueError, match="height must be <= target - offset"):
            tf.image.pad_to_bounding_box(_X3, 1, 2, 5, 9)
        with pytest.raises(ValueError, match="target_height must be > 0."):
            tf.image.resize_image_with_crop_or_pad(_X3, 0, 2)
        d = tf.placeholder(tf.float32, [None, None, 2])
        with pytest.raises(tf.errors.InvalidArgumentError, match="height must be >= target \\+ offset."):
            _run(tf.image.crop_to_bounding_box(d, 1, 2, 5, 3), {d: _X3})
        with pytest.raises(tf.errors.InvalidArgumentError, match="width must be <= target - offset"):
            _run(tf.image.pad_to_bounding_box(d, 1, 2, 9, 7), {d: _X3})
        with pytest.raises(ValueError):
            tf.image.rot90(_X3, [1, 2])


def test_random_flips_and_crop_are_seeded():
    batch = np.arange(64 * 2 * 3, dtype=np.float32).reshape(64, 2, 3, 1)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        lr = tf.image.random_flip_left_right(batch, seed=5)
        ud = tf.image.random_flip_up_down(batch[0], seed=6)
        crop = tf.random_crop(_X3, [3, 4, 2], seed=2)
        assert tf.image.random_crop is tf.random_crop
        assert lr.shape.as_list() == [64, 2, 3, 1] and ud.shape.as_list() == [2, 3, 1]
        assert crop.shape.as_list() == [3, 4, 2]
        with tf.Session() as s:
            first = s.run([lr, ud, crop])
            seen_ud = {s.run(ud)[0, 0, 0] for _ in range(30)}
            crops = [s.run(crop) for _ in range(30)]
        with tf.Session() as s:
            again = s.run([lr, ud, crop])
        bad = tf.random_crop(_X3, [6, 4, 2])
        with pytest.raises(tf.errors.InvalidArgumentError, match="Need value.shape >= size"):
            _run(bad)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    flipped = np.all(first[0] == batch[:, :, ::-1], axis=(1, 2, 3))
    kept = np.all(first[0] == batch, axis=(1, 2, 3))
    assert np.all(flipped | kept) and 10 < flipped.sum() < 54
    assert seen_ud == {0.0, 3.0}
    for c in crops:
        i, j = int(c[0, 0, 0]) // 12, int(c[0, 0, 0]) % 12 // 2
        np.testing.assert_array_equal(c, _X3[i:i + 3, j:j + 4])
    assert len({c[0, 0, 0] for c in crops}) > 1


# ---- measures ------------------------------------------------------------------------------------
def test_total_variation_image_gradients_psnr():
    rng = np.random.RandomState(5)
    a = rng.uniform(0, 1, (2, 5, 7, 3)).astype(np.float32)
    b = rng.uniform(0, 1, (2, 5, 7, 3)).astype(np.float32)
    u8a = rng.randint(0, 256, (2, 5, 7, 3)).astype(np.uint8)
    u8b = rng.randint(0, 256, (2, 5, 7, 3)).astype(np.uint8)
    a64 = a.astype(np.float64)
    tv = np.abs(np.diff(a64, axis=1)).sum(axis=(1, 2, 3)) + np.abs(np.diff(a64, axis=2)).sum(axis=(1, 2, 3))
    dy = np.concatenate([np.diff(a, axis=1), np.zeros((2, 1, 7, 3), np.float32)], 1)
    dx = np.concatenate([np.diff(a, axis=2), np.zeros((2, 5, 1, 3), np.float32)], 2)

    def ref_psnr(x, y, max_val):
        mse = ((x.astype(np.float64) - y.astype(np.float64)) ** 2).mean(axis=(-3, -2, -1))
        return 20 * np.log10(max_val) - 10 * np.log10(mse)
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [None, 5, 7, 3])
        tv_t, tv3 = tf.image.total_variation(p), tf.image.total_variation(tf.constant(a[1]))
        assert tv_t.shape.as_list() == [None] and tv3.shape.as_list() == []
        gy, gx = tf.image.image_gradients(p)
        ps = tf.image.psnr(p, b, 1.0)
        ps8 = tf.image.psnr(u8a, u8b, 255)
        same = tf.image.psnr(u8a, u8a, 255)
        with tf.Session() as s:
            out = s.run([tv_t, tv3, gy, gx, ps, ps8, same], {p: a})
        with pytest.raises(ValueError, match="'images' must be either 3 or 4-dimensional."):
            tf.image.total_variation(tf.zeros([3, 4]))
        with pytest.raises(ValueError, match="image_gradients expects a 4D tensor"):
            tf.image.image_gradients(tf.zeros([3, 4, 1]))
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 5 and 4"):
            tf.image.psnr(a, b[:, :4], 1.0)
    np.testing.assert_allclose(out[0], tv, rtol=1e-6)
    np.testing.assert_allclose(out[1], tv[1], rtol=1e-6)
    np.testing.assert_array_equal(out[2], dy)
    np.testing.assert_array_equal(out[3], dx)
    assert out[4].dtype == np.float32 and out[5].dtype == np.float32
    np.testing.assert_allclose(out[4], ref_psnr(a, b, 1.0), rtol=1e-5)
    np.testing.assert_allclose(out[5], ref_psnr(u8a, u8b, 255.0), rtol=1e-5)
    assert np.all(np.isposinf(out[6]))


def test_hsv_errors_gradients_and_random_variants():
    x = _value_inputs()["f32"]
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimension must be 3 but is 4"):
            tf.image.rgb_to_hsv(tf.zeros([3, 4]))
        with pytest.raises(ValueError, match="Shape must be at least rank 3 but is rank 2"):
            tf.image.adjust_hue(tf.zeros([3, 3]), 0.1)
        with pytest.raises(tf.errors.InvalidArgumentError, match="input must have 3 channels but instead has 2"):
            _run(tf.image.adjust_hue(tf.placeholder_with_default(np.zeros((3, 4, 2), np.float32), None), 0.1))
        with pytest.raises(ValueError, match="max_delta must be <= 0.5."):
            tf.image.random_hue(x, 0.6)
        with pytest.raises(ValueError, match="max_delta must be non-negative."):
            tf.image.random_hue(x, -0.1)
        with pytest.raises(ValueError, match="upper must be > lower."):
            tf.image.random_saturation(x, 0.5, 0.2)
        c = tf.constant(x)
        for fn in (lambda t: tf.image.adjust_hue(t, 0.2), lambda t: tf.image.adjust_saturation(t, 0.5)):
            with pytest.raises(LookupError):
                tf.gradients(fn(c), c)
        assert tf.gradients(tf.image.hsv_to_rgb(c), c) == [None]
        tf.set_random_seed(3)
        rh, rs = tf.image.random_hue(x, 0.2, seed=1), tf.image.random_saturation(x, 0.5, 1.5, seed=2)
        with tf.Session() as s:
            a = s.run([rh, rs])
        with tf.Session() as s:
            b = s.run([rh, rs])
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    assert a[0].shape == x.shape and not np.array_equal(a[0], x)


def test_resize_image_with_pad():
    with tf.Graph().as_default():
        # 5x6 into 8x8: the ratio 6/8 gives a 6x8 bilinear resize (floor(6.67)), padded by 0 rows above
        out = tf.image.resize_image_with_pad(_X3, 8, 8)
        want = tf.image.pad_to_bounding_box(tf.image.resize_images(_X3, [6, 8]), 0, 0, 8, 8)
        # 5x6 into 10x4: a 3x4 nearest resize, padded by floor((10 - 3.33) / 2) = 3 rows above
        nn = tf.image.resize_image_with_pad(_X4, 10, 4, method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
        want_nn = tf.image.pad_to_bounding_box(tf.image.resize_nearest_neighbor(_X4, [3, 4]), 3, 0, 10, 4)
        assert out.shape.as_list() == [8, 8, 2] and nn.shape.as_list() == [2, 10, 4, 3]
        with pytest.raises(ValueError, match="target_height must be > 0."):
            tf.image.resize_image_with_pad(_X3, 0, 4)
        with tf.Session() as s:
            a, b, c, d = s.run([out, want, nn, want_nn])
    np.testing.assert_array_equal(a, b)
    assert c.dtype == np.uint8
    np.testing.assert_array_equal(c, d)


def test_linear_color_spaces_and_gamma():
    rng = np.random.RandomState(2)
    x = rng.uniform(0, 1, (2, 5, 7, 3))
    u8 = rng.randint(0, 256, (2, 5, 7, 3)).astype(np.uint8)
    yiq = np.array([[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
                    [0.114, -0.32134392, 0.31119955]])
    yuv = np.array([[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                    [0.114, 0.43601035, -0.10001026]])
    with tf.Graph().as_default():
        outs = [tf.image.rgb_to_yiq(x), tf.image.rgb_to_yuv(x), tf.image.yiq_to_rgb(tf.image.rgb_to_yiq(x)),
                tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(x.astype(np.float32))),
                tf.image.adjust_gamma(x.astype(np.float32), 2.2, 1.5), tf.image.adjust_gamma(u8, 0.5)]
        with pytest.raises(ValueError, match="Gamma should be a non-negative real number."):
            tf.image.adjust_gamma(x, -1)
        with tf.Session() as s:
            a, b, c, d, e, f = s.run(outs)
    np.testing.assert_allclose(a, x @ yiq, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(b, x @ yuv, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(c, x, atol=1e-4)  # TF's published matrices are inverses to about 1e-4
    assert d.dtype == np.float32
    np.testing.assert_allclose(d, x, atol=1e-4)
    np.testing.assert_allclose(e, 1.5 * x.astype(np.float32) ** 2.2, rtol=1e-6)
    # uint8 -> float32 (/255), gamma, back to uint8 (* 255.5, truncated), as TF
    assert f.dtype == np.uint8
    want = (np.sqrt(u8.astype(np.float32) * np.float32(1 / 255.0)) * np.float32(255.5)).astype(np.uint8)
    np.testing.assert_array_equal(f, want)


def test_sobel_edges():
    x = np.random.RandomState(2).uniform(0, 1, (2, 5, 7, 3))
    p = np.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)], mode="reflect")
    ky = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], np.float64)
    want = np.zeros(x.shape + (2,))
    for k, kern in enumerate((ky, ky.T)):
        for i in range(3):
            for j in range(3):
                want[..., k] += kern[i, j] * p[:, i:i + 5, j:j + 7, :]
    with tf.Graph().as_default():
        u = tf.placeholder(tf.float64, [None, None, None, 3])
        out = tf.image.sobel_edges(u)
        assert out.shape.as_list() == [None, None, None, 3, 2]
        got = _run(out, {u: x})
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_composites_eager_match_graph():
    from tensorweave.eager import context
    x = np.arange(5 * 6 * 3, dtype=np.float32).reshape(5, 6, 3) / 100
    fns = [lambda t: tf.image.rot90(t, 1), lambda t: tf.image.rot90(t[None], 3), tf.image.flip_left_right,
           tf.image.transpose_image, lambda t: tf.image.central_crop(t, 0.5),
           lambda t: tf.image.resize_image_with_crop_or_pad(t, 4, 8), lambda t: tf.image.resize_image_with_pad(t, 8, 8),
           lambda t: tf.image.adjust_hue(t, 0.2), lambda t: tf.image.adjust_saturation(t, 1.5),
           lambda t: tf.image.adjust_contrast(t, 0.5), tf.image.per_image_standardization, tf.image.rgb_to_grayscale,
           lambda t: tf.image.sobel_edges(t[None]), lambda t: tf.image.resize_images(t, [3, 4], method=2)]
    graph_values = []
    with tf.Graph().as_default(), tf.Session() as s:
        for fn in fns:
            graph_values.append(s.run(fn(tf.constant(x))))
    with context.eager_mode():
        for fn, want in zip(fns, graph_values):
            np.testing.assert_array_equal(fn(tf.constant(x)).numpy(), want)
