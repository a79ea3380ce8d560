"""`tf.audio`: WAV decoding and encoding (ops defined in `ops.image_audio_ops`)."""

from .ops.image_audio_ops import decode_wav, encode_wav

__all__ = ["decode_wav", "encode_wav"]
