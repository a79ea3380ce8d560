"""Op-table rows of the image and audio codecs (tensorweave/ops/image_codec_ops.py, image_audio_ops.py;
see harness.py for the row API).

The references are Pillow (decoders: the bytes Pillow wrote, decoded by Pillow with libpng/libjpeg's
channel rules written out in NumPy), NumPy round trips for the encoders (the decoded image equals the
input exactly for PNG, within JPEG's error at quality 100 without chroma subsampling), and Python's
`struct` for WAV. TensorFlow's own values for every codec are checked in tests/ops/test_image_codec_ops.py.
"""

import io
import struct
import wave

import numpy as np
from PIL import Image

import tensorweave as tf
from tests.ops.op_table.harness import Row

OBJ = np.dtype(object)
U8, U16, F32 = np.uint8, np.uint16, np.float32


def _bytes(data):
    out = np.empty((), object)
    out[()] = data
    return out


def _image(rng, h=5, w=6, c=3):
    return rng.randint(0, 256, (h, w, c)).astype(U8)


def _pil_bytes(arr, fmt, **kw):
    mode = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}[arr.shape[-1]]
    buf = io.BytesIO()
    Image.fromarray(arr[..., 0] if arr.shape[-1] == 1 else arr, mode).save(buf, fmt, **kw)
    return buf.getvalue()


def _pil_decode(data, mode=None):
    with Image.open(io.BytesIO(bytes(np.asarray(data, object).item()))) as im:
        im = im.convert(mode) if mode else im
        a = np.asarray(im)
    return a[..., None] if a.ndim == 2 else a


def _gray(a):
    """libpng's RGB-to-gray in 15-bit fixed point (0.299, 0.587 as TF's PNG decoder sets them)."""
    r, g, b = (a[..., i].astype(np.int64) for i in range(3))
    return ((r * 9797 + g * 19234 + b * 3737) >> 15).astype(a.dtype)[..., None]


def _png_inputs(c):
    return lambda dt, rng: (_bytes(_pil_bytes(_image(rng, c=c), "PNG")),)


def _png_special(dt):
    rng = np.random.RandomState(1)
    img = _image(rng, 4, 3)
    pal = Image.fromarray(img).convert("P", palette=Image.ADAPTIVE, colors=8)
    buf = io.BytesIO()
    pal.save(buf, "PNG")
    return [(_bytes(buf.getvalue()),), (_bytes(_pil_bytes(img[..., :1], "PNG")),),
            (_bytes(_pil_bytes(np.zeros((1, 1, 4), U8), "PNG")),)]


def _png_ref(channels, dtype=U8):
    def ref(data):
        a = _pil_decode(data)
        if a.ndim == 3 and a.shape[-1] == 1 and channels in (3, 4):
            a = np.repeat(a, 3, -1)
        if channels == 1 and a.shape[-1] >= 3:
            a = _gray(a)
        elif channels == 1 and a.shape[-1] == 2:
            a = a[..., :1]
        elif channels == 3:
            a = a[..., :3] if a.shape[-1] >= 3 else np.repeat(a[..., :1], 3, -1)
        elif channels == 4 and a.shape[-1] == 3:
            a = np.concatenate([a, np.full(a.shape[:2] + (1,), 255, U8)], -1)
        if _pil_mode(data) == "P" and channels == 0:
            a = _pil_decode(data, "RGB")
        return a.astype(U16) * 257 if dtype == U16 else a
    return ref


def _pil_mode(data):
    with Image.open(io.BytesIO(bytes(np.asarray(data, object).item()))) as im:
        return im.mode


def _png_decode_ref(channels, dtype=U8):
    base = _png_ref(channels, dtype)

    def ref(data):
        raw = bytes(np.asarray(data, object).item())
        depth = raw[24]  # IHDR's bit depth: an added alpha is opaque at it (TF's libpng filler)
        if _pil_mode(data) == "P":
            out = base(_bytes(_pil_bytes(_pil_decode(data, "RGB"), "PNG")))
        else:
            out = base(data)
        if channels == 4 and depth < 8 and b"tRNS" not in raw:
            out = out.copy()
            out[..., 3] = ((1 << depth) - 1) * (257 if dtype == U16 else 1)
        return out
    return ref


_DECODE = dict(dtypes=(OBJ,), grad=False, static_known=False)


def _decode_png_rows():
    rows = []
    for ch, dtype, c_in, tag in [(0, U8, 3, ""), (1, U8, 3, "-gray"), (3, U8, 4, "-rgb"), (4, U8, 3, "-rgba"),
                                 (0, U16, 3, "-uint16")]:
        rows.append(Row("DecodePng", lambda x, ch=ch, dtype=dtype: tf.image.decode_png(x, channels=ch,
                                                                                       dtype=tf.as_dtype(dtype)),
                        _png_decode_ref(ch, dtype), _png_inputs(c_in), special=_png_special, name="DecodePng" + tag,
                        **_DECODE))
    return rows


def _encode_png_rows():
    def inputs(dt, rng):
        top = 65536 if dt == U16 else 256
        return (rng.randint(0, top, (4, 5, 3)).astype(dt),)

    def special(dt):
        top = np.iinfo(dt).max
        return [(np.full((2, 3, 1), top, dt),), (np.zeros((3, 2, 2), dt),),
                (np.arange(24).reshape(2, 3, 4).astype(dt),)]
    return [Row("EncodePng", lambda x: tf.image.decode_png(tf.image.encode_png(x), dtype=x.dtype),
                lambda x: x.copy(), inputs, dtypes=(U8, U16), special=special, grad=False, static_known=False),
            Row("EncodePng", lambda x: tf.image.decode_png(tf.image.encode_png(x, compression=9), dtype=x.dtype),
                lambda x: x.copy(), inputs, dtypes=(U8,), special=False, grad=False, static_known=False,
                name="EncodePng-compression9")]


def _smooth(rng, h=16, w=16, c=3):
    y, x = np.mgrid[0:h, 0:w]
    base = rng.uniform(40, 200, c)
    return np.clip(base + 3 * x[..., None] + 2 * y[..., None], 0, 255).astype(U8)


def _jpeg_rows():
    def jpeg_in(c, **kw):
        return lambda dt, rng: (_bytes(_pil_bytes(_smooth(rng, c=c), "JPEG", quality=90, **kw)),)

    def special(dt):
        return [(_bytes(_pil_bytes(np.full((9, 17, 3), 77, U8), "JPEG")),),
                (_bytes(_pil_bytes(np.zeros((1, 1, 1), U8), "JPEG")),)]

    def ref_channels(channels):
        def ref(data):
            a = _pil_decode(data)
            return np.repeat(a, 3, -1) if channels == 3 and a.shape[-1] == 1 else a
        return ref

    def crop_ref(data):
        return _pil_decode(data)[2:7, 3:11]

    def shape_ref(data):
        a = _pil_decode(data)
        return np.array(a.shape, np.int32)

    def roundtrip(x, quality=None):
        if quality is None:
            enc = tf.image.encode_jpeg(x, quality=100, chroma_downsampling=False)
        else:
            enc = _encode_vq(x, quality)
        return tf.cast(tf.image.decode_jpeg(enc, dct_method="INTEGER_ACCURATE"), tf.float32)

    def img_in(c):
        return lambda dt, rng: (_smooth(rng, 8, 12, c),)

    def vq_in(dt, rng):
        return _smooth(rng, 8, 12, 3), np.array(100, np.int32)

    return [
        Row("DecodeJpeg", lambda x: tf.image.decode_jpeg(x, dct_method="INTEGER_ACCURATE"), ref_channels(0),
            jpeg_in(3), special=special, **_DECODE),
        Row("DecodeJpeg", lambda x: tf.image.decode_jpeg(x, channels=3), ref_channels(3), jpeg_in(1),
            special=False, name="DecodeJpeg-gray-to-rgb", **_DECODE),
        Row("DecodeJpeg", lambda x: tf.image.decode_jpeg(x, channels=1), ref_channels(1), jpeg_in(1),
            special=False, name="DecodeJpeg-gray", **_DECODE),
        Row("DecodeAndCropJpeg", lambda x: tf.image.decode_and_crop_jpeg(x, [2, 3, 5, 8]), crop_ref,
            jpeg_in(3, subsampling=0), special=False, **_DECODE),
        Row("ExtractJpegShape", tf.image.extract_jpeg_shape, shape_ref, jpeg_in(3), special=special,
            dtypes=(OBJ,), grad=False),
        Row("EncodeJpeg", roundtrip, lambda x: x.astype(F32), img_in(3), dtypes=(U8,), special=False, grad=False,
            static_known=False, atol=8, rtol=0),
        Row("EncodeJpeg", roundtrip, lambda x: x.astype(F32), img_in(1), dtypes=(U8,), special=False, grad=False,
            static_known=False, atol=8, rtol=0, name="EncodeJpeg-gray"),
        Row("EncodeJpegVariableQuality", roundtrip, lambda x, q: x.astype(F32), vq_in, dtypes=(U8,), special=False,
            grad=False, static_known=False, atol=8, rtol=0),
    ]


def _encode_vq(x, quality):
    from tensorweave.ops.image_codec_ops import encode_jpeg_variable_quality
    return encode_jpeg_variable_quality(x, quality)


def _gif_bytes(frames):
    ims = [Image.fromarray(f) for f in frames]
    buf = io.BytesIO()
    ims[0].save(buf, "GIF", save_all=True, append_images=ims[1:], duration=10, loop=0)
    return buf.getvalue()


def _palette_frames(rng, n=3, h=4, w=5):
    colors = np.array([[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]], U8)
    return [colors[rng.randint(0, 5, (h, w))] for _ in range(n)]


def _gif_ref(data):
    with Image.open(io.BytesIO(bytes(np.asarray(data, object).item()))) as im:
        frames = []
        for i in range(im.n_frames):
            im.seek(i)
            frames.append(np.asarray(im.convert("RGB")))
    return np.stack(frames)


def _bmp_ref(channels):
    def ref(data):
        a = _pil_decode(data)
        if channels == 4 and a.shape[-1] == 3:
            a = np.concatenate([a, np.full(a.shape[:2] + (1,), 255, U8)], -1)
        return a
    return ref


def _wav_bytes(samples, rate=8000):
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(samples.shape[1])
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2").tobytes())
    return buf.getvalue()


def _wav_ref(desired_channels, desired_samples):
    def ref(data):
        raw = bytes(np.asarray(data, object).item())
        channels, rate = struct.unpack("<HI", raw[22:28])
        n = struct.unpack("<I", raw[40:44])[0] // 2
        pcm = np.array(struct.unpack("<%dh" % n, raw[44:44 + 2 * n]), np.float64).reshape(-1, channels)
        out = pcm / 32768.0
        if desired_channels > 0:
            out = np.stack([out[:, min(c, channels - 1)] for c in range(desired_channels)], 1)
        if desired_samples >= 0:
            pad = np.zeros((max(0, desired_samples - out.shape[0]), out.shape[1]))
            out = np.concatenate([out, pad])[:desired_samples]
        return [out.astype(F32), np.array(rate, np.int32)]
    return ref


def _wav_rows():
    def inputs(dt, rng):
        return (_bytes(_wav_bytes(rng.randint(-32768, 32768, (7, 2)))),)

    def special(dt):
        return [(_bytes(_wav_bytes(np.array([[-32768], [32767], [0]]))),),
                (_bytes(_wav_bytes(np.zeros((0, 1), np.int64))),)]

    def enc_ref(x, rate):
        y = np.clip(x.astype(np.float64), -1, 1) * 32768
        y = np.clip(np.sign(y) * np.floor(np.abs(y) + 0.5), -32768, 32767)
        return [(y / 32768).astype(F32), np.array(rate, np.int32)]

    def enc_in(dt, rng):
        return rng.uniform(-1.2, 1.2, (9, 3)).astype(F32), np.array(22050, np.int32)

    def enc_special(dt):
        return [(np.array([[0.5], [-0.5 / 32768], [1.0], [-1.0], [0.5 / 32768]], F32), np.array(8000, np.int32)),
                (np.zeros((0, 2), F32), np.array(100, np.int32))]
    rows = [Row("DecodeWav", lambda x: list(tf.audio.decode_wav(x)), _wav_ref(-1, -1), inputs, special=special,
                **_DECODE)]
    for ch, n, tag in [(1, -1, "-mono"), (3, 10, "-upmix-pad"), (2, 4, "-truncate")]:
        rows.append(Row("DecodeWav", lambda x, ch=ch, n=n: list(tf.audio.decode_wav(x, ch, n)), _wav_ref(ch, n),
                        inputs, special=False, name="DecodeWav" + tag, dtypes=(OBJ,), grad=False, static_known=n >= 0))
    rows.append(Row("EncodeWav", lambda x, r: list(tf.audio.decode_wav(tf.audio.encode_wav(x, r))), enc_ref, enc_in,
                    dtypes=(F32,), special=enc_special, grad=False, static_known=False))
    return rows


def _other_rows():
    def gif_in(dt, rng):
        return (_bytes(_gif_bytes(_palette_frames(rng))),)

    def gif_special(dt):
        rng = np.random.RandomState(2)
        return [(_bytes(_gif_bytes(_palette_frames(rng, n=1))),),
                (_bytes(_pil_bytes(_image(rng), "PNG")),)]

    def bmp_in(c):
        return lambda dt, rng: (_bytes(_pil_bytes(_image(rng, c=c), "BMP")),)

    def image_ref(data):
        raw = bytes(np.asarray(data, object).item())
        return _gif_ref(data) if raw[:3] == b"GIF" else _pil_decode(data)

    def image_f32_ref(data):
        return (image_ref(data).astype(np.float64) / 255).astype(F32)

    def webp_in(dt, rng):
        return (_bytes(_pil_bytes(_image(rng), "WEBP", lossless=True)),)

    return [
        Row("DecodeGif", tf.image.decode_gif, _gif_ref, gif_in, special=gif_special, **_DECODE),
        Row("DecodeBmp", tf.image.decode_bmp, _bmp_ref(0), bmp_in(3), special=False, **_DECODE),
        Row("DecodeBmp", lambda x: tf.image.decode_bmp(x, channels=4), _bmp_ref(4), bmp_in(3), special=False,
            name="DecodeBmp-rgba", **_DECODE),
        Row("DecodeImage", tf.image.decode_image, image_ref, gif_in, special=gif_special, **_DECODE),
        Row("DecodeImage", lambda x: tf.image.decode_image(x, dtype=tf.float32, expand_animations=False),
            image_f32_ref, _png_inputs(3), special=False, name="DecodeImage-float", **_DECODE),
        Row("DecodeWebP", tf.io.decode_webp, lambda x: _pil_decode(x)[None], webp_in, special=False, **_DECODE),
    ]


ROWS = (_decode_png_rows() + _encode_png_rows() + _jpeg_rows() + _wav_rows() + _other_rows())
