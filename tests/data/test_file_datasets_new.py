"""`tf.data.TextLineDataset`, `FixedLengthRecordDataset`, `tf.data.experimental.CsvDataset` and
`make_csv_dataset`. Expected values and error messages were recorded from TensorFlow 2.21
(`tf.compat.v1`, graph mode) on the same files."""

import collections
import gzip
import uuid
import zlib

import numpy as np
import pytest

import tensorweave as tf
from tests.data import iterator_run

E = tf.data.experimental


def run(ds, n=200):
    return iterator_run.run(ds, n)


def err(ds):
    return iterator_run.err(ds, 200)


@pytest.fixture
def d(tmp_path):
    return tmp_path


def w(d, name, data):
    p = str(d / name)
    with open(p, "wb") as f:
        f.write(data)
    return p


# ---- TextLineDataset -----------------------------------------------------------------------------
def test_text_lines(d):
    p1, p2 = w(d, "a.txt", b"l1\nl2\r\n\nl4"), w(d, "b.txt", b"m1\nm2\n")
    assert run(tf.data.TextLineDataset([p1, p2])) == [b"l1", b"l2", b"", b"l4", b"m1", b"m2"]
    assert run(tf.data.TextLineDataset([p1, p2], num_parallel_reads=2)) == [b"l1", b"m1", b"l2", b"m2", b"", b"l4"]
    assert run(tf.data.TextLineDataset([p1, p2], buffer_size=1)) == [b"l1", b"l2", b"", b"l4", b"m1", b"m2"]
    assert run(tf.data.TextLineDataset([[p1]])) == [b"l1", b"l2", b"", b"l4"]
    assert run(tf.data.TextLineDataset(w(d, "cr.txt", b"a\rb\r\nc\r"))) == [b"ab", b"c"]  # TF drops every \r
    assert run(tf.data.TextLineDataset(tf.data.Dataset.from_tensor_slices([p2, p2]))) == [b"m1", b"m2"] * 2
    ds = tf.data.TextLineDataset(p1)
    assert (ds.output_shapes.as_list(), ds.output_types) == ([], tf.string)


def test_text_lines_compressed(d):
    pg = w(d, "c.gz", gzip.compress(b"g1\ng2\n"))
    pz = w(d, "c.z", zlib.compress(b"z1\nz2"))
    assert run(tf.data.TextLineDataset(pg, compression_type="GZIP")) == [b"g1", b"g2"]
    assert run(tf.data.TextLineDataset(pz, compression_type="ZLIB")) == [b"z1", b"z2"]
    cls, msg = err(tf.data.TextLineDataset(w(d, "plain", b"x\n"), compression_type="GZIP"))
    assert cls == "DataLossError" and "incorrect header check" in msg


def test_text_lines_errors(d):
    p = w(d, "a.txt", b"x\n")
    assert err(tf.data.TextLineDataset(p + "x")) == ("NotFoundError", p + "x; No such file or directory")
    assert err(tf.data.TextLineDataset(p, compression_type="BZ")) == ("InvalidArgumentError",
                                                                     "Unsupported compression_type.")
    assert err(tf.data.TextLineDataset(p, buffer_size=-3)) == ("InvalidArgumentError",
                                                               "`buffer_size` must be >= 0 (0 == default)")
    with pytest.raises(TypeError, match=r"The `filenames` argument must contain `tf.string` elements. Got `tf.int32`"):
        tf.data.TextLineDataset(3)


def test_text_lines_on_memory_file_system():
    pytest.importorskip("fsspec")
    root = "memory://tl_%s" % uuid.uuid4().hex
    tf.io.gfile.makedirs(root)
    path = root + "/x.txt"
    with tf.io.gfile.GFile(path, "w") as f:
        f.write("one\ntwo\n")
    assert run(tf.data.TextLineDataset(path)) == [b"one", b"two"]


# ---- FixedLengthRecordDataset ----------------------------------------------------------------------
def test_fixed_length_records(d):
    fl = w(d, "f.bin", bytes(range(23)))
    want = [bytes(range(i, i + 4)) for i in range(2, 22, 4)]
    assert run(tf.data.FixedLengthRecordDataset(fl, 4, header_bytes=2, footer_bytes=1)) == want
    flg = w(d, "f.gz", gzip.compress(bytes(range(23))))
    assert run(tf.data.FixedLengthRecordDataset(flg, 4, header_bytes=2, footer_bytes=1,
                                                compression_type="GZIP")) == want
    assert run(tf.data.FixedLengthRecordDataset(w(d, "e", b""), 4)) == []
    assert run(tf.data.FixedLengthRecordDataset(fl, 4, header_bytes=23)) == []
    got = run(tf.data.FixedLengthRecordDataset([fl, fl], 4, header_bytes=3, num_parallel_reads=2))
    assert got == [r for i in range(3, 23 - 3, 4) for r in [bytes(range(i, i + 4))] * 2]


def test_fixed_length_records_errors(d):
    fl = w(d, "f.bin", bytes(range(23)))
    flg = w(d, "f.gz", gzip.compress(bytes(range(23))))
    msg = ('Excluding the header (%d bytes) and footer (%d bytes), input file "%s" has body length %d bytes, which is '
           'not an exact multiple of the record length (%d bytes).')
    assert err(tf.data.FixedLengthRecordDataset(fl, 5)) == ("InvalidArgumentError", msg % (0, 0, fl, 23, 5))
    assert err(tf.data.FixedLengthRecordDataset(fl, 5, header_bytes=2)) == ("InvalidArgumentError",
                                                                            msg % (2, 0, fl, 21, 5))
    assert err(tf.data.FixedLengthRecordDataset(flg, 5, compression_type="GZIP")) == ("DataLossError",
                                                                                      msg % (0, 0, flg, 23, 5))
    assert err(tf.data.FixedLengthRecordDataset(fl, 4, header_bytes=20, footer_bytes=10)) == (
        "InvalidArgumentError", msg % (20, 10, fl, 2 ** 64 - 7, 4))
    assert err(tf.data.FixedLengthRecordDataset(fl, 0)) == ("InvalidArgumentError", "`record_bytes` must be > 0")
    assert err(tf.data.FixedLengthRecordDataset(fl, 4, header_bytes=-1)) == ("InvalidArgumentError",
                                                                             "`header_bytes` must be >= 0")
    assert err(tf.data.FixedLengthRecordDataset(fl + "x", 4)) == ("NotFoundError",
                                                                  fl + "x; No such file or directory")


# ---- CsvDataset ---------------------------------------------------------------------------------------
def test_csv_dataset_values(d):
    f2 = w(d, "b.csv", b'1;NA;"a"\n2;3;b\n')
    got = run(E.CsvDataset(f2, [[0], [9], ["d"]], field_delim=";", na_value="NA"))
    assert got == [(1, 9, b"a"), (2, 3, b"b")] and got[0][0].dtype == np.int32
    assert run(E.CsvDataset(f2, [[0], [9], ["d"]], field_delim=";", na_value="NA", use_quote_delim=False)) == [
        (1, 9, b'"a"'), (2, 3, b"b")]
    assert run(E.CsvDataset(w(d, "g.csv", b"1,2\n3,4"), [[0], [0]])) == [(1, 2), (3, 4)]
    got = run(E.CsvDataset(w(d, "i.csv", b" 1 , 2.5 , x \n"), [[0], [0.0], [""]]))
    assert got == [(1, np.float32(2.5), b" x ")]
    got = run(E.CsvDataset(w(d, "j.csv", b"1e3,inf,nan,-0x1p3,+5\n"), [[0.0], [0.0], [0.0], [0.0], [0]]))[0]
    assert got[0] == 1000.0 and got[1] == np.inf and np.isnan(got[2]) and got[3] == -8.0 and got[4] == 5
    assert run(E.CsvDataset(w(d, "l.gz", gzip.compress(b"1,2\n")), [[0], [0]], compression_type="GZIP")) == [(1, 2)]
    assert run(E.CsvDataset(w(d, "m.csv", b"a,b\n"), [[0], [0]], header=True)) == []
    assert run(E.CsvDataset(w(d, "n.csv", b"1\n\n\n2\n"), [[0]])) == [(1,), (0,), (0,), (2,)]
    assert run(E.CsvDataset(w(d, "q.csv", b'"a\nb",1\n"x""y",2\n'), [["s"], [0]])) == [(b"a\nb", 1), (b'x"y', 2)]
    got = run(E.CsvDataset(w(d, "r.csv", b"1,x,2.5,y\n"), [tf.int64, [0.0]], select_cols=[0, 2]))
    assert got == [(1, 2.5)] and got[0][0].dtype == np.int64 and got[0][1].dtype == np.float32
    ds = E.CsvDataset(f2, [[0], [0.0], ["d"]])
    assert ds.output_types == (tf.int32, tf.float32, tf.string)
    assert [s.as_list() for s in ds.output_shapes] == [[], [], []]


def test_csv_dataset_errors(d):
    f1 = w(d, "a.csv", b'1,2.5,x\n3,,"q,""z"""\n\n4,5,\r\n')
    inv = "InvalidArgumentError"
    assert err(E.CsvDataset(f1, [tf.int32, [0.0], ["d"]])) == (inv, "Field 0 is required but missing in record!")
    assert err(E.CsvDataset(f1, [[7], [1.5], ["d"]])) == (inv, "Expect 3 fields but have 1 in record")
    assert err(E.CsvDataset(f1, [tf.int32, tf.float32, tf.string])) == (inv,
                                                                         "Field 1 is required but missing in record!")
    assert err(E.CsvDataset(f1, [[0], ["d"]], select_cols=[0, 2])) == (inv, "Expect 2 fields but have 1 in record")
    assert err(E.CsvDataset(f1, [[0], ["d"]], select_cols=[2, 0])) == (
        inv, "select_cols should be strictly increasing indices")
    assert err(E.CsvDataset(f1, [[0], ["d"], [1]], select_cols=[0, 2])) == (inv, "select_cols should match output size")
    assert err(E.CsvDataset(f1, [[0], [0.0]])) == (inv, "Expect 2 fields but have more in record")
    assert err(E.CsvDataset(f1, [[0], [0.0], ["d"], [1]])) == (inv, "Expect 4 fields but have 3 in record")
    f3 = w(d, "c.csv", b"x,1\ny,abc\n")
    for default, name in ((0, "int32"), (0.0, "float"), (tf.int64, "int64"), (tf.float64, "double")):
        assert err(E.CsvDataset(f3, [["s"], [default] if not isinstance(default, tf.DType) else default])) == (
            inv, "Field 1 in record is not a valid %s: abc" % name)
    assert err(E.CsvDataset(w(d, "d.csv", b'a"b,1\n'), [["s"], [0]])) == (
        inv, "Unquoted fields cannot have quotes inside")
    assert err(E.CsvDataset(w(d, "e.csv", b'"ab"c,1\n'), [["s"], [0]])) == (
        inv, "Reached end of file without closing quoted field in record")
    assert err(E.CsvDataset(w(d, "f.csv", b'"unterminated,2\n'), [["s"], [0]])) == (
        inv, "Reached end of file without closing quoted field in record")
    assert err(E.CsvDataset(w(d, "h.csv", b"3000000000,1\n"), [[0], [0]])) == (
        inv, "Field 0 in record is not a valid int32: 3000000000")
    assert err(E.CsvDataset(w(d, "k.csv", b"0x10\n"), [[0]])) == (inv, "Field 0 in record is not a valid int32: 0x10")
    assert err(E.CsvDataset(w(d, "p.csv", b"1,2\r\n\r\n3,4\r\n"), [[0], [5]])) == (
        inv, "Expect 2 fields but have 1 in record")
    with pytest.raises(TypeError, match="Value passed to parameter 'record_defaults' has DataType bool not in list"):
        E.CsvDataset(f1, [[True]])


# ---- make_csv_dataset ---------------------------------------------------------------------------------
def _fmt(x):
    if isinstance(x, dict):
        return {k: _fmt(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(_fmt(v) for v in x)
    return (str(x.dtype), x.tolist())


@pytest.fixture
def csvs(tmp_path):
    (tmp_path / "a.csv").write_text("i,f,s,big,mixed,lab\n1,2.5,x,3000000000,1,0\n2,,y,1,2.5,1\n3,1e39,,5,,0\n")
    (tmp_path / "b.csv").write_text("i,f,s,big,mixed,lab\n4,0.5,z,7,zz,1\n")
    return tmp_path


def test_make_csv_dataset_inference_and_labels(csvs):
    a = str(csvs / "a.csv")
    got = [_fmt(x) for x in run(E.make_csv_dataset(a, 2, label_name="lab", shuffle=False, num_epochs=1))]
    assert got == [({"i": ("int32", [1, 2]), "f": ("float64", [2.5, 0.0]), "s": ("object", [b"x", b"y"]),
                     "big": ("int64", [3000000000, 1]), "mixed": ("float32", [1.0, 2.5])}, ("int32", [0, 1])),
                   ({"i": ("int32", [3]), "f": ("float64", [1e39]), "s": ("object", [b""]), "big": ("int64", [5]),
                     "mixed": ("float32", [0.0])}, ("int32", [0]))]
    got = [_fmt(x) for x in run(E.make_csv_dataset(str(csvs / "*.csv"), 3, shuffle=False, num_epochs=1))]
    assert got == [{"i": ("int32", [1, 2, 3]), "f": ("float64", [2.5, 0.0, 1e39]), "s": ("object", [b"x", b"y", b""]),
                    "big": ("int64", [3000000000, 1, 5]), "mixed": ("object", [b"1", b"2.5", b""]),
                    "lab": ("int32", [0, 1, 0])},
                   {"i": ("int32", [4]), "f": ("float64", [0.5]), "s": ("object", [b"z"]), "big": ("int64", [7]),
                    "mixed": ("object", [b"zz"]), "lab": ("int32", [1])}]
    ds = E.make_csv_dataset(a, 2, label_name="lab")
    features, label = ds.output_shapes
    assert isinstance(features, collections.OrderedDict) and list(features) == ["i", "f", "s", "big", "mixed"]
    assert label.as_list() == [2]  # num_epochs=None: batches are always full


def test_make_csv_dataset_columns_defaults_epochs(csvs):
    a = str(csvs / "a.csv")
    got = [_fmt(x) for x in run(E.make_csv_dataset(a, 2, select_columns=["s", "i"], shuffle=False, num_epochs=1))]
    assert got == [{"i": ("int32", [1, 2]), "s": ("object", [b"x", b"y"])},
                   {"i": ("int32", [3]), "s": ("object", [b""])}]
    got = [_fmt(x) for x in run(E.make_csv_dataset(a, 2, select_columns=[5, 0], label_name="lab", shuffle=False,
                                                    num_epochs=1))]
    assert got == [({"i": ("int32", [1, 2])}, ("int32", [0, 1])), ({"i": ("int32", [3])}, ("int32", [0]))]
    got = [_fmt(x) for x in run(E.make_csv_dataset(a, 2, column_defaults=[0, 0.0, "q", tf.int64, "", 0],
                                                    shuffle=False, num_epochs=1))]
    assert got[1] == {"i": ("int32", [3]), "f": ("float32", [np.inf]), "s": ("object", [b"q"]), "big": ("int64", [5]),
                      "mixed": ("object", [b""]), "lab": ("int32", [0])}
    got = [_fmt(x) for x in run(E.make_csv_dataset(a, 2, select_columns=["i"], shuffle=False, num_epochs=2))]
    assert got == [{"i": ("int32", [1, 2])}, {"i": ("int32", [3, 1])}, {"i": ("int32", [2, 3])}]
    got = [_fmt(x) for x in run(E.make_csv_dataset(a, 2, select_columns=["i"], shuffle=False), 4)]
    assert got == [{"i": ("int32", [1, 2])}, {"i": ("int32", [3, 1])}, {"i": ("int32", [2, 3])},
                   {"i": ("int32", [1, 2])}]
    got = [_fmt(x) for x in run(E.make_csv_dataset(a, 2, column_names=list("ABCDEF"), shuffle=False, num_epochs=1))]
    assert list(got[0]) == list("ABCDEF") and got[0]["A"] == ("int32", [1, 2])
    got = run(E.make_csv_dataset(str(csvs / "*.csv"), 1, select_columns=["i"], num_epochs=1, shuffle_seed=5))
    assert sorted(int(b["i"][0]) for b in got) == [1, 2, 3, 4]


def test_make_csv_dataset_errors(csvs):
    a = str(csvs / "a.csv")
    with pytest.raises(ValueError, match=r"`label_name` provided must be one of the columns: \['i', 'f', 's', 'big', "
                                         r"'mixed', 'lab'\]. Received: nope."):
        E.make_csv_dataset(a, 2, label_name="nope")
    with pytest.raises(ValueError, match="No files match `file_pattern` .*zz"):
        E.make_csv_dataset(str(csvs / "zz*.csv"), 2)
    with pytest.raises(ValueError, match="Expected `column_names` or `header` arguments. Neither is provided."):
        E.make_csv_dataset(a, 2, header=False)
    with pytest.raises(ValueError, match="Column zz specified in `select_columns` must be of one of the columns"):
        E.make_csv_dataset(a, 2, select_columns=["zz"])
    with pytest.raises(ValueError, match="contains duplicate column names: {'a'}"):
        E.make_csv_dataset(a, 2, column_names=["a", "a", "b", "c", "d", "e"])


# ---- parse_example_dataset / make_batched_features_dataset ------------------------------------------
def _example(i):
    return tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i + 0.5])),
        "v": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i)))),
        "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 2]))})).SerializeToString()


_FEATURES = {"x": tf.io.FixedLenFeature([2], tf.float32), "v": tf.io.VarLenFeature(tf.int64),
             "y": tf.io.FixedLenFeature([], tf.int64)}


def _fmt_example(x):
    if isinstance(x, dict):
        return {k: _fmt_example(v) for k, v in sorted(x.items())}
    if hasattr(x, "indices"):
        return ("sparse", x.indices.tolist(), x.values.tolist(), x.dense_shape.tolist())
    if isinstance(x, tuple):
        return tuple(_fmt_example(v) for v in x)
    return (str(x.dtype), x.tolist())


def test_make_batched_features_dataset(tmp_path):
    pytest.importorskip("crc32c")
    for k in range(2):
        with tf.io.TFRecordWriter(str(tmp_path / ("f%d.tfrecord" % k))) as writer:
            for i in range(3 * k, 3 * k + 3):
                writer.write(_example(i))
    pattern = str(tmp_path / "*.tfrecord")
    got = [_fmt_example(b) for b in run(E.make_batched_features_dataset(pattern, 4, _FEATURES, label_key="y",
                                                                        num_epochs=1, shuffle=False))]
    assert got == [  # TF 2.21
        ({"v": ("sparse", [[1, 0], [2, 0], [2, 1], [3, 0], [3, 1], [3, 2]], [0, 0, 1, 0, 1, 2], [4, 3]),
          "x": ("float32", [[0.0, 0.5], [1.0, 1.5], [2.0, 2.5], [3.0, 3.5]])}, ("int64", [0, 1, 0, 1])),
        ({"v": ("sparse", [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4]],
                [0, 1, 2, 3, 0, 1, 2, 3, 4], [2, 5]), "x": ("float32", [[4.0, 4.5], [5.0, 5.5]])}, ("int64", [0, 1]))]
    got = [_fmt_example(b)["y"] for b in run(E.make_batched_features_dataset(pattern, 4, _FEATURES, num_epochs=2,
                                                                             shuffle=False))]
    assert got == [("int64", [0, 1, 0, 1])] * 3
    features, label = E.make_batched_features_dataset(pattern, 4, _FEATURES, label_key="y").output_shapes
    assert (features["x"].as_list(), label.as_list()) == ([4, 2], [4])
    with pytest.raises(ValueError, match=r"The `label_key` provided \(q\) must be one of the `features` keys"):
        E.make_batched_features_dataset(pattern, 4, _FEATURES, label_key="q")
    shuffled = run(E.make_batched_features_dataset(pattern, 1, _FEATURES, num_epochs=1, shuffle_seed=3))
    assert sorted(int(b["y"][0] * 0 + b["x"][0][0]) for b in shuffled) == [0, 1, 2, 3, 4, 5]


def test_parse_example_dataset():
    ds = tf.data.Dataset.from_tensor_slices(np.array([_example(1), _example(2), _example(3)], dtype=object))
    got = [_fmt_example(b) for b in run(ds.batch(2).apply(E.parse_example_dataset({"x": _FEATURES["x"]})))]
    assert got == [{"x": ("float32", [[1.0, 1.5], [2.0, 2.5]])}, {"x": ("float32", [[3.0, 3.5]])}]
    with pytest.raises(TypeError, match="Input dataset should be a dataset of vectors of strings"):
        ds.apply(E.parse_example_dataset({"x": _FEATURES["x"]}))
    with pytest.raises(ValueError, match="Argument `features` is required, but not specified."):
        E.parse_example_dataset(None)


# ---- tf.data.experimental.TFRecordWriter ----------------------------------------------------------------
@pytest.mark.parametrize("compression", [None, "GZIP", "ZLIB"])
def test_tf_record_writer(tmp_path, compression):
    pytest.importorskip("crc32c")
    path = str(tmp_path / "out.tfrecord")
    ds = tf.data.Dataset.from_tensor_slices(["a", "bb", "ccc"])
    op = E.TFRecordWriter(path, compression).write(ds)
    assert op.type == "DatasetToTFRecord"
    with tf.Session() as s:
        assert s.run(op) is None
    assert list(tf.io.tf_record_iterator(path, compression)) == [b"a", b"bb", b"ccc"]
    assert run(tf.data.TFRecordDataset(path, compression_type=compression or "")) == [b"a", b"bb", b"ccc"]


def test_tf_record_writer_errors_and_eager(tmp_path):
    pytest.importorskip("crc32c")
    with pytest.raises(TypeError, match="Expected a`dataset` that produces scalar `tf.string` elements"):
        E.TFRecordWriter("x").write(tf.data.Dataset.range(3))
    with pytest.raises(TypeError, match="Expected a `tf.data.Dataset` object"):
        E.TFRecordWriter("x").write([b"a"])
    op = E.TFRecordWriter(str(tmp_path / "nodir" / "x")).write(tf.data.Dataset.from_tensor_slices(["a"]))
    with tf.Session() as s, pytest.raises(tf.errors.NotFoundError):
        s.run(op)
    from tensorweave.eager import context
    with context.eager_mode():
        assert E.TFRecordWriter(str(tmp_path / "e")).write(tf.data.Dataset.from_tensor_slices(["q"])) is None
    assert list(tf.io.tf_record_iterator(str(tmp_path / "e"))) == [b"q"]
