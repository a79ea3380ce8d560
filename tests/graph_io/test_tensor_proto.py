"""tf.make_tensor_proto / tf.make_ndarray with TensorFlow's semantics."""

import numpy as np
import pytest

import tensorweave as tf

pytest.importorskip("tensorboard.compat.proto.tensor_pb2")


def test_numeric_round_trip_and_dtypes():
    p = tf.make_tensor_proto([[1, 2], [3, 4]])
    assert p.dtype == tf.int32.as_datatype_enum and [d.size for d in p.tensor_shape.dim] == [2, 2]
    assert p.tensor_content == np.array([[1, 2], [3, 4]], "<i4").tobytes()
    np.testing.assert_array_equal(tf.make_ndarray(p), [[1, 2], [3, 4]])
    assert tf.make_tensor_proto(1.5).dtype == tf.float32.as_datatype_enum
    assert tf.make_ndarray(tf.make_tensor_proto(np.float64(1.5))).dtype == np.float64
    a = np.arange(6, dtype=np.float16).reshape(2, 3)
    np.testing.assert_array_equal(tf.make_ndarray(tf.make_tensor_proto(a)), a)


def test_strings_and_broadcast_scalar():
    p = tf.make_tensor_proto(["a", b"bc"])
    assert p.dtype == tf.string.as_datatype_enum and list(p.string_val) == [b"a", b"bc"]
    assert list(tf.make_ndarray(p)) == [b"a", b"bc"]
    p = tf.make_tensor_proto(7.0, shape=[2, 3])
    assert list(p.float_val) == [7.0] and not p.tensor_content
    np.testing.assert_array_equal(tf.make_ndarray(p), np.full((2, 3), 7.0, np.float32))
    p = tf.make_tensor_proto([1, 2], dtype=tf.float32, shape=[2, 2], allow_broadcast=True)
    np.testing.assert_array_equal(tf.make_ndarray(p), [[1, 2], [1, 2]])


def test_errors():
    with pytest.raises(ValueError, match="Too many elements provided. Needed at most 2, but received 3"):
        tf.make_tensor_proto([1, 2, 3], shape=[2])
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(3,\), got \(2,\)."):
        tf.make_tensor_proto([1, 2], shape=[3], verify_shape=True)
    with pytest.raises(TypeError, match="Failed to convert object of type"):
        tf.make_tensor_proto(object())
    p = tf.make_tensor_proto(np.zeros(4, np.float32))
    p.tensor_content = p.tensor_content[:-1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="holds 15 bytes of content, not 16"):
        tf.make_ndarray(p)
    p.tensor_shape.dim[0].size = 2 ** 40
    with pytest.raises(tf.errors.InvalidArgumentError, match="claims 1099511627776 elements"):
        tf.make_ndarray(p)
    q = tf.make_tensor_proto(1.0, shape=[1])
    q.float_val.extend([2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="holds 3 values for 1 elements"):
        tf.make_ndarray(q)
    q = tf.TensorProto(dtype=99)
    with pytest.raises(TypeError, match="Unsupported tensor type: 99"):
        tf.make_ndarray(q)


def test_make_ndarray_of_a_constant_still_works():
    with tf.Graph().as_default():
        c = tf.constant([1.0, 2.0])
        np.testing.assert_array_equal(tf.make_ndarray(c), [1.0, 2.0])
