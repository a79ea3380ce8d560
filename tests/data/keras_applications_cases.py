"""Model cases shared by tests/data/make_keras_applications_tf.py (run in tf-keras on Keras Applications
1.0.8) and tests/keras/test_applications.py: the applications at their smallest valid input sizes, the
seeded weights both sides set, and the fixed input. NumPy only."""

import numpy as np

# name: (module, function, keyword arguments besides weights=None, whether the outputs are recorded)
CASES = {
    "vgg16_notop": ("vgg16", "VGG16", dict(include_top=False, input_shape=(32, 32, 3)), True),
    "vgg16_top": ("vgg16", "VGG16", dict(include_top=True, input_shape=(32, 32, 3), classes=10), True),
    "vgg19_max": ("vgg19", "VGG19", dict(include_top=False, input_shape=(32, 32, 3), pooling="max"), True),
    "resnet50_top": ("resnet50", "ResNet50", dict(include_top=True, input_shape=(32, 32, 3), classes=10), False),
    "resnet50_avg": ("resnet50", "ResNet50", dict(include_top=False, input_shape=(32, 32, 3), pooling="avg"),
                     True),
    "mobilenet_top": ("mobilenet", "MobileNet",
                      dict(include_top=True, input_shape=(32, 32, 3), alpha=0.25, classes=10), True),
    "mobilenet_notop": ("mobilenet", "MobileNet", dict(include_top=False, input_shape=(32, 32, 3), alpha=0.25),
                        True),
    "mobilenet_v2_top": ("mobilenet_v2", "MobileNetV2",
                         dict(include_top=True, input_shape=(32, 32, 3), alpha=0.35, classes=10), True),
    "mobilenet_v2_wide": ("mobilenet_v2", "MobileNetV2",
                          dict(include_top=False, input_shape=(33, 33, 3), alpha=1.3, pooling="max"), True),
    "inception_v3_avg": ("inception_v3", "InceptionV3",
                         dict(include_top=False, input_shape=(75, 75, 3), pooling="avg"), True),
    "inception_v3_top": ("inception_v3", "InceptionV3", dict(include_top=True, input_shape=(75, 75, 3), classes=7),
                         False),
    "densenet121_max": ("densenet", "DenseNet121", dict(include_top=False, input_shape=(32, 32, 3), pooling="max"),
                        True),
    "densenet169_top": ("densenet", "DenseNet169", dict(include_top=True, input_shape=(32, 32, 3), classes=10),
                        False),
    "densenet201_notop": ("densenet", "DenseNet201", dict(include_top=False, input_shape=(32, 32, 3)), False),
    "xception_avg": ("xception", "Xception", dict(include_top=False, input_shape=(71, 71, 3), pooling="avg"), True),
    "xception_top": ("xception", "Xception", dict(include_top=True, input_shape=(71, 71, 3), classes=10), False),
}

# The tf-keras weights file that tests/keras/test_applications.py loads by topology.
H5_CASE = "mobilenet_notop"


def weights(named_shapes, seed=0):
    """Seeded weights for `[(weight name, shape), ...]` (in layer order): He-scaled normal
    convolution kernels, small dense kernels and biases, batch-norm statistics that keep activations in
    range."""
    rng = np.random.RandomState(seed)
    out = []
    for name, shape in named_shapes:
        kind = name.split("/")[-1].split(":")[0]
        if kind in ("kernel", "depthwise_kernel", "pointwise_kernel"):
            fan_in = int(np.prod(shape[:-1])) if kind != "depthwise_kernel" else int(np.prod(shape[:2]))
            value = rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)
            if len(shape) == 2:
                value *= 0.05  # keeps the softmax of deep residual features away from saturation
        elif kind in ("moving_variance", "gamma"):
            value = rng.uniform(0.6, 1.4, shape)
        else:
            value = rng.uniform(-0.1, 0.1, shape)
        out.append(value.astype("float32"))
    return out


def set_weights(model, values):
    """Sets `values` (in layer order, each layer's weights in its own order) into `model`'s layers."""
    values = list(values)
    for layer in model.layers:
        n = len(layer.weights)
        if n:
            layer.set_weights(values[:n])
            values = values[n:]
    assert not values


def image(shape, seed=1):
    """The fixed input batch (2 images) for a model input shape without the batch axis."""
    return np.random.RandomState(seed).uniform(-1, 1, (2,) + tuple(shape)).astype("float32")
