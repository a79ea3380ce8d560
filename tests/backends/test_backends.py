"""The backend registry, the CuPy backend's import path, and every accelerator kernel run on the
strict fake device (tests/backends/fake_device.py) against the CPU."""

import sys

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import backends
from tensorweave.backends import cupy_backend, kernels
from tensorweave.framework import ops as tf_ops
from tensorweave.framework import registry
from tests.backends.fake_device import FakeArray, FakeBackend, FakeXP, use_backend


# ---- the registry ----------------------------------------------------------------------------------
def test_default_backends():
    assert backends.registered_device_types()[0] == "CPU"
    assert isinstance(backends.get_backend("CPU"), backends.NumpyBackend)
    assert isinstance(backends.get_backend("GPU"), cupy_backend.CupyBackend)
    assert backends.get_backend("TPU") is None
    cpu = backends.get_backend("CPU")
    assert cpu.xp(0) is np and cpu.is_host and cpu.device_count() == 1
    a = np.arange(3)
    assert cpu.to_device(a, 0) is a and cpu.to_host(a) is a


def test_register_replace_and_unregister():
    fake = FakeBackend("FAKE", 1)
    assert backends.register_backend(fake) is None
    try:
        assert backends.get_backend("FAKE") is fake
        assert "FAKE" in backends.registered_device_types()
        with pytest.raises(KeyError, match="already registered"):
            backends.register_backend(FakeBackend("FAKE", 1))
        other = FakeBackend("FAKE", 3)
        assert backends.register_backend(other, replace=True) is fake
    finally:
        assert backends.unregister_backend("FAKE") is not None
    assert backends.get_backend("FAKE") is None
    assert backends.unregister_backend("FAKE") is None


def test_register_rejects_non_backends_and_cpu_unregister():
    with pytest.raises(TypeError, match="needs a Backend with a device_type"):
        backends.register_backend(object())
    with pytest.raises(TypeError, match="needs a Backend with a device_type"):
        backends.register_backend(backends.ArrayBackend())
    with pytest.raises(ValueError, match="CPU backend cannot be unregistered"):
        backends.unregister_backend("CPU")


# ---- CuPy missing ----------------------------------------------------------------------------------
def test_cupy_missing_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    with pytest.raises(ImportError, match=r"pip install tensorweave\[gpu\]"):
        cupy_backend.load_cupy()
    b = cupy_backend.CupyBackend()
    assert b.device_count() == 0
    assert "pip install tensorweave[gpu]" in b.missing_reason()


def test_gpu_placement_without_cupy_is_an_import_error_too(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    with use_backend(cupy_backend.CupyBackend()):
        with tf.device("/gpu:0"):
            c = tf.constant(1.0) + 1.0
        with tf.Session() as sess:
            with pytest.raises(ImportError, match=r"pip install tensorweave\[gpu\]") as info:
                sess.run(c)
    assert isinstance(info.value, tf.errors.InvalidArgumentError)
    assert "was explicitly assigned to /device:GPU:0 but available devices are" in str(info.value)


def test_cupy_installed_but_no_device_is_counted_as_none(monkeypatch):
    class _Runtime:
        @staticmethod
        def getDeviceCount():  # noqa: N802 (CUDA's name)
            raise RuntimeError("cudaErrorNoDevice: no CUDA-capable device is detected")

    class _Cuda:
        runtime = _Runtime

    class _FakeCupy:
        cuda = _Cuda

    monkeypatch.setitem(sys.modules, "cupy", _FakeCupy)
    b = cupy_backend.CupyBackend()
    assert b.device_count() == 0
    assert "found no CUDA device" in b.missing_reason()


def test_is_gpu_available_and_built_with_cuda_reflect_the_backend(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    with use_backend(cupy_backend.CupyBackend()):
        assert tf.test.is_gpu_available() is False
    monkeypatch.setattr(cupy_backend, "cupy_installed", lambda: False)
    assert tf.test.is_built_with_cuda() is False
    monkeypatch.setattr(cupy_backend, "cupy_installed", lambda: True)
    assert tf.test.is_built_with_cuda() is True
    with use_backend(FakeBackend("GPU", 1)):
        assert tf.test.is_gpu_available() is True
        assert tf.test.is_gpu_available(cuda_only=True) is False  # a fake device is not CUDA


# ---- the fake device is as strict as CuPy ------------------------------------------------------------
def test_fake_arrays_refuse_numpy():
    xp = FakeXP(0)
    a = xp.asarray(np.arange(3.0))
    assert isinstance(a, FakeArray) and isinstance(a + 1, FakeArray) and isinstance(np.exp(a), FakeArray)
    assert isinstance(a.sum(), FakeArray)  # a 0-d device array, not a NumPy scalar
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(a)
    with pytest.raises(TypeError, match="NumPy array mixed"):
        a + np.ones(3)
    with pytest.raises(TypeError, match="NumPy array mixed"):
        np.maximum(a, np.zeros((), a.dtype))
    with pytest.raises(TypeError, match="NumPy array mixed"):
        xp.where(a > 0, a, np.zeros(3))
    with pytest.raises(ValueError, match="different fake devices"):
        a + FakeXP(1).asarray(np.ones(3))
    assert float(np.maximum(a, a.dtype.type(1)).sum()) == 4.0


def test_accelerator_kernel_checks_dtypes():
    s = tf.placeholder(tf.string, [None])
    assert kernels.accelerator_kernel(tf.identity(s).op) is None  # strings stay on the host
    assert kernels.accelerator_kernel(tf.shape(s).op).on_host  # shapes of anything: host memory
    tf.random_uniform([2])
    rand = [op for op in tf.get_default_graph().get_operations() if op.type == "RandomUniform"]
    assert kernels.accelerator_kernel(rand[0]) is None  # stateful ops stay on the host
    k = kernels.accelerator_kernel(tf.reshape(tf.constant([1.0, 2.0]), [2, 1]).op)
    assert k.input_place(0, 2) == "device" and k.input_place(1, 2) == "host"
    k = registry.get_op_def("ConcatV2").gpu
    assert [k.input_place(i, 3) for i in range(3)] == ["device", "device", "host"]


# ---- every accelerator kernel, on the fake device, against the CPU ---------------------------------
# The built-in op types with an accelerator kernel, before any test declares custom ops.
_BUILTIN_ACCELERATOR_TYPES = set(kernels.accelerator_op_types())
_rng = np.random.RandomState(7)
_UNARY = ("Abs Acos Asin Asinh Atan Atanh Ceil Cos Cosh Exp Expm1 Floor IsFinite IsInf IsNan Log Log1p Neg "
          "Reciprocal Rint Round Rsqrt Sigmoid Sign Sin Sinh Sqrt Square Tan Tanh").split()
_BINARY = ("Add AddV2 Sub Mul RealDiv DivNoNan Maximum Minimum Pow Atan2 SquaredDifference Equal NotEqual Greater "
           "GreaterEqual Less LessEqual FloorDiv FloorMod TruncateDiv TruncateMod SqrtGrad RsqrtGrad "
           "ReciprocalGrad").split()


class _Case:
    """Placeholders (fed on the host) and their values for one graph."""

    def __init__(self):
        self.feed = {}

    def ph(self, value, shape=None):
        value = np.asarray(value)
        p = tf.placeholder(tf.as_dtype(value.dtype), value.shape if shape is None else shape)
        self.feed[p] = value
        return p


def _floats(*shape, lo=0.1, hi=0.9):
    return _rng.uniform(lo, hi, shape).astype(np.float32)


def _act_case(c, fn):
    x = c.ph(_rng.randn(3, 4).astype(np.float32))
    y = fn(x)
    return [y] + tf.gradients(tf.reduce_sum(y * y), x)


def _conv_case(c, padding, strides, dilations=1):
    x = c.ph(_rng.randn(2, 7, 6, 3).astype(np.float32), [None, 7, 6, 3])
    f = c.ph(_rng.randn(3, 2, 3, 4).astype(np.float32))
    y = tf.nn.conv2d(x, f, strides=strides, padding=padding, dilations=dilations)
    return [y] + tf.gradients(tf.reduce_sum(y * y), [x, f])


def _pool_case(c, pool, padding):
    x = c.ph(_rng.randn(2, 5, 6, 3).astype(np.float32), [None, 5, 6, 3])
    y = pool(x, ksize=[1, 3, 2, 1], strides=[1, 2, 2, 1], padding=padding)
    return [y] + tf.gradients(tf.reduce_sum(y * y), x)


def _xent_case(c):
    logits = c.ph(_rng.randn(4, 5).astype(np.float32))
    labels = c.ph(np.array([0, 4, 2, 2], np.int64))
    onehot = tf.one_hot(labels, 5)
    a = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    b = tf.nn.softmax_cross_entropy_with_logits_v2(labels=onehot, logits=logits)
    return [a, b, tf.nn.softmax(logits), tf.nn.log_softmax(logits)] + tf.gradients(
        tf.reduce_sum(a) + tf.reduce_sum(b * b), logits)


def _dyn(c, value):
    """A placeholder of unknown shape (so shape ops run instead of folding)."""
    value = np.asarray(value)
    return c.ph(value, [None] * value.ndim)


CASES = {
    "unary": lambda c: [tf_ops.apply_op(t, [c.ph(_floats(3, 4))]) for t in _UNARY] + [
        tf_ops.apply_op("Acosh", [c.ph(_floats(3) + 1.0)])],
    "binary": lambda c: [tf_ops.apply_op(t, [c.ph(_floats(3, 4)), c.ph(_floats(4))]) for t in _BINARY],
    "integer division": lambda c: [tf_ops.apply_op(t, [c.ph(np.array([7, -7, 5, -3], np.int32)),
                                                       c.ph(np.array([2, 2, -3, 3], np.int32))])
                                   for t in ("FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod")],
    "bitwise": lambda c: [tf_ops.apply_op(t, [c.ph(np.array([7, -7, 5, -3], np.int32)),
                                              c.ph(np.array([2, 40, -3, 3], np.int32))])
                          for t in ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift")] + [
        tf.bitwise.invert(c.ph(np.array([7, -7], np.int16)))],
    "logical": lambda c: [tf.logical_and(c.ph([True, False, True]), c.ph([True, True, False])),
                          tf.logical_or(c.ph([True, False, False]), c.ph([False, False, True])),
                          tf.logical_not(c.ph([True, False]))],
    "complex": lambda c: [tf.conj(c.ph(np.array([1 + 2j, 3 - 1j], np.complex64))),
                          tf.abs(c.ph(np.array([3 + 4j], np.complex64)))],
    "cast and n-ary": lambda c: [tf.cast(c.ph(_floats(3) * 10), tf.int32),
                                 tf.add_n([c.ph(_floats(2, 2)), c.ph(_floats(2, 2)), c.ph(_floats(2, 2))])],
    "matmul": lambda c: [tf.matmul(c.ph(_floats(3, 4)), c.ph(_floats(5, 4)), transpose_b=True),
                         tf.matmul(c.ph(_floats(2, 4, 3)), c.ph(_floats(2, 4, 5)), adjoint_a=True),
                         tf.nn.l2_loss(c.ph(_floats(3, 2)))],
    "bias add": lambda c: (lambda x, b: [tf.nn.bias_add(x, b)] + tf.gradients(
        tf.reduce_sum(tf.nn.bias_add(x, b) ** 2), b))(c.ph(_floats(2, 3, 4)), c.ph(_floats(4))),
    "broadcast gradients": lambda c: (lambda a, b: tf.gradients(tf.reduce_sum((a * b) ** 2), [a, b]))(
        c.ph(_floats(3, 4)), c.ph(_floats(1, 4))),
    "reductions": lambda c: (lambda x, i: [
        tf.reduce_sum(x, 1), tf.reduce_mean(x, 0, keepdims=True), tf.reduce_prod(x, [0, 1]), tf.reduce_max(x, 1),
        tf.reduce_min(x), tf.argmax(x, 1), tf.argmin(x, 0, output_type=tf.int32), tf.reduce_all(x > 0.5, 1),
        tf.reduce_any(x > 0.5, 0), tf.reduce_mean(i, 0), tf.reduce_max(tf.zeros([0, 3]), 0),
        tf.reduce_sum(tf.cast(x, tf.float16), 1)] + tf.gradients(tf.reduce_mean(x * x), x))(
        c.ph(_floats(3, 4)), c.ph(np.array([[3, -4], [4, 1]], np.int32))),
    "shapes": lambda c: (lambda x, u: [
        tf.shape(x), tf.size(x), tf.rank(u), tf.zeros_like(x), tf.ones_like(x), tf.fill(tf.shape(x), 2.5),
        tf.range(tf.size(x)), tf.broadcast_dynamic_shape(tf.shape(x), tf.constant([1, 3])),
        tf.reshape(x, [3, -1]), tf.expand_dims(x, 1), tf.squeeze(tf.expand_dims(x, 0)),
        tf.broadcast_to(tf.reshape(x, [1, -1]), [2, 6]), tf.tile(x, [2, 1])])(
        _dyn(c, _floats(2, 3)), c.ph(_floats(2, 2), tf.TensorShape(None))),
    "permutations": lambda c: (lambda x, p: [tf.transpose(x, [1, 0, 2])] + tf.gradients(
        tf.reduce_sum(tf.transpose(x, p) ** 2), x))(c.ph(_floats(2, 3, 4)), c.ph(np.array([2, 0, 1], np.int32))),
    "concat and split": lambda c: (lambda a, b: [tf.concat([a, b], 0), tf.stack([a, a], 1),
                                                 *tf.unstack(a, num=4, axis=1), *tf.split(a, 2, 1)] + tf.gradients(
        tf.reduce_sum(tf.concat([a, b], 0) ** 2), [a, b]))(_dyn(c, _floats(2, 4)), _dyn(c, _floats(3, 4))),
    "slicing": lambda c: (lambda x: [x[1:, ::2], tf.slice(x, [0, 1], [2, 2]), tf.pad(x, [[1, 0], [0, 2]]),
                                     tf.gather(x, c.ph(np.array([2, 0], np.int32)), axis=1)] + tf.gradients(
        tf.reduce_sum(x[1:, ::2] ** 2) + tf.reduce_sum(tf.slice(x, [0, 1], [2, 2]) ** 3), x))(c.ph(_floats(3, 4))),
    "select and one_hot": lambda c: (lambda x, y: [tf.where(x > 0.5, x, y), tf.where_v2(x > 0.5, x, 0.0),
                                                   tf.one_hot(c.ph(np.array([1, 0, 3], np.int32)), 4, 2.0, -1.0),
                                                   *tf.identity_n([x, y])])(c.ph(_floats(3)), c.ph(_floats(3))),
    "relu": lambda c: _act_case(c, tf.nn.relu),
    "relu6": lambda c: _act_case(c, lambda x: tf.nn.relu6(x * 8)),
    "elu": lambda c: _act_case(c, tf.nn.elu),
    "selu": lambda c: _act_case(c, tf.nn.selu),
    "softplus": lambda c: _act_case(c, tf.nn.softplus),
    "softsign": lambda c: _act_case(c, tf.nn.softsign),
    "leaky_relu": lambda c: _act_case(c, lambda x: tf.nn.leaky_relu(x, 0.3)),
    "cross entropy": _xent_case,
    "conv same": lambda c: _conv_case(c, "SAME", [1, 2, 2, 1]),
    "conv valid dilated": lambda c: _conv_case(c, "VALID", [1, 1, 1, 1], dilations=[1, 2, 1, 1]),
    "max pool": lambda c: _pool_case(c, tf.nn.max_pool, "SAME"),
    "avg pool": lambda c: _pool_case(c, tf.nn.avg_pool, "SAME"),
    "avg pool valid": lambda c: _pool_case(c, tf.nn.avg_pool, "VALID"),
}
# tensorweave/ops/math_sort_ops.py, math_special_ops.py
CASES["roll, searchsorted, xlogy"] = lambda c: (lambda x, y: [
    tf.roll(x, c.ph(np.array([1, -1], np.int32)), c.ph(np.array([0, 1], np.int32))),
    tf.searchsorted(c.ph(np.sort(_floats(3, 5), -1)), y), tf.searchsorted(c.ph(np.sort(_floats(3, 5), -1)), y,
                                                                            side="right"),
    tf.math.xlogy(x, y), tf.math.xdivy(x, y), tf.math.xlog1py(x, y)] + tf.gradients(
    tf.reduce_sum(tf.roll(x, 1, 1) * tf.math.xlogy(x, y)), [x, y]) + [
    tf.math.nextafter(x, y), tf.math.reduce_euclidean_norm(x, 1), tf.math.multiply_no_nan(x, y)] + tf.gradients(
    tf.reduce_sum(tf.math.reduce_euclidean_norm(x, 1, keepdims=True)), x))(c.ph(_floats(3, 4)),
                                                                             c.ph(_floats(3, 4)))

CASES["spectral"] = lambda c: (lambda z, x: [
    f(z) for f in (tf.signal.fft, tf.signal.ifft, tf.signal.fft2d, tf.signal.ifft2d, tf.signal.fft3d, tf.signal.ifft3d)
] + [tf.signal.rfft(x), tf.signal.rfft2d(x), tf.signal.rfft3d(x), tf.signal.irfft(tf.signal.rfft(x), [4]),
     tf.signal.irfft2d(tf.signal.rfft2d(x), [3, 4]), tf.signal.irfft3d(tf.signal.rfft3d(x), [2, 3, 4]),
     tf.signal.fftnd(z, axes=[1, 3]), tf.signal.ifftnd(z, axes=[2, 3]), tf.signal.rfftnd(x, axes=[2, 3]),
     tf.signal.irfftnd(tf.signal.rfftnd(x, axes=[2, 3]), fft_length=[3, 4], axes=[2, 3])])(
    c.ph((_floats(2, 2, 3, 4) + 1j * _floats(2, 2, 3, 4)).astype(np.complex64)), c.ph(_floats(2, 2, 3, 4)))

# tensorweave/ops/array_space_ops.py, array_misc_ops.py, nn_lrn_ops.py, linalg_complex_ops.py
CASES["space/depth, lrn, complex parts"] = lambda c: (lambda x, z: [
    tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]), tf.depth_to_space(tf.space_to_depth(x, 2), 2),
    tf.batch_to_space_nd(tf.space_to_batch_nd(x, [2, 1], [[0, 0], [1, 1]]), [2, 1], [[0, 0], [1, 1]]),
    tf.ensure_shape(x, [None, 4, 4, 3]), tf.guarantee_const(x), tf.parallel_stack([x, x]), tf.nn.lrn(x),
    tf.real(z), tf.imag(z), tf.angle(z)] + tf.gradients(tf.reduce_sum(tf.nn.lrn(x) ** 2), x))(
    c.ph(_floats(2, 4, 4, 3)), c.ph((_floats(3) + 1j * _floats(3)).astype(np.complex64)))


def _run_case(build, fake):
    g = tf.Graph()
    with g.as_default():
        case = _Case()
        with tf.device("/gpu:0"):
            fetches = build(case)
        # The CPU reference: the same graph with no GPU, softly placed.
        cpu_config = tf.ConfigProto(allow_soft_placement=True, device_count={"GPU": 0})
        with tf.Session(graph=g, config=cpu_config) as sess:
            want = sess.run(fetches, case.feed)
            assert all(e.placement is None for e in sess._cache.values())
        with tf.Session(graph=g) as sess:  # no soft placement: every op must have a device kernel
            got = sess.run(fetches, case.feed)
            placed = {op.type for e in sess._cache.values() for op, d in e.placement.assigned.items()
                      if d.device_type == "GPU"}
    for w, v in zip(want, got):
        assert type(v) is type(w)  # NumPy arrays and scalars, as on the CPU
        np.testing.assert_allclose(v, w, rtol=1e-6, atol=1e-7)
    return placed


@pytest.mark.parametrize("name", sorted(CASES))
def test_kernel_on_fake_device_matches_cpu(name):
    with use_backend(FakeBackend("GPU", 1)) as fake:
        _run_case(CASES[name], fake)
        assert fake.transfers and ("d2h", 0) in fake.transfers


def test_every_accelerator_kernel_is_exercised():
    placed = set()
    with use_backend(FakeBackend("GPU", 1)) as fake:
        for build in CASES.values():
            placed |= _run_case(build, fake)
    # Placed but never run as kernels: constants fold, identities alias, NoOp does nothing.
    not_run = {"Const", "Identity", "StopGradient", "Snapshot", "PlaceholderWithDefault", "NoOp"}
    not_run |= {t for t in _BUILTIN_ACCELERATOR_TYPES if registry.get_op_def(t).alias_of is not None}
    assert _BUILTIN_ACCELERATOR_TYPES - placed - not_run == set()


def test_fake_device_kernel_errors_keep_tf_messages():
    with use_backend(FakeBackend("GPU", 1)):
        with tf.device("/gpu:0"):
            x = tf.placeholder(tf.float32, [2, 3])
            labels = tf.placeholder(tf.int64, [2])
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x)
            packed = tf.stack([tf.placeholder(tf.float32, [None]), tf.placeholder(tf.float32, [None])])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"Received a label value of 7 which is outside "
                               r"the valid range of \[0, 3\).  Label values: 1 7"):
                sess.run(loss, {x: np.zeros((2, 3)), labels: [1, 7]})
            p0, p1 = packed.op.inputs
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shapes of all inputs must match: "
                               r"values\[0\].shape = \[2\] != values\[1\].shape = \[3\]"):
                sess.run(packed, {p0: [1, 2], p1: [1, 2, 3]})
