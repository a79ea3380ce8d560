"""Image values (TF1's `tf.image` dtype conversion, standardization, grayscale, brightness and
contrast): TF's compositions of math ops, and the AdjustContrastv2 op."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import register_op
from .array_helpers import _check_dtype, _dims, _fmt
from .array_join_ops import concat, tile
from .array_shape_ops import expand_dims, ones, rank
from .core_ops import identity, shape
from .image_transform_ops import _assert_at_least_3d
from .math_binary_ops import add, divide, floordiv, maximum, multiply
from .math_matmul_ops import tensordot
from .math_reduce_ops import reduce_mean, reduce_prod, reduce_std
from .math_unary_ops import cast, rsqrt, saturate_cast
from .random_ops import random_uniform

_F = np.float32


# ---- AdjustContrastv2 (and the shared checks of AdjustHue / AdjustSaturation) ---------------
def _adjust_infer(arg):
    """The infer of an adjust op of inputs (images, scalar float32 factor named `arg`)."""
    def infer(op):
        images, factor = op._inputs
        _check_dtype(images, (dtypes.float16, dtypes.float32), "images", op._type)
        if factor._dtype is not dtypes.float32:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: float32"
                            % (arg, factor._dtype.name))
        d = _dims(images)
        if d is not None and len(d) < 3:
            raise ValueError("Shape must be at least rank 3 but is rank %d" % len(d))
        fd = _dims(factor)
        if fd is not None and len(fd) != 0:
            raise ValueError("Shape must be rank 0 but is rank %d" % len(fd))
        return [(images._dtype, d)]
    return infer


def _check_adjust_args(images, factor, arg):
    if images.ndim < 3:
        raise _invalid("input must be at least 3-D, got shape%s" % _fmt(images.shape))
    if np.ndim(factor) != 0:
        raise _invalid("%s must be scalar: %s" % (arg, _fmt(np.shape(factor))))


def _channel_means(x):
    """TF's ReduceMeanAcrossImage: each [batch, pixels, channels] plane folded in halves, in float32."""
    n = x.shape[1]
    y = np.empty_like(x)
    remaining, first = n, True
    while True:
        right = remaining // 2
        left = remaining - right
        if first:
            y[:, :right] = x[:, left:left + right] + x[:, :right]
            if left > right:
                y[:, right] = x[:, right]
            first = False
        else:
            y[:, :right] += y[:, left:left + right]
        remaining = left
        if remaining <= 1:
            break
    return y[:, 0] * _F(_F(1.0) / _F(n))


def _adjust_contrast_kernel(xp, images, contrast_factor):
    _check_adjust_args(images, contrast_factor, "contrast_factor")
    if images.size == 0:
        return images.copy()
    h, w, c = images.shape[-3:]
    x = images.astype(_F).reshape(-1, h * w, c)
    mean = _channel_means(x)[:, None, :]
    out = mean + _F(contrast_factor) * (x - mean)
    return out.reshape(images.shape).astype(images.dtype)


register_op("AdjustContrastv2", infer=_adjust_infer("contrast_factor"), kernel=_adjust_contrast_kernel)


# ---- dtype conversion ------------------------------------------------------------------------
def _to_float(image):
    """`image` itself when float16/float32, else converted to float32."""
    return image if image.dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(image, dtypes.float32)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts `image` to `dtype`, scaling its values: floats are in [0, 1), integers in [0, MAX].

    Args:
      image: An image `Tensor`.
      dtype: A floating point or integer `DType` to convert to.
      saturate: If True, clip the input before casting (where needed).
      name: A name for the operation (optional).

    Returns:
      `image`, converted to `dtype`.

    Raises:
      AttributeError: If `dtype` is neither floating point nor integer.
    """
    image = ops.convert_to_tensor(image, name="image")
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if dtype == image.dtype:
        return identity(image, name=name)
    with ops.name_scope(name, "convert_image", [image]) as name:
        if image.dtype.is_integer and dtype.is_integer:
            scale_in, scale_out = image.dtype.max, dtype.max
            if scale_in > scale_out:
                scale = (scale_in + 1) // (scale_out + 1)
                scaled = floordiv(image, scale)
                return saturate_cast(scaled, dtype, name=name) if saturate else cast(scaled, dtype, name=name)
            c = saturate_cast(image, dtype) if saturate else cast(image, dtype)
            scale = (scale_out + 1) // (scale_in + 1)
            return multiply(c, scale, name=name)
        if image.dtype.is_floating and dtype.is_floating:
            return cast(image, dtype, name=name)
        if image.dtype.is_integer:
            c = cast(image, dtype)
            scale = 1. / image.dtype.max
            return multiply(c, scale, name=name)
        scale = dtype.max + 0.5
        scaled = multiply(image, scale)
        return saturate_cast(scaled, dtype, name=name) if saturate else cast(scaled, dtype, name=name)


def per_image_standardization(image):
    """Linearly scales each image to zero mean and unit variance: `(x - mean) / max(stddev,
    1/sqrt(num_pixels))`, the statistics over the last three dimensions.

    Args:
      image: An n-D `Tensor` with at least 3 dimensions, the last 3 of which are the dimensions of
        each image.

    Returns:
      A float32 `Tensor` of the shape of `image`.

    Raises:
      ValueError: If `image` has fewer than 3 dimensions.
    """
    with ops.name_scope(None, "per_image_standardization", [image]) as scope:
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        image = cast(image, dtype=dtypes.float32)
        num_pixels = reduce_prod(shape(image)[-3:])
        image_mean = reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        stddev = reduce_std(image, axis=[-1, -2, -3], keepdims=True)
        min_stddev = rsqrt(cast(num_pixels, dtypes.float32))
        adjusted_stddev = maximum(stddev, min_stddev)
        image -= image_mean
        return divide(image, adjusted_stddev, name=scope)


# ---- grayscale -------------------------------------------------------------------------------
def rgb_to_grayscale(images, name=None):
    """Converts RGB images to grayscale (luma weights 0.2989, 0.5870, 0.1140).

    Args:
      images: The RGB `Tensor`, its last dimension of size 3.
      name: A name for the operation (optional).

    Returns:
      The grayscale images, the last dimension of size 1, of the dtype of `images`.
    """
    with ops.name_scope(name, "rgb_to_grayscale", [images]) as name:
        images = ops.convert_to_tensor(images, name="images")
        orig_dtype = images.dtype
        flt_image = convert_image_dtype(images, dtypes.float32)
        rgb_weights = [0.2989, 0.5870, 0.1140]
        gray_float = tensordot(flt_image, rgb_weights, [-1, -1])
        gray_float = expand_dims(gray_float, -1)
        return convert_image_dtype(gray_float, orig_dtype, name=name)


def grayscale_to_rgb(images, name=None):
    """Converts grayscale images to RGB by repeating the single channel three times.

    Args:
      images: The grayscale `Tensor`, its last dimension of size 1.
      name: A name for the operation (optional).

    Returns:
      The RGB images, the last dimension of size 3.

    Raises:
      ValueError: If `images` has fewer than 2 dimensions or a last dimension other than 1.
    """
    with ops.name_scope(name, "grayscale_to_rgb", [images]) as name:
        images = ops.convert_to_tensor(images, name="images")
        s = images.get_shape()
        if s.ndims is not None:
            if s.ndims < 2:
                raise ValueError("A grayscale image (shape %s) must be at least two-dimensional." % s)
            if s[-1].value is not None and s[-1].value != 1:
                raise ValueError("Last dimension of a grayscale image should be size 1.")
        rank_1 = expand_dims(rank(images) - 1, 0)
        multiples = concat([ones(rank_1, dtype=dtypes.int32), expand_dims(3, 0)], 0)
        rgb = tile(images, multiples, name=name)
        if s.ndims is not None:
            rgb.set_shape(s[:-1].concatenate([3]))
        return rgb


# ---- brightness and contrast -----------------------------------------------------------------
def adjust_brightness(image, delta):
    """Adds `delta` to the images (in float, converting integer images to float32 and back with
    saturation).

    Args:
      image: An image `Tensor`.
      delta: A scalar, the amount to add to the pixel values.

    Returns:
      The brightness-adjusted image, of the dtype of `image`.
    """
    with ops.name_scope(None, "adjust_brightness", [image, delta]) as name:
        image = ops.convert_to_tensor(image, name="image")
        orig_dtype = image.dtype
        flt_image = _to_float(image)
        adjusted = add(flt_image, cast(delta, flt_image.dtype), name=name)
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def adjust_contrast(images, contrast_factor):
    """Adjusts the contrast of each image channel: `(x - mean) * contrast_factor + mean`, the mean
    taken over the height and width of each image and channel.

    Args:
      images: Images, at least 3-D `[..., height, width, channels]`.
      contrast_factor: A float scalar, the multiplier for the distance to the mean.

    Returns:
      The contrast-adjusted images, of the dtype of `images`.
    """
    with ops.name_scope(None, "adjust_contrast", [images, contrast_factor]) as name:
        images = ops.convert_to_tensor(images, name="images")
        orig_dtype = images.dtype
        flt_images = _to_float(images)
        factor = ops.convert_to_tensor(contrast_factor, dtype=dtypes.float32, name="contrast_factor")
        adjusted = ops.apply_op("AdjustContrastv2", [flt_images, factor], name=name)
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def random_brightness(image, max_delta, seed=None):
    """Adjusts the brightness of images by a random delta uniform in [-max_delta, max_delta).

    Args:
      image: An image `Tensor`.
      max_delta: A non-negative float.
      seed: A Python integer, the op seed (see `tf.set_random_seed`).

    Returns:
      The brightness-adjusted image.

    Raises:
      ValueError: If `max_delta` is negative.
    """
    return _random_delta(image, max_delta, seed, adjust_brightness)


def _random_delta(image, max_delta, seed, adjust):
    """`adjust(image, delta)`, delta uniform in [-max_delta, max_delta)."""
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust(image, random_uniform([], -max_delta, max_delta, seed=seed))


def _random_factor(image, lower, upper, seed, adjust):
    """`adjust(image, factor)`, factor uniform in [lower, upper)."""
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return adjust(image, random_uniform([], lower, upper, seed=seed))


def random_contrast(image, lower, upper, seed=None):
    """Adjusts the contrast of images by a random factor uniform in [lower, upper).

    Args:
      image: Images, at least 3-D `[..., height, width, channels]`.
      lower: A float, the lower bound of the factor.
      upper: A float, the upper bound of the factor.
      seed: A Python integer, the op seed (see `tf.set_random_seed`).

    Returns:
      The contrast-adjusted images.

    Raises:
      ValueError: If `upper <= lower` or `lower < 0`.
    """
    return _random_factor(image, lower, upper, seed, adjust_contrast)


# ---- linear color spaces and gamma -----------------------------------------------------------
_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _color_matrix(images, matrix):
    images = ops.convert_to_tensor(images, name="images")
    kernel = ops.convert_to_tensor(matrix, dtype=images.dtype, name="kernel")
    ndims = images.get_shape().ndims
    return tensordot(images, kernel, axes=[[ndims - 1], [0]])


def rgb_to_yiq(images):
    """Converts RGB images to YIQ.

    Args:
      images: A float `Tensor` whose last dimension is 3 (R, G, B).

    Returns:
      The YIQ images, of the type and shape of `images`.
    """
    return _color_matrix(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
    """Converts YIQ images to RGB.

    Args:
      images: A float `Tensor` whose last dimension is 3 (Y, I, Q).

    Returns:
      The RGB images, of the type and shape of `images`.
    """
    return _color_matrix(images, _YIQ_TO_RGB)


def rgb_to_yuv(images):
    """Converts RGB images to YUV.

    Args:
      images: A float `Tensor` whose last dimension is 3 (R, G, B).

    Returns:
      The YUV images, of the type and shape of `images`.
    """
    return _color_matrix(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    """Converts YUV images to RGB.

    Args:
      images: A float `Tensor` whose last dimension is 3 (Y, U, V).

    Returns:
      The RGB images, of the type and shape of `images`.
    """
    return _color_matrix(images, _YUV_TO_RGB)


def adjust_gamma(image, gamma=1, gain=1):
    """Gamma correction: `gain * image ** gamma` (in float, converting integer images to float32
    and back with saturation).

    Args:
      image: An image `Tensor`.
      gamma: A non-negative scalar.
      gain: A scalar, the constant multiplier.

    Returns:
      The gamma-corrected image, of the dtype of `image`.

    Raises:
      ValueError: If `gamma` is a negative Python number.
    """
    with ops.name_scope(None, "adjust_gamma", [image, gamma, gain]):
        image = ops.convert_to_tensor(image, name="image")
        orig_dtype = image.dtype
        flt_image = _to_float(image)
        if isinstance(gamma, ops.Tensor):
            from .logging_ops import Assert
            from .math_binary_ops import greater_equal
            with ops.control_dependencies([Assert(greater_equal(gamma, 0),
                                                  ["Gamma should be a non-negative real number."])]):
                gamma = identity(gamma)
        elif not gamma >= 0:
            raise ValueError("Gamma should be a non-negative real number.")
        adjusted = gain * flt_image ** gamma
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)
