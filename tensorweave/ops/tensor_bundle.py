"""The on-disk checkpoint format: TensorFlow's V2 checkpoint (a "tensor bundle"), byte for byte as
TF's `BundleWriter` writes it, so TensorFlow reads tensorweave's checkpoints and tensorweave reads TF's.

`<prefix>.data-<shard>-of-<num_shards>` (one file per shard; 5-digit numbers): the tensors' bytes,
one after the other with no padding (TF's default alignment of 1), in the order they are added:
  - numeric and bool tensors: their C-order little-endian values;
  - string tensors: the varint64 length of each element, then the masked CRC-32C (uint32,
    little-endian) of those lengths taken as little-endian uint32 values (uint64 for a length over
    2**32 - 1), then the elements' bytes.

`<prefix>.index`: a table (`sstable.py`: LevelDB's SSTable layout as TF writes it) whose key ""
holds a serialized `BundleHeaderProto` (num_shards, endianness LITTLE, version {producer: 1}) and whose
key `<tensor name>` holds a `BundleEntryProto`: dtype (TF's DataType enum), shape, shard_id, offset
and size of its bytes in its data file, and crc32c, the masked CRC-32C of its bytes (for a string
tensor TF's CRC runs over the lengths as uint32 values, the length checksum, then the bytes). The
messages are in `bundle_proto.py`; protobuf and crc32c are the `data` extra.

Each file is written to a temporary name (`<name>.tmp<32 hex digits>`), flushed to disk and renamed
over its final name, the data file before the index, so an interrupted save never leaves a partial
file under a final name. The writer holds an exclusive `flock` on its temporary file until the
rename, so a temporary that can be locked belongs to no running save: a save killed midway leaves
one, and `remove_stale_temporaries` (called by `Saver.save` for its own prefix) deletes it. Where
file locks do not exist, only temporaries untouched for `STALE_TEMPORARY_SECS` count as stale.
Reading checks the table's block checksums, every entry (a known dtype, a shape of non-negative sizes
whose bytes agree with the stored size, a shard that exists), the CRC-32C of each tensor's bytes and
every string length against the stored bytes, so a damaged or crafted file raises DataLossError
naming the file before anything of the size it claims is allocated. An index in tensorweave's old
JSON format (before TF's format was adopted) raises DataLossError saying so.
"""

import math
import os
import re
import struct
import time

try:
    import fcntl
except ImportError:  # Windows: no flock; staleness by age
    fcntl = None

import numpy as np

from ..framework import dtypes, errors
from ..platform import gfile
from . import sstable

VERSION = 1  # TF's kTensorBundleVersion (VersionDef.producer of the header)
_MAX_RANK = 254  # TF's TensorShape limit
# The dtypes a checkpoint holds here, by TF's DataType enum value.
_DTYPES = {d.as_datatype_enum: d for d in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8,
                                           dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16,
                                           dtypes.bool_, dtypes.complex64, dtypes.complex128, dtypes.string)}
# TF's DataType names of the values tensorweave has no dtype for (a TF checkpoint may hold them).
_TF_ONLY_DTYPES = {11: "qint8", 12: "quint8", 13: "qint32", 14: "bfloat16", 15: "qint16", 16: "quint16",
                   20: "resource", 21: "variant", 22: "uint32", 23: "uint64"}
_U32 = struct.Struct("<I")


def _unique_hex():
    import uuid  # only here: `import tensorweave` does not need it
    return uuid.uuid4().hex


def _messages():
    from . import bundle_proto
    return bundle_proto.message_classes()


def data_filename(prefix, shard=0, num_shards=1):
    return "%s.data-%05d-of-%05d" % (prefix, shard, num_shards)


def index_filename(prefix):
    return prefix + ".index"


def _write_chunk(f, data):
    """Writes bytes to an open file (one place, so tests can make a save fail midway)."""
    f.write(data)


# Without file locks, a temporary file untouched for this long belongs to no running save.
STALE_TEMPORARY_SECS = 3600
_TEMP_SUFFIX = r"\.tmp[0-9a-f]{32}"


def _open_temporary(path, binary):
    """A new temporary file for `path`, created and (where file locks exist) locked by this writer.

    The lock marks it live for `remove_stale_temporaries`; a temporary removed by a cleaner between
    its creation and the lock is noticed and replaced by another.
    """
    while True:
        tmp = "%s.tmp%s" % (path, _unique_hex())
        f = open(tmp, "xb" if binary else "x")
        if fcntl is None:
            return tmp, f
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            if os.path.samestat(os.fstat(f.fileno()), os.stat(tmp)):
                return tmp, f
        except FileNotFoundError:
            pass
        except OSError:  # a file system without flock
            return tmp, f
        f.close()


def atomic_write(path, write_fn, binary=True):
    """Calls `write_fn(file)` on a temporary file next to `path`, syncs it and renames it to `path`.

    The temporary file is removed if `write_fn` raises, and `path` keeps its previous content. It is
    locked (flock) while it exists under its temporary name.
    """
    if not gfile.is_local(path):  # a URL (fsspec): written whole, then renamed
        import io
        buf = io.BytesIO() if binary else io.StringIO()
        write_fn(buf)
        gfile.atomic_write(path, buf.getvalue())
        return
    tmp, f = _open_temporary(path, binary)
    try:
        with f:
            write_fn(f)
            f.flush()
            os.fsync(f.fileno())
            if fcntl is not None:  # renamed while still locked (POSIX renames open files)
                os.replace(tmp, path)
        if fcntl is None:
            os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def _encode(array):
    """(list of byte chunks, dtype, masked crc32c, size) of one array in TF's data-file layout."""
    array = np.asarray(array)
    dt = dtypes.string if array.dtype == object or array.dtype.kind in "SU" else dtypes.as_dtype(array.dtype)
    if dt is dtypes.string:
        items = [x if isinstance(x, bytes) else str(x).encode("utf-8") for x in array.reshape(-1)]
        lengths = bytearray()
        crc = 0
        for x in items:
            sstable.put_varint(lengths, len(x))
            crc = sstable.crc32c(struct.pack("<I" if len(x) <= 0xFFFFFFFF else "<Q", len(x)), crc)
        checksum = _U32.pack(sstable.mask(crc))
        crc = sstable.crc32c(checksum, crc)
        for x in items:
            crc = sstable.crc32c(x, crc)
        chunks = [bytes(lengths), checksum] + items
        return chunks, dt, sstable.mask(crc), sum(len(c) for c in chunks)
    a = np.asarray(array, order="C")
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    buf = a.reshape(-1).view(np.uint8)
    return [buf], dt, sstable.mask(sstable.crc32c(buf)), int(buf.nbytes)


def _entry_bytes(dt, shape, shard, offset, size, masked_crc):
    m = _messages()["BundleEntryProto"](dtype=dt.as_datatype_enum, shard_id=shard, offset=offset, size=size,
                                        crc32c=masked_crc)
    m.shape.SetInParent()  # present even for a scalar, as TF writes it
    for d in shape:
        m.shape.dim.add(size=d)
    return m.SerializeToString()


def _header_bytes(num_shards):
    m = _messages()["BundleHeaderProto"](num_shards=num_shards)
    m.version.producer = VERSION
    return m.SerializeToString()


def _replace(src, dst):
    if gfile.is_local(src) and gfile.is_local(dst):
        os.replace(src, dst)
    else:
        gfile.rename(src, dst, overwrite=True)


def _remove(path):
    if gfile.is_local(path):
        os.remove(path)
    else:
        gfile.remove(path)


def _make_directory(prefix):
    if not gfile.is_local(prefix):
        directory = prefix.rsplit("/", 1)[0] if "/" in prefix[prefix.index("://") + 3:] else ""
        if directory and not gfile.isdir(directory):
            gfile.mkdir(directory)
        return
    directory = os.path.dirname(prefix)
    if directory and not os.path.isdir(directory):
        os.mkdir(directory)  # one level, as TF's BundleWriter: a missing grandparent is an error


def _encode_name(name):
    return name.encode("utf-8") if isinstance(name, str) else bytes(name)


def write_bundle(prefix, names, arrays):
    """Writes `arrays` under `names` as the one-shard bundle `prefix` (TF's SaveV2): the data file, in the
    order given, then the index. The directory of `prefix` is created if its parent exists.

    Raises:
      ValueError: If a name repeats or is empty.
      ImportError: If protobuf or crc32c (`tensorweave[data]`) is missing.
      OSError: If a file cannot be written (the previous files under `prefix` are kept).
    """
    keys = [_encode_name(n) for n in names]
    if len(set(keys)) != len(keys):
        raise ValueError("Duplicate tensor names in a checkpoint: %s" % sorted(names))
    if b"" in keys:
        raise ValueError("A tensor name in a checkpoint must not be empty (the empty key holds the header)")
    _messages()
    sstable._crc32c_module()
    _make_directory(prefix)
    entries = []

    def write_data(f):
        offset = 0
        for key, array in zip(keys, arrays):
            array = np.asarray(array)
            chunks, dt, crc, size = _encode(array)
            for c in chunks:
                _write_chunk(f, c)
            entries.append((key, _entry_bytes(dt, array.shape, 0, offset, size, crc)))
            offset += size

    atomic_write(data_filename(prefix), write_data)
    table = sstable.build_table([(b"", _header_bytes(1))] + sorted(entries))
    atomic_write(index_filename(prefix), lambda f: _write_chunk(f, table))


def merge_bundles(prefixes, merged_prefix, delete_old_dirs=True):
    """Merges the one-shard bundles `prefixes` into the bundle `merged_prefix` with one shard each (TF's
    MergeV2Checkpoints): their data files are renamed to `<merged_prefix>.data-<i>-of-<n>`, the merged
    index is written (atomically), and the source index files are removed, with the directory of the
    first source prefix if `delete_old_dirs` and it is then empty.

    Raises:
      NotFoundError: If a source bundle is missing.
      DataLossError: If one is damaged.
      InvalidArgumentError: If two bundles hold the same tensor name.
      OSError: If a file cannot be written or renamed.
    """
    readers = [BundleReader(p) for p in prefixes]
    n = len(readers)
    entries = {}
    for shard, reader in enumerate(readers):
        if reader._num_shards != 1:
            raise errors.InvalidArgumentError(None, None, "Merging checkpoint %s of %d shards: only one-shard "
                                              "bundles are merged" % (reader.prefix, reader._num_shards))
        for key, e in reader._entries.items():
            if key in entries:
                raise errors.InvalidArgumentError(None, None, "Duplicate tensor keyed by %s encountered, when "
                                                  "merging prefix: %s" % (key, reader.prefix))
            m = _messages()["BundleEntryProto"]()
            m.CopyFrom(e)
            m.shard_id = shard
            entries[key] = m.SerializeToString()
    _make_directory(merged_prefix)
    for shard, reader in enumerate(readers):
        _replace(data_filename(reader.prefix), data_filename(merged_prefix, shard, n))
    table = sstable.build_table([(b"", _header_bytes(n))] + sorted((k.encode("utf-8"), v) for k, v in entries.items()))
    atomic_write(index_filename(merged_prefix), lambda f: _write_chunk(f, table))
    for reader in readers:
        try:
            _remove(index_filename(reader.prefix))
        except (FileNotFoundError, errors.NotFoundError):
            pass
    if delete_old_dirs and prefixes and gfile.is_local(prefixes[0]):
        try:
            os.rmdir(os.path.dirname(prefixes[0]) or ".")
        except OSError:
            pass


def _dims(shape_proto):
    return [d.size for d in shape_proto.dim]


class BundleReader:
    """Reads the tensors of the bundle `prefix` (TF's V2 checkpoint, any number of shards).

    Raises:
      NotFoundError: If `<prefix>.index` does not exist.
      DataLossError: If the index is not a tensor bundle index or is damaged (the message names it).
      ImportError: If protobuf or crc32c (`tensorweave[data]`) is missing.
    """

    def __init__(self, prefix):
        self.prefix = prefix
        path = index_filename(prefix)
        try:
            with gfile.open_raw(path, "rb", os_errors=True) as f:
                raw = f.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, errors.NotFoundError):
            raise errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                                       "matching files for %s" % prefix) from None
        self._index_path = path
        if raw[:1] == b"{" and b"tensorweave-bundle" in raw[:4096]:
            raise errors.DataLossError(None, None, "Unable to open table file %s: it is a checkpoint index in "
                                       "tensorweave's old JSON format, which this version no longer reads. Restore "
                                       "it with an earlier tensorweave's Saver and save it again to get TensorFlow's "
                                       "format." % path)
        from google.protobuf.message import DecodeError
        msgs = _messages()
        items = sstable.read_table(raw, path)
        if not items or items[0][0] != b"":
            raise self._damaged("no bundle header (the entry of key \"\")")
        header = msgs["BundleHeaderProto"]()
        try:
            header.ParseFromString(items[0][1])
        except DecodeError as e:
            raise self._damaged("unparsable bundle header: %s" % e) from None
        if header.num_shards < 1:
            raise self._damaged("invalid num_shards %d" % header.num_shards)
        if header.endianness not in (0, 1):
            raise self._damaged("invalid endianness %d" % header.endianness)
        if header.version.min_consumer > VERSION:
            raise errors.InvalidArgumentError(None, None, "Checkpoint min consumer version %d above current version "
                                              "%d for TensorFlow" % (header.version.min_consumer, VERSION))
        if VERSION in header.version.bad_consumers:
            raise errors.InvalidArgumentError(None, None, "Checkpoint disallows consumer version %d. Please upgrade "
                                              "TensorFlow: this version is likely buggy." % VERSION)
        self._num_shards = header.num_shards
        self._big_endian = header.endianness == 1
        self._entries = {}
        for key, value in items[1:]:
            if key[:1] == b"\0":  # the entry of one slice of a partitioned tensor (OrderedCode key)
                continue
            try:
                name = key.decode("utf-8")
            except UnicodeDecodeError:
                raise self._damaged("a tensor name that is not UTF-8: %r" % key) from None
            e = msgs["BundleEntryProto"]()
            try:
                e.ParseFromString(value)
            except DecodeError as err:
                raise self._damaged("unparsable entry of tensor %s: %s" % (name, err)) from None
            why = self._check_entry(name, e)
            if why:
                raise self._damaged(why)
            self._entries[name] = e
        self._data = {}

    def _check_entry(self, name, e):
        """Why entry `e` of tensor `name` is impossible, or None."""
        if e.dtype not in _DTYPES and e.dtype not in _TF_ONLY_DTYPES:
            return "tensor %s has an invalid dtype %d" % (name, e.dtype)
        dims = _dims(e.shape)
        if e.shape.unknown_rank or len(dims) > _MAX_RANK or any(d < 0 for d in dims):
            return "tensor %s has an invalid shape %s" % (name, dims)
        if e.shard_id < 0 or e.shard_id >= self._num_shards:
            return "tensor %s has an invalid shard_id %d (of %d shards)" % (name, e.shard_id, self._num_shards)
        if e.offset < 0 or e.size < 0:
            return "tensor %s has an invalid offset %d or size %d" % (name, e.offset, e.size)
        if e.slices or e.dtype in _TF_ONLY_DTYPES:
            return None  # refused when read
        count = math.prod(dims)  # Python ints: no overflow
        dt = _DTYPES[e.dtype]
        if dt is dtypes.string:
            if count + 4 > e.size:
                return ("tensor %s has shape %s of string: its lengths alone need more than the %d bytes stored"
                        % (name, dims, e.size))
        elif count * np.dtype(dt.as_numpy_dtype).itemsize != e.size:
            return ("tensor %s has shape %s of %s (%d bytes) but %d bytes are stored"
                    % (name, dims, dt.name, count * np.dtype(dt.as_numpy_dtype).itemsize, e.size))
        return None

    def _damaged(self, why):
        return errors.DataLossError(None, None, "Checkpoint index %s is damaged: %s" % (self._index_path, why))

    def names(self):
        """The sorted tensor names."""
        return sorted(self._entries)

    def has_tensor(self, name):
        return name in self._entries

    def dtype(self, name):
        """The DType of tensor `name`.

        Raises:
          NotFoundError: If the bundle has no tensor `name`.
          UnimplementedError: If its dtype is one TensorFlow has and tensorweave does not.
        """
        e = self._entry(name)
        if e.dtype in _TF_ONLY_DTYPES:
            raise errors.UnimplementedError(None, None, "Tensor %s in checkpoint %s has dtype %s, which tensorweave "
                                            "does not support" % (name, self.prefix, _TF_ONLY_DTYPES[e.dtype]))
        return _DTYPES[e.dtype]

    def shape(self, name):
        return _dims(self._entry(name).shape)

    def _entry(self, name):
        try:
            return self._entries[name]
        except KeyError:
            raise errors.NotFoundError(None, None, "Key %s not found in checkpoint" % name) from None

    def _shard(self, shard):
        data = self._data.get(shard)
        if data is None:
            path = data_filename(self.prefix, shard, self._num_shards)
            try:
                with gfile.open_raw(path, "rb", os_errors=True) as f:
                    data = f.read()
            except (FileNotFoundError, errors.NotFoundError):
                raise errors.NotFoundError(None, None, "%s; No such file or directory" % path) from None
            self._data[shard] = data
        return data

    def get_tensor(self, name):
        """The tensor `name` as a read-only array (strings as an object array of bytes).

        Raises:
          NotFoundError: If the bundle has no tensor `name`, or its data file is missing.
          DataLossError: If the stored bytes are damaged.
          UnimplementedError: If it is stored in slices (a partitioned variable) or has a dtype that
            tensorweave does not have.
        """
        e = self._entry(name)
        dt = self.dtype(name)
        if e.slices:
            raise errors.UnimplementedError(None, None, "Tensor %s in checkpoint %s is stored in %d slices (a "
                                            "partitioned variable), which tensorweave does not read"
                                            % (name, self.prefix, len(e.slices)))
        data = self._shard(e.shard_id)
        path = data_filename(self.prefix, e.shard_id, self._num_shards)
        start, size = e.offset, e.size
        if start + size > len(data):
            raise errors.DataLossError(None, None, "Tensor %s lies outside the data file %s (bytes %d to %d of %d)"
                                       % (name, path, start, start + size, len(data)))
        buf = memoryview(data)[start:start + size]
        shape = tuple(_dims(e.shape))
        if dt is dtypes.string:
            return self._strings(name, e, buf, shape, path)
        if sstable.mask(sstable.crc32c(buf)) != e.crc32c:
            raise errors.DataLossError(None, None, "Checksum does not match: stored %d vs. calculated on the "
                                       "restored bytes %d for tensor %s in %s" % (
                                           e.crc32c, sstable.mask(sstable.crc32c(buf)), name, path))
        npdt = np.dtype(dt.as_numpy_dtype).newbyteorder(">" if self._big_endian else "<")
        arr = np.frombuffer(buf, dtype=npdt).reshape(shape)
        if arr.dtype != np.dtype(dt.as_numpy_dtype):
            arr = arr.astype(dt.as_numpy_dtype)
            arr.flags.writeable = False
        return arr

    def _strings(self, name, e, buf, shape, path):
        n = math.prod(shape)  # n + 4 <= size: checked when the index was read

        def lost(why):
            return errors.DataLossError(None, None, "String tensor %s in %s is damaged: %s" % (name, path, why))

        lengths = []
        pos = 0
        crc = 0
        for _ in range(n):
            r = sstable.get_varint(buf, pos, len(buf))
            if r is None:
                raise lost("a truncated length")
            length, pos = r
            lengths.append(length)
            crc = sstable.crc32c(struct.pack("<I" if length <= 0xFFFFFFFF else "<Q", length), crc)
        if pos + 4 > len(buf):
            raise lost("no length checksum")
        (stored,) = _U32.unpack_from(buf, pos)
        if stored != sstable.mask(crc):
            raise lost("checksum of the lengths does not match")
        pos += 4
        if pos + sum(lengths) != len(buf):
            raise lost("the string lengths do not add up to the %d bytes stored" % len(buf))
        if sstable.mask(sstable.crc32c(buf[pos:], sstable.crc32c(buf[pos - 4:pos], crc))) != e.crc32c:
            raise errors.DataLossError(None, None, "Checksum does not match for tensor %s in %s" % (name, path))
        out = np.empty(n, dtype=object)
        for i, ln in enumerate(lengths):
            out[i] = bytes(buf[pos:pos + ln])
            pos += ln
        out = out.reshape(shape)
        out.flags.writeable = False
        return out


def temporary_pattern(names):
    """A regex matching the temporary files (`<name>.tmp<32 hex digits>`) of file names matching the
    regex `names` (a string)."""
    return re.compile("^(?:%s)%s$" % (names, _TEMP_SUFFIX))


def remove_stale_temporaries(directory, pattern):
    """Removes the temporary files in `directory` whose names match `pattern` and that no running
    writer holds (see the module docstring): what saves killed midway left behind.

    Returns:
      The sorted list of removed paths.
    """
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return []
    removed = []
    for name in sorted(names):
        if not pattern.match(name):
            continue
        path = os.path.join(directory, name)
        if fcntl is None:
            try:
                if time.time() - os.stat(path).st_mtime > STALE_TEMPORARY_SECS:
                    os.remove(path)
                    removed.append(path)
            except OSError:
                pass
            continue
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held by a running save
            os.close(fd)
            continue
        try:
            os.remove(path)
            removed.append(path)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def delete_bundle(prefix):
    """Removes the files of the bundle `prefix` that exist."""
    if not gfile.is_local(prefix):
        for p in [index_filename(prefix)] + gfile.glob(prefix + ".data-?????-of-?????"):
            if gfile.exists(p):
                gfile.remove(p)
        return
    paths = [index_filename(prefix)]
    directory = os.path.dirname(prefix) or "."
    data = re.compile(re.escape(os.path.basename(prefix)) + r"\.data-\d{5}-of-\d{5}$")
    try:
        paths += [os.path.join(directory, n) for n in os.listdir(directory) if data.match(n)]
    except OSError:
        pass
    for p in paths:
        try:
            os.remove(p)
        except FileNotFoundError:
            pass
