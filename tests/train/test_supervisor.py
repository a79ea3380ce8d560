"""tf.train.Supervisor, basic_train_loop, checkpoints_iterator and GlobalStepWaiterHook (TF 1.15 semantics)."""

import os
import threading
import time

import numpy as np
import pytest

import tensorweave as tf


def _events(logdir):
    out = []
    for name in sorted(os.listdir(logdir)):
        if name.startswith("events.out.tfevents"):
            out.extend(tf.train.summary_iterator(os.path.join(logdir, name)))
    return out


def _model():
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable(5.0, name="w")
    loss = tf.square(w)
    tf.summary.scalar("loss", loss)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    return gs, w, train


def test_supervisor_trains_checkpoints_and_restores(tmp_path):
    logdir = str(tmp_path)
    before = threading.active_count()
    with tf.Graph().as_default() as g:
        gs, w, train = _model()
        sv = tf.train.Supervisor(logdir=logdir, save_summaries_secs=0.05, save_model_secs=600)
        assert g.finalized
        assert sv.is_chief and sv.global_step is gs and sv.save_path == os.path.join(logdir, "model.ckpt")
        assert isinstance(sv.saver, tf.train.Saver) and sv.summary_op is not None
        assert sv.init_op in tf.get_collection(tf.GraphKeys.INIT_OP)
        assert sv.ready_op in tf.get_collection(tf.GraphKeys.READY_OP)
        with sv.managed_session() as sess:
            for _ in range(5):
                if sv.should_stop():
                    break
                sess.run(train)
                time.sleep(0.03)
            sv.saver.save(sess, sv.save_path, global_step=sv.global_step)
            trained = sess.run(w)
        assert sv.should_stop()
    assert np.isclose(trained, 5.0 * 0.8 ** 5)
    # The checkpoint thread saved at start (step 0); the graph was written.
    files = os.listdir(logdir)
    assert "graph.pbtxt" in files and "checkpoint" in files
    assert "model.ckpt-0.index" in files and "model.ckpt-5.index" in files
    assert tf.train.latest_checkpoint(logdir).endswith("model.ckpt-5")
    events = _events(logdir)
    statuses = [e.session_log.status for e in events if e.HasField("session_log")]
    assert statuses[0] == tf.SessionLog.START and statuses[-1] == tf.SessionLog.STOP
    assert tf.SessionLog.CHECKPOINT in statuses
    tags = {v.tag for e in events if e.HasField("summary") for v in e.summary.value}
    assert "loss" in tags and "global_step/sec" in tags
    assert any(e.HasField("graph_def") for e in events) and any(e.HasField("meta_graph_def") for e in events)
    # Every thread the supervisor started has ended.
    deadline = time.time() + 5
    while threading.active_count() > before and time.time() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= before

    # A second Supervisor restores the latest checkpoint instead of initializing.
    with tf.Graph().as_default():
        gs, w, train = _model()
        sv = tf.train.Supervisor(logdir=logdir, save_model_secs=0, save_summaries_secs=0)
        with sv.managed_session() as sess:
            assert sess.run(gs) == 5
            assert np.isclose(sess.run(w), trained)
            sess.run(train)
            assert sess.run(gs) == 6


def test_supervisor_use_default_none_and_init_fn(tmp_path):
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        seen = []
        sv = tf.train.Supervisor(logdir=None, saver=None, summary_op=None, global_step=None,
                                 init_fn=lambda sess: seen.append(sess.run(v)), init_feed_dict=None)
        assert sv.saver is None and sv.summary_op is None and sv.global_step is None and sv.summary_writer is None
        with sv.managed_session() as sess:
            assert sess.run(v) == 1.0
        assert seen == [1.0]
        with pytest.raises(RuntimeError, match="requires a summary writer"):
            sv.summary_computed(None, b"")


def test_supervisor_init_op_none_without_checkpoint_fails():
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        sv = tf.train.Supervisor(init_op=None, local_init_op=None, saver=None)
        with pytest.raises(RuntimeError, match="Model is not initialized and no init_op or init_fn"):
            sv.prepare_or_wait_for_session()
        sv.stop()


def test_managed_session_reraises_and_out_of_range_is_clean():
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        sv = tf.train.Supervisor()
        with pytest.raises(ValueError, match="boom"):
            with sv.managed_session():
                raise ValueError("boom")
        with sv.managed_session():
            raise tf.errors.OutOfRangeError(None, None, "done")
        assert sv.should_stop()


def test_supervisor_loop_request_stop_and_summary_computed(tmp_path):
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        sv = tf.train.Supervisor(logdir=str(tmp_path), save_model_secs=0, save_summaries_secs=0)
        calls = []
        with sv.managed_session() as sess:
            looper = sv.loop(0.01, lambda x: calls.append(x), args=(7,))
            deadline = time.time() + 5
            while len(calls) < 3 and time.time() < deadline:
                time.sleep(0.01)
            summary = tf.Summary(value=[tf.Summary.Value(tag="manual", simple_value=2.5)])
            sv.summary_computed(sess, summary)
            sv.request_stop()
            assert sv.should_stop()
        looper.join(1)
        assert not looper.is_alive() and calls[:3] == [7, 7, 7]
        assert gs is sv.global_step
    values = [(e.step, v.tag, v.simple_value) for e in _events(str(tmp_path)) if e.HasField("summary")
              for v in e.summary.value]
    assert (0, "manual", 2.5) in values


def test_supervisor_non_chief_and_eager_errors():
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        with pytest.raises(ValueError, match="When using replicas, all Variables must have their device set"):
            tf.train.Supervisor(is_chief=False)
    with tf.Graph().as_default():
        with tf.device("/cpu:0"):
            tf.Variable(1.0, name="v")
        sv = tf.train.Supervisor(is_chief=False)
        with pytest.raises(RuntimeError, match="Only chief supervisor can start standard services"):
            sv.start_standard_services(None)


def test_supervisor_starts_queue_runners():
    with tf.Graph().as_default():
        q = tf.FIFOQueue(10, tf.int32)
        counter = tf.Variable(0, name="counter")
        enq = q.enqueue(tf.assign_add(counter, 1))
        tf.train.add_queue_runner(tf.train.QueueRunner(q, [enq]))
        x = q.dequeue()
        sv = tf.train.Supervisor()
        with sv.managed_session() as sess:
            got = [sess.run(x) for _ in range(4)]
        assert got == sorted(got) and got[0] >= 1


def test_basic_train_loop_and_aborted_retry():
    with tf.Graph().as_default():
        gs, w, train = _model()
        sv = tf.train.Supervisor(saver=None, summary_op=None)
        state = {"steps": 0, "aborts": 0}

        def step(sess, k, scale=1):
            if state["steps"] == 2 and state["aborts"] == 0:
                state["aborts"] += 1
                raise tf.errors.AbortedError(None, None, "server restarted")
            sess.run(train)
            state["steps"] += k * scale
            if state["steps"] >= 4:
                sv.request_stop()

        tf.train.basic_train_loop(sv, step, args=[1], kwargs={"scale": 1})
        assert state == {"steps": 4, "aborts": 1}


def test_checkpoints_iterator(tmp_path):
    d = str(tmp_path)
    # No checkpoint: the iterator ends after the timeout.
    start = time.time()
    assert list(tf.train.checkpoints_iterator(d, timeout=0.5)) == []
    assert time.time() - start < 5
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(v.initializer)
            first = saver.save(sess, os.path.join(d, "model.ckpt"), global_step=1)
            seen = []
            timeouts = []

            def timeout_fn():
                timeouts.append(1)
                return len(timeouts) >= 2

            writer = threading.Timer(0.3, lambda: saver.save(sess, os.path.join(d, "model.ckpt"), global_step=2))
            for path in tf.train.checkpoints_iterator(d, timeout=1.5, timeout_fn=timeout_fn):
                seen.append(path)
                if len(seen) == 1:
                    writer.start()
            writer.join()
    assert seen == [first, os.path.join(d, "model.ckpt-2")]
    assert timeouts == [1, 1]


def test_checkpoints_iterator_min_interval(tmp_path):
    d = str(tmp_path)
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(v.initializer)
            saver.save(sess, os.path.join(d, "model.ckpt"), global_step=1)
            it = tf.train.checkpoints_iterator(d, min_interval_secs=0.5, timeout=0.2)
            next(it)
            start = time.time()
            saver.save(sess, os.path.join(d, "model.ckpt"), global_step=2)
            assert next(it).endswith("model.ckpt-2")
            assert time.time() - start >= 0.45


def test_global_step_waiter_hook():
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        bump = tf.assign(gs, 3)
        x = tf.constant(1.0)
        hook = tf.train.GlobalStepWaiterHook(wait_until_step=2)
        with tf.train.MonitoredSession(hooks=[hook]) as sess:
            raw = sess._tf_sess() if hasattr(sess, "_tf_sess") else None
            timer = threading.Timer(0.6, lambda: raw.run(bump))
            start = time.time()
            timer.start()
            assert sess.run(x) == 1.0
            waited = time.time() - start
            timer.join()
            assert waited >= 0.5
            start = time.time()
            sess.run(x)
            assert time.time() - start < 0.4
    with tf.Graph().as_default():
        hook = tf.train.GlobalStepWaiterHook(wait_until_step=5)
        with pytest.raises(RuntimeError, match="Global step should be created to use _GlobalStepWaiterHook"):
            hook.begin()


def test_supervisor_init_feed_dict_local_variables_and_no_services(tmp_path):
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [2])
        v = tf.Variable(p, name="v")
        local = tf.Variable(3.0, name="local", collections=[tf.GraphKeys.LOCAL_VARIABLES], trainable=False)
        tf.train.get_or_create_global_step()
        sv = tf.train.Supervisor(logdir=str(tmp_path), init_feed_dict={p: [1.0, 2.0]}, save_model_secs=0)
        assert sv.init_feed_dict == {p: [1.0, 2.0]}
        sess = sv.prepare_or_wait_for_session(start_standard_services=False)
        try:
            assert sess.run(v).tolist() == [1.0, 2.0] and sess.run(local) == 3.0
            # No standard services: nothing was checkpointed and no thread is running for the supervisor.
            assert tf.train.latest_checkpoint(str(tmp_path)) is None
            threads = sv.start_standard_services(sess)
            # A global step but no summaries and no checkpoints: only the step counter runs.
            assert [type(t).__name__ for t in threads] == ["SVStepCounterThread"]
        finally:
            sv.stop()
            sess.close()
        assert all(not t.is_alive() for t in threads)
