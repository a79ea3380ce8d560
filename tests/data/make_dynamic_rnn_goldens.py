"""Records TensorFlow's values for tests/nn/test_dynamic_rnn.py into tests/data/dynamic_rnn_tf.npz.

Run with a Python that has TensorFlow (not needed by the tests):
    /work/tfenv/bin/python tests/data/make_dynamic_rnn_goldens.py
TF 2.21's `tf.compat.v1` in graph mode with `tf.compat.v1.nn.rnn_cell` cells (TF 1.15's code).
Each case assigns fixed values to the cell variables (recorded as `<case>/var/<name>`), runs
`dynamic_rnn`/`bidirectional_dynamic_rnn`/`raw_rnn` in float64 and records the outputs, final
states and the gradients of `loss = sum(outputs * wo) + sum_k sum(state_k * ws_k)` w.r.t. the
inputs and every variable.
"""

import os  # noqa: I001

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.compat.v1.nn.rnn_cell needs tf_keras (Keras 2)
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dynamic_rnn_tf.npz")
B, T, D, H = 3, 6, 4, 5


def _cell(kind, name=None):
    rc = tf.nn.rnn_cell
    if kind == "lstm":
        return rc.BasicLSTMCell(H, forget_bias=0.7, name=name)
    if kind == "lstmcell":
        return rc.LSTMCell(H, name=name)
    if kind == "gru":
        return rc.GRUCell(H, name=name)
    return rc.BasicRNNCell(H, name=name)


def _record(rec, case, rng, build):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [None, None, D], name="x")
        sl = tf.placeholder(tf.int32, [None], name="sl")
        outs, states = build(x, sl)
        flat_o = tf.nest.flatten(outs)
        flat_s = tf.nest.flatten(states)
        loss = 0.0
        for k, o in enumerate(flat_o):
            w = rng.uniform(-1, 1, (T, B, H) if "_tm_" in case else (B, T, H))
            rec["%s/wo%d" % (case, k)] = w
            loss += tf.reduce_sum(o * w)
        for k, s in enumerate(flat_s):
            w = rng.uniform(-1, 1, (B, s.shape[-1].value))
            rec["%s/ws%d" % (case, k)] = w
            loss += tf.reduce_sum(s * w)
        variables = tf.trainable_variables()
        grads = tf.gradients(loss, [x] + variables)
        with tf.Session() as sess:
            for v in variables:
                val = rng.uniform(-0.6, 0.6, v.shape.as_list())
                rec["%s/var/%s" % (case, v.op.name)] = val
                v.load(val, sess)
            xv = rng.uniform(-1, 1, (T, B, D) if "_tm_" in case else (B, T, D))
            slv = np.array([T, 3, 0], np.int32)
            rec[case + "/x"] = xv
            rec[case + "/sl"] = slv
            vals = sess.run([flat_o, flat_s, loss, grads], {x: xv, sl: slv})
        for k, o in enumerate(vals[0]):
            rec["%s/out%d" % (case, k)] = o
        for k, s in enumerate(vals[1]):
            rec["%s/state%d" % (case, k)] = s
        rec[case + "/loss"] = np.array(vals[2])
        rec[case + "/dx"] = vals[3][0]
        for v, gv in zip(variables, vals[3][1:]):
            rec["%s/grad/%s" % (case, v.op.name)] = gv


def main():
    rng = np.random.RandomState(20261127)
    rec = {}
    for kind in ("lstm", "lstmcell", "gru", "rnn"):
        _record(rec, kind + "_seq", rng,
                lambda x, sl, kind=kind: tf.nn.dynamic_rnn(_cell(kind), x, sequence_length=sl, dtype=tf.float64))
        _record(rec, kind + "_noseq", rng,
                lambda x, sl, kind=kind: tf.nn.dynamic_rnn(_cell(kind), x, dtype=tf.float64))
    _record(rec, "lstm_tm_seq", rng,
            lambda x, sl: tf.nn.dynamic_rnn(_cell("lstm"), x, sequence_length=sl, dtype=tf.float64, time_major=True))

    def init_state(x, sl):
        cell = _cell("rnn")
        h0 = tf.ones([tf.shape(x)[0], H], tf.float64) * 0.25
        return tf.nn.dynamic_rnn(cell, x, sequence_length=sl, initial_state=h0, scope="myrnn")
    _record(rec, "rnn_init_seq", rng, init_state)

    for kind in ("lstm", "gru"):
        _record(rec, "bi_" + kind + "_seq", rng,
                lambda x, sl, kind=kind: tf.nn.bidirectional_dynamic_rnn(_cell(kind), _cell(kind), x,
                                                                         sequence_length=sl, dtype=tf.float64))
    _record(rec, "bi_lstm_noseq", rng,
            lambda x, sl: tf.nn.bidirectional_dynamic_rnn(_cell("lstm"), _cell("lstm"), x, dtype=tf.float64))

    def raw(x, sl):
        cell = _cell("lstm")
        xt = tf.transpose(x, [1, 0, 2])
        max_time = tf.shape(xt)[0]
        batch = tf.shape(xt)[1]
        inputs_ta = tf.TensorArray(tf.float64, size=max_time).unstack(xt)

        def loop_fn(time, cell_output, cell_state, loop_state):
            emit_output = cell_output
            next_state = cell.zero_state(batch, tf.float64) if cell_output is None else cell_state
            finished = time >= sl
            all_done = tf.reduce_all(finished)
            next_input = tf.cond(all_done, lambda: tf.zeros([batch, D], tf.float64),
                                 lambda: inputs_ta.read(tf.minimum(time, max_time - 1)))
            return finished, next_input, next_state, emit_output, None
        emit_ta, final_state, _ = tf.nn.raw_rnn(cell, loop_fn)
        return tf.transpose(emit_ta.stack(), [1, 0, 2]), final_state
    _record(rec, "raw_lstm_seq", rng, raw)

    def multi(x, sl):
        cell = tf.nn.rnn_cell.MultiRNNCell([_cell("lstm"), _cell("gru")])
        return tf.nn.dynamic_rnn(cell, x, sequence_length=sl, dtype=tf.float64)
    _record(rec, "multi_seq", rng, multi)

    def multi_lstm(x, sl):
        cell = tf.nn.rnn_cell.MultiRNNCell([_cell("lstm"), _cell("lstmcell")])
        return tf.nn.dynamic_rnn(cell, x, sequence_length=sl, dtype=tf.float64)
    _record(rec, "multi_lstm_seq", rng, multi_lstm)
    _record(rec, "lstmpeep_seq", rng, lambda x, sl: tf.nn.dynamic_rnn(
        tf.nn.rnn_cell.LSTMCell(H, use_peepholes=True, forget_bias=0.5), x, sequence_length=sl, dtype=tf.float64))
    np.savez_compressed(OUT, **rec)
    print("wrote", OUT, len(rec))


if __name__ == "__main__":
    main()
