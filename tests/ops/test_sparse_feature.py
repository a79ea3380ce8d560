"""`tf.io.SparseFeature` in `parse_example` / `parse_single_example`, against values recorded from
TensorFlow 2.21 (graph mode) on the same serialized `Example`s (tests/data/make_sparse_tf_values.py)."""

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.graph_run import run

# tf.train.Example protos written by TensorFlow: {ix: [3, 0, 7], val: [1.5, 2.5, 3.5], iy: [1, 1, 0]},
# {ix: [2], val: [-1.0], iy: [2]} and {other: [1]}.
E1 = (b'\n7\n\r\n\x02ix\x12\x07\x1a\x05\n\x03\x03\x00\x07\n\x17\n\x03val\x12\x10\x12\x0e\n\x0c\x00\x00\xc0?\x00\x00 @'
      b'\x00\x00`@\n\r\n\x02iy\x12\x07\x1a\x05\n\x03\x01\x01\x00')
E2 = (b'\n+\n\x0b\n\x02ix\x12\x05\x1a\x03\n\x01\x02\n\x0f\n\x03val\x12\x08\x12\x06\n\x04\x00\x00\x80\xbf\n\x0b\n'
      b'\x02iy\x12\x05\x1a\x03\n\x01\x02')
E3 = b'\n\x10\n\x0e\n\x05other\x12\x05\x1a\x03\n\x01\x01'


def check(v, indices, values, shape):
    np.testing.assert_array_equal(v.indices, indices)
    np.testing.assert_array_equal(v.values, np.array(values, v.values.dtype))
    np.testing.assert_array_equal(v.dense_shape, shape)


def test_parse_example_sparse_feature():
    r = run(lambda: tf.io.parse_example([E1, E2, E3], {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10),
                                                       "iy": tf.io.VarLenFeature(tf.int64)}))
    assert sorted(r) == ["iy", "sp"]
    check(r["sp"], [[0, 0], [0, 3], [0, 7], [1, 2]], [2.5, 1.5, 3.5, -1.], [3, 10])
    check(r["iy"], [[0, 0], [0, 1], [0, 2], [1, 0]], [1, 1, 0, 2], [3, 3])
    r = run(lambda: tf.parse_example([E1, E2], {"sp": tf.SparseFeature(["ix", "iy"], "val", tf.float32, [10, 3])}))
    check(r["sp"], [[0, 0, 1], [0, 3, 1], [0, 7, 0], [1, 2, 2]], [2.5, 1.5, 3.5, -1.], [2, 10, 3])
    r = run(lambda: tf.io.parse_example([E1], {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10,
                                                                         already_sorted=True)}))
    check(r["sp"], [[0, 3], [0, 0], [0, 7]], [1.5, 2.5, 3.5], [1, 10])


def test_parse_single_example_sparse_feature():
    r = run(lambda: tf.io.parse_single_example(E1, {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10)}))
    check(r["sp"], [[0], [3], [7]], [2.5, 1.5, 3.5], [10])


def test_sparse_feature_errors():
    with pytest.raises(ValueError, match="Conflicting type"):
        tf.io.parse_example([E1], {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10),
                                   "ix": tf.io.VarLenFeature(tf.float32)})
    with pytest.raises(ValueError, match="Missing index_key"):
        tf.io.parse_example([E1], {"sp": tf.io.SparseFeature("", "val", tf.float32, 10)})
    assert tf.io.SparseFeature("a", "b", tf.int64, 3).already_sorted is False
