"""ResNet50 (He et al., 2015) as in Keras Applications 1.0.8's `resnet50` module (TF 1.15's
`tf.keras.applications.ResNet50`: layers `conv1`, `bn_conv1`, `res2a_branch2a`, ..., `fc1000`)."""

import warnings

from .. import backend as K
from ..engine.training import Model
from ..layers.convolutional import Conv2D, ZeroPadding2D
from ..layers.core import Activation, Dense
from ..layers.merge import add
from ..layers.normalization import BatchNormalization
from ..layers.pooling import GlobalAveragePooling2D, MaxPooling2D
from . import imagenet_utils
from .imagenet_utils import decode_predictions
from .vgg16 import preprocess_input

__all__ = ["ResNet50", "decode_predictions", "preprocess_input"]

WEIGHTS_PATH = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.2/"
                "resnet50_weights_tf_dim_ordering_tf_kernels.h5")
WEIGHTS_PATH_NO_TOP = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.2/"
                       "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5")


def _bn_axis():
    return 3 if K.image_data_format() == "channels_last" else 1


def _block(input_tensor, kernel_size, filters, stage, block, strides=None):
    """An identity block (`strides` None) or a projection block (a 1x1 convolution on the shortcut)."""
    filters1, filters2, filters3 = filters
    conv_name = "res%d%s_branch" % (stage, block)
    bn_name = "bn%d%s_branch" % (stage, block)
    x = Conv2D(filters1, (1, 1), strides=strides or (1, 1), kernel_initializer="he_normal",
               name=conv_name + "2a")(input_tensor)
    x = BatchNormalization(axis=_bn_axis(), name=bn_name + "2a")(x)
    x = Activation("relu")(x)
    x = Conv2D(filters2, kernel_size, padding="same", kernel_initializer="he_normal", name=conv_name + "2b")(x)
    x = BatchNormalization(axis=_bn_axis(), name=bn_name + "2b")(x)
    x = Activation("relu")(x)
    x = Conv2D(filters3, (1, 1), kernel_initializer="he_normal", name=conv_name + "2c")(x)
    x = BatchNormalization(axis=_bn_axis(), name=bn_name + "2c")(x)
    shortcut = input_tensor
    if strides is not None:
        shortcut = Conv2D(filters3, (1, 1), strides=strides, kernel_initializer="he_normal",
                          name=conv_name + "1")(input_tensor)
        shortcut = BatchNormalization(axis=_bn_axis(), name=bn_name + "1")(shortcut)
    x = add([x, shortcut])
    return Activation("relu")(x)


def ResNet50(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
             classes=1000):
    """Instantiates the ResNet50 architecture.

    Args:
      include_top: Whether to include the fully-connected layer at the top of the network.
      weights: None (random initialization), 'imagenet' (pre-training on ImageNet, downloaded with
        `get_file` into `~/.keras/models/`), or the path of an HDF5 weights file (loaded by topology).
      input_tensor: Optional Keras tensor (output of `layers.Input()`) or tensor to use as image input.
      input_shape: Optional shape tuple, only without `include_top` (else `(224, 224, 3)` with
        'channels_last'); exactly 3 channels with 'imagenet', width and height at least 32.
      pooling: Without `include_top`: None (4D output of the last convolutional block), 'avg' or 'max'.
      classes: Number of classes, only with `include_top` and no 'imagenet' weights.

    Returns:
      A Keras `Model` named 'resnet50'.

    Raises:
      ValueError: for an invalid `weights`, or an input shape or `classes` that does not fit them.
    """
    imagenet_utils._check_weights_arg(weights, include_top, classes)
    input_shape = imagenet_utils._obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                     data_format=K.image_data_format(),
                                                     require_flatten=include_top, weights=weights)
    img_input = imagenet_utils._image_input(input_tensor, input_shape)
    x = ZeroPadding2D(padding=(3, 3), name="conv1_pad")(img_input)
    x = Conv2D(64, (7, 7), strides=(2, 2), padding="valid", kernel_initializer="he_normal", name="conv1")(x)
    x = BatchNormalization(axis=_bn_axis(), name="bn_conv1")(x)
    x = Activation("relu")(x)
    x = ZeroPadding2D(padding=(1, 1), name="pool1_pad")(x)
    x = MaxPooling2D((3, 3), strides=(2, 2))(x)
    stages = ((2, "abc", (64, 64, 256)), (3, "abcd", (128, 128, 512)), (4, "abcdef", (256, 256, 1024)),
              (5, "abc", (512, 512, 2048)))
    for stage, blocks, filters in stages:
        for block in blocks:
            strides = None if block != "a" else ((1, 1) if stage == 2 else (2, 2))
            x = _block(x, 3, filters, stage, block, strides)
    if include_top:
        x = GlobalAveragePooling2D(name="avg_pool")(x)
        x = Dense(classes, activation="softmax", name="fc1000")(x)
    else:
        if pooling not in ("avg", "max"):
            warnings.warn("The output shape of `ResNet50(include_top=False)` has been changed since Keras 2.2.0.")
        x = imagenet_utils._pool_features(x, pooling)
    model = Model(imagenet_utils._model_inputs(input_tensor, img_input), x, name="resnet50")
    if include_top:
        files = ("resnet50_weights_tf_dim_ordering_tf_kernels.h5", WEIGHTS_PATH, "a7b3fe01876f51b976af0dea6bc144eb")
    else:
        files = ("resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5", WEIGHTS_PATH_NO_TOP,
                 "a268eb855778b3df3c7506639542a6af")
    imagenet_utils._load_model_weights(model, weights, *files, hash_algorithm="md5")
    return model
