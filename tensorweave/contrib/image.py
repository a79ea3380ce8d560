"""`tf.contrib.image`: projective image transforms (TF 1.15's `contrib/image/python/ops/image_ops.py`):
`transform`, `rotate`, `translate`, the helpers building and composing the 8-value transform rows, and
`dense_image_warp` (per-pixel flow warping by bilinear interpolation).

A transform row `[a0, a1, a2, b0, b1, b2, c0, c1]` maps an *output* pixel `(x, y)` to the *input*
point `((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)`, `k = c0 x + c1 y + 1`; the warp itself is
the ImageProjectiveTransformV2 op (tensorweave/ops/image_transform_contrib_ops.py).
"""

import numpy as _np

from ..framework import dtypes as _dtypes
from ..framework import ops as _ops
from ..framework import tensor_util as _tensor_util
from ..framework.constant_op import constant as _constant
from ..ops import array_ops as _array_ops
from ..ops import image_segmentation_contrib_ops as _segmentation_ops
from ..ops import math_ops as _math_ops
from ..ops.array_shape_ops import ones as _ones
from ..ops.array_shape_ops import zeros as _zeros
from ..ops.image_transform_contrib_ops import image_projective_transform_v2 as _image_projective_transform_v2

__all__ = ["angles_to_projective_transforms", "compose_transforms", "dense_image_warp", "flat_transforms_to_matrices",
           "matrices_to_flat_transforms", "rotate", "transform", "translate", "translations_to_projective_transforms"]

_IMAGE_DTYPES = frozenset([_dtypes.uint8, _dtypes.int32, _dtypes.int64, _dtypes.float16, _dtypes.float32,
                           _dtypes.float64])


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
    with _ops.name_scope(name, "transform"):
        image_or_images = _ops.convert_to_tensor(images, name="images")
        transform_or_transforms = _ops.convert_to_tensor(transforms, name="transforms", dtype=_dtypes.float32)
        images = _as_batch(image_or_images)
        if output_shape is None:
            hw = images.get_shape()[1:3]
            output_shape = hw.as_list() if hw.is_fully_defined() else \
                _tensor_util.constant_value(_array_ops.shape(images)[1:3])
            if output_shape is None:
                output_shape = _array_ops.shape(images)[1:3]
            else:
                output_shape = _constant(output_shape, dtype=_dtypes.int32, name="output_shape")
        elif not isinstance(output_shape, _ops.Tensor):
            output_shape = _ops.convert_to_tensor(output_shape, _dtypes.int32, name="output_shape")
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
        output = _image_projective_transform_v2(images, transforms, output_shape,
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
    with _ops.name_scope(name, "rotate"):
        image_or_images = _ops.convert_to_tensor(images)
        images = _as_batch(image_or_images)
        image_height = _math_ops.cast(_array_ops.shape(images)[1], _dtypes.float32)[None]
        image_width = _math_ops.cast(_array_ops.shape(images)[2], _dtypes.float32)[None]
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
    with _ops.name_scope(name, "translate"):
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
    with _ops.name_scope(name, "angles_to_projective_transforms"):
        angle_or_angles = _ops.convert_to_tensor(angles, name="angles", dtype=_dtypes.float32)
        if len(angle_or_angles.get_shape()) == 0:
            angles = angle_or_angles[None]
        elif len(angle_or_angles.get_shape()) == 1:
            angles = angle_or_angles
        else:
            raise TypeError("Angles should have rank 0 or 1.")
        x_offset = ((image_width - 1) - (_math_ops.cos(angles) * (image_width - 1)
                                         - _math_ops.sin(angles) * (image_height - 1))) / 2.0
        y_offset = ((image_height - 1) - (_math_ops.sin(angles) * (image_width - 1)
                                          + _math_ops.cos(angles) * (image_height - 1))) / 2.0
        num_angles = _array_ops.shape(angles)[0]
        return _array_ops.concat(values=[
            _math_ops.cos(angles)[:, None], -_math_ops.sin(angles)[:, None], x_offset[:, None],
            _math_ops.sin(angles)[:, None], _math_ops.cos(angles)[:, None], y_offset[:, None],
            _zeros(_array_ops.stack([num_angles, 2]), _dtypes.float32),
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
    with _ops.name_scope(name, "translations_to_projective_transforms"):
        translation_or_translations = _ops.convert_to_tensor(translations, name="translations", dtype=_dtypes.float32)
        nd = translation_or_translations.get_shape().ndims
        if nd is None:
            raise TypeError("translation_or_translations rank must be statically known")
        if nd == 1:
            translations = translation_or_translations[None]
        elif nd == 2:
            translations = translation_or_translations
        else:
            raise TypeError("Translations should have rank 1 or 2.")
        num_translations = _array_ops.shape(translations)[0]
        col = _array_ops.stack([num_translations, 1])
        return _array_ops.concat(values=[
            _ones(col, _dtypes.float32), _zeros(col, _dtypes.float32), -translations[:, 0, None],
            _zeros(col, _dtypes.float32), _ones(col, _dtypes.float32), -translations[:, 1, None],
            _zeros(_array_ops.stack([num_translations, 2]), _dtypes.float32),
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
    with _ops.name_scope("compose_transforms"):
        composed = flat_transforms_to_matrices(transforms[0])
        for tr in transforms[1:]:
            composed = _math_ops.matmul(composed, flat_transforms_to_matrices(tr))
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
    with _ops.name_scope("flat_transforms_to_matrices"):
        transforms = _ops.convert_to_tensor(transforms, name="transforms")
        if transforms.shape.ndims not in (1, 2):
            raise ValueError("Transforms should be 1D or 2D, got: %s" % transforms)
        transforms = _array_ops.reshape(transforms, _constant([-1, 8]))
        num_transforms = _array_ops.shape(transforms)[0]
        return _array_ops.reshape(
            _array_ops.concat([transforms, _ones(_array_ops.stack([num_transforms, 1]), transforms.dtype)], axis=1),
            _constant([-1, 3, 3]))


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
    with _ops.name_scope("matrices_to_flat_transforms"):
        transform_matrices = _ops.convert_to_tensor(transform_matrices, name="transform_matrices")
        if transform_matrices.shape.ndims not in (2, 3):
            raise ValueError("Matrices should be 2D or 3D, got: %s" % transform_matrices)
        transforms = _array_ops.reshape(transform_matrices, _constant([-1, 9]))
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
    with _ops.name_scope(name):
        grid = _ops.convert_to_tensor(grid)
        query_points = _ops.convert_to_tensor(query_points)
        if grid.get_shape().ndims != 4:
            raise ValueError("Grid must be 4 dimensional. Received size: " + str(grid.get_shape()))
        batch_size, height, width, channels = (_array_ops.shape(grid)[0], _array_ops.shape(grid)[1],
                                               _array_ops.shape(grid)[2], _array_ops.shape(grid)[3])
        shape = [batch_size, height, width, channels]
        query_type = query_points.dtype
        grid_type = grid.dtype
        with _ops.control_dependencies([
                check_ops.assert_equal(len(query_points.get_shape()), 3, message="Query points must be 3 dimensional."),
                check_ops.assert_equal(_array_ops.shape(query_points)[2], 2,
                                       message="Query points must be size 2 in dim 2.")]):
            num_queries = _array_ops.shape(query_points)[1]
        with _ops.control_dependencies([
                check_ops.assert_greater_equal(height, 2, message="Grid height must be at least 2."),
                check_ops.assert_greater_equal(width, 2, message="Grid width must be at least 2.")]):
            alphas, floors, ceils = [], [], []
            index_order = [0, 1] if indexing == "ij" else [1, 0]
            unstacked_query_points = _array_ops.unstack(query_points, axis=2)
        for dim in index_order:
            with _ops.name_scope("dim-" + str(dim)):
                queries = unstacked_query_points[dim]
                max_floor = _math_ops.cast(shape[dim + 1] - 2, query_type)
                min_floor = _constant(0.0, dtype=query_type)
                floor = _math_ops.minimum(_math_ops.maximum(min_floor, _math_ops.floor(queries)), max_floor)
                int_floor = _math_ops.cast(floor, _dtypes.int32)
                floors.append(int_floor)
                ceils.append(int_floor + 1)
                alpha = _math_ops.cast(queries - floor, grid_type)
                alpha = _math_ops.minimum(_math_ops.maximum(_constant(0.0, dtype=grid_type), alpha),
                                         _constant(1.0, dtype=grid_type))
                alphas.append(_array_ops.expand_dims(alpha, 2))
        flattened_grid = _array_ops.reshape(grid, _array_ops.stack([batch_size * height * width, channels]))
        batch_offsets = _array_ops.reshape(_range(batch_size) * height * width, _array_ops.stack([batch_size, 1]))

        def gather(y_coords, x_coords, name):
            with _ops.name_scope("gather-" + name):
                linear_coordinates = batch_offsets + y_coords * width + x_coords
                gathered_values = _array_ops.gather(flattened_grid, linear_coordinates)
                return _array_ops.reshape(gathered_values, _array_ops.stack([batch_size, num_queries, channels]))

        top_left = gather(floors[0], floors[1], "top_left")
        top_right = gather(floors[0], ceils[1], "top_right")
        bottom_left = gather(ceils[0], floors[1], "bottom_left")
        bottom_right = gather(ceils[0], ceils[1], "bottom_right")
        with _ops.name_scope("interpolate"):
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
    with _ops.name_scope(name):
        image = _ops.convert_to_tensor(image)
        flow = _ops.convert_to_tensor(flow)
        batch_size, height, width, channels = (_array_ops.shape(image)[0], _array_ops.shape(image)[1],
                                               _array_ops.shape(image)[2], _array_ops.shape(image)[3])
        grid_x, grid_y = _array_ops.meshgrid(_range(width), _range(height))
        stacked_grid = _math_ops.cast(_array_ops.stack([grid_y, grid_x], axis=2), flow.dtype)
        batched_grid = _array_ops.expand_dims(stacked_grid, axis=0)
        query_points_on_grid = batched_grid - flow
        query_points_flattened = _array_ops.reshape(query_points_on_grid,
                                                   _array_ops.stack([batch_size, height * width, 2]))
        interpolated = _interpolate_bilinear(image, query_points_flattened)
        return _array_ops.reshape(interpolated, _array_ops.stack([batch_size, height, width, channels]))


# ---- polyharmonic spline interpolation and sparse warping -----------------------------------------------
_SPLINE_EPSILON = 0.0000000001


def _cross_squared_distance_matrix(x, y):
    """`[b, n, m]` squared distances between the rows of `x` `[b, n, d]` and of `y` `[b, m, d]`."""
    x_norm = _array_ops.expand_dims(_math_ops.reduce_sum(_math_ops.square(x), 2), 2)
    y_norm = _array_ops.expand_dims(_math_ops.reduce_sum(_math_ops.square(y), 2), 1)
    return x_norm - 2 * _math_ops.matmul(x, y, adjoint_b=True) + y_norm


def _pairwise_squared_distance_matrix(x):
    """`[b, n, n]` squared distances among the rows of `x` `[b, n, d]`."""
    from ..ops.linalg_diag_ops import matrix_diag_part
    xxt = _math_ops.matmul(x, x, adjoint_b=True)
    norm = _array_ops.expand_dims(matrix_diag_part(xxt), 2)
    return norm - 2 * xxt + _array_ops.transpose(norm, [0, 2, 1])


def _phi(r, order):
    """The radial basis function of squared distances `r` for the interpolation `order` (the
    distances are floored at 1e-10 so that log and sqrt stay finite and differentiable)."""
    with _ops.name_scope("phi"):
        if order == 1:
            return _math_ops.sqrt(_math_ops.maximum(r, _SPLINE_EPSILON))
        if order == 2:
            return 0.5 * r * _math_ops.log(_math_ops.maximum(r, _SPLINE_EPSILON))
        if order == 4:
            return 0.5 * _math_ops.square(r) * _math_ops.log(_math_ops.maximum(r, _SPLINE_EPSILON))
        r = _math_ops.maximum(r, _SPLINE_EPSILON)
        if order % 2 == 0:
            return 0.5 * _math_ops.pow(r, 0.5 * order) * _math_ops.log(r)
        return _math_ops.pow(r, 0.5 * order)


def _solve_interpolation(train_points, train_values, order, regularization_weight):
    """The spline weights `w` `[b, n, k]` (RBF terms) and `v` `[b, d + 1, k]` (linear terms and bias)
    from the `(n + d + 1)`-square system `[[A, B], [B^T, 0]] [w; v] = [f; 0]`."""
    from ..ops.array_shape_ops import zeros as zeros_
    from ..ops.core_ops import ones_like
    from ..ops.linalg_core_ops import matrix_solve
    from ..ops.linalg_diag_ops import matrix_diag, matrix_diag_part
    d = train_points.shape.as_list()[-1] if train_points.shape.ndims is not None else None
    if d is None:
        raise ValueError("The dimensionality of the input points (d) must be statically-inferrable.")
    k = train_values.shape.as_list()[-1] if train_values.shape.ndims is not None else None
    if k is None:
        raise ValueError("The dimensionality of the output values (k) must be statically-inferrable.")
    shape = _array_ops.shape(train_points)
    b, n = shape[0], shape[1]
    with _ops.name_scope("construct_linear_system"):
        matrix_a = _phi(_pairwise_squared_distance_matrix(train_points), order)
        if regularization_weight > 0:
            matrix_a += regularization_weight * matrix_diag(ones_like(matrix_diag_part(matrix_a)))
        matrix_b = _array_ops.concat([train_points, ones_like(train_points[..., :1])], 2)
        left = _array_ops.concat([matrix_a, _array_ops.transpose(matrix_b, [0, 2, 1])], 1)
        right = _array_ops.concat([matrix_b, zeros_(_array_ops.stack([b, d + 1, d + 1]), train_points.dtype)], 1)
        lhs = _array_ops.concat([left, right], 2)
        rhs = _array_ops.concat([train_values, zeros_(_array_ops.stack([b, d + 1, k]), train_points.dtype)], 1)
    with _ops.name_scope("solve_linear_system"):
        w_v = matrix_solve(lhs, rhs)
        return w_v[:, :n, :], w_v[:, n:, :]


def interpolate_spline(train_points, train_values, query_points, order, regularization_weight=0.0,
                       name="interpolate_spline"):
    """Interpolates a signal by a polyharmonic spline.

    The interpolant is `f(x) = sum_i w_i phi(||x - c_i||) + v^T x + b` with the centers `c_i` the
    `train_points`; `w` and `v` are solved so that `f` fits `train_values` (exactly when
    `regularization_weight` is 0, else trading fit for smoothness) with `w` summing to 0 and orthogonal
    to the centers. `phi(r)` is `r^order` for odd orders and `r^order log(r)` for even ones (order 2:
    the thin-plate spline). Differentiable in every input but `order`.

    Args:
      train_points: `[batch_size, n, d]` float `Tensor` of n d-dimensional locations.
      train_values: `[batch_size, n, k]` float `Tensor` of the k-dimensional values at `train_points`.
      query_points: `[batch_size, m, d]` float `Tensor` of the locations to evaluate the interpolant at.
      order: Order of the interpolation (1: `phi(r) = r`, 2: `r^2 log(r)`, 3: `r^3`, ...).
      regularization_weight: Weight of the smoothness regularization (0: exact interpolation).
      name: Name scope of the ops.

    Returns:
      `[batch_size, m, k]` float `Tensor` of the interpolant's values at `query_points`.

    Raises:
      ValueError: If `d` or `k` is not statically known.
      InvalidArgumentError: At run time, if the linear system is singular (e.g. repeated points).
    """
    from ..ops.core_ops import ones_like
    with _ops.name_scope(name):
        train_points = _ops.convert_to_tensor(train_points)
        train_values = _ops.convert_to_tensor(train_values)
        query_points = _ops.convert_to_tensor(query_points)
        with _ops.name_scope("solve"):
            w, v = _solve_interpolation(train_points, train_values, order, regularization_weight)
        with _ops.name_scope("predict"):
            rbf_term = _math_ops.matmul(_phi(_cross_squared_distance_matrix(query_points, train_points), order), w)
            query_pad = _array_ops.concat([query_points, ones_like(query_points[..., :1])], 2)
            return rbf_term + _math_ops.matmul(query_pad, v)


def _boundary_locations(height, width, num_points_per_edge):
    ys, xs = _np.meshgrid(_np.linspace(0, height - 1, num_points_per_edge + 2),
                          _np.linspace(0, width - 1, num_points_per_edge + 2), indexing="ij")
    on_edge = (xs == 0) | (xs == width - 1) | (ys == 0) | (ys == height - 1)
    return _np.stack([ys[on_edge], xs[on_edge]], axis=-1)


def sparse_image_warp(image, source_control_point_locations, dest_control_point_locations, interpolation_order=2,
                      regularization_weight=0.0, num_boundary_points=0, name="sparse_image_warp"):
    """Warps images so that the pixels at the source control points move to the destination points.

    The control point displacements (`dest - source`) are interpolated to a dense flow by
    `interpolate_spline` (centered at the destination points), and the image is warped by that flow
    with `dense_image_warp`; with `regularization_weight == 0`,
    `warped[b, dest[b, t, 0], dest[b, t, 1]] == image[b, source[b, t, 0], source[b, t, 1]]`.

    Args:
      image: `[batch, height, width, channels]` float `Tensor` with a fully known static shape.
      source_control_point_locations: `[batch, num_control_points, 2]` float `Tensor` of (y, x) points.
      dest_control_point_locations: `[batch, num_control_points, 2]` float `Tensor` of (y, x) points.
      interpolation_order: Order of the spline interpolation.
      regularization_weight: Weight of the spline's smoothness regularization.
      num_boundary_points: Zero-flow control points added on the image border: 0 none, 1 the 4
        corners, n the corners and n - 1 more along each edge.
      name: Name scope of the ops.

    Returns:
      warped_image: `[batch, height, width, channels]` `Tensor` of `image`'s dtype.
      flow_field: `[batch, height, width, 2]` `Tensor`, the dense flow used.

    Raises:
      ValueError: If `image`'s static shape is not fully known.
    """
    image = _ops.convert_to_tensor(image)
    source = _ops.convert_to_tensor(source_control_point_locations)
    dest = _ops.convert_to_tensor(dest_control_point_locations)
    flows = dest - source
    with _ops.name_scope(name):
        if image.shape.ndims != 4 or not image.shape.is_fully_defined():
            raise ValueError("sparse_image_warp needs a 4-D image with a fully known static shape, got %s"
                             % image.shape)
        batch_size, height, width, _ = image.shape.as_list()
        ys, xs = _np.meshgrid(_np.linspace(0, height - 1, height), _np.linspace(0, width - 1, width), indexing="ij")
        grid = _np.stack((ys, xs), -1).reshape(height * width, 2)
        grid = _constant(_np.tile(grid[None], [batch_size, 1, 1]), image.dtype)
        if num_boundary_points > 0:
            boundary = _boundary_locations(height, width, num_boundary_points - 1)
            boundary_locations = _constant(_np.tile(boundary[None], [batch_size, 1, 1]), dest.dtype)
            boundary_flows = _constant(_np.zeros((batch_size, boundary.shape[0], 2)), dest.dtype)
            dest = _array_ops.concat([dest, boundary_locations], 1)
            flows = _array_ops.concat([flows, boundary_flows], 1)
        flat_flows = interpolate_spline(dest, flows, grid, interpolation_order, regularization_weight)
        dense_flows = _array_ops.reshape(flat_flows, [batch_size, height, width, 2])
        return dense_image_warp(image, dense_flows), dense_flows


# ---- connected components and bipartite matching ------------------------------------------------------
def connected_components(images):
    """Labels the connected components of a batch of images.

    A component is a set of 4-adjacent pixels of one image that all have the same non-zero value.
    Components are numbered 1, 2, ... in the order their first pixel appears in a row-major scan of
    the whole batch (numbering continues across images); background (zero) pixels are 0.

    Args:
      images: A `[height, width]` or `[batch, height, width]` tensor of a numeric, bool or string
        dtype (0, False or the empty string is background).

    Returns:
      An int64 tensor of `images`' shape with the component ids.

    Raises:
      ValueError: If `images` does not have rank 2 or 3.
      TypeError: For an unsupported dtype.
    """
    from ..ops.array_select_ops import unique
    from ..ops.math_scan_ops import cumsum
    with _ops.name_scope("connected_components"):
        image_or_images = _ops.convert_to_tensor(images, name="images")
        ndims = image_or_images.shape.ndims
        if ndims == 2:
            batch = image_or_images[None, :, :]
        elif ndims == 3:
            batch = image_or_images
        else:
            raise ValueError("images should have rank 2 (HW) or 3 (NHW)")
        components = _segmentation_ops.image_connected_components(batch)
        unique_ids, id_index = unique(_array_ops.reshape(components, [-1]))
        nonzero = _math_ops.cast(_math_ops.not_equal(unique_ids, 0), _dtypes.int64)
        # the non-zero ids become 1, 2, ... in order of first appearance; 0 stays 0
        new_ids = cumsum(nonzero) * nonzero
        components = _array_ops.reshape(_array_ops.gather(new_ids, id_index), _array_ops.shape(batch))
        return components[0] if ndims == 2 else components


def bipartite_match(distance_mat, num_valid_rows, top_k=-1, name="bipartite_match"):
    """Finds a greedy bipartite matching from a distance matrix.

    Repeatedly matches the unmatched row and column with the smallest distance (among the first
    `num_valid_rows` rows), until `top_k` pairs are matched or no pair is left.

    Args:
      distance_mat: A 2-D float32 `[num_rows, num_columns]` tensor of pairwise distances.
      num_valid_rows: A float32 scalar: how many of the first rows take part; negative for all.
      top_k: The number of matches to find; `top_k <= 0` matches as many as possible.
      name: The name of the op.

    Returns:
      row_to_col_match_indices: An int32 `[num_rows]` vector: the column each row is matched to, or -1.
      col_to_row_match_indices: An int32 `[num_columns]` vector: the row each column is matched to, or -1.

    Raises:
      TypeError: If `distance_mat` is not float32.
      ValueError: If `distance_mat` has a static rank other than 2.
      InvalidArgumentError: At run time, if `num_valid_rows` exceeds the number of rows.
    """
    return _segmentation_ops.bipartite_match(distance_mat, num_valid_rows, top_k=top_k, name=name)


__all__ += ["bipartite_match", "connected_components", "interpolate_spline", "sparse_image_warp"]


# ---- hue, saturation and value in YIQ space -------------------------------------------------------------
_RGB_TO_YIQ = _np.array([[0.299, 0.587, 0.114], [0.596, -0.274, -0.322], [0.211, -0.523, 0.312]], _np.float32)
_YIQ_TO_RGB = _np.array([[1, 0.95617069, 0.62143257], [1, -0.2726886, -0.64681324], [1, -1.103744, 1.70062309]],
                        _np.float32)


def adjust_hsv_in_yiq(image, delta_hue=0, scale_saturation=1, scale_value=1, name=None):
    """Adjusts hue, saturation and value of RGB images in YIQ space.

    Each pixel `rgb` becomes `M rgb` with `M = YIQ^-1 H YIQ` and
    `H = [[v, 0, 0], [0, v s cos(h), -v s sin(h)], [0, v s sin(h), v s cos(h)]]`: the hue rotates by
    `delta_hue` radians in the I-Q plane, the chroma scales by `scale_saturation` and all components
    by `scale_value`. Non-float images are converted to float32 and back (`tf.image.convert_image_dtype`).

    Args:
      image: RGB image or images, a tensor whose last dimension is 3.
      delta_hue: float, the hue rotation amount, in radians.
      scale_saturation: float, the factor to multiply the saturation by.
      scale_value: float, the factor to multiply the value by.
      name: A name for this operation (optional).

    Returns:
      The adjusted image(s), of the same shape and dtype as `image`.

    Raises:
      ValueError: If the static last dimension of `image` is not 3.
      InvalidArgumentError: At run time, if the last dimension is not 3.
    """
    from ..ops.check_ops import assert_equal
    from ..ops.image_color_ops import convert_image_dtype
    with _ops.name_scope(name, "adjust_hsv_in_yiq", [image]) as scope:
        image = _ops.convert_to_tensor(image, name="image")
        dims = image.shape.as_list() if image.shape.ndims is not None else None
        if dims is not None and (not dims or (dims[-1] is not None and dims[-1] != 3)):
            raise ValueError("input must have 3 channels but instead has %s channels."
                             % (dims[-1] if dims else 0))
        orig_dtype = image.dtype
        flt_image = convert_image_dtype(image, _dtypes.float32)
        h = _ops.convert_to_tensor(delta_hue, _dtypes.float32)
        vs = _ops.convert_to_tensor(scale_value, _dtypes.float32) * _ops.convert_to_tensor(scale_saturation,
                                                                                            _dtypes.float32)
        v = _ops.convert_to_tensor(scale_value, _dtypes.float32)
        vsu, vsw = vs * _math_ops.cos(h), vs * _math_ops.sin(h)
        zero = _constant(0.0)
        hsv = _array_ops.reshape(_array_ops.stack([v, zero, zero, zero, vsu, -vsw, zero, vsw, vsu]), [3, 3])
        matrix = _math_ops.matmul(_math_ops.matmul(_constant(_YIQ_TO_RGB), hsv), _constant(_RGB_TO_YIQ))
        checks = [] if dims is not None and dims[-1] == 3 else [
            assert_equal(_array_ops.shape(flt_image)[-1], 3, message="input must have 3 channels")]
        with _ops.control_dependencies(checks):
            flat = _array_ops.reshape(flt_image, [-1, 3])
        rgb = _math_ops.matmul(flat, matrix, transpose_b=True)
        rgb = _array_ops.reshape(rgb, _array_ops.shape(flt_image))
        return convert_image_dtype(rgb, orig_dtype, name=scope)


def random_hsv_in_yiq(image, max_delta_hue=0, lower_saturation=1, upper_saturation=1, lower_value=1,
                      upper_value=1, seed=None):
    """Adjusts hue, saturation and value of RGB images in YIQ space by random factors
    (`adjust_hsv_in_yiq` with the hue delta uniform in `[-max_delta_hue, max_delta_hue]` and the
    scales uniform in their ranges; a degenerate range is not sampled).

    Args:
      image: RGB image or images, a tensor whose last dimension is 3.
      max_delta_hue: float, the maximum hue rotation in radians (>= 0).
      lower_saturation: float, the lower bound of the saturation factor (>= 0).
      upper_saturation: float, the upper bound of the saturation factor.
      lower_value: float, the lower bound of the value factor (>= 0).
      upper_value: float, the upper bound of the value factor.
      seed: An operation-specific seed.

    Returns:
      The adjusted image(s), of the same shape and dtype as `image`.

    Raises:
      ValueError: If `max_delta_hue`, `lower_saturation` or `lower_value` is negative, or a lower
        bound exceeds its upper bound.
    """
    from ..ops.random_ops import random_uniform
    if max_delta_hue < 0:
        raise ValueError("max_delta use must be non-negative.")
    if lower_saturation < 0:
        raise ValueError("lower_saturation must be non-negative.")
    if lower_value < 0:
        raise ValueError("lower_value must be non-negative.")
    if lower_saturation > upper_saturation:
        raise ValueError("lower_saturation must be < upper_saturation.")
    if lower_value > upper_value:
        raise ValueError("lower_value must be < upper_value.")
    delta_hue = 0 if max_delta_hue == 0 else random_uniform([], -max_delta_hue, max_delta_hue, seed=seed)
    scale_saturation = upper_saturation if lower_saturation == upper_saturation else \
        random_uniform([], lower_saturation, upper_saturation, seed=seed)
    scale_value = upper_value if lower_value == upper_value else \
        random_uniform([], lower_value, upper_value, seed=seed)
    return adjust_hsv_in_yiq(image, delta_hue, scale_saturation, scale_value)


__all__ += ["adjust_hsv_in_yiq", "random_hsv_in_yiq"]
