"""Xception V1 (Chollet, 2016) as in Keras Applications 1.0.8."""

from .. import backend as K
from ..engine.training import Model
from ..layers.convolutional import Conv2D, SeparableConv2D
from ..layers.core import Activation, Dense
from ..layers.merge import add
from ..layers.normalization import BatchNormalization
from ..layers.pooling import GlobalAveragePooling2D, MaxPooling2D
from . import imagenet_utils
from .imagenet_utils import decode_predictions
from .mobilenet import preprocess_input

__all__ = ["Xception", "decode_predictions", "preprocess_input"]

TF_WEIGHTS_PATH = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.4/"
                   "xception_weights_tf_dim_ordering_tf_kernels.h5")
TF_WEIGHTS_PATH_NO_TOP = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.4/"
                          "xception_weights_tf_dim_ordering_tf_kernels_notop.h5")


def _bn(name=None):
    return BatchNormalization(axis=1 if K.image_data_format() == "channels_first" else -1, name=name)


def _sepconv_bn(x, filters, prefix, index, relu_first=True):
    """[ReLU], a 3x3 separable convolution and batch normalization, named `<prefix>_sepconv<index>...`."""
    name = "%s_sepconv%d" % (prefix, index)
    if relu_first:
        x = Activation("relu", name=name + "_act")(x)
    x = SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return _bn(name + "_bn")(x)


def _residual(x, filters):
    residual = Conv2D(filters, (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    return _bn()(residual)


def Xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
             classes=1000):
    """Instantiates the Xception architecture.

    Args:
      include_top: Whether to include the fully-connected layer at the top of the network.
      weights: None (random initialization), 'imagenet' (pre-training on ImageNet, downloaded with
        `get_file` into `~/.keras/models/`), or the path of an HDF5 weights file (loaded by topology).
      input_tensor: Optional Keras tensor (output of `layers.Input()`) or tensor to use as image input.
      input_shape: Optional shape tuple, only without `include_top` (else `(299, 299, 3)` with
        'channels_last'); exactly 3 channels with 'imagenet', width and height at least 71.
      pooling: Without `include_top`: None (4D output), 'avg' or 'max' (global pooling to a 2D output).
      classes: Number of classes, only with `include_top` and no 'imagenet' weights.

    Returns:
      A Keras `Model` named 'xception'.

    Raises:
      ValueError: for an invalid `weights`, or an input shape or `classes` that does not fit them.
    """
    imagenet_utils._check_weights_arg(weights, include_top, classes)
    input_shape = imagenet_utils._obtain_input_shape(input_shape, default_size=299, min_size=71,
                                                     data_format=K.image_data_format(),
                                                     require_flatten=include_top, weights=weights)
    img_input = imagenet_utils._image_input(input_tensor, input_shape)

    x = Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(img_input)
    x = _bn("block1_conv1_bn")(x)
    x = Activation("relu", name="block1_conv1_act")(x)
    x = Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = _bn("block1_conv2_bn")(x)
    x = Activation("relu", name="block1_conv2_act")(x)

    residual = _residual(x, 128)
    x = _sepconv_bn(x, 128, "block2", 1, relu_first=False)
    x = _sepconv_bn(x, 128, "block2", 2)
    x = MaxPooling2D((3, 3), strides=(2, 2), padding="same", name="block2_pool")(x)
    x = add([x, residual])

    for block, filters in ((3, 256), (4, 728)):
        residual = _residual(x, filters)
        x = _sepconv_bn(x, filters, "block%d" % block, 1)
        x = _sepconv_bn(x, filters, "block%d" % block, 2)
        x = MaxPooling2D((3, 3), strides=(2, 2), padding="same", name="block%d_pool" % block)(x)
        x = add([x, residual])

    for block in range(5, 13):
        residual = x
        for index in (1, 2, 3):
            x = _sepconv_bn(x, 728, "block%d" % block, index)
        x = add([x, residual])

    residual = _residual(x, 1024)
    x = _sepconv_bn(x, 728, "block13", 1)
    x = _sepconv_bn(x, 1024, "block13", 2)
    x = MaxPooling2D((3, 3), strides=(2, 2), padding="same", name="block13_pool")(x)
    x = add([x, residual])

    x = _sepconv_bn(x, 1536, "block14", 1, relu_first=False)
    x = Activation("relu", name="block14_sepconv1_act")(x)
    x = _sepconv_bn(x, 2048, "block14", 2, relu_first=False)
    x = Activation("relu", name="block14_sepconv2_act")(x)

    if include_top:
        x = GlobalAveragePooling2D(name="avg_pool")(x)
        x = Dense(classes, activation="softmax", name="predictions")(x)
    else:
        x = imagenet_utils._pool_features(x, pooling)
    model = Model(imagenet_utils._model_inputs(input_tensor, img_input), x, name="xception")
    if include_top:
        files = ("xception_weights_tf_dim_ordering_tf_kernels.h5", TF_WEIGHTS_PATH, "0a58e3b7378bc2990ea3b43d5981f1f6")
    else:
        files = ("xception_weights_tf_dim_ordering_tf_kernels_notop.h5", TF_WEIGHTS_PATH_NO_TOP,
                 "b0042744bf5b25fce3cb969f33bebb97")
    imagenet_utils._load_model_weights(model, weights, *files)
    return model
