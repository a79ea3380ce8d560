"""tf.io.parse_single_sequence_example / parse_sequence_example (op ParseSequenceExampleV2) against
TensorFlow's values, static shapes and error messages recorded in tests/data/misc_io_tf.json (by
tests/data/make_misc_io_tf.py)."""

import base64
import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tests.data import misc_io_cases as cases

_DATA = json.load(open(os.path.join(os.path.dirname(__file__), "..", "data", "misc_io_tf.json")))
_PROTOS = {k: base64.b64decode(v) for k, v in _DATA["protos"].items()}
def _check_value(got, want):
    if "indices" in want:
        np.testing.assert_array_equal(np.asarray(got.indices).reshape(-1), np.array(want["indices"]).reshape(-1))
        assert np.asarray(got.indices).shape[0] == len(want["indices"])
        np.testing.assert_array_equal(got.dense_shape, want["dense_shape"])
        return _check_value(got.values, want["values"])
    got = np.asarray(got)
    assert list(got.shape) == want["shape"]
    if want["dtype"] == "string":
        assert [bytes(b).decode() for b in got.reshape(-1)] == want["value"]
    else:
        assert got.dtype.name == want["dtype"]
        np.testing.assert_array_equal(got.reshape(-1), np.array(want["value"], got.dtype))


@pytest.mark.parametrize("case", _DATA["cases"], ids=[c[0] for c in _DATA["cases"]])
def test_against_tensorflow(case):
    name, protos, ctx, seq, names = case
    want = _DATA["sequence"][name]
    with tf.Graph().as_default():
        result = cases.parse(tf, _PROTOS, protos, ctx, seq, names)
        with tf.Session() as sess:
            if "error" in want:
                with pytest.raises(getattr(tf.errors, want["error"])) as info:
                    sess.run(result)
                assert info.value.message.splitlines()[0] == want["message"]
                return
            values = sess.run(result)
    assert len(result) == len(want["values"])
    for d_static, d_want_static, d_vals, d_want in zip(result, want["static"], values, want["values"]):
        assert sorted(d_vals) == sorted(d_want)
        assert {k: cases.static_shape(tf, t) for k, t in d_static.items()} == d_want_static
        for key in d_want:
            _check_value(d_vals[key], d_want[key])


@pytest.mark.parametrize("case", _DATA["build_errors"], ids=[c[0] for c in _DATA["build_errors"]])
def test_build_errors_against_tensorflow(case):
    name, single, ctx, seq = case
    want = _DATA["build"][name]
    fn = tf.io.parse_single_sequence_example if single else tf.io.parse_sequence_example
    with tf.Graph().as_default():
        with pytest.raises({"ValueError": ValueError, "TypeError": TypeError}[want["error"]]) as info:
            fn(_PROTOS["s1"] if single else [_PROTOS["s1"]], cases.features(tf, ctx), cases.features(tf, seq))
    assert str(info.value) == want["message"]


def test_eager_matches_graph():
    seq = {"tok": tf.FixedLenSequenceFeature([], tf.int64), "var": tf.VarLenFeature(tf.string)}
    ctx = {"len": tf.FixedLenFeature([], tf.int64)}
    with tf.Graph().as_default():
        c, f, n = tf.io.parse_sequence_example([_PROTOS["s1"], _PROTOS["s2"]], ctx, seq)
        with tf.Session() as sess:
            graph = sess.run((c, f, n))
    from tensorweave.eager import context
    with context.eager_mode():
        c, f, n = tf.io.parse_sequence_example([_PROTOS["s1"], _PROTOS["s2"]], ctx, seq)
        np.testing.assert_array_equal(c["len"].numpy(), graph[0]["len"])
        np.testing.assert_array_equal(f["tok"].numpy(), graph[1]["tok"])
        np.testing.assert_array_equal(f["var"].indices.numpy(), graph[1]["var"].indices)
        np.testing.assert_array_equal(n["tok"].numpy(), [3, 1])


def test_placeholder_shapes_and_scalar_check():
    seq = {"tok": tf.FixedLenSequenceFeature([], tf.int64)}
    with tf.Graph().as_default():
        ph = tf.placeholder(tf.string)
        c, f = tf.parse_single_sequence_example(ph, None, seq)
        assert f["tok"].shape.as_list() == [None]
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(f["tok"], {ph: _PROTOS["s4"]}), [4, 5])
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(f["tok"], {ph: [_PROTOS["s4"]]})
        with pytest.raises(ValueError, match="Input serialized must be a scalar"):
            tf.parse_single_sequence_example([_PROTOS["s1"]], None, seq)
        vec = tf.placeholder(tf.string)
        _, f2, n2 = tf.io.parse_sequence_example(vec, None, seq)
        assert f2["tok"].shape.ndims is None
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="scalar or vector, got shape: \\[1,2\\]"):
                sess.run(f2["tok"], {vec: [[_PROTOS["s1"], _PROTOS["s2"]]]})


def test_graph_op_type_and_no_gradient():
    with tf.Graph().as_default() as g:
        c, _ = tf.parse_single_sequence_example(_PROTOS["s1"], {"len": tf.FixedLenFeature([], tf.int64)})
        assert "ParseSequenceExampleV2" in [op.type for op in g.get_operations()]
        assert c["len"].op.name == "ParseSingleSequenceExample/ParseSequenceExample/ParseSequenceExampleV2"
