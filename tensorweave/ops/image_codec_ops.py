"""Image codecs (TF's `image_ops` decode/encode kernels): DecodePng, EncodePng, DecodeJpeg,
DecodeAndCropJpeg, EncodeJpeg, EncodeJpegVariableQuality, ExtractJpegShape, DecodeGif, DecodeBmp,
DecodeImage and DecodeWebP, with the Python functions `tf.image.decode_*`/`encode_*`, `is_jpeg`,
`adjust_jpeg_quality` and `random_jpeg_quality`.

Pillow (the `[image]` extra, imported when a codec first runs) reads JPEG, WebP and 8-bit PNG and
writes JPEG. 16-bit PNGs are read, and every PNG written, by the NumPy/zlib codec here (Pillow keeps
8 bits of a 16-bit colour PNG); GIF (LZW) and BMP are read here, composed as TF's decoders do. As in
TF, DecodeJpeg, DecodePng and DecodeGif sniff the format and also decode the other two (a
non-animated GIF for the first two); DecodeBmp reads BMP only.

How the values compare with TensorFlow (tests/data/make_image_codec_tf.py records TF's):
- PNG, GIF and BMP decoding give TF's values exactly: libpng's fixed-point RGB-to-gray at the PNG's
  bit depth, tRNS chunks, TF's alpha filler at low bit depths (1 for a 1-bit PNG); a GIF frame starts
  from the previous frame, transparent pixels keep it (zeros in the first), disposal is ignored.
- JPEG decoding is libjpeg's `JDCT_ISLOW` with fancy upsampling: TF's values exactly for
  `dct_method="INTEGER_ACCURATE"` (and for ratios 2, 4, 8). TF's default `dct_method=""` (and
  "INTEGER_FAST") is libjpeg's fast integer IDCT, which Pillow cannot select: those pixels differ
  from TF's by a few levels (at most 8, 1 to 2 on average, on the goldens); libjpeg treats the method
  as a hint, and so does this decoder. `fancy_upscaling=False` on a chroma-subsampled JPEG and
  `try_recover_truncated=True` on a truncated one raise `UnimplementedError`.
- DecodeAndCropJpeg decodes the whole image and crops it: TF's values for gray and 4:4:4 JPEGs;
  with chroma subsampling, TF's libjpeg crop upsamples the chroma at the window's edges as image
  edges, so the window's edge columns may differ.
- JPEG encoding uses Pillow's libjpeg with TF's settings (quality, progressive, optimized Huffman
  tables, 4:2:0 or 4:4:4 chroma, JFIF density, XMP): the bytes may differ from TF's encoder, the
  round-trip error is TF's (tests). DecodeWebP gives TF's values ([frames, h, w, c]).
"""

import io
import struct
import zlib

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _check_dtype, _dims, _fmt

_U8 = np.uint8
_U16 = np.uint16


def _pil():
    """Pillow's Image module, imported when a codec first runs."""
    try:
        from PIL import Image, ImageFile
    except ImportError as e:  # pragma: no cover - the extra is installed in the test environment
        raise ImportError("tf.image's codecs need Pillow: pip install 'tensorweave[image]'") from e
    return Image, ImageFile


def _unimplemented(message):
    return errors.UnimplementedError(None, None, message)


def _as_bytes(contents):
    v = np.asarray(contents, dtype=object)
    if v.ndim != 0:
        raise _invalid("contents must be scalar, got shape %s" % _fmt(v.shape))
    v = v.item()
    return v.encode("utf-8") if isinstance(v, str) else bytes(v)


def _string_scalar(data):
    out = np.empty((), dtype=object)
    out[()] = data
    return out


# ---- format sniffing -------------------------------------------------------------------------------
def _format(data):
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:3] == b"GIF":
        return "gif"
    if data[:2] == b"BM":
        return "bmp"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def _sniff(data, op_type):
    """The format of `data` for a decode op, with TF's errors for empty/unknown data."""
    if not data:
        raise _invalid("Input is empty.")
    fmt = _format(data)
    if fmt is None:
        raise _invalid("Unknown image file format. One of JPEG, PNG, GIF, BMP required.")
    return fmt


# ---- channel conversion ----------------------------------------------------------------------------
def _gray_from_rgb(a, sixteen):
    """libpng's RGB-to-gray (coefficients 0.299/0.587 in 15-bit fixed point, as TF's decoder sets
    them), at the data's bit depth."""
    r, g, b = (a[..., i].astype(np.int64) for i in range(3))
    y = r * 9797 + g * 19234 + b * 3737
    if sixteen:
        y = y + 16384
    return (y >> 15).astype(a.dtype)[..., None]


def _convert_channels(a, channels, png_gray=True):
    """`a` [h, w, c] (c = 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA) to `channels` channels (0: as is)."""
    c = a.shape[-1]
    if channels == 0 or channels == c:
        return a
    sixteen = a.dtype == _U16
    top = 65535 if sixteen else 255
    if channels == 1:
        if c == 2:
            return a[..., :1]
        return _gray_from_rgb(a, sixteen) if png_gray else a[..., :1]
    color = a[..., :3] if c >= 3 else np.repeat(a[..., :1], 3, axis=-1)
    if channels == 3:
        return np.ascontiguousarray(color)
    alpha = a[..., -1:] if c in (2, 4) else np.full(a.shape[:-1] + (1,), top, a.dtype)
    return np.concatenate([color, alpha], axis=-1)


def _check_channels(channels, allowed=(0, 1, 3, 4)):
    if channels not in allowed:
        raise _invalid("`channels` must be 0, 1, 3 or 4 but got %d" % channels)


# ---- PNG -------------------------------------------------------------------------------------------
_PNG_SIG = b"\x89PNG\r\n\x1a\n"
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))
_PNG_NCH = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def _png_chunks(data):
    pos = 8
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if len(body) != n or pos + 12 + n > len(data):
            raise ValueError("truncated chunk")
        crc = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError("bad CRC")
        yield kind, body
        pos += 12 + n
        if kind == b"IEND":
            return
    raise ValueError("no IEND")


def _png_header(data):
    if len(data) < 33 or data[:8] != _PNG_SIG or data[12:16] != b"IHDR":
        raise ValueError("bad header")
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    return w, h, depth, ctype, interlace


def _unfilter(raw, h, row_bytes, bpp):
    """PNG's per-row filters undone: `raw` holds h rows of 1 filter byte + row_bytes."""
    rows = np.frombuffer(raw, _U8)[:h * (row_bytes + 1)].reshape(h, row_bytes + 1)
    out = np.zeros((h, row_bytes), _U8)
    prev = np.zeros(row_bytes, np.int64)
    for y in range(h):
        ft, line = rows[y, 0], rows[y, 1:].astype(np.int64)
        if ft == 0:
            cur = line
        elif ft == 1:
            cur = np.cumsum(line.reshape(-1, bpp), axis=0).reshape(-1) & 255
        elif ft == 2:
            cur = (line + prev) & 255
        elif ft in (3, 4):
            cur = line.copy()
            for i in range(0, row_bytes, bpp):
                left = cur[i - bpp:i] if i else np.zeros(bpp, np.int64)
                up = prev[i:i + bpp]
                if ft == 3:
                    cur[i:i + bpp] = (cur[i:i + bpp] + ((left + up) >> 1)) & 255
                else:
                    ul = prev[i - bpp:i] if i else np.zeros(bpp, np.int64)
                    p = left + up - ul
                    pa, pb, pc = np.abs(p - left), np.abs(p - up), np.abs(p - ul)
                    pred = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, ul))
                    cur[i:i + bpp] = (cur[i:i + bpp] + pred) & 255
        else:
            raise ValueError("bad filter")
        out[y] = cur
        prev = cur
    return out


def _decode_png16(data):
    """A 16-bit PNG (gray, gray+alpha, RGB, RGBA; any interlace) as uint16 [h, w, c], tRNS as alpha."""
    w, h, depth, ctype, interlace = _png_header(data)
    nch = _PNG_NCH[ctype]
    idat, trns = [], None
    for kind, body in _png_chunks(data):
        if kind == b"IDAT":
            idat.append(body)
        elif kind == b"tRNS":
            trns = body
    raw = zlib.decompress(b"".join(idat))
    bpp = 2 * nch
    out = np.zeros((h, w, nch), _U16)
    passes = _ADAM7 if interlace else ((0, 0, 1, 1),)
    pos = 0
    for x0, y0, dx, dy in passes:
        pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
        if pw <= 0 or ph <= 0:
            continue
        n = ph * (pw * bpp + 1)
        if pos + n > len(raw):
            raise ValueError("short data")
        rows = _unfilter(raw[pos:pos + n], ph, pw * bpp, bpp)
        pos += n
        out[y0::dy, x0::dx] = rows.view(">u2").reshape(ph, pw, nch).astype(_U16)
    if trns is not None and ctype in (0, 2):
        key = np.frombuffer(trns, ">u2").astype(_U16)
        alpha = np.where(np.all(out == key[None, None, :nch], axis=-1), 0, 65535).astype(_U16)
        out = np.concatenate([out, alpha[..., None]], -1)
    return out


def _pil_to_array(im):
    """A decoded Pillow image as uint8 [h, w, c] with PNG/libpng's channel rules (a palette expands
    to RGB, or RGBA with transparency; a transparency key becomes an alpha channel)."""
    mode = im.mode
    if mode == "P" or mode == "PA":
        im = im.convert("RGBA" if ("transparency" in im.info or mode == "PA") else "RGB")
    elif mode == "1":
        im = im.convert("L")
    elif mode in ("L", "RGB") and "transparency" in im.info:
        key = im.info["transparency"]
        a = np.asarray(im)
        if mode == "L":
            alpha = np.where(a == key, 0, 255).astype(_U8)
            return np.stack([a, alpha], -1)
        alpha = np.where(np.all(a == np.asarray(key, _U8), axis=-1), 0, 255).astype(_U8)
        return np.concatenate([a, alpha[..., None]], -1)
    elif mode not in ("L", "LA", "RGB", "RGBA"):
        im = im.convert("RGBA" if "A" in mode else "RGB")
    a = np.asarray(im)
    return a[..., None] if a.ndim == 2 else a


def _decode_png(data, channels, dtype):
    """A PNG as libpng decodes it for TF: `channels` 0 means the color type's channels (a palette:
    RGB, or RGBA with a tRNS chunk); an alpha channel added to an image without one is opaque at
    the PNG's bit depth (1 for a 1-bit PNG, as TF's filler is)."""
    try:
        _, _, depth, ctype, _ = _png_header(data)
        has_trns = any(kind == b"tRNS" for kind, _ in _png_chunks(data))
        if depth == 16:
            a = _decode_png16(data)
        else:
            Image, _ = _pil()
            with Image.open(io.BytesIO(data)) as im:
                im.load()
                a = _pil_to_array(im)
    except (ValueError, OSError, KeyError, zlib.error, SyntaxError, struct.error):
        raise _invalid("Invalid PNG data, size %d" % len(data)) from None
    if channels == 0:
        channels = (4 if has_trns else 3) if ctype == 3 else _PNG_NCH.get(ctype, a.shape[-1])
    a = _convert_channels(a, channels)
    if channels == 4 and ctype in (0, 2, 3) and not has_trns and depth < 8:
        a = a.copy()
        a[..., 3] = (1 << depth) - 1
    if dtype == _U16 and a.dtype == _U8:
        a = a.astype(_U16) * 257
    elif dtype == _U8 and a.dtype == _U16:
        a = (a >> 8).astype(_U8)
    return a


def _encode_png(image, compression):
    """A PNG of `image` (uint8/uint16 [h, w, 1..4]): IHDR, one zlib IDAT of unfiltered rows, IEND."""
    h, w, c = image.shape
    depth = 16 if image.dtype == _U16 else 8
    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    body = image.astype(">u2") if depth == 16 else image
    rows = np.concatenate([np.zeros((h, 1), _U8), np.ascontiguousarray(body).view(_U8).reshape(h, -1)], axis=1)

    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(
            ">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)
    level = -1 if compression < 0 else min(int(compression), 9)
    return (_PNG_SIG + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), level)) + chunk(b"IEND", b""))


# ---- JPEG ------------------------------------------------------------------------------------------
_JPEG_BAD = "jpeg::Uncompress failed. Invalid JPEG data or crop window."


def _jpeg_subsampled(im):
    layers = getattr(im, "layer", None) or []
    return len(layers) > 1 and any((h, v) != (layers[0][1], layers[0][2]) for _, h, v, _ in layers[1:])


def _decode_jpeg(data, channels, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                 acceptable_fraction=1.0, dct_method="", crop=None):
    """A JPEG as uint8 [h, w, c] (see the module docstring for how it compares with TF)."""
    if channels not in (0, 1, 3):
        if channels == 4:
            raise _invalid("JPEG does not support 4 channels")
        _check_channels(channels)
    if ratio not in (1, 2, 4, 8):
        raise _invalid("ratio must be 1, 2, 4, or 8, got %d" % ratio)
    Image, ImageFile = _pil()
    try:
        im = Image.open(io.BytesIO(data))
        if im.format != "JPEG":
            raise ValueError("not a JPEG")
    except (ValueError, OSError, SyntaxError):
        raise _invalid(_JPEG_BAD) from None
    with im:
        if im.mode == "CMYK":
            raise _unimplemented("DecodeJpeg: CMYK JPEGs are not supported")
        if not fancy_upscaling and _jpeg_subsampled(im):
            raise _unimplemented("DecodeJpeg: fancy_upscaling=False is not supported for chroma-subsampled JPEGs")
        src_channels = 1 if im.mode == "L" else 3
        want = src_channels if channels == 0 else channels
        w, h = im.size
        if want == 1 or ratio != 1:
            im.draft("L" if want == 1 else im.mode, (w / ratio, h / ratio) if ratio != 1 else (w, h))
        try:
            im.load()
        except OSError as e:
            if "truncated" in str(e) and try_recover_truncated:
                raise _unimplemented("DecodeJpeg: try_recover_truncated is not supported for truncated JPEGs") \
                    from None
            raise _invalid(_JPEG_BAD) from None
        a = np.asarray(im.convert("L") if want == 1 and im.mode != "L" else im)
    a = a[..., None] if a.ndim == 2 else a
    if want == 3 and a.shape[-1] == 1:
        a = np.repeat(a, 3, axis=-1)
    if crop is not None:
        y, x, ch, cw = (int(v) for v in crop)
        if ch <= 0 or cw <= 0 or y < 0 or x < 0 or y + ch > a.shape[0] or x + cw > a.shape[1]:
            raise _invalid(_JPEG_BAD)
        a = a[y:y + ch, x:x + cw]
    return np.ascontiguousarray(a)


def _jpeg_shape(data):
    """(height, width, components) from the JPEG's SOF marker."""
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            break
        marker = data[pos + 1]
        if marker == 0xFF:
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        n = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if pos + 10 > len(data):
                break
            h, w = struct.unpack(">HH", data[pos + 5:pos + 9])
            return h, w, data[pos + 9]
        pos += 2 + n
    raise _invalid("Invalid JPEG data, size %d" % len(data))


def _encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False, chroma_downsampling=True,
                 density_unit="in", x_density=300, y_density=300, xmp_metadata=""):
    if image.ndim != 3:
        raise _invalid("image must be 3-dimensional%s" % _fmt(image.shape))
    c = image.shape[-1]
    if format == "":
        if c not in (1, 3):
            raise _invalid("image must have 1 or 3 channels, got %s" % _fmt(image.shape))
    elif format in ("grayscale", "rgb"):
        need = 1 if format == "grayscale" else 3
        if c != need:
            raise _invalid("format %s expects %d channels, got %s" % (format, need, _fmt(image.shape)))
    else:
        raise _invalid("format must be '', grayscale or rgb, got %s" % format)
    if not 0 <= quality <= 100:
        raise _invalid("quality must be in [0,100], got %d" % quality)
    if image.shape[0] == 0 or image.shape[1] == 0 or image.shape[0] > 65535 or image.shape[1] > 65535:
        raise errors.InternalError(None, None, "JPEG encoding failed")
    Image, _ = _pil()
    im = Image.fromarray(np.ascontiguousarray(image[..., 0] if c == 1 else image), "L" if c == 1 else "RGB")
    kwargs = dict(quality=max(int(quality), 1), progressive=bool(progressive), optimize=bool(optimize_size),
                  subsampling=2 if chroma_downsampling else 0)
    if xmp_metadata:
        kwargs["xmp"] = xmp_metadata.encode("utf-8") if isinstance(xmp_metadata, str) else bytes(xmp_metadata)
    buf = io.BytesIO()
    im.save(buf, "JPEG", **kwargs)
    data = bytearray(buf.getvalue())
    if data[6:11] == b"JFIF\x00":
        # The JFIF header's density, as TF's encoder writes it (Pillow only writes inches).
        data[13] = 2 if density_unit == "cm" else 1
        data[14:18] = struct.pack(">HH", int(x_density) & 0xFFFF, int(y_density) & 0xFFFF)
    return bytes(data)


# ---- GIF, BMP, WebP --------------------------------------------------------------------------------
def _lzw_decode(data, min_code_size, n_pixels):
    """GIF's variable-length LZW: the color indices of one frame (at most `n_pixels`)."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    base = [bytes([i]) for i in range(clear)] + [b"", b""]
    table = list(base)
    out = bytearray()
    size = min_code_size + 1
    mask = (1 << size) - 1
    prev = None
    buf = nbits = 0
    for byte in data:
        buf |= byte << nbits
        nbits += 8
        while nbits >= size:
            code = buf & mask
            buf >>= size
            nbits -= size
            if code == clear:
                table = list(base)
                size = min_code_size + 1
                mask = (1 << size) - 1
                prev = None
                continue
            if code == end:
                return out
            if code < len(table):
                entry = table[code]
                if prev is not None:
                    table.append(prev + entry[:1])
            elif code == len(table) and prev is not None:
                entry = prev + prev[:1]
                table.append(entry)
            else:
                raise ValueError("bad LZW code")
            out += entry
            if len(out) >= n_pixels:
                return out
            prev = entry
            if len(table) == mask + 1 and size < 12:
                size += 1
                mask = (1 << size) - 1
    return out


def _gif_sub_blocks(data, pos):
    chunks = []
    while True:
        n = data[pos]
        pos += 1
        if n == 0:
            return b"".join(chunks), pos
        chunks.append(data[pos:pos + n])
        pos += n


def _decode_gif_frames(data):
    """All frames of a GIF as TF's decoder composes them, uint8 [frames, h, w, 3]: each frame starts
    as a copy of the previous one (the first as zeros where it is not drawn), its pixels of the
    transparent index keep the previous frame's (zeros in the first), disposal methods are ignored."""
    try:
        if data[:6] not in (b"GIF87a", b"GIF89a"):
            raise ValueError("not a GIF")
        width, height, flags = struct.unpack("<HHB", data[6:11])
        pos = 13
        global_map = None
        if flags & 0x80:
            n = 3 << ((flags & 7) + 1)
            global_map = np.frombuffer(data[pos:pos + n], np.uint8).reshape(-1, 3)
            pos += n
        frames = []
        transparent = None
        while pos < len(data):
            kind = data[pos]
            pos += 1
            if kind == 0x3B:
                break
            if kind == 0x21:
                label = data[pos]
                body, pos = _gif_sub_blocks(data, pos + 1)
                if label == 0xF9 and len(body) >= 4:
                    transparent = body[3] if body[0] & 1 else None
                continue
            if kind != 0x2C:
                raise ValueError("bad block")
            left, top, w, h, iflags = struct.unpack("<HHHHB", data[pos:pos + 9])
            pos += 9
            cmap = global_map
            if iflags & 0x80:
                n = 3 << ((iflags & 7) + 1)
                cmap = np.frombuffer(data[pos:pos + n], np.uint8).reshape(-1, 3)
                pos += n
            min_code = data[pos]
            raw, pos = _gif_sub_blocks(data, pos + 1)
            if cmap is None or not 1 <= min_code <= 11:
                raise ValueError("bad frame")
            idx = np.frombuffer(bytes(_lzw_decode(raw, min_code, w * h)), np.uint8)
            idx = np.concatenate([idx, np.zeros(w * h - idx.size, np.uint8)])[:w * h].reshape(h, w)
            if iflags & 0x40:  # interlaced rows
                order = np.concatenate([np.arange(0, h, 8), np.arange(4, h, 8), np.arange(2, h, 4),
                                        np.arange(1, h, 2)])
                rows = np.empty_like(idx)
                rows[order] = idx
                idx = rows
            canvas = frames[-1].copy() if frames else np.zeros((height, width, 3), np.uint8)
            y0, x0 = min(top, height), min(left, width)
            y1, x1 = min(top + h, height), min(left + w, width)
            sub = idx[:y1 - y0, :x1 - x0]
            if sub.size and sub.max() >= cmap.shape[0]:
                raise _invalid("Found color index %d outside of color map range %d" % (sub.max(), cmap.shape[0]))
            keep = sub == transparent if transparent is not None else np.zeros(sub.shape, bool)
            region = canvas[y0:y1, x0:x1]
            region[~keep] = cmap[sub[~keep]]
            if not frames:
                region[keep] = 0
            frames.append(canvas)
            transparent = None
        if not frames:
            raise ValueError("no frames")
    except (ValueError, IndexError, struct.error):
        raise _invalid("Invalid GIF data (size %d)" % len(data)) from None
    return np.stack(frames)


def _decode_bmp(data, channels):
    """An uncompressed 8-, 24- or 32-bit BMP as TF reads it: BGR(A) to RGB(A), an 8-bit pixel's index
    as its gray value, rows bottom-up unless the height is negative."""
    if channels not in (0, 1, 3, 4):
        raise _invalid("channels must be 0, 1, 3 or 4, got %d" % channels)
    if len(data) < 30:
        raise _invalid("Incomplete bmp content, requires at least 30 bytes to find the header size, width, "
                       "height, and bpp, got %d bytes" % len(data))
    offset, = struct.unpack("<I", data[10:14])
    width, height, _, bpp = struct.unpack("<iiHH", data[18:30])
    if bpp not in (8, 24, 32):
        raise _invalid("bits per pixel must be 8, 24 or 32, got %d" % bpp)
    if width <= 0 or height == 0:
        raise _invalid("Invalid BMP dimensions %d x %d" % (width, height))
    nch = bpp // 8
    stride = ((bpp * width + 31) // 32) * 4
    h = abs(height)
    if offset + stride * (h - 1) + width * nch > len(data):
        raise _invalid("Invalid BMP data, size %d" % len(data))
    buf = np.frombuffer(data, _U8, count=stride * (h - 1) + width * nch, offset=offset)
    buf = np.concatenate([buf, np.zeros(stride * h - buf.size, _U8)])
    a = buf.reshape(h, stride)[:, :width * nch].reshape(h, width, nch)
    if height > 0:
        a = a[::-1]
    if nch >= 3:
        a = np.concatenate([a[..., 2::-1], a[..., 3:]], axis=-1)
    a = np.ascontiguousarray(a)
    if channels == 0 or channels == nch:
        return a
    if channels == 1:
        raise _invalid("channels attribute 1 does not match bits per pixel from file %d" % bpp)
    return _convert_channels(a, channels, png_gray=False)


def _decode_webp(data, channels):
    """The frames of a WebP image, uint8 [frames, h, w, c]: c is 4 when the image has alpha, else 3
    (TF's DecodeWebP; `channels` must be 0 or that number)."""
    Image, _ = _pil()
    try:
        with Image.open(io.BytesIO(data)) as im:
            if im.format != "WEBP":
                raise ValueError("not a WebP")
            alpha = im.mode in ("RGBA", "LA", "PA")
            frames = []
            for i in range(getattr(im, "n_frames", 1)):
                im.seek(i)
                frames.append(np.asarray(im.convert("RGBA" if alpha else "RGB")))
    except (ValueError, OSError, SyntaxError, EOFError):
        raise _invalid("Invalid WebP data, size %d" % len(data)) from None
    a = np.stack(frames)
    if channels not in (0, a.shape[-1]):
        raise _invalid("Number of channels requested does not match input")
    return a


def _wrong_op(fmt, op_type):
    names = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "bmp": "BMP", "webp": "WebP"}
    return _invalid("Trying to decode %s format using a wrong op. Use `decode_%s` or `decode_image` instead. "
                    "Op used: %s" % (names[fmt], fmt, op_type))


def _decode_3d(data, fmt, channels, dtype, op_type, jpeg_attrs):
    """JPEG, PNG or a single-frame GIF as [h, w, c] of `dtype` (uint8/uint16)."""
    if fmt == "png":
        return _decode_png(data, channels, dtype)
    if fmt == "jpeg":
        a = _decode_jpeg(data, channels, **jpeg_attrs)
    elif fmt == "gif":
        frames = _decode_gif_frames(data)
        if frames.shape[0] != 1:
            raise _invalid("Got %d frames, but animated gifs can only be decoded by tf.io.decode_gif or "
                           "tf.io.decode_image" % frames.shape[0])
        if channels not in (0, 3):
            raise _invalid("channels must be 0 or 3 for GIF, got %d" % channels)
        a = frames[0]
    else:
        raise _wrong_op(fmt, op_type)
    return a.astype(_U16) * 257 if dtype == _U16 else a


# ---- static shape inference ------------------------------------------------------------------------
def _scalar_string(t, op_type, arg="contents"):
    if t._dtype is not dtypes.string:
        raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of string."
                        % (arg, op_type, t._dtype.name))
    d = _dims(t)
    if d is not None and len(d) != 0:
        raise ValueError("Shape must be rank 0 but is rank %d for '%s' (op: '%s') with input shapes: %s."
                         % (len(d), op_type, op_type, _fmt(d)))


def _channels_dim(op):
    c = op._attrs.get("channels", 0)
    return c if c else None


def _decode_infer(out_dtype=None, rank4=False):
    def infer(op):
        _scalar_string(op._inputs[0], op._type)
        dt = out_dtype or op._attrs.get("dtype", dtypes.uint8)
        if rank4:
            return [(dt, (None, None, None, 3))]
        return [(dt, (None, None, _channels_dim(op)))]
    return infer


def _crop_infer(op):
    _scalar_string(op._inputs[0], op._type)
    w = op._inputs[1]
    _check_dtype(w, (dtypes.int32,), "crop_window", op._type)
    d = _dims(w)
    if d is not None and (len(d) != 1 or (d[0] is not None and d[0] != 4)):
        raise ValueError("crop_window must be a vector of 4 elements, got %s" % _fmt(d))
    return [(dtypes.uint8, (None, None, _channels_dim(op)))]


def _decode_image_infer(op):
    _scalar_string(op._inputs[0], op._type)
    dt = op._attrs.get("dtype", dtypes.uint8)
    if op._attrs.get("expand_animations", True):
        return [(dt, None)]
    return [(dt, (None, None, _channels_dim(op)))]


def _encode_infer(allowed):
    def infer(op):
        image = op._inputs[0]
        _check_dtype(image, allowed, "image", op._type)
        d = _dims(image)
        if d is not None and len(d) != 3:
            raise ValueError("Shape must be rank 3 but is rank %d" % len(d))
        if op._type == "EncodeJpegVariableQuality":
            q = op._inputs[1]
            _check_dtype(q, (dtypes.int32,), "quality", op._type)
            qd = _dims(q)
            if qd is not None and len(qd) != 0:
                raise ValueError("Shape must be rank 0 but is rank %d" % len(qd))
        return [(dtypes.string, ())]
    return infer


def _jpeg_shape_infer(op):
    _scalar_string(op._inputs[0], op._type)
    return [(op._attrs.get("output_type", dtypes.int32), (3,))]


# ---- kernels ---------------------------------------------------------------------------------------
def _np_dtype(dt):
    return np.dtype(dt.as_numpy_dtype) if hasattr(dt, "as_numpy_dtype") else np.dtype(dt)


def _jpeg_attrs(ratio=1, fancy_upscaling=True, try_recover_truncated=False, acceptable_fraction=1.0,
                dct_method=""):
    if dct_method not in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
        raise _invalid("dct_method must be one of '', INTEGER_FAST or INTEGER_ACCURATE, got %s" % dct_method)
    return dict(ratio=int(ratio), fancy_upscaling=bool(fancy_upscaling),
                try_recover_truncated=bool(try_recover_truncated), acceptable_fraction=float(acceptable_fraction),
                dct_method=dct_method)


def _decode_png_kernel(xp, contents, channels=0, dtype=dtypes.uint8):
    data = _as_bytes(contents)
    _check_channels(channels)
    fmt = _sniff(data, "DecodePng")
    return _decode_3d(data, fmt, channels, _np_dtype(dtype), "DecodePng", _jpeg_attrs())


def _decode_jpeg_kernel(xp, contents, channels=0, **attrs):
    data = _as_bytes(contents)
    _check_channels(channels)
    fmt = _sniff(data, "DecodeJpeg")
    jattrs = _jpeg_attrs(**attrs)
    if fmt != "jpeg" and jattrs["ratio"] not in (1, 2, 4, 8):
        raise _invalid("ratio must be 1, 2, 4, or 8, got %d" % jattrs["ratio"])
    return _decode_3d(data, fmt, channels, _U8, "DecodeJpeg", jattrs)


def _decode_crop_kernel(xp, contents, crop_window, channels=0, **attrs):
    data = _as_bytes(contents)
    _check_channels(channels)
    fmt = _sniff(data, "DecodeAndCropJpeg")
    if fmt != "jpeg":
        raise _invalid(_JPEG_BAD)
    w = np.asarray(crop_window).reshape(-1)
    if w.size != 4:
        raise _invalid("crop_window must have four elements %s" % _fmt(np.shape(crop_window)))
    return _decode_jpeg(data, channels, crop=w, **_jpeg_attrs(**attrs))


def _decode_gif_kernel(xp, contents):
    data = _as_bytes(contents)
    fmt = _sniff(data, "DecodeGif")
    if fmt == "gif":
        return _decode_gif_frames(data)
    if fmt in ("png", "jpeg"):
        a = _decode_3d(data, fmt, 3, _U8, "DecodeGif", _jpeg_attrs())
        return a[None]
    raise _wrong_op(fmt, "DecodeGif")


def _decode_bmp_kernel(xp, contents, channels=0):
    data = _as_bytes(contents)
    fmt = _sniff(data, "DecodeBmp")
    if fmt != "bmp":
        names = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "webp": "WebP"}
        raise _invalid("Trying to decode %s format using DecodeBmp op. Use `decode_%s` or `decode_image` instead."
                       % (names[fmt], fmt))
    return _decode_bmp(data, channels)


def _decode_webp_kernel(xp, contents, channels=0, dtype=dtypes.uint8):
    data = _as_bytes(contents)
    if channels not in (0, 3, 4):
        raise _invalid("channels must be 0, 3 or 4 for WebP, got %d" % channels)
    if not data:
        raise _invalid("Input is empty.")
    fmt = _format(data)
    if fmt != "webp":
        raise _invalid("Invalid WebP data, size %d" % len(data))
    a = _decode_webp(data, channels)
    return a.astype(_U16) * 257 if _np_dtype(dtype) == _U16 else a


def _to_float(a):
    return a.astype(np.float32) / np.float32(65535.0 if a.dtype == _U16 else 255.0)


def _decode_image_kernel(xp, contents, channels=0, dtype=dtypes.uint8, expand_animations=True):
    data = _as_bytes(contents)
    _check_channels(channels)
    fmt = _sniff(data, "DecodeImage")
    if fmt == "webp":
        raise _invalid("Unknown image file format. One of JPEG, PNG, GIF, BMP required.")
    out = _np_dtype(dtype)
    work = _U16 if out == _U16 or (out == np.float32 and fmt == "png" and _png_header_depth(data) == 16) else _U8
    if fmt == "gif":
        if channels not in (0, 3):
            raise _invalid("channels must be 0 or 3 for GIF, got %d" % channels)
        frames = _decode_gif_frames(data)
        a = frames if expand_animations else frames[0]
        a = a.astype(_U16) * 257 if work == _U16 else a
    elif fmt == "bmp":
        a = _decode_bmp(data, channels)
        a = a.astype(_U16) * 257 if work == _U16 else a
    else:
        a = _decode_3d(data, fmt, channels, work, "DecodeImage", _jpeg_attrs())
    return _to_float(a) if out == np.float32 else a


def _png_header_depth(data):
    try:
        return _png_header(data)[2]
    except ValueError:
        return 8


def _encode_png_kernel(xp, image, compression=-1):
    if image.ndim != 3:
        raise _invalid("image must be 3-dimensional%s" % _fmt(image.shape))
    c = image.shape[-1]
    if c not in (1, 2, 3, 4):
        raise _invalid("image must have 1, 2, 3, or 4 channels, got %d" % c)
    if not -1 <= compression <= 9:
        raise _invalid("compression should be in [-1,9], got %d" % compression)
    if image.shape[0] >= 2 ** 31 or image.shape[1] >= 2 ** 31 or image.size == 0:
        raise _invalid("image must have at least one pixel, got %s" % _fmt(image.shape))
    return _string_scalar(_encode_png(np.asarray(image), compression))


def _encode_jpeg_kernel(xp, image, **attrs):
    return _string_scalar(_encode_jpeg(np.asarray(image), **attrs))


def _encode_jpeg_vq_kernel(xp, images, quality):
    return _string_scalar(_encode_jpeg(np.asarray(images), quality=int(np.asarray(quality))))


def _extract_jpeg_shape_kernel(xp, contents, output_type=dtypes.int32):
    data = _as_bytes(contents)
    if _format(data) != "jpeg":
        raise _invalid("Invalid JPEG data, size %d" % len(data))
    h, w, c = _jpeg_shape(data)
    return np.array([h, w, c], _np_dtype(output_type))


_STRING_IN = dict(grad=NO_GRADIENT)
register_op("DecodePng", infer=_decode_infer(), kernel=_decode_png_kernel, **_STRING_IN)
register_op("DecodeJpeg", infer=_decode_infer(dtypes.uint8), kernel=_decode_jpeg_kernel, **_STRING_IN)
register_op("DecodeAndCropJpeg", infer=_crop_infer, kernel=_decode_crop_kernel, **_STRING_IN)
register_op("DecodeGif", infer=_decode_infer(dtypes.uint8, rank4=True), kernel=_decode_gif_kernel, **_STRING_IN)
register_op("DecodeBmp", infer=_decode_infer(dtypes.uint8), kernel=_decode_bmp_kernel, **_STRING_IN)
register_op("DecodeImage", infer=_decode_image_infer, kernel=_decode_image_kernel, **_STRING_IN)
register_op("EncodePng", infer=_encode_infer((dtypes.uint8, dtypes.uint16)), kernel=_encode_png_kernel,
            **_STRING_IN)
register_op("EncodeJpeg", infer=_encode_infer((dtypes.uint8,)), kernel=_encode_jpeg_kernel, **_STRING_IN)
register_op("EncodeJpegVariableQuality", infer=_encode_infer((dtypes.uint8,)), kernel=_encode_jpeg_vq_kernel,
            **_STRING_IN)
register_op("ExtractJpegShape", infer=_jpeg_shape_infer, kernel=_extract_jpeg_shape_kernel, **_STRING_IN)


def _decode_webp_infer(op):
    _scalar_string(op._inputs[0], op._type)
    return [(op._attrs.get("dtype", dtypes.uint8), (None, None, None, _channels_dim(op)))]


register_op("DecodeWebP", infer=_decode_webp_infer, kernel=_decode_webp_kernel, **_STRING_IN)


# ---- public functions ------------------------------------------------------------------------------
def _contents(contents):
    return ops.convert_to_tensor(contents, dtype=dtypes.string, name="contents")


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """Decodes a PNG-encoded image to a uint8 or uint16 tensor (JPEGs and non-animated GIFs are
    decoded too, as in TF).

    Args:
      contents: A 0-D string `Tensor`: the PNG-encoded image.
      channels: 0 (the PNG's own channels), 1 (grayscale), 3 (RGB) or 4 (RGBA).
      dtype: `tf.uint8` or `tf.uint16`.
      name: A name for the operation (optional).

    Returns:
      A 3-D `Tensor` of `dtype`, `[height, width, channels]`.

    Raises:
      InvalidArgumentError: At run time, for data that is not a valid image or a bad `channels`.
    """
    dtype = dtypes.as_dtype(dtype)
    return ops.apply_op("DecodePng", [_contents(contents)], {"channels": int(channels), "dtype": dtype},
                        name=name or "DecodePng")


def _decode_jpeg_op_attrs(channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction, dct_method):
    """The attrs of DecodeJpeg and DecodeAndCropJpeg."""
    return {"channels": int(channels), "ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling),
            "try_recover_truncated": bool(try_recover_truncated), "acceptable_fraction": float(acceptable_fraction),
            "dct_method": dct_method}


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """Decodes a JPEG-encoded image to a uint8 tensor (PNGs and non-animated GIFs are decoded
    too, as in TF).

    The pixels are libjpeg's accurate integer IDCT (TF's `dct_method="INTEGER_ACCURATE"` values);
    TF's default fast IDCT may differ by a few levels (module docstring).

    Args:
      contents: A 0-D string `Tensor`: the JPEG-encoded image.
      channels: 0 (the JPEG's own channels), 1 (grayscale) or 3 (RGB).
      ratio: The downscaling ratio: 1, 2, 4 or 8.
      fancy_upscaling: Whether to use the smooth chroma upsampler (False raises
        `UnimplementedError` for a chroma-subsampled JPEG).
      try_recover_truncated: Whether to recover truncated JPEGs (raises `UnimplementedError` when
        the data is truncated).
      acceptable_fraction: The fraction of lines required of a truncated JPEG.
      dct_method: "", "INTEGER_FAST" or "INTEGER_ACCURATE": a hint for the IDCT.
      name: A name for the operation (optional).

    Returns:
      A 3-D uint8 `Tensor` `[height, width, channels]`.

    Raises:
      InvalidArgumentError: At run time, for data that is not a valid image or bad attributes.
    """
    attrs = _decode_jpeg_op_attrs(channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction,
                                  dct_method)
    return ops.apply_op("DecodeJpeg", [_contents(contents)], attrs, name=name or "DecodeJpeg")


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """Decodes the window `crop_window` of a JPEG-encoded image.

    Args:
      contents: A 0-D string `Tensor`: the JPEG-encoded image.
      crop_window: A 1-D int32 `Tensor` `[crop_y, crop_x, crop_height, crop_width]`.
      channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction, dct_method:
        As for `decode_jpeg`.
      name: A name for the operation (optional).

    Returns:
      A 3-D uint8 `Tensor` `[crop_height, crop_width, channels]`.

    Raises:
      InvalidArgumentError: At run time, for invalid data or a window outside the image.
    """
    attrs = _decode_jpeg_op_attrs(channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction,
                                  dct_method)
    window = ops.convert_to_tensor(crop_window, dtype=dtypes.int32, name="crop_window")
    return ops.apply_op("DecodeAndCropJpeg", [_contents(contents), window], attrs, name=name or "DecodeAndCropJpeg")


def decode_gif(contents, name=None):
    """Decodes the frames of a GIF-encoded image (JPEGs and PNGs give one frame, as in TF).

    Args:
      contents: A 0-D string `Tensor`: the GIF-encoded image.
      name: A name for the operation (optional).

    Returns:
      A 4-D uint8 `Tensor` `[num_frames, height, width, 3]`.

    Raises:
      InvalidArgumentError: At run time, for data that is not a valid image.
    """
    return ops.apply_op("DecodeGif", [_contents(contents)], {}, name=name or "DecodeGif")


def decode_bmp(contents, channels=0, name=None):
    """Decodes a BMP-encoded image.

    Args:
      contents: A 0-D string `Tensor`: the BMP-encoded image.
      channels: 0 (the BMP's own channels), 3 (RGB) or 4 (RGBA).
      name: A name for the operation (optional).

    Returns:
      A 3-D uint8 `Tensor` `[height, width, channels]`.

    Raises:
      InvalidArgumentError: At run time, for data that is not a valid BMP.
    """
    return ops.apply_op("DecodeBmp", [_contents(contents)], {"channels": int(channels)}, name=name or "DecodeBmp")


def decode_webp(contents, channels=0, dtype=dtypes.uint8, name=None):
    """Decodes a WebP-encoded image: all its frames, RGB, or RGBA when it has alpha.

    Args:
      contents: A 0-D string `Tensor`: the WebP-encoded image.
      channels: 0 (the image's own), or 3 or 4 matching the image's.
      dtype: `tf.uint8` or `tf.uint16`.
      name: A name for the operation (optional).

    Returns:
      A 4-D `Tensor` of `dtype`, `[num_frames, height, width, channels]`.

    Raises:
      InvalidArgumentError: At run time, for data that is not a valid WebP image.
    """
    return ops.apply_op("DecodeWebP", [_contents(contents)], {"channels": int(channels),
                                                              "dtype": dtypes.as_dtype(dtype)},
                        name=name or "DecodeWebP")


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """Decodes a BMP, GIF, JPEG or PNG image, detecting the format from its first bytes.

    Args:
      contents: A 0-D string `Tensor`: the encoded image.
      channels: None or 0 (the image's own channels), 1, 3 or 4.
      dtype: The output dtype: uint8, uint16 or float32 (scaled to [0, 1]); other dtypes are
        converted from uint16 with `convert_image_dtype`.
      name: A name for the operation (optional).
      expand_animations: Whether a GIF gives all its frames `[num_frames, height, width, 3]`
        (True) or its first frame `[height, width, 3]`.

    Returns:
      A `Tensor` of `dtype`: 3-D, or 4-D for a GIF when `expand_animations`.

    Raises:
      InvalidArgumentError: At run time, for data of an unknown format or invalid data.
    """
    from .image_color_ops import convert_image_dtype
    channels = 0 if channels is None else int(channels)
    dtype = dtypes.as_dtype(dtype)
    with ops.name_scope(name, "decode_image"):
        if dtype not in (dtypes.float32, dtypes.uint8, dtypes.uint16):
            img = ops.apply_op("DecodeImage", [_contents(contents)], {
                "channels": channels, "dtype": dtypes.uint16, "expand_animations": bool(expand_animations)},
                name="DecodeImage")
            return convert_image_dtype(img, dtype)
        return ops.apply_op("DecodeImage", [_contents(contents)], {
            "channels": channels, "dtype": dtype, "expand_animations": bool(expand_animations)}, name="DecodeImage")


def encode_png(image, compression=-1, name=None):
    """PNG-encodes an image.

    Args:
      image: A 3-D uint8 or uint16 `Tensor` `[height, width, channels]`, 1 to 4 channels.
      compression: The zlib compression level, -1 (default) to 9.
      name: A name for the operation (optional).

    Returns:
      A 0-D string `Tensor`: the PNG-encoded image.

    Raises:
      InvalidArgumentError: At run time, for a bad channel count or compression level.
    """
    image = ops.convert_to_tensor(image, name="image")
    return ops.apply_op("EncodePng", [image], {"compression": int(compression)}, name=name or "EncodePng")


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002 (TF's name)
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300, xmp_metadata="",
                name=None):
    """JPEG-encodes an image (libjpeg through Pillow; the bytes may differ from TF's).

    Args:
      image: A 3-D uint8 `Tensor` `[height, width, channels]`, 1 or 3 channels.
      format: "" (from the channels), "grayscale" or "rgb".
      quality: The quality, 0 to 100.
      progressive: Whether to write a progressive JPEG.
      optimize_size: Whether to optimize the Huffman tables.
      chroma_downsampling: Whether to subsample the chroma (4:2:0; else 4:4:4).
      density_unit: "in" or "cm", the unit of `x_density`/`y_density`.
      x_density, y_density: The pixel density per unit.
      xmp_metadata: XMP metadata to embed (a string) if non-empty.
      name: A name for the operation (optional).

    Returns:
      A 0-D string `Tensor`: the JPEG-encoded image.

    Raises:
      InvalidArgumentError: At run time, if the channels do not fit `format`.
    """
    image = ops.convert_to_tensor(image, name="image")
    if density_unit not in ("in", "cm"):
        raise ValueError("density_unit must be 'in' or 'cm', got %r" % (density_unit,))
    attrs = {"format": format, "quality": int(quality), "progressive": bool(progressive),
             "optimize_size": bool(optimize_size), "chroma_downsampling": bool(chroma_downsampling),
             "density_unit": density_unit, "x_density": int(x_density), "y_density": int(y_density),
             "xmp_metadata": xmp_metadata}
    return ops.apply_op("EncodeJpeg", [image], attrs, name=name or "EncodeJpeg")


def encode_jpeg_variable_quality(images, quality, name=None):
    """JPEG-encodes an image with a quality given as a tensor.

    Args:
      images: A 3-D uint8 `Tensor` `[height, width, channels]`, 1 or 3 channels.
      quality: A 0-D int32 `Tensor`, the quality (0 to 100).
      name: A name for the operation (optional).

    Returns:
      A 0-D string `Tensor`: the JPEG-encoded image.
    """
    images = ops.convert_to_tensor(images, name="images")
    quality = ops.convert_to_tensor(quality, dtype=dtypes.int32, name="quality")
    return ops.apply_op("EncodeJpegVariableQuality", [images, quality], {}, name=name or "EncodeJpegVariableQuality")


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """The shape `[height, width, channels]` of a JPEG-encoded image, read from its header.

    Args:
      contents: A 0-D string `Tensor`: the JPEG-encoded image.
      output_type: `tf.int32` or `tf.int64`.
      name: A name for the operation (optional).

    Returns:
      A 1-D `Tensor` of `output_type` with 3 elements.

    Raises:
      InvalidArgumentError: At run time, for data that is not a JPEG.
    """
    return ops.apply_op("ExtractJpegShape", [_contents(contents)], {"output_type": dtypes.as_dtype(output_type)},
                        name=name or "ExtractJpegShape")


def adjust_jpeg_quality(image, jpeg_quality, name=None):
    """Re-encodes an image as JPEG with `jpeg_quality` and decodes it (JPEG artifacts).

    Args:
      image: A 3-D `Tensor` `[height, width, channels]` with 1 or 3 channels (any image dtype:
        converted to uint8 and back).
      jpeg_quality: A Python int or 0-D int32 `Tensor`, 0 to 100.
      name: A name for the operation (optional).

    Returns:
      The image after the JPEG round trip, of the dtype of `image`.
    """
    from .array_shape_ops import reshape
    from .core_ops import shape
    from .image_color_ops import convert_image_dtype
    with ops.name_scope(name, "adjust_jpeg_quality", [image]):
        image = ops.convert_to_tensor(image, name="image")
        channels = image.get_shape().as_list()[-1] if image.get_shape().ndims else None
        orig_dtype = image.dtype
        image = convert_image_dtype(image, dtypes.uint8, saturate=True)
        encoded = encode_jpeg_variable_quality(image, jpeg_quality)
        decoded = decode_jpeg(encoded, channels=channels or 0, dct_method="INTEGER_ACCURATE")
        decoded = reshape(decoded, shape(image))
        decoded.set_shape(image.get_shape())
        return convert_image_dtype(decoded, orig_dtype, saturate=True)


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """`adjust_jpeg_quality` with a quality drawn uniformly from
    `[min_jpeg_quality, max_jpeg_quality)` (seeded by the graph and op seeds).

    Args:
      image: A 3-D `Tensor` `[height, width, channels]` with 1 or 3 channels.
      min_jpeg_quality, max_jpeg_quality: Python ints, 0 <= min < max <= 100.
      seed: A Python integer, the op seed.

    Returns:
      The image after the JPEG round trip, of the dtype of `image`.

    Raises:
      ValueError: If the quality range is invalid.
    """
    from .random_ops import random_uniform
    if min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100 or max_jpeg_quality > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
    quality = random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed, dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)


def is_jpeg(contents, name=None):
    """Whether `contents` may be a JPEG: it starts with the bytes FF D8 FF (false positives are
    possible, as in TF).

    Args:
      contents: A 0-D string `Tensor`: the encoded image.
      name: A name for the operation (optional).

    Returns:
      A 0-D bool `Tensor`.
    """
    from .math_binary_ops import equal
    from .string_basic_ops import substr
    with ops.name_scope(name, "is_jpeg"):
        head = substr(contents, 0, 3)
        return equal(head, b"\xff\xd8\xff", name=name)
