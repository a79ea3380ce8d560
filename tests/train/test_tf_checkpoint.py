"""TensorFlow's V2 checkpoint format: goldens written by real TF 2.21 (tests/data/make_tf_checkpoint.py) read
here with the values TF printed, tensorweave's saves equal to TF's byte for byte, the SSTable layout and
CRC-32C, sharded bundles, every dtype round-tripped, and damaged files (truncated, bit-flipped, crafted)
raising DataLossError naming the file."""

import json
import os
import random
import shutil
import struct
import sys

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops import bundle_proto, sstable, tensor_bundle
from tests.data.make_tf_checkpoint import VARIABLES

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf_checkpoint")
with open(os.path.join(GOLDEN, "values.json")) as _f:
    VALUES = json.load(_f)


def _golden(name):
    with open(os.path.join(GOLDEN, name), "rb") as f:
        return f.read()


def _expected(record):
    dt = tf.as_dtype(record["dtype"])
    if dt is tf.string:
        flat = np.array([v.encode("latin-1") for v in record["values"]], dtype=object)
    elif dt.is_floating:
        flat = np.array([float(v) for v in record["values"]], dtype=dt.as_numpy_dtype)
    else:
        flat = np.array(record["values"], dtype=dt.as_numpy_dtype)
    return flat.reshape(record["shape"])


def _assert_same(actual, record):
    expected = _expected(record)
    actual = np.asarray(actual)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    if expected.dtype.kind == "f":  # bitwise: -0.0 and the float32 rounding of 1e-30 included
        assert actual.tobytes() == expected.tobytes()
    else:
        assert actual.tolist() == expected.tolist()


def _zeros_like(x):
    x = np.asarray(x)
    return np.full(x.shape, b"?", object) if x.dtype == object else np.zeros_like(x)


# ---- reading what TF wrote ----------------------------------------------------------------------------------
@pytest.mark.parametrize("ckpt", ["model.ckpt-7", "sharded.ckpt"])
def test_reader_gives_the_values_tf_printed(ckpt):
    reader = tf.train.load_checkpoint(os.path.join(GOLDEN, ckpt))
    records = VALUES[ckpt]
    assert reader.get_variable_to_shape_map() == {n: r["shape"] for n, r in records.items()}
    assert reader.get_variable_to_dtype_map() == {n: tf.as_dtype(r["dtype"]) for n, r in records.items()}
    for name, record in records.items():
        assert reader.has_tensor(name)
        _assert_same(reader.get_tensor(name), record)
    assert not reader.has_tensor("nope")
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        reader.get_tensor("nope")


def test_list_load_variable_and_debug_string_of_a_tf_checkpoint(tmp_path):
    shutil.copytree(GOLDEN, str(tmp_path / "ckpt"))
    directory = str(tmp_path / "ckpt")  # its `checkpoint` file (relative paths) names model.ckpt-7
    records = VALUES["model.ckpt-7"]
    assert tf.train.list_variables(directory) == [(n, records[n]["shape"]) for n in sorted(records)]
    _assert_same(tf.train.load_variable(directory, "outer/inner/deep_name:0"), records["outer/inner/deep_name"])
    assert tf.train.load_variable(directory, "global_step") == 7
    assert tf.train.NewCheckpointReader(tf.train.latest_checkpoint(directory)).debug_string().decode("latin-1") == \
        VALUES["model.ckpt-7.debug_string"]


def test_saver_restores_a_tf_checkpoint_and_init_from_checkpoint_reads_it():
    prefix = os.path.join(GOLDEN, "model.ckpt-7")
    records = VALUES["model.ckpt-7"]
    with tf.Graph().as_default():
        variables = {name: tf.Variable(_zeros_like(value), name=name) for name, value in VARIABLES}
        step = tf.train.get_or_create_global_step()
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            for name, v in variables.items():
                _assert_same(sess.run(v), records[name])
            assert sess.run(step) == 7
    with tf.Graph().as_default():
        with tf.variable_scope("new"):
            k = tf.get_variable("k", [2, 3])
        tf.train.init_from_checkpoint(prefix, {"dense/kernel": "new/k"})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            _assert_same(sess.run(k), records["dense/kernel"])


# ---- writing what TF writes ----------------------------------------------------------------------------------
def test_a_save_equals_tfs_byte_for_byte(tmp_path):
    with tf.Graph().as_default():
        for name, value in VARIABLES:
            tf.Variable(value, name=name)
        step = tf.train.get_or_create_global_step()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(step.assign(7))
            tf.train.Saver(save_relative_paths=True).save(sess, str(tmp_path / "model.ckpt"), global_step=step,
                                                          write_meta_graph=False)
    for name in ("model.ckpt-7.index", "model.ckpt-7.data-00000-of-00001", "checkpoint"):
        assert (tmp_path / name).read_bytes() == _golden(name), name


def test_sharded_merge_equals_tfs_layout(tmp_path):
    # The two one-shard bundles TF's sharded Saver writes before MergeV2Checkpoints, then the merge.
    parts = [str(tmp_path / "sharded.ckpt_temp" / ("part-%05d-of-00002" % i)) for i in range(2)]
    tensor_bundle.write_bundle(parts[0], ["a"], [np.array([1.0, 2.0], np.float32)])
    tensor_bundle.write_bundle(parts[1], ["b"], [np.array([[3, 4]], np.int64)])
    tensor_bundle.merge_bundles(parts, str(tmp_path / "sharded.ckpt"))
    for name in ("sharded.ckpt.index", "sharded.ckpt.data-00000-of-00002", "sharded.ckpt.data-00001-of-00002"):
        assert (tmp_path / name).read_bytes() == _golden(name), name
    assert sorted(os.listdir(tmp_path)) == ["sharded.ckpt.data-00000-of-00002", "sharded.ckpt.data-00001-of-00002",
                                           "sharded.ckpt.index"]  # the temporary directory is gone


ALL_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
              np.bool_, np.complex64, np.complex128, object]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_dtype_round_trips_through_a_saver(tmp_path, dtype):
    rng = np.random.RandomState(0)
    if dtype is object:
        values = [np.array([b"", b"a" * 300, "é".encode()], dtype=object), np.array(b"scalar", dtype=object),
                  np.zeros((0, 2), dtype=object)]
    else:
        base = rng.standard_normal((2, 3)) * 50 + (1j * rng.standard_normal((2, 3)) if np.dtype(dtype).kind == "c"
                                                   else 0)
        values = [base.astype(dtype), np.asarray(base[0, 0]).astype(dtype), np.zeros((3, 0), dtype)]
    with tf.Graph().as_default():
        vs = [tf.Variable(v, name="v%d" % i) for i, v in enumerate(values)]
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = saver.save(sess, str(tmp_path / "m"))
            sess.run([v.assign(_zeros_like(x)) for v, x in zip(vs, values)])
            saver.restore(sess, path)
            for v, x in zip(vs, values):
                got = np.asarray(sess.run(v), dtype=x.dtype)  # a string scalar is fetched as bytes
                assert np.asarray(got).dtype == x.dtype and np.asarray(got).shape == x.shape
                assert np.asarray(got).tolist() == x.tolist()
    reader = tf.train.NewCheckpointReader(path)
    assert reader.get_variable_to_dtype_map()["v0"] == tf.as_dtype(dtype if dtype is not object else tf.string)


# ---- the SSTable, byte by byte -------------------------------------------------------------------------------
def test_crc32c_and_its_mask():
    assert sstable.crc32c(b"123456789") == 0xE3069283  # the standard check value of CRC-32C
    assert sstable.mask(0) == 0xA282EAD8
    for x in (0, 1, 0xFFFFFFFF, 0x12345678):
        assert sstable.unmask(sstable.mask(x)) == x


def test_golden_index_layout():
    raw = _golden("model.ckpt-7.index")
    # Footer: meta-index and index block handles padded to 40 bytes, then the magic number.
    assert raw[-8:] == struct.pack("<Q", 0xdb4775248b80fb57)
    footer = raw[-48:-8]
    meta_off, meta_size, pos = sstable._read_handle(footer, 0, 40, "f", "meta")
    index_off, index_size, end = sstable._read_handle(footer, pos, 40, "f", "index")
    assert footer[end:] == b"\0" * (40 - end)
    # One data block at 0, then the empty meta-index block (one restart point), then the index block.
    assert (meta_off, meta_size) == (738 + 5, 8) and raw[meta_off:meta_off + 8] == struct.pack("<II", 0, 1)
    assert index_off == meta_off + meta_size + 5 and index_off + index_size + 5 == len(raw) - 48
    for off, size in ((0, 738), (meta_off, meta_size), (index_off, index_size)):
        block, trailer = raw[off:off + size], raw[off + size:off + size + 5]
        assert trailer[0] == 0  # no compression
        assert struct.unpack("<I", trailer[1:])[0] == sstable.mask(sstable.crc32c(block + b"\0"))
    # The data block: 33 entries (header + 32 tensors), a restart point every 16.
    block = raw[:738]
    (n,) = struct.unpack_from("<I", block, 734)
    restarts = struct.unpack_from("<%dI" % n, block, 734 - 4 * n)
    assert n == 3 and restarts[0] == 0
    for r in restarts:
        assert block[r] == 0  # shared = 0 at a restart point
    assert block[restarts[1]:restarts[1] + 14] == b"\x00\x08\x0e" + b"many/v07" + b"\x08\x03\x12"
    # The index block maps the short successor of the last key ("words2d" -> "x") to the data block.
    assert raw[index_off:index_off + 7] == b"\x00\x01\x03x\x00\xe2\x05"
    entries = sstable.read_table(raw, "golden")
    assert [k for k, _ in entries][:3] == [b"", b"dense/bias", b"dense/kernel"]
    header = bundle_proto.message_classes()["BundleHeaderProto"].FromString(entries[0][1])
    assert (header.num_shards, header.endianness, header.version.producer) == (1, 0, 1)
    entry = bundle_proto.message_classes()["BundleEntryProto"].FromString(dict(entries)[b"words"])
    data = _golden("model.ckpt-7.data-00000-of-00001")
    # A string tensor: varint lengths, the masked CRC-32C of the lengths as uint32s, then the bytes.
    chunk = data[entry.offset:entry.offset + entry.size]
    assert chunk[:5] == b"\x05\x00\x05\xc8\x01"
    assert struct.unpack_from("<I", chunk, 5)[0] == sstable.mask(sstable.crc32c(struct.pack("<4I", 5, 0, 5, 200)))
    assert chunk[9:] == b"hello" + "été".encode() + b"x" * 200


def test_a_table_of_several_blocks_round_trips():
    items = [(("key%05d" % i).encode(), bytes([i % 256]) * (i % 40)) for i in range(3000)]
    raw = sstable.build_table(items, block_size=1024)
    assert sstable.read_table(raw, "t") == items
    index = sstable._block_entries(raw[slice(*_index_span(raw))], "t", "index")
    assert len(index) > 20
    assert all(a < b for (a, _), (b, _) in zip(index, index[1:]))
    with pytest.raises(ValueError, match="strictly increasing"):
        sstable.build_table([(b"b", b""), (b"a", b"")])
    assert sstable._shortest_separator(b"abc1", b"abc9") == b"abc2"
    assert sstable._shortest_separator(b"ab", b"abc") == b"ab"
    assert sstable._short_successor(b"\xff\xffa") == b"\xff\xffb"


def _index_span(raw):
    footer = raw[-48:-8]
    _, _, pos = sstable._read_handle(footer, 0, 40, "f", "meta")
    off, size, _ = sstable._read_handle(footer, pos, 40, "f", "index")
    return off, off + size


# ---- damaged files -------------------------------------------------------------------------------------------
def _copy_golden(tmp_path, ckpt="model.ckpt-7"):
    for name in os.listdir(GOLDEN):
        if name.startswith(ckpt + "."):
            shutil.copy(os.path.join(GOLDEN, name), str(tmp_path / name))
    return str(tmp_path / ckpt)


def _read_all(prefix):
    reader = tf.train.NewCheckpointReader(prefix)
    return {n: reader.get_tensor(n) for n in reader.get_variable_to_shape_map()}


def _same_values(a, b):
    return a.keys() == b.keys() and all(np.asarray(a[k]).tobytes() == np.asarray(b[k]).tobytes()
                                        if np.asarray(a[k]).dtype != object else
                                        np.asarray(a[k]).tolist() == np.asarray(b[k]).tolist() for k in a)


def test_fuzz_truncated_and_bit_flipped_index_and_data(tmp_path):
    prefix = _copy_golden(tmp_path)
    good = _read_all(prefix)
    rng = random.Random(16)
    for which in (".index", ".data-00000-of-00001"):
        path = prefix + which
        original = _golden(os.path.basename(path))
        cuts = list(range(0, len(original), 7)) + [len(original) - 1]
        flips = [(rng.randrange(len(original)), 1 << rng.randrange(8)) for _ in range(150)]
        damaged = [original[:n] for n in cuts] + [
            original[:i] + bytes([original[i] ^ bit]) + original[i + 1:] for i, bit in flips]
        for data in damaged:
            with open(path, "wb") as f:
                f.write(data)
            try:
                values = _read_all(prefix)
            except tf.errors.DataLossError as e:
                assert os.path.basename(prefix) in e.message
                continue
            # A change no checksum covers (the footer's padding) must not change what is read.
            assert _same_values(values, good), (which, len(data))
        with open(path, "wb") as f:
            f.write(original)


def test_wrong_magic_short_file_and_bad_block_checksum_name_the_file(tmp_path):
    prefix = _copy_golden(tmp_path)
    index = prefix + ".index"
    raw = _golden("model.ckpt-7.index")
    with open(index, "wb") as f:
        f.write(raw[:-1] + b"\x00")
    with pytest.raises(tf.errors.DataLossError, match="Unable to open table file %s: not an sstable \\(bad magic "
                                                      "number\\)" % index.replace(".", "\\.")):
        tf.train.NewCheckpointReader(prefix)
    with open(index, "wb") as f:
        f.write(raw[:20])
    with pytest.raises(tf.errors.DataLossError, match="file is too short \\(20 bytes\\) to be an sstable"):
        tf.train.list_variables(prefix)
    with open(index, "wb") as f:
        f.write(raw[:100] + bytes([raw[100] ^ 1]) + raw[101:])
    with pytest.raises(tf.errors.DataLossError, match="Unable to read table file %s: corrupted: block checksum "
                                                      "mismatch in data block 0" % index.replace(".", "\\.")):
        tf.train.load_variable(prefix, "f64")


def test_damaged_tensor_bytes_are_data_loss_naming_the_data_file(tmp_path):
    prefix = _copy_golden(tmp_path)
    data = prefix + ".data-00000-of-00001"
    raw = bytearray(_golden("model.ckpt-7.data-00000-of-00001"))
    raw[40] ^= 0x10  # inside f64
    with open(data, "wb") as f:
        f.write(raw)
    with pytest.raises(tf.errors.DataLossError, match="Checksum does not match: .* for tensor f64 in %s"
                                                      % data.replace(".", "\\.")):
        tf.train.load_variable(prefix, "f64")
    assert tf.train.load_variable(prefix, "global_step") == 7  # the other tensors still read
    with open(data, "wb") as f:
        f.write(raw[:100])
    with pytest.raises(tf.errors.DataLossError, match="Tensor words lies outside the data file"):
        tf.train.load_variable(prefix, "words")
    os.remove(data)
    with pytest.raises(tf.errors.NotFoundError, match="data-00000-of-00001; No such file or directory"):
        tf.train.load_variable(prefix, "words")


def _write_crafted(prefix, entries, num_shards=1, data=b"", header=None):
    msgs = bundle_proto.message_classes()
    items = []
    for name, fields, dims in entries:
        e = msgs["BundleEntryProto"](**fields)
        e.shape.SetInParent()
        for d in dims:
            e.shape.dim.add(size=d)
        items.append((name.encode(), e.SerializeToString()))
    h = header if header is not None else tensor_bundle._header_bytes(num_shards)
    with open(prefix + ".index", "wb") as f:
        f.write(sstable.build_table([(b"", h)] + sorted(items)))
    with open(tensor_bundle.data_filename(prefix, 0, num_shards), "wb") as f:
        f.write(data)


@pytest.mark.parametrize("fields,dims,message", [
    ({"dtype": 1, "size": 16}, [2 ** 40, 2 ** 40], "tensor x has shape \\[1099511627776, 1099511627776\\] of float32 "
     "\\(4835703278458516698824704 bytes\\) but 16 bytes are stored"),
    ({"dtype": 1, "size": 16}, [-1, 4], "tensor x has an invalid shape \\[-1, 4\\]"),
    ({"dtype": 99, "size": 16}, [4], "tensor x has an invalid dtype 99"),
    ({"dtype": 1, "size": 2 ** 62}, [4], "tensor x has shape \\[4\\] of float32 \\(16 bytes\\) but "
     "4611686018427387904 bytes are stored"),
    ({"dtype": 1, "size": 16, "shard_id": 1}, [4], "tensor x has an invalid shard_id 1 \\(of 1 shards\\)"),
    ({"dtype": 1, "size": 16, "offset": -3}, [4], "tensor x has an invalid offset -3 or size 16"),
    ({"dtype": 7, "size": 7}, [2 ** 50], "tensor x has shape \\[1125899906842624\\] of string: its lengths alone "
     "need more than the 7 bytes stored"),
])
def test_impossible_index_entries_are_data_loss(tmp_path, fields, dims, message):
    prefix = str(tmp_path / "m")
    _write_crafted(prefix, [("x", fields, dims)], data=b"\0" * 16)
    with pytest.raises(tf.errors.DataLossError, match="Checkpoint index %s is damaged: %s"
                                                      % ((prefix + ".index").replace(".", "\\."), message)):
        tf.train.list_variables(prefix)


def test_crafted_headers_and_entries(tmp_path):
    prefix = str(tmp_path / "m")
    msgs = bundle_proto.message_classes()
    cases = [(b"\xff\xff", tf.errors.DataLossError, "unparsable bundle header"),
             (tensor_bundle._header_bytes(0), tf.errors.DataLossError, "invalid num_shards 0"),
             (msgs["BundleHeaderProto"](num_shards=1, version={"producer": 1, "min_consumer": 5}).SerializeToString(),
              tf.errors.InvalidArgumentError, "Checkpoint min consumer version 5 above current version 1"),
             (msgs["BundleHeaderProto"](num_shards=1, version={"producer": 1, "bad_consumers": [1]})
              .SerializeToString(), tf.errors.InvalidArgumentError, "Checkpoint disallows consumer version 1")]
    for header, cls, message in cases:
        _write_crafted(prefix, [], header=header)
        with pytest.raises(cls, match=message):
            tf.train.NewCheckpointReader(prefix)
    with open(prefix + ".index", "wb") as f:
        f.write(sstable.build_table([(b"x", b"")]))
    with pytest.raises(tf.errors.DataLossError, match="no bundle header"):
        tf.train.NewCheckpointReader(prefix)
    # A dtype TF has and tensorweave lacks, and a tensor stored in slices, are refused when read.
    _write_crafted(prefix, [("bf", {"dtype": 14, "size": 2}, [1]),
                            ("parts", {"dtype": 1, "slices": [{"extent": [{}]}]}, [4])], data=b"\0\0")
    reader = tf.train.NewCheckpointReader(prefix)
    assert reader.get_variable_to_shape_map() == {"bf": [1], "parts": [4]}
    with pytest.raises(tf.errors.UnimplementedError, match="Tensor bf in checkpoint .* has dtype bfloat16, which "
                                                           "tensorweave does not support"):
        reader.get_tensor("bf")
    with pytest.raises(tf.errors.UnimplementedError, match="stored in 1 slices \\(a partitioned variable\\)"):
        reader.get_tensor("parts")


def test_damaged_string_tensors_are_data_loss(tmp_path):
    prefix = str(tmp_path / "m")
    tensor_bundle.write_bundle(prefix, ["s"], [np.array([b"ab", b"c"], object)])
    reader = tensor_bundle.BundleReader(prefix)
    data = prefix + ".data-00000-of-00001"
    raw = open(data, "rb").read()
    assert raw[:2] == b"\x02\x01"
    for damaged, message in [(b"\x82\x01" + raw[2:], "checksum of the lengths does not match"),
                             (b"\xff\xff\xff\xff\xff\xff\xff\xff\xff", "a truncated length"),
                             (raw[:2] + raw[2:6] + raw[6:] + b"", None)]:
        with open(data, "wb") as f:
            f.write(damaged)
        reader = tensor_bundle.BundleReader(prefix)
        if message is None:
            assert reader.get_tensor("s").tolist() == [b"ab", b"c"]
            continue
        with pytest.raises(tf.errors.DataLossError, match="String tensor s in %s is damaged: %s"
                                                          % (data.replace(".", "\\."), message)):
            reader.get_tensor("s")
    # Lengths whose checksum is right but that overrun the stored bytes.
    lengths = b"\x02\x05"
    crc = sstable.mask(sstable.crc32c(struct.pack("<2I", 2, 5)))
    with open(data, "wb") as f:
        f.write(lengths + struct.pack("<I", crc) + b"abc")
    with pytest.raises(tf.errors.DataLossError, match="the string lengths do not add up to the 9 bytes stored"):
        tensor_bundle.BundleReader(prefix).get_tensor("s")


def test_an_old_tensorweave_json_index_gets_a_clear_error(tmp_path):
    prefix = str(tmp_path / "old")
    with open(prefix + ".index", "w") as f:
        json.dump({"format": "tensorweave-bundle", "version": 1, "tensors": {}}, f)
    with pytest.raises(tf.errors.DataLossError, match="checkpoint index in tensorweave's old JSON format, which this "
                                                      "version no longer reads"):
        tf.train.NewCheckpointReader(prefix)


def test_a_missing_extra_is_named(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "crc32c", None)
    with pytest.raises(ImportError, match=r"pip install 'tensorweave\[data\]'"):
        tensor_bundle.write_bundle(str(tmp_path / "m"), ["x"], [np.zeros(2)])
    assert os.listdir(tmp_path) == []


def test_write_bundle_refuses_duplicate_and_empty_names(tmp_path):
    with pytest.raises(ValueError, match="Duplicate tensor names"):
        tensor_bundle.write_bundle(str(tmp_path / "m"), ["a", "a"], [np.zeros(1), np.zeros(1)])
    with pytest.raises(ValueError, match="must not be empty"):
        tensor_bundle.write_bundle(str(tmp_path / "m"), [""], [np.zeros(1)])
