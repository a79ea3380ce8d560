"""`tf.io.serialize_tensor` / `parse_tensor` / `serialize_sparse` / `serialize_many_sparse` /
`deserialize_many_sparse`: bytes and errors recorded from TensorFlow 2.21 (graph mode;
tests/data/make_sparse_tf_values.py)."""

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.graph_run import run

ST = tf.SparseTensor


# (value, dtype) -> the bytes tf.io.serialize_tensor returned
_TF_BYTES = [
    ([1.5, -2], tf.float32, b'\x08\x01\x12\x04\x12\x02\x08\x02"\x08\x00\x00\xc0?\x00\x00\x00\xc0'),
    ([[1, 2], [3, 4]], tf.int32, b'\x08\x03\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02"\x10\x01\x00\x00\x00\x02\x00\x00'
                                 b'\x00\x03\x00\x00\x00\x04\x00\x00\x00'),
    ([-1], tf.int64, b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\xff\xff\xff\xff\xff\xff\xff\xff'),
    ([True, False], tf.bool, b'\x08\n\x12\x04\x12\x02\x08\x02"\x02\x01\x00'),
    ([b"ab", b""], tf.string, b'\x08\x07\x12\x04\x12\x02\x08\x02B\x02abB\x00'),
    ([1 + 2j], tf.complex64, b'\x08\x08\x12\x04\x12\x02\x08\x01"\x08\x00\x00\x80?\x00\x00\x00@'),
    ([1.5], tf.float16, b'\x08\x13\x12\x04\x12\x02\x08\x01"\x02\x00>'),
    ([[]], tf.uint8, b'\x08\x04\x12\x06\x12\x02\x08\x01\x12\x00'),
    (3.25, tf.float64, b'\x08\x02\x12\x00"\x08\x00\x00\x00\x00\x00\x00\n@'),
    ([-3, 4], tf.int8, b'\x08\x06\x12\x04\x12\x02\x08\x02"\x02\xfd\x04'),
    ([7], tf.uint16, b'\x08\x11\x12\x04\x12\x02\x08\x01"\x02\x07\x00'),
    ([-2], tf.int16, b'\x08\x05\x12\x04\x12\x02\x08\x01"\x02\xfe\xff'),
]


@pytest.mark.parametrize("value,dtype,want", _TF_BYTES, ids=[d.name for _, d, _ in _TF_BYTES])
def test_serialize_tensor_bytes_and_round_trip(value, dtype, want):
    got = run(lambda: tf.io.serialize_tensor(tf.constant(value, dtype)))
    assert isinstance(got, bytes) and got == want
    back = run(lambda: tf.parse_tensor(want, dtype))
    np.testing.assert_array_equal(back, np.array(value, dtype.as_numpy_dtype))
    assert back.dtype == np.dtype(dtype.as_numpy_dtype)


def test_parse_tensor():
    assert run(lambda: tf.serialize_tensor(tf.zeros([0, 3]))) == b'\x08\x01\x12\x06\x12\x00\x12\x02\x08\x03'
    assert tf.io.parse_tensor(b"x", tf.float32).shape.ndims is None
    # typed value fields, a short list repeating its last value (TensorProto written by protobuf: 4 floats 1, 2)
    np.testing.assert_array_equal(run(lambda: tf.io.parse_tensor(b"\x08\x01\x12\x04\x12\x02\x08\x04*\x08\x00\x00\x80?"
                                                                 b"\x00\x00\x00@", tf.float32)), [1., 2., 2., 2.])
    np.testing.assert_array_equal(run(lambda: tf.io.parse_tensor(b"\x08\x03\x12\x04\x12\x02\x08\x03:\n\xfb\xff\xff\xff"
                                                                 b"\xff\xff\xff\xff\xff\x01", tf.int32)), [-5, -5, -5])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Type mismatch between parsed tensor \(float\) and dtype \(int32\)"):
        run(lambda: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1.])), tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse `serialized` as TensorProto, base64: "
                                                             "//8="):
        run(lambda: tf.io.parse_tensor(b"\xff\xff", tf.int32))


def test_serialize_sparse():
    got = run(lambda: tf.serialize_sparse(ST([[0, 1], [1, 2], [2, 0]], [1., 3., 2.], [3, 4])))
    assert list(got) == [
        b'\x08\t\x12\x08\x12\x02\x08\x03\x12\x02\x08\x02"0\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00'
        b'\x00\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00'
        b'\x00\x00\x00\x00\x00\x00',
        b'\x08\x01\x12\x04\x12\x02\x08\x03"\x0c\x00\x00\x80?\x00\x00@@\x00\x00\x00@',
        b'\x08\t\x12\x04\x12\x02\x08\x02"\x10\x03\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00']
    with pytest.raises(NotImplementedError, match="variant"):
        tf.io.serialize_sparse(ST([[0]], [1.], [2]), out_type=tf.variant)


def test_serialize_many_sparse_and_back():
    sp = lambda: ST([[0, 1], [2, 0], [2, 2]], [1, 3, 2], [4, 4])  # noqa: E731
    got = run(lambda: tf.io.serialize_many_sparse(sp()))
    assert got.shape == (4, 3)
    assert list(got[0]) == [b'\x08\t\x12\x08\x12\x02\x08\x01\x12\x02\x08\x01"\x08\x01\x00\x00\x00\x00\x00\x00\x00',
                            b'\x08\x03\x12\x04\x12\x02\x08\x01"\x04\x01\x00\x00\x00',
                            b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x04\x00\x00\x00\x00\x00\x00\x00']
    assert list(got[1]) == [b'\x08\t\x12\x06\x12\x00\x12\x02\x08\x01', b'\x08\x03\x12\x02\x12\x00',
                            b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x04\x00\x00\x00\x00\x00\x00\x00']
    assert list(got[2]) == [
        b'\x08\t\x12\x08\x12\x02\x08\x02\x12\x02\x08\x01"\x10\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00'
        b'\x00\x00', b'\x08\x03\x12\x04\x12\x02\x08\x02"\x08\x03\x00\x00\x00\x02\x00\x00\x00',
        b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x04\x00\x00\x00\x00\x00\x00\x00']
    back = run(lambda: tf.deserialize_many_sparse(tf.serialize_many_sparse(sp()), tf.int32))
    np.testing.assert_array_equal(back.indices, [[0, 1], [2, 0], [2, 2]])
    np.testing.assert_array_equal(back.values, [1, 3, 2])
    np.testing.assert_array_equal(back.dense_shape, [4, 4])
    for bad, msg in [(([[0]], [1], [4]), "Rank of input SparseTensor should be > 1, but saw rank: 1"),
                     (([[5, 1]], [1], [4, 4]), "indices[0] = [5,1] is out of bounds: need 0 <= index < [4,4]"),
                     (([[1, 1], [0, 0]], [1, 2], [2, 4]), "indices[1] = [0,0] is out of order")]:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            run(lambda: tf.serialize_many_sparse(ST(*bad)))
        assert msg in str(e.value)


def test_deserialize_many_sparse():
    def ser(*a):
        return tf.serialize_sparse(ST(*a))
    v = run(lambda: tf.io.deserialize_many_sparse(tf.stack([ser([[0, 1], [1, 0]], [1., 2.], [2, 3]),
                                                            ser([[3, 0]], [5.], [4, 1])]), tf.float32))
    np.testing.assert_array_equal(v.indices, [[0, 0, 1], [0, 1, 0], [1, 3, 0]])
    np.testing.assert_array_equal(v.values, [1., 2., 5.])
    np.testing.assert_array_equal(v.dense_shape, [2, 4, 3])
    v = run(lambda: tf.deserialize_many_sparse(tf.stack([ser([[1, 1], [0, 0]], [1., 2.], [2, 3])]), tf.float32))
    np.testing.assert_array_equal(v.indices, [[0, 1, 1], [0, 0, 0]])
    assert tf.deserialize_many_sparse(tf.zeros([2, 3], tf.string), tf.float32, rank=3).indices.shape.as_list() == [
        None, 3]
    sp = lambda: ST([[0, 1], [1, 2], [2, 0]], [1., 3., 2.], [3, 4])  # noqa: E731
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Requested SparseTensor of type int32 but "
                                                             r"SparseTensor\[0\].values.dtype\(\) == float"):
        run(lambda: tf.deserialize_many_sparse(tf.stack([tf.serialize_sparse(sp())]), tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Inconsistent shape across SparseTensors: rank prior "
                                                             r"to SparseTensor\[1\] was: 2 but rank of "
                                                             r"SparseTensor\[1\] is: 1"):
        run(lambda: tf.deserialize_many_sparse(tf.stack([tf.serialize_sparse(sp()), ser([[0]], [1.], [3])]),
                                               tf.float32))
