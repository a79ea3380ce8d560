"""tf.quantization against TensorFlow's recorded values (tests/data/make_quantization_tf.py): fake
quantization and its gradients, quantize/dequantize in every mode and quantized type, quantized_concat
and quantize_and_dequantize (v1/v2 with gradients), bit for bit; plus TF's errors and static shapes."""

import os
import sys

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "data"))
import make_quantization_tf as cases  # noqa: E402

GOLDEN = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "quantization_tf.npz"), allow_pickle=False)


def _plain(v):
    """A fetched value as TF's Session returns it: quantized codes as their integer type."""
    v = np.asarray(v)
    return v.view(v.dtype[0]) if v.dtype.names else v


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
    if a.dtype.kind == "f":
        return np.array_equal(a.view("u%d" % a.itemsize), b.view("u%d" % b.itemsize)) or (
            np.array_equal(np.isnan(a), np.isnan(b)) and np.array_equal(a[~np.isnan(a)], b[~np.isnan(b)]))
    return np.array_equal(a, b)


@pytest.mark.parametrize("key", sorted(cases.CASES))
def test_matches_tensorflow(key):
    g = tf.Graph()
    with g.as_default():
        tensors = [tf.constant(a) for a in cases.inputs(key)]
        fetches = cases.CASES[key](tf, *tensors)
        values = tf.Session(graph=g).run(fetches)
    expected = [GOLDEN["%s/%d" % (key, i)] for i in range(len(values))]
    assert "%s/%d" % (key, len(values)) not in GOLDEN, "TF recorded more outputs"
    for i, (got, want) in enumerate(zip(values, expected)):
        got = _plain(got)
        assert _same(got, want), "%s output %d:\n%r\n%r" % (key, i, got, want)


def test_eager_matches_graph():
    x = cases.inputs("fq_vars/1")[0]
    with context.eager_mode():
        e = [tf.quantization.fake_quant_with_min_max_vars(x, -1.0, 2.7, narrow_range=True).numpy(),
             _plain(tf.quantization.quantize(x, -1.0, 2.0, tf.qint8).output.numpy()),
             tf.quantization.quantize_and_dequantize_v2(x, -1.0, 2.0, range_given=True).numpy()]
    assert _same(e[0], GOLDEN["fq_vars/1/0"])
    g = tf.Graph()
    with g.as_default():
        q = tf.quantization.quantize(x, -1.0, 2.0, tf.qint8)
        r = tf.quantization.quantize_and_dequantize_v2(x, -1.0, 2.0, range_given=True)
        vals = tf.Session(graph=g).run([q.output, r])
    assert _same(e[1], _plain(vals[0])) and _same(e[2], vals[1])


def _run_error(build):
    g = tf.Graph()
    with g.as_default():
        out = build()
        with pytest.raises(tf.errors.OpError) as info:
            tf.Session(graph=g).run(out)
    return info.value


@pytest.mark.parametrize("build, cls, message", [
    (lambda: tf.fake_quant_with_min_max_args([1.0], min=2.0, max=-1.0), tf.errors.InvalidArgumentError,
     "min has to be smaller than max, was: 2 >= -1"),
    (lambda: tf.fake_quant_with_min_max_vars([1.0], -1.0, 1.0, num_bits=1), tf.errors.InvalidArgumentError,
     "num_bits must be between 2 and 16, inclusive"),
    (lambda: tf.fake_quant_with_min_max_args_gradient(tf.placeholder_with_default([1.0, 2.0], None), [1.0]),
     tf.errors.InvalidArgumentError, "gradient and input must be the same size"),
    (lambda: tf.fake_quant_with_min_max_vars_per_channel([[1.0, 2.0]], tf.placeholder_with_default([0.0], None),
                                                         [1.0, 1.0]),
     tf.errors.InvalidArgumentError, "min has incorrect size, expected 2 was 1"),
    (lambda: tf.quantize([1.0], 2.0, -1.0, tf.quint8).output, tf.errors.InvalidArgumentError,
     "input_max_range must be larger than input_min_range."),
    (lambda: tf.quantize([1.0], -1.0, 2.0, tf.quint8, round_mode="HALF_TO_EVEN").output,
     tf.errors.InvalidArgumentError,
     "Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is 'MIN_COMBINED'."),
    (lambda: tf.quantize([[1.0, 2.0]], [-1.0] * 2, [2.0] * 2, tf.quint8, mode="MIN_FIRST", axis=1).output,
     tf.errors.UnimplementedError, "MIN_FIRST mode is not implemented for Quantize with axis != -1."),
    (lambda: tf.dequantize(tf.quantize([[1.0, 2.0]], -1.0, 2.0, tf.qint8).output, [-1.0] * 2, [2.0] * 2,
                           axis=1, mode="MIN_FIRST"),
     tf.errors.UnimplementedError, "MIN_FIRST mode is not implemented for Dequantize with axis != -1."),
    (lambda: tf.quantization.quantize_and_dequantize([1.0], 2.0, -1.0, range_given=True),
     tf.errors.InvalidArgumentError, "Invalid range: input_min 2 > input_max -1"),
    (lambda: tf.quantization.quantize_and_dequantize([1.0], -1.0, 2.0, num_bits=62),
     tf.errors.InvalidArgumentError, "num_bits is out of range: 62 with signed_input_ 1"),
    (lambda: tf.quantization.quantize_and_dequantize_v2([[1.0]], [-1.0], [2.0], range_given=True, axis=1),
     tf.errors.InvalidArgumentError, "input_min must be a scalar."),
    (lambda: tf.quantized_concat(tf.placeholder_with_default(5, []), [tf.quantize([1.0], -1.0, 1.0, tf.quint8)[0]] * 2,
                                 [-1.0, -1.0], [1.0, 1.0]).output,
     tf.errors.InvalidArgumentError, "ConcatOp : Expected concatenating dimensions in the range [0, 1), but got 5"),
    (lambda: tf.quantized_concat(0, [tf.quantize([1.0], -1.0, 1.0, tf.qint8)[0]] * 2, [-1.0, -1.0],
                                 [1.0, 1.0]).output,
     tf.errors.InvalidArgumentError, "No OpKernel was registered to support Op 'QuantizedConcat'"),
])
def test_errors(build, cls, message):
    err = _run_error(build)
    assert isinstance(err, cls) and message in err.message, err.message


def test_static_shapes_and_errors():
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.float32, [None, 3])
        u = tf.placeholder(tf.float32)
        q = tf.quantization.quantize(p, [0.0] * 3, [1.0] * 3, tf.qint8, axis=1, mode="SCALED")
        assert q.output.dtype == tf.qint8 and q.output.shape.as_list() == [None, 3]
        assert q.output_min.shape.as_list() == [3]
        q2 = tf.quantization.quantize(u, 0.0, 1.0, tf.quint16)
        assert q2.output.shape.ndims is None and q2.output_max.shape.as_list() == []
        d = tf.quantization.dequantize(q.output, q.output_min, q.output_max, axis=1, mode="SCALED")
        assert d.dtype == tf.float32 and d.shape.as_list() == [None, 3]
        gr = tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient(p, p, [0.0] * 3, [1.0] * 3)
        assert gr.backprops_wrt_input.shape.as_list() == [None, 3] and gr.backprop_wrt_min.shape.as_list() == [3]
        c = tf.quantized_concat(1, [tf.quantize(p, 0.0, 1.0, tf.quint8)[0],
                                    tf.quantize(tf.placeholder(tf.float32, [2, None]), 0.0, 1.0, tf.quint8)[0]],
                                [0.0, 0.0], [1.0, 1.0])
        assert c.output.shape.as_list() == [2, None] and c.output.dtype == tf.quint8
        with pytest.raises(ValueError, match="input should have known rank to use negative axis."):
            tf.quantization.quantize(u, 0.0, 1.0, tf.qint8, axis=-1)
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
            tf.quantization.quantize(p, [0.0] * 2, [1.0] * 2, tf.qint8, axis=1)
        with pytest.raises(ValueError, match="Shape must be at least rank 5 but is rank 2"):
            tf.quantization.quantize(p, [0.0] * 3, [1.0] * 3, tf.qint8, axis=4)
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 2"):
            tf.quantization.quantize(p, [[0.0]], [[1.0]], tf.qint8)
        with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
            tf.quantization.fake_quant_with_min_max_vars_per_channel(1.0, [0.0], [1.0])
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
            tf.quantization.fake_quant_with_min_max_vars_per_channel(p, [0.0] * 2, [1.0] * 2)
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            tf.quantization.fake_quant_with_min_max_vars(p, [0.0], [1.0])
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
            tf.quantized_concat(0, [tf.quantize([1.0, 2.0], -1.0, 1.0, tf.quint8)[0],
                                    tf.quantize([[1.0, 2.0]], -1.0, 1.0, tf.quint8)[0]], [-1.0, -1.0], [1.0, 1.0])
        with pytest.raises(ValueError, match="Attr 'mode' of 'QuantizeV2' Op passed string 'X' not in"):
            tf.quantization.quantize(p, 0.0, 1.0, tf.qint8, mode="X")
        with pytest.raises(ValueError, match="Attr 'round_mode' of 'QuantizeAndDequantizeV2' Op passed string 'X'"):
            tf.quantization.quantize_and_dequantize(p, 0.0, 1.0, round_mode="X")
        with pytest.raises(TypeError, match="parameter 'T' has DataType float32 not in list of allowed values"):
            tf.quantization.quantize(p, 0.0, 1.0, tf.float32)
        with pytest.raises(TypeError, match="parameter 'input' has DataType float32 not in list"):
            tf.quantization.dequantize(p, 0.0, 1.0)
        with pytest.raises(TypeError, match="parameter 'input' has DataType int32 not in list"):
            tf.quantization.quantize_and_dequantize(tf.constant([1, 2]), 0, 1)


def test_gradient_registrations():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([0.5, 3.0])
        q = tf.quantization.quantize(x, -1.0, 2.0, tf.quint8)
        with pytest.raises(LookupError):
            tf.gradients(q.output_min, x)
        with pytest.raises(LookupError):
            tf.gradients(tf.quantization.dequantize(q.output, -1.0, 2.0), x)
        y = tf.quantization.fake_quant_with_min_max_args_gradient(x, x)
        assert tf.gradients(y, x) == [None]
        mn, mx = tf.constant(-1.0), tf.constant(1.0)
        y1 = tf.quantization.quantize_and_dequantize(x, mn, mx)
        assert tf.gradients(y1, [mn, mx]) == [None, None]
        y2 = tf.quantization.quantize_and_dequantize_v2(x, mn, mx, range_given=True)
        dx = tf.gradients(y2, x)[0]
        assert dx.op.type == "QuantizeAndDequantizeV4Grad"
        assert list(tf.Session(graph=g).run(dx)) == [1.0, 0.0]


def test_top_level_names():
    for n in ("dequantize", "fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
              "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
              "fake_quant_with_min_max_vars_per_channel", "fake_quant_with_min_max_vars_per_channel_gradient",
              "quantize", "quantize_v2", "quantized_concat"):
        assert callable(getattr(tf, n)), n
    assert tf.quantize is tf.quantization.quantize and tf.dequantize is tf.quantization.dequantize
    assert tf.compat.v1.quantization.quantize_and_dequantize_v2 is tf.quantization.quantize_and_dequantize_v2


def test_graph_def_without_newer_attrs_imports():
    """GraphDefs written by older TF lack attributes added later (axis, narrow_range, round_mode,
    ensure_minimum_range): TF's defaults apply."""
    x = cases.inputs("q/qint8/MIN_COMBINED/0")[0]
    g = tf.Graph()
    with g.as_default():
        xin = tf.placeholder(tf.float32, [None], name="x")
        a = tf.quantization.fake_quant_with_min_max_vars(xin, -1.0, 2.0, name="fq")
        q = tf.quantization.quantize(a, -1.0, 2.0, tf.quint8, name="q")
        d = tf.quantization.dequantize(q.output, q.output_min, q.output_max, name="dq")
        y = tf.quantization.quantize_and_dequantize(d, -1.0, 1.0, name="qdq")
        want = tf.Session(graph=g).run(y, {xin: x})
    gd = g.as_graph_def()
    for node in gd.node:
        for attr in ("axis", "narrow_range", "round_mode", "ensure_minimum_range"):
            if attr in node.attr:
                del node.attr[attr]
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(gd, name="")
        got = tf.Session(graph=g2).run("qdq:0", {"x:0": x})
    assert _same(got, want)


# TF 2.21's codes for [nan, inf, -inf, -0, 0, 1e30, -1e30, 0.5] quantized with range [-1, 2] (one
# vectorized packet: see quantization_ops' note on NaN).
_SPECIAL_CODES = {
    ("qint8", "MIN_COMBINED"): [-128, 127, -128, -43, -43, 127, -128, -1],
    ("qint8", "MIN_FIRST"): [0, 127, -128, -43, -43, 127, -128, 0],
    ("qint8", "SCALED"): [-128, 127, -128, 0, 0, 127, -128, 32],
    ("quint8", "MIN_COMBINED"): [0, 255, 0, 85, 85, 255, 0, 128],
    ("quint8", "MIN_FIRST"): [0, 255, 0, 85, 85, 255, 0, 128],
    ("quint8", "SCALED"): [0, 255, 0, 0, 0, 255, 0, 64],
    ("qint16", "MIN_COMBINED"): [-32768, 32767, -32768, -10923, -10923, 32767, -32768, -1],
    ("qint16", "MIN_FIRST"): [0, 32767, -32768, -10923, -10923, 32767, -32768, 0],
    ("qint16", "SCALED"): [-32768, 32767, -32768, 0, 0, 32767, -32768, 8192],
    ("quint16", "MIN_COMBINED"): [0, 65535, 0, 21845, 21845, 65535, 0, 32768],
    ("quint16", "MIN_FIRST"): [0, 65535, 0, 21845, 21845, 65535, 0, 32768],
    ("quint16", "SCALED"): [0, 65535, 0, 0, 0, 65535, 0, 16384],
    ("qint32", "MIN_COMBINED"): [0, -2 ** 31, -2 ** 31, -715827840, -715827840, -2 ** 31, -2 ** 31, 0],
    ("qint32", "MIN_FIRST"): [-2 ** 31, 2147483520, -2 ** 31, -715827840, -715827840, 2147483520, -2 ** 31, 64],
    ("qint32", "SCALED"): [0, -2 ** 31, -2 ** 31, 0, 0, -2 ** 31, -2 ** 31, 536870912],
}
_SPECIAL_RANGES = {"qint8": (-2.015748, 2.0), "quint8": (0.0, 2.0), "qint16": (-2.000061, 2.0), "quint16": (0.0, 2.0),
                   "qint32": (-2.0, 2.0)}


@pytest.mark.parametrize("qname, mode", sorted(_SPECIAL_CODES))
def test_special_values_codes(qname, mode):
    x = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e30, -1e30, 0.5], np.float32)
    g = tf.Graph()
    with g.as_default():
        codes, lo, hi = tf.Session(graph=g).run(list(tf.quantization.quantize(x, -1.0, 2.0, getattr(tf, qname),
                                                                              mode=mode)))
    assert _plain(codes).tolist() == _SPECIAL_CODES[qname, mode]
    want = _SPECIAL_RANGES[qname] if mode == "SCALED" else (-1.0, 2.0)
    assert (lo, hi) == (np.float32(want[0]), np.float32(want[1]))
