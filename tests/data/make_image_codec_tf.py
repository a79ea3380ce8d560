"""Records TensorFlow's image-codec, NMS, crop/glimpse/patch, SSIM and WAV results into
image_codec_tf.npz (checked by tests/ops/test_image_codec_ops.py and tests/ops/test_image_boxes_ops.py).

Two steps (TensorFlow's environment has no Pillow):
    .venv/bin/python tests/data/make_image_codec_tf.py inputs     # Pillow-made GIF/BMP/PNG inputs
    python-with-tensorflow tests/data/make_image_codec_tf.py      # TF's results
Byte strings are stored as uint8 arrays (no pickles)."""

import io
import pathlib
import struct
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
INPUTS = HERE / "image_codec_inputs.npz"
OUT = HERE / "image_codec_tf.npz"


def rgb_image(h=16, w=24):
    """A smooth RGB uint8 image with some edges (rebuilt by the tests)."""
    y, x = np.mgrid[0:h, 0:w]
    r = (x * 255 // max(w - 1, 1))
    g = (y * 255 // max(h - 1, 1))
    b = ((x + y) % 7) * 36
    return np.stack([r, g, b], -1).astype(np.uint8)


def float_images():
    """Two float images for SSIM (rebuilt by the tests)."""
    rng = np.random.RandomState(7)
    a = rng.uniform(0, 1, (2, 48, 48, 3)).astype(np.float32)
    a = (a + np.roll(a, 1, 1) + np.roll(a, 1, 2)) / 3
    b = np.clip(a + rng.normal(0, 0.05, a.shape), 0, 1).astype(np.float32)
    return a, b


def boxes_inputs():
    """NMS inputs (rebuilt by the tests)."""
    rng = np.random.RandomState(3)
    c = rng.uniform(0, 1, (30, 2))
    s = rng.uniform(0.05, 0.3, (30, 2))
    boxes = np.concatenate([c - s, c + s], 1).astype(np.float32)
    boxes[::4] = boxes[::4][:, [2, 3, 0, 1]]  # some flipped corners
    scores = rng.uniform(0, 1, 30).astype(np.float32)
    return boxes, scores


def crop_inputs():
    """crop_and_resize inputs (rebuilt by the tests)."""
    rng = np.random.RandomState(5)
    image = rng.uniform(-1, 1, (2, 6, 7, 2)).astype(np.float32)
    boxes = np.array([[0.1, 0.2, 0.8, 0.9], [0.5, 0.6, 0.2, 0.1], [-0.2, -0.1, 1.3, 1.1], [0.3, 0.3, 0.3, 0.3],
                      [0.0, 0.0, 1.0, 1.0]], np.float32)
    box_ind = np.array([0, 1, 1, 0, 1], np.int32)
    grad = rng.uniform(-1, 1, (5, 4, 3, 2)).astype(np.float32)
    return image, boxes, box_ind, grad


def patches_input():
    rng = np.random.RandomState(11)
    return rng.uniform(-1, 1, (2, 7, 8, 3)).astype(np.float32)


def glimpse_cases():
    """Random ExtractGlimpse configurations, partly outside the image (rebuilt by the tests)."""
    rng = np.random.RandomState(2)
    cases = []
    for _ in range(12):
        x = rng.uniform(-1, 1, (2, 7, 9, 2)).astype(np.float32)
        off = rng.uniform(-1.5, 1.5, (2, 2)).astype(np.float32)
        size = [int(rng.randint(1, 9)), int(rng.randint(1, 11))]
        c, n = bool(rng.rand() < 0.5), bool(rng.rand() < 0.5)
        cases.append((x, size, off if n else off * 6, c, n))
    return cases


def crop_cases():
    """Random crop_and_resize inputs with boxes partly outside (rebuilt by the tests)."""
    rng = np.random.RandomState(4)
    img = rng.uniform(-1, 1, (2, 7, 9, 3)).astype(np.float32)
    boxes = rng.uniform(-0.3, 1.3, (6, 4)).astype(np.float32)
    ind = rng.randint(0, 2, 6).astype(np.int32)
    grads = {tuple(sz): rng.uniform(-1, 1, (6,) + tuple(sz) + (3,)).astype(np.float32)
             for sz in ([5, 4], [1, 3], [2, 1])}
    return img, boxes, ind, grads


def _b(data):
    return np.frombuffer(data, np.uint8)


def make_inputs():
    from PIL import Image
    img = rgb_image()
    out = {}
    frames = [Image.fromarray(img), Image.fromarray(img[::-1].copy()), Image.fromarray(255 - img)]
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=10, loop=0)
    out["gif_anim"] = _b(buf.getvalue())
    buf = io.BytesIO()
    frames[0].save(buf, "GIF")
    out["gif_single"] = _b(buf.getvalue())
    for mode, tag in [("RGB", "bmp24"), ("RGBA", "bmp32"), ("L", "bmp8")]:
        im = Image.fromarray(img).convert(mode)
        buf = io.BytesIO()
        im.save(buf, "BMP")
        out[tag] = _b(buf.getvalue())
    for mode, tag in [("P", "png_palette"), ("LA", "png_la"), ("L", "png_gray"), ("RGBA", "png_rgba")]:
        im = Image.fromarray(img).convert(mode)
        if mode == "RGBA":
            a = np.asarray(im).copy()
            a[..., 3] = np.arange(a.shape[1], dtype=np.uint8)[None, :] * 10
            im = Image.fromarray(a, "RGBA")
        buf = io.BytesIO()
        im.save(buf, "PNG")
        out[tag] = _b(buf.getvalue())
    # A JPEG Pillow wrote (progressive) and a truncated one.
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG", quality=90, progressive=True)
    out["jpeg_pil_progressive"] = _b(buf.getvalue())
    for lossless, tag in [(True, "webp_lossless"), (False, "webp_lossy")]:
        for mode in ("RGB", "RGBA"):
            buf = io.BytesIO()
            Image.fromarray(img).convert(mode).save(buf, "WEBP", lossless=lossless, quality=80)
            out["%s_%s" % (tag, mode.lower())] = _b(buf.getvalue())
    out.update(_extra_inputs())
    np.savez(INPUTS, **out)


def _extra_inputs():
    """Edge cases of the decoders: GIF transparency and disposal, PNG tRNS chunks, low bit depths,
    16-bit gray, a top-down BMP (keys "x_*")."""
    from PIL import Image
    out = {}
    rng = np.random.RandomState(3)
    img = rng.randint(0, 256, (9, 11, 3)).astype(np.uint8)
    pal = Image.fromarray(img).convert("P", palette=Image.ADAPTIVE, colors=16)
    a = np.asarray(pal).copy()
    a[2:5, 3:8] = 0
    f2 = Image.fromarray(a, "P")
    f2.putpalette(pal.getpalette())
    for tag, frames, disposal in [("gif_trans", [f2, pal], 2), ("gif_trans1", [f2], 1)]:
        buf = io.BytesIO()
        pal.save(buf, "GIF", save_all=True, append_images=frames, transparency=0, disposal=disposal, duration=5)
        out["x_" + tag] = _b(buf.getvalue())

    def png(im, **kw):
        buf = io.BytesIO()
        im.save(buf, "PNG", **kw)
        return _b(buf.getvalue())
    out["x_png_gray_trns"] = png(Image.fromarray(img[..., 0]), transparency=int(img[0, 0, 0]))
    out["x_png_rgb_trns"] = png(Image.fromarray(img), transparency=tuple(int(v) for v in img[0, 0]))
    out["x_png_1bit"] = png(Image.fromarray(img[..., 0] > 128))
    out["x_png_gray16"] = png(Image.fromarray(img[..., 0].astype(np.uint16) * 250).convert("I;16"))
    out["x_png_pal4"] = png(pal, bits=4)
    out["x_png_pal4_trns"] = png(pal, bits=4, transparency=3)
    out["x_png_pal8_trns"] = png(pal, transparency=bytes([0, 128, 255]))
    h, w = img.shape[:2]
    stride = (w * 3 + 3) // 4 * 4
    rows = b"".join(img[y, :, ::-1].tobytes() + b"\0" * (stride - w * 3) for y in range(h))
    hdr = b"BM" + struct.pack("<IHHI", 54 + len(rows), 0, 0, 54) + struct.pack(
        "<IiiHHIIiiII", 40, w, -h, 1, 24, 0, len(rows), 2835, 2835, 0, 0)
    out["x_bmp_topdown"] = _b(hdr + rows)
    return out


def make_tf():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    inp = dict(np.load(INPUTS))
    img = rgb_image()
    res = {}
    s = tf.Session()
    run = s.run
    # ---- PNG
    rgba = np.concatenate([img, (np.arange(24, dtype=np.uint8)[None, :, None] * 10).repeat(16, 0)], -1)
    u16 = (img.astype(np.uint16) * 257 + 3)
    for tag, arr in [("rgb", img), ("rgba", rgba), ("gray", img[..., :1]), ("u16", u16)]:
        for comp in (-1, 0, 9):
            res["png_enc_%s_%d" % (tag, comp)] = _b(run(tf.image.encode_png(arr, compression=comp)))
    for tag in ["rgb", "rgba", "gray", "u16"]:
        data = res["png_enc_%s_-1" % tag].tobytes()
        for ch in (0, 1, 3, 4):
            for dt in (tf.uint8, tf.uint16):
                res["png_dec_%s_c%d_%s" % (tag, ch, dt.name)] = run(tf.image.decode_png(data, channels=ch, dtype=dt))
    for tag in ["png_palette", "png_la", "png_gray", "png_rgba"]:
        data = inp[tag].tobytes()
        for ch in (0, 1, 3, 4):
            res["%s_dec_c%d" % (tag, ch)] = run(tf.image.decode_png(data, channels=ch))
    # ---- JPEG
    for q in (75, 95):
        for fmt, src, tag in [("", img, "rgb"), ("grayscale", img[..., :1], "gray")]:
            res["jpeg_enc_%s_q%d" % (tag, q)] = _b(run(tf.image.encode_jpeg(src, format=fmt, quality=q)))
    res["jpeg_enc_rgb_q95_444"] = _b(run(tf.image.encode_jpeg(img, quality=95, chroma_downsampling=False)))
    res["jpeg_enc_rgb_prog"] = _b(run(tf.image.encode_jpeg(img, quality=80, progressive=True, optimize_size=True)))
    for key in ["jpeg_enc_rgb_q75", "jpeg_enc_rgb_q95", "jpeg_enc_gray_q95", "jpeg_enc_rgb_q95_444",
                "jpeg_enc_rgb_prog"]:
        data = res[key].tobytes()
        for dct in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
            for fancy in (True, False):
                for ch in (0, 1, 3):
                    res["%s_dec_%s_%d_c%d" % (key, dct or "default", fancy, ch)] = run(
                        tf.image.decode_jpeg(data, channels=ch, dct_method=dct, fancy_upscaling=fancy))
        for ratio in (2, 4, 8):
            res["%s_dec_ratio%d" % (key, ratio)] = run(tf.image.decode_jpeg(data, ratio=ratio,
                                                                             dct_method="INTEGER_ACCURATE"))
        res["%s_shape" % key] = run(tf.image.extract_jpeg_shape(data))
        res["%s_crop" % key] = run(tf.image.decode_and_crop_jpeg(data, [3, 5, 9, 11], dct_method="INTEGER_ACCURATE"))
    data = inp["jpeg_pil_progressive"].tobytes()
    res["jpeg_pil_progressive_dec"] = run(tf.image.decode_jpeg(data, dct_method="INTEGER_ACCURATE"))
    # round-trip error of TF's own encoder (decoded by TF)
    for q in (75, 95):
        d = run(tf.image.decode_jpeg(res["jpeg_enc_rgb_q%d" % q].tobytes(), dct_method="INTEGER_ACCURATE"))
        res["jpeg_roundtrip_maxerr_q%d" % q] = np.array(np.abs(d.astype(int) - img.astype(int)).max())
        res["jpeg_roundtrip_meanerr_q%d" % q] = np.array(np.abs(d.astype(float) - img.astype(float)).mean())
    res["adjust_jpeg_quality_q60"] = run(tf.image.adjust_jpeg_quality(tf.constant(img), 60))
    res["adjust_jpeg_quality_f32_q60"] = run(tf.image.adjust_jpeg_quality(tf.constant(img / 255.0, tf.float32), 60))
    # ---- GIF / BMP / decode_image
    for tag in ["gif_anim", "gif_single"]:
        res["%s_dec" % tag] = run(tf.image.decode_gif(inp[tag].tobytes()))
    for tag in ["bmp24", "bmp32", "bmp8"]:
        for ch in (0, 3, 4):
            try:
                res["%s_dec_c%d" % (tag, ch)] = run(tf.image.decode_bmp(inp[tag].tobytes(), channels=ch))
            except Exception as e:  # noqa: BLE001
                print(tag, ch, type(e).__name__, str(e)[:100])
    for tag in ["gif_anim", "bmp24", "png_rgba", "png_gray"]:
        for ch in (0, 1, 3, 4):
            for ea in (True, False):
                try:
                    res["img_%s_c%d_ea%d" % (tag, ch, ea)] = run(tf.image.decode_image(
                        inp[tag].tobytes(), channels=ch, expand_animations=ea))
                except Exception as e:  # noqa: BLE001
                    print("decode_image", tag, ch, ea, type(e).__name__, str(e)[:100])
    res["img_png_rgba_f32"] = run(tf.image.decode_image(inp["png_rgba"].tobytes(), dtype=tf.float32))
    res["img_jpeg_c0"] = run(tf.image.decode_image(res["jpeg_enc_rgb_q95"].tobytes()))
    res["img_u16png_f32"] = run(tf.image.decode_image(res["png_enc_u16_-1"].tobytes(), dtype=tf.float32))
    for tag in ["webp_lossless_rgb", "webp_lossless_rgba", "webp_lossy_rgb", "webp_lossy_rgba"]:
        for ch in (0, 3, 4):
            try:
                res["%s_dec_c%d" % (tag, ch)] = run(tf.io.decode_webp(inp[tag].tobytes(), channels=ch))
            except tf.errors.InvalidArgumentError as e:
                print("decode_webp", tag, ch, str(e).splitlines()[-1][:100])
    for key in [k for k in inp if k.startswith("x_")]:
        data = inp[key].tobytes()
        for ch in (0, 1, 3, 4):
            try:
                res["%s_%d" % (key, ch)] = run(tf.image.decode_image(data, channels=ch))
                if "png" in key:
                    res["%s_%d_u16" % (key, ch)] = run(tf.image.decode_png(data, channels=ch, dtype=tf.uint16))
            except tf.errors.InvalidArgumentError:
                pass
    # ---- NMS
    boxes, scores = boxes_inputs()
    res["nms_v2"] = run(tf.image.non_max_suppression(boxes, scores, 10, iou_threshold=0.3))
    res["nms_v3"] = run(tf.image.non_max_suppression(boxes, scores, 20, iou_threshold=0.5, score_threshold=0.4))
    # TF 1.15's non_max_suppression_padded is the NonMaxSuppressionV4 op (2.21's padded path is a
    # different, tiled algorithm).
    pb, ps = tf.placeholder(tf.float32, [30, 4]), tf.placeholder(tf.float32, [30])
    res["nms_v4_pad"] = s.run(tf.raw_ops.NonMaxSuppressionV4(boxes=pb, scores=ps, max_output_size=20,
                                                             iou_threshold=0.4, score_threshold=0.3,
                                                             pad_to_max_output_size=True), {pb: boxes, ps: scores})
    res["nms_v5"] = run(tf.image.non_max_suppression_with_scores(boxes, scores, 15, iou_threshold=0.6,
                                                                   score_threshold=0.1, soft_nms_sigma=0.5))
    res["nms_v5_hard"] = run(tf.image.non_max_suppression_with_scores(boxes, scores, 15, iou_threshold=0.4))
    ov = np.random.RandomState(9).uniform(0, 1, (30, 30)).astype(np.float32)
    ov = (ov + ov.T) / 2
    res["nms_overlaps"] = run(tf.image.non_max_suppression_overlaps(ov, scores, 12, overlap_threshold=0.5,
                                                                      score_threshold=0.2))
    cb = boxes.reshape(2, 15, 1, 4)
    cs = np.stack([scores.reshape(2, 15), scores[::-1].reshape(2, 15)], -1)
    for clip in (True, False):
        for pad in (True, False):
            res["combined_%d_%d" % (clip, pad)] = run(tf.image.combined_non_max_suppression(
                cb, cs, 4, 6, iou_threshold=0.5, score_threshold=0.2, pad_per_class=pad, clip_boxes=clip))
    # ---- crop_and_resize
    image, cboxes, box_ind, grad = crop_inputs()
    ti, tb = tf.constant(image), tf.constant(cboxes)
    for m in ("bilinear", "nearest"):
        y = tf.image.crop_and_resize(ti, tb, box_ind, [4, 3], method=m, extrapolation_value=-7.0)
        res["crop_%s" % m] = run(y)
        if m == "bilinear":
            gi, gb = tf.gradients(y, [ti, tb], grad_ys=grad)
            res["crop_grad_image"], res["crop_grad_boxes"] = run([gi, gb])
    res["crop_1x1"] = run(tf.image.crop_and_resize(ti, tb, box_ind, [1, 1]))
    img2, boxes2, ind2, grads2 = crop_cases()
    ti2, tb2 = tf.constant(img2), tf.constant(boxes2)
    for sz, g in grads2.items():
        tag = "%dx%d" % sz
        for m in ("bilinear", "nearest"):
            y = tf.image.crop_and_resize(ti2, tb2, ind2, list(sz), method=m, extrapolation_value=0.5)
            res["crop_rand_%s_%s" % (m, tag)] = run(y)
            gi, gb = tf.gradients(y, [ti2, tb2], grad_ys=g)
            res["crop_rand_%s_%s_gi" % (m, tag)], res["crop_rand_%s_%s_gb" % (m, tag)] = run([gi, gb])
    # ---- extract_glimpse (v1)
    gsizes = [3, 4]
    offs = np.array([[0.1, -0.2], [-0.3, 0.25]], np.float32)
    for c in (True, False):
        for n in (True, False):
            o = offs if c else (np.abs(offs) if n else np.array([[2.0, 3.0], [4.0, 2.0]], np.float32))
            res["glimpse_c%d_n%d" % (c, n)] = run(tf.image.extract_glimpse(image, gsizes, o, centered=c,
                                                                           normalized=n, uniform_noise=False))
    res["glimpse_zero_out"] = run(tf.compat.v1.image.extract_glimpse(
        image, [5, 5], np.array([[0.9, 0.9], [-0.9, 0.0]], np.float32), uniform_noise=False))
    for k, (x, size, off, c, n) in enumerate(glimpse_cases()):
        res["glimpse_zero_%d" % k] = run(tf.raw_ops.ExtractGlimpse(input=x, size=size, offsets=off, centered=c,
                                                                   normalized=n, uniform_noise=False, noise="zero"))
    # ---- draw_bounding_boxes
    canvas = np.zeros((2, 10, 12, 3), np.float32)
    dboxes = np.array([[[0.1, 0.1, 0.6, 0.5], [0.3, 0.4, 0.9, 0.95]], [[0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 0.2, 0.3]]],
                      np.float32)
    res["draw_default"] = run(tf.image.draw_bounding_boxes(canvas, dboxes))
    res["draw_colors"] = run(tf.image.draw_bounding_boxes(canvas, dboxes, colors=np.array(
        [[1.0, 0.5, 0.25, 1.0], [0.0, 1.0, 0.0, 1.0]], np.float32)))
    res["draw_gray"] = run(tf.image.draw_bounding_boxes(canvas[..., :1], dboxes))
    res["draw_u8"] = run(tf.image.draw_bounding_boxes(np.zeros((2, 10, 12, 4), np.uint8) + 3, dboxes))
    # ---- SSIM
    a, b = float_images()
    res["ssim"] = run(tf.image.ssim(a, b, max_val=1.0))
    res["ssim_k"] = run(tf.image.ssim(a, b, max_val=1.0, filter_size=7, filter_sigma=1.2, k1=0.02, k2=0.04))
    u8a, u8b = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
    res["ssim_u8"] = run(tf.image.ssim(u8a, u8b, max_val=255))
    big_a = np.tile(a, (1, 4, 4, 1))
    big_b = np.tile(b, (1, 4, 4, 1))
    res["ssim_ms"] = run(tf.image.ssim_multiscale(big_a, big_b, max_val=1.0))
    res["ssim_ms_w"] = run(tf.image.ssim_multiscale(big_a, big_b, max_val=1.0, power_factors=(0.5, 0.3, 0.2),
                                                     filter_size=5))
    # ---- patches
    p = patches_input()
    tp = tf.constant(p)
    for pad in ("VALID", "SAME"):
        y = tf.image.extract_image_patches(tp, [1, 3, 2, 1], [1, 2, 3, 1], [1, 1, 2, 1], pad)
        res["patches_%s" % pad] = run(y)
        g = np.random.RandomState(1).uniform(-1, 1, run(tf.shape(y))).astype(np.float32)
        res["patches_grad_%s" % pad] = run(tf.gradients(y, tp, grad_ys=g)[0])
    vol = np.random.RandomState(2).uniform(-1, 1, (1, 4, 5, 6, 2)).astype(np.float32)
    res["volume_patches"] = run(tf.extract_volume_patches(vol, [1, 2, 3, 2, 1], [1, 1, 2, 3, 1], "SAME"))
    # ---- WAV
    audio = (np.sin(np.arange(40)[:, None] * np.array([0.3, 0.7])) * 0.8).astype(np.float32)
    wav = run(tf.audio.encode_wav(audio, 16000))
    res["wav_enc"] = _b(wav)
    for dc, ds in [(-1, -1), (1, -1), (3, 25), (2, 50)]:
        a_, r_ = run(tf.audio.decode_wav(wav, desired_channels=dc, desired_samples=ds))
        res["wav_dec_%d_%d" % (dc, ds)], res["wav_rate"] = a_, r_
    flat = {}
    for k, v in res.items():
        if isinstance(v, (tuple, list)):
            flat.update({"%s_%d" % (k, i): np.asarray(e) for i, e in enumerate(v)})
        else:
            flat[k] = v
    np.savez(OUT, **flat)
    print("saved", len(flat))


if __name__ == "__main__":
    if sys.argv[1:] == ["inputs"]:
        make_inputs()
    else:
        make_tf()
