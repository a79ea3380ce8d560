"""`tf.contrib.factorization.WALSModel` (TF 1.15 semantics; TF 2.21 has no contrib): row and column
sweeps, losses and projections against a dense NumPy WALS with the same initial factors and weights,
convergence on a low-rank matrix, and the error paths."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib.factorization import WALSModel


def _problem(seed=0, m=7, n=5, k=3, density=0.6):
    rng = np.random.RandomState(seed)
    a = rng.randn(m, n).astype(np.float32)
    mask = rng.rand(m, n) < density
    mask[np.arange(m), np.arange(m) % n] = True  # every row and column observed
    mask[np.arange(n) % m, np.arange(n)] = True
    u0 = rng.randn(m, k).astype(np.float32)
    v0 = rng.randn(n, k).astype(np.float32)
    rw = rng.uniform(0.5, 2.0, m).astype(np.float32)
    cw = rng.uniform(0.5, 2.0, n).astype(np.float32)
    return a * mask, mask, u0, v0, rw, cw


def _sparse(a, mask, rows=None):
    idx = np.argwhere(mask)
    if rows is not None:
        idx = idx[np.isin(idx[:, 0], rows)]
    return tf.SparseTensor(idx.astype(np.int64), a[idx[:, 0], idx[:, 1]], a.shape), idx


def _weights(mask, w0, rw, cw):
    return np.where(mask, w0 + (np.outer(rw, cw) if rw is not None else 0.0), w0)


def _np_solve(a, w, v, lam):
    """Dense WALS: each row solves (lam I + V^T diag(W_i) V) u_i = V^T (W_i * a_i)."""
    k = v.shape[1]
    return np.stack([np.linalg.solve(lam * np.eye(k) + v.T @ (w[i][:, None] * v), v.T @ (w[i] * a[i]))
                     for i in range(a.shape[0])])


def _np_loss(a, w, u, v, lam, rows, n_total):
    sel = np.asarray(rows)
    scale = n_total / len(sel)
    r = a[sel] - u[sel] @ v.T
    return ((w[sel] * r ** 2).sum() * scale, lam * ((u[sel] ** 2).sum() * scale + (v ** 2).sum()),
            w[sel].sum() * scale)


def _sweep(sess, model, row_update, col_update):
    sess.run(model.row_update_prep_gramian_op)
    sess.run(model.initialize_row_update_op)
    sess.run(row_update)
    sess.run(model.col_update_prep_gramian_op)
    sess.run(model.initialize_col_update_op)
    sess.run(col_update)


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("use_cache", [True, False])
def test_row_and_col_sweep_match_numpy(weighted, use_cache):
    a, mask, u0, v0, rw, cw = _problem()
    w0, lam = 0.3, 0.05
    w = _weights(mask, w0, rw if weighted else None, cw)
    with tf.Graph().as_default(), tf.Session() as sess:
        sp, _ = _sparse(a, mask)
        model = WALSModel(7, 5, 3, unobserved_weight=w0, regularization=lam, row_init=u0, col_init=v0,
                          row_weights=rw if weighted else None, col_weights=cw if weighted else None,
                          use_factors_weights_cache=use_cache, use_gramian_cache=use_cache)
        new_rows, row_update, row_loss, row_reg, row_sw = model.update_row_factors(sp_input=sp)
        new_cols, col_update, col_loss, col_reg, col_sw = model.update_col_factors(sp_input=sp)
        sess.run(model.initialize_op)
        sess.run(model.worker_init)
        sess.run(model.row_update_prep_gramian_op)
        sess.run(model.initialize_row_update_op)
        _, got_loss, got_reg, got_sw = sess.run([row_update, row_loss, row_reg, row_sw])
        u1 = _np_solve(a.astype(np.float64), w, v0.astype(np.float64), lam)
        np.testing.assert_allclose(sess.run(model.row_factors[0]), u1, rtol=1e-4, atol=1e-4)
        exp = _np_loss(a, w, u1, v0, lam, range(7), 7)
        np.testing.assert_allclose([got_loss, got_reg, got_sw], exp, rtol=1e-4)
        sess.run(model.col_update_prep_gramian_op)
        sess.run(model.initialize_col_update_op)
        _, got_loss, got_reg, got_sw = sess.run([col_update, col_loss, col_reg, col_sw])
        v1 = _np_solve(a.T.astype(np.float64), w.T, u1, lam)
        np.testing.assert_allclose(sess.run(model.col_factors[0]), v1, rtol=1e-4, atol=1e-4)
        exp = _np_loss(a.T, w.T, v1, u1, lam, range(5), 5)
        np.testing.assert_allclose([got_loss, got_reg, got_sw], exp, rtol=1e-4)


def test_row_subset_transposed_input_and_normalization():
    a, mask, u0, v0, rw, cw = _problem(seed=1)
    w0, lam = 0.2, 0.1
    w = _weights(mask, w0, rw, cw)
    rows = [5, 2]
    with tf.Graph().as_default(), tf.Session() as sess:
        # The rows 5 and 2, given transposed ([col, row] indices) and with row 5 first.
        idx = np.argwhere(mask)
        idx = np.concatenate([idx[idx[:, 0] == 5], idx[idx[:, 0] == 2]])
        sp_t = tf.SparseTensor(idx[:, ::-1].copy().astype(np.int64), a[idx[:, 0], idx[:, 1]], [5, 7])
        model = WALSModel(7, 5, 3, unobserved_weight=w0, regularization=lam, row_init=u0, col_init=v0,
                          row_weights=list(rw), col_weights=[list(cw)])
        new_rows, row_update, row_loss, row_reg, row_sw = model.update_row_factors(sp_input=sp_t,
                                                                                   transpose_input=True)
        sess.run([model.initialize_op, model.worker_init])
        sess.run(model.row_update_prep_gramian_op)
        sess.run(model.initialize_row_update_op)
        got, _, loss, reg, sw = sess.run([new_rows, row_update, row_loss, row_reg, row_sw])
        u1 = _np_solve(a.astype(np.float64), w, v0.astype(np.float64), lam)
        np.testing.assert_allclose(got, u1[rows], rtol=1e-4, atol=1e-4)
        expected_u = u0.copy()
        expected_u[rows] = u1[rows]
        np.testing.assert_allclose(sess.run(model.row_factors[0]), expected_u, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose([loss, reg, sw], _np_loss(a, w, expected_u, v0, lam, rows, 7), rtol=1e-4)


def test_projection_matches_numpy_and_leaves_factors():
    a, mask, u0, v0, rw, cw = _problem(seed=2)
    w0, lam = 0.5, 0.01
    with tf.Graph().as_default(), tf.Session() as sess:
        sp, _ = _sparse(a, mask, rows=[3, 4])
        model = WALSModel(7, 5, 3, unobserved_weight=w0, regularization=lam, row_init=u0, col_init=v0,
                          row_weights=rw, col_weights=cw)
        proj = model.project_row_factors(sp_input=sp, projection_weights=[2.0, 0.5])
        proj_default = model.project_row_factors(sp_input=sp)
        sp_cols, _ = _sparse(a.T, mask.T, rows=[1])
        proj_col = model.project_col_factors(sp_input=sp_cols, transpose_input=True)
        sess.run([model.initialize_op, model.worker_init])
        sess.run(model.initialize_row_update_op)  # caches the column factors for row projections
        w = _weights(mask, w0, np.array([0, 0, 0, 2.0, 0.5, 0, 0]), cw)
        u = _np_solve(a.astype(np.float64), w, v0.astype(np.float64), lam)
        np.testing.assert_allclose(sess.run(proj), u[[3, 4]], rtol=1e-4, atol=1e-4)
        w = _weights(mask, w0, np.ones(7), cw)
        u = _np_solve(a.astype(np.float64), w, v0.astype(np.float64), lam)
        np.testing.assert_allclose(sess.run(proj_default), u[[3, 4]], rtol=1e-4, atol=1e-4)
        sess.run(model.initialize_col_update_op)  # caches the row factors for column projections
        w = _weights(mask, w0, rw, np.ones(5))
        v = _np_solve(a.T.astype(np.float64), w.T, u0.astype(np.float64), lam)
        np.testing.assert_allclose(sess.run(proj_col), v[[1]], rtol=1e-4, atol=1e-4)
        np.testing.assert_array_equal(sess.run(model.row_factors[0]), u0)


def test_converges_on_low_rank_matrix():
    rng = np.random.RandomState(3)
    a = (rng.randn(12, 2) @ rng.randn(2, 10)).astype(np.float32)
    mask = np.ones_like(a, bool)
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.set_random_seed(1)
        sp, _ = _sparse(a, mask)
        model = WALSModel(12, 10, 2, unobserved_weight=1.0, regularization=1e-4, row_weights=None,
                          col_weights=None)
        _, row_update, row_loss, _, row_sw = model.update_row_factors(sp_input=sp)
        _, col_update, _, _, _ = model.update_col_factors(sp_input=sp)
        sess.run([model.initialize_op, model.worker_init])
        for _ in range(15):
            _sweep(sess, model, row_update, col_update)
        u, v = sess.run([model.row_factors[0], model.col_factors[0]])
        np.testing.assert_allclose(u @ v.T, a, atol=1e-2)
        sess.run(model.row_update_prep_gramian_op)
        sess.run(model.initialize_row_update_op)
        loss, sw = sess.run([row_loss, row_sw])
        assert np.sqrt(loss / sw) < 1e-2
        assert sw == pytest.approx(120.0)


def test_random_init_shapes_and_names():
    with tf.Graph().as_default(), tf.Session() as sess:
        model = WALSModel(4, 6, 2, row_init="random", col_init="random", regularization=None)
        sess.run(model.initialize_op)
        assert sess.run(model.row_factors[0]).shape == (4, 2)
        assert sess.run(model.col_factors[0]).shape == (6, 2)
        assert model.row_factors[0].op.name.endswith("row_factors_shard_0")
        np.testing.assert_array_equal(sess.run(model.row_weights[0]), np.ones(4))


def test_error_paths():
    with tf.Graph().as_default():
        with pytest.raises(NotImplementedError, match="num_row_shards=1"):
            WALSModel(4, 6, 2, num_row_shards=2)
        with pytest.raises(NotImplementedError, match="num_col_shards=1"):
            WALSModel(4, 6, 2, num_col_shards=3)
        with pytest.raises(ValueError, match="both be None"):
            WALSModel(4, 6, 2, row_weights=None, col_weights=1.0)
        with pytest.raises(ValueError, match="row_weights must have 4 entries"):
            WALSModel(4, 6, 2, row_weights=[1.0, 2.0])
        with pytest.raises(ValueError, match="non-negative"):
            WALSModel(4, 6, 2, col_weights=-1.0)
        with pytest.raises(ValueError, match=r"row_factors init has shape \[3, 2\], expected \[4, 2\]"):
            WALSModel(4, 6, 2, row_init=np.zeros([3, 2]))
        with pytest.raises(ValueError, match="Unsupported col_factors init 'zeros'"):
            WALSModel(4, 6, 2, col_init="zeros")
        model = WALSModel(4, 6, 2)
        with pytest.raises(TypeError, match="sp_input must be a SparseTensor"):
            model.update_row_factors(sp_input=np.zeros([4, 6]))
