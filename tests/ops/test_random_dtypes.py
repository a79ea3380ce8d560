"""tf.dtypes / top-level dtype names added with the random family: uint32, uint64 (real NumPy types),
the quantized types and resource (DType objects with TF's properties, recorded from TF 2.21)."""

import numpy as np
import pytest

import tensorweave as tf

# name: (enum, size, is_quantized, is_integer, is_unsigned, is_numpy_compatible), as TF reports them.
TF_PROPS = {
    "uint32": (22, 4, False, True, True, True), "uint64": (23, 8, False, True, True, True),
    "qint8": (11, 1, True, False, False, True), "quint8": (12, 1, True, False, False, True),
    "qint16": (15, 2, True, False, False, True), "quint16": (16, 2, True, False, False, True),
    "qint32": (13, 4, True, False, False, True), "resource": (20, 0, False, False, False, False),
    "variant": (21, 0, False, False, False, False),
}


@pytest.mark.parametrize("name", sorted(TF_PROPS))
def test_properties_match_tf(name):
    d = getattr(tf, name)
    assert d is getattr(tf.dtypes, name) and d.name == name
    enum, size, quantized, integer, unsigned, np_ok = TF_PROPS[name]
    assert (d.as_datatype_enum, d.size, d.is_quantized, d.is_integer, d.is_unsigned, d.is_numpy_compatible) == (
        enum, size, quantized, integer, unsigned, np_ok)
    assert not d.is_floating and not d.is_complex and not d.is_bool
    assert d.base_dtype is d and d.real_dtype is d
    assert tf.as_dtype(enum) is d and tf.as_dtype(name) is d
    assert repr(d) == "tf." + name and str(d) == "<dtype: '%s'>" % name


def test_quantized_types():
    assert tf.dtypes.QUANTIZED_DTYPES == frozenset({tf.qint8, tf.quint8, tf.qint16, tf.quint16, tf.qint32})
    assert tf.qint8.as_numpy_dtype == np.dtype([("qint8", np.int8)])
    assert tf.quint16.as_numpy_dtype == np.dtype([("quint16", np.uint16)])
    assert tf.as_dtype(tf.qint32.as_numpy_dtype) is tf.qint32
    assert tf.qint8 != tf.int8 and not tf.qint8.is_compatible_with(tf.int8)
    with pytest.raises(TypeError, match="Cannot find minimum value of <dtype: 'qint8'> with quantized type "
                                        "<dtype: 'qint8'>."):
        tf.qint8.min
    with pytest.raises(TypeError, match="Cannot find maximum value of <dtype: 'quint8'> with quantized type"):
        tf.quint8.max
    for d in (tf.uint8, tf.int32, tf.float32, tf.string, tf.bool):
        assert not d.is_quantized


def test_uint32_uint64_are_real_types():
    assert tf.uint32.as_numpy_dtype is np.uint32 and tf.uint64.as_numpy_dtype is np.uint64
    assert tf.as_dtype(np.uint32) is tf.uint32 and tf.as_dtype(np.dtype("uint64")) is tf.uint64
    assert (tf.uint32.min, tf.uint32.max) == (0, 4294967295)
    assert (tf.uint64.min, tf.uint64.max) == (0, 18446744073709551615)
    with tf.Graph().as_default(), tf.Session() as s:
        a = tf.constant([1, 2 ** 32 - 1], tf.uint32)
        assert a.dtype == tf.uint32
        got = s.run(tf.cast(a, tf.int64))
        np.testing.assert_array_equal(got, [1, 2 ** 32 - 1])
        b = s.run(tf.cast(tf.constant([1.5, 3.7]), tf.uint64))
        assert b.dtype == np.uint64 and b.tolist() == [1, 3]
        p = tf.placeholder(tf.uint64, [2])
        v = s.run(tf.identity(p), {p: np.array([2 ** 64 - 1, 0], np.uint64)})
        assert v.dtype == np.uint64 and v.tolist() == [2 ** 64 - 1, 0]


def test_min_max_errors_of_other_types_unchanged():
    with pytest.raises(TypeError, match="Cannot find minimum value of resource"):
        tf.resource.min
    assert tf.string.size == 0 and tf.int16.size == 2
