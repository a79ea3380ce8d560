"""`Optimizer.minimize` / `compute_gradients` take `var_list` as any iterable of variables
(a list, `dict.values()`, a generator, nests of them), in graph and eager mode (issue 15, item 11)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context


def _vars():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, name="b")
    return a, b


@pytest.mark.parametrize("kind", ["dict_values", "generator", "iterator", "dict_keys", "nested", "map"])
def test_compute_gradients_accepts_iterables(kind):
    a, b = _vars()
    loss = a * a + 3.0 * b
    d = {"b": b, "a": a}
    var_list = {"dict_values": lambda: d.values(), "generator": lambda: (v for v in [b, a]),
                "iterator": lambda: iter([b, a]), "dict_keys": lambda: {b: 0, a: 1}.keys(),
                "nested": lambda: [(v for v in [b]), {"x": a}.values()],
                "map": lambda: map(lambda v: v, [b, a])}[kind]()
    gv = tf.train.GradientDescentOptimizer(0.1).compute_gradients(loss, var_list=var_list)
    assert [v for _, v in gv] == [b, a]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run([g for g, _ in gv]) == [3.0, 2.0]


def test_minimize_accepts_a_generator_and_dict_values():
    a, b = _vars()
    c = tf.Variable(5.0, name="c")
    loss = a * a + 3.0 * b + c
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=(v for v in [a, b]))
    train2 = tf.train.GradientDescentOptimizer(0.5).minimize(loss, var_list={"c": c}.values())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([train, train2])
        np.testing.assert_allclose(sess.run([a, b, c]), [0.8, 1.7, 4.5], rtol=1e-6)


def test_minimize_eager_accepts_iterables():
    with context.eager_mode():
        a, b = _vars()
        opt = tf.train.GradientDescentOptimizer(0.1)
        opt.minimize(lambda: a * a + 3.0 * b, var_list={"a": a, "b": b}.values())
        opt.minimize(lambda: a * a + 3.0 * b, var_list=(v for v in [a]))
        np.testing.assert_allclose([a.numpy(), b.numpy()], [0.8 * 0.8, 1.7], rtol=1e-6)


def test_var_list_of_non_variables_is_rejected():
    a, _ = _vars()
    with pytest.raises(NotImplementedError, match="Trying to optimize unsupported type"):
        tf.train.GradientDescentOptimizer(0.1).compute_gradients(a * 2.0, var_list=(x for x in [a, 3]))
    with pytest.raises(ValueError, match="No variables to optimize"):
        tf.train.GradientDescentOptimizer(0.1).compute_gradients(a * 2.0, var_list=(x for x in []))
