"""Queues (tensorweave/ops/data_flow_ops.py): TF1's FIFOQueue, RandomShuffleQueue, PaddingFIFOQueue and
PriorityQueue with their static shapes and names, blocking across threads (a dequeue run in one thread
waits for an enqueue run in another), timeouts from RunOptions / ConfigProto, close semantics, state per
Session, and TF's error messages (recorded from TensorFlow 1.15 semantics, checked against TF 2.21's
tf.compat.v1 graph mode)."""

import threading
import time

import numpy as np
import pytest

import tensorweave as tf


def _in_thread(fn):
    """Starts `fn` in a thread; returns (thread, result dict: 'value' or 'error')."""
    out = {}

    def run():
        try:
            out["value"] = fn()
        except Exception as e:  # noqa: BLE001 (reported to the test)
            out["error"] = e
    t = threading.Thread(target=run)
    t.start()
    return t, out


# ---- graph construction ------------------------------------------------------------------------------------
def test_fifo_queue_ops_names_and_static_shapes():
    q = tf.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[2], []])
    assert q.queue_ref.op.type == "FIFOQueueV2" and q.queue_ref.dtype == tf.resource
    assert q.name == "fifo_queue" and q.dtypes == [tf.float32, tf.int32] and q.names is None
    assert [s.as_list() for s in q.shapes] == [[2], []]
    enq, many = q.enqueue(([1.0, 2.0], 5)), q.enqueue_many(([[1.0, 2.0]], [6]))
    assert (enq.type, enq.name, many.type, many.name) == ("QueueEnqueueV2", "fifo_queue_enqueue",
                                                          "QueueEnqueueManyV2", "fifo_queue_EnqueueMany")
    d, dm, du = q.dequeue(), q.dequeue_many(2), q.dequeue_up_to(2)
    assert [t.name for t in d] == ["fifo_queue_Dequeue:0", "fifo_queue_Dequeue:1"]
    assert [t.shape.as_list() for t in d] == [[2], []]
    assert [t.shape.as_list() for t in dm] == [[2, 2], [2]] and dm[0].op.type == "QueueDequeueManyV2"
    assert [t.shape.as_list() for t in du] == [[None, 2], [None]] and du[0].op.type == "QueueDequeueUpToV2"
    assert q.size().name == "fifo_queue_Size:0" and q.size().dtype == tf.int32
    assert q.close().name == "fifo_queue_Close" and q.close(True).get_attr("cancel_pending_enqueues") is True
    assert q.is_closed().name == "fifo_queue_Is_Closed:0" and q.is_closed().dtype == tf.bool
    assert tf.queue.FIFOQueue is tf.FIFOQueue and tf.io.QueueBase is tf.queue.QueueBase


def test_queue_without_shapes_has_unknown_shapes():
    q = tf.FIFOQueue(10, tf.float32)
    assert q.shapes[0].ndims is None and q.dequeue().shape.ndims is None and q.dequeue_many(3).shape.ndims is None


def test_static_enqueue_errors():
    q = tf.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[2], []])
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
        q.enqueue(([1.0, 2.0, 3.0], 5))
    q2 = tf.FIFOQueue(10, tf.float32)
    with pytest.raises(ValueError, match="component_0: Tensor conversion requested dtype float32 for Tensor with "
                                         "dtype int32"):
        q2.enqueue(tf.constant([1], tf.int32))


def test_named_queue_enqueues_and_dequeues_dictionaries():
    q = tf.FIFOQueue(5, [tf.int32, tf.float32], names=["a", "b"], shapes=[[], []])
    assert q.names == ["a", "b"]
    with pytest.raises(ValueError, match="You must enqueue a dictionary in a Queue with names"):
        q.enqueue((1, 2.0))
    with pytest.raises(ValueError, match=r"Keys in dictionary to enqueue do not match names of Queue.  Dictionary: "
                                         r"\['a'\],Queue: \['a', 'b'\]"):
        q.enqueue({"a": 1})
    enq = q.enqueue({"a": 1, "b": 2.0})
    with tf.Session() as sess:
        sess.run(enq)
        assert sess.run(q.dequeue()) == {"a": 1, "b": 2.0}


# ---- running ------------------------------------------------------------------------------------------------
def test_fifo_order_size_and_closed_queue_errors():
    q = tf.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[2], []])
    enq = q.enqueue(([1.0, 2.0], 5))
    many = q.enqueue_many(([[1.0, 2.0], [3.0, 4.0]], [6, 7]))
    dm, du, d = q.dequeue_many(2), q.dequeue_up_to(2), q.dequeue()
    with tf.Session() as sess:
        sess.run(enq)
        sess.run(many)
        assert sess.run(q.size()) == 3
        first = sess.run(dm)
        np.testing.assert_array_equal(first[0], [[1.0, 2.0], [1.0, 2.0]])
        np.testing.assert_array_equal(first[1], [5, 6])
        last = sess.run(d)
        np.testing.assert_array_equal(last[0], [3.0, 4.0])
        assert last[1] == 7 and last[1].dtype == np.int32
        sess.run(enq)
        sess.run(q.close())
        assert sess.run(q.is_closed())
        with pytest.raises(tf.errors.CancelledError, match="FIFOQueue '_0_fifo_queue' is closed."):
            sess.run(enq)
        with pytest.raises(tf.errors.OutOfRangeError, match=r"FIFOQueue '_0_fifo_queue' is closed and has "
                                                            r"insufficient elements \(requested 2, current size 1\)"):
            sess.run(dm)
        assert sess.run(q.size()) == 1  # a failed dequeue_many leaves the elements in the queue
        rest = sess.run(du)  # dequeue_up_to returns what is left of a closed queue
        np.testing.assert_array_equal(rest[0], [[1.0, 2.0]])
        with pytest.raises(tf.errors.OutOfRangeError, match=r"\(requested 2, current size 0\)"):
            sess.run(du)
        with pytest.raises(tf.errors.OutOfRangeError, match=r"\(requested 1, current size 0\)"):
            sess.run(d)


def test_runtime_shape_and_dequeue_many_errors():
    q = tf.FIFOQueue(5, [tf.float32], shapes=[[2]])
    x = tf.placeholder(tf.float32)
    q2 = tf.FIFOQueue(5, [tf.int32, tf.float32], shapes=[[], [2]])
    free = tf.FIFOQueue(10, tf.float32)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape mismatch in tuple component 0. Expected "
                                                                 r"\[2\], got \[3\]"):
            sess.run(q.enqueue(x), {x: [1.0, 2.0, 3.0]})
        y = tf.placeholder_with_default(np.zeros((3, 2), np.float32), [None, 2])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape mismatch in tuple component 1. Expected "
                                                                 r"\[2,2\], got \[3,2\]"):
            sess.run(q2.enqueue_many(([1, 2], y)))
        with pytest.raises(tf.errors.InvalidArgumentError, match="DequeueManyOp requested -1 < 0 elements"):
            sess.run(q.dequeue_many(tf.placeholder_with_default(-1, [])))
        sess.run(free.enqueue_many([[1.0, 2.0, 3.0]]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="FIFOQueue's DequeueMany and DequeueUpTo require "
                                                                 "the components to have specified shapes."):
            sess.run(free.dequeue_many(2))
        assert sess.run(free.dequeue()) == 1.0  # elements of any shape dequeue one at a time


def test_string_components_keep_bytes():
    q = tf.FIFOQueue(5, tf.string, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q.enqueue_many([["a", "bc"]]))
        assert sess.run(q.dequeue()) == b"a"
        sess.run(q.enqueue("d"))
        sess.run(q.close())
        out = sess.run(q.dequeue_up_to(5))
        assert out.dtype == object and list(out) == [b"bc", b"d"]


def test_dequeue_blocks_until_another_thread_enqueues():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    x = tf.placeholder(tf.int32, [])
    enq, deq = q.enqueue(x), q.dequeue()
    with tf.Session() as sess:
        t, out = _in_thread(lambda: sess.run(deq))
        time.sleep(0.2)
        assert t.is_alive() and not out
        sess.run(enq, {x: 42})
        t.join(5)
        assert out == {"value": 42}


def test_enqueue_blocks_while_full_and_dequeue_many_larger_than_capacity():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    many = q.enqueue_many([tf.range(5)])
    with tf.Session() as sess:
        t, out = _in_thread(lambda: sess.run(many))
        time.sleep(0.2)
        assert t.is_alive() and sess.run(q.size()) == 2
        # Five elements through a queue of capacity 2: the dequeue takes them as they arrive.
        np.testing.assert_array_equal(sess.run(q.dequeue_many(5)), np.arange(5))
        t.join(5)
        assert out == {"value": None}


def test_timeouts_raise_deadline_exceeded():
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    enq = q.enqueue(1)
    with tf.Session() as sess:
        start = time.monotonic()
        with pytest.raises(tf.errors.DeadlineExceededError, match="Timed out waiting for notification"):
            sess.run(q.dequeue(), options=tf.RunOptions(timeout_in_ms=100))
        assert 0.09 < time.monotonic() - start < 5
        sess.run(enq)
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(enq, options=tf.RunOptions(timeout_in_ms=50))
        assert sess.run(q.dequeue()) == 1  # the timed-out enqueue added nothing
    with tf.Session(config=tf.ConfigProto(operation_timeout_in_ms=50)) as sess:
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(q.dequeue())


def test_timed_out_dequeue_many_puts_back_what_it_took():
    q = tf.FIFOQueue(5, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q.enqueue_many([[1, 2]]))
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(q.dequeue_many(3), options=tf.RunOptions(timeout_in_ms=50))
        np.testing.assert_array_equal(sess.run(q.dequeue_many(2)), [1, 2])


def test_close_while_a_dequeue_blocks_raises_out_of_range_in_that_thread():
    q = tf.FIFOQueue(2, tf.float32, shapes=[[]])
    deq = q.dequeue()
    with tf.Session() as sess:
        t, out = _in_thread(lambda: sess.run(deq))
        time.sleep(0.2)
        assert t.is_alive()
        sess.run(q.close())
        t.join(5)
        assert isinstance(out["error"], tf.errors.OutOfRangeError)
        assert "is closed and has insufficient elements (requested 1, current size 0)" in out["error"].message


def test_close_lets_pending_enqueues_finish_unless_cancelled():
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q.enqueue(1))
        t, out = _in_thread(lambda: sess.run(q.enqueue(2)))
        time.sleep(0.1)
        sess.run(q.close())
        assert sess.run(q.dequeue()) == 1
        t.join(5)
        assert out == {"value": None} and sess.run(q.dequeue()) == 2
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q.enqueue(1))
        t, out = _in_thread(lambda: sess.run(q.enqueue(2)))
        time.sleep(0.1)
        sess.run(q.close(cancel_pending_enqueues=True))
        t.join(5)
        assert isinstance(out["error"], tf.errors.CancelledError)
        assert "Enqueue operation was cancelled" in out["error"].message
        assert sess.run(q.size()) == 1


def test_closing_the_session_cancels_a_blocked_dequeue():
    q = tf.FIFOQueue(2, tf.float32, shapes=[[]])
    deq = q.dequeue()
    sess = tf.Session()
    t, out = _in_thread(lambda: sess.run(deq))
    time.sleep(0.2)
    sess.close()
    t.join(5)
    assert not t.is_alive() and isinstance(out["error"], tf.errors.CancelledError)


def test_queue_state_lives_in_each_session_and_shared_name_shares_it():
    q = tf.FIFOQueue(5, tf.int32, shapes=[[]])
    enq = q.enqueue(3)
    a = tf.FIFOQueue(5, tf.int32, shapes=[[]], shared_name="shared")
    b = tf.FIFOQueue(5, tf.int32, shapes=[[]], shared_name="shared")
    with tf.Session() as s1, tf.Session() as s2:
        s1.run(enq)
        assert s1.run(q.size()) == 1 and s2.run(q.size()) == 0
        s1.run(a.enqueue(9))
        assert s1.run(b.dequeue()) == 9 and s2.run(b.size()) == 0


def test_concurrent_runs_from_many_threads_lose_nothing():
    q = tf.FIFOQueue(4, tf.int32, shapes=[[]])
    x = tf.placeholder(tf.int32, [])
    enq, deq = q.enqueue(x), q.dequeue()
    got = []
    with tf.Session() as sess:
        producers = [threading.Thread(target=lambda k=k: [sess.run(enq, {x: k * 100 + i}) for i in range(50)])
                     for k in range(4)]
        consumers = [threading.Thread(target=lambda: got.extend(sess.run(deq) for _ in range(50))) for _ in range(4)]
        for t in producers + consumers:
            t.start()
        for t in producers + consumers:
            t.join(30)
    assert sorted(got) == sorted(k * 100 + i for k in range(4) for i in range(50))


def test_random_shuffle_queue_waits_for_min_after_dequeue_and_is_seeded():
    def run(seed):
        g = tf.Graph()
        with g.as_default():
            q = tf.RandomShuffleQueue(20, 2, tf.int32, shapes=[[]], seed=seed)
            with tf.Session() as sess:
                sess.run(q.enqueue_many([tf.range(10)]))
                first = sess.run(q.dequeue_many(8))
                with pytest.raises(tf.errors.DeadlineExceededError):  # 2 left: min_after_dequeue
                    sess.run(q.dequeue(), options=tf.RunOptions(timeout_in_ms=50))
                sess.run(q.close())  # once closed, the last elements come out
                rest = sess.run(q.dequeue_up_to(5))
                with pytest.raises(tf.errors.OutOfRangeError, match="RandomShuffleQueue '_0_random_shuffle_queue' "
                                                                    "is closed and has insufficient elements"):
                    sess.run(q.dequeue())
        return list(first) + list(rest)
    a, b, c = run(3), run(3), run(4)
    assert sorted(a) == list(range(10))
    assert a == b and a != c and a != list(range(10))
    assert tf.RandomShuffleQueue(5, 1, tf.int32).queue_ref.op.type == "RandomShuffleQueueV2"


def test_padding_fifo_queue_pads_each_batch():
    q = tf.PaddingFIFOQueue(10, [tf.int32, tf.string], shapes=[[None], [None]])
    assert q.queue_ref.op.type == "PaddingFIFOQueueV2" and q.name == "padding_fifo_queue"
    dm = q.dequeue_many(2)
    assert [t.shape.as_list() for t in dm] == [[2, None], [2, None]]
    with tf.Session() as sess:
        sess.run(q.enqueue(([1], ["a"])))
        sess.run(q.enqueue(([1, 2, 3], ["b", "c"])))
        ints, strs = sess.run(dm)
    np.testing.assert_array_equal(ints, [[1, 0, 0], [1, 2, 3]])
    assert strs.tolist() == [[b"a", b""], [b"b", b"c"]]
    with pytest.raises(TypeError):
        tf.PaddingFIFOQueue(10, tf.int32)  # shapes are required


def test_priority_queue_dequeues_lowest_priority_first():
    q = tf.PriorityQueue(10, [tf.string], shapes=[[]])
    assert q.dtypes == [tf.int64, tf.string] and [s.as_list() for s in q.shapes] == [[], []]
    assert q.queue_ref.op.type == "PriorityQueueV2" and q.name == "priority_queue"
    with tf.Session() as sess:
        sess.run(q.enqueue_many(([5, 1, 3], ["e", "a", "c"])))
        first = sess.run(q.dequeue())
        assert first[0] == 1 and first[1] == b"a"
        prios, values = sess.run(q.dequeue_many(2))
    np.testing.assert_array_equal(prios, [3, 5])
    assert values.tolist() == [b"c", b"e"]


def test_queue_from_list_selects_a_queue_at_run_time():
    q1 = tf.FIFOQueue(5, tf.int32, shapes=[[2]])
    q2 = tf.FIFOQueue(5, tf.int32, shapes=[[2]])
    i = tf.placeholder(tf.int32, [])
    q = tf.QueueBase.from_list(i, [q1, q2])
    assert q.dtypes == [tf.int32] and q.shapes[0].as_list() == [2]
    with tf.Session() as sess:
        sess.run(q.enqueue(([7, 8],)), {i: 1})
        assert sess.run(q1.size()) == 0 and sess.run(q2.size()) == 1
        np.testing.assert_array_equal(sess.run(q2.dequeue()), [7, 8])
    with pytest.raises(TypeError, match="A list of queues expected"):
        tf.QueueBase.from_list(0, q1)


def test_queues_run_eagerly():
    from tensorweave.eager import context
    with context.eager_mode():
        q = tf.FIFOQueue(5, [tf.float32], shapes=[[2]])
        other = tf.FIFOQueue(5, [tf.float32], shapes=[[2]])
        q.enqueue_many([tf.constant([[1.0, 2.0], [3.0, 4.0]])])
        assert q.size().numpy() == 2 and other.size().numpy() == 0
        np.testing.assert_array_equal(q.dequeue().numpy(), [1.0, 2.0])
        q.close()
        np.testing.assert_array_equal(q.dequeue_up_to(3).numpy(), [[3.0, 4.0]])
        with pytest.raises(tf.errors.OutOfRangeError):
            q.dequeue()
