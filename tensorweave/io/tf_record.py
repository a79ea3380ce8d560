"""TFRecord files, byte-compatible with TensorFlow's (`tf.io.TFRecordWriter`, `tf.io.tf_record_iterator`).

A record is framed as

    uint64 length (little endian)
    uint32 masked CRC-32C of the 8 length bytes
    byte   data[length]
    uint32 masked CRC-32C of the data

where `masked(crc) = ((crc >> 15) | (crc << 17)) + 0xa282ead8 (mod 2**32)`. A GZIP or ZLIB file is that
byte stream compressed as a whole, with TensorFlow's zlib settings (window bits 15, memory level 9).

CRC-32C comes from the `crc32c` package (the `data` extra), imported when a file is first read or written.
"""

import os
import struct
import zlib

from ..framework import errors
from ..platform import gfile as _gfile

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator"]

_HEADER = struct.Struct("<QI")
_FOOTER = struct.Struct("<I")
_MASK_DELTA = 0xA282EAD8
_READ_CHUNK = 1 << 16


def _crc32c_module():
    try:
        import crc32c
    except ImportError:
        raise ImportError("TFRecord files need the crc32c package: pip install 'tensorweave[data]'") from None
    return crc32c


def masked_crc32c(data):
    """The masked CRC-32C that frames TFRecord lengths and payloads.

    Args:
      data: A bytes-like object.

    Returns:
      The masked checksum, an int in [0, 2**32).

    Raises:
      ImportError: If the `crc32c` package (`tensorweave[data]`) is not installed.
    """
    return _mask(_crc32c_module().crc32c(data))


def _mask(crc):
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF


def encode_record(data):
    """The framed bytes of one record, as TensorFlow's `RecordWriter` writes them (before compression).

    Args:
      data: The record payload (bytes-like).

    Returns:
      `bytes`: header (length, masked length CRC), payload, footer (masked payload CRC).
    """
    data = bytes(data) if not isinstance(data, bytes) else data
    length = struct.pack("<Q", len(data))
    return length + _FOOTER.pack(masked_crc32c(length)) + data + _FOOTER.pack(masked_crc32c(data))


class TFRecordCompressionType:
    """The type of compression for the record."""

    NONE = 0
    ZLIB = 1
    GZIP = 2


class TFRecordOptions:
    """Options used for manipulating TFRecord files.

    Args:
      compression_type: `"GZIP"`, `"ZLIB"`, `""` (no compression), or a `TFRecordCompressionType`.
      flush_mode: zlib flush mode used by `TFRecordWriter.flush()`, or None (`zlib.Z_SYNC_FLUSH`).
      input_buffer_size: Accepted for TensorFlow compatibility; reads and writes are buffered by Python.
      output_buffer_size: Accepted for TensorFlow compatibility.
      window_bits: zlib window bits (8..15), or None for 15.
      compression_level: 0 to 9, or None for zlib's default (6).
      compression_method: Compression method, or None (`zlib.DEFLATED`, the only one).
      mem_level: 1 to 9, or None for 9 (TensorFlow's default).
      compression_strategy: zlib strategy, or None for `zlib.Z_DEFAULT_STRATEGY`.

    Raises:
      ValueError: If `compression_type` is invalid.
    """

    compression_type_map = {
        TFRecordCompressionType.ZLIB: "ZLIB",
        TFRecordCompressionType.GZIP: "GZIP",
        TFRecordCompressionType.NONE: "",
    }

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None, output_buffer_size=None,
                 window_bits=None, compression_level=None, compression_method=None, mem_level=None,
                 compression_strategy=None):
        self.get_compression_type_string(compression_type)
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """Converts a `TFRecordOptions`, `TFRecordCompressionType` or string to `"ZLIB"`, `"GZIP"` or `""`.

        Args:
          options: `TFRecordOptions`, `TFRecordCompressionType`, string or None.

        Returns:
          The compression type as a string.

        Raises:
          ValueError: If the compression type is invalid.
        """
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return cls.get_compression_type_string(options.compression_type)
        if isinstance(options, bytes):
            options = options.decode("ascii", "replace")
        if isinstance(options, (int, str)):
            if options in cls.compression_type_map:
                return cls.compression_type_map[options]
            if options in cls.compression_type_map.values():
                return options
        raise ValueError('Not a valid compression_type: "{}"'.format(options))

    def _compressobj(self):
        kind = self.get_compression_type_string(self)
        if not kind:
            return None
        wbits = zlib.MAX_WBITS if self.window_bits is None else self.window_bits
        return zlib.compressobj(
            zlib.Z_DEFAULT_COMPRESSION if self.compression_level is None else self.compression_level,
            zlib.DEFLATED if self.compression_method is None else self.compression_method,
            wbits + 16 if kind == "GZIP" else wbits,
            9 if self.mem_level is None else self.mem_level,
            zlib.Z_DEFAULT_STRATEGY if self.compression_strategy is None else self.compression_strategy)


def _as_path(path):
    path = os.fspath(path)
    return path.decode("utf-8") if isinstance(path, bytes) else path


def _open_error(path, e, what):
    cls = errors.NotFoundError if isinstance(e, FileNotFoundError) else (
        errors.PermissionDeniedError if isinstance(e, PermissionError) else errors.UnknownError)
    return cls(None, None, "%s%s; %s" % (what, path, e.strerror or e))


class TFRecordWriter:
    """A class to write records to a TFRecords file.

    The file is created (truncated) when the writer is made; records are streamed to it and the file is
    complete after `close()` (also called on leaving a `with` block).

    Example:

      with tf.io.TFRecordWriter("data.tfrecord") as writer:
          writer.write(tf.train.Example(...).SerializeToString())

    Args:
      path: The path to the TFRecords file.
      options: (optional) String specifying compression type, `TFRecordCompressionType`, or
        `TFRecordOptions` object.

    Raises:
      tf.errors.NotFoundError: If the directory of `path` does not exist.
      ValueError: If a valid compression type can't be determined from `options`.
      ImportError: If the `crc32c` package (`tensorweave[data]`) is not installed.
    """

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(compression_type=options)
        _crc32c_module()
        self._path = _as_path(path)
        self._compressor = options._compressobj()
        self._flush_mode = zlib.Z_SYNC_FLUSH if options.flush_mode is None else options.flush_mode
        try:
            self._file = _gfile.open_raw(self._path, "wb", os_errors=True)
        except OSError as e:
            raise _open_error(self._path, e, "Failed to create a NewWriteableFile: ") from None

    def _check_open(self):
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, "Writer is closed.")

    def write(self, record):
        """Write a string record to the file.

        Args:
          record: bytes (a `str` is written UTF-8 encoded).

        Raises:
          TypeError: If `record` is not bytes or str.
          tf.errors.FailedPreconditionError: If the writer is closed.
        """
        self._check_open()
        if isinstance(record, str):
            record = record.encode("utf-8")
        elif not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError("write(): expected a bytes record, got %r of type %s" % (record, type(record).__name__))
        framed = encode_record(record)
        self._file.write(self._compressor.compress(framed) if self._compressor is not None else framed)

    def flush(self):
        """Flush the file (compressed data is flushed to a byte boundary, so what is written can be read).

        Raises:
          tf.errors.FailedPreconditionError: If the writer is closed.
        """
        self._check_open()
        if self._compressor is not None:
            self._file.write(self._compressor.flush(self._flush_mode))
        self._file.flush()

    def close(self):
        """Close the file (finishing the compressed stream). Closing twice is a no-op."""
        if self._file is None:
            return
        f, self._file = self._file, None
        try:
            if self._compressor is not None:
                f.write(self._compressor.flush(zlib.Z_FINISH))
        finally:
            f.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __del__(self):
        if getattr(self, "_file", None) is not None:
            try:
                self.close()
            except Exception:
                pass


class _DecompressingFile:
    """Sequential `read(n)` over a whole-file zlib or gzip stream (gzip members may be concatenated)."""

    def __init__(self, f, path, wbits):
        self._f = f
        self._path = path
        self._wbits = wbits
        self._d = zlib.decompressobj(wbits)
        self._buf = bytearray()
        self._eof = False

    def _fill(self, n):
        while len(self._buf) < n and not self._eof:
            if self._d.eof:
                rest = self._d.unused_data
                self._d = zlib.decompressobj(self._wbits)
                if not rest:
                    rest = self._f.read(_READ_CHUNK)
                    if not rest:
                        self._eof = True
                        break
            else:
                rest = self._d.unconsumed_tail or self._f.read(_READ_CHUNK)
                if not rest:
                    self._eof = True
                    self._buf += self._d.flush()
                    break
            try:
                self._buf += self._d.decompress(rest, _READ_CHUNK)
            except zlib.error as e:
                msg = "corrupted compressed data in %s: %s" % (self._path, e)
                raise errors.DataLossError(None, None, msg) from None

    def read(self, n):
        self._fill(n)
        out = bytes(self._buf[:n])
        del self._buf[:n]
        return out

    def close(self):
        self._f.close()


class RecordReader:
    """Reads the records of one TFRecord file in order, checking every CRC as TensorFlow's `RecordReader`.

    Args:
      path: The file path.
      compression_type: `""`, `"ZLIB"` or `"GZIP"` (anything `TFRecordOptions` accepts).
      buffer_size: Bytes read from the file at a time (None for a default).

    Raises:
      tf.errors.NotFoundError: If `path` does not exist.
      ImportError: If the `crc32c` package (`tensorweave[data]`) is not installed.
    """

    def __init__(self, path, compression_type=None, buffer_size=None):
        self._crc = _crc32c_module().crc32c
        self._path = _as_path(path)
        kind = TFRecordOptions.get_compression_type_string(compression_type)
        try:
            f = _gfile.open_raw(self._path, "rb", buffering=buffer_size if buffer_size and buffer_size > 1 else -1,
                                os_errors=True)
        except OSError as e:
            raise _open_error(self._path, e, "") from None
        if kind:
            f = _DecompressingFile(f, self._path, zlib.MAX_WBITS + 16 if kind == "GZIP" else zlib.MAX_WBITS)
        self._f = f
        self.offset = 0

    def _bytes_left(self, offset):
        """Bytes of an uncompressed file after `offset` (None for a compressed one, read in chunks)."""
        if isinstance(self._f, _DecompressingFile):
            return None
        try:
            return max(0, os.fstat(self._f.fileno()).st_size - offset)
        except (OSError, AttributeError, ValueError):
            return None

    def _data_loss(self, what, offset):
        return errors.DataLossError(None, None, "%s record at %d in %s" % (what, offset, self._path))

    def read_record(self):
        """Returns the next record's bytes, or None at the end of the file.

        Raises:
          tf.errors.DataLossError: On a checksum mismatch or a truncated record (naming file and offset).
        """
        if self._f is None:
            return None
        start = self.offset
        header = self._f.read(_HEADER.size)
        if not header:
            return None
        if len(header) != _HEADER.size:
            raise self._data_loss("truncated", start)
        length, length_crc = _HEADER.unpack(header)
        if _mask(self._crc(header[:8])) != length_crc:
            raise self._data_loss("corrupted", start)
        left = self._bytes_left(start + _HEADER.size)
        if left is not None and length + _FOOTER.size > left:  # checked before a buffer of `length` is made
            err = self._data_loss("truncated", start + _HEADER.size if left else start)
            raise type(err)(None, None, "%s: its length %d exceeds the %d bytes left" % (err.message, length, left))
        body = self._f.read(length + _FOOTER.size)
        if len(body) != length + _FOOTER.size:
            raise self._data_loss("truncated", start if not body else start + _HEADER.size)
        data = body[:length]
        if _mask(self._crc(data)) != _FOOTER.unpack_from(body, length)[0]:
            raise self._data_loss("corrupted", start + _HEADER.size)
        self.offset = start + _HEADER.size + len(body)
        return data

    def __iter__(self):
        try:
            while True:
                record = self.read_record()
                if record is None:
                    return
                yield record
        finally:
            self.close()

    def close(self):
        if self._f is not None:
            f, self._f = self._f, None
            f.close()

    def __del__(self):
        if getattr(self, "_f", None) is not None:
            self.close()


def tf_record_iterator(path, options=None):
    """An iterator that reads the records from a TFRecords file.

    The file is opened when this is called; records are read one at a time as the iterator advances.

    Args:
      path: The path to the TFRecords file.
      options: (optional) A TFRecordOptions object (or a compression type).

    Returns:
      An iterator of serialized TFRecords (`bytes`).

    Raises:
      tf.errors.NotFoundError: If `path` does not exist.
      tf.errors.DataLossError: While iterating, on a corrupted or truncated record.
    """
    return iter(RecordReader(path, TFRecordOptions.get_compression_type_string(options)))
