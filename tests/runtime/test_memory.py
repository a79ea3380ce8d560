"""Intermediates are released after their last use: a run's peak memory stays near the live set."""

import numpy as np

import tensorweave as tf
from tests.bench import bench_run

N = 1 << 18  # float32: 1 MiB per array


def test_chain_keeps_at_most_two_intermediates_alive():
    x = tf.placeholder(tf.float32, [N])
    y = x
    for _ in range(20):
        y = tf.sin(y) * 0.5
    xv = np.random.RandomState(0).rand(N).astype(np.float32)
    config = tf.ConfigProto(intra_op_parallelism_threads=1)  # no fusion: op by op
    with tf.Session(config=config) as sess:
        peak = bench_run._peak_of(lambda: sess.run(y, {x: xv}))()
    array = N * 4
    assert peak <= 2.2 * array, peak / array  # the value being computed and its input


def test_mlp_step_peak_is_within_1_5x_of_numpy():
    ours = bench_run.mlp_memory(tf)()  # the benchmark's MLP step (checked against NumPy's first)
    theirs = bench_run.mlp_memory_numpy()()
    assert ours <= 1.5 * theirs, (ours, theirs)
