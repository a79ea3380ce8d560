"""`tf.data.TFRecordDataset`: the records of TFRecord files as a dataset of scalar strings."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.tensor_spec import TensorSpec
from ..io import tf_record
from .dataset_ops import Dataset

__all__ = ["TFRecordDataset"]

_DEFAULT_READER_BUFFER_SIZE_BYTES = 256 * 1024


def _optional_param(name, value, default, dtype):
    return ops.convert_to_tensor(default if value is None else value, dtype=dtype, name=name)


def _read_files(files, read_one_file, num_parallel_reads):
    """The dataset of the records `read_one_file(filename)` of `files` (a flat string tensor or a dataset of
    scalar strings): file after file, or `num_parallel_reads` files at a time interleaved record by record."""
    if num_parallel_reads is not None:
        if not isinstance(files, Dataset):
            files = Dataset.from_tensor_slices(files)
        return files.interleave(read_one_file, cycle_length=num_parallel_reads, block_length=1,
                                num_parallel_calls=num_parallel_reads)
    if isinstance(files, Dataset):
        return files.flat_map(read_one_file)
    return read_one_file(files)


class _TFRecordFilesDataset(Dataset):
    """The records of a scalar or vector of TFRecord file names, file after file."""

    def __init__(self, filenames, compression_type=None, buffer_size=None):
        super().__init__()
        self._filenames = ops.convert_to_tensor(filenames, dtype=dtypes.string, name="filenames")
        self._compression_type = _optional_param("compression_type", compression_type, "", dtypes.string)
        self._buffer_size = _optional_param("buffer_size", buffer_size, _DEFAULT_READER_BUFFER_SIZE_BYTES,
                                            dtypes.int64)
        self._element_structure = TensorSpec([], dtypes.string)

    def _captures(self):
        return [self._filenames, self._compression_type, self._buffer_size]

    def _validate(self, capture_values):
        kind = capture_values[1].item()
        if kind not in (b"", b"ZLIB", b"GZIP"):
            raise errors.InvalidArgumentError(None, None, "Unsupported compression_type: %s."
                                              % kind.decode("utf-8", "replace"))
        if int(capture_values[2]) < 0:
            raise errors.InvalidArgumentError(None, None, "`buffer_size` must be >= 0 (0 == no buffering)")

    def _iterate(self, ctx, capture_values):
        filenames, kind, buffer_size = capture_values
        kind = kind.item().decode("ascii")
        for name in filenames.reshape(-1):
            reader = tf_record.RecordReader(name, kind, int(buffer_size) or None)
            try:
                while True:
                    record = reader.read_record()
                    if record is None:
                        break
                    yield (np.array(record, dtype=object),)
            finally:
                reader.close()


class TFRecordDataset(Dataset):
    """A `Dataset` comprising records from one or more TFRecord files.

    Files are read in order (record after record, file after file); with `num_parallel_reads`,
    that many files are read at once and their records interleaved one at a time, deterministically.

    Example:

      dataset = tf.data.TFRecordDataset(["a.tfrecord", "b.tfrecord"], compression_type="GZIP")
      dataset = dataset.map(lambda r: tf.parse_single_example(r, features)).batch(32)

    Args:
      filenames: A `tf.string` tensor (or list) of file names, or a `tf.data.Dataset` of scalar strings.
      compression_type: (Optional.) A `tf.string` scalar: `""` (no compression), `"ZLIB"` or `"GZIP"`.
      buffer_size: (Optional.) A `tf.int64` scalar: bytes in the read buffer (0: no buffering).
      num_parallel_reads: (Optional.) A `tf.int64` scalar: the number of files to read in parallel
        (`tf.data.experimental.AUTOTUNE` for one per CPU). Default: files are read sequentially.

    Raises:
      TypeError: If `filenames` is not a string tensor or a dataset of strings.
      ValueError: If `filenames` is a dataset whose elements are not scalars.
      ImportError: If the `crc32c` package (`tensorweave[data]`) is not installed.

    Reading a missing file raises `tf.errors.NotFoundError`, a corrupted or truncated record
    `tf.errors.DataLossError` (naming the file and offset), both from `get_next()`.
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None):
        super().__init__()
        tf_record._crc32c_module()
        if isinstance(filenames, Dataset):
            spec = filenames._element_structure
            if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.string:
                raise TypeError("`filenames` must be a `tf.data.Dataset` of `tf.string` elements.")
            if not spec.shape.is_compatible_with([]):
                raise ValueError("`filenames` must be a `tf.data.Dataset` of scalar `tf.string` elements.")
            files = filenames
        else:
            from ..ops import array_ops
            filenames = ops.convert_to_tensor(filenames, dtype_hint=dtypes.string, name="filenames")
            if filenames.dtype != dtypes.string:
                raise TypeError("`filenames` must be a `tf.Tensor` of dtype `tf.string` dtype. Got %s"
                                % filenames.dtype)
            files = array_ops.reshape(filenames, [-1], name="flat_filenames")

        def read_one_file(filename):
            return _TFRecordFilesDataset(filename, compression_type, buffer_size)

        self._impl = _read_files(files, read_one_file, num_parallel_reads)
        self._element_structure = TensorSpec([], dtypes.string)

    def _inputs(self):
        return [self._impl]

    def _iterate(self, ctx, capture_values):
        return ctx.iterate(self._impl)
