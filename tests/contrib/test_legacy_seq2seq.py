"""`tf.contrib.legacy_seq2seq` (TF 1.15's static seq2seq models and losses).

TF 2.x has no legacy_seq2seq, so values are checked against NumPy re-implementations of the
recurrences run with the very weights the graph created; the variable-name lists are TF 1.15's
(what a TF 1.15 graph built with the same calls lists in `tf.global_variables()`, so that TF1
checkpoints restore).
"""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib import legacy_seq2seq

seq2seq = tf.contrib.legacy_seq2seq
B = 3


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _vars(sess):
    return {v.op.name: sess.run(v) for v in tf.global_variables()}


def _names_shapes():
    return [(v.op.name, tuple(v.shape.as_list())) for v in tf.global_variables()]


def _rnn_step(w, x, h):
    return np.tanh(np.concatenate([x, h], 1) @ w["kernel"] + w["bias"])


def _gru_step(w, x, h):
    xh = np.concatenate([x, h], 1)
    ru = _sigmoid(xh @ w["gates/kernel"] + w["gates/bias"])
    r, u = np.split(ru, 2, axis=1)
    c = np.tanh(np.concatenate([x, r * h], 1) @ w["candidate/kernel"] + w["candidate/bias"])
    return u * h + (1 - u) * c


def _sub(values, prefix):
    return {k[len(prefix):]: v for k, v in values.items() if k.startswith(prefix)}


def test_module_is_reachable():
    assert tf.contrib.legacy_seq2seq is legacy_seq2seq
    assert "legacy_seq2seq" in tf.contrib.__all__
    for name in legacy_seq2seq.__all__:
        assert callable(getattr(seq2seq, name))


def test_rnn_decoder_matches_numpy_with_and_without_loop_function():
    rng = np.random.RandomState(0)
    xs = rng.randn(3, B, 2).astype(np.float32)
    h0 = rng.randn(B, 2).astype(np.float32)
    with tf.Graph().as_default():
        cell = tf.nn.rnn_cell.BasicRNNCell(2)
        outs, state = seq2seq.rnn_decoder([tf.constant(x) for x in xs], tf.constant(h0), cell)
        loop_outs, _ = seq2seq.rnn_decoder([tf.constant(x) for x in xs], tf.constant(h0), cell,
                                           loop_function=lambda prev, i: prev * 2.0, scope="looped")
        # TF 1.15's names: the first call builds the cell in scope rnn_decoder; the second reuses it.
        assert _names_shapes() == [("rnn_decoder/basic_rnn_cell/kernel", (4, 2)),
                                   ("rnn_decoder/basic_rnn_cell/bias", (2,))]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            w = _sub(_vars(sess), "rnn_decoder/basic_rnn_cell/")
            got, got_state, got_loop = sess.run([outs, state, loop_outs])
    h, want = h0, []
    for x in xs:
        h = _rnn_step(w, x, h)
        want.append(h)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_state, want[-1], rtol=1e-5, atol=1e-5)
    h, inp, want_loop = h0, xs[0], []
    for _ in xs:
        h = _rnn_step(w, inp, h)
        want_loop.append(h)
        inp = h * 2.0
    np.testing.assert_allclose(got_loop, want_loop, rtol=1e-5, atol=1e-5)


def test_basic_rnn_seq2seq_names_and_values():
    rng = np.random.RandomState(1)
    enc = rng.randn(2, B, 3).astype(np.float32)
    dec = rng.randn(2, B, 3).astype(np.float32)
    with tf.Graph().as_default():
        outs, state = seq2seq.basic_rnn_seq2seq([tf.constant(x) for x in enc], [tf.constant(x) for x in dec],
                                                tf.nn.rnn_cell.GRUCell(4))
        # TF 1.15's names: the encoder runs a deep copy of the cell.
        assert _names_shapes() == [
            ("basic_rnn_seq2seq/rnn/gru_cell/gates/kernel", (7, 8)),
            ("basic_rnn_seq2seq/rnn/gru_cell/gates/bias", (8,)),
            ("basic_rnn_seq2seq/rnn/gru_cell/candidate/kernel", (7, 4)),
            ("basic_rnn_seq2seq/rnn/gru_cell/candidate/bias", (4,)),
            ("basic_rnn_seq2seq/rnn_decoder/gru_cell/gates/kernel", (7, 8)),
            ("basic_rnn_seq2seq/rnn_decoder/gru_cell/gates/bias", (8,)),
            ("basic_rnn_seq2seq/rnn_decoder/gru_cell/candidate/kernel", (7, 4)),
            ("basic_rnn_seq2seq/rnn_decoder/gru_cell/candidate/bias", (4,))]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = _vars(sess)
            got, got_state = sess.run([outs, state])
    we = _sub(values, "basic_rnn_seq2seq/rnn/gru_cell/")
    wd = _sub(values, "basic_rnn_seq2seq/rnn_decoder/gru_cell/")
    h = np.zeros((B, 4))
    for x in enc:
        h = _gru_step(we, x, h)
    want = []
    for x in dec:
        h = _gru_step(wd, x, h)
        want.append(h)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_state, h, rtol=1e-5, atol=1e-5)


def test_tied_rnn_seq2seq_shares_one_cell():
    rng = np.random.RandomState(2)
    enc = rng.randn(2, B, 3).astype(np.float32)
    dec = rng.randn(2, B, 3).astype(np.float32)
    with tf.Graph().as_default():
        outs, _ = seq2seq.tied_rnn_seq2seq([tf.constant(x) for x in enc], [tf.constant(x) for x in dec],
                                           tf.nn.rnn_cell.BasicRNNCell(3))
        assert _names_shapes() == [("combined_tied_rnn_seq2seq/tied_rnn_seq2seq/basic_rnn_cell/kernel", (6, 3)),
                                   ("combined_tied_rnn_seq2seq/tied_rnn_seq2seq/basic_rnn_cell/bias", (3,))]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            w = _sub(_vars(sess), "combined_tied_rnn_seq2seq/tied_rnn_seq2seq/basic_rnn_cell/")
            got = sess.run(outs)
    h = np.zeros((B, 3))
    for x in enc:
        h = _rnn_step(w, x, h)
    want = []
    for x in dec:
        h = _rnn_step(w, x, h)
        want.append(h)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _np_attention_decoder(values, prefix, cell_prefix, xs, h0, att, num_heads, initial_state_attention):
    """NumPy attention_decoder with a BasicRNNCell."""
    p = _sub(values, prefix)
    wc = _sub(values, prefix + cell_prefix)
    attn_size = att.shape[2]

    def attention(query):
        reads = []
        for a in range(num_heads):
            feats = att @ p["AttnW_%d" % a][0, 0]
            y = query @ p["Attention_%d/kernel" % a] + p["Attention_%d/bias" % a]
            s = (p["AttnV_%d" % a] * np.tanh(feats + y[:, None, :])).sum(-1)
            reads.append((_softmax(s)[:, :, None] * att).sum(1))
        return reads

    attns = attention(h0) if initial_state_attention else [np.zeros((B, attn_size))] * num_heads
    h, outs = h0, []
    for x in xs:
        cell_in = np.concatenate([x] + attns, 1) @ p["kernel"] + p["bias"]
        h = _rnn_step(wc, cell_in, h)
        attns = attention(h)
        outs.append(np.concatenate([h] + attns, 1) @ p["AttnOutputProjection/kernel"] + p["AttnOutputProjection/bias"])
    return outs, h


@pytest.mark.parametrize("num_heads,initial_state_attention", [(1, False), (2, True)])
def test_attention_decoder_matches_numpy(num_heads, initial_state_attention):
    rng = np.random.RandomState(3)
    xs = rng.randn(2, B, 2).astype(np.float32)
    h0 = rng.randn(B, 3).astype(np.float32)
    att = rng.randn(B, 4, 5).astype(np.float32)
    with tf.Graph().as_default():
        outs, state = seq2seq.attention_decoder([tf.constant(x) for x in xs], tf.constant(h0), tf.constant(att),
                                                tf.nn.rnn_cell.BasicRNNCell(3), output_size=6, num_heads=num_heads,
                                                initial_state_attention=initial_state_attention)
        # TF 1.15's names and shapes (core_rnn_cell._Linear's kernel/bias in the current scope).
        want_names = []
        for a in range(num_heads):
            want_names += [("attention_decoder/AttnW_%d" % a, (1, 1, 5, 5)), ("attention_decoder/AttnV_%d" % a, (5,))]
        attention = []
        for a in range(num_heads):
            attention += [("attention_decoder/Attention_%d/kernel" % a, (3, 5)),
                          ("attention_decoder/Attention_%d/bias" % a, (5,))]
        if initial_state_attention:
            want_names += attention
        want_names += [("attention_decoder/kernel", (2 + 5 * num_heads, 2)), ("attention_decoder/bias", (2,)),
                       ("attention_decoder/basic_rnn_cell/kernel", (5, 3)),
                       ("attention_decoder/basic_rnn_cell/bias", (3,))]
        if not initial_state_attention:
            want_names += attention
        want_names += [("attention_decoder/AttnOutputProjection/kernel", (3 + 5 * num_heads, 6)),
                       ("attention_decoder/AttnOutputProjection/bias", (6,))]
        assert _names_shapes() == want_names
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = _vars(sess)
            got, got_state = sess.run([outs, state])
    want, want_state = _np_attention_decoder(values, "attention_decoder/", "basic_rnn_cell/", xs, h0, att,
                                             num_heads, initial_state_attention)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_state, want_state, rtol=1e-4, atol=1e-5)


def test_attention_decoder_errors():
    with tf.Graph().as_default():
        att = tf.zeros([B, 4, 5])
        h0 = tf.zeros([B, 3])
        cell = tf.nn.rnn_cell.BasicRNNCell(3)
        with pytest.raises(ValueError, match="Must provide at least 1 input to attention decoder."):
            seq2seq.attention_decoder([], h0, att, cell)
        with pytest.raises(ValueError, match="With less than 1 heads, use a non-attention decoder."):
            seq2seq.attention_decoder([tf.zeros([B, 2])], h0, att, cell, num_heads=0)
        with pytest.raises(ValueError, match=r"Shape\[2\] of attention_states must be known"):
            seq2seq.attention_decoder([tf.zeros([B, 2])], h0, tf.placeholder(tf.float32, [B, 4, None]), cell)
        with pytest.raises(ValueError, match="Could not infer input size from input"):
            seq2seq.attention_decoder([tf.placeholder(tf.float32, [B, None])], h0, att, cell)


# TF 1.15's variables for embedding_attention_seq2seq(enc, dec, GRUCell(4), 5, 6, 3).
EMBEDDING_ATTENTION_SEQ2SEQ_VARS = [
    ("embedding_attention_seq2seq/rnn/embedding_wrapper/embedding", (5, 3)),
    ("embedding_attention_seq2seq/rnn/embedding_wrapper/gru_cell/gates/kernel", (7, 8)),
    ("embedding_attention_seq2seq/rnn/embedding_wrapper/gru_cell/gates/bias", (8,)),
    ("embedding_attention_seq2seq/rnn/embedding_wrapper/gru_cell/candidate/kernel", (7, 4)),
    ("embedding_attention_seq2seq/rnn/embedding_wrapper/gru_cell/candidate/bias", (4,)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/embedding", (6, 3)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/AttnW_0", (1, 1, 4, 4)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/AttnV_0", (4,)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/kernel", (7, 3)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/bias", (3,)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/output_projection_wrapper/"
     "gru_cell/gates/kernel", (7, 8)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/output_projection_wrapper/"
     "gru_cell/gates/bias", (8,)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/output_projection_wrapper/"
     "gru_cell/candidate/kernel", (7, 4)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/output_projection_wrapper/"
     "gru_cell/candidate/bias", (4,)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/output_projection_wrapper/kernel",
     (4, 6)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/output_projection_wrapper/bias",
     (6,)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/Attention_0/kernel", (4, 4)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/Attention_0/bias", (4,)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/AttnOutputProjection/kernel",
     (10, 6)),
    ("embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/AttnOutputProjection/bias", (6,)),
]

# TF 1.15's variables for embedding_rnn_seq2seq(enc, dec, BasicLSTMCell(4), 5, 6, 3).
EMBEDDING_RNN_SEQ2SEQ_VARS = [
    ("embedding_rnn_seq2seq/rnn/embedding_wrapper/embedding", (5, 3)),
    ("embedding_rnn_seq2seq/rnn/embedding_wrapper/basic_lstm_cell/kernel", (7, 16)),
    ("embedding_rnn_seq2seq/rnn/embedding_wrapper/basic_lstm_cell/bias", (16,)),
    ("embedding_rnn_seq2seq/embedding_rnn_decoder/embedding", (6, 3)),
    ("embedding_rnn_seq2seq/embedding_rnn_decoder/rnn_decoder/output_projection_wrapper/basic_lstm_cell/kernel",
     (7, 16)),
    ("embedding_rnn_seq2seq/embedding_rnn_decoder/rnn_decoder/output_projection_wrapper/basic_lstm_cell/bias",
     (16,)),
    ("embedding_rnn_seq2seq/embedding_rnn_decoder/rnn_decoder/output_projection_wrapper/kernel", (4, 6)),
    ("embedding_rnn_seq2seq/embedding_rnn_decoder/rnn_decoder/output_projection_wrapper/bias", (6,)),
]

# TF 1.15's variables for embedding_tied_rnn_seq2seq(enc, dec, BasicRNNCell(4), 6, 3).
EMBEDDING_TIED_VARS = [
    ("embedding_tied_rnn_seq2seq/embedding", (6, 3)),
    ("embedding_tied_rnn_seq2seq/combined_tied_rnn_seq2seq/tied_rnn_seq2seq/output_projection_wrapper/"
     "basic_rnn_cell/kernel", (7, 4)),
    ("embedding_tied_rnn_seq2seq/combined_tied_rnn_seq2seq/tied_rnn_seq2seq/output_projection_wrapper/"
     "basic_rnn_cell/bias", (4,)),
    ("embedding_tied_rnn_seq2seq/combined_tied_rnn_seq2seq/tied_rnn_seq2seq/output_projection_wrapper/kernel",
     (4, 6)),
    ("embedding_tied_rnn_seq2seq/combined_tied_rnn_seq2seq/tied_rnn_seq2seq/output_projection_wrapper/bias", (6,)),
]

MODELS = {
    "attention": (lambda e, d, fp: seq2seq.embedding_attention_seq2seq(
        e, d, tf.nn.rnn_cell.GRUCell(4), 5, 6, 3, feed_previous=fp), EMBEDDING_ATTENTION_SEQ2SEQ_VARS),
    "rnn": (lambda e, d, fp: seq2seq.embedding_rnn_seq2seq(
        e, d, tf.nn.rnn_cell.BasicLSTMCell(4), 5, 6, 3, feed_previous=fp), EMBEDDING_RNN_SEQ2SEQ_VARS),
    "tied": (lambda e, d, fp: seq2seq.embedding_tied_rnn_seq2seq(
        e, d, tf.nn.rnn_cell.BasicRNNCell(4), 6, 3, feed_previous=fp), EMBEDDING_TIED_VARS),
}


@pytest.mark.parametrize("model", sorted(MODELS))
def test_embedding_seq2seq_feed_previous_is_greedy_argmax_feeding(model):
    """feed_previous=True (a bool tensor here) equals teacher forcing on the argmax of the previous
    outputs; the tensor form builds both decoders on one set of TF 1.15 variables."""
    build, want_vars = MODELS[model]
    rng = np.random.RandomState(4)
    enc_ids = rng.randint(0, 5, (3, B)).astype(np.int32)
    dec_ids = rng.randint(0, 6, (3, B)).astype(np.int32)
    with tf.Graph().as_default():
        enc = [tf.placeholder(tf.int32, [None]) for _ in range(3)]
        dec = [tf.placeholder(tf.int32, [None]) for _ in range(3)]
        fp = tf.placeholder(tf.bool, [])
        outs, state = build(enc, dec, fp)
        assert _names_shapes() == want_vars
        assert len(outs) == 3 and outs[0].shape.as_list() == [None, 6]
        feed = dict(zip(enc + dec, list(enc_ids) + list(dec_ids)))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            greedy, greedy_state = sess.run([outs, state], {fp: True, **feed})
            forced_ids = [dec_ids[0]] + [o.argmax(1).astype(np.int32) for o in greedy[:-1]]
            forced_feed = {**feed, **dict(zip(dec, forced_ids)), fp: False}
            forced, forced_state = sess.run([outs, state], forced_feed)
            plain = sess.run(outs, {fp: False, **feed})
    np.testing.assert_allclose(greedy, forced, rtol=1e-5, atol=1e-6)
    for g, f in zip(np.atleast_1d(greedy_state), np.atleast_1d(forced_state)):
        np.testing.assert_allclose(g, f, rtol=1e-5, atol=1e-6)
    # Teacher forcing with the given inputs differs from greedy decoding after the first step.
    np.testing.assert_allclose(plain[0], greedy[0], rtol=1e-5, atol=1e-6)
    assert not np.allclose(plain[1:], greedy[1:])


def test_one2many_rnn_seq2seq_names_values_and_greedy_feeding():
    rng = np.random.RandomState(9)
    enc_ids = rng.randint(0, 5, (2, B)).astype(np.int32)
    dec_ids = {"a": rng.randint(0, 6, (2, B)).astype(np.int32), "b": rng.randint(0, 7, (3, B)).astype(np.int32)}
    with tf.Graph().as_default():
        enc = [tf.constant(x) for x in enc_ids]
        dec = {k: [tf.placeholder(tf.int32, [None]) for _ in v] for k, v in dec_ids.items()}
        fp = tf.placeholder(tf.bool, [])
        outs, states = seq2seq.one2many_rnn_seq2seq(
            enc, dec, tf.nn.rnn_cell.GRUCell(4), {"a": tf.nn.rnn_cell.GRUCell(4), "b": tf.nn.rnn_cell.GRUCell(4)},
            5, {"a": 6, "b": 7}, 3, feed_previous=fp)
        # TF 1.15's names: one encoder, one one2many_decoder_<name> per task.
        gru = [("gru_cell/gates/kernel", (7, 8)), ("gru_cell/gates/bias", (8,)),
               ("gru_cell/candidate/kernel", (7, 4)), ("gru_cell/candidate/bias", (4,))]
        want = [("one2many_rnn_seq2seq/rnn/embedding_wrapper/embedding", (5, 3))]
        want += [("one2many_rnn_seq2seq/rnn/embedding_wrapper/" + n, sh) for n, sh in gru]
        for k, n_sym in (("a", 6), ("b", 7)):
            pre = "one2many_rnn_seq2seq/one2many_decoder_%s/embedding_rnn_decoder/" % k
            want.append((pre + "embedding", (n_sym, 3)))
            want += [(pre + "rnn_decoder/output_projection_wrapper/" + n, sh) for n, sh in gru]
            want += [(pre + "rnn_decoder/output_projection_wrapper/kernel", (4, n_sym)),
                     (pre + "rnn_decoder/output_projection_wrapper/bias", (n_sym,))]
        assert _names_shapes() == want
        feed = {p: x for k in dec for p, x in zip(dec[k], dec_ids[k])}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = _vars(sess)
            forced, forced_states = sess.run([outs, states], {fp: False, **feed})
            greedy = sess.run(outs, {fp: True, **feed})
            greedy_ids = {k: [dec_ids[k][0]] + [o.argmax(1).astype(np.int32) for o in greedy[k][:-1]] for k in dec}
            refed = sess.run(outs, {fp: False, **{p: x for k in dec for p, x in zip(dec[k], greedy_ids[k])}})
        with pytest.raises(TypeError, match="enc_cell is not an RNNCell"):
            seq2seq.one2many_rnn_seq2seq(enc, dec, "cell", {"a": None, "b": None}, 5, {"a": 6, "b": 7}, 3)
        with pytest.raises(ValueError, match="keys of dec_cells_dict != keys of decodre_inputs_dict"):
            seq2seq.one2many_rnn_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(4), {"a": tf.nn.rnn_cell.GRUCell(4)},
                                         5, {"a": 6}, 3)
        with pytest.raises(TypeError, match="dec_cell is not an RNNCell"):
            seq2seq.one2many_rnn_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(4), {"a": 1, "b": 2}, 5,
                                         {"a": 6, "b": 7}, 3)
    h_enc = np.zeros((B, 4))
    we = _sub(values, "one2many_rnn_seq2seq/rnn/embedding_wrapper/")
    for ids in enc_ids:
        h_enc = _gru_step(_sub(we, "gru_cell/"), we["embedding"][ids], h_enc)
    for k in dec:
        wd = _sub(values, "one2many_rnn_seq2seq/one2many_decoder_%s/embedding_rnn_decoder/" % k)
        proj = _sub(wd, "rnn_decoder/output_projection_wrapper/")
        h, logits = h_enc, []
        for ids in dec_ids[k]:
            h = _gru_step(_sub(proj, "gru_cell/"), wd["embedding"][ids], h)
            logits.append(h @ proj["kernel"] + proj["bias"])
        np.testing.assert_allclose(forced[k], logits, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(forced_states[k], h, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(greedy[k], refed[k], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("feed_previous", [True, "tensor"])
def test_output_projection_feeds_argmax_of_projected_outputs(feed_previous):
    """With output_projection=(W, B) there is no output_projection_wrapper, outputs are cell-sized
    and greedy feeding embeds argmax(output @ W + B)."""
    rng = np.random.RandomState(5)
    enc_ids = rng.randint(0, 5, (2, B)).astype(np.int32)
    dec_ids = rng.randint(0, 6, (3, B)).astype(np.int32)
    w_np, b_np = rng.randn(4, 6).astype(np.float32), rng.randn(6).astype(np.float32)
    with tf.Graph().as_default():
        enc = [tf.constant(x) for x in enc_ids]
        dec = [tf.placeholder(tf.int32, [B]) for _ in range(3)]
        fp = tf.placeholder(tf.bool, []) if feed_previous == "tensor" else None
        greedy_outs, _ = seq2seq.embedding_attention_seq2seq(
            enc, dec, tf.nn.rnn_cell.GRUCell(4), 5, 6, 3, output_projection=(tf.constant(w_np), tf.constant(b_np)),
            feed_previous=True if fp is None else fp)
        assert not [v for v in tf.global_variables() if "output_projection_wrapper" in v.op.name]
        assert greedy_outs[0].shape.as_list() == [B, 4]
        with tf.variable_scope(tf.get_variable_scope(), reuse=True):
            forced_outs, _ = seq2seq.embedding_attention_seq2seq(
                enc, dec, tf.nn.rnn_cell.GRUCell(4), 5, 6, 3,
                output_projection=(tf.constant(w_np), tf.constant(b_np)), feed_previous=False)
        feed = dict(zip(dec, dec_ids))
        if fp is not None:
            feed[fp] = True
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            greedy = sess.run(greedy_outs, feed)
            ids = [dec_ids[0]] + [(o @ w_np + b_np).argmax(1).astype(np.int32) for o in greedy[:-1]]
            forced = sess.run(forced_outs, dict(zip(dec, ids)))
        np.testing.assert_allclose(greedy, forced, rtol=1e-5, atol=1e-6)
        with pytest.raises(ValueError, match=r"Shapes \(4, 7\) and \(\?, 6\) are incompatible"):
            seq2seq.embedding_rnn_decoder(dec, tf.zeros([B, 4]), tf.nn.rnn_cell.GRUCell(4), 6, 3,
                                          output_projection=(tf.zeros([4, 7]), tf.zeros([7])), scope="bad")


def test_gradients_reach_every_variable_and_stop_through_fed_embeddings():
    with tf.Graph().as_default():
        enc = [tf.constant([1, 2, 3]) for _ in range(2)]
        dec = [tf.constant([0, 1, 2]) for _ in range(3)]
        fp = tf.placeholder_with_default(False, [])
        outs, _ = seq2seq.embedding_attention_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(4), 5, 6, 3, feed_previous=fp)
        loss = seq2seq.sequence_loss(outs, dec, [tf.ones([3])] * 3)
        grads = tf.gradients(loss, tf.trainable_variables())
        assert len(grads) == len(EMBEDDING_ATTENTION_SEQ2SEQ_VARS)
        assert all(g is not None for g in grads)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for value in (False, True):  # through either branch of the cond
                for g in sess.run(grads, {fp: value}):
                    g = g.values if hasattr(g, "values") else g
                    assert np.isfinite(g).all()
    # feed_previous as a tensor feeds stop_gradient'ed embeddings (update_embedding_for_previous=False).
    with tf.Graph().as_default():
        emb = tf.get_variable("emb", [6, 3])
        loop = legacy_seq2seq._extract_argmax_and_embed(emb, update_embedding=False)
        fed = loop(tf.constant(np.eye(3, 6, dtype=np.float32)), 1)
        assert tf.gradients(tf.reduce_sum(fed), [emb]) == [None]
        fed = legacy_seq2seq._extract_argmax_and_embed(emb)(tf.constant(np.eye(3, 6, dtype=np.float32)), 1)
        assert tf.gradients(tf.reduce_sum(fed), [emb])[0] is not None


LOGITS = np.random.RandomState(6).randn(3, B, 5).astype(np.float32)
TARGETS = np.random.RandomState(7).randint(0, 5, (3, B)).astype(np.int32)
WEIGHTS = np.array([[1, 1, 1], [1, 0.5, 0], [0, 2, 0]], np.float32)


def _np_xent():
    x = LOGITS.astype(np.float64)
    lse = np.log(np.exp(x).sum(-1))
    return (lse - np.take_along_axis(x, TARGETS[..., None].astype(np.int64), -1)[..., 0]) * WEIGHTS


@pytest.mark.parametrize("across_t", [True, False])
@pytest.mark.parametrize("across_b", [True, False])
def test_sequence_losses_match_numpy(across_t, across_b):
    per_step = _np_xent()  # [T, B]
    by_example = per_step.sum(0)
    if across_t:
        by_example = by_example / (WEIGHTS.sum(0) + 1e-12)
    want = by_example.sum() / (B if across_b else 1)
    with tf.Graph().as_default():
        logits = [tf.constant(x) for x in LOGITS]
        targets = [tf.constant(x) for x in TARGETS]
        weights = [tf.constant(x) for x in WEIGHTS]
        per_ex = seq2seq.sequence_loss_by_example(logits, targets, weights, average_across_timesteps=across_t)
        loss = seq2seq.sequence_loss(logits, targets, weights, average_across_timesteps=across_t,
                                     average_across_batch=across_b)
        assert per_ex.shape.as_list() == [B] and loss.shape.ndims == 0
        got_ex, got = tf.Session().run([per_ex, loss])
    np.testing.assert_allclose(got_ex, by_example, rtol=1e-5)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_sequence_loss_custom_softmax_loss_function_and_errors():
    calls = []

    def loss_fn(labels, logits):
        calls.append(labels)
        return tf.reduce_sum(logits, 1) * tf.cast(labels, tf.float32)

    with tf.Graph().as_default():
        logits = [tf.constant(x) for x in LOGITS]
        targets = [tf.constant(x) for x in TARGETS]
        weights = [tf.constant(x) for x in WEIGHTS]
        loss = seq2seq.sequence_loss(logits, targets, weights, average_across_timesteps=False,
                                     softmax_loss_function=loss_fn)
        got = tf.Session().run(loss)
        with pytest.raises(ValueError, match="Lengths of logits, weights, and targets must be the same 3, 2, 3."):
            seq2seq.sequence_loss_by_example(logits, targets, weights[:2])
    assert len(calls) == 3
    want = (LOGITS.sum(-1) * TARGETS * WEIGHTS).sum() / B
    np.testing.assert_allclose(got, want, rtol=1e-5)


def _bucket_graph():
    enc = [tf.placeholder(tf.float32, [None, 2], name="enc%d" % i) for i in range(3)]
    dec = [tf.placeholder(tf.float32, [None, 2], name="dec%d" % i) for i in range(3)]
    targets = [tf.placeholder(tf.int32, [None], name="t%d" % i) for i in range(3)]
    weights = [tf.placeholder(tf.float32, [None], name="w%d" % i) for i in range(3)]
    return enc, dec, targets, weights


def test_model_with_buckets_reuses_variables_and_matches_per_bucket_losses():
    rng = np.random.RandomState(8)
    with tf.Graph().as_default():
        enc, dec, targets, weights = _bucket_graph()

        def model(x, y):
            # As in TF 1.15, a fresh cell per bucket (the seq2seq functions deep-copy the cell,
            # which a cell already built in an earlier bucket does not support).
            return seq2seq.basic_rnn_seq2seq(x, y, tf.nn.rnn_cell.BasicRNNCell(4))

        buckets = [(2, 2), (3, 3)]
        outputs, losses = seq2seq.model_with_buckets(enc, dec, targets, weights, buckets, model)
        with tf.variable_scope(tf.get_variable_scope(), reuse=True):
            _, per_ex = seq2seq.model_with_buckets(enc, dec, targets, weights, buckets, model,
                                                   per_example_loss=True, name="per_example")
        # One set of TF 1.15 basic_rnn_seq2seq variables, shared by every bucket.
        assert _names_shapes() == [("basic_rnn_seq2seq/rnn/basic_rnn_cell/kernel", (6, 4)),
                                   ("basic_rnn_seq2seq/rnn/basic_rnn_cell/bias", (4,)),
                                   ("basic_rnn_seq2seq/rnn_decoder/basic_rnn_cell/kernel", (6, 4)),
                                   ("basic_rnn_seq2seq/rnn_decoder/basic_rnn_cell/bias", (4,))]
        assert [len(o) for o in outputs] == [2, 3] and len(losses) == 2
        assert losses[0].shape.ndims == 0 and per_ex[1].shape.as_list() == [None]
        feed = {p: rng.randn(B, 2) for p in enc + dec}
        feed.update({p: rng.randint(0, 4, B) for p in targets})
        feed.update({p: rng.rand(B) for p in weights})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = _vars(sess)
            got_outs, got_losses, got_per_ex = sess.run([outputs, losses, per_ex], feed)
    we = _sub(values, "basic_rnn_seq2seq/rnn/basic_rnn_cell/")
    wd = _sub(values, "basic_rnn_seq2seq/rnn_decoder/basic_rnn_cell/")
    for j, (n_enc, n_dec) in enumerate(buckets):
        h = np.zeros((B, 4))
        for p in enc[:n_enc]:
            h = _rnn_step(we, feed[p], h)
        logits = []
        for p in dec[:n_dec]:
            h = _rnn_step(wd, feed[p], h)
            logits.append(h)
        np.testing.assert_allclose(got_outs[j], logits, rtol=1e-5, atol=1e-5)
        xent = [np.log(np.exp(lg).sum(1)) - lg[np.arange(B), feed[t]] for lg, t in zip(logits, targets)]
        w = np.array([feed[p] for p in weights[:n_dec]])
        by_example = (np.array(xent) * w).sum(0) / (w.sum(0) + 1e-12)
        np.testing.assert_allclose(got_per_ex[j], by_example, rtol=1e-4)
        np.testing.assert_allclose(got_losses[j], by_example.sum() / B, rtol=1e-4)


def test_model_with_buckets_errors():
    with tf.Graph().as_default():
        enc, dec, targets, weights = _bucket_graph()

        def model(x, y):
            raise AssertionError("not reached")

        with pytest.raises(ValueError, match=r"^Length of encoder_inputs \(3\) must be at least that of last "
                                             r"bucket \(4\)\.$"):
            seq2seq.model_with_buckets(enc, dec, targets, weights, [(2, 2), (4, 3)], model)
        with pytest.raises(ValueError, match=r"^Length of targets \(2\) must be at least that of last bucket \(3\)"):
            seq2seq.model_with_buckets(enc, dec, targets[:2], weights, [(3, 3)], model)
        with pytest.raises(ValueError, match=r"^Length of weights \(1\) must be at least that of last bucket \(3\)"):
            seq2seq.model_with_buckets(enc, dec, targets, weights[:1], [(3, 3)], model)


def test_embedding_attention_seq2seq_learns_to_reverse_digits():
    """A small model learns to reverse 3-digit sequences with Adam (GO symbol 0, digits 1..5), then
    decodes them greedily with feed_previous=True (a bool tensor defaulting to False)."""
    rng = np.random.RandomState(0)
    length, vocab = 3, 6
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        enc = [tf.placeholder(tf.int32, [None]) for _ in range(length)]
        targets = [tf.placeholder(tf.int32, [None]) for _ in range(length)]
        dec = [tf.zeros_like(targets[0])] + targets[:-1]
        feed_previous = tf.placeholder_with_default(False, [])
        outs, _ = seq2seq.embedding_attention_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(16), vocab, vocab, 8,
                                                      feed_previous=feed_previous)
        loss = seq2seq.sequence_loss(outs, targets, [tf.ones([tf.shape(targets[0])[0]])] * length)
        train = tf.train.AdamOptimizer(0.05).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = []
            for _ in range(150):
                seqs = rng.randint(1, vocab, (32, length))
                feed = dict(zip(enc, seqs.T))
                feed.update(zip(targets, seqs[:, ::-1].T))
                losses.append(sess.run([loss, train], feed)[0])
            seqs = rng.randint(1, vocab, (64, length))
            feed = dict(zip(enc, seqs.T))
            feed.update(zip(targets, np.zeros((length, 64), np.int32)))  # only the GO symbol is read
            feed[feed_previous] = True
            predicted = np.array(sess.run(outs, feed)).argmax(-1).T
    assert losses[0] > 1.5
    assert np.mean(losses[-10:]) < 0.3, losses[-10:]
    assert (predicted == seqs[:, ::-1]).mean() > 0.9
