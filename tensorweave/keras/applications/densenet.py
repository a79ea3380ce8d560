"""DenseNet 121/169/201 (Huang et al., 2016) as in Keras Applications 1.0.8."""

from functools import partial

from .. import backend as K
from ..engine.training import Model
from ..layers.convolutional import Conv2D, ZeroPadding2D
from ..layers.core import Activation, Dense
from ..layers.merge import Concatenate
from ..layers.normalization import BatchNormalization
from ..layers.pooling import AveragePooling2D, GlobalAveragePooling2D, MaxPooling2D
from . import imagenet_utils
from .imagenet_utils import decode_predictions

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "decode_predictions", "preprocess_input"]

BASE_WEIGHTS_PATH = "https://github.com/keras-team/keras-applications/releases/download/densenet/"
_FILES = {
    (6, 12, 24, 16): ("densenet121", "9d60b8095a5708f2dcce2bca79d332c7", "30ee3e1110167f948a6b9946edeeb738"),
    (6, 12, 32, 32): ("densenet169", "d699b8f76981ab1b30698df4c175e90b", "b8c4d4c20dd625c148057b9ff1c1176b"),
    (6, 12, 48, 32): ("densenet201", "1ceb130c1ea1b78c3bf6114dbdfd8807", "c13680b51ded0fb44dff2d8f86ac8bb1"),
}

preprocess_input = partial(imagenet_utils.preprocess_input, mode="torch")
preprocess_input.__doc__ = ("`imagenet_utils.preprocess_input` in 'torch' mode (pixels scaled to [0, 1], then "
                            "normalized with the ImageNet channel means and deviations).")


def _bn_axis():
    return 3 if K.image_data_format() == "channels_last" else 1


def _bn(name):
    return BatchNormalization(axis=_bn_axis(), epsilon=1.001e-5, name=name)


def dense_block(x, blocks, name):
    """`blocks` conv blocks, each concatenating 32 new channels."""
    for i in range(blocks):
        x = conv_block(x, 32, name=name + "_block" + str(i + 1))
    return x


def transition_block(x, reduction, name):
    """Batch norm, ReLU, a 1x1 convolution to `reduction` times the channels and 2x2 average pooling."""
    x = _bn(name + "_bn")(x)
    x = Activation("relu", name=name + "_relu")(x)
    x = Conv2D(int(K.int_shape(x)[_bn_axis()] * reduction), 1, use_bias=False, name=name + "_conv")(x)
    return AveragePooling2D(2, strides=2, name=name + "_pool")(x)


def conv_block(x, growth_rate, name):
    """A bottleneck block whose `growth_rate` output channels are concatenated to its input."""
    x1 = _bn(name + "_0_bn")(x)
    x1 = Activation("relu", name=name + "_0_relu")(x1)
    x1 = Conv2D(4 * growth_rate, 1, use_bias=False, name=name + "_1_conv")(x1)
    x1 = _bn(name + "_1_bn")(x1)
    x1 = Activation("relu", name=name + "_1_relu")(x1)
    x1 = Conv2D(growth_rate, 3, padding="same", use_bias=False, name=name + "_2_conv")(x1)
    return Concatenate(axis=_bn_axis(), name=name + "_concat")([x, x1])


def DenseNet(blocks, include_top=True, weights="imagenet", input_tensor=None, input_shape=None,  # noqa: N802
             pooling=None, classes=1000):
    """Instantiates a DenseNet with `blocks` conv blocks in its four dense blocks.

    Args:
      blocks: The numbers of building blocks of the four dense blocks ('imagenet' weights exist for
        [6, 12, 24, 16], [6, 12, 32, 32] and [6, 12, 48, 32]).
      include_top: Whether to include the fully-connected layer at the top of the network.
      weights: None (random initialization), 'imagenet' (pre-training on ImageNet, downloaded with
        `get_file` into `~/.keras/models/`), or the path of an HDF5 weights file (loaded by topology).
      input_tensor: Optional Keras tensor (output of `layers.Input()`) or tensor to use as image input.
      input_shape: Optional shape tuple, only without `include_top` (else `(224, 224, 3)` with
        'channels_last'); exactly 3 channels with 'imagenet', width and height at least 32.
      pooling: Without `include_top`: None (4D output), 'avg' or 'max' (global pooling to a 2D output).
      classes: Number of classes, only with `include_top` and no 'imagenet' weights.

    Returns:
      A Keras `Model` named 'densenet121', 'densenet169', 'densenet201' or 'densenet'.

    Raises:
      ValueError: for an invalid `weights` (including 'imagenet' with other `blocks`), or an input shape or
        `classes` that does not fit them.
    """
    imagenet_utils._check_weights_arg(weights, include_top, classes)
    known = _FILES.get(tuple(blocks))
    if weights == "imagenet" and known is None:
        raise ValueError("There are no 'imagenet' weights for DenseNet blocks %s" % (list(blocks),))
    input_shape = imagenet_utils._obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                     data_format=K.image_data_format(),
                                                     require_flatten=include_top, weights=weights)
    img_input = imagenet_utils._image_input(input_tensor, input_shape)
    x = ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = Conv2D(64, 7, strides=2, use_bias=False, name="conv1/conv")(x)
    x = _bn("conv1/bn")(x)
    x = Activation("relu", name="conv1/relu")(x)
    x = ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = MaxPooling2D(3, strides=2, name="pool1")(x)
    for i, n in enumerate(blocks):
        x = dense_block(x, n, name="conv%d" % (i + 2))
        if i < 3:
            x = transition_block(x, 0.5, name="pool%d" % (i + 2))
    x = _bn("bn")(x)
    x = Activation("relu", name="relu")(x)
    if include_top:
        x = GlobalAveragePooling2D(name="avg_pool")(x)
        x = Dense(classes, activation="softmax", name="fc1000")(x)
    else:
        x = imagenet_utils._pool_features(x, pooling, avg_name="avg_pool", max_name="max_pool")
    model = Model(imagenet_utils._model_inputs(input_tensor, img_input), x,
                  name=known[0] if known else "densenet")
    if weights == "imagenet":
        name, top_hash, notop_hash = known
        fname = "%s_weights_tf_dim_ordering_tf_kernels%s.h5" % (name, "" if include_top else "_notop")
        imagenet_utils._load_model_weights(model, weights, fname, BASE_WEIGHTS_PATH + fname,
                                          top_hash if include_top else notop_hash)
    else:
        imagenet_utils._load_model_weights(model, weights)
    return model


def _public(blocks, name):
    def build(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
              classes=1000):
        return DenseNet(blocks, include_top, weights, input_tensor, input_shape, pooling, classes)

    build.__name__ = build.__qualname__ = name
    build.__doc__ = """Instantiates the %s architecture (`DenseNet` with blocks %s).

    Args:
      include_top: Whether to include the fully-connected layer at the top of the network.
      weights: None, 'imagenet' or the path of an HDF5 weights file.
      input_tensor: Optional Keras tensor or tensor to use as image input.
      input_shape: Optional shape tuple, only without `include_top`.
      pooling: Without `include_top`: None, 'avg' or 'max'.
      classes: Number of classes, only with `include_top` and no 'imagenet' weights.

    Returns:
      A Keras `Model`.

    Raises:
      ValueError: for an invalid `weights`, or an input shape or `classes` that does not fit them.
    """ % (name, list(blocks))
    return build


DenseNet121 = _public((6, 12, 24, 16), "DenseNet121")
DenseNet169 = _public((6, 12, 32, 32), "DenseNet169")
DenseNet201 = _public((6, 12, 48, 32), "DenseNet201")
