"""`tf.data` pipelines: the `Dataset` base class (its transformation methods build the datasets
of `dataset_sources`, `dataset_transformations` and `dataset_batching`), the functions traced for
map/filter/flat_map/interleave (`StructuredFunction`) and the `tf.data.get_output_*` accessors."""

import re

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.tensor_shape import TensorShape
from ..ops import control_flow_ops
from . import structure
from .dataset_runtime import AUTOTUNE, _all_captures


# ---- functions traced for map/filter/flat_map/interleave ---------------------------------------
def _fn_name(func, transformation):
    name = getattr(func, "__name__", type(func).__name__)
    return "%s_%s" % (transformation, re.sub(r"[^A-Za-z0-9_]", "_", name))


def _should_unpack(args):
    return type(args) is tuple


def _normalize_return(ret):
    if isinstance(ret, list):  # as tf.data: a returned list is a tuple of components, not one tensor
        ret = tuple(ret)
    flat = []
    for leaf in structure.flatten(ret):
        if structure._is_sparse(leaf):
            leaf = structure._sparse_module().SparseTensor.from_value(leaf)
        elif not isinstance(leaf, Dataset):
            if leaf is None or isinstance(leaf, ops.Operation):
                raise TypeError("Unsupported return value from function passed to a Dataset transformation: %r."
                                % (leaf,))
            leaf = ops.convert_to_tensor(leaf)
        flat.append(leaf)
    return structure.pack_sequence_as(ret, flat)


class StructuredFunction:
    """A Python function over dataset elements, traced once into a function graph.

    Args:
      func: The Python function; a tuple element is passed as positional arguments, any other
        element as one argument.
      transformation: Name of the transformation (for the graph's name and errors).
      input_structure: The element structure `func` receives.
      returns_dataset: Whether `func` must return a Dataset (flat_map, interleave).

    Attributes:
      function: The traced `Function` (inputs: element components, then captures).
      captures: The outer tensors the function captured (passed after the components).
      output_structure: The structure of the returned element (not for `returns_dataset`).
      dataset: The Dataset object `func` returned (for `returns_dataset`).
    """

    def __init__(self, func, transformation, input_structure, returns_dataset=False):
        if not callable(func):
            raise TypeError("`%s` expects a callable, got %r." % (transformation, func))
        self.transformation = transformation
        self.input_structure = input_structure
        self.output_structure = None
        self.dataset = None

        def body(*placeholders):
            nested = structure.from_components(input_structure, placeholders)
            ret = func(*nested) if _should_unpack(nested) else func(nested)
            if returns_dataset:
                if not isinstance(ret, Dataset):
                    raise TypeError("`map_func` must return a `Dataset` object. Got %r." % (type(ret),))
                self.dataset = ret
                return _all_captures(ret)
            ret = _normalize_return(ret)
            self.output_structure = structure.structure_of(ret)
            return structure.to_components(self.output_structure, ret)

        specs = structure.component_specs(input_structure)
        g, placeholders, _ = control_flow_ops.trace(body, _fn_name(func, transformation), specs)
        self.function = control_flow_ops.Function(g, list(placeholders) + g.internal_captures, g.outputs)
        self.captures = g.external_captures

    @property
    def graph(self):
        return self.function.graph


# ---- the Dataset base class ----------------------------------------------------------------------
class Dataset:
    """Represents a potentially large set of elements, as `tf.data.Dataset` (TF 1.x `DatasetV1`).

    A dataset is built from a source (`from_tensor_slices`, `range`, `from_generator`, a reader
    such as `TFRecordDataset`) and transformations (`map`, `batch`, `shuffle`, ...) that return new
    datasets. It is consumed in the graph through an iterator: `make_one_shot_iterator()` or
    `make_initializable_iterator()` give an `Iterator` whose `get_next()` tensors yield the next
    element on each `Session.run` and raise `tf.errors.OutOfRangeError` at the end.

    Example:

      dataset = tf.data.Dataset.from_tensor_slices(np.arange(10)).map(lambda x: x * 2).batch(4)
      next_batch = dataset.make_one_shot_iterator().get_next()
      with tf.Session() as sess:
          while True:
              try:
                  print(sess.run(next_batch))
              except tf.errors.OutOfRangeError:
                  break

    Subclasses set `_element_structure` and implement `_captures`, `_iterate` (and `_inputs` for
    transformations); see the module docstring.
    """

    _element_structure = None

    def __init__(self):
        pass

    # ---- the subclass interface --------------------------------------------------------------
    def _captures(self):
        """The graph tensors `_iterate` needs (their values arrive as `capture_values`)."""
        return []

    def _inputs(self):
        """The input datasets of a transformation."""
        return []

    def _validate(self, capture_values):
        """Checks runtime arguments when an iterator is initialised (raise tf.errors classes)."""

    def _iterate(self, ctx, capture_values):
        """An iterator over this dataset's elements: flat tuples of NumPy arrays."""
        raise NotImplementedError("%s must implement _iterate" % type(self).__name__)

    def _functions(self):
        return []

    # ---- element structure ---------------------------------------------------------------------
    @property
    def element_spec(self):
        """The nest of `tf.TensorSpec` (or `SparseTensorSpec`, `DatasetSpec`) of an element."""
        return self._element_structure

    @property
    def output_types(self):
        """The nest of `tf.DType` of an element's components."""
        return structure.get_types(self._element_structure)

    @property
    def output_shapes(self):
        """The nest of `tf.TensorShape` of an element's components."""
        return structure.get_shapes(self._element_structure)

    @property
    def output_classes(self):
        """The nest of classes (`tf.Tensor`, `tf.SparseTensor`) of an element's components."""
        return structure.get_classes(self._element_structure)

    def __repr__(self):
        return "<%s shapes: %s, types: %s>" % (type(self).__name__.lstrip("_"), _nest_str(self.output_shapes),
                                               _nest_str(self.output_types))

    # ---- iterators -----------------------------------------------------------------------------
    def _iterator_state(self, session_state, capture_values):
        """A running iterator over this dataset (given the values of `_all_captures(self)`): what the
        iterator ops (`ops/iterator_ops.py`) keep in `session_state.op_state`."""
        from .iterator_ops import IteratorState
        return IteratorState(session_state, self, capture_values)

    def make_one_shot_iterator(self):
        """Creates an `Iterator` that iterates once over this dataset, initialised on first use.

        Returns:
          An `Iterator`.

        Raises:
          ValueError: If the dataset captures a placeholder or a variable (use
            `make_initializable_iterator` then).
        """
        from . import iterator_ops
        return iterator_ops.make_one_shot_iterator(self)

    def make_initializable_iterator(self, shared_name=None):
        """Creates an `Iterator` that must be initialised by running `iterator.initializer`; running the
        initializer again (e.g. with new placeholder feeds) restarts it.

        Args:
          shared_name: If set, the name of the iterator in the session state.

        Returns:
          An `Iterator`.
        """
        from . import iterator_ops
        return iterator_ops.make_initializable_iterator(self, shared_name)

    def __iter__(self):
        """In eager mode, iterates over the elements as nests of eager tensors.

        Raises:
          RuntimeError: In graph mode (use an iterator's `get_next()` there).
        """
        from ..eager import context
        if not context.executing_eagerly():
            raise RuntimeError("dataset.__iter__() is only supported when eager execution is enabled.")
        from . import iterator_ops
        return iterator_ops.EagerIterator(self)

    # ---- sources -----------------------------------------------------------------------------------
    @staticmethod
    def from_tensors(tensors):
        """Creates a `Dataset` with a single element, `tensors`.

        Args:
          tensors: A nest (tuples, dicts) of tensors, NumPy arrays or Python values.

        Returns:
          A `Dataset`.
        """
        return _TensorDataset(tensors)

    @staticmethod
    def from_tensor_slices(tensors):
        """Creates a `Dataset` whose elements are slices of `tensors` along their first dimension.

        Args:
          tensors: A nest of tensors (or arrays, SparseTensors) with the same first dimension.

        Returns:
          A `Dataset`.

        Raises:
          ValueError: If a component is a scalar or the first dimensions differ.
        """
        return _TensorSliceDataset(tensors)

    @staticmethod
    def from_generator(generator, output_types, output_shapes=None, args=None):
        """Creates a `Dataset` whose elements are generated by `generator`.

        Args:
          generator: A callable returning an iterable; called (with `args` as NumPy values) each
            time an iterator over the dataset starts.
          output_types: A nest of `tf.DType` matching an element.
          output_shapes: A nest of `tf.TensorShape` (default: unknown shapes).
          args: A tuple of tensors (or convertible values) passed to `generator`.

        Returns:
          A `Dataset`.

        Raises:
          TypeError: If `generator` is not callable.
        """
        return _GeneratorDataset(generator, output_types, output_shapes, args)

    @staticmethod
    def range(*args):
        """Creates a `Dataset` of a step-separated range of int64 values, as Python's `range`.

        Args:
          *args: `stop`, `start, stop` or `start, stop, step`.

        Returns:
          A `Dataset`.

        Raises:
          ValueError: If not 1 to 3 arguments are given.
        """
        return _RangeDataset(*args)

    @staticmethod
    def zip(datasets):
        """Creates a `Dataset` by zipping a nest (tuple, dict) of datasets; it ends with the shortest.

        Args:
          datasets: A nest of datasets.

        Returns:
          A `Dataset`.

        Raises:
          TypeError: If `datasets` is not a nest of datasets.
        """
        return _ZipDataset(datasets)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None):
        """A dataset of all files matching one or more glob patterns (sorted, then shuffled unless
        `shuffle` is False).

        Args:
          file_pattern: A string, a list of strings or a string tensor of patterns.
          shuffle: Whether to shuffle the file names (default True).
          seed: The op seed of the shuffle (see `tf.set_random_seed`).

        Returns:
          A `Dataset` of string file names. When no file matches, iterating raises
          `InvalidArgumentError`.
        """
        dataset = _MatchingFilesDataset(file_pattern)
        if shuffle is None or shuffle:
            dataset = _ShuffleDataset(dataset, np.iinfo(np.int64).max, seed, None)
        return dataset

    # ---- transformations -------------------------------------------------------------------------
    def concatenate(self, dataset):
        """Creates a `Dataset` of this dataset's elements followed by `dataset`'s.

        Raises:
          TypeError: If the datasets' structures or types differ.
        """
        return _ConcatenateDataset(self, dataset)

    def map(self, map_func, num_parallel_calls=None, num_threads=None, output_buffer_size=None):
        """Maps `map_func` across this dataset's elements.

        `map_func` is traced once into a graph function (py_func and stateful ops inside it run
        on each call). An element that is a tuple is passed as positional arguments.

        Args:
          map_func: A function from an element to a nest of tensors.
          num_parallel_calls: How many elements to process in parallel (threads); None runs the
            function inline, `tf.data.experimental.AUTOTUNE` uses one thread per CPU. Output
            order is always the input order.
          num_threads: The old (tf.contrib.data) name of `num_parallel_calls`.
          output_buffer_size: The old (tf.contrib.data) prefetch buffer after the map.

        Returns:
          A `Dataset`.
        """
        if num_parallel_calls is None:
            num_parallel_calls = num_threads
        ds = _MapDataset(self, map_func, num_parallel_calls)
        if output_buffer_size is not None:
            ds = _PrefetchDataset(ds, output_buffer_size)
        return ds

    def flat_map(self, map_func):
        """Maps `map_func` (element -> Dataset) across this dataset and flattens the results.

        Raises:
          TypeError: If `map_func` does not return a `Dataset`.
        """
        return _FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=AUTOTUNE, block_length=1, num_parallel_calls=None):
        """Maps `map_func` (element -> Dataset) across this dataset and interleaves the results:
        `cycle_length` input elements are open at once, `block_length` consecutive elements are
        taken from each in turn.

        Args:
          map_func: A function from an element to a `Dataset`.
          cycle_length: How many input elements are processed concurrently (AUTOTUNE: CPU count).
          block_length: How many consecutive elements to take from each.
          num_parallel_calls: If set, the open datasets are read ahead in background threads
            (the output order is unchanged).

        Returns:
          A `Dataset`.
        """
        return _InterleaveDataset(self, map_func, cycle_length, block_length, num_parallel_calls)

    def filter(self, predicate):
        """Keeps the elements for which `predicate` (element -> scalar bool tensor) is true.

        Raises:
          ValueError: If `predicate` does not return a scalar boolean.
        """
        return _FilterDataset(self, predicate)

    def batch(self, batch_size, drop_remainder=False):
        """Combines consecutive elements into batches (a new leading dimension).

        Args:
          batch_size: The number of elements per batch (int64 scalar, may be a tensor).
          drop_remainder: Whether to drop a last batch smaller than `batch_size`; if True the
            static batch dimension is `batch_size`, else unknown.

        Returns:
          A `Dataset`. Elements of different shapes raise `InvalidArgumentError` when batched.
        """
        return _BatchDataset(self, batch_size, drop_remainder)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False):
        """Combines consecutive elements into padded batches.

        Args:
          batch_size: The number of elements per batch.
          padded_shapes: A nest of shapes (lists/TensorShapes; None or -1 pads that dimension to
            the longest in the batch) matching an element (default: all dimensions padded to the
            longest).
          padding_values: A nest of scalars to pad with (default 0, or b"" for strings).
          drop_remainder: Whether to drop a last smaller batch.

        Returns:
          A `Dataset`.

        Raises:
          ValueError: If a padded shape is incompatible with its component's shape.
          TypeError: If a padding value's dtype differs from its component's.
        """
        return _PaddedBatchDataset(self, batch_size, padded_shapes, padding_values, drop_remainder)

    def unbatch(self):
        """Splits each element along its first dimension into several elements.

        Raises:
          ValueError: If a component is a scalar.
        """
        return _UnbatchDataset(self)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None):
        """Randomly shuffles the elements through a buffer of `buffer_size` elements.

        Args:
          buffer_size: The buffer size (a buffer at least the dataset's size shuffles uniformly).
          seed: The op seed, combined with the graph seed as for random ops (`tf.set_random_seed`).
          reshuffle_each_iteration: Whether each pass (e.g. under `repeat`) uses a new order
            (default True); with a seed the sequence of orders is reproducible.

        Returns:
          A `Dataset`.
        """
        return _ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None):
        """Repeats this dataset `count` times (None or -1: forever).

        Returns:
          A `Dataset`.
        """
        return _RepeatDataset(self, count)

    def take(self, count):
        """A dataset of at most `count` elements of this one (-1: all)."""
        return _TakeDataset(self, count)

    def skip(self, count):
        """A dataset without the first `count` elements of this one (-1: all skipped)."""
        return _SkipDataset(self, count)

    def shard(self, num_shards, index):
        """A dataset of every `num_shards`-th element, starting at `index`.

        Returns:
          A `Dataset`. Iterating raises `InvalidArgumentError` unless 0 <= index < num_shards.
        """
        return _ShardDataset(self, num_shards, index)

    def cache(self, filename=""):
        """Caches the elements: in memory (`filename` "") or in files starting with `filename`.

        The first complete pass fills the cache; later passes (repeats, and with a file cache
        later iterators and sessions) read from it.

        Returns:
          A `Dataset`.
        """
        return _CacheDataset(self, filename)

    def prefetch(self, buffer_size):
        """Produces up to `buffer_size` elements ahead on a background thread, overlapping the
        pipeline with the consumer.

        Args:
          buffer_size: The number of elements to buffer (AUTOTUNE: a default).

        Returns:
          A `Dataset`.
        """
        return _PrefetchDataset(self, buffer_size)

    def window(self, size, shift=None, stride=1, drop_remainder=False):
        """Combines elements into windows: each element is a nest of datasets (one per component) of
        up to `size` elements, taken every `stride` elements, windows starting every `shift`.

        Args:
          size: Elements per window.
          shift: Input elements between window starts (default `size`).
          stride: Input elements between the elements of a window.
          drop_remainder: Whether to drop windows smaller than `size` at the end.

        Returns:
          A `Dataset` of nests of datasets (use with `flat_map`, e.g. `lambda w: w.batch(size)`).
        """
        return _WindowDataset(self, size, shift, stride, drop_remainder)

    def with_options(self, options):
        """Returns a new `Dataset` with the given options set (merged with those of this dataset; a
        property set by `options` wins).

        Args:
          options: A `tf.data.Options`.

        Returns:
          A `Dataset` with the same elements.

        Raises:
          TypeError: If `options` is not a `tf.data.Options`.
        """
        from .options import options_dataset
        return options_dataset(self, options)

    def options(self):
        """Returns the options of this dataset and its inputs (`tf.data.Options`; unset ones are None)."""
        from .options import dataset_options
        return dataset_options(self)

    def as_numpy_iterator(self):
        """Returns an iterator over the elements as NumPy values (eager mode only).

        Returns:
          A `tf.data.NumpyIterator`.

        Raises:
          RuntimeError: In graph mode.
        """
        from .iterator_ops import NumpyIterator
        return NumpyIterator(self)

    def apply(self, transformation_func):
        """Returns `transformation_func(self)`.

        Raises:
          TypeError: If it does not return a `Dataset`.
        """
        ds = transformation_func(self)
        if not isinstance(ds, Dataset):
            raise TypeError("`transformation_func` must return a Dataset. Got %r." % (ds,))
        return ds


DatasetV1 = Dataset


def _nest_str(x):
    if isinstance(x, dict):
        return "{%s}" % ", ".join("%s: %s" % (k, _nest_str(x[k])) for k in sorted(x))
    if isinstance(x, tuple):
        return "(%s)" % ", ".join(_nest_str(v) for v in x)
    return str(x) if isinstance(x, TensorShape) else repr(x)


def _int64(value, name):
    """A scalar int64 tensor argument."""
    return ops.convert_to_tensor(value, dtype=dtypes.int64, name=name)


def _static_int(tensor):
    v = tensor_util.constant_value(tensor)
    return None if v is None else int(v)


def _bool_arg(value, name):
    return ops.convert_to_tensor(value, dtype=dtypes.bool_, name=name)


# ---- structure accessors (tf.data.get_output_*) --------------------------------------------------
def get_legacy_output_types(dataset_or_iterator):
    """The nest of `tf.DType` of the elements of a dataset or iterator."""
    return structure.get_types(dataset_or_iterator.element_spec)


def get_legacy_output_shapes(dataset_or_iterator):
    """The nest of `tf.TensorShape` of the elements of a dataset or iterator."""
    return structure.get_shapes(dataset_or_iterator.element_spec)


def get_legacy_output_classes(dataset_or_iterator):
    """The nest of classes (`tf.Tensor`, `tf.SparseTensor`) of a dataset's or iterator's elements."""
    return structure.get_classes(dataset_or_iterator.element_spec)


# Names from modules of the family that also import names of this one (a cycle): bound here,
# after this module's own names exist, and only called at run time.
from .dataset_batching import (  # noqa: E402
    _BatchDataset,
    _PaddedBatchDataset,
    _RepeatDataset,
    _ShardDataset,
    _ShuffleDataset,
    _SkipDataset,
    _TakeDataset,
    _UnbatchDataset,
    _WindowDataset,
)
from .dataset_sources import (  # noqa: E402
    _GeneratorDataset,
    _MatchingFilesDataset,
    _RangeDataset,
    _TensorDataset,
    _TensorSliceDataset,
)
from .dataset_transformations import (  # noqa: E402
    _CacheDataset,
    _ConcatenateDataset,
    _FilterDataset,
    _FlatMapDataset,
    _InterleaveDataset,
    _MapDataset,
    _PrefetchDataset,
    _ZipDataset,
)
