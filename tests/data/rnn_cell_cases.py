"""RNN cell cases shared by tests/data/make_rnn_cell_goldens.py (run with TensorFlow) and
tests/nn/test_rnn_cell.py (run with tensorweave): the same TF1 program builds each case with either
module, the same deterministic values are loaded into the variables, and the outputs, final states
and gradients are compared with TensorFlow's recorded ones.

Each case is `build(tf, x, sl) -> (outputs, state)` over `x`, a list of T placeholders `[B, D]`
(float64) and `sl`, an int32 placeholder `[B]` of sequence lengths.
"""

import numpy as np

B, T, D, H = 3, 4, 4, 5
SEQ_LEN = [4, 2, 0]


def value(name, shape):
    """A deterministic value for the variable (or input) `name`: uniform in [-0.6, 0.6)."""
    seed = sum(ord(c) * (i + 1) for i, c in enumerate(name)) % (2 ** 31)
    return np.random.RandomState(seed).uniform(-0.6, 0.6, shape)


def inputs():
    return [value("x%d" % t, (B, D)) for t in range(T)]


def _rc(tf):
    return tf.nn.rnn_cell


def _static(tf, cell, x, **kwargs):
    return tf.nn.static_rnn(cell, x, dtype=tf.float64, **kwargs)


def _basic_rnn(tf, x, sl):
    return _static(tf, _rc(tf).BasicRNNCell(H), x)


def _basic_rnn_relu(tf, x, sl):
    return _static(tf, _rc(tf).BasicRNNCell(H, activation=tf.nn.relu), x)


def _basic_lstm(tf, x, sl):
    return _static(tf, _rc(tf).BasicLSTMCell(H, forget_bias=0.5), x)


def _basic_lstm_concat(tf, x, sl):
    return _static(tf, _rc(tf).BasicLSTMCell(H, state_is_tuple=False), x)


def _lstm_full(tf, x, sl):
    cell = _rc(tf).LSTMCell(H, use_peepholes=True, cell_clip=0.3, num_proj=3, proj_clip=0.2, forget_bias=0.8)
    return _static(tf, cell, x)


def _lstm_concat_proj(tf, x, sl):
    return _static(tf, _rc(tf).LSTMCell(H, num_proj=3, state_is_tuple=False, activation=tf.nn.softsign), x)


def _lstm_peep(tf, x, sl):
    return _static(tf, _rc(tf).LSTMCell(H, use_peepholes=True), x)


def _gru(tf, x, sl):
    return _static(tf, _rc(tf).GRUCell(H), x)


def _multi(tf, x, sl):
    rc = _rc(tf)
    return _static(tf, rc.MultiRNNCell([rc.BasicLSTMCell(H), rc.GRUCell(3)]), x)


def _multi_concat(tf, x, sl):
    rc = _rc(tf)
    return _static(tf, rc.MultiRNNCell([rc.BasicRNNCell(H), rc.GRUCell(3)], state_is_tuple=False), x)


def _residual(tf, x, sl):
    rc = _rc(tf)
    return _static(tf, rc.ResidualWrapper(rc.BasicRNNCell(D)), x)


def _device_dropout1(tf, x, sl):
    rc = _rc(tf)
    cell = rc.DeviceWrapper(rc.DropoutWrapper(rc.GRUCell(H), input_keep_prob=1.0, output_keep_prob=1.0), "/cpu:0")
    return _static(tf, cell, x)


def _seqlen_lstm(tf, x, sl):
    return _static(tf, _rc(tf).BasicLSTMCell(H), x, sequence_length=sl)


def _seqlen_multi(tf, x, sl):
    rc = _rc(tf)
    return _static(tf, rc.MultiRNNCell([rc.GRUCell(H), rc.LSTMCell(3, num_proj=2)]), x, sequence_length=sl)


def _bidi(tf, x, sl):
    rc = _rc(tf)
    outs, fw, bw = tf.nn.static_bidirectional_rnn(rc.LSTMCell(H), rc.GRUCell(3), x, dtype=tf.float64,
                                                  sequence_length=sl)
    return outs, (fw, bw)


def _bidi_noseq(tf, x, sl):
    rc = _rc(tf)
    outs, fw, bw = tf.nn.static_bidirectional_rnn(rc.BasicRNNCell(H), rc.BasicLSTMCell(2), x, dtype=tf.float64)
    return outs, (fw, bw)


def _initial_state(tf, x, sl):
    rc = _rc(tf)
    cell = rc.BasicLSTMCell(H)
    init = rc.LSTMStateTuple(tf.constant(value("c0", (B, H))), tf.constant(value("h0", (B, H))))
    return tf.nn.static_rnn(cell, x, initial_state=init, sequence_length=sl, scope="my_rnn")


CASES = {
    "basic_rnn": _basic_rnn,
    "basic_rnn_relu": _basic_rnn_relu,
    "basic_lstm": _basic_lstm,
    "basic_lstm_concat": _basic_lstm_concat,
    "lstm_full": _lstm_full,
    "lstm_concat_proj": _lstm_concat_proj,
    "lstm_peep": _lstm_peep,
    "gru": _gru,
    "multi": _multi,
    "multi_concat": _multi_concat,
    "residual": _residual,
    "device_dropout1": _device_dropout1,
    "seqlen_lstm": _seqlen_lstm,
    "seqlen_multi": _seqlen_multi,
    "bidi": _bidi,
    "bidi_noseq": _bidi_noseq,
    "initial_state": _initial_state,
}


def run_case(tf, name):
    """Builds case `name` with the module `tf` in a new graph, loads the deterministic values into its
    variables and returns `{"vars": [[name, shape]], "outputs": [...], "state": [...],
    "grads": [...]}` (gradients of `sum_k sum(leaf_k * w_k)` over the flat outputs and state, w.r.t.
    the inputs then the trainable variables in creation order)."""
    g = tf.Graph()
    with g.as_default():
        x = [tf.placeholder(tf.float64, [B, D], name="x%d" % t) for t in range(T)]
        sl = tf.placeholder(tf.int32, [B], name="sl")
        outs, state = CASES[name](tf, x, sl)
        flat_o = tf.nest.flatten(outs)
        flat_s = tf.nest.flatten(state)
        loss = tf.constant(0.0, tf.float64)
        for k, leaf in enumerate(flat_o + flat_s):
            loss += tf.reduce_sum(leaf * value("w%d" % k, leaf.shape.as_list()))
        variables = tf.trainable_variables()
        grads = tf.gradients(loss, x + variables)
        feed = dict(zip(x, inputs()))
        feed[sl] = SEQ_LEN
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for v in variables:
                v.load(value(v.op.name, v.shape.as_list()), sess)
            o, s, gr = sess.run([flat_o, flat_s, grads], feed)
        return {"vars": [[v.op.name, v.shape.as_list()] for v in variables],
                "outputs": [a.tolist() for a in o], "state": [a.tolist() for a in s],
                "grads": [a.tolist() for a in gr]}


def initializer_cells(tf):
    """Builds, in the default graph, float32 cells with explicit initializers (GRUCell g1, g2; LSTMCell l1) and a
    BasicLSTMCell b1 with the default (glorot uniform) kernel initializer."""
    x = tf.placeholder(tf.float32, [B, D])
    rc = _rc(tf)
    rc.GRUCell(H, kernel_initializer=tf.constant_initializer(0.1), name="g1")(x, tf.zeros([B, H]))
    rc.GRUCell(H, kernel_initializer=tf.constant_initializer(0.1), bias_initializer=tf.constant_initializer(0.3),
               name="g2")(x, tf.zeros([B, H]))
    c = rc.LSTMCell(H, initializer=tf.constant_initializer(0.2), use_peepholes=True, num_proj=3, name="l1")
    c(x, c.zero_state(B, tf.float32))
    c = rc.BasicLSTMCell(H, name="b1")
    c(x, c.zero_state(B, tf.float32))


def zero_state_cells(tf):
    """(bs, cells): an int32 batch-size placeholder and cells whose zero states are compared."""
    rc = _rc(tf)
    return tf.placeholder(tf.int32, []), [rc.BasicLSTMCell(H), rc.LSTMCell(H, num_proj=2, state_is_tuple=False),
                                          rc.MultiRNNCell([rc.GRUCell(3), rc.BasicLSTMCell(2)])]


def zero_states(tf, bs, cells):
    """[type name, [[dtype, shape] of each leaf]] of each cell's float32 zero state for batch sizes B and `bs`."""
    out = []
    for c in cells:
        for b in (B, bs):
            z = c.zero_state(b, tf.float32)
            out.append([type(z).__name__, [[leaf.dtype.name, leaf.shape.as_list()] for leaf in tf.nest.flatten(z)]])
    return out


def _names(tf):
    return [[v.op.name, v.shape.as_list()] for v in tf.global_variables()]


def scoping_names(tf):
    """Variable names in situations where TF's scoping rules matter, each situation in a new graph."""
    out = {}
    rc = _rc(tf)
    with tf.Graph().as_default():  # two cells with the same explicit name in one scope
        xs = [tf.placeholder(tf.float32, [B, D])]
        tf.nn.static_rnn(rc.GRUCell(H, name="foo"), xs, dtype=tf.float32, scope="a")
        tf.nn.static_rnn(rc.GRUCell(H, name="foo"), xs, dtype=tf.float32, scope="b")
        c1, c2 = rc.BasicRNNCell(H, name="same"), rc.BasicRNNCell(H, name="same")
        with tf.variable_scope("c"):
            c1(xs[0], c1.zero_state(B, tf.float32))
            c2(xs[0], c2.zero_state(B, tf.float32))
        out["same_name"] = _names(tf)
    with tf.Graph().as_default():  # a cell built in one scope keeps its variables when called in another
        xs = [tf.placeholder(tf.float32, [B, D])]
        cell = rc.BasicLSTMCell(H)
        tf.nn.static_rnn(cell, xs, dtype=tf.float32)
        tf.nn.static_rnn(cell, xs, dtype=tf.float32, scope="other")
        with tf.variable_scope("explicit"):
            c3 = rc.GRUCell(H)
            c3(xs[0], tf.zeros([B, H]), scope="inner")
        c4 = rc.BasicRNNCell(H)
        c4(xs[0], tf.zeros([B, H]))
        for c in [rc.BasicRNNCell(H), rc.BasicRNNCell(H)]:
            c(xs[0], tf.zeros([B, H]))
        out["scopes"] = _names(tf)
        out["weights"] = [[v.op.name for v in cell.trainable_weights], [v.op.name for v in c3.weights]]
    with tf.Graph().as_default():  # stacked cells and the same weights twice with reuse=True
        xs = [tf.placeholder(tf.float32, [B, D])]
        multi = rc.MultiRNNCell([rc.BasicLSTMCell(H), rc.LSTMCell(3, use_peepholes=True, num_proj=2)])
        tf.nn.static_rnn(multi, xs, dtype=tf.float32, scope="enc")
        with tf.variable_scope(tf.get_variable_scope(), reuse=True):
            tf.nn.static_rnn(rc.MultiRNNCell([rc.BasicLSTMCell(H), rc.LSTMCell(3, use_peepholes=True, num_proj=2)]),
                             xs, dtype=tf.float32, scope="enc")
        out["multi"] = _names(tf)
        out["multi_weights"] = [v.op.name for v in multi.weights]
    return out


def error_calls(tf):
    """{name: call}: calls that raise (each is run in a new graph)."""
    rc = _rc(tf)
    x = lambda: [tf.placeholder(tf.float32, [B, D]) for _ in range(2)]  # noqa: E731

    def twice():
        xs = x()
        tf.nn.static_rnn(rc.BasicLSTMCell(H), xs, dtype=tf.float32)
        tf.nn.static_rnn(rc.BasicLSTMCell(H), xs, dtype=tf.float32)

    def rank3():
        c = rc.BasicLSTMCell(H)
        c(tf.placeholder(tf.float32, [B, 2, D]), c.zero_state(B, tf.float32))

    def unknown_depth():
        c = rc.GRUCell(H)
        c(tf.placeholder(tf.float32, [B, None]), c.zero_state(B, tf.float32))

    return {
        "twice": twice,
        "reuse_missing": lambda: tf.nn.static_rnn(rc.BasicLSTMCell(H, reuse=True), x(), dtype=tf.float32),
        "rank3": rank3,
        "unknown_depth": unknown_depth,
        "int_inputs": lambda: rc.BasicRNNCell(H)(tf.placeholder(tf.int32, [B, D]), tf.zeros([B, H], tf.int32)),
        "int_dtype": lambda: rc.BasicRNNCell(H, dtype=tf.int32),
        "bad_keep": lambda: rc.DropoutWrapper(rc.GRUCell(H), input_keep_prob=2.0),
        "variational_no_dtype": lambda: rc.DropoutWrapper(rc.GRUCell(H), variational_recurrent=True),
        "variational_no_input_size": lambda: rc.DropoutWrapper(rc.GRUCell(H), input_keep_prob=0.5,
                                                               variational_recurrent=True, dtype=tf.float32),
        "multi_empty": lambda: rc.MultiRNNCell([]),
        "multi_tuple_flag": lambda: rc.MultiRNNCell([rc.BasicLSTMCell(H)], state_is_tuple=False),
        "not_a_cell": lambda: tf.nn.static_rnn(object(), x(), dtype=tf.float32),
        "not_a_sequence": lambda: tf.nn.static_rnn(rc.GRUCell(H), tf.placeholder(tf.float32, [B, D]),
                                                   dtype=tf.float32),
        "empty_inputs": lambda: tf.nn.static_rnn(rc.GRUCell(H), [], dtype=tf.float32),
        "no_dtype": lambda: tf.nn.static_rnn(rc.GRUCell(H), x()),
        "unknown_input_size": lambda: tf.nn.static_rnn(rc.GRUCell(H), [tf.placeholder(tf.float32, [B, None])],
                                                       dtype=tf.float32),
        "residual_mismatch": lambda: rc.ResidualWrapper(rc.BasicRNNCell(H))(tf.placeholder(tf.float32, [B, D]),
                                                                            tf.zeros([B, H])),
        "initial_state_batch": lambda: rc.GRUCell(H).get_initial_state(inputs=tf.zeros([B, D]), batch_size=B + 1,
                                                                       dtype=tf.float32),
        "initial_state_none": lambda: rc.GRUCell(H).get_initial_state(),
    }
