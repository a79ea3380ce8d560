"""Records TensorFlow's values for tests/ops/test_nn_conv3d_ops.py into tests/data/nn_conv_extra_tf.npz.

Run with a Python that has TensorFlow (not needed by the tests):
    /work/tfenv/bin/python tests/data/make_nn_conv_extra_tf.py
TF 2.21's `tf.compat.v1` in graph mode. Each case builds its graph with the public API shared by
TensorFlow and tensorweave (`build(tf, *inputs)`, a list of tensors, gradients included), so the test
builds the same graph with `import tensorweave as tf`. Inputs come from `inputs(case)` (seeded), so
the .npz holds only TF's outputs (`<case>/<i>`) and, for the error cases, TF's error class and message.
"""

import os
import zlib

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nn_conv_extra_tf.npz")
NAN, INF = np.nan, np.inf


def _rng(key):
    return np.random.RandomState(zlib.crc32(key.encode()))


def inputs(key, specs):
    """The input arrays of a case: specs are (shape, dtype) random in [-2, 2), (shape, dtype, "int")
    small integers (ties), or an array (literal)."""
    rng = _rng(key)
    out = []
    for spec in specs:
        if isinstance(spec, np.ndarray):
            out.append(spec)
            continue
        shape, dt = spec[0], np.dtype(spec[1])
        kind = spec[2] if len(spec) > 2 else "rand"
        if kind == "int":
            out.append(rng.randint(-3, 4, size=shape).astype(dt))
        else:
            out.append(rng.uniform(-2, 2, shape).astype(dt))
    return out


def _grads(tf, y, xs, dy):
    return list(tf.gradients(y, xs, grad_ys=dy))


# ---- cases: key -> (input specs, build(tf, *tensors) -> list of tensors) ----------------------------
def _conv3d_case(kw, xs, fs, dt=np.float64):
    def build(tf, x, f, dy):
        y = tf.nn.conv3d(x, f, **kw)
        return [y] + _grads(tf, y, [x, f], dy)
    return build


def _conv3d_out(xs, fs, kw):
    fmt = kw.get("data_format", "NDHWC")
    sp = xs[2:] if fmt == "NCDHW" else xs[1:4]
    st = kw["strides"][2:] if fmt == "NCDHW" else kw["strides"][1:4]
    dl = kw.get("dilations", [1] * 5)
    dl = dl[2:] if fmt == "NCDHW" else dl[1:4]
    out = []
    for s, k, t, d in zip(sp, fs[:3], st, dl):
        ek = (k - 1) * d + 1
        out.append(-(-s // t) if kw["padding"] == "SAME" else -(-(s - ek + 1) // t))
    return (xs[0], fs[4]) + tuple(out) if fmt == "NCDHW" else (xs[0],) + tuple(out) + (fs[4],)


CASES = {}


def channels_last_twin(build, kw, fn_args=1):
    """The TF-side build of a channels-first case: TF's CPU kernels do not all run NCDHW (the 3-D
    backprops), so TF computes the same function through transposes around the NDHWC op."""
    def twin(tf, *ts):
        perm, inv = [0, 2, 3, 4, 1], [0, 4, 1, 2, 3]
        kw2 = dict(kw, data_format="NDHWC")
        kw2["strides"] = [kw["strides"][i] for i in perm]
        if "ksize" in kw:
            kw2["ksize"] = [kw["ksize"][i] for i in perm]

        class _Shim:
            pass
        shim = _Shim()
        shim.gradients = tf.gradients
        shim.nn = _Shim()
        for name in ("conv3d", "max_pool3d", "avg_pool3d"):
            op = getattr(tf.nn, name)
            setattr(shim.nn, name, (lambda op: lambda x, *a, **k: tf.transpose(
                op(tf.transpose(x, perm), *a, **kw2), inv))(op))
        return build(shim, *ts)
    return twin


def _add_conv3d(key, kw, xs, fs, dt=np.float64):
    build = _conv3d_case(kw, xs, fs)
    twin = channels_last_twin(build, kw) if kw.get("data_format") == "NCDHW" else build
    CASES[key] = ([(xs, dt), (fs, dt), (_conv3d_out(xs, fs, kw), dt)], build, twin)


_add_conv3d("conv3d_same_s212", dict(strides=[1, 2, 1, 2, 1], padding="SAME"), (2, 5, 6, 4, 3), (2, 3, 2, 3, 4))
# TF's CPU Conv3D rejects dilations > 1 ("CPU implementation of Conv3D currently only supports dilated rates
# of 1"): tensorweave's dilated Conv3D and its backprops are checked against TF's space-to-batch path in
# "convolution_3d_dil_same" (tf.nn.convolution), and against a NumPy reference in the op table.
_add_conv3d("conv3d_ncdhw_same_s2", dict(strides=[1, 1, 2, 2, 1], padding="SAME", data_format="NCDHW"),
            (2, 3, 5, 4, 4), (3, 2, 2, 3, 2))
_add_conv3d("conv3d_f32_valid_s3", dict(strides=[1, 3, 2, 1, 1], padding="VALID"), (2, 7, 5, 3, 4),
            (3, 2, 1, 4, 5), np.float32)

CASES["conv3d_transpose"] = (
    [((2, 3, 2, 3, 4), np.float64), ((2, 3, 2, 3, 4), np.float64), ((2, 5, 4, 6, 3), np.float64)],
    lambda tf, v, f, dy: (lambda y: [y] + _grads(tf, y, [v, f], dy))(
        tf.nn.conv3d_transpose(v, f, [2, 5, 4, 6, 3], [1, 2, 2, 2, 1], "SAME")))
CASES["conv3d_backprop_filter_v2"] = (
    [((1, 4, 5, 4, 2), np.float64), ((1, 1, 2, 2, 3), np.float64)],
    lambda tf, x, dy: [tf.nn.conv3d_backprop_filter_v2(x, [3, 2, 2, 2, 3], dy, [1, 2, 2, 2, 1], "VALID"),
                       tf.nn.conv3d_backprop_filter(x, [3, 2, 2, 2, 3], dy, [1, 2, 2, 2, 1], "VALID")])


# ---- 3-D pooling --------------------------------------------------------------------------------------
def _pool3d_build(fn, kw, second=False):
    def build(tf, x, dy, ddx=None):
        y = getattr(tf.nn, fn)(x, **kw)
        g = tf.gradients(y, x, grad_ys=dy)[0]
        out = [y, g]
        if second:
            out.append(tf.gradients(g, dy, grad_ys=ddx)[0])
        return out
    return build


CASES["max_pool3d_same_ties"] = (
    [((2, 5, 6, 4, 3), np.float32, "int"), ((2, 3, 3, 4, 3), np.float32), ((2, 5, 6, 4, 3), np.float32)],
    _pool3d_build("max_pool3d", dict(ksize=[1, 2, 3, 2, 1], strides=[1, 2, 2, 1, 1], padding="SAME"), True))
CASES["max_pool3d_valid_overlap"] = (
    [((1, 4, 5, 5, 2), np.float32, "int"), ((1, 3, 2, 4, 2), np.float32), ((1, 4, 5, 5, 2), np.float32)],
    _pool3d_build("max_pool3d", dict(ksize=[1, 2, 3, 2, 1], strides=[1, 1, 2, 1, 1], padding="VALID"), True))
_KW = dict(ksize=[1, 1, 2, 2, 2], strides=[1, 1, 2, 2, 2], padding="SAME", data_format="NCDHW")
CASES["max_pool3d_ncdhw"] = (
    [((2, 2, 4, 4, 5), np.float32), ((2, 2, 2, 2, 3), np.float32)],
    _pool3d_build("max_pool3d", _KW), channels_last_twin(_pool3d_build("max_pool3d", _KW), _KW))
CASES["avg_pool3d_same"] = (
    [((2, 5, 6, 4, 3), np.float32), ((2, 3, 2, 2, 3), np.float32)],
    _pool3d_build("avg_pool3d", dict(ksize=[1, 3, 3, 2, 1], strides=[1, 2, 3, 2, 1], padding="SAME")))
_KW = dict(ksize=[1, 1, 2, 2, 2], strides=[1, 1, 2, 1, 1], padding="VALID", data_format="NCDHW")
CASES["avg_pool3d_ncdhw_valid"] = (
    [((1, 2, 5, 4, 6), np.float32), ((1, 2, 2, 3, 5), np.float32)],
    _pool3d_build("avg_pool3d", _KW), channels_last_twin(_pool3d_build("avg_pool3d", _KW), _KW))
CASES["max_pool3d_special"] = (
    [np.array([NAN, 1, 2, NAN, INF, -INF, -0.0, 0.0, 0.0, -0.0, NAN, 3], np.float32).reshape(1, 1, 1, 12, 1)],
    lambda tf, x: [tf.nn.max_pool3d(x, [1, 1, 1, 2, 1], [1, 1, 1, 2, 1], "VALID")])


# ---- N-d dispatch ------------------------------------------------------------------------------------
def _with_grads(fn, n_diff):
    def build(tf, *ts):
        y = fn(tf, *ts[:-1])
        return [y] + _grads(tf, y, list(ts[:n_diff]), ts[-1])
    return build


CASES["convolution_1d_dil"] = (
    [((2, 9, 3), np.float64), ((3, 3, 2), np.float64), ((2, 9, 2), np.float64)],
    _with_grads(lambda tf, x, f: tf.nn.convolution(x, f, "SAME", dilation_rate=[2]), 2))
CASES["convolution_2d_dil"] = (
    [((2, 7, 8, 3), np.float64), ((3, 2, 3, 2), np.float64), ((2, 3, 6, 2), np.float64)],
    _with_grads(lambda tf, x, f: tf.nn.convolution(x, f, "VALID", dilation_rate=[2, 2]), 2))
CASES["convolution_3d_dil_same"] = (
    [((1, 6, 5, 7, 2), np.float64), ((2, 3, 2, 2, 3), np.float64), ((1, 6, 5, 7, 3), np.float64)],
    _with_grads(lambda tf, x, f: tf.nn.convolution(x, f, "SAME", dilation_rate=[2, 1, 3]), 2))
CASES["convolution_2d_strides"] = (
    [((2, 7, 6, 3), np.float64), ((3, 3, 3, 2), np.float64)],
    lambda tf, x, f: [tf.nn.convolution(x, f, "SAME", strides=[2, 1])])
CASES["convolution_3d_strides"] = (
    [((1, 4, 4, 4, 2), np.float64), ((2, 2, 2, 2, 1), np.float64)],
    lambda tf, x, f: [tf.nn.convolution(x, f, padding="VALID", strides=[2, 1, 2])])
CASES["pool_max_2d_dil"] = (
    [((2, 7, 8, 3), np.float64), ((2, 5, 4, 3), np.float64)],
    _with_grads(lambda tf, x: tf.nn.pool(x, [2, 3], "MAX", "VALID", dilation_rate=[2, 2]), 1))
CASES["pool_avg_1d_strides"] = (
    [((2, 9, 3), np.float64), ((2, 5, 3), np.float64)],
    _with_grads(lambda tf, x: tf.nn.pool(x, [2], "AVG", "SAME", strides=[2]), 1))
CASES["pool_max_3d_ncdhw"] = (
    [((1, 2, 4, 5, 6), np.float32)],
    lambda tf, x: [tf.nn.pool(x, [2, 2, 3], "MAX", "SAME", strides=[2, 1, 3], data_format="NCDHW")],
    lambda tf, x: [tf.transpose(tf.nn.pool(tf.transpose(x, [0, 2, 3, 4, 1]), [2, 2, 3], "MAX", "SAME",
                                           strides=[2, 1, 3]), [0, 4, 1, 2, 3])])
CASES["pool_avg_3d_dil"] = (
    [((1, 6, 5, 7, 2), np.float32)],
    lambda tf, x: [tf.nn.pool(x, [2, 2, 2], "AVG", "VALID", dilation_rate=[2, 1, 3])])
# TF's CPU pooling runs channels-last only: TF's side computes the channels-first cases through transposes.
CASES["pool_avg_1d_ncw"] = (
    [((2, 3, 8), np.float64)],
    lambda tf, x: [tf.nn.pool(x, [3], "AVG", "VALID", strides=[2], data_format="NCW")],
    lambda tf, x: [tf.transpose(tf.nn.pool(tf.transpose(x, [0, 2, 1]), [3], "AVG", "VALID", strides=[2]), [0, 2, 1])])
CASES["conv1d_transpose"] = (
    [((2, 4, 3), np.float64), ((3, 5, 3), np.float64), ((2, 8, 5), np.float64)],
    _with_grads(lambda tf, x, f: tf.nn.conv1d_transpose(x, f, [2, 8, 5], 2), 2))
CASES["conv1d_transpose_ncw_valid"] = (
    [((2, 3, 4), np.float64), ((2, 5, 3), np.float64)],
    lambda tf, x, f: [tf.nn.conv1d_transpose(x, f, [2, 5, 5], [1, 1, 1], "VALID", data_format="NCW")],
    lambda tf, x, f: [tf.transpose(tf.nn.conv1d_transpose(tf.transpose(x, [0, 2, 1]), f, [2, 5, 5], [1, 1, 1],
                                                          "VALID"), [0, 2, 1])])
CASES["conv_transpose_1d"] = (
    [((2, 4, 3), np.float64), ((3, 5, 3), np.float64)],
    lambda tf, x, f: [tf.nn.conv_transpose(x, f, [2, 8, 5], 2)])
CASES["conv_transpose_2d"] = (
    [((2, 3, 4, 3), np.float64), ((3, 2, 5, 3), np.float64)],
    lambda tf, x, f: [tf.nn.conv_transpose(x, f, [2, 6, 8, 5], [2, 2], padding="SAME")])
CASES["conv_transpose_3d"] = (
    [((1, 2, 3, 2, 3), np.float64), ((2, 2, 2, 4, 3), np.float64)],
    lambda tf, x, f: [tf.nn.conv_transpose(x, f, [1, 3, 4, 3, 4], 1, padding="VALID")])
CASES["atrous_conv2d_transpose_same"] = (
    [((2, 5, 6, 3), np.float64), ((3, 3, 2, 3), np.float64), ((2, 5, 6, 2), np.float64)],
    _with_grads(lambda tf, v, f: tf.nn.atrous_conv2d_transpose(v, f, [2, 5, 6, 2], 2, "SAME"), 2))
CASES["atrous_conv2d_transpose_valid"] = (
    [((1, 3, 2, 2), np.float64), ((2, 3, 4, 2), np.float64)],
    lambda tf, v, f: [tf.nn.atrous_conv2d_transpose(v, f, [1, 6, 8, 4], 3, "VALID")])
CASES["pool1d"] = (
    [((2, 9, 3), np.float32), ((2, 3, 8), np.float32)],
    lambda tf, x, xc: [tf.nn.avg_pool1d(x, 3, 2, "SAME"), tf.nn.max_pool1d(x, [2], [2], "VALID"),
                       tf.nn.avg_pool1d(xc, 2, 1, "VALID", data_format="NCW"),
                       tf.nn.max_pool1d(xc, 3, 2, "SAME", data_format="NCW")],
    lambda tf, x, xc: [tf.nn.avg_pool1d(x, 3, 2, "SAME"), tf.nn.max_pool1d(x, [2], [2], "VALID"),
                       tf.transpose(tf.nn.avg_pool1d(tf.transpose(xc, [0, 2, 1]), 2, 1, "VALID"), [0, 2, 1]),
                       tf.transpose(tf.nn.max_pool1d(tf.transpose(xc, [0, 2, 1]), 3, 2, "SAME"), [0, 2, 1])])
CASES["pool_v2"] = (
    [((2, 9, 3), np.float32), ((2, 6, 5, 3), np.float32), ((1, 4, 5, 6, 2), np.float32)],
    lambda tf, x1, x2, x3: [tf.nn.avg_pool_v2(x1, 2, 2, "SAME"), tf.nn.max_pool_v2(x1, 3, 1, "VALID"),
                            tf.nn.avg_pool_v2(x2, [2, 3], [1, 2], "SAME"), tf.nn.max_pool_v2(x2, 2, 2, "VALID"),
                            tf.nn.avg_pool_v2(x3, 2, [1, 2, 2], "VALID"), tf.nn.max_pool_v2(x3, 3, 2, "SAME"),
                            tf.nn.max_pool_v2(x2, 2, 2, "SAME", data_format="NCHW")],
    lambda tf, x1, x2, x3: [tf.nn.avg_pool_v2(x1, 2, 2, "SAME"), tf.nn.max_pool_v2(x1, 3, 1, "VALID"),
                            tf.nn.avg_pool_v2(x2, [2, 3], [1, 2], "SAME"), tf.nn.max_pool_v2(x2, 2, 2, "VALID"),
                            tf.nn.avg_pool_v2(x3, 2, [1, 2, 2], "VALID"), tf.nn.max_pool_v2(x3, 3, 2, "SAME"),
                            tf.transpose(tf.nn.max_pool_v2(tf.transpose(x2, [0, 2, 3, 1]), 2, 2, "SAME"),
                                         [0, 3, 1, 2])])
CASES["depthwise_backprops"] = (
    [((2, 5, 6, 3), np.float64), ((3, 2, 3, 2), np.float64), ((2, 3, 3, 6), np.float64)],
    lambda tf, x, f, dy: [tf.nn.depthwise_conv2d_backprop_input([2, 5, 6, 3], f, dy, [1, 2, 2, 1], "SAME"),
                          tf.nn.depthwise_conv2d_backprop_filter(x, [3, 2, 3, 2], dy, [1, 2, 2, 1], "SAME")])


# ---- argmax pooling ----------------------------------------------------------------------------------
def _argmax_build(kw):
    def build(tf, x, dy):
        out, arg = tf.nn.max_pool_with_argmax(x, **kw)
        return [out, arg, tf.gradients(out, x, grad_ys=dy)[0]]
    return build


CASES["argmax_same_ties"] = (
    [((2, 5, 6, 3), np.float32, "int"), ((2, 3, 3, 3), np.float32)],
    _argmax_build(dict(ksize=[1, 2, 3, 1], strides=[1, 2, 2, 1], padding="SAME")))
CASES["argmax_valid_batch"] = (
    [((3, 5, 4, 2), np.float64, "int"), ((3, 4, 2, 2), np.float64)],
    _argmax_build(dict(ksize=[1, 2, 2, 1], strides=[1, 1, 2, 1], padding="VALID", include_batch_in_index=True)))
CASES["argmax_i32"] = (
    [((3, 5, 4, 2), np.float32, "int")],
    lambda tf, x: list(tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 1, 2, 1], "VALID", Targmax=tf.int32,
                                                  include_batch_in_index=True)))
CASES["argmax_int"] = (
    [((2, 4, 4, 2), np.int32, "int")],
    lambda tf, x: list(tf.nn.max_pool_with_argmax(x, [1, 3, 3, 1], [1, 1, 1, 1], "SAME", output_dtype=tf.int64)))
CASES["argmax_special"] = (
    [np.array([[NAN, 1, -INF, -INF], [2, 2, -INF, NAN], [-0.0, 0.0, INF, 1], [0.0, -0.0, 1, INF]],
              np.float32).reshape(1, 4, 4, 1)],
    lambda tf, x: list(tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")))


# ---- dilation / erosion ------------------------------------------------------------------------------
def _morph_build(fn, kw):
    def build(tf, x, f, dy):
        y = getattr(tf.nn, fn)(x, f, **kw)
        return [y] + _grads(tf, y, [x, f], dy)
    return build


CASES["dilation2d_same_s2_r2"] = (
    [((2, 7, 6, 3), np.float64, "int"), ((2, 3, 3), np.float64, "int"), ((2, 4, 3, 3), np.float64)],
    _morph_build("dilation2d", dict(strides=[1, 2, 2, 1], rates=[1, 2, 2, 1], padding="SAME")))
CASES["dilation2d_valid"] = (
    [((1, 6, 5, 2), np.float32), ((3, 2, 2), np.float32), ((1, 4, 4, 2), np.float32)],
    _morph_build("dilation2d", dict(strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="VALID")))
CASES["erosion2d_same"] = (
    [((2, 5, 6, 2), np.float64), ((3, 2, 2), np.float64), ((2, 3, 3, 2), np.float64)],
    _morph_build("erosion2d", dict(strides=[1, 2, 2, 1], rates=[1, 1, 1, 1], padding="SAME")))
CASES["dilation2d_int"] = (
    [((1, 5, 5, 2), np.int32, "int"), ((2, 2, 2), np.int32, "int")],
    lambda tf, x, f: [tf.nn.dilation2d(x, f, [1, 1, 1, 1], [1, 2, 1, 1], "SAME")])
CASES["dilation2d_special"] = (
    [np.array([NAN, 1, -INF, 2, NAN, NAN, INF, -0.0], np.float32).reshape(1, 1, 8, 1),
     np.zeros((1, 2, 1), np.float32), np.arange(1, 8, dtype=np.float32).reshape(1, 1, 7, 1)],
    _morph_build("dilation2d", dict(strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="VALID")))


# ---- fractional pooling (TF's Philox pooling sequences) ------------------------------------------------
def _frac_build(fn, kw, grads=True):
    def build(tf, x, dy=None):
        r = getattr(tf.nn, fn)(x, **kw)
        out = [r[0], r[1], r[2]]
        if grads:
            out.append(tf.gradients(r[0], x, grad_ys=dy)[0])
        return out
    return build


def _frac_case(key, fn, shape, dt, kw, out_hw, grads=True, kind="rand"):
    specs = [(shape, dt, kind)]
    if grads:
        specs.append(((shape[0],) + out_hw + (shape[3],), dt))
    CASES[key] = (specs, _frac_build(fn, kw, grads))


_frac_case("fmp_pseudo_overlap", "fractional_max_pool", (2, 7, 9, 3), np.float64,
           dict(pooling_ratio=[1.0, 1.5, 1.44, 1.0], pseudo_random=True, overlapping=True, deterministic=True,
                seed=1, seed2=2), (4, 6))
_frac_case("fmp_random", "fractional_max_pool", (1, 10, 11, 2), np.float32,
           dict(pooling_ratio=[1.0, 1.73, 1.3, 1.0], deterministic=True, seed=7, seed2=0), (5, 8))
_frac_case("fmp_ties_int", "fractional_max_pool", (2, 8, 8, 2), np.int32,
           dict(pooling_ratio=[1.0, 1.6, 2.5, 1.0], pseudo_random=True, overlapping=True, deterministic=True, seed=3,
                seed2=9), (5, 3),
           grads=False, kind="int")
_frac_case("fmp_ratio_above_2", "fractional_max_pool", (1, 23, 12, 1), np.float64,
           dict(pooling_ratio=[1.0, 2.3, 2.0, 1.0], pseudo_random=True, deterministic=True, seed=11, seed2=12), (10, 6))
_frac_case("fap_pseudo", "fractional_avg_pool", (2, 7, 9, 3), np.float64,
           dict(pooling_ratio=[1.0, 1.5, 1.44, 1.0], pseudo_random=True, deterministic=True, seed=1, seed2=2), (4, 6))
_frac_case("fap_random_overlap", "fractional_avg_pool", (1, 10, 11, 2), np.float32,
           dict(pooling_ratio=[1.0, 1.73, 1.3, 1.0], overlapping=True, deterministic=True, seed=5, seed2=6), (5, 8))
_frac_case("fap_int", "fractional_avg_pool", (1, 9, 7, 2), np.int64,
           dict(pooling_ratio=[1.0, 1.4, 1.4, 1.0], deterministic=True, seed=21, seed2=22), (6, 5), grads=False,
           kind="int")
# A deterministic op draws its regions once: a second run gives the same ones.
RUN_TWICE = {"fmp_deterministic_runs": 2}
_frac_case("fmp_deterministic_runs", "fractional_max_pool", (1, 9, 9, 1), np.float64,
           dict(pooling_ratio=[1.0, 1.4, 1.7, 1.0], deterministic=True, seed=13, seed2=14), (6, 5), grads=False)


# ---- tf.conv (TF 2's generic Conv op; its CPU kernel runs channels last, groups 1) --------------------------
CASES["conv_generic_valid"] = (
    [((2, 5, 6, 3), np.float64), ((2, 3, 3, 4), np.float64)],
    lambda tf, x, f: [tf.conv(x, f, [1, 2, 1, 1], "VALID")])
CASES["conv_generic_batch_dims"] = (
    [((2, 3, 5, 4, 2), np.float32), ((3, 2, 2, 3), np.float32)],
    lambda tf, x, f: [tf.conv(x, f, [1, 1, 2, 1], "SAME", batch_dims=2, dilations=[1, 2, 1, 1])])
CASES["conv_generic_explicit"] = (
    [((2, 5, 5, 2), np.float64), ((2, 3, 2, 3), np.float64)],
    lambda tf, x, f: [tf.conv(x, f, [1, 1, 2, 1], "EXPLICIT", explicit_paddings=[0, 0, 1, 0, 0, 2, 0, 0])])
CASES["conv_generic_3d"] = (
    [((1, 4, 5, 4, 2), np.float64), ((2, 2, 3, 2, 3), np.float64)],
    lambda tf, x, f: [tf.conv(x, f, [1, 1, 2, 1, 1], "SAME")])


# ---- quantized pooling (codes of quint8 / qint8 tensors) ----------------------------------------------------
_Q8 = np.dtype([("quint8", np.uint8)])
_QI8 = np.dtype([("qint8", np.int8)])
_QX = np.random.RandomState(5).randint(0, 256, (2, 5, 6, 3)).astype(np.uint8)
for _key, _arr in (("q_u8", _QX.view(_Q8)), ("q_i8", _QX.view(np.int8).view(_QI8))):
    CASES["quantized_pools_" + _key] = (
        [_arr],
        lambda tf, x: (list(tf.nn.quantized_avg_pool(x, -1.5, 3.0, [1, 2, 3, 1], [1, 1, 2, 1], "SAME"))
                       + list(tf.nn.quantized_max_pool(x, -1.5, 3.0, [1, 3, 2, 1], [1, 2, 1, 1], "VALID"))
                       + list(tf.nn.quantized_avg_pool(x, 0.0, 1.0, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"))))


_QF = np.random.RandomState(6).randint(0, 256, (2, 3, 3, 4)).astype(np.uint8)
CASES["quantized_conv2d_same"] = (
    [_QX.view(_Q8), _QF.view(_Q8)],
    lambda tf, x, f: list(tf.nn.quantized_conv2d(x, f, -1.0, 2.0, -0.5, 0.5, [1, 1, 1, 1], "SAME")))
CASES["quantized_conv2d_valid_s2_qint8_filter"] = (
    [_QX.view(_Q8), _QF.view(np.int8).view(_QI8)],
    lambda tf, x, f: list(tf.nn.quantized_conv2d(x, f, 0.25, 7.5, -3.0, 1.0, [1, 2, 2, 1], "VALID")))
CASES["quantized_conv2d_same_s2_range"] = (
    [_QX.view(_Q8), _QF.view(_Q8)],
    lambda tf, x, f: list(tf.nn.quantized_conv2d(x, f, 0.0, 6.0, -1.0, 1.0, [1, 2, 2, 1], "SAME")))


def main():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    rec = {}
    for key, case in CASES.items():
        specs, build = case[0], case[-1]
        arrays = inputs(key, specs)
        with tf.Graph().as_default():
            ts = [tf.constant(a) for a in arrays]
            outs = build(tf, *ts)
            with tf.Session() as s:
                vals = []
                for _ in range(RUN_TWICE.get(key, 1)):
                    vals += s.run(outs)
        for i, v in enumerate(vals):
            rec["%s/%d" % (key, i)] = np.asarray(v)
    np.savez_compressed(OUT, **rec)
    print("wrote", OUT, len(rec))


if __name__ == "__main__":
    main()
