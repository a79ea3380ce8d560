"""`tf.contrib.slim.nets`: TF 1.15's slim model zoo networks, with TF's scopes, variable names and end
points (so checkpoints written by tf-slim restore): `alexnet`, `inception` (`inception_v1`, `inception_v2`,
`inception_v3`), `lenet`, `mobilenet_v1`, `overfeat`, `resnet_utils`, `resnet_v1`, `resnet_v2` and `vgg`."""

from . import (alexnet, inception, inception_v1, inception_v2, inception_v3, lenet, mobilenet_v1, overfeat,
               resnet_utils, resnet_v1, resnet_v2, vgg)

__all__ = ["alexnet", "inception", "inception_v1", "inception_v2", "inception_v3", "lenet", "mobilenet_v1",
           "overfeat", "resnet_utils", "resnet_v1", "resnet_v2", "vgg"]
