"""`tf.data.experimental.SqlDataset`, `RandomDataset`, `SHARD_HINT`, the TF 1.x structure constructors
and `map_and_batch_with_legacy_function`. SqlDataset values and messages were recorded from
TensorFlow 2.21 (`tf.compat.v1`) on the same SQLite database."""

import sqlite3

import numpy as np
import pytest

import tensorweave as tf
from tests.data import iterator_run

E = tf.data.experimental


def run(ds, n=50):
    return iterator_run.run(ds, n)


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "x.db")
    c = sqlite3.connect(path)
    c.execute("create table t (a integer, b text, c real)")
    c.executemany("insert into t values (?,?,?)", [(1, "x", 1.5), (2, "y", None), (3, None, 2.5)])
    c.commit()
    c.close()
    return path


def test_sql_dataset_values(db):
    got = run(E.SqlDataset("sqlite", db, "select a, b, c from t", (tf.int32, tf.string, tf.float64)))
    assert got == [(1, b"x", 1.5), (2, b"y", 0.0), (3, b"", 2.5)]
    assert [type(v) for v in got[0]] == [np.int32, bytes, np.float64]
    assert run(E.SqlDataset("sqlite", db, "select a from t where a > 1", (tf.int64,))) == [(2,), (3,)]
    assert run(E.SqlDataset("sqlite", db, "select a, b from t", (tf.int64, tf.int64))) == [(1, 0), (2, 0), (3, 0)]
    got = run(E.SqlDataset("sqlite", db, "select a, c from t", (tf.bool, tf.int8)))
    assert got == [(True, 1), (True, 0), (True, 2)] and got[0][1].dtype == np.int8
    assert run(E.SqlDataset("sqlite", db, "select c, a from t", (tf.string, tf.string)))[0] == (b"1.5", b"1")
    ds = E.SqlDataset("sqlite", db, "select a from t", (tf.int64,))
    assert [s.as_list() for s in ds.output_shapes] == [[]]
    assert E.SqlDataset("sqlite", db, "select a from t", tf.int64).output_types == tf.int64


def test_sql_dataset_errors(db):
    def err(ds):
        return iterator_run.err(ds, 50)
    assert err(E.SqlDataset("sqlite", db, "select a from t", (tf.int64, tf.int64))) == (
        "InvalidArgumentError", "The number of columns in query (1) must match the number of elements in output_types "
        "(2).")
    assert err(E.SqlDataset("sqlite", db, "select zz from t", (tf.int64,))) == (
        "UnknownError", "Prepare() failed: [1] no such column: zz: select zz from t")
    assert err(E.SqlDataset("sqlite", db + "nope", "select a from t", (tf.int64,))) == (
        "UnknownError", "Prepare() failed: [1] no such table: t: select a from t")
    cls, msg = err(E.SqlDataset("sqlite", db, "select c from t", (tf.float32,)))
    assert cls == "InvalidArgumentError" and msg.startswith("Each element of `output_types_` must be one of: DT_STRING")
    assert err(E.SqlDataset("mysql", db, "select a from t", (tf.int64,))) == (
        "InvalidArgumentError", "The database type, mysql, is not supported.")


def test_random_dataset():
    ds = E.RandomDataset(seed=3)
    assert (ds.output_shapes.as_list(), ds.output_types) == ([], tf.int64)
    a, b = run(ds.take(200), 300), run(E.RandomDataset(seed=3).take(200), 300)
    assert a == b and len(set(a)) == 200 and min(a) < 0 < max(a)
    assert run(E.RandomDataset(seed=4).take(5)) != a[:5]


def test_names():
    assert E.SHARD_HINT == -1
    assert E.TensorStructure(tf.float32, [2]) == tf.TensorSpec([2], tf.float32)
    s = E.SparseTensorStructure(tf.int64, [None, 3])
    assert (s.dtype, s.shape.as_list()) == (tf.int64, [None, 3])
    assert E.DatasetStructure is type(tf.data.Dataset.range(3).window(2).element_spec)
    ds = tf.data.Dataset.range(10).apply(E.map_and_batch_with_legacy_function(lambda x: x * 2, 4))
    assert [x.tolist() for x in run(ds)] == [[0, 2, 4, 6], [8, 10, 12, 14], [16, 18]]
