"""slim.learning (create_train_op, train), slim.evaluation (evaluate_once, evaluation_loop) and
slim.variables (get_variables_to_restore, assign_from_checkpoint*, assign_from_values*): a training
run writes checkpoints that evaluation and the assign helpers read back. The expected numbers are
derived by hand (plain SGD on a least-squares loss, NumPy), as TF 1.15's slim defines them."""

import os

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.contrib.slim as slim

X = np.random.RandomState(0).normal(size=(8, 3)).astype(np.float32)
Y = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)


def build(batch_norm=False):
    x = tf.constant(X)
    net = x
    if batch_norm:
        net = slim.batch_norm(net, scale=True, decay=0.5, scope="bn")
    pred = slim.fully_connected(net, 1, activation_fn=None, scope="fc",
                                weights_initializer=tf.constant_initializer(0.1))
    slim.losses.mean_squared_error(pred, tf.constant(Y))
    return pred, slim.losses.get_total_loss()


def test_create_train_op_step_and_update_ops():
    with tf.Graph().as_default():
        _, loss = build(batch_norm=True)
        opt = tf.train.GradientDescentOptimizer(0.1)
        train_op = slim.learning.create_train_op(loss, opt, clip_gradient_norm=0.5, summarize_gradients=True)
        assert tf.get_collection(tf.GraphKeys.TRAIN_OP)[-1] is train_op
        names = sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES))
        assert "summarize_grads/fc/weights/gradient_norm" in names
        w = slim.get_unique_variable("fc/weights")
        mm = slim.get_unique_variable("bn/moving_mean")
        gs = tf.train.get_global_step()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            w0 = sess.run(w)
            loss0 = sess.run(train_op)
            w1, mm1, step = sess.run([w, mm, gs])
        xn = (X - X.mean(0)) / np.sqrt(X.var(0) + 1e-3)
        err = xn @ w0 + 0.0 - Y
        np.testing.assert_allclose(loss0, (err ** 2).mean(), rtol=1e-4)
        g = 2 * xn.T @ err / err.size
        g = g * min(1.0, 0.5 / np.linalg.norm(g))
        np.testing.assert_allclose(w1, w0 - 0.1 * g, rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(mm1, 0.5 * X.mean(0), rtol=1e-5)
        assert step == 1


def test_create_train_op_gradient_multipliers_and_errors():
    with tf.Graph().as_default():
        _, loss = build()
        opt = tf.train.GradientDescentOptimizer(1.0)
        b = slim.get_unique_variable("fc/biases")
        train_op = slim.learning.create_train_op(loss, opt, gradient_multipliers={"fc/weights": 0.0},
                                                 global_step=None)
        w = slim.get_unique_variable("fc/weights")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train_op)
            np.testing.assert_allclose(sess.run(w), 0.1)
            assert sess.run(b)[0] != 0.0
        with pytest.raises(ValueError, match="must be a dict"):
            slim.learning.multiply_gradients([], [1])


def test_train_writes_checkpoints_and_evaluate_once_reads_them(tmp_path):
    logdir = str(tmp_path / "train")
    calls = []
    with tf.Graph().as_default():
        _, loss = build()
        tf.summary.scalar("loss", loss)
        train_op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.05))
        # the periodic checkpoint thread runs (and saves once at start); the final save is the latest
        final_loss = slim.learning.train(train_op, logdir, number_of_steps=5, log_every_n_steps=2,
                                         save_interval_secs=1000, save_summaries_secs=1000,
                                         init_fn=lambda sess: calls.append(1))
    assert calls == [1]
    ckpt = tf.train.latest_checkpoint(logdir)
    assert ckpt is not None and ckpt.endswith("model.ckpt-5")
    reader = tf.train.load_checkpoint(ckpt)
    assert reader.get_tensor("global_step") == 5
    w5 = reader.get_tensor("fc/weights")
    b5 = reader.get_tensor("fc/biases")
    # the same five SGD steps by hand
    w, b = np.full((3, 1), 0.1, np.float32), np.zeros(1, np.float32)
    for _ in range(5):
        err = X @ w + b - Y
        loss_v = (err ** 2).mean()
        w, b = w - 0.05 * 2 * X.T @ err / err.size, b - 0.05 * 2 * err.sum(0) / err.size
    np.testing.assert_allclose(w5, w, rtol=1e-4)
    np.testing.assert_allclose(b5, b, rtol=1e-4)
    np.testing.assert_allclose(final_loss, loss_v, rtol=1e-4)
    assert any(f.startswith("events.out.tfevents") for f in os.listdir(logdir))

    # training again resumes from the checkpoint and stops at once
    with tf.Graph().as_default():
        _, loss = build()
        train_op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.05))
        slim.learning.train(train_op, logdir, number_of_steps=6, save_interval_secs=0,
                            save_summaries_secs=1000, init_fn=lambda sess: calls.append(2))
    assert calls == [1]
    assert tf.train.latest_checkpoint(logdir).endswith("model.ckpt-6")

    evaldir = str(tmp_path / "eval")
    with tf.Graph().as_default():
        pred, _ = build()
        value, update = slim.metrics.streaming_mean_squared_error(pred, tf.constant(Y))
        tf.summary.scalar("eval/mse", value)
        gs = tf.train.get_or_create_global_step()
        got = slim.evaluation.evaluate_once("", ckpt, evaldir, num_evals=3, eval_op=update, final_op=[value, gs])
        mse, step = got
        err = X @ w5 + b5 - Y
        np.testing.assert_allclose(mse, (err ** 2).mean(), rtol=1e-4)
        assert step == 5
        assert any(f.startswith("events.out.tfevents") for f in os.listdir(evaldir))

    with tf.Graph().as_default():
        pred, _ = build()
        value, update = slim.metrics.streaming_mean(tf.ones([2]))
        count = []
        hook = tf.train.FinalOpsHook(value)
        got = slim.evaluation.evaluation_loop("", logdir, evaldir, num_evals=2, eval_op=update, final_op=value,
                                              eval_interval_secs=0, max_number_of_evaluations=1,
                                              init_fn=lambda s: count.append(1), hooks=[hook])
        assert got == 1.0 and hook.final_ops_values == 1.0
        eval_step = slim.evaluation.get_or_create_eval_step()
        assert eval_step.op.name == "eval_step" and slim.evaluation.get_or_create_eval_step() is eval_step


def test_train_argument_errors():
    with tf.Graph().as_default():
        _, loss = build()
        with pytest.raises(ValueError, match="train_op cannot be None"):
            slim.learning.train(None, "/tmp/x")
        with pytest.raises(ValueError, match="number_of_steps"):
            slim.learning.train(loss, None, number_of_steps=0)
        with pytest.raises(ValueError, match="Cannot provide saver because logdir=None"):
            slim.learning.train(loss, None, saver=tf.train.Saver())


def test_variables_to_restore_and_assign_from_checkpoint(tmp_path):
    path = str(tmp_path / "model.ckpt")
    with tf.Graph().as_default():
        with tf.variable_scope("a"):
            slim.model_variable("w", initializer=tf.constant([1.0, 2.0]))
            slim.variable("b", initializer=tf.constant(3.0))
        with tf.variable_scope("c"):
            slim.model_variable("w", initializer=tf.constant([[4.0]]))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, path)
    with tf.Graph().as_default():
        with tf.variable_scope("a"):
            aw = slim.model_variable("w", shape=[2])
            ab = slim.variable("b", shape=[])
        with tf.variable_scope("c"):
            cw = slim.model_variable("w", shape=[1, 1])
        extra = slim.variable("extra", shape=[3], initializer=tf.zeros_initializer())
        assert slim.get_variables_to_restore() == [aw, ab, cw, extra]
        assert slim.get_variables_to_restore(include=["a"], exclude=["a/b"]) == [aw]
        assert slim.get_variables_to_restore(exclude=["extra"]) == [aw, ab, cw]
        assert slim.get_model_variables() == [aw, cw]
        assert slim.get_variables_by_name("w") == [aw, cw]
        assert slim.get_variables_by_suffix("b") == [ab]
        assert slim.filter_variables([aw, ab, cw], include_patterns=["w"], exclude_patterns=["^c"]) == [aw]
        with pytest.raises(TypeError, match="include is provided but is not a list"):
            slim.get_variables_to_restore(include="a")
        with pytest.raises(ValueError, match="Checkpoint is missing variable \\[extra\\]"):
            slim.assign_from_checkpoint(path, [aw, extra])
        init_fn = slim.assign_from_checkpoint_fn(path, [aw, cw, extra], ignore_missing_vars=True)
        assign_op, feed = slim.assign_from_checkpoint(path, {"a/b": ab}, ignore_missing_vars=True)
        values_fn = slim.assign_from_values_fn({"extra": np.array([7.0, 8.0, 9.0], np.float32)})
        with pytest.raises(ValueError, match="Variable nope wasn't found"):
            slim.assign_from_values({"nope": np.zeros(1)})
        with pytest.raises(ValueError, match="var_list cannot be empty"):
            slim.assign_from_checkpoint_fn(path, [])
        assert slim.assign_from_checkpoint_fn(path, [extra], ignore_missing_vars=True) is None
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            init_fn(sess)
            sess.run(assign_op, feed)
            values_fn(sess)
            got = sess.run([aw, ab, cw, extra])
        np.testing.assert_allclose(got[0], [1.0, 2.0])
        assert got[1] == 3.0
        np.testing.assert_allclose(got[2], [[4.0]])
        np.testing.assert_allclose(got[3], [7.0, 8.0, 9.0])


def test_local_global_and_add_model_variable():
    with tf.Graph().as_default():
        lv = slim.local_variable([1.0], name="lv")
        gv = slim.global_variable(2.0, name="gv")
        assert tf.local_variables() == [lv] and tf.global_variables() == [gv] and tf.trainable_variables() == []
        slim.add_model_variable(gv)
        slim.add_model_variable(gv)
        assert slim.get_model_variables() == [gv]
        assert slim.get_variable_full_name(gv) == "gv"
        assert slim.assert_or_get_global_step() is None
        gs = slim.create_global_step()
        assert slim.assert_or_get_global_step() is gs


def test_wait_for_new_checkpoint(tmp_path):
    d = str(tmp_path)
    assert slim.evaluation.wait_for_new_checkpoint(d, seconds_to_sleep=0.01, timeout=0.05) is None
    with tf.Graph().as_default():
        tf.Variable(1.0, name="x")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = tf.train.Saver().save(sess, os.path.join(d, "model.ckpt"), global_step=3)
    assert slim.evaluation.wait_for_new_checkpoint(d, timeout=1) == path
    assert slim.evaluation.wait_for_new_checkpoint(d, last_checkpoint=path, seconds_to_sleep=0.01,
                                                   timeout=0.05) is None
