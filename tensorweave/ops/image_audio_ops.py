"""WAV codecs (TF's `audio_ops`): DecodeWav and EncodeWav, 16-bit PCM through Python's `wave`
module, and the `tf.audio` functions. Samples are floats in [-1, 1): int16 / 32768 when decoding;
when encoding each sample is clamped to [-1, 1], scaled by 32768, rounded half away from zero and
saturated to int16, as TF does."""

import io
import struct
import wave

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _check_dtype, _dims, _fmt
from .image_codec_ops import _as_bytes, _scalar_string, _string_scalar


def _decode_wav_infer(op):
    _scalar_string(op._inputs[0], op._type)
    ch, n = op._attrs.get("desired_channels", -1), op._attrs.get("desired_samples", -1)
    return [(dtypes.float32, (n if n >= 0 else None, ch if ch >= 0 else None)), (dtypes.int32, ())]


def _decode_wav_kernel(xp, contents, desired_channels=-1, desired_samples=-1):
    data = _as_bytes(contents)
    try:
        with wave.open(io.BytesIO(data), "rb") as w:
            channels, width, rate, frames = w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()
            if width != 2:
                raise _invalid("Can only read 16-bit WAV files, but received %d" % (8 * width))
            raw = w.readframes(frames)
    except (wave.Error, EOFError, struct.error) as e:
        raise _invalid("Bad WAV data: %s" % e) from None
    if channels <= 0:
        raise _invalid("Bad number of channels: %d" % channels)
    samples = np.frombuffer(raw[:len(raw) // (2 * channels) * 2 * channels], "<i2").reshape(-1, channels)
    audio = samples.astype(np.float32) / np.float32(32768.0)
    if desired_channels > 0:
        audio = audio[:, np.minimum(np.arange(desired_channels), channels - 1)]
    if desired_samples >= 0:
        n = audio.shape[0]
        audio = audio[:desired_samples] if n >= desired_samples else np.concatenate(
            [audio, np.zeros((desired_samples - n, audio.shape[1]), np.float32)])
    return np.ascontiguousarray(audio), np.array(rate, np.int32)


def _encode_wav_infer(op):
    audio, rate = op._inputs
    _check_dtype(audio, (dtypes.float32,), "audio", op._type)
    _check_dtype(rate, (dtypes.int32,), "sample_rate", op._type)
    d, rd = _dims(audio), _dims(rate)
    if d is not None and len(d) != 2:
        raise ValueError("Shape must be rank 2 but is rank %d" % len(d))
    if rd is not None and len(rd) != 0:
        raise ValueError("Shape must be rank 0 but is rank %d" % len(rd))
    return [(dtypes.string, ())]


def _encode_wav_kernel(xp, audio, sample_rate):
    audio = np.asarray(audio)
    if audio.ndim != 2:
        raise _invalid("audio must be 2-dimensional%s" % _fmt(audio.shape))
    if np.ndim(sample_rate) != 0:
        raise _invalid("Input sample_rate should be a scalar tensor, got %s instead." % _fmt(np.shape(sample_rate)))
    rate = int(sample_rate)
    if audio.shape[1] == 0:
        raise _invalid("audio is null")
    if rate <= 0:
        raise _invalid("sample_rate must be positive, got %d" % rate)
    y = np.clip(audio.astype(np.float64), -1.0, 1.0) * 32768.0
    y = np.sign(y) * np.floor(np.abs(y) + 0.5)
    pcm = np.clip(np.nan_to_num(y), -32768, 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(audio.shape[1])
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    return _string_scalar(buf.getvalue())


register_op("DecodeWav", infer=_decode_wav_infer, kernel=_decode_wav_kernel, grad=NO_GRADIENT)
register_op("EncodeWav", infer=_encode_wav_infer, kernel=_encode_wav_kernel, grad=NO_GRADIENT)


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """Decodes a 16-bit PCM WAV file to float samples in [-1, 1).

    Args:
      contents: A 0-D string `Tensor`: the WAV-encoded audio.
      desired_channels: The number of channels wanted (-1: the file's); missing channels repeat
        the file's last one, extra ones are dropped.
      desired_samples: The number of samples wanted (-1: all); shorter audio is zero-padded.
      name: A name for the operation (optional).

    Returns:
      A tuple `(audio, sample_rate)`: a float32 `Tensor` `[samples, channels]` and a 0-D int32 `Tensor`.

    Raises:
      InvalidArgumentError: At run time, for data that is not a 16-bit PCM WAV file.
    """
    contents = ops.convert_to_tensor(contents, dtype=dtypes.string, name="contents")
    return tuple(ops.apply_op("DecodeWav", [contents], {"desired_channels": int(desired_channels),
                                                        "desired_samples": int(desired_samples)},
                              name=name or "DecodeWav"))


def encode_wav(audio, sample_rate, name=None):
    """Encodes float samples as a 16-bit PCM WAV file.

    Args:
      audio: A float32 `Tensor` `[samples, channels]`, values in [-1, 1] (others are clamped).
      sample_rate: A 0-D int32 `Tensor`, the sample rate in Hz.
      name: A name for the operation (optional).

    Returns:
      A 0-D string `Tensor`: the WAV file.

    Raises:
      InvalidArgumentError: At run time, for audio with no channels or a bad sample rate.
    """
    audio = ops.convert_to_tensor(audio, dtype=dtypes.float32, name="audio")
    sample_rate = ops.convert_to_tensor(sample_rate, dtype=dtypes.int32, name="sample_rate")
    return ops.apply_op("EncodeWav", [audio, sample_rate], {}, name=name or "EncodeWav")
