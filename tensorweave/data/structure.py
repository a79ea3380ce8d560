"""Element structures of `tf.data`: nests of tuples, namedtuples and dicts whose leaves are
`TensorSpec`, `SparseTensorSpec` or `DatasetSpec`. As in `tf.data`, a Python list is not a nest but
one tensor (a list returned by a map function is read as a tuple). Dict entries are ordered by
sorted key. Each leaf spec stands for one or more *components*, the dense tensors an iterator
passes around (a SparseTensor is three: indices, values, dense_shape)."""

import numpy as np

from ..framework import dtypes, ops
from ..framework.tensor_shape import TensorShape, as_shape
from ..framework.tensor_spec import TensorSpec


def _sparse_module():
    from ..framework import sparse_tensor
    return sparse_tensor


def _is_sparse(x):
    return type(x).__name__ in ("SparseTensor", "SparseTensorValue") and hasattr(x, "dense_shape")


# ---- nests -------------------------------------------------------------------------------------
def is_nested(x):
    """Whether `x` is a tuple, namedtuple or dict (a list or SparseTensorValue is a leaf)."""
    return isinstance(x, (tuple, dict)) and not _is_sparse(x)


def _children(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x)]
    return list(x)


def flatten(structure):
    """The leaves of `structure`, depth first."""
    if not is_nested(structure):
        return [structure]
    out = []
    for c in _children(structure):
        out.extend(flatten(c))
    return out


def pack_sequence_as(structure, flat):
    """Rebuilds `structure` with the leaves `flat`.

    Raises:
      ValueError: If the number of leaves differs.
    """
    flat = list(flat)
    n = len(flatten(structure))
    if n != len(flat):
        raise ValueError("Could not pack sequence. Structure had %d elements, but flat_sequence had %d elements."
                         % (n, len(flat)))
    it = iter(flat)

    def build(x):
        if not is_nested(x):
            return next(it)
        if isinstance(x, dict):
            vals = {k: build(x[k]) for k in sorted(x)}
            return type(x)((k, vals[k]) for k in x)
        items = [build(c) for c in x]
        return type(x)(*items) if hasattr(x, "_fields") else type(x)(items)

    return build(structure)


def assert_same_structure(a, b):
    """Raises TypeError/ValueError if `a` and `b` are not nested the same way."""
    if is_nested(a) != is_nested(b):
        raise ValueError("The two structures don't have the same nested structure.\n\nFirst structure: %s\n\n"
                         "Second structure: %s" % (a, b))
    if not is_nested(a):
        return
    if isinstance(a, dict) != isinstance(b, dict) or (isinstance(a, dict) and sorted(a) != sorted(b)):
        raise ValueError("The two structures don't have the same keys: %s and %s" % (a, b))
    if type(a) is not type(b) and not (isinstance(a, dict) and isinstance(b, dict)):
        raise TypeError("The two structures don't have the same sequence type. First structure has type %s, "
                        "while second structure has type %s." % (type(a), type(b)))
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        raise ValueError("The two structures don't have the same number of elements. First structure: %s, "
                         "second structure: %s." % (a, b))
    for x, y in zip(ca, cb):
        assert_same_structure(x, y)


def map_structure(fn, *structures):
    """Applies `fn` to corresponding leaves; returns the first structure's nesting."""
    for s in structures[1:]:
        assert_same_structure(structures[0], s)
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [fn(*xs) for xs in zip(*flats)])


def flatten_up_to(shallow, value):
    """Flattens `value` only as deep as `shallow` is nested.

    Raises:
      TypeError: If `value` is not nested where `shallow` is.
      ValueError: If lengths or keys differ.
    """
    if not is_nested(shallow):
        return [value]
    if not isinstance(value, (tuple, list, dict)) or isinstance(shallow, dict) != isinstance(value, dict):
        raise TypeError("If shallow structure is a sequence, input must also be a sequence. Input has type: %s."
                        % type(value).__name__)
    if isinstance(shallow, dict) and sorted(shallow) != sorted(value):
        raise ValueError("The two structures don't have the same keys. Input structure has keys %s, while "
                         "shallow structure has keys %s." % (sorted(value), sorted(shallow)))
    cs, cv = _children(shallow), _children(value)
    if len(cs) != len(cv):
        raise ValueError("The two structures don't have the same sequence length. Input structure has length %d, "
                         "while shallow structure has length %d." % (len(cv), len(cs)))
    out = []
    for s, v in zip(cs, cv):
        out.extend(flatten_up_to(s, v))
    return out


# ---- leaf specs --------------------------------------------------------------------------------
class SparseTensorSpec:
    """Describes a `tf.SparseTensor`: its static dense shape and the dtype of its values.

    Args:
      shape: The static dense shape.
      dtype: The dtype of the values.
    """

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    @classmethod
    def from_value(cls, value):
        """The spec of a SparseTensor."""
        return cls(value.shape, value.dtype)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def value_type(self):
        return _sparse_module().SparseTensor

    def is_compatible_with(self, spec_or_value):
        return (spec_or_value.dtype is self._dtype
                and self._shape.is_compatible_with(TensorShape(spec_or_value.shape)))

    def most_specific_compatible_type(self, other):
        if type(other) is not type(self) or other.dtype is not self._dtype:
            raise TypeError("No TypeSpec is compatible with both %s and %s" % (self, other))
        return SparseTensorSpec(self._shape.most_specific_compatible_shape(other.shape), self._dtype)

    def _component_specs(self):
        rank = self._shape.ndims
        return [(dtypes.int64, TensorShape([None, rank])), (self._dtype, TensorShape([None])),
                (dtypes.int64, TensorShape([rank]))]

    def _to_components(self, value):
        return [value.indices, value.values, value.dense_shape]

    def _from_components(self, components):
        return _sparse_module().SparseTensor(*components)

    def __eq__(self, other):
        return type(other) is type(self) and other._dtype is self._dtype and other._shape == self._shape

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self), self._dtype, self._shape))

    def __repr__(self):
        return "SparseTensorSpec(%r, %r)" % (self._shape, self._dtype)


class _VariantOfElementSpec:
    """The spec of a scalar `tf.variant` standing for a value of the structure `element_spec` (a nested
    dataset, an optional)."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def dtype(self):
        return dtypes.variant

    @property
    def shape(self):
        return TensorShape([])

    def is_compatible_with(self, other):
        return type(other) is type(self) and other._element_spec == self._element_spec

    def __eq__(self, other):
        return type(other) is type(self) and other._element_spec == self._element_spec

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self), repr(self._element_spec)))


class DatasetSpec(_VariantOfElementSpec):
    """Describes a `Dataset` element (as `window` produces): the nested dataset's element spec. It is
    carried as one variant component holding the nested dataset's elements."""

    @property
    def value_type(self):
        from .dataset_ops import Dataset
        return Dataset

    def most_specific_compatible_type(self, other):
        if not self.is_compatible_with(other):
            raise TypeError("No TypeSpec is compatible with both %s and %s" % (self, other))
        return self

    def _component_specs(self):
        return [(dtypes.variant, TensorShape([]))]

    def _to_components(self, value):
        raise TypeError("A Dataset cannot be passed out of a function as an element component: %s" % (value,))

    def _from_components(self, components):
        from .dataset_ops import _VariantDataset
        return _VariantDataset(components[0], self._element_spec)

    def __repr__(self):
        return "DatasetSpec(%r)" % (self._element_spec,)


_SPECS = (TensorSpec, SparseTensorSpec, DatasetSpec)


# ---- values <-> specs <-> components -----------------------------------------------------------
def normalize_element(element):
    """Converts every leaf of `element` to a Tensor (a SparseTensorValue to a SparseTensor), as
    `tf.data` does for `from_tensors`/`from_tensor_slices`, naming them "component_<i>".

    Raises:
      TypeError: If a leaf cannot be converted.
    """
    flat = flatten(element)
    out = []
    with ops.name_scope("component"):
        for i, leaf in enumerate(flat):
            if _is_sparse(leaf):
                out.append(_sparse_module().SparseTensor.from_value(leaf))
            else:
                out.append(ops.convert_to_tensor(leaf, name="component_%d" % i))
    return pack_sequence_as(element, out)


def spec_of(value):
    """The leaf spec of a Tensor, SparseTensor or Dataset."""
    if _is_sparse(value):
        return SparseTensorSpec.from_value(value)
    from .dataset_ops import Dataset
    if isinstance(value, Dataset):
        return DatasetSpec(value._element_structure)
    return TensorSpec(value.shape, value.dtype)


def structure_of(element):
    """The nest of specs of a nest of values."""
    return map_structure(spec_of, element)


def component_specs(structure):
    """The flat list of `(DType, TensorShape)` of every component of `structure`."""
    out = []
    for spec in flatten(structure):
        out.extend(spec._component_specs())
    return out


def to_components(structure, element):
    """The flat list of component tensors of `element` (which has `structure`'s nesting)."""
    out = []
    for spec, value in zip(flatten(structure), flatten(element)):
        out.extend(spec._to_components(value))
    return out


def from_components(structure, components):
    """The element of `structure` built from its flat component tensors."""
    leaves = []
    i = 0
    for spec in flatten(structure):
        n = len(spec._component_specs())
        leaves.append(spec._from_components(list(components[i:i + n])))
        i += n
    return pack_sequence_as(structure, leaves)


def get_types(structure):
    return map_structure(lambda s: s.dtype, structure)


def get_shapes(structure):
    return map_structure(lambda s: s.shape, structure)


def get_classes(structure):
    return map_structure(lambda s: s.value_type, structure)


def from_legacy(output_types, output_shapes=None, output_classes=None):
    """The structure given by TF1-style types, shapes and classes nests.

    Raises:
      TypeError/ValueError: If the nests do not match.
    """
    types = map_structure(dtypes.as_dtype, output_types)
    flat_types = flatten(types)
    if output_shapes is None:
        flat_shapes = [TensorShape(None)] * len(flat_types)
    else:
        flat_shapes = [as_shape(s) for s in flatten_up_to(types, output_shapes)]
    if output_classes is None:
        flat_classes = [ops.Tensor] * len(flat_types)
    else:
        flat_classes = flatten_up_to(types, output_classes)
    specs = []
    for t, s, c in zip(flat_types, flat_shapes, flat_classes):
        if isinstance(c, type) and c.__name__ == "SparseTensor":
            specs.append(SparseTensorSpec(s, t))
        else:
            specs.append(TensorSpec(s, t))
    return pack_sequence_as(types, specs)


def is_compatible(expected, actual):
    """Whether every leaf spec of `actual` satisfies the corresponding one of `expected`."""
    try:
        assert_same_structure(expected, actual)
    except (TypeError, ValueError):
        return False
    return all(type(e) is type(a) and e.is_compatible_with(a) for e, a in zip(flatten(expected), flatten(actual)))


def np_dtype(dtype):
    """The NumPy dtype of a tf DType (object for strings and variants)."""
    return np.dtype(dtype.as_numpy_dtype)
