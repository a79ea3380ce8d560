"""tf.train.SessionManager: restore-or-initialize, recover, wait, with TF's errors."""

import os

import pytest

import tensorweave as tf


def _model():
    v = tf.Variable(1.0, name="v")
    loc = tf.Variable(5.0, name="loc", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    return v, loc


def test_prepare_session_initializes_then_restores_from_the_latest_checkpoint(tmp_path):
    d = str(tmp_path)
    with tf.Graph().as_default():
        v, loc = _model()
        saver = tf.train.Saver([v])
        sm = tf.train.SessionManager(local_init_op=tf.local_variables_initializer(),
                                     ready_op=tf.report_uninitialized_variables())
        sess = sm.prepare_session("", init_op=tf.global_variables_initializer(), saver=saver, checkpoint_dir=d)
        assert sess.run([v, loc]) == [1.0, 5.0]
        sess.run(v.assign(7.0))
        saver.save(sess, os.path.join(d, "model.ckpt"), global_step=3)
        sess.close()
        init_runs = []
        sess = sm.prepare_session("", init_op=tf.global_variables_initializer(), saver=saver, checkpoint_dir=d,
                                  init_fn=lambda s: init_runs.append(s))
        assert sess.run(v) == 7.0 and init_runs == []  # restored, not initialized
        assert saver.last_checkpoints == [os.path.join(d, "model.ckpt-3")]
        sess, restored = sm.recover_session("", saver=saver, checkpoint_dir=d)
        assert restored and sess.run([v, loc]) == [7.0, 5.0]


def test_prepare_session_errors_as_tf():
    with tf.Graph().as_default():
        v, _ = _model()
        sm = tf.train.SessionManager(ready_op=tf.report_uninitialized_variables())
        with pytest.raises(RuntimeError, match="Model is not initialized and no init_op or init_fn or local_init_op"):
            sm.prepare_session("")
        with pytest.raises(RuntimeError, match=r"Init operations did not make model ready.*Variables not initialized: "
                                               r"v, loc"):
            sm.prepare_session("", init_op=tf.no_op())
        with pytest.raises(ValueError, match="Can not provide both checkpoint_dir and checkpoint_filename_with_path"):
            sm.prepare_session("", init_op=tf.no_op(), saver=tf.train.Saver([v]), checkpoint_dir="a",
                               checkpoint_filename_with_path="b")
        with pytest.raises(ValueError, match="you must also pass a local_init_op"):
            tf.train.SessionManager(ready_for_local_init_op=tf.report_uninitialized_variables())


def test_recover_session_without_checkpoint_and_wait_for_session_deadline(tmp_path):
    with tf.Graph().as_default():
        v, _ = _model()
        sm = tf.train.SessionManager(ready_op=tf.report_uninitialized_variables(), recovery_wait_secs=0.01)
        sess, restored = sm.recover_session("", saver=tf.train.Saver([v]), checkpoint_dir=str(tmp_path))
        assert restored is False
        with pytest.raises(tf.errors.DeadlineExceededError, match="Session was not ready after waiting 0 secs"):
            sm.wait_for_session("", max_wait_secs=0)
        ready = tf.train.SessionManager(ready_op=tf.constant([], dtype=tf.string))
        s = ready.wait_for_session("", max_wait_secs=0)
        assert s.run(tf.constant(2.0)) == 2.0


def test_ready_for_local_init_gates_the_local_init_op():
    with tf.Graph().as_default():
        v, loc = _model()
        sm = tf.train.SessionManager(local_init_op=tf.local_variables_initializer(),
                                     ready_for_local_init_op=tf.report_uninitialized_variables(tf.global_variables()))
        with pytest.raises(RuntimeError, match="did not make model ready for local_init.*Variables not initialized: v"):
            sm.prepare_session("", init_op=tf.no_op())
        sess = sm.prepare_session("", init_op=tf.global_variables_initializer())
        assert sess.run(loc) == 5.0
