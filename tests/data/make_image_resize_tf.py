"""Records image-resize results from real TensorFlow into image_resize_tf.npz (float32 results of the
four resize ops in every corner mode, their gradients, and `resize_images` with
`preserve_aspect_ratio`: checked bit for bit by tests/ops/test_image_ops.py). Run with a Python that
has TensorFlow:
    python tests/data/make_image_resize_tf.py"""

import pathlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def inputs():
    """The inputs (also rebuilt by the test)."""
    x = ((np.arange(2 * 3 * 4 * 2) * 7919) % 251 / 10.0 - 12.0).astype(np.float32).reshape(2, 3, 4, 2)
    u8 = ((np.arange(2 * 3 * 4 * 2) * 7919) % 251).astype(np.uint8).reshape(2, 3, 4, 2)
    g = (((np.arange(2 * 5 * 7 * 2) * 104729) % 97) / 16.0 - 3.0).astype(np.float32).reshape(2, 5, 7, 2)
    return x, u8, g


if __name__ == "__main__":
    x, u8, g = inputs()
    fns = {"bilinear": tf.image.resize_bilinear, "nearest": tf.image.resize_nearest_neighbor,
           "bicubic": tf.image.resize_bicubic}
    res = {}
    with tf.Session() as s:
        for ac, hp, tag in [(False, False, "plain"), (True, False, "align"), (False, True, "half")]:
            for name, fn in fns.items():
                for src, sn in [(x, "f32"), (u8, "u8")]:
                    for h, w in [(5, 7), (2, 3)]:
                        res["%s-%s-%s-%dx%d" % (name, tag, sn, h, w)] = s.run(
                            fn(src, (h, w), align_corners=ac, half_pixel_centers=hp))
                px = tf.constant(x)
                y = fn(px, (5, 7), align_corners=ac, half_pixel_centers=hp)
                res["grad_%s-%s" % (name, tag)] = s.run(tf.gradients(y, px, grad_ys=g)[0])
            if not hp:
                for src, sn in [(x, "f32"), (u8, "u8")]:
                    for h, w in [(5, 7), (2, 3)]:
                        res["area-%s-%s-%dx%d" % (tag, sn, h, w)] = s.run(
                            tf.image.resize_area(src, (h, w), align_corners=ac))
        for m in range(4):
            res["resize_images-%d" % m] = s.run(
                tf.image.resize_images(tf.constant(x[0]), [6, 6], method=m, preserve_aspect_ratio=True))
    np.savez(pathlib.Path(__file__).parent / "image_resize_tf.npz", **res)
