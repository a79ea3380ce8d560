"""The on-disk checkpoint format: a tensor bundle of named arrays under a path prefix, laid out as
TF's V2 checkpoints (`<prefix>.index` + `<prefix>.data-00000-of-00001`) with simpler encodings.

`<prefix>.data-00000-of-00001` (binary):
  - 8 bytes of magic `TWBUNDLE`, then the bundle id: 32 ASCII hex digits;
  - each tensor's bytes, starting at a multiple of 8: C-order little-endian raw values for
    numeric and bool tensors; for string tensors, one little-endian uint64 length per element
    followed by the elements' bytes.

`<prefix>.index` (UTF-8 JSON, keys sorted):
  {"format": "tensorweave-bundle", "version": 1, "bundle_id": "<hex>", "num_shards": 1,
   "tensors": {"<name>": {"dtype": "float32", "shape": [2, 3], "shard": 0, "offset": 40,
                          "size": 24, "crc32": 1234}}}

Each file is written to a temporary name (`<name>.tmp<32 hex digits>`), flushed to disk and renamed
over its final name, the data file before the index, so an interrupted save never leaves a partial
file under a final name. The writer holds an exclusive `flock` on its temporary file until the
rename, so a temporary that can be locked belongs to no running save: a save killed midway leaves
one, and `remove_stale_temporaries` (called by `Saver.save` for its own prefix) deletes it. Where
file locks do not exist, only temporaries untouched for `STALE_TEMPORARY_SECS` count as stale.
The bundle id ties an index to its data file and the CRC-32 of each tensor catches corruption:
both raise DataLossError rather than return wrong values. Every entry of the index is checked
when it is read (a known dtype, a shape of non-negative sizes whose bytes agree with the stored
size) and every string length against the stored bytes, so a damaged or crafted index raises
DataLossError naming the file before anything of the size it claims is allocated.
"""

import json
import math
import os
import re
import time
import zlib

try:
    import fcntl
except ImportError:  # Windows: no flock; staleness by age
    fcntl = None

import numpy as np

from ..framework import dtypes, errors

FORMAT = "tensorweave-bundle"
VERSION = 1
MAGIC = b"TWBUNDLE"
_HEADER = len(MAGIC) + 32
_MAX_RANK = 254  # TF's TensorShape limit
# The dtypes a checkpoint holds, by name.
_DTYPES = {d.name: d for d in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16,
                               dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.bool_,
                               dtypes.complex64, dtypes.complex128, dtypes.string)}


def _unique_hex():
    import uuid  # only here: `import tensorweave` does not need it
    return uuid.uuid4().hex


def _is_count(v):
    return type(v) is int and v >= 0


def _check_entry(name, e, num_shards):
    """Why index entry `e` of tensor `name` is impossible, or None."""
    if not isinstance(e, dict):
        return "tensor %s has no valid entry" % name
    dt = _DTYPES.get(e.get("dtype")) if isinstance(e.get("dtype"), str) else None
    if dt is None:
        return "tensor %s has an invalid dtype %r" % (name, e.get("dtype"))
    shape = e.get("shape")
    if not isinstance(shape, list) or len(shape) > _MAX_RANK or not all(_is_count(d) for d in shape):
        return "tensor %s has an invalid shape %r" % (name, shape)
    for key in ("offset", "size", "crc32"):
        if not _is_count(e.get(key)):
            return "tensor %s has an invalid %s %r" % (name, key, e.get(key))
    shard = e.get("shard", 0)
    if not _is_count(shard) or shard >= num_shards:
        return "tensor %s has an invalid shard %r" % (name, shard)
    count = 1
    for d in shape:
        count *= d  # Python ints: no overflow
    size = e["size"]
    if dt is dtypes.string:
        if 8 * count > size:
            return ("tensor %s has shape %s of string: its lengths alone need more than the %d bytes stored"
                    % (name, shape, size))
    elif count * np.dtype(dt.as_numpy_dtype).itemsize != size:
        return ("tensor %s has shape %s of %s (%d bytes) but %d bytes are stored"
                % (name, shape, dt.name, count * np.dtype(dt.as_numpy_dtype).itemsize, size))
    return None


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
    """Returns (bytes-like, dtype name) for one array."""
    dt = dtypes.as_dtype(array.dtype) if array.dtype != object else dtypes.string
    if dt is dtypes.string:
        items = [x if isinstance(x, bytes) else str(x).encode("utf-8") for x in array.reshape(-1)]
        lengths = np.asarray([len(x) for x in items], dtype="<u8")
        return lengths.tobytes() + b"".join(items), dt.name
    a = np.asarray(array, order="C")
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return a.reshape(-1).view(np.uint8), dt.name


def write_bundle(prefix, names, arrays):
    """Writes `arrays` under `names` as the bundle `prefix`: data file first, then the index. The
    directory of `prefix` is created if its parent exists.

    Raises:
      ValueError: If a name repeats.
      OSError: If a file cannot be written (the previous files under `prefix` are kept).
    """
    if len(set(names)) != len(names):
        raise ValueError("Duplicate tensor names in a checkpoint: %s" % sorted(names))
    directory = os.path.dirname(prefix)
    if directory and not os.path.isdir(directory):
        os.mkdir(directory)  # one level, as TF's BundleWriter: a missing grandparent is an error
    bundle_id = _unique_hex()
    entries = {}

    def write_data(f):
        offset = _HEADER
        _write_chunk(f, MAGIC + bundle_id.encode("ascii"))
        for name, array in sorted(zip(names, arrays), key=lambda t: t[0]):
            array = np.asarray(array)
            pad = -offset % 8
            if pad:
                _write_chunk(f, b"\0" * pad)
                offset += pad
            buf, dtype_name = _encode(array)
            _write_chunk(f, buf)
            size = len(buf) if isinstance(buf, bytes) else int(buf.nbytes)
            entries[name] = {"dtype": dtype_name, "shape": list(array.shape), "shard": 0, "offset": offset,
                             "size": size, "crc32": zlib.crc32(buf) & 0xFFFFFFFF}
            offset += size

    atomic_write(data_filename(prefix), write_data)
    index = {"format": FORMAT, "version": VERSION, "bundle_id": bundle_id, "num_shards": 1, "tensors": entries}
    text = json.dumps(index, sort_keys=True, indent=1).encode("utf-8")
    atomic_write(index_filename(prefix), lambda f: _write_chunk(f, text))


class BundleReader:
    """Reads the tensors of the bundle `prefix`.

    Raises:
      NotFoundError: If `<prefix>.index` does not exist.
      DataLossError: If the index is not a tensorweave bundle index (e.g. a TF checkpoint).
    """

    def __init__(self, prefix):
        self.prefix = prefix
        path = index_filename(prefix)
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                                       "matching files for %s" % prefix) from None
        except IsADirectoryError:
            raise errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                                       "matching files for %s" % prefix) from None
        try:
            index = json.loads(raw.decode("utf-8"))
            if index.get("format") != FORMAT:
                raise ValueError("format is %r" % index.get("format"))
        except (ValueError, UnicodeDecodeError, AttributeError) as e:
            raise errors.DataLossError(None, None, "Unable to open table file %s: not a tensorweave checkpoint index "
                                       "(%s). Checkpoints written by TensorFlow itself cannot be read."
                                       % (path, e)) from None
        if not isinstance(index.get("version", 0), int) or index.get("version", 0) > VERSION:
            raise errors.DataLossError(None, None, "Checkpoint %s has format version %s; this reader supports up "
                                       "to %d" % (prefix, index.get("version"), VERSION))
        self._index_path = path
        self._bundle_id = index.get("bundle_id")
        self._num_shards = index.get("num_shards", 1)
        self._entries = index.get("tensors")
        if not isinstance(self._bundle_id, str):
            raise self._damaged("no bundle id")
        if not _is_count(self._num_shards) or not self._num_shards:
            raise self._damaged("invalid num_shards %r" % (self._num_shards,))
        if not isinstance(self._entries, dict):
            raise self._damaged("no tensors")
        for name, e in self._entries.items():
            why = _check_entry(name, e, self._num_shards)
            if why:
                raise self._damaged(why)
        self._data = {}

    def _damaged(self, why):
        return errors.DataLossError(None, None, "Checkpoint index %s is damaged: %s" % (self._index_path, why))

    def names(self):
        """The sorted tensor names."""
        return sorted(self._entries)

    def has_tensor(self, name):
        return name in self._entries

    def dtype(self, name):
        return dtypes.as_dtype(self._entry(name)["dtype"])

    def shape(self, name):
        return list(self._entry(name)["shape"])

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
                with open(path, "rb") as f:
                    data = f.read()
            except FileNotFoundError:
                raise errors.NotFoundError(None, None, "%s; No such file or directory" % path) from None
            if data[:len(MAGIC)] != MAGIC or data[len(MAGIC):_HEADER].decode("ascii", "replace") != self._bundle_id:
                raise errors.DataLossError(None, None, "Data file %s does not belong to index %s (an interrupted "
                                           "save?)" % (path, index_filename(self.prefix)))
            self._data[shard] = data
        return data

    def get_tensor(self, name):
        """The tensor `name` as a read-only array (strings as an object array of bytes).

        Raises:
          NotFoundError: If the bundle has no tensor `name`.
          DataLossError: If the stored bytes are damaged.
        """
        e = self._entry(name)
        data = self._shard(e.get("shard", 0))
        start, size = e["offset"], e["size"]
        if start + size > len(data):
            raise self._damaged("tensor %s lies outside the data file (bytes %d to %d of %d)"
                                % (name, start, start + size, len(data)))
        buf = memoryview(data)[start:start + size]
        if zlib.crc32(buf) & 0xFFFFFFFF != e["crc32"]:
            raise errors.DataLossError(None, None, "Checksum does not match for tensor %s in %s" % (name, self.prefix))
        dt = dtypes.as_dtype(e["dtype"])
        shape = tuple(e["shape"])
        if dt is dtypes.string:
            n = math.prod(shape)  # 8 * n <= size: checked when the index was read
            lengths = np.frombuffer(buf[:8 * n], dtype="<u8")
            if 8 * n + sum(lengths.tolist()) != size:
                raise errors.DataLossError(None, None, "The string lengths of tensor %s in %s do not add up to the %d "
                                           "bytes stored" % (name, self.prefix, size - 8 * n))
            out = np.empty(n, dtype=object)
            pos = 8 * n
            for i, ln in enumerate(lengths.tolist()):
                out[i] = bytes(buf[pos:pos + ln])
                pos += ln
            out = out.reshape(shape)
            out.flags.writeable = False
            return out
        npdt = np.dtype(dt.as_numpy_dtype).newbyteorder("<")
        arr = np.frombuffer(buf, dtype=npdt).reshape(shape)
        if arr.dtype != np.dtype(dt.as_numpy_dtype):
            arr = arr.astype(dt.as_numpy_dtype)
            arr.flags.writeable = False
        return arr


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
