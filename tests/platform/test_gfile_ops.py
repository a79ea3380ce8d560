"""`tf.read_file`, `tf.write_file`, `tf.matching_files` and `match_filenames_once`: errors and graph
structure as recorded from TensorFlow 2.21 (`tf.compat.v1`), and the same ops on `memory://`."""

import os
import uuid

import numpy as np
import pytest

import tensorweave as tf


def _err(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value).__name__, str(info.value).splitlines()[0]


def test_read_write_roundtrip_and_directories(tmp_path):
    p = str(tmp_path / "a.txt")
    nested = str(tmp_path / "x" / "y" / "z.txt")
    with tf.Session() as s:
        assert s.run(tf.write_file(p, "hello")) is None
        assert s.run(tf.read_file(p)) == b"hello"
        s.run(tf.io.write_file(nested, b"\x00\xff"))  # TF creates the directories
        assert s.run(tf.io.read_file(nested)) == b"\x00\xff"
        # Not folded into a constant: a later run sees the new content.
        r = tf.read_file(p)
        assert s.run(r) == b"hello"
        with open(p, "wb") as f:
            f.write(b"changed")
        assert s.run(r) == b"changed"
    assert (tf.read_file(p).op.type, tf.write_file(p, "a").type, tf.matching_files(p).op.type) == (
        "ReadFile", "WriteFile", "MatchingFiles")
    assert tf.read_file(p).shape.as_list() == []
    assert tf.matching_files(p).shape.as_list() == [None]


def test_errors_as_tf(tmp_path):
    p, d = str(tmp_path / "a.txt"), str(tmp_path)
    open(p, "w").close()
    s = tf.Session()
    assert _err(lambda: s.run(tf.read_file(p + "zz"))) == ("NotFoundError", p + "zz; No such file or directory")
    assert _err(lambda: s.run(tf.read_file(d))) == ("FailedPreconditionError", d + "; Is a directory")
    assert _err(lambda: s.run(tf.write_file(d, "x"))) == ("FailedPreconditionError", d + "; Is a directory")
    cls, msg = _err(lambda: tf.read_file([p, p]))
    assert cls == "ValueError" and msg.startswith("Shape must be rank 0 but is rank 1")
    cls, msg = _err(lambda: tf.write_file(p, ["a"]))
    assert cls == "ValueError" and msg.startswith("Shape must be rank 0 but is rank 1")
    cls, msg = _err(lambda: tf.matching_files([[p]]))
    assert cls == "ValueError" and msg.startswith("Shape must be at most rank 1 but is rank 2")
    assert _err(lambda: tf.read_file(3)) == (
        "TypeError", "Expected string passed to parameter 'filename' of op 'ReadFile', got 3 of type 'int' instead. "
        "Error: Expected string, but got 3 of type 'int'.")
    ph = tf.placeholder(tf.string)
    assert _err(lambda: s.run(tf.read_file(ph), {ph: [p]})) == (
        "InvalidArgumentError", "Input filename tensor must be scalar, but had shape: [1]")
    assert _err(lambda: s.run(tf.write_file(ph, "a"), {ph: [p]})) == (
        "InvalidArgumentError", "Input filename tensor must be scalar, but had shape: [1]")
    assert _err(lambda: s.run(tf.write_file(p, ph), {ph: ["a"]})) == (
        "InvalidArgumentError", "Contents tensor must be scalar, but had shape: [1]")
    assert _err(lambda: s.run(tf.matching_files(ph), {ph: [[p]]})) == (
        "InvalidArgumentError", "Input pattern tensor must be scalar or vector, but had shape: [1,1]")


def test_matching_files_and_match_filenames_once(tmp_path):
    d = str(tmp_path)
    for n in ("a.txt", "b.txt", "x"):
        open(os.path.join(d, n), "w").close()
    with tf.Session() as s:
        got = s.run(tf.matching_files([os.path.join(d, "*.txt"), os.path.join(d, "x"), os.path.join(d, "a*")]))
        assert list(got) == [os.path.join(d, n).encode() for n in ("a.txt", "a.txt", "b.txt", "x")]
        assert s.run(tf.matching_files(os.path.join(d, "qq*"))).shape == (0,)
        assert s.run(tf.io.matching_files(os.path.join(d, "nodir", "*"))).shape == (0,)
        m = tf.train.match_filenames_once(os.path.join(d, "*.txt"))
        m2 = tf.io.match_filenames_once([os.path.join(d, "x")], name="mm")
        assert (m.name, m.op.type, m.shape.ndims, m2.name) == ("matching_filenames:0", "VariableV2", None, "mm:0")
        assert tf.local_variables() == [m, m2] and tf.trainable_variables() == []
        s.run(tf.local_variables_initializer())
        assert list(s.run(m)) == [os.path.join(d, "a.txt").encode(), os.path.join(d, "b.txt").encode()]
        assert list(s.run(m2)) == [os.path.join(d, "x").encode()]


def test_ops_on_memory_file_system():
    pytest.importorskip("fsspec")
    root = "memory://ops_%s" % uuid.uuid4().hex
    with tf.Session() as s:
        s.run(tf.write_file(root + "/sub/f.bin", b"\x01\x02"))  # directories created
        s.run(tf.write_file(root + "/sub/g.bin", b"g"))
        assert s.run(tf.read_file(root + "/sub/f.bin")) == b"\x01\x02"
        assert list(s.run(tf.matching_files(root + "/sub/*.bin"))) == [
            (root + "/sub/f.bin").encode(), (root + "/sub/g.bin").encode()]
        with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
            s.run(tf.read_file(root + "/nope"))


def test_eager():
    import tempfile

    from tensorweave.eager import context
    d = tempfile.mkdtemp()
    with context.eager_mode():
        tf.io.write_file(os.path.join(d, "e.txt"), "eager")
        assert tf.io.read_file(os.path.join(d, "e.txt")).numpy() == b"eager"
        np.testing.assert_array_equal(tf.io.matching_files(os.path.join(d, "*")).numpy(),
                                      np.array([os.path.join(d, "e.txt").encode()], dtype=object))
