"""tf.nn.ctc_loss / ctc_loss_v2 / ctc_greedy_decoder / ctc_beam_search_decoder(_v2) / ctc_unique_labels:
hand-derived values on tiny cases, TensorFlow's values (tests/data/ctc_tf.npz, recorded by
tests/data/make_ctc_tf.py), numerical gradients, shapes and TF's errors."""

import math
import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

_TF = np.load(pathlib.Path(__file__).parents[1] / "data" / "ctc_tf.npz")
_LOSS_CASES = ("basic", "ignore", "impossible", "long")


def _sparse(rows):
    ind = [[b, t] for b, r in enumerate(rows) for t in range(len(r))]
    val = [v for r in rows for v in r]
    return tf.SparseTensor(np.asarray(ind, np.int64).reshape(-1, 2), np.asarray(val, np.int32),
                           [len(rows), max(len(r) for r in rows)])


def _run(fetches, feed=None):
    with tf.Session() as s:
        return s.run(fetches, feed)


# ---- hand-derived losses ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", [
    # (T, C, label, options, expected loss with uniform logits)
    (1, 2, [0], {}, math.log(2.0)),              # the one path "0": 1/2
    (2, 2, [0], {}, math.log(4.0 / 3.0)),        # "00", "0_", "_0": 3/4
    (2, 3, [0], {}, math.log(3.0)),              # 3 paths of (1/3)^2
    (3, 3, [0, 0], {}, math.log(27.0)),          # only "0_0"
    (3, 3, [0, 0], {"ctc_merge_repeated": False}, math.log(9.0)),   # "0_0", "00_", "_00"
    (2, 3, [0, 0], {"preprocess_collapse_repeated": True}, math.log(3.0)),  # collapsed to [0]
    (3, 4, [0, 1], {}, math.log(64.0 / 5.0)),    # "01_", "0_1", "_01", "001", "011": 5/64
    (2, 3, [0, 2], {}, math.log(3.0)),           # the label 2 (= num_classes - 1) ends the sequence
])
def test_hand_derived_losses(case):
    t_len, classes, label, options, expected = case
    with tf.Graph().as_default():
        x = tf.zeros([t_len, 1, classes], tf.float64)
        loss = tf.nn.ctc_loss(_sparse([label]), x, [t_len], **options)
        np.testing.assert_allclose(_run(loss), [expected], rtol=1e-6)


def test_hand_derived_gradient_and_probabilities():
    # T=1, C=2, label [0], logits (a, b): loss = -log softmax(x)[0]; gradient softmax(x) - onehot(0).
    x = np.array([[[0.3, -0.2]]])
    with tf.Graph().as_default():
        xt = tf.constant(x)
        loss = tf.nn.ctc_loss(_sparse([[0]]), xt, [1])
        (g,) = tf.gradients(loss, xt)
        lv, gv = _run([loss, g])
    p = np.exp(x[0, 0]) / np.exp(x[0, 0]).sum()
    np.testing.assert_allclose(lv, [-np.log(p[0])], rtol=1e-7)
    np.testing.assert_allclose(gv[0, 0], p - [1.0, 0.0], rtol=1e-6)
    # T=2, C=2: p("0") = y0(1) y0(2) + y0(1) yb(2) + yb(1) y0(2).
    y = np.array([[0.7, 0.3], [0.4, 0.6]])
    with tf.Graph().as_default():
        loss = tf.nn.ctc_loss(_sparse([[0]]), tf.constant(np.log(y)[:, None, :]), [2])
        np.testing.assert_allclose(_run(loss), [-np.log(0.7 * 0.4 + 0.7 * 0.6 + 0.3 * 0.4)], rtol=1e-6)


def test_ignore_longer_and_impossible():
    with tf.Graph().as_default():
        x = tf.constant(np.zeros((2, 2, 3)))
        loss = tf.nn.ctc_loss(_sparse([[0, 1, 0], [0, 0]]), x, [2, 2], ignore_longer_outputs_than_inputs=True)
        (g,) = tf.gradients(tf.reduce_sum(loss), x)
        lv, gv = _run([loss, g])
    # Row 0 is too long: loss and gradient 0; row 1 ("0_0" does not fit in 2 steps): inf, gradient softmax.
    assert lv[0] == 0 and np.isinf(lv[1])
    np.testing.assert_array_equal(gv[:, 0], 0)
    np.testing.assert_allclose(gv[:, 1], 1.0 / 3)


# ---- TensorFlow's values ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", _LOSS_CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("collapse", [0, 1])
@pytest.mark.parametrize("merge", [0, 1])
def test_loss_matches_tf(name, dtype, collapse, merge):
    x = _TF["loss_%s_x" % name]
    key = "loss_%s_%s_%d%d" % (name, dtype, collapse, merge)
    batch = x.shape[1]
    with tf.Graph().as_default():
        xt = tf.constant(x.astype(dtype))
        labels = tf.SparseTensor(_TF["loss_%s_ind" % name], _TF["loss_%s_val" % name],
                                 [batch, int(_TF["loss_%s_ind" % name][:, 1].max()) + 1])
        loss = tf.nn.ctc_loss(labels, xt, _TF["loss_%s_seq" % name], preprocess_collapse_repeated=bool(collapse),
                              ctc_merge_repeated=bool(merge), ignore_longer_outputs_than_inputs=name == "ignore")
        assert loss.dtype == dtype and loss.shape.as_list() == [batch]
        (g,) = tf.gradients(tf.reduce_sum(loss * tf.constant(np.arange(1, batch + 1), dtype)), xt)
        vals = _run([loss, g, loss.op.outputs[1]])
    for v, suffix in zip(vals, ("", "_grad", "_op_grad")):
        assert v.dtype == dtype
        np.testing.assert_allclose(v, _TF[key + suffix], rtol=2e-5, atol=1e-5, err_msg=key + suffix)


def test_batch_major_matches_tf():
    x = _TF["loss_basic_x"].transpose(1, 0, 2)
    with tf.Graph().as_default():
        xt = tf.constant(x)
        loss = tf.nn.ctc_loss(tf.SparseTensor(_TF["loss_basic_ind"], _TF["loss_basic_val"], [4, 4]), xt,
                              _TF["loss_basic_seq"], time_major=False)
        vals = _run([loss, tf.gradients(tf.reduce_sum(loss), xt)[0]])
    np.testing.assert_allclose(vals[0], _TF["loss_batch_major"], rtol=2e-6)
    np.testing.assert_allclose(vals[1], _TF["loss_batch_major_grad"], rtol=2e-5, atol=2e-6)


def test_loss_v2_matches_tf():
    x = _TF["loss_long_x"]
    seq = _TF["loss_long_seq"]
    rows = [[0, 1, 2, 3, 4], [5, 5, 1, 1, 2, 6, 6, 0], [6, 0, 6, 0, 6, 0]]
    with tf.Graph().as_default():
        for blank in (0, 3, 7, -1):
            labels = _sparse([[v if v < blank % 8 else v + 1 for v in r] for r in rows])
            loss = tf.nn.ctc_loss_v2(labels, tf.constant(x), None, seq, blank_index=blank)
            np.testing.assert_allclose(_run(loss), _TF["v2_sparse_%d" % blank], rtol=2e-6, err_msg=str(blank))
        xt = tf.constant(x)
        loss = tf.nn.ctc_loss_v2(_TF["v2_dense_labels"], xt, [len(r) for r in rows], seq, blank_index=0)
        vals = _run([loss, tf.gradients(tf.reduce_sum(loss), xt)[0]])
        np.testing.assert_allclose(vals[0], _TF["v2_dense_0"], rtol=2e-6)
        np.testing.assert_allclose(vals[1], _TF["v2_dense_0_grad"], rtol=2e-5, atol=1e-5)
        with pytest.raises(ValueError, match="blank_index"):
            tf.nn.ctc_loss_v2(_sparse(rows), xt, None, seq)


def test_numerical_gradient():
    rng = np.random.RandomState(0)
    x = rng.randn(5, 2, 4)
    with tf.Graph().as_default():
        labels = _sparse([[0, 1, 1], [2]])
        xp = tf.placeholder(tf.float64, x.shape)
        loss = tf.reduce_sum(tf.nn.ctc_loss(labels, xp, [5, 4]) * tf.constant([1.0, 2.0], tf.float64))
        (g,) = tf.gradients(loss, xp)
        with tf.Session() as s:
            analytic = s.run(g, {xp: x})
            num = np.zeros_like(x)
            eps = 1e-2  # the loss adds log probabilities with single-precision corrections, as TF
            for i in np.ndindex(*x.shape):
                d = np.zeros_like(x)
                d[i] = eps
                num[i] = (s.run(loss, {xp: x + d}) - s.run(loss, {xp: x - d})) / (2 * eps)
    np.testing.assert_allclose(analytic, num, atol=1e-4)
    assert np.all(analytic[4:, 1] == 0)  # past the sequence end


def test_second_derivative_is_prevented():
    with tf.Graph().as_default():
        x = tf.constant(np.zeros((2, 1, 3)))
        (g,) = tf.gradients(tf.nn.ctc_loss(_sparse([[0]]), x, [2]), x)
        with pytest.raises(LookupError, match="second  derivative of ctc_loss"):
            tf.gradients(g, x)


def test_static_shapes_and_static_errors():
    from tensorweave.ops.ctc_ops import _ctc_loss_op
    with tf.Graph().as_default():
        labels = tf.SparseTensor(tf.placeholder(tf.int64), tf.placeholder(tf.int32), tf.placeholder(tf.int64))
        loss, grad = _ctc_loss_op(tf.placeholder(tf.float32, [None, None, 5]), labels, tf.placeholder(tf.int32, [7]))
        assert loss.shape.as_list() == [7] and grad.shape.as_list() == [None, 7, 5]
        loss, grad = _ctc_loss_op(tf.placeholder(tf.float32), labels, tf.placeholder(tf.int32))
        assert loss.shape.as_list() == [None] and grad.shape.as_list() == [None, None, None]
        with pytest.raises(ValueError, match="Shape must be rank 3 but is rank 2"):
            tf.nn.ctc_loss(_sparse([[0]]), tf.zeros([2, 3]), [2])
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
            tf.nn.ctc_loss(_sparse([[0], [1]]), tf.zeros([2, 2, 3]), [2, 2, 2])
        with pytest.raises(TypeError, match="SparseTensor"):
            tf.nn.ctc_loss(tf.constant([[0]]), tf.zeros([2, 1, 3]), [2])
        with pytest.raises(TypeError, match="int32"):
            tf.nn.ctc_loss(_sparse([[0]]), tf.zeros([2, 1, 3], tf.int32), [2])
        (d,), lp = tf.nn.ctc_greedy_decoder(tf.placeholder(tf.float32, [None, 4, 5]), tf.placeholder(tf.int32))
        assert d.indices.shape.as_list() == [None, 2] and d.dense_shape.shape.as_list() == [2]
        assert lp.shape.as_list() == [4, 1]
        dec, lp = tf.nn.ctc_beam_search_decoder(tf.placeholder(tf.float64, [None, None, 5]),
                                                tf.placeholder(tf.int32, [3]), beam_width=3, top_paths=2)
        assert len(dec) == 2 and lp.shape.as_list() == [3, 2] and lp.dtype == tf.float64
        with pytest.raises(ValueError, match="Attr 'beam_width' of 'CTCBeamSearchDecoder' Op passed 0 less than"):
            tf.nn.ctc_beam_search_decoder(tf.zeros([2, 1, 3]), [2], beam_width=0)
        with pytest.raises(ValueError, match="Attr 'top_paths' of 'CTCBeamSearchDecoder' Op passed 0 less than"):
            tf.nn.ctc_beam_search_decoder(tf.zeros([2, 1, 3]), [2], top_paths=0)
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 1 and 2"):
            tf.nn.ctc_greedy_decoder(tf.zeros([2, 1, 3]), [2, 2])


_X = np.random.RandomState(0).randn(3, 2, 4).astype(np.float32)
_IND = np.array([[0, 0], [1, 0], [1, 1]], np.int64)
_VAL = np.array([1, 2, 2], np.int32)


@pytest.mark.parametrize("args, message", [
    ((_X, _IND, _VAL, [3, 3, 3]), "len(sequence_length) != batch_size.  len(sequence_length):  3 batch_size: 2"),
    ((_X, _IND, _VAL, [4, 3]), "sequence_length(0) <= 3"),
    ((_X, _IND, _VAL, [-1, 3]), "seq_len(0) < 0"),
    ((_X, _IND, _VAL, [1, 1]), "Not enough time for target transition sequence (required: 2, available: 1)1You can"),
    ((_X, _IND[1:], _VAL[1:], [3, 3]), "Labels length is zero in batch 0"),
    ((_X, _IND[::-1].copy(), _VAL, [3, 3]), "indices[1] = [1,0] is out of order. Many sparse ops require sorted"),
    ((_X, np.array([[0, 0], [0, 0], [1, 0]], np.int64), _VAL, [3, 3]), "indices[1] = [0,0] is repeated"),
    ((_X, np.array([[0, 0], [1, 0], [2, 0]], np.int64), _VAL, [3, 3]),
     "indices[2] = [2,0] is out of bounds: need 0 <= index < [2,1]"),
    ((_X, _IND, np.array([1, -1, 2], np.int32), [3, 3]),
     "All labels must be nonnegative integers, batch: 1 labels: -1,2"),
    ((_X, _IND, np.array([1, 3, 2], np.int32), [3, 3]),
     "Saw a non-null label (index >= num_classes - 1) following a null label, batch: 1 num_classes: 4 labels: 3,2"),
    ((_X, _IND[:, :1].copy(), _VAL, [3, 3]), "labels_indices second dimension must be >= 1. Received 1"),
    ((_X[:0], np.zeros((0, 2), np.int64), np.zeros(0, np.int32), [0, 0]),
     "Max time or first dimension of input cannot be 0."),
    ((_X[:, :0], np.zeros((0, 2), np.int64), np.zeros(0, np.int32), np.zeros(0, np.int32)), "batch_size must not be 0"),
])
def test_loss_runtime_errors(args, message):
    from tensorweave.ops.ctc_ops import _ctc_loss_op
    x, ind, val, seq = args
    with tf.Graph().as_default():
        placeholders = [tf.placeholder(tf.float32), tf.placeholder(tf.int64), tf.placeholder(tf.int32),
                        tf.placeholder(tf.int32)]
        loss, _ = _ctc_loss_op(placeholders[0], tf.SparseTensor(placeholders[1], placeholders[2], [2, 2]),
                               placeholders[3])
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            _run(loss, dict(zip(placeholders, [x, ind, val, np.asarray(seq, np.int32)])))
    assert message in info.value.message and "CTCLoss" in info.value.message


@pytest.mark.parametrize("which", ["greedy", "beam"])
def test_decoder_runtime_errors(which):
    def build(x, seq, **kw):
        if which == "greedy":
            return tf.nn.ctc_greedy_decoder(x, seq, **kw)[1]
        return tf.nn.ctc_beam_search_decoder(x, seq, **kw)[1]
    with tf.Graph().as_default():
        xp, sp = tf.placeholder(tf.float32), tf.placeholder(tf.int32)
        out = build(xp, sp)
        with pytest.raises(tf.errors.FailedPreconditionError, match=r"sequence_length\(0\) <= 3"):
            _run(out, {xp: _X, sp: [4, 2]})
        with pytest.raises(tf.errors.FailedPreconditionError, match="len.sequence_length. != batch_size"):
            _run(out, {xp: _X, sp: [3, 2, 1]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="inputs must not be empty"):
            _run(out, {xp: _X[:, :, :0], sp: [1, 1]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="sequence_length is not a vector"):
            _run(out, {xp: _X, sp: [[1, 1]]})
        if which == "beam":
            with pytest.raises(tf.errors.InvalidArgumentError, match="requested more paths than the beam width."):
                _run(tf.nn.ctc_beam_search_decoder(xp, sp, beam_width=2, top_paths=3)[1], {xp: _X, sp: [3, 2]})
            with pytest.raises(tf.errors.InvalidArgumentError, match="Less leaves in the beam search than requested."):
                _run(tf.nn.ctc_beam_search_decoder(xp, sp, beam_width=5, top_paths=2)[1], {xp: _X, sp: [0, 1]})
        else:
            with pytest.raises(tf.errors.InvalidArgumentError, match="blank_index expected to be between -4 and 3 but"):
                _run(tf.nn.ctc_greedy_decoder(xp, sp, blank_index=5)[1], {xp: _X, sp: [3, 2]})


# ---- decoders ------------------------------------------------------------------------------------
def test_hand_computed_decoders():
    # Two steps with probabilities (0.5, 0.3, blank 0.2) each: p("0") = .25 + .1 + .1 = .45,
    # p("1") = .09 + .06 + .06 = .21, p("") = .04, p("01") = p("10") = .15.
    x = np.log(np.array([[[0.5, 0.3, 0.2]], [[0.5, 0.3, 0.2]]]))
    with tf.Graph().as_default():
        dec, lp = tf.nn.ctc_beam_search_decoder(x, [2], beam_width=10, top_paths=2)
        vals = _run([tf.sparse.to_dense(d) for d in dec] + [lp])
        np.testing.assert_array_equal(vals[0], [[0]])
        np.testing.assert_array_equal(vals[1], [[1]])
        np.testing.assert_allclose(vals[2], np.log([[0.45, 0.21]]), rtol=1e-6)
        # A beam of one keeps only "0" after the first step (the empty prefix is pruned): .25 + .1.
        dec, lp = tf.nn.ctc_beam_search_decoder(x, [2], beam_width=1)
        vals = _run([tf.sparse.to_dense(dec[0]), lp])
        np.testing.assert_array_equal(vals[0], [[0]])
        np.testing.assert_allclose(vals[1], np.log([[0.35]]), rtol=1e-6)
        (d,), lp = tf.nn.ctc_greedy_decoder(x, [2])
        vals = _run([tf.sparse.to_dense(d), lp])
        np.testing.assert_array_equal(vals[0], [[0]])
        np.testing.assert_allclose(vals[1], [[-2 * np.log(0.5)]], rtol=1e-6)
        (d,), lp = tf.nn.ctc_greedy_decoder(x, [2], merge_repeated=False)
        np.testing.assert_array_equal(_run(tf.sparse.to_dense(d)), [[0, 0]])


_DEC_CASES = ("flat", "peaked", "wide", "long")


@pytest.mark.parametrize("name", _DEC_CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("merge", [0, 1])
def test_decoders_match_tf(name, dtype, merge):
    x = _TF["dec_%s_x" % name].astype(dtype)
    seq = _TF["dec_%s_seq" % name]
    with tf.Graph().as_default():
        (d,), lp = tf.nn.ctc_greedy_decoder(tf.constant(x), seq, merge_repeated=bool(merge))
        key = "greedy_%s_%s_%d" % (name, dtype, merge)
        vals = _run([d.indices, d.values, d.dense_shape, lp])
        for v, suffix in zip(vals[:3], ("_ind", "_val", "_shape")):
            np.testing.assert_array_equal(v, _TF[key + suffix], err_msg=key + suffix)
        assert vals[3].dtype == dtype
        np.testing.assert_allclose(vals[3], _TF[key + "_lp"], rtol=1e-6)
        for bw, tp in ((1, 1), (2, 2), (3, 3), (8, 4), (30, 5), (100, 3)):
            key = "beam_%s_%s_%d_%d_%d" % (name, dtype, merge, bw, tp)
            dec, lp = tf.nn.ctc_beam_search_decoder(tf.constant(x), seq, beam_width=bw, top_paths=tp,
                                                    merge_repeated=bool(merge))
            vals = _run([[e.indices, e.values, e.dense_shape] for e in dec] + [lp])
            for p in range(tp):
                for v, suffix in zip(vals[p], ("ind", "val", "shape")):
                    np.testing.assert_array_equal(v, _TF["%s_p%d_%s" % (key, p, suffix)], err_msg="%s p%d" % (key, p))
            assert vals[-1].dtype == dtype
            np.testing.assert_allclose(vals[-1], _TF[key + "_lp"], rtol=1e-6, atol=1e-6, err_msg=key)


@pytest.mark.parametrize("name", _DEC_CASES)
def test_decoder_variants_match_tf(name):
    x = _TF["dec_%s_x" % name]
    seq = _TF["dec_%s_seq" % name]
    with tf.Graph().as_default():
        (d,), _ = tf.nn.ctc_greedy_decoder(tf.constant(x), seq, blank_index=1)
        np.testing.assert_array_equal(_run(tf.sparse.to_dense(d)), _TF["greedy_%s_blank1" % name])
        dec, lp = tf.nn.ctc_beam_search_decoder_v2(tf.constant(x), seq, beam_width=4, top_paths=2)
        vals = _run([tf.sparse.to_dense(e, default_value=-1) for e in dec] + [lp])
        for i, v in enumerate(vals):
            np.testing.assert_allclose(v, _TF["beam_v2_%s_%d" % (name, i)], rtol=1e-6)


def test_unique_labels_match_tf():
    with tf.Graph().as_default():
        y, idx = tf.nn.ctc_unique_labels(tf.constant(_TF["unique_in"]))
        assert y.dtype == tf.int64 and idx.dtype == tf.int32
        vals = _run([y, idx])
    np.testing.assert_array_equal(vals[0], _TF["unique_y"])
    np.testing.assert_array_equal(vals[1], _TF["unique_idx"])


def test_eager():
    with context.eager_mode():
        loss = tf.nn.ctc_loss(_sparse([[0, 1]]), tf.constant(_X[:, :1]), [3])
        (d,), lp = tf.nn.ctc_greedy_decoder(tf.constant(_X), [3, 2])
        dec, blp = tf.nn.ctc_beam_search_decoder(tf.constant(_X), [3, 2], beam_width=3, top_paths=2)
        eager = [loss.numpy(), d.values.numpy(), lp.numpy(), dec[1].values.numpy(), blp.numpy()]
    with tf.Graph().as_default():
        loss = tf.nn.ctc_loss(_sparse([[0, 1]]), tf.constant(_X[:, :1]), [3])
        (d,), lp = tf.nn.ctc_greedy_decoder(tf.constant(_X), [3, 2])
        dec, blp = tf.nn.ctc_beam_search_decoder(tf.constant(_X), [3, 2], beam_width=3, top_paths=2)
        graph = _run([loss, d.values, lp, dec[1].values, blp])
    for a, b in zip(eager, graph):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(graph[3], [2, 0, 0, 2])  # TF's values (probed)


def test_training_decreases_loss():
    rng = np.random.RandomState(3)
    with tf.Graph().as_default():
        logits = tf.Variable(rng.randn(8, 2, 5).astype(np.float32) * 0.1)
        loss = tf.reduce_mean(tf.nn.ctc_loss(_sparse([[0, 1, 2], [3, 3]]), logits, [8, 6]))
        step = tf.train.AdamOptimizer(0.1).minimize(loss)
        (d,), _ = tf.nn.ctc_greedy_decoder(logits, [8, 6])
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            first = s.run(loss)
            for _ in range(60):
                s.run(step)
            last, decoded = s.run([loss, tf.sparse.to_dense(d, default_value=-1)])
    assert last < 0.1 * first
    np.testing.assert_array_equal(decoded, [[0, 1, 2], [3, 3, -1]])


def test_eager_gradient_tape_and_batch_major_v2():
    with context.eager_mode():
        xt = tf.constant(_X)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            loss = tf.reduce_sum(tf.nn.ctc_loss(tf.SparseTensor(_IND, _VAL, [2, 2]), xt, [3, 3]))
        grad = tape.gradient(loss, xt).numpy()
    # TF's values (probed): loss [2.956557, 3.5909092]; gradient row t=0.
    np.testing.assert_allclose(loss.numpy(), 2.956557 + 3.5909092, rtol=1e-6)
    np.testing.assert_allclose(grad[0], [[0.30096766, -0.02165069, 0.13723414, -0.416551],
                                         [0.6287442, 0.03655759, -0.7487986, 0.08349688]], atol=1e-6)
    with tf.Graph().as_default():
        a = tf.nn.ctc_loss_v2([[1, 2], [3, 3]], _X, [2, 2], [3, 3], blank_index=0)
        b = tf.nn.ctc_loss_v2([[1, 2], [3, 3]], _X.transpose(1, 0, 2), [2, 2], [3, 3], logits_time_major=False,
                              blank_index=0)
        va, vb = _run([a, b])
    np.testing.assert_array_equal(va, vb)
