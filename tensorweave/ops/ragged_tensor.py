"""`tf.RaggedTensor`, `tf.RaggedTensorSpec` and `tf.ragged.RaggedTensorValue`.

A `RaggedTensor` is `values` (a `Tensor`, or a `RaggedTensor` for ragged_rank > 1) partitioned into
rows by `row_splits` (an int64 or int32 vector: row `i` is `values[row_splits[i]:row_splits[i+1]]`).
The constructors compose existing ops (cumsum, bincount, boolean_mask, ...); the conversions use the
ops of `ragged_conversion_ops`. `Session.run` of a `RaggedTensor` returns a `RaggedTensorValue`
(through the session's generic `_fetch_components` protocol, as for `SparseTensor`).
"""

import numpy as np

from ..framework import dtypes, ops
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape
from . import ragged_conversion_ops

__all__ = ["RaggedTensor", "RaggedTensorSpec", "RaggedTensorValue", "from_sparse_2d", "is_ragged"]


def is_ragged(x):
    """Whether `x` is a `RaggedTensor` or a `RaggedTensorValue`."""
    return isinstance(x, (RaggedTensor, RaggedTensorValue))


# ---- RaggedTensorValue ---------------------------------------------------------------------------
class _RowPartitioned:
    """The accessors `RaggedTensorValue` and `RaggedTensor` share: both hold `_values` (the concatenated
    rows, nested for ragged_rank > 1) and `_row_splits` (the outermost row-splits vector)."""

    @property
    def values(self):
        """The concatenated rows (nested when ragged_rank > 1)."""
        return self._values

    @property
    def row_splits(self):
        """The row-splits vector of the outermost ragged dimension."""
        return self._row_splits

    @property
    def flat_values(self):
        """The innermost values (a NumPy array for a value, a `Tensor` for a `RaggedTensor`)."""
        v = self._values
        while isinstance(v, type(self)):
            v = v.values
        return v

    @property
    def nested_row_splits(self):
        """The row-splits vectors, outermost first (a tuple)."""
        out, v = [self._row_splits], self._values
        while isinstance(v, type(self)):
            out.append(v.row_splits)
            v = v.values
        return tuple(out)

    @property
    def ragged_rank(self):
        """The number of ragged dimensions."""
        return 1 + (self._values.ragged_rank if isinstance(self._values, type(self)) else 0)


class RaggedTensorValue(_RowPartitioned):
    """The value of a `RaggedTensor` (what `Session.run` returns): NumPy `values` (or a nested
    `RaggedTensorValue`) and `row_splits`.

    Args:
      values: A NumPy array or a `RaggedTensorValue`.
      row_splits: A 1-D int32 or int64 NumPy array.

    Raises:
      TypeError: If `row_splits` is not an integer vector.
    """

    def __init__(self, values, row_splits):
        row_splits = np.asarray(row_splits)
        if row_splits.dtype not in (np.int32, np.int64) or row_splits.ndim != 1:
            raise TypeError("row_splits must be a 1D int32 or int64 numpy array")
        if not isinstance(values, RaggedTensorValue):
            values = np.asarray(values)
        self._values = values
        self._row_splits = row_splits

    @property
    def dtype(self):
        """The NumPy dtype of the values."""
        return self.flat_values.dtype

    @property
    def shape(self):
        """`(nrows, None, ..., inner dims)` (a tuple)."""
        return (len(self._row_splits) - 1,) + (None,) * self.ragged_rank + self.flat_values.shape[1:]

    def row_lengths(self):
        """The length of each row (a NumPy array)."""
        return np.diff(self._row_splits)

    def to_list(self):
        """The value as nested Python lists (strings as `bytes`)."""
        vals = self._values.to_list() if isinstance(self._values, RaggedTensorValue) else self._values.tolist()
        s = self._row_splits
        return [vals[int(s[i]):int(s[i + 1])] for i in range(len(s) - 1)]

    def __str__(self):
        return "<tf.RaggedTensorValue %s>" % self.to_list()

    def __repr__(self):
        return "tf.RaggedTensorValue(values=%r, row_splits=%r)" % (self._values, self._row_splits)


# ---- helpers -------------------------------------------------------------------------------------
class _Namespace:
    def __init__(self, *modules):
        self._modules = modules

    def __getattr__(self, name):
        for m in self._modules:
            if hasattr(m, name):
                return getattr(m, name)
        raise AttributeError(name)


def _ops():
    """(array ops, math ops) namespaces, imported when first used."""
    from ..framework.constant_op import constant
    from . import array_ops, core_ops, math_ops, math_sort_ops
    from .array_shape_ops import range as _range
    ns = _Namespace(array_ops, core_ops, math_ops, math_sort_ops)
    ns.constant, ns.range = constant, _range
    return ns, ns


def _is_eager(*tensors):
    return all(hasattr(t, "numpy") for t in tensors)


def _check(condition, message):
    """An eager check: TF's InvalidArgumentError when `condition` (a NumPy bool) is false."""
    if not np.all(condition):
        from ..framework import errors
        raise errors.InvalidArgumentError(None, None, message)


def _splits_dtype(dtype):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("row_splits_dtype must be int32 or int64")
    return dtype


def _convert_values(values, name="values"):
    if isinstance(values, (RaggedTensor, ops.Tensor)):
        return values
    if isinstance(values, RaggedTensorValue):
        return RaggedTensor.from_row_splits(_convert_values(values.values), values.row_splits, validate=False)
    return ops.convert_to_tensor(values, name=name)


def _partition(t, name, dtype=None):
    if isinstance(t, ops.Tensor):
        if t.dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError("%s must have dtype int32 or int64, got %s" % (name, t.dtype.name))
        return t
    if dtype is None:
        a = np.asarray(t)
        dtype = dtypes.int64 if a.dtype != np.int32 else dtypes.int32
    return ops.convert_to_tensor(t, dtype=dtype, name=name)


# ---- RaggedTensor --------------------------------------------------------------------------------
class RaggedTensor(_RowPartitioned):
    """A tensor with one or more ragged dimensions (TF's `tf.RaggedTensor`).

    Build one with the `from_*` class methods or `tf.ragged.constant`; never with the constructor.
    Python operators (`+ - * / // % ** < <= > >= & | ^ ~`, unary `-`, `abs`) work elementwise on the
    flat values with a scalar or a ragged tensor of the same row partition, as in TF.

    Example:

      rt = tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7])
      # [[3, 1, 4, 1], [], [5, 9], [2]]
    """

    def __init__(self, values, row_splits, internal=False):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods instead "
                             "(e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits

    # ---- factories -------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """A `RaggedTensor` whose row `i` is `values[row_splits[i]:row_splits[i + 1]]`.

        Args:
          values: A `Tensor` (or `RaggedTensor`) of the concatenated rows.
          row_splits: A 1-D int32/int64 `Tensor` starting with 0, non-decreasing, ending with
            `nvals`.
          name: A name for the operation (optional).
          validate: Whether to check `row_splits` at run time (InvalidArgumentError when broken).

        Returns:
          A `RaggedTensor` with `ragged_rank = values.ragged_rank + 1` (1 for a `Tensor`).

        Raises:
          ValueError: If `row_splits` is not a vector of int32/int64.
        """
        with ops.name_scope(name, "RaggedFromRowSplits", [row_splits]):
            values = _convert_values(values)
            splits = _partition(row_splits, "row_splits")
            if splits.shape.ndims not in (None, 1):
                raise ValueError("Shape %s must have rank 1" % splits.shape)
            if validate:
                splits = _validated(splits, values)
            return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """A `RaggedTensor` whose row `i` has `row_lengths[i]` values.

        Args:
          values: A `Tensor` (or `RaggedTensor`).
          row_lengths: A 1-D int32/int64 `Tensor` of non-negative lengths summing to `nvals`.
          name: A name for the operation (optional).
          validate: Whether to check the lengths at run time.

        Returns:
          A `RaggedTensor`.
        """
        array_ops, math_ops = _ops()
        with ops.name_scope(name, "RaggedFromRowLengths", [row_lengths]):
            lengths = _partition(row_lengths, "row_lengths")
            zero = array_ops.zeros([1], lengths.dtype)
            splits = array_ops.concat([zero, math_ops.cumsum(lengths)], axis=0)
            return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        """A `RaggedTensor` whose row `i` starts at `row_starts[i]` (and ends where the next starts)."""
        array_ops, _ = _ops()
        with ops.name_scope(name, "RaggedFromRowStarts", [row_starts]):
            values = _convert_values(values)
            starts = _partition(row_starts, "row_starts")
            nvals = _nvals(values, starts.dtype)
            splits = array_ops.concat([starts, array_ops.reshape(nvals, [1])], axis=0)
            return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        """A `RaggedTensor` whose row `i` ends at `row_limits[i]` (and starts where the previous ends)."""
        array_ops, _ = _ops()
        with ops.name_scope(name, "RaggedFromRowLimits", [row_limits]):
            limits = _partition(row_limits, "row_limits")
            splits = array_ops.concat([array_ops.zeros([1], limits.dtype), limits], axis=0)
            return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """A `RaggedTensor` where `values[i]` belongs to row `value_rowids[i]` (sorted ascending).

        Args:
          values: A `Tensor` (or `RaggedTensor`).
          value_rowids: A 1-D int32/int64 `Tensor` of non-decreasing row ids, one per value.
          nrows: The number of rows (default `value_rowids[-1] + 1`, 0 when empty); trailing rows
            may be empty.
          name: A name for the operation (optional).
          validate: Whether to check the row ids at run time.

        Returns:
          A `RaggedTensor`.
        """
        array_ops, math_ops = _ops()
        with ops.name_scope(name, "RaggedFromValueRowIds", [value_rowids, nrows]):
            rowids = _partition(value_rowids, "value_rowids")
            if nrows is not None:
                nrows = _partition(nrows, "nrows", rowids.dtype)
            splits = segment_ids_to_row_splits(rowids, nrows, out_type=rowids.dtype)
            return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        """A `RaggedTensor` from its flat values and its row-splits vectors (outermost first)."""
        if isinstance(nested_row_splits, ops.Tensor):
            raise TypeError("nested_row_splits must be a list of Tensors")
        with ops.name_scope(name, "RaggedFromNestedRowSplits", [flat_values] + list(nested_row_splits)):
            result = flat_values
            for splits in reversed(nested_row_splits):
                result = cls.from_row_splits(result, splits, validate=validate)
            return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        """A `RaggedTensor` from its flat values and one row-lengths vector per ragged dimension."""
        with ops.name_scope(name, "RaggedFromNestedRowlengths", [flat_values] + list(nested_row_lengths)):
            result = flat_values
            for lengths in reversed(nested_row_lengths):
                result = cls.from_row_lengths(result, lengths, validate=validate)
            return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None, name=None,
                                 validate=True):
        """A `RaggedTensor` from its flat values and one value-rowids vector per ragged dimension."""
        if nested_nrows is None:
            nested_nrows = [None] * len(nested_value_rowids)
        if len(nested_nrows) != len(nested_value_rowids):
            raise ValueError("nested_nrows must have the same length as nested_value_rowids")
        with ops.name_scope(name, "RaggedFromNestedValueRowIds", [flat_values] + list(nested_value_rowids)):
            result = flat_values
            for rowids, nrows in reversed(list(zip(nested_value_rowids, nested_nrows))):
                result = cls.from_value_rowids(result, rowids, nrows, validate=validate)
            return result

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=dtypes.int64):
        """A `RaggedTensor` from a dense `tensor` (rank >= 2): every row whole, or cut to `lengths`,
        or with the trailing `padding` values of each row removed.

        Args:
          tensor: A `Tensor` of rank >= `ragged_rank + 1`.
          lengths: An optional 1-D integer `Tensor`: the length of each row.
          padding: An optional value (of `tensor.shape[2:]`) marking padding at the end of rows.
          ragged_rank: The number of ragged dimensions of the result (>= 1).
          name: A name for the operation (optional).
          row_splits_dtype: int64 (default) or int32.

        Returns:
          A `RaggedTensor`.

        Raises:
          ValueError: If both `lengths` and `padding` are given, or the rank is too small.
        """
        array_ops, math_ops = _ops()
        if lengths is not None and padding is not None:
            raise ValueError("Specify lengths or padding, but not both")
        if not isinstance(ragged_rank, int) or ragged_rank < 1:
            raise ValueError("ragged_rank must be an int >= 1, got %r" % (ragged_rank,))
        sdt = _splits_dtype(row_splits_dtype)
        with ops.name_scope(name, "RaggedFromTensor", [tensor, lengths, padding]):
            tensor = ops.convert_to_tensor(tensor, name="tensor")
            if tensor.shape.ndims is not None and tensor.shape.ndims <= ragged_rank:
                raise ValueError("ragged_rank must be less than the rank of tensor (%d)" % tensor.shape.ndims)
            if ragged_rank > 1:
                if lengths is not None or padding is not None:
                    raise NotImplementedError("RaggedTensor.from_tensor: lengths/padding with ragged_rank > 1")
                shape = array_ops.shape(tensor, out_type=sdt)
                inner = cls.from_tensor(array_ops.reshape(tensor, array_ops.concat([[-1], shape[2:]], 0)),
                                        ragged_rank=ragged_rank - 1, row_splits_dtype=sdt)
                ncols = shape[1]
                splits = math_ops.range(0, shape[0] * ncols + 1, ncols)
                return cls.from_row_splits(inner, splits, validate=False)
            shape = array_ops.shape(tensor, out_type=sdt)
            nrows, ncols = shape[0], shape[1]
            if padding is not None:
                padding = ops.convert_to_tensor(padding, dtype=tensor.dtype, name="padding")
                is_pad = math_ops.equal(tensor, padding)
                if tensor.shape.ndims is None or tensor.shape.ndims > 2:
                    rank = array_ops.rank(tensor)
                    is_pad = math_ops.reduce_all(is_pad, axis=math_ops.range(2, rank))
                not_pad = math_ops.cast(math_ops.logical_not(is_pad), sdt)
                lengths = math_ops.reduce_max(not_pad * math_ops.range(1, ncols + 1, dtype=sdt), axis=1)
            if lengths is None:
                values = array_ops.reshape(tensor, array_ops.concat([[-1], shape[2:]], 0))
                splits = math_ops.range(0, nrows * ncols + 1, ncols)
                return cls.from_row_splits(values, splits, validate=False)
            lengths = math_ops.cast(ops.convert_to_tensor(lengths, name="lengths"), sdt)
            lengths = math_ops.minimum(lengths, ncols)
            mask = array_ops.sequence_mask(lengths, ncols)
            values = array_ops.boolean_mask(tensor, mask)
            return cls.from_row_lengths(values, lengths, validate=False)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """A `RaggedTensor` from a 2-D `SparseTensor` whose indices are in row-major order: row `i`
        holds the values of the entries `[i, j]` (the column indices are not used).

        Raises:
          TypeError: If `st_input` is not a `SparseTensor`.
          ValueError: If it is not 2-D.
        """
        if not isinstance(st_input, SparseTensor):
            raise TypeError("st_input must be a SparseTensor")
        with ops.name_scope(name, "RaggedFromSparse", [st_input]):
            return from_sparse_2d(st_input, row_splits_dtype)

    # ---- properties ------------------------------------------------------------------------
    @property
    def dtype(self):
        """The `DType` of the values."""
        return self._values.dtype

    @property
    def row_splits_dtype(self):
        """The dtype of the row splits (int32 or int64)."""
        return self._row_splits.dtype

    @property
    def shape(self):
        """The static shape: `[nrows, None, ..., inner dims of the flat values]`."""
        n = self._row_splits.shape.as_tuple()
        nrows = None if n is None or n[0] is None else n[0] - 1
        vals = self._values.shape
        if vals.ndims is None:
            return TensorShape(None)
        return TensorShape([nrows, None] + vals.as_list()[1:])

    def get_shape(self):
        """Alias of `shape`."""
        return self.shape

    @property
    def graph(self):
        """The graph of the row splits."""
        return self._row_splits.graph

    @property
    def name(self):
        """The name of the values tensor."""
        return self._values.name

    # ---- partitions ------------------------------------------------------------------------
    def row_lengths(self, axis=1, name=None):
        """The length of each row (axis 1), or of the rows of a deeper ragged dimension.

        Returns:
          A `Tensor` (axis 1) or `RaggedTensor` of the row-splits dtype.
        """
        if axis == 0:
            return self.nrows(name=name)
        if axis == 1:
            with ops.name_scope(name, "RaggedRowLengths", [self]):
                s = self._row_splits
                return s[1:] - s[:-1]
        if axis > 1 and isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(axis - 1, name=name))
        raise ValueError("axis=%r out of range for ragged_rank %d" % (axis, self.ragged_rank))

    def nrows(self, out_type=None, name=None):
        """The number of rows (a scalar `Tensor` of `out_type`, default the row-splits dtype)."""
        array_ops, math_ops = _ops()
        with ops.name_scope(name, "RaggedNRows", [self]):
            n = array_ops.shape(self._row_splits, out_type=self._row_splits.dtype)[0] - 1
            return n if out_type is None or dtypes.as_dtype(out_type) is n.dtype else math_ops.cast(n, out_type)

    def row_starts(self, name=None):
        """The start of each row in `values`."""
        with ops.name_scope(name, "RaggedRowStarts", [self]):
            return self._row_splits[:-1]

    def row_limits(self, name=None):
        """The end of each row in `values`."""
        with ops.name_scope(name, "RaggedRowLimits", [self]):
            return self._row_splits[1:]

    def value_rowids(self, name=None):
        """The row of each value (a `Tensor` of the row-splits dtype)."""
        with ops.name_scope(name, "RaggedValueRowIds", [self]):
            return row_splits_to_segment_ids(self._row_splits)

    def nested_row_lengths(self, name=None):
        """The row lengths of every ragged dimension, outermost first (a tuple)."""
        with ops.name_scope(name, "RaggedNestedRowLengths", [self]):
            out, rt = [], self
            while isinstance(rt, RaggedTensor):
                out.append(rt.row_lengths())
                rt = rt.values
            return tuple(out)

    def with_values(self, new_values):
        """This tensor's row partition over `new_values` (which has as many rows as `values`)."""
        new_values = _convert_values(new_values)
        return RaggedTensor(new_values, self._row_splits, internal=True)

    def with_flat_values(self, new_values):
        """This tensor's nested row partitions over new flat values."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        """A copy whose row splits (every level) have `dtype` (int32 or int64)."""
        _, math_ops = _ops()
        dtype = _splits_dtype(dtype)
        values = self._values.with_row_splits_dtype(dtype) if isinstance(self._values, RaggedTensor) else self._values
        splits = self._row_splits if self._row_splits.dtype is dtype else math_ops.cast(self._row_splits, dtype)
        return RaggedTensor(values, splits, internal=True)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The smallest dense shape holding this ragged tensor: `[nrows, longest row of each ragged
        dimension, inner dims of the flat values]` (empty dimensions count 0).

        Args:
          axis: An optional int or list of ints: the entries to return.
          name: A name for the operation (optional).
          out_type: int32 or int64 (default: the row-splits dtype).

        Returns:
          An integer `Tensor` (a vector, or a scalar for an int `axis`).
        """
        array_ops, math_ops = _ops()
        out_type = self._row_splits.dtype if out_type is None else dtypes.as_dtype(out_type)
        with ops.name_scope(name, "RaggedBoundingBox", [self]):
            dims = [math_ops.cast(self.nrows(), out_type)]
            for splits in self.nested_row_splits:
                lengths = math_ops.cast(splits[1:] - splits[:-1], out_type)
                dims.append(math_ops.reduce_max(array_ops.concat([array_ops.zeros([1], out_type), lengths], 0)))
            inner = array_ops.shape(self.flat_values, out_type=out_type)[1:]
            shape = array_ops.concat([array_ops.stack(dims), inner], axis=0)
            return shape if axis is None else array_ops.gather(shape, axis)

    # ---- conversions -----------------------------------------------------------------------
    def to_tensor(self, default_value=None, name=None, shape=None):
        """The dense `Tensor` of this ragged tensor: rows padded with `default_value` (zero or "")
        to the longest row of each ragged dimension (or padded/truncated to `shape`).

        Args:
          default_value: A value broadcastable to the inner shape of the flat values.
          name: A name for the operation (optional).
          shape: An optional output shape (None entries: the natural size).

        Returns:
          A `Tensor` of rank `ragged_rank + flat_values.rank`.
        """
        return ragged_conversion_ops.ragged_tensor_to_tensor(self.flat_values, self.nested_row_splits,
                                                             default_value, shape, name=name or "RaggedToTensor")

    def to_sparse(self, name=None):
        """The `SparseTensor` of this ragged tensor (dense inner dimensions included)."""
        idx, vals, shape = ragged_conversion_ops.ragged_tensor_to_sparse(self.nested_row_splits, self.flat_values,
                                                                         name=name)
        return SparseTensor(idx, vals, shape)

    def to_list(self):
        """The value as nested Python lists (eager execution only).

        Raises:
          ValueError: In graph mode (evaluate it with a Session instead).
        """
        parts = [self.flat_values] + list(self.nested_row_splits)
        if not all(hasattr(t, "numpy") for t in parts):
            raise ValueError("to_list can only be used in eager mode.")
        return self._eager_value().to_list()

    def _eager_value(self):
        """The `RaggedTensorValue` of an eager ragged tensor."""
        values = self._values._eager_value() if isinstance(self._values, RaggedTensor) else np.asarray(
            self._values.numpy())
        return RaggedTensorValue(values, np.asarray(self._row_splits.numpy()))

    def eval(self, feed_dict=None, session=None):
        """Evaluates this ragged tensor in a `Session` (the default one if `session` is None).

        Returns:
          A `RaggedTensorValue`.
        """
        return ops._run_using_default_session(self, feed_dict, self.graph, session)

    def _fetch_components(self):
        return [self._values, self._row_splits], _ragged_value

    def _feed_components(self, value):
        """(component tensors, their fed values) for feeding `value` (a `RaggedTensorValue` of this
        ragged rank) to this ragged tensor: the flat values and every row-splits vector."""
        if not isinstance(value, RaggedTensorValue):
            raise TypeError("The value fed to a RaggedTensor must be a RaggedTensorValue, got %r" % (value,))
        if value.ragged_rank != self.ragged_rank:
            raise ValueError("Cannot feed a RaggedTensorValue of ragged_rank %d to a RaggedTensor of ragged_rank %d"
                             % (value.ragged_rank, self.ragged_rank))
        tensors = [self.flat_values] + list(self.nested_row_splits)
        return tensors, [value.flat_values] + list(value.nested_row_splits)

    def consumers(self):
        """The ops that consume the component tensors."""
        seen = []
        for t in (self.flat_values,) + self.nested_row_splits:
            for op in t.consumers():
                if op not in seen:
                    seen.append(op)
        return seen

    # ---- indexing --------------------------------------------------------------------------
    def __getitem__(self, key):
        """Row `key` (an int or scalar int `Tensor`): a `Tensor` (ragged_rank 1) or `RaggedTensor`; or
        the rows of a slice `start:stop` (step 1, bounds clipped as Python does): a `RaggedTensor`.

        Raises:
          NotImplementedError: For other slices and multi-dimensional keys.
        """
        if isinstance(key, (int, np.integer)) or (isinstance(key, ops.Tensor) and key.shape.ndims == 0
                                                   and key.dtype.is_integer):
            array_ops, math_ops = _ops()
            with ops.name_scope(None, "RaggedGetItem", [self, key]):
                k = math_ops.cast(ops.convert_to_tensor(key), self._row_splits.dtype)
                if not isinstance(key, (int, np.integer)) or key < 0:
                    n = self.nrows()
                    k = array_ops.where(k < 0, k + n, k)
                start = array_ops.gather(self._row_splits, k)
                limit = array_ops.gather(self._row_splits, k + 1)
                if isinstance(self._values, RaggedTensor):
                    return _slice_rows(self._values, start, limit)
                return self._values[start:limit]
        if isinstance(key, slice) and key.step in (None, 1):
            array_ops, math_ops = _ops()
            with ops.name_scope(None, "RaggedGetItem", [self]):
                n = self.nrows()

                def bound(v, default):
                    if v is None:
                        return default
                    v = math_ops.cast(ops.convert_to_tensor(v), n.dtype)
                    v = array_ops.where(v < 0, v + n, v)
                    return math_ops.minimum(math_ops.maximum(v, array_ops.zeros([], n.dtype)), n)
                start = bound(key.start, array_ops.zeros([], n.dtype))
                stop = math_ops.maximum(bound(key.stop, n), start)
                return _slice_rows(self, start, stop)
        raise NotImplementedError("RaggedTensor.__getitem__ supports a row index or a row slice (step 1), got %r"
                                  % (key,))

    def __str__(self):
        return "tf.RaggedTensor(values=%s, row_splits=%s)" % (self._values, self._row_splits)

    __repr__ = __str__


# ---- operators (TF's ragged_operators: elementwise on the flat values) ------------------------------
def _elementwise(fn_name, x, y=None, unary=False):
    """`fn(x, y)` of a ragged tensor with a scalar or a ragged tensor of the same row partition."""
    from . import check_ops
    _, math_ops = _ops()
    fn = getattr(math_ops, fn_name)
    if unary:
        return x.with_flat_values(fn(x.flat_values))
    rt = x if isinstance(x, RaggedTensor) else y
    other = y if rt is x else x
    if isinstance(other, RaggedTensor):
        if other.ragged_rank != rt.ragged_rank:
            raise NotImplementedError("Elementwise ops of RaggedTensors of different ragged ranks")
        pairs = [(a, b) for a, b in zip(rt.nested_row_splits, other.nested_row_splits) if a is not b]
        if _is_eager(*[t for p in pairs for t in p]):
            for a, b in pairs:
                a, b = a.numpy(), b.numpy()
                _check(a.shape == b.shape and np.array_equal(a, b), "Inputs must have identical ragged splits")
            pairs = []
        checks = [check_ops.assert_equal(a, b, message="Inputs must have identical ragged splits") for a, b in pairs]
        with ops.control_dependencies(checks):
            out = fn(x.flat_values, y.flat_values)
            out = _ops()[0].identity(out) if checks else out
        return rt.with_flat_values(out)
    if not isinstance(other, ops.Tensor):
        other = ops.convert_to_tensor(other, dtype=rt.dtype if not isinstance(other, np.ndarray) else None)
    if other.shape.ndims != 0:
        raise NotImplementedError("Elementwise ops of a RaggedTensor with a Tensor of rank %s (only scalars)"
                                  % other.shape.ndims)
    flat = rt.flat_values
    return rt.with_flat_values(fn(flat, other) if rt is x else fn(other, flat))


def _binary_operator(fn_name):
    def method(self, other):
        return _elementwise(fn_name, self, other)

    def rmethod(self, other):
        return _elementwise(fn_name, other, self)
    return method, rmethod


for _name, _fn in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "truediv"),
                   ("floordiv", "floordiv"), ("mod", "floormod"), ("pow", "pow"), ("and", "logical_and"),
                   ("or", "logical_or"), ("xor", "logical_xor")):
    _m, _r = _binary_operator(_fn)
    setattr(RaggedTensor, "__%s__" % _name, _m)
    setattr(RaggedTensor, "__r%s__" % _name, _r)
for _name, _fn in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")):
    setattr(RaggedTensor, "__%s__" % _name, _binary_operator(_fn)[0])
for _name, _fn in (("neg", "negative"), ("abs", "abs"), ("invert", "logical_not")):
    setattr(RaggedTensor, "__%s__" % _name, lambda self, _fn=_fn: _elementwise(_fn, self, unary=True))


def _slice_rows(rt, start, limit):
    """Rows `start:limit` of a RaggedTensor (graph ops)."""
    splits = rt.row_splits[start:limit + 1] - rt.row_splits[start]
    v = rt.values
    lo, hi = rt.row_splits[start], rt.row_splits[limit]
    sub = _slice_rows(v, lo, hi) if isinstance(v, RaggedTensor) else v[lo:hi]
    return RaggedTensor(sub, splits, internal=True)


def _ragged_value(parts):
    return RaggedTensorValue(parts[0], parts[1])


def _nvals(values, dtype):
    array_ops, _ = _ops()
    if isinstance(values, RaggedTensor):
        return values.nrows(out_type=dtype)
    return array_ops.shape(values, out_type=dtype)[0]


def _validated(splits, values):
    """`splits` behind TF's run-time checks of a row partition (first 0, sorted, last == nvals)."""
    from . import check_ops
    array_ops, math_ops = _ops()
    nvals = _nvals(values, splits.dtype)
    if _is_eager(splits, nvals):
        v, n = np.asarray(splits.numpy()), int(nvals.numpy())
        message = "Arguments to from_row_splits do not form a valid RaggedTensor:%s"
        _check(v.size > 0 and v[0] == 0, message % "zero")
        _check(np.diff(v) >= 0, message % "monotonic")
        _check(v[-1] == n, message % "nvals")
        return splits
    checks = [
        check_ops.assert_equal(splits[:1], array_ops.zeros([1], splits.dtype),
                               message="Arguments to from_row_splits do not form a valid RaggedTensor:zero"),
        check_ops.assert_non_negative(splits[1:] - splits[:-1],
                                      message="Arguments to from_row_splits do not form a valid "
                                              "RaggedTensor:monotonic"),
        check_ops.assert_equal(splits[-1:], array_ops.reshape(nvals, [1]),
                               message="Arguments to from_row_splits do not form a valid RaggedTensor:nvals"),
    ]
    with ops.control_dependencies(checks):
        return array_ops.identity(splits)


# ---- composite helpers used above and by tf.ragged ------------------------------------------------
def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of each value of a row-splits vector (TF's `tf.ragged.row_splits_to_segment_ids`):
    `[0, 3, 3, 5]` gives `[0, 0, 0, 2, 2]`.

    Args:
      splits: A 1-D int32/int64 row-splits `Tensor`.
      name: A name for the operation (optional).
      out_type: The output dtype (default: that of `splits`).

    Returns:
      A 1-D `Tensor` of length `splits[-1]`.
    """
    array_ops, math_ops = _ops()
    with ops.name_scope(name, "SplitsToSegmentIds", [splits]):
        splits = _partition(splits, "splits")
        out_type = dtypes.as_dtype(out_type) if out_type is not None else splits.dtype
        nvals = splits[-1]
        positions = math_ops.range(nvals, dtype=splits.dtype)
        ids = math_ops.searchsorted(splits[1:], positions, side="right", out_type=out_type)
        return ids


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """The row-splits vector of sorted segment ids (TF's `tf.ragged.segment_ids_to_row_splits`):
    `[0, 0, 0, 2, 2]` gives `[0, 3, 3, 5]`.

    Args:
      segment_ids: A 1-D int32/int64 `Tensor` of non-decreasing non-negative ids.
      num_segments: The number of segments (default `segment_ids[-1] + 1`).
      out_type: The output dtype (default: that of `segment_ids`).
      name: A name for the operation (optional).

    Returns:
      A 1-D `Tensor` of length `num_segments + 1`.
    """
    array_ops, math_ops = _ops()
    from .segment_ops import bincount
    with ops.name_scope(name, "SegmentIdsToRaggedSplits", [segment_ids]):
        ids = _partition(segment_ids, "segment_ids")
        out_type = dtypes.as_dtype(out_type) if out_type is not None else ids.dtype
        if num_segments is None:
            n = array_ops.size(ids, out_type=ids.dtype)
            num_segments = array_ops.gather(array_ops.concat([array_ops.constant([-1], ids.dtype), ids], 0), n) + 1
        num = math_ops.cast(ops.convert_to_tensor(num_segments, name="num_segments"), dtypes.int32)
        lengths = bincount(math_ops.cast(ids, dtypes.int32), minlength=num, maxlength=num, dtype=out_type)
        return array_ops.concat([array_ops.zeros([1], out_type), math_ops.cumsum(lengths)], axis=0)


def from_sparse_2d(st, row_splits_dtype=dtypes.int64):
    """The `RaggedTensor` of a 2-D `SparseTensor` in row-major order (rows: `dense_shape[0]`)."""
    _, math_ops = _ops()
    sdt = _splits_dtype(row_splits_dtype)
    if st.indices.shape.as_tuple() is not None and st.indices.shape.as_tuple()[1] not in (None, 2):
        raise ValueError("rank(st_input) must be 2")
    rowids = math_ops.cast(st.indices[:, 0], sdt)
    nrows = math_ops.cast(st.dense_shape[0], sdt)
    splits = segment_ids_to_row_splits(rowids, nrows, out_type=sdt)
    return RaggedTensor(st.values, splits, internal=True)


# ---- RaggedTensorSpec ----------------------------------------------------------------------------
class RaggedTensorSpec:
    """Describes a `RaggedTensor`: its static shape, dtype, ragged rank and row-splits dtype.

    Args:
      shape: The static shape (rank >= 2 unless ragged_rank is 0), or None.
      dtype: The values' `DType` (default float32).
      ragged_rank: The number of ragged dimensions (default `rank - 1`).
      row_splits_dtype: int64 (default) or int32.

    Raises:
      ValueError: If `ragged_rank` is not below the rank of `shape`, or cannot be inferred.
    """

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None, row_splits_dtype=dtypes.int64,
                 flat_values_spec=None):
        if flat_values_spec is not None:
            raise NotImplementedError("RaggedTensorSpec: flat_values_spec")
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = _splits_dtype(row_splits_dtype)
        rank = self._shape.ndims
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int):
            raise TypeError("ragged_rank must be an int")
        if rank is not None and ragged_rank >= rank:
            raise ValueError("ragged_rank must be less than rank (%d), got %d" % (rank, ragged_rank))
        self._ragged_rank = ragged_rank

    @property
    def shape(self):
        """The static `TensorShape`."""
        return self._shape

    @property
    def dtype(self):
        """The values' `DType`."""
        return self._dtype

    @property
    def ragged_rank(self):
        """The number of ragged dimensions."""
        return self._ragged_rank

    @property
    def row_splits_dtype(self):
        """The row-splits `DType`."""
        return self._row_splits_dtype

    @property
    def value_type(self):
        """`RaggedTensor`."""
        return RaggedTensor

    def is_compatible_with(self, spec_or_value):
        """Whether a spec, `RaggedTensor` or `RaggedTensorValue` fits this spec (dtype, ragged rank,
        row-splits dtype, shape)."""
        if isinstance(spec_or_value, RaggedTensor):
            other = RaggedTensorSpec.from_value(spec_or_value)
        elif isinstance(spec_or_value, RaggedTensorSpec):
            other = spec_or_value
        else:
            return False
        return (self._dtype == other._dtype and self._ragged_rank == other._ragged_rank
                and self._row_splits_dtype == other._row_splits_dtype
                and self._shape.is_compatible_with(other._shape))

    @classmethod
    def from_value(cls, value):
        """The spec of a `RaggedTensor`."""
        if not isinstance(value, RaggedTensor):
            raise TypeError("Expected a RaggedTensor, got %r" % (value,))
        return cls(shape=value.shape, dtype=value.dtype, ragged_rank=value.ragged_rank,
                   row_splits_dtype=value.row_splits_dtype)

    def __eq__(self, other):
        return (type(other) is RaggedTensorSpec and self._dtype == other._dtype
                and self._ragged_rank == other._ragged_rank and self._row_splits_dtype == other._row_splits_dtype
                and self._shape.as_tuple() == other._shape.as_tuple())

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self._shape.as_tuple(), self._dtype, self._ragged_rank, self._row_splits_dtype))

    def __repr__(self):
        return "RaggedTensorSpec(%r, tf.%s, %d, tf.%s)" % (self._shape, self._dtype.name, self._ragged_rank,
                                                          self._row_splits_dtype.name)
