"""tf.random_index_shuffle / tf.random.experimental.index_shuffle: TF's values (tests/data/random_tf.npz,
recorded by tests/data/make_random_tf.py), bijectivity, static shapes, errors."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

_TF = np.load(pathlib.Path(__file__).parents[1] / "data" / "random_tf.npz")


def _check(got, key):
    want = _TF[key]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_values_match_tf():
    with tf.Graph().as_default(), tf.Session() as s:
        _check(s.run(tf.random_index_shuffle(tf.range(10, dtype=tf.int64), tf.constant([5, 6, 7], tf.int64),
                                             tf.constant(9, tf.int64))), "shuffle_a")
        b = tf.random_index_shuffle(tf.constant(3, tf.int64), [5, 6, 7], tf.constant(100000, tf.int64))
        assert b.shape.as_list() == []
        _check(s.run(b), "shuffle_b")
        u32 = tf.constant([0, 1, 2, 3, 4, 5], tf.uint32)
        seeds = tf.constant([[1, 2, 3], [4, 5, 6], [1, 2, 3], [9, 9, 9], [1, 2, 3], [0, 0, 0]], tf.uint32)
        maxes = tf.constant([5, 10, 100, 1000, 70000, 5], tf.uint32)
        _check(s.run(tf.random_index_shuffle(u32, seeds, maxes, rounds=6)), "shuffle_c")
        _check(s.run(tf.random_index_shuffle(u32, seeds, maxes)), "shuffle_d")
        _check(s.run(tf.random_index_shuffle(tf.constant([0, 1, 2 ** 40], tf.int64),
                                             tf.constant([-1, 2 ** 31, 7], tf.int64),
                                             tf.constant(2 ** 41, tf.int64))), "shuffle_e")
        _check(s.run(tf.random_index_shuffle(tf.constant(np.array([0, 1, 2 ** 62], np.uint64)),
                                             tf.constant(np.array([3, 2, 1], np.uint64)),
                                             tf.constant(np.uint64(2 ** 63 + 5)))), "shuffle_f")
        _check(s.run(tf.random_index_shuffle(tf.constant([0, 5], tf.int32), [1, 2, 3], tf.constant(6, tf.int32))),
               "shuffle_g")
        e = tf.random.experimental.index_shuffle(tf.range(10), [1, 2], 9)
        assert "PadV2" in [op.type for op in e.graph.get_operations()] or "Pad" in [
            op.type for op in e.graph.get_operations()]
        _check(s.run(e), "shuffle_exp")
        _check(s.run(tf.random.experimental.index_shuffle(tf.range(20), [7, 8], 1000000)), "shuffle_exp_big")
        _check(s.run(tf.random.experimental.index_shuffle(tf.range(5, dtype=tf.int64), tf.constant([7, 8], tf.int64),
                                                          tf.constant(2 ** 50, tf.int64))), "shuffle_exp_64")
        assert s.run(tf.random_index_shuffle(tf.constant(0), [1, 2, 3], tf.constant(0))) == 0


@pytest.mark.parametrize("max_index", [0, 1, 9, 255, 1000, 65537])
def test_is_a_permutation(max_index):
    with tf.Graph().as_default(), tf.Session() as s:
        r = s.run(tf.random.experimental.index_shuffle(tf.range(max_index + 1, dtype=tf.int64),
                                                       tf.constant([3, 4], tf.int64), tf.constant(max_index, tf.int64)))
        np.testing.assert_array_equal(np.sort(r), np.arange(max_index + 1))


def test_power_of_two_quirk_as_tf():
    # TF sizes the block from ceil(log2(max_index)): for max_index = 2**16 the block holds 16 bits, so
    # 2**16 itself is never produced (TF: 65536 distinct values, the last three 18404, 13329, 54997).
    with tf.Graph().as_default(), tf.Session() as s:
        r = s.run(tf.random.experimental.index_shuffle(tf.range(65537, dtype=tf.int64), tf.constant([3, 4], tf.int64),
                                                       tf.constant(65536, tf.int64)))
    assert np.unique(r).size == 65536 and r.max() == 65535
    np.testing.assert_array_equal(r[-3:], [18404, 13329, 54997])


def test_static_shapes_and_errors():
    with tf.Graph().as_default(), tf.Session() as s:
        assert tf.random_index_shuffle(tf.placeholder(tf.int32, [None]), [1, 2, 3], 5).shape.as_list() == [None]
        assert tf.random_index_shuffle(tf.constant(1), tf.placeholder(tf.int32, [4, 3]), 5).shape.as_list() == [4]
        with pytest.raises(ValueError, match=r"Seed must have shape \[3\] or \[n, 3\] but got \[2\]"):
            tf.random_index_shuffle(tf.constant(1), [1, 2], 5)
        with pytest.raises(TypeError, match="'max_index' of 'RandomIndexShuffle' Op has type int64 that does not "
                                            "match type int32"):
            tf.random_index_shuffle(tf.constant(1), [1, 2, 3], tf.constant(5, tf.int64))
        with pytest.raises(TypeError, match="'seed' has DataType float32"):
            tf.random_index_shuffle(tf.constant(1), [1.0, 2.0, 3.0], 5)
        with pytest.raises(tf.errors.InvalidArgumentError, match="rounds"):
            s.run(tf.random_index_shuffle(tf.constant(1), [1, 2, 3], 5, rounds=3))
        seeds = tf.placeholder(tf.int32, [None, 3])
        # TF's message, typo included.
        with pytest.raises(tf.errors.InvalidArgumentError, match="Index bust be a scalar or vector"):
            s.run(tf.random_index_shuffle(tf.constant([1, 2]), seeds, 5), {seeds: np.zeros((3, 3), np.int32)})
        any_seeds = tf.placeholder(tf.int32, [None, None])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Seed must be a vector of size \[3\] or a matrix"):
            s.run(tf.random_index_shuffle(tf.constant(1), any_seeds, 5), {any_seeds: np.zeros((2, 4), np.int32)})


def test_eager():
    with context.eager_mode():
        got = tf.random.experimental.index_shuffle(tf.range(10), [1, 2], 9).numpy()
    _check(got, "shuffle_exp")
