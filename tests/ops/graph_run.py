"""run(fn): the value of fn() built in a new graph and run in a session there (the sparse tests against
values recorded from TensorFlow)."""

import tensorweave as tf


def run(fn):
    g = tf.Graph()
    with g.as_default():
        out = fn()
        with tf.Session() as s:
            return s.run(out)
