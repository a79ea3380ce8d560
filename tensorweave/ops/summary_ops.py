"""Summary ops (`tf.summary.scalar`, `image`, `histogram`, `audio`, `text`, `tensor_summary`, `merge`,
`merge_all`): each kernel returns a serialized `Summary` protocol buffer as a string scalar, as in TF.

The messages are TensorBoard's own protobuf definitions (`tensorboard.compat.proto`), images are
PNG-encoded with Pillow: both come with the optional `tensorboard` extra, which is imported lazily,
when a summary op is created, so that `import tensorweave` needs NumPy only.
"""

import bisect
import importlib
import io
import logging
import re
import sys
import wave

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.constant_op import constant
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["scalar", "image", "histogram", "audio", "text", "tensor_summary", "merge", "merge_all",
           "require_extra", "proto_module", "make_tensor_proto", "DEFAULT_BUCKET_LIMITS"]

# The pip distribution that provides each importable top-level module.
_DISTRIBUTION = {"PIL": "pillow", "google": "protobuf"}


def require_extra(module, feature, extra="tensorboard"):
    """Imports an optional dependency, or explains which extra of tensorweave provides it.

    Args:
      module: The module to import ("tensorboard.compat.proto.summary_pb2").
      feature: What needs it, for the message ("tf.summary.scalar").
      extra: The name of the extra in tensorweave's `pyproject.toml`.

    Returns:
      The module.

    Raises:
      ImportError: If the module can't be imported; the message names the extra to install.
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        top = module.split(".")[0]
        raise ImportError(
            "%s needs the optional dependency '%s' (module '%s' could not be imported: %s). Install the '%s' extra: "
            "pip install 'tensorweave[%s]'" % (feature, _DISTRIBUTION.get(top, top), module, e, extra, extra)) from e


def proto_module(name, feature):
    """TensorBoard's compiled protobuf module `name` ("summary_pb2", "event_pb2", ...)."""
    return require_extra("tensorboard.compat.proto." + name, feature)


def _text(v):
    """A string tensor element as Python text (proto string fields are unicode)."""
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


def _string_scalar(b):
    out = np.empty((), dtype=object)
    out[()] = b
    return out


def _shape_string(shape):
    """TensorShape::DebugString: `[2,8,8]`."""
    return "[%s]" % ",".join(str(d) for d in shape)


def make_tensor_proto(array, dtype):
    """A `TensorProto` holding `array` as TF's `Tensor::AsProtoTensorContent` (`AsProtoField` for strings).

    Args:
      array: A NumPy array.
      dtype: Its `DType`.

    Returns:
      A `tensorboard.compat.proto.tensor_pb2.TensorProto`.
    """
    tensor_pb2 = proto_module("tensor_pb2", "make_tensor_proto")
    array = np.asarray(array)
    proto = tensor_pb2.TensorProto(dtype=dtype.as_datatype_enum)
    for d in array.shape:
        proto.tensor_shape.dim.add(size=int(d))
    if dtype is dtypes.string:
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode("utf-8") for v in array.reshape(-1))
    else:
        proto.tensor_content = np.ascontiguousarray(array, dtype=np.dtype(dtype.as_numpy_dtype).newbyteorder("<")
                                                    ).tobytes()
    return proto


def _serialize(values, feature):
    summary_pb2 = proto_module("summary_pb2", feature)
    return _string_scalar(summary_pb2.Summary(value=values).SerializeToString())


# ---- tags, scopes and collections (TF's summary_op_util) --------------------------------------
_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w\.]")


def _clean_tag(name):
    """Replaces characters TensorBoard can't use by "_" and drops leading slashes."""
    if name is not None:
        new_name = _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")
        if new_name != name:
            logging.getLogger("tensorflow").info("Summary name %s is illegal; using %s instead.", name, new_name)
            name = new_name
    return name


class _SummaryScope:
    """`with _SummaryScope(name, family, values) as (tag, scope)`: the op's name scope and its tag."""

    def __init__(self, name, family, values):
        self._name = _clean_tag(name)
        self._family = _clean_tag(family)
        base = self._name if self._family is None else "%s/%s" % (self._family, self._name)
        self._scope = ops.name_scope(base, None, values)

    def __enter__(self):
        scope = self._scope.__enter__()
        tag = scope.rstrip("/")
        if self._family is not None:
            tag = "%s/%s" % (self._family, tag)
        return tag, scope

    def __exit__(self, *exc):
        return self._scope.__exit__(*exc)


def _collect(val, collections, default_collections):
    for key in (default_collections if collections is None else collections):
        ops.add_to_collection(key, val)


_REAL_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint8, dtypes.int16, dtypes.int8, dtypes.int64,
               dtypes.uint16, dtypes.float16)


def _check_type(op_type, param, dtype, allowed):
    if dtype not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (param, dtype.name, ", ".join(d.name for d in allowed)))


def _string_out(op):
    return [(dtypes.string, ())]


def _tag_input(tag, name="tag"):
    return constant(tag, dtype=dtypes.string, name=name)


# ---- ScalarSummary ------------------------------------------------------------------------------
def _scalar_summary_infer(op):
    _check_type("ScalarSummary", "values", op._inputs[1].dtype, _REAL_TYPES)
    return _string_out(op)


def _scalar_summary_kernel(xp, tags, values, T):  # noqa: N803 (TF's attr name)
    if tags.shape != values.shape:
        single = " (tag '%s')" % _text(tags.reshape(-1)[0]) if tags.size == 1 else ""
        raise errors.InvalidArgumentError(None, None, "tags and values not the same shape: %s != %s%s" % (
            _shape_string(tags.shape), _shape_string(values.shape), single))
    summary_pb2 = proto_module("summary_pb2", "ScalarSummary")
    return _serialize([summary_pb2.Summary.Value(tag=_text(t), simple_value=float(np.float32(v)))
                       for t, v in zip(tags.reshape(-1), values.reshape(-1))], "ScalarSummary")


register_op("ScalarSummary", infer=_scalar_summary_infer, kernel=_scalar_summary_kernel, grad=NO_GRADIENT)


def scalar(name, tensor, collections=None, family=None):
    """Outputs a `Summary` protocol buffer containing a single scalar value.

    The generated Summary has a Tensor.proto containing the input Tensor.

    Args:
      name: A name for the generated node. Will also serve as the series name in TensorBoard.
      tensor: A real numeric Tensor containing a single value.
      collections: Optional list of graph collections keys. The new summary op is added to these
        collections. Defaults to `[GraphKeys.SUMMARIES]`.
      family: Optional; if provided, used as the prefix of the summary tag name, which controls the
        tab name used for display on Tensorboard.

    Returns:
      A scalar `Tensor` of type `string`, which contains a `Summary` protobuf.

    Raises:
      TypeError: If `tensor` is not of a real numeric type.
      ImportError: If the `tensorboard` extra is not installed.
      InvalidArgumentError: At run time, if `tensor` is not a scalar.
    """
    proto_module("summary_pb2", "tf.summary.scalar")
    with _SummaryScope(name, family, [tensor]) as (tag, scope):
        with ops.name_scope(scope):
            values = ops.convert_to_tensor(tensor, name="values")
            tags = _tag_input(tag, name="tags")
        val = ops.apply_op("ScalarSummary", [tags, values], {"T": values.dtype}, name=scope)
        _collect(val, collections, [ops.GraphKeys.SUMMARIES])
    return val


# ---- ImageSummary -------------------------------------------------------------------------------
_IMAGE_TYPES = (dtypes.uint8, dtypes.float32, dtypes.float16, dtypes.float64)
_RED = np.array([255, 0, 0, 255], np.uint8)


def _image_summary_infer(op):
    _check_type("ImageSummary", "tensor", op._inputs[1].dtype, _IMAGE_TYPES)
    return _string_out(op)


def _normalize_float_image(values, bad_color):
    """One `[h*w, depth]` float image to uint8, as TF's NormalizeFloatImage: all-positive images are scaled
    so that their maximum is 255, others so that 0 maps to 128 and the largest magnitude to 1 or 255;
    pixels with a non-finite channel get `bad_color`."""
    t = values.dtype.type
    finite = np.isfinite(values).all(axis=1)
    good = values[finite].astype(np.float32)
    image_min = good.min() if good.size else np.float32(np.inf)
    image_max = good.max() if good.size else np.float32(-np.inf)
    if image_min < 0:
        max_val = max(abs(image_min), abs(image_max))
        scale = t(0.0 if max_val < 1e-6 else np.float32(127.0) / max_val)
        offset = t(128.0)
    else:
        scale = t(0.0 if image_max < 1e-6 else np.float32(255.0) / image_max)
        offset = t(0.0)
    with np.errstate(invalid="ignore", over="ignore"):
        out = (values * scale + offset).astype(np.uint8)
    out[~finite] = bad_color
    return out


def _encode_png(pixels, feature):
    """`pixels` `[h, w, depth]` uint8 as PNG bytes (zlib's default compression, as TF)."""
    pil_image = require_extra("PIL.Image", feature)
    mode = {1: "L", 3: "RGB", 4: "RGBA"}[pixels.shape[2]]
    img = pil_image.fromarray(np.ascontiguousarray(pixels[:, :, 0] if mode == "L" else pixels), mode=mode)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _image_summary_kernel(xp, tag, tensor, max_images, bad_color, T):  # noqa: N803 (TF's attr name)
    shape = tensor.shape
    if not (tensor.ndim == 4 and shape[3] in (1, 3, 4)):
        raise errors.InvalidArgumentError(
            None, None, "Tensor must be 4-D with last dim 1, 3, or 4, not %s" % _shape_string(shape))
    if not (shape[1] < 2 ** 31 and shape[2] < 2 ** 31 and shape[1] * shape[2] < 2 ** 29):
        raise errors.InvalidArgumentError(None, None, "Tensor too large for summary %s" % _shape_string(shape))
    batch, h, w, depth = shape
    if tensor.dtype != np.uint8 and bad_color.shape[0] < depth:
        raise errors.InvalidArgumentError(None, None, "expected depth <= bad_color.size, got depth = %d, "
                                          "bad_color.size = %d" % (depth, bad_color.shape[0]))
    summary_pb2 = proto_module("summary_pb2", "ImageSummary")
    base = _text(tag[()])
    values = []
    for i in range(min(max_images, batch)):
        pixels = tensor[i].reshape(h * w, depth)
        if tensor.dtype != np.uint8:
            pixels = _normalize_float_image(pixels, bad_color[:depth])
        try:
            encoded = _encode_png(pixels.reshape(h, w, depth), "ImageSummary")
        except ImportError:
            raise
        except Exception as e:
            raise errors.InternalError(None, None, "PNG encoding failed") from e
        values.append(summary_pb2.Summary.Value(
            tag="%s/image/%d" % (base, i) if max_images > 1 else "%s/image" % base,
            image=summary_pb2.Summary.Image(height=h, width=w, colorspace=depth, encoded_image_string=encoded)))
    return _serialize(values, "ImageSummary")


register_op("ImageSummary", infer=_image_summary_infer, kernel=_image_summary_kernel, grad=NO_GRADIENT)


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """Outputs a `Summary` protocol buffer with images.

    The summary has up to `max_outputs` summary values containing images. The images are built from
    `tensor` which must be 4-D with shape `[batch_size, height, width, channels]` and where `channels`
    can be 1 (grayscale), 3 (RGB) or 4 (RGBA).

    The images have the same number of channels as the input tensor. For float input, the values are
    normalized one image at a time to fit in the range `[0, 255]`. `uint8` values are unchanged. The op
    uses two different normalization algorithms:

    *  If the input values are all positive, they are rescaled so the largest one is 255.
    *  If any input value is negative, the values are shifted so input value 0.0 is at 127. They are
       then rescaled so that either the smallest value is 0, or the largest one is 255.

    Non-finite pixels are drawn red. The tag of each value is 'name/image' if `max_outputs` is 1, and
    'name/image/0', 'name/image/1', ... otherwise.

    Args:
      name: A name for the generated node. Will also serve as a series name in TensorBoard.
      tensor: A 4-D `uint8`, `float32`, `float16` or `float64` `Tensor` of shape
        `[batch_size, height, width, channels]` where `channels` is 1, 3, or 4.
      max_outputs: Max number of batch elements to generate images for.
      collections: Optional list of graph collections keys. Defaults to `[GraphKeys.SUMMARIES]`.
      family: Optional; if provided, used as the prefix of the summary tag name.

    Returns:
      A scalar `Tensor` of type `string`. The serialized `Summary` protocol buffer.

    Raises:
      TypeError: If `tensor` has another dtype.
      ValueError: If `max_outputs` is less than 1.
      ImportError: If the `tensorboard` extra is not installed.
      InvalidArgumentError: At run time, if `tensor` is not 4-D with 1, 3 or 4 channels.
    """
    proto_module("summary_pb2", "tf.summary.image")
    require_extra("PIL.Image", "tf.summary.image")
    max_outputs = int(max_outputs)
    if max_outputs < 1:
        raise ValueError("Attr 'max_images' of 'ImageSummary' Op passed %d less than minimum 1." % max_outputs)
    with _SummaryScope(name, family, [tensor]) as (tag, scope):
        with ops.name_scope(scope):
            tensor = ops.convert_to_tensor(tensor, name="tensor")
            tag_t = _tag_input(tag)
        val = ops.apply_op("ImageSummary", [tag_t, tensor],
                           {"max_images": max_outputs, "bad_color": _RED, "T": tensor.dtype}, name=scope)
        _collect(val, collections, [ops.GraphKeys.SUMMARIES])
    return val


# ---- HistogramSummary ---------------------------------------------------------------------------
def _default_bucket_limits():
    """TF's histogram::Histogram bucket limits: +-1e-12 growing by 10% up to 1e20, then +-DBL_MAX, and 0."""
    pos = []
    v = 1.0e-12
    while v < 1.0e20:
        pos.append(v)
        v *= 1.1
    pos.append(sys.float_info.max)
    return [-x for x in reversed(pos)] + [0.0] + pos


DEFAULT_BUCKET_LIMITS = np.array(_default_bucket_limits(), np.float64)
DEFAULT_BUCKET_LIMITS.flags.writeable = False


def _first_equal(values, extreme):
    """The first value equal to `extreme`: TF's Histogram keeps the first of equal values (of -0 and
    +0, the first one's sign), where NumPy's min and max may return either."""
    return float(values[int(np.argmax(values == extreme))])


def _histogram_proto(values, summary_pb2):
    """A `HistogramProto` of `values` (float64, finite) as TF's Histogram::EncodeToProto, runs of empty
    buckets merged into one."""
    limits = DEFAULT_BUCKET_LIMITS
    index = np.minimum(np.searchsorted(limits, values, side="right"), limits.size - 1)
    counts = np.bincount(index, minlength=limits.size).astype(np.float64)
    proto = summary_pb2.HistogramProto(
        min=_first_equal(values, values.min()) if values.size else sys.float_info.max,
        max=_first_equal(values, values.max()) if values.size else -sys.float_info.max,
        num=float(values.size),
        # TF accumulates one value at a time.
        sum=float(np.cumsum(values)[-1]) if values.size else 0.0,
        sum_squares=float(np.cumsum(values * values)[-1]) if values.size else 0.0)
    i, n = 0, limits.size
    nonzero = np.flatnonzero(counts)
    while i < n:
        if counts[i] == 0.0:
            # A run of empty buckets ends just before the next non-empty one.
            k = bisect.bisect_right(nonzero, i)
            j = int(nonzero[k]) if k < nonzero.size else n
            end = max(i, j - 1)
            proto.bucket_limit.append(float(limits[end]))
            proto.bucket.append(0.0)
            i = end + 1
        else:
            proto.bucket_limit.append(float(limits[i]))
            proto.bucket.append(float(counts[i]))
            i += 1
    return proto


def _histogram_summary_infer(op):
    _check_type("HistogramSummary", "values", op._inputs[1].dtype, _REAL_TYPES)
    return _string_out(op)


def _histogram_summary_kernel(xp, tag, values, T):  # noqa: N803 (TF's attr name)
    flat = values.reshape(-1).astype(np.float64)
    bad = ~np.isfinite(flat)
    if bad.any():
        kind = "Nan" if np.isnan(flat[np.argmax(bad)]) else "Infinity"
        raise errors.InvalidArgumentError(None, None, "%s in summary histogram for: %s" % (kind, _text(tag[()])))
    summary_pb2 = proto_module("summary_pb2", "HistogramSummary")
    return _serialize([summary_pb2.Summary.Value(tag=_text(tag[()]), histo=_histogram_proto(flat, summary_pb2))],
                      "HistogramSummary")


register_op("HistogramSummary", infer=_histogram_summary_infer, kernel=_histogram_summary_kernel, grad=NO_GRADIENT)


def histogram(name, values, collections=None, family=None):
    """Outputs a `Summary` protocol buffer with a histogram.

    Adding a histogram summary makes it possible to visualize your data's distribution in TensorBoard.
    The buckets are TF's default ones: 0, and +-1e-12 growing by 10% up to 1e20, then +-DBL_MAX; runs
    of empty buckets are stored as one.

    Args:
      name: A name for the generated node. Will also serve as a series name in TensorBoard.
      values: A real numeric `Tensor`. Any shape. Values to use to build the histogram.
      collections: Optional list of graph collections keys. Defaults to `[GraphKeys.SUMMARIES]`.
      family: Optional; if provided, used as the prefix of the summary tag name.

    Returns:
      A scalar `Tensor` of type `string`. The serialized `Summary` protocol buffer.

    Raises:
      TypeError: If `values` is not of a real numeric type.
      ImportError: If the `tensorboard` extra is not installed.
      InvalidArgumentError: At run time, if `values` holds a NaN or an infinity.
    """
    proto_module("summary_pb2", "tf.summary.histogram")
    with _SummaryScope(name, family, [values]) as (tag, scope):
        with ops.name_scope(scope):
            values = ops.convert_to_tensor(values, name="values")
            tag_t = _tag_input(tag)
        val = ops.apply_op("HistogramSummary", [tag_t, values], {"T": values.dtype}, name=scope)
        _collect(val, collections, [ops.GraphKeys.SUMMARIES])
    return val


# ---- AudioSummaryV2 -----------------------------------------------------------------------------
def _audio_summary_infer(op):
    _check_type("AudioSummaryV2", "tensor", op._inputs[1].dtype, (dtypes.float32,))
    _check_type("AudioSummaryV2", "sample_rate", op._inputs[2].dtype, (dtypes.float32,))
    return _string_out(op)


def _encode_wav(frames, sample_rate):
    """`frames` `[length, channels]` float32 in [-1, 1] as a 16-bit PCM WAV file (TF's EncodeAudioAsS16LEWav)."""
    scaled = (frames.astype(np.float32) * np.float32(32768.0)).astype(np.float64)
    # roundf: halves away from zero (exact in float64 for float32 inputs).
    pcm = np.clip(np.trunc(scaled + np.copysign(0.5, scaled)), -32768, 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(frames.shape[1])
        w.setsampwidth(2)
        w.setframerate(sample_rate)
        w.writeframes(pcm.tobytes())
    return buf.getvalue()


def _audio_summary_kernel(xp, tag, tensor, sample_rate, max_outputs):
    if tensor.ndim not in (2, 3):
        raise errors.InvalidArgumentError(None, None, "Shape of audio must be 2-D or 3-D, got %s"
                                          % _shape_string(tensor.shape))
    if sample_rate.ndim != 0:
        raise errors.InvalidArgumentError(None, None, "sample_rate must be rank 0, got %s"
                                          % _shape_string(sample_rate.shape))
    rate = np.float32(sample_rate)
    if not rate > 0:
        raise errors.InvalidArgumentError(None, None, "sample_rate must be > 0")
    batch, length = tensor.shape[:2]
    channels = 1 if tensor.ndim == 2 else tensor.shape[2]
    frames = tensor.reshape(batch, length, channels)
    # lrintf: round half to even; at least 1 Hz in the WAV header.
    rate_int = max(int(np.rint(rate)), 1)
    summary_pb2 = proto_module("summary_pb2", "AudioSummaryV2")
    base = _text(tag[()])
    values = [summary_pb2.Summary.Value(
        tag="%s/audio/%d" % (base, i) if max_outputs > 1 else "%s/audio" % base,
        audio=summary_pb2.Summary.Audio(sample_rate=float(rate), num_channels=channels, length_frames=length,
                                        content_type="audio/wav",
                                        encoded_audio_string=_encode_wav(frames[i], rate_int)))
        for i in range(min(max_outputs, batch))]
    return _serialize(values, "AudioSummaryV2")


register_op("AudioSummaryV2", infer=_audio_summary_infer, kernel=_audio_summary_kernel, grad=NO_GRADIENT)


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """Outputs a `Summary` protocol buffer with audio.

    The summary has up to `max_outputs` summary values containing audio. The audio is built from
    `tensor` which must be 3-D with shape `[batch_size, frames, channels]` or 2-D with shape
    `[batch_size, frames]`. The values are assumed to be in the range of `[-1.0, 1.0]` with a sample
    rate of `sample_rate`; they are stored as 16-bit WAV. The tag of each value is 'name/audio' if
    `max_outputs` is 1, and 'name/audio/0', 'name/audio/1', ... otherwise.

    Args:
      name: A name for the generated node. Will also serve as a series name in TensorBoard.
      tensor: A 3-D `float32` `Tensor` of shape `[batch_size, frames, channels]` or a 2-D `float32`
        `Tensor` of shape `[batch_size, frames]`.
      sample_rate: A Scalar `float32` `Tensor` indicating the sample rate of the signal in hertz.
      max_outputs: Max number of batch elements to generate audio for.
      collections: Optional list of graph collections keys. Defaults to `[GraphKeys.SUMMARIES]`.
      family: Optional; if provided, used as the prefix of the summary tag name.

    Returns:
      A scalar `Tensor` of type `string`. The serialized `Summary` protocol buffer.

    Raises:
      TypeError: If `tensor` is not `float32`.
      ValueError: If `max_outputs` is less than 1.
      ImportError: If the `tensorboard` extra is not installed.
      InvalidArgumentError: At run time, for a tensor of another rank or a non-positive sample rate.
    """
    proto_module("summary_pb2", "tf.summary.audio")
    max_outputs = int(max_outputs)
    if max_outputs < 1:
        raise ValueError("Attr 'max_outputs' of 'AudioSummaryV2' Op passed %d less than minimum 1." % max_outputs)
    with _SummaryScope(name, family, [tensor]) as (tag, scope):
        with ops.name_scope(scope):
            tensor = ops.convert_to_tensor(tensor, name="tensor")
            sample_rate = ops.convert_to_tensor(sample_rate, dtype=dtypes.float32, name="sample_rate")
            tag_t = _tag_input(tag)
        val = ops.apply_op("AudioSummaryV2", [tag_t, tensor, sample_rate], {"max_outputs": max_outputs},
                           name=scope)
        _collect(val, collections, [ops.GraphKeys.SUMMARIES])
    return val


# ---- TensorSummaryV2 (tf.summary.text, tf.summary.tensor_summary) ---------------------------------
def _tensor_summary_infer(op):
    return _string_out(op)


def _tensor_summary_kernel(xp, tag, tensor, serialized_summary_metadata, T):  # noqa: N803 (TF's attr name)
    summary_pb2 = proto_module("summary_pb2", "TensorSummaryV2")
    metadata = summary_pb2.SummaryMetadata.FromString(serialized_summary_metadata)
    value = summary_pb2.Summary.Value(tag=_text(tag[()]), metadata=metadata, tensor=make_tensor_proto(tensor, T))
    return _serialize([value], "TensorSummaryV2")


register_op("TensorSummaryV2", infer=_tensor_summary_infer, kernel=_tensor_summary_kernel, grad=NO_GRADIENT)


def tensor_summary(name, tensor, summary_description=None, collections=None, summary_metadata=None,
                   family=None, display_name=None):
    """Outputs a `Summary` protocol buffer with a serialized tensor.proto.

    Args:
      name: A name for the generated node. If display_name is not set, it will also serve as the tag
        name in TensorBoard.
      tensor: A tensor of any type and shape to serialize.
      summary_description: A long description of the summary sequence. Markdown is supported.
      collections: Optional list of graph collections keys. Defaults to `[GraphKeys.SUMMARIES]`.
      summary_metadata: Optional `SummaryMetadata` proto (which describes which plugins may use the
        summary value).
      family: Optional; if provided, used as the prefix of the summary tag, which controls the name
        used for display on TensorBoard when display_name is not set.
      display_name: A string used to name this data in TensorBoard.

    Returns:
      A scalar `Tensor` of type `string`. The serialized `Summary` protocol buffer.

    Raises:
      ImportError: If the `tensorboard` extra is not installed.
    """
    summary_pb2 = proto_module("summary_pb2", "tf.summary.tensor_summary")
    metadata = summary_pb2.SummaryMetadata()
    if summary_metadata is not None:
        metadata.CopyFrom(summary_metadata)
    if summary_description is not None:
        metadata.summary_description = summary_description
    if display_name is not None:
        metadata.display_name = display_name
    with _SummaryScope(name, family, [tensor]) as (tag, scope):
        with ops.name_scope(scope):
            tensor = ops.convert_to_tensor(tensor, name="tensor")
            tag_t = _tag_input(tag)
        val = ops.apply_op("TensorSummaryV2", [tag_t, tensor],
                           {"serialized_summary_metadata": metadata.SerializeToString(), "T": tensor.dtype},
                           name=scope)
        _collect(val, collections, [ops.GraphKeys.SUMMARIES])
    return val


def text(name, tensor, collections=None):
    """Summarizes textual data.

    Text data summarized via this plugin will be visible in the Text Dashboard in TensorBoard. The
    standard TensorBoard Text Dashboard will render markdown in the strings, and will automatically
    organize 1d and 2d tensors into tables.

    Args:
      name: A name for the generated node. Will also serve as a series name in TensorBoard.
      tensor: A string-type Tensor to summarize.
      collections: Optional list of graph collections keys. Defaults to `[GraphKeys.SUMMARIES]`.

    Returns:
      A TensorSummary op that is configured so that TensorBoard will recognize that it contains
      textual data.

    Raises:
      ValueError: If tensor has the wrong type.
      ImportError: If the `tensorboard` extra is not installed.
    """
    tensor = ops.convert_to_tensor(tensor)
    if tensor.dtype != dtypes.string:
        raise ValueError("Expected tensor %s to have dtype string, got %s" % (tensor.name, tensor.dtype))
    summary_pb2 = proto_module("summary_pb2", "tf.summary.text")
    metadata = summary_pb2.SummaryMetadata(plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="text"))
    return tensor_summary(name=name, tensor=tensor, summary_metadata=metadata, collections=collections)


# ---- MergeSummary -------------------------------------------------------------------------------
def _merge_summary_infer(op):
    for t in op._inputs:
        _check_type("MergeSummary", "inputs", t.dtype, (dtypes.string,))
    return _string_out(op)


def _merge_summary_kernel(xp, *inputs, N):  # noqa: N803 (TF's attr name)
    summary_pb2 = proto_module("summary_pb2", "MergeSummary")
    merged = summary_pb2.Summary()
    tags = set()
    for arr in inputs:
        for s in arr.reshape(-1):
            part = summary_pb2.Summary()
            try:
                part.ParseFromString(s if isinstance(s, bytes) else str(s).encode("utf-8"))
            except Exception as e:
                raise errors.InvalidArgumentError(None, None, "Could not parse one of the summary inputs") from e
            for v in part.value:
                # TensorSummary values may share the empty tag.
                if v.tag and v.tag in tags:
                    raise errors.InvalidArgumentError(None, None,
                                                      "Duplicate tag %s found in summary inputs " % v.tag)
                tags.add(v.tag)
                merged.value.add().CopyFrom(v)
    return _string_scalar(merged.SerializeToString())


register_op("MergeSummary", infer=_merge_summary_infer, kernel=_merge_summary_kernel, grad=NO_GRADIENT)


def merge(inputs, collections=None, name=None):
    """Merges summaries.

    This op creates a `Summary` protocol buffer that contains the union of all the values in the input
    summaries.

    Args:
      inputs: A list of `string` `Tensor` objects containing serialized `Summary` protocol buffers.
      collections: Optional list of graph collections keys. The new summary op is added to these
        collections. Defaults to `[]`.
      name: A name for the operation (optional).

    Returns:
      A scalar `Tensor` of type `string`. The serialized `Summary` protocol buffer resulting from the
      merging.

    Raises:
      RuntimeError: If called with eager mode enabled.
      ValueError: If `inputs` is empty.
      ImportError: If the `tensorboard` extra is not installed.
      InvalidArgumentError: At run time, if two inputs hold the same tag.
    """
    if ops.get_default_graph()._eager:
        raise RuntimeError("Merging tf.summary.* ops is not compatible with eager execution. "
                           "Use tf.contrib.summary instead.")
    proto_module("summary_pb2", "tf.summary.merge")
    inputs = list(inputs)
    if not inputs:
        raise ValueError("List argument 'inputs' to 'MergeSummary' Op with length 0 shorter than minimum length 1.")
    name = _clean_tag(name)
    with ops.name_scope(name, "Merge", inputs):
        inputs = [ops.convert_to_tensor(x) for x in inputs]
        val = ops.apply_op("MergeSummary", inputs, {"N": len(inputs)}, name=name)
        _collect(val, collections, [])
    return val


def merge_all(key=ops.GraphKeys.SUMMARIES, scope=None, name=None):
    """Merges all summaries collected in the default graph.

    Args:
      key: `GraphKey` used to collect the summaries. Defaults to `GraphKeys.SUMMARIES`.
      scope: Optional scope used to filter the summary ops, using `re.match`.
      name: A name for the operation (optional).

    Returns:
      If no summaries were collected, returns None. Otherwise returns a scalar `Tensor` of type
      `string` containing the serialized `Summary` protocol buffer resulting from the merging.

    Raises:
      RuntimeError: If called with eager execution enabled.
    """
    if ops.get_default_graph()._eager:
        raise RuntimeError("Merging tf.summary.* ops is not compatible with eager execution. "
                           "Use tf.contrib.summary instead.")
    summary_ops = ops.get_collection(key, scope=scope)
    if not summary_ops:
        return None
    return merge(summary_ops, name=name)
