"""The files of `Dataset.cache(filename)`: plain bytes, never pickle, so a cache file cannot run code.

`<filename>.index` (UTF-8 JSON):

    {"format": "tensorweave-dataset-cache", "version": 2, "elements": 4, "components": 2}

`<filename>.data-00000-of-00001` (binary): the 8 bytes `TWCACHE2`, then, for each element in order,
one record per component:

    uint8   length of the dtype name, then the name (ASCII: "float32", "string", ...)
    uint8   rank, then one little-endian uint64 per dimension
    numeric and bool components: the C-order little-endian values
    string components: one little-endian uint64 length per element, then the elements' bytes
                       (length-prefixed bytes, as TFRecord frames its records)

Reading checks every size against the bytes left in the file before allocating anything, so a
damaged or crafted file raises `DataLossError` naming the file. Caches that tensorweave wrote in
its first format (NumPy `.npy` records, pickled for strings) are refused, not read.
"""

import json
import struct

import numpy as np

from ..framework import dtypes, errors
from ..platform import gfile

FORMAT = "tensorweave-dataset-cache"
VERSION = 2
MAGIC = b"TWCACHE2"
_OLD_FORMAT = "tensorweave-cache-1"
_MAX_RANK = 254  # TF's TensorShape limit
_U64 = struct.Struct("<Q")
_MAX_DIM = 1 << 62
# The dtypes a cache holds, by the names records carry (no variants: they are Python objects).
_DTYPES = {d.name: d for d in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16,
                               dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.bool_,
                               dtypes.complex64, dtypes.complex128, dtypes.string)}


def index_filename(prefix):
    return prefix + ".index"


def data_filename(prefix):
    return prefix + ".data-00000-of-00001"


def _string_items(a, what):
    items = []
    for x in a.reshape(-1).tolist():
        if isinstance(x, str):
            x = x.encode("utf-8")
        if not isinstance(x, bytes):
            raise errors.UnimplementedError(None, None, "Dataset.cache(filename) cannot store %s: only numeric, bool "
                                            "and string tensors go to a file, and it holds a Python %s"
                                            % (what, type(x).__name__))
        items.append(x)
    return items


def encode_component(value, what="a component"):
    """The bytes of one component record (see the module docstring).

    Raises:
      UnimplementedError: If `value` holds Python objects other than strings (a variant).
    """
    a = np.asarray(value)
    if a.dtype == object or a.dtype.kind in "SU":
        name = "string"
        items = _string_items(a, what)
        body = np.asarray([len(x) for x in items], dtype="<u8").tobytes() + b"".join(items)
    else:
        name = dtypes.as_dtype(a.dtype).name
        if name not in _DTYPES:
            raise errors.UnimplementedError(None, None, "Dataset.cache(filename) cannot store %s of dtype %s"
                                            % (what, name))
        a = np.asarray(a, order="C")
        if a.dtype.byteorder == ">" or (a.dtype.byteorder == "=" and not np.little_endian):
            a = a.astype(a.dtype.newbyteorder("<"))
        body = a.tobytes()
    head = bytes([len(name)]) + name.encode("ascii") + bytes([a.ndim])
    return head + b"".join(_U64.pack(d) for d in a.shape) + body


def write_index(path, elements, components):
    """Writes the index file (its content is small: a temporary file renamed over `path`)."""
    gfile.atomic_write(path, json.dumps({"format": FORMAT, "version": VERSION, "elements": elements,
                                         "components": components}))


class _Reader:
    """Sequential reads from a data file that check each size against the bytes left."""

    def __init__(self, f, path):
        self._f = f
        self._path = path
        self._left = gfile.stat(path).length

    def loss(self, msg):
        return errors.DataLossError(None, None, "Cache file %s is damaged: %s" % (self._path, msg))

    def read(self, n, what):
        if n > self._left:
            raise self.loss("%s needs %d bytes but only %d are left (truncated?)" % (what, n, self._left))
        b = self._f.read(n)
        if len(b) != n:
            raise self.loss("%s is truncated" % what)
        self._left -= n
        return b

    def u64s(self, n, what):
        return np.frombuffer(self.read(8 * n, what), dtype="<u8")


def _read_component(r, what):
    (n,) = r.read(1, what)
    name = r.read(n, what)
    dt = _DTYPES.get(name.decode("ascii", "replace"))
    if dt is None:
        raise r.loss("%s has no valid dtype (%r)" % (what, name))
    (rank,) = r.read(1, what)
    if rank > _MAX_RANK:
        raise r.loss("%s has rank %d (more than %d)" % (what, rank, _MAX_RANK))
    shape = tuple(int(d) for d in r.u64s(rank, what))
    if any(d >= _MAX_DIM for d in shape):
        raise r.loss("%s has an impossible shape %s" % (what, list(shape)))
    count = 1
    for d in shape:
        count *= d  # Python ints: no overflow
    if dt is dtypes.string:
        lengths = r.u64s(count, "%s of shape %s" % (what, list(shape)))
        total = sum(int(x) for x in lengths)
        body = r.read(total, "%s of shape %s" % (what, list(shape)))
        out = np.empty(count, dtype=object)
        pos = 0
        for i, ln in enumerate(lengths.tolist()):
            out[i] = body[pos:pos + ln]
            pos += ln
        return out.reshape(shape)
    npdt = np.dtype(dt.as_numpy_dtype)
    body = r.read(count * npdt.itemsize, "%s of shape %s and dtype %s" % (what, list(shape), dt.name))
    return np.frombuffer(body, dtype=npdt.newbyteorder("<")).astype(npdt, copy=True).reshape(shape)


def read_cache(prefix, components):
    """Yields the cached elements (tuples of `components` arrays) of the cache `prefix`.

    Raises:
      DataLossError: If the files are damaged, of another dataset, or in the old pickle format.
    """
    index = index_filename(prefix)
    try:
        meta = json.loads(gfile.read_file(index).decode("utf-8"))
        fmt = meta.get("format")
    except (ValueError, UnicodeDecodeError, AttributeError) as e:
        raise errors.DataLossError(None, None, "Cache index %s is damaged: %s" % (index, e)) from None
    if fmt == _OLD_FORMAT:
        raise errors.DataLossError(None, None, "Cache file %s is in an older format that stored Python objects with "
                                   "pickle, which is not read: delete %s and %s to rebuild the cache"
                                   % (prefix, index, data_filename(prefix)))
    if fmt != FORMAT or meta.get("version") != VERSION:
        raise errors.DataLossError(None, None, "Cache index %s is not a tensorweave dataset cache index (format %r, "
                                   "version %r)" % (index, fmt, meta.get("version")))
    n, width = meta.get("elements"), meta.get("components")
    if type(n) is not int or n < 0 or width != components:
        raise errors.DataLossError(None, None, "Cache index %s is damaged or belongs to another dataset: %r elements "
                                   "of %r components (the dataset has %d components)" % (index, n, width, components))
    path = data_filename(prefix)
    try:
        f = gfile.open_raw(path, "rb", os_errors=True)
    except OSError as e:
        raise errors.NotFoundError(None, None, "%s; %s" % (path, e.strerror)) from None
    with f:
        r = _Reader(f, path)
        if r.read(len(MAGIC), "the header") != MAGIC:
            raise r.loss("not a tensorweave dataset cache (no %s header)" % MAGIC.decode())
        for i in range(n):
            yield tuple(_read_component(r, "component %d of element %d" % (j, i)) for j in range(width))
