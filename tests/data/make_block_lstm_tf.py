"""Records TensorFlow's BlockLSTM / BlockLSTMGrad values for tests/nn/test_block_lstm.py into
tests/data/block_lstm_tf.npz.

Run with a Python that has TensorFlow (not needed by the tests):
    /work/tfenv/bin/python tests/data/make_block_lstm_tf.py
float32 (TF registers these ops for float16/float32 only); cases: default attributes, peepholes with
forget_bias and a cell clip, seq_len_max below the number of steps. The gradients are TF's
`tf.gradients` of `sum(cs * gc) + sum(h * gh)` (its BlockLSTM gradient, one BlockLSTMGrad op).
"""

import os

import numpy as np
import tensorflow.compat.v1 as tf
from tensorflow.python.ops import gen_rnn_ops

tf.disable_v2_behavior()

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "block_lstm_tf.npz")
CASES = {"default": dict(seq=5, forget_bias=1.0, cell_clip=3.0, use_peephole=False),
         "peep_clip": dict(seq=5, forget_bias=0.4, cell_clip=0.6, use_peephole=True),
         "short": dict(seq=3, forget_bias=1.0, cell_clip=-1.0, use_peephole=True)}


def main():
    rng = np.random.RandomState(7)
    t_len, batch, inp, cell = 5, 3, 4, 6
    rec = {}
    for name, c in CASES.items():
        vals = {"x": rng.uniform(-2, 2, (t_len, batch, inp)), "cs_prev": rng.uniform(-1, 1, (batch, cell)),
                "h_prev": rng.uniform(-1, 1, (batch, cell)), "w": rng.uniform(-1, 1, (inp + cell, 4 * cell)),
                "wci": rng.uniform(-1, 1, cell), "wcf": rng.uniform(-1, 1, cell), "wco": rng.uniform(-1, 1, cell),
                "b": rng.uniform(-1, 1, 4 * cell), "gc": rng.uniform(-1, 1, (t_len, batch, cell)),
                "gh": rng.uniform(-1, 1, (t_len, batch, cell))}
        vals = {k: v.astype(np.float32) for k, v in vals.items()}
        with tf.Graph().as_default(), tf.Session() as sess:
            ins = {k: tf.constant(v) for k, v in vals.items()}
            outs = gen_rnn_ops.block_lstm(seq_len_max=tf.constant(c["seq"], tf.int64), x=ins["x"],
                                          cs_prev=ins["cs_prev"], h_prev=ins["h_prev"], w=ins["w"], wci=ins["wci"],
                                          wcf=ins["wcf"], wco=ins["wco"], b=ins["b"], forget_bias=c["forget_bias"],
                                          cell_clip=c["cell_clip"], use_peephole=c["use_peephole"])
            loss = tf.reduce_sum(outs[1] * ins["gc"]) + tf.reduce_sum(outs[6] * ins["gh"])
            wrt = ["x", "cs_prev", "h_prev", "w", "b"]  # TF 1.15's rule swaps the wcf/wco gradients
            grads = tf.gradients(loss, [ins[k] for k in wrt])
            out_v, grad_v = sess.run([outs, grads])
        for k, v in vals.items():
            rec["%s/in/%s" % (name, k)] = v
        for k, v in zip(("i", "cs", "f", "o", "ci", "co", "h"), out_v):
            rec["%s/out/%s" % (name, k)] = v
        for k, v in zip(wrt, grad_v):
            rec["%s/grad/%s" % (name, k)] = v
    np.savez_compressed(OUT, **rec)
    print("wrote", OUT, len(rec))


if __name__ == "__main__":
    main()
