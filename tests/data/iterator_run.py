"""Runs a dataset through an initializable iterator (so it may capture placeholders and stateful ops) in a
fresh session, for the tf.data tests that compare with values and messages recorded from TensorFlow."""

import pytest

import tensorweave as tf


def run(ds, n):
    """The first `n` elements of `ds` (fewer where it ends first)."""
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    out = []
    with tf.Session() as s:
        s.run(it.initializer)
        try:
            for _ in range(n):
                out.append(s.run(nxt))
        except tf.errors.OutOfRangeError:
            pass
    return out


def err(ds, n):
    """(class name, first line of the message) of the OpError that `run(ds, n)` raises."""
    with pytest.raises(tf.errors.OpError) as info:
        run(ds, n)
    return type(info.value).__name__, info.value.message.splitlines()[0]
