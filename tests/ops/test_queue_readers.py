"""TF1 readers over a queue of work units (tensorweave/ops/reader_ops.py) and `tf.decode_csv`
(tensorweave/ops/parsing_csv_ops.py). Expected keys, values and error messages were recorded from
TensorFlow (tf.compat.v1 graph mode of TF 2.21, which keeps TF 1.15's reader kernels)."""

import gzip
import threading
import time

import numpy as np
import pytest

import tensorweave as tf


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.csv").write_bytes(b"h1,h2\n1,2\n3,4\n")
    (tmp_path / "b.csv").write_bytes(b"x\n5,6\n")
    (tmp_path / "fixed.bin").write_bytes(bytes(range(20)))
    with tf.io.TFRecordWriter(str(tmp_path / "r.tfr")) as w:
        w.write(b"abc")
        w.write(b"de")
    return tmp_path


def _closed_queue(sess, paths):
    q = tf.FIFOQueue(10, tf.string)
    sess.run(q.enqueue_many([[str(p) for p in paths]]))
    sess.run(q.close())
    return q


def _read_all(sess, k, v):
    out = []
    while True:
        try:
            out.append(tuple(sess.run([k, v])))
        except tf.errors.OutOfRangeError:
            return out


def test_text_line_reader_skips_headers_and_counts(files):
    r = tf.TextLineReader(skip_header_lines=1)
    assert r.reader_ref.op.type == "TextLineReaderV2" and r.reader_ref.dtype == tf.resource
    assert not r.supports_serialize
    with tf.Session() as sess:
        q = _closed_queue(sess, [files / "a.csv", files / "b.csv"])
        k, v = r.read(q)
        assert (k.op.type, k.name, v.name) == ("ReaderReadV2", "ReaderReadV2:0", "ReaderReadV2:1")
        a, b = str(files / "a.csv").encode(), str(files / "b.csv").encode()
        assert sess.run([k, v]) == [a + b":2", b"1,2"]
        assert sess.run([k, v]) == [a + b":3", b"3,4"]
        assert sess.run([k, v]) == [b + b":2", b"5,6"]
        assert sess.run(r.num_records_produced()) == 3
        with pytest.raises(tf.errors.OutOfRangeError, match="is closed and has insufficient elements"):
            sess.run(v)
        assert sess.run(r.num_work_units_completed()) == 2
        sess.run(r.reset())
        assert sess.run(r.num_records_produced()) == 0 and r.reset().type == "ReaderResetV2"


def test_read_up_to_stops_at_the_end_of_a_file(files):
    r = tf.TextLineReader()
    with tf.Session() as sess:
        q = _closed_queue(sess, [files / "a.csv", files / "b.csv"])
        ks, vs = r.read_up_to(q, 2)
        assert ks.op.type == "ReaderReadUpToV2" and ks.shape.as_list() == [None]
        a, b = str(files / "a.csv").encode(), str(files / "b.csv").encode()
        got = [sess.run([ks, vs]) for _ in range(3)]
        assert [list(x) for x in got[0]] == [[a + b":1", a + b":2"], [b"h1,h2", b"1,2"]]
        assert [list(x) for x in got[1]] == [[a + b":3"], [b"3,4"]]
        assert [list(x) for x in got[2]] == [[b + b":1", b + b":2"], [b"x", b"5,6"]]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(ks)


def test_whole_file_fixed_length_tfrecord_and_identity_readers(files):
    with tf.Session() as sess:
        path = str(files / "a.csv").encode()
        k, v = tf.WholeFileReader().read(_closed_queue(sess, [files / "a.csv"]))
        assert _read_all(sess, k, v) == [(path, b"h1,h2\n1,2\n3,4\n")]
        k, v = tf.IdentityReader().read(_closed_queue(sess, [files / "a.csv"]))
        assert _read_all(sess, k, v) == [(path, path)]
        fixed = str(files / "fixed.bin").encode()
        r = tf.FixedLengthRecordReader(4, header_bytes=2, footer_bytes=3, hop_bytes=3)
        k, v = r.read(_closed_queue(sess, [files / "fixed.bin"]))
        assert _read_all(sess, k, v) == [(fixed + b":0", b"\x02\x03\x04\x05"), (fixed + b":1", b"\x05\x06\x07\x08"),
                                         (fixed + b":2", b"\x08\t\n\x0b"), (fixed + b":3", b"\x0b\x0c\r\x0e")]
        k, v = tf.FixedLengthRecordReader(6).read(_closed_queue(sess, [files / "fixed.bin"]))
        assert [x[1] for x in _read_all(sess, k, v)] == [bytes(range(0, 6)), bytes(range(6, 12)),
                                                          bytes(range(12, 18))]
        rec = str(files / "r.tfr").encode()
        k, v = tf.TFRecordReader().read(_closed_queue(sess, [files / "r.tfr"]))
        assert _read_all(sess, k, v) == [(rec + b":0", b"abc"), (rec + b":19", b"de")]


def test_compressed_records(files):
    gz = files / "r.tfr.gz"
    gz.write_bytes(gzip.compress((files / "r.tfr").read_bytes()))
    fixed = files / "fixed.gz"
    fixed.write_bytes(gzip.compress(bytes(range(8))))
    with tf.Session() as sess:
        k, v = tf.TFRecordReader(options=tf.io.TFRecordOptions("GZIP")).read(_closed_queue(sess, [gz]))
        assert [x[1] for x in _read_all(sess, k, v)] == [b"abc", b"de"]
        k, v = tf.FixedLengthRecordReader(4, encoding="GZIP").read(_closed_queue(sess, [fixed]))
        assert [x[1] for x in _read_all(sess, k, v)] == [bytes(range(4)), bytes(range(4, 8))]


def test_reader_errors(files):
    bad = files / "bad.tfr"
    data = bytearray((files / "r.tfr").read_bytes())
    data[13] ^= 0xFF  # a payload byte of the first record
    bad.write_bytes(bytes(data))
    with tf.Session() as sess:
        k, v = tf.TextLineReader().read(_closed_queue(sess, ["/nonexistent/x.csv"]))
        with pytest.raises(tf.errors.NotFoundError, match="/nonexistent/x.csv; No such file or directory"):
            sess.run(v)
        k, v = tf.TFRecordReader().read(_closed_queue(sess, [bad]))
        with pytest.raises(tf.errors.DataLossError, match="corrupted record at 0"):
            sess.run(v)


def test_a_read_blocks_until_a_work_unit_arrives(files):
    q = tf.FIFOQueue(10, tf.string)
    k, v = tf.WholeFileReader().read(q)
    with tf.Session() as sess:
        out = {}
        t = threading.Thread(target=lambda: out.update(value=sess.run(v)))
        t.start()
        time.sleep(0.2)
        assert t.is_alive()
        sess.run(q.enqueue(str(files / "b.csv")))
        t.join(5)
        assert out == {"value": b"x\n5,6\n"}
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(v, options=tf.RunOptions(timeout_in_ms=50))


# ---- decode_csv ---------------------------------------------------------------------------------------------
def _csv(records, defaults, **kw):
    rec = tf.placeholder(tf.string)
    out = tf.decode_csv(rec, defaults, **kw)
    with tf.Session() as sess:
        return sess.run(out, {rec: records})


def test_decode_csv_values_and_types():
    c = tf.decode_csv(tf.placeholder(tf.string, [None]), [[1], [""], [1.0], tf.constant([], tf.int64)])
    assert [t.dtype for t in c] == [tf.int32, tf.string, tf.float32, tf.int64]
    assert [t.shape.as_list() for t in c] == [[None]] * 4 and c[0].op.type == "DecodeCSV"
    out = _csv(["1,a,2.5,7", ",,,8"], [[1], [""], [1.0], tf.constant([], tf.int64)])
    np.testing.assert_array_equal(out[0], np.array([1, 1], np.int32))
    assert out[1].tolist() == [b"a", b""]
    np.testing.assert_array_equal(out[2], np.array([2.5, 1.0], np.float32))
    assert out[3].dtype == np.int64 and out[3].tolist() == [7, 8]
    out = _csv(["1,2,3,4,5"], [[0], tf.constant([0], tf.int64), [0.0], tf.constant([0.0], tf.float64), [""]])
    assert [a.dtype for a in out] == [np.int32, np.int64, np.float32, np.float64, object]
    out = _csv([["1,2"], ["3,4"]], [[0], [5]])
    assert out[0].shape == (2, 1) and out[1].tolist() == [[2], [4]]
    assert tf.io.decode_csv is tf.decode_csv


def test_decode_csv_quotes_delimiters_na_and_selected_columns():
    out = _csv(['"a,b",1', '"x""y",2'], [[""], [1]])
    assert out[0].tolist() == [b"a,b", b'x"y']
    assert _csv(["NA,1", "2,NA"], [[0], [5]], na_value="NA")[1].tolist() == [1, 5]
    assert [a.tolist() for a in _csv(["1|2"], [[0], [5]], field_delim="|")] == [[1], [2]]
    assert [a.tolist() for a in _csv(["1,2,3,4"], [[0], [5]], select_cols=[1, 3])] == [[2], [4]]
    assert [a.tolist() for a in _csv(["NA,"], [[""], ["d"]], na_value="NA")] == [[b""], [b"d"]]
    assert [a.tolist() for a in _csv([" a , b "], [[""], [""]])] == [[b" a "], [b" b "]]
    floats = _csv(["1e3,inf,-nan, 2.5 , 0x10"], [[0.0]] * 5)
    assert [float(a[0]) for a in floats[:2]] == [1000.0, np.inf] and np.isnan(floats[2][0])
    assert [float(a[0]) for a in floats[3:]] == [2.5, 16.0]
    assert [int(a[0]) for a in _csv([" 12,+3,-0"], [[0]] * 3)] == [12, 3, 0]


@pytest.mark.parametrize("records,defaults,kw,message", [
    (["1,a,2.5,"], [[1], [""], [1.0], "required"], {}, "Field 3 is required but missing in record 0!"),
    (["1,a"], [[1], [""], [1.0]], {}, "Expect 3 fields but have 2 in record 0"),
    (["1,a,3,4"], [[1], [""], [1.0]], {}, "Expect 3 fields but have 4 in record 0"),
    (["x,a,3"], [[1], [""], [1.0]], {}, "Field 0 in record 0 is not a valid int32: x"),
    (["1,a,zz"], [[1], [""], [1.0]], {}, "Field 2 in record 0 is not a valid float: zz"),
    (['"a,b",1'], [[""], [""]], {"use_quote_delim": False}, "Expect 2 fields but have 3 in record 0"),
    (['"a"b,1'], [[""], [1]], {}, "Quote inside a string has to be escaped by another quote"),
    (['"ab,1'], [[""], [1]], {}, "Quoted field has to end with quote followed by delim or end"),
    (["1,2"], [[0], [5]], {"select_cols": [1, 3]}, "Expect 2 fields but have 1 in record 0"),
    (["3000000000"], [[0]], {}, "Field 0 in record 0 is not a valid int32: 3000000000"),
    (["1.5"], [[0]], {}, "Field 0 in record 0 is not a valid int32: 1.5"),
    (["1,2"], [[0], [5]], {"field_delim": "ab"}, "field_delim should be only 1 char"),
    ([""], [[0]], {}, "Expect 1 fields but have 0 in record 0"),
    (['a"b,1'], [[""], [0]], {}, "Unquoted fields cannot have quotes/CRLFs inside"),
    (["1,2,"], [[0], [0]], {}, "Expect 2 fields but have 3 in record 0"),
])
def test_decode_csv_errors_are_tfs(records, defaults, kw, message):
    defaults = [tf.constant([], tf.int64) if d == "required" else d for d in defaults]
    with pytest.raises(tf.errors.InvalidArgumentError, match="^" + message.replace("(", r"\(").replace(")", r"\)")
                       .replace("|", r"\|")):
        _csv(records, defaults, **kw)


def test_decode_csv_argument_errors():
    rec = tf.placeholder(tf.string)
    with pytest.raises(ValueError, match="select_cols is not strictly increasing."):
        tf.decode_csv(rec, [[0], [5]], select_cols=[3, 1])
    with pytest.raises(ValueError, match="Length of select_cols and record_defaults do not match."):
        tf.decode_csv(rec, [[0], [5]], select_cols=[1])
    with pytest.raises(TypeError, match="Value passed to parameter 'record_defaults' has DataType bool not in list "
                                        "of allowed values: float32, float64, int32, int64, string"):
        tf.decode_csv(rec, [[True]])
    with pytest.raises(ValueError, match="Shape must be at most rank 1 but is rank 2"):
        tf.decode_csv(rec, [[[1, 2]]])


def test_readers_read_urls_through_gfile():
    fsspec = pytest.importorskip("fsspec")
    fs = fsspec.filesystem("memory")
    with fs.open("/tw_queue_readers/a.csv", "wb") as f:
        f.write(b"1,2\n3,4\n")
    try:
        with tf.Session() as sess:
            k, v = tf.TextLineReader().read(_closed_queue(sess, ["memory:///tw_queue_readers/a.csv"]))
            assert [x[1] for x in _read_all(sess, k, v)] == [b"1,2", b"3,4"]
    finally:
        fs.rm("/tw_queue_readers", recursive=True)


def test_closing_the_session_cancels_a_blocked_read():
    q = tf.FIFOQueue(10, tf.string)
    reader = tf.TextLineReader()  # its state must not wait for the blocked read when the Session closes
    k, v = reader.read(q)
    sess = tf.Session()
    out = {}

    def read():
        try:
            sess.run(v)
        except tf.errors.CancelledError as e:
            out["error"] = e
    t = threading.Thread(target=read)
    t.start()
    time.sleep(0.2)
    sess.close()
    t.join(5)
    assert not t.is_alive() and "error" in out
