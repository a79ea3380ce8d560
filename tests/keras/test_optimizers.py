"""tf.keras.optimizers: update formulas against tf.keras (TF graph mode) goldens."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras import optimizers

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "data", "keras_optimizers_tf.json")
with open(GOLDEN) as _f:
    DATA = json.load(_f)


def _problem():
    x = np.array(DATA["X"], np.float32)
    y = np.array(DATA["Y"], np.float32)
    w = tf.Variable(np.array(DATA["W0"], np.float32))
    b = tf.Variable(np.array(DATA["B0"], np.float32))
    loss = tf.reduce_sum(tf.square(tf.matmul(x, w) + b - y)) + tf.reduce_sum(tf.sin(w))
    return w, b, loss


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: c["class"] + "-" + "-".join(sorted(c["kwargs"])))
def test_matches_tf_keras(case):
    with tf.Graph().as_default():
        w, b, loss = _problem()
        opt = getattr(optimizers, case["class"])(**case["kwargs"])
        updates = opt.get_updates(loss, [w, b])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for wv_ref, bv_ref in case["trajectory"]:
                sess.run(updates)
                wv, bv = sess.run([w, b])
                np.testing.assert_allclose(wv, wv_ref, rtol=1e-6, atol=1e-6)
                np.testing.assert_allclose(bv, bv_ref, rtol=1e-6, atol=1e-6)
            assert sess.run(opt.iterations) == case["iterations"]


def test_minimize_and_apply_gradients_in_plain_graph():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, -2.0])
        loss = tf.reduce_sum(tf.square(v))
        train = optimizers.SGD(learning_rate=0.25).minimize(loss, var_list=[v])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            np.testing.assert_allclose(sess.run(v), [0.5, -1.0])


def test_lr_variable_set_weights_get_config():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, -2.0])
        loss = tf.reduce_sum(tf.square(v))
        opt = optimizers.Adam(lr=0.1)
        assert opt.get_config()["learning_rate"] == 0.1
        updates = opt.get_updates(loss, [v])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert isinstance(opt.lr, tf.Variable)
            np.testing.assert_allclose(sess.run(opt.learning_rate), 0.1)
            opt.lr = 0.5
            np.testing.assert_allclose(sess.run(opt.lr), 0.5)
            sess.run(updates)
            weights = opt.get_weights()
            assert len(weights) == 3 and weights[0] == 1
            opt.set_weights([np.int64(7), weights[1] * 0, weights[2] * 0])
            assert sess.run(opt.iterations) == 7
            with pytest.raises(ValueError, match="with a weight list of length 1"):
                opt.set_weights([np.int64(0)])
            config = opt.get_config()
            assert config["learning_rate"] == pytest.approx(0.5)
            assert config["epsilon"] == 1e-7 and config["amsgrad"] is False
    clone = optimizers.deserialize(optimizers.serialize(optimizers.SGD(0.3, momentum=0.2, nesterov=True)))
    assert isinstance(clone, optimizers.SGD) and clone.nesterov
    assert clone.get_config()["momentum"] == 0.2


def test_get_and_errors():
    assert isinstance(optimizers.get("adam"), optimizers.Adam)
    assert isinstance(optimizers.get("RMSprop"), optimizers.RMSprop)
    opt = optimizers.Nadam()
    assert optimizers.get(opt) is opt
    with pytest.raises(ValueError, match="Unknown optimizer: nope"):
        optimizers.get("nope")
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier"):
        optimizers.get(3)
    with pytest.raises(TypeError, match="Unexpected keyword argument passed to optimizer: foo"):
        optimizers.SGD(foo=1)
    with pytest.raises(ValueError, match="initial_accumulator_value must be non-negative"):
        optimizers.Adagrad(initial_accumulator_value=-1.)


def test_none_gradient_error():
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        u = tf.Variable(2.0)
        with pytest.raises(ValueError, match="has `None` for gradient"):
            optimizers.SGD().get_updates(tf.square(v), [v, u])
