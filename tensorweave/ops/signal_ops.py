"""Signal processing built from other ops (as TF's `tf.signal` Python functions): framing and
overlap-add, the Hann and Hamming windows, the short-time Fourier transform and its inverse, mel
filterbanks, MFCCs and the discrete cosine transforms. No op type of its own: the gradients are those
of the ops used (gathers, scatters, products and the FFTs of `spectral_ops`)."""

import math

import numpy as np

from ..framework import dtypes, ops, tensor_util
from . import array_gather_ops, array_ops, core_ops, math_ops, spectral_ops

_REAL = (dtypes.float32, dtypes.float64)


def _static_int(v, what):
    """`v` as a Python int if it is statically known, else None."""
    if isinstance(v, (int, np.integer)):
        return int(v)
    value = tensor_util.constant_value(ops.convert_to_tensor(v, dtype=dtypes.int32, name=what))
    return None if value is None else int(value)


def _require_static_int(v, what, fn):
    n = _static_int(v, what)
    if n is None:
        raise NotImplementedError("%s: `%s` must be statically known (a Python int or constant)." % (fn, what))
    return n


def _with_rank_at_least(t, rank):
    r = t.shape.ndims
    if r is not None and r < rank:
        raise ValueError("Shape %s must have rank at least %d" % (t.shape, rank))


# ---- framing -------------------------------------------------------------------------------------
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Expands `signal`'s `axis` dimension into frames of `frame_length`, `frame_step` apart.

    Args:
      signal: A `Tensor` of shape `[..., samples, ...]` (rank at least 1).
      frame_length: An int (or int32 scalar `Tensor`): the frame length in samples.
      frame_step: An int (or int32 scalar `Tensor`): the frame hop size in samples.
      pad_end: Whether to pad the end of `signal` with `pad_value` so every sample starts a frame
        (`ceil(samples / frame_step)` frames) instead of dropping incomplete frames.
      pad_value: The padding value (with `pad_end`).
      axis: A Python int: the dimension to frame (negative values count from the end).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., frames, frame_length, ...]`.

    Raises:
      ValueError: If `signal` is a scalar or `axis` is out of range.
      NotImplementedError: If `axis` is a non-constant `Tensor`.
    """
    with ops.name_scope(name, "frame", [signal, frame_length, frame_step, pad_value]):
        signal = ops.convert_to_tensor(signal, name="signal")
        _with_rank_at_least(signal, 1)
        ax = _require_static_int(axis, "axis", "frame")
        rank = signal.shape.ndims
        if rank is not None:
            if not -rank <= ax < rank:
                raise ValueError("axis %d is out of range for a signal of rank %d" % (ax, rank))
            ax %= rank
        elif ax < 0:
            raise NotImplementedError("frame: a negative `axis` needs a signal of known rank.")
        fl, fs = _static_int(frame_length, "frame_length"), _static_int(frame_step, "frame_step")
        length = signal.shape.as_list()[ax] if rank is not None else None
        if fl is not None and fs is not None and length is not None:
            num = -(-length // fs) if pad_end else max(0, 1 + (length - fl) // fs)
            if pad_end:
                extra = max(0, fl + fs * (num - 1) - length) if num else 0
                if extra:
                    paddings = [[0, 0]] * rank
                    paddings[ax] = [0, extra]
                    signal = array_ops.pad(signal, paddings, constant_values=pad_value)
            idx = (np.arange(num, dtype=np.int32)[:, None] * fs + np.arange(fl, dtype=np.int32)[None, :])
            return array_gather_ops.gather(signal, idx.reshape(num, fl), axis=ax)
        fl_t = ops.convert_to_tensor(frame_length, dtype=dtypes.int32, name="frame_length")
        fs_t = ops.convert_to_tensor(frame_step, dtype=dtypes.int32, name="frame_step")
        length_t = array_ops.shape(signal)[ax]
        if pad_end:
            num = -math_ops.floordiv(-length_t, fs_t)
            extra = math_ops.maximum(0, fl_t + fs_t * (num - 1) - length_t)
            r = array_ops.rank(signal)
            after = array_ops.one_hot(ax, r, on_value=extra, off_value=0, dtype=dtypes.int32)
            paddings = array_ops.stack([core_ops.zeros_like(after), after], axis=1)
            signal = array_ops.pad(signal, paddings, constant_values=pad_value)
        else:
            num = math_ops.maximum(0, 1 + math_ops.floordiv(length_t - fl_t, fs_t))
        idx = (array_ops.expand_dims(array_ops.range(num) * fs_t, 1)
               + array_ops.expand_dims(array_ops.range(fl_t), 0))
        return array_gather_ops.gather(signal, idx, axis=ax)


def overlap_and_add(signal, frame_step, name=None):
    """Reconstructs a signal from framed overlapping frames (sums the overlaps).

    Args:
      signal: A `Tensor` of shape `[..., frames, frame_length]` (rank at least 2).
      frame_step: An int: the distance between the starts of consecutive frames (statically known).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., output_size]`, `output_size = (frames - 1) * frame_step + frame_length`.

    Raises:
      ValueError: If `signal`'s rank is less than 2 or `frame_step` is not positive.
      NotImplementedError: If `frame_step` or `signal`'s rank is not statically known.
    """
    with ops.name_scope(name, "overlap_and_add", [signal, frame_step]):
        signal = ops.convert_to_tensor(signal, name="signal")
        _with_rank_at_least(signal, 2)
        fs = _require_static_int(frame_step, "frame_step", "overlap_and_add")
        if fs <= 0:
            raise ValueError("frame_step must be positive. Got: %d" % fs)
        rank = signal.shape.ndims
        if rank is None:
            raise NotImplementedError("overlap_and_add: `signal` must have a statically known rank.")
        dims = signal.shape.as_list()
        frames, fl = dims[-2], dims[-1]
        shape = array_ops.shape(signal)
        if frames is not None and fl is not None:
            out_len = max(0, fl + fs * (frames - 1))
            idx = np.arange(frames, dtype=np.int32)[:, None] * fs + np.arange(fl, dtype=np.int32)[None, :]
            idx = ops.convert_to_tensor(idx[:, :, None], name="indices")
        else:
            frames_t, fl_t = shape[-2], shape[-1]
            out_len = math_ops.maximum(0, fl_t + fs * (frames_t - 1))
            idx = (array_ops.expand_dims(array_ops.range(frames_t) * fs, 1)
                   + array_ops.expand_dims(array_ops.range(fl_t), 0))
            idx = array_ops.expand_dims(idx, 2)
        perm = [rank - 2, rank - 1] + list(range(rank - 2))
        moved = array_ops.transpose(signal, perm)
        out_shape = array_ops.concat([array_ops.reshape(out_len, [1]), shape[:rank - 2]], 0)
        out = array_gather_ops.scatter_nd(idx, moved, out_shape)
        return array_ops.transpose(out, list(range(1, rank - 1)) + [0])


# ---- windows -------------------------------------------------------------------------------------
def _window_dtype(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError("dtype must be a floating point type. Found %s" % dtype)
    return dtype


def _window_length(window_length):
    wl = ops.convert_to_tensor(window_length, dtype=dtypes.int32, name="window_length")
    if wl.shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % wl.shape.ndims)
    return wl


def _raised_cosine_window(name, default_name, window_length, periodic, dtype, a, b):
    dtype = _window_dtype(dtype)
    with ops.name_scope(name, default_name, [window_length, periodic]):
        wl = _window_length(window_length)
        periodic = math_ops.cast(ops.convert_to_tensor(periodic, dtype=dtypes.bool_, name="periodic"), dtypes.int32)
        static = tensor_util.constant_value(wl)
        if static is not None and int(static) == 1:
            return array_ops.ones([1], dtype)
        even = 1 - math_ops.floormod(wl, 2)
        n = math_ops.cast(wl + periodic * even - 1, dtype)
        count = math_ops.cast(array_ops.range(wl), dtype)
        cos_arg = ops.convert_to_tensor(2 * np.pi, dtype=dtype) * count / n
        window = a - b * math_ops.cos(cos_arg)
        if static is not None:
            return window
        return array_ops.where(math_ops.equal(wl, 1), array_ops.ones_like(window), window)


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """Generates a Hann window, `0.5 - 0.5 * cos(2 pi n / N)`.

    Args:
      window_length: A scalar int `Tensor` (or int): the window length.
      periodic: A bool: whether the window is periodic (`N = window_length`, for even lengths) or
        symmetric (`N = window_length - 1`).
      dtype: The floating point dtype of the window.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[window_length]` and type `dtype`.

    Raises:
      ValueError: If `dtype` is not floating point or `window_length` is not a scalar.
    """
    return _raised_cosine_window(name, "hann_window", window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """Generates a Hamming window, `0.54 - 0.46 * cos(2 pi n / N)`.

    Args:
      window_length: A scalar int `Tensor` (or int): the window length.
      periodic: A bool: whether the window is periodic (`N = window_length`, for even lengths) or
        symmetric (`N = window_length - 1`).
      dtype: The floating point dtype of the window.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[window_length]` and type `dtype`.

    Raises:
      ValueError: If `dtype` is not floating point or `window_length` is not a scalar.
    """
    return _raised_cosine_window(name, "hamming_window", window_length, periodic, dtype, 0.54, 0.46)


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """Generates a Vorbis power complementary window, `sin(pi / 2 * sin(pi * (n + 0.5) / N) ** 2)`.

    Args:
      window_length: A scalar int `Tensor` (or int): the window length.
      dtype: The floating point dtype of the window.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[window_length]` and type `dtype`.

    Raises:
      ValueError: If `dtype` is not floating point or `window_length` is not a scalar.
    """
    dtype = _window_dtype(dtype)
    with ops.name_scope(name, "vorbis_window", [window_length]):
        wl = _window_length(window_length)
        arg = math_ops.cast(array_ops.range(wl), dtype)
        inner = math_ops.sin(ops.convert_to_tensor(np.pi, dtype=dtype) / math_ops.cast(wl, dtype) * (arg + 0.5))
        return math_ops.sin(np.pi / 2.0 * math_ops.pow(inner, ops.convert_to_tensor(2.0, dtype=dtype)))


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """Generates a Kaiser window, `I0(beta * sqrt(1 - (2n / (N - 1) - 1) ** 2)) / I0(beta)`.

    Args:
      window_length: A scalar int `Tensor` (or int): the window length.
      beta: The shape parameter (a float).
      dtype: The floating point dtype of the window.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[window_length]` and type `dtype`.

    Raises:
      ValueError: If `dtype` is not floating point or `window_length` is not a scalar.
    """
    from .math_special_ops import bessel_i0e
    from .nn_activation_ops import relu
    dtype = _window_dtype(dtype)
    with ops.name_scope(name, "kaiser_window", [window_length, beta]):
        wl = _window_length(window_length)
        static = tensor_util.constant_value(wl)
        if static is not None and int(static) == 1:
            return array_ops.ones([1], dtype)
        # As TF: the positions in float32 (range has no float16), then everything in `dtype`.
        halflen = (math_ops.cast(wl, dtypes.float32) - 1.0) / 2.0
        arg = math_ops.cast(array_ops.range(-halflen, halflen + 0.1, dtype=dtypes.float32), dtype)
        beta = math_ops.cast(beta, dtype)
        halflen = math_ops.cast(halflen, dtype)
        two = ops.convert_to_tensor(2.0, dtype=dtype)
        num = beta * math_ops.sqrt(relu(1.0 - math_ops.pow(arg, two) / math_ops.pow(halflen, two)))
        return math_ops.exp(num - beta) * (bessel_i0e(num) / bessel_i0e(beta))


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """Generates a Kaiser-Bessel derived window (the square root of the normalized cumulative Kaiser window
    of half the length, mirrored).

    Args:
      window_length: A scalar int (or int `Tensor`): the window length (even).
      beta: The shape parameter (a float).
      dtype: The floating point dtype of the window.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[window_length]` and type `dtype`.

    Raises:
      ValueError: If `dtype` is not floating point or `window_length` is not a scalar.
    """
    dtype = _window_dtype(dtype)
    with ops.name_scope(name, "kaiser_bessel_derived_window", [window_length, beta]):
        wl = _window_length(window_length)
        halflen = wl // 2
        kaiser = kaiser_window(halflen + 1, beta, dtype=dtype)
        csum = math_ops.cumsum(kaiser)
        half = math_ops.sqrt(csum[:-1] / csum[-1])
        return array_ops.concat((half, half[::-1]), axis=0)


# ---- fftshift ----------------------------------------------------------------------------------
def _shift(x, axes, inverse, name, default_name):
    with ops.name_scope(name, default_name, [x]):
        x = ops.convert_to_tensor(x, name="x")
        rank = x.shape.ndims
        if axes is None:
            if rank is None:
                raise NotImplementedError("%s: `axes=None` needs an input of known rank." % default_name)
            axes = list(range(rank))
        elif isinstance(axes, (int, np.integer)):
            axes = [int(axes)]
        axes = [int(a) for a in axes]
        for a in axes:
            if rank is not None:
                if not -rank <= a < rank:
                    raise ValueError("axis %d is out of range for a tensor of rank %d" % (a, rank))
                a %= rank
            elif a < 0:
                raise NotImplementedError("%s: negative axes need an input of known rank." % default_name)
            n = x.shape.as_list()[a] if rank is not None else None
            if n is not None:
                shift = -(n // 2) if inverse else n // 2
                idx = np.mod(np.arange(n) - shift, max(n, 1)).astype(np.int32)
            else:
                n_t = array_ops.shape(x)[a]
                shift = -(n_t // 2) if inverse else n_t // 2
                idx = math_ops.floormod(array_ops.range(n_t) - shift, math_ops.maximum(n_t, 1))
            x = array_gather_ops.gather(x, idx, axis=a)
        return x


def fftshift(x, axes=None, name=None):
    """Shifts the zero-frequency component to the center of the spectrum (NumPy's `fftshift`).

    Args:
      x: A `Tensor`.
      axes: An int or list of ints: the axes to shift (default: all).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `x`'s shape and dtype, rolled by `size // 2` along each of `axes`.

    Raises:
      ValueError: If an axis is out of range.
      NotImplementedError: If `axes` is None (or negative) and `x`'s rank is not statically known.
    """
    return _shift(x, axes, False, name, "fftshift")


def ifftshift(x, axes=None, name=None):
    """The inverse of `fftshift` (NumPy's `ifftshift`).

    Args:
      x: A `Tensor`.
      axes: An int or list of ints: the axes to shift (default: all).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `x`'s shape and dtype, rolled by `-(size // 2)` along each of `axes`.

    Raises:
      ValueError: If an axis is out of range.
      NotImplementedError: If `axes` is None (or negative) and `x`'s rank is not statically known.
    """
    return _shift(x, axes, True, name, "ifftshift")


# ---- short-time Fourier transform ------------------------------------------------------------
def _enclosing_power_of_two(n):
    return 1 if n <= 1 else int(2 ** math.ceil(math.log2(n)))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False, name=None):
    """Computes the short-time Fourier transform of `signals`.

    Args:
      signals: A float32/float64 `Tensor` of shape `[..., samples]`.
      frame_length: An int: the window length in samples.
      frame_step: An int: the number of samples to step.
      fft_length: An int: the FFT size (default: the smallest power of 2 enclosing `frame_length`).
      window_fn: A callable `(frame_length, dtype) -> window` (None: no window).
      pad_end: Whether to pad the end of `signals` with zeros so every sample starts a frame.
      name: A name for the operation (optional).

    Returns:
      A complex64/complex128 `Tensor` of shape `[..., frames, fft_length // 2 + 1]`.

    Raises:
      ValueError: If `signals` is a scalar.
      TypeError: If `signals` is not float32/float64.
      NotImplementedError: If `frame_length` (or `fft_length`) is not statically known.
    """
    with ops.name_scope(name, "stft", [signals, frame_length, frame_step]):
        signals = ops.convert_to_tensor(signals, name="signals")
        _with_rank_at_least(signals, 1)
        if signals.dtype not in _REAL:
            raise TypeError("stft: signals must be float32 or float64, got %s" % signals.dtype.name)
        fl = _require_static_int(frame_length, "frame_length", "stft")
        n = _enclosing_power_of_two(fl) if fft_length is None else _require_static_int(fft_length, "fft_length",
                                                                                     "stft")
        framed = frame(signals, fl, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed = framed * window_fn(fl, dtype=framed.dtype)
        return spectral_ops.rfft(framed, [n])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """Generates a window function for `inverse_stft` that inverts `stft` windowed by `forward_window_fn`.

    Args:
      frame_step: An int: the number of samples to step.
      forward_window_fn: The window function `stft` used.
      name: A name for the operation (optional).

    Returns:
      A callable `(frame_length, dtype) -> window`: `forward_window` divided by the overlap-added
      squares of the forward window.
    """
    def inverse_stft_window_fn_inner(frame_length, dtype):
        with ops.name_scope(name, "inverse_stft_window_fn", [forward_window_fn]):
            fs = _require_static_int(frame_step, "frame_step", "inverse_stft_window_fn")
            fl = _require_static_int(frame_length, "frame_length", "inverse_stft_window_fn")
            forward = forward_window_fn(fl, dtype=dtype)
            denom = math_ops.square(forward)
            overlaps = -(-fl // fs)
            denom = array_ops.pad(denom, [(0, overlaps * fs - fl)])
            denom = array_ops.reshape(denom, [overlaps, fs])
            denom = math_ops.reduce_sum(denom, 0, keepdims=True)
            denom = array_ops.tile(denom, [overlaps, 1])
            denom = array_ops.reshape(denom, [overlaps * fs])
            return forward / denom[:fl]
    return inverse_stft_window_fn_inner


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    """Computes the inverse short-time Fourier transform of `stfts`.

    Args:
      stfts: A complex64/complex128 `Tensor` of shape `[..., frames, fft_unique_bins]`.
      frame_length: An int: the window length in samples.
      frame_step: An int: the number of samples to step.
      fft_length: An int: the FFT size (default: the smallest power of 2 enclosing `frame_length`).
      window_fn: A callable `(frame_length, dtype) -> window` (None: no window); use
        `inverse_stft_window_fn(frame_step)` for a perfect reconstruction of a Hann-windowed `stft`.
      name: A name for the operation (optional).

    Returns:
      A float32/float64 `Tensor` of shape `[..., samples]`.

    Raises:
      ValueError: If `stfts`'s rank is less than 2.
      TypeError: If `stfts` is not complex.
      NotImplementedError: If `frame_length` (or `fft_length`) is not statically known.
    """
    with ops.name_scope(name, "inverse_stft", [stfts]):
        stfts = ops.convert_to_tensor(stfts, name="stfts")
        _with_rank_at_least(stfts, 2)
        if stfts.dtype not in (dtypes.complex64, dtypes.complex128):
            raise TypeError("inverse_stft: stfts must be complex64 or complex128, got %s" % stfts.dtype.name)
        fl = _require_static_int(frame_length, "frame_length", "inverse_stft")
        n = _enclosing_power_of_two(fl) if fft_length is None else _require_static_int(fft_length, "fft_length",
                                                                                     "inverse_stft")
        real_frames = spectral_ops.irfft(stfts, [n])
        real_frames = real_frames[..., :fl]
        if fl > n:
            rank = real_frames.shape.ndims
            if rank is None:
                raise NotImplementedError("inverse_stft: frame_length > fft_length needs a known rank.")
            real_frames = array_ops.pad(real_frames, [[0, 0]] * (rank - 1) + [[0, fl - n]])
        if window_fn is not None:
            real_frames = real_frames * window_fn(fl, dtype=real_frames.dtype)
        return overlap_and_add(real_frames, frame_step)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """Computes the modified discrete cosine transform of `signals` (frames half-overlapping).

    Args:
      signals: A float32/float64 `Tensor` of shape `[..., samples]`.
      frame_length: An int, a multiple of 4: the window length in samples.
      window_fn: A callable `(frame_length, dtype) -> window` (None: a constant 1/sqrt(2) window);
        it should satisfy the Princen-Bradley condition (the default Vorbis window does).
      pad_end: Whether to pad the end of `signals` with zeros so every sample starts a frame.
      norm: None or "ortho" (the DCT-IV's normalization).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., frames, frame_length // 2]`.

    Raises:
      ValueError: If `frame_length` is not a multiple of 4 or `signals` is a scalar.
      NotImplementedError: If `frame_length` is not statically known.
    """
    with ops.name_scope(name, "mdct", [signals, frame_length]):
        signals = ops.convert_to_tensor(signals, name="signals")
        _with_rank_at_least(signals, 1)
        fl = _require_static_int(frame_length, "frame_length", "mdct")
        if fl % 4 != 0:
            raise ValueError("The frame length must be a multiple of 4.")
        framed = frame(signals, fl, fl // 2, pad_end=pad_end)
        if window_fn is not None:
            framed = framed * window_fn(fl, dtype=framed.dtype)
        else:
            framed = framed * (1.0 / np.sqrt(2))
        q = fl // 4
        parts = [framed[..., i * q:(i + 1) * q] for i in range(4)]
        first = -array_ops.reverse(parts[2], [-1]) - parts[3]
        second = parts[0] - array_ops.reverse(parts[1], [-1])
        return dct(array_ops.concat([first, second], -1), type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """Computes the inverse modified discrete cosine transform of `mdcts` (TDAC overlap-add).

    Args:
      mdcts: A float32/float64 `Tensor` of shape `[..., frames, frame_length // 2]`.
      window_fn: A callable `(frame_length, dtype) -> window` (None: a constant 1/sqrt(2) window).
      norm: None or "ortho", as given to `mdct`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[..., samples]`.

    Raises:
      ValueError: If `mdcts`'s rank is less than 2 or `norm` is unknown.
      NotImplementedError: If the last dimension is not statically known.
    """
    with ops.name_scope(name, "inverse_mdct", [mdcts]):
        mdcts = ops.convert_to_tensor(mdcts, name="mdcts")
        _with_rank_at_least(mdcts, 2)
        half = mdcts.shape.as_list()[-1] if mdcts.shape.ndims is not None else None
        if half is None:
            raise NotImplementedError("inverse_mdct: the last dimension of `mdcts` must be statically known.")
        if norm is None:
            result = ops.convert_to_tensor(0.5 / half, dtype=mdcts.dtype) * dct(mdcts, type=4)
        elif norm == "ortho":
            result = dct(mdcts, type=4, norm="ortho")
        else:
            raise ValueError("Unknown normalization. Expected None or 'ortho', got: %s" % norm)
        h = half // 2
        first, second = result[..., :h], result[..., h:]
        frames = array_ops.concat([second, -array_ops.reverse(second, [-1]), -array_ops.reverse(first, [-1]),
                                   -first], -1)
        if window_fn is not None:
            frames = frames * window_fn(2 * half, dtype=mdcts.dtype)
        else:
            frames = frames * (1.0 / np.sqrt(2))
        return overlap_and_add(frames, half)


# ---- mel filterbanks and MFCCs ---------------------------------------------------------------
_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(f):
    return _MEL_HIGH_FREQUENCY_Q * np.log(1.0 + f / _MEL_BREAK_FREQUENCY_HERTZ)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000, lower_edge_hertz=125.0,
                                upper_edge_hertz=3800.0, dtype=dtypes.float32, name=None):
    """Returns a matrix to warp linear-scale spectrograms to the mel scale (triangular filters).

    Args:
      num_mel_bins: A Python int: the number of mel bands.
      num_spectrogram_bins: An int: the number of bins of the source spectrogram (`fft_length // 2 + 1`).
      sample_rate: A Python number: the samples per second of the source signal.
      lower_edge_hertz: A Python float: the lowest frequency of the mel spectrum.
      upper_edge_hertz: A Python float: the highest frequency of the mel spectrum.
      dtype: The floating point dtype of the result.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[num_spectrogram_bins, num_mel_bins]`.

    Raises:
      ValueError: For a non-positive `num_mel_bins` or `sample_rate`, a negative `lower_edge_hertz`,
        `lower_edge_hertz >= upper_edge_hertz`, an `upper_edge_hertz` above the Nyquist frequency,
        or a non-floating `dtype`.
      NotImplementedError: If `num_spectrogram_bins` or `sample_rate` is a non-constant `Tensor`.
    """
    with ops.name_scope(name, "linear_to_mel_weight_matrix") as scope:
        if isinstance(num_mel_bins, int) and num_mel_bins <= 0:
            raise ValueError("num_mel_bins must be positive. Got: %s" % num_mel_bins)
        if lower_edge_hertz < 0.0:
            raise ValueError("lower_edge_hertz must be non-negative. Got: %s" % lower_edge_hertz)
        if lower_edge_hertz >= upper_edge_hertz:
            raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f" % (lower_edge_hertz, upper_edge_hertz))
        if not isinstance(sample_rate, (int, float, np.integer, np.floating)):
            sr = tensor_util.constant_value(ops.convert_to_tensor(sample_rate))
            if sr is None:
                raise NotImplementedError("linear_to_mel_weight_matrix: `sample_rate` must be statically known.")
            sample_rate = sr.item()
        if sample_rate <= 0.0:
            raise ValueError("sample_rate must be positive. Got: %s" % sample_rate)
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). "
                             "Got %s for sample_rate: %s" % (upper_edge_hertz, sample_rate))
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError("dtype must be a floating point type. Got: %s" % dtype)
        num_mel_bins = _require_static_int(num_mel_bins, "num_mel_bins", "linear_to_mel_weight_matrix")
        bins = _require_static_int(num_spectrogram_bins, "num_spectrogram_bins", "linear_to_mel_weight_matrix")
        nyquist = sample_rate / 2.0
        linear = np.linspace(0.0, nyquist, bins)[1:]
        spec_mel = _hertz_to_mel(linear)[:, None]
        edges = np.linspace(_hertz_to_mel(lower_edge_hertz), _hertz_to_mel(upper_edge_hertz), num_mel_bins + 2)
        lower, center, upper = edges[None, :-2], edges[None, 1:-1], edges[None, 2:]
        lower_slopes = (spec_mel - lower) / (center - lower)
        upper_slopes = (upper - spec_mel) / (upper - center)
        weights = np.maximum(0.0, np.minimum(lower_slopes, upper_slopes))
        weights = np.pad(weights, [[1, 0], [0, 0]]).astype(dtype.as_numpy_dtype)
        return ops.convert_to_tensor(weights, dtype=dtype, name=scope.rstrip("/") or None)


# ---- discrete cosine transforms ------------------------------------------------------------------
def _dct_matrix(kind, n, norm):
    """M with `dct(x) = x @ M` (float64; scipy.fft.dct's definitions, which are TF's)."""
    j = np.arange(n)[:, None].astype(np.float64)  # input index
    k = np.arange(n)[None, :].astype(np.float64)  # output index
    if kind == 1:
        m = 2.0 * np.cos(np.pi * j * k / (n - 1))
        m[0, :] = 1.0
        m[-1, :] = (-1.0) ** np.arange(n)
        return m
    if kind == 2:
        m = 2.0 * np.cos(np.pi * k * (2 * j + 1) / (2 * n))
        if norm == "ortho":
            m[:, 0] *= math.sqrt(1.0 / (4 * n))
            m[:, 1:] *= math.sqrt(1.0 / (2 * n))
        return m
    if kind == 3:
        m = 2.0 * np.cos(np.pi * j * (2 * k + 1) / (2 * n))
        m[0, :] = 1.0
        if norm == "ortho":
            m[0, :] *= math.sqrt(1.0 / n)
            m[1:, :] *= math.sqrt(1.0 / (2 * n))
        return m
    m = 2.0 * np.cos(np.pi * (2 * k + 1) * (2 * j + 1) / (4 * n))
    if norm == "ortho":
        m *= math.sqrt(1.0 / (2 * n))
    return m


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 (TF's argument names)
    """Computes the 1-D discrete cosine transform (types I-IV) over the last dimension of `input`.

    Args:
      input: A float32/float64 `Tensor` of shape `[..., samples]` (samples statically known).
      type: The DCT type: 1, 2, 3 or 4.
      n: The length of the transform (None: `samples`); a shorter input is zero-padded, a longer one
        truncated.
      axis: Must be -1.
      norm: None or "ortho" (not for type 1).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `input`'s dtype and shape `[..., n]`.

    Raises:
      ValueError: For an unknown `type` or `norm`, a non-positive `n`, "ortho" with type 1, or a
        type-1 transform of length 1.
      NotImplementedError: If `axis` is not -1 or the last dimension is not statically known.
      TypeError: If `input` is not float32/float64.
    """
    if type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if type == 1 and norm == "ortho":
        raise ValueError("Normalization is not supported for the Type-I DCT.")
    if n is not None and (not isinstance(n, (int, np.integer)) or n < 1):
        raise ValueError("n should be a positive integer or None")
    if axis != -1:
        raise NotImplementedError("axis must be -1. Got: %s" % axis)
    if norm not in (None, "ortho"):
        raise ValueError("Unknown normalization. Expected None or 'ortho', got: %s" % norm)
    with ops.name_scope(name, "dct", [input]):
        x = ops.convert_to_tensor(input, name="input")
        if x.dtype not in _REAL:
            raise TypeError("dct: input must be float32 or float64, got %s" % x.dtype.name)
        _with_rank_at_least(x, 1)
        rank = x.shape.ndims
        length = x.shape.as_list()[-1] if rank is not None else None
        if length is None:
            raise NotImplementedError("dct: the last dimension of `input` must be statically known.")
        size = length if n is None else int(n)
        if size < length:
            x = x[..., :size]
        elif size > length:
            x = array_ops.pad(x, [[0, 0]] * (rank - 1) + [[0, size - length]])
        if type == 1 and size < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
        m = ops.convert_to_tensor(_dct_matrix(type, size, norm).astype(x.dtype.as_numpy_dtype), name="dct_matrix")
        return math_ops.tensordot(x, m, [[rank - 1], [0]])


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """Computes the inverse DCT of `input`: the DCT of the inverse type (TF's definition: unscaled
    unless `norm="ortho"`, so that `idct(dct(x)) == 2 * n * x` for types 2 and 3 without it).

    Args:
      input: A float32/float64 `Tensor` of shape `[..., samples]`.
      type: The DCT type: 1, 2, 3 or 4.
      n: The length of the transform, as in `dct`.
      axis: Must be -1.
      norm: None or "ortho" (not for type 1).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `input`'s dtype and shape.

    Raises:
      ValueError, NotImplementedError, TypeError: As `dct`.
    """
    if type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    inverse_type = {1: 1, 2: 3, 3: 2, 4: 4}[type]
    return dct(input, type=inverse_type, n=n, axis=axis, norm=norm, name=name or "idct")


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """Computes MFCCs of log mel spectrograms (an orthonormal-scaled DCT-II, as TF and HTK).

    Args:
      log_mel_spectrograms: A float32/float64 `Tensor` of shape `[..., num_mel_bins]`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape and dtype: `dct(x, type=2) * rsqrt(2 * num_mel_bins)`.

    Raises:
      ValueError: If `num_mel_bins` is statically 0 or the input a scalar.
      NotImplementedError: If the last dimension is not statically known.
    """
    with ops.name_scope(name, "mfccs_from_log_mel_spectrograms", [log_mel_spectrograms]):
        x = ops.convert_to_tensor(log_mel_spectrograms, name="log_mel_spectrograms")
        _with_rank_at_least(x, 1)
        bins = x.shape.as_list()[-1] if x.shape.ndims is not None else None
        if bins == 0:
            raise ValueError("num_mel_bins must be positive. Got: %s" % x)
        coeffs = dct(x, type=2)
        if bins is None:
            raise NotImplementedError("mfccs_from_log_mel_spectrograms: num_mel_bins must be statically known.")
        return coeffs * math_ops.rsqrt(ops.convert_to_tensor(bins * 2.0, dtype=x.dtype))


__all__ = ["fftshift", "ifftshift", "kaiser_bessel_derived_window", "kaiser_window",
           "vorbis_window", "frame", "overlap_and_add", "hann_window", "hamming_window",
           "stft", "inverse_stft", "inverse_stft_window_fn", "linear_to_mel_weight_matrix",
           "mfccs_from_log_mel_spectrograms", "dct", "idct", "mdct", "inverse_mdct"]
