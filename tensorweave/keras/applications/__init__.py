"""`tf.keras.applications` as in TF 1.15 (Keras Applications 1.0.8): VGG16/19, ResNet50, MobileNet,
MobileNetV2, InceptionV3, DenseNet121/169/201 and Xception, with the layer names of the released ImageNet
weight files (`weights='imagenet'` downloads them with `get_file`; a path loads an .h5 file by topology)."""

from . import densenet, imagenet_utils, inception_v3, mobilenet, mobilenet_v2, resnet50, vgg16, vgg19, xception
from .densenet import DenseNet121, DenseNet169, DenseNet201
from .inception_v3 import InceptionV3
from .mobilenet import MobileNet
from .mobilenet_v2 import MobileNetV2
from .resnet50 import ResNet50
from .vgg16 import VGG16
from .vgg19 import VGG19
from .xception import Xception

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "InceptionV3", "MobileNet", "MobileNetV2", "ResNet50",
           "VGG16", "VGG19", "Xception", "densenet", "imagenet_utils", "inception_v3", "mobilenet",
           "mobilenet_v2", "resnet50", "vgg16", "vgg19", "xception"]
