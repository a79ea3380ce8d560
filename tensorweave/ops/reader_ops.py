"""TF1 readers (TF's `io_ops` readers): the handle ops "TextLineReaderV2", "WholeFileReaderV2",
"FixedLengthRecordReaderV2", "TFRecordReaderV2", "IdentityReaderV2", the ops on a reader
"ReaderReadV2", "ReaderReadUpToV2", "ReaderNumRecordsProducedV2", "ReaderNumWorkUnitsCompletedV2",
"ReaderResetV2", and the classes `ReaderBase`, `TextLineReader`, `WholeFileReader`,
`FixedLengthRecordReader`, `TFRecordReader`, `IdentityReader`.

A reader's state (the work unit, usually a filename, it is reading, its open file and counts) lives
in the state of whoever runs its handle op, as a queue's does (`data_flow_ops`). A read takes the
next record of the current work unit; at the end of one it dequeues the next work unit from the
queue it is given (blocking like any dequeue; OutOfRangeError once that queue is closed and
empty). Files are opened through `tensorweave.platform.gfile`, so URLs work as for `tf.gfile`.
"""

import gzip
import struct
import threading
import zlib

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..platform import gfile
from . import data_flow_ops, io_file_ops  # noqa: F401 (io_file_ops installs gfile's error classes)
from .data_flow_ops import _handle_value

__all__ = ["FixedLengthRecordReader", "IdentityReader", "ReaderBase", "TFRecordReader", "TextLineReader",
           "WholeFileReader"]

_uid = data_flow_ops._uid


def _string(b):
    out = np.empty((), dtype=object)
    out[()] = b
    return out


def _open(path, op):
    try:
        return gfile.open_raw(path, "rb")
    except errors.OpError as e:
        raise type(e)(None, op, e.message) from None


# ---- reader states: each yields (key, value) records of one work unit --------------------------------
class _ReaderState:
    """The running state of one reader."""

    def __init__(self, name, **attrs):
        self.name = name
        self.attrs = attrs
        self.lock = threading.RLock()
        self.work = None
        self.records = None
        self.produced = 0
        self.completed = 0

    def close(self):
        """Session shutdown: drops the open work unit. Never waits: a read blocked on its queue holds the
        lock until the Session's shutdown cancels that queue."""
        if self.lock.acquire(blocking=False):
            try:
                self._finish()
            finally:
                self.lock.release()

    def _finish(self):
        if self.records is not None:
            self.records.close()
        self.records = None
        self.work = None

    def reset(self):
        with self.lock:
            self._finish()
            self.produced = 0
            self.completed = 0

    def read(self, queue, n, allow_smaller, deadline, op):
        """Up to `n` (key, value) pairs: exactly `n` unless `allow_smaller`, where a read stops at the end of a
        work unit that gave records (or when the queue is closed and empty)."""
        out = []
        with self.lock:
            while len(out) < n:
                if self.work is None:
                    try:
                        (element,) = queue.dequeue(1, False, deadline, op)
                    except errors.OutOfRangeError:
                        if allow_smaller and out:
                            break
                        raise
                    work = element[0]
                    work = work[()] if isinstance(work, np.ndarray) else work
                    self.work = work if isinstance(work, bytes) else str(work).encode("utf-8")
                    self.records = self._records(self.work.decode("utf-8"), op)
                try:
                    out.append(next(self.records))
                    self.produced += 1
                except StopIteration:
                    self._finish()
                    self.completed += 1
                    if allow_smaller and out:  # TF's ReadUpTo returns at the end of a work unit
                        break
        return out

    def _records(self, path, op):
        raise NotImplementedError


class _TextLineState(_ReaderState):
    def _records(self, path, op):
        skip = self.attrs["skip_header_lines"]
        with _open(path, op) as f:
            for line_number, line in enumerate(f, 1):
                if line.endswith(b"\n"):
                    line = line[:-1]
                    if line.endswith(b"\r"):
                        line = line[:-1]
                if line_number <= skip:
                    continue
                yield b"%s:%d" % (path.encode("utf-8"), line_number), line


class _WholeFileState(_ReaderState):
    def _records(self, path, op):
        with _open(path, op) as f:
            data = f.read()
        yield path.encode("utf-8"), data


def _decompress(data, encoding, op):
    try:
        if encoding == "GZIP":
            return gzip.decompress(data)
        if encoding == "ZLIB":
            return zlib.decompress(data)
    except (OSError, zlib.error, EOFError) as e:
        raise errors.DataLossError(None, op, "Failed to decompress %s data: %s" % (encoding, e)) from None
    return data


class _FixedLengthState(_ReaderState):
    def _records(self, path, op):
        a = self.attrs
        with _open(path, op) as f:
            data = _decompress(f.read(), a["encoding"], op)
        header, record, footer, hop = a["header_bytes"], a["record_bytes"], a["footer_bytes"], a["hop_bytes"]
        end = len(data) - footer
        step = hop if hop > 0 else record
        start, k = header, 0
        while start + record <= end:
            yield b"%s:%d" % (path.encode("utf-8"), k), data[start:start + record]
            start += step
            k += 1


_HEADER = struct.Struct("<QI")
_MASK_DELTA = 0xA282EAD8


def _masked_crc(data):
    try:
        import crc32c
    except ImportError:
        raise ImportError("TFRecord files need the crc32c package: pip install 'tensorweave[data]'") from None
    crc = crc32c.crc32c(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


class _TFRecordState(_ReaderState):
    def _records(self, path, op):
        with _open(path, op) as f:
            data = _decompress(f.read(), self.attrs["compression_type"], op)
        pos, name = 0, path.encode("utf-8")
        while pos < len(data):
            if pos + 12 > len(data):
                raise errors.DataLossError(None, op, "truncated record at %d" % pos)
            length, length_crc = _HEADER.unpack_from(data, pos)
            if _masked_crc(data[pos:pos + 8]) != length_crc:
                raise errors.DataLossError(None, op, "corrupted record at %d" % pos)
            body = pos + 12
            if body + length + 4 > len(data):
                raise errors.DataLossError(None, op, "truncated record at %d" % pos)
            payload = data[body:body + length]
            (crc,) = struct.unpack_from("<I", data, body + length)
            if _masked_crc(payload) != crc:
                raise errors.DataLossError(None, op, "corrupted record at %d" % pos)
            yield b"%s:%d" % (name, pos), payload
            pos = body + length + 4


class _IdentityState(_ReaderState):
    def _records(self, path, op):
        yield path.encode("utf-8"), path.encode("utf-8")


# ---- the handle ops ------------------------------------------------------------------------------------
def _make_reader_kernel(cls):
    def kernel(ctx, op, container, shared_name, **attrs):
        key = ("tf.reader.shared", container, shared_name) if shared_name else op
        r = data_flow_ops._shared_resource(ctx, op, key, lambda: cls(shared_name or op.name, **attrs))
        return _handle_value(r)
    return kernel


_HANDLE_INFER = {"infer": lambda op: [(dtypes.resource, ())], "grad": NO_GRADIENT, "stateful": True}
register_op("TextLineReaderV2", kernel=_make_reader_kernel(_TextLineState), **_HANDLE_INFER)
register_op("WholeFileReaderV2", kernel=_make_reader_kernel(_WholeFileState), **_HANDLE_INFER)
register_op("FixedLengthRecordReaderV2", kernel=_make_reader_kernel(_FixedLengthState), **_HANDLE_INFER)
register_op("TFRecordReaderV2", kernel=_make_reader_kernel(_TFRecordState), **_HANDLE_INFER)
register_op("IdentityReaderV2", kernel=_make_reader_kernel(_IdentityState), **_HANDLE_INFER)


def _reader_of(handle, op):
    r = handle[()] if isinstance(handle, np.ndarray) else handle
    if not isinstance(r, _ReaderState):
        raise errors.InvalidArgumentError(None, op, "Input is not a reader handle")
    return r


def _read_kernel(ctx, op, reader, queue):
    r = _reader_of(reader, op)
    ((key, value),) = r.read(data_flow_ops._queue_of(queue, op), 1, False, getattr(ctx, "deadline", None), op)
    return _string(key), _string(value)


def _read_up_to_kernel(ctx, op, reader, queue, num_records):
    r = _reader_of(reader, op)
    n = int(num_records)
    if n <= 0:
        raise errors.InvalidArgumentError(None, op, "num_records must be positive, but got %d" % n)
    pairs = r.read(data_flow_ops._queue_of(queue, op), n, True, getattr(ctx, "deadline", None), op)
    keys = np.empty(len(pairs), dtype=object)
    values = np.empty(len(pairs), dtype=object)
    for i, (k, v) in enumerate(pairs):
        keys[i], values[i] = k, v
    return keys, values


def _reset_kernel(ctx, op, reader):
    _reader_of(reader, op).reset()


register_op("ReaderReadV2", infer=lambda op: [(dtypes.string, ()), (dtypes.string, ())], kernel=_read_kernel,
            grad=NO_GRADIENT, stateful=True)
register_op("ReaderReadUpToV2", infer=lambda op: [(dtypes.string, (None,)), (dtypes.string, (None,))],
            kernel=_read_up_to_kernel, grad=NO_GRADIENT, stateful=True)
register_op("ReaderNumRecordsProducedV2", infer=lambda op: [(dtypes.int64, ())],
            kernel=lambda ctx, op, reader: np.int64(_reader_of(reader, op).produced), grad=NO_GRADIENT,
            stateful=True)
register_op("ReaderNumWorkUnitsCompletedV2", infer=lambda op: [(dtypes.int64, ())],
            kernel=lambda ctx, op, reader: np.int64(_reader_of(reader, op).completed), grad=NO_GRADIENT,
            stateful=True)
register_op("ReaderResetV2", infer=lambda op: [], kernel=_reset_kernel, grad=NO_GRADIENT, stateful=True)


# ---- the Python classes ------------------------------------------------------------------------------
def _reader_op(op_type, name, attrs):
    a = {"container": "", "shared_name": ""}
    a.update(attrs)
    if ops.get_default_graph()._eager:
        a["_uid"] = next(_uid)
    return ops.apply_op(op_type, [], a, name=name or op_type)


def _queue_ref(queue):
    return queue if isinstance(queue, ops.Tensor) else queue.queue_ref


class ReaderBase:
    """Base class for different Reader types, that produce a record every step.

    Conceptually, Readers convert string 'work units' into records (key, value pairs). Typically the
    'work units' are filenames and the records are extracted from the contents of those files. A
    reader dequeues a work unit from the queue given to `read` whenever it has finished the
    previous one.

    Args:
      reader_ref: The operation that implements the reader.
      supports_serialize: True if the reader implementation can serialize its state.
    """

    def __init__(self, reader_ref, supports_serialize=False):
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize

    @property
    def reader_ref(self):
        """Op that implements the reader."""
        return self._reader_ref

    @property
    def supports_serialize(self):
        """Whether the Reader implementation can serialize its state."""
        return self._supports_serialize

    def read(self, queue, name=None):
        """Returns the next record (key, value) pair produced by a reader.

        Will dequeue a work unit from queue if necessary (e.g. when the Reader needs to start reading
        from a new file since it has finished with the previous file).

        Args:
          queue: A Queue or a mutable string Tensor representing a handle to a Queue, with string
            work items.
          name: A name for the operation (optional).

        Returns:
          A tuple of Tensors (key, value).
          key: A string scalar Tensor.
          value: A string scalar Tensor.
        """
        return tuple(ops.apply_op("ReaderReadV2", [self._reader_ref, _queue_ref(queue)], {},
                                  name=name or "ReaderReadV2"))

    def read_up_to(self, queue, num_records, name=None):
        """Returns up to num_records (key, value) pairs produced by a reader.

        Will dequeue a work unit from queue if necessary (e.g., when the Reader needs to start
        reading from a new file since it has finished with the previous file). It may return less
        than num_records even before the last batch.

        Args:
          queue: A Queue or a mutable string Tensor representing a handle to a Queue, with string
            work items.
          num_records: Number of records to read.
          name: A name for the operation (optional).

        Returns:
          A tuple of Tensors (keys, values).
          keys: A 1-D string Tensor.
          values: A 1-D string Tensor.
        """
        n = ops.convert_to_tensor(num_records, dtype=dtypes.int64, name="num_records")
        return tuple(ops.apply_op("ReaderReadUpToV2", [self._reader_ref, _queue_ref(queue), n], {},
                                  name=name or "ReaderReadUpToV2"))

    def num_records_produced(self, name=None):
        """Returns the number of records this reader has produced (an int64 scalar Tensor).

        This is the same as the number of Read executions that have succeeded.

        Args:
          name: A name for the operation (optional).
        """
        return ops.apply_op("ReaderNumRecordsProducedV2", [self._reader_ref], {},
                            name=name or "ReaderNumRecordsProducedV2")

    def num_work_units_completed(self, name=None):
        """Returns the number of work units this reader has finished processing (an int64 scalar Tensor).

        Args:
          name: A name for the operation (optional).
        """
        return ops.apply_op("ReaderNumWorkUnitsCompletedV2", [self._reader_ref], {},
                            name=name or "ReaderNumWorkUnitsCompletedV2")

    def reset(self, name=None):
        """Restore a reader to its initial clean state.

        Args:
          name: A name for the operation (optional).

        Returns:
          The created Operation.
        """
        return ops.apply_op("ReaderResetV2", [self._reader_ref], {}, name=name or "ReaderResetV2")


class TextLineReader(ReaderBase):
    """A Reader that outputs the lines of a file delimited by newlines.

    Newlines are stripped from the output; a key is "<filename>:<line number>", counting from 1.

    Args:
      skip_header_lines: An optional int. Defaults to 0. Number of lines to skip from the
        beginning of every file.
      name: A name for the operation (optional).
    """

    def __init__(self, skip_header_lines=None, name=None):
        super().__init__(_reader_op("TextLineReaderV2", name, {"skip_header_lines": int(skip_header_lines or 0)}))


class WholeFileReader(ReaderBase):
    """A Reader that outputs the entire contents of a file as a value.

    To use, enqueue filenames in a Queue. The output of Read will be a filename (key) and the
    contents of that file (value).

    Args:
      name: A name for the operation (optional).
    """

    def __init__(self, name=None):
        super().__init__(_reader_op("WholeFileReaderV2", name, {}))


class FixedLengthRecordReader(ReaderBase):
    """A Reader that outputs fixed-length records from a file.

    Keys are "<filename>:<record number>", counting from 0.

    Args:
      record_bytes: An int: the number of bytes of each record.
      header_bytes: An optional int. Defaults to 0. Bytes skipped at the start of each file.
      footer_bytes: An optional int. Defaults to 0. Bytes ignored at the end of each file.
      hop_bytes: An optional int. Defaults to 0: records follow each other; otherwise the distance
        between the starts of consecutive records.
      name: A name for the operation (optional).
      encoding: The type of encoding for the file: "" (none), "ZLIB" or "GZIP".
    """

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None, name=None, encoding=None):
        if encoding not in (None, "", "ZLIB", "GZIP"):
            raise ValueError("Unsupported encoding: %s" % encoding)
        super().__init__(_reader_op("FixedLengthRecordReaderV2", name, {
            "record_bytes": int(record_bytes), "header_bytes": int(header_bytes or 0),
            "footer_bytes": int(footer_bytes or 0), "hop_bytes": int(hop_bytes or 0), "encoding": encoding or ""}))


def _compression_string(options):
    if options is None:
        return ""
    if isinstance(options, str):
        value = options
    else:
        value = type(options).get_compression_type_string(options)
    if value not in ("", "ZLIB", "GZIP"):
        raise ValueError("Unsupported compression type: %s" % value)
    return value


class TFRecordReader(ReaderBase):
    """A Reader that outputs the records from a TFRecords file.

    Keys are "<filename>:<byte offset of the record>". Every record's CRCs are checked
    (DataLossError for a corrupted or truncated file).

    Args:
      name: A name for the operation (optional).
      options: A TFRecordOptions object, or a compression type string ("", "ZLIB", "GZIP") (optional).
    """

    def __init__(self, name=None, options=None):
        super().__init__(_reader_op("TFRecordReaderV2", name, {"compression_type": _compression_string(options)}))


class IdentityReader(ReaderBase):
    """A Reader that outputs the queued work as both the key and value.

    To use, enqueue strings in a Queue. Read will take the front work string and output (work, work).

    Args:
      name: A name for the operation (optional).
    """

    def __init__(self, name=None):
        super().__init__(_reader_op("IdentityReaderV2", name, {}))
