"""More `tf.data.experimental` sources and names: `SqlDataset` (SQLite queries), `RandomDataset`,
`SHARD_HINT`, the structure constructors of TF 1.x (`TensorStructure`, `SparseTensorStructure`,
`DatasetStructure`) and `map_and_batch_with_legacy_function`."""

import random
import re

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from . import structure
from .dataset_ops import Dataset
from .structure import DatasetSpec, SparseTensorSpec

__all__ = ["DatasetStructure", "RandomDataset", "SHARD_HINT", "SparseTensorStructure", "SqlDataset",
           "TensorStructure", "map_and_batch_with_legacy_function"]

# A `num_shards`/`index` value of `Dataset.shard` meaning "filled in by auto-sharding".
SHARD_HINT = -1

DatasetStructure = DatasetSpec


def TensorStructure(dtype, shape):  # noqa: N802 (TF's name)
    """A `tf.TensorSpec` of `shape` and `dtype` (TF 1.x's name, argument order dtype first).

    Returns:
      A `TensorSpec`.
    """
    return TensorSpec(shape, dtype)


def SparseTensorStructure(dtype, shape):  # noqa: N802
    """A `tf.SparseTensorSpec` of `shape` and `dtype` (TF 1.x's name, argument order dtype first).

    Returns:
      A `SparseTensorSpec`.
    """
    return SparseTensorSpec(shape, dtype)


def map_and_batch_with_legacy_function(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                                       num_parallel_calls=None):
    """`map_and_batch` (TF's variant traced its function without `tf.function`; tensorweave traces every
    dataset function the same way).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    from .experimental import map_and_batch
    return map_and_batch(map_func, batch_size, num_parallel_batches, drop_remainder, num_parallel_calls)


# ---- SqlDataset -----------------------------------------------------------------------------------------
_SQL_TYPES = (dtypes.string, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16,
              dtypes.bool_, dtypes.float64)
_NUMBER = re.compile(r"^\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)")


def _numeric(v, integer):
    """SQLite's conversion of a column value to a number (text: its leading numeric prefix, else 0)."""
    if v is None:
        return 0
    if isinstance(v, (bytes, str)):
        s = v.decode("utf-8", "replace") if isinstance(v, bytes) else v
        m = _NUMBER.match(s)
        v = float(m.group(0)) if m else 0
    return int(v) if integer else float(v)


def _sql_value(v, dt):
    if dt == dtypes.string:
        if v is None:
            b = b""
        elif isinstance(v, bytes):
            b = v
        else:
            b = (repr(v) if isinstance(v, float) else str(v)).encode("utf-8")
        return np.array(b, dtype=object)
    if dt == dtypes.bool_:
        return np.array(_numeric(v, True) != 0)
    if dt == dtypes.float64:
        return np.array(_numeric(v, False), np.float64)
    return np.array(_numeric(v, True), dt.as_numpy_dtype)


class SqlDataset(Dataset):
    """A `Dataset` of the rows of an SQL query's result (SQLite databases, through Python's `sqlite3`).

    Each row is a tuple of scalars, one per column, converted as SQLite does (NULL is 0 or "").

    Example:

      dataset = tf.data.experimental.SqlDataset("sqlite", "/data/people.db",
                                                "SELECT name, age FROM people", (tf.string, tf.int32))

    Args:
      driver_name: A scalar `tf.string`: the database type; only "sqlite" is supported.
      data_source_name: A scalar `tf.string`: the database file.
      query: A scalar `tf.string`: the SQL query.
      output_types: A tuple of `tf.DType`s, one per column (string, int8, int16, int32, int64, uint8,
        uint16, bool or float64).

    From the iterator's initialization or `get_next()`: `InvalidArgumentError` for another driver, a
    disallowed type, or a column count that differs from `output_types`; `UnknownError` for an SQL error.
    """

    def __init__(self, driver_name, data_source_name, query, output_types):
        super().__init__()
        self._driver = ops.convert_to_tensor(driver_name, dtypes.string, name="driver_name")
        self._source = ops.convert_to_tensor(data_source_name, dtypes.string, name="data_source_name")
        self._query = ops.convert_to_tensor(query, dtypes.string, name="query")
        types = structure.map_structure(dtypes.as_dtype, output_types)
        self._types = structure.flatten(types)
        self._element_structure = structure.map_structure(lambda t: TensorSpec(TensorShape([]), t), types)

    def _captures(self):
        return [self._driver, self._source, self._query]

    def _validate(self, capture_values):
        driver = capture_values[0].item().decode("utf-8", "replace")
        if driver != "sqlite":
            raise errors.InvalidArgumentError(None, None, "The database type, %s, is not supported." % driver)
        if any(t not in _SQL_TYPES for t in self._types):
            raise errors.InvalidArgumentError(None, None, "Each element of `output_types_` must be one of: DT_STRING, "
                                              "DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_BOOL, "
                                              "DT_DOUBLE ")

    def _iterate(self, ctx, capture_values):
        import sqlite3  # only here: `import tensorweave` does not need it
        source = capture_values[1].item().decode("utf-8")
        query = capture_values[2].item().decode("utf-8")
        conn = sqlite3.connect(source, check_same_thread=False)
        conn.text_factory = bytes
        try:
            try:
                cursor = conn.execute(query)
            except sqlite3.Error as e:
                raise errors.UnknownError(None, None, "Prepare() failed: [1] %s: %s" % (e, query)) from None
            width = len(cursor.description or ())
            if width != len(self._types):
                raise errors.InvalidArgumentError(
                    None, None, "The number of columns in query (%d) must match the number of elements in output_types "
                    "(%d)." % (width, len(self._types)))
            for row in cursor:
                yield tuple(_sql_value(v, t) for v, t in zip(row, self._types))
        finally:
            conn.close()


# ---- RandomDataset ---------------------------------------------------------------------------------------
class RandomDataset(Dataset):
    """An infinite `Dataset` of pseudorandom `tf.int64` scalars, uniform over the int64 range.

    With a seed (`seed`, and the graph seed of `tf.set_random_seed`) the sequence is reproducible; it is
    tensorweave's own sequence, not TensorFlow's.

    Args:
      seed: (Optional.) The op seed.
    """

    def __init__(self, seed=None):
        super().__init__()
        from ..ops.random_ops import get_seed
        self._seeds = get_seed(seed)
        self._element_structure = TensorSpec([], dtypes.int64)

    def _seed_stream(self):
        seed, seed2 = self._seeds
        if seed is None and seed2 is None:
            return random.Random()
        return random.Random((int(seed) << 32) ^ int(seed2))

    def _iterate(self, ctx, capture_values):
        rng = random.Random(self._seed_stream().getrandbits(64))
        while True:
            yield (np.array(rng.getrandbits(64) - (1 << 63), np.int64),)
