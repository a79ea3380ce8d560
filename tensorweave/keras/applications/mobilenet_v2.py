"""MobileNetV2 (Sandler et al., 2018) as in Keras Applications 1.0.8."""

import warnings

from .. import backend as K
from ..engine.training import Model
from ..layers.advanced_activations import ReLU
from ..layers.convolutional import Conv2D, DepthwiseConv2D, ZeroPadding2D
from ..layers.core import Dense
from ..layers.merge import Add
from ..layers.normalization import BatchNormalization
from ..layers.pooling import GlobalAveragePooling2D
from . import imagenet_utils
from .imagenet_utils import _correct_pad, decode_predictions
from .mobilenet import _default_size, preprocess_input

__all__ = ["MobileNetV2", "decode_predictions", "preprocess_input"]

BASE_WEIGHT_PATH = "https://github.com/JonathanCMitchell/mobilenet_v2_keras/releases/download/v1.1/"


def _make_divisible(v, divisor, min_value=None):
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def _bn(name):
    axis = 1 if K.image_data_format() == "channels_first" else -1
    return BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name=name)


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id):
    channel_axis = 1 if K.image_data_format() == "channels_first" else -1
    in_channels = K.int_shape(inputs)[channel_axis]
    pointwise_filters = _make_divisible(int(filters * alpha), 8)
    x = inputs
    prefix = "block_{}_".format(block_id)
    if block_id:
        x = Conv2D(expansion * in_channels, kernel_size=1, padding="same", use_bias=False, activation=None,
                   name=prefix + "expand")(x)
        x = _bn(prefix + "expand_BN")(x)
        x = ReLU(6.0, name=prefix + "expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = ZeroPadding2D(padding=_correct_pad(x, 3), name=prefix + "pad")(x)
    x = DepthwiseConv2D(kernel_size=3, strides=stride, activation=None, use_bias=False,
                        padding="same" if stride == 1 else "valid", name=prefix + "depthwise")(x)
    x = _bn(prefix + "depthwise_BN")(x)
    x = ReLU(6.0, name=prefix + "depthwise_relu")(x)
    x = Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False, activation=None,
               name=prefix + "project")(x)
    x = _bn(prefix + "project_BN")(x)
    if in_channels == pointwise_filters and stride == 1:
        return Add(name=prefix + "add")([inputs, x])
    return x


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                pooling=None, classes=1000):
    """Instantiates the MobileNetV2 architecture.

    Args:
      input_shape: Optional shape tuple, only without `include_top` or with a 96/128/160/192/224 square
        input; width and height at least 32.
      alpha: Width multiplier (0.35, 0.5, 0.75, 1.0, 1.3 or 1.4 with 'imagenet').
      include_top: Whether to include the fully-connected layer at the top of the network.
      weights: None (random initialization), 'imagenet' (pre-training on ImageNet, downloaded with
        `get_file` into `~/.keras/models/`), or the path of an HDF5 weights file (loaded by topology).
      input_tensor: Optional Keras tensor (output of `layers.Input()`) or tensor to use as image input.
      pooling: Without `include_top`: None (4D output), 'avg' or 'max' (global pooling to a 2D output).
      classes: Number of classes, only with `include_top` and no 'imagenet' weights.

    Returns:
      A Keras `Model` named 'mobilenetv2_<alpha>_<rows>'.

    Raises:
      ValueError: for an invalid `weights`, an `alpha` without ImageNet weights, or an input shape or
        `classes` that does not fit them.
    """
    imagenet_utils._check_weights_arg(weights, include_top, classes)
    if input_shape is None and input_tensor is not None and K.is_keras_tensor(input_tensor):
        shape = K.int_shape(input_tensor)
        input_shape_guess = shape[1:] if len(shape) == 4 else None
        default_size = _default_size(input_shape_guess, (96, 128, 160, 192, 224))
    else:
        default_size = _default_size(input_shape, (96, 128, 160, 192, 224))
    input_shape = imagenet_utils._obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                     data_format=K.image_data_format(),
                                                     require_flatten=include_top, weights=weights)
    row_axis, col_axis = (0, 1) if K.image_data_format() == "channels_last" else (1, 2)
    rows, cols = input_shape[row_axis], input_shape[col_axis]
    if weights == "imagenet":
        if alpha not in [0.35, 0.50, 0.75, 1.0, 1.3, 1.4]:
            raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.35`, `0.50`, `0.75`, "
                             "`1.0`, `1.3` or `1.4` only.")
        if rows != cols or rows not in [96, 128, 160, 192, 224]:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [96, 128, 160, 192, "
                          "224]. Weights for input shape (224, 224) will be loaded as the default.")
    img_input = imagenet_utils._image_input(input_tensor, input_shape)
    first_block_filters = _make_divisible(32 * alpha, 8)
    x = ZeroPadding2D(padding=_correct_pad(img_input, 3), name="Conv1_pad")(img_input)
    x = Conv2D(first_block_filters, kernel_size=3, strides=(2, 2), padding="valid", use_bias=False, name="Conv1")(x)
    x = _bn("bn_Conv1")(x)
    x = ReLU(6.0, name="Conv1_relu")(x)
    plan = ((16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6), (64, 2, 6), (64, 1, 6),
            (64, 1, 6), (64, 1, 6), (96, 1, 6), (96, 1, 6), (96, 1, 6), (160, 2, 6), (160, 1, 6), (160, 1, 6),
            (320, 1, 6))
    for block_id, (filters, stride, expansion) in enumerate(plan):
        x = _inverted_res_block(x, filters=filters, alpha=alpha, stride=stride, expansion=expansion,
                                block_id=block_id)
    last_block_filters = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = Conv2D(last_block_filters, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = _bn("Conv_1_bn")(x)
    x = ReLU(6.0, name="out_relu")(x)
    if include_top:
        x = GlobalAveragePooling2D()(x)
        x = Dense(classes, activation="softmax", use_bias=True, name="Logits")(x)
    else:
        x = imagenet_utils._pool_features(x, pooling)
    model = Model(imagenet_utils._model_inputs(input_tensor, img_input), x,
                  name="mobilenetv2_%0.2f_%s" % (alpha, rows))
    if weights == "imagenet":
        model_name = "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_%s_%s%s.h5" % (
            alpha, rows, "" if include_top else "_no_top")
        imagenet_utils._load_model_weights(model, weights, model_name, BASE_WEIGHT_PATH + model_name)
    else:
        imagenet_utils._load_model_weights(model, weights)
    return model
