"""Records tf.keras (TF 1.x graph mode, legacy OptimizerV2) optimizer trajectories.

Run: TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_optimizers_tf.py
"""

import json
import os

import numpy as np
import tensorflow.compat.v1 as tf
import tf_keras as keras

tf.disable_v2_behavior()

CASES = [
    ("SGD", {"learning_rate": 0.1}),
    ("SGD", {"learning_rate": 0.05, "momentum": 0.9}),
    ("SGD", {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True}),
    ("SGD", {"learning_rate": 0.1, "decay": 0.5}),
    ("SGD", {"learning_rate": 0.1, "clipnorm": 0.5}),
    ("SGD", {"learning_rate": 0.1, "clipvalue": 0.1}),
    ("RMSprop", {"learning_rate": 0.01}),
    ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5}),
    ("RMSprop", {"learning_rate": 0.01, "centered": True}),
    ("Adagrad", {"learning_rate": 0.1}),
    ("Adadelta", {"learning_rate": 1.0}),
    ("Adam", {"learning_rate": 0.01}),
    ("Adam", {"learning_rate": 0.01, "amsgrad": True}),
    ("Adam", {"learning_rate": 0.01, "decay": 0.1}),
    ("Adamax", {"learning_rate": 0.01}),
    ("Nadam", {"learning_rate": 0.01}),
]
X = np.array([[1.0, 2.0], [-0.5, 0.3], [0.7, -1.5]], np.float32)
Y = np.array([[0.2, -0.1], [1.0, 0.4], [-0.6, 0.9]], np.float32)
W0 = np.array([[0.5, -1.2], [0.3, 0.8]], np.float32)
B0 = np.array([0.1, -0.2], np.float32)
STEPS = 4


def run(cls, kwargs):
    with tf.Graph().as_default():
        w = tf.Variable(W0, use_resource=True)
        b = tf.Variable(B0, use_resource=True)
        loss = tf.reduce_sum(tf.square(tf.matmul(X, w) + b - Y)) + tf.reduce_sum(tf.sin(w))
        opt = getattr(keras.optimizers.legacy, cls)(**kwargs)
        updates = opt.get_updates(loss, [w, b])
        traj = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(STEPS):
                sess.run(updates)
                wv, bv = sess.run([w, b])
                traj.append([wv.tolist(), bv.tolist()])
            it = int(sess.run(opt.iterations))
    return {"class": cls, "kwargs": kwargs, "trajectory": traj, "iterations": it}


out = {"X": X.tolist(), "Y": Y.tolist(), "W0": W0.tolist(), "B0": B0.tolist(), "steps": STEPS,
       "cases": [run(c, k) for c, k in CASES]}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_optimizers_tf.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
print("wrote", path)
