"""Op-table rows of the stateful and structural ops (see harness.py for the row API): init_ops,
numerics, random_ops, state_ops, control_flow_ops, tensor_array_ops, summary_ops, parsing_ops,
io_ops, script_ops, logging_ops, training_ops and ops/iterator_ops.

Every `fn` builds its op with the public API, as users do: variables initialized through their
`initializer` (a control dependency, so one run initializes then acts), `tf.while_loop`/`tf.cond`,
`tf.TensorArray` methods and `tf.gradients` of them for the gradient-store ops, a `tf.train.Saver`
for SaveV2/RestoreV2, datasets and iterators. Where an op's output is an opaque value (random
numbers, serialized summaries, iterator handles), `fn` returns what can be checked independently:
range and moment statistics, the decoded summary contents, the elements read back.

Checks a row cannot express (seeded determinism, error paths, printed text, ops built inside
function bodies) live in tests/ops/test_op_table_stateful.py.
"""

import io
import math
import sys
import tempfile
import wave

import numpy as np

import tensorweave as tf
from tensorweave.ops import io_ops, training_ops
from tests.ops.op_table.harness import FLOATS, INTS, Row, hp, rand

LD = np.longdouble
F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
OBJ = np.dtype(object)


def _deps(*variables):
    """Control dependencies that initialize `variables` first (nothing eagerly: created initialized)."""
    return tf.control_dependencies([] if tf.executing_eagerly() else [v.initializer for v in variables])


def _variable(x, **kw):
    """A variable initialized to tensor `x` (its shape static when `x`'s is fully known)."""
    return tf.Variable(x, validate_shape=x.shape.is_fully_defined(), **kw)


def _vjp(build, xs, dys):
    """Gradients of `build(*xs)` w.r.t. `xs` for output gradients `dys`: `tf.gradients` in a graph,
    a `tf.GradientTape` eagerly."""
    xs, dys = list(xs), list(dys)
    if tf.executing_eagerly():
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            ys = build(*xs)
        return tape.gradient(ys if isinstance(ys, (list, tuple)) else [ys], xs, output_gradients=dys)
    return tf.gradients(build(*xs), xs, grad_ys=dys)


def _as_vector(t):
    """A string scalar as a 1-element vector (a fetched scalar string is `bytes`, not an array)."""
    return tf.reshape(t, [1])


# ---- init_ops: OrthogonalQ ------------------------------------------------------------------------
def _orthogonal(shape):
    def fn(x):
        q = tf.orthogonal_initializer(gain=1.0, seed=5)(shape, dtype=x.dtype)
        gram = tf.matmul(q, q, transpose_a=shape[0] >= shape[1], transpose_b=shape[0] < shape[1])
        return [q - q, gram]

    def ref(x):
        return [np.zeros(shape, x.dtype), np.eye(min(shape), dtype=x.dtype)]
    return fn, ref


INIT_ROWS = [
    # The Q factor's columns (tall) or rows (wide) are orthonormal; `q - q` checks its static shape.
    Row("OrthogonalQ", *_orthogonal((5, 3)), lambda dt, rng: [np.zeros((), dt)], dtypes=(np.float32, np.float64),
        special=False, grad=False, rtol=0, atol={np.float32: 1e-6, np.float64: 1e-14}, name="OrthogonalQ-tall"),
    Row("OrthogonalQ", *_orthogonal((2, 6)), lambda dt, rng: [np.zeros((), dt)], dtypes=(np.float32, np.float64),
        special=False, grad=False, rtol=0, atol={np.float32: 1e-6, np.float64: 1e-14}, name="OrthogonalQ-wide"),
]


# ---- numerics: CheckNumerics ---------------------------------------------------------------------------
def _finite_special(dt):
    info = np.finfo(dt)
    return [[np.array([-0.0, 0.0, info.max, -info.max, info.tiny, -info.tiny, info.smallest_subnormal, 1.5], dt)],
            [np.zeros((0, 3), dt)]]


NUMERICS_ROWS = [
    # Finite values pass through unchanged; NaN/inf raise InvalidArgumentError (tests/ops/test_op_table_stateful.py).
    Row("CheckNumerics", lambda x: tf.check_numerics(x, "row check"), lambda x: x.copy(),
        lambda dt, rng: [rand(rng, (3, 4), dt)], special=_finite_special),
]


# ---- random_ops: shapes, dtypes, ranges and moments -------------------------------------------------
SAMPLES = (100, 100)


def _template(dt, rng):
    """A zeros array whose shape and dtype the random op copies."""
    return [np.zeros(SAMPLES, dt)]


def _stats(r, lo=None, hi=None, closed=False):
    """[r - r (the samples' static shape and dtype), all in [lo, hi) (or [lo, hi]), mean, std]."""
    rf = tf.cast(r, tf.float64)
    mean = tf.reduce_mean(rf)
    std = tf.sqrt(tf.reduce_mean(tf.square(rf - mean)))
    ok = tf.reduce_all(tf.is_finite(rf))
    if lo is not None:
        upper = tf.less_equal(rf, hi) if closed else tf.less(rf, hi)
        ok = tf.logical_and(ok, tf.reduce_all(tf.logical_and(tf.greater_equal(rf, lo), upper)))
    return [r - r, ok, mean, std]


def _stats_ref(mean, std):
    return lambda x: [np.zeros_like(x), np.array(True), np.float64(mean), np.float64(std)]


# Standard truncated normal on [-2, 2]: std = sqrt(1 - 2 * 2 * phi(2) / (2 * Phi(2) - 1)).
_PHI2 = math.exp(-2.0) / math.sqrt(2 * math.pi)
TRUNCATED_STD = math.sqrt(1 - 4 * _PHI2 / math.erf(2 / math.sqrt(2)))


def _uniform_int_fn(x):
    r = tf.random_uniform(tf.shape(x), -3, 5, dtype=x.dtype, seed=2)
    return _stats(r, -3, 5) + [tf.size(tf.unique(tf.reshape(r, [-1]))[0])]


def _multinomial_fn(logits):
    samples = tf.multinomial(logits, 4000, seed=11)
    k = tf.shape(logits)[1]
    in_range = tf.reduce_all(tf.logical_and(samples >= 0, samples < tf.cast(k, tf.int64)))
    freq = tf.reduce_mean(tf.one_hot(samples, k, dtype=tf.float64), axis=1)
    return [samples - samples, in_range, freq]


def _multinomial_ref(logits):
    p = np.exp(logits.astype(F64) - logits.astype(F64).max(axis=1, keepdims=True))
    return [np.zeros((logits.shape[0], 4000), np.int64), np.array(True), p / p.sum(axis=1, keepdims=True)]


def _multinomial_special(dt):
    inf = np.inf
    # Classes of logit -inf are never drawn; equal logits are drawn equally often.
    return [[np.array([[0, -inf, 0], [-inf, 1, -inf], [2, 2, 2]], dt)], [np.zeros((0, 3), dt)]]


def _shuffle_fn(x):
    r = tf.random_shuffle(x, seed=3)
    return [tf.nn.top_k(r, tf.size(r)).values, tf.reduce_any(tf.not_equal(r, x))]


def _shuffle_rows_fn(x):
    r = tf.random_shuffle(x, seed=4)
    order = tf.nn.top_k(r[:, 0], tf.shape(r)[0]).indices
    return [tf.gather(r, order), tf.reduce_any(tf.not_equal(r, x))]


def _distinct(dt, rng, n=20):
    return [(rng.permutation(n) - n // 2).astype(dt)]


RANDOM_ROWS = [
    Row("RandomUniform", lambda x: _stats(tf.random_uniform(tf.shape(x), dtype=x.dtype, seed=1), 0.0, 1.0),
        _stats_ref(0.5, math.sqrt(1 / 12)), _template, special=False, grad=False, rtol=0, atol=0.015),
    # Integers in [-3, 5), each of the 8 drawn.
    Row("RandomUniformInt", _uniform_int_fn, lambda x: _stats_ref(0.5, math.sqrt(63 / 12))(x) + [np.int32(8)],
        _template, dtypes=INTS, special=False, grad=False, rtol=0, atol=0.1),
    Row("RandomStandardNormal", lambda x: _stats(tf.random_normal(tf.shape(x), dtype=x.dtype, seed=3)),
        _stats_ref(0.0, 1.0), _template, special=False, grad=False, rtol=0, atol=0.05),
    Row("TruncatedNormal", lambda x: _stats(tf.truncated_normal(tf.shape(x), dtype=x.dtype, seed=4), -2.0, 2.0, True),
        _stats_ref(0.0, TRUNCATED_STD), _template, special=False, grad=False, rtol=0, atol=0.05),
    Row("Multinomial", _multinomial_fn, _multinomial_ref, lambda dt, rng: [rand(rng, (2, 4), dt, -1, 1)],
        special=_multinomial_special, grad=False, rtol=0, atol=0.035),
    # A permutation: the sorted values are the input's, and (20 distinct values, a fixed seed) some moved.
    Row("RandomShuffle", _shuffle_fn, lambda x: [-np.sort(-x), np.array(x.size > 1)], _distinct,
        dtypes=FLOATS + INTS, special=lambda dt: [[np.zeros(0, dt)]], grad=False),
    Row("RandomShuffle", _shuffle_rows_fn, lambda x: [x[np.argsort(-x[:, 0], kind="stable")], np.array(True)],
        lambda dt, rng: [np.stack([_distinct(dt, rng, 8)[0], rand(rng, (8,), dt)], axis=1)],
        dtypes=(np.float64, np.int32), special=False, grad=False, name="RandomShuffle-rows"),
]


# ---- state_ops ----------------------------------------------------------------------------------------
def _variable_read(x):
    v = _variable(x)
    with _deps(v):
        return tf.identity(v.read_value())


def _assign(x, y):
    v = _variable(x)
    with _deps(v):
        a = tf.assign(v, y, validate_shape=x.shape.is_fully_defined())
    with tf.control_dependencies([a]):
        return [tf.identity(a), tf.identity(v.read_value())]


def _update(op):
    def fn(x, y):
        v = _variable(x)
        with _deps(v):
            a = op(v, y)
        with tf.control_dependencies([a]):
            return [tf.identity(a), tf.identity(v.read_value())]
    return fn


def _is_initialized(x):
    v = _variable(x)
    with _deps(v):
        return tf.is_variable_initialized(v)


def _report_uninitialized(x):
    never = _variable(x, name="never_initialized")
    done = _variable(x, name="initialized")
    with _deps(done):
        return tf.report_uninitialized_variables([never, done])


def _two(dt, rng):
    return [rand(rng, (3, 4), dt), rand(rng, (3, 4), dt)]


STATE_ROWS = [
    Row("VariableV2", _variable_read, lambda x: x.copy(), lambda dt, rng: [rand(rng, (3, 4), dt)],
        dtypes=FLOATS + INTS, grad=False),
    Row("Assign", _assign, lambda x, y: [y.copy(), y.copy()], _two, dtypes=FLOATS + INTS, grad=False),
    Row("AssignAdd", _update(tf.assign_add), lambda x, y: [x + y] * 2, _two, dtypes=FLOATS + INTS, grad=False),
    Row("AssignSub", _update(tf.assign_sub), lambda x, y: [x - y] * 2, _two, dtypes=FLOATS + INTS, grad=False),
    Row("IsVariableInitialized", _is_initialized, lambda x: np.array(True), lambda dt, rng: [rand(rng, (2,), dt)],
        dtypes=(np.float32, np.int64), special=False, grad=False),
    Row("ReportUninitializedVariables", _report_uninitialized, lambda x: np.array([b"never_initialized"], object),
        lambda dt, rng: [rand(rng, (2,), dt)], dtypes=(np.float32,), special=False, grad=False, eager=False,
        static_known=False, note="eager variables are initialized when created: the report is empty"),
    # The initial value while the variable is uninitialized.
    Row("VariableOrInitial", lambda x: _variable(x).initialized_value(), lambda x: x.copy(),
        lambda dt, rng: [rand(rng, (3, 4), dt)], dtypes=FLOATS + INTS, grad=False),
]


# ---- control_flow_ops ------------------------------------------------------------------------------------
def _cond_fn(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: x * x, lambda: x - 1)


def _cond_ref(x):
    if x.dtype.kind in "iu":  # integer arithmetic wraps, as TF's
        return x * x if x.sum(dtype=x.dtype) > 0 else x - x.dtype.type(1)
    return (x.astype(LD) ** 2 if x.astype(LD).sum() > 0 else x.astype(LD) - 1).astype(x.dtype)


def _pred_cond(p, x):
    return tf.cond(p, lambda: tf.sin(x), lambda: tf.cos(x) * 2)


def _while_fn(x):
    """a <- a * x + sin(a), three times, from a = x (x is also captured by the body)."""
    _, a = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x + tf.sin(a)), [tf.constant(0), x])
    return a


def _while_ref(x):
    a = x
    for _ in range(3):
        a = a * x + np.sin(a)
    return a


def _poly_loop(x):
    """a <- a * x + a, three times, from a = x: through the loop variable and the captured x."""
    _, a = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x + a), [tf.constant(0), x])
    return a


def _dyadic(dt, rng, shape=(4,)):
    """Multiples of 1/4 in [-2, 2]: the gradients below are exact in float32, whatever the order of the
    sums (the eager tape and the graph's WhileGrad accumulate the iterations in different orders)."""
    return rng.randint(-8, 9, size=shape).astype(dt) / 4


# Second-order gradients of while loops are unsupported (TF1 raises TypeError, tensorweave LookupError):
# the gradient rows stop the gradient, and their grad check is that tf.gradients gives None.
def _while_grad_fn(x, dy):
    return tf.stop_gradient(_vjp(_poly_loop, [x], [dy])[0])


def _none_like_fn(x, dy):
    """A loop whose TensorArray loop variable gets no gradient: WhileGrad's seed for it is NoneLike."""
    def build(t):
        ta = tf.TensorArray(t.dtype, size=3)

        def body(i, acc, ta):
            return i + 1, acc + t * t, ta.write(i, t)
        return tf.while_loop(lambda i, a, ta: i < 3, body, [tf.constant(0), tf.zeros_like(t), ta])[1]
    return tf.stop_gradient(_vjp(build, [x], [dy])[0])


CONTROL_FLOW_ROWS = [
    Row("If", _cond_fn, _cond_ref, lambda dt, rng: [rand(rng, (5,), dt)], dtypes=FLOATS + INTS[:1],
        grad_inputs=lambda rng: [rand(rng, (5,), F64, 0.5, 2)]),
    Row("If", _pred_cond, lambda p, x: hp(lambda x: np.sin(x) if p else np.cos(x) * 2)(x),
        lambda dt, rng: [np.array(bool(rng.randint(2))), rand(rng, (2, 3), dt)], special=lambda dt: [
            [np.array(True), np.array([np.nan, -0.0, np.inf], dt)], [np.array(False), np.array([np.nan, -0.0], dt)],
            [np.array(False), np.zeros((0, 2), dt)]],
        grad=[1], name="If-pred-input"),
    Row("While", _while_fn, hp(_while_ref), lambda dt, rng: [rand(rng, (4,), dt, -1, 1)], rtol={np.float16: 1e-2},
        atol={np.float16: 1e-2}, special=lambda dt: [[np.array([np.nan, np.inf, -0.0, 0.0], dt)],
                                                      [np.zeros(0, dt)]]),
    # d/dx of x * (x + 1)^3 = (x + 1)^3 + 3 x (x + 1)^2.
    Row("WhileGrad", _while_grad_fn,
        lambda x, dy: (dy.astype(LD) * ((x.astype(LD) + 1) ** 3 + 3 * x.astype(LD) * (x.astype(LD) + 1) ** 2)).astype(
            x.dtype),
        lambda dt, rng: [_dyadic(dt, rng), _dyadic(dt, rng)], dtypes=FLOATS, grad=False,
        special=lambda dt: [[np.array([np.nan, np.inf, -0.0, 1.0], dt), np.array([1.0, 1.0, 2.0, -0.0], dt)]]),
    Row("NoneLike", _none_like_fn, lambda x, dy: (6 * x.astype(LD) * dy).astype(x.dtype),
        lambda dt, rng: [_dyadic(dt, rng, (3,)), _dyadic(dt, rng, (3,))], dtypes=FLOATS, special=False,
        grad=False),
]


# ---- tensor_array_ops ------------------------------------------------------------------------------------
def _ta(x, **kw):
    """A TensorArray the size of x's first dimension (a Python int when static, as users write it)."""
    n = x.shape.as_list()[0] if x.shape.ndims else None
    return tf.TensorArray(x.dtype, size=tf.shape(x)[0] if n is None else n, **kw)


def _like(t, x):
    """`t` reshaped to x's shape: the static first dimension of a stack or concat is unknown when the
    array's size is (a `tf.shape` here for unknown dims), and the numerical gradient check needs it."""
    return tf.reshape(t, x.shape.as_list() if x.shape.is_fully_defined() else tf.shape(x))


def _ta_split(x):
    return tf.TensorArray(x.dtype, size=2, infer_shape=False).split(x, [1, 2])


def _rows_of(t, n, x):
    """`t` reshaped to `n` rows of x's row shape."""
    rest = x.shape.as_list()[1:] if x.shape.is_fully_defined() else [-1]
    return tf.reshape(t, [n] + rest)


def _rows(dt, rng, shape=(3, 2)):
    return [rand(rng, shape, dt)]


def _rows_dy(dt, rng, shape=(3, 2), dy_shape=None):
    return [rand(rng, shape, dt), rand(rng, dy_shape or shape, dt)]


def _ta_special(dt):
    empty = [[np.zeros((0, 2), dt)]]  # stacks to (0, 2): the element shape the unstack gave the array
    if dt.kind != "f":
        return empty
    return [[np.array([[np.nan, np.inf], [-np.inf, -0.0], [0.0, 1.0]], dt)]] + empty


def _close_fn(x):
    ta = _ta(x).unstack(x)
    r = _like(ta.stack(), x)
    with tf.control_dependencies([r]):
        closed = ta.close()
    with tf.control_dependencies([] if closed is None else [closed]):
        return tf.identity(r)


TA_DTYPES = FLOATS + INTS
TENSOR_ARRAY_ROWS = [
    # Forward ops (their gradients: the numerical check, through the gradient-store ops).
    Row("TensorArrayV3", lambda x: _like(_ta(x).unstack(x).stack(), x), lambda x: x.copy(), _rows, dtypes=TA_DTYPES,
        special=_ta_special),
    Row("TensorArrayWriteV3", lambda x: tf.TensorArray(x.dtype, size=2).write(0, x).write(1, x * 2).read(1),
        lambda x: x * 2, _rows, dtypes=TA_DTYPES),
    Row("TensorArrayReadV3", lambda x: [_ta(x).unstack(x).read(2), _ta(x).unstack(x).read(0)],
        lambda x: [x[2], x[0]], _rows, dtypes=TA_DTYPES, special=False),
    Row("TensorArrayScatterV3", lambda x: _like(_ta(x).scatter([2, 0, 1], x).stack(), x), lambda x: x[[1, 2, 0]],
        _rows,
        dtypes=TA_DTYPES, special=False),
    # A fixed size known statically: stack's static shape is [size] + the scattered rows' shape (as TF).
    Row("TensorArrayScatterV3", lambda x: tf.TensorArray(x.dtype, size=4).scatter([3, 0, 1], x).stack(),
        lambda x: np.concatenate([x[1:3], np.zeros_like(x[:1]), x[:1]]), _rows, dtypes=TA_DTYPES, special=False,
        name="TensorArrayScatterV3-static-stack"),
    Row("TensorArrayGatherV3", lambda x: _ta(x).unstack(x).gather([2, 0]), lambda x: x[[2, 0]], _rows,
        dtypes=TA_DTYPES, special=False),
    Row("TensorArraySizeV3", lambda x: _ta(x).unstack(x).size(), lambda x: np.int32(len(x)), _rows,
        dtypes=(np.float32,), special=lambda dt: [[np.zeros((0, 2), dt)]], grad=False),
    Row("TensorArrayConcatV3", lambda x: _like(_ta_split(x).concat(), x), lambda x: x.copy(), _rows,
        dtypes=TA_DTYPES, special=False),
    # Elements of different lengths have no static shape: reshaped to theirs (the gradient check needs it).
    Row("TensorArraySplitV3", lambda x: [_rows_of(_ta_split(x).read(1), 2, x), _rows_of(_ta_split(x).read(0), 1, x)],
        lambda x: [x[1:], x[:1]], _rows, dtypes=TA_DTYPES, special=False),
    Row("TensorArrayCloseV3", _close_fn, lambda x: x.copy(), _rows, dtypes=(np.float32, np.float64), special=False),
    # Gradient stores: TF's TensorArray gradients are not differentiable again (grad=False).
    Row("TensorArrayGradScatter", lambda x, dy: _vjp(lambda t: _ta(t).unstack(t).read(1), [x], [dy])[0],
        lambda x, dy: np.concatenate([np.zeros_like(x[:1]), dy[None], np.zeros_like(x[2:])]),
        lambda dt, rng: _rows_dy(dt, rng, dy_shape=(2,)), special=False, grad=False),
    Row("TensorArrayGradRead",
        lambda x, dy: _vjp(lambda t: tf.TensorArray(t.dtype, size=2).write(0, t).write(1, t * 3).read(1), [x],
                           [dy])[0],
        lambda x, dy: (3 * dy.astype(LD)).astype(x.dtype), _rows_dy, special=False, grad=False),
    Row("TensorArrayGradGather", lambda x, dy: _vjp(lambda t: _ta(t).unstack(t).gather([2, 0]), [x], [dy])[0],
        lambda x, dy: np.stack([dy[1], np.zeros_like(dy[0]), dy[0]]), lambda dt, rng: _rows_dy(dt, rng, (3, 2),
                                                                                               (2, 2)),
        special=False, grad=False),
    Row("TensorArrayGradSplit", lambda x, dy: _vjp(lambda t: _like(_ta_split(t).concat(), t), [x], [dy])[0],
        lambda x, dy: dy.copy(), _rows_dy, special=False, grad=False),
    Row("TensorArrayGradConcat", lambda x, dy: _vjp(lambda t: _rows_of(_ta_split(t).read(1), 2, t), [x], [dy])[0],
        lambda x, dy: np.concatenate([np.zeros_like(x[:1]), dy]), lambda dt, rng: _rows_dy(dt, rng, (3, 2), (2, 2)),
        special=False, grad=False),
]



# ---- summary_ops -------------------------------------------------------------------------------------------
def _summary_pb2():
    from tensorboard.compat.proto import summary_pb2
    return summary_pb2


def _summary_bytes(values):
    """The serialized Summary of `(tag, simple_value)` pairs, built with TensorBoard's own protos."""
    pb = _summary_pb2()
    s = pb.Summary(value=[pb.Summary.Value(tag=t, simple_value=float(np.float32(v))) for t, v in values])
    return np.array([s.SerializeToString()], object)


def _decoded(summary, decode, touts):
    """`decode(Summary proto)` as tensors (a py_func reading the serialized summary, not differentiable:
    TF1's NotDifferentiable("PyFuncStateless"))."""
    def run(serialized):
        return decode(_summary_pb2().Summary.FromString(bytes(serialized)))
    return tf.py_func(run, [summary], touts, stateful=False)


def _decode_images(s):
    tags = np.array([v.tag.encode() for v in s.value], object)
    from PIL import Image
    pixels = [np.asarray(Image.open(io.BytesIO(v.image.encoded_image_string))) for v in s.value]
    dims = np.array([[v.image.height, v.image.width, v.image.colorspace] for v in s.value], np.int64)
    return tags, np.stack([p if p.ndim == 3 else p[..., None] for p in pixels]).astype(np.uint8), dims


def _image_ref(max_outputs):
    """TF's ImageSummary: uint8 unchanged; floats per image: all >= 0 scaled so the max is 255, else
    0 -> 128 and the largest magnitude -> 127 away; truncated to uint8; non-finite pixels red."""
    def ref(x):
        out = []
        for img in x[:max_outputs]:
            if x.dtype == np.uint8:
                out.append(img)
                continue
            t = img.dtype.type  # TF: min/max and the scale in float32, the transform in the image's type
            bad = ~np.isfinite(img).all(axis=-1)
            good = img[~bad].astype(np.float32)
            lo, hi = (good.min(), good.max()) if good.size else (np.float32(np.inf), np.float32(-np.inf))
            if lo < 0:
                m = max(abs(lo), abs(hi))
                scale, offset = t(0.0 if m < 1e-6 else np.float32(127) / m), t(128)
            else:
                scale, offset = t(0.0 if hi < 1e-6 else np.float32(255) / hi), t(0)
            with np.errstate(invalid="ignore"):
                u = np.trunc(np.where(np.isfinite(img), img, t(0)) * scale + offset).astype(np.uint8)
            u[bad] = np.array([255, 0, 0, 255], np.uint8)[:img.shape[-1]]
            out.append(u)
        k = len(out)
        tags = [b"img/image"] if max_outputs == 1 else [b"img/image/%d" % i for i in range(k)]
        dims = np.array([[x.shape[1], x.shape[2], x.shape[3]]] * k, np.int64)
        return [np.array(tags, object), np.stack(out).astype(np.uint8), dims]
    return ref


def _image_fn(max_outputs):
    return lambda x: _decoded(tf.summary.image("img", x, max_outputs=max_outputs), _decode_images,
                              [tf.string, tf.uint8, tf.int64])


def _image_inputs(channels):
    def inputs(dt, rng):
        if dt == np.uint8:
            return [rng.randint(0, 256, (3, 2, 3, channels)).astype(np.uint8)]
        x = rand(rng, (3, 2, 3, channels), dt, -3, 3)
        x[1] = np.abs(x[1])  # an all-positive image: scaled so its max is 255
        return [x]
    return inputs


def _image_special(dt):
    if dt == np.uint8:
        return []
    x = np.ones((2, 2, 2, 3), dt)
    x[0, 0, 0, 1] = np.nan  # a red pixel, ignored for the scaling
    x[0, 1, 1] = [2.0, 0.5, -np.inf]
    x[1] = 0.0  # all zero: scale 0
    return [[x]]


def _decode_histogram(s):
    h = s.value[0].histo
    stats = np.array([h.min, h.max, h.num, h.sum, h.sum_squares], np.float64)
    return (np.array([s.value[0].tag.encode()], object), stats, np.array(h.bucket_limit, np.float64),
            np.array(h.bucket, np.float64))


def _histogram_limits():
    """TF's default histogram buckets (histogram.cc): +-1e-12 growing by 10% below 1e20, +-DBL_MAX, and 0."""
    pos, v = [], 1.0e-12
    while v < 1.0e20:
        pos.append(v)
        v *= 1.1
    pos.append(sys.float_info.max)
    return [-p for p in reversed(pos)] + [0.0] + pos


def _histogram_ref(x):
    import bisect
    values = [float(v) for v in x.reshape(-1)]
    limits = _histogram_limits()
    counts = [0.0] * len(limits)
    for v in values:
        counts[bisect.bisect_right(limits, v)] += 1  # bucket i holds [limits[i-1], limits[i])
    out_limits, out_counts, i = [], [], 0
    while i < len(limits):  # EncodeToProto: each run of empty buckets becomes one bucket
        end, c = limits[i], counts[i]
        i += 1
        if c <= 0:
            while i < len(limits) and counts[i] <= 0:
                end, c = limits[i], counts[i]
                i += 1
        out_limits.append(end)
        out_counts.append(c)
    stats = [min(values), max(values)] if values else [sys.float_info.max, -sys.float_info.max]
    stats += [float(len(values)), math.fsum(values), math.fsum(v * v for v in values)]
    return [np.array([b"hist"], object), np.array(stats), np.array(out_limits), np.array(out_counts)]


def _decode_audio(s):
    tags, samples, meta = [], [], []
    for v in s.value:
        with wave.open(io.BytesIO(v.audio.encoded_audio_string)) as w:
            frames = np.frombuffer(w.readframes(w.getnframes()), "<i2").reshape(-1, w.getnchannels())
            meta.append([w.getframerate(), w.getsampwidth(), v.audio.sample_rate, v.audio.num_channels,
                         v.audio.length_frames])
        tags.append(v.tag.encode())
        samples.append(frames)
    return np.array(tags, object), np.stack(samples).astype(np.int16), np.array(meta, np.float64)


def _audio_ref(x):
    """TF's wav encoding: round(sample * 32768) (halves away from zero), clamped to int16."""
    scaled = x.astype(F64) * 32768.0
    pcm = np.clip(np.sign(scaled) * np.floor(np.abs(scaled) + 0.5), -32768, 32767).astype(np.int16)
    k = min(2, len(x))
    frames = pcm[:k].reshape(k, x.shape[1], -1)
    meta = np.array([[8000, 2, 8000, frames.shape[2], x.shape[1]]] * k, np.float64)
    return [np.array([b"snd/audio/%d" % i for i in range(k)], object), frames, meta]


def _decode_tensor(s):
    from tensorboard.util import tensor_util
    return np.array([s.value[0].tag.encode()], object), tensor_util.make_ndarray(s.value[0].tensor)


SUMMARY_ROWS = [
    Row("ScalarSummary", lambda x: _as_vector(tf.summary.scalar("loss", x)),
        lambda x: _summary_bytes([("loss", x)]), lambda dt, rng: [rand(rng, (), dt)], dtypes=FLOATS + INTS,
        special=lambda dt: [[np.array(v, dt)] for v in ([np.nan, np.inf, -np.inf, -0.0] if dt.kind == "f" else
                                                         [np.iinfo(dt).min, np.iinfo(dt).max])], grad=False),
    Row("MergeSummary",
        lambda x: _as_vector(tf.summary.merge([tf.summary.scalar("a", x[0]), tf.summary.scalar("b", x[1])])),
        lambda x: _summary_bytes([("a", x[0]), ("b", x[1])]), lambda dt, rng: [rand(rng, (2,), dt)],
        dtypes=(np.float32,), special=False, grad=False, eager=False,
        note="TF1 raises for tf.summary.merge under eager execution (tests/summary/test_summary_ops.py)"),
    Row("ImageSummary", _image_fn(2), _image_ref(2), _image_inputs(3), dtypes=(np.uint8,) + FLOATS,
        special=_image_special, grad=False, static_known=False, name="ImageSummary-rgb"),
    Row("ImageSummary", _image_fn(1), _image_ref(1), _image_inputs(1), dtypes=(np.uint8, np.float32), special=False,
        grad=False, static_known=False, name="ImageSummary-gray-one"),
    Row("ImageSummary", _image_fn(3), _image_ref(3), _image_inputs(4), dtypes=(np.float64,), special=False,
        grad=False, static_known=False, name="ImageSummary-rgba"),
    Row("HistogramSummary",
        lambda x: _decoded(tf.summary.histogram("hist", x), _decode_histogram, [tf.string] + [tf.float64] * 3),
        _histogram_ref, lambda dt, rng: [rand(rng, (4, 5), dt, -50, 50)], dtypes=FLOATS + INTS,
        # -1e-13 is -0.0 in float16: TF's Histogram keeps the first of equal values (`if (min_ > value)`),
        # so the min of [0, 0, ..., -0.0, ...] is +0 (the reference's Python `min` does the same).
        special=lambda dt: [[np.array([0, 0, 1e-13, -1e-13, 1, 1, 3] if dt != F16 else [0, 0, 1e-7, -1e-13, 1, 1, 3],
                                      dt) if dt.kind == "f" else np.array([0, 0, 1, -1, 7], dt)],
                            [np.array([-0.0, 0.0, -0.0], dt) if dt.kind == "f" else np.zeros((0,), dt)],
                            [np.zeros((0,), dt)]],
        grad=False, static_known=False, rtol=1e-12, atol=0),
    Row("AudioSummaryV2",
        lambda x: _decoded(tf.summary.audio("snd", x, 8000.0, max_outputs=2), _decode_audio,
                           [tf.string, tf.int16, tf.float64]),
        _audio_ref, lambda dt, rng: [np.concatenate([rand(rng, (3, 5, 2), dt, -1, 1),
                                                     np.full((3, 1, 2), 0.5 / 32768, dt)], axis=1)],
        dtypes=(np.float32,), special=lambda dt: [[np.array([[[1.0], [-1.0], [2.0], [-2.0], [0.25 / 32768],
                                                               [-1.5 / 32768]]], dt)]],
        grad=False, static_known=False),
    Row("TensorSummaryV2",
        lambda x: _decoded(tf.summary.tensor_summary("t", x), _decode_tensor, [tf.string, x.dtype]),
        lambda x: [np.array([b"t"], object), x.copy()], lambda dt, rng: [rand(rng, (2, 3), dt)],
        dtypes=FLOATS + INTS, special=lambda dt: [[np.array([np.nan, -0.0, np.inf], dt)]] if dt.kind == "f" else [],
        grad=False, static_known=False),
]


# ---- parsing_ops ---------------------------------------------------------------------------------------------
_EXAMPLES = {}  # serialized Example -> the feature values it was built from (the references read these)


def _example(rng, with_b):
    feats = {"a": rng.uniform(-2, 2, 2).astype(np.float32).tolist(),
             "c": [b"x%d" % i for i in range(rng.randint(0, 3))], "d": [b"word%d" % rng.randint(10)]}
    if with_b:
        feats["b"] = [int(rng.randint(-5, 5))]
    proto = tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(float_list=tf.train.FloatList(value=feats["a"])),
        "c": tf.train.Feature(bytes_list=tf.train.BytesList(value=feats["c"])),
        "d": tf.train.Feature(bytes_list=tf.train.BytesList(value=feats["d"])),
        **({"b": tf.train.Feature(int64_list=tf.train.Int64List(value=feats["b"]))} if with_b else {})}))
    s = proto.SerializeToString()
    _EXAMPLES[s] = feats
    return s


FEATURES = {"a": tf.FixedLenFeature([2], tf.float32), "b": tf.FixedLenFeature([], tf.int64, default_value=7),
            "c": tf.VarLenFeature(tf.string), "d": tf.FixedLenFeature([], tf.string)}


def _parsed_list(parsed):
    c = parsed["c"]
    d = parsed["d"] if parsed["d"].shape.ndims else _as_vector(parsed["d"])
    return [parsed["a"], parsed["b"], c.indices, c.values, c.dense_shape, d]


def _parse_example_ref(serialized):
    feats = [_EXAMPLES[bytes(s)] for s in serialized]
    a = np.array([f["a"] for f in feats], np.float32).reshape(-1, 2)
    b = np.array([f.get("b", [7])[0] for f in feats], np.int64)
    idx = [[i, j] for i, f in enumerate(feats) for j in range(len(f["c"]))]
    vals = [v for f in feats for v in f["c"]]
    width = max([len(f["c"]) for f in feats], default=0)
    return [a, b, np.array(idx, np.int64).reshape(-1, 2), np.array(vals, object), np.array([len(feats), width],
                                                                                            np.int64),
            np.array([f["d"][0] for f in feats], object)]


def _parse_single_ref(serialized):
    f = _EXAMPLES[bytes(serialized[()])]
    return [np.array(f["a"], np.float32), np.int64(f.get("b", [7])[0]),
            np.arange(len(f["c"]), dtype=np.int64).reshape(-1, 1), np.array(f["c"], object),
            np.array([len(f["c"])], np.int64), np.array([f["d"][0]], object)]


def _decode_raw_row(out_dt, little_endian, name):
    tf_dt = tf.as_dtype(out_dt)
    width = np.dtype(out_dt).itemsize

    def inputs(dt, rng):
        return [np.array([rng.bytes(3 * width) for _ in range(4)], object)]

    def ref(s):
        order = "<" if little_endian or width == 1 else ">"
        flat = s.reshape(-1)
        n = len(flat[0]) // width if flat.size else 0
        vals = [np.frombuffer(bytes(b), np.dtype(out_dt).newbyteorder(order)).astype(out_dt) for b in flat]
        return np.array(vals, out_dt).reshape(s.shape + (n,))

    def special(dt):
        return [[np.array([], object)], [np.array([b"", b""], object)],
                [np.array([[b"\x00" * width * 2], [b"\xff" * width * 2]], object)]]

    return Row("DecodeRaw", lambda s: tf.decode_raw(s, tf_dt, little_endian=little_endian), ref, inputs,
               dtypes=(OBJ,), special=special, grad=False, name=name, static_known=False,
               note="the decoded length is known at run time only (TF: (n, ?))")


PARSING_ROWS = [
    Row("ParseExample", lambda s: _parsed_list(tf.parse_example(s, FEATURES)), _parse_example_ref,
        lambda dt, rng: [np.array([_example(rng, i != 1) for i in range(3)], object)], dtypes=(OBJ,),
        special=lambda dt: [[np.array([], object)]], grad=False, static_known=False,
        note="the sparse feature's size is known only at run time"),
    Row("ParseSingleExample", lambda s: _parsed_list(tf.parse_single_example(s, FEATURES)), _parse_single_ref,
        lambda dt, rng: [np.array(_example(rng, True), object)], dtypes=(OBJ,), special=lambda dt: [
            [np.array(_example(np.random.RandomState(k), False), object)] for k in range(3)],
        grad=False, static_known=False),
    _decode_raw_row(np.uint8, True, "DecodeRaw-uint8"),
    _decode_raw_row(np.int16, True, "DecodeRaw-int16"),
    _decode_raw_row(np.int32, False, "DecodeRaw-int32-big-endian"),
    _decode_raw_row(np.float32, True, "DecodeRaw-float32"),
    _decode_raw_row(np.float64, False, "DecodeRaw-float64-big-endian"),
    _decode_raw_row(np.int64, True, "DecodeRaw-int64"),
]


# ---- io_ops: SaveV2 / RestoreV2 through tf.train.Saver -------------------------------------------------
_CHECKPOINTS = tempfile.TemporaryDirectory(prefix="op_table_ckpt_")


def _save_restore(x):
    """Writes x to a fresh checkpoint and reads it back in one run: the SaveV2/RestoreV2 wrappers
    tf.train.Saver builds on (a Saver's ops cannot be ordered inside one run; its save-then-restore
    across runs: tests/ops/test_op_table_stateful.py)."""
    prefix = tempfile.mkdtemp(dir=_CHECKPOINTS.name) + "/ckpt"
    saved = io_ops.save_v2(prefix, ["x", "reversed"], ["", ""], [x, x[::-1]])
    with tf.control_dependencies([] if saved is None else [saved]):
        rev, restored = io_ops.restore_v2(prefix, ["reversed", "x"], ["", ""], [x.dtype, x.dtype])
    return [restored, rev]


IO_ROWS = [
    Row("SaveV2", _save_restore, lambda x: [x.copy(), x[::-1].copy()], lambda dt, rng: [rand(rng, (3, 4), dt)],
        dtypes=FLOATS + INTS, grad=False, static_known=False, note="RestoreV2's outputs have no static shape"),
    Row("RestoreV2", _save_restore, lambda x: [x.copy(), x[::-1].copy()], lambda dt, rng: [rand(rng, (2, 3), dt)],
        dtypes=(np.float64, np.int8, np.uint16, np.bool_), grad=False, static_known=False,
        special=lambda dt: [[np.zeros((0, 3), dt)]], note="RestoreV2's outputs have no static shape"),
]


# ---- script_ops --------------------------------------------------------------------------------------------
# TF1 declares PyFunc/PyFuncStateless NotDifferentiable: tf.gradients of the plain op gives None (the
# "-no-override" rows). The other rows install a gradient with gradient_override_map, to be checkable.
_SQUARE_GRAD, _CUMSUM_GRAD = "OpTableSquarePlusOneGrad", "OpTableCumsumGrad"
for _name, _grad in [(_SQUARE_GRAD, lambda op, grad: [grad * 2 * op.inputs[0]]),
                     (_CUMSUM_GRAD, lambda op, grad, _: [tf.cumsum(grad, reverse=True), None])]:
    try:
        tf.RegisterGradient(_name)(_grad)
    except KeyError:  # already registered (the module imported again)
        pass


def _py_func(stateful):
    def fn(x):
        with tf.get_default_graph().gradient_override_map({"PyFunc": _SQUARE_GRAD, "PyFuncStateless": _SQUARE_GRAD}):
            y = tf.py_func(lambda a: (a * a + 1).astype(a.dtype), [x], x.dtype, stateful=stateful)
        return tf.reshape(y, tf.shape(x))  # py_func's static shape is unknown
    return fn


def _plain_py_func(stateful):
    def fn(x):
        return tf.reshape(tf.py_func(lambda a: (a * a + 1).astype(a.dtype), [x], x.dtype, stateful=stateful),
                          tf.shape(x))
    return fn


def _py_func_two(x, n):
    with tf.get_default_graph().gradient_override_map({"PyFuncStateless": _CUMSUM_GRAD}):
        a, b = tf.py_func(lambda u, k: [np.cumsum(u).astype(u.dtype), np.int64(k * 2)], [x, n], [x.dtype, tf.int64],
                          stateful=False)
    return [tf.reshape(a, tf.shape(x)), tf.reshape(b, [])]


SCRIPT_ROWS = [
    Row("PyFunc", _py_func(True), lambda x: (x * x + 1).astype(x.dtype), lambda dt, rng: [rand(rng, (3, 4), dt)],
        dtypes=FLOATS + INTS),
    Row("PyFuncStateless", _py_func(False), lambda x: (x * x + 1).astype(x.dtype),
        lambda dt, rng: [rand(rng, (3, 4), dt)], dtypes=FLOATS + INTS),
    Row("PyFuncStateless", _py_func_two,
        lambda x, n: [np.cumsum(x).astype(x.dtype), np.int64(n * 2)],
        lambda dt, rng: [rand(rng, (5,), dt), np.array(rng.randint(9), np.int32)], dtypes=(np.float64, np.int32),
        special=False, grad=[0], name="PyFuncStateless-two-outputs",
        grad_inputs=lambda rng: [rand(rng, (5,), F64), np.array(3, np.int32)]),
    Row("PyFunc", _plain_py_func(True), lambda x: (x * x + 1).astype(x.dtype), lambda dt, rng: [rand(rng, (3, 4), dt)],
        dtypes=(np.float64, np.int32), special=False, grad=False, name="PyFunc-no-override"),
    Row("PyFuncStateless", _plain_py_func(False), lambda x: (x * x + 1).astype(x.dtype),
        lambda dt, rng: [rand(rng, (3, 4), dt)], dtypes=(np.float64, np.int32), special=False, grad=False,
        name="PyFuncStateless-no-override"),
]


# ---- logging_ops --------------------------------------------------------------------------------------------
def _assert_fn(x):
    check = tf.Assert(tf.reduce_all(tf.logical_not(tf.is_nan(x))), [x, "has no NaN"])
    with tf.control_dependencies([] if check is None else [check]):
        return tf.identity(x)


def _print_v2_fn(x):
    printed = tf.print("op table:", x, output_stream=sys.stderr)
    with tf.control_dependencies([] if printed is None else [printed]):
        return tf.identity(x)


def _no_nan_special(dt):
    return [[np.array([np.inf, -np.inf, -0.0, 0.0], dt)], [np.zeros((0,), dt)]]


LOGGING_ROWS = [
    # A true condition lets the value through; a false one raises (tests/ops/test_op_table_stateful.py).
    Row("Assert", _assert_fn, lambda x: x.copy(), lambda dt, rng: [rand(rng, (3, 4), dt)], special=_no_nan_special),
    # Print is the identity of its first input (the printed text: tests/ops/test_op_table_stateful.py).
    Row("Print", lambda x: tf.Print(x, [x, tf.reduce_sum(x)], message="op table: ", summarize=2), lambda x: x.copy(),
        lambda dt, rng: [rand(rng, (3, 4), dt)], dtypes=FLOATS + INTS),
    Row("PrintV2", _print_v2_fn, lambda x: x.copy(), lambda dt, rng: [rand(rng, (3, 4), dt)], dtypes=FLOATS + INTS),
]


# ---- training_ops: the update formulas of TF's docs, in long double ------------------------------------
LR, MOMENTUM, RHO, EPS, BETA1, BETA2 = 0.1, 0.9, 0.95, 1e-3, 0.9, 0.999


def _apply_row(op_type, apply, ref, n_slots, positive_slots=(), name=None, **kw):
    """A row running one `training_ops.apply_*` step on variables initialized from the inputs
    (var, slots..., grad); outputs the op's result and every variable read after it."""
    def fn(*arrays):
        *state, grad = arrays
        variables = [_variable(a) for a in state]
        with _deps(*variables):
            out = apply(*variables, grad)
        with tf.control_dependencies([out]):
            return [tf.identity(out)] + [tf.identity(v.read_value()) for v in variables]

    def inputs(dt, rng):
        arrays = [rand(rng, (3, 4), dt)]
        for k in range(n_slots):
            arrays.append(rand(rng, (3, 4), dt, 0.1, 1.0) if k in positive_slots else rand(rng, (3, 4), dt))
        arrays.append(rand(rng, (3, 4), dt))
        return arrays

    def reference(*arrays):
        dt = arrays[0].dtype
        new = ref(*[a.astype(LD) for a in arrays])
        return [new[0].astype(dt)] + [a.astype(dt) for a in new]

    def special(dt):
        base = inputs(dt, np.random.RandomState(0))
        grad = np.resize(np.array([np.nan, 0.0, -0.0, np.inf], dt), base[-1].shape)
        return [base[:-1] + [grad]]

    tol = dict(rtol={np.float16: 1e-2, np.float32: 1e-5}, atol={np.float16: 1e-2, np.float32: 1e-5})
    tol.update(kw)
    return Row(op_type, fn, reference, inputs, special=special, grad=False, name=name, **tol)


def _sgd_ref(var, g):
    return [var - LD(LR) * g]


def _momentum_ref(nesterov):
    def ref(var, accum, g):
        accum = accum * LD(MOMENTUM) + g
        step = g * LD(LR) + accum * LD(MOMENTUM) * LD(LR) if nesterov else accum * LD(LR)
        return [var - step, accum]
    return ref


def _adagrad_ref(var, accum, g):
    accum = accum + g * g
    return [var - LD(LR) * g / np.sqrt(accum), accum]


def _adam_ref(nesterov):
    def ref(var, m, v, g):
        b1p, b2p = LD(BETA1) ** 3, LD(BETA2) ** 3  # the beta powers after two earlier steps
        lr_t = LD(LR) * np.sqrt(1 - b2p) / (1 - b1p)
        m = LD(BETA1) * m + (1 - LD(BETA1)) * g
        v = LD(BETA2) * v + (1 - LD(BETA2)) * g * g
        step = LD(BETA1) * m + (1 - LD(BETA1)) * g if nesterov else m
        return [var - lr_t * step / (np.sqrt(v) + LD(EPS)), m, v]
    return ref


def _rmsprop_ref(var, ms, mom, g):
    ms = LD(RHO) * ms + (1 - LD(RHO)) * g * g
    mom = LD(MOMENTUM) * mom + LD(LR) * g / np.sqrt(ms + LD(EPS))
    return [var - mom, ms, mom]


def _centered_rmsprop_ref(var, mg, ms, mom, g):
    mg = LD(RHO) * mg + (1 - LD(RHO)) * g
    ms = LD(RHO) * ms + (1 - LD(RHO)) * g * g
    mom = LD(MOMENTUM) * mom + LD(LR) * g / np.sqrt(ms - mg * mg + LD(EPS))
    return [var - mom, mg, ms, mom]


def _adadelta_ref(var, accum, accum_update, g):
    accum = LD(RHO) * accum + (1 - LD(RHO)) * g * g
    update = np.sqrt(accum_update + LD(EPS)) / np.sqrt(accum + LD(EPS)) * g
    accum_update = LD(RHO) * accum_update + (1 - LD(RHO)) * update * update
    return [var - LD(LR) * update, accum, accum_update]


def _sgd_optimizer_fn(var0, g):
    v = _variable(var0)
    with _deps(v):
        step = tf.train.GradientDescentOptimizer(LR).apply_gradients([(g, v)])
    with tf.control_dependencies([] if step is None else [step]):
        return tf.identity(v.read_value())


TRAINING_ROWS = [
    _apply_row("ApplyGradientDescent", lambda v, g: training_ops.apply_gradient_descent(v, LR, g), _sgd_ref, 0),
    # The optimizer's learning rate is a float32 tensor cast to the variable's dtype (TF1's _prepare).
    Row("ApplyGradientDescent", _sgd_optimizer_fn, lambda var, g: hp(lambda a, b: a - LD(np.float32(LR)) * b)(var, g),
        lambda dt, rng: [rand(rng, (3, 4), dt), rand(rng, (3, 4), dt)], special=False, grad=False,
        name="ApplyGradientDescent-optimizer", rtol={np.float16: 1e-2}, atol={np.float16: 1e-2}),
    _apply_row("ApplyMomentum", lambda v, a, g: training_ops.apply_momentum(v, a, LR, g, MOMENTUM),
               _momentum_ref(False), 1),
    _apply_row("ApplyMomentum", lambda v, a, g: training_ops.apply_momentum(v, a, LR, g, MOMENTUM, use_nesterov=True),
               _momentum_ref(True), 1, name="ApplyMomentum-nesterov"),
    _apply_row("ApplyAdagrad", lambda v, a, g: training_ops.apply_adagrad(v, a, LR, g), _adagrad_ref, 1, (0,)),
    _apply_row("ApplyAdam", lambda v, m, s, g: training_ops.apply_adam(v, m, s, BETA1 ** 3, BETA2 ** 3, LR, BETA1,
                                                                       BETA2, EPS, g),
               _adam_ref(False), 2, (1,)),
    _apply_row("ApplyAdam", lambda v, m, s, g: training_ops.apply_adam(v, m, s, BETA1 ** 3, BETA2 ** 3, LR, BETA1,
                                                                       BETA2, EPS, g, use_nesterov=True),
               _adam_ref(True), 2, (1,), name="ApplyAdam-nesterov"),
    _apply_row("ApplyRMSProp", lambda v, ms, mom, g: training_ops.apply_rms_prop(v, ms, mom, LR, RHO, MOMENTUM, EPS, g),
               _rmsprop_ref, 2, (0,)),
    _apply_row("ApplyCenteredRMSProp",
               lambda v, mg, ms, mom, g: training_ops.apply_centered_rms_prop(v, mg, ms, mom, LR, RHO, MOMENTUM, EPS,
                                                                              g),
               _centered_rmsprop_ref, 3, (1,)),
    _apply_row("ApplyAdadelta", lambda v, a, u, g: training_ops.apply_adadelta(v, a, u, LR, RHO, EPS, g),
               _adadelta_ref, 2, (0, 1)),
]


# The FTRL and proximal updates (TF's training_ops.cc formulas), dense and on rows (SparseApply*).
L1, L2, SHRINK = 0.05, 0.1, 0.02


def _ftrl_ref(lr_power, shrinkage=None):
    def ref(var, accum, linear, g):
        new_accum = accum + g * g
        g_lin = g if shrinkage is None else g + 2 * LD(shrinkage) * var
        p = -LD(lr_power)
        linear = linear + g_lin - (new_accum ** p - accum ** p) / LD(LR) * var
        with np.errstate(invalid="ignore", divide="ignore"):
            pre = (np.sign(linear) * LD(L1) - linear) / (new_accum ** p / LD(LR) + 2 * LD(L2))
        return [np.where(np.abs(linear) > LD(L1), pre, 0), new_accum, linear]
    return ref


def _proximal(prox, lr_t, l1, l2):
    if l1 > 0:
        return np.sign(prox) * np.maximum(np.abs(prox) - lr_t * LD(l1), 0) / (1 + LD(l2) * lr_t)
    return prox / (1 + LD(l2) * lr_t)


def _proximal_gd_ref(l1, l2):
    def ref(var, g):
        return [_proximal(var - LD(LR) * g, LD(LR), l1, l2)]
    return ref


def _proximal_adagrad_ref(var, accum, g):
    accum = accum + g * g
    lr_t = LD(LR) / np.sqrt(accum)
    return [_proximal(var - lr_t * g, lr_t, L1, L2), accum]


def _sparse_apply_row(op_type, apply, dense_ref, n_slots, positive_slots=(), indices=(2, 0, 3), name=None):
    """A row running one `training_ops.sparse_apply_*` step on the rows `indices` of variables of shape
    (4, 3) initialized from the inputs (var, slots..., grad rows); outputs the op's result and every
    variable read after it. The reference applies `dense_ref` to each named row in turn."""
    def fn(*arrays):
        *state, grad = arrays
        variables = [_variable(a) for a in state]
        with _deps(*variables):
            out = apply(*variables, grad, tf.constant(list(indices)))
        with tf.control_dependencies([out]):
            return [tf.identity(out)] + [tf.identity(v.read_value()) for v in variables]

    def inputs(dt, rng):
        arrays = [rand(rng, (4, 3), dt)]
        for k in range(n_slots):
            arrays.append(rand(rng, (4, 3), dt, 0.1, 1.0) if k in positive_slots else rand(rng, (4, 3), dt))
        arrays.append(rand(rng, (len(indices), 3), dt))
        return arrays

    def reference(*arrays):
        dt = arrays[0].dtype
        *state, grad = [a.astype(LD) for a in arrays]
        for i, index in enumerate(indices):
            rows = dense_ref(*[s[index] for s in state], grad[i])
            for s, r in zip(state, rows):
                s[index] = r
        return [state[0].astype(dt)] + [s.astype(dt) for s in state]

    tol = dict(rtol={np.float16: 1e-2, np.float32: 1e-5}, atol={np.float16: 1e-2, np.float32: 1e-5})
    return Row(op_type, fn, reference, inputs, special=False, grad=False, name=name, **tol)


TRAINING_ROWS += [
    _apply_row("ApplyFtrl", lambda v, a, z, g: training_ops.apply_ftrl(v, a, z, g, LR, L1, L2, -0.5),
               _ftrl_ref(-0.5), 2, (0,)),
    _apply_row("ApplyFtrl", lambda v, a, z, g: training_ops.apply_ftrl(v, a, z, g, LR, L1, L2, -0.3),
               _ftrl_ref(-0.3), 2, (0,), name="ApplyFtrl-lr_power"),
    _apply_row("ApplyFtrlV2", lambda v, a, z, g: training_ops.apply_ftrl_v2(v, a, z, g, LR, L1, L2, SHRINK, -0.5),
               _ftrl_ref(-0.5, SHRINK), 2, (0,)),
    _apply_row("ApplyProximalGradientDescent",
               lambda v, g: training_ops.apply_proximal_gradient_descent(v, LR, L1, L2, g), _proximal_gd_ref(L1, L2),
               0),
    _apply_row("ApplyProximalGradientDescent",
               lambda v, g: training_ops.apply_proximal_gradient_descent(v, LR, 0.0, L2, g), _proximal_gd_ref(0.0, L2),
               0, name="ApplyProximalGradientDescent-no_l1"),
    _apply_row("ApplyProximalAdagrad", lambda v, a, g: training_ops.apply_proximal_adagrad(v, a, LR, L1, L2, g),
               _proximal_adagrad_ref, 1, (0,)),
    _sparse_apply_row("SparseApplyFtrl",
                      lambda v, a, z, g, i: training_ops.sparse_apply_ftrl(v, a, z, g, i, LR, L1, L2, -0.5),
                      _ftrl_ref(-0.5), 2, (0,)),
    # A repeated index is updated once per occurrence, in order (TF's kernel loop).
    _sparse_apply_row("SparseApplyFtrl",
                      lambda v, a, z, g, i: training_ops.sparse_apply_ftrl(v, a, z, g, i, LR, L1, L2, -0.5),
                      _ftrl_ref(-0.5), 2, (0,), indices=(1, 3, 1), name="SparseApplyFtrl-repeated"),
    _sparse_apply_row("SparseApplyFtrlV2",
                      lambda v, a, z, g, i: training_ops.sparse_apply_ftrl_v2(v, a, z, g, i, LR, L1, L2, SHRINK, -0.5),
                      _ftrl_ref(-0.5, SHRINK), 2, (0,)),
    _sparse_apply_row("SparseApplyProximalGradientDescent",
                      lambda v, g, i: training_ops.sparse_apply_proximal_gradient_descent(v, LR, L1, L2, g, i),
                      _proximal_gd_ref(L1, L2), 0),
    _sparse_apply_row("SparseApplyProximalAdagrad",
                      lambda v, a, g, i: training_ops.sparse_apply_proximal_adagrad(v, a, LR, L1, L2, g, i),
                      _proximal_adagrad_ref, 1, (0,)),
]


# ---- data: iterator ops ----------------------------------------------------------------------------------------
def _initializable(ds):
    it = tf.data.make_initializable_iterator(ds)
    return it, tf.control_dependencies([it.initializer])


def _one_shot(x):
    it = tf.data.Dataset.range(10).skip(2).map(lambda t: tf.cast(t, x.dtype)).batch(2, drop_remainder=True)
    it = it.make_one_shot_iterator()
    first = it.get_next()
    with tf.control_dependencies([first]):
        return [first, it.get_next()]


def _iterator_v2(x):
    it, deps = _initializable(tf.data.Dataset.from_tensor_slices(x))
    with deps:
        return it.get_next()


def _make_iterator(x):
    it, deps = _initializable(tf.data.Dataset.from_tensor_slices(x).map(lambda t: t * 2))
    with deps:
        return [it.get_next(), it.get_next()]


def _get_next_batches(x):
    it, deps = _initializable(tf.data.Dataset.from_tensor_slices(x).batch(2))
    with deps:
        first = it.get_next()
    with tf.control_dependencies([first]):
        return [first, it.get_next()]


def _string_handle(x):
    it, deps = _initializable(tf.data.Dataset.from_tensor_slices(x).skip(1))
    with deps:
        handle = it.string_handle()
    other = tf.data.Iterator.from_string_handle(handle, it.output_types, it.output_shapes)
    return other.get_next()


ITERATOR_NOTE = "TF1 graph iterators (make_initializable_iterator, string handles) do not exist eagerly"
ITERATOR_ROWS = [
    # A one-shot iterator cannot capture a placeholder (TF1): a constant dataset of the input's dtype.
    Row("OneShotIterator", _one_shot, lambda x: [np.array([2, 3], x.dtype), np.array([4, 5], x.dtype)],
        lambda dt, rng: [np.zeros((), dt)], dtypes=FLOATS + INTS, special=False, grad=False,
        eager=False, note="TF1's one-shot iterator is a graph construct"),
    Row("IteratorV2", _iterator_v2, lambda x: x[0].copy(), lambda dt, rng: [rand(rng, (3, 2), dt)],
        dtypes=FLOATS + INTS, special=False, grad=False, eager=False, note=ITERATOR_NOTE),
    # Two get_next in one run: each reads one element (which is which is unordered): their sum.
    Row("MakeIterator", lambda x: tf.add_n(_make_iterator(x)), lambda x: ((x[0] + x[1]) * 2).astype(x.dtype),
        lambda dt, rng: [rand(rng, (3, 2), dt, -4, 4).round()], dtypes=(np.float32, np.int64), special=False,
        grad=False, eager=False, note=ITERATOR_NOTE),
    Row("IteratorGetNext", _get_next_batches, lambda x: [x[:2].copy(), x[2:4].copy()],
        lambda dt, rng: [rand(rng, (5, 2), dt)], dtypes=FLOATS, special=False, grad=False, eager=False,
        static_known=False, note=ITERATOR_NOTE + "; a batch's size is unknown statically"),
    Row("IteratorToStringHandle", _string_handle, lambda x: x[1].copy(), lambda dt, rng: [rand(rng, (3, 2), dt)],
        dtypes=(np.float32,), special=False, grad=False, eager=False, note=ITERATOR_NOTE),
    Row("IteratorFromStringHandleV2", _string_handle, lambda x: x[1].copy(), lambda dt, rng: [rand(rng, (3, 2), dt)],
        dtypes=(np.int32, np.float64), special=False, grad=False, eager=False, note=ITERATOR_NOTE),
    Row("DatasetToSingleElement",
        lambda x: tf.data.experimental.get_single_element(tf.data.Dataset.from_tensors(x).map(lambda t: t + 1)),
        lambda x: (x + 1).astype(x.dtype), lambda dt, rng: [rand(rng, (3, 2), dt)], dtypes=FLOATS + INTS,
        grad=False, special=lambda dt: [[np.zeros((0, 2), dt)]]),
]


ROWS = INIT_ROWS + NUMERICS_ROWS + RANDOM_ROWS + STATE_ROWS + CONTROL_FLOW_ROWS + TENSOR_ARRAY_ROWS + SUMMARY_ROWS + \
    PARSING_ROWS + IO_ROWS + SCRIPT_ROWS + LOGGING_ROWS + TRAINING_ROWS + ITERATOR_ROWS
