"""Independent heavy matmuls of a plan run as concurrent pairs with the same values."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework.registry import get_op_def
from tensorweave.runtime import interop
from tests.runtime import INTERPRETER


@pytest.fixture(autouse=True)
def _two_cores(monkeypatch):
    monkeypatch.setattr(interop, "enabled", lambda: True)  # whatever this machine's cores and BLAS


def _session(config=tf.ConfigProto(inter_op_parallelism_threads=2)):
    return tf.Session(config=config)


def _source(sess):
    """The generated source of every plan the session compiled."""
    return "\n".join(e.plan.source for e in sess._cache.values())


def _backprop_graph():
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [128, 256])
    w = tf.Variable(rng.randn(256, 256).astype(np.float32) * 0.05)
    h = tf.matmul(x, w)
    loss = tf.reduce_sum(tf.square(tf.matmul(h, w)))
    dx, dw = tf.gradients(loss, [x, w])
    return x, w, [dx, dw], rng.randn(128, 256).astype(np.float32)


def test_independent_products_run_as_a_pair_with_the_same_values():
    x, w, fetches, xv = _backprop_graph()
    with _session() as sess:
        sess.run(w.initializer)
        got = sess.run(fetches, {x: xv})
        assert "RUN_PAIR(" in _source(sess)
    with tf.Session(config=INTERPRETER) as sess:
        sess.run(w.initializer)
        ref = sess.run(fetches, {x: xv})
    for g, r in zip(got, ref):
        np.testing.assert_array_equal(g, r)


def test_pairs_are_opt_in_and_off_for_small_or_dependent_products():
    x, w, fetches, xv = _backprop_graph()
    for config in (None, tf.ConfigProto(inter_op_parallelism_threads=1)):
        with tf.Session(config=config) as sess:
            sess.run(w.initializer)
            sess.run(fetches, {x: xv})
            assert "RUN_PAIR(" not in _source(sess)
    a = tf.placeholder(tf.float32, [8, 8])
    small = [tf.matmul(a, a), tf.matmul(a, tf.transpose(a))]
    b = tf.placeholder(tf.float32, [256, 256])
    chain = tf.matmul(tf.matmul(b, b), b)
    with _session() as sess:
        sess.run(small, {a: np.eye(8)})
        assert "RUN_PAIR(" not in _source(sess)
    with _session() as sess:
        out = sess.run(chain, {b: np.eye(256)})
        assert "RUN_PAIR(" not in _source(sess)
    np.testing.assert_array_equal(out, np.eye(256))


@pytest.mark.parametrize("which", [0, 1])
def test_error_in_either_product_names_its_op(monkeypatch, which):
    a = tf.placeholder(tf.float32, [256, 256])
    products = [tf.matmul(a, a, name="first"), tf.matmul(a, a, transpose_b=True, name="second")]
    bad = products[which].op.name
    d = get_op_def("MatMul")

    def kernel(xp, x, y, transpose_a, transpose_b):
        if transpose_b == (which == 1):
            raise ValueError("boom")
        return x @ (y.T if transpose_b else y)

    monkeypatch.setattr(d, "inline", None)
    monkeypatch.setattr(d, "kernel", kernel)
    with _session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="(?s)boom.*'%s'" % bad):
            sess.run(products, {a: np.ones((256, 256))})
        assert "RUN_PAIR(" in _source(sess)


def test_run_pair_waits_for_the_second_before_raising_the_first():
    order = []

    def first():
        raise KeyError("first")

    def second():
        order.append("second done")
        return 2

    with pytest.raises(KeyError, match="first"):
        interop.run_pair(first, second)
    assert order == ["second done"]
    assert interop.run_pair(lambda: 1, lambda: 2) == (1, 2)
