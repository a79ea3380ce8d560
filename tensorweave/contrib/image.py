"""`tf.contrib.image`: projective image transforms (TF 1.15's `contrib/image/python/ops/image_ops.py`):
`transform`, `rotate`, `translate`, the helpers building and composing the 8-value transform rows, and
`dense_image_warp` (per-pixel flow warping by bilinear interpolation).

A transform row `[a0, a1, a2, b0, b1, b2, c0, c1]` maps an *output* pixel `(x, y)` to the *input*
point `((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)`, `k = c0 x + c1 y + 1`; the warp itself is
the ImageProjectiveTransformV2 op (tensorweave/ops/image_transform_contrib_ops.py).
"""

from ..framework import dtypes, ops, tensor_util
from ..framework.constant_op import constant
from ..ops import array_ops, math_ops
from ..ops.array_shape_ops import ones, zeros
from ..ops.image_transform_contrib_ops import image_projective_transform_v2

__all__ = ["angles_to_projective_transforms", "compose_transforms", "dense_image_warp", "flat_transforms_to_matrices",
           "matrices_to_flat_transforms", "rotate", "transform", "translate", "translations_to_projective_transforms"]

_IMAGE_DTYPES = frozenset([dtypes.uint8, dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64])


def _as_batch(image_or_images):
    if image_or_images.dtype.base_dtype not in _IMAGE_DTYPES:
        raise TypeError("Invalid dtype %s." % image_or_images.dtype)
    ndims = image_or_images.get_shape().ndims
    if ndims is None:
        raise TypeError("image_or_images rank must be statically known")
    if ndims == 2:
        return image_or_images[None, :, :, None]
    if ndims == 3:
        return image_or_images[None, :, :, :]
    if ndims == 4:
        return image_or_images
    raise TypeError("Images should have rank between 2 and 4.")


def _unbatch(output, ndims):
    if ndims == 2:
        return output[0, :, :, 0]
    if ndims == 3:
        return output[0, :, :, :]
    return output


def transform(images, transforms, interpolation="NEAREST", output_shape=None, name=None):
    """Applies the given projective transform(s) to the image(s).

    Args:
      images: A tensor `(num_images, height, width, channels)` (NHWC), `(height, width, channels)`
        (HWC) or `(height, width)` (HW), of uint8, int32, int64, float16, float32 or float64.
      transforms: A float32 vector of 8 values or a `(num_images or 1, 8)` matrix of transform
        rows mapping output points to input points.
      interpolation: "NEAREST" or "BILINEAR".
      output_shape: The output `[height, width]` (default: the input's).
      name: The name scope (default "transform").

    Returns:
      The transformed image(s), of `images`' rank and dtype; points outside the input are 0.

    Raises:
      TypeError: If `images` has an invalid dtype or rank, or `transforms` an invalid rank.
      ValueError: If `output_shape` is not a vector of 2 elements.
    """
    with ops.name_scope(name, "transform"):
        image_or_images = ops.convert_to_tensor(images, name="images")
        transform_or_transforms = ops.convert_to_tensor(transforms, name="transforms", dtype=dtypes.float32)
        images = _as_batch(image_or_images)
        if output_shape is None:
            hw = images.get_shape()[1:3]
            output_shape = hw.as_list() if hw.is_fully_defined() else \
                tensor_util.constant_value(array_ops.shape(images)[1:3])
            if output_shape is None:
                output_shape = array_ops.shape(images)[1:3]
            else:
                output_shape = constant(output_shape, dtype=dtypes.int32, name="output_shape")
        elif not isinstance(output_shape, ops.Tensor):
            output_shape = ops.convert_to_tensor(output_shape, dtypes.int32, name="output_shape")
        if not output_shape.get_shape().is_compatible_with([2]):
            raise ValueError("output_shape must be a 1-D Tensor of 2 elements: new_height, new_width")
        tnd = transform_or_transforms.get_shape().ndims
        if tnd == 1:
            transforms = transform_or_transforms[None]
        elif tnd is None:
            raise TypeError("transform_or_transforms rank must be statically known")
        elif tnd == 2:
            transforms = transform_or_transforms
        else:
            raise TypeError("Transforms should have rank 1 or 2.")
        output = image_projective_transform_v2(images, transforms, output_shape,
                                               interpolation=interpolation.upper())
        return _unbatch(output, image_or_images.get_shape().ndims)


def rotate(images, angles, interpolation="NEAREST", name=None):
    """Rotates image(s) counterclockwise by the given angle(s) about their centers.

    Args:
      images: A tensor of rank 2 (HW), 3 (HWC) or 4 (NHWC).
      angles: A scalar angle in radians, or a vector of one angle per image.
      interpolation: "NEAREST" or "BILINEAR".
      name: The name scope (default "rotate").

    Returns:
      The rotated image(s), of `images`' rank and dtype; empty parts are 0.

    Raises:
      TypeError: If `images` has an invalid dtype or rank.
    """
    with ops.name_scope(name, "rotate"):
        image_or_images = ops.convert_to_tensor(images)
        images = _as_batch(image_or_images)
        image_height = math_ops.cast(array_ops.shape(images)[1], dtypes.float32)[None]
        image_width = math_ops.cast(array_ops.shape(images)[2], dtypes.float32)[None]
        output = transform(images, angles_to_projective_transforms(angles, image_height, image_width),
                           interpolation=interpolation)
        return _unbatch(output, image_or_images.get_shape().ndims)


def translate(images, translations, interpolation="NEAREST", name=None):
    """Translates image(s) by `[dx, dy]` pixels.

    Args:
      images: A tensor of rank 2 (HW), 3 (HWC) or 4 (NHWC).
      translations: A vector `[dx, dy]` or a `(num_images, 2)` matrix.
      interpolation: "NEAREST" or "BILINEAR".
      name: The name scope (default "translate").

    Returns:
      The translated image(s), of `images`' rank and dtype; empty parts are 0.

    Raises:
      TypeError: If `images` or `translations` have an invalid dtype or rank.
    """
    with ops.name_scope(name, "translate"):
        return transform(images, translations_to_projective_transforms(translations), interpolation=interpolation)


def angles_to_projective_transforms(angles, image_height, image_width, name=None):
    """Returns the projective transforms rotating images counterclockwise by `angles` about their centers.

    Args:
      angles: A scalar or a vector of angles in radians.
      image_height: The height of the images (a float32 tensor or number).
      image_width: The width of the images.
      name: The name scope (default "angles_to_projective_transforms").

    Returns:
      A float32 `(num_angles, 8)` tensor of transform rows.

    Raises:
      TypeError: If `angles` has rank > 1.
    """
    with ops.name_scope(name, "angles_to_projective_transforms"):
        angle_or_angles = ops.convert_to_tensor(angles, name="angles", dtype=dtypes.float32)
        if len(angle_or_angles.get_shape()) == 0:
            angles = angle_or_angles[None]
        elif len(angle_or_angles.get_shape()) == 1:
            angles = angle_or_angles
        else:
            raise TypeError("Angles should have rank 0 or 1.")
        x_offset = ((image_width - 1) - (math_ops.cos(angles) * (image_width - 1)
                                         - math_ops.sin(angles) * (image_height - 1))) / 2.0
        y_offset = ((image_height - 1) - (math_ops.sin(angles) * (image_width - 1)
                                          + math_ops.cos(angles) * (image_height - 1))) / 2.0
        num_angles = array_ops.shape(angles)[0]
        return array_ops.concat(values=[
            math_ops.cos(angles)[:, None], -math_ops.sin(angles)[:, None], x_offset[:, None],
            math_ops.sin(angles)[:, None], math_ops.cos(angles)[:, None], y_offset[:, None],
            zeros(array_ops.stack([num_angles, 2]), dtypes.float32),
        ], axis=1)


def translations_to_projective_transforms(translations, name=None):
    """Returns the projective transforms translating images by `translations` `[dx, dy]`.

    Args:
      translations: A float32 vector `[dx, dy]` or a `(num_translations, 2)` matrix.
      name: The name scope (default "translations_to_projective_transforms").

    Returns:
      A float32 `(num_translations, 8)` tensor of transform rows.

    Raises:
      TypeError: If `translations` has an unknown rank or a rank other than 1 or 2.
    """
    with ops.name_scope(name, "translations_to_projective_transforms"):
        translation_or_translations = ops.convert_to_tensor(translations, name="translations", dtype=dtypes.float32)
        nd = translation_or_translations.get_shape().ndims
        if nd is None:
            raise TypeError("translation_or_translations rank must be statically known")
        if nd == 1:
            translations = translation_or_translations[None]
        elif nd == 2:
            translations = translation_or_translations
        else:
            raise TypeError("Translations should have rank 1 or 2.")
        num_translations = array_ops.shape(translations)[0]
        col = array_ops.stack([num_translations, 1])
        return array_ops.concat(values=[
            ones(col, dtypes.float32), zeros(col, dtypes.float32), -translations[:, 0, None],
            zeros(col, dtypes.float32), ones(col, dtypes.float32), -translations[:, 1, None],
            zeros(array_ops.stack([num_translations, 2]), dtypes.float32),
        ], axis=1)


def compose_transforms(*transforms):
    """Composes transforms: the result applies the last one first, then the earlier ones (to the
    output coordinates: `compose(A, B)` maps an output point through `A`, then `B`).

    Args:
      *transforms: Transform vectors or `(N, 8)` matrices.

    Returns:
      The composed float `(N, 8)` transform rows.

    Raises:
      ValueError: If no transform is given.
    """
    if not transforms:
        raise ValueError("transforms cannot be empty")
    with ops.name_scope("compose_transforms"):
        composed = flat_transforms_to_matrices(transforms[0])
        for tr in transforms[1:]:
            composed = math_ops.matmul(composed, flat_transforms_to_matrices(tr))
        return matrices_to_flat_transforms(composed)


def flat_transforms_to_matrices(transforms):
    """Converts transform rows to `(N, 3, 3)` matrices (the implicit last entry 1 appended).

    Args:
      transforms: A vector of 8 values or an `(N, 8)` matrix.

    Returns:
      The `(N, 3, 3)` matrices.

    Raises:
      ValueError: If `transforms` is not 1-D or 2-D.
    """
    with ops.name_scope("flat_transforms_to_matrices"):
        transforms = ops.convert_to_tensor(transforms, name="transforms")
        if transforms.shape.ndims not in (1, 2):
            raise ValueError("Transforms should be 1D or 2D, got: %s" % transforms)
        transforms = array_ops.reshape(transforms, constant([-1, 8]))
        num_transforms = array_ops.shape(transforms)[0]
        return array_ops.reshape(
            array_ops.concat([transforms, ones(array_ops.stack([num_transforms, 1]), transforms.dtype)], axis=1),
            constant([-1, 3, 3]))


def matrices_to_flat_transforms(transform_matrices):
    """Converts `(N, 3, 3)` (or `(3, 3)`) matrices to `(N, 8)` transform rows, normalised so the last
    entry is 1.

    Args:
      transform_matrices: The matrices.

    Returns:
      The `(N, 8)` transform rows.

    Raises:
      ValueError: If `transform_matrices` is not 2-D or 3-D.
    """
    with ops.name_scope("matrices_to_flat_transforms"):
        transform_matrices = ops.convert_to_tensor(transform_matrices, name="transform_matrices")
        if transform_matrices.shape.ndims not in (2, 3):
            raise ValueError("Matrices should be 2D or 3D, got: %s" % transform_matrices)
        transforms = array_ops.reshape(transform_matrices, constant([-1, 9]))
        transforms /= transforms[:, 8:9]
        return transforms[:, :8]


def _interpolate_bilinear(grid, query_points, name="interpolate_bilinear", indexing="ij"):
    """Bilinear interpolation of `grid` at `query_points` (TF 1.15's `_interpolate_bilinear`): the
    corner indices are clamped to the grid (points outside extrapolate the border pixels).

    Args:
      grid: A 4-D float `[batch, height, width, channels]` tensor (height and width at least 2).
      query_points: A 3-D float `[batch, n, 2]` tensor of (y, x) points ("ij") or (x, y) ("xy").
      name: The name scope.
      indexing: "ij" or "xy".

    Returns:
      A `[batch, n, channels]` tensor of `grid`'s dtype.

    Raises:
      ValueError: If `indexing` is invalid or `grid` is not 4-D.
      InvalidArgumentError: At run time, for bad query shapes or a grid smaller than 2x2.
    """
    from ..ops import check_ops
    from ..ops.array_shape_ops import range as _range
    if indexing != "ij" and indexing != "xy":
        raise ValueError("Indexing mode must be 'ij' or 'xy'")
    with ops.name_scope(name):
        grid = ops.convert_to_tensor(grid)
        query_points = ops.convert_to_tensor(query_points)
        if grid.get_shape().ndims != 4:
            raise ValueError("Grid must be 4 dimensional. Received size: " + str(grid.get_shape()))
        batch_size, height, width, channels = (array_ops.shape(grid)[0], array_ops.shape(grid)[1],
                                               array_ops.shape(grid)[2], array_ops.shape(grid)[3])
        shape = [batch_size, height, width, channels]
        query_type = query_points.dtype
        grid_type = grid.dtype
        with ops.control_dependencies([
                check_ops.assert_equal(len(query_points.get_shape()), 3, message="Query points must be 3 dimensional."),
                check_ops.assert_equal(array_ops.shape(query_points)[2], 2,
                                       message="Query points must be size 2 in dim 2.")]):
            num_queries = array_ops.shape(query_points)[1]
        with ops.control_dependencies([
                check_ops.assert_greater_equal(height, 2, message="Grid height must be at least 2."),
                check_ops.assert_greater_equal(width, 2, message="Grid width must be at least 2.")]):
            alphas, floors, ceils = [], [], []
            index_order = [0, 1] if indexing == "ij" else [1, 0]
            unstacked_query_points = array_ops.unstack(query_points, axis=2)
        for dim in index_order:
            with ops.name_scope("dim-" + str(dim)):
                queries = unstacked_query_points[dim]
                max_floor = math_ops.cast(shape[dim + 1] - 2, query_type)
                min_floor = constant(0.0, dtype=query_type)
                floor = math_ops.minimum(math_ops.maximum(min_floor, math_ops.floor(queries)), max_floor)
                int_floor = math_ops.cast(floor, dtypes.int32)
                floors.append(int_floor)
                ceils.append(int_floor + 1)
                alpha = math_ops.cast(queries - floor, grid_type)
                alpha = math_ops.minimum(math_ops.maximum(constant(0.0, dtype=grid_type), alpha),
                                         constant(1.0, dtype=grid_type))
                alphas.append(array_ops.expand_dims(alpha, 2))
        flattened_grid = array_ops.reshape(grid, array_ops.stack([batch_size * height * width, channels]))
        batch_offsets = array_ops.reshape(_range(batch_size) * height * width, array_ops.stack([batch_size, 1]))

        def gather(y_coords, x_coords, name):
            with ops.name_scope("gather-" + name):
                linear_coordinates = batch_offsets + y_coords * width + x_coords
                gathered_values = array_ops.gather(flattened_grid, linear_coordinates)
                return array_ops.reshape(gathered_values, array_ops.stack([batch_size, num_queries, channels]))

        top_left = gather(floors[0], floors[1], "top_left")
        top_right = gather(floors[0], ceils[1], "top_right")
        bottom_left = gather(ceils[0], floors[1], "bottom_left")
        bottom_right = gather(ceils[0], ceils[1], "bottom_right")
        with ops.name_scope("interpolate"):
            interp_top = alphas[1] * (top_right - top_left) + top_left
            interp_bottom = alphas[1] * (bottom_right - bottom_left) + bottom_left
            return alphas[0] * (interp_bottom - interp_top) + interp_top


def dense_image_warp(image, flow, name="dense_image_warp"):
    """Warps images by a per-pixel flow: `output[b, i, j] = image[b, i - flow[b, i, j, 0], j - flow[b, i, j, 1]]`,
    bilinearly interpolated (border pixels extrapolated, as TF 1.15). Differentiable in `image` and `flow`.

    Args:
      image: A 4-D float `[batch, height, width, channels]` tensor.
      flow: A 4-D float `[batch, height, width, 2]` tensor of (dy, dx) offsets.
      name: The name scope.

    Returns:
      The warped `[batch, height, width, channels]` images.

    Raises:
      ValueError: If `image` is not 4-D.
    """
    from ..ops.array_shape_ops import range as _range
    with ops.name_scope(name):
        image = ops.convert_to_tensor(image)
        flow = ops.convert_to_tensor(flow)
        batch_size, height, width, channels = (array_ops.shape(image)[0], array_ops.shape(image)[1],
                                               array_ops.shape(image)[2], array_ops.shape(image)[3])
        grid_x, grid_y = array_ops.meshgrid(_range(width), _range(height))
        stacked_grid = math_ops.cast(array_ops.stack([grid_y, grid_x], axis=2), flow.dtype)
        batched_grid = array_ops.expand_dims(stacked_grid, axis=0)
        query_points_on_grid = batched_grid - flow
        query_points_flattened = array_ops.reshape(query_points_on_grid,
                                                   array_ops.stack([batch_size, height * width, 2]))
        interpolated = _interpolate_bilinear(image, query_points_flattened)
        return array_ops.reshape(interpolated, array_ops.stack([batch_size, height, width, channels]))
