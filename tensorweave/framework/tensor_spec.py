"""`tf.TensorSpec`: the static shape and dtype of a dense tensor (the signature of a `tf.function`
argument, a leaf of a `tf.data` element structure)."""

from . import dtypes, ops
from .tensor_shape import TensorShape, as_shape

__all__ = ["TensorSpec"]


class TensorSpec:
    """Describes a dense tensor: its static shape and dtype, as `tf.TensorSpec`.

    Args:
      shape: A `TensorShape` or anything convertible to one.
      dtype: The `DType` (default float32).
      name: An optional name.
    """

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The spec of `tensor` (its static shape and dtype)."""
        return cls(tensor.shape, tensor.dtype, name if name is not None else getattr(tensor.op, "name", None))

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    @property
    def value_type(self):
        return ops.Tensor

    def is_compatible_with(self, spec_or_tensor):
        """Whether a tensor or spec has this dtype and a compatible shape."""
        return (spec_or_tensor.dtype is self._dtype
                and self._shape.is_compatible_with(TensorShape(spec_or_tensor.shape)))

    def most_specific_compatible_type(self, other):
        """The spec both `self` and `other` satisfy.

        Raises:
          TypeError: If the dtypes or kinds differ.
        """
        if type(other) is not type(self) or other.dtype is not self._dtype:
            raise TypeError("No TypeSpec is compatible with both %s and %s" % (self, other))
        return type(self)(self._shape.most_specific_compatible_shape(other.shape), self._dtype)

    # Components: the dense tensors this leaf is carried as.
    def _component_specs(self):
        return [(self._dtype, self._shape)]

    def _to_components(self, value):
        return [value]

    def _from_components(self, components):
        return components[0]

    def __eq__(self, other):
        return (type(other) is type(self) and other._dtype is self._dtype and other._shape == self._shape
                and other._name == self._name)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self), self._dtype, self._shape))

    def __repr__(self):
        return "TensorSpec(shape=%s, dtype=%r, name=%r)" % (_shape_repr(self._shape), self._dtype, self._name)


def _shape_repr(shape):
    if shape.ndims is None:
        return "<unknown>"
    return repr(tuple(shape.as_list()))
