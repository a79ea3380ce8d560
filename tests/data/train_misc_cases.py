"""tf.train cases shared by tests/data/make_train_misc_tf.py (run with TensorFlow) and tests/train/test_train_misc.py
(run with tensorweave): every builder takes the `tf` module, so the same TF1 program is recorded with TensorFlow
and checked with tensorweave."""

import os

import numpy as np

DA_L1_L2 = [(0.0, 0.0), (0.01, 0.02), (0.3, 0.1)]
DA_VECTOR_L1 = [0.0, 0.2]
WARM_MODES = ["vocab", "vocab_small", "vocab_axis1", "regex", "all", "list", "prevname"]
SHRINK_L1_L2 = [(0.5, 1.0), (0.3, 0.1), (0.0, 1.0), (1.0, 4.0)]


def adagrad_da(tf, l1, l2, dt):
    """(gs, var, emb, opt, train): AdagradDA over a dense variable and a gathered (sparse) one."""
    gs = tf.train.get_or_create_global_step()
    var = tf.Variable(np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.5]], dt))
    emb = tf.Variable(np.arange(12, dtype=dt).reshape(4, 3) / 10.0)
    x = tf.constant(np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.7]], dt))
    loss = (tf.reduce_sum(var * x * var)
            + tf.reduce_sum(tf.gather(emb, [2, 0, 2]) * tf.constant(np.array([[1, -2, 3]], dt))))
    opt = tf.train.AdagradDAOptimizer(0.1, gs, initial_gradient_squared_accumulator_value=0.2,
                                      l1_regularization_strength=l1, l2_regularization_strength=l2)
    return gs, var, emb, opt, opt.minimize(loss, global_step=gs)


def adagrad_da_vector(tf, l1):
    """(vec, train): AdagradDA on a vector (SparseApplyAdagradDA's one-element-row path), repeated indices."""
    gs = tf.train.get_or_create_global_step()
    vec = tf.Variable(np.array([0.5, -1.0, 2.0, 0.0, 1.5], np.float32))
    loss = tf.reduce_sum(tf.gather(vec, [3, 1, 3, 0]) * tf.constant([1.0, -2.0, 0.5, 3.0]))
    opt = tf.train.AdagradDAOptimizer(0.2, gs, l1_regularization_strength=l1, l2_regularization_strength=0.05)
    return vec, opt.minimize(loss, global_step=gs)


def replica_device_setter_devices(tf):
    """{case: devices} of variables and ops placed by replica_device_setter, each case in a fresh graph."""
    cases = {}
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=3)):
            a = tf.Variable(1.0, name="a")
            b = tf.Variable(2.0, name="b")
            c = tf.Variable(3.0, name="c")
            d = tf.Variable(4.0, name="d")
            e = a + b
            cases["ps3"] = [a.device, b.device, c.device, d.device, e.device, a.initializer.device,
                            a.value().device]
    with tf.Graph().as_default():
        cluster = tf.train.ClusterSpec({"ps": ["ps0:2222", "ps1:2222"], "worker": ["w0:2222", "w1:2222"]})
        with tf.device(tf.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:1")):
            a = tf.Variable(1.0, name="a")
            b = tf.Variable(2.0, name="b")
            with tf.device("/cpu:0"):
                c = tf.Variable(3.0, name="c")
                f = a * 2.0
            with tf.device("/job:ps/task:0"):
                g = tf.Variable(3.0, name="g")
            e = a + b
            q = tf.FIFOQueue(3, tf.float32)
            cases["cluster"] = [a.device, b.device, c.device, f.device, g.device, e.device, q.queue_ref.device]
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, ps_device="/job:foo",
                                                      worker_device="/job:bar/task:2/device:GPU:0",
                                                      merge_devices=False)):
            a = tf.Variable(1.0, name="a")
            with tf.device("/job:x"):
                b = tf.Variable(2.0, name="b")
                h = a + 1.0
            e = a + b
            cases["nomerge"] = [a.device, b.device, h.device, e.device]
    cases["ps0_none"] = tf.train.replica_device_setter(ps_tasks=0) is None
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(cluster={"ps": ["a:1"], "worker": ["b:1", "c:1"]})):
            a = tf.Variable(1.0, name="a")
            e = a + 1.0
            cases["dict"] = [a.device, e.device]
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, ps_ops=["VariableV2", "Const"])):
            a = tf.Variable(1.0, name="a")
            k = tf.constant(2.0)
            e = a + k
            cases["ps_ops"] = [a.device, k.device, e.device]
    return cases


def cluster_spec(tf):
    return tf.train.ClusterSpec({"ps": ["ps0:2222", "ps1:2222"], "worker": {1: "w1:2222", 3: "w3:2222"}})


def cluster_spec_bad_calls(tf, c):
    """Calls on cluster_spec(tf) (and a ClusterSpec constructor call) that raise."""
    return [lambda: c.num_tasks("nope"), lambda: c.task_address("worker", 2), lambda: c.task_indices("x"),
            lambda: tf.train.ClusterSpec(3)]


def write_warm_dir(tf, d):
    """Writes the old and new vocabularies and a checkpoint of the old model into the folder `d`."""
    with open(os.path.join(d, "old.txt"), "w") as f:
        f.write("apple\nbanana\ncarrot\ndate\n")
    with open(os.path.join(d, "new.txt"), "w") as f:
        f.write("banana\nelder\napple\nfig\ndate\n")
    with tf.Graph().as_default():
        with tf.variable_scope("m"):
            tf.get_variable("emb", initializer=np.arange(12, dtype=np.float32).reshape(4, 3))
            tf.get_variable("w", initializer=np.array([1.0, 2.0], np.float32))
            tf.get_variable("out", initializer=np.arange(8, dtype=np.float32).reshape(2, 4))
            tf.get_variable("oldname", initializer=np.array([7.0, 8.0], np.float32))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, os.path.join(d, "model.ckpt"))


def warm(tf, d, mode):
    """The values of the new model's variables warm-started in `mode` from write_warm_dir's folder `d`."""
    old, new = os.path.join(d, "old.txt"), os.path.join(d, "new.txt")
    with tf.Graph().as_default():
        with tf.variable_scope("m"):
            emb = tf.get_variable("emb", shape=[6, 3], initializer=tf.constant_initializer(-1.0))
            w = tf.get_variable("w", shape=[2], initializer=tf.constant_initializer(-2.0))
            out = tf.get_variable("out", shape=[2, 6], initializer=tf.constant_initializer(-3.0))
            nn = tf.get_variable("newname", shape=[2], initializer=tf.zeros_initializer())
        if mode == "vocab":
            vi = tf.train.VocabInfo(new_vocab=new, new_vocab_size=5, num_oov_buckets=1, old_vocab=old,
                                    backup_initializer=tf.ones_initializer())
            tf.train.warm_start(d, vars_to_warm_start=["m/emb"], var_name_to_vocab_info={"m/emb": vi})
        elif mode == "vocab_small":
            vi = tf.train.VocabInfo(new_vocab=new, new_vocab_size=4, num_oov_buckets=2, old_vocab=old,
                                    old_vocab_size=3)
            tf.train.warm_start(d, vars_to_warm_start=["m/emb"], var_name_to_vocab_info={"m/emb": vi})
        elif mode == "vocab_axis1":
            vi = tf.train.VocabInfo(new_vocab=new, new_vocab_size=5, num_oov_buckets=1, old_vocab=old,
                                    backup_initializer=tf.ones_initializer(), axis=1)
            tf.train.warm_start(d, vars_to_warm_start="m/out", var_name_to_vocab_info={"m/out": vi})
        elif mode == "regex":
            tf.train.warm_start(d, vars_to_warm_start="m/w")
        elif mode == "all":
            tf.train.warm_start(d, vars_to_warm_start=".*", var_name_to_prev_var_name={"m/newname": "m/oldname"},
                                var_name_to_vocab_info={"m/emb": tf.train.VocabInfo(new, 5, 1, old)})
        elif mode == "list":
            tf.train.warm_start(os.path.join(d, "model.ckpt"), vars_to_warm_start=["m/w"])
        elif mode == "prevname":
            tf.train.warm_start(d, vars_to_warm_start=".*name.*", var_name_to_prev_var_name={"m/newname": "m/oldname"})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return [sess.run(v).tolist() for v in (emb, w, out, nn)]


def shrink_variables(tf):
    """(w1, w2): the variables sdca_shrink_l1 shrinks (w1 with NaN, infinities and signed zeros)."""
    w1 = tf.Variable(np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 0.1, -0.1, 5.0], np.float32))
    w2 = tf.Variable(np.array([[0.4, -0.5], [2.0, 0.1]], np.float32))
    return w1, w2
