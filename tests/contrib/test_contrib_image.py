"""`tf.contrib.image` (TF 1.15 semantics): goldens from TensorFlow 2.21's ImageProjectiveTransformV2 with
the transform rows built by TF 1.15's formulas in TF ops (tests/data/make_contrib_image_tf.py, as TF
2.21 has no contrib), plus hand-derived values (90-degree rotation, integer translation) and the
op's gradient (TF's inverse-transform rule, recorded from TF 2.21)."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib import image as ci

G = np.load(pathlib.Path(__file__).parents[1] / "data" / "contrib_image_tf.npz")


def _run(t):
    with tf.Session() as sess:
        return sess.run(t)


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def test_rotate_hw_hwc_nhwc_vs_tf():
    np.testing.assert_allclose(_run(ci.angles_to_projective_transforms(0.6, 7.0, 9.0)), G["rot_hw_t"], rtol=1e-6,
                               atol=1e-6)
    out = _run(ci.rotate(G["img_hw"], 0.6))
    assert out.shape == (7, 9) and out.dtype == np.float32
    np.testing.assert_array_equal(out, G["rot_hw"])
    out = _run(ci.rotate(G["img_hwc"], -1.2, interpolation="BILINEAR"))
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, G["rot_hwc"])
    out = _run(ci.rotate(G["img_nhwc"], [0.3, 2.0], interpolation="bilinear"))
    np.testing.assert_allclose(out, G["rot_nhwc"], rtol=1e-6, atol=1e-6)


def test_translate_vs_tf():
    t = [[2.5, -1.0], [-1.25, 0.5]]
    np.testing.assert_array_equal(_run(ci.translations_to_projective_transforms(t)), G["trans_t"])
    np.testing.assert_array_equal(_run(ci.translate(G["img_nhwc"], t)), G["trans_nearest"])
    np.testing.assert_allclose(_run(ci.translate(G["img_nhwc"], t, "BILINEAR")), G["trans_bilinear"], rtol=1e-6,
                               atol=1e-7)


def test_projective_transform_and_output_shape_vs_tf():
    out = _run(ci.transform(G["img_hw"], G["proj"][0], interpolation="BILINEAR", output_shape=[5, 11]))
    assert out.shape == (5, 11)
    np.testing.assert_allclose(out, G["proj_bilinear"], rtol=1e-6, atol=1e-6)
    out = _run(ci.transform(G["img_int"], G["proj"], output_shape=tf.constant([6, 4])))
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, G["proj_int_nearest"])


def test_hand_values():
    img = np.arange(12, dtype=np.float32).reshape(3, 4)
    # A quarter turn of a square image is np.rot90 (counterclockwise).
    sq = np.arange(16, dtype=np.float32).reshape(4, 4)
    np.testing.assert_array_equal(_run(ci.rotate(sq, np.pi / 2)), np.rot90(sq))
    # An integer translation shifts right by dx and down by dy, filling zeros.
    ref = np.zeros_like(img)
    ref[1:, 2:] = img[:-1, :-2]
    np.testing.assert_array_equal(_run(ci.translate(img, [2.0, 1.0])), ref)
    # A half-pixel shift with BILINEAR averages neighbours (the first column reads the zero fill).
    out = _run(ci.translate(img, [0.5, 0.0], "BILINEAR"))
    np.testing.assert_allclose(out[:, 1:], (img[:, 1:] + img[:, :-1]) / 2)
    np.testing.assert_allclose(out[:, 0], img[:, 0] / 2)


def test_compose_and_matrix_round_trip():
    rot = ci.angles_to_projective_transforms(0.4, 6.0, 8.0)
    comp = ci.compose_transforms(rot, [1.0, 0.0, -1.0, 0.0, 1.0, -2.0, 0.0, 0.0])
    np.testing.assert_allclose(_run(comp), G["compose"], rtol=1e-6, atol=1e-6)
    m = np.array([[2.0, 0.5, 1.0], [0.1, 1.5, -1.0], [0.2, 0.3, 2.0]])
    flat = _run(ci.matrices_to_flat_transforms(m))
    np.testing.assert_allclose(flat, (m.reshape(9) / 2.0)[None, :8])
    back = _run(ci.flat_transforms_to_matrices(flat))
    np.testing.assert_allclose(back, m[None] / 2.0)
    with pytest.raises(ValueError, match="transforms cannot be empty"):
        ci.compose_transforms()
    with pytest.raises(ValueError, match="Transforms should be 1D or 2D"):
        ci.flat_transforms_to_matrices(np.zeros((1, 1, 8)))


def test_gradient_wrt_images_vs_tf():
    x = tf.constant(G["img_nhwc"])
    y = ci.rotate(x, [0.3, 2.0], interpolation="BILINEAR")
    (g,) = tf.gradients(tf.reduce_sum(y * G["grad_w"]), [x])
    np.testing.assert_allclose(_run(g), G["grad"], rtol=1e-6, atol=1e-6)


def test_errors_and_shapes():
    with pytest.raises(TypeError, match="Invalid dtype"):
        ci.rotate(np.zeros((3, 3), np.int16), 0.1)
    with pytest.raises(TypeError, match="Images should have rank between 2 and 4"):
        ci.transform(np.zeros((1, 2, 3, 4, 5), np.float32), np.zeros(8, np.float32))
    with pytest.raises(TypeError, match="rank must be statically known"):
        ci.rotate(tf.placeholder(tf.float32), 0.1)
    with pytest.raises(TypeError, match="Transforms should have rank 1 or 2"):
        ci.transform(np.zeros((3, 3), np.float32), np.zeros((1, 1, 8), np.float32))
    with pytest.raises(ValueError, match="output_shape must be a 1-D Tensor of 2 elements"):
        ci.transform(np.zeros((3, 3), np.float32), np.zeros(8, np.float32), output_shape=[1, 2, 3])
    p = tf.placeholder(tf.float32, [None, 5, 6, 2])
    assert ci.rotate(p, 0.3).get_shape().as_list() == [None, 5, 6, 2]
    q = tf.placeholder(tf.float32, [2, None, None, 3])
    out = ci.transform(q, np.zeros(8, np.float32), output_shape=[4, 7])
    assert out.get_shape().as_list() == [2, 4, 7, 3]
    bad = ci.transform(tf.zeros([2, 3, 3, 1]), tf.constant(np.zeros((3, 8), np.float32)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input transform should be num_images x 8 or 1 x 8"):
        _run(bad)


def test_eager():
    with tf.Graph().as_default():
        pass
    from tensorweave.eager import context
    with context.eager_mode():
        out = ci.rotate(G["img_hw"], 0.6)
        np.testing.assert_array_equal(out.numpy(), G["rot_hw"])


def _warp_ref(image, flow):
    """TF 1.15's dense_image_warp semantics in NumPy: corners clamped to the grid, alphas clipped to [0, 1]."""
    b, h, w, c = image.shape
    out = np.zeros_like(image)
    for n in range(b):
        for i in range(h):
            for j in range(w):
                qy, qx = i - flow[n, i, j, 0], j - flow[n, i, j, 1]
                fy = min(max(0.0, np.floor(qy)), h - 2)
                fx = min(max(0.0, np.floor(qx)), w - 2)
                ay, ax = np.clip(qy - fy, 0, 1), np.clip(qx - fx, 0, 1)
                fy, fx = int(fy), int(fx)
                top = image[n, fy, fx] + ax * (image[n, fy, fx + 1] - image[n, fy, fx])
                bot = image[n, fy + 1, fx] + ax * (image[n, fy + 1, fx + 1] - image[n, fy + 1, fx])
                out[n, i, j] = top + ay * (bot - top)
    return out


def test_dense_image_warp():
    rng = np.random.RandomState(3)
    image = rng.uniform(-1, 1, (2, 5, 6, 3))
    flow = rng.uniform(-2.5, 2.5, (2, 5, 6, 2))
    img_t, flow_t = tf.constant(image), tf.constant(flow)
    out = ci.dense_image_warp(img_t, flow_t)
    zero = ci.dense_image_warp(img_t, tf.zeros_like(flow_t))
    shift = ci.dense_image_warp(img_t, tf.ones_like(flow_t))
    w = rng.uniform(-1, 1, (2, 5, 6, 3))
    g_img, g_flow = tf.gradients(tf.reduce_sum(out * w), [img_t, flow_t])
    o, z, s, gi, gf = _run([out, zero, shift, g_img, g_flow])
    np.testing.assert_allclose(o, _warp_ref(image, flow), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(z, image, atol=1e-15)
    np.testing.assert_allclose(s[:, 1:, 1:], image[:, :-1, :-1], atol=1e-15)
    eps = 1e-6
    num = np.zeros_like(flow)
    for idx in [(0, 1, 2, 0), (1, 3, 4, 1), (0, 4, 0, 1)]:
        d = np.zeros_like(flow)
        d[idx] = eps
        num[idx] = (np.sum(_warp_ref(image, flow + d) * w) - np.sum(_warp_ref(image, flow - d) * w)) / (2 * eps)
        np.testing.assert_allclose(gf[idx], num[idx], rtol=1e-5, atol=1e-8)
    # linear in the image: the gradient is the adjoint of the warp
    idx = (1, 2, 3, 1)
    e = np.zeros_like(image)
    e[idx] = 1.0
    np.testing.assert_allclose(gi[idx], np.sum(_warp_ref(e, flow) * w), rtol=1e-10)
    with pytest.raises(ValueError, match="Indexing mode must be 'ij' or 'xy'"):
        ci._interpolate_bilinear(image, np.zeros((2, 1, 2)), indexing="yx")
    xy = _run(ci._interpolate_bilinear(image, np.array([[[1.5, 2.25]], [[0.0, 0.0]]]), indexing="xy"))
    np.testing.assert_allclose(xy[0, 0], _warp_ref(image, np.zeros_like(flow) + [[[[2 - 2.25, 1 - 1.5]]]])[0, 2, 1])
