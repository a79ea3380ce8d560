"""Tests for tensorweave.keras.utils."""

import hashlib
import io
import os
import sys
import tarfile
import zipfile

import numpy as np
import pytest

from tensorweave.keras import utils
from tensorweave.keras.utils import data_utils, generic_utils

# ---------------------------------------------------------------- np_utils


def test_to_categorical_basic():
    out = utils.to_categorical([0, 2, 1])
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, np.eye(3)[[0, 2, 1]])


def test_to_categorical_trailing_one_dim_dropped():
    y = np.array([[0], [1], [3]])
    out = utils.to_categorical(y, num_classes=5)
    assert out.shape == (3, 5)
    np.testing.assert_array_equal(out.argmax(-1), [0, 1, 3])


def test_to_categorical_nd_shapes():
    y = np.array([[0, 1], [2, 0]])
    assert utils.to_categorical(y).shape == (2, 2, 3)
    y = np.zeros((2, 3, 1), dtype=int)
    assert utils.to_categorical(y, 4).shape == (2, 3, 4)
    # A lone (1,) vector keeps its dim (len(shape) == 1).
    assert utils.to_categorical([2]).shape == (1, 3)
    assert utils.to_categorical([1], dtype="int32").dtype == np.int32


def test_normalize():
    x = np.array([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(utils.normalize(x), [[0.6, 0.8], [0.0, 0.0]])
    # Keras 2 quirk: a 1-D input comes back with a leading axis of size 1.
    np.testing.assert_allclose(utils.normalize(np.array([1.0, 3.0]), order=1), [[0.25, 0.75]])
    np.testing.assert_allclose(utils.normalize(x, axis=0), [[1.0, 1.0], [0.0, 0.0]])


# ---------------------------------------------------------------- Sequence


class _Seq(utils.Sequence):
    def __init__(self):
        self.epochs = 0

    def __getitem__(self, index):
        return index * 10

    def __len__(self):
        return 3

    def on_epoch_end(self):
        self.epochs += 1


def test_sequence():
    s = _Seq()
    assert list(s) == [0, 10, 20]
    s.on_epoch_end()
    assert s.epochs == 1
    base = utils.Sequence()
    with pytest.raises(NotImplementedError):
        len(base)
    with pytest.raises(NotImplementedError):
        base[0]
    assert base.on_epoch_end() is None


# ---------------------------------------------------------------- get_file


def _md5(path):
    return hashlib.md5(open(path, "rb").read()).hexdigest()


def _sha256(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def test_get_file_cached(tmp_path):
    ddir = tmp_path / "datasets"
    ddir.mkdir()
    f = ddir / "data.bin"
    f.write_bytes(b"hello")
    # Origin is unreachable: a cache hit must not touch it.
    origin = "file:///nonexistent/data.bin"
    path = utils.get_file("data.bin", origin, cache_dir=str(tmp_path))
    assert path == str(f)
    assert utils.get_file("data.bin", origin, cache_dir=str(tmp_path), file_hash=_sha256(f)) == str(f)
    assert utils.get_file("data.bin", origin, cache_dir=str(tmp_path), md5_hash=_md5(f)) == str(f)
    assert utils.get_file("data.bin", origin, cache_dir=str(tmp_path), file_hash=_md5(f), hash_algorithm="md5") == str(
        f
    )


def test_get_file_default_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".keras" / "datasets").mkdir(parents=True)
    (tmp_path / ".keras" / "datasets" / "a.txt").write_text("x")
    path = utils.get_file("a.txt", "file:///nonexistent/a.txt")
    assert path == os.path.join(str(tmp_path), ".keras", "datasets", "a.txt")


def test_validate_file(tmp_path):
    f = tmp_path / "f"
    f.write_bytes(b"abc")
    assert utils.validate_file(str(f), _sha256(f))
    assert utils.validate_file(str(f), _md5(f))
    assert utils.validate_file(str(f), _md5(f), algorithm="md5")
    assert not utils.validate_file(str(f), "0" * 64)
    assert not utils.validate_file(str(f), _md5(f), algorithm="sha256")


def test_get_file_download_progress(tmp_path, capsys):
    src = tmp_path / "big.bin"
    src.write_bytes(b"z" * 20000)
    utils.get_file("big.bin", src.as_uri(), cache_dir=str(tmp_path))
    out = capsys.readouterr().out
    assert "20000/20000 [==============================]" in out
    assert "24576/" not in out


def test_get_file_fetch_failure(tmp_path, capsys):
    with pytest.raises(Exception, match="URL fetch failure on file:///nonex"):
        utils.get_file("missing.bin", "file:///nonexistent/missing.bin", cache_dir=str(tmp_path))
    assert not (tmp_path / "datasets" / "missing.bin").exists()
    assert "Downloading data from" in capsys.readouterr().out


def test_get_file_bad_hash_redownloads_and_fails(tmp_path, capsys):
    ddir = tmp_path / "datasets"
    ddir.mkdir()
    (ddir / "x.bin").write_bytes(b"old")
    with pytest.raises(Exception, match="URL fetch failure"):
        utils.get_file("x.bin", "file:///nonexistent/x.bin", cache_dir=str(tmp_path), file_hash="0" * 32)
    assert "file hash does not match" in capsys.readouterr().out


def test_get_file_download_local_and_hash(tmp_path, capsys):
    src = tmp_path / "src.bin"
    src.write_bytes(b"payload" * 100)
    cache = tmp_path / "cache"
    cache.mkdir()
    path = utils.get_file("got.bin", src.as_uri(), cache_dir=str(cache), file_hash=_sha256(src))
    assert open(path, "rb").read() == src.read_bytes()
    with pytest.raises(ValueError, match="Incomplete or corrupted file"):
        utils.get_file("bad.bin", src.as_uri(), cache_dir=str(cache), file_hash="1" * 64)
    # fname may be derived from the origin.
    path = utils.get_file(None, src.as_uri(), cache_dir=str(cache))
    assert os.path.basename(path) == "src.bin"
    capsys.readouterr()


def test_get_file_extract_tar_and_zip(tmp_path, capsys):
    content = tmp_path / "inner.txt"
    content.write_text("inside")
    tar_path = tmp_path / "arch.tar.gz"
    with tarfile.open(tar_path, "w:gz") as t:
        t.add(content, arcname="folder/inner.txt")
    zip_path = tmp_path / "arch.zip"
    with zipfile.ZipFile(zip_path, "w") as z:
        z.write(content, arcname="zfolder/inner.txt")
    cache = tmp_path / "cache"
    cache.mkdir()
    p = utils.get_file("arch.tar.gz", tar_path.as_uri(), cache_dir=str(cache), extract=True)
    assert p.endswith("arch.tar.gz")
    assert (cache / "datasets" / "folder" / "inner.txt").read_text() == "inside"
    utils.get_file("arch.zip", zip_path.as_uri(), cache_dir=str(cache), extract=True, cache_subdir="z")
    assert (cache / "z" / "zfolder" / "inner.txt").read_text() == "inside"
    # untar: returns the extracted folder path next to the .tar.gz.
    p = utils.get_file("folder", tar_path.as_uri(), cache_dir=str(cache), untar=True, cache_subdir="u")
    assert p == str(cache / "u" / "folder")
    assert os.path.isfile(os.path.join(p, "inner.txt"))
    capsys.readouterr()


def test_get_file_refuses_zip_traversal(tmp_path, capsys):
    zip_path = tmp_path / "evil.zip"
    with zipfile.ZipFile(zip_path, "w") as z:
        z.writestr("../escaped.txt", "x")
    (tmp_path / "c").mkdir()
    with pytest.raises(ValueError, match="outside"):
        utils.get_file("evil.zip", zip_path.as_uri(), cache_dir=str(tmp_path / "c"), extract=True)
    assert not (tmp_path / "c" / "escaped.txt").exists()
    capsys.readouterr()


# ---------------------------------------------------------------- objects


def test_custom_object_scope():
    def fn():
        pass

    assert "my_fn" not in utils.get_custom_objects()
    with utils.custom_object_scope({"my_fn": fn}):
        assert utils.get_custom_objects()["my_fn"] is fn
        assert utils.deserialize_keras_object("my_fn") is fn
    assert "my_fn" not in utils.get_custom_objects()
    with utils.CustomObjectScope({"a": 1}, {"b": 2}) as scope:
        assert isinstance(scope, utils.CustomObjectScope)
        assert utils.get_custom_objects()["b"] == 2
    assert "a" not in utils.get_custom_objects()


class _Thing(object):
    def __init__(self, units=1):
        self.units = units

    def get_config(self):
        return {"units": self.units}


class _WithFromConfig(_Thing):
    @classmethod
    def from_config(cls, config, custom_objects=None):
        obj = cls(**config)
        obj.custom = custom_objects
        return obj


def test_serialize_deserialize():
    def act(x):
        return x

    assert utils.serialize_keras_object(None) is None
    assert utils.serialize_keras_object(act) == "act"
    cfg = utils.serialize_keras_object(_Thing(3))
    assert cfg == {"class_name": "_Thing", "config": {"units": 3}}
    with pytest.raises(ValueError, match="Cannot serialize"):
        utils.serialize_keras_object(3)

    obj = utils.deserialize_keras_object(cfg, module_objects={"_Thing": _Thing})
    assert isinstance(obj, _Thing) and obj.units == 3
    obj = utils.deserialize_keras_object(
        {"class_name": "_WithFromConfig", "config": {"units": 2}},
        custom_objects={"_WithFromConfig": _WithFromConfig, "k": 1},
    )
    assert obj.units == 2 and obj.custom["k"] == 1
    assert utils.deserialize_keras_object(None) is None
    assert utils.deserialize_keras_object("act", {"act": act}) is act
    assert isinstance(utils.deserialize_keras_object("T", custom_objects={"T": _Thing}), _Thing)


def test_deserialize_errors():
    with pytest.raises(ValueError) as e:
        utils.deserialize_keras_object("nope", {}, printable_module_name="layer")
    assert str(e.value) == "Unknown layer:nope"
    with pytest.raises(ValueError) as e:
        utils.deserialize_keras_object({"class_name": "Nope", "config": {}}, {}, printable_module_name="layer")
    assert str(e.value) == "Unknown layer: Nope"
    with pytest.raises(ValueError, match="Improper config format"):
        utils.deserialize_keras_object({"class_name": "X"})
    with pytest.raises(ValueError, match="Could not interpret serialized"):
        utils.deserialize_keras_object(3)


# ---------------------------------------------------------------- Progbar


class _Clock(object):
    def __init__(self, times):
        self.times = list(times)

    def __call__(self):
        return self.times.pop(0)


def _run_progbar(monkeypatch, times, ctor, calls, dynamic=False):
    monkeypatch.setattr(generic_utils.time, "time", _Clock(times))
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    bar = generic_utils.Progbar(*ctor[0], **ctor[1])
    bar._dynamic_display = dynamic
    for fn, args in calls:
        getattr(bar, fn)(*args)
    monkeypatch.undo()
    return buf.getvalue()


def test_progbar_verbose1(monkeypatch):
    out = _run_progbar(
        monkeypatch,
        [0.0, 2.0, 8.0],
        ((4,), {"width": 10}),
        [("update", (1, [("loss", 0.5)])), ("update", (4, [("loss", 1.0)]))],
    )
    assert out == ("\n1/4 [=>........] - ETA: 6s - loss: 0.5000\n4/4 [==========] - 8s 2s/step - loss: 0.8750\n")


def test_progbar_dynamic_padding_and_stateful(monkeypatch):
    out = _run_progbar(
        monkeypatch,
        [0.0, 1.0, 1.5],
        ((2,), {"width": 4, "stateful_metrics": ["acc"]}),
        [("update", (1, [("acc", 0.25), ("l", 1e-5)])), ("add", (1, [("acc", 0.75), ("l", 3e-5)]))],
        dynamic=True,
    )
    first = "1/2 [=>..] - ETA: 1s - acc: 0.25 - l: 1.0000e-05"
    second = "2/2 [====] - 2s 750ms/step - acc: 0.75 - l: 2.0000e-05"
    pad = " " * max(0, len(first) - len(second))
    assert out == "\r" + first + "\b" * len(first) + "\r" + second + pad + "\n"


def test_progbar_unknown_target_interval_and_verbose2(monkeypatch):
    out = _run_progbar(monkeypatch, [0.0, 0.01, 5.0, 5.0], ((None,), {}), [("update", (3,)), ("update", (10,))])
    # First update is within the 0.05 s interval but target is None, so it
    # still prints (as Keras 2 does).
    assert out == ("\n      3/Unknown - 0s 3ms/step\n     10/Unknown - 5s 500ms/step")
    # Updates closer than `interval` (0.05 s) to the last one are skipped.
    out = _run_progbar(
        monkeypatch, [0.0, 1.0, 1.02, 2.0], ((5,), {}), [("update", (1,)), ("update", (2,)), ("update", (3,))]
    )
    assert out == ("\n1/5 [=====>........................] - ETA: 4s\n3/5 [=================>............] - ETA: 1s")
    out = _run_progbar(
        monkeypatch,
        [0.0, 1.0, 3.0],
        ((20,), {"verbose": 2}),
        [("update", (10, [("acc", 0.5)])), ("update", (20, [("acc", 0.0)]))],
    )
    assert out == "20/20 - 3s - acc: 0.2500\n"
    out = _run_progbar(monkeypatch, [0.0, 1.0], ((2,), {"verbose": 0}), [("update", (2,))])
    assert out == ""


# ---------------------------------------------------------------- helpers


def test_generic_helpers():
    def f(a, b=1, *, c=2):
        pass

    def g(a, **kwargs):
        pass

    assert generic_utils.has_arg(f, "b") and generic_utils.has_arg(f, "c")
    assert not generic_utils.has_arg(g, "z")
    assert generic_utils.has_arg(g, "z", accept_all=True)
    assert generic_utils.make_batches(5, 2) == [(0, 2), (2, 4), (4, 5)]
    x = np.arange(6)
    assert generic_utils.slice_arrays(x, 1, 3).tolist() == [1, 2]
    out = generic_utils.slice_arrays([x, None], np.array([0, 5]))
    assert out[0].tolist() == [0, 5] and out[1] is None
    assert generic_utils.slice_arrays(None) == [None]
    with pytest.raises(ValueError):
        generic_utils.slice_arrays(x, [0], 1)
    assert generic_utils.to_list(3) == [3]
    assert generic_utils.to_list([3]) == [3]
    assert generic_utils.to_snake_case("Conv2DTranspose") == "conv2d_transpose"
    assert generic_utils.to_snake_case("BatchNormalization") == ("batch_normalization")
    assert generic_utils.to_snake_case("_Private") == "private__private"


def test_tar_traversal_refused(tmp_path):
    evil = tmp_path / "evil.tar"
    with tarfile.open(evil, "w") as t:
        info = tarfile.TarInfo("../escaped.txt")
        info.size = 1
        t.addfile(info, io.BytesIO(b"x"))
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(Exception):
        data_utils._extract_archive(str(evil), str(out))
    with tarfile.open(evil) as t, pytest.raises(ValueError, match="outside"):
        data_utils._check_tar_members(t, str(out))
    assert not (tmp_path / "escaped.txt").exists()
