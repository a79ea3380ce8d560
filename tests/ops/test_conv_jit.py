"""The numba max-pool and convolution-epilogue loops against the NumPy kernels (bitwise, incl. ties,
NaN, inf and -0 gradients, padding, gaps between windows), TF's zero-fill of MaxPoolGrad, and the
switch-off."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops import _conv_jit, nn_conv2d_ops, nn_conv_ops, nn_pool_ops

try:
    import numba  # noqa: F401
    HAVE_NUMBA = True
except ImportError:
    HAVE_NUMBA = False
needs_numba = pytest.mark.skipif(not HAVE_NUMBA, reason="numba (the [jit] extra) is not installed")
WITH_AND_WITHOUT_LOOPS = [pytest.param(True, marks=needs_numba), False]

GEOMETRIES = [  # (input NHWC, ksize, stride, padding)
    ((3, 8, 6, 4), 2, 2, "VALID"),
    ((3, 7, 5, 3), 2, 2, "SAME"),
    ((2, 7, 7, 5), 2, 2, "VALID"),  # the last row and column are in no window
    ((2, 9, 9, 3), 3, 3, "SAME"),
    ((2, 8, 8, 3), 2, 3, "VALID"),  # gaps between windows
    ((2, 6, 6, 2), 3, 1, "SAME"),  # overlapping: forward only in the loop
]


def _numpy_path(monkeypatch):
    monkeypatch.setattr(_conv_jit, "usable", lambda *arrays: False)


def _inputs(shape, dtype, seed):
    rng = np.random.RandomState(seed)
    x = rng.randn(*shape).astype(dtype)
    x[0, 0, :2] = 0.5  # ties inside windows
    x[-1, 1, 1, 0] = np.nan
    x[-1, 2, 2, -1] = -np.inf
    return x


def _grad_inputs(x, k, s, padding, dtype):
    ksize, strides = [1, k, k, 1], [1, s, s, 1]
    y = nn_pool_ops._max_pool_kernel(np, x, ksize, strides, padding, "NHWC")
    rng = np.random.RandomState(1)
    dy = rng.randn(*y.shape).astype(dtype)
    dy.flat[:4] = [np.inf, -np.inf, np.nan, -0.0]
    return ksize, strides, y, dy


def _bits(a):
    return a.view("i%d" % a.dtype.itemsize)


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,k,s,padding", GEOMETRIES)
def test_max_pool_loop_matches_numpy_bitwise(monkeypatch, shape, k, s, padding, dtype):
    x = _inputs(shape, dtype, 0)
    args = (x, [1, k, k, 1], [1, s, s, 1], padding, "NHWC")
    assert _conv_jit.usable(x)
    jitted = nn_pool_ops._max_pool_kernel(np, *args)
    _numpy_path(monkeypatch)
    np.testing.assert_array_equal(_bits(jitted), _bits(nn_pool_ops._max_pool_kernel(np, *args)))


@needs_numba
@pytest.mark.parametrize("relu", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,k,s,padding", [g for g in GEOMETRIES if g[2] >= g[1]])
def test_max_pool_grad_loop_matches_numpy_bitwise(monkeypatch, shape, k, s, padding, dtype, relu):
    x = _inputs(shape, dtype, 2)
    if relu:
        x = np.maximum(x, dtype(0))
    ksize, strides, y, dy = _grad_inputs(x, k, s, padding, dtype)
    jitted = nn_conv_ops.max_pool_grad(x, y, dy, ksize, strides, padding, "NHWC", relu=relu)
    _numpy_path(monkeypatch)
    plain = nn_conv_ops.max_pool_grad(x, y, dy, ksize, strides, padding, "NHWC", relu=relu)
    np.testing.assert_array_equal(_bits(jitted), _bits(plain))
    assert np.isnan(plain).any() and np.isinf(plain).any()


@pytest.mark.parametrize("jit", WITH_AND_WITHOUT_LOOPS)
def test_max_pool_grad_zero_fills_like_tf(monkeypatch, jit):
    """TF's MaxPoolGrad fills zeros and adds dy at each window's max: non-max inputs get +0 even
    when dy is inf, NaN or negative (not `dy * 0`), and a routed -0 becomes `0 + -0 = +0`."""
    if not jit:
        _numpy_path(monkeypatch)
    x = np.array([1, 3, 2, 0, 5, 4, 7, 6], np.float32).reshape(1, 2, 4, 1)  # window maxes at 4 and 6
    y = nn_pool_ops._max_pool_kernel(np, x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", "NHWC")
    attrs = ([1, 2, 2, 1], [1, 2, 2, 1], "VALID", "NHWC")
    dy = np.array([np.inf, -0.0], np.float32).reshape(1, 1, 2, 1)
    dx = nn_conv_ops.max_pool_grad(x, y, dy, *attrs).ravel()
    np.testing.assert_array_equal(dx, [0, 0, 0, 0, np.inf, 0, 0, 0])
    assert not np.signbit(dx).any()
    dy = np.array([-2.0, np.nan], np.float32).reshape(1, 1, 2, 1)
    dx = nn_conv_ops.max_pool_grad(x, y, dy, *attrs).ravel()
    np.testing.assert_array_equal(dx, [0, 0, 0, 0, -2, 0, np.nan, 0])
    assert np.signbit(dx).tolist() == [False] * 4 + [True] + [False] * 3


def test_max_pool_grad_of_overlapping_windows_zero_fills(monkeypatch):
    x = np.array([[0, 2, 1]], np.float32).reshape(1, 1, 3, 1)
    y = nn_pool_ops._max_pool_kernel(np, x, [1, 1, 2, 1], [1, 1, 1, 1], "VALID", "NHWC")
    dy = np.array([np.inf, 3.0], np.float32).reshape(1, 1, 2, 1)
    dx = nn_conv_ops.max_pool_grad(x, y, dy, [1, 1, 2, 1], [1, 1, 1, 1], "VALID", "NHWC")
    np.testing.assert_array_equal(dx.ravel(), [0, np.inf, 0])


def test_max_pool_grad_grad_ignores_non_max_inputs():
    x = np.array([1, 3, 2, 0], np.float32).reshape(1, 2, 2, 1)
    y = nn_pool_ops._max_pool_kernel(np, x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", "NHWC")
    ddx = np.array([np.inf, 4, np.nan, -1], np.float32).reshape(1, 2, 2, 1)
    out = nn_pool_ops._max_pool_grad_grad_kernel(np, x, y, ddx, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", "NHWC")
    np.testing.assert_array_equal(out.ravel(), [4])


@needs_numba
def test_graph_gradient_matches_between_loop_and_numpy(monkeypatch):
    rng = np.random.RandomState(3)
    xv = rng.randn(4, 10, 10, 3).astype(np.float32)
    x = tf.placeholder(tf.float32, xv.shape)
    r = tf.nn.relu(x)
    y = tf.nn.max_pool(r, 2, 2, "SAME")
    dx = tf.gradients(tf.reduce_sum(y * y), x)[0]
    with tf.Session() as sess:
        jitted = sess.run([y, dx], {x: xv})
    _numpy_path(monkeypatch)
    with tf.Session() as sess:
        plain = sess.run([y, dx], {x: xv})
    for a, b in zip(jitted, plain):
        np.testing.assert_array_equal(_bits(a), _bits(b))


@needs_numba
def test_other_dtypes_and_layouts_take_the_numpy_kernels():
    x = np.zeros((1, 2, 2, 3), np.float32)
    assert _conv_jit.usable(x)
    assert not _conv_jit.usable(x.astype(np.float16))
    assert not _conv_jit.usable(x.astype(np.int32))
    assert not _conv_jit.usable(x.transpose(0, 2, 1, 3))
    assert not _conv_jit.usable(x, x.astype(np.float64))


def test_env_switch_turns_the_loops_off(monkeypatch):
    monkeypatch.setattr(_conv_jit, "_compiled", {})
    monkeypatch.setenv("TW_JIT_KERNELS", "0")
    assert not _conv_jit.usable(np.zeros((1, 2, 2, 1), np.float32))
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    y = nn_pool_ops._max_pool_kernel(np, x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", "NHWC")
    np.testing.assert_array_equal(y.ravel(), [5, 7, 13, 15])


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("with_bias,relu", [(True, True), (True, False), (False, True)])
def test_conv_epilogue_loop_matches_numpy_add_and_relu_bitwise(dtype, with_bias, relu):
    special = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-30, -1e-30, 2.0, -3.0], dtype)
    block = np.resize(special, 2 * 3 * 4 * 9).reshape(2, 3, 4, 9)
    bias = np.array([0.0, -0.0, 1.0, -1.0, np.nan, 0.5, -0.5, np.inf, 0.0], dtype) if with_bias else None
    expected = block + bias if with_bias else block.copy()
    if relu:
        expected = np.maximum(expected, np.zeros((), dtype))
    _conv_jit.bias_relu(block, bias, relu)
    np.testing.assert_array_equal(_bits(block), _bits(expected))


@needs_numba
def test_fused_conv_epilogue_matches_the_numpy_epilogue(monkeypatch):
    rng = np.random.RandomState(7)
    x = rng.randn(3, 6, 5, 4).astype(np.float32)
    f = rng.randn(3, 3, 4, 6).astype(np.float32)
    b = rng.randn(6).astype(np.float32)
    attrs = ([1, 1, 1, 1], "SAME", [], "NHWC", [1, 1, 1, 1])
    jitted = nn_conv_ops.conv2d_bias_relu(x, f, b, True, *attrs)
    _numpy_path(monkeypatch)
    np.testing.assert_array_equal(_bits(jitted), _bits(nn_conv_ops.conv2d_bias_relu(x, f, b, True, *attrs)))
    assert (jitted == 0).any() and (jitted > 0).any()


@needs_numba
def test_a_kernel_compiles_without_asking_usable_first(monkeypatch):
    monkeypatch.setattr(_conv_jit, "_compiled", {})
    rows = np.array([[-1.0, 2.0]], np.float32)
    _conv_jit._kernel(_conv_jit._bias_relu_loop)(rows, rows[0, :0], True)
    np.testing.assert_array_equal(rows, [[0.0, 2.0]])


def _nan_inputs(shape, dtype, seed):
    """Windows full of NaN, -inf, +-0 and ties, so that every rule of TF's kernels matters."""
    rng = np.random.RandomState(seed)
    special = np.array([np.nan, -np.inf, np.inf, 0.0, -0.0, 1.0, -1.0, 1.0], dtype)
    x = special[rng.randint(0, len(special), shape)]
    x[0] = np.nan  # whole windows of NaN
    x[-1, :2] = -np.inf
    return x


@pytest.mark.parametrize("jit", WITH_AND_WITHOUT_LOOPS)
@pytest.mark.parametrize("k,s", [(2, 2), (3, 2)])  # windows that tile the input; overlapping ones
def test_max_pool_ignores_nan_like_tf(monkeypatch, jit, k, s):
    """TF's CPU MaxPool: NaN never wins a window; a window of NaN and -inf gives the lowest value."""
    if not jit:
        _numpy_path(monkeypatch)
    x = np.arange(36, dtype=np.float32).reshape(1, 6, 6, 1)
    x[0, 0, 1, 0] = np.nan
    x[0, 0, 0, 0] = -np.inf
    y = nn_pool_ops._max_pool_kernel(np, x, [1, k, k, 1], [1, s, s, 1], "VALID", "NHWC")[0, :, :, 0]
    assert y[0, 0] == x[0, k - 1, k - 1, 0] and not np.isnan(y).any()
    np.testing.assert_array_equal(y[1:, 1:], x[0, k - 1 + s::s, k - 1 + s::s, 0][:y.shape[0] - 1, :y.shape[1] - 1])
    x[0, :k, :k] = np.nan
    y = nn_pool_ops._max_pool_kernel(np, x, [1, k, k, 1], [1, s, s, 1], "VALID", "NHWC")[0, :, :, 0]
    assert y[0, 0] == np.finfo(np.float32).min


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,k,s,padding", GEOMETRIES)
def test_max_pool_kernels_agree_bitwise_on_nan_inf_and_zeros(monkeypatch, shape, k, s, padding, dtype):
    """The numba loops, the NumPy kernels and the accelerator kernels (over NumPy) give the same bits."""
    x = _nan_inputs(shape, dtype, 5)
    args = ([1, k, k, 1], [1, s, s, 1], padding, "NHWC")
    y = nn_pool_ops._max_pool_kernel(np, x, *args)
    dy = np.random.RandomState(6).randn(*y.shape).astype(dtype)
    results = {"default": (y, nn_conv_ops.max_pool_grad(x, y, dy, *args))}
    results["xp"] = (nn_conv2d_ops._max_pool_xp(np, x, *args), nn_conv2d_ops._max_pool_grad_xp(np, x, y, dy, *args))
    _numpy_path(monkeypatch)
    results["numpy"] = (nn_pool_ops._max_pool_kernel(np, x, *args), nn_conv_ops.max_pool_grad(x, y, dy, *args))
    xs = np.ascontiguousarray(x[:, :, ::-1])[:, :, ::-1]  # a strided view: NumPy's general path
    results["strided"] = (nn_pool_ops._max_pool_kernel(np, xs, *args), nn_conv_ops.max_pool_grad(xs, y, dy, *args))
    for name, (yy, dx) in results.items():
        np.testing.assert_array_equal(_bits(yy), _bits(y), err_msg=name)
        np.testing.assert_array_equal(_bits(dx), _bits(results["default"][1]), err_msg=name)
    assert not np.isnan(y).any() and (y == np.finfo(dtype).min).any()
    # The gradient of each window goes to exactly one input (non-overlapping windows: one per input).
    if s >= k:
        assert np.count_nonzero(results["numpy"][1]) <= y.size


@needs_numba
def test_kernels_compile_without_a_writable_cache(monkeypatch):
    from tensorweave.kernels.jit import jit

    def no_cache_dir(fn, cache=None):
        if cache is not False:
            raise RuntimeError("cannot cache function %r: no locator available" % fn.__name__)
        return jit(fn, cache=False)

    monkeypatch.setattr(_conv_jit, "_compiled", {"": no_cache_dir})
    rows = np.array([[-1.0, 2.0]], np.float64)
    _conv_jit.bias_relu(rows.reshape(1, 1, 1, 2), np.array([0.5, 0.5]), True)
    np.testing.assert_array_equal(rows, [[0.0, 2.5]])


@pytest.mark.parametrize("jit", WITH_AND_WITHOUT_LOOPS)
@pytest.mark.parametrize("shape,k,s,padding", [g for g in GEOMETRIES if g[2] >= g[1]])
def test_relu_folded_into_max_pool_grad_is_relu_grad_of_it(monkeypatch, jit, shape, k, s, padding):
    """`max_pool_grad(relu=True)` is ReluGrad(MaxPoolGrad(r), r) bitwise, also where a window's routed
    input is a NaN (ReLU passes NaN) while a later element is positive."""
    if not jit:
        _numpy_path(monkeypatch)
    r = _nan_inputs(shape, np.float32, 8)
    r = np.where(r < 0, np.float32(0), r)  # a ReLU's output: NaN stays
    args = ([1, k, k, 1], [1, s, s, 1], padding, "NHWC")
    y = nn_pool_ops._max_pool_kernel(np, r, *args)
    dy = np.random.RandomState(9).randn(*y.shape).astype(np.float32)
    dy.flat[:3] = [np.inf, np.nan, -0.0]
    d = nn_conv_ops.max_pool_grad(r, y, dy, *args)
    with np.errstate(invalid="ignore"):
        expected = np.where(r > 0, d, d * np.float32(0))
    np.testing.assert_array_equal(_bits(nn_conv_ops.max_pool_grad(r, y, dy, *args, relu=True)), _bits(expected))
