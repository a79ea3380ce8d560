"""Records segment-op results from real TensorFlow into segment_ops_tf.npz (float32 data: checks the
summation order and the 1/N scaling bit for bit). Run with a Python that has TensorFlow:
    python tests/data/make_segment_ops_tf.py"""

import pathlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
rng = np.random.RandomState(0)
d = rng.uniform(-5, 5, (60, 4)).astype(np.float32)
ids = np.sort(rng.randint(0, 12, 60)).astype(np.int32)
idx = rng.randint(0, 60, 60).astype(np.int32)
uids = rng.randint(-1, 12, 60).astype(np.int32)
with tf.Session() as s:
    out = s.run({"sparse_mean": tf.sparse.segment_mean(d, idx, ids),
                 "sparse_sqrt_n": tf.sparse.segment_sqrt_n(d, idx, ids),
                 "sparse_sum": tf.sparse.segment_sum(d, idx, ids), "segment_mean": tf.math.segment_mean(d, ids),
                 "segment_sum": tf.math.segment_sum(d, ids), "segment_prod": tf.math.segment_prod(d, ids),
                 "unsorted_sum": tf.math.unsorted_segment_sum(d, uids, 12),
                 "unsorted_mean": tf.math.unsorted_segment_mean(d, uids, 12),
                 "unsorted_sqrt_n": tf.math.unsorted_segment_sqrt_n(d, uids, 12)})
np.savez(pathlib.Path(__file__).with_name("segment_ops_tf.npz"), d=d, ids=ids, idx=idx, uids=uids, **out)
