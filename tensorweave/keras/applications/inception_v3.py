"""Inception V3 (Szegedy et al., 2015) as in Keras Applications 1.0.8."""

from .. import backend as K
from ..engine.training import Model
from ..layers.convolutional import Conv2D
from ..layers.core import Activation, Dense
from ..layers.merge import concatenate
from ..layers.normalization import BatchNormalization
from ..layers.pooling import AveragePooling2D, GlobalAveragePooling2D, MaxPooling2D
from . import imagenet_utils
from .imagenet_utils import decode_predictions
from .mobilenet import preprocess_input

__all__ = ["InceptionV3", "decode_predictions", "preprocess_input"]

WEIGHTS_PATH = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.5/"
                "inception_v3_weights_tf_dim_ordering_tf_kernels.h5")
WEIGHTS_PATH_NO_TOP = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.5/"
                       "inception_v3_weights_tf_dim_ordering_tf_kernels_notop.h5")


def conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1), name=None):
    """A convolution without bias, a batch normalization without scale and a ReLU."""
    bn_name = None if name is None else name + "_bn"
    conv_name = None if name is None else name + "_conv"
    bn_axis = 1 if K.image_data_format() == "channels_first" else 3
    x = Conv2D(filters, (num_row, num_col), strides=strides, padding=padding, use_bias=False, name=conv_name)(x)
    x = BatchNormalization(axis=bn_axis, scale=False, name=bn_name)(x)
    return Activation("relu", name=name)(x)


def _avg_pool_branch(x, filters):
    branch_pool = AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
    return conv2d_bn(branch_pool, filters, 1, 1)


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,  # noqa: N802
                pooling=None, classes=1000):
    """Instantiates the Inception v3 architecture.

    Args:
      include_top: Whether to include the fully-connected layer at the top of the network.
      weights: None (random initialization), 'imagenet' (pre-training on ImageNet, downloaded with
        `get_file` into `~/.keras/models/`), or the path of an HDF5 weights file (loaded by topology).
      input_tensor: Optional Keras tensor (output of `layers.Input()`) or tensor to use as image input.
      input_shape: Optional shape tuple, only without `include_top` (else `(299, 299, 3)` with
        'channels_last'); exactly 3 channels with 'imagenet', width and height at least 75.
      pooling: Without `include_top`: None (4D output), 'avg' or 'max' (global pooling to a 2D output).
      classes: Number of classes, only with `include_top` and no 'imagenet' weights.

    Returns:
      A Keras `Model` named 'inception_v3'.

    Raises:
      ValueError: for an invalid `weights`, or an input shape or `classes` that does not fit them.
    """
    imagenet_utils._check_weights_arg(weights, include_top, classes)
    input_shape = imagenet_utils._obtain_input_shape(input_shape, default_size=299, min_size=75,
                                                     data_format=K.image_data_format(),
                                                     require_flatten=include_top, weights=weights)
    img_input = imagenet_utils._image_input(input_tensor, input_shape)
    channel_axis = 1 if K.image_data_format() == "channels_first" else 3

    x = conv2d_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid")
    x = conv2d_bn(x, 32, 3, 3, padding="valid")
    x = conv2d_bn(x, 64, 3, 3)
    x = MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = conv2d_bn(x, 80, 1, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, 3, padding="valid")
    x = MaxPooling2D((3, 3), strides=(2, 2))(x)

    # mixed 0, 1, 2: 35 x 35 x 256/288/288
    for i, pool_filters in enumerate((32, 64, 64)):
        branch1x1 = conv2d_bn(x, 64, 1, 1)
        branch5x5 = conv2d_bn(x, 48, 1, 1)
        branch5x5 = conv2d_bn(branch5x5, 64, 5, 5)
        branch3x3dbl = conv2d_bn(x, 64, 1, 1)
        branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3)
        branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3)
        branch_pool = _avg_pool_branch(x, pool_filters)
        x = concatenate([branch1x1, branch5x5, branch3x3dbl, branch_pool], axis=channel_axis, name="mixed%d" % i)

    # mixed 3: 17 x 17 x 768
    branch3x3 = conv2d_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
    branch3x3dbl = conv2d_bn(x, 64, 1, 1)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3, strides=(2, 2), padding="valid")
    branch_pool = MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = concatenate([branch3x3, branch3x3dbl, branch_pool], axis=channel_axis, name="mixed3")

    # mixed 4, 5, 6, 7: 17 x 17 x 768
    for i, width in enumerate((128, 160, 160, 192)):
        branch1x1 = conv2d_bn(x, 192, 1, 1)
        branch7x7 = conv2d_bn(x, width, 1, 1)
        branch7x7 = conv2d_bn(branch7x7, width, 1, 7)
        branch7x7 = conv2d_bn(branch7x7, 192, 7, 1)
        branch7x7dbl = conv2d_bn(x, width, 1, 1)
        branch7x7dbl = conv2d_bn(branch7x7dbl, width, 7, 1)
        branch7x7dbl = conv2d_bn(branch7x7dbl, width, 1, 7)
        branch7x7dbl = conv2d_bn(branch7x7dbl, width, 7, 1)
        branch7x7dbl = conv2d_bn(branch7x7dbl, 192, 1, 7)
        branch_pool = _avg_pool_branch(x, 192)
        x = concatenate([branch1x1, branch7x7, branch7x7dbl, branch_pool], axis=channel_axis,
                        name="mixed%d" % (4 + i))

    # mixed 8: 8 x 8 x 1280
    branch3x3 = conv2d_bn(x, 192, 1, 1)
    branch3x3 = conv2d_bn(branch3x3, 320, 3, 3, strides=(2, 2), padding="valid")
    branch7x7x3 = conv2d_bn(x, 192, 1, 1)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 1, 7)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 7, 1)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 3, 3, strides=(2, 2), padding="valid")
    branch_pool = MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = concatenate([branch3x3, branch7x7x3, branch_pool], axis=channel_axis, name="mixed8")

    # mixed 9, 10: 8 x 8 x 2048
    for i in range(2):
        branch1x1 = conv2d_bn(x, 320, 1, 1)
        branch3x3 = conv2d_bn(x, 384, 1, 1)
        branch3x3_1 = conv2d_bn(branch3x3, 384, 1, 3)
        branch3x3_2 = conv2d_bn(branch3x3, 384, 3, 1)
        branch3x3 = concatenate([branch3x3_1, branch3x3_2], axis=channel_axis, name="mixed9_%d" % i)
        branch3x3dbl = conv2d_bn(x, 448, 1, 1)
        branch3x3dbl = conv2d_bn(branch3x3dbl, 384, 3, 3)
        branch3x3dbl_1 = conv2d_bn(branch3x3dbl, 384, 1, 3)
        branch3x3dbl_2 = conv2d_bn(branch3x3dbl, 384, 3, 1)
        branch3x3dbl = concatenate([branch3x3dbl_1, branch3x3dbl_2], axis=channel_axis)
        branch_pool = _avg_pool_branch(x, 192)
        x = concatenate([branch1x1, branch3x3, branch3x3dbl, branch_pool], axis=channel_axis,
                        name="mixed%d" % (9 + i))

    if include_top:
        x = GlobalAveragePooling2D(name="avg_pool")(x)
        x = Dense(classes, activation="softmax", name="predictions")(x)
    else:
        x = imagenet_utils._pool_features(x, pooling)
    model = Model(imagenet_utils._model_inputs(input_tensor, img_input), x, name="inception_v3")
    if include_top:
        files = ("inception_v3_weights_tf_dim_ordering_tf_kernels.h5", WEIGHTS_PATH,
                 "9a0d58056eeedaa3f26cb7ebd46da564")
    else:
        files = ("inception_v3_weights_tf_dim_ordering_tf_kernels_notop.h5", WEIGHTS_PATH_NO_TOP,
                 "bcbd6486424b2319ff4ef7d526e38f63")
    imagenet_utils._load_model_weights(model, weights, *files)
    return model
