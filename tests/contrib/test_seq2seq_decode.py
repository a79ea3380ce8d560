"""`tf.contrib.seq2seq` helpers, `BasicDecoder` and `dynamic_decode` on hand-built cells whose outputs
are known: a bigram "language model" cell (the logits of the next token are the log probabilities of
a fixed transition table, given the one-hot previous token) and a counting cell."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib import seq2seq

GO, EOS, A, B = 0, 1, 2, 3
V = 4
# P[prev, next]; each row sums to 1.
P = np.array([[0.01, 0.09, 0.5, 0.4],    # from GO: a (.5), b (.4)
              [0.1, 0.2, 0.3, 0.4],      # from EOS: argmax b
              [0.01, 0.59, 0.2, 0.2],    # from a: EOS
              [0.01, 0.09, 0.1, 0.8]])   # from b: b
LOGP = np.log(P).astype(np.float32)


class BigramCell:
    """A cell with TF's cell API: output = one-hot input @ log P; the state counts the steps."""

    output_size = V
    state_size = 1

    def zero_state(self, batch_size, dtype):
        return tf.zeros(tf.stack([batch_size, 1]), dtype)

    def __call__(self, inputs, state, scope=None):
        return tf.matmul(inputs, tf.constant(LOGP)), state + 1.0


class EchoCell:
    """output = inputs (depth D), state = running sum of the inputs."""

    def __init__(self, depth):
        self.output_size = depth
        self.state_size = depth

    def zero_state(self, batch_size, dtype):
        return tf.zeros(tf.stack([batch_size, self.state_size]), dtype)

    def __call__(self, inputs, state, scope=None):
        return tf.identity(inputs), state + inputs


def _run(fetches, feed=None):
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        return s.run(fetches, feed)


def test_greedy_decode_on_bigram_cell():
    with tf.Graph().as_default():
        cell = BigramCell()
        helper = seq2seq.GreedyEmbeddingHelper(np.eye(V, dtype=np.float32), start_tokens=[GO, B], end_token=EOS)
        dec = seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32))
        out, state, lengths = seq2seq.dynamic_decode(dec, maximum_iterations=3)
        assert isinstance(out, seq2seq.BasicDecoderOutput)
        assert out.rnn_output.shape.as_list() == [2, None, V]
        assert out.sample_id.shape.as_list() == [2, None]
        assert out.sample_id.dtype == tf.int32 and lengths.dtype == tf.int32
        o, s, n = _run([out, state, lengths])
    # Entry 0: GO -> a -> EOS (finished after 2 steps), then EOS -> b (argmax of the EOS row).
    # Entry 1: b -> b -> b until maximum_iterations.
    np.testing.assert_array_equal(o.sample_id, [[A, EOS, B], [B, B, B]])
    np.testing.assert_array_equal(n, [2, 3])
    np.testing.assert_allclose(o.rnn_output[0], LOGP[[GO, A, EOS]], rtol=1e-6)
    np.testing.assert_allclose(o.rnn_output[1], LOGP[[B, B, B]], rtol=1e-6)
    np.testing.assert_array_equal(s, [[3.0], [3.0]])


def test_impute_finished_and_time_major():
    with tf.Graph().as_default():
        cell = BigramCell()
        helper = seq2seq.GreedyEmbeddingHelper(lambda ids: tf.one_hot(ids, V), [GO, B], EOS)
        dec = seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32))
        out, state, lengths = seq2seq.dynamic_decode(dec, output_time_major=True, impute_finished=True,
                                                     maximum_iterations=4)
        assert out.rnn_output.shape.as_list() == [None, 2, V]
        o, s, n = _run([out, state, lengths])
    # Past its end, entry 0 emits zeros and keeps its state (2 steps).
    np.testing.assert_array_equal(o.sample_id[:, 0], [A, EOS, 0, 0])
    np.testing.assert_array_equal(o.rnn_output[2:, 0], np.zeros((2, V)))
    np.testing.assert_array_equal(s, [[2.0], [4.0]])
    np.testing.assert_array_equal(n, [2, 4])


def test_decode_stops_when_all_finished():
    with tf.Graph().as_default():
        cell = BigramCell()
        helper = seq2seq.GreedyEmbeddingHelper(np.eye(V, dtype=np.float32), [GO, A], EOS)
        out, _, lengths = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32)))
        o, n = _run([out.sample_id, lengths])
    np.testing.assert_array_equal(o, [[A, EOS], [EOS, B]])
    np.testing.assert_array_equal(n, [2, 1])


def test_maximum_iterations_zero():
    with tf.Graph().as_default():
        cell = BigramCell()
        helper = seq2seq.GreedyEmbeddingHelper(np.eye(V, dtype=np.float32), [GO], EOS)
        out, _, lengths = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, cell.zero_state(1, tf.float32)),
                                                 maximum_iterations=0)
        o, n = _run([out.rnn_output, lengths])
    assert o.shape == (1, 0, V)
    np.testing.assert_array_equal(n, [0])


def test_training_helper_reads_inputs_until_each_length():
    x = np.arange(2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3)
    with tf.Graph().as_default():
        inp = tf.placeholder(tf.float32, [None, None, 3])
        seq_len = tf.placeholder(tf.int32, [None])
        cell = EchoCell(3)
        helper = seq2seq.TrainingHelper(inp, seq_len)
        dec = seq2seq.BasicDecoder(cell, helper, cell.zero_state(tf.shape(inp)[0], tf.float32))
        out, state, lengths = seq2seq.dynamic_decode(dec, impute_finished=True)
        o, s, n = _run([out, state, lengths], {inp: x, seq_len: [4, 2]})
    np.testing.assert_array_equal(o.rnn_output[0], x[0])
    np.testing.assert_array_equal(o.rnn_output[1], np.concatenate([x[1, :2], np.zeros((2, 3))]))
    np.testing.assert_array_equal(o.sample_id, [[2, 2, 2, 2], [2, 2, 0, 0]])  # argmax of increasing rows
    np.testing.assert_array_equal(s, [x[0].sum(0), x[1, :2].sum(0)])
    np.testing.assert_array_equal(n, [4, 2])


def test_training_helper_time_major_and_zero_lengths():
    x = np.random.RandomState(1).rand(3, 2, 5).astype(np.float32)  # [time, batch, depth]
    with tf.Graph().as_default():
        cell = EchoCell(5)
        helper = seq2seq.TrainingHelper(x, [3, 3], time_major=True)
        out, _, n = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32)),
                                           output_time_major=True)
        o = _run(out.rnn_output)
        np.testing.assert_array_equal(o, x)
        empty = seq2seq.TrainingHelper(x, [0, 0], time_major=True)
        out2, _, n2 = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, empty, cell.zero_state(2, tf.float32)))
        o2, l2 = _run([out2.rnn_output, n2])
    assert o2.shape == (2, 0, 5)
    np.testing.assert_array_equal(l2, [0, 0])
    with tf.Graph().as_default(), pytest.raises(ValueError, match="Expected sequence_length to be a vector"):
        seq2seq.TrainingHelper(x, 3)


def test_output_layer_and_gradients_through_time():
    rng = np.random.RandomState(2)
    x = rng.randn(2, 3, 4).astype(np.float32)
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        cell = tf.nn.rnn_cell.BasicRNNCell(5)
        layer = tf.layers.Dense(6, name="proj")
        helper = seq2seq.TrainingHelper(x, [3, 2])
        dec = seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32), output_layer=layer)
        assert dec.output_size.rnn_output.as_list() == [6]
        out, _, _ = seq2seq.dynamic_decode(dec)
        names = sorted(v.name for v in tf.trainable_variables())
        assert names == ["decoder/basic_rnn_cell/bias:0", "decoder/basic_rnn_cell/kernel:0", "decoder/proj/bias:0",
                         "decoder/proj/kernel:0"]
        loss = tf.reduce_sum(tf.square(out.rnn_output))
        variables = tf.trainable_variables()
        grads = tf.gradients(loss, variables)
        assert all(g is not None for g in grads)
        values = _run([out.rnn_output, {v.name: v for v in variables}])
    o, var = values
    k, b = var["decoder/basic_rnn_cell/kernel:0"], var["decoder/basic_rnn_cell/bias:0"]
    pk, pb = var["decoder/proj/kernel:0"], var["decoder/proj/bias:0"]
    h = np.zeros((2, 5))
    for t in range(3):
        # Without impute_finished the finished entry keeps running on the inputs.
        h = np.tanh(np.concatenate([x[:, t], h], 1) @ k + b)
        np.testing.assert_allclose(o[:, t], h @ pk + pb, rtol=1e-5, atol=1e-6)


def test_sample_embedding_helper():
    with tf.Graph().as_default():
        cell = BigramCell()
        # A temperature near 0 makes the sample the argmax.
        helper = seq2seq.SampleEmbeddingHelper(np.eye(V, dtype=np.float32), [GO, B], EOS, softmax_temperature=1e-3,
                                               seed=1)
        out, _, _ = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32)),
                                           maximum_iterations=3)
        np.testing.assert_array_equal(_run(out.sample_id), [[A, EOS, B], [B, B, B]])
    with tf.Graph().as_default():
        cell = BigramCell()
        helper = seq2seq.SampleEmbeddingHelper(np.eye(V, dtype=np.float32), tf.fill([4000], GO), EOS, seed=7)
        out, _, _ = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, cell.zero_state(4000, tf.float32)),
                                           maximum_iterations=1)
        first = _run(out.sample_id)[:, 0]
    freq = np.bincount(first, minlength=V) / first.size
    np.testing.assert_allclose(freq, P[GO], atol=0.03)


def test_scheduled_embedding_training_helper():
    x = np.random.RandomState(4).rand(3, 4, 3).astype(np.float32)
    emb = np.arange(15, dtype=np.float32).reshape(5, 3) + 100.0
    for prob, sampled in ((0.0, False), (1.0, True)):
        with tf.Graph().as_default():
            cell = EchoCell(3)
            helper = seq2seq.ScheduledEmbeddingTrainingHelper(x, [4, 4, 4], emb, prob, seed=1, scheduling_seed=2)
            out, _, _ = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, cell.zero_state(3, tf.float32)))
            o = _run(out)
        np.testing.assert_array_equal(o.rnn_output[:, 0], x[:, 0])
        if sampled:
            # Each later input is the embedding of the id sampled from the previous output.
            assert (o.sample_id >= 0).all()
            np.testing.assert_array_equal(o.rnn_output[:, 1:], emb[o.sample_id[:, :-1]])
        else:
            np.testing.assert_array_equal(o.sample_id, -np.ones((3, 4)))
            np.testing.assert_array_equal(o.rnn_output, x)
    with tf.Graph().as_default(), pytest.raises(ValueError, match="sampling_probability must be either"):
        seq2seq.ScheduledEmbeddingTrainingHelper(x, [4, 4, 4], emb, [[0.5]])


def test_scheduled_output_training_helper():
    x = np.random.RandomState(5).rand(2, 3, 2).astype(np.float32)
    with tf.Graph().as_default():
        cell = EchoCell(2)
        helper = seq2seq.ScheduledOutputTrainingHelper(x, [3, 3], 1.0, next_inputs_fn=lambda o: o * 2.0)
        out, _, _ = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32)))
        o = _run(out)
    assert o.sample_id.dtype == np.bool_ and o.sample_id.all()
    np.testing.assert_allclose(o.rnn_output, x[:, :1] * np.array([1.0, 2.0, 4.0])[None, :, None])


def test_custom_and_inference_helpers():
    with tf.Graph().as_default():
        cell = BigramCell()
        start = tf.one_hot([GO, B], V)
        custom = seq2seq.CustomHelper(
            initialize_fn=lambda: (tf.constant([False, False]), start),
            sample_fn=lambda time, outputs, state: tf.argmax(outputs, -1, output_type=tf.int32),
            next_inputs_fn=lambda time, outputs, state, sample_ids: (tf.equal(sample_ids, EOS),
                                                                     tf.one_hot(sample_ids, V), state))
        with pytest.raises(ValueError, match="batch_size accessed before initialize was called"):
            custom.batch_size
        out, _, n = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, custom, cell.zero_state(2, tf.float32)),
                                           maximum_iterations=3)
        inference = seq2seq.InferenceHelper(
            sample_fn=lambda outputs: tf.argmax(outputs, -1, output_type=tf.int32), sample_shape=[],
            sample_dtype=tf.int32, start_inputs=start, end_fn=lambda ids: tf.equal(ids, EOS),
            next_inputs_fn=lambda ids: tf.one_hot(ids, V))
        out2, _, n2 = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, inference, cell.zero_state(2, tf.float32)),
                                             maximum_iterations=3)
        a, b, c, d = _run([out.sample_id, n, out2.sample_id, n2])
    for ids, lengths in ((a, b), (c, d)):
        np.testing.assert_array_equal(ids, [[A, EOS, B], [B, B, B]])
        np.testing.assert_array_equal(lengths, [2, 3])


def test_type_errors():
    with tf.Graph().as_default():
        cell = BigramCell()
        helper = seq2seq.GreedyEmbeddingHelper(np.eye(V, dtype=np.float32), [GO], EOS)
        with pytest.raises(TypeError, match="helper must be a Helper"):
            seq2seq.BasicDecoder(cell, object(), cell.zero_state(1, tf.float32))
        with pytest.raises(TypeError, match="output_layer must be a Layer"):
            seq2seq.BasicDecoder(cell, helper, cell.zero_state(1, tf.float32), output_layer=lambda x: x)
        with pytest.raises(TypeError, match="is not an RNNCell"):
            seq2seq.BasicDecoder(object(), helper, cell.zero_state(1, tf.float32))
        with pytest.raises(TypeError, match="Expected decoder to be type Decoder"):
            seq2seq.dynamic_decode(helper)
        with pytest.raises(ValueError, match="start_tokens must be a vector"):
            seq2seq.GreedyEmbeddingHelper(np.eye(V, dtype=np.float32), GO, EOS)
        with pytest.raises(ValueError, match="end_token must be a scalar"):
            seq2seq.GreedyEmbeddingHelper(np.eye(V, dtype=np.float32), [GO], [EOS])
        dec = seq2seq.BasicDecoder(cell, helper, cell.zero_state(1, tf.float32))
        with pytest.raises(ValueError, match="maximum_iterations must be a scalar"):
            seq2seq.dynamic_decode(dec, maximum_iterations=[3])


def test_numerical_gradient_through_attention_decoder():
    """float64 gradients of a decoded attention model w.r.t. its inputs and memory equal finite
    differences (the while loop, TensorArrays, attention and masking all differentiate)."""
    rng = np.random.RandomState(6)
    x = rng.randn(2, 3, 2)
    memory = rng.randn(2, 4, 3)
    with tf.Graph().as_default():
        tf.set_random_seed(4)
        inp = tf.constant(x)
        mem = tf.constant(memory)
        mech = seq2seq.BahdanauAttention(4, mem, memory_sequence_length=[4, 3], normalize=True, dtype=tf.float64)
        cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.BasicRNNCell(3, dtype=tf.float64), mech,
                                        attention_layer_size=2)
        helper = seq2seq.TrainingHelper(inp, [3, 2])
        dec = seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float64))
        out, _, _ = seq2seq.dynamic_decode(dec, impute_finished=True)
        y = tf.reshape(out.rnn_output, [2, 3, 2])
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            err = tf.test.compute_gradient_error([inp, mem], [(2, 3, 2), (2, 4, 3)], y, (2, 3, 2),
                                                 x_init_value=[x, memory])
    assert err < 1e-6


def test_eager_decoding():
    from tensorweave.eager import context
    with context.eager_mode():
        cell = BigramCell()
        helper = seq2seq.GreedyEmbeddingHelper(np.eye(V, dtype=np.float32), [GO, B], EOS)
        out, _, n = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32)),
                                           maximum_iterations=3)
        np.testing.assert_array_equal(np.asarray(out.sample_id), [[A, EOS, B], [B, B, B]])
        np.testing.assert_array_equal(np.asarray(n), [2, 3])
