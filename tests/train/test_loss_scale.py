"""Loss scaling (tf.train.experimental / tf.mixed_precision): trajectories recorded from TensorFlow 2.21."""

import numpy as np
import pytest

import tensorweave as tf


def test_dynamic_loss_scale_trajectory_equals_tf():
    with tf.Graph().as_default():
        ls = tf.train.experimental.DynamicLossScale(initial_loss_scale=8., increment_period=2, multiplier=2.)
        assert ls.get_config() == {"initial_loss_scale": 8.0, "increment_period": 2, "multiplier": 2.0}
        v = tf.Variable([1.0, 2.0], name="v")
        x = tf.placeholder(tf.float32, [])
        loss = tf.reduce_sum(v * v) * x
        opt = tf.train.experimental.MixedPrecisionLossScaleOptimizer(tf.train.GradientDescentOptimizer(0.1), ls)
        gs = tf.train.get_or_create_global_step()
        train = opt.minimize(loss, global_step=gs)
        assert train.name == "GradientDescent" and train.type == "NoOp" and opt.get_name() == "GradientDescent"
        assert [vv.name for vv in tf.global_variables()] == ["current_loss_scale:0", "good_steps:0", "v:0",
                                                              "global_step:0"]
        expected = [  # x, v, scale, global step: TF 2.21's values
            (1.0, [0.8, 1.6], 8.0, 1), (1.0, [0.64, 1.28], 16.0, 2), (1.0, [0.51199996, 1.0239999], 16.0, 3),
            (np.inf, [0.51199996, 1.0239999], 8.0, 3), (1.0, [0.40959996, 0.8191999], 8.0, 4),
            (np.nan, [0.40959996, 0.8191999], 4.0, 4)]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for xv, ev, escale, estep in expected:
                s.run(train, {x: xv})
                got_v, got_scale, got_step = s.run([v, ls(), gs])
                np.testing.assert_allclose(got_v, ev, rtol=1e-6)
                assert got_scale == escale and got_step == estep


def test_loss_scale_optimizer_with_slots_and_fixed_scale():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, -1.0])
        loss = tf.reduce_sum(tf.square(v))
        plain = tf.train.AdamOptimizer(0.1).minimize(loss)
        w = tf.Variable([1.0, -1.0])
        scaled_opt = tf.train.experimental.MixedPrecisionLossScaleOptimizer(tf.train.AdamOptimizer(0.1), 1024)
        scaled = scaled_opt.minimize(tf.reduce_sum(tf.square(w)))
        assert scaled_opt.get_slot_names() == ["m", "v"]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for _ in range(3):
                s.run([plain, scaled])
            np.testing.assert_allclose(*s.run([v, w]), rtol=1e-6)
        grads = scaled_opt.compute_gradients(tf.reduce_sum(tf.square(w)), var_list=[w])
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            np.testing.assert_allclose(s.run(grads[0][0]), [2.0, -2.0])


def test_fixed_loss_scale_and_errors_as_tf():
    f = tf.train.experimental.FixedLossScale(128)
    assert f.get_config() == {"loss_scale_value": 128.0} and repr(f) == "FixedLossScale(128.0)"
    assert tf.train.experimental.FixedLossScale.from_config(f.get_config()).get_config() == f.get_config()
    with pytest.raises(ValueError, match="loss_scale_value must be at least 1."):
        tf.train.experimental.FixedLossScale(0.5)
    with pytest.raises(ValueError, match="loss_scale_value must be a Python int or float."):
        tf.train.experimental.FixedLossScale("2")
    with pytest.raises(ValueError, match='"opt" must be an instance of Optimizer, but got: <class \'object\'>'):
        tf.train.experimental.MixedPrecisionLossScaleOptimizer(object(), "dynamic")
    with tf.Graph().as_default():
        o2 = tf.train.experimental.MixedPrecisionLossScaleOptimizer(tf.train.AdamOptimizer(), "dynamic")
        assert o2._loss_scale.get_config() == {"initial_loss_scale": 32768.0, "increment_period": 2000,
                                               "multiplier": 2.0}
        with pytest.raises(ValueError, match="loss_scale cannot be None"):
            tf.train.experimental.MixedPrecisionLossScaleOptimizer(tf.train.AdamOptimizer(), None)
        wrapped = tf.train.experimental.enable_mixed_precision_graph_rewrite(tf.train.AdamOptimizer())
        assert isinstance(wrapped, tf.train.experimental.MixedPrecisionLossScaleOptimizer)
        with pytest.raises(ValueError, match="must not already be an instance of a MixedPrecisionLossScaleOptimizer"):
            tf.train.experimental.enable_mixed_precision_graph_rewrite(wrapped)
        tf.train.experimental.disable_mixed_precision_graph_rewrite()
    assert tf.mixed_precision.experimental.LossScale is tf.train.experimental.LossScale
    assert tf.mixed_precision.DynamicLossScale is tf.train.experimental.DynamicLossScale


def test_apply_gradients_inside_a_cond_branch_updates_in_the_branch():
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        x = tf.placeholder(tf.float32, [])
        c = tf.placeholder(tf.bool, [])
        opt = tf.train.MomentumOptimizer(0.1, 0.9)
        gv = opt.compute_gradients(v * x)
        step = tf.cond(c, lambda: tf.group(opt.apply_gradients(gv)), tf.no_op)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(step, {x: 2.0, c: False})
            assert s.run(v) == 1.0
            s.run(step, {x: 2.0, c: True})
            assert abs(s.run(v) - 0.8) < 1e-7
