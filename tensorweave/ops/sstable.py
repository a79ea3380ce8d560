"""TensorFlow's immutable sorted table (`tensorflow/core/lib/io/table*`, LevelDB's SSTable format), the
container of a checkpoint's `.index` file. Uncompressed tables only, as TF's `BundleWriter` writes.

A table is:
  - data blocks, then a meta-index block (empty), then the index block, each followed by a 5-byte
    trailer: the compression type (0: none) and the masked CRC-32C of the block and that type byte;
  - a 48-byte footer: the block handles (varint64 offset, varint64 size) of the meta-index and index
    blocks, zero-padded to 40 bytes, then the magic number 0xdb4775248b80fb57 (little-endian).
A block holds entries `varint32 shared, varint32 non_shared, varint32 value_length, key[shared:],
value` whose keys share a prefix with the previous key except at the restart points (every 16th entry;
every entry in the index block), then the restart offsets (uint32 each) and their count (uint32). The
index block maps a key >= the last key of each data block (the shortest such separator) to its handle.
A data block is closed once its estimated size reaches 256 KiB (TF's `table::Options().block_size`).

`read_table` checks everything it reads (footer magic, block bounds, checksums, entry bounds, key order)
and raises DataLossError naming the file, so a damaged or crafted file is never trusted.
"""

import struct

from ..framework import errors

MAGIC = 0xdb4775248b80fb57
FOOTER_SIZE = 48
BLOCK_SIZE = 262144  # TF's table::Options::block_size
RESTART_INTERVAL = 16
_MASK_DELTA = 0xa282ead8
_U32 = struct.Struct("<I")


def _crc32c_module():
    try:
        import crc32c
    except ImportError:
        raise ImportError("TensorFlow checkpoints need protobuf and crc32c: pip install 'tensorweave[data]'") from None
    return crc32c


def crc32c(data, crc=0):
    """The CRC-32C of `data` (extending `crc`)."""
    return _crc32c_module().crc32c(data, crc) if crc else _crc32c_module().crc32c(data)


def mask(crc):
    """TF's (LevelDB's) masked CRC: rotated right by 15 bits plus a constant."""
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked):
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def put_varint(out, value):
    """Appends the varint encoding of the non-negative int `value` to the bytearray `out`."""
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def get_varint(buf, pos, limit, max_bytes=10):
    """Decodes a varint of at most `max_bytes` bytes at `buf[pos:limit]`: (value, next position), or None if
    it is truncated or too long."""
    result = shift = 0
    end = min(limit, pos + max_bytes)
    while pos < end:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
    return None


class _BlockBuilder:
    def __init__(self, restart_interval):
        self.interval = restart_interval
        self.buf = bytearray()
        self.restarts = [0]
        self.counter = 0
        self.last_key = b""

    def add(self, key, value):
        shared = 0
        if self.counter < self.interval:
            n = min(len(key), len(self.last_key))
            while shared < n and key[shared] == self.last_key[shared]:
                shared += 1
        else:
            self.restarts.append(len(self.buf))
            self.counter = 0
        put_varint(self.buf, shared)
        put_varint(self.buf, len(key) - shared)
        put_varint(self.buf, len(value))
        self.buf += key[shared:]
        self.buf += value
        self.last_key = key
        self.counter += 1

    def size_estimate(self):
        return len(self.buf) + 4 * len(self.restarts) + 4

    def empty(self):
        return not self.buf

    def finish(self):
        return bytes(self.buf) + b"".join(_U32.pack(r) for r in self.restarts) + _U32.pack(len(self.restarts))


def _handle(offset, size):
    out = bytearray()
    put_varint(out, offset)
    put_varint(out, size)
    return bytes(out)


def _shortest_separator(start, limit):
    n = min(len(start), len(limit))
    i = 0
    while i < n and start[i] == limit[i]:
        i += 1
    if i < n and start[i] < 0xFF and start[i] + 1 < limit[i]:
        return start[:i] + bytes([start[i] + 1])
    return start


def _short_successor(key):
    for i, b in enumerate(key):
        if b != 0xFF:
            return key[:i] + bytes([b + 1])
    return key


def build_table(items, block_size=BLOCK_SIZE, restart_interval=RESTART_INTERVAL):
    """The bytes of a table holding `items`, a list of (key bytes, value bytes) sorted by key with no key
    repeated, as TF's `table::TableBuilder` with no compression writes them.

    Raises:
      ValueError: If the keys are not strictly increasing.
    """
    out = bytearray()

    def write_block(block):
        contents = block.finish()
        handle = _handle(len(out), len(contents))
        out.extend(contents)
        out.extend(b"\0" + _U32.pack(mask(crc32c(b"\0", crc32c(contents)))))
        return handle

    data = _BlockBuilder(restart_interval)
    index = _BlockBuilder(1)
    last_key = None
    pending = None
    for key, value in items:
        if last_key is not None and key <= last_key:
            raise ValueError("Table keys must be added in strictly increasing order: %r after %r" % (key, last_key))
        if pending is not None:
            index.add(_shortest_separator(last_key, key), pending)
            pending = None
        data.add(key, value)
        last_key = key
        if data.size_estimate() >= block_size:
            pending = write_block(data)
            data = _BlockBuilder(restart_interval)
    if not data.empty():
        pending = write_block(data)
    meta_handle = write_block(_BlockBuilder(restart_interval))
    if pending is not None:
        index.add(_short_successor(last_key), pending)
    index_handle = write_block(index)
    footer = (meta_handle + index_handle).ljust(40, b"\0") + struct.pack("<Q", MAGIC)
    out.extend(footer)
    return bytes(out)


def _corrupt(path, why):
    return errors.DataLossError(None, None, "Unable to read table file %s: corrupted: %s" % (path, why))


def _read_handle(buf, pos, limit, path, what):
    r = get_varint(buf, pos, limit)
    s = get_varint(buf, r[1], limit) if r else None
    if s is None:
        raise _corrupt(path, "bad block handle of %s" % what)
    return r[0], s[0], s[1]


def _read_block(data, offset, size, path, what):
    end = len(data) - FOOTER_SIZE
    if offset + size + 5 > end:
        raise _corrupt(path, "truncated block read: %s (bytes %d to %d) lies outside the file's %d bytes of "
                       "blocks" % (what, offset, offset + size + 5, end))
    contents = data[offset:offset + size]
    ctype = data[offset + size]
    if ctype != 0:
        raise _corrupt(path, "%s has compression type %d; only uncompressed tables (type 0) are read"
                       % (what, ctype))
    (stored,) = _U32.unpack_from(data, offset + size + 1)
    if mask(crc32c(b"\0", crc32c(contents))) != stored:
        raise _corrupt(path, "block checksum mismatch in %s at offset %d" % (what, offset))
    return contents


def _block_entries(block, path, what):
    """The (key, value) pairs of one block, checked."""
    if len(block) < 4:
        raise _corrupt(path, "bad block contents in %s: %d bytes" % (what, len(block)))
    (num_restarts,) = _U32.unpack_from(block, len(block) - 4)
    if num_restarts == 0 or num_restarts > (len(block) - 4) // 4:
        raise _corrupt(path, "bad block contents in %s: %d restart points" % (what, num_restarts))
    limit = len(block) - 4 - 4 * num_restarts
    restarts = set(_U32.unpack_from(block, limit + 4 * i)[0] for i in range(num_restarts))
    if any(r > limit for r in restarts):
        raise _corrupt(path, "bad block contents in %s: a restart point beyond the entries" % what)
    entries = []
    pos = 0
    key = b""
    while pos < limit:
        start = pos
        header = []
        for _ in range(3):
            r = get_varint(block, pos, limit, 5)
            if r is None:
                raise _corrupt(path, "bad entry in %s at offset %d" % (what, start))
            header.append(r[0])
            pos = r[1]
        shared, non_shared, value_len = header
        if shared > len(key) or pos + non_shared + value_len > limit or (start in restarts and shared):
            raise _corrupt(path, "bad entry in %s at offset %d" % (what, start))
        new_key = key[:shared] + bytes(block[pos:pos + non_shared])
        pos += non_shared
        if entries and new_key <= key:
            raise _corrupt(path, "keys out of order in %s at offset %d" % (what, start))
        key = new_key
        entries.append((key, bytes(block[pos:pos + value_len])))
        pos += value_len
    return entries


def read_table(data, path):
    """The (key, value) pairs of the table `data` (bytes) read from the file `path`, in key order.

    Raises:
      DataLossError: If `data` is not a table or is damaged; the message names `path`.
    """
    if len(data) < FOOTER_SIZE:
        raise errors.DataLossError(None, None, "Unable to open table file %s: file is too short (%d bytes) to be an "
                                   "sstable" % (path, len(data)))
    (magic,) = struct.unpack_from("<Q", data, len(data) - 8)
    if magic != MAGIC:
        raise errors.DataLossError(None, None, "Unable to open table file %s: not an sstable (bad magic number): "
                                   "perhaps your file is in a different file format and you need to use a different "
                                   "restore operator?" % path)
    footer_start = len(data) - FOOTER_SIZE
    _, _, pos = _read_handle(data, footer_start, footer_start + 40, path, "meta-index block")
    index_offset, index_size, _ = _read_handle(data, pos, footer_start + 40, path, "index block")
    view = memoryview(data)
    index = _block_entries(_read_block(view, index_offset, index_size, path, "index block"), path, "index block")
    out = []
    for i, (separator, handle) in enumerate(index):
        offset, size, end = _read_handle(handle, 0, len(handle), path, "index entry %d" % i)
        if end != len(handle):
            raise _corrupt(path, "bad block handle of index entry %d" % i)
        what = "data block %d" % i
        entries = _block_entries(_read_block(view, offset, size, path, what), path, what)
        if entries and (entries[-1][0] > separator or (out and entries[0][0] <= out[-1][0])):
            raise _corrupt(path, "keys out of order in %s" % what)
        out.extend(entries)
    return out
