"""`tf.data.TextLineDataset` and `tf.data.FixedLengthRecordDataset`: the lines, or the fixed-size records,
of files (any path `tf.gfile` reads: local, or a URL through fsspec), optionally GZIP/ZLIB compressed."""

import zlib

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.tensor_spec import TensorSpec
from ..io import tf_record
from ..platform import gfile
from .dataset_ops import Dataset
from .readers import _optional_param as _optional
from .readers import _read_files

__all__ = ["FixedLengthRecordDataset", "TextLineDataset"]

_DEFAULT_BUFFER = 256 * 1024


def _open(path, kind, buffer_size):
    """A binary file object with `read(n)` over the (decompressed) bytes of `path`."""
    try:
        f = gfile.open_raw(path, "rb", buffering=buffer_size if buffer_size and buffer_size > 1 else -1)
    except errors.OpError as e:
        raise type(e)(None, None, e.message) from None
    if kind:
        return tf_record._DecompressingFile(f, path, zlib.MAX_WBITS + 16 if kind == "GZIP" else zlib.MAX_WBITS)
    return f


def _read_all(f):
    """All the (remaining) bytes of `f`, read in chunks."""
    chunks = []
    while True:
        b = f.read(_DEFAULT_BUFFER)
        if not b:
            return b"".join(chunks)
        chunks.append(b)


def _check_compression(kind):
    if kind not in (b"", b"ZLIB", b"GZIP"):
        raise errors.InvalidArgumentError(None, None, "Unsupported compression_type.")


def _string(b):
    return (np.array(b, dtype=object),)


def _file_names(filenames):
    """`filenames` as a flat string tensor or a Dataset of scalar strings (TF's checks)."""
    if isinstance(filenames, Dataset):
        spec = filenames._element_structure
        if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.string:
            raise TypeError("The `filenames` argument must contain `tf.string` elements. Got a dataset of `%r` "
                            "elements." % (spec,))
        if not spec.shape.is_compatible_with([]):
            raise TypeError("The `filenames` argument must contain `tf.string` elements of shape [] (i.e. scalars). "
                            "Got a dataset of element shape %s." % spec.shape)
        return filenames
    from ..ops import array_ops
    t = ops.convert_to_tensor(filenames, dtype_hint=dtypes.string, name="filenames")
    if t.dtype != dtypes.string:
        raise TypeError("The `filenames` argument must contain `tf.string` elements. Got `tf.%s` elements."
                        % t.dtype.name)
    return array_ops.reshape(t, [-1], name="flat_filenames")


class _FilesDataset(Dataset):
    """The records of the files of `filenames` (a string tensor or a dataset of names), read by
    `read_one_file(filename_tensor) -> Dataset`, file after file or `num_parallel_reads` at a time."""

    def __init__(self, filenames, read_one_file, num_parallel_reads):
        super().__init__()
        self._impl = _read_files(_file_names(filenames), read_one_file, num_parallel_reads)
        self._element_structure = TensorSpec([], dtypes.string)

    def _inputs(self):
        return [self._impl]

    def _iterate(self, ctx, capture_values):
        return ctx.iterate(self._impl)


# ---- TextLineDataset -------------------------------------------------------------------------------
class _TextLinesDataset(Dataset):

    def __init__(self, filenames, compression_type, buffer_size):
        super().__init__()
        self._filenames = ops.convert_to_tensor(filenames, dtype=dtypes.string, name="filenames")
        self._compression_type = _optional("compression_type", compression_type, "", dtypes.string)
        self._buffer_size = _optional("buffer_size", buffer_size, _DEFAULT_BUFFER, dtypes.int64)
        self._element_structure = TensorSpec([], dtypes.string)

    def _captures(self):
        return [self._filenames, self._compression_type, self._buffer_size]

    def _validate(self, capture_values):
        _check_compression(capture_values[1].item())
        if int(capture_values[2]) < 0:
            raise errors.InvalidArgumentError(None, None, "`buffer_size` must be >= 0 (0 == default)")

    def _iterate(self, ctx, capture_values):
        filenames, kind, buffer_size = capture_values
        kind = kind.item().decode("ascii")
        chunk = int(buffer_size) or _DEFAULT_BUFFER
        for name in filenames.reshape(-1):
            path = name.decode("utf-8") if isinstance(name, bytes) else str(name)
            f = _open(path, kind, chunk)
            try:
                rest = b""
                while True:
                    data = f.read(chunk)
                    if not data:
                        break
                    lines = (rest + data).split(b"\n")
                    rest = lines.pop()
                    for line in lines:
                        yield _string(line.replace(b"\r", b""))  # TF drops every carriage return
                if rest:
                    yield _string(rest.replace(b"\r", b""))
            finally:
                f.close()


class TextLineDataset(Dataset):
    """A `Dataset` comprising lines from one or more text files.

    Each element is one line as a scalar `tf.string`, without its line ending ("\\n"; carriage
    returns are dropped, as TF does). A last line without "\\n" is an element if it is not empty.

    Example:

      lines = tf.data.TextLineDataset(["a.csv", "b.csv"]).skip(1)

    Args:
      filenames: A `tf.string` tensor (or list) of file names, or a `tf.data.Dataset` of scalar strings.
      compression_type: (Optional.) A `tf.string` scalar: `""` (no compression), `"ZLIB"` or `"GZIP"`.
      buffer_size: (Optional.) A `tf.int64` scalar: bytes to read at a time (0: the default).
      num_parallel_reads: (Optional.) The number of files to read in parallel; their lines are
        interleaved one at a time (deterministically). Default: files are read sequentially.

    Raises:
      TypeError: If `filenames` does not hold strings.

    Reading a missing file raises `tf.errors.NotFoundError`, corrupted compressed data
    `tf.errors.DataLossError`, from `get_next()`.
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None):
        super().__init__()
        self._impl = _FilesDataset(
            filenames, lambda f: _TextLinesDataset(f, compression_type, buffer_size), num_parallel_reads)
        self._element_structure = TensorSpec([], dtypes.string)

    def _inputs(self):
        return [self._impl]

    def _iterate(self, ctx, capture_values):
        return ctx.iterate(self._impl)


# ---- FixedLengthRecordDataset ------------------------------------------------------------------------
class _FixedLengthRecordsDataset(Dataset):

    def __init__(self, filenames, record_bytes, header_bytes, footer_bytes, buffer_size, compression_type):
        super().__init__()
        self._filenames = ops.convert_to_tensor(filenames, dtype=dtypes.string, name="filenames")
        self._record_bytes = ops.convert_to_tensor(record_bytes, dtype=dtypes.int64, name="record_bytes")
        self._header_bytes = _optional("header_bytes", header_bytes, 0, dtypes.int64)
        self._footer_bytes = _optional("footer_bytes", footer_bytes, 0, dtypes.int64)
        self._buffer_size = _optional("buffer_size", buffer_size, _DEFAULT_BUFFER, dtypes.int64)
        self._compression_type = _optional("compression_type", compression_type, "", dtypes.string)
        self._element_structure = TensorSpec([], dtypes.string)

    def _captures(self):
        return [self._filenames, self._record_bytes, self._header_bytes, self._footer_bytes, self._buffer_size,
                self._compression_type]

    def _validate(self, capture_values):
        _, record, header, footer, buffer_size, kind = capture_values
        if int(header) < 0:
            raise errors.InvalidArgumentError(None, None, "`header_bytes` must be >= 0")
        if int(record) <= 0:
            raise errors.InvalidArgumentError(None, None, "`record_bytes` must be > 0")
        if int(footer) < 0:
            raise errors.InvalidArgumentError(None, None, "`footer_bytes` must be >= 0")
        if int(buffer_size) < 0:
            raise errors.InvalidArgumentError(None, None, "`buffer_size` must be >= 0 (0 == no buffering)")
        _check_compression(kind.item())

    def _iterate(self, ctx, capture_values):
        filenames, record, header, footer, buffer_size, kind = capture_values
        record, header, footer = int(record), int(header), int(footer)
        kind = kind.item().decode("ascii")
        for name in filenames.reshape(-1):
            path = name.decode("utf-8") if isinstance(name, bytes) else str(name)
            f = _open(path, kind, int(buffer_size))
            try:
                if kind:  # the length is known once the stream is read: read it whole
                    data = _read_all(f)
                else:
                    data = None
                    size = gfile.stat(path).length
                if data is not None:
                    size = len(data)
                body = size - header - footer
                if body < 0 or body % record:
                    cls = errors.DataLossError if kind else errors.InvalidArgumentError
                    raise cls(None, None, "Excluding the header (%d bytes) and footer (%d bytes), input file \"%s\" "
                              "has body length %d bytes, which is not an exact multiple of the record length "
                              "(%d bytes)." % (header, footer, path, body % (1 << 64), record))
                if data is not None:
                    for start in range(header, header + body, record):
                        yield _string(data[start:start + record])
                    continue
                f.read(header)
                for _ in range(body // record):
                    yield _string(f.read(record))
            finally:
                f.close()


class FixedLengthRecordDataset(Dataset):
    """A `Dataset` of fixed-length records from one or more binary files.

    Each file is `header_bytes`, then records of `record_bytes` each, then `footer_bytes`; each
    record is one scalar `tf.string` element.

    Args:
      filenames: A `tf.string` tensor (or list) of file names, or a `tf.data.Dataset` of scalar strings.
      record_bytes: A `tf.int64` scalar: the bytes of each record.
      header_bytes: (Optional.) A `tf.int64` scalar: bytes to skip at the start of each file.
      footer_bytes: (Optional.) A `tf.int64` scalar: bytes to ignore at the end of each file.
      buffer_size: (Optional.) A `tf.int64` scalar: bytes to buffer when reading.
      compression_type: (Optional.) A `tf.string` scalar: `""`, `"ZLIB"` or `"GZIP"`.
      num_parallel_reads: (Optional.) The number of files to read in parallel (records interleaved
        one at a time, deterministically).

    Raises:
      TypeError: If `filenames` does not hold strings.

    From `get_next()`: `tf.errors.InvalidArgumentError` if a file's body is not a whole number of
    records (`DataLossError` for a compressed file), `NotFoundError` for a missing file.
    """

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                 compression_type=None, num_parallel_reads=None):
        super().__init__()
        self._impl = _FilesDataset(
            filenames, lambda f: _FixedLengthRecordsDataset(f, record_bytes, header_bytes, footer_bytes,
                                                            buffer_size, compression_type), num_parallel_reads)
        self._element_structure = TensorSpec([], dtypes.string)

    def _inputs(self):
        return [self._impl]

    def _iterate(self, ctx, capture_values):
        return ctx.iterate(self._impl)
