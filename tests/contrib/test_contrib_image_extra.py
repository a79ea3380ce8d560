"""tf.contrib.image's interpolate_spline, sparse_image_warp, connected_components and bipartite_match.

TensorFlow 2.21 has neither tf.contrib.image nor these kernels (tf.raw_ops has no ImageConnectedComponents
or BipartiteMatch), so the references are hand-computed: the polyharmonic spline system solved in float64
NumPy, a pure-Python flood fill numbered in scan order (TF 1.15's renumbering), and a pure-Python greedy
matching."""

import collections

import numpy as np
import pytest

import tensorweave as tf

I = tf.contrib.image


def _phi(r2, order):
    r2 = np.maximum(r2, 1e-10)
    r = np.sqrt(r2)
    return r ** order * (np.log(r) if order % 2 == 0 else 1.0)


def _spline_ref(c, f, q, order, reg=0.0):
    """The polyharmonic spline in float64: [[A + reg I, B], [B^T, 0]] [w; v] = [f; 0]."""
    out = []
    for cb, fb, qb in zip(c.astype(np.float64), f.astype(np.float64), q.astype(np.float64)):
        n, d = cb.shape
        a = _phi(((cb[:, None] - cb[None]) ** 2).sum(-1), order) + reg * np.eye(n)
        b = np.concatenate([cb, np.ones((n, 1))], 1)
        lhs = np.block([[a, b], [b.T, np.zeros((d + 1, d + 1))]])
        wv = np.linalg.solve(lhs, np.concatenate([fb, np.zeros((d + 1, fb.shape[1]))]))
        w, v = wv[:n], wv[n:]
        rbf = _phi(((qb[:, None] - cb[None]) ** 2).sum(-1), order) @ w
        out.append(rbf + np.concatenate([qb, np.ones((len(qb), 1))], 1) @ v)
    return np.stack(out)


@pytest.mark.parametrize("order", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("reg", [0.0, 0.01])
def test_interpolate_spline_matches_float64_solve(order, reg):
    rng = np.random.RandomState(order)
    c = rng.rand(2, 7, 2) * 4
    f = rng.randn(2, 7, 3)
    q = rng.rand(2, 5, 2) * 4
    with tf.Graph().as_default():
        out = I.interpolate_spline(tf.constant(c), tf.constant(f), tf.constant(q), order, regularization_weight=reg)
        fit = I.interpolate_spline(tf.constant(c), tf.constant(f), tf.constant(c), order)
        assert out.shape.as_list() == [2, 5, 3]
        with tf.Session() as sess:
            got, got_fit = sess.run([out, fit])
    np.testing.assert_allclose(got, _spline_ref(c, f, q, order, reg), rtol=1e-7, atol=1e-7)
    np.testing.assert_allclose(got_fit, f, atol=1e-7)  # exact interpolation without regularization


def test_interpolate_spline_float32_dynamic_shapes_and_gradient():
    rng = np.random.RandomState(0)
    c = (rng.rand(1, 6, 2) * 3).astype(np.float32)
    f = rng.randn(1, 6, 1).astype(np.float32)
    q = (rng.rand(1, 4, 2) * 3).astype(np.float32)
    with tf.Graph().as_default():
        cp = tf.placeholder(tf.float32, [None, None, 2])
        fp = tf.placeholder(tf.float32, [None, None, 1])
        qp = tf.placeholder(tf.float32, [None, None, 2])
        out = I.interpolate_spline(cp, fp, qp, 2)
        grad = tf.gradients(tf.reduce_sum(out), fp)[0]
        with tf.Session() as sess:
            got, g = sess.run([out, grad], {cp: c, fp: f, qp: q})
    np.testing.assert_allclose(got, _spline_ref(c, f, q, 2), rtol=2e-4, atol=2e-4)
    # the interpolant is linear in the values: d sum(out) / d f_i = sum over queries of the cardinal function
    eye = np.eye(6)[None, :, :]
    card = _spline_ref(np.repeat(c, 1, 0), eye, q, 2)
    np.testing.assert_allclose(g[0, :, 0], card[0].sum(0), rtol=2e-3, atol=2e-3)


def test_interpolate_spline_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"dimensionality of the input points \(d\)"):
            I.interpolate_spline(tf.placeholder(tf.float32, [1, 3, None]), tf.zeros([1, 3, 1]), tf.zeros([1, 2, 2]), 2)
        with pytest.raises(ValueError, match=r"dimensionality of the output values \(k\)"):
            I.interpolate_spline(tf.zeros([1, 3, 2]), tf.placeholder(tf.float32, [1, 3, None]), tf.zeros([1, 2, 2]),
                                 2)
        out = I.interpolate_spline(tf.zeros([1, 3, 2]), tf.ones([1, 3, 1]), tf.zeros([1, 2, 2]), 2)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError):  # coincident centers: singular system
                sess.run(out)


def test_sparse_image_warp_moves_control_points():
    rng = np.random.RandomState(5)
    image = rng.rand(2, 9, 10, 2).astype(np.float64)
    src = np.array([[[3.0, 3.0], [6.0, 7.0], [2.0, 8.0]], [[2.0, 5.0], [5.0, 2.0], [7.0, 7.0]]])
    dst = np.array([[[4.0, 4.0], [6.0, 6.0], [2.0, 8.0]], [[3.0, 5.0], [5.0, 3.0], [6.0, 7.0]]])
    with tf.Graph().as_default():
        warped, flow = I.sparse_image_warp(tf.constant(image), tf.constant(src), tf.constant(dst),
                                           num_boundary_points=2)
        plain_w, plain_f = I.sparse_image_warp(tf.constant(image), tf.constant(src), tf.constant(dst),
                                               interpolation_order=3)
        dense = I.dense_image_warp(tf.constant(image), flow)
        with tf.Session() as sess:
            w, fl, dw, pw, pf = sess.run([warped, flow, dense, plain_w, plain_f])
    assert w.shape == image.shape and fl.shape == (2, 9, 10, 2)
    np.testing.assert_allclose(w, dw, rtol=1e-12)
    for b in range(2):
        for (sy, sx), (dy, dx) in zip(src[b].astype(int), dst[b].astype(int)):
            np.testing.assert_allclose(fl[b, dy, dx], [dy - sy, dx - sx], atol=1e-9)
            np.testing.assert_allclose(w[b, dy, dx], image[b, sy, sx], atol=1e-9)
        for y, x in ((0, 0), (0, 9), (8, 0), (8, 9), (0, 4.5), (4, 0)):  # zero-flow border points
            if float(x).is_integer():
                np.testing.assert_allclose(fl[b, int(y), int(x)], [0.0, 0.0], atol=1e-9)
    grid = np.stack(np.meshgrid(np.arange(9.0), np.arange(10.0), indexing="ij"), -1).reshape(1, 90, 2)
    want_flow = _spline_ref(dst, dst - src, np.repeat(grid, 2, 0), 3).reshape(2, 9, 10, 2)
    np.testing.assert_allclose(pf, want_flow, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(pw[0, 4, 4], image[0, 3, 3], atol=1e-9)


def test_sparse_image_warp_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="fully known static shape"):
            I.sparse_image_warp(tf.placeholder(tf.float32, [1, None, 4, 1]), tf.zeros([1, 1, 2]), tf.zeros([1, 1, 2]))


def _components_ref(images):
    """Flood fill of 4-neighbours with equal non-zero values, numbered by first appearance in a
    row-major scan of the whole batch."""
    out = np.zeros(images.shape, np.int64)
    nxt = 1
    n, h, w = images.shape
    for b in range(n):
        for y in range(h):
            for x in range(w):
                v = images[b, y, x]
                if not (len(v) if isinstance(v, (bytes, str)) else v) or out[b, y, x]:
                    continue
                out[b, y, x] = nxt
                todo = collections.deque([(y, x)])
                while todo:
                    cy, cx = todo.popleft()
                    for ny, nx in ((cy - 1, cx), (cy + 1, cx), (cy, cx - 1), (cy, cx + 1)):
                        if 0 <= ny < h and 0 <= nx < w and not out[b, ny, nx] and images[b, ny, nx] == v:
                            out[b, ny, nx] = nxt
                            todo.append((ny, nx))
                nxt += 1
    return out


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.float32, np.bool_])
def test_connected_components_random(dtype):
    rng = np.random.RandomState(11)
    images = (rng.rand(3, 12, 13) * 3).astype(dtype) if dtype != np.bool_ else rng.rand(3, 12, 13) < 0.45
    with tf.Graph().as_default():
        out = I.connected_components(tf.constant(images))
        single = I.connected_components(tf.constant(images[1]))
        assert out.dtype == tf.int64 and out.shape.as_list() == [3, 12, 13]
        with tf.Session() as sess:
            got, got1 = sess.run([out, single])
    np.testing.assert_array_equal(got, _components_ref(images))
    np.testing.assert_array_equal(got1, _components_ref(images[1:2])[0])


def test_connected_components_tf_examples():
    # TF 1.15's segmentation_test: a snake, diagonal neighbours apart, equal values only
    snake = np.array([[0, 1, 1, 1, 0], [0, 0, 0, 1, 0], [0, 1, 1, 1, 0], [0, 1, 0, 0, 0], [0, 1, 1, 1, 1]])
    diag = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [0, 1, 0, 0], [2, 0, 0, 1]])
    strings = np.array([[[b"a", b"", b"a"], [b"a", b"b", b"b"]]], object)
    with tf.Graph().as_default():
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(I.connected_components(snake)), (snake != 0).astype(np.int64))
            np.testing.assert_array_equal(sess.run(I.connected_components(diag)),
                                          [[1, 0, 0, 2], [0, 3, 3, 0], [0, 3, 0, 0], [4, 0, 0, 5]])
            np.testing.assert_array_equal(sess.run(I.connected_components(tf.constant(strings))),
                                          [[[1, 0, 2], [1, 3, 3]]])
            np.testing.assert_array_equal(sess.run(I.connected_components(np.zeros((2, 2, 2), np.int32))),
                                          np.zeros((2, 2, 2)))


def test_connected_components_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"images should have rank 2 \(HW\) or 3 \(NHW\)"):
            I.connected_components(tf.zeros([1, 2, 2, 1]))
        with pytest.raises(TypeError, match="DataType complex64 not in list of allowed values"):
            I.connected_components(tf.zeros([2, 2], tf.complex64))


def _greedy_ref(d, num_valid, top_k):
    rows, cols = d.shape
    valid = rows if num_valid < 0 else int(num_valid + 0.1)
    limit = valid * cols if top_k <= 0 else top_k
    r2c, c2r = [-1] * rows, [-1] * cols
    for _, r, c in sorted((d[r, c], r, c) for r in range(valid) for c in range(cols)):
        if sum(x >= 0 for x in r2c) >= limit:
            break
        if r2c[r] == -1 and c2r[c] == -1:
            r2c[r], c2r[c] = c, r
    return r2c, c2r


@pytest.mark.parametrize("num_valid,top_k", [(-1, -1), (3, -1), (-1, 2), (2.0, 1), (0, -1)])
def test_bipartite_match_greedy(num_valid, top_k):
    rng = np.random.RandomState(2)
    d = rng.rand(5, 4).astype(np.float32)
    with tf.Graph().as_default():
        r2c, c2r = I.bipartite_match(tf.constant(d), num_valid, top_k=top_k)
        assert r2c.shape.as_list() == [5] and c2r.shape.as_list() == [4] and r2c.dtype == tf.int32
        with tf.Session() as sess:
            got = sess.run([r2c, c2r])
    want = _greedy_ref(d, num_valid, top_k)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


def test_bipartite_match_tf_example_and_errors():
    # TF 1.15's image_ops_test.BipartiteMatchTest.testBipartiteMatch (num_valid_rows=-1, top_k=-1)
    d = np.array([[0.3, 0.5], [0.2, 0.1], [0.6, 0.7]], np.float32)
    with tf.Graph().as_default():
        r2c, c2r = I.bipartite_match(d, -1)
        with tf.Session() as sess:
            got = sess.run([r2c, c2r])
            np.testing.assert_array_equal(got[0], [0, 1, -1])
            np.testing.assert_array_equal(got[1], [0, 1])
            with pytest.raises(tf.errors.InvalidArgumentError, match="There should be at least 4 rows"):
                sess.run(I.bipartite_match(d, 4.0)[0])
        with pytest.raises(TypeError, match="DataType int32 not in list of allowed values"):
            I.bipartite_match(tf.zeros([2, 2], tf.int32), -1)
        with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 3"):
            I.bipartite_match(tf.zeros([2, 2, 2]), -1)


def _hsv_matrix(h, s, v):
    yiq = np.array([[0.299, 0.587, 0.114], [0.596, -0.274, -0.322], [0.211, -0.523, 0.312]])
    yiq_inv = np.array([[1, 0.95617069, 0.62143257], [1, -0.2726886, -0.64681324], [1, -1.103744, 1.70062309]])
    hsv = np.array([[v, 0, 0], [0, v * s * np.cos(h), -v * s * np.sin(h)], [0, v * s * np.sin(h), v * s * np.cos(h)]])
    return yiq_inv @ hsv @ yiq  # TF's kernel: out = M rgb (its column-major matrix, Eigen)


def test_adjust_hsv_in_yiq_formula_and_dtypes():
    rng = np.random.RandomState(4)
    img = rng.rand(2, 3, 4, 3).astype(np.float32)
    u8 = (rng.rand(5, 3) * 255).astype(np.uint8)
    with tf.Graph().as_default():
        out = I.adjust_hsv_in_yiq(img, 0.4, 0.6, 1.3)
        ident = I.adjust_hsv_in_yiq(img)
        h = tf.placeholder(tf.float32, [])
        dyn = I.adjust_hsv_in_yiq(tf.placeholder_with_default(img, [None, None, None, None]), h, 2.0, 0.5)
        out8 = I.adjust_hsv_in_yiq(u8, -1.0, 0.5, 0.9)
        rand = I.random_hsv_in_yiq(img, 0.5, 0.5, 1.5, 0.7, 1.3, seed=1)
        fixed = I.random_hsv_in_yiq(img, 0, 0.8, 0.8, 1.1, 1.1)
        with tf.Session() as sess:
            got, got_i, got_d, got8, got_r, got_f = sess.run([out, ident, dyn, out8, rand, fixed], {h: 2.0})
    np.testing.assert_allclose(got, img @ _hsv_matrix(0.4, 0.6, 1.3).T, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_i, img, atol=1e-6)
    np.testing.assert_allclose(got_d, img @ _hsv_matrix(2.0, 2.0, 0.5).T, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_f, img @ _hsv_matrix(0, 0.8, 1.1).T, rtol=1e-5, atol=1e-6)
    assert got8.dtype == np.uint8
    want8 = np.clip(u8 / 255.0 @ _hsv_matrix(-1.0, 0.5, 0.9).T, 0, 1) * 255
    assert np.max(np.abs(got8.astype(np.float64) - want8)) <= 1.0  # convert_image_dtype's rounding
    assert got_r.shape == img.shape and not np.allclose(got_r, img)


def test_adjust_hsv_in_yiq_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="input must have 3 channels but instead has 4 channels"):
            I.adjust_hsv_in_yiq(tf.zeros([2, 4]))
        x = tf.placeholder(tf.float32, [None, None])
        out = I.adjust_hsv_in_yiq(x, 0.1)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="input must have 3 channels"):
                sess.run(out, {x: np.zeros((2, 4), np.float32)})
        for kwargs, msg in (({"max_delta_hue": -1}, "max_delta use must be non-negative"),
                            ({"lower_saturation": -1}, "lower_saturation must be non-negative"),
                            ({"lower_value": -1}, "lower_value must be non-negative"),
                            ({"lower_saturation": 2}, "lower_saturation must be < upper_saturation"),
                            ({"lower_value": 2}, "lower_value must be < upper_value")):
            with pytest.raises(ValueError, match=msg):
                I.random_hsv_in_yiq(tf.zeros([2, 3]), **kwargs)


def test_raw_op_errors():
    from tensorweave.ops.image_segmentation_contrib_ops import bipartite_match, image_connected_components
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Shape must be rank 3 but is rank 2"):
            image_connected_components(tf.zeros([2, 2], tf.int32))
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            bipartite_match(tf.zeros([2, 2]), tf.constant([1.0]))
        x = tf.placeholder(tf.int32)
        d = tf.placeholder(tf.float32)
        cc = image_connected_components(x)
        bm = bipartite_match(d, -1.0)[0]
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="image must be 3-dimensional"):
                sess.run(cc, {x: np.zeros((2, 2), np.int32)})
            with pytest.raises(tf.errors.InvalidArgumentError, match="distance_mat should be 2-dimensional"):
                sess.run(bm, {d: np.zeros((2, 2, 2), np.float32)})
