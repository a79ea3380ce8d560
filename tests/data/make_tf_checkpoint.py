"""Golden checkpoints written by real TensorFlow (2.21, `tensorflow.compat.v1` graph mode, CPU) for the
tests of tensorweave's reader and writer of TF's V2 checkpoint format (tests/train/test_tf_checkpoint.py).

Run once, with TensorFlow installed (it is not a dependency of tensorweave or of its tests), from the
repository root:

    /work/tfenv/bin/python tests/data/make_tf_checkpoint.py

It writes under tests/data/tf_checkpoint/:
  - model.ckpt-7.index, model.ckpt-7.data-00000-of-00001, checkpoint: `tf.train.Saver().save(sess,
    ".../model.ckpt", global_step=7)` of the variables in VARIABLES (float32, float64, int32, int64, bool
    and string values, a scalar, a 0-size tensor, names with '/', a global step, and twenty scalars
    `many/v00`...`many/v19` so the index block has several restart points);
  - sharded.ckpt.index, sharded.ckpt.data-0000{0,1}-of-00002: `tf.train.Saver(sharded=True)` of two
    variables placed on two CPU devices;
  - values.json: every tensor as TensorFlow's `NewCheckpointReader` returned it (dtype name, shape and
    values; strings as lists of latin-1 decoded bytes), and the debug string.
The `.meta` files are not written. VARIABLES is imported by the tests (this module needs TensorFlow
only in `main`).
"""

import json
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_checkpoint")

VARIABLES = [
    ("dense/kernel", np.arange(6, dtype=np.float32).reshape(2, 3) / 4 - 0.5),
    ("dense/bias", np.array([1.5, -2.25, 1e-30], dtype=np.float32)),
    ("f64", np.array([[np.pi, -np.e], [1e300, -0.0]], dtype=np.float64)),
    ("i32", np.array([[1, -2, 3], [2147483647, -2147483648, 0]], dtype=np.int32)),
    ("i64", np.array([9223372036854775807, -9223372036854775808, 5], dtype=np.int64)),
    ("flags", np.array([True, False, True, True], dtype=bool)),
    ("words", np.array([b"hello", b"", b"\xc3\xa9t\xc3\xa9", b"x" * 200], dtype=object)),
    ("words2d", np.array([[b"a", b"bc"], [b"def", b""]], dtype=object)),
    ("scalar", np.float32(3.5)),
    ("empty", np.zeros((0, 3), dtype=np.float32)),
    ("outer/inner/deep_name", np.array([[-1.0]], dtype=np.float64)),
] + [("many/v%02d" % i, np.int32(i * 11)) for i in range(20)]


def _jsonable(value):
    value = np.asarray(value)
    if value.dtype == object:
        flat = [v.decode("latin-1") for v in value.reshape(-1)]
    elif value.dtype == np.float32 or value.dtype == np.float64:
        flat = [repr(float(v)) for v in value.reshape(-1)]  # exact (repr of a double), -0.0 kept
    else:
        flat = [v.item() for v in value.reshape(-1)]
    return flat


def _dump(prefix):
    reader = tf.train.NewCheckpointReader(prefix)
    shapes = reader.get_variable_to_shape_map()
    dts = reader.get_variable_to_dtype_map()
    return {name: {"dtype": dts[name].name, "shape": list(shapes[name]),
                   "values": _jsonable(reader.get_tensor(name))} for name in sorted(shapes)}


def main():
    global tf
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    result = {}

    with tf.Graph().as_default():
        for name, value in VARIABLES:
            tf.Variable(value, name=name)
        step = tf.train.get_or_create_global_step()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(step.assign(7))
            saver = tf.train.Saver(save_relative_paths=True)
            prefix = saver.save(sess, os.path.join(OUT, "model.ckpt"), global_step=step, write_meta_graph=False)
    result["model.ckpt-7"] = _dump(prefix)
    result["model.ckpt-7.debug_string"] = tf.train.NewCheckpointReader(prefix).debug_string().decode("latin-1")

    with tf.Graph().as_default():
        with tf.device("/cpu:0"):
            tf.Variable(np.array([1.0, 2.0], dtype=np.float32), name="a")
        with tf.device("/cpu:1"):
            tf.Variable(np.array([[3, 4]], dtype=np.int64), name="b")
        with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
            sess.run(tf.global_variables_initializer())
            prefix = tf.train.Saver(sharded=True).save(sess, os.path.join(OUT, "sharded.ckpt"),
                                                       write_meta_graph=False, write_state=False)
    result["sharded.ckpt"] = _dump(prefix)

    with open(os.path.join(OUT, "values.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    for name in sorted(os.listdir(OUT)):
        print(name, os.path.getsize(os.path.join(OUT, name)))


if __name__ == "__main__":
    main()
