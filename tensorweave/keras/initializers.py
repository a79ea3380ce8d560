"""tf.keras.initializers: the Keras 2 initializers as TF 1.15 exported them.

The classes are the `tf.initializers` (init_ops) classes, except that `RandomUniform`,
`RandomNormal` and `TruncatedNormal` take Keras' defaults (`[-0.05, 0.05]`, `stddev=0.05`).
Each initializer is called as `init(shape, dtype=None, partition_info=None)` and returns a tensor.
"""

from ..framework import dtypes
from ..ops import init_ops
from .utils.generic_utils import deserialize_keras_object, get_keras_object, serialize_keras_object

__all__ = ["Constant", "GlorotNormal", "GlorotUniform", "Identity", "Initializer", "Ones", "Orthogonal",
           "RandomNormal", "RandomUniform", "TruncatedNormal", "VarianceScaling", "Zeros", "constant",
           "deserialize", "get", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform", "identity",
           "lecun_normal", "lecun_uniform", "normal", "ones", "orthogonal", "random_normal", "random_uniform",
           "serialize", "truncated_normal", "uniform", "zeros"]

Initializer = init_ops.Initializer
Zeros = init_ops.Zeros
Ones = init_ops.Ones
Constant = init_ops.Constant
VarianceScaling = init_ops.VarianceScaling
Orthogonal = init_ops.Orthogonal
Identity = init_ops.Identity
GlorotUniform = init_ops.GlorotUniform
GlorotNormal = init_ops.GlorotNormal


class RandomUniform(init_ops.RandomUniform):
    """Uniform initializer over `[minval, maxval)`, Keras defaults `minval=-0.05, maxval=0.05`."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None, dtype=dtypes.float32):
        super().__init__(minval=minval, maxval=maxval, seed=seed, dtype=dtype)


class RandomNormal(init_ops.RandomNormal):
    """Normal initializer, Keras defaults `mean=0.0, stddev=0.05`."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=dtypes.float32):
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)


class TruncatedNormal(init_ops.TruncatedNormal):
    """Truncated normal initializer, Keras defaults `mean=0.0, stddev=0.05`."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=dtypes.float32):
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)


zeros = Zeros
ones = Ones
constant = Constant
uniform = random_uniform = RandomUniform
normal = random_normal = RandomNormal
truncated_normal = TruncatedNormal
identity = Identity
orthogonal = Orthogonal
glorot_uniform = GlorotUniform
glorot_normal = GlorotNormal


def lecun_normal(seed=None):
    """LeCun normal initializer: `VarianceScaling(1., "fan_in", "truncated_normal")`."""
    return VarianceScaling(scale=1., mode="fan_in", distribution="truncated_normal", seed=seed)


def lecun_uniform(seed=None):
    """LeCun uniform initializer: `VarianceScaling(1., "fan_in", "uniform")`."""
    return VarianceScaling(scale=1., mode="fan_in", distribution="uniform", seed=seed)


def he_normal(seed=None):
    """He normal initializer: `VarianceScaling(2., "fan_in", "truncated_normal")`."""
    return VarianceScaling(scale=2., mode="fan_in", distribution="truncated_normal", seed=seed)


def he_uniform(seed=None):
    """He uniform initializer: `VarianceScaling(2., "fan_in", "uniform")`."""
    return VarianceScaling(scale=2., mode="fan_in", distribution="uniform", seed=seed)


_CLASSES = {name: globals()[name] for name in __all__
            if name not in ("get", "serialize", "deserialize")}


def serialize(initializer):
    """Returns `{"class_name": ..., "config": ...}` for an initializer."""
    return serialize_keras_object(initializer)


def deserialize(config, custom_objects=None):
    """Builds an initializer from `serialize`'s dict (or a name).

    Raises:
      ValueError: `Unknown initializer: <name>` for an unknown class name.
    """
    return deserialize_keras_object(config, module_objects=_CLASSES, custom_objects=custom_objects,
                                    printable_module_name="initializer")


def get(identifier):
    """Returns an initializer from None, a name, a config dict or a callable.

    Raises:
      ValueError: If `identifier` cannot be interpreted.
    """
    return get_keras_object(identifier, deserialize, "initializer")
