"""`tf.dtypes` and `tf.random`: TF's module names for types and random ops defined elsewhere."""

import numpy as np
import pytest

import tensorweave as tf


def test_dtypes_module_names_the_same_objects():
    assert tf.dtypes.float32 is tf.float32 and tf.dtypes.bool is tf.bool and tf.dtypes.DType is tf.DType
    assert tf.dtypes.as_dtype(np.int16) is tf.int16 and tf.dtypes.cast is tf.cast
    assert tf.dtypes.saturate_cast is tf.saturate_cast
    with tf.Session() as sess:
        assert sess.run(tf.dtypes.cast([1.7, -2.2], tf.dtypes.int32)).tolist() == [1, -2]


def test_random_module_names_the_v1_ops():
    assert tf.random.normal is tf.random_normal and tf.random.uniform is tf.random_uniform
    assert tf.random.shuffle is tf.random_shuffle and tf.random.truncated_normal is tf.truncated_normal
    assert tf.random.set_random_seed is tf.set_random_seed and tf.random.multinomial is tf.multinomial


def test_categorical_is_multinomial_under_its_own_name():
    logits = tf.constant(np.log([[0.2, 0.8], [0.9, 0.1]]), tf.float32)
    s = tf.random.categorical(logits, 4000, dtype=tf.int32, seed=3)
    m = tf.multinomial(logits, 4000, seed=3, output_dtype=tf.int32)
    assert s.name == "categorical/Multinomial:0" and s.dtype == tf.int32 and s.shape.as_list() == [2, 4000]
    assert tf.random.categorical(logits, 2).dtype == tf.int64
    with tf.Session() as sess:
        a, b = sess.run([s, m])
    np.testing.assert_array_equal(a, b)  # the same op, seed and attributes: the same draws
    assert abs(a[0].mean() - 0.8) < 0.05 and abs(a[1].mean() - 0.1) < 0.05


def test_categorical_rejects_a_float_dtype():
    with pytest.raises(TypeError, match="DataType float32 not in list of allowed values: int32, int64"):
        tf.random.categorical([[0.0, 0.0]], 1, dtype=tf.float32)
