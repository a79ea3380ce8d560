"""tf.layers.dense / tf.layers.Dense: shapes, variable names and scopes, reuse, initializers,
regularizers, values and errors."""

import math

import numpy as np
import pytest

import tensorweave as tf

X = np.random.RandomState(0).randn(5, 4).astype(np.float32)
W = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.
B = np.array([1., -2., 0.5], np.float32)


def _names(var_list):
    return sorted(v.name for v in var_list)


def _init_run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def test_shapes_names_and_unique_scopes():
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.layers.dense(x, 3)
    y1 = tf.layers.dense(y, 2)
    assert y.shape.as_list() == [None, 3] and y.dtype == tf.float32
    assert y1.shape.as_list() == [None, 2]
    assert _names(tf.global_variables()) == ["dense/bias:0", "dense/kernel:0", "dense_1/bias:0", "dense_1/kernel:0"]
    assert _names(tf.trainable_variables()) == _names(tf.global_variables())
    kernel = [v for v in tf.global_variables() if v.name == "dense/kernel:0"][0]
    assert kernel.shape.as_list() == [4, 3]
    assert y.op.type == "BiasAdd" and y.name == "dense/BiasAdd:0"
    assert y.op.inputs[0].name == "dense/MatMul:0"


def test_values_with_initializers_and_activation():
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.layers.dense(x, 3, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(W),
                        bias_initializer=tf.constant_initializer(B))
    assert y.op.type == "Relu" and y.name == "dense/Relu:0"
    np.testing.assert_allclose(_init_run(y, {x: X}), np.maximum(X @ W + B, 0), rtol=1e-6)


def test_activation_by_name():
    y = tf.layers.dense(tf.constant(X), 3, activation="relu", kernel_initializer=tf.constant_initializer(W))
    np.testing.assert_allclose(_init_run(y), np.maximum(X @ W, 0), rtol=1e-6)
    with pytest.raises(ValueError, match="Unknown activation function"):
        tf.layers.dense(tf.constant(X), 3, activation="swoosh")


def test_default_initializers():
    tf.layers.dense(tf.constant(X), 300)
    kernel, bias = _init_run([tf.global_variables()[0], tf.global_variables()[1]])
    limit = math.sqrt(6.0 / (4 + 300))
    assert np.abs(kernel).max() <= limit and np.abs(kernel).max() > 0.9 * limit
    np.testing.assert_array_equal(bias, np.zeros(300))


def test_scope_initializer_is_used_for_kernel():
    with tf.variable_scope("s", initializer=tf.constant_initializer(0.25)):
        tf.layers.dense(tf.constant(X), 2)
    kernel = _init_run(tf.global_variables()[0])
    np.testing.assert_array_equal(kernel, np.full((4, 2), 0.25, np.float32))


def test_named_layer_reuse():
    x = tf.constant(X)
    y1 = tf.layers.dense(x, 3, name="fc")
    y2 = tf.layers.dense(x * 2, 3, name="fc", reuse=True)
    y3 = tf.layers.dense(x, 3, name="fc2", reuse=tf.AUTO_REUSE)
    y4 = tf.layers.dense(x, 3, name="fc2", reuse=tf.AUTO_REUSE)
    assert _names(tf.global_variables()) == ["fc/bias:0", "fc/kernel:0", "fc2/bias:0", "fc2/kernel:0"]
    assert y2.name.startswith("fc_1/")
    v1, v2, v3, v4 = _init_run([y1, y2, y3, y4])
    np.testing.assert_allclose(v2, 2 * v1, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(v3, v4)
    with pytest.raises(ValueError, match="Variable fc/kernel already exists"):
        tf.layers.dense(x, 3, name="fc")
    with pytest.raises(ValueError, match="Trying to share variable fc/kernel"):
        tf.layers.dense(x, 4, name="fc", reuse=True)
    with pytest.raises(ValueError, match="Variable nope/kernel does not exist"):
        tf.layers.dense(x, 3, name="nope", reuse=True)


def test_enclosing_variable_scope():
    x = tf.constant(X)
    with tf.variable_scope("outer") as scope:
        y1 = tf.layers.dense(x, 3)
        scope.reuse_variables()
        # Unnamed layers are numbered within a scope: the second one is "dense_1", which does not exist.
        with pytest.raises(ValueError, match="Variable outer/dense_1/kernel does not exist"):
            tf.layers.dense(x, 3)
    assert _names(tf.global_variables()) == ["outer/dense/bias:0", "outer/dense/kernel:0"]
    assert y1.name.startswith("outer/dense/")


def test_reentered_scope_reuses_unnamed_layers():
    x = tf.constant(X)
    with tf.variable_scope("outer"):
        y1 = tf.layers.dense(x, 3)
    with tf.variable_scope("outer", reuse=True):
        y2 = tf.layers.dense(x, 3)
    assert _names(tf.global_variables()) == ["outer/dense/bias:0", "outer/dense/kernel:0"]
    v1, v2 = _init_run([y1, y2])
    np.testing.assert_array_equal(v1, v2)


def test_no_bias_and_not_trainable():
    y = tf.layers.dense(tf.constant(X), 3, use_bias=False, trainable=False, kernel_initializer=tf.ones_initializer())
    assert _names(tf.global_variables()) == ["dense/kernel:0"]
    assert tf.trainable_variables() == []
    assert y.op.type == "MatMul"
    np.testing.assert_allclose(_init_run(y), X @ np.ones((4, 3)), rtol=1e-6)


def test_regularizers():
    x = tf.constant(X)
    tf.layers.dense(x, 3, kernel_initializer=tf.constant_initializer(W), bias_initializer=tf.constant_initializer(B),
                    kernel_regularizer=tf.nn.l2_loss, bias_regularizer=lambda b: tf.reduce_sum(tf.abs(b)),
                    activity_regularizer=lambda out: tf.reduce_sum(out))
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert len(losses) == 3
    values = _init_run(losses)
    np.testing.assert_allclose(values[0], (W ** 2).sum() / 2, rtol=1e-6)
    np.testing.assert_allclose(values[1], np.abs(B).sum(), rtol=1e-6)
    np.testing.assert_allclose(values[2], (X @ W + B).sum() / 5, rtol=1e-5)


def test_regularizer_added_once_on_reuse():
    x = tf.constant(X)
    tf.layers.dense(x, 3, name="r", kernel_regularizer=tf.nn.l2_loss)
    tf.layers.dense(x, 3, name="r", kernel_regularizer=tf.nn.l2_loss, reuse=True)
    assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 1


def test_rank3_inputs_and_float64():
    x3 = np.random.RandomState(1).randn(2, 5, 4)
    y = tf.layers.dense(tf.constant(x3), 3, kernel_initializer=tf.constant_initializer(W.astype(np.float64)),
                        bias_initializer=tf.constant_initializer(B.astype(np.float64)))
    assert y.shape.as_list() == [2, 5, 3] and y.dtype == tf.float64
    assert tf.global_variables()[0].dtype == tf.float64
    np.testing.assert_allclose(_init_run(y), x3 @ W.astype(np.float64) + B, rtol=1e-12)


def test_dense_class_shares_variables_across_calls():
    layer = tf.layers.Dense(3, kernel_initializer=tf.constant_initializer(W))
    a = tf.placeholder(tf.float32, [None, 4])
    y1 = layer(a)
    y2 = layer.apply(a * 3)
    assert layer.built and layer.kernel.name == "dense/kernel:0" and layer.bias.name == "dense/bias:0"
    assert layer.scope_name == "dense" and layer.name == "dense"
    assert len(tf.global_variables()) == 2 and layer.trainable_variables == [layer.kernel, layer.bias]
    v1, v2 = _init_run([y1, y2], {a: X})
    np.testing.assert_allclose(v2, 3 * v1, rtol=1e-5)
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 4"):
        layer(tf.zeros([2, 5]))


def test_gradients_flow_to_inputs_and_variables():
    def f(x):
        return tf.layers.dense(x, 2, activation=tf.nn.softplus, kernel_initializer=tf.constant_initializer(0.3),
                               bias_initializer=tf.constant_initializer(0.1))

    x = np.random.RandomState(2).randn(3, 4)
    g = tf.Graph()
    with g.as_default():
        out = f(tf.constant(x))
        grads = tf.gradients(tf.reduce_sum(out), tf.trainable_variables())
        assert all(gr is not None for gr in grads)
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            gk, gb = sess.run(grads)
    sig = 1 / (1 + np.exp(-(x @ np.full((4, 2), 0.3) + 0.1)))
    np.testing.assert_allclose(gk, x.T @ sig, rtol=1e-10)
    np.testing.assert_allclose(gb, sig.sum(0), rtol=1e-10)


def test_gradient_wrt_inputs_numerically():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [3, 4])
        y = tf.layers.dense(x, 2, activation=tf.nn.tanh, kernel_initializer=tf.constant_initializer(W[:, :2]),
                            bias_initializer=tf.constant_initializer(B[:2]))
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            err = tf.test.compute_gradient_error(x, [3, 4], y, [3, 2], x_init_value=X[:3].astype(np.float64))
    assert err < 1e-6


ERRORS = [
    ("rank1", ValueError, "expected min_ndim=2, found ndim=1", lambda: tf.layers.dense(tf.constant([1., 2.]), 3)),
    ("unknown_last_dim", ValueError, "The last dimension of the inputs to `Dense` should be defined. Found `None`.",
     lambda: tf.layers.dense(tf.placeholder(tf.float32, [None, None]), 3)),
    ("unknown_rank", ValueError, "its rank is undefined, but the layer requires a defined rank.",
     lambda: tf.layers.dense(tf.placeholder(tf.float32), 3)),
    ("int_inputs", TypeError, "Unable to build `Dense` layer with non-floating point dtype",
     lambda: tf.layers.dense(tf.constant([[1, 2]]), 3)),
    ("bad_kwarg", TypeError, "Keyword argument not understood:", lambda: tf.layers.Dense(3, foo=1)),
]


@pytest.mark.parametrize("name,exc,msg,fn", ERRORS, ids=[r[0] for r in ERRORS])
def test_errors(name, exc, msg, fn):
    with pytest.raises(exc) as info:
        fn()
    assert msg in str(info.value)


# ---- flatten ---------------------------------------------------------------------------------
def test_flatten_shapes_and_values():
    x4 = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    x = tf.placeholder(tf.float32, [None, 3, 4, 5])
    y = tf.layers.flatten(x)
    y_unknown = tf.layers.flatten(tf.placeholder(tf.float32, [None, None, 2]))
    y_first = tf.layers.flatten(tf.constant(x4), data_format="channels_first")
    y_rank1 = tf.layers.flatten(tf.constant([1., 2.]))
    assert y.shape.as_list() == [None, 60] and y.name == "flatten/Reshape:0"
    assert y_unknown.shape.as_list() == [None, None] and y_unknown.name.startswith("flatten_1/")
    assert y_first.shape.as_list() == [2, 60] and y_rank1.shape.as_list() == [2, 1]
    with tf.Session() as sess:
        v, vf, v1 = sess.run([y, y_first, y_rank1], {x: x4})
    np.testing.assert_array_equal(v, x4.reshape(2, 60))
    np.testing.assert_array_equal(vf, x4.transpose(0, 2, 3, 1).reshape(2, 60))
    np.testing.assert_array_equal(v1, [[1.], [2.]])
    layer = tf.layers.Flatten()
    assert layer.compute_output_shape([None, 2, 3]).as_list() == [None, 6]


def test_flatten_of_unknown_rank():
    """As TF's Keras Flatten: an input of unknown rank is reshaped to [shape[0], -1] (issue 15)."""
    x = tf.placeholder(tf.float32)
    y = tf.layers.flatten(x)
    y_first = tf.layers.flatten(x, data_format="channels_first")
    assert y.shape.as_list() == [None, None] and y_first.shape.as_list() == [None, None]
    x4 = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: x4}), x4.reshape(2, 60))
        np.testing.assert_array_equal(sess.run(y_first, {x: x4}), x4.reshape(2, 60))  # no transpose: rank unknown
        np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0]}), [[1.0], [2.0]])
        with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 0 of dimension 0 out of bounds"):
            sess.run(y, {x: 1.0})


def test_flatten_errors():
    with pytest.raises(ValueError, match="The `data_format` argument must be one of"):
        tf.layers.flatten(tf.zeros([2, 3]), data_format="NHWC")


# ---- dropout ---------------------------------------------------------------------------------
def test_dropout_inference_is_identity():
    y = tf.layers.dropout(tf.constant(X), rate=0.5)
    assert y.op.type == "Identity" and y.name == "dropout/Identity:0"
    y1 = tf.layers.dropout(tf.constant(X), training=False)
    assert y1.name == "dropout_1/Identity:0"
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y), X)


def test_dropout_training_statistics():
    ones = tf.ones([200, 50])
    y = tf.layers.dropout(ones, rate=0.25, training=True, seed=3)
    with tf.Session() as sess:
        v1, v2 = sess.run(y), sess.run(y)
    assert set(np.unique(v1)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((v1 == 0).mean() - 0.25) < 0.02
    assert not np.array_equal(v1, v2)


def test_dropout_noise_shape_and_bool_tensor_training():
    training = tf.placeholder(tf.bool, [])
    ones = tf.ones([40, 30])
    y = tf.layers.dropout(ones, rate=0.5, noise_shape=[None, 1], training=training, seed=1)
    assert y.shape.as_list() == [40, 30]
    with tf.Session() as sess:
        off = sess.run(y, {training: False})
        on = sess.run(y, {training: True})
    np.testing.assert_array_equal(off, np.ones((40, 30)))
    # Whole rows are kept or dropped together.
    assert all(len(set(row)) == 1 for row in on) and set(np.unique(on)) == {0.0, 2.0}


def test_dropout_gradient_and_errors():
    x = tf.constant(X)
    y = tf.layers.dropout(x, rate=0.4, training=True, seed=2)
    g = tf.gradients(tf.reduce_sum(y), x)[0]
    with tf.Session() as sess:
        yv, gv = sess.run([y, g])
    np.testing.assert_allclose(gv, (yv != 0) / 0.6, rtol=1e-6)
    with pytest.raises(ValueError, match="rate must be a scalar tensor or a float in the range"):
        tf.layers.dropout(x, rate=1.5, training=True)


# ---- the Layer base class ------------------------------------------------------------------------
class Scale(tf.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight("w", shape=[input_shape[-1]], initializer=tf.constant_initializer(2.),
                                 regularizer=tf.reduce_sum)
        self.count = self.add_weight("count", shape=[], initializer=tf.zeros_initializer(), trainable=False)
        self.built = True

    def call(self, inputs):
        self.add_update(tf.assign_add(self.count, 1.))
        return inputs * self.w


def test_custom_layer_weights_updates_and_losses():
    layer = Scale()
    y = layer(tf.constant(X))
    layer(tf.constant(X))
    assert layer.name == "scale" and layer.scope_name == "scale"
    assert [v.name for v in layer.trainable_weights] == ["scale/w:0"]
    assert [v.name for v in layer.non_trainable_weights] == ["scale/count:0"]
    assert [v.name for v in layer.variables] == ["scale/w:0", "scale/count:0"]
    assert len(layer.updates) == 2 and tf.get_collection(tf.GraphKeys.UPDATE_OPS) == layer.updates
    assert layer.losses == tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert [t.name for t in layer.losses] == ["scale/w/Regularizer/Sum:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, loss, _ = sess.run([y, layer.losses[0], layer.updates])
        count = sess.run(layer.count)
    np.testing.assert_allclose(out, 2 * X)
    assert loss == 8.0 and count == 2.0


def test_input_spec_checks():
    layer = tf.layers.Layer()
    layer.input_spec = tf.layers.InputSpec(max_ndim=2, dtype="float32")
    with pytest.raises(ValueError, match="expected max_ndim=2, found ndim=3"):
        layer(tf.zeros([1, 2, 3]))
    with pytest.raises(ValueError, match="expected dtype=float32, found dtype=int32"):
        layer(tf.constant([[1]]))
    assert repr(tf.layers.InputSpec(ndim=2, axes={-1: 3})) == "InputSpec(ndim=2, axes={-1: 3})"
    with pytest.raises(ValueError, match="has not been used yet"):
        _ = tf.layers.Dense(2).scope_name
