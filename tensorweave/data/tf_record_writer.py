"""`tf.data.experimental.TFRecordWriter`: writes a dataset of scalar strings to a TFRecord file."""

from ..framework import dtypes, errors, ops
from ..framework.tensor_spec import TensorSpec
from ..io import tf_record
from ..ops.dataset_io_ops import dataset_to_tf_record
from .dataset_ops import Dataset
from .dataset_runtime import _all_captures

__all__ = ["TFRecordWriter"]


def _write_records(path, compression_type, records):
    if compression_type not in ("", "ZLIB", "GZIP"):
        raise errors.InvalidArgumentError(None, None, "Unsupported compression_type: %s." % compression_type)
    with tf_record.TFRecordWriter(path, compression_type or None) as writer:
        for r in records:
            writer.write(r)


class TFRecordWriter:
    """Writes a dataset to a TFRecord file.

    Each element of the dataset (a scalar `tf.string`) becomes one record, in order.

    Example:

      writer = tf.data.experimental.TFRecordWriter("out.tfrecord")
      write_op = writer.write(dataset.map(tf.io.serialize_tensor))
      sess.run(write_op)

    Args:
      filename: A scalar string tensor: the file to write.
      compression_type: (Optional.) `""`, `"ZLIB"` or `"GZIP"`.
    """

    def __init__(self, filename, compression_type=None):
        self._filename = ops.convert_to_tensor(filename, dtypes.string, name="filename")
        self._compression_type = ops.convert_to_tensor("" if compression_type is None else compression_type,
                                                       dtypes.string, name="compression_type")

    def write(self, dataset):
        """Writes `dataset` to the file: in graph mode returns the op that does it when run.

        Args:
          dataset: A `tf.data.Dataset` of scalar `tf.string` elements.

        Returns:
          The write `Operation` (eager: None, the file is written).

        Raises:
          TypeError: If `dataset` is not a `Dataset` of scalar strings.
        """
        if not isinstance(dataset, Dataset):
            raise TypeError("Invalid `dataset.` Expected a `tf.data.Dataset` object but got %s." % type(dataset))
        spec = dataset.element_spec
        if not (isinstance(spec, TensorSpec) and spec.is_compatible_with(TensorSpec([], dtypes.string))):
            raise TypeError("Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` elements, but got "
                            "a dataset which produces elements with shapes %s and types %s."
                            % (dataset.output_shapes, dataset.output_types))
        from ..eager import context
        op = dataset_to_tf_record(_all_captures(dataset), dataset, self._filename, self._compression_type,
                                  _write_records)
        return None if context.executing_eagerly() else op
