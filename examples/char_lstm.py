"""A character-level LSTM language model in TF1 style: `tf.nn.rnn_cell.MultiRNNCell` of two
`BasicLSTMCell`s run by `tf.nn.dynamic_rnn` over windows of a text that ships with Python (the Zen of
Python and the docstrings of the `textwrap` module), trained with Adam and gradient clipping, with the
loss curve written as TensorBoard summaries and a sample generated from the trained model by feeding
the state back step by step.

    python examples/char_lstm.py [--steps N] [--logdir DIR]

TensorBoard summaries need the `tensorboard` extra (`make demo` installs it).
"""

import argparse
import codecs
import contextlib
import inspect
import io
import tempfile
import textwrap

import numpy as np

import tensorweave as tf


def corpus():
    """The training text: the Zen of Python and `textwrap`'s docstrings (no download)."""
    with contextlib.redirect_stdout(io.StringIO()):
        import this
    parts = [codecs.decode(this.s, "rot13")]
    parts += [inspect.getdoc(obj) or "" for _, obj in inspect.getmembers(textwrap) if callable(obj)]
    return "\n".join(p for p in parts if p)


class CharModel:
    """The LSTM language model: embedding -> 2 LSTM layers -> logits over the vocabulary."""

    def __init__(self, vocab_size, units=128, layers=2, embed=32):
        self.inputs = tf.placeholder(tf.int32, [None, None], name="inputs")
        self.targets = tf.placeholder(tf.int32, [None, None], name="targets")
        embedding = tf.get_variable("embedding", [vocab_size, embed])
        cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(units) for _ in range(layers)])
        batch = tf.shape(self.inputs)[0]
        self.initial_state = cell.zero_state(batch, tf.float32)
        outputs, self.final_state = tf.nn.dynamic_rnn(cell, tf.nn.embedding_lookup(embedding, self.inputs),
                                                      initial_state=self.initial_state)
        self.logits = tf.layers.dense(outputs, vocab_size, name="logits")
        self.loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.targets,
                                                                                   logits=self.logits))
        self.probs = tf.nn.softmax(self.logits[:, -1])
        self.global_step = tf.train.get_or_create_global_step()
        optimizer = tf.train.AdamOptimizer(0.005)
        grads, variables = zip(*optimizer.compute_gradients(self.loss))
        grads, _ = tf.clip_by_global_norm(grads, 5.0)
        self.train_op = optimizer.apply_gradients(zip(grads, variables), global_step=self.global_step)
        tf.summary.scalar("loss", self.loss)
        self.summaries = tf.summary.merge_all()


def batches(ids, batch_size, seq_len, rng):
    """Random windows of the text: (inputs, targets shifted by one)."""
    while True:
        starts = rng.randint(0, len(ids) - seq_len - 1, batch_size)
        window = np.stack([ids[s:s + seq_len + 1] for s in starts])
        yield window[:, :-1], window[:, 1:]


def sample(sess, model, chars, index, prime="Beautiful ", length=120, rng=None):
    """Generates text by feeding each sampled character back with the LSTM state."""
    rng = rng or np.random.RandomState(0)
    state = sess.run(model.initial_state, {model.inputs: [[0]]})
    text = prime
    feed_ids = [[index[c] for c in prime]]
    for _ in range(length):
        probs, state = sess.run([model.probs, model.final_state],
                                {model.inputs: feed_ids, model.initial_state: state})
        nxt = int(rng.choice(len(chars), p=probs[0] / probs[0].sum()))
        text += chars[nxt]
        feed_ids = [[nxt]]
    return text


def run(steps=300, logdir=None, batch_size=32, seq_len=50, log=print):
    """Trains for `steps` and returns (first loss, last loss, sample text)."""
    text = corpus()
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    ids = np.array([index[c] for c in text], np.int32)
    rng = np.random.RandomState(1)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        model = CharModel(len(chars))
        logdir = logdir or tempfile.mkdtemp(prefix="char_lstm_")
        writer = tf.summary.FileWriter(logdir, tf.get_default_graph())
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            data = batches(ids, batch_size, seq_len, rng)
            for step in range(1, steps + 1):
                x, y = next(data)
                loss, summary, _ = sess.run([model.loss, model.summaries, model.train_op],
                                            {model.inputs: x, model.targets: y})
                writer.add_summary(summary, step)
                losses.append(loss)
                if step % 50 == 0 or step == 1:
                    log("step %d: loss %.3f" % (step, loss))
            text_out = sample(sess, model, chars, index)
        writer.close()
    log("sample: %r" % text_out)
    return losses[0], float(np.mean(losses[-10:])), text_out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--logdir", default=None)
    args = parser.parse_args()
    run(args.steps, args.logdir)


if __name__ == "__main__":
    main()
