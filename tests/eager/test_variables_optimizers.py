"""Eager variables hold their values (reads and assignments happen at once) and the optimizers
update them at once; a few training steps match graph mode exactly."""

import gc

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tensorweave.variables import EagerVariable

X = np.random.RandomState(0).randn(8, 3).astype(np.float32)
Y = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)
W0 = np.array([[0.1], [0.2], [-0.1]], np.float32)

OPTIMIZERS = [
    ("sgd", lambda: tf.train.GradientDescentOptimizer(0.1)),
    ("momentum", lambda: tf.train.MomentumOptimizer(0.05, 0.9)),
    ("nesterov", lambda: tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True)),
    ("adam", lambda: tf.train.AdamOptimizer(0.1)),
    ("adagrad", lambda: tf.train.AdagradOptimizer(0.3)),
    ("rmsprop", lambda: tf.train.RMSPropOptimizer(0.05, momentum=0.5)),
    ("rmsprop_centered", lambda: tf.train.RMSPropOptimizer(0.05, centered=True)),
    ("adadelta", lambda: tf.train.AdadeltaOptimizer(1.0)),
]


def _loss(w, b):
    return tf.reduce_mean(tf.square(tf.matmul(X, w) + b - Y))


def _graph_training(make_opt, steps):
    g = tf.Graph()
    with g.as_default():
        w = tf.Variable(W0)
        b = tf.Variable(0.0)
        step = tf.train.get_or_create_global_step()
        train = make_opt().minimize(_loss(w, b), global_step=step)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(steps):
                sess.run(train)
            return sess.run([w, b, step])


@pytest.mark.parametrize("name,make_opt", OPTIMIZERS, ids=[r[0] for r in OPTIMIZERS])
def test_eager_training_matches_graph(name, make_opt):
    w = tf.Variable(W0)
    b = tf.Variable(0.0)
    step = tf.Variable(0, dtype=tf.int64, trainable=False)
    opt = make_opt()
    for _ in range(4):
        assert opt.minimize(lambda: _loss(w, b), global_step=step) is None
    gw, gb, gstep = _graph_training(make_opt, 4)
    np.testing.assert_allclose(w.numpy(), gw, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(b.numpy(), gb, rtol=1e-6, atol=1e-7)
    assert step.numpy() == gstep == 4


def test_apply_gradients_with_a_tape():
    w = tf.Variable(W0)
    b = tf.Variable(0.0)
    opt = tf.train.GradientDescentOptimizer(0.1)
    with tf.GradientTape() as tape:
        loss = _loss(w, b)
    grads = tape.gradient(loss, [w, b])
    assert opt.apply_gradients(zip(grads, [w, b])) is None
    gw, gb, _ = _graph_training(lambda: tf.train.GradientDescentOptimizer(0.1), 1)
    np.testing.assert_allclose(w.numpy(), gw, rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), gb, rtol=1e-6)


def test_compute_gradients_of_a_callable_uses_the_read_variables():
    w = tf.Variable(2.0)
    unused = tf.Variable(1.0)
    gv = tf.train.GradientDescentOptimizer(0.1).compute_gradients(lambda: w * w)
    assert [v for _, v in gv] == [w]
    assert gv[0][0].numpy() == 4.0
    gv = tf.train.GradientDescentOptimizer(0.1).compute_gradients(lambda: w * w, var_list=[w, unused])
    assert gv[1][0] is None
    with pytest.raises(RuntimeError, match="should be a function when eager execution is enabled"):
        tf.train.GradientDescentOptimizer(0.1).compute_gradients(w * w)
    with pytest.raises(ValueError, match="No gradients provided"):
        tf.train.GradientDescentOptimizer(0.1).minimize(lambda: w * w, var_list=[unused])


def test_sparse_updates():
    emb = tf.Variable(np.ones((4, 2), np.float32))
    opt = tf.train.GradientDescentOptimizer(1.0)
    opt.minimize(lambda: tf.reduce_sum(tf.gather(emb, [0, 2, 2])))
    np.testing.assert_array_equal(emb.numpy(), [[0.0, 0.0], [1.0, 1.0], [-1.0, -1.0], [1.0, 1.0]])


def test_slots_are_eager_variables():
    w = tf.Variable([1.0, 2.0])
    opt = tf.train.AdamOptimizer(0.1)
    opt.minimize(lambda: tf.reduce_sum(w * w))
    m = opt.get_slot(w, "m")
    assert isinstance(m, EagerVariable)
    np.testing.assert_allclose(m.numpy(), [0.2, 0.4], rtol=1e-6)
    assert sorted(opt.get_slot_names()) == ["m", "v"]
    assert len(opt.variables()) == 4


def test_variable_reads_and_assignments_happen_at_once():
    v = tf.Variable([1.0, 2.0], name="v")
    assert isinstance(v, tf.Variable) and isinstance(v, EagerVariable)
    assert v.name == "v:0"
    assert v.dtype == tf.float32 and v.shape == tf.TensorShape([2])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(v.assign([3.0, 4.0]).numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(v.read_value().numpy(), [3.0, 4.0])
    v.assign_add([1.0, 1.0])
    v.assign_sub([0.5, 0.5])
    np.testing.assert_array_equal(v.numpy(), [3.5, 4.5])
    np.testing.assert_array_equal((v * 2.0).numpy(), [7.0, 9.0])
    tf.assign(v, [0.0, 1.0])
    tf.assign_add(v, [1.0, 1.0])
    np.testing.assert_array_equal(v.value().numpy(), [1.0, 2.0])
    assert v.assign([5.0, 5.0], read_value=False) is None
    assert repr(v) == "<tf.Variable 'v:0' shape=(2,) dtype=float32, numpy=array([5., 5.], dtype=float32)>"
    s = tf.Variable(3)
    assert int(s) == 3 and float(tf.Variable(2.5)) == 2.5
    assert [0, 1, 2, 3][s] == 3
    assert tf.is_variable_initialized(v).numpy()
    assert v.initializer is None


def test_variable_errors():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Assign"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="initial_value must be specified"):
        tf.Variable()
    with pytest.raises(NotImplementedError, match="numpy"):
        v.eval()
    with pytest.raises(ValueError, match="not compatible"):
        tf.Variable([1.0, 2.0], shape=[3])


def test_variables_from_initializers_and_name_scopes():
    with tf.name_scope("layer"):
        w = tf.Variable(lambda: tf.ones([2, 2]), name="w")
    assert w.name == "layer/w:0"
    assert tf.Variable(1.0).name == tf.Variable(2.0).name == "Variable:0"
    np.testing.assert_array_equal(w.numpy(), np.ones((2, 2)))


def test_get_variable_eagerly():
    with tf.variable_scope("scope"):
        a = tf.get_variable("a", [2], initializer=tf.constant_initializer(3.0))
        b = tf.get_variable("a", [2], initializer=tf.zeros_initializer())
    assert a.name == b.name == "scope/a:0"
    assert a is not b
    np.testing.assert_array_equal(a.numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(b.numpy(), [0.0, 0.0])
    with pytest.raises(RuntimeError, match="variable reuse is only supported"):
        with tf.variable_scope("scope", reuse=True):
            tf.get_variable("a", [2])


def test_eager_variables_are_not_collected_and_free_their_values():
    v = tf.Variable(np.zeros(1000))
    assert tf.global_variables() == [] and tf.trainable_variables() == []
    key = v._unique_id
    assert key in context.context().variables
    del v
    gc.collect()
    assert key not in context.context().variables


def test_eager_variable_is_made_outside_graph_blocks_only():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(1.0)
    assert not isinstance(v, EagerVariable)
    assert v.graph is g
