"""tf.contrib.layers.embed_sequence and embedding_lookup_unique: TF 1's variable
("EmbedSequence/embeddings", a model variable), lookups equal to indexing the embedding matrix (also
with unique=True and a partitioned table), reuse and its errors."""

import numpy as np
import pytest

import tensorweave as tf


def test_embed_sequence_variable_and_values():
    ids = np.array([[1, 3, 3, 0], [4, 4, 2, 1]], np.int64)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.int64, [None, 4])
        emb = tf.contrib.layers.embed_sequence(x, vocab_size=5, embed_dim=3)
        emb_u = tf.contrib.layers.embed_sequence(x, vocab_size=5, embed_dim=3, unique=True, scope="EmbedSequence",
                                                 reuse=True)
        again = tf.contrib.layers.embed_sequence(x, vocab_size=5, embed_dim=3)
        assert emb.shape.as_list() == [None, 4, 3] and emb_u.shape.as_list() == [None, 4, 3]
        names = [v.op.name for v in tf.global_variables()]
        assert names == ["EmbedSequence/embeddings", "EmbedSequence_1/embeddings"]
        assert [v.op.name for v in tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)] == names
        assert tf.trainable_variables()[0].shape.as_list() == [5, 3]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            table, a, b, c = s.run([tf.global_variables()[0], emb, emb_u, again], {x: ids})
    np.testing.assert_array_equal(a, table[ids])
    np.testing.assert_array_equal(b, table[ids])
    assert c.shape == (2, 4, 3) and not np.array_equal(c, a)  # a second, separately initialized table


def test_embed_sequence_options_and_errors():
    with tf.Graph().as_default():
        emb = tf.contrib.layers.embed_sequence([[0, 1]], vocab_size=2, embed_dim=2, scope="words",
                                               initializer=tf.constant_initializer(0.5), trainable=False,
                                               regularizer=lambda w: tf.reduce_sum(w))
        assert tf.trainable_variables() == []
        assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 1
        reused = tf.contrib.layers.embed_sequence([[1]], scope="words", reuse=True)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(s.run(emb), np.full((1, 2, 2), 0.5, np.float32))
            np.testing.assert_array_equal(s.run(reused), np.full((1, 1, 2), 0.5, np.float32))
        with pytest.raises(ValueError, match="Must specify vocab size and embedding dimension when not reusing"):
            tf.contrib.layers.embed_sequence([[0]], vocab_size=3)


def test_embedding_lookup_unique():
    table = np.arange(24, dtype=np.float32).reshape(6, 4)
    ids = np.array([[[5, 1], [1, 5]], [[0, 0], [3, 2]]], np.int64)
    with tf.Graph().as_default():
        whole = tf.contrib.layers.embedding_lookup_unique(tf.constant(table), ids)
        parts = tf.contrib.layers.embedding_lookup_unique([tf.constant(table[:3]), tf.constant(table[3:])], ids,
                                                          partition_strategy="div")
        assert whole.shape.as_list() == [2, 2, 2, 4]
        assert "Unique" in {op.type for op in whole.graph.get_operations()}
        with tf.Session() as s:
            a, b = s.run([whole, parts])
    np.testing.assert_array_equal(a, table[ids])
    np.testing.assert_array_equal(b, table[ids])
