"""`tf.contrib.seq2seq` attention: Bahdanau and Luong scores against NumPy formulas (TF 1.15's
`_bahdanau_score` / `_luong_score`), memory masking, `hardmax`, and one `AttentionWrapper` step
computed by hand, with TF's variable names."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib import seq2seq

RNG = np.random.RandomState(0)
BATCH, MAX_T, DEPTH, UNITS = 2, 4, 3, 5
MEMORY = RNG.randn(BATCH, MAX_T, DEPTH).astype(np.float32)
LENGTHS = np.array([4, 2], np.int32)
QUERY = RNG.randn(BATCH, UNITS).astype(np.float32)


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _mask(lengths, t):
    return np.arange(t)[None, :] < np.asarray(lengths)[:, None]


def _masked_memory():
    return MEMORY * _mask(LENGTHS, MAX_T)[:, :, None]


def _run_with_vars(fetch):
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        return s.run([fetch, {v.op.name: v for v in tf.global_variables()}])


@pytest.mark.parametrize("normalize", [False, True])
def test_bahdanau_scores(normalize):
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        mech = seq2seq.BahdanauAttention(UNITS, MEMORY, memory_sequence_length=LENGTHS, normalize=normalize)
        assert mech.alignments_size == MAX_T and mech.batch_size == BATCH
        assert mech.values.shape.as_list() == [BATCH, MAX_T, DEPTH]
        assert mech.keys.shape.as_list() == [BATCH, MAX_T, UNITS]
        state = mech.initial_state(BATCH, tf.float32)
        with tf.variable_scope("scope"):
            alignments, next_state = mech(tf.constant(QUERY), state)
        assert alignments.shape.as_list() == [BATCH, MAX_T]
        (a, n, keys, values), var = _run_with_vars([alignments, next_state, mech.keys, mech.values])
    expected_names = {"memory_layer/kernel", "scope/bahdanau_attention/query_layer/kernel",
                      "scope/bahdanau_attention/attention_v"}
    if normalize:
        expected_names |= {"scope/bahdanau_attention/attention_g", "scope/bahdanau_attention/attention_b"}
    assert set(var) == expected_names
    np.testing.assert_allclose(values, _masked_memory(), rtol=1e-6)
    wm, wq = var["memory_layer/kernel"], var["scope/bahdanau_attention/query_layer/kernel"]
    assert wm.shape == (DEPTH, UNITS) and wq.shape == (UNITS, UNITS)
    v = var["scope/bahdanau_attention/attention_v"]
    k = _masked_memory() @ wm
    np.testing.assert_allclose(keys, k, rtol=1e-5, atol=1e-6)
    pq = (QUERY @ wq)[:, None, :]
    if normalize:
        g, b = var["scope/bahdanau_attention/attention_g"], var["scope/bahdanau_attention/attention_b"]
        np.testing.assert_allclose(g, np.sqrt(1.0 / UNITS), rtol=1e-6)
        np.testing.assert_array_equal(b, np.zeros(UNITS))
        score = (g * v / np.linalg.norm(v) * np.tanh(k + pq + b)).sum(2)
    else:
        score = (v * np.tanh(k + pq)).sum(2)
    score = np.where(_mask(LENGTHS, MAX_T), score, -np.inf)
    np.testing.assert_allclose(a, _softmax(score), rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(a[1, 2:], [0.0, 0.0])
    np.testing.assert_array_equal(n, a)


@pytest.mark.parametrize("scale", [False, True])
def test_luong_scores(scale):
    with tf.Graph().as_default():
        mech = seq2seq.LuongAttention(UNITS, MEMORY, memory_sequence_length=LENGTHS, scale=scale,
                                      score_mask_value=-50.0)
        alignments, _ = mech(tf.constant(QUERY), mech.initial_state(BATCH, tf.float32))
        a, var = _run_with_vars(alignments)
    assert set(var) == {"memory_layer/kernel"} | ({"luong_attention/attention_g"} if scale else set())
    score = np.einsum("bu,btu->bt", QUERY, _masked_memory() @ var["memory_layer/kernel"])
    if scale:
        np.testing.assert_array_equal(var["luong_attention/attention_g"], 1.0)
        score = score * var["luong_attention/attention_g"]
    score = np.where(_mask(LENGTHS, MAX_T), score, -50.0)
    np.testing.assert_allclose(a, _softmax(score), rtol=1e-5, atol=1e-7)


def test_luong_needs_matching_depth():
    with tf.Graph().as_default():
        mech = seq2seq.LuongAttention(UNITS + 1, MEMORY)
        with pytest.raises(ValueError, match="Incompatible or unknown inner dimensions between query and keys"):
            mech(tf.constant(QUERY), mech.initial_state(BATCH, tf.float32))


def test_hardmax_and_probability_fn():
    with tf.Graph().as_default():
        h = seq2seq.hardmax([[1.0, 3.0, 3.0], [-1.0, -2.0, -3.0]])
        mech = seq2seq.LuongAttention(UNITS, MEMORY, probability_fn=seq2seq.hardmax)
        alignments, _ = mech(tf.constant(QUERY), mech.initial_state(BATCH, tf.float32))
        (hv, a), var = _run_with_vars([h, alignments])
    np.testing.assert_array_equal(hv, [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    score = np.einsum("bu,btu->bt", QUERY, MEMORY @ var["memory_layer/kernel"])
    np.testing.assert_array_equal(a, np.eye(MAX_T)[score.argmax(1)])


def test_mechanism_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Expected memory .* to have fully defined inner dims"):
            seq2seq.BahdanauAttention(UNITS, tf.placeholder(tf.float32, [None, None, None]))
        lengths = tf.placeholder(tf.int32, [None])
        mech = seq2seq.BahdanauAttention(UNITS, MEMORY, memory_sequence_length=lengths)
        alignments, _ = mech(tf.constant(QUERY), mech.initial_state(BATCH, tf.float32))
        s = tf.Session()
        s.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match="memory_sequence_length must greater than zero"):
            s.run(alignments, {lengths: [4, 0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="batch sizes do not match"):
            s.run(alignments, {lengths: [4, 2, 1]})


def test_attention_wrapper_step_by_hand():
    x = RNG.randn(BATCH, 2).astype(np.float32)
    with tf.Graph().as_default():
        tf.set_random_seed(2)
        mech = seq2seq.BahdanauAttention(UNITS, MEMORY, memory_sequence_length=LENGTHS)
        cell = tf.nn.rnn_cell.BasicRNNCell(UNITS)
        wrapper = seq2seq.AttentionWrapper(cell, mech, attention_layer_size=4, alignment_history=True)
        assert wrapper.output_size == 4
        size = wrapper.state_size
        assert isinstance(size, seq2seq.AttentionWrapperState)
        assert (size.cell_state, size.attention, size.alignments, size.alignment_history) == (UNITS, 4, MAX_T, MAX_T)
        state0 = wrapper.zero_state(BATCH, tf.float32)
        assert state0.attention.shape.as_list() == [BATCH, 4]
        out1, state1 = wrapper(tf.constant(x), state0)
        out2, state2 = wrapper(tf.constant(x), state1)
        history = state2.alignment_history.stack()
        # (A TensorArray is not fetchable: fetch the state without its alignment history.)
        (o1, s1, o2, s2, hist), var = _run_with_vars([out1, state1._replace(alignment_history=()), out2,
                                                      state2._replace(alignment_history=()), history])
    assert sorted(var) == ["attention_wrapper/attention_layer/kernel",
                           "attention_wrapper/bahdanau_attention/attention_v",
                           "attention_wrapper/bahdanau_attention/query_layer/kernel",
                           "attention_wrapper/basic_rnn_cell/bias", "attention_wrapper/basic_rnn_cell/kernel",
                           "memory_layer/kernel"]
    wm, wq = var["memory_layer/kernel"], var["attention_wrapper/bahdanau_attention/query_layer/kernel"]
    v = var["attention_wrapper/bahdanau_attention/attention_v"]
    k, b = var["attention_wrapper/basic_rnn_cell/kernel"], var["attention_wrapper/basic_rnn_cell/bias"]
    wa = var["attention_wrapper/attention_layer/kernel"]
    assert k.shape == (2 + 4 + UNITS, UNITS) and wa.shape == (UNITS + DEPTH, 4)
    keys = _masked_memory() @ wm
    h, attention = np.zeros((BATCH, UNITS)), np.zeros((BATCH, 4))
    aligns = []
    for got_out, got_state in ((o1, s1), (o2, s2)):
        h = np.tanh(np.concatenate([x, attention, h], 1) @ k + b)
        score = (v * np.tanh(keys + (h @ wq)[:, None, :])).sum(2)
        align = _softmax(np.where(_mask(LENGTHS, MAX_T), score, -np.inf))
        context = np.einsum("bt,btd->bd", align, _masked_memory())
        attention = np.concatenate([h, context], 1) @ wa
        aligns.append(align)
        np.testing.assert_allclose(got_out, attention, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got_state.cell_state, h, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got_state.alignments, align, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(got_state.attention_state, align, rtol=1e-5, atol=1e-7)
    assert s1.time == 1 and s2.time == 2
    np.testing.assert_allclose(hist, np.stack(aligns), rtol=1e-5, atol=1e-7)


def test_attention_wrapper_without_layer_and_cell_output():
    x = RNG.randn(BATCH, 2).astype(np.float32)
    with tf.Graph().as_default():
        mech = seq2seq.LuongAttention(UNITS, MEMORY)
        cell = tf.nn.rnn_cell.BasicRNNCell(UNITS)
        wrapper = seq2seq.AttentionWrapper(cell, mech, output_attention=False)
        assert wrapper.output_size == UNITS and wrapper.state_size.attention == DEPTH
        assert wrapper.state_size.alignment_history == ()
        out, state = wrapper(tf.constant(x), wrapper.zero_state(BATCH, tf.float32))
        (o, s), var = _run_with_vars([out, state])
    assert "attention_wrapper/luong_attention/attention_g" not in var
    k, b = var["attention_wrapper/basic_rnn_cell/kernel"], var["attention_wrapper/basic_rnn_cell/bias"]
    h = np.tanh(np.concatenate([x, np.zeros((BATCH, DEPTH)), np.zeros((BATCH, UNITS))], 1) @ k + b)
    np.testing.assert_allclose(o, h, rtol=1e-5, atol=1e-6)
    align = _softmax(np.einsum("bu,btu->bt", h, MEMORY @ var["memory_layer/kernel"]))
    np.testing.assert_allclose(s.attention, np.einsum("bt,btd->bd", align, MEMORY), rtol=1e-5, atol=1e-6)


def test_multiple_mechanisms_and_clone():
    with tf.Graph().as_default():
        m1 = seq2seq.LuongAttention(UNITS, MEMORY)
        m2 = seq2seq.BahdanauAttention(3, MEMORY)
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        wrapper = seq2seq.AttentionWrapper(cell, [m1, m2], attention_layer_size=[2, 3])
        assert wrapper.output_size == 5
        assert wrapper.state_size.alignments == (MAX_T, MAX_T)
        init = wrapper.zero_state(BATCH, tf.float32)
        new_cell_state = tf.ones([BATCH, UNITS])
        cloned = init.clone(cell_state=new_cell_state)
        assert isinstance(cloned, seq2seq.AttentionWrapperState) and cloned.cell_state is new_cell_state
        assert cloned.attention is init.attention
        out, state = wrapper(tf.ones([BATCH, 2]), cloned)
        assert out.shape.as_list() == [BATCH, 5] and len(state.alignments) == 2
        o = _run_with_vars(out)[0]
        assert o.shape == (BATCH, 5)
        with pytest.raises(ValueError, match="attention_layer_size must contain exactly one integer"):
            seq2seq.AttentionWrapper(cell, [m1, m2], attention_layer_size=2)
        with pytest.raises(ValueError, match="Only one of attention_layer_size and attention_layer"):
            seq2seq.AttentionWrapper(cell, m1, attention_layer_size=2, attention_layer=tf.layers.Dense(2))
        with pytest.raises(TypeError, match="attention_mechanism must be an AttentionMechanism"):
            seq2seq.AttentionWrapper(cell, object())
        with pytest.raises(TypeError, match="Expected state to be instance of AttentionWrapperState"):
            wrapper(tf.ones([BATCH, 2]), tf.zeros([BATCH, UNITS]))


def test_zero_state_batch_mismatch_is_an_error():
    with tf.Graph().as_default():
        wrapper = seq2seq.AttentionWrapper(tf.nn.rnn_cell.BasicRNNCell(UNITS), seq2seq.LuongAttention(UNITS, MEMORY))
        batch = tf.placeholder(tf.int32, [])
        state = wrapper.zero_state(batch, tf.float32)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Non-matching batch sizes"):
            tf.Session().run(state.cell_state, {batch: 3})


def _monotonic_ref(p, previous):
    """q[i] = (1 - p[i - 1]) q[i - 1] + previous[i]; attention[i] = p[i] q[i]."""
    out = np.zeros_like(p, dtype=np.float64)
    for b in range(p.shape[0]):
        q = 0.0
        for i in range(p.shape[1]):
            q = (1 - p[b, i - 1]) * q + previous[b, i] if i else previous[b, 0]
            out[b, i] = p[b, i] * q
    return out


def test_safe_cumprod():
    x = np.array([[0.5, 0.25, 0.0, 2.0], [1.0, 0.1, 0.1, 0.1]], np.float32)
    with tf.Graph().as_default():
        got = tf.Session().run([seq2seq.safe_cumprod(x, axis=1), seq2seq.safe_cumprod(x, axis=1, exclusive=True)])
    tiny = np.finfo(np.float32).tiny
    clipped = np.clip(x, tiny, 1.0).astype(np.float64)
    np.testing.assert_allclose(got[0], np.cumprod(clipped, 1), rtol=1e-5, atol=1e-30)
    np.testing.assert_allclose(got[1], np.concatenate([np.ones((2, 1)), np.cumprod(clipped, 1)[:, :-1]], 1),
                               rtol=1e-5, atol=1e-30)


@pytest.mark.parametrize("mode", ["recursive", "parallel", "hard"])
def test_monotonic_attention(mode):
    rng = np.random.RandomState(3)
    if mode == "hard":
        p = (rng.rand(3, 6) > 0.5).astype(np.float32)
        previous = np.eye(6, dtype=np.float32)[[0, 2, 4]]
    else:
        p = rng.uniform(0.1, 0.9, (3, 6)).astype(np.float32)
        previous = rng.dirichlet(np.ones(6), 3).astype(np.float32)
    with tf.Graph().as_default():
        got = tf.Session().run(seq2seq.monotonic_attention(p, previous, mode))
    np.testing.assert_allclose(got, _monotonic_ref(p.astype(np.float64), previous), rtol=1e-5, atol=1e-6)
    with tf.Graph().as_default(), pytest.raises(ValueError, match="mode must be 'recursive', 'parallel', or 'hard'"):
        seq2seq.monotonic_attention(p, previous, "soft")


def test_monotonic_mechanisms():
    with tf.Graph().as_default():
        tf.set_random_seed(5)
        bahdanau = seq2seq.BahdanauMonotonicAttention(UNITS, MEMORY, memory_sequence_length=LENGTHS,
                                                      score_bias_init=-1.0, mode="recursive")
        luong = seq2seq.LuongMonotonicAttention(UNITS, MEMORY, scale=True, mode="parallel")
        init = bahdanau.initial_alignments(BATCH, tf.float32)
        a1, _ = bahdanau(tf.constant(QUERY), init)
        a2, _ = luong(tf.constant(QUERY), luong.initial_state(BATCH, tf.float32))
        (i0, b_al, l_al), var = _run_with_vars([init, a1, a2])
    np.testing.assert_array_equal(i0, np.eye(MAX_T)[[0, 0]])
    prefix = "bahdanau_monotonic_attention/"
    assert var[prefix + "attention_score_bias"] == np.float32(-1.0)
    assert var["luong_monotonic_attention/attention_score_bias"] == 0.0
    keys = _masked_memory() @ var["memory_layer/kernel"]
    score = (var[prefix + "attention_v"] * np.tanh(keys + (QUERY @ var[prefix + "query_layer/kernel"])[:, None])).sum(2)
    score = np.where(_mask(LENGTHS, MAX_T), score - 1.0, -np.inf)
    np.testing.assert_allclose(b_al, _monotonic_ref(1 / (1 + np.exp(-score)), i0), rtol=1e-5, atol=1e-6)
    score = np.einsum("bu,btu->bt", QUERY, MEMORY @ var["memory_layer_1/kernel"])
    score = score * var["luong_monotonic_attention/attention_g"] + 0.0
    np.testing.assert_allclose(l_al, _monotonic_ref(1 / (1 + np.exp(-score)), i0), rtol=1e-4, atol=1e-6)
