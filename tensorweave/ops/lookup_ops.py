"""Lookup tables (TF's `lookup_ops`): the "HashTableV2" and "MutableHashTableV2"/"MutableHashTableOfTensorsV2"
handle ops, "InitializeTableV2", "InitializeTableFromTextFileV2", "LookupTableFindV2", "LookupTableSizeV2",
"LookupTableInsertV2", "LookupTableRemoveV2", "LookupTableExportV2" and "LookupTableImportV2", and the classes
of `tf.lookup` (`StaticHashTable`, `StaticVocabularyTable`, `KeyValueTensorInitializer`, `TextFileInitializer`,
`MutableHashTable`) with `tf.tables_initializer`.

A table lives in the state of whoever runs its handle op (`ctx.op_state`, keyed by the op or by
`shared_name`), so two Sessions on one graph have independent tables, as TF's resources; the handle
is a resource scalar whose value is the table itself. A static table must be initialized (by its
initializer op, which `tf.tables_initializer()` groups) before a lookup: FailedPreconditionError
"Table not initialized." otherwise, as in TF.
"""

import numpy as np

from ..framework import dtypes as dtypes_lib
from ..framework import errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from .data_flow_ops import _handle_value, _shared_resource

__all__ = ["KeyValueTensorInitializer", "LookupInterface", "MutableHashTable", "StaticHashTable",
           "StaticVocabularyTable", "TableInitializerBase", "TextFileIndex", "TextFileInitializer",
           "initialize_all_tables", "tables_initializer"]


# ---- the table state -------------------------------------------------------------------------------
def _key_of(k):
    """A hashable Python key for one key element (bytes for strings, a Python number otherwise)."""
    if isinstance(k, (bytes, str)):
        return k.encode("utf-8") if isinstance(k, str) else k
    return k.item() if hasattr(k, "item") else k


def _fmt(v):
    v = np.asarray(v)
    if v.dtype == object or v.dtype.kind in "SU":
        v = v.flat[0] if v.size else v
        return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
    return str(v.item()) if v.size == 1 else str(v.tolist())


class _Table:
    """A running table: a dict from keys to values (arrays of `value_shape`)."""

    def __init__(self, name, key_dtype, value_dtype, value_shape=(), mutable=False):
        self.name = name
        self.key_dtype = key_dtype
        self.value_dtype = value_dtype
        self.value_shape = tuple(value_shape)
        self.mutable = mutable
        self.initialized = mutable
        self.data = {}

    def check(self, op):
        if not self.initialized:
            raise errors.FailedPreconditionError(None, op, "Table not initialized.")

    def check_types(self, op, keys=None, values=None):
        if keys is not None and not _matches(keys, self.key_dtype):
            raise errors.InvalidArgumentError(None, op, "Key must be type %s but got %s" % (
                self.key_dtype.name, _dtype_name(keys)))
        if values is not None and not _matches(values, self.value_dtype):
            raise errors.InvalidArgumentError(None, op, "Value must be type %s but got %s" % (
                self.value_dtype.name, _dtype_name(values)))

    def insert(self, keys, values, op, initializing):
        n = keys.size
        vshape = self.value_shape
        if values.shape != keys.shape + vshape:
            raise errors.InvalidArgumentError(None, op, "Expected shape %s for value, got %s" % (
                list(keys.shape + vshape), list(values.shape)))
        flat_values = values.reshape((n,) + vshape)
        new = {}
        for k, v in zip(keys.reshape(-1), flat_values):
            k = _key_of(k)
            if initializing:
                prev = new.get(k, self.data.get(k) if not self.initialized else None)
                if prev is not None and not np.array_equal(prev, v):
                    raise errors.FailedPreconditionError(
                        None, op, "HashTable has different value for same key. Key %s has %s and trying to add "
                        "value %s" % (_fmt(np.asarray(k, dtype=object) if isinstance(k, bytes) else k), _fmt(prev),
                                      _fmt(v)))
            new[k] = v if not vshape else np.array(v, copy=True)  # a scalar stays a NumPy scalar or bytes
        return new

    def initialize(self, keys, values, op):
        new = self.insert(keys, values, op, initializing=True)
        if self.initialized:
            same = len(new) == len(self.data) and all(
                k in self.data and np.array_equal(self.data[k], v) for k, v in new.items())
            if not same:
                raise errors.FailedPreconditionError(None, op, "Table was already initialized with different data.")
            return
        self.data = new
        self.initialized = True

    def find(self, keys, default, op):
        vshape = self.value_shape
        default = np.asarray(default)
        if default.shape not in ((), vshape):
            raise errors.InvalidArgumentError(None, op, "Expected shape %s or [] for default value, got %s" % (
                list(vshape), list(default.shape)))
        out = np.empty((keys.size,) + vshape, dtype=self.value_dtype.as_numpy_dtype)
        if default.shape == ():
            default = default[()]  # an element, not a 0-d array, into an object (string) array
        get = self.data.get
        for i, k in enumerate(keys.reshape(-1)):
            v = get(_key_of(k))
            out[i] = default if v is None else v
        return out.reshape(keys.shape + vshape)


def _matches(a, dtype):
    if dtype is dtypes_lib.string:
        return a.dtype == object or a.dtype.kind in "SU"
    return a.dtype == dtype.as_numpy_dtype


def _dtype_name(a):
    try:
        return dtypes_lib.as_dtype(a.dtype).name
    except TypeError:
        return str(a.dtype)


def _table_of(handle, op):
    t = handle[()] if isinstance(handle, np.ndarray) else handle
    if not isinstance(t, _Table):
        raise errors.InvalidArgumentError(None, op, "Input is not a lookup table handle")
    return t


# ---- handle ops ------------------------------------------------------------------------------------
def _handle_infer(op):
    return [(dtypes_lib.resource, ())]


def _make_handle_kernel(mutable):
    def kernel(ctx, op, key_dtype, value_dtype, container, shared_name, use_node_name_sharing, value_shape=()):
        key = ("tf.lookup.shared", container, shared_name) if shared_name else op
        t = ctx.op_state.get(key)
        if t is None:
            t = _shared_resource(ctx, op, key, lambda: _Table(shared_name or op.name, key_dtype, value_dtype,
                                                              tuple(value_shape), mutable), check_closed=False)
        elif t.key_dtype != key_dtype or t.value_dtype != value_dtype:
            raise errors.InvalidArgumentError(
                None, op, "Conflicting key/value dtypes %s->%s with %s-%s" % (
                    key_dtype.name, value_dtype.name, t.key_dtype.name, t.value_dtype.name))
        return _handle_value(t)
    return kernel


for _type, _mutable in (("HashTableV2", False), ("MutableHashTableV2", True), ("MutableHashTableOfTensorsV2", True)):
    register_op(_type, infer=_handle_infer, kernel=_make_handle_kernel(_mutable), grad=NO_GRADIENT, stateful=True)


def _handle_op(op_type, key_dtype, value_dtype, shared_name, name, value_shape=None):
    attrs = {"key_dtype": key_dtype, "value_dtype": value_dtype, "container": "", "shared_name": shared_name or "",
             "use_node_name_sharing": False}
    if value_shape is not None:
        attrs["value_shape"] = tuple(value_shape)
    return ops.apply_op(op_type, [], attrs, name=name)


# ---- initialization ---------------------------------------------------------------------------------
def _no_outputs(op):
    return []


def _initialize_kernel(ctx, op, handle, keys, values):
    t = _table_of(handle, op)
    t.check_types(op, keys, values)
    if keys.shape != values.shape[:keys.ndim] or values.shape != keys.shape + t.value_shape:
        raise errors.InvalidArgumentError(None, op, "Keys and values must have the same size %d vs %d" % (
            keys.size, values.size))
    with ctx.lock:
        t.initialize(keys, values, op)


register_op("InitializeTableV2", infer=_no_outputs, kernel=_initialize_kernel, grad=NO_GRADIENT, stateful=True)

WHOLE_LINE = -2
LINE_NUMBER = -1


def _text_file_kernel(ctx, op, handle, filename, key_index, value_index, vocab_size, delimiter, offset=0):
    t = _table_of(handle, op)
    path = filename[()] if isinstance(filename, np.ndarray) else filename
    path = path.decode("utf-8") if isinstance(path, bytes) else str(path)
    try:
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
    except FileNotFoundError:
        raise errors.NotFoundError(None, op, "%s; No such file or directory" % path) from None
    if lines and lines[-1] == b"":
        lines.pop()
    lines = [ln[:-1] if ln.endswith(b"\r") else ln for ln in lines]
    if vocab_size != -1:
        if len(lines) < vocab_size:
            raise errors.InvalidArgumentError(None, op, "Invalid vocab_size in %s: expected %d but got %d" % (
                path, vocab_size, len(lines)))
        lines = lines[:vocab_size]
    delim = delimiter.encode("utf-8") if isinstance(delimiter, str) else delimiter

    def column(index, dtype, what):
        out = []
        for n, line in enumerate(lines):
            if index == LINE_NUMBER:
                out.append(n + offset)
                continue
            if index == WHOLE_LINE:
                field = line
            else:
                fields = line.split(delim)
                if index >= len(fields):
                    raise errors.InvalidArgumentError(None, op, "Invalid number of columns in %s line %d (%s) : "
                                                      "expected %d got %d" % (path, n, line.decode("utf-8", "replace"),
                                                                              index, len(fields)))
                field = fields[index]
            if dtype is dtypes_lib.string:
                out.append(field)
            else:
                try:
                    out.append(int(field) if dtype.is_integer else float(field))
                except ValueError:
                    raise errors.InvalidArgumentError(None, op, "Field %s in line %d is not a valid %s." % (
                        field.decode("utf-8", "replace"), n, "int64" if dtype.is_integer else "float")) from None
        if dtype is dtypes_lib.string:
            a = np.empty(len(out), dtype=object)
            a[:] = out
            return a
        return np.array(out, dtype=dtype.as_numpy_dtype)

    keys = column(key_index, t.key_dtype, "key")
    values = column(value_index, t.value_dtype, "value")
    with ctx.lock:
        t.initialize(keys, values, op)


register_op("InitializeTableFromTextFileV2", infer=_no_outputs, kernel=_text_file_kernel, grad=NO_GRADIENT,
            stateful=True)


# ---- lookups and mutations -------------------------------------------------------------------------
def _find_infer(op):
    keys = op.inputs[1]
    value_shape = op._attrs.get("value_shape") or ()
    shape = keys.shape if keys.shape.ndims is None else TensorShape(list(keys.shape.as_list()) + list(value_shape))
    if keys.shape.ndims is None:
        shape = unknown_shape()
    return [(op._attrs["Tout"], shape)]


def _find_kernel(ctx, op, handle, keys, default_value, Tin, Tout, value_shape=()):  # noqa: N803 (TF's attr names)
    t = _table_of(handle, op)
    t.check(op)
    t.check_types(op, keys, default_value)
    with ctx.lock:
        return t.find(keys, default_value, op)


register_op("LookupTableFindV2", infer=_find_infer, kernel=_find_kernel, grad=NO_GRADIENT, stateful=True)


def _size_kernel(ctx, op, handle):
    t = _table_of(handle, op)
    return np.int64(len(t.data) if t.initialized else 0)


register_op("LookupTableSizeV2", infer=lambda op: [(dtypes_lib.int64, ())], kernel=_size_kernel, grad=NO_GRADIENT,
            stateful=True)


def _insert_kernel(ctx, op, handle, keys, values, Tin, Tout):  # noqa: N803
    t = _table_of(handle, op)
    t.check_types(op, keys, values)
    with ctx.lock:
        t.data.update(t.insert(keys, values, op, initializing=False))


register_op("LookupTableInsertV2", infer=_no_outputs, kernel=_insert_kernel, grad=NO_GRADIENT, stateful=True)


def _remove_kernel(ctx, op, handle, keys, Tin):  # noqa: N803
    t = _table_of(handle, op)
    t.check_types(op, keys)
    with ctx.lock:
        for k in keys.reshape(-1):
            t.data.pop(_key_of(k), None)


register_op("LookupTableRemoveV2", infer=_no_outputs, kernel=_remove_kernel, grad=NO_GRADIENT, stateful=True)


def _export_infer(op):
    value_shape = list(op._attrs.get("value_shape") or ())
    return [(op._attrs["Tkeys"], TensorShape([None])), (op._attrs["Tvalues"], TensorShape([None] + value_shape))]


def _export_kernel(ctx, op, handle, Tkeys, Tvalues, value_shape=()):  # noqa: N803
    t = _table_of(handle, op)
    with ctx.lock:
        items = list(t.data.items())
    if t.key_dtype is dtypes_lib.string:
        keys = np.empty(len(items), dtype=object)
        keys[:] = [k for k, _ in items]
    else:
        keys = np.array([k for k, _ in items], dtype=t.key_dtype.as_numpy_dtype)
    values = np.array([v for _, v in items], dtype=t.value_dtype.as_numpy_dtype).reshape((len(items),) + t.value_shape)
    return keys, values


register_op("LookupTableExportV2", infer=_export_infer, kernel=_export_kernel, grad=NO_GRADIENT, stateful=True)


def _import_kernel(ctx, op, handle, keys, values, Tin, Tout):  # noqa: N803
    t = _table_of(handle, op)
    t.check_types(op, keys, values)
    with ctx.lock:
        t.data = t.insert(keys, values, op, initializing=False)
        t.initialized = True


register_op("LookupTableImportV2", infer=_no_outputs, kernel=_import_kernel, grad=NO_GRADIENT, stateful=True)


# ---- the Python classes ------------------------------------------------------------------------------
class TextFileIndex:
    """Which part of a line a `TextFileInitializer` column takes: the whole line or its number."""
    WHOLE_LINE = WHOLE_LINE
    LINE_NUMBER = LINE_NUMBER


def _convert_keys(keys, key_dtype):
    keys = ops.convert_to_tensor(keys) if not isinstance(keys, SparseTensor) else keys
    dtype = keys.dtype
    if dtype.base_dtype != key_dtype:
        raise TypeError("Signature mismatch. Keys must be dtype %s, got %s." % (key_dtype, dtype))
    return keys


class _KeyValueDtypes:
    """The key and value dtypes of a table or a table initializer."""

    def __init__(self, key_dtype, value_dtype):
        self._key_dtype = dtypes_lib.as_dtype(key_dtype)
        self._value_dtype = dtypes_lib.as_dtype(value_dtype)

    @property
    def key_dtype(self):
        """The table's key dtype."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """The table's value dtype."""
        return self._value_dtype


class LookupInterface(_KeyValueDtypes):
    """The interface of lookup tables: key and value dtypes, `size()` and `lookup(keys)`."""

    def __init__(self, key_dtype, value_dtype, name):
        super().__init__(key_dtype, value_dtype)
        self._name = name

    @property
    def name(self):
        """The table's name."""
        return self._name

    @property
    def resource_handle(self):
        """The handle tensor of the table."""
        return self._handle

    def size(self, name=None):
        """The number of elements in the table (an int64 scalar tensor)."""
        with ops.name_scope(name, "%s_Size" % self._name, [self._handle]):
            return ops.apply_op("LookupTableSizeV2", [self._handle], {}, name=name or "LookupTableSizeV2")

    def _find(self, keys, default_value, name, value_shape=None):
        attrs = {"Tin": self._key_dtype, "Tout": self._value_dtype}
        if value_shape:
            attrs["value_shape"] = tuple(value_shape)
        return ops.apply_op("LookupTableFindV2", [self._handle, keys, default_value], attrs, name="LookupTableFindV2")

    def lookup(self, keys, name=None):
        """Looks `keys` up (a Tensor or SparseTensor of `key_dtype`); missing keys give the default value.

        Returns:
          A Tensor of `keys`' shape (a SparseTensor for SparseTensor keys) of `value_dtype`.

        Raises:
          TypeError: If `keys` is not of the table's key dtype.
        """
        keys = _convert_keys(keys, self._key_dtype)
        values = keys.values if isinstance(keys, SparseTensor) else keys
        with ops.name_scope(name, "%s_Lookup" % self._name, [self._handle, values]):
            default = ops.convert_to_tensor(self._default_value, dtype=self._value_dtype)
            out = self._find(values, default, name, getattr(self, "_value_shape", None))
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, out, keys.dense_shape)
        return out


class TableInitializerBase(_KeyValueDtypes):
    """The base of table initializers: the key and value dtypes and `initialize(table)`."""

    def _check_table_dtypes(self, key_dtype, value_dtype):
        if key_dtype.base_dtype != self._key_dtype:
            raise TypeError("Invalid key dtype, expected %s but got %s." % (self._key_dtype, key_dtype))
        if value_dtype.base_dtype != self._value_dtype:
            raise TypeError("Invalid value dtype, expected %s but got %s." % (self._value_dtype, value_dtype))


class KeyValueTensorInitializer(TableInitializerBase):
    """Initializes a table from a keys tensor and a values tensor of the same size.

    Args:
      keys: The keys (a tensor or array-like).
      values: The values, one per key.
      key_dtype: The keys' dtype (default: inferred).
      value_dtype: The values' dtype (default: inferred).
      name: Name of the initializer op (default "key_value_init").
    """

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        with ops.name_scope(name, "key_value_init", []) as self._name:
            self._keys = ops.convert_to_tensor(keys, dtype=key_dtype, name="keys")
            self._values = ops.convert_to_tensor(values, dtype=value_dtype, name="values")
        super().__init__(self._keys.dtype, self._values.dtype)

    def initialize(self, table):
        """The op initializing `table` (added to the TABLE_INITIALIZERS collection).

        Raises:
          TypeError: If the table's dtypes differ from the initializer's.
        """
        self._check_table_dtypes(table.key_dtype, table.value_dtype)
        with ops.name_scope(self._name, values=[table.resource_handle, self._keys, self._values]):
            init = ops.apply_op("InitializeTableV2", [table.resource_handle, self._keys, self._values], {},
                                name="InitializeTableV2")
        ops.add_to_collection(ops.GraphKeys.TABLE_INITIALIZERS, init)
        return init


class TextFileInitializer(TableInitializerBase):
    """Initializes a table from a text file: one entry per line, the key and the value taken from
    columns split by `delimiter`, or the whole line (`TextFileIndex.WHOLE_LINE`), or the line number
    (`TextFileIndex.LINE_NUMBER`).

    Args:
      filename: The file's path (a string or scalar string tensor).
      key_dtype: The keys' dtype (int64 for LINE_NUMBER keys, string for WHOLE_LINE).
      key_index: The column of the key, or a `TextFileIndex` constant.
      value_dtype: The values' dtype.
      value_index: The column of the value, or a `TextFileIndex` constant.
      vocab_size: How many lines to read (None: all; fewer lines in the file is an error).
      delimiter: The column delimiter.
      name: Name of the initializer op.

    Raises:
      ValueError: For an invalid index or vocab_size.
      TypeError: If a dtype does not fit its index.
    """

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None, delimiter="\t",
                 name=None):
        key_dtype, value_dtype = dtypes_lib.as_dtype(key_dtype), dtypes_lib.as_dtype(value_dtype)
        if key_index < -2:
            raise ValueError("Invalid key index %s." % key_index)
        if key_index == LINE_NUMBER and key_dtype != dtypes_lib.int64:
            raise ValueError("Signature mismatch. Keys must be dtype %s, got %s." % (dtypes_lib.int64, key_dtype))
        if key_index == WHOLE_LINE and not (key_dtype.is_integer or key_dtype == dtypes_lib.string):
            raise ValueError("Signature mismatch. Keys must be integer or string, got %s." % key_dtype)
        if value_index < -2:
            raise ValueError("Invalid value index %s." % value_index)
        if value_index == LINE_NUMBER and value_dtype != dtypes_lib.int64:
            raise ValueError("Signature mismatch. Values must be dtype %s, got %s." % (dtypes_lib.int64, value_dtype))
        if value_index == WHOLE_LINE and value_dtype != dtypes_lib.string:
            raise ValueError("Signature mismatch. Values must be dtype %s, got %s." % (dtypes_lib.string,
                                                                                       value_dtype))
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError("Invalid vocab_size %s." % vocab_size)
        self._filename = filename
        self._key_index = key_index
        self._value_index = value_index
        self._vocab_size = vocab_size
        self._delimiter = delimiter
        self._name = name
        super().__init__(key_dtype, value_dtype)

    def initialize(self, table):
        """The op initializing `table` from the file (added to the TABLE_INITIALIZERS collection).

        Raises:
          TypeError: If the table's dtypes differ from the initializer's.
        """
        self._check_table_dtypes(table.key_dtype, table.value_dtype)
        with ops.name_scope(self._name, "text_file_init", [table.resource_handle]):
            filename = ops.convert_to_tensor(self._filename, dtypes_lib.string, name="asset_filepath")
            init = ops.apply_op("InitializeTableFromTextFileV2", [table.resource_handle, filename], {
                "key_index": self._key_index, "value_index": self._value_index,
                "vocab_size": -1 if self._vocab_size is None else self._vocab_size, "delimiter": self._delimiter,
                "offset": 0}, name="InitializeTableFromTextFileV2")
        ops.add_to_collection(ops.GraphKeys.TABLE_INITIALIZERS, init)
        if isinstance(self._filename, (str, bytes)) or (hasattr(filename.op, "type") and filename.op.type == "Const"):
            ops.add_to_collection(ops.GraphKeys.ASSET_FILEPATHS, filename)
        return init


class StaticHashTable(LookupInterface):
    """A hash table whose contents its initializer sets once (`tf.lookup.StaticHashTable`, TF 1.x's
    `HashTable`): run `table.initializer` (or `tf.tables_initializer()`) before looking keys up.

    Args:
      initializer: A `KeyValueTensorInitializer` or `TextFileInitializer`.
      default_value: The value for missing keys.
      name: The table's name (default "hash_table").
    """

    def __init__(self, initializer, default_value, name=None):
        with ops.name_scope(name, "hash_table", []) as scope:
            self._handle = _handle_op("HashTableV2", initializer.key_dtype, initializer.value_dtype, None,
                                      name=scope)
        super().__init__(initializer.key_dtype, initializer.value_dtype, self._handle.op.name.split("/")[-1])
        self._default_value = ops.convert_to_tensor(default_value, dtype=self._value_dtype)
        self._initializer_obj = initializer
        self._init_op = initializer.initialize(self)

    @property
    def initializer(self):
        """The op that initializes the table."""
        return self._init_op

    init = initializer

    @property
    def default_value(self):
        """The value for missing keys."""
        return self._default_value

    def export(self, name=None):
        """The table's (keys, values) as two tensors, in no particular order."""
        with ops.name_scope(name, "%s_lookup_table_export_values" % self._name, [self._handle]):
            return ops.apply_op("LookupTableExportV2", [self._handle], {"Tkeys": self._key_dtype,
                                                                        "Tvalues": self._value_dtype})


class StaticVocabularyTable(LookupInterface):
    """A vocabulary table mapping keys to int64 ids, with out-of-vocabulary keys hashed into
    `num_oov_buckets` extra ids after the vocabulary (FarmHash Fingerprint64 of the key, of its decimal
    string for integer keys: the `[strings]` extra), as TF.

    Args:
      initializer: A table initializer with int64 values (the ids).
      num_oov_buckets: The number of out-of-vocabulary buckets (> 0).
      lookup_key_dtype: The dtype of the keys looked up (default: the initializer's key dtype).
      name: The table's name.

    Raises:
      ValueError: If `num_oov_buckets` is not positive or the initializer is missing.
      TypeError: If the initializer's values are not int64.
    """

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None):
        if num_oov_buckets <= 0:
            raise ValueError("oov_buckets must be > 0.")
        if initializer is None:
            raise ValueError("initializer must be specified.")
        if initializer.value_dtype != dtypes_lib.int64:
            raise TypeError("Invalid value dtype, expected %s but got %s." % (dtypes_lib.int64,
                                                                              initializer.value_dtype))
        self._num_oov_buckets = num_oov_buckets
        self._table = StaticHashTable(initializer, -1, name=name)
        self._handle = self._table.resource_handle
        key_dtype = lookup_key_dtype or initializer.key_dtype
        if dtypes_lib.as_dtype(key_dtype) != initializer.key_dtype:
            raise TypeError("Invalid key dtype, expected %s but got %s." % (initializer.key_dtype, key_dtype))
        super().__init__(key_dtype, dtypes_lib.int64, self._table.name)

    @property
    def resource_handle(self):
        return self._handle

    @property
    def initializer(self):
        """The op that initializes the vocabulary."""
        return self._table.initializer

    def size(self, name=None):
        """The vocabulary size plus the number of OOV buckets (an int64 scalar tensor)."""
        from . import math_ops
        with ops.name_scope(name, "%s_Size" % self.name, [self._handle]):
            return math_ops.add(self._table.size(), self._num_oov_buckets)

    def lookup(self, keys, name=None):
        """Looks `keys` up: the vocabulary id, or `vocab_size + hash(key) % num_oov_buckets` for a key
        not in the vocabulary.

        Returns:
          An int64 Tensor (SparseTensor for SparseTensor keys) of `keys`' shape.

        Raises:
          TypeError: If `keys` is not of the table's key dtype.
        """
        from . import array_ops, math_ops
        from .string_basic_ops import as_string
        from .string_hash_ops import string_to_hash_bucket_fast
        keys = _convert_keys(keys, self._key_dtype)
        values = keys.values if isinstance(keys, SparseTensor) else keys
        with ops.name_scope(name, "%s_Lookup" % self.name, [values]):
            strings = values if values.dtype == dtypes_lib.string else as_string(values)
            buckets = string_to_hash_bucket_fast(strings, self._num_oov_buckets, name="hash_bucket")
            ids = self._table.lookup(values)
            oov = math_ops.add(buckets, self._table.size())
            out = array_ops.where(math_ops.not_equal(ids, -1), ids, oov)
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, out, keys.dense_shape)
        return out


class MutableHashTable(LookupInterface):
    """A hash table updated by `insert`/`remove` ops (`tf.lookup.experimental.MutableHashTable`); it
    needs no initializer. A vector `default_value` makes a table of vectors.

    Args:
      key_dtype: The keys' dtype.
      value_dtype: The values' dtype.
      default_value: The value for missing keys (its shape is the value shape).
      name: The table's name (default "MutableHashTable").
      checkpoint: Whether `tf.train.Saver` saves and restores the table's contents (as TF's
        `<name>-keys` and `<name>-values` checkpoint entries).
    """

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True):
        key_dtype, value_dtype = dtypes_lib.as_dtype(key_dtype), dtypes_lib.as_dtype(value_dtype)
        self._default_value = ops.convert_to_tensor(default_value, dtype=value_dtype)
        self._value_shape = tuple(self._default_value.shape.as_list())
        with ops.name_scope(name, "MutableHashTable", []) as scope:
            op_type = "MutableHashTableOfTensorsV2" if self._value_shape else "MutableHashTableV2"
            self._handle = _handle_op(op_type, key_dtype, value_dtype, None, name=scope,
                                      value_shape=self._value_shape if self._value_shape else None)
        super().__init__(key_dtype, value_dtype, self._handle.op.name.split("/")[-1])
        self._checkpoint = checkpoint
        if checkpoint and not ops.get_default_graph()._eager:
            ops.add_to_collection(ops.GraphKeys.SAVEABLE_OBJECTS, _TableSaveable(self, self._handle.op.name))

    def insert(self, keys, values, name=None):
        """An op inserting (or overwriting) `keys` -> `values`.

        Raises:
          TypeError: If the dtypes do not match the table's.
        """
        keys = _convert_keys(keys, self._key_dtype)
        values = ops.convert_to_tensor(values, dtype=self._value_dtype)
        with ops.name_scope(name, "%s_lookup_table_insert" % self._name, [self._handle, keys, values]):
            return ops.apply_op("LookupTableInsertV2", [self._handle, keys, values],
                                {"Tin": self._key_dtype, "Tout": self._value_dtype}, name="LookupTableInsertV2")

    def remove(self, keys, name=None):
        """An op removing `keys` (missing keys are ignored).

        Raises:
          TypeError: If `keys` is not of the key dtype.
        """
        keys = _convert_keys(keys, self._key_dtype)
        with ops.name_scope(name, "%s_lookup_table_remove" % self._name, [self._handle, keys]):
            return ops.apply_op("LookupTableRemoveV2", [self._handle, keys], {"Tin": self._key_dtype},
                                name="LookupTableRemoveV2")

    def export(self, name=None):
        """The table's (keys, values) as two tensors, in no particular order."""
        attrs = {"Tkeys": self._key_dtype, "Tvalues": self._value_dtype}
        if self._value_shape:
            attrs["value_shape"] = self._value_shape
        with ops.name_scope(name, "%s_lookup_table_export_values" % self._name, [self._handle]):
            return ops.apply_op("LookupTableExportV2", [self._handle], attrs, name="LookupTableExportV2")


class _TableSaveable:
    """What `tf.train.Saver` saves of a MutableHashTable: its exported keys and values, as TF's
    `<name>-keys` / `<name>-values` checkpoint entries, restored by LookupTableImportV2."""

    def __init__(self, table, name):
        self.name = name
        self.device = table.resource_handle.op.device
        self._table = table
        keys, values = table.export()
        self.specs = [(name + "-keys", keys), (name + "-values", values)]

    def restore(self, restored_tensors):
        """The op replacing the table's contents with the restored (keys, values)."""
        keys, values = restored_tensors
        return ops.apply_op("LookupTableImportV2", [self._table.resource_handle, keys, values],
                            {"Tin": self._table.key_dtype, "Tout": self._table.value_dtype},
                            name="table_restore")


def tables_initializer(name="init_all_tables"):
    """An op that runs every table initializer of the default graph (TABLE_INITIALIZERS), or a no-op.

    Args:
      name: The op's name.

    Returns:
      The op.
    """
    from . import core_ops
    initializers = ops.get_collection(ops.GraphKeys.TABLE_INITIALIZERS)
    if initializers:
        return core_ops.group(*initializers, name=name)
    return core_ops.no_op(name=name)


initialize_all_tables = tables_initializer
