"""`tf.contrib.seq2seq.BeamSearchDecoder` on a bigram model whose beams are worked out by hand,
`tile_batch`, `gather_tree_from_array`, and a small NMT model (embedding + LSTM encoder + attention
decoder) that trains with a `TrainingHelper` and decodes greedily and with beam search."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib import seq2seq
from tests.contrib.test_seq2seq_decode import EOS, GO, A, B, BigramCell, V

L = np.log


def _beam(beam_width=2, length_penalty_weight=0.0, maximum_iterations=4, start=(GO,), batch_rows=None):
    with tf.Graph().as_default():
        cell = BigramCell()
        n = len(start)
        dec = seq2seq.BeamSearchDecoder(cell, np.eye(V, dtype=np.float32), list(start), EOS,
                                        cell.zero_state(n * beam_width, tf.float32), beam_width,
                                        length_penalty_weight=length_penalty_weight)
        out, state, lengths = seq2seq.dynamic_decode(dec, maximum_iterations=maximum_iterations)
        assert isinstance(out, seq2seq.FinalBeamSearchDecoderOutput)
        assert isinstance(out.beam_search_decoder_output, seq2seq.BeamSearchDecoderOutput)
        assert isinstance(state, seq2seq.BeamSearchDecoderState)
        assert out.predicted_ids.shape.as_list() == [n, None, beam_width]
        with tf.Session() as s:
            return s.run([out, state, lengths])


# The hand-worked search (beam width 2, P from test_seq2seq_decode):
#   t0: from GO only beam 0 is live: a (.5), b (.4).
#   t1: bb = .4 * .8 = .32, aE = .5 * .59 = .295 (next: ab = aa = .1, ba = .04, bE = .036).
#   t2: aE is finished and keeps .295 with EOS; bbb = .256. Beams: [aE E (.295), bbb (.256)].
#   t3: [aE E E (.295), bbbb (.2048)].
def test_beam_search_by_hand():
    out, state, _ = _beam()
    bs = out.beam_search_decoder_output
    np.testing.assert_array_equal(bs.predicted_ids[0], [[A, B], [B, EOS], [EOS, B], [EOS, B]])
    np.testing.assert_array_equal(bs.parent_ids[0], [[0, 0], [1, 0], [1, 0], [0, 1]])
    want = np.log([[.5, .4], [.32, .295], [.295, .256], [.295, .2048]])
    np.testing.assert_allclose(bs.scores[0], want, rtol=1e-5)
    np.testing.assert_allclose(state.log_probs[0], want[-1], rtol=1e-5)
    # The end token counts in a beam's length; a finished beam stops growing.
    np.testing.assert_array_equal(state.lengths, [[2, 4]])
    np.testing.assert_array_equal(state.finished, [[True, False]])
    # Followed back through the parents, each beam's sequence (padded with the end token).
    np.testing.assert_array_equal(out.predicted_ids[0], [[A, B], [EOS, B], [EOS, B], [EOS, B]])
    assert state.lengths.dtype == np.int64 and out.predicted_ids.dtype == np.int32


# With length_penalty_weight = 1 each score is log p / ((5 + length) / 6), where a continuation's
# length adds 1 unless its token is the end token (TF scores aE at t1 with length 1, then stores
# length 2): at t2 bbb (length 3) scores log(.256) / (8/6) = -1.0220 above aE E (length 2)
# log(.295) / (7/6) = -1.0464, so the beams swap; at t3 aE E (-1.0464) is above bbbb
# (log(.2048) / (9/6) = -1.0571).
def test_length_penalty_by_hand():
    out, state, _ = _beam(length_penalty_weight=1.0)
    bs = out.beam_search_decoder_output
    np.testing.assert_array_equal(bs.predicted_ids[0], [[A, B], [B, EOS], [B, EOS], [EOS, B]])
    np.testing.assert_array_equal(bs.parent_ids[0], [[0, 0], [1, 0], [0, 1], [1, 0]])
    lp = lambda n: (5.0 + n) / 6.0  # noqa: E731
    want = [[L(.5) / lp(1), L(.4) / lp(1)], [L(.32) / lp(2), L(.295) / lp(1)],
            [L(.256) / lp(3), L(.295) / lp(2)], [L(.295) / lp(2), L(.2048) / lp(4)]]
    np.testing.assert_allclose(bs.scores[0], want, rtol=1e-5)
    np.testing.assert_array_equal(out.predicted_ids[0], [[A, B], [EOS, B], [EOS, B], [EOS, B]])
    np.testing.assert_array_equal(state.lengths, [[2, 4]])


def test_beam_search_batch_and_early_stop():
    # Entry 1 starts at a: a -> E (.59) is best and every beam ends by t2, but entry 0 keeps running.
    out, state, lengths = _beam(beam_width=3, start=(GO, A), maximum_iterations=10)
    bs = out.beam_search_decoder_output
    assert out.predicted_ids.shape[1] == 10  # entry 0 never finishes (b -> b)
    np.testing.assert_array_equal(bs.predicted_ids[1, 0], [EOS, A, B])
    np.testing.assert_allclose(bs.scores[1, 0], np.log([.59, .2, .2]), rtol=1e-5)
    # Step 1 for entry 1: E continues (.59); a -> E (.2 * .59 = .118) and b -> b (.2 * .8 = .16).
    np.testing.assert_array_equal(bs.predicted_ids[1, 1], [EOS, B, EOS])
    np.testing.assert_array_equal(bs.parent_ids[1, 1], [0, 2, 1])
    np.testing.assert_allclose(bs.scores[1, 1], np.log([.59, .16, .118]), rtol=1e-5)
    assert lengths.shape == (2, 3)


def test_tile_batch():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    with tf.Graph().as_default():
        t = seq2seq.tile_batch(x, 3)
        nested = seq2seq.tile_batch((tf.constant([1, 2]), {"a": tf.placeholder(tf.float32, [None, 4])}), 2)
        assert t.shape.as_list() == [6, 3]
        assert nested[0].shape.as_list() == [4] and nested[1]["a"].shape.as_list() == [None, 4]
        got, got0 = tf.Session().run([t, nested[0]])
        with pytest.raises(ValueError, match="t must have statically known rank"):
            seq2seq.tile_batch(tf.constant(1.0), 2)
    np.testing.assert_array_equal(got, np.repeat(x, 3, axis=0))
    np.testing.assert_array_equal(got0, [1, 1, 2, 2])


def test_gather_tree_from_array():
    # [max_time=3, batch=1, beam=2] parents; values [time, batch * beam, depth 1].
    parent_ids = np.array([[[0, 0]], [[1, 0]], [[1, 0]]], np.int32)
    values = np.array([[[10.], [11.]], [[20.], [21.]], [[30.], [31.]]], np.float32)
    with tf.Graph().as_default():
        out = seq2seq.gather_tree_from_array(tf.constant(values), tf.constant(parent_ids),
                                             tf.constant([[3, 2]], tf.int64))
        got = tf.Session().run(out)
    # The beams are followed back from the longest length (3): beam 0: t2 own (30), parent 1 at t1
    # (21), its parent 0 at t0 (10); beam 1: parent 0 at t1 (20), its parent 1 at t0 (11). Beam 1's
    # t2, past its length 2, is its own value.
    np.testing.assert_array_equal(got[:, :, 0], [[10., 11.], [21., 20.], [30., 31.]])


def test_beam_search_errors():
    with tf.Graph().as_default():
        cell = BigramCell()
        emb = np.eye(V, dtype=np.float32)
        with pytest.raises(ValueError, match="start_tokens must be a vector"):
            seq2seq.BeamSearchDecoder(cell, emb, GO, EOS, cell.zero_state(2, tf.float32), 2)
        with pytest.raises(ValueError, match="end_token must be a scalar"):
            seq2seq.BeamSearchDecoder(cell, emb, [GO], [EOS], cell.zero_state(2, tf.float32), 2)
        with pytest.raises(TypeError, match="output_layer must be a Layer"):
            seq2seq.BeamSearchDecoder(cell, emb, [GO], EOS, cell.zero_state(2, tf.float32), 2, output_layer=abs)
        with pytest.raises(ValueError, match="Cannot reshape a tensor with 3 elements"):
            seq2seq.BeamSearchDecoder(cell, emb, [GO], EOS, cell.zero_state(3, tf.float32), 2)
        with pytest.raises(NotImplementedError, match="coverage_penalty_weight"):
            seq2seq.BeamSearchDecoder(cell, emb, [GO], EOS, cell.zero_state(2, tf.float32), 2,
                                      coverage_penalty_weight=0.5)


def test_nmt_model_trains_and_decodes():
    """The classic NMT tutorial's model: learn to copy a short source sentence."""
    vocab, emb_dim, units, beam_width, sos, eos = 8, 6, 16, 3, 1, 2
    rng = np.random.RandomState(0)
    src_ids = rng.randint(3, vocab, (4, 3)).astype(np.int32)
    src_lengths = np.array([3, 3, 2, 3], np.int32)
    tgt_in = np.concatenate([np.full((4, 1), sos), src_ids], 1).astype(np.int32)
    tgt_out = np.concatenate([src_ids, np.full((4, 1), eos)], 1).astype(np.int32)
    tgt_out[2, 2] = eos
    tgt_lengths = src_lengths + 1
    with tf.Graph().as_default():
        tf.set_random_seed(0)
        src = tf.placeholder(tf.int32, [None, None])
        src_len = tf.placeholder(tf.int32, [None])
        dec_in = tf.placeholder(tf.int32, [None, None])
        dec_out = tf.placeholder(tf.int32, [None, None])
        dec_len = tf.placeholder(tf.int32, [None])
        batch = tf.shape(src)[0]
        embedding = tf.get_variable("embedding", [vocab, emb_dim])
        with tf.variable_scope("encoder"):
            enc_cell = tf.nn.rnn_cell.BasicLSTMCell(units)
            enc_out, enc_state = tf.nn.dynamic_rnn(enc_cell, tf.nn.embedding_lookup(embedding, src),
                                                   sequence_length=src_len, dtype=tf.float32)
        dec_cell = tf.nn.rnn_cell.BasicLSTMCell(units)
        projection = tf.layers.Dense(vocab, use_bias=False, name="output_projection")
        with tf.variable_scope("decode"):
            mech = seq2seq.LuongAttention(units, enc_out, memory_sequence_length=src_len, scale=True)
            cell = seq2seq.AttentionWrapper(dec_cell, mech, attention_layer_size=units)
            init = cell.zero_state(batch, tf.float32).clone(cell_state=enc_state)
            helper = seq2seq.TrainingHelper(tf.nn.embedding_lookup(embedding, dec_in), dec_len)
            train_out, _, _ = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, init, projection))
            weights = tf.sequence_mask(dec_len, tf.shape(dec_out)[1], dtype=tf.float32)
            loss = seq2seq.sequence_loss(train_out.rnn_output, dec_out, weights)
        train = tf.train.AdamOptimizer(0.05).minimize(loss)
        n_vars = len(tf.trainable_variables())
        with tf.variable_scope("decode", reuse=True):
            greedy = seq2seq.GreedyEmbeddingHelper(embedding, tf.fill([batch], sos), eos)
            greedy_out, _, _ = seq2seq.dynamic_decode(
                seq2seq.BasicDecoder(cell, greedy, cell.zero_state(batch, tf.float32).clone(cell_state=enc_state),
                                     projection), maximum_iterations=6)
        with tf.variable_scope("decode", reuse=True):
            tiled_mech = seq2seq.LuongAttention(units, seq2seq.tile_batch(enc_out, beam_width),
                                                memory_sequence_length=seq2seq.tile_batch(src_len, beam_width),
                                                scale=True)
            beam_cell = seq2seq.AttentionWrapper(dec_cell, tiled_mech, attention_layer_size=units)
            beam_init = beam_cell.zero_state(batch * beam_width, tf.float32).clone(
                cell_state=seq2seq.tile_batch(enc_state, beam_width))
            beam_dec = seq2seq.BeamSearchDecoder(beam_cell, embedding, tf.fill([batch], sos), eos, beam_init,
                                                 beam_width, output_layer=projection, length_penalty_weight=0.2)
            beam_out, _, _ = seq2seq.dynamic_decode(beam_dec, maximum_iterations=6)
        # Inference shares every variable of training.
        assert len(tf.trainable_variables()) == n_vars
        names = {v.op.name for v in tf.trainable_variables()}
        assert {"decode/memory_layer/kernel", "decode/decoder/attention_wrapper/basic_lstm_cell/kernel",
                "decode/decoder/attention_wrapper/luong_attention/attention_g",
                "decode/decoder/attention_wrapper/attention_layer/kernel",
                "decode/decoder/output_projection/kernel"} <= names
        feed = {src: src_ids, src_len: src_lengths, dec_in: tgt_in, dec_out: tgt_out, dec_len: tgt_lengths}
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            losses = [s.run([loss, train], feed)[0] for _ in range(40)]
            g, b = s.run([greedy_out.sample_id, beam_out.predicted_ids], {src: src_ids, src_len: src_lengths})
    assert losses[-1] < 0.2 * losses[0]
    assert b.shape[0] == 4 and b.shape[2] == beam_width
    for i in range(4):
        want = list(tgt_out[i, :tgt_lengths[i]])
        assert list(g[i, :len(want)]) == want
        assert list(b[i, :len(want), 0]) == want


def test_alignment_history_is_reordered_by_the_beams():
    memory = np.random.RandomState(0).randn(2, 5, 3).astype(np.float32)
    beam_width = 3
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        tiled = seq2seq.tile_batch(memory, beam_width)
        lengths = seq2seq.tile_batch(np.array([5, 3], np.int32), beam_width)
        mech = seq2seq.LuongAttention(4, tiled, memory_sequence_length=lengths)
        cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(4), mech, alignment_history=True)
        embedding = tf.get_variable("embedding", [6, 2])
        layer = tf.layers.Dense(6)
        results = []
        for reorder in (True, False):
            dec = seq2seq.BeamSearchDecoder(cell, embedding, [0, 0], 1, cell.zero_state(2 * beam_width, tf.float32),
                                            beam_width, output_layer=layer, reorder_tensor_arrays=reorder)
            with tf.variable_scope(tf.get_variable_scope(), reuse=not reorder):
                results.append(seq2seq.dynamic_decode(dec, maximum_iterations=4, scope="dd"))
        (out, state, _), (_, raw_state, _) = results
        history = state.cell_state.alignment_history
        assert history.shape.as_list() == [None, 2 * beam_width, 5]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            h, raw, parents, lens = s.run([history, raw_state.cell_state.alignment_history.stack(),
                                           out.beam_search_decoder_output.parent_ids, state.lengths])
    # Each final beam's ancestors, followed back from the entry's longest beam; a step past the
    # beam's own length keeps its own row.
    steps = h.shape[0]
    for b in range(2):
        longest = lens[b].max()
        for k in range(beam_width):
            ancestor = k
            for t in reversed(range(steps)):
                current = k
                if t < longest:
                    current, ancestor = ancestor, parents[b, t, ancestor]
                row = current if t < lens[b, k] else k
                np.testing.assert_allclose(h[t, b * beam_width + k], raw[t, b * beam_width + row], rtol=1e-6)
