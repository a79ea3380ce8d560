"""TFRecord files: TensorFlow's exact framing (golden bytes), compression, round trips and corruption."""

import gzip
import struct
import sys
import zlib

import pytest

import tensorweave as tf
from tensorweave.io import tf_record

pytest.importorskip("crc32c")

# Records written by TensorFlow itself (two event-file records, checked into TensorFlow's
# tensorflow/python/summary/impl/event_file_loader_test.py). Event files are TFRecord files.
TF_RECORD_1 = bytes.fromhex("1800000000000000a37f4b22090000c025dd75d5411a0d627261696e2e4576656e743a31ecf3328d")
TF_RECORD_2 = bytes.fromhex("1800000000000000a37f4b220900000027e6b3d5411a0d627261696e2e4576656e743a326a4d0b15")

# The record for b"abc" and for b"": length (uint64 LE), masked CRC-32C of the length, data, masked CRC of the data.
RECORD_ABC = bytes.fromhex("0300000000000000" "b099490e" "616263" "6e57f121")
RECORD_EMPTY = bytes.fromhex("0000000000000000" "29039807" "" "d8ea82a2")


def _reference_crc32c(data):
    """Bit-by-bit CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): an independent test oracle."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _reference_frame(data):
    def masked(b):
        crc = _reference_crc32c(b)
        return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF

    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked(length)) + data + struct.pack("<I", masked(data))


def test_reference_crc_oracle_check_value():
    assert _reference_crc32c(b"123456789") == 0xE3069283  # the standard CRC-32C check value


@pytest.mark.parametrize("record", [TF_RECORD_1, TF_RECORD_2])
def test_framing_matches_records_written_by_tensorflow(record):
    payload = record[12:-4]
    assert struct.unpack("<Q", record[:8])[0] == len(payload) == 24
    assert tf_record.encode_record(payload) == record
    assert _reference_frame(payload) == record


def test_golden_record_for_abc():
    assert _reference_frame(b"abc") == RECORD_ABC
    assert tf_record.encode_record(b"abc") == RECORD_ABC
    assert tf_record.masked_crc32c(b"abc") == struct.unpack("<I", RECORD_ABC[-4:])[0]


def test_golden_empty_record():
    assert _reference_frame(b"") == RECORD_EMPTY
    assert tf_record.encode_record(b"") == RECORD_EMPTY


def test_writer_produces_tensorflow_bytes(tmp_path):
    path = tmp_path / "events.tfrecord"
    with tf.python_io.TFRecordWriter(str(path)) as writer:
        writer.write(TF_RECORD_1[12:-4])
        writer.write(TF_RECORD_2[12:-4])
        writer.write(b"abc")
    assert path.read_bytes() == TF_RECORD_1 + TF_RECORD_2 + RECORD_ABC


def test_reads_file_written_by_tensorflow(tmp_path):
    path = tmp_path / "tf_written.tfrecord"
    path.write_bytes(TF_RECORD_1 + TF_RECORD_2)
    records = list(tf.python_io.tf_record_iterator(str(path)))
    assert records == [TF_RECORD_1[12:-4], TF_RECORD_2[12:-4]]
    assert records[1].endswith(b"brain.Event:2")


RECORDS = [b"", b"a", b"hello world", bytes(range(256)) * 300, b"\x00" * 70000, "ünïcode".encode("utf-8")]


@pytest.mark.parametrize("options", [None, "", tf.python_io.TFRecordCompressionType.NONE, "GZIP", "ZLIB",
                                     tf.io.TFRecordCompressionType.GZIP, tf.io.TFRecordCompressionType.ZLIB,
                                     tf.io.TFRecordOptions(compression_type="GZIP"),
                                     tf.io.TFRecordOptions(tf.io.TFRecordCompressionType.ZLIB, compression_level=9)])
def test_round_trip(tmp_path, options):
    path = str(tmp_path / "data.tfrecord")
    with tf.io.TFRecordWriter(path, options=options) as writer:
        for r in RECORDS:
            writer.write(r)
    assert list(tf.io.tf_record_iterator(path, options=options)) == RECORDS


@pytest.mark.parametrize("kind,decompress", [
    ("GZIP", gzip.decompress),
    ("ZLIB", zlib.decompress),
])
def test_compression_is_whole_file_with_tensorflow_settings(tmp_path, kind, decompress):
    path = tmp_path / "c.tfrecord"
    with tf.io.TFRecordWriter(str(path), kind) as writer:
        for r in RECORDS:
            writer.write(r)
    framed = b"".join(_reference_frame(r) for r in RECORDS)
    assert decompress(path.read_bytes()) == framed
    # TensorFlow's ZlibCompressionOptions: default level, window bits 15 (+16 for gzip), memory level 9.
    c = zlib.compressobj(-1, zlib.DEFLATED, 31 if kind == "GZIP" else 15, 9)
    assert path.read_bytes() == c.compress(framed) + c.flush()


def test_reads_gzip_written_by_other_tools(tmp_path):
    # A gzip header with a file name and a second concatenated member are both valid gzip.
    path = tmp_path / "x.tfrecord.gz"
    with gzip.open(path, "wb") as f:
        f.write(RECORD_ABC)
    with open(path, "ab") as f:
        f.write(gzip.compress(_reference_frame(b"second")))
    assert list(tf.io.tf_record_iterator(str(path), "GZIP")) == [b"abc", b"second"]


def test_flush_makes_compressed_records_readable(tmp_path):
    path = str(tmp_path / "f.tfrecord")
    writer = tf.io.TFRecordWriter(path, "GZIP")
    writer.write(b"first")
    writer.flush()
    assert list(tf.io.tf_record_iterator(path, "GZIP")) == [b"first"]
    writer.write(b"second")
    writer.close()
    writer.close()
    assert list(tf.io.tf_record_iterator(path, "GZIP")) == [b"first", b"second"]


def test_str_record_is_utf8(tmp_path):
    path = str(tmp_path / "s.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        writer.write("héllo")
    assert list(tf.io.tf_record_iterator(path)) == ["héllo".encode("utf-8")]


def test_accepts_pathlike_and_bytes_paths(tmp_path):
    path = tmp_path / "p.tfrecord"
    with tf.io.TFRecordWriter(path) as writer:
        writer.write(b"x")
    assert list(tf.io.tf_record_iterator(str(path).encode())) == [b"x"]


def _write(tmp_path, records, name="d.tfrecord"):
    path = tmp_path / name
    path.write_bytes(b"".join(_reference_frame(r) for r in records))
    return path


def test_corrupted_data_raises_data_loss_naming_file_and_offset(tmp_path):
    path = _write(tmp_path, [b"abc", b"defgh"])
    raw = bytearray(path.read_bytes())
    raw[len(RECORD_ABC) + 12 + 2] ^= 0xFF  # a payload byte of the second record
    path.write_bytes(bytes(raw))
    it = tf.python_io.tf_record_iterator(str(path))
    assert next(it) == b"abc"
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at %d" % (len(RECORD_ABC) + 12)) as e:
        next(it)
    assert str(path) in str(e.value)


def test_corrupted_length_raises_data_loss_at_record_start(tmp_path):
    path = _write(tmp_path, [b"abc", b"defgh"])
    raw = bytearray(path.read_bytes())
    raw[len(RECORD_ABC)] ^= 0x01
    path.write_bytes(bytes(raw))
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at %d in .*d.tfrecord" % len(RECORD_ABC)):
        list(tf.python_io.tf_record_iterator(str(path)))


def test_corrupted_footer_crc(tmp_path):
    path = _write(tmp_path, [b"abc"])
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0x80
    path.write_bytes(bytes(raw))
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at 12"):
        list(tf.python_io.tf_record_iterator(str(path)))


@pytest.mark.parametrize("cut", [1, 4, 6, 11])
def test_truncated_last_record_raises_data_loss(tmp_path, cut):
    path = _write(tmp_path, [b"abc", b"defgh"])
    raw = path.read_bytes()
    path.write_bytes(raw[:-cut])
    it = tf.python_io.tf_record_iterator(str(path))
    assert next(it) == b"abc"
    with pytest.raises(tf.errors.DataLossError, match="truncated record at") as e:
        next(it)
    assert str(path) in str(e.value)


def test_truncated_header_raises_data_loss(tmp_path):
    path = _write(tmp_path, [b"abc"])
    path.write_bytes(path.read_bytes() + b"\x05\x00\x00")
    with pytest.raises(tf.errors.DataLossError, match="truncated record at %d" % len(RECORD_ABC)):
        list(tf.python_io.tf_record_iterator(str(path)))


def test_truncated_compressed_file_raises_data_loss(tmp_path):
    path = tmp_path / "t.tfrecord.gz"
    path.write_bytes(gzip.compress(_reference_frame(b"abc") + _reference_frame(b"x" * 5000))[:-40])
    # As TensorFlow's RecordReader: a payload cut short is reported at the payload's offset (record + 12).
    with pytest.raises(tf.errors.DataLossError, match="truncated record at %d" % (len(RECORD_ABC) + 12)):
        list(tf.python_io.tf_record_iterator(str(path), "GZIP"))


def test_garbage_compressed_file_raises_data_loss(tmp_path):
    path = tmp_path / "g.tfrecord.gz"
    path.write_bytes(b"not gzip at all" * 10)
    with pytest.raises(tf.errors.DataLossError, match="corrupted compressed data"):
        list(tf.python_io.tf_record_iterator(str(path), "GZIP"))


def test_empty_file_has_no_records(tmp_path):
    path = tmp_path / "empty.tfrecord"
    path.write_bytes(b"")
    assert list(tf.python_io.tf_record_iterator(str(path))) == []


def test_missing_file_raises_not_found(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="nope.tfrecord"):
        tf.python_io.tf_record_iterator(str(tmp_path / "nope.tfrecord"))


def test_writer_in_missing_directory_raises_not_found(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="Failed to create a NewWriteableFile"):
        tf.io.TFRecordWriter(str(tmp_path / "no_dir" / "x.tfrecord"))


def test_write_after_close_raises(tmp_path):
    writer = tf.io.TFRecordWriter(str(tmp_path / "w.tfrecord"))
    writer.close()
    with pytest.raises(tf.errors.FailedPreconditionError, match="Writer is closed."):
        writer.write(b"x")
    with pytest.raises(tf.errors.FailedPreconditionError):
        writer.flush()


def test_write_rejects_non_bytes(tmp_path):
    with tf.io.TFRecordWriter(str(tmp_path / "w.tfrecord")) as writer:
        with pytest.raises(TypeError, match="expected a bytes record"):
            writer.write(5)


@pytest.mark.parametrize("bad", ["BZ2", 7])
def test_invalid_compression_type(bad):
    with pytest.raises(ValueError, match='Not a valid compression_type: "%s"' % bad):
        tf.io.TFRecordOptions(compression_type=bad)


@pytest.mark.parametrize("options,expected", [
    (None, ""), ("", ""), (0, ""), (1, "ZLIB"), (2, "GZIP"), ("GZIP", "GZIP"), ("ZLIB", "ZLIB"),
    (tf.io.TFRecordOptions("GZIP"), "GZIP"), (tf.io.TFRecordOptions(), ""),
])
def test_compression_type_string(options, expected):
    assert tf.io.TFRecordOptions.get_compression_type_string(options) == expected


def test_missing_crc32c_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "crc32c", None)
    with pytest.raises(ImportError, match=r"pip install 'tensorweave\[data\]'"):
        tf.io.TFRecordWriter(str(tmp_path / "x.tfrecord"))
    with pytest.raises(ImportError, match="crc32c"):
        tf_record.encode_record(b"abc")


@pytest.mark.parametrize("length", [2 ** 62, 2 ** 64 - 1, 1 << 33])
def test_an_absurd_record_length_is_data_loss_before_reading(tmp_path, length):
    # An event file (a TFRecord file) whose second record claims an absurd length with a valid length CRC.
    header = struct.pack("<Q", length)
    masked = _reference_frame(header)[-4:]  # the masked CRC-32C of the 8 length bytes (the frame's footer)
    path = tmp_path / "events.out.tfevents.1.host"
    path.write_bytes(TF_RECORD_1 + header + masked + b"xyz")
    it = tf.python_io.tf_record_iterator(str(path))
    assert next(it) == TF_RECORD_1[12:-4]
    # Reported at the payload's offset, as other truncated payloads.
    with pytest.raises(tf.errors.DataLossError, match="truncated record at %d in %s: its length %d exceeds the 3 "
                                                      "bytes left" % (len(TF_RECORD_1) + 12, path, length)):
        next(it)

