"""Writes the MetaGraphDef golden files of issue 16 (item 3) with real TensorFlow (tensorflow.compat.v1,
graph mode, `disable_v2_behavior`: reference variables, TF 1.x semantics).

Run once with TensorFlow installed (not a dependency of tensorweave or its tests):

    /work/tfenv/bin/python tests/data/make_tf_meta_graph.py

It was run with TensorFlow 2.21 (CPU). It builds a small linear model (variables "w" [3, 2] and
"b" [2], a global step), a mean-squared loss, a GradientDescentOptimizer(0.1) train op (in the
TRAIN_OP collection), a scalar summary of the loss and a `tf.train.Saver`, sets the variables to
fixed values, and writes under tests/data/tf_meta_graph/:

    model.ckpt-0.meta                 `Saver.save`'s binary MetaGraphDef
    model.ckpt-0.index / .data-...    the checkpoint of the fixed values
    model.pbtxt                       the same meta graph in protobuf text format
                                      (`tf.train.export_meta_graph(as_text=True)`)
    expected.json                     the input fed to "x"/"y", the loss TF printed before and
                                      after one run of the train op, and w, b after it

tests/train/test_tf_meta_graph.py imports the files with tensorweave and compares.
"""

import json
import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_meta_graph")
os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT):
    os.remove(os.path.join(OUT, f))

x_val = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0], [0.0, -1.5, 1.0], [2.0, 1.0, -1.0]], np.float32)
y_val = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.5]], np.float32)

with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 2], name="y")
    w = tf.Variable(tf.zeros([3, 2]), name="w")
    b = tf.Variable(tf.zeros([2]), name="b")
    global_step = tf.train.get_or_create_global_step()
    pred = tf.add(tf.matmul(x, w), b, name="pred")
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step, name="train")
    tf.add_to_collection(tf.GraphKeys.TRAIN_OP, train_op)
    tf.summary.scalar("loss", loss)
    tf.add_to_collection("my_numbers", 3)
    tf.add_to_collection("my_numbers", 4)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([w.assign([[0.5, -0.25], [0.1, 0.2], [-0.3, 0.4]]), b.assign([0.05, -0.1])])
        saver.save(sess, os.path.join(OUT, "model.ckpt"), global_step=0)
        loss0 = sess.run(loss, {x: x_val, y: y_val})
        sess.run(train_op, {x: x_val, y: y_val})
        loss1, w1, b1, step = sess.run([loss, w, b, global_step], {x: x_val, y: y_val})
    tf.train.export_meta_graph(os.path.join(OUT, "model.pbtxt"), as_text=True)

expected = {"x": x_val.tolist(), "y": y_val.tolist(), "loss_before": float(loss0), "loss_after": float(loss1),
            "w_after": w1.tolist(), "b_after": b1.tolist(), "global_step_after": int(step),
            "tensorflow_version": tf.__version__}
with open(os.path.join(OUT, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
os.remove(os.path.join(OUT, "checkpoint"))
print(json.dumps(expected, indent=1))
