"""tf.contrib.eager's gradient functions and Iterator (issue 15, item 12)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

tfe = tf.contrib.eager


@pytest.fixture
def eager():
    with context.eager_mode():
        yield


def test_implicit_value_and_gradients(eager):
    w = tf.Variable(2.0)
    b = tf.Variable(1.0)
    frozen = tf.Variable(5.0, trainable=False)

    def loss(x):
        return w * x + b * b + frozen

    value, grads_and_vars = tfe.implicit_value_and_gradients(loss)(3.0)
    assert value.numpy() == 12.0
    assert [v for _, v in grads_and_vars] == [w, b]            # the order they were read
    assert [g.numpy() for g, _ in grads_and_vars] == [3.0, 2.0]
    grads = tfe.implicit_gradients(loss)(4.0)
    assert [(g.numpy(), v) for g, v in grads] == [(4.0, w), (2.0, b)]
    opt = tf.train.GradientDescentOptimizer(0.5)
    opt.apply_gradients(grads)
    assert (w.numpy(), b.numpy()) == (0.0, 0.0)


def test_implicit_gradients_errors(eager):
    with pytest.raises(ValueError, match="No trainable variables were accessed while the function was being "
                                         "computed."):
        tfe.implicit_gradients(lambda x: x * 2.0)(tf.constant(1.0))

    def returns_none():
        tf.Variable(1.0).read_value()

    with pytest.raises(ValueError, match="Cannot differentiate a function that returns None; did you forget to "
                                         "return a value from returns_none"):
        tfe.implicit_gradients(returns_none)()


def test_gradients_function(eager):
    def f(x, y):
        return x * x * y

    grads = tfe.gradients_function(f)(3.0, 2.0)
    assert [g.numpy() for g in grads] == [12.0, 9.0]
    assert [g.numpy() for g in tfe.gradients_function(f, params=[1])(3.0, 2.0)] == [9.0]
    assert [g.numpy() for g in tfe.gradients_function(f, params=["y", "x"])(3.0, 2.0)] == [9.0, 12.0]
    value, grads = tfe.value_and_gradients_function(f)(3.0, 2.0, dy=2.0)
    assert value.numpy() == 18.0 and [g.numpy() for g in grads] == [24.0, 18.0]
    # the same tensor passed twice gets a gradient per argument
    x = tf.constant(3.0)
    assert [g.numpy() for g in tfe.gradients_function(lambda a, b: a * b)(x, x)] == [3.0, 3.0]
    # a list result is summed
    assert [g.numpy() for g in tfe.gradients_function(lambda a: [a, a * a])(2.0)] == [5.0]


def test_gradients_function_errors(eager):
    with pytest.raises(ValueError, match="Functions to be differentiated cannot receive keyword arguments."):
        tfe.gradients_function(lambda x: x)(1.0, other=2.0)
    with pytest.raises(ValueError, match=r"params must be all strings or all integers; got \['x', 0\]."):
        tfe.gradients_function(lambda x, y: x, params=["x", 0])(1.0, 2.0)
    with pytest.raises(ValueError, match="Cannot differentiate a function that returns None"):
        tfe.gradients_function(lambda x: None)(1.0)


def test_gradients_function_in_graph_mode():
    x = tf.constant([1.0, 2.0])
    (g,) = tfe.gradients_function(lambda a: tf.reduce_sum(a * a))(x)
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g), [2.0, 4.0])


def test_iterator(eager):
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3]}).batch(2)
    got = [el["a"].numpy().tolist() for el in tfe.Iterator(ds)]
    assert got == [[1, 2], [3]]
    it = tfe.Iterator(tf.data.Dataset.range(2))
    assert it.next().numpy() == 0 and it.get_next().numpy() == 1
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()
    with pytest.raises(TypeError, match="dataset must be a tf.data.Dataset"):
        tfe.Iterator([1, 2])


def test_iterator_in_graph_mode_is_an_error():
    with pytest.raises(RuntimeError, match="tf.contrib.eager.Iterator objects can only be used when eager execution "
                                           "is enabled"):
        tfe.Iterator(tf.data.Dataset.range(2))
