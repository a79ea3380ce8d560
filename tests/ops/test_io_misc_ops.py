"""tf.io.decode_compressed (against TensorFlow's results in tests/data/misc_io_tf.json, made by
tests/data/make_misc_io_tf.py), tf.io.decode_json_example and tf.timestamp."""

import base64
import gzip
import json
import os
import time
import zlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

_DATA = json.load(open(os.path.join(os.path.dirname(__file__), "..", "data", "misc_io_tf.json")))


@pytest.mark.parametrize("name", sorted(_DATA["compressed"]))
def test_decode_compressed_against_tensorflow(name):
    case = _DATA["compressed"][name]
    data = np.array([base64.b64decode(b) for b in case["input"]], object).reshape(case["shape"])
    with tf.Graph().as_default():
        t = tf.io.decode_compressed(data, compression_type=case["type"])
        assert t.shape.as_list() == case["shape"]
        with tf.Session() as sess:
            if "error" in case:
                with pytest.raises(getattr(tf.errors, case["error"])) as info:
                    sess.run(t)
                assert info.value.message.splitlines()[0] == case["message"]
                return
            out = sess.run(t)
    assert out.shape == tuple(case["shape"])
    assert [bytes(b) for b in out.reshape(-1)] == [base64.b64decode(b) for b in case["output"]]


def test_decode_compressed_types_and_shapes():
    with tf.Graph().as_default():
        assert tf.decode_compressed(tf.placeholder(tf.string)).shape.ndims is None
        assert tf.decode_compressed(tf.placeholder(tf.string, [None, 2])).shape.as_list() == [None, 2]
        with pytest.raises(TypeError, match="Expected string passed to parameter 'bytes' of op 'DecodeCompressed', "
                                            "got \\[1, 2\\] of type 'list' instead. Error: Expected string, but got 1 "
                                            "of type 'int'."):
            tf.io.decode_compressed([1, 2])
        with pytest.raises(TypeError, match="Input 'bytes' of 'DecodeCompressed' Op has type int32"):
            tf.io.decode_compressed(tf.constant([1, 2]))
        t = tf.io.decode_compressed([b"x"], compression_type="LZ4")  # TF: checked when the op runs
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="Only ZLIB, GZIP or NONE are supported"):
                sess.run(t)
        assert tf.gradients(tf.strings.length(t), []) == []


def test_decode_compressed_eager_and_large():
    payload = np.random.RandomState(0).bytes(200000)
    with context.eager_mode():
        out = tf.io.decode_compressed([gzip.compress(payload), zlib.compress(payload)[:0] + gzip.compress(b"")],
                                      compression_type="GZIP")
        assert [bytes(b) for b in out.numpy()] == [payload, b""]


_JS = ('{"features": {"feature": {"c": {"floatList": {"value": [1.5]}}, "b": {"bytesList": {"value": ["eHkA"]}}, '
       '"a": {"int64List": {"value": ["1", "2"]}}}}}')
_J2 = '{"features": {"feature": {"a": {"int64List": {"value": ["1", 2]}}, "z": {"floatList": {"value": ' \
      '[0.1, "NaN", "Infinity"]}}}}}'


def test_decode_json_example_values():
    # TensorFlow 2.21 decodes these to Examples with these fields (its bytes order map entries by hash).
    with tf.Graph().as_default():
        t = tf.io.decode_json_example([_JS, _J2, "{}", '{"features":{"feature":{"a":{"int64_list":{"value":[1]}}}}}'])
        assert t.shape.as_list() == [4] and t.dtype == tf.string
        with tf.Session() as sess:
            out = sess.run(t)
    e0 = tf.train.Example.FromString(out[0]).features.feature
    assert list(e0["a"].int64_list.value) == [1, 2]
    assert list(e0["b"].bytes_list.value) == [b"xy\x00"]
    assert list(e0["c"].float_list.value) == [1.5]
    z = list(tf.train.Example.FromString(out[1]).features.feature["z"].float_list.value)
    assert z[0] == np.float32(0.1) and np.isnan(z[1]) and z[2] == np.inf
    assert out[2] == b""  # TF: an empty Example serializes to nothing
    assert list(tf.train.Example.FromString(out[3]).features.feature["a"].int64_list.value) == [1]
    # parse_example reads the result.
    with tf.Graph().as_default():
        parsed = tf.parse_example(tf.io.decode_json_example([_JS, _J2]),
                                  {"a": tf.FixedLenFeature([2], tf.int64)})
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(parsed["a"]), [[1, 2], [1, 2]])


@pytest.mark.parametrize("bad", ['{"features": 1}', "not json", '{"foo": 1}', "[]",
                                 '{"features": {"feature": {"a": {"int64List": {"value": ["x"]}}}}}'])
def test_decode_json_example_errors(bad):
    with tf.Graph().as_default():
        t = tf.io.decode_json_example(bad)
        assert t.shape.as_list() == []
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="^Error while parsing JSON: "):
                sess.run(t)


def test_decode_json_example_types():
    with tf.Graph().as_default():
        assert tf.decode_json_example(tf.placeholder(tf.string, [2, None])).shape.as_list() == [2, None]
        with pytest.raises(TypeError, match="Expected string passed to parameter 'json_examples' of op "
                                            "'DecodeJSONExample', got 3 of type 'int' instead."):
            tf.decode_json_example(3)
    with context.eager_mode():
        out = tf.io.decode_json_example(_J2)
        assert list(tf.train.Example.FromString(out.numpy()).features.feature["a"].int64_list.value) == [1, 2]


def test_timestamp():
    with tf.Graph().as_default():
        ts = tf.timestamp()
        assert ts.op.type == "Timestamp" and ts.dtype == tf.float64 and ts.shape.as_list() == []
        assert ts.op.name == "Timestamp"
        before = time.time()
        with tf.Session() as sess:
            a = sess.run(ts)
            time.sleep(0.01)
            b = sess.run(ts)
        after = time.time()
        assert isinstance(a, np.float64)
        assert before - 1e-3 <= a < b <= after + 1e-3  # stateful: read again on each run, never folded
        assert tf.gradients(ts * 2.0, [ts])[0] is not None
    with context.eager_mode():
        t = tf.timestamp().numpy()
        assert abs(t - time.time()) < 5.0
