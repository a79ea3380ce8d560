"""`tf.data.Dataset`: input pipelines described in the graph, run by iterators in the Session.

A Dataset is a Python description of a stream of elements. Each element is a nest (tuples,
dicts, namedtuples) of tensors (or SparseTensors); `_element_structure` is the same nest of
`TensorSpec`s (a SparseTensor leaf is a `SparseTensorSpec`). Graph tensors a dataset needs
(constants, placeholders, function captures) are its *captures*: an iterator's initializer op takes
them as inputs, so each initialisation evaluates them (with the run's feeds) and builds a fresh
Python iterator over the pipeline. The running iterator lives in the Session state.

Contract for a source dataset (a subclass of `Dataset`, e.g. `TFRecordDataset`):

  class MySource(Dataset):
      def __init__(self, filenames):
          super().__init__()
          self._filenames = ops.convert_to_tensor(filenames, dtypes.string)    # a graph tensor
          self._element_structure = TensorSpec([], dtypes.string)              # nest of TensorSpec

      def _captures(self):          # the graph tensors `_iterate` needs, in a fixed order
          return [self._filenames]

      def _iterate(self, ctx, capture_values):
          # capture_values: one NumPy array per `_captures()` tensor (strings: object arrays of bytes).
          # Returns an iterator (a generator is fine) of *flat tuples* of NumPy arrays, one per
          # component of `nest.flatten(self._element_structure)` (a SparseTensorSpec is three:
          # int64 indices [n, rank], values [n], int64 dense_shape [rank]), each of exactly the
          # spec's dtype (a string scalar: np.array(b"...", dtype=object)) and a shape compatible
          # with its spec's shape. `ctx` is an `IteratorContext` (`ctx.state`: the SessionState).
          # The iterator is closed (`.close()`) when the session closes or the iterator is
          # re-initialised: release files in `with`/`finally` blocks. Raise tf.errors classes
          # (e.g. errors.DataLossError(None, None, msg)) for data errors.
          for name in capture_values[0].ravel():
              with open(name, "rb") as f:
                  yield (np.array(f.read(), dtype=object),)

Optionally, `_validate(self, capture_values)` checks runtime arguments when an iterator is
initialised (raise tf.errors classes there, e.g. errors.InvalidArgumentError(None, None, msg)).

A transformation dataset also lists its input datasets in `_inputs()` (so their captures are
collected) and iterates them with `ctx.iterate(input_dataset)` (or `with ctx.open(input) as it:`,
which closes the input when done). Functions over elements are traced with `StructuredFunction`
and run with `ctx.call(fn.function, list(element) + capture_values)`.

The module is split into `dataset_runtime` (the running side), `dataset_base` (the `Dataset`
base class, traced functions, the get_output_* accessors), `dataset_sources`,
`dataset_transformations` (map/filter/flat_map/interleave/zip/concatenate, cache, prefetch) and
`dataset_batching` (batch/padded_batch/unbatch/window, shuffle/repeat/take/skip/shard). This module
re-exports their public names; import the family through it (`dataset_base` and the dataset modules
import each other).
"""

from ..framework.tensor_spec import TensorSpec  # noqa: F401
from .dataset_base import (  # noqa: F401
    Dataset,
    DatasetV1,
    StructuredFunction,
    get_legacy_output_classes,
    get_legacy_output_shapes,
    get_legacy_output_types,
)
from .dataset_runtime import AUTOTUNE, IteratorContext, close_iterator  # noqa: F401
from .dataset_sources import _VariantDataset  # noqa: F401
from .dataset_transformations import _UnaryDataset  # noqa: F401
from .structure import DatasetSpec, SparseTensorSpec  # noqa: F401

__all__ = ["Dataset", "DatasetV1", "IteratorContext", "AUTOTUNE", "TensorSpec", "SparseTensorSpec", "DatasetSpec",
           "get_legacy_output_types", "get_legacy_output_shapes", "get_legacy_output_classes"]
