"""Scalar ops in compiled while loops take the inline fast path (no kernel call) and keep their
kernels' values, dtypes and errors: compared with the reference interpreter (which calls every
kernel), with TensorFlow's values (tests/data/make_loop_inline_ops_tf.py) and with NumPy."""

import itertools
import os
import re

import numpy as np
import pytest

import tensorweave as tf
from tests.runtime import INTERPRETER

_GOLDEN = np.load(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                               "loop_inline_ops_tf.npz"))
_KERNEL_CALL = re.compile(r"\b[bc]_K\d+\(")  # a kernel call of the loop's condition or body plan

_BINARY = {"FloorDiv": tf.math.floordiv, "FloorMod": tf.math.floormod, "TruncateDiv": tf.truncatediv,
           "TruncateMod": tf.truncatemod, "RealDiv": tf.realdiv, "Maximum": tf.maximum, "Minimum": tf.minimum,
           "LeftShift": tf.bitwise.left_shift, "RightShift": tf.bitwise.right_shift, "Sub": tf.subtract,
           "Mul": tf.multiply, "AddV2": lambda x, y: x + y, "Equal": tf.equal, "NotEqual": tf.not_equal,
           "Less": tf.less, "LessEqual": tf.less_equal, "Greater": tf.greater, "GreaterEqual": tf.greater_equal,
           "LogicalAnd": tf.logical_and, "LogicalOr": tf.logical_or, "BitwiseAnd": tf.bitwise.bitwise_and,
           "BitwiseOr": tf.bitwise.bitwise_or, "BitwiseXor": tf.bitwise.bitwise_xor}
_NUMPY = {"FloorDiv": np.floor_divide, "FloorMod": np.mod, "RealDiv": np.true_divide, "Maximum": np.maximum,
          "Minimum": np.minimum, "Sub": np.subtract, "Mul": np.multiply, "AddV2": np.add, "Equal": np.equal,
          "NotEqual": np.not_equal, "Less": np.less, "LessEqual": np.less_equal, "Greater": np.greater,
          "GreaterEqual": np.greater_equal, "LogicalAnd": np.logical_and, "LogicalOr": np.logical_or,
          "BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or, "BitwiseXor": np.bitwise_xor}
_DIVISIONS = ("FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod")


def _loop_of(sess):
    loops = [v for k, v in sess._state.op_state.items() if isinstance(k, tuple) and k[0] == "loop"]
    assert len(loops) == 1 and loops[0] is not None
    return loops[0]


def _assert_inlined(loop, op_type):
    """The loop's lines that compute `op_type` exist and call no kernel."""
    lines = loop.source.splitlines()
    found = [lines[n - 1] for (name, n), op in loop.line_ops.items()
             if name.startswith("<tensorweave-loop-") and op.type == op_type]
    assert found, "no line computes %s in\n%s" % (op_type, loop.source)
    for line in found:
        assert not _KERNEL_CALL.search(line), "%s is not inlined: %s" % (op_type, line)


def _same(got, want):
    """Equal values of the same type (NaN equal to NaN, the sign of zero compared)."""
    assert type(got) is type(want) or (isinstance(want, np.ndarray) and got.dtype == want.dtype), (got, want)
    assert np.asarray(got).dtype == np.asarray(want).dtype, (got, want)
    assert np.array_equal(got, want, equal_nan=np.asarray(want).dtype.kind in "fc"), (got, want)
    if np.asarray(want).dtype.kind == "f":
        assert np.array_equal(np.signbit(got), np.signbit(want)), (got, want)


class _ScalarLoop:
    """`fn` of scalar placeholders, computed in the body of a one-iteration while loop (the loop
    variable is the result), run compiled and on the reference interpreter."""

    def __init__(self, fn, dtypes, shape=()):
        self.graph = tf.Graph()
        with self.graph.as_default():
            self.inputs = [tf.placeholder(dt, shape) for dt in dtypes]
            probe = fn(*self.inputs)
            init = tf.zeros_like(probe)
            _, self.out = tf.while_loop(lambda i, r: i < 1, lambda i, r: (i + 1, fn(*self.inputs)),
                                        [tf.constant(0), init])
        self.sess = tf.Session(graph=self.graph)
        self.ref = tf.Session(graph=self.graph, config=INTERPRETER)

    def __call__(self, *values):
        feed = dict(zip(self.inputs, values))
        got = self.sess.run(self.out, feed)
        _same(got, self.ref.run(self.out, feed))
        return got

    def close(self):
        self.sess.close()
        self.ref.close()


def _check_pairs(fn, dtype, xs, ys, op_type, want=None, out_dtype=None, shape=()):
    loop = _ScalarLoop(fn, [dtype, dtype], shape)
    try:
        for k, (x, y) in enumerate(zip(xs, ys)):
            got = loop(x, y)
            if want is not None:
                _same(got, want[k])
            if out_dtype is not None:
                assert type(got) is out_dtype
        _assert_inlined(_loop_of(loop.sess), op_type)
    finally:
        loop.close()


def _golden_keys():
    return sorted({k.rsplit("_", 1)[0] for k in _GOLDEN.files})


@pytest.mark.parametrize("key", _golden_keys())
def test_binary_op_in_a_loop_equals_tensorflow(key):
    op_type, dtype = key.split("_")
    x, y, z = _GOLDEN[key + "_x"], _GOLDEN[key + "_y"], _GOLDEN[key + "_z"]
    _check_pairs(_BINARY[op_type], getattr(tf, dtype), x, y, op_type, want=list(z), out_dtype=z.dtype.type)


def _int_grid(dtype):
    info = np.iinfo(dtype)
    vals = [v for v in sorted({info.min, info.min + 1, -7, -3, -1, 0, 1, 3, 7, info.max - 1, info.max})
            if info.min <= v <= info.max]
    return [np.array(v, dtype) for v in vals]


_FLOATS = [-np.inf, -7.5, -3.0, -1.0, -0.0, 0.0, 0.5, 3.0, np.inf, np.nan]


_INT_OPS = ["FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Maximum", "Minimum", "Sub", "Mul", "AddV2",
            "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "BitwiseAnd", "BitwiseOr",
            "BitwiseXor", "LeftShift", "RightShift"]


@pytest.mark.parametrize("op_type, dtype", [
    (op, dt) for op in _INT_OPS for dt in (np.int8, np.uint8, np.int16, np.int32, np.int64)
    if not (op == "TruncateMod" and np.dtype(dt).itemsize < 4)])  # TruncateMod takes int32 and int64 only
def test_integer_op_in_a_loop_wraps_as_its_kernel(op_type, dtype):
    vals = _int_grid(dtype)
    pairs = [(x, y) for x, y in itertools.product(vals, vals) if not (op_type in _DIVISIONS and y == 0)]
    if op_type.endswith("Shift"):  # amounts out of range are clamped
        shifts = [np.array(s, dtype) for s in (0, 1, 3, 7, 8, 9, 31, 33, 63, 64, 100, -1, -5)
                  if np.iinfo(dtype).min <= s <= np.iinfo(dtype).max]
        pairs = list(itertools.product(vals, shifts))
    fn = _BINARY[op_type]
    want = None
    if op_type in _NUMPY:
        with np.errstate(all="ignore"):
            want = [_NUMPY[op_type](x, y) for x, y in pairs]
    dt = tf.as_dtype(dtype)
    _check_pairs(fn, dt, [p[0] for p in pairs], [p[1] for p in pairs], op_type, want=want)


@pytest.mark.parametrize("op_type, dtype", [
    (op, dt) for op in ["FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "RealDiv", "Maximum", "Minimum", "Sub",
                        "Mul", "Equal", "NotEqual", "Less", "GreaterEqual"]
    for dt in (np.float16, np.float32, np.float64)
    if not (op == "TruncateMod" and dt is np.float16)])  # TruncateMod has no float16 kernel
def test_float_op_in_a_loop_keeps_its_dtype_and_nan_and_zero_signs(op_type, dtype):
    vals = [np.array(v, dtype) for v in _FLOATS]
    pairs = list(itertools.product(vals, vals))
    want = None
    if op_type in _NUMPY and op_type not in ("FloorDiv", "FloorMod"):  # TF's differ from NumPy's on zeros
        with np.errstate(all="ignore"):
            want = [_NUMPY[op_type](x, y) for x, y in pairs]
    _check_pairs(_BINARY[op_type], tf.as_dtype(dtype), [p[0] for p in pairs], [p[1] for p in pairs], op_type,
                 want=want)


@pytest.mark.parametrize("op_type", ["Equal", "NotEqual", "LogicalAnd", "LogicalOr"])
def test_bool_op_in_a_loop(op_type):
    vals = [np.array(False), np.array(True)]
    pairs = list(itertools.product(vals, vals))
    want = [_NUMPY[op_type](x, y) for x, y in pairs]
    _check_pairs(_BINARY[op_type], tf.bool, [p[0] for p in pairs], [p[1] for p in pairs], op_type, want=want,
                 out_dtype=np.bool_)


def test_complex_ops_in_a_loop():
    vals = [np.array(v, np.complex64) for v in (0, 1 + 2j, -3.5 - 0.5j, complex(np.inf, 1))]
    pairs = list(itertools.product(vals, vals))
    with np.errstate(all="ignore"):
        for op_type in ("RealDiv", "Mul", "Equal", "NotEqual"):
            want = [_NUMPY[op_type](x, y) for x, y in pairs]
            _check_pairs(_BINARY[op_type], tf.complex64, [p[0] for p in pairs], [p[1] for p in pairs], op_type,
                         want=want)
        _check_unary(tf.square, "Square", vals, np.square)


@pytest.mark.parametrize("op_type, dtype", [
    (op, dt) for op in ["FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod"] for dt in (tf.int32, tf.int64, tf.uint8)
    if not (op == "TruncateMod" and dt is tf.uint8)])  # TruncateMod takes int32 and int64 only
def test_integer_division_by_zero_in_a_loop_is_the_kernels_error(op_type, dtype):
    loop = _ScalarLoop(lambda x, y: _BINARY[op_type](x, y, name="division"), [dtype, dtype])
    try:
        feed = dict(zip(loop.inputs, [np.array(7, dtype.as_numpy_dtype), np.array(0, dtype.as_numpy_dtype)]))
        messages = []
        for sess in (loop.sess, loop.ref):
            with pytest.raises(tf.errors.InvalidArgumentError, match="^Integer division by zero") as info:
                sess.run(loop.out, feed)
            assert info.value.op.name.endswith("division")
            messages.append(info.value.message)
        assert messages[0] == messages[1]
        _assert_inlined(_loop_of(loop.sess), op_type)
    finally:
        loop.close()


def test_integer_division_by_zero_in_a_vector_loop_is_the_kernels_error():
    loop = _ScalarLoop(lambda x, y: tf.math.floormod(x, y, name="division"), [tf.int32, tf.int32], shape=(3,))
    try:
        feed = dict(zip(loop.inputs, [np.array([1, 2, 3], np.int32), np.array([1, 0, 1], np.int32)]))
        for sess in (loop.sess, loop.ref):
            with pytest.raises(tf.errors.InvalidArgumentError, match="^Integer division by zero"):
                sess.run(loop.out, feed)
    finally:
        loop.close()


def _check_unary(fn, op_type, xs, reference, out_dtype=None):
    loop = _ScalarLoop(fn, [tf.as_dtype(np.asarray(xs[0]).dtype)])
    try:
        for x in xs:
            got = loop(x)
            with np.errstate(all="ignore"):
                _same(got, reference(x))
            if out_dtype is not None:
                assert type(got) is out_dtype
        _assert_inlined(_loop_of(loop.sess), op_type)
    finally:
        loop.close()


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.float16, np.float32, np.float64])
def test_unary_ops_in_a_loop(dtype):
    xs = _int_grid(dtype) if np.dtype(dtype).kind == "i" else [np.array(v, dtype) for v in _FLOATS]
    xs.append(np.array(200, dtype) if dtype is not np.int8 else np.array(100, dtype))  # squares overflow
    out = np.dtype(dtype).type
    _check_unary(tf.abs, "Abs", xs, np.abs, out)
    _check_unary(tf.negative, "Neg", xs, np.negative, out)
    _check_unary(tf.square, "Square", xs, np.square, out)
    if np.dtype(dtype).kind == "i":
        _check_unary(tf.bitwise.invert, "Invert", xs, np.invert, out)


def test_logical_not_in_a_loop():
    _check_unary(tf.logical_not, "LogicalNot", [np.array(False), np.array(True)], np.logical_not, np.bool_)


@pytest.mark.parametrize("src,dst", [(np.int32, np.float32), (np.int32, np.float64), (np.int64, np.int32),
                                     (np.int32, np.int8), (np.int32, np.uint8), (np.int32, np.bool_),
                                     (np.bool_, np.int32), (np.bool_, np.float32), (np.float32, np.int32),
                                     (np.float64, np.float32), (np.float32, np.float64), (np.float64, np.float16),
                                     (np.int64, np.float32), (np.float32, np.complex64), (np.float16, np.float32),
                                     (np.int8, np.int16), (np.uint8, np.int32), (np.int64, np.float64),
                                     (np.float32, np.bool_), (np.float64, np.bool_), (np.int64, np.bool_),
                                     (np.bool_, np.float64)])
def test_cast_in_a_loop(src, dst):
    if np.dtype(src).kind == "b":
        xs = [np.array(False), np.array(True)]
    elif np.dtype(src).kind in "iu":
        xs = _int_grid(src)
        if np.dtype(src).itemsize >= 4:
            xs.append(np.array(2 ** 24 + 1, src))  # not a float32: rounded
    else:  # no NaN, inf or out of range values for integer types: C++ leaves their cast undefined
        xs = [np.array(v, src) for v in (-7.75, -1.5, -0.0, 0.0, 0.5, 3.5, 3e4 + 0.5)]
        if np.dtype(dst).kind != "i":
            xs += [np.array(v, src) for v in (np.inf, -np.inf, np.nan, 1e300 if src is np.float64 else 6e4)]
    _check_unary(lambda x: tf.cast(x, tf.as_dtype(dst)), "Cast", xs, lambda x: x.astype(dst)[()],
                 np.dtype(dst).type)


@pytest.mark.parametrize("where,op_type", [(tf.where, "Select"), (tf.where_v2, "SelectV2")])
@pytest.mark.parametrize("dtype", [tf.int32, tf.float32, tf.float64, tf.bool])
def test_select_in_a_loop(where, op_type, dtype):
    np_dtype = dtype.as_numpy_dtype
    loop = _ScalarLoop(lambda c, x, y: where(c, x, y), [tf.bool, dtype, dtype])
    try:
        for c, x, y in itertools.product([False, True], [0, 1], [1, -1]):
            got = loop(np.array(c), np.array(x, np_dtype), np.array(y, np_dtype))
            _same(got, np.array(x if c else y, np_dtype)[()])
        _assert_inlined(_loop_of(loop.sess), op_type)
    finally:
        loop.close()


def test_select_of_vectors_by_a_scalar_condition_in_a_loop():
    with tf.Graph().as_default():
        c = tf.placeholder(tf.bool, [])
        x = tf.placeholder(tf.float32, [2])
        _, out = tf.while_loop(lambda i, r: i < 1, lambda i, r: (i + 1, tf.where(c, x, -x)), [0, tf.zeros([2])])
        for cond in (True, False):
            with tf.Session() as sess:
                got = sess.run(out, {c: cond, x: [1.0, -2.0]})
                _assert_inlined(_loop_of(sess), "Select")
            assert got.dtype == np.float32 and got.tolist() == ([1.0, -2.0] if cond else [-1.0, 2.0])


def test_identity_in_a_loop_is_no_call():
    x = tf.placeholder(tf.int32, [])
    _, out = tf.while_loop(lambda i, r: i < 3, lambda i, r: (i + 1, tf.identity(r + x)), [0, 0])
    with tf.Session() as sess:
        assert sess.run(out, {x: 5}) == 15
        loop = _loop_of(sess)
    assert not _KERNEL_CALL.search(loop.source)


@pytest.mark.parametrize("op_type, dtype", [
    (op, dt) for op in ["FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "RealDiv", "Maximum", "Minimum",
                        "Equal", "NotEqual", "LeftShift"] for dt in (np.int32, np.float32)
    if not (op == "RealDiv" and dt is np.int32) and not (op == "LeftShift" and dt is np.float32)])  # no kernel
def test_vector_ops_in_a_loop_equal_the_kernels(op_type, dtype):
    x = np.array([-7, -3, 0, 3, 7, 100], dtype)
    y = np.array([2, -2, 5, -1, 3, 3], dtype)
    loop = _ScalarLoop(_BINARY[op_type], [tf.as_dtype(dtype)] * 2, shape=(6,))
    try:
        got = loop(x, y)
        assert got.shape == (6,)
    finally:
        loop.close()


@pytest.mark.parametrize("op_type", ["Cast", "Abs", "Square", "Equal", "RealDiv", "FloorDiv", "TruncateDiv",
                                     "TruncateMod", "Maximum", "LogicalNot"])
def test_inlines_valid_for_every_shape_are_used_for_vectors(op_type):
    fns = {"Cast": (lambda x, y: tf.cast(x, tf.int32)), "Abs": (lambda x, y: tf.abs(x)),
           "Square": (lambda x, y: tf.square(x)), "LogicalNot": (lambda x, y: tf.logical_not(tf.less(x, y)))}
    fn = fns.get(op_type) or _BINARY[op_type]
    x = np.array([[-7.5, -3.0, 0.0], [3.0, 7.25, 100.0]], np.float32)
    y = np.array([[2.0, -2.0, 5.0], [-1.0, 3.0, 3.0]], np.float32)
    loop = _ScalarLoop(fn, [tf.float32, tf.float32], shape=(2, 3))
    try:
        assert loop(x, y).shape == (2, 3)
        _assert_inlined(_loop_of(loop.sess), op_type)
    finally:
        loop.close()


def test_modular_fibonacci_loop():
    n = tf.placeholder(tf.int32, [])
    out = tf.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, b, (a + b) % 1000003),
                        (tf.constant(0), tf.constant(0), tf.constant(1)))
    with tf.Session() as sess:
        i, a, b = sess.run(out, {n: 1000})
        _assert_inlined(_loop_of(sess), "FloorMod")
        assert not _KERNEL_CALL.search(_loop_of(sess).source)
    fa, fb = 0, 1
    for _ in range(1000):
        fa, fb = fb, (fa + fb) % 1000003
    assert (type(a), type(b), int(i), int(a), int(b)) == (np.int32, np.int32, 1000, fa, fb)


def test_int32_sum_in_a_loop_wraps():
    _, a = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 65536 + 7), [0, 1])
    with tf.Session() as sess:
        got = sess.run(a)
    want = np.int32(1)
    with np.errstate(all="ignore"):
        for _ in range(3):
            want = want * np.int32(65536) + np.int32(7)
    assert type(got) is np.int32 and got == want


def test_inlined_ops_of_fed_scalars_outside_loops():
    """Plain plans get the same expressions, on 0-d arrays: values, dtypes and the error agree."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.int32, [])
        y = tf.placeholder(tf.int32, [])
        f = tf.placeholder(tf.float32, [])
        fetches = [tf.math.floormod(x, y), tf.math.floordiv(x, y), tf.truncatemod(x, y), tf.truncatediv(x, y),
                   tf.maximum(x, y), tf.cast(x, tf.float64), tf.cast(f, tf.int32), tf.logical_not(x < y),
                   tf.math.floormod(f, 2.0), tf.where(x < y, x, y)]
        feed = {x: -7, y: 2, f: -3.5}
        with tf.Session() as sess, tf.Session(config=INTERPRETER) as ref:
            got, want = sess.run(fetches, feed), ref.run(fetches, feed)
            for g, w in zip(got, want):
                _same(g, w)
            assert [float(v) for v in got] == [1, -4, -1, -3, 2, -7.0, -3, 0, 0.5, -7]
            with pytest.raises(tf.errors.InvalidArgumentError, match="^Integer division by zero"):
                sess.run(fetches[0], {x: 1, y: 0})
