"""tf.keras.regularizers: weight regularizers (Keras 2)."""

from ..ops import math_ops
from .utils.generic_utils import deserialize_keras_object, get_keras_object, serialize_keras_object

__all__ = ["L1L2", "Regularizer", "deserialize", "get", "l1", "l1_l2", "l2", "serialize"]


class Regularizer:
    """Regularizer base class: `regularizer(x)` returns a scalar penalty tensor."""

    def __call__(self, x):
        return 0.

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    """Regularizer for L1 and L2 penalties: `l1 * sum(|x|) + l2 * sum(x ** 2)`.

    Args:
      l1: Float; L1 regularization factor.
      l2: Float; L2 regularization factor.
    """

    def __init__(self, l1=0., l2=0.):
        self.l1 = float(l1)
        self.l2 = float(l2)

    def __call__(self, x):
        if not self.l1 and not self.l2:
            return 0.
        regularization = 0.
        if self.l1:
            regularization += self.l1 * math_ops.reduce_sum(math_ops.abs(x))
        if self.l2:
            regularization += self.l2 * math_ops.reduce_sum(math_ops.square(x))
        return regularization

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


def l1(l=0.01):  # noqa: E741
    """L1 regularizer with factor `l`."""
    return L1L2(l1=l)


def l2(l=0.01):  # noqa: E741
    """L2 regularizer with factor `l`."""
    return L1L2(l2=l)


def l1_l2(l1=0.01, l2=0.01):  # noqa: F811
    """L1 + L2 regularizer."""
    return L1L2(l1=l1, l2=l2)


_OBJECTS = {"L1L2": L1L2, "Regularizer": Regularizer, "l1": l1, "l2": l2, "l1_l2": l1_l2}


def serialize(regularizer):
    """Returns `{"class_name": ..., "config": ...}` for a regularizer."""
    return serialize_keras_object(regularizer)


def deserialize(config, custom_objects=None):
    """Builds a regularizer from `serialize`'s dict (or a name).

    Raises:
      ValueError: `Unknown regularizer: <name>` for an unknown class name.
    """
    return deserialize_keras_object(config, module_objects=_OBJECTS, custom_objects=custom_objects,
                                    printable_module_name="regularizer")


def get(identifier):
    """Returns a regularizer from None, a name, a config dict or a callable.

    Raises:
      ValueError: If `identifier` cannot be interpreted.
    """
    return get_keras_object(identifier, deserialize, "regularizer")
