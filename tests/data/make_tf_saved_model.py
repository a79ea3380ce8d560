"""Writes the SavedModel golden files of issue 16 (item 4) with real TensorFlow (tensorflow.compat.v1,
graph mode, `disable_v2_behavior`: reference variables, TF 1.x semantics).

Run once with TensorFlow installed (not a dependency of tensorweave or its tests):

    /work/tfenv/bin/python tests/data/make_tf_saved_model.py

It was run with TensorFlow 2.21 (CPU). It writes, under tests/data/tf_saved_model/:

    model/                 `tf.saved_model.simple_save` of a small MLP (tag "serve", signature
                           "serving_default": input "x" [None, 4] float32, outputs "logits",
                           "probs", "scaled" and "asset_path"), with an asset (assets/vocab.txt, put
                           in the ASSET_FILEPATHS collection) and a main op (the local-variables
                           initializer: it sets a local variable from the asset path, fed by the
                           loader, and another one used by the "scaled" output)
    x.npy                  the input fed to the signature
    expected.npz           TensorFlow's outputs for it (logits, probs, scaled)
    golden.json            how the files were made, the signature's tensor names, the TF version

tests/saved_model/test_tf_golden.py loads the model with tensorweave and compares.
"""

import json
import os
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tf_saved_model")


def main():
    rng = np.random.RandomState(16)
    w1 = rng.standard_normal((4, 8)).astype(np.float32)
    b1 = rng.standard_normal(8).astype(np.float32)
    w2 = rng.standard_normal((8, 3)).astype(np.float32)
    b2 = rng.standard_normal(3).astype(np.float32)
    x_value = rng.standard_normal((5, 4)).astype(np.float32)

    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    export_dir = os.path.join(OUT, "model")
    scratch = tempfile.mkdtemp()
    vocab = os.path.join(scratch, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("cat\ndog\nbird\n")

    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        with tf.variable_scope("dense1"):
            kernel1 = tf.get_variable("kernel", initializer=w1)
            bias1 = tf.get_variable("bias", initializer=b1)
            h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, kernel1), bias1))
        with tf.variable_scope("dense2"):
            kernel2 = tf.get_variable("kernel", initializer=w2)
            bias2 = tf.get_variable("bias", initializer=b2)
            logits = tf.add(tf.matmul(h, kernel2), bias2, name="logits")
        probs = tf.nn.softmax(logits, name="probs")
        asset = tf.constant(vocab, name="asset_filepath")
        tf.add_to_collection(tf.GraphKeys.ASSET_FILEPATHS, asset)
        # Local variables: not in the checkpoint, set by the main op when the model is loaded.
        asset_path = tf.Variable(asset, trainable=False, collections=[tf.GraphKeys.LOCAL_VARIABLES],
                                 name="asset_path")
        scale = tf.Variable(2.5, trainable=False, collections=[tf.GraphKeys.LOCAL_VARIABLES], name="scale")
        scaled = tf.multiply(probs, scale, name="scaled")
        sess.run(tf.global_variables_initializer())
        sess.run(tf.local_variables_initializer())
        expected = sess.run({"logits": logits, "probs": probs, "scaled": scaled}, {x: x_value})
        tf.saved_model.simple_save(sess, export_dir, inputs={"x": x},
                                   outputs={"logits": logits, "probs": probs, "scaled": scaled,
                                            "asset_path": asset_path.value()},
                                   legacy_init_op=tf.local_variables_initializer())
    shutil.rmtree(scratch)

    # Check it loads back in TensorFlow (the asset path is fed with the copy under assets/).
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
        sig = meta.signature_def["serving_default"]
        fetches = {k: v.name for k, v in sig.outputs.items()}
        got = sess.run(fetches, {sig.inputs["x"].name: x_value})
        for k in expected:
            np.testing.assert_array_equal(got[k], expected[k])
        assert got["asset_path"].decode().endswith(os.path.join("assets", "vocab.txt")), got["asset_path"]

    np.save(os.path.join(OUT, "x.npy"), x_value)
    np.savez(os.path.join(OUT, "expected.npz"), **expected)
    info = {"made_by": "tests/data/make_tf_saved_model.py", "tensorflow_version": tf.__version__,
            "tags": ["serve"], "signature": "serving_default",
            "inputs": {k: v.name for k, v in sig.inputs.items()},
            "outputs": {k: v.name for k, v in sig.outputs.items()},
            "method_name": sig.method_name,
            "variables": sorted(name for name, _ in tf.train.list_variables(os.path.join(export_dir, "variables",
                                                                                          "variables")))}
    with open(os.path.join(OUT, "golden.json"), "w") as f:
        json.dump(info, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(info, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
