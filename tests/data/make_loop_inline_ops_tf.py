"""Records TensorFlow's values of the scalar ops that compiled while loops inline (divisions and
remainders, min/max, shifts) into tests/data/loop_inline_ops_tf.npz, for
tests/runtime/test_loop_inline_ops.py.

Run with a Python that has TensorFlow (not needed by the tests):
    TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_loop_inline_ops_tf.py
TF 2.21's `tf.compat.v1` in graph mode on the CPU. Each op runs on the flat vectors of all pairs
`(x, y)` of a grid of values of one dtype; integer pairs with a zero divisor (an error) and
`MIN / -1` (undefined in C++) are left out. Keys: `<op>_<dtype>_x`, `_y` and `_z` (the result).
"""

import itertools
import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "loop_inline_ops_tf.npz")

_DIVISIONS = ["FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod"]
OPS = {
    "FloorDiv": (tf.math.floordiv, ("int32", "int64", "float32", "float64")),
    "FloorMod": (tf.math.floormod, ("int32", "int64", "float32", "float64")),
    "TruncateDiv": (tf.truncatediv, ("int32", "int64", "float32", "float64")),
    "TruncateMod": (tf.truncatemod, ("int32", "int64", "float32", "float64")),
    "RealDiv": (tf.realdiv, ("float32", "float64")),
    "Maximum": (tf.maximum, ("int32", "int64", "float32", "float64")),
    "Minimum": (tf.minimum, ("int32", "int64", "float32", "float64")),
    "LeftShift": (tf.bitwise.left_shift, ("int8", "int32", "int64", "uint8")),
    "RightShift": (tf.bitwise.right_shift, ("int8", "int32", "int64", "uint8")),
}


def grid(dtype, op_type):
    """The (x, y) value pairs one op and dtype are recorded for."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        vals = [-np.inf, -7.5, -6.0, -3.0, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 6.0, 7.5, np.inf, np.nan]
        return [(a, b) for a, b in itertools.product(vals, vals)]
    info = np.iinfo(dt)
    vals = [info.min, info.min + 1, -7, -6, -3, -1, 0, 1, 3, 6, 7, info.max - 1, info.max]
    if op_type.endswith("Shift"):
        ys = [-5, -1, 0, 1, 3, 7, 8, 9, 31, 32, 33, 63, 64, 100]
        return [(a, b) for a, b in itertools.product(vals, ys)
                if info.min <= a <= info.max and info.min <= b <= info.max]
    pairs = [(a, b) for a, b in itertools.product(vals, vals)
             if info.min <= a <= info.max and info.min <= b <= info.max]
    if op_type in _DIVISIONS:
        pairs = [(a, b) for a, b in pairs if b != 0 and not (a == info.min and b == -1)]
    return pairs


def main():
    rec = {}
    with tf.Graph().as_default(), tf.Session() as sess:
        for op_type, (fn, dts) in OPS.items():
            for dtype in dts:
                pairs = grid(dtype, op_type)
                x = np.array([a for a, _ in pairs], dtype)
                y = np.array([b for _, b in pairs], dtype)
                z = sess.run(fn(tf.constant(x), tf.constant(y)))
                key = "%s_%s" % (op_type, dtype)
                rec[key + "_x"], rec[key + "_y"], rec[key + "_z"] = x, y, np.asarray(z)
    np.savez(OUT, **rec)
    print("wrote %d arrays to %s" % (len(rec), OUT))


if __name__ == "__main__":
    main()
