"""`tf.spectral`: TF1's name for the Fourier transforms of `tf.signal` (defined in `ops.spectral_ops`)."""

from .ops.signal_ops import dct, idct
from .ops.spectral_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d

__all__ = ["dct", "idct", "fft", "fft2d", "fft3d", "ifft", "ifft2d", "ifft3d", "irfft", "irfft2d", "irfft3d", "rfft",
           "rfft2d", "rfft3d"]
