"""A small sequence-to-sequence model with attention in the style of TF1's NMT tutorial: it learns to
reverse sequences of digits (generated, no download). An LSTM encoder (`tf.nn.dynamic_rnn`), a decoder
`tf.contrib.seq2seq.AttentionWrapper` (Luong attention) trained with `TrainingHelper` and
`sequence_loss`, then decoding with `GreedyEmbeddingHelper` and with `BeamSearchDecoder`.

    python examples/seq2seq_attention.py [--steps N] [--logdir DIR]
"""

import argparse
import tempfile

import numpy as np

import tensorweave as tf

seq2seq = tf.contrib.seq2seq
GO, EOS, DIGITS = 10, 11, 10  # tokens 0-9 are digits
VOCAB = 12


def make_batch(rng, batch, min_len=3, max_len=8):
    """Random digit sequences (padded with EOS), their reversals, and the decoder inputs/targets."""
    lengths = rng.randint(min_len, max_len + 1, batch)
    src = np.full((batch, max_len), EOS, np.int32)
    tgt_in = np.full((batch, max_len + 1), EOS, np.int32)
    tgt_out = np.full((batch, max_len + 1), EOS, np.int32)
    for b, n in enumerate(lengths):
        seq = rng.randint(0, DIGITS, n)
        src[b, :n] = seq
        tgt_in[b, 0] = GO
        tgt_in[b, 1:n + 1] = seq[::-1]
        tgt_out[b, :n] = seq[::-1]
    return src, lengths.astype(np.int32), tgt_in, tgt_out, (lengths + 1).astype(np.int32)


class Model:
    def __init__(self, units=64, embed=16, beam_width=3, max_len=8):
        self.src = tf.placeholder(tf.int32, [None, None], "source")
        self.src_len = tf.placeholder(tf.int32, [None], "source_length")
        self.tgt_in = tf.placeholder(tf.int32, [None, None], "target_input")
        self.tgt_out = tf.placeholder(tf.int32, [None, None], "target_output")
        self.tgt_len = tf.placeholder(tf.int32, [None], "target_length")
        batch = tf.shape(self.src)[0]
        embedding = tf.get_variable("embedding", [VOCAB, embed])
        with tf.variable_scope("encoder"):
            enc_out, enc_state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(units),
                                                   tf.nn.embedding_lookup(embedding, self.src),
                                                   sequence_length=self.src_len, dtype=tf.float32)
        projection = tf.layers.Dense(VOCAB, use_bias=False, name="output_projection")

        def decoder_cell(memory, memory_len, initial, batch_size):
            attention = seq2seq.LuongAttention(units, memory, memory_sequence_length=memory_len)
            cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.BasicLSTMCell(units), attention,
                                            attention_layer_size=units)
            return cell, cell.zero_state(batch_size, tf.float32).clone(cell_state=initial)

        with tf.variable_scope("decoder"):
            cell, init = decoder_cell(enc_out, self.src_len, enc_state, batch)
            helper = seq2seq.TrainingHelper(tf.nn.embedding_lookup(embedding, self.tgt_in), self.tgt_len)
            outputs, _, _ = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, init, projection))
        mask = tf.sequence_mask(self.tgt_len, tf.shape(outputs.rnn_output)[1], dtype=tf.float32)
        self.loss = seq2seq.sequence_loss(outputs.rnn_output, self.tgt_out[:, :tf.shape(outputs.rnn_output)[1]],
                                          mask)
        self.train_op = tf.train.AdamOptimizer(0.01).minimize(self.loss)
        tf.summary.scalar("loss", self.loss)
        self.summaries = tf.summary.merge_all()

        start = tf.fill([batch], GO)
        with tf.variable_scope("decoder", reuse=True):
            cell, init = decoder_cell(enc_out, self.src_len, enc_state, batch)
            greedy = seq2seq.GreedyEmbeddingHelper(embedding, start, EOS)
            out, _, _ = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, greedy, init, projection),
                                               maximum_iterations=max_len + 1)
            self.greedy_ids = out.sample_id
        with tf.variable_scope("decoder", reuse=True):
            tiled = [seq2seq.tile_batch(t, beam_width) for t in (enc_out, self.src_len)]
            tiled_state = seq2seq.tile_batch(enc_state, beam_width)
            cell, init = decoder_cell(tiled[0], tiled[1], tiled_state, batch * beam_width)
            beam = seq2seq.BeamSearchDecoder(cell, embedding, start, EOS, init, beam_width,
                                             output_layer=projection)
            out, _, _ = seq2seq.dynamic_decode(beam, maximum_iterations=max_len + 1)
            self.beam_ids = out.predicted_ids[:, :, 0]


def exact_match(predicted, src, lengths):
    """The fraction of sequences decoded as the exact reversal, ended by EOS."""
    hits = 0
    for p, s, n in zip(predicted, src, lengths):
        want = list(s[:n][::-1]) + [EOS]
        hits += list(p[:n + 1]) == want
    return hits / len(lengths)


def run(steps=600, logdir=None, batch=64, log=print):
    """Trains for `steps`; returns (first loss, last loss, greedy accuracy, beam accuracy)."""
    rng = np.random.RandomState(0)
    with tf.Graph().as_default():
        tf.set_random_seed(0)
        model = Model()
        writer = tf.summary.FileWriter(logdir or tempfile.mkdtemp(prefix="seq2seq_"), tf.get_default_graph())
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(1, steps + 1):
                src, src_len, tgt_in, tgt_out, tgt_len = make_batch(rng, batch)
                loss, summary, _ = sess.run([model.loss, model.summaries, model.train_op], {
                    model.src: src, model.src_len: src_len, model.tgt_in: tgt_in, model.tgt_out: tgt_out,
                    model.tgt_len: tgt_len})
                writer.add_summary(summary, step)
                losses.append(loss)
                if step % 100 == 0 or step == 1:
                    log("step %d: loss %.3f" % (step, loss))
            src, src_len, *_ = make_batch(np.random.RandomState(99), 200)
            greedy, beam = sess.run([model.greedy_ids, model.beam_ids], {model.src: src, model.src_len: src_len})
        writer.close()
    g, b = exact_match(greedy, src, src_len), exact_match(beam, src, src_len)
    log("reversal accuracy: greedy %.3f, beam search %.3f" % (g, b))
    log("example: %s -> %s" % (src[0][:src_len[0]].tolist(), greedy[0].tolist()))
    return losses[0], float(np.mean(losses[-10:])), g, b


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--logdir", default=None)
    args = parser.parse_args()
    run(args.steps, args.logdir)


if __name__ == "__main__":
    main()
