"""The convolution kernels' fast paths against the paths they replace and a float64 NumPy reference:
the numba im2col (bitwise the strided-view patch matrix), the input gradient by one GEMM and a numba
col2im (against the per-tap GEMMs and the reference, chunked and whole) and by Winograd F(2x2, 3x3),
the 2x2 pooling loops (bitwise the general loops), and the thread split (the one-thread values)."""

import itertools

import numpy as np
import pytest

from tensorweave import kernels
from tensorweave.ops import _conv_jit, nn_conv2d_ops, nn_conv_geometry
from tensorweave.platform import threads

HAVE_NUMBA = _conv_jit._jit() is not None  # numba installed and not switched off (TW_JIT_KERNELS=0)
needs_numba = pytest.mark.skipif(not HAVE_NUMBA, reason="numba (the [jit] extra) is not installed or is off")

# (input NHWC, filter (KH, KW), strides, dilations, padding): odd sizes, strides, dilations, every padding.
GEOMETRIES = [
    ((2, 7, 6, 3), (3, 3), (1, 1), (1, 1), "SAME"),
    ((3, 9, 7, 16), (3, 2), (2, 2), (1, 1), "SAME"),
    ((2, 8, 9, 4), (3, 3), (2, 3), (1, 1), "VALID"),  # rows and columns that no window reads
    ((1, 9, 9, 17), (3, 3), (1, 1), (2, 2), "SAME"),
    ((2, 10, 8, 20), (2, 3), (1, 1), (3, 2), "VALID"),
    ((2, 5, 6, 16), (3, 3), (2, 1), (1, 1), [[0, 0], [2, 1], [0, 3], [0, 0]]),
    ((1, 4, 4, 7), (1, 1), (1, 1), (1, 1), "SAME"),
    ((2, 3, 3, 16), (4, 4), (1, 1), (1, 1), "SAME"),  # the filter is larger than the input
    ((1, 6, 5, 1), (3, 3), (1, 1), (1, 1), "SAME"),  # one channel: the transposed patch layout
    ((2, 9, 8, 2), (3, 3), (2, 1), (1, 2), "VALID"),
]
# Patch matrices of at most `NARROW_GEMM_COLUMNS` columns: multiplied in pieces of rows.
NARROW_GEOMETRIES = [g for g in GEOMETRIES if g[0][3] * g[1][0] * g[1][1] <= nn_conv2d_ops.NARROW_GEMM_COLUMNS]
TOL = {np.float16: 1e-2, np.float32: 1e-5, np.float64: 1e-12}


def _attrs(strides, dilations, padding, data_format):
    if isinstance(padding, list):
        pads = padding if data_format == "NHWC" else [padding[0], padding[3], padding[1], padding[2]]
        explicit = [p for pair in pads for p in pair]
        padding = "EXPLICIT"
    else:
        explicit = []
    if data_format == "NHWC":
        return [1, *strides, 1], padding, explicit, data_format, [1, *dilations, 1]
    return [1, 1, *strides], padding, explicit, data_format, [1, 1, *dilations]


def _geometry(shape, k, strides, dilations, padding):
    s, pad, explicit, fmt, d = _attrs(strides, dilations, padding, "NHWC")
    return nn_conv_geometry._geometry(shape, k[0], k[1], s, d, pad, explicit, fmt)


def _reference_input_grad(dy, f, g):
    """The input gradient in float64 by its definition: each output's gradient times each filter tap,
    added at the input element that tap read (NHWC)."""
    dy, f = dy.astype(np.float64), f.astype(np.float64)
    dx = np.zeros((g.n, g.h, g.w, g.c))
    for p, q, i, j in itertools.product(range(g.oh), range(g.ow), range(g.kh), range(g.kw)):
        r, s = p * g.sh + i * g.dh - g.pt, q * g.sw + j * g.dw - g.pl
        if 0 <= r < g.h and 0 <= s < g.w:
            dx[:, r, s] += dy[:, p, q] @ f[i, j].T
    return dx


def _reference_patches(x, g):
    cols = np.zeros((g.n, g.oh, g.ow, g.kh, g.kw, g.c), x.dtype)
    for p, q, i, j in itertools.product(range(g.oh), range(g.ow), range(g.kh), range(g.kw)):
        r, s = p * g.sh + i * g.dh - g.pt, q * g.sw + j * g.dw - g.pl
        if 0 <= r < g.h and 0 <= s < g.w:
            cols[:, p, q, i, j] = x[:, r, s]
    return cols.reshape(g.n * g.oh * g.ow, -1)


def _no_loops(monkeypatch):
    monkeypatch.setattr(_conv_jit, "usable", lambda *arrays: False)


def _close(got, want, dtype):
    scale = max(1.0, float(np.abs(want).max(initial=0)))
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=TOL[dtype], atol=TOL[dtype] * scale)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,k,strides,dilations,padding", GEOMETRIES)
def test_im2col_equals_the_patches_bitwise(monkeypatch, shape, k, strides, dilations, padding, dtype):
    x = np.random.RandomState(0).randn(*shape).astype(dtype)
    x.flat[:3] = [-0.0, np.nan, -np.inf]
    g = _geometry(shape, k, strides, dilations, padding)
    calls = []
    real = _conv_jit.im2col
    monkeypatch.setattr(_conv_jit, "im2col", lambda *args: calls.append(1) or real(*args))
    fast = nn_conv_geometry._im2col(x, g)
    assert bool(calls) == (HAVE_NUMBA and dtype != np.float16 and shape[3] >= 16)  # the loop's domain
    want = _reference_patches(x, g)
    np.testing.assert_array_equal(fast.view("u%d" % x.itemsize), want.view("u%d" % x.itemsize))
    _no_loops(monkeypatch)
    plain = nn_conv_geometry._im2col(x, g)
    np.testing.assert_array_equal(plain.view("u%d" % x.itemsize), want.view("u%d" % x.itemsize))


@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,k,strides,dilations,padding", GEOMETRIES)
def test_backprop_input_matches_the_per_tap_path_and_the_reference(monkeypatch, shape, k, strides, dilations,
                                                                     padding, dtype, data_format):
    rng = np.random.RandomState(1)
    g = _geometry(shape, k, strides, dilations, padding)
    o = 5
    f = rng.randn(k[0], k[1], shape[3], o).astype(dtype)
    dy = rng.randn(g.n, g.oh, g.ow, o).astype(dtype)
    want = _reference_input_grad(dy, f, g)
    to_fmt = (lambda a: a) if data_format == "NHWC" else (lambda a: a.transpose(0, 3, 1, 2))
    sizes = np.array(to_fmt(np.empty(shape)).shape, np.int32)
    args = (np, sizes, f, to_fmt(dy), *_attrs(strides, dilations, padding, data_format), True)
    fast = nn_conv2d_ops._conv2d_backprop_input_kernel(*args)
    assert fast.dtype == dtype and fast.shape == tuple(sizes)
    _close(to_fmt(fast) if data_format == "NHWC" else fast.transpose(0, 2, 3, 1), want, dtype)
    _no_loops(monkeypatch)
    taps = nn_conv2d_ops._conv2d_backprop_input_kernel(*args)
    _close(fast.astype(np.float64), taps.astype(np.float64), dtype)


@needs_numba
@pytest.mark.parametrize("chunk_bytes", [1, 700, 1 << 20])  # one image, a few, all at once
@pytest.mark.parametrize("chunked", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,k,strides,dilations,padding", GEOMETRIES)
def test_col2im_input_grad_chunked_and_whole(monkeypatch, shape, k, strides, dilations, padding, dtype, chunked,
                                             chunk_bytes):
    monkeypatch.setattr(nn_conv_geometry, "COL2IM_CHUNK_BYTES", chunk_bytes)
    rng = np.random.RandomState(2)
    g = _geometry(shape, k, strides, dilations, padding)
    f = rng.randn(k[0], k[1], shape[3], 4).astype(dtype)
    dy = rng.randn(g.n, g.oh, g.ow, 4).astype(dtype)
    dx = np.full((g.n, g.h, g.w, g.c), np.nan, dtype)  # every element must be written
    fm = np.ascontiguousarray(f.reshape(-1, 4).T)
    nn_conv_geometry._input_grad_by_col2im(dy[1:], fm, g, dx, 1, chunked)
    nn_conv_geometry._input_grad_by_col2im(dy[:1], fm, g, dx, 0, chunked)
    _close(dx, _reference_input_grad(dy, f, g), dtype)


@needs_numba
def test_col2im_adds_every_tap_of_overlapping_windows():
    # 3x3 windows at stride 1: each interior input is read by nine outputs.
    g = _geometry((1, 4, 4, 1), (3, 3), (1, 1), (1, 1), "SAME")
    col = np.ones((1, 4, 4, 3, 3, 1), np.float32)
    dx = np.empty((1, 4, 4, 1), np.float32)
    _conv_jit.col2im(col, dx, 0, g)
    np.testing.assert_array_equal(dx[0, :, :, 0], [[4, 6, 6, 4], [6, 9, 9, 6], [6, 9, 9, 6], [4, 6, 6, 4]])


@pytest.mark.parametrize("o", [2, 0])
@pytest.mark.parametrize("shape", [(0, 5, 5, 3), (2, 0, 5, 3), (2, 5, 5, 0)])
def test_backprop_input_of_empty_shapes(shape, o):
    g = _geometry(shape, (3, 3), (1, 1), (1, 1), "SAME")
    f = np.ones((3, 3, shape[3], o), np.float32)
    dy = np.ones((g.n, g.oh, g.ow, o), np.float32)
    dx = nn_conv2d_ops._conv2d_backprop_input_kernel(np, np.array(shape, np.int32), f, dy,
                                                     *_attrs((1, 1), (1, 1), "SAME", "NHWC"), True)
    assert dx.shape == shape and dx.dtype == np.float32
    np.testing.assert_array_equal(dx, np.zeros(shape, np.float32))


def _recording_shard(monkeypatch, modules):
    """Records the (start, limit) blocks every `shard` call of `modules` ran."""
    blocks = []
    real = nn_conv_geometry.shard

    def recording(total, cost, work, max_parallelism=None):
        def record(b0, b1):
            blocks.append((b0, b1))
            work(b0, b1)
        real(total, cost, record, max_parallelism=max_parallelism)

    for m in modules:
        monkeypatch.setattr(m, "shard", recording)
    return blocks


@needs_numba
@pytest.mark.parametrize("c", [16, 32])  # the input gradient by col2im / by Winograd (on one BLAS thread)
@pytest.mark.parametrize("gemm_shards", [1, 4])  # BLAS on several threads / one BLAS thread per block
def test_split_over_intra_op_threads_gives_the_one_thread_values(monkeypatch, gemm_shards, c):
    rng = np.random.RandomState(3)
    x = rng.randn(64, 16, 16, c).astype(np.float32)
    f = rng.randn(3, 3, c, 64).astype(np.float32)
    b = rng.randn(64).astype(np.float32)
    attrs = _attrs((1, 1), (1, 1), "SAME", "NHWC")
    dy = rng.randn(64, 16, 16, 64).astype(np.float32)
    blocks = _recording_shard(monkeypatch, [nn_conv_geometry])
    results = []
    try:
        for n in (1, 4):
            kernels.set_num_threads(n)
            monkeypatch.setattr(threads, "gemm_shards", lambda n=n: min(n, gemm_shards))
            del blocks[:]
            y, patches = nn_conv2d_ops.conv2d_bias_relu(x, f, b, True, *attrs, keep_patches=True)
            dx = nn_conv2d_ops._conv2d_backprop_input_kernel(np, np.array(x.shape, np.int32), f, dy, *attrs, True)
            df = nn_conv2d_ops._conv2d_backprop_filter_kernel(np, x, np.array(f.shape, np.int32), dy, *attrs, True,
                                                              patches=patches)
            results.append((y, dx, df, max(b1 - b0 for b0, b1 in blocks)))
    finally:
        kernels.set_num_threads(None)
    (y1, dx1, df1, largest1), (y4, dx4, df4, largest4) = results
    assert largest1 == 64
    if gemm_shards == 1:
        # One block either way (BLAS splits the GEMMs): the same GEMMs of the same patches, bitwise.
        assert largest4 == 64
        np.testing.assert_array_equal(y4, y1)
        np.testing.assert_array_equal(df4, df1)
    else:
        assert largest4 == 16  # four blocks
        np.testing.assert_allclose(y4, y1, rtol=1e-5, atol=1e-4)
        np.testing.assert_allclose(df4, df1, rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(dx4, dx1, rtol=1e-5, atol=1e-4)
    g = _geometry(x.shape, (3, 3), (1, 1), (1, 1), "SAME")
    np.testing.assert_allclose(dx1, _reference_input_grad(dy, f, g), rtol=1e-4, atol=1e-4)
    want_y = np.maximum(_reference_patches(x.astype(np.float64), g) @ f.reshape(-1, 64).astype(np.float64) + b, 0)
    np.testing.assert_allclose(y1.reshape(-1, 64), want_y, rtol=1e-4, atol=1e-4)


@needs_numba
@pytest.mark.parametrize("gemm_shards,intra,winograd", [(4, 4, True), (1, 1, True), (1, 4, False)])
def test_input_grad_by_winograd_only_on_one_blas_thread(monkeypatch, gemm_shards, intra, winograd):
    rng = np.random.RandomState(8)
    f = rng.randn(3, 3, 32, 32).astype(np.float32)
    dy = rng.randn(4, 8, 8, 32).astype(np.float32)
    calls = []
    real = nn_conv2d_ops._input_grad_by_winograd
    monkeypatch.setattr(nn_conv2d_ops, "_input_grad_by_winograd", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(threads, "gemm_shards", lambda: gemm_shards)
    monkeypatch.setattr(threads, "intra_op_threads", lambda: intra)
    dx = nn_conv2d_ops._conv2d_backprop_input_kernel(np, np.array([4, 8, 8, 32], np.int32), f, dy,
                                                     *_attrs((1, 1), (1, 1), "SAME", "NHWC"), True)
    assert bool(calls) == winograd
    g = _geometry((4, 8, 8, 32), (3, 3), (1, 1), (1, 1), "SAME")
    _close(dx, _reference_input_grad(dy, f, g), np.float32)


def _special_values(shape, dtype, seed):
    """Ties, NaN, +-inf and +-0 everywhere, so that every rule of TF's max pooling matters."""
    rng = np.random.RandomState(seed)
    special = np.array([np.nan, -np.inf, np.inf, 0.0, -0.0, 1.0, -1.0, 1.0, 2.5], dtype)
    x = special[rng.randint(0, len(special), shape)]
    x[0, :2, :2] = np.nan  # whole windows of NaN
    return x


@needs_numba
@pytest.mark.parametrize("relu", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2, 8, 6, 5), (3, 7, 9, 1), (1, 2, 2, 17)])  # odd sizes: a row/column in no window
def test_2x2_pool_loops_equal_the_general_loops_bitwise(shape, dtype, relu):
    x = _special_values(shape, dtype, 4)
    g = _geometry(shape, (2, 2), (2, 2), (1, 1), "VALID")
    assert _conv_jit._tiles_2x2(g)
    low = x.dtype.type(np.finfo(dtype).min)
    out, want = np.empty((g.n, g.oh, g.ow, g.c), dtype), np.empty((g.n, g.oh, g.ow, g.c), dtype)
    _conv_jit.max_pool(x, out, 0, g.n, g)
    _conv_jit._kernel(_conv_jit._max_pool_loop)(x, want, 0, g.n, 2, 2, 2, 2, 0, 0, low)
    np.testing.assert_array_equal(out.view("u%d" % x.itemsize), want.view("u%d" % x.itemsize))
    dy = _special_values(out.shape, dtype, 5)
    dx, dx_want = np.zeros(shape, dtype), np.zeros(shape, dtype)
    _conv_jit.max_pool_grad(x, dy, dx, 0, g.n, g, relu)
    _conv_jit._kernel(_conv_jit._max_pool_grad_loop)(x, dy, dx_want, 0, g.n, 2, 2, 2, 2, 0, 0, relu)
    np.testing.assert_array_equal(dx.view("u%d" % x.itemsize), dx_want.view("u%d" % x.itemsize))


@pytest.mark.parametrize("shape,k,s,padding", [((2, 7, 7, 3), 2, 2, "SAME"), ((2, 8, 8, 3), 2, 1, "VALID"),
                                               ((2, 9, 9, 3), 3, 3, "VALID")])
def test_2x2_loops_only_where_every_window_is_a_whole_2x2_block(shape, k, s, padding):
    g = _geometry(shape, (k, k), (s, s), (1, 1), padding)
    assert not _conv_jit._tiles_2x2(g)


# 3x3 stride-1 geometries (the Winograd input gradient's domain): odd sizes, every padding it takes.
WINOGRAD_GEOMETRIES = [
    ((2, 6, 6, 32), "SAME"),
    ((1, 9, 7, 3), "SAME"),  # odd sizes: the last tiles' extra outputs are dropped
    ((2, 8, 10, 5), "VALID"),
    ((1, 5, 5, 4), [[0, 0], [2, 0], [1, 2], [0, 0]]),
    ((1, 2, 3, 2), "SAME"),  # smaller than one tile
    ((1, 1, 1, 3), [[0, 0], [1, 1], [0, 2], [0, 0]]),
]


@needs_numba
@pytest.mark.parametrize("chunk_bytes", [1, 5000, 1 << 22])  # one image at a time, a few, all
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,padding", WINOGRAD_GEOMETRIES)
def test_winograd_input_grad_matches_the_reference(monkeypatch, shape, padding, dtype, chunk_bytes):
    monkeypatch.setattr(nn_conv_geometry, "WINOGRAD_CHUNK_BYTES", chunk_bytes)
    rng = np.random.RandomState(6)
    g = _geometry(shape, (3, 3), (1, 1), (1, 1), padding)
    o = 6
    f = rng.randn(3, 3, shape[3], o).astype(dtype)
    dy = rng.randn(g.n, g.oh, g.ow, o).astype(dtype)
    dx = np.full((g.n, g.h, g.w, g.c), np.nan, dtype)  # every element must be written
    u = nn_conv_geometry._winograd_filter(f[::-1, ::-1].transpose(0, 1, 3, 2))
    assert u.dtype == dtype and u.shape == (16, o, shape[3])
    nn_conv_geometry._input_grad_by_winograd(dy, u, g, dx)
    _close(dx, _reference_input_grad(dy, f, g), dtype)


@pytest.mark.parametrize("shape,k,strides,dilations,padding,o,applies", [
    ((2, 14, 14, 32), (3, 3), (1, 1), (1, 1), "SAME", 64, True),
    ((2, 28, 28, 32), (3, 3), (1, 1), (1, 1), "VALID", 32, True),
    ((2, 14, 14, 16), (3, 3), (1, 1), (1, 1), "SAME", 64, False),  # too few input channels
    ((2, 14, 14, 32), (3, 3), (1, 1), (1, 1), "SAME", 16, False),  # too few output channels
    ((2, 7, 7, 64), (3, 3), (1, 1), (1, 1), "SAME", 64, False),  # tiles would waste 30%
    ((2, 14, 14, 32), (3, 3), (2, 2), (1, 1), "SAME", 64, False),
    ((2, 14, 14, 32), (3, 3), (1, 1), (2, 2), "SAME", 64, False),
    ((2, 14, 14, 32), (5, 5), (1, 1), (1, 1), "SAME", 64, False),
    ((2, 14, 14, 32), (3, 3), (1, 1), (1, 1), [[0, 0], [3, 0], [0, 0], [0, 0]], 64, False),
])
def test_winograd_domain(shape, k, strides, dilations, padding, o, applies):
    g = _geometry(shape, k, strides, dilations, padding)
    assert nn_conv_geometry._winograd_input_grad_applies(g, o) == applies


@needs_numba
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,padding", [((2, 6, 6, 32), "SAME"), ((3, 10, 8, 33), "VALID"),
                                           ((1, 6, 8, 32), [[0, 0], [2, 1], [0, 2], [0, 0]])])
def test_backprop_input_by_winograd_equals_col2im_and_the_reference(monkeypatch, shape, padding, dtype,
                                                                     data_format):
    rng = np.random.RandomState(7)
    g = _geometry(shape, (3, 3), (1, 1), (1, 1), padding)
    o = 40
    assert nn_conv_geometry._winograd_input_grad_applies(g, o)
    f = rng.randn(3, 3, shape[3], o).astype(dtype)
    dy = rng.randn(g.n, g.oh, g.ow, o).astype(dtype)
    to_fmt = (lambda a: a) if data_format == "NHWC" else (lambda a: a.transpose(0, 3, 1, 2))
    sizes = np.array(to_fmt(np.empty(shape)).shape, np.int32)
    args = (np, sizes, f, to_fmt(dy), *_attrs((1, 1), (1, 1), padding, data_format), True)
    calls = []
    real = nn_conv2d_ops._input_grad_by_winograd
    monkeypatch.setattr(nn_conv2d_ops, "_input_grad_by_winograd", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(threads, "gemm_shards", lambda: 2)  # one BLAS thread per intra-op block
    fast = nn_conv2d_ops._conv2d_backprop_input_kernel(*args)
    assert calls
    monkeypatch.setattr(nn_conv2d_ops, "_winograd_input_grad_applies", lambda g, o: False)
    by_col2im = nn_conv2d_ops._conv2d_backprop_input_kernel(*args)
    nhwc = (lambda a: a) if data_format == "NHWC" else (lambda a: a.transpose(0, 2, 3, 1))
    want = _reference_input_grad(dy, f, g)
    _close(nhwc(fast), want, dtype)
    _close(nhwc(by_col2im), want, dtype)


def _reference_filter_grad(x, dy, g):
    x, dy = x.astype(np.float64), dy.astype(np.float64)
    df = np.zeros((g.kh, g.kw, g.c, dy.shape[3]))
    for p, q, i, j in itertools.product(range(g.oh), range(g.ow), range(g.kh), range(g.kw)):
        r, s = p * g.sh + i * g.dh - g.pt, q * g.sw + j * g.dw - g.pl
        if 0 <= r < g.h and 0 <= s < g.w:
            df[i, j] += x[:, r, s].T @ dy[:, p, q]
    return df


@pytest.mark.parametrize("chunk_bytes", [64, 1000, 400 << 10])
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,k,strides,dilations,padding", GEOMETRIES)
def test_filter_grad_in_row_pieces_matches_the_reference(monkeypatch, shape, k, strides, dilations, padding, dtype,
                                                         data_format, chunk_bytes):
    monkeypatch.setattr(nn_conv2d_ops, "NARROW_GEMM_BYTES", chunk_bytes)
    rng = np.random.RandomState(9)
    g = _geometry(shape, k, strides, dilations, padding)
    x = rng.randn(*shape).astype(dtype)
    dy = rng.randn(g.n, g.oh, g.ow, 3).astype(dtype)
    to_fmt = (lambda a: a) if data_format == "NHWC" else (lambda a: a.transpose(0, 3, 1, 2))
    attrs = _attrs(strides, dilations, padding, data_format)
    sizes = np.array([k[0], k[1], shape[3], 3], np.int32)
    got = nn_conv2d_ops._conv2d_backprop_filter_kernel(np, to_fmt(x), sizes, to_fmt(dy), *attrs, True)
    assert got.dtype == dtype and got.shape == tuple(sizes)
    want = _reference_filter_grad(x, dy, g)
    rows = g.n * g.oh * g.ow
    tol = {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol * max(1.0, np.sqrt(rows)))
    # The patches a convolution kept give the same values, bitwise.
    f = rng.randn(*sizes).astype(dtype)
    _, patches = nn_conv2d_ops.conv2d_bias_relu(to_fmt(x), f, None, False, *attrs, keep_patches=True)
    with_patches = nn_conv2d_ops._conv2d_backprop_filter_kernel(np, to_fmt(x), sizes, to_fmt(dy), *attrs, True,
                                                                patches=patches)
    np.testing.assert_array_equal(with_patches, got)


@pytest.mark.parametrize("c,o", [(0, 3), (2, 0), (0, 0)])
def test_filter_grad_of_empty_channels(c, o):
    x = np.ones((2, 5, 5, c), np.float32)
    dy = np.ones((2, 5, 5, o), np.float32)
    got = nn_conv2d_ops._conv2d_backprop_filter_kernel(np, x, np.array([3, 3, c, o], np.int32), dy,
                                                       *_attrs((1, 1), (1, 1), "SAME", "NHWC"), True)
    assert got.shape == (3, 3, c, o) and got.dtype == np.float32


@pytest.mark.parametrize("chunk_bytes", [64, 1000, 400 << 10])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,k,strides,dilations,padding", NARROW_GEOMETRIES)
def test_narrow_convolution_in_row_pieces_matches_the_reference_and_the_numpy_epilogue(
        monkeypatch, shape, k, strides, dilations, padding, dtype, chunk_bytes):
    monkeypatch.setattr(nn_conv2d_ops, "NARROW_GEMM_BYTES", chunk_bytes)
    rng = np.random.RandomState(10)
    g = _geometry(shape, k, strides, dilations, padding)
    x = rng.randn(*shape).astype(dtype)
    f = rng.randn(k[0], k[1], shape[3], 5).astype(dtype)
    b = rng.randn(5).astype(dtype)
    attrs = _attrs(strides, dilations, padding, "NHWC")
    plain = nn_conv2d_ops.conv2d_bias_relu(x, f, None, False, *attrs)
    fused = nn_conv2d_ops.conv2d_bias_relu(x, f, b, True, *attrs)
    want = _reference_patches(x.astype(np.float64), g) @ f.reshape(-1, 5).astype(np.float64)
    _close(plain.reshape(-1, 5), want, dtype)
    # The fused epilogue gives the separate ops' values on the same product, bitwise.
    np.testing.assert_array_equal(fused, np.maximum(plain + b, dtype(0)))
    _no_loops(monkeypatch)
    np.testing.assert_array_equal(nn_conv2d_ops.conv2d_bias_relu(x, f, b, True, *attrs), fused)
