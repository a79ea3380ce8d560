"""tf.keras.initializers, regularizers and constraints."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras import constraints, initializers, regularizers


def _run(t):
    with tf.Session() as sess:
        return sess.run(t)


def test_deterministic_initializers():
    with tf.Graph().as_default():
        np.testing.assert_array_equal(_run(initializers.Zeros()((2, 3))), np.zeros((2, 3)))
        np.testing.assert_array_equal(_run(initializers.ones()((2,))), np.ones(2))
        np.testing.assert_array_equal(_run(initializers.Constant(2.5)((2, 2))), np.full((2, 2), 2.5))
        np.testing.assert_array_equal(_run(initializers.Identity(gain=2.)((2, 3))), 2 * np.eye(2, 3))
        q = _run(initializers.Orthogonal(seed=1)((4, 4)))
        np.testing.assert_allclose(q.T @ q, np.eye(4), atol=1e-5)


@pytest.mark.parametrize("init,check", [
    (initializers.RandomUniform(seed=1), lambda v: -0.05 <= v.min() and v.max() < 0.05),
    (initializers.RandomNormal(seed=1), lambda v: abs(v.std() - 0.05) < 0.005),
    (initializers.TruncatedNormal(seed=1), lambda v: np.abs(v).max() <= 0.1),
    (initializers.glorot_uniform(seed=1), lambda v: np.abs(v).max() <= np.sqrt(6 / 300)),
    (initializers.he_uniform(seed=1), lambda v: np.abs(v).max() <= np.sqrt(6 / 200)),
    (initializers.lecun_uniform(seed=1), lambda v: np.abs(v).max() <= np.sqrt(3 / 200)),
    (initializers.he_normal(seed=1), lambda v: abs(v.std() - np.sqrt(2 / 200)) < 0.01),
    (initializers.lecun_normal(seed=1), lambda v: abs(v.std() - np.sqrt(1 / 200)) < 0.01),
    (initializers.glorot_normal(seed=1), lambda v: abs(v.std() - np.sqrt(2 / 300)) < 0.01),
])
def test_random_initializers(init, check):
    with tf.Graph().as_default():
        v = _run(init((200, 100), dtype=tf.float32))
    assert v.shape == (200, 100) and v.dtype == np.float32
    assert check(v)


def test_initializer_config_and_errors():
    init = initializers.VarianceScaling(scale=2., mode="fan_avg", distribution="uniform", seed=3)
    clone = initializers.deserialize(initializers.serialize(init))
    assert isinstance(clone, initializers.VarianceScaling) and clone.get_config() == init.get_config()
    assert isinstance(initializers.get("glorot_uniform"), initializers.GlorotUniform)
    assert isinstance(initializers.get("he_normal"), initializers.VarianceScaling)
    assert initializers.get("uniform").get_config()["maxval"] == 0.05
    assert initializers.get(None) is None
    with pytest.raises(ValueError, match="Unknown initializer: nope"):
        initializers.get("nope")
    with pytest.raises(ValueError, match="Could not interpret initializer identifier: 3"):
        initializers.get(3)


def test_regularizers():
    w = np.array([[1., -2.], [0.5, 3.]], np.float32)
    with tf.Graph().as_default():
        got = _run([regularizers.l1(0.1)(w), regularizers.l2(0.2)(w), regularizers.l1_l2(0.1, 0.2)(w)])
    np.testing.assert_allclose(got, [0.65, 0.2 * 14.25, 0.65 + 0.2 * 14.25], rtol=1e-6)
    reg = regularizers.get({"class_name": "L1L2", "config": {"l1": 0.3, "l2": 0.0}})
    assert reg.get_config() == {"l1": 0.3, "l2": 0.0}
    assert regularizers.serialize(reg) == {"class_name": "L1L2", "config": {"l1": 0.3, "l2": 0.0}}
    assert regularizers.L1L2()(w) == 0.
    with pytest.raises(ValueError, match="Unknown regularizer: nope"):
        regularizers.get("nope")


def test_constraints():
    w = np.array([[3., 0.1], [4., -0.2]], np.float32)
    norms = np.sqrt((w ** 2).sum(0, keepdims=True))
    with tf.Graph().as_default():
        got = _run([constraints.MaxNorm(2.)(w), constraints.NonNeg()(w), constraints.UnitNorm()(w),
                    constraints.MinMaxNorm(1., 2., rate=0.5)(w), constraints.UnitNorm(axis=1)(w)])
    np.testing.assert_allclose(got[0], w * np.clip(norms, 0, 2) / (1e-7 + norms), rtol=1e-6)
    np.testing.assert_array_equal(got[1], np.maximum(w, 0))
    np.testing.assert_allclose(got[2], w / (1e-7 + norms), rtol=1e-6)
    desired = 0.5 * np.clip(norms, 1, 2) + 0.5 * norms
    np.testing.assert_allclose(got[3], w * desired / (1e-7 + norms), rtol=1e-6)
    np.testing.assert_allclose(got[4], w / (1e-7 + np.sqrt((w ** 2).sum(1, keepdims=True))), rtol=1e-6)
    c = constraints.get({"class_name": "MaxNorm", "config": {"max_value": 3, "axis": [0, 1]}})
    assert c.get_config() == {"max_value": 3, "axis": [0, 1]}
    assert isinstance(constraints.get("non_neg"), constraints.NonNeg)
    with pytest.raises(ValueError, match="Unknown constraint: nope"):
        constraints.get("nope")


def test_radial_constraint_matches_tf_keras():
    import json
    import os
    with open(os.path.join(os.path.dirname(__file__), "..", "data", "keras_constraints_tf.json")) as f:
        cases = json.load(f)["radial"]
    with tf.Graph().as_default(), tf.Session() as sess:
        for case in cases:
            w = np.array(case["w"], np.float32)
            np.testing.assert_array_equal(sess.run(constraints.RadialConstraint()(w)), case["result"])
        w1 = np.ones((1, 1, 2, 2), np.float32)
        np.testing.assert_array_equal(sess.run(constraints.radial_constraint()(w1)), w1)
        with pytest.raises(ValueError, match="The weight tensor must be of rank 4"):
            constraints.RadialConstraint()(np.ones((3, 3), np.float32))
    assert isinstance(constraints.get("RadialConstraint"), constraints.RadialConstraint)
