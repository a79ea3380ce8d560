"""Error paths of the ops TF's savers and gradient graphs use (their values: the op table,
tests/ops/op_table/rows_checkpoint_io.py). Messages as TF 2.21 gives them."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops import array_shape_ops, io_ops, string_ops


def test_broadcast_gradient_args_rejects_non_vectors_and_incompatible_shapes():
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        array_shape_ops.broadcast_gradient_args([[1]], [4])
    with pytest.raises(TypeError, match="must both be int32 or int64"):
        array_shape_ops.broadcast_gradient_args(tf.constant([1.0]), tf.constant([1.0]))
    p = tf.placeholder(tf.int32)
    r0, _ = array_shape_ops.broadcast_gradient_args(p, [4])
    assert r0.shape.as_list() == [None]
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"^In\[0\] must be a vector.\[1,1\]"):
            sess.run(r0, {p: [[1]]})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2,3\] vs. \[4\]"):
            sess.run(r0, {p: [2, 3]})


def test_sharded_filename_needs_scalars():
    b, s = tf.placeholder(tf.string), tf.placeholder(tf.int32)
    name = io_ops.sharded_filename(b, s, 3)
    with tf.Session() as sess:
        assert sess.run(name, {b: b"\xffa", s: 2}) == b"\xffa-00002-of-00003"
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"basename must be a scalar, got shape \[2\]"):
            sess.run(name, {b: ["a", "b"], s: 1})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"shard must be a scalar, got shape \[1\]"):
            sess.run(name, {b: "x", s: [1]})


def test_string_join_shape_errors():
    with pytest.raises(TypeError, match=r"Tensors in list passed to 'inputs' of 'StringJoin' Op have types "
                                        r"\[int32\] that do not match expected type string."):
        string_ops.string_join([tf.constant(1)])
    with pytest.raises(ValueError):
        string_ops.string_join([tf.placeholder(tf.string, [2]), tf.placeholder(tf.string, [3])])
    x, y = tf.placeholder(tf.string, [None]), tf.placeholder(tf.string)
    j = string_ops.string_join([x, "-", y])
    assert j.shape.as_list() == [None]
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input shapes do not match: \[2\] vs. \[1,2\]"):
            sess.run(j, {x: ["a", "bb"], y: [["c", "d"]]})


def test_static_regex_full_match_dot_matches_no_newline_as_in_re2():
    with tf.Session() as sess:
        got = sess.run(string_ops.static_regex_full_match(np.array([b"s3://x", b"s3://\n"], object), "^s3://.*"))
    assert got.tolist() == [True, False]
    with pytest.raises(TypeError, match="'StaticRegexFullMatch' Op has type int32"):
        string_ops.static_regex_full_match(tf.constant(1), "a")
