"""tf.nn.rnn_cell, tf.nn.static_rnn / static_bidirectional_rnn (issue 18, item 1).

Values are checked three ways: against TensorFlow's recorded outputs, states and gradients with the
same weights (tests/data/make_rnn_cell_goldens.py over the cases of tests/data/rnn_cell_cases.py),
against plain NumPy implementations of each cell's equations, and numerically (float64 gradient
checks). Variable names and shapes are TF's (tabled below and recorded), and so are the scoping,
reuse rules and error messages.
"""

import json
import os
import sys

import numpy as np
import pytest

import tensorweave as tf

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
sys.path.insert(0, DATA)
try:
    import rnn_cell_cases as cases
finally:
    sys.path.remove(DATA)

B, T, D, H = cases.B, cases.T, cases.D, cases.H
value = cases.value

with open(os.path.join(DATA, "rnn_cell_goldens.json")) as _f:
    GOLD = json.load(_f)


def _sig(x):
    return 1.0 / (1.0 + np.exp(-x))


# ---- NumPy references of the cell equations -------------------------------------------------
def np_basic_rnn(w, b, act=np.tanh):
    def step(x, h):
        out = act(np.concatenate([x, h], 1) @ w + b)
        return out, out
    return step


def np_basic_lstm(w, b, forget_bias=1.0, act=np.tanh):
    def step(x, state):
        c, h = state
        i, j, f, o = np.split(np.concatenate([x, h], 1) @ w + b, 4, axis=1)
        new_c = c * _sig(f + forget_bias) + _sig(i) * act(j)
        new_h = act(new_c) * _sig(o)
        return new_h, (new_c, new_h)
    return step


def np_lstm(w, b, forget_bias=1.0, peep=None, cell_clip=None, proj=None, proj_clip=None, act=np.tanh):
    def step(x, state):
        c_prev, m_prev = state
        i, j, f, o = np.split(np.concatenate([x, m_prev], 1) @ w + b, 4, axis=1)
        if peep is not None:
            wf, wi, wo = peep
            c = _sig(f + forget_bias + wf * c_prev) * c_prev + _sig(i + wi * c_prev) * act(j)
        else:
            c = _sig(f + forget_bias) * c_prev + _sig(i) * act(j)
        if cell_clip is not None:
            c = np.clip(c, -cell_clip, cell_clip)
        m = (_sig(o + peep[2] * c) if peep is not None else _sig(o)) * act(c)
        if proj is not None:
            m = m @ proj
            if proj_clip is not None:
                m = np.clip(m, -proj_clip, proj_clip)
        return m, (c, m)
    return step


def np_gru(wg, bg, wc, bc, act=np.tanh):
    def step(x, h):
        r, u = np.split(_sig(np.concatenate([x, h], 1) @ wg + bg), 2, axis=1)
        c = act(np.concatenate([x, r * h], 1) @ wc + bc)
        new_h = u * h + (1 - u) * c
        return new_h, new_h
    return step


def np_layer_norm_lstm(w, gammas, betas, forget_bias=1.0):
    def ln(v, k):
        mean = v.mean(1, keepdims=True)
        var = ((v - mean) ** 2).mean(1, keepdims=True)
        return (v - mean) / np.sqrt(var + 1e-12) * gammas[k] + betas[k]

    def step(x, state):
        c, h = state
        i, j, f, o = np.split(np.concatenate([x, h], 1) @ w, 4, axis=1)
        i, j, f, o = ln(i, "input"), ln(j, "transform"), ln(f, "forget"), ln(o, "output")
        new_c = ln(c * _sig(f + forget_bias) + _sig(i) * np.tanh(j), "state")
        new_h = np.tanh(new_c) * _sig(o)
        return new_h, (new_c, new_h)
    return step


def np_static_rnn(step, xs, state, seq_len=None):
    """Unrolls `step`; past each row's sequence end the output is zero and the state is kept."""
    outs = []
    for t, x in enumerate(xs):
        out, new_state = step(x, state)
        if seq_len is not None:
            done = (t >= np.asarray(seq_len))[:, None]
            out = np.where(done, 0.0, out)
            new_state = _map2(lambda old, new: np.where(done, old, new), state, new_state)
        outs.append(out)
        state = new_state
    return outs, state


def _map2(fn, a, b):
    if isinstance(a, tuple):
        return tuple(_map2(fn, x, y) for x, y in zip(a, b))
    return fn(a, b)


def _flat(s):
    if isinstance(s, (tuple, list)):
        return [leaf for x in s for leaf in _flat(x)]
    return [s]


def _run_static(cell_fn, names_shapes=None, seq_len=None, dtype=np.float64, xs=None, init=None, scope=None):
    """Builds `static_rnn(cell_fn(), x)` in float64, loads `value(name)` into every variable and
    returns (variable names, outputs, flat final state)."""
    xs = cases.inputs() if xs is None else xs
    g = tf.Graph()
    with g.as_default():
        x = [tf.placeholder(tf.as_dtype(dtype), list(xs[0].shape)) for _ in xs]
        sl = None if seq_len is None else tf.constant(seq_len)
        kwargs = {"initial_state": init(tf)} if init is not None else {"dtype": tf.as_dtype(dtype)}
        outs, state = tf.nn.static_rnn(cell_fn(), x, sequence_length=sl, scope=scope, **kwargs)
        variables = tf.trainable_variables()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for v in variables:
                v.load(value(v.op.name, v.shape.as_list()).astype(dtype), sess)
            o, s = sess.run([outs, tf.nest.flatten(state)], dict(zip(x, [a.astype(dtype) for a in xs])))
    return [v.op.name for v in variables], o, s


def _check(got, want, rtol=1e-10, atol=1e-12):
    got_o, got_s = got
    want_o, want_s = want
    for a, b in zip(got_o, want_o):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    assert len(got_s) == len(_flat(want_s))
    for a, b in zip(got_s, _flat(want_s)):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


# ---- against TensorFlow ---------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_tensorflow(name):
    """Variable names/shapes, outputs, final states and all gradients equal TF's (float64)."""
    got = cases.run_case(tf, name)
    want = GOLD["cases"][name]
    assert got["vars"] == want["vars"]
    for key in ("outputs", "state", "grads"):
        assert len(got[key]) == len(want[key]), key
        for a, b in zip(got[key], want[key]):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-9, atol=1e-12, err_msg=key)


# TF's variable names and shapes for the cells (D=4 inputs, H=5 units), as TF 1.15 creates them.
VARIABLE_TABLE = {
    "basic_rnn": [("rnn/basic_rnn_cell/kernel", [9, 5]), ("rnn/basic_rnn_cell/bias", [5])],
    "basic_lstm": [("rnn/basic_lstm_cell/kernel", [9, 20]), ("rnn/basic_lstm_cell/bias", [20])],
    "lstm_full": [("rnn/lstm_cell/kernel", [7, 20]), ("rnn/lstm_cell/bias", [20]), ("rnn/lstm_cell/w_f_diag", [5]),
                  ("rnn/lstm_cell/w_i_diag", [5]), ("rnn/lstm_cell/w_o_diag", [5]),
                  ("rnn/lstm_cell/projection/kernel", [5, 3])],
    "gru": [("rnn/gru_cell/gates/kernel", [9, 10]), ("rnn/gru_cell/gates/bias", [10]),
            ("rnn/gru_cell/candidate/kernel", [9, 5]), ("rnn/gru_cell/candidate/bias", [5])],
    "multi": [("rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel", [9, 20]),
              ("rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias", [20]),
              ("rnn/multi_rnn_cell/cell_1/gru_cell/gates/kernel", [8, 6]),
              ("rnn/multi_rnn_cell/cell_1/gru_cell/gates/bias", [6]),
              ("rnn/multi_rnn_cell/cell_1/gru_cell/candidate/kernel", [8, 3]),
              ("rnn/multi_rnn_cell/cell_1/gru_cell/candidate/bias", [3])],
    "bidi": [("bidirectional_rnn/fw/lstm_cell/kernel", [9, 20]), ("bidirectional_rnn/fw/lstm_cell/bias", [20]),
             ("bidirectional_rnn/bw/gru_cell/gates/kernel", [7, 6]), ("bidirectional_rnn/bw/gru_cell/gates/bias", [6]),
             ("bidirectional_rnn/bw/gru_cell/candidate/kernel", [7, 3]),
             ("bidirectional_rnn/bw/gru_cell/candidate/bias", [3])],
    "initial_state": [("my_rnn/basic_lstm_cell/kernel", [9, 20]), ("my_rnn/basic_lstm_cell/bias", [20])],
}


@pytest.mark.parametrize("name", sorted(VARIABLE_TABLE))
def test_variable_names_and_shapes_table(name):
    g = tf.Graph()
    with g.as_default():
        x = [tf.placeholder(tf.float64, [B, D]) for _ in range(T)]
        cases.CASES[name](tf, x, tf.placeholder(tf.int32, [B]))
        got = [(v.op.name, v.shape.as_list()) for v in tf.trainable_variables()]
    assert got == VARIABLE_TABLE[name]
    assert [list(p) for p in VARIABLE_TABLE[name]] == GOLD["cases"][name]["vars"]


def test_initializers_match_tensorflow():
    """GRUCell's gate bias defaults to ones, the candidate's to zeros; kernel/bias initializers and
    LSTMCell's `initializer` (kernel, peepholes, projection) are used as in TF."""
    g = tf.Graph()
    with g.as_default():
        cases.initializer_cells(tf)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            got = {v.op.name: s.run(v) for v in tf.global_variables()}
    assert sorted(got) == sorted(GOLD["init"])
    for name, want in GOLD["init"].items():
        if name == "b1/kernel":  # glorot uniform: check the shape and range only
            assert list(got[name].shape) == want
            assert np.abs(got[name]).max() <= np.sqrt(6.0 / (9 + 20))
        else:
            np.testing.assert_allclose(got[name], np.asarray(want, np.float32))


def test_zero_state_and_sizes_match_tensorflow():
    rc = tf.nn.rnn_cell
    g = tf.Graph()
    with g.as_default():
        bs, cells = cases.zero_state_cells(tf)
        got = cases.zero_states(tf, bs, cells)
        with tf.Session() as s:
            vals = s.run(tf.nest.flatten(cells[2].zero_state(bs, tf.float64)), {bs: 2})
    want = [[("Tensor" if k == "SymbolicTensor" else k), leaves] for k, leaves in GOLD["scoping"]["zero_state"]]
    assert got == want
    assert [str(c.state_size) for c in cells] + [str(c.output_size) for c in cells] == GOLD["scoping"]["sizes"]
    assert [v.shape for v in vals] == [(2, 3), (2, 2), (2, 2)] and all(not v.any() for v in vals)
    assert isinstance(cells[0].zero_state(1, tf.float32), rc.LSTMStateTuple)


def test_get_initial_state():
    g = tf.Graph()
    with g.as_default():
        cell = tf.nn.rnn_cell.BasicLSTMCell(H)
        s = cell.get_initial_state(inputs=tf.zeros([B, D], tf.float64))
        assert s.c.shape.as_list() == [B, H] and s.dtype == tf.float64
        s2 = cell.get_initial_state(batch_size=7, dtype=tf.float32)
        assert s2.h.shape.as_list() == [7, H]


def test_block_cells_match_tensorflow_kernels():
    """LSTMBlockCell / GRUBlockCell(V2) steps equal TF's LSTMBlockCell/GRUBlockCell kernels (float32)."""
    crnn = tf.contrib.rnn
    xs = [x.astype(np.float32) for x in cases.inputs()]
    for key, fn in (("lstm_block", lambda: crnn.LSTMBlockCell(H, forget_bias=0.7)),
                    ("lstm_block_peep_clip", lambda: crnn.LSTMBlockCell(H, forget_bias=0.7, use_peephole=True,
                                                                        cell_clip=0.25)),
                    ("gru_block", lambda: crnn.GRUBlockCell(H)),
                    ("gru_block_v2", lambda: crnn.GRUBlockCellV2(H))):
        names, o, s = _run_static(fn, dtype=np.float32, xs=xs)
        want = GOLD["block"][key]
        for a, b in zip(o, want["outputs"]):
            np.testing.assert_allclose(a, np.asarray(b, np.float32), rtol=2e-5, atol=2e-6)
        if "c" in want:
            np.testing.assert_allclose(s[0], np.asarray(want["c"], np.float32), rtol=2e-5, atol=2e-6)
    assert names == ["rnn/gru_cell/gates/kernel", "rnn/gru_cell/gates/bias", "rnn/gru_cell/candidate/kernel",
                     "rnn/gru_cell/candidate/bias"]


# ---- against NumPy --------------------------------------------------------------------------
def _v(name, shape):
    return value(name, shape)


def test_basic_rnn_matches_numpy():
    names, o, s = _run_static(lambda: tf.nn.rnn_cell.BasicRNNCell(H, activation="relu"))
    step = np_basic_rnn(_v(names[0], (D + H, H)), _v(names[1], (H,)), act=lambda v: np.maximum(v, 0))
    _check((o, s), np_static_rnn(step, cases.inputs(), np.zeros((B, H))))


@pytest.mark.parametrize("state_is_tuple", [True, False])
def test_basic_lstm_matches_numpy(state_is_tuple):
    names, o, s = _run_static(lambda: tf.nn.rnn_cell.BasicLSTMCell(H, forget_bias=0.3,
                                                                   state_is_tuple=state_is_tuple))
    step = np_basic_lstm(_v(names[0], (D + H, 4 * H)), _v(names[1], (4 * H,)), forget_bias=0.3)
    zero = (np.zeros((B, H)), np.zeros((B, H)))
    want_o, (c, h) = np_static_rnn(step, cases.inputs(), zero)
    _check((o, s), (want_o, (c, h) if state_is_tuple else np.concatenate([c, h], 1)))


@pytest.mark.parametrize("peep,cell_clip,num_proj,proj_clip", [
    (False, None, None, None), (True, None, None, None), (True, 0.2, None, None), (False, None, 3, None),
    (True, 0.3, 3, 0.1)])
def test_lstm_cell_matches_numpy(peep, cell_clip, num_proj, proj_clip):
    names, o, s = _run_static(lambda: tf.nn.rnn_cell.LSTMCell(H, use_peepholes=peep, cell_clip=cell_clip,
                                                              num_proj=num_proj, proj_clip=proj_clip,
                                                              forget_bias=0.6))
    p = num_proj or H
    w = _v("rnn/lstm_cell/kernel", (D + p, 4 * H))
    b = _v("rnn/lstm_cell/bias", (4 * H,))
    pe = tuple(_v("rnn/lstm_cell/" + n, (H,)) for n in ("w_f_diag", "w_i_diag", "w_o_diag")) if peep else None
    proj = _v("rnn/lstm_cell/projection/kernel", (H, p)) if num_proj else None
    step = np_lstm(w, b, 0.6, pe, cell_clip, proj, proj_clip)
    _check((o, s), np_static_rnn(step, cases.inputs(), (np.zeros((B, H)), np.zeros((B, p)))))
    if cell_clip:
        assert np.abs(s[0]).max() <= cell_clip + 1e-12
    if proj_clip:
        assert np.abs(s[1]).max() <= proj_clip + 1e-12


def test_gru_cell_matches_numpy():
    names, o, s = _run_static(lambda: tf.nn.rnn_cell.GRUCell(H, activation=tf.nn.softsign))
    w = [_v(n, sh) for n, sh in zip(names, [(D + H, 2 * H), (2 * H,), (D + H, H), (H,)])]
    step = np_gru(*w, act=lambda v: v / (1 + np.abs(v)))
    _check((o, s), np_static_rnn(step, cases.inputs(), np.zeros((B, H))))


def test_multi_rnn_cell_and_residual_match_numpy():
    rc = tf.nn.rnn_cell
    names, o, s = _run_static(lambda: rc.MultiRNNCell([rc.ResidualWrapper(rc.BasicRNNCell(D)),
                                                       rc.BasicLSTMCell(H)]), seq_len=[3, 1, 4])
    assert names == ["rnn/multi_rnn_cell/cell_0/basic_rnn_cell/kernel", "rnn/multi_rnn_cell/cell_0/basic_rnn_cell/bias",
                     "rnn/multi_rnn_cell/cell_1/basic_lstm_cell/kernel",
                     "rnn/multi_rnn_cell/cell_1/basic_lstm_cell/bias"]
    s0 = np_basic_rnn(_v(names[0], (2 * D, D)), _v(names[1], (D,)))
    s1 = np_basic_lstm(_v(names[2], (D + H, 4 * H)), _v(names[3], (4 * H,)))

    def step(x, state):
        o0, n0 = s0(x, state[0])
        o1, n1 = s1(x + o0, state[1])
        return o1, (n0, n1)

    zero = (np.zeros((B, D)), (np.zeros((B, H)), np.zeros((B, H))))
    _check((o, s), np_static_rnn(step, cases.inputs(), zero, seq_len=[3, 1, 4]))


def test_residual_fn_and_device_wrapper():
    rc = tf.nn.rnn_cell
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [B, D])
        cell = rc.DeviceWrapper(rc.ResidualWrapper(rc.BasicRNNCell(D), residual_fn=lambda i, o: 2 * i - o),
                                "/cpu:0")
        zero = cell.zero_state(B, tf.float64)
        out, new = cell(x, zero)
        assert cell.state_size == D and cell.output_size == D
        assert out.op.device.endswith("CPU:0") or "cpu" in out.op.device.lower()
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            xv = cases.inputs()[0]
            o, n = s.run([out, new], {x: xv})
    np.testing.assert_allclose(o, 2 * xv - n)


@pytest.mark.parametrize("seq_len", [[4, 2, 0], [1, 1, 1], [4, 4, 4]])
def test_static_rnn_sequence_length_semantics(seq_len):
    """Past each row's end the output is zero and the state is the state at its last step (the
    initial state for length 0); rows still running equal the unmasked RNN."""
    names, o, s = _run_static(lambda: tf.nn.rnn_cell.GRUCell(H), seq_len=seq_len)
    _, o_full, _ = _run_static(lambda: tf.nn.rnn_cell.GRUCell(H))
    for t in range(T):
        for r in range(B):
            if t >= seq_len[r]:
                assert not o[t][r].any()
            else:
                np.testing.assert_allclose(o[t][r], o_full[t][r], rtol=1e-12)
    for r in range(B):
        want = o_full[seq_len[r] - 1][r] if seq_len[r] else np.zeros(H)
        np.testing.assert_allclose(s[0][r], want, rtol=1e-12)


def test_static_rnn_unknown_batch_and_sequence_length_fed():
    g = tf.Graph()
    with g.as_default():
        x = [tf.placeholder(tf.float32, [None, D]) for _ in range(T)]
        sl = tf.placeholder(tf.int64, [None])
        cell = tf.nn.rnn_cell.BasicLSTMCell(H)
        outs, state = tf.nn.static_rnn(cell, x, dtype=tf.float32, sequence_length=sl)
        assert outs[0].shape.as_list() == [None, H] and state.c.shape.as_list() == [None, H]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            feed = {xi: np.ones((2, D), np.float32) for xi in x}
            feed[sl] = [1, 3]
            o, st = s.run([outs, state], feed)
    assert not o[1][0].any() and o[1][1].any()
    np.testing.assert_allclose(st.h[0], o[0][0])
    np.testing.assert_allclose(st.h[1], o[2][1])


def test_static_bidirectional_rnn_matches_numpy():
    rc = tf.nn.rnn_cell
    seq = [4, 2, 3]
    g = tf.Graph()
    xs = cases.inputs()
    with g.as_default():
        x = [tf.placeholder(tf.float64, [B, D]) for _ in range(T)]
        outs, fw, bw = tf.nn.static_bidirectional_rnn(rc.BasicRNNCell(H), rc.GRUCell(3), x, dtype=tf.float64,
                                                      sequence_length=seq)
        variables = tf.trainable_variables()
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for v in variables:
                v.load(value(v.op.name, v.shape.as_list()), s)
            o, f, b = s.run([outs, fw, bw], dict(zip(x, xs)))
    n = [v.op.name for v in variables]
    step_f = np_basic_rnn(_v(n[0], (D + H, H)), _v(n[1], (H,)))
    step_b = np_gru(*[_v(k, sh) for k, sh in zip(n[2:], [(D + 3, 6), (6,), (D + 3, 3), (3,)])])
    of, sf = np_static_rnn(step_f, xs, np.zeros((B, H)), seq)
    # the backward RNN reads each row reversed up to its length
    rev = [np.stack([xs[seq[r] - 1 - t][r] if t < seq[r] else xs[t][r] for r in range(B)]) for t in range(T)]
    ob, sb = np_static_rnn(step_b, rev, np.zeros((B, 3)), seq)
    ob = [np.stack([ob[seq[r] - 1 - t][r] if t < seq[r] else ob[t][r] for r in range(B)]) for t in range(T)]
    for t in range(T):
        np.testing.assert_allclose(o[t], np.concatenate([of[t], ob[t]], 1), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(f, sf, rtol=1e-10)
    np.testing.assert_allclose(b, sb, rtol=1e-10)


def test_lstm_block_cell_matches_numpy_and_lstm_cell():
    crnn = tf.contrib.rnn
    names, o, s = _run_static(lambda: crnn.LSTMBlockCell(H, use_peephole=True, cell_clip=0.4))
    assert names == ["rnn/lstm_cell/kernel", "rnn/lstm_cell/bias", "rnn/lstm_cell/w_i_diag",
                     "rnn/lstm_cell/w_f_diag", "rnn/lstm_cell/w_o_diag"]
    pe = tuple(_v("rnn/lstm_cell/" + k, (H,)) for k in ("w_f_diag", "w_i_diag", "w_o_diag"))
    step = np_lstm(_v(names[0], (D + H, 4 * H)), _v(names[1], (4 * H,)), 1.0, pe, 0.4)
    _check((o, s), np_static_rnn(step, cases.inputs(), (np.zeros((B, H)), np.zeros((B, H)))))
    # the same variables make LSTMCell compute the same values
    _, o2, s2 = _run_static(lambda: tf.nn.rnn_cell.LSTMCell(H, use_peepholes=True, cell_clip=0.4))
    _check((o, s), (o2, tuple(s2)))


def test_gru_block_cell_matches_numpy():
    crnn = tf.contrib.rnn
    names, o, s = _run_static(lambda: crnn.GRUBlockCell(num_units=H))
    assert names == ["rnn/gru_cell/w_ru", "rnn/gru_cell/b_ru", "rnn/gru_cell/w_c", "rnn/gru_cell/b_c"]
    step = np_gru(*[_v(n, sh) for n, sh in zip(names, [(D + H, 2 * H), (2 * H,), (D + H, H), (H,)])])
    _check((o, s), np_static_rnn(step, cases.inputs(), np.zeros((B, H))))
    with pytest.raises(ValueError, match="Exactly one of num_units or cell_size must be provided."):
        crnn.GRUBlockCell()


def test_layer_norm_basic_lstm_cell_matches_numpy():
    crnn = tf.contrib.rnn
    names, o, s = _run_static(lambda: crnn.LayerNormBasicLSTMCell(H, forget_bias=0.5))
    prefix = "rnn/layer_norm_basic_lstm_cell/"
    parts = ["input", "transform", "forget", "output", "state"]
    assert names == [prefix + "kernel"] + [prefix + p + "/" + k for p in parts for k in ("gamma", "beta")]
    gammas = {p: _v(prefix + p + "/gamma", (H,)) for p in parts}
    betas = {p: _v(prefix + p + "/beta", (H,)) for p in parts}
    step = np_layer_norm_lstm(_v(prefix + "kernel", (D + H, 4 * H)), gammas, betas, 0.5)
    _check((o, s), np_static_rnn(step, cases.inputs(), (np.zeros((B, H)), np.zeros((B, H)))), rtol=1e-8)
    # without layer normalization it is BasicLSTMCell with a bias
    names2, o2, s2 = _run_static(lambda: crnn.LayerNormBasicLSTMCell(H, layer_norm=False))
    assert names2 == [prefix + "kernel", prefix + "bias"]
    step = np_basic_lstm(_v(names2[0], (D + H, 4 * H)), _v(names2[1], (4 * H,)))
    _check((o2, s2), np_static_rnn(step, cases.inputs(), (np.zeros((B, H)), np.zeros((B, H)))))


def test_layer_norm_initial_gain_and_shift():
    g = tf.Graph()
    with g.as_default():
        cell = tf.contrib.rnn.LayerNormBasicLSTMCell(H, norm_gain=2.0, norm_shift=0.5)
        cell(tf.zeros([B, D]), cell.zero_state(B, tf.float32))
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            vals = {v.op.name: s.run(v) for v in tf.global_variables()}
    assert all((v == 2.0).all() for k, v in vals.items() if k.endswith("gamma"))
    assert all((v == 0.5).all() for k, v in vals.items() if k.endswith("beta"))


def test_projection_and_embedding_wrappers_match_numpy():
    crnn = tf.contrib.rnn
    names, o, s = _run_static(lambda: crnn.OutputProjectionWrapper(crnn.InputProjectionWrapper(
        crnn.BasicRNNCell(H), num_proj=3), 2))
    assert names == ["rnn/output_projection_wrapper/input_projection_wrapper/kernel",
                     "rnn/output_projection_wrapper/input_projection_wrapper/bias",
                     "rnn/output_projection_wrapper/input_projection_wrapper/basic_rnn_cell/kernel",
                     "rnn/output_projection_wrapper/input_projection_wrapper/basic_rnn_cell/bias",
                     "rnn/output_projection_wrapper/kernel", "rnn/output_projection_wrapper/bias"]
    wi, bi = _v(names[0], (D, 3)), _v(names[1], (3,))
    inner = np_basic_rnn(_v(names[2], (3 + H, H)), _v(names[3], (H,)))
    wo, bo = _v(names[4], (H, 2)), _v(names[5], (2,))

    def step(x, h):
        out, new = inner(x @ wi + bi, h)
        return out @ wo + bo, new
    _check((o, s), np_static_rnn(step, cases.inputs(), np.zeros((B, H))))

    g = tf.Graph()
    with g.as_default():
        ids = tf.constant([[1], [0], [3]])
        cell = crnn.EmbeddingWrapper(crnn.GRUCell(H), embedding_classes=4, embedding_size=D)
        out, _ = cell(ids, cell.zero_state(B, tf.float64))
        emb = [v for v in tf.global_variables() if v.op.name.endswith("embedding")][0]
        assert emb.op.name == "embedding_wrapper/embedding" and emb.shape.as_list() == [4, D]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for v in tf.global_variables():
                v.load(value(v.op.name, v.shape.as_list()), sess)
            got = sess.run(out)
    gate = "embedding_wrapper/gru_cell/"
    step = np_gru(*[_v(gate + n, sh) for n, sh in zip(["gates/kernel", "gates/bias", "candidate/kernel",
                                                         "candidate/bias"], [(D + H, 2 * H), (2 * H,), (D + H, H),
                                                                             (H,)])])
    want, _ = step(_v("embedding_wrapper/embedding", (4, D))[[1, 0, 3]], np.zeros((B, H)))
    np.testing.assert_allclose(got, want, rtol=1e-10)


def test_stack_bidirectional_rnn_names_and_values():
    crnn = tf.contrib.rnn
    seq = [4, 1, 3]
    g = tf.Graph()
    xs = cases.inputs()
    with g.as_default():
        x = [tf.placeholder(tf.float64, [B, D]) for _ in range(T)]
        outs, sf, sb = crnn.stack_bidirectional_rnn([crnn.GRUCell(3), crnn.GRUCell(2)],
                                                    [crnn.BasicRNNCell(3), crnn.BasicRNNCell(2)], x,
                                                    dtype=tf.float64, sequence_length=seq)
        names = [v.op.name for v in tf.trainable_variables()]
        # the same computation by hand, two static_bidirectional_rnn layers sharing the variables
        with tf.variable_scope("stack_bidirectional_rnn", reuse=True):
            with tf.variable_scope("cell_0") as s0:
                l0, _, _ = tf.nn.static_bidirectional_rnn(crnn.GRUCell(3), crnn.BasicRNNCell(3), x,
                                                          dtype=tf.float64, sequence_length=seq, scope=s0)
            with tf.variable_scope("cell_1") as s1:
                l1, _, _ = tf.nn.static_bidirectional_rnn(crnn.GRUCell(2), crnn.BasicRNNCell(2), l0,
                                                          dtype=tf.float64, sequence_length=seq, scope=s1)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            feed = dict(zip(x, xs))
            a, b, fs = s.run([outs, l1, sf], feed)
    assert names[0] == "stack_bidirectional_rnn/cell_0/fw/gru_cell/gates/kernel"
    assert "stack_bidirectional_rnn/cell_1/bw/basic_rnn_cell/kernel" in names and len(names) == 12
    for u, v in zip(a, b):
        np.testing.assert_allclose(u, v)
    assert len(fs) == 2 and a[0].shape == (B, 4)


def test_static_state_saving_rnn():
    class Saver:
        def __init__(self):
            self.saved = {}
            self.init = {"c": tf.constant(value("c0", (B, H))), "h": tf.constant(value("h0", (B, H)))}

        def state(self, name):
            return self.init[name]

        def save_state(self, name, val):
            self.saved[name] = val
            return tf.no_op()

    g = tf.Graph()
    with g.as_default():
        saver = Saver()
        x = [tf.constant(a) for a in cases.inputs()]
        outs, st = tf.nn.static_state_saving_rnn(tf.nn.rnn_cell.BasicLSTMCell(H), x, saver, ("c", "h"))
        assert sorted(saver.saved) == ["c", "h"]
        names = [v.op.name for v in tf.trainable_variables()]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for v in tf.trainable_variables():
                v.load(value(v.op.name, v.shape.as_list()), s)
            o, c, h = s.run([outs, st.c, st.h])
        with pytest.raises(ValueError, match="state_name should be the same type"):
            tf.nn.static_state_saving_rnn(tf.nn.rnn_cell.BasicLSTMCell(H), x, saver, "c")
    step = np_basic_lstm(_v(names[0], (D + H, 4 * H)), _v(names[1], (4 * H,)))
    _check((o, [c, h]), np_static_rnn(step, cases.inputs(), (value("c0", (B, H)), value("h0", (B, H)))))


# ---- gradients ------------------------------------------------------------------------------
GRAD_CELLS = {
    "basic_rnn": lambda rc: rc.BasicRNNCell(3),
    "basic_lstm": lambda rc: rc.BasicLSTMCell(3, state_is_tuple=False),
    "lstm_peep_proj": lambda rc: rc.LSTMCell(3, use_peepholes=True, num_proj=2, state_is_tuple=False),
    "gru": lambda rc: rc.GRUCell(3),
    "lstm_block": lambda rc: tf.contrib.rnn.LSTMBlockCell(3, use_peephole=True),
    "layer_norm_lstm": lambda rc: tf.contrib.rnn.LayerNormBasicLSTMCell(3),
}


@pytest.mark.parametrize("name", sorted(GRAD_CELLS))
def test_gradients_numerically(name):
    """d(output, state)/d(inputs, state, variables) of two steps agree with central differences."""
    rc = tf.nn.rnn_cell
    g = tf.Graph()
    with g.as_default():
        cell = GRAD_CELLS[name](rc)
        x = tf.placeholder(tf.float64, [2, 2])
        flat_sizes = [int(s) for s in tf.nest.flatten(cell.state_size)]
        s0 = [tf.placeholder(tf.float64, [2, n]) for n in flat_sizes]
        state = tf.nest.pack_sequence_as(cell.state_size, s0)
        out, state = cell(x, state)
        out, state = cell(out[:, :2] * 0.5 + x, state)
        y = tf.concat([out] + tf.nest.flatten(state), 1)
        variables = tf.trainable_variables()
        rng = np.random.RandomState(0)
        feed = {x: rng.uniform(-1, 1, (2, 2))}
        feed.update({p: rng.uniform(-1, 1, (2, n)) for p, n in zip(s0, flat_sizes)})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for v in variables:
                v.load(rng.uniform(-0.8, 0.8, v.shape.as_list()), sess)
            y_shape = y.shape.as_list()
            for t in [x] + s0:
                err = tf.test.compute_gradient_error(t, t.shape.as_list(), y, y_shape, x_init_value=feed[t],
                                                     delta=1e-6, extra_feed_dict={k: v for k, v in feed.items()
                                                                                  if k is not t})
                assert err < 1e-6, (name, t)
            for v in variables:
                err = tf.test.compute_gradient_error(v, v.shape.as_list(), y, y_shape, delta=1e-6,
                                                     x_init_value=sess.run(v), extra_feed_dict=feed)
                assert err < 1e-6, (name, v.op.name)


# ---- scoping, reuse and errors --------------------------------------------------------------
def test_scoping_matches_tensorflow():
    gold = GOLD["scoping"]
    for key, names in cases.scoping_names(tf).items():
        assert names == gold[key], key


def _error_of(fn):
    g = tf.Graph()
    with g.as_default():
        with pytest.raises(Exception) as info:
            fn()
    return type(info.value).__name__, str(info.value).split("\n")[0]


def test_errors_match_tensorflow():
    """Same class and message as TF (TF 1.15's wording where TF 2.21 reworded it)."""
    gold = GOLD["errors"]
    calls = cases.error_calls(tf)
    for key in ("twice", "reuse_missing", "variational_no_dtype", "variational_no_input_size", "multi_empty",
                "residual_mismatch", "initial_state_batch", "initial_state_none"):
        assert list(_error_of(calls[key])) == gold[key], key
    cls, msg = _error_of(calls["not_a_cell"])
    assert cls == gold["not_a_cell"][0] and msg.split(") is not")[1] == gold["not_a_cell"][1].split(") is not")[1]
    # TF 1.15's wording of the messages TF 2.21 rephrased
    tf115 = {
        "rank3": "Input 0 of layer basic_lstm_cell is incompatible with the layer: expected ndim=2, found ndim=3. "
                 "Full shape received: [3, 2, 4]",
        "unknown_depth": "Expected inputs.shape[-1] to be known, saw shape: (3, None)",
        "int_inputs": "RNN cell only supports floating point inputs, but saw dtype: <dtype: 'int32'>",
        "int_dtype": "RNN cell only supports floating point inputs, but saw dtype: <dtype: 'int32'>",
        "bad_keep": "Parameter input_keep_prob must be between 0 and 1: 2",
        "multi_tuple_flag": "Some cells return tuples of states, but the flag state_is_tuple is not set.  State "
                            "sizes are: [LSTMStateTuple(c=5, h=5)]",
        "not_a_sequence": "inputs must be a sequence",
        "empty_inputs": "inputs must not be empty",
        "no_dtype": "If no initial_state is provided, dtype must be specified",
        "unknown_input_size": "Input size (dimension 0 of inputs) must be accessible via shape inference, but saw "
                              "value None.",
    }
    for key, msg in tf115.items():
        assert _error_of(calls[key]) == (gold[key][0], msg), key


def test_num_shards_not_supported():
    with pytest.raises(NotImplementedError, match="num_unit_shards"):
        tf.nn.rnn_cell.LSTMCell(H, num_unit_shards=2)
    tf.nn.rnn_cell.LSTMCell(H, num_unit_shards=1, num_proj_shards=1)


def test_user_defined_cell_with_get_variable():
    """A plain RNNCell subclass whose `call` uses tf.get_variable gets its variables in the cell's
    scope on the first call, reused afterwards, and tracked in `trainable_weights`."""

    class MyCell(tf.nn.rnn_cell.RNNCell):
        state_size = 2
        output_size = 2

        def call(self, inputs, state):
            w = tf.get_variable("w", [inputs.shape[1].value + 2, 2], dtype=inputs.dtype)
            out = tf.tanh(tf.matmul(tf.concat([inputs, state], 1), w))
            return out, out

    g = tf.Graph()
    with g.as_default():
        cell = MyCell()
        outs, _ = tf.nn.static_rnn(cell, [tf.ones([1, 3])] * 3, dtype=tf.float32)
        assert [v.op.name for v in tf.global_variables()] == ["rnn/my_cell/w"]
        assert [v.op.name for v in cell.trainable_weights] == ["rnn/my_cell/w"]


# ---- DropoutWrapper ---------------------------------------------------------------------------
def _dropout_run(wrapper_kwargs, n_steps=3, cell_fn=None, seed=5):
    rc = tf.nn.rnn_cell
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(seed)
        x = [tf.constant(np.full((B, D), 1.0 + t)) for t in range(n_steps)]
        inner = (cell_fn or (lambda: rc.BasicLSTMCell(H)))()
        cell = rc.DropoutWrapper(inner, **wrapper_kwargs)
        outs, st = tf.nn.static_rnn(cell, x, dtype=tf.float64)
        ref, _ = tf.nn.static_rnn(inner, x, dtype=tf.float64, scope="rnn")
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            return s.run([outs, st, ref])


def test_dropout_wrapper_keep_prob_one_is_identity():
    outs, _, ref = _dropout_run({})
    for a, b in zip(outs, ref):
        np.testing.assert_array_equal(a, b)


def test_dropout_wrapper_output_dropout_scales_and_zeroes():
    outs, _, ref = _dropout_run({"output_keep_prob": 0.5, "seed": 3})
    for a, b in zip(outs, ref):
        kept = a != 0
        np.testing.assert_allclose(a[kept], 2 * b[kept], rtol=1e-12)
        assert 0 < kept.sum() < kept.size
    again, _, _ = _dropout_run({"output_keep_prob": 0.5, "seed": 3})
    for a, b in zip(outs, again):
        np.testing.assert_array_equal(a, b)


def _state_dropout_step(graph_seed, make_inner, seed):
    """One step of DropoutWrapper(make_inner(), state_keep_prob=0.5) and of the inner cell from the zero state:
    (the wrapper's new state, the inner cell's)."""
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(graph_seed)
        inner = make_inner()
        cell = tf.nn.rnn_cell.DropoutWrapper(inner, state_keep_prob=0.5, seed=seed)
        x = tf.constant(np.ones((B, D)))
        zero = cell.zero_state(B, tf.float64)
        _, new = cell(x, zero)
        _, ref = inner(x, zero)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            return s.run([new, ref])


def test_dropout_wrapper_state_dropout_keeps_lstm_memory():
    new, ref = _state_dropout_step(1, lambda: tf.nn.rnn_cell.BasicLSTMCell(H), 2)
    np.testing.assert_array_equal(new.c, ref.c)
    kept = new.h != 0
    np.testing.assert_allclose(new.h[kept], 2 * ref.h[kept])
    assert 0 < kept.sum() < kept.size


def test_dropout_wrapper_variational_uses_one_mask_for_all_steps():
    rc = tf.nn.rnn_cell
    outs, _, ref = _dropout_run({"output_keep_prob": 0.4, "input_keep_prob": 0.7, "variational_recurrent": True,
                                 "input_size": D, "dtype": tf.float64, "seed": 9},
                                cell_fn=lambda: rc.BasicRNNCell(H, activation=lambda v: v * 0 + 1.0), n_steps=4)
    masks = [a != 0 for a in outs]
    for m in masks[1:]:
        np.testing.assert_array_equal(m, masks[0])
    assert 0 < masks[0].sum() < masks[0].size
    np.testing.assert_allclose(outs[0][masks[0]], 1 / 0.4)


def test_dropout_wrapper_filter_visitor_and_errors():
    rc = tf.nn.rnn_cell
    with pytest.raises(TypeError, match="dropout_state_filter_visitor must be callable"):
        rc.DropoutWrapper(rc.GRUCell(H), dropout_state_filter_visitor=3)
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        inner = rc.BasicLSTMCell(H)
        cell = rc.DropoutWrapper(inner, state_keep_prob=0.5, seed=1,
                                 dropout_state_filter_visitor=lambda s: rc.LSTMStateTuple(True, False)
                                 if isinstance(s, rc.LSTMStateTuple) else True)
        x = tf.constant(np.ones((B, D)))
        zero = cell.zero_state(B, tf.float64)
        _, new = cell(x, zero)
        _, ref = inner(x, zero)
        keep = tf.placeholder(tf.float64, [])
        cell2 = rc.DropoutWrapper(rc.GRUCell(H), output_keep_prob=keep)
        out2, _ = cell2(x, cell2.zero_state(B, tf.float64))
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            new, ref = s.run([new, ref])
            o2 = s.run(out2, {keep: 1.0})
    np.testing.assert_array_equal(new.h, ref.h)
    assert (new.c == 0).any()
    assert o2.shape == (B, H)


def test_contrib_rnn_aliases_are_the_core_classes():
    crnn, rc = tf.contrib.rnn, tf.nn.rnn_cell
    for n in ("BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell", "LSTMCell",
              "LSTMStateTuple", "MultiRNNCell", "RNNCell", "ResidualWrapper"):
        assert getattr(crnn, n) is getattr(rc, n)
    assert crnn.static_rnn is tf.nn.static_rnn and crnn.static_bidirectional_rnn is tf.nn.static_bidirectional_rnn
    assert issubclass(crnn.LSTMBlockCell, crnn.LayerRNNCell)


def test_attention_cell_wrapper_matches_numpy():
    crnn = tf.contrib.rnn
    L, V = 3, 4
    names, o, s = _run_static(lambda: crnn.AttentionCellWrapper(crnn.BasicRNNCell(H), attn_length=L,
                                                                attn_vec_size=V), seq_len=[4, 3, 1],
                              dtype=np.float32)  # its attention variables are float32, as in TF
    p = "rnn/attention_cell_wrapper/"
    assert names == [p + "kernel", p + "bias", p + "basic_rnn_cell/kernel", p + "basic_rnn_cell/bias",
                     p + "attention/attn_w", p + "attention/attn_v", p + "attention/kernel", p + "attention/bias",
                     p + "attn_output_projection/kernel", p + "attn_output_projection/bias"]
    w1, b1 = _v(names[0], (D + H, D)), _v(names[1], (D,))
    cell = np_basic_rnn(_v(names[2], (D + H, H)), _v(names[3], (H,)))
    attn_w, attn_v = _v(names[4], (1, 1, H, V))[0, 0], _v(names[5], (V,))
    w3, b3 = _v(names[6], (H, V)), _v(names[7], (V,))
    w2, b2 = _v(names[8], (2 * H, H)), _v(names[9], (H,))

    def step(x, state):
        cs, attns, attn_states = state
        hidden = attn_states.reshape(B, L, H)
        cell_out, new_cs = cell(np.concatenate([x, attns], 1) @ w1 + b1, cs)
        y = new_cs @ w3 + b3
        score = (attn_v * np.tanh(hidden @ attn_w + y[:, None, :])).sum(2)
        a = np.exp(score - score.max(1, keepdims=True))
        a /= a.sum(1, keepdims=True)
        d = (a[:, :, None] * hidden).sum(1)
        out = np.concatenate([cell_out, d], 1) @ w2 + b2
        new_states = np.concatenate([hidden[:, 1:], out[:, None, :]], 1).reshape(B, L * H)
        return out, (new_cs, d, new_states)

    zero = (np.zeros((B, H)), np.zeros((B, H)), np.zeros((B, L * H)))
    xs = [x.astype(np.float32).astype(np.float64) for x in cases.inputs()]
    _check((o, s), np_static_rnn(step, xs, zero, seq_len=[4, 3, 1]), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="attn_length should be greater than zero, got 0"):
        crnn.AttentionCellWrapper(crnn.BasicRNNCell(H), attn_length=0)
    with pytest.raises(ValueError, match="Cell returns tuple of states, but the flag state_is_tuple is not set"):
        crnn.AttentionCellWrapper(crnn.BasicLSTMCell(H), attn_length=2, state_is_tuple=False)


def test_transpose_batch_time_and_best_effort_batch_size():
    crnn = tf.contrib.rnn
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3, 2])
        t = crnn.transpose_batch_time(x)
        assert t.shape.as_list() == [3, None, 2]
        v = tf.constant([1.0, 2.0])
        assert crnn.transpose_batch_time(v) is v
        assert crnn.best_effort_input_batch_size([tf.placeholder(tf.float32), x]) == 3
        p2 = tf.placeholder(tf.float32, [2, None, 4])
        dyn = crnn.best_effort_input_batch_size([p2])
        with tf.Session() as s:
            xv = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
            np.testing.assert_array_equal(s.run(t, {x: xv}), xv.transpose(1, 0, 2))
            assert s.run(dyn, {p2: np.zeros((2, 5, 4))}) == 5
        with pytest.raises(ValueError, match="to have rank at least 2"):
            crnn.best_effort_input_batch_size([v])


def test_cells_run_eagerly():
    import subprocess
    code = ("import numpy as np\nimport tensorweave.compat.v1 as tf\ntf.enable_eager_execution()\n"
            "cell = tf.nn.rnn_cell.BasicLSTMCell(3)\nx = tf.constant(np.ones((2, 4), np.float32))\n"
            "o, s = cell(x, cell.zero_state(2, tf.float32))\no, s = cell(x, s)\n"
            "outs, st = tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(3), [x, x], dtype=tf.float32, sequence_length=[1, 2])\n"
            "last = outs[1].numpy()\n"
            "print(len(cell.weights), o.shape, np.abs(last[0]).max(), np.abs(last[1]).max() > 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=os.path.dirname(os.path.dirname(DATA)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2", "(2,", "3)", "0.0", "True"]


@pytest.mark.parametrize("key,peep,clip,seq", [("fused", False, None, None), ("fused_seq_peep", True, 0.3, [4, 2, 0])])
def test_lstm_block_fused_cell_matches_tensorflow(key, peep, clip, seq):
    """LSTMBlockFusedCell equals TF's BlockLSTM kernel plus TF 1.15's masking and final-state gathering;
    its gradients equal those of the same LSTM unrolled with LSTMBlockCell."""
    crnn = tf.contrib.rnn
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(np.stack(cases.inputs()).astype(np.float32))
        init = (tf.constant(value("c0", (B, H)), tf.float32), tf.constant(value("h0", (B, H)), tf.float32))
        cell = crnn.LSTMBlockFusedCell(H, forget_bias=0.6, cell_clip=clip, use_peephole=peep)
        outs, st = cell(x, initial_state=init, sequence_length=seq)
        names = [v.op.name for v in tf.trainable_variables()]
        assert names == ["lstm_fused_cell/kernel", "lstm_fused_cell/bias"] + (
            ["lstm_fused_cell/w_i_diag", "lstm_fused_cell/w_f_diag", "lstm_fused_cell/w_o_diag"] if peep else [])
        assert outs.shape.as_list() == [T, B, H] and isinstance(st, tf.nn.rnn_cell.LSTMStateTuple)
        # the same weights through the per-step cell
        step = crnn.LSTMBlockCell(H, forget_bias=0.6, cell_clip=clip, use_peephole=peep, name="lstm_fused_cell",
                                  reuse=True)
        with tf.variable_scope(tf.get_variable_scope(), reuse=True) as root:
            ref, ref_st = tf.nn.static_rnn(step, tf.unstack(x), initial_state=tf.nn.rnn_cell.LSTMStateTuple(*init),
                                           sequence_length=seq, scope=root)
        loss = tf.reduce_sum(outs * 0.3) + tf.reduce_sum(st.c * st.h)
        ref_loss = tf.reduce_sum(tf.stack(ref) * 0.3) + tf.reduce_sum(ref_st.c * ref_st.h)
        variables = tf.trainable_variables()
        grads = tf.gradients(loss, [x] + variables)
        ref_grads = tf.gradients(ref_loss, [x] + variables)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for v in variables:
                v.load(value(v.op.name, v.shape.as_list()).astype(np.float32), s)
            o, c, h, r, gr, rgr = s.run([outs, st.c, st.h, ref, grads, ref_grads])
    want = GOLD["fused"][key]
    np.testing.assert_allclose(o, np.asarray(want["outputs"], np.float32), rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(c, np.asarray(want["c"], np.float32), rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(h, np.asarray(want["h"], np.float32), rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(o, np.stack(r), rtol=2e-5, atol=2e-6)
    for a, b in zip(gr, rgr):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_lstm_block_fused_cell_list_inputs_and_errors():
    crnn = tf.contrib.rnn
    g = tf.Graph()
    with g.as_default():
        cell = crnn.LSTMBlockFusedCell(3)
        outs, st = cell([tf.ones([2, 4])] * 5, dtype=tf.float32)
        assert isinstance(outs, list) and len(outs) == 5 and outs[0].shape.as_list() == [2, 3]
        with pytest.raises(ValueError, match="Either initial_state or dtype needs to be specified"):
            crnn.LSTMBlockFusedCell(3, name="other")(tf.ones([5, 2, 4]))
        with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
            crnn.LSTMBlockFusedCell(3, name="x")(tf.ones([2, 4]), dtype=tf.float32)


def test_dropout_wrapper_state_dropout_on_nested_states():
    """The default filter keeps every LSTM memory of a MultiRNNCell state and drops the rest."""
    rc = tf.nn.rnn_cell
    new, ref = _state_dropout_step(
        4, lambda: rc.MultiRNNCell([rc.BasicLSTMCell(H), rc.GRUCell(H), rc.BasicLSTMCell(H)]), 3)
    np.testing.assert_array_equal(new[0].c, ref[0].c)
    np.testing.assert_array_equal(new[2].c, ref[2].c)
    for a, b in ((new[0].h, ref[0].h), (new[1], ref[1]), (new[2].h, ref[2].h)):
        kept = a != 0
        np.testing.assert_allclose(a[kept], 2 * b[kept])
        assert 0 < kept.sum() < kept.size


def test_explicit_build_before_call():
    g = tf.Graph()
    with g.as_default():
        cell = tf.nn.rnn_cell.LSTMCell(H, num_proj=2)
        cell.build([None, D])
        assert [v.shape.as_list() for v in cell.weights] == [[D + 2, 4 * H], [4 * H], [H, 2]]
        assert [v.op.name for v in cell.weights] == ["lstm_cell/kernel", "lstm_cell/bias",
                                                     "lstm_cell/projection/kernel"]
        gru = tf.nn.rnn_cell.GRUCell(H)
        gru.build(tf.TensorShape([None, D]))
        assert len(gru.weights) == 4
        with tf.variable_scope("x"):
            tf.nn.static_rnn(cell, [tf.zeros([2, D])], dtype=tf.float32)
        # as TF: the call reuses the variables the explicit build made
        assert [v.op.name for v in tf.global_variables()] == [
            "lstm_cell/kernel", "lstm_cell/bias", "lstm_cell/projection/kernel", "gru_cell/gates/kernel",
            "gru_cell/gates/bias", "gru_cell/candidate/kernel", "gru_cell/candidate/bias"]


def _ptb_model(is_training, cell_kind, batch=4, steps=5, size=8, vocab=20):
    """The shape of TF's PTB tutorial model (ptb_word_lm.py): a manual unroll with
    `reuse_variables()`, cells made with `reuse=not is_training`, output dropout in training."""
    crnn = tf.contrib.rnn

    def lstm_cell():
        if cell_kind == "block":
            return crnn.LSTMBlockCell(size, forget_bias=0.0)
        return crnn.BasicLSTMCell(size, forget_bias=0.0, state_is_tuple=True, reuse=not is_training)

    def cell_fn():
        return crnn.DropoutWrapper(lstm_cell(), output_keep_prob=0.5) if is_training else lstm_cell()

    x = tf.placeholder(tf.int32, [batch, steps])
    y = tf.placeholder(tf.int32, [batch, steps])
    cell = crnn.MultiRNNCell([cell_fn() for _ in range(2)], state_is_tuple=True)
    initial_state = cell.zero_state(batch, tf.float32)
    inputs = tf.nn.embedding_lookup(tf.get_variable("embedding", [vocab, size]), x)
    outputs, state = [], initial_state
    with tf.variable_scope("RNN"):
        for t in range(steps):
            if t > 0:
                tf.get_variable_scope().reuse_variables()
            out, state = cell(inputs[:, t, :], state)
            outputs.append(out)
    logits = tf.matmul(tf.reshape(tf.stack(outputs, 1), [-1, size]), tf.get_variable("softmax_w", [size, vocab]))
    cost = tf.reduce_sum(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.reshape(y, [-1]),
                                                                        logits=logits)) / batch
    train = tf.train.GradientDescentOptimizer(1.0).minimize(cost) if is_training else None
    return x, y, initial_state, state, cost, train


@pytest.mark.parametrize("cell_kind,cell_name", [("basic", "basic_lstm_cell"), ("block", "lstm_cell")])
def test_ptb_style_model_trains_and_shares_variables(cell_kind, cell_name):
    g = tf.Graph()
    with g.as_default():
        init = tf.random_uniform_initializer(-0.1, 0.1, seed=1)
        with tf.variable_scope("Model", reuse=None, initializer=init):
            x, y, s0, s1, cost, train = _ptb_model(True, cell_kind)
        with tf.variable_scope("Model", reuse=True, initializer=init):
            vx, vy, _, _, vcost, _ = _ptb_model(False, cell_kind)
        names = [v.op.name for v in tf.trainable_variables()]
        assert names == ["Model/embedding"] + ["Model/RNN/multi_rnn_cell/cell_%d/%s/%s" % (i, cell_name, k)
                                               for i in range(2) for k in ("kernel", "bias")] + ["Model/softmax_w"]
        data = np.random.RandomState(0).randint(0, 20, (4, 6))
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            state = s.run(s0)
            costs = []
            for _ in range(25):
                feed = {x: data[:, :5], y: data[:, 1:]}
                for (c, h), st in zip(s0, state):
                    feed[c], feed[h] = st.c, st.h
                c, state, _ = s.run([cost, s1, train], feed)
                costs.append(c)
            vc = s.run(vcost, {vx: data[:, :5], vy: data[:, 1:]})
    assert costs[-1] < costs[0] - 0.3 and vc < costs[0]


def test_layer_norm_lstm_recurrent_dropout():
    """`dropout_keep_prob` drops the candidate `g` only: with keep probability 1 (a tensor) the cell
    equals the one without dropout; with 0.5 the new memory differs."""
    crnn = tf.contrib.rnn
    g = tf.Graph()
    with g.as_default():
        keep = tf.placeholder(tf.float64, [])
        x = tf.constant(cases.inputs()[0])
        cell = crnn.LayerNormBasicLSTMCell(H, dropout_keep_prob=keep, dropout_prob_seed=2)
        ref_cell = crnn.LayerNormBasicLSTMCell(H)
        zero = cell.zero_state(B, tf.float64)
        with tf.variable_scope("a"):
            _, new = cell(x, zero)
        with tf.variable_scope("a", reuse=True):
            _, ref = ref_cell(x, zero)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            a, b = s.run([new.c, ref.c], {keep: 1.0})
            c = s.run(new.c, {keep: 0.5})
    np.testing.assert_allclose(a, b, rtol=1e-12)
    assert np.abs(c - b).max() > 1e-3


def test_old_style_cell_overriding_call_dunder():
    """TF 1.0-style cells override `__call__(inputs, state, scope)` and skip the base constructor."""

    class OldCell(tf.nn.rnn_cell.RNNCell):
        def __init__(self, n):
            self._n = n

        @property
        def state_size(self):
            return self._n

        @property
        def output_size(self):
            return self._n

        def __call__(self, inputs, state, scope=None):
            with tf.variable_scope(scope or "old_cell"):
                w = tf.get_variable("w", [inputs.shape[1].value + self._n, self._n], dtype=inputs.dtype)
                out = tf.tanh(tf.matmul(tf.concat([inputs, state], 1), w))
            return out, out

    g = tf.Graph()
    with g.as_default():
        with tf.variable_scope("m"):
            outs, st = tf.nn.static_rnn(OldCell(3), [tf.constant(x) for x in cases.inputs()], dtype=tf.float64)
        assert [v.op.name for v in tf.global_variables()] == ["m/rnn/old_cell/w"]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            w = s.run(tf.global_variables()[0])
            got = s.run(outs)
    h = np.zeros((B, 3))
    for t, x in enumerate(cases.inputs()):
        h = np.tanh(np.concatenate([x, h], 1) @ w)
        np.testing.assert_allclose(got[t], h, rtol=1e-12)
