"""`tf.contrib.opt` (TF 1.15 semantics; TF 2.21 has no contrib): expected values are NumPy
re-implementations of TF 1.15's update rules (`weight_decay_optimizers.py`, `lazy_adam_optimizer.py`,
`moving_average_optimizer.py`, `external_optimizer.py`), run over several steps."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib import opt


def _f32(x):
    """A Python hyper-parameter as TF uses it: a float32 constant cast to the variable's dtype."""
    return float(np.float32(x))


def _powers(t, b1=0.9, b2=0.999):
    """Adam's float32 non-slot variables beta1_power/beta2_power at step t (multiplied in float32)."""
    p1, p2 = np.float32(b1), np.float32(b2)
    for _ in range(t - 1):
        p1, p2 = np.float32(p1 * np.float32(b1)), np.float32(p2 * np.float32(b2))
    return float(p1), float(p2)


def _adam_np(var, g, m, v, t, lr=0.1, b1=0.9, b2=0.999, eps=1e-8):
    lr, b1, b2, eps = _f32(lr), _f32(b1), _f32(b2), _f32(eps)
    b1p, b2p = _powers(t)
    lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    return var - lr_t * m / (np.sqrt(v) + eps), m, v


def test_adamw_dense_matches_numpy():
    x0 = np.array([1.0, -2.0, 3.0])
    w0 = np.array([0.5, 0.5])
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.Variable(x0, name="x")
        w = tf.Variable(w0, name="w")
        loss = tf.reduce_sum(tf.square(x)) + tf.reduce_sum(w * 3.0)
        o = opt.AdamWOptimizer(weight_decay=0.01, learning_rate=0.1)
        train = o.apply_gradients(o.compute_gradients(loss), decay_var_list=[x])
        # TF 1.15's minimize() calls apply_gradients() without decay_var_list, which resets it: every
        # variable is decayed (reproduced as is).
        x2 = tf.Variable(x0, name="x2")
        w2 = tf.Variable(w0, name="w2")
        train2 = opt.AdamWOptimizer(weight_decay=0.01, learning_rate=0.1).minimize(
            tf.reduce_sum(tf.square(x2)) + tf.reduce_sum(w2 * 3.0), decay_var_list=[x2])
        assert o.get_name() == "AdamW" and o.get_slot(x, "m").op.name == "x/AdamW"
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run([train, train2])
        xv, wv, x2v, w2v = sess.run([x, w, x2, w2])
    xs, mx, vx = x0.copy(), 0 * x0, 0 * x0
    ws, mw, vw = w0.copy(), 0 * w0, 0 * w0
    w2s, mw2, vw2 = w0.copy(), 0 * w0, 0 * w0
    for t in range(1, 4):
        gx = 2 * xs
        xs = xs - 0.01 * xs  # decay first, with the gradient taken before it
        xs, mx, vx = _adam_np(xs, gx, mx, vx, t)
        ws, mw, vw = _adam_np(ws, np.full(2, 3.0), mw, vw, t)  # not in decay_var_list
        w2s, mw2, vw2 = _adam_np(w2s - 0.01 * w2s, np.full(2, 3.0), mw2, vw2, t)
    np.testing.assert_allclose(xv, xs, rtol=1e-10)
    np.testing.assert_allclose(wv, ws, rtol=1e-10)
    np.testing.assert_allclose(x2v, xs, rtol=1e-10)
    np.testing.assert_allclose(w2v, w2s, rtol=1e-10)


def test_adamw_sparse_decays_only_gathered_rows():
    v0 = np.arange(8.0).reshape(4, 2)
    with tf.Graph().as_default(), tf.Session() as sess:
        emb = tf.Variable(v0, name="emb")
        loss = tf.reduce_sum(tf.gather(emb, [1, 3, 1]))
        train = opt.AdamWOptimizer(weight_decay=0.1, learning_rate=0.01).minimize(loss)
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        out = sess.run(emb)
    ref = v0.copy()
    ref[[1, 3]] *= 0.9
    g = np.zeros_like(v0)
    g[1] = 2.0
    g[3] = 1.0
    ref, _, _ = _adam_np(ref, g, 0 * v0, 0 * v0, 1, lr=0.01)
    np.testing.assert_allclose(out, ref, rtol=1e-12)
    assert np.array_equal(out[[0, 2]], v0[[0, 2]])


def test_momentumw_and_extend():
    x0 = np.array([1.0, -2.0])
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.Variable(x0)
        loss = tf.reduce_sum(tf.square(x))
        train = opt.MomentumWOptimizer(weight_decay=0.05, learning_rate=0.1, momentum=0.9).minimize(loss)
        cls = opt.extend_with_decoupled_weight_decay(tf.train.GradientDescentOptimizer)
        y = tf.Variable(x0)
        train2 = cls(0.05, learning_rate=0.1).minimize(tf.reduce_sum(tf.square(y)), var_list=[y])
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run([train, train2])
        xv, yv = sess.run([x, y])
    xs, acc, ys = x0.copy(), 0 * x0, x0.copy()
    for _ in range(3):
        g = 2 * xs
        xs = xs * 0.95
        acc = _f32(0.9) * acc + g
        xs = xs - _f32(0.1) * acc
        gy = 2 * ys
        ys = ys * 0.95 - _f32(0.1) * gy
    np.testing.assert_allclose(xv, xs, rtol=1e-12)
    np.testing.assert_allclose(yv, ys, rtol=1e-12)


def test_lazy_adam_touches_only_gathered_rows():
    v0 = np.linspace(-1, 1, 10).reshape(5, 2)
    idx_steps = [[0, 2, 2], [2, 4], [0]]
    with tf.Graph().as_default(), tf.Session() as sess:
        emb = tf.Variable(v0, name="emb")
        ids = tf.placeholder(tf.int32, [None])
        loss = tf.reduce_sum(tf.square(tf.gather(emb, ids)))
        o = opt.LazyAdamOptimizer(learning_rate=0.1)
        train = o.minimize(loss)
        dense_var = tf.Variable(v0)
        dense_train = opt.LazyAdamOptimizer(learning_rate=0.1).minimize(tf.reduce_sum(tf.square(dense_var)))
        sess.run(tf.global_variables_initializer())
        for ids_v in idx_steps:
            sess.run([train, dense_train], {ids: ids_v})
        out, m_out, dense_out = sess.run([emb, o.get_slot(emb, "m"), dense_var])
    var, m, v = v0.copy(), np.zeros_like(v0), np.zeros_like(v0)
    dv, dm, dvv = v0.copy(), np.zeros_like(v0), np.zeros_like(v0)
    for t, ids_v in enumerate(idx_steps, 1):
        rows = sorted(set(ids_v))
        g = np.zeros_like(v0)
        for i in ids_v:
            g[i] += 2 * var[i]
        b1, b2 = _f32(0.9), _f32(0.999)
        b1p, b2p = _powers(t)
        lr = _f32(0.1) * np.sqrt(1 - b2p) / (1 - b1p)
        m[rows] = b1 * m[rows] + (1 - b1) * g[rows]
        v[rows] = b2 * v[rows] + (1 - b2) * g[rows] ** 2
        var[rows] -= lr * m[rows] / (np.sqrt(v[rows]) + _f32(1e-8))
        dv, dm, dvv = _adam_np(dv, 2 * dv, dm, dvv, t)
    np.testing.assert_allclose(out, var, rtol=1e-12)
    np.testing.assert_allclose(m_out, m, rtol=1e-12)
    np.testing.assert_array_equal(out[1], v0[1])  # never gathered: untouched
    np.testing.assert_allclose(dense_out, dv, rtol=1e-12)


def test_moving_average_optimizer_and_swapping_saver(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.Variable([1.0, 2.0], name="x")
        o = opt.MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.25), average_decay=0.5)
        with pytest.raises(RuntimeError, match="Must call apply_gradients"):
            o.swapping_saver()
        train = o.minimize(tf.reduce_sum(tf.square(x)))
        assert train.name == "train_with_avg"
        saver = o.swapping_saver()
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train)
        xv = sess.run(x)
        path = saver.save(sess, str(tmp_path / "model"))
    xs, avg = np.array([1.0, 2.0]), np.array([1.0, 2.0])
    for _ in range(3):
        xs = xs - 0.25 * 2 * xs
        avg = 0.5 * avg + 0.5 * xs  # sequential_update: the average sees the updated value
    np.testing.assert_allclose(xv, xs)
    reader = tf.train.load_checkpoint(path)
    np.testing.assert_allclose(reader.get_tensor("x"), avg)  # the average is saved under the variable's name
    np.testing.assert_allclose(reader.get_tensor("x/ExponentialMovingAverage"), xs)
    with tf.Graph().as_default(), tf.Session() as sess:  # num_updates warm-up: decay min(0.9, (1+n)/(10+n))
        y = tf.Variable([4.0], name="y")
        step = tf.train.get_or_create_global_step()
        o = opt.MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.5), average_decay=0.9, num_updates=step)
        train = o.minimize(tf.reduce_sum(y), global_step=step)
        sess.run(tf.global_variables_initializer())
        ys, av = 4.0, 4.0
        for n in range(3):
            sess.run(train)
            ys -= 0.5
            d = min(0.9, (1.0 + (n + 1)) / (10.0 + (n + 1)))  # the global step is incremented by the step
            av = d * av + (1 - d) * ys
        np.testing.assert_allclose(sess.run(o._ema.average(y)), [av], rtol=1e-6)


def test_scipy_optimizer_interface():
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.Variable([3.0, -4.0], dtype=tf.float64, name="x")
        y = tf.Variable(5.0, dtype=tf.float64, name="y")
        loss = tf.reduce_sum(tf.square(x - [1.0, 2.0])) + tf.square(y)
        seen = []
        o = opt.ScipyOptimizerInterface(loss, var_to_bounds={y: (0.5, np.inf)}, method="L-BFGS-B",
                                        options={"maxiter": 100})
        sess.run(tf.global_variables_initializer())
        o.minimize(sess, fetches=[loss], loss_callback=lambda lv: seen.append(lv))
        xv, yv = sess.run([x, y])
    np.testing.assert_allclose(xv, [1.0, 2.0], atol=1e-6)
    np.testing.assert_allclose(yv, 0.5, atol=1e-8)  # the bound is active
    assert seen[0] == pytest.approx(4 + 36 + 25) and seen[-1] == pytest.approx(0.25, abs=1e-6)


def test_scipy_constraints_slsqp():
    with tf.Graph().as_default(), tf.Session() as sess:
        v = tf.Variable([0.0, 0.0], dtype=tf.float64)
        loss = tf.reduce_sum(tf.square(v))
        o = opt.ScipyOptimizerInterface(loss, equalities=[v[0] + v[1] - 1.0], inequalities=[v[0] - 0.8],
                                        method="SLSQP")
        sess.run(tf.global_variables_initializer())
        o.minimize(sess)
        # min x^2 + y^2 s.t. x + y = 1, x >= 0.8 -> (0.8, 0.2)
        np.testing.assert_allclose(sess.run(v), [0.8, 0.2], atol=1e-6)
        with pytest.raises(ValueError, match="Bounds must be set using the var_to_bounds argument"):
            opt.ScipyOptimizerInterface(loss, bounds=[(0, 1)] * 2).minimize(sess)
        with pytest.raises(ValueError, match="'jac' is set automatically"):
            opt.ScipyOptimizerInterface(loss, jac=False).minimize(sess)


def _dense_and_sparse(v0, make_opt, rows):
    """Three steps of make_opt() minimizing sum(dense ** 2) and of another minimizing sum(gather(emb, rows) ** 2),
    both variables starting at v0: (the dense optimizer, the dense variable, its value, emb's value)."""
    with tf.Graph().as_default(), tf.Session() as sess:
        dense = tf.Variable(v0)
        emb = tf.Variable(v0)
        o = make_opt()
        t1 = o.minimize(tf.reduce_sum(tf.square(dense)))
        t2 = make_opt().minimize(tf.reduce_sum(tf.square(tf.gather(emb, rows))))
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run([t1, t2])
        return (o, dense) + tuple(sess.run([dense, emb]))


def test_nadam_dense_and_sparse():
    v0 = np.linspace(-1, 1, 8).reshape(4, 2)
    _, _, dv, ev = _dense_and_sparse(v0, lambda: opt.NadamOptimizer(0.1), [0, 2, 2])
    b1, b2, eps = _f32(0.9), _f32(0.999), _f32(1e-8)
    x, m, v = v0.copy(), np.zeros_like(v0), np.zeros_like(v0)
    y, my, vy = v0.copy(), np.zeros_like(v0), np.zeros_like(v0)
    for t in range(1, 4):
        b1p, b2p = _powers(t)
        lr = _f32(0.1) * np.sqrt(1 - b2p) / (1 - b1p)
        g = 2 * x
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        x = x - lr * (b1 * m + (1 - b1) * g) / (np.sqrt(v) + eps)
        rows = [0, 2]
        gy = np.zeros_like(v0)
        gy[0] = 2 * y[0]
        gy[2] = 4 * y[2]
        my = b1 * my + (1 - b1) * gy  # m and v decay everywhere, the variable moves only in the rows
        vy = b2 * vy + (1 - b2) * gy * gy
        m_bar = (1 - b1) * gy[rows] + b1 * my[rows]
        y[rows] -= lr * m_bar / (np.sqrt(vy[rows]) + eps)
    np.testing.assert_allclose(dv, x, rtol=1e-10)
    np.testing.assert_allclose(ev, y, rtol=1e-10)


def test_adamax_dense_and_sparse():
    v0 = np.linspace(-1, 1, 8).reshape(4, 2)
    o, dense, dv, ev = _dense_and_sparse(v0, lambda: opt.AdaMaxOptimizer(0.1), [1, 3, 1])
    assert o.get_slot(dense, "v").op.name.endswith("/AdaMax_1")
    b1, b2, eps = _f32(0.9), _f32(0.999), _f32(1e-8)
    x, m, v = v0.copy(), np.zeros_like(v0), np.zeros_like(v0)
    y, my, vy = v0.copy(), np.zeros_like(v0), np.zeros_like(v0)
    for t in range(1, 4):
        b1p = _powers(t)[0]
        g = 2 * x
        m = m * b1 + g * (1 - b1)
        v = np.maximum(v * b2, np.abs(g))
        x = x - _f32(0.1) / (1 - b1p) * (m / (v + eps))
        rows = [1, 3]
        gy = np.zeros_like(v0)
        gy[1] = 4 * y[1]
        gy[3] = 2 * y[3]
        my[rows] = my[rows] * b1 + gy[rows] * (1 - b1)
        vy[rows] = np.maximum(vy[rows] * b2, np.abs(gy[rows]))
        y[rows] += -_f32(0.1) / (1 - b1p) * (my[rows] / (vy[rows] + eps))
    np.testing.assert_allclose(dv, x, rtol=1e-10)
    np.testing.assert_allclose(ev, y, rtol=1e-10)
    np.testing.assert_array_equal(ev[[0, 2]], v0[[0, 2]])


def test_addsign_powersign():
    x0 = np.array([1.0, -2.0, 0.5])
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.Variable(x0)
        y = tf.Variable(x0)
        gs = tf.train.get_or_create_global_step()
        t1 = opt.AddSignOptimizer(0.1, alpha=1.0, beta=0.5).minimize(tf.reduce_sum(x * x * x), global_step=gs)
        decay = opt.PowerSignOptimizer(0.1, beta=0.5, sign_decay_fn=lambda step: 0.5)
        t2 = decay.minimize(tf.reduce_sum(tf.sin(y)))
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run([t1, t2])
        xv, yv = sess.run([x, y])
    beta, lr = _f32(0.5), _f32(0.1)
    xs, mx = x0.copy(), np.zeros(3)
    ys, my = x0.copy(), np.zeros(3)
    for _ in range(3):
        g = 3 * xs ** 2
        mx = beta * mx + (1 - beta) * g
        xs = xs - lr * (1.0 + np.sign(g) * np.sign(mx)) * g
        g = np.cos(ys)
        my = beta * my + (1 - beta) * g
        ys = ys - lr * np.exp(_f32(1.0) * 0.5 * np.sign(g) * np.sign(my)) * g
    np.testing.assert_allclose(xv, xs, rtol=1e-10)
    np.testing.assert_allclose(yv, ys, rtol=1e-7)


def test_multitask_optimizer_wrapper_and_clip():
    with tf.Graph().as_default(), tf.Session() as sess:
        a = tf.Variable([1.0, 2.0], name="a")
        b = tf.Variable([3.0], name="b")
        use_b = tf.placeholder(tf.float32, [])
        loss = tf.reduce_sum(tf.square(a)) + use_b * tf.reduce_sum(b)
        o = opt.MultitaskOptimizerWrapper(tf.train.MomentumOptimizer(0.1, momentum=0.9))
        gv = o.compute_gradients(loss)
        clipped, norm = opt.clip_gradients_by_global_norm(gv, 1.0)
        train = o.apply_gradients(clipped)
        sess.run(tf.global_variables_initializer())
        n0 = sess.run(norm, {use_b: 0.0})
        np.testing.assert_allclose(n0, np.sqrt(4 + 16))  # the zero gradient of b is ignored
        sess.run(train, {use_b: 0.0})
        av, bv, mb = sess.run([a, b, o.get_slot(b, "momentum")])
        np.testing.assert_allclose(bv, [3.0])  # all-zero gradient: update skipped
        np.testing.assert_allclose(mb, [0.0])
        g = np.array([2.0, 4.0]) / np.sqrt(20)  # clipped to norm 1
        np.testing.assert_allclose(av, [1.0, 2.0] - _f32(0.1) * g, rtol=1e-6)
        sess.run(train, {use_b: 1.0})
        assert sess.run(b)[0] < 3.0
    with pytest.raises(TypeError, match="must be an instance of tf.train.Optimizer"):
        opt.MultitaskOptimizerWrapper(object())


def test_variable_clipping_optimizer():
    v0 = np.array([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    with tf.Graph().as_default(), tf.Session() as sess:
        dense = tf.Variable(v0)
        emb = tf.Variable(v0)
        o = opt.VariableClippingOptimizer(tf.train.GradientDescentOptimizer(0.5), {dense: [1], emb: [1]}, 2.0)
        t1 = o.minimize(tf.reduce_sum(dense))
        t2 = opt.VariableClippingOptimizer(tf.train.GradientDescentOptimizer(0.5), {emb: [1]}, 2.0).minimize(
            tf.reduce_sum(tf.gather(emb, [0, 1])))
        sess.run(tf.global_variables_initializer())
        sess.run([t1, t2])
        dv, ev = sess.run([dense, emb])

    def clip_rows(m):
        n = np.linalg.norm(m, axis=1, keepdims=True)
        return np.where(n > 2.0, m * 2.0 / n, m)

    np.testing.assert_allclose(dv, clip_rows(v0 - 0.5), rtol=1e-6)
    ref = v0.copy()
    ref[:2] = clip_rows(ref[:2] - 0.5)  # only the gathered rows are clipped
    np.testing.assert_allclose(ev, ref, rtol=1e-6)


def test_lars_optimizer():
    w0 = np.array([[1.0, -2.0], [0.5, 3.0]])
    b0 = np.array([0.1, -0.2])
    e0 = np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    with tf.Graph().as_default(), tf.Session() as sess:
        w = tf.Variable(w0, name="dense/kernel")
        b = tf.Variable(b0, name="dense/bias")
        e = tf.Variable(e0, name="emb")
        loss = tf.reduce_sum(tf.square(w)) + tf.reduce_sum(b * 3.0) + tf.reduce_sum(tf.gather(e, [2, 0, 2]))
        o = opt.LARSOptimizer(0.5, momentum=0.9, weight_decay=0.01, eeta=0.1, skip_list=["bias"])
        train = o.minimize(loss)
        sess.run(tf.global_variables_initializer())
        for _ in range(2):
            sess.run(train)
        wv, bv, ev = sess.run([w, b, e])
    ws, mw, bs, mb = w0.copy(), 0 * w0, b0.copy(), 0 * b0
    es, me = e0.copy(), 0 * e0
    mom = _f32(0.9)
    for _ in range(2):
        g = 2 * ws
        trust = 0.1 * np.linalg.norm(ws) / (np.linalg.norm(g) + 0.01 * np.linalg.norm(ws))
        mw = mw * 0.9 + g
        ws = ws - 0.5 * trust * mw
        mb = mb * 0.9 + 3.0
        bs = bs - 0.5 * mb  # skipped: no scaling
        ge = np.array([[1.0, 1.0], [2.0, 2.0]])  # rows 0 and 2 (2 gathered twice), plain sparse momentum
        me[[0, 2]] = me[[0, 2]] * mom + ge
        es[[0, 2]] -= _f32(0.5) * me[[0, 2]]
    np.testing.assert_allclose(wv, ws, rtol=1e-12)
    np.testing.assert_allclose(bv, bs, rtol=1e-12)
    np.testing.assert_allclose(ev, es, rtol=1e-12)
    with pytest.raises(ValueError, match="momentum should be positive"):
        opt.LARSOptimizer(0.1, momentum=-1.0)
