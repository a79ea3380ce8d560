"""Records tf.image value results from real TensorFlow into image_ops_tf.npz (adjust_contrast,
rgb_to_grayscale, adjust_brightness, convert_image_dtype, adjust_hue and adjust_saturation in
float32 and uint8, per_image_standardization, rgb_to_hsv (and its gradient) and hsv_to_rgb: checked
by tests/ops/test_image_ops.py). Run with a Python that has TensorFlow:
    python tests/data/make_image_ops_tf.py"""

import pathlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def inputs():
    """The inputs (also rebuilt by the test)."""
    f32 = ((np.arange(2 * 13 * 11 * 3) * 7919) % 1009 / 1009.0).astype(np.float32).reshape(2, 13, 11, 3)
    u8 = ((np.arange(2 * 5 * 7 * 3) * 7919) % 256).astype(np.uint8).reshape(2, 5, 7, 3)
    return f32, u8


if __name__ == "__main__":
    f32, u8 = inputs()
    res = {}
    with tf.Session() as s:
        for sn, x in (("f32", f32), ("u8", u8)):
            for cf in (0.5, 1.7, -1.0):
                res["contrast-%s-%s" % (cf, sn)] = s.run(tf.image.adjust_contrast(x, cf))
            res["gray-" + sn] = s.run(tf.image.rgb_to_grayscale(x))
            res["bright-" + sn] = s.run(tf.image.adjust_brightness(x, 0.2))
            res["standard-" + sn] = s.run(tf.image.per_image_standardization(x))
            for dn in ("float32", "float64", "uint8", "int16", "uint16", "int32"):
                res["convert-%s-%s" % (sn, dn)] = s.run(tf.image.convert_image_dtype(x, getattr(tf, dn)))
            for d in (0.3, -0.8, 0.5):
                res["hue-%s-%s" % (d, sn)] = s.run(tf.image.adjust_hue(x, d))
            for f in (0.4, 2.5):
                res["saturation-%s-%s" % (f, sn)] = s.run(tf.image.adjust_saturation(x, f))
        c = tf.constant(f32)
        hsv = tf.image.rgb_to_hsv(c)
        res["hsv-f32"] = s.run(hsv)
        res["rgb-f32"] = s.run(tf.image.hsv_to_rgb(c))
        res["hsvgrad-f32"] = s.run(tf.gradients(hsv, c, grad_ys=tf.constant(f32[::-1]))[0])
    np.savez(pathlib.Path(__file__).parent / "image_ops_tf.npz", **res)
