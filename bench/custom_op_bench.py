"""Custom ops against py_func and built-in ops.

1. ReLU forward + backward (one `Session.run` fetching relu(x) and d sum(relu(x)) / dx), on 1k and
   1M float32 elements, four ways: the seed's py_func with its gradient swapped in through
   `gradient_override_map`, a `tf.custom_op` with NumPy kernels, a `tf.custom_op` with numba kernels,
   and the built-in `tf.nn.relu`. Times per call and per element, ratios against the built-in op.
2. ROI max pooling (256 boxes, 7x7 bins, a [2, 64, 64, 32] feature map; examples/custom_ops/roi_pool.py):
   the NumPy kernel (vectorised over channels, a Python loop over boxes and bins, sharded) against the
   numba kernel (`prange` over boxes).

Each implementation runs in one Session: a warm-up (numba compiles there), then `repeat` timings of
`number` calls each; min and median per call. Quote ratios from one run only.

    python bench/custom_op_bench.py [--repeat 7]
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "examples", "custom_ops"))

import run  # noqa: E402 (bench/run.py: the guide's py_func ReLU)

import tensorweave as tf  # noqa: E402


# ---- the four ReLUs -----------------------------------------------------------------------------
def relu_py_func(x):
    """The seed's prototype: py_func forward, gradient registered under a random name."""
    return run._guide_relu(tf, x)


relu_grad_numpy = tf.custom_op("BenchReluGrad", lambda x, dy: dy * (x > 0), inputs=["x", ("dy", "x")],
                               outputs="x", shape="x")
relu_numpy = tf.custom_op("BenchRelu", lambda x: np.maximum(x, x.dtype.type(0)), inputs=[("x", tf.float32)],
                          outputs="x", shape="x", grad=relu_grad_numpy)


def _numba_relus():
    try:
        import numba
    except ImportError:
        return None

    @numba.njit(nogil=True)
    def forward(x):
        out = np.empty_like(x)
        for i in range(x.shape[0]):
            out[i] = x[i] if x[i] > 0 else 0
        return out

    @numba.njit(nogil=True)
    def backward(x, dy):
        out = np.empty_like(dy)
        for i in range(x.shape[0]):
            out[i] = dy[i] if x[i] > 0 else 0
        return out

    grad = tf.custom_op("BenchReluNumbaGrad", backward, inputs=["x", ("dy", "x")], outputs="x", shape="x")
    return tf.custom_op("BenchReluNumba", forward, inputs=[("x", tf.float32)], outputs="x", shape="x", grad=grad)


relu_numba = _numba_relus()


def _time(fn, repeat, number):
    """(min, median) seconds per call over `repeat` timings of `number` calls, after one warm-up."""
    fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number)
    return min(samples), statistics.median(samples)


def bench_relu(size, repeat):
    """{implementation: (min, median)} for ReLU forward + backward on `size` elements."""
    impls = {"py_func + override_map": relu_py_func, "custom_op NumPy": relu_numpy, "tf.nn.relu": tf.nn.relu}
    if relu_numba is not None:
        impls["custom_op numba"] = relu_numba
    value = np.random.RandomState(0).randn(size).astype(np.float32)
    expected = [np.maximum(value, 0), (value > 0).astype(np.float32)]
    number = max(1, 200_000 // size * 2) if size < 100_000 else 5
    out = {}
    for label, relu in impls.items():
        g = tf.Graph()
        with g.as_default():
            x = tf.placeholder(tf.float32, [size])
            y = relu(x)
            (dx,) = tf.gradients(y, x)
            with tf.Session(graph=g) as sess:
                feed = {x: value}
                got = sess.run([y, dx], feed)
                for a, b in zip(got, expected):
                    np.testing.assert_array_equal(a, b)
                out[label] = _time(lambda: sess.run([y, dx], feed), repeat, number)
    return out


def bench_roi(repeat):
    """{kernel: (min, median)} for ROI pooling, and the two kernels' outputs."""
    import roi_pool

    rng = np.random.RandomState(0)
    features = rng.randn(2, 64, 64, 32).astype(np.float32)
    rois = roi_pool.random_boxes(rng, 256, 2, 128)
    ops = {"custom_op NumPy (+shard)": roi_pool.roi_pool}
    if roi_pool.roi_pool_numba is not None:
        ops["custom_op numba prange"] = roi_pool.roi_pool_numba
    out, values = {}, []
    for label, op in ops.items():
        g = tf.Graph()
        with g.as_default():
            x = tf.placeholder(tf.float32, features.shape)
            boxes = tf.placeholder(tf.float32, rois.shape)
            pooled, _ = op(x, boxes, pooled_height=7, pooled_width=7, spatial_scale=0.5)
            with tf.Session(graph=g) as sess:
                feed = {x: features, boxes: rois}
                values.append(sess.run(pooled, feed))
                out[label] = _time(lambda: sess.run(pooled, feed), max(3, repeat // 2), 1)
    if len(values) == 2:
        np.testing.assert_array_equal(values[0], values[1])
    return out


def _fmt(seconds):
    return "%9.1f us" % (seconds * 1e6) if seconds < 1e-2 else "%9.2f ms" % (seconds * 1e3)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    t_start = time.perf_counter()
    print("ReLU forward + backward, one Session.run per call (min / median per call; per element from the median)")
    print("%-24s %10s %12s %12s %12s %10s" % ("implementation", "elements", "min", "median", "per elem", "vs built-in"))
    for size in (1_000, 1_000_000):
        res = bench_relu(size, args.repeat)
        base = res["tf.nn.relu"][1]
        for label, (lo, med) in res.items():
            print("%-24s %10d %12s %12s %9.2f ns %9.2fx" % (label, size, _fmt(lo), _fmt(med), med / size * 1e9,
                                                             med / base))
    print()
    print("ROI max pooling: 256 boxes, 7x7 bins, features [2, 64, 64, 32] (min / median per call)")
    res = bench_roi(args.repeat)
    for label, (lo, med) in res.items():
        print("%-28s %12s %12s" % (label, _fmt(lo), _fmt(med)))
    if len(res) == 2:
        (_, a), (_, b) = res.values()
        print("numba / NumPy speed-up: %.1fx" % (a / b))
    else:
        print("numba is not installed (pip install tensorweave[jit]): NumPy kernel only")
    print("\ntotal %.1f s" % (time.perf_counter() - t_start))


if __name__ == "__main__":
    main()
