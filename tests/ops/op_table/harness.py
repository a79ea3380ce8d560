"""The op table: one `Row` per op type (or several), and the generic checks run on every row.

A row module (`tests/ops/op_table/rows_*.py`) defines `ROWS = [Row(...), ...]`;
tests/ops/test_op_table.py collects them, runs the checks below as separate parametrized cases, and
gates coverage: every registered op type needs a row or an entry in `exemptions.EXEMPT`.

    Row(op_type, fn, ref, inputs, *, dtypes=FLOATS, special=True, grad=True, eager=True,
        rtol=None, atol=None, unknown_dims=True, unknown_rank=True, static_known=True,
        signed_zeros=True, grad_inputs=None, grad_fn=None, grad_tol=1e-5, grad_delta=1e-6,
        gpu=None, name=None, note="")

- `fn(*tensors)` builds the op with the public API (constant attributes such as an axis live in the
  closure; every array `inputs` returns is fed through a placeholder). It returns a tensor or a
  list of tensors; the graph it builds must contain an op of type `op_type` (checked).
- `ref(*arrays)` is an INDEPENDENT reference (NumPy/SciPy/pure Python, computed in high precision
  where rounding matters; never a copy of the kernel). It returns an array or a list, with exactly
  the dtype the op must return (checked): `hp(f)` wraps `f` to compute in long double and cast to
  the first input's dtype. Reference warnings (invalid/overflow) are silenced.
- `inputs(dtype, rng)` returns the input arrays (a tuple/list) for one dtype of `dtypes`
  (NumPy dtypes); `rng` is a `np.random.RandomState` seeded by the row name and dtype.
  `rand(rng, shape, dtype, lo, hi)` makes random arrays of any dtype.
- `special`: the special-value cases, run for every dtype in `dtypes`:
  * a callable `special(dtype)` returning a list of input tuples (NaN, +-inf, -0.0, shapes with a
    0 dimension, ... where meaningful for the op; return [] for a dtype without such cases);
  * True: the default for element-wise ops: every input is a 1-D array and the inputs together
    run through the cartesian product of `special_values(dtype)` (NaN, +-inf, +-0.0, ... for
    floats; 0, +-1, min, max for ints; both bools; nothing for complex), plus every input empty
    (shape (0,));
  * False: none.
  Zeros of float results must have the reference's sign unless `signed_zeros=False`.
- `grad`: True: the float64 numerical gradient check (op_harness.check_gradient) of every float
  output w.r.t. every float input of `grad_inputs(rng)` (default: `inputs(np.float64, rng)`);
  a list of input indices: those inputs only; False: the op is not differentiable, and
  `tf.gradients` of each output w.r.t. every input must be None (inputs of the first dtype of
  `dtypes`, float64 if listed); None: not checked here (needs a `note` naming where it is).
  `grad_fn` (default `fn`) builds the graph differentiated: op_harness.check_gradient needs a fully
  known static output shape, so rows whose output shape is only known at run time wrap `fn`'s
  output in a static `tf.reshape`.
- `eager`: compare the op run eagerly (`context.eager_mode()`, on constants) with the graph values,
  bit for bit, on the regular and special inputs of every dtype, on a first call and on a second
  one that takes the direct dispatch path (cached inference). False only with a `note`.
- `rtol`/`atol`: numbers, or dicts {dtype: number}; missing ones default per dtype (`TOL`).
- Static shapes: the forward check feeds placeholders of known shape: the static shape must equal
  the runtime one and, if `static_known`, be fully known. The `shapes` check also feeds
  placeholders with every dimension unknown (if `unknown_dims`) and of unknown rank (if
  `unknown_rank`): static shapes must be compatible with the runtime ones; static dtypes must
  always equal the runtime ones; values are compared with the reference there too.
- `gpu`: None: run the GPU check iff `has_gpu_kernel(op_type)`; False: skip it (give a `note`);
  True: require it. The GPU check runs `fn` under `tf.device("/gpu:0")` on the strict fake
  accelerator (tests/backends/fake_device.py), with no soft placement, on every dtype the device
  supports, and compares with the CPU; the op must be placed on the GPU.
- `name`: the test id prefix (default `op_type`); unique across the table. Several rows may test
  one op type (other attributes, other modes), named e.g. "Sum-keepdims".

Test ids: `<name>-<dtype>-forward`, `<name>-<dtype>-special`, `<name>-shapes`, `<name>-grad`,
`<name>-eager`, `<name>-gpu`. `cases(rows)` lists them as (id, row, check, dtype); `run_case` runs one.
"""

import itertools
import zlib

import numpy as np

import tensorweave as tf
from tensorweave.eager import context as _context
from tensorweave.framework import registry
from tests.backends.fake_device import FakeBackend, use_backend
from tests.ops import op_harness

__all__ = ["Row", "FLOATS", "INTS", "SIGNED_INTS", "UNSIGNED_INTS", "COMPLEX", "BOOL", "REALS", "NUMERIC", "TOL",
           "rand", "hp", "special_values", "has_gpu_kernel", "cases", "run_case"]

FLOATS = (np.float16, np.float32, np.float64)
SIGNED_INTS = (np.int8, np.int16, np.int32, np.int64)
UNSIGNED_INTS = (np.uint8, np.uint16)
INTS = (np.int32, np.int64)
COMPLEX = (np.complex64, np.complex128)
BOOL = (np.bool_,)
REALS = FLOATS + INTS
NUMERIC = FLOATS + INTS + COMPLEX

# Default (rtol, atol) per dtype name.
TOL = {"float16": (2e-3, 2e-3), "float32": (2e-6, 1e-6), "float64": (1e-12, 1e-13),
       "complex64": (2e-6, 1e-6), "complex128": (1e-12, 1e-13)}

# Op types run but not as kernels on a device (folded, aliased or empty): never "placed".
_NOT_RUN_ON_DEVICE = frozenset({"Const", "Identity", "StopGradient", "Snapshot", "PlaceholderWithDefault", "NoOp"})


def rand(rng, shape, dtype, lo=-2.0, hi=2.0):
    """Random values of `dtype` in [lo, hi) (ints: integers in that range; bools: random)."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.rand(*shape) < 0.5
    if dt.kind in "iu":
        lo = max(int(np.floor(lo)), np.iinfo(dt).min)
        return rng.randint(lo, max(int(np.ceil(hi)), lo + 1), size=shape).astype(dt)
    if dt.kind == "c":
        return (rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)).astype(dt)
    return rng.uniform(lo, hi, shape).astype(dt)


def hp(f):
    """`f` computed in long double (complex: clongdouble) precision, cast to the first input's dtype."""
    def ref(*arrays):
        arrays = [np.asarray(a) for a in arrays]
        out = arrays[0].dtype
        up = [a.astype(np.clongdouble if a.dtype.kind == "c" else np.longdouble) if a.dtype.kind in "fc" else a
              for a in arrays]
        return np.asarray(f(*up)).astype(out)
    return ref


def special_values(dtype):
    """The default special values of one dtype (see the module docstring)."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, 3.0], dt)
    if dt.kind == "b":
        return np.array([False, True])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return np.array(sorted({0, 1, info.min, info.max} | ({-1} if dt.kind == "i" else set())), dt)
    return np.zeros(0, dt)


def _device_kernels():
    """tensorweave.backends.kernels, or None once it is gone (its tables move onto the op records)."""
    try:
        from tensorweave.backends import kernels
    except ImportError:
        return None
    return kernels


def has_gpu_kernel(op_type):
    """Whether op type `op_type` has an accelerator kernel: the op record's `gpu` attribute where
    the registry has one, else `tensorweave.backends.kernels.ACCELERATOR_KERNELS`."""
    gpu = getattr(registry.get_op_def(op_type), "gpu", None)
    if gpu:
        return True
    return op_type in getattr(_device_kernels(), "ACCELERATOR_KERNELS", {})


# The dtypes an accelerator holds (strings, variants and resources stay on the host).
_DEVICE_DTYPE_NAMES = frozenset({"float16", "float32", "float64", "complex64", "complex128", "int8", "int16", "int32",
                                 "int64", "uint8", "uint16", "bool"})


def _dtname(dtype):
    return np.dtype(dtype).name


class Row:
    """One table row (see the module docstring)."""

    def __init__(self, op_type, fn, ref, inputs, *, dtypes=FLOATS, special=True, grad=True, eager=True, rtol=None,
                 atol=None, unknown_dims=True, unknown_rank=True, static_known=True, signed_zeros=True,
                 grad_inputs=None, grad_fn=None, grad_tol=1e-5, grad_delta=1e-6, gpu=None, name=None, note=""):
        self.op_type = op_type
        self.fn = fn
        self.ref = ref
        self.inputs = inputs
        self.dtypes = tuple(np.dtype(d) for d in dtypes)
        if not self.dtypes:
            raise ValueError("row %s has no dtypes" % op_type)
        self.special = special
        self.grad = grad
        self.eager = eager
        self.rtol = rtol
        self.atol = atol
        self.unknown_dims = unknown_dims
        self.unknown_rank = unknown_rank
        self.static_known = static_known
        self.signed_zeros = signed_zeros
        self.grad_inputs = grad_inputs
        self.grad_fn = grad_fn
        self.grad_tol = grad_tol
        self.grad_delta = grad_delta
        self.gpu = gpu
        self.name = name or op_type
        self.note = note
        if (eager is False or gpu is False or grad is None or not unknown_rank) and not note:
            raise ValueError("row %s turns a check off without a note saying why" % self.name)

    def __repr__(self):
        return "Row(%s)" % self.name

    # ---- inputs ----------------------------------------------------------------------------------
    def rng(self, tag):
        return np.random.RandomState(zlib.crc32(("%s-%s" % (self.name, tag)).encode()))

    def make_inputs(self, dtype):
        return [np.asarray(a) for a in self.inputs(np.dtype(dtype), self.rng(_dtname(dtype)))]

    def special_cases(self, dtype):
        """The special-value input tuples of one dtype."""
        dtype = np.dtype(dtype)
        if self.special is False or self.special is None:
            return []
        if callable(self.special):
            return [[np.asarray(a) for a in case] for case in self.special(dtype)]
        n = len(self.make_inputs(dtype))
        vals = special_values(dtype)
        out = []
        if vals.size:
            grid = list(itertools.product(range(vals.size), repeat=n))
            out.append([vals[np.array([g[i] for g in grid])] for i in range(n)])
        out.append([np.zeros(0, dtype) for _ in range(n)])
        return out

    def tol(self, dtype):
        name = _dtname(dtype)
        rtol, atol = TOL.get(name, (0.0, 0.0))
        if self.rtol is not None:
            rtol = self.rtol.get(np.dtype(dtype).type, self.rtol.get(name, rtol)) if isinstance(
                self.rtol, dict) else self.rtol
        if self.atol is not None:
            atol = self.atol.get(np.dtype(dtype).type, self.atol.get(name, atol)) if isinstance(
                self.atol, dict) else self.atol
        return rtol, atol

    def has_special(self, dtype):
        return bool(self.special_cases(dtype))

    def gpu_check(self):
        if self.gpu is None:
            return has_gpu_kernel(self.op_type)
        return bool(self.gpu)


# ---- running ---------------------------------------------------------------------------------------
def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _reference(row, arrays):
    with np.errstate(all="ignore"):
        return [np.asarray(e) for e in _as_list(row.ref(*[a.copy() for a in arrays]))]


class _Recorder:
    """Wraps a row's `fn`: records the op types it creates and its output tensors."""

    def __init__(self, fn):
        self.fn = fn
        self.types = set()
        self.outputs = None

    def __call__(self, *tensors):
        out = self.fn(*tensors)
        self.types = {op.type for op in tf.get_default_graph().get_operations()}
        self.outputs = _as_list(out)
        return out


def _compare(row, dtype, got, expected, what, signed=False):
    assert len(got) == len(expected), "%s: %d outputs, the reference has %d" % (what, len(got), len(expected))
    rtol, atol = row.tol(dtype)
    for i, (v, e) in enumerate(zip(got, expected)):
        v = np.asarray(v)
        assert v.dtype == e.dtype, "%s: output %d has dtype %s, the reference %s" % (what, i, v.dtype, e.dtype)
        assert v.shape == e.shape, "%s: output %d has shape %s, the reference %s" % (what, i, v.shape, e.shape)
        if v.dtype.kind in "fc":
            np.testing.assert_allclose(v, e, rtol=rtol, atol=atol, err_msg="%s: output %d" % (what, i))
            if signed and row.signed_zeros and v.dtype.kind == "f":
                zero = (e == 0) & (v == 0)
                np.testing.assert_array_equal(np.signbit(v[zero]), np.signbit(e[zero]),
                                              err_msg="%s: output %d: sign of zero" % (what, i))
        else:
            np.testing.assert_array_equal(v, e, err_msg="%s: output %d" % (what, i))


def _check_static(outs, vals, what, known):
    for i, (t, v) in enumerate(zip(outs, vals)):
        v = np.asarray(v)
        assert v.dtype == t.dtype.as_numpy_dtype, "%s: output %d: runtime dtype %s != static dtype %s" % (
            what, i, v.dtype, t.dtype.name)
        assert t.shape.is_compatible_with(v.shape), "%s: output %d: runtime shape %s, static shape %s" % (
            what, i, v.shape, t.shape)
        if known:
            assert t.shape.is_fully_defined(), "%s: output %d: static shape %s not fully known from known " \
                "input shapes" % (what, i, t.shape)
            assert tuple(t.shape.as_list()) == v.shape


def _forward(row, dtype, arrays, what, signed=False):
    """Known-shape placeholders: op_harness.check_forward plus the table's own checks."""
    rec = _Recorder(row.fn)
    expected = _reference(row, arrays)
    rtol, atol = row.tol(dtype)
    vals = op_harness.check_forward(rec, lambda *a: expected, *arrays, rtol=rtol, atol=atol, unknown_shapes=False)
    assert row.op_type in rec.types, "%s: fn built no %s op (built %s)" % (what, row.op_type, sorted(rec.types))
    _compare(row, dtype, vals, expected, what, signed)
    _check_static(rec.outputs, vals, what, row.static_known)
    return vals


def check_forward(row, dtype):
    _forward(row, dtype, row.make_inputs(dtype), "%s %s forward" % (row.name, _dtname(dtype)))


def check_special(row, dtype):
    cases = row.special_cases(dtype)
    assert cases, "no special cases"
    for k, arrays in enumerate(cases):
        _forward(row, dtype, arrays, "%s %s special case %d %s" % (row.name, _dtname(dtype), k, [
            a.shape for a in arrays]), signed=True)


def check_shapes(row, _dtype=None):
    variants = []
    if row.unknown_dims:
        variants.append(("unknown dims", lambda a: [None] * a.ndim))
    if row.unknown_rank:
        variants.append(("unknown rank", lambda a: None))
    assert variants, "row %s checks no unknown shapes: set unknown_dims or unknown_rank" % row.name
    for dtype in row.dtypes:
        arrays = row.make_inputs(dtype)
        expected = _reference(row, arrays)
        for label, shape_of in variants:
            what = "%s %s %s" % (row.name, _dtname(dtype), label)
            rec = _Recorder(row.fn)
            outs, vals = op_harness._run(rec, arrays, [shape_of(a) for a in arrays])
            assert row.op_type in rec.types, "%s: fn built no %s op" % (what, row.op_type)
            _check_static(outs, vals, what, False)
            _compare(row, dtype, vals, expected, what)


def _graph_values(row, arrays):
    _, vals = op_harness._run(row.fn, arrays, [a.shape for a in arrays])
    return [np.asarray(v) for v in vals]


def check_eager(row, _dtype=None):
    for dtype in row.dtypes:
        for k, arrays in enumerate([row.make_inputs(dtype)] + row.special_cases(dtype)):
            what = "%s %s eager case %d" % (row.name, _dtname(dtype), k)
            want = _graph_values(row, arrays)
            # Twice, each in a fresh eager context (random streams restart): the second call finds
            # the op's inference cached and takes eager.execute.run's direct path.
            for attempt in ("first", "cached"):
                with _context.eager_mode():
                    out = _as_list(row.fn(*[tf.constant(a) for a in arrays]))
                    got = [np.asarray(t.numpy()) for t in out]
                assert len(got) == len(want), what
                for i, (v, w) in enumerate(zip(got, want)):
                    assert v.dtype == w.dtype and v.shape == w.shape, "%s (%s call): output %d: eager %s%s, graph " \
                        "%s%s" % (what, attempt, i, v.dtype, v.shape, w.dtype, w.shape)
                    np.testing.assert_array_equal(v, w, err_msg="%s (%s call): output %d eager != graph" % (
                        what, attempt, i))


def check_grad(row, _dtype=None):
    if row.grad is False:
        dt = np.dtype(np.float64) if np.dtype(np.float64) in row.dtypes else row.dtypes[0]
        arrays = row.make_inputs(dt)
        g = tf.Graph()
        with g.as_default():
            phs = [tf.placeholder(tf.as_dtype(a.dtype), a.shape) for a in arrays]
            rec = _Recorder(row.fn)
            outs = _as_list(rec(*phs))
            assert row.op_type in rec.types
            for i, y in enumerate(outs):
                grads = tf.gradients(y, phs)
                assert all(gr is None for gr in grads), "%s output %d: gradients %s, expected None" % (
                    row.name, i, grads)
        return
    rng = row.rng("grad")
    arrays = [np.asarray(a) for a in (row.grad_inputs(rng) if row.grad_inputs else row.inputs(np.dtype(np.float64),
                                                                                            rng))]
    floats = [i for i, a in enumerate(arrays) if a.dtype == np.float64]
    wrt = floats if row.grad is True else list(row.grad)
    assert wrt, "row %s checks gradients but has no float64 input" % row.name
    assert all(arrays[i].dtype == np.float64 for i in wrt), "gradient inputs must be float64"
    fn = row.grad_fn or row.fn
    g = tf.Graph()
    with g.as_default():
        rec = _Recorder(fn)
        outs = _as_list(rec(*[tf.placeholder(tf.as_dtype(a.dtype), a.shape) for a in arrays]))
        assert row.op_type in rec.types, "%s: fn built no %s op" % (row.name, row.op_type)
    float_outs = [i for i, t in enumerate(outs) if t.dtype.is_floating]
    assert float_outs, "row %s checks gradients but has no float output" % row.name
    for k in float_outs:
        op_harness.check_gradient(lambda *t, k=k: _as_list(fn(*t))[k], *arrays, wrt=wrt, tol=row.grad_tol,
                                  delta=row.grad_delta)


def _device_dtypes(row):
    table = getattr(_device_kernels(), "DEVICE_DTYPES", None)
    names = {d.name for d in table} if table else _DEVICE_DTYPE_NAMES
    return [d for d in row.dtypes if tf.as_dtype(d).name in names]


def check_gpu(row, _dtype=None):
    assert has_gpu_kernel(row.op_type), "%s has no accelerator kernel" % row.op_type
    dts = _device_dtypes(row)
    assert dts, "row %s has no dtype an accelerator supports" % row.name
    for dtype in dts:
        for k, arrays in enumerate([row.make_inputs(dtype)] + row.special_cases(dtype)):
            what = "%s %s gpu case %d" % (row.name, _dtname(dtype), k)
            with use_backend(FakeBackend("GPU", 1)):
                g = tf.Graph()
                with g.as_default():
                    phs = [tf.placeholder(tf.as_dtype(a.dtype), a.shape) for a in arrays]
                    with tf.device("/gpu:0"):
                        outs = _as_list(row.fn(*phs))
                    feed = dict(zip(phs, arrays))
                    cpu = tf.ConfigProto(allow_soft_placement=True, device_count={"GPU": 0})
                    with tf.Session(graph=g, config=cpu) as sess:
                        want = sess.run(outs, feed)
                    with tf.Session(graph=g) as sess:
                        got = sess.run(outs, feed)
                        placed = {op.type for e in sess._cache.values() if e.placement is not None
                                  for op, d in e.placement.assigned.items() if d.device_type == "GPU"}
            if row.op_type not in _NOT_RUN_ON_DEVICE:
                assert row.op_type in placed, "%s: %s not placed on the GPU (placed: %s)" % (
                    what, row.op_type, sorted(placed))
            rtol, atol = row.tol(dtype)
            for i, (v, w) in enumerate(zip(got, want)):
                assert type(v) is type(w), "%s: output %d is a %s on the GPU, a %s on the CPU" % (
                    what, i, type(v).__name__, type(w).__name__)
                v, w = np.asarray(v), np.asarray(w)
                assert v.dtype == w.dtype and v.shape == w.shape, what
                if v.dtype.kind in "fc":
                    np.testing.assert_allclose(v, w, rtol=rtol, atol=atol, err_msg="%s: output %d" % (what, i))
                else:
                    np.testing.assert_array_equal(v, w, err_msg="%s: output %d" % (what, i))


CHECKS = {"forward": check_forward, "special": check_special, "shapes": check_shapes, "grad": check_grad,
          "eager": check_eager, "gpu": check_gpu}


def cases(rows):
    """(id, row, check name, dtype or None) for every check of every row."""
    out = []
    for row in rows:
        for dt in row.dtypes:
            out.append(("%s-%s-forward" % (row.name, dt.name), row, "forward", dt))
        for dt in row.dtypes:
            if row.has_special(dt):
                out.append(("%s-%s-special" % (row.name, dt.name), row, "special", dt))
        if row.unknown_dims or row.unknown_rank:
            out.append(("%s-shapes" % row.name, row, "shapes", None))
        if row.grad is not None:
            out.append(("%s-grad" % row.name, row, "grad", None))
        if row.eager:
            out.append(("%s-eager" % row.name, row, "eager", None))
        if row.gpu_check():
            out.append(("%s-gpu" % row.name, row, "gpu", None))
    return out


def run_case(row, check, dtype):
    CHECKS[check](row, dtype)
