"""MobileNet v1 (Howard et al., 2017) as in Keras Applications 1.0.8."""

import warnings
from functools import partial

from .. import backend as K
from ..engine.training import Model
from ..layers.advanced_activations import ReLU
from ..layers.convolutional import Conv2D, DepthwiseConv2D, ZeroPadding2D
from ..layers.core import Activation, Dropout, Reshape
from ..layers.normalization import BatchNormalization
from ..layers.pooling import GlobalAveragePooling2D
from . import imagenet_utils
from .imagenet_utils import decode_predictions

__all__ = ["MobileNet", "decode_predictions", "preprocess_input"]

BASE_WEIGHT_PATH = "https://github.com/fchollet/deep-learning-models/releases/download/v0.6/"

preprocess_input = partial(imagenet_utils.preprocess_input, mode="tf")
preprocess_input.__doc__ = "`imagenet_utils.preprocess_input` in 'tf' mode (pixels scaled to [-1, 1])."


def _channel_axis():
    return 1 if K.image_data_format() == "channels_first" else -1


def _conv_block(inputs, filters, alpha, kernel=(3, 3), strides=(1, 1)):
    filters = int(filters * alpha)
    x = ZeroPadding2D(padding=((0, 1), (0, 1)), name="conv1_pad")(inputs)
    x = Conv2D(filters, kernel, padding="valid", use_bias=False, strides=strides, name="conv1")(x)
    x = BatchNormalization(axis=_channel_axis(), name="conv1_bn")(x)
    return ReLU(6.0, name="conv1_relu")(x)


def _depthwise_conv_block(inputs, pointwise_conv_filters, alpha, depth_multiplier=1, strides=(1, 1), block_id=1):
    pointwise_conv_filters = int(pointwise_conv_filters * alpha)
    x = inputs
    if strides != (1, 1):
        x = ZeroPadding2D(((0, 1), (0, 1)), name="conv_pad_%d" % block_id)(x)
    x = DepthwiseConv2D((3, 3), padding="same" if strides == (1, 1) else "valid", depth_multiplier=depth_multiplier,
                        strides=strides, use_bias=False, name="conv_dw_%d" % block_id)(x)
    x = BatchNormalization(axis=_channel_axis(), name="conv_dw_%d_bn" % block_id)(x)
    x = ReLU(6.0, name="conv_dw_%d_relu" % block_id)(x)
    x = Conv2D(pointwise_conv_filters, (1, 1), padding="same", use_bias=False, strides=(1, 1),
               name="conv_pw_%d" % block_id)(x)
    x = BatchNormalization(axis=_channel_axis(), name="conv_pw_%d_bn" % block_id)(x)
    return ReLU(6.0, name="conv_pw_%d_relu" % block_id)(x)


def _default_size(input_shape, sizes):
    if input_shape is None:
        return 224
    if K.image_data_format() == "channels_first":
        rows, cols = input_shape[1], input_shape[2]
    else:
        rows, cols = input_shape[0], input_shape[1]
    return rows if rows == cols and rows in sizes else 224


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3, include_top=True,  # noqa: N802
              weights="imagenet", input_tensor=None, pooling=None, classes=1000):
    """Instantiates the MobileNet architecture.

    Args:
      input_shape: Optional shape tuple, only without `include_top` or with a 128/160/192/224 square
        input; width and height at least 32.
      alpha: Width multiplier of the layers (0.25, 0.5, 0.75 or 1.0 with 'imagenet').
      depth_multiplier: Depth multiplier of the depthwise convolutions (1 with 'imagenet').
      dropout: Dropout rate before the classifier.
      include_top: Whether to include the classifier (a 1x1 convolution) at the top of the network.
      weights: None (random initialization), 'imagenet' (pre-training on ImageNet, downloaded with
        `get_file` into `~/.keras/models/`), or the path of an HDF5 weights file (loaded by topology).
      input_tensor: Optional Keras tensor (output of `layers.Input()`) or tensor to use as image input.
      pooling: Without `include_top`: None (4D output), 'avg' or 'max' (global pooling to a 2D output).
      classes: Number of classes, only with `include_top` and no 'imagenet' weights.

    Returns:
      A Keras `Model` named 'mobilenet_<alpha>_<rows>'.

    Raises:
      ValueError: for an invalid `weights`, `alpha` or `depth_multiplier` with 'imagenet', or an input
        shape or `classes` that does not fit them.
    """
    imagenet_utils._check_weights_arg(weights, include_top, classes)
    input_shape = imagenet_utils._obtain_input_shape(input_shape,
                                                     default_size=_default_size(input_shape, (128, 160, 192, 224)),
                                                     min_size=32, data_format=K.image_data_format(),
                                                     require_flatten=include_top, weights=weights)
    row_axis, col_axis = (0, 1) if K.image_data_format() == "channels_last" else (1, 2)
    rows, cols = input_shape[row_axis], input_shape[col_axis]
    if weights == "imagenet":
        if depth_multiplier != 1:
            raise ValueError("If imagenet weights are being loaded, depth multiplier must be 1")
        if alpha not in [0.25, 0.50, 0.75, 1.0]:
            raise ValueError("If imagenet weights are being loaded, alpha can be one of`0.25`, `0.50`, `0.75` or "
                             "`1.0` only.")
        if rows != cols or rows not in [128, 160, 192, 224]:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [128, 160, 192, 224]. "
                          "Weights for input shape (224, 224) will be loaded as the default.")
    img_input = imagenet_utils._image_input(input_tensor, input_shape)
    x = _conv_block(img_input, 32, alpha, strides=(2, 2))
    plan = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1), (512, 1), (512, 1),
            (512, 1), (1024, 2), (1024, 1))
    for block_id, (filters, stride) in enumerate(plan, start=1):
        x = _depthwise_conv_block(x, filters, alpha, depth_multiplier, strides=(stride, stride), block_id=block_id)
    if include_top:
        if K.image_data_format() == "channels_first":
            shape = (int(1024 * alpha), 1, 1)
        else:
            shape = (1, 1, int(1024 * alpha))
        x = GlobalAveragePooling2D()(x)
        x = Reshape(shape, name="reshape_1")(x)
        x = Dropout(dropout, name="dropout")(x)
        x = Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = Reshape((classes,), name="reshape_2")(x)
        x = Activation("softmax", name="act_softmax")(x)
    else:
        x = imagenet_utils._pool_features(x, pooling)
    model = Model(imagenet_utils._model_inputs(input_tensor, img_input), x, name="mobilenet_%0.2f_%s" % (alpha, rows))
    if weights == "imagenet":
        alpha_text = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0"}.get(alpha, "2_5")
        model_name = "mobilenet_%s_%d_tf%s.h5" % (alpha_text, rows, "" if include_top else "_no_top")
        imagenet_utils._load_model_weights(model, weights, model_name, BASE_WEIGHT_PATH + model_name)
    else:
        imagenet_utils._load_model_weights(model, weights)
    return model
