"""Structural similarity (TF's `tf.image.ssim` and `ssim_multiscale`): TF's compositions of array,
math and nn ops (a Gaussian window applied with a VALID depthwise convolution, MS-SSIM's 2x2
average-pool pyramid with symmetric padding of odd sizes)."""

import numpy as np

from ..framework import dtypes, ops
from .array_join_ops import concat, stack, tile
from .array_permute_ops import pad
from .array_shape_ops import expand_dims, reshape
from .array_shape_ops import range as _range
from .control_flow_ops import cond
from .core_ops import identity, shape
from .image_color_ops import convert_image_dtype
from .image_metrics_ops import _verify_compatible_image_shapes
from .logging_ops import Assert
from .math_binary_ops import greater_equal, not_equal
from .math_binary_ops import pow as _pow
from .math_reduce_ops import reduce_all, reduce_any, reduce_mean, reduce_prod
from .math_unary_ops import cast, square
from .nn_activation_ops import relu, softmax
from .nn_depthwise_ops import depthwise_conv2d
from .nn_pool_ops import avg_pool

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _fspecial_gauss(size, sigma):
    """The normalized `size x size` Gaussian window, `[size, size, 1, 1]` (TF's `_fspecial_gauss`)."""
    size = ops.convert_to_tensor(size, dtypes.int32)
    sigma = ops.convert_to_tensor(sigma)
    coords = cast(_range(size), sigma.dtype)
    coords -= cast(size - 1, sigma.dtype) / 2.0
    g = square(coords)
    g *= -0.5 / square(sigma)
    g = reshape(g, [1, -1]) + reshape(g, [-1, 1])
    g = reshape(g, [1, -1])
    g = softmax(g)
    return reshape(g, stack([size, size, 1, 1]))


def _ssim_helper(x, y, reducer, max_val, compensation=1.0, k1=0.01, k2=0.03):
    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean0 = reducer(x)
    mean1 = reducer(y)
    num0 = mean0 * mean1 * 2.0
    den0 = square(mean0) + square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(x * y) * 2.0
    den1 = reducer(square(x) + square(y))
    c2 *= compensation
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    return luminance, cs


def _ssim_per_channel(img1, img2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
                      return_index_map=False):
    filter_size = ops.convert_to_tensor(filter_size, dtype=dtypes.int32)
    filter_sigma = ops.convert_to_tensor(filter_sigma, dtype=img1.dtype)
    shape1, shape2 = shape(img1), shape(img2)
    checks = [Assert(reduce_all(greater_equal(shape1[-3:-1], filter_size)), [shape1, filter_size], summarize=8),
              Assert(reduce_all(greater_equal(shape2[-3:-1], filter_size)), [shape2, filter_size], summarize=8)]
    with ops.control_dependencies(checks):
        img1 = identity(img1)
    kernel = _fspecial_gauss(filter_size, filter_sigma)
    kernel = tile(kernel, stack([1, 1, shape1[-1], 1]))

    def reducer(x):
        s = shape(x)
        x = reshape(x, concat([[-1], s[-3:]], 0))
        y = depthwise_conv2d(x, kernel, strides=[1, 1, 1, 1], padding="VALID")
        return reshape(y, concat([s[:-3], shape(y)[1:]], 0))

    luminance, cs = _ssim_helper(img1, img2, reducer, max_val, 1.0, k1, k2)
    if return_index_map:
        return luminance * cs, cs
    axes = ops.convert_to_tensor([-3, -2], dtype=dtypes.int32)
    return reduce_mean(luminance * cs, axes), reduce_mean(cs, axes)


def _prepare(img1, img2, max_val):
    img1 = ops.convert_to_tensor(img1, name="img1")
    img2 = ops.convert_to_tensor(img2, name="img2")
    checks = _verify_compatible_image_shapes(img1, img2)
    with ops.control_dependencies(checks):
        img1 = identity(img1)
    max_val = cast(max_val, img1.dtype)
    max_val = convert_image_dtype(max_val, dtypes.float32)
    return convert_image_dtype(img1, dtypes.float32), convert_image_dtype(img2, dtypes.float32), max_val


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    """The structural similarity index between two images (or batches), averaged over the
    channels.

    Args:
      img1: The first images, at least 3-D `[..., height, width, channels]`.
      img2: The second images, of the dtype and inner shape of `img1`.
      max_val: The dynamic range of the images (255 for uint8, 1.0 for floats in [0, 1]).
      filter_size: The size of the Gaussian window.
      filter_sigma: The width of the Gaussian window.
      k1, k2: SSIM's stabilizing constants.
      return_index_map: Whether to return the per-pixel SSIM map instead of its mean.

    Returns:
      A float32 `Tensor` of the SSIM of each image pair, shape `img1.shape[:-3]` (or the map).

    Raises:
      ValueError: If the static shapes of the images are not compatible.
      InvalidArgumentError: At run time, if an image is smaller than the window.
    """
    with ops.name_scope(None, "SSIM", [img1, img2]):
        img1, img2, max_val = _prepare(img1, img2, max_val)
        per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, return_index_map)
        return reduce_mean(per_channel, [-1])


def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11, filter_sigma=1.5, k1=0.01,
                    k2=0.03):
    """The multi-scale structural similarity (MS-SSIM) between two images (or batches).

    Args:
      img1, img2, max_val: As for `ssim`.
      power_factors: The weight of each scale (its length is the number of scales).
      filter_size, filter_sigma, k1, k2: As for `ssim`.

    Returns:
      A float32 `Tensor` of the MS-SSIM of each image pair, shape `img1.shape[:-3]`.

    Raises:
      ValueError: If the static shapes of the images are not compatible.
    """
    with ops.name_scope(None, "MS-SSIM", [img1, img2]):
        img1, img2, max_val = _prepare(img1, img2, max_val)
        imgs = [img1, img2]
        shapes = [shape(img1), shape(img2)]
        heads = [s[:-3] for s in shapes]
        tails = [s[-3:] for s in shapes]
        divisor = [1, 2, 2, 1]
        divisor_tensor = ops.convert_to_tensor(divisor[1:], dtype=dtypes.int32)

        def do_pad(images, remainder):
            padding = expand_dims(remainder, -1)
            padding = pad(padding, [[1, 0], [1, 0]])
            return [pad(x, padding, mode="SYMMETRIC") for x in images]

        mcs = []
        per_channel = None
        for k in range(len(power_factors)):
            with ops.name_scope(None, "Scale%d" % k, imgs):
                if k > 0:
                    flat = [reshape(x, concat([[-1], t], 0)) for x, t in zip(imgs, tails)]
                    remainder = tails[0] % divisor_tensor
                    need_padding = reduce_any(not_equal(remainder, 0))
                    padded = cond(need_padding, lambda flat=flat, remainder=remainder: do_pad(flat, remainder),
                                  lambda flat=flat: flat)
                    down = [avg_pool(x, ksize=divisor, strides=divisor, padding="VALID") for x in padded]
                    tails = [shape(x)[1:] for x in down]
                    imgs = [reshape(x, concat([h, t], 0)) for x, h, t in zip(down, heads, tails)]
                per_channel, cs = _ssim_per_channel(*imgs, max_val=max_val, filter_size=filter_size,
                                                    filter_sigma=filter_sigma, k1=k1, k2=k2)
                mcs.append(relu(cs))
        mcs.pop()
        mcs_and_ssim = stack(mcs + [relu(per_channel)], axis=-1)
        ms = reduce_prod(_pow(mcs_and_ssim, np.asarray(power_factors, np.float32)), [-1])
        return reduce_mean(ms, [-1])
