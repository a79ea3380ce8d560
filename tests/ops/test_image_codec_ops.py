"""tf.image / tf.io codecs and tf.audio: TensorFlow's decoded values (recorded by
tests/data/make_image_codec_tf.py), TF's errors, static shapes, and the round trips of the encoders.
The generic checks of every op are in the op table (tests/ops/op_table/rows_image_codec.py)."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tests.data.make_image_codec_tf import rgb_image

_DATA = pathlib.Path(__file__).parents[1] / "data"
_TF = np.load(_DATA / "image_codec_tf.npz")
_IN = np.load(_DATA / "image_codec_inputs.npz")


def _b(key, src=None):
    return (src if src is not None else _TF)[key].tobytes()


def _run(t, feed=None):
    with tf.Session(graph=t[0].graph if isinstance(t, (list, tuple)) else t.graph) as s:
        return s.run(t, feed)


def _decode(fn, data, **kw):
    with tf.Graph().as_default():
        p = tf.placeholder(tf.string, [])
        return _run(fn(p, **kw), {p: data})


def _same(got, key):
    want = _TF[key]
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)


# ---- PNG ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(k for k in _TF.files if k.startswith("png_dec_")))
def test_decode_png_of_tf_pngs_matches_tf(key):
    tag, ch, dt = key[len("png_dec_"):].rsplit("_", 2)
    got = _decode(tf.image.decode_png, _b("png_enc_%s_-1" % tag), channels=int(ch[1:]), dtype=tf.as_dtype(dt))
    _same(got, key)


@pytest.mark.parametrize("key", sorted(k for k in _TF.files if k.startswith(("png_palette_", "png_la_", "png_gray_",
                                                                                "png_rgba_"))))
def test_decode_png_of_pillow_pngs_matches_tf(key):
    tag, ch = key.rsplit("_dec_c", 1)
    _same(_decode(tf.io.decode_png, _b(tag, _IN), channels=int(ch)), key)


@pytest.mark.parametrize("tag", ["rgb", "rgba", "gray", "u16"])
@pytest.mark.parametrize("compression", [-1, 0, 9])
def test_encode_png_round_trips_through_tf_and_ours(tag, compression):
    # TF's own PNG bytes decode to the image; ours decode (by us) to the same image.
    image = _decode(tf.image.decode_png, _b("png_enc_%s_-1" % tag), dtype=tf.uint16 if tag == "u16" else tf.uint8)
    with tf.Graph().as_default():
        enc = _run(tf.image.encode_png(image, compression=compression))
    assert enc[:8] == b"\x89PNG\r\n\x1a\n"
    back = _decode(tf.image.decode_png, enc, dtype=tf.uint16 if tag == "u16" else tf.uint8)
    np.testing.assert_array_equal(back, image)


def test_encode_png_compression_changes_size():
    img = np.tile(rgb_image(), (8, 8, 1))
    with tf.Graph().as_default():
        sizes = [len(_run(tf.image.encode_png(img, compression=c))) for c in (0, 9)]
    assert sizes[1] < sizes[0]


# ---- JPEG ---------------------------------------------------------------------------------------------
_JPEGS = ["jpeg_enc_rgb_q75", "jpeg_enc_rgb_q95", "jpeg_enc_gray_q95", "jpeg_enc_rgb_q95_444", "jpeg_enc_rgb_prog"]


@pytest.mark.parametrize("key", _JPEGS)
@pytest.mark.parametrize("channels", [0, 1, 3])
def test_decode_jpeg_integer_accurate_matches_tf_bitwise(key, channels):
    got = _decode(tf.image.decode_jpeg, _b(key), channels=channels, dct_method="INTEGER_ACCURATE")
    _same(got, "%s_dec_INTEGER_ACCURATE_1_c%d" % (key, channels))


@pytest.mark.parametrize("key", _JPEGS)
@pytest.mark.parametrize("ratio", [2, 4, 8])
def test_decode_jpeg_ratio_matches_tf_bitwise(key, ratio):
    _same(_decode(tf.image.decode_jpeg, _b(key), ratio=ratio, dct_method="INTEGER_ACCURATE"),
          "%s_dec_ratio%d" % (key, ratio))


@pytest.mark.parametrize("key", _JPEGS)
def test_decode_jpeg_default_dct_is_within_a_few_levels_of_tf(key):
    # TF's default ("" = INTEGER_FAST) is libjpeg's fast IDCT; we decode with the accurate one:
    # recorded differences on these images are at most 8 levels (module docstring of image_codec_ops).
    got = _decode(tf.image.decode_jpeg, _b(key)).astype(int)
    for dct in ("default", "INTEGER_FAST"):
        want = _TF["%s_dec_%s_1_c0" % (key, dct)].astype(int)
        assert got.shape == want.shape
        assert np.abs(got - want).max() <= 8
        assert np.abs(got - want).mean() < 2.5


def test_decode_jpeg_without_fancy_upscaling():
    # No chroma subsampling (and gray): the upsampler does not matter and TF's values are exact.
    for key in ("jpeg_enc_rgb_q95_444", "jpeg_enc_gray_q95"):
        _same(_decode(tf.image.decode_jpeg, _b(key), fancy_upscaling=False, dct_method="INTEGER_ACCURATE"),
              "%s_dec_INTEGER_ACCURATE_0_c0" % key)
    with pytest.raises(tf.errors.UnimplementedError, match="fancy_upscaling"):
        _decode(tf.image.decode_jpeg, _b("jpeg_enc_rgb_q95"), fancy_upscaling=False)


@pytest.mark.parametrize("key", _JPEGS)
def test_extract_jpeg_shape_and_crop(key):
    _same(_decode(tf.image.extract_jpeg_shape, _b(key)), key + "_shape")
    got = _decode(tf.io.decode_and_crop_jpeg, _b(key), crop_window=[3, 5, 9, 11], dct_method="INTEGER_ACCURATE")
    want = _TF[key + "_crop"]
    assert got.shape == want.shape
    if key in ("jpeg_enc_gray_q95", "jpeg_enc_rgb_q95_444"):
        np.testing.assert_array_equal(got, want)
    else:
        # libjpeg's cropped decode treats the window's right edge as an image edge for the chroma
        # upsampler: only that column differs from the full decode (documented).
        np.testing.assert_array_equal(got[:, :-1], want[:, :-1])


def test_decode_pillow_progressive_jpeg_matches_tf():
    _same(_decode(tf.image.decode_jpeg, _b("jpeg_pil_progressive", _IN), dct_method="INTEGER_ACCURATE"),
          "jpeg_pil_progressive_dec")


@pytest.mark.parametrize("q", [75, 95])
def test_encode_jpeg_round_trip_error_is_tfs(q):
    img = rgb_image()
    with tf.Graph().as_default():
        enc = _run(tf.image.encode_jpeg(img, quality=q))
    back = _decode(tf.image.decode_jpeg, enc, dct_method="INTEGER_ACCURATE").astype(float)
    err = np.abs(back - img)
    # TF's encoder round trip (decoded by TF) on the same image:
    assert err.max() <= _TF["jpeg_roundtrip_maxerr_q%d" % q] + 2
    assert err.mean() <= _TF["jpeg_roundtrip_meanerr_q%d" % q] * 1.1 + 0.1


def test_encode_jpeg_options():
    img = rgb_image(32, 40)
    with tf.Graph().as_default():
        gray = _run(tf.image.encode_jpeg(img[..., :1], format="grayscale"))
        prog = _run(tf.image.encode_jpeg(img, progressive=True, optimize_size=True, quality=80))
        dens = _run(tf.image.encode_jpeg(img, density_unit="cm", x_density=72, y_density=96,
                                         xmp_metadata="<x:xmpmeta>hi</x:xmpmeta>"))
        full = _run(tf.image.encode_jpeg(img, chroma_downsampling=False))
        sub = _run(tf.image.encode_jpeg(img))
    import io

    from PIL import Image
    assert Image.open(io.BytesIO(gray)).mode == "L"
    assert Image.open(io.BytesIO(prog)).info.get("progressive") in (1, True)
    info = Image.open(io.BytesIO(dens)).info
    assert info["jfif_unit"] == 2 and info["jfif_density"] == (72, 96)
    assert Image.open(io.BytesIO(sub)).info["dpi"] == (300, 300)  # TF's default density
    assert b"<x:xmpmeta>hi</x:xmpmeta>" in dens
    assert len(full) > len(sub)


def test_adjust_jpeg_quality_close_to_tf():
    img = rgb_image()
    with tf.Graph().as_default():
        got = _run(tf.image.adjust_jpeg_quality(tf.constant(img), 60))
        got_f = _run(tf.image.adjust_jpeg_quality(tf.constant(img / 255.0, tf.float32), 60))
    assert got.dtype == np.uint8 and got.shape == img.shape
    # Same libjpeg settings, but TF decodes with its fast IDCT: a few levels apart.
    assert np.abs(got.astype(int) - _TF["adjust_jpeg_quality_q60"].astype(int)).max() <= 8
    assert got_f.dtype == np.float32
    assert np.abs(got_f - _TF["adjust_jpeg_quality_f32_q60"]).max() <= 8 / 255 + 1e-6


def test_random_jpeg_quality_is_seeded_and_validates():
    img = rgb_image()
    outs = []
    for _ in range(2):
        with tf.Graph().as_default():
            tf.set_random_seed(5)
            t = tf.image.random_jpeg_quality(tf.constant(img), 10, 90)
            with tf.Session() as s:
                outs.append([s.run(t) for _ in range(3)])
    for a, b in zip(*outs):
        np.testing.assert_array_equal(a, b)
    assert any(not np.array_equal(outs[0][0], o) for o in outs[0][1:])
    with pytest.raises(ValueError):
        tf.image.random_jpeg_quality(img, 50, 40)
    with pytest.raises(ValueError):
        tf.image.random_jpeg_quality(img, -1, 40)


# ---- GIF, BMP, decode_image ----------------------------------------------------------------------------
@pytest.mark.parametrize("tag", ["gif_anim", "gif_single"])
def test_decode_gif_matches_tf(tag):
    _same(_decode(tf.io.decode_gif, _b(tag, _IN)), tag + "_dec")


@pytest.mark.parametrize("key", sorted(k for k in _TF.files if k.startswith("bmp")))
def test_decode_bmp_matches_tf(key):
    tag, ch = key.split("_dec_c")
    _same(_decode(tf.image.decode_bmp, _b(tag, _IN), channels=int(ch)), key)


@pytest.mark.parametrize("key", sorted(k for k in _TF.files if k.startswith("img_") and "_ea" in k))
def test_decode_image_matches_tf(key):
    body, ea = key[len("img_"):].rsplit("_ea", 1)
    tag, ch = body.rsplit("_c", 1)
    _same(_decode(tf.image.decode_image, _b(tag, _IN), channels=int(ch), expand_animations=bool(int(ea))), key)


@pytest.mark.parametrize("key", sorted(k for k in _TF.files if k.startswith("webp")))
def test_decode_webp_matches_tf(key):
    tag, ch = key.split("_dec_c")
    _same(_decode(tf.io.decode_webp, _b(tag, _IN), channels=int(ch)), key)


def test_decode_webp_channel_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of channels requested does not match input"):
        _decode(tf.image.decode_webp, _b("webp_lossy_rgb", _IN), channels=4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown image file format"):
        _decode(tf.image.decode_image, _b("webp_lossy_rgb", _IN))


def test_decode_image_dtypes_match_tf():
    _same(_decode(tf.image.decode_image, _b("png_rgba", _IN), dtype=tf.float32), "img_png_rgba_f32")
    _same(_decode(tf.io.decode_image, _b("png_enc_u16_-1"), dtype=tf.float32), "img_u16png_f32")
    got = _decode(tf.image.decode_image, _b("jpeg_enc_rgb_q95"))
    assert got.shape == _TF["img_jpeg_c0"].shape
    assert np.abs(got.astype(int) - _TF["img_jpeg_c0"].astype(int)).max() <= 8
    f64 = _decode(tf.image.decode_image, _b("png_gray", _IN), dtype=tf.float64)
    assert f64.dtype == np.float64 and f64.max() <= 1.0


def test_decoders_sniff_formats_as_tf():
    png, jpg, gif = _b("png_enc_rgb_-1"), _b("jpeg_enc_rgb_q95_444"), _b("gif_single", _IN)
    assert _decode(tf.image.decode_png, jpg).shape == (16, 24, 3)
    assert _decode(tf.image.decode_jpeg, png).shape == (16, 24, 3)
    assert _decode(tf.image.decode_jpeg, gif).shape == (16, 24, 3)
    assert _decode(tf.image.decode_gif, png).shape == (1, 16, 24, 3)
    assert _decode(tf.image.decode_gif, jpg).shape == (1, 16, 24, 3)


@pytest.mark.parametrize("fn,data,message", [
    (tf.image.decode_png, b"", "Input is empty"),
    (tf.image.decode_png, b"abcdefgh", "Unknown image file format"),
    (tf.image.decode_png, "png_enc_rgb_-1:60", "Invalid PNG data, size 60"),
    (tf.image.decode_jpeg, "jpeg_enc_rgb_q95:200", "Invalid JPEG data"),
    (tf.image.decode_jpeg, "gif_anim", "animated gifs can only be decoded"),
    (tf.image.decode_png, "bmp24", "Trying to decode BMP format using a wrong op"),
    (tf.image.decode_bmp, "png_enc_rgb_-1", "Trying to decode PNG format using DecodeBmp op"),
    (tf.image.decode_image, b"abcdefgh", "Unknown image file format"),
    (tf.io.extract_jpeg_shape, "png_enc_rgb_-1", "Invalid JPEG data"),
])
def test_corrupt_data_is_invalid_argument_naming_the_op(fn, data, message):
    if isinstance(data, str):
        key, _, cut = data.partition(":")
        data = _b(key, _IN if key in _IN.files else None)
        data = data[:int(cut)] if cut else data
    with pytest.raises(tf.errors.InvalidArgumentError, match=message) as info:
        _decode(fn, data)
    assert "(op: " in str(info.value)


def test_attribute_errors():
    jpg = _b("jpeg_enc_rgb_q95")
    with pytest.raises(tf.errors.InvalidArgumentError, match="JPEG does not support 4 channels"):
        _decode(tf.image.decode_jpeg, jpg, channels=4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be 0, 1, 3 or 4 but got 2"):
        _decode(tf.image.decode_png, jpg, channels=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="ratio must be 1, 2, 4, or 8, got 3"):
        _decode(tf.image.decode_jpeg, jpg, ratio=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid JPEG data or crop window"):
        _decode(tf.image.decode_and_crop_jpeg, jpg, crop_window=[10, 10, 10, 30])
    with pytest.raises(tf.errors.InvalidArgumentError, match="channels must be 0 or 3 for GIF"):
        _decode(tf.image.decode_image, _b("gif_anim", _IN), channels=4)
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"image must have 1 or 3 channels, got \[4,4,2\]"):
            _run(tf.image.encode_jpeg(np.zeros((4, 4, 2), np.uint8)))
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"format grayscale expects 1 channels"):
            _run(tf.image.encode_jpeg(np.zeros((4, 4, 3), np.uint8), format="grayscale"))
        with pytest.raises(tf.errors.InvalidArgumentError, match="image must have 1, 2, 3, or 4 channels, got 5"):
            _run(tf.image.encode_png(np.zeros((4, 4, 5), np.uint8)))
        with pytest.raises(TypeError):
            tf.image.encode_png(np.zeros((4, 4, 3), np.float32))


def test_static_shapes_as_tf():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.string)
        assert tf.image.decode_png(p, channels=3).shape.as_list() == [None, None, 3]
        assert tf.image.decode_gif(p).shape.as_list() == [None, None, None, 3]
        assert tf.image.decode_image(p).shape.ndims is None
        assert tf.image.decode_image(p, channels=3, expand_animations=False).shape.as_list() == [None, None, 3]
        assert tf.image.decode_bmp(p).shape.as_list() == [None, None, None]
        assert tf.image.extract_jpeg_shape(p).shape.as_list() == [3]
        assert tf.image.decode_jpeg(p).dtype == tf.uint8
        assert tf.image.is_jpeg(p).dtype == tf.bool
        assert tf.audio.decode_wav(p, 2, 5)[0].shape.as_list() == [5, 2]
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            tf.image.decode_png(tf.placeholder(tf.string, [2]))


def test_is_jpeg():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.string, [])
        t = tf.io.is_jpeg(p)
        with tf.Session() as s:
            assert s.run(t, {p: _b("jpeg_enc_rgb_q95")})
            assert not s.run(t, {p: _b("png_enc_rgb_-1")})
            assert not s.run(t, {p: b""})


def test_eager_decode_and_encode():
    from tensorweave.eager import context
    with context.eager_mode():
        img = tf.image.decode_png(_b("png_enc_rgb_-1"))
        np.testing.assert_array_equal(img.numpy(), _TF["png_dec_rgb_c0_uint8"])
        assert tf.image.decode_png(tf.image.encode_png(img)).numpy().shape == (16, 24, 3)


# ---- WAV --------------------------------------------------------------------------------------------------
def _audio():
    return (np.sin(np.arange(40)[:, None] * np.array([0.3, 0.7])) * 0.8).astype(np.float32)


def test_encode_wav_matches_tf_bytes():
    with tf.Graph().as_default():
        assert _run(tf.audio.encode_wav(_audio(), 16000)) == _b("wav_enc")
        clipped = _run(tf.audio.encode_wav(np.array([[1.5], [-2.0], [0.5], [-0.5], [1 / 65534.], [-1 / 65536.]],
                                                    np.float32), 8))
    assert clipped[44:] == b"\xff\x7f\x00\x80\x00@\x00\xc0\x01\x00\xff\xff"  # TF's bytes


@pytest.mark.parametrize("dc,ds", [(-1, -1), (1, -1), (3, 25), (2, 50)])
def test_decode_wav_matches_tf(dc, ds):
    with tf.Graph().as_default():
        audio, rate = _run(list(tf.audio.decode_wav(_b("wav_enc"), desired_channels=dc, desired_samples=ds)))
    _same(audio, "wav_dec_%d_%d" % (dc, ds))
    assert rate == _TF["wav_rate"] and rate.dtype == np.int32


def test_wav_errors():
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\(op: DecodeWav"):
            _run(tf.audio.decode_wav(b"RIFFxxxx")[0])
        with pytest.raises(tf.errors.InvalidArgumentError):
            _run(tf.audio.encode_wav(np.zeros((4, 0), np.float32), 100))
        with pytest.raises(ValueError, match="rank 2"):
            tf.audio.encode_wav(np.zeros(4, np.float32), 100)


def test_codec_ops_have_no_gradient():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [4, 2])
        assert tf.gradients(tf.audio.decode_wav(tf.audio.encode_wav(x, 8))[0], x) == [None]


@pytest.mark.parametrize("key", sorted(k for k in _TF.files if k.startswith("x_")))
def test_decoder_edge_cases_match_tf(key):
    # GIF transparency (TF's composition: previous frame, zeros in the first; no disposal), PNG tRNS
    # chunks, 1/4-bit PNGs (TF's alpha filler at the bit depth), 16-bit gray, top-down BMP.
    parts = key.split("_")
    u16 = parts[-1] == "u16"
    if u16:
        parts = parts[:-1]
    name, ch = "_".join(parts[:-1]), int(parts[-1])
    if u16:
        got = _decode(tf.image.decode_png, _b(name, _IN), channels=ch, dtype=tf.uint16)
    else:
        got = _decode(tf.image.decode_image, _b(name, _IN), channels=ch)
    _same(got, key)
