"""`tf.contrib.slim.nets.inception`: Inception V1, V2 and V3 under one namespace (TF 1.15's
`nets/inception.py`, without Inception V4 and Inception-ResNet V2, which this package does not provide)."""

from .inception_v1 import inception_v1, inception_v1_arg_scope, inception_v1_base
from .inception_v2 import inception_v2, inception_v2_arg_scope, inception_v2_base
from .inception_v3 import inception_v3, inception_v3_arg_scope, inception_v3_base

__all__ = ["inception_v1", "inception_v1_arg_scope", "inception_v1_base", "inception_v2", "inception_v2_arg_scope",
           "inception_v2_base", "inception_v3", "inception_v3_arg_scope", "inception_v3_base"]
