"""Records tests/data/contrib_image_tf.npz: TensorFlow 2.21's ImageProjectiveTransformV2 (the op behind
TF 1.15's `tf.contrib.image.transform/rotate/translate`) on the cases of tests/contrib/test_contrib_image.py.

TF 2.21 has no `tf.contrib.image`, so the transform rows are built here with TF 1.15's formulas
(`angles_to_projective_transforms`, `translations_to_projective_transforms`, `compose_transforms`)
written with TF ops, and the warp is `tf.raw_ops.ImageProjectiveTransformV2`. Run with
/work/tfenv/bin/python tests/data/make_contrib_image_tf.py."""

import pathlib

import numpy as np
import tensorflow as tf


def angles_to_transforms(angles, h, w):
    angles = tf.constant(np.asarray(angles, np.float32).reshape(-1))
    h = tf.constant([float(h)], tf.float32)
    w = tf.constant([float(w)], tf.float32)
    x_off = ((w - 1) - (tf.cos(angles) * (w - 1) - tf.sin(angles) * (h - 1))) / 2.0
    y_off = ((h - 1) - (tf.sin(angles) * (w - 1) + tf.cos(angles) * (h - 1))) / 2.0
    n = tf.shape(angles)[0]
    return tf.concat([tf.cos(angles)[:, None], -tf.sin(angles)[:, None], x_off[:, None], tf.sin(angles)[:, None],
                      tf.cos(angles)[:, None], y_off[:, None], tf.zeros((n, 2), tf.float32)], axis=1)


def translations_to_transforms(t):
    t = tf.constant(np.asarray(t, np.float32).reshape(-1, 2))
    n = tf.shape(t)[0]
    one, zero = tf.ones((n, 1), tf.float32), tf.zeros((n, 1), tf.float32)
    return tf.concat([one, zero, -t[:, 0, None], zero, one, -t[:, 1, None], tf.zeros((n, 2), tf.float32)], axis=1)


def to_mat(t):
    t = tf.reshape(t, [-1, 8])
    return tf.reshape(tf.concat([t, tf.ones([tf.shape(t)[0], 1], t.dtype)], 1), [-1, 3, 3])


def to_flat(m):
    f = tf.reshape(m, [-1, 9])
    f /= f[:, 8:9]
    return f[:, :8]


def warp(images, transforms, interp, out_shape=None):
    images = np.asarray(images)
    out_shape = images.shape[1:3] if out_shape is None else out_shape
    return tf.raw_ops.ImageProjectiveTransformV2(images=images, transforms=transforms, output_shape=list(out_shape),
                                                 interpolation=interp, fill_mode="CONSTANT").numpy()


def main():
    rng = np.random.RandomState(0)
    out = {}
    img_hw = rng.uniform(0, 10, (7, 9)).astype(np.float32)
    img_hwc = rng.randint(0, 256, (6, 5, 3)).astype(np.uint8)
    img_nhwc = rng.uniform(-1, 1, (2, 6, 8, 2)).astype(np.float64)
    img_int = rng.randint(-50, 50, (1, 5, 6, 1)).astype(np.int32)
    out.update(img_hw=img_hw, img_hwc=img_hwc, img_nhwc=img_nhwc, img_int=img_int)

    t = angles_to_transforms(0.6, 7, 9)
    out["rot_hw_t"] = t.numpy()
    out["rot_hw"] = warp(img_hw[None, :, :, None], t, "NEAREST")[0, :, :, 0]
    t = angles_to_transforms(-1.2, 6, 5)
    out["rot_hwc_t"] = t.numpy()
    out["rot_hwc"] = warp(img_hwc[None], t, "BILINEAR")[0]
    t = angles_to_transforms([0.3, 2.0], 6, 8)
    out["rot_nhwc_t"] = t.numpy()
    out["rot_nhwc"] = warp(img_nhwc, t, "BILINEAR")

    t = translations_to_transforms([[2.5, -1.0], [-1.25, 0.5]])
    out["trans_t"] = t.numpy()
    out["trans_nearest"] = warp(img_nhwc, t, "NEAREST")
    out["trans_bilinear"] = warp(img_nhwc, t, "BILINEAR")

    proj = np.array([[0.9, 0.2, -0.3, -0.1, 1.1, 0.4, 0.01, -0.02]], np.float32)
    out["proj"] = proj
    out["proj_bilinear"] = warp(img_hw[None, :, :, None], proj, "BILINEAR", (5, 11))[0, :, :, 0]
    out["proj_int_nearest"] = warp(img_int, proj, "NEAREST", (6, 4))

    comp = to_flat(tf.matmul(to_mat(angles_to_transforms(0.4, 6, 8)), to_mat(translations_to_transforms([1.0, 2.0]))))
    out["compose"] = comp.numpy()

    x = tf.constant(img_nhwc)
    w = rng.uniform(-1, 1, (2, 6, 8, 2))
    out["grad_w"] = w
    tt = angles_to_transforms([0.3, 2.0], 6, 8)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.raw_ops.ImageProjectiveTransformV2(images=x, transforms=tt, output_shape=[6, 8],
                                                  interpolation="BILINEAR", fill_mode="CONSTANT")
        loss = tf.reduce_sum(y * w)
    out["grad"] = tape.gradient(loss, x).numpy()
    path = pathlib.Path(__file__).parent / "contrib_image_tf.npz"
    np.savez(path, **out)
    print("wrote", path)


if __name__ == "__main__":
    main()
