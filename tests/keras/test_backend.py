"""tf.keras.backend: sessions, values, learning phase, functions and the Keras 2 math."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras import backend as K


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


def test_variable_get_set_value():
    v = K.variable([[1.0, 2.0], [3.0, 4.0]], name="v")
    np.testing.assert_allclose(K.get_value(v), [[1, 2], [3, 4]])
    K.set_value(v, np.zeros((2, 2)))
    K.batch_set_value([(v, np.ones((2, 2)))])
    assert K.batch_get_value([v])[0].tolist() == [[1, 1], [1, 1]]
    assert K.int_shape(v) == (2, 2) and K.ndim(v) == 2 and K.dtype(v) == "float32"
    assert K.count_params(v) == 4


def test_function_with_learning_phase_and_updates():
    x = K.placeholder(shape=(None, 3))
    y = K.in_train_phase(lambda: x * 2.0, lambda: x)
    counter = K.variable(0.0)
    f = K.function([x, K.learning_phase()], [y], updates=[(counter, counter + 1.0)])
    np.testing.assert_allclose(f([np.ones((1, 3)), 1])[0], [[2, 2, 2]])
    np.testing.assert_allclose(f([np.ones((1, 3)), 0])[0], [[1, 1, 1]])
    assert K.get_value(counter) == 2.0
    g = K.function([x], [y])
    np.testing.assert_allclose(g([np.ones((1, 3))])[0], [[1, 1, 1]])  # default: test phase


def test_crossentropies_match_keras_formulas():
    eps = K.epsilon()
    t = np.array([[0.0, 1.0], [1.0, 0.0]], "float32")
    o = np.array([[0.3, 0.7], [1.0, 0.0]], "float32")
    clipped = np.clip(o, eps, 1 - eps)
    cce = K.eval(K.categorical_crossentropy(K.constant(t), K.constant(o)))
    np.testing.assert_allclose(cce, -(t * np.log(clipped)).sum(-1), rtol=1e-5)
    bce = K.eval(K.binary_crossentropy(K.constant(t), K.constant(o)))
    np.testing.assert_allclose(bce, -(t * np.log(clipped) + (1 - t) * np.log(1 - clipped)), rtol=1e-4, atol=1e-6)
    scce = K.eval(K.sparse_categorical_crossentropy(K.constant([1.0, 0.0]), K.constant(o)))
    np.testing.assert_allclose(scce, cce, rtol=1e-5)
    logits = np.array([[1.0, 2.0]], "float32")
    ref = -np.log(np.exp(2) / (np.exp(1) + np.exp(2)))
    np.testing.assert_allclose(K.eval(K.categorical_crossentropy(K.constant([[0.0, 1.0]]), K.constant(logits),
                                                                 from_logits=True)), [ref], rtol=1e-5)


def test_math_helpers():
    a = np.arange(6, dtype="float32").reshape(2, 3)
    ca = K.constant(a)
    np.testing.assert_allclose(K.eval(K.mean(ca, axis=1)), a.mean(1))
    np.testing.assert_allclose(K.eval(K.sum(ca)), a.sum())
    np.testing.assert_allclose(K.eval(K.clip(ca, 1.0, 4.0)), np.clip(a, 1, 4))
    np.testing.assert_allclose(K.eval(K.dot(ca, K.transpose(ca))), a @ a.T)
    np.testing.assert_allclose(K.eval(K.batch_dot(ca, ca, axes=1)), (a * a).sum(1, keepdims=True))
    np.testing.assert_allclose(K.eval(K.relu(K.constant([-1.0, 7.0]), alpha=0.1, max_value=6.0)), [-0.1, 6.0])
    np.testing.assert_allclose(K.eval(K.concatenate([ca, ca])), np.concatenate([a, a], -1))
    assert K.eval(K.switch(K.constant(True, dtype="bool"), ca, ca * 0)).sum() == a.sum()
    np.testing.assert_allclose(K.eval(K.softmax(ca)).sum(-1), [1, 1], rtol=1e-6)
    np.testing.assert_allclose(K.eval(K.gather(ca, [1])), a[[1]])


def test_set_learning_phase_and_floatx():
    K.set_learning_phase(1)
    assert K.learning_phase() == 1
    with pytest.raises(ValueError):
        K.set_learning_phase(2)
    K.clear_session()
    assert tf.is_tensor(K.learning_phase())
    assert K.floatx() == "float32"
    with pytest.raises(ValueError):
        K.set_floatx("int3")


def test_batch_dot_ranks():
    rng = np.random.RandomState(1)
    x = rng.randn(2, 3, 4).astype("float32")
    y = rng.randn(2, 4, 5).astype("float32")
    v = rng.randn(2, 4).astype("float32")
    np.testing.assert_allclose(K.eval(K.batch_dot(K.constant(x), K.constant(y))), x @ y, rtol=1e-5)
    np.testing.assert_allclose(K.eval(K.batch_dot(K.constant(x), K.constant(v), axes=(2, 1))),
                               np.einsum("bnm,bm->bn", x, v), rtol=1e-5)
    np.testing.assert_allclose(K.eval(K.batch_dot(K.constant(v), K.constant(y), axes=(1, 1))),
                               np.einsum("bm,bmk->bk", v, y), rtol=1e-5)
