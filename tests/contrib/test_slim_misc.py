"""slim.model_analyzer, slim.summaries and slim.queues (behaviour as TF 1.15's tf-slim source;
sizes and names derived by hand)."""

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.contrib.slim as slim


def test_model_analyzer(capsys):
    with tf.Graph().as_default():
        a = tf.get_variable("a", [3, 4])
        b = tf.get_variable("b", [5], dtype=tf.float64)
        assert slim.model_analyzer.analyze_vars([a, b], print_info=True) == (17, 3 * 4 * 4 + 5 * 8)
        out = capsys.readouterr().out
        assert "a:0 (" in out and "3x4) [12, bytes: 48]" in out and "Total size of variables: 17" in out
        g = tf.Graph()
        with g.as_default():
            tf.zeros([2, 3], name="z")
        assert slim.model_analyzer.analyze_ops(g) == 6
        assert slim.model_analyzer.tensor_description(tf.zeros([2, 5])) == "(float32 2x5)"


def test_summaries_helpers():
    with tf.Graph().as_default():
        x = tf.constant([[0.0, 1.0], [0.0, 3.0]], name="x")
        s1 = slim.summaries.add_scalar_summary(tf.reduce_sum(x), name="total", prefix="p")
        s2 = slim.summaries.add_zero_fraction_summaries([x], prefix="z")
        s3 = slim.summaries.add_histogram_summaries([x])
        s4 = slim.summaries.add_scalar_summary(tf.reduce_mean(x), name="printed", print_summary=True)
        img = slim.summaries.add_image_summary(tf.zeros([1, 2, 2, 1]), name="img")
        assert len(s2) == 1 and len(s3) == 1
        assert len(tf.get_collection(tf.GraphKeys.SUMMARIES)) == 5
        with tf.Session() as sess:
            got = sess.run([s1, s2[0], s3[0], s4, img])
        assert b"p/total" in got[0] and b"z/x/Fraction_of_Zero_Values" in got[1] and b"x" in got[2]
        assert b"printed" in got[3] and b"img" in got[4]


def test_queue_runners_context():
    with tf.Graph().as_default():
        q = tf.FIFOQueue(10, tf.float32)
        enq = q.enqueue(tf.constant(1.5))
        tf.train.add_queue_runner(tf.train.QueueRunner(q, [enq]))
        x = q.dequeue()
        with tf.Session() as sess:
            with slim.queues.QueueRunners(sess):
                vals = [sess.run(x) for _ in range(3)]
                with pytest.raises(slim.queues.NestedQueueRunnerError):
                    with slim.queues.QueueRunners(sess):
                        pass
            np.testing.assert_array_equal(vals, [1.5, 1.5, 1.5])


def test_contrib_losses_and_metrics_are_the_modules_slim_reexports():
    import tensorweave as tf
    import tensorweave.contrib.slim as slim
    assert tf.contrib.losses is slim.losses and tf.contrib.metrics is slim.metrics
    assert tf.contrib.losses.softmax_cross_entropy is slim.losses.softmax_cross_entropy
    assert callable(tf.contrib.metrics.streaming_accuracy)
