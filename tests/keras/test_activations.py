"""tf.keras.activations against tf.keras goldens and NumPy."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras import activations

from ._golden import DATA, INPUTS

A = activations
ACTS = {
    "relu": lambda x: A.relu(x),
    "relu_alpha": lambda x: A.relu(x, alpha=0.1),
    "relu_max": lambda x: A.relu(x, max_value=1.5),
    "relu_max6": lambda x: A.relu(x * 3, max_value=6),
    "relu_thr": lambda x: A.relu(x, threshold=0.5),
    "relu_all": lambda x: A.relu(x, alpha=0.2, max_value=2.0, threshold=0.5),
    "elu": lambda x: A.elu(x), "elu_alpha": lambda x: A.elu(x, alpha=0.5), "selu": A.selu,
    "softplus": A.softplus, "softsign": A.softsign, "sigmoid": A.sigmoid, "tanh": A.tanh,
    "exponential": A.exponential, "linear": A.linear, "softmax": A.softmax,
    "softmax3d": lambda x: A.softmax(tf.reshape(x, [3, 1, 5]), axis=1),
    "softmax3d_last": lambda x: A.softmax(tf.reshape(x, [1, 3, 5])),
}


def test_activations_match_tf_keras():
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.constant(INPUTS["X"])
        got = sess.run({k: tf.convert_to_tensor(f(x)) for k, f in ACTS.items()})
    for k, v in got.items():
        np.testing.assert_allclose(v, DATA["activations"][k], rtol=1e-6, atol=1e-6, err_msg=k)


def test_hard_sigmoid_is_keras2():
    x = np.array([-4., -2.5, -1., 0., 0.7, 2.5, 3.], np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run(A.hard_sigmoid(tf.constant(x)))
    np.testing.assert_allclose(got, np.clip(0.2 * x + 0.5, 0, 1), rtol=1e-6)


def test_get_serialize_and_errors():
    assert A.get(None) is A.linear
    assert A.get("relu") is A.relu
    assert A.get(A.tanh) is A.tanh
    assert A.serialize(A.softmax) == "softmax"
    assert A.deserialize("hard_sigmoid") is A.hard_sigmoid
    with pytest.raises(ValueError, match="Unknown activation function:nope"):
        A.get("nope")
    with pytest.raises(ValueError, match="Could not interpret activation function identifier: 3"):
        A.get(3)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Cannot apply softmax to a tensor that is 1D"):
            A.softmax(tf.constant([1., 2.]))
