"""The fused LSTM op BlockLSTM and its gradient (tensorweave/ops/rnn_fused_ops.py) against TensorFlow's
values (tests/data/block_lstm_tf.npz, made by tests/data/make_block_lstm_tf.py), and its errors.
The op table (tests/ops/op_table/rows_rnn_fused.py) checks both ops against NumPy references."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops.rnn_fused_ops import block_lstm

GOLD = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "block_lstm_tf.npz"))
CASES = {"default": dict(seq=5, forget_bias=1.0, cell_clip=3.0, use_peephole=False),
         "peep_clip": dict(seq=5, forget_bias=0.4, cell_clip=0.6, use_peephole=True),
         "short": dict(seq=3, forget_bias=1.0, cell_clip=-1.0, use_peephole=True)}
NAMES = ("i", "cs", "f", "o", "ci", "co", "h")


@pytest.mark.parametrize("case", sorted(CASES))
def test_block_lstm_matches_tf(case):
    c = CASES[case]
    v = {k[len(case) + 4:]: GOLD[k] for k in GOLD.files if k.startswith(case + "/in/")}
    with tf.Graph().as_default():
        ins = {k: tf.constant(a) for k, a in v.items()}
        outs = block_lstm(c["seq"], ins["x"], ins["cs_prev"], ins["h_prev"], ins["w"], ins["b"], ins["wci"],
                          ins["wcf"], ins["wco"], forget_bias=c["forget_bias"], cell_clip=c["cell_clip"],
                          use_peephole=c["use_peephole"])
        loss = tf.reduce_sum(outs[1] * ins["gc"]) + tf.reduce_sum(outs[6] * ins["gh"])
        wrt = ["x", "cs_prev", "h_prev", "w", "b"]
        grads = tf.gradients(loss, [ins[k] for k in wrt])
        with tf.Session() as s:
            out_v, grad_v = s.run([outs, grads])
    for name, got in zip(NAMES, out_v):
        want = GOLD["%s/out/%s" % (case, name)]
        if name not in ("cs", "h"):  # TF leaves these outputs uninitialized after seq_len_max (here zeros)
            want = np.concatenate([want[:c["seq"]], np.zeros_like(want[c["seq"]:])])
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6, err_msg=name)
    for name, got in zip(wrt, grad_v):
        np.testing.assert_allclose(got, GOLD["%s/grad/%s" % (case, name)], rtol=2e-5, atol=2e-5, err_msg=name)


def _args(t=3, batch=2, i=4, h=5, **over):
    b = batch
    a = dict(x=np.zeros((t, b, i), np.float32), cs=np.zeros((b, h), np.float32), hp=np.zeros((b, h), np.float32),
             w=np.zeros((i + h, 4 * h), np.float32), b=np.zeros(4 * h, np.float32), wci=np.zeros(h, np.float32),
             wcf=np.zeros(h, np.float32), wco=np.zeros(h, np.float32))
    a.update(over)
    return a


def _run(seq=3, **over):
    a = _args(**over)
    with tf.Graph().as_default():
        phs = {k: tf.placeholder(v.dtype) for k, v in a.items()}
        out = block_lstm(seq, phs["x"], phs["cs"], phs["hp"], phs["w"], phs["b"], phs["wci"], phs["wcf"], phs["wco"])
        with tf.Session() as s:
            return s.run(out, {phs[k]: v for k, v in a.items()})


@pytest.mark.parametrize("over,msg", [
    (dict(seq=4), "seq_len_max must be in \\[0, timelen = 3\\], got 4"),
    (dict(seq=-1), "seq_len_max must be in \\[0, timelen = 3\\], got -1"),
    (dict(x=np.zeros((3, 2), np.float32)), "x must be 3D"),
    (dict(cs=np.zeros((3, 5), np.float32)), "cs_prev.dims\\(0\\) != batch_size: 3 vs. 2"),
    (dict(hp=np.zeros((2, 4), np.float32)), "h_prev.dims\\(1\\) != cell_size: 4 vs. 5"),
    (dict(w=np.zeros((8, 20), np.float32)), "w.dim_size\\(0\\) != input_size \\+ cell_size: 8 vs. 9"),
    (dict(w=np.zeros((9, 16), np.float32)), "w.dim_size\\(1\\) != cell_size \\* 4: 16 vs. 20"),
    (dict(b=np.zeros(16, np.float32)), "b.dim_size\\(0\\) != cell_size \\* 4: 16 vs. 20"),
    (dict(wco=np.zeros(4, np.float32)), "wco.dim_size\\(0\\) != cell_size: 4 vs. 5"),
])
def test_block_lstm_runtime_errors(over, msg):
    with pytest.raises(tf.errors.InvalidArgumentError, match=msg) as e:
        _run(**over)
    assert "BlockLSTM" in str(e.value)


def test_block_lstm_static_shapes_and_errors():
    with tf.Graph().as_default():
        f = tf.float32
        outs = block_lstm(3, tf.placeholder(f, [None, 2, 4]), tf.placeholder(f), tf.placeholder(f),
                          tf.placeholder(f), tf.placeholder(f, [24]))
        assert len(outs) == 7 and all(o.shape.as_list() == [None, 2, 6] and o.dtype == f for o in outs)
        outs = block_lstm(3, tf.placeholder(f), tf.placeholder(f), tf.placeholder(f), tf.placeholder(f),
                          tf.placeholder(f))
        assert outs[0].shape.as_list() == [None, None, None]
        with pytest.raises(ValueError, match="Shape must be rank 3 but is rank 2"):
            block_lstm(3, tf.placeholder(f, [2, 3]), tf.placeholder(f), tf.placeholder(f), tf.placeholder(f),
                       tf.placeholder(f))
        with pytest.raises(ValueError, match="evenly divisible by 4 but is 10"):
            block_lstm(3, tf.placeholder(f), tf.placeholder(f), tf.placeholder(f), tf.placeholder(f),
                       tf.placeholder(f, [10]))
        with pytest.raises(TypeError, match="DataType int32 not in list of allowed values"):
            block_lstm(3, tf.placeholder(tf.int32), tf.placeholder(tf.int32), tf.placeholder(tf.int32),
                       tf.placeholder(tf.int32), tf.placeholder(tf.int32))


def test_block_lstm_eager_matches_graph():
    rng = np.random.RandomState(0)
    a = _args(x=rng.randn(3, 2, 4).astype(np.float32), w=rng.randn(9, 20).astype(np.float32))
    graph = _run(**dict(a, hp=a["hp"]))
    from tensorweave.eager import context
    with context.eager_mode():
        eager = block_lstm(3, a["x"], a["cs"], a["hp"], a["w"], a["b"], a["wci"], a["wcf"], a["wco"])
        for g, e in zip(graph, eager):
            np.testing.assert_array_equal(g, e.numpy())
