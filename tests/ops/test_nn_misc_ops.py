"""tf.nn names of tensorweave/ops/nn_misc_ops.py and nn_lrn_ops.py (LRN), plus `tf.log_sigmoid` and
`tf.clip_by_average_norm`: values and gradients recorded from TensorFlow 2.21 (`tf.compat.v1`, graph
mode; tests/data/make_array_misc_tf.py writes tests/data/array_misc_tf.npz). The op table
(tests/ops/op_table/rows_array_misc.py) checks LRN/LRNGrad against NumPy references."""

import os

import numpy as np
import pytest

import tensorweave as tf

TF = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "array_misc_tf.npz"))


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def _check(pairs, rtol=1e-6):
    names = [k for k, _ in pairs]
    got = _run([t for _, t in pairs])
    for k, g in zip(names, got):
        want = TF[k]
        g = np.asarray(g)
        assert g.dtype == want.dtype and g.shape == want.shape, (k, g.dtype, g.shape, want.dtype, want.shape)
        np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol, err_msg=k)


def test_lrn_values_and_gradients_match_tf():
    x = tf.constant(TF["lrn_x"])
    a = tf.nn.lrn(x, 2, 1.5, 0.3, 0.75)
    b = tf.nn.local_response_normalization(x)
    assert a.op.type == "LRN" and a.shape.as_list() == [2, 3, 3, 10]
    da = tf.gradients(a, x, grad_ys=TF["lrn_up"])[0]
    db = tf.gradients(b, x, grad_ys=TF["lrn_up"])[0]
    assert da.op.type == "LRNGrad"
    _check([("lrn_a", a), ("lrn_b", b), ("lrn_a_dx", da), ("lrn_b_dx", db)], rtol=2e-6)


def test_lrn_types_and_ranks_as_tf():
    with pytest.raises(TypeError, match="DataType float64 not in list of allowed values"):
        tf.nn.lrn(tf.zeros([1, 1, 1, 3], tf.float64))
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
        tf.nn.lrn(tf.zeros([1, 1, 3]))
    x = tf.placeholder_with_default(np.zeros([1, 1, 3], np.float32), None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="in must be 4-dimensional"):
        _run(tf.nn.lrn(x))
    h = tf.nn.lrn(tf.constant(TF["lrn_x"].astype(np.float16)), 2, 1.5, 0.3, 0.75)
    assert h.dtype == tf.float16
    np.testing.assert_allclose(_run(h), TF["lrn_a"], rtol=3e-3, atol=3e-3)


def test_lrn_float32_numerical_gradient():
    rng = np.random.RandomState(0)
    x0 = rng.randn(1, 2, 2, 6).astype(np.float32)
    x = tf.constant(x0)
    with tf.Session():
        err = tf.test.compute_gradient_error(x, [1, 2, 2, 6], tf.nn.lrn(x, 1, 0.8, 0.5, 0.6), [1, 2, 2, 6],
                                             x_init_value=x0, delta=1e-3)
    assert err < 2e-3


def test_activations_and_simple_functions_match_tf():
    v = tf.constant(TF["v"])
    cm = tf.constant(TF["cm"])
    _check([("log_sigmoid", tf.log_sigmoid(v)), ("cabn_small", tf.clip_by_average_norm(cm, 0.05)),
            ("cabn_large", tf.clip_by_average_norm(cm, 10.0)), ("crelu", tf.nn.crelu(cm)),
            ("crelu0", tf.nn.crelu(cm, axis=0)), ("swish", tf.nn.swish(v)),
            ("swish_grad", tf.gradients(tf.nn.swish(v), v)[0])])
    assert tf.nn.silu is tf.nn.swish and tf.math.log_sigmoid is tf.log_sigmoid
    with np.errstate(over="ignore"):
        want = TF["v"] / (1 + np.exp(-2.0 * TF["v"]))
    np.testing.assert_allclose(_run(tf.nn.swish(v, beta=2.0)), want, rtol=1e-6)


def test_log_poisson_loss_matches_tf():
    t, li = TF["lp_t"], TF["lp_l"]
    _check([("lpl", tf.nn.log_poisson_loss(t, li)),
            ("lpl_full", tf.nn.log_poisson_loss(t, li, compute_full_loss=True))])
    with pytest.raises(ValueError, match="log_input and targets must have the same shape"):
        tf.nn.log_poisson_loss(tf.zeros([2]), tf.zeros([3]))


def test_moments_helpers_match_tf():
    mx = tf.constant(TF["mx"])
    cnt, mss, vss, shift = tf.nn.sufficient_statistics(mx, [0, 2])
    assert shift is None
    cnt2, mss2, vss2, sh2 = tf.nn.sufficient_statistics(mx, [1], shift=0.5, keep_dims=True)
    nm = tf.nn.normalize_moments(cnt2, mss2, vss2, sh2)
    nm0 = tf.nn.normalize_moments(cnt, mss, vss, None)
    wm = tf.nn.weighted_moments(mx, [0, 2], TF["fw"])
    wmk = tf.nn.weighted_moments(mx, [1], TF["fw"], keep_dims=True)
    _check([("ss_count", cnt), ("ss_m", mss), ("ss_v", vss), ("ss2_count", cnt2), ("ss2_m", mss2), ("ss2_v", vss2),
            ("nm_mean", nm[0]), ("nm_var", nm[1]), ("nm0_mean", nm0[0]), ("nm0_var", nm0[1]),
            ("wm_mean", wm[0]), ("wm_var", wm[1]), ("wm_mean_k", wmk[0]), ("wm_var_k", wmk[1])], rtol=2e-6)
    p = tf.placeholder(tf.float32, [None, 4, 5])
    c, m, _, _ = tf.nn.sufficient_statistics(p, [0, 2])
    got = _run([c, m], {p: TF["mx"]})
    np.testing.assert_allclose(got[0], TF["ss_count"])
    np.testing.assert_allclose(got[1], TF["ss_m"], rtol=2e-6)


def test_losses_and_zero_fraction_match_tf():
    pel = TF["pel"]
    _check([("cal", tf.nn.compute_average_loss(pel)),
            ("cal_w", tf.nn.compute_average_loss(pel, sample_weight=[1., 0., 2., 0.5], global_batch_size=8)),
            ("srl", tf.nn.scale_regularization_loss([tf.constant(1.5), tf.constant(2.25)])),
            ("zero_fraction", tf.nn.zero_fraction(TF["zf"])),
            ("zero_fraction_int", tf.math.zero_fraction(tf.constant([0, 3, 0, 0], tf.int32)))])
    np.testing.assert_allclose(_run(tf.nn.compute_average_loss(pel, sample_weight=[[1.], [0.], [2.], [0.5]],
                                                               global_batch_size=8)), TF["cal_w"], rtol=1e-6)
    with pytest.raises(ValueError, match="Expected a tensor with at least rank 1"):
        tf.nn.compute_average_loss(1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="global_batch_size must be positive"):
        _run(tf.nn.compute_average_loss(pel, global_batch_size=0))
    assert np.isnan(_run(tf.nn.zero_fraction(tf.zeros([0]))))


def test_batch_norm_with_global_normalization_matches_tf():
    bx = TF["bx"]
    bm, bv = np.array([0.1, -0.2, 0.3], np.float32), np.array([1.5, 0.5, 2.0], np.float32)
    bb, bg = np.array([0.0, 1.0, -1.0], np.float32), np.array([2.0, 0.5, 1.0], np.float32)
    _check([("bngn_scale", tf.nn.batch_norm_with_global_normalization(bx, bm, bv, bb, bg, 0.001, True)),
            ("bngn_noscale", tf.nn.batch_norm_with_global_normalization(input=bx, mean=bm, variance=bv, beta=bb,
                                                                        gamma=bg, variance_epsilon=0.001,
                                                                        scale_after_normalization=False))])


def _ids():
    idx = [[0, 0], [0, 1], [0, 2], [2, 0], [3, 1]]
    return (tf.SparseTensor(idx, tf.constant([1, 3, 1, 5, 0], tf.int64), [4, 3]),
            tf.SparseTensor(idx, tf.constant([1., 2., 0.5, 3., 1.5]), [4, 3]))


def test_embedding_lookup_sparse_matches_tf():
    params = tf.constant(TF["emb_params"])
    ids, wts = _ids()
    pairs = []
    for comb in ("sum", "mean", "sqrtn"):
        pairs.append(("els_w_" + comb, tf.nn.embedding_lookup_sparse(params, ids, wts, combiner=comb)))
        pairs.append(("els_" + comb, tf.nn.embedding_lookup_sparse(params, ids, None, combiner=comb)))
    els = tf.nn.embedding_lookup_sparse(params, ids, wts, combiner="sqrtn")
    pairs.append(("els_grad", tf.convert_to_tensor(tf.gradients(els ** 2, params)[0])))
    _check(pairs, rtol=2e-6)
    with pytest.raises(ValueError, match="combiner must be one of"):
        tf.nn.embedding_lookup_sparse(params, ids, None, combiner="max")
    with pytest.raises(TypeError, match="sp_ids must be SparseTensor"):
        tf.nn.embedding_lookup_sparse(params, tf.constant([1]), None)


def test_safe_embedding_lookup_sparse_matches_tf():
    params = TF["emb_params"]
    idx = [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1]]
    sids = tf.SparseTensor(idx, tf.constant([2, -1, 4, 0, 3], tf.int64), [2, 3, 2])
    sw = tf.SparseTensor(idx, tf.constant([1.0, 2.0, -1.0, 0.5, 2.0]), [2, 3, 2])
    pairs = [("sels_" + c, tf.nn.safe_embedding_lookup_sparse(params, sids, sw, combiner=c))
             for c in ("sum", "mean", "sqrtn")]
    pairs.append(("sels_default", tf.nn.safe_embedding_lookup_sparse(params, sids, None, default_id=5)))
    pairs.append(("sels_noweights", tf.nn.safe_embedding_lookup_sparse(params, sids, None)))
    assert pairs[0][1].shape.is_compatible_with([None, None, 3])  # TF: (?, ?, 3); tensorweave folds more
    _check(pairs, rtol=2e-6)


def test_collapse_repeated_matches_tf():
    out, n = tf.nn.collapse_repeated(TF["cr_labels"], [6, 4, 2])
    _check([("cr_labels_out", out), ("cr_len_out", n)])
