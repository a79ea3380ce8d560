"""`tf.signal`: signal processing (the Fourier transforms of `ops.spectral_ops`; framing, windows,
STFT, mel filterbanks, MFCCs and DCTs of `ops.signal_ops`)."""

from .ops.signal_ops import (
    dct,
    fftshift,
    frame,
    hamming_window,
    hann_window,
    idct,
    ifftshift,
    inverse_mdct,
    inverse_stft,
    inverse_stft_window_fn,
    kaiser_bessel_derived_window,
    kaiser_window,
    linear_to_mel_weight_matrix,
    mdct,
    mfccs_from_log_mel_spectrograms,
    overlap_and_add,
    stft,
    vorbis_window,
)
from .ops.spectral_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d

__all__ = ["dct", "frame", "hamming_window", "hann_window", "idct", "inverse_stft", "inverse_stft_window_fn",
           "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms", "overlap_and_add", "stft", "fftshift",
           "ifftshift", "kaiser_bessel_derived_window", "kaiser_window",
           "vorbis_window", "mdct", "inverse_mdct", "fft", "fft2d", "fft3d", "ifft", "ifft2d", "ifft3d",
           "irfft", "irfft2d", "irfft3d", "rfft", "rfft2d", "rfft3d"]
# [N-D FFTs]
from .ops.spectral_nd_ops import fftnd, ifftnd, irfftnd, rfftnd  # noqa: E402

__all__ += ["fftnd", "ifftnd", "irfftnd", "rfftnd"]
