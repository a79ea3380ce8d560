"""The more specialised `tf.contrib.rnn` cells of TF 1.15 (tensorweave/contrib/rnn_cells_extra.py):
TF's variable names and shapes, and values equal to NumPy implementations of the cells' equations
(TF 2 no longer ships them, so there is no TF golden), plus float64 numerical gradient checks."""

import numpy as np
import pytest

import tensorweave as tf

from .test_rnn_cell import B, D, H, _check, _run_static, _sig, _v, cases, np_static_rnn

crnn = tf.contrib.rnn


def _relu(x):
    return np.maximum(x, 0)


def _ln(v, gamma, beta):
    mean = v.mean(1, keepdims=True)
    var = ((v - mean) ** 2).mean(1, keepdims=True)
    return (v - mean) / np.sqrt(var + 1e-12) * gamma + beta


def _zeros(*sizes):
    return tuple(np.zeros((B, n)) for n in sizes)


def test_nas_cell():
    names, o, s = _run_static(lambda: crnn.NASCell(H, num_proj=3, use_bias=True))
    p = "rnn/nas_cell/"
    assert names == [p + "recurrent_kernel", p + "kernel", p + "bias", p + "projection_weights"]
    rk, k, b, pw = _v(names[0], (3, 8 * H)), _v(names[1], (D, 8 * H)), _v(names[2], (8 * H,)), _v(names[3], (H, 3))

    def step(x, state):
        c, m = state
        mm = np.split(m @ rk + b, 8, axis=1)
        xx = np.split(x @ k, 8, axis=1)
        l1 = [_sig(xx[0] + mm[0]), _relu(xx[1] + mm[1]), _sig(xx[2] + mm[2]), _relu(xx[3] * mm[3]),
              np.tanh(xx[4] + mm[4]), _sig(xx[5] + mm[5]), np.tanh(xx[6] + mm[6]), _sig(xx[7] + mm[7])]
        l2_0 = np.tanh(np.tanh(l1[0] * l1[1]) + c)
        l2_1 = np.tanh(l1[2] + l1[3])
        l2_2, l2_3 = np.tanh(l1[4] * l1[5]), _sig(l1[6] + l1[7])
        new_c = l2_0 * l2_1
        new_m = np.tanh(new_c * np.tanh(l2_2 + l2_3)) @ pw
        return new_m, (new_c, new_m)
    _check((o, s), np_static_rnn(step, cases.inputs(), _zeros(H, 3)))


def test_ugrnn_and_intersection_rnn_cells():
    names, o, s = _run_static(lambda: crnn.UGRNNCell(H, forget_bias=0.5))
    assert names == ["rnn/ugrnn_cell/kernel", "rnn/ugrnn_cell/bias"]
    w, b = _v(names[0], (D + H, 2 * H)), _v(names[1], (2 * H,))

    def ugrnn(x, h):
        g, c = np.split(np.concatenate([x, h], 1) @ w + b, 2, axis=1)
        g = _sig(g + 0.5)
        new = g * h + (1 - g) * np.tanh(c)
        return new, new
    _check((o, s), np_static_rnn(ugrnn, cases.inputs(), np.zeros((B, H))))

    names, o, s = _run_static(lambda: crnn.IntersectionRNNCell(H, num_in_proj=H))
    p = "rnn/intersection_rnn_cell/"
    assert names == [p + "in_projection/kernel", p + "in_projection/bias", p + "kernel", p + "bias"]
    wi, bi = _v(names[0], (D, H)), _v(names[1], (H,))
    w2, b2 = _v(names[2], (2 * H, 4 * H)), _v(names[3], (4 * H,))

    def plus_rnn(x, h):
        x = x @ wi + bi
        gh, hh, gy, y = np.split(np.concatenate([x, h], 1) @ w2 + b2, 4, axis=1)
        gh, gy = _sig(gh + 1.0), _sig(gy + 1.0)
        return gy * x + (1 - gy) * _relu(y), gh * h + (1 - gh) * np.tanh(hh)
    _check((o, s), np_static_rnn(plus_rnn, cases.inputs(), np.zeros((B, H))))
    g = tf.Graph()
    with g.as_default(), pytest.raises(ValueError, match="Must have input size == output size"):
        tf.nn.static_rnn(crnn.IntersectionRNNCell(H), [tf.zeros([B, D])], dtype=tf.float32)


def test_sru_and_ind_rnn_cells():
    names, o, s = _run_static(lambda: crnn.SRUCell(H))
    assert names == ["rnn/sru_cell/kernel", "rnn/sru_cell/bias"]
    k, b = _v(names[0], (D, 4 * H)), _v(names[1], (2 * H,))

    def sru(x, c):
        x_bar, f, r, x_tx = np.split(x @ k, 4, axis=1)
        f, r = np.split(_sig(np.concatenate([f, r], 1) + b), 2, axis=1)
        c = f * c + (1 - f) * x_bar
        return r * np.tanh(c) + (1 - r) * x_tx, c
    _check((o, s), np_static_rnn(sru, cases.inputs(), np.zeros((B, H))))

    names, o, s = _run_static(lambda: crnn.IndRNNCell(H, activation=tf.nn.relu))
    assert names == ["rnn/ind_rnn_cell/kernel_w", "rnn/ind_rnn_cell/kernel_u", "rnn/ind_rnn_cell/bias"]
    kw, ku, b = _v(names[0], (D, H)), _v(names[1], (1, H)), _v(names[2], (H,))

    def ind(x, h):
        out = _relu(x @ kw + h * ku + b)
        return out, out
    _check((o, s), np_static_rnn(ind, cases.inputs(), np.zeros((B, H))))


def test_indy_gru_and_lstm_cells():
    names, o, s = _run_static(lambda: crnn.IndyGRUCell(H))
    p = "rnn/indy_gru_cell/"
    assert names == [p + "gates/kernel_w", p + "gates/kernel_u", p + "gates/bias", p + "candidate/kernel",
                     p + "candidate/kernel_u", p + "candidate/bias"]
    gw, gu, gb = _v(names[0], (D, 2 * H)), _v(names[1], (1, 2 * H)), _v(names[2], (2 * H,))
    cw, cu, cb = _v(names[3], (D, H)), _v(names[4], (1, H)), _v(names[5], (H,))

    def gru(x, h):
        r, u = np.split(_sig(x @ gw + np.tile(h, (1, 2)) * gu + gb), 2, axis=1)
        c = np.tanh(x @ cw + r * h * cu + cb)
        new = u * h + (1 - u) * c
        return new, new
    _check((o, s), np_static_rnn(gru, cases.inputs(), np.zeros((B, H))))

    names, o, s = _run_static(lambda: crnn.IndyLSTMCell(H, forget_bias=0.4))
    assert names == ["rnn/indy_lstm_cell/kernel_w", "rnn/indy_lstm_cell/kernel_u", "rnn/indy_lstm_cell/bias"]
    kw, ku, b = _v(names[0], (D, 4 * H)), _v(names[1], (1, 4 * H)), _v(names[2], (4 * H,))

    def lstm(x, state):
        c, h = state
        i, j, f, o_ = np.split(x @ kw + np.tile(h, (1, 4)) * ku + b, 4, axis=1)
        c = c * _sig(f + 0.4) + _sig(i) * np.tanh(j)
        h = np.tanh(c) * _sig(o_)
        return h, (c, h)
    _check((o, s), np_static_rnn(lstm, cases.inputs(), _zeros(H, H)))


def test_recurrent_vectors_initialized_uniform():
    g = tf.Graph()
    with g.as_default():
        for cell in (crnn.IndRNNCell(50), crnn.IndyLSTMCell(50), crnn.IndyGRUCell(50)):
            cell(tf.zeros([1, 2]), cell.zero_state(1, tf.float32))
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            vals = {v.op.name: s.run(v) for v in tf.global_variables()}
    for name, val in vals.items():
        if "kernel_u" in name:
            assert np.abs(val).max() <= 1 and np.abs(val).max() > 0.5
        if name == "indy_gru_cell/gates/bias":
            assert (val == 1).all()


def _np_conv_same(x, k):
    """SAME, stride-1 convolution (cross-correlation) of `x` `[B, *spatial, Cin]` with `k` `[*ks, Cin, Cout]`."""
    nd = x.ndim - 2
    ks = k.shape[:nd]
    pads = [((s - 1) // 2, s - 1 - (s - 1) // 2) for s in ks]
    xp = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    out = np.zeros(x.shape[:-1] + (k.shape[-1],))
    for idx in np.ndindex(*ks):
        sl = tuple(slice(i, i + n) for i, n in zip(idx, x.shape[1:-1]))
        out += np.tensordot(xp[(slice(None),) + sl], k[idx], axes=([-1], [0]))
    return out


@pytest.mark.parametrize("ndims,skip", [(2, False), (1, True)])
def test_conv_lstm_cell(ndims, skip):
    spatial = [4, 3][:ndims] if ndims == 2 else [5]
    cin, cout = 2, 3
    xs = [value_x.reshape([B] + spatial + [cin]) for value_x in
          [cases.value("cx%d" % t, (B, int(np.prod(spatial)) * cin)) for t in range(1 if skip else 3)]]
    # (as in TF, with skip_connection the new state has more channels than the zero state, so such a
    # cell runs a single step)
    cls = crnn.Conv2DLSTMCell if ndims == 2 else crnn.Conv1DLSTMCell
    kshape = [3, 2][:ndims]
    names, o, s = _run_static(lambda: cls(input_shape=spatial + [cin], output_channels=cout, kernel_shape=kshape,
                                          skip_connection=skip, forget_bias=0.5), xs=xs)
    p = "rnn/conv_%dd_lstm_cell/" % ndims
    assert names == [p + "kernel", p + "biases"]
    k, b = _v(names[0], tuple(kshape) + (cin + cout, 4 * cout)), _v(names[1], (4 * cout,))

    def step(x, state):
        c, h = state
        gates = _np_conv_same(np.concatenate([x, h], -1), k) + b
        i, j, f, o_ = np.split(gates, 4, axis=-1)
        c = _sig(f + 0.5) * c + _sig(i) * np.tanh(j)
        out = np.tanh(c) * _sig(o_)
        if skip:
            out = np.concatenate([out, x], -1)
        return out, (c, out)
    zero = (np.zeros([B] + spatial + [cout]), np.zeros([B] + spatial + [cout]))
    _check((o, s), np_static_rnn(step, xs, zero))
    cell = cls(input_shape=spatial + [cin], output_channels=cout, kernel_shape=kshape, skip_connection=skip)
    assert cell.output_size.as_list() == spatial + [cout + (cin if skip else 0)]
    with pytest.raises(ValueError, match="Invalid input_shape"):
        crnn.ConvLSTMCell(conv_ndims=3, input_shape=[4, 2], output_channels=1, kernel_shape=[1])


def test_coupled_input_forget_gate_lstm_cell():
    names, o, s = _run_static(lambda: crnn.CoupledInputForgetGateLSTMCell(H, use_peepholes=True, num_proj=3,
                                                                          proj_clip=0.3))
    p = "rnn/coupled_input_forget_gate_lstm_cell/"
    assert names == [p + "W_0", p + "B", p + "W_F_diag", p + "W_O_diag", p + "W_P_0"]
    w, b = _v(names[0], (D + 3, 3 * H)), _v(names[1], (3 * H,))
    wf, wo, wp = _v(names[2], (H,)), _v(names[3], (H,)), _v(names[4], (H, 3))

    def step(x, state):
        c, m = state
        j, f, o_ = np.split(np.concatenate([x, m], 1) @ w + b, 3, axis=1)
        f = _sig(f + 1.0 + wf * c)
        c = f * c + (1 - f) * np.tanh(j)
        m = np.clip((_sig(o_ + wo * c) * np.tanh(c)) @ wp, -0.3, 0.3)
        return m, (c, m)
    _check((o, s), np_static_rnn(step, cases.inputs(), _zeros(H, 3)))

    # its layer-norm variables are float32 (as in TF, whose _norm gives them no dtype)
    names, o, s = _run_static(lambda: crnn.CoupledInputForgetGateLSTMCell(H, layer_norm=True), dtype=np.float32)
    assert names == [p + "W_0", p + "B"] + [p + k + "/" + v for k in ("transform", "forget", "output", "state")
                                            for v in ("gamma", "beta")]
    w = _v(names[0], (D + H, 3 * H))
    gb = {k: (_v(p + k + "/gamma", (H,)), _v(p + k + "/beta", (H,))) for k in ("transform", "forget", "output",
                                                                            "state")}

    def step_ln(x, state):
        c, m = state
        j, f, o_ = np.split(np.concatenate([x, m], 1) @ w, 3, axis=1)
        j, f, o_ = _ln(j, *gb["transform"]), _ln(f, *gb["forget"]), _ln(o_, *gb["output"])
        f = _sig(f + 1.0)
        c = _ln(f * c + (1 - f) * np.tanh(j), *gb["state"])
        m = _sig(o_) * np.tanh(c)
        return m, (c, m)
    xs32 = [x.astype(np.float32).astype(np.float64) for x in cases.inputs()]
    _check((o, s), np_static_rnn(step_ln, xs32, _zeros(H, H)), rtol=2e-4, atol=2e-5)
    with pytest.raises(NotImplementedError, match="num_unit_shards"):
        crnn.CoupledInputForgetGateLSTMCell(H, num_unit_shards=2)


def test_glstm_cell():
    names, o, s = _run_static(lambda: crnn.GLSTMCell(6, num_proj=4, number_of_groups=2),
                              xs=[np.concatenate([x, x[:, :2]], 1) for x in cases.inputs()])
    p = "rnn/glstm_cell/"
    assert names == [p + "group0/kernel", p + "group1/kernel", p + "bias_i", p + "bias_j", p + "bias_f",
                     p + "bias_o", p + "projection/kernel"]
    k0, k1 = _v(names[0], (3 + 2, 12)), _v(names[1], (3 + 2, 12))
    bi, bj, bf, bo = [_v(n, (6,)) for n in names[2:6]]
    wp = _v(names[6], (6, 4))

    def step(x, state):
        c, m = state
        r0 = np.split(np.concatenate([x[:, :3], m[:, :2]], 1) @ k0, 4, axis=1)
        r1 = np.split(np.concatenate([x[:, 3:], m[:, 2:]], 1) @ k1, 4, axis=1)
        i, j, f, o_ = [np.concatenate([a, b_], 1) + bias for a, b_, bias in zip(r0, r1, (bi, bj, bf, bo))]
        c = _sig(f + 1.0) * c + _sig(i) * np.tanh(j)
        m = (_sig(o_) * np.tanh(c)) @ wp
        return m, (c, m)
    xs = [np.concatenate([x, x[:, :2]], 1) for x in cases.inputs()]
    _check((o, s), np_static_rnn(step, xs, _zeros(6, 4)))
    with pytest.raises(ValueError, match="num_units must be divisible by number_of_groups"):
        crnn.GLSTMCell(5, number_of_groups=2)


def test_highway_wrapper():
    names, o, s = _run_static(lambda: crnn.HighwayWrapper(crnn.BasicRNNCell(D), carry_bias_init=0.5))
    assert names == ["rnn/basic_rnn_cell/kernel", "rnn/basic_rnn_cell/bias", "rnn/carry_w", "rnn/carry_b"]
    w, b = _v(names[0], (2 * D, D)), _v(names[1], (D,))
    cw, cb = _v(names[2], (D, D)), _v(names[3], (D,))

    def step(x, h):
        out = np.tanh(np.concatenate([x, h], 1) @ w + b)
        carry = _sig(x @ cw + cb)
        return x * carry + out * (1 - carry), out
    _check((o, s), np_static_rnn(step, cases.inputs(), np.zeros((B, D))))


GRAD_CELLS = {
    "nas": lambda: crnn.NASCell(3, num_proj=2, use_bias=True),
    "ugrnn": lambda: crnn.UGRNNCell(3),
    "sru": lambda: crnn.SRUCell(3),
    "indy_lstm": lambda: crnn.IndyLSTMCell(3),
    "indy_gru": lambda: crnn.IndyGRUCell(3),
    "cifg": lambda: crnn.CoupledInputForgetGateLSTMCell(3, use_peepholes=True),
    "glstm": lambda: crnn.GLSTMCell(4, number_of_groups=2),
}


@pytest.mark.parametrize("name", sorted(GRAD_CELLS))
def test_gradients_numerically(name):
    g = tf.Graph()
    with g.as_default():
        cell = GRAD_CELLS[name]()
        x = tf.placeholder(tf.float64, [2, 2])
        sizes = [int(n) for n in tf.nest.flatten(cell.state_size)]
        s0 = [tf.placeholder(tf.float64, [2, n]) for n in sizes]
        out, state = cell(x, tf.nest.pack_sequence_as(cell.state_size, s0))
        out, state = cell(out[:, :2] * 0.5 + x, state)
        y = tf.concat([out] + tf.nest.flatten(state), 1)
        rng = np.random.RandomState(1)
        feed = {x: rng.uniform(-1, 1, (2, 2))}
        feed.update({p: rng.uniform(-1, 1, (2, n)) for p, n in zip(s0, sizes)})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for v in tf.trainable_variables():
                v.load(rng.uniform(-0.8, 0.8, v.shape.as_list()), sess)
            for t in [x] + s0:
                err = tf.test.compute_gradient_error(t, t.shape.as_list(), y, y.shape.as_list(), x_init_value=feed[t],
                                                     delta=1e-6,
                                                     extra_feed_dict={k: v for k, v in feed.items() if k is not t})
                assert err < 1e-6, (name, t)
            for v in tf.trainable_variables():
                err = tf.test.compute_gradient_error(v, v.shape.as_list(), y, y.shape.as_list(), delta=1e-6,
                                                     x_init_value=sess.run(v), extra_feed_dict=feed)
                assert err < 1e-6, (name, v.op.name)


@pytest.mark.parametrize("dynamic", [False, True])
def test_fused_rnn_cell_adaptor_and_time_reversal(dynamic):
    seq = [4, 2, 3]
    xs = cases.inputs()
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(np.stack(xs))
        fused = crnn.FusedRNNCellAdaptor(crnn.GRUCell(H), use_dynamic_rnn=dynamic)
        assert isinstance(fused, crnn.FusedRNNCell)
        out, st = fused(x, dtype=tf.float64, sequence_length=seq)
        rev_out, rev_st = crnn.TimeReversedFusedRNN(fused)(x, dtype=tf.float64, sequence_length=seq, scope="rev")
        list_out, _ = fused(tf.unstack(x), dtype=tf.float64, scope="lst")
        names = [v.op.name for v in tf.trainable_variables()]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for v in tf.trainable_variables():
                v.load(cases.value(v.op.name.split("/", 1)[1], v.shape.as_list()), s)
            o, so, ro, rs, lo = s.run([out, st, rev_out, rev_st, list_out])
    assert names[:4] == ["rnn/gru_cell/gates/kernel", "rnn/gru_cell/gates/bias", "rnn/gru_cell/candidate/kernel",
                         "rnn/gru_cell/candidate/bias"]
    assert isinstance(lo, list) and len(lo) == 4
    w = [_v("gru_cell/" + n, sh) for n, sh in zip(["gates/kernel", "gates/bias", "candidate/kernel",
                                                    "candidate/bias"], [(D + H, 2 * H), (2 * H,), (D + H, H), (H,)])]
    from .test_rnn_cell import np_gru
    want_o, want_s = np_static_rnn(np_gru(*w), xs, np.zeros((B, H)), seq)
    _check((list(o), [so]), (want_o, want_s))
    rev = [np.stack([xs[seq[r] - 1 - t][r] if t < seq[r] else xs[t][r] for r in range(B)]) for t in range(4)]
    ob, sb = np_static_rnn(np_gru(*w), rev, np.zeros((B, H)), seq)
    ob = [np.stack([ob[seq[r] - 1 - t][r] if t < seq[r] else ob[t][r] for r in range(B)]) for t in range(4)]
    _check((list(ro), [rs]), (ob, sb))


def test_layer_norm_lstm_cell():
    names, o, s = _run_static(lambda: crnn.LayerNormLSTMCell(H, use_peepholes=True, cell_clip=0.5, num_proj=3,
                                                             proj_clip=0.25))
    p = "rnn/layer_norm_lstm_cell/"
    assert names == [p + "kernel", p + "bias", p + "w_f_diag", p + "w_i_diag", p + "w_o_diag",
                     p + "projection/kernel"]
    from .test_rnn_cell import np_lstm
    pe = tuple(_v(p + k, (H,)) for k in ("w_f_diag", "w_i_diag", "w_o_diag"))
    step = np_lstm(_v(names[0], (D + 3, 4 * H)), _v(names[1], (4 * H,)), 1.0, pe, 0.5, _v(names[5], (H, 3)), 0.25)
    _check((o, s), np_static_rnn(step, cases.inputs(), _zeros(H, 3)))

    # with layer normalization (float32 variables, as TF's) the bias is created but not added
    names, o, s = _run_static(lambda: crnn.LayerNormLSTMCell(H, layer_norm=True, forget_bias=0.5), dtype=np.float32)
    parts = ("input", "transform", "forget", "output", "state")
    assert names == [p + "kernel", p + "bias"] + [p + k + "/" + v for k in parts for v in ("gamma", "beta")]
    w = _v(names[0], (D + H, 4 * H))
    gb = {k: (_v(p + k + "/gamma", (H,)), _v(p + k + "/beta", (H,))) for k in parts}

    def step_ln(x, state):
        c, m = state
        i, j, f, o_ = np.split(np.concatenate([x, m], 1) @ w, 4, axis=1)
        i, j, f, o_ = [_ln(v, *gb[k]) for v, k in zip((i, j, f, o_), parts)]
        c = _ln(_sig(f + 0.5) * c + _sig(i) * np.tanh(j), *gb["state"])
        m = _sig(o_) * np.tanh(c)
        return m, (c, m)
    xs32 = [x.astype(np.float32).astype(np.float64) for x in cases.inputs()]
    _check((o, s), np_static_rnn(step_ln, xs32, _zeros(H, H)), rtol=2e-4, atol=2e-5)


def test_phased_lstm_cell():
    T = 4
    times = [np.full((B, 1), 1.5 * t + 0.25) for t in range(T)]
    xs = cases.inputs()
    g = tf.Graph()
    with g.as_default():
        inputs = [(tf.constant(tm), tf.constant(x.astype(np.float32))) for tm, x in zip(times, xs)]
        cell = crnn.PhasedLSTMCell(H, use_peepholes=True, leak=0.01, period_init_min=2.0, period_init_max=6.0)
        outs, st = tf.nn.static_rnn(cell, inputs, dtype=tf.float32)
        names = [v.op.name for v in tf.global_variables()]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            init = {v.op.name: s.run(v) for v in tf.global_variables()}
            vals = {}
            for v in tf.global_variables():
                if v.op.name.endswith(("kernel", "bias")):
                    vals[v.op.name] = _v(v.op.name, v.shape.as_list()).astype(np.float32)
                    v.load(vals[v.op.name], s)
                else:
                    vals[v.op.name] = init[v.op.name]
            o, (c, h) = s.run([outs, st])
    p = "rnn/phased_lstm_cell/"
    assert names == [p + "mask_gates/kernel", p + "mask_gates/bias", p + "new_input/kernel", p + "new_input/bias",
                     p + "output_gate/kernel", p + "output_gate/bias", p + "period", p + "phase", p + "ratio_on"]
    period, phase, ratio = vals[p + "period"], vals[p + "phase"], vals[p + "ratio_on"]
    assert (period >= 2.0 - 1e-5).all() and (period <= 6.0 + 1e-5).all()
    assert (phase >= 0).all() and (phase <= period).all() and np.allclose(ratio, 0.1)
    cs, hs = np.zeros((B, H)), np.zeros((B, H))
    for t in range(T):
        x = xs[t].astype(np.float32).astype(np.float64)
        ig, fg = np.split(_sig(np.concatenate([x, hs, cs], 1) @ vals[p + "mask_gates/kernel"]
                               + vals[p + "mask_gates/bias"]), 2, axis=1)
        new_c = cs * fg + ig * np.tanh(np.concatenate([x, hs], 1) @ vals[p + "new_input/kernel"]
                                       + vals[p + "new_input/bias"])
        og = _sig(np.concatenate([x, hs, new_c], 1) @ vals[p + "output_gate/kernel"] + vals[p + "output_gate/bias"])
        new_h = np.tanh(new_c) * og
        cycle = np.mod(times[t] - phase, period) / period
        k_up = 2 * cycle / ratio
        k = np.where(cycle < 0.5 * ratio, k_up, np.where(cycle < ratio, 2 - k_up, 0.01 * cycle))
        cs, hs = k * new_c + (1 - k) * cs, k * new_h + (1 - k) * hs
        np.testing.assert_allclose(o[t], hs, rtol=2e-4, atol=2e-5)
    np.testing.assert_allclose(c, cs, rtol=2e-4, atol=2e-5)
