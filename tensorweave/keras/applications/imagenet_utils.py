"""ImageNet preprocessing, prediction decoding and the shared helpers of `tf.keras.applications` (Keras
Applications 1.0.8, as TF 1.15 ships it)."""

import json
import os
import warnings

import numpy as np

from .. import backend as K
from ..engine.base_layer import is_keras_tensor, keras_history
from ..utils import data_utils

__all__ = ["decode_predictions", "preprocess_input"]

CLASS_INDEX = None
CLASS_INDEX_PATH = "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json"
CLASS_INDEX_HASH = "c2c37ea517e94d9795004a39431a14cb"

_CAFFE_MEAN = (103.939, 116.779, 123.68)
_TORCH_MEAN = (0.485, 0.456, 0.406)
_TORCH_STD = (0.229, 0.224, 0.225)


def _check_mode(mode):
    if mode not in ("caffe", "tf", "torch"):
        raise ValueError("Unknown preprocessing mode %r; expected 'caffe', 'tf' or 'torch'." % (mode,))


def _channel_shape(ndim, data_format):
    """Broadcast shape of a per-channel vector for an image (batch) of rank `ndim`."""
    shape = [1] * ndim
    shape[-1 if data_format == "channels_last" else ndim - 3] = 3
    return shape


def _preprocess_numpy_input(x, data_format, mode):
    if not issubclass(x.dtype.type, np.floating):
        x = x.astype(K.floatx(), copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    if mode == "torch":
        x /= 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        if data_format == "channels_first":
            x = x[::-1, ...] if x.ndim == 3 else x[:, ::-1, ...]
        else:
            x = x[..., ::-1]
        mean, std = _CAFFE_MEAN, None
    shape = _channel_shape(x.ndim, data_format)
    x -= np.reshape(np.asarray(mean, x.dtype), shape)
    if std is not None:
        x /= np.reshape(np.asarray(std, x.dtype), shape)
    return x


def _preprocess_symbolic_input(x, data_format, mode):
    if mode == "tf":
        x = x / 127.5
        return x - 1.0
    if mode == "torch":
        x = x / 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        if data_format == "channels_first":
            x = x[::-1, ...] if K.ndim(x) == 3 else x[:, ::-1, ...]
        else:
            x = x[..., ::-1]
        mean, std = _CAFFE_MEAN, None
    x = K.bias_add(x, K.constant(-np.array(mean), dtype=K.dtype(x)), data_format=data_format)
    if std is not None:
        x = x / K.constant(np.reshape(std, _channel_shape(K.ndim(x), data_format)), dtype=K.dtype(x))
    return x


def preprocess_input(x, data_format=None, mode="caffe"):
    """Preprocesses a tensor or NumPy array encoding a batch of images.

    Args:
      x: A NumPy array or a symbolic tensor, 3D or 4D, with 3 color channels (RGB). A floating NumPy
        array is modified in place, as in Keras (pass `np.copy(x)` to keep it).
      data_format: `'channels_first'` or `'channels_last'` (default `K.image_data_format()`).
      mode: `'caffe'`: RGB to BGR, then subtract the ImageNet channel means, no scaling; `'tf'`: scale to
        [-1, 1]; `'torch'`: scale to [0, 1], then normalize with the ImageNet means and deviations.

    Returns:
      The preprocessed array or tensor.

    Raises:
      ValueError: for an unknown `data_format` or `mode`.
    """
    if data_format is None:
        data_format = K.image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("Unknown data_format " + str(data_format))
    _check_mode(mode)
    if isinstance(x, np.ndarray):
        return _preprocess_numpy_input(x, data_format, mode)
    return _preprocess_symbolic_input(x, data_format, mode)


def decode_predictions(preds, top=5):
    """Decodes the predictions of an ImageNet model.

    The class index (`imagenet_class_index.json`) is fetched once with `get_file` into
    `~/.keras/models/`; offline, only a cached copy works.

    Args:
      preds: NumPy array of predictions, shape `(samples, 1000)`.
      top: How many top guesses to return per sample.

    Returns:
      One list per sample of `(class_name, class_description, score)` tuples, best first.

    Raises:
      ValueError: if `preds` is not of shape `(samples, 1000)`.
      Exception: `'URL fetch failure on ...'` when the class index is not cached and cannot be downloaded.
    """
    global CLASS_INDEX
    preds = np.asarray(preds)
    if len(preds.shape) != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape "
                         "(samples, 1000)). Found array with shape: " + str(preds.shape))
    if CLASS_INDEX is None:
        fpath = data_utils.get_file("imagenet_class_index.json", CLASS_INDEX_PATH, cache_subdir="models",
                                    file_hash=CLASS_INDEX_HASH)
        with open(fpath) as f:
            CLASS_INDEX = json.load(f)
    results = []
    for pred in preds:
        top_indices = pred.argsort()[-top:][::-1]
        result = [tuple(CLASS_INDEX[str(i)]) + (pred[i],) for i in top_indices]
        result.sort(key=lambda item: item[2], reverse=True)
        results.append(result)
    return results


def _obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten, weights=None):
    """Computes and validates a model's input shape (without the batch axis), as Keras Applications does."""
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        if data_format == "channels_first":
            if input_shape[0] not in {1, 3}:
                warnings.warn("This model usually expects 1 or 3 input channels. However, it was passed an "
                              "input_shape with " + str(input_shape[0]) + " input channels.")
            default_shape = (input_shape[0], default_size, default_size)
        else:
            if input_shape[-1] not in {1, 3}:
                warnings.warn("This model usually expects 1 or 3 input channels. However, it was passed an "
                              "input_shape with " + str(input_shape[-1]) + " input channels.")
            default_shape = (default_size, default_size, input_shape[-1])
    elif data_format == "channels_first":
        default_shape = (3, default_size, default_size)
    else:
        default_shape = (default_size, default_size, 3)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and tuple(input_shape) != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` weights, `input_shape` "
                             "should be " + str(default_shape) + ".")
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        input_shape = tuple(input_shape)
        if data_format == "channels_first":
            channels, spatial = input_shape[0], input_shape[1:]
        else:
            channels, spatial = input_shape[-1], input_shape[:2]
        if channels != 3 and weights == "imagenet":
            raise ValueError("The input must have 3 channels; got `input_shape=" + str(input_shape) + "`")
        if any(s is not None and s < min_size for s in spatial):
            raise ValueError("Input size must be at least " + str(min_size) + "x" + str(min_size) +
                             "; got `input_shape=" + str(input_shape) + "`")
    elif require_flatten:
        input_shape = default_shape
    elif data_format == "channels_first":
        input_shape = (3, None, None)
    else:
        input_shape = (None, None, 3)
    if require_flatten and None in input_shape:
        raise ValueError("If `include_top` is True, you should specify a static `input_shape`. Got "
                         "`input_shape=" + str(input_shape) + "`")
    return input_shape


def _correct_pad(inputs, kernel_size):
    """The `((top, bottom), (left, right))` zero padding of a strided 'valid' convolution that matches 'same'."""
    img_dim = 2 if K.image_data_format() == "channels_first" else 1
    input_size = K.int_shape(inputs)[img_dim:img_dim + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    if input_size[0] is None:
        adjust = (1, 1)
    else:
        adjust = (1 - input_size[0] % 2, 1 - input_size[1] % 2)
    correct = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((correct[0] - adjust[0], correct[0]), (correct[1] - adjust[1], correct[1]))


def _get_source_inputs(tensor):
    """The Keras `Input` tensors that `tensor` was computed from (in first-visited order)."""
    history = keras_history(tensor)
    if history is None:
        return [tensor]
    layer, node_index, _ = history
    node = layer._inbound_nodes[node_index]
    if not node.inbound_layers:
        return [tensor]
    sources = []
    for inbound, index, t_index in zip(node.inbound_layers, node.node_indices, node.tensor_indices):
        outputs = inbound._inbound_nodes[index].output_tensors
        outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
        for x in _get_source_inputs(outputs[t_index]):
            if not any(x is s for s in sources):
                sources.append(x)
    return sources


def _check_weights_arg(weights, include_top, classes):
    """Validates the `weights` and `classes` arguments shared by all applications."""
    if not (weights in {"imagenet", None} or (isinstance(weights, (str, os.PathLike)) and os.path.exists(weights))):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded.")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights` as `\"imagenet\"` with `include_top` as true, `classes` should "
                         "be 1000")


def _image_input(input_tensor, input_shape):
    """The model's image input: a new `Input`, `input_tensor` itself if it is a Keras tensor, or an `Input`
    wrapping it."""
    from ..engine.input_layer import Input

    if input_tensor is None:
        return Input(shape=input_shape)
    if not is_keras_tensor(input_tensor):
        return Input(tensor=input_tensor, shape=input_shape)
    return input_tensor


def _model_inputs(input_tensor, img_input):
    if input_tensor is not None:
        return _get_source_inputs(input_tensor)
    return img_input


def _pool_features(x, pooling, avg_name=None, max_name=None):
    """The `pooling` argument's global pooling of the features of a model without its top."""
    from ..layers.pooling import GlobalAveragePooling2D, GlobalMaxPooling2D

    if pooling == "avg":
        return GlobalAveragePooling2D(name=avg_name)(x)
    if pooling == "max":
        return GlobalMaxPooling2D(name=max_name)(x)
    return x


def _load_model_weights(model, weights, fname=None, origin=None, file_hash=None, hash_algorithm="auto"):
    """Loads `weights` into `model`: None does nothing, 'imagenet' fetches `origin` with `get_file`
    (into `~/.keras/models/`), anything else is the path of an HDF5 weights file (loaded by topology).

    Raises:
      Exception: when the ImageNet file is not cached and cannot be downloaded (the message says where to
        put the file).
    """
    if weights is None:
        return
    if weights == "imagenet":
        try:
            weights = data_utils.get_file(fname, origin, cache_subdir="models", file_hash=file_hash,
                                          hash_algorithm=hash_algorithm)
        except Exception as e:
            raise Exception(
                "%s; the ImageNet weights of %r could not be downloaded. Offline, copy %s into "
                "~/.keras/models/ or pass `weights=` the path of the .h5 file." % (e, model.name, fname)) from e
    model.load_weights(weights)
