"""Tests for tensorweave.keras.datasets, on tiny fake cache files.

Expected values were recorded from tf-keras 2.21 loaders run on the same
fake files. No test touches the network: the known-hash check of the real
files is patched out so that the fake cache files are used as they are.
"""

import gzip
import json
import os

import numpy as np
import pytest

from tensorweave.keras import datasets
from tensorweave.keras.datasets import boston_housing, fashion_mnist, imdb, mnist, reuters
from tensorweave.keras.utils import data_utils


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(data_utils, "validate_file", lambda *a, **k: True)
    (tmp_path / "datasets").mkdir()
    return tmp_path


def _obj(seqs):
    out = np.empty(len(seqs), dtype=object)
    for i, s in enumerate(seqs):
        out[i] = s
    return out


def _lists(a):
    return [[int(w) for w in s] for s in a]


def _write_imdb(cache):
    np.savez(
        str(cache / "datasets" / "imdb.npz"),
        x_train=_obj([[1, 2, 3], [4, 5], [6, 7, 8, 9], [10]]),
        y_train=np.array([0, 1, 1, 0]),
        x_test=_obj([[2, 2], [9, 1, 4]]),
        y_test=np.array([1, 0]),
    )


def _write_reuters(cache):
    np.savez(
        str(cache / "datasets" / "reuters.npz"),
        x=_obj([[1, 5], [3, 3, 3], [7], [2, 8, 4, 6], [9, 9]]),
        y=np.array([10, 11, 12, 13, 14]),
    )


def test_package_exports():
    assert datasets.mnist is mnist
    assert datasets.cifar10.load_data.__module__ == "tensorweave.keras.datasets.cifar10"


def test_mnist(cache):
    x_train = np.arange(2 * 28 * 28, dtype=np.uint8).reshape(2, 28, 28)
    np.savez(
        str(cache / "datasets" / "mnist.npz"),
        x_train=x_train,
        y_train=np.array([3, 4], np.uint8),
        x_test=x_train[:1],
        y_test=np.array([7], np.uint8),
    )
    (a, b), (c, d) = mnist.load_data(cache_dir=str(cache))
    np.testing.assert_array_equal(a, x_train)
    assert b.tolist() == [3, 4] and d.tolist() == [7] and c.shape == (1, 28, 28)


def test_mnist_default_home(tmp_path, monkeypatch):
    monkeypatch.setattr(data_utils, "validate_file", lambda *a, **k: True)
    monkeypatch.setenv("HOME", str(tmp_path))
    os.makedirs(str(tmp_path / ".keras" / "datasets"))
    z = np.zeros((1, 28, 28), np.uint8)
    np.savez(
        str(tmp_path / ".keras" / "datasets" / "mnist.npz"),
        x_train=z,
        y_train=np.array([1]),
        x_test=z,
        y_test=np.array([2]),
    )
    (_, b), (_, d) = mnist.load_data()
    assert b.tolist() == [1] and d.tolist() == [2]


def test_boston_housing(cache):
    np.savez(
        str(cache / "datasets" / "boston_housing.npz"),
        x=np.arange(30, dtype=np.float64).reshape(10, 3),
        y=np.arange(10, dtype=np.float64) * 10,
    )
    (a, b), (c, d) = boston_housing.load_data(cache_dir=str(cache), test_split=0.3)
    assert b.tolist() == [90.0, 30.0, 60.0, 10.0, 0.0, 70.0, 40.0]
    assert d.tolist() == [80.0, 20.0, 50.0]
    assert a[:, 0].tolist() == [27.0, 9.0, 18.0, 3.0, 0.0, 21.0, 12.0]
    assert c.shape == (3, 3)
    with pytest.raises(AssertionError):
        boston_housing.load_data(cache_dir=str(cache), test_split=1.0)


def test_fashion_mnist(cache):
    fdir = cache / "datasets" / "fashion-mnist"
    fdir.mkdir()

    def write(name, header, payload):
        with gzip.open(str(fdir / name), "wb") as f:
            f.write(b"\0" * header + bytes(payload))

    imgs = np.arange(2 * 784) % 251
    write("train-labels-idx1-ubyte.gz", 8, [5, 9])
    write("train-images-idx3-ubyte.gz", 16, imgs.tolist())
    write("t10k-labels-idx1-ubyte.gz", 8, [1])
    write("t10k-images-idx3-ubyte.gz", 16, imgs[:784].tolist())
    (a, b), (c, d) = fashion_mnist.load_data(cache_dir=str(cache))
    assert a.shape == (2, 28, 28) and a.dtype == np.uint8
    np.testing.assert_array_equal(a.ravel(), imgs)
    assert b.tolist() == [5, 9] and d.tolist() == [1]
    assert c.shape == (1, 28, 28)


def test_imdb_refuses_pickle_by_default(cache):
    _write_imdb(cache)
    with pytest.raises(ValueError, match="allow_pickle=True"):
        imdb.load_data(cache_dir=str(cache))


def test_imdb_defaults(cache):
    _write_imdb(cache)
    (a, b), (c, d) = imdb.load_data(cache_dir=str(cache), allow_pickle=True)
    assert a.dtype == object
    assert _lists(a) == [[1, 2], [1, 9, 10, 11, 12], [1, 4, 5, 6], [1, 7, 8]]
    assert b.tolist() == [0, 1, 0, 1]
    assert _lists(c) == [[1, 12, 4, 7], [1, 5, 5]]
    assert d.tolist() == [0, 1]


def test_imdb_vocabulary_options(cache):
    _write_imdb(cache)
    (a, b), (c, d) = imdb.load_data(cache_dir=str(cache), allow_pickle=True, num_words=8, skip_top=4, seed=1)
    assert _lists(a) == [[2, 2], [2, 2, 2, 2, 2], [2, 4, 5, 6], [2, 7, 2]]
    assert b.tolist() == [0, 1, 0, 1]
    assert _lists(c) == [[2, 5, 5], [2, 2, 4, 7]]
    assert d.tolist() == [1, 0]
    (a, b), (c, d) = imdb.load_data(
        cache_dir=str(cache), allow_pickle=True, maxlen=4, oov_char=None, start_char=None, index_from=0, num_words=7
    )
    assert _lists(a) == [[], [1, 2, 3], [4, 5]] and b.tolist() == [0, 0, 1]
    assert _lists(c) == [[1, 4], [2, 2]] and d.tolist() == [0, 1]
    with pytest.raises(ValueError, match="no sequence was kept"):
        imdb.load_data(cache_dir=str(cache), allow_pickle=True, maxlen=1)
    with pytest.warns(UserWarning, match="nb_words"):
        (a, _), _ = imdb.load_data(cache_dir=str(cache), allow_pickle=True, nb_words=8, skip_top=4, seed=1)
    assert _lists(a)[3] == [2, 7, 2]
    with pytest.raises(TypeError, match="Unrecognized keyword"):
        imdb.load_data(cache_dir=str(cache), bogus=1)


def test_imdb_rectangular_file_needs_no_pickle(cache):
    np.savez(
        str(cache / "datasets" / "imdb.npz"),
        x_train=np.array([[1, 2], [3, 4]]),
        y_train=np.array([0, 1]),
        x_test=np.array([[5, 6]]),
        y_test=np.array([1]),
    )
    (a, b), (c, d) = imdb.load_data(cache_dir=str(cache), seed=0)
    # RandomState(0) permutes [0, 1] to [1, 0].
    assert _lists(a) == [[1, 6, 7], [1, 4, 5]] and b.tolist() == [1, 0]
    # Keras 2 quirk: num_words defaults to the largest index, which is then
    # itself out of range (w < num_words) and becomes oov_char.
    assert _lists(c) == [[1, 8, 2]] and d.tolist() == [1]


def test_imdb_word_index(cache):
    (cache / "datasets" / "imdb_word_index.json").write_text(json.dumps({"the": 1, "and": 2}))
    assert imdb.get_word_index(cache_dir=str(cache)) == {"the": 1, "and": 2}


def test_reuters(cache):
    _write_reuters(cache)
    with pytest.raises(ValueError, match="allow_pickle=True"):
        reuters.load_data(cache_dir=str(cache))
    (a, b), (c, d) = reuters.load_data(cache_dir=str(cache), allow_pickle=True)
    assert _lists(a) == [[1, 6, 6, 6], [1, 4, 8], [1, 5, 11, 7, 9], [1, 10]]
    assert b.tolist() == [11, 10, 13, 12]
    assert _lists(c) == [[1, 2, 2]] and d.tolist() == [14]
    (a, b), (c, d) = reuters.load_data(
        cache_dir=str(cache),
        allow_pickle=True,
        test_split=0.4,
        maxlen=3,
        seed=7,
        index_from=0,
        start_char=None,
        oov_char=None,
        num_words=8,
    )
    assert _lists(a) == [[1, 5]] and b.tolist() == [10]
    assert _lists(c) == [[7], []] and d.tolist() == [12, 14]


def test_reuters_word_index(cache):
    (cache / "datasets" / "reuters_word_index.json").write_text('{"oil": 3}')
    assert reuters.get_word_index(cache_dir=str(cache)) == {"oil": 3}


def test_missing_cache_file_tries_download(tmp_path, monkeypatch):
    # Without a cached file the loader downloads; here urlretrieve is
    # replaced by an offline failure so that no network is touched.
    import urllib.error
    import urllib.request

    def offline(url, *a, **k):
        raise urllib.error.URLError("offline")

    monkeypatch.setattr(urllib.request, "urlretrieve", offline)
    with pytest.raises(Exception, match="URL fetch failure on https://"):
        mnist.load_data(cache_dir=str(tmp_path / "new"))
    assert not (tmp_path / "new" / "datasets" / "mnist.npz").exists()
