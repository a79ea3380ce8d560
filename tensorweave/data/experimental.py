"""`tf.data.experimental`: AUTOTUNE and transformation functions for `Dataset.apply`."""

import numpy as np

from ..framework import dtypes, errors, ops
from .dataset_ops import AUTOTUNE, Dataset, _UnaryDataset, close_iterator
from .iterator_ops import get_single_element

__all__ = ["AUTOTUNE", "Counter", "copy_to_device", "enumerate_dataset", "get_single_element", "ignore_errors",
           "map_and_batch", "parallel_interleave", "prefetch_to_device", "shuffle_and_repeat", "unbatch"]


def unbatch():
    """A transformation splitting each element along its first dimension (see `Dataset.unbatch`).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    return lambda dataset: dataset.unbatch()


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    """A fused `map(map_func)` then `batch(batch_size)`.

    Args:
      map_func: The map function.
      batch_size: Elements per batch.
      num_parallel_batches: Batches computed in parallel (their elements are mapped in parallel).
      drop_remainder: Whether to drop a last smaller batch.
      num_parallel_calls: Elements mapped in parallel (exclusive with `num_parallel_batches`).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.

    Raises:
      ValueError: If both `num_parallel_batches` and `num_parallel_calls` are set.
    """
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("The `num_parallel_batches` and `num_parallel_calls` arguments are mutually exclusive.")
    if num_parallel_batches is not None:
        num_parallel_calls = num_parallel_batches * batch_size if isinstance(batch_size, int) else AUTOTUNE
    def apply(dataset):
        mapped = dataset.map(map_func, num_parallel_calls)
        mapped._preserves_cardinality = True  # TF's fused MapAndBatchDataset keeps the count
        return mapped.batch(batch_size, drop_remainder)
    return apply


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    """An `interleave` whose open datasets are read ahead on background threads. The output order
    is deterministic (that of `Dataset.interleave`) even when `sloppy` is true.

    Args:
      map_func: A function from an element to a `Dataset`.
      cycle_length: How many input elements are read concurrently.
      block_length: Consecutive elements taken from each.
      sloppy: Allowed for compatibility; the order is always deterministic.
      buffer_output_elements: Unused (each open dataset buffers `block_length` elements).
      prefetch_input_elements: Unused (up to `cycle_length` next inputs are opened ahead).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length, num_parallel_calls=cycle_length)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """A fused `shuffle(buffer_size, seed)` then `repeat(count)`, with a new order every epoch.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    return lambda dataset: dataset.shuffle(buffer_size, seed, reshuffle_each_iteration=True).repeat(count)


def prefetch_to_device(device, buffer_size=None):
    """Prefetches elements (tensorweave runs every op on the host, so `device` only names the target).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    return lambda dataset: dataset.prefetch(AUTOTUNE if buffer_size is None else buffer_size)


def copy_to_device(target_device, source_device="/cpu:0"):
    """Returns the dataset unchanged: every tensorweave op runs on the host.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    return lambda dataset: dataset


def enumerate_dataset(start=0):
    """A transformation pairing each element with its int64 index, counting from `start`.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    def apply(dataset):
        max_value = np.iinfo(np.int64).max
        return Dataset.zip((Dataset.range(start, max_value), dataset))
    return apply


def Counter(start=0, step=1, dtype=dtypes.int64):  # noqa: N802 (TF's name)
    """A dataset counting from `start` by `step` forever.

    Args:
      start: The first value.
      step: The increment.
      dtype: The element dtype.

    Returns:
      A `Dataset` of scalars of `dtype`.
    """
    with ops.name_scope("counter"):
        start = ops.convert_to_tensor(start, dtype=dtype, name="start")
        step = ops.convert_to_tensor(step, dtype=dtype, name="step")
        from ..ops import math_ops
        return Dataset.range(np.iinfo(np.int64).max).map(
            lambda i: start + math_ops.cast(i, dtype) * step)


class _IgnoreErrorsDataset(_UnaryDataset):

    def _iterate(self, ctx, capture_values):
        it = ctx.iterate(self._input)
        try:
            while True:
                try:
                    el = next(it)
                except StopIteration:
                    return
                except errors.OpError:
                    continue
                yield el
        finally:
            close_iterator(it)


def ignore_errors():
    """A transformation dropping the elements whose computation raised an error (e.g. a map function
    failing on them); the iterator goes on with the next element where its input can (a failing
    map does; a failing reader ends).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    return _IgnoreErrorsDataset


from .csv_dataset import CsvDataset, make_csv_dataset  # noqa: E402

__all__ += ["CsvDataset", "make_csv_dataset"]

from .cardinality import INFINITE as INFINITE_CARDINALITY  # noqa: E402
from .cardinality import UNKNOWN as UNKNOWN_CARDINALITY  # noqa: E402
from .cardinality import cardinality  # noqa: E402
from .experimental_transforms import (  # noqa: E402
    assert_cardinality,
    bucket_by_sequence_length,
    choose_from_datasets,
    from_list,
    get_structure,
    group_by_window,
    sample_from_datasets,
    scan,
    take_while,
    unique,
)

__all__ += ["INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "assert_cardinality", "bucket_by_sequence_length",
            "cardinality", "choose_from_datasets", "from_list", "get_structure", "group_by_window",
            "sample_from_datasets", "scan", "take_while", "unique"]

from .options import (  # noqa: E402
    AutoShardPolicy,
    AutotuneAlgorithm,
    AutotuneOptions,
    DistributeOptions,
    ExternalStatePolicy,
    OptimizationOptions,
    ThreadingOptions,
)

__all__ += ["AutoShardPolicy", "AutotuneAlgorithm", "AutotuneOptions", "DistributeOptions", "ExternalStatePolicy",
            "OptimizationOptions", "ThreadingOptions"]

from .example_datasets import make_batched_features_dataset, parse_example_dataset  # noqa: E402

__all__ += ["make_batched_features_dataset", "parse_example_dataset"]

from .tf_record_writer import TFRecordWriter  # noqa: E402

__all__ += ["TFRecordWriter"]

from .experimental_sources import (  # noqa: E402
    SHARD_HINT,
    DatasetStructure,
    RandomDataset,
    SparseTensorStructure,
    SqlDataset,
    TensorStructure,
    map_and_batch_with_legacy_function,
)

__all__ += ["DatasetStructure", "RandomDataset", "SHARD_HINT", "SparseTensorStructure", "SqlDataset", "TensorStructure",
            "map_and_batch_with_legacy_function"]

from .experimental_transforms import Reducer, dense_to_sparse_batch, group_by_reducer  # noqa: E402

__all__ += ["Reducer", "dense_to_sparse_batch", "group_by_reducer"]

from .optional import Optional, OptionalStructure, get_next_as_optional  # noqa: E402

__all__ += ["Optional", "OptionalStructure", "get_next_as_optional"]

from .experimental_transforms import pad_to_cardinality, rejection_resample  # noqa: E402

__all__ += ["pad_to_cardinality", "rejection_resample"]

from .lookup_datasets import DatasetInitializer, index_table_from_dataset, table_from_dataset  # noqa: E402

__all__ += ["DatasetInitializer", "index_table_from_dataset", "table_from_dataset"]
