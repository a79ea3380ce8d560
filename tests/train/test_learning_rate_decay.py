"""Learning-rate schedules vs NumPy re-implementations of TF's formulas at several global steps."""

import math

import numpy as np
import pytest

import tensorweave as tf

STEPS = [0, 1, 5, 10, 99, 100, 101, 250, 1000, 1234]
f32 = np.float32


def _exponential(step, staircase):
    p = f32(step) / f32(100)
    if staircase:
        p = np.floor(p)
    return f32(0.1) * f32(0.96) ** p


def _polynomial(step, power, cycle, end=f32(0.0001)):
    step, steps = f32(step), f32(100)
    if cycle:
        steps = steps * (f32(1) if step == 0 else np.ceil(step / steps))
    else:
        step = min(step, steps)
    return (f32(0.1) - end) * (1 - step / steps) ** f32(power) + end


def _natural_exp(step, staircase):
    p = f32(step) / f32(100)
    if staircase:
        p = np.floor(p)
    return f32(0.1) * np.exp(-f32(0.5)) ** p


def _inverse_time(step, staircase):
    p = f32(step) / f32(100)
    if staircase:
        p = np.floor(p)
    return f32(0.1) / (1 + f32(0.5) * p)


def _cosine(step, alpha):
    frac = min(f32(step), f32(100)) / f32(100)
    return f32(0.1) * ((1 - alpha) * f32(0.5) * (1 + np.cos(f32(math.pi) * frac)) + alpha)


def _linear_cosine(step):
    s = min(f32(step), f32(100))
    linear = (f32(100) - s) / f32(100)
    cosine = f32(0.5) * (1 + np.cos(f32(math.pi) * (2 * f32(0.5) * (s / f32(100)))))
    return f32(0.1) * ((0 + linear) * cosine + f32(0.001))


def _restarts(step, t_mul, m_mul, alpha):
    frac = f32(step) / f32(100)
    t_mul, m_mul = f32(t_mul), f32(m_mul)
    if t_mul == 1:
        i = np.floor(frac)
        frac = frac - i
    else:
        i = np.floor(np.log(1 - frac * (1 - t_mul)) / np.log(t_mul))
        frac = (frac - (1 - t_mul ** i) / (1 - t_mul)) / t_mul ** i
    return f32(0.1) * ((1 - f32(alpha)) * (f32(0.5) * m_mul ** i * (1 + np.cos(f32(math.pi) * frac))) + f32(alpha))


SCHEDULES = [
    ("exponential", lambda gs: tf.train.exponential_decay(0.1, gs, 100, 0.96), lambda s: _exponential(s, False)),
    ("exponential_staircase", lambda gs: tf.train.exponential_decay(0.1, gs, 100, 0.96, staircase=True),
     lambda s: _exponential(s, True)),
    ("polynomial", lambda gs: tf.train.polynomial_decay(0.1, gs, 100), lambda s: _polynomial(s, 1.0, False)),
    ("polynomial_power", lambda gs: tf.train.polynomial_decay(0.1, gs, 100, end_learning_rate=0.01, power=0.5),
     lambda s: _polynomial(s, 0.5, False, f32(0.01))),
    ("polynomial_cycle", lambda gs: tf.train.polynomial_decay(0.1, gs, 100, power=2.0, cycle=True),
     lambda s: _polynomial(s, 2.0, True)),
    ("natural_exp", lambda gs: tf.train.natural_exp_decay(0.1, gs, 100, 0.5), lambda s: _natural_exp(s, False)),
    ("natural_exp_staircase", lambda gs: tf.train.natural_exp_decay(0.1, gs, 100, 0.5, staircase=True),
     lambda s: _natural_exp(s, True)),
    ("inverse_time", lambda gs: tf.train.inverse_time_decay(0.1, gs, 100, 0.5), lambda s: _inverse_time(s, False)),
    ("inverse_time_staircase", lambda gs: tf.train.inverse_time_decay(0.1, gs, 100, 0.5, staircase=True),
     lambda s: _inverse_time(s, True)),
    ("cosine", lambda gs: tf.train.cosine_decay(0.1, gs, 100), lambda s: _cosine(s, 0.0)),
    ("cosine_alpha", lambda gs: tf.train.cosine_decay(0.1, gs, 100, alpha=0.2), lambda s: _cosine(s, 0.2)),
    ("linear_cosine", lambda gs: tf.train.linear_cosine_decay(0.1, gs, 100), _linear_cosine),
    ("restarts", lambda gs: tf.train.cosine_decay_restarts(0.1, gs, 100), lambda s: _restarts(s, 2.0, 1.0, 0.0)),
    ("restarts_t1", lambda gs: tf.train.cosine_decay_restarts(0.1, gs, 100, t_mul=1.0, m_mul=0.5, alpha=0.1),
     lambda s: _restarts(s, 1.0, 0.5, 0.1)),
    ("restarts_tensor_t", lambda gs: tf.train.cosine_decay_restarts(0.1, gs, 100, t_mul=tf.constant(3.0), m_mul=0.8),
     lambda s: _restarts(s, 3.0, 0.8, 0.0)),
    ("restarts_tensor_t1", lambda gs: tf.train.cosine_decay_restarts(0.1, gs, 100, t_mul=tf.constant(1.0)),
     lambda s: _restarts(s, 1.0, 1.0, 0.0)),
]


@pytest.mark.parametrize("_, schedule, reference", SCHEDULES, ids=[r[0] for r in SCHEDULES])
def test_schedules_match_formulas(_, schedule, reference):
    gs = tf.placeholder(tf.int64, [])
    lr = schedule(gs)
    assert lr.dtype == tf.float32 and lr.shape.as_list() == []
    with tf.Session() as sess:
        for step in STEPS:
            got = sess.run(lr, {gs: step})
            assert isinstance(got, np.float32)
            np.testing.assert_allclose(got, reference(step), rtol=2e-6, err_msg="step %d" % step)


def test_float64_learning_rate_keeps_its_dtype():
    gs = tf.placeholder(tf.int32, [])
    lr = tf.train.exponential_decay(tf.constant(0.1, tf.float64), gs, 10, 0.5, staircase=True)
    assert lr.dtype == tf.float64
    with tf.Session() as sess:
        assert sess.run(lr, {gs: 25}) == 0.1 * np.float64(np.float32(0.5)) ** 2


def test_piecewise_constant_boundaries():
    x = tf.placeholder(tf.int64, [])
    lr = tf.train.piecewise_constant(x, [10, 20], [1.0, 0.5, 0.1])
    assert lr.dtype == tf.float32
    expected = {0: 1.0, 9: 1.0, 10: 1.0, 11: 0.5, 20: 0.5, 21: 0.1, 1000: 0.1}
    with tf.Session() as sess:
        for step, value in expected.items():
            assert sess.run(lr, {x: step}) == np.float32(value), step


def test_piecewise_constant_float_x_and_single_boundary():
    x = tf.placeholder(tf.float32, [])
    lr = tf.train.piecewise_constant(x, [0.5], [np.float64(3.0), np.float64(4.0)])
    assert lr.dtype == tf.float64
    with tf.Session() as sess:
        assert [sess.run(lr, {x: v}) for v in (0.25, 0.5, 0.75)] == [3.0, 3.0, 4.0]


def test_piecewise_constant_errors():
    x = tf.placeholder(tf.int32, [])
    with pytest.raises(ValueError, match="The length of boundaries should be 1 less than the length of values"):
        tf.train.piecewise_constant(x, [1, 2], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"Boundaries \(.*float32.*\) must have the same dtype as x \(.*int32.*\)"):
        tf.train.piecewise_constant(x, [1.5], [1.0, 2.0])
    with pytest.raises(ValueError, match="Values must have elements all with the same dtype"):
        tf.train.piecewise_constant(x, [1], [1.0, 2])


@pytest.mark.parametrize("fn, message", [
    (lambda: tf.train.exponential_decay(0.1, None, 10, 0.5), "global_step is required for exponential_decay."),
    (lambda: tf.train.polynomial_decay(0.1, None, 10), "global_step is required for polynomial_decay."),
    (lambda: tf.train.natural_exp_decay(0.1, None, 10, 0.5), "global_step is required for natural_exp_decay."),
    (lambda: tf.train.inverse_time_decay(0.1, None, 10, 0.5), "global_step is required for inverse_time_decay."),
    (lambda: tf.train.cosine_decay(0.1, None, 10), "cosine decay requires global_step"),
    (lambda: tf.train.linear_cosine_decay(0.1, None, 10), "linear cosine decay requires global_step"),
    (lambda: tf.train.cosine_decay_restarts(0.1, None, 10), "cosine decay restarts requires global_step"),
])
def test_global_step_required(fn, message):
    with pytest.raises(ValueError, match=message):
        fn()


def test_decayed_rate_drives_training_with_the_global_step():
    gs = tf.train.get_or_create_global_step()
    lr = tf.train.exponential_decay(1.0, gs, 1, 0.5, staircase=True)
    w = tf.Variable(0.0, name="w")
    train = tf.train.GradientDescentOptimizer(lr).minimize(-w, global_step=gs)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(4):
            sess.run(train)
        assert sess.run(gs) == 4
        np.testing.assert_allclose(sess.run(w), 1.0 + 0.5 + 0.25 + 0.125)


def test_noisy_linear_cosine_decay_is_linear_cosine_plus_noise_of_the_stated_variance():
    import numpy as np

    import tensorweave as tf
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        step = tf.placeholder(tf.int64, [])
        exact = tf.train.linear_cosine_decay(0.5, step, 100, num_periods=0.5, alpha=0.1, beta=0.01)
        quiet = tf.train.noisy_linear_cosine_decay(0.5, step, 100, initial_variance=0.0, alpha=0.1, beta=0.01)
        noisy = tf.train.noisy_linear_cosine_decay(0.5, step, 100, initial_variance=2.0, variance_decay=0.55,
                                                   alpha=0.1, beta=0.01)
        with tf.Session() as sess:
            for s in (0, 30, 100, 150):
                a, b = sess.run([exact, quiet], {step: s})
                assert abs(a - b) < 1e-7
            draws = np.array([sess.run(noisy, {step: 30}) for _ in range(3000)])
            base = sess.run(exact, {step: 30})
    cosine = 0.5 * (1 + np.cos(np.pi * 2 * 0.5 * 30 / 100))
    std = 0.5 * cosine * np.sqrt(2.0 / (1 + 30) ** 0.55)
    assert abs(draws.mean() - base) < 4 * std / np.sqrt(len(draws))
    assert abs(draws.std() / std - 1) < 0.08
    assert tf.train.piecewise_constant_decay is tf.train.piecewise_constant
