"""`tf.data`: input pipelines (`Dataset`) and the iterators that feed them into the graph."""

from . import experimental
from .dataset_ops import Dataset, DatasetSpec, SparseTensorSpec, TensorSpec
from .dataset_ops import get_legacy_output_classes as get_output_classes
from .dataset_ops import get_legacy_output_shapes as get_output_shapes
from .dataset_ops import get_legacy_output_types as get_output_types
from .iterator_ops import Iterator, make_initializable_iterator, make_one_shot_iterator

__all__ = ["Dataset", "DatasetSpec", "Iterator", "SparseTensorSpec", "TensorSpec", "experimental",
           "get_output_classes", "get_output_shapes", "get_output_types", "make_initializable_iterator",
           "make_one_shot_iterator"]

try:  # the file readers live in their own module (written separately)
    from .readers import TFRecordDataset
except ModuleNotFoundError as e:
    if e.name != __name__ + ".readers":
        raise
else:
    __all__.append("TFRecordDataset")

from .file_readers import FixedLengthRecordDataset, TextLineDataset  # noqa: E402

__all__ += ["FixedLengthRecordDataset", "TextLineDataset"]
from .cardinality import INFINITE as INFINITE_CARDINALITY  # noqa: E402
from .cardinality import UNKNOWN as UNKNOWN_CARDINALITY  # noqa: E402
from .dataset_ops import AUTOTUNE  # noqa: E402
from .iterator_ops import NumpyIterator  # noqa: E402
from .options import Options, ThreadingOptions  # noqa: E402

__all__ += ["AUTOTUNE", "INFINITE_CARDINALITY", "NumpyIterator", "Options", "ThreadingOptions",
            "UNKNOWN_CARDINALITY"]
