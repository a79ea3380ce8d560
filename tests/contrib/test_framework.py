"""tf.contrib.framework (issue 15, item 12): arg_scope/add_arg_scope, variable/model_variable,
get_variables*, the global step and nest, with TF 1.x's semantics."""

import numpy as np
import pytest

import tensorweave as tf

cf = tf.contrib.framework


@cf.add_arg_scope
def scoped(a, b=1, c=2):
    """A decorated function."""
    return a, b, c


def plain(a, b=1):
    return a, b


def test_arg_scope_sets_defaults_and_explicit_arguments_win():
    assert scoped(0) == (0, 1, 2)
    with cf.arg_scope([scoped], b=10):
        assert scoped(0) == (0, 10, 2)
        assert scoped(0, b=5) == (0, 5, 2)
        with cf.arg_scope([scoped], c=20) as sc:
            assert scoped(0) == (0, 10, 20)
            assert sc == {cf.arg_scope_func_key(scoped): {"b": 10, "c": 20}}
        assert scoped(0) == (0, 10, 2)
    assert scoped(0) == (0, 1, 2)
    assert scoped.__name__ == "scoped" and scoped.__doc__ == "A decorated function."


def test_reentering_a_saved_scope():
    with cf.arg_scope([scoped], b=3) as saved:
        pass
    assert scoped(0) == (0, 1, 2)
    with cf.arg_scope(saved):
        assert scoped(0) == (0, 3, 2)
    assert cf.current_arg_scope() == {}


def test_arg_scope_errors():
    with pytest.raises(ValueError, match=r"\('tests.contrib.test_framework', 'plain'\) is not decorated with "
                                         r"@add_arg_scope"):
        with cf.arg_scope([plain], b=2):
            pass
    with pytest.raises(TypeError, match="list_ops_or_scope must either be a list/tuple or reused scope"):
        with cf.arg_scope(scoped, b=2):
            pass
    with pytest.raises(ValueError, match="kwargs must be empty"):
        with cf.arg_scope({}, b=2):
            pass
    assert cf.has_arg_scope(scoped) and not cf.has_arg_scope(plain)
    assert cf.arg_scoped_arguments(scoped) == ("b", "c")
    with pytest.raises(ValueError, match="is not decorated with @add_arg_scope"):
        cf.arg_scoped_arguments(plain)


def test_arg_scope_with_contrib_layers():
    x = tf.ones([2, 3])
    with cf.arg_scope([tf.contrib.layers.fully_connected], activation_fn=None,
                      weights_initializer=tf.ones_initializer()):
        y = tf.contrib.layers.fully_connected(x, 4)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(y), np.full((2, 4), 3.0))   # no ReLU, weights of ones


def test_model_variable_and_variable():
    with tf.variable_scope("net"):
        w = cf.model_variable("weights", shape=[2, 3], initializer=tf.ones_initializer())
        b = cf.variable("biases", shape=[3], initializer=tf.zeros_initializer(), collections=["mine"])
        with cf.arg_scope([cf.model_variable], trainable=False):
            s = cf.model_variable("scale", shape=[], dtype=tf.float64)
    assert w.name == "net/weights:0" and w.dtype == tf.float32
    assert w in tf.model_variables() and w in tf.global_variables() and w in tf.trainable_variables()
    assert b in tf.get_collection("mine") and b not in tf.global_variables() and b in tf.trainable_variables()
    assert s in tf.model_variables() and s not in tf.trainable_variables() and s.dtype == tf.float64
    with tf.variable_scope("net", reuse=True):
        assert cf.model_variable("weights", shape=[2, 3]) is w
    with pytest.raises(ValueError, match="already exists"):
        with tf.variable_scope("net"):
            cf.model_variable("weights", shape=[2, 3])


def test_get_variables_filters():
    with tf.variable_scope("a"):
        w1 = tf.get_variable("weights", [1])
        b1 = tf.get_variable("biases", [1])
    with tf.variable_scope("b"):
        w2 = cf.model_variable("weights", [1])
        w3 = tf.get_variable("my_weights", [1])
    loc = tf.get_local_variable("counter", [1])
    assert cf.get_variables() == [w1, b1, w2, w3]
    assert cf.get_variables("a") == [w1, b1]
    assert cf.get_variables(scope=tf.get_variable_scope()) == [w1, b1, w2, w3]
    assert cf.get_variables(suffix="weights") == [w1, w2, w3]
    assert cf.get_variables_by_suffix("biases") == [b1]
    assert cf.get_variables_by_name("weights") == [w1, w2]     # not b/my_weights
    assert cf.get_variables_by_name("weights", scope="b") == [w2]
    assert cf.get_model_variables() == [w2]
    assert cf.get_trainable_variables("b") == [w2, w3]
    assert cf.get_local_variables() == [loc]
    assert cf.get_unique_variable("a/biases") is b1
    with pytest.raises(ValueError, match="Couldn't find variable c/x"):
        cf.get_unique_variable("c/x")


def test_global_step_and_nest():
    assert cf.get_global_step() is None
    step = cf.get_or_create_global_step()
    assert cf.get_or_create_global_step() is step and cf.get_global_step() is step
    assert step is tf.train.get_global_step() and step.dtype == tf.int64
    assert cf.nest.flatten({"b": [1, 2], "a": 3}) == [3, 1, 2]
    assert cf.nest.map_structure(lambda v: v * 2, (1, [2])) == (2, [4])
