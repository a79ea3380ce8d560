"""VGG16 (Simonyan & Zisserman, 2014) as in Keras Applications 1.0.8."""

from functools import partial

from .. import backend as K
from ..engine.training import Model
from ..layers.convolutional import Conv2D
from ..layers.core import Dense, Flatten
from ..layers.pooling import MaxPooling2D
from . import imagenet_utils
from .imagenet_utils import decode_predictions

__all__ = ["VGG16", "decode_predictions", "preprocess_input"]

WEIGHTS_PATH = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.1/"
                "vgg16_weights_tf_dim_ordering_tf_kernels.h5")
WEIGHTS_PATH_NO_TOP = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.1/"
                       "vgg16_weights_tf_dim_ordering_tf_kernels_notop.h5")

preprocess_input = partial(imagenet_utils.preprocess_input, mode="caffe")
preprocess_input.__doc__ = "`imagenet_utils.preprocess_input` in 'caffe' mode (BGR, ImageNet means subtracted)."


def _build_vgg(name, convs_per_block, include_top, weights, input_tensor, input_shape, pooling, classes, files):
    """Builds VGG16/VGG19: five blocks of 3x3 'same' convolutions with max pooling, then the classifier."""
    imagenet_utils._check_weights_arg(weights, include_top, classes)
    input_shape = imagenet_utils._obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                     data_format=K.image_data_format(),
                                                     require_flatten=include_top, weights=weights)
    img_input = imagenet_utils._image_input(input_tensor, input_shape)
    x = img_input
    for block, (filters, n) in enumerate(zip((64, 128, 256, 512, 512), convs_per_block), start=1):
        for i in range(1, n + 1):
            x = Conv2D(filters, (3, 3), activation="relu", padding="same", name="block%d_conv%d" % (block, i))(x)
        x = MaxPooling2D((2, 2), strides=(2, 2), name="block%d_pool" % block)(x)
    if include_top:
        x = Flatten(name="flatten")(x)
        x = Dense(4096, activation="relu", name="fc1")(x)
        x = Dense(4096, activation="relu", name="fc2")(x)
        x = Dense(classes, activation="softmax", name="predictions")(x)
    else:
        x = imagenet_utils._pool_features(x, pooling)
    model = Model(imagenet_utils._model_inputs(input_tensor, img_input), x, name=name)
    (fname, origin, file_hash) = files[0] if include_top else files[1]
    imagenet_utils._load_model_weights(model, weights, fname, origin, file_hash)
    return model


def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
          classes=1000):
    """Instantiates the VGG16 architecture.

    Args:
      include_top: Whether to include the 3 fully-connected layers at the top of the network.
      weights: None (random initialization), 'imagenet' (pre-training on ImageNet, downloaded with
        `get_file` into `~/.keras/models/`), or the path of an HDF5 weights file (loaded by topology).
      input_tensor: Optional Keras tensor (output of `layers.Input()`) or tensor to use as image input.
      input_shape: Optional shape tuple, only without `include_top` (else `(224, 224, 3)` with
        'channels_last'); exactly 3 channels with 'imagenet', width and height at least 32.
      pooling: Without `include_top`: None (4D output of the last convolutional block), 'avg' or 'max'
        (global pooling to a 2D output).
      classes: Number of classes, only with `include_top` and no 'imagenet' weights.

    Returns:
      A Keras `Model` named 'vgg16'.

    Raises:
      ValueError: for an invalid `weights`, or an input shape or `classes` that does not fit them.
    """
    return _build_vgg("vgg16", (2, 2, 3, 3, 3), include_top, weights, input_tensor, input_shape, pooling, classes,
                     [("vgg16_weights_tf_dim_ordering_tf_kernels.h5", WEIGHTS_PATH,
                       "64373286793e3c8b2b4e3219cbf3544b"),
                      ("vgg16_weights_tf_dim_ordering_tf_kernels_notop.h5", WEIGHTS_PATH_NO_TOP,
                       "6d6bbae143d832006294945121d1f1fc")])
