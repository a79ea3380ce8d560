"""Image measures (TF1's `tf.image.total_variation`, `image_gradients`, `psnr`): TF's compositions
of array and math ops."""

import numpy as np

from ..framework import dtypes, ops
from .array_join_ops import concat, stack, unstack
from .array_shape_ops import reshape, zeros
from .core_ops import identity, shape
from .image_color_ops import convert_image_dtype
from .logging_ops import Assert
from .math_binary_ops import equal, squared_difference, subtract
from .math_reduce_ops import reduce_all, reduce_mean, reduce_sum
from .math_unary_ops import abs as _abs
from .math_unary_ops import cast, log


def total_variation(images, name=None):
    """The total variation of images: the sum of the absolute differences of neighbouring pixels,
    vertically and horizontally.

    Args:
      images: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.
      name: A name for the operation (optional).

    Returns:
      The total variation: a `[batch]` `Tensor` for 4-D images, a scalar for a 3-D one.

    Raises:
      ValueError: If `images` is not 3-D or 4-D.
    """
    with ops.name_scope(name, "total_variation"):
        images = ops.convert_to_tensor(images, name="images")
        ndims = images.get_shape().ndims
        if ndims == 3:
            dif1 = images[1:, :, :] - images[:-1, :, :]
            dif2 = images[:, 1:, :] - images[:, :-1, :]
            axis = None
        elif ndims == 4:
            dif1 = images[:, 1:, :, :] - images[:, :-1, :, :]
            dif2 = images[:, :, 1:, :] - images[:, :, :-1, :]
            axis = [1, 2, 3]
        else:
            raise ValueError("'images' must be either 3 or 4-dimensional.")
        return reduce_sum(_abs(dif1), axis=axis) + reduce_sum(_abs(dif2), axis=axis)


def image_gradients(image):
    """The forward differences of images: `dy[i, j] = image[i + 1, j] - image[i, j]` and
    `dx[i, j] = image[i, j + 1] - image[i, j]`, zero in the last row and column.

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]`.

    Returns:
      The pair `(dy, dx)` of `Tensor`s of the shape of `image`.

    Raises:
      ValueError: If `image` is not 4-D.
    """
    image = ops.convert_to_tensor(image, name="image")
    if image.get_shape().ndims != 4:
        raise ValueError("image_gradients expects a 4D tensor [batch_size, h, w, d], not {}.".format(
            image.get_shape()))
    image_shape = shape(image)
    batch_size, height, width, depth = unstack(image_shape)
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    dy = reshape(concat([dy, zeros(stack([batch_size, 1, width, depth]), image.dtype)], 1), image_shape)
    dx = reshape(concat([dx, zeros(stack([batch_size, height, 1, depth]), image.dtype)], 2), image_shape)
    return dy, dx


def _verify_compatible_image_shapes(img1, img2):
    """TF's static shape checks of two images (or batches), and the run-time check of their inner
    three dimensions."""
    shape1 = img1.get_shape().with_rank_at_least(3)
    shape2 = img2.get_shape().with_rank_at_least(3)
    shape1[-3:].assert_is_compatible_with(shape2[-3:])
    if shape1.ndims is not None and shape2.ndims is not None:
        for d1, d2 in zip(reversed(shape1.dims[:-3]), reversed(shape2.dims[:-3])):
            if not (d1 == 1 or d2 == 1 or d1.is_compatible_with(d2)):
                raise ValueError("Two images are not compatible: %s and %s" % (shape1, shape2))
    s1, s2 = shape(img1), shape(img2)
    return [Assert(reduce_all(equal(s1[-3:], s2[-3:])), [s1, s2], summarize=10)]


def psnr(a, b, max_val, name=None):
    """The peak signal-to-noise ratio between images `a` and `b`:
    `20 log10(max_val) - 10 log10(mse)`, the mean squared error over the last three dimensions.

    Args:
      a: The first images (at least 3-D, `[..., height, width, channels]`).
      b: The second images, of the dtype and inner shape of `a`.
      max_val: The dynamic range of the images (255 for uint8 images, 1.0 for float ones in [0, 1]).
      name: A name for the operation (optional).

    Returns:
      The float32 PSNR of each image pair, of the shape `a.shape[:-3]`.

    Raises:
      ValueError: If the shapes of `a` and `b` are not compatible.
    """
    with ops.name_scope(name, "PSNR", [a, b]):
        a = ops.convert_to_tensor(a, name="a")
        b = ops.convert_to_tensor(b, name="b")
        max_val = cast(max_val, a.dtype)
        max_val = convert_image_dtype(max_val, dtypes.float32)
        a = convert_image_dtype(a, dtypes.float32)
        b = convert_image_dtype(b, dtypes.float32)
        mse = reduce_mean(squared_difference(a, b), [-3, -2, -1])
        psnr_val = subtract(20 * log(max_val) / log(10.0), np.float32(10 / np.log(10)) * log(mse), name="psnr")
        checks = _verify_compatible_image_shapes(a, b)
        with ops.control_dependencies(checks):
            return identity(psnr_val)


def sobel_edges(image):
    """The Sobel edge maps of images: the vertical (dy) and horizontal (dx) 3x3 Sobel filters
    applied to each channel, the image padded by reflection.

    Args:
      image: A 4-D float `Tensor` `[batch, height, width, channels]`.

    Returns:
      A `Tensor` `[batch, height, width, channels, 2]`: the dy map, then the dx map.
    """
    from .array_join_ops import tile
    from .array_permute_ops import pad
    from .nn_depthwise_ops import depthwise_conv2d

    image = ops.convert_to_tensor(image, name="image")
    static_image_shape = image.get_shape()
    image_shape = shape(image)
    kernels = [[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]
    num_kernels = len(kernels)
    kernels = np.expand_dims(np.transpose(np.asarray(kernels), (1, 2, 0)), -2)
    kernels_tf = ops.convert_to_tensor(kernels.astype(image.dtype.as_numpy_dtype))
    kernels_tf = tile(kernels_tf, stack([1, 1, image_shape[-1], 1]), name="sobel_filters")
    padded = pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    output = depthwise_conv2d(padded, kernels_tf, [1, 1, 1, 1], "VALID")
    output = reshape(output, concat([image_shape, [num_kernels]], 0))
    output.set_shape(static_image_shape.concatenate([num_kernels]))
    return output
