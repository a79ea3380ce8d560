"""`tf.train.Coordinator`, `LooperThread`, `QueueRunner`, `add_queue_runner`/`start_queue_runners` and the
queue runners of `MonitoredTrainingSession` (TF's training/coordinator.py and queue_runner_impl.py
semantics). No thread outlives its test."""

import threading
import time

import numpy as np
import pytest

import tensorweave as tf


# ---- Coordinator -------------------------------------------------------------------------------------------
def test_request_stop_and_join_reraise_the_first_exception():
    coord = tf.train.Coordinator()
    assert not coord.should_stop()

    def fail():
        with coord.stop_on_exception():
            raise ValueError("boom")

    def wait():
        coord.wait_for_stop()

    threads = [threading.Thread(target=fail), threading.Thread(target=wait)]
    for t in threads:
        t.start()
    with pytest.raises(ValueError, match="boom"):
        coord.join(threads)
    assert coord.should_stop() and coord.joined and not any(t.is_alive() for t in threads)
    with pytest.raises(RuntimeError, match=r"request_stop\(\) called after join"):
        coord.request_stop(RuntimeError("late"))
    coord.clear_stop()
    assert not coord.should_stop() and not coord.joined


def test_clean_stop_exceptions_are_not_reraised():
    coord = tf.train.Coordinator()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "done"))
    coord.join([])
    other = tf.train.Coordinator(clean_stop_exception_types=[])
    other.request_stop(tf.errors.OutOfRangeError(None, None, "done"))
    with pytest.raises(tf.errors.OutOfRangeError):
        other.join([])


def test_wait_for_stop_times_out_and_join_reports_stragglers():
    coord = tf.train.Coordinator()
    assert coord.wait_for_stop(0.01) is False
    release = threading.Event()
    t = threading.Thread(target=release.wait, name="straggler")
    t.start()
    coord.request_stop()
    with pytest.raises(RuntimeError, match="Coordinator stopped with threads still running: straggler"):
        coord.join([t], stop_grace_period_secs=0.05)
    release.set()
    t.join()
    coord.clear_stop()
    coord.register_thread(t)
    coord.join()  # registered threads are joined


def test_looper_thread_runs_until_stop():
    coord = tf.train.Coordinator()
    calls = []
    looper = tf.train.LooperThread.loop(coord, 0.01, target=calls.append, args=(1,))
    time.sleep(0.1)
    coord.request_stop()
    coord.join([looper])
    assert len(calls) >= 2 and not looper.is_alive()
    with pytest.raises(ValueError, match="'coord' argument must be a Coordinator"):
        tf.train.LooperThread(None, 1)


# ---- QueueRunner -------------------------------------------------------------------------------------------
def test_queue_runner_fills_the_queue_and_closes_it_when_its_input_ends():
    counter = tf.Variable(0, collections=[tf.GraphKeys.LOCAL_VARIABLES])
    value = tf.count_up_to(counter, 5)
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])  # the runner blocks when 2 are queued
    qr = tf.train.QueueRunner(q, [q.enqueue(value)])
    assert qr.queue is q and qr.name == "fifo_queue" and qr.close_op.type == "QueueCloseV2"
    assert qr.cancel_op.get_attr("cancel_pending_enqueues") is True
    assert qr.queue_closed_exception_types == (tf.errors.OutOfRangeError, tf.errors.CancelledError)
    with tf.Session() as sess:
        sess.run(counter.initializer)
        coord = tf.train.Coordinator()
        threads = qr.create_threads(sess, coord=coord, start=True)
        assert len(threads) == 2  # the enqueue thread and the one that cancels on stop
        assert qr.create_threads(sess, coord=coord) == []  # already running in this session
        got = []
        with pytest.raises(tf.errors.OutOfRangeError):
            while True:
                got.append(sess.run(q.dequeue()))
        assert got == [0, 1, 2, 3, 4]
        coord.request_stop()
        coord.join(threads)


def test_queue_runner_reports_errors_to_the_coordinator():
    x = tf.placeholder(tf.int32, [])  # never fed: the enqueue fails
    q = tf.FIFOQueue(10, tf.int32, shapes=[[]])
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(x)]))
    assert len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)) == 1
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        with pytest.raises(tf.errors.InvalidArgumentError):
            coord.join(threads)


def test_stop_request_cancels_blocked_enqueues():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(1)] * 3))
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        assert len(threads) == 4
        time.sleep(0.1)
        assert sess.run(q.size()) == 2  # full: three threads block on their enqueue
        coord.request_stop()
        coord.join(threads)
        assert sess.run(q.is_closed())


def test_start_queue_runners_uses_the_default_session():
    with pytest.raises(ValueError, match="No default session is registered"):
        tf.train.start_queue_runners()
    assert tf.train.queue_runner.start_queue_runners is tf.train.start_queue_runners
    assert tf.train.queue_runner.QueueRunner is tf.train.QueueRunner
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    tf.train.queue_runner.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(7)]))
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(coord=coord)
        assert sess.run(q.dequeue()) == 7
        coord.request_stop()
        coord.join(threads)


def test_queue_runner_without_coordinator_ends_when_the_session_closes():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    qr = tf.train.QueueRunner(q, [q.enqueue(1)])
    sess = tf.Session()
    threads = qr.create_threads(sess, start=True)
    time.sleep(0.1)
    sess.close()  # cancels the blocked enqueue: the thread ends quietly
    for t in threads:
        t.join(5)
    assert not any(t.is_alive() for t in threads) and qr.exceptions_raised == []


def test_queue_runner_argument_errors():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    with pytest.raises(ValueError, match="Queue is a required argument"):
        tf.train.QueueRunner(None, [q.enqueue(1)])
    with pytest.raises(ValueError, match="Enqueue ops is a required argument"):
        tf.train.QueueRunner(q, [])
    with pytest.raises(TypeError, match="queue_closed_exception_types, when provided, must be a tuple"):
        tf.train.QueueRunner(q, [q.enqueue(1)], queue_closed_exception_types=(ValueError,))


# ---- MonitoredTrainingSession -------------------------------------------------------------------------------
def test_monitored_training_session_starts_and_stops_queue_runners():
    data = tf.train.limit_epochs(tf.constant([1.0, 2.0, 3.0]), num_epochs=2)
    q = tf.FIFOQueue(4, tf.float32, shapes=[[]])
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue_many([data])]))
    total = tf.Variable(0.0)
    step = tf.assign_add(total, q.dequeue())
    seen = []
    with tf.train.MonitoredTrainingSession() as sess:
        while not sess.should_stop():
            seen.append(sess.run(step))
    assert seen == [1.0, 3.0, 6.0, 7.0, 9.0, 12.0]


def test_monitored_session_close_stops_runners_that_never_ran_out():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(5)]))
    deq = q.dequeue()
    hook_coords = []

    class Hook(tf.train.SessionRunHook):
        def after_create_session(self, session, coord):
            hook_coords.append(coord)

    with tf.train.MonitoredSession(hooks=[Hook()]) as sess:
        np.testing.assert_array_equal(sess.run(deq), 5)
        assert tf.train.start_queue_runners(sess) == []  # a monitored session runs them already
    assert isinstance(hook_coords[0], tf.train.Coordinator) and hook_coords[0].should_stop()


def test_queue_runners_survive_a_meta_graph_round_trip(tmp_path):
    path = str(tmp_path / "model.meta")
    with tf.Graph().as_default():
        q = tf.FIFOQueue(10, tf.int32, shapes=[], name="fifo")
        counter = tf.Variable(0, name="counter")
        enqueue = q.enqueue(tf.assign_add(counter, 1))
        tf.train.add_queue_runner(tf.train.QueueRunner(q, [enqueue] * 2))
        tf.identity(q.dequeue(), name="out")
        meta = tf.train.export_meta_graph(path)
    qd_bytes = meta.collection_def[tf.GraphKeys.QUEUE_RUNNERS].bytes_list.value
    assert len(qd_bytes) == 1
    with tf.Graph().as_default() as g:
        tf.train.import_meta_graph(path)
        (qr,) = g.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
        assert qr.name == "fifo" and [op.name for op in qr.enqueue_ops] == [enqueue.name] * 2
        assert qr.to_proto().SerializeToString() == qd_bytes[0]
        out = g.get_tensor_by_name("out:0")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            values = [sess.run(out) for _ in range(5)]
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=5)
    assert len(set(values)) == 5 and min(values) >= 1  # two threads: distinct counts, in any order
