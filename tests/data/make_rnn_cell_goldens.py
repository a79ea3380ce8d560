"""Records TensorFlow's values for tests/nn/test_rnn_cell.py into tests/data/rnn_cell_goldens.json.

Run with a Python that has TensorFlow (not needed by the tests):
    /work/tfenv/bin/python tests/data/make_rnn_cell_goldens.py
TF 2.21's `tf.compat.v1` in graph mode, whose `tf.nn.rnn_cell` and `tf.nn.static_rnn` are TF 1.15's
code. Records, for every case of tests/data/rnn_cell_cases.py, the variable names and shapes, the
outputs, final state and gradients with fixed variable values; the variables' initial values with
the cells' initializers; `LSTMBlockCell`/`GRUBlockCell` steps computed by TF's own kernels
(`tf.raw_ops.LSTMBlockCell`, `GRUBlockCell`; tf.contrib is gone from TF 2); and TF's error messages.
"""

import json  # noqa: I001
import os
import sys

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.compat.v1.nn.rnn_cell needs tf_keras (Keras 2)
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rnn_cell_cases as cases  # noqa: E402
from rnn_cell_cases import CASES, B, D, H, T, inputs, run_case, value  # noqa: E402

OUT = os.path.join(HERE, "rnn_cell_goldens.json")


def init_values():
    out = {}
    g = tf.Graph()
    with g.as_default():
        cases.initializer_cells(tf)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for v in tf.global_variables():
                if not v.op.name.endswith("b1/kernel"):
                    out[v.op.name] = s.run(v).tolist()
                else:
                    out[v.op.name] = list(v.shape.as_list())
    return out


def _c32(v):
    return tf.constant(v, tf.float32)


def block_cells():
    """T steps of TF's LSTMBlockCell / GRUBlockCell kernels (float32 only) with the cases' deterministic weights."""
    out = {}
    xs = inputs()
    for name, peep, clip in (("lstm_block", False, -1.0), ("lstm_block_peep_clip", True, 0.25)):
        g = tf.Graph()
        with g.as_default(), tf.Session() as s:
            w = _c32(value("rnn/lstm_cell/kernel", (D + H, 4 * H)))
            b = _c32(value("rnn/lstm_cell/bias", (4 * H,)))
            if peep:
                wci, wcf, wco = [_c32(value("rnn/lstm_cell/" + n, (H,)))
                                 for n in ("w_i_diag", "w_f_diag", "w_o_diag")]
            else:
                wci = wcf = wco = tf.zeros([H], tf.float32)
            cs = tf.zeros([B, H], tf.float32)
            h = tf.zeros([B, H], tf.float32)
            hs = []
            for t in range(T):
                res = tf.raw_ops.LSTMBlockCell(x=_c32(xs[t]), cs_prev=cs, h_prev=h, w=w, wci=wci, wcf=wcf, wco=wco, b=b,
                                               forget_bias=0.7, cell_clip=clip, use_peephole=peep)
                cs, h = res[1], res[6]
                hs.append(h)
            hv, csv = s.run([hs, cs])
        out[name] = {"outputs": [a.tolist() for a in hv], "c": csv.tolist()}
    for name, prefix, names in (("gru_block", "rnn/gru_cell/", ("w_ru", "b_ru", "w_c", "b_c")),
                                ("gru_block_v2", "rnn/gru_cell/",
                                 ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias"))):
        g = tf.Graph()
        with g.as_default(), tf.Session() as s:
            shapes = [(D + H, 2 * H), (2 * H,), (D + H, H), (H,)]
            w_ru, b_ru, w_c, b_c = [_c32(value(prefix + n, sh)) for n, sh in zip(names, shapes)]
            h = tf.zeros([B, H], tf.float32)
            hs = []
            for t in range(T):
                h = tf.raw_ops.GRUBlockCell(x=_c32(xs[t]), h_prev=h, w_ru=w_ru, w_c=w_c, b_ru=b_ru,
                                            b_c=b_c)[3]
                hs.append(h)
            out[name] = {"outputs": [a.tolist() for a in s.run(hs)]}
    return out


def fused():
    """TF 1.15's LSTMBlockFusedCell on `[T, B, D]` inputs: TF's BlockLSTM kernel (float32) followed by
    LSTMBlockWrapper's masking and final-state gathering (TF 1.15's code, copied)."""
    out = {}
    x = np.stack(inputs()).astype(np.float32)
    for name, peep, clip, seq in (("fused", False, -1.0, None), ("fused_seq_peep", True, 0.3, [4, 2, 0])):
        g = tf.Graph()
        with g.as_default(), tf.Session() as s:
            w = _c32(value("lstm_fused_cell/kernel", (D + H, 4 * H)))
            b = _c32(value("lstm_fused_cell/bias", (4 * H,)))
            if peep:
                wci, wcf, wco = [_c32(value("lstm_fused_cell/" + n, (H,)))
                                 for n in ("w_i_diag", "w_f_diag", "w_o_diag")]
            else:
                wci = wcf = wco = tf.zeros([H], tf.float32)
            c0, h0 = _c32(value("c0", (B, H))), _c32(value("h0", (B, H)))
            max_len = tf.constant(T if seq is None else max(seq), tf.int64)
            res = tf.raw_ops.BlockLSTM(seq_len_max=max_len, x=_c32(x), cs_prev=c0, h_prev=h0, w=w, wci=wci, wcf=wcf,
                                       wco=wco, b=b, forget_bias=0.6, cell_clip=clip, use_peephole=peep)
            cs, h = res[1], res[6]
            if seq is not None:
                sl = tf.constant(seq)
                mask = tf.transpose(tf.sequence_mask(sl, T, dtype=tf.float32), [1, 0])
                h *= tf.tile(tf.expand_dims(mask, [-1]), [1, 1, H])
                mod_c = tf.concat([tf.expand_dims(c0, [0]), cs], 0)
                mod_h = tf.concat([tf.expand_dims(h0, [0]), h], 0)
                idx = sl * B + tf.range(B)
                fc, fh = tf.gather(tf.reshape(mod_c, [-1, H]), idx), tf.gather(tf.reshape(mod_h, [-1, H]), idx)
            else:
                fc, fh = cs[-1], h[-1]
            hv, fcv, fhv = s.run([h, fc, fh])
        out[name] = {"outputs": hv.tolist(), "c": fcv.tolist(), "h": fhv.tolist()}
    return out


def _error(fn):
    g = tf.Graph()
    with g.as_default():
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            return [type(e).__name__, str(e).split("\n")[0]]
    return None


def errors():
    return {name: _error(fn) for name, fn in cases.error_calls(tf).items()}


def scoping():
    """Variable names in situations where TF's scoping rules matter."""
    out = cases.scoping_names(tf)
    g = tf.Graph()
    with g.as_default():  # zero states
        bs, rcs = cases.zero_state_cells(tf)
        out["zero_state"] = cases.zero_states(tf, bs, rcs)
        out["sizes"] = [str(c.state_size) for c in rcs] + [str(c.output_size) for c in rcs]
    return out


def main():
    rec = {"cases": {name: run_case(tf, name) for name in CASES}, "init": init_values(), "block": block_cells(),
           "fused": fused(), "errors": errors(), "scoping": scoping()}
    with open(OUT, "w") as f:
        json.dump(rec, f)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
