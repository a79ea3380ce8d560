"""`tf.data.experimental.Optional`, `OptionalStructure` and `get_next_as_optional`: a value that may be
absent, held in a scalar `tf.variant` tensor (the ops of `tensorweave.ops.optional_ops`)."""

from ..framework import ops
from ..ops import optional_ops
from . import structure

__all__ = ["Optional", "OptionalStructure", "get_next_as_optional"]


class OptionalStructure(structure._VariantOfElementSpec):
    """The type of an `Optional` (`tf.OptionalSpec`): the structure of the value it may hold.

    Args:
      element_spec: A nest of `tf.TensorSpec` (or `SparseTensorSpec`).
    """

    @property
    def value_type(self):
        return Optional

    def __repr__(self):
        return "OptionalSpec(%r)" % (self._element_spec,)


class Optional:
    """Represents a value that may or may not be present.

    Made by `tf.data.experimental.get_next_as_optional(iterator)` (empty at the end of the data),
    `Optional.from_value(value)` or `Optional.empty(element_spec)`.

    Example:

      opt = tf.data.experimental.get_next_as_optional(iterator)
      value = tf.cond(opt.has_value(), opt.get_value, lambda: default)
    """

    def __init__(self, variant, element_spec):
        self._variant = variant
        self._element_spec = element_spec

    @staticmethod
    def from_value(value):
        """An `Optional` holding `value` (a nest of tensors).

        Returns:
          An `Optional`.
        """
        with ops.name_scope("optional") as scope:
            with ops.name_scope("value"):
                value = structure.normalize_element(value)
                spec = structure.structure_of(value)
                components = structure.to_components(spec, value)
            return Optional(optional_ops.optional_from_value(components, name=scope), spec)

    @staticmethod
    def empty(element_spec):
        """An empty `Optional` of the given element structure.

        Returns:
          An `Optional`.
        """
        return Optional(optional_ops.optional_none(), element_spec)

    @staticmethod
    def none_from_structure(value_structure):
        """An empty `Optional` (TF 1.x's name of `empty`).

        Returns:
          An `Optional`.
        """
        return Optional.empty(value_structure)

    def has_value(self, name=None):
        """A scalar `tf.bool` tensor: whether this optional holds a value."""
        return optional_ops.optional_has_value(self._variant, name=name)

    def get_value(self, name=None):
        """The value (a nest of tensors of `element_spec`); running it on an empty optional raises
        `tf.errors.InvalidArgumentError`."""
        specs = [(dt, shape.as_tuple()) for dt, shape in structure.component_specs(self._element_spec)]
        outs = optional_ops.optional_get_value(self._variant, specs, name=name)
        if isinstance(outs, ops.Tensor) or hasattr(outs, "numpy"):
            outs = [outs]
        elif isinstance(outs, ops.Operation) or outs is None:
            outs = []
        return structure.from_components(self._element_spec, list(outs))

    @property
    def element_spec(self):
        """The structure (nest of `tf.TensorSpec`) of the value."""
        return self._element_spec

    value_structure = element_spec

    @property
    def _type_spec(self):
        return OptionalStructure(self._element_spec)


def get_next_as_optional(iterator):
    """The next element of `iterator` as an `Optional`, empty at the end of the data (instead of
    raising `tf.errors.OutOfRangeError`).

    Args:
      iterator: A `tf.data.Iterator` (or, in eager mode, a dataset iterator).

    Returns:
      An `Optional` of the iterator's element structure.
    """
    from .iterator_ops import EagerIterator
    spec = iterator.element_spec
    if isinstance(iterator, EagerIterator):
        el = iterator._state.get_next()
        if el is None:
            return Optional.empty(spec)
        comps = [ops.convert_to_tensor(v, dtype=dt) for v, (dt, _) in zip(el, structure.component_specs(spec))]
        return Optional.from_value(structure.from_components(spec, comps))
    specs = [(dt, shape.as_tuple()) for dt, shape in structure.component_specs(spec)]
    return Optional(optional_ops.iterator_get_next_as_optional(iterator._iterator_resource, specs), spec)
