"""Records CTC results from real TensorFlow into ctc_tf.npz: tf.nn.ctc_loss values, the CTCLoss
op's gradient output and tf.gradients through it (every combination of preprocess_collapse_repeated /
ctc_merge_repeated, ignore_longer_outputs_than_inputs, impossible alignments, float64,
time_major=False), ctc_loss_v2 (sparse labels with several blank indices, dense labels),
ctc_greedy_decoder and ctc_beam_search_decoder(_v2) outputs (several beam widths, top paths,
merge_repeated, peaked and flat logits), and ctc_unique_labels. The inputs are stored too. Run with a
Python that has TensorFlow:
    python tests/data/make_ctc_tf.py"""

import pathlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
out = {}
rng = np.random.RandomState(1234)


def sparse(rows):
    ind = [[b, t] for b, r in enumerate(rows) for t in range(len(r))]
    val = [v for r in rows for v in r]
    return (np.asarray(ind, np.int64).reshape(-1, 2), np.asarray(val, np.int32),
            np.asarray([len(rows), max(len(r) for r in rows)], np.int64))


LOSS_CASES = {
    # name: (T, B, C, scale, label rows, seq_len)
    "basic": (6, 4, 5, 1.0, [[0, 1, 2], [3, 3], [1, 1, 1], [2, 0, 2, 4]], [6, 3, 6, 5]),
    "ignore": (5, 3, 4, 1.0, [[0, 1, 2], [1], [2, 2]], [2, 0, 5]),
    "impossible": (2, 2, 4, 1.0, [[1, 1], [2]], [2, 2]),
    "long": (20, 3, 8, 3.0, [[0, 1, 2, 3, 4], [5, 5, 1, 1, 2, 6, 6, 0], [6, 0, 6, 0, 6, 0]], [20, 17, 12]),
}
with tf.Session() as s:
    for name, (T, B, C, scale, rows, seq_len) in LOSS_CASES.items():
        x = (rng.randn(T, B, C) * scale).astype(np.float32)
        ind, val, shape = sparse(rows)
        out["loss_%s_x" % name] = x
        out["loss_%s_ind" % name], out["loss_%s_val" % name] = ind, val
        out["loss_%s_seq" % name] = np.asarray(seq_len, np.int32)
        for dt in (tf.float32, tf.float64):
            for collapse in (False, True):
                for merge in (False, True):
                    ignore = name == "ignore"
                    key = "loss_%s_%s_%d%d" % (name, dt.name, collapse, merge)
                    xt = tf.constant(x, dt)
                    labels = tf.SparseTensor(ind, val, shape)
                    loss = tf.nn.ctc_loss(labels, xt, seq_len, preprocess_collapse_repeated=collapse,
                                          ctc_merge_repeated=merge, ignore_longer_outputs_than_inputs=ignore)
                    w = tf.constant(np.arange(1, B + 1), dt)
                    (g,) = tf.gradients(tf.reduce_sum(loss * w), xt)
                    out[key], out[key + "_grad"], out[key + "_op_grad"] = s.run([loss, g, loss.op.outputs[1]])
    # batch-major logits
    x = out["loss_basic_x"]
    ind, val, shape = sparse(LOSS_CASES["basic"][4])
    xt = tf.constant(x.transpose(1, 0, 2))
    loss = tf.nn.ctc_loss(tf.SparseTensor(ind, val, shape), xt, LOSS_CASES["basic"][5], time_major=False)
    out["loss_batch_major"], out["loss_batch_major_grad"] = s.run([loss, tf.gradients(tf.reduce_sum(loss), xt)[0]])
    # ctc_loss_v2
    x = out["loss_long_x"]
    rows = LOSS_CASES["long"][4]
    seq = LOSS_CASES["long"][5]
    for blank in (0, 3, 7, -1):
        ind, val, shape = sparse([[v if v < blank % 8 else v + 1 for v in r] for r in rows])
        loss = tf.nn.ctc_loss_v2(tf.SparseTensor(ind, val, shape), tf.constant(x), None, seq, blank_index=blank)
        out["v2_sparse_%d" % blank] = s.run(loss)
    dense = np.zeros((3, 8), np.int32)
    for b, r in enumerate(rows):
        dense[b, :len(r)] = [v + 1 for v in r]
    out["v2_dense_labels"] = dense
    xt = tf.constant(x)
    loss = tf.nn.ctc_loss_v2(dense, xt, [len(r) for r in rows], seq, blank_index=0)
    out["v2_dense_0"], out["v2_dense_0_grad"] = s.run([loss, tf.gradients(tf.reduce_sum(loss), xt)[0]])
    # decoders
    for name, (T, B, C, scale) in {"flat": (10, 3, 5, 1.0), "peaked": (12, 4, 6, 4.0),
                                   "wide": (15, 2, 12, 2.0), "long": (40, 2, 10, 3.0)}.items():
        x = (rng.randn(T, B, C) * scale).astype(np.float32)
        seq = np.asarray([T, T - 3, 3, 1][:B], np.int32)
        out["dec_%s_x" % name], out["dec_%s_seq" % name] = x, seq
        for dt in (tf.float32, tf.float64):
            xt = tf.constant(x, dt)
            for merge in (False, True):
                (d,), lp = tf.nn.ctc_greedy_decoder(xt, seq, merge_repeated=merge)
                key = "greedy_%s_%s_%d" % (name, dt.name, merge)
                out[key + "_ind"], out[key + "_val"], out[key + "_shape"], out[key + "_lp"] = s.run(
                    [d.indices, d.values, d.dense_shape, lp])
                for bw, tp in ((1, 1), (2, 2), (3, 3), (8, 4), (30, 5), (100, 3)):
                    key = "beam_%s_%s_%d_%d_%d" % (name, dt.name, merge, bw, tp)
                    dec, lp = tf.nn.ctc_beam_search_decoder(xt, seq, beam_width=bw, top_paths=tp,
                                                            merge_repeated=merge)
                    vals = s.run([[d.indices, d.values, d.dense_shape] for d in dec] + [lp])
                    for p in range(tp):
                        out["%s_p%d_ind" % (key, p)], out["%s_p%d_val" % (key, p)], out["%s_p%d_shape" % (key, p)] = \
                            vals[p]
                    out[key + "_lp"] = vals[-1]
        (d,), lp = tf.nn.ctc_greedy_decoder(tf.constant(x), seq, blank_index=1)
        out["greedy_%s_blank1" % name] = s.run(tf.sparse.to_dense(d))
        dec, lp = tf.nn.ctc_beam_search_decoder_v2(tf.constant(x), seq, beam_width=4, top_paths=2)
        out["beam_v2_%s" % name] = s.run([tf.sparse.to_dense(d, default_value=-1) for d in dec] + [lp])
    out["unique_in"] = np.asarray([[3, 4, 4, 3, 1], [1, 1, 1, 0, 0], [2, 2, 2, 2, 2]], np.int32)
    out["unique_y"], out["unique_idx"] = s.run(tf.nn.ctc_unique_labels(tf.constant(out["unique_in"])))

for k in list(out):
    if isinstance(out[k], list):
        arrs = out.pop(k)
        for i, a in enumerate(arrs):
            out["%s_%d" % (k, i)] = a
np.savez_compressed(pathlib.Path(__file__).parent / "ctc_tf.npz", **out)
print(len(out), "arrays")
