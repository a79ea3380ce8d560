"""Image geometry (TF1's `tf.image` flips, rotations, crops and pads, and `tf.random_crop`): each is
TF's composition of array ops, with its static checks, run-time assertions and static shapes."""

from ..framework import dtypes, ops
from .array_join_ops import stack
from .array_permute_ops import pad, reverse, transpose
from .array_shape_ops import expand_dims, rank, reshape, squeeze
from .array_slice_ops import slice as _slice
from .control_flow_ops import case, cond
from .core_ops import identity, shape
from .logging_ops import Assert
from .math_binary_ops import equal, less, maximum, minimum, mod
from .math_reduce_ops import reduce_all
from .math_unary_ops import cast
from .math_unary_ops import round as _round
from .random_ops import random_uniform


# ---- helpers (TF's image_ops_impl private functions) --------------------------------------------
def _is_tensor(x):
    return isinstance(x, ops.Tensor)


def _with_dependencies(deps, x):
    if not deps:
        return x
    with ops.control_dependencies(deps):
        return identity(x)


def _assert(cond_value, ex_type, msg):
    """A run-time Assert for a tensor condition; the exception now for a false Python one."""
    if _is_tensor(cond_value):
        return [Assert(cond_value, [msg])]
    if not cond_value:
        raise ex_type(msg)
    return []


def _check_at_least_3d(image, require_static=True):
    """TF's _CheckAtLeast3DImage: static checks, and a run-time one where the inner dims are unknown."""
    s = image.get_shape()
    if s.ndims is not None and s.ndims < 3:
        raise ValueError("'image' (shape %s) must be at least three-dimensional." % s)
    if require_static and not s.is_fully_defined():
        raise ValueError("'image' (shape %s) must be fully defined." % s)
    if s.ndims is not None and any(d == 0 for d in s.as_list()[-3:]):
        raise ValueError("inner 3 dims of 'image.shape' must be > 0: %s" % s)
    if s.ndims is not None and s[-3:].is_fully_defined():
        return []
    return [Assert(reduce_all(less(0, shape(image)[-3:])), ["inner 3 dims of 'image.shape' must be > 0."])]


def _assert_at_least_3d(image):
    return _with_dependencies(_check_at_least_3d(image, require_static=False), image)


def _image_dimensions(image, rank_):
    """TF's _ImageDimensions: static dims where known, else dynamic ones."""
    if image.get_shape().is_fully_defined():
        return image.get_shape().as_list()
    static = image.get_shape().with_rank(rank_).as_list()
    dynamic = shape(image)
    return [s if s is not None else dynamic[i] for i, s in enumerate(static)]


def _by_rank(image, f3, f4):
    nd = image.get_shape().ndims
    if nd is None:
        return cond(equal(rank(image), 3), f3, f4)
    if nd == 3:
        return f3()
    if nd == 4:
        return f4()
    raise ValueError("'image' (shape %s)must have either 3 or 4 dimensions." % image.get_shape())


def _as_batch(image):
    """(4-D image, whether the input was a batch), as crop/pad do."""
    nd = image.get_shape().ndims
    if nd == 3:
        return expand_dims(image, 0), False
    if nd is None:
        image = expand_dims(image, 0)
        image.set_shape([None] * 4)
        return image, False
    if nd != 4:
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % image.get_shape())
    return image, True


# ---- flips, rotations, transposes ---------------------------------------------------------------
def _flip(image, flip_index, scope_name):
    with ops.name_scope(None, scope_name, [image]):
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        return _by_rank(image, lambda: reverse(image, [flip_index]), lambda: reverse(image, [flip_index + 1]))


def flip_left_right(image):
    """Flips an image horizontally (left to right).

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.

    Returns:
      A `Tensor` of the same type and shape as `image`.

    Raises:
      ValueError: If the shape of `image` is not supported.
    """
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image):
    """Flips an image vertically (upside down).

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.

    Returns:
      A `Tensor` of the same type and shape as `image`.

    Raises:
      ValueError: If the shape of `image` is not supported.
    """
    return _flip(image, 0, "flip_up_down")


def _random_flip(image, flip_index, seed, scope_name):
    with ops.name_scope(None, scope_name, [image]) as scope:
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)

        def f_rank3():
            uniform_random = random_uniform([], 0, 1.0, seed=seed)
            mirror_cond = less(uniform_random, .5)
            result = cond(mirror_cond, lambda: reverse(image, [flip_index]), lambda: image, name=scope)
            result.set_shape(image.get_shape())
            return result

        def f_rank4():
            batch_size = shape(image)[0]
            uniform_random = random_uniform(stack([batch_size]), 0, 1.0, seed=seed)
            flips = _round(reshape(uniform_random, stack([batch_size, 1, 1, 1])))
            flips = cast(flips, image.dtype)
            flipped_input = reverse(image, [flip_index + 1])
            return flips * flipped_input + (1 - flips) * image
        return _by_rank(image, f_rank3, f_rank4)


def random_flip_left_right(image, seed=None):
    """Randomly flips an image horizontally (each image of a batch independently) with probability 1/2.

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.
      seed: A Python integer, the op seed (see `tf.set_random_seed`).

    Returns:
      A `Tensor` of the same type and shape as `image`.

    Raises:
      ValueError: If the shape of `image` is not supported.
    """
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    """Randomly flips an image vertically (each image of a batch independently) with probability 1/2.

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.
      seed: A Python integer, the op seed (see `tf.set_random_seed`).

    Returns:
      A `Tensor` of the same type and shape as `image`.

    Raises:
      ValueError: If the shape of `image` is not supported.
    """
    return _random_flip(image, 0, seed, "random_flip_up_down")


def _case(cases, image, scope):
    """TF's exclusive `case` of rot90; eagerly, the branch its (concrete) predicate picks."""
    if ops.get_default_graph()._eager:
        for pred, fn in cases:
            if bool(pred.numpy()):
                return fn()
        return image
    return case(cases, default=lambda: image, exclusive=True, name=scope)


def rot90(image, k=1, name=None):
    """Rotates an image counter-clockwise by 90 degrees `k` times.

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.
      k: A scalar int32 `Tensor`, the number of rotations.
      name: A name for the operation (optional).

    Returns:
      The rotated `Tensor`, of the type of `image`.

    Raises:
      ValueError: If the shape of `image` is not supported, or `k` is not a scalar.
    """
    with ops.name_scope(name, "rot90", [image, k]) as scope:
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        k = ops.convert_to_tensor(k, dtype=dtypes.int32, name="k")
        k.get_shape().assert_has_rank(0)
        k = mod(k, 4)

        def r3():
            s = image.get_shape()
            cases = [(equal(k, 1), lambda: transpose(reverse(image, [1]), [1, 0, 2])),
                     (equal(k, 2), lambda: reverse(image, [0, 1])),
                     (equal(k, 3), lambda: reverse(transpose(image, [1, 0, 2]), [1]))]
            result = _case(cases, image, scope)
            result.set_shape([None, None, s[2] if s.ndims is not None else None])
            return result

        def r4():
            s = image.get_shape()
            cases = [(equal(k, 1), lambda: transpose(reverse(image, [2]), [0, 2, 1, 3])),
                     (equal(k, 2), lambda: reverse(image, [1, 2])),
                     (equal(k, 3), lambda: reverse(transpose(image, [0, 2, 1, 3]), [2]))]
            result = _case(cases, image, scope)
            if s.ndims is not None:
                result.set_shape([s[0], None, None, s[3]])
            return result
        return _by_rank(image, r3, r4)


def transpose_image(image):
    """Transposes the height and width dimensions of an image (or of each image of a batch).

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.

    Returns:
      The transposed `Tensor`: `[batch, width, height, channels]` or `[width, height, channels]`.

    Raises:
      ValueError: If the shape of `image` is not supported.
    """
    with ops.name_scope(None, "transpose", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        return _by_rank(image, lambda: transpose(image, [1, 0, 2]), lambda: transpose(image, [0, 2, 1, 3]))


# ---- crops and pads ----------------------------------------------------------------------------
def central_crop(image, central_fraction):
    """Crops the central region of an image (or of each image of a batch).

    Args:
      image: A 4-D `Tensor` `[batch, height, width, depth]` or a 3-D `[height, width, depth]`.
      central_fraction: A float in (0, 1], the fraction of each side to keep.

    Returns:
      The cropped `Tensor`.

    Raises:
      ValueError: If `central_fraction` is not within (0, 1], or the rank of `image` is not 3 or 4.
    """
    with ops.name_scope(None, "central_crop", [image]):
        image = ops.convert_to_tensor(image, name="image")
        if central_fraction <= 0.0 or central_fraction > 1.0:
            raise ValueError("central_fraction must be within (0, 1]")
        if central_fraction == 1.0:
            return image
        _check_at_least_3d(image, require_static=False)
        r = image.get_shape().ndims
        if r != 3 and r != 4:
            raise ValueError("`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = {}.".format(r))

        def get_dim(idx):
            d = image.get_shape().as_list()[idx]
            if d is not None:
                return d, False
            return shape(image)[idx], True
        off = 0 if r == 3 else 1
        img_h, dynamic_h = get_dim(off)
        img_w, dynamic_w = get_dim(off + 1)
        img_d = image.get_shape().as_list()[off + 2]

        def start(size, dynamic):
            if dynamic:
                sd = cast(size, dtypes.float64)
                return cast((sd - sd * central_fraction) / 2, dtypes.int32)
            fd = float(size)
            return int((fd - fd * central_fraction) / 2)
        h0, w0 = start(img_h, dynamic_h), start(img_w, dynamic_w)
        hs, ws = img_h - h0 * 2, img_w - w0 * 2
        if r == 3:
            begin, size = stack([h0, w0, 0]), stack([hs, ws, -1])
        else:
            begin, size = stack([0, h0, w0, 0]), stack([-1, hs, ws, -1])
        out = _slice(image, begin, size)
        dims = [None if dynamic_h else hs, None if dynamic_w else ws, img_d]
        out.set_shape(dims if r == 3 else [image.get_shape().as_list()[0]] + dims)
        return out


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Crops an image (or each image of a batch) to the box with top-left corner
    (`offset_height`, `offset_width`) and size `target_height` x `target_width`.

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.
      offset_height, offset_width: The box's top-left corner (ints or scalar int32 tensors).
      target_height, target_width: The box's size.

    Returns:
      The cropped `Tensor`, 4-D or 3-D as `image`.

    Raises:
      ValueError: If the shape of `image` is not supported, or the box does not fit (static values;
        an `InvalidArgumentError` at run time for tensor ones).
    """
    with ops.name_scope(None, "crop_to_bounding_box", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        assert_ops = _check_at_least_3d(image, require_static=False)
        batch, height, width, depth = _image_dimensions(image, 4)
        assert_ops += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0.")
        assert_ops += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0.")
        assert_ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        assert_ops += _assert(width >= (target_width + offset_width), ValueError, "width must be >= target + offset.")
        assert_ops += _assert(height >= (target_height + offset_height), ValueError,
                              "height must be >= target + offset.")
        image = _with_dependencies(assert_ops, image)
        cropped = _slice(image, stack([0, offset_height, offset_width, 0]),
                         stack([-1, target_height, target_width, -1]))
        cropped.set_shape([None if _is_tensor(i) else i for i in [batch, target_height, target_width, depth]])
        return cropped if is_batch else squeeze(cropped, axis=[0])


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Pads an image (or each image of a batch) with zeros to `target_height` x `target_width`, its
    top-left corner at (`offset_height`, `offset_width`).

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.
      offset_height, offset_width: Rows and columns of zeros before the image.
      target_height, target_width: The padded size.

    Returns:
      The padded `Tensor`, 4-D or 3-D as `image`.

    Raises:
      ValueError: If the shape of `image` is not supported, or the image does not fit (static
        values; an `InvalidArgumentError` at run time for tensor ones).
    """
    with ops.name_scope(None, "pad_to_bounding_box", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        batch, height, width, depth = _image_dimensions(image, 4)
        after_w = target_width - offset_width - width
        after_h = target_height - offset_height - height
        assert_ops = _check_at_least_3d(image, require_static=False)
        assert_ops += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0")
        assert_ops += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0")
        assert_ops += _assert(after_w >= 0, ValueError, "width must be <= target - offset")
        assert_ops += _assert(after_h >= 0, ValueError, "height must be <= target - offset")
        image = _with_dependencies(assert_ops, image)
        paddings = reshape(stack([0, 0, offset_height, after_h, offset_width, after_w, 0, 0]), [4, 2])
        padded = pad(image, paddings)
        padded.set_shape([None if _is_tensor(i) else i for i in [batch, target_height, target_width, depth]])
        return padded if is_batch else squeeze(padded, axis=[0])


def resize_image_with_crop_or_pad(image, target_height, target_width):
    """Crops and/or pads an image (or each image of a batch) to `target_height` x `target_width`,
    centred: larger sides are cropped evenly, smaller ones padded evenly with zeros.

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.
      target_height, target_width: The size of the result.

    Returns:
      The `Tensor` of the target size, 4-D or 3-D as `image`.

    Raises:
      ValueError: If the shape of `image` is not supported or a target is not positive.
    """
    with ops.name_scope(None, "resize_image_with_crop_or_pad", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        assert_ops = _check_at_least_3d(image, require_static=False)
        assert_ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        image = _with_dependencies(assert_ops, image)
        if _is_tensor(target_height):
            target_height = _with_dependencies(assert_ops, target_height)
        if _is_tensor(target_width):
            target_width = _with_dependencies(assert_ops, target_width)

        def max_(x, y):
            return maximum(x, y) if _is_tensor(x) or _is_tensor(y) else max(x, y)

        def min_(x, y):
            return minimum(x, y) if _is_tensor(x) or _is_tensor(y) else min(x, y)

        def equal_(x, y):
            return equal(x, y) if _is_tensor(x) or _is_tensor(y) else x == y

        _, height, width, _ = _image_dimensions(image, 4)
        width_diff = target_width - width
        offset_crop_width = max_(-width_diff // 2, 0)
        offset_pad_width = max_(width_diff // 2, 0)
        height_diff = target_height - height
        offset_crop_height = max_(-height_diff // 2, 0)
        offset_pad_height = max_(height_diff // 2, 0)
        cropped = crop_to_bounding_box(image, offset_crop_height, offset_crop_width, min_(target_height, height),
                                       min_(target_width, width))
        resized = pad_to_bounding_box(cropped, offset_pad_height, offset_pad_width, target_height, target_width)
        if resized.get_shape().ndims is None:
            raise ValueError("resized contains no shape.")
        _, rh, rw, _ = _image_dimensions(resized, 4)
        assert_ops = _assert(equal_(rh, target_height), ValueError, "resized height is not correct.")
        assert_ops += _assert(equal_(rw, target_width), ValueError, "resized width is not correct.")
        resized = _with_dependencies(assert_ops, resized)
        return resized if is_batch else squeeze(resized, axis=[0])


def random_crop(value, size, seed=None, name=None):
    """Randomly crops a tensor to `size` (the same offset draw as TF: a uniform int32 per dimension,
    modulo the number of valid offsets).

    Args:
      value: The `Tensor` to crop.
      size: A 1-D int32 `Tensor`, the size of the crop, one entry per dimension of `value`.
      seed: A Python integer, the op seed (see `tf.set_random_seed`).
      name: A name for the operation (optional).

    Returns:
      A cropped `Tensor` of the rank and type of `value` and shape `size`.

    Raises:
      InvalidArgumentError: At run time, if `value` is smaller than `size` in some dimension.
    """
    with ops.name_scope(name, "random_crop", [value, size]) as name:
        value = ops.convert_to_tensor(value, name="value")
        size = ops.convert_to_tensor(size, dtype=dtypes.int32, name="size")
        sh = shape(value)
        check = Assert(reduce_all(sh >= size), ["Need value.shape >= size, got ", sh, size], summarize=1000)
        sh = _with_dependencies([check], sh)
        limit = sh - size + 1
        offset = random_uniform(shape(sh), dtype=size.dtype, maxval=size.dtype.max, seed=seed) % limit
        return _slice(value, offset, size, name=name)



def resize_image_with_pad(image, target_height, target_width, method=0, align_corners=False):
    """Resizes an image (or each image of a batch) to fit in `target_height` x `target_width`
    keeping its aspect ratio, then pads it with zeros, centred, to exactly that size.

    Args:
      image: A 4-D `Tensor` `[batch, height, width, channels]` or a 3-D `[height, width, channels]`.
      target_height, target_width: The size of the result.
      method: A `tf.image.ResizeMethod` (default BILINEAR).
      align_corners: If True, the centers of the 4 corner pixels of the input and output are aligned.

    Returns:
      The resized and padded images, 4-D or 3-D as `image`.

    Raises:
      ValueError: If the shape of `image` is not supported, or a target is not positive.
    """
    from .image_resize_ops import resize_images
    from .math_unary_ops import floor

    with ops.name_scope(None, "resize_image_with_pad", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        assert_ops = _check_at_least_3d(image, require_static=False)
        assert_ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        image = _with_dependencies(assert_ops, image)
        _, height, width, _ = _image_dimensions(image, 4)
        f_height, f_width = cast(height, dtypes.float32), cast(width, dtypes.float32)
        f_target_height, f_target_width = cast(target_height, dtypes.float32), cast(target_width, dtypes.float32)
        ratio = maximum(f_width / f_target_width, f_height / f_target_height)
        resized_height_float = f_height / ratio
        resized_width_float = f_width / ratio
        resized_height = cast(floor(resized_height_float), dtypes.int32)
        resized_width = cast(floor(resized_width_float), dtypes.int32)
        padding_height = (f_target_height - resized_height_float) / 2
        padding_width = (f_target_width - resized_width_float) / 2
        p_height = maximum(0, cast(floor(padding_height), dtypes.int32))
        p_width = maximum(0, cast(floor(padding_width), dtypes.int32))
        resized = resize_images(image, stack([resized_height, resized_width]), method, align_corners=align_corners)
        padded = pad_to_bounding_box(resized, p_height, p_width, target_height, target_width)
        if padded.get_shape().ndims is None:
            raise ValueError("padded contains no shape.")
        return padded if is_batch else squeeze(padded, axis=[0])
