"""`tf.data.experimental.cardinality`: the number of elements of a dataset, as TF 1.x computes it
(`map` and other function-driven transformations make it unknown, as TF 1.x's `map` does not preserve
cardinality), computed by the "DatasetCardinality" op from the dataset's captured values."""

from ..ops.dataset_cardinality_ops import dataset_cardinality
from .dataset_ops import Dataset
from .dataset_runtime import _all_captures

__all__ = ["INFINITE", "UNKNOWN", "cardinality"]

INFINITE = -1
UNKNOWN = -2


def _batch(n, size, drop):
    if n < 0:
        return n
    return n // size if drop else -(-n // size)


def _repeat(n, count):
    if count < 0:
        return 0 if n == 0 else INFINITE
    if count == 0:
        return 0
    return n if n < 0 else n * count


def _take(n, count):
    if n == UNKNOWN:
        return UNKNOWN
    if count < 0:
        return n
    return count if n == INFINITE else min(n, count)


def _skip(n, count):
    if n < 0:
        return n
    return 0 if count < 0 else max(0, n - count)


def _zip(ns):
    out = INFINITE
    for n in ns:
        if n == UNKNOWN:
            return UNKNOWN
        if n != INFINITE:
            out = n if out == INFINITE else min(out, n)
    return out


def _concatenate(a, b):
    if INFINITE in (a, b):
        return INFINITE
    if UNKNOWN in (a, b):
        return UNKNOWN
    return a + b


def _shard(n, num_shards, index):
    if n < 0:
        return n
    return n // num_shards + (1 if index < n % num_shards else 0)


def _window(n, size, shift, stride, drop):
    if n < 0:
        return n
    if drop:
        return max(0, (n - ((size - 1) * stride + 1)) // shift + 1) if n >= (size - 1) * stride + 1 else 0
    return n // shift + (0 if n % shift == 0 else 1)


def _range(start, stop, step):
    if step == 0:
        return 0
    return max(0, -((start - stop) // step))


def _count(ds, env):
    """The cardinality of `ds` given `env` (capture tensor -> value)."""
    def v(t):
        return int(env[t])

    def inp(d):
        return _count(d, env)

    name = type(ds).__name__
    if name == "_RangeDataset":
        return _range(*(v(t) for t in ds._args))
    if name == "_TensorDataset":
        return 1
    if name == "_TensorSliceDataset":
        return ds._length([env[t] for t in ds._captures()])
    if name in ("_PrefetchDataset", "_ShuffleDataset", "_CacheDataset", "_ScanDataset"):
        return inp(ds._input)
    if name == "_MapDataset" and getattr(ds, "_preserves_cardinality", False):
        return inp(ds._input)
    if name in ("_BatchDataset", "_PaddedBatchDataset"):
        return _batch(inp(ds._input), v(ds._batch_size), bool(env[ds._drop_remainder]))
    if name == "_RepeatDataset":
        return _repeat(inp(ds._input), v(ds._count))
    if name == "_TakeDataset":
        return _take(inp(ds._input), v(ds._count))
    if name == "_SkipDataset":
        return _skip(inp(ds._input), v(ds._count))
    if name == "_ShardDataset":
        return _shard(inp(ds._input), v(ds._num_shards), v(ds._index))
    if name == "_WindowDataset":
        return _window(inp(ds._input), v(ds._size), v(ds._shift), v(ds._stride), bool(env[ds._drop_remainder]))
    if name == "_ZipDataset":
        return _zip([inp(d) for d in ds._datasets])
    if name == "_ConcatenateDataset":
        return _concatenate(inp(ds._first), inp(ds._second))
    if name == "_MatchingFilesDataset":
        return len(ds._match(env[ds._patterns]))
    if name == "_AssertCardinalityDataset":
        return v(ds._expected)
    if name == "_OptionsDataset":
        return inp(ds._input)
    return UNKNOWN


def cardinality(dataset):
    """Returns the cardinality of `dataset`, if known.

    The result is a scalar `tf.int64` tensor: the number of elements, `tf.data.experimental.INFINITE_CARDINALITY`
    (-1) for an infinite dataset, or `UNKNOWN_CARDINALITY` (-2) when it cannot be known without reading
    the data (after `filter`, `flat_map`, a file reader, or, as in TF 1.x, `map`).

    Args:
      dataset: A `tf.data.Dataset`.

    Returns:
      A scalar `tf.int64` tensor.

    Raises:
      TypeError: If `dataset` is not a `Dataset`.
    """
    if not isinstance(dataset, Dataset):
        raise TypeError("`dataset` must be a `tf.data.Dataset`, got %r." % (dataset,))
    captures = _all_captures(dataset)

    def compute(values):
        return _count(dataset, dict(zip(captures, values)))
    return dataset_cardinality(captures, compute)
