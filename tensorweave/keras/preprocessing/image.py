"""`tf.keras.preprocessing.image`: image files to arrays, random augmentation and batch iterators
(Keras-Preprocessing 1.1.0 semantics, as TF 1.15 ships).

Reading and writing images and brightness shifts need Pillow (the `[image]` extra); the affine
transforms (rotation, shift, shear, zoom) need SciPy's `ndimage` (the `[special]` extra).
`flow_from_dataframe` (pandas) is not provided.
"""

import multiprocessing.pool
import os
import tempfile
import threading
import warnings

import numpy as np

from .. import backend
from ..utils.data_utils import Sequence

__all__ = ["DirectoryIterator", "ImageDataGenerator", "Iterator", "NumpyArrayIterator", "apply_affine_transform",
           "apply_brightness_shift", "apply_channel_shift", "array_to_img", "img_to_array", "load_img",
           "random_brightness", "random_channel_shift", "random_rotation", "random_shear", "random_shift",
           "random_zoom", "save_img"]


def _pil():
    try:
        from PIL import Image, ImageEnhance
    except ImportError:
        raise ImportError("tf.keras.preprocessing.image needs Pillow to read, write and brighten images; install "
                          "it with the extra: pip install tensorweave[image]") from None
    return Image, ImageEnhance


def _ndimage():
    try:
        from scipy import ndimage
    except ImportError:
        raise ImportError("Image transformations (rotation, shift, shear, zoom) need SciPy's ndimage; install it "
                          "with the extra: pip install tensorweave[special]") from None
    return ndimage


def _interpolation_methods(image):
    methods = {"nearest": image.NEAREST, "bilinear": image.BILINEAR, "bicubic": image.BICUBIC}
    for name in ("hamming", "box", "lanczos"):
        if hasattr(image, name.upper()):
            methods[name] = getattr(image, name.upper())
    return methods


# ---- files and arrays -------------------------------------------------------------------------
def array_to_img(x, data_format=None, scale=True, dtype=None):
    """Converts a rank-3 array to a PIL image.

    Args:
      x: An array `(rows, cols, channels)` (channels first with `data_format='channels_first'`), with 1
        (grayscale), 3 (RGB) or 4 (RGBA) channels.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      scale: Whether to shift and scale the values to [0, 255] first (else they are cast to uint8).
      dtype: The dtype the values are converted to first (default: `floatx()`).

    Returns:
      A `PIL.Image.Image`.

    Raises:
      ImportError: Without Pillow.
      ValueError: For an array of another rank, an unknown data format or channel count.
    """
    image, _ = _pil()
    data_format = data_format or backend.image_data_format()
    x = np.asarray(x, dtype=dtype or backend.floatx())
    if x.ndim != 3:
        raise ValueError("Expected image array to have rank 3 (single image). Got array with shape: %s" % (x.shape,))
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError("Invalid data_format: %s" % data_format)
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x + max(-np.min(x), 0)
        x_max = np.max(x)
        if x_max != 0:
            x /= x_max
        x *= 255
    if x.shape[2] == 4:
        return image.fromarray(x.astype("uint8"), "RGBA")
    if x.shape[2] == 3:
        return image.fromarray(x.astype("uint8"), "RGB")
    if x.shape[2] == 1:
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError("Unsupported channel number: %s" % (x.shape[2],))


def img_to_array(img, data_format=None, dtype=None):
    """Converts a PIL image (or an array-like of rank 2 or 3) to a rank-3 array.

    Args:
      img: A PIL image.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      dtype: The output dtype (default: `floatx()`).

    Returns:
      An array `(rows, cols, channels)` (or channels first); grayscale images get one channel.

    Raises:
      ValueError: For an unknown data format or an image of another rank.
    """
    data_format = data_format or backend.image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError("Unknown data_format: %s" % data_format)
    x = np.asarray(img, dtype=dtype or backend.floatx())
    if x.ndim == 3:
        if data_format == "channels_first":
            x = x.transpose(2, 0, 1)
    elif x.ndim == 2:
        if data_format == "channels_first":
            x = x.reshape((1, x.shape[0], x.shape[1]))
        else:
            x = x.reshape((x.shape[0], x.shape[1], 1))
    else:
        raise ValueError("Unsupported image shape: %s" % (x.shape,))
    return x


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Saves an array as an image file (written to a temporary file, then moved into place).

    Args:
      path: The file path.
      x: The array (see `array_to_img`).
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      file_format: Optional format name for Pillow (default: from the file name's extension).
      scale: Whether to scale the values to [0, 255] (see `array_to_img`).
      **kwargs: Passed to `PIL.Image.Image.save`.

    Raises:
      ImportError: Without Pillow.
    """
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format in ("jpg", "jpeg"):
        warnings.warn("The JPG format does not support RGBA images, converting to RGB.")
        img = img.convert("RGB")
    path = os.fspath(path)
    if file_format is None:
        image, _ = _pil()
        image.init()
        file_format = image.EXTENSION.get(os.path.splitext(path)[1].lower())
        if file_format is None:
            raise ValueError("Unknown image file extension in %r; pass `file_format`." % path)
    elif file_format.lower() == "jpg":
        file_format = "jpeg"
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp_img_")
    try:
        with os.fdopen(fd, "wb") as f:
            img.save(f, format=file_format, **kwargs)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def load_img(path, grayscale=False, color_mode="rgb", target_size=None, interpolation="nearest"):
    """Loads an image file into a PIL image.

    Args:
      path: The file path.
      grayscale: Deprecated; use `color_mode='grayscale'`.
      color_mode: 'grayscale', 'rgb' or 'rgba'.
      target_size: Optional `(height, width)` to resize to.
      interpolation: The resampling method: 'nearest', 'bilinear', 'bicubic' (and 'hamming', 'box',
        'lanczos' with recent Pillow versions).

    Returns:
      A `PIL.Image.Image`.

    Raises:
      ImportError: Without Pillow.
      ValueError: For an unknown color mode or interpolation.
    """
    image, _ = _pil()
    if grayscale is True:
        warnings.warn('grayscale is deprecated. Please use color_mode = "grayscale"')
        color_mode = "grayscale"
    if color_mode not in ("grayscale", "rgb", "rgba"):
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    with open(path, "rb") as f:
        img = image.open(f)
        img.load()
    mode = {"grayscale": "L", "rgb": "RGB", "rgba": "RGBA"}[color_mode]
    if img.mode != mode:
        img = img.convert(mode)
    if target_size is not None:
        width_height_tuple = (target_size[1], target_size[0])
        if img.size != width_height_tuple:
            methods = _interpolation_methods(image)
            if interpolation not in methods:
                raise ValueError("Invalid interpolation method {} specified. Supported methods are {}".format(
                    interpolation, ", ".join(methods.keys())))
            img = img.resize(width_height_tuple, methods[interpolation])
    return img


# ---- transforms ------------------------------------------------------------------------------
def flip_axis(x, axis):
    """Reverses `x` along `axis`."""
    x = np.asarray(x).swapaxes(axis, 0)
    x = x[::-1, ...]
    return x.swapaxes(0, axis)


def transform_matrix_offset_center(matrix, x, y):
    """Conjugates a homogeneous 3x3 `matrix` so that it acts about the image center (Keras-Preprocessing
    1.1.0's offset `size / 2 + 0.5`)."""
    o_x = float(x) / 2 + 0.5
    o_y = float(y) / 2 + 0.5
    offset_matrix = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    reset_matrix = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return np.dot(np.dot(offset_matrix, matrix), reset_matrix)


def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=0, col_axis=1, channel_axis=2,
                           fill_mode="nearest", cval=0.0, order=1):
    """Applies an affine transform to a rank-3 image with SciPy's `ndimage.affine_transform`.

    The matrix maps output coordinates `(row, col)` to input coordinates: rotation, then shift, shear and
    zoom, about the image center.

    Args:
      x: A rank-3 array (one image).
      theta: The rotation angle in degrees.
      tx: The shift along the rows (height).
      ty: The shift along the columns (width).
      shear: The shear angle in degrees.
      zx: The zoom along the rows.
      zy: The zoom along the columns.
      row_axis, col_axis, channel_axis: The axes of `x`.
      fill_mode: 'constant', 'nearest', 'reflect' or 'wrap': how points outside the input are filled.
      cval: The value outside the input for 'constant'.
      order: The spline interpolation order.

    Returns:
      The transformed image (a new array; `x` itself when there is nothing to do).

    Raises:
      ImportError: Without SciPy (the `[special]` extra).
    """
    ndimage = _ndimage()
    transform_matrix = None
    if theta != 0:
        theta = np.deg2rad(theta)
        transform_matrix = np.array([[np.cos(theta), -np.sin(theta), 0], [np.sin(theta), np.cos(theta), 0],
                                     [0, 0, 1]])
    if tx != 0 or ty != 0:
        shift_matrix = np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]])
        transform_matrix = shift_matrix if transform_matrix is None else np.dot(transform_matrix, shift_matrix)
    if shear != 0:
        shear = np.deg2rad(shear)
        shear_matrix = np.array([[1, -np.sin(shear), 0], [0, np.cos(shear), 0], [0, 0, 1]])
        transform_matrix = shear_matrix if transform_matrix is None else np.dot(transform_matrix, shear_matrix)
    if zx != 1 or zy != 1:
        zoom_matrix = np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]])
        transform_matrix = zoom_matrix if transform_matrix is None else np.dot(transform_matrix, zoom_matrix)
    if transform_matrix is not None:
        h, w = x.shape[row_axis], x.shape[col_axis]
        transform_matrix = transform_matrix_offset_center(transform_matrix, h, w)
        x = np.rollaxis(x, channel_axis, 0)
        final_affine_matrix = transform_matrix[:2, :2]
        final_offset = transform_matrix[:2, 2]
        channel_images = [ndimage.affine_transform(x_channel, final_affine_matrix, final_offset, order=order,
                                                   mode=fill_mode, cval=cval) for x_channel in x]
        x = np.stack(channel_images, axis=0)
        x = np.rollaxis(x, 0, channel_axis + 1)
    return x


def _image_axes(row_axis, col_axis, channel_axis):
    # Keras-Preprocessing 1.1.0 passes only `channel_axis` on to `apply_affine_transform`, whose row and
    # column axes then default to 0 and 1 whatever the layout; the axes given here are passed through.
    return {"row_axis": row_axis, "col_axis": col_axis, "channel_axis": channel_axis}


def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                    interpolation_order=1):
    """Rotates an image by a random angle drawn uniformly from `[-rg, rg]` degrees (`np.random`).

    Args:
      x: A rank-3 image.
      rg: The rotation range in degrees.
      row_axis, col_axis, channel_axis: The axes of `x`.
      fill_mode, cval: As `apply_affine_transform`.
      interpolation_order: The spline interpolation order.

    Returns:
      The rotated image.
    """
    theta = np.random.uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, fill_mode=fill_mode, cval=cval, order=interpolation_order,
                                  **_image_axes(row_axis, col_axis, channel_axis))


def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                 interpolation_order=1):
    """Shifts an image by random fractions of its size: `[-hrg, hrg]` of the height, `[-wrg, wrg]` of the width.

    Args:
      x: A rank-3 image.
      wrg: The width shift range (a fraction of the width).
      hrg: The height shift range (a fraction of the height).
      row_axis, col_axis, channel_axis: The axes of `x`.
      fill_mode, cval: As `apply_affine_transform`.
      interpolation_order: The spline interpolation order.

    Returns:
      The shifted image.
    """
    h, w = x.shape[row_axis], x.shape[col_axis]
    tx = np.random.uniform(-hrg, hrg) * h
    ty = np.random.uniform(-wrg, wrg) * w
    return apply_affine_transform(x, tx=tx, ty=ty, fill_mode=fill_mode, cval=cval, order=interpolation_order,
                                  **_image_axes(row_axis, col_axis, channel_axis))


def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                 interpolation_order=1):
    """Shears an image by a random angle drawn uniformly from `[-intensity, intensity]` degrees.

    Args:
      x: A rank-3 image.
      intensity: The shear range in degrees.
      row_axis, col_axis, channel_axis: The axes of `x`.
      fill_mode, cval: As `apply_affine_transform`.
      interpolation_order: The spline interpolation order.

    Returns:
      The sheared image.
    """
    shear = np.random.uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, fill_mode=fill_mode, cval=cval, order=interpolation_order,
                                  **_image_axes(row_axis, col_axis, channel_axis))


def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                interpolation_order=1):
    """Zooms an image by random factors drawn uniformly from `zoom_range` (one per axis).

    Args:
      x: A rank-3 image.
      zoom_range: A pair `(lower, upper)`.
      row_axis, col_axis, channel_axis: The axes of `x`.
      fill_mode, cval: As `apply_affine_transform`.
      interpolation_order: The spline interpolation order.

    Returns:
      The zoomed image.

    Raises:
      ValueError: If `zoom_range` is not a pair.
    """
    if len(zoom_range) != 2:
        raise ValueError("`zoom_range` should be a tuple or list of two floats. Received: %s" % (zoom_range,))
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        zx, zy = 1, 1
    else:
        zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
    return apply_affine_transform(x, zx=zx, zy=zy, fill_mode=fill_mode, cval=cval, order=interpolation_order,
                                  **_image_axes(row_axis, col_axis, channel_axis))


def apply_channel_shift(x, intensity, channel_axis=0):
    """Adds `intensity` to every channel, clipped to the image's original [min, max].

    Args:
      x: A rank-3 image.
      intensity: The value added.
      channel_axis: The channel axis of `x`.

    Returns:
      The shifted image.
    """
    x = np.rollaxis(x, channel_axis, 0)
    min_x, max_x = np.min(x), np.max(x)
    x = np.stack([np.clip(x_channel + intensity, min_x, max_x) for x_channel in x], axis=0)
    return np.rollaxis(x, 0, channel_axis + 1)


def random_channel_shift(x, intensity_range, channel_axis=0):
    """Shifts the channels by a random value drawn uniformly from `[-intensity_range, intensity_range]`.

    Args:
      x: A rank-3 image.
      intensity_range: The shift range.
      channel_axis: The channel axis of `x`.

    Returns:
      The shifted image.
    """
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


def apply_brightness_shift(x, brightness):
    """Changes the brightness of a channels-last image with PIL's `ImageEnhance.Brightness`.

    The image goes through `array_to_img` (scaled to [0, 255] and quantized to uint8) and back, as
    Keras-Preprocessing 1.1.0 does.

    Args:
      x: A rank-3 channels-last image.
      brightness: The enhancement factor (1.0 keeps the image).

    Returns:
      A float array with values in [0, 255].

    Raises:
      ImportError: Without Pillow (the `[image]` extra).
    """
    _, image_enhance = _pil()
    img = array_to_img(x, data_format="channels_last")
    img = image_enhance.Brightness(img).enhance(brightness)
    return img_to_array(img, data_format="channels_last")


def random_brightness(x, brightness_range):
    """Changes the brightness by a factor drawn uniformly from `brightness_range`.

    Args:
      x: A rank-3 channels-last image.
      brightness_range: A pair `(lower, upper)`.

    Returns:
      The image (values in [0, 255]).

    Raises:
      ValueError: If `brightness_range` is not a pair.
    """
    if len(brightness_range) != 2:
        raise ValueError("`brightness_range should be tuple or list of two floats. Received: %s"
                         % (brightness_range,))
    u = np.random.uniform(brightness_range[0], brightness_range[1])
    return apply_brightness_shift(x, u)


# ---- iterators -------------------------------------------------------------------------------
class Iterator(Sequence):
    """Base class of the image batch iterators: a `keras.utils.Sequence` and a Python iterator.

    With a `seed`, NumPy's global generator is reseeded with `seed + total_batches_seen` before each
    batch, as Keras does, so batches (order and random transforms) repeat across runs.

    Args:
      n: The number of samples.
      batch_size: The batch size.
      shuffle: Whether to shuffle the samples at every epoch.
      seed: Optional random seed.
    """

    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n, batch_size, shuffle, seed):
        self.n = n
        self.batch_size = batch_size
        self.seed = seed
        self.shuffle = shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array = None
        self.index_generator = self._flow_index()

    def _set_index_array(self):
        self.index_array = np.arange(self.n)
        if self.shuffle:
            self.index_array = np.random.permutation(self.n)

    def __getitem__(self, idx):
        if idx >= len(self):
            raise ValueError("Asked to retrieve element {idx}, but the Sequence has length {length}".format(
                idx=idx, length=len(self)))
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        index_array = self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)]
        return self._get_batches_of_transformed_samples(index_array)

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self):
        """Reshuffles the samples (when `shuffle`)."""
        self._set_index_array()

    def reset(self):
        """Restarts the iteration at the first batch."""
        self.batch_index = 0

    def _flow_index(self):
        self.reset()
        while 1:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            current_index = 0 if self.n == 0 else (self.batch_index * self.batch_size) % self.n
            if self.n > current_index + self.batch_size:
                self.batch_index += 1
            else:
                self.batch_index = 0
            self.total_batches_seen += 1
            yield self.index_array[current_index:current_index + self.batch_size]

    def __iter__(self):
        return self

    def __next__(self):
        return self.next()

    def next(self):
        """Returns the next batch (the iteration never ends; it wraps around epochs)."""
        with self.lock:
            index_array = next(self.index_generator)
        return self._get_batches_of_transformed_samples(index_array)

    def _get_batches_of_transformed_samples(self, index_array):
        raise NotImplementedError("%s must implement _get_batches_of_transformed_samples" % type(self).__name__)


def _save_batch(batch_x, index_array, data_format, save_to_dir, save_prefix, save_format, hash_range):
    for i, j in enumerate(index_array):
        fname = "{prefix}_{index}_{hash}.{format}".format(prefix=save_prefix, index=j,
                                                          hash=np.random.randint(hash_range), format=save_format)
        save_img(os.path.join(save_to_dir, fname), batch_x[i], data_format=data_format, scale=True)


class NumpyArrayIterator(Iterator):
    """Batches of (transformed) images from NumPy arrays.

    Args:
      x: A rank-4 array of images, or a pair `(images, misc)` where `misc` (an array or a list of arrays of
        the same length) is batched alongside the images untransformed.
      y: Optional labels.
      image_data_generator: The `ImageDataGenerator` that transforms and standardizes each image.
      batch_size: The batch size.
      shuffle: Whether to shuffle the samples at every epoch.
      sample_weight: Optional sample weights.
      seed: Optional random seed.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      save_to_dir: Optional directory where the augmented images are saved.
      save_prefix: The file name prefix of saved images.
      save_format: The format of saved images ('png' or 'jpeg').
      subset: Optional 'training' or 'validation' (needs the generator's `validation_split`).
      dtype: The dtype of the image batches (default: `floatx()`).

    Raises:
      ValueError: For arrays of different lengths, an unknown subset, a split with different classes on
        each side, or images of another rank.
    """

    def __init__(self, x, y, image_data_generator, batch_size=32, shuffle=False, sample_weight=None, seed=None,
                 data_format=None, save_to_dir=None, save_prefix="", save_format="png", subset=None, dtype=None):
        data_format = data_format or backend.image_data_format()
        self.dtype = dtype = dtype or backend.floatx()
        if type(x) is tuple or type(x) is list:
            if type(x[1]) is not list:
                x_misc = [np.asarray(x[1])]
            else:
                x_misc = [np.asarray(xx) for xx in x[1]]
            x = x[0]
            for xx in x_misc:
                if len(x) != len(xx):
                    raise ValueError("All of the arrays in `x` should have the same length. Found a pair with: "
                                     "len(x[0]) = %s, len(x[?]) = %s" % (len(x), len(xx)))
        else:
            x_misc = []
        if y is not None and len(x) != len(y):
            raise ValueError("`x` (images tensor) and `y` (labels) should have the same length. Found: x.shape = %s, "
                             "y.shape = %s" % (np.asarray(x).shape, np.asarray(y).shape))
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError("`x` (images tensor) and `sample_weight` should have the same length. Found: x.shape = "
                             "%s, sample_weight.shape = %s" % (np.asarray(x).shape, np.asarray(sample_weight).shape))
        if subset is not None:
            if subset not in {"training", "validation"}:
                raise ValueError('Invalid subset name: %s; expected "training" or "validation".' % (subset,))
            split_idx = int(len(x) * image_data_generator._validation_split)
            if y is not None and not np.array_equal(np.unique(y[:split_idx]), np.unique(y[split_idx:])):
                raise ValueError("Training and validation subsets have different number of classes after the split. "
                                 "If your numpy arrays are sorted by the label, you might want to shuffle them.")
            if subset == "validation":
                x = x[:split_idx]
                x_misc = [np.asarray(xx[:split_idx]) for xx in x_misc]
                if y is not None:
                    y = y[:split_idx]
                if sample_weight is not None:
                    sample_weight = sample_weight[:split_idx]
            else:
                x = x[split_idx:]
                x_misc = [np.asarray(xx[split_idx:]) for xx in x_misc]
                if y is not None:
                    y = y[split_idx:]
                if sample_weight is not None:
                    sample_weight = sample_weight[split_idx:]
        self.x = np.asarray(x, dtype=self.dtype)
        self.x_misc = x_misc
        if self.x.ndim != 4:
            raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You passed an array with shape %s"
                             % (self.x.shape,))
        channels_axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[channels_axis] not in {1, 3, 4}:
            warnings.warn('NumpyArrayIterator is set to use the data format convention "' + data_format + '" '
                          "(channels on axis " + str(channels_axis) + "), i.e. expected either 1, 3, or 4 channels on "
                          "axis " + str(channels_axis) + ". However, it was passed an array with shape "
                          + str(self.x.shape) + " (" + str(self.x.shape[channels_axis]) + " channels).")
        self.y = np.asarray(y) if y is not None else None
        self.sample_weight = np.asarray(sample_weight) if sample_weight is not None else None
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros(tuple([len(index_array)] + list(self.x.shape)[1:]), dtype=self.dtype)
        for i, j in enumerate(index_array):
            x = self.x[j]
            params = self.image_data_generator.get_random_transform(x.shape)
            x = self.image_data_generator.apply_transform(x.astype(self.dtype), params)
            x = self.image_data_generator.standardize(x)
            batch_x[i] = x
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir, self.save_prefix, self.save_format,
                        1e4)
        batch_x_miscs = [xx[index_array] for xx in self.x_misc]
        output = (batch_x if not batch_x_miscs else [batch_x] + batch_x_miscs,)
        if self.y is None:
            return output[0]
        output += (self.y[index_array],)
        if self.sample_weight is not None:
            output += (self.sample_weight[index_array],)
        return output


def _iter_valid_files(directory, white_list_formats, follow_links):
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda x: x[0]):
        for fname in sorted(files):
            if fname.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause distortion. Please verify your '
                              "output.")
            if fname.lower().endswith(white_list_formats):
                yield root, fname


def _list_valid_filenames_in_directory(directory, white_list_formats, split, class_indices, follow_links):
    dirname = os.path.basename(directory)
    valid_files = list(_iter_valid_files(directory, white_list_formats, follow_links))
    if split:
        num_files = len(valid_files)
        start, stop = int(split[0] * num_files), int(split[1] * num_files)
        valid_files = valid_files[start:stop]
    classes = []
    filenames = []
    for root, fname in valid_files:
        classes.append(class_indices[dirname])
        absolute_path = os.path.join(root, fname)
        filenames.append(os.path.join(dirname, os.path.relpath(absolute_path, directory)))
    return classes, filenames


class DirectoryIterator(Iterator):
    """Batches of (transformed) images read from a directory with one subdirectory per class.

    Args:
      directory: The directory; each subdirectory holds the images of one class (searched recursively).
      image_data_generator: The `ImageDataGenerator` (or None for no transform).
      target_size: The `(height, width)` images are resized to.
      color_mode: 'grayscale', 'rgb' or 'rgba'.
      classes: Optional list of class subdirectory names (default: all, sorted).
      class_mode: 'categorical', 'binary', 'sparse', 'input' or None (no labels).
      batch_size: The batch size.
      shuffle: Whether to shuffle the samples at every epoch.
      seed: Optional random seed.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      save_to_dir, save_prefix, save_format: Optional saving of the augmented images.
      follow_links: Whether to follow symbolic links.
      subset: Optional 'training' or 'validation' (needs the generator's `validation_split`).
      interpolation: The resampling method of `load_img`.
      dtype: The dtype of the image batches (default: `floatx()`).

    Raises:
      ValueError: For an unknown color mode, class mode or subset.
    """

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory, image_data_generator, target_size=(256, 256), color_mode="rgb", classes=None,
                 class_mode="categorical", batch_size=32, shuffle=True, seed=None, data_format=None,
                 save_to_dir=None, save_prefix="", save_format="png", follow_links=False, subset=None,
                 interpolation="nearest", dtype=None):
        data_format = data_format or backend.image_data_format()
        dtype = dtype or backend.floatx()
        self.image_data_generator = image_data_generator
        self.target_size = tuple(target_size)
        if color_mode not in {"rgb", "rgba", "grayscale"}:
            raise ValueError('Invalid color mode: %s; expected "rgb", "rgba", or "grayscale".' % (color_mode,))
        self.color_mode = color_mode
        self.data_format = data_format
        channels = {"rgba": 4, "rgb": 3, "grayscale": 1}[color_mode]
        if data_format == "channels_last":
            self.image_shape = self.target_size + (channels,)
        else:
            self.image_shape = (channels,) + self.target_size
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        self.interpolation = interpolation
        if subset is not None:
            validation_split = image_data_generator._validation_split
            if subset == "validation":
                split = (0, validation_split)
            elif subset == "training":
                split = (validation_split, 1)
            else:
                raise ValueError('Invalid subset name: %s; expected "training" or "validation"' % (subset,))
        else:
            split = None
        self.split = split
        self.subset = subset
        self.directory = directory
        if class_mode not in self.allowed_class_modes:
            raise ValueError("Invalid class_mode: {}; expected one of: {}".format(
                class_mode, sorted(self.allowed_class_modes, key=str)))
        self.class_mode = class_mode
        self.dtype = dtype
        if not classes:
            classes = [subdir for subdir in sorted(os.listdir(directory))
                       if os.path.isdir(os.path.join(directory, subdir))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        pool = multiprocessing.pool.ThreadPool()
        try:
            results = [pool.apply_async(_list_valid_filenames_in_directory,
                                        (os.path.join(directory, subdir), self.white_list_formats, self.split,
                                         self.class_indices, follow_links)) for subdir in classes]
            classes_list = []
            self.filenames = []
            for res in results:
                cls, filenames = res.get()
                classes_list.append(cls)
                self.filenames += filenames
        finally:
            pool.close()
            pool.join()
        self.samples = len(self.filenames)
        self.classes = np.zeros((self.samples,), dtype="int32")
        i = 0
        for cls in classes_list:
            self.classes[i:i + len(cls)] = cls
            i += len(cls)
        print("Found %d images belonging to %d classes." % (self.samples, self.num_classes))
        self._filepaths = [os.path.join(self.directory, fname) for fname in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self):
        """The full paths of the image files, in sample order."""
        return self._filepaths

    @property
    def labels(self):
        """The class index of each sample."""
        return self.classes

    @property
    def sample_weight(self):
        """None (directories carry no sample weights)."""
        return None

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
        filepaths = self.filepaths
        for i, j in enumerate(index_array):
            img = load_img(filepaths[j], color_mode=self.color_mode, target_size=self.target_size,
                           interpolation=self.interpolation)
            x = img_to_array(img, data_format=self.data_format, dtype=self.dtype)
            img.close()
            if self.image_data_generator:
                params = self.image_data_generator.get_random_transform(x.shape)
                x = self.image_data_generator.apply_transform(x, params)
                x = self.image_data_generator.standardize(x)
            batch_x[i] = x
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir, self.save_prefix, self.save_format,
                        1e7)
        if self.class_mode == "input":
            batch_y = batch_x.copy()
        elif self.class_mode in {"binary", "sparse"}:
            batch_y = np.empty(len(batch_x), dtype=self.dtype)
            for i, n_observation in enumerate(index_array):
                batch_y[i] = self.classes[n_observation]
        elif self.class_mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            for i, n_observation in enumerate(index_array):
                batch_y[i, self.classes[n_observation]] = 1.0
        else:
            return batch_x
        return batch_x, batch_y


# ---- the generator ---------------------------------------------------------------------------
class ImageDataGenerator:
    """Generates batches of images with real-time augmentation.

    Args:
      featurewise_center: Subtract the dataset mean (per channel; needs `fit`).
      samplewise_center: Subtract each image's mean.
      featurewise_std_normalization: Divide by the dataset std (per channel; needs `fit`).
      samplewise_std_normalization: Divide each image by its std.
      zca_whitening: Apply ZCA whitening (needs `fit`).
      zca_epsilon: The epsilon of ZCA whitening.
      rotation_range: Random rotations in `[-rotation_range, rotation_range]` degrees.
      width_shift_range: Random horizontal shifts: a float (a fraction of the width if < 1, else pixels),
        a list of allowed values, or an int (pixels from `[-n, n)`, as NumPy's `choice`).
      height_shift_range: The same, vertically.
      brightness_range: Optional pair: random brightness factors.
      shear_range: Random shear angles in `[-shear_range, shear_range]` degrees.
      zoom_range: A float `z` (zoom in `[1 - z, 1 + z]`) or a pair `[lower, upper]`.
      channel_shift_range: Random channel shifts in `[-channel_shift_range, channel_shift_range]`.
      fill_mode: 'constant', 'nearest', 'reflect' or 'wrap'.
      cval: The fill value for 'constant'.
      horizontal_flip: Random horizontal flips.
      vertical_flip: Random vertical flips.
      rescale: Optional factor every image is multiplied with (before any other standardization).
      preprocessing_function: Optional function applied to each image (rank-3 array) first.
      data_format: 'channels_last' or 'channels_first' (default: `image_data_format()`).
      validation_split: The fraction of images reserved for the 'validation' subset, in (0, 1).
      interpolation_order: The spline order of the affine transforms.
      dtype: The dtype of the batches (default: `floatx()`).

    Raises:
      ValueError: For an unknown data format, a validation split outside (0, 1), or a malformed
        `zoom_range` / `brightness_range`.
    """

    def __init__(self, featurewise_center=False, samplewise_center=False, featurewise_std_normalization=False,
                 samplewise_std_normalization=False, zca_whitening=False, zca_epsilon=1e-6, rotation_range=0,
                 width_shift_range=0.0, height_shift_range=0.0, brightness_range=None, shear_range=0.0,
                 zoom_range=0.0, channel_shift_range=0.0, fill_mode="nearest", cval=0.0, horizontal_flip=False,
                 vertical_flip=False, rescale=None, preprocessing_function=None, data_format=None,
                 validation_split=0.0, interpolation_order=1, dtype=None):
        if data_format is None:
            data_format = backend.image_data_format()
        if dtype is None:
            dtype = backend.floatx()
        self.featurewise_center = featurewise_center
        self.samplewise_center = samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening = zca_whitening
        self.zca_epsilon = zca_epsilon
        self.rotation_range = rotation_range
        self.width_shift_range = width_shift_range
        self.height_shift_range = height_shift_range
        self.shear_range = shear_range
        self.zoom_range = zoom_range
        self.channel_shift_range = channel_shift_range
        self.fill_mode = fill_mode
        self.cval = cval
        self.horizontal_flip = horizontal_flip
        self.vertical_flip = vertical_flip
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.dtype = dtype
        self.interpolation_order = interpolation_order
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and column) or '
                             '`"channels_first"` (channel before row and column). Received: %s' % data_format)
        self.data_format = data_format
        if data_format == "channels_first":
            self.channel_axis, self.row_axis, self.col_axis = 1, 2, 3
        else:
            self.channel_axis, self.row_axis, self.col_axis = 3, 1, 2
        if validation_split and not 0 < validation_split < 1:
            raise ValueError("`validation_split` must be strictly between 0 and 1.  Received: %s" % validation_split)
        self._validation_split = validation_split
        self.mean = None
        self.std = None
        self.principal_components = None
        if np.isscalar(zoom_range):
            self.zoom_range = [1 - zoom_range, 1 + zoom_range]
        elif len(zoom_range) == 2:
            self.zoom_range = [zoom_range[0], zoom_range[1]]
        else:
            raise ValueError("`zoom_range` should be a float or a tuple or list of two floats. Received: %s"
                             % (zoom_range,))
        if zca_whitening:
            if not featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which overrides setting of "
                              "`featurewise_center`.")
            if featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which overrides setting of"
                              "`featurewise_std_normalization`.")
        if featurewise_std_normalization and not featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, which overrides "
                          "setting of `featurewise_center`.")
        if samplewise_std_normalization and not samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, which overrides "
                          "setting of `samplewise_center`.")
        if brightness_range is not None:
            if not isinstance(brightness_range, (tuple, list)) or len(brightness_range) != 2:
                raise ValueError("`brightness_range should be tuple or list of two floats. Received: %s"
                                 % (brightness_range,))
        self.brightness_range = brightness_range

    def flow(self, x, y=None, batch_size=32, shuffle=True, sample_weight=None, seed=None, save_to_dir=None,
             save_prefix="", save_format="png", subset=None):
        """Returns a `NumpyArrayIterator` over `x` (and `y`) with this generator's transforms.

        Args:
          x: A rank-4 array of images, or `(images, misc)` (see `NumpyArrayIterator`).
          y: Optional labels.
          batch_size: The batch size.
          shuffle: Whether to shuffle.
          sample_weight: Optional sample weights.
          seed: Optional random seed.
          save_to_dir, save_prefix, save_format: Optional saving of the augmented images.
          subset: Optional 'training' or 'validation'.

        Returns:
          A `NumpyArrayIterator` yielding `x` or `(x, y)` or `(x, y, sample_weight)` batches.
        """
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle, sample_weight=sample_weight,
                                  seed=seed, data_format=self.data_format, save_to_dir=save_to_dir,
                                  save_prefix=save_prefix, save_format=save_format, subset=subset, dtype=self.dtype)

    def flow_from_directory(self, directory, target_size=(256, 256), color_mode="rgb", classes=None,
                            class_mode="categorical", batch_size=32, shuffle=True, seed=None, save_to_dir=None,
                            save_prefix="", save_format="png", follow_links=False, subset=None,
                            interpolation="nearest"):
        """Returns a `DirectoryIterator` over the class subdirectories of `directory` (see there).

        Returns:
          A `DirectoryIterator` yielding `(x, y)` batches (`x` only for `class_mode=None`).
        """
        return DirectoryIterator(directory, self, target_size=target_size, color_mode=color_mode, classes=classes,
                                 class_mode=class_mode, data_format=self.data_format, batch_size=batch_size,
                                 shuffle=shuffle, seed=seed, save_to_dir=save_to_dir, save_prefix=save_prefix,
                                 save_format=save_format, follow_links=follow_links, subset=subset,
                                 interpolation=interpolation, dtype=self.dtype)

    def standardize(self, x):
        """Applies the normalization configuration in place to one image or a batch.

        Order: `preprocessing_function`, `rescale`, samplewise centering and std normalization, featurewise
        centering and std normalization, ZCA whitening (the featurewise steps warn and are skipped before
        `fit`).

        Args:
          x: A float array.

        Returns:
          The standardized array.
        """
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        if self.featurewise_center:
            if self.mean is not None:
                x -= self.mean
            else:
                warnings.warn("This ImageDataGenerator specifies `featurewise_center`, but it hasn't been fit on any "
                              "training data. Fit it first by calling `.fit(numpy_data)`.")
        if self.featurewise_std_normalization:
            if self.std is not None:
                x /= self.std + 1e-6
            else:
                warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, but it hasn't "
                              "been fit on any training data. Fit it first by calling `.fit(numpy_data)`.")
        if self.zca_whitening:
            if self.principal_components is not None:
                flatx = np.reshape(x, (-1, np.prod(x.shape[-3:])))
                whitex = np.dot(flatx, self.principal_components)
                x = np.reshape(whitex, x.shape)
            else:
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, but it hasn't been fit on any "
                              "training data. Fit it first by calling `.fit(numpy_data)`.")
        return x

    def get_random_transform(self, img_shape, seed=None):
        """Draws random transform parameters for one image from NumPy's global generator.

        Args:
          img_shape: The shape of the image (rank 3).
          seed: Optional seed for `np.random.seed`.

        Returns:
          A dict with 'theta', 'tx', 'ty', 'shear', 'zx', 'zy', 'flip_horizontal', 'flip_vertical',
          'channel_shift_intensity' and 'brightness'.
        """
        img_row_axis = self.row_axis - 1
        img_col_axis = self.col_axis - 1
        if seed is not None:
            np.random.seed(seed)
        theta = np.random.uniform(-self.rotation_range, self.rotation_range) if self.rotation_range else 0
        tx = self._random_shift(self.height_shift_range, img_shape[img_row_axis])
        ty = self._random_shift(self.width_shift_range, img_shape[img_col_axis])
        shear = np.random.uniform(-self.shear_range, self.shear_range) if self.shear_range else 0
        if self.zoom_range[0] == 1 and self.zoom_range[1] == 1:
            zx, zy = 1, 1
        else:
            zx, zy = np.random.uniform(self.zoom_range[0], self.zoom_range[1], 2)
        flip_horizontal = (np.random.random() < 0.5) * self.horizontal_flip
        flip_vertical = (np.random.random() < 0.5) * self.vertical_flip
        channel_shift_intensity = None
        if self.channel_shift_range != 0:
            channel_shift_intensity = np.random.uniform(-self.channel_shift_range, self.channel_shift_range)
        brightness = None
        if self.brightness_range is not None:
            brightness = np.random.uniform(self.brightness_range[0], self.brightness_range[1])
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_horizontal, "flip_vertical": flip_vertical,
                "channel_shift_intensity": channel_shift_intensity, "brightness": brightness}

    @staticmethod
    def _random_shift(shift_range, size):
        if not shift_range:
            return 0
        try:  # a list of allowed values, or an int (NumPy's choice over range(n))
            shift = np.random.choice(shift_range)
            shift *= np.random.choice([-1, 1])
        except ValueError:  # a float
            shift = np.random.uniform(-shift_range, shift_range)
        if np.max(shift_range) < 1:
            shift *= size
        return shift

    def apply_transform(self, x, transform_parameters):
        """Applies transform parameters (as `get_random_transform` returns) to one image.

        Args:
          x: A rank-3 image.
          transform_parameters: A dict; missing keys mean no transform.

        Returns:
          The transformed image.
        """
        img_row_axis = self.row_axis - 1
        img_col_axis = self.col_axis - 1
        img_channel_axis = self.channel_axis - 1
        p = transform_parameters
        x = apply_affine_transform(x, p.get("theta", 0), p.get("tx", 0), p.get("ty", 0), p.get("shear", 0),
                                   p.get("zx", 1), p.get("zy", 1), row_axis=img_row_axis, col_axis=img_col_axis,
                                   channel_axis=img_channel_axis, fill_mode=self.fill_mode, cval=self.cval,
                                   order=self.interpolation_order) if _has_affine(p) else x
        if p.get("channel_shift_intensity") is not None:
            x = apply_channel_shift(x, p["channel_shift_intensity"], img_channel_axis)
        if p.get("flip_horizontal", False):
            x = flip_axis(x, img_col_axis)
        if p.get("flip_vertical", False):
            x = flip_axis(x, img_row_axis)
        if p.get("brightness") is not None:
            x = apply_brightness_shift(x, p["brightness"])
        return x

    def random_transform(self, x, seed=None):
        """Applies a random transform to one image.

        Args:
          x: A rank-3 image.
          seed: Optional seed.

        Returns:
          The transformed image.
        """
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def fit(self, x, augment=False, rounds=1, seed=None):
        """Computes the dataset statistics for the featurewise normalizations and ZCA whitening.

        Args:
          x: A rank-4 array of images.
          augment: Whether to fit on randomly transformed copies.
          rounds: The number of transformed copies with `augment`.
          seed: Optional random seed.

        Raises:
          ValueError: If `x` is not of rank 4.
        """
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError("Input to `.fit()` should have rank 4. Got array with shape: " + str(x.shape))
        if x.shape[self.channel_axis] not in {1, 3, 4}:
            warnings.warn('Expected input to be images (as Numpy array) following the data format convention "'
                          + self.data_format + '" (channels on axis ' + str(self.channel_axis) + "), i.e. expected "
                          "either 1, 3 or 4 channels on axis " + str(self.channel_axis) + ". However, it was passed an "
                          "array with shape " + str(x.shape) + " (" + str(x.shape[self.channel_axis]) + " channels).")
        if seed is not None:
            np.random.seed(seed)
        x = np.copy(x)
        if augment:
            ax = np.zeros(tuple([rounds * x.shape[0]] + list(x.shape)[1:]), dtype=self.dtype)
            for r in range(rounds):
                for i in range(x.shape[0]):
                    ax[i + r * x.shape[0]] = self.random_transform(x[i])
            x = ax
        broadcast_shape = [1, 1, 1]
        broadcast_shape[self.channel_axis - 1] = x.shape[self.channel_axis]
        if self.featurewise_center:
            self.mean = np.reshape(np.mean(x, axis=(0, self.row_axis, self.col_axis)), broadcast_shape)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = np.reshape(np.std(x, axis=(0, self.row_axis, self.col_axis)), broadcast_shape)
            x /= self.std + 1e-6
        if self.zca_whitening:
            flat_x = np.reshape(x, (x.shape[0], x.shape[1] * x.shape[2] * x.shape[3]))
            sigma = np.dot(flat_x.T, flat_x) / flat_x.shape[0]
            u, s, _ = np.linalg.svd(sigma)
            s_inv = 1.0 / np.sqrt(s[np.newaxis] + self.zca_epsilon)
            self.principal_components = (u * s_inv).dot(u.T)


def _has_affine(p):
    return (p.get("theta", 0) != 0 or p.get("tx", 0) != 0 or p.get("ty", 0) != 0 or p.get("shear", 0) != 0
            or p.get("zx", 1) != 1 or p.get("zy", 1) != 1)
