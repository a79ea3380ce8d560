"""tf.nn.nce_loss / tf.nn.sampled_softmax_loss in a word2vec-style skip-gram training run (the
TensorFlow-Examples word2vec program's graph: embedding lookup, NCE weights/biases, default
log-uniform sampler, SGD). TensorFlow's values with given sampled values are checked in
tests/ops/test_random_sampled_losses.py."""

import math

import numpy as np
import pytest

import tensorweave as tf


def _skipgram_batches(rng, vocab, batch, steps):
    # A corpus where word w is followed by w + 1 (mod vocab): each word's context is its neighbours.
    for _ in range(steps):
        centre = rng.randint(0, vocab, batch)
        context = (centre + rng.choice([-1, 1], batch)) % vocab
        yield centre, context.reshape(-1, 1)


@pytest.mark.parametrize("loss_fn", ["nce_loss", "sampled_softmax_loss"])
def test_word2vec_training_decreases_loss(loss_fn):
    vocab, dim, batch = 60, 16, 32
    rng = np.random.RandomState(0)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        train_inputs = tf.placeholder(tf.int32, [batch])
        train_labels = tf.placeholder(tf.int64, [batch, 1])
        embeddings = tf.Variable(tf.random_uniform([vocab, dim], -1.0, 1.0))
        embed = tf.nn.embedding_lookup(embeddings, train_inputs)
        weights = tf.Variable(tf.truncated_normal([vocab, dim], stddev=1.0 / math.sqrt(dim)))
        biases = tf.Variable(tf.zeros([vocab]))
        loss = tf.reduce_mean(getattr(tf.nn, loss_fn)(weights=weights, biases=biases, labels=train_labels,
                                                      inputs=embed, num_sampled=8, num_classes=vocab))
        step = tf.train.GradientDescentOptimizer(1.0).minimize(loss)
        norm = tf.sqrt(tf.reduce_sum(tf.square(embeddings), 1, keepdims=True))
        similarity = tf.matmul(embeddings / norm, embeddings / norm, transpose_b=True)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            losses = [s.run([step, loss], {train_inputs: c, train_labels: t})[1]
                      for c, t in _skipgram_batches(rng, vocab, batch, 600)]
            sim = s.run(similarity)
    assert all(np.isfinite(losses))
    assert np.mean(losses[-50:]) < 0.6 * np.mean(losses[:50])
    # Words sharing contexts (w - 1 and w + 1 both have w as context) end up closer than random pairs.
    idx = np.arange(vocab)
    assert sim[idx, (idx + 2) % vocab].mean() > sim[idx, (idx + vocab // 2) % vocab].mean() + 0.15
