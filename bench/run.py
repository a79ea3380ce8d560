"""`make bench`: the issues' benchmark table. tensorweave against TensorFlow (`tensorflow.compat.v1`,
graph mode), PyTorch (CPU) and hand-written NumPy doing the same math, all measured in this run. Each
implementation of each workload runs in fresh processes, interleaved round-robin with the others
(two passes); tensorweave and NumPy under this interpreter, TensorFlow and PyTorch under the benchmark
environment's (bench/.venv, `make bench-env`; reported as not installed where it is missing). Prints
medians (min-max), ratios, targets, and writes bench/results.json and bench/RESULTS.md. Quote ratios
from one run only.

    python bench/run.py [--quick] [--only NAME,NAME] [--json PATH] [--markdown PATH] [--bench-python PY]
    python bench/run.py --profile NAME       # top ops by time, from RunMetadata step stats
    python bench/run.py --worker NAME --impl IMPL [--quick]   # one measurement (used by the driver)
"""

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time

import _harness as H
import keras_bench  # before TensorFlow's import: it sets TF_USE_LEGACY_KERAS=1 (tf.keras = tf-keras)
import numpy as np

sys.path.insert(0, H.ROOT)  # this checkout's tensorweave, as in the worker processes

_session_config = {}  # ConfigProto fields for the sessions the workloads create (set by --impl variants)
_trace = None  # under --profile: {(node name, op type): [microseconds, executions]}


def _session(tf):
    config = tf.ConfigProto(**_session_config) if _session_config else None
    return (tf.Session if _trace is None else _tracing_session(tf))(config=config)


def _tracing_session(tf):
    class TracingSession(tf.Session):
        """Runs with a full trace and adds each run's step stats to `_trace`."""

        def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
            md = tf.RunMetadata()
            out = super().run(fetches, feed_dict, tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), md)
            for dev in md.step_stats.dev_stats:
                for ns in dev.node_stats:
                    op_type = ns.timeline_label.partition(" = ")[2].partition("(")[0]
                    t = _trace.setdefault((ns.node_name, op_type), [0, 0])
                    t[0] += ns.all_end_rel_micros
                    t[1] += 1
            return out

    return TracingSession


# ---- Session.run of a+b ----------------------------------------------------------------------
def add_scalars(tf):
    a = tf.placeholder(tf.float32, [])
    b = tf.placeholder(tf.float32, [])
    c = a + b
    sess = _session(tf)
    feed = {a: 1.0, b: 2.0}
    assert sess.run(c, feed) == 3.0
    return lambda: sess.run(c, feed)


def add_scalars_numpy():
    f32 = np.float32
    return lambda: np.add(np.asarray(1.0, f32), np.asarray(2.0, f32))


# ---- 50-op elementwise chain -----------------------------------------------------------------
def _chain_input(n):
    return np.random.RandomState(0).uniform(-1, 1, n).astype(np.float32)


def _chain(tf, n):
    xv = _chain_input(n)
    x = tf.placeholder(tf.float32, [n])
    y = x
    for _ in range(10):
        y = tf.exp(tf.tanh(y + 1.0) * 0.5) * 0.3
    sess = _session(tf)
    assert np.allclose(sess.run(y, {x: xv}), _chain_numpy(n)(), rtol=1e-5), "chain result differs from NumPy"
    return lambda: sess.run(y, {x: xv})


def _chain_numpy(n):
    xv = _chain_input(n)

    def numpy_fn():
        v = xv
        for _ in range(10):
            v = np.exp(np.tanh(v + np.float32(1.0)) * np.float32(0.5)) * np.float32(0.3)
        return v

    return numpy_fn


def chain_1k(tf):
    return _chain(tf, 1000)


def chain_1k_numpy():
    return _chain_numpy(1000)


def chain_1m(tf):
    return _chain(tf, 1000000)


def chain_1m_numpy():
    return _chain_numpy(1000000)


# ---- the guide's `z += x[i]` loop ------------------------------------------------------------
def _rows():
    return np.random.RandomState(0).rand(500, 100).astype(np.float32)


def row_loop(tf):
    x = tf.placeholder(tf.float32, [500, 100])
    z = tf.zeros([100])
    for i in range(500):
        z += x[i]
    sess = _session(tf)
    xv = _rows()
    assert np.allclose(sess.run(z, {x: xv}), row_loop_numpy()(), rtol=1e-5), "row loop differs from NumPy"
    return lambda: sess.run(z, {x: xv})


def row_loop_numpy():
    xv = _rows()

    def numpy_fn():
        z = np.zeros(100, np.float32)
        for i in range(500):
            z = z + xv[i]
        return z

    return numpy_fn


# ---- quadratic fit with Adam -----------------------------------------------------------------
def _quadratic_data():
    rng = np.random.RandomState(1234)
    return [(xv, 5 * np.square(xv) + 3) for xv in (rng.uniform(-10, 10, 100).astype(np.float32)
                                                 for _ in range(1000))]


def quadratic_fit(tf):
    data = _quadratic_data()
    x = tf.placeholder(tf.float32)
    y = tf.placeholder(tf.float32)
    w = tf.get_variable("w", shape=[3, 1], initializer=tf.zeros_initializer())
    f = tf.stack([tf.square(x), x, tf.ones_like(x)], 1)
    yhat = tf.squeeze(tf.matmul(f, w), 1)
    loss = tf.nn.l2_loss(yhat - y) + 0.1 * tf.nn.l2_loss(w)
    train_op = tf.train.AdamOptimizer(0.1).minimize(loss)
    init = tf.global_variables_initializer()
    sess = _session(tf)

    def fit():
        sess.run(init)
        for xv, yv in data:
            sess.run([train_op, loss], {x: xv, y: yv})

    fit()
    w_np, _ = quadratic_fit_numpy()()
    assert np.allclose(sess.run(w), w_np, rtol=1e-3, atol=1e-3), "quadratic fit differs from NumPy"
    return fit


def quadratic_fit_numpy():
    data = _quadratic_data()

    def numpy_fn():
        wv = np.zeros((3, 1), np.float32)
        m = np.zeros_like(wv)
        v = np.zeros_like(wv)
        b1, b2, eps, lr = 0.9, 0.999, 1e-8, 0.1
        for t, (xv, yv) in enumerate(data, 1):
            fv = np.stack([xv * xv, xv, np.ones_like(xv)], 1)
            r = (fv @ wv)[:, 0] - yv
            loss = np.dot(r, r) / 2 + np.float32(0.1) * np.dot(wv[:, 0], wv[:, 0]) / 2  # fetched each step
            g = fv.T @ r[:, None] + np.float32(0.1) * wv
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            lr_t = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
            wv = wv - lr_t * m / (np.sqrt(v) + eps)
        return wv, loss

    return numpy_fn


# ---- MLP SGD step ----------------------------------------------------------------------------
_MLP_SIZES = [784, 512, 512, 10]


def _mlp_data():
    rng = np.random.RandomState(0)
    xv = rng.rand(128, 784).astype(np.float32)
    yv = rng.randint(0, 10, 128).astype(np.int32)
    init = [(rng.randn(i, o).astype(np.float32) * np.float32(np.sqrt(2.0 / i)), np.zeros(o, np.float32))
            for i, o in zip(_MLP_SIZES[:-1], _MLP_SIZES[1:])]
    return xv, yv, init


def mlp_step(tf):
    xv, yv, init = _mlp_data()
    x = tf.placeholder(tf.float32, [128, 784])
    y = tf.placeholder(tf.int32, [128])
    h = x
    params = []
    for i, (w0, b0) in enumerate(init):
        params += [tf.Variable(w0, name="w%d" % i), tf.Variable(b0, name="b%d" % i)]
        h = tf.matmul(h, params[-2]) + params[-1]
        if i < len(init) - 1:
            h = tf.nn.relu(h)
    np_step = mlp_step_numpy()
    return _checked_sgd_step(tf, y, h, params, {x: xv, y: yv}, np_step,
                             lambda: [a for wb in np_step.params for a in wb], "MLP")


def _checked_sgd_step(tf, labels, logits, params, feed, np_step, np_params, what):
    """SGD(0.01) on the mean sparse softmax cross entropy; after one step of both, asserts the
    parameters equal the hand-written NumPy step's (`np_params()`). Returns the step to time."""
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    sess = _session(tf)
    sess.run(tf.global_variables_initializer())
    sess.run(train, feed)
    np_step()
    assert all(np.allclose(sess.run(t), a, atol=1e-5) for t, a in zip(params, np_params())), \
        "%s step differs from NumPy" % what
    return lambda: sess.run(train, feed)


# ---- LSTM training step ------------------------------------------------------------------------------
_LSTM = dict(batch=64, steps=50, depth=128, units=256)


def _lstm_data():
    rng = np.random.RandomState(0)
    b, t, d, h = (_LSTM[k] for k in ("batch", "steps", "depth", "units"))
    xv = rng.uniform(-1, 1, (b, t, d)).astype(np.float32)
    kernel = (rng.randn(d + h, 4 * h) * np.sqrt(1.0 / (d + h))).astype(np.float32)
    return xv, kernel


def lstm_step(tf):
    """One GradientDescent(0.01) step of `dynamic_rnn(BasicLSTMCell(256))` on a [64, 50, 128] batch with
    loss mean(outputs ** 2), checked against the hand-written NumPy BPTT after one step."""
    xv, kernel = _lstm_data()
    x = tf.placeholder(tf.float32, xv.shape)
    cell = tf.nn.rnn_cell.BasicLSTMCell(_LSTM["units"])
    with tf.variable_scope("rnn", initializer=tf.constant_initializer(kernel)):
        outputs, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope="rnn")
    loss = tf.reduce_mean(tf.square(outputs))
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    sess = _session(tf)
    sess.run(tf.global_variables_initializer())
    sess.run(train, {x: xv})
    np_step = lstm_step_numpy()
    np_step()
    for var, want in zip(tf.trainable_variables(), np_step.params):
        assert np.allclose(sess.run(var), want, rtol=1e-4, atol=1e-6), "LSTM step differs from NumPy"
    return lambda: sess.run(train, {x: xv})


def lstm_step_numpy():
    xv, kernel = _lstm_data()
    b_, t_, d_, h_ = (_LSTM[k] for k in ("batch", "steps", "depth", "units"))
    w = kernel.copy()
    bias = np.zeros(4 * h_, np.float32)
    lr = np.float32(0.01)

    def sig(z):
        return np.float32(1) / (np.float32(1) + np.exp(-z))

    def numpy_fn():
        h = np.zeros((b_, h_), np.float32)
        c = np.zeros((b_, h_), np.float32)
        cache, hs = [], []
        for t in range(t_):
            xh = np.concatenate([xv[:, t], h], 1)
            i, j, f, o = np.split(xh @ w + bias, 4, 1)
            si, tj, sf, so = sig(i), np.tanh(j), sig(f + np.float32(1)), sig(o)
            c_new = c * sf + si * tj
            tc = np.tanh(c_new)
            h = tc * so
            cache.append((xh, c, si, tj, sf, so, tc))
            hs.append(h)
            c = c_new
        scale = np.float32(2.0 / (b_ * t_ * h_))
        dw = np.zeros_like(w)
        db = np.zeros_like(bias)
        dh_next = np.zeros((b_, h_), np.float32)
        dc_next = np.zeros((b_, h_), np.float32)
        for t in reversed(range(t_)):
            xh, c_prev, si, tj, sf, so, tc = cache[t]
            dh = hs[t] * scale + dh_next
            dc = dh * so * (1 - tc * tc) + dc_next
            dz = np.concatenate([dc * tj * si * (1 - si), dc * si * (1 - tj * tj), dc * c_prev * sf * (1 - sf),
                                 dh * tc * so * (1 - so)], 1)
            dw += xh.T @ dz
            db += dz.sum(0)
            dh_next = (dz @ w.T)[:, d_:]
            dc_next = dc * sf
        w[...] -= lr * dw
        bias[...] = bias - lr * db

    numpy_fn.params = [w, bias]
    return numpy_fn


def mlp_step_numpy():
    xv, yv, init = _mlp_data()
    batch, lr = 128, np.float32(0.01)
    params = [(w.copy(), b.copy()) for w, b in init]

    def numpy_fn():
        acts = [xv]
        for i, (w, b) in enumerate(params):
            z = acts[-1] @ w + b
            acts.append(np.maximum(z, 0) if i < len(params) - 1 else z)
        logits = acts[-1]
        e = np.exp(logits - logits.max(1, keepdims=True))
        p = e / e.sum(1, keepdims=True)
        p[np.arange(batch), yv] -= 1
        g = p / batch
        for i in range(len(params) - 1, -1, -1):
            w, b = params[i]
            gw = acts[i].T @ g
            gb = g.sum(0)
            if i:
                g = (g @ w.T) * (acts[i] > 0)
            params[i] = (w - lr * gw, b - lr * gb)

    numpy_fn.params = params
    return numpy_fn


# ---- small CNN SGD step ----------------------------------------------------------------------
def _np_conv_same(x, w):
    """3x3 SAME convolution, NHWC, by im2col + one matmul; returns (out, cols)."""
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(1, 2))  # n,h,w,c,3,3
    cols = cols.transpose(0, 1, 2, 4, 5, 3).reshape(n * h * wd, 9 * c)
    return (cols @ w.reshape(9 * c, -1)).reshape(n, h, wd, -1), cols


def _np_conv_same_grad_input(g, w):
    """Gradient of a 3x3 SAME convolution w.r.t. its input: a full correlation with the flipped filter."""
    wf = w[::-1, ::-1].transpose(0, 1, 3, 2)  # 3,3,out,in
    out, _ = _np_conv_same(g, wf)
    return out


def _np_pool(x):
    n, h, w, c = x.shape
    r = x.reshape(n, h // 2, 2, w // 2, 2, c)
    out = r.max(axis=(2, 4))
    mask = r == out[:, :, None, :, None, :]
    return out, mask


def _np_unpool(g, mask):
    n, h2, _, w2, _, c = mask.shape
    return (mask * g[:, :, None, :, None, :]).reshape(n, h2 * 2, w2 * 2, c)


def _cnn_data():
    rng = np.random.RandomState(0)
    xv = rng.rand(64, 28, 28, 1).astype(np.float32)
    yv = rng.randint(0, 10, 64).astype(np.int32)
    w1 = (rng.randn(3, 3, 1, 32) * np.sqrt(2 / 9)).astype(np.float32)
    w2 = (rng.randn(3, 3, 32, 64) * np.sqrt(2 / 288)).astype(np.float32)
    w3 = (rng.randn(7 * 7 * 64, 10) * np.sqrt(2 / 3136)).astype(np.float32)
    b1, b2, b3 = np.zeros(32, np.float32), np.zeros(64, np.float32), np.zeros(10, np.float32)
    return xv, yv, [w1, b1, w2, b2, w3, b3]


def cnn_step(tf):
    xv, yv, init = _cnn_data()
    batch = 64
    x = tf.placeholder(tf.float32, [batch, 28, 28, 1])
    y = tf.placeholder(tf.int32, [batch])
    v = [tf.Variable(a) for a in init]
    h = tf.nn.relu(tf.nn.conv2d(x, v[0], [1, 1, 1, 1], "SAME") + v[1])
    h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    h = tf.nn.relu(tf.nn.conv2d(h, v[2], [1, 1, 1, 1], "SAME") + v[3])
    h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    logits = tf.matmul(tf.reshape(h, [batch, -1]), v[4]) + v[5]
    np_step = cnn_step_numpy()
    return _checked_sgd_step(tf, y, logits, v, {x: xv, y: yv}, np_step, lambda: np_step.params, "CNN")


def cnn_step_numpy():
    xv, yv, p = _cnn_data()
    batch, lr = 64, np.float32(0.01)

    def numpy_fn():
        z1, c1 = _np_conv_same(xv, p[0])
        a1 = np.maximum(z1 + p[1], 0)
        p1, m1 = _np_pool(a1)
        z2, c2 = _np_conv_same(p1, p[2])
        a2 = np.maximum(z2 + p[3], 0)
        p2, m2 = _np_pool(a2)
        f = p2.reshape(batch, -1)
        logits = f @ p[4] + p[5]
        e = np.exp(logits - logits.max(1, keepdims=True))
        prob = e / e.sum(1, keepdims=True)
        prob[np.arange(batch), yv] -= 1
        g = prob / batch
        gw3, gb3 = f.T @ g, g.sum(0)
        gp2 = (g @ p[4].T).reshape(p2.shape)
        ga2 = _np_unpool(gp2, m2) * (a2 > 0)
        gw2 = (c2.T @ ga2.reshape(-1, 64)).reshape(p[2].shape)
        gb2 = ga2.sum((0, 1, 2))
        gp1 = _np_conv_same_grad_input(ga2, p[2])
        ga1 = _np_unpool(gp1, m1) * (a1 > 0)
        gw1 = (c1.T @ ga1.reshape(-1, 32)).reshape(p[0].shape)
        gb1 = ga1.sum((0, 1, 2))
        for i, gi in enumerate((gw1, gb1, gw2, gb2, gw3, gb3)):
            p[i] = p[i] - lr * gi

    numpy_fn.params = p
    return numpy_fn


# ---- while_loop ------------------------------------------------------------------------------
def while_loop_10k(tf):
    n = tf.placeholder(tf.int32, [])
    _, total = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + 0.5), (0, 0.0))
    sess = _session(tf)
    feed = {n: 10000}
    assert sess.run(total, feed) == while_loop_10k_numpy()()
    return lambda: sess.run(total, feed)


def while_loop_10k_numpy():
    def numpy_fn():
        i, s = 0, np.float32(0.0)
        while i < 10000:
            i, s = i + 1, s + np.float32(0.5)
        return s

    return numpy_fn


# ---- while_loop over int32 with a remainder ----------------------------------------------------
def while_loop_mod_10k(tf):
    n = tf.placeholder(tf.int32, [])
    out = tf.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, b, (a + b) % 1000003),
                        (tf.constant(0), tf.constant(0), tf.constant(1)))
    sess = _session(tf)
    feed = {n: 10000}
    assert sess.run(out, feed)[2] == while_loop_mod_10k_numpy()()
    return lambda: sess.run(out, feed)


def while_loop_mod_10k_numpy():
    def numpy_fn():
        i, a, b, m = 0, np.int32(0), np.int32(1), np.int32(1000003)
        while i < 10000:
            i, a, b = i + 1, b, (a + b) % m
        return b

    return numpy_fn


# ---- the guide's py_func ReLU with a gradient override ---------------------------------------
def _guide_relu(tf, inputs):
    """The guide's `relu` (section on py_func), verbatim apart from the uuid import."""
    import uuid

    def _relu(x):
        return np.maximum(x, 0.)

    def _relu_grad(x):
        return np.float32(x > 0)

    def _relu_grad_op(op, grad):
        x = op.inputs[0]
        x_grad = grad * tf.py_func(_relu_grad, [x], tf.float32)
        return x_grad

    grad_name = "MyReluGrad_" + str(uuid.uuid4())
    tf.RegisterGradient(grad_name)(_relu_grad_op)
    g = tf.get_default_graph()
    with g.gradient_override_map({"PyFunc": grad_name}):
        output = tf.py_func(_relu, [inputs], tf.float32)
    return output


def py_func_relu(tf):
    xv = _chain_input(1000)
    x = tf.placeholder(tf.float32, [1000])
    y = _guide_relu(tf, x)
    dx = tf.gradients(y, x)[0]
    sess = _session(tf)
    got_y, got_dx = sess.run([y, dx], {x: xv})
    want_y, want_dx = py_func_relu_numpy()()
    assert np.array_equal(got_y, want_y) and np.array_equal(got_dx, want_dx), "py_func ReLU differs from NumPy"
    return lambda: sess.run([y, dx], {x: xv})


def py_func_relu_numpy():
    xv = _chain_input(1000)
    ones = np.ones_like(xv)
    return lambda: (np.maximum(xv, 0.), ones * np.float32(xv > 0))


# ---- graph construction and tf.gradients -----------------------------------------------------
def _build_1000(tf):
    """A chain of 1000 elementwise ops (tanh, mul, add in turn) on a [1000] placeholder.

    The multiplier and addend are one shared Const each, so the graph has exactly 1002 ops.
    """
    x = tf.placeholder(tf.float32, [1000])
    c = tf.constant(0.9)
    y = x
    for i in range(1000):
        y = (tf.tanh, lambda t: t * c, lambda t: t + c)[i % 3](y)
    return x, y


def build_1000_ops(tf):
    def build():
        with tf.Graph().as_default() as g:
            _build_1000(tf)
        return g

    assert len(build().get_operations()) == 1002
    return build


def gradients_1000_ops(tf):
    def grads():
        with tf.Graph().as_default() as g:
            x, y = _build_1000(tf)
            t0 = time.perf_counter()
            dx = tf.gradients(y, x)[0]
            elapsed = time.perf_counter() - t0
        return elapsed, g, dx

    _, g, dx = grads()
    assert len(g.get_operations()) > 1500 and dx.shape.as_list() == [1000]
    return lambda: grads()[0]


# ---- peak memory of the MLP step -------------------------------------------------------------
def _peak_of(step):
    """Bytes allocated at the peak of one call of `step` above what was live before it (tracemalloc)."""
    import tracemalloc

    def measure():
        step()
        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            step()
            return tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()

    return measure


def mlp_memory(tf):
    return _peak_of(mlp_step(tf))


def mlp_memory_numpy():
    return _peak_of(mlp_step_numpy())


# ---- import time and installed size ----------------------------------------------------------
def _import_timer(module):
    """Wall time of `python -c "import MODULE"` in a fresh process (bytecode caching on)."""
    cmd = [sys.executable, "-c", "import %s" % module]
    env = H.worker_env()

    def run():
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, env=env)
        return time.perf_counter() - t0

    return run


def import_time(module):
    if module == "tensorweave":
        spec = importlib.util.find_spec("tensorweave")
        H.note("pycache warm before the first import", os.path.exists(importlib.util.cache_from_source(spec.origin)))
    return _import_timer(module if module == "tensorweave" else "tensorflow.compat.v1")


def import_time_numpy():
    return _import_timer("numpy")


def _dist_size(name):
    import importlib.metadata as md
    files = md.distribution(name).files or []
    return sum(os.path.getsize(f.locate()) for f in files if os.path.isfile(f.locate()))


def _tree_size(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def _build_wheel(src, dest):
    """Builds tensorweave's wheel from a copy of `src` (the build leaves build/ and egg-info behind)."""
    for isolation in (["--no-build-isolation"], []):  # offline with the local setuptools first
        cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", *isolation, "-w", dest, src]
        if subprocess.run(cmd, capture_output=True).returncode == 0:
            return next(os.path.join(dest, f) for f in os.listdir(dest) if f.endswith(".whl"))
    raise RuntimeError("pip wheel failed for %s" % src)


def installed_size(module):
    if module != "tensorweave":
        import importlib.metadata as md
        for name in ("tensorflow", "tensorflow-cpu", "tensorflow-intel"):
            try:
                md.distribution(name)
            except md.PackageNotFoundError:
                continue
            return lambda: _dist_size(name)
        raise RuntimeError("no tensorflow distribution found")

    def size():
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "src")
            os.mkdir(src)
            for name in ("pyproject.toml", "README.md"):
                shutil.copy(os.path.join(H.ROOT, name), src)
            shutil.copytree(os.path.join(H.ROOT, "tensorweave"), os.path.join(src, "tensorweave"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            wheel = _build_wheel(src, os.path.join(tmp, "wheel"))
            H.note("wheel size (MB)", round(os.path.getsize(wheel) / 1e6, 3))
            target = os.path.join(tmp, "site")
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                            "--target", target, wheel], check=True, capture_output=True)
            return _tree_size(target)

    return size


def installed_size_numpy():
    return lambda: _dist_size("numpy")


# ---- PyTorch versions (bench/.venv; same math, CPU, float32, PyTorch's default threads) ----------
def _torch():
    import torch
    return torch


def _checked_torch_sgd_step(torch, params, loss_fn, np_step, np_params, what):
    """SGD(0.01) on `loss_fn()`; after one step of both, asserts the parameters equal the hand-written
    NumPy step's (`np_params()` after `np_step()`). Returns the step to time."""
    opt = torch.optim.SGD(params, lr=0.01)

    def step():
        opt.zero_grad(set_to_none=True)
        loss_fn().backward()
        opt.step()

    step()
    np_step()
    assert all(np.allclose(t.detach().numpy(), a, atol=1e-5) for t, a in zip(params, np_params())), \
        "%s step differs from NumPy" % what
    return step


def chain_1m_torch():
    torch = _torch()
    x = torch.from_numpy(_chain_input(1000000))

    def torch_fn():
        v = x
        for _ in range(10):
            v = torch.exp(torch.tanh(v + 1.0) * 0.5) * 0.3
        return v

    assert np.allclose(torch_fn().numpy(), chain_1m_numpy()(), rtol=1e-5), "chain result differs from NumPy"
    return torch_fn


def mlp_step_torch():
    torch = _torch()
    xv, yv, init = _mlp_data()
    x, y = torch.from_numpy(xv), torch.from_numpy(yv.astype(np.int64))
    params = [torch.tensor(a, requires_grad=True) for wb in init for a in wb]

    def loss():
        h = x
        for i in range(0, len(params), 2):
            h = h @ params[i] + params[i + 1]
            if i < len(params) - 2:
                h = torch.relu(h)
        return torch.nn.functional.cross_entropy(h, y)

    np_step = mlp_step_numpy()
    return _checked_torch_sgd_step(torch, params, loss, np_step, lambda: [a for wb in np_step.params for a in wb],
                                   "MLP")


def cnn_step_torch():
    """The CNN in NCHW (PyTorch's layout) with the same weights; the flatten goes through NHWC so the
    dense layer sees TensorFlow's feature order."""
    torch = _torch()
    F = torch.nn.functional
    xv, yv, init = _cnn_data()
    x, y = torch.from_numpy(xv.transpose(0, 3, 1, 2).copy()), torch.from_numpy(yv.astype(np.int64))
    oihw = (0, 2)  # HWIO filters -> OIHW
    params = [torch.tensor(a.transpose(3, 2, 0, 1).copy() if i in oihw else a, requires_grad=True)
              for i, a in enumerate(init)]
    w1, b1, w2, b2, w3, b3 = params

    def loss():
        h = F.max_pool2d(torch.relu(F.conv2d(x, w1, b1, padding=1)), 2)
        h = F.max_pool2d(torch.relu(F.conv2d(h, w2, b2, padding=1)), 2)
        logits = h.permute(0, 2, 3, 1).reshape(h.shape[0], -1) @ w3 + b3
        return F.cross_entropy(logits, y)

    np_step = cnn_step_numpy()
    return _checked_torch_sgd_step(
        torch, params, loss, np_step,
        lambda: [p.transpose(3, 2, 0, 1) if i in oihw else p for i, p in enumerate(np_step.params)], "CNN")


def _swap_gates(h):
    """The column order that swaps the second and third of four gate blocks of `h` units: BasicLSTMCell's
    (i, j, f, o) <-> nn.LSTM's (i, f, g, o), g being j (its own inverse)."""
    return np.concatenate([np.arange(0, h), np.arange(2 * h, 3 * h), np.arange(h, 2 * h), np.arange(3 * h, 4 * h)])


def _torch_to_tf_params(w_ih, w_hh, bias_ih, d, h):
    """nn.LSTM's weights as BasicLSTMCell's kernel [d + h, 4h] and bias (its forget bias 1.0 is a
    constant, here folded into bias_ih)."""
    order = _swap_gates(h)
    kernel = np.concatenate([w_ih.T, w_hh.T], 0)[:, order]
    bias = bias_ih[order] - np.concatenate([np.zeros(2 * h), np.ones(h), np.zeros(h)]).astype(np.float32)
    return kernel, bias


def lstm_step_torch():
    """`nn.LSTM(128, 256, batch_first=True)` with BasicLSTMCell's weights (gates reordered, the forget
    bias 1.0 in bias_ih, bias_hh frozen at zero so there is one trained bias, as in TensorFlow);
    GradientDescent(0.01) on mean(outputs ** 2), checked against the NumPy BPTT after one step."""
    torch = _torch()
    xv, kernel = _lstm_data()
    d, h = _LSTM["depth"], _LSTM["units"]
    to_torch = _swap_gates(h)
    lstm = torch.nn.LSTM(d, h, batch_first=True)
    with torch.no_grad():
        lstm.weight_ih_l0.copy_(torch.from_numpy(kernel[:d, to_torch].T.copy()))
        lstm.weight_hh_l0.copy_(torch.from_numpy(kernel[d:, to_torch].T.copy()))
        lstm.bias_ih_l0.copy_(torch.from_numpy(np.concatenate([np.zeros(h), np.ones(h), np.zeros(2 * h)])))
        lstm.bias_hh_l0.zero_()
    lstm.bias_hh_l0.requires_grad_(False)
    params = [lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0]
    x = torch.from_numpy(xv)

    def loss():
        return torch.mean(torch.square(lstm(x)[0]))

    opt = torch.optim.SGD(params, lr=0.01)

    def step():
        opt.zero_grad(set_to_none=True)
        loss().backward()
        opt.step()

    step()
    np_step = lstm_step_numpy()
    np_step()
    got = _torch_to_tf_params(*(p.detach().numpy() for p in params), d, h)
    for g, want in zip(got, np_step.params):
        assert np.allclose(g, want, rtol=1e-4, atol=1e-6), "LSTM step differs from NumPy"
    return step


def _mod_loop_torch(i, a, b, n, m):
    while bool(i < n):
        i, a, b = i + 1, b, (a + b) % m
    return b


def while_loop_mod_10k_torch(script=None):
    """The loop in Python over 0-d int32 tensors (`script=1`: the same function compiled by TorchScript)."""
    torch = _torch()
    loop = torch.jit.script(_mod_loop_torch) if script else _mod_loop_torch
    args = [torch.tensor(v, dtype=torch.int32) for v in (0, 0, 1, 10000, 1000003)]
    assert int(loop(*args)) == while_loop_mod_10k_numpy()(), "while_loop result differs from NumPy"
    return lambda: loop(*args)


# ---- matmul 2048^3 ---------------------------------------------------------------------------
_MATMUL_N = 2048


def _matmul_inputs():
    rng = np.random.RandomState(0)
    return [rng.uniform(-1, 1, (_MATMUL_N, _MATMUL_N)).astype(np.float32) for _ in range(2)]


def matmul_2048(tf):
    """`tf.matmul` of two [2048, 2048] float32 variables, the product fetched (a stateless op run only as
    a target may be skipped)."""
    av, bv = _matmul_inputs()
    a, b = tf.Variable(av), tf.Variable(bv)
    c = tf.matmul(a, b)
    sess = _session(tf)
    sess.run(tf.global_variables_initializer())
    assert np.allclose(sess.run(c), av @ bv, rtol=1e-3, atol=1e-3), "matmul differs from NumPy"
    return lambda: sess.run(c)


def matmul_2048_numpy():
    av, bv = _matmul_inputs()
    return lambda: av @ bv


def matmul_2048_torch():
    torch = _torch()
    H.note("torch threads (every PyTorch row)", torch.get_num_threads())
    av, bv = _matmul_inputs()
    a, b = torch.from_numpy(av), torch.from_numpy(bv)
    assert np.allclose((a @ b).numpy(), av @ bv, rtol=1e-3, atol=1e-3), "matmul differs from NumPy"
    return lambda: torch.mm(a, b)


# ---- the table -------------------------------------------------------------------------------
def _abs(seconds, text):
    return H.Target("abs", seconds, text)


def _today(ratio):
    """Issue 23's "no worse than today's ratio" for a small-graph row: tensorweave / TF <= `ratio`."""
    return H.Target("tensorflow", ratio, "<= %gx TF (issue 23's ratio)" % ratio)


def _anchors(tf, numpy=None):
    return {"tensorflow": tf} if numpy is None else {"tensorflow": tf, "numpy": numpy}


WORKLOADS = [
    H.Workload("add_scalars", "Session.run of `a+b` on fed scalars", add_scalars, add_scalars_numpy, "us",
             (_abs(10e-6, "<= 10 us"), _today(0.02)), _anchors(245e-6, 1.1e-6),
             about="two float32 scalar placeholders fed 1.0 and 2.0; NumPy: `np.add` of two float32 0-d arrays"),
    H.Workload("chain_1k", "50-op elementwise chain, 1k float32", chain_1k, chain_1k_numpy, "us",
             (H.Target("numpy", 1.2, "<= 1.2x NumPy"), _today(0.17)), _anchors(350e-6, 98e-6),
             about="`y = exp(tanh(y + 1) * 0.5) * 0.3` ten times (50 ops) on a fed [1000] float32"),
    H.Workload("chain_1m", "same, 1M float32", chain_1m, chain_1m_numpy, "ms",
             H.Target("tensorflow", 1.0, "<= TF"), _anchors(28.5e-3, 22.0e-3), torch=chain_1m_torch,
             about="the same chain on a fed [1000000] float32"),
    H.Workload("row_loop", "guide's `x[i]` loop over 500 rows, steady run", row_loop, row_loop_numpy, "us",
             H.Target("tensorflow", 1.0, "<= TF"), _anchors(141e-6, 319e-6),
             about="`x = tf.placeholder(tf.float32, [500, 100]); z = tf.zeros([100]); for i in range(500): "
                   "z += x[i]`, Session.run(z) after the first run; NumPy: the same Python loop"),
    H.Workload("quadratic_fit", "guide's quadratic fit, Adam, 1000 steps", quadratic_fit, quadratic_fit_numpy, "ms",
             (H.Target("numpy", 1.5, "<= 1.5x NumPy"), _today(0.085)), _anchors(344e-3, 35e-3),
             about="w [3,1], features [x^2, x, 1] of 100 fed points, l2 loss + 0.1 l2(w), Adam(0.1), "
                   "1000 runs of [train_op, loss] with a new feed each (variables re-initialized per call)"),
    H.Workload("mlp_step", "MLP 784-512-512-10 SGD step, batch 128", mlp_step, mlp_step_numpy, "ms",
             H.Target("tensorflow", 1.0, "<= TF"), _anchors(7.7e-3, 6.2e-3), torch=mlp_step_torch,
             variants=("tensorweave intra_op=1", "tensorweave intra_op=2", "numpy default threads"),
             about="relu MLP, sparse softmax CE, GradientDescent(0.01), one Session.run(train) per call; "
                   "NumPy runs with 1 BLAS thread (the variant 'numpy default threads' does not limit them); "
                   "'tensorweave intra_op=N' sets ConfigProto(intra_op_parallelism_threads=N), plain "
                   "'tensorweave' uses the default (0)"),
    H.Workload("cnn_step", "small CNN training step (batch 64, 28x28)", cnn_step, cnn_step_numpy, "ms",
             (H.Target("tensorflow", 1.2, "<= 1.2x TF"), H.Target("torch", 1.0, "<= PyTorch")),
             _anchors(21.9e-3, 67e-3), torch=cnn_step_torch,
             about="conv3x3x32-relu-pool-conv3x3x64-relu-pool-dense10, SGD(0.01); NumPy: im2col by hand, "
                   "1 BLAS thread; PyTorch: F.conv2d/max_pool2d in NCHW with the same weights; all checked to "
                   "give the same weights after one step"),
    H.Workload("lstm_step", "LSTM training step (batch 64, 50 steps, 256 units)", lstm_step, lstm_step_numpy, "ms",
             H.Target("tensorflow", 1.0, "<= TF"), _anchors(0.105, None), torch=lstm_step_torch,
             about="dynamic_rnn(BasicLSTMCell(256)) over a fed [64, 50, 128] batch, loss mean(outputs**2), "
                   "GradientDescent(0.01); tensorweave runs it as the fused BlockLSTM op and its gradient; NumPy: "
                   "the cell equations and backpropagation through time by hand, 1 BLAS thread; both checked to "
                   "give the same weights after one step. TF anchor: TF 2.21 measured on this kind of machine "
                   "(issue 18's note). PyTorch: nn.LSTM(batch_first=True) with the same weights (gates "
                   "reordered, forget bias 1.0 in bias_ih, bias_hh frozen at zero), checked the same way"),
    H.Workload("matmul_2048", "matmul 2048^3 float32", matmul_2048, matmul_2048_numpy, "GFLOP/s",
             H.Target("numpy default threads", 0.9, ">= 0.9x NumPy (default threads)", higher=True),
             _anchors(211e9, 101e9), torch=matmul_2048_torch, work=2 * _MATMUL_N ** 3,
             variants=("numpy default threads", "tensorweave intra_op=1"),
             about="[2048, 2048] @ [2048, 2048] float32, 2n^3 floating-point operations per call (higher is "
                   "better, and a ratio above 1x means tensorweave is faster); tensorweave and TF: `tf.matmul` of "
                   "two variables, the product fetched; "
                   "NumPy: `a @ b` with 1 BLAS thread, and with its default threads; PyTorch: `torch.mm`. "
                   "Anchors: TF 2.21 and 1-thread NumPy on a 2-vCPU machine (issue 23)"),
    H.Workload("while_loop", "while_loop, 10k scalar iterations (per iteration)", while_loop_10k,
             while_loop_10k_numpy, "us", _abs(2e-6, "<= 2 us/iter"), _anchors(4.2e-6, 0.15e-6), per=10000,
             about="`tf.while_loop(i < n, (i + 1, s + 0.5))` with n=10000 fed; NumPy: a plain Python loop"),
    H.Workload("while_loop_mod", "while_loop 10k int32 (i+1, b, (a+b) % 1000003), us/iter", while_loop_mod_10k,
             while_loop_mod_10k_numpy, "us", H.Target("tensorflow", 0.5, "<= 0.5x TF"), _anchors(4.2e-6, 0.061e-6),
             per=10000, torch=while_loop_mod_10k_torch, variants=("torch script=1",),
             about="`tf.while_loop(i < n, (i + 1, b, (a + b) % 1000003))` over int32 scalars from (0, 0, 1) with "
                   "n=10000 fed; NumPy: the same plain Python loop on np.int32 values. Anchors: TF 2.21 and the "
                   "NumPy loop measured on a 2-vCPU machine (issue 23). PyTorch: the same Python loop over 0-d "
                   "int32 tensors; 'torch script=1': that function compiled by torch.jit.script"),
    H.Workload("py_func_relu", "py_func ReLU forward+backward, 1k", py_func_relu, py_func_relu_numpy, "us",
             _abs(40e-6, "<= 40 us"), _anchors(488e-6, 10e-6),
             about="the guide's `relu` (py_func + RegisterGradient + gradient_override_map) on a fed [1000] "
                   "float32; Session.run([y, tf.gradients(y, x)[0]])"),
    H.Workload("build_1000_ops", "build 1000 ops", build_1000_ops, None, "ms",
             (_abs(30e-3, "<= 30 ms"), _today(0.04)),
             _anchors(277e-3),
             about="a fresh tf.Graph with a [1000] placeholder, one Const and a chain of 1000 elementwise ops "
                   "(tanh, mul by the Const, add the Const, in turn)"),
    H.Workload("gradients_1000_ops", "tf.gradients over them", gradients_1000_ops, None, "ms",
             _abs(60e-3, "<= 60 ms"), _anchors(504e-3), mode="self",
             about="tf.gradients(y, x) over that chain (building the chain is not timed)"),
    H.Workload("keras_train_on_batch", "tf.keras train_on_batch, MLP 32-64-10, batch 32", keras_bench.train_on_batch,
             None, "us", H.Target("tensorflow", 1.0, "<= TF"),
             about="bench/keras_bench.py: Sequential Dense(64, relu) -> Dense(10, softmax), sparse categorical "
                   "crossentropy + 'acc', tf.train.GradientDescentOptimizer(0.01); one train_on_batch on a fixed "
                   "batch of 32 per call; TF: tf-keras in graph mode (compat.v1, TF_USE_LEGACY_KERAS=1)"),
    H.Workload("keras_fit_batch", "tf.keras fit, per batch (100 batches of 32)", keras_bench.fit_batches, None, "us",
             H.Target("tensorflow", 1.0, "<= TF"), per=keras_bench.FIT_BATCHES,
             about="the same model; one `fit(epochs=1, batch_size=32, verbose=0, shuffle=False)` over 3200 "
                   "samples per call, divided by its 100 batches (callbacks, slicing and the session runs)"),
    H.Workload("mlp_memory", "peak memory of the MLP step", mlp_memory, mlp_memory_numpy, "MB",
             H.Target("numpy", 1.5, "<= 1.5x NumPy"), mode="self", skip=("tensorflow",),
             about="tracemalloc's peak during one MLP SGD step above what was allocated before it (not run "
                   "for TensorFlow: its allocator is invisible to tracemalloc)"),
    H.Workload("import", "`import`", import_time, import_time_numpy, "s", (_abs(0.5, "<= 0.5 s"), _today(0.11)),
             _anchors(5.8, 0.22), mode="self", module=False,
             about="wall time of `python -c \"import tensorweave\"` (numpy: `import numpy`) in fresh processes, "
                   "after one untimed warm-up import that fills __pycache__"),
    H.Workload("installed_size", "installed size", installed_size, installed_size_numpy, "MB",
             _abs(5e6, "<= 5 MB"), _anchors(2138e6, 71e6), mode="once", module=False,
             about="`pip wheel --no-deps` of this checkout, installed with `pip install --no-deps --target` "
                   "(bytecode compiled, NumPy excluded); NumPy: its installed distribution's files"),
]
BY_NAME = {w.name: w for w in WORKLOADS}


# ---- worker and driver ----------------------------------------------------------------------
def _load_module(impl):
    if impl.startswith("tensorflow"):
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        return tf
    import tensorweave
    return tensorweave


def worker(name, impl, quick):
    """Measures one implementation of one workload in this (fresh) process; prints one JSON line."""
    w = BY_NAME[name]
    lib = H.library(impl)
    options = {} if lib == "numpy" else H.impl_options(impl)  # "numpy default threads" is a name
    if lib == "numpy":
        fn = w.numpy()
        if impl == "numpy" and w.module:
            try:
                from threadpoolctl import threadpool_limits
                threadpool_limits(limits=1, user_api="blas")
            except ImportError:
                H.note("BLAS threads", "default (threadpoolctl, the [perf] extra, is not installed)")
    elif lib == "torch":
        fn = w.torch(**options)
    else:
        for key, value in options.items():  # "tensorweave intra_op=2"
            _session_config[key + "_parallelism_threads"] = int(value)
        fn = w.graph(_load_module(lib) if w.module else lib)
    samples = H.measure(fn, w.mode, repeat=3 if quick else 6, round_s=0.05 if quick else 0.3, per=w.per)
    print(H.worker_output(samples))


def profile(name, top=20):
    """Runs one workload's tensorweave version with `RunOptions(trace_level=FULL_TRACE)` for about a
    second and prints the ops (nodes and op types) that took the most time, from the step stats."""
    global _trace
    import tensorweave as tf
    w = BY_NAME[name]
    if w.graph is None or not w.module:
        raise SystemExit("--profile: %s runs no graph; choose one of %s" % (
            name, ", ".join(n for n, v in BY_NAME.items() if v.graph is not None and v.module)))
    _trace = {}
    fn = w.graph(tf)
    _trace.clear()  # the build's verification runs
    calls, t0 = 0, time.perf_counter()
    while calls < 3 or time.perf_counter() - t0 < 1.0:
        fn()
        calls += 1
    wall = (time.perf_counter() - t0) * 1e6
    traced = sum(t for t, _ in _trace.values())
    print("%s: %d calls, %.0f us per call, %.0f us of it in traced steps (%.0f%%)"
          % (name, calls, wall / calls, traced / calls, 100.0 * traced / max(wall, 1)))
    by_type = {}
    for (_, op_type), (t, n) in _trace.items():
        acc = by_type.setdefault(op_type, [0, 0])
        acc[0] += t
        acc[1] += n
    for title, table in (("node", {k[0]: v for k, v in _trace.items()}), ("op type", by_type)):
        print("\n%-48s %12s %7s %10s" % ("top %s" % title, "us per call", "%", "execs"))
        for key, (t, n) in sorted(table.items(), key=lambda kv: -kv[1][0])[:top]:
            print("%-48s %12.1f %6.1f%% %10d" % (key[:48], t / calls, 100.0 * t / max(traced, 1), n))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="per implementation, one process of 3 rounds of ~50 ms "
                    "(default: two processes of 6 rounds of ~300 ms)")
    ap.add_argument("--only", help="comma-separated workload names (default: all): " + ",".join(BY_NAME))
    ap.add_argument("--json", help="results file (default bench/results.json on a full run)")
    ap.add_argument("--markdown", help="report file (default bench/RESULTS.md on a full run)")
    ap.add_argument("--profile", metavar="NAME", help="trace one workload's tensorweave runs; print the top ops")
    ap.add_argument("--bench-python", help="interpreter for the TensorFlow and PyTorch workers (default: "
                    "$TW_BENCH_PYTHON or bench/.venv/bin/python, built by `make bench-env`)")
    ap.add_argument("--worker", metavar="NAME", help=argparse.SUPPRESS)
    ap.add_argument("--impl", default="tensorweave", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args.worker, args.impl, args.quick)
    names = args.only.split(",") if args.only else [args.profile] if args.profile else list(BY_NAME)
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        ap.error("unknown workload(s) %s; choose from %s" % (", ".join(unknown), ", ".join(BY_NAME)))
    if args.profile:
        return profile(args.profile)
    if not args.only:
        args.json = args.json or os.path.join(H.BENCH_DIR, "results.json")
        args.markdown = args.markdown or os.path.join(H.BENCH_DIR, "RESULTS.md")
    machine = H.machine_info()
    available = H.availability(H.LIBRARIES, bench_python=args.bench_python)
    print("%s, %d logical CPUs, Python %s, NumPy %s" % (machine["cpu"], machine["cpu_count"], machine["python"],
                                                        machine["numpy"]))
    print("tensorweave thread policy: %s" % (machine["thread_policy"] or "not available"))
    for line in H.environments_text(available):
        print(line)
    print(H.console_header())
    entries = []
    for name in names:
        w = BY_NAME[name]
        # Round-robin passes (fresh processes each) so slow drifts in machine load hit every
        # implementation alike; their samples are pooled.
        passes = 1 if args.quick or w.mode == "once" else 2
        results = H.run_workload(name, w.implementations(), passes, available, ["--quick"] if args.quick else [])
        entry = H.evaluate(w, results)
        entries.append(entry)
        print(H.console_line(entry))
        for impl, res in entry["implementations"].items():
            if "error" in res:
                print("    %s: error: %s" % (impl, res["error"]))
            elif impl not in H.LIBRARIES and "not_installed" not in res:
                print("    %-30s %-26s %8s (tensorweave / it)" % (impl, H.fmt_value(res["median"], res["unit"]),
                                                                 H.fmt_ratio(entry["ratios"]["tensorweave/" + impl])))
        sys.stdout.flush()
    command = "python bench/run.py" + "".join(" " + a for a in (argv if argv is not None else sys.argv[1:]))
    report = H.build_report(entries, command, machine, environments=available, quick=args.quick)
    if args.json:
        H.write_json(report, args.json)
    if args.markdown:
        H.write_text(H.render_markdown(report), args.markdown)
    if args.json or args.markdown:
        print("wrote %s" % " and ".join(p for p in (args.json, args.markdown) if p))
    return report


if __name__ == "__main__":
    main()
