"""`tf.SparseTensor`: a sparse tensor as three dense tensors (`indices`, `values`, `dense_shape`)."""

import collections

from . import dtypes, ops

__all__ = ["SparseTensor", "SparseTensorValue", "convert_to_sparse_tensor", "is_sparse"]


class SparseTensorValue(collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])):
    """What `Session.run` returns for a `SparseTensor` fetch: `indices`, `values`, `dense_shape` arrays."""

    __slots__ = ()


def _sparse_tensor_value(parts):
    return SparseTensorValue(*parts)


class SparseTensor:
    """Represents a sparse tensor.

    `dense[indices[i]] = values[i]` for each i, every other element of the `dense_shape`-shaped tensor
    being zero (or the default value given to `tf.sparse.to_dense`).

    Example:

      st = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])

    Args:
      indices: A 2-D int64 tensor of shape `[N, ndims]`.
      values: A 1-D tensor of any type and shape `[N]`.
      dense_shape: A 1-D int64 tensor of shape `[ndims]`.

    Raises:
      ValueError: When the static shapes of the three tensors are inconsistent.
    """

    @classmethod
    def from_value(cls, sparse_tensor_value):
        """A `SparseTensor` from a `SparseTensorValue` (or a `SparseTensor`, returned as is).

        Raises:
          TypeError: If the argument is neither.
        """
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        if not isinstance(sparse_tensor_value, SparseTensorValue):
            raise TypeError("Neither a SparseTensor nor SparseTensorValue: %s." % (sparse_tensor_value,))
        return SparseTensor(indices=sparse_tensor_value.indices, values=sparse_tensor_value.values,
                            dense_shape=sparse_tensor_value.dense_shape)

    def __init__(self, indices, values, dense_shape):
        with ops.name_scope(None, "SparseTensor", [indices, values, dense_shape]):
            indices = ops.convert_to_tensor(indices, name="indices", dtype=dtypes.int64)
            values = ops.convert_to_tensor(values, name="values")
            dense_shape = ops.convert_to_tensor(dense_shape, name="dense_shape", dtype=dtypes.int64)
        self._indices = indices
        self._values = values
        self._dense_shape = dense_shape
        indices_shape = indices.shape.with_rank(2)
        values_shape = values.shape.with_rank(1)
        dense_shape_shape = dense_shape.shape.with_rank(1)
        indices_shape[0].merge_with(values_shape[0])
        indices_shape[1].merge_with(dense_shape_shape[0])

    @property
    def indices(self):
        """The 2-D int64 `Tensor` of indices, shape `[N, ndims]`."""
        return self._indices

    @property
    def values(self):
        """The 1-D `Tensor` of values, shape `[N]`."""
        return self._values

    @property
    def dense_shape(self):
        """The 1-D int64 `Tensor` holding the dense shape."""
        return self._dense_shape

    @property
    def op(self):
        """The `Operation` that produces `values`."""
        return self._values.op

    @property
    def dtype(self):
        """The `DType` of the values."""
        return self._values.dtype

    @property
    def graph(self):
        """The `Graph` that contains the tensors."""
        return self._indices.graph

    @property
    def shape(self):
        """The static dense shape: `dense_shape`'s constant value where known, else its length's unknowns."""
        from . import tensor_util
        return tensor_util.constant_value_as_shape(self._dense_shape)

    def get_shape(self):
        """Alias of `shape`."""
        return self.shape

    def consumers(self):
        """The ops that consume any of the three component tensors."""
        seen = []
        for t in (self._indices, self._values, self._dense_shape):
            for op in t.consumers():
                if op not in seen:
                    seen.append(op)
        return seen

    def eval(self, feed_dict=None, session=None):
        """Evaluates this sparse tensor in a `Session` (the default one if `session` is None).

        Returns:
          A `SparseTensorValue`.
        """
        return ops._run_using_default_session(self, feed_dict, self.graph, session)

    def _fetch_components(self):
        return [self._indices, self._values, self._dense_shape], _sparse_tensor_value

    def _feed_components(self, value):
        if isinstance(value, SparseTensor):
            raise TypeError("The value of a feed cannot be a tf.SparseTensor object; feed a SparseTensorValue or "
                            "a tuple (indices, values, dense_shape).")
        try:
            parts = list(value)
        except TypeError:
            raise TypeError("The value fed to a SparseTensor must be a SparseTensorValue or a tuple "
                            "(indices, values, dense_shape), got %r" % (value,)) from None
        if len(parts) != 3:
            raise ValueError("The value fed to a SparseTensor must have 3 parts (indices, values, dense_shape), "
                             "got %d" % len(parts))
        return [self.indices, self.values, self.dense_shape], parts

    def __str__(self):
        return "SparseTensor(indices=%s, values=%s, dense_shape=%s)" % (self._indices, self._values,
                                                                         self._dense_shape)

    __repr__ = __str__


def is_sparse(x):
    """Whether `x` is a `SparseTensor` or a `SparseTensorValue`."""
    return isinstance(x, (SparseTensor, SparseTensorValue))


def convert_to_sparse_tensor(sp_input):
    """`sp_input` as a SparseTensor (a SparseTensorValue is made constant).

    Raises:
      TypeError: If it is neither.
    """
    if isinstance(sp_input, SparseTensorValue):
        return SparseTensor.from_value(sp_input)
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    return sp_input
