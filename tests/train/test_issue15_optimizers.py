"""tf.train.FtrlOptimizer, ProximalGradientDescentOptimizer, ProximalAdagradOptimizer and
ExponentialMovingAverage (issue 15, item 12) against values recorded from real TensorFlow by
tests/data/tf_issue15_golden.py (in tests/data/tf_issue15_golden.json)."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops import training_ops

GOLDEN_PATH = os.path.join(os.path.dirname(__file__), os.pardir, "data", "tf_issue15_golden.json")
with open(GOLDEN_PATH) as _f:
    GOLDEN = json.load(_f)

GRADS = [np.array([[0.1, -0.2], [0.3, 0.05]]), np.array([[-0.4, 0.2], [0.0, 1.5]]),
         np.array([[0.25, 0.25], [-0.7, -0.1]])]
INIT = np.array([[1.0, 2.0], [-3.0, 0.5]])

OPTIMIZERS = {
    "ftrl": lambda: tf.train.FtrlOptimizer(0.1),
    "ftrl_l1_l2": lambda: tf.train.FtrlOptimizer(0.3, initial_accumulator_value=0.2, l1_regularization_strength=0.05,
                                                 l2_regularization_strength=0.1),
    "ftrl_power": lambda: tf.train.FtrlOptimizer(0.2, learning_rate_power=-0.3, l1_regularization_strength=0.01,
                                                 l2_regularization_strength=0.02),
    "ftrl_power0": lambda: tf.train.FtrlOptimizer(0.2, learning_rate_power=0.0, l1_regularization_strength=0.01),
    "ftrl_shrinkage": lambda: tf.train.FtrlOptimizer(0.3, l1_regularization_strength=0.05,
                                                     l2_regularization_strength=0.1,
                                                     l2_shrinkage_regularization_strength=0.05),
    "proximal_gd": lambda: tf.train.ProximalGradientDescentOptimizer(0.1),
    "proximal_gd_l1_l2": lambda: tf.train.ProximalGradientDescentOptimizer(0.3, l1_regularization_strength=0.05,
                                                                           l2_regularization_strength=0.1),
    "proximal_adagrad": lambda: tf.train.ProximalAdagradOptimizer(0.1),
    "proximal_adagrad_l1_l2": lambda: tf.train.ProximalAdagradOptimizer(0.3, initial_accumulator_value=0.2,
                                                                        l1_regularization_strength=0.05,
                                                                        l2_regularization_strength=0.1),
}


def _run(make, dtype):
    w = tf.Variable(INIT.astype(dtype), name="w")
    g = tf.placeholder(tf.as_dtype(dtype), [2, 2])
    opt = make()
    train = opt.apply_gradients([(g, w)])
    slots = {n: opt.get_slot(w, n) for n in opt.get_slot_names()}
    steps = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for grad in GRADS:
            sess.run(train, {g: grad.astype(dtype)})
            steps.append({"var": sess.run(w), **{n: sess.run(s) for n, s in slots.items()}})
    return {n: s.op.name for n, s in slots.items()}, steps


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_float32_updates_match_tensorflow(name):
    expected = GOLDEN["optimizers"][name]
    slot_names, steps = _run(OPTIMIZERS[name], np.float32)
    assert slot_names == expected["slot_names"]
    for got, exp in zip(steps, expected["steps"]):
        assert sorted(got) == sorted(exp)
        for k in exp:
            assert got[k].dtype == np.float32
            np.testing.assert_allclose(got[k], np.array(exp[k], np.float32), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(k for k in OPTIMIZERS if k.startswith("ftrl")))
def test_ftrl_float64_updates_match_tensorflow(name):
    expected = GOLDEN["optimizers64"][name]
    _, steps = _run(OPTIMIZERS[name], np.float64)
    for got, exp in zip(steps, expected["steps"]):
        for k in exp:
            np.testing.assert_allclose(got[k], exp[k], rtol=1e-13)


def test_recorded_numbers():
    # A few of the recorded TensorFlow values, written out: FTRL's first step from var = 1.0,
    # grad = 0.1, accum = 0.1, lr = 0.1 (accum 0.11, linear -0.05434712, var 0.01638627).
    first = GOLDEN["optimizers"]["ftrl"]["steps"][0]
    assert first["accum"][0][0] == pytest.approx(0.11, rel=1e-6)
    assert first["linear"][0][0] == pytest.approx(-0.054347120225429535, rel=1e-6)
    assert first["var"][0][0] == pytest.approx(0.016386274248361588, rel=1e-6)
    _, steps = _run(OPTIMIZERS["ftrl"], np.float32)
    assert steps[0]["var"][0, 0] == pytest.approx(0.016386274248361588, rel=1e-6)
    # Proximal gradient descent with l1 = 0.05, l2 = 0.1, lr = 0.3 from var = 1.0, grad = 0.1:
    # sign(0.97) * max(0.97 - 0.015, 0) / 1.03 = 0.92718446.
    _, steps = _run(OPTIMIZERS["proximal_gd_l1_l2"], np.float32)
    assert steps[0]["var"][0, 0] == pytest.approx(0.955 / 1.03, rel=1e-6)
    assert GOLDEN["optimizers"]["proximal_gd_l1_l2"]["steps"][0]["var"][0][0] == pytest.approx(0.955 / 1.03, rel=1e-6)


@pytest.mark.parametrize("name, param", [("proximal_gd", "alpha"), ("proximal_adagrad", "lr")])
def test_proximal_optimizers_do_not_cast_hyperparameters(name, param):
    # TF1 converts the hyper-parameters to float32 tensors without casting them to the variable's dtype.
    op = "ApplyProximalGradientDescent" if name == "proximal_gd" else "ApplyProximalAdagrad"
    assert GOLDEN["optimizers64"][name].startswith("TypeError: Input '%s' of '%s' Op has type float32 that does not "
                                                   "match type float64 of argument 'var'" % (param, op))
    with pytest.raises(TypeError, match="Input '%s' of '%s' Op has type float32 that does not match type float64 of "
                                        "argument 'var'" % (param, op)):
        _run(OPTIMIZERS[name], np.float64)
    w = tf.Variable(INIT, name="w64")
    opt = (tf.train.ProximalGradientDescentOptimizer if name == "proximal_gd" else tf.train.ProximalAdagradOptimizer)(
        tf.constant(0.1, tf.float64), l1_regularization_strength=tf.constant(0.0, tf.float64),
        l2_regularization_strength=tf.constant(0.0, tf.float64))
    train = opt.apply_gradients([(tf.constant(GRADS[0]), w)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        assert sess.run(w).dtype == np.float64


@pytest.mark.parametrize("name", ["ftrl_l1_l2", "proximal_gd_l1_l2", "proximal_adagrad_l1_l2"])
def test_sparse_gradients_update_only_their_rows(name):
    w = tf.Variable(np.array([[1.0, 2.0], [-3.0, 0.5], [0.7, -0.2]], np.float32), name="w")
    loss = tf.reduce_sum(tf.gather(w, [0, 2, 0]) * tf.constant([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]))
    train = OPTIMIZERS[name]().minimize(loss)
    types = {op.type for op in tf.get_default_graph().get_operations()}
    assert any(t.startswith("SparseApply") for t in types)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for expected in GOLDEN["sparse"][name]:
            sess.run(train)
            got = sess.run(w)
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
            assert got[1].tolist() == [-3.0, 0.5]   # the row no index names is untouched


def _raw_cases():
    v = tf.Variable(np.ones(2, np.float32))
    a = tf.Variable(np.ones(2, np.float32))
    lin = tf.Variable(np.zeros(2, np.float32))
    g = tf.constant(np.ones(2, np.float32))
    pl = tf.placeholder(tf.float32)
    g3 = tf.placeholder_with_default(np.ones(3, np.float32), [None])
    cases = {
        "ftrl_negative_lr": lambda: training_ops.apply_ftrl(v, a, lin, g, -1.0, 0.0, 0.0, -0.5),
        "ftrl_lr_vector": lambda: training_ops.apply_ftrl(v, a, lin, g, pl, 0.0, 0.0, -0.5),
        "ftrl_grad_shape": lambda: training_ops.apply_ftrl(v, a, lin, g3, 1.0, 0.0, 0.0, -0.5),
        "pgd_alpha_vector": lambda: training_ops.apply_proximal_gradient_descent(v, pl, 0.0, 0.0, g),
        "pgd_negative_l1": lambda: training_ops.apply_proximal_gradient_descent(v, 1.0, -1.0, 0.0, g),
        "padagrad_zero_lr": lambda: training_ops.apply_proximal_adagrad(v, a, 0.0, 0.0, 0.0, g),
        "padagrad_negative_l1": lambda: training_ops.apply_proximal_adagrad(v, a, 1.0, -1.0, 0.0, g),
        "padagrad_negative_l2": lambda: training_ops.apply_proximal_adagrad(v, a, 1.0, 0.0, -1.0, g),
        "padagrad_lr_vector": lambda: training_ops.apply_proximal_adagrad(v, a, pl, 0.0, 0.0, g),
    }
    return cases, pl


@pytest.mark.parametrize("case", sorted(GOLDEN["errors"]))
def test_raw_op_errors_match_tensorflow(case):
    cases, pl = _raw_cases()
    op = cases[case]()
    expected = GOLDEN["errors"][case]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        if expected == "ok":
            sess.run(op, {pl: [1.0, 2.0]})
            return
        cls, message = expected.split(": ", 1)
        with pytest.raises(getattr(tf.errors, cls)) as info:
            sess.run(op, {pl: [1.0, 2.0]})
        assert message in str(info.value) and op.op.name in str(info.value)


def test_sparse_op_errors():
    v = tf.Variable(np.ones((3, 2), np.float32))
    a = tf.Variable(np.ones((3, 2), np.float32))
    g = tf.constant(np.ones((2, 2), np.float32))
    bad_index = training_ops.sparse_apply_proximal_adagrad(v, a, 0.1, 0.0, 0.0, g, [0, 3])
    bad_rows = training_ops.sparse_apply_proximal_gradient_descent(v, 0.1, 0.0, 0.0, g,
                                                                   tf.placeholder_with_default([0, 1, 2], [None]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match="Index 3 at offset 1 in indices is out of range"):
            sess.run(bad_index)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="grad must be the same size as indices in the first dimension"):
            sess.run(bad_rows)
    with pytest.raises(TypeError, match="Value passed to parameter 'indices' has DataType float32"):
        training_ops.sparse_apply_proximal_gradient_descent(v, 0.1, 0.0, 0.0, g, [0.0, 1.0])
    with pytest.raises(ValueError, match="incompatible beyond the first dimension"):
        training_ops.sparse_apply_proximal_gradient_descent(v, 0.1, 0.0, 0.0, tf.ones([2, 3]), [0, 1])


@pytest.mark.parametrize("kwargs, message", [
    ({"initial_accumulator_value": -0.1}, "initial_accumulator_value -0.100000 needs to be positive or zero"),
    ({"learning_rate_power": 0.5}, "learning_rate_power 0.500000 needs to be negative or zero"),
    ({"l1_regularization_strength": -1.0}, "l1_regularization_strength -1.000000 needs to be positive or zero"),
    ({"l2_regularization_strength": -1.0}, "l2_regularization_strength -1.000000 needs to be positive or zero"),
    ({"l2_shrinkage_regularization_strength": -1.0},
     "l2_shrinkage_regularization_strength -1.000000 needs to be positive or zero"),
])
def test_ftrl_argument_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tf.train.FtrlOptimizer(0.1, **kwargs)


def test_proximal_adagrad_argument_error_and_defaults():
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive: 0.0"):
        tf.train.ProximalAdagradOptimizer(0.1, initial_accumulator_value=0.0)
    assert tf.train.ProximalAdagradOptimizer(0.1).get_name() == "ProximalAdagrad"
    assert tf.train.ProximalGradientDescentOptimizer(0.1).get_name() == "ProximalGradientDescent"
    ftrl = tf.train.FtrlOptimizer(0.1, accum_name="acc", linear_name="lin")
    w = tf.Variable(INIT, name="w")
    ftrl.apply_gradients([(tf.constant(GRADS[0]), w)])
    assert [ftrl.get_slot(w, n).op.name for n in ("accum", "linear")] == ["w/acc", "w/lin"]


def test_ftrl_minimize_eagerly():
    from tensorweave.eager import context
    with context.eager_mode():
        w = tf.Variable(INIT.astype(np.float32))
        opt = tf.train.FtrlOptimizer(0.1)
        for grad in GRADS:
            opt.apply_gradients([(tf.constant(grad.astype(np.float32)), w)])
        np.testing.assert_allclose(w.numpy(), GOLDEN["optimizers"]["ftrl"]["steps"][-1]["var"], rtol=1e-6)


# ---- ExponentialMovingAverage ------------------------------------------------------------------------
def test_exponential_moving_average_matches_tensorflow():
    expected = GOLDEN["ema"]
    w = tf.Variable(1.0, name="w")
    w64 = tf.Variable(np.array([1.0, -2.0]), name="w64")
    step = tf.Variable(0, name="step", trainable=False)
    ema = tf.train.ExponentialMovingAverage(0.9)
    upd = ema.apply([w, w64])
    ema2 = tf.train.ExponentialMovingAverage(0.99, num_updates=step, name="ema2")
    upd2 = ema2.apply(v for v in [w])
    t = tf.placeholder(tf.float32, [])
    t_read = t * 1.0
    ema3 = tf.train.ExponentialMovingAverage(0.8, zero_debias=True, name="debiased")
    upd3 = ema3.apply([t_read])
    assert upd.type == "NoOp" and upd.name == "ExponentialMovingAverage"
    assert ema.name == "ExponentialMovingAverage"
    names = [ema.average(w).name, ema.average(w64).name, ema2.average(w).name, ema3.average(t_read).name,
             ema.average_name(w), ema2.average_name(w64)]
    assert names == expected["names"]
    assert sorted(v.op.name for v in tf.global_variables() if "debiased" in v.op.name) == expected["debias_vars"]
    assert sorted(ema.variables_to_restore()) == expected["restore"]
    assert ema.variables_to_restore()["w/ExponentialMovingAverage"] is w
    assert [v.op.name for v in tf.moving_average_variables()] == expected["moving_average_variables"]
    assert not ema.average(w).trainable and ema.average(step) is None
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i, ((wv, tv), exp) in enumerate(zip([(2.0, 3.0), (5.0, -1.0), (-1.0, 4.0)], expected["values"])):
            sess.run([w.assign(wv), w64.assign(w64 * 3.0), step.assign(i * 5)])
            sess.run([upd, upd2, upd3], {t: tv})
            got = [sess.run(ema.average(w)), sess.run(ema.average(w64)), sess.run(ema2.average(w)),
                   sess.run(ema3.average(t_read))]
            np.testing.assert_allclose(got[0], exp[0], rtol=1e-7)
            np.testing.assert_allclose(got[1], exp[1], rtol=1e-15)
            np.testing.assert_allclose(got[2], exp[2], rtol=1e-7)
            np.testing.assert_allclose(got[3], exp[3], rtol=1e-6)
    # the first update: 1.0 - (1 - 0.9) * (1.0 - 2.0) = 1.1 (the average starts at w's initial value)
    assert expected["values"][0][0] == pytest.approx(1.1)


def test_exponential_moving_average_errors_and_defaults():
    ema = tf.train.ExponentialMovingAverage(0.5)
    with pytest.raises(TypeError, match="The variables must be half, float, or double: i:0"):
        ema.apply([tf.Variable(1, name="i", trainable=False)])
    a = tf.Variable(3.0, name="a")
    upd = ema.apply()     # the trainable variables
    assert ema.average(a).name == "a/ExponentialMovingAverage:0"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(a.assign(5.0))
        sess.run(upd)
        assert sess.run(ema.average(a)) == 4.0


def test_ema_restores_averages_through_a_saver(tmp_path):
    w = tf.Variable(1.0, name="w")
    ema = tf.train.ExponentialMovingAverage(0.5)
    upd = ema.apply([w])
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(w.assign(3.0))
        sess.run(upd)   # average 2.0
        path = saver.save(sess, str(tmp_path / "model"))
    with tf.Graph().as_default():
        w2 = tf.Variable(0.0, name="w")
        restorer = tf.train.Saver(tf.train.ExponentialMovingAverage(0.5).variables_to_restore())
        with tf.Session() as sess:
            restorer.restore(sess, path)
            assert sess.run(w2) == 2.0


def test_eager_ema_rejects_tensors():
    from tensorweave.eager import context
    with context.eager_mode():
        ema = tf.train.ExponentialMovingAverage(0.5)
        with pytest.raises(TypeError, match="does not support non-Variable tensors when eager execution is enabled"):
            ema.apply([tf.constant(1.0)])
        v = tf.Variable(2.0, name="v")
        ema.apply([v])
        v.assign(4.0)
        ema.apply([v])
        assert ema.average(v).numpy() == 3.0
