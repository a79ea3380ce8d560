"""tf.nn.dynamic_rnn, bidirectional_dynamic_rnn, raw_rnn and stack_bidirectional_dynamic_rnn
(tensorweave/nn/rnn.py), checked against TensorFlow's values (tests/data/dynamic_rnn_tf.npz, made by
tests/data/make_dynamic_rnn_goldens.py), a NumPy reference of the loop, and numerical gradients.

Every LSTM case runs twice: on the fused BlockLSTM path that dynamic_rnn picks for a plain
BasicLSTMCell/LSTMCell, and on the generic while_loop path (the fused path switched off)."""

import collections
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.nn import rnn as rnn_mod

GOLD = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "dynamic_rnn_tf.npz"))
B, T, D, H = 3, 6, 4, 5


@pytest.fixture(params=["fused", "generic"])
def path(request, monkeypatch):
    if request.param == "generic":
        monkeypatch.setattr(rnn_mod, "_plain_lstm", lambda cell: None)
    return request.param


def _cells():
    from tensorweave.nn import rnn_cell
    return rnn_cell


def _cell(kind):
    rc = _cells()
    return {"lstm": lambda: rc.BasicLSTMCell(H, forget_bias=0.7), "lstmcell": lambda: rc.LSTMCell(H),
            "gru": lambda: rc.GRUCell(H), "rnn": lambda: rc.BasicRNNCell(H)}[kind]()


def _op_types(g):
    return {op.type for op in g.get_operations()}


def _check_case(case, build, rtol=1e-9):
    """Builds `build(x, sl)` on placeholders of unknown batch and time, loads TF's variable values,
    and compares outputs, final states, the loss and its gradients with TF's."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [None, None, D], name="x")
        sl = tf.placeholder(tf.int32, [None], name="sl")
        outs, states = build(x, sl)
        flat_o, flat_s = tf.nest.flatten(outs), tf.nest.flatten(states)
        loss = 0.0
        for k, o in enumerate(flat_o):
            loss += tf.reduce_sum(o * GOLD["%s/wo%d" % (case, k)])
        for k, s in enumerate(flat_s):
            loss += tf.reduce_sum(s * GOLD["%s/ws%d" % (case, k)])
        variables = tf.trainable_variables()
        names = sorted(v.op.name for v in variables)
        want = sorted(k[len(case) + 5:] for k in GOLD.files if k.startswith(case + "/var/"))
        assert names == want
        for v in variables:
            assert v.shape.as_list() == list(GOLD["%s/var/%s" % (case, v.op.name)].shape)
        grads = tf.gradients(loss, [x] + variables)
        with tf.Session() as sess:
            sess.run([tf.assign(v, GOLD["%s/var/%s" % (case, v.op.name)]) for v in variables])
            feed = {x: GOLD[case + "/x"], sl: GOLD[case + "/sl"]}
            o_v, s_v, l_v, g_v = sess.run([flat_o, flat_s, loss, grads], feed)
    for k, o in enumerate(o_v):
        np.testing.assert_allclose(o, GOLD["%s/out%d" % (case, k)], rtol=rtol, atol=1e-12)
    for k, s in enumerate(s_v):
        np.testing.assert_allclose(s, GOLD["%s/state%d" % (case, k)], rtol=rtol, atol=1e-12)
    np.testing.assert_allclose(l_v, GOLD[case + "/loss"], rtol=rtol)
    np.testing.assert_allclose(g_v[0], GOLD[case + "/dx"], rtol=rtol, atol=1e-12)
    for v, gv in zip(variables, g_v[1:]):
        np.testing.assert_allclose(gv, GOLD["%s/grad/%s" % (case, v.op.name)], rtol=rtol, atol=1e-12)
    return g


# ---- TF goldens with the tf.nn.rnn_cell cells -------------------------------------------------------
@pytest.mark.parametrize("kind", ["lstm", "lstmcell", "gru", "rnn"])
@pytest.mark.parametrize("seq", ["seq", "noseq"])
def test_dynamic_rnn_matches_tf(kind, seq, path):
    case = "%s_%s" % (kind, seq)
    g = _check_case(case, lambda x, sl: tf.nn.dynamic_rnn(_cell(kind), x, sequence_length=sl if seq == "seq" else None,
                                                          dtype=tf.float64))
    fused = "BlockLSTM" in _op_types(g)
    assert fused == (path == "fused" and kind in ("lstm", "lstmcell"))
    if fused:
        assert "BlockLSTMGrad" in _op_types(g)


def test_dynamic_rnn_time_major_matches_tf(path):
    _check_case("lstm_tm_seq", lambda x, sl: tf.nn.dynamic_rnn(_cell("lstm"), x, sequence_length=sl,
                                                               dtype=tf.float64, time_major=True))


def test_dynamic_rnn_initial_state_and_scope_match_tf():
    def build(x, sl):
        h0 = tf.ones([tf.shape(x)[0], H], tf.float64) * 0.25
        return tf.nn.dynamic_rnn(_cell("rnn"), x, sequence_length=sl, initial_state=h0, scope="myrnn")
    _check_case("rnn_init_seq", build)


def test_dynamic_rnn_lstm_peepholes_matches_tf(path):
    g = _check_case("lstmpeep_seq", lambda x, sl: tf.nn.dynamic_rnn(
        _cells().LSTMCell(H, use_peepholes=True, forget_bias=0.5), x, sequence_length=sl, dtype=tf.float64))
    assert ("BlockLSTM" in _op_types(g)) == (path == "fused")


def test_dynamic_rnn_multi_lstm_matches_tf(path):
    """A MultiRNNCell of plain LSTMs: one BlockLSTM per layer on the fused path."""
    rc = _cells()
    g = _check_case("multi_lstm_seq", lambda x, sl: tf.nn.dynamic_rnn(
        rc.MultiRNNCell([_cell("lstm"), _cell("lstmcell")]), x, sequence_length=sl, dtype=tf.float64))
    assert sum(op.type == "BlockLSTM" for op in g.get_operations()) == (2 if path == "fused" else 0)


def test_dynamic_rnn_multi_rnn_cell_matches_tf():
    rc = _cells()
    _check_case("multi_seq", lambda x, sl: tf.nn.dynamic_rnn(rc.MultiRNNCell([_cell("lstm"), _cell("gru")]), x,
                                                             sequence_length=sl, dtype=tf.float64))


@pytest.mark.parametrize("case", ["bi_lstm_seq", "bi_gru_seq", "bi_lstm_noseq"])
def test_bidirectional_dynamic_rnn_matches_tf(case, path):
    kind = case.split("_")[1]
    seq = case.endswith("_seq")
    _check_case(case, lambda x, sl: tf.nn.bidirectional_dynamic_rnn(
        _cell(kind), _cell(kind), x, sequence_length=sl if seq else None, dtype=tf.float64))


def test_raw_rnn_matches_tf():
    def build(x, sl):
        cell = _cell("lstm")
        xt = tf.transpose(x, [1, 0, 2])
        max_time, batch = tf.shape(xt)[0], tf.shape(xt)[1]
        inputs_ta = tf.TensorArray(tf.float64, size=max_time).unstack(xt)

        def loop_fn(time, cell_output, cell_state, loop_state):
            next_state = cell.zero_state(batch, tf.float64) if cell_output is None else cell_state
            finished = time >= sl
            next_input = tf.cond(tf.reduce_all(finished), lambda: tf.zeros([batch, D], tf.float64),
                                 lambda: inputs_ta.read(tf.minimum(time, max_time - 1)))
            return finished, next_input, next_state, cell_output, None
        emit_ta, final_state, final_loop_state = tf.nn.raw_rnn(cell, loop_fn)
        assert final_loop_state is None
        return tf.transpose(emit_ta.stack(), [1, 0, 2]), final_state
    _check_case("raw_lstm_seq", build)


# ---- semantics with a cell of the test's own (nested state and output) -------------------------------
_Pair = collections.namedtuple("_Pair", ["a", "b"])


class _TinyCell:
    """h' = tanh([x, h] W); output (h', 2 h'); state _Pair(h', step counter)."""

    def __init__(self, units):
        self.units = units

    @property
    def state_size(self):
        return _Pair(self.units, 1)

    @property
    def output_size(self):
        return (self.units, self.units)

    def zero_state(self, batch_size, dtype):
        return _Pair(tf.zeros(tf.stack([batch_size, self.units]), dtype), tf.zeros(tf.stack([batch_size, 1]), dtype))

    def __call__(self, inputs, state, scope=None):
        with tf.variable_scope(scope or "tiny_cell", reuse=tf.AUTO_REUSE):
            w = tf.get_variable("kernel", [inputs.shape[1].value + self.units, self.units], dtype=inputs.dtype)
        h = tf.tanh(tf.matmul(tf.concat([inputs, state.a], 1), w))
        return (h, 2.0 * h), _Pair(h, state.b + 1.0)


def _tiny_ref(x, w, seq, h0=None):
    """NumPy: the loop with TF's sequence_length semantics (x batch major)."""
    b, t, _ = x.shape
    h = np.zeros((b, w.shape[1])) if h0 is None else h0.copy()
    cnt = np.zeros((b, 1))
    out = np.zeros((b, t, w.shape[1]))
    seq = np.full(b, t) if seq is None else np.asarray(seq)
    for s in range(t):
        new = np.tanh(np.concatenate([x[:, s], h], 1) @ w)
        live = s < seq
        out[live, s] = new[live]
        h = np.where(live[:, None], new, h)
        cnt = np.where(live[:, None], cnt + 1, cnt)
    return out, h, cnt


@pytest.mark.parametrize("time_major", [False, True])
@pytest.mark.parametrize("seq", [None, [4, 1, 0, 3]])
def test_tiny_cell_nested_sequence_length(time_major, seq):
    rng = np.random.RandomState(3)
    xv = rng.uniform(-1, 1, (4, 5, 3))
    wv = rng.uniform(-0.7, 0.7, (7, 4))
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [None, None, 3])
        sl = None if seq is None else tf.constant(seq, tf.int64)
        (o1, o2), st = tf.nn.dynamic_rnn(_TinyCell(4), x, sequence_length=sl, dtype=tf.float64,
                                         time_major=time_major)
        assert isinstance(st, _Pair)
        assert o1.shape.ndims == 3 and o1.shape[2].value == 4 and st.a.shape[1].value == 4
        (w,) = tf.trainable_variables()
        assert w.op.name == "rnn/tiny_cell/kernel"
        with tf.Session() as s:
            s.run(tf.assign(w, wv))
            feed = np.transpose(xv, [1, 0, 2]) if time_major else xv
            a, b2, h, c = s.run([o1, o2, st.a, st.b], {x: feed})
    out, h_ref, c_ref = _tiny_ref(xv, wv, seq)
    if time_major:
        a, b2 = np.transpose(a, [1, 0, 2]), np.transpose(b2, [1, 0, 2])
    np.testing.assert_allclose(a, out, rtol=1e-12)
    np.testing.assert_allclose(b2, 2 * out, rtol=1e-12)
    np.testing.assert_allclose(h, h_ref, rtol=1e-12)
    np.testing.assert_allclose(c, c_ref, rtol=1e-12)


def test_static_shapes_known_dims():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 7, 3])
        (o1, o2), st = tf.nn.dynamic_rnn(_TinyCell(4), x, dtype=tf.float32)
        assert o1.shape.as_list() == [2, 7, 4] and st.a.shape.as_list() == [2, 4]
        out, st = tf.nn.dynamic_rnn(_cell("lstm"), x, dtype=tf.float32, scope="l")
        assert out.shape.as_list() == [2, 7, 5] and st.c.shape.as_list() == [2, 5] and st.h.dtype == tf.float32
        out, st = tf.nn.dynamic_rnn(_cell("lstm"), tf.transpose(x, [1, 0, 2]), dtype=tf.float32, time_major=True,
                                    scope="tm")
        assert out.shape.as_list() == [7, 2, 5]


def test_tiny_cell_numerical_gradient():
    rng = np.random.RandomState(5)
    xv = rng.uniform(-1, 1, (3, 4, 2))
    with tf.Graph().as_default():
        x = tf.constant(xv)
        (o1, _), st = tf.nn.dynamic_rnn(_TinyCell(3), x, sequence_length=[4, 2, 0], dtype=tf.float64)
        loss = tf.reduce_sum(o1 * rng.uniform(-1, 1, (3, 4, 3))) + tf.reduce_sum(st.a * rng.uniform(-1, 1, (3, 3)))
        (w,) = tf.trainable_variables()
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            err = tf.test.compute_gradient_error([x, w], [[3, 4, 2], [5, 3]], loss, [], delta=1e-5)
    assert err < 1e-7


@pytest.mark.parametrize("seq", [None, [5, 2, 0]])
def test_lstm_numerical_gradient(seq, path):
    rng = np.random.RandomState(6)
    xv = rng.uniform(-1, 1, (3, 5, 2))
    with tf.Graph().as_default():
        x = tf.constant(xv)
        out, st = tf.nn.dynamic_rnn(_cell("lstm"), x, sequence_length=seq, dtype=tf.float64)
        loss = (tf.reduce_sum(out * rng.uniform(-1, 1, (3, 5, H))) + tf.reduce_sum(st.c * rng.uniform(-1, 1, (3, H)))
                + tf.reduce_sum(st.h * rng.uniform(-1, 1, (3, H))))
        kernel, bias = tf.trainable_variables()
        with tf.Session() as s:
            s.run([tf.assign(kernel, rng.uniform(-0.5, 0.5, (2 + H, 4 * H))),
                   tf.assign(bias, rng.uniform(-0.5, 0.5, (4 * H,)))])
            err = tf.test.compute_gradient_error([x, kernel, bias], [[3, 5, 2], [2 + H, 4 * H], [4 * H]], loss, [],
                                                delta=1e-5)
    assert err < 1e-7


def _fused_and_generic(build, feeds_fn, monkeypatch):
    """Runs `build()` (returns (fetches, feed values)) on both paths; returns both results."""
    results = []
    for generic in (False, True):
        with monkeypatch.context() as m:
            if generic:
                m.setattr(rnn_mod, "_plain_lstm", lambda cell: None)
            with tf.Graph().as_default() as g:
                fetches, init = build()
                assert ("BlockLSTM" in _op_types(g)) != generic
                with tf.Session() as s:
                    init(s)
                    results.append(s.run(fetches, feeds_fn()))
    return results


@pytest.mark.parametrize("dtype,tol", [(np.float32, 2e-6), (np.float64, 1e-12)])
@pytest.mark.parametrize("cell_kind,state_is_tuple", [  # LSTMBlockCell has tuple states only
    (kind, tup) for kind in ("basic", "lstmcell", "peephole", "block") for tup in (True, False)
    if kind != "block" or tup])
def test_fused_path_equals_generic(dtype, tol, state_is_tuple, cell_kind, monkeypatch):
    rng = np.random.RandomState(7)
    xv = rng.uniform(-1, 1, (4, 7, 3)).astype(dtype)
    seq = np.array([7, 3, 0, 5])
    wk = rng.uniform(-0.5, 0.5, (3 + 6, 24)).astype(dtype)
    wb = rng.uniform(-0.5, 0.5, (24,)).astype(dtype)
    c0v = rng.uniform(-1, 1, (4, 6)).astype(dtype)
    holder = {}
    peep = [rng.uniform(-0.5, 0.5, 6).astype(dtype) for _ in range(3)]

    def build():
        x = tf.placeholder(dtype, [None, None, 3])
        sl = tf.placeholder(tf.int32, [None])
        rc = _cells()
        from tensorweave.contrib import rnn as contrib_rnn
        cell = {"basic": lambda: rc.BasicLSTMCell(6, forget_bias=0.3, state_is_tuple=state_is_tuple),
                "lstmcell": lambda: rc.LSTMCell(6, state_is_tuple=state_is_tuple),
                "peephole": lambda: rc.LSTMCell(6, use_peepholes=True, state_is_tuple=state_is_tuple),
                "block": lambda: contrib_rnn.LSTMBlockCell(6, forget_bias=0.2, use_peephole=True, cell_clip=0.7)}[
                    cell_kind]()
        c0 = tf.constant(c0v)
        init = (rc.LSTMStateTuple(c0, c0 * 0.5) if state_is_tuple else tf.concat([c0, c0 * 0.5], 1))
        out, st = tf.nn.dynamic_rnn(cell, x, sequence_length=sl, initial_state=init)
        loss = tf.reduce_sum(out * out) + tf.reduce_sum(tf.nest.flatten(st)[0] * 0.5)
        variables = tf.trainable_variables()
        assert [v.op.name for v in variables][:2] == ["rnn/%s/kernel" % cell.name, "rnn/%s/bias" % cell.name]
        grads = tf.gradients(loss, [x, init] + variables if not state_is_tuple else [x, c0] + variables)
        holder.update(x=x, sl=sl)
        return [out, tf.nest.flatten(st), grads], lambda s: s.run(
            [tf.assign(variables[0], wk), tf.assign(variables[1], wb)]
            + [tf.assign(v, p) for v, p in zip(variables[2:], peep)])

    fused, generic = _fused_and_generic(build, lambda: {holder["x"]: xv, holder["sl"]: seq}, monkeypatch)
    for a, b in zip(tf.nest.flatten(fused), tf.nest.flatten(generic)):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("seq", [[-1, 9, 2], [-2, -1, 0], [9, 8, 7]])
def test_fused_path_out_of_range_lengths_equal_generic(seq, monkeypatch):
    """Lengths below 0 or above the number of steps: as the generic loop (copy-through, clipped)."""
    rng = np.random.RandomState(8)
    xv = rng.uniform(-1, 1, (3, 4, 2))
    holder = {}

    def build():
        x = tf.placeholder(tf.float64, [None, None, 2])
        holder["x"] = x
        c0 = tf.constant(np.full((3, 3), 0.5))
        out, st = tf.nn.dynamic_rnn(_cells().BasicLSTMCell(3), x, sequence_length=seq,
                                    initial_state=_cells().LSTMStateTuple(c0, -c0))
        grads = tf.gradients(tf.reduce_sum(out * out) + tf.reduce_sum(st.c) + tf.reduce_sum(st.h), [x, c0])
        variables = tf.trainable_variables()
        return [out, st.c, st.h, grads], lambda s: s.run(
            [tf.assign(v, rng.uniform(-0.5, 0.5, v.shape.as_list())) for v in variables])

    state = rng.get_state()

    def build_from_state():  # both paths get the same variable values
        rng.set_state(state)
        return build()

    results = _fused_and_generic(build_from_state, lambda: {holder["x"]: xv}, monkeypatch)
    for a, b in zip(tf.nest.flatten(results[0]), tf.nest.flatten(results[1])):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_fused_path_only_for_plain_cells():
    rc = _cells()
    from tensorweave.contrib import rnn as contrib_rnn
    cells = {"plain_peep": rc.LSTMCell(4, use_peepholes=True), "clip": rc.LSTMCell(4, cell_clip=1.0),
             "plain_block": contrib_rnn.LSTMBlockCell(4, use_peephole=True, cell_clip=0.5),
             "layer_norm": contrib_rnn.LayerNormBasicLSTMCell(4),
             "proj": rc.LSTMCell(4, num_proj=2), "relu": rc.BasicLSTMCell(4, activation=tf.nn.relu),
             "gru": rc.GRUCell(4), "multi_gru": rc.MultiRNNCell([rc.BasicLSTMCell(4), rc.GRUCell(4)]),
             "multi_concat": rc.MultiRNNCell([rc.BasicLSTMCell(4, state_is_tuple=False)], state_is_tuple=False),
             "plain_multi": rc.MultiRNNCell([rc.BasicLSTMCell(4), rc.LSTMCell(3)]),
             "plain": rc.BasicLSTMCell(4), "plain_cell": rc.LSTMCell(4)}
    for name, cell in cells.items():
        with tf.Graph().as_default() as g:
            tf.nn.dynamic_rnn(cell, tf.zeros([2, 3, 2]), dtype=tf.float32)
            assert ("BlockLSTM" in _op_types(g)) == name.startswith("plain"), name


def test_fused_path_variables_shared_with_generic_reuse():
    """A second dynamic_rnn in the same scope with reuse gets the same variables (fused or not)."""
    rc = _cells()
    with tf.Graph().as_default():
        x = tf.zeros([2, 3, 2])
        cell = rc.BasicLSTMCell(4)
        tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        with tf.variable_scope(tf.get_variable_scope(), reuse=True):
            tf.nn.dynamic_rnn(rc.BasicLSTMCell(4), x, dtype=tf.float32)
        assert sorted(v.op.name for v in tf.global_variables()) == ["rnn/basic_lstm_cell/bias",
                                                                     "rnn/basic_lstm_cell/kernel"]


def test_zero_time_steps(path):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, None, 2])
        c0 = tf.ones([3, 4])
        out, st = tf.nn.dynamic_rnn(_cells().BasicLSTMCell(4), x,
                                    initial_state=_cells().LSTMStateTuple(c0, c0 * 2.0))
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            o, c, h = s.run([out, st.c, st.h], {x: np.zeros((3, 0, 2), np.float32)})
    assert o.shape == (3, 0, 4)
    np.testing.assert_array_equal(c, np.ones((3, 4)))
    np.testing.assert_array_equal(h, 2 * np.ones((3, 4)))


def test_dynamic_rnn_trains_with_optimizer(path):
    """A training step through time updates the cell variables (as a TF1 program uses it)."""
    rng = np.random.RandomState(0)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 5, 3])
        y = tf.placeholder(tf.float32, [None, 2])
        out, _ = tf.nn.dynamic_rnn(_cells().BasicLSTMCell(8), x, dtype=tf.float32)
        logits = tf.layers.dense(out[:, -1], 2)
        loss = tf.reduce_mean(tf.square(logits - y))
        step = tf.train.AdamOptimizer(0.05).minimize(loss)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            feed = {x: rng.randn(16, 5, 3), y: rng.randn(16, 2)}
            first = s.run(loss, feed)
            for _ in range(30):
                s.run(step, feed)
            assert s.run(loss, feed) < 0.5 * first


# ---- errors ---------------------------------------------------------------------------------------
def test_errors():
    with tf.Graph().as_default():
        x = tf.zeros([2, 3, 4])
        cell = _TinyCell(2)
        with pytest.raises(ValueError, match="If there is no initial_state, you must give a dtype."):
            tf.nn.dynamic_rnn(cell, x)
        with pytest.raises(ValueError, match="sequence_length must be a vector of length batch_size, but saw shape"):
            tf.nn.dynamic_rnn(cell, x, sequence_length=[[1, 2]], dtype=tf.float32)
        with pytest.raises(TypeError, match="The argument 'cell' .* is not an RNNCell: 'output_size' property is "
                                            "missing, 'state_size' property is missing"):
            tf.nn.dynamic_rnn(lambda a, b: (a, b), x, dtype=tf.float32)
        with pytest.raises(TypeError, match="The argument 'cell_bw'"):
            tf.nn.bidirectional_dynamic_rnn(cell, object(), x, dtype=tf.float32)
        with pytest.raises(ValueError, match="Input size \\(depth of inputs\\) must be accessible via shape "
                                             "inference, but saw value None."):
            tf.nn.dynamic_rnn(cell, tf.placeholder(tf.float32, [2, 3, None]), dtype=tf.float32)
        with pytest.raises(ValueError, match="Expected input tensor .* to have rank at least 2"):
            tf.nn.dynamic_rnn(cell, tf.zeros([3]), dtype=tf.float32)
        with pytest.raises(TypeError, match="loop_fn must be a callable"):
            tf.nn.raw_rnn(cell, None)


def test_nested_input_mismatches():
    class TwoInputCell(_TinyCell):
        def __call__(self, inputs, state, scope=None):
            return super().__call__(tf.concat(list(inputs), 1), state, scope)

    with tf.Graph().as_default():
        cell = TwoInputCell(2)
        with pytest.raises(ValueError, match="Time steps is not the same for all the elements in the input in a "
                                             "batch."):
            tf.nn.dynamic_rnn(cell, (tf.zeros([2, 3, 1]), tf.zeros([2, 4, 1])), dtype=tf.float32)
        with pytest.raises(ValueError, match="Batch_size is not the same for all the elements in the input."):
            tf.nn.dynamic_rnn(cell, (tf.zeros([2, 3, 1]), tf.zeros([5, 3, 1])), dtype=tf.float32)
        (o, _), _ = tf.nn.dynamic_rnn(cell, (tf.ones([2, 3, 1]), tf.ones([2, 3, 2])), dtype=tf.float32,
                                      scope="ok")
        assert o.shape.as_list() == [2, 3, 2]


def test_sequence_length_batch_mismatch_at_run_time(path):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3, 2])
        sl = tf.placeholder(tf.int32, [None])
        out, _ = tf.nn.dynamic_rnn(_cells().BasicLSTMCell(4), x, sequence_length=sl, dtype=tf.float32)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="Expected shape for Tensor rnn/sequence_length:0 "
                                                                     "is "):
                s.run(out, {x: np.zeros((2, 3, 2)), sl: [1, 2, 3]})


def test_different_state_dtypes_error():
    class MixedCell(_TinyCell):
        def zero_state(self, batch_size, dtype):
            return _Pair(tf.zeros([2, self.units], tf.float32), tf.zeros([2, 1], tf.float64))

    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="State has tensors of different inferred_dtypes"):
            tf.nn.dynamic_rnn(MixedCell(2), tf.zeros([2, 3, 1]), initial_state=MixedCell(2).zero_state(2, None))


# ---- raw_rnn with a loop state, stack_bidirectional_dynamic_rnn --------------------------------------
def test_raw_rnn_loop_state_and_emit_structure():
    """loop_state counts the steps; emit_output a custom structure (the output and its square)."""
    rng = np.random.RandomState(9)
    xv = rng.uniform(-1, 1, (4, 3, 2))  # time major
    wv = rng.uniform(-0.7, 0.7, (2 + 3, 3))
    seq = np.array([4, 2, 1])
    with tf.Graph().as_default():
        x = tf.constant(xv)
        cell = _cells().BasicRNNCell(3)

        def loop_fn(time, cell_output, cell_state, loop_state):
            if cell_output is None:
                return (time >= seq, x[0], cell.zero_state(3, tf.float64),
                        (tf.zeros([3, 3], tf.float64), tf.zeros([3, 3], tf.float64)), tf.constant(0))
            finished = time >= seq
            nxt = tf.cond(tf.reduce_all(finished), lambda: tf.zeros([3, 2], tf.float64),
                          lambda: tf.gather(x, tf.minimum(time, 3)))
            return finished, nxt, cell_state, (cell_output, cell_output ** 2), loop_state + 1

        (ta1, ta2), final, steps = tf.nn.raw_rnn(cell, loop_fn)
        (w, b) = tf.trainable_variables()
        assert w.op.name == "rnn/basic_rnn_cell/kernel"
        with tf.Session() as s:
            s.run([tf.assign(w, wv), tf.assign(b, np.zeros(3))])
            e1, e2, fv, n = s.run([ta1.stack(), ta2.stack(), final, steps])
    h = np.zeros((3, 3))
    ref = np.zeros((4, 3, 3))
    for t in range(4):
        new = np.tanh(np.concatenate([xv[t], h], 1) @ wv)
        live = t < seq
        ref[t, live] = new[live]
        h = np.where(live[:, None], new, h)
    np.testing.assert_allclose(e1, ref, rtol=1e-12)
    np.testing.assert_allclose(e2, ref ** 2, rtol=1e-12)
    np.testing.assert_allclose(fv, h, rtol=1e-12)
    assert n == 4


def test_stack_bidirectional_dynamic_rnn(path):
    """Each layer is a bidirectional_dynamic_rnn under cell_<i>, fed the previous layer's outputs."""
    rng = np.random.RandomState(11)
    xv = rng.uniform(-1, 1, (3, 5, 2)).astype(np.float32)
    seq = np.array([5, 3, 1])
    rc = _cells()
    with tf.Graph().as_default():
        x = tf.constant(xv)
        out, sfw, sbw = rnn_mod.stack_bidirectional_dynamic_rnn(
            [rc.BasicLSTMCell(4), rc.GRUCell(3)], [rc.BasicLSTMCell(4), rc.GRUCell(3)], x, sequence_length=seq,
            dtype=tf.float32)
        assert out.shape.as_list() == [3, 5, 6] and len(sfw) == 2 and len(sbw) == 2
        names = sorted(v.op.name for v in tf.global_variables())
        assert names[0] == "stack_bidirectional_rnn/cell_0/bidirectional_rnn/bw/basic_lstm_cell/bias"
        assert "stack_bidirectional_rnn/cell_1/bidirectional_rnn/fw/gru_cell/gates/kernel" in names
        # the same computation composed by hand, reusing the variables
        with tf.variable_scope("stack_bidirectional_rnn", reuse=True):
            with tf.variable_scope("cell_0"):
                o0, _ = tf.nn.bidirectional_dynamic_rnn(rc.BasicLSTMCell(4), rc.BasicLSTMCell(4), x,
                                                        sequence_length=seq, dtype=tf.float32)
            with tf.variable_scope("cell_1"):
                o1, (f1, b1) = tf.nn.bidirectional_dynamic_rnn(rc.GRUCell(3), rc.GRUCell(3), tf.concat(o0, 2),
                                                               sequence_length=seq, dtype=tf.float32)
        assert len(tf.global_variables()) == len(names)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            a, b = s.run([[out, sfw[1], sbw[1]], [tf.concat(o1, 2), f1, b1]])
    for u, v in zip(a, b):
        np.testing.assert_allclose(u, v, rtol=1e-6, atol=1e-7)
    with pytest.raises(ValueError, match="Forward and Backward cells must have the same depth."):
        rnn_mod.stack_bidirectional_dynamic_rnn([rc.GRUCell(2)], [rc.GRUCell(2)] * 2, x)
    with pytest.raises(ValueError, match="Must specify at least one fw cell for BidirectionalRNN."):
        rnn_mod.stack_bidirectional_dynamic_rnn([], [rc.GRUCell(2)], x)
    with pytest.raises(ValueError, match="cells_fw must be a list of RNNCells"):
        rnn_mod.stack_bidirectional_dynamic_rnn((rc.GRUCell(2),), [rc.GRUCell(2)], x)


def test_eager_dynamic_rnn_matches_graph():
    rng = np.random.RandomState(12)
    xv = rng.uniform(-1, 1, (2, 4, 3)).astype(np.float32)
    kv = rng.uniform(-0.5, 0.5, (3 + 4, 16)).astype(np.float32)
    results = []
    with tf.Graph().as_default():
        cell = _cells().BasicLSTMCell(4)
        out, st = tf.nn.dynamic_rnn(cell, tf.constant(xv), sequence_length=[4, 2], dtype=tf.float32)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(tf.assign(cell._kernel, kv))
            results.append(s.run([out, st.h]))
    from tensorweave.eager import context
    with context.eager_mode():
        cell = _cells().BasicLSTMCell(4)
        out, st = tf.nn.dynamic_rnn(cell, tf.constant(xv), sequence_length=[4, 2], dtype=tf.float32)
        cell._kernel.assign(kv)
        out, st = tf.nn.dynamic_rnn(cell, tf.constant(xv), sequence_length=[4, 2], dtype=tf.float32)
        results.append([out.numpy(), st.h.numpy()])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_eager_generic_loop_matches_graph():
    """The while_loop path run eagerly (GRUCell, bidirectional, sequence lengths) equals graph mode."""
    rng = np.random.RandomState(13)
    xv = rng.uniform(-1, 1, (2, 4, 3)).astype(np.float32)
    values = [rng.uniform(-0.5, 0.5, s).astype(np.float32) for s in ((6, 6), (6,), (6, 3), (3,))] * 2
    rc = _cells()

    def build():
        (o1, o2), (s1, s2) = tf.nn.bidirectional_dynamic_rnn(rc.GRUCell(3), rc.GRUCell(3), tf.constant(xv),
                                                             sequence_length=[4, 2], dtype=tf.float32)
        return [o1, o2, s1, s2]

    with tf.Graph().as_default():
        fetches = build()
        variables = tf.global_variables()
        with tf.Session() as s:
            s.run([tf.assign(v, val) for v, val in zip(variables, values)])
            graph = s.run(fetches)
    from tensorweave.eager import context
    with context.eager_mode():
        cells = [rc.GRUCell(3), rc.GRUCell(3)]
        x = tf.constant(xv)
        tf.nn.bidirectional_dynamic_rnn(cells[0], cells[1], x, sequence_length=[4, 2], dtype=tf.float32)
        for v, val in zip(cells[0].weights + cells[1].weights, values):
            v.assign(val)
        (o1, o2), (s1, s2) = tf.nn.bidirectional_dynamic_rnn(cells[0], cells[1], x, sequence_length=[4, 2],
                                                             dtype=tf.float32)
        eager = [o1.numpy(), o2.numpy(), s1.numpy(), s2.numpy()]
    for a, b in zip(graph, eager):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
