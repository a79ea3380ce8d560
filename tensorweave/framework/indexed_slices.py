"""`tf.IndexedSlices`: a sparse gradient (rows `indices` of a dense tensor hold `values`)."""

from . import ops
from .tensor_shape import TensorShape


class IndexedSlices:
    """A sparse representation of a dense tensor: `dense[indices[i]] = values[i]` (summed on repeats).

    `tf.gradients` returns one for the params of `tf.gather`; `tf.convert_to_tensor` densifies it.
    """

    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    @property
    def values(self):
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def name(self):
        return self._values.name

    @property
    def op(self):
        return self._values.op

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def graph(self):
        return self._values.graph

    @property
    def device(self):
        return self._values.device

    @property
    def shape(self):
        """The static dense shape: the values' shape with an unknown first dimension."""
        v = self._values.shape.as_tuple()
        return TensorShape(None if v is None else (None,) + v[1:])

    def _fetch_components(self):
        comps = [self._values, self._indices]
        if self._dense_shape is not None:
            comps.append(self._dense_shape)
        return comps, IndexedSlicesValue._from_list

    def __repr__(self):
        return "IndexedSlices(indices=%s, values=%s%s)" % (
            self._indices, self._values,
            "" if self._dense_shape is None else ", dense_shape=%s" % self._dense_shape)


class IndexedSlicesValue:
    """What `Session.run` returns for an `IndexedSlices` fetch."""

    def __init__(self, values, indices, dense_shape=None):
        self.values = values
        self.indices = indices
        self.dense_shape = dense_shape

    @staticmethod
    def _from_list(parts):
        return IndexedSlicesValue(*parts)

    def __repr__(self):
        return "IndexedSlicesValue(values=%r, indices=%r, dense_shape=%r)" % (self.values, self.indices,
                                                                           self.dense_shape)


def _convert_indexed_slices(value, dtype=None, name=None, as_ref=False):
    if value._dense_shape is None:
        raise ValueError("Tensor conversion requested for IndexedSlices without dense_shape: %s" % value.name)
    return ops.apply_op("IndexedSlicesToDense", [value._values, value._indices, value._dense_shape], name=name)


ops.register_tensor_conversion_function(IndexedSlices, _convert_indexed_slices)
