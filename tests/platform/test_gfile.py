"""`tf.gfile` / `tf.io.gfile` on local paths and on fsspec's `memory://` file system. Expected values and
error messages were recorded from TensorFlow 2.21 (`tf.compat.v1.gfile`, local files)."""

import os
import uuid

import pytest

import tensorweave as tf
from tensorweave.platform import gfile as pgfile

pytest.importorskip("fsspec")


@pytest.fixture(params=["local", "memory"])
def root(request, tmp_path):
    if request.param == "local":
        yield str(tmp_path)
        return
    path = "memory://gfile_test_%s" % uuid.uuid4().hex
    tf.io.gfile.makedirs(path)
    yield path
    if tf.io.gfile.exists(path):
        tf.io.gfile.rmtree(path)


def j(*parts):
    return tf.io.gfile.join(*parts)


def _write(path, text, mode="w"):
    with tf.gfile.GFile(path, mode) as f:
        f.write(text)


def test_write_read_text_and_binary(root):
    p = j(root, "a.txt")
    assert not tf.gfile.Exists(p)
    with tf.gfile.GFile(p, "w") as f:
        assert f.write("hello\nworld\nlast") is None
        assert f.tell() == 16
    assert tf.gfile.Exists(p)
    assert tf.gfile.GFile(p).read() == "hello\nworld\nlast"
    assert tf.gfile.GFile(p, "rb").read() == b"hello\nworld\nlast"
    assert tf.gfile.GFile(p).read(3) == "hel"
    assert tf.gfile.GFile(p).readline() == "hello\n"
    assert tf.gfile.GFile(p).readlines() == ["hello\n", "world\n", "last"]
    assert list(tf.gfile.GFile(p)) == ["hello\n", "world\n", "last"]
    assert list(tf.gfile.GFile(p, "rb")) == [b"hello\n", b"world\n", b"last"]
    assert next(tf.gfile.GFile(p)) == "hello\n"
    f = tf.gfile.GFile(p)
    assert [f.readline() for _ in range(4)] == ["hello\n", "world\n", "last", ""]
    assert tf.gfile.GFile(p).size() == 16
    f = tf.gfile.GFile(p)
    f.seek(6)
    assert f.read() == "world\nlast"
    f.seek(2)
    assert (f.tell(), f.read(2), f.tell()) == (2, "ll", 4)
    f.seek(-2, 2)
    assert f.read() == "st"
    f.seek(position=1)
    assert f.read(1) == "e"
    assert (f.mode, f.name, f.seekable()) == ("r", p, True)
    _write(p, "+app", "a")
    assert tf.gfile.GFile(p).read() == "hello\nworld\nlast+app"
    _write(p, b"bytes")  # text mode accepts bytes, binary mode str
    assert tf.gfile.GFile(p).read() == "bytes"
    _write(p, "str", "wb")
    assert tf.gfile.GFile(p, "rb").read() == b"str"
    assert tf.gfile.FastGFile(p, "rb").read() == b"str"
    assert tf.gfile.Open(p).read() == "str"


def test_write_mode_truncates_at_first_write_and_flush_shows_content(root):
    p = j(root, "a.txt")
    _write(p, "old content")
    f = tf.gfile.GFile(p, "w")
    assert tf.gfile.GFile(p).read() == "old content"  # opened lazily, as TF
    f.write("new")
    f.flush()
    assert tf.gfile.GFile(p).read() == "new"
    f.close()
    f.close()
    # Closing a write-mode file never written creates nothing (TF opens lazily).
    tf.gfile.GFile(j(root, "never"), "w").close()
    assert not tf.gfile.Exists(j(root, "never"))


def test_gfile_errors(root):
    p = j(root, "a.txt")
    f = tf.gfile.GFile(p)  # no error until used
    with pytest.raises(tf.errors.NotFoundError, match="a.txt; No such file or directory$"):
        f.read()
    with pytest.raises(tf.errors.InvalidArgumentError, match="mode is not 'r' or 'w' or 'a' or 'r\\+'"):
        tf.gfile.GFile(p, "x")
    _write(p, "abc")
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for writing"):
        tf.gfile.GFile(p).write("x")
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for reading"):
        tf.gfile.GFile(j(root, "w.txt"), "w").read()
    with pytest.raises(tf.errors.NotFoundError, match="nodir/x; No such file or directory"):
        tf.gfile.GFile(j(root, "nodir", "x"), "w").write("a")
    assert tf.gfile.GFile(p, "r+").read() == "abc"


def test_directories(root):
    p = j(root, "a.txt")
    _write(p, "abc")
    with pytest.raises(tf.errors.NotFoundError, match="x/y; No such file or directory"):
        tf.gfile.MkDir(j(root, "x", "y"))
    tf.gfile.MkDir(j(root, "x"))
    tf.gfile.MkDir(j(root, "x"))  # an existing directory is fine
    tf.gfile.MakeDirs(j(root, "x", "y", "z"))
    tf.gfile.MakeDirs(j(root, "x", "y", "z"))
    with pytest.raises(tf.errors.FailedPreconditionError, match="a.txt is not a directory"):
        tf.gfile.MakeDirs(j(p, "z"))
    assert (tf.gfile.IsDirectory(root), tf.gfile.IsDirectory(p), tf.gfile.IsDirectory(p + "zz")) == (True, False, False)
    assert not tf.io.gfile.isdir("") and not tf.io.gfile.exists("")
    assert sorted(tf.gfile.ListDirectory(root)) == ["a.txt", "x"]
    assert all(isinstance(n, str) for n in tf.io.gfile.listdir(root))
    with pytest.raises(tf.errors.NotFoundError, match="^Could not find directory .*nope$"):
        tf.gfile.ListDirectory(j(root, "nope"))
    with pytest.raises(tf.errors.NotFoundError, match="^Could not find directory .*a.txt$"):
        tf.gfile.ListDirectory(p)
    walk = [(d, sorted(s), sorted(f)) for d, s, f in tf.gfile.Walk(root)]
    assert walk == [(root, ["x"], ["a.txt"]), (j(root, "x"), ["y"], []), (j(root, "x", "y"), ["z"], []),
                    (j(root, "x", "y", "z"), [], [])]
    assert [d for d, _, _ in tf.gfile.Walk(root, in_order=False)] == [j(root, "x", "y", "z"), j(root, "x", "y"),
                                                                    j(root, "x"), root]
    assert [d for d, _, _ in tf.io.gfile.walk(root, topdown=False)][-1] == root
    assert list(tf.gfile.Walk(j(root, "nope"))) == []
    errors = []
    assert list(tf.io.gfile.walk(j(root, "nope"), onerror=errors.append)) == []
    assert isinstance(errors[0], tf.errors.NotFoundError)


def test_glob(root):
    for name in ("a.txt", "b.txt", "c.csv"):
        _write(j(root, name), name)
    tf.gfile.MakeDirs(j(root, "x", "y"))
    assert tf.gfile.Glob(j(root, "*.txt")) == [j(root, "a.txt"), j(root, "b.txt")]
    assert tf.gfile.Glob(j(root, "?.csv")) == [j(root, "c.csv")]
    assert tf.gfile.Glob(j(root, "[a-b].txt")) == [j(root, "a.txt"), j(root, "b.txt")]
    assert tf.gfile.Glob(j(root, "*/*")) == [j(root, "x", "y")]
    assert tf.gfile.Glob(j(root, "zz*")) == []
    assert tf.gfile.Glob(j(root, "zz", "*")) == []
    assert tf.gfile.Glob([j(root, "a*"), j(root, "x")]) == [j(root, "a.txt"), j(root, "x")]
    assert tf.io.gfile.glob(j(root, "c.csv")) == [j(root, "c.csv")]


def test_stat(root):
    p = j(root, "a.txt")
    _write(p, "abc")
    st = tf.gfile.Stat(p)
    assert (st.length, st.is_directory, type(st.mtime_nsec)) == (3, False, int)
    assert st.mtime_nsec > 0
    assert tf.io.gfile.stat(root).is_directory
    with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
        tf.gfile.Stat(j(root, "nope"))


def test_copy_rename_remove(root):
    p, q = j(root, "a.txt"), j(root, "b.txt")
    _write(p, "abc")
    tf.gfile.Copy(p, q)
    assert tf.gfile.GFile(q).read() == "abc"
    with pytest.raises(tf.errors.AlreadyExistsError, match="^file already exists$"):
        tf.gfile.Copy(p, q)
    _write(p, "new")
    tf.gfile.Copy(p, q, overwrite=True)
    assert tf.gfile.GFile(q).read() == "new"
    with pytest.raises(tf.errors.NotFoundError, match="a.txtn; No such file or directory"):
        tf.gfile.Copy(p + "n", q + "n")
    tf.gfile.MkDir(j(root, "x"))
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        tf.io.gfile.copy(p, j(root, "x"), overwrite=True)
    _write(q, "from b")
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        tf.gfile.Rename(q, p)
    tf.gfile.Rename(q, p, overwrite=True)
    assert tf.gfile.GFile(p).read() == "from b" and not tf.gfile.Exists(q)
    with pytest.raises(tf.errors.NotFoundError, match="b.txt; No such file or directory"):
        tf.gfile.Rename(q, p + "z")
    _write(j(root, "x", "in"), "in")
    tf.gfile.Rename(j(root, "x"), j(root, "x2"))
    assert tf.gfile.GFile(j(root, "x2", "in")).read() == "in"
    with pytest.raises(tf.errors.NotFoundError, match="b.txt; No such file or directory"):
        tf.gfile.Remove(q)
    with pytest.raises(tf.errors.FailedPreconditionError, match="x2; Is a directory"):
        tf.io.gfile.remove(j(root, "x2"))
    with pytest.raises(tf.errors.NotFoundError, match="nope not found"):
        tf.gfile.DeleteRecursively(j(root, "nope"))
    tf.gfile.DeleteRecursively(j(root, "x2"))
    assert not tf.gfile.Exists(j(root, "x2")) and not tf.gfile.Exists(j(root, "x2", "in"))
    tf.io.gfile.rmtree(p)  # a file is deleted too
    assert not tf.gfile.Exists(p)


def test_copy_across_file_systems(tmp_path):
    mem = "memory://gfile_cross_%s" % uuid.uuid4().hex
    tf.io.gfile.makedirs(mem)
    local = str(tmp_path / "l.bin")
    _write(local, b"\x00\x01data", "wb")
    tf.io.gfile.copy(local, mem + "/m.bin")
    assert tf.io.gfile.GFile(mem + "/m.bin", "rb").read() == b"\x00\x01data"
    tf.io.gfile.rename(mem + "/m.bin", str(tmp_path / "back.bin"))
    assert open(tmp_path / "back.bin", "rb").read() == b"\x00\x01data"
    assert not tf.io.gfile.exists(mem + "/m.bin")
    tf.io.gfile.rmtree(mem)


def test_join_schemes_and_paths(tmp_path):
    assert tf.io.gfile.join("a", "b", "c") == os.path.join("a", "b", "c")
    assert tf.io.gfile.join("gs://b", "c") == "gs://b/c"
    assert tf.io.gfile.join("a/", "/b") == "/b"
    schemes = tf.io.gfile.get_registered_schemes()
    assert "" in schemes and "file" in schemes and "memory" in schemes
    p = tmp_path / "p.txt"
    _write(p, "pathlike")  # os.PathLike and bytes names
    assert tf.gfile.Exists(str(p).encode()) and tf.gfile.GFile(p).read() == "pathlike"
    assert tf.gfile.GFile("file://" + str(p)).read() == "pathlike"
    assert tf.gfile.Glob("file://" + str(tmp_path / "*.txt")) == ["file://" + str(p)]
    with pytest.raises(tf.errors.UnimplementedError, match="File system scheme 'foo' not implemented"):
        tf.io.gfile.exists("foo://x")


def test_atomic_write_keeps_old_file_until_complete(tmp_path, monkeypatch):
    p = str(tmp_path / "ckpt")
    pgfile.atomic_write(p, b"old")

    def failing_rename(*args, **kwargs):
        raise tf.errors.UnknownError(None, None, "disk full")

    monkeypatch.setattr(pgfile, "rename", failing_rename)
    with pytest.raises(tf.errors.UnknownError):
        pgfile.atomic_write(p, b"new")
    monkeypatch.undo()
    assert open(p, "rb").read() == b"old"
    assert os.listdir(tmp_path) == ["ckpt"]  # the temporary file is removed
    pgfile.atomic_write(p, "new")
    assert open(p, "rb").read() == b"new"
