"""`tf.contrib.seq2seq.gather_tree` (the GatherTree op): TF's own test cases
(tensorflow/contrib/seq2seq/python/kernel_tests/beam_search_ops_test.py), static shapes and errors."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context


def _t(x):
    """batch-major [batch, time, beam] -> time-major [time, batch, beam]."""
    return np.transpose(np.asarray(x, np.int32), (1, 0, 2))


def _run(*args, **kwargs):
    with tf.Graph().as_default():
        out = tf.contrib.seq2seq.gather_tree(*args, **kwargs)
        return tf.Session().run(out)


def test_gather_tree_one():
    # TF's testGatherTreeOne: (max_time = 4, batch_size = 1, beams = 3).
    step_ids = _t([[[1, 2, 3], [4, 5, 6], [7, 8, 9], [-1, -1, -1]]])
    parent_ids = _t([[[0, 0, 0], [0, 1, 1], [2, 1, 2], [-1, -1, -1]]])
    expected = _t([[[2, 2, 2], [6, 5, 6], [7, 8, 9], [10, 10, 10]]])
    got = _run(step_ids, parent_ids, max_sequence_lengths=[3], end_token=10)
    np.testing.assert_array_equal(got, expected)
    assert got.dtype == np.int32


def test_gather_tree_batch():
    # Two batch entries with different lengths (the inputs of TF's testGatherTreeBatch); an end token
    # cuts a beam.
    step_ids = _t([[[3, 4, 0, 4, 0], [4, 2, 0, 3, 1], [1, 1, 3, 2, 2], [3, 1, 2, 3, 4]],
                   [[3, 4, 0, 4, 0], [4, 2, 0, 3, 1], [1, 1, 3, 2, 2], [3, 1, 2, 3, 4]]])
    parent_ids = _t([[[0, 0, 0, 0, 0], [0, 1, 2, 3, 4], [0, 0, 1, 2, 3], [3, 3, 3, 3, 3]],
                     [[0, 0, 0, 0, 0], [0, 1, 2, 3, 4], [0, 0, 1, 2, 3], [3, 3, 3, 3, 3]]])
    # Beams followed by hand: at t=3 every beam's parent is 3; at t=2 beam 3's parent is 2; at t=1
    # beam 2's parent is 2; at t=0 beam 2's id is 0.
    end_token = 4
    got = _run(step_ids, parent_ids, max_sequence_lengths=[4, 2], end_token=end_token)
    path = [0, 0, 2]  # ids at t = 0, 1, 2 along the chain into beam 3 at t = 2
    expected0 = np.array([[path[0]] * 5, [path[1]] * 5, [path[2]] * 5, [3, 1, 2, 3, 4]], np.int32)
    expected0[3, 4] = 4  # beam 4 ends with the end token at its last step
    np.testing.assert_array_equal(got[:, 0, :], expected0)
    # Entry 1 stops at length 2: step 1's ids, step 0 through their parents, then end tokens; a
    # beam whose step-0 id is the end token keeps end tokens after it (beams 1 and 3).
    expected1 = np.array([[3, 4, 0, 4, 0], [4, 4, 0, 4, 1], [4] * 5, [4] * 5], np.int32)
    np.testing.assert_array_equal(got[:, 1, :], expected1)


def test_bad_parent_values_raise():
    # TF's testBadParentValuesOnCPU.
    step_ids = _t([[[1, 2, 3], [4, 5, 6], [7, 8, 9], [-1, -1, -1]]])
    parent_ids = _t([[[0, 0, 0], [0, -1, 1], [2, 1, 2], [-1, -1, -1]]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"parent id -1 at \(batch, time, beam\) == \(0, 0, 1\)"):
        _run(step_ids, parent_ids, max_sequence_lengths=[3], end_token=10)


def test_zero_and_long_lengths():
    step_ids = _t([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
    parent_ids = _t([[[0, 0], [1, 0]], [[0, 0], [0, 1]]])
    got = _run(step_ids, parent_ids, [0, 7], end_token=-1)
    np.testing.assert_array_equal(got[:, 0], [[-1, -1], [-1, -1]])
    np.testing.assert_array_equal(got[:, 1], [[5, 6], [7, 8]])


def test_static_shapes_and_errors():
    with tf.Graph().as_default():
        s = tf.placeholder(tf.int32, [None, 2, None])
        p = tf.placeholder(tf.int32, [5, None, 3])
        out = tf.contrib.seq2seq.gather_tree(s, p, tf.placeholder(tf.int32, [None]), 1)
        assert out.op.type == "GatherTree"
        assert out.shape.as_list() == [5, 2, 3]
        u = tf.placeholder(tf.int32)
        assert tf.contrib.seq2seq.gather_tree(u, u, u, 1).shape.ndims == 3
        with pytest.raises(ValueError, match="Shape must be rank 3 but is rank 2"):
            tf.contrib.seq2seq.gather_tree(tf.placeholder(tf.int32, [2, 2]), p, [1], 1)
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 4"):
            tf.contrib.seq2seq.gather_tree(s, p, tf.placeholder(tf.int32, [4]), 1)
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            tf.contrib.seq2seq.gather_tree(s, p, [1, 1], [1])
        with pytest.raises(TypeError, match="step_ids"):
            tf.contrib.seq2seq.gather_tree(tf.placeholder(tf.float32, [1, 1, 1]), p, [1], 1)
        # Runtime shape checks name TF's conditions.
        f = tf.placeholder(tf.int32)
        g = tf.contrib.seq2seq.gather_tree(f, f, [1], 1)
        with pytest.raises(tf.errors.InvalidArgumentError, match="step_ids must be a 3-tensor"):
            tf.Session().run(g, {f: [1, 2]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="batch size dimensions"):
            tf.Session().run(g, {f: np.zeros((2, 3, 1), np.int32)})
        # No gradient (integer ids).
        assert tf.gradients(tf.cast(out, tf.float32), [s]) == [None]


def test_eager():
    with context.eager_mode():
        out = tf.contrib.seq2seq.gather_tree(_t([[[1, 2], [3, 4]]]), _t([[[0, 0], [1, 0]]]), [2], 9)
        np.testing.assert_array_equal(np.asarray(out)[:, 0], [[2, 1], [3, 4]])
