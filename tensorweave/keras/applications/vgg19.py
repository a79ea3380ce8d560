"""VGG19 (Simonyan & Zisserman, 2014) as in Keras Applications 1.0.8."""

from .imagenet_utils import decode_predictions
from .vgg16 import _build_vgg, preprocess_input

__all__ = ["VGG19", "decode_predictions", "preprocess_input"]

WEIGHTS_PATH = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.1/"
                "vgg19_weights_tf_dim_ordering_tf_kernels.h5")
WEIGHTS_PATH_NO_TOP = ("https://github.com/fchollet/deep-learning-models/releases/download/v0.1/"
                       "vgg19_weights_tf_dim_ordering_tf_kernels_notop.h5")


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
          classes=1000):
    """Instantiates the VGG19 architecture.

    Args:
      include_top: Whether to include the 3 fully-connected layers at the top of the network.
      weights: None (random initialization), 'imagenet' (pre-training on ImageNet, downloaded with
        `get_file` into `~/.keras/models/`), or the path of an HDF5 weights file (loaded by topology).
      input_tensor: Optional Keras tensor (output of `layers.Input()`) or tensor to use as image input.
      input_shape: Optional shape tuple, only without `include_top` (else `(224, 224, 3)` with
        'channels_last'); exactly 3 channels with 'imagenet', width and height at least 32.
      pooling: Without `include_top`: None (4D output of the last convolutional block), 'avg' or 'max'.
      classes: Number of classes, only with `include_top` and no 'imagenet' weights.

    Returns:
      A Keras `Model` named 'vgg19'.

    Raises:
      ValueError: for an invalid `weights`, or an input shape or `classes` that does not fit them.
    """
    return _build_vgg("vgg19", (2, 2, 4, 4, 4), include_top, weights, input_tensor, input_shape, pooling, classes,
                     [("vgg19_weights_tf_dim_ordering_tf_kernels.h5", WEIGHTS_PATH,
                       "cbe5617147190e668d6c5d5026f83318"),
                      ("vgg19_weights_tf_dim_ordering_tf_kernels_notop.h5", WEIGHTS_PATH_NO_TOP,
                       "253f8cb515780f3b799900260a226db6")])
