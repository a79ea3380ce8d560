"""Writes the GraphDef goldens of tests/data/graphs/ with real TensorFlow (never a dependency of
tensorweave): a frozen CNN and an MLP, each with the input fed and the outputs TensorFlow computed.

    /work/tfenv/bin/python tests/data/make_tf_graphs.py

Made with TensorFlow 2.21 (CPU), `tf.compat.v1` with v2 behaviour disabled; the variables are
frozen into constants with TF's `convert_variables_to_constants`.
"""

import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "graphs")


def cnn():
    rng = np.random.RandomState(0)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 8, 8, 3], name="input")
        w = tf.Variable(rng.randn(3, 3, 3, 4).astype(np.float32) * 0.5, name="conv/w")
        b = tf.Variable(rng.randn(4).astype(np.float32), name="conv/b")
        y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), b))
        dw = tf.Variable(rng.randn(3, 3, 4, 1).astype(np.float32), name="dw/w")
        y = tf.nn.depthwise_conv2d(y, dw, [1, 1, 1, 1], "SAME")
        scale = tf.Variable(rng.rand(4).astype(np.float32) + 0.5, name="bn/gamma")
        offset = tf.Variable(rng.randn(4).astype(np.float32), name="bn/beta")
        mean = tf.Variable(rng.randn(4).astype(np.float32), name="bn/mean")
        var = tf.Variable(rng.rand(4).astype(np.float32) + 0.5, name="bn/var")
        y, _, _ = tf.nn.fused_batch_norm(y, scale, offset, mean, var, is_training=False)
        y = tf.nn.relu6(y)
        y = tf.nn.max_pool(y, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
        y2 = tf.nn.avg_pool(y, [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
        y = tf.concat([y, y2], axis=3)
        y = tf.pad(y, [[0, 0], [1, 1], [1, 1], [0, 0]])
        s = tf.shape(y)
        flat = tf.reshape(y, tf.stack([s[0], -1]))
        fw = tf.Variable(rng.randn(6 * 6 * 8, 5).astype(np.float32) * 0.1, name="fc/w")
        logits = tf.add(tf.matmul(flat, fw), 1.0)
        logits = tf.subtract(tf.multiply(logits, 2.0), tf.reduce_mean(logits, axis=[1], keepdims=True))
        sq = tf.squeeze(tf.expand_dims(logits, 1), [1])
        tf.identity(tf.nn.softmax(sq), name="probs")
        tf.identity(tf.reduce_mean(y, axis=[1, 2]), name="pooled")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            frozen = tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ["probs", "pooled"])
    return frozen, {"input:0": rng.randn(2, 8, 8, 3).astype(np.float32)}, ["probs:0", "pooled:0"]


def mlp():
    rng = np.random.RandomState(1)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 6], name="x")
        h = x
        for i, n in enumerate([16, 8]):
            w = tf.Variable(rng.randn(h.shape[1].value, n).astype(np.float32) * 0.3, name="dense%d/kernel" % i)
            b = tf.Variable(rng.randn(n).astype(np.float32) * 0.1, name="dense%d/bias" % i)
            h = tf.nn.relu(tf.nn.bias_add(tf.matmul(h, w), b))
        w = tf.Variable(rng.randn(8, 3).astype(np.float32), name="out/kernel")
        tf.nn.softmax(tf.matmul(h, w, transpose_b=False) + tf.constant([0.1, -0.2, 0.3]), name="y")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            frozen = tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ["y"])
    return frozen, {"x:0": rng.randn(4, 6).astype(np.float32)}, ["y:0"]


def resize():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [1, 4, 4, 1], name="x")
        tf.identity(tf.image.resize_bilinear(x, [8, 8]), name="y")
    return g.as_graph_def(), None, None


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, make in (("cnn", cnn), ("mlp", mlp), ("resize", resize)):
        graph_def, feeds, fetches = make()
        with open(os.path.join(OUT, name + ".pb"), "wb") as f:
            f.write(graph_def.SerializeToString())
        if feeds is None:
            continue
        g = tf.Graph()
        with g.as_default():
            tf.import_graph_def(graph_def, name="")
            with tf.Session() as sess:
                outs = sess.run(fetches, {k: v for k, v in feeds.items()})
        (feed_name, value), = feeds.items()
        np.save(os.path.join(OUT, name + "_input.npy"), value)
        for fetch, out in zip(fetches, outs):
            np.save(os.path.join(OUT, "%s_%s.npy" % (name, fetch.split(":")[0])), out)
        print(name, sorted({n.op for n in graph_def.node}))


if __name__ == "__main__":
    main()
